#!/usr/bin/env bash
# test_as_cli.sh - `gfxemu as`: --raw bytes equal llvm-mc-22's for a source with labels, branches
# (forward and backward), data in .text and comments; a hand-written kernel (no clang) assembles
# into a code object that gfxemu runs with the expected results; bad input gives located errors
# (LINE:COL) naming what was expected; usage errors exit 2.
. "$(dirname "$0")/lib.sh"
tmp="$BUILD/test-data/as"
rm -rf "$tmp" && mkdir -p "$tmp"

# ---- raw bytes against llvm-mc-22 (assembled as an object, .text extracted) --------------------
cat >"$tmp/prog.s" <<'EOF'
	.text
start:                          ; a label, then code
	s_mov_b32 s0, 0             // another comment style
	s_cbranch_scc0 fwd
back:
	v_add_f32_e32 v0, 1.0, v1
	v_add_f32 v2, s0, v3        ; no suffix: llvm-mc picks _e32
	v_add_f32 v2, v3, s1        ; SGPR in src1: only _e64 fits
	v_fma_f32 v4, -v1, |v2|, 0.5 clamp
	s_add_u32 s1, s2, 0x12345678
	global_load_dwordx2 v[4:5], v[6:7], off offset:-16 sc0
	ds_write2_b32 v1, v2, v3 offset0:4 offset1:8
	s_waitcnt vmcnt(0) lgkmcnt(0)
	v_mov_b32_dpp v0, v1 row_shr:1 row_mask:0xf bank_mask:0xf
	v_pk_fma_f16 v0, v1, v2, v3 op_sel:[1,0,0]
	s_setreg_imm32_b32 hwreg(HW_REG_MODE, 0, 4), 3
	s_setreg_imm32_b32 hwreg(1, 23, 1), 1  ; a numeric hwreg id (printed as HW_REG_MODE)
	s_getreg_b32 s0, hwreg(1)
	s_load_dword s0, s[0:1], s2 offset:0   ; SMEM offset:0 beside an SGPR: the soe form
	ds_read_b32 v1, v2 offset:0            ; default values spelled out: as if left out
	v_pk_add_f16 v0, v1, v2 op_sel:[0,0] neg_lo:[0,0]
	v_pk_mul_f32 v[0:1], v[2:3], v[4:5] op_sel:[1,0] op_sel_hi:[1,1]  ; the packed default
	v_pk_fma_f32 v[0:1], v[2:3], s[2:3], v[6:7] op_sel_hi:[1,1,1]
	s_sendmsg 0                            ; numbers where the printer shows symbols
	ds_swizzle_b32 v4, v2 offset:0x801b
	ds_swizzle_b32 v4, v2 offset:0x1ca3     ; printed "000i0", whose masks would be 0x802
	s_branch back
fwd:
	.p2align 4
	.long 0x12345678, fwd - start
	.byte 1, 2, 3, 4
	.fill 2, 4, 0xbf800000
	s_endpgm
EOF
for arch in gfx950 gfx942; do
    if ! "$GFXEMU" as --arch "$arch" --raw "$tmp/prog.s" -o "$tmp/prog_$arch.bin" 2>"$tmp/err"; then
        fail "$arch: gfxemu as --raw failed: $(cat "$tmp/err")"
        continue
    fi
    llvm-mc-22 -arch=amdgcn -mcpu="$arch" -filetype=obj "$tmp/prog.s" -o "$tmp/prog_$arch.o" &&
        llvm-objcopy-22 -O binary --only-section=.text "$tmp/prog_$arch.o" "$tmp/ref_$arch.bin" ||
        { fail "$arch: llvm-mc-22 could not build the reference"; continue; }
    cmp -s "$tmp/prog_$arch.bin" "$tmp/ref_$arch.bin" ||
        fail "$arch: --raw bytes differ from llvm-mc-22's: $(cmp "$tmp/prog_$arch.bin" "$tmp/ref_$arch.bin" 2>&1)"
done

# ---- a hand-written kernel, assembled and run without clang or lld -----------------------------
# out[i] = 3 * i + 7 for i < 64 (one wave): checked against values worked out by hand.
cat >"$tmp/k.s" <<'EOF'
	.amdgcn_target "amdgcn-amd-amdhsa--gfx950"
	.amdhsa_code_object_version 5
	.text
	.globl	affine
	.p2align	8
	.type	affine,@function
affine:
	s_load_dwordx2 s[2:3], s[0:1], 0x0
	v_mad_u32_u24 v1, v0, 3, 7
	v_lshlrev_b32_e32 v0, 2, v0
	s_waitcnt lgkmcnt(0)
	global_store_dword v0, v1, s[2:3]
	s_endpgm
