/* valu_f32.c - single-precision VALU ops (CDNA3/CDNA4 ISA opcode tables: VOP2 V_ADD_F32 ...,
 * VOP1 V_RCP_F32 ..., VOP3 V_FMA_F32, V_DIV_SCALE_F32 ...).
 *
 * Accuracy: add/sub/mul/fma/fract/ldexp/rounding ops are exact (correctly rounded, RNE), as in
 * hardware.  The transcendental unit is modelled as correctly rounded too (hardware: rcp, rsq,
 * sqrt 1 ULP; exp, log 1 ULP; sin/cos about 2^-20 absolute), so results can differ from a real
 * MI300 by up to the manual's ULP bound.  v_rcp/v_rsq/v_sqrt/v_exp/v_log flush denormal inputs and
 * results to zero whatever the MODE (that is why LLVM scales around them).  v_sin/v_cos take
 * their argument in revolutions (sin(x * 2 pi)); v_exp/v_log are base 2. */
#include "exec/valu.h"

#define IEEE (vmode_ & MODE_IEEE) /* VMODE (valu.h) */

F32OP2(v_add_f32, hw_add(a, b)) /* (hw_*: valu.h, the hardware's NaN results) */
F32OP2(v_sub_f32, hw_sub(a, b))
F32OP2(v_subrev_f32, hw_sub(b, a)) /* (S1 - S0: S1 the first operand; not measured) */
F32OP2(v_mul_f32, hw_mul(a, b))
/* DX9 legacy multiply: 0 times anything (inf and NaN included) is +0. */
F32OP2(v_mul_legacy_f32, (a == 0.0f || b == 0.0f) ? 0.0f : hw_mul(a, b))
F32OP3(v_fma_f32, hw_fma(a, b, c))
V2(v_min_f32, FK_F32, fmin32(a, b, IEEE))
V2(v_max_f32, FK_F32, fmax32(a, b, IEEE))
V3(v_min3_f32, FK_F32, fmin32(fmin32(a, b, IEEE), c, IEEE))
V3(v_max3_f32, FK_F32, fmax32(fmax32(a, b, IEEE), c, IEEE))
/* med3: with any NaN input the result is min3 (CDNA3 ISA V_MED3_F32). */
static inline u32 med3_f32(u32 a, u32 b, u32 c, int ieee) {
    if (f32(a) != f32(a) || f32(b) != f32(b) || f32(c) != f32(c))
        return fmin32(fmin32(a, b, ieee), c, ieee);
    return fmax32(fmin32(a, b, ieee), fmin32(fmax32(a, b, ieee), c, ieee), ieee);
}
/* fmin32/fmax32 for inputs that are not NaNs: selects only (the tie picks -0 for min, +0 for
 * max, as fmin32/fmax32 do). */
static inline u32 min_num(u32 a, u32 b) {
    return f32(a) == f32(b) ? a | b : f32(a) < f32(b) ? a : b;
}
static inline u32 max_num(u32 a, u32 b) {
    return f32(a) == f32(b) ? a & b : f32(a) > f32(b) ? a : b;
}
/* med3 in one loop of selects when no lane's inputs hold a NaN (then med3_f32's result without
 * its tests), lane by lane otherwise: the per-lane tests cost 5 ns a lane. */
VFN static void v_med3_f32(wave *w, const xinst *x) {
    VMODE;
    u32 t0[LANES], t1[LANES], t2[LANES], d[LANES];
    const u32 *A = vs32(w, x, 0, t0, FK_F32), *B = vs32(w, x, 1, t1, FK_F32),
              *C = vs32(w, x, 2, t2, FK_F32);
    u32 nan = 0;
    VLOOP(l) {
        nan |= (u32)((A[l] & 0x7fffffffu) > 0x7f800000u) |
               (u32)((B[l] & 0x7fffffffu) > 0x7f800000u) |
               (u32)((C[l] & 0x7fffffffu) > 0x7f800000u);
    }
    if (!nan)
        VLOOP(l) { d[l] = max_num(min_num(A[l], B[l]), min_num(max_num(A[l], B[l]), C[l])); }
    else
        VLOOP(l) { d[l] = med3_f32(A[l], B[l], C[l], IEEE); }
    vd32(w, x, d, FK_F32);
}
/* IEEE 754-2019 maximum (max 1) / minimum (max 0) (gfx950): NaN propagates, -0 < +0. */
static inline u32 maxmin32(u32 a, u32 b, int max) {
    if (f32(a) != f32(a))
        return a | 0x400000;
    if (f32(b) != f32(b))
        return b | 0x400000;
    return max ? fmax32(a, b, 0) : fmin32(a, b, 0);
}
V3(v_maximum3_f32, FK_F32, maxmin32(maxmin32(a, b, 1), c, 1))
V3(v_minimum3_f32, FK_F32, maxmin32(maxmin32(a, b, 0), c, 0))

