/* test_rdna_alu.c - the second RDNA execution slice (src/exec/rdna.c rows, src/exec/rdna_alu.c)
 * on llvm-mc-22 snippets for gfx1100 and gfx1201: DPP16 (row_shr with and without bound_ctrl,
 * fi, row_share, row_xmask, quad_perm, a VOP3 DPP form) and DPP8 in wave32 with lanes 16-31
 * active, true16 halves (sources, destinations, the kept other half, v_fmac_f16's accumulator),
 * gfx12's minimumNumber/maximumNumber ops and gfx11's IEEE-mode min/max, SALU float ops,
 * s_round_mode/s_denorm_mode, s_sendmsg_rtn, wave32 ds_bpermute, f32 atomic max, s_mul_u64.
 * Expected values are worked out by hand from the RDNA3/RDNA4 ISA pseudocode, not taken from
 * gfxemu runs; the few hardware-verified RDNA3 cases (test_rdna_hw below) are input -> output
 * facts from tinygrad's test/amd/hw, rewritten as snippets here. */
#include "common/bits.h"
#include "common/check.h"
#include "common/snippet.h"
#include "exec/exec.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static snippet_rig rig; /* buf: 256 bytes, dword i = 0x1000 + i */
static wave *const w = &rig.wv;

/* Registers 0, v0 = 100 + lane, the wave's lanes on (32 or 64), MODE keeping denormals. */
static void reset(int wave64) { snippet_rig_lanes(&rig, wave64, 100); }

static int run(const char *arch, const char *text) { return snippet_rig_run(&rig, arch, text); }

/* v1 lane by lane against want(l) for lanes 0-31 (wave32); lanes 32-63 must keep `keep`. */
static int lanes_bad(unsigned reg, const uint32_t *want, uint32_t keep) {
    int bad = 0;
    for (unsigned l = 0; l < 64; l++) {
        uint32_t exp = l < 32 ? want[l] : keep;
        if (w->v[reg][l] != exp && bad++ < 3)
            printf("  lane %u: v%u %08x want %08x\n", l, reg, w->v[reg][l], exp);
    }
    return bad;
}

/* DPP16 and DPP8 (RDNA3 ISA "DPP16", "DPP8"): rows of 16 lanes, so lanes 16-31 of a wave32
 * wave form row 1. */
