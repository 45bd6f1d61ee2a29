/* test_framework.c - framework-style kernels (tests/kernels/framework.cl) on every target:
 * gfx950, gfx942, gfx90a and the RDNA targets gfx1100/gfx1201 in wave32 and wave64, -O0..-O3.
 * Softmax and layernorm are checked against double-precision C within a relative tolerance
 * (the kernels sum in another order and use the hardware's exp/sqrt); matmul, char and 64-bit
 * integer math and the atomics exactly; half math within one f16 rounding. */
#include "common/kernels.h"
#include "gfxemu.h"

#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static uint64_t rng = 0x2545f4914f6cdd1dull;
static uint32_t rnd(void) { return kt_rand(&rng); }
static float unif(float lo, float hi) { return lo + (hi - lo) * (float)(rnd() % 100001) / 1e5f; }

static void t_softmax(void) {
    enum { R = 3, N = 1000 };
    static float in[R * N], out[R * N];
    for (int i = 0; i < R * N; i++)
        in[i] = unif(-5, 5);
    unsigned n = N;
    kt_buf bufs[] = {KT_BUF(out), KT_BUF(in)};
    const void *args[] = {&n};
    if (kt_call("softmax", (uint32_t[3]){R, 1, 1}, (uint32_t[3]){256, 1, 1}, bufs, 1, 2, args, 1))
        return;
    int bad = 0;
    for (int r = 0; r < R; r++) {
        double m = -INFINITY, s = 0;
        for (int i = 0; i < N; i++)
            m = fmax(m, in[r * N + i]);
        for (int i = 0; i < N; i++)
            s += exp(in[r * N + i] - m);
        for (int i = 0; i < N; i++) {
            double want = exp(in[r * N + i] - m) / s, got = out[r * N + i];
            if (fabs(got - want) > 1e-5 * want + 1e-12 && bad++ < 3)
                printf("  softmax[%d][%d]: %.9g want %.9g\n", r, i, got, want);
        }
    }
    CHECK(bad == 0, "%s softmax: %d wrong", kt.tag, bad);
}

static void t_layernorm(void) {
    enum { R = 4, N = 512 };
    static float in[R * N], g[N], b[N], out[R * N];
    for (int i = 0; i < R * N; i++)
        in[i] = unif(-2, 3);
    for (int i = 0; i < N; i++)
        g[i] = unif(0.5f, 1.5f), b[i] = unif(-1, 1);
    unsigned n = N;
    kt_buf bufs[] = {KT_BUF(out), KT_BUF(in), KT_BUF(g), KT_BUF(b)};
    const void *args[] = {&n};
    if (kt_call("layernorm", (uint32_t[3]){R, 1, 1}, (uint32_t[3]){64, 1, 1}, bufs, 1, 4, args, 1))
        return;
    int bad = 0;
    for (int r = 0; r < R; r++) {
        double s = 0, q = 0;
        for (int i = 0; i < N; i++)
            s += in[r * N + i], q += (double)in[r * N + i] * in[r * N + i];
        double mean = s / N, rs = 1 / sqrt(q / N - mean * mean + 1e-5);
        for (int i = 0; i < N; i++) {
            double want = (in[r * N + i] - mean) * rs * g[i] + b[i], got = out[r * N + i];
            if (fabs(got - want) > 1e-4 * fabs(want) + 1e-4 && bad++ < 3)
                printf("  layernorm[%d][%d]: %.7g want %.7g\n", r, i, got, want);
        }
    }
    CHECK(bad == 0, "%s layernorm: %d wrong", kt.tag, bad);
}

/* small integers: every product and sum is exact, in any order */
static void t_matmul(void) {
    enum { N = 48 };
    static float a[N * N], b[N * N], c[N * N];
    for (int i = 0; i < N * N; i++)
        a[i] = (float)((int)(rnd() % 9) - 4), b[i] = (float)((int)(rnd() % 9) - 4);
    unsigned n = N;
    kt_buf bufs[] = {KT_BUF(c), KT_BUF(a), KT_BUF(b)};
    const void *args[] = {&n};
    if (kt_call("matmul", (uint32_t[3]){N / 16, N / 16, 1}, (uint32_t[3]){16, 16, 1}, bufs, 1, 3,
                args, 1))
        return;
    int bad = 0;
    for (int i = 0; i < N; i++)
        for (int j = 0; j < N; j++) {
            float s = 0;
            for (int k = 0; k < N; k++)
                s += a[i * N + k] * b[k * N + j];
            bad += c[i * N + j] != s;
        }
    CHECK(bad == 0, "%s matmul: %d of %d wrong", kt.tag, bad, N * N);
}

static void t_ew_char(void) {
    enum { N = 256 };
    int8_t a[N], o[N];
    uint8_t b[N];
    for (int i = 0; i < N; i++)
        a[i] = (int8_t)rnd(), b[i] = (uint8_t)rnd();
    kt_buf bufs[] = {KT_BUF(o), KT_BUF(a), KT_BUF(b)};
    if (kt_call("ew_char", (uint32_t[3]){N / 64, 1, 1}, (uint32_t[3]){64, 1, 1}, bufs, 1, 3, NULL,
                0))
        return;
    int bad = 0;
    for (int i = 0; i < N; i++) {
        int x = a[i], y = b[i], yc = (int8_t)b[i];
        int8_t want = (int8_t)((x > yc ? x : yc) + (x < 3 ? x : 3) * yc + (x >> 1) + (y & 7));
        if (o[i] != want && bad++ < 3)
            printf("  ew_char[%d] x %d y %d: %d want %d\n", i, x, y, o[i], want);
    }
    CHECK(bad == 0, "%s ew_char: %d wrong", kt.tag, bad);
}

