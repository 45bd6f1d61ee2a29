/* test_cvt.c - conversion kernels (tests/kernels/cvt.cl) compiled by clang-22 for gfx950 and
 * gfx942 at -O0, -O1 and -O3, checked bit for bit against host conversions.
 *
 * The references: gcc's own int <-> float and float <-> double conversions (round to nearest
 * even on x86-64), libgcc's correctly rounded float/double -> _Float16, and bit-level code
 * written here for round-toward-zero to f16 and round-to-nearest-even to bf16.  Saturation
 * follows the OpenCL C convert_*_sat rules and, for v_cvt_i32_f32/v_cvt_u32_f32, the CDNA3 ISA
 * ("out-of-range values saturate, NaN converts to 0"). */
#include "common/check.h"
#include "common/kernels.h"
#include "gfxemu.h"

#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static uint64_t rng = 0xbb67ae8584caa73bull;
static uint32_t rnd(void) { return kt_rand(&rng); }
static uint64_t rnd64(void) { return (uint64_t)rnd() << 32 | rnd(); }

#define N 1000

typedef _Float16 f16;

static uint16_t bits16(f16 h) {
    uint16_t u;
    memcpy(&u, &h, 2);
    return u;
}
static int same16(f16 got, f16 want) {
    return want != want ? got != got : bits16(got) == bits16(want);
}
static float rnd_f32(unsigned lo, unsigned span) {
    return from_bits32((rnd() & 0x807fffffu) | (lo + rnd() % span) << 23);
}

/* ---- 1. 32-bit int <-> f32 ----------------------------------------------------------------------
 */
static void t_i32_f32(void) {
    static int32_t a[N], io[2 * N];
    static float b[N], f[2 * N];
    for (int i = 0; i < N; i++) {
        a[i] = (int32_t)rnd() >> (rnd() % 32);
        b[i] = i % 3 ? rnd_f32(100, 57) : (float)(int)(rnd() % 2001 - 1000) * 0.5f; /* < 2^30 */
    }
    a[0] = INT32_MIN, a[1] = INT32_MAX, a[2] = 16777217, a[3] = -16777219, a[4] = 0x7fffffc0;
    b[0] = -0x1.fffffep30f, b[1] = 0x1.fffffep30f, b[2] = -0.0f, b[3] = -0.99f, b[4] = 0x1p-149f;
    kt_buf bufs[] = {KT_BUF(f), KT_BUF(io), KT_BUF(a), KT_BUF(b)};
    if (kt_map("cvt_i32_f32", N, bufs, 2, 4))
        return;
    int bad[4] = {0};
    for (int i = 0; i < N; i++) {
        float wf[2] = {(float)a[i], (float)(uint32_t)a[i]};
        int32_t wi[2] = {(int32_t)b[i], (int32_t)(uint32_t)fabsf(b[i])};
        for (int k = 0; k < 2; k++) {
            if (!same32(f[2 * i + k], wf[k]))
                kt_bad(&bad[k], "  cvt_i32_f32[%d].%d %d: got %a want %a\n", i, k, a[i],
                       f[2 * i + k], wf[k]);
            if (io[2 * i + k] != wi[k])
                kt_bad(&bad[2 + k], "  cvt_f32_i32[%d].%d %a: got %d want %d\n", i, k, b[i],
                       io[2 * i + k], wi[k]);
        }
    }
    static const char *what[4] = {"i32->f32", "u32->f32", "f32->i32", "f32->u32"};
    for (int k = 0; k < 4; k++)
        CHECK(bad[k] == 0, "%s %s: %d wrong", kt.tag, what[k], bad[k]);
}

/* ---- 2. saturating f32 -> int -------------------------------------------------------------------
 */
