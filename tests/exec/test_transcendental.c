/* test_transcendental.c - v_sin_f32 / v_cos_f32 (argument in revolutions: D = sin(S0 * 2 * PI))
 * and v_log_f32 on many inputs against models written here in long double: the emulator computes
 * them without libm (src/exec/valu_f32.c sin_rev, valu.h log2_f32) and must give, bit for bit,
 * the float the exact value rounds to.
 *
 * sin/cos:
 * The model reduces exactly (r = a - rint(a)), reflects |r| into [0, 1/8] of a revolution (the
 * steps are exact there) and takes sinl/cosl of 2 pi times that, so its error is far below
 * float's half ulp; the emulator must give the float that value rounds to, bit for bit.
 * Inputs: the multiples of 1/8 (exact zeros and ones, the reflection points), their float
 * neighbours (the small results near the zeros, where an error of one double ulp in 2 pi r is
 * most of a float ulp: the libm form before session 24 missed 0.4% of all floats there), tiny
 * and denormal revolutions, huge ones (integers: 0 and 1), infinities and NaNs (the default
 * NaN), random floats near each of those, a negated source (VOP3 neg), partial EXEC.
 *
 * log2: the model is log2l rounded to float; inputs: powers of two, the floats next to 1 (the
 * small results, where glibc's log2f, used before session 24, misrounded about 1% of the floats
 * in [0.5, 1)), random positive floats of every binade, zeros, denormals (flushed: -inf),
 * negative inputs (the default NaN with the sign set, 0xffc00000, as log2f gave), infinities,
 * NaNs (quieted), and |a| through the VOP3 abs modifier. */
#include "common/check.h"
#include "common/rng.h"
#include "common/snippet.h"
#include "exec/exec.h"
#include "isa/fbits.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

typedef uint32_t u32;
static uint64_t rng = 0x2545f4914f6cdd1dull;
static u32 rnd(void) { return (u32)(xorshift64(&rng) >> 11); }

static const u32 specials[] = {
    0x00000000, 0x80000000, 0x3e000000, 0xbe000000, 0x3e800000, 0xbe800000, 0x3ec00000,
    0x3f000000, 0xbf000000, 0x3f200000, 0x3f400000, 0xbf400000, 0x3f600000, 0x3f800000,
    0xbf800000, 0x3f7fffff, 0x3effffff, 0x3f000001, 0x3e7fffff, 0x3e800001, 0x3dffffff,
    0x3e000001, 0x00000001, 0x80000001, 0x007fffff, 0x00800000, 0x33800000, 0xb3800000,
    0x4b000000, 0x4b000001, 0x4affffff, 0x4a800001, 0x7f7fffff, 0xff7fffff, 0x7f800000,
    0xff800000, 0x7fc00000, 0xffc00000, 0x7f812345, 0x40200000, 0xc0a00000, 0x42c80001};

static u32 input(unsigned i) {
    unsigned n = sizeof specials / sizeof specials[0];
    if (i < n)
        return specials[i];
    u32 r = rnd();
    switch (i % 4) {
    case 0: { /* a float up to 128 ulps from k/8 for k in -16..16 */
        float k = (float)((int)(r % 33) - 16) / 8.0f;
        return bf32(k) + (r >> 24) - 128;
    }
    case 1: return (r & 0x3fffffffu) | (r & 0x80000000u); /* |a| < 2 */
    case 2: return (r & 0x80ffffffu) | 0x3b000000u;       /* about 2^-9 .. 2^-7 */
    default: return r;                                    /* anything */
    }
}

static u32 log_input(unsigned i) {
    unsigned n = sizeof specials / sizeof specials[0];
    if (i < n)
        return specials[i];
    u32 r = rnd();
    switch (i % 4) {
    case 0: return 0x3f800000u + (r >> 20) - 2048; /* within 2048 ulps of 1 */
    case 1: return (r % 254 + 1) << 23;            /* a power of two */
    case 2: return r & 0x7fffffffu;                /* positive, any */
    default: return r;                             /* anything */
    }
}

/* log2 a rounded to float, the input's denormals flushed (v_log flushes them whatever the
 * MODE); -inf for zeros, 0xffc00000 below zero, NaNs quieted. */
