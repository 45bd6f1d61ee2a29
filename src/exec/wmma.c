/* wmma.c - RDNA3 (gfx1100) and RDNA4 (gfx1201) Wave Matrix Multiply Accumulate: the dense
 * v_wmma_* ops, D = A x B + C on 16x16 tiles (RDNA3 ISA and RDNA4 ISA, "Wave Matrix Multiply
 * Accumulate"; docs/mfma.md, "WMMA (RDNA)", has the layouts and the choices made here).
 *
 * One descriptor per op (element types, K, output type) drives one handler in three steps, as
 * mfma.c does for CDNA: gather A[16][K], B[K][16] and C[16][16] out of the register tuples into
 * plain arrays (converted once, with neg/abs and the integer signedness applied), multiply with
 * k ascending, one fused multiply-add per step in f32 (integers: exact in 32 bits, wrapping, or
 * saturating with clamp), then scatter D.  All sources are read before D is written (D may
 * overlap them).  Like MFMA, WMMA works on the whole wave: EXEC is not consulted.
 *
 * Register layouts (the manuals' WMMA tables; checked against AMD's matrix instruction
 * calculator for every op and both wave sizes).  E = elements per lane of A and B, w = element
 * width, element e of a lane at bits [w*(e%(32/w)), ...) of register e/(32/w):
 *   gfx11 A[i][k]: lane i (lanes i+16, i+32, i+48 hold copies; gfx11 requires them equal, the
 *                  engine reads lane i), element k.  B[k][j]: lane j, element k.
 *   gfx11 C/D[i][j]: wave32 register i/2, lane 16*(i%2) + j; wave64 register i/4, lane
 *                  16*(i%4) + j.  16-bit C/D use one half of each register: OPSEL[2] picks it,
 *                  and the other half is kept.
 *   gfx12 A[i][k] (wave32): lane i + 16*h, element e, where the lane's K/2 elements are k =
 *                  K/2*(e/(K/4)) + K/4*h + e%(K/4) for 16-bit types (K=16: runs of four k,
 *                  8*(e/4) + 4*h + e%4) and k = (K/2)*h + e for 8- and 4-bit types.  B[k][j]
 *                  the same with j.
 *   gfx12 C/D[i][j] (wave32): lane j + 16*(i/8), element i%8 (32-bit: register i%8; 16-bit:
 *                  packed two per register, low half first).
 *   gfx12 wave64: lane l, register r holds what wave32 has in lane l%32, register r + R/2*(l/32)
 *                  (R the wave32 register count); v_wmma_i32_16x16x16_iu4's A/B (one register
 *                  in wave32) sit in lanes 0-31 as in wave32.
 *   gfx12 SWMMAC (v_swmmac_*, K = 32 or 64): B as above with that K; A holds two stored values
 *                  of every group of four k, laid out as a dense A of K/2 (stored element c of
 *                  row i is the pair member c%2 of group c/2); C is the destination tuple and
 *                  S2 the index VGPR (sparse_index() below).
 */
#include "exec/fpfmt.h"
#include "exec/valu.h"

#include <math.h>
#include <stdint.h>

enum { WT_F16, WT_BF16, WT_I8, WT_I4, WT_FP8, WT_BF8 }; /* A/B element types */
enum { WO_F32, WO_F16, WO_BF16, WO_I32 };               /* C/D types */

typedef struct {
    uint8_t ta, tb, to, k; /* A type, B type, C/D type, K */
    uint8_t sparse;        /* gfx12 v_swmmac_*: A holds 2 of every 4 k, S2 the indices */
} wdesc;

static const uint8_t wt_bits[] = {[WT_F16] = 16, [WT_BF16] = 16, [WT_I8] = 8,
                                  [WT_I4] = 4,   [WT_FP8] = 8,   [WT_BF8] = 8};

