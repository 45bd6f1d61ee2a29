/* test_math.c - floating-point math kernels (tests/kernels/math.cl) compiled by clang-22 for
 * gfx950 and gfx942 at -O0, -O1 and -O3, checked against references computed here in double
 * (long double for f64) with libm.
 *
 * Bounds, in ULPs of the exact value (kt_ulp32/16/64):
 *  - exact ops (rounding, fract, ldexp, frexp, min/max/med3, copysign, packed f16 add/mul/fma):
 *    bit for bit;
 *  - the transcendental unit (v_rcp, v_rsq, v_sqrt, v_exp, v_log for f32, f64 and f16): 1 ULP,
 *    the hardware figure src/exec/valu_f32.c cites for the f32 ones (not re-checked against
 *    the ISA manual here).  gfxemu models them correctly rounded (at most 0.5 ULP), so more
 *    than 1 ULP is a bug either way.  The f32 ones flush denormal inputs and results to zero,
 *    so where the exact result is below 2^-126 a zero is accepted too;
 *  - v_sin/v_cos (argument in revolutions): 1 ULP, or 2^-24 absolute where the exact value is
 *    near zero.  This is gfxemu's bound (correctly rounded), far tighter than hardware's (about
 *    2^-20 absolute, as cited in valu_f32.c), so it would not pass on a real GPU;
 *  - OpenCL's default f32 division: 2.5 ULP (the OpenCL C spec's bound), default sqrt: 1 ULP
 *    (the spec allows 3; LLVM uses v_sqrt_f32 with exact scaling, so 1 ULP holds here). */
#include "common/check.h"
#include "common/kernels.h"
#include "gfxemu.h"

#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static uint64_t rng = 0x6a09e667f3bcc909ull;
static uint32_t rnd(void) { return kt_rand(&rng); }

#define N 1000 /* not a multiple of 64: the last wave is partial */

/* Random sign and mantissa, biased exponent in [lo, lo + span). */
static float rnd_f32(unsigned lo, unsigned span) {
    return from_bits32((rnd() & 0x807fffffu) | (lo + rnd() % span) << 23);
}
static double rnd_f64(unsigned lo, unsigned span) {
    uint64_t m = ((uint64_t)rnd() << 32 | rnd()) & 0x800fffffffffffffull;
    uint64_t e = lo + rnd() % span;
    double d;
    m |= e << 52;
    memcpy(&d, &m, 8);
    return d;
}

/* ---- 1. exp2 / log2 ---------------------------------------------------------------------------
 */
static void t_exp2_log2(void) {
    static float a[N], b[N], out[4 * N];
    for (int i = 0; i < N; i++) {
        /* exponents from about -160 to 130: flushed, denormal, normal and overflowing results */
        a[i] = (float)((double)(int)(rnd() % 290000) / 1000.0 - 160.0) + rnd_f32(100, 20);
        b[i] = i % 3 ? fabsf(rnd_f32(1, 253)) : fabsf(rnd_f32(0, 24)); /* with denormals */
    }
    const float ea[] = {0.0f,   -0.0f,   INFINITY, -INFINITY, NAN,
                        128.0f, -150.0f, 0.5f,     1e-8f,     -126.0f};
    const float eb[] = {0.0f,      -1.0f, INFINITY,      1.0f, NAN,
                        0x1p-149f, 2.0f,  0x1.000002p0f, 0.5f, -0.0f};
    for (int i = 0; i < 10; i++)
        a[i] = ea[i], b[i] = eb[i];
    kt_buf bufs[] = {KT_BUF(out), KT_BUF(a), KT_BUF(b)};
    if (kt_map("f32_exp2_log2", N, bufs, 1, 3))
        return;
    int bad[4] = {0};
    double worst[4] = {0};
    for (int i = 0; i < N; i++) {
        double e2 = exp2((double)a[i]);
        /* v_log flushes a denormal input to 0 (log2 = -inf) */
        double l2 = log2((double)b[i]), l2ftz = fabsf(b[i]) < 0x1p-126f ? log2(0.0 * b[i]) : l2;
        double want[4] = {e2, l2ftz, e2, l2};
        for (int k = 0; k < 4; k++) {
            float got = out[4 * i + k];
            double err = kt_ulp32(got, want[k]);
            /* the unit flushes results below 2^-126 to zero */
            int ok = err <= 1.0 || (k == 0 && fabs(want[k]) < 0x1p-126 && got == 0.0f);
            if (!ok)
                kt_bad(&bad[k], "  %s[%d].%d in=%a: got %a want %a (%.2f ULP)\n", "f32_exp2_log2",
                       i, k, k & 1 ? b[i] : a[i], got, want[k], err);
            if (ok && err > worst[k] && err < 1e29)
                worst[k] = err;
        }
    }
    CHECK(bad[0] == 0, "%s v_exp_f32 (1 ULP): %d wrong", kt.tag, bad[0]);
    CHECK(bad[1] == 0, "%s v_log_f32 (1 ULP): %d wrong", kt.tag, bad[1]);
    CHECK(bad[2] == 0, "%s llvm.exp2.f32 with denormals (1 ULP): %d wrong", kt.tag, bad[2]);
    CHECK(bad[3] == 0, "%s llvm.log2.f32 with denormals (1 ULP): %d wrong", kt.tag, bad[3]);
}

