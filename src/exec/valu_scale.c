/* valu_scale.c - gfx950 (CDNA4) scaled conversions between f32/f16/bf16 and the OCP MX element
 * formats: V_CVT_SCALEF32_{,PK_,SR_,PK32_,SR_PK32_,2XPK16_}* (VOP3).
 *
 * Formats (exec/fpfmt.h): fp8 = OCP E4M3, bf8 = OCP E5M2, fp6 = E2M3, bf6 = E3M2, fp4 = E2M1.
 *
 * The scale operand is an f32 of which only the exponent field is used: scale = 2^(e - 127), the
 * field 0xff is a NaN scale (an E8M0 value moved into the f32 exponent; AMD's HIP
 * __amd_scale_to_float builds it as e8m0 << 23).  Its sign and mantissa are ignored.
 *   up   (small -> f32/f16/bf16): D = round(value * scale), nearest even, gradual underflow,
 *        overflow to +-inf; a NaN code or a NaN scale gives NaN; +-inf (bf8) stays +-inf.
 *   down (f32/f16/bf16 -> small): D = round(S / scale) to nearest even (or stochastically with
 *        the 32-bit random operand, exec/fpfmt.h fpf_encode_sr default alignment).
 * The CDNA4 manual's pseudocode was not reachable from this work's sources; where behaviour is
 * not fixed by the formats themselves this file follows AMD's reference model of the gfx950
 * conversions (hip amd_hip_ocp_host.hpp, which HIP runs on the host for the same builtins) and
 * AMD's hardware conformance tests (fpsan cvt_scalef32_*_gfx950 tests, run on MI350):
 *   - fp8 (E4M3): an out-of-range result or an infinite input gives the NaN code S.1111.111;
 *     bf8 (E5M2) saturates to +-57344 (infinite inputs too); fp6/bf6/fp4 saturate to +-max.
 *   - NaN inputs or a NaN scale give NaN: fp8 S.1111.111, bf8 S.11111.10, and +-max for fp6,
 *     bf6 and fp4, which have no NaN (the sign of the input is kept).
 *   - The vector stochastic forms use the same random value for every element.
 *   - No denormal flushing on inputs or outputs, whatever MODE says.
 * Operand selection (LLVM 22 intrinsics and llc output; raw op_sel bits [3:0] = VOP3 bits 14:11):
 *   - one element from a byte (f32_fp8, f16_fp8, pk_*_fp4): byte op_sel[1:0];
 *   - two fp8 from a word (pk_f32_fp8, pk_f16_fp8, ...): word op_sel[0];
 *   - 16-bit result (f16_fp8): the half op_sel[3], the other half kept;
 *   - packed fp8 result (pk_fp8_*): the word op_sel[3], the other word kept;
 *   - byte result (sr_fp8_*, pk_fp4_*, sr_pk_fp4_*): the byte op_sel[3:2], other bytes kept;
 *   - single f16/bf16 source (sr_fp8_f16): its half op_sel[0];
 *   - packed layouts: the first element in the low bits; 32 fp6/bf6 codes are a little-endian
 *     192-bit stream in 6 dwords (code i at bits 6i..6i+5); 2xpk16 interleaves its sources
 *     (code 2k from src0[k], 2k+1 from src1[k]; AMD composable_kernel builds its inputs so).
 * Abs/neg modifiers apply to the float sources (both halves of a packed 16-bit source). */
#include "exec/fpfmt.h"
#include "exec/valu.h"

#define FP8 FPF_FP8_OCP
#define BF8 FPF_BF8_OCP
#define FP6 FPF_FP6
#define BF6 FPF_BF6
#define FP4 FPF_FP4

/* ---- per-element conversions -------------------------------------------------------------
 * Branch-free on f32 bits (fpfmt.h fpf_dec32/fpf_enc32, valu.h f2h/f2bf), so the lane loops
 * vectorize; s is the scale operand's raw bits (its exponent field the E8M0 scale, 0xff NaN).
 * They give the bits of the exact definitions (fpf_decode, then ldexp in double and one
 * rounding; fpf_encode/fpf_encode_sr of the double S / scale) for every input. */

/* 2^(field - 127) as a float: field 0 is the denormal 2^-127 (0xff, NaN, is selected away) */
static inline __attribute__((always_inline)) float pow2s(u32 s) {
    u32 e = (s >> 23) & 0xff;
    return f32(e ? e << 23 : 0x400000u);
}
static inline __attribute__((always_inline)) u32 nan_scale(u32 s) {
    return (u32)(((s >> 23) & 0xff) == 0xff);
}
/* code (format k) times the scale, as f32 bits: one float multiply rounds the exact product
 * once (to +-inf past FLT_MAX); a NaN code or scale gives the quiet NaN with the code's sign. */
