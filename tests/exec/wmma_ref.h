/* wmma_ref.h - an independent reference model of the RDNA WMMA instructions, for
 * tests/exec/test_wmma.c.
 *
 * Written from the register -> matrix tables of the RDNA3 and RDNA4 ISA manuals (the matrix
 * instruction calculator prints the same: "A i: lane % 16, A k: ...", per register, lane and
 * bit field): the matrices are rebuilt from a register snapshot slot by slot, multiplied in
 * double, and D is written back slot by slot.  The emulator (src/exec/wmma.c) goes the other
 * way (matrix element -> register); the two must agree bit for bit on exactly representable
 * inputs. */
#ifndef GFXEMU_WMMA_REF_H
#define GFXEMU_WMMA_REF_H

#include "exec/fpfmt.h"

#include <math.h>
#include <stdint.h>
#include <string.h>

enum { WR_F16, WR_BF16, WR_I8, WR_I4, WR_FP8, WR_BF8 };
enum { WR_OF32, WR_OF16, WR_OBF16, WR_OI32 };

typedef struct wref_op {
    const char *name;
    int g12only;
    int ta, tb, to, k;
} wref_op;

static const wref_op wref_ops[] = {
    {"v_wmma_f32_16x16x16_f16", 0, WR_F16, WR_F16, WR_OF32, 16},
    {"v_wmma_f32_16x16x16_bf16", 0, WR_BF16, WR_BF16, WR_OF32, 16},
    {"v_wmma_f16_16x16x16_f16", 0, WR_F16, WR_F16, WR_OF16, 16},
    {"v_wmma_bf16_16x16x16_bf16", 0, WR_BF16, WR_BF16, WR_OBF16, 16},
    {"v_wmma_i32_16x16x16_iu8", 0, WR_I8, WR_I8, WR_OI32, 16},
    {"v_wmma_i32_16x16x16_iu4", 0, WR_I4, WR_I4, WR_OI32, 16},
    {"v_wmma_i32_16x16x32_iu4", 1, WR_I4, WR_I4, WR_OI32, 32},
    {"v_wmma_f32_16x16x16_fp8_fp8", 1, WR_FP8, WR_FP8, WR_OF32, 16},
    {"v_wmma_f32_16x16x16_fp8_bf8", 1, WR_FP8, WR_BF8, WR_OF32, 16},
    {"v_wmma_f32_16x16x16_bf8_fp8", 1, WR_BF8, WR_FP8, WR_OF32, 16},
    {"v_wmma_f32_16x16x16_bf8_bf8", 1, WR_BF8, WR_BF8, WR_OF32, 16},
};

static inline int wref_bits(int t) { return t == WR_F16 || t == WR_BF16 ? 16 : t == WR_I4 ? 4 : 8; }
static inline int wref_out16(int to) { return to == WR_OF16 || to == WR_OBF16; }

/* Register counts of A/B and C/D for a target and wave size. */
static inline int wref_ab_regs(const wref_op *op, int g12, int w64, int t) {
    int n = op->k * wref_bits(t) / 32; /* gfx11: every lane holds a whole row/column */
    if (g12) {
        n /= 2; /* gfx12 wave32: two lane halves share the K elements */
        if (w64 && n >= 2)
            n /= 2; /* gfx12 wave64: lanes 32-63 hold the second half of the registers */
        if (n < 1)
            n = 1;
    }
    return n;
}
static inline int wref_cd_regs(const wref_op *op, int g12, int w64) {
    int n = w64 ? 4 : 8;
    return g12 && wref_out16(op->to) ? n / 2 : n;
}

/* Slot (register r, lane l, element s of the register) of an A (or B) operand -> (row or
 * column, k); -1 when the slot holds nothing (gfx12 wave64 iu4 16x16x16: lanes 32-63). */
