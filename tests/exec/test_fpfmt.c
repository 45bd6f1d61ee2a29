/* test_fpfmt.c - exec/fpfmt.h against independently derived values.
 *
 * Independent sources:
 *   - anchor values from the OCP MX v1.0 element tables and the CDNA3 FNUZ definition, written
 *     out by hand below (max, min normal, min denormal, NaN/inf codes);
 *   - a second decoder (ref_decode) written from the format definitions with integer
 *     arithmetic and pow(), sharing no code with fpfmt.h;
 *   - the host's own f16 conversions (_Float16, rounded by the compiler/CPU) and the bf16
 *     bit-level round-to-nearest-even for random f32 values;
 *   - encoder rounding checked against the sorted list of representable values: every
 *     midpoint, and points just above and below it, must go to the neighbour a reader can work
 *     out (ties to the code with an even mantissa);
 *   - stochastic rounding thresholds computed from the exact fraction, and an integer
 *     "add rnd to the f32 bits and truncate" model for the FPF_SR_LOW alignment. */
#include "common/bits.h"
#include "common/rng.h"
#include "common/check.h"
#include "exec/fpfmt.h"

#include <math.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

static uint32_t U(float f) { return bits32(f); }
static float F(uint32_t u) { return from_bits32(u); }
static uint64_t rng_state = 0x9e3779b97f4a7c15ull;
static uint32_t rnd32(void) { return (uint32_t)(xorshift64(&rng_state) >> 16); }

/* Format descriptions for the reference decoder: what the specs say, nothing taken from the
 * header's table. nan_rule: 0 none, 1 IEEE (exp all ones), 2 only S.1..1 (OCP E4M3),
 * 3 only 0x80 (FNUZ). */
typedef struct {
    const fpf_format *f;
    int width, e, m, bias, nan_rule;
    double max, min_normal, min_denorm;
} spec;
static const spec SPECS[] = {
    {FPF_FP8_OCP, 8, 4, 3, 7, 2, 448, 0x1p-6, 0x1p-9},
    {FPF_BF8_OCP, 8, 5, 2, 15, 1, 57344, 0x1p-14, 0x1p-16},
    {FPF_FP8_FNUZ, 8, 4, 3, 8, 3, 240, 0x1p-7, 0x1p-10},
    {FPF_BF8_FNUZ, 8, 5, 2, 16, 3, 57344, 0x1p-15, 0x1p-17},
    {FPF_FP6, 6, 2, 3, 1, 0, 7.5, 1.0, 0.125},
    {FPF_BF6, 6, 3, 2, 3, 0, 28, 0.25, 0.0625},
    {FPF_FP4, 4, 2, 1, 1, 0, 6, 1.0, 0.5},
    {FPF_F16, 16, 5, 10, 15, 1, 65504, 0x1p-14, 0x1p-24},
    {FPF_BF16, 16, 8, 7, 127, 1, 0x1.fep127, 0x1p-126, 0x1p-133},
};
#define NSPEC (int)(sizeof SPECS / sizeof SPECS[0])

/* 1: value in *v; 0: NaN; 2: +-inf (sign in *v). */
static int ref_decode(const spec *s, unsigned c, double *v) {
    unsigned sign = c >> (s->width - 1) & 1, exp = (c >> s->m) & ((1u << s->e) - 1);
    unsigned man = c & ((1u << s->m) - 1);
    unsigned all = (1u << (s->width - 1)) - 1;
    if (s->nan_rule == 3 && c == 1u << (s->width - 1))
        return 0;
    if (s->nan_rule == 2 && (c & all) == all)
        return 0;
    if (s->nan_rule == 1 && exp == (1u << s->e) - 1) {
        *v = sign ? -1 : 1;
        return man ? 0 : 2;
    }
    double mag = exp ? pow(2.0, (double)exp - s->bias) * (1.0 + man / pow(2.0, s->m))
                     : pow(2.0, 1.0 - s->bias) * (man / pow(2.0, s->m));
    *v = sign ? -mag : mag;
    return 1;
}

