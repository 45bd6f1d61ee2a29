/* b_mix.c - a real clang-22 kernel mix: the engine's test kernels (tests/kernels/basic.cl,
 * compiled at -O2 for gfx950) at larger sizes, each checked against a C reference.  Per-kernel
 * wave-instructions per second on 1 thread, and the whole mix (total instructions / total time)
 * on 1 and 2 threads. */
#include "bench.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static unsigned n; /* elements for the elementwise kernels (a multiple of 64) */

typedef struct {
    const char *name;
    unsigned groups, block;
    size_t out_words;
    uint32_t *a, *b; /* inputs (NULL when unused), n words each (i64_ops: 2n) */
    size_t in_words;
    uint32_t *want;
    float s; /* saxpy */
    int kind;
} kctx;

enum { K_OUT_A_B_N, K_SAXPY, K_COLLATZ, K_LDS, K_PRIVATE, K_ATOMIC };

static void setup(bench_job *j, void *p)
{
    kctx *c = p;
    size_t ob = c->out_words * 4, ib = c->in_words * 4;
    j->arg[0] = bench_upload(j->dev, c->kind == K_ATOMIC ? c->want : NULL, ob);
    switch (c->kind) {
    case K_OUT_A_B_N:
        j->arg[1] = bench_upload(j->dev, c->a, ib);
        j->arg[2] = bench_upload(j->dev, c->b, ib);
        j->arg[3] = n;
        j->nargs = 4;
        break;
    case K_SAXPY:
        memcpy(&j->arg[1], &c->s, 4);
        j->arg[2] = bench_upload(j->dev, c->a, ib);
        j->arg[3] = bench_upload(j->dev, c->b, ib);
        j->arg[4] = n;
        j->nargs = 5;
        break;
    case K_COLLATZ:
        j->arg[1] = n;
        j->nargs = 2;
        break;
    case K_LDS:
        j->arg[1] = bench_upload(j->dev, c->a, ib);
        j->nargs = 2;
        break;
    case K_PRIVATE:
    case K_ATOMIC:
        j->arg[1] = bench_upload(j->dev, c->a, ib);
        j->arg[2] = n;
        j->nargs = 3;
        break;
    }
}

static void zero_counters(bench_job *j, void *p)
{
    kctx *c = p;
    uint32_t z[8] = {0};
    if (gfx_memcpy_htod(j->dev, j->arg[0], z, c->out_words * 4) != GFX_OK)
        exit(1);
}

static int verify(bench_job *j, void *p)
{
    kctx *c = p;
    uint32_t *got = malloc(c->out_words * 4);
    bench_download(j->dev, got, j->arg[0], c->out_words * 4);
    int ok = bench_check_u32(c->name, got, c->want, c->out_words);
    free(got);
    return ok;
}

static uint32_t fbits(float f)
{
    uint32_t u;
    memcpy(&u, &f, 4);
    return u;
}
static float fval(uint32_t u)
{
    float f;
    memcpy(&f, &u, 4);
    return f;
}

static uint32_t *words(size_t k)
{
    uint32_t *p = calloc(k ? k : 1, 4);
    if (!p)
        exit(1);
    return p;
}

