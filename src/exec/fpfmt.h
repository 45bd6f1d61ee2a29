/* fpfmt.h - exact conversions between double/float and the small floating-point formats of the
 * gfx950 (CDNA4) and gfx942 (CDNA3) matrix and conversion instructions.
 *
 * API (stable; header-only, every function static inline):
 *
 *   float    fpf_decode(unsigned bits, const fpf_format *f);
 *       Exact value of the code `bits` (only the low f->bits bits are read).  Every value of
 *       every format here is exactly a float.  NaN codes give a quiet float NaN with the code's
 *       sign (IEEE formats also keep the top mantissa bits as payload, as bf16 -> f32 does).
 *   unsigned fpf_encode(double x, const fpf_format *f, int mode);
 *       x rounded to nearest, ties to even, at the format's precision (gradual underflow to
 *       its denormals), then the overflow/special-value rules of `mode` below.
 *   unsigned fpf_encode_sr(double x, uint32_t rnd, const fpf_format *f, int mode);
 *       Stochastic rounding of x with the random value rnd, same `mode` rules (see below).
 *   int      fpf_is_nan(unsigned bits, const fpf_format *f);
 *   int      fpf_scale_exp(uint32_t f32bits);   (the gfx950 v_cvt_scalef32_* scale operand)
 *
 * Formats (pointers to constant descriptors):
 *   FPF_FP8_OCP   E4M3 bias 7, max 448, NaN S.1111.111, no infinity          (gfx950 "fp8")
 *   FPF_BF8_OCP   E5M2 bias 15, IEEE-like: max 57344, inf, NaN               (gfx950 "bf8")
 *   FPF_FP8_FNUZ  E4M3 bias 8, max 240, 0x80 the only NaN, no -0, no inf      (gfx942 "fp8")
 *   FPF_BF8_FNUZ  E5M2 bias 16, max 57344, 0x80 the only NaN, no -0, no inf   (gfx942 "bf8")
 *   FPF_FP6       E2M3 bias 1, max 7.5, no inf/NaN          (OCP MXFP6 E2M3, gfx950 "fp6")
 *   FPF_BF6       E3M2 bias 3, max 28, no inf/NaN           (OCP MXFP6 E3M2, gfx950 "bf6")
 *   FPF_FP4       E2M1 bias 1, max 6, no inf/NaN            (OCP MXFP4 E2M1, gfx950 "fp4")
 *   FPF_E8M0      unsigned scale: code e is 2^(e-127), 0xff is NaN, no zero, no sign (OCP MX)
 *   FPF_F16, FPF_BF16   IEEE binary16 and bfloat16
 * Sources: the OCP Microscaling Formats (MX) v1.0 and OCP 8-bit floating point (OFP8)
 * specifications (element formats E4M3, E5M2, E2M3, E3M2, E2M1 and the E8M0 scale); for the
 * gfx942 FNUZ pair (bias 8/16, 0x80 the only NaN) the AMD CDNA3 ISA and the HIP FNUZ fp8 types;
 * for gfx950's OCP formats and the overflow/NaN/stochastic-rounding choices below, AMD's HIP
 * reference model of the gfx950 conversions (amd_hip_ocp_host.hpp) and LLVM 22's AMDGPU
 * intrinsics.  The CDNA4 ISA manual text itself was not reachable from this work's sources, so
 * behaviour it may state differently is listed as a choice wherever it is one.
 *
 * `mode` (the int argument of the encoders), a bit set:
 *   0        no saturation: a result beyond the largest finite value, or an infinite input,
 *            becomes +-inf in formats that have one (BF8_OCP, F16, BF16), the NaN code in
 *            formats that have NaN but no inf (FP8_OCP: S.1111.111 with the sign kept; FNUZ:
 *            0x80), and +-max in formats with neither (FP6, BF6, FP4).
 *   FPF_SAT  saturate: such results (infinite inputs too) become +-max.
 *   NaN inputs always give the format's NaN (FP8_OCP S.1111.111, BF8_OCP S.11111.10, FNUZ
 *   0x80, F16/BF16 the quiet NaN with the sign and top payload bits kept); formats without NaN
 *   (FP6, BF6, FP4) give +-max, as AMD's OCP reference model of gfx950 does (hip
 *   amd_hip_ocp_host.hpp, which the OCP spec leaves implementation-defined).
 *   Zero keeps its sign, except in FNUZ formats (no -0: any result rounding to 0 is 0x00).
 *   E8M0: x <= 0 and NaN give 0xff; values below 2^-127 give 0x00; overflow gives 0xff
 *   (0xfe with FPF_SAT); otherwise 2^round(log2 x) with the significand rounded to even.
 *   FPF_SR_LOW  (fpf_encode_sr only) selects the low-bits random alignment below.
 *
 * Stochastic rounding.  Let q = |x| / ulp, where ulp is the spacing of the format at |x| (its
 * denormal spacing below the normal range), and frac = q - floor(q) the exactly dropped part.
 *   default     |x| rounds away from zero iff frac + rnd * 2^-32 >= 1: rnd is a 32-bit binary
 *               fraction aligned with the format's lsb.  This is "add the random value just
 *               below the kept lsb, then truncate" with rnd's high bits next to the lsb, as
 *               AMD's gfx950 reference model does (random value shifted right by
 *               32 - (source mantissa bits - destination mantissa bits)).  It equals that model
 *               for every result in the normal range; for results in the destination's denormal
 *               range the model first truncates the source bits shifted past its mantissa,
 *               which this definition does not (differs only when frac has bits below 2^-D).
 *   FPF_SR_LOW  x must be an f32 value: D = the number of f32 significand bits dropped (f32
 *               ulp of x vs the format's ulp, so more bits for results in the format's denormal
 *               range); |x| rounds away from zero iff frac * 2^D + (rnd mod 2^D) >= 2^D
 *               (rnd whole when D >= 32).  This is "add rnd's low D bits to the f32 bits, then
 *               truncate" (the gfx942-era FNUZ software model, and v_cvt_sr_bf16_f32's S1[15:0]).
 *   After rounding, the overflow/NaN rules of `mode` apply as for fpf_encode.
 *
 * Speed: decode is a few branches and an ldexp; code that decodes in an inner loop (MFMA)
 * should fill a 256-entry table once with fpf_decode.  Encode takes 30-60 ns.  For f32 inputs
 * the branch-free fpf_enc32/fpf_dec32 at the end of this file give the same bits and vectorize
 * (the VALU conversion handlers use them).
 */