static inline int wref_ab_slot(const wref_op *op, int g12, int w64, int t, int r, int l, int s,
                               int *rc, int *k) {
    int w = wref_bits(t), per = 32 / w;
    if (!g12) { /* RDNA3: "A i: lane % 16; A k: per * register + field" */
        *rc = l % 16;
        *k = per * r + s;
        return 0;
    }
    int r32 = op->k / 2 * w / 32; /* wave32 registers */
    if (w64) {
        if (r32 < 2 && l >= 32)
            return -1;
        if (r32 >= 2) {
            r += r32 / 2 * (l / 32);
            l %= 32;
        }
    }
    int e = per * r + s, h = l / 16;
    *rc = l % 16;
    /* RDNA4: 16-bit types interleave runs of K/4 k between the lane halves (four for the
     * 16x16x16 WMMA, "B k: 8 * floor(lane / 16) + 16 * floor(GPR / 4) + 2 * (GPR % 4) + bits / 16"
     * for the K=32 SWMMAC); 8- and 4-bit types give each half a contiguous K/2 */
    int run = op->k / 4;
    *k = w == 16 ? 2 * run * (e / run) + run * h + e % run : op->k / 2 * h + e;
    return 0;
}

/* Slot (register r, lane l, half) of C/D -> (i, j); half is ignored for 32-bit types and is the
 * gfx11 OPSEL[2] half for its 16-bit types. */
static inline void wref_cd_slot(const wref_op *op, int g12, int w64, int r, int l, int half, int *i,
                                int *j) {
    *j = l % 16;
    if (!g12) { /* RDNA3: "C or D i: 2 * register + lane / 16" (wave64: 4 * register) */
        *i = (w64 ? 4 : 2) * r + l / 16;
        return;
    }
    int n32 = wref_out16(op->to) ? 8 : 8; /* elements per lane in wave32 */
    int e = wref_out16(op->to) ? 2 * r + half : r;
    if (w64) {
        e += n32 / 2 * (l / 32);
        l %= 32;
    }
    *i = e + 8 * (l / 16);
}

static inline double wref_val(int t, unsigned bits, int sgn) {
    switch (t) {
    case WR_F16: return fpf_decode(bits, FPF_F16);
    case WR_BF16: return fpf_decode(bits, FPF_BF16);
    case WR_FP8: return fpf_decode(bits, FPF_FP8_OCP);
    case WR_BF8: return fpf_decode(bits, FPF_BF8_OCP);
    case WR_I8: return sgn ? (double)(int8_t)bits : (double)bits;
    default: return sgn && (bits & 8) ? (double)bits - 16 : (double)bits;
    }
}

typedef struct wref_mods {
    int neg_lo, neg_hi, opsel, clamp; /* as in the instruction */
} wref_mods;

/* A float result in D's type: a NaN is the default NaN of that type (docs/mfma.md: as an
 * MFMA's), f32 0xffc00000, f16 0xfe00, bf16 0xffc0. */
static inline uint32_t wref_fbits(const wref_op *op, double acc) {
    if (wref_out16(op->to))
        return isnan(acc) ? (op->to == WR_OF16 ? 0xfe00u : 0xffc0u)
                          : fpf_encode((float)acc, op->to == WR_OF16 ? FPF_F16 : FPF_BF16, 0);
    float f = (float)acc;
    uint32_t bits;
    memcpy(&bits, &f, 4);
    return isnan(acc) ? 0xffc00000u : bits;
}

/* D registers from the snapshot: a[r][l], b[r][l], c[r][l]; d gets the result (d[r][l] must
 * hold the old destination, for the gfx11 16-bit half that is kept). */