/* ---- 2. rcp / rsq / sqrt / default division ----------------------------------------------------
 */
static void t_rcp_rsq_sqrt(void) {
    static float a[N], b[N], out[5 * N];
    for (int i = 0; i < N; i++) {
        a[i] = rnd_f32(7, 240); /* |a| in [2^-120, 2^120): reciprocals stay normal */
        if (i % 3)
            a[i] = fabsf(a[i]);
        b[i] = i % 4 ? fabsf(rnd_f32(1, 253)) : rnd_f32(0, 255);
    }
    const float ea[] = {0.0f, -0.0f, INFINITY, -INFINITY, NAN, -4.0f, 4.0f, 1.0f, 0x1p-149f, 3.0f};
    const float eb[] = {1.0f, 0.0f, 2.0f, INFINITY, 1.0f, 0.0f, -1.0f, 0x1p-149f, 1.0f, 0x1p127f};
    for (int i = 0; i < 10; i++)
        a[i] = ea[i], b[i] = eb[i];
    kt_buf bufs[] = {KT_BUF(out), KT_BUF(a), KT_BUF(b)};
    if (kt_map("f32_rcp_rsq_sqrt", N, bufs, 1, 3))
        return;
    static const char *what[5] = {"v_rcp_f32", "v_rsq_f32", "v_sqrt_f32", "default f32 division",
                                  "default f32 sqrt"};
    const double bound[5] = {1, 1, 1, 2.5, 1};
    int bad[5] = {0};
    for (int i = 0; i < N; i++) {
        /* the unit flushes a denormal input to a zero of the same sign */
        double x = (double)a[i], xf = fabs(x) < 0x1p-126 ? copysign(0.0, x) : x, y = b[i];
        double want[5] = {1.0 / xf, 1.0 / sqrt(xf), sqrt(xf), y / x, sqrt(y)};
        for (int k = 0; k < 5; k++) {
            float got = out[5 * i + k];
            double err = kt_ulp32(got, want[k]);
            if (err > bound[k])
                kt_bad(&bad[k], "  %s[%d] a=%a b=%a: got %a want %a (%.2f ULP)\n", what[k], i, a[i],
                       b[i], got, want[k], err);
        }
    }
    for (int k = 0; k < 5; k++)
        CHECK(bad[k] == 0, "%s %s (%.1f ULP): %d wrong", kt.tag, what[k], bound[k], bad[k]);
}

/* ---- 3. sin / cos in revolutions ----------------------------------------------------------------
 */
