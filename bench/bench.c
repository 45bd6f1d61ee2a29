/* bench.c - see bench.h. */
#include "bench.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

double bench_cores[8];

static double cpu_now(void)
{
    /* CPU time of all the process's threads, from the scheduler's own accounting (getrusage's
     * tick-sampled times are too coarse for launches of a few milliseconds). */
    struct timespec ts;
    clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &ts);
    return (double)ts.tv_sec + ts.tv_nsec * 1e-9;
}

int bench_runs(void)
{
    const char *s = getenv("BENCH_RUNS");
    int n = s && *s ? atoi(s) : 5;
    return n < 1 ? 1 : n > 1000 ? 1000 : n;
}

double bench_scale(void)
{
    const char *s = getenv("BENCH_SCALE");
    double v = s && *s ? atof(s) : 1.0;
    return v > 0 ? v : 1.0;
}

int bench_case(const char *name)
{
    const char *s = getenv("BENCH_CASE");
    return !s || !*s || strstr(name, s) != NULL;
}

unsigned bench_scaled(double base)
{
    double v = base * bench_scale();
    return v < 1 ? 1u : v > 4e9 ? 4000000000u : (unsigned)v;
}

double bench_now(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + ts.tv_nsec * 1e-9;
}

static const char *build_dir(void)
{
    const char *b = getenv("BUILD");
    return b && *b ? b : "build-bench";
}

const char *bench_compile(const char *cl, const char *arch)
{
    return bench_compile_opt(cl, arch, "-O2");
}

const char *bench_compile_opt(const char *cl, const char *arch, const char *opt)
{
    static char co[1024];
    char stem[256], obj[1024], cmd[4096];
    const char *base = strrchr(cl, '/');
    snprintf(stem, sizeof stem, "%s", base ? base + 1 : cl);
    char *dot = strrchr(stem, '.');
    if (dot)
        *dot = 0;
    /* -O2 keeps the names it always had; other options get their own files (spaces, as in
     * "-O2 -mwavefrontsize64", become '_') */
    char tag[128];
    snprintf(tag, sizeof tag, "%s", strcmp(opt, "-O2") == 0 ? "" : opt);
    for (char *t = tag; *t; t++)
        if (*t == ' ')
            *t = '_';
    snprintf(obj, sizeof obj, "%s/bench/kernels/%s-%s%s.o", build_dir(), stem, arch, tag);
    snprintf(co, sizeof co, "%s/bench/kernels/%s-%s%s.co", build_dir(), stem, arch, tag);
    snprintf(cmd, sizeof cmd,
             "mkdir -p %s/bench/kernels && clang-22 -x cl -cl-std=CL2.0 -target amdgcn-amd-amdhsa "
             "-mcpu=%s -nogpulib %s -ffp-contract=off -Wno-everything -c %s -o %s && "
             "ld.lld-22 -shared %s -o %s",
             build_dir(), arch, opt, cl, obj, obj, co);
    if (system(cmd) != 0) {
        fprintf(stderr, "bench: command failed: %s\n", cmd);
        exit(1);
    }
    return co;
}

gfx_module *bench_load(const char *co)
{
    gfx_module *m;
    char err[256] = "";
    if (gfx_module_load_file(co, &m, err, sizeof err) != GFX_OK) {
        fprintf(stderr, "bench: %s: %s\n", co, err);
        exit(1);
    }
    return m;
}

const gfx_kernel *bench_kernel(gfx_module *m, const char *name)
{
    const gfx_kernel *k;
    if (gfx_module_kernel(m, name, &k) != GFX_OK) {
        fprintf(stderr, "bench: kernel %s not found\n", name);
        exit(1);
    }
    return k;
}

gfx_arch bench_arch = GFX_ARCH_GFX950;

gfx_device *bench_device(unsigned threads)
{
    gfx_device *d;
    if (gfx_device_create(bench_arch, threads, &d) != GFX_OK) {
        fprintf(stderr, "bench: cannot create a device\n");
        exit(1);
    }
    return d;
}

uint64_t bench_upload(gfx_device *dev, const void *p, size_t n)
{
    uint64_t a = 0;
    if (gfx_buffer_alloc(dev, n, &a) != GFX_OK || (p && gfx_memcpy_htod(dev, a, p, n) != GFX_OK)) {
        fprintf(stderr, "bench: cannot allocate %zu bytes\n", n);
        exit(1);
    }
    return a;
}

void bench_download(gfx_device *dev, void *p, uint64_t addr, size_t n)
{
    if (gfx_memcpy_dtoh(dev, p, addr, n) != GFX_OK) {
        fprintf(stderr, "bench: cannot read back %zu bytes\n", n);
        exit(1);
    }
}

