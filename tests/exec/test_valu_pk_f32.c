/* test_valu_pk_f32.c - packed f32 VALU ops (v_pk_add/mul/fma_f32, gfx90a+) on every operand form
 * the handlers distinguish: VGPR pairs with op_sel/op_sel_hi and neg_lo/neg_hi, an SGPR pair, an
 * inline constant, a destination overlapping a source, clamp, and a partial EXEC (lanes outside
 * it keep their old value).  Expected values come from host float arithmetic per lane. */
#include "common/asm.h"
#include "common/bits.h"
#include "common/check.h"
#include "common/util.h"
#include "exec/exec.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

static float clamp01(float v) { return v != v ? 0.0f : v < 0 ? 0.0f : v > 1 ? 1.0f : v; }

int main(void) {
    const char *arches[] = {"gfx950", "gfx942", "gfx90a"};
    wave *w = malloc(sizeof *w);
    for (int a = 0; a < 3; a++) {
        const char *text = "v_pk_add_f32 v[2:3], v[4:5], v[6:7] neg_lo:[1,0] neg_hi:[0,1]\n"
                           "v_pk_mul_f32 v[12:13], v[12:13], s[0:1] op_sel:[0,1] op_sel_hi:[1,0]\n"
                           "v_pk_fma_f32 v[8:9], v[4:5], 0.5, v[6:7]\n"
                           "v_pk_add_f32 v[10:11], v[4:5], v[6:7] clamp\n"
                           "s_endpgm";
        size_t n;
        uint8_t *code = asm_snippet(arches[a], text, &n);
        CHECK(code != NULL, "%s: does not assemble", arches[a]);
        if (!code)
            continue;
        xprog p;
        CHECK(xprog_build(&p, test_isa_arch(arches[a]), code, (uint32_t)n, 0x1000) == 0, "build");
        memset(w, 0, sizeof *w);
        w->prog = &p;
        w->budget = 100;
        w->mode = 0x3f0;
        uint64_t exec = 0x5a5aa5a5f00f0ff1ull;
        wave_set_exec(w, exec);
        w->s[0] = bits32(1.5f);
        w->s[1] = bits32(-2.0f);
        for (int l = 0; l < 64; l++) {
            w->v[4][l] = bits32((float)l * 0.25f - 3.0f);
            w->v[5][l] = bits32(1.0f / (float)(l + 1));
            w->v[6][l] = bits32((float)(l % 7) - 2.5f);
            w->v[7][l] = bits32(0.125f * (float)l);
            w->v[12][l] = bits32((float)(l + 3));
            w->v[13][l] = bits32(-(float)l);
        }
        wave_run(w);
        CHECK(w->status == WAVE_DONE, "%s: status %d fault %d", arches[a], w->status,
              w->fault.kind);
        int bad = 0;
        for (int l = 0; l < 64; l++) {
            float x0 = (float)l * 0.25f - 3.0f, x1 = 1.0f / (float)(l + 1);
            float y0 = (float)(l % 7) - 2.5f, y1 = 0.125f * (float)l;
            int on = (exec >> l) & 1;
            uint32_t want[4][2] = {
                /* add: neg_lo negates src0's low f32, neg_hi src1's high f32 */
                {bits32(-x0 + y0), bits32(x1 + -y1)},
                /* mul: op_sel [0,1] -> lo = v12 * s1; op_sel_hi [1,0] -> hi = v13 * s0 */
                {bits32((float)(l + 3) * -2.0f), bits32(-(float)l * 1.5f)},
                /* fma with the inline 0.5 splat in both halves */
                {bits32(fmaf(x0, 0.5f, y0)), bits32(fmaf(x1, 0.5f, y1))},
                {bits32(clamp01(x0 + y0)), bits32(clamp01(x1 + y1))},
            };
            const int dst[4] = {2, 12, 8, 10};
            const uint32_t old[4][2] = {
                {0, 0}, {bits32((float)(l + 3)), bits32(-(float)l)}, {0, 0}, {0, 0}};
            for (int i = 0; i < 4; i++)
                for (int h = 0; h < 2; h++) {
                    uint32_t got = w->v[dst[i] + h][l], exp = on ? want[i][h] : old[i][h];
                    if (got != exp && bad++ < 5)
                        printf("FAIL %s lane %d inst %d half %d: got %08x (%g) want %08x (%g)\n",
                               arches[a], l, i, h, got, from_bits32(got), exp, from_bits32(exp));
                }
        }
        CHECK(bad == 0, "%s: %d wrong lanes", arches[a], bad);
        xprog_free(&p);
        free(code);
    }
    free(w);
    return check_summary("valu_pk_f32");
}
