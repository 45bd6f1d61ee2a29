/* mfma_ref.h - an independent reference model of the matrix instructions, for
 * tests/exec/test_mfma.c.
 *
 * Written from the layout tables of the CDNA3/CDNA4 ISA manuals (and AMD's matrix instruction
 * calculator, which prints the same tables) as plain loops, element by element: for every output
 * D[i][j] of block b, walk k and look each A[i][k] / B[k][j] up where the manual says it lives.
 * The emulator (src/exec/mfma.c) goes the other way (register -> matrix, blocked loops); the
 * two must agree bit for bit.
 *
 * The snapshot `r` gives the registers before the instruction: r->A[reg][lane] etc. are the
 * register tuples of the operands (already resolved from VGPR/AGPR/constant by the caller). */
#ifndef GFXEMU_MFMA_REF_H
#define GFXEMU_MFMA_REF_H

#include "common/bits.h"
#include "exec/fpfmt.h"

#include <float.h>
#include <math.h>
#include <stdint.h>
#include <string.h>

enum { RT_F32, RT_XF32, RT_F16, RT_BF16, RT_I8, RT_F64, RT_FP8, RT_BF8, RT_F8F6F4 };
enum { RK_DENSE, RK_SPARSE, RK_F8F6F4 };

typedef struct ref_op {
    const char *name;
    int archs; /* bit 0 gfx942, bit 1 gfx950, bit 2 gfx90a */
    int m, n, k, nb;
    int ta, tb, kind;
} ref_op;

typedef struct ref_regs {
    uint32_t A[8][64], B[8][64], C[32][64]; /* C: for SMFMAC the old destination */
    uint32_t idx[64];                       /* SMFMAC index register */
    uint32_t sa[64], sb[64];                /* scale registers */
} ref_regs;

typedef struct ref_mods {
    int cbsz, abid, blgp, neg; /* neg: f64 negate bits (A, B, C) */
    int gfx942;                /* fp8/bf8 are the FNUZ formats */
    int sel_a, sel_b;          /* scaled: byte of the scale register */
    int scaled;
    int ftz;  /* MODE: flush f32 input denormals of A and B (V_MFMA_F32_*_F32, xf32) */
    int ovfl; /* MODE.FP16_OVFL: f32 overflow -> +-max, i32 saturates */
} ref_mods;

static float ref_f32(uint32_t u) { return from_bits32(u); }
static uint32_t ref_u32(float f) { return bits32(f); }

/* Element width of a type (f8f6f4: from the format code). */
static int ref_bits(int t, int fmt) {
    static const int w[] = {32, 32, 16, 16, 8, 64, 8, 8};
    if (t == RT_F8F6F4)
        return fmt <= 1 ? 8 : fmt <= 3 ? 6 : 4;
    return w[t];
}

/* Bits of element e (width w) of lane l in a register tuple. */
static uint64_t ref_elem(const uint32_t (*R)[64], int l, int e, int w) {
    uint64_t v = 0;
    for (int b = 0; b < w; b++) {
        int bit = e * w + b;
        v |= (uint64_t)((R[bit / 32][l] >> (bit % 32)) & 1) << b;
    }
    return v;
}

/* IEEE half -> float by the definition (no tricks): (-1)^s * 2^(e-15) * 1.m, or denormal. */
static float ref_half(uint32_t h) {
    int s = h >> 15 & 1, e = h >> 10 & 31, m = h & 1023;
    float v;
    if (e == 31)
        v = m ? NAN : INFINITY;
    else if (e == 0)
        v = ldexpf((float)m, -24);
    else
        v = ldexpf((float)(m + 1024), e - 25);
    return s ? -v : v;
}

/* xf32 as the emulator documents it: f32 with the mantissa rounded (to nearest even) to 10 bits. */
static float ref_xf32(uint32_t u) {
    float f = ref_f32(u);
    if (isnan(f) || isinf(f) || f == 0)
        return f;
    int e;
    frexpf(f, &e);
    int sh = e - 11; /* keep 11 significant bits */
    if (e - 1 < -126)
        sh = -126 - 10; /* denormal range: the lsb of a 10-bit f32 denormal mantissa step */
    float r = ldexpf(nearbyintf(ldexpf(f, -sh)), sh);
    return r;
}

static float ref_small(uint64_t v, int t, int fmt, int gfx942) {
    switch (t) {
    case RT_F32: return ref_f32((uint32_t)v);
    case RT_XF32: return ref_xf32((uint32_t)v);
    case RT_F16: return ref_half((uint32_t)v);
    case RT_BF16: return ref_f32((uint32_t)v << 16);
    case RT_FP8: return fpf_decode((unsigned)v, gfx942 ? FPF_FP8_FNUZ : FPF_FP8_OCP);
    case RT_BF8: return fpf_decode((unsigned)v, gfx942 ? FPF_BF8_FNUZ : FPF_BF8_OCP);
    default: {
        static const fpf_format *const f[5] = {FPF_FP8_OCP, FPF_BF8_OCP, FPF_FP6, FPF_BF6, FPF_FP4};
        return fpf_decode((unsigned)v, f[fmt]);
    }
    }
}

