#!/usr/bin/env bash
# test_as_results.sh - issue #21: every OpenCL kernel suite of tests/kernels (the C test programs
# built from tests/kernels/test_*.c) run again on code objects built by clang-22 -S and
# `gfxemu as` instead of clang-22 -c and ld.lld-22 (GFXEMU_TEST_ASSEMBLER=1, see
# tests/common/kernels.c), for gfx950, gfx942 and gfx90a at -O0/-O1/-O3: every check must pass
# as it does on lld's objects.  tests/tools/test_as_kernels.py compares the bytes; this compares
# the results, which also covers what bytes cannot (program-scope data placed elsewhere than
# lld places it, its relocations).
BUILD="${BUILD:-build}"
failures=0
n=0
for t in tests/kernels/test_*.c; do
    bin="$BUILD/tests/kernels/$(basename "$t" .c)"
    # kt_run_all() builds the code objects; the suites that do not use it have nothing to rebuild
    grep -q 'kt_run_all' "$t" || continue
    n=$((n + 1))
    if [ ! -x "$bin" ]; then
        echo "FAIL: $bin is not built"
        failures=$((failures + 1))
        continue
    fi
    if ! out=$(GFXEMU_TEST_ASSEMBLER=1 "$bin" 2>&1); then
        echo "FAIL: GFXEMU_TEST_ASSEMBLER=1 $bin:"
        tail -n 15 <<<"$out" | sed 's/^/    /'
        failures=$((failures + 1))
    else
        echo "ok: $(tail -n 1 <<<"$out")"
    fi
done
[ $n -gt 0 ] || { echo "FAIL: no kernel suites found"; exit 1; }
if [ $failures -ne 0 ]; then
    echo "test_as_results: $failures of $n suites failed"
    exit 1
fi
echo "test_as_results: all $n suites passed on gfxemu-assembled code objects"
