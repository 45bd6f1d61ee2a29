/* test_rdna_cov_salu.c - the RDNA scalar ops (SOP1/SOP2/SOPK/SOPC/SOPP/SMEM) that no other test
 * ran (the opcode coverage audit, docs/testing.md), on llvm-mc-22 encodings for gfx1100 and
 * gfx1201, in wave32 and (the 64-bit EXEC ops) wave64.  Every expected value is worked out by
 * hand from the RDNA3/RDNA4 ISA pseudocode (the derivation is in the comment of each case), or,
 * for gfx12's SALU float compares, from the predicates evaluated on the host; none comes from a
 * gfxemu run. */
#include "common/check.h"
#include "common/cov.h"

typedef struct {
    unsigned reg; /* | LO: compare the low 16 bits only (an f16 result) */
    uint32_t val;
} sv;
enum { G11 = 1, G12 = 2, W64 = 4, BOTH = G11 | G12 };
typedef struct {
    int on; /* G11/G12 targets, W64: run in wave64 */
    const char *text;
    sv init[12];
    sv expect[12];
    int scc; /* expected SCC, or -1 */
} scase;
#define END {0xffff, 0}
#define LO 0x100
#define LO16(r, v) {(r) | LO, v}
/* EXEC_LO/EXEC_HI (126/127 on RDNA as on CDNA) */
#define EXEC(lo, hi)                                                                               \
    {126, lo}, { 127, hi }