#ifndef GFXEMU_FPFMT_H
#define GFXEMU_FPFMT_H

#include <math.h>
#include <stdint.h>
#include <string.h>

/* Special-value rules of a format. */
enum {
    FPF_K_IEEE,     /* all-ones exponent: mantissa 0 = inf, else NaN */
    FPF_K_OCP_E4M3, /* only S.1111.111 is NaN; no infinity */
    FPF_K_FNUZ,     /* only 0x80 (the would-be -0) is NaN; no infinity, no -0 */
    FPF_K_FINITE,   /* every code is a finite number (FP6, BF6, FP4) */
    FPF_K_E8M0,     /* unsigned power of two, 0xff NaN */
};

typedef struct fpf_format {
    const char *name;
    unsigned char bits;  /* total width: 4, 6, 8 or 16 */
    unsigned char ebits; /* exponent bits */
    unsigned char mbits; /* stored mantissa bits */
    unsigned char kind;  /* FPF_K_* */
    int bias;
    double max; /* largest finite magnitude */
} fpf_format;

enum {
    FPF_I_FP8_OCP,
    FPF_I_BF8_OCP,
    FPF_I_FP8_FNUZ,
    FPF_I_BF8_FNUZ,
    FPF_I_FP6,
    FPF_I_BF6,
    FPF_I_FP4,
    FPF_I_E8M0,
    FPF_I_F16,
    FPF_I_BF16,
    FPF_I_N
};

