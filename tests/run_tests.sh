#!/usr/bin/env bash
# Run gfxemu's tests from the repository root; `make check` builds them first.
#
#   tests/<layer>/test_*.c   run as $BUILD/tests/<layer>/test_* (built by make)
#   tests/<layer>/test_*.sh  run with bash
#   tests/<layer>/test_*.py  run with python3
#
# Usage: tests/run_tests.sh [-j N]
# Environment: BUILD (build dir, default build), GFXEMU (CLI path, default $BUILD/gfxemu),
# TESTS (extended regex selecting tests by name, e.g. TESTS=load/ or TESTS='cli|elf'),
# TEST_TIMEOUT (seconds per test, default 900), JOBS (tests run at once, default nproc; -j wins).
# Tests run in parallel, but each test's line is printed in the fixed (alphabetical) order, as
# soon as it and every test before it have finished.  Tests start longest first, by the times of
# the previous run ($BUILD/test-logs/times), so that a slow test does not start last.
# A test passes if it exits 0; anything else, including 77, is a failure: no test is skipped,
# except tests/<layer>/hw_*.sh (hardware tests): their exit 77 ("device not present") is
# reported as SKIP and counted apart, never as passed.
# Each test's full output goes to $BUILD/test-logs/, its CPU seconds (user+sys) to
# $BUILD/test-logs/cpu; the last line is "N passed, N failed".
set -u
cd "$(dirname "$0")/.."

jobs="${JOBS:-}"
while [ $# -gt 0 ]; do
    case "$1" in
    -j) jobs="${2:-}"; shift 2 || shift ;;
    -j*) jobs="${1#-j}"; shift ;;
    *) echo "usage: tests/run_tests.sh [-j N]" >&2; exit 2 ;;
    esac
done
[ -n "$jobs" ] || jobs=$(nproc 2>/dev/null || echo 1)
if ! [[ "$jobs" =~ ^[1-9][0-9]*$ ]]; then
    echo "run_tests: -j/JOBS wants a positive whole number, not '$jobs'" >&2
    exit 2
fi

export BUILD="${BUILD:-build}"
export GFXEMU="${GFXEMU:-$BUILD/gfxemu}"
logs="$BUILD/test-logs"
mkdir -p "$logs"
# Per-run state (one file per test: exit status and seconds) lives in a private directory.
state=$(mktemp -d "${TMPDIR:-/tmp}/gfxemu-tests-XXXXXX") || exit 2
trap 'rm -rf "$state"' EXIT

# `python3` may be a version manager's shim (pyenv's is a bash script that starts pyenv: ~0.5 s
# of CPU per start, more than many tests' own work), and the tests start Python hundreds of times.
# Resolve it once and put the interpreter's directory first on PATH, as `pyenv exec` itself does:
# the same interpreter, started directly.
py=$(python3 -c 'import sys; print(sys.executable)' 2>/dev/null)
if [ -n "$py" ] && [ "$(readlink -f "$(command -v python3)")" != "$(readlink -f "$py")" ]; then
    export PATH="$(dirname "$py"):$PATH"
fi

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

