# lib.sh - helpers shared by the tests/tools/*.sh scripts (sourced, not run).
set -u
GFXEMU="${GFXEMU:-build/gfxemu}"
BUILD="${BUILD:-build}"
failures=0

fail() {
    echo "FAIL: $*" >&2
    failures=$((failures + 1))
}

# finish NAME: report and exit with the right status.
finish() {
    if [ "$failures" -ne 0 ]; then
        echo "$1: $failures checks failed" >&2
        exit 1
    fi
    echo "$1: all checks passed"
}

# compile_kernel SRC CPU OPT OUT: clang-22 + ld.lld-22, as the README describes.
compile_kernel() {
    clang-22 -x cl -cl-std=CL2.0 -target amdgcn-amd-amdhsa -mcpu="$2" -nogpulib "-$3" \
        -c "$1" -o "$4.o" 2>/dev/null && ld.lld-22 -shared "$4.o" -o "$4"
}