/* Cube-map helpers (CDNA3/CDNA4 ISA V_CUBEID/SC/TC/MA_F32): (S0, S1, S2) = (x, y, z); the major
 * axis is z when |z| >= |x| and |z| >= |y|, else y when |y| >= |x|, else x.  Comparisons with a
 * NaN are false, so a NaN coordinate falls through to the x axis, as the pseudocode reads. */
static inline int cube_axis(float x, float y, float z) {
    if (fabsf(z) >= fabsf(x) && fabsf(z) >= fabsf(y))
        return 2;
    return fabsf(y) >= fabsf(x) ? 1 : 0;
}
static inline float cube_id(float x, float y, float z) {
    int ax = cube_axis(x, y, z);
    float v = ax == 2 ? z : ax == 1 ? y : x;
    return (float)(2 * ax + (v < 0.0f));
}
static inline float cube_sc(float x, float y, float z) {
    int ax = cube_axis(x, y, z);
    return ax == 2 ? (z < 0.0f ? -x : x) : ax == 1 ? x : (x < 0.0f ? z : -z);
}
static inline float cube_tc(float x, float y, float z) {
    int ax = cube_axis(x, y, z);
    return ax == 1 ? (y < 0.0f ? -z : z) : -y;
}
static inline float cube_ma(float x, float y, float z) {
    int ax = cube_axis(x, y, z);
    return 2.0f * (ax == 2 ? z : ax == 1 ? y : x);
}
F32OP3(v_cubeid_f32, cube_id(a, b, c))
F32OP3(v_cubesc_f32, cube_sc(a, b, c))
F32OP3(v_cubetc_f32, cube_tc(a, b, c))
F32OP3(v_cubema_f32, cube_ma(a, b, c))

/* D = S0 * S1 + D: the accumulator is the destination register itself, an input like the
 * others: a denormal one reads as a signed zero when MODE flushes f32 input denormals. */
VFN static void v_fmac_f32(wave *w, const xinst *x) {
    u32 t0[LANES], t1[LANES], d[LANES];
    const u32 *A = vs32(w, x, 0, t0, FK_F32), *B = vs32(w, x, 1, t1, FK_F32);
    const u32 *D = vdreg(w, &x->in.dst[0]);
    u32 ftz = fk_flush_in(w->mode, FK_F32) ? 0x7f800000u : 0;
    VLOOP(l) {
        u32 c = (D[l] & ftz) || !ftz ? D[l] : D[l] & 0x80000000u;
        d[l] = bf32(hw_fma(f32(A[l]), f32(B[l]), f32(c)));
    }
    vd32(w, x, d, FK_F32);
}

/* D = S0 * 2^S1 (S1 a signed integer). */
VFN static void v_ldexp_f32(wave *w, const xinst *x) {
    u32 t0[LANES], t1[LANES], d[LANES];
    const u32 *A = vs32(w, x, 0, t0, FK_F32), *B = vs32(w, x, 1, t1, FK_I32);
    /* ldexpf without the call: the product of a float and 2^e (|e| <= 1000, a double) is exact
     * in double unless it leaves double's range, where the float result is 0 or infinity
     * anyway, so one rounding to float gives ldexpf's result (NaNs quieted as ldexpf does). */
    VLOOP(l) {
        i32 e = (i32)B[l];
        e = e < -1000 ? -1000 : e > 1000 ? 1000 : e;
        d[l] = bf32((float)((double)f32(A[l]) * f64((u64)(e + 1023) << 52)));
    }
    vd32(w, x, d, FK_F32);
}