/* Inputs and C references for each kernel. */
static void make(kctx *c, const char *name)
{
    memset(c, 0, sizeof *c);
    c->name = name;
    c->groups = n / 64;
    c->block = 64;
    c->in_words = n;
    if (!strcmp(name, "vecadd_f32") || !strcmp(name, "saxpy")) {
        c->kind = strcmp(name, "saxpy") ? K_OUT_A_B_N : K_SAXPY;
        c->s = 1.0f / 3.0f;
        c->a = words(n);
        c->b = words(n);
        c->out_words = n;
        c->want = words(n);
        for (unsigned i = 0; i < n; i++) {
            float x = (float)(int)(bench_rand() % 20001 - 10000) / 64.0f;
            float y = (float)bench_rand() / 3.0f;
            c->a[i] = fbits(x);
            c->b[i] = fbits(y);
            c->want[i] = fbits(c->kind == K_SAXPY ? fmaf(c->s, x, y) : x + y);
        }
    } else if (!strcmp(name, "int_ops")) {
        c->kind = K_OUT_A_B_N;
        c->a = words(n);
        c->b = words(n);
        c->out_words = 4 * (size_t)n;
        c->want = words(c->out_words);
        for (unsigned i = 0; i < n; i++) {
            int32_t x = (int32_t)bench_rand(), y = (int32_t)bench_rand() >> (bench_rand() % 31);
            if (x == INT32_MIN)
                x++; /* INT32_MIN / -1 is undefined */
            if (i % 7 == 0)
                y = 0;
            c->a[i] = (uint32_t)x;
            c->b[i] = (uint32_t)y;
            c->want[4 * i + 0] = (uint32_t)x * (uint32_t)y + (uint32_t)(x >> 3);
            c->want[4 * i + 1] = (uint32_t)(y ? x / y : -1);
            c->want[4 * i + 2] = (uint32_t)(y ? x % y : -1);
            c->want[4 * i + 3] = ((uint32_t)x >> (y & 31)) ^ ((uint32_t)x << 5);
        }
    } else if (!strcmp(name, "i64_ops")) {
        c->kind = K_OUT_A_B_N;
        c->in_words = 2 * (size_t)n;
        c->a = words(c->in_words);
        c->b = words(c->in_words);
        c->out_words = 6 * (size_t)n;
        c->want = words(c->out_words);
        for (unsigned i = 0; i < n; i++) {
            int64_t x = (int64_t)((uint64_t)bench_rand() << 32 | bench_rand()) >> (bench_rand() % 40);
            int64_t y = i % 4 == 0 ? 0
                                   : (int64_t)((uint64_t)bench_rand() << 32 | bench_rand()) >>
                                         (bench_rand() % 63);
            if (x == INT64_MIN)
                x++;
            memcpy(&c->a[2 * i], &x, 8);
            memcpy(&c->b[2 * i], &y, 8);
            int64_t r[3] = {(int64_t)((uint64_t)x * (uint64_t)y), y ? x / y : 0,
                            y ? (int64_t)((uint64_t)x % (uint64_t)y) : 0};
            memcpy(&c->want[6 * i], r, 24);
        }
    } else if (!strcmp(name, "collatz")) {
        c->kind = K_COLLATZ;
        c->in_words = 0;
        c->out_words = n;
        c->want = words(n);
        for (unsigned i = 0; i < n; i++) {
            uint32_t v = i + 1, s = 0;
            while (v != 1) {
                v = (v & 1) ? 3 * v + 1 : v / 2;
                s++;
            }
            c->want[i] = s;
        }
    } else if (!strcmp(name, "lds_reduce")) {
        c->kind = K_LDS;
        c->block = 256;
        c->groups = n / 256;
        c->a = words(n);
        c->out_words = c->groups;
        c->want = words(c->groups);
        for (unsigned g = 0; g < c->groups; g++) {
            float s = 0; /* small integers: every order of summation is exact */
            for (unsigned l = 0; l < 256; l++) {
                float v = (float)(int)(bench_rand() % 2001 - 1000);
                c->a[g * 256 + l] = fbits(v);
                s += v;
            }
            c->want[g] = fbits(s);
        }
    } else if (!strcmp(name, "private_array")) {
        c->kind = K_PRIVATE;
        c->a = words(n);
        c->out_words = n;
        c->want = words(n);
        for (unsigned i = 0; i < n; i++) {
            c->a[i] = bench_rand() & 0xff;
            unsigned j = c->a[i] & 15, k = (c->a[i] >> 4) & 15;
            c->want[i] = (i * 16 + j * j) + (i * 16 + k * k);
        }
    } else { /* atomic_count */
        c->kind = K_ATOMIC;
        c->a = words(n);
        c->out_words = 8;
        c->want = words(8);
        for (unsigned i = 0; i < n; i++) {
            c->a[i] = bench_rand();
            c->want[c->a[i] & 7]++;
        }
    }
    (void)fval;
}

int main(void)
{
    static const char *const names[] = {"vecadd_f32", "saxpy",         "int_ops",     "i64_ops",
                                        "collatz",    "lds_reduce",    "private_array",
                                        "atomic_count"};
    enum { NK = sizeof names / sizeof names[0] };
    n = (unsigned)(65536 * bench_scale()) / 256 * 256;
    if (n < 256)
        n = 256;
    gfx_module *m = bench_load(bench_compile("tests/kernels/basic.cl", "gfx950"));
    static const unsigned threads[] = {1, 2};
    int runs = bench_runs(), all_ok = 1;
    double *secs = calloc((size_t)runs * 2 * NK, sizeof *secs);
    double *sum = calloc((size_t)runs * 2, sizeof *sum);
    uint64_t insts = 0;
    double cpu[2] = {0, 0}, wall[2] = {0, 0}; /* for the mix's "cores": CPU / wall over kernels */
    for (int i = 0; i < NK; i++) {
        kctx c;
        make(&c, names[i]);
        bench_work w = {bench_kernel(m, names[i]), c.groups, c.block, setup, verify, &c,
                        c.kind == K_ATOMIC ? zero_counters : NULL, 0};
        gfx_stats st;
        double *s = secs + (size_t)i * runs * 2;
        int ok = bench_run_work(&w, threads, 2, runs, s, &st);
        all_ok &= ok;
        insts += st.wave_insts;
        for (int r = 0; r < runs * 2; r++)
            sum[r] += s[r];
        for (int t = 0; t < 2; t++) {
            double tmp[1000];
            memcpy(tmp, s + t * runs, (size_t)runs * sizeof *tmp);
            double med = bench_median(tmp, runs);
            cpu[t] += bench_cores[t] * med;
            wall[t] += med;
        }
        char extra[256];
        snprintf(extra, sizeof extra,
                 "\"unit\":\"wave-instr/s\",\"wave_insts\":%llu,\"workgroups\":%u,\"block\":%u",
                 (unsigned long long)st.wave_insts, c.groups, c.block);
        char bname[64];
        snprintf(bname, sizeof bname, "mix_%s", names[i]);
        bench_emit_rates(bname, "wave_insts_per_s", (double)st.wave_insts, s, runs, threads, 1,
                         ok, extra);
        free(c.a);
        free(c.b);
        free(c.want);
    }
    for (int t = 0; t < 2; t++)
        bench_cores[t] = wall[t] > 0 ? cpu[t] / wall[t] : 0;
    char extra[256];
    snprintf(extra, sizeof extra, "\"unit\":\"wave-instr/s\",\"wave_insts\":%llu,\"kernels\":%d",
             (unsigned long long)insts, NK);
    bench_emit_rates("kernel_mix", "wave_insts_per_s", (double)insts, sum, runs, threads, 2,
                     all_ok, extra);
    free(secs);
    free(sum);
    gfx_module_free(m);
    return 0;
}
