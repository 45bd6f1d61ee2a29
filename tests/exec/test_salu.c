/* test_salu.c - scalar ALU and program-control semantics on snippets assembled by llvm-mc-22.
 * Expected values are worked out from the CDNA3/CDNA4 ISA pseudocode, not from gfxemu runs. */
#include "common/asm.h"
#include "exec/exec.h"
#include "exec/salu_case.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

typedef struct {
    const char *text;
    sv init[SALU_NSV];
    sv expect[SALU_NSV];
    int scc; /* expected SCC, or -1 */
    int status;
} scase;

static const scase cases[] = {
    {"s_add_u32 s2, s0, s1", {{0, 0xffffffff}, {1, 2}, END}, {{2, 1}, END}, 1, WAVE_DONE},
    {"s_add_u32 s2, s0, s1\ns_addc_u32 s3, s0, s1",
     {{0, 0xffffffff}, {1, 2}, END},
     {{2, 1}, {3, 2}, END},
     1,
     WAVE_DONE},
    {"s_sub_u32 s4, 1, 2", {END}, {{4, 0xffffffff}, END}, 1, WAVE_DONE},
    {"s_sub_u32 s4, 2, 1", {END}, {{4, 1}, END}, 0, WAVE_DONE},
    {"s_add_i32 s5, 0x7fffffff, 1", {END}, {{5, 0x80000000}, END}, 1, WAVE_DONE},
    {"s_add_i32 s5, -1, 1", {END}, {{5, 0}, END}, 0, WAVE_DONE},
    {"s_min_i32 s6, -5, 3", {END}, {{6, (uint32_t)-5}, END}, 1, WAVE_DONE},
    {"s_max_u32 s6, -5, 3", {END}, {{6, (uint32_t)-5}, END}, 1, WAVE_DONE},
    {"s_bfe_u32 s10, 0x12345678, s0", {{0, 0x80008}, END}, {{10, 0x56}, END}, 1, WAVE_DONE},
    {"s_bfe_i32 s11, 0x80f0, s0", {{0, 0xc0004}, END}, {{11, 0xfffff80f}, END}, 1, WAVE_DONE},
    {"s_lshl_b64 s[8:9], s[0:1], 36",
     {{0, 0x1}, {1, 0}, END},
     {{8, 0}, {9, 0x10}, END},
     1,
     WAVE_DONE},
    {"s_ashr_i64 s[8:9], s[0:1], 4",
     {{0, 0}, {1, 0x80000000}, END},
     {{8, 0}, {9, 0xf8000000}, END},
     1,
     WAVE_DONE},
    {"s_and_saveexec_b64 s[12:13], s[14:15]",
     {{126, 0xffff}, {127, 0}, {14, 0xff00ff}, {15, 0}, END},
     {{12, 0xffff}, {13, 0}, {126, 0xff}, {127, 0}, END},
     1,
     WAVE_DONE},
    {"s_andn2_saveexec_b64 s[12:13], s[14:15]",
     {{126, 0xff}, {127, 0}, {14, 0xff}, {15, 0}, END},
     {{12, 0xff}, {126, 0}, END},
     0,
     WAVE_DONE},
    {"s_cmp_eq_u32 s0, s0\ns_cbranch_scc1 1\ns_mov_b32 s20, 1\ns_mov_b32 s21, 2",
     {END},
     {{20, 0}, {21, 2}, END},
     1,
     WAVE_DONE},
    {"s_cmp_lg_u32 s0, s0\ns_cbranch_scc1 1\ns_mov_b32 s20, 1\ns_mov_b32 s21, 2",
     {END},
     {{20, 1}, {21, 2}, END},
     0,
     WAVE_DONE},
    {"s_flbit_i32_b32 s1, 0\ns_ff1_i32_b32 s2, 0x100\ns_flbit_i32 s3, -1\ns_flbit_i32_b32 s4, 1",
     {END},
     {{1, 0xffffffff}, {2, 8}, {3, 0xffffffff}, {4, 31}, END},
     -1,
     WAVE_DONE},
    {"s_bcnt1_i32_b64 s2, s[0:1]",
     {{0, 0xf0f0}, {1, 0x80000001}, END},
     {{2, 10}, END},
     1,
     WAVE_DONE},
    {"s_mul_hi_i32 s2, -2, 3\ns_mul_i32 s3, -2, 3\ns_mul_hi_u32 s4, -1, -1",
     {END},
     {{2, 0xffffffff}, {3, (uint32_t)-6}, {4, 0xfffffffe}, END},
     -1,
     WAVE_DONE},
    {"s_movk_i32 s22, 0x8000\ns_cmpk_gt_u32 s22, 0x8000",
     {END},
     {{22, 0xffff8000}, END},
     1,
     WAVE_DONE},
    {"s_movk_i32 s22, 0x8000\ns_cmpk_gt_i32 s22, 0x0",
     {END},
     {{22, 0xffff8000}, END},
     0,
     WAVE_DONE},
    {"s_mov_b32 s1, 0.5\ns_mov_b64 s[2:3], 0.5\ns_mov_b64 s[4:5], -1\ns_mov_b32 s6, 0.15915494",
     {END},
     {{1, 0x3f000000}, {2, 0}, {3, 0x3fe00000}, {4, 0xffffffff}, {5, 0xffffffff}, {6, 0x3e22f983}},
     -1,
     WAVE_DONE},
    {"s_brev_b32 s1, 1\ns_quadmask_b32 s2, 0xf10",
     {END},
     {{1, 0x80000000}, {2, 6}, END},
     1,
     WAVE_DONE},
    {"s_cselect_b32 s1, 7, 9", {{0, 0}, END}, {{1, 9}, END}, -1, WAVE_DONE},
    {"s_lshl2_add_u32 s1, 0x40000000, 5", {END}, {{1, 5}, END}, 1, WAVE_DONE},
    {"s_pack_lh_b32_b16 s1, 0x1234abcd, s0",
     {{0, 0x5678ef01}, END},
     {{1, 0x5678abcd}, END},
     -1,
     WAVE_DONE},
    {"s_sext_i32_i8 s1, 0x80\ns_abs_i32 s2, 0x80000000",
     {END},
     {{1, 0xffffff80}, {2, 0x80000000}, END},
     1,
     WAVE_DONE},
    {"s_mov_b32 m0, 3\ns_movrels_b32 s1, s4",
     {{7, 0x77}, END},
     {{1, 0x77}, {124, 3}, END},
     -1,
     WAVE_DONE},
    {"s_trap 2", {END}, {END}, -1, WAVE_FAULT},
    /* The program sits at 0x1000: s_getpc_b64 gives the address of the next instruction; the
     * jump lands on byte 20 (0x1004 + 16), skipping the write to s5. */
    {"s_getpc_b64 s[0:1]\ns_add_u32 s0, s0, 16\ns_addc_u32 s1, s1, 0\ns_setpc_b64 s[0:1]\n"
     "s_mov_b32 s5, 1\ns_mov_b32 s6, 2",
     {END},
     {{0, 0x1014}, {1, 0}, {5, 0}, {6, 2}, END},
     -1,
     WAVE_DONE},
    {"s_getpc_b64 s[0:1]\ns_add_u32 s2, s0, 16\ns_mov_b32 s3, s1\ns_swappc_b64 s[30:31], s[2:3]\n"
     "s_mov_b32 s5, 1\ns_mov_b32 s6, 2",
     {END},
     {{30, 0x1010}, {31, 0}, {5, 0}, {6, 2}, END},
     -1,
     WAVE_DONE},
    /* MODE through hwreg: FP_DENORM is bits 7:4, FP_ROUND bits 3:0 (tests/exec/test_round.c
     * checks what the rounding modes do). */
    {"s_setreg_imm32_b32 hwreg(HW_REG_MODE, 4, 4), 0xc\ns_getreg_b32 s1, hwreg(HW_REG_MODE, 0, 12)",
     {END},
     {{1, 0xc0}, END},
     -1,
     WAVE_DONE},
    {"s_mov_b32 s0, 5\ns_setreg_b32 hwreg(HW_REG_MODE, 4, 2), s0\ns_getreg_b32 s1, "
     "hwreg(HW_REG_MODE, 4, 4)",
     {END},
     {{1, 1}, END},
     -1,
     WAVE_DONE},
    {"s_setreg_imm32_b32 hwreg(HW_REG_MODE, 0, 4), 1\ns_getreg_b32 s1, hwreg(HW_REG_MODE, 0, 4)",
     {END},
     {{1, 1}, END},
     -1,
     WAVE_DONE},
    {"s_getreg_b32 s1, hwreg(HW_REG_TRAPSTS)", {END}, {END}, -1, WAVE_FAULT},
    /* A jump outside the code faults instead of running wild. */
    {"s_mov_b64 s[0:1], 0x40000\ns_setpc_b64 s[0:1]", {END}, {END}, -1, WAVE_FAULT},
    {"s_branch 0xfffe", {END}, {END}, -1, WAVE_FAULT}, /* -2 dwords from byte 4: before the code */
};

