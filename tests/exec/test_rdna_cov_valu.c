/* test_rdna_cov_valu.c - RDNA VALU ops (VOP1/VOP2/VOP3/VOPD) the opcode coverage audit found
 * executed by no test (docs/testing.md), on llvm-mc-22 encodings for gfx1100 and gfx1201, one
 * lane in wave32 (lane 0 on, lane 1 off: its destination must keep its value).  Every expected
 * value is worked out by hand from the RDNA3/RDNA4 ISA pseudocode; the derivation is in the
 * comment of each case.  16-bit results are compared in their low half only (gfx11 true16
 * keeps the other half, gfx12 fake16 forms are not specified here). */
#include "common/check.h"
#include "common/cov.h"

enum { G11 = 1, G12 = 2, BOTH = 3 };
typedef struct {
    unsigned reg; /* VGPR number; | S for an SGPR, | H to compare the low 16 bits only */
    uint32_t val;
} rv;
#define S 0x100u
#define H 0x200u
#define END {0xffff, 0}
typedef struct {
    int on;
    const char *text;
    rv init[6];
    rv expect[3];
} vcase;

static const vcase cases[] = {
    /* 16-bit integer: add wraps (no clamp), bit ops, max/min signed and unsigned */
    {BOTH, "v_add_nc_i16 v1, v0, v2", {{0, 0x7fff}, {2, 1}, END}, {{1 | H, 0x8000}, END}},
    {BOTH,
     "v_and_b16 v1, v0, v2\nv_or_b16 v3, v0, v2\nv_xor_b16 v4, v0, v2",
     {{0, 0xff0f}, {2, 0x0ff0}, END},
     {{1 | H, 0x0f00}, {3 | H, 0xffff}, {4 | H, 0xf0ff}}},
    {BOTH,
     "v_max_i16 v1, v0, v2\nv_max_u16 v3, v0, v2",
     {{0, 0xffff}, {2, 5}, END},
     {{1 | H, 5}, {3 | H, 0xffff}, END}},
    {BOTH,
     "v_min_i16 v1, v0, v2\nv_min_u16 v3, v0, v2",
     {{0, 0xffff}, {2, 5}, END},
     {{1 | H, 0xffff}, {3 | H, 5}, END}},
    /* mad: -3 * 4 + 5 = -7; 0xffff * 0xffff + 1 = 0xfffe0002; -2 * 3 + 1 = -5 */
    {BOTH, "v_mad_i16 v1, v0, v2, v3", {{0, 0xfffd}, {2, 4}, {3, 5}, END}, {{1 | H, 0xfff9}, END}},
    {BOTH,
     "v_mad_u32_u16 v1, v0, v2, v3",
     {{0, 0xffff}, {2, 0xffff}, {3, 1}, END},
     {{1, 0xfffe0002}, END}},
    {BOTH,
     "v_mad_i32_i16 v1, v0, v2, v3",
     {{0, 0xfffe}, {2, 3}, {3, 1}, END},
     {{1, 0xfffffffb}, END}},
    /* 24-bit: S0[23:0] = -1: -1 * 5 + 10 = 5; mul_hi: (-1 * 2) >> 32 = -1, and
     * 0xffffff^2 = 0xffff_fe000001, >> 32 = 0xffff */
    {BOTH, "v_mad_i32_i24 v1, v0, v2, v3", {{0, 0x12ffffff}, {2, 5}, {3, 10}, END}, {{1, 5}, END}},
    {BOTH,
     "v_mul_hi_i32_i24 v1, v0, v2\nv_mul_hi_u32_u24 v3, v0, v0",
     {{0, 0xffffff}, {2, 2}, END},
     {{1, 0xffffffff}, {3, 0xffff}, END}},
    {BOTH, "v_bfm_b32 v1, v0, v2", {{0, 4}, {2, 8}, END}, {{1, 0xf00}, END}},
    /* f16 rounding: ceil(-1.5) = -1, floor(1.5) = 1, trunc(-2.5) = -2, rndne(2.5) = 2,
     * fract(2.75) = 0.75 */
    {BOTH,
     "v_ceil_f16 v1, v0\nv_floor_f16 v3, v2\nv_trunc_f16 v4, v5",
     {{0, 0xbe00}, {2, 0x3e00}, {5, 0xc100}, END},
     {{1 | H, 0xbc00}, {3 | H, 0x3c00}, {4 | H, 0xc000}}},
    {BOTH,
     "v_rndne_f16 v1, v0\nv_fract_f16 v3, v2",
     {{0, 0x4100}, {2, 0x4180}, END},
     {{1 | H, 0x4000}, {3 | H, 0x3a00}, END}},
    /* frexp(8) = 0.5 * 2^4; ldexp(1.5, 3) = 12 */
    {BOTH,
     "v_frexp_exp_i16_f16 v1, v0\nv_frexp_mant_f16 v3, v0\nv_ldexp_f16 v4, v2, v5",
     {{0, 0x4800}, {2, 0x3e00}, {5, 3}, END},
     {{1 | H, 4}, {3 | H, 0x3800}, {4 | H, 0x4a00}}},
    /* div_fixup: finite operands give S0 back; a zero denominator S1 gives sign(S1^S2) inf */
    {BOTH,
     "v_div_fixup_f16 v1, v0, v2, v3\nv_div_fixup_f16 v4, v0, v5, v3",
     {{0, 0x3e00}, {2, 0x4000}, {3, 0x4200}, {5, 0}, END},
     {{1 | H, 0x3e00}, {4 | H, 0x7c00}, END}},
    /* cube map, (x, y, z) = (1, 2, -3): -z face: id 5, sc = -x, tc = -y, ma = 2z */
    {BOTH,
     "v_cubeid_f32 v1, v0, v2, v3\nv_cubesc_f32 v4, v0, v2, v3\nv_cubetc_f32 v5, v0, v2, v3",
     {{0, 0x3f800000}, {2, 0x40000000}, {3, 0xc0400000}, END},
     {{1, 0x40a00000}, {4, 0xbf800000}, {5, 0xc0000000}}},
    {BOTH,
     "v_cubema_f32 v1, v0, v2, v3",
     {{0, 0x3f800000}, {2, 0x40000000}, {3, 0xc0400000}, END},
     {{1, 0xc0c00000}, END}},
    /* conversions: i16 -2 -> f16 -2; f16 3.75 -> u16 3 (truncate); sign/zero extension */
    {BOTH,
     "v_cvt_f16_i16 v1, v0\nv_cvt_u16_f16 v3, v2",
     {{0, 0xfffe}, {2, 0x4380}, END},
     {{1 | H, 0xc000}, {3 | H, 3}, END}},
    {BOTH,
     "v_cvt_i32_i16 v1, v0\nv_cvt_u32_u16 v3, v0",
     {{0, 0xdead8000}, END},
     {{1, 0xffff8000}, {3, 0x8000}, END}},
    /* bytes of 0x11223344: 0x33 = 51, 0x22 = 34, 0x11 = 17 */
    {BOTH,
     "v_cvt_f32_ubyte1 v1, v0\nv_cvt_f32_ubyte2 v3, v0\nv_cvt_f32_ubyte3 v4, v0",
     {{0, 0x11223344}, END},
     {{1, 0x424c0000}, {3, 0x42080000}, {4, 0x41880000}}},
    /* floor(-1.5) = -2; nearest = floor(x + 0.5): 2.5 -> 3 */
    {BOTH,
     "v_cvt_floor_i32_f32 v1, v0\nv_cvt_nearest_i32_f32 v3, v2",
     {{0, 0xbfc00000}, {2, 0x40200000}, END},
     {{1, 0xfffffffe}, {3, 3}, END}},
    /* snorm/unorm of +-1 and a clamped 2: 0x7fff, 0x8001 (-32767), 0xffff */
    {BOTH,
     "v_cvt_norm_i16_f16 v1, v0\nv_cvt_norm_u16_f16 v3, v0\nv_cvt_norm_i16_f16 v4, v2",
     {{0, 0x3c00}, {2, 0xbc00}, END},
     {{1 | H, 0x7fff}, {3 | H, 0xffff}, {4 | H, 0x8001}}},
    {BOTH,
     "v_cvt_pk_norm_i16_f32 v1, v0, v2\nv_cvt_pk_norm_u16_f32 v3, v0, v4",
     {{0, 0x3f800000}, {2, 0xbf800000}, {4, 0}, END},
     {{1, 0x80017fff}, {3, 0x0000ffff}, END}},
    /* off_f32_i4: S0[3:0] as a signed 4-bit number / 16: 0xf = -1/16, 0x7 = 7/16 */
    {BOTH,
     "v_cvt_off_f32_i4 v1, v0\nv_cvt_off_f32_i4 v3, v2",
     {{0, 0xf}, {2, 0x17}, END},
     {{1, 0xbd800000}, {3, 0x3ee00000}, END}},
    /* pk_u8: byte S1[1:0] of S2 replaced by u8(S0): 200 into byte 2 */
    {BOTH,
     "v_cvt_pk_u8_f32 v1, v0, v2, v3",
     {{0, 0x43480000}, {2, 2}, {3, 0x11223344}, END},
     {{1, 0x11c83344}, END}},
    /* pack: {S1.f16, S0.f16} */
    {BOTH,
     "v_pack_b32_f16 v1, v0, v2",
     {{0, 0x12343c00}, {2, 0x4000}, END},
     {{1, 0x40003c00}, END}},
    /* 3-operand min/max/median of (-1, 5, 3) as i32, u32 (0xffffffff largest), i16, u16 */
    {BOTH,
     "v_max3_i32 v1, v0, v2, v3\nv_min3_i32 v4, v0, v2, v3\nv_med3_i32 v5, v0, v2, v3",
     {{0, 0xffffffff}, {2, 5}, {3, 3}, END},
     {{1, 5}, {4, 0xffffffff}, {5, 3}}},
    {BOTH,
     "v_max3_u32 v1, v0, v2, v3\nv_min3_u32 v4, v0, v2, v3\nv_med3_u32 v5, v0, v2, v3",
     {{0, 0xffffffff}, {2, 5}, {3, 3}, END},
     {{1, 0xffffffff}, {4, 3}, {5, 5}}},
    {BOTH,
     "v_max3_i16 v1, v0, v2, v3\nv_min3_i16 v4, v0, v2, v3\nv_med3_i16 v5, v0, v2, v3",
     {{0, 0xffff}, {2, 5}, {3, 3}, END},
     {{1 | H, 5}, {4 | H, 0xffff}, {5 | H, 3}}},
    {BOTH,
     "v_max3_u16 v1, v0, v2, v3\nv_min3_u16 v4, v0, v2, v3\nv_med3_u16 v5, v0, v2, v3",
     {{0, 0xffff}, {2, 5}, {3, 3}, END},
     {{1 | H, 0xffff}, {4 | H, 3}, {5 | H, 5}}},
    /* floats (-1, 5, 3); gfx12 names them _num_ (IEEE 754-2019 maximumNumber) */
    {G11,
     "v_max3_f32 v1, v0, v2, v3\nv_min3_f32 v4, v0, v2, v3\nv_med3_f32 v5, v0, v2, v3",
     {{0, 0xbf800000}, {2, 0x40a00000}, {3, 0x40400000}, END},
     {{1, 0x40a00000}, {4, 0xbf800000}, {5, 0x40400000}}},
    {G12,
     "v_max3_num_f32 v1, v0, v2, v3\nv_min3_num_f32 v4, v0, v2, v3\nv_med3_num_f32 v5, v0, v2, v3",
     {{0, 0xbf800000}, {2, 0x40a00000}, {3, 0x40400000}, END},
     {{1, 0x40a00000}, {4, 0xbf800000}, {5, 0x40400000}}},
    {G11,
     "v_max3_f16 v1, v0, v2, v3\nv_min3_f16 v4, v0, v2, v3\nv_med3_f16 v5, v0, v2, v3",
     {{0, 0xbc00}, {2, 0x4500}, {3, 0x4200}, END},
     {{1 | H, 0x4500}, {4 | H, 0xbc00}, {5 | H, 0x4200}}},
    {G12,
     "v_max3_num_f16 v1, v0, v2, v3\nv_min3_num_f16 v4, v0, v2, v3\nv_med3_num_f16 v5, v0, v2, v3",
     {{0, 0xbc00}, {2, 0x4500}, {3, 0x4200}, END},
     {{1 | H, 0x4500}, {4 | H, 0xbc00}, {5 | H, 0x4200}}},
    {G11, "v_min_f16 v1, v0, v2", {{0, 0xbc00}, {2, 0x4500}, END}, {{1 | H, 0xbc00}, END}},
    {G12, "v_min_num_f16 v1, v0, v2", {{0, 0xbc00}, {2, 0x4500}, END}, {{1 | H, 0xbc00}, END}},
    /* maxmin = min(max(S0, S1), S2), minmax = max(min(S0, S1), S2): (3, 9, 1) -> 1 and 3;
     * signed (-3, 9, 1) -> 1 and 1 */
    {BOTH,
     "v_maxmin_u32 v1, v0, v2, v3\nv_minmax_u32 v4, v0, v2, v3",
     {{0, 3}, {2, 9}, {3, 1}, END},
     {{1, 1}, {4, 3}, END}},
    {BOTH,
     "v_minmax_i32 v1, v0, v2, v3\nv_maxmin_i32 v4, v0, v2, v3",
     {{0, 0xfffffffd}, {2, 9}, {3, 1}, END},
     {{1, 1}, {4, 1}, END}},
    /* f16 (1, 3, 0.5): maxmin = min(3, 0.5) = 0.5, minmax = max(1, 0.5) = 1 */
    {G11,
     "v_maxmin_f16 v1, v0, v2, v3\nv_minmax_f16 v4, v0, v2, v3",
     {{0, 0x3c00}, {2, 0x4200}, {3, 0x3800}, END},
     {{1 | H, 0x3800}, {4 | H, 0x3c00}, END}},
    {G12,
     "v_maxmin_num_f16 v1, v0, v2, v3\nv_minmax_num_f16 v4, v0, v2, v3",
     {{0, 0x3c00}, {2, 0x4200}, {3, 0x3800}, END},
     {{1 | H, 0x3800}, {4 | H, 0x3c00}, END}},
    /* lerp: per byte (S0 + S1 + S2 bit 8i) >> 1 */
    {BOTH,
     "v_lerp_u8 v1, v0, v2, v3",
     {{0, 0x01020304}, {2, 0x03040506}, {3, 0x01000100}, END},
     {{1, 0x02030405}, END}},
    /* SAD over bytes |0x40-0x50| + |0x30-0x20| + |0x20-0x10| + |0x10-0| = 64; msad skips the
     * bytes where S1 is 0; sad_hi adds sum << 16; sad_u32 |5 - 12| + 1 */
    {BOTH,
     "v_sad_u8 v1, v0, v2, v3\nv_msad_u8 v4, v0, v2, v3\nv_sad_hi_u8 v5, v0, v2, v3",
     {{0, 0x10203040}, {2, 0x00102050}, {3, 100}, END},
     {{1, 164}, {4, 148}, {5, 0x400064}}},
    {BOTH, "v_sad_u32 v1, v0, v2, v3", {{0, 5}, {2, 12}, {3, 1}, END}, {{1, 8}, END}},
    /* xad (S0 ^ S1) + S2; xor3 */
    {BOTH,
     "v_xad_u32 v1, v0, v2, v3\nv_xor3_b32 v4, v0, v2, v5",
     {{0, 0xff}, {2, 0x0f}, {3, 0x10}, {5, 1}, END},
     {{1, 0x100}, {4, 0xf1}, END}},
    /* alignbyte: ({S0, S1} >> 8 * S2[1:0])[31:0] */
    {BOTH,
     "v_alignbyte_b32 v1, v0, v2, v3",
     {{0, 0x11223344}, {2, 0x55667788}, {3, 1}, END},
     {{1, 0x44556677}, END}},
    /* subrev: S1 - S0; the carry-out is the borrow */
    {BOTH,
     "v_subrev_co_u32 v1, vcc_lo, v0, v2\ns_mov_b32 s2, vcc_lo",
     {{0, 7}, {2, 5}, END},
     {{1, 0xfffffffe}, {2 | S, 1}, END}},
    {BOTH,
     "v_subrev_f32 v1, v0, v2\nv_subrev_f16 v3, v4, v5",
     {{0, 0x40400000}, {2, 0x3f800000}, {4, 0x4200}, {5, 0x3c00}, END},
     {{1, 0xc0000000}, {3 | H, 0xc000}, END}},
    /* dx9: 0 * anything, even inf, is +0 */
    {BOTH, "v_mul_dx9_zero_f32 v1, v0, v2", {{0, 0}, {2, 0x7f800000}, END}, {{1, 0}, END}},
    /* fmaak: S0 * S1 + K = 2 * 0.5 + 3 */
    {BOTH,
     "v_fmaak_f32 v1, v0, v2, 0x40400000",
     {{0, 0x40000000}, {2, 0x3f000000}, END},
     {{1, 0x40800000}, END}},
    /* trig_preop(1.0, 0): the first 53 bits of 2/pi (0.A2F9836E4E441|529F... in hex; the
     * dropped bits start with 0, so this is also 2/pi rounded) */
    {BOTH,
     "v_trig_preop_f64 v[2:3], v[0:1], v4",
     {{0, 0}, {1, 0x3ff00000}, {4, 0}, END},
     {{2, 0x6dc9c882}, {3, 0x3fe45f30}, END}},
    /* VOPD: both halves, Y-only ops (add_nc_u32, and, lshlrev) and the X ops no kernel pairs */
    {BOTH,
     "v_dual_fmaak_f32 v1, v0, v5, 0x40400000 :: v_dual_add_nc_u32 v2, v6, v7",
     {{0, 0x40000000}, {5, 0x3f000000}, {6, 5}, {7, 7}, END},
     {{1, 0x40800000}, {2, 12}, END}},
    {BOTH,
     "v_dual_mul_dx9_zero_f32 v1, v0, v5 :: v_dual_and_b32 v2, v6, v7",
     {{0, 0}, {5, 0x7f800000}, {6, 5}, {7, 7}, END},
     {{1, 0}, {2, 5}, END}},
    {BOTH,
     "v_dual_subrev_f32 v1, v0, v5 :: v_dual_lshlrev_b32 v2, v6, v7",
     {{0, 0x40000000}, {5, 0x3f000000}, {6, 5}, {7, 7}, END},
     {{1, 0xbfc00000}, {2, 224}, END}},
    {G11,
     "v_dual_min_f32 v1, v0, v5 :: v_dual_mov_b32 v2, v6",
     {{0, 0x40000000}, {5, 0x3f000000}, {6, 5}, END},
     {{1, 0x3f000000}, {2, 5}, END}},
    {G12,
     "v_dual_min_num_f32 v1, v0, v5 :: v_dual_mov_b32 v2, v6",
     {{0, 0x40000000}, {5, 0x3f000000}, {6, 5}, END},
     {{1, 0x3f000000}, {2, 5}, END}},
    /* gfx12 transcendentals to an SGPR: exp2(3) = 8, log2(8) = 3, rsq(4) = 0.5, sqrt(16) = 4 */
    {G12,
     "v_s_exp_f32 s1, s0\nv_s_log_f32 s2, s3\nv_s_rsq_f32 s4, s5\nv_s_sqrt_f32 s6, s7",
     {{0 | S, 0x40400000}, {3 | S, 0x41000000}, {5 | S, 0x40800000}, {7 | S, 0x41800000}, END},
     {{1 | S, 0x41000000}, {2 | S, 0x40400000}, {4 | S, 0x3f000000}}},
    {G12, "v_s_sqrt_f32 s6, s7", {{7 | S, 0x41800000}, END}, {{6 | S, 0x40800000}, END}},
};

