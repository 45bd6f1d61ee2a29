/* test_cvt_round.c - the unscaled f32 -> fp8/bf8/f16/bf16 conversions and the fp8/bf8 -> f32
 * decodes at every rounding boundary, lane by lane: v_cvt_pk_fp8_f32 / v_cvt_pk_bf8_f32 (gfx950
 * OCP and gfx942 FNUZ formats, with and without the clamp bit, both destination words),
 * v_cvt_pkrtz_f16_f32 (and gfx1100's v_cvt_pk_rtz_f16_f32), v_cvt_pk_f16_f32,
 * v_cvt_pk_bf16_f32, v_cvt_sr_bf16_f32 (gfx950), v_cvt_f32_fp8/bf8 and v_cvt_pk_f32_fp8/bf8
 * (every code, every byte or word).
 *
 * Inputs: for each format, every representable magnitude (all of them for the 8-bit formats, a
 * few thousand for f16/bf16: each binade's first and last codes and random ones), the midpoint
 * between it and the next one (ties), the f32 values one ulp either side of each midpoint, both
 * signs, the largest value and the overflow threshold, f32 denormals, +-0, +-inf and NaNs with
 * payloads, and random f32 values in and around the format's range.
 *
 * Expected values come from a model written here from the format definitions (values by ldexp,
 * rounding by binary search over the codes and a comparison with the midpoint, ties to the even
 * code, toward zero by taking the lower neighbour) and the ops' rules: no saturation gives +-inf
 * (OCP bf8, f16, bf16), S.1111.111 (OCP fp8) or 0x80 (FNUZ); round-toward-zero gives +-max; FNUZ
 * has no -0; NaN inputs give the format's NaN (IEEE-like formats: quiet, with the top payload bits
 * of the f32 NaN; decoded NaNs: the quiet f32 NaN with the code's sign and payload).  Nothing is
 * taken from a gfxemu run or from src/exec/fpfmt.h. */
#include "common/bits.h"
#include "common/check.h"
#include "common/rng.h"
#include "common/snippet.h"
#include "exec/exec.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

typedef uint32_t u32;

static snippet_rig rig;
static wave *const w = &rig.wv;
static uint64_t rs = 0x6a09e667f3bcc909ull;
static u32 rnd(void) { return (u32)(xorshift64(&rs) >> 17); }

/* ---- the model ---------------------------------------------------------------------------- */

enum { K_IEEE, K_OCP_E4M3, K_FNUZ };
typedef struct {
    const char *name;
    int e, m, bias, kind;
} fmt;
static const fmt FP8 = {"fp8", 4, 3, 7, K_OCP_E4M3}, BF8 = {"bf8", 5, 2, 15, K_IEEE},
                 FP8N = {"fp8 fnuz", 4, 3, 8, K_FNUZ}, BF8N = {"bf8 fnuz", 5, 2, 16, K_FNUZ},
                 F16 = {"f16", 5, 10, 15, K_IEEE}, BF16 = {"bf16", 8, 7, 127, K_IEEE};

static unsigned sbit(const fmt *f) { return 1u << (f->e + f->m); }
/* the largest finite magnitude code */
static unsigned maxc(const fmt *f) {
    unsigned top = sbit(f) - 1;
    return f->kind == K_IEEE ? top - (1u << f->m) : f->kind == K_OCP_E4M3 ? top - 1 : top;
}
/* value of magnitude code c, for c <= maxc + 1 (maxc + 1: the next value an unbounded exponent
 * range would have, the overflow point) */
static double val(const fmt *f, unsigned c) {
    unsigned e = c >> f->m, m = c & ((1u << f->m) - 1);
    return e ? ldexp(1.0 + ldexp(m, -f->m), (int)e - f->bias) : ldexp(m, 1 - f->bias - f->m);
}
/* |a| (finite) rounded to a magnitude code, nearest even (rtz: toward zero); maxc + 1 means
 * beyond the largest finite value */