static const fpf_format fpf_formats[FPF_I_N] = {
    [FPF_I_FP8_OCP] = {"fp8 (OCP E4M3)", 8, 4, 3, FPF_K_OCP_E4M3, 7, 448.0},
    [FPF_I_BF8_OCP] = {"bf8 (OCP E5M2)", 8, 5, 2, FPF_K_IEEE, 15, 57344.0},
    [FPF_I_FP8_FNUZ] = {"fp8 (E4M3 FNUZ)", 8, 4, 3, FPF_K_FNUZ, 8, 240.0},
    [FPF_I_BF8_FNUZ] = {"bf8 (E5M2 FNUZ)", 8, 5, 2, FPF_K_FNUZ, 16, 57344.0},
    [FPF_I_FP6] = {"fp6 (E2M3)", 6, 2, 3, FPF_K_FINITE, 1, 7.5},
    [FPF_I_BF6] = {"bf6 (E3M2)", 6, 3, 2, FPF_K_FINITE, 3, 28.0},
    [FPF_I_FP4] = {"fp4 (E2M1)", 4, 2, 1, FPF_K_FINITE, 1, 6.0},
    [FPF_I_E8M0] = {"e8m0", 8, 8, 0, FPF_K_E8M0, 127, 0x1p127},
    [FPF_I_F16] = {"f16", 16, 5, 10, FPF_K_IEEE, 15, 65504.0},
    [FPF_I_BF16] = {"bf16", 16, 8, 7, FPF_K_IEEE, 127, 0x1.fep127},
};

#define FPF_FP8_OCP (&fpf_formats[FPF_I_FP8_OCP])
#define FPF_BF8_OCP (&fpf_formats[FPF_I_BF8_OCP])
#define FPF_FP8_FNUZ (&fpf_formats[FPF_I_FP8_FNUZ])
#define FPF_BF8_FNUZ (&fpf_formats[FPF_I_BF8_FNUZ])
#define FPF_FP6 (&fpf_formats[FPF_I_FP6])
#define FPF_BF6 (&fpf_formats[FPF_I_BF6])
#define FPF_FP4 (&fpf_formats[FPF_I_FP4])
#define FPF_E8M0 (&fpf_formats[FPF_I_E8M0])
#define FPF_F16 (&fpf_formats[FPF_I_F16])
#define FPF_BF16 (&fpf_formats[FPF_I_BF16])

/* mode bits of the encoders */
#define FPF_SAT 1u
#define FPF_SR_LOW 2u

static inline float fpf__f32(uint32_t u) {
    float f;
    memcpy(&f, &u, 4);
    return f;
}

static inline int fpf_is_nan(unsigned bits, const fpf_format *f) {
    unsigned n = bits & ((1u << f->bits) - 1), sbit = 1u << (f->bits - 1), mag = n & (sbit - 1);
    switch (f->kind) {
    case FPF_K_IEEE:
        return (mag >> f->mbits) == (1u << f->ebits) - 1 && (mag & ((1u << f->mbits) - 1));
    case FPF_K_OCP_E4M3: return mag == sbit - 1;
    case FPF_K_FNUZ: return n == sbit;
    case FPF_K_E8M0: return n == 0xff;
    default: return 0;
    }
}

static inline float fpf_decode(unsigned bits, const fpf_format *f) {
    unsigned n = bits & ((1u << f->bits) - 1);
    if (f->kind == FPF_K_E8M0) /* 2^-127 is a float denormal: still exact */
        return n == 0xff ? fpf__f32(0x7fc00000u) : ldexpf(1.0f, (int)n - 127);
    unsigned sbit = 1u << (f->bits - 1), mag = n & (sbit - 1);
    unsigned e = mag >> f->mbits, m = mag & ((1u << f->mbits) - 1);
    uint32_t s32 = (n & sbit) ? 0x80000000u : 0;
    if (fpf_is_nan(n, f))
        return fpf__f32(s32 | 0x7fc00000u | (f->kind == FPF_K_IEEE ? m << (23 - f->mbits) : 0));
    if (f->kind == FPF_K_IEEE && e == (1u << f->ebits) - 1)
        return fpf__f32(s32 | 0x7f800000u);
    double v = e == 0 ? ldexp(m, 1 - f->bias - f->mbits)
                      : ldexp(m | 1u << f->mbits, (int)e - f->bias - f->mbits);
    return (float)(s32 ? -v : v);
}