static int run_case(const char *arch, isa_arch a, const scase *c, wave *w) {
    char text[512];
    snprintf(text, sizeof text, "%s\ns_endpgm", c->text);
    size_t n;
    uint8_t *code = asm_snippet(arch, text, &n);
    if (!code)
        return 1;
    xprog p;
    if (xprog_build(&p, a, code, (uint32_t)n, 0x1000) != 0)
        return 1;
    salu_case_init(w, c->init);
    w->prog = &p;
    w->budget = 1000;
    wave_run(w);
    int bad = 0;
    if (w->status != c->status) {
        printf("FAIL %s [%s]: status %d (fault kind %d at pc %u), want %d\n", arch, c->text,
               w->status, w->fault.kind, w->fault.pc, c->status);
        bad = 1;
    }
    bad |= salu_case_expect(w, arch, c->text, c->expect, c->scc);
    xprog_free(&p);
    free(code);
    return bad;
}

int main(void) {
    wave *w = malloc(sizeof *w);
    int fails = 0, total = 0;
    const char *arches[] = {"gfx950", "gfx942", "gfx90a"};
    const isa_arch ias[] = {ISA_GFX950, ISA_GFX942, ISA_GFX90A};
    for (int a = 0; a < 3; a++)
        for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
            total++;
            fails += run_case(arches[a], ias[a], &cases[i], w);
        }
    free(w);
    printf("salu: %d cases, %d failed\n", total, fails);
    return fails != 0;
}