static int wdesc_of(unsigned op, wdesc *d) {
    static const struct {
        uint16_t op;
        wdesc d;
    } t[] = {
        {ISA_OPL_v_wmma_f32_16x16x16_f16, {WT_F16, WT_F16, WO_F32, 16, 0}},
        {ISA_OPL_v_wmma_f32_16x16x16_bf16, {WT_BF16, WT_BF16, WO_F32, 16, 0}},
        {ISA_OPL_v_wmma_f16_16x16x16_f16, {WT_F16, WT_F16, WO_F16, 16, 0}},
        {ISA_OPL_v_wmma_bf16_16x16x16_bf16, {WT_BF16, WT_BF16, WO_BF16, 16, 0}},
        {ISA_OPL_v_wmma_i32_16x16x16_iu8, {WT_I8, WT_I8, WO_I32, 16, 0}},
        {ISA_OPL_v_wmma_i32_16x16x16_iu4, {WT_I4, WT_I4, WO_I32, 16, 0}},
        {ISA_OPL_v_wmma_i32_16x16x32_iu4, {WT_I4, WT_I4, WO_I32, 32, 0}},
        {ISA_OPL_v_wmma_f32_16x16x16_fp8_fp8, {WT_FP8, WT_FP8, WO_F32, 16, 0}},
        {ISA_OPL_v_wmma_f32_16x16x16_fp8_bf8, {WT_FP8, WT_BF8, WO_F32, 16, 0}},
        {ISA_OPL_v_wmma_f32_16x16x16_bf8_fp8, {WT_BF8, WT_FP8, WO_F32, 16, 0}},
        {ISA_OPL_v_wmma_f32_16x16x16_bf8_bf8, {WT_BF8, WT_BF8, WO_F32, 16, 0}},
        {ISA_OPL_v_swmmac_f32_16x16x32_f16, {WT_F16, WT_F16, WO_F32, 32, 1}},
        {ISA_OPL_v_swmmac_f32_16x16x32_bf16, {WT_BF16, WT_BF16, WO_F32, 32, 1}},
        {ISA_OPL_v_swmmac_f16_16x16x32_f16, {WT_F16, WT_F16, WO_F16, 32, 1}},
        {ISA_OPL_v_swmmac_bf16_16x16x32_bf16, {WT_BF16, WT_BF16, WO_BF16, 32, 1}},
        {ISA_OPL_v_swmmac_i32_16x16x32_iu8, {WT_I8, WT_I8, WO_I32, 32, 1}},
        {ISA_OPL_v_swmmac_i32_16x16x32_iu4, {WT_I4, WT_I4, WO_I32, 32, 1}},
        {ISA_OPL_v_swmmac_i32_16x16x64_iu4, {WT_I4, WT_I4, WO_I32, 64, 1}},
        {ISA_OPL_v_swmmac_f32_16x16x32_fp8_fp8, {WT_FP8, WT_FP8, WO_F32, 32, 1}},
        {ISA_OPL_v_swmmac_f32_16x16x32_fp8_bf8, {WT_FP8, WT_BF8, WO_F32, 32, 1}},
        {ISA_OPL_v_swmmac_f32_16x16x32_bf8_fp8, {WT_BF8, WT_FP8, WO_F32, 32, 1}},
        {ISA_OPL_v_swmmac_f32_16x16x32_bf8_bf8, {WT_BF8, WT_BF8, WO_F32, 32, 1}},
    };
    for (size_t i = 0; i < sizeof t / sizeof t[0]; i++)
        if (t[i].op == op) {
            *d = t[i].d;
            return 1;
        }
    return 0;
}

/* Where element (row or column) rc, index k of an A/B operand lives: *reg, *lane, *bit. */
static void ab_place(int g12, int w64, const wdesc *d, int t, int rc, int k, unsigned *reg,
                     unsigned *lane, unsigned *bit) {
    unsigned w = wt_bits[t], per = 32 / w, e = (unsigned)k, h = 0;
    if (g12) {
        if (w == 16) { /* runs of K/4: k = K/2*(e/(K/4)) + K/4*h + e%(K/4) (K=16: runs of 4) */
            unsigned run = d->k / 4u;
            h = ((unsigned)k / run) % 2;
            e = run * ((unsigned)k / (2 * run)) + (unsigned)k % run;
        } else { /* k = (K/2)*h + e */
            h = (unsigned)k / (d->k / 2u);
            e = (unsigned)k % (d->k / 2u);
        }
    }
    unsigned r = e / per, l = (unsigned)rc + 16 * h;
    unsigned r32 = (unsigned)d->k / 2 * w / 32; /* gfx12 wave32 registers per operand */
    if (g12 && w64 && r32 >= 2 && r >= r32 / 2) {
        r -= r32 / 2;
        l += 32;
    }
    *reg = r;
    *lane = l;
    *bit = w * (e % per);
}