/* The code of an overflowing (or infinite) result with sign bit sign. */
static inline unsigned fpf__overflow(const fpf_format *f, unsigned sign, int mode) {
    unsigned sbit = 1u << (f->bits - 1), emax = (1u << f->ebits) - 1;
    unsigned maxc = f->kind == FPF_K_IEEE       ? ((emax - 1) << f->mbits) | ((1u << f->mbits) - 1)
                    : f->kind == FPF_K_OCP_E4M3 ? sbit - 2
                                                : sbit - 1;
    if ((mode & FPF_SAT) || f->kind == FPF_K_FINITE)
        return sign | maxc;
    if (f->kind == FPF_K_IEEE)
        return sign | emax << f->mbits;
    if (f->kind == FPF_K_OCP_E4M3)
        return sign | (sbit - 1);
    return sbit; /* FNUZ NaN */
}

static inline unsigned fpf__nan(const fpf_format *f, unsigned sign, double x) {
    unsigned sbit = 1u << (f->bits - 1);
    switch (f->kind) {
    case FPF_K_IEEE: {
        /* quiet NaN, keeping the top payload bits of the double (as f32 -> f16 does) */
        uint64_t u;
        memcpy(&u, &x, 8);
        unsigned pay = (unsigned)((u >> (52 - f->mbits)) & ((1u << f->mbits) - 1));
        return sign | ((1u << f->ebits) - 1) << f->mbits | 1u << (f->mbits - 1) | pay;
    }
    case FPF_K_OCP_E4M3: return sign | (sbit - 1);
    case FPF_K_FNUZ: return sbit;
    default: return fpf__overflow(f, sign, FPF_SAT); /* FP6/BF6/FP4: +-max */
    }
}

/* E8M0: unsigned, no zero, no denormals; see the mode notes above. */
static inline unsigned fpf__e8m0(double x, int mode) {
    if (!(x > 0))
        return 0xff;
    if (isinf(x))
        return (mode & FPF_SAT) ? 0xfe : 0xff;
    int ex;
    double s = frexp(x, &ex) * 2; /* x = s * 2^(ex-1), s in [1, 2) */
    int e = ex - 1 + (s > 1.5 || (s == 1.5 && ((ex - 1) & 1)));
    if (e < -127)
        return 0;
    if (e > 127)
        return (mode & FPF_SAT) ? 0xfe : 0xff;
    return (unsigned)(e + 127);
}

/* Common rounding: sr = 0 for nearest-even, else stochastic with rnd. */
static inline unsigned fpf__encode(double x, const fpf_format *f, int mode, int sr, uint32_t rnd) {
    if (f->kind == FPF_K_E8M0)
        return fpf__e8m0(x, mode);
    unsigned sbit = 1u << (f->bits - 1), sign = signbit(x) ? sbit : 0;
    if (isnan(x))
        return fpf__nan(f, sign, x);
    if (isinf(x))
        return fpf__overflow(f, sign, mode);
    double a = fabs(x);
    int ex, emin = 1 - f->bias;
    frexp(a, &ex); /* a = [0.5, 1) * 2^ex; ex = 0 for a = 0 */
    int E = ex - 1 < emin ? emin : ex - 1;
    double q = ldexp(a, f->mbits - E); /* |x| in units of the format's lsb at this binade */
    double n = floor(q), frac = q - n; /* both exact */
    int up;
    if (!sr)
        up = frac > 0.5 || (frac == 0.5 && fmod(n, 2) != 0);
    else if (!(mode & FPF_SR_LOW))
        up = frac > 0 && frac >= 1 - ldexp((double)rnd, -32);
    else {
        int e32 = ex - 1 < -126 ? -126 : ex - 1; /* the f32 lsb of x is 2^(e32 - 23) */
        int D = (E - f->mbits) - (e32 - 23);
        double r = D >= 32 ? (double)rnd : D > 0 ? (double)(rnd & ((1u << D) - 1)) : 0;
        up = frac > 0 && D > 0 && frac >= 1 - ldexp(r, -D);
    }
    double r = ldexp(n + up, E - f->mbits);
    if (r > f->max)
        return fpf__overflow(f, sign, mode);
    if (r == 0)
        return f->kind == FPF_K_FNUZ ? 0 : sign;
    frexp(r, &ex);
    if (ex - 1 < emin) /* denormal: exponent field 0 */
        return sign | (unsigned)ldexp(r, f->mbits - emin);
    return sign | (unsigned)(ex - 1 + f->bias) << f->mbits |
           ((unsigned)ldexp(r, f->mbits - (ex - 1)) & ((1u << f->mbits) - 1));
}

