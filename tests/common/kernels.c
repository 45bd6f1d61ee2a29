/* kernels.c - see kernels.h. */
#include "common/kernels.h"

#include <stdlib.h>
#include <string.h>

#include "common/util.h"

#include <limits.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <sys/stat.h>

kt_target kt;

uint64_t kt_upload(const void *p, size_t n) {
    uint64_t a = 0;
    if (gfx_buffer_alloc(kt.dev, n, &a) != GFX_OK ||
        (p && gfx_memcpy_htod(kt.dev, a, p, n) != GFX_OK)) {
        printf("FAIL %s: cannot allocate %zu bytes\n", kt.tag, n);
        exit(1);
    }
    return a;
}

void kt_bad(int *count, const char *fmt, ...) {
    if ((*count)++ >= 2)
        return;
    va_list ap;
    va_start(ap, fmt);
    vprintf(fmt, ap);
    va_end(ap);
}

int kt_launch_bufs(const char *name, const uint32_t grid[3], const uint32_t block[3],
                   const kt_buf *buf, size_t nout, size_t nbuf, const void *const *args,
                   size_t nargs) {
    uint64_t dev[16];
    const void *params[16];
    if (nbuf + nargs > 16) {
        printf("FAIL %s %s: at most 16 parameters\n", kt.tag, name);
        return -1;
    }
    for (size_t i = 0; i < nbuf; i++) {
        dev[i] = kt_upload(i < nout ? NULL : buf[i].p, buf[i].size);
        params[i] = &dev[i];
    }
    for (size_t i = 0; i < nargs; i++)
        params[nbuf + i] = args[i];
    int r = kt_launch(name, grid, block, params, nbuf + nargs);
    for (size_t i = 0; r == 0 && i < nout; i++)
        gfx_memcpy_dtoh(kt.dev, buf[i].p, dev[i], buf[i].size);
    return r;
}

const gfx_launch_options *kt_options(const gfx_launch_options *o) {
    static gfx_launch_options copy;
    const char *e = getenv("GFXEMU_TEST_RACECHECK");
    if (!e || strcmp(e, "1") != 0)
        return o;
    if (o)
        copy = *o;
    else
        memset(&copy, 0, sizeof copy);
    copy.flags |= GFX_LAUNCH_RACECHECK;
    return &copy;
}

int kt_no_races(const char *name) {
    size_t n = gfx_race_count(kt.dev);
    for (size_t i = 0; i < n; i++) {
        gfx_race h;
        if (gfx_race_get(kt.dev, i, &h) == GFX_OK)
            printf("FAIL %s %s: %s\n", kt.tag, name, h.message);
    }
    return (int)n;
}

int kt_launch(const char *name, const uint32_t grid[3], const uint32_t block[3],
              const void *const *params, size_t nparams) {
    const gfx_kernel *k;
    if (gfx_module_kernel(kt.mod, name, &k) != GFX_OK) {
        printf("FAIL %s %s: kernel not found\n", kt.tag, name);
        return -1;
    }
    gfx_result r =
        gfx_launch_params(kt.dev, k, grid, block, params, nparams, kt_options(NULL), NULL);
    if (r != GFX_OK) {
        gfx_fault f;
        gfx_last_fault(kt.dev, &f);
        printf("FAIL %s %s: launch: %s: %s\n", kt.tag, name, gfx_result_str(r),
               f.kind ? f.message : gfx_device_error(kt.dev));
        return -1;
    }
    return kt_no_races(name) ? -1 : 0;
}

/* Whether `gfxemu as` made co from obj with this gfxemu already: co is no older than obj and
 * the gfxemu binary (make's rule; the CLI links the library statically, so any change to the
 * assembler is a newer binary).  The assembler is deterministic, so running it again on the
 * same input would only write the same bytes: test_racecheck_silent.sh's pass assembled the
 * suites' ~130 objects on every run (~6 s of CPU, a third of that pass) while the bytes
 * themselves are tests/tools/test_as_kernels.py's subject, which always assembles afresh.
 * co is written under a temporary name and renamed, so a failed run leaves no fresh-looking
 * object.  GFXEMU_ORACLE_CACHE=0 assembles every time. */
