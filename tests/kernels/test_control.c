/* test_control.c - control-flow and integer kernels (tests/kernels/control.cl) compiled by
 * clang-22 for gfx950 and gfx942 at -O0, -O1 and -O3: divergent branches, nested loops, early
 * exits, switch, non-inlined calls (stack arguments, scratch), 64-bit division and modulo with
 * negative operands, 32-bit division by constants, a data-dependent while loop.  Every result is
 * an integer checked bit for bit against the same computation done here in C. */
#include "common/check.h"
#include "common/kernels.h"
#include "gfxemu.h"

#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static uint64_t rng = 0x3c6ef372fe94f82bull;
static uint32_t rnd(void) { return kt_rand(&rng); }
static uint64_t rnd64(void) { return (uint64_t)rnd() << 32 | rnd(); }

#define N 1000
#define GROUPS ((N + 63) / 64)

/* Compare n int32 results; print the first two differences. */
static int diff32(const char *name, const int32_t *got, const int32_t *want, int n, int per) {
    int bad = 0;
    for (int i = 0; i < n; i++)
        if (got[i] != want[i] && bad++ < 2)
            printf("  %s[%d].%d: got %d (%#x) want %d (%#x)\n", name, i / per, i % per, got[i],
                   (unsigned)got[i], want[i], (unsigned)want[i]);
    return bad;
}

/* ---- 1. divergent branches
 * ----------------------------------------------------------------------- */
static void t_branch(void) {
    static int32_t a[N], out[N], want[N];
    for (int i = 0; i < N; i++)
        a[i] = (int32_t)rnd() >> (rnd() % 20);
    uint64_t da = kt_upload(a, sizeof a), dout = kt_upload(NULL, sizeof out);
    unsigned n = N;
    for (int mode = 0; mode < 2; mode++) {
        const void *p[] = {&dout, &da, &mode, &n};
        if (kt_launch1("branch_divergent", GROUPS, 64, p, 4))
            return;
        gfx_memcpy_dtoh(kt.dev, out, dout, sizeof out);
        for (int i = 0; i < N; i++) {
            int32_t x = a[i], r;
            if (x & 1)
                r = (x & 2) ? (int32_t)((uint32_t)x * 3u) : (x & 4) ? x - 100 : -x;
            else
                r = (x >> 1) ^ ((x & 6) == 6 ? 0x5555 : 0);
            want[i] = mode == 1 ? r + 1000000 : x < 0 ? r / 2 : r;
        }
        int bad = diff32("branch_divergent", out, want, N, 1);
        CHECK(bad == 0, "%s branch_divergent mode %d: %d wrong", kt.tag, mode, bad);
    }
}

/* ---- 2. nested loops
 * ----------------------------------------------------------------------------- */
static void t_loops(void) {
    static uint32_t a[N], out[N], want[N];
    for (int i = 0; i < N; i++)
        a[i] = rnd();
    kt_buf bufs[] = {KT_BUF(out), KT_BUF(a)};
    if (kt_map("loops_nested", N, bufs, 1, 2))
        return;
    for (int i = 0; i < N; i++) {
        uint32_t rows = a[i] & 15, cols = (a[i] >> 4) & 15, s = 0;
        for (uint32_t r = 0; r < rows; r++)
            for (uint32_t c = 0; r != 7 && c <= cols && c * r <= 60; c++)
                s = s * 31 + r * 16 + c;
        want[i] = s;
    }
    int bad = diff32("loops_nested", (int32_t *)out, (int32_t *)want, N, 1);
    CHECK(bad == 0, "%s loops_nested: %d wrong", kt.tag, bad);
}

/* ---- 3. early exit
 * ------------------------------------------------------------------------------- */
