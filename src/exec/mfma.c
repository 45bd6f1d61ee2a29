/* mfma.c - matrix instructions: every v_mfma_*, v_smfmac_* and the gfx950 scaled MFMA (CDNA3 ISA
 * and CDNA4 ISA, "Matrix Arithmetic Instructions"; docs/mfma.md has the layouts and the choices).
 *
 * One descriptor per opcode (shape, block count, source types, dense/sparse/scaled) drives one
 * generic handler in three steps:
 *   1. gather: A, B (and C) are read out of their register tuples into plain row-major arrays per
 *      block, converted once to float (int32 for i8, double for f64), with the CBSZ/ABID block
 *      broadcast, the BLGP lane pattern and the SMFMAC sparsity index applied on the way;
 *   2. multiply: D[i][j] = C[i][j] + sum over k of A[i][k] * B[k][j], k ascending, one fused
 *      multiply-add per step: the inner loop runs over j, so the compiler vectorises it;
 *   3. scatter: D goes back to the destination tuple (VGPRs or AGPRs).
 * All sources are read before the destination is written, so a destination overlapping its
 * sources reads the old values.  MFMA ignores EXEC: every lane is read and written.
 *
 * Register layouts (AMD matrix instruction calculator, the manuals' layout tables): per block b
 * of an MxNxK op with B blocks and E elements per lane (E = K*M*B/64),
 *   A[i][k] (block b): lane i + M*b + M*B*(k/E), element k%E of the lane's register tuple;
 *   B[k][j] (block b): lane j + N*b + N*B*(k/E), element k%E;
 *   C/D[i][j] 32-bit:  register b*(M*N/64) + 4*(i/(4*(64/N))) + i%4,
 *                      lane N*(b%G) + G*N*((i/4)%(64/N)) + j, with G = max(1, 256/(M*N))
 *                      (blocks sharing a register);
 *   C/D[i][j] 64-bit:  register pair b*(M*N/64) + i/(64/N),
 *                      lane N*(b%G) + G*N*(i%(64/N)) + j, with G = max(1, 64/(M*N)).
 * Element e of a lane sits at bits [e*w, e*w+w) of the tuple (w the element width in bits,
 * packed across dword boundaries for 6-bit formats).  The gfx950 f8f6f4 ops differ: see
 * place_f8f6f4().
 */
#include "exec/fpfmt.h"
#include "exec/valu.h"

#include <pthread.h>
#include <stdlib.h>

/* x86 hosts: the f16 unpacking uses F16C where the CPU has it (half_lanes_f16c), and the MFMA
 * handlers are compiled three times (MFN): for AVX-512 (x86-64-v4), AVX2 (x86-64-v3) and the
 * baseline, chosen at load time, so the products run 16 lanes per instruction where they can. */
#if defined(__x86_64__) && defined(__linux__) && !defined(GFXEMU_NO_CLONES)
#define MFMA_X86 1
#include <immintrin.h>
#define MFN __attribute__((target_clones("arch=x86-64-v4", "arch=x86-64-v3", "default")))
#else
#define MFMA_X86 0
#define MFN
#endif

/* valu.h asks GCC for -O3, whose unroll-and-jam turns the multiply's vector loop into scalar
 * code: keep the loop nest as written. */
#if defined(__GNUC__) && !defined(__clang__)
#pragma GCC optimize("no-loop-unroll-and-jam")
#endif

/* Element types of the A/B sources. */
enum {
    MT_F32,
    MT_XF32,
    MT_F16,
    MT_BF16,
    MT_I8,
    MT_F64,
    MT_FP8,    /* E4M3: OCP on gfx950, FNUZ on gfx942 */
    MT_BF8,    /* E5M2: OCP on gfx950, FNUZ on gfx942 */
    MT_F8F6F4, /* format from CBSZ (A) / BLGP (B): 0 FP8, 1 BF8, 2 FP6, 3 BF6, 4 FP4 */
    MT_NONE,   /* not an MFMA */
};
/* Element formats after resolving MT_F8F6F4 (the CBSZ/BLGP codes). */
enum { MF_FP8 = 0, MF_BF8, MF_FP6, MF_BF6, MF_FP4 };

enum { MK_DENSE, MK_SPARSE, MK_F8F6F4, MK_NONE };

typedef struct mdesc {
    uint8_t m, n, k, nb; /* shape of one block, number of blocks; k is the dense K */
    uint8_t ta, tb;      /* MT_* of A and B */
    uint8_t kind;        /* MK_* */
    uint8_t ok;          /* 1 for MFMA/SMFMAC ops */
    uint8_t fast;        /* the fast path's kind of op (FAST_DESC) */
} mdesc;

/* One descriptor per op, from the MFMA column of the per-op metadata table
 * (src/isa/gen/opmeta.inc, tools/isagen/meta.py): shape and element types come from the
 * mnemonic, the number of blocks of gfx90a's names from the destination width LLVM gives. */