.Lend:
	.size	affine, .Lend-affine
	.section	.rodata,"a",@progbits
	.p2align	6, 0x0
	.amdhsa_kernel affine
		.amdhsa_kernarg_size 8
		.amdhsa_user_sgpr_count 2
		.amdhsa_user_sgpr_kernarg_segment_ptr 1
		.amdhsa_next_free_vgpr 2
		.amdhsa_next_free_sgpr 4
		.amdhsa_accum_offset 4
	.end_amdhsa_kernel
	.text
	.amdgpu_metadata
---
amdhsa.kernels:
  - .args:
      - .address_space:  global
        .offset:         0
        .size:           8
        .value_kind:     global_buffer
    .group_segment_fixed_size: 0
    .kernarg_segment_align: 8
    .kernarg_segment_size: 8
    .max_flat_workgroup_size: 64
    .name:           affine
    .private_segment_fixed_size: 0
    .sgpr_count:     10
    .symbol:         affine.kd
    .vgpr_count:     2
    .wavefront_size: 64
amdhsa.target:   amdgcn-amd-amdhsa--gfx950
amdhsa.version:
  - 1
  - 2
...
	.end_amdgpu_metadata
EOF
if "$GFXEMU" as "$tmp/k.s" -o "$tmp/k.co" 2>"$tmp/err"; then
    warn=$(llvm-readelf-22 -a "$tmp/k.co" 2>&1 >/dev/null)
    [ -z "$warn" ] || fail "llvm-readelf-22 warns about the code object: $warn"
    llvm-objdump-22 -d --mcpu=gfx950 "$tmp/k.co" >"$tmp/objdump.txt" 2>"$tmp/err2" && [ ! -s "$tmp/err2" ] ||
        fail "llvm-objdump-22 -d: $(cat "$tmp/err2")"
    grep -q "v_mad_u32_u24 v1, v0, 3, 7" "$tmp/objdump.txt" || fail "llvm-objdump-22 does not list the kernel's code"
    if "$GFXEMU" run "$tmp/k.co" affine --grid 1 --block 64 --arg "out:$tmp/out.bin:256" 2>"$tmp/err"; then
        want=$(python3 -c 'import struct; print(struct.pack("<64I", *[3 * i + 7 for i in range(64)]).hex())')
        got=$(python3 -c "print(open('$tmp/out.bin','rb').read().hex())")
        [ "$got" = "$want" ] || fail "hand-written kernel: wrong results"
    else
        fail "gfxemu run on the assembled kernel: $(cat "$tmp/err")"
    fi
else
    fail "gfxemu as k.s: $(cat "$tmp/err")"
fi

# ---- located errors ----------------------------------------------------------------------------
# expect_err SOURCE EXPECTED-SUBSTRING: assembling SOURCE fails with exit 1 and the message.
expect_err() {
    printf '%s\n' "$1" >"$tmp/bad.s"
    "$GFXEMU" as --arch gfx950 --raw "$tmp/bad.s" -o "$tmp/bad.bin" 2>"$tmp/err"
    rc=$?
    [ $rc -eq 1 ] || fail "'$1': exit status $rc, expected 1"
    grep -qF -- "$2" "$tmp/err" || fail "'$1': expected '$2' in: $(cat "$tmp/err")"
}
expect_err '	v_bogus_f32 v0, v1' 'bad.s:1:2: unknown instruction '"'"'v_bogus_f32'"'"
expect_err '	s_mov_b32 s0, s1
	v_add_f32_e32 v0, v1, s2' 'bad.s:2:24: invalid operand for '"'"'v_add_f32_e32'"'"': expected a vector register'
expect_err '	s_load_dword s0, v[0:1], 0x0' 'bad.s:1:19: invalid operand for '"'"'s_load_dword'"'"': expected an SGPR pair'
expect_err '	.bogus 1' 'bad.s:1:2: unknown directive '"'"'.bogus'"'"
expect_err '	s_branch nowhere' 'undefined symbol'
expect_err '	.amdhsa_kernel k
	.amdhsa_bogus 1
	.end_amdhsa_kernel' "bad.s:2:2: unknown kernel descriptor directive '.amdhsa_bogus'"