static void t_sat(void) {
    static float a[N];
    static int32_t out[6 * N];
    for (int i = 0; i < N; i++)
        a[i] = i % 2 ? rnd_f32(110, 50) : (float)(int)(rnd() % 1001 - 500) * 0.5f;
    const float ea[] = {NAN,      -NAN,           INFINITY, -INFINITY,      0x1p31f,
                        -0x1p31f, 0x1.fffffep30f, 0x1p32f,  0x1.fffffep31f, -0.5f,
                        255.5f,   254.5f,         32767.9f, -32768.9f,      -1e-30f,
                        1e30f};
    for (int i = 0; i < 16; i++)
        a[i] = ea[i];
    kt_buf bufs[] = {KT_BUF(out), KT_BUF(a)};
    if (kt_map("cvt_sat", N, bufs, 1, 2))
        return;
    static const char *what[6] = {"convert_int_sat",   "convert_uint_sat", "convert_uchar_sat_rte",
                                  "convert_short_sat", "v_cvt_i32_f32",    "v_cvt_u32_f32"};
    int bad[6] = {0};
    for (int i = 0; i < N; i++) {
        double x = a[i], r = rint(x);
        int32_t w[6];
        w[0] = isnan(x)             ? 0
               : x >= 2147483647.0  ? INT32_MAX
               : x <= -2147483648.0 ? INT32_MIN
                                    : (int32_t)x;
        w[1] = isnan(x) ? 0 : x >= 4294967295.0 ? -1 : x <= 0 ? 0 : (int32_t)(uint32_t)x;
        w[2] = isnan(x) ? 0 : r >= 255 ? 255 : r <= 0 ? 0 : (int32_t)r;
        w[3] = isnan(x) ? 0 : x >= 32767 ? 32767 : x <= -32768 ? -32768 : (int32_t)x;
        w[4] = w[0]; /* the hardware saturates the same way */
        w[5] = w[1];
        for (int k = 0; k < 6; k++)
            if (out[6 * i + k] != w[k])
                kt_bad(&bad[k], "  %s(%a): got %d want %d\n", what[k], a[i], out[6 * i + k], w[k]);
    }
    for (int k = 0; k < 6; k++)
        CHECK(bad[k] == 0, "%s %s: %d wrong", kt.tag, what[k], bad[k]);
}

/* ---- 3. 64-bit int <-> f32/f64
 * ------------------------------------------------------------------- */
static void t_i64(void) {
    static int64_t a[N], l[3 * N];
    static double b[N], d[2 * N];
    static float f[2 * N];
    for (int i = 0; i < N; i++) {
        a[i] = (int64_t)rnd64() >> (rnd() % 64);
        /* |b| < 2^62, so every conversion below is in range */
        b[i] = i % 3 ? ldexp((double)(int64_t)rnd64(), -(int)(rnd() % 70) - 2)
                     : (double)(int)(rnd() % 2001 - 1000) * 0.5;
    }
    a[0] = INT64_MIN, a[1] = INT64_MAX, a[2] = (1ll << 53) + 1, a[3] = (1ll << 24) + 1;
    a[4] = -((1ll << 40) + (1ll << 16) + 1); /* f32: round up past a tie */
    a[5] = (int64_t)0xfffffe8000000000ull;   /* u64: a tie near 2^64 */
    b[0] = -0.0, b[1] = 0x1.fffffffffffffp61, b[2] = -0x1p62 + 1024,
    b[3] = 0x1.000001p60; /* f32 tie */
    kt_buf bufs[] = {KT_BUF(f), KT_BUF(d), KT_BUF(l), KT_BUF(a), KT_BUF(b)};
    if (kt_map("cvt_i64", N, bufs, 3, 5))
        return;
    static const char *what[7] = {"i64->f32", "u64->f32", "i64->f64",     "u64->f64",
                                  "f64->i64", "f64->u64", "f64->f32->i64"};
    int bad[7] = {0};
    for (int i = 0; i < N; i++) {
        int64_t x = a[i];
        double y = b[i];
        float wf[2] = {(float)x, (float)(uint64_t)x};
        double wd[2] = {(double)x, (double)(uint64_t)x};
        int64_t wl[3] = {(int64_t)y, (int64_t)(uint64_t)fabs(y), (int64_t)(float)y};
        for (int k = 0; k < 2; k++) {
            if (!same32(f[2 * i + k], wf[k]))
                kt_bad(&bad[k], "  %s(%lld): got %a want %a\n", what[k], (long long)x, f[2 * i + k],
                       wf[k]);
            if (!same64(d[2 * i + k], wd[k]))
                kt_bad(&bad[2 + k], "  %s(%lld): got %a want %a\n", what[2 + k], (long long)x,
                       d[2 * i + k], wd[k]);
        }
        for (int k = 0; k < 3; k++)
            if (l[3 * i + k] != wl[k])
                kt_bad(&bad[4 + k], "  %s(%a): got %lld want %lld\n", what[4 + k], y,
                       (long long)l[3 * i + k], (long long)wl[k]);
    }
    for (int k = 0; k < 7; k++)
        CHECK(bad[k] == 0, "%s %s: %d wrong", kt.tag, what[k], bad[k]);
}

