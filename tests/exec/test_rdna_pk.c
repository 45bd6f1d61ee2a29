/* test_rdna_pk.c - packed 16-bit VOP3P math on RDNA (the v_pk_* rows of the "VOP3P / WMMA" block
 * of src/exec/rdna.c) on llvm-mc-22 snippets, gfx1100 and gfx1201, wave32 with EXEC on lanes
 * 16-31 only: -0, an f16 denormal result, NaN, the smallest normal, op_sel/op_sel_hi source
 * selection, integer wrap-around and clamp.  Expected values are worked out by hand from the
 * RDNA3 ISA pseudocode (each half computed alone, f16 rounded to nearest even). */
#include "common/check.h"
#include "common/snippet.h"
#include "exec/exec.h"

#include <stdio.h>
#include <stdlib.h>

static gmem *mem;
static uint64_t buf;
static wave *w;
static uint8_t lds[256];
static uint8_t scratch[64 * 64];

/* Run text with v1, v2, v6 (and v8, v9) set in every lane, EXEC = lanes 16-31; check vd. */
static void one(const char *a, const char *text, uint32_t v1, uint32_t v2, uint32_t v6, unsigned vd,
                uint32_t want) {
    snippet_mem_reset(w, mem, buf, lds, sizeof lds, scratch, sizeof scratch / 64);
    w->mode = 0xf0; /* f16/f64 and f32 denormals kept */
    wave_set_exec(w, 0xffff0000ull);
    for (unsigned l = 0; l < 64; l++) {
        w->v[1][l] = v1;
        w->v[2][l] = v2;
        w->v[6][l] = v6;
        w->v[vd][l] = 0x55;
    }
    int st = run_snippet(w, a, text);
    int bad = 0;
    for (unsigned l = 0; l < 64; l++)
        bad += w->v[vd][l] != (l >= 16 && l < 32 ? want : 0x55u);
    CHECK(st == WAVE_DONE && bad == 0,
          "%s '%s': status %d, %d lanes wrong, lane 16 = %08x (want %08x)", a, text, st, bad,
          w->v[vd][16], want);
}

static void t_pk(const char *a) {
    /* lo: -0 + -0 = -0; hi: 2^-24 + 2^-24 = 2^-23 (denormal 0x0002) */
    one(a, "v_pk_add_f16 v3, v1, v2", 0x00018000, 0x00018000, 0, 3, 0x00028000);
    /* lo: 2.0 * 2^-15 (denormal 0x0200) = 2^-14 (0x0400); hi: qNaN * 1.0 = qNaN */
    one(a, "v_pk_mul_f16 v4, v1, v2", 0x7e004000, 0x3c000200, 0, 4, 0x7e000400);
    /* op_sel:[1,0,0]: the low result takes src0's high half; op_sel_hi:[0,1,1]: the high result
     * takes src0's low half.  lo = 2.0 * 4.0 + -1.0 = 7.0; hi = 1.0 * 3.0 + 0.5 = 3.5 */
    one(a, "v_pk_fma_f16 v5, v1, v2, v6 op_sel:[1,0,0] op_sel_hi:[0,1,1]", 0x40003c00, 0x42004400,
        0x3800bc00, 5, 0x43004700);
    /* neg_lo:[1,0] neg_hi:[0,1]: lo = -(1.0) + 4.0 = 3.0; hi = 2.0 + -(3.0) = -1.0 */
    one(a, "v_pk_add_f16 v3, v1, v2 neg_lo:[1,0] neg_hi:[0,1]", 0x40003c00, 0x42004400, 0, 3,
        0xbc004200);
    /* integers: lo 0x0001 + 0xffff wraps to 0, hi 0xffff + 2 wraps to 1; clamp saturates */
    one(a, "v_pk_add_u16 v7, v1, v2", 0xffff0001, 0x0002ffff, 0, 7, 0x00010000);
    one(a, "v_pk_add_u16 v7, v1, v2 clamp", 0xffff0001, 0x0002ffff, 0, 7, 0xffffffff);
    /* lo: 1 - 0xffff = 2 (wrap); hi: 0xffff - 2 = 0xfffd */
    one(a, "v_pk_sub_u16 v7, v1, v2", 0xffff0001, 0x0002ffff, 0, 7, 0xfffd0002);
    /* signed: lo 1 - (-1) = 2; hi -1 - 2 = -3; lo 0x7fff + 1 clamps to 0x7fff */
    one(a, "v_pk_sub_i16 v10, v1, v2", 0xffff0001, 0x0002ffff, 0, 10, 0xfffd0002);
    one(a, "v_pk_add_i16 v10, v1, v2 clamp", 0x80007fff, 0xffff0001, 0, 10, 0x80007fff);
}

int main(void) {
    mem = gmem_create();
    buf = gmem_alloc(mem, 4096, 0) + 4096 - 256;
    w = malloc(sizeof *w);
    t_pk("gfx1100");
    t_pk("gfx1201");
    free(w);
    gmem_destroy(mem);
    return check_summary("test_rdna_pk");
}
