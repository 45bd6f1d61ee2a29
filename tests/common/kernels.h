/* kernels.h - the harness of tests/kernels: compile an OpenCL C file with clang-22 for each
 * target and optimisation level, load it on a fresh device, and launch its kernels by name. */
#ifndef GFXEMU_TEST_KERNELS_H
#define GFXEMU_TEST_KERNELS_H

#include "common/bits.h"
#include "common/check.h"
#include "common/rng.h"
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

/* For gfx950, gfx942 and gfx90a at -O0, -O1 and -O3: compile tests/kernels/<stem>.cl (plus the
 * extra clang flags) into $BUILD/kernels/<stem>-<arch><opt>.co, load it on a 2-thread device and
 * run every test.  Returns 0, or 1 when a compile or load failed (already reported). */
int kt_run_all(const char *stem, const char *extra_flags, const kt_test *tests, size_t ntests);
/* The same for the RDNA targets: gfx1100 and gfx1201, wave32 (clang-22's default there) and
 * wave64 (-mwavefrontsize64), at -O0..-O3.  kt.tag names the variant ("gfx1100-w64 -O2").  Only
 * the tests whose ops src/exec/rdna.c allows are passed (the others fault by name). */
int kt_run_rdna(const char *stem, const char *extra_flags, const kt_test *tests, size_t ntests);
/* The main() of a kernels test whose every test runs on CDNA and RDNA alike: kt_run_all, then
 * kt_run_rdna (gfx1100 and gfx1201, wave32 and wave64: src/exec/rdna.c) on the same tests, then
 * check_summary(summary).  1 when a compile or load failed or a check failed, else 0.  Inline:
 * check.h's counters are per file, and these are the test's. */
static inline int kt_main(const char *stem, const char *extra_flags, const kt_test *tests,
                          size_t ntests, const char *summary) {
    if (kt_run_all(stem, extra_flags, tests, ntests) ||
        kt_run_rdna(stem, extra_flags, tests, ntests))
        return 1;
    return check_summary(summary);
}
/* A device buffer of n bytes, filled from p when p is not NULL; exits on failure. */
uint64_t kt_upload(const void *p, size_t n);
/* Launch kernel name on a grid (in workgroups) of blocks; returns 0, or -1 after printing why. */
int kt_launch(const char *name, const uint32_t grid[3], const uint32_t block[3],
              const void *const *params, size_t nparams);

/* With GFXEMU_TEST_RACECHECK=1 in the environment every launch of the kernel tests runs under
 * racecheck (tests/kernels/test_racecheck_silent.sh): kt_options() returns o with the racecheck
 * flag added (o may be NULL: then a static zeroed one), and kt_no_races() prints every hazard
 * the last launch found as a failure and returns how many there were. */
const gfx_launch_options *kt_options(const gfx_launch_options *o);
int kt_no_races(const char *name);

/* kt_launch on a grid of gx*gy*gz workgroups of bx*by*bz work-items; a failed launch counts as a
 * failed check of the calling test.  kt_launch1: a 1D grid of `groups` blocks of `block`. */
static inline int kt_launch3(const char *name, uint32_t gx, uint32_t gy, uint32_t gz, uint32_t bx,
                             uint32_t by, uint32_t bz, const void *const *params, size_t n) {
    uint32_t grid[3] = {gx, gy, gz}, blk[3] = {bx, by, bz};
    int r = kt_launch(name, grid, blk, params, n);
    CHECK(r == 0, "%s %s: launch failed", kt.tag, name);
    return r;
}
static inline int kt_launch1(const char *name, unsigned groups, unsigned block,
                             const void *const *params, size_t n) {
    return kt_launch3(name, groups, 1, 1, block, 1, 1, params, n);
}

/* One buffer parameter of kt_call and kt_map: host bytes to upload (an input) or to fill (an
 * output). */
typedef struct {
    void *p;
    size_t size;
} kt_buf;
#define KT_BUF(array) ((kt_buf){(array), sizeof(array)})
/* kernel(buf[0], ..., buf[nbuf - 1], *args[0], ..., *args[nargs - 1]) on a grid (in workgroups)
 * of blocks: the first nout buffers are outputs (zeroed device buffers, copied back after the
 * launch), the others inputs (uploaded before); args point at the by-value arguments.  At most
 * 16 parameters.  0, or -1 after printing why. */
int kt_launch_bufs(const char *name, const uint32_t grid[3], const uint32_t block[3],
                   const kt_buf *buf, size_t nout, size_t nbuf, const void *const *args,
                   size_t nargs);
/* kt_launch_bufs, a failed launch counting as a failed check of the calling test (inline, as
 * kt_launch3: check.h's counters are the test file's own). */
static inline int kt_call(const char *name, const uint32_t grid[3], const uint32_t block[3],
                          const kt_buf *buf, size_t nout, size_t nbuf, const void *const *args,
                          size_t nargs) {
    int r = kt_launch_bufs(name, grid, block, buf, nout, nbuf, args, nargs);
    CHECK(r == 0, "%s %s: launch failed", kt.tag, name);
    return r;
}
/* The element-wise kernels' launch, kernel(buf[0], ..., buf[nbuf - 1], uint n): kt_call with n
 * work-items in one-wave workgroups of 64. */
static inline int kt_map(const char *name, unsigned n, const kt_buf *buf, size_t nout,
                         size_t nbuf) {
    const uint32_t grid[3] = {(n + 63) / 64, 1, 1}, block[3] = {64, 1, 1};
    const void *args[] = {&n};
    return kt_call(name, grid, block, buf, nout, nbuf, args, 1);
}
/* Error of a result in units in the last place of the exact value `exact` (the ULP of the
 * format at |exact|, denormal spacing below the smallest normal): 0 when both are the same NaN
 * class or the same infinity (an exact value beyond the largest finite rounds to infinity), a
 * huge value for a NaN or infinity that should not be there. */
double kt_ulp32(float got, double exact);
double kt_ulp16(float got, double exact); /* got: an f16 value widened to float */
double kt_ulp64(double got, long double exact);

/* Count one more failure in *count and print the first two (printf format): a test checks many
 * elements and reports the few first of each kind, then a CHECK on the count. */
void kt_bad(int *count, const char *fmt, ...) __attribute__((format(printf, 2, 3)));

/* The next value of a test's xorshift64 generator (state must not be 0). */
static inline uint32_t kt_rand(uint64_t *state) { return (uint32_t)(xorshift64(state) >> 16); }

#endif