static inline unsigned fpf_encode(double x, const fpf_format *f, int mode) {
    return fpf__encode(x, f, mode, 0, 0);
}
static inline unsigned fpf_encode_sr(double x, uint32_t rnd, const fpf_format *f, int mode) {
    return fpf__encode(x, f, mode, 1, rnd);
}

/* gfx950 v_cvt_scalef32_*: the scale operand is an f32 whose exponent field alone is the E8M0
 * scale (AMD's hip __amd_scale_to_float builds it as 1.0 * 2^scale, i.e. e8m0 << 23): returns
 * the scale exponent (field - 127), or FPF_SCALE_NAN for the field 0xff. */
#define FPF_SCALE_NAN (-128)
static inline int fpf_scale_exp(uint32_t f32bits) {
    unsigned e = (f32bits >> 23) & 0xff;
    return e == 0xff ? FPF_SCALE_NAN : (int)e - 127;
}

/* ---- fast paths for f32 inputs ----------------------------------------------------------------
 * The VALU conversions (valu_cvt.c, valu_scale.c) convert 64 lanes at a time; fpf_encode and
 * fpf_decode above take a double through frexp/ldexp/floor (libm calls, branches), 30-60 ns a
 * value.  These do the same for f32 inputs with 32-bit integer operations, int -> float
 * conversions, a float multiply and selects only, so a lane loop of them vectorizes; they return
 * the same bits as fpf_encode/fpf_encode_sr/fpf_decode for every input (checked on all 2^32 f32
 * inputs and every code, tests/exec/test_fpfmt.c checks them against an independent model).  The
 * constants of a format and mode are made once outside the loop (fpf_enc_consts, fpf_dec_consts)
 * and passed by value.
 *
 * Encoding an f32 |x| = sig * 2^(E - 23) (sig the 24-bit significand) times 2^-escale: its
 * leading bit falls at biased exponent t = E - escale + bias of the format; the format keeps
 * the top mbits + 1 bits in the normal range (t >= 1) and fewer below it, so sh = 23 - mbits +
 * max(0, 1 - t) bits are dropped and rounded (to nearest even, or stochastically);
 * the rounded q is the code's significand, and code = (max(t, 1) << mbits) + q - 2^mbits
 * (a carry out of q moves into the exponent field, and in the denormal range code = q).  A
 * code above the largest finite one overflows.  An f32 denormal input is either normalized
 * first (norm = 1, needed when escale < 0 can bring it into the format's normal range) or
 * taken as it is, E = -126 with no implicit bit (norm = 0: unscaled conversions, and the only
 * correct choice for FPF_SR_LOW, whose random bits align with the f32 bits as stored). */

typedef struct fpf_enc_k {
    uint32_t mbits;           /* stored mantissa bits */
    int32_t bias;             /* exponent bias */
    uint32_t maxc;            /* largest finite magnitude code */
    uint32_t sbit;            /* sign bit of a code */
    uint32_t ovf, ovf_s;      /* finite overflow: ovf | (sign & ovf_s) */
    uint32_t inf, inf_s;      /* infinite input: inf | (sign & inf_s) */
    uint32_t nan, nan_s, pay; /* NaN input: nan | (sign & nan_s) | (payload & pay) */
    uint32_t zero_s;          /* zero result: sign & zero_s (0 for FNUZ: no -0) */
} fpf_enc_k;

/* Rounding of fpf_enc32: nearest even (fpf_encode), stochastic with fpf_encode_sr's default
 * alignment, stochastic with FPF_SR_LOW's. */
enum { FPF_RNE, FPF_RSR, FPF_RSR_LOW };

