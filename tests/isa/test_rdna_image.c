/* test_rdna_image.c - RDNA image (gfx1100 MIMG, gfx1201 VIMAGE/VSAMPLE) and VINTERP encodings:
 * golden lines (assembled with llvm-mc-22 from the text beside them) decoded and printed by gfxemu
 * and, word for word, by LLVM 22 through the oracle, so a golden line that LLVM would not print
 * fails too; edge encodings (NSA with 1..4 extra addresses, every dim, a16/d16/tfe, gather4, BVH,
 * data registers where no widened tuple fits, illegal fixed fields) compared with the oracle; and
 * decoded fields checked against the values put in.
 *
 * MIMG (gfx11): w0 = 111100 op[25:18] d16[17] a16[16] r128[15] glc[14] dlc[13] slc[12]
 * dmask[11:8] unorm[7] dim[4:2] nsa[0]; w1 = ssamp[30:26] lwe[22] tfe[21] srsrc[20:16]
 * vdata[15:8] vaddr[7:0]; w2 (nsa) = vaddr1..4. */
#include "common/check.h"
#include "common/llvm_oracle.h"
#include "isa/isa.h"

#include <stdio.h>
#include <string.h>

static const struct {
    isa_arch arch;
    uint32_t w[4];
    size_t size;
    const char *text;
} golden[] = {
    {ISA_GFX1100,
     {0xf0000f04, 0x00020004, 0x00000000, 0x00000000},
     8,
     "image_load v[0:3], v[4:5], s[8:15] dmask:0xf dim:SQ_RSRC_IMG_2D"},
    {ISA_GFX1100,
     {0xf0000100, 0x00020501, 0x00000000, 0x00000000},
     8,
     "image_load v5, v1, s[8:15] dmask:0x1 dim:SQ_RSRC_IMG_1D"},
    {ISA_GFX1100,
     {0xf0000708, 0x00020501, 0x00000000, 0x00000000},
     8,
     "image_load v[5:7], v[1:3], s[8:15] dmask:0x7 dim:SQ_RSRC_IMG_3D"},
    {ISA_GFX1100,
     {0xf000030c, 0x00020501, 0x00000000, 0x00000000},
     8,
     "image_load v[5:6], v[1:3], s[8:15] dmask:0x3 dim:SQ_RSRC_IMG_CUBE"},
    {ISA_GFX1100,
     {0xf0000210, 0x00020501, 0x00000000, 0x00000000},
     8,
     "image_load v5, v[1:2], s[8:15] dmask:0x2 dim:SQ_RSRC_IMG_1D_ARRAY"},
    {ISA_GFX1100,
     {0xf0000414, 0x00020501, 0x00000000, 0x00000000},
     8,
     "image_load v5, v[1:3], s[8:15] dmask:0x4 dim:SQ_RSRC_IMG_2D_ARRAY"},
    {ISA_GFX1100,
     {0xf0000818, 0x00020501, 0x00000000, 0x00000000},
     8,
     "image_load v5, v[1:3], s[8:15] dmask:0x8 dim:SQ_RSRC_IMG_2D_MSAA"},
    {ISA_GFX1100,
     {0xf000011c, 0x00020501, 0x00000000, 0x00000000},
     8,
     "image_load v5, v[1:4], s[8:15] dmask:0x1 dim:SQ_RSRC_IMG_2D_MSAA_ARRAY"},
    {ISA_GFX1100,
     {0xf0010304, 0x00020501, 0x00000000, 0x00000000},
     8,
     "image_load v[5:6], v1, s[8:15] dmask:0x3 dim:SQ_RSRC_IMG_2D a16"},
    {ISA_GFX1100,
     {0xf0020304, 0x00020501, 0x00000000, 0x00000000},
     8,
     "image_load v5, v[1:2], s[8:15] dmask:0x3 dim:SQ_RSRC_IMG_2D d16"},
    {ISA_GFX1100,
     {0xf0000f04, 0x00220501, 0x00000000, 0x00000000},
     8,
     "image_load v[5:9], v[1:2], s[8:15] dmask:0xf dim:SQ_RSRC_IMG_2D tfe"},
    {ISA_GFX1100,
     {0xf0007384, 0x00420501, 0x00000000, 0x00000000},
     8,
     "image_load v[5:6], v[1:2], s[8:15] dmask:0x3 dim:SQ_RSRC_IMG_2D unorm glc slc dlc lwe"},
    {ISA_GFX1100,
     {0xf0000105, 0x00020501, 0x00000007, 0x00000000},
     12,
     "image_load v5, [v1, v7], s[8:15] dmask:0x1 dim:SQ_RSRC_IMG_2D"},
    {ISA_GFX1100,
     {0xf0000109, 0x00020501, 0x00000907, 0x00000000},
     12,
     "image_load v5, [v1, v7, v9], s[8:15] dmask:0x1 dim:SQ_RSRC_IMG_3D"},
    {ISA_GFX1100,
     {0xf000011d, 0x00020501, 0x000b0907, 0x00000000},
     12,
     "image_load v5, [v1, v7, v9, v11], s[8:15] dmask:0x1 dim:SQ_RSRC_IMG_2D_MSAA_ARRAY"},
    {ISA_GFX1100,
     {0xf0040109, 0x00020501, 0x000b0907, 0x00000000},
     12,
     "image_load_mip v5, [v1, v7, v9, v11], s[8:15] dmask:0x1 dim:SQ_RSRC_IMG_3D"},
    {ISA_GFX1100,
     {0xf0180f04, 0x00020105, 0x00000000, 0x00000000},
     8,
     "image_store v[1:4], v[5:6], s[8:15] dmask:0xf dim:SQ_RSRC_IMG_2D"},
    {ISA_GFX1100,
     {0xf02c4304, 0x00020105, 0x00000000, 0x00000000},
     8,
     "image_atomic_cmpswap v[1:2], v[5:6], s[8:15] dmask:0x3 dim:SQ_RSRC_IMG_2D glc"},
    {ISA_GFX1100,
     {0xf06c0f04, 0x10020004, 0x00000000, 0x00000000},
     8,
     "image_sample v[0:3], v[4:5], s[8:15], s[16:19] dmask:0xf dim:SQ_RSRC_IMG_2D"},
    {ISA_GFX1100,
     {0xf06c0f05, 0x10020004, 0x00000007, 0x00000000},
     12,
     "image_sample  v[0:3], [v4, v7], s[8:15], s[16:19] dmask:0xf dim:SQ_RSRC_IMG_2D"},
    {ISA_GFX1100,
     {0xf0700f05, 0x10020004, 0x0a090807, 0x00000000},
     12,
     "image_sample_d  v[0:3], [v4, v7, v8, v9, v[10:11]], s[8:15], s[16:19] dmask:0xf "
     "dim:SQ_RSRC_IMG_2D"},
    {ISA_GFX1100,
     {0xf0bc0104, 0x10020004, 0x00000000, 0x00000000},
     8,
     "image_gather4 v[0:3], v[4:5], s[8:15], s[16:19] dmask:0x1 dim:SQ_RSRC_IMG_2D"},
    {ISA_GFX1100,
     {0xf0be0104, 0x10020004, 0x00000000, 0x00000000},
     8,
     "image_gather4 v[0:1], v[4:5], s[8:15], s[16:19] dmask:0x1 dim:SQ_RSRC_IMG_2D d16"},
    {ISA_GFX1100,
     {0xf05c0f04, 0x00020004, 0x00000000, 0x00000000},
     8,
     "image_get_resinfo v[0:3], v4, s[8:15] dmask:0xf dim:SQ_RSRC_IMG_2D"},
    {ISA_GFX1100,
     {0xf0648f80, 0x00010409, 0x00000000, 0x00000000},
     8,
     "image_bvh_intersect_ray v[4:7], v[9:19], s[4:7]"},
    {ISA_GFX1100,
     {0xf0688f80, 0x00010409, 0x00000000, 0x00000000},
     8,
     "image_bvh64_intersect_ray v[4:7], v[9:20], s[4:7]"},
    {ISA_GFX1100,
     {0xcd000000, 0x040e0501, 0x00000000, 0x00000000},
     8,
     "v_interp_p10_f32 v0, v1, v2, v3 wait_exp:0"},
    {ISA_GFX1100,
     {0xcd008700, 0xa40e0501, 0x00000000, 0x00000000},
     8,
     "v_interp_p10_f32 v0, -v1, v2, -v3 clamp wait_exp:7"},
    {ISA_GFX1100,
     {0xcd010205, 0x040e0501, 0x00000000, 0x00000000},
     8,
     "v_interp_p2_f32 v5, v1, v2, v3 wait_exp:2"},
    {ISA_GFX1100,
     {0xcd034800, 0x040e0501, 0x00000000, 0x00000000},
     8,
     "v_interp_p2_f16_f32 v0.h, v1.h, v2, v3 op_sel:[1,0,0,1] wait_exp:0"},
    {ISA_GFX1100,
     {0xcd042100, 0x040e0501, 0x00000000, 0x00000000},
     8,
     "v_interp_p10_rtz_f16_f32 v0, v1.l, v2, v3.h op_sel:[0,0,1,0] wait_exp:1"},
    {ISA_GFX1201,
     {0xd3c00001, 0x00001000, 0x00000504, 0x00000000},
     12,
     "image_load v[0:3], [v4, v5], s[8:15] dmask:0xf dim:SQ_RSRC_IMG_2D"},
    {ISA_GFX1201,
     {0xd0400000, 0x00001005, 0x00000001, 0x00000000},
     12,
     "image_load v5, v1, s[8:15] dmask:0x1 dim:SQ_RSRC_IMG_1D"},
    {ISA_GFX1201,
     {0xd1c00002, 0x00001005, 0x00030201, 0x00000000},
     12,
     "image_load v[5:7], [v1, v2, v3], s[8:15] dmask:0x7 dim:SQ_RSRC_IMG_3D"},
    {ISA_GFX1201,
     {0xd0400007, 0x00001005, 0x04030201, 0x00000000},
     12,
     "image_load v5, [v1, v2, v3, v4], s[8:15] dmask:0x1 dim:SQ_RSRC_IMG_2D_MSAA_ARRAY"},
    {ISA_GFX1201,
     {0xd0c00041, 0x00001005, 0x00000001, 0x00000000},
     12,
     "image_load v[5:6], v1, s[8:15] dmask:0x3 dim:SQ_RSRC_IMG_2D a16"},
    {ISA_GFX1201,
     {0xd0c00021, 0x00001005, 0x00000201, 0x00000000},
     12,
     "image_load v5, [v1, v2], s[8:15] dmask:0x3 dim:SQ_RSRC_IMG_2D d16"},
    {ISA_GFX1201,
     {0xd3c00001, 0x00801005, 0x00000201, 0x00000000},
     12,
     "image_load v[5:9], [v1, v2], s[8:15] dmask:0xf dim:SQ_RSRC_IMG_2D tfe"},
    {ISA_GFX1201,
     {0xd0400091, 0x00141005, 0x00000201, 0x00000000},
     12,
     "image_load v5, [v1, v2], s[8:15] dmask:0x1 dim:SQ_RSRC_IMG_2D th:TH_LOAD_NT scope:SCOPE_SE "
     "nv r128"},
    {ISA_GFX1201,
     {0xd3c18001, 0x00101001, 0x00000605, 0x00000000},
     12,
     "image_store v[1:4], [v5, v6], s[8:15] dmask:0xf dim:SQ_RSRC_IMG_2D th:TH_STORE_NT"},
    {ISA_GFX1201,
     {0xd0430001, 0x00101001, 0x00000605, 0x00000000},
     12,
     "image_atomic_add_uint v1, [v5, v6], s[8:15] dmask:0x1 dim:SQ_RSRC_IMG_2D "
     "th:TH_ATOMIC_RETURN"},
    {ISA_GFX1201,
     {0xe7c6c001, 0x08001000, 0x00000704, 0x00000000},
     12,
     "image_sample v[0:3], [v4, v7], s[8:15], s[16:19] dmask:0xf dim:SQ_RSRC_IMG_2D"},
    {ISA_GFX1201,
     {0xe7c70001, 0x08001000, 0x09080704, 0x00000000},
     12,
     "image_sample_d v[0:3], [v4, v7, v8, v[9:11]], s[8:15], s[16:19] dmask:0xf "
     "dim:SQ_RSRC_IMG_2D"},
    {ISA_GFX1201,
     {0xe44bc001, 0x08001000, 0x00000504, 0x00000000},
     12,
     "image_gather4 v[0:3], [v4, v5], s[8:15], s[16:19] dmask:0x1 dim:SQ_RSRC_IMG_2D"},
    {ISA_GFX1201,
     {0xd3c64010, 0x11000804, 0x0e0b0a09, 0x00000000},
     12,
     "image_bvh_intersect_ray v[4:7], [v9, v10, v[11:13], v[14:16], v[17:19]], s[4:7]"},
    {ISA_GFX1201,
     {0xcd000000, 0x040e0501, 0x00000000, 0x00000000},
     8,
     "v_interp_p10_f32 v0, v1, v2, v3 wait_exp:0"},
    {ISA_GFX1201,
     {0xcd034b00, 0x040e0501, 0x00000000, 0x00000000},
     8,
     "v_interp_p2_f16_f32 v0, v1, v2, v3 op_sel:[1,0,0,1] wait_exp:3"},
};

