/* b_memory.c - memory-bound kernels: a streaming triad (out = a + s*b on float4, emulated GB/s of
 * kernel traffic), an LDS tree reduction with a barrier per level (LDS instructions and
 * wave-instructions per second) and wave reductions through DPP (wave-instructions per second).
 * 1 and 2 threads. */
#include "bench.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static const unsigned threads[] = {1, 2};

/* ---- triad ---- */
typedef struct {
    unsigned n4; /* float4 elements */
    float *a, *b, *want;
    float s;
} tctx;

static void tsetup(bench_job *j, void *p)
{
    tctx *c = p;
    size_t bytes = (size_t)c->n4 * 16;
    j->arg[0] = bench_upload(j->dev, NULL, bytes);
    j->arg[1] = bench_upload(j->dev, c->a, bytes);
    j->arg[2] = bench_upload(j->dev, c->b, bytes);
    memcpy(&j->arg[3], &c->s, 4);
    j->nargs = 4;
}

static int tverify(bench_job *j, void *p)
{
    tctx *c = p;
    size_t n = (size_t)c->n4 * 4;
    float *got = malloc(n * 4);
    bench_download(j->dev, got, j->arg[0], n * 4);
    int ok = bench_check_u32("triad", (const uint32_t *)got, (const uint32_t *)c->want, n);
    free(got);
    return ok;
}

static void triad(gfx_module *m)
{
    tctx c;
    unsigned groups = bench_scaled(4096);
    c.n4 = groups * 256;
    size_t n = (size_t)c.n4 * 4;
    c.a = malloc(n * 4);
    c.b = malloc(n * 4);
    c.want = malloc(n * 4);
    c.s = 0.375f;
    for (size_t i = 0; i < n; i++) {
        c.a[i] = (float)(bench_rand() % 100000) / 7.0f;
        c.b[i] = (float)(bench_rand() % 100000) / 3.0f;
        c.want[i] = c.a[i] + c.s * c.b[i];
    }
    bench_work w = {bench_kernel(m, "triad"), groups, 256, tsetup, tverify, &c, NULL, 0};
    int runs = bench_runs();
    double *secs = calloc((size_t)runs * 2, sizeof *secs);
    gfx_stats st;
    int ok = bench_run_work(&w, threads, 2, runs, secs, &st);
    char extra[256];
    snprintf(extra, sizeof extra, "\"unit\":\"GB/s\",\"bytes\":%zu,\"workgroups\":%u", n * 12,
             groups);
    bench_emit_rates("stream_triad", "gbytes_per_s", (double)n * 12 / 1e9, secs, runs, threads, 2,
                     ok, extra);
    snprintf(extra, sizeof extra, "\"unit\":\"wave-instr/s\",\"wave_insts\":%llu",
             (unsigned long long)st.wave_insts);
    bench_emit_rates("stream_triad", "wave_insts_per_s", (double)st.wave_insts, secs, runs,
                     threads, 1, ok, extra);
    free(secs);
    free(c.a);
    free(c.b);
    free(c.want);
}

/* ---- LDS reduction ---- */
#define LGROUPS 16
typedef struct {
    unsigned chunks;
    uint32_t *in, want[LGROUPS];
} lctx;

static void lsetup(bench_job *j, void *p)
{
    lctx *c = p;
    j->arg[0] = bench_upload(j->dev, NULL, sizeof c->want);
    j->arg[1] = bench_upload(j->dev, c->in, (size_t)LGROUPS * c->chunks * 256 * 4);
    j->arg[2] = c->chunks;
    j->nargs = 3;
}

static int lverify(bench_job *j, void *p)
{
    lctx *c = p;
    uint32_t got[LGROUPS];
    bench_download(j->dev, got, j->arg[0], sizeof got);
    return bench_check_u32("lds_reduce", got, c->want, LGROUPS);
}

static void lds(gfx_module *m)
{
    lctx c;
    c.chunks = bench_scaled(512);
    size_t n = (size_t)LGROUPS * c.chunks * 256;
    c.in = malloc(n * 4);
    memset(c.want, 0, sizeof c.want);
    for (size_t i = 0; i < n; i++) {
        c.in[i] = bench_rand();
        c.want[i / (256 * c.chunks)] += c.in[i]; /* integer sums: any order is exact */
    }
    bench_work w = {bench_kernel(m, "lds_reduce"), LGROUPS, 256, lsetup, lverify, &c, NULL, 0};
    int runs = bench_runs();
    double *secs = calloc((size_t)runs * 2, sizeof *secs);
    gfx_stats st;
    int ok = bench_run_work(&w, threads, 2, runs, secs, &st);
    char extra[256];
    snprintf(extra, sizeof extra,
             "\"unit\":\"wave-instr/s\",\"wave_insts\":%llu,\"lds\":%llu,\"workgroups\":%d",
             (unsigned long long)st.wave_insts, (unsigned long long)st.lds, LGROUPS);
    bench_emit_rates("lds_reduce", "wave_insts_per_s", (double)st.wave_insts, secs, runs, threads,
                     2, ok, extra);
    bench_emit_rates("lds_reduce", "lds_insts_per_s", (double)st.lds, secs, runs, threads, 1, ok,
                     "\"unit\":\"LDS wave-instr/s\"");
    free(secs);
    free(c.in);
}

/* ---- DPP wave reduction: 64 waves (16 workgroups, so that 2 threads share them evenly) ---- */
#define DWAVES 64
typedef struct {
    unsigned chunks;
    uint32_t *in, want[DWAVES];
} dctx;

static void dsetup(bench_job *j, void *p)
{
    dctx *c = p;
    j->arg[0] = bench_upload(j->dev, NULL, sizeof c->want);
    j->arg[1] = bench_upload(j->dev, c->in, (size_t)DWAVES * c->chunks * 64 * 4);
    j->arg[2] = c->chunks;
    j->nargs = 3;
}

static int dverify(bench_job *j, void *p)
{
    dctx *c = p;
    uint32_t got[DWAVES];
    bench_download(j->dev, got, j->arg[0], sizeof got);
    return bench_check_u32("dpp_reduce", got, c->want, DWAVES);
}

static void dpp(gfx_module *m)
{
    dctx c;
    c.chunks = bench_scaled(512);
    size_t n = (size_t)DWAVES * c.chunks * 64;
    c.in = malloc(n * 4);
    memset(c.want, 0, sizeof c.want);
    for (size_t i = 0; i < n; i++) {
        c.in[i] = bench_rand();
        c.want[i / (64 * c.chunks)] += c.in[i];
    }
    bench_work w = {bench_kernel(m, "dpp_reduce"), DWAVES / 4, 256, dsetup, dverify, &c, NULL, 0};
    int runs = bench_runs();
    double *secs = calloc((size_t)runs * 2, sizeof *secs);
    gfx_stats st;
    int ok = bench_run_work(&w, threads, 2, runs, secs, &st);
    char extra[256];
    snprintf(extra, sizeof extra, "\"unit\":\"wave-instr/s\",\"wave_insts\":%llu,\"waves\":%d",
             (unsigned long long)st.wave_insts, DWAVES);
    bench_emit_rates("dpp_reduce", "wave_insts_per_s", (double)st.wave_insts, secs, runs, threads,
                     2, ok, extra);
    free(secs);
    free(c.in);
}

int main(void)
{
    gfx_module *m = bench_load(bench_compile("bench/kernels/bench.cl", "gfx950"));
    triad(m);
    lds(m);
    dpp(m);
    gfx_module_free(m);
    return 0;
}
