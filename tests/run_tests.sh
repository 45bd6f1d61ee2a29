#!/usr/bin/env bash
# Run gfxemu's tests from the repository root; `make check` builds them first.
#
#   tests/<layer>/test_*.c   run as $BUILD/tests/<layer>/test_* (built by make)
#   tests/<layer>/test_*.sh  run with bash
#   tests/<layer>/test_*.py  run with python3
#
# Environment: BUILD (build dir, default build), GFXEMU (CLI path, default $BUILD/gfxemu),
# TESTS (extended regex selecting tests by name, e.g. TESTS=load/ or TESTS='cli|elf'),
# TEST_TIMEOUT (seconds per test, default 900).
# A test passes if it exits 0; anything else, including 77, is a failure: no test is skipped,
# except tests/<layer>/hw_*.sh (hardware tests): their exit 77 ("device not present") is
# reported as SKIP and counted apart, never as passed.
# Each test's full output goes to $BUILD/test-logs/; the last line is "N passed, N failed".
set -u
cd "$(dirname "$0")/.."

export BUILD="${BUILD:-build}"
export GFXEMU="${GFXEMU:-$BUILD/gfxemu}"
logs="$BUILD/test-logs"
mkdir -p "$logs"

names=()
for f in tests/*/test_*.c tests/*/test_*.sh tests/*/test_*.py tests/*/hw_*.sh; do
    [ -e "$f" ] || continue
    name="${f#tests/}"
    if [ -n "${TESTS:-}" ] && ! grep -Eq -- "$TESTS" <<<"$name"; then
        continue
    fi
    names+=("$name")
done
if [ ${#names[@]} -eq 0 ]; then
    echo "run_tests: no test matches TESTS='${TESTS:-}'" >&2
    echo "0 passed, 0 failed"
    exit 1
fi

pass=0
fail=0
failed=()
skipped=()
for name in "${names[@]}"; do
    case "$name" in
    *.c) cmd=("$BUILD/tests/${name%.c}") ;;
    *.sh) cmd=(bash "tests/$name") ;;
    *.py) cmd=(python3 "tests/$name") ;;
    esac
    log="$logs/${name//\//_}.log"
    if [ "${name##*.}" = c ] && [ ! -x "${cmd[0]}" ]; then
        fail=$((fail + 1))
        failed+=("$name")
        echo "FAIL $name (not built: ${cmd[0]} is missing; see the make output above)"
        continue
    fi
    start=$(date +%s%N)
    timeout --kill-after=10 "${TEST_TIMEOUT:-900}" "${cmd[@]}" </dev/null >"$log" 2>&1
    rc=$?
    secs=$(awk -v a="$start" -v b="$(date +%s%N)" 'BEGIN { printf "%.1f", (b - a) / 1e9 }')
    if [ $rc -eq 0 ]; then
        pass=$((pass + 1))
        echo "PASS $name (${secs}s)"
    elif [ $rc -eq 77 ] && [[ "$name" == */hw_*.sh ]]; then
        skipped+=("$name")
        echo "SKIP $name (not counted as passed: $(tail -n 1 "$log"))"
    else
        fail=$((fail + 1))
        failed+=("$name")
        why="exit $rc"
        [ $rc -eq 124 ] && why="timed out after ${TEST_TIMEOUT:-900}s"
        echo "FAIL $name ($why, ${secs}s; full log: $log)"
        tail -n 40 "$log" | sed 's/^/    /'
    fi
done

[ $fail -eq 0 ] || echo "failed: ${failed[*]}"
[ ${#skipped[@]} -eq 0 ] || echo "${#skipped[@]} skipped, not run (no hardware): ${skipped[*]}"
echo "$pass passed, $fail failed"
[ $fail -eq 0 ]
