/* b_valu.c - VALU-bound loops (f32 fma/mul/add, integer mul/add/shift/xor): wave-instructions
 * per second, VALU lane-operations per second, on 1 and 2 threads (16 workgroups). */
#include "bench.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define GROUPS 16
#define N (GROUPS * 256)

typedef struct {
    uint32_t in[N], want[N];
    unsigned iters;
} ctx;

static void setup(bench_job *j, void *p)
{
    ctx *c = p;
    j->arg[0] = bench_upload(j->dev, NULL, sizeof c->want);
    j->arg[1] = bench_upload(j->dev, c->in, sizeof c->in);
    j->arg[2] = c->iters;
    j->nargs = 3;
}

static int verify(bench_job *j, void *p)
{
    ctx *c = p;
    static uint32_t got[N];
    bench_download(j->dev, got, j->arg[0], sizeof got);
    return bench_check_u32("valu", got, c->want, N);
}

static float f32(uint32_t u)
{
    float f;
    memcpy(&f, &u, 4);
    return f;
}
static uint32_t bits(float f)
{
    uint32_t u;
    memcpy(&u, &f, 4);
    return u;
}

/* The C references: the same operations in the same order (fmaf is correctly rounded, as
 * v_fma_f32 is; this file is compiled without FP contraction). */
static uint32_t ref_f32(uint32_t in, unsigned iters)
{
    float a = f32(in), b = a * 0.25f, m = 0.75f + a * 0.125f, p = 0.5f - a * 0.0625f;
    float d = 0.0f, e = 1.0f;
    for (unsigned k = 0; k < iters; k++) {
        a = fmaf(a, m, p);
        b = fmaf(b, m, a);
        float c = a * b;
        d = d * 0.5f + c;
        e = e + c * 0.001f;
    }
    return bits(a + b + d + e);
}

static uint32_t ref_i32(uint32_t h, unsigned iters)
{
    uint32_t g = h ^ 0x9e3779b9u, s = 0;
    for (unsigned k = 0; k < iters; k++) {
        h = h * 1664525u + 1013904223u;
        g = (g ^ (h >> 13)) + (h << 3);
        s += (g & 0xffffu) | (h >> 24);
    }
    return h ^ g ^ s;
}

static void fill(ctx *c, unsigned iters, int is_f32)
{
    c->iters = iters;
    for (int i = 0; i < N; i++) {
        c->in[i] = is_f32 ? bits((float)(bench_rand() % 1000000) / 1e6f) : bench_rand();
        c->want[i] = is_f32 ? ref_f32(c->in[i], iters) : ref_i32(c->in[i], iters);
    }
}

static void one(gfx_module *m, const char *kernel, const char *name, unsigned iters, int is_f32)
{
    static ctx c;
    fill(&c, iters, is_f32);
    bench_work w = {bench_kernel(m, kernel), GROUPS, 256, setup, verify, &c, NULL, 0};
    static const unsigned threads[] = {1, 2};
    int runs = bench_runs();
    double *secs = calloc((size_t)runs * 2, sizeof *secs);
    gfx_stats st;
    int ok = bench_run_work(&w, threads, 2, runs, secs, &st);
    char extra[256];
    snprintf(extra, sizeof extra,
             "\"unit\":\"wave-instr/s\",\"wave_insts\":%llu,\"valu\":%llu,\"workgroups\":%d",
             (unsigned long long)st.wave_insts, (unsigned long long)st.valu, GROUPS);
    bench_emit_rates(name, "wave_insts_per_s", (double)st.wave_insts, secs, runs, threads, 2, ok,
                     extra);
    /* Every lane is active in these loops: a VALU wave-instruction is 64 lane-operations. */
    bench_emit_rates(name, "lane_ops_per_s", (double)st.valu * 64, secs, runs, threads, 1, ok,
                     "\"unit\":\"lane-op/s\"");
    free(secs);
}

/* Issue 15's speed goal for RDNA: a wave32 VALU loop does at least as many lane-operations per
 * second as the same loop in wave64.  The kernel is built for gfx1100 twice, in wave32 (clang-22's
 * default there) and with -mwavefrontsize64, and run on the same 16 x 256 work-items (128 or 64
 * waves), the two alternately on 1 thread.  Both do the same arithmetic, so the lane-operations
 * of the work are counted once, from the wave64 build (its VALU wave-instructions x 64; clang
 * issues no VOPD in wave64), and divided by each build's time: counting the wave32 build's VALU
 * instructions x 32 would undercount it, since a VOPD instruction does two operations per lane.
 * "wave32_over_wave64" is the median of the per-round ratios, i.e. wave64 time / wave32 time. */
static void widths(const char *kernel, const char *name, unsigned iters, int is_f32)
{
    static ctx c;
    fill(&c, iters, is_f32);
    gfx_module *m[2];
    m[0] = bench_load(bench_compile("bench/kernels/bench.cl", "gfx1100"));
    m[1] = bench_load(
        bench_compile_opt("bench/kernels/bench.cl", "gfx1100", "-O2 -mwavefrontsize64"));
    static const unsigned one_thread[] = {1};
    int runs = bench_runs(), ok = 1;
    double *secs = calloc((size_t)runs * 3, sizeof *secs), *ratio = secs + 2 * runs;
    double work = 0;
    bench_arch = GFX_ARCH_GFX1100;
    for (int r = 0; r < runs; r++) {
        for (int v = 0; v < 2; v++) {
            bench_work w = {bench_kernel(m[v], kernel), GROUPS, 256, setup, verify, &c, NULL, 0};
            gfx_stats st;
            ok &= bench_run_work(&w, one_thread, 1, 1, &secs[v * runs + r], &st);
            if (v)
                work = (double)st.valu * 64;
        }
        ratio[r] = secs[runs + r] / secs[r];
    }
    bench_arch = GFX_ARCH_GFX950;
    char metric[64];
    for (int v = 0; v < 2; v++) {
        snprintf(metric, sizeof metric, "lane_ops_per_s_wave%d", v ? 64 : 32);
        bench_emit_rates(name, metric, work, secs + v * runs, runs, one_thread, 1, ok,
                         "\"unit\":\"lane-op/s\",\"arch\":\"gfx1100\"");
    }
    bench_emit(name, "wave32_over_wave64", ratio, runs, 1, ok,
               "\"unit\":\"x\",\"arch\":\"gfx1100\",\"goal\":\">= 1 (issue 15)\"");
    free(secs);
    gfx_module_free(m[0]);
    gfx_module_free(m[1]);
}

int main(void)
{
    gfx_module *m = bench_load(bench_compile("bench/kernels/bench.cl", "gfx950"));
    /* long enough that a launch with native blocks (jit.c, about 1 G wave-instr/s) still takes
     * tens of milliseconds, so the 2-thread figure is not the pool's start-up */
    unsigned iters = bench_scaled(65536);
    one(m, "valu_f32", "valu_f32", iters, 1);
    one(m, "valu_i32", "valu_i32", iters, 0);
    gfx_module_free(m);
    widths("valu_f32", "rdna_valu_f32", iters, 1);
    widths("valu_i32", "rdna_valu_i32", iters, 0);
    return 0;
}
