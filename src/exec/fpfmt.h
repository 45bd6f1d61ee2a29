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
 * Sources: OCP Microscaling Formats (MX) v1.0 spec, sections 5.3 (E8M0) and 5.3.x element
 * tables (FP8 E4M3/E5M2, FP6 E2M3/E3M2, FP4 E2M1); AMD CDNA3 ISA (MI300) section "FP8/BF8
 * data formats" for the FNUZ pair (bias 8/16, 0x80 = NaN); AMD CDNA4 ISA (MI355X) for the OCP
 * formats on gfx950 and the scaled conversions.
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
 * should fill a 256-entry table once with fpf_decode.
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

#endif