static void test_decode_all(void) {
    for (int i = 0; i < NSPEC; i++) {
        const spec *s = &SPECS[i];
        int nans = 0, infs = 0;
        double vmax = 0, vmin_norm = INFINITY, vmin_den = INFINITY;
        for (unsigned c = 0; c < 1u << s->width; c++) {
            double want;
            int k = ref_decode(s, c, &want);
            float got = fpf_decode(c, s->f);
            CHECK(fpf_is_nan(c, s->f) == (k == 0), "%s 0x%x is_nan", s->f->name, c);
            if (k == 0) {
                nans++;
                CHECK(isnan(got), "%s 0x%x should be NaN, got %a", s->f->name, c, got);
                continue;
            }
            if (k == 2) {
                infs++;
                CHECK(isinf(got) && (got < 0) == (want < 0), "%s 0x%x inf", s->f->name, c);
                continue;
            }
            CHECK((double)got == want && !signbit(got) == !signbit(want), "%s 0x%x: got %a want %a",
                  s->f->name, c, got, want);
            double a = fabs(want);
            vmax = a > vmax ? a : vmax;
            if (a >= s->min_normal && a < vmin_norm)
                vmin_norm = a;
            if (a > 0 && a < vmin_den)
                vmin_den = a;
            /* Every decoded value is exactly a float and the extremes match the spec tables. */
            CHECK(a <= s->max, "%s 0x%x beyond max", s->f->name, c);
        }
        CHECK(vmax == s->max && vmin_norm == s->min_normal && vmin_den == s->min_denorm,
              "%s range %a %a %a", s->f->name, vmax, vmin_norm, vmin_den);
        int want_nans = s->nan_rule == 3   ? 1
                        : s->nan_rule == 2 ? 2
                        : s->nan_rule == 1 ? 2 * ((1 << s->m) - 1)
                                           : 0;
        CHECK(nans == want_nans && infs == (s->nan_rule == 1 ? 2 : 0), "%s: %d NaNs %d infs",
              s->f->name, nans, infs);
    }
    /* Hand anchors (OCP MX tables, CDNA3 FNUZ). */
    CHECK(fpf_decode(0x7e, FPF_FP8_OCP) == 448 && fpf_decode(0xfe, FPF_FP8_OCP) == -448, "e4m3");
    CHECK(isnan(fpf_decode(0x7f, FPF_FP8_OCP)) && isnan(fpf_decode(0xff, FPF_FP8_OCP)), "e4m3");
    CHECK(fpf_decode(0x38, FPF_FP8_OCP) == 1 && fpf_decode(0x01, FPF_FP8_OCP) == 0x1p-9, "e4m3");
    CHECK(fpf_decode(0x7b, FPF_BF8_OCP) == 57344 && isinf(fpf_decode(0x7c, FPF_BF8_OCP)), "e5m2");
    CHECK(fpf_decode(0x3c, FPF_BF8_OCP) == 1 && isnan(fpf_decode(0x7d, FPF_BF8_OCP)), "e5m2");
    CHECK(fpf_decode(0x7f, FPF_FP8_FNUZ) == 240 && fpf_decode(0x40, FPF_FP8_FNUZ) == 1, "fnuz");
    CHECK(isnan(fpf_decode(0x80, FPF_FP8_FNUZ)) && fpf_decode(0xff, FPF_FP8_FNUZ) == -240, "fnuz");
    CHECK(fpf_decode(0x7f, FPF_BF8_FNUZ) == 57344 && fpf_decode(0x40, FPF_BF8_FNUZ) == 1, "fnuz");
    CHECK(isnan(fpf_decode(0x80, FPF_BF8_FNUZ)) && fpf_decode(0x01, FPF_BF8_FNUZ) == 0x1p-17,
          "fnuz bf8");
    static const float fp4[16] = {0,     0.5f,  1,  1.5f,  2,  3,  4,  6,
                                  -0.0f, -0.5f, -1, -1.5f, -2, -3, -4, -6};
    for (unsigned c = 0; c < 16; c++)
        CHECK(fpf_decode(c, FPF_FP4) == fp4[c] &&
                  !signbit(fpf_decode(c, FPF_FP4)) == !signbit(fp4[c]),
              "fp4 0x%x", c);
    CHECK(fpf_decode(0x1f, FPF_FP6) == 7.5f && fpf_decode(0x08, FPF_FP6) == 1 &&
              fpf_decode(0x3f, FPF_FP6) == -7.5f && fpf_decode(0x01, FPF_FP6) == 0.125f,
          "fp6");
    CHECK(fpf_decode(0x1f, FPF_BF6) == 28 && fpf_decode(0x0c, FPF_BF6) == 1 &&
              fpf_decode(0x01, FPF_BF6) == 0.0625f,
          "bf6");
    /* E8M0: every code against ldexp, 0xff NaN, no sign bit */
    for (unsigned c = 0; c < 255; c++)
        CHECK(fpf_decode(c, FPF_E8M0) == ldexpf(1.0f, (int)c - 127), "e8m0 0x%x", c);
    CHECK(isnan(fpf_decode(0xff, FPF_E8M0)) && fpf_decode(0x7f, FPF_E8M0) == 1, "e8m0");
    CHECK(U(fpf_decode(0, FPF_E8M0)) == 0x00400000u, "e8m0 0 = 2^-127 = float denormal 0x00400000");
    /* f16 decode vs the host's _Float16, bf16 vs the high half of a float */
    for (unsigned c = 0; c < 65536; c++) {
        _Float16 h;
        uint16_t hb = (uint16_t)c;
        memcpy(&h, &hb, 2);
        float got = fpf_decode(c, FPF_F16), want = (float)h;
        CHECK(isnan(want) ? isnan(got) : U(got) == U(want), "f16 0x%04x", c);
        float gb = fpf_decode(c, FPF_BF16), wb = F(c << 16);
        CHECK(isnan(wb) ? isnan(gb) && (U(gb) & 0x80000000u) == (c << 16 & 0x80000000u)
                        : U(gb) == U(wb),
              "bf16 0x%04x", c);
    }
}

