/* b_tier2.c - issue 16's figures that the other programs do not measure:
 *  - mfma_chain: a chain of v_mfma_f32_32x32x8_f16 on registers (bench/kernels/tier2.cl), MAC/s
 *    on 1 thread;
 *  - native_fma: the same core's f32 FMA peak, a C loop of independent vector FMAs built at run
 *    time with `gcc -O3 -march=native` (so it uses the host's widest FMA units) and loaded with
 *    dlopen; and mfma_chain / native_fma per run (runs alternate between the two);
 *  - o0_loop: a clang -O0 kernel (scratch-heavy: every variable in private memory, a private
 *    array indexed dynamically), wave-instructions/s on 1 thread.
 * bench/compare.py (make bench-compare) prints them with the rest of the table. */
#include "bench.h"

#include <dlfcn.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static const unsigned one_thread[] = {1};

/* ---- native FMA peak ---- */

/* 12 independent accumulators: enough to cover FMA latency x pipes on current x86 cores. */
static const char fma_src[] =
    "#ifdef __AVX512F__\n"
    "typedef float vf __attribute__((vector_size(64)));\n"
    "#else\n"
    "typedef float vf __attribute__((vector_size(32)));\n"
    "#endif\n"
    "double fma_loop(long iters, float x, float y, float *sink) {\n"
    "    vf acc[12], a = {0}, b = {0};\n"
    "    a += x; b += y;\n"
    "    for (int k = 0; k < 12; k++) acc[k] = b * (float)(k + 1);\n"
    "    for (long i = 0; i < iters; i++)\n"
    "        for (int k = 0; k < 12; k++) acc[k] = acc[k] * a + b;\n"
    "    vf s = {0};\n"
    "    for (int k = 0; k < 12; k++) s += acc[k];\n"
    "    *sink = s[0];\n"
    "    return (double)iters * 12 * (sizeof(vf) / 4);\n"
    "}\n";

typedef double (*fma_fn)(long, float, float, float *);

static fma_fn load_fma(void)
{
    const char *b = getenv("BUILD");
    char dir[512], src[600], so[600], cmd[2048];
    snprintf(dir, sizeof dir, "%s/bench", b && *b ? b : "build-bench");
    snprintf(src, sizeof src, "%s/fma_peak.c", dir);
    snprintf(so, sizeof so, "%s/fma_peak.so", dir);
    FILE *f = fopen(src, "w");
    if (!f || fputs(fma_src, f) < 0 || fclose(f) != 0) {
        fprintf(stderr, "bench: cannot write %s\n", src);
        exit(1);
    }
    snprintf(cmd, sizeof cmd, "gcc -O3 -march=native -shared -fPIC %s -o %s", src, so);
    if (system(cmd) != 0) {
        fprintf(stderr, "bench: command failed: %s\n", cmd);
        exit(1);
    }
    void *h = dlopen(so, RTLD_NOW);
    fma_fn fn = h ? (fma_fn)(uintptr_t)dlsym(h, "fma_loop") : NULL;
    if (!fn) {
        fprintf(stderr, "bench: cannot load %s: %s\n", so, dlerror());
        exit(1);
    }
    return fn;
}

/* ---- MFMA chain ---- */

typedef struct {
    unsigned groups, n;
    float *want;
} mctx;

static void msetup(bench_job *j, void *p)
{
    mctx *c = p;
    j->arg[0] = bench_upload(j->dev, NULL, (size_t)c->groups * 64 * 16 * 4);
    j->arg[1] = c->n;
    j->nargs = 2;
}

static int mverify(bench_job *j, void *p)
{
    mctx *c = p;
    size_t n = (size_t)c->groups * 64 * 16;
    float *got = malloc(n * 4);
    bench_download(j->dev, got, j->arg[0], n * 4);
    int ok = bench_check_u32("mfma_chain", (const uint32_t *)got, (const uint32_t *)c->want, n);
    free(got);
    return ok;
}

/* The reference: D = A x B once (A[i][k] = (i + k) % 3, B[k][j] = (k + 2j) % 2, K = 8), n times
 * accumulated: n * D, exact in f32.  Output layout of a 32x32 MFMA (CDNA3/CDNA4 ISA, "Matrix
 * fused multiply-add" operand layouts): lane l, accumulator register r holds D[i][j] with
 * j = l % 32 and i = 8 * (r / 4) + 4 * (l / 32) + r % 4. */
static void mref(mctx *c)
{
    for (unsigned g = 0; g < c->groups; g++)
        for (unsigned l = 0; l < 64; l++)
            for (unsigned r = 0; r < 16; r++) {
                unsigned j = l % 32, i = 8 * (r / 4) + 4 * (l / 32) + r % 4, d = 0;
                for (unsigned k = 0; k < 8; k++)
                    d += ((i + k) % 3) * ((k + 2 * j) % 2);
                c->want[((size_t)g * 64 + l) * 16 + r] = (float)d * (float)c->n;
            }
}