static inline __attribute__((always_inline)) u32 up32(u32 code, fpf_dec_k k, u32 s) {
    u32 v = fpf_dec32(code, k);
    u32 nan = nan_scale(s) | (u32)((v & 0x7fffffffu) > 0x7f800000u);
    return vsel(nan, (v & 0x80000000u) | 0x7fc00000u, bf32(f32(v) * pow2s(s)));
}
/* ... as f16 (bf = 0) or bf16 (bf = 1) bits.  The float product is exact or infinite (codes
 * have at most 4 significant bits, the scale is at least 2^-127), so rounding it once more is
 * the single rounding of the exact value; NaN gives 0x7fff with the code's sign. */
static inline __attribute__((always_inline)) u32 up16(u32 code, fpf_dec_k k, u32 s, int bf) {
    u32 v = fpf_dec32(code, k);
    u32 nan = nan_scale(s) | (u32)((v & 0x7fffffffu) > 0x7f800000u);
    float p = f32(v) * pow2s(s);
    return vsel(nan, ((v >> 16) & 0x8000u) | 0x7fffu, bf ? f2bf(p) : f2h(p));
}
/* the f32 value v (bits) divided by the scale, in the format of k (dn_k), rounded by rm (FPF_RNE
 * or FPF_RSR with rnd); a NaN scale gives the NaN of v's sign */
static inline __attribute__((always_inline)) u32 down(u32 v, u32 s, fpf_enc_k k, int rm, u32 rnd) {
    v = vsel(nan_scale(s), v | 0x7fc00000u, v);
    return fpf_enc32(v, (i32)((s >> 23) & 0xff) - 127, k, rm, 1, rnd);
}
/* fpf_enc32 constants of the down conversions: bf8 saturates, NaN gives the canonical NaN */
static inline fpf_enc_k dn_k(const fpf_format *f) {
    return fpf_enc_consts(f, f == BF8 ? FPF_SAT : 0, 1);
}

/* ---- operand access -------------------------------------------------------------------------- */

static inline unsigned opsel(const xinst *x) { return x->in.f.v.opsel; }
/* a 16-bit float (bits 15:0), f16 or bf16, as the f32 bits of its (exact) value */
static inline __attribute__((always_inline)) u32 w16(u32 h, int bf) {
    return bf ? (h & 0xffff) << 16 : bf32(h2f(h & 0xffff));
}

/* Source i as 32 raw bits with abs/neg applied to the sign bits in mask (0x80000000 for f32,
 * 0x80008000 for two packed 16-bit values).  An inline float constant feeding a 16-bit operand
 * is converted to that width (constants were resolved as f32). */
static const u32 *src(wave *w, const xinst *x, int i, u32 *t, u32 mask) {
    const u32 *s = vs32(w, x, i, t, FK_RAW);
    const isa_opnd *o = &x->in.src[i];
    const isa_valu_fields *v = &x->in.f.v;
    u32 clr = (v->abs >> i) & 1 ? mask : 0, flip = (v->neg >> i) & 1 ? mask : 0;
    int k16 = o->kind == ISA_OPND_INLINE && o->idx >= 240 && o->idx <= 248 && mask == 0x80008000u;
    if (!clr && !flip && !k16)
        return s;
    const isa_opinfo *info = x->in.info;
    int bf = info && (info->src_t[i] == ISA_T_BF16 || info->src_t[i] == ISA_T_V2BF16);
    VLOOP(l) {
        u32 a = s[l];
        if (k16)
            a = bf ? f2bf(f32(a)) : f2h(f32(a));
        t[l] = (a & ~clr) ^ flip;
    }
    return t;
}
/* a single 16-bit source: the half op_sel[i] picks, abs/neg on bit 15 */
static const u32 *src16(wave *w, const xinst *x, int i, u32 *t) {
    const u32 *s = src(w, x, i, t, 0x80008000u);
    int hi = (opsel(x) >> i) & 1;
    VLOOP(l) t[l] = (hi ? s[l] >> 16 : s[l]) & 0xffff;
    return t;
}