/* ---- 4. 8- and 16-bit integers
 * ------------------------------------------------------------------- */
static void t_small_int(void) {
    static int8_t c[N], s8[N];
    static int16_t s[N], s16[N];
    static float x[N], f[4 * N];
    static int32_t o[3 * N];
    for (int i = 0; i < N; i++) {
        c[i] = (int8_t)rnd();
        s[i] = (int16_t)rnd();
        x[i] = (float)((double)(int)(rnd() % 4000001 - 2000000) / 997.0); /* |x| < 2048 */
    }
    c[0] = -128, c[1] = 127, c[2] = -1, s[0] = -32768, s[1] = 32767, s[2] = -1, s[3] = 2049;
    x[0] = 2047.9f, x[1] = -2048.0f, x[2] = -0.9f, x[3] = 1000.5f;
    kt_buf bufs[] = {
        KT_BUF(f), KT_BUF(o), KT_BUF(s16), KT_BUF(s8), KT_BUF(c), KT_BUF(s), KT_BUF(x),
    };
    if (kt_map("cvt_small_int", N, bufs, 4, 7))
        return;
    int bad = 0;
    for (int i = 0; i < N; i++) {
        float wf[4] = {(float)c[i], (float)(uint8_t)c[i], (float)s[i], (float)(f16)(uint16_t)s[i]};
        int32_t wo[3] = {c[i] + (uint8_t)c[i], s[i] + (uint16_t)s[i], (int16_t)(f16)x[i]};
        int16_t w16 = (int16_t)(uint16_t)(uint32_t)(wo[0] * 1000 + s[i]);
        int8_t w8 = (int8_t)(s[i] >> 3);
        int wrong = memcmp(&f[4 * i], wf, sizeof wf) != 0 ||
                    memcmp(&o[3 * i], wo, sizeof wo) != 0 || s16[i] != w16 || s8[i] != w8;
        if (wrong)
            kt_bad(
                &bad,
                "  cvt_small_int[%d] c=%d s=%d x=%a: got %g %g %g %g %d %d %d %d %d want %g %g %g "
                "%g %d %d %d %d %d\n",
                i, c[i], s[i], x[i], f[4 * i], f[4 * i + 1], f[4 * i + 2], f[4 * i + 3], o[3 * i],
                o[3 * i + 1], o[3 * i + 2], s16[i], s8[i], wf[0], wf[1], wf[2], wf[3], wo[0], wo[1],
                wo[2], w16, w8);
    }
    CHECK(bad == 0, "%s cvt_small_int: %d wrong", kt.tag, bad);
}

/* ---- 5. f16 -------------------------------------------------------------------------------------
 */
/* float -> f16 rounding toward zero: the nearest-even result, stepped back by one ULP toward zero
 * when it rounded away (f16 bits are sign-magnitude, so magnitude - 1 is that step; infinity - 1
 * is 65504, the largest finite half, as round-toward-zero gives on overflow). */
static f16 rtz16(float a) {
    f16 h = (f16)a;
    if (a != a || isinf(a) || fabs((double)h) <= fabs((double)a))
        return h;
    uint16_t u = bits16(h) - 1;
    memcpy(&h, &u, 2);
    return h;
}