static void t_dpp(const char *a) {
    uint32_t want[32];
    /* row_shr:1: lane i of a row reads i-1; lane 0 of each row has no source: not written
     * (bound_ctrl off) or written 0 (bound_ctrl:1) */
    reset(0);
    for (unsigned l = 0; l < 64; l++)
        w->v[1][l] = 0x55;
    CHECK(run(a, "v_mov_b32_dpp v1, v0 row_shr:1 row_mask:0xf bank_mask:0xf") == WAVE_DONE,
          "%s row_shr", a);
    for (unsigned l = 0; l < 32; l++)
        want[l] = l % 16 ? 100 + l - 1 : 0x55;
    CHECK(lanes_bad(1, want, 0x55) == 0, "%s row_shr:1", a);
    reset(0);
    for (unsigned l = 0; l < 64; l++)
        w->v[1][l] = 0x55;
    CHECK(run(a, "v_mov_b32_dpp v1, v0 row_shr:1 row_mask:0xf bank_mask:0xf bound_ctrl:1") ==
              WAVE_DONE,
          "%s row_shr bc", a);
    for (unsigned l = 0; l < 32; l++)
        want[l] = l % 16 ? 100 + l - 1 : 0;
    CHECK(lanes_bad(1, want, 0x55) == 0, "%s row_shr:1 bound_ctrl:1", a);

    /* a source lane outside EXEC is invalid unless fi:1 (fetch inactive) reads it anyway;
     * lanes 3 and 20 off: lanes 4 and 21 read them */
    reset(0);
    w->s[ISA_SREG_EXEC_LO] = ~((1u << 3) | (1u << 20));
    for (unsigned l = 0; l < 64; l++)
        w->v[1][l] = 0x55;
    CHECK(run(a, "v_mov_b32_dpp v1, v0 row_shr:1 row_mask:0xf bank_mask:0xf") == WAVE_DONE,
          "%s row_shr exec", a);
    CHECK(w->v[1][4] == 0x55 && w->v[1][21] == 0x55 && w->v[1][3] == 0x55 && w->v[1][5] == 104 &&
              w->v[1][22] == 121,
          "%s row_shr:1 inactive source: %u %u %u %u", a, w->v[1][4], w->v[1][21], w->v[1][5],
          w->v[1][22]);
    reset(0);
    w->s[ISA_SREG_EXEC_LO] = ~((1u << 3) | (1u << 20));
    CHECK(run(a, "v_mov_b32_dpp v1, v0 row_shr:1 row_mask:0xf bank_mask:0xf fi:1") == WAVE_DONE,
          "%s row_shr fi", a);
    CHECK(w->v[1][4] == 103 && w->v[1][21] == 120 && w->v[1][3] == 0, "%s row_shr:1 fi:1: %u %u %u",
          a, w->v[1][4], w->v[1][21], w->v[1][3]);

    /* row_share:3: every lane of a row reads the row's lane 3; row_xmask:5: lane i ^ 5 */
    reset(0);
    CHECK(run(a, "v_mov_b32_dpp v1, v0 row_share:3 row_mask:0xf bank_mask:0xf\n"
                 "v_mov_b32_dpp v2, v0 row_xmask:5 row_mask:0xf bank_mask:0xf") == WAVE_DONE,
          "%s share", a);
    for (unsigned l = 0; l < 32; l++)
        want[l] = 100 + (l & ~15u) + 3;
    CHECK(lanes_bad(1, want, 0) == 0, "%s row_share:3", a);
    for (unsigned l = 0; l < 32; l++)
        want[l] = 100 + (l ^ 5);
    CHECK(lanes_bad(2, want, 0) == 0, "%s row_xmask:5", a);

    /* row_mask: rows cleared are not written */
    reset(0);
    CHECK(run(a, "v_mov_b32_dpp v1, v0 quad_perm:[3,2,1,0] row_mask:0x2 bank_mask:0xf") ==
              WAVE_DONE,
          "%s row_mask", a);
    for (unsigned l = 0; l < 32; l++)
        want[l] = l < 16 ? 0 : 100 + (l & ~3u) + 3 - (l & 3);
    CHECK(lanes_bad(1, want, 0) == 0, "%s quad_perm row_mask:0x2", a);

    /* DPP8: lane l reads lane 7 - l%8 of its group of 8; an inactive source reads 0 unless fi */
    reset(0);
    w->s[ISA_SREG_EXEC_LO] = ~(1u << 19);
    for (unsigned l = 0; l < 64; l++)
        w->v[1][l] = w->v[2][l] = 0x55;
    CHECK(run(a, "v_mov_b32_dpp v1, v0 dpp8:[7,6,5,4,3,2,1,0]\n"
                 "v_mov_b32_dpp v2, v0 dpp8:[7,6,5,4,3,2,1,0] fi:1") == WAVE_DONE,
          "%s dpp8", a);
    for (unsigned l = 0; l < 32; l++)
        want[l] = l == 19 ? 0x55 : l == 20 ? 0 : 100 + (l & ~7u) + 7 - (l & 7);
    CHECK(lanes_bad(1, want, 0x55) == 0, "%s dpp8", a);
    want[20] = 119;
    CHECK(lanes_bad(2, want, 0x55) == 0, "%s dpp8 fi:1", a);

    /* DPP in arithmetic: VOP2 and VOP3 (e64_dpp) forms permute src0 only */
    reset(0);
    for (unsigned l = 0; l < 64; l++)
        w->v[2][l] = bits32(0.5f), w->v[3][l] = 1000;
    w->s[0] = 7;
    for (unsigned l = 0; l < 64; l++)
        w->v[4][l] = bits32((float)l);
    CHECK(run(a, "v_add_f32_dpp v1, v4, v2 quad_perm:[1,0,3,2] row_mask:0xf bank_mask:0xf\n"
                 "v_add3_u32_e64_dpp v5, v0, v3, s0 row_ror:1 row_mask:0xf bank_mask:0xf") ==
              WAVE_DONE,
          "%s dpp arith", a);
    for (unsigned l = 0; l < 32; l++)
        want[l] = bits32((float)(l ^ 1) + 0.5f);
    CHECK(lanes_bad(1, want, 0) == 0, "%s v_add_f32_dpp quad_perm", a);
    for (unsigned l = 0; l < 32; l++)
        want[l] = 100 + (l & ~15u) + ((l - 1) & 15) + 1000 + 7;
    CHECK(lanes_bad(5, want, 0) == 0, "%s v_add3_u32_e64_dpp row_ror:1", a);
}

static uint32_t h(float f) {
    /* f16 bits of the few exact values used below */
    if (f == 1.5f)
        return 0x3e00;
    if (f == 2.0f)
        return 0x4000;
    if (f == 0.25f)
        return 0x3400;
    if (f == 3.5f)
        return 0x4300;
    if (f == 3.25f)
        return 0x4280;
    abort();
}

