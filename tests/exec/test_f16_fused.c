/* test_f16_fused.c - the single rounding of the fused f16 ops and of the f32 dot products, on
 * inputs made to land next to rounding midpoints: v_fma_f16, v_pk_fma_f16, v_pk_fmac_f16,
 * v_fma_mixlo/mixhi_f16 (f16 and f32 sources), v_dot2_f32_f16, v_dot2c_f32_f16 and (gfx950) the
 * bf16 dot products.  A fused result rounded to float or double first and then to its format can
 * land exactly on a midpoint the exact value is not on (a double rounding); these inputs make
 * that happen in a large share of the lanes (counted, and required, below).
 *
 * Expected values come from exact integer arithmetic written here: every input is a finite
 * value whose last bit is at least 2^-35 (f16 values, and f32/bf16 values with exponents kept
 * small), so with products in units of 2^-70 every sum is an exact 128-bit integer, which the
 * model rounds once, to nearest even, into the result format.  The dot products' documented
 * intermediate step (the two products' sum is rounded to double, valu_f16.c) is rounded the
 * same way.  The model shares no code with the emulator; lanes whose exact result is zero are
 * made again. */
#include "common/check.h"
#include "common/rng.h"
#include "common/snippet.h"
#include "exec/exec.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

typedef uint32_t u32;
typedef uint64_t u64;
typedef __int128 i128;
typedef unsigned __int128 u128;

#define UIN 35 /* inputs are integers in units of 2^-35 */
#define U2 70  /* products and sums in units of 2^-70 */

static u64 rs = 0x6a09e667f3bcc909ull;
static u32 rnd(void) { return (u32)(xorshift64(&rs) >> 11); }
static int rint_in(int lo, int hi) { return lo + (int)(rnd() % (u32)(hi - lo + 1)); }

/* ---- exact model ------------------------------------------------------------------------- */

enum { F16, BF16, F32 };
/* The value of finite bits x of format f, times 2^UIN (exact by construction of the inputs). */
static i128 fixed(u32 x, int f) {
    int mb = f == F16 ? 10 : f == BF16 ? 7 : 23, eb = f == F16 ? 5 : 8;
    int bias = (1 << (eb - 1)) - 1, w = 1 + eb + mb;
    u32 e = (x >> mb) & ((1u << eb) - 1), m = x & ((1u << mb) - 1);
    int lsb = e ? (int)e - bias - mb : 1 - bias - mb; /* exponent of the last mantissa bit */
    u64 mant = e ? m | 1u << mb : m;
    if (e == (1u << eb) - 1 || lsb + UIN < 0) {
        printf("test_f16_fused: input 0x%x out of the model's range\n", x);
        exit(2);
    }
    i128 v = (i128)mant << (lsb + UIN);
    return (x >> (w - 1)) & 1 ? -v : v;
}
static int msb(u128 m) {
    int k = -1;
    while (m) {
        m >>= 1;
        k++;
    }
    return k;
}
/* m rounded to a multiple of 2^q, ties to even */
static u128 rne(u128 m, int q) {
    if (q <= 0)
        return m;
    u128 low = m & (((u128)1 << q) - 1), half = (u128)1 << (q - 1);
    m >>= q;
    if (low > half || (low == half && (m & 1)))
        m++;
    return m << q;
}
/* s (units 2^-U2) rounded once to a format with p significant bits, minimum normal exponent
 * emin, maximum exponent emax: the bits, with mb = p - 1 mantissa bits. */
static u32 round_to(i128 s, int p, int emin, int emax, int ebits) {
    u32 sign = s < 0;
    u128 m = (u128)(s < 0 ? -s : s);
    int mb = p - 1, k = msb(m);
    int q = k - mb > emin - mb + U2 ? k - mb : emin - mb + U2; /* quantum, denormals included */
    m = rne(m, q);
    k = msb(m);
    u32 r;
    if (k - U2 > emax)
        r = ((1u << ebits) - 1) << mb; /* infinity */
    else if (k - U2 < emin)
        r = (u32)(m >> (emin - mb + U2)); /* denormal (or the smallest normal, which encodes) */
    else
        r = (u32)(k - U2 + (1 << (ebits - 1)) - 1) << mb |
            ((u32)(m >> (k - mb)) & ((1u << mb) - 1));
    return r | sign << (ebits + mb);
}
static u32 to_f16(i128 s) { return round_to(s, 11, -14, 15, 5); }
static u32 to_f32(i128 s) { return round_to(s, 24, -126, 127, 8); }
/* s rounded to p significant bits, kept in the same units (no exponent limit is reached) */
static i128 round_units(i128 s, int p) {
    u128 m = (u128)(s < 0 ? -s : s);
    m = rne(m, msb(m) - (p - 1));
    return s < 0 ? -(i128)m : (i128)m;
}
static i128 to_f64(i128 s) { return round_units(s, 53); }
/* s rounded to float first, then to f16: the double rounding a fused op must not do (the
 * float range is never left here) */