/* ---- rounding and fraction ------------------------------------------------------------------ */

/* truncf/floorf/ceilf with a NaN always quiet (IEEE 754 roundToIntegral): the AVX clones'
 * vroundps quiets a signalling NaN, glibc's generic truncf returns it as it is. */
static inline float quiet_nan(float v, float r) { return v != v ? f32(bf32(v) | 0x400000u) : r; }
F32OP1(v_trunc_f32, quiet_nan(a, x_truncf(a))) /* x_truncf and the rest: valu.h */
F32OP1(v_ceil_f32, quiet_nan(a, x_ceilf(a)))
F32OP1(v_floor_f32, quiet_nan(a, x_floorf(a)))
F32OP1(v_rndne_f32, rintf(a))
F32OP1(v_fract_f32, x_fractf(a, 0x1.fffffep-1f)) /* at most 0x3f7fffff */
/* frexp's mantissa (in [0.5, 1), the input's sign) and exponent from the encoding: a denormal is
 * first made normal by 2^64 (exact); zeros give themselves and 0, infinities and NaNs themselves
 * and 0.  No frexpf call per lane. */
static inline u32 frexp_norm(u32 b) { return (b & 0x7f800000u) ? b : bf32(f32(b) * 0x1p64f); }
static inline u32 frexp_mant32(u32 b) {
    u32 n = frexp_norm(b), e = b & 0x7f800000u;
    return (e == 0x7f800000u || !(b & 0x7fffffffu)) ? b : (n & 0x807fffffu) | 0x3f000000u;
}
static inline u32 frexp_exp32(u32 b) {
    u32 n = frexp_norm(b), e = b & 0x7f800000u;
    i32 x = (i32)((n >> 23) & 0xff) - 126 - ((b & 0x7f800000u) ? 0 : 64);
    return (e == 0x7f800000u || !(b & 0x7fffffffu)) ? 0 : (u32)x;
}
V1(v_frexp_mant_f32, FK_F32, frexp_mant32(a))
V1T(v_frexp_exp_i32_f32, FK_F32, FK_I32, frexp_exp32(a))

/* ---- transcendental unit -------------------------------------------------------------------- */

static inline float ftz(float v) { return fabsf(v) < 0x1p-126f ? copysignf(0.0f, v) : v; }

/* gfx90a's unfused multiply-adds (gone from gfx940): the product is rounded to f32 before the
 * add (CDNA2 ISA V_MAD_F32: "same result as ADD after MUL_IEEE"), and denormals are flushed
 * whatever the MODE, in the inputs, the product and the result (LLVM: "v_mad_f32/v_mac_f32 do not
 * support denormals", so it selects them only for flushing kernels).  madmk/madak: the decoder
 * puts the literal K in source order, so all are S0 * S1 + S2. */
static inline float mad32(float a, float b, float c) {
    float p = hw_mul(ftz(a), ftz(b)); /* a NaN product (a NaN or inf * 0) is the result */
    return p != p ? p : ftz(hw_add(ftz(p), ftz(c)));
}
static inline float mad_legacy32(float a, float b, float c) {
    a = ftz(a), b = ftz(b); /* DX9 multiply: 0 times anything is +0 */
    float p = a == 0.0f || b == 0.0f ? 0.0f : hw_mul(a, b);
    return p != p ? p : ftz(hw_add(ftz(p), ftz(c)));
}
F32OP3(v_mad_f32, mad32(a, b, c))
F32OP3(v_madmk_f32, mad32(a, b, c))
F32OP3(v_madak_f32, mad32(a, b, c))
F32OP3(v_mad_legacy_f32, mad_legacy32(a, b, c))
/* D = S0 * S1 + D, unfused (gfx90a). */
VFN static void v_mac_f32(wave *w, const xinst *x) {
    u32 t0[LANES], t1[LANES], d[LANES];
    const u32 *A = vs32(w, x, 0, t0, FK_F32), *B = vs32(w, x, 1, t1, FK_F32);
    const u32 *D = vdreg(w, &x->in.dst[0]);
    VLOOP(l) d[l] = bf32(mad32(f32(A[l]), f32(B[l]), f32(D[l])));
    vd32(w, x, d, FK_F32);
}