/* gfx11 true16: the halves named by .l/.h; a 16-bit result keeps the other half. */
static void t_true16(void) {
    const char *a = "gfx1100";
    reset(0);
    for (unsigned l = 0; l < 64; l++) {
        w->v[1][l] = 0xaaaabbbb;
        w->v[2][l] = h(2.0f) << 16 | h(1.5f);
        w->v[3][l] = 0x1234 << 16 | h(2.0f);
        w->v[4][l] = 0x7777 << 16 | h(0.25f);
        w->v[5][l] = 0x8001c000u;
        w->v[6][l] = 0x5555aaaau;
    }
    CHECK(run(a, "v_add_f16 v1.h, v2.l, v2.h\n"
                 "v_fmac_f16 v4.l, v2.l, v3.l\n"
                 "v_cvt_f32_f16 v7, v2.h\n"
                 "v_cvt_i32_i16 v8, v5.h\n"
                 "v_lshlrev_b16 v6.l, 4, v5.h\n"
                 "v_add_nc_u16 v9.h, v5.l, v5.h") == WAVE_DONE,
          "true16");
    int bad = 0;
    for (unsigned l = 0; l < 32; l++)
        bad += w->v[1][l] != (h(3.5f) << 16 | 0xbbbb) || w->v[4][l] != (0x7777u << 16 | h(3.25f)) ||
               w->v[7][l] != bits32(2.0f) || w->v[8][l] != 0xffff8001u ||
               w->v[6][l] != 0x55550010u || w->v[9][l] != 0x4001u << 16;
    CHECK(bad == 0,
          "true16: v1 %08x (want 4300bbbb) v4 %08x (77774280) v7 %08x v8 %08x v6 %08x v9 %08x",
          w->v[1][0], w->v[4][0], w->v[7][0], w->v[8][0], w->v[6][0], w->v[9][0]);
    CHECK(w->v[1][40] == 0xaaaabbbb, "true16: lane 40 written (%08x)", w->v[1][40]);

    /* v_cvt_f16_f32 into a high half keeps the low one; partial EXEC */
    reset(0);
    w->s[ISA_SREG_EXEC_LO] = 0xffff0000u;
    for (unsigned l = 0; l < 64; l++)
        w->v[1][l] = 0x9999, w->v[2][l] = bits32(1.5f);
    CHECK(run(a, "v_cvt_f16_f32 v1.h, v2") == WAVE_DONE, "cvt f16 .h");
    bad = 0;
    for (unsigned l = 0; l < 32; l++)
        bad += w->v[1][l] != (l >= 16 ? h(1.5f) << 16 | 0x9999 : 0x9999u);
    CHECK(bad == 0, "true16 v_cvt_f16_f32 v1.h: %d lanes wrong (lane 16 %08x)", bad, w->v[1][16]);

    /* gfx12 (fake16): whole registers, low halves; the result keeps bits 31:16 */
    reset(0);
    for (unsigned l = 0; l < 64; l++)
        w->v[1][l] = 0xabcd0000u, w->v[2][l] = h(1.5f), w->v[3][l] = 0xffff0000u | h(2.0f);
    CHECK(run("gfx1201", "v_add_f16 v1, v2, v3") == WAVE_DONE, "fake16");
    CHECK(w->v[1][5] == (0xabcd0000u | h(3.5f)), "gfx12 v_add_f16: %08x", w->v[1][5]);
}

/* v10..v13 = a, b, c, d in every lane (VOP3 reads at most two scalar values) */
static void set4(uint32_t a, uint32_t b, uint32_t c, uint32_t d) {
    for (unsigned l = 0; l < 64; l++)
        w->v[10][l] = a, w->v[11][l] = b, w->v[12][l] = c, w->v[13][l] = d;
}

/* gfx12 IEEE 754-2019 minimumNumber/maximumNumber (RDNA4 ISA V_MAX_NUM_F32): a NaN operand
 * gives the other one (signalling or not), two NaNs a quiet NaN; -0 < +0.  gfx11 V_MAX_F32
 * in IEEE mode: a signalling NaN gives a quiet NaN. */