/* Positive finite codes of a format sorted by value (the encoder's targets). */
static int sorted_codes(const spec *s, unsigned *code, double *val) {
    int n = 0;
    for (unsigned c = 0; c < 1u << (s->width - 1); c++) {
        double v;
        if (ref_decode(s, c, &v) != 1)
            continue;
        int j = n++;
        while (j > 0 && val[j - 1] > v) {
            val[j] = val[j - 1];
            code[j] = code[j - 1];
            j--;
        }
        val[j] = v;
        code[j] = c;
    }
    return n;
}

static void test_encode_rne(void) {
    static unsigned code[1 << 16];
    static double val[1 << 16];
    for (int i = 0; i < NSPEC; i++) {
        const spec *s = &SPECS[i];
        const fpf_format *f = s->f;
        unsigned sbit = 1u << (s->width - 1);
        int n = sorted_codes(s, code, val);
        int fnuz = s->nan_rule == 3;
        for (int j = 0; j < n; j++) {
            /* round trip, both signs */
            CHECK(fpf_encode(val[j], f, 0) == code[j], "%s rt %a", f->name, val[j]);
            unsigned neg = val[j] == 0 && fnuz ? 0 : code[j] | sbit;
            CHECK(fpf_encode(-val[j], f, 0) == neg, "%s rt -%a: %x", f->name, val[j],
                  fpf_encode(-val[j], f, 0));
            if (j + 1 == n)
                break;
            double lo = val[j], hi = val[j + 1], mid = (lo + hi) / 2, eps = (hi - lo) / 64;
            unsigned even = (code[j] & 1) == 0 ? code[j] : code[j + 1];
            CHECK(fpf_encode(mid, f, 0) == even, "%s tie %a -> %x", f->name, mid,
                  fpf_encode(mid, f, 0));
            CHECK(fpf_encode(mid + eps, f, 0) == code[j + 1], "%s above tie %a", f->name, mid);
            CHECK(fpf_encode(mid - eps, f, 0) == code[j], "%s below tie %a", f->name, mid);
            unsigned nh = code[j + 1] | sbit, nl = lo == 0 && fnuz ? 0 : code[j] | sbit;
            CHECK(fpf_encode(-(mid + eps), f, 0) == nh && fpf_encode(-(mid - eps), f, 0) == nl,
                  "%s negative near tie %a", f->name, mid);
        }
        /* Below half the smallest denormal: zero (signed unless FNUZ); above: the denormal. */
        double dmin = s->min_denorm;
        CHECK(fpf_encode(dmin * 0.25, f, 0) == 0 && fpf_encode(dmin / 2, f, 0) == 0, "%s", f->name);
        CHECK(fpf_encode(-dmin / 2, f, 0) == (fnuz ? 0 : sbit), "%s -tiny", f->name);
        CHECK(fpf_encode(dmin * 0.51, f, 0) == 1, "%s tiny up", f->name);
        CHECK(fpf_encode(-0.0, f, 0) == (fnuz ? 0 : sbit), "%s -0", f->name);
    }
}

