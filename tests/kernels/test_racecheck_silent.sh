#!/usr/bin/env bash
# test_racecheck_silent.sh - every kernel suite of tests/kernels (tests/kernels/test_*.c, correct
# kernels checked against C references) runs again, once, for two checks at the same time:
#   racecheck: GFXEMU_TEST_RACECHECK=1 makes tests/common/kernels.c launch with
#     GFX_LAUNCH_RACECHECK and fail on any reported hazard: the results must still be right and
#     no hazard may be reported;
#   issue #21, `gfxemu as`: GFXEMU_TEST_ASSEMBLER=1 builds the CDNA code objects (gfx950, gfx942
#     and gfx90a at -O0/-O1/-O3, kt_run_all) with clang-22 -S and `gfxemu as` instead of
#     clang-22 -c and ld.lld-22: every check must pass as it does on lld's objects.
#     tests/tools/test_as_kernels.py compares the bytes; this compares the results, which also
#     covers what bytes cannot (program-scope data placed elsewhere than lld places it, its
#     relocations).
# Both were separate passes over every suite (each as long as the suites' own run); one pass
# checks the same: every CDNA build is checked silent under racecheck on its `gfxemu as` object
# (the same code: test_as_kernels.py), the RDNA builds (kt_run_rdna; `gfxemu as` is CDNA only)
# on lld's, and the `gfxemu as` objects give the right results under racecheck's schedule (the
# suites' own runs check lld's objects under the default one).
# test_bad_kernels runs under GFXEMU_TEST_ASSEMBLER only: its kernels fault on purpose.
set -u
BUILD="${BUILD:-build}"
fails=0
ran=0
as=0
for src in tests/kernels/test_*.c; do
    name=$(basename "$src" .c)
    bin="$BUILD/tests/kernels/$name"
    if [ ! -x "$bin" ]; then
        echo "FAIL: $bin is not built"
        fails=$((fails + 1))
        continue
    fi
    env=()
    # kt_run_all() builds the CDNA code objects (directly or through kt_main()); the suites that
    # use neither have nothing to rebuild with `gfxemu as`
    grep -Eq 'kt_run_all|kt_main' "$src" && env+=(GFXEMU_TEST_ASSEMBLER=1)
    [ "$name" = test_bad_kernels ] || env+=(GFXEMU_TEST_RACECHECK=1)
    [ ${#env[@]} -gt 0 ] || continue
    out=$(env "${env[@]}" "$bin" 2>&1)
    rc=$?
    ran=$((ran + 1))
    [[ " ${env[*]} " == *" GFXEMU_TEST_ASSEMBLER=1 "* ]] && as=$((as + 1))
    if [ $rc -ne 0 ] || printf '%s\n' "$out" | grep -q "racecheck:"; then
        printf '%s\n' "$out" | grep -E "FAIL|racecheck" | head -20
        echo "FAIL: ${env[*]} $bin (exit $rc)"
        fails=$((fails + 1))
    else
        echo "ok: ${env[*]} $name: $(printf '%s\n' "$out" | tail -1)"
    fi
done
[ $ran -ge 10 ] && [ $as -ge 10 ] ||
    { echo "FAIL: only $ran kernel suites ran, $as of them on gfxemu-assembled objects"; fails=$((fails + 1)); }
[ $fails -eq 0 ] || { echo "test_racecheck_silent: $fails failed"; exit 1; }
echo "test_racecheck_silent: $ran kernel suites passed; silent under racecheck but" \
    "test_bad_kernels, the CDNA builds of $as of them on gfxemu-assembled code objects"