static void t_minmax(void) {
    static const struct {
        uint32_t a, b, max, min;
    } c[] = {
        {0x7fc00000u, 0x3f800000u, 0x3f800000u, 0x3f800000u}, /* qNaN, 1 */
        {0x3f800000u, 0x7f800001u, 0x3f800000u, 0x3f800000u}, /* 1, sNaN */
        {0x7f800001u, 0x7fc00002u, 0x7fc00001u, 0x7fc00001u}, /* sNaN, qNaN: S0 quieted */
        {0x80000000u, 0x00000000u, 0x00000000u, 0x80000000u}, /* -0, +0 */
        {0xc0000000u, 0x3f800000u, 0x3f800000u, 0xc0000000u}, /* -2, 1 */
    };
    for (size_t i = 0; i < sizeof c / sizeof c[0]; i++) {
        reset(0);
        w->s[0] = c[i].a, w->s[1] = c[i].b;
        w->v[2][3] = 1;
        CHECK(run("gfx1201", "v_max_num_f32_e64 v1, s0, s1\nv_min_num_f32_e64 v2, s0, s1") ==
                  WAVE_DONE,
              "num %zu", i);
        CHECK(w->v[1][3] == c[i].max && w->v[2][3] == c[i].min,
              "v_max/min_num_f32(%08x, %08x): %08x %08x, want %08x %08x", c[i].a, c[i].b,
              w->v[1][3], w->v[2][3], c[i].max, c[i].min);
    }
    /* med3_num with a NaN is min3_num; maxmin_num = min(max(a, b), c) */
    reset(0);
    set4(bits32(2.0f), 0x7fc00000u, bits32(1.0f), bits32(5.0f));
    CHECK(run("gfx1201", "v_med3_num_f32 v1, v10, v11, v12\nv_maxmin_num_f32 v2, v10, v13, v12\n"
                         "v_minmax_num_f32 v3, v13, v11, v10") == WAVE_DONE,
          "med3_num");
    CHECK(w->v[1][0] == bits32(1.0f) && w->v[2][0] == bits32(1.0f) && w->v[3][0] == bits32(5.0f),
          "v_med3_num_f32 %08x v_maxmin_num_f32 %08x v_minmax_num_f32 %08x", w->v[1][0], w->v[2][0],
          w->v[3][0]);
    /* gfx11: IEEE mode on, a signalling NaN input gives a quiet NaN; off, the other operand */
    reset(0);
    w->mode |= 1u << 9;
    set4(0x7f800001u, bits32(1.0f), bits32(3.0f), bits32(5.0f));
    CHECK(run("gfx1100", "v_max_f32_e64 v1, v10, v11\nv_maxmin_f32 v2, v11, v13, v12\n"
                         "v_minmax_f32 v3, v13, v11, v12") == WAVE_DONE,
          "gfx11 max");
    CHECK(w->v[1][0] == 0x7fc00001u && w->v[2][0] == bits32(3.0f) && w->v[3][0] == bits32(3.0f),
          "gfx11 IEEE v_max_f32 %08x v_maxmin_f32 %08x v_minmax_f32 %08x", w->v[1][0], w->v[2][0],
          w->v[3][0]);
    reset(0);
    w->s[0] = 0x7f800001u, w->s[1] = bits32(1.0f);
    CHECK(run("gfx1100", "v_max_f32_e64 v1, s0, s1") == WAVE_DONE && w->v[1][0] == bits32(1.0f),
          "gfx11 non-IEEE v_max_f32: %08x", w->v[1][0]);
    /* omod is ignored while MODE.IEEE is set (hardware value, tinygrad test/amd/hw
     * test_omod_ignored: v_add_f32 3 + 1 mul:2 = 4 on RDNA3); without IEEE it scales, and gfx12
     * has no IEEE mode */
    for (int ieee = 0; ieee < 2; ieee++) {
        reset(0);
        w->mode = ieee ? w->mode | 1u << 9 : w->mode & ~(1u << 9);
        w->v[10][0] = bits32(3.0f);
        CHECK(run("gfx1100", "v_add_f32_e64 v1, v10, 1.0 mul:2") == WAVE_DONE &&
                  w->v[1][0] == bits32(ieee ? 4.0f : 8.0f),
              "gfx11 IEEE %d v_add_f32 mul:2: %08x", ieee, w->v[1][0]);
    }
    reset(0);
    w->mode |= 1u << 9;
    w->v[10][0] = bits32(3.0f);
    CHECK(run("gfx1201", "v_add_f32_e64 v1, v10, 1.0 mul:2") == WAVE_DONE &&
              w->v[1][0] == bits32(8.0f),
          "gfx12 v_add_f32 mul:2: %08x", w->v[1][0]);
    /* v_xor3_b32, v_maxmin_i32/u32 */
    reset(0);
    set4(0xf0f0u, 0x0ff0u, (uint32_t)-5, 7);
    CHECK(run("gfx1100", "v_xor3_b32 v1, v10, v11, 0xff\nv_maxmin_i32 v2, v12, v13, 3\n"
                         "v_maxmin_u32 v3, v12, v13, 3") == WAVE_DONE,
          "int3");
    CHECK(w->v[1][0] == (0xf0f0u ^ 0x0ff0u ^ 0xffu) && w->v[2][0] == 3 && w->v[3][0] == 3,
          "v_xor3 %08x v_maxmin_i32 %d v_maxmin_u32 %u", w->v[1][0], w->v[2][0], w->v[3][0]);
}

