/* workloads.c - see workloads.h. */
#include "common/workloads.h"

#include "common/rng.h"
#include "common/util.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

size_t wl_size(wl_type t) { return t == WL_FP8 ? 1 : 2; }

static double f16_value(uint16_t h) {
    int e = (h >> 10) & 31, m = h & 1023;
    double v = e == 0 ? ldexp(m, -24) : e == 31 ? (m ? NAN : INFINITY) : ldexp(1024 + m, e - 25);
    return h & 0x8000 ? -v : v;
}

static double bf16_value(uint16_t b) {
    uint32_t u = (uint32_t)b << 16;
    float f;
    memcpy(&f, &u, 4);
    return f;
}

/* E4M3: 1 sign, 4 exponent, 3 mantissa bits.  OCP: bias 7, S.1111.111 is NaN, no infinities.
 * FNUZ (gfx942): bias 8, 0x80 is the only NaN, no negative zero. */
static double fp8_value(uint8_t b, int ocp) {
    int e = (b >> 3) & 15, m = b & 7, bias = ocp ? 7 : 8;
    if (ocp ? (b & 0x7f) == 0x7f : b == 0x80)
        return NAN;
    double v = e == 0 ? ldexp(m, 1 - bias - 3) : ldexp(8 + m, e - bias - 3);
    return b & 0x80 ? -v : v;
}

double wl_get(wl_type t, const void *p, size_t i, int gfx950) {
    switch (t) {
    case WL_BF16: return bf16_value(((const uint16_t *)p)[i]);
    case WL_F16: return f16_value(((const uint16_t *)p)[i]);
    default: return fp8_value(((const uint8_t *)p)[i], gfx950);
    }
}

static uint32_t next(uint64_t *s) { return (uint32_t)(xorshift64(s) >> 16); }

uint16_t wl_bf16(float f) {
    uint32_t u;
    memcpy(&u, &f, 4);
    u += 0x7fff + ((u >> 16) & 1);
    return (uint16_t)(u >> 16);
}

void wl_fill(wl_type t, void *p, size_t n, uint64_t *seed, int gfx950) {
    for (size_t i = 0; i < n; i++) {
        uint32_t r = next(seed);
        if (r % 16 == 0) { /* some exact zeros */
            memset((char *)p + i * wl_size(t), 0, wl_size(t));
            continue;
        }
        /* sign, exponent in [-6, 1], random mantissa */
        int sign = r & 1, e = (int)((r >> 1) % 8) - 6;
        double mant = 1.0 + (double)((r >> 4) & 0xffff) / 65536.0;
        double v = ldexp(sign ? -mant : mant, e);
        if (t == WL_BF16) {
            ((uint16_t *)p)[i] = wl_bf16((float)v);
        } else if (t == WL_F16) {
            /* f16 with 10 mantissa bits: round the mantissa down to them */
            int m = (int)((mant - 1.0) * 1024);
            ((uint16_t *)p)[i] = (uint16_t)((sign << 15) | (e + 15) << 10 | m);
        } else {
            int bias = gfx950 ? 7 : 8, m = (int)((mant - 1.0) * 8);
            ((uint8_t *)p)[i] = (uint8_t)((sign << 7) | (e + bias) << 3 | m);
        }
    }
}

gfx_module *wl_load(const char *stem, const char *arch, const char *opt) {
    const char *build = test_build_dir();
    char co[512], err[256] = "";
    snprintf(co, sizeof co, "%s/workloads/%s-%s%s.co", build, stem, arch, opt);
    char args[256];
    snprintf(args, sizeof args,
             "-x cl -cl-std=CL2.0 -target amdgcn-amd-amdhsa -mcpu=%s -nogpulib %s -Wno-everything "
             "tests/workloads/%s.cl",
             arch, opt, stem);
    test_kbuild("co", co, args); /* built again only when out of date */
    gfx_module *m;
    if (gfx_module_load_file(co, &m, err, sizeof err) != GFX_OK) {
        printf("FAIL %s: %s\n", co, err);
        exit(1);
    }
    return m;
}

void wl_gemm_ref(wl_type t, const void *A, const void *B, int transb, int M, int N, int K,
                 int gfx950, double *C, double *mag) {
    double *a = malloc(sizeof(double) * (size_t)M * K), *b = malloc(sizeof(double) * (size_t)K * N);
    for (size_t i = 0; i < (size_t)M * K; i++)
        a[i] = wl_get(t, A, i, gfx950);
    for (int k = 0; k < K; k++) /* b[k*N + n] whatever the layout */
        for (int n = 0; n < N; n++)
            b[(size_t)k * N + n] =
                wl_get(t, B, transb ? (size_t)n * K + k : (size_t)k * N + n, gfx950);
    for (int m = 0; m < M; m++)
        for (int n = 0; n < N; n++) {
            double s = 0, g = 0;
            for (int k = 0; k < K; k++) {
                double p = a[(size_t)m * K + k] * b[(size_t)k * N + n];
                s += p;
                g += fabs(p);
            }
            C[(size_t)m * N + n] = s;
            mag[(size_t)m * N + n] = g;
        }
    free(a);
    free(b);
}

size_t wl_gemm_compare(const float *got, const double *want, const double *mag, int M, int N, int K,
                       const char *what) {
    size_t bad = 0;
    for (size_t i = 0; i < (size_t)M * N; i++) {
        double tol = (K + 2) * ldexp(mag[i], -24) + ldexp(1, -100);
        if (!(fabs(got[i] - want[i]) <= tol) && bad++ < 5)
            printf("FAIL %s: C[%zu][%zu] = %.9g, want %.9g (tolerance %.3g)\n", what, i / (size_t)N,
                   i % (size_t)N, got[i], want[i], tol);
    }
    return bad;
}