static int as_fresh(const char *co, const char *obj, const char *gfxemu) {
    const char *e = getenv("GFXEMU_ORACLE_CACHE");
    char real[PATH_MAX];
    struct stat o, d;
    if ((e && strcmp(e, "0") == 0) || stat(co, &o) != 0 || !realpath(gfxemu, real))
        return 0;
    const char *deps[] = {obj, real};
    for (int i = 0; i < 2; i++)
        if (stat(deps[i], &d) != 0 || d.st_mtim.tv_sec > o.st_mtim.tv_sec ||
            (d.st_mtim.tv_sec == o.st_mtim.tv_sec && d.st_mtim.tv_nsec > o.st_mtim.tv_nsec))
            return 0;
    return 1;
}

/* Compile tests/kernels/<stem>.cl for cpu at opt (plus flags), load it on a fresh 2-thread
 * device of arch and run the tests; variant names the build in messages and file names.
 * via_as: build with clang-22 -S and `gfxemu as` (CDNA only).  Returns 0, or 1 when a compile
 * or load failed (already reported). */
static int kt_one(const char *stem, const char *extra_flags, const char *arch, const char *cpu,
                  const char *opt, const char *flags, const char *variant, int via_as,
                  const char *gfxemu, const kt_test *tests, size_t ntests) {
    const char *build = test_build_dir();
    char obj[512], co[512], src[512], args[1024];
    snprintf(obj, sizeof obj, "%s/kernels/%s-%s%s%s.s", build, stem, arch, variant, opt);
    snprintf(co, sizeof co, "%s/kernels/%s-%s%s%s%s.co", build, stem, arch, variant, opt,
             via_as ? "-as" : "");
    snprintf(src, sizeof src, "tests/kernels/%s.cl", stem);
    /* tests/common/kbuild.sh runs clang-22 (and ld.lld-22) only when the output is out of
     * date: each kernels test would otherwise spend most of its time compiling on every
     * `make check`.  `gfxemu as` runs when its object is older than the .s or the gfxemu
     * binary (as_fresh): tests/tools/test_as_kernels.py, whose subject its bytes are, always
     * runs it. */
    snprintf(args, sizeof args,
             "-x cl -cl-std=CL2.0 -target amdgcn-amd-amdhsa -mcpu=%s -nogpulib %s %s %s "
             "-Wno-everything %s",
             cpu, opt, flags, extra_flags, src);
    test_kbuild(via_as ? "s" : "co", via_as ? obj : co, args);
    if (via_as && !as_fresh(co, obj, gfxemu))
        test_sh("%s as %s -o %s.tmp && mv -f %s.tmp %s", gfxemu, obj, co, co, co);
    snprintf(kt.tag, sizeof kt.tag, "%s%s %s", arch, variant, opt);
    kt.gfx950 = strcmp(arch, "gfx950") == 0;
    char err[256] = "";
    gfx_arch a;
    gfx_arch_from_name(arch, &a);
    if (gfx_module_load_file(co, &kt.mod, err, sizeof err) != GFX_OK ||
        gfx_device_create(a, 2, &kt.dev) != GFX_OK) {
        printf("FAIL %s: %s\n", kt.tag, err);
        return 1;
    }
    for (size_t t = 0; t < ntests; t++)
        tests[t]();
    gfx_device_free(kt.dev);
    gfx_module_free(kt.mod);
    return 0;
}

/* GFXEMU_TEST_ASSEMBLER=1: build the code objects with clang-22 -S and `gfxemu as` instead of
 * clang-22 -c and ld.lld-22 (tests/kernels/test_racecheck_silent.sh: same results expected) */
static int kt_via_as(void) {
    const char *e = getenv("GFXEMU_TEST_ASSEMBLER");
    return e && *e && strcmp(e, "0");
}