/* Overflow, infinities and NaN: hand-written expected codes. */
static void test_encode_special(void) {
    struct {
        const fpf_format *f;
        double x;
        int mode;
        unsigned want;
    } t[] = {
        /* OCP E4M3: max 448 (0x7e); 464 is the tie between 448 and the NaN slot 480 */
        {FPF_FP8_OCP, 460, 0, 0x7e},
        {FPF_FP8_OCP, 464, 0, 0x7e}, /* tie to even mantissa 110 = 448 */
        {FPF_FP8_OCP, 465, 0, 0x7f}, /* rounds to 480: beyond max: NaN */
        {FPF_FP8_OCP, -1000, 0, 0xff},
        {FPF_FP8_OCP, 1000, FPF_SAT, 0x7e},
        {FPF_FP8_OCP, -INFINITY, FPF_SAT, 0xfe},
        {FPF_FP8_OCP, INFINITY, 0, 0x7f},
        {FPF_FP8_OCP, NAN, 0, 0x7f},
        {FPF_FP8_OCP, -NAN, FPF_SAT, 0xff},
        /* OCP E5M2: IEEE-like */
        {FPF_BF8_OCP, 61439, 0, 0x7b},
        {FPF_BF8_OCP, 61440, 0, 0x7c}, /* tie between 57344 (m=11) and 2^16: even is inf */
        {FPF_BF8_OCP, -1e6, 0, 0xfc},
        {FPF_BF8_OCP, 1e6, FPF_SAT, 0x7b},
        {FPF_BF8_OCP, INFINITY, 0, 0x7c},
        {FPF_BF8_OCP, -INFINITY, FPF_SAT, 0xfb},
        {FPF_BF8_OCP, NAN, 0, 0x7e},
        /* FNUZ: overflow -> 0x80 unless saturating */
        {FPF_FP8_FNUZ, 247, 0, 0x7f},
        {FPF_FP8_FNUZ, 248, 0, 0x80}, /* tie 240 (m=111) vs 256 (even): beyond max: NaN */
        {FPF_FP8_FNUZ, 249, 0, 0x80},
        {FPF_FP8_FNUZ, -1000, FPF_SAT, 0xff},
        {FPF_FP8_FNUZ, INFINITY, 0, 0x80},
        {FPF_FP8_FNUZ, NAN, FPF_SAT, 0x80},
        {FPF_BF8_FNUZ, 1e6, 0, 0x80},
        {FPF_BF8_FNUZ, -1e6, FPF_SAT, 0xff},
        /* no inf/NaN formats: always +-max */
        {FPF_FP6, 100, 0, 0x1f},
        {FPF_FP6, -INFINITY, 0, 0x3f},
        {FPF_FP6, NAN, 0, 0x1f},
        {FPF_FP6, -NAN, 0, 0x3f},
        {FPF_BF6, 30, 0, 0x1f},
        {FPF_BF6, -1e9, FPF_SAT, 0x3f},
        {FPF_FP4, 5, 0, 0x6}, /* tie 4 (m=0) vs 6 (m=1): 4 */
        {FPF_FP4, 7, 0, 0x7},
        {FPF_FP4, 100, 0, 0x7},
        {FPF_FP4, -NAN, 0, 0xf},
        {FPF_FP4, 0.25, 0, 0x0}, /* tie 0 vs 0.5: 0 */
        {FPF_FP4, 0.75, 0, 0x2}, /* tie 0.5 (m=1) vs 1.0 (m=0): 1.0 */
        /* f16 / bf16 */
        {FPF_F16, 65520, 0, 0x7c00},
        {FPF_F16, 65519, 0, 0x7bff},
        {FPF_F16, 1e9, FPF_SAT, 0x7bff},
        {FPF_F16, -INFINITY, 0, 0xfc00},
        {FPF_F16, NAN, 0, 0x7e00},
        {FPF_BF16, 0x1.ffp127, 0, 0x7f80},
        {FPF_BF16, -0x1.ffp127, FPF_SAT, 0xff7f},
        /* E8M0 */
        {FPF_E8M0, 1.0, 0, 0x7f},
        {FPF_E8M0, 0x1p-127, 0, 0x00},
        {FPF_E8M0, 0x1p127, 0, 0xfe},
        {FPF_E8M0, 0x1p128, 0, 0xff},
        {FPF_E8M0, 0x1p128, FPF_SAT, 0xfe},
        {FPF_E8M0, 0x1p-140, 0, 0x00},
        {FPF_E8M0, 0.0, 0, 0xff},
        {FPF_E8M0, -4.0, 0, 0xff},
        {FPF_E8M0, NAN, 0, 0xff},
        {FPF_E8M0, 1.4, 0, 0x7f},
        {FPF_E8M0, 1.6, 0, 0x80},
    };
    for (unsigned i = 0; i < sizeof t / sizeof t[0]; i++) {
        unsigned got = fpf_encode(t[i].x, t[i].f, t[i].mode);
        CHECK(got == t[i].want, "%s encode(%a, mode %d) = 0x%x, want 0x%x", t[i].f->name, t[i].x,
              t[i].mode, got, t[i].want);
    }
}