/* Register r of a multi-register operand (VGPR or AGPR ranges only). */
static u32 *oreg(wave *w, const isa_opnd *o, unsigned r) {
    return (o->kind == ISA_OPND_AGPR ? w->a : w->v)[o->idx + r];
}
static int range_ok(wave *w, const xinst *x, const isa_opnd *o, unsigned n) {
    if ((o->kind == ISA_OPND_VGPR || o->kind == ISA_OPND_AGPR) && o->idx + n <= NVREG)
        return 1;
    wave_fault(w, x, XF_UNIMPLEMENTED); /* a constant or scalar 6-to-32-dword operand */
    return 0;
}
static void store_regs(wave *w, const xinst *x, u32 (*d)[LANES], unsigned n) {
    u64 e = wave_exec(w);
    for (unsigned r = 0; r < n; r++)
        vstore(oreg(w, &x->in.dst[0], r), d[r], e);
}

/* ---- small -> f32/f16/bf16 --------------------------------------------------------------- */

/* D.f32 = byte op_sel[1:0] of S0, scaled */
#define UP_F32(name, fmt)                                                                          \
    VFN static void name(wave *w, const xinst *x) {                                                \
        u32 t0[LANES], t1[LANES], d[LANES];                                                        \
        const u32 *A = src(w, x, 0, t0, 0), *S = src(w, x, 1, t1, 0);                              \
        const unsigned sh = 8 * (opsel(x) & 3);                                                    \
        const fpf_dec_k k = fpf_dec_consts(fmt);                                                   \
        VLOOP(l) d[l] = up32(A[l] >> sh, k, S[l]);                                                 \
        vd32(w, x, d, FK_RAW);                                                                     \
    }
UP_F32(v_cvt_scalef32_f32_fp8, FP8)
UP_F32(v_cvt_scalef32_f32_bf8, BF8)

/* D.half[op_sel[3]] = f16(byte op_sel[1:0] of S0, scaled); the other half kept */
#define UP_F16(name, fmt)                                                                          \
    VFN static void name(wave *w, const xinst *x) {                                                \
        u32 t0[LANES], t1[LANES], d[LANES];                                                        \
        const u32 *A = src(w, x, 0, t0, 0), *S = src(w, x, 1, t1, 0);                              \
        const u32 *D = vdreg(w, &x->in.dst[0]);                                                    \
        const unsigned sh = 8 * (opsel(x) & 3), hs = (opsel(x) >> 3) & 1 ? 16 : 0;                 \
        const u32 keep = hs ? 0xffffu : 0xffff0000u;                                               \
        const fpf_dec_k k = fpf_dec_consts(fmt);                                                   \
        VLOOP(l) d[l] = (D[l] & keep) | up16(A[l] >> sh, k, S[l], 0) << hs;                        \
        vd32(w, x, d, FK_RAW);                                                                     \
    }
UP_F16(v_cvt_scalef32_f16_fp8, FP8)
UP_F16(v_cvt_scalef32_f16_bf8, BF8)

/* D[63:0] = two f32: fp8/bf8 from word op_sel[0] of S0 (bits 8 apart), or fp4 from byte
 * op_sel[1:0] (nibbles); the lower element first. */
#define UP_PK_F32(name, fmt, w8)                                                                   \
    VFN static void name(wave *w, const xinst *x) {                                                \
        u32 t0[LANES], t1[LANES];                                                                  \
        u64 d[LANES];                                                                              \
        const u32 *A = src(w, x, 0, t0, 0), *S = src(w, x, 1, t1, 0);                              \
        const unsigned sh = w8 ? 16 * (opsel(x) & 1) : 8 * (opsel(x) & 3), step = w8 ? 8 : 4;      \
        const fpf_dec_k k = fpf_dec_consts(fmt);                                                   \
        VLOOP(l) {                                                                                 \
            u32 p = A[l] >> sh;                                                                    \
            d[l] = up32(p, k, S[l]) | (u64)up32(p >> step, k, S[l]) << 32;                         \
        }                                                                                          \
        vd64(w, x, d, FK_RAW);                                                                     \
    }
UP_PK_F32(v_cvt_scalef32_pk_f32_fp8, FP8, 1)
UP_PK_F32(v_cvt_scalef32_pk_f32_bf8, BF8, 1)
UP_PK_F32(v_cvt_scalef32_pk_f32_fp4, FP4, 0)

/* D = two f16/bf16 (lower element in bits 15:0), selection as UP_PK_F32 */
#define UP_PK_16(name, fmt, w8, bf)                                                                \
    VFN static void name(wave *w, const xinst *x) {                                                \
        u32 t0[LANES], t1[LANES], d[LANES];                                                        \
        const u32 *A = src(w, x, 0, t0, 0), *S = src(w, x, 1, t1, 0);                              \
        const unsigned sh = w8 ? 16 * (opsel(x) & 1) : 8 * (opsel(x) & 3), step = w8 ? 8 : 4;      \
        const fpf_dec_k k = fpf_dec_consts(fmt);                                                   \
        VLOOP(l) {                                                                                 \
            u32 p = A[l] >> sh;                                                                    \
            d[l] = up16(p, k, S[l], bf) | up16(p >> step, k, S[l], bf) << 16;                      \
        }                                                                                          \
        vd32(w, x, d, FK_RAW);                                                                     \
    }
