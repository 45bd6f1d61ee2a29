/* test_intops.c - integer kernels (tests/kernels/intops.cl) compiled by clang-22 for gfx950 and
 * gfx942 at -O0, -O1 and -O3: uniform 64-bit arithmetic on the scalar unit, per-lane 64-bit bit
 * operations, and 8/16-bit vector arithmetic (SDWA, packed 16-bit, saturation).  Every result
 * is checked bit for bit against the same C computation done here. */
#include "common/check.h"
#include "common/kernels.h"
#include "gfxemu.h"

#include <stdint.h>
#include <stdio.h>
#include <string.h>

static uint64_t rng = 0x1f83d9abfb41bd6bull;
static uint32_t rnd(void) { return kt_rand(&rng); }
static uint64_t rnd64(void) { return (uint64_t)rnd() << 32 | rnd(); }

#define N 1000
#define GROUPS ((N + 63) / 64)

static int clz64(uint64_t x) { return x ? __builtin_clzll(x) : 64; }
static int ctz64(uint64_t x) { return x ? __builtin_ctzll(x) : 64; }
static uint64_t rev64(uint64_t x) {
    uint64_t r = 0;
    for (int k = 0; k < 64; k++)
        r |= ((x >> k) & 1) << (63 - k);
    return r;
}

/* ---- 1. uniform values on the scalar unit ------------------------------------------------------
 */
static void t_scalar_uniform(void) {
    static const struct {
        uint64_t a, b;
        int64_t s;
        uint32_t k;
    } cases[] = {
        {0x123456789abcdef0ull, 0x0fedcba987654321ull, -5, 3},
        {0xffffffffffffffffull, 3, INT64_MIN, 63},
        {0, 0, 0, 0},
        {1ull << 63, 1ull << 32, -(1ll << 40), 100}, /* k & 63 = 36 */
        {0x00000000ffffffffull, 0xffffffff00000000ull, INT64_MAX, 31},
        {12345678901234567ull, 98765, -1, 7777},
    };
    for (size_t c = 0; c < sizeof cases / sizeof cases[0] + 20; c++) {
        uint64_t a, b;
        int64_t s;
        uint32_t k;
        if (c < sizeof cases / sizeof cases[0])
            a = cases[c].a, b = cases[c].b, s = cases[c].s, k = cases[c].k;
        else
            a = rnd64() >> (rnd() % 64), b = rnd64() >> (rnd() % 64),
            s = (int64_t)rnd64() >> (rnd() % 64), k = rnd() % 200;
        uint64_t out[16], want[16];
        uint64_t dout = kt_upload(NULL, sizeof out);
        const void *p[] = {&dout, &a, &b, &s, &k};
        if (kt_launch1("scalar_uniform", 1, 64, p, 5))
            return;
        gfx_memcpy_dtoh(kt.dev, out, dout, sizeof out);
        gfx_buffer_free(kt.dev, dout);
        unsigned sh = k & 63;
        int redundant = 0; /* clrsb: the sign bits after the first, minus nothing */
        for (int bit = 62; bit >= 0 && ((s >> bit) & 1) == ((s >> 63) & 1); bit--)
            redundant++;
        want[0] = a * b;
        want[1] = a << sh;
        want[2] = (uint64_t)(s >> sh);
        want[3] = a >> sh;
        want[4] = b ? a / b : 0;
        want[5] = b ? a % b : 0;
        want[6] = (uint64_t)__builtin_popcountll(a);
        want[7] = (uint64_t)clz64(a);
        want[8] = (uint64_t)ctz64(a);
        want[9] = rev64(a);
        want[10] = (int64_t)a < s ? a : (uint64_t)s;
        want[11] = a > b ? a - b : b - a;
        want[12] = (uint32_t)((uint32_t)a * (uint32_t)(b >> 32) + (uint32_t)(a >> 40));
        want[13] = (uint64_t)(int64_t)((int32_t)(uint32_t)a / (int32_t)(k | 1));
        want[14] = (a & 0xffff0000ffffull) | ~b;
        want[15] = (uint64_t)redundant;
        int bad = 0;
        for (int r = 0; r < 16; r++)
            if (out[r] != want[r] && bad++ < 2)
                printf("  scalar_uniform a=%#llx b=%#llx s=%lld k=%u: r[%d] got %#llx want %#llx\n",
                       (unsigned long long)a, (unsigned long long)b, (long long)s, k, r,
                       (unsigned long long)out[r], (unsigned long long)want[r]);
        CHECK(bad == 0, "%s scalar_uniform case %zu: %d wrong", kt.tag, c, bad);
    }
}

