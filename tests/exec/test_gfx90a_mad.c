/* test_gfx90a_mad.c - gfx90a's unfused f32 multiply-adds, gone from gfx940: v_mad_f32, v_mac_f32,
 * v_madmk_f32, v_madak_f32 and v_mad_legacy_f32, on llvm-mc-22 encodings.
 *
 * Semantics (CDNA2 ISA: V_MAD_F32 gives "the same result as ADD after MUL_IEEE", i.e. the product
 * is rounded to f32 before the add; LLVM: these ops "do not support denormals", so it selects
 * them only for kernels that flush): every input, the product and the result are flushed to a
 * zero of their sign whatever MODE.FP_DENORM says.  V_MAD_LEGACY_F32 multiplies as DX9 does:
 * 0 times anything (inf and NaN included) is +0.  Every case runs under MODE with f32 denormals
 * kept and flushed (same results), with lane 13 off (its destination must not change).
 * Expected values are worked out by hand in the table below, not by running gfxemu. */
#include "common/check.h"
#include "common/snippet.h"
#include "exec/exec.h"

#include <stdlib.h>
#include <string.h>

static wave *w;

#define NAN_ 0xffffffffu /* "any NaN" */
static const struct {
    uint32_t a, b, c, mad, legacy;
    const char *why;
} cases[] = {
    {0x3fc00000, 0x40000000, 0x3e800000, 0x40500000, 0x40500000, "1.5 * 2 + 0.25 = 3.25"},
    /* (1 + 2^-12)^2 = 1 + 2^-11 + 2^-24 rounds (tie, even) to 1 + 2^-11; minus 1 = 2^-11.
     * Fused would keep the 2^-24: 0x3a000400. */
    {0x3f800800, 0x3f800800, 0xbf800000, 0x3a000000, 0x3a000000, "product rounded first"},
    {0x7fc00000, 0x3f800000, 0x3f800000, NAN_, NAN_, "NaN in"},
    /* -0 * 1 = -0, -0 + -0 = -0; legacy: 0 * x = +0, +0 + -0 = +0 */
    {0x80000000, 0x3f800000, 0x80000000, 0x80000000, 0x00000000, "-0 * 1 + -0"},
    {0x80000000, 0x3f800000, 0x00000000, 0x00000000, 0x00000000, "-0 * 1 + +0"},
    /* a denormal addend reads as +0 (kept, it would be the result: 0x00000001) */
    {0x00000000, 0x3f800000, 0x00000001, 0x00000000, 0x00000000, "denormal c flushed"},
    /* 2^-100 * 2^-30 = 2^-130, a denormal product, flushed to +0 (kept: 0x00080000) */
    {0x0d800000, 0x30800000, 0x80000000, 0x00000000, 0x00000000, "denormal product flushed"},
    /* max * 2 overflows to +inf before the add (fused: max * 2 - max = max, 0x7f7fffff) */
    {0x7f7fffff, 0x40000000, 0xff7fffff, 0x7f800000, 0x7f800000, "overflow in the product"},
    /* 0 * inf: NaN; legacy: +0, + 1 = 1 */
    {0x00000000, 0x7f800000, 0x3f800000, NAN_, 0x3f800000, "0 * inf"},
    /* a denormal 2^-127 times 2^100 reads as 0 (kept: 2^-27 = 0x32000000) */
    {0x00400000, 0x71800000, 0x00000000, 0x00000000, 0x00000000, "denormal a flushed"},
};
#define NCASE (sizeof cases / sizeof cases[0])

static int case_of(unsigned l) { return l == 13 ? -1 : (int)(l % 16 < NCASE ? l % 16 : 0); }

static int same(uint32_t got, uint32_t want) {
    if (want == NAN_)
        return (got & 0x7f800000) == 0x7f800000 && (got & 0x7fffff);
    return got == want;
}