static u32 to_f16_via_f32(i128 s) { return to_f16(round_units(s, 24)); }

/* ---- inputs -------------------------------------------------------------------------------- */

/* a random finite nonzero f16 */
static u32 r16(void) {
    u32 h;
    do
        h = rnd() & 0x7bff;
    while (!h);
    return h | (rnd() & 0x8000);
}
/* an f16 value (1 + k 2^-10) 2^e, or with sign */
static u32 h16(int e, u32 mant, u32 sign) {
    return (u32)(e + 15) << 10 | (mant & 0x3ff) | sign << 15;
}
/* an f32 with exponent in [-12, 12] (last bit >= 2^-35) */
static u32 r32(void) { return (u32)rint_in(127 - 12, 127 + 12) << 23 | (rnd() & 0x807fffffu); }
/* a bf16 with exponent in [-12, 12] */
static u32 rbf(void) { return (u32)rint_in(127 - 12, 127 + 12) << 7 | (rnd() & 0x807fu); }

/* f16 a, b, c with a*b + c near a midpoint between f16 values, often within less than a float
 * unit of it (mode 0), or at random (mode 1), or cancelling (mode 2). */
static void fma_in(u32 *a, u32 *b, u32 *c) {
    switch (rnd() % 4) {
    case 0:
    case 1: { /* a b = 2^(x+y) (1 - k^2 2^-20); c's f16 midpoints lie on 2^(x+y) */
        int k = rint_in(1, 11), x = rint_in(-7, 7), y = rint_in(-7, 7);
        *a = h16(x, (u32)k, rnd() & 1);
        *b = h16(y - 1, 1024 - 2 * (u32)k, rnd() & 1);
        int e = x + y + rint_in(10, 11);
        *c = h16(e < -14 ? -14 : e > 15 ? 15 : e, rnd(), rnd() & 1);
        return;
    }
    case 2: *a = r16(), *b = r16(), *c = r16(); return;
    default: {                                    /* c near -a*b */
        *a = r16() & 0xbbff, *b = r16() & 0xbbff; /* magnitudes below 1: no overflow */
        i128 p = fixed(*a, F16) * fixed(*b, F16);
        u32 h = to_f16(-p) + (u32)rint_in(-2, 2);
        *c = (h & 0x7c00) == 0x7c00 || !(h & 0x7fff) ? r16() : h;
    }
    }
}
/* f32 a, b (exponents in [-12, 12]) and c with a*b + c just off an f16 midpoint */
static void mix32_in(u32 *a, u32 *b, u32 *c) {
    if (rnd() % 3 == 0) {
        *a = r32(), *b = r32(), *c = r32();
        return;
    }
    int k = rint_in(1, 1000), x = rint_in(-6, 6), y = rint_in(-6, 6);
    *a = (u32)(127 + x) << 23 | (u32)k | (rnd() & 1) << 31;                       /* 1 + k 2^-23 */
    *b = (u32)(127 + y - 1) << 23 | (0x800000u - 2 * (u32)k) | (rnd() & 1) << 31; /* 1 - k 2^-23 */
    int e = x + y + rint_in(10, 11);                                              /* in f16 range */
    *c = (u32)(127 + e) << 23 | (rnd() & 0x7fe000u) | (rnd() & 1) << 31;          /* an f16 value */
}
/* dot2 halves and an f32 c: c plus half a unit of c (one product) plus a much smaller second
 * product, so the exact sum is just off an f32 midpoint; or random. */