static void t_sin_cos(void) {
    static float a[N], out[2 * N];
    for (int i = 0; i < N; i++)
        /* the hardware's valid domain is [-256, 256] revolutions */
        a[i] = i % 4 ? (float)((double)(int)(rnd() % 6001 - 3000) / 1000.0) + rnd_f32(100, 20)
                     : rnd_f32(60, 75);
    const float ea[] = {0.0f, -0.0f, 0.25f, 0.5f, -0.25f, 0.75f, 1.0f, 255.5f, 0x1p-30f, -100.125f};
    for (int i = 0; i < 10; i++)
        a[i] = ea[i];
    kt_buf bufs[] = {KT_BUF(out), KT_BUF(a)};
    if (kt_map("f32_sin_cos", N, bufs, 1, 2))
        return;
    int bad[2] = {0};
    for (int i = 0; i < N; i++) {
        /* reduce exactly to r in [-1/2, 1/2], then to the first octants where libm is exact
         * enough: sin(2 pi r) is computed in double from the exact r */
        double r = (double)a[i] - rint((double)a[i]);
        double want[2] = {sin(2 * M_PI * r), cos(2 * M_PI * r)};
        for (int k = 0; k < 2; k++) {
            float got = out[2 * i + k];
            double err = kt_ulp32(got, want[k]);
            if (err > 1.0 && !(fabs(got - want[k]) <= 0x1p-24))
                kt_bad(&bad[k], "  f32_sin_cos[%d].%d a=%a: got %a want %a (%.2f ULP)\n", i, k,
                       a[i], got, want[k], err);
        }
        /* the exact zeros and ones of the circle */
        if (i == 0)
            CHECK(out[0] == 0.0f && out[1] == 1.0f, "%s sin/cos(0) = %a %a", kt.tag, out[0],
                  out[1]);
        if (i == 2)
            CHECK(out[4] == 1.0f && fabsf(out[5]) <= 0x1p-24f, "%s sin/cos(1/4) = %a %a", kt.tag,
                  out[4], out[5]);
    }
    CHECK(bad[0] == 0, "%s v_sin_f32: %d wrong", kt.tag, bad[0]);
    CHECK(bad[1] == 0, "%s v_cos_f32: %d wrong", kt.tag, bad[1]);
}

/* ---- 4. f32 rounding ----------------------------------------------------------------------------
 */
static float fract_ref32(float x) {
    if (isnan(x) || isinf(x))
        return NAN; /* v_fract_f32 of an infinity is NaN (LLVM patches it for OpenCL's fract) */
    float f = (float)((double)x - floor((double)x)); /* the subtraction is exact in double */
    return f < 0x1.fffffep-1f ? f : 0x1.fffffep-1f;
}

static void t_round32(void) {
    static float a[N], b[N], out[7 * N];
    for (int i = 0; i < N; i++) {
        a[i] = i % 3 ? rnd_f32(120, 30) : (float)(int)(rnd() % 2001 - 1000) * 0.5f; /* ties */
        b[i] = rnd_f32(0, 255);
    }
    const float ea[] = {0.0f,       -0.0f,       INFINITY, -INFINITY,      NAN,
                        -0x1p-149f, 0x1p23f + 1, -2.5f,    0x1.fffffep22f, -0x1p-30f};
    for (int i = 0; i < 10; i++)
        a[i] = ea[i];
    kt_buf bufs[] = {KT_BUF(out), KT_BUF(a), KT_BUF(b)};
    if (kt_map("f32_round", N, bufs, 1, 3))
        return;
    static const char *what[7] = {"floor", "ceil", "trunc", "rint", "fract", "fabs", "copysign"};
    int bad[7] = {0};
    for (int i = 0; i < N; i++) {
        float x = a[i];
        float want[7] = {floorf(x),      ceilf(x), truncf(x),         rintf(x),
                         fract_ref32(x), fabsf(x), copysignf(x, b[i])};
        for (int k = 0; k < 7; k++)
            if (!same32(out[7 * i + k], want[k]))
                kt_bad(&bad[k], "  f32 %s(%a): got %a want %a\n", what[k], x, out[7 * i + k],
                       want[k]);
    }
    for (int k = 0; k < 7; k++)
        CHECK(bad[k] == 0, "%s f32 %s: %d wrong", kt.tag, what[k], bad[k]);
}