#define MDESC_MFMA(M, N, K, B, TA, TB, KIND)                                                       \
    {M, N, K, B, MT_##TA, MT_##TB, MK_##KIND, (M) != 0, FAST_DESC(M, N, K, B, TA, TB, KIND)},
/* The ops the fast path (below) takes: one dense block of 16-bit (both f16 or both bf16) or
 * 8-bit float (fp8/bf8, any pair) elements, in the shapes 32x32x8, 32x32x16, 16x16x16,
 * 16x16x32. */
#define FAST_T8(T) (MT_##T == MT_FP8 || MT_##T == MT_BF8)
#define FAST_DESC(M, N, K, B, TA, TB, KIND)                                                        \
    (MK_##KIND == MK_DENSE && (B) == 1 &&                                                          \
     ((MT_##TA == MT_##TB && (MT_##TA == MT_F16 || MT_##TA == MT_BF16)) ||                         \
      (FAST_T8(TA) && FAST_T8(TB))) &&                                                             \
     (((M) == 32 && (N) == 32 && ((K) == 8 || (K) == 16)) ||                                       \
      ((M) == 16 && (N) == 16 && ((K) == 16 || (K) == 32))))
#define ISA_META(id, name, fmts, cls, rnd, rf, ndst, nsrc, dw, sw, st, mfma, ...)                  \
    [ISA_OP_##id] = MDESC_##mfma
static const mdesc descs[ISA_NOPS] = {
#include "isa/gen/opmeta.inc"
};
#undef ISA_META

/* Largest operand: 2048 elements per matrix (e.g. 32x32 x 2 blocks, 16x128, 32x64). */
#define MMAX 2048

/* ---- register access ------------------------------------------------------------------------ */

/* Register tuple of source s (n dwords) as n consecutive lane arrays: registers are used in
 * place; SGPRs and constants are broadcast into tmp (a constant fills every element: 32-bit
 * elements, or 64-bit ones, low dword first, when wide). */
static const u32 (*src_regs(wave *w, const xinst *x, int s, unsigned n, u32 (*tmp)[LANES],
                            int wide)) [LANES] {
    const isa_opnd *o = &x->in.src[s];
    if (o->kind == ISA_OPND_VGPR)
        return (const u32(*)[LANES])w->v[o->idx];
    if (o->kind == ISA_OPND_AGPR)
        return (const u32(*)[LANES])w->a[o->idx];
    for (unsigned r = 0; r < n; r++) {
        u32 v;
        if (o->kind == ISA_OPND_SREG)
            v = w->s[(o->idx + r) % NSREG];
        else if (o->kind == ISA_OPND_SPECIAL)
            v = (u32)x_special(w, o->idx, 1);
        else if (wide)
            v = (u32)(x->k[s] >> (32 * (r & 1)));
        else if (o->kind == ISA_OPND_INLINE && o->idx >= 240 && o->n >= 2)
            v = bf32((float)f64(x->k[s])); /* resolved for the tuple's width: as f64 */
        else
            v = (u32)x->k[s];
        for (int l = 0; l < LANES; l++)
            tmp[r][l] = v;
    }
    return (const u32(*)[LANES])tmp;
}

static u32 (*dst_regs(wave *w, const xinst *x)) [LANES] {
    const isa_opnd *o = &x->in.dst[0];
    return o->kind == ISA_OPND_AGPR ? (u32(*)[LANES])w->a[o->idx] : (u32(*)[LANES])w->v[o->idx];
}

/* ---- element conversion --------------------------------------------------------------------- */

/* f16 -> f32 always inlines, like isa/fbits.h's bit casts (the handlers are compiled per
 * target: a call out of the lane loops would stop their vectorisation). */
#define AI static inline __attribute__((always_inline))
/* f16 -> f32, exact: normals and inf/NaN move their fields (rebias 15 -> 127), denormals are
 * m * 2^-24 (an exact integer-to-float conversion and scaling). */
AI float half(u32 h) {
    u32 em = h & 0x7fffu, sign = (h & 0x8000u) << 16;
    u32 nrm = (em << 13) + (112u << 23), inf = (em << 13) | 0x7f800000u;
    u32 den = bf32((float)(int)em * 0x1p-24f);
    /* selects as masks: GCC does not if-convert the float multiply (trapping math) */
    u32 is_inf = -(u32)(em >= 0x7c00u), is_den = -(u32)(em < 0x400u);
    u32 v = (inf & is_inf) | (den & is_den) | (nrm & ~(is_inf | is_den));
    return f32(v | sign);
}

/* The same conversion for element position sh/16 of 64 lanes with the F16C instructions, on
 * hosts that have them (every x86-64-v3 one): exact as well, except that a signalling NaN comes
 * out quiet, which the products make of it anyway (and every NaN result is the default NaN:
 * nan_rule()).  Checked against half() for all 65536 encodings when it was written. */
#if MFMA_X86
__attribute__((target("avx2,f16c"))) static void half_lanes_f16c(const u32 *r, int sh, float *o) {
    const __m128i cnt = _mm_cvtsi32_si128(sh);
    const __m256i m = _mm256_set1_epi32(0xffff);
    for (int l = 0; l < LANES; l += 16) {
        __m256i a = _mm256_loadu_si256((const __m256i *)(const void *)(r + l));
        __m256i b = _mm256_loadu_si256((const __m256i *)(const void *)(r + l + 8));
        a = _mm256_and_si256(_mm256_srl_epi32(a, cnt), m);
        b = _mm256_and_si256(_mm256_srl_epi32(b, cnt), m);
        /* packus interleaves the 128-bit halves: a0-3 b0-3 a4-7 b4-7; the permute restores order */
        __m256i p = _mm256_permute4x64_epi64(_mm256_packus_epi32(a, b), 0xd8);
        _mm256_storeu_ps(o + l, _mm256_cvtph_ps(_mm256_castsi256_si128(p)));
        _mm256_storeu_ps(o + l + 8, _mm256_cvtph_ps(_mm256_extracti128_si256(p, 1)));
    }
}
#endif

/* xf32: an f32 operand reduced to 10 explicit mantissa bits (round to nearest even); the
 * CDNA3 manual does not give the reduction, docs/mfma.md states the choice. */
AI float xf32(u32 u) {
    u32 r = (u + 0xfffu + ((u >> 13) & 1)) & ~0x1fffu;
    return f32((u & 0x7f800000u) == 0x7f800000u ? u : r);
}

static int elem_bits(int t, int fmt) {
    switch (t) {
    case MT_F32:
    case MT_XF32: return 32;
    case MT_F16:
    case MT_BF16: return 16;
    case MT_F64: return 64;
    case MT_F8F6F4: return fmt == MF_FP6 || fmt == MF_BF6 ? 6 : fmt == MF_FP4 ? 4 : 8;
    default: return 8;
    }
}

/* Decoded values of the 8/6/4-bit formats, filled once (fpf_decode is exact but too slow for
 * the gather loops); read-only afterwards. */
enum { L_FP8_OCP, L_BF8_OCP, L_FP8_FNUZ, L_BF8_FNUZ, L_FP6, L_BF6, L_FP4, L_E8M0, L_N };
static float lut[L_N][256];
static pthread_once_t lut_once = PTHREAD_ONCE_INIT;
static void lut_fill(void) {
    static const fpf_format *const f[L_N] = {FPF_FP8_OCP, FPF_BF8_OCP, FPF_FP8_FNUZ, FPF_BF8_FNUZ,
                                             FPF_FP6,     FPF_BF6,     FPF_FP4,      FPF_E8M0};
    for (int t = 0; t < L_N; t++)
        for (unsigned c = 0; c < (1u << f[t]->bits); c++)
            lut[t][c] = fpf_decode(c, f[t]);
}

/* The table of an 8/6/4-bit source (NULL for the other types). */
static const float *lut_of(int t, int fmt, int fnuz) {
    static const int f8f6f4[5] = {L_FP8_OCP, L_BF8_OCP, L_FP6, L_BF6, L_FP4};
    if (t == MT_FP8 || t == MT_BF8 || t == MT_F8F6F4) /* not per f16/bf16/f32 MFMA: it is a call */
        pthread_once(&lut_once, lut_fill);
    switch (t) {
    case MT_FP8: return lut[fnuz ? L_FP8_FNUZ : L_FP8_OCP];
    case MT_BF8: return lut[fnuz ? L_BF8_FNUZ : L_BF8_OCP];
    case MT_F8F6F4: return lut[f8f6f4[fmt]];
    default: return NULL;
    }
}

/* B-matrix lane group pattern (BLGP): the lane whose B data lane l uses. */
static inline int blgp_lane(int blgp, int l) {
    switch (blgp) {
    case 1: return l & 31;        /* lanes 0-31 broadcast to 32-63 */
    case 2: return l | 32;        /* lanes 32-63 broadcast to 0-31 */
    case 3: return (l + 16) & 63; /* rotate down by 16 lanes */
    case 4:
    case 5:
    case 6:
    case 7: /* one group of 16 lanes broadcast to all */ return 16 * (blgp - 4) + (l & 15);
    default: return l;
    }
}

/* ---- the operation -------------------------------------------------------------------------- */

typedef struct mop {
    const mdesc *d;
    int fa, fb;           /* resolved 8/6/4-bit formats (MT_F8F6F4) */
    int sa, sb;           /* stored A elements per lane, B elements per lane */
    int cbsz, abid, blgp; /* broadcast controls in effect (0 when the op reuses the fields) */
    int nega, negb, negc;
    int ftz;  /* flush f32/xf32 A/B input denormals (MODE.FP_DENORM f32 input bit clear) */
    int ovfl; /* MODE.FP16_OVFL: clamp overflowing f32 results to +-max, saturate i32 ones */
} mop;

/* Element e of every lane of a register tuple, converted (type t, width bits; tab the lut_of()
 * table for the small formats) into out[e][lane]: each loop runs over the 64 lanes of one
 * element position, so it vectorises. */
static inline __attribute__((always_inline)) void unpack_f(const u32 (*R)[LANES], int E, int t,
                                                           int bits, const float *tab, int ftz,
                                                           float (*out)[LANES]) {
    for (int e = 0; e < E; e++) {
        const u32 *r = R[e * bits / 32], *r1 = R[e * bits / 32 + (e * bits % 32 + bits > 32)];
        int sh = e * bits % 32;
        float *o = out[e];
        switch (t) {
        case MT_F32:
            if (ftz) /* MODE asks for f32 input denormals to be flushed (to signed zero) */
                VLOOP(l) o[l] = f32((r[l] & 0x7f800000u) ? r[l] : r[l] & 0x80000000u);
            else
                VLOOP(l) o[l] = f32(r[l]);
            break;
        case MT_XF32:
            if (ftz)
                VLOOP(l) o[l] = xf32((r[l] & 0x7f800000u) ? r[l] : r[l] & 0x80000000u);
            else
                VLOOP(l) o[l] = xf32(r[l]);
            break;
        case MT_F16:
#if MFMA_X86
            if (__builtin_cpu_supports("f16c") && __builtin_cpu_supports("avx2")) {
                half_lanes_f16c(r, sh, o);
                break;
            }
#endif
            VLOOP(l) o[l] = half((r[l] >> sh) & 0xffff);
            break;
        case MT_BF16: VLOOP(l) o[l] = f32(((r[l] >> sh) & 0xffff) << 16); break;
        default:
            if (sh + bits <= 32)
                VLOOP(l) o[l] = tab[(r[l] >> sh) & ((1u << bits) - 1)];
            else /* a 6-bit element across two registers */
                VLOOP(l) o[l] = tab[((r[l] >> sh) | (r1[l] << (32 - sh))) & 0x3f];
        }
    }
}
static inline __attribute__((always_inline)) void unpack_i(const u32 (*R)[LANES], int E, int t,
                                                           int bits, const float *tab, int ftz,
                                                           i32 (*out)[LANES]) {
    (void)t, (void)bits, (void)tab, (void)ftz;
    for (int e = 0; e < E; e++) {
        const u32 *r = R[e / 4];
        int sh = 8 * (e & 3);
        VLOOP(l) out[e][l] = (int8_t)(r[l] >> sh);
    }
}

/* Gather A: a[b][i][s] (s < S stored per row: K dense, K/2 sparse) and for sparse ops the dense
 * k each stored value multiplies (kof).  T is float or i32, UNPACK unpack_f or unpack_i. */
#define GATHER_A(T, UNPACK, tab)                                                                   \
    do {                                                                                           \
        int M = d->m, NB = d->nb, E = op->sa, S = E * (64 / (M * NB)), lm = __builtin_ctz(M),      \
            lb = __builtin_ctz(NB);                                                                \
        UNPACK(RA, E, d->ta, elem_bits(d->ta, op->fa), tab, op->ftz, tmp);                         \
        for (int l = 0; l < LANES; l++) { /* shapes are powers of two: no divisions */             \
            int i = l & (M - 1), b = (l >> lm) & (NB - 1), g = l >> (lm + lb);                     \
            T *row = A + (b * M + i) * S + g * E;                                                  \
            for (int e = 0; e < E; e++)                                                            \
                row[e] = tmp[e][l];                                                                \
            if (kof) {                                                                             \
                u8 *ko = kof + (b * M + i) * S + g * E;                                            \
                for (int e = 0; e < E; e++) /* 2-bit index: position inside its group of 4 */      \
                    ko[e] = (u8)(2 * g * E + 4 * (e / 2) + ((idx[l] >> (isel + 2 * e)) & 3));      \
            }                                                                                      \
        }                                                                                          \
    } while (0)

/* Gather B: bm[b][k][j] (dense), with the BLGP lane pattern.  A row k of block b is the
 * element k%E of N consecutive lanes; every BLGP pattern moves aligned groups of 16 lanes, so
 * the row is copied in runs of min(N, 16) lanes. */
#define GATHER_B(T, UNPACK, tab)                                                                   \
    do {                                                                                           \
        int N = d->n, NB = d->nb, E = op->sb, run = N < 16 ? N : 16;                               \
        UNPACK(RB, E, d->tb, elem_bits(d->tb, op->fb), tab, op->ftz, tmp);                         \
        for (int g = 0; g < 64 / (N * NB); g++)                                                    \
            for (int b = 0; b < NB; b++)                                                           \
                for (int e = 0; e < E; e++)                                                        \
                    for (int c = 0; c < N; c += run)                                               \
                        memcpy(Bm + (b * K + g * E + e) * N + c,                                   \
                               tmp[e] + blgp_lane(op->blgp, N * b + N * NB * g + c),               \
                               (size_t)run * sizeof(T));                                           \
    } while (0)

/* f8f6f4 operands (CDNA4 ISA 7.1.5.1 layout tables): each lane holds 32 elements of one row of
 * A (column of B).  FP4/FP6/BF6 elements are 32 consecutive k: k = 32*g + e for lane group
 * g = lane / M.  FP8/BF8 elements are two runs of 16 consecutive k (registers 0-3, 4-7), the
 * lane groups interleaved within each run: k = 16*G*(e/16) + 16*g + e%16, G = 64/M groups.
 * Element (r, k) is scaled by sc[lane r + M*(k/32)] and stored at out[r*rs + k*ks]. */
AI void place_f8f6f4(const float (*tmp)[LANES], int M, int fmt, const float *sc, float *out, int rs,
                     int ks) {
    int G = 64 / M;
    for (int l = 0; l < LANES; l++) {
        int r = l % M, g = l / M;
        for (int h = 0; h < 2; h++) { /* elements 16h..16h+15 are 16 consecutive k from k0 */
            int k0 = fmt >= MF_FP6 ? 32 * g + 16 * h : 16 * G * h + 16 * g;
            float s = sc[r + M * (k0 / 32)];
            float *o = out + r * rs + k0 * ks;
            for (int e = 0; e < 16; e++)
                o[e * ks] = tmp[16 * h + e][l] * s;
        }
    }
}

/* Walk the C/D layout by rows: row i of block b is the N consecutive lanes l0.. of register r
 * (r counts from the tuple's first register). */
#define FOR_ROWS(wide, ...)                                                                        \
    do {                                                                                           \
        /* every size is a power of two: shifts, not divisions (this runs per MFMA) */             \
        int M_ = d->m, N_ = d->n, mpr = 64 / N_, lh = (wide) ? 0 : 2;                              \
        int lm = lh + 6 - __builtin_ctz((unsigned)N_);                                             \
        int G = (wide) ? (M_ * N_ >= 64 ? 1 : 64 / (M_ * N_))                                      \
                       : (M_ * N_ >= 256 ? 1 : 256 / (M_ * N_));                                   \
        for (int b = 0; b < d->nb; b++)                                                            \
            for (int i = 0; i < M_; i++) {                                                         \
                int r = b * (M_ * N_ / 64) + ((i >> lm) << lh) + (i & ((1 << lh) - 1));            \
                int l0 = N_ * (b & (G - 1)) + G * N_ * ((i >> lh) & (mpr - 1));                    \
                __VA_ARGS__;                                                                       \
            }                                                                                      \
    } while (0)
/* ... and by elements: (block b, row i, column j) is register r, lane l; at is the element's
 * offset in the row-major D array. */
#define FOR_CD(wide, BODY)                                                                         \
    FOR_ROWS(                                                                                      \
        wide, for (int j = 0; j < d->n; j++) {                                                     \
            int l = l0 + j, at = (b * d->m + i) * d->n + j;                                        \
            BODY;                                                                                  \
        })

/* D[i][j] = C[i][j] + sum over s of A[i][s] * B[kof ? kof[i][s] : s][j], s ascending with one
 * fmaf per step (the order docs/mfma.md defines), R (2 or 4) rows at a time: each row stays in a
 * local accumulator of N (a constant at every call) floats, so the j loop is a few vector registers
 * and the R rows give the FMA units independent chains; in the dense case they share one B
 * row.  Row (b, i) of C and D is crow/drow[i]: N consecutive lanes of one register (FOR_ROWS),
 * or a row of a staging array; C and D are the same or disjoint.  A[i][s] is acol[s][i * ai]
 * (acol[s] is k-slot s of rows 0.. where the unpacked registers hold it, ai = 1, or a column of
 * a row-major array, ai = S), row k of B is brow[k].  M is a multiple of 4 for every shape. */
static inline __attribute__((always_inline)) void
mm_rows(int R, int M, int N, int S, const float *const *acol, int ai, const u8 *kof,
        const float *const *brow, const void *const *crow, void *const *drow) {
    for (int i = 0; i < M; i += R) {
        float acc[4][32];
        for (int r = 0; r < R; r++)
            memcpy(acc[r], crow[i + r], (size_t)N * 4);
        for (int s = 0; s < S; s++) {
            const float *b[4];
            float av[4];
            for (int r = 0; r < R; r++) {
                av[r] = acol[s][(i + r) * ai];
                b[r] = brow[kof ? kof[(i + r) * S + s] : s];
            }
            for (int j = 0; j < N; j++)
                for (int r = 0; r < R; r++)
                    acc[r][j] = fmaf(av[r], b[r][j], acc[r][j]);
        }
        for (int r = 0; r < R; r++)
            memcpy(drow[i + r], acc[r], (size_t)N * 4);
    }
}

/* mm_rows() for block b with constant R and N, and the common cases' A stride (1) and dense B
 * (no kof) as constants too, so that their loops carry no index arithmetic. */
#define MM_ROWS(R, N)                                                                              \
    do {                                                                                           \
        const void *const *cr_ = crow + b * M;                                                     \
        void *const *dr_ = drow + b * M;                                                           \
        if (kof)                                                                                   \
            mm_rows(R, M, N, S, acol, ai, kof, brow, cr_, dr_);                                    \
        else if (ai == 1)                                                                          \
            mm_rows(R, M, N, S, acol, 1, NULL, brow, cr_, dr_);                                    \
        else                                                                                       \
            mm_rows(R, M, N, S, acol, ai, NULL, brow, cr_, dr_);                                   \
    } while (0)

/* Whether D can be written row by row while C is read row by row: C is D itself, or the two
 * register ranges do not overlap (a constant C was broadcast into a temporary). */
static int cd_rows_ok(const xinst *x, unsigned nrc, int sparse) {
    const isa_opnd *c = &x->in.src[2], *dd = &x->in.dst[0];
    if (sparse || (c->kind != ISA_OPND_VGPR && c->kind != ISA_OPND_AGPR) || c->kind != dd->kind)
        return 1;
    return c->idx == dd->idx || c->idx + nrc <= dd->idx || dd->idx + nrc <= c->idx;
}

static inline __attribute__((always_inline)) void mm_i32(int M, int N, int S, const i32 *a,
                                                         const u8 *kof, const i32 *bm, i32 *dm) {
    for (int i = 0; i < M; i++) {
        u32 acc[32];
        memcpy(acc, dm + i * N, (size_t)N * 4);
        for (int s = 0; s < S; s++) {
            u32 av = (u32)a[i * S + s];
            const i32 *bk = bm + (kof ? kof[i * S + s] : s) * N;
            for (int j = 0; j < N; j++) /* 32-bit wrap-around, as the hardware adder */
                acc[j] += av * (u32)bk[j];
        }
        memcpy(dm + i * N, acc, (size_t)N * 4);
    }
}

/* SMFMAC: src2 holds 2 index bits per stored A value of the lane.  With CBSZ[1:0] = 0, ABID
 * picks which set of index bits of the register this instruction uses (*isel: its first bit). */
static const u32 *sparse_index(wave *w, const xinst *x, const mop *op, u32 (*tmp)[LANES],
                               int *isel) {
    int setbits = 2 * op->sa, nsets = 32 / setbits;
    *isel = (x->in.f.v.cbsz & 3) == 0 ? setbits * (x->in.f.v.abid % nsets) : 0;
    return src_regs(w, x, 2, 1, tmp, 0)[0];
}

/* The A block that block b reads under CBSZ/ABID: block ABID of each group of 2^CBSZ blocks. */
static inline int a_block(const mop *op, int b) {
    int nb = op->d->nb;
    return (((b >> op->cbsz) << op->cbsz) + op->abid) % nb;
}

/* ---- whole-instruction fast path ------------------------------------------------------------
 * The MFMAs GEMM and attention kernels run (one block, f16/bf16/fp8/bf8 A and B, no BLGP, no
 * negation, no FP16_OVFL, C a register tuple that is D or disjoint from it, or a constant) in the
 * four shapes 32x32x8, 16x16x16 (gfx942/gfx950) and 32x32x16, 16x16x32 (gfx950 f16/bf16; both fp8
 * shapes), as one function per shape with M, N, K constants.  The arithmetic is the generic path's:
 * D[i][j] = C[i][j] + sum over k ascending of A[i][k] * B[k][j], one fmaf per step, so the
 * results are bit-identical (tests/exec/test_mfma.c compares both with mfma_ref.h).  What it
 * saves is the generic path's set-up: A and B are unpacked once into k-major float rows
 * (A[i][k] of one k is M consecutive floats, B[k][j] N of them, as the input layout already
 * has them), and each group of C rows is loaded into vector registers, multiplied through all
 * K and stored as D with no staging (a C/D row is N consecutive lanes of one register).
 *
 * Three builds of the product: AVX-512 (16 zmm accumulators: 8 rows of 32 or 16 rows of 16),
 * AVX2+FMA (12 ymm accumulators: 6 rows of 16) and portable C; the one the CPU supports is chosen
 * once (the environment variable GFXEMU_MFMA_ISA=avx512|avx2|generic|off overrides it, for tests
 * and measurements: off sends every MFMA to the generic path). */

/* C/D row i of a one-block 32-bit MxN tile: register 4*(i / (4*(64/N))) + i%4, lanes from
 * N*((i/4) % (64/N)) (the layout at the top of the file with b = 0). */
#define CD_REG(N, i) (4 * ((i) / (4 * (64 / (N)))) + (i) % 4)
#define CD_LANE(N, i) ((N) * (((i) / 4) % (64 / (N))))

/* The product of one tile in portable C.  ub[e]: element e of every lane, converted, so
 * B[k][j] = ub[k%E][N*(k/E) + j]; A likewise when AS = 1, and with AS = 2 (f16) ua holds the
 * registers' halves in memory order, element pair p of lane l at ua[p][2l], ua[p][2l+1]
 * (vcvtph2ps straight from the register file), so A[i][k] is A_COL(k)[2i]. */
#define A_COL(ua, M, E, AS, k)                                                                     \
    ((const float *)(ua) + LANES * (AS) * ((k) % (E) / (AS)) + (AS) * (M) * ((k) / (E)) +          \
     (k) % (E) % (AS))
AI void mmk_c(const int M, const int N, const int K, const int AS, const float (*ua)[LANES],
              const float (*ub)[LANES], const u32 (*RC)[LANES], u32 (*RD)[LANES],
              const u32 (*RB)[LANES], int bt) {
    const int E = K * M / 64, R = 4;
    (void)RB, (void)bt; /* B is always in ub here */
    for (int i0 = 0; i0 < M; i0 += R) {
        float acc[4][32];
        for (int r = 0; r < R; r++)
            memcpy(acc[r], RC[CD_REG(N, i0 + r)] + CD_LANE(N, i0 + r), (size_t)N * 4);
        for (int k = 0; k < K; k++) {
            const float *a = A_COL(ua, M, E, AS, k) + AS * i0, *b = ub[k % E] + N * (k / E);
            for (int r = 0; r < R; r++)
                for (int j = 0; j < N; j++)
                    acc[r][j] = fmaf(a[AS * r], b[j], acc[r][j]);
        }
        for (int r = 0; r < R; r++)
            memcpy(RD[CD_REG(N, i0 + r)] + CD_LANE(N, i0 + r), acc[r], (size_t)N * 4);
    }
}

#if MFMA_X86
/* The same with vectors of W floats and NACC accumulators: rows of N/W vectors, R rows at a
 * time, so the R*(N/W) chains of FMAs are independent (FMA latency x 2 pipes needs >= 8). */
#define MMK_SIMD(name, tgt, VT, W, NACC, LOAD, STORE, SET1, FMADD)                                 \
    __attribute__((target(tgt))) AI void name(const int M, const int N, const int K, const int AS, \
                                              const float (*ua)[LANES], const float (*ub)[LANES],  \
                                              const u32(*RC)[LANES], u32(*RD)[LANES],              \
                                              const u32(*RB)[LANES], int bt) {                     \
        const int E = K * M / 64, V = N / W, R = NACC / V < M ? NACC / V : M;                      \
        (void)RB, (void)bt; /* B is always in ub here */                                           \
        for (int i0 = 0; i0 < M; i0 += R) {                                                        \
            VT acc[NACC];                                                                          \
            for (int r = 0; r < R; r++)                                                            \
                for (int v = 0; v < V; v++)                                                        \
                    acc[r * V + v] =                                                               \
                        LOAD((const float *)(RC[CD_REG(N, i0 + r)] + CD_LANE(N, i0 + r)) + v * W); \
            _Pragma("GCC unroll 32") for (int k = 0; k < K; k++) {                                 \
                const float *a = A_COL(ua, M, E, AS, k) + AS * i0, *b = ub[k % E] + N * (k / E);   \
                /* keeps each step's A loads in the step: GCC otherwise hoists all K*R             \
                 * broadcasts of a fully unrolled 16x16 tile and spills them */                    \
                __asm__ volatile("" ::: "memory");                                                 \
                VT bv[4];                                                                          \
                for (int v = 0; v < V; v++)                                                        \
                    bv[v] = LOAD(b + v * W);                                                       \
                for (int r = 0; r < R; r++) {                                                      \
                    VT av = SET1(a[AS * r]);                                                       \
                    for (int v = 0; v < V; v++)                                                    \
                        acc[r * V + v] = FMADD(av, bv[v], acc[r * V + v]);                         \
                }                                                                                  \
            }                                                                                      \
            for (int r = 0; r < R; r++)                                                            \
                for (int v = 0; v < V; v++)                                                        \
                    STORE((float *)(RD[CD_REG(N, i0 + r)] + CD_LANE(N, i0 + r)) + v * W,           \
                          acc[r * V + v]);                                                         \
        }                                                                                          \
    }
MMK_SIMD(mmk_avx512_acc, "arch=x86-64-v4", __m512, 16, 16, _mm512_loadu_ps, _mm512_storeu_ps,
         _mm512_set1_ps, _mm512_fmadd_ps)
/* AVX-512, N = 32: 8 C/D rows (16 accumulators) at a time, A[i][k] broadcast by the FMA's
 * own memory operand ({1to16}) instead of a vbroadcastss into a register.  GCC does not fold a
 * broadcast that two FMAs use (each row has 2 vectors), and with the 16 B vectors of a
 * 32x32x8 in registers (one load each instead of one per 8 rows) the 16 accumulators leave no
 * register for it; hence the instruction in asm.  Same single-rounding FMA as
 * _mm512_fmadd_ps.  A 32x32x8's product ran at about 0.80 of the native FMA loop in the
 * MMK_SIMD form; a stand-alone loop over this form reached 0.98 (docs/perf.md, session 12). */
#define FMA_BCAST(acc, b, p)                                                                       \
    __asm__("vfmadd231ps %2%{1to16%}, %1, %0" : "+v"(acc) : "v"(b), "m"(*(p)))
__attribute__((target("arch=x86-64-v4"))) AI void
mmk_avx512_n32(const int M, const int K, const int AS, const float (*ua)[LANES],
               const float (*ub)[LANES], const u32 (*RC)[LANES], u32 (*RD)[LANES],
               const u32 (*RB)[LANES], int bt) {
    enum { N = 32, R = 8 };
    const int E = K * M / 64, BREG = K == 8;
    __m512 bv[8][2];
    if (BREG && bt >= 0) /* 16-bit B straight from its registers, as pair_avx512 converts it */
        for (int p = 0; p < E / 2; p++)
            for (int c = 0; c < 4; c++) { /* lanes 16c..: k = 2p + 4(c / 2), v = c % 2 */
                __m512i x = _mm512_loadu_si512((const void *)(RB[p] + 16 * c));
                __m512 lo, hi;
                if (bt) {
                    lo = _mm512_castsi512_ps(_mm512_slli_epi32(x, 16));
                    hi = _mm512_castsi512_ps(
                        _mm512_and_si512(x, _mm512_set1_epi32((int)0xffff0000u)));
                } else {
                    lo = _mm512_cvtph_ps(_mm512_cvtepi32_epi16(x));
                    hi = _mm512_cvtph_ps(_mm512_cvtepi32_epi16(_mm512_srli_epi32(x, 16)));
                }
                bv[2 * p + E * (c / 2)][c % 2] = lo;
                bv[2 * p + 1 + E * (c / 2)][c % 2] = hi;
            }
    else if (BREG)
        for (int k = 0; k < K; k++)
            for (int v = 0; v < 2; v++)
                bv[k][v] = _mm512_loadu_ps(ub[k % E] + N * (k / E) + 16 * v);
    _Pragma("GCC unroll 4") for (int i0 = 0; i0 < M; i0 += R) {
        __m512 acc[R][2];
        for (int r = 0; r < R; r++)
            for (int v = 0; v < 2; v++)
                acc[r][v] = _mm512_loadu_ps(
                    (const float *)(RC[CD_REG(N, i0 + r)] + CD_LANE(N, i0 + r)) + 16 * v);
        _Pragma("GCC unroll 16") for (int k = 0; k < K; k++) {
            const float *a = A_COL(ua, M, E, AS, k) + AS * i0;
            __m512 b0, b1;
            if (BREG)
                b0 = bv[k][0], b1 = bv[k][1];
            else
                b0 = _mm512_loadu_ps(ub[k % E] + N * (k / E)),
                b1 = _mm512_loadu_ps(ub[k % E] + N * (k / E) + 16);
            for (int r = 0; r < R; r++) {
                FMA_BCAST(acc[r][0], b0, a + AS * r);
                FMA_BCAST(acc[r][1], b1, a + AS * r);
            }
        }
        for (int r = 0; r < R; r++)
            for (int v = 0; v < 2; v++)
                _mm512_storeu_ps((float *)(RD[CD_REG(N, i0 + r)] + CD_LANE(N, i0 + r)) + 16 * v,
                                 acc[r][v]);
    }
}
/* Each shape on its own: inlined into the one big fast-path function, GCC interleaved the row
 * groups and spilled the accumulators. */
#define MMK512_N32(M, K, AS)                                                                       \
    __attribute__((target("arch=x86-64-v4"), noinline)) static void mmk512_##M##x##K##_##AS(       \
        const float (*ua)[LANES], const float (*ub)[LANES], const u32(*RC)[LANES],                 \
        u32(*RD)[LANES], const u32(*RB)[LANES], int bt) {                                          \
        mmk_avx512_n32(M, K, AS, ua, ub, RC, RD, RB, bt);                                          \
    }
MMK512_N32(32, 8, 1)
MMK512_N32(32, 8, 2)
MMK512_N32(32, 16, 1)
MMK512_N32(32, 16, 2)
/* AVX-512, N = 16 with bf16 A and B: all 16 C/D rows in accumulators, and each step's B vector
 * made from B's register as pair_avx512 converts it (register e / 2 of element e = k % E, its
 * half e % 2 by a shift or an and, lanes 16 (k / E) on) instead of through ub: a 16x16x16's B
 * otherwise went through 16 stores and 16 loads of stack (5% of one in bench-ops).  The same
 * FMAs in the same order as mmk_avx512_acc.  For f16 B the conversion inside the loop (vpmovdw,
 * vcvtph2ps: port 5, which the FMAs use too) made a 16x16x16 6% slower, so f16 keeps ub. */
__attribute__((target("arch=x86-64-v4"))) AI void
mmk_avx512_bf16_n16(const int K, const float (*ua)[LANES], const u32 (*RC)[LANES], u32 (*RD)[LANES],
                    const u32 (*RB)[LANES]) {
    enum { M = 16, N = 16 };
    const int E = K * M / 64;
    __m512 acc[M];
    for (int r = 0; r < M; r++)
        acc[r] = _mm512_loadu_ps((const float *)(RC[CD_REG(N, r)] + CD_LANE(N, r)));
    _Pragma("GCC unroll 32") for (int k = 0; k < K; k++) {
        const float *a = A_COL(ua, M, E, 1, k);
        const int e = k % E;
        __m512i x = _mm512_loadu_si512((const void *)(RB[e / 2] + 16 * (k / E)));
        __m512 b =
            _mm512_castsi512_ps(e % 2 ? _mm512_and_si512(x, _mm512_set1_epi32((int)0xffff0000u))
                                      : _mm512_slli_epi32(x, 16));
        for (int r = 0; r < M; r++)
            FMA_BCAST(acc[r], b, a + r);
    }
    for (int r = 0; r < M; r++)
        _mm512_storeu_ps((float *)(RD[CD_REG(N, r)] + CD_LANE(N, r)), acc[r]);
}
/* one function per shape (K a constant), as MMK512_N32 */
#define MMK512_BF16_N16(K)                                                                         \
    __attribute__((target("arch=x86-64-v4"), noinline)) static void mmk512_bf16_16x##K(            \
        const float (*ua)[LANES], const u32(*RC)[LANES], u32(*RD)[LANES], const u32(*RB)[LANES]) { \
        mmk_avx512_bf16_n16(K, ua, RC, RD, RB);                                                    \
    }
MMK512_BF16_N16(16)
MMK512_BF16_N16(32)

/* bf16 products on hosts with AVX512_BF16: vdpbf16ps does two of a lane's fused multiply-adds
 * per instruction, at the rate of one vfmadd231ps (one per cycle on Zen 4: twice the
 * multiply-accumulates).  Its definition (Intel SDM, VDPBF16PS) is
 *   acc += a.bf16[2i+1] * b.bf16[2i+1];  acc += a.bf16[2i] * b.bf16[2i]
 * per f32 lane i, each step one fused multiply-add rounded to nearest even, with bf16 inputs
 * and the f32 results denormal-flushed (DAZ, FTZ).  A bf16 MFMA's A and B registers hold
 * elements k and k + 1 of one lane in the low and high halves of a dword (k even), so after
 * swapping the halves (vprold 16) one instruction is the reference's steps k then k + 1: the
 * same fused multiply-adds in the same order.  That Zen 4 computes exactly this was checked
 * against fmaf on 32 M random lanes (docs/perf.md, session 33).
 *
 * The flushing is the one difference, so the path runs only where it cannot happen (dp_ab_ok,
 * dp_c_ok): every A and B element zero or with |x| in [2^-55, 2^57) (no denormal, infinity or
 * NaN), every C element zero or with |c| in [2^-102, 2^121).  Then each product is zero or a
 * multiple of 2^-124 (two 8-bit significands, exponents >= -55), and C a multiple of 2^-125, so
 * every partial sum is a multiple of 2^-125: zero or at least 2^-125, never denormal, and it cannot
 * overflow (|product| < 2^114, at most 32 of them and C: < 2^122).  Anything else takes the
 * FMA path (mfma_fast_avx512), which gives the same bits there. */
/* The window test keeps the magnitudes' largest value and smallest nonzero one (the smallest of
 * m - 1: zero wraps to the largest) per 16-bit or 32-bit element, with no compare until the
 * end: compares into mask registers per vector were a third more instructions, and most of the
 * test's time.  bf16 pairs: every element below biased exponent 184 and the nonzero ones from
 * 72; f32: below 248 and the nonzero ones from 25. */
typedef struct {
    __m512i mx, mn;
} dp_range;
__attribute__((target("arch=x86-64-v4,avx512bf16"))) AI dp_range dp_range_new(void) {
    dp_range g = {_mm512_setzero_si512(), _mm512_set1_epi32(-1)};
    return g;
}
__attribute__((target("arch=x86-64-v4,avx512bf16"))) AI void dp_add16(dp_range *g, __m512i x) {
    x = _mm512_and_si512(x, _mm512_set1_epi16(0x7fff));
    g->mx = _mm512_max_epu16(g->mx, x);
    g->mn = _mm512_min_epu16(g->mn, _mm512_sub_epi16(x, _mm512_set1_epi16(1)));
}
__attribute__((target("arch=x86-64-v4,avx512bf16"))) AI void dp_add32(dp_range *g, __m512i x) {
    x = _mm512_and_si512(x, _mm512_set1_epi32(0x7fffffff));
    g->mx = _mm512_max_epu32(g->mx, x);
    g->mn = _mm512_min_epu32(g->mn, _mm512_sub_epi32(x, _mm512_set1_epi32(1)));
}
__attribute__((target("arch=x86-64-v4,avx512bf16"))) AI int dp_in16(dp_range g) {
    return !_mm512_cmpge_epu16_mask(g.mx, _mm512_set1_epi16(184 << 7)) &&
           !_mm512_cmplt_epu16_mask(g.mn, _mm512_set1_epi16((72 << 7) - 1));
}
__attribute__((target("arch=x86-64-v4,avx512bf16"))) AI int dp_in32(dp_range g) {
    return !_mm512_cmpge_epu32_mask(g.mx, _mm512_set1_epi32(248 << 23)) &&
           !_mm512_cmplt_epu32_mask(g.mn, _mm512_set1_epi32((25 << 23) - 1));
}
/* n rows of bf16 pairs (an operand), of f32 (C) in the window */
__attribute__((target("arch=x86-64-v4,avx512bf16"))) AI int dp_ab_ok(const u32 (*P)[LANES],
                                                                     unsigned n) {
    dp_range g = dp_range_new();
    for (unsigned r = 0; r < n; r++)
        for (int c = 0; c < 4; c++)
            dp_add16(&g, _mm512_loadu_si512((const void *)(P[r] + 16 * c)));
    return dp_in16(g);
}
__attribute__((target("arch=x86-64-v4,avx512bf16"))) AI int dp_c_ok(const u32 (*RC)[LANES],
                                                                    unsigned n) {
    dp_range g = dp_range_new();
    for (unsigned r = 0; r < n; r++)
        for (int c = 0; c < 4; c++)
            dp_add32(&g, _mm512_loadu_si512((const void *)(RC[r] + 16 * c)));
    return dp_in32(g);
}
/* acc += A pair (a dword, broadcast) . b, one vdpbf16ps with a {1to16} memory operand */
#define DP_BCAST(acc, b, p) __asm__("vdpbf16ps %2%{1to16%}, %1, %0" : "+v"(acc) : "v"(b), "m"(*(p)))
/* One MxMxK tile (M = N = 16 or 32) by dot products: R rows at a time as mmk_avx512_n32 and
 * mmk_avx512_bf16_n16 do, pair k/2 of each step from row (k % E) / 2 of PA and PB, lanes from
 * M * (k / E) (the layout at the top of the file).  PA and PB hold the bf16 pairs as
 * vdpbf16ps takes them: element k in the high half, k + 1 in the low (dp_swap, dp_pack). */
__attribute__((target("arch=x86-64-v4,avx512bf16"))) AI int
mmk_dp(const int M, const int K, const u32 (*PA)[LANES], const u32 (*PB)[LANES],
       const u32 (*RC)[LANES], u32 (*RD)[LANES]) {
    const int N = M, E = K * M / 64, V = N / 16, R = M == 16 ? 16 : 8;
    _Pragma("GCC unroll 4") for (int i0 = 0; i0 < M; i0 += R) {
        __m512 acc[16];
        for (int r = 0; r < R; r++)
            for (int v = 0; v < V; v++)
                acc[r * V + v] = _mm512_loadu_ps(
                    (const float *)(RC[CD_REG(N, i0 + r)] + CD_LANE(N, i0 + r)) + 16 * v);
        if (M == 16) { /* all of C is in acc: its window test here, before anything is stored
                        * (32x32: the caller's dp_c_ok) */
            dp_range g = dp_range_new();
            for (int r = 0; r < 16; r++)
                dp_add32(&g, _mm512_castps_si512(acc[r]));
            if (!dp_in32(g))
                return 0;
        }
        _Pragma("GCC unroll 16") for (int k = 0; k < K; k += 2) {
            const int e = k % E, q = k / E;
            __m512 b[2];
            for (int v = 0; v < V; v++)
                b[v] = _mm512_castsi512_ps(
                    _mm512_load_si512((const void *)(PB[e / 2] + N * q + 16 * v)));
            for (int r = 0; r < R; r++)
                for (int v = 0; v < V; v++)
                    DP_BCAST(acc[r * V + v], b[v], &PA[e / 2][i0 + r + M * q]);
        }
        for (int r = 0; r < R; r++)
            for (int v = 0; v < V; v++)
                _mm512_storeu_ps((float *)(RD[CD_REG(N, i0 + r)] + CD_LANE(N, i0 + r)) + 16 * v,
                                 acc[r * V + v]);
    }
    return 1;
}
/* n bf16 operand registers with their halves swapped into o (element k, the low half, goes
 * high); whether they are in the window */
__attribute__((target("arch=x86-64-v4,avx512bf16"))) AI int dp_swap(const u32 (*R)[LANES], int n,
                                                                    u32 (*o)[LANES]) {
    dp_range g = dp_range_new();
    for (int r = 0; r < n; r++)
        for (int c = 0; c < 4; c++) {
            __m512i x = _mm512_rol_epi32(_mm512_loadu_si512((const void *)(R[r] + 16 * c)), 16);
            _mm512_store_si512((void *)(o[r] + 16 * c), x);
            dp_add16(&g, x);
        }
    return dp_in16(g);
}
/* An fp8/bf8 operand's elements, converted to float (f[e]: element e of every lane), as bf16
 * pairs: every fp8 and bf8 value is a bf16 exactly (at most 3 significand bits, exponents
 * -17..15, infinities and NaNs), so the float's high half is it.  Row p holds elements 2p (high
 * half) and 2p + 1. */
__attribute__((target("arch=x86-64-v4,avx512bf16"))) AI void dp_pack(const float (*f)[LANES], int n,
                                                                     u32 (*o)[LANES]) {
    const __m512i hi = _mm512_set1_epi32((int)0xffff0000u);
    for (int p = 0; p < n; p++)
        for (int c = 0; c < 4; c++) {
            __m512i k0 = _mm512_loadu_si512((const void *)(f[2 * p] + 16 * c));
            __m512i k1 = _mm512_loadu_si512((const void *)(f[2 * p + 1] + 16 * c));
            _mm512_store_si512((void *)(o[p] + 16 * c), _mm512_or_si512(_mm512_and_si512(k0, hi),
                                                                        _mm512_srli_epi32(k1, 16)));
        }
}
#define MMKDP(M, K)                                                                                \
    __attribute__((target("arch=x86-64-v4,avx512bf16"), noinline)) static int mmkdp_##M##x##K(     \
        const u32(*RA)[LANES], const u32(*RB)[LANES], const u32(*RC)[LANES], u32(*RD)[LANES]) {    \
        return mmk_dp(M, K, RA, RB, RC, RD);                                                       \
    }