/* f32 -> f16 vs the host conversion; f32 -> bf16 vs the bit-level RNE. */
static void test_encode_random(void) {
    for (int i = 0; i < 200000; i++) {
        uint32_t b = rnd32();
        float x = F(b);
        if (isnan(x))
            continue;
        _Float16 h = (_Float16)x;
        uint16_t hb;
        memcpy(&hb, &h, 2);
        unsigned got = fpf_encode(x, FPF_F16, 0);
        CHECK(got == hb, "f16(%a) = 0x%x want 0x%x", x, got, hb);
        uint32_t r = b + 0x7fffu + ((b >> 16) & 1);
        unsigned wb = r >> 16;
        if ((b & 0x7fffffffu) >= 0x7f800000u)
            wb = b >> 16; /* inf stays inf */
        got = fpf_encode(x, FPF_BF16, 0);
        CHECK(got == wb, "bf16(%a) = 0x%x want 0x%x", x, got, wb);
    }
}

/* FPF_SR_LOW threshold of 0x1.8p-12 in E4M3 FNUZ (test_sr) */
static const uint32_t th_low = (uint32_t)(0.625 * (1 << 25));

/* Stochastic rounding. */
static void test_sr(void) {
    /* 1.0625 = 1 + 1/16 in E4M3 (ulp 1/8 at [1, 2)): frac = 0.5: up iff rnd >= 2^31 */
    CHECK(fpf_encode_sr(1.0625, 0x7fffffffu, FPF_FP8_OCP, 0) == 0x38, "sr down");
    CHECK(fpf_encode_sr(1.0625, 0x80000000u, FPF_FP8_OCP, 0) == 0x39, "sr up");
    /* frac = 0.25 (1 + 1/32): up iff rnd >= 0xc0000000 */
    CHECK(fpf_encode_sr(1.03125, 0xbfffffffu, FPF_FP8_OCP, 0) == 0x38, "sr 1/4 down");
    CHECK(fpf_encode_sr(1.03125, 0xc0000000u, FPF_FP8_OCP, 0) == 0x39, "sr 1/4 up");
    CHECK(fpf_encode_sr(-1.03125, 0xc0000000u, FPF_FP8_OCP, 0) == 0xb9, "sr negative: magnitude");
    /* exact values never move */
    CHECK(fpf_encode_sr(1.0, 0xffffffffu, FPF_FP8_OCP, 0) == 0x38, "sr exact");
    CHECK(fpf_encode_sr(0.0, 0xffffffffu, FPF_FP4, 0) == 0, "sr zero");
    /* overflow by rounding up: E4M3 448 + a bit: up -> NaN unless saturating */
    CHECK(fpf_encode_sr(450, 0xffffffffu, FPF_FP8_OCP, 0) == 0x7f, "sr overflow");
    CHECK(fpf_encode_sr(450, 0xffffffffu, FPF_FP8_OCP, FPF_SAT) == 0x7e, "sr sat");
    CHECK(fpf_encode_sr(450, 0, FPF_FP8_OCP, 0) == 0x7e, "sr no overflow");
    CHECK(fpf_encode_sr(NAN, 0, FPF_FP8_FNUZ, 0) == 0x80, "sr nan");
    /* denormal range of FP4: 0.3 = 0.6 ulp (0.5): up iff rnd*2^-32 >= 0.4 */
    uint32_t t = (uint32_t)ceil(0.4 * 4294967296.0);
    CHECK(fpf_encode_sr(0.3, t, FPF_FP4, 0) == 1 && fpf_encode_sr(0.3, t - 1, FPF_FP4, 0) == 0,
          "sr fp4 denormal");

    /* Mean over random rnd approaches x (unbiased). */
    double x = 2.3, sum = 0;
    for (int i = 0; i < 20000; i++)
        sum += fpf_decode(fpf_encode_sr(x, rnd32(), FPF_FP4, 0), FPF_FP4);
    CHECK(fabs(sum / 20000 - x) < 0.02, "sr mean %f", sum / 20000);

    /* FPF_SR_LOW: bf16 = the f32 bits plus rnd[15:0], truncated (integer model). */
    for (int i = 0; i < 100000; i++) {
        uint32_t b = rnd32() & 0xbfffffffu, r = rnd32(); /* keep exponents off the inf range */
        float x32 = F(b);
        unsigned want = (b + (r & 0xffff)) >> 16;
        CHECK(fpf_encode_sr(x32, r, FPF_BF16, FPF_SR_LOW) == want, "sr_low bf16 %08x %08x", b, r);
    }
    /* FPF_SR_LOW, E4M3 FNUZ normal range: 20 dropped f32 bits, integer model. */
    for (int i = 0; i < 100000; i++) {
        uint32_t e = 120 + rnd32() % 14; /* 2^-7 .. 2^6: normal, no overflow */
        uint32_t b = e << 23 | (rnd32() & 0x7fffffu), r = rnd32();
        uint32_t s = b + (r & 0xfffff);
        unsigned want = (((s >> 23) - 127 + 8) << 3) | ((s >> 20) & 7);
        unsigned got = fpf_encode_sr(F(b), r, FPF_FP8_FNUZ, FPF_SR_LOW);
        if ((s >> 23) - 127 + 8 > 15) /* rounded past 240 */
            want = 0x80;
        CHECK(got == want, "sr_low fnuz %08x %08x: %x want %x", b, r, got, want);
    }
    /* FPF_SR_LOW in the denormal range: E4M3 FNUZ ulp 2^-10; x = 2^-12 * 1.5 (f32 ulp 2^-35):
     * D = 25 bits; frac = 0.375: up iff (rnd mod 2^25) >= 0.625 * 2^25 */
    uint32_t th = th_low;
    CHECK(fpf_encode_sr(0x1.8p-12, th, FPF_FP8_FNUZ, FPF_SR_LOW) == 1, "sr_low denormal up");
    CHECK(fpf_encode_sr(0x1.8p-12, th - 1, FPF_FP8_FNUZ, FPF_SR_LOW) == 0, "sr_low denormal down");
    CHECK(fpf_encode_sr(0x1.8p-12, (th - 1) | 0xfe000000u, FPF_FP8_FNUZ, FPF_SR_LOW) == 0,
          "sr_low ignores rnd bits above D");
}