/* ---- 5. ldexp / frexp ---------------------------------------------------------------------------
 */
static void t_ldexp_frexp32(void) {
    static float a[N], out[2 * N];
    static int32_t e[N], exps[N];
    for (int i = 0; i < N; i++) {
        a[i] = rnd_f32(0, 255); /* denormals included */
        e[i] = (int32_t)(rnd() % 601) - 300;
    }
    const float ea[] = {0.0f, -0.0f, 0x1p-149f, 1.5f, -1.0f, 0x1.fffffep127f, 3.0f, 0x1.8p-126f};
    const int32_t ee[] = {5, -5, 149, -150, 128, 1, -149, -1};
    for (int i = 0; i < 8; i++)
        a[i] = ea[i], e[i] = ee[i];
    kt_buf bufs[] = {KT_BUF(out), KT_BUF(exps), KT_BUF(a), KT_BUF(e)};
    if (kt_map("f32_ldexp_frexp", N, bufs, 2, 4))
        return;
    int bad[3] = {0};
    for (int i = 0; i < N; i++) {
        int ex = 0;
        float m = frexpf(a[i], &ex);
        float l = ldexpf(a[i], e[i]); /* one rounding, denormal results included */
        if (!same32(out[2 * i], l))
            kt_bad(&bad[0], "  ldexp(%a, %d): got %a want %a\n", a[i], e[i], out[2 * i], l);
        if (!same32(out[2 * i + 1], m))
            kt_bad(&bad[1], "  frexp_mant(%a): got %a want %a\n", a[i], out[2 * i + 1], m);
        if (exps[i] != ex)
            kt_bad(&bad[2], "  frexp_exp(%a): got %d want %d\n", a[i], exps[i], ex);
    }
    CHECK(bad[0] == 0, "%s v_ldexp_f32: %d wrong", kt.tag, bad[0]);
    CHECK(bad[1] == 0, "%s v_frexp_mant_f32: %d wrong", kt.tag, bad[1]);
    CHECK(bad[2] == 0, "%s v_frexp_exp_i32_f32: %d wrong", kt.tag, bad[2]);
}

/* ---- 6. min / max / med3 / clamp
 * ----------------------------------------------------------------- */
static float med3(float x, float y, float z) { return fmaxf(fminf(x, y), fminf(fmaxf(x, y), z)); }

static void t_minmax(void) {
    static float a[N], b[N], c[N], out[4 * N];
    for (int i = 0; i < N; i++) {
        a[i] = rnd_f32(120, 12);
        b[i] = i % 5 == 0 ? a[i] : rnd_f32(120, 12);
        c[i] = rnd_f32(120, 12);
    }
    /* quiet NaNs: fmin/fmax return the number; infinities */
    a[0] = NAN, b[0] = 1.0f;
    a[1] = -2.0f, b[1] = NAN;
    a[2] = -INFINITY, b[2] = INFINITY;
    a[3] = 0.5f, b[3] = -3.0f, c[3] = 2.0f;
    kt_buf bufs[] = {KT_BUF(out), KT_BUF(a), KT_BUF(b), KT_BUF(c)};
    if (kt_map("f32_minmax", N, bufs, 1, 4))
        return;
    static const char *what[4] = {"fmin", "fmax", "med3", "clamp"};
    int bad[4] = {0};
    for (int i = 0; i < N; i++) {
        float x = a[i], y = b[i], z = c[i];
        int nan3 = isnan(x) || isnan(y) || isnan(z);
        float want[4] = {fminf(x, y), fmaxf(x, y), med3(x, y, z), fminf(fmaxf(x, -1.0f), 1.0f)};
        for (int k = 0; k < 4; k++)
            if (!(k == 2 && nan3) && !same32(out[4 * i + k], want[k]))
                kt_bad(&bad[k], "  %s(%a, %a, %a): got %a want %a\n", what[k], x, y, z,
                       out[4 * i + k], want[k]);
    }
    for (int k = 0; k < 4; k++)
        CHECK(bad[k] == 0, "%s f32 %s: %d wrong", kt.tag, what[k], bad[k]);
}

