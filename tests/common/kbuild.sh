#!/usr/bin/env bash
# kbuild.sh - build a test kernel with clang-22 (and ld.lld-22) only when it is out of date, as
# make would: OUT is rebuilt when it is missing, when the command that makes it changed, when a
# file it was made from changed (clang's own dependency list: the source and every header it
# included, compared by content, so a test that writes the same source again each run does not
# rebuild), or when clang-22/ld.lld-22 are newer than OUT.  The tests compile the same kernels
# on every run otherwise; with this a second `make check` compiles nothing.
#
# Usage: kbuild.sh co OUT.co CLANG_ARGS...   clang-22 -c, then ld.lld-22 -shared (a code object)
#        kbuild.sh s  OUT.s  CLANG_ARGS...   clang-22 -S (assembly text)
#        kbuild.sh o  OUT.o  CLANG_ARGS...   clang-22 -c (a relocatable object)
# CLANG_ARGS are the arguments without -c/-S/-o (language, target, -mcpu, -O, flags, source).
# Exit status: clang's or ld.lld's when a build fails (their messages on stderr), else 0.
# Beside OUT: OUT.cmd (the command) and OUT.sum (sha1sum of each dependency).  Several tests may ask for the
# same file at once: each builds into its own temporary names and renames, so a reader never
# sees half a file.
set -u
mode=$1 out=$2
shift 2
case "$mode" in co | s | o) ;; *) echo "kbuild.sh: mode co, s or o, not '$mode'" >&2; exit 2 ;; esac
cmd="$mode $*"

# up_to_date: OUT, its command and its dependencies' sums exist, the command is this one, every
# dependency has its recorded content and the compiler is not newer than OUT.
up_to_date() {
    [ -f "$out" ] && [ -f "$out.cmd" ] && [ -f "$out.sum" ] || return 1
    local old tool
    IFS= read -r old <"$out.cmd" || return 1
    [ "$old" = "$cmd" ] || return 1
    sha1sum --quiet --status -c "$out.sum" 2>/dev/null || return 1
    for tool in clang-22 ld.lld-22; do
        tool=$(readlink -f "$(command -v $tool)")
        [ -e "$tool" ] && ! [ "$tool" -nt "$out" ] || return 1
    done
}
up_to_date && exit 0

mkdir -p "$(dirname "$out")"
tmp="$out.tmp$$"
trap 'rm -f "$tmp" "$tmp.o" "$tmp.d" "$tmp.cmd" "$tmp.sum"' EXIT
case "$mode" in
co) clang-22 "$@" -MD -MF "$tmp.d" -c -o "$tmp.o" && ld.lld-22 -shared "$tmp.o" -o "$tmp" ;;
s) clang-22 "$@" -MD -MF "$tmp.d" -S -o "$tmp" ;;
o) clang-22 "$@" -MD -MF "$tmp.d" -c -o "$tmp" ;;
esac || exit
# "OUT.tmp: a.cl b.h \" lines: every word after the first colon, without the backslashes
sed -e '1s/^[^:]*://' -e 's/\\$//' "$tmp.d" | xargs sha1sum >"$tmp.sum" || exit
printf '%s\n' "$cmd" >"$tmp.cmd"
mv -f "$tmp.sum" "$out.sum" && mv -f "$tmp.cmd" "$out.cmd" && mv -f "$tmp" "$out"
