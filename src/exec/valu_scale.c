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

/* ---- per-element conversions ------------------------------------------------------------- */

/* code in format f times 2^e (e = FPF_SCALE_NAN: NaN) as f32 bits */
static u32 up32(unsigned code, const fpf_format *f, int e) {
    float v = fpf_decode(code, f);
    u32 sign = signbit(v) ? 0x80000000u : 0;
    if (e == FPF_SCALE_NAN || isnan(v))
        return sign | 0x7fc00000u;
    double r = ldexp(v, e);
    if (fabs(r) >= 0x1.ffffffp127) /* rounds (to even) past FLT_MAX */
        return sign | 0x7f800000u;
    return bf32((float)r);
}
/* ... as f16 (to = FPF_F16) or bf16 (FPF_BF16) bits */
static u32 up16(unsigned code, const fpf_format *f, int e, const fpf_format *to) {
    float v = fpf_decode(code, f);
    if (e == FPF_SCALE_NAN || isnan(v))
        return (signbit(v) ? 0x8000u : 0) | 0x7fffu;
    return fpf_encode(ldexp(v, e), to, 0);
}
/* v / 2^e in format f; sr: stochastic with rnd */
static unsigned down(double v, const fpf_format *f, int e, int sr, u32 rnd) {
    if (e == FPF_SCALE_NAN || isnan(v))
        return fpf_encode(signbit(v) ? -NAN : NAN, f, 0);
    int mode = f == BF8 ? FPF_SAT : 0;
    double x = ldexp(v, -e);
    return sr ? fpf_encode_sr(x, rnd, f, mode) : fpf_encode(x, f, mode);
}

/* ---- operand access -------------------------------------------------------------------------- */

static inline unsigned opsel(const xinst *x) { return x->in.f.v.opsel; }
static inline double bf16d(u32 b) { return f32((b & 0xffff) << 16); }
/* value of a 16-bit float (bits 15:0), f16 or bf16 */
static inline double v16(u32 h, int bf) { return bf ? bf16d(h) : h2d(h); }

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
            a = fpf_encode(f32(a), bf ? FPF_BF16 : FPF_F16, 0);
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
static inline int scale_e(u32 s) { return fpf_scale_exp(s); }

/* 16-bit results: D.half[op_sel[3]] = p, the other half kept; byte results: D.byte[op_sel[3:2]]
 * = p, the other bytes kept. */
