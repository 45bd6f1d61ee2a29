/* test_round.c - MODE.FP_ROUND (round toward +inf / -inf / zero) on snippets assembled by
 * llvm-mc-22 for gfx950, gfx942 and gfx90a.
 *
 * Each snippet first writes MODE[3:0] with s_setreg_imm32_b32, so the path under test is the
 * one kernels take.  The field that should not matter gets a different mode than the one under
 * test, so using the wrong field shows.  Expected values come from the host: one operation on
 * volatile operands between fesetround() calls (the volatile loads and store keep GCC from
 * moving the arithmetic across the mode change), and for f16 results libgcc's correctly
 * rounded conversion to _Float16, which honours the host rounding mode.  f16 sums and products
 * are exact in double; an f16 fma is the directed fma in double, then the directed conversion
 * (two roundings in the same direction give the single directed rounding).  Inputs: edge
 * values paired with each other (ties, overflow, denormal results, x - x) and random ones. */
#include "common/rng.h"
#include "common/bits.h"
#include "common/asm.h"
#include "common/check.h"
#include "common/snippet.h"
#include "exec/exec.h"

#include <fenv.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

typedef uint32_t u32;
typedef uint64_t u64;
typedef _Float16 f16;

static const char *ARCH;
static wave *W;
static snippet_prog SP;
static int fails, checks;
static char CUR[256];

#define MODE_DEFAULT                                                                               \
    0x3f0u /* denormals kept, DX10_CLAMP, IEEE: what clang-22 kernels start with                   \
            */
static const int HOST[4] = {FE_TONEAREST, FE_UPWARD, FE_DOWNWARD, FE_TOWARDZERO};
static const char *const MNAME[4] = {"nearest", "+inf", "-inf", "zero"};

static double H(u32 h) {
    f16 v;
    uint16_t b = (uint16_t)h;
    memcpy(&v, &b, 2);
    return (double)v;
}

static u64 rng = 0x243f6a8885a308d3ull;
static u32 rnd(void) { return (u32)(xorshift64(&rng) >> 16); }

