#!/usr/bin/env bash
# test_mfma_isa.sh - the lower builds of src/exec/mfma.c's MFMA fast path, which the CPU's own
# choice (AVX-512 with AVX512_BF16, or AVX-512, here) never runs.  test_mfma itself runs every
# case under each build (the default one and each lower one: AVX-512, AVX2, portable C and
# "off", the generic path only) in one process, computing the host reference once; here:
#   - the environment variable GFXEMU_MFMA_ISA selects the build it names, never one past the
#     CPU (`test_mfma --fast-path` names the build selected), and test_mfma run with it starts
#     from that build;
#   - the clang-22 MFMA kernels (f16, bf16, fp8 GEMM fragments against a host GEMM) pass on the
#     AVX2 build.
set -u
cd "$(dirname "$0")/../.."
BUILD="${BUILD:-build}"
bin="$BUILD/tests/exec/test_mfma"
[ -x "$bin" ] || { echo "FAIL: $bin not built"; exit 1; }
rank() { case "$1" in avx512bf16) echo 4 ;; avx512) echo 3 ;; avx2) echo 2 ;; generic) echo 1 ;; *) echo 0 ;; esac; }
used() { sed -n 's/^mfma fast path: //p' <<<"$1"; }

out=$("$bin" --fast-path) || { echo "FAIL: test_mfma --fast-path: $out"; exit 1; }
best=$(used "$out")
[ -n "$best" ] || { echo "FAIL: test_mfma does not name its fast path"; exit 1; }
echo "default: $best"
# a CPU with AVX512_BF16 runs the avx512bf16 build unless its vdpbf16ps fails mfma.c's
# dp_selftest (another order or rounding than the SDM's): say so, it is not an error
if [ -z "${GFXEMU_MFMA_ISA:-}" ] && grep -qw avx512_bf16 /proc/cpuinfo 2>/dev/null &&
    grep -qw avx512f /proc/cpuinfo && [ "$best" != avx512bf16 ]; then
    echo "note: this CPU has AVX512_BF16 but runs the $best build (vdpbf16ps failed the self-test)"
fi
fails=0
for want in avx512 avx2 generic off; do
    # an override never raises the build past what the CPU has
    expect=$want
    [ "$(rank "$want")" -gt "$(rank "$best")" ] && expect=$best
    got=$(used "$(GFXEMU_MFMA_ISA=$want "$bin" --fast-path)")
    if [ "$got" != "$expect" ]; then
        echo "FAIL: GFXEMU_MFMA_ISA=$want selects the '$got' build, not '$expect'"
        fails=$((fails + 1))
        continue
    fi
    echo "GFXEMU_MFMA_ISA=$want: selects $got"
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