static unsigned round_mag(const fmt *f, double a, int rtz) {
    unsigned lo = 0, hi = maxc(f) + 1;
    if (a >= val(f, hi))
        return hi;
    while (hi - lo > 1) { /* val(lo) <= a < val(hi) */
        unsigned mid = (lo + hi) / 2;
        if (val(f, mid) <= a)
            lo = mid;
        else
            hi = mid;
    }
    if (rtz || a == val(f, lo))
        return lo;
    double twice = 2 * a, sum = val(f, lo) + val(f, hi); /* both exact */
    return twice > sum ? hi : twice < sum ? lo : (lo & 1) ? hi : lo;
}
/* the code of the f32 x (bits), by the rules above; sat: clamp bit (or round toward zero) */
static unsigned enc(const fmt *f, u32 x, int sat, int rtz) {
    unsigned s = x >> 31 ? sbit(f) : 0, mf = x & 0x7fffff, ones = (1u << f->e) - 1;
    float v = from_bits32(x);
    if (isnan(v)) {
        if (f->kind == K_FNUZ)
            return 0x80;
        if (f->kind == K_OCP_E4M3)
            return s | 0x7f;
        return s | ones << f->m | 1u << (f->m - 1) | mf >> (23 - f->m);
    }
    if (isinf(v) && !(rtz && f->kind == K_IEEE))
        return sat ? s | maxc(f) : f->kind == K_FNUZ ? 0x80 : s | (maxc(f) + 1);
    if (isinf(v))
        return s | ones << f->m; /* toward zero keeps a true infinity */
    unsigned c = round_mag(f, fabs((double)v), rtz);
    if (c > maxc(f))
        return sat || rtz ? s | maxc(f) : f->kind == K_FNUZ ? 0x80 : s | c;
    return c == 0 && f->kind == K_FNUZ ? 0 : s | c;
}
/* the f32 bits of code c */
static u32 dec(const fmt *f, unsigned c) {
    u32 s = c & sbit(f) ? 0x80000000u : 0;
    unsigned mag = c & (sbit(f) - 1), e = mag >> f->m, m = mag & ((1u << f->m) - 1);
    if (f->kind == K_FNUZ && c == 0x80)
        return 0xffc00000u;
    if (f->kind == K_OCP_E4M3 && mag == 0x7f)
        return s | 0x7fc00000u;
    if (f->kind == K_IEEE && e == (1u << f->e) - 1)
        return s | (m ? 0x7fc00000u | m << (23 - f->m) : 0x7f800000u);
    return s | bits32((float)val(f, mag));
}

/* ---- inputs ------------------------------------------------------------------------------- */

static u32 *in;
static int nin, cap;
static void add_bits(u32 x) { /* x and -x */
    if (nin + 2 > cap)
        in = realloc(in, sizeof *in * (cap = cap ? 2 * cap : 4096));
    in[nin++] = x;
    in[nin++] = x ^ 0x80000000u;
}
static void add(double v) { /* only when v is an f32 value */
    if ((double)(float)v == v)
        add_bits(bits32((float)v));
}
static void add_code(const fmt *f, unsigned c) {
    double lo = val(f, c), hi = val(f, c + 1), mid = (lo + hi) / 2;
    add(lo);
    add(mid);
    if ((double)(float)mid == mid) {
        add(nextafterf((float)mid, 0));
        add(nextafterf((float)mid, INFINITY));
    }
}
static void make_inputs(const fmt *f) {
    nin = 0;
    unsigned mx = maxc(f);
    if (f->m <= 3)
        for (unsigned c = 0; c <= mx; c++)
            add_code(f, c);
    else {
        for (unsigned e = 0; e <= mx >> f->m; e++) { /* each binade's ends */
            unsigned b = e << f->m, last = (1u << f->m) - 1;
            for (unsigned m = 0; m < 3; m++)
                add_code(f, b | m);
            for (unsigned m = last - 2; m <= last && (b | m) <= mx; m++)
                add_code(f, b | m);
        }
        for (int i = 0; i < 1500; i++)
            add_code(f, rnd() % (mx + 1));
    }
    static const u32 sp[] = {0x00000000, 0x00000001, 0x00400000, 0x007fffff, 0x00800000,
                             0x7f7fffff, 0x7f800000, 0x7fc00000, 0x7f800001, 0x7fa00000,
                             0x7fe00000, 0x7fbfffff, 0x7ff00000, 0x7f812345, 0x5f000000};
    for (unsigned i = 0; i < sizeof sp / sizeof sp[0]; i++)
        add_bits(sp[i]);
    int lo = 1 - f->bias - f->m - 4, hi = (1 << f->e) - f->bias + 2;
    for (int i = 0; i < 2000; i++) { /* random f32 around the format's range */
        int ex = lo + (int)(rnd() % (unsigned)(hi - lo + 1));
        ex = ex < -149 ? -149 : ex > 127 ? 127 : ex;
        add(ldexpf(1 + (rnd() & 0x7fffff) * 0x1p-23f, ex));
    }
}