static void t_f16(void) {
    static float a[N], b[N], f[2 * N];
    static double d[N];
    static f16 h[2 * N], pk[2 * N];
    for (int i = 0; i < N; i++) {
        a[i] = rnd_f32(127 - 28, 46); /* [2^-28, 2^18): denormal halves, overflow */
        b[i] = rnd_f32(127 - 28, 46);
        /* halfway between two halves, plus or minus a little: a double rounding through f32
         * would get some of these wrong */
        double hv = (double)(f16)rnd_f32(127 - 14, 30), ulp = ldexp(1, ilogb(hv) - 11);
        d[i] = i % 2 ? hv + ulp * (1 + ldexp((double)(int)(rnd() % 5) - 2, -30))
                     : ldexp((double)(int64_t)rnd64(), -70);
    }
    const float ea[] = {0.0f,     -0.0f,    INFINITY,        -INFINITY,
                        NAN,      65504.0f, 65519.99f,       65520.0f,
                        0x1p-24f, 0x1p-25f, 0x1.000002p-25f, -0x1.8p-24f};
    for (int i = 0; i < 12; i++)
        a[i] = ea[i], b[i] = -ea[11 - i];
    kt_buf bufs[] = {KT_BUF(h), KT_BUF(f), KT_BUF(pk), KT_BUF(a), KT_BUF(b), KT_BUF(d)};
    if (kt_map("cvt_f16", N, bufs, 3, 6))
        return;
    static const char *what[6] = {"f32->f16", "f64->f16", "f16->f32",
                                  "f16->f64", "pkrtz lo", "pkrtz hi"};
    int bad[6] = {0};
    for (int i = 0; i < N; i++) {
        f16 x = (f16)a[i];
        f16 wh[2] = {x, (f16)d[i]};
        float wf[2] = {(float)x * 2.0f, (float)((double)x + d[i])};
        f16 wp[2] = {rtz16(a[i]), rtz16(b[i])};
        for (int k = 0; k < 2; k++) {
            if (!same16(h[2 * i + k], wh[k]))
                kt_bad(&bad[k], "  %s(%a): got %a want %a\n", what[k], k ? d[i] : a[i],
                       (double)h[2 * i + k], (double)wh[k]);
            if (!same32(f[2 * i + k], wf[k]))
                kt_bad(&bad[2 + k], "  %s(%a): got %a want %a\n", what[2 + k], a[i], f[2 * i + k],
                       wf[k]);
            if (!same16(pk[2 * i + k], wp[k]))
                kt_bad(&bad[4 + k], "  %s(%a): got %a want %a\n", what[4 + k], k ? b[i] : a[i],
                       (double)pk[2 * i + k], (double)wp[k]);
        }
    }
    for (int k = 0; k < 6; k++)
        CHECK(bad[k] == 0, "%s %s: %d wrong", kt.tag, what[k], bad[k]);
}

/* ---- 6. bf16 ------------------------------------------------------------------------------------
 */
static uint16_t bf16_rne(float a) {
    uint32_t u = bits32(a);
    if (a != a)
        return 0x7fc0; /* compared as "a NaN" below */
    return (uint16_t)((u + 0x7fffu + ((u >> 16) & 1)) >> 16);
}

static void t_bf16(void) {
    static float a[N], f[N];
    static uint16_t b[N], o[N];
    for (int i = 0; i < N; i++) {
        a[i] = i % 2 ? rnd_f32(1, 253)
                     : from_bits32((rnd() & 0x80ff0000u) | 0x8000u | (rnd() % 3) << 15);
        b[i] = (uint16_t)((rnd() & 0x807f) | (1 + rnd() % 253) << 7);
    }
    const float ea[] = {
        0.0f,         -0.0f,          INFINITY,        -INFINITY, NAN, 0x1.fffffep127f,
        0x1.ff8p127f, 1.0f + 0x1p-8f, 1.0f + 0x1.8p-8f};
    for (int i = 0; i < 9; i++)
        a[i] = ea[i];
    kt_buf bufs[] = {KT_BUF(o), KT_BUF(f), KT_BUF(a), KT_BUF(b)};
    if (kt_map("cvt_bf16", N, bufs, 2, 4))
        return;
    int bad[2] = {0};
    for (int i = 0; i < N; i++) {
        uint16_t w = bf16_rne(a[i]);
        int nan_ok = a[i] != a[i] && (o[i] & 0x7f80) == 0x7f80 && (o[i] & 0x7f);
        if (o[i] != w && !nan_ok)
            kt_bad(&bad[0], "  f32->bf16(%a = %#x): got %#x want %#x\n", a[i], bits32(a[i]), o[i],
                   w);
        float wf = from_bits32((uint32_t)b[i] << 16) + 1.0f;
        if (!same32(f[i], wf))
            kt_bad(&bad[1], "  bf16->f32(%#x) + 1: got %a want %a\n", b[i], f[i], wf);
    }
    CHECK(bad[0] == 0, "%s f32->bf16: %d wrong", kt.tag, bad[0]);
    CHECK(bad[1] == 0, "%s bf16->f32: %d wrong", kt.tag, bad[1]);
}

