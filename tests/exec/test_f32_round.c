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
#include "common/snippet.h"
#include "exec/exec.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

typedef uint32_t u32;
static wave *w;
static unsigned long long rng = 0x853c49e6748fea9bull;
static u32 rnd(void) {
    rng ^= rng << 13, rng ^= rng >> 7, rng ^= rng << 17;
    return (u32)(rng >> 7);
}
static float f32(u32 b) {
    float f;
    memcpy(&f, &b, 4);
    return f;
}
static u32 bf(float f) {
    u32 b;
    memcpy(&b, &f, 4);
    return b;
}

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
                want[0] = q ? q : bf(truncf(a));
                want[1] = q ? q : bf(ceilf(a));
                want[2] = q ? q : bf(floorf(a));
                want[3] = isnan(a)   ? b
                          : isinf(a) ? 0x7fc00000u
                                     : bf(fminf(a - floorf(a), 0x1.fffffep-1f));
                want[4] = isnan(a) || isinf(a) ? b : bf(frexpf(a, &e));
                want[5] = isnan(a) || isinf(a) ? 0 : (frexpf(a, &e), (u32)e);
                want[6] = bf(ldexpf(a, (int)w->v[1][l]));
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
    free(w);
    return check_summary("f32_round");
}