UP_PK_16(v_cvt_scalef32_pk_f16_fp8, FP8, 1, 0)
UP_PK_16(v_cvt_scalef32_pk_f16_bf8, BF8, 1, 0)
UP_PK_16(v_cvt_scalef32_pk_bf16_fp8, FP8, 1, 1)
UP_PK_16(v_cvt_scalef32_pk_bf16_bf8, BF8, 1, 1)
UP_PK_16(v_cvt_scalef32_pk_f16_fp4, FP4, 0, 0)
UP_PK_16(v_cvt_scalef32_pk_bf16_fp4, FP4, 0, 1)

/* D[32 values] = the 32 fp6/bf6 codes of S0[191:0], scaled: 32 f32 registers, or 16 registers
 * of two f16/bf16 (to = 1 f16, 2 bf16; element 2k in the low half).  One lane loop per code. */
VFN static void up_pk32(wave *w, const xinst *x, const fpf_format *f, int to) {
    const isa_opnd *o = &x->in.src[0];
    unsigned nd = to ? 16 : 32;
    if (!range_ok(w, x, o, 6) || !range_ok(w, x, &x->in.dst[0], nd))
        return;
    u32 t1[LANES], d[32][LANES];
    const u32 *S = src(w, x, 1, t1, 0);
    const fpf_dec_k k = fpf_dec_consts(f);
    for (unsigned i = 0; i < 32; i++) {
        unsigned bit = 6 * i, sh = bit % 32;
        const u32 *lo = oreg(w, o, bit / 32), *hi = sh > 26 ? oreg(w, o, bit / 32 + 1) : lo;
        u32 c[LANES], *dd = d[to ? i / 2 : i];
        if (sh > 26) /* the code straddles two registers */
            VLOOP(l) c[l] = (lo[l] >> sh | hi[l] << (32 - sh)) & 0x3f;
        else
            VLOOP(l) c[l] = (lo[l] >> sh) & 0x3f;
        if (!to)
            VLOOP(l) dd[l] = up32(c[l], k, S[l]);
        else { /* f16/bf16 pairs: the even element in bits 15:0, the odd one above it */
            u32 h[LANES];
            if (to == 1)
                VLOOP(l) h[l] = up16(c[l], k, S[l], 0);
            else
                VLOOP(l) h[l] = up16(c[l], k, S[l], 1);
            if (i & 1)
                VLOOP(l) dd[l] |= h[l] << 16;
            else
                VLOOP(l) dd[l] = h[l];
        }
    }
    store_regs(w, x, d, nd);
}
#define UP_PK32(name, fmt, to)                                                                     \
    static void name(wave *w, const xinst *x) { up_pk32(w, x, fmt, to); }
UP_PK32(v_cvt_scalef32_pk32_f32_fp6, FP6, 0)
UP_PK32(v_cvt_scalef32_pk32_f32_bf6, BF6, 0)
UP_PK32(v_cvt_scalef32_pk32_f16_fp6, FP6, 1)
UP_PK32(v_cvt_scalef32_pk32_f16_bf6, BF6, 1)
UP_PK32(v_cvt_scalef32_pk32_bf16_fp6, FP6, 2)
UP_PK32(v_cvt_scalef32_pk32_bf16_bf6, BF6, 2)

/* ---- f32/f16/bf16 -> small --------------------------------------------------------------- */

/* D.word[op_sel[3]] = {fp8(S1 / scale), fp8(S0 / scale)}; the other word kept.  S2 = scale. */
#define DN_PK8_F32(name, fmt)                                                                      \
    VFN static void name(wave *w, const xinst *x) {                                                \
        u32 t0[LANES], t1[LANES], t2[LANES], d[LANES];                                             \
        const u32 *A = src(w, x, 0, t0, 0x80000000u), *B = src(w, x, 1, t1, 0x80000000u),          \
                  *S = src(w, x, 2, t2, 0);                                                        \
        const u32 *D = vdreg(w, &x->in.dst[0]);                                                    \
        const fpf_enc_k k = dn_k(fmt);                                                             \
        const unsigned hs = (opsel(x) >> 3) & 1 ? 16 : 0;                                          \
        const u32 keep = hs ? 0xffffu : 0xffff0000u;                                               \
        VLOOP(l) {                                                                                 \
            u32 p = down(A[l], S[l], k, FPF_RNE, 0) | down(B[l], S[l], k, FPF_RNE, 0) << 8;        \
            d[l] = (D[l] & keep) | p << hs;                                                        \
        }                                                                                          \
        vd32(w, x, d, FK_RAW);                                                                     \
    }