# rules llvm-mc enforces beyond the encoding: one scalar value per VALU instruction on GFX9,
# even-aligned VGPR tuples on gfx90a and later
expect_err '	v_add_f32_e64 v0, s1, s2' "bad.s:1:2: invalid operand (violates constant bus restrictions)"
expect_err '	ds_or_rtn_b64 a[5:6], v2, a[14:15]' "bad.s:1:2: invalid register class: vgpr tuples must be 64 bit aligned"
expect_err '	s_mov_b32 s0, null' "'null' operand is not supported on this GPU"
# no VOP3/VOP3P literal on GFX9 (the gfx950 disassembler reads one after a source of 255)
expect_err '	v_add_f32_e64 v17, v0, -0.0 clamp div:2' "bad.s:1:2: literal operands are not supported"
expect_err '	v_pk_add_f32 v[0:1], v[2:3], 0x12345678' "literal operands are not supported"
expect_err '	v_fma_f32 v0, s1, v2, 0x3e800000' "literal operands are not supported"
expect_err '	v_permlane32_swap_b32_e32 v49, src_shared_base' "invalid operand for instruction"
# pointers need a dynamic relocation, which only writable data takes, in an 8-byte field
expect_err '	.section .rodata
p:	.quad p' "bad.s:2:10: 'p' is an address: a pointer needs a dynamic relocation"
expect_err '	.data
x:	.long x' "bad.s:2:10: 'x' is an address: it needs an 8-byte field (.quad)"
expect_err '	.bss
	.long 1' ".bss holds only zeros"

# ---- writable program-scope data: .data.rel.ro pointers, .data, .bss ---------------------------
# Pointers become R_AMDGPU_RELATIVE64 relocations whose addend is the target's address; .bss takes
# no file bytes; llvm-readelf-22 reads it all without a warning.
cat >"$tmp/data.s" <<'S'
	.amdgcn_target "amdgcn-amd-amdhsa--gfx950"
	.text
	s_endpgm
	.section .rodata
	.p2align 4
	.globl tbl
tbl:
	.long 1, 2, 3, 4
	.section .data.rel.ro,"aw",@progbits
	.p2align 3
	.globl ptrs
ptrs:
	.quad tbl
	.quad tbl+8
	.quad cnt
	.data
	.globl vals
vals:
	.long 10, 20
	.bss
	.globl cnt
cnt:
	.zero 12
S
"$GFXEMU" as "$tmp/data.s" -o "$tmp/data.co" 2>"$tmp/err" || fail "data.s: $(cat "$tmp/err")"
llvm-readelf-22 -a "$tmp/data.co" >"$tmp/data.txt" 2>"$tmp/err"
[ -s "$tmp/err" ] && fail "llvm-readelf-22 warns: $(cat "$tmp/err")"
symval() { awk -v n="$1" '$8 == n { print $2; exit }' "$tmp/data.txt" | sed 's/^0*//'; }
addends=$(awk '/R_AMDGPU_RELATIVE64/ { print $NF }' "$tmp/data.txt" | tr '\n' ' ')
want="$(symval tbl) $(printf '%x' $((0x$(symval tbl) + 8))) $(symval cnt) "
[ "$addends" = "$want" ] || fail "relocation addends '$addends', expected '$want'"
grep -Eq '\.bss +NOBITS +[0-9a-f]+ [0-9a-f]+ 00000c ' "$tmp/data.txt" || fail ".bss is not a 12-byte NOBITS section"
grep -Eq '\.data +PROGBITS .* WA ' "$tmp/data.txt" || fail ".data is not writable PROGBITS"
grep -Eq '\(RELA\) ' "$tmp/data.txt" || fail "no DT_RELA in .dynamic"

# a branch 40000 words away does not fit SIMM16
{
    echo '	s_branch far'
    echo '	.fill 40000, 4, 0xbf800000'
    echo 'far:'
    echo '	s_endpgm'
} >"$tmp/far.s"
"$GFXEMU" as --arch gfx950 --raw "$tmp/far.s" -o "$tmp/far.bin" 2>"$tmp/err" && fail "out-of-range branch accepted"
grep -qF "far.s:1:11: branch target 'far' out of range" "$tmp/err" || fail "out-of-range branch: $(cat "$tmp/err")"

# ---- usage -------------------------------------------------------------------------------------
"$GFXEMU" as --arch gfx950 --raw "$tmp/prog.s" 2>/dev/null
[ $? -eq 2 ] || fail "missing -o is not a usage error"
"$GFXEMU" as --raw "$tmp/prog.s" -o "$tmp/x" 2>/dev/null
[ $? -eq 2 ] || fail "--raw without --arch is not a usage error"
"$GFXEMU" as --help | grep -q "usage: gfxemu as" || fail "gfxemu as --help"

finish test_as_cli