static void fail(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
#include <stdarg.h>
static int cur_fails; /* failures of the current snippet: only the first few are printed */
static void fail(const char *fmt, ...) {
    fails++;
    if (cur_fails++ >= 3)
        return;
    va_list ap;
    va_start(ap, fmt);
    check_vprint_fail(ARCH, CUR, fmt, ap);
    va_end(ap);
}

static void reset(void);
/* Assemble "s_setreg MODE[3:0] = mode" + text (+ s_endpgm) for waves of `lanes` lanes (32: an
 * RDNA wave32 program) and reset the wave, its lanes all on. */
static int load_lanes(const char *text, unsigned mode, unsigned lanes) {
    char buf[4096];
    snprintf(CUR, sizeof CUR, "MODE[3:0]=%u: %s", mode, text);
    snprintf(buf, sizeof buf, "s_setreg_imm32_b32 hwreg(HW_REG_MODE, 0, 4), %u\n%s", mode, text);
    checks++;
    cur_fails = 0;
    if (snippet_prog_load_waves(&SP, ARCH, buf, lanes) != 0) {
        fail("does not assemble/build");
        return 0;
    }
    reset();
    if (lanes == 32)
        wave_set_exec(W, 0xffffffffull);
    return 1;
}
static int load(const char *text, unsigned mode) { return load_lanes(text, mode, 64); }
/* Fresh wave on the loaded snippet: all lanes on, default MODE, registers 0. */
static void reset(void) {
    memset(W, 0, sizeof *W);
    W->prog = &SP.prog;
    W->budget = 100000;
    W->mode = MODE_DEFAULT;
    wave_set_exec(W, ~0ull);
}
static int run(void) {
    wave_run(W);
    if (W->status != WAVE_DONE) {
        fail("status %d fault kind %d op %s at pc %u%s%s", W->status, W->fault.kind,
             isa_op_names[W->fault.op], W->fault.pc, W->fault.note ? ": " : "",
             W->fault.note ? W->fault.note : "");
        return 0;
    }
    return 1;
}

/* ---- the host reference ------------------------------------------------------------------------
 */

enum {
    ADD,
    SUB,
    SUBREV,
    MUL,
    FMA,
    FMAC,
    LDEXP,
    RCP,
    SQRT,
    CVT_I,
    CVT_U,
    CVT_D,
    CVT_H,
    CVT_HU,
    CVT_HI
};

static float ref32(int op, float a, float b, float c, int m) {
    volatile float va = a, vb = b, vc = c, r;
    volatile int vi = (int)bits32(b);
    volatile double vd;
    fesetround(HOST[m]);
    switch (op) {
    case ADD: r = va + vb; break;
    case SUB: r = va - vb; break;
    case SUBREV: r = vb - va; break;
    case MUL: r = va * vb; break;
    case FMA: r = fmaf(va, vb, vc); break;
    case LDEXP: r = ldexpf(va, vi); break;
    case RCP: r = 1.0f / va; break;
    case SQRT: r = sqrtf(va); break;
    case CVT_I: r = (float)(int32_t)bits32(va); break;
    case CVT_U: r = (float)bits32(va); break;
    default: r = 0; break;
    }
    fesetround(FE_TONEAREST);
    (void)vd;
    return r;
}
static double ref64(int op, double a, double b, double c, int m) {
    volatile double va = a, vb = b, vc = c, r;
    fesetround(HOST[m]);
    switch (op) {
    case ADD: r = va + vb; break;
    case SUB: r = va - vb; break;
    case SUBREV: r = vb - va; break;
    case MUL: r = va * vb; break;
    case FMA: r = fma(va, vb, vc); break;
    case RCP: r = 1.0 / va; break;
    case SQRT: r = sqrt(va); break;
    case LDEXP: r = ldexp(va, (int)vb); break;
    default: r = 0; break;
    }
    fesetround(FE_TONEAREST);
    return r;
}
static float ref_d2f(double a, int m) {
    volatile double va = a;
    volatile float r;
    fesetround(HOST[m]);
    r = (float)va;
    fesetround(FE_TONEAREST);
    return r;
}
/* exact (or same-direction-rounded double) value -> f16 bits in mode m */
static u32 ref_h(double v, int m) {
    volatile double vv = v;
    volatile f16 r;
    fesetround(HOST[m]);
    r = (f16)vv;
    fesetround(FE_TONEAREST);
    f16 h = r;
    uint16_t b;
    memcpy(&b, &h, 2);
    return b;
}

/* Count a check; the encodings agree (bit for bit, or both NaN). */
static int agree32(u32 got, u32 want) {
    checks++;
    if (from_bits32(want) != from_bits32(want))
        return from_bits32(got) != from_bits32(got);
    return got == want;
}
static int agree64(u64 got, u64 want) {
    checks++;
    if (from_bits64(want) != from_bits64(want))
        return from_bits64(got) != from_bits64(got);
    return got == want;
}
static int same16(u32 got, u32 want) {
    checks++;
    if ((want & 0x7fff) > 0x7c00)
        return (got & 0x7fff) > 0x7c00;
    return (got & 0xffff) == want;
}

/* ---- inputs ---------------------------------------------------------------------------------- */

static const u32 E32[] = {
    0x3f800000, 0xbf800000, 0x33800000, /* 2^-24: 1 + it is a tie */
    0x34000000, 0x33c00000,             /* 2^-23, 1.5 * 2^-24: above the tie */
    0x7f7fffff, 0xff7fffff, 0x00000001, 0x80000001, 0x00800000, 0x807fffff,
    0x3eaaaaab, 0x40490fdb, 0x00000000, 0x80000000, 0x7f800000, 0xff800000,
    0x7fc00000, 0x4b800001, 0x3f000001, 0x1f800000, /* 2^-64: squares to a denormal */
};
#define NE32 (sizeof E32 / sizeof E32[0])
static u32 rnd32(void) {
    u32 r = rnd();
    /* mostly moderate exponents so sums keep bits to round; some denormal and huge ones */
    switch (r & 7) {
    case 0: return (r & 0x807fffff) | (rnd() & 0x00800000); /* denormal or tiny normal */
    case 1: return (r & 0x807fffff) | (0xfc + (rnd() & 3)) << 23;
    default: return (r & 0x807fffff) | (120 + (rnd() % 16)) << 23;
    }
}
/* 64 lanes of (a, b, c) for batch k: the first batches pair every edge value with every other */
static void inputs32(int k, u32 *a, u32 *b, u32 *c) {
    for (int l = 0; l < 64; l++) {
        int i = k * 64 + l;
        if ((size_t)i < NE32 * NE32) {
            a[l] = E32[i % NE32];
            b[l] = E32[i / NE32];
            c[l] = (l & 1) ? a[l] ^ 0x80000000u : E32[(i * 7) % NE32];
        } else {
            a[l] = rnd32();
            b[l] = (l & 3) == 0 ? a[l] : rnd32(); /* x - x and x + x */
            c[l] = rnd32();
        }
    }
}
#define NB32 ((int)((NE32 * NE32 + 63) / 64) + 4)

/* ---- f32 ops --------------------------------------------------------------------------------- */

static unsigned mode_f32(int m) { return (unsigned)m | (unsigned)((m + 1) & 3) << 2; }
static unsigned mode_f64(int m) { return (unsigned)((m + 1) & 3) | (unsigned)m << 2; }

static void test_f32(void) {
    static const struct {
        const char *text;
        int op;
    } ops[] = {
        {"v_add_f32_e32 v2, v0, v1", ADD},
        {"v_sub_f32_e32 v2, v0, v1", SUB},
        {"v_subrev_f32_e32 v2, v0, v1", SUBREV},
        {"v_mul_f32_e32 v2, v0, v1", MUL},
        {"v_fma_f32 v2, v0, v1, v3", FMA},
        {"v_fmac_f32_e32 v2, v0, v1", FMAC},
        {"v_pk_add_f32 v[4:5], v[0:1], v[6:7]", ADD},
        {"v_pk_fma_f32 v[4:5], v[0:1], v[6:7], v[8:9]", FMA},
        {"v_sqrt_f32_e32 v2, v0", SQRT},
        {"v_rcp_f32_e32 v2, v0", RCP},
        {"v_cvt_f32_i32_e32 v2, v0", CVT_I},
        {"v_cvt_f32_u32_e32 v2, v0", CVT_U},
        {"v_ldexp_f32 v2, v0, v1", LDEXP},
    };
    u32 a[64], b[64], c[64];
    for (size_t k = 0; k < sizeof ops / sizeof ops[0]; k++)
        for (int m = 0; m < 4; m++)
            for (int bt = 0; bt < NB32; bt++) {
                if (bt ? (reset(), 0) : !load(ops[k].text, mode_f32(m)))
                    break;
                inputs32(bt, a, b, c);
                int pk = !strncmp(ops[k].text, "v_pk", 4);
                for (int l = 0; l < 64; l++) {
                    if (ops[k].op == LDEXP)
                        b[l] = (u32)((int)(rnd() % 340) - 170);
                    if (ops[k].op == CVT_I || ops[k].op == CVT_U)
                        a[l] = l < 8 ? 0x01000001u + (u32)l * 0x7fffffc0u : rnd() >> (rnd() & 15);
                    W->v[0][l] = a[l];
                    W->v[1][l] = b[l];
                    W->v[3][l] = c[l];
                    W->v[2][l] = c[l];
                    W->v[6][l] = b[l]; /* packed: lo = v0 op v6 (op v8), hi = v1 op v7 (op v9) */
                    W->v[7][l] = c[l];
                    W->v[8][l] = c[l];
                    W->v[9][l] = a[l];
                }
                if (!run())
                    break;
                for (int l = 0; l < 64; l++) {
                    float fa = from_bits32(a[l]), fb = from_bits32(b[l]), fc = from_bits32(c[l]);
                    int op = ops[k].op == FMAC ? FMA : ops[k].op;
                    u32 want, got = W->v[2][l];
                    if (pk) {
                        want = bits32(ref32(op, fa, fb, fc, m));
                        got = W->v[4][l];
                        u32 hi = bits32(ref32(op, fb, fc, fa, m));
                        if (!agree32(W->v[5][l], hi))
                            fail("%s lane %d hi: %08x, want %08x", MNAME[m], l, W->v[5][l], hi);
                    } else if (op == RCP || op == SQRT) {
                        /* the TRANS unit flushes denormal inputs and results (valu_f32.c) */
                        float in = fabsf(fa) < 0x1p-126f ? copysignf(0.0f, fa) : fa;
                        float r = ref32(op, in, 0, 0, m);
                        want = bits32(fabsf(r) < 0x1p-126f ? copysignf(0.0f, r) : r);
                    } else if (op == CVT_I || op == CVT_U) {
                        want = bits32(ref32(op, fa, 0, 0, m));
                    } else {
                        want = bits32(ref32(op, fa, fb, fc, m));
                    }
                    if (!agree32(got, want))
                        fail("%s lane %d: %08x, %08x, %08x -> %08x, want %08x", MNAME[m], l, a[l],
                             b[l], c[l], got, want);
                }
            }
}

/* ---- f64 ops --------------------------------------------------------------------------------- */

static const u64 E64[] = {
    0x3ff0000000000000ull, 0xbff0000000000000ull, 0x3ca0000000000000ull, /* 2^-53: tie */
    0x3cb0000000000000ull, 0x7fefffffffffffffull, 0xffefffffffffffffull, 0x0000000000000001ull,
    0x8000000000000001ull, 0x0010000000000000ull, 0x3fd5555555555555ull, 0x400921fb54442d18ull,
    0x0000000000000000ull, 0x8000000000000000ull, 0x7ff0000000000000ull, 0x1ff0000000000000ull,
    0x3fe0000000000001ull,
};
#define NE64 (sizeof E64 / sizeof E64[0])
static u64 rnd64v(void) {
    u64 r = (u64)rnd() << 32 | rnd();
    return (rnd() & 7) == 0 ? r : (r & 0x800fffffffffffffull) | (u64)(1000 + rnd() % 48) << 52;
}
static void set64(int r, int l, u64 v) {
    W->v[r][l] = (u32)v;
    W->v[r + 1][l] = (u32)(v >> 32);
}
static u64 get64(int r, int l) { return W->v[r][l] | (u64)W->v[r + 1][l] << 32; }

static void test_f64(void) {
    static const struct {
        const char *text;
        int op;
    } ops[] = {
        {"v_add_f64 v[4:5], v[0:1], v[2:3]", ADD},
        {"v_mul_f64 v[4:5], v[0:1], v[2:3]", MUL},
        {"v_fma_f64 v[4:5], v[0:1], v[2:3], v[6:7]", FMA},
        {"v_sqrt_f64_e32 v[4:5], v[0:1]", SQRT},
        {"v_rcp_f64_e32 v[4:5], v[0:1]", RCP},
        {"v_cvt_f32_f64_e32 v4, v[0:1]", CVT_D},
        {"v_ldexp_f64 v[4:5], v[0:1], v2", LDEXP},
    };
    for (size_t k = 0; k < sizeof ops / sizeof ops[0]; k++)
        for (int m = 0; m < 4; m++)
            for (int bt = 0; bt < 8; bt++) {
                /* v_cvt_f32_f64 has an f32 result: MODE[1:0] */
                unsigned mode = ops[k].op == CVT_D ? mode_f32(m) : mode_f64(m);
                if (bt ? (reset(), 0) : !load(ops[k].text, mode))
                    break;
                u64 a[64], b[64], c[64];
                for (int l = 0; l < 64; l++) {
                    int i = bt * 64 + l;
                    if ((size_t)i < NE64 * NE64) {
                        a[l] = E64[i % NE64];
                        b[l] = E64[i / NE64];
                        c[l] = (l & 1) ? a[l] ^ (1ull << 63) : E64[(i * 5) % NE64];
                    } else {
                        a[l] = rnd64v();
                        b[l] = (l & 3) == 0 ? a[l] : rnd64v();
                        c[l] = rnd64v();
                    }
                    if (ops[k].op == CVT_D && (l & 1)) /* around the f32 range and its ties */
                        a[l] = (a[l] & 0x800fffffffffffffull) | (u64)(1023 - 150 + rnd() % 280)
                                                                    << 52;
                    if (ops[k].op == LDEXP) /* exponents reaching overflow and denormals */
                        b[l] = bits64((double)((int)(rnd() % 2200) - 1100));
                    set64(0, l, a[l]);
                    set64(2, l, b[l]);
                    set64(6, l, c[l]);
                    if (ops[k].op == LDEXP)
                        W->v[2][l] = (u32)(int)from_bits64(b[l]);
                }
                if (!run())
                    break;
                for (int l = 0; l < 64; l++) {
                    if (ops[k].op == CVT_D) {
                        u32 want = bits32(ref_d2f(from_bits64(a[l]), m));
                        if (!agree32(W->v[4][l], want))
                            fail("%s lane %d: %016llx -> %08x, want %08x", MNAME[m], l,
                                 (unsigned long long)a[l], W->v[4][l], want);
                        continue;
                    }
                    u64 want = bits64(ref64(ops[k].op, from_bits64(a[l]), from_bits64(b[l]),
                                            from_bits64(c[l]), m));
                    if (!agree64(get64(4, l), want))
                        fail("%s lane %d: %016llx, %016llx, %016llx -> %016llx, want %016llx",
                             MNAME[m], l, (unsigned long long)a[l], (unsigned long long)b[l],
                             (unsigned long long)c[l], (unsigned long long)get64(4, l),
                             (unsigned long long)want);
                }
            }
}

/* ---- f16 results ----------------------------------------------------------------------------- */

static const uint16_t E16[] = {
    0x3c00, 0xbc00, 0x1000, /* 2^-11: 1 + it is a tie */
    0x1400, 0x1200, 0x7bff, 0xfbff, 0x0001, 0x8001, 0x0400, 0x83ff, 0x3555,
    0x4248, 0x0000, 0x8000, 0x7c00, 0xfc00, 0x7e00, 0x2000, 0x5bff,
};
#define NE16 (sizeof E16 / sizeof E16[0])
static u32 rnd16(void) {
    u32 r = rnd();
    return (r & 7) == 0 ? r & 0xffff : (r & 0x83ff) | (8 + (rnd() % 16)) << 10;
}

static void test_f16(void) {
    static const struct {
        const char *text;
        int op;
    } ops[] = {
        {"v_add_f16_e32 v2, v0, v1", ADD},       {"v_sub_f16_e32 v2, v0, v1", SUB},
        {"v_subrev_f16_e32 v2, v0, v1", SUBREV}, {"v_mul_f16_e32 v2, v0, v1", MUL},
        {"v_fma_f16 v2, v0, v1, v3", FMA},       {"v_ldexp_f16_e32 v2, v0, v1", LDEXP},
        {"v_cvt_f16_f32_e32 v2, v4", CVT_H},     {"v_cvt_f16_u16_e32 v2, v0", CVT_HU},
        {"v_cvt_f16_i16_e32 v2, v0", CVT_HI},
    };
    for (size_t k = 0; k < sizeof ops / sizeof ops[0]; k++)
        for (int m = 0; m < 4; m++)
            for (int bt = 0; bt < 8; bt++) {
                if (bt ? (reset(), 0) : !load(ops[k].text, mode_f64(m)))
                    break;
                u32 a[64], b[64], c[64], f[64];
                for (int l = 0; l < 64; l++) {
                    int i = bt * 64 + l;
                    if ((size_t)i < NE16 * NE16) {
                        a[l] = E16[i % NE16];
                        b[l] = E16[i / NE16];
                        c[l] = (l & 1) ? a[l] ^ 0x8000 : E16[(i * 7) % NE16];
                    } else {
                        a[l] = rnd16();
                        b[l] = (l & 3) == 0 ? a[l] : rnd16();
                        c[l] = rnd16();
                    }
                    if (ops[k].op == LDEXP)
                        b[l] = (u32)((int)(rnd() % 60) - 30) & 0xffff;
                    if (ops[k].op == CVT_HU || ops[k].op == CVT_HI)
                        a[l] = rnd() & 0xffff;
                    f[l] = l < (int)NE32 ? E32[l] : rnd32();
                    if (l >= 32) /* f32 values in the f16 range, ties included */
                        f[l] = (rnd() & 0x80001fffu) | (u32)(98 + rnd() % 48) << 23 |
                               (rnd() & 0x7fe000u) | ((l & 1) ? 0x1000 : 0);
                    W->v[0][l] = a[l] | 0xabcd0000u; /* high halves are not read */
                    W->v[1][l] = b[l];
                    W->v[3][l] = c[l];
                    W->v[4][l] = f[l];
                    W->v[2][l] = 0x5a5a5a5a;
                }
                if (!run())
                    break;
                for (int l = 0; l < 64; l++) {
                    double x = H(a[l]), y = H(b[l]), z = H(c[l]), v;
                    switch (ops[k].op) {
                    /* exact in double, but the sign of a zero sum depends on the mode */
                    case ADD:
                    case SUB:
                    case SUBREV:
                    case MUL:
                    case FMA: v = ref64(ops[k].op, x, y, z, m); break;
                    case LDEXP: v = ldexp(x, (int16_t)b[l]); break;
                    case CVT_H: v = from_bits32(f[l]); break;
                    case CVT_HU: v = (double)a[l]; break;
                    default: v = (double)(int16_t)a[l]; break;
                    }
                    u32 want = ref_h(v, m), got = W->v[2][l];
                    if (m == 0 && ops[k].op == FMA) /* nearest: fma in double rounds twice */
                        continue;
                    /* v_fma_f16 is a gfx9 op_sel form: it keeps the high half */
                    u32 hi = ops[k].op == FMA ? 0x5a5au : 0;
                    if (!same16(got, want) || (got >> 16) != hi)
                        fail("%s lane %d: %04x, %04x, %04x (f32 %08x) -> %08x, want %04x", MNAME[m],
                             l, a[l], b[l], c[l], f[l], got, want);
                }
            }
}

/* Packed f16: each half rounds as the scalar op; the high halves get other operands.  Nearest
 * is the ordinary handlers (for add/mul); the fmac cases also pin down that the VOP2
 * v_pk_fmac_f16 reads the high halves for the high result. */
static void test_pk16(void) {
    static const struct {
        const char *text;
        int op;
    } ops[] = {
        {"v_pk_add_f16 v2, v0, v1", ADD},
        {"v_pk_mul_f16 v2, v0, v1", MUL},
        {"v_pk_fma_f16 v2, v0, v1, v3", FMA},
        {"v_pk_fmac_f16_e32 v2, v0, v1", FMA},
    };
    for (size_t k = 0; k < sizeof ops / sizeof ops[0]; k++)
        for (int m = 0; m < 4; m++)
            for (int bt = 0; bt < 8; bt++) {
                if (m == 0 && ops[k].op == FMA) /* nearest: the reference fma rounds twice */
                    break;
                if (bt ? (reset(), 0) : !load(ops[k].text, mode_f64(m)))
                    break;
                u32 a[64], b[64], c[64];
                for (int l = 0; l < 64; l++) {
                    int i = bt * 64 + l;
                    u32 lo[3], hi[3];
                    for (int j = 0; j < 3; j++) {
                        lo[j] = (size_t)i < NE16 * NE16 && j < 2 ? E16[j ? i / NE16 : i % NE16]
                                                                 : rnd16();
                        hi[j] = rnd16();
                    }
                    if (l & 1) /* x - x */
                        lo[2] = ops[k].op == FMA ? (lo[0] ^ lo[1] ^ 0x8000) & 0x8000 : lo[2],
                        hi[1] = hi[0] ^ 0x8000;
                    a[l] = lo[0] | hi[0] << 16;
                    b[l] = lo[1] | hi[1] << 16;
                    c[l] = lo[2] | hi[2] << 16;
                    W->v[0][l] = a[l];
                    W->v[1][l] = b[l];
                    W->v[3][l] = c[l];
                    W->v[2][l] = c[l];
                }
                if (!run())
                    break;
                for (int l = 0; l < 64; l++)
                    for (int h = 0; h < 2; h++) {
                        int sh = 16 * h;
                        double x = H(a[l] >> sh), y = H(b[l] >> sh), z = H(c[l] >> sh);
                        u32 want = ref_h(ref64(ops[k].op, x, y, z, m), m);
                        u32 got = (W->v[2][l] >> sh) & 0xffff;
                        if (!same16(got, want))
                            fail("%s lane %d half %d: %08x, %08x, %08x -> %08x, want %04x",
                                 MNAME[m], l, h, a[l], b[l], c[l], W->v[2][l], want);
                    }
            }
}

/* ---- hand-worked cases: the semantics in a few lines each ---------------------------------- */

static void expect32(int r, int l, u32 want) {
    checks++;
    if (W->v[r][l] != want)
        fail("v%d[%d] = %08x, want %08x", r, l, W->v[r][l], want);
}

static void test_hand(void) {
    /* 1 + 2^-24 is a tie: nearest-even and toward zero/-inf give 1, toward +inf 1 + 2^-23 */
    static const u32 tie[4] = {0x3f800000, 0x3f800001, 0x3f800000, 0x3f800000};
    /* max + max overflows: infinity unless the direction points to zero */
    static const u32 ovf[4] = {0x7f800000, 0x7f800000, 0x7f7fffff, 0x7f7fffff};
    /* x - x is +0, except -0 toward -inf */
    static const u32 zero[4] = {0, 0, 0x80000000, 0};
    /* 2^-64 * 2^-64 * 1.5 ... 2^-149 * 0.75 is a denormal result below the smallest */
    static const u32 tiny[4] = {0x00000001, 0x00000001, 0x00000000, 0x00000000};
    for (int m = 0; m < 4; m++) {
        if (!load("v_add_f32_e32 v2, v0, v1\nv_add_f32_e32 v3, v4, v4\nv_sub_f32_e32 v5, v0, v0\n"
                  "v_mul_f32_e32 v6, v7, v8",
                  (unsigned)m))
            continue;
        for (int l = 0; l < 64; l++) {
            W->v[0][l] = 0x3f800000;
            W->v[1][l] = 0x33800000;
            W->v[4][l] = 0x7f7fffff;
            W->v[7][l] = 0x00000001; /* 2^-149 */
            W->v[8][l] = 0x3f400000; /* 0.75 */
        }
        if (!run())
            continue;
        expect32(2, 5, tie[m]);
        expect32(3, 6, ovf[m]);
        expect32(5, 7, zero[m]);
        expect32(6, 8, tiny[m]);
    }
    /* f16: 1 + 2^-11 is a tie; 65504 + 16 is the overflow tie; toward zero keeps max finite */
    static const u32 tie16[4] = {0x3c00, 0x3c01, 0x3c00, 0x3c00};
    static const u32 ovf16[4] = {0x7c00, 0x7c00, 0x7bff, 0x7bff};
    for (int m = 0; m < 4; m++) {
        if (!load("v_add_f16_e32 v2, v0, v1\nv_add_f16_e32 v3, v4, v5", (unsigned)m << 2))
            continue;
        for (int l = 0; l < 64; l++) {
            W->v[0][l] = 0x3c00;
            W->v[1][l] = 0x1000;
            W->v[4][l] = 0x7bff;
            W->v[5][l] = 0x4c00; /* 16 */
        }
        if (!run())
            continue;
        expect32(2, 0, tie16[m]);
        expect32(3, 0, ovf16[m]);
    }
}

/* ---- MODE read-back, the reset at wave start, the f32/f64 field split, faults -----------------
 */

static void test_mode(void) {
    /* s_getreg reads the round bits back; the full MODE keeps the denormal/IEEE bits */
    if (load("s_getreg_b32 s0, hwreg(HW_REG_MODE, 0, 4)\ns_getreg_b32 s1, hwreg(HW_REG_MODE)\n"
             "s_setreg_imm32_b32 hwreg(HW_REG_MODE, 2, 2), 3\ns_getreg_b32 s2, hwreg(HW_REG_MODE, "
             "0, 4)",
             9) &&
        run()) {
        checks += 3;
        if (W->s[0] != 9 || W->s[1] != (MODE_DEFAULT | 9) || W->s[2] != 13)
            fail("s_getreg: %x %x %x, want 9 %x d", W->s[0], W->s[1], W->s[2], MODE_DEFAULT | 9);
    }
    /* back to nearest-even: the ordinary handlers again */
    if (load("v_add_f32_e32 v2, v0, v1\ns_setreg_imm32_b32 hwreg(HW_REG_MODE, 0, 4), 0\n"
             "v_add_f32_e32 v3, v0, v1",
             1)) {
        for (int l = 0; l < 64; l++) {
            W->v[0][l] = 0x3f800000;
            W->v[1][l] = 0x33000000; /* 2^-25: below the tie */
        }
        if (run()) {
            expect32(2, 0, 0x3f800001);
            expect32(3, 0, 0x3f800000);
        }
    }
    /* MODE[3:2] toward +inf leaves f32 ops at nearest, MODE[1:0] leaves f64 */
    if (load("v_add_f32_e32 v2, v0, v1\nv_add_f64 v[4:5], v[6:7], v[8:9]", 1u << 2)) {
        for (int l = 0; l < 64; l++) {
            W->v[0][l] = 0x3f800000;
            W->v[1][l] = 0x33000000;
            set64(6, l, 0x3ff0000000000000ull);
            set64(8, l, 0x3c90000000000000ull); /* 2^-54 */
        }
        if (run()) {
            expect32(2, 0, 0x3f800000);
            expect32(4, 0, 0x00000001);
            expect32(5, 0, 0x3ff00000);
        }
    }
    /* an op without a directed-rounding model faults by name, with the mode in the note */
    if (load("v_exp_f32_e32 v2, v0", 2)) {
        wave_run(W);
        checks++;
        if (W->status != WAVE_FAULT || W->fault.kind != XF_UNIMPLEMENTED ||
            W->fault.op != ISA_OP_V_EXP_F32 || !W->fault.note ||
            !strstr(W->fault.note, "toward -inf"))
            fail("v_exp_f32 toward -inf: status %d kind %d note %s", W->status, W->fault.kind,
                 W->fault.note ? W->fault.note : "(none)");
    }
    /* float atomics round in the memory system, which never sees MODE: refused too */
    if (load("ds_add_f32 v0, v1", 4)) {
        static uint8_t lds[256];
        W->lds = lds;
        W->lds_size = sizeof lds;
        wave_run(W);
        checks++;
        if (W->status != WAVE_FAULT || W->fault.op != ISA_OP_DS_ADD_F32 || !W->fault.note ||
            !strstr(W->fault.note, "[3:2] = 1"))
            fail("ds_add_f32 toward +inf: status %d note %s", W->status,
                 W->fault.note ? W->fault.note : "(none)");
    }
    /* ... but not while its field is at nearest-even */
    if (load("v_exp_f32_e32 v2, v0\nv_rsq_f64_e32 v[4:5], v[0:1]", 0) && run())
        checks++;
    /* integer and mode-independent float ops run under any mode */
    if (load("v_add_u32_e32 v2, v0, v1\nv_max_f32_e32 v3, v0, v1\nv_rndne_f32_e32 v4, v5\n"
             "v_cvt_i32_f32_e32 v6, v5",
             15)) {
        for (int l = 0; l < 64; l++) {
            W->v[0][l] = 7;
            W->v[1][l] = 0x3f800000;
            W->v[5][l] = 0x40200000; /* 2.5: rndne gives 2 (even), cvt truncates to 2 */
        }
        if (run()) {
            expect32(2, 0, 0x3f800007);
            expect32(3, 0, 0x3f800000);
            expect32(4, 0, 0x40000000);
            expect32(6, 0, 2);
        }
    }
}

/* ---- RDNA (gfx1100, gfx1201; wave32): VOPD pairs, the fused f16 forms, min/max ----------------
 * A VOPD pair runs as one instruction; each half rounds as its ordinary op (an exact half next
 * to a rounding one), and an op whose result does not depend on the mode gives the bits of its
 * nearest-even run in every mode. */
static int load32(const char *text, unsigned mode) { return load_lanes(text, mode, 32); }
enum {
    R_ADD_MUL,
    R_SUB_FMAC,
    R_SUBREV_FMAAK,
    R_MAX_ADD,
    R_DX9_MUL,
    R_DX9_FMA,
    R_FMAC16,
    R_FMAAK16
};
static void test_rdna(int gfx12) {
    static const struct {
        const char *text;
        int kind;
    } ops[] = {
        {"v_dual_add_f32 v2, v0, v1 :: v_dual_mul_f32 v5, v3, v6", R_ADD_MUL},
        {"v_dual_sub_f32 v2, v0, v1 :: v_dual_fmac_f32 v5, v3, v6", R_SUB_FMAC},
        {"v_dual_subrev_f32 v2, v0, v1 :: v_dual_fmaak_f32 v5, v3, v6, 0x3e000001", R_SUBREV_FMAAK},
        {"v_dual_max_f32 v2, v0, v1 :: v_dual_add_f32 v5, v3, v6", R_MAX_ADD},
        {"v_dual_max_num_f32 v2, v0, v1 :: v_dual_add_f32 v5, v3, v6", R_MAX_ADD},
        {"v_mul_dx9_zero_f32 v2, v0, v1", R_DX9_MUL},
        {"v_fma_dx9_zero_f32 v2, v0, v1, v3", R_DX9_FMA},
        {"v_fmac_f16 v2, v0, v1", R_FMAC16},
        {"v_fmaak_f16 v2, v0, v1, 0x3c01", R_FMAAK16},
    };
    for (size_t k = 0; k < sizeof ops / sizeof ops[0]; k++) {
        if (strstr(ops[k].text, gfx12 ? "v_dual_max_f32" : "v_dual_max_num_f32"))
            continue; /* (the RDNA4 name; RDNA3's) */
        int f16 = ops[k].kind >= R_FMAC16;
        for (int m = 0; m < 4; m++)
            for (int bt = 0; bt < 2 * NB32; bt++) {
                if (f16 && m == 0) /* nearest: the reference fma rounds twice */
                    break;
                if (bt ? (reset(), wave_set_exec(W, 0xffffffffull), 0)
                       : !load32(ops[k].text, f16 ? mode_f64(m) : mode_f32(m)))
                    break;
                u32 a[64], b[64], c[64], d[32], e[32];
                inputs32(bt / 2, a, b, c);
                const int o = (bt & 1) * 32;
                for (int l = 0; l < 32; l++) {
                    d[l] = rnd32(), e[l] = rnd32();
                    if (f16) {
                        a[o + l] = (o + l) & 1 ? E16[(bt + l) % NE16] : rnd16();
                        b[o + l] = rnd16(), c[o + l] = (l & 3) ? rnd16() : E16[l % NE16];
                    }
                    if ((ops[k].kind == R_DX9_MUL || ops[k].kind == R_DX9_FMA) && !(l & 7))
                        b[o + l] = (l & 8) ? 0x80000000u : 0; /* 0 * anything is exactly 0 */
                    W->v[0][l] = a[o + l];
                    W->v[1][l] = b[o + l];
                    W->v[3][l] = f16 ? 0 : c[o + l];
                    W->v[2][l] = f16 ? c[o + l] : 0;
                    W->v[6][l] = d[l];
                    W->v[5][l] = e[l];
                }
                if (!run())
                    break;
                for (int l = 0; l < 32; l++) {
                    u32 ua = a[o + l], ub = b[o + l], uc = c[o + l];
                    float fa = from_bits32(ua), fb = from_bits32(ub), fc = from_bits32(uc),
                          fd = from_bits32(d[l]), fe = from_bits32(e[l]);
                    u32 w2 = 0, w5 = 0, got2 = W->v[2][l];
                    int two = 0; /* v5 checked too */
                    switch (ops[k].kind) {
                    case R_ADD_MUL:
                        w2 = bits32(ref32(ADD, fa, fb, 0, m)),
                        w5 = bits32(ref32(MUL, fc, fd, 0, m));
                        two = 1;
                        break;
                    case R_SUB_FMAC:
                        w2 = bits32(ref32(SUB, fa, fb, 0, m));
                        w5 = bits32(ref32(FMA, fc, fd, fe, m));
                        two = 1;
                        break;
                    case R_SUBREV_FMAAK:
                        w2 = bits32(ref32(SUBREV, fa, fb, 0, m));
                        w5 = bits32(ref32(FMA, fc, fd, from_bits32(0x3e000001u), m));
                        two = 1;
                        break;
                    case R_MAX_ADD: /* max: no rounding (NaNs and zeros aside, fmaxf's) */
                        w2 = fa != fa || fb != fb || fa == fb ? got2 : bits32(fmaxf(fa, fb));
                        w5 = bits32(ref32(ADD, fc, fd, 0, m));
                        two = 1;
                        break;
                    case R_DX9_MUL:
                        w2 = fa == 0 || fb == 0 ? 0 : bits32(ref32(MUL, fa, fb, 0, m));
                        break;
                    case R_DX9_FMA:
                        w2 = fa == 0 || fb == 0 ? uc : bits32(ref32(FMA, fa, fb, fc, m));
                        break;
                    default: { /* f16: low halves, S0 * S1 + (v_fmac: v2, v_fmaak: K) */
                        double z = ops[k].kind == R_FMAC16 ? H(uc) : H(0x3c01);
                        u32 want = ref_h(ref64(FMA, H(ua), H(ub), z, m), m);
                        if (!same16(got2, want))
                            fail("%s lane %d: %04x, %04x, %04x -> %08x, want %04x", MNAME[m], l, ua,
                                 ub, uc, got2, want);
                        continue;
                    }
                    }
                    if (!agree32(got2, w2))
                        fail("%s lane %d v2: %08x, %08x -> %08x, want %08x", MNAME[m], l, ua, ub,
                             got2, w2);
                    if (two && !agree32(W->v[5][l], w5))
                        fail("%s lane %d v5: %08x, %08x, %08x -> %08x, want %08x", MNAME[m], l, uc,
                             d[l], e[l], W->v[5][l], w5);
                }
            }
    }
    /* min/max forms round nothing: every mode gives the nearest-even run's bits */
    static const char *const exact11[] = {
        "v_maxmin_f32 v2, v0, v1, v3", "v_minmax_f32 v2, v0, v1, v3", "v_maxmin_f16 v2, v0, v1, v3",
        "v_dual_min_f32 v2, v0, v1 :: v_dual_max_f32 v5, v3, v6", NULL};
    static const char *const exact12[] = {
        "v_max_num_f32 v2, v0, v1",
        "v_minimum_f32 v2, v0, v1",
        "v_maximum3_f16 v2, v0, v1, v3",
        "v_pk_max_num_f16 v2, v0, v1",
        "v_max_num_f64 v[8:9], v[0:1], v[6:7]",
        "v_minmax_num_f32 v2, v0, v1, v3",
        "v_dual_min_num_f32 v2, v0, v1 :: v_dual_max_num_f32 v5, v3, v6",
        NULL};
    for (const char *const *t = gfx12 ? exact12 : exact11; *t; t++) {
        u32 base[3][32];
        for (int m = 0; m < 4; m++) {
            if (!load32(*t, (unsigned)(m | m << 2)))
                break;
            u32 a[64], b[64], c[64];
            inputs32(1, a, b, c);
            for (int l = 0; l < 32; l++) {
                W->v[0][l] = a[l], W->v[1][l] = b[l], W->v[3][l] = c[l];
                W->v[6][l] = a[l + 32], W->v[7][l] = b[l + 32];
            }
            if (!run())
                break;
            for (int l = 0; l < 32; l++) {
                u32 now[3] = {W->v[2][l], W->v[5][l], W->v[8][l] ^ W->v[9][l]};
                for (int r = 0; r < 3; r++) {
                    if (m == 0)
                        base[r][l] = now[r];
                    checks++;
                    if (m && now[r] != base[r][l])
                        fail("%s lane %d result %d: %08x, nearest-even gave %08x", MNAME[m], l, r,
                             now[r], base[r][l]);
                }
            }
        }
    }
}

int main(void) {
    W = malloc(sizeof *W);
    const char *arches[] = {"gfx950", "gfx942", "gfx90a"};
    for (int a = 0; a < 3; a++) {
        ARCH = arches[a];
        test_hand();
        test_mode();
        test_f32();
        test_f64();
        test_f16();
        test_pk16();
    }
    const char *rdna[] = {"gfx1100", "gfx1201"};
    for (int a = 0; a < 2; a++) {
        ARCH = rdna[a];
        test_rdna(a);
    }
    snippet_prog_free(&SP);
    free(W);
    return check_report("round", checks, fails);
}
