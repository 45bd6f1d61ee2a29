/* test_cov_salu.c - the SOP1/SOP2/SOPK/SOPC/SOPP ops test_salu.c leaves out, on llvm-mc-22
 * encodings, gfx950 and gfx942.  Every expected value is worked out by hand from the CDNA3/CDNA4
 * ISA pseudocode (the derivation is in the comment of each case); none comes from a gfxemu run. */
#include "common/check.h"
#include "common/cov.h"
#include "exec/salu_case.h"

typedef struct {
    const char *text;
    sv init[SALU_NSV];
    sv expect[SALU_NSV];
    int scc; /* expected SCC, or -1 */
} scase;
#define EXEC(lo, hi)                                                                               \
    {126, lo}, { 127, hi }

static const scase cases[] = {
    /* |-5 - 10| = 15 both ways; SCC = result != 0 */
    {"s_absdiff_i32 s2, s0, s1\ns_absdiff_i32 s3, s1, s0",
     {{0, (uint32_t)-5}, {1, 10}, END},
     {{2, 15}, {3, 15}, END},
     1},
    {"s_absdiff_i32 s2, s0, s0", {{0, 0x80000000}, END}, {{2, 0}, END}, 0},
    /* 0xff00ff00 & ~0x0ff00ff0 = 0xf000f000 */
    {"s_andn2_b32 s2, s0, s1", {{0, 0xff00ff00}, {1, 0x0ff00ff0}, END}, {{2, 0xf000f000}, END}, 1},
    /* ~(0xff00ff00 & 0x0ff00ff0) = ~0x0f000f00 */
    {"s_nand_b32 s2, s0, s1", {{0, 0xff00ff00}, {1, 0x0ff00ff0}, END}, {{2, 0xf0fff0ff}, END}, 1},
    {"s_nand_b64 s[2:3], -1, s[4:5]", {{4, ~0u}, {5, ~0u}, END}, {{2, 0}, {3, 0}, END}, 0},
    /* ~(0xff00ff00 | 0x0ff00ff0) = ~0xfff0fff0 */
    {"s_nor_b32 s2, s0, s1", {{0, 0xff00ff00}, {1, 0x0ff00ff0}, END}, {{2, 0x000f000f}, END}, 1},
    /* 0xff00ff00 | ~0x0ff00ff0 = 0xff00ff00 | 0xf00ff00f */
    {"s_orn2_b32 s2, s0, s1", {{0, 0xff00ff00}, {1, 0x0ff00ff0}, END}, {{2, 0xff0fff0f}, END}, 1},
    /* ~(0xff00ff00 ^ 0x0ff00ff0) = ~0xf0f0f0f0 */
    {"s_xnor_b32 s2, s0, s1", {{0, 0xff00ff00}, {1, 0x0ff00ff0}, END}, {{2, 0x0f0f0f0f}, END}, 1},
    {"s_xnor_b64 s[4:5], s[6:7], s[6:7]",
     {{6, 0x1234}, {7, 0x8000}, END},
     {{4, ~0u}, {5, ~0u}, END},
     1},
    /* 64-bit field at bit 28, 8 wide, of 0x0000000b_a0000000: 0xba */
    {"s_bfe_u64 s[2:3], s[4:5], s6",
     {{4, 0xa0000000}, {5, 0xb}, {6, 0x8001c}, END},
     {{2, 0xba}, {3, 0}, END},
     1},
    /* the same field signed: 0xba has bit 7 set, so it sign-extends to 64 bits; SCC = D != 0.
     * A positive field (0x3a: bits 28..35 of 0x00000003_a0000000) stays positive. */
    {"s_bfe_i64 s[2:3], s[4:5], s6\ns_bfe_i64 s[8:9], s[10:11], s6",
     {{4, 0xa0000000}, {5, 0xb}, {6, 0x8001c}, {10, 0xa0000000}, {11, 0x3}, END},
     {{2, 0xffffffba}, {3, 0xffffffff}, {8, 0x3a}, {9, 0}, END},
     1},
    /* bfm: ((1 << S0) - 1) << S1; SCC untouched */
    {"s_bfm_b32 s2, 4, 8\ns_bfm_b64 s[4:5], 8, 28",
     {END},
     {{2, 0xf00}, {4, 0xf0000000}, {5, 0xf}, END},
     -1},
    /* (0x1fffffff << 3) + 8 = 0xfffffff8 + 8 carries out: D = 0, SCC = 1 */
    {"s_lshl4_add_u32 s3, 1, 2\ns_lshl3_add_u32 s2, s0, s1",
     {{0, 0x1fffffff}, {1, 8}, END},
     {{2, 0}, {3, 18}, END},
     1},
    {"s_lshl4_add_u32 s3, 1, 2", {END}, {{3, 18}, END}, 0},
    /* pack_hh: {S1[31:16], S0[31:16]}; pack_ll: {S1[15:0], S0[15:0]} */
    {"s_pack_hh_b32_b16 s2, s0, s1\ns_pack_ll_b32_b16 s3, s0, s1",
     {{0, 0x12345678}, {1, 0x9abcdef0}, END},
     {{2, 0x9abc1234}, {3, 0xdef05678}, END},
     -1},
    /* SOPK: s_cmovk moves the sign-extended immediate only when SCC */
    {"s_cmp_eq_u32 0, 0\ns_cmovk_i32 s2, 0x8000\ns_cmp_eq_u32 0, 1\ns_cmovk_i32 s3, 0x1",
     {{3, 7}, END},
     {{2, 0xffff8000}, {3, 7}, END},
     0},
    /* unsigned cmpk compares against the zero-extended immediate, signed ones sign-extended */
    {"s_cmpk_eq_u32 s0, 0x8000", {{0, 0x8000}, END}, {END}, 1},
    {"s_cmpk_eq_u32 s0, 0x8000", {{0, 0xffff8000}, END}, {END}, 0},
    {"s_cmpk_lg_u32 s0, 0x8000", {{0, 0xffff8000}, END}, {END}, 1},
    {"s_cmpk_ge_i32 s0, 0x8000", {{0, 0xffff8000}, END}, {END}, 1},
    {"s_cmpk_lt_i32 s0, 0x8000", {{0, 0xffff7fff}, END}, {END}, 1},
    {"s_cmpk_le_i32 s0, 0xffff", {{0, 0}, END}, {END}, 0},
    {"s_cmpk_ge_u32 s0, 0xffff", {{0, 0xffff}, END}, {END}, 1},
    {"s_cmpk_le_u32 s0, 0x8000", {{0, 0xffff8000}, END}, {END}, 0},
    /* 0x40000001 * -2 = -0x80000002, low 32 bits 0x7ffffffe */
    {"s_mulk_i32 s2, 0xfffe", {{2, 0x40000001}, END}, {{2, 0x7ffffffe}, END}, -1},
    /* code at 0x1000: the return address is 0x1004; +1 dword skips the s_mov to s6 */
    {"s_call_b64 s[4:5], 1\ns_mov_b32 s6, 1\ns_mov_b32 s7, 2",
     {END},
     {{4, 0x1004}, {5, 0}, {6, 0}, {7, 2}, END},
     -1},
    /* SOP1 exec ops (exec = 0xffff): andn1_saveexec: exec = ~S0 & exec = 0xff00 */
    {"s_andn1_saveexec_b64 s[2:3], s[4:5]",
     {EXEC(0xffff, 0), {4, 0xff00ff}, {5, 0}, END},
     {{2, 0xffff}, {3, 0}, {126, 0xff00}, {127, 0}, END},
     1},
    /* wrexec forms return the new exec */
    {"s_andn1_wrexec_b64 s[2:3], s[4:5]",
     {EXEC(0xffff, 0), {4, 0xff00ff}, {5, 0}, END},
     {{2, 0xff00}, {3, 0}, {126, 0xff00}, {127, 0}, END},
     1},
    {"s_andn2_wrexec_b64 s[2:3], s[4:5]",
     {EXEC(0xffff, 0), {4, 0xff00ff}, {5, 0}, END},
     {{2, 0xff0000}, {3, 0}, {126, 0xff0000}, {127, 0}, END},
     1},
    {"s_andn2_wrexec_b64 s[2:3], s[4:5]",
     {EXEC(0xffff, 0), {4, 0xff}, {5, 0}, END},
     {{2, 0}, {3, 0}, {126, 0}, {127, 0}, END},
     0},
    /* nand: ~(0xff & 0xffff) */
    {"s_nand_saveexec_b64 s[2:3], s[4:5]",
     {EXEC(0xffff, 0), {4, 0xff}, {5, 0}, END},
     {{2, 0xffff}, {3, 0}, {126, 0xffffff00}, {127, ~0u}, END},
     1},
    {"s_nor_saveexec_b64 s[2:3], s[4:5]",
     {EXEC(0xffff, 0), {4, 0xff}, {5, 0}, END},
     {{2, 0xffff}, {126, 0xffff0000}, {127, ~0u}, END},
     1},
    /* orn1: ~S0 | exec = 0xff00ff00 | 0xffff (hi all ones) */
    {"s_orn1_saveexec_b64 s[2:3], s[4:5]",
     {EXEC(0xffff, 0), {4, 0xff00ff}, {5, 0}, END},
     {{2, 0xffff}, {126, 0xff00ffff}, {127, ~0u}, END},
     1},
    /* orn2: S0 | ~exec = 0x00ff00ff | 0xffff0000 */
    {"s_orn2_saveexec_b64 s[2:3], s[4:5]",
     {EXEC(0xffff, 0), {4, 0xff00ff}, {5, 0}, END},
     {{2, 0xffff}, {126, 0xffff00ff}, {127, ~0u}, END},
     1},
    /* xnor: ~(0xff00ff ^ 0xffff) = ~0xffff00 */
    {"s_xnor_saveexec_b64 s[2:3], s[4:5]",
     {EXEC(0xffff, 0), {4, 0xff00ff}, {5, 0}, END},
     {{2, 0xffff}, {126, 0xff0000ff}, {127, ~0u}, END},
     1},
    /* bit counts */
    {"s_bcnt1_i32_b32 s3, 0x80000001\ns_bcnt0_i32_b32 s2, 0xff", {END}, {{2, 24}, {3, 2}, END}, 1},
    {"s_bcnt0_i32_b64 s2, s[4:5]", {{4, ~0u}, {5, ~0u}, END}, {{2, 0}, END}, 0},
    {"s_bcnt0_i32_b64 s2, s[4:5]", {{4, 0xffff}, {5, 0x80000000}, END}, {{2, 47}, END}, 1},
    /* bit i of S0 goes to bits 2i and 2i+1: 0x80000005 -> 0xc0000000_00000033 */
    {"s_bitreplicate_b64_b32 s[2:3], s0",
     {{0, 0x80000005}, END},
     {{2, 0x33}, {3, 0xc0000000}, END},
     -1},
    /* bitset: the bit number is S0[4:0] (b32) or S0[5:0] (b64); 36 & 31 = 4 */
    {"s_bitset0_b32 s2, 36\ns_bitset1_b32 s3, 31\ns_bitset0_b64 s[4:5], 35\n"
     "s_bitset1_b64 s[6:7], 32",
     {{2, ~0u}, {4, ~0u}, {5, ~0u}, END},
     {{2, 0xffffffef}, {3, 0x80000000}, {4, ~0u}, {5, 0xfffffff7}, {6, 0}, {7, 1}, END},
     -1},
    /* cmov: moves only when SCC */
    {"s_cmp_eq_u32 0, 0\ns_cmov_b32 s2, 5\ns_cmov_b64 s[4:5], s[6:7]\ns_cmp_eq_u32 0, 1\n"
     "s_cmov_b32 s3, 5\ns_cmov_b64 s[8:9], s[6:7]",
     {{6, 0x11}, {7, 0x22}, {8, 0x33}, {9, 0x44}, END},
     {{2, 5}, {3, 0}, {4, 0x11}, {5, 0x22}, {8, 0x33}, {9, 0x44}, END},
     0},
    /* first zero from the LSB; -1 when there is none */
    {"s_ff0_i32_b32 s2, 0xffff00ff\ns_ff0_i32_b32 s3, -1\ns_ff0_i32_b64 s4, s[6:7]\n"
     "s_ff0_i32_b64 s5, -1",
     {{6, ~0u}, {7, 0xfffffffe}, END},
     {{2, 8}, {3, ~0u}, {4, 32}, {5, ~0u}, END},
     -1},
    /* leading bits equal to the sign: 0x0000ffff -> first 1 at 48 from the MSB; 0xfffffff0_0
     * -> 28 ones then a 0; all equal -> -1 */
    {"s_flbit_i32_i64 s2, s[4:5]\ns_flbit_i32_i64 s3, s[6:7]\ns_flbit_i32_i64 s8, -1\n"
     "s_flbit_i32_i64 s9, 0",
     {{4, 0xffff}, {5, 0}, {6, 0}, {7, 0xfffffff0}, END},
     {{2, 48}, {3, 28}, {8, ~0u}, {9, ~0u}, END},
     -1},
    /* movreld writes s[D + M0], movrels reads s[S + M0] */
    {"s_movreld_b32 s2, s10\ns_mov_b32 m0, 4\ns_movreld_b64 s[2:3], s[10:11]",
     {{124, 3}, {10, 0xa}, {11, 0xb}, END},
     {{5, 0xa}, {6, 0xa}, {7, 0xb}, {2, 0}, END},
     -1},
    {"s_movrels_b64 s[2:3], s[4:5]",
     {{124, 2}, {6, 0x66}, {7, 0x77}, END},
     {{2, 0x66}, {3, 0x77}, END},
     -1},
    {"s_not_b64 s[2:3], s[4:5]", {{4, 0}, {5, ~0u}, END}, {{2, ~0u}, {3, 0}, END}, 1},
    /* quadmask: bit g = any bit of nibble g; nibbles 1, 3 and 15 */
    {"s_quadmask_b64 s[2:3], s[4:5]",
     {{4, 0xf010}, {5, 0x80000000}, END},
     {{2, 0x800a}, {3, 0}, END},
     1},
    /* wqm: a nibble with any bit set becomes 0xf */
    {"s_wqm_b32 s2, 0x00100081\ns_wqm_b64 s[4:5], s[6:7]",
     {{6, 0}, {7, 0x10000000}, END},
     {{2, 0x00f000ff}, {4, 0}, {5, 0xf0000000}, END},
     1},
    {"s_wqm_b64 s[4:5], 0", {END}, {{4, 0}, {5, 0}, END}, 0},
    /* SOPC */
    {"s_bitcmp0_b32 s0, 3", {{0, 0xf7}, END}, {END}, 1},
    {"s_bitcmp0_b64 s[0:1], 36", {{0, 0}, {1, 0x10}, END}, {END}, 0},
    {"s_bitcmp1_b64 s[0:1], 36", {{0, 0}, {1, 0x10}, END}, {END}, 1},
    {"s_cmp_eq_i32 s0, s1", {{0, ~0u}, {1, ~0u}, END}, {END}, 1},
    {"s_cmp_ge_i32 s0, 0", {{0, ~0u}, END}, {END}, 0},
    {"s_cmp_gt_i32 0, s0", {{0, ~0u}, END}, {END}, 1},
    {"s_cmp_le_i32 s0, s1", {{0, 0x80000000}, {1, 0x7fffffff}, END}, {END}, 1},
    {"s_cmp_le_u32 s0, s1", {{0, 0x80000000}, {1, 0x7fffffff}, END}, {END}, 0},
    {"s_cmp_lg_i32 s0, 1", {{0, 1}, END}, {END}, 0},
    /* SOPP hints: no effect on state; the instruction after them runs */
    {"s_incperflevel 1\ns_decperflevel 1\ns_setprio 2\ns_sleep 1\ns_ttracedata\ns_wakeup\n"
     "s_icache_inv\ns_setkill 0\ns_mov_b32 s2, 9",
     {END},
     {{2, 9}, END},
     -1},
    /* s_endpgm_saved ends the program like s_endpgm */
    {"s_endpgm_saved\ns_mov_b32 s2, 9", {END}, {{2, 0}, END}, -1},
};

