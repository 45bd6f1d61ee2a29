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

# expect STATUS 'stderr' CMD...: runs CMD (stdout to $tmp/out, stderr to $tmp/err; the caller sets
# tmp); the exit status must be STATUS and, when 'stderr' is not empty, stderr must be exactly
# that text (an extended regex when it starts with '~'); an error (non-zero STATUS) must be one
# line, as the CLI contract says.
expect() {
    local want_rc=$1 want_err=$2
    shift 2
    "$@" >"$tmp/out" 2>"$tmp/err"
    local rc=$? raw='' err
    # stderr is read by bash itself, with no cat/wc/grep process: a fork costs ~10 ms of system
    # time on the test machine, and the tool tests call expect hundreds of times.  raw: the
    # whole text; err: without its trailing newlines, as $(cat) gives it.
    IFS= read -r -d '' raw <"$tmp/err"
    err=$raw
    while [[ "$err" == *$'\n' ]]; do err=${err%$'\n'}; done
    if [ "$rc" -ne "$want_rc" ]; then
        fail "$*: exit $rc, want $want_rc (${err:0:300})"
        # An output that could not be created: show what the directory held at that moment.
        [[ "$err" == *'cannot create the output file'* ]] && ls -la "$tmp" >&2
    fi
    if [ "${want_err:0:1}" = "~" ]; then
        # bash's =~ is the same POSIX extended regex as grep -E, but on the whole text: a
        # pattern matches if it matches one of its lines, as grep's does
        local line ok=0
        while IFS= read -r line || [ -n "$line" ]; do
            [[ "$line" =~ ${want_err:1} ]] && { ok=1; break; }
        done <"$tmp/err"
        [ $ok = 1 ] || fail "$*: stderr '$err' !~ '${want_err:1}'"
    elif [ -n "$want_err" ]; then
        [ "$err" = "$want_err" ] || fail "$*: stderr '$err', want '$want_err'"
    fi
    if [ -n "$want_err" ] && [ "$want_rc" -ne 0 ]; then
        # exactly one newline character, as `wc -l` counted
        local nl=${raw//[!$'\n']/}
        [ ${#nl} -eq 1 ] || fail "$*: error is not exactly one line"
    fi
}

# has_line LINE TEXT: TEXT has LINE as one of its lines, as `grep -qxF -- LINE <<<"$TEXT"`
# answers, without starting grep (the tests ask this hundreds of times).
has_line() {
    [[ $'\n'"$2"$'\n' == *$'\n'"$1"$'\n'* ]]
}

# squeeze_spaces TEXT: TEXT with each run of spaces made one, as `tr -s ' '`, into $squeezed
# (a variable, not output: $(...) would start a subshell).
squeeze_spaces() {
    squeezed=$1
    while [[ "$squeezed" == *'  '* ]]; do squeezed=${squeezed//'  '/' '}; done
}

# compile_kernel SRC CPU OPT OUT [CLANG_FLAGS...]: clang-22 + ld.lld-22, as the README describes.
# The code object is kept in $BUILD/test-kernels/ (named after OUT) and built again only when out
# of date (tests/common/kbuild.sh), then copied to OUT.
# kbuild.sh's own check is made here first, with mtimes and without starting a process (the same
# command in KEPT.cmd, no file of KEPT.sum newer, neither compiler newer); kbuild.sh (which
# decides by content) runs only when that fails.
_kbuild_tools=$(readlink -f "$(command -v clang-22)" "$(command -v ld.lld-22)")
compile_kernel() {
    local src=$1 cpu=$2 opt=$3 out=$4 kept cmd line dep fresh=1
    shift 4
    kept="$BUILD/test-kernels/sh/${out//\//_}"
    local args=(-x cl -cl-std=CL2.0 -target amdgcn-amd-amdhsa -mcpu="$cpu" -nogpulib "-$opt" "$@" "$src")
    cmd="co ${args[*]}"
    { [ -f "$kept" ] && IFS= read -r line <"$kept.cmd" && [ "$line" = "$cmd" ]; } 2>/dev/null || fresh=0
    if [ $fresh = 1 ]; then
        while read -r _ dep; do
            [ -e "$dep" ] && ! [ "$dep" -nt "$kept" ] || { fresh=0; break; }
        done <"$kept.sum"
        for dep in $_kbuild_tools; do
            [ -e "$dep" ] && ! [ "$dep" -nt "$kept" ] || fresh=0
        done
    fi
    if [ $fresh = 0 ]; then
        bash "$(dirname "${BASH_SOURCE[0]}")/../common/kbuild.sh" co "$kept" "${args[@]}" \
            2>/dev/null || return
    fi
    cp "$kept" "$out"
}

# llvm_objdump OUT ARGS... FILE: `llvm-objdump-22 ARGS... FILE` (stdout and stderr) into OUT, its
# exit status returned.  LLVM is a fixed oracle: a listing is kept in $BUILD/oracle-cache/ (as the
# C tests keep theirs, tests/common/util.h), keyed by the arguments, FILE's content and the
# llvm-objdump-22 binary, and copied from there when asked again (not with GFXEMU_ORACLE_CACHE=0).
_objdump_id=$(stat -c '%n %s %Y %i' "$(readlink -f "$(command -v llvm-objdump-22)")")
llvm_objdump() {
    local out=$1 file=${!#} key kept rc
    shift
    # one sha1sum for the question and the file (a process costs ~10 ms here): two sums, both
    # in the key
    local sums
    sums=($(printf '%s\n' "$_objdump_id" "$@" | sha1sum - "$file"))
    key="${sums[0]}${sums[2]}"
    kept="$BUILD/oracle-cache/objdump2-$key"
    if [ "${GFXEMU_ORACLE_CACHE:-1}" != 0 ] && [ -f "$kept" ]; then
        cp "$kept" "$out"
        return 0
    fi
    llvm-objdump-22 "$@" >"$out" 2>&1
    rc=$?
    if [ $rc -eq 0 ] && [ "${GFXEMU_ORACLE_CACHE:-1}" != 0 ]; then
        mkdir -p "$BUILD/oracle-cache" && cp "$out" "$kept.tmp$$" && mv -f "$kept.tmp$$" "$kept"
    fi
    return $rc
}