/* ---- 2. 64-bit bit operations ---------------------------------------------------------------- */
static void t_i64_bits(void) {
    static uint64_t a[N], b[N], out[10 * N];
    for (int i = 0; i < N; i++) {
        a[i] = rnd64() >> (rnd() % 64);
        b[i] = rnd64() >> (rnd() % 64);
        if (i % 7 == 0)
            a[i] |= 1ull << 63;
    }
    a[0] = 0, a[1] = ~0ull, b[1] = 0, a[2] = 1, b[2] = 63;
    kt_buf bufs[] = {KT_BUF(out), KT_BUF(a), KT_BUF(b)};
    if (kt_map("i64_bits", N, bufs, 1, 3))
        return;
    static const char *what[10] = {"shl",  "lshr", "ashr",       "rotl",        "popcount/clz/ctz",
                                   "smin", "umax", "bitreverse", "mad_u64_u32", "mad_i64_i32"};
    int bad[10] = {0};
    for (int i = 0; i < N; i++) {
        uint64_t x = a[i], y = b[i];
        unsigned k = (unsigned)y & 63;
        uint64_t w[10] = {x << k,
                          x >> k,
                          (uint64_t)((int64_t)x >> k),
                          (x << k) | (x >> ((64 - k) & 63)),
                          (uint64_t)__builtin_popcountll(x) | (uint64_t)clz64(x) << 8 |
                              (uint64_t)ctz64(x) << 16,
                          (int64_t)x < (int64_t)y ? x : y,
                          x > y ? x : y,
                          rev64(x),
                          (x & 0xffffffffull) * (y >> 32),
                          (uint64_t)((int64_t)(int32_t)x * (int64_t)(int32_t)(y >> 7))};
        for (int j = 0; j < 10; j++)
            if (out[10 * i + j] != w[j] && bad[j]++ < 2)
                printf("  i64 %s(%#llx, %#llx): got %#llx want %#llx\n", what[j],
                       (unsigned long long)x, (unsigned long long)y,
                       (unsigned long long)out[10 * i + j], (unsigned long long)w[j]);
    }
    for (int j = 0; j < 10; j++)
        CHECK(bad[j] == 0, "%s i64 %s: %d wrong", kt.tag, what[j], bad[j]);
}