/* Where C/D[i][j] lives: *reg, *lane, and *half (16-bit types: which half; -1: 32-bit). */
static void cd_place(int g12, int w64, int to, int opsel_hi, int i, int j, unsigned *reg,
                     unsigned *lane, int *half) {
    int b16 = to == WO_F16 || to == WO_BF16;
    if (!g12) {
        *reg = (unsigned)(w64 ? i / 4 : i / 2);
        *lane = (unsigned)(16 * (w64 ? i % 4 : i % 2) + j);
        *half = b16 ? opsel_hi : -1;
        return;
    }
    unsigned e = (unsigned)i % 8, l = (unsigned)(j + 16 * (i / 8));
    unsigned r = b16 ? e / 2 : e, r32 = b16 ? 4 : 8;
    if (w64 && r >= r32 / 2) {
        r -= r32 / 2;
        l += 32;
    }
    *reg = r;
    *lane = l;
    *half = b16 ? (int)(e % 2) : -1;
}

/* Registers of a tuple operand, or NULL (with a fault) when it is not VGPRs inside v0..v255. */
static const u32 (*vtuple(wave *w, const xinst *x, const isa_opnd *o, unsigned n)) [LANES] {
    if (o->kind != ISA_OPND_VGPR || o->idx + n > 256) {
        wave_fault(w, x, XF_UNIMPLEMENTED);
        w->fault.note = "WMMA operand that is not a VGPR tuple inside v0..v255";
        return NULL;
    }
    return (const u32(*)[LANES])w->v[o->idx];
}

static float ab_float(int t, unsigned bits) {
    switch (t) {
    case WT_F16: return h2f(bits);
    case WT_BF16: return f32(bits << 16);
    case WT_FP8: return fpf_decode(bits, FPF_FP8_OCP);
    default: return fpf_decode(bits, FPF_BF8_OCP);
    }
}

/* One A or B operand, gathered as M[rc][k] (floats, or integers in mi). */
static int gather_ab(wave *w, const xinst *x, int s, int t, const wdesc *d, int g12, int w64,
                     float (*mf)[64], i32 (*mi)[64]) {
    const isa_valu_fields *v = &x->in.f.v;
    unsigned w_bits = wt_bits[t], nreg = (unsigned)d->k * w_bits / 32;
    if (g12) /* gfx12 splits K over two lane halves */
        nreg = nreg / 2 ? nreg / 2 : 1;
    if (g12 && w64 && nreg >= 2)
        nreg /= 2;
    const u32(*R)[LANES] = vtuple(w, x, &x->in.src[s], nreg);
    if (!R)
        return 0;
    int neg_lo = (v->neg >> s) & 1, neg_hi = (v->neg_hi >> s) & 1;
    for (int rc = 0; rc < 16; rc++)
        for (int k = 0; k < d->k; k++) {
            unsigned reg, lane, bit;
            ab_place(g12, w64, d, t, rc, k, &reg, &lane, &bit);
            unsigned raw = (R[reg][lane] >> bit) & ((1u << w_bits) - 1);
            if (t == WT_I8 || t == WT_I4) { /* NEG[s] is the signedness (manuals, "WMMA") */
                i32 val = (i32)raw;
                if (neg_lo && (raw >> (w_bits - 1)))
                    val -= (i32)(1u << w_bits);
                mi[rc][k] = val;
                continue;
            }
            float f = ab_float(t, raw);
            /* NEG negates the values from bits 15:0 of each register, NEG_HI those from 31:16 */
            if (bit < 16 ? neg_lo : neg_hi)
                f = -f;
            mf[rc][k] = f;
        }
    return 1;
}