MMKDP(16, 16)
MMKDP(16, 32)
MMKDP(32, 8)
MMKDP(32, 16)
__attribute__((target("arch=x86-64-v4"))) AI void
mmk_avx512(const int M, const int N, const int K, const int AS, const float (*ua)[LANES],
           const float (*ub)[LANES], const u32 (*RC)[LANES], u32 (*RD)[LANES],
           const u32 (*RB)[LANES], int bt) {
    if (N == 32)
        (K == 8 ? (AS == 1 ? mmk512_32x8_1 : mmk512_32x8_2)
                : (AS == 1 ? mmk512_32x16_1 : mmk512_32x16_2))(ua, ub, RC, RD, RB, bt);
    else if (bt == 1) /* bf16 (B_DIRECT_512) */
        (K == 16 ? mmk512_bf16_16x16 : mmk512_bf16_16x32)(ua, RC, RD, RB);
    else
        mmk_avx512_acc(M, N, K, AS, ua, ub, RC, RD, RB, bt);
}
/* AVX2: R (at most 6) rows of D times 16 columns from c0: 12 ymm accumulators, the two B
 * vectors of a step in registers and one for the broadcast A element (15 of the 16); per step
 * 2 B loads and R broadcasts for 2R FMAs, and 12 independent chains (the form with 8
 * accumulators, 2 rows of 32, folded its 4 B loads into each row's FMAs: 1.25 loads an FMA,
 * 8 chains). */
