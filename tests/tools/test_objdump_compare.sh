#!/usr/bin/env bash
# test_objdump_compare.sh - `gfxemu disasm FILE.co` must print exactly what
# `llvm-objdump-22 -d --mcpu=ARCH FILE.co` prints, for clang-22-built kernels on gfx950 and
# gfx942 at -O0 and -O2.  Depends on the whole decoder/printer (src/isa): on a difference it
# shows the first differing lines of each listing.
. "$(dirname "$0")/lib.sh"
tmp="$BUILD/test-data/objdump"
rm -rf "$tmp" && mkdir -p "$tmp"

for src in examples/vecadd.cl tests/load/kernels.cl tests/tools/compare_kernels.cl; do
    for cpu in gfx950 gfx942 gfx90a; do
        for opt in O0 O2; do
            co="$tmp/$(basename "$src" .cl)_${cpu}_$opt.co"
            if ! compile_kernel "$src" "$cpu" "$opt" "$co"; then
                fail "clang-22 failed on $src for $cpu -$opt"
                continue
            fi
            llvm_objdump "$co.want" -d --mcpu="$cpu" "$co"
            "$GFXEMU" disasm "$co" >"$co.got" 2>&1
            if ! cmp -s "$co.want" "$co.got"; then
                fail "$co: listing differs from llvm-objdump-22 ($(diff "$co.want" "$co.got" | grep -c '^[<>]') lines)"
                diff "$co.want" "$co.got" | head -n 12 >&2
            fi
        done
    done
done
finish test_objdump_compare