static const scase cases[] = {
    /* ---- SOP2 ---- */
    /* |-5 - 10| = 15 both ways; SCC = D != 0 */
    {BOTH,
     "s_absdiff_i32 s2, s0, s1\ns_absdiff_i32 s3, s1, s0",
     {{0, (uint32_t)-5}, {1, 10}, END},
     {{2, 15}, {3, 15}, END},
     1},
    {BOTH, "s_absdiff_i32 s2, s0, s0", {{0, 0x80000000}, END}, {{2, 0}, END}, 0},
    /* bfe: offset S1[4:0] (64-bit: [5:0]), width S1[22:16]; i32/i64 sign-extend the field:
     * 0xf0f0abcd >> 8, 8 bits = 0xab (signed: 0xffffffab) */
    {BOTH, "s_bfe_u32 s2, s0, s1", {{0, 0xf0f0abcd}, {1, 0x80008}, END}, {{2, 0xab}, END}, 1},
    {BOTH, "s_bfe_i32 s2, s0, s1", {{0, 0xf0f0abcd}, {1, 0x80008}, END}, {{2, 0xffffffab}, END}, 1},
    {BOTH, "s_bfe_i32 s2, s0, s1", {{0, 0xf0f0abcd}, {1, 0x40004}, END}, {{2, 0xfffffffc}, END}, 1},
    {BOTH, "s_bfe_u32 s2, s0, s1", {{0, 0xf0f0abcd}, {1, 0x40010}, END}, {{2, 0}, END}, 0},
    /* 64-bit field at bit 28, 8 wide, of 0x0000000b_a0000000: 0xba (signed: -0x46) */
    {BOTH,
     "s_bfe_u64 s[2:3], s[4:5], s6",
     {{4, 0xa0000000}, {5, 0xb}, {6, 0x8001c}, END},
     {{2, 0xba}, {3, 0}, END},
     1},
    {BOTH,
     "s_bfe_i64 s[2:3], s[4:5], s6",
     {{4, 0xa0000000}, {5, 0xb}, {6, 0x8001c}, END},
     {{2, 0xffffffba}, {3, 0xffffffff}, END},
     1},
    /* bfm: ((1 << S0) - 1) << S1; SCC untouched */
    {BOTH,
     "s_bfm_b32 s2, 4, 8\ns_bfm_b64 s[4:5], 8, 28",
     {END},
     {{2, 0xf00}, {4, 0xf0000000}, {5, 0xf}, END},
     -1},
    /* lshlN_add: tmp = (64-bit S0 << N) + S1, SCC = tmp >= 2^32: the bit shifted out counts */
    {BOTH, "s_lshl1_add_u32 s2, s0, s1", {{0, 0x80000000}, {1, 0}, END}, {{2, 0}, END}, 1},
    {BOTH, "s_lshl2_add_u32 s2, s0, s1", {{0, 3}, {1, 4}, END}, {{2, 16}, END}, 0},
    {BOTH, "s_lshl3_add_u32 s2, s0, s1", {{0, 0x1fffffff}, {1, 8}, END}, {{2, 0}, END}, 1},
    {BOTH, "s_lshl4_add_u32 s2, s0, s1", {{0, 0x0fffffff}, {1, 0x10}, END}, {{2, 0}, END}, 1},
    /* mul_hi_i32: -2 * 0x40000000 = -2^31: high half -1; mul_hi_u32: 0xffffffff^2 >> 32 */
    {BOTH,
     "s_mul_hi_i32 s2, s0, s1\ns_mul_hi_u32 s3, s0, s0",
     {{0, (uint32_t)-2}, {1, 0x40000000}, END},
     {{2, 0xffffffff}, {3, 0xfffffffc}, END},
     -1},
    /* ~(0xff00ff00 & 0x0ff00ff0) = ~0x0f000f00 */
    {BOTH,
     "s_nand_b32 s2, s0, s1",
     {{0, 0xff00ff00}, {1, 0x0ff00ff0}, END},
     {{2, 0xf0fff0ff}, END},
     1},
    {BOTH, "s_nand_b64 s[2:3], -1, s[4:5]", {{4, ~0u}, {5, ~0u}, END}, {{2, 0}, {3, 0}, END}, 0},
    /* ~(0xff00ff00 | 0x0ff00ff0) = ~0xfff0fff0 */
    {BOTH,
     "s_nor_b32 s2, s0, s1",
     {{0, 0xff00ff00}, {1, 0x0ff00ff0}, END},
     {{2, 0x000f000f}, END},
     1},
    {BOTH,
     "s_nor_b64 s[2:3], s[4:5], s[4:5]",
     {{4, 0}, {5, 0x80000000}, END},
     {{2, 0xffffffff}, {3, 0x7fffffff}, END},
     1},
    /* or_not1: S0 | ~S1 = 0xff00ff00 | 0xf00ff00f */
    {BOTH,
     "s_or_not1_b32 s2, s0, s1",
     {{0, 0xff00ff00}, {1, 0x0ff00ff0}, END},
     {{2, 0xff0fff0f}, END},
     1},
    {BOTH,
     "s_or_not1_b64 s[2:3], s[4:5], s[4:5]",
     {{4, 0}, {5, 0}, END},
     {{2, ~0u}, {3, ~0u}, END},
     1},
    /* ~(0xff00ff00 ^ 0x0ff00ff0) = ~0xf0f0f0f0 */
    {BOTH,
     "s_xnor_b32 s2, s0, s1",
     {{0, 0xff00ff00}, {1, 0x0ff00ff0}, END},
     {{2, 0x0f0f0f0f}, END},
     1},
    {BOTH,
     "s_xnor_b64 s[4:5], s[6:7], s[6:7]",
     {{6, 0x1234}, {7, 0x8000}, END},
     {{4, ~0u}, {5, ~0u}, END},
     1},
    /* pack: hh {S1[31:16], S0[31:16]}, lh {S1[31:16], S0[15:0]}, ll {S1[15:0], S0[15:0]} */
    {BOTH,
     "s_pack_hh_b32_b16 s2, s0, s1\ns_pack_lh_b32_b16 s3, s0, s1\n"
     "s_pack_ll_b32_b16 s4, s0, s1",
     {{0, 0x12345678}, {1, 0x9abcdef0}, END},
     {{2, 0x9abc1234}, {3, 0x9abc5678}, {4, 0xdef05678}, END},
     -1},
    /* shifts: ashr keeps the sign, lshr of 64 bits by S1[5:0] */
    {BOTH,
     "s_ashr_i32 s2, s0, 4\ns_lshr_b64 s[4:5], s[6:7], 36\ns_ashr_i64 s[8:9], s[6:7], 36",
     {{0, 0x80000000}, {6, 0}, {7, 0x80000000}, END},
     {{2, 0xf8000000}, {4, 0x08000000}, {5, 0}, {8, 0xf8000000}, {9, 0xffffffff}, END},
     1},
    /* cselect_b64: SCC 0 picks S1 */
    {BOTH,
     "s_cmp_eq_u32 0, 1\ns_cselect_b64 s[2:3], s[4:5], s[6:7]",
     {{4, 1}, {5, 2}, {6, 3}, {7, 4}, END},
     {{2, 3}, {3, 4}, END},
     0},
    /* gfx12 SALU f16/f32 (RDNA4 ISA SOP2): fmac D = S0 * S1 + D: 2 * 3 + 1 = 7 (f16 0x4700);
     * fmamk D = S0 * K + S1: 2 * 3 + 0.5 = 6.5; mul 1.5 * -2 = -3; sub 1 - 3 = -2, 1 - 0.25 */
    {G12,
     "s_fmac_f16 s2, s0, s1",
     {{0, 0x4000}, {1, 0x4200}, {2, 0x3c00}, END},
     {LO16(2, 0x4700), END},
     -1},
    {G12,
     "s_fmamk_f32 s2, s0, 0x40400000, s1",
     {{0, 0x40000000}, {1, 0x3f000000}, END},
     {{2, 0x40d00000}, END},
     -1},
    /* fmaak D = S0 * S1 + K: 2 * 0.5 + 3 = 4 */
    {G12,
     "s_fmaak_f32 s2, s0, s1, 0x40400000",
     {{0, 0x40000000}, {1, 0x3f000000}, END},
     {{2, 0x40800000}, END},
     -1},
    {G12,
     "s_mul_f16 s2, s0, s1\ns_sub_f16 s3, s4, s5\ns_sub_f32 s6, 1.0, 0.25",
     {{0, 0x3e00}, {1, 0xc000}, {4, 0x3c00}, {5, 0x4200}, END},
     {LO16(2, 0xc200), LO16(3, 0xc000), {6, 0x3f400000}, END},
     -1},
    /* maximumNumber/minimumNumber (IEEE 754-2019): a quiet NaN loses to a number */
    {G12,
     "s_max_num_f16 s2, s0, s1\ns_min_num_f16 s3, s0, s1\ns_min_num_f32 s4, s5, s6",
     {{0, 0x7e00}, {1, 0x3c00}, {5, 0x7fc00000}, {6, 0xc0000000}, END},
     {LO16(2, 0x3c00), LO16(3, 0x3c00), {4, 0xc0000000}, END},
     -1},
    {G12,
     "s_min_num_f16 s2, s0, s1\ns_max_num_f16 s3, s0, s1",
     {{0, 0xc000}, {1, 0x3c00}, END},
     {LO16(2, 0xc000), LO16(3, 0x3c00), END},
     -1},

    /* ---- SOPK ---- */
    /* addk: D += sext(K), SCC = signed overflow: 0x80000001 + -2 overflows */
    {G11, "s_addk_i32 s2, 0xfffe", {{2, 0x80000001}, END}, {{2, 0x7fffffff}, END}, 1},
    {G11, "s_addk_i32 s2, 0x10", {{2, 5}, END}, {{2, 21}, END}, 0},
    {G12, "s_addk_co_i32 s2, 0xfffe", {{2, 0x80000001}, END}, {{2, 0x7fffffff}, END}, 1},
    /* 0x40000001 * -2 = -0x80000002, low 32 bits 0x7ffffffe */
    {BOTH, "s_mulk_i32 s2, 0xfffe", {{2, 0x40000001}, END}, {{2, 0x7ffffffe}, END}, -1},
    /* unsigned cmpk compare with the zero-extended K, signed ones with the sign-extended K */
    {G11, "s_cmpk_eq_u32 s0, 0x8000", {{0, 0x8000}, END}, {END}, 1},
    {G11, "s_cmpk_eq_u32 s0, 0x8000", {{0, 0xffff8000}, END}, {END}, 0},
    {G11, "s_cmpk_eq_i32 s0, 0x8000", {{0, 0xffff8000}, END}, {END}, 1},
    {G11, "s_cmpk_lg_u32 s0, 0x8000", {{0, 0xffff8000}, END}, {END}, 1},
    {G11, "s_cmpk_lg_i32 s0, 0x8000", {{0, 0xffff8000}, END}, {END}, 0},
    {G11, "s_cmpk_ge_i32 s0, 0x8000", {{0, 0xffff8000}, END}, {END}, 1},
    {G11, "s_cmpk_gt_i32 s0, 0x8000", {{0, 0xffff8000}, END}, {END}, 0},
    {G11, "s_cmpk_lt_i32 s0, 0x8000", {{0, 0xffff7fff}, END}, {END}, 1},
    {G11, "s_cmpk_le_i32 s0, 0xffff", {{0, 0}, END}, {END}, 0},
    {G11, "s_cmpk_ge_u32 s0, 0xffff", {{0, 0xffff}, END}, {END}, 1},
    {G11, "s_cmpk_gt_u32 s0, 0xffff", {{0, 0xffff8000}, END}, {END}, 1},
    {G11, "s_cmpk_lt_u32 s0, 0x8000", {{0, 0x7fff}, END}, {END}, 1},
    {G11, "s_cmpk_le_u32 s0, 0x8000", {{0, 0xffff8000}, END}, {END}, 0},
    /* MODE (hwreg 1): [3:0] FP_ROUND, [7:4] FP_DENORM; setreg writes SIZE bits at OFFSET */
    {BOTH,
     "s_setreg_imm32_b32 hwreg(HW_REG_MODE, 0, 4), 0x5\n"
     "s_setreg_b32 hwreg(HW_REG_MODE, 4, 4), s0\n"
     "s_getreg_b32 s2, hwreg(HW_REG_MODE, 0, 8)",
     {{0, 0xa}, END},
     {{2, 0xa5}, END},
     -1},
    /* the gfx11 split wait counters (no-ops: the engine completes instructions in order) */
    {G11,
     "s_waitcnt_vmcnt null, 0x0\ns_waitcnt_expcnt null, 0x0\ns_waitcnt_lgkmcnt null, 0x0\n"
     "s_waitcnt_vscnt null, 0x0\ns_mov_b32 s2, 7",
     {END},
     {{2, 7}, END},
     -1},

    /* ---- SOP1 ---- */
    /* wave32 saveexec (RDNA3 ISA SOP1): D = EXEC_LO; EXEC_LO = f(S0, EXEC_LO); SCC = EXEC_LO != 0;
     * EXEC_LO = 0xffff, S0 = 0x00ff00ff */
    {BOTH,
     "s_and_not0_saveexec_b32 s2, s4",
     {EXEC(0xffff, 0), {4, 0xff00ff}, END},
     {{2, 0xffff}, {126, 0xff00}, {127, 0}, END},
     1},
    {BOTH,
     "s_nand_saveexec_b32 s2, s4",
     {EXEC(0xffff, 0), {4, 0xff}, END},
     {{2, 0xffff}, {126, 0xffffff00}, {127, 0}, END},
     1},
    {BOTH,
     "s_nor_saveexec_b32 s2, s4",
     {EXEC(0xffff, 0), {4, 0xff}, END},
     {{2, 0xffff}, {126, 0xffff0000}, {127, 0}, END},
     1},
    {BOTH,
     "s_or_not0_saveexec_b32 s2, s4",
     {EXEC(0xffff, 0), {4, 0xff00ff}, END},
     {{2, 0xffff}, {126, 0xff00ffff}, {127, 0}, END},
     1},
    {BOTH,
     "s_or_not1_saveexec_b32 s2, s4",
     {EXEC(0xffff, 0), {4, 0xff00ff}, END},
     {{2, 0xffff}, {126, 0xffff00ff}, {127, 0}, END},
     1},
    {BOTH,
     "s_xnor_saveexec_b32 s2, s4",
     {EXEC(0xffff, 0), {4, 0xff00ff}, END},
     {{2, 0xffff}, {126, 0xff0000ff}, {127, 0}, END},
     1},
    {BOTH,
     "s_and_not1_saveexec_b32 s2, s4",
     {EXEC(0xffff, 0), {4, 0xff}, END},
     {{2, 0xffff}, {126, 0}, {127, 0}, END},
     0},
    /* the 64-bit forms in wave64: EXEC = 0x0000ffff_0000ffff, the same rules on 64 bits */
    /* and_not0: ~S0 & EXEC; lo ~0x00ff00ff & 0xffff = 0xff00, hi ~0x10000 & 0xffff = 0xffff */
    {BOTH | W64,
     "s_and_not0_saveexec_b64 s[2:3], s[4:5]",
     {EXEC(0xffff, 0xffff), {4, 0xff00ff}, {5, 0x10000}, END},
     {{2, 0xffff}, {3, 0xffff}, {126, 0xff00}, {127, 0xffff}, END},
     1},
    /* or_not0: ~S0 | EXEC; lo 0xff00ff00 | 0xffff, hi 0x0000ffff | 0xffff */
    {BOTH | W64,
     "s_or_not0_saveexec_b64 s[2:3], s[4:5]",
     {EXEC(0xffff, 0xffff), {4, 0xff00ff}, {5, 0xffff0000}, END},
     {{2, 0xffff}, {3, 0xffff}, {126, 0xff00ffff}, {127, 0xffff}, END},
     1},
    /* nor: ~(S0 | EXEC); lo ~(0xff | 0xffff), hi ~(0xffff0000 | 0xffff) = 0 */
    {BOTH | W64,
     "s_nor_saveexec_b64 s[2:3], s[4:5]",
     {EXEC(0xffff, 0xffff), {4, 0xff}, {5, 0xffff0000}, END},
     {{2, 0xffff}, {3, 0xffff}, {126, 0xffff0000}, {127, 0}, END},
     1},
    /* xnor: ~(S0 ^ EXEC); lo ~(0x00ff00ff ^ 0xffff) = ~0x00ffff00, hi ~(0xffff ^ 0xffff) */
    {BOTH | W64,
     "s_xnor_saveexec_b64 s[2:3], s[4:5]",
     {EXEC(0xffff, 0xffff), {4, 0xff00ff}, {5, 0xffff}, END},
     {{2, 0xffff}, {3, 0xffff}, {126, 0xff0000ff}, {127, 0xffffffff}, END},
     1},
    /* and_not1_wrexec: EXEC = S0 & ~EXEC, D = the new EXEC; lo 0x00ff00ff & 0xffff0000,
     * hi 0xffff0000 & 0xffff0000; then S0 = the old EXEC: EXEC = 0, SCC = 0 */
    {BOTH | W64,
     "s_and_not1_wrexec_b64 s[2:3], s[4:5]",
     {EXEC(0xffff, 0xffff), {4, 0xff00ff}, {5, 0xffff0000}, END},
     {{2, 0xff0000}, {3, 0xffff0000}, {126, 0xff0000}, {127, 0xffff0000}, END},
     1},
    {BOTH | W64,
     "s_and_not1_wrexec_b64 s[2:3], s[4:5]",
     {EXEC(0xffff, 0xffff), {4, 0xffff}, {5, 0xffff}, {2, 7}, {3, 7}, END},
     {{2, 0}, {3, 0}, {126, 0}, {127, 0}, END},
     0},
    {BOTH | W64,
     "s_or_not1_saveexec_b64 s[2:3], s[4:5]",
     {EXEC(0xffff, 0xffff), {4, 0xff00ff}, {5, 0}, END},
     {{2, 0xffff}, {3, 0xffff}, {126, 0xffff00ff}, {127, 0xffff0000}, END},
     1},
    {BOTH | W64,
     "s_and_not1_saveexec_b64 s[2:3], s[4:5]",
     {EXEC(0xffff, 0xffff), {4, 0xff00ff}, {5, 0x10000}, END},
     {{2, 0xffff}, {3, 0xffff}, {126, 0xff0000}, {127, 0x10000}, END},
     1},
    /* bcnt0: zero bits; SCC = D != 0 */
    {BOTH,
     "s_bcnt0_i32_b32 s2, s0\ns_bcnt0_i32_b64 s3, s[4:5]",
     {{0, 0xf0}, {4, 0xffffffff}, {5, 0xf}, END},
     {{2, 28}, {3, 28}, END},
     1},
    /* bitset: D[S0[4:0]] (64-bit: S0[5:0]) = 0 / 1, other bits kept */
    {BOTH,
     "s_bitset0_b32 s2, s0\ns_bitset1_b32 s3, s1\ns_bitset1_b64 s[4:5], s6\n"
     "s_bitset0_b64 s[8:9], s7",
     {{0, 33}, {1, 31}, {2, ~0u}, {3, 0}, {6, 40}, {7, 63}, {8, ~0u}, {9, ~0u}, END},
     {{2, 0xfffffffd}, {3, 0x80000000}, {4, 0}, {5, 0x100}, {8, ~0u}, {9, 0x7fffffff}, END},
     -1},
    /* cls: leading bits equal to the sign bit, not counting it (-1 if all are); clz: -1 for 0 */
    {BOTH,
     "s_cls_i32 s2, s0\ns_cls_i32 s3, s1\ns_cls_i32_i64 s4, s[6:7]\ns_clz_i32_u32 s5, s8\n"
     "s_clz_i32_u32 s9, s10",
     {{0, 0x0000ffff}, {1, 0xffffffff}, {6, 0xffffffff}, {7, 0}, {8, 0x10000}, {10, 0}, END},
     {{2, 16}, {3, 0xffffffff}, {4, 32}, {5, 15}, {9, 0xffffffff}, END},
     -1},
    /* cmov: D = S0 only when SCC */
    {BOTH,
     "s_cmp_eq_u32 0, 0\ns_cmov_b32 s2, s0\ns_cmov_b64 s[4:5], s[6:7]\ns_cmp_eq_u32 0, 1\n"
     "s_cmov_b32 s3, s0",
     {{0, 9}, {3, 5}, {6, 1}, {7, 2}, END},
     {{2, 9}, {3, 5}, {4, 1}, {5, 2}, END},
     0},
    /* not: SCC = D != 0 */
    {BOTH,
     "s_not_b32 s2, s0\ns_not_b64 s[4:5], s[6:7]",
     {{0, 0x0f0f0f0f}, {6, ~0u}, {7, ~0u}, END},
     {{2, 0xf0f0f0f0}, {4, 0}, {5, 0}, END},
     0},
    /* quadmask: bit i = any of S0[4i+3:4i]; wqm: each quad all ones if any bit */
    {BOTH,
     "s_quadmask_b32 s2, s0\ns_quadmask_b64 s[4:5], s[6:7]\ns_wqm_b32 s3, s0\n"
     "s_wqm_b64 s[8:9], s[6:7]",
     {{0, 0x00000f01}, {6, 1}, {7, 0x10000000}, END},
     {{2, 5}, {4, 0x8001}, {5, 0}, {3, 0x00000f0f}, {8, 0xf}, {9, 0xf0000000}, END},
     1},
    /* sext */
    {BOTH,
     "s_sext_i32_i8 s2, s0\ns_sext_i32_i16 s3, s1",
     {{0, 0x1280}, {1, 0x18000}, END},
     {{2, 0xffffff80}, {3, 0xffff8000}, END},
     -1},
    /* gfx12 SALU rounding of f16/f32 */
    {G12,
     "s_ceil_f32 s2, s0\ns_ceil_f16 s3, s1\ns_floor_f16 s4, s5\ns_rndne_f16 s6, s7\n"
     "s_trunc_f16 s8, s9",
     {{0, 0xbfc00000}, {1, 0x3e00}, {5, 0xbe00}, {7, 0x4100}, {9, 0xbf00}, END},
     /* ceil(-1.5) = -1, ceil(1.5) = 2, floor(-1.5) = -2, rndne(2.5) = 2, trunc(-1.75) = -1 */
     {{2, 0xbf800000}, LO16(3, 0x4000), LO16(4, 0xc000), LO16(6, 0x4000), LO16(8, 0xbc00), END},
     -1},

    /* ---- SOPC (integer; gfx12's float compares: test_float_cmp below) ---- */
    /* -1 against 1, signed: lt, le, lg true */
    {BOTH, "s_cmp_lt_i32 s0, s1", {{0, ~0u}, {1, 1}, END}, {END}, 1},
    {BOTH, "s_cmp_le_i32 s0, s1", {{0, ~0u}, {1, 1}, END}, {END}, 1},
    {BOTH, "s_cmp_lg_i32 s0, s1", {{0, ~0u}, {1, 1}, END}, {END}, 1},
    {BOTH, "s_cmp_eq_i32 s0, s1", {{0, ~0u}, {1, 1}, END}, {END}, 0},
    {BOTH, "s_cmp_gt_i32 s0, s1", {{0, ~0u}, {1, 1}, END}, {END}, 0},
    {BOTH, "s_cmp_ge_i32 s0, s1", {{0, ~0u}, {1, 1}, END}, {END}, 0},
    {BOTH, "s_cmp_le_u32 s0, s1", {{0, ~0u}, {1, 1}, END}, {END}, 0},
    {BOTH, "s_cmp_ge_u32 s0, s1", {{0, ~0u}, {1, 1}, END}, {END}, 1},
    {BOTH, "s_cmp_eq_u64 s[0:1], s[2:3]", {{0, 1}, {1, 2}, {2, 1}, {3, 2}, END}, {END}, 1},
    {BOTH, "s_cmp_lg_u64 s[0:1], s[2:3]", {{0, 1}, {1, 2}, {2, 1}, {3, 3}, END}, {END}, 1},
    /* S_BITCMP0/1: SCC = (S0 >> S1[4:0] (b64: [5:0])) & 1 is 0 / 1 */
    {BOTH, "s_bitcmp0_b32 s0, 0", {{0, 2}, END}, {END}, 1},
    {BOTH, "s_bitcmp1_b32 s0, 0", {{0, 2}, END}, {END}, 0},
    {BOTH, "s_bitcmp1_b32 s0, s1", {{0, 2}, {1, 33}, END}, {END}, 1}, /* 33 & 31 = 1 */
    {BOTH, "s_bitcmp0_b32 s0, 31", {{0, 0x80000000u}, END}, {END}, 0},
    {BOTH, "s_bitcmp0_b64 s[0:1], 33", {{0, 0}, {1, 2}, END}, {END}, 0},
    {BOTH, "s_bitcmp1_b64 s[0:1], s2", {{0, 0}, {1, 2}, {2, 97}, END}, {END}, 1}, /* 97 & 63 */
    {BOTH, "s_bitcmp1_b64 s[0:1], 1", {{0, 1}, {1, ~0u}, END}, {END}, 0},

    /* ---- SOPP and SMEM hints: no effect on the state, the next instruction runs ---- */
    {BOTH,
     "s_icache_inv\ns_setprio 1\ns_ttracedata\ns_nop 0\ns_sethalt 0\ns_dcache_inv\n"
     "s_sleep 1\ns_mov_b32 s2, 7",
     {END},
     {{2, 7}, END},
     -1},
    {G11, "s_waitcnt 0\ns_mov_b32 s2, 7", {END}, {{2, 7}, END}, -1},
    {G12, "s_waitcnt 0\ns_wait_storecnt_dscnt 0\ns_mov_b32 s2, 7", {END}, {{2, 7}, END}, -1},
};