static void t_early_exit(void) {
    static int32_t rows[32 * N], out[N], want[N];
    for (int i = 0; i < 32 * N; i++)
        rows[i] = (int32_t)(rnd() % 40) - (i % 32 == 0 && rnd() % 8 == 0 ? 50 : 0);
    kt_buf bufs[] = {KT_BUF(out), KT_BUF(rows)};
    if (kt_map("early_exit", N, bufs, 1, 2))
        return;
    int kinds[3] = {0};
    for (int i = 0; i < N; i++) {
        const int32_t *row = rows + 32 * i;
        want[i] = row[0] < 0 ? -2 : -1;
        for (int k = 1; k < 32 && want[i] == -1; k++)
            if (row[k] == row[0])
                want[i] = k;
        kinds[want[i] == -2 ? 0 : want[i] == -1 ? 1 : 2]++;
    }
    int bad = diff32("early_exit", out, want, N, 1);
    CHECK(bad == 0, "%s early_exit: %d wrong (%d/%d/%d exits before/after/inside)", kt.tag, bad,
          kinds[0], kinds[1], kinds[2]);
}

/* ---- 4. switch
 * ----------------------------------------------------------------------------------- */
static void t_switch(void) {
    static int32_t a[N], out[N], want[N];
    for (int i = 0; i < N; i++)
        a[i] = (int32_t)rnd() >> (rnd() % 28);
    kt_buf bufs[] = {KT_BUF(out), KT_BUF(a)};
    if (kt_map("switch_case", N, bufs, 1, 2))
        return;
    for (int i = 0; i < N; i++) {
        int32_t x = a[i], m = x % 13;
        /* the same cases, as a table of what each one computes */
        want[i] = m == 0             ? 100
                  : m == 1           ? (int32_t)((uint32_t)x * 2u) + 7
                  : m == 2           ? 7
                  : m == 3 || m == 4 ? x ^ 0xff
                  : m == 5           ? -x
                  : m == -1          ? 55
                  : m == -7          ? (x >> 2) + 9
                  : m == 9           ? 9
                                     : x & 0xf0f0;
    }
    int bad = diff32("switch_case", out, want, N, 1);
    CHECK(bad == 0, "%s switch_case: %d wrong", kt.tag, bad);
}

/* ---- 5. 64-bit division and modulo
 * --------------------------------------------------------------- */
static void t_i64_divmod(void) {
    static int64_t a[N], b[N], out[6 * N];
    for (int i = 0; i < N; i++) {
        a[i] = (int64_t)rnd64() >> (rnd() % 64);
        b[i] = (int64_t)rnd64() >> (rnd() % 64);
        if (i % 4 == 0)
            b[i] = (int64_t)(rnd() % 200) - 100; /* small divisors, both signs */
        if (b[i] == 0)
            b[i] = -1;
    }
    /* the signs of the quotient and the remainder: C truncates toward zero, the remainder takes
     * the dividend's sign */
    const int64_t ea[] = {-7,        7,         -7, 7,         INT64_MIN,
                          INT64_MIN, INT64_MAX, -1, 1ll << 32, -(1ll << 40) - 1};
    const int64_t eb[] = {2,         -2,        -2,           2,        3, INT64_MAX,
                          INT64_MIN, 1ll << 33, -(1ll << 31), 1ll << 20};
    for (int i = 0; i < 10; i++)
        a[i] = ea[i], b[i] = eb[i];
    kt_buf bufs[] = {KT_BUF(out), KT_BUF(a), KT_BUF(b)};
    if (kt_map("i64_divmod", N, bufs, 1, 3))
        return;
    static const char *what[6] = {"x/y", "x%y", "(u64)x/y", "(u64)x%y", "x/-7", "x%1000000007"};
    int bad[6] = {0};
    for (int i = 0; i < N; i++) {
        int64_t x = a[i], y = b[i];
        int64_t w[6] = {x / y,
                        x % y,
                        (int64_t)((uint64_t)x / (uint64_t)y),
                        (int64_t)((uint64_t)x % (uint64_t)y),
                        x / -7,
                        x % 1000000007};
        for (int k = 0; k < 6; k++)
            if (out[6 * i + k] != w[k] && bad[k]++ < 2)
                printf("  i64 %s x=%lld y=%lld: got %lld want %lld\n", what[k], (long long)x,
                       (long long)y, (long long)out[6 * i + k], (long long)w[k]);
    }
    for (int k = 0; k < 6; k++)
        CHECK(bad[k] == 0, "%s i64 %s: %d wrong", kt.tag, what[k], bad[k]);
}

