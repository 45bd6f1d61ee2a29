/* test_attention.c - flash attention forward and backward (attention.cl, compiled by clang-22 at
 * -O3 for gfx950 and gfx942) against the double-precision reference in tests/common/workloads.c:
 * head dimension 64 and 128, causal and not, a sequence length that is a multiple of the 64-row
 * blocks and one that is not.
 *
 * Tolerances: the kernels round the probabilities P and dS to bf16 before multiplying them on the
 * matrix cores (relative error 2^-9 per term) and accumulate in f32, so each output may differ
 * from the exact value by 2^-7 times the sum of the magnitudes of its terms (which the reference
 * also computes); LSE by 2^-9 relative in its sum, i.e. 4e-3 in log2 units.  A wrong layout,
 * mask or scaling gives errors of the order of the values themselves. */
#include "common/check.h"
#include "common/workloads.h"
#include "gfxemu.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static gfx_device *dev;
static gfx_module *mod;
static const char *arch_name;

static uint64_t upload(const void *p, size_t n) {
    uint64_t a = 0;
    if (gfx_buffer_alloc(dev, n, &a) != GFX_OK || (p && gfx_memcpy_htod(dev, a, p, n) != GFX_OK)) {
        printf("FAIL cannot allocate %zu bytes\n", n);
        exit(1);
    }
    return a;
}

static int launch(const char *name, uint32_t gx, uint32_t gy, const void *const *params, size_t n,
                  const char *what) {
    const gfx_kernel *k;
    uint32_t grid[3] = {gx, gy, 1}, block[3] = {256, 1, 1};
    gfx_result r = gfx_module_kernel(mod, name, &k);
    CHECK(r == GFX_OK, "%s: no kernel %s", what, name);
    if (r != GFX_OK)
        return -1;
    r = gfx_launch_params(dev, k, grid, block, params, n, NULL, NULL);
    gfx_fault f;
    gfx_last_fault(dev, &f);
    CHECK(r == GFX_OK, "%s: %s: %s", what, name, f.kind ? f.message : gfx_device_error(dev));
    return r == GFX_OK ? 0 : -1;
}

/* Compare n f32 results with the reference within 2^-7 * mag + 1e-6. */
static void compare(const char *what, const char *name, const float *got, const double *want,
                    const double *mag, size_t n) {
    size_t bad = 0;
    for (size_t i = 0; i < n; i++) {
        double tol = ldexp(mag[i], -7) + 1e-6;
        if (!(fabs(got[i] - want[i]) <= tol) && bad++ < 4)
            printf("FAIL %s %s[%zu] = %.8g, want %.8g (tolerance %.3g)\n", what, name, i, got[i],
                   want[i], tol);
    }
    CHECK(bad == 0, "%s: %zu of %zu elements of %s wrong", what, bad, n, name);
}

static float *download(uint64_t a, size_t n) {
    float *p = malloc(n * sizeof *p);
    gfx_memcpy_dtoh(dev, p, a, n * sizeof *p);
    return p;
}

