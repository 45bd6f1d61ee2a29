#!/usr/bin/env bash
# test_rdna_disasm.sh - gfx1100 (RDNA3) and gfx1201 (RDNA4) code objects built by clang-22:
# `gfxemu disasm FILE.co` must print every scalar instruction (SOP1/SOP2/SOPK/SOPC/SOPP/SMEM, the
# formats gfxemu decodes on RDNA so far) exactly as `llvm-objdump-22 -d` does, line for line, and
# may differ only on the lines of the other formats (printed as .long words for now).  The
# listings' headers and labels must agree too.  `gfxemu info` names the target and says the
# kernels cannot run; `gfxemu run` on such an object fails with that message, never runs it.
. "$(dirname "$0")/lib.sh"
tmp="$BUILD/test-data/rdna_disasm"
rm -rf "$tmp" && mkdir -p "$tmp"

for src in examples/vecadd.cl tests/load/kernels.cl tests/kernels/basic.cl tests/kernels/intops.cl \
    tests/kernels/math.cl; do
    for cpu in gfx1100 gfx1201; do
        for opt in O0 O2; do
            co="$tmp/$(basename "$src" .cl)_${cpu}_$opt.co"
            if ! compile_kernel "$src" "$cpu" "$opt" "$co"; then
                fail "clang-22 failed on $src for $cpu -$opt"
                continue
            fi
            llvm-objdump-22 -d --mcpu="$cpu" "$co" >"$co.want" 2>&1
            if ! "$GFXEMU" disasm "$co" >"$co.got" 2>&1; then
                fail "$co: gfxemu disasm failed: $(head -n 2 "$co.got")"
                continue
            fi
            # gfxemu prints one .long line per word of an instruction it does not decode, and
            # may then read the next word of that instruction as one of its own: compare by
            # address ("ADDR text" per instruction line; long texts touch the "//").
            keyed() { sed -nE 's/^	(.*[^ ]) *\/\/ ([0-9A-F]+):.*$/\2 \1/p' "$1"; }
            keyed "$co.want" >"$co.kwant"
            keyed "$co.got" >"$co.kgot"
            # llvm's scalar instructions must be printed the same at the same address
            grep -E '^[0-9A-F]+ s_' "$co.kwant" >"$co.swant"
            n=$(wc -l <"$co.swant")
            if [ "$n" -lt 5 ]; then
                fail "$co: only $n scalar instructions in llvm-objdump's listing"
            fi
            bad=$(awk 'NR == FNR { got[$1] = $0; next }
                       { if (!($1 in got) || got[$1] != $0) { print; n++ } }
                       END { exit n > 0 }' "$co.kgot" "$co.swant") ||
                fail "$co: scalar instructions differ from llvm-objdump-22: $(echo "$bad" | head -n 3)"
            # gfxemu's scalar lines at addresses where llvm-objdump starts an instruction
            bad=$(awk 'NR == FNR { want[$1] = $0; next }
                       /^[0-9A-F]+ s_/ { if (($1 in want) && want[$1] != $0) { print; n++ } }
                       END { exit n > 0 }' "$co.kwant" "$co.kgot") ||
                fail "$co: gfxemu prints a scalar instruction llvm-objdump does not: $(echo "$bad" | head -n 3)"
            # Headers and labels agree.
            if ! cmp -s <(grep -vE '^	' "$co.want") <(grep -vE '^	' "$co.got"); then
                fail "$co: headers or labels differ"
                diff <(grep -vE '^	' "$co.want") <(grep -vE '^	' "$co.got") | head -n 6 >&2
            fi
        done
    done
done

co="$tmp/vecadd_gfx1100_O2.co"
if [ -f "$co" ]; then
    out=$("$GFXEMU" info "$co" 2>&1)
    rc=$?
    [ $rc -ne 0 ] || fail "gfxemu info on a gfx1100 object exited 0"
    echo "$out" | grep -q "^$co: gfx1100 code object, 1 kernel$" || fail "info header: $out"
    echo "$out" | grep -q "kernel 'vecadd': executing gfx1100 code is not implemented" ||
        fail "info does not say why: $out"
    out=$("$GFXEMU" run "$co" vecadd --grid 1 --block 64 2>&1)
    [ $? -ne 0 ] || fail "gfxemu run on a gfx1100 object exited 0"
    echo "$out" | grep -q "not implemented" || fail "run does not say why: $out"
fi
finish test_rdna_disasm