/* SWMMAC sparsity indices (RDNA4 ISA "Sparse matrix multiply"; AMD's matrix instruction
 * calculator lists the layout): A stores, for every group of four k, two values in one field
 * of 2*w bits, the first in the low w bits.  The index VGPR (S2) has a 4-bit entry per stored
 * group, in the same lane as the group and in the order the groups are stored in that lane
 * (entry q at bits 4q + 4 * groups-per-lane * index_key): bits 1:0 give the position (0-3) in
 * the group of the first stored value, bits 3:2 that of the second.  Fills kk[i][c], the k that
 * stored element c of row i multiplies; a faulted wave returns 0. */
static int sparse_index(wave *w, const xinst *x, const wdesc *da, int g12, int w64,
                        uint8_t (*kk)[64]) {
    const isa_opnd *o = &x->in.src[2];
    if (o->kind != ISA_OPND_VGPR) {
        wave_fault(w, x, XF_UNIMPLEMENTED);
        w->fault.note = "SWMMAC index operand that is not a VGPR";
        return 0;
    }
    const u32 *IDX = w->v[o->idx];
    unsigned wb = wt_bits[da->ta], nreg = (unsigned)da->k * wb / 32 / 2; /* gfx12 wave32 */
    if (w64 && nreg >= 2)
        nreg /= 2;
    if (!nreg)
        nreg = 1;
    unsigned set = 4 * (nreg * 32 / (2 * wb)), off = set * x->in.f.v.index_key;
    if (off + set > 32) {
        wave_fault(w, x, XF_UNIMPLEMENTED);
        w->fault.note = "SWMMAC index_key past the index register";
        return 0;
    }
    for (int i = 0; i < 16; i++)
        for (int c = 0; c < da->k; c += 2) {
            unsigned reg, lane, bit;
            ab_place(g12, w64, da, da->ta, i, c, &reg, &lane, &bit);
            unsigned q = (reg * 32 + bit) / (2 * wb), e = (IDX[lane] >> (off + 4 * q)) & 15;
            kk[i][c] = (uint8_t)(2 * c + (e & 3)); /* group c/2 starts at k = 4 * (c/2) */
            kk[i][c + 1] = (uint8_t)(2 * c + (e >> 2));
        }
    return 1;
}