__attribute__((target("arch=x86-64-v3"))) AI void
mmk_avx2_rows(const int M, const int N, const int K, const int AS, const int i0, const int R,
              const int c0, const float (*ua)[LANES], const float (*ub)[LANES],
              const u32 (*RC)[LANES], u32 (*RD)[LANES]) {
    const int E = K * M / 64;
    __m256 acc[6][2];
    for (int r = 0; r < R; r++)
        for (int v = 0; v < 2; v++)
            acc[r][v] = _mm256_loadu_ps(
                (const float *)(RC[CD_REG(N, i0 + r)] + CD_LANE(N, i0 + r)) + c0 + 8 * v);
    _Pragma("GCC unroll 32") for (int k = 0; k < K; k++) {
        const float *a = A_COL(ua, M, E, AS, k) + AS * i0, *b = ub[k % E] + N * (k / E) + c0;
        __asm__ volatile("" ::: "memory"); /* as in MMK_SIMD */
        const __m256 b0 = _mm256_loadu_ps(b), b1 = _mm256_loadu_ps(b + 8);
        for (int r = 0; r < R; r++) {
            const __m256 av = _mm256_broadcast_ss(a + AS * r);
            acc[r][0] = _mm256_fmadd_ps(av, b0, acc[r][0]);
            acc[r][1] = _mm256_fmadd_ps(av, b1, acc[r][1]);
        }
    }
    for (int r = 0; r < R; r++)
        for (int v = 0; v < 2; v++)
            _mm256_storeu_ps((float *)(RD[CD_REG(N, i0 + r)] + CD_LANE(N, i0 + r)) + c0 + 8 * v,
                             acc[r][v]);
}
/* One function per shape and A form, as MMK512_N32: inlined, all eight made the fast path's
 * function 55 KB (34 KB with the 8-accumulator form), and gemm_bf16_16 1-4% slower. */
#define MMK2(M, K, AS)                                                                             \
    __attribute__((target("arch=x86-64-v3"), noinline)) static void mmk2_##M##x##K##_##AS(         \
        const float (*ua)[LANES], const float (*ub)[LANES], const u32(*RC)[LANES],                 \
        u32(*RD)[LANES]) {                                                                         \
        mmk_avx2_tile(M, K, AS, ua, ub, RC, RD);                                                   \
    }
__attribute__((target("arch=x86-64-v3"))) AI void
mmk_avx2_tile(const int M, const int K, const int AS, const float (*ua)[LANES],
              const float (*ub)[LANES], const u32 (*RC)[LANES], u32 (*RD)[LANES]) {
    const int N = M;
    for (int c0 = 0; c0 < N; c0 += 16) {
        int i0 = 0; /* rows 6 at a time, the last 8 or 4 as groups of 4 (8 chains, not 4) */
        for (; M - i0 > 8; i0 += 6)
            mmk_avx2_rows(M, N, K, AS, i0, 6, c0, ua, ub, RC, RD);
        for (; i0 < M; i0 += 4)
            mmk_avx2_rows(M, N, K, AS, i0, 4, c0, ua, ub, RC, RD);
    }
}
MMK2(16, 16, 1)
MMK2(16, 16, 2)
MMK2(16, 32, 1)
MMK2(16, 32, 2)
MMK2(32, 8, 1)
MMK2(32, 8, 2)
MMK2(32, 16, 1)
MMK2(32, 16, 2)
__attribute__((target("arch=x86-64-v3"))) AI void mmk_avx2(const int M, const int N, const int K,
                                                           const int AS, const float (*ua)[LANES],
                                                           const float (*ub)[LANES],
                                                           const u32 (*RC)[LANES], u32 (*RD)[LANES],
                                                           const u32 (*RB)[LANES], int bt) {
    (void)N, (void)RB, (void)bt; /* N = M; B is always in ub here */
    if (M == 16)
        (K == 16 ? (AS == 1 ? mmk2_16x16_1 : mmk2_16x16_2)
                 : (AS == 1 ? mmk2_16x32_1 : mmk2_16x32_2))(ua, ub, RC, RD);
    else
        (K == 8 ? (AS == 1 ? mmk2_32x8_1 : mmk2_32x8_2)
                : (AS == 1 ? mmk2_32x16_1 : mmk2_32x16_2))(ua, ub, RC, RD);
}
#endif

/* Both 16-bit elements of one register of 64 lanes, converted to float (lo: bits 15:0, hi:
 * bits 31:16): f16 exactly (F16C's vcvtph2ps in the x86 builds; a signalling NaN comes out
 * quiet, as the products make it anyway: see half_lanes_f16c) or bf16 (a shift). */
AI void pair_c(const u32 *r, int bf, float *lo, float *hi) {
    if (bf) {
        VLOOP(l) lo[l] = f32(r[l] << 16), hi[l] = f32(r[l] & 0xffff0000u);
    } else {
        VLOOP(l) lo[l] = half(r[l] & 0xffff), hi[l] = half(r[l] >> 16);
    }
}
#if MFMA_X86
__attribute__((target("arch=x86-64-v4"))) AI void pair_avx512(const u32 *r, int bf, float *lo,
                                                              float *hi) {
    for (int l = 0; l < LANES; l += 16) {
        __m512i x = _mm512_loadu_si512((const void *)(r + l));
        if (bf) {
            _mm512_storeu_ps(lo + l, _mm512_castsi512_ps(_mm512_slli_epi32(x, 16)));
            _mm512_storeu_ps(hi + l, _mm512_castsi512_ps(
                                         _mm512_and_si512(x, _mm512_set1_epi32((int)0xffff0000u))));
        } else { /* vpmovdw keeps the low 16 bits of each lane */
            _mm512_storeu_ps(lo + l, _mm512_cvtph_ps(_mm512_cvtepi32_epi16(x)));
            _mm512_storeu_ps(hi + l,
                             _mm512_cvtph_ps(_mm512_cvtepi32_epi16(_mm512_srli_epi32(x, 16))));
        }
    }
}
__attribute__((target("arch=x86-64-v3"))) AI void pair_avx2(const u32 *r, int bf, float *lo,
                                                            float *hi) {
    const __m256i m = _mm256_set1_epi32(0xffff);
    for (int l = 0; l < LANES; l += 16) {
        __m256i a = _mm256_loadu_si256((const __m256i *)(const void *)(r + l));
        __m256i b = _mm256_loadu_si256((const __m256i *)(const void *)(r + l + 8));
        if (bf) {
            const __m256i hm = _mm256_set1_epi32((int)0xffff0000u);
            _mm256_storeu_ps(lo + l, _mm256_castsi256_ps(_mm256_slli_epi32(a, 16)));
            _mm256_storeu_ps(lo + l + 8, _mm256_castsi256_ps(_mm256_slli_epi32(b, 16)));
            _mm256_storeu_ps(hi + l, _mm256_castsi256_ps(_mm256_and_si256(a, hm)));
            _mm256_storeu_ps(hi + l + 8, _mm256_castsi256_ps(_mm256_and_si256(b, hm)));
            continue;
        }
        /* packus interleaves the 128-bit halves: a0-3 b0-3 a4-7 b4-7; the permute restores order */
        __m256i pl = _mm256_permute4x64_epi64(
            _mm256_packus_epi32(_mm256_and_si256(a, m), _mm256_and_si256(b, m)), 0xd8);
        __m256i ph = _mm256_permute4x64_epi64(
            _mm256_packus_epi32(_mm256_srli_epi32(a, 16), _mm256_srli_epi32(b, 16)), 0xd8);
        _mm256_storeu_ps(lo + l, _mm256_cvtph_ps(_mm256_castsi256_si128(pl)));
        _mm256_storeu_ps(lo + l + 8, _mm256_cvtph_ps(_mm256_extracti128_si256(pl, 1)));
        _mm256_storeu_ps(hi + l, _mm256_cvtph_ps(_mm256_castsi256_si128(ph)));
        _mm256_storeu_ps(hi + l + 8, _mm256_cvtph_ps(_mm256_extracti128_si256(ph, 1)));
    }
}
#endif

/* One register of f16 pairs (64 lanes) as 128 floats in memory order, o[2l + h] = half h of
 * lane l (the A operand's AS = 2 form). */
AI void ilv_c(const u32 *r, float *o) {
    VLOOP(l) o[2 * l] = half(r[l] & 0xffff), o[2 * l + 1] = half(r[l] >> 16);
}
#if MFMA_X86
__attribute__((target("arch=x86-64-v4"))) AI void ilv_avx512(const u32 *r, float *o) {
    for (int c = 0; c < 2 * LANES; c += 16)
        _mm512_storeu_ps(o + c, _mm512_cvtph_ps(_mm256_loadu_si256((const void *)(r + c / 2))));
}
__attribute__((target("arch=x86-64-v3"))) AI void ilv_avx2(const u32 *r, float *o) {
    for (int c = 0; c < 2 * LANES; c += 8)
        _mm256_storeu_ps(o + c, _mm256_cvtph_ps(_mm_loadu_si128((const void *)(r + c / 2))));
}
#endif

/* An fp8 (E4M3) or bf8 (E5M2) code as float, exactly, without the table (a lookup per element
 * does not vectorise): OCP formats on gfx950, FNUZ (bias one higher, 0x80 the only NaN, no inf
 * or -0) on gfx942 (docs/mfma.md).  Normals move their fields into an f32 and scale it by
 * 2^(127-bias); denormals are m * 2^(1-bias-mb); then OCP E4M3's NaN (S.1111.111) and OCP
 * E5M2's inf and NaNs (exponent 31).  Equal to fpf_decode() for all 256 codes of the four
 * formats (test_mfma.c checks them all through the fast path). */
AI float f8val(u32 b, int bf8, int fnuz) {
    const int mb = bf8 ? 2 : 3, bias = (bf8 ? 15 : 7) + fnuz;
    u32 mag = b & 0x7fu, sign = (b & 0x80u) << 24;
    u32 is_den = -(u32)(mag >> mb == 0);
    /* the denormal case's lane gets an exponent bit here so that no denormal is multiplied:
     * its product is not used */
    u32 nrm = bf32(f32((mag << (23 - mb)) | (is_den & 0x00800000u)) * f32((u32)(254 - bias) << 23));
    u32 den = bf32((float)(int)mag * f32((u32)(128 - bias - mb) << 23));
    u32 v = ((den & is_den) | (nrm & ~is_den)) | sign;
    u32 inf = 0, nan;
    if (fnuz)
        nan = -(u32)(b == 0x80u);
    else if (bf8)
        inf = -(u32)(mag == 0x7cu), nan = -(u32)(mag > 0x7cu);
    else
        nan = -(u32)(mag == 0x7fu);
    v = (v & ~inf) | (inf & (0x7f800000u | sign));
    return f32((v & ~nan) | (nan & 0x7fc00000u));
}

/* The 8-bit element at bit sh of 64 lanes, converted: f8val() per lane (portable build). */
#define F8LOOP(o, r, sh, bf8, fnuz) VLOOP(l)(o)[l] = f8val(((r)[l] >> (sh)) & 0xff, bf8, fnuz)
AI void f8_c(const u32 *r, int sh, int bf8, int fnuz, float *o) {
    if (bf8 && fnuz)
        F8LOOP(o, r, sh, 1, 1);
    else if (bf8)
        F8LOOP(o, r, sh, 1, 0);
    else if (fnuz)
        F8LOOP(o, r, sh, 0, 1);
    else
        F8LOOP(o, r, sh, 0, 0);
}
AI void f8x4_c(const u32 *r, int bf8, int fnuz, float (*o)[LANES]) {
    for (int q = 0; q < 4; q++)
        f8_c(r, 8 * q, bf8, fnuz, o[q]);
}
#if MFMA_X86
/* ... and through F16C, exactly: an OCP bf8 code is the high byte of the f16 of the same
 * value; an fp8 code's fields moved to f16 bits (S.0EEEE.MMM0000000) are the value times 2^-8
 * (OCP) or 2^-7 (FNUZ), denormals included, so one power-of-two multiply restores it; then the
 * NaN codes.  FNUZ bf8 (exponent 31 is finite there) keeps f8val(). */