static int run_case(const char *arch, const scase *c, wave *w) {
    salu_case_init(w, c->init);
    int st = cov_run(w, arch, c->text);
    if (st == COV_NOT_ON_TARGET)
        return 0;
    if (st != WAVE_DONE) {
        printf("FAIL %s [%s]: status %d (fault kind %d at pc %u)\n", arch, c->text, st,
               w->fault.kind, w->fault.pc);
        return 1;
    }
    return salu_case_expect(w, arch, c->text, c->expect, c->scc);
}

int main(void) {
    wave *w = malloc(sizeof *w);
    const char *arches[] = {"gfx950", "gfx942", "gfx90a"};
    for (int a = 0; a < 3; a++) {
        for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++)
            CHECK(!run_case(arches[a], &cases[i], w), "case %zu", i);
        /* s_set_gpr_idx_mode switches indexing from SRC0 to DST: v1 + 3 = v4 gets v10 */
        memset(w, 0, sizeof *w);
        wave_set_exec(w, ~0ull);
        w->s[2] = 3;
        for (int l = 0; l < 64; l++)
            w->v[10][l] = 100 + l, w->v[13][l] = 200 + l;
        CHECK(cov_run(w, arches[a],
                      "s_set_gpr_idx_on s2, gpr_idx(SRC0)\n"
                      "s_set_gpr_idx_mode gpr_idx(DST)\nv_mov_b32 v1, v10\n"
                      "s_set_gpr_idx_off") == WAVE_DONE,
              "%s gpr_idx_mode", arches[a]);
        CHECK(w->v[4][7] == 107 && w->v[1][7] == 0 && ((w->s[124] >> 12) & 15) == 8,
              "%s gpr_idx_mode: v4 %u v1 %u m0 %x", arches[a], w->v[4][7], w->v[1][7], w->s[124]);
    }
    free(w);
    return check_summary("cov_salu");
}