/* gfx12 SALU float (RDNA4 ISA "SALU floating point"): round to nearest even, float -> int
 * conversions saturate and give 0 for NaN, compares set SCC with the unordered rule. */
static void t_salu_float(void) {
    const char *a = "gfx1201";
    reset(0);
    w->s[0] = bits32(1.5f), w->s[1] = bits32(2.25f), w->s[4] = bits32(0.5f), w->s[5] = bits32(3.0f);
    w->s[6] = bits32(3e9f), w->s[7] = 0x7fc00000u, w->s[8] = bits32(-3.75f), w->s[9] = 0x40003c00u;
    CHECK(run(a, "s_add_f32 s10, s0, s1\ns_mul_f32 s11, s0, s1\ns_fmac_f32 s4, s5, 2.0\n"
                 "s_cvt_i32_f32 s12, s6\ns_cvt_i32_f32 s13, s7\ns_cvt_i32_f32 s14, s8\n"
                 "s_cvt_u32_f32 s15, s8\ns_cvt_f16_f32 s16, s0\ns_cvt_hi_f32_f16 s17, s9\n"
                 "s_cvt_f32_f16 s18, s9\ns_fmaak_f32 s19, s0, s1, 0x40000000\n"
                 "s_max_num_f32 s20, s7, s1\ns_add_f16 s21, s9, s9\ns_cvt_f32_i32 s22, s8\n"
                 "s_floor_f32 s23, s8\ns_rndne_f32 s24, s8") == WAVE_DONE,
          "salu float");
    CHECK(w->s[10] == bits32(3.75f) && w->s[11] == bits32(3.375f) && w->s[4] == bits32(6.5f),
          "s_add/s_mul/s_fmac_f32: %08x %08x %08x", w->s[10], w->s[11], w->s[4]);
    CHECK(w->s[12] == 0x7fffffffu && w->s[13] == 0 && w->s[14] == (uint32_t)-3 && w->s[15] == 0,
          "s_cvt_i32/u32_f32: %08x %08x %08x %08x", w->s[12], w->s[13], w->s[14], w->s[15]);
    CHECK(w->s[16] == 0x3e00 && w->s[17] == bits32(2.0f) && w->s[18] == bits32(1.0f),
          "s_cvt_f16_f32 %08x s_cvt_hi_f32_f16 %08x s_cvt_f32_f16 %08x", w->s[16], w->s[17],
          w->s[18]);
    CHECK(w->s[19] == bits32(5.375f) && w->s[20] == bits32(2.25f) && w->s[21] == 0x4000,
          "s_fmaak_f32 %08x s_max_num_f32 %08x s_add_f16 %08x", w->s[19], w->s[20], w->s[21]);
    CHECK(w->s[22] == bits32(-1066401792.0f) /* 0xc0700000 as an int */ &&
              w->s[23] == bits32(-4.0f) && w->s[24] == bits32(-4.0f),
          "s_cvt_f32_i32 %08x s_floor %08x s_rndne %08x", w->s[22], w->s[23], w->s[24]);
    /* compares: ordered ones false with a NaN, the "n" ones true */
    reset(0);
    w->s[0] = 0x7fc00000u, w->s[1] = bits32(1.0f), w->s[2] = bits32(2.0f);
    CHECK(run(a, "s_cmp_lt_f32 s0, s1\ns_cselect_b32 s10, 1, 0\ns_cmp_nge_f32 s0, s1\n"
                 "s_cselect_b32 s11, 1, 0\ns_cmp_lt_f32 s1, s2\ns_cselect_b32 s12, 1, 0\n"
                 "s_cmp_u_f32 s1, s2\ns_cselect_b32 s13, 1, 0") == WAVE_DONE,
          "s_cmp f32");
    CHECK(w->s[10] == 0 && w->s[11] == 1 && w->s[12] == 1 && w->s[13] == 0,
          "s_cmp_*_f32: %u %u %u %u", w->s[10], w->s[11], w->s[12], w->s[13]);
    /* v_s_rcp_f32 (VOP3, scalar result), s_mul_u64 */
    reset(0);
    w->s[0] = bits32(4.0f), w->s[2] = 0x12345678u, w->s[3] = 1, w->s[4] = 0x10, w->s[5] = 0;
    CHECK(run(a, "v_s_rcp_f32 s1, s0\ns_mul_u64 s[6:7], s[2:3], s[4:5]") == WAVE_DONE, "v_s_rcp");
    CHECK(w->s[1] == bits32(0.25f) && w->s[6] == 0x23456780u && w->s[7] == 0x11,
          "v_s_rcp_f32 %08x s_mul_u64 %08x:%08x", w->s[1], w->s[7], w->s[6]);
}

