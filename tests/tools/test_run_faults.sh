#!/usr/bin/env bash
# test_run_faults.sh - bad clang-22 kernels through `gfxemu run` stop with the right one-line
# fault, quickly, never a crash: an instruction gfxemu cannot execute (s_rfe_restore_b64) is named with
# its pc; a store far past the end of a buffer is a write fault naming where the address lies
# and writes nothing outside it; an infinite loop ends at --max-insts.
. "$(dirname "$0")/lib.sh"
tmp="$BUILD/test-data/run_faults"
rm -rf "$tmp" && mkdir -p "$tmp"
cat >"$tmp/k.cl" <<'CL'
__kernel void gws(__global float *out, __global const float *a, __global const float *b) {
    unsigned l = __builtin_amdgcn_workitem_id_x();
    __asm__ volatile("s_rfe_restore_b64 s[0:1], s2");
    out[l] = a[l] + b[l];
}
__kernel void store_all(__global int *out) {
    out[__builtin_amdgcn_workitem_id_x() * 16384] = 7;
}
__kernel void spin(__global int *out, int n) {
    while (n != 12345)
        n = n * 3 + 1;
    out[0] = n;
}
CL
python3 -c "open('$tmp/z.bin','wb').write(bytes(256))"
for cpu in gfx950 gfx942 gfx90a; do
    co="$tmp/k_$cpu.co"
    compile_kernel "$tmp/k.cl" "$cpu" O2 "$co" || { fail "compiling for $cpu"; continue; }

    out=$("$GFXEMU" run "$co" gws --grid 1 --block 64 --arg "out:$tmp/o.bin:1024" \
        --arg "in:$tmp/z.bin" --arg "in:$tmp/z.bin" 2>&1)
    rc=$?
    [ $rc -eq 1 ] || fail "$cpu gws: exit $rc, want 1"
    case "$out" in
    "gfxemu: error: unimplemented instruction: 's_rfe_restore_b64"*"' at pc 0x"*"(kernel gws, workgroup (0,0,0), wave 0)") ;;
    *) fail "$cpu gws: unexpected message: $out" ;;
    esac
    [ "$(printf '%s\n' "$out" | wc -l)" -eq 1 ] || fail "$cpu gws: more than one line: $out"

    # 64 lanes store 64 KiB apart into a 16-int buffer: lane 1 is the first one outside its
    # page (65472 bytes past the end: still "near" it).
    out=$("$GFXEMU" run "$co" store_all --grid 1 --block 64 --arg "out:$tmp/s.bin:64" 2>&1)
    rc=$?
    [ $rc -eq 1 ] || fail "$cpu store_all: exit $rc, want 1"
    case "$out" in
    "gfxemu: error: memory fault: write of 4 bytes at 0x"*"(65472 bytes past the end of the 64-byte buffer"*"global_store_dword"*) ;;
    *) fail "$cpu store_all: unexpected message: $out" ;;
    esac
    [ ! -e "$tmp/s.bin" ] || fail "$cpu store_all: an output file was written after a fault"

    start=$(date +%s)
    out=$("$GFXEMU" run "$co" spin --grid 1 --block 64 --arg "zero:4" --arg i32:0 \
        --max-insts 2000000 2>&1)
    rc=$?
    [ $rc -eq 1 ] || fail "$cpu spin: exit $rc, want 1"
    case "$out" in
    "gfxemu: error: watchdog"*) ;;
    *) fail "$cpu spin: unexpected message: $out" ;;
    esac
    [ $(($(date +%s) - start)) -le 10 ] || fail "$cpu spin: the watchdog took more than 10 s"
done
finish test_run_faults