static void text_of(isa_arch a, const uint32_t *w, size_t *n, char *text, size_t cap) {
    isa_inst in;
    *n = isa_decode(a, (const uint8_t *)w, 16, &in);
    if (*n)
        isa_print(&in, text, cap);
    else
        snprintf(text, cap, "<illegal>");
}

/* gfxemu and LLVM agree on legality, size and text */
static void vs_llvm(isa_arch a, const uint32_t *w) {
    oracle_result r;
    uint32_t ww[1][4] = {{w[0], w[1], w[2], w[3]}};
    oracle_batch(isa_arch_name(a), (const uint32_t (*)[4])ww, 1, &r);
    size_t n;
    char text[ORACLE_TEXT + 64];
    text_of(a, w, &n, text, sizeof text);
    CHECK(r.size != ORACLE_CRASH && (int)n == r.size && (n == 0 || strcmp(text, r.text) == 0),
          "%s %08x %08x %08x: gfxemu [%zu] '%s', llvm [%d] '%s'", isa_arch_name(a), w[0], w[1],
          w[2], n, text, r.size, r.size > 0 ? r.text : "<illegal>");
}

#define MIMG(op, bits) (0xf0000000u | (op) << 18 | (bits))
#define MW1(vaddr, vdata, rsrc, bits) ((vaddr) | (vdata) << 8 | (rsrc) << 16 | (bits))

