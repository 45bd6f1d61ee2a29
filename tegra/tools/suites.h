/* suites.h - the correctness suites of nvtegra-check, as a function the simulator tests can
 * run too (tests/tegra/test_suites.c), so the tool's own logic is exercised in CI. */
#ifndef NVTEGRA_SUITES_H
#define NVTEGRA_SUITES_H

#include "nvtegra.h"

#include <stdio.h>

#define NVT_EXIT_SKIP 77 /* no nvgpu device: nothing was tested */

typedef struct nvt_check_opts {
    const nvt_os *os;  /* NULL: the real kernel */
    const void *cubin; /* an sm_87 cubin with scale(float *a, int n, float s), or NULL */
    size_t cubin_size;
    /* called after a kernel is loaded (the simulator registers its C stand-in here) */
    void (*kernel_loaded)(void *ctx, const nvt_kernel *k);
    void *ctx;
    FILE *out;
} nvt_check_opts;

/* Run every suite; prints one PASS/FAIL/SKIP line per suite.  Returns 0 if all ran and passed,
 * 1 if any failed, NVT_EXIT_SKIP if there is no device. */
int nvt_check_run(const nvt_check_opts *o);

/* Open fds of this process (/proc/self/fd entries), or -1. */
int nvt_count_fds(void);

/* The scale kernel's CUDA source, for tools that compile it with nvcc. */
extern const char nvt_scale_cu[];

/* Compile cu_source with nvcc for sm_87 into a malloc'd cubin; -1 if nvcc is missing/fails. */
int nvt_nvcc_cubin(const char *cu_source, void **cubin, size_t *size);

#endif