# run_one I: run test names[I]; leaves "rc secs cpu" in $state/I.  cpu: user+sys seconds of the
# test and every process it waited for (bash `times` of this subshell, which only runs the test),
# the figure that does not depend on how loaded the machine is.
# Only `timeout` and the test itself are started: clocks and arithmetic are bash's own
# ($EPOCHREALTIME, integer microseconds), as every other process costs ~10 ms of system time on
# the test machine (a date/awk/mv per test was ~7 processes, ~900 per run).
run_one() {
    local name=$1 out=$2 cmd log start end rc line u s
    case "$name" in
    *.c) cmd=("$BUILD/tests/${name%.c}") ;;
    *.sh) cmd=(bash "tests/$name") ;;
    *.py) cmd=(python3 "tests/$name") ;;
    esac
    log="$logs/${name//\//_}.log"
    if [ "${name##*.}" = c ] && [ ! -x "${cmd[0]}" ]; then
        echo "notbuilt 0 0" >"$out"
        return
    fi
    start=${EPOCHREALTIME//[!0-9]/}
    timeout --kill-after=10 "${TEST_TIMEOUT:-900}" "${cmd[@]}" </dev/null >"$log" 2>&1
    rc=$?
    end=${EPOCHREALTIME//[!0-9]/}
    # the second line of `times`: children's user and system time, e.g. "0m1.250s 0m0.031s"
    # (into a file: in a pipe or $(...) `times` would run in a new subshell that has no children)
    times >"$out.cpu"
    { read -r line; read -r u s; } <"$out.cpu"
    ms u "$u"
    ms s "$s"
    # seconds with one decimal, rounded; one write of one short line (report() reads the file
    # once it is not empty)
    local t=$(((end - start + 50000) / 100000)) c=$(((u + s + 50) / 100))
    echo "$rc $((t / 10)).$((t % 10)) $((c / 10)).$((c % 10))" >"$out"
}

# ms VAR "1m2.345s": VAR = the time in milliseconds (62345), by bash alone
ms() {
    local t=$2 m sec frac
    m=${t%%m*}
    t=${t#*m}
    t=${t%s}
    sec=${t%[.,]*}
    frac=${t#*[.,]}000
    frac=${frac:0:3}
    printf -v "$1" %d $((10#$m * 60000 + 10#$sec * 1000 + 10#$frac))
}

# Start order: longest first by the previous run's times (unknown tests first of all).
order=()
while read -r _ i; do
    order+=("$i")
done < <(declare -A prev=()
    if [ -e "$logs/times" ]; then
        while read -r t n; do prev[$n]=$t; done <"$logs/times"
    fi
    for i in "${!names[@]}"; do
        echo "${prev[${names[$i]}]:-1e9} $i"
    done | sort -k1,1gr -k2,2n)

pass=0
fail=0
failed=()
skipped=()
next=0 # the next test whose line is printed
run_start=$(date +%s%N)
: >"$state/times"
: >"$state/cpu"

# report: print the lines of the finished tests at the head of the fixed order.
report() {
    local name rc secs cpu log why
    while [ $next -lt ${#names[@]} ] && [ -s "$state/$next" ]; do
        name=${names[$next]}
        read -r rc secs cpu <"$state/$next"
        log="$logs/${name//\//_}.log"
        echo "$secs $name" >>"$state/times"
        echo "$cpu $name" >>"$state/cpu"
        if [ "$rc" = killed ]; then
            fail=$((fail + 1))
            failed+=("$name")
            echo "FAIL $name (its runner was killed; log: $log)"
        elif [ "$rc" = notbuilt ]; then
            fail=$((fail + 1))
            failed+=("$name")
            echo "FAIL $name (not built: $BUILD/tests/${name%.c} is missing; see the make output above)"
        elif [ "$rc" -eq 0 ]; then
            pass=$((pass + 1))
            echo "PASS $name (${secs}s, cpu ${cpu}s)"
        elif [ "$rc" -eq 77 ] && [[ "$name" == */hw_*.sh ]]; then
            skipped+=("$name")
            echo "SKIP $name (not counted as passed: $(tail -n 1 "$log"))"
        else
            fail=$((fail + 1))
            failed+=("$name")
            why="exit $rc"
            [ "$rc" -eq 124 ] && why="timed out after ${TEST_TIMEOUT:-900}s"
            echo "FAIL $name ($why, ${secs}s, cpu ${cpu}s; full log: $log)"
            tail -n 40 "$log" | sed 's/^/    /'
        fi
        next=$((next + 1))
    done
}

# live: the tests started and not yet reaped, by pid (kept here rather than asking
# `jobs -pr | wc -l`, two processes per look); wait -n -p reaps one and names it.
declare -A live=()
reap() {
    local pid
    wait -n -p pid
    if [ -n "${pid:-}" ]; then
        unset "live[$pid]"
    else
        live=() # no child left to wait for
    fi
    report
}
for i in "${order[@]}"; do
    while [ ${#live[@]} -ge "$jobs" ]; do
        reap
    done
    run_one "${names[$i]}" "$state/$i" &
    live[$!]=1
done
while [ ${#live[@]} -gt 0 ]; do
    reap
done
wait
# A test whose runner was killed left no status: count it as failed, never as passed.
for i in "${!names[@]}"; do
    [ -s "$state/$i" ] || echo "killed 0 0" >"$state/$i"
done
report

# Keep the times for the next run's start order (a TESTS subset keeps the others' times).
if [ -e "$logs/times" ]; then
    awk 'NR == FNR { seen[$2] = 1; print; next } !($2 in seen)' "$state/times" "$logs/times" \
        >"$state/times.all"
else
    cp "$state/times" "$state/times.all"
fi
mv "$state/times.all" "$logs/times" 2>/dev/null || true

wall=$(awk -v a="$run_start" -v b="$(date +%s%N)" 'BEGIN { printf "%.1f", (b - a) / 1e9 }')
sum=$(awk '{ s += $1 } END { printf "%.1f", s }' "$state/times")
cpu=$(awk '{ s += $1 } END { printf "%.1f", s }' "$state/cpu")
cp "$state/cpu" "$logs/cpu" 2>/dev/null || true
echo "time: ${wall}s wall for ${#names[@]} tests on $jobs jobs (sum of the tests' times ${sum}s," \
    "CPU user+sys ${cpu}s)"
[ $fail -eq 0 ] || echo "failed: ${failed[*]}"
[ ${#skipped[@]} -eq 0 ] || echo "${#skipped[@]} skipped, not run (no hardware): ${skipped[*]}"
echo "$pass passed, $fail failed"
[ $fail -eq 0 ]
