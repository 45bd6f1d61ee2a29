/* test_dot_kernels.c - the dot-product builtins end to end on RDNA: tests/kernels/dot.cl calls
 * __builtin_amdgcn_fdot2 (with a negated S2 and clamp), fdot2_f32_bf16, fdot2_f16_f16,
 * fdot2_bf16_bf16, sudot4/sudot8 (mixed signedness, clamp), udot4/udot8 and, on gfx1201,
 * dot4_f32_{fp8,bf8}_{fp8,bf8}; compiled by clang-22 at -O0..-O3 for gfx1100 and gfx1201 in
 * wave32 and wave64, the results must equal this file's C reference.
 *
 * The float inputs are small multiples of 1/2 or 1/4 (and fp8/bf8 codes of magnitude 1/8..16):
 * every product and sum is exact in its result format, so the reference needs no rounding model.
 * The fp8/bf8 decoders and the 16-bit encoders here are the test's own. */
#include "common/check.h"
#include "common/kernels.h"
#include "gfxemu.h"

#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>

enum { N = 256 };

static uint64_t rng = 0x9e3779b97f4a7c15ull;
static int rnd_int(int lo, int hi) { return lo + (int)(kt_rand(&rng) % (uint32_t)(hi - lo + 1)); }

/* exact small values to f16 / bf16 bits */
static uint16_t f16_bits(double v) {
    _Float16 h = (_Float16)v;
    uint16_t u;
    memcpy(&u, &h, 2);
    return u;
}
static double f16_val(uint16_t u) {
    _Float16 h;
    memcpy(&h, &u, 2);
    return (double)h;
}
static uint16_t bf16_bits(double v) { /* v exact in bf16 */
    float f = (float)v;
    uint32_t u;
    memcpy(&u, &f, 4);
    return (uint16_t)(u >> 16);
}
static double bf16_val(uint16_t b) {
    uint32_t u = (uint32_t)b << 16;
    float f;
    memcpy(&f, &u, 4);
    return f;
}
/* OCP fp8 E4M3 (bias 7) and bf8 E5M2 (bias 15), finite codes */
static double fp8_val(unsigned c) {
    unsigned e = (c >> 3) & 15, m = c & 7;
    double v = e ? ldexp(1 + m / 8.0, (int)e - 7) : ldexp(m / 8.0, -6);
    return c & 0x80 ? -v : v;
}
static double bf8_val(unsigned c) {
    unsigned e = (c >> 2) & 31, m = c & 3;
    double v = e ? ldexp(1 + m / 4.0, (int)e - 15) : ldexp(m / 4.0, -14);
    return c & 0x80 ? -v : v;
}
static int64_t elem(uint32_t x, int bits, int k, int sgn) {
    uint32_t m = (1u << bits) - 1, v = (x >> (bits * k)) & m;
    return sgn && (v >> (bits - 1)) ? (int64_t)v - (int64_t)(m + 1) : (int64_t)v;
}
static int64_t idot(uint32_t a, uint32_t b, int bits, int sa, int sb) {
    int64_t s = 0;
    for (int k = 0; k < 32 / bits; k++)
        s += elem(a, bits, k, sa) * elem(b, bits, k, sb);
    return s;
}
static uint32_t sat_i32(int64_t v) {
    return (uint32_t)(v > INT32_MAX ? INT32_MAX : v < INT32_MIN ? INT32_MIN : v);
}
static uint32_t sat_u32(int64_t v) { return v > 0xffffffffll ? 0xffffffffu : (uint32_t)v; }

