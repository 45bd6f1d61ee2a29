/* test_fdiv.c - clang-22's correctly rounded f32 and f64 division (tests/kernels/fdiv.cl) on every
 * target (CDNA at -O0, -O1, -O3; RDNA), against the host's division, bit for bit (NaN: any NaN).
 * The operands are every pair of an edge list (zeros, denormals, tiny numerators around
 * v_div_scale's exponent <= 23 / 53 rule, tiny quotients, exponent differences around 96 / 768,
 * the largest finite, infinities, NaN) and random pairs of small, ordinary and large operands:
 * v_div_scale's VCC and scaling, v_div_fmas's unscaling and v_div_fixup must work together. */
#include "common/check.h"
#include "common/kernels.h"
#include "gfxemu.h"

#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>

static uint64_t rng = 0x3c6ef372fe94f82bull;
static uint32_t rnd(void) { return kt_rand(&rng); }

static const uint32_t E32[] = {
    0x00000000, 0x80000000, 0x00000001, 0x80000001, 0x00000003, 0x0007ffff, 0x007fffff,
    0x00800000, 0x00812345, 0x80c00001, 0x0a000000, 0x0a7fffff, 0x0b800000, 0x0bffffff,
    0x0c000000, 0x1f800000, 0x1fffffff, 0x20000000, 0x3f800000, 0xbfc00000, 0x40400000,
    0x3eaaaaab, 0x4e800000, 0x4f000000, 0x4f800000, 0x5f800000, 0x7e800000, 0x7f000000,
    0x7f7fffff, 0xff7fffff, 0x7f800000, 0xff800000, 0x7fc00000, 0x2f800000, 0x30000000};
#define NE32 (sizeof E32 / sizeof E32[0])
#define N32 (NE32 * NE32 + 1000)

/* A random operand: sign, mantissa and a biased exponent from one of four ranges. */
static uint32_t rnd32(void) {
    static const unsigned lo[4] = {0, 1, 100, 200}, span[4] = {1, 40, 56, 55};
    int r = (int)(rnd() % 4);
    return (rnd() & 0x807fffffu) | (lo[r] + rnd() % span[r]) << 23;
}

static void t_fdiv32(void) {
    static float a[N32], b[N32], out[N32];
    for (size_t i = 0; i < N32; i++) {
        int edge = i < NE32 * NE32;
        a[i] = from_bits32(edge ? E32[i / NE32] : rnd32());
        b[i] = from_bits32(edge ? E32[i % NE32] : rnd32());
    }
    kt_buf bufs[] = {KT_BUF(out), KT_BUF(a), KT_BUF(b)};
    if (kt_map("fdiv_f32", N32, bufs, 1, 3))
        return;
    int bad = 0;
    for (size_t i = 0; i < N32; i++) {
        float want = a[i] / b[i];
        if (isnan(want) ? !isnan(out[i]) : bits32(out[i]) != bits32(want))
            kt_bad(&bad, "  %a / %a: got %a want %a\n", a[i], b[i], out[i], want);
    }
    CHECK(bad == 0, "%s f32 division: %d wrong", kt.tag, bad);
}

static const double E64[] = {0.0,
                             -0.0,
                             0x1p-1074,
                             -0x3p-1074,
                             0x0.fffffffffffffp-1022,
                             0x1p-1022,
                             0x1.3p-1000,
                             0x1p-971,
                             0x1.fffffffffffffp-971,
                             0x1p-970,
                             0x1p-900,
                             0x1p-128,
                             1.0,
                             -1.5,
                             3.0,
                             0x1.5555555555555p-2,
                             0x1p128,
                             0x1p231,
                             0x1p232,
                             0x1p233,
                             0x1p1000,
                             0x1p1022,
                             0x1.fffffffffffffp1023,
                             -0x1.fffffffffffffp1023,
                             INFINITY,
                             -INFINITY,
                             NAN};
#define NE64 (sizeof E64 / sizeof E64[0])
#define N64 (NE64 * NE64 + 1000)

static double rnd64(void) {
    static const unsigned lo[4] = {0, 1, 900, 1500}, span[4] = {1, 80, 250, 547};
    int r = (int)(rnd() % 4);
    uint64_t m = ((uint64_t)rnd() << 32 | rnd()) & 0x800fffffffffffffull;
    return from_bits64(m | (uint64_t)(lo[r] + rnd() % span[r]) << 52);
}

static void t_fdiv64(void) {
    static double a[N64], b[N64], out[N64];
    for (size_t i = 0; i < N64; i++) {
        int edge = i < NE64 * NE64;
        a[i] = edge ? E64[i / NE64] : rnd64();
        b[i] = edge ? E64[i % NE64] : rnd64();
    }
    kt_buf bufs[] = {KT_BUF(out), KT_BUF(a), KT_BUF(b)};
    if (kt_map("fdiv_f64", N64, bufs, 1, 3))
        return;
    int bad = 0;
    for (size_t i = 0; i < N64; i++) {
        double want = a[i] / b[i];
        if (isnan(want) ? !isnan(out[i]) : bits64(out[i]) != bits64(want))
            kt_bad(&bad, "  %a / %a: got %a want %a\n", a[i], b[i], out[i], want);
    }
    CHECK(bad == 0, "%s f64 division: %d wrong", kt.tag, bad);
}

int main(void) {
    static const kt_test tests[] = {t_fdiv32, t_fdiv64};
    return kt_main("fdiv", "-cl-fp32-correctly-rounded-divide-sqrt", tests,
                   sizeof tests / sizeof tests[0], "fdiv");
}