static inline void wref_run(const wref_op *op, int g12, int w64, const wref_mods *m,
                            const uint32_t (*a)[64], const uint32_t (*b)[64],
                            const uint32_t (*c)[64], uint32_t (*d)[64]) {
    double A[16][32], B[32][16], C[16][16];
    int lanes = w64 ? 64 : 32;
    for (int src = 0; src < 2; src++) {
        int t = src ? op->tb : op->ta, w = wref_bits(t), n = wref_ab_regs(op, g12, w64, t);
        const uint32_t (*R)[64] = src ? b : a;
        int ints = t == WR_I8 || t == WR_I4;
        for (int r = 0; r < n; r++)
            for (int l = 0; l < lanes; l++)
                for (int s = 0; s < 32 / w; s++) {
                    int rc, k;
                    if (wref_ab_slot(op, g12, w64, t, r, l, s, &rc, &k) < 0)
                        continue;
                    if (!g12 && l >= 16) /* gfx11 copies: the test fills them equal */
                        continue;
                    unsigned bits = (R[r][l] >> (w * s)) & ((1u << w) - 1);
                    double v = wref_val(t, bits, ints && ((m->neg_lo >> src) & 1));
                    if (!ints && ((w * s < 16 ? m->neg_lo : m->neg_hi) >> src) & 1)
                        v = -v;
                    if (src)
                        B[k][rc] = v;
                    else
                        A[rc][k] = v;
                }
    }
    int nc = wref_cd_regs(op, g12, w64), out16 = wref_out16(op->to);
    for (int r = 0; r < nc; r++)
        for (int l = 0; l < lanes; l++)
            for (int h = 0; h < (g12 && out16 ? 2 : 1); h++) {
                int i, j, half = g12 ? h : (m->opsel >> 2) & 1;
                wref_cd_slot(op, g12, w64, r, l, h, &i, &j);
                uint32_t raw = c[r][l];
                double v;
                if (out16) {
                    raw = (raw >> (16 * half)) & 0xffff;
                    v = fpf_decode(raw, op->to == WR_OF16 ? FPF_F16 : FPF_BF16);
                } else if (op->to == WR_OI32) {
                    v = (int32_t)raw;
                } else {
                    float f;
                    memcpy(&f, &raw, 4);
                    v = f;
                }
                if (op->to != WR_OI32) {
                    if ((m->neg_hi >> 2) & 1)
                        v = fabs(v);
                    if ((m->neg_lo >> 2) & 1)
                        v = -v;
                }
                C[i][j] = v;
            }
    for (int r = 0; r < nc; r++)
        for (int l = 0; l < lanes; l++)
            for (int h = 0; h < (g12 && out16 ? 2 : 1); h++) {
                int i, j, half = g12 ? h : (m->opsel >> 2) & 1;
                wref_cd_slot(op, g12, w64, r, l, h, &i, &j);
                double acc = C[i][j];
                for (int k = 0; k < op->k; k++)
                    acc += A[i][k] * B[k][j];
                uint32_t bits;
                if (op->to == WR_OI32) {
                    /* exact in 64 bits; wraps to 32, or saturates with clamp */
                    int64_t x = (int64_t)acc;
                    if (m->clamp)
                        x = x > INT32_MAX ? INT32_MAX : x < INT32_MIN ? INT32_MIN : x;
                    bits = (uint32_t)x;
                } else {
                    bits = wref_fbits(op, acc);
                }
                if (out16)
                    d[r][l] = (d[r][l] & ~(0xffffu << (16 * half))) | bits << (16 * half);
                else
                    d[r][l] = bits;
            }
}

/* ---- SWMMAC (gfx12): 4:2-sparse A ------------------------------------------------------------
 * From the calculator's register -> matrix tables: A register r, lane l, element s holds one of
 * the two stored values of the group of four k starting at k0 (the first in the low bits of the
 * group's 2w-bit field), for row l % 16; the index VGPR's 4-bit entry n (of the set index_key
 * picks) in lane l describes the group k0 of row l % 16: bits 1:0 the position of the first
 * stored value in the group, bits 3:2 that of the second.  B and C/D are laid out as for the
 * dense ops with K = 32 or 64 (wref_ab_slot, wref_cd_slot); C is the destination itself. */