/* Constants for f (not E8M0) and mode (FPF_SAT or 0), as fpf_encode: overflow and infinite
 * inputs by fpf__overflow, NaN by fpf__nan; canon_nan: a NaN input gives the NaN of a payload
 * of 0 (fpf__nan of the double NAN), as valu_scale.c's conversions do. */
static inline fpf_enc_k fpf_enc_consts(const fpf_format *f, int mode, int canon_nan) {
    unsigned sbit = 1u << (f->bits - 1);
    fpf_enc_k k;
    k.mbits = f->mbits;
    k.bias = f->bias;
    k.sbit = sbit;
    k.maxc = fpf__overflow(f, 0, FPF_SAT);
    k.ovf = fpf__overflow(f, 0, mode);
    k.ovf_s = k.ovf ^ fpf__overflow(f, sbit, mode);
    k.inf = k.ovf;
    k.inf_s = k.ovf_s;
    k.nan = fpf__nan(f, 0, 0.0);
    k.nan_s = k.nan ^ fpf__nan(f, sbit, 0.0);
    k.pay = f->kind == FPF_K_IEEE && !canon_nan ? (1u << f->mbits) - 1 : 0;
    k.zero_s = f->kind == FPF_K_FNUZ ? 0 : sbit;
    return k;
}

static inline uint32_t fpf__u32(float f) {
    uint32_t u;
    memcpy(&u, &f, 4);
    return u;
}
/* c ? a : b for c = 0 or 1, as masks: a ?: in the lane loops can stay a branch (GCC does not
 * if-convert a select between float results under -ftrapping-math), which stops vectorization */
static inline __attribute__((always_inline)) uint32_t fpf__sel(uint32_t c, uint32_t a, uint32_t b) {
    return (a & (0u - c)) | (b & (c - 1));
}

/* The code of the f32 x (bits) times 2^-escale in the format of k, rounded by rm (an FPF_R*
 * constant) with the random rnd for the stochastic modes; norm: see above.  x * 2^-escale
 * must stay within the double range (|escale| <= 127 does). */
static inline __attribute__((always_inline)) uint32_t fpf_enc32(uint32_t x, int32_t escale,
                                                                fpf_enc_k k, int rm, int norm,
                                                                uint32_t rnd) {
    uint32_t a = x & 0x7fffffffu, sign = (0u - (x >> 31)) & k.sbit;
    uint32_t ef = a >> 23, mf = a & 0x7fffffu, isn = ef != 0, sig;
    int32_t E;
    if (norm) { /* a denormal mf * 2^-149 as 1.f * 2^(e - 127 - 149) from the exact (float)mf */
        uint32_t fb = fpf__u32((float)(int32_t)mf);
        E = (int32_t)fpf__sel(isn, ef - 127, (fb >> 23) - 276);
        sig = fpf__sel(isn, mf, fb & 0x7fffffu) | ((uint32_t)(a != 0) << 23);
    } else {
        E = (int32_t)fpf__sel(isn, ef, 1) - 127;
        sig = mf | isn << 23;
    }
    int32_t t = E - escale + k.bias;
    int32_t sh = 23 - (int32_t)k.mbits + (t < 1 ? 1 - t : 0);
    uint32_t shc = (uint32_t)(sh > 25 ? 25 : sh); /* sig < 2^24: more drops every bit */
    uint32_t q = sig >> shc, rem = sig & ((1u << shc) - 1);
    if (rm == FPF_RNE)
        q = (sig + (1u << (shc - 1)) - 1 + (q & 1)) >> shc;
    else if (rm == FPF_RSR) {
        /* up iff rem / 2^sh + rnd / 2^32 >= 1, i.e. iff rem * 2^(32 - sh) + rnd carries out of
         * 32 bits (sh > 32: with rem's bits below 2^(sh - 32) dropped, which cannot change
         * the outcome against the integer rnd); 32-bit operations only, so it vectorizes */
        int32_t over = sh - 32;
        /* both shift counts in [0, 31]: the select evaluates both shifts (sh 0, the one case
         * past 31 on the left, has rem 0) */
        uint32_t ls = (uint32_t)(over < -31 ? 31 : over < 0 ? -over : 0);
        uint32_t rs = (uint32_t)(over < 0 ? 0 : over > 31 ? 31 : over);
        uint32_t v = fpf__sel(over <= 0, rem << ls, rem >> rs);
        q += (uint32_t)(v + rnd < v);
    } else if (rm == FPF_RSR_LOW) {
        /* up iff rem + (rnd mod 2^sh) >= 2^sh: for sh < 32 the sum fits in 32 bits (rem <
         * 2^25), for sh = 32 it is the carry out of rem + rnd, beyond it never */
        uint32_t d = (uint32_t)(sh > 31 ? 31 : sh);
        uint32_t v = rem + (rnd & fpf__sel(sh > 31, ~0u, (1u << d) - 1));
        q += fpf__sel(sh < 32, (v >> d) != 0, (sh == 32) & (v < rem));
    }
    uint32_t code = ((uint32_t)(t < 1 ? 1 : t) << k.mbits) + q - (1u << k.mbits);
    uint32_t r = fpf__sel(code > k.maxc, k.ovf | (sign & k.ovf_s),
                          fpf__sel(code != 0, code | sign, sign & k.zero_s));
    uint32_t sp = fpf__sel(a == 0x7f800000u, k.inf | (sign & k.inf_s),
                           k.nan | (sign & k.nan_s) | ((mf >> (23 - k.mbits)) & k.pay));
    return fpf__sel(a >= 0x7f800000u, sp, r);
}