static wave *w;
static gmem *mem;
static uint64_t buf;

static void run_case(const scase *c, const char *arch) {
    memset(w, 0, sizeof *w);
    w->mode = 0xf0;
    wave_set_exec(w, c->on & W64 ? ~0ull : 0xffffffffull);
    w->scc = 0;
    for (int i = 0; i < 12 && c->init[i].reg != 0xffff; i++)
        w->s[c->init[i].reg] = c->init[i].val;
    int st = cov_run(w, arch, c->text);
    CHECK(st == WAVE_DONE, "%s [%s]: status %d fault %d op %s", arch, c->text, st, w->fault.kind,
          isa_op_names[w->fault.op]);
    if (st != WAVE_DONE)
        return;
    for (int i = 0; i < 12 && c->expect[i].reg != 0xffff; i++) {
        unsigned r = c->expect[i].reg & ~LO;
        uint32_t m = c->expect[i].reg & LO ? 0xffff : ~0u;
        CHECK((w->s[r] & m) == c->expect[i].val, "%s [%s]: s%u = %08x, want %08x", arch, c->text, r,
              w->s[r] & m, c->expect[i].val);
    }
    if (c->scc >= 0)
        CHECK(w->scc == (uint32_t)c->scc, "%s [%s]: scc %u, want %d", arch, c->text, w->scc,
              c->scc);
}