__attribute__((target("arch=x86-64-v4"))) AI void f8_avx512(const u32 *r, int sh, int bf8, int fnuz,
                                                            float *o) {
    if (bf8 && fnuz) {
        F8LOOP(o, r, sh, 1, 1);
        return;
    }
    const __m128i cnt = _mm_cvtsi32_si128(sh);
    const __m512i ff = _mm512_set1_epi32(0xff), m7f = _mm512_set1_epi32(0x7f);
    const __m512 scale = _mm512_set1_ps(fnuz ? 128.0f : 256.0f), nan = _mm512_set1_ps(NAN);
    for (int l = 0; l < LANES; l += 16) {
        __m512i b =
            _mm512_and_si512(_mm512_srl_epi32(_mm512_loadu_si512((const void *)(r + l)), cnt), ff);
        if (bf8) {
            _mm512_storeu_ps(o + l,
                             _mm512_cvtph_ps(_mm512_cvtepi32_epi16(_mm512_slli_epi32(b, 8))));
            continue;
        }
        __m512i mag = _mm512_and_si512(b, m7f);
        __m512i h = _mm512_or_si512(_mm512_slli_epi32(_mm512_xor_si512(b, mag), 8),
                                    _mm512_slli_epi32(mag, 7));
        __m512 f = _mm512_mul_ps(_mm512_cvtph_ps(_mm512_cvtepi32_epi16(h)), scale);
        __mmask16 isnan = fnuz ? _mm512_cmpeq_epi32_mask(b, _mm512_set1_epi32(0x80))
                               : _mm512_cmpeq_epi32_mask(mag, m7f);
        _mm512_storeu_ps(o + l, _mm512_mask_mov_ps(f, isnan, nan));
    }
}
__attribute__((target("arch=x86-64-v3"))) AI void f8_avx2(const u32 *r, int sh, int bf8, int fnuz,
                                                          float *o) {
    if (bf8 && fnuz) {
        F8LOOP(o, r, sh, 1, 1);
        return;
    }
    const __m128i cnt = _mm_cvtsi32_si128(sh);
    const __m256i ff = _mm256_set1_epi32(0xff), m7f = _mm256_set1_epi32(0x7f);
    const __m256 scale = _mm256_set1_ps(fnuz ? 128.0f : 256.0f), nan = _mm256_set1_ps(NAN);
    for (int l = 0; l < LANES; l += 8) {
        __m256i b = _mm256_and_si256(
            _mm256_srl_epi32(_mm256_loadu_si256((const __m256i *)(const void *)(r + l)), cnt), ff);
        __m256i mag = _mm256_and_si256(b, m7f);
        __m256i h = bf8 ? _mm256_slli_epi32(b, 8)
                        : _mm256_or_si256(_mm256_slli_epi32(_mm256_xor_si256(b, mag), 8),
                                          _mm256_slli_epi32(mag, 7));
        /* 8 lanes of 16-bit codes into one xmm: packus per 128-bit half, then the two low
         * quarters together */
        __m256i p = _mm256_permute4x64_epi64(_mm256_packus_epi32(h, h), 0x08);
        __m256 f = _mm256_cvtph_ps(_mm256_castsi256_si128(p));
        if (!bf8) {
            __m256i isnan = fnuz ? _mm256_cmpeq_epi32(b, _mm256_set1_epi32(0x80))
                                 : _mm256_cmpeq_epi32(mag, m7f);
            f = _mm256_blendv_ps(_mm256_mul_ps(f, scale), nan, _mm256_castsi256_ps(isnan));
        }
        _mm256_storeu_ps(o + l, f);
    }
}
/* All four codes of each lane of one register (o[q]: the code at bits 8q): the OCP formats
 * 16 lanes at a time with byte shuffles instead of a shift, a mask and a vpmovdw per code
 * (vpshufb puts code q of the 4 lanes of each 128-bit lane into the high bytes of words, two
 * codes per shuffle, and vpermq gathers each code's words from the 4 lanes), then the same
 * f16 bits, multiply and NaN codes as f8_avx512.  FNUZ (gfx942) keeps f8_avx512. */
__attribute__((target("arch=x86-64-v4"))) AI void f8x4_avx512(const u32 *r, int bf8, int fnuz,
                                                              float (*o)[LANES]) {
    if (fnuz) {
        for (int q = 0; q < 4; q++)
            f8_avx512(r, 8 * q, bf8, fnuz, o[q]);
        return;
    }
    const __m512i shuf[2] = {_mm512_broadcast_i32x4(_mm_setr_epi8(-1, 0, -1, 4, -1, 8, -1, 12, -1,
                                                                  1, -1, 5, -1, 9, -1, 13)),
                             _mm512_broadcast_i32x4(_mm_setr_epi8(-1, 2, -1, 6, -1, 10, -1, 14, -1,
                                                                  3, -1, 7, -1, 11, -1, 15))};
    const __m512i gather = _mm512_setr_epi64(0, 2, 4, 6, 1, 3, 5, 7);
    const __m512i m7f = _mm512_set1_epi16(0x7f00), mant = _mm512_set1_epi16(0x3f80),
                  sign = _mm512_set1_epi16((short)0x8000);
    const __m512 scale = _mm512_set1_ps(256.0f), nan = _mm512_set1_ps(NAN);
    for (int l = 0; l < LANES; l += 16) {
        __m512i x = _mm512_loadu_si512((const void *)(r + l));
        for (int p = 0; p < 2; p++) { /* codes 2p and 2p + 1: words 0-15 and 16-31 of w */
            __m512i w = _mm512_permutexvar_epi64(gather, _mm512_shuffle_epi8(x, shuf[p]));
            __mmask32 ok = ~(__mmask32)0;
            if (!bf8) { /* S.EEEE.MMM as S.0EEEE.MMM0000000; S.1111.111 is NaN */
                ok = _mm512_cmpneq_epi16_mask(_mm512_and_si512(w, m7f), m7f);
                w = _mm512_ternarylogic_epi32(
                    sign, w, _mm512_and_si512(_mm512_srli_epi16(w, 1), mant), 0xca);
            }
            __m512 f0 = _mm512_cvtph_ps(_mm512_castsi512_si256(w)),
                   f1 = _mm512_cvtph_ps(_mm512_extracti64x4_epi64(w, 1));
            if (!bf8) {
                f0 = _mm512_mask_mul_ps(nan, (__mmask16)ok, f0, scale);
                f1 = _mm512_mask_mul_ps(nan, (__mmask16)(ok >> 16), f1, scale);
            }
            _mm512_storeu_ps(o[2 * p] + l, f0);
            _mm512_storeu_ps(o[2 * p + 1] + l, f1);
        }
    }
}
__attribute__((target("arch=x86-64-v3"))) AI void f8x4_avx2(const u32 *r, int bf8, int fnuz,
                                                            float (*o)[LANES]) {
    for (int q = 0; q < 4; q++)
        f8_avx2(r, 8 * q, bf8, fnuz, o[q]);
}
#endif

/* Element e of every lane of a one-block operand (16- or 8-bit elements), converted to float
 * into o[e]; PAIR converts the two halves of a register of 16-bit elements, F8X4 the four
 * 8-bit codes of a register. */
#define UNPACK_FAST(PAIR, F8X4, R, E, t, fnuz, o)                                                  \
    do {                                                                                           \
        if ((t) == MT_F16 || (t) == MT_BF16) {                                                     \
            for (int e = 0; e < (E); e += 2)                                                       \
                PAIR((R)[e / 2], (t) == MT_BF16, (o)[e], (o)[e + 1]);                              \
        } else {                                                                                   \
            for (int e = 0; e < (E); e += 4) { /* constant formats inside F8X4 */                  \
                const u32 *r_ = (R)[e / 4];                                                        \
                if ((t) == MT_BF8)                                                                 \
                    (fnuz) ? F8X4(r_, 1, 1, (o) + e) : F8X4(r_, 1, 0, (o) + e);                    \
                else                                                                               \
                    (fnuz) ? F8X4(r_, 0, 1, (o) + e) : F8X4(r_, 0, 0, (o) + e);                    \
            }                                                                                      \
        }                                                                                          \
    } while (0)

/* Converted 8-bit operands, per host thread: a GEMM multiplies each A operand by several B
 * operands and each B by several A (an unrolled wave's block of MFMA tiles), and their fp8/bf8
 * conversion was 38% of a 16x16x32 fp8 MFMA.  An entry keeps an operand's registers as they
 * were converted (raw) and the floats; a lookup by register names the entry, and its contents
 * decide: equal registers give the stored floats, anything else converts anew (the register
 * only picks the entry).  The key also holds what else the floats depend on (element type,
 * FNUZ, register count) and the build (impl), so that a test that switches builds
 * (mfma_fast_force) runs each build's own conversion.  test_mfma.c test_f8_cache. */
typedef struct {
    float f[8][LANES];
    u32 raw[2][LANES];
    u32 key;
    /* the avx512bf16 build's form of the same values (dp_pack), made on its first use: bp_ok,
     * and bp_in whether they are all in the dot products' window */
    uint8_t bp_ok, bp_in;
    u32 bp[4][LANES] __attribute__((aligned(64)));
} __attribute__((aligned(64))) f8ent;
enum { F8C_N = 8 };
typedef struct {
    f8ent e[F8C_N];
    unsigned next; /* round-robin replacement */
} f8cache;
static _Thread_local f8cache f8c;
void mfma_fast_cache_clear(void) { memset(&f8c, 0, sizeof f8c); }

/* Source s (registers R, nr of them) of 8-bit type t as floats: *o points at the entry's rows,
 * which hold the conversion when this returns 0; when it returns 1 the caller converts into
 * *o (the entry, or its own rows for a source that is not a register tuple).  Entry `keep`
 * (the other operand's, -1: none) is not replaced; *slot is the entry used (-1: none). */
AI int f8_lookup(const xinst *x, int s, const u32 (*R)[LANES], unsigned nr, int t, int fnuz,
                 int impl, int keep, float (**o)[LANES], int *slot) {
    const isa_opnd *op = &x->in.src[s];
    *slot = -1;
    if (nr > 2 || (op->kind != ISA_OPND_VGPR && op->kind != ISA_OPND_AGPR))
        return 1;
    f8cache *c = &f8c;
    u32 key = 1u << 31 | (u32)(op->kind == ISA_OPND_AGPR) << 30 | (u32)impl << 28 | (u32)t << 24 |
              (u32)fnuz << 23 | nr << 20 | op->idx;
    int i = 0;
    u32 diff = 0;
    while (i < F8C_N && c->e[i].key != key)
        i++;
    if (i == F8C_N) { /* a new entry */
        i = (int)c->next == keep ? (int)(c->next + 1) % F8C_N : (int)c->next;
        c->next = (unsigned)(i + 1) % F8C_N;
        c->e[i].key = key;
        diff = 1;
    }
    /* compare and store in one pass: a miss leaves the entry holding R */
    u32(*raw)[LANES] = c->e[i].raw;
    for (unsigned r = 0; r < nr; r++)
        for (int l = 0; l < LANES; l++) {
            u32 v = R[r][l];
            diff |= raw[r][l] ^ v;
            raw[r][l] = v;
        }
    *o = c->e[i].f, *slot = i;
    if (diff)
        c->e[i].bp_ok = 0;
    return diff != 0;
}

/* One fast-path MFMA (fast_ok() said yes): unpack, then the shape's product with constant
 * M, N, K (MMK: mmk_avx512, mmk_avx2 or mmk_c).  BDIRECT(d): the build's product converts B
 * itself, straight from its registers (bt: 0 f16, 1 bf16; -1: B unpacked into ub). */
#define FAST_BODY(name, tgt, impl, MMK, PAIR, ILV, F8X4, BDIRECT)                                  \
    tgt static int name(wave *w, const xinst *x, const mdesc *d) {                                 \
        int fnuz = isa_targets[x->in.arch].fp8_fnuz, E = d->k * d->m / 64;                         \
        int bits = d->ta == MT_F16 || d->ta == MT_BF16 ? 16 : 8;                                   \
        unsigned nr = (unsigned)(E * bits / 32);                                                   \
        u32 ta[4][LANES], tb[4][LANES];                                                            \
        float ua[8][LANES], ub[8][LANES], (*pa)[LANES] = ua, (*pb)[LANES] = ub;                    \
        const u32(*RA)[LANES] = src_regs(w, x, 0, nr, ta, 0);                                      \
        const u32(*RB)[LANES] = src_regs(w, x, 1, nr, tb, 0);                                      \
        int f16 = d->ta == MT_F16; /* then A goes straight from F16C into the AS = 2 form */       \
        int bt = BDIRECT(d) ? d->tb == MT_BF16 : -1;                                               \
        if (bits == 8) { /* both 8-bit (FAST_DESC): through the cache */                           \
            int sa, sb;                                                                            \
            if (f8_lookup(x, 0, RA, nr, d->ta, fnuz, impl, -1, &pa, &sa))                          \
                UNPACK_FAST(PAIR, F8X4, RA, E, d->ta, fnuz, pa);                                   \
            if (f8_lookup(x, 1, RB, nr, d->tb, fnuz, impl, sa, &pb, &sb))                          \
                UNPACK_FAST(PAIR, F8X4, RB, E, d->tb, fnuz, pb);                                   \
        } else {                                                                                   \
            if (f16)                                                                               \
                for (int p = 0; p < E / 2; p++)                                                    \
                    ILV(RA[p], ua[2 * p]);                                                         \
            else                                                                                   \
                UNPACK_FAST(PAIR, F8X4, RA, E, d->ta, fnuz, ua);                                   \
            if (bt < 0)                                                                            \
                UNPACK_FAST(PAIR, F8X4, RB, E, d->tb, fnuz, ub);                                   \
        }                                                                                          \
        u32 tc[16][LANES]; /* C when not a register tuple (an inline 0 starts a tile's sum) */     \
        const u32(*RC)[LANES] = src_regs(w, x, 2, (unsigned)(d->m * d->n / 64), tc, 0);            \
        u32(*RD)[LANES] = dst_regs(w, x);                                                          \
        const float (*a_)[LANES] = (const float (*)[LANES])pa,                                     \
                    (*b_)[LANES] = (const float (*)[LANES])pb;                                     \
        if (f16)                                                                                   \
            FAST_SHAPES(MMK, 2);                                                                   \
        else                                                                                       \
            FAST_SHAPES(MMK, 1);                                                                   \
        return 1;                                                                                  \
    }
#define FAST_SHAPES(MMK, AS)                                                                       \
    do {                                                                                           \
        if (d->m == 32 && d->k == 8)                                                               \
            MMK(32, 32, 8, AS, a_, b_, RC, RD, RB, bt);                                            \
        else if (d->m == 32)                                                                       \
            MMK(32, 32, 16, AS, a_, b_, RC, RD, RB, bt);                                           \
        else if (d->k == 16)                                                                       \
            MMK(16, 16, 16, AS, a_, b_, RC, RD, RB, bt);                                           \
        else                                                                                       \
            MMK(16, 16, 32, AS, a_, b_, RC, RD, RB, bt);                                           \
    } while (0)
#define B_IN_UB(d) 0
FAST_BODY(mfma_fast_c, , 0, mmk_c, pair_c, ilv_c, f8x4_c, B_IN_UB)
#if MFMA_X86
/* 32x32x8 (16-bit elements only): mmk_avx512_n32 keeps all of B in registers; 16x16 shapes
 * with bf16 B: mmk_avx512_bf16_n16 converts B from its registers */
#define B_DIRECT_512(d) (((d)->m == 32 && (d)->k == 8) || ((d)->m == 16 && (d)->tb == MT_BF16))
FAST_BODY(mfma_fast_avx512, __attribute__((target("arch=x86-64-v4"))), 2, mmk_avx512, pair_avx512,
          ilv_avx512, f8x4_avx512, B_DIRECT_512)
FAST_BODY(mfma_fast_avx2, __attribute__((target("arch=x86-64-v3"))), 1, mmk_avx2, pair_avx2,
          ilv_avx2, f8x4_avx2, B_IN_UB)
/* AVX-512 with AVX512_BF16: bf16 or fp8/bf8 A and B inside the window by dot products
 * (mmk_dp; fp8/bf8 through the conversion cache, shared with mfma_fast_avx512, then as bf16),
 * everything else (f16, values outside the window) as mfma_fast_avx512. */