/* ---- 6. 32-bit division by constants
 * ------------------------------------------------------------- */
static void t_i32_divmod(void) {
    static int32_t a[N], b[N], out[6 * N], want[6 * N];
    for (int i = 0; i < N; i++) {
        a[i] = (int32_t)rnd() >> (rnd() % 32);
        b[i] = (int32_t)(rnd() >> (rnd() % 32));
        if (b[i] == 0)
            b[i] = 3;
    }
    a[0] = INT32_MIN, a[1] = INT32_MAX, a[2] = -1, b[2] = -1, a[3] = -10, b[3] = 1;
    kt_buf bufs[] = {KT_BUF(out), KT_BUF(a), KT_BUF(b)};
    if (kt_map("i32_divmod", N, bufs, 1, 3))
        return;
    for (int i = 0; i < N; i++) {
        int32_t x = a[i];
        uint32_t u = (uint32_t)x, v = (uint32_t)b[i];
        int32_t w[6] = {
            x / 10,           x % -3,          (int32_t)(u / 641u), (int32_t)(u % 65537u),
            (int32_t)(u / v), (int32_t)(u % v)};
        memcpy(&want[6 * i], w, sizeof w);
    }
    int bad = diff32("i32_divmod", out, want, 6 * N, 6);
    CHECK(bad == 0, "%s i32_divmod: %d wrong", kt.tag, bad);
}

/* ---- 7. function calls
 * --------------------------------------------------------------------------- */
static void t_calls(void) {
    static int32_t a[N], out[2 * N], want[2 * N];
    for (int i = 0; i < N; i++)
        a[i] = (int32_t)rnd();
    kt_buf bufs[] = {KT_BUF(out), KT_BUF(a)};
    if (kt_map("calls", N, bufs, 1, 2))
        return;
    for (int i = 0; i < N; i++) {
        uint32_t seed = (uint32_t)a[i], buf[24], pick = (uint32_t)a[i] * 2654435761u, s = 0;
        for (int j = 0; j < 24; j++)
            buf[j] = seed = seed * 1103515245u + 12345u;
        for (int j = 0; j < 24; j++)
            if (pick >> j & 1)
                s += buf[j];
        /* poly: Horner over the coefficients 1, -2, 3, ..., -32, a[i] (constant term first,
         * a[i] the highest power; terms[33] is 0) at a[i] & 7 */
        uint32_t x = (uint32_t)(a[i] & 7), acc = (uint32_t)a[i];
        for (int j = 32; j >= 1; j--)
            acc = acc * x + (uint32_t)(j % 2 ? j : -j);
        want[2 * i] = (int32_t)s;
        want[2 * i + 1] = (int32_t)acc;
    }
    int bad = diff32("calls", out, want, 2 * N, 2);
    CHECK(bad == 0, "%s calls: %d wrong", kt.tag, bad);
}

/* ---- 8. gcd
 * -------------------------------------------------------------------------------------- */
static void t_gcd(void) {
    static uint32_t a[N], b[N], out[2 * N], want[2 * N];
    for (int i = 0; i < N; i++) {
        uint32_t g = 1 + rnd() % 1000;
        a[i] = g * (rnd() % 100000);
        b[i] = g * (rnd() % 100000);
    }
    a[0] = 0, b[0] = 5, a[1] = 7, b[1] = 0, a[2] = 0xffffffffu, b[2] = 0xfffffffeu;
    a[3] = 1836311903u, b[3] = 1134903170u; /* consecutive Fibonacci numbers: the longest run */
    kt_buf bufs[] = {KT_BUF(out), KT_BUF(a), KT_BUF(b)};
    if (kt_map("gcd_loop", N, bufs, 1, 3))
        return;
    for (int i = 0; i < N; i++) {
        uint32_t x = a[i], y = b[i], steps = 0;
        while (y) {
            uint32_t t = x % y;
            x = y, y = t, steps++;
        }
        want[2 * i] = x, want[2 * i + 1] = steps;
    }
    int bad = diff32("gcd_loop", (int32_t *)out, (int32_t *)want, 2 * N, 2);
    CHECK(bad == 0, "%s gcd_loop: %d wrong", kt.tag, bad);
}