/* Softmax probabilities of the scores of one query (row q of head h): p[k], and the log2 of
 * the denominator.  Masked keys get 0. */
static double attn_probs(const double *q, const double *kmat, int S, int D, double scale,
                         int causal, int qi, double *p) {
    double mx = -INFINITY;
    for (int k = 0; k < S; k++) {
        if (causal && k > qi) {
            p[k] = -INFINITY;
            continue;
        }
        double s = 0;
        for (int d = 0; d < D; d++)
            s += q[d] * kmat[(size_t)k * D + d];
        p[k] = s * scale;
        mx = fmax(mx, p[k]);
    }
    double l = 0;
    for (int k = 0; k < S; k++) {
        p[k] = exp(p[k] - mx);
        l += p[k];
    }
    for (int k = 0; k < S; k++)
        p[k] /= l;
    return (mx + log(l)) / log(2.0);
}

static double *bf16_matrix(const uint16_t *x, size_t n) {
    double *m = malloc(n * sizeof *m);
    for (size_t i = 0; i < n; i++)
        m[i] = bf16_value(x[i]);
    return m;
}

void wl_attn_fwd_ref(const uint16_t *Q, const uint16_t *K, const uint16_t *V, int H, int S, int D,
                     double scale, int causal, double *O, double *lse2, double *omag) {
    size_t n = (size_t)H * S * D;
    double *q = bf16_matrix(Q, n), *k = bf16_matrix(K, n), *v = bf16_matrix(V, n);
    double *p = malloc(sizeof(double) * S);
    for (int h = 0; h < H; h++) {
        size_t hb = (size_t)h * S * D;
        for (int i = 0; i < S; i++) {
            lse2[(size_t)h * S + i] =
                attn_probs(q + hb + (size_t)i * D, k + hb, S, D, scale, causal, i, p);
            for (int d = 0; d < D; d++) {
                double s = 0, g = 0;
                for (int j = 0; j < S; j++) {
                    s += p[j] * v[hb + (size_t)j * D + d];
                    g += p[j] * fabs(v[hb + (size_t)j * D + d]);
                }
                O[hb + (size_t)i * D + d] = s;
                omag[hb + (size_t)i * D + d] = g;
            }
        }
    }
    free(q);
    free(k);
    free(v);
    free(p);
}

void wl_attn_bwd_ref(const uint16_t *Q, const uint16_t *K, const uint16_t *V, const uint16_t *dO,
                     const float *O, int H, int S, int D, double scale, int causal, double *di,
                     double *dQ, double *dK, double *dV, double *dqmag, double *dkmag,
                     double *dvmag) {
    size_t n = (size_t)H * S * D;
    double *q = bf16_matrix(Q, n), *k = bf16_matrix(K, n), *v = bf16_matrix(V, n);
    double *go = bf16_matrix(dO, n);
    double *p = malloc(sizeof(double) * S * S), *ds = malloc(sizeof(double) * S * S);
    double *dsmag = malloc(sizeof(double) * S * S);
    memset(dQ, 0, n * sizeof *dQ);
    memset(dK, 0, n * sizeof *dK);
    memset(dV, 0, n * sizeof *dV);
    memset(dqmag, 0, n * sizeof *dqmag);
    memset(dkmag, 0, n * sizeof *dkmag);
    memset(dvmag, 0, n * sizeof *dvmag);
    for (int h = 0; h < H; h++) {
        size_t hb = (size_t)h * S * D;
        for (int i = 0; i < S; i++) {
            attn_probs(q + hb + (size_t)i * D, k + hb, S, D, scale, causal, i, p + (size_t)i * S);
            double s = 0;
            for (int d = 0; d < D; d++)
                s += go[hb + (size_t)i * D + d] * O[hb + (size_t)i * D + d];
            di[(size_t)h * S + i] = s;
        }
        for (int i = 0; i < S; i++)
            for (int j = 0; j < S; j++) {
                double dp = 0, dpm = 0;
                for (int d = 0; d < D; d++) {
                    dp += go[hb + (size_t)i * D + d] * v[hb + (size_t)j * D + d];
                    dpm += fabs(go[hb + (size_t)i * D + d] * v[hb + (size_t)j * D + d]);
                }
                double pij = p[(size_t)i * S + j];
                ds[(size_t)i * S + j] = pij * (dp - di[(size_t)h * S + i]);
                dsmag[(size_t)i * S + j] = pij * (dpm + fabs(di[(size_t)h * S + i]));
            }
        for (int i = 0; i < S; i++)
            for (int j = 0; j < S; j++) {
                double pij = p[(size_t)i * S + j], dsij = ds[(size_t)i * S + j];
                double dsm = dsmag[(size_t)i * S + j];
                for (int d = 0; d < D; d++) {
                    size_t qi = hb + (size_t)i * D + d, kj = hb + (size_t)j * D + d;
                    dV[kj] += pij * go[qi];
                    dvmag[kj] += pij * fabs(go[qi]);
                    dQ[qi] += scale * dsij * k[kj];
                    dqmag[qi] += scale * dsm * fabs(k[kj]);
                    dK[kj] += scale * dsij * q[qi];
                    dkmag[kj] += scale * dsm * fabs(q[qi]);
                }
            }
    }
    free(q);
    free(k);
    free(v);
    free(go);
    free(p);
    free(ds);
    free(dsmag);
}