/* MFMAs the dot products ran on this thread (tests: mfma_fast_dp_count; a shared counter's
 * locked add cost as much as the window check) */
static _Thread_local uint64_t n_dp;
/* An 8-bit operand's bf16 pairs (f its floats, from cache entry `slot`, -1: none): the entry's,
 * packed and checked on the first use, or packed into own; NULL when outside the window. */
__attribute__((target("arch=x86-64-v4,avx512bf16"))) AI const
u32 (*dp_f8(int slot, float (*f)[LANES], int n, u32 (*own)[LANES])) [LANES] {
    if (slot < 0) {
        dp_pack((const float (*)[LANES])f, n, own);
        return dp_ab_ok((const u32(*)[LANES])own, (unsigned)n) ? (const u32(*)[LANES])own : NULL;
    }
    f8ent *e = &f8c.e[slot];
    if (!e->bp_ok) {
        dp_pack((const float (*)[LANES])f, n, e->bp);
        e->bp_in = (uint8_t)dp_ab_ok((const u32(*)[LANES])e->bp, (unsigned)n);
        e->bp_ok = 1;
    }
    return e->bp_in ? (const u32(*)[LANES])e->bp : NULL;
}
/* 8-bit operands straight into bf16 pairs (AVX512_VBMI hosts): every fp8/bf8 code is a bf16
 * exactly (dp_pack), so a byte lookup in two 128-entry tables (the high and low bytes of the
 * magnitude's bf16, built from f8val) and the code's sign bit give it, and one byte permute
 * per pair row puts elements k (high half) and k + 1 (low) of each lane together: no floats
 * stored and packed again, and no conversion cache to compare against (a GEMM's unrolled step
 * reads each operand twice, so half its lookups missed and converted anyway; the cache stays
 * for the other builds and the FMA path).  Every finite code is inside the window (2^-17 <= |x|
 * <= 57344; dp_f8_build checks each), so the only test is for the codes that are NaN or inf:
 * (code & bad_m) == bad_v.  Format f: 2 bf8 + fnuz.  gemm_fp8_16 41.3 -> 34.6 ms. */
typedef struct {
    uint8_t hi[4][128] __attribute__((aligned(64))), lo[4][128] __attribute__((aligned(64)));
    /* pair row p's bytes of dword j: the low and high byte of code 2p + 1, then of code 2p (64 +
     * i: byte i of the high bytes) */
    uint8_t pick[2][64] __attribute__((aligned(64)));
    uint8_t bad_m[4], bad_v[4];
    int ok; /* the tables are built and every finite code is in the window */
} dp_f8_tables;
static dp_f8_tables dp_f8t;
static void dp_f8_build(void) {
    int ok = 1;
    for (int p = 0; p < 2; p++)
        for (int j = 0; j < 16; j++) {
            uint8_t *b = &dp_f8t.pick[p][4 * j], c1 = (uint8_t)(4 * j + 2 * p + 1);
            b[0] = c1, b[1] = (uint8_t)(64 + c1), b[2] = (uint8_t)(c1 - 1),
            b[3] = (uint8_t)(63 + c1);
        }
    for (int f = 0; f < 4; f++) {
        int bf8 = f >> 1, fnuz = f & 1;
        dp_f8t.bad_m[f] = fnuz ? 0xff : bf8 ? 0x7c : 0x7f;
        dp_f8t.bad_v[f] = fnuz ? 0x80 : bf8 ? 0x7c : 0x7f;
        for (u32 m = 0; m < 128; m++) {
            u32 b = bf32(f8val(m, bf8, fnuz));
            dp_f8t.hi[f][m] = (uint8_t)(b >> 24);
            dp_f8t.lo[f][m] = (uint8_t)(b >> 16);
        }
        /* every code as dp_f8_rows takes it, against f8val: the bad ones exactly the NaNs and
         * infinities; the others the same bf16 (exact), zero or in [2^-55, 2^57) */
        for (u32 code = 0; code < 256; code++) {
            u32 b = bf32(f8val(code, bf8, fnuz)), e = b >> 23 & 0xff, m = code & 0x7f;
            int bad = (code & dp_f8t.bad_m[f]) == dp_f8t.bad_v[f];
            u32 got = ((dp_f8t.hi[f][m] | (code & 0x80)) << 8 | dp_f8t.lo[f][m]) << 16;
            if (bad != (e == 255) || (!bad && (got != b || ((b << 1) && (e < 72 || e >= 184)))))
                ok = 0;
        }
    }
    dp_f8t.ok = ok;
}
__attribute__((target("arch=x86-64-v4,avx512bf16,avx512vbmi"), noinline)) static int
dp_f8_rows(const u32 (*R)[LANES], unsigned nr, int f, u32 (*o)[LANES]) {
    const __m512i th0 = _mm512_load_si512((const void *)dp_f8t.hi[f]),
                  th1 = _mm512_load_si512((const void *)(dp_f8t.hi[f] + 64)),
                  tl0 = _mm512_load_si512((const void *)dp_f8t.lo[f]),
                  tl1 = _mm512_load_si512((const void *)(dp_f8t.lo[f] + 64)),
                  bm = _mm512_set1_epi8((char)dp_f8t.bad_m[f]),
                  bv = _mm512_set1_epi8((char)dp_f8t.bad_v[f]), sign = _mm512_set1_epi8(-128);
    const __m512i pick0 = _mm512_load_si512((const void *)dp_f8t.pick[0]),
                  pick1 = _mm512_load_si512((const void *)dp_f8t.pick[1]);
    __mmask64 bad = 0;
    for (unsigned r = 0; r < nr; r++)
        for (int c = 0; c < 4; c++) {
            __m512i x = _mm512_loadu_si512((const void *)(R[r] + 16 * c));
            bad |= _mm512_cmpeq_epi8_mask(_mm512_and_si512(x, bm), bv);
            __m512i h = _mm512_ternarylogic_epi32(_mm512_permutex2var_epi8(th0, x, th1), x, sign,
                                                  0xf8); /* | the sign */
            __m512i l = _mm512_permutex2var_epi8(tl0, x, tl1);
            _mm512_store_si512((void *)(o[2 * r] + 16 * c), _mm512_permutex2var_epi8(l, pick0, h));
            _mm512_store_si512((void *)(o[2 * r + 1] + 16 * c),
                               _mm512_permutex2var_epi8(l, pick1, h));
        }
    return !bad;
}
static int dp_f8_on; /* dp_f8_rows may run (fast_set: AVX512_VBMI, the tables ok) */
__attribute__((target("arch=x86-64-v4,avx512bf16"))) static int
mfma_fast_avx512bf16(wave *w, const xinst *x, const mdesc *d) {
    if (d->ta != MT_F16) { /* (then both bf16 or both 8-bit: FAST_DESC) */
        const int E = d->k * d->m / 64, np = E / 2;
        const unsigned nc = (unsigned)(d->m * d->n / 64);
        u32 ta[4][LANES], tb[4][LANES], tc[16][LANES];
        u32 pa[4][LANES] __attribute__((aligned(64))), pb[4][LANES] __attribute__((aligned(64)));
        const u32(*A)[LANES] = NULL, (*B)[LANES] = NULL;
        if (d->ta == MT_BF16) {
            if (dp_swap(src_regs(w, x, 0, (unsigned)np, ta, 0), np, pa) &&
                dp_swap(src_regs(w, x, 1, (unsigned)np, tb, 0), np, pb))
                A = (const u32(*)[LANES])pa, B = (const u32(*)[LANES])pb;
        } else if (dp_f8_on) {
            int fnuz = isa_targets[x->in.arch].fp8_fnuz;
            const unsigned nr = (unsigned)E / 4;
            if (dp_f8_rows(src_regs(w, x, 0, nr, ta, 0), nr, 2 * (d->ta == MT_BF8) + fnuz, pa) &&
                dp_f8_rows(src_regs(w, x, 1, nr, tb, 0), nr, 2 * (d->tb == MT_BF8) + fnuz, pb))
                A = (const u32(*)[LANES])pa, B = (const u32(*)[LANES])pb;
        } else {
            int fnuz = isa_targets[x->in.arch].fp8_fnuz, sa, sb;
            const unsigned nr = (unsigned)E / 4;
            const u32(*RA)[LANES] = src_regs(w, x, 0, nr, ta, 0);
            const u32(*RB)[LANES] = src_regs(w, x, 1, nr, tb, 0);
            float ua[8][LANES], ub[8][LANES], (*fa)[LANES] = ua, (*fb)[LANES] = ub;
            if (f8_lookup(x, 0, RA, nr, d->ta, fnuz, 2, -1, &fa, &sa))
                UNPACK_FAST(pair_avx512, f8x4_avx512, RA, E, d->ta, fnuz, fa);
            if (f8_lookup(x, 1, RB, nr, d->tb, fnuz, 2, sa, &fb, &sb))
                UNPACK_FAST(pair_avx512, f8x4_avx512, RB, E, d->tb, fnuz, fb);
            A = dp_f8(sa, fa, np, pa);
            B = A ? dp_f8(sb, fb, np, pb) : NULL;
        }
        const u32(*RC)[LANES] = src_regs(w, x, 2, nc, tc, 0);
        u32(*RD)[LANES] = dst_regs(w, x);
        /* C's window: 16x16 shapes test it in mmk_dp, 32x32 ones before (four row groups) */
        if (A && B &&
            (d->m == 16
                 ? (d->k == 16 ? mmkdp_16x16 : mmkdp_16x32)(A, B, RC, RD)
                 : dp_c_ok(RC, nc) && (d->k == 8 ? mmkdp_32x8 : mmkdp_32x16)(A, B, RC, RD))) {
            n_dp++;
            return 0; /* (in the window: no NaN or infinity in, none out) */
        }
    }
    return mfma_fast_avx512(w, x, d);
}
/* Whether this CPU's vdpbf16ps is the two fused multiply-adds mmk_dp relies on (high halves,
 * then low halves, each rounded), checked against fmaf on 2048 lanes of in-window values with
 * spread exponents: the low-first order and a single rounding of the pair each give other bits
 * in 94 and 91 of these lanes.  A CPU that computed it another way keeps the AVX-512 build. */
__attribute__((target("arch=x86-64-v4,avx512bf16"))) static int dp_selftest(void) {
    uint64_t st = 0x9e3779b97f4a7c15ull;
    for (int it = 0; it < 128; it++) {
        u32 a[16], b[16], c[16], d[16];
        for (int l = 0; l < 16; l++) {
            u32 h[4];
            for (int j = 0; j < 4; j++) { /* bf16: random sign and mantissa, exponent 100..154 */
                st = st * 6364136223846793005ull + 1442695040888963407ull;
                h[j] = (u32)(st >> 33 & 0x807f) | (u32)(100 + (st >> 40) % 55) << 7;
            }
            a[l] = h[0] | h[1] << 16;
            b[l] = h[2] | h[3] << 16;
            st = st * 6364136223846793005ull + 1442695040888963407ull;
            c[l] = (u32)(st >> 32 & 0x807fffffu) | (u32)(90 + (st >> 24) % 70) << 23;
        }
        __m512 acc = _mm512_loadu_ps((const float *)c);
        __m512i x = _mm512_loadu_si512((const void *)a), y = _mm512_loadu_si512((const void *)b);
        __asm__("vdpbf16ps %2, %1, %0" : "+v"(acc) : "v"(x), "v"(y));
        _mm512_storeu_ps((float *)d, acc);
        for (int l = 0; l < 16; l++) {
            float r = fmaf(f32(a[l] & 0xffff0000u), f32(b[l] & 0xffff0000u), f32(c[l]));
            r = fmaf(f32(a[l] << 16), f32(b[l] << 16), r);
            if (bf32(r) != d[l])
                return 0;
        }
    }
    return 1;
}
#endif

/* A build's fast path; returns 0 when D is known to hold no NaN (the dot products, which run
 * only on finite values in their window), else 1: nan_rule() must look. */
typedef int (*fast_fn)(wave *w, const xinst *x, const mdesc *d);
/* Never called: the value of fast_impl when the fast path is off. */
static int fast_off(wave *w, const xinst *x, const mdesc *d) {
    return (void)w, (void)x, (void)d, 1;
}
static fast_fn fast_impl; /* set once by fast_pick() (NULL: not yet) */
static pthread_once_t fast_once = PTHREAD_ONCE_INIT;
static const char *fast_name = "off";

/* Selects the build named by want (NULL or "": the CPU's best); never one past the CPU. */
static void fast_set(const char *want) {
    int lvl = 1; /* 4 avx512bf16, 3 avx512, 2 avx2, 1 generic, 0 off */
#if MFMA_X86
    __builtin_cpu_init();
    if (__builtin_cpu_supports("x86-64-v4"))
        lvl = __builtin_cpu_supports("avx512bf16") && dp_selftest() ? 4 : 3;
    else if (__builtin_cpu_supports("x86-64-v3"))
        lvl = 2;
    if (lvl == 4 && !dp_f8t.ok)
        dp_f8_build();
    dp_f8_on = dp_f8t.ok && __builtin_cpu_supports("avx512vbmi");
#endif
    if (want && *want) { /* an override may lower the level, never raise it past the CPU */
        int w = !strcmp(want, "avx512bf16") ? 4
                : !strcmp(want, "avx512")   ? 3
                : !strcmp(want, "avx2")     ? 2
                : !strcmp(want, "generic")  ? 1
                                            : 0;
        if (w < lvl)
            lvl = w;
    }
    static const char *const names[5] = {"off", "generic", "avx2", "avx512", "avx512bf16"};
    fast_name = names[lvl];
    fast_fn f = lvl == 1 ? mfma_fast_c : fast_off;
#if MFMA_X86
    if (lvl == 4)
        f = mfma_fast_avx512bf16;
    else if (lvl == 3)
        f = mfma_fast_avx512;
    else if (lvl == 2)
        f = mfma_fast_avx2;
#endif
    __atomic_store_n(&fast_impl, f, __ATOMIC_RELEASE);
}

static void fast_pick(void) { fast_set(getenv("GFXEMU_MFMA_ISA")); }

/* tests/exec/test_mfma.c runs every case under each build in one process (the host reference,
 * most of its time, computed once); not thread-safe against running waves, so tests only. */
const char *mfma_fast_force(const char *want) {
    pthread_once(&fast_once, fast_pick);
    fast_set(want);
    return fast_name;
}

uint64_t mfma_fast_dp_count(void) {
#if MFMA_X86
    return n_dp;
#else
    return 0;
#endif
}

/* Which build of the fast path runs ("avx512bf16", "avx512", "avx2", "generic" or "off"): tests
 * report it. */
const char *mfma_fast_isa(void) {
    pthread_once(&fast_once, fast_pick);
    return fast_name;
}

/* Whether the fast path takes this instruction of a FAST_DESC op: no BLGP pattern (CBSZ/ABID
 * mean nothing for one block), no negation, no FP16_OVFL clamp, C a register tuple that is D
 * or disjoint from it, or a constant or SGPR (broadcast as src_regs() does for every path). */
static inline int fast_ok(const wave *w, const xinst *x, const mdesc *d) {
    const isa_valu_fields *v = &x->in.f.v;
    if (v->blgp || v->neg || (w->mode >> 23 & 1))
        return 0;
    return cd_rows_ok(x, (unsigned)(d->m * d->n / 64), 0);
}