static float f16f(uint16_t h) {
    _Float16 f;
    memcpy(&f, &h, 2);
    return (float)f;
}
static uint16_t ff16(float f) {
    _Float16 h = (_Float16)f;
    uint16_t u;
    memcpy(&u, &h, 2);
    return u;
}
static void t_ew_half(void) {
    enum { N = 256 };
    uint16_t a[N], b[N], o[2 * N];
    for (int i = 0; i < N; i++)
        a[i] = ff16(unif(-4, 4)), b[i] = ff16(unif(-4, 4));
    kt_buf bufs[] = {KT_BUF(o), KT_BUF(a), KT_BUF(b)};
    if (kt_call("ew_half", (uint32_t[3]){N / 64, 1, 1}, (uint32_t[3]){64, 1, 1}, bufs, 1, 3, NULL,
                0))
        return;
    int bad = 0;
    for (int i = 0; i < N; i++) {
        float x = f16f(a[i]), y = f16f(b[i]);
        /* max * 0.5 is exact and the sum of two such halves too: one rounding to f16 */
        float w0 = f16f(ff16(fmaxf(x, y) * 0.5f + fabsf(y)));
        float w1 = f16f(ff16(f16f(ff16(sqrtf(fabsf(x)))) - y));
        float g0 = f16f(o[2 * i]), g1 = f16f(o[2 * i + 1]);
        if ((g0 != w0 || fabsf(g1 - w1) > 2e-3f * fabsf(w1) + 1e-3f) && bad++ < 3)
            printf("  ew_half[%d] x %g y %g: %g %g want %g %g\n", i, x, y, g0, g1, w0, w1);
    }
    CHECK(bad == 0, "%s ew_half: %d wrong", kt.tag, bad);
}

static void t_i64(void) {
    enum { N = 128 };
    int64_t a[N], o[2 * N];
    for (int i = 0; i < N; i++)
        a[i] = (int64_t)((uint64_t)rnd() << 32 | rnd()) >> (rnd() % 40);
    kt_buf bufs[] = {KT_BUF(o), KT_BUF(a)};
    if (kt_call("i64_math", (uint32_t[3]){N / 64, 1, 1}, (uint32_t[3]){64, 1, 1}, bufs, 1, 2, NULL,
                0))
        return;
    int bad = 0;
    for (int i = 0; i < N; i++) {
        int64_t x = a[i];
        uint64_t w0 = (uint64_t)x * 3 + (uint64_t)(x >> 3) + (uint64_t)(x < 5 ? 5 : x) +
                      (uint64_t)(x ^ 0x123456789ll);
        int64_t w1 = (int64_t)((uint64_t)x / 1000003u) + x % 77;
        if (((uint64_t)o[2 * i] != w0 || o[2 * i + 1] != w1) && bad++ < 3)
            printf("  i64[%d] x %lld: %lld %lld want %lld %lld\n", i, (long long)x,
                   (long long)o[2 * i], (long long)o[2 * i + 1], (long long)w0, (long long)w1);
    }
    CHECK(bad == 0, "%s i64_math: %d wrong", kt.tag, bad);
}

static void t_atomics(void) {
    enum { G = 4, N = G * 64 };
    int32_t ai[2] = {0, -1};
    uint32_t au = 1000;
    float af[3] = {0, -1, 1};
    int64_t al = 0;
    double ad = 0;
    uint64_t dai = kt_upload(ai, sizeof ai), dau = kt_upload(&au, 4),
             daf = kt_upload(af, sizeof af), dal = kt_upload(&al, 8), dad = kt_upload(&ad, 8);
    const void *p[] = {&dai, &dau, &daf, &dal, &dad};
    if (kt_launch1("atomics", G, 64, p, 5))
        return;
    gfx_memcpy_dtoh(kt.dev, ai, dai, sizeof ai);
    gfx_memcpy_dtoh(kt.dev, &au, dau, 4);
    gfx_memcpy_dtoh(kt.dev, af, daf, sizeof af);
    gfx_memcpy_dtoh(kt.dev, &al, dal, 8);
    gfx_memcpy_dtoh(kt.dev, &ad, dad, 8);
    CHECK(ai[0] == N && ai[1] == N - 1 && au == 5, "%s int atomics: %d %d %u", kt.tag, ai[0], ai[1],
          au);
    CHECK(af[0] == (float)N && af[1] == (float)(N - 1) && af[2] == -(float)(N - 1),
          "%s float atomics: add %g max %g min %g", kt.tag, af[0], af[1], af[2]);
    CHECK(al == (int64_t)N * (N - 1) / 2 && ad == 0.5 * N, "%s 64-bit atomics: %lld %g", kt.tag,
          (long long)al, ad);
}

int main(void) {
    static const kt_test tests[] = {t_softmax, t_layernorm, t_matmul, t_ew_char,
                                    t_ew_half, t_i64,       t_atomics};
    return kt_main("framework", "", tests, sizeof tests / sizeof tests[0], "framework");
}