/* ---- 7. f32 <-> f64 -----------------------------------------------------------------------------
 */
static void t_f32_f64(void) {
    static float a[N], f[N];
    static double b[N], d[N];
    for (int i = 0; i < N; i++) {
        a[i] = rnd_f32(0, 255);
        uint64_t e = 1023 - 160 + rnd() % 300; /* denormal floats, overflow */
        uint64_t m = (rnd64() & 0x800fffffffffffffull) | e << 52;
        memcpy(&b[i], &m, 8);
    }
    const double eb[] = {0.0,
                         -0.0,
                         INFINITY,
                         -INFINITY,
                         NAN,
                         0x1.fffffefffffffp127,
                         0x1.ffffffp127,
                         0x1p-150,
                         0x1.0000000000001p-150,
                         0x1.7ffffffffffffp-149};
    for (int i = 0; i < 10; i++)
        b[i] = eb[i];
    a[0] = NAN, a[1] = -INFINITY, a[2] = 0x1p-149f;
    kt_buf bufs[] = {KT_BUF(d), KT_BUF(f), KT_BUF(a), KT_BUF(b)};
    if (kt_map("cvt_f32_f64", N, bufs, 2, 4))
        return;
    int bad[2] = {0};
    for (int i = 0; i < N; i++) {
        if (!same64(d[i], (double)a[i] * 3.0))
            kt_bad(&bad[0], "  f32->f64(%a)*3: got %a want %a\n", a[i], d[i], (double)a[i] * 3.0);
        if (!same32(f[i], (float)b[i]))
            kt_bad(&bad[1], "  f64->f32(%a): got %a want %a\n", b[i], f[i], (float)b[i]);
    }
    CHECK(bad[0] == 0, "%s f32->f64: %d wrong", kt.tag, bad[0]);
    CHECK(bad[1] == 0, "%s f64->f32: %d wrong", kt.tag, bad[1]);
}

/* ---- 8. packed saturating 16-bit ----------------------------------------------------------------
 */
static void t_pk_int16(void) {
    static int32_t a[N], b[N];
    static int16_t s[2 * N];
    static uint16_t u[2 * N];
    for (int i = 0; i < N; i++) {
        a[i] = (int32_t)rnd() >> (rnd() % 32);
        b[i] = (int32_t)rnd() >> (rnd() % 32);
    }
    a[0] = 32767, b[0] = 32768, a[1] = -32768, b[1] = -32769, a[2] = 65535, b[2] = 65536;
    kt_buf bufs[] = {KT_BUF(s), KT_BUF(u), KT_BUF(a), KT_BUF(b)};
    if (kt_map("cvt_pk_int16", N, bufs, 2, 4))
        return;
    int bad[2] = {0};
    for (int i = 0; i < N; i++) {
        int32_t in[2] = {a[i], b[i]};
        for (int k = 0; k < 2; k++) {
            int32_t ws = in[k] > 32767 ? 32767 : in[k] < -32768 ? -32768 : in[k];
            uint32_t wu = (uint32_t)in[k] > 65535u ? 65535u : (uint32_t)in[k];
            if (s[2 * i + k] != ws)
                kt_bad(&bad[0], "  cvt_pk_i16(%d): got %d want %d\n", in[k], s[2 * i + k], ws);
            if (u[2 * i + k] != wu)
                kt_bad(&bad[1], "  cvt_pk_u16(%u): got %u want %u\n", (uint32_t)in[k], u[2 * i + k],
                       wu);
        }
    }
    CHECK(bad[0] == 0, "%s v_cvt_pk_i16_i32: %d wrong", kt.tag, bad[0]);
    CHECK(bad[1] == 0, "%s v_cvt_pk_u16_u32: %d wrong", kt.tag, bad[1]);
}