static void dot_in(int bf, u32 h[4], u32 *c) {
    if (rnd() % 3 == 0) {
        for (int i = 0; i < 4; i++)
            h[i] = bf ? rbf() : r16();
        *c = r32();
        return;
    }
    int ec = rint_in(bf ? 30 : 26, 40), lo = bf ? -12 : -14, hi = bf ? 12 : 15;
    *c = (u32)(127 + ec) << 23 | (rnd() & 0x807fffffu);
    int i = rint_in(ec - 24 - hi < lo ? lo : ec - 24 - hi, ec - 24 - lo > hi ? hi : ec - 24 - lo);
    int j = ec - 24 - i; /* al bl = 2^(ec-24) */
    /* ah bh about 2^t: below double's 53 bits of c for d >= 30 */
    int d = rnd() & 1 ? rint_in(30, 44) : rint_in(2, 29), t = ec - 24 - d;
    if (t < 2 * lo)
        t = 2 * lo;
    int i2 = t / 2, j2 = t - i2;
    u32 s0 = rnd() & 1, s1 = rnd() & 1;
    if (bf) {
        h[0] = (u32)(127 + i) << 7 | s0 << 15;
        h[2] = (u32)(127 + j) << 7 | (u32)((*c >> 31) ^ s0) << 15; /* the sign of c */
        h[1] = (u32)(127 + i2) << 7 | (rnd() & 0x7f) | s1 << 15;
        h[3] = (u32)(127 + j2) << 7 | (rnd() & 0x7f);
    } else {
        h[0] = h16(i, 0, s0);
        h[2] = h16(j, 0, (*c >> 31) ^ s0);
        h[1] = h16(i2, rnd(), s1);
        h[3] = h16(j2, rnd(), 0);
    }
}

/* ---- running ------------------------------------------------------------------------------ */

static wave *W;
static snippet_prog SP;

enum { OP_FMA, OP_PKFMA, OP_PKFMAC, OP_MIXLO16, OP_MIXLO32, OP_MIXHI32, OP_DOT, OP_DOTC };
typedef struct {
    const char *text;
    int op, bf; /* bf: bf16 halves */
    int keep;   /* a 16-bit result keeps v3[31:16] (the gfx9 op_sel form of v_fma_f16) */
} opcase;
static const opcase OPS[] = {
    {"v_fma_f16 v3, v0, v1, v2", OP_FMA, 0, 1},
    {"v_fma_legacy_f16 v3, v0, v1, v2", OP_FMA, 0, 0}, /* clears v3[31:16] */
    {"v_pk_fma_f16 v3, v0, v1, v2", OP_PKFMA, 0, 0},
    {"v_pk_fmac_f16_e32 v3, v0, v1", OP_PKFMAC, 0, 0},
    {"v_fma_mixlo_f16 v3, v0, v1, v2 op_sel_hi:[1,1,1]", OP_MIXLO16, 0, 0},
    {"v_fma_mixlo_f16 v3, v0, v1, v2", OP_MIXLO32, 0, 0},
    {"v_fma_mixhi_f16 v3, v0, v1, v2", OP_MIXHI32, 0, 0},
    {"v_dot2_f32_f16 v3, v0, v1, v2", OP_DOT, 0, 0},
    {"v_dot2c_f32_f16_e32 v3, v0, v1", OP_DOTC, 0, 0},
    {"v_dot2_f32_bf16 v3, v0, v1, v2", OP_DOT, 1, 0},
    {"v_dot2c_f32_bf16_e32 v3, v0, v1", OP_DOTC, 1, 0},
};

static i128 fma_exact(u32 a, u32 b, u32 c, int fa, int fc) {
    return fixed(a, fa) * fixed(b, fa) + fixed(c, fc) * ((i128)1 << UIN); /* units 2^-70 */
}
/* Expected v3 of one lane for inputs v0..v3 (in[0..3]); *trap: rounding through float (double,
 * for the dot products) first would give another answer. */
