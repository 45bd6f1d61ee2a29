/* test_f32_round.c - v_trunc/v_ceil/v_floor/v_fract/v_frexp_mant/v_frexp_exp_i32/v_ldexp_f32 and
 * v_med3_f32 on many inputs against the C library and a model written here.
 *
 * Their handlers compute with selects on the encoding instead of calling libm per lane
 * (valu_f32.c), so every special class matters: both zeros, denormals (smallest, largest, in
 * between), the integers around 2^23, halves, infinities, quiet and signalling NaNs with
 * payloads, and random bit patterns.  Expected values: truncf/ceilf/floorf/frexpf/ldexpf of the
 * C library, with NaNs quiet for the three roundings, fract = min(x - floor(x), 0x1.fffffep-1) with
 * NaN kept and infinities giving NaN (CDNA3 ISA V_FRACT_F32), and med3 = the middle value by the
 * min/max tie rules (-0 < +0), min3 when an input is a NaN (V_MED3_F32, IEEE mode: a signalling
 * NaN comes back quiet). */
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
static wave *w;
static uint64_t rng = 0x853c49e6748fea9bull;
static u32 rnd(void) { return (u32)(xorshift64(&rng) >> 7); }

static const u32 specials[] = {
    0x00000000, 0x80000000, 0x00000001, 0x80000001, 0x007fffff, 0x807fffff, 0x00400000, 0x00012345,
    0x00800000, 0x80800000, 0x3f000000, 0xbf000000, 0x3f800000, 0xbf800000, 0x3fc00000, 0xbfc00000,
    0x3effffff, 0xbf7fffff, 0x4b000000, 0xcb000000, 0x4affffff, 0xcaffffff, 0x4b000001, 0x4b7fffff,
    0x4f000000, 0xcf000000, 0x7f7fffff, 0xff7fffff, 0x7f800000, 0xff800000, 0x7fc00000, 0xffc00000,
    0x7fc12345, 0x7f800001, 0xff812345, 0x34000000, 0xb4000001, 0x2f800000, 0x41200001, 0xc1200001};

/* min/max by the V_MIN/V_MAX_F32 rules for non-NaN inputs (-0 < +0). */
static u32 mn(u32 a, u32 b) {
    if (f32(a) == f32(b))
        return a | b;
    return f32(a) < f32(b) ? a : b;
}
static u32 mx(u32 a, u32 b) {
    if (f32(a) == f32(b))
        return a & b;
    return f32(a) > f32(b) ? a : b;
}
static int isnan_b(u32 b) { return (b & 0x7fffffffu) > 0x7f800000u; }
static int issnan_b(u32 b) { return isnan_b(b) && !(b & 0x400000u); }
/* IEEE-mode min with NaNs: a signalling NaN gives itself quieted, a quiet NaN the other input. */
static u32 mn_nan(u32 a, u32 b) {
    if (issnan_b(a) || issnan_b(b))
        return (issnan_b(a) ? a : b) | 0x400000u;
    if (isnan_b(a))
        return b;
    if (isnan_b(b))
        return a;
    return mn(a, b);
}
static u32 med3(u32 a, u32 b, u32 c) {
    if (isnan_b(a) || isnan_b(b) || isnan_b(c))
        return mn_nan(mn_nan(a, b), c);
    return mx(mn(a, b), mn(mx(a, b), c));
}

static u32 input(unsigned i) {
    unsigned n = sizeof specials / sizeof specials[0];
    if (i < n)
        return specials[i];
    u32 r = rnd();
    switch (i % 4) {
    case 0: return r;                                /* anything */
    case 1: return (r & 0x807fffffu) | 0x4a800000u;  /* around 2^22..2^23 */
    case 2: return r & 0x80ffffffu;                  /* denormals and tiny normals */
    default: return (r & 0x81ffffffu) | 0x3e000000u; /* near 1 */
    }
}