int main(void) {
    if (oracle_init() != 0)
        return 1;
    for (size_t i = 0; i < sizeof golden / sizeof golden[0]; i++) {
        size_t n;
        char text[512];
        text_of(golden[i].arch, golden[i].w, &n, text, sizeof text);
        CHECK(n == golden[i].size && strcmp(text, golden[i].text) == 0,
              "%s: [%zu] '%s', want [%zu] '%s'", isa_arch_name(golden[i].arch), n, text,
              golden[i].size, golden[i].text);
        vs_llvm(golden[i].arch, golden[i].w);
    }

    /* gfx1100 image_load / image_sample (op 27) in every dim, with and without a16, d16, tfe,
     * NSA with 1..4 extra addresses, data at v252..v255 (no widened tuple fits: LLVM prints the
     * base form) and a sampler on a non-sampling op (illegal) */
    static const unsigned ops[] = {0, 1, 6, 11, 23, 24, 27, 28, 38, 47, 56, 57, 96, 144};
    for (size_t k = 0; k < sizeof ops / sizeof ops[0]; k++)
        for (unsigned dim = 0; dim < 8; dim++)
            for (unsigned m = 0; m < 16; m++) {
                unsigned a16 = m & 1, d16 = m >> 1 & 1, tfe = m >> 2 & 1, nsa = m >> 3 & 1;
                uint32_t w[4] = {MIMG(ops[k], nsa | dim << 2 | 0xb << 8 | a16 << 16 | d16 << 17),
                                 MW1(10, 40, 2, tfe << 21 | 4u << 26), 0x17161514, 0};
                vs_llvm(ISA_GFX1100, w);
                w[1] = MW1(250 + m % 6, 252 + dim % 4, 2, tfe << 21 | 4u << 26);
                vs_llvm(ISA_GFX1100, w);
                w[1] = MW1(10, 40, 31, tfe << 21 | 9u << 26); /* null resource */
                vs_llvm(ISA_GFX1100, w);
            }
    /* gfx1201 VIMAGE (op 0 image_load) and VSAMPLE (op 27 image_sample): the same sweep over
     * dim/a16/d16/tfe and the vaddr fields */
    for (unsigned dim = 0; dim < 8; dim++)
        for (unsigned m = 0; m < 8; m++) {
            uint32_t vi[4] = {0xd0000000u | dim | (m & 1) << 6 | (m >> 1 & 1) << 5 | 0xfu << 22,
                              40 | 8u << 9 | (m >> 2 & 1) << 23, 0x03020110, 0};
            vs_llvm(ISA_GFX1201, vi);
            uint32_t vs[4] = {0xe4000000u | dim | (m >> 2 & 1) << 3 | (m & 1) << 6 |
                                  (m >> 1 & 1) << 5 | 27u << 14 | 0xfu << 22,
                              40 | 8u << 9 | 16u << 23, 0x0b0a0910 & (dim < 2 ? 0xffff : ~0u), 0};
            vs_llvm(ISA_GFX1201, vs);
            vs[1] = 253 | 8u << 9 | 16u << 23;
            vs_llvm(ISA_GFX1201, vs);
        }
    /* VINTERP on both targets: every op, every op_sel/neg bit, scalar and literal sources */
    for (int a = ISA_GFX1100; a <= ISA_GFX1201; a++)
        for (unsigned op = 0; op < 8; op++)
            for (unsigned b = 0; b < 16; b++) {
                uint32_t w[4] = {0xcd000000u | op << 16 | b << 11 | (b & 7) << 8 | 7,
                                 (b & 7) << 29 | 0x103u << 18 | 0x102u << 9 |
                                     (b < 8 ? 0x101u : 255u),
                                 0x3f800000, 0};
                vs_llvm((isa_arch)a, w);
                w[1] = (w[1] & ~0x1ffu) | (b * 16); /* SGPRs, constants */
                vs_llvm((isa_arch)a, w);
            }

    /* decoded fields, worked out from the layout above */
    {
        isa_inst in;
        uint32_t w[4] = {0xf0000b15, 0x00020501, 0x00000907, 0}; /* golden: image_load NSA */
        w[0] = MIMG(0, 1 | 5 << 2 | 0x3 << 8);                   /* 2D_ARRAY, dmask 0x3 */
        EXPECT(isa_decode(ISA_GFX1100, (const uint8_t *)w, 16, &in) == 12);
        EXPECT(in.f.m.dmask == 3 && in.f.m.dim == 5 && in.nsrc == 3);
        EXPECT(in.dst[0].kind == ISA_OPND_VGPR && in.dst[0].idx == 5 && in.dst[0].n == 2);
        EXPECT(in.src[0].idx == 1 && in.src[1].idx == 7 && in.src[2].idx == 9);
        EXPECT(in.src[5].kind == ISA_OPND_SREG && in.src[5].idx == 8 && in.src[5].n == 8);
        w[1] |= 1u << 26; /* a sampler on image_load: the field must be zero */
        EXPECT(isa_decode(ISA_GFX1100, (const uint8_t *)w, 16, &in) == 0);
    }
    return check_summary("test_rdna_image");
}