static wave *w;

static void run_case(const vcase *c, const char *arch) {
    memset(w, 0, sizeof *w);
    w->mode = 0xf0;
    wave_set_exec(w, 1); /* lane 0 on, lane 1 off */
    for (int r = 0; r < 16; r++)
        w->v[r][1] = 0xdead0000u + (uint32_t)r;
    for (int i = 0; i < 6 && c->init[i].reg != 0xffff; i++) {
        if (c->init[i].reg & S)
            w->s[c->init[i].reg & 0xff] = c->init[i].val;
        else
            w->v[c->init[i].reg][0] = c->init[i].val;
    }
    int st = cov_run(w, arch, c->text);
    CHECK(st == WAVE_DONE, "%s [%s]: status %d fault %d op %s", arch, c->text, st, w->fault.kind,
          isa_op_names[w->fault.op]);
    if (st != WAVE_DONE)
        return;
    for (int i = 0; i < 3 && c->expect[i].reg != 0xffff; i++) {
        unsigned r = c->expect[i].reg & 0xff;
        uint32_t m = c->expect[i].reg & H ? 0xffff : ~0u;
        uint32_t got = c->expect[i].reg & S ? w->s[r] : w->v[r][0];
        CHECK((got & m) == c->expect[i].val, "%s [%s]: %s%u = %08x, want %08x", arch, c->text,
              c->expect[i].reg & S ? "s" : "v", r, got & m, c->expect[i].val);
        if (!(c->expect[i].reg & S))
            CHECK(w->v[r][1] == 0xdead0000u + r, "%s [%s]: inactive lane 1 v%u changed to %08x",
                  arch, c->text, r, w->v[r][1]);
    }
}

int main(void) {
    w = calloc(1, sizeof *w);
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        if (cases[i].on & G11)
            run_case(&cases[i], "gfx1100");
        if (cases[i].on & G12)
            run_case(&cases[i], "gfx1201");
    }
    /* v_movrelsd_b32 (RDNA3 ISA VOP1): D = v[dst + M0] = v[src + M0], M0 = 2: v3 = v2 */
    for (int g = 0; g < 2; g++) {
        memset(w, 0, sizeof *w);
        wave_set_exec(w, 1);
        w->s[ISA_SREG_M0] = 2;
        w->v[2][0] = 0x1234;
        const char *arch = g ? "gfx1201" : "gfx1100";
        int st = cov_run(w, arch, "v_movrelsd_b32 v1, v0");
        CHECK(st == WAVE_DONE && w->v[3][0] == 0x1234 && w->v[1][0] == 0,
              "%s v_movrelsd_b32: status %d v3 %08x v1 %08x", arch, st, w->v[3][0], w->v[1][0]);
    }
    free(w);
    return check_summary("test_rdna_cov_valu");
}