/* ---- 9. f64 -> 32-bit saturating ----------------------------------------------------------------
 */
static void t_f64_sat(void) {
    static double a[N];
    static int32_t out[4 * N];
    for (int i = 0; i < N; i++) {
        uint64_t m = ((uint64_t)rnd() << 32 | rnd()) & 0x800fffffffffffffull;
        uint64_t e = 1023 - 5 + rnd() % 45; /* up to 2^39: in and out of range */
        m |= e << 52;
        memcpy(&a[i], &m, 8);
    }
    const double ea[] = {NAN,           -NAN,          INFINITY,     -INFINITY,
                         2147483647.0,  2147483647.5,  2147483648.0, -2147483648.0,
                         -2147483648.9, -2147483649.0, 4294967295.9, 4294967296.0,
                         -0.5,          -1.0,          0x1p-1074,    -0.0};
    for (int i = 0; i < 16; i++)
        a[i] = ea[i];
    kt_buf bufs[] = {KT_BUF(out), KT_BUF(a)};
    if (kt_map("cvt_f64_sat", N, bufs, 1, 2))
        return;
    static const char *what[4] = {"v_cvt_i32_f64", "v_cvt_u32_f64", "clamped (int)",
                                  "clamped (uint)"};
    int bad[4] = {0};
    for (int i = 0; i < N; i++) {
        double x = a[i];
        int32_t w[4];
        w[0] = isnan(x)             ? 0
               : x >= 2147483647.0  ? INT32_MAX
               : x <= -2147483648.0 ? INT32_MIN
                                    : (int32_t)x;
        w[1] = isnan(x) ? 0 : x >= 4294967295.0 ? -1 : x <= 0 ? 0 : (int32_t)(uint32_t)x;
        w[2] = w[0];
        /* fmin returns the number for a NaN operand, in C as in OpenCL */
        w[3] = (int32_t)(uint32_t)fmin(fabs(x), 4294967295.0);
        for (int k = 0; k < 4; k++)
            if (out[4 * i + k] != w[k])
                kt_bad(&bad[k], "  %s(%a): got %d want %d\n", what[k], x, out[4 * i + k], w[k]);
    }
    for (int k = 0; k < 4; k++)
        CHECK(bad[k] == 0, "%s %s: %d wrong", kt.tag, what[k], bad[k]);
}

/* ---- 10. half2 <-> float2 ---------------------------------------------------------------------
 */
static void t_half2(void) {
    static f16 a[2 * N], h[2 * N];
    static float b[2 * N], f[2 * N];
    for (int i = 0; i < 2 * N; i++) {
        a[i] = (f16)rnd_f32(127 - 24, 40); /* denormal halves up to the largest */
        b[i] = rnd_f32(127 - 28, 46);
    }
    kt_buf bufs[] = {KT_BUF(f), KT_BUF(h), KT_BUF(a), KT_BUF(b)};
    if (kt_map("cvt_half2", N, bufs, 2, 4))
        return;
    int bad[2] = {0};
    for (int i = 0; i < N; i++)
        for (int e = 0; e < 2; e++) {
            float wf = (float)a[2 * i + 1 - e] * 3.0f;
            f16 wh = (f16)b[2 * i + 1 - e];
            if (!same32(f[2 * i + e], wf))
                kt_bad(&bad[0], "  half2->float2[%d].%d: got %a want %a\n", i, e, f[2 * i + e], wf);
            if (!same16(h[2 * i + e], wh))
                kt_bad(&bad[1], "  float2->half2[%d].%d (%a): got %a want %a\n", i, e,
                       b[2 * i + 1 - e], (double)h[2 * i + e], (double)wh);
        }
    CHECK(bad[0] == 0, "%s half2 -> float2: %d wrong", kt.tag, bad[0]);
    CHECK(bad[1] == 0, "%s float2 -> half2: %d wrong", kt.tag, bad[1]);
}

int main(void) {
    static const kt_test tests[] = {t_i32_f32, t_sat,     t_i64,      t_small_int, t_f16,
                                    t_bf16,    t_f32_f64, t_pk_int16, t_f64_sat,   t_half2};
    return kt_main("cvt", "", tests, sizeof tests / sizeof tests[0], "cvt");
}
