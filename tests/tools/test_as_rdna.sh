#!/usr/bin/env bash
# test_as_rdna.sh - `gfxemu as` on RDNA3/RDNA4 (gfx1100, gfx1201), wave32 and wave64:
#  - --raw bytes of a source mixing the RDNA encodings equal llvm-mc-22's (its object's .text);
#  - a hand-written kernel with .amdhsa directives assembles into a code object whose kernel
#    descriptor equals the one llvm-mc-22 + ld.lld-22 build from the same source, and
#    `gfxemu run` of it gives the values worked out by hand (out[i] = i < 20 ? 3i + 7 : i * i);
#  - wave64 is chosen by --wave64 or by ".amdhsa_wavefront_size32 0"; wave32 text in wave64
#    and image instructions fail with located errors.
. "$(dirname "$0")/lib.sh"
tmp="$BUILD/test-data/as_rdna"
rm -rf "$tmp" && mkdir -p "$tmp"

# kernel CPU WAVE: the test kernel's source on stdout
kernel() {
    local cpu=$1 wave=$2 vcc=vcc_lo ws=1 wait="s_waitcnt lgkmcnt(0)"
    [ "$wave" = 64 ] && vcc=vcc ws=0
    [ "$cpu" = gfx1201 ] && wait="s_wait_kmcnt 0x0"
    cat <<EOF
	.amdgcn_target "amdgcn-amd-amdhsa--$cpu"
	.amdhsa_code_object_version 5
	.text
	.globl	sel
	.p2align	8
	.type	sel,@function
sel:
	s_load_b64 s[2:3], s[0:1], 0x0
	v_and_b32_e32 v0, 0x3ff, v0
	v_mad_u32_u24 v1, v0, 3, 7
	v_mul_u32_u24_e32 v2, v0, v0
	v_cmp_gt_u32_e32 $vcc, 20, v0
	v_cndmask_b32_e32 v1, v2, v1, $vcc
	v_lshlrev_b32_e32 v0, 2, v0
	$wait
	global_store_b32 v0, v1, s[2:3]
	s_endpgm
.Lend:
	.size	sel, .Lend-sel
	.section	.rodata,"a",@progbits
	.p2align	6, 0x0
	.amdhsa_kernel sel
		.amdhsa_kernarg_size 8
		.amdhsa_user_sgpr_count 2
		.amdhsa_user_sgpr_kernarg_segment_ptr 1
		.amdhsa_next_free_vgpr 3
		.amdhsa_next_free_sgpr 4
		.amdhsa_wavefront_size32 $ws
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
    .name:           sel
    .private_segment_fixed_size: 0
    .sgpr_count:     4
    .symbol:         sel.kd
    .vgpr_count:     3
    .wavefront_size: $wave
amdhsa.target:   amdgcn-amd-amdhsa--$cpu
amdhsa.version:
  - 1
  - 2
...
	.end_amdgpu_metadata
EOF
}

