/* valu_f64.c - double-precision VALU ops (CDNA3/CDNA4 ISA: V_ADD_F64, V_FMA_F64, V_FMAC_F64,
 * V_RCP_F64, V_DIV_SCALE_F64, ...).  Operands are register pairs: v[i] low dword, v[i+1] high.
 *
 * Accuracy: add/mul/fma and the rounding ops are correctly rounded.  v_rcp/v_rsq/v_sqrt_f64 are
 * modelled correctly rounded (hardware: an approximation that LLVM refines with FMA steps, so
 * compiled kernels see the same final results).  v_div_fmas_f64 rounds once also when its scaled
 * result is denormal (binary128, fma_down128). */
#include "exec/valu.h"

#define IEEE (vmode_ & MODE_IEEE) /* VMODE (valu.h) */

F64OP2(v_add_f64, nan_add64(a, b, a + b)) /* (valu.h: the hardware's NaN results) */
F64OP2(v_mul_f64, nan_add64(a, b, a *b))

VFN static void v_fma_f64(wave *w, const xinst *x) {
    u64 t0[LANES], t1[LANES], t2[LANES];
    const u64 *A = vs64(w, x, 0, t0, FK_F64), *B = vs64(w, x, 1, t1, FK_F64),
              *C = vs64(w, x, 2, t2, FK_F64);
    u64 d[LANES];
    VLOOP(l) d[l] = bf64(hw_fma64(f64(A[l]), f64(B[l]), f64(C[l])));
    vd64(w, x, d, FK_F64);
}
/* D = S0 * S1 + D: the accumulator is the destination register itself, an input like the
 * others: a denormal one reads as a signed zero when MODE flushes f64 input denormals. */
VFN static void v_fmac_f64(wave *w, const xinst *x) {
    u64 t0[LANES], t1[LANES], d[LANES];
    const u64 *A = vs64(w, x, 0, t0, FK_F64), *B = vs64(w, x, 1, t1, FK_F64);
    const u32 *lo = w->v[x->in.dst[0].idx], *hi = w->v[x->in.dst[0].idx + 1];
    u64 ftz = fk_flush_in(w->mode, FK_F64) ? 0x7ff0000000000000ull : 0;
    VLOOP(l) {
        u64 c = lo[l] | (u64)hi[l] << 32;
        c = (c & ftz) || !ftz ? c : c & 0x8000000000000000ull;
        d[l] = bf64(hw_fma64(f64(A[l]), f64(B[l]), f64(c)));
    }
    vd64(w, x, d, FK_F64);
}

/* V_MIN_F64 / V_MAX_F64 (max = 1): one lane loop, the choice made once per instruction. */
VFN static void minmax_f64(wave *w, const xinst *x, int max) {
    VMODE;
    u64 t0[LANES], t1[LANES];
    const u64 *A = vs64(w, x, 0, t0, FK_F64), *B = vs64(w, x, 1, t1, FK_F64);
    u64 d[LANES];
    if (max)
        VLOOP(l) d[l] = fmax64(A[l], B[l], IEEE);
    else
        VLOOP(l) d[l] = fmin64(A[l], B[l], IEEE);
    vd64(w, x, d, FK_F64);
}
VFN static void v_min_f64(wave *w, const xinst *x) { minmax_f64(w, x, 0); }
VFN static void v_max_f64(wave *w, const xinst *x) { minmax_f64(w, x, 1); }

/* D = S0 * 2^S1 (S1 a signed 32-bit integer). */
VFN static void v_ldexp_f64(wave *w, const xinst *x) {
    u64 t0[LANES], d[LANES];
    u32 t1[LANES];
    const u64 *A = vs64(w, x, 0, t0, FK_F64);
    const u32 *B = vs32(w, x, 1, t1, FK_I32);
    VLOOP(l) {
        i32 e = (i32)B[l];
        d[l] = bf64(ldexp(f64(A[l]), e < -5000 ? -5000 : e > 5000 ? 5000 : e));
    }
    vd64(w, x, d, FK_F64);
}

F64OP1(v_trunc_f64, x_trunc(a)) /* x_trunc and the rest: valu.h */
F64OP1(v_ceil_f64, x_ceil(a))
F64OP1(v_floor_f64, x_floor(a))
F64OP1(v_rndne_f64, rint(a))
F64OP1(v_fract_f64, x_fract(a, 0x1.fffffffffffffp-1))
F64OP1(v_frexp_mant_f64, (isinf(a) || a != a) ? a : frexp(a, &(int){0}))
F64OP1(v_rcp_f64, 1.0 / a)
/* 1.0 / sqrt(a) in double rounds twice (up to 1.5 ULP); in long double the error stays near 0.5. */
F64OP1(v_rsq_f64, (double)(1.0L / sqrtl((long double)a)))
F64OP1(v_sqrt_f64, sqrt(a))