/* gfx12 S_CMP_*_F32/F16 (RDNA4 ISA SOPC): SCC = the predicate, on pairs of edge values. */
static void test_float_cmp(const char *arch) {
    static const char *const pn[] = {"lt", "eq",  "le",  "gt",  "lg",  "ge",  "o",
                                     "u",  "nge", "nlg", "ngt", "nle", "neq", "nlt"};
    static const uint32_t f32[] = {0x3f800000, 0x40000000, 0x7fc00000, 0x80000000, 0};
    static const uint32_t f16[] = {0x3c00, 0x4000, 0x7e00, 0x8000, 0};
    for (int h = 0; h < 2; h++)
        for (size_t p = 0; p < sizeof pn / sizeof pn[0]; p++)
            for (int i = 0; i < 5; i++)
                for (int j = 0; j < 5; j++) {
                    uint32_t a = h ? f16[i] : f32[i], b = h ? f16[j] : f32[j];
                    double x = h ? cov_h2d(a) : from_bits32(a), y = h ? cov_h2d(b) : from_bits32(b);
                    int lt = x<y, eq = x == y, gt = x> y, un = isnan(x) || isnan(y);
                    int r[14] = {lt, eq,          lt || eq,    gt,  lt || gt,    gt || eq, !un,
                                 un, !(gt || eq), !(lt || gt), !gt, !(lt || eq), !eq,      !lt};
                    char text[64];
                    snprintf(text, sizeof text, "s_cmp_%s_%s s0, s1", pn[p], h ? "f16" : "f32");
                    memset(w, 0, sizeof *w);
                    wave_set_exec(w, 0xffffffffull);
                    w->s[0] = a | (h ? 0xabcd0000u : 0), w->s[1] = b | (h ? 0x12340000u : 0);
                    w->scc = !r[p];
                    int st = cov_run(w, arch, text);
                    CHECK(st == WAVE_DONE && w->scc == (uint32_t)r[p],
                          "%s [%s] %08x %08x: status %d scc %u want %d", arch, text, a, b, st,
                          w->scc, r[p]);
                }
}