static const wref_op wref_sp_ops[] = {
    {"v_swmmac_f32_16x16x32_f16", 1, WR_F16, WR_F16, WR_OF32, 32},
    {"v_swmmac_f32_16x16x32_bf16", 1, WR_BF16, WR_BF16, WR_OF32, 32},
    {"v_swmmac_f16_16x16x32_f16", 1, WR_F16, WR_F16, WR_OF16, 32},
    {"v_swmmac_bf16_16x16x32_bf16", 1, WR_BF16, WR_BF16, WR_OBF16, 32},
    {"v_swmmac_i32_16x16x32_iu8", 1, WR_I8, WR_I8, WR_OI32, 32},
    {"v_swmmac_i32_16x16x32_iu4", 1, WR_I4, WR_I4, WR_OI32, 32},
    {"v_swmmac_i32_16x16x64_iu4", 1, WR_I4, WR_I4, WR_OI32, 64},
    {"v_swmmac_f32_16x16x32_fp8_fp8", 1, WR_FP8, WR_FP8, WR_OF32, 32},
    {"v_swmmac_f32_16x16x32_fp8_bf8", 1, WR_FP8, WR_BF8, WR_OF32, 32},
    {"v_swmmac_f32_16x16x32_bf8_fp8", 1, WR_BF8, WR_FP8, WR_OF32, 32},
    {"v_swmmac_f32_16x16x32_bf8_bf8", 1, WR_BF8, WR_BF8, WR_OF32, 32},
};

/* A registers in wave32 (K/2 stored values, half the lanes' worth each) and wave64 */
static inline int wref_sp_a_regs(const wref_op *op, int w64) {
    int n = op->k / 2 * wref_bits(op->ta) / 64;
    return w64 && n >= 2 ? n / 2 : n;
}
/* 4-bit index entries per lane and set */
static inline int wref_sp_groups(const wref_op *op, int w64) {
    int w = wref_bits(op->ta);
    if (w == 4)
        return w64 ? 4 : op->k / 8;
    return w64 ? 2 : 4;
}
/* A slot -> row, group start k0, which stored value; -1 when the slot holds nothing */
static inline int wref_sp_a_slot(const wref_op *op, int w64, int r, int l, int s, int *row, int *k0,
                                 int *which) {
    int w = wref_bits(op->ta), n32 = op->k / 2 * w / 64;
    if (w64) {
        if (n32 < 2 && l >= 32)
            return -1;
        if (n32 >= 2) {
            r += n32 / 2 * (l / 32);
            l %= 32;
        }
    }
    int h = l / 16;
    *row = l % 16;
    if (w == 16) { /* "A k: 16 * floor(GPR / 2) + 8 * floor(lane / 16) + 4 * (GPR % 2)" */
        *k0 = 16 * (r / 2) + 8 * h + 4 * (r % 2);
        *which = s;
    } else if (w == 8) { /* "A GPR (k/8)%2, bits 16 * ((k/4)%2), lane 16 * (k/16) + i" */
        *k0 = 16 * h + 8 * r + 4 * (s / 2);
        *which = s % 2;
    } else { /* "A GPR (k/16)%2, bits 8 * ((k/4)%4), lane 16 * (k/(K/2)) + i" */
        *k0 = op->k / 2 * h + 16 * r + 4 * (s / 2);
        *which = s % 2;
    }
    return 0;
}
/* index entry n of lane l -> row, group start k0; -1 when the lane holds no indices */
static inline int wref_sp_idx_slot(const wref_op *op, int w64, int l, int n, int *row, int *k0) {
    int w = wref_bits(op->ta);
    *row = l % 16;
    if (!w64) {
        *k0 = w == 16  ? 16 * (n / 2) + 8 * (l / 16) + 4 * (n % 2)
              : w == 8 ? 16 * (l / 16) + 4 * n
                       : op->k / 2 * (l / 16) + 4 * n;
        return 0;
    }
    if (w == 16)
        *k0 = 8 * (l / 16) + 4 * n;
    else if (w == 8)
        *k0 = 16 * ((l / 16) % 2) + 8 * (l / 32) + 4 * n;
    else if (op->k == 32) {
        if (l >= 32)
            return -1;
        *k0 = 16 * (l / 16) + 4 * n;
    } else
        *k0 = 32 * ((l / 16) % 2) + 16 * (l / 32) + 4 * n;
    return 0;
}

