/* test_f32_omod.c - the f32 output modifiers of VOP3 (omod mul:2 / mul:4 / div:2 and clamp) on
 * many inputs against a model written here, under the MODE bits that change them.
 *
 * The model is the definition: the result rounded to f32, scaled by 2, 4 or 0.5 and clamped
 * to [0, 1] as one exact value before a single rounding (CDNA3 ISA "Output modifiers": omod
 * and clamp apply to the result; clamp turns a NaN into 0 when MODE.DX10_CLAMP is set, and
 * omod is ignored while MODE.IEEE is set).  The handler computes it in float; the cases that
 * tell the two apart are here: a negative denormal whose half rounds to -0 (clamped: +0), -0
 * itself (kept), values just above 1 that round to 1, products that overflow to infinity,
 * NaNs with payloads (quieted or, under DX10_CLAMP, 0), partial EXEC. */
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
static uint64_t rng = 0x9e3779b97f4a7c15ull;
static u32 rnd(void) { return (u32)(xorshift64(&rng) >> 11); }

static const u32 specials[] = {
    0x00000000, 0x80000000, 0x00000001, 0x80000001, 0x00000003, 0x80000003, 0x007fffff,
    0x807fffff, 0x00800000, 0x80800000, 0x3f800000, 0xbf800000, 0x3f800001, 0x3f7fffff,
    0x3f000000, 0x3f000001, 0x3e800000, 0x3e800001, 0x7f7fffff, 0xff7fffff, 0x7f000000,
    0x7e800000, 0x7f800000, 0xff800000, 0x7fc00000, 0xffc00000, 0x7fc12345, 0x7f800001,
    0xff812345, 0x3fc00000, 0x40000000, 0xc0000000, 0x33800000, 0xb3800000};

static u32 input(unsigned i) {
    unsigned n = sizeof specials / sizeof specials[0];
    if (i < n)
        return specials[i];
    u32 r = rnd();
    switch (i % 4) {
    case 0: return r;                                /* anything */
    case 1: return (r & 0x80ffffffu);                /* denormals and tiny normals */
    case 2: return (r & 0x80ffffffu) | 0x3e800000u;  /* around 0.25 .. 2 */
    default: return (r & 0x80ffffffu) | 0x7e800000u; /* near the top of the range */
    }
}

/* The definition: exact scaled value, clamped, rounded once. */
static u32 model(u32 b, double scale, int clamp, int dx10) {
    double r = (double)f32(b) * scale; /* exact: a power of two times a float */
    if (clamp) {
        if (r != r)
            r = dx10 ? 0.0 : r;
        else
            r = r < 0 ? 0.0 : r > 1 ? 1.0 : r;
    }
    return bf32((float)r);
}

int main(void) {
    wave *w = malloc(sizeof *w);
    /* v_mul_f32 by 1.0 passes v0 through the multiply unchanged (a NaN quieted), so the
     * modifiers see the input itself. */
    static const struct {
        const char *text;
        double scale;
        int clamp;
    } ops[] = {
        {"v_mul_f32_e64 v10, v0, 1.0 clamp", 1, 1},
        {"v_mul_f32_e64 v11, v0, 1.0 mul:2", 2, 0},
        {"v_mul_f32_e64 v12, v0, 1.0 mul:4", 4, 0},
        {"v_mul_f32_e64 v13, v0, 1.0 div:2", 0.5, 0},
        {"v_mul_f32_e64 v14, v0, 1.0 clamp mul:2", 2, 1},
        {"v_mul_f32_e64 v15, v0, 1.0 clamp mul:4", 4, 1},
        {"v_mul_f32_e64 v16, v0, 1.0 clamp div:2", 0.5, 1},
    };
    enum { NOPS = sizeof ops / sizeof ops[0] };
    char text[1024] = "";
    for (int k = 0; k < NOPS; k++) {
        strcat(text, ops[k].text);
        strcat(text, "\n");
    }
    snippet_prog sp = {0};
    if (snippet_prog_load(&sp, "gfx950", text) != 0) {
        CHECK(0, "does not assemble");
        return check_summary("f32_omod");
    }
    /* MODE: 0xf0 keeps denormals (bits 7:4); bit 8 DX10_CLAMP, bit 9 IEEE */
    static const u32 modes[] = {0xf0u, 0xf0u | 1u << 8, 0xf0u | 1u << 9, 0xf0u | 1u << 9 | 1u << 8};
    for (unsigned mi = 0; mi < 4; mi++) {
        const u32 mode = modes[mi];
        const int ieee = (mode >> 9) & 1, dx10 = (mode >> 8) & 1;
        unsigned bad[NOPS] = {0};
        for (unsigned round = 0; round < 300; round++) {
            memset(w, 0, sizeof *w);
            w->prog = &sp.prog;
            w->budget = 100;
            w->mode = mode;
            /* every 3rd round a partial EXEC: the off lanes keep their old value */
            const unsigned long long exec =
                round % 3 == 2 ? 0x5a5aa5a5f00f0ff0ull ^ ((unsigned long long)rnd() << 20) : ~0ull;
            wave_set_exec(w, exec);
            for (unsigned l = 0; l < 64; l++) {
                w->v[0][l] = input(round * 64 + l);
                for (int k = 0; k < NOPS; k++)
                    w->v[10 + k][l] = 0xdead0000u + l;
            }
            wave_run(w);
            CHECK(w->status == WAVE_DONE, "mode %#x round %u: status %d", mode, round, w->status);
            for (unsigned l = 0; l < 64; l++) {
                u32 b = w->v[0][l];
                for (int k = 0; k < NOPS; k++) {
                    u32 want = (exec >> l) & 1
                                   ? model(b, ieee ? 1.0 : ops[k].scale, ops[k].clamp, dx10)
                                   : 0xdead0000u + l;
                    if (w->v[10 + k][l] != want && !bad[k]++)
                        printf("FAIL mode %#x %s lane %u: input %08x: %08x, want %08x\n", mode,
                               ops[k].text, l, b, w->v[10 + k][l], want);
                }
            }
        }
        for (int k = 0; k < NOPS; k++)
            CHECK(bad[k] == 0, "mode %#x %s: %u of 19200 lanes wrong", mode, ops[k].text, bad[k]);
    }
    snippet_prog_free(&sp);
    free(w);
    return check_summary("f32_omod");
}