DN_PK8_F32(v_cvt_scalef32_pk_fp8_f32, FP8)
DN_PK8_F32(v_cvt_scalef32_pk_bf8_f32, BF8)

/* D.word[op_sel[3]] = the two 16-bit values of S0 as fp8/bf8 (low value in the low byte); S1 =
 * scale. */
#define DN_PK8_16(name, fmt, bf)                                                                   \
    VFN static void name(wave *w, const xinst *x) {                                                \
        u32 t0[LANES], t1[LANES], d[LANES];                                                        \
        const u32 *A = src(w, x, 0, t0, 0x80008000u), *S = src(w, x, 1, t1, 0);                    \
        const u32 *D = vdreg(w, &x->in.dst[0]);                                                    \
        const fpf_enc_k k = dn_k(fmt);                                                             \
        const unsigned hs = (opsel(x) >> 3) & 1 ? 16 : 0;                                          \
        const u32 keep = hs ? 0xffffu : 0xffff0000u;                                               \
        VLOOP(l) {                                                                                 \
            u32 p = down(w16(A[l], bf), S[l], k, FPF_RNE, 0) |                                     \
                    down(w16(A[l] >> 16, bf), S[l], k, FPF_RNE, 0) << 8;                           \
            d[l] = (D[l] & keep) | p << hs;                                                        \
        }                                                                                          \
        vd32(w, x, d, FK_RAW);                                                                     \
    }
DN_PK8_16(v_cvt_scalef32_pk_fp8_f16, FP8, 0)
DN_PK8_16(v_cvt_scalef32_pk_bf8_f16, BF8, 0)
DN_PK8_16(v_cvt_scalef32_pk_fp8_bf16, FP8, 1)
DN_PK8_16(v_cvt_scalef32_pk_bf8_bf16, BF8, 1)

/* D.byte = sr(S0 / scale, S1) as fp8/bf8; S0 is f32 (kind 0), f16 (1) or bf16 (2); S2 = scale */
#define DN_SR8(name, fmt, kind)                                                                    \
    VFN static void name(wave *w, const xinst *x) {                                                \
        u32 t0[LANES], t1[LANES], t2[LANES], d[LANES];                                             \
        const u32 *A = kind ? src16(w, x, 0, t0) : src(w, x, 0, t0, 0x80000000u);                  \
        const u32 *R = src(w, x, 1, t1, 0), *S = src(w, x, 2, t2, 0);                              \
        const u32 *D = vdreg(w, &x->in.dst[0]);                                                    \
        const fpf_enc_k k = dn_k(fmt);                                                             \
        const unsigned bs = 8 * ((opsel(x) >> 2) & 3);                                             \
        const u32 keep = ~(0xffu << bs);                                                           \
        VLOOP(l) {                                                                                 \
            u32 v = kind ? w16(A[l], kind == 2) : A[l];                                            \
            d[l] = (D[l] & keep) | down(v, S[l], k, FPF_RSR, R[l]) << bs;                          \
        }                                                                                          \
        vd32(w, x, d, FK_RAW);                                                                     \
    }
DN_SR8(v_cvt_scalef32_sr_fp8_f32, FP8, 0)
DN_SR8(v_cvt_scalef32_sr_bf8_f32, BF8, 0)
DN_SR8(v_cvt_scalef32_sr_fp8_f16, FP8, 1)
DN_SR8(v_cvt_scalef32_sr_bf8_f16, BF8, 1)
DN_SR8(v_cvt_scalef32_sr_fp8_bf16, FP8, 2)
DN_SR8(v_cvt_scalef32_sr_bf8_bf16, BF8, 2)

/* D.byte[op_sel[3:2]] = {fp4(b), fp4(a)} of the f32 values a (low nibble) and b, other bytes of
 * D kept; sr: rounded stochastically with R. */