int main(void) {
    w = malloc(sizeof *w);
    static const char *const mode[2] = {"s_setreg_imm32_b32 hwreg(HW_REG_MODE, 4, 4), 0xf\n",
                                        "s_setreg_imm32_b32 hwreg(HW_REG_MODE, 4, 4), 0x0\n"};
    for (int m = 0; m < 2; m++) {
        memset(w, 0, sizeof *w);
        wave_set_exec(w, ~(1ull << 13));
        for (unsigned l = 0; l < 64; l++) {
            int k = case_of(l) < 0 ? 0 : case_of(l);
            w->v[1][l] = cases[k].a, w->v[2][l] = cases[k].b, w->v[3][l] = cases[k].c;
            for (unsigned r = 4; r < 10; r++)
                w->v[r][l] = 0xdeadbeef;
            w->v[6][l] = cases[k].c; /* v_mac_f32's accumulator */
        }
        char src[512];
        snprintf(src, sizeof src,
                 "%s"
                 "v_mad_f32 v4, v1, v2, v3\n"
                 "v_mad_legacy_f32 v5, v1, v2, v3\n"
                 "v_mac_f32_e32 v6, v1, v2\n"
                 "v_madmk_f32 v7, v1, 0x40000000, v3\n" /* v1 * 2 + v3 */
                 "v_madak_f32 v8, v1, v2, 0x3e800000\n" /* v1 * v2 + 0.25 */
                 "v_mad_f32 v9, -v1, |v2|, v3 clamp\n", /* -(a * |b|) + c, clamped to [0, 1] */
                 mode[m]);
        int st = run_snippet(w, "gfx90a", src);
        CHECK(st == WAVE_DONE, "mode %d: status %d fault %d", m, st, w->fault.kind);
        int bad = 0;
        for (unsigned l = 0; l < 64; l++) {
            int k = case_of(l);
            if (k < 0) {
                for (unsigned r = 4; r < 10; r++)
                    bad += w->v[r][l] != (r == 6 ? cases[0].c : 0xdeadbeef);
                continue;
            }
            uint32_t got[3] = {w->v[4][l], w->v[5][l], w->v[6][l]};
            uint32_t want[3] = {cases[k].mad, cases[k].legacy, cases[k].mad};
            for (int i = 0; i < 3; i++)
                if (!same(got[i], want[i]) && bad++ < 6)
                    printf("  mode %d lane %u %s: %s = %08x, want %08x\n", m, l, cases[k].why,
                           i == 0   ? "v_mad_f32"
                           : i == 1 ? "v_mad_legacy_f32"
                                    : "v_mac_f32",
                           got[i], want[i]);
        }
        /* madmk / madak / modifiers, on the cases whose values are worked out:
         *  case 0: 1.5 * 2 + 0.25 = 3.25 (madmk), 1.5 * 2 + 0.25 = 3.25 (madak),
         *          -(1.5 * 2) + 0.25 = -2.75, clamped to +0
         *  case 7: max * 2 = +inf, + -max = +inf (madmk); max * 2 + 0.25 = +inf (madak);
         *          -(max * 2) + -max = -inf, clamped to +0
         *  case 1: (1 + 2^-11) + 0.25 = 0x3fa01000 (madak); madmk: (1 + 2^-12) * 2 - 1
         *          = 1 + 2^-11 = 0x3f801000 */
        static const struct {
            unsigned lane;
            uint32_t mk, ak, neg;
        } more[] = {{0, 0x40500000, 0x40500000, 0x00000000},
                    {7, 0x7f800000, 0x7f800000, 0x00000000},
                    {1, 0x3f801000, 0x3fa01000, 0x00000000}};
        for (unsigned i = 0; i < 3; i++) {
            unsigned l = more[i].lane;
            if (w->v[7][l] != more[i].mk || w->v[8][l] != more[i].ak || w->v[9][l] != more[i].neg) {
                if (bad++ < 6)
                    printf("  mode %d lane %u: madmk %08x madak %08x neg/abs/clamp %08x, want "
                           "%08x %08x %08x\n",
                           m, l, w->v[7][l], w->v[8][l], w->v[9][l], more[i].mk, more[i].ak,
                           more[i].neg);
            }
        }
        CHECK(bad == 0, "mode %s: %d wrong values", m ? "flush" : "keep", bad);
    }
    free(w);
    return check_summary("test_gfx90a_mad");
}
