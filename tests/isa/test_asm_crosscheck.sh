#!/usr/bin/env bash
# test_asm_crosscheck.sh - gfxemu's assembler against llvm-mc-22 on every snippet the test suite
# assembles.  The snippet tests get their bytes from gfxemu's own assembler (tests/common/asm.c,
# tests/python/gfxtest.py, `gfxemu as` for tests/dispatch/scalar.s); here each of them runs again
# with GFXEMU_ASM_CROSSCHECK, which makes it assemble every snippet with llvm-mc-22 as well and
# report "asm-crosscheck: ARCH: N snippets, M mismatches".  Every mismatch (different bytes, or
# one assembler accepting what the other rejects) fails the test; so does a snippet test that
# reports nothing (it did not run its snippets).  This is the only place make check runs llvm-mc
# for snippets.
. "$(dirname "$0")/../tools/lib.sh"
tmp="$BUILD/test-data/asm_crosscheck"
rm -rf "$tmp" && mkdir -p "$tmp"
sum="$tmp/summary"
: >"$sum"

# C tests: those built on tests/common/asm.c (directly, or through snippet.h / cov.h).
for src in $(grep -l 'common/asm.h\|common/snippet.h\|common/cov.h' tests/*/test_*.c); do
    name="${src#tests/}"
    bin="$BUILD/tests/${name%.c}"
    [ -x "$bin" ] || { fail "$name is not built"; continue; }
    before=$(wc -l <"$sum")
    GFXEMU_ASM_CROSSCHECK="$sum" timeout 900 "$bin" >"$tmp/${name//\//_}.log" 2>&1 ||
        fail "$name failed in cross-check mode (see $tmp/${name//\//_}.log)"
    grep -h -A3 'differ on' "$tmp/${name//\//_}.log" >&2
    [ "$(wc -l <"$sum")" -gt "$before" ] || fail "$name assembled no snippet"
done

# Python tests that assemble snippets through gfxtest.assemble_text.
for t in $(grep -l 'assemble_text(' tests/python/test_*.py); do
    before=$(wc -l <"$sum")
    GFXEMU_ASM_CROSSCHECK="$sum" timeout 900 python3 "$t" >"$tmp/$(basename "$t").log" 2>&1 ||
        fail "$t failed in cross-check mode (see $tmp/$(basename "$t").log)"
    grep -h -A3 'differ on' "$tmp/$(basename "$t").log" >&2
    [ "$(wc -l <"$sum")" -gt "$before" ] || fail "$t assembled no snippet"
done

# tests/dispatch/scalar.s, which test_launch.c and test_run_scalar.sh build with gfxemu's
# assembler: the .text bytes of `gfxemu as --raw` against llvm-mc-22's object linked by
# ld.lld-22 (its branch to the global label `spin` is a relocation until the link).
for cpu in gfx950 gfx942; do
    bad=0
    if ! "$GFXEMU" as --arch $cpu --raw tests/dispatch/scalar.s -o "$tmp/scalar_$cpu.bin"; then
        bad=1
    elif ! llvm-mc-22 -triple=amdgcn-amd-amdhsa -mcpu=$cpu -filetype=obj tests/dispatch/scalar.s \
        -o "$tmp/scalar_$cpu.o" || ! ld.lld-22 -shared "$tmp/scalar_$cpu.o" -o "$tmp/scalar_$cpu.co" ||
        ! llvm-objcopy-22 -O binary --only-section=.text "$tmp/scalar_$cpu.co" "$tmp/scalar_$cpu.mc"; then
        fail "llvm-mc-22 could not assemble tests/dispatch/scalar.s for $cpu"
        continue
    elif ! cmp -s "$tmp/scalar_$cpu.bin" "$tmp/scalar_$cpu.mc"; then
        bad=1
        echo "asm-crosscheck: $cpu: tests/dispatch/scalar.s differs from llvm-mc-22's" >&2
        cmp -l "$tmp/scalar_$cpu.bin" "$tmp/scalar_$cpu.mc" | head -5 >&2
    fi
    echo "asm-crosscheck: $cpu: 1 snippets, $bad mismatches" >>"$sum"
done

# Totals per target (RDNA wave64 snippets count apart, as "gfx1100:wavefrontsize64"); every
# target must have been checked.
awk '{ n[$2] += $3; m[$2] += $5 } END { for (a in n) printf "%s %d %d\n", a, n[a], m[a] }' "$sum" |
    sort >"$tmp/totals"
while read -r arch n m; do
    echo "${arch%:}: $n snippets checked against llvm-mc-22, $m mismatches"
    [ "$m" -eq 0 ] || fail "${arch%:}: $m snippets assembled differently from llvm-mc-22"
done <"$tmp/totals"
for arch in gfx90a gfx942 gfx950 gfx1100 gfx1201 gfx1100:wavefrontsize64 gfx1201:wavefrontsize64; do
    grep -q "^$arch: " "$tmp/totals" || fail "no $arch snippet was checked"
done
finish test_asm_crosscheck