/* A dense A/B input of the non-f8f6f4 ops: f32/xf32 denormals are first flushed to a zero of
 * their sign when MODE says so (CDNA4 ISA 7.4: V_MFMA_F32_*_F32 honor MODE's denormal flags
 * for A and B), then xf32 is reduced. */
static float ref_in(uint64_t bits, int t, const ref_mods *md) {
    if (t == RT_F32 || t == RT_XF32) {
        float v = ref_f32((uint32_t)bits);
        if (md->ftz && fpclassify(v) == FP_SUBNORMAL)
            v = copysignf(0.0f, v);
        return t == RT_XF32 ? ref_xf32(ref_u32(v)) : v;
    }
    return ref_small(bits, t, 0, md->gfx942);
}

/* BLGP: which lane's B data lane l multiplies with (manual's BLGP table). */
static int ref_blgp(int blgp, int l) {
    switch (blgp) {
    case 0: return l;
    case 1: return l < 32 ? l : l - 32; /* broadcast lanes 0-31 */
    case 2: return l < 32 ? l + 32 : l; /* broadcast lanes 32-63 */
    case 3: return (l + 16) % 64;       /* rotate down 16 */
    case 4: return l % 16;              /* broadcast lanes 0-15 */
    case 5: return 16 + l % 16;         /* broadcast lanes 16-31 */
    case 6: return 32 + l % 16;         /* broadcast lanes 32-47 */
    default: return 48 + l % 16;        /* broadcast lanes 48-63 */
    }
}

/* f8f6f4 (CDNA4 ISA, "Dense Matrix Layouts: 8-bit and Smaller"): the lane and element holding
 * row (column) r, k of A (B), MN = M (N).  FP6/BF6/FP4 (fmt 2-4): 32 consecutive k per lane,
 * k/32 selects the lane group.  FP8/BF8 (fmt 0-1): registers 0-3 hold the first run of
 * 16*(64/MN) k, 16 per lane group, registers 4-7 the second run. */
static void ref_f8f6f4_loc(int fmt, int MN, int r, int k, int *lane, int *e) {
    int span = 16 * (64 / MN); /* k covered by one run across all lane groups */
    if (fmt >= 2) {
        *lane = r + MN * (k / 32);
        *e = k % 32;
    } else {
        *lane = r + MN * ((k % span) / 16);
        *e = 16 * (k / span) + k % 16;
    }
}

/* Where C/D[i][j] of block b lives (the manual's output tables, one case per shape). */
static void ref_cd_loc(const ref_op *op, int b, int i, int j, int *reg, int *lane) {
    if (op->ta == RT_F64) { /* register pairs: *reg is the pair index */
        if (op->m == 16) {
            *reg = i / 4;
            *lane = 16 * (i % 4) + j;
        } else { /* 4x4x4 4 blocks */
            *reg = 0;
            *lane = 16 * i + 4 * b + j;
        }
        return;
    }
    if (op->m == 4) {
        *reg = i;
        *lane = 4 * b + j;
    } else if (op->m == 16) {
        *reg = 4 * b + i % 4;
        *lane = 16 * (i / 4) + j;
    } else {
        *reg = 16 * b + 4 * (i / 8) + i % 4;
        *lane = 32 * ((i / 4) % 2) + j;
    }
}