VFN static void v_frexp_exp_i32_f64(wave *w, const xinst *x) {
    u64 t0[LANES];
    u32 d[LANES];
    const u64 *A = vs64(w, x, 0, t0, FK_F64);
    VLOOP(l) {
        double a = f64(A[l]);
        int e = 0;
        if (!isinf(a) && a == a)
            frexp(a, &e);
        d[l] = (u32)e;
    }
    vd32(w, x, d, FK_I32);
}

/* ---- division helpers: as the f32 forms (valu_f32.c, VCC as hardware sets it) with 2^+-128 and
 * f64 limits (tiny numerator: exponent <= 53, quotient below 2^-128) */

static inline int fexp64(double v) { return (int)((bf64(v) >> 52) & 0x7ff); }
static double div_scale64(double s0, double den, double num, int *vcc) {
    *vcc = 1;
    if (num == 0 || den == 0)
        return NAN;
    *vcc = 0;
    long double q = fabsl((long double)num / (long double)den);
    if (fexp64(num) - fexp64(den) >= 768) {
        *vcc = 1;
        return s0 == den ? ldexp(s0, 128) : s0;
    }
    if (fabs(den) < 0x1p-1022)
        return ldexp(s0, 128);
    if (fabs(den) > 0x1p1022 && q < 0x1p-1022L) {
        *vcc = 1;
        return s0 == den ? ldexp(s0, -128) : s0;
    }
    if (fabs(den) > 0x1p1022)
        return ldexp(s0, -128);
    if (q < 0x1p-1022L) {
        *vcc = 1;
        return s0 == num ? ldexp(s0, 128) : s0;
    }
    if (fexp64(num) <= 53 && q < 0x1p-128L) {
        *vcc = 1;
        return s0 == num ? ldexp(s0, 128) : s0;
    }
    if (fexp64(num) <= 53)
        return ldexp(s0, 128);
    return s0;
}
VFN static void v_div_scale_f64(wave *w, const xinst *x) {
    u64 t0[LANES], t1[LANES], t2[LANES], d[LANES];
    const u64 *A = vs64(w, x, 0, t0, FK_F64), *B = vs64(w, x, 1, t1, FK_F64),
              *C = vs64(w, x, 2, t2, FK_F64);
    u64 vcc = 0, wm = vwmask(w, x);
    VLOOP(l) {
        int f;
        d[l] = bf64(div_scale64(f64(A[l]), f64(B[l]), f64(C[l]), &f));
        vcc |= (u64)f << l;
    }
    vd64(w, x, d, FK_F64);
    vmask_write(w, x, vcarry_dst(x), vcc & wm);
}
/* fma(a, b, c) * 2^-128 rounded once, for a denormal result: a*b is exact in binary128, TwoSum
 * gives the binary128 sum's exact error, which rounds the sum to odd (113 bits, enough for a
 * later correct rounding to the denormal's at most 52), then the exact scaling and one rounding
 * to double. */
static double fma_down128(double a, double b, double c) {
    __float128 p = (__float128)a * b, t = p + c, bp = t - c;
    __float128 e = (p - bp) + ((__float128)c - (t - bp));
    unsigned __int128 tb;
    memcpy(&tb, &t, sizeof tb);
    if (e != 0 && !(tb & 1)) {
        tb += (e > 0) == (t > 0) ? 1 : -1; /* one unit away from or toward zero */
        memcpy(&t, &tb, sizeof t);
    }
    return (double)(t * (__float128)0x1p-128);
}
VFN static void v_div_fmas_f64(wave *w, const xinst *x) {
    u64 t0[LANES], t1[LANES], t2[LANES], d[LANES];
    const u64 *A = vs64(w, x, 0, t0, FK_F64), *B = vs64(w, x, 1, t1, FK_F64),
              *C = vs64(w, x, 2, t2, FK_F64);
    u64 vcc = w->s[ISA_SREG_VCC_LO] | (u64)w->s[ISA_SREG_VCC_HI] << 32;
    VLOOP(l) {
        double r = hw_fma64(f64(A[l]), f64(B[l]), f64(C[l]));
        if (((vcc >> l) & 1) && r == r) {
            r = ldexp(r, fexp64(f64(C[l])) > 1023 ? 128 : -128);
            if (fabs(r) < 0x1p-1022 && r != 0) /* a denormal: round once, from the odd fma */
                r = fma_down128(f64(A[l]), f64(B[l]), f64(C[l]));
        }
        d[l] = bf64(r);
    }
    vd64(w, x, d, FK_F64);
}
static double div_fixup64(double q, double den, double num) {
    int neg = signbit(den) != signbit(num);
    if (num != num)
        return f64(bf64(num) | 0x8000000000000ull);
    if (den != den)
        return f64(bf64(den) | 0x8000000000000ull);
    if ((den == 0 && num == 0) || (isinf(den) && isinf(num)))
        return f64(0xfff8000000000000ull);
    if (den == 0 || isinf(num))
        return neg ? -INFINITY : INFINITY;
    if (isinf(den) || num == 0)
        return neg ? -0.0 : 0.0;
    if (q != q) /* the scaled quotient overflowed to inf and the FMAs made a NaN of it */
        return neg ? -INFINITY : INFINITY;
    return neg ? -fabs(q) : fabs(q);
}
VFN static void v_div_fixup_f64(wave *w, const xinst *x) {
    u64 t0[LANES], t1[LANES], t2[LANES], d[LANES];
    const u64 *A = vs64(w, x, 0, t0, FK_F64), *B = vs64(w, x, 1, t1, FK_F64),
              *C = vs64(w, x, 2, t2, FK_F64);
    VLOOP(l) d[l] = bf64(div_fixup64(f64(A[l]), f64(B[l]), f64(C[l])));
    vd64(w, x, d, FK_F64);
}