static u32 log_model(u32 b, int unused) {
    (void)unused;
    if ((b & 0x7f800000u) == 0)
        b &= 0x80000000u;
    if ((b & 0x7fffffffu) > 0x7f800000u)
        return b | 0x400000u;
    if ((b & 0x7fffffffu) == 0)
        return 0xff800000u;
    if (b >> 31)
        return 0xffc00000u;
    return bf32((float)log2l((long double)f32(b)));
}

/* sin or cos of a revolutions, rounded to float; the default NaN for infinities and NaNs. */
static u32 sin_model(u32 b, int cosine) {
    float a = f32(b);
    if (isnan(a) || isinf(a))
        return 0x7fc00000u;
    const long double tp = 2 * 3.14159265358979323846264338327950288L;
    long double r = (long double)a - rintl((long double)a), u = fabsl(r);
    int past = u > 0.25L;
    long double v = past ? 0.5L - u : u;
    int hi = v > 0.125L;
    long double q = hi ? 0.25L - v : v, s = sinl(tp * q), c = cosl(tp * q), res;
    if (cosine) {
        res = hi ? s : c;
        res = past ? -res : res;
    } else {
        res = hi ? c : s;
        res = r < 0 ? -res : res;
    }
    return bf32((float)res);
}

int main(void) {
    wave *w = malloc(sizeof *w);
    static const struct {
        const char *text;
        u32 (*model)(u32, int);
        u32 (*input)(unsigned);
        int cosine;
        u32 mod_and, mod_xor; /* the source modifier: b & mod_and ^ mod_xor */
    } ops[] = {
        {"v_sin_f32_e32 v10, v0", sin_model, input, 0, ~0u, 0},
        {"v_cos_f32_e32 v11, v0", sin_model, input, 1, ~0u, 0},
        {"v_sin_f32_e64 v12, -v0", sin_model, input, 0, ~0u, 0x80000000u},
        {"v_cos_f32_e64 v13, -v0", sin_model, input, 1, ~0u, 0x80000000u},
        {"v_log_f32_e32 v14, v1", log_model, log_input, 0, ~0u, 0},
        {"v_log_f32_e64 v15, |v1|", log_model, log_input, 0, 0x7fffffffu, 0},
    };
    enum { NOPS = sizeof ops / sizeof ops[0], ROUNDS = 400 };
    char text[512] = "";
    for (int k = 0; k < NOPS; k++) {
        strcat(text, ops[k].text);
        strcat(text, "\n");
    }
    snippet_prog sp = {0};
    if (snippet_prog_load(&sp, "gfx950", text) != 0) {
        CHECK(0, "does not assemble");
        return check_summary("transcendental");
    }
    unsigned bad[NOPS] = {0};
    for (unsigned round = 0; round < ROUNDS; round++) {
        memset(w, 0, sizeof *w);
        w->prog = &sp.prog;
        w->budget = 100;
        w->mode = 0x3f0; /* denormals kept */
        const unsigned long long exec =
            round % 3 == 2 ? 0xa5a55a5a0ff0f00full ^ ((unsigned long long)rnd() << 24) : ~0ull;
        wave_set_exec(w, exec);
        for (unsigned l = 0; l < 64; l++) {
            w->v[0][l] = input(round * 64 + l);
            w->v[1][l] = log_input(round * 64 + l);
            for (int k = 0; k < NOPS; k++)
                w->v[10 + k][l] = 0xdead0000u + l;
        }
        wave_run(w);
        CHECK(w->status == WAVE_DONE, "round %u: status %d", round, w->status);
        for (unsigned l = 0; l < 64; l++) {
            for (int k = 0; k < NOPS; k++) {
                u32 b = ops[k].input == input ? w->v[0][l] : w->v[1][l];
                u32 want = (exec >> l) & 1
                               ? ops[k].model((b & ops[k].mod_and) ^ ops[k].mod_xor, ops[k].cosine)
                               : 0xdead0000u + l;
                if (w->v[10 + k][l] != want && bad[k]++ < 3)
                    printf("FAIL %s lane %u: input %08x (%a): %08x (%a), want %08x (%a)\n",
                           ops[k].text, l, b, (double)f32(b), w->v[10 + k][l],
                           (double)f32(w->v[10 + k][l]), want, (double)f32(want));
            }
        }
    }
    for (int k = 0; k < NOPS; k++)
        CHECK(bad[k] == 0, "%s: %u of %u lanes wrong", ops[k].text, bad[k], ROUNDS * 64);
    snippet_prog_free(&sp);
    free(w);
    return check_summary("transcendental");
}