F32OP1(v_rcp_f32, ftz(1.0f / ftz(a)))
F32OP1(v_rcp_iflag_f32, ftz(1.0f / ftz(a)))
F32OP1(v_rsq_f32, ftz((float)(1.0 / sqrt((double)ftz(a)))))
F32OP1(v_sqrt_f32, ftz(sqrtf(ftz(a))))
F32OP1(v_exp_f32, ftz(exp2_f32(a)))
F32OP1(v_log_f32, log2_f32(ftz(a)))
F32OP1(v_exp_legacy_f32, ftz(exp2_f32(a)))
F32OP1(v_log_legacy_f32, log2_f32(ftz(a)))
/* sin/cos of a revolution count (V_SIN_F32: D = sin(S0 * 2 * PI)), in double and without a libm
 * call, so that the lane loop vectorizes (libm's sin/cos per lane cost 1.4-1.8 us a wave).  The
 * fraction r = a - rint(a) is exact; |r| is reflected into [0, 1/8] of a revolution (0.5 - u and
 * 0.25 - u are exact there: such u have no bits below 2^-26), where x = 2 pi u <= pi/4 and the
 * Taylor series to x^17 / x^18 are within 1e-19 of sin and cos.  The result is within a few
 * double ulps of the exact value; for every one of the 2^32 inputs its float is the one a long
 * double evaluation (reduced and reflected the same way) rounds to.  The code before (libm at
 * 2 pi r, unreflected) differed on 16.8 M inputs, all where the result is small: it gave
 * -0x1.1a6264p-53 for sin(0.5 rev), and near the zeros an error of 2^-53 in 2 pi r was a
 * float ulp or more of the result (docs/perf.md, session 24).  Infinities and NaNs give the
 * default NaN. */
static inline __attribute__((always_inline)) double sin_q(double u) { /* sin(2 pi u), u <= 1/8 */
    double x = u * 6.283185307179586, z = x * x;
    double p = 1.0 / 355687428096000.0; /* 1/17!, then 1/15! ... 1/3!, signs alternating */
    p = p * -z + 1.0 / 1307674368000.0;
    p = p * -z + 1.0 / 6227020800.0;
    p = p * -z + 1.0 / 39916800.0;
    p = p * -z + 1.0 / 362880.0;
    p = p * -z + 1.0 / 5040.0;
    p = p * -z + 1.0 / 120.0;
    p = p * -z + 1.0 / 6.0;
    return x + x * (z * -p);
}
static inline __attribute__((always_inline)) double cos_q(double u) { /* cos(2 pi u), u <= 1/8 */
    double x = u * 6.283185307179586, z = x * x;
    double p = 1.0 / 6402373705728000.0; /* 1/18!, then 1/16! ... 1/2! */
    p = p * -z + 1.0 / 20922789888000.0;
    p = p * -z + 1.0 / 87178291200.0;
    p = p * -z + 1.0 / 479001600.0;
    p = p * -z + 1.0 / 3628800.0;
    p = p * -z + 1.0 / 40320.0;
    p = p * -z + 1.0 / 720.0;
    p = p * -z + 1.0 / 24.0;
    p = p * -z + 0.5;
    return 1.0 - z * p;
}
static inline __attribute__((always_inline)) double dsel(u64 m, double a, double b) {
    return f64((bf64(a) & m) | (bf64(b) & ~m)); /* m all-ones ? a : b, branch-free */
}
static inline __attribute__((always_inline)) float sin_rev(float a, int cosine) {
    double r = (double)a - rint((double)a), u = fabs(r); /* r in [-1/2, 1/2], never -0 */
    u64 past = 0 - (u64)(u > 0.25);                      /* beyond a quarter: about 1/4 */
    double v = dsel(past, 0.5 - u, u);                   /* [0, 1/4] */
    u64 hi = 0 - (u64)(v > 0.125); /* beyond an eighth: the other function of 1/4 - v */
    double q = dsel(hi, 0.25 - v, v), s = sin_q(q), c = cos_q(q);
    u64 sign = cosine ? past & 1ull << 63 : bf64(r) & 1ull << 63;
    double res = f64(bf64(cosine ? dsel(hi, s, c) : dsel(hi, c, s)) ^ sign);
    u32 nan = 0u - (u32)((bf32(a) & 0x7f800000u) == 0x7f800000u); /* inf, NaN: default NaN */
    return f32((0x7fc00000u & nan) | (bf32((float)res) & ~nan));
}
/* GCC 12's default cost model at -O2 (very cheap) leaves this loop scalar: its floats and
 * doubles need two vector widths.  (The same for trunc/floor/ceil/fract made them 2-8x
 * slower.) */