double bench_launch(gfx_device *dev, const gfx_kernel *k, unsigned groups, unsigned block,
                    const void *const *params, size_t nparams, gfx_stats *stats)
{
    uint32_t grid[3] = {groups, 1, 1}, blk[3] = {block, 1, 1};
    gfx_launch_options o = {.max_insts = 1ull << 40};
    double t0 = bench_now();
    gfx_result r = gfx_launch_params(dev, k, grid, blk, params, nparams, &o, stats);
    double t = bench_now() - t0;
    if (r != GFX_OK) {
        fprintf(stderr, "bench: launch failed: %s: %s\n", gfx_result_str(r),
                gfx_device_error(dev));
        exit(1);
    }
    return t;
}

static int cmp_double(const void *a, const void *b)
{
    double x = *(const double *)a, y = *(const double *)b;
    return x < y ? -1 : x > y;
}

double bench_median(double *v, int n)
{
    if (n <= 0)
        return 0;
    qsort(v, (size_t)n, sizeof *v, cmp_double);
    return n % 2 ? v[n / 2] : (v[n / 2 - 1] + v[n / 2]) / 2;
}

void bench_emit(const char *bench, const char *metric, const double *runs, int n,
                unsigned threads, int verified, const char *extra)
{
    double tmp[1000];
    int m = n < 1000 ? n : 1000;
    memcpy(tmp, runs, (size_t)m * sizeof *runs);
    printf("{\"bench\":\"%s\",\"metric\":\"%s\",\"value\":%.6g,\"threads\":%u,\"verified\":%s,"
           "\"runs\":[",
           bench, metric, bench_median(tmp, m), threads, verified ? "true" : "false");
    for (int i = 0; i < m; i++)
        printf("%s%.6g", i ? "," : "", runs[i]);
    printf("]%s%s}\n", extra ? "," : "", extra ? extra : "");
    fflush(stdout);
}

int bench_check_u32(const char *what, const uint32_t *got, const uint32_t *want, size_t n)
{
    size_t bad = 0;
    for (size_t i = 0; i < n; i++)
        if (got[i] != want[i] && bad++ < 3)
            fprintf(stderr, "bench: %s[%zu]: got 0x%08x want 0x%08x\n", what, i, got[i], want[i]);
    if (bad)
        fprintf(stderr, "bench: %s: %zu of %zu words wrong\n", what, bad, n);
    return bad == 0;
}

int bench_run_work(const bench_work *w, const unsigned *threads, int nthreads, int runs,
                   double *secs, gfx_stats *st)
{
    bench_job jobs[8];
    const void *params[8][8];
    int ok = 1;
    if (nthreads > 8)
        nthreads = 8;
    for (int t = 0; t < nthreads; t++) {
        memset(&jobs[t], 0, sizeof jobs[t]);
        jobs[t].dev = bench_device(threads[t]);
        w->setup(&jobs[t], w->ctx);
        for (size_t i = 0; i < jobs[t].nargs; i++)
            params[t][i] = &jobs[t].arg[i];
    }
    double *cores = calloc((size_t)nthreads * runs, sizeof *cores);
    for (int r = 0; r < runs; r++)
        for (int t = 0; t < nthreads; t++) {
            gfx_stats s;
            double sum = 0, cpu = 0;
            unsigned n = 0;
            do {
                if (w->before)
                    w->before(&jobs[t], w->ctx);
                double c0 = cpu_now();
                sum += bench_launch(jobs[t].dev, w->k, w->groups, w->block, params[t],
                                    jobs[t].nargs, &s);
                cpu += cpu_now() - c0;
                n++;
            } while (sum < w->min_secs);
            secs[t * runs + r] = sum / n;
            cores[t * runs + r] = cpu / sum;
            if (t == 0 && st)
                *st = s;
            if (r == 0 || r == runs - 1)
                ok &= w->verify(&jobs[t], w->ctx);
        }
    for (int t = 0; t < nthreads; t++) {
        gfx_device_free(jobs[t].dev);
        bench_cores[t] = bench_median(cores + t * runs, runs);
    }
    free(cores);
    return ok;
}

void bench_emit_rates(const char *bench, const char *metric, double work, const double *secs,
                      int runs, const unsigned *threads, int nthreads, int verified,
                      const char *extra)
{
    double v[1000];
    char ex[1024];
    for (int t = 0; t < nthreads; t++) {
        for (int r = 0; r < runs && r < 1000; r++)
            v[r] = work / secs[t * runs + r];
        snprintf(ex, sizeof ex, "%s%s\"cores\":%.3g", extra ? extra : "", extra ? "," : "",
                 bench_cores[t < 8 ? t : 7]);
        bench_emit(bench, metric, v, runs, threads[t], verified, ex);
    }
}

uint32_t bench_rand(void)
{
    static uint64_t s = 0x9e3779b97f4a7c15ull;
    s ^= s << 13;
    s ^= s >> 7;
    s ^= s << 17;
    return (uint32_t)(s >> 16);
}
