/* test_opmeta.c - the per-op metadata table (src/isa/gen/opmeta.inc, tools/isagen/meta.py)
 * against facts worked out by hand from the CDNA3/CDNA4 ISA manuals and LLVM's syntax:
 * encodings, --stats classes, operand widths, MFMA shapes (the gfx90a names carry no block
 * count: it follows from the destination width, M*N*blocks results over 64 lanes), memory access
 * sizes and the rounding classes round.c relies on.  Also: one row per op id, in op id order. */
#include "common/check.h"
#include "isa/isa.h"

#include <string.h>

enum { SALU, VALU, VMEM, SMEM, LDS, MFMA, BRANCH, OTHER };
enum { NONE, EXACT, HOST, OWN, FAULT };
enum { F32, F64, ANY };
enum { DENSE = 1, SPARSE, F8F6F4 };

typedef struct meta {
    unsigned op;
    const char *name;
    unsigned fmts, cls, rnd, rf, ndst, nsrc, dw[2], sw[6], st[6];
    unsigned m, n, k, b, kind, mem;
    const char *ta, *tb;
} meta;

#define FMT(f) (1u << ISA_FMT_##f)
#define W(...) {__VA_ARGS__}
#define T(a, b, c, d, e, f) {ISA_T_##a, ISA_T_##b, ISA_T_##c, ISA_T_##d, ISA_T_##e, ISA_T_##f}
#define K_NONE 0
#define K_DENSE DENSE
#define K_SPARSE SPARSE
#define K_F8F6F4 F8F6F4
#define MFMA(M, N, K, B, TA, TB, KIND) M, N, K, B, K_##KIND, 0, #TA, #TB
#define ISA_META(id, nm, fm, c, r, f, nd, ns, dws, sws, sts, mf, mb)                               \
    {ISA_OP_##id, #nm, fm, c, r, f, nd, ns, dws, sws, sts, mf},
static const meta rows[] = {
#include "isa/gen/opmeta.inc"
};
#undef ISA_META
#undef MFMA
/* the memory column, in the same order */
#define ISA_META(id, nm, fm, c, r, f, nd, ns, dws, sws, sts, mf, mb) mb,
static const unsigned mem[] = {
#include "isa/gen/opmeta.inc"
};

#define NROWS (sizeof rows / sizeof rows[0])

static const meta *find(const char *name) {
    for (size_t i = 0; i < NROWS; i++)
        if (!strcmp(rows[i].name, name))
            return &rows[i];
    return NULL;
}
static unsigned mem_of(const meta *r) { return mem[r - rows]; }

static void check_mfma(const char *name, unsigned m, unsigned n, unsigned k, unsigned b,
                       const char *ta, const char *tb, unsigned kind) {
    const meta *r = find(name);
    CHECK(r && r->cls == MFMA && r->m == m && r->n == n && r->k == k && r->b == b &&
              !strcmp(r->ta, ta) && !strcmp(r->tb, tb) && r->kind == kind,
          "%s: %ux%ux%u x%u %s/%s kind %u", name, r ? r->m : 0, r ? r->n : 0, r ? r->k : 0,
          r ? r->b : 0, r ? r->ta : "-", r ? r->tb : "-", r ? r->kind : 0);
}

static void check_op(const char *name, unsigned fmts, unsigned cls, unsigned memb) {
    const meta *r = find(name);
    CHECK(r && r->fmts == fmts && r->cls == cls && mem_of(r) == memb,
          "%s: fmts %#x class %u mem %u", name, r ? r->fmts : 0, r ? r->cls : 0, r ? mem_of(r) : 0);
}

static void check_round(const char *name, unsigned rnd, unsigned rf) {
    const meta *r = find(name);
    CHECK(r && r->rnd == rnd && r->rf == rf, "%s: rounding %u field %u", name, r ? r->rnd : 9,
          r ? r->rf : 9);
}

int main(void) {
    /* one row per op, in id order, named as isa_op_names */
    CHECK(NROWS == ISA_NOPS - 1, "%zu rows for %d ops", NROWS, ISA_NOPS - 1);
    for (size_t i = 0; i < NROWS; i++)
        CHECK(rows[i].op == i + 1 && !strcmp(rows[i].name, isa_op_names[i + 1]), "row %zu: %s", i,
              rows[i].name);

    /* encodings and classes: VOP2 ops have a VOP3 (e64) form; compares VOPC + VOP3 */
    check_op("v_add_f32", FMT(VOP2) | FMT(VOP3), VALU, 0);
    check_op("v_cmp_lt_f32", FMT(VOPC) | FMT(VOP3), VALU, 0);
    check_op("v_fma_f32", FMT(VOP3), VALU, 0);
    check_op("v_pk_fma_f32", FMT(VOP3P), VALU, 0);
    check_op("s_add_u32", FMT(SOP2), SALU, 0);
    check_op("s_movk_i32", FMT(SOPK), SALU, 0);
    check_op("s_branch", FMT(SOPP), BRANCH, 0);
    check_op("s_cbranch_execz", FMT(SOPP), BRANCH, 0);
    check_op("s_setpc_b64", FMT(SOP1), BRANCH, 0);
    check_op("s_endpgm", FMT(SOPP), BRANCH, 0);
    check_op("s_waitcnt", FMT(SOPP), OTHER, 0);
    check_op("s_barrier", FMT(SOPP), OTHER, 0);
    check_op("v_mfma_ld_scale_b32", FMT(VOP3P), MFMA, 0);
    /* memory sizes per lane and element: dwordx4 = 16 bytes, b64 = 8, ubyte = 1, short = 2 */
    check_op("global_load_dwordx4", FMT(FLAT), VMEM, 16);
    check_op("flat_store_short", FMT(FLAT), VMEM, 2);
    check_op("buffer_load_ubyte", FMT(MUBUF), VMEM, 1);
    check_op("buffer_atomic_cmpswap_x2", FMT(MUBUF), VMEM, 8);
    check_op("global_atomic_add_f64", FMT(FLAT), VMEM, 8);
    check_op("global_load_lds_dwordx4", FMT(FLAT), VMEM, 16);
    check_op("tbuffer_load_format_xyzw", FMT(MTBUF), VMEM, 0); /* size from the format */
    check_op("ds_read_b64", FMT(DS), LDS, 8);
    check_op("ds_write_b8", FMT(DS), LDS, 1);
    check_op("ds_read_u16_d16_hi", FMT(DS), LDS, 2);
    check_op("ds_add_rtn_u64", FMT(DS), LDS, 8);
    check_op("ds_gws_barrier", FMT(DS), LDS, 0);
    check_op("s_load_dwordx8", FMT(SMEM), SMEM, 32);
    check_op("s_atomic_add_x2", FMT(SMEM), SMEM, 8);
    check_op("image_load", FMT(MIMG), VMEM, 0);

    /* operand widths in dwords: v_fma_f64 d, s0, s1, s2 all 2; v_mad_u64_u32 dst 2 + sdst 2
     * (VOP3B carry-out SGPR pair), sources 1, 1, 2 */
    const meta *r = find("v_fma_f64");
    CHECK(r && r->dw[0] == 2 && r->sw[0] == 2 && r->sw[1] == 2 && r->sw[2] == 2 &&
              r->st[0] == ISA_T_F64,
          "v_fma_f64 widths");
    r = find("v_mad_u64_u32");
    CHECK(r && r->ndst == 2 && r->dw[0] == 2 && r->dw[1] == 2 && r->sw[0] == 1 && r->sw[1] == 1 &&
              r->sw[2] == 2,
          "v_mad_u64_u32 widths %u %u %u %u %u", r ? r->dw[0] : 0, r ? r->dw[1] : 0,
          r ? r->sw[0] : 0, r ? r->sw[1] : 0, r ? r->sw[2] : 0);
    /* 32x32 f32 MFMA with 2 blocks: 32*32*2/64 = 32 dwords of C and D */
    r = find("v_mfma_f32_32x32x1_2b_f32");
    CHECK(r && r->dw[0] == 32 && r->sw[2] == 32, "v_mfma_f32_32x32x1_2b_f32 widths");

    /* MFMA shapes (CDNA3 ISA, "Matrix Fused Multiply Add"; gfx90a names from the CDNA2 ISA) */
    check_mfma("v_mfma_f32_32x32x1_2b_f32", 32, 32, 1, 2, "F32", "F32", DENSE);
    check_mfma("v_mfma_f32_4x4x1_16b_f32", 4, 4, 1, 16, "F32", "F32", DENSE);
    check_mfma("v_mfma_f32_32x32x1f32", 32, 32, 1, 2, "F32", "F32", DENSE); /* 32 dwords */
    check_mfma("v_mfma_f32_16x16x1f32", 16, 16, 1, 4, "F32", "F32", DENSE); /* 16 dwords */
    check_mfma("v_mfma_f32_4x4x4f16", 4, 4, 4, 16, "F16", "F16", DENSE);    /* 4 dwords */
    check_mfma("v_mfma_f64_4x4x4f64", 4, 4, 4, 4, "F64", "F64", DENSE);     /* 2 dwords, f64 */
    check_mfma("v_mfma_f64_16x16x4f64", 16, 16, 4, 1, "F64", "F64", DENSE); /* 8 dwords */
    check_mfma("v_mfma_f32_32x32x8bf16_1k", 32, 32, 8, 1, "BF16", "BF16", DENSE);
    check_mfma("v_mfma_f32_16x16x4_4b_bf16", 16, 16, 4, 4, "BF16", "BF16", DENSE);
    check_mfma("v_mfma_f32_16x16x8_xf32", 16, 16, 8, 1, "XF32", "XF32", DENSE);
    check_mfma("v_mfma_i32_32x32x16_i8", 32, 32, 16, 1, "I8", "I8", DENSE);
    check_mfma("v_mfma_f32_32x32x16_fp8_bf8", 32, 32, 16, 1, "FP8", "BF8", DENSE);
    check_mfma("v_mfma_f32_16x16x128_f8f6f4", 16, 16, 128, 1, "F8F6F4", "F8F6F4", F8F6F4);
    check_mfma("v_mfma_scale_f32_32x32x64_f8f6f4", 32, 32, 64, 1, "F8F6F4", "F8F6F4", F8F6F4);
    check_mfma("v_smfmac_f32_16x16x32_f16", 16, 16, 32, 1, "F16", "F16", SPARSE);
    check_mfma("v_smfmac_f32_32x32x64_bf8_fp8", 32, 32, 64, 1, "BF8", "FP8", SPARSE);
    r = find("v_add_f32");
    CHECK(r && r->m == 0 && r->kind == 0, "v_add_f32 is no MFMA");

    /* rounding classes: one correctly rounded operation, exact results, f16 rounded by round.c,
     * libm-based or double-rounding ops refused, integer ops unaffected */
    check_round("v_add_f32", HOST, F32);
    check_round("v_fma_f64", HOST, F64);
    check_round("v_max_f32", EXACT, F32);
    check_round("v_add_f16", OWN, F64);
    check_round("v_exp_f32", FAULT, ANY);
    check_round("v_mad_f32", FAULT, ANY);
    check_round("v_mfma_f32_32x32x8_f16", FAULT, ANY);
    check_round("global_atomic_add_f32", FAULT, ANY);
    check_round("v_mfma_i32_32x32x16_i8", NONE, F32);
    check_round("v_cmp_lt_f32", NONE, F32);
    check_round("v_add_u32", NONE, F32);
    return check_summary("opmeta");
}