/* d holds C (the old destination) and gets D. */
static inline void wref_sp_run(const wref_op *op, int w64, const wref_mods *m, int index_key,
                               const uint32_t (*a)[64], const uint32_t (*b)[64],
                               const uint32_t *idx, uint32_t (*d)[64]) {
    double A[16][64], B[64][16], C[16][16];
    int pos[16][16][2]; /* [row][group][which] */
    int lanes = w64 ? 64 : 32, ng = wref_sp_groups(op, w64);
    memset(A, 0, sizeof A);
    for (int l = 0; l < lanes; l++)
        for (int n = 0; n < ng; n++) {
            int row, k0;
            if (wref_sp_idx_slot(op, w64, l, n, &row, &k0) < 0)
                continue;
            unsigned e = (idx[l] >> (4 * ng * index_key + 4 * n)) & 15;
            pos[row][k0 / 4][0] = (int)(e & 3);
            pos[row][k0 / 4][1] = (int)(e >> 2);
        }
    int wa = wref_bits(op->ta), ints = op->to == WR_OI32;
    for (int r = 0; r < wref_sp_a_regs(op, w64); r++)
        for (int l = 0; l < lanes; l++)
            for (int s = 0; s < 32 / wa; s++) {
                int row, k0, which;
                if (wref_sp_a_slot(op, w64, r, l, s, &row, &k0, &which) < 0)
                    continue;
                unsigned bits = (a[r][l] >> (wa * s)) & ((1u << wa) - 1);
                double v = wref_val(op->ta, bits, ints && (m->neg_lo & 1));
                if (!ints && ((wa * s < 16 ? m->neg_lo : m->neg_hi) & 1))
                    v = -v;
                A[row][k0 + pos[row][k0 / 4][which]] += v;
            }
    int wb = wref_bits(op->tb);
    for (int r = 0; r < wref_ab_regs(op, 1, w64, op->tb); r++)
        for (int l = 0; l < lanes; l++)
            for (int s = 0; s < 32 / wb; s++) {
                int col, k;
                if (wref_ab_slot(op, 1, w64, op->tb, r, l, s, &col, &k) < 0)
                    continue;
                unsigned bits = (b[r][l] >> (wb * s)) & ((1u << wb) - 1);
                double v = wref_val(op->tb, bits, ints && (m->neg_lo & 2));
                if (!ints && ((wb * s < 16 ? m->neg_lo : m->neg_hi) & 2))
                    v = -v;
                B[k][col] = v;
            }
    int nc = wref_cd_regs(op, 1, w64), out16 = wref_out16(op->to);
    for (int pass = 0; pass < 2; pass++)
        for (int r = 0; r < nc; r++)
            for (int l = 0; l < lanes; l++)
                for (int h = 0; h < (out16 ? 2 : 1); h++) {
                    int i, j;
                    wref_cd_slot(op, 1, w64, r, l, h, &i, &j);
                    uint32_t raw = out16 ? (d[r][l] >> (16 * h)) & 0xffff : d[r][l];
                    if (pass == 0) {
                        float f;
                        memcpy(&f, &raw, 4);
                        C[i][j] = out16  ? fpf_decode(raw, op->to == WR_OF16 ? FPF_F16 : FPF_BF16)
                                  : ints ? (double)(int32_t)raw
                                         : (double)f;
                        continue;
                    }
                    double acc = C[i][j];
                    for (int k = 0; k < op->k; k++)
                        acc += A[i][k] * B[k][j];
                    uint32_t bits;
                    if (ints) {
                        bits = (uint32_t)(int64_t)acc;
                    } else {
                        bits = wref_fbits(op, acc);
                    }
                    d[r][l] = out16 ? (d[r][l] & ~(0xffffu << (16 * h))) | bits << (16 * h) : bits;
                }
}

#endif