/* ---- 3. 8/16-bit vectors --------------------------------------------------------------------- */
static void t_small_vec(void) {
    static uint8_t a[4 * N], b[4 * N];
    static int16_t c[2 * N], d[2 * N];
    static int32_t o8[16 * N], o16[12 * N]; /* every element widened to an int */
    for (int i = 0; i < 4 * N; i++) {
        a[i] = (uint8_t)rnd();
        b[i] =
            (uint8_t)(i % 5 == 0 ? 255 - a[i] + rnd() % 3 : rnd()); /* near the saturation edge */
    }
    for (int i = 0; i < 2 * N; i++) {
        c[i] = (int16_t)rnd();
        d[i] = (int16_t)(i % 5 == 0 ? 32767 - c[i] + (int)(rnd() % 3) : (int)rnd());
    }
    uint64_t da = kt_upload(a, sizeof a), db = kt_upload(b, sizeof b), dc = kt_upload(c, sizeof c),
             dd = kt_upload(d, sizeof d), d8 = kt_upload(NULL, sizeof o8),
             d16 = kt_upload(NULL, sizeof o16);
    unsigned n = N;
    const void *p[] = {&d8, &d16, &da, &db, &dc, &dd, &n};
    const gfx_kernel *k;
    uint32_t grid[3] = {GROUPS, 1, 1}, blk[3] = {64, 1, 1};
    gfx_fault f;
    CHECK(gfx_module_kernel(kt.mod, "small_vec", &k) == GFX_OK, "%s small_vec: no kernel", kt.tag);
    gfx_result r = gfx_launch_params(kt.dev, k, grid, blk, p, 7, kt_options(NULL), NULL);
    kt_no_races("small_vec");
    gfx_last_fault(kt.dev, &f);
    if (r == GFX_ERR_FAULT && f.kind == GFX_FAULT_UNIMPLEMENTED &&
        strcmp(f.op, "v_bitop3_b16") == 0 && kt.gfx950) {
        /* A known gap, reported by name: clang-22 combines the byte lanes with v_bitop3_b16 on
         * gfx950 at -O1/-O3.  Once it is implemented the results below are checked here too. */
        printf("NOTE %s small_vec not checked: v_bitop3_b16 is not implemented\n", kt.tag);
        return;
    }
    CHECK(r == GFX_OK, "%s small_vec: launch: %s", kt.tag, f.message);
    if (r != GFX_OK)
        return;
    gfx_memcpy_dtoh(kt.dev, o8, d8, sizeof o8);
    gfx_memcpy_dtoh(kt.dev, o16, d16, sizeof o16);
    static const char *w8[4] = {"u8 add", "u8 add_sat", "i8 mul", "i8 sub_sat"};
    static const char *w16[6] = {"i16 add", "i16 add_sat", "u16 sub_sat",
                                 "i16 mul", "i16 shifts",  "u16 max + i16 min"};
    int bad8[4] = {0}, bad16[6] = {0};
    for (int i = 0; i < N; i++) {
        for (int e = 0; e < 4; e++) {
            int x = a[4 * i + e], y = b[4 * i + e], sx = (int8_t)x, sy = (int8_t)y;
            int ss = sx - sy;
            uint8_t w[4] = {(uint8_t)(x + y), (uint8_t)(x + y > 255 ? 255 : x + y),
                            (uint8_t)(sx * sy),
                            (uint8_t)(int8_t)(ss > 127    ? 127
                                              : ss < -128 ? -128
                                                          : ss)};
            for (int k = 0; k < 4; k++)
                if (o8[16 * i + 4 * k + e] != w[k] && bad8[k]++ < 2)
                    printf("  %s(%d, %d): got %d want %d\n", w8[k], x, y, o8[16 * i + 4 * k + e],
                           w[k]);
        }
        for (int e = 0; e < 2; e++) {
            int x = c[2 * i + e], y = d[2 * i + e], ux = (uint16_t)x, uy = (uint16_t)y;
            int sum = x + y, shifted;
            if (e == 0)
                shifted = (int16_t)(uint16_t)((uint32_t)x << (y & 15));
            else
                shifted = (int16_t)(x >> (y & 15));
            int16_t w[6] = {(int16_t)(uint16_t)(x + y),
                            (int16_t)(sum > 32767    ? 32767
                                      : sum < -32768 ? -32768
                                                     : sum),
                            (int16_t)(uint16_t)(ux > uy ? ux - uy : 0),
                            (int16_t)(uint16_t)(x * y),
                            (int16_t)shifted,
                            (int16_t)(uint16_t)((ux > uy ? ux : uy) + (x < y ? x : y))};
            for (int k = 0; k < 6; k++)
                if (o16[12 * i + 2 * k + e] != w[k] && bad16[k]++ < 2)
                    printf("  %s[%d](%d, %d): got %d want %d\n", w16[k], e, x, y,
                           o16[12 * i + 2 * k + e], w[k]);
        }
    }
    for (int k = 0; k < 4; k++)
        CHECK(bad8[k] == 0, "%s small_vec %s: %d wrong", kt.tag, w8[k], bad8[k]);
    for (int k = 0; k < 6; k++)
        CHECK(bad16[k] == 0, "%s small_vec %s: %d wrong", kt.tag, w16[k], bad16[k]);
}

int main(void) {
    static const kt_test tests[] = {t_scalar_uniform, t_i64_bits, t_small_vec};
    if (kt_run_all("intops", "", tests, sizeof tests / sizeof tests[0]))
        return 1;
    /* RDNA: the same kernels on gfx1100 and gfx1201, wave32 and wave64 (src/exec/rdna.c) */
    if (kt_run_rdna("intops", "", tests, sizeof tests / sizeof tests[0]))
        return 1;
    return check_summary("intops");
}