/* ---- 9. integer builtins -----------------------------------------------------------------------
 */
/* References from the CDNA3 ISA descriptions. */
static uint32_t perm_ref(uint32_t s0, uint32_t s1, uint32_t sel) {
    uint64_t data = (uint64_t)s0 << 32 | s1;
    uint32_t d = 0;
    for (int k = 0; k < 4; k++) {
        uint32_t s = (sel >> (8 * k)) & 0xff, byte;
        if (s >= 13)
            byte = 0xff;
        else if (s == 12)
            byte = 0;
        else if (s >= 8) /* the sign of byte 1, 3, 5 or 7, replicated */
            byte = (data >> (16 * (s - 8) + 15)) & 1 ? 0xff : 0;
        else
            byte = (uint32_t)(data >> (8 * s)) & 0xff;
        d |= byte << (8 * k);
    }
    return d;
}

static uint32_t class_ref(uint32_t bits, uint32_t mask) {
    float f;
    memcpy(&f, &bits, 4);
    int neg = bits >> 31, cls;
    if (f != f)
        cls = (bits >> 22) & 1 ? 1 : 0; /* quiet : signalling */
    else if (f == 0)
        cls = neg ? 5 : 6;
    else if (fabsf(f) == INFINITY)
        cls = neg ? 2 : 9;
    else if (fabsf(f) < 0x1p-126f)
        cls = neg ? 4 : 7;
    else
        cls = neg ? 3 : 8;
    return (mask >> cls) & 1;
}

