#!/usr/bin/env bash
# test_rdna_image_fault.sh - image instructions (gfx1100 MIMG, gfx1201 VIMAGE/VSAMPLE) decode, print
# as llvm-objdump-22 does, and fault as unimplemented by name and pc when executed: gfxemu models
# no texture unit (README, "Known gaps").
. "$(dirname "$0")/lib.sh"
tmp="$BUILD/test-data/rdna_image_fault"
rm -rf "$tmp" && mkdir -p "$tmp"
for cpu in gfx1100 gfx1201; do
    if [ $cpu = gfx1100 ]; then
        insn="image_load v[0:3], v[4:5], s[8:15] dmask:0xf dim:SQ_RSRC_IMG_2D"
    else
        insn="image_load v[0:3], [v4, v5], s[8:15] dmask:0xf dim:SQ_RSRC_IMG_2D"
    fi
    cat >"$tmp/k.cl" <<CL
__kernel void img(__global int *out) {
    __asm__ volatile("$insn" ::: "v0", "v1", "v2", "v3", "v4", "v5");
    out[__builtin_amdgcn_workitem_id_x()] = 1;
}
CL
    co="$tmp/k_$cpu.co"
    compile_kernel "$tmp/k.cl" "$cpu" O2 "$co" || { fail "compiling for $cpu"; continue; }
    # the disassembly names it exactly as llvm-objdump-22 does
    want=$(llvm-objdump-22 -d --mcpu=$cpu "$co" | grep -o 'image_load[^/]*' | head -1 | sed 's/ *$//')
    got=$("$GFXEMU" disasm "$co" 2>&1 | grep -o 'image_load[^/]*' | head -1 | sed 's/ *$//')
    [ -n "$want" ] && [ "$want" = "$got" ] || fail "$cpu disasm: '$got', llvm '$want'"
    out=$("$GFXEMU" run "$co" img --grid 1 --block 32 --arg "out:$tmp/o.bin:128" 2>&1)
    rc=$?
    [ $rc -eq 1 ] || fail "$cpu img: exit $rc, want 1"
    case "$out" in
    "gfxemu: error: unimplemented instruction: 'image_load"*"' at pc 0x"*"(kernel img, workgroup (0,0,0), wave 0)") ;;
    *) fail "$cpu img: $out" ;;
    esac
done
finish test_rdna_image_fault