/* ---- 7. f64 rcp / rsq / sqrt
 * --------------------------------------------------------------------- */
static void t_f64_rcp_rsq(void) {
    static double a[N], out[3 * N];
    for (int i = 0; i < N; i++) {
        a[i] = rnd_f64(1023 - 1000, 2000);
        if (i % 3)
            a[i] = fabs(a[i]);
    }
    const double ea[] = {0.0, -0.0, INFINITY, -INFINITY, NAN, -4.0, 4.0, 1.0, 0x1p-1000, 3.0};
    for (int i = 0; i < 10; i++)
        a[i] = ea[i];
    kt_buf bufs[] = {KT_BUF(out), KT_BUF(a)};
    if (kt_map("f64_rcp_rsq", N, bufs, 1, 2))
        return;
    static const char *what[3] = {"v_rcp_f64", "v_rsq_f64", "v_sqrt_f64"};
    int bad[3] = {0};
    for (int i = 0; i < N; i++) {
        long double x = a[i];
        long double want[3] = {1.0L / x, 1.0L / sqrtl(x), sqrtl(x)};
        for (int k = 0; k < 3; k++) {
            double err = kt_ulp64(out[3 * i + k], want[k]);
            if (err > 1.0)
                kt_bad(&bad[k], "  %s(%a): got %a want %La (%.2f ULP)\n", what[k], a[i],
                       out[3 * i + k], want[k], err);
        }
    }
    for (int k = 0; k < 3; k++)
        CHECK(bad[k] == 0, "%s %s (1 ULP): %d wrong", kt.tag, what[k], bad[k]);
}

/* ---- 8. f64 rounding and exponent ops
 * ------------------------------------------------------------ */
static void t_f64_round(void) {
    static double a[N], out[7 * N];
    static int32_t e[N], exps[N];
    for (int i = 0; i < N; i++) {
        a[i] = i % 3 ? rnd_f64(1023 - 20, 80) : (double)(int)(rnd() % 2001 - 1000) * 0.5;
        if (i % 10 == 1)
            a[i] = rnd_f64(0, 2047); /* denormals, huge values */
        e[i] = (int32_t)(rnd() % 2201) - 1100;
    }
    const double ea[] = {
        0.0,     -0.0, INFINITY, -INFINITY, NAN, -0x1p-1074, 0x1p52 + 1, -2.5, 0x1.fffffffffffffp51,
        -0x1p-60};
    for (int i = 0; i < 10; i++)
        a[i] = ea[i];
    kt_buf bufs[] = {KT_BUF(out), KT_BUF(exps), KT_BUF(a), KT_BUF(e)};
    if (kt_map("f64_round", N, bufs, 2, 4))
        return;
    static const char *what[8] = {"floor", "ceil",  "trunc",      "rint",
                                  "fract", "ldexp", "frexp_mant", "frexp_exp"};
    int bad[8] = {0};
    for (int i = 0; i < N; i++) {
        double x = a[i];
        int ex = 0;
        double m = frexp(x, &ex);
        double fr = isinf(x) || isnan(x) ? NAN : fmin(x - floor(x), 0x1.fffffffffffffp-1);
        double want[7] = {floor(x), ceil(x), trunc(x), rint(x), fr, ldexp(x, e[i]), m};
        int skip_frexp = isinf(x) || isnan(x); /* not checked: see t_ldexp_frexp32 */
        for (int k = 0; k < 7; k++)
            if (!(k == 6 && skip_frexp) && !same64(out[7 * i + k], want[k]))
                kt_bad(&bad[k], "  f64 %s(%a): got %a want %a\n", what[k], x, out[7 * i + k],
                       want[k]);
        if (!skip_frexp && exps[i] != ex)
            kt_bad(&bad[7], "  f64 frexp_exp(%a): got %d want %d\n", x, exps[i], ex);
    }
    for (int k = 0; k < 8; k++)
        CHECK(bad[k] == 0, "%s f64 %s: %d wrong", kt.tag, what[k], bad[k]);
}