static void t_int_builtins(void) {
    static uint32_t a[N], b[N], c[N], out[18 * N], want[18 * N];
    for (int i = 0; i < N; i++) {
        a[i] = rnd() >> (rnd() % 8);
        b[i] = rnd() >> (rnd() % 8);
        c[i] = rnd();
        if (i % 4 == 1) /* perm selectors from the whole range */
            c[i] = (rnd() % 16) | (rnd() % 16) << 8 | (rnd() % 16) << 16 | (rnd() % 16) << 24;
        if (i % 8 == 2) /* class: zeros, denormals, infinities, NaNs of both kinds */
            a[i] = (rnd() & 0x80000000u) |
                   (uint32_t[]){0, 0x7f800000u, 0x7fc00001u, 0x7f800001u, 0x1234u}[rnd() % 5];
    }
    a[0] = b[0] = 0x7f7f7f7f, c[0] = 5;                        /* dot4 clamps up */
    a[1] = 0x80808080u, b[1] = 0x7f7f7f7f, c[1] = 0x80000000u; /* and down */
    kt_buf bufs[] = {KT_BUF(out), KT_BUF(a), KT_BUF(b), KT_BUF(c)};
    if (kt_map("int_builtins", N, bufs, 1, 4))
        return;
    for (int i = 0; i < N; i++) {
        uint32_t x = a[i], y = b[i], z = c[i], *w = &want[18 * i];
        uint64_t xy = (uint64_t)x << 32 | y;
        uint32_t sad = 0, sad16 = 0, lerp = 0;
        int64_t d4 = (int32_t)z;
        uint32_t u4 = z, u2 = z;
        int32_t d2 = (int32_t)z;
        for (int k = 0; k < 4; k++) {
            int bx = (x >> (8 * k)) & 0xff, by = (y >> (8 * k)) & 0xff;
            sad += (uint32_t)abs(bx - by);
            lerp |= (uint32_t)((bx + by + (int)((z >> (8 * k)) & 1)) >> 1) << (8 * k);
            d4 += (int64_t)(int8_t)bx * (int8_t)by;
            u4 += (uint32_t)(bx * by);
        }
        for (int k = 0; k < 2; k++) {
            int hx = (x >> (16 * k)) & 0xffff, hy = (y >> (16 * k)) & 0xffff;
            sad16 += (uint32_t)abs(hx - hy);
            d2 = (int32_t)((uint32_t)d2 + (uint32_t)((int32_t)(int16_t)hx * (int16_t)hy));
            u2 += (uint32_t)hx * (uint32_t)hy;
        }
        uint32_t off = y & 31, width = z & 31;
        uint32_t ubfe = width ? (x >> off) & (uint32_t)((1ull << width) - 1) : 0;
        /* sbfe: the field of the arithmetic shift (bits above 31 are sign copies when
         * off + width > 32), sign-extended from its top bit */
        uint32_t field = (uint32_t)((int32_t)x >> off) & (uint32_t)((1ull << width) - 1);
        uint32_t sbfe = width ? (field ^ (1u << (width - 1))) - (1u << (width - 1)) : 0;
        uint32_t rev = 0;
        for (int k = 0; k < 32; k++)
            rev |= ((x >> k) & 1) << (31 - k);
        w[0] = perm_ref(x, y, z);
        w[1] = (uint32_t)(xy >> (z & 31));
        w[2] = (uint32_t)(xy >> (8 * (z & 3)));
        w[3] = sad + z;
        w[4] = (sad << 16) + z;
        w[5] = sad16 + z;
        w[6] = lerp;
        w[7] = ubfe;
        w[8] = sbfe;
        w[9] = (uint32_t)d4; /* wraps */
        w[10] = (uint32_t)(int32_t)(d4 > INT32_MAX ? INT32_MAX : d4 < INT32_MIN ? INT32_MIN : d4);
        w[11] = u4;
        w[12] = (uint32_t)d2;
        w[13] = u2;
        w[14] = (uint32_t)(((uint64_t)x * y) >> 32) ^
                (uint32_t)((uint64_t)((int64_t)(int32_t)x * (int32_t)y) >> 32);
        w[15] = (x & 0xffffff) * (y & 0xffffff);
        w[16] = class_ref(x, z & 1023);
        w[17] = rev;
    }
    static const char *what[18] = {"v_perm_b32",     "v_alignbit_b32",      "v_alignbyte_b32",
                                   "v_sad_u8",       "v_sad_hi_u8",         "v_sad_u16",
                                   "v_lerp_u8",      "v_bfe_u32",           "v_bfe_i32",
                                   "v_dot4_i32_i8",  "v_dot4_i32_i8 clamp", "v_dot4_u32_u8",
                                   "v_dot2_i32_i16", "v_dot2_u32_u16",      "v_mul_hi_u32/i32",
                                   "v_mul_u32_u24",  "v_cmp_class_f32",     "v_bfrev_b32"};
    int bad[18] = {0};
    for (int i = 0; i < N; i++)
        for (int k = 0; k < 18; k++)
            if (out[18 * i + k] != want[18 * i + k] && bad[k]++ < 2)
                printf("  %s(%#x, %#x, %#x): got %#x want %#x\n", what[k], a[i], b[i], c[i],
                       out[18 * i + k], want[18 * i + k]);
    for (int k = 0; k < 18; k++)
        CHECK(bad[k] == 0, "%s %s: %d wrong", kt.tag, what[k], bad[k]);
}

int main(void) {
    static const kt_test tests[] = {t_branch, t_loops,      t_early_exit,
                                    t_switch, t_i64_divmod, t_i32_divmod,
                                    t_calls,  t_gcd,        t_int_builtins};
    if (kt_run_all("control", "", tests, sizeof tests / sizeof tests[0]))
        return 1;
    /* RDNA (src/exec/rdna.c): control.cl leaves int_builtins out there */
    static const kt_test rdna[] = {t_branch,     t_loops,      t_early_exit, t_switch,
                                   t_i64_divmod, t_i32_divmod, t_calls,      t_gcd};
    if (kt_run_rdna("control", "", rdna, sizeof rdna / sizeof rdna[0]))
        return 1;
    return check_summary("control");
}