typedef struct fpf_dec_k {
    uint32_t sbitpos, mbits; /* sign bit position, stored mantissa bits */
    uint32_t nrm_add;        /* (127 - bias) << 23: rebias a normal code moved into place */
    float den_scale;         /* 2^(1 - bias - mbits): the denormal step */
    uint32_t ieee_emax;      /* exponent field of inf/NaN (IEEE kind), else never matched */
    uint32_t ocp_nan;        /* magnitude of the only NaN (OCP E4M3), else never matched */
    uint32_t fnuz_nan;       /* the only NaN code (FNUZ), else never matched */
} fpf_dec_k;

/* Constants for fpf_dec32 of f (the 8-, 6- and 4-bit formats and f16: not E8M0, not bf16). */
static inline fpf_dec_k fpf_dec_consts(const fpf_format *f) {
    fpf_dec_k k;
    unsigned sbit = 1u << (f->bits - 1);
    k.sbitpos = f->bits - 1u;
    k.mbits = f->mbits;
    k.nrm_add = (uint32_t)(127 - f->bias) << 23;
    k.den_scale = fpf__f32((uint32_t)(127 + 1 - f->bias - f->mbits) << 23); /* normal */
    k.ieee_emax = f->kind == FPF_K_IEEE ? (1u << f->ebits) - 1 : ~0u;
    k.ocp_nan = f->kind == FPF_K_OCP_E4M3 ? sbit - 1 : ~0u;
    k.fnuz_nan = f->kind == FPF_K_FNUZ ? sbit : ~0u;
    return k;
}

/* fpf_decode(c, f) as f32 bits, with k = fpf_dec_consts(f). */
static inline __attribute__((always_inline)) uint32_t fpf_dec32(uint32_t c, fpf_dec_k k) {
    uint32_t sb = 1u << k.sbitpos;
    c &= (sb << 1) - 1;
    uint32_t sign = (c >> k.sbitpos) << 31, mag = c & (sb - 1), e = mag >> k.mbits;
    uint32_t m = mag & ((1u << k.mbits) - 1);
    uint32_t nrm = (mag << (23 - k.mbits)) + k.nrm_add;
    uint32_t den = fpf__u32((float)(int32_t)m * k.den_scale); /* exact */
    uint32_t r = fpf__sel(e != 0, nrm, den);
    r = fpf__sel(e == k.ieee_emax, fpf__sel(m != 0, 0x7fc00000u | m << (23 - k.mbits), 0x7f800000u),
                 r);
    r = fpf__sel((mag == k.ocp_nan) | (c == k.fnuz_nan), 0x7fc00000u, r);
    return r | sign;
}

#endif