#if defined(__GNUC__) && !defined(__clang__)
#pragma GCC push_options
#pragma GCC optimize("vect-cost-model=dynamic")
#endif
F32OP1(v_sin_f32, sin_rev(a, 0))
F32OP1(v_cos_f32, sin_rev(a, 1))
#if defined(__GNUC__) && !defined(__clang__)
#pragma GCC pop_options
#endif

/* ---- division helpers (the sequence LLVM emits for fdiv) -------------------------------------
 * div_scale scales numerator or denominator by 2^+-64 so the reciprocal and quotient stay
 * normal, and reports in VCC that the quotient needs scaling back; div_fmas does the last FMA
 * and applies 2^64 (quotient estimate >= 2) or 2^-64 (below) when VCC is set; div_fixup
 * resolves zeros, infinities and NaNs from the original operands.
 * VCC departs from the manuals' pseudocode (shared by RDNA3/RDNA4/CDNA3/CDNA4) where hardware
 * does (tinygrad's hardware-verified test/amd/hw TestDivScale*): a zero numerator or denominator
 * (a denormal one flushed by MODE included) sets VCC with the NaN, and a tiny numerator
 * (exponent <= 23) scaled by 2^64 sets VCC.  Since clang's fdiv takes VCC from the numerator's
 * div_scale and div_fmas then scales the quotient by 2^-64, the denominator must stay unscaled
 * there, and the scaled quotient must stay below 2 (else div_fmas would scale up): that holds
 * when the quotient is below 2^-64.  A tiny numerator over a denominator small enough for a
 * larger quotient (no hardware value known) keeps the manual's rule: both scaled, VCC clear. */