/* Run the reference: out receives the destination tuple (as many registers as C). */
static void ref_run(const ref_op *op, const ref_regs *r, const ref_mods *md, uint32_t (*out)[64]) {
    int M = op->m, N = op->n, K = op->k, NB = op->nb;
    int fa = op->kind == RK_F8F6F4 ? md->cbsz : 0, fb = op->kind == RK_F8F6F4 ? md->blgp : 0;
    int wa = ref_bits(op->ta, fa), wb = ref_bits(op->tb, fb);
    int E = K * M * NB / 64; /* A/B elements per lane (dense count) */
    int use_blgp = op->kind == RK_DENSE && op->ta != RT_F64;
    int bcast = op->kind == RK_DENSE && op->ta != RT_F64 && NB > 1;
    for (int b = 0; b < NB; b++) {
        int ab = bcast ? ((b >> md->cbsz) << md->cbsz) + md->abid : b;
        ab %= NB;
        for (int i = 0; i < M; i++)
            for (int j = 0; j < N; j++) {
                int reg, lane;
                ref_cd_loc(op, b, i, j, &reg, &lane);
                if (op->ta == RT_F64) {
                    uint64_t cb = r->C[2 * reg][lane] | (uint64_t)r->C[2 * reg + 1][lane] << 32;
                    double acc;
                    memcpy(&acc, &cb, 8);
                    if (md->neg & 4)
                        acc = -acc;
                    for (int k = 0; k < K; k++) {
                        int la = i + M * b + M * NB * k, lb = j + N * b + N * NB * k;
                        uint64_t ua = r->A[0][la] | (uint64_t)r->A[1][la] << 32;
                        uint64_t ub = r->B[0][lb] | (uint64_t)r->B[1][lb] << 32;
                        double a, bb;
                        memcpy(&a, &ua, 8);
                        memcpy(&bb, &ub, 8);
                        if (md->neg & 1)
                            a = -a;
                        if (md->neg & 2)
                            bb = -bb;
                        acc = fma(a, bb, acc);
                    }
                    uint64_t u;
                    memcpy(&u, &acc, 8);
                    if (isnan(acc)) /* every NaN result is the default NaN (docs/mfma.md) */
                        u = 0xfff8000000000000ull;
                    out[2 * reg][lane] = (uint32_t)u;
                    out[2 * reg + 1][lane] = (uint32_t)(u >> 32);
                    continue;
                }
                if (op->ta == RT_I8) { /* exact sum, then wrapped or (FP16_OVFL) saturated */
                    int64_t acc = (int32_t)r->C[reg][lane];
                    if (op->kind == RK_SPARSE) {
                        int S = E / 2, nsets = 32 / (2 * S);
                        int sel = md->cbsz == 0 ? md->abid % nsets : 0;
                        for (int g = 0; g < K / E; g++) {
                            int la = i + M * g, lb = j + N * g;
                            for (int s = 0; s < S; s++) {
                                int pos = (r->idx[la] >> (2 * S * sel + 2 * s)) & 3;
                                int k = g * E + 4 * (s / 2) + pos;
                                int8_t a = (int8_t)ref_elem(r->A, la, s, 8);
                                int8_t bb = (int8_t)ref_elem(r->B, lb, k % E, 8);
                                acc += a * bb;
                            }
                        }
                    } else {
                        for (int k = 0; k < K; k++) {
                            int la = i + M * ab + M * NB * (k / E);
                            int lb = ref_blgp(md->blgp, j + N * b + N * NB * (k / E));
                            int8_t a = (int8_t)ref_elem(r->A, la, k % E, 8);
                            int8_t bb = (int8_t)ref_elem(r->B, lb, k % E, 8);
                            acc += (int32_t)a * bb;
                        }
                    }
                    if (md->ovfl)
                        acc = acc > INT32_MAX ? INT32_MAX : acc < INT32_MIN ? INT32_MIN : acc;
                    out[reg][lane] = (uint32_t)acc;
                    continue;
                }
                float acc = ref_f32(r->C[reg][lane]);
                if (op->kind == RK_SPARSE) {
                    int S = E / 2, nsets = 32 / (2 * S);
                    int sel = md->cbsz == 0 ? md->abid % nsets : 0;
                    for (int g = 0; g < K / E; g++) {
                        int la = i + M * g, lb = j + N * g;
                        for (int s = 0; s < S; s++) {
                            int pos = (r->idx[la] >> (2 * S * sel + 2 * s)) & 3;
                            int k = g * E + 4 * (s / 2) + pos;
                            float a = ref_small(ref_elem(r->A, la, s, wa), op->ta, fa, md->gfx942);
                            float bb =
                                ref_small(ref_elem(r->B, lb, k % E, wb), op->tb, fb, md->gfx942);
                            acc = fmaf(a, bb, acc);
                        }
                    }
                } else if (op->kind == RK_F8F6F4) {
                    for (int k = 0; k < K; k++) {
                        int la, ea, lb, eb;
                        ref_f8f6f4_loc(fa, M, i, k, &la, &ea);
                        ref_f8f6f4_loc(fb, N, j, k, &lb, &eb);
                        float a = ref_small(ref_elem(r->A, la, ea, wa), op->ta, fa, 0);
                        float bb = ref_small(ref_elem(r->B, lb, eb, wb), op->tb, fb, 0);
                        if (md->scaled) { /* E8M0 scale of row i / column j, K block k/32 */
                            a *= fpf_decode((r->sa[i + M * (k / 32)] >> (8 * md->sel_a)) & 0xff,
                                            FPF_E8M0);
                            bb *= fpf_decode((r->sb[j + N * (k / 32)] >> (8 * md->sel_b)) & 0xff,
                                             FPF_E8M0);
                        }
                        acc = fmaf(a, bb, acc);
                    }
                } else {
                    for (int k = 0; k < K; k++) {
                        int la = i + M * ab + M * NB * (k / E);
                        int lb0 = j + N * b + N * NB * (k / E);
                        int lb = use_blgp ? ref_blgp(md->blgp, lb0) : lb0;
                        float a = ref_in(ref_elem(r->A, la, k % E, wa), op->ta, md);
                        float bb = ref_in(ref_elem(r->B, lb, k % E, wb), op->tb, md);
                        acc = fmaf(a, bb, acc);
                    }
                }
                if (md->ovfl && isinf(acc))
                    acc = copysignf(FLT_MAX, acc);
                out[reg][lane] = isnan(acc) ? 0xffc00000u : ref_u32(acc);
            }
    }
}

#endif
