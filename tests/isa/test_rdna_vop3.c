/* test_rdna_vop3.c - RDNA VOP3, VOP3P and VOPD words assembled by hand from the field layouts of
 * the RDNA3/RDNA4 ISA manuals ("VOP3", "VOP3 SDST", "VOP3P", "VOPD", "DPP16"), with the decoded
 * fields checked against the values put in and the text against LLVM 22's syntax (the random
 * sweep in test_sweep.c compares everything else with LLVM itself).
 *
 * VOP3: w0 = 110101 op[25:16] clamp[15] op_sel[14:11] abs[10:8] vdst[7:0];
 *       w1 = neg[31:29] omod[28:27] src2[26:18] src1[17:9] src0[8:0] (VGPR n = 256 + n). */
#include "common/check.h"
#include "isa/isa.h"

#include <string.h>

#define VOP3(op, mods, vdst) (0xd4000000u | ((op) << 16) | ((mods) << 8) | (vdst))
#define SRCS(s0, s1, s2) ((s0) | ((s1) << 9) | ((s2) << 18))
#define V(n) (256u + (n))

/* `avail` bytes of `w` decoded */
static void expect_n(isa_arch a, const uint32_t *w, size_t avail, size_t want_size,
                     const char *want) {
    isa_inst in;
    char text[512];
    size_t n = isa_decode(a, (const uint8_t *)w, avail, &in);
    if (n)
        isa_print(&in, text, sizeof text);
    else
        strcpy(text, "<illegal>");
    CHECK(n == want_size && strcmp(text, want) == 0, "%s %08x %08x: [%zu] '%s', want [%zu] '%s'",
          isa_arch_name(a), w[0], w[1], n, text, want_size, want);
}

static void expect(isa_arch a, const uint32_t *w, size_t want_size, const char *want) {
    expect_n(a, w, 16, want_size, want);
}