/* ---- 9. f16 transcendental unit
 * ------------------------------------------------------------------ */
typedef _Float16 f16;

static f16 rnd_f16(int lo_exp, int nexp) {
    double m = 1.0 + (double)(rnd() & 0x3ff) / 1024.0;
    double v = ldexp(m, lo_exp + (int)(rnd() % (unsigned)nexp));
    return (f16)(rnd() & 1 ? -v : v);
}

static void t_f16_transcend(void) {
    static f16 a[N], b[N], out[7 * N];
    for (int i = 0; i < N; i++) {
        a[i] = rnd_f16(-12, 24); /* |a| in [2^-12, 2^12): rcp stays normal */
        if (i % 4)
            a[i] = (f16)fabs((double)a[i]);
        b[i] = (f16)((double)(int)(rnd() % 8001 - 4000) / 1000.0); /* exp2 of it stays normal */
    }
    const double ea[] = {0.0, -0.0, INFINITY, -INFINITY, NAN, -4.0, 1.0, 0.25, 65504.0, 2.0};
    const double eb[] = {0.0, -0.0, 0.25, 0.5, -0.25, 1.0, 15.0, -14.0, 0.125, -1.0};
    for (int i = 0; i < 10; i++)
        a[i] = (f16)ea[i], b[i] = (f16)eb[i];
    kt_buf bufs[] = {KT_BUF(out), KT_BUF(a), KT_BUF(b)};
    if (kt_map("f16_transcend", N, bufs, 1, 3))
        return;
    static const char *what[7] = {"v_rcp_f16", "v_sqrt_f16", "v_rsq_f16", "v_exp_f16",
                                  "v_log_f16", "v_sin_f16",  "v_cos_f16"};
    int bad[7] = {0};
    for (int i = 0; i < N; i++) {
        double x = (double)a[i], y = (double)b[i], r = y - rint(y);
        double want[7] = {1.0 / x, sqrt(x),           1.0 / sqrt(x),    exp2(y),
                          log2(x), sin(2 * M_PI * r), cos(2 * M_PI * r)};
        for (int k = 0; k < 7; k++) {
            float got = (float)out[7 * i + k];
            double err = kt_ulp16(got, want[k]);
            /* sin/cos: as for f32, 2^-11 absolute near the zeros */
            if (err > 1.0 && !(k >= 5 && fabs(got - want[k]) <= 0x1p-11))
                kt_bad(&bad[k], "  %s(%a): got %a want %a (%.2f ULP)\n", what[k],
                       k == 3 || k >= 5 ? y : x, got, want[k], err);
        }
    }
    for (int k = 0; k < 7; k++)
        CHECK(bad[k] == 0, "%s %s (1 ULP): %d wrong", kt.tag, what[k], bad[k]);
}

/* ---- 10. packed half2
 * ---------------------------------------------------------------------------- */
