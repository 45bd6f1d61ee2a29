#!/usr/bin/env bash
# test_memcheck_cli.sh - `gfxemu run` memory semantics (issues #13, #17): an off-by-one store
# runs as on hardware by default and --memcheck (or GFXEMU_MEMCHECK=1) reports every bad lane
# and exits 1 after writing the outputs; a program-scope counter persists across the launch and
# --dump-global writes it; fault messages say what a bad address is (a code object section, a
# wave's private memory, unmapped).  Expected values are worked out from the kernel source.
. "$(dirname "$0")/lib.sh"
tmp="$BUILD/test-data/memcheck_cli"
rm -rf "$tmp" && mkdir -p "$tmp"
cat >"$tmp/k.cl" <<'CL'
__global int counter;
__constant int lut[4] = {1, 2, 3, 4};
__kernel void off_by_one(__global int *out) {
    int i = __builtin_amdgcn_workitem_id_x();
    out[i + 1] = i;                            /* out has 64 ints: lane 63 writes out[64] */
}
__kernel void count(__global int *out) {
    int i = __builtin_amdgcn_workitem_id_x() + 64 * __builtin_amdgcn_workgroup_id_x();
    out[i] = lut[__atomic_fetch_add(&counter, 1, __ATOMIC_RELAXED) & 3];
}
__kernel void past_image(__global int *out, int k) {
    out[0] = lut[k];                           /* k = 8192: 32 KiB past the table */
}
__kernel void priv_overflow(__global int *out, int k) {
    volatile int a[4];
    a[k] = 1;                                  /* k far outside the 16-byte array */
    out[0] = a[0];
}
CL
for cpu in gfx950 gfx942; do
    co="$tmp/k_$cpu.co"
    compile_kernel "$tmp/k.cl" "$cpu" O0 "$co" || { fail "compiling for $cpu"; continue; }

    # default: the store into the buffer's padding works, as on hardware
    out=$("$GFXEMU" run "$co" off_by_one --grid 1 --block 64 --arg "out:$tmp/o.bin:256" 2>&1)
    rc=$?
    [ $rc -eq 0 ] || fail "$cpu off_by_one: exit $rc, want 0: $out"
    python3 - "$tmp/o.bin" <<'PY' || fail "$cpu off_by_one: wrong output"
import struct, sys
v = struct.unpack("<64i", open(sys.argv[1], "rb").read())
sys.exit(v != tuple([0] + list(range(63))))
PY
    # --memcheck: one report for lane 63, outputs still written, exit 1
    rm -f "$tmp/o.bin"
    out=$("$GFXEMU" run "$co" off_by_one --grid 1 --block 64 --arg "out:$tmp/o.bin:256" \
        --memcheck 2>&1)
    rc=$?
    [ $rc -eq 1 ] || fail "$cpu --memcheck: exit $rc, want 1"
    case "$out" in
    "memcheck: write of 4 bytes at 0x"*"(0 bytes past the end of the 256-byte buffer at 0x"*"global_store_dword"*"lane 63)"*"memcheck: 1 error (0 widened scalar loads not reported)") ;;
    *) fail "$cpu --memcheck: unexpected report: $out" ;;
    esac
    [ -s "$tmp/o.bin" ] || fail "$cpu --memcheck: the output was not written"
    out=$(GFXEMU_MEMCHECK=1 "$GFXEMU" run "$co" off_by_one --grid 1 --block 64 \
        --arg "out:$tmp/o.bin:256" 2>&1)
    [ $? -eq 1 ] && [ "$(printf '%s\n' "$out" | grep -c '^memcheck: write')" -eq 1 ] ||
        fail "$cpu GFXEMU_MEMCHECK=1: $out"

    # program-scope data: 128 work-items take counter values 0..127 and read lut through them
    out=$("$GFXEMU" run "$co" count --grid 2 --block 64 --arg "out:$tmp/c.bin:512" \
        --dump-global "counter:$tmp/counter.bin" --dump-global "lut:$tmp/lut.bin" 2>&1)
    [ $? -eq 0 ] || fail "$cpu count: $out"
    python3 - "$tmp" <<'PY' || fail "$cpu count: wrong results"
import struct, sys
d = sys.argv[1]
c = struct.unpack("<128i", open(d + "/c.bin", "rb").read())
ok = struct.unpack("<i", open(d + "/counter.bin", "rb").read()) == (128,)
ok &= open(d + "/lut.bin", "rb").read() == struct.pack("<4i", 1, 2, 3, 4)
ok &= sorted(c) == sorted([1, 2, 3, 4] * 32)
sys.exit(not ok)
PY
    out=$("$GFXEMU" run "$co" count --grid 1 --block 64 --arg "zero:256" \
        --dump-global "nothing:$tmp/n.bin" 2>&1)
    [ $? -eq 1 ] && case "$out" in *"no program-scope variable 'nothing'"*) true ;; *) false ;; esac ||
        fail "$cpu --dump-global of an unknown name: $out"

    # fault messages classify the address
    out=$("$GFXEMU" run "$co" past_image --grid 1 --block 64 --arg "zero:4" \
        --arg i32:8192 2>&1)
    case "$out" in
    "gfxemu: error: memory fault: read of 4 bytes at 0x"*" bytes past the end of .bss of module k_$cpu.co (image at 0x"*) ;;
    *) fail "$cpu past_image: unexpected message: $out" ;;
    esac
    out=$("$GFXEMU" run "$co" priv_overflow --grid 1 --block 64 --arg "zero:4" \
        --arg i32:100000 2>&1)
    case "$out" in
    "gfxemu: error: memory fault: write of 4 bytes at 0x"*"in the private memory of wave 0, beyond its private segment of "*" bytes per lane)"*) ;;
    *) fail "$cpu priv_overflow: unexpected message: $out" ;;
    esac
done
finish test_memcheck_cli