/* The branch-free f32 paths (fpf_enc32, fpf_dec32) against the same independent model: every
 * code decoded, and every midpoint between neighbouring codes, and points an f32 ulp either
 * side of it, encoded from f32 bits, unscaled and scaled (the f32 input is the point times 2^e,
 * encoded with escale = e, when that is an exact f32), normalized or not. */
static void test_fast(void) {
    static unsigned code[1 << 16];
    static double val[1 << 16];
    for (int i = 0; i < NSPEC; i++) {
        const spec *s = &SPECS[i];
        const fpf_format *f = s->f;
        if (f == FPF_BF16)
            continue; /* fpf_dec32 is for the narrower formats; bf16 encoding is below */
        fpf_dec_k dk = fpf_dec_consts(f);
        for (unsigned c = 0; c < 1u << s->width; c++) {
            double want;
            int k = ref_decode(s, c, &want);
            uint32_t got = fpf_dec32(c | 0xab00u << s->width, dk); /* bits above are ignored */
            if (k == 0)
                CHECK(isnan(F(got)) && (got >> 31) == (c >> (s->width - 1)), "%s dec32 0x%x NaN",
                      f->name, c);
            else if (k == 2)
                CHECK(isinf(F(got)) && (F(got) < 0) == (want < 0), "%s dec32 0x%x inf", f->name, c);
            else
                CHECK(F(got) == want && !signbit(F(got)) == !signbit(want), "%s dec32 0x%x: %a",
                      f->name, c, F(got));
        }
    }
    for (int i = 0; i < NSPEC; i++) {
        const spec *s = &SPECS[i];
        const fpf_format *f = s->f;
        unsigned sbit = 1u << (s->width - 1);
        int n = sorted_codes(s, code, val), fnuz = s->nan_rule == 3, bad = 0;
        fpf_enc_k k = fpf_enc_consts(f, 0, 0);
        for (int j = 0; j + 1 < n; j++) {
            double lo = val[j], hi = val[j + 1], mid = (lo + hi) / 2;
            unsigned even = (code[j] & 1) == 0 ? code[j] : code[j + 1];
            int e = (int)(rnd32() % 41) - 20;
            for (int t = 0; t < 4; t++) {
                float x = t == 0 ? (float)lo : (float)mid;
                if ((double)x != (t == 0 ? lo : mid) || isinf(x))
                    continue; /* not an f32 */
                if (t == 2)
                    x = nextafterf(x, 0);
                if (t == 3)
                    x = nextafterf(x, INFINITY);
                unsigned want = t == 0 ? code[j] : t == 1 ? even : t == 2 ? code[j] : code[j + 1];
                if (want == 0 && x == 0 && t != 0)
                    continue;
                float xs = ldexpf(x, e); /* the same point, scaled */
                int exact = (double)xs == ldexp((double)x, e) && xs != 0 && !isinf(xs);
                for (int neg = 0; neg < 2; neg++) {
                    uint32_t b = U(x) | (neg ? 0x80000000u : 0);
                    unsigned w = neg ? (want == 0 && fnuz ? 0 : want | sbit) : want;
                    unsigned g0 = fpf_enc32(b, 0, k, FPF_RNE, 0, 0),
                             g1 = fpf_enc32(b, 0, k, FPF_RNE, 1, 0);
                    unsigned g2 =
                        exact ? fpf_enc32(U(xs) | (b & 0x80000000u), e, k, FPF_RNE, 1, 0) : w;
                    if ((g0 != w || g1 != w || g2 != w) && bad++ < 5)
                        printf("  %s enc32(%a) [%d %d]: %x %x %x want %x\n", f->name, neg ? -x : x,
                               t, e, g0, g1, g2, w);
                }
            }
        }
        CHECK(bad == 0, "%s: fpf_enc32 at codes and midpoints, %d wrong", f->name, bad);
    }
    /* specials and overflow against fpf_encode's hand-checked rules above (test_encode_special
     * pins those): every special f32 input in every format and mode */
    static const uint32_t sp[] = {0x7f800000, 0xff800000, 0x7fc00000, 0xffc00001, 0x7f800001,
                                  0x7fa00000, 0x7f7fffff, 0xff7fffff, 0x00000001, 0x80000001,
                                  0x4e6e6b28, 0x477fe000, 0x477ff000, 0x43e80000, 0x43f00000};
    for (int i = 0; i < NSPEC; i++)
        for (int mode = 0; mode < 2; mode++) {
            fpf_enc_k k = fpf_enc_consts(SPECS[i].f, mode, 0);
            for (unsigned j = 0; j < sizeof sp / sizeof sp[0]; j++)
                CHECK(fpf_enc32(sp[j], 0, k, FPF_RNE, 0, 0) ==
                          fpf_encode(F(sp[j]), SPECS[i].f, mode),
                      "%s enc32 special %08x mode %d", SPECS[i].f->name, sp[j], mode);
        }
    /* stochastic rounding at the ends of rnd's range: a representable value never moves (rnd =
     * 2^32 - 1), the next f32 above it goes down with rnd = 0 and up with rnd = 2^32 - 1 */
    for (int i = 0; i < NSPEC; i++) {
        const spec *s = &SPECS[i];
        int n = sorted_codes(s, code, val), bad = 0;
        fpf_enc_k k = fpf_enc_consts(s->f, 0, 0);
        for (int j = 0; j + 1 < n; j++) {
            float lo = (float)val[j], up = nextafterf(lo, INFINITY);
            if ((double)lo != val[j] || (double)up >= val[j + 1])
                continue;
            for (int low = 0; low < 2; low++) {
                int rm = low ? FPF_RSR_LOW : FPF_RSR;
                bad += fpf_enc32(U(lo), 0, k, rm, 0, ~0u) != code[j];
                bad += fpf_enc32(U(up), 0, k, rm, 0, 0) != code[j];
                /* a dropped fraction below 2^-32 of an lsb never rounds up: rnd is a 32-bit
                 * fraction (default alignment), or the f32 lsb is more than 32 bits down
                 * (SR_LOW: rnd's 32 bits cannot carry into the kept lsb) */
                if ((up - lo) / (val[j + 1] - val[j]) >= 0x1p-32)
                    bad += fpf_enc32(U(up), 0, k, rm, 0, ~0u) != code[j + 1];
                else
                    bad += fpf_enc32(U(up), 0, k, rm, 0, ~0u) != code[j];
            }
        }
        CHECK(bad == 0, "%s: fpf_enc32 sr at rnd 0 / 2^32-1: %d wrong", s->f->name, bad);
    }
    /* stochastic rounding: the threshold cases of test_sr, from f32 bits */
    fpf_enc_k k8 = fpf_enc_consts(FPF_FP8_OCP, 0, 0), kn = fpf_enc_consts(FPF_FP8_FNUZ, 0, 0);
    CHECK(fpf_enc32(U(1.0625f), 0, k8, FPF_RSR, 0, 0x7fffffffu) == 0x38 &&
              fpf_enc32(U(1.0625f), 0, k8, FPF_RSR, 0, 0x80000000u) == 0x39 &&
              fpf_enc32(U(1.03125f), 0, k8, FPF_RSR, 0, 0xbfffffffu) == 0x38 &&
              fpf_enc32(U(1.03125f), 0, k8, FPF_RSR, 0, 0xc0000000u) == 0x39,
          "enc32 sr thresholds");
    CHECK(fpf_enc32(U(0x1.8p-12f), 0, kn, FPF_RSR_LOW, 0, th_low) == 1 &&
              fpf_enc32(U(0x1.8p-12f), 0, kn, FPF_RSR_LOW, 0, th_low - 1) == 0 &&
              fpf_enc32(U(0x1.8p-12f), 0, kn, FPF_RSR_LOW, 0, (th_low - 1) | 0xfe000000u) == 0,
          "enc32 sr_low denormal threshold");
    /* SR_LOW bf16 = the f32 bits plus rnd[15:0], truncated, as in test_sr */
    fpf_enc_k kb = fpf_enc_consts(FPF_BF16, 0, 0);
    int bad = 0;
    for (int i = 0; i < 100000; i++) {
        uint32_t b = rnd32() & 0xbfffffffu, r = rnd32();
        if (fpf_enc32(b, 0, kb, FPF_RSR_LOW, 0, r) != (b + (r & 0xffff)) >> 16)
            bad++;
    }
    CHECK(bad == 0, "enc32 sr_low bf16: %d wrong", bad);
}

static void test_scale(void) {
    CHECK(fpf_scale_exp(0x3f800000u) == 0, "1.0");
    CHECK(fpf_scale_exp(0x00000000u) == -127, "+0 is 2^-127");
    CHECK(fpf_scale_exp(0x7f000000u) == 127, "2^127");
    CHECK(fpf_scale_exp(0xbf800000u) == 0, "sign ignored");
    CHECK(fpf_scale_exp(0x3fffffffu) == 0, "mantissa ignored");
    CHECK(fpf_scale_exp(0x7f800000u) == FPF_SCALE_NAN &&
              fpf_scale_exp(0x7fc00000u) == FPF_SCALE_NAN,
          "exponent 0xff is NaN");
}

int main(void) {
    test_decode_all();
    test_encode_rne();
    test_encode_special();
    test_encode_random();
    test_sr();
    test_scale();
    test_fast();
    return check_summary("test_fpfmt");
}
