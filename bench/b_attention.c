/* b_attention.c - flash attention (tests/workloads/attention.cl) at sequence length 1024 on
 * gfx950: forward, and backward (Di, dK/dV, dQ kernels) from the forward's outputs, head
 * dimension 128 non-causal and 64 causal, one head.  Figures: MAC/s of the matrix products the
 * algorithm performs (forward: 2 S^2 D, backward: 5 S^2 D, halved when causal) on 1 and 2
 * threads.  The outputs of the first and last run are checked against the double-precision
 * reference of tests/common/workloads.c within the bounds test_attention.c explains. */
#include "bench.h"
#include "common/workloads.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>

static const unsigned threads[] = {1, 2};

typedef struct {
    gfx_device *dev;
    uint64_t q, k, v, go, o, lse, di, dq, dk, dv;
} dbufs;

static double run_kernel(gfx_device *dev, const gfx_kernel *k, uint32_t gx,
                         const void *const *params, size_t n)
{
    uint32_t grid[3] = {gx, 1, 1}, block[3] = {256, 1, 1};
    gfx_launch_options opt = {.max_insts = 1ull << 40};
    double t0 = bench_now();
    gfx_result r = gfx_launch_params(dev, k, grid, block, params, n, &opt, NULL);
    if (r != GFX_OK) {
        gfx_fault f;
        gfx_last_fault(dev, &f);
        fprintf(stderr, "b_attention: %s\n", f.kind ? f.message : gfx_device_error(dev));
        exit(1);
    }
    return bench_now() - t0;
}

static int close_enough(const char *what, gfx_device *dev, uint64_t a, const double *want,
                        const double *mag, size_t n)
{
    float *got = malloc(n * sizeof *got);
    bench_download(dev, got, a, n * sizeof *got);
    size_t bad = 0;
    for (size_t i = 0; i < n; i++)
        if (!(fabs(got[i] - want[i]) <= ldexp(mag[i], -7) + 1e-6) && bad++ < 3)
            fprintf(stderr, "b_attention %s[%zu] = %.8g, want %.8g\n", what, i, got[i], want[i]);
    free(got);
    return bad == 0;
}