static void mfma(gfx_module *m, fma_fn fma)
{
    mctx c;
    c.groups = 16;
    c.n = bench_scaled(1024) / 8 * 8 + 8;
    c.want = malloc((size_t)c.groups * 64 * 16 * 4);
    mref(&c);
    int runs = bench_runs();
    double *secs = calloc((size_t)runs, sizeof *secs), *nat = calloc((size_t)runs, 8);
    double *rate = calloc((size_t)runs, 8), *natrate = calloc((size_t)runs, 8);
    double *ratio = calloc((size_t)runs, 8);
    bench_work w = {bench_kernel(m, "mfma_chain"), c.groups, 64, msetup, mverify, &c, NULL, 0};
    double macs = (double)c.groups * c.n * 32 * 32 * 8;
    float sink = 0;
    long iters = (long)bench_scaled(2e7);
    fma(iters / 10, 0.999999f, 1e-6f, &sink); /* warm-up */
    int ok = 1;
    for (int r = 0; r < runs; r++) { /* alternate, so a load change hits both alike */
        ok &= bench_run_work(&w, one_thread, 1, 1, &secs[r], NULL);
        double t0 = bench_now();
        double nmacs = fma(iters, 0.999999f, 1e-6f, &sink);
        nat[r] = bench_now() - t0;
        rate[r] = macs / secs[r];
        natrate[r] = nmacs / nat[r];
        ratio[r] = rate[r] / natrate[r];
    }
    char extra[256];
    snprintf(extra, sizeof extra, "\"unit\":\"MAC/s\",\"macs\":%.0f,\"workgroups\":%u", macs,
             c.groups);
    bench_emit("mfma_chain", "macs_per_s", rate, runs, 1, ok, extra);
    bench_emit("native_fma", "macs_per_s", natrate, runs, 1, sink == sink,
               "\"unit\":\"MAC/s\",\"what\":\"gcc -O3 -march=native, 12 independent vector FMAs\"");
    bench_emit("mfma_chain", "over_native_fma_peak", ratio, runs, 1, ok, "\"unit\":\"x\"");
    free(secs);
    free(nat);
    free(rate);
    free(natrate);
    free(ratio);
    free(c.want);
}

/* ---- clang -O0 kernel ---- */

typedef struct {
    unsigned groups, n;
    uint32_t *want;
} octx;

static void osetup(bench_job *j, void *p)
{
    octx *c = p;
    j->arg[0] = bench_upload(j->dev, NULL, (size_t)c->groups * 256 * 4);
    j->arg[1] = c->n;
    j->nargs = 2;
}

static int overify(bench_job *j, void *p)
{
    octx *c = p;
    size_t n = (size_t)c->groups * 256;
    uint32_t *got = malloc(n * 4);
    bench_download(j->dev, got, j->arg[0], n * 4);
    int ok = bench_check_u32("o0_loop", got, c->want, n);
    free(got);
    return ok;
}

static void o0(gfx_module *m)
{
    octx c;
    c.groups = 8;
    c.n = bench_scaled(1000);
    c.want = malloc((size_t)c.groups * 256 * 4);
    for (unsigned g = 0; g < c.groups * 256; g++) { /* tier2.cl's o0_loop in C */
        uint32_t t[8], acc = g;
        for (unsigned k = 0; k < 8; k++)
            t[k] = g * k + 1u;
        for (unsigned it = 0; it < c.n; it++) {
            acc = acc * 1664525u + t[it & 7u];
            t[(acc >> 5) & 7u] ^= acc;
        }
        c.want[g] = acc;
    }
    int runs = bench_runs();
    double *secs = calloc((size_t)runs, sizeof *secs);
    gfx_stats st;
    bench_work w = {bench_kernel(m, "o0_loop"), c.groups, 256, osetup, overify, &c, NULL, 0};
    int ok = bench_run_work(&w, one_thread, 1, runs, secs, &st);
    char extra[256];
    snprintf(extra, sizeof extra, "\"unit\":\"wave-instr/s\",\"wave_insts\":%llu",
             (unsigned long long)st.wave_insts);
    bench_emit_rates("o0_loop", "wave_insts_per_s", (double)st.wave_insts, secs, runs,
                     one_thread, 1, ok, extra);
    free(secs);
    free(c.want);
}

int main(void)
{
    fma_fn fma = load_fma();
    gfx_module *m = bench_load(bench_compile("bench/kernels/tier2.cl", "gfx950"));
    mfma(m, fma);
    gfx_module_free(m);
    m = bench_load(bench_compile_opt("bench/kernels/tier2.cl", "gfx950", "-O0"));
    o0(m);
    gfx_module_free(m);
    return 0;
}
