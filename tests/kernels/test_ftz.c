/* test_ftz.c - f32 arithmetic with the f32 denormal mode off (tests/kernels/ftz.cl, compiled with
 * -cl-denorms-are-zero -cl-fp32-correctly-rounded-divide-sqrt for gfx950 and gfx942 at -O0, -O1
 * and -O3).  The reference flushes as the CDNA3 ISA's MODE.FP_DENORM = 0 says: a denormal input
 * reads as a zero of the same sign, a denormal result is written as a zero of the same sign; the
 * operation in between is correctly rounded.  Where a result lies just below 2^-126 and rounds up
 * to it, whether it is flushed depends on when tininess is detected, so both answers pass. */
#include "common/check.h"
#include "common/kernels.h"
#include "gfxemu.h"

#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>

static uint64_t rng = 0x9b05688c2b3e6c1full;
static uint32_t rnd(void) { return kt_rand(&rng); }

#define N 1000

static float ftz(float v) { return fabsf(v) < 0x1p-126f ? copysignf(0.0f, v) : v; }

/* got is right if it has want's bits (NaN: any NaN); alt is a second acceptable answer. */
static int ok2(float got, float want, float alt) {
    if (isnan(want))
        return isnan(got);
    return bits32(got) == bits32(want) || bits32(got) == bits32(alt);
}
/* The acceptable results for an exact value e rounded to float as r: ftz(r), and r itself when
 * e is below 2^-126 in magnitude but r is not (tininess before rounding vs after). */
static float alt_of(double e, float r) {
    return fabs(e) < 0x1p-126 && fabsf(r) >= 0x1p-126f ? r : ftz(r);
}

/* Denormals, small normals just above 2^-126, and ordinary numbers, both signs. */
static float rnd_input(int i) {
    switch (i % 4) {
    case 0: return from_bits32(rnd() & 0x807fffffu); /* denormal or zero */
    case 1: return from_bits32((rnd() & 0x807fffffu) | (1 + rnd() % 8) << 23);
    case 2: return from_bits32((rnd() & 0x807fffffu) | (100 + rnd() % 60) << 23);
    default: return from_bits32((rnd() & 0x807fffffu) | (1 + rnd() % 253) << 23);
    }
}

static void t_ftz_arith(void) {
    static float a[N], b[N], c[N], out[5 * N];
    for (int i = 0; i < N; i++) {
        a[i] = rnd_input(i);
        b[i] = rnd_input((int)rnd());
        c[i] = rnd_input((int)rnd());
    }
    a[0] = 0x1p-127f, b[0] = 0x1p-127f;    /* denormal + denormal: 0 + 0 */
    a[1] = 0x1p-126f, b[1] = -0x1p-127f;   /* normal - denormal: the normal */
    a[2] = 0x1.8p-126f, b[2] = -0x1p-126f; /* a denormal difference: flushed */
    a[3] = -0x1p-100f, b[3] = 0x1p-30f;    /* a denormal product: -0 */
    kt_buf bufs[] = {KT_BUF(out), KT_BUF(a), KT_BUF(b), KT_BUF(c)};
    if (kt_map("ftz_arith", N, bufs, 1, 4))
        return;
    static const char *what[5] = {"add", "mul", "fma", "fmin", "fmax"};
    int bad[5] = {0}, flushed = 0;
    for (int i = 0; i < N; i++) {
        float x = ftz(a[i]), y = ftz(b[i]), z = ftz(c[i]);
        float sum = x + y, prod = x * y, f = fmaf(x, y, z);
        float want[5] = {ftz(sum), ftz(prod), ftz(f), fminf(x, y), fmaxf(x, y)};
        float alt[5] = {want[0], alt_of((double)x * y, prod), alt_of((double)x * y + z, f),
                        x == 0 && y == 0 ? y : want[3], x == 0 && y == 0 ? y : want[4]};
        if (x == 0 && y == 0) /* fmin/fmax of +0 and -0: either */
            want[3] = x, want[4] = x;
        for (int k = 0; k < 5; k++)
            if (!ok2(out[5 * i + k], want[k], alt[k]))
                kt_bad(&bad[k], "  ftz %s(%a, %a, %a): got %a want %a\n", what[k], a[i], b[i], c[i],
                       out[5 * i + k], want[k]);
        flushed += want[1] == 0 && prod != 0;
    }
    for (int k = 0; k < 5; k++)
        CHECK(bad[k] == 0, "%s f32 %s with denormals flushed: %d wrong", kt.tag, what[k], bad[k]);
    CHECK(flushed > 10, "%s ftz_arith: only %d products were flushed", kt.tag, flushed);
}

static void t_ftz_div_sqrt(void) {
    static float a[N], b[N], out[3 * N];
    for (int i = 0; i < N; i++) {
        a[i] = rnd_input(i);
        b[i] = rnd_input((int)rnd());
        if (i % 3 == 0)
            a[i] = fabsf(a[i]);
    }
    a[0] = 0x1p-127f, b[0] = 1.0f;        /* 0 / 1 */
    a[1] = 1.0f, b[1] = 0x1p-127f;        /* 1 / 0 = inf */
    a[2] = 0x1p-120f, b[2] = 0x1p10f;     /* a denormal quotient: flushed */
    a[3] = 0x1p100f, b[3] = 0x1p-100f;    /* overflow */
    a[4] = -0x1p-127f, b[4] = -0x1p-127f; /* 0 / 0 = NaN; sqrt(-0) = -0 */
    kt_buf bufs[] = {KT_BUF(out), KT_BUF(a), KT_BUF(b)};
    if (kt_map("ftz_div_sqrt", N, bufs, 1, 3))
        return;
    static const char *what[3] = {"division", "sqrt", "mul after the mode switches"};
    int bad[3] = {0};
    for (int i = 0; i < N; i++) {
        float x = ftz(a[i]), y = ftz(b[i]);
        float q = x / y, s = sqrtf(x), m = x * y;
        float want[3] = {ftz(q), s, ftz(m)};
        float alt[3] = {alt_of((double)x / y, q), s, alt_of((double)x * y, m)};
        for (int k = 0; k < 3; k++)
            if (!ok2(out[3 * i + k], want[k], alt[k]))
                kt_bad(&bad[k], "  ftz %s(%a, %a): got %a want %a\n", what[k], a[i], b[i],
                       out[3 * i + k], want[k]);
    }
    for (int k = 0; k < 3; k++)
        CHECK(bad[k] == 0, "%s f32 %s with denormals flushed: %d wrong", kt.tag, what[k], bad[k]);
}

int main(void) {
    static const kt_test tests[] = {t_ftz_arith, t_ftz_div_sqrt};
    return kt_main("ftz", "-cl-denorms-are-zero -cl-fp32-correctly-rounded-divide-sqrt", tests,
                   sizeof tests / sizeof tests[0], "ftz");
}