static void run(int H, int S, int D, int causal) {
    char what[96], kfwd[32], kdkdv[32], kdq[32];
    snprintf(what, sizeof what, "%s H=%d S=%d D=%d%s", arch_name, H, S, D, causal ? " causal" : "");
    snprintf(kfwd, sizeof kfwd, "attn_fwd_d%d", D);
    snprintf(kdkdv, sizeof kdkdv, "attn_bwd_dkdv_d%d", D);
    snprintf(kdq, sizeof kdq, "attn_bwd_dq_d%d", D);
    size_t n = (size_t)H * S * D, nr = (size_t)H * S;
    uint64_t seed = 0x243f6a8885a308d3ull ^ (uint64_t)(S * 1000 + D * 10 + causal);
    uint16_t *q = malloc(n * 2), *k = malloc(n * 2), *v = malloc(n * 2), *go = malloc(n * 2);
    wl_fill(WL_BF16, q, n, &seed, 1);
    wl_fill(WL_BF16, k, n, &seed, 1);
    wl_fill(WL_BF16, v, n, &seed, 1);
    wl_fill(WL_BF16, go, n, &seed, 1);
    double *o = malloc(n * 8), *omag = malloc(n * 8), *lse = malloc(nr * 8);
    wl_attn_fwd_ref(q, k, v, H, S, D, 1 / sqrt(D), causal, o, lse, omag);

    float scale = (float)(1 / sqrt(D));
    uint64_t dq_ = upload(q, n * 2), dk_ = upload(k, n * 2), dv_ = upload(v, n * 2);
    uint64_t dgo = upload(go, n * 2), dO = upload(NULL, n * 4), dL = upload(NULL, nr * 4);
    uint32_t gx = (uint32_t)(S + 63) / 64;

    /* forward */
    const void *pf[] = {&dq_, &dk_, &dv_, &dO, &dL, &S, &scale, &causal};
    if (launch(kfwd, gx, (uint32_t)H, pf, 8, what) == 0) {
        float *got = download(dO, n), *gl = download(dL, nr);
        compare(what, "O", got, o, omag, n);
        size_t bad = 0;
        for (size_t i = 0; i < nr; i++)
            if (!(fabs(gl[i] - lse[i]) <= 4e-3) && bad++ < 4)
                printf("FAIL %s LSE[%zu] = %.8g, want %.8g\n", what, i, gl[i], lse[i]);
        CHECK(bad == 0, "%s: %zu LSE values wrong", what, bad);
        free(got);
        free(gl);
    }

    /* backward, from the reference O and LSE rounded to f32 */
    float *of = malloc(n * 4), *lf = malloc(nr * 4);
    for (size_t i = 0; i < n; i++)
        of[i] = (float)o[i];
    for (size_t i = 0; i < nr; i++)
        lf[i] = (float)lse[i];
    gfx_memcpy_htod(dev, dO, of, n * 4);
    gfx_memcpy_htod(dev, dL, lf, nr * 4);
    double *di = malloc(nr * 8), *gq = malloc(n * 8), *gk = malloc(n * 8), *gv = malloc(n * 8);
    double *mq = malloc(n * 8), *mk = malloc(n * 8), *mv = malloc(n * 8), *mdi = malloc(nr * 8);
    wl_attn_bwd_ref(q, k, v, go, of, H, S, D, scale, causal, di, gq, gk, gv, mq, mk, mv);
    for (size_t i = 0; i < nr; i++) { /* Di is a plain f32 dot product of length D */
        double s = 0;
        for (int d = 0; d < D; d++)
            s += fabs(wl_get(WL_BF16, go, i * D + d, 1) * of[i * D + d]);
        mdi[i] = s * D * ldexp(1, -24) * 128; /* compare() divides by 128 */
    }
    uint64_t dDi = upload(NULL, nr * 4), dgq = upload(NULL, n * 4), dgk = upload(NULL, n * 4),
             dgv = upload(NULL, n * 4);
    int hd = D;
    const void *pp[] = {&dgo, &dO, &dDi, &S, &hd};
    const void *pkv[] = {&dq_, &dk_, &dv_, &dgo, &dL, &dDi, &dgk, &dgv, &S, &scale, &causal};
    const void *pq[] = {&dq_, &dk_, &dv_, &dgo, &dL, &dDi, &dgq, &S, &scale, &causal};
    if (launch("attn_bwd_pre", (uint32_t)(S + 255) / 256, (uint32_t)H, pp, 5, what) == 0 &&
        launch(kdkdv, gx, (uint32_t)H, pkv, 11, what) == 0 &&
        launch(kdq, gx, (uint32_t)H, pq, 10, what) == 0) {
        float *g;
        compare(what, "Di", g = download(dDi, nr), di, mdi, nr);
        free(g);
        compare(what, "dQ", g = download(dgq, n), gq, mq, n);
        free(g);
        compare(what, "dK", g = download(dgk, n), gk, mk, n);
        free(g);
        compare(what, "dV", g = download(dgv, n), gv, mv, n);
        free(g);
    }
    uint64_t bufs[] = {dq_, dk_, dv_, dgo, dO, dL, dDi, dgq, dgk, dgv};
    for (size_t i = 0; i < sizeof bufs / sizeof bufs[0]; i++)
        gfx_buffer_free(dev, bufs[i]);
    void *mem[] = {q, k, v, go, o, omag, lse, of, lf, di, gq, gk, gv, mq, mk, mv, mdi};
    for (size_t i = 0; i < sizeof mem / sizeof mem[0]; i++)
        free(mem[i]);
}

int main(void) {
    const char *arches[] = {"gfx950", "gfx942"};
    for (int a = 0; a < 2; a++) {
        gfx_arch arch;
        arch_name = arches[a];
        gfx_arch_from_name(arch_name, &arch);
        mod = wl_load("attention", arch_name, "-O3");
        if (gfx_device_create(arch, 2, &dev) != GFX_OK) {
            printf("FAIL cannot create a %s device\n", arch_name);
            return 1;
        }
        for (int causal = 0; causal < 2; causal++)
            for (int D = 64; D <= 128; D *= 2) {
                run(2, 256, D, causal);
                if (a == 0) /* the ragged length on one target is enough */
                    run(1, 200, D, causal);
            }
        gfx_device_free(dev);
        gfx_module_free(mod);
    }
    return check_summary("test_attention");
}