static inline __attribute__((always_inline)) void fp4_out(const xinst *x, const u32 *D,
                                                          const u32 *a, const u32 *b, const u32 *S,
                                                          const u32 *R, int sr, u32 *d) {
    const fpf_enc_k k = dn_k(FP4);
    const unsigned bs = 8 * ((opsel(x) >> 2) & 3);
    const u32 keep = ~(0xffu << bs);
    if (sr)
        VLOOP(l) {
            u32 p = down(a[l], S[l], k, FPF_RSR, R[l]) | down(b[l], S[l], k, FPF_RSR, R[l]) << 4;
            d[l] = (D[l] & keep) | p << bs;
        }
    else
        VLOOP(l) {
            u32 p = down(a[l], S[l], k, FPF_RNE, 0) | down(b[l], S[l], k, FPF_RNE, 0) << 4;
            d[l] = (D[l] & keep) | p << bs;
        }
}
/* D.byte = {fp4(S1 / scale), fp4(S0 / scale)} (S0 in the low nibble); S2 = scale */
VFN static void v_cvt_scalef32_pk_fp4_f32(wave *w, const xinst *x) {
    u32 t0[LANES], t1[LANES], t2[LANES], d[LANES];
    const u32 *A = src(w, x, 0, t0, 0x80000000u), *B = src(w, x, 1, t1, 0x80000000u),
              *S = src(w, x, 2, t2, 0);
    fp4_out(x, vdreg(w, &x->in.dst[0]), A, B, S, S, 0, d);
    vd32(w, x, d, FK_RAW);
}
/* D.byte = the two values of S0 (an f32 pair, or packed f16/bf16) as fp4, the lower one in the
 * low nibble; sr: S1 is the random value and S2 the scale, else S1 is the scale. */
VFN static void dn_pk_fp4(wave *w, const xinst *x, int kind, int sr) {
    u32 t0[LANES], t1[LANES], t2[LANES], d[LANES], lo[LANES], hi[LANES];
    u64 p0[LANES];
    const u32 *S = src(w, x, sr ? 2 : 1, t2, 0), *R = sr ? src(w, x, 1, t1, 0) : S;
    if (kind == 0) { /* 64-bit pair of f32: abs/neg apply to both */
        const u64 *P = vs64(w, x, 0, p0, FK_RAW);
        u32 clr = (x->in.f.v.abs & 1) ? 0x80000000u : 0,
            flip = (x->in.f.v.neg & 1) ? 0x80000000u : 0;
        VLOOP(l) {
            lo[l] = ((u32)P[l] & ~clr) ^ flip;
            hi[l] = ((u32)(P[l] >> 32) & ~clr) ^ flip;
        }
    } else {
        const u32 *A = src(w, x, 0, t0, 0x80008000u);
        if (kind == 2)
            VLOOP(l) {
                lo[l] = w16(A[l], 1);
                hi[l] = w16(A[l] >> 16, 1);
            }
        else
            VLOOP(l) {
                lo[l] = w16(A[l], 0);
                hi[l] = w16(A[l] >> 16, 0);
            }
    }
    fp4_out(x, vdreg(w, &x->in.dst[0]), lo, hi, S, R, sr, d);
    vd32(w, x, d, FK_RAW);
}
#define DN_PK_FP4(name, kind, sr)                                                                  \
    static void name(wave *w, const xinst *x) { dn_pk_fp4(w, x, kind, sr); }
DN_PK_FP4(v_cvt_scalef32_pk_fp4_f16, 1, 0)
DN_PK_FP4(v_cvt_scalef32_pk_fp4_bf16, 2, 0)
DN_PK_FP4(v_cvt_scalef32_sr_pk_fp4_f32, 0, 1)
DN_PK_FP4(v_cvt_scalef32_sr_pk_fp4_f16, 1, 1)
DN_PK_FP4(v_cvt_scalef32_sr_pk_fp4_bf16, 2, 1)

/* D[191:0] = 32 fp6/bf6 codes (code i at bits 6i..6i+5) of 32 values:
 *   kind 0: S0 = 32 f32 registers;          kind 1/2: S0 = 16 registers of f16/bf16 pairs;
 *   kind 3: 2xpk16: S0, S1 = 16 f32 registers each, interleaved (value 2k = S0[k], 2k+1 = S1[k]).
 * sr: the next source is the random value; the last source is the scale.  One lane loop per
 * value. */