/* ---- v_trig_preop_f64: 53-bit segments of 2/pi for Payne-Hanek argument reduction -----------
 * TWO_OVER_PI holds floor(2/pi * 2^1201), the 1201 fraction bits b1200..b0 of 2/pi, least
 * significant word first (computed with Machin's formula to 500 digits).  The segment starts
 * S1 * 53 bits below the binary point, moved further down for huge S0 (exponent > 1077) so that
 * the product with S0 stays representable; D = segment * 2^(-53 - shift) (+128 for
 * exponent >= 1968). */
static const u64 TWO_OVER_PI[19] = {
    0xba10ac06608df8f6ull, 0x25d4d7f6bf623f1aull, 0xe2f67a0e73ef14a5ull, 0xd45aea4f758fd7cbull,
    0x136e9e8c7ecd3cbfull, 0xda3eda6cfd9e4f96ull, 0x301fde5e2316b414ull, 0x50763ff12fffbc0bull,
    0x73e93908bf177bf2ull, 0xfc827323ac7306a6ull, 0x8909d338e04d68beull, 0x4e7dd1046bea5d76ull,
    0x2439fc3bd6396253ull, 0xa5c00c925dd413a3ull, 0x8ac36e48dc74849bull, 0x2083fca2c757bd77ull,
    0xbb81b6c52b327887ull, 0x2a53f84eafa3ea69ull, 0x000145f306dc9c88ull,
};
/* bits [lo + 52 : lo] of the table (0 beyond its ends) */
static u64 two_over_pi_bits(int lo) {
    u64 r = 0;
    for (int i = 0; i < 53; i++) {
        int b = lo + i;
        if (b >= 0 && b < 1201 && ((TWO_OVER_PI[b >> 6] >> (b & 63)) & 1))
            r |= 1ull << i;
    }
    return r;
}
static double trig_preop(double a, u32 seg) {
    int e = fexp64(a);
    int shift = (int)(seg & 31) * 53 + (e > 1077 ? e - 1077 : 0);
    int scale = -53 - shift + (e >= 1968 ? 128 : 0);
    return ldexp((double)two_over_pi_bits(1148 - shift), scale);
}
VFN static void v_trig_preop_f64(wave *w, const xinst *x) {
    u64 t0[LANES], d[LANES];
    u32 t1[LANES];
    const u64 *A = vs64(w, x, 0, t0, FK_F64);
    const u32 *B = vs32(w, x, 1, t1, FK_I32);
    VLOOP(l) d[l] = bf64(trig_preop(f64(A[l]), B[l]));
    vd64(w, x, d, FK_F64);
}

const xhandler x_valu_f64_handlers[] = {
    VH(v_add_f64, v_add_f64, ISA_T_F64),
    VH(v_mul_f64, v_mul_f64, ISA_T_F64),
    VH(v_fma_f64, v_fma_f64, ISA_T_F64),
    VH(v_fmac_f64, v_fmac_f64, ISA_T_F64),
    VH(v_min_f64, v_min_f64, ISA_T_F64),
    VH(v_max_f64, v_max_f64, ISA_T_F64),
    VH(v_ldexp_f64, v_ldexp_f64, ISA_T_F64),
    VH(v_trunc_f64, v_trunc_f64, ISA_T_F64),
    VH(v_ceil_f64, v_ceil_f64, ISA_T_F64),
    VH(v_floor_f64, v_floor_f64, ISA_T_F64),
    VH(v_rndne_f64, v_rndne_f64, ISA_T_F64),
    VH(v_fract_f64, v_fract_f64, ISA_T_F64),
    VH(v_frexp_mant_f64, v_frexp_mant_f64, ISA_T_F64),
    VH(v_frexp_exp_i32_f64, v_frexp_exp_i32_f64, ISA_T_F64),
    VH(v_rcp_f64, v_rcp_f64, ISA_T_F64),
    VH(v_rsq_f64, v_rsq_f64, ISA_T_F64),
    VH(v_sqrt_f64, v_sqrt_f64, ISA_T_F64),
    VH(v_div_scale_f64, v_div_scale_f64, ISA_T_F64),
    VH(v_div_fmas_f64, v_div_fmas_f64, ISA_T_F64),
    VH(v_div_fixup_f64, v_div_fixup_f64, ISA_T_F64),
    VH(v_trig_preop_f64, v_trig_preop_f64, ISA_T_F64),
};
const unsigned x_valu_f64_nhandlers = sizeof x_valu_f64_handlers / sizeof x_valu_f64_handlers[0];