int main(void) {
    w = malloc(sizeof *w);
    const char *text = "v_trunc_f32_e32 v10, v0\nv_ceil_f32_e32 v11, v0\nv_floor_f32_e32 v12, v0\n"
                       "v_fract_f32_e32 v13, v0\nv_frexp_mant_f32_e32 v14, v0\n"
                       "v_frexp_exp_i32_f32_e32 v15, v0\nv_ldexp_f32 v16, v0, v1\n"
                       "v_med3_f32 v17, v0, v2, v3";
    static const int exps[] = {-1000, -300, -277, -276, -254, -253, -200, -160, -150, -149,
                               -127,  -126, -64,  -24,  -1,   0,    1,    23,   64,   126,
                               127,   128,  200,  253,  254,  276,  277,  300,  1000, 2000};
    snippet_prog sp = {0};
    const char *arches[] = {"gfx950", "gfx942", "gfx1100"};
    for (int ai = 0; ai < 3; ai++) {
        if (snippet_prog_load_waves(&sp, arches[ai], text, 64) != 0) {
            CHECK(0, "%s: does not assemble", arches[ai]);
            continue;
        }
        unsigned bad[8] = {0};
        for (unsigned round = 0; round < 200; round++) {
            memset(w, 0, sizeof *w);
            w->prog = &sp.prog;
            w->budget = 100;
            w->mode = 0x3f0u; /* denormals kept, IEEE */
            wave_set_exec(w, ~0ull);
            for (unsigned l = 0; l < 64; l++) {
                w->v[0][l] = input(round * 64 + l);
                w->v[1][l] = (u32)exps[(round + l) % (sizeof exps / sizeof exps[0])];
                /* med3 operands: often equal, opposite zeros or NaN, to reach the ties */
                u32 r = rnd();
                w->v[2][l] = r % 3 == 0   ? w->v[0][l] ^ 0x80000000u
                             : r % 3 == 1 ? (r & 8 ? 0x80000000u : 0)
                                          : input(rnd() % 4096);
                w->v[3][l] = r % 5 == 0   ? w->v[0][l]
                             : r % 5 == 1 ? (r & 16 ? 0x80000000u : 0)
                                          : input(rnd() % 4096);
            }
            wave_run(w);
            CHECK(w->status == WAVE_DONE, "%s round %u: status %d", arches[ai], round, w->status);
            for (unsigned l = 0; l < 64; l++) {
                u32 b = w->v[0][l];
                float a = f32(b);
                int e;
                u32 want[8];
                /* a NaN comes back quiet (IEEE 754 roundToIntegral; glibc's generic truncf
                 * returns a signalling one as it is, its SSE4.1 form quiets it) */
                u32 q = isnan(a) ? b | 0x400000u : 0;
                want[0] = q ? q : bf32(truncf(a));
                want[1] = q ? q : bf32(ceilf(a));
                want[2] = q ? q : bf32(floorf(a));
                want[3] = isnan(a)   ? b
                          : isinf(a) ? 0x7fc00000u
                                     : bf32(fminf(a - floorf(a), 0x1.fffffep-1f));
                want[4] = isnan(a) || isinf(a) ? b : bf32(frexpf(a, &e));
                want[5] = isnan(a) || isinf(a) ? 0 : (frexpf(a, &e), (u32)e);
                want[6] = bf32(ldexpf(a, (int)w->v[1][l]));
                want[7] = med3(b, w->v[2][l], w->v[3][l]);
                for (int k = 0; k < 8; k++)
                    if (w->v[10 + k][l] != want[k] && !bad[k]++)
                        printf("FAIL %s v%d lane %u: input %08x (%08x %08x %d): %08x, want %08x\n",
                               arches[ai], 10 + k, l, b, w->v[2][l], w->v[3][l], (int)w->v[1][l],
                               w->v[10 + k][l], want[k]);
            }
        }
        static const char *names[8] = {"trunc",      "ceil",      "floor", "fract",
                                       "frexp_mant", "frexp_exp", "ldexp", "med3"};
        for (int k = 0; k < 8; k++)
            CHECK(bad[k] == 0, "%s v_%s_f32: %u of 12800 lanes wrong", arches[ai], names[k],
                  bad[k]);
        snippet_prog_free(&sp);
    }
    /* The f32 division LLVM emits with denormals kept (div_scale, rcp, Newton steps,
     * div_fmas, div_fixup) must give the correctly rounded quotient; the whole-wave paths of
     * div_scale, div_fmas and div_fixup take the ordinary lanes, special values the others. */
    const char *fdiv = "v_div_scale_f32 v2, s[0:1], v1, v1, v0\n"
                       "v_div_scale_f32 v3, vcc, v0, v1, v0\n"
                       "v_rcp_f32_e32 v4, v2\n"
                       "v_fma_f32 v5, -v2, v4, 1.0\n"
                       "v_fma_f32 v4, v5, v4, v4\n"
                       "v_mul_f32_e32 v5, v3, v4\n"
                       "v_fma_f32 v6, -v2, v5, v3\n"
                       "v_fma_f32 v5, v6, v4, v5\n"
                       "v_fma_f32 v2, -v2, v5, v3\n"
                       "v_div_fmas_f32 v2, v2, v4, v5\n"
                       "v_div_fixup_f32 v7, v2, v1, v0\n"
                       "v_div_fixup_f32 v8, v9, v1, v0\n"
                       "v_div_scale_f32 v11, s[2:3], v1, v1, v0\n"
                       "v_div_scale_f32 v12, s[4:5], v0, v1, v0";
    if (snippet_prog_load(&sp, "gfx950", fdiv) != 0)
        CHECK(0, "fdiv: does not assemble");
    else {
        unsigned bad = 0;
        for (unsigned round = 0; round < 400; round++) {
            memset(w, 0, sizeof *w);
            w->prog = &sp.prog;
            w->budget = 100;
            w->mode = 0x3f0u;
            wave_set_exec(w, ~0ull);
            /* rounds of five kinds: special values (0), every lane ordinary (1: the whole-wave
             * paths), and waves whose lanes are all ordinary but for one condition in some
             * lanes: a numerator of exponent 1-40 (2), a denominator of exponent 200-254 (3),
             * a quotient below 2^-124 (4); the other conditions hold in every lane */
            for (unsigned l = 0; l < 64; l++) {
                int kind = round % 5;
                u32 e0 = 96 + rnd() % 60, e1 = 96 + rnd() % 60;
                if (kind == 2)
                    e0 = 1 + rnd() % 40, e1 = e0 + 60 + rnd() % 60;
                if (kind == 3)
                    e1 = 200 + rnd() % 55, e0 = e1 - 60 - rnd() % 60;
                if (kind == 4)
                    e0 = 24 + rnd() % 37, e1 = e0 + 121 + rnd() % 8;
                w->v[0][l] = kind ? (rnd() & 0x807fffffu) | e0 << 23 : input(rnd() % 4096);
                w->v[1][l] = kind ? (rnd() & 0x807fffffu) | e1 << 23 : input(rnd() % 4096);
                w->v[9][l] = rnd(); /* a quotient of any sign for the lone div_fixup */
            }
            wave_run(w);
            for (unsigned l = 0; l < 64; l++) {
                float q = f32(w->v[0][l]) / f32(w->v[1][l]);
                u32 want = bf32(q), got = w->v[7][l];
                if (got != want && !(isnan(q) && isnan_b(got)) && !bad++)
                    printf("FAIL fdiv %08x / %08x = %08x, want %08x\n", w->v[0][l], w->v[1][l], got,
                           want);
                /* div_scale at the edges (V_DIV_SCALE_F32, valu_f32.c div_scale32): a
                 * numerator of exponent <= 23, or with a quotient below 2^-126, comes back
                 * times 2^64; a denominator above 2^126 times 2^-64 */
                double qq = fabs((double)f32(w->v[0][l]) / (double)f32(w->v[1][l]));
                u32 en = (w->v[0][l] >> 23) & 0xff;
                if (round % 5 == 2 || round % 5 == 4) {
                    float s0 = f32(w->v[0][l]);
                    u32 sw = en <= 23 || qq < 0x1p-126 ? bf32(ldexpf(s0, 64)) : bf32(s0);
                    if (w->v[12][l] != sw && !bad++)
                        printf("FAIL div_scale num %08x den %08x = %08x, want %08x\n", w->v[0][l],
                               w->v[1][l], w->v[12][l], sw);
                }
                if (round % 5 == 3) {
                    float s1 = f32(w->v[1][l]);
                    u32 sw = fabsf(s1) > 0x1p126f ? bf32(ldexpf(s1, -64)) : bf32(s1);
                    if (w->v[11][l] != sw && !bad++)
                        printf("FAIL div_scale den %08x num %08x = %08x, want %08x\n", w->v[1][l],
                               w->v[0][l], w->v[11][l], sw);
                }
                /* div_fixup of ordinary operands and a non-NaN quotient: |q| with the sign of
                 * num / den (V_DIV_FIXUP_F32's last case) */
                u32 n = w->v[0][l], d = w->v[1][l], q9 = w->v[9][l];
                int ordinary = (n & 0x7fffffffu) && (d & 0x7fffffffu) &&
                               (n & 0x7f800000u) != 0x7f800000u &&
                               (d & 0x7f800000u) != 0x7f800000u && !isnan_b(q9);
                if (ordinary && w->v[8][l] != ((q9 & 0x7fffffffu) | ((n ^ d) & 0x80000000u)) &&
                    !bad++)
                    printf("FAIL div_fixup %08x %08x %08x = %08x\n", q9, d, n, w->v[8][l]);
            }
        }
        CHECK(bad == 0, "fdiv sequence: %u of 25600 quotients wrong", bad);
        snippet_prog_free(&sp);
    }
    free(w);
    return check_summary("f32_round");
}