VFN static void dn_pk32(wave *w, const xinst *x, const fpf_format *f, int kind, int sr) {
    const isa_opnd *o0 = &x->in.src[0], *o1 = &x->in.src[1];
    unsigned n0 = kind == 0 ? 32 : 16;
    if (!range_ok(w, x, o0, n0) || (kind == 3 && !range_ok(w, x, o1, 16)) ||
        !range_ok(w, x, &x->in.dst[0], 6))
        return;
    u32 t1[LANES], t2[LANES], d[6][LANES];
    const u32 *S = src(w, x, kind == 3 || sr ? 2 : 1, t2, 0), *R = sr ? src(w, x, 1, t1, 0) : S;
    const fpf_enc_k k = dn_k(f);
    memset(d, 0, sizeof d);
    for (unsigned i = 0; i < 32; i++) {
        u32 v[LANES], c[LANES];
        if (kind == 0 || kind == 3) {
            const u32 *p = kind == 0 ? oreg(w, o0, i) : oreg(w, i & 1 ? o1 : o0, i / 2);
            VLOOP(l) v[l] = p[l];
        } else {
            const u32 *p = oreg(w, o0, i / 2);
            unsigned hs = 16 * (i & 1);
            if (kind == 2)
                VLOOP(l) v[l] = w16(p[l] >> hs, 1);
            else
                VLOOP(l) v[l] = w16(p[l] >> hs, 0);
        }
        if (sr)
            VLOOP(l) c[l] = down(v[l], S[l], k, FPF_RSR, R[l]);
        else
            VLOOP(l) c[l] = down(v[l], S[l], k, FPF_RNE, 0);
        unsigned bit = 6 * i, wd = bit / 32, sh = bit % 32;
        VLOOP(l) d[wd][l] |= c[l] << sh;
        if (sh > 26) /* the code straddles two registers */
            VLOOP(l) d[wd + 1][l] |= c[l] >> (32 - sh);
    }
    store_regs(w, x, d, 6);
}
#define DN_PK32(name, fmt, kind, sr)                                                               \
    static void name(wave *w, const xinst *x) { dn_pk32(w, x, fmt, kind, sr); }
DN_PK32(v_cvt_scalef32_2xpk16_fp6_f32, FP6, 3, 0)
DN_PK32(v_cvt_scalef32_2xpk16_bf6_f32, BF6, 3, 0)
DN_PK32(v_cvt_scalef32_sr_pk32_fp6_f32, FP6, 0, 1)
DN_PK32(v_cvt_scalef32_sr_pk32_bf6_f32, BF6, 0, 1)
DN_PK32(v_cvt_scalef32_pk32_fp6_f16, FP6, 1, 0)
DN_PK32(v_cvt_scalef32_pk32_bf6_f16, BF6, 1, 0)
DN_PK32(v_cvt_scalef32_pk32_fp6_bf16, FP6, 2, 0)
DN_PK32(v_cvt_scalef32_pk32_bf6_bf16, BF6, 2, 0)
DN_PK32(v_cvt_scalef32_sr_pk32_fp6_f16, FP6, 1, 1)
DN_PK32(v_cvt_scalef32_sr_pk32_bf6_f16, BF6, 1, 1)
DN_PK32(v_cvt_scalef32_sr_pk32_fp6_bf16, FP6, 2, 1)
DN_PK32(v_cvt_scalef32_sr_pk32_bf6_bf16, BF6, 2, 1)