static inline int fexp32(float v) { return (int)((bf32(v) >> 23) & 0xff); }
static float div_scale32(float s0, float den, float num, int *vcc) {
    *vcc = 1;
    if (num == 0 || den == 0)
        return NAN;
    *vcc = 0;
    double q = fabs((double)num / (double)den);
    if (fexp32(num) - fexp32(den) >= 96) {
        *vcc = 1;
        return s0 == den ? ldexpf(s0, 64) : s0;
    }
    if (fabsf(den) < 0x1p-126f)
        return ldexpf(s0, 64);
    if (fabsf(den) > 0x1p126f && q < 0x1p-126) {
        *vcc = 1;
        return s0 == den ? ldexpf(s0, -64) : s0;
    }
    if (fabsf(den) > 0x1p126f)
        return ldexpf(s0, -64);
    if (q < 0x1p-126) {
        *vcc = 1;
        return s0 == num ? ldexpf(s0, 64) : s0;
    }
    if (fexp32(num) <= 23 && q < 0x1p-64) {
        *vcc = 1;
        return s0 == num ? ldexpf(s0, 64) : s0;
    }
    if (fexp32(num) <= 23)
        return ldexpf(s0, 64);
    return s0;
}
VFN static void v_div_scale_f32(wave *w, const xinst *x) {
    u32 t0[LANES], t1[LANES], t2[LANES], d[LANES];
    const u32 *A = vs32(w, x, 0, t0, FK_F32), *B = vs32(w, x, 1, t1, FK_F32),
              *C = vs32(w, x, 2, t2, FK_F32);
    u64 vcc = 0, wm = vwmask(w, x);
    /* The common case first, for the whole wave: a numerator of biased exponent 24-254 and a
     * denominator of 1-252, whose exponents differ by -124..95, meets none of div_scale32's
     * cases (no zero, infinity or NaN, the quotient at least 2^-125, the denominator in
     * [2^-126, 2^126)): S0 as it is, VCC clear.  The per-lane tests cost 3 ns a lane. */
    u32 odd = 0;
    VLOOP(l) {
        int en = (int)((C[l] >> 23) & 0xff), ed = (int)((B[l] >> 23) & 0xff);
        odd |= (u32)(en < 24 || en > 254 || ed < 1 || ed > 252 || en - ed < -124 || en - ed > 95);
    }
    if (!odd)
        memcpy(d, A, sizeof d);
    else
        VLOOP(l) {
            int f;
            d[l] = bf32(div_scale32(f32(A[l]), f32(B[l]), f32(C[l]), &f));
            vcc |= (u64)f << l;
        }
    vd32(w, x, d, FK_F32);
    vmask_write(w, x, vcarry_dst(x), vcc & wm);
}
VFN static void v_div_fmas_f32(wave *w, const xinst *x) {
    u32 t0[LANES], t1[LANES], t2[LANES], d[LANES];
    const u32 *A = vs32(w, x, 0, t0, FK_F32), *B = vs32(w, x, 1, t1, FK_F32),
              *C = vs32(w, x, 2, t2, FK_F32);
    u64 vcc = w->s[ISA_SREG_VCC_LO] | (u64)w->s[ISA_SREG_VCC_HI] << 32;
    if (!vcc) { /* no lane scales: one loop of FMAs */
        VLOOP(l) { d[l] = bf32(hw_fma(f32(A[l]), f32(B[l]), f32(C[l]))); }
        vd32(w, x, d, FK_F32);
        return;
    }
    VLOOP(l) {
        float a = f32(A[l]), b = f32(B[l]), c = f32(C[l]);
        if (((vcc >> l) & 1) && a == a && b == b && c == c) /* one rounding: round-to-odd in
                                                             * double, exact scaling, round */
            d[l] = bf32((float)ldexp(fma_odd(a, b, c), fexp32(c) > 127 ? 64 : -64));
        else /* (a NaN operand: the multiply-add's NaN whatever VCC says) */
            d[l] = bf32(hw_fma(a, b, c));
    }
    vd32(w, x, d, FK_F32);
}
static float div_fixup32(float q, float den, float num) {
    int neg = signbit(den) != signbit(num);
    if (num != num)
        return f32(bf32(num) | 0x400000);
    if (den != den)
        return f32(bf32(den) | 0x400000);
    if ((den == 0 && num == 0) || (isinf(den) && isinf(num)))
        return f32(0xffc00000u);
    if (den == 0 || isinf(num))
        return neg ? -INFINITY : INFINITY;
    if (isinf(den) || num == 0)
        return neg ? -0.0f : 0.0f;
    if (q != q) /* the scaled quotient overflowed to inf and the FMAs made a NaN of it */
        return neg ? -INFINITY : INFINITY;
    return neg ? -fabsf(q) : fabsf(q);
}
/* When no lane has a zero, infinite or NaN numerator or denominator or a NaN quotient (all
 * finite: div_fixup32's last case), the result is the quotient's magnitude with the sign of
 * num / den: one loop of bit operations for the whole wave, div_fixup32 lane by lane otherwise
 * (its tests cost 3 ns a lane). */
VFN static void v_div_fixup_f32(wave *w, const xinst *x) {
    u32 t0[LANES], t1[LANES], t2[LANES], d[LANES];
    const u32 *A = vs32(w, x, 0, t0, FK_F32), *B = vs32(w, x, 1, t1, FK_F32),
              *C = vs32(w, x, 2, t2, FK_F32);
    u32 odd = 0;
    VLOOP(l) {
        u32 eb = B[l] & 0x7f800000u, ec = C[l] & 0x7f800000u;
        odd |= (u32)(eb == 0x7f800000u || ec == 0x7f800000u || !(B[l] & 0x7fffffffu) ||
                     !(C[l] & 0x7fffffffu) || (A[l] & 0x7fffffffu) > 0x7f800000u);
    }
    if (!odd)
        VLOOP(l) { d[l] = (A[l] & 0x7fffffffu) | ((B[l] ^ C[l]) & 0x80000000u); }
    else
        VLOOP(l) { d[l] = bf32(div_fixup32(f32(A[l]), f32(B[l]), f32(C[l]))); }
    vd32(w, x, d, FK_F32);
}

