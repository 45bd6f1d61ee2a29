#!/usr/bin/env bash
# test_poison.sh - the kernel suites (clang-22 kernels against C references) once more with
# GFXEMU_POISON_REGS=1: every wave starts with the VGPR/AGPR rows its kernel's zero plan leaves
# alone (src/exec/zplan.c: rows the kernel writes before it reads them, rows no instruction names)
# filled with garbage instead of whatever the worker's last wave left.  A plan that leaves a row
# the kernel does read changes results here.  test_zplan.c checks plans against the rules.
BUILD=${BUILD:-build}
fails=0
for t in kernels/test_kernels kernels/test_kernels2 kernels/test_control kernels/test_wave \
    kernels/test_math kernels/test_intops kernels/test_atomics kernels/test_cvt \
    kernels/test_local_args kernels/test_framework exec/test_valu_kernels \
    exec/test_mfma_kernels workloads/test_gemm workloads/test_attention kernels/test_pair \
    kernels/test_rdna_gap_kernels kernels/test_rdna_buf_kernels kernels/test_rdna_fp8_kernels \
    kernels/test_wmma_kernels kernels/test_swmmac_kernels kernels/test_dot_kernels \
    kernels/test_progdata; do
    bin="$BUILD/tests/$t"
    if [ ! -x "$bin" ]; then
        echo "FAIL $t: not built"
        fails=$((fails + 1))
        continue
    fi
    if ! out=$(GFXEMU_POISON_REGS=1 "$bin" 2>&1); then
        echo "FAIL $t with GFXEMU_POISON_REGS=1:"
        printf '%s\n' "$out" | tail -n 20
        fails=$((fails + 1))
    fi
done
[ "$fails" -eq 0 ] && echo "test_poison: 22 suites passed with poisoned registers"
exit $((fails != 0))