static inline u32 put_half(u32 old, u32 p, const xinst *x) {
    return (opsel(x) >> 3) & 1 ? (old & 0xffff) | p << 16 : (old & 0xffff0000u) | (p & 0xffff);
}
static inline u32 put_byte(u32 old, u32 p, const xinst *x) {
    unsigned sh = 8 * ((opsel(x) >> 2) & 3);
    return (old & ~(0xffu << sh)) | (p & 0xff) << sh;
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
    static void name(wave *w, const xinst *x) {                                                    \
        u32 t0[LANES], t1[LANES], d[LANES];                                                        \
        const u32 *A = src(w, x, 0, t0, 0), *S = src(w, x, 1, t1, 0);                              \
        unsigned sh = 8 * (opsel(x) & 3);                                                          \
        VLOOP(l) d[l] = up32(A[l] >> sh, fmt, scale_e(S[l]));                                      \
        vd32(w, x, d, FK_RAW);                                                                     \
    }
UP_F32(v_cvt_scalef32_f32_fp8, FP8)
UP_F32(v_cvt_scalef32_f32_bf8, BF8)

/* D.half[op_sel[3]] = f16(byte op_sel[1:0] of S0, scaled); the other half kept */
#define UP_F16(name, fmt)                                                                          \
    static void name(wave *w, const xinst *x) {                                                    \
        u32 t0[LANES], t1[LANES], d[LANES];                                                        \
        const u32 *A = src(w, x, 0, t0, 0), *S = src(w, x, 1, t1, 0);                              \
        const u32 *D = vdreg(w, &x->in.dst[0]);                                                    \
        unsigned sh = 8 * (opsel(x) & 3);                                                          \
        VLOOP(l) d[l] = put_half(D[l], up16(A[l] >> sh, fmt, scale_e(S[l]), FPF_F16), x);          \
        vd32(w, x, d, FK_RAW);                                                                     \
    }
UP_F16(v_cvt_scalef32_f16_fp8, FP8)
UP_F16(v_cvt_scalef32_f16_bf8, BF8)

/* D[63:0] = two f32: fp8/bf8 from word op_sel[0] of S0 (bits 8 apart), or fp4 from byte
 * op_sel[1:0] (nibbles); the lower element first. */
#define UP_PK_F32(name, fmt, w8)                                                                   \
    static void name(wave *w, const xinst *x) {                                                    \
        u32 t0[LANES], t1[LANES];                                                                  \
        u64 d[LANES];                                                                              \
        const u32 *A = src(w, x, 0, t0, 0), *S = src(w, x, 1, t1, 0);                              \
        unsigned sh = w8 ? 16 * (opsel(x) & 1) : 8 * (opsel(x) & 3), step = w8 ? 8 : 4;            \
        VLOOP(l) {                                                                                 \
            int e = scale_e(S[l]);                                                                 \
            u32 p = A[l] >> sh;                                                                    \
            d[l] = up32(p, fmt, e) | (u64)up32(p >> step, fmt, e) << 32;                           \
        }                                                                                          \
        vd64(w, x, d, FK_RAW);                                                                     \
    }
UP_PK_F32(v_cvt_scalef32_pk_f32_fp8, FP8, 1)
UP_PK_F32(v_cvt_scalef32_pk_f32_bf8, BF8, 1)
UP_PK_F32(v_cvt_scalef32_pk_f32_fp4, FP4, 0)

/* D = two f16/bf16 (lower element in bits 15:0), selection as UP_PK_F32 */
#define UP_PK_16(name, fmt, w8, to)                                                                \
    static void name(wave *w, const xinst *x) {                                                    \
        u32 t0[LANES], t1[LANES], d[LANES];                                                        \
        const u32 *A = src(w, x, 0, t0, 0), *S = src(w, x, 1, t1, 0);                              \
        unsigned sh = w8 ? 16 * (opsel(x) & 1) : 8 * (opsel(x) & 3), step = w8 ? 8 : 4;            \
        VLOOP(l) {                                                                                 \
            int e = scale_e(S[l]);                                                                 \
            u32 p = A[l] >> sh;                                                                    \
            d[l] = up16(p, fmt, e, to) | up16(p >> step, fmt, e, to) << 16;                        \
        }                                                                                          \
        vd32(w, x, d, FK_RAW);                                                                     \
    }
UP_PK_16(v_cvt_scalef32_pk_f16_fp8, FP8, 1, FPF_F16)
UP_PK_16(v_cvt_scalef32_pk_f16_bf8, BF8, 1, FPF_F16)
UP_PK_16(v_cvt_scalef32_pk_bf16_fp8, FP8, 1, FPF_BF16)
UP_PK_16(v_cvt_scalef32_pk_bf16_bf8, BF8, 1, FPF_BF16)
UP_PK_16(v_cvt_scalef32_pk_f16_fp4, FP4, 0, FPF_F16)
UP_PK_16(v_cvt_scalef32_pk_bf16_fp4, FP4, 0, FPF_BF16)

/* D[32 values] = the 32 fp6/bf6 codes of S0[191:0], scaled: 32 f32 registers, or 16 registers
 * of two f16/bf16 (to != NULL; element 2k in the low half). */
static void up_pk32(wave *w, const xinst *x, const fpf_format *f, const fpf_format *to) {
    const isa_opnd *o = &x->in.src[0];
    unsigned nd = to ? 16 : 32;
    if (!range_ok(w, x, o, 6) || !range_ok(w, x, &x->in.dst[0], nd))
        return;
    u32 t1[LANES], d[32][LANES];
    const u32 *S = src(w, x, 1, t1, 0);
    VLOOP(l) {
        u32 in[7] = {0};
        for (unsigned r = 0; r < 6; r++)
            in[r] = oreg(w, o, r)[l];
        int e = scale_e(S[l]);
        for (unsigned i = 0; i < 32; i++) {
            unsigned bit = 6 * i,
                     c = (unsigned)((in[bit / 32] | (u64)in[bit / 32 + 1] << 32) >> (bit % 32)) &
                         0x3f;
            if (to)
                d[i / 2][l] = (i & 1) ? d[i / 2][l] | up16(c, f, e, to) << 16 : up16(c, f, e, to);
            else
                d[i][l] = up32(c, f, e);
        }
    }
    store_regs(w, x, d, nd);
}
#define UP_PK32(name, fmt, to)                                                                     \
    static void name(wave *w, const xinst *x) { up_pk32(w, x, fmt, to); }
UP_PK32(v_cvt_scalef32_pk32_f32_fp6, FP6, NULL)
UP_PK32(v_cvt_scalef32_pk32_f32_bf6, BF6, NULL)
UP_PK32(v_cvt_scalef32_pk32_f16_fp6, FP6, FPF_F16)
UP_PK32(v_cvt_scalef32_pk32_f16_bf6, BF6, FPF_F16)
UP_PK32(v_cvt_scalef32_pk32_bf16_fp6, FP6, FPF_BF16)
UP_PK32(v_cvt_scalef32_pk32_bf16_bf6, BF6, FPF_BF16)

/* ---- f32/f16/bf16 -> small --------------------------------------------------------------- */

/* D.word[op_sel[3]] = {fp8(S1 / scale), fp8(S0 / scale)}; the other word kept.  S2 = scale. */
#define DN_PK8_F32(name, fmt)                                                                      \
    static void name(wave *w, const xinst *x) {                                                    \
        u32 t0[LANES], t1[LANES], t2[LANES], d[LANES];                                             \
        const u32 *A = src(w, x, 0, t0, 0x80000000u), *B = src(w, x, 1, t1, 0x80000000u),          \
                  *S = src(w, x, 2, t2, 0);                                                        \
        const u32 *D = vdreg(w, &x->in.dst[0]);                                                    \
        VLOOP(l) {                                                                                 \
            int e = scale_e(S[l]);                                                                 \
            u32 p = down(f32(A[l]), fmt, e, 0, 0) | down(f32(B[l]), fmt, e, 0, 0) << 8;            \
            d[l] = put_half(D[l], p, x);                                                           \
        }                                                                                          \
        vd32(w, x, d, FK_RAW);                                                                     \
    }
DN_PK8_F32(v_cvt_scalef32_pk_fp8_f32, FP8)
DN_PK8_F32(v_cvt_scalef32_pk_bf8_f32, BF8)

/* D.word[op_sel[3]] = the two 16-bit values of S0 as fp8/bf8 (low value in the low byte); S1 =
 * scale. */
#define DN_PK8_16(name, fmt, bf)                                                                   \
    static void name(wave *w, const xinst *x) {                                                    \
        u32 t0[LANES], t1[LANES], d[LANES];                                                        \
        const u32 *A = src(w, x, 0, t0, 0x80008000u), *S = src(w, x, 1, t1, 0);                    \
        const u32 *D = vdreg(w, &x->in.dst[0]);                                                    \
        VLOOP(l) {                                                                                 \
            int e = scale_e(S[l]);                                                                 \
            u32 p = down(v16(A[l], bf), fmt, e, 0, 0) | down(v16(A[l] >> 16, bf), fmt, e, 0, 0)    \
                                                            << 8;                                  \
            d[l] = put_half(D[l], p, x);                                                           \
        }                                                                                          \
        vd32(w, x, d, FK_RAW);                                                                     \
    }
DN_PK8_16(v_cvt_scalef32_pk_fp8_f16, FP8, 0)
DN_PK8_16(v_cvt_scalef32_pk_bf8_f16, BF8, 0)
DN_PK8_16(v_cvt_scalef32_pk_fp8_bf16, FP8, 1)
DN_PK8_16(v_cvt_scalef32_pk_bf8_bf16, BF8, 1)

/* D.byte = sr(S0 / scale, S1) as fp8/bf8; S0 is f32 (kind 0), f16 (1) or bf16 (2); S2 = scale */
#define DN_SR8(name, fmt, kind)                                                                    \
    static void name(wave *w, const xinst *x) {                                                    \
        u32 t0[LANES], t1[LANES], t2[LANES], d[LANES];                                             \
        const u32 *A = kind ? src16(w, x, 0, t0) : src(w, x, 0, t0, 0x80000000u);                  \
        const u32 *R = src(w, x, 1, t1, 0), *S = src(w, x, 2, t2, 0);                              \
        const u32 *D = vdreg(w, &x->in.dst[0]);                                                    \
        VLOOP(l) {                                                                                 \
            double v = kind ? v16(A[l], kind == 2) : f32(A[l]);                                    \
            d[l] = put_byte(D[l], down(v, fmt, scale_e(S[l]), 1, R[l]), x);                        \
        }                                                                                          \
        vd32(w, x, d, FK_RAW);                                                                     \
    }
DN_SR8(v_cvt_scalef32_sr_fp8_f32, FP8, 0)
DN_SR8(v_cvt_scalef32_sr_bf8_f32, BF8, 0)
DN_SR8(v_cvt_scalef32_sr_fp8_f16, FP8, 1)
DN_SR8(v_cvt_scalef32_sr_bf8_f16, BF8, 1)
DN_SR8(v_cvt_scalef32_sr_fp8_bf16, FP8, 2)
DN_SR8(v_cvt_scalef32_sr_bf8_bf16, BF8, 2)

/* D.byte = {fp4(S1 / scale), fp4(S0 / scale)} (S0 in the low nibble); S2 = scale */
static void v_cvt_scalef32_pk_fp4_f32(wave *w, const xinst *x) {
    u32 t0[LANES], t1[LANES], t2[LANES], d[LANES];
    const u32 *A = src(w, x, 0, t0, 0x80000000u), *B = src(w, x, 1, t1, 0x80000000u),
              *S = src(w, x, 2, t2, 0);
    const u32 *D = vdreg(w, &x->in.dst[0]);
    VLOOP(l) {
        int e = scale_e(S[l]);
        d[l] =
            put_byte(D[l], down(f32(A[l]), FP4, e, 0, 0) | down(f32(B[l]), FP4, e, 0, 0) << 4, x);
    }
    vd32(w, x, d, FK_RAW);
}
/* D.byte = the two values of S0 (an f32 pair, or packed f16/bf16) as fp4, the lower one in the
 * low nibble; sr: S1 is the random value and S2 the scale, else S1 is the scale. */
static void dn_pk_fp4(wave *w, const xinst *x, int kind, int sr) {
    u32 t0[LANES], t1[LANES], t2[LANES], d[LANES], lo[LANES], hi[LANES];
    u64 p0[LANES];
    const u32 *D = vdreg(w, &x->in.dst[0]);
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
        VLOOP(l) {
            lo[l] = A[l] & 0xffff;
            hi[l] = A[l] >> 16;
        }
    }
    VLOOP(l) {
        int e = scale_e(S[l]);
        double a = kind ? v16(lo[l], kind == 2) : f32(lo[l]);
        double b = kind ? v16(hi[l], kind == 2) : f32(hi[l]);
        d[l] = put_byte(D[l], down(a, FP4, e, sr, R[l]) | down(b, FP4, e, sr, R[l]) << 4, x);
    }
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
 * sr: the next source is the random value; the last source is the scale. */
static void dn_pk32(wave *w, const xinst *x, const fpf_format *f, int kind, int sr) {
    const isa_opnd *o0 = &x->in.src[0], *o1 = &x->in.src[1];
    unsigned n0 = kind == 0 ? 32 : 16;
    if (!range_ok(w, x, o0, n0) || (kind == 3 && !range_ok(w, x, o1, 16)) ||
        !range_ok(w, x, &x->in.dst[0], 6))
        return;
    u32 t1[LANES], t2[LANES], d[6][LANES];
    const u32 *S = src(w, x, kind == 3 || sr ? 2 : 1, t2, 0), *R = sr ? src(w, x, 1, t1, 0) : S;
    VLOOP(l) {
        int e = scale_e(S[l]);
        u32 out[7] = {0};
        for (unsigned i = 0; i < 32; i++) {
            double v;
            if (kind == 0)
                v = f32(oreg(w, o0, i)[l]);
            else if (kind == 3)
                v = f32(oreg(w, i & 1 ? o1 : o0, i / 2)[l]);
            else
                v = v16(oreg(w, o0, i / 2)[l] >> (16 * (i & 1)), kind == 2);
            u64 c = down(v, f, e, sr, R[l]);
            unsigned bit = 6 * i;
            out[bit / 32] |= (u32)(c << (bit % 32));
            out[bit / 32 + 1] |= (u32)((c << (bit % 32)) >> 32);
        }
        for (unsigned r = 0; r < 6; r++)
            d[r][l] = out[r];
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