void x_rdna_wmma(wave *w, const xinst *x) {
    wdesc d;
    const isa_valu_fields *v = &x->in.f.v;
    int g12 = x->in.arch == ISA_GFX1201, w64 = !w->prog->wave32;
    if (!wdesc_of(x->in.op, &d))
        return wave_fault(w, x, XF_UNIMPLEMENTED);
    int ints = d.to == WO_I32;
    /* Integer ops take no NEG_HI and no NEG[2] (manuals); fp8/bf8 take no NEG at all.  Refuse
     * rather than guess what the hardware does with them. */
    if ((ints && ((v->neg & 4) || v->neg_hi)) ||
        ((d.ta == WT_FP8 || d.ta == WT_BF8) && ((v->neg & 3) || (v->neg_hi & 3)))) {
        wave_fault(w, x, XF_UNIMPLEMENTED);
        w->fault.note = "WMMA neg/neg_hi bits the ISA manuals give no meaning for this type";
        return;
    }
    float af[16][64], bf[16][64];
    i32 ai[16][64], bi[16][64];
    float cf[16][16];
    i32 ci[16][16];
    /* SWMMAC: A is gathered as the stored 16 x K/2 matrix (its registers are laid out as a dense
     * WMMA A of that K), kk[i][c] says which k the stored A[i][c] multiplies */
    wdesc da = d;
    uint8_t kk[16][64];
    int nk = d.k;
    if (d.sparse) {
        da.k = d.k / 2;
        nk = da.k;
    }
    if (!gather_ab(w, x, 0, d.ta, &da, g12, w64, af, ai) ||
        !gather_ab(w, x, 1, d.tb, &d, g12, w64, bf, bi))
        return;
    if (d.sparse ? !sparse_index(w, x, &da, g12, w64, kk) : 0)
        return;
    if (!d.sparse)
        for (int i = 0; i < 16; i++)
            for (int k = 0; k < nk; k++)
                kk[i][k] = (uint8_t)k;
    int b16 = d.to == WO_F16 || d.to == WO_BF16, half_sel = (v->opsel >> 2) & 1;
    unsigned ncd = w64 ? 4 : 8;
    if (g12 && b16)
        ncd /= 2;
    if (x->in.dst[0].kind != ISA_OPND_VGPR || x->in.dst[0].idx + ncd > 256) {
        wave_fault(w, x, XF_UNIMPLEMENTED);
        w->fault.note = "WMMA destination outside v0..v255";
        return;
    }
    /* SWMMAC accumulates into D: its C is the destination tuple (S2 holds the indices) */
    const isa_opnd *oc = d.sparse ? &x->in.dst[0] : &x->in.src[2];
    const u32(*C)[LANES] = NULL;
    if (oc->kind == ISA_OPND_VGPR) {
        if (!(C = vtuple(w, x, oc, ncd)))
            return;
    } else if (oc->kind != ISA_OPND_INLINE) {
        wave_fault(w, x, XF_UNIMPLEMENTED);
        w->fault.note = "WMMA C operand that is neither VGPRs nor an inline constant";
        return;
    }
    for (int i = 0; i < 16; i++)
        for (int j = 0; j < 16; j++) {
            unsigned reg, lane;
            int half;
            cd_place(g12, w64, d.to, half_sel, i, j, &reg, &lane, &half);
            if (!C) { /* an inline constant fills C (decoded as a 64-bit value: the tuple) */
                double k = oc->idx >= 240 ? f64(x->k[2]) : (double)(int64_t)x->k[2];
                cf[i][j] = (float)k;
                ci[i][j] = (i32)(int64_t)k;
                continue;
            }
            u32 raw = C[reg][lane];
            if (half >= 0)
                raw = (raw >> (16 * half)) & 0xffff;
            ci[i][j] = (i32)raw;
            float c = d.to == WO_F16 ? h2f(raw) : d.to == WO_BF16 ? f32(raw << 16) : f32(raw);
            if (v->neg_hi & 4) /* NEG_HI[2]: |C|, before NEG[2] negates it */
                c = fabsf(c);
            if (v->neg & 4)
                c = -c;
            cf[i][j] = c;
        }
    u32 out[16][16];
    for (int i = 0; i < 16; i++)
        for (int j = 0; j < 16; j++) {
            if (ints) {
                int64_t acc = ci[i][j];
                for (int k = 0; k < nk; k++)
                    acc += (int64_t)ai[i][k] * bi[j][kk[i][k]];
                if (v->clamp) /* saturate to i32 */
                    acc = acc > INT32_MAX ? INT32_MAX : acc < INT32_MIN ? INT32_MIN : acc;
                out[i][j] = (u32)acc;
                continue;
            }
            float acc = cf[i][j];
            for (int k = 0; k < nk; k++)
                acc = fmaf(af[i][k], bf[j][kk[i][k]], acc);
            /* a NaN result is the default NaN of D's type, as an MFMA's is (docs/mfma.md) */
            out[i][j] = d.to == WO_F16    ? (isnan(acc) ? 0xfe00u : f2h(acc))
                        : d.to == WO_BF16 ? (isnan(acc) ? 0xffc0u : fpf_encode(acc, FPF_BF16, 0))
                        : isnan(acc)      ? 0xffc00000u
                                          : bf32(acc);
        }
    for (int i = 0; i < 16; i++)
        for (int j = 0; j < 16; j++) {
            unsigned reg, lane;
            int half;
            cd_place(g12, w64, d.to, half_sel, i, j, &reg, &lane, &half);
            u32 *D = &w->v[x->in.dst[0].idx + reg][lane];
            if (half < 0)
                *D = out[i][j];
            else
                *D = (*D & ~(0xffffu << (16 * half))) | (out[i][j] & 0xffff) << (16 * half);
        }
}
