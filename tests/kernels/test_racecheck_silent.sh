#!/usr/bin/env bash
# test_racecheck_silent.sh - every kernel of the kernel tests (tests/kernels/test_*.c, correct
# kernels checked against C references) runs again under racecheck (GFXEMU_TEST_RACECHECK=1 makes
# tests/common/kernels.c launch with GFX_LAUNCH_RACECHECK and fail on any reported hazard): the
# results must still be right and no hazard may be reported.  test_bad_kernels is left out: its
# kernels fault on purpose.
set -u
BUILD="${BUILD:-build}"
fails=0
ran=0
for src in tests/kernels/test_*.c; do
    name=$(basename "$src" .c)
    [ "$name" = test_bad_kernels ] && continue
    bin="$BUILD/tests/kernels/$name"
    if [ ! -x "$bin" ]; then
        echo "FAIL: $bin is not built"
        fails=$((fails + 1))
        continue
    fi
    out=$(GFXEMU_TEST_RACECHECK=1 "$bin" 2>&1)
    rc=$?
    ran=$((ran + 1))
    if [ $rc -ne 0 ] || printf '%s\n' "$out" | grep -q "racecheck:"; then
        printf '%s\n' "$out" | grep -E "FAIL|racecheck" | head -20
        echo "FAIL: $name under racecheck (exit $rc)"
        fails=$((fails + 1))
    else
        echo "ok: $name under racecheck: $(printf '%s\n' "$out" | tail -1)"
    fi
done
[ $ran -ge 10 ] || { echo "FAIL: only $ran kernel tests ran"; fails=$((fails + 1)); }
[ $fails -eq 0 ] || { echo "test_racecheck_silent: $fails failed"; exit 1; }
echo "test_racecheck_silent: $ran kernel tests silent under racecheck"