int main(void) {
    /* v_add_f16 is VOP2 opcode 0x32 on gfx11; its VOP3 form is 0x100 + 0x32.  16-bit operands
     * are true16 halves: op_sel bit k selects the high half of source k, bit 3 of vdst. */
    uint32_t w[4] = {VOP3(0x132, 0, 5), SRCS(V(1), V(2), 0), 0, 0};
    expect(ISA_GFX1100, w, 8, "v_add_f16_e64 v5.l, v1.l, v2.l");
    w[0] = VOP3(0x132, 0x40, 5); /* op_sel[3]: the result goes to v5's high half */
    expect(ISA_GFX1100, w, 8, "v_add_f16_e64 v5.h, v1.l, v2.l op_sel:[0,0,1]");
    w[0] = VOP3(0x132, 0x08, 5); /* op_sel[0]: src0 reads v1's high half */
    expect(ISA_GFX1100, w, 8, "v_add_f16_e64 v5.l, v1.h, v2.l op_sel:[1,0,0]");
    {
        isa_inst in;
        CHECK(isa_decode(ISA_GFX1100, (const uint8_t *)w, 16, &in) == 8 &&
                  in.src[0].kind == ISA_OPND_VGPR && in.src[0].idx == 1 &&
                  in.src[0].imm == ISA_HALF_H && in.dst[0].imm == ISA_HALF_L,
              "op_sel[0] decodes to src0 = v1.h");
    }
    w[0] = VOP3(0x132, 0x80, 5); /* clamp, abs(src0), neg(src0), omod = 1 (x2) */
    w[1] = SRCS(V(1), V(2), 0) | (1u << 29) | (1u << 27);
    w[0] |= 0x100;
    expect(ISA_GFX1100, w, 8, "v_add_f16_e64 v5.l, -|v1.l|, v2.l clamp mul:2");
    /* a 2-source true16 op has no op_sel[2]: LLVM then decodes its fake16 form (plain VGPRs,
     * op_sel not shown) */
    w[0] = VOP3(0x132, 0x20, 5);
    w[1] = SRCS(V(1), V(2), 0);
    expect(ISA_GFX1100, w, 8, "v_add_f16_e64 v5, v1, v2");

    /* VOPC in VOP3 form: v_cmp_eq_f32 (VOPC 0x12) writes the SGPR in the vdst field (wave32: one
     * SGPR); v_cmpx_* writes EXEC and needs vdst = 126 (exec_lo), anything else is illegal */
    w[0] = VOP3(0x012, 0, 5);
    expect(ISA_GFX1100, w, 8, "v_cmp_eq_f32_e64 s5, v1, v2");
    w[0] = VOP3(0x089, 0, 126); /* v_cmpx_nge_f16 */
    w[1] = SRCS(8, V(128), 0) | (2u << 29);
    expect(ISA_GFX1100, w, 8, "v_cmpx_nge_f16_e64 s8, -v128.l");
    w[0] = VOP3(0x089, 0, 40);
    expect(ISA_GFX1100, w, 0, "<illegal>");

    /* VOP3 SDST: v_add_co_u32 (0x300), carry-out SGPR in w0[14:8] */
    w[0] = VOP3(0x300, 3, 5);
    w[1] = SRCS(V(1), V(2), 0);
    expect(ISA_GFX1100, w, 8, "v_add_co_u32 v5, s3, v1, v2");
    expect(ISA_GFX1201, w, 8, "v_add_co_u32 v5, s3, v1, v2");

    /* a literal (src0 = 255) follows the two dwords; 0.5 is inlinable, so LLVM marks it lit() */
    w[0] = VOP3(0x103, 0, 5); /* v_add_f32 */
    w[1] = SRCS(255, V(2), 0);
    w[2] = 0x3f000000;
    expect(ISA_GFX1100, w, 12, "v_add_f32_e64 v5, lit(0x3f000000), v2");

    /* DPP16: src0 = 0xFA, the third dword holds src0's VGPR and the DPP controls */
    w[1] = SRCS(0xfa, V(2), 0);
    w[2] = 0xff00e400 | 1; /* quad_perm identity, row/bank masks 0xf, src0 = v1 */
    expect(ISA_GFX1100, w, 12,
           "v_add_f32_e64_dpp v5, v1, v2 quad_perm:[0,1,2,3] row_mask:0xf bank_mask:0xf");
    /* DPP8 with fi (0xEA): lane selectors 3 bits each from dword bit 8 */
    w[1] = SRCS(0xea, V(2), 0);
    w[2] = 1 | (7u << 8) | (1u << 11);
    expect(ISA_GFX1100, w, 12, "v_add_f32_e64_dpp v5, v1, v2 dpp8:[7,1,0,0,0,0,0,0] fi:1");

    /* gfx12 v_cvt_sr_fp8_f32 (0x36b): op_sel[3:2] are read as byte_sel */
    w[0] = VOP3(0x36b, 0x20, 5);
    w[1] = SRCS(V(1), V(16), 0);
    expect(ISA_GFX1201, w, 8, "v_cvt_sr_fp8_f32 v5, v1, v16 byte_sel:1");

    /* VOPD: X = v_dual_max_f32 (10), Y = v_dual_min_f32 (11); vdsty = w1[23:17] << 1 | !vdstx[0]
     * = 54 << 1 | 1 = 109 */
    w[0] = 0xc8000000u | (10u << 22) | (11u << 17) | (48u << 9) | V(147);
    w[1] = (234u << 24) | (54u << 17) | (170u << 9) | V(71);
    expect(ISA_GFX1100, w, 8, "v_dual_max_f32 v234, v147, v48 :: v_dual_min_f32 v109, v71, v170");
    /* X = v_dual_fmaak_f32 (1) reads the literal K after vsrc1; Y = v_dual_cndmask_b32 (9) */
    w[0] = 0xc8000000u | (1u << 22) | (9u << 17) | (94u << 9) | V(202);
    w[1] = (83u << 24) | (71u << 17) | (40u << 9) | 78;
    w[2] = 0xf6f22f41;
    expect(ISA_GFX1100, w, 12,
           "v_dual_fmaak_f32 v83, v202, v94, 0xf6f22f41 :: v_dual_cndmask_b32 v142, s78, v40");

    /* Words the CI's random sweep found, with LLVM 22's text.  v_fma_mix* under the GFX9 VOP3P
     * prefix (0xd3a...) is also a gfx12 VIMAGE word: with twelve bytes LLVM reads a legal image
     * atomic, with eight (and on gfx11) the alias; a BVH opcode stays the alias. */
    uint32_t mix[4] = {0xd3a13355, 0x00e2b915, 0xf5c0f057, 0};
    expect_n(ISA_GFX1201, mix, 12, 12,
             "image_atomic_min_flt v21, [v87, v240, v192, v245], v[92:99]/*Invalid register, "
             "operand has 'SReg_256_XNULL' register class*/ dmask:0xe dim:SQ_RSRC_IMG_2D_ARRAY "
             "th:TH_ATOMIC_0x6 r128 a16 tfe");
    expect_n(ISA_GFX1201, mix, 8, 8, "v_fma_mixlo_f16 v85, |v21|, |v92|, s56 op_sel:[0,1,1]");
    expect_n(ISA_GFX1100, mix, 12, 8, "v_fma_mixlo_f16 v85, |v21|, |v92|, s56 op_sel:[0,1,1]");
    uint32_t bvh[4] = {0xd3a03218, 0xc1028435, 0xa7d6b2f8, 0};
    expect_n(ISA_GFX1201, bvh, 12, 8, "v_fma_mix_f32 v24, s53, -|v66|, -s64 op_sel:[0,1,1]");
    /* the DPP forms of v_dot2_f32_f16/bf16 check src1's literal as one 16-bit value and print it
     * whole */
    uint32_t dot[4] = {0xcc1a8b0d, 0x940dfee9, 0xae5251e3, 0x30bcfff6};
    expect(ISA_GFX1201, dot, 16,
           "v_dot2_f32_bf16_e64_dpp v13, v227, lit(0x30bcfff6), v3 op_sel:[1,0,0] "
           "op_sel_hi:[0,1,0] neg_lo:[0,0,1] neg_hi:[1,1,0] clamp dpp8:[1,2,1,1,5,4,3,5]");
    uint32_t dot16[4] = {0xcc13000d, 0x0c0dfee9, 0x00fac6e3, 0x12345678};
    expect(ISA_GFX1100, dot16, 16,
           "v_dot2_f32_f16_e64_dpp v13, v227, 0x12345678, v3 op_sel_hi:[1,0,0] "
           "dpp8:[6,0,3,5,7,1,0,0]");
    dot16[3] = 0x12343c00;
    expect(ISA_GFX1201, dot16, 16,
           "v_dot2_f32_f16_e64_dpp v13, v227, lit(0x12343c00), v3 op_sel_hi:[1,0,0] "
           "dpp8:[6,0,3,5,7,1,0,0]");
    /* v_fma_mixlo_f16 DPP16 with dpp_ctrl 0xff reads one more dword, and a literal src2 is that
     * dword: 16 bytes, not 20 */
    uint32_t mixdpp[4] = {0xcc21afe3, 0x9bfeb8fa, 0xfc74ff96, 0x67a920b4};
    const char *mixdpp_text =
        "v_fma_mixlo_f16_e64_dpp v227, |v150|, |v92|, -|0x20b4| op_sel:[1,0,1] "
        "op_sel_hi:[1,1,0] clamp /* Invalid dpp_ctrl value */ row_mask:0xf bank_mask:0xc fi:1";
    expect(ISA_GFX1100, mixdpp, 16, mixdpp_text);
    expect(ISA_GFX1201, mixdpp, 16, mixdpp_text);
    /* DPP8 selector fields of 128..208 and 240..248: for some ops (generator flag
     * VR_DPP8_INLINE / V3R_DPP8_INLINE) LLVM 22 prints the lanes of that inline constant's
     * 32-bit value, for others the bits themselves */
    uint32_t d8[4] = {0x7fc218e9, 0x0000c52d, 0, 0}; /* v_cvt_nearest_i32_f32, 0xc5 = -5 */
    expect(ISA_GFX1100, d8, 8, "v_cvt_nearest_i32_f32_dpp v225, v45 dpp8:[3,7,7,7,7,7,7,7]");
    d8[0] = 0x7fc202e9; /* v_mov_b32: the bits */
    expect(ISA_GFX1100, d8, 8, "v_mov_b32_dpp v225, v45 dpp8:[5,0,3,0,0,0,0,0]");
    d8[0] = 0x7e0a40e9, d8[1] = 0x0000f82d; /* v_fract_f32, 0xf8 = 1/(2*pi), 0x3e22f983 */
    expect(ISA_GFX1201, d8, 8, "v_fract_f32_dpp v5, v45 dpp8:[3,0,6,4,7,5,0,1]");
    uint32_t d8p[4] = {0xcc210005, 0x040e04e9, 0x0000f22d, 0}; /* 0xf2 = 1.0, 0x3f800000 */
    expect(ISA_GFX1201, d8p, 12, "v_fma_mixlo_f16_e64_dpp v5, v45, v2, v3 dpp8:[0,0,0,0,0,0,0,4]");
    return check_summary("test_rdna_vop3");
}