MFN static void mfma_float(wave *w, const xinst *x, const mop *op) {
    const mdesc *d = op->d;
    int K = d->k, fnuz = isa_targets[x->in.arch].fp8_fnuz, sparse = d->kind == MK_SPARSE;
    int S = sparse ? K / 2 : K;
    u32 ta[8][LANES], tb[8][LANES], tc[32][LANES], ti[1][LANES], tsa[1][LANES], tsb[1][LANES];
    float A[MMAX], Bm[MMAX], Dm[MMAX], tmp[32][LANES], tmpa[32][LANES];
    u8 kofb[MMAX], *kof = sparse ? kofb : NULL;
    const u32 *idx = NULL;
    int isel = 0, f8 = d->kind == MK_F8F6F4;
    unsigned nrc = (unsigned)(d->m * d->n * d->nb / 64);
    /* the common case: no C negation or overflow clamp, C and D disjoint or the same, so C/D
     * rows are used in place; without a BLGP pattern or B negation, B rows too */
    int fast = !op->negc && !op->ovfl && cd_rows_ok(x, nrc, sparse);
    int bdirect = !f8 && !op->blgp && !op->negb;
    unsigned nra = (unsigned)(op->sa * elem_bits(d->ta, op->fa) + 31) / 32;
    unsigned nrb = (unsigned)(op->sb * elem_bits(d->tb, op->fb) + 31) / 32;
    const u32(*RA)[LANES] = src_regs(w, x, 0, nra, ta, 0);
    const u32(*RB)[LANES] = src_regs(w, x, 1, nrb, tb, 0);
    if (sparse)
        idx = sparse_index(w, x, op, ti, &isel);
    const float *luta = lut_of(d->ta, op->fa, fnuz), *lutb = lut_of(d->tb, op->fb, fnuz);
    if (d->kind == MK_F8F6F4) {
        /* the scaled form applies an E8M0 scale per row (column) and 32-element K block: the
         * scale of A[i][k] is the byte op_sel/op_sel_hi pick in lane i + M*(k/32) of src3 */
        float one[LANES], sca[LANES], scb[LANES];
        const float *pa = NULL, *pb = NULL;
        if (x->in.nsrc >= 5) {
            int bya = (x->in.f.v.scale_opsel & 1) | (x->in.f.v.scale_opsel_hi & 1) << 1;
            int byb = (x->in.f.v.scale_opsel >> 1 & 1) | (x->in.f.v.scale_opsel_hi >> 1 & 1) << 1;
            const u32 *SA = src_regs(w, x, 3, 1, tsa, 0)[0], *SB = src_regs(w, x, 4, 1, tsb, 0)[0];
            for (int l = 0; l < LANES; l++) {
                sca[l] = lut[L_E8M0][(SA[l] >> (8 * bya)) & 0xff];
                scb[l] = lut[L_E8M0][(SB[l] >> (8 * byb)) & 0xff];
            }
            pa = sca, pb = scb;
        } else {
            for (int l = 0; l < LANES; l++)
                one[l] = 1.0f;
            pa = pb = one;
        }
        unpack_f(RA, 32, d->ta, elem_bits(d->ta, op->fa), luta, 0, tmp);
        place_f8f6f4(tmp, d->m, op->fa, pa, A, K, 1);
        unpack_f(RB, 32, d->tb, elem_bits(d->tb, op->fb), lutb, 0, tmp);
        place_f8f6f4(tmp, d->n, op->fb, pb, Bm, 1, d->n);
    } else {
        /* A stays in its unpacked form (the multiply reads it by the input layout); sparse ops
         * also need the dense k of each stored value */
        unpack_f(RA, op->sa, d->ta, elem_bits(d->ta, op->fa), luta, op->ftz, tmpa);
        if (kof) {
            int M = d->m, E = op->sa, S1 = E * (64 / M);
            for (int l = 0; l < LANES; l++) { /* 2-bit index: position inside its group of 4 */
                int i = l % M, g = l / M;
                for (int e = 0; e < E; e++)
                    kof[i * S1 + g * E + e] =
                        (u8)(2 * g * E + 4 * (e / 2) + ((idx[l] >> (isel + 2 * e)) & 3));
            }
        }
        if (bdirect) /* B is read where unpack_f leaves it (see the row pointers below) */
            unpack_f(RB, op->sb, d->tb, elem_bits(d->tb, op->fb), lutb, op->ftz, tmp);
        else
            GATHER_B(float, unpack_f, lutb);
    }
    if (op->nega) /* (LLVM accepts negation on the f64 ops only) */
        for (int e = 0; e < op->sa; e++)
            for (int l = 0; l < LANES; l++)
                tmpa[e][l] = -tmpa[e][l];
    if (op->negb)
        for (int e = 0; e < K * d->n * d->nb; e++)
            Bm[e] = -Bm[e];
    const u32(*RC)[LANES] =
        sparse ? (const u32(*)[LANES])dst_regs(w, x) : src_regs(w, x, 2, nrc, tc, 0);
    int negc = op->negc;
    int M = d->m, N = d->n;
    int le = __builtin_ctz((unsigned)op->sa), lstride = M * d->nb;
    /* C/D rows: in the registers (fast), else in Dm, staged with C's negation and read back
     * after the overflow clamp */
    const void *crow[64];
    void *drow[64];
    u32(*RD)[LANES] = dst_regs(w, x);
    if (fast) {
        FOR_ROWS(0, crow[b * M + i] = RC[r] + l0; drow[b * M + i] = RD[r] + l0);
    } else {
        FOR_CD(0, Dm[at] = negc ? -f32(RC[r][l]) : f32(RC[r][l]));
        for (int e = 0; e < M * d->nb; e++)
            crow[e] = drow[e] = Dm + e * N;
    }
    const float *brow[128]; /* K <= 128 for every MFMA/SMFMAC */
#if MFMA_X86
    int wide = __builtin_cpu_supports("avx512f");
#else
    int wide = 0;
#endif
    for (int b = 0; b < d->nb; b++) {
        const float *acol[128]; /* K <= 128 for every MFMA/SMFMAC */
        int ai;
        if (f8) { /* row-major (place_f8f6f4), one block */
            for (int s = 0; s < S; s++)
                acol[s] = A + s;
            ai = S;
        } else {
            /* k-slot s of rows i.. is lane lbase + i of element s % E in register group s / E
             * (CBSZ/ABID pick the block of A it reads) */
            int lbase = M * a_block(op, b);
            for (int s = 0; s < S; s++)
                acol[s] = tmpa[s & ((1 << le) - 1)] + lbase + lstride * (s >> le);
            ai = 1;
        }
        /* row k = g*E + e of block b: element e of lanes N*b + N*nb*g .. (GATHER_B) */
        int EB = op->sb;
        for (int k = 0; k < K; k++)
            brow[k] = bdirect ? tmp[k % EB] + N * b + N * d->nb * (k / EB) : Bm + (b * K + k) * N;
        /* four rows (8 accumulator registers for N = 32) where AVX-512 gives 32 of them,
         * else two (the 16 of AVX2 hold 2 x 32 floats and the operands) */
        if (wide && N == 32)
            MM_ROWS(4, 32);
        else if (N == 32)
            MM_ROWS(2, 32);
        else if (N == 16)
            MM_ROWS(4, 16);
        else
            MM_ROWS(4, 4);
    }
    if (fast)
        return;
    if (op->ovfl) /* an infinite result becomes +-max (also when an input was infinite) */
        for (int e = 0; e < M * N * d->nb; e++)
            if (isinf(Dm[e]))
                Dm[e] = copysignf(0x1.fffffep127f, Dm[e]);
    FOR_CD(0, RD[r][l] = bf32(Dm[at]));
}

MFN static void mfma_int(wave *w, const xinst *x, const mop *op) {
    const mdesc *d = op->d;
    int K = d->k, sparse = d->kind == MK_SPARSE, S = sparse ? K / 2 : K;
    u32 ta[4][LANES], tb[8][LANES], tc[32][LANES], ti[1][LANES];
    i32 A[MMAX], Bm[MMAX], Dm[MMAX], tmp[32][LANES];
    u8 kofb[MMAX], *kof = sparse ? kofb : NULL;
    const u32 *idx = NULL;
    int isel = 0;
    const u32(*RA)[LANES] = src_regs(w, x, 0, (unsigned)(op->sa + 3) / 4, ta, 0);
    const u32(*RB)[LANES] = src_regs(w, x, 1, (unsigned)(op->sb + 3) / 4, tb, 0);
    if (sparse)
        idx = sparse_index(w, x, op, ti, &isel);
    GATHER_A(i32, unpack_i, NULL);
    GATHER_B(i32, unpack_i, NULL);
    unsigned nrc = (unsigned)(d->m * d->n * d->nb / 64);
    const u32(*RC)[LANES] =
        sparse ? (const u32(*)[LANES])dst_regs(w, x) : src_regs(w, x, 2, nrc, tc, 0);
    int M = d->m, N = d->n;
    /* the products' sum S is exact in 32 bits (|S| < 2^22), so D = C + S computed once is the
     * hardware's wrapped sum, or its saturated sum under FP16_OVFL */
    memset(Dm, 0, sizeof(i32) * (size_t)(M * N * d->nb));
    for (int b = 0; b < d->nb; b++) {
        const i32 *ab = A + a_block(op, b) * M * S;
        const u8 *kb = kof ? kof + a_block(op, b) * M * S : NULL;
        i32 *db = Dm + b * M * N;
        const i32 *bb = Bm + b * K * N;
        if (N == 16)
            mm_i32(M, 16, S, ab, kb, bb, db);
        else if (N == 32)
            mm_i32(M, 32, S, ab, kb, bb, db);
        else
            mm_i32(M, 4, S, ab, kb, bb, db);
    }
    u32 cs[32 * LANES]; /* C, read before D is written */
    FOR_CD(0, cs[at] = RC[r][l]);
    int ovfl = op->ovfl;
    u32(*RD)[LANES] = dst_regs(w, x);
    FOR_CD(0, {
        i64 v = (i64)(i32)cs[at] + Dm[at];
        RD[r][l] = ovfl ? (u32)(i32)(v > INT32_MAX   ? INT32_MAX
                                     : v < INT32_MIN ? INT32_MIN
                                                     : v)
                        : cs[at] + (u32)Dm[at];
    });
}

/* f64: BLGP bits are the negate bits of A, B, C (the decoder stores them in neg); CBSZ/ABID are
 * ignored. */
MFN static void mfma_f64(wave *w, const xinst *x, const mop *op) {
    const mdesc *d = op->d;
    int K = d->k, M = d->m, N = d->n;
    u32 ta[2][LANES], tb[2][LANES], tc[8][LANES];
    double A[256], Bm[256], Dm[256];
    const u32(*RA)[LANES] = src_regs(w, x, 0, 2, ta, 1);
    const u32(*RB)[LANES] = src_regs(w, x, 1, 2, tb, 1);
    /* one element per lane: A[i][k] of block b in lane i + M*b + M*NB*k */
    for (int l = 0; l < LANES; l++) {
        int i = l % M, b = (l / M) % d->nb, k = l / (M * d->nb);
        double v = f64(RA[0][l] | (u64)RA[1][l] << 32);
        A[(b * M + i) * K + k] = op->nega ? -v : v;
        int j = l % N;
        double u = f64(RB[0][l] | (u64)RB[1][l] << 32);
        Bm[(b * K + k) * N + j] = op->negb ? -u : u;
    }
    const u32(*RC)[LANES] = src_regs(w, x, 2, (unsigned)(M * N * d->nb / 32), tc, 1);
    FOR_CD(1, {
        double c = f64(RC[2 * r][l] | (u64)RC[2 * r + 1][l] << 32);
        Dm[at] = op->negc ? -c : c;
    });
    for (int b = 0; b < d->nb; b++)
        for (int i = 0; i < M; i++)
            for (int k = 0; k < K; k++) {
                double av = A[(b * M + i) * K + k];
                for (int j = 0; j < N; j++)
                    Dm[(b * M + i) * N + j] =
                        fma(av, Bm[(b * K + k) * N + j], Dm[(b * M + i) * N + j]);
            }
    u32(*RD)[LANES] = dst_regs(w, x);
    FOR_CD(1, {
        u64 u = bf64(Dm[at]);
        RD[2 * r][l] = (u32)u;
        RD[2 * r + 1][l] = (u32)(u >> 32);
    });
}

/* Whether every register tuple of the instruction lies inside the 256-register files.  The
 * encoding can name tuples past v255/a255 (LLVM prints v[248:279]); they fault as illegal. */
static int regs_in_range(const xinst *x) {
    const isa_inst *in = &x->in;
    for (unsigned s = 0; s <= in->nsrc && s < 6; s++) {
        const isa_opnd *o = s < in->nsrc ? &in->src[s] : &in->dst[0];
        if ((o->kind == ISA_OPND_VGPR || o->kind == ISA_OPND_AGPR) && o->idx + o->n > 256)
            return 0;
    }
    return 1;
}

/* Fault notes for gfx90a's f64 MFMAs with a broadcast field set (see x_mfma). */
#define F64_NOTE(f, v)                                                                             \
    "gfx90a's f64 MFMAs have no documented " #f " semantics (CDNA2 ISA; " #f ":" #v " set)"
static const char *const f64_blgp_note[8] = {NULL,
                                             F64_NOTE(blgp, 1),
                                             F64_NOTE(blgp, 2),
                                             F64_NOTE(blgp, 3),
                                             F64_NOTE(blgp, 4),
                                             F64_NOTE(blgp, 5),
                                             F64_NOTE(blgp, 6),
                                             F64_NOTE(blgp, 7)};
static const char *const f64_cbsz_note[8] = {NULL,
                                             F64_NOTE(cbsz, 1),
                                             F64_NOTE(cbsz, 2),
                                             F64_NOTE(cbsz, 3),
                                             F64_NOTE(cbsz, 4),
                                             F64_NOTE(cbsz, 5),
                                             F64_NOTE(cbsz, 6),
                                             F64_NOTE(cbsz, 7)};
static const char *const f64_abid_note[16] = {NULL,
                                              F64_NOTE(abid, 1),
                                              F64_NOTE(abid, 2),
                                              F64_NOTE(abid, 3),
                                              F64_NOTE(abid, 4),
                                              F64_NOTE(abid, 5),
                                              F64_NOTE(abid, 6),
                                              F64_NOTE(abid, 7),
                                              F64_NOTE(abid, 8),
                                              F64_NOTE(abid, 9),
                                              F64_NOTE(abid, 10),
                                              F64_NOTE(abid, 11),
                                              F64_NOTE(abid, 12),
                                              F64_NOTE(abid, 13),
                                              F64_NOTE(abid, 14),
                                              F64_NOTE(abid, 15)};
#undef F64_NOTE

/* ---- NaN results -----------------------------------------------------------------------------
 * Every NaN an MFMA writes is the default NaN, f32 0xffc00000 (f64 0xfff8000000000000), whatever
 * the payloads and signs of the NaNs that made it and whichever build computed it.  The builds
 * sum the products in different groupings (pairs in the dot products, rows of tiles), and where
 * several NaNs meet, the host's FMA returns whichever operand came first, so without this the
 * same instruction gave different NaN bits on an AVX-512 host, an AVX2 host and the reference
 * tier.  **Choice** (docs/mfma.md): the manuals do not say which NaN the matrix cores return and
 * no hardware was measured; the default NaN is the one the vector ALU returns for an invalid
 * operation (docs/architecture.md, "NaN results").  Numeric results are untouched: the builds
 * agree on every non-NaN bit already (tests/exec/test_mfma.c).
 *
 * The test after each op is one unordered compare per two vectors of the destination (a NaN in
 * either sets the lane's mask bit); the rows are rewritten only when it finds one. */