static int lane(const opcase *o, u32 in[4], u32 *want, int *trap) {
    *trap = 0;
    switch (o->op) {
    case OP_FMA:
    case OP_PKFMA:
    case OP_PKFMAC:
    case OP_MIXLO16: {
        int halves = o->op == OP_PKFMA || o->op == OP_PKFMAC ? 2 : 1;
        u32 r = o->op == OP_PKFMA || o->op == OP_PKFMAC || (o->op == OP_FMA && !o->keep)
                    ? 0
                    : in[3] & 0xffff0000u;
        for (int hh = 0; hh < halves; hh++) {
            u32 a = in[0] >> 16 * hh & 0xffff, b = in[1] >> 16 * hh & 0xffff;
            u32 c = (o->op == OP_PKFMAC ? in[3] : in[2]) >> 16 * hh & 0xffff;
            i128 s = fma_exact(a, b, c, F16, F16);
            if (!s)
                return 0;
            u32 h = to_f16(s);
            *trap |= h != to_f16_via_f32(s);
            r |= h << 16 * hh;
        }
        *want = r;
        return 1;
    }
    case OP_MIXLO32:
    case OP_MIXHI32: {
        i128 s = fma_exact(in[0], in[1], in[2], F32, F32);
        if (!s)
            return 0;
        u32 h = to_f16(s);
        *trap = h != to_f16_via_f32(s);
        *want = o->op == OP_MIXLO32 ? (in[3] & 0xffff0000u) | h : (in[3] & 0xffff) | h << 16;
        return 1;
    }
    default: {
        int f = o->bf ? BF16 : F16;
        i128 pa = fixed(in[0] & 0xffff, f) * fixed(in[1] & 0xffff, f);
        i128 pb = fixed(in[0] >> 16, f) * fixed(in[1] >> 16, f);
        u32 c = o->op == OP_DOTC ? in[3] : in[2];
        i128 s = to_f64(pa + pb) + fixed(c, F32) * ((i128)1 << UIN);
        if (!s)
            return 0;
        *want = to_f32(s);
        *trap = *want != to_f32(to_f64(s));
        return 1;
    }
    }
}
static void fill(const opcase *o, u32 in[4]) {
    u32 a, b, c, h[4];
    switch (o->op) {
    case OP_PKFMA:
    case OP_PKFMAC:
        fma_in(&a, &b, &c);
        in[0] = a, in[1] = b, in[2] = c;
        fma_in(&a, &b, &c);
        in[0] |= a << 16, in[1] |= b << 16, in[2] |= c << 16;
        in[3] = o->op == OP_PKFMAC ? in[2] : rnd();
        return;
    case OP_FMA:
    case OP_MIXLO16:
        fma_in(&a, &b, &c);
        in[0] = a | rnd() << 16, in[1] = b | rnd() << 16, in[2] = c | rnd() << 16, in[3] = rnd();
        return;
    case OP_MIXLO32:
    case OP_MIXHI32:
        mix32_in(&in[0], &in[1], &in[2]);
        in[3] = rnd();
        return;
    default:
        dot_in(o->bf, h, &c);
        in[0] = h[0] | h[1] << 16, in[1] = h[2] | h[3] << 16;
        in[2] = in[3] = c;
    }
}

static void run_op(const char *arch, const opcase *o) {
    if (snippet_prog_load(&SP, arch, o->text) != 0) {
        CHECK(0, "%s '%s' does not assemble", arch, o->text);
        return;
    }
    int lanes = 0, traps = 0, bad = 0;
    for (int rep = 0; rep < 64; rep++) {
        u32 in[64][4], want[64];
        memset(W, 0, sizeof *W);
        for (int l = 0; l < 64; l++) {
            int t;
            do
                fill(o, in[l]);
            while (!lane(o, in[l], &want[l], &t));
            traps += t;
            for (int r = 0; r < 4; r++)
                W->v[r][l] = in[l][r];
        }
        W->prog = &SP.prog;
        W->budget = 100;
        W->mode = 0x3f0; /* denormals kept, IEEE */
        /* every other run with lane 63 off, which takes the handlers off their direct paths
         * (lane 63 must keep its v3) */
        u64 exec = rep & 1 ? ~0ull >> 1 : ~0ull;
        if (rep & 1)
            want[63] = in[63][3];
        wave_set_exec(W, exec);
        wave_run(W);
        if (W->status != WAVE_DONE) {
            CHECK(0, "%s '%s': status %d", arch, o->text, W->status);
            return;
        }
        for (int l = 0; l < 64; l++, lanes++)
            if (W->v[3][l] != want[l] && bad++ < 4)
                printf("  %s '%s' lane: v0 %08x v1 %08x v2 %08x v3 %08x -> %08x, want %08x\n", arch,
                       o->text, in[l][0], in[l][1], in[l][2], in[l][3], W->v[3][l], want[l]);
    }
    CHECK(bad == 0, "%s '%s': %d of %d lanes wrong", arch, o->text, bad, lanes);
    /* the inputs must make double rounding matter often, or this test proves little */
    CHECK(traps * 20 >= lanes, "%s '%s': only %d of %d lanes are double-rounding cases", arch,
          o->text, traps, lanes);
}

