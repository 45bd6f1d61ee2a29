#!/usr/bin/env bash
# test_rdna_exec_hi.sh - a wave32 program's EXEC_HI in `gfxemu run --trace` and `gfxemu debug`
# (gfx1100 and gfx1201).  EXEC_HI is a register a wave32 program may write and read, though no
# lane follows it (RDNA3 ISA 3.2.2); gfxemu keeps it outside s[127] (src/exec/rdna.c), and the
# trace and the debugger must show that value, not s[127]'s 0.  A clang-22 kernel writes EXEC
# with s_mov_b64 exec, s[4:5] (s5 = 0xabc), reads exec_hi back into the output, writes exec_hi =
# 0x123 and restores exec_lo.  Expected lines are worked out from those values by hand.
. "$(dirname "$0")/lib.sh"
tmp="$BUILD/test-data/rdna_exec_hi"
rm -rf "$tmp" && mkdir -p "$tmp"
cat >"$tmp/k.cl" <<'CL'
__kernel void xh(__global uint *out) {
    uint hi;
    __asm__ volatile("s_mov_b32 s4, 0xffff\n\ts_mov_b32 s5, 0xabc\n\ts_mov_b64 exec, s[4:5]\n\t"
                     "s_mov_b32 %0, exec_hi\n\ts_mov_b32 exec_hi, 0x123\n\ts_mov_b32 exec_lo, -1"
                     : "=s"(hi) :: "s4", "s5");
    out[__builtin_amdgcn_workitem_id_x()] = hi;
}
CL
# has NAME LINE TEXT: TEXT has LINE
has() { has_line "$2" "$3" || fail "$1: no line '$2' in:
$3"; }
for cpu in gfx1100 gfx1201; do
    co="$tmp/k_$cpu.co"
    compile_kernel "$tmp/k.cl" "$cpu" O2 "$co" || { fail "compiling for $cpu"; continue; }
    "$GFXEMU" run "$co" xh --grid 1 --block 32 --arg "out:$tmp/o.bin:128" --trace "$tmp/t.txt" ||
        fail "$cpu run"
    # every lane stored EXEC_HI as s_mov_b32 read it: 0xabc
    words=$(od -An -v -tx4 "$tmp/o.bin" | tr -s ' \n' '  ')
    [ "$words" = " $(printf '00000abc %.0s' $(seq 32))" ] || fail "$cpu output: $words"
    # the trace cuts each line after its '|' list; the listing is "<instruction> | <registers>"
    trace=$(sed 's/^.*exec 0x[0-9a-f]*  //' "$tmp/t.txt")
    has "$cpu trace" "s_mov_b64 exec, s[4:5] | exec=0x00000abc0000ffff" "$trace"
    has "$cpu trace" "s_mov_b32 s2, exec_hi | s2=0x00000abc" "$trace"
    has "$cpu trace" "s_mov_b32 exec_hi, 0x123 | exec_hi=0x00000123" "$trace"
    has "$cpu trace" "s_mov_b32 exec_lo, -1 | exec_lo=0xffffffff" "$trace"
    # the EXEC column: lanes 0-15 after the 64-bit write (EXEC_LO), all 32 after the restore
    grep -q 'pc 0x[0-9a-f]* exec 0x000000000000ffff  s_mov_b32 exec_hi, 0x123 ' "$tmp/t.txt" ||
        fail "$cpu trace: exec column of s_mov_b32 exec_hi"
    ! grep -q 's?' "$tmp/t.txt" || fail "$cpu trace names an engine slot: $(grep 's?' "$tmp/t.txt")"

    # debugger: stop before the restore of exec_lo; exec_hi (s127) reads 0x123, exec the
    # 64-bit value; a write of exec_hi is what the program then reads
    pc=$("$GFXEMU" disasm "$co" | grep -m1 's_mov_b32 exec_lo, -1' | sed 's/.*\/\/ 0*\([0-9A-Fa-f]*\):.*/\1/')
    out=$(printf '%s\n' "break 0x$pc" continue "p exec_hi" "p exec" "set exec_hi 0x77" step \
        "p exec" "p s127" continue | "$GFXEMU" debug "$co" xh --grid 1 --block 32 \
        --arg "out:$tmp/o.bin:128" 2>&1)
    has "$cpu debug" "(gfxemu) p exec_hi" "$out"
    has "$cpu debug" "s127 = 0x00000123 (291, 4.07777853e-43)" "$out"
    has "$cpu debug" "exec = 0x000001230000ffff (1249835548671)" "$out"
    has "$cpu debug" "exec = 0x00000077ffffffff (515396075519)" "$out"
    has "$cpu debug" "s127 = 0x00000077 (119, 1.66754517e-43)" "$out"
done
finish test_rdna_exec_hi