const xhandler x_valu_f32_handlers[] = {
    VHV(v_add_f32, v_add_f32, ISA_T_F32),
    VHV(v_sub_f32, v_sub_f32, ISA_T_F32),
    VHV(v_subrev_f32, v_subrev_f32, ISA_T_F32),
    VHV(v_mul_f32, v_mul_f32, ISA_T_F32),
    VHV(v_mul_legacy_f32, v_mul_legacy_f32, ISA_T_F32),
    VHV(v_fma_f32, v_fma_f32, ISA_T_F32),
    /* VOP2 (e32) v_fmac_f32 names the destination as its third source (src/isa/vop.c): that
     * is v_fma_f32 with src2 = vdst, so its plain VGPR/constant forms run v_fma_f32's clones */
    VHC(v_fmac_f32, v_fmac_f32, ISA_T_F32, v_fma_f32),
    VHV(v_mad_f32, v_mad_f32, ISA_T_F32),
    VHV(v_madmk_f32, v_madmk_f32, ISA_T_F32),
    VHV(v_madak_f32, v_madak_f32, ISA_T_F32),
    VHV(v_mad_legacy_f32, v_mad_legacy_f32, ISA_T_F32),
    VH(v_mac_f32, v_mac_f32, ISA_T_F32),
    VHV(v_fmamk_f32, v_fma_f32, ISA_T_F32),
    VHV(v_fmaak_f32, v_fma_f32, ISA_T_F32),
    VHV(v_min_f32, v_min_f32, ISA_T_F32),
    VHV(v_max_f32, v_max_f32, ISA_T_F32),
    VHV(v_min3_f32, v_min3_f32, ISA_T_F32),
    VHV(v_max3_f32, v_max3_f32, ISA_T_F32),
    VH(v_med3_f32, v_med3_f32, ISA_T_F32),
    VHV(v_maximum3_f32, v_maximum3_f32, ISA_T_F32),
    VHV(v_minimum3_f32, v_minimum3_f32, ISA_T_F32),
    VH(v_ldexp_f32, v_ldexp_f32, ISA_T_F32),
    VHV(v_trunc_f32, v_trunc_f32, ISA_T_F32),
    VHV(v_ceil_f32, v_ceil_f32, ISA_T_F32),
    VHV(v_floor_f32, v_floor_f32, ISA_T_F32),
    VHV(v_rndne_f32, v_rndne_f32, ISA_T_F32),
    VHV(v_fract_f32, v_fract_f32, ISA_T_F32),
    VHV(v_frexp_mant_f32, v_frexp_mant_f32, ISA_T_F32),
    VHV(v_frexp_exp_i32_f32, v_frexp_exp_i32_f32, ISA_T_F32),
    VHV(v_rcp_f32, v_rcp_f32, ISA_T_F32),
    VHV(v_rcp_iflag_f32, v_rcp_iflag_f32, ISA_T_F32),
    VHV(v_rsq_f32, v_rsq_f32, ISA_T_F32),
    VHV(v_sqrt_f32, v_sqrt_f32, ISA_T_F32),
    VHV(v_exp_f32, v_exp_f32, ISA_T_F32),
    VHV(v_log_f32, v_log_f32, ISA_T_F32),
    VHV(v_exp_legacy_f32, v_exp_legacy_f32, ISA_T_F32),
    VHV(v_log_legacy_f32, v_log_legacy_f32, ISA_T_F32),
    VHV(v_sin_f32, v_sin_f32, ISA_T_F32),
    VHV(v_cos_f32, v_cos_f32, ISA_T_F32),
    VH(v_div_scale_f32, v_div_scale_f32, ISA_T_F32),
    VH(v_div_fmas_f32, v_div_fmas_f32, ISA_T_F32),
    VH(v_div_fixup_f32, v_div_fixup_f32, ISA_T_F32),
    VHV(v_cubeid_f32, v_cubeid_f32, ISA_T_F32),
    VHV(v_cubesc_f32, v_cubesc_f32, ISA_T_F32),
    VHV(v_cubetc_f32, v_cubetc_f32, ISA_T_F32),
    VHV(v_cubema_f32, v_cubema_f32, ISA_T_F32),
};
const unsigned x_valu_f32_nhandlers = sizeof x_valu_f32_handlers / sizeof x_valu_f32_handlers[0];
