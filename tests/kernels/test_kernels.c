/* test_kernels.c - OpenCL C kernels compiled by clang-22 (gfx950 and gfx942), run
 * through the public API and checked against C references computed here.
 *
 * Run at -O0, -O1 and -O3.  The kernels are in tests/kernels/basic.cl; they are compiled at
 * test time into $BUILD/kernels.
 * Integers must match bit for bit; f32 results too, since every kernel here uses only correctly
 * rounded operations (add, fma) whose C reference is exact. */
#include "common/check.h"
#include "common/kernels.h"
#include "gfxemu.h"

#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static uint64_t rng = 0x9e3779b97f4a7c15ull;
static uint32_t rnd(void) { return kt_rand(&rng); }

#define N 1000 /* not a multiple of 64: the last wave is partial */
#define GROUPS ((N + 63) / 64)

static void t_vecadd(void) {
    float a[N], b[N], c[N];
    for (int i = 0; i < N; i++) {
        a[i] = (float)(int)(rnd() % 20001 - 10000) / 64.0f;
        b[i] = i % 7 == 0 ? -a[i] : (float)rnd() / 3.0f;
    }
    uint64_t da = kt_upload(a, sizeof a), db = kt_upload(b, sizeof b),
             dc = kt_upload(NULL, sizeof c + 4);
    unsigned n = N;
    const void *p[] = {&dc, &da, &db, &n};
    if (kt_launch1("vecadd_f32", GROUPS, 64, p, 4))
        return;
    float out[N + 1];
    gfx_memcpy_dtoh(kt.dev, out, dc, sizeof out);
    int bad = 0;
    for (int i = 0; i < N; i++)
        bad += memcmp(&out[i], &(float){a[i] + b[i]}, 4) != 0;
    CHECK(bad == 0 && out[N] == 0.0f, "%s vecadd_f32: %d wrong (or wrote past n)", kt.tag, bad);
}

static void t_saxpy(void) {
    float x[N], y[N], out[N];
    float s = 1.0f / 3.0f;
    for (int i = 0; i < N; i++) {
        x[i] = (float)rnd() / 1e5f - 20000.0f;
        y[i] = (float)rnd() / 7e4f;
    }
    uint64_t dx = kt_upload(x, sizeof x), dy = kt_upload(y, sizeof y),
             dout = kt_upload(NULL, sizeof out);
    unsigned n = N;
    const void *p[] = {&dout, &s, &dx, &dy, &n};
    if (kt_launch1("saxpy", GROUPS, 64, p, 5))
        return;
    gfx_memcpy_dtoh(kt.dev, out, dout, sizeof out);
    int bad = 0;
    for (int i = 0; i < N; i++)
        bad += memcmp(&out[i], &(float){fmaf(s, x[i], y[i])}, 4) != 0;
    CHECK(bad == 0, "%s saxpy (single rounding): %d wrong", kt.tag, bad);
}

static void t_int_ops(void) {
    int32_t a[N], b[N], out[4 * N];
    for (int i = 0; i < N; i++) {
        a[i] = (int32_t)rnd();
        b[i] = i % 5 == 0 ? 0 : i % 5 == 1 ? -1 : (int32_t)rnd() >> (rnd() % 31);
    }
    a[3] = INT32_MIN;
    b[3] = 7;
    kt_buf bufs[] = {KT_BUF(out), KT_BUF(a), KT_BUF(b)};
    if (kt_map("int_ops", N, bufs, 1, 3))
        return;
    int bad = 0;
    for (int i = 0; i < N; i++) {
        int32_t x = a[i], y = b[i];
        int32_t e0 = (int32_t)((uint32_t)x * (uint32_t)y + (uint32_t)(x >> 3));
        /* INT32_MIN / -1 overflows in C; the kernel's behaviour for it is unspecified, skip. */
        int skip = x == INT32_MIN && y == -1;
        int32_t e1 = y ? (skip ? out[4 * i + 1] : x / y) : -1;
        int32_t e2 = y ? (skip ? out[4 * i + 2] : x % y) : -1;
        int32_t e3 = (int32_t)(((uint32_t)x >> (y & 31)) ^ ((uint32_t)x << 5));
        bad += out[4 * i] != e0 || out[4 * i + 1] != e1 || out[4 * i + 2] != e2 ||
               out[4 * i + 3] != e3;
        if (bad == 1 && (out[4 * i] != e0 || out[4 * i + 1] != e1 || out[4 * i + 2] != e2 ||
                         out[4 * i + 3] != e3))
            printf("  int_ops[%d] x=%d y=%d: got %d %d %d %d want %d %d %d %d\n", i, x, y,
                   out[4 * i], out[4 * i + 1], out[4 * i + 2], out[4 * i + 3], e0, e1, e2, e3);
    }
    CHECK(bad == 0, "%s int_ops: %d wrong", kt.tag, bad);
}

