/* kernels.h - the harness of tests/kernels: compile an OpenCL C file with clang-22 for each
 * target and optimisation level, load it on a fresh device, and launch its kernels by name. */
#ifndef GFXEMU_TEST_KERNELS_H
#define GFXEMU_TEST_KERNELS_H

#include "gfxemu.h"

#include <stddef.h>
#include <stdint.h>

/* The target being tested. */
typedef struct {
    gfx_device *dev;
    gfx_module *mod;
    char tag[64]; /* "gfx950 -O3", for messages */
    int gfx950;
} kt_target;
extern kt_target kt;

typedef void (*kt_test)(void);

/* For gfx950 and gfx942 at -O0, -O1 and -O3: compile tests/kernels/<stem>.cl (plus the extra
 * clang flags) into $BUILD/kernels/<stem>-<arch><opt>.co, load it on a 2-thread device and run
 * every test.  Returns 0, or 1 when a compile or load failed (already reported). */
int kt_run_all(const char *stem, const char *extra_flags, const kt_test *tests, size_t ntests);
/* A device buffer of n bytes, filled from p when p is not NULL; exits on failure. */
uint64_t kt_upload(const void *p, size_t n);
/* Launch kernel name on a grid (in workgroups) of blocks; returns 0, or -1 after printing why. */
int kt_launch(const char *name, const uint32_t grid[3], const uint32_t block[3],
              const void *const *params, size_t nparams);

#endif
