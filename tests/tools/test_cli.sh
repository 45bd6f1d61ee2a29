#!/usr/bin/env bash
# test_cli.sh - gfxemu's command line: exit codes, error messages, usage, raw mode framing.
# Decoded instruction text is tested by test_raw_disasm.sh and test_objdump_compare.sh.
. "$(dirname "$0")/lib.sh"
tmp="$BUILD/test-data/cli"
rm -rf "$tmp" && mkdir -p "$tmp"


# Version: the CLI reports the header's version numbers.
ver=$(awk '/define GFXEMU_VERSION_(MAJOR|MINOR|PATCH)/ { v = v (v ? "." : "") $3 } END { print v }' \
    include/gfxemu.h)
expect 0 "" "$GFXEMU" --version
[ "$(cat "$tmp/out")" = "gfxemu $ver" ] || fail "--version printed '$(cat "$tmp/out")', want 'gfxemu $ver'"

expect 0 "" "$GFXEMU" --help
grep -q '^  disasm ' "$tmp/out" || fail "--help does not list disasm"
grep -q '^  run ' "$tmp/out" || fail "--help does not list run"
[ -s "$tmp/err" ] && fail "--help wrote to stderr"
expect 0 "" "$GFXEMU" disasm --help
grep -q -- '--raw' "$tmp/out" || fail "disasm --help does not mention --raw"

expect 2 "" "$GFXEMU"
grep -q '^usage: gfxemu' "$tmp/err" || fail "no-argument usage not on stderr"
expect 2 "gfxemu: error: unknown command 'frob' (see gfxemu --help)" "$GFXEMU" frob
expect 2 "gfxemu: error: run: missing --grid (see gfxemu run --help)" "$GFXEMU" run k.co vecadd

# Usage errors: status 2.
expect 2 "gfxemu: error: disasm: missing input file (see gfxemu disasm --help)" "$GFXEMU" disasm
expect 2 "gfxemu: error: disasm: unknown option '--frob' (see gfxemu disasm --help)" \
    "$GFXEMU" disasm --frob x.co
expect 2 "gfxemu: error: disasm: unknown architecture 'gfx908' (expected gfx950, gfx942, gfx90a, gfx1100 or gfx1201)" \
    "$GFXEMU" disasm --arch gfx908 x.co
expect 2 "gfxemu: error: disasm: unknown architecture 'gfx1101' (expected gfx950, gfx942, gfx90a, gfx1100 or gfx1201)" \
    "$GFXEMU" disasm --arch=gfx1101 x.co
expect 2 "gfxemu: error: disasm: --arch needs a value (gfx950, gfx942, gfx90a, gfx1100 or gfx1201)" "$GFXEMU" disasm x.co --arch
expect 2 "gfxemu: error: disasm: --raw needs --arch gfx950|gfx942|gfx90a|gfx1100|gfx1201" "$GFXEMU" disasm --raw x.bin
expect 2 "gfxemu: error: disasm: more than one input file ('a.co' and 'b.co')" \
    "$GFXEMU" disasm a.co b.co

# Input errors: status 1, one line naming the file.
expect 1 "gfxemu: error: $tmp/missing.co: No such file or directory" "$GFXEMU" disasm "$tmp/missing.co"
expect 1 "gfxemu: error: $tmp: is a directory" "$GFXEMU" disasm "$tmp"
expect 1 "gfxemu: error: $tmp/missing.bin: No such file or directory" \
    "$GFXEMU" disasm --arch gfx950 --raw "$tmp/missing.bin"
echo "hello" >"$tmp/text.co"
expect 1 "gfxemu: error: $tmp/text.co: not an ELF file" "$GFXEMU" disasm "$tmp/text.co"
: >"$tmp/empty.co"
expect 1 "gfxemu: error: $tmp/empty.co: not an ELF file" "$GFXEMU" disasm "$tmp/empty.co"
if [ "$(id -u)" -ne 0 ]; then
    echo x >"$tmp/noread.co" && chmod 000 "$tmp/noread.co"
    expect 1 "gfxemu: error: $tmp/noread.co: Permission denied" "$GFXEMU" disasm "$tmp/noread.co"
fi

compile_kernel examples/vecadd.cl gfx950 O2 "$tmp/vecadd950.co" || fail "clang-22 (gfx950) failed"
compile_kernel examples/vecadd.cl gfx942 O2 "$tmp/vecadd942.co" || fail "clang-22 (gfx942) failed"
compile_kernel examples/vecadd.cl gfx908 O2 "$tmp/vecadd908.co" || fail "clang-22 (gfx908) failed"
head -c 40 "$tmp/vecadd950.co" >"$tmp/trunc.co"
expect 1 "gfxemu: error: $tmp/trunc.co: truncated ELF header (40 of 64 bytes)" \
    "$GFXEMU" disasm "$tmp/trunc.co"
head -c 2000 "$tmp/vecadd950.co" >"$tmp/trunc2.co"
"$GFXEMU" disasm "$tmp/trunc2.co" >/dev/null 2>"$tmp/err"
[ $? -eq 1 ] && grep -q "^gfxemu: error: $tmp/trunc2.co: section header table out of bounds" "$tmp/err" ||
    fail "truncated file: '$(cat "$tmp/err")'"
expect 1 "gfxemu: error: $tmp/vecadd908.co: unsupported architecture gfx908 (0x30)" \
    "$GFXEMU" disasm "$tmp/vecadd908.co"