static void t_i64_ops(void) {
    int64_t a[N], b[N], out[3 * N];
    for (int i = 0; i < N; i++) {
        a[i] = (int64_t)((uint64_t)rnd() << 32 | rnd()) >> (rnd() % 40);
        b[i] = i % 4 == 0 ? 0 : (int64_t)((uint64_t)rnd() << 32 | rnd()) >> (rnd() % 63);
    }
    kt_buf bufs[] = {KT_BUF(out), KT_BUF(a), KT_BUF(b)};
    if (kt_map("i64_ops", N, bufs, 1, 3))
        return;
    int bad = 0;
    for (int i = 0; i < N; i++) {
        int64_t x = a[i], y = b[i];
        int64_t e0 = (int64_t)((uint64_t)x * (uint64_t)y);
        int64_t e1 = y && !(x == INT64_MIN && y == -1) ? x / y : (y ? out[3 * i + 1] : 0);
        int64_t e2 = y ? (int64_t)((uint64_t)x % (uint64_t)y) : 0;
        int wrong = out[3 * i] != e0 || out[3 * i + 1] != e1 || out[3 * i + 2] != e2;
        if (wrong && bad++ < 3)
            printf("  i64_ops[%d] x=%lld y=%lld: got %lld %lld %lld want %lld %lld %lld\n", i,
                   (long long)x, (long long)y, (long long)out[3 * i], (long long)out[3 * i + 1],
                   (long long)out[3 * i + 2], (long long)e0, (long long)e1, (long long)e2);
    }
    CHECK(bad == 0, "%s i64_ops: %d wrong", kt.tag, bad);
}

static void t_collatz(void) {
    uint32_t out[N];
    kt_buf bufs[] = {KT_BUF(out)};
    if (kt_map("collatz", N, bufs, 1, 1))
        return;
    int bad = 0;
    for (unsigned i = 0; i < N; i++) {
        uint32_t v = i + 1, s = 0;
        while (v != 1) {
            v = (v & 1) ? 3 * v + 1 : v / 2;
            s++;
        }
        bad += out[i] != s;
    }
    CHECK(bad == 0, "%s collatz: %d wrong", kt.tag, bad);
}

static void t_lds_reduce(void) {
    enum { G = 8 };
    float in[G * 256], out[G];
    for (int i = 0; i < G * 256; i++)
        in[i] = (float)(int)(rnd() % 2001 - 1000); /* integers: every order of summation is exact */
    kt_buf bufs[] = {KT_BUF(out), KT_BUF(in)};
    if (kt_call("lds_reduce", (uint32_t[3]){G, 1, 1}, (uint32_t[3]){256, 1, 1}, bufs, 1, 2, NULL,
                0))
        return;
    int bad = 0;
    for (int g = 0; g < G; g++) {
        float s = 0;
        for (int l = 0; l < 256; l++)
            s += in[g * 256 + l];
        bad += out[g] != s;
    }
    CHECK(bad == 0, "%s lds_reduce: %d of %d workgroups wrong", kt.tag, bad, G);
}

static void t_private_array(void) {
    int32_t idx[N], out[N];
    for (int i = 0; i < N; i++)
        idx[i] = (int32_t)(rnd() & 0xff);
    kt_buf bufs[] = {KT_BUF(out), KT_BUF(idx)};
    if (kt_map("private_array", N, bufs, 1, 2))
        return;
    int bad = 0;
    for (int i = 0; i < N; i++) {
        int j = idx[i] & 15, k = (idx[i] >> 4) & 15;
        bad += out[i] != (i * 16 + j * j) + (i * 16 + k * k);
    }
    CHECK(bad == 0, "%s private_array: %d wrong", kt.tag, bad);
}

static void t_atomic_count(void) {
    uint32_t vals[N], counts[8] = {0}, want[8] = {0};
    for (int i = 0; i < N; i++) {
        vals[i] = rnd();
        want[vals[i] & 7]++;
    }
    unsigned n = N;
    kt_buf bufs[] = {KT_BUF(counts), KT_BUF(vals)};
    const void *args[] = {&n};
    if (kt_call("atomic_count", (uint32_t[3]){GROUPS, 1, 1}, (uint32_t[3]){64, 1, 1}, bufs, 1, 2,
                args, 1))
        return;
    CHECK(memcmp(counts, want, sizeof want) == 0, "%s atomic_count: %u %u ... want %u %u", kt.tag,
          counts[0], counts[1], want[0], want[1]);
}

int main(void) {
    static const kt_test tests[] = {t_vecadd,  t_saxpy,      t_int_ops,       t_i64_ops,
                                    t_collatz, t_lds_reduce, t_private_array, t_atomic_count};
    return kt_main("basic", "", tests, sizeof tests / sizeof tests[0], "kernels");
}