/* s_round_mode / s_denorm_mode write MODE[3:0] / MODE[7:4]; s_sendmsg_rtn answers in SDST. */
static void t_sopp(const char *a) {
    reset(0);
    w->mode = 0x2f0;
    w->s[0] = 0xdead;
    CHECK(run(a, "s_round_mode 0x3\ns_denorm_mode 0x5\n"
                 "s_sendmsg_rtn_b32 s0, sendmsg(MSG_RTN_GET_DOORBELL)\n"
                 "s_sendmsg_rtn_b64 s[2:3], sendmsg(MSG_RTN_GET_REALTIME)\n"
                 "s_sendmsg_rtn_b64 s[4:5], sendmsg(MSG_RTN_GET_REALTIME)\n"
                 "s_sendmsg sendmsg(MSG_INTERRUPT)\ns_mov_b32 s6, 1") == WAVE_DONE,
          "%s sopp", a);
    uint64_t t0 = w->s[2] | (uint64_t)w->s[3] << 32, t1 = w->s[4] | (uint64_t)w->s[5] << 32;
    CHECK(w->mode == 0x253 && w->s[0] == 0 && t0 != 0 && t1 >= t0 && w->s[6] == 1,
          "%s mode %03x doorbell %x realtime %llu %llu", a, w->mode, w->s[0],
          (unsigned long long)t0, (unsigned long long)t1);
}

/* wave32 ds_bpermute: the lane index wraps at 32 (lane 31 reading "lane 32" gets lane 0). */
static void t_lds(const char *a) {
    reset(0);
    for (unsigned l = 0; l < 64; l++)
        w->v[2][l] = (l + 1) * 4;
    CHECK(run(a, "ds_bpermute_b32 v1, v2, v0") == WAVE_DONE, "%s bpermute", a);
    uint32_t want[32];
    for (unsigned l = 0; l < 32; l++)
        want[l] = 100 + ((l + 1) & 31);
    CHECK(lanes_bad(1, want, 0) == 0, "%s wave32 ds_bpermute_b32", a);
}

/* f32 atomic max: MEM = the larger of MEM and DATA; lanes 0-3 on dwords 0-3 of buf */
static void t_atomic(const char *a, int g12) {
    reset(0);
    w->s[ISA_SREG_EXEC_LO] = 0xf;
    w->s[0] = (uint32_t)rig.buf, w->s[1] = (uint32_t)(rig.buf >> 32);
    float init[4] = {1.0f, -2.0f, 5.0f, 0.0f}, data[4] = {3.0f, -3.0f, 4.0f, -0.5f};
    gmem_cache gc = {0};
    uint32_t *p = gmem_xlate(rig.mem, &gc, rig.buf, 16);
    for (unsigned l = 0; l < 4; l++)
        p[l] = bits32(init[l]), w->v[2][l] = l * 4, w->v[3][l] = bits32(data[l]);
    CHECK(run(a, g12 ? "global_atomic_max_num_f32 v2, v3, s[0:1]"
                     : "global_atomic_max_f32 v2, v3, s[0:1]") == WAVE_DONE,
          "%s atomic", a);
    CHECK(p[0] == bits32(3.0f) && p[1] == bits32(-2.0f) && p[2] == bits32(5.0f) &&
              p[3] == bits32(0.0f),
          "%s global_atomic_max_f32: %08x %08x %08x %08x", a, p[0], p[1], p[2], p[3]);
}

/* Hardware-verified RDNA3 cases (facts from tinygrad's test/amd/hw, checked on real gfx11
 * GPUs), one lane each: 16-bit writes keep the other half, op_sel / .h sources, the
 * transcendental unit's revolutions, round-half-even, truncating conversion. */