/* gfx12 S_LOAD_I8/U8/I16/U16 (RDNA4 ISA SMEM): one byte or halfword at SBASE + offset,
 * sign- or zero-extended. */
static void test_load_sub(const char *arch) {
    static uint8_t lds[64], scratch[64 * 16];
    snippet_mem_reset(w, mem, buf, lds, sizeof lds, scratch, 16);
    uint8_t *p = gmem_xlate(mem, &w->cache, buf, 16);
    memcpy(p, "\x81\xfe\x7f\x80\x34\x92", 6);
    wave_set_exec(w, 0xffffffffull);
    w->s[4] = (uint32_t)buf, w->s[5] = (uint32_t)(buf >> 32);
    int st = cov_run(w, arch,
                     "s_load_i8 s6, s[4:5], 0x0\ns_load_u8 s7, s[4:5], 0x0\n"
                     "s_load_i16 s8, s[4:5], 0x4\ns_load_u16 s9, s[4:5], 0x4\n"
                     "s_load_i16 s10, s[4:5], 0x2\ns_wait_kmcnt 0");
    CHECK(st == WAVE_DONE, "%s s_load_*8/16: status %d", arch, st);
    /* bytes 81 fe 7f 80 34 92: i8 at 0 = -127, u8 = 0x81, i16 at 4 = 0x9234 -> negative,
     * i16 at 2 = 0x807f */
    CHECK(w->s[6] == 0xffffff81 && w->s[7] == 0x81 && w->s[8] == 0xffff9234 && w->s[9] == 0x9234 &&
              w->s[10] == 0xffff807f,
          "%s s_load_*8/16: %08x %08x %08x %08x %08x", arch, w->s[6], w->s[7], w->s[8], w->s[9],
          w->s[10]);
}