static void t_f16x2(void) {
    static f16 a[2 * N], b[2 * N], c[2 * N], out[10 * N];
    /* |a|,|b| in [2^-6, 2^9), |c| < 2^9: a*b+c is exact in double, so each reference is rounded
     * once (double -> _Float16 is correctly rounded in libgcc) */
    for (int i = 0; i < 2 * N; i++) {
        a[i] = rnd_f16(-6, 15);
        b[i] = i % 9 == 0 ? a[i] : rnd_f16(-6, 15);
        c[i] = rnd_f16(-8, 17);
        if (i % 10 == 3) /* denormal halves (k * 2^-24): products and sums stay exact in double */
            a[i] = (f16)ldexp((double)(int)(rnd() % 2047 - 1023), -24);
        if (i % 10 == 4)
            c[i] = (f16)ldexp((double)(int)(rnd() % 2047 - 1023), -24);
    }
    a[0] = (f16)300.0, b[0] = (f16)300.0;                /* overflow to infinity */
    a[3] = (f16)-3.0, b[3] = (f16)5.0, c[3] = (f16)15.0; /* exact cancellation: +0 */
    kt_buf bufs[] = {KT_BUF(out), KT_BUF(a), KT_BUF(b), KT_BUF(c)};
    if (kt_map("f16x2_packed", N, bufs, 1, 4))
        return;
    static const char *what[5] = {"v_pk_add_f16", "v_pk_mul_f16", "v_pk_fma_f16", "v_pk_min_f16",
                                  "v_pk_max_f16"};
    int bad[5] = {0};
    for (int i = 0; i < N; i++)
        for (int h = 0; h < 2; h++) {
            int j = 2 * i + h;
            double x = (double)a[j], y = (double)b[j], z = (double)c[j];
            f16 want[5] = {(f16)(x + y), (f16)(x * y), (f16)(x * y + z), (f16)fmin(x, y),
                           (f16)fmax(x, y)};
            for (int k = 0; k < 5; k++) {
                f16 got = out[10 * i + 2 * k + h];
                if (memcmp(&got, &want[k], 2) != 0)
                    kt_bad(&bad[k], "  %s[%d].%d(%a, %a, %a): got %a want %a\n", what[k], i, h, x,
                           y, z, (double)got, (double)want[k]);
            }
        }
    for (int k = 0; k < 5; k++)
        CHECK(bad[k] == 0, "%s %s: %d wrong", kt.tag, what[k], bad[k]);
}

/* ---- 11. packed f32 -----------------------------------------------------------------------------
 */
static void t_f32x2(void) {
    static float a[2 * N], b[2 * N], c[2 * N], out[8 * N];
    for (int i = 0; i < 2 * N; i++) {
        a[i] = rnd_f32(1, 253);
        b[i] = i % 3 ? rnd_f32(64, 126) : rnd_f32(0, 30); /* products that underflow to denormals */
        c[i] = i % 4 ? rnd_f32(1, 253) : -a[i] * b[i];    /* fma != mul + add */
    }
    kt_buf bufs[] = {KT_BUF(out), KT_BUF(a), KT_BUF(b), KT_BUF(c)};
    if (kt_map("f32x2_packed", N, bufs, 1, 4))
        return;
    static const char *what[4] = {"add", "mul", "fma", "mul - swizzled"};
    int bad[4] = {0};
    for (int i = 0; i < N; i++)
        for (int h = 0; h < 2; h++) {
            int j = 2 * i + h;
            float x = a[j], y = b[j], zs = c[2 * i + 1 - h];
            float want[4] = {x + y, x * y, fmaf(x, y, c[j]), x * y - zs};
            float fused = fmaf(x, y, -zs); /* contraction (fp-contract=on) is allowed */
            for (int k = 0; k < 4; k++) {
                float got = out[8 * i + 2 * k + h];
                if (!same32(got, want[k]) && !(k == 3 && same32(got, fused)))
                    kt_bad(&bad[k], "  f32x2 %s[%d].%d(%a, %a): got %a want %a\n", what[k], i, h, x,
                           y, got, want[k]);
            }
        }
    for (int k = 0; k < 4; k++)
        CHECK(bad[k] == 0, "%s packed f32 %s: %d wrong", kt.tag, what[k], bad[k]);
}

int main(void) {
    static const kt_test tests[] = {t_exp2_log2,     t_rcp_rsq_sqrt, t_sin_cos,     t_round32,
                                    t_ldexp_frexp32, t_minmax,       t_f64_rcp_rsq, t_f64_round,
                                    t_f16_transcend, t_f16x2,        t_f32x2};
    if (kt_run_all("math", "", tests, sizeof tests / sizeof tests[0]))
        return 1;
    /* RDNA: the same kernels on gfx1100 and gfx1201, wave32 and wave64 (src/exec/rdna.c) */
    if (kt_run_rdna("math", "", tests, sizeof tests / sizeof tests[0]))
        return 1;
    return check_summary("math");
}