/* Hand-worked cases, as a check on the model itself. */
static void test_model(void) {
    /* test_valu.c's double-rounding trap: a = 1+2^-10, b = 2^-11 (1-2^-10), c = 1+2^-10:
     * exact 1 + 3 2^-11 - 2^-31 -> 0x3c01 (through float: the midpoint, 0x3c02) */
    i128 s = fma_exact(0x3c01, 0x0ffe, 0x3c01, F16, F16);
    EXPECT(to_f16(s) == 0x3c01 && to_f16_via_f32(s) == 0x3c02);
    EXPECT(to_f16(fma_exact(0x3c00, 0x3c00, 0x3c00, F16, F16)) == 0x4000); /* 1 + 1 = 2 */
    EXPECT(to_f16(fma_exact(0x7bff, 0x3c00, 0x5000, F16, F16)) == 0x7c00); /* 65504 + 32: inf */
    EXPECT(to_f16(fma_exact(0x0001, 0x3800, 0x0001, F16, F16)) == 0x0002); /* 1.5 2^-24 */
    /* dot2: 2^-7 2^-7 + 2^-24 2^-24 + 1024 = 1024 + 2^-14 + 2^-48, just above the midpoint of
     * 1024 and 1024 + 2^-13: 0x44800001 (rounding to double first gives the midpoint: 1024) */
    i128 pa = fixed(0x2000, F16) * fixed(0x2000, F16), pb = fixed(1, F16) * fixed(1, F16);
    i128 t = to_f64(pa + pb) + fixed(0x44800000, F32) * ((i128)1 << UIN);
    EXPECT(to_f32(t) == 0x44800001 && to_f32(to_f64(t)) == 0x44800000);
}

/* v_fma_mix*_f16 of f32 sources whose exact result is below half of float's smallest denormal:
 * it rounds to a zero of the result's sign (the round-to-odd step once turned +0 into the f16
 * NaN 0xffff).  v1 * v2 + v3 with v1 = +-2^-100, v2 = 2^-60, v3 = 0 or a tiny f32 of the other
 * sign: exact results +-2^-160 and +-2^-160 -+ 2^-149's tiny neighbours all round to +-0. */
static void test_tiny_mix(void) {
    static const struct {
        u32 a, c, want;
    } t[] = {{0x0d800000u, 0, 0x0000},
             {0x8d800000u, 0, 0x8000},
             {0x0d800000u, 0x80000000u, 0x0000},
             {0x8d800000u, 0x80000000u, 0x8000}};
    const char *arches[] = {"gfx950", "gfx942"};
    for (int ai = 0; ai < 2; ai++)
        for (int hi = 0; hi < 2; hi++) {
            const char *text =
                hi ? "v_fma_mixhi_f16 v4, v1, v2, v3" : "v_fma_mixlo_f16 v4, v1, v2, v3";
            if (snippet_prog_load(&SP, arches[ai], text) != 0) {
                CHECK(0, "%s %s: does not assemble", arches[ai], text);
                continue;
            }
            for (unsigned k = 0; k < sizeof t / sizeof t[0]; k++) {
                memset(W, 0, sizeof *W);
                W->prog = &SP.prog;
                W->budget = 10;
                W->mode = 0x3f0u;
                wave_set_exec(W, ~0ull);
                for (unsigned l = 0; l < 64; l++)
                    W->v[1][l] = t[k].a, W->v[2][l] = 0x21800000u, W->v[3][l] = t[k].c,
                    W->v[4][l] = 0x12345678u;
                wave_run(W);
                u32 want = hi ? (0x5678u | t[k].want << 16) : (0x12340000u | t[k].want);
                CHECK(W->status == WAVE_DONE && W->v[4][0] == want && W->v[4][63] == want,
                      "%s %s a=%08x c=%08x: %08x, want %08x", arches[ai], text, t[k].a, t[k].c,
                      W->v[4][0], want);
            }
        }
}

int main(void) {
    W = malloc(sizeof *W);
    test_model();
    test_tiny_mix();
    const char *arches[] = {"gfx950", "gfx942"};
    for (int ai = 0; ai < 2; ai++)
        for (unsigned i = 0; i < sizeof OPS / sizeof OPS[0]; i++)
            if (!OPS[i].bf || ai == 0) /* the bf16 dot products are gfx950's */
                run_op(arches[ai], &OPS[i]);
    snippet_prog_free(&SP);
    free(W);
    return check_summary("test_f16_fused");
}