# the 64-byte kernel descriptor of sel.kd in a linked code object, as hex, without the entry
# offset (bytes 16..23: it depends on where the linker put the code)
kd_hex() {
    python3 - "$1" <<'PY'
import struct, sys
d = open(sys.argv[1], 'rb').read()
shoff, = struct.unpack_from('<Q', d, 0x28); shentsize, shnum, shstrndx = struct.unpack_from('<HHH', d, 0x3a)
secs = [struct.unpack_from('<IIQQQQIIQQ', d, shoff + i * shentsize) for i in range(shnum)]
strtab = secs[shstrndx]
def name(off, tab): e = d.index(b'\0', tab[4] + off); return d[tab[4] + off:e].decode()
for s in secs:
    if s[1] == 11:  # SHT_DYNSYM
        st = secs[s[6]]
        for k in range(s[5] // 24):
            nm, info, oth, shn, val, size = struct.unpack_from('<IBBHQQ', d, s[4] + 24 * k)
            if name(nm, st) == 'sel.kd':
                sec = secs[shn]
                off = sec[4] + val - sec[3]
                kd = d[off:off + 64]
                print((kd[:16] + kd[24:]).hex())
PY
}

want=$(python3 -c 'import struct; print(struct.pack("<64I", *[3 * i + 7 if i < 20 else i * i for i in range(64)]).hex())')
for cpu in gfx1100 gfx1201; do
    for wave in 32 64; do
        tag="${cpu}_w$wave"
        kernel $cpu $wave >"$tmp/k_$tag.s"
        attr=""
        [ $wave = 64 ] && attr="-mattr=+wavefrontsize64"
        # no --wave64: the descriptor's .amdhsa_wavefront_size32 0 selects wave64
        if ! "$GFXEMU" as "$tmp/k_$tag.s" -o "$tmp/k_$tag.co" 2>"$tmp/err"; then
            fail "$tag: gfxemu as: $(cat "$tmp/err")"
            continue
        fi
        llvm-mc-22 -triple=amdgcn-amd-amdhsa -mcpu=$cpu $attr -filetype=obj "$tmp/k_$tag.s" -o "$tmp/ref_$tag.o" &&
            ld.lld-22 -shared "$tmp/ref_$tag.o" -o "$tmp/ref_$tag.co" ||
            { fail "$tag: llvm-mc-22/ld.lld-22 could not build the reference"; continue; }
        ours=$(kd_hex "$tmp/k_$tag.co") theirs=$(kd_hex "$tmp/ref_$tag.co")
        [ -n "$ours" ] && [ "$ours" = "$theirs" ] ||
            fail "$tag: kernel descriptor differs from llvm-mc-22's: $ours vs $theirs"
        llvm-objcopy-22 -O binary --only-section=.text "$tmp/k_$tag.co" "$tmp/t_$tag.bin"
        llvm-objcopy-22 -O binary --only-section=.text "$tmp/ref_$tag.co" "$tmp/tr_$tag.bin"
        cmp -s "$tmp/t_$tag.bin" "$tmp/tr_$tag.bin" || fail "$tag: .text differs from llvm-mc-22's"
        if "$GFXEMU" run "$tmp/k_$tag.co" sel --grid 1 --block 64 --arg "out:$tmp/out_$tag.bin:256" 2>"$tmp/err"; then
            got=$(python3 -c "print(open('$tmp/out_$tag.bin','rb').read().hex())")
            [ "$got" = "$want" ] || fail "$tag: wrong results from the assembled kernel"
        else
            fail "$tag: gfxemu run: $(cat "$tmp/err")"
        fi
    done
done

# ---- raw bytes against llvm-mc-22 ---------------------------------------------------------------
# common RDNA forms; the second list per target holds what differs between gfx11 and gfx12.
# Old mnemonics llvm-mc-22 accepts (src/isa/gen/asm_alias.inc): v_add_u32 ... v_add_u32_e64_dpp
# (the suffixes stay), buffer_load_dword ... s_load_dword (gfx11), s_add_u32, v_max_f32,
# v_mad_u64_u32 (gfx12).
cat >"$tmp/common.s" <<'EOF'
	s_mov_b32 s0, 0x12345678
	s_and_b32 s1, s2, -5
	s_cmp_lg_u32 s1, 0
	s_delay_alu instid0(VALU_DEP_1) | instskip(NEXT) | instid1(SALU_CYCLE_1)
	s_load_b128 s[4:7], s[0:1], 0x10
	s_load_b32 s8, s[0:1], s9 offset:0x20
	v_add_f32 v0, v1, v2
	v_add_f32 v0, s1, 0.5
	v_fma_f32 v4, -v1, |v2|, 1.0 clamp
	v_add_co_u32 v0, vcc_lo, v1, v2
	v_add_co_ci_u32_e32 v3, vcc_lo, v4, v5, vcc_lo
	v_cmp_eq_u32_e64 s10, v1, v2
	v_cndmask_b32_e64 v6, v7, v8, s10
	v_mov_b32_dpp v0, v1 quad_perm:[1,0,3,2] row_mask:0xf bank_mask:0xf
	v_mov_b32_dpp v0, v1 dpp8:[7,6,5,4,3,2,1,0]
	v_add_f32_e64_dpp v0, v1, v2 row_shr:1 row_mask:0xf bank_mask:0xf
	v_dual_mul_f32 v0, v1, v2 :: v_dual_add_f32 v3, v4, v5
	v_dual_fmamk_f32 v6, v7, 0x40490fdb, v9 :: v_dual_mov_b32 v11, v12
	v_pk_fma_f16 v0, v1, v2, v3 op_sel:[1,0,0]
	v_mad_u64_u32 v[4:5], null, v0, s0, 0
	ds_load_b32 v0, v1 offset:4
	ds_store_2addr_b32 v1, v2, v3 offset0:4 offset1:8
	global_load_b64 v[4:5], v6, s[2:3] offset:-16
	global_store_b32 v[8:9], v1, off
	v_add_u32 v0, v1, v2
	s_load_dwordx2 s[2:3], s[0:1], 0x8
	global_load_dword v0, v1, s[2:3] offset:8
	ds_write_b32 v1, v2 offset:4
	s_andn2_b32 s0, s1, s2
	v_cvt_pkrtz_f16_f32 v0, v1, v2
	flat_load_dword v3, v[4:5]
	v_add_u32_e64 v0, v1, v2
	v_add_u32_dpp v0, v1, v2 quad_perm:[1,0,3,2] row_mask:0xf bank_mask:0xf
	v_add_u32_e64_dpp v0, v1, v2 quad_perm:[1,0,3,2] row_mask:0xf bank_mask:0xf
	s_endpgm
EOF
cat >"$tmp/gfx1100.s" <<'EOF'
	buffer_load_dword v0, v1, s[4:7], 0 offen offset:4
	v_dot2c_f32_f16 v0, v1, v2
	v_cmp_tru_f32_e64 s0, v1, v2
	s_load_dword s0, s[0:1], 0x4 glc
	s_waitcnt vmcnt(0) lgkmcnt(0)
	v_add_f16 v0.l, v1.h, v2.l
	v_mul_f16_e64 v1.h, v0.h, v0.l
	buffer_load_b32 v0, v1, s[4:7], 0 offen offset:4
	tbuffer_load_format_x v0, v1, s[4:7], 0 format:[BUF_FMT_32_FLOAT] offen
	flat_atomic_add_u32 v10, v[8:9], v2 glc
	lds_param_load v1, attr0.x wait_vdst:7
	v_interp_p10_f32 v0, v1, v2, v3
	v_wmma_f32_16x16x16_f16 v[0:7], v[8:15], v[16:23], v[0:7]
EOF
cat >"$tmp/gfx1201.s" <<'EOF'
	s_wait_loadcnt 0x0
	s_wait_kmcnt 0x0
	v_add_f16 v0, v1, v2
	buffer_load_b32 v0, v1, s[4:7], null offen offset:4
	global_load_b32 v0, v1, s[2:3] offset:-1024 th:TH_LOAD_NT scope:SCOPE_SYS
	global_atomic_add_u32 v0, v1, v2, s[2:3] th:TH_ATOMIC_RETURN
	v_swmmac_f32_16x16x32_f16 v[0:7], v[8:11], v[12:19], v20 index_key:1
	s_load_b32 s0, s[2:3], null
	s_add_u32 s1, s2, -5
	v_wmma_f32_16x16x16_f16 v[0:7], v[8:11], v[12:15], v[0:7]
	v_max_f32 v0, v1, v2
	v_mad_u64_u32 v[4:5], null, v0, s1, 0
EOF
for cpu in gfx1100 gfx1201; do
    cat "$tmp/common.s" "$tmp/$cpu.s" >"$tmp/raw_$cpu.s"
    "$GFXEMU" as --arch $cpu --raw "$tmp/raw_$cpu.s" -o "$tmp/raw_$cpu.bin" 2>"$tmp/err" ||
        { fail "$cpu: gfxemu as --raw: $(cat "$tmp/err")"; continue; }
    llvm-mc-22 -arch=amdgcn -mcpu=$cpu -filetype=obj "$tmp/raw_$cpu.s" -o "$tmp/raw_$cpu.o" &&
        llvm-objcopy-22 -O binary --only-section=.text "$tmp/raw_$cpu.o" "$tmp/raw_ref_$cpu.bin" ||
        { fail "$cpu: llvm-mc-22 rejects the raw source"; continue; }
    cmp -s "$tmp/raw_$cpu.bin" "$tmp/raw_ref_$cpu.bin" ||
        fail "$cpu: --raw bytes differ from llvm-mc-22's: $(cmp "$tmp/raw_$cpu.bin" "$tmp/raw_ref_$cpu.bin" 2>&1)"
done

# wave64 text: --wave64 (llvm-mc's -mattr=+wavefrontsize64)
cat >"$tmp/w64.s" <<'EOF'
	v_cmp_eq_u32_e64 s[10:11], v1, v2
	v_cndmask_b32_e64 v6, v7, v8, s[10:11]
	v_add_co_u32 v0, vcc, v1, v2
	v_cndmask_b32_e32 v0, v1, v2, vcc
	s_and_b64 exec, exec, s[10:11]
	v_wmma_f32_16x16x16_f16 v[0:3], v[8:15], v[16:23], v[0:3]
	s_endpgm
EOF
"$GFXEMU" as --arch gfx1100 --wave64 --raw "$tmp/w64.s" -o "$tmp/w64.bin" 2>"$tmp/err" ||
    fail "wave64: gfxemu as --wave64: $(cat "$tmp/err")"
llvm-mc-22 -arch=amdgcn -mcpu=gfx1100 -mattr=+wavefrontsize64 -filetype=obj "$tmp/w64.s" -o "$tmp/w64.o" &&
    llvm-objcopy-22 -O binary --only-section=.text "$tmp/w64.o" "$tmp/w64_ref.bin" &&
    cmp -s "$tmp/w64.bin" "$tmp/w64_ref.bin" || fail "wave64: --raw bytes differ from llvm-mc-22's"

# ---- errors -------------------------------------------------------------------------------------
expect_err() { # ARCH FLAGS SOURCE EXPECTED
    printf '%s\n' "$3" >"$tmp/bad.s"
    "$GFXEMU" as --arch "$1" $2 --raw "$tmp/bad.s" -o "$tmp/bad.bin" 2>"$tmp/err"
    rc=$?
    [ $rc -eq 1 ] || fail "'$3': exit status $rc, expected 1"
    grep -qF -- "$4" "$tmp/err" || fail "'$3': expected '$4' in: $(cat "$tmp/err")"
}
expect_err gfx1100 "" '	v_cndmask_b32_e32 v0, v1, v2, vcc' "bad.s:1:"
expect_err gfx1100 "" '	image_load v[0:3], v0, s[0:7] dmask:0xf dim:SQ_RSRC_IMG_1D' "does not encode the MIMG format"
expect_err gfx1201 "" '	s_waitcnt_vscnt null, 0x0' "unknown instruction 's_waitcnt_vscnt' on gfx1201"
expect_err gfx1100 "" '	v_dual_mov_b32 v0, v1 :: v_dual_mov_b32 v3, v5' "src0 operands must use different VGPR banks"
finish test_as_rdna
