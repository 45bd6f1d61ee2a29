#!/usr/bin/env bash
# test_mfma_isa.sh - test_mfma (every MFMA against tests/exec/mfma_ref.h) again with each lower
# build of src/exec/mfma.c's fast path forced by GFXEMU_MFMA_ISA: the AVX2 and portable C
# builds, which the CPU's own choice (AVX-512 here) never runs, and "off" (the generic path
# only).  Each run must name the build it used: an override that was ignored would otherwise
# pass by testing the default build again.
set -u
cd "$(dirname "$0")/../.."
BUILD="${BUILD:-build}"
bin="$BUILD/tests/exec/test_mfma"
[ -x "$bin" ] || { echo "FAIL: $bin not built"; exit 1; }
rank() { case "$1" in avx512) echo 3 ;; avx2) echo 2 ;; generic) echo 1 ;; *) echo 0 ;; esac; }
used() { sed -n 's/^mfma fast path: //p' <<<"$1"; }

out=$("$bin") || { echo "FAIL: test_mfma (default build):"; tail -5 <<<"$out"; exit 1; }
best=$(used "$out")
[ -n "$best" ] || { echo "FAIL: test_mfma does not name its fast path"; exit 1; }
echo "default: $best"
fails=0
for want in avx2 generic off; do
    # an override never raises the build past what the CPU has
    expect=$want
    [ "$(rank "$want")" -gt "$(rank "$best")" ] && expect=$best
    if ! out=$(GFXEMU_MFMA_ISA=$want "$bin"); then
        echo "FAIL: GFXEMU_MFMA_ISA=$want test_mfma:"
        grep -m5 FAIL <<<"$out"
        fails=$((fails + 1))
        continue
    fi
    got=$(used "$out")
    if [ "$got" != "$expect" ]; then
        echo "FAIL: GFXEMU_MFMA_ISA=$want ran the '$got' build, not '$expect'"
        fails=$((fails + 1))
        continue
    fi
    echo "GFXEMU_MFMA_ISA=$want: $(tail -1 <<<"$out")"
done
# the clang-22 MFMA kernels (f16, bf16, fp8 GEMM fragments against a host GEMM) on the AVX2 build
kbin="$BUILD/tests/exec/test_mfma_kernels"
if ! out=$(GFXEMU_MFMA_ISA=avx2 "$kbin"); then
    echo "FAIL: GFXEMU_MFMA_ISA=avx2 test_mfma_kernels:"
    grep -m5 FAIL <<<"$out"
    fails=$((fails + 1))
else
    echo "GFXEMU_MFMA_ISA=avx2: $(tail -1 <<<"$out")"
fi
[ "$fails" -eq 0 ] && echo "test_mfma_isa: ok" || exit 1