static void t_dots(void) {
    static uint32_t ha[N], hb[N], ba[N], bb[N], ia[N], ib[N], ic[N], f8[N], b8[N];
    static float c[N], of[8 * N];
    static uint16_t hc[N], bc[N], oh[2 * N];
    static uint32_t oi[4 * N];
    for (int i = 0; i < N; i++) {
        ha[i] = f16_bits(rnd_int(-8, 8) / 2.0) | (uint32_t)f16_bits(rnd_int(-8, 8) / 2.0) << 16;
        hb[i] = f16_bits(rnd_int(-8, 8) / 2.0) | (uint32_t)f16_bits(rnd_int(-8, 8) / 2.0) << 16;
        ba[i] = bf16_bits(rnd_int(-8, 8) / 2.0) | (uint32_t)bf16_bits(rnd_int(-8, 8) / 2.0) << 16;
        bb[i] = bf16_bits(rnd_int(-8, 8) / 2.0) | (uint32_t)bf16_bits(rnd_int(-8, 8) / 2.0) << 16;
        c[i] = (float)(rnd_int(-64, 64) / 8.0);
        hc[i] = f16_bits(rnd_int(-32, 32) / 4.0);
        bc[i] = bf16_bits(rnd_int(-32, 32) / 4.0);
        ia[i] = kt_rand(&rng) << 16 ^ kt_rand(&rng);
        ib[i] = kt_rand(&rng) << 16 ^ kt_rand(&rng);
        /* accumulators near the ends of the range now and then, so the clamps matter */
        ic[i] = i % 5 == 0   ? 0x7fffff00u + (uint32_t)rnd_int(0, 255)
                : i % 5 == 1 ? 0x80000000u + (uint32_t)rnd_int(0, 255)
                : i % 5 == 2 ? 0xffffff00u + (uint32_t)rnd_int(0, 255)
                             : kt_rand(&rng) << 16 ^ kt_rand(&rng);
        f8[i] = b8[i] = 0;
        for (int k = 0; k < 4; k++) { /* magnitudes 1/8 .. 15 (fp8 exponent 4..10, bf8 12..18) */
            f8[i] |= (uint32_t)((kt_rand(&rng) & 0x80) | rnd_int(4, 10) << 3 | rnd_int(0, 7))
                     << 8 * k;
            b8[i] |= (uint32_t)((kt_rand(&rng) & 0x80) | rnd_int(12, 18) << 2 | rnd_int(0, 3))
                     << 8 * k;
        }
    }
    kt_buf bufs[] = {KT_BUF(of), KT_BUF(oi), KT_BUF(oh), KT_BUF(ha), KT_BUF(hb),
                     KT_BUF(ba), KT_BUF(bb), KT_BUF(c),  KT_BUF(hc), KT_BUF(bc),
                     KT_BUF(ia), KT_BUF(ib), KT_BUF(ic), KT_BUF(f8), KT_BUF(b8)};
    if (kt_map("dots", N, bufs, 3, 15))
        return;
    int g12 = strstr(kt.tag, "gfx1201") != NULL;
    static const char *what[] = {"fdot2",     "fdot2 -c clamp", "fdot2_f32_bf16", "fp8_fp8",
                                 "fp8_bf8",   "bf8_fp8",        "bf8_bf8",        "f16_f16",
                                 "bf16_bf16", "sudot4",         "sudot8 clamp",   "udot4 clamp",
                                 "udot8"};
    int bad[13] = {0};
    for (int i = 0; i < N; i++) {
        double ph = f16_val(ha[i] & 0xffff) * f16_val(hb[i] & 0xffff) +
                    f16_val(ha[i] >> 16) * f16_val(hb[i] >> 16);
        double pb = bf16_val(ba[i] & 0xffff) * bf16_val(bb[i] & 0xffff) +
                    bf16_val(ba[i] >> 16) * bf16_val(bb[i] >> 16);
        double neg = ph - c[i];
        double f[7] = {ph + c[i], neg < 0 ? 0 : neg > 1 ? 1 : neg, pb + c[i], c[i], c[i], c[i],
                       c[i]};
        uint32_t fa = f8[i], fb = f8[N - 1 - i], xa = b8[i], xb = b8[N - 1 - i];
        for (int k = 0; k < 4; k++) {
            unsigned s = 8 * (unsigned)k;
            f[3] += fp8_val((fa >> s) & 0xff) * fp8_val((fb >> s) & 0xff);
            f[4] += fp8_val((fa >> s) & 0xff) * bf8_val((b8[i] >> s) & 0xff);
            f[5] += bf8_val((b8[i] >> s) & 0xff) * fp8_val((fa >> s) & 0xff);
            f[6] += bf8_val((xa >> s) & 0xff) * bf8_val((xb >> s) & 0xff);
        }
        for (int k = 0; k < 7; k++) {
            if (k >= 3 && k <= 6 && !g12)
                continue;
            if (of[8 * i + k] != (float)f[k] && bad[k]++ < 2)
                printf("  %s %s[%d]: got %a want %a\n", kt.tag, what[k], i, of[8 * i + k], f[k]);
        }
        uint16_t h16 = f16_bits(ph + f16_val(hc[i])), b16 = bf16_bits(pb + bf16_val(bc[i]));
        if (oh[2 * i] != h16 && bad[7]++ < 2)
            printf("  %s f16_f16[%d]: got %04x want %04x\n", kt.tag, i, oh[2 * i], h16);
        if (oh[2 * i + 1] != b16 && bad[8]++ < 2)
            printf("  %s bf16_bf16[%d]: got %04x want %04x\n", kt.tag, i, oh[2 * i + 1], b16);
        int64_t cs = (int32_t)ic[i], cu = ic[i];
        uint32_t wi[4] = {(uint32_t)(idot(ia[i], ib[i], 8, 1, 0) + cs),
                          sat_i32(idot(ia[i], ib[i], 4, 0, 1) + cs),
                          sat_u32(idot(ia[i], ib[i], 8, 0, 0) + cu),
                          (uint32_t)(idot(ia[i], ib[i], 4, 0, 0) + cu)};
        for (int k = 0; k < 4; k++)
            if (oi[4 * i + k] != wi[k] && bad[9 + k]++ < 2)
                printf("  %s %s[%d]: got %08x want %08x\n", kt.tag, what[9 + k], i, oi[4 * i + k],
                       wi[k]);
        (void)xa;
    }
    for (int k = 0; k < 13; k++)
        CHECK(bad[k] == 0, "%s %s: %d wrong", kt.tag, what[k], bad[k]);
}

int main(void) {
    static const kt_test tests[] = {t_dots};
    if (kt_run_rdna("dot", "", tests, sizeof tests / sizeof tests[0]))
        return 1;
    return check_summary("dot_kernels");
}