#define SH(op, fn) VH(op, fn, ISA_T_F32)
const xhandler x_valu_scale_handlers[] = {
    SH(v_cvt_scalef32_f32_fp8, v_cvt_scalef32_f32_fp8),
    SH(v_cvt_scalef32_f32_bf8, v_cvt_scalef32_f32_bf8),
    SH(v_cvt_scalef32_f16_fp8, v_cvt_scalef32_f16_fp8),
    SH(v_cvt_scalef32_f16_bf8, v_cvt_scalef32_f16_bf8),
    SH(v_cvt_scalef32_pk_f32_fp8, v_cvt_scalef32_pk_f32_fp8),
    SH(v_cvt_scalef32_pk_f32_bf8, v_cvt_scalef32_pk_f32_bf8),
    SH(v_cvt_scalef32_pk_f32_fp4, v_cvt_scalef32_pk_f32_fp4),
    SH(v_cvt_scalef32_pk_f16_fp8, v_cvt_scalef32_pk_f16_fp8),
    SH(v_cvt_scalef32_pk_f16_bf8, v_cvt_scalef32_pk_f16_bf8),
    SH(v_cvt_scalef32_pk_bf16_fp8, v_cvt_scalef32_pk_bf16_fp8),
    SH(v_cvt_scalef32_pk_bf16_bf8, v_cvt_scalef32_pk_bf16_bf8),
    SH(v_cvt_scalef32_pk_f16_fp4, v_cvt_scalef32_pk_f16_fp4),
    SH(v_cvt_scalef32_pk_bf16_fp4, v_cvt_scalef32_pk_bf16_fp4),
    SH(v_cvt_scalef32_pk32_f32_fp6, v_cvt_scalef32_pk32_f32_fp6),
    SH(v_cvt_scalef32_pk32_f32_bf6, v_cvt_scalef32_pk32_f32_bf6),
    SH(v_cvt_scalef32_pk32_f16_fp6, v_cvt_scalef32_pk32_f16_fp6),
    SH(v_cvt_scalef32_pk32_f16_bf6, v_cvt_scalef32_pk32_f16_bf6),
    SH(v_cvt_scalef32_pk32_bf16_fp6, v_cvt_scalef32_pk32_bf16_fp6),
    SH(v_cvt_scalef32_pk32_bf16_bf6, v_cvt_scalef32_pk32_bf16_bf6),
    SH(v_cvt_scalef32_pk_fp8_f32, v_cvt_scalef32_pk_fp8_f32),
    SH(v_cvt_scalef32_pk_bf8_f32, v_cvt_scalef32_pk_bf8_f32),
    SH(v_cvt_scalef32_pk_fp8_f16, v_cvt_scalef32_pk_fp8_f16),
    SH(v_cvt_scalef32_pk_bf8_f16, v_cvt_scalef32_pk_bf8_f16),
    SH(v_cvt_scalef32_pk_fp8_bf16, v_cvt_scalef32_pk_fp8_bf16),
    SH(v_cvt_scalef32_pk_bf8_bf16, v_cvt_scalef32_pk_bf8_bf16),
    SH(v_cvt_scalef32_sr_fp8_f32, v_cvt_scalef32_sr_fp8_f32),
    SH(v_cvt_scalef32_sr_bf8_f32, v_cvt_scalef32_sr_bf8_f32),
    SH(v_cvt_scalef32_sr_fp8_f16, v_cvt_scalef32_sr_fp8_f16),
    SH(v_cvt_scalef32_sr_bf8_f16, v_cvt_scalef32_sr_bf8_f16),
    SH(v_cvt_scalef32_sr_fp8_bf16, v_cvt_scalef32_sr_fp8_bf16),
    SH(v_cvt_scalef32_sr_bf8_bf16, v_cvt_scalef32_sr_bf8_bf16),
    SH(v_cvt_scalef32_pk_fp4_f32, v_cvt_scalef32_pk_fp4_f32),
    SH(v_cvt_scalef32_pk_fp4_f16, v_cvt_scalef32_pk_fp4_f16),
    SH(v_cvt_scalef32_pk_fp4_bf16, v_cvt_scalef32_pk_fp4_bf16),
    SH(v_cvt_scalef32_sr_pk_fp4_f32, v_cvt_scalef32_sr_pk_fp4_f32),
    SH(v_cvt_scalef32_sr_pk_fp4_f16, v_cvt_scalef32_sr_pk_fp4_f16),
    SH(v_cvt_scalef32_sr_pk_fp4_bf16, v_cvt_scalef32_sr_pk_fp4_bf16),
    SH(v_cvt_scalef32_2xpk16_fp6_f32, v_cvt_scalef32_2xpk16_fp6_f32),
    SH(v_cvt_scalef32_2xpk16_bf6_f32, v_cvt_scalef32_2xpk16_bf6_f32),
    SH(v_cvt_scalef32_sr_pk32_fp6_f32, v_cvt_scalef32_sr_pk32_fp6_f32),
    SH(v_cvt_scalef32_sr_pk32_bf6_f32, v_cvt_scalef32_sr_pk32_bf6_f32),
    SH(v_cvt_scalef32_pk32_fp6_f16, v_cvt_scalef32_pk32_fp6_f16),
    SH(v_cvt_scalef32_pk32_bf6_f16, v_cvt_scalef32_pk32_bf6_f16),
    SH(v_cvt_scalef32_pk32_fp6_bf16, v_cvt_scalef32_pk32_fp6_bf16),
    SH(v_cvt_scalef32_pk32_bf6_bf16, v_cvt_scalef32_pk32_bf6_bf16),
    SH(v_cvt_scalef32_sr_pk32_fp6_f16, v_cvt_scalef32_sr_pk32_fp6_f16),
    SH(v_cvt_scalef32_sr_pk32_bf6_f16, v_cvt_scalef32_sr_pk32_bf6_f16),
    SH(v_cvt_scalef32_sr_pk32_fp6_bf16, v_cvt_scalef32_sr_pk32_fp6_bf16),
    SH(v_cvt_scalef32_sr_pk32_bf6_bf16, v_cvt_scalef32_sr_pk32_bf6_bf16),
};
const unsigned x_valu_scale_nhandlers =
    sizeof x_valu_scale_handlers / sizeof x_valu_scale_handlers[0];
