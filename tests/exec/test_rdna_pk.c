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

static snippet_rig rig;
static wave *const w = &rig.wv;

/* Run text with v1, v2, v6 (and v8, v9) set in every lane, EXEC = lanes 16-31; check vd. */
static void one(const char *a, const char *text, uint32_t v1, uint32_t v2, uint32_t v6, unsigned vd,
                uint32_t want) {
    snippet_rig_reset(&rig, 0xffff0000ull, 0xf0); /* f16/f64 and f32 denormals kept */
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

/* the other packed 16-bit ops of both targets */
static void t_pk_more(const char *a) {
    /* mad_i16: lo 3 * -4 + 100 = 88 (0x0058); hi -2 * 5 + 1 = -9 (0xfff7) */
    one(a, "v_pk_mad_i16 v3, v1, v2, v6", 0xfffe0003, 0x0005fffc, 0x00010064, 3, 0xfff70058);
    /* lo -32768 * 2 = -65536, hi 32767 * 2 = 65534: wrap to 0 and 0xfffe, clamp to the i16 range */
    one(a, "v_pk_mad_i16 v3, v1, v2, v6", 0x7fff8000, 0x00020002, 0, 3, 0xfffe0000);
    one(a, "v_pk_mad_i16 v3, v1, v2, v6 clamp", 0x7fff8000, 0x00020002, 0, 3, 0x7fff8000);
    /* mad_u16: lo 2 * 3 + 1 = 7, hi 0xffff * 2 = 0x1fffe wraps to 0xfffe, clamps to 0xffff */
    one(a, "v_pk_mad_u16 v3, v1, v2, v6", 0xffff0002, 0x00020003, 0x00000001, 3, 0xfffe0007);
    one(a, "v_pk_mad_u16 v3, v1, v2, v6 clamp", 0xffff0002, 0x00020003, 0x00000001, 3, 0xffff0007);
    /* mul_lo_u16: lo 0xffff * 0xffff = 0xfffe0001 -> 0x0001;
     * hi 0x1234 * 0x10 = 0x12340 -> 0x2340 */
    one(a, "v_pk_mul_lo_u16 v3, v1, v2", 0x1234ffff, 0x0010ffff, 0, 3, 0x23400001);
    /* shifts: the count is bits 3:0 of each half of S0 (lo 4; hi 19 -> 3) */
    one(a, "v_pk_lshlrev_b16 v3, v1, v2", 0x00130004, 0x80011234, 0, 3, 0x00082340);
    one(a, "v_pk_lshrrev_b16 v3, v1, v2", 0x00130004, 0x80011234, 0, 3, 0x10000123);
    /* arithmetic: 0x8001 (-32767) >> 3 = -4096 (0xf000) */
    one(a, "v_pk_ashrrev_i16 v3, v1, v2", 0x00130004, 0x80011234, 0, 3, 0xf0000123);
    /* op_sel:[1,0]: the low half shifts by S0's high count (3): 0x1234 << 3 = 0x91a0 */
    one(a, "v_pk_lshlrev_b16 v3, v1, v2 op_sel:[1,0]", 0x00130004, 0x80011234, 0, 3, 0x000891a0);
    /* min/max: lo 5 vs 0xfffb (-5 signed, 65531 unsigned), hi 0x8000 vs 0x7fff */
    one(a, "v_pk_max_i16 v3, v1, v2", 0x80000005, 0x7ffffffb, 0, 3, 0x7fff0005);
    one(a, "v_pk_min_i16 v3, v1, v2", 0x80000005, 0x7ffffffb, 0, 3, 0x8000fffb);
    one(a, "v_pk_max_u16 v3, v1, v2", 0x80000005, 0x7ffffffb, 0, 3, 0x8000fffb);
    one(a, "v_pk_min_u16 v3, v1, v2", 0x80000005, 0x7ffffffb, 0, 3, 0x7fff0005);
}

/* f16 min/max, hi: qNaN (0x7e00) vs 1.0, lo: -0 vs +0 (IEEE mode off in these snippets) */
static void t_pk_minmax_gfx11(void) {
    /* v_max_f16 rules: a NaN gives the other operand, +0 > -0 */
    one("gfx1100", "v_pk_max_f16 v3, v1, v2", 0x7e008000, 0x3c000000, 0, 3, 0x3c000000);
    one("gfx1100", "v_pk_min_f16 v3, v1, v2", 0x7e008000, 0x3c000000, 0, 3, 0x3c008000);
    /* clamp: max(3.0, 2.0) = 3.0 -> 1.0; max(-1.0, -2.0) = -1.0 -> 0 */
    one("gfx1100", "v_pk_max_f16 v3, v1, v2 clamp", 0x4200bc00, 0x4000c000, 0, 3, 0x3c000000);
}
static void t_pk_minmax_gfx12(void) {
    /* minimumNumber/maximumNumber: a NaN gives the other operand */
    one("gfx1201", "v_pk_max_num_f16 v3, v1, v2", 0x7e008000, 0x3c000000, 0, 3, 0x3c000000);
    one("gfx1201", "v_pk_min_num_f16 v3, v1, v2", 0x7e008000, 0x3c000000, 0, 3, 0x3c008000);
    /* IEEE maximum/minimum: a NaN propagates (quiet), -0 < +0 */
    one("gfx1201", "v_pk_maximum_f16 v3, v1, v2", 0x7e008000, 0x3c000000, 0, 3, 0x7e000000);
    one("gfx1201", "v_pk_minimum_f16 v3, v1, v2", 0x7e008000, 0x3c000000, 0, 3, 0x7e008000);
    /* a signalling NaN (0x7d00) comes out quieted (0x7f00); lo max(1.0, 2.0) = 2.0 */
    one("gfx1201", "v_pk_maximum_f16 v3, v1, v2", 0x7d003c00, 0x00004000, 0, 3, 0x7f004000);
    /* neg_hi:[1,0]: hi max(-(1.0), 0.5) = 0.5 (0x3800); lo max(2.0, 0.5) = 2.0 */
    one("gfx1201", "v_pk_max_num_f16 v3, v1, v2 neg_hi:[1,0]", 0x3c004000, 0x38003800, 0, 3,
        0x38004000);
}

int main(void) {
    if (snippet_rig_open(&rig) != 0)
        return 1;
    t_pk("gfx1100");
    t_pk("gfx1201");
    t_pk_more("gfx1100");
    t_pk_more("gfx1201");
    t_pk_minmax_gfx11();
    t_pk_minmax_gfx12();
    snippet_rig_close(&rig);
    return check_summary("test_rdna_pk");
}
