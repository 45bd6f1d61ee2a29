#!/usr/bin/env bash
# test_raw_disasm.sh - `gfxemu disasm --raw` prints the text llvm-mc-22 prints for each word, and
# "<illegal 0x...>" for words LLVM 22 rejects.  Depends on the decoder/printer (src/isa).
. "$(dirname "$0")/lib.sh"
tmp="$BUILD/test-data/raw"
rm -rf "$tmp" && mkdir -p "$tmp"

common='s_endpgm
s_nop 0
s_waitcnt vmcnt(0) lgkmcnt(0)
s_mov_b32 s0, s1
s_add_u32 s0, s1, 0x12345678
s_branch 3
s_cbranch_execz 65533
v_mov_b32_e32 v0, v1
v_add_f32_e32 v0, 0x12345678, v1
v_fma_f32 v0, v1, v2, v3
v_cmp_gt_i32_e32 vcc, 0, v1
v_accvgpr_write_b32 a0, v4
global_load_dword v6, v[4:5], off
ds_write_b32 v1, v2
s_load_dwordx4 s[4:7], s[0:1], 0x0
buffer_load_dword v1, off, s[0:3], 0'
declare -A extra=(
    [gfx950]='v_mfma_f32_32x32x16_bf16 a[0:15], v[0:3], v[4:7], a[0:15]
v_pk_fma_f32 v[0:1], v[2:3], v[4:5], v[6:7] op_sel_hi:[0,1,1]'
    [gfx942]='v_mfma_f32_32x32x8_f16 a[0:15], v[0:1], v[2:3], a[0:15]
v_pk_fma_f32 v[0:1], v[2:3], v[4:5], v[6:7] op_sel_hi:[0,1,1]'
    [gfx90a]='v_mfma_f32_32x32x8f16 a[0:15], v[0:1], v[2:3], a[0:15]
v_mfma_f64_16x16x4f64 v[0:7], v[8:9], v[10:11], v[0:7]
v_pk_fma_f32 v[0:1], v[2:3], v[4:5], v[6:7] op_sel_hi:[0,1,1]
global_load_dword v1, v[2:3], off glc slc scc
buffer_invl2
buffer_wbl2'
)

for cpu in gfx950 gfx942 gfx90a; do
    printf '%s\n%s\n' "$common" "${extra[$cpu]}" |
        llvm-mc-22 -arch=amdgcn -mcpu="$cpu" -show-encoding >"$tmp/$cpu.enc" 2>&1 ||
        { fail "llvm-mc-22 could not assemble the $cpu snippets: $(cat "$tmp/$cpu.enc")"; continue; }
    # Build the binary and the expected text from llvm-mc's "TEXT ; encoding: [bytes]" lines,
    # with the RDNA3 word 0xf4080500 (illegal on CDNA) in the middle.
    python3 - "$tmp/$cpu.enc" "$tmp/$cpu.bin" "$tmp/$cpu.want" <<'PY'
import re, sys
insts = []
for line in open(sys.argv[1]):
    m = re.match(r"\s*(.*?)\s*; encoding: \[(.*)\]", line)
    if m:
        insts.append((m.group(1), bytes(int(b, 16) for b in m.group(2).split(","))))
insts.insert(len(insts) // 2, ("<illegal 0xf4080500>", bytes([0x00, 0x05, 0x08, 0xf4])))
open(sys.argv[2], "wb").write(b"".join(b for _, b in insts))
open(sys.argv[3], "w").write("".join(t + "\n" for t, _ in insts))
PY
    "$GFXEMU" disasm --arch "$cpu" --raw "$tmp/$cpu.bin" >"$tmp/$cpu.got" 2>&1 ||
        fail "$cpu: gfxemu exited $?"
    if ! cmp -s "$tmp/$cpu.want" "$tmp/$cpu.got"; then
        fail "$cpu: --raw output differs from llvm-mc-22"
        diff "$tmp/$cpu.want" "$tmp/$cpu.got" | head -n 20 >&2
    fi
done
# The single words the brief names, spelled out.
printf '\x00\x00\x81\xbf\x00\x05\x08\xf4' >"$tmp/two.bin"
[ "$("$GFXEMU" disasm --arch gfx950 --raw "$tmp/two.bin")" = "$(printf 's_endpgm\n<illegal 0xf4080500>')" ] ||
    fail "0xbf810000 0xf4080500 on gfx950: '$("$GFXEMU" disasm --arch gfx950 --raw "$tmp/two.bin")'"
finish test_raw_disasm