#if MFMA_X86
__attribute__((target("avx512f"))) static int nan_any_avx512(const float *p, unsigned n) {
    __mmask16 m = 0;
    for (unsigned i = 0; i < n; i += 32)
        m |= _mm512_cmp_ps_mask(_mm512_loadu_ps(p + i), _mm512_loadu_ps(p + i + 16), _CMP_UNORD_Q);
    return m != 0;
}
__attribute__((target("avx2"))) static int nan_any_avx2(const float *p, unsigned n) {
    __m256 m = _mm256_setzero_ps();
    for (unsigned i = 0; i < n; i += 16)
        m = _mm256_or_ps(
            m, _mm256_cmp_ps(_mm256_loadu_ps(p + i), _mm256_loadu_ps(p + i + 8), _CMP_UNORD_Q));
    return _mm256_movemask_ps(m) != 0;
}
#endif
/* Whether the n dwords at p (a multiple of 32) hold an f32 NaN. */
static int nan_any(const u32 *p, unsigned n) {
#if MFMA_X86
    if (__builtin_cpu_supports("avx512f"))
        return nan_any_avx512((const float *)(const void *)p, n);
    if (__builtin_cpu_supports("avx2"))
        return nan_any_avx2((const float *)(const void *)p, n);
#endif
    u32 any = 0;
    for (unsigned i = 0; i < n; i++)
        any |= (p[i] & 0x7fffffffu) > 0x7f800000u;
    return any != 0;
}
/* The rule on instruction x's destination, which it has just written (nothing for i8 ops). */
static void nan_rule(wave *w, const xinst *x, const mdesc *d) {
    if (d->ta == MT_I8)
        return;
    u32(*RD)[LANES] = dst_regs(w, x), *p = RD[0];
    unsigned rows = (unsigned)(d->m * d->n * d->nb / 64);
    if (d->ta == MT_F64) { /* value r: low dword in row 2r, high dword in row 2r + 1 */
        for (unsigned r = 0; r < rows; r++)
            for (int l = 0; l < LANES; l++) {
                u32 hi = RD[2 * r + 1][l];
                if ((hi & 0x7ff00000u) == 0x7ff00000u && ((hi & 0xfffffu) | RD[2 * r][l]))
                    RD[2 * r][l] = 0, RD[2 * r + 1][l] = 0xfff80000u;
            }
        return;
    }
    if (!nan_any(p, rows * LANES))
        return;
    for (unsigned i = 0; i < rows * LANES; i++)
        if ((p[i] & 0x7fffffffu) > 0x7f800000u)
            p[i] = 0xffc00000u;
}

static void x_mfma(wave *w, const xinst *x) {
    const mdesc *d = &descs[x->in.op];
    const isa_valu_fields *v = &x->in.f.v;
    if (!regs_in_range(x)) {
        wave_fault(w, x, XF_ILLEGAL);
        return;
    }
    if (d->fast && !(x->xf & XI_REF)) { /* first, before the general path's set-up */
        fast_fn f = __atomic_load_n(&fast_impl, __ATOMIC_ACQUIRE);
        if (!f) {
            pthread_once(&fast_once, fast_pick);
            f = fast_impl;
        }
        if (f != fast_off && fast_ok(w, x, d)) {
            if (f(w, x, d))
                nan_rule(w, x, d);
            return;
        }
    }
    mop op = {.d = d, .blgp = v->blgp, .cbsz = v->cbsz, .abid = v->abid};
    op.nega = v->neg & 1;
    op.negb = v->neg >> 1 & 1;
    op.negc = v->neg >> 2 & 1;
    op.ftz = (d->ta == MT_F32 || d->ta == MT_XF32) && !(w->mode & 0x10);
    op.ovfl = (w->mode >> 23) & 1;
    if (d->nb == 1) /* a single block has nothing to broadcast */
        op.cbsz = op.abid = 0;
    if (d->kind == MK_F8F6F4) {
        op.fa = v->cbsz;
        op.fb = v->blgp;
        if (op.fa > MF_FP4 || op.fb > MF_FP4) { /* CBSZ/BLGP 5..7 name no format */
            wave_fault(w, x, XF_ILLEGAL);
            return;
        }
        op.cbsz = op.abid = op.blgp = 0;
    }
    if (d->kind == MK_SPARSE) /* CBSZ/ABID select index bits; BLGP is not used */
        op.cbsz = op.abid = op.blgp = 0;
    int per = 64 / (d->m * d->nb);
    op.sa = d->k / per / (d->kind == MK_SPARSE ? 2 : 1);
    op.sb = d->k / (64 / (d->n * d->nb));
    if (d->ta == MT_F64) {
        /* gfx940+ read the BLGP bits as neg (above).  On gfx90a LLVM encodes and prints
         * cbsz/abid/blgp for the f64 MFMAs, but neither the CDNA2 ISA manual nor AMD's matrix
         * instruction calculator (which refuses CBSZ, ABID, BLGP and NEG for
         * V_MFMA_F64_16X16X4F64 / V_MFMA_F64_4X4X4F64 on CDNA2) gives them a meaning: fault by
         * name with the field and its value, never a guess. */
        if (w->prog && w->prog->arch == ISA_GFX90A && (v->blgp || v->cbsz || v->abid)) {
            wave_fault(w, x, XF_UNIMPLEMENTED);
            w->fault.note = v->blgp   ? f64_blgp_note[v->blgp & 7]
                            : v->cbsz ? f64_cbsz_note[v->cbsz & 7]
                                      : f64_abid_note[v->abid & 15];
            return;
        }
        op.cbsz = op.abid = op.blgp = 0;
        mfma_f64(w, x, &op);
    } else if (d->ta == MT_I8)
        mfma_int(w, x, &op);
    else
        mfma_float(w, x, &op);
    if (w->status == WAVE_RUNNING)
        nan_rule(w, x, d);
}

/* x_mfma for an instruction x_mfma_pick() accepted: its build-time tests (registers in range,
 * a fast-path op with no BLGP or negation, C and D rows usable in place) are not repeated per
 * wave; what can change at run time (the build picked, FP16_OVFL) still is, and anything else
 * goes to x_mfma (which was 3.8% of an attention kernel's time with the tests in it). */
static void x_mfma_fast1(wave *w, const xinst *x) {
    fast_fn f = __atomic_load_n(&fast_impl, __ATOMIC_ACQUIRE);
    if (__builtin_expect(f != NULL && f != fast_off && !(w->mode >> 23 & 1), 1)) {
        if (f(w, x, &descs[x->in.op]))
            nan_rule(w, x, &descs[x->in.op]);
    } else
        x_mfma(w, x);
}

int x_mfma_plain(const xinst *x, unsigned rows[4]) {
    if (x->fn != x_mfma_fast1)
        return 0;
    const mdesc *d = &descs[x->in.op];
    int bits = d->ta == MT_F16 || d->ta == MT_BF16 ? 16 : 8;
    for (int i = 0; i < 3; i++) {
        unsigned k = x->in.src[i].kind;
        if (k != ISA_OPND_VGPR && k != ISA_OPND_AGPR && k != ISA_OPND_INLINE)
            return 0;
    }
    rows[0] = rows[1] = (unsigned)(d->k * d->m / 64 * bits / 32);
    rows[2] = rows[3] = (unsigned)(d->m * d->n / 64);
    return 1;
}

xfn x_mfma_pick(const xinst *x) {
    const mdesc *d = &descs[x->in.op];
    if (x->fn != x_mfma || !d->fast || (x->xf & XI_REF) || !regs_in_range(x) || x->in.f.v.blgp ||
        x->in.f.v.neg || !cd_rows_ok(x, (unsigned)(d->m * d->n / 64), 0))
        return x->fn;
    return x_mfma_fast1;
}

/* v_mfma_ld_scale_b32 on its own: the scale it loads is consumed only by a scaled MFMA directly
 * after it, and the decoder fuses that pair into one v_mfma_scale_* instruction; an unpaired
 * ld_scale has no architectural effect (CDNA4 ISA: the scale does not carry to other MFMAs). */
static void x_mfma_ld_scale(wave *w, const xinst *x) {
    (void)w;
    (void)x;
}

#define MH(op, type) XROW(op, type, x_mfma)
const xhandler x_mfma_handlers[] = {
    MH(v_mfma_f32_32x32x1_2b_f32, ISA_T_F32),
    MH(v_mfma_f32_16x16x1_4b_f32, ISA_T_F32),
    MH(v_mfma_f32_4x4x1_16b_f32, ISA_T_F32),
    MH(v_mfma_f32_32x32x2_f32, ISA_T_F32),
    MH(v_mfma_f32_16x16x4_f32, ISA_T_F32),
    MH(v_mfma_f32_16x16x8_xf32, ISA_T_F32),
    MH(v_mfma_f32_32x32x4_xf32, ISA_T_F32),
    MH(v_mfma_f32_32x32x4_2b_f16, ISA_T_F32),
    MH(v_mfma_f32_16x16x4_4b_f16, ISA_T_F32),
    MH(v_mfma_f32_4x4x4_16b_f16, ISA_T_F32),
    MH(v_mfma_f32_32x32x8_f16, ISA_T_F32),
    MH(v_mfma_f32_16x16x16_f16, ISA_T_F32),
    MH(v_mfma_f32_16x16x32_f16, ISA_T_F32),
    MH(v_mfma_f32_32x32x16_f16, ISA_T_F32),
    MH(v_mfma_f32_32x32x4_2b_bf16, ISA_T_F32),
    MH(v_mfma_f32_16x16x4_4b_bf16, ISA_T_F32),
    MH(v_mfma_f32_4x4x4_16b_bf16, ISA_T_F32),
    MH(v_mfma_f32_32x32x8_bf16, ISA_T_F32),
    MH(v_mfma_f32_16x16x16_bf16, ISA_T_F32),
    MH(v_mfma_f32_16x16x32_bf16, ISA_T_F32),
    MH(v_mfma_f32_32x32x16_bf16, ISA_T_F32),
    MH(v_mfma_i32_32x32x4_2b_i8, ISA_T_B32),
    MH(v_mfma_i32_16x16x4_4b_i8, ISA_T_B32),
    MH(v_mfma_i32_4x4x4_16b_i8, ISA_T_B32),
    MH(v_mfma_i32_32x32x16_i8, ISA_T_B32),
    MH(v_mfma_i32_16x16x32_i8, ISA_T_B32),
    MH(v_mfma_i32_16x16x64_i8, ISA_T_B32),
    MH(v_mfma_i32_32x32x32_i8, ISA_T_B32),
    MH(v_mfma_f64_16x16x4_f64, ISA_T_F64),
    MH(v_mfma_f64_4x4x4_4b_f64, ISA_T_F64),
    MH(v_mfma_f32_16x16x32_fp8_fp8, ISA_T_F32),
    MH(v_mfma_f32_16x16x32_fp8_bf8, ISA_T_F32),
    MH(v_mfma_f32_16x16x32_bf8_fp8, ISA_T_F32),
    MH(v_mfma_f32_16x16x32_bf8_bf8, ISA_T_F32),
    MH(v_mfma_f32_32x32x16_fp8_fp8, ISA_T_F32),
    MH(v_mfma_f32_32x32x16_fp8_bf8, ISA_T_F32),
    MH(v_mfma_f32_32x32x16_bf8_fp8, ISA_T_F32),
    MH(v_mfma_f32_32x32x16_bf8_bf8, ISA_T_F32),
    MH(v_mfma_f32_16x16x128_f8f6f4, ISA_T_F32),
    MH(v_mfma_f32_32x32x64_f8f6f4, ISA_T_F32),
    MH(v_mfma_scale_f32_16x16x128_f8f6f4, ISA_T_F32),
    MH(v_mfma_scale_f32_32x32x64_f8f6f4, ISA_T_F32),
    MH(v_smfmac_f32_16x16x32_f16, ISA_T_F32),
    MH(v_smfmac_f32_32x32x16_f16, ISA_T_F32),
    MH(v_smfmac_f32_16x16x64_f16, ISA_T_F32),
    MH(v_smfmac_f32_32x32x32_f16, ISA_T_F32),
    MH(v_smfmac_f32_16x16x32_bf16, ISA_T_F32),
    MH(v_smfmac_f32_32x32x16_bf16, ISA_T_F32),
    MH(v_smfmac_f32_16x16x64_bf16, ISA_T_F32),
    MH(v_smfmac_f32_32x32x32_bf16, ISA_T_F32),
    MH(v_smfmac_i32_16x16x64_i8, ISA_T_B32),
    MH(v_smfmac_i32_32x32x32_i8, ISA_T_B32),
    MH(v_smfmac_i32_16x16x128_i8, ISA_T_B32),
    MH(v_smfmac_i32_32x32x64_i8, ISA_T_B32),
    MH(v_smfmac_f32_16x16x64_fp8_fp8, ISA_T_F32),
    MH(v_smfmac_f32_16x16x64_fp8_bf8, ISA_T_F32),
    MH(v_smfmac_f32_16x16x64_bf8_fp8, ISA_T_F32),
    MH(v_smfmac_f32_16x16x64_bf8_bf8, ISA_T_F32),
    MH(v_smfmac_f32_32x32x32_fp8_fp8, ISA_T_F32),
    MH(v_smfmac_f32_32x32x32_fp8_bf8, ISA_T_F32),
    MH(v_smfmac_f32_32x32x32_bf8_fp8, ISA_T_F32),
    MH(v_smfmac_f32_32x32x32_bf8_bf8, ISA_T_F32),
    MH(v_smfmac_f32_16x16x128_fp8_fp8, ISA_T_F32),
    MH(v_smfmac_f32_16x16x128_fp8_bf8, ISA_T_F32),
    MH(v_smfmac_f32_16x16x128_bf8_fp8, ISA_T_F32),
    MH(v_smfmac_f32_16x16x128_bf8_bf8, ISA_T_F32),
    MH(v_smfmac_f32_32x32x64_fp8_fp8, ISA_T_F32),
    MH(v_smfmac_f32_32x32x64_fp8_bf8, ISA_T_F32),
    MH(v_smfmac_f32_32x32x64_bf8_fp8, ISA_T_F32),
    MH(v_smfmac_f32_32x32x64_bf8_bf8, ISA_T_F32),
    /* gfx90a */
    MH(v_mfma_f32_32x32x1f32, ISA_T_F32),
    MH(v_mfma_f32_16x16x1f32, ISA_T_F32),
    MH(v_mfma_f32_4x4x1f32, ISA_T_F32),
    MH(v_mfma_f32_32x32x2f32, ISA_T_F32),
    MH(v_mfma_f32_16x16x4f32, ISA_T_F32),
    MH(v_mfma_f32_32x32x4f16, ISA_T_F32),
    MH(v_mfma_f32_16x16x4f16, ISA_T_F32),
    MH(v_mfma_f32_4x4x4f16, ISA_T_F32),
    MH(v_mfma_f32_32x32x8f16, ISA_T_F32),
    MH(v_mfma_f32_16x16x16f16, ISA_T_F32),
    MH(v_mfma_i32_32x32x4i8, ISA_T_B32),
    MH(v_mfma_i32_16x16x4i8, ISA_T_B32),
    MH(v_mfma_i32_4x4x4i8, ISA_T_B32),
    MH(v_mfma_i32_32x32x8i8, ISA_T_B32),
    MH(v_mfma_i32_16x16x16i8, ISA_T_B32),
    MH(v_mfma_f32_32x32x2bf16, ISA_T_F32),
    MH(v_mfma_f32_16x16x2bf16, ISA_T_F32),
    MH(v_mfma_f32_4x4x2bf16, ISA_T_F32),
    MH(v_mfma_f32_32x32x4bf16, ISA_T_F32),
    MH(v_mfma_f32_16x16x8bf16, ISA_T_F32),
    MH(v_mfma_f32_32x32x4bf16_1k, ISA_T_F32),
    MH(v_mfma_f32_16x16x4bf16_1k, ISA_T_F32),
    MH(v_mfma_f32_4x4x4bf16_1k, ISA_T_F32),
    MH(v_mfma_f32_32x32x8bf16_1k, ISA_T_F32),
    MH(v_mfma_f32_16x16x16bf16_1k, ISA_T_F32),
    MH(v_mfma_f64_16x16x4f64, ISA_T_F64),
    MH(v_mfma_f64_4x4x4f64, ISA_T_F64),
    XROW(v_mfma_ld_scale_b32, ISA_T_B32, x_mfma_ld_scale),
};
const unsigned x_mfma_nhandlers = sizeof x_mfma_handlers / sizeof x_mfma_handlers[0];