/* ---- runner ------------------------------------------------------------------------------- */

#define OLD 0x5a5aa5a5u
/* Run text on arch with lane l's v0 = a[l], v1 = b[l] (n lanes, the rest 0), v2/v3 = OLD.
 * 0 when it did not run. */
static int run(const char *arch, int wave64, const char *text, const u32 *a, const u32 *b, int n) {
    snippet_rig_lanes(&rig, wave64, 0);
    for (int l = 0; l < 64; l++) {
        w->v[0][l] = l < n ? a[l] : 0;
        w->v[1][l] = l < n && b ? b[l] : 0;
        w->v[2][l] = w->v[3][l] = OLD;
    }
    return snippet_rig_run(&rig, arch, text) == WAVE_DONE;
}

static int bad;
static long compared;
static void cmp(const char *what, int l, u32 a, u32 b, u32 got, u32 want) {
    compared++;
    if (got != want && bad++ < 6)
        printf("  %s lane %d (v0 %08x v1 %08x): got %08x want %08x\n", what, l, a, b, got, want);
}

/* A packed two-value op over the input list: v0 = in[i], v1 = in[i + half] (every input in
 * both positions); want(a, b, old) is the expected v2. */
typedef u32 (*want_fn)(const fmt *f, u32 a, u32 b, u32 old, int flags);
static void packed(const char *arch, int wave64, const char *text, const fmt *f, int flags,
                   want_fn want) {
    int lanes = wave64 ? 64 : 32, runs = 0;
    bad = 0;
    for (int i = 0; i < nin; i += lanes) {
        u32 a[64], b[64];
        int n = nin - i < lanes ? nin - i : lanes;
        for (int l = 0; l < n; l++) {
            a[l] = in[i + l];
            b[l] = in[(i + l + nin / 2 + 1) % nin];
        }
        if (!run(arch, wave64, text, a, b, n)) {
            bad++;
            break;
        }
        runs++;
        for (int l = 0; l < n; l++)
            cmp(text, l, a[l], b[l], w->v[2][l], want(f, a[l], b[l], OLD, flags));
    }
    CHECK(bad == 0, "%s %s (%s, %d runs of %d lanes): %d lanes wrong", arch, text, f->name, runs,
          lanes, bad);
}

/* flags: 1 clamp (saturate; the decoder refuses the bit on these ops, as LLVM does, so only the
 * model uses it), 2 high word (the low one kept) */
static u32 want_pk8(const fmt *f, u32 a, u32 b, u32 old, int flags) {
    u32 p = enc(f, a, flags & 1, 0) | enc(f, b, flags & 1, 0) << 8;
    return flags & 2 ? (old & 0xffff) | p << 16 : (old & 0xffff0000u) | p;
}
/* flags: 1 round toward zero */
static u32 want_pk16(const fmt *f, u32 a, u32 b, u32 old, int flags) {
    (void)old;
    return enc(f, a, 0, flags & 1) | enc(f, b, 0, flags & 1) << 16;
}
/* v_cvt_sr_bf16_f32: S1[15:0] added below the kept bits, then truncated (the gfx950 model); NaN
 * as bf16's; the high half of the destination kept (op_sel[3] = 0) */