static void t_hw(void) {
    static const struct {
        const char *text;
        uint32_t v0, v1, v2;
        int reg;
        uint32_t want;
    } c[] = {
        {"v_mov_b16_e32 v0.h, 0x5678", 0x0000dead, 0, 0, 0, 0x5678dead},
        {"v_cvt_f16_f32_e32 v1.l, v0", 0x3f800000, 0xdead0000, 0, 1, 0xdead3c00},
        {"v_cvt_f16_f32_e32 v0.l, v0", 0x3f800000, 0, 0, 0, 0x3f803c00},
        {"v_cvt_i16_f16_e64 v1.l, v0.h", 0x3c000000, 0, 0, 1, 1},
        {"v_mul_f16_e64 v1.l, v0.h, v0.h", 0x40003c00, 0, 0, 1, 0x4400},
        {"v_fma_f16 v0.h, v1.l, v2.l, v0.h", 0x3c000000, 0x4000, 0x4200, 0, 0x47000000},
        {"v_cvt_f32_f16_e64 v0, -v1.l", 0, 0x4000, 0, 0, 0xc0000000},
        {"v_sin_f32_e32 v1, v0", 0x3e800000 /* 0.25 turns */, 0, 0, 1, 0x3f800000},
        {"v_rndne_f32_e32 v1, v0", 0x40200000 /* 2.5 */, 0, 0, 1, 0x40000000},
        {"v_rndne_f32_e32 v1, v0", 0x40600000 /* 3.5 */, 0, 0, 1, 0x40800000},
        {"v_fract_f32_e32 v1, v0", 0x40700000 /* 3.75 */, 0, 0, 1, 0x3f400000},
        {"v_cvt_i32_f32_e32 v1, v0", 0xc22acccd /* -42.7 */, 0, 0, 1, (uint32_t)-42},
        /* VOP3P inline constants are 32-bit values whose halves op_sel_hi picks: an f16 one
         * zero-extended, for the integer ops a float one's f32 bits (hardware values, tinygrad
         * test/amd/hw test_v_pk_add_f16_with_inline_constant, test_v_pk_mul_f16_with_inline_
         * constant, test_v_pk_add_u16_float_inline_const_opsel) */
        {"v_pk_add_f16 v1, v0, 1.0", 0x3c003c00, 0, 0, 1, 0x3c004000},
        {"v_pk_mul_f16 v1, v0, 2.0", 0x44004200, 0, 0, 1, 0x00004600},
        {"v_pk_add_u16 v1, v0, 2.0", 0x00030005, 0, 0, 1, 0x40030005},
    };
    for (size_t i = 0; i < sizeof c / sizeof c[0]; i++) {
        reset(0);
        w->s[ISA_SREG_EXEC_LO] = 1;
        w->v[0][0] = c[i].v0, w->v[1][0] = c[i].v1, w->v[2][0] = c[i].v2;
        CHECK(run("gfx1100", c[i].text) == WAVE_DONE && w->v[c[i].reg][0] == c[i].want,
              "hw '%s': v%d %08x, want %08x", c[i].text, c[i].reg, w->v[c[i].reg][0], c[i].want);
    }
}

/* v_div_scale_f32/f64 where RDNA3 hardware departs from the manual's pseudocode (hardware
 * values, tinygrad test/amd/hw TestDivScale / TestDivScaleF64): zero operands give NaN with VCC
 * set, a tiny numerator (exponent <= 23) is scaled by 2^64 with VCC set.  Their kernel ran with
 * LLVM's default .amdhsa_float_denorm_mode_32 (0, flush), under which a denormal denominator
 * counts as zero: MODE flushes f32 here for that case only. */