static void attention(gfx_module *mod, int S, int D, int causal)
{
    char name[64], kf[32], kkv[32], kq[32];
    snprintf(name, sizeof name, "attention_s%d_d%d%s", S, D, causal ? "_causal" : "");
    if (!bench_case(name))
        return;
    snprintf(kf, sizeof kf, "attn_fwd_d%d", D);
    snprintf(kkv, sizeof kkv, "attn_bwd_dkdv_d%d", D);
    snprintf(kq, sizeof kq, "attn_bwd_dq_d%d", D);
    size_t n = (size_t)S * D;
    uint64_t seed = 0x6a09e667f3bcc909ull;
    uint16_t *q = malloc(n * 2), *k = malloc(n * 2), *v = malloc(n * 2), *go = malloc(n * 2);
    wl_fill(WL_BF16, q, n, &seed, 1);
    wl_fill(WL_BF16, k, n, &seed, 1);
    wl_fill(WL_BF16, v, n, &seed, 1);
    wl_fill(WL_BF16, go, n, &seed, 1);
    float scale = (float)(1 / sqrt(D));
    double *o = malloc(n * 8), *omag = malloc(n * 8), *lse = malloc(S * 8);
    wl_attn_fwd_ref(q, k, v, 1, S, D, scale, causal, o, lse, omag);
    /* the backward reference takes O as the kernels see it: f32 */
    float *of = malloc(n * 4);
    for (size_t i = 0; i < n; i++)
        of[i] = (float)o[i];
    double *di = malloc(S * 8), *gq = malloc(n * 8), *gk = malloc(n * 8), *gv = malloc(n * 8);
    double *mq = malloc(n * 8), *mk = malloc(n * 8), *mv = malloc(n * 8);
    wl_attn_bwd_ref(q, k, v, go, of, 1, S, D, scale, causal, di, gq, gk, gv, mq, mk, mv);

    int runs = bench_runs(), ok = 1, hd = D;
    double *fwd = calloc((size_t)runs * 2, sizeof *fwd), *bwd = calloc((size_t)runs * 2, 8);
    const gfx_kernel *kfwd = bench_kernel(mod, kf), *kpre = bench_kernel(mod, "attn_bwd_pre");
    const gfx_kernel *kdkdv = bench_kernel(mod, kkv), *kdq = bench_kernel(mod, kq);
    dbufs b[2];
    for (int d = 0; d < 2; d++) {
        gfx_device *dev = b[d].dev = bench_device(threads[d]);
        b[d].q = bench_upload(dev, q, n * 2);
        b[d].k = bench_upload(dev, k, n * 2);
        b[d].v = bench_upload(dev, v, n * 2);
        b[d].go = bench_upload(dev, go, n * 2);
        b[d].o = bench_upload(dev, NULL, n * 4);
        b[d].lse = bench_upload(dev, NULL, (size_t)S * 4);
        b[d].di = bench_upload(dev, NULL, (size_t)S * 4);
        b[d].dq = bench_upload(dev, NULL, n * 4);
        b[d].dk = bench_upload(dev, NULL, n * 4);
        b[d].dv = bench_upload(dev, NULL, n * 4);
    }
    uint32_t gx = (uint32_t)(S + 63) / 64;
    for (int r = 0; r < runs; r++)
        for (int d = 0; d < 2; d++) {
            dbufs *x = &b[d];
            const void *pf[] = {&x->q, &x->k, &x->v, &x->o, &x->lse, &S, &scale, &causal};
            const void *pp[] = {&x->go, &x->o, &x->di, &S, &hd};
            const void *pkv[] = {&x->q, &x->k, &x->v, &x->go, &x->lse, &x->di,
                                 &x->dk, &x->dv, &S, &scale, &causal};
            const void *pq[] = {&x->q, &x->k, &x->v, &x->go, &x->lse, &x->di,
                                &x->dq, &S, &scale, &causal};
            fwd[d * runs + r] = run_kernel(x->dev, kfwd, gx, pf, 8);
            bwd[d * runs + r] = run_kernel(x->dev, kpre, (uint32_t)(S + 255) / 256, pp, 5) +
                                run_kernel(x->dev, kdkdv, gx, pkv, 11) +
                                run_kernel(x->dev, kdq, gx, pq, 10);
            if (r == 0 || r == runs - 1) {
                ok &= close_enough("O", x->dev, x->o, o, omag, n);
                ok &= close_enough("dQ", x->dev, x->dq, gq, mq, n);
                ok &= close_enough("dK", x->dev, x->dk, gk, mk, n);
                ok &= close_enough("dV", x->dev, x->dv, gv, mv, n);
            }
        }
    double sq = (double)S * S * D * (causal ? 0.5 : 1.0);
    char bname[96];
    for (int d = 0; d < 2; d++) {
        double *rate = malloc(sizeof(double) * runs);
        for (int r = 0; r < runs; r++)
            rate[r] = 2 * sq / fwd[d * runs + r];
        snprintf(bname, sizeof bname, "%s_fwd", name);
        bench_emit(bname, "macs_per_s", rate, runs, threads[d], ok, "\"unit\":\"MAC/s\"");
        for (int r = 0; r < runs; r++)
            rate[r] = 5 * sq / bwd[d * runs + r];
        snprintf(bname, sizeof bname, "%s_bwd", name);
        bench_emit(bname, "macs_per_s", rate, runs, threads[d], ok, "\"unit\":\"MAC/s\"");
        free(rate);
        gfx_device_free(b[d].dev);
    }
    void *mem[] = {q, k, v, go, o, omag, lse, of, di, gq, gk, gv, mq, mk, mv, fwd, bwd};
    for (size_t i = 0; i < sizeof mem / sizeof mem[0]; i++)
        free(mem[i]);
}

int main(void)
{
    gfx_module *mod = wl_load("attention", "gfx950", "-O3");
    int S = (int)(1024 * bench_scale()) / 64 * 64;
    if (S < 64)
        S = 64;
    attention(mod, S, 128, 0);
    attention(mod, S, 64, 1);
    gfx_module_free(mod);
    return 0;
}