static u32 want_sr_bf16(const fmt *f, u32 a, u32 b, u32 old, int flags) {
    (void)flags;
    u32 h = isnan(from_bits32(a)) ? enc(f, a, 0, 0) : (a + (b & 0xffff)) >> 16;
    return (old & 0xffff0000u) | h;
}

static void test_pk8(void) {
    static const struct {
        const char *arch;
        const fmt *f[2];
    } t[] = {{"gfx950", {&FP8, &BF8}}, {"gfx942", {&FP8N, &BF8N}}};
    for (int a = 0; a < 2; a++)
        for (int bf = 0; bf < 2; bf++) {
            const fmt *f = t[a].f[bf];
            make_inputs(f);
            char text[64];
            snprintf(text, sizeof text, "v_cvt_pk_%s_f32 v2, v0, v1", bf ? "bf8" : "fp8");
            packed(t[a].arch, 1, text, f, 0, want_pk8);
            strcat(text, " op_sel:[0,0,1]");
            packed(t[a].arch, 1, text, f, 2, want_pk8);
        }
}

static void test_pk16(void) {
    make_inputs(&F16);
    packed("gfx950", 1, "v_cvt_pkrtz_f16_f32 v2, v0, v1", &F16, 1, want_pk16);
    packed("gfx942", 1, "v_cvt_pkrtz_f16_f32 v2, v0, v1", &F16, 1, want_pk16);
    packed("gfx1100", 0, "v_cvt_pk_rtz_f16_f32 v2, v0, v1", &F16, 1, want_pk16);
    packed("gfx950", 1, "v_cvt_pk_f16_f32 v2, v0, v1", &F16, 0, want_pk16);
    make_inputs(&BF16);
    packed("gfx950", 1, "v_cvt_pk_bf16_f32 v2, v0, v1", &BF16, 0, want_pk16);
    /* v1 random: the random operand of the stochastic form */
    for (int i = 0; i < nin; i += 2)
        in[i + 1] = i % 4 ? rnd() : (i & 8) ? 0xffffu : 0x8000u;
    packed("gfx950", 1, "v_cvt_sr_bf16_f32 v2, v0, v1", &BF16, 0, want_sr_bf16);
}

/* decodes: every code in every byte (word) of the source */
static void test_decode(void) {
    static const struct {
        const char *arch;
        const fmt *f[2];
    } t[] = {{"gfx950", {&FP8, &BF8}}, {"gfx942", {&FP8N, &BF8N}}};
    static const char *sel[4] = {"BYTE_0", "BYTE_1", "BYTE_2", "BYTE_3"};
    for (int a = 0; a < 2; a++)
        for (int bf = 0; bf < 2; bf++) {
            const fmt *f = t[a].f[bf];
            const char *fn = bf ? "bf8" : "fp8";
            bad = 0;
            for (int s = 0; s < 5; s++)
                for (unsigned c0 = 0; c0 < 256; c0 += 64) {
                    char text[96];
                    if (s < 4)
                        snprintf(text, sizeof text, "v_cvt_f32_%s_sdwa v2, v0 src0_sel:%s", fn,
                                 sel[s]);
                    else
                        snprintf(text, sizeof text, "v_cvt_f32_%s_e32 v2, v0", fn);
                    u32 v[64];
                    for (int l = 0; l < 64; l++) /* code c0 + l in the byte, others random */
                        v[l] = (rnd() & ~(0xffu << 8 * (s & 3))) | (c0 + l) << 8 * (s & 3);
                    if (!run(t[a].arch, 1, text, v, NULL, 64)) {
                        bad++;
                        continue;
                    }
                    for (int l = 0; l < 64; l++)
                        cmp(text, l, v[l], 0, w->v[2][l], dec(f, c0 + l));
                }
            for (int word = 0; word < 2; word++) {
                char text[96];
                snprintf(text, sizeof text,
                         word ? "v_cvt_pk_f32_%s_sdwa v[2:3], v0 src0_sel:WORD_1"
                              : "v_cvt_pk_f32_%s_e32 v[2:3], v0",
                         fn);
                for (unsigned c0 = 0; c0 < 256; c0 += 64) {
                    u32 v[64];
                    for (int l = 0; l < 64; l++) { /* codes c0 + l and 255 - (c0 + l) */
                        u32 p = (c0 + l) | (255 - c0 - l) << 8;
                        v[l] = word ? (rnd() & 0xffff) | p << 16 : (rnd() & 0xffff0000u) | p;
                    }
                    if (!run(t[a].arch, 1, text, v, NULL, 64)) {
                        bad++;
                        continue;
                    }
                    for (int l = 0; l < 64; l++) {
                        cmp(text, l, v[l], 0, w->v[2][l], dec(f, c0 + l));
                        cmp(text, l, v[l], 1, w->v[3][l], dec(f, 255 - c0 - l));
                    }
                }
            }
            CHECK(bad == 0, "%s %s decodes: %d wrong", t[a].arch, f->name, bad);
        }
}

