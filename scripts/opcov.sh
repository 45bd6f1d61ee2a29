#!/usr/bin/env bash
# Opcode coverage audit (docs/testing.md): build gfxemu and its tests with -DGFXEMU_OPCOV into
# $COV_BUILD (default build-cov), run the test suite with every process recording the
# (target, format, variant, op) its waves execute, then report per target and format what is
# implemented, executed, and never executed.
#
#   scripts/opcov.sh            build, run, report with the never-executed op names
#   scripts/opcov.sh --check    also fail if an implemented op that scripts/opcov_allow.txt
#                               does not list is never executed (or a listed one is)
#   scripts/opcov.sh --report   report on the last run only (no build, no tests)
#
# Environment: COV_BUILD, TESTS (extended regex as for tests/run_tests.sh; default: every layer
# except isa/, whose tests decode but never execute), CC.
set -u
cd "$(dirname "$0")/.."
COV_BUILD="${COV_BUILD:-build-cov}"
CC="${CC:-gcc}"
mode="${1:-}"
dir="$PWD/$COV_BUILD/opcov"
allow=scripts/opcov_allow.txt

if [ "$mode" != --report ]; then
    mkdir -p "$COV_BUILD"
    nice make --no-print-directory -j2 BUILD="$COV_BUILD" EXTRA_CFLAGS=-DGFXEMU_OPCOV tests \
        >"$COV_BUILD/make.log" 2>&1 || {
        echo "opcov: the -DGFXEMU_OPCOV build failed; see $COV_BUILD/make.log" >&2
        tail -n 20 "$COV_BUILD/make.log" >&2
        exit 2
    }
    rm -rf "$dir"
    mkdir -p "$dir"
    if [ -z "${TESTS:-}" ]; then
        layers=$(ls -d tests/*/ | sed 's|tests/||; s|/$||' | grep -vx 'isa\|fuzz\|common' |
            paste -sd'|')
        TESTS="^($layers)/"
    fi
    start=$(date +%s)
    GFXEMU_OPCOV_DIR="$dir" BUILD="$COV_BUILD" TESTS="$TESTS" bash tests/run_tests.sh |
        tail -n 3
    echo "opcov: test run took $(($(date +%s) - start))s"
fi
mkdir -p "$COV_BUILD"
$CC -std=c11 -O1 -Wall -Wextra -Werror -D_GNU_SOURCE -DGFXEMU_OPCOV -Iinclude -Isrc \
    scripts/opcov_report.c "$COV_BUILD/libgfxemu.a" -o "$COV_BUILD/opcov_report" \
    -ldl -lm -lpthread || exit 2
if [ "$mode" = --check ]; then
    env -u GFXEMU_OPCOV_DIR "$COV_BUILD/opcov_report" --list --allow "$allow" "$dir"
else
    env -u GFXEMU_OPCOV_DIR "$COV_BUILD/opcov_report" --list "$dir"
fi