int kt_run_all(const char *stem, const char *extra_flags, const kt_test *tests, size_t ntests) {
    const char *build = test_build_dir();
    const char *arches[] = {"gfx950", "gfx942", "gfx90a"};
    const char *opts[] = {"-O0", "-O1", "-O3"}; /* -O1 indexes private arrays with s_set_gpr_idx */
    /* gfx90a code objects come in xnack/sramecc variants (the ROCm runtime's agent is
     * gfx90a:sramecc-:xnack-): one per optimisation level, so every suite loads each kind */
    const char *gfx90a_cpu[] = {"gfx90a:xnack+", "gfx90a:sramecc-:xnack-", "gfx90a"};
    int via_as = kt_via_as();
    char gfxemu[512];
    snprintf(gfxemu, sizeof gfxemu, "%s", getenv("GFXEMU") ? getenv("GFXEMU") : "");
    if (!gfxemu[0])
        snprintf(gfxemu, sizeof gfxemu, "%s/gfxemu", build);
    for (int a = 0; a < 3; a++)
        for (int o = 0; o < 3; o++) {
            const char *cpu = a == 2 ? gfx90a_cpu[o] : arches[a];
            if (kt_one(stem, extra_flags, arches[a], cpu, opts[o], "", "", via_as, gfxemu, tests,
                       ntests))
                return 1;
        }
    return 0; /* a failed launch counts in the calling test (kernels.h kt_call) */
}

int kt_run_rdna(const char *stem, const char *extra_flags, const kt_test *tests, size_t ntests) {
    const char *arches[] = {"gfx1100", "gfx1201"};
    const char *opts[] = {"-O0", "-O1", "-O2", "-O3"};
    /* `gfxemu as` assembles CDNA only, so under GFXEMU_TEST_ASSEMBLER these builds would be the
     * plain run's again (clang-22 -c and ld.lld-22): the suite's own run already checks them,
     * unless racecheck is on too (test_racecheck_silent.sh runs both at once: the RDNA builds
     * must still be checked silent under racecheck; kt_options(NULL) is NULL without it). */
    if (kt_via_as() && kt_options(NULL) == NULL) {
        printf("%s: RDNA builds not run again under GFXEMU_TEST_ASSEMBLER (CDNA only)\n", stem);
        return 0;
    }
    for (int a = 0; a < 2; a++)
        for (int w64 = 0; w64 < 2; w64++)
            for (int o = 0; o < 4; o++)
                if (kt_one(stem, extra_flags, arches[a], arches[a], opts[o],
                           /* clang-22 defines no wave-size macro: kernels that need one
                            * (wmma.cl's builtins) test GFXEMU_WAVE64 */
                           w64 ? "-mwavefrontsize64 -DGFXEMU_WAVE64=1" : "", w64 ? "-w64" : "", 0,
                           "", tests, ntests))
                    return 1;
    return 0;
}

/* The ULP error of got against exact for a format with `mant` stored mantissa bits, smallest
 * normal exponent emin and largest finite value max (rounding threshold to infinity: max plus
 * half an ULP). */
static double ulp_err(long double got, long double exact, int mant, int emin, long double max) {
    if (isnan(exact) || isnan(got))
        return isnan(exact) && isnan(got) ? 0 : 1e30;
    long double top = max + ldexpl(1, ilogbl(max) - mant - 1);
    if (isinf(exact) || fabsl(exact) >= top)
        return isinf(got) && signbit(got) == signbit(exact) ? 0 : 1e30;
    if (isinf(got))
        return 1e30;
    int e = exact == 0 ? emin : ilogbl(exact);
    long double ulp = ldexpl(1, (e < emin ? emin : e) - mant);
    return (double)(fabsl(got - exact) / ulp);
}

double kt_ulp32(float got, double exact) { return ulp_err(got, exact, 23, -126, 0x1.fffffep127); }
double kt_ulp16(float got, double exact) { return ulp_err(got, exact, 10, -14, 65504); }
double kt_ulp64(double got, long double exact) {
    return ulp_err(got, exact, 52, -1022, 0x1.fffffffffffffp1023);
}