/* The model itself against hand-worked values (so a wrong model cannot pass as the reference). */
static void test_model(void) {
    EXPECT(enc(&FP8, bits32(448.0f), 0, 0) == 0x7e && enc(&FP8, bits32(464.0f), 0, 0) == 0x7e);
    EXPECT(enc(&FP8, bits32(465.0f), 0, 0) == 0x7f && enc(&FP8, bits32(-1e9f), 1, 0) == 0xfe);
    EXPECT(enc(&FP8, bits32(0x1p-10f), 0, 0) == 0x00 && enc(&FP8, bits32(0x1.8p-10f), 0, 0) == 1);
    EXPECT(enc(&FP8, bits32(-0x1p-10f), 0, 0) == 0x80 && enc(&FP8N, bits32(-0x1p-11f), 0, 0) == 0);
    EXPECT(enc(&BF8, bits32(61440.0f), 0, 0) == 0x7c && enc(&BF8, bits32(61439.0f), 0, 0) == 0x7b);
    EXPECT(enc(&BF8, 0xff800000u, 1, 0) == 0xfb && enc(&BF8, 0x7fa00000u, 0, 0) == 0x7f);
    EXPECT(enc(&FP8N, bits32(248.0f), 0, 0) == 0x80 && enc(&FP8N, bits32(247.0f), 0, 0) == 0x7f);
    EXPECT(enc(&BF8N, bits32(1.0f), 0, 0) == 0x40 && enc(&BF8N, 0x7fc00000u, 1, 0) == 0x80);
    EXPECT(enc(&F16, bits32(65520.0f), 0, 0) == 0x7c00 &&
           enc(&F16, bits32(65520.0f), 0, 1) == 0x7bff);
    EXPECT(enc(&F16, 0xff800000u, 0, 1) == 0xfc00 && enc(&F16, bits32(0x1.fp-25f), 0, 1) == 0);
    EXPECT(enc(&F16, bits32(0x1.8p-24f), 0, 0) == 2 && enc(&F16, bits32(0x1.8p-24f), 0, 1) == 1);
    EXPECT(enc(&BF16, 0x3f808000u, 0, 0) == 0x3f80 && enc(&BF16, 0x3f818000u, 0, 0) == 0x3f82);
    EXPECT(enc(&BF16, 0x00000001u, 0, 0) == 0 && enc(&BF16, 0x00008000u, 0, 0) == 0 &&
           enc(&BF16, 0x00018000u, 0, 0) == 2 && enc(&BF16, 0x7f7fffffu, 0, 0) == 0x7f80);
    EXPECT(dec(&FP8, 0x01) == bits32(0x1p-9f) && dec(&BF8N, 0x01) == bits32(0x1p-17f));
    EXPECT(dec(&FP8N, 0x7f) == bits32(240.0f) && dec(&BF8, 0xfd) == 0xffe00000u);
}

int main(void) {
    if (snippet_rig_open(&rig))
        return 1;
    test_model();
    test_pk8();
    test_pk16();
    test_decode();
    snippet_rig_close(&rig);
    free(in);
    printf("test_cvt_round: %ld lane results compared\n", compared);
    return check_summary("test_cvt_round");
}
