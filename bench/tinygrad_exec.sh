#!/bin/bash
# tinygrad_exec.sh TINYGRAD_DIR [TEST_MODULE] - issue #23 item 9, run by hand (CI cannot fetch
# tinygrad; not part of `make bench`): a tinygrad suite (default test.test_tiny) timed on
# tinygrad's real KFD path under `gfxemu exec --arch gfx950` (AQL queues, then PM4 with
# AMD_AQL=0) against its mock GPU (DEV=MOCKKFD+AMD) with gfxemu swapped in for the mock's
# emulator, the three interleaved, BENCH_RUNS rounds (default 3).  Prints one line per run:
# "PATH SECONDS rc=N OK|FAILED"; the mock runs also print how many kernels gfxemu ran.
# Needs LLVM 22's libLLVM for tinygrad's AMD:LLVM renderer (LLVM_PATH; Debian's llvm-22).
set -u
TG=${1:?usage: bench/tinygrad_exec.sh TINYGRAD_DIR [TEST_MODULE]}
MOD=${2:-test.test_tiny}
BUILD=${BUILD:-build}
ROOT=$(cd "$(dirname "$0")/.." && pwd)
G=$ROOT/$BUILD/gfxemu
RUNS=${BENCH_RUNS:-3}
export LLVM_PATH=${LLVM_PATH:-/usr/lib/x86_64-linux-gnu/libLLVM-22.so}
runner=$(mktemp --suffix=.py)
trap 'rm -f "$runner" "$runner.log"' EXIT
# The mock driver (test/mockgpu/amd/amdgpu.py) calls a module-level `remu` object; this one has
# the same attributes and run_asm signature (README, "Use as tinygrad's mock-GPU emulator").
cat >"$runner" <<PY
import sys, unittest, atexit
sys.path[:0] = ["$TG", "$ROOT/python"]
import gfxemu
import test.mockgpu.amd.amdgpu as mg

class GfxemuRemu:
    valid_mem_ranges, rsrc2, scratch_size, arch, user_data, calls = set(), 0x19c, 0, "cdna", [], 0
    def run_asm(self, lib, lib_sz, gx, gy, gz, lx, ly, lz, args_ptr):
        GfxemuRemu.calls += 1
        return gfxemu.run_asm(lib, lib_sz, gx, gy, gz, lx, ly, lz, args_ptr, rsrc2=self.rsrc2,
                              scratch_size=self.scratch_size, arch=self.arch,
                              user_data=self.user_data or None, ranges=self.valid_mem_ranges)

mg.remu = GfxemuRemu()
atexit.register(lambda: print("gfxemu ran %d kernels" % GfxemuRemu.calls, file=sys.stderr))
unittest.main(module="$MOD", argv=["mock"])
PY
run() {
    local name=$1 s rc
    shift
    s=$(date +%s.%N)
    (cd "$TG" && "$@") >"$runner.log" 2>&1
    rc=$?
    echo "$name $(python3 -c "import sys; print('%.1f' % (float(sys.argv[2]) - float(sys.argv[1])))" "$s" "$(date +%s.%N)") rc=$rc $(grep -E '^(OK|FAILED)' "$runner.log" | head -1) $(grep -o 'gfxemu ran [0-9]* kernels' "$runner.log")"
}
for ((r = 0; r < RUNS; r++)); do
    run kfd_aql env PYTHONPATH=. DEV=KFD+AMD:LLVM "$G" exec --arch gfx950 -- python3 -m unittest "$MOD"
    run kfd_pm4 env PYTHONPATH=. AMD_AQL=0 DEV=KFD+AMD:LLVM "$G" exec --arch gfx950 -- python3 -m unittest "$MOD"
    run mock_gfxemu env GFXEMU_LIB="$ROOT/$BUILD/libgfxemu.so" DEV=MOCKKFD+AMD:LLVM:gfx950 python3 "$runner"
done