expect 1 "gfxemu: error: $tmp/vecadd942.co: code object is for gfx942, not gfx950" \
    "$GFXEMU" disasm --arch gfx950 "$tmp/vecadd942.co"
expect 1 "gfxemu: error: $tmp/vecadd950.co: code object is for gfx950, not gfx942" \
    "$GFXEMU" disasm --arch gfx942 "$tmp/vecadd950.co"
# x86 ELF: the host's own binary.
expect 1 "gfxemu: error: $GFXEMU: not an AMDGPU code object (e_machine 62)" "$GFXEMU" disasm "$GFXEMU"

# Listing framing (independent of how far the decoder is): header, one label per llvm-nm text
# symbol, and instruction lines whose addresses and word counts tile .text exactly.
for co in "$tmp/vecadd950.co" "$tmp/vecadd942.co"; do
    for arch_opt in "" "--arch $(basename "$co" .co | sed 's/vecadd/gfx/')"; do
        # shellcheck disable=SC2086
        "$GFXEMU" disasm $arch_opt "$co" >"$tmp/list" 2>"$tmp/err" || fail "disasm $arch_opt $co: exit $?"
        [ -s "$tmp/err" ] && fail "disasm $co wrote to stderr: $(cat "$tmp/err")"
    done
    [ "$(head -5 "$tmp/list")" = "$(printf '\n%s:\tfile format elf64-amdgpu\n\nDisassembly of section .text:\n' "$co")" ] ||
        fail "$co: header differs: $(head -5 "$tmp/list" | cat -A)"
    llvm-nm-22 --defined-only "$co" | awk '$2 == "T" { printf "%016s <%s>:\n", $1, $3 }' | sort >"$tmp/want_labels"
    grep -E '^[0-9a-f]{16} <' "$tmp/list" | sort >"$tmp/got_labels"
    cmp -s "$tmp/want_labels" "$tmp/got_labels" || fail "$co: labels differ: $(diff "$tmp/want_labels" "$tmp/got_labels")"
    text=$(llvm-readelf-22 -S -W "$co" | awk '{ for (i = 1; i < NF; i++) if ($i == ".text") print $(i + 2), $(i + 4) }')
    python3 - "$tmp/list" $text <<'PY' || fail "$co: instruction lines do not tile .text"
import re, sys
lines = [l for l in open(sys.argv[1]).read().split("\n") if l.startswith("\t")]
addr, size = int(sys.argv[2], 16), int(sys.argv[3], 16)
pc = addr
for l in lines:
    m = re.fullmatch(r"\t(.*?) *// ([0-9A-F]{12}):((?: [0-9A-F]{8})+)( <[^>]+>)?", l)
    assert m, "bad line: %r" % l
    assert len(l.split("//")[0]) >= 60, "comment column: %r" % l
    assert int(m.group(2), 16) == pc, "address %s, expected %x" % (m.group(2), pc)
    pc += 4 * len(m.group(3).split())
assert pc == addr + size, "ended at %x, .text ends at %x" % (pc, addr + size)
PY
done

# Raw mode framing: an illegal word is "<illegal 0x...>" and advances 4 bytes; a file that is
# not whole words is an error after the complete lines; an empty file prints nothing.
printf '\x00\x05\x08\xf4' >"$tmp/illegal.bin"
for a in gfx950 gfx942 gfx90a; do
    expect 0 "" "$GFXEMU" disasm --arch $a --raw "$tmp/illegal.bin"
    [ "$(cat "$tmp/out")" = "<illegal 0xf4080500>" ] || fail "$a: 0xf4080500 gave '$(cat "$tmp/out")'"
done
printf '\x00\x05\x08\xf4\x00\x05\x08\xf4\x01\x02' >"$tmp/odd.bin"
expect 1 "gfxemu: error: $tmp/odd.bin: 2 trailing bytes after the last whole word" \
    "$GFXEMU" disasm --arch gfx950 --raw "$tmp/odd.bin"
[ "$(cat "$tmp/out")" = "$(printf '<illegal 0xf4080500>\n<illegal 0xf4080500>')" ] ||
    fail "odd.bin output '$(cat "$tmp/out")'"
: >"$tmp/empty.bin"
expect 0 "" "$GFXEMU" disasm --arch gfx942 --raw "$tmp/empty.bin"
[ -s "$tmp/out" ] && fail "empty.bin printed '$(cat "$tmp/out")'"

# No crash on damaged code objects: every outcome is exit 0 or 1 (never a signal).
python3 - "$tmp/vecadd950.co" "$tmp/damaged.co" <<'PY' >"$tmp/damage_list"
import random, sys
data = open(sys.argv[1], "rb").read()
rnd = random.Random(1234)
for i in range(60):
    d = bytearray(data)
    for _ in range(rnd.randint(1, 6)):
        d[rnd.randrange(len(d))] = rnd.randrange(256)
    open("%s.%d" % (sys.argv[2], i), "wb").write(d)
    print("%s.%d" % (sys.argv[2], i))
PY
while read -r f; do
    "$GFXEMU" disasm "$f" >/dev/null 2>"$tmp/err"
    rc=$?
    [ $rc -le 1 ] || fail "$f: exit $rc: $(cat "$tmp/err")"
    [ $rc -eq 1 ] && ! grep -q '^gfxemu: error: ' "$tmp/err" && fail "$f: no error line"
done <"$tmp/damage_list"

finish test_cli