static void t_hw_divscale(void) {
    static const struct {
        const char *text;
        uint32_t v0, v1, want, vcc;
        int ftz;
    } c[] = {
        /* test_div_scale_f32_zero_denom_gives_nan */
        {"v_div_scale_f32 v2, vcc_lo, v0, v1, v0", 0x3f800000, 0, 0x7fc00000, 1, 0},
        /* test_div_scale_f32_zero_numer_gives_nan (and -0) */
        {"v_div_scale_f32 v2, vcc_lo, v0, v1, v0", 0, 0x3f800000, 0x7fc00000, 1, 0},
        {"v_div_scale_f32 v2, vcc_lo, v0, v1, v0", 0x80000000, 0x3f800000, 0x7fc00000, 1, 0},
        /* test_div_scale_f32_tiny_numer_exp_le_23: 2^-126 * 2^64 */
        {"v_div_scale_f32 v2, vcc_lo, v0, v1, v0", 0x00800000, 0x3f800000, 0x20800000, 1, 0},
        /* test_div_scale_f32_denorm_denom (f32 denormals flushed) */
        {"v_div_scale_f32 v2, vcc_lo, v1, v1, v0", 0x3f800000, 0x00000001, 0x7fc00000, 1, 1},
        /* test_div_scale_f32_large_exp_diff_scales_denom: 1.0 * 2^64 */
        {"v_div_scale_f32 v2, vcc_lo, v1, v1, v0", 0x7f7fffff, 0x3f800000, 0x5f800000, 1, 0},
        /* test_div_scale_f32_result_would_be_denorm: S0 kept */
        {"v_div_scale_f32 v2, vcc_lo, v0, v1, v0", 0x3f800000, 0x7f000000, 0x3f800000, 1, 0},
        /* test_div_scale_f32_vcc_zero_single_lane: nothing to scale */
        {"v_div_scale_f32 v2, vcc_lo, v0, v1, v0", 0x40000000, 0x40800000, 0x40000000, 0, 0},
    };
    for (size_t i = 0; i < sizeof c / sizeof c[0]; i++) {
        reset(0);
        w->s[ISA_SREG_EXEC_LO] = 1;
        w->s[ISA_SREG_VCC_LO] = c[i].vcc ? 0 : 1;
        if (c[i].ftz)
            w->mode &= ~0x30u; /* MODE FP_DENORM [5:4]: f32 in and out flushed */
        w->v[0][0] = c[i].v0, w->v[1][0] = c[i].v1;
        int ok = run("gfx1100", c[i].text) == WAVE_DONE;
        uint32_t got = w->v[2][0];
        int nan = (c[i].want & 0x7fffffff) > 0x7f800000;
        CHECK(ok && (nan ? (got & 0x7fffffff) > 0x7f800000 : got == c[i].want) &&
                  w->s[ISA_SREG_VCC_LO] == c[i].vcc,
              "hw '%s' (%08x, %08x): v2 %08x vcc %u, want %08x vcc %u", c[i].text, c[i].v0, c[i].v1,
              got, w->s[ISA_SREG_VCC_LO], c[i].want, c[i].vcc);
    }
    /* test_div_scale_f64_mixed_vcc_per_lane: numerator 2.0, denominator 2.0 in lanes 0 and 2,
     * 0.0 in lanes 1 and 3: VCC 0b1010, NaN where the denominator is zero */
    reset(0);
    w->s[ISA_SREG_EXEC_LO] = 0xf;
    for (unsigned l = 0; l < 4; l++)
        w->v[0][l] = 0, w->v[1][l] = 0x40000000, w->v[2][l] = 0,
        w->v[3][l] = l & 1 ? 0 : 0x40000000;
    int ok = run("gfx1100", "v_div_scale_f64 v[4:5], vcc_lo, v[0:1], v[2:3], v[0:1]") == WAVE_DONE;
    CHECK(ok && w->s[ISA_SREG_VCC_LO] == 0xa, "hw v_div_scale_f64 mixed: vcc %x, want a",
          w->s[ISA_SREG_VCC_LO]);
    for (unsigned l = 0; l < 4; l++) {
        uint64_t d = w->v[4][l] | (uint64_t)w->v[5][l] << 32;
        CHECK(l & 1 ? (d & ~(1ull << 63)) > 0x7ff0000000000000ull : d == 0x4000000000000000ull,
              "hw v_div_scale_f64 mixed lane %u: %016llx", l, (unsigned long long)d);
    }
    /* a tiny f64 numerator (exponent <= 53, quotient below 2^-128): 2^-1000 scaled by 2^128,
     * VCC set, as the f32 hardware value above (no f64 hardware value for it) */
    reset(0);
    w->s[ISA_SREG_EXEC_LO] = 1;
    w->v[0][0] = 0, w->v[1][0] = 0x01700000, w->v[2][0] = 0, w->v[3][0] = 0x3ff00000;
    ok = run("gfx1100", "v_div_scale_f64 v[4:5], vcc_lo, v[0:1], v[2:3], v[0:1]") == WAVE_DONE;
    CHECK(ok && w->s[ISA_SREG_VCC_LO] == 1 && w->v[4][0] == 0 && w->v[5][0] == 0x09700000,
          "v_div_scale_f64 tiny numerator: %08x%08x vcc %u", w->v[5][0], w->v[4][0],
          w->s[ISA_SREG_VCC_LO]);
}

int main(void) {
    if (snippet_rig_open(&rig) != 0)
        return 1;
    const char *t[] = {"gfx1100", "gfx1201"};
    for (int i = 0; i < 2; i++) {
        t_dpp(t[i]);
        t_sopp(t[i]);
        t_lds(t[i]);
        t_atomic(t[i], i == 1);
    }
    t_true16();
    t_minmax();
    t_salu_float();
    t_hw();
    t_hw_divscale();
    /* every RUN/AS row names a CDNA op that has a handler */
    const uint16_t *miss;
    unsigned nmiss = x_rdna_missing(&miss);
    CHECK(nmiss == 0, "%u allowlist rows without a handler, first %s", nmiss,
          nmiss ? isa_op_names[miss[0]] : "");
    snippet_rig_close(&rig);
    return check_summary("test_rdna_alu");
}