/* s_trap stops the wave with a trap fault (no trap handler is modelled), s_sethalt 1 halts it
 * (reported as a halt fault: nothing would resume it). */
static void test_stops(const char *arch) {
    memset(w, 0, sizeof *w);
    wave_set_exec(w, 0xffffffffull);
    int st = cov_run(w, arch, "s_mov_b32 s2, 1\ns_trap 2\ns_mov_b32 s2, 2");
    CHECK(st == WAVE_FAULT && w->fault.kind == XF_TRAP && w->s[2] == 1, "%s s_trap: %d %d %u", arch,
          st, w->fault.kind, w->s[2]);
    memset(w, 0, sizeof *w);
    wave_set_exec(w, 0xffffffffull);
    st = cov_run(w, arch, "s_mov_b32 s2, 1\ns_sethalt 1\ns_mov_b32 s2, 2");
    CHECK(st == WAVE_FAULT && w->fault.kind == XF_HALT && w->s[2] == 1, "%s s_sethalt 1: %d %d %u",
          arch, st, w->fault.kind, w->s[2]);
}

int main(void) {
    w = calloc(1, sizeof *w);
    mem = gmem_create();
    buf = gmem_alloc(mem, 4096, 0);
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        const scase *c = &cases[i];
        if (c->on & G11)
            run_case(c, c->on & W64 ? "gfx1100:wavefrontsize64" : "gfx1100");
        if (c->on & G12)
            run_case(c, c->on & W64 ? "gfx1201:wavefrontsize64" : "gfx1201");
    }
    test_float_cmp("gfx1201");
    test_load_sub("gfx1201");
    test_stops("gfx1100");
    test_stops("gfx1201");
    gmem_destroy(mem);
    free(w);
    return check_summary("test_rdna_cov_salu");
}
