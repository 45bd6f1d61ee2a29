/* test_mfma.c - every v_mfma_* / v_smfmac_* (and the gfx950 scaled MFMA) on every target that has
 * it, assembled (tests/common/asm.c), run on one wave and compared bit for bit with the reference
 * model in mfma_ref.h (written independently from the manuals' layout tables).
 *
 * For each opcode: every legal CBSZ/ABID (multi-block ops), every BLGP, every f8f6f4 format pair,
 * SMFMAC index-set selections, f64 negate bits; operands rotate through VGPR, AGPR, in-place
 * (vdst = C), destination overlapping A/B, and inline-constant C forms; inputs alternate between
 * plain random values and random values salted with NaN, +-inf, denormals, -0 and the largest
 * finite values.  EXEC is random in half the cases: MFMA ignores it.  Every third case runs with
 * MODE flushing f32 input denormals and with FP16_OVFL set (f32 overflow clamps to +-max, i32
 * saturates), with C near the i32 limits.  Every register outside the destination must come
 * out unchanged.
 *
 * The one-block f16/bf16/fp8/bf8 ops of the GEMM shapes take src/exec/mfma.c's fast path when
 * they have no modifier: every dense op also gets ten unmodified cases over the operand forms
 * (BLGP, FP16_OVFL and constant-C cases fall back to the generic path), and every fp8/bf8
 * code of each format goes through it one per row (test_fp8_codes).  The fast path's build is
 * printed; tests/exec/test_mfma_isa.sh runs this test again with GFXEMU_MFMA_ISA=avx2, generic
 * and off. */
#include "common/rng.h"
#include "common/asm.h"
#include "common/check.h"
#include "common/snippet.h"
#include "common/util.h"
#include "exec/exec.h"
#include "exec/mfma_ref.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#define OP(name, archs, m, n, k, nb, ta, tb, kind)                                                 \
    {name, archs, m, n, k, nb, RT_##ta, RT_##tb, RK_##kind}
#define G2 1 /* gfx942 */
#define G5 2 /* gfx950 */
#define G9 4 /* gfx90a (CDNA2 ISA, "Matrix Arithmetic Instructions": its own names) */
static const ref_op ops[] = {
    OP("v_mfma_f32_32x32x1_2b_f32", G2 | G5, 32, 32, 1, 2, F32, F32, DENSE),
    OP("v_mfma_f32_16x16x1_4b_f32", G2 | G5, 16, 16, 1, 4, F32, F32, DENSE),
    OP("v_mfma_f32_4x4x1_16b_f32", G2 | G5, 4, 4, 1, 16, F32, F32, DENSE),
    OP("v_mfma_f32_32x32x2_f32", G2 | G5, 32, 32, 2, 1, F32, F32, DENSE),
    OP("v_mfma_f32_16x16x4_f32", G2 | G5, 16, 16, 4, 1, F32, F32, DENSE),
    OP("v_mfma_f32_16x16x8_xf32", G2, 16, 16, 8, 1, XF32, XF32, DENSE),
    OP("v_mfma_f32_32x32x4_xf32", G2, 32, 32, 4, 1, XF32, XF32, DENSE),
    OP("v_mfma_f32_32x32x4_2b_f16", G2 | G5, 32, 32, 4, 2, F16, F16, DENSE),
    OP("v_mfma_f32_16x16x4_4b_f16", G2 | G5, 16, 16, 4, 4, F16, F16, DENSE),
    OP("v_mfma_f32_4x4x4_16b_f16", G2 | G5, 4, 4, 4, 16, F16, F16, DENSE),
    OP("v_mfma_f32_32x32x8_f16", G2 | G5, 32, 32, 8, 1, F16, F16, DENSE),
    OP("v_mfma_f32_16x16x16_f16", G2 | G5, 16, 16, 16, 1, F16, F16, DENSE),
    OP("v_mfma_f32_16x16x32_f16", G5, 16, 16, 32, 1, F16, F16, DENSE),
    OP("v_mfma_f32_32x32x16_f16", G5, 32, 32, 16, 1, F16, F16, DENSE),
    OP("v_mfma_f32_32x32x4_2b_bf16", G2 | G5, 32, 32, 4, 2, BF16, BF16, DENSE),
    OP("v_mfma_f32_16x16x4_4b_bf16", G2 | G5, 16, 16, 4, 4, BF16, BF16, DENSE),
    OP("v_mfma_f32_4x4x4_16b_bf16", G2 | G5, 4, 4, 4, 16, BF16, BF16, DENSE),
    OP("v_mfma_f32_32x32x8_bf16", G2 | G5, 32, 32, 8, 1, BF16, BF16, DENSE),
    OP("v_mfma_f32_16x16x16_bf16", G2 | G5, 16, 16, 16, 1, BF16, BF16, DENSE),
    OP("v_mfma_f32_16x16x32_bf16", G5, 16, 16, 32, 1, BF16, BF16, DENSE),
    OP("v_mfma_f32_32x32x16_bf16", G5, 32, 32, 16, 1, BF16, BF16, DENSE),
    OP("v_mfma_i32_32x32x4_2b_i8", G2 | G5, 32, 32, 4, 2, I8, I8, DENSE),
    OP("v_mfma_i32_16x16x4_4b_i8", G2 | G5, 16, 16, 4, 4, I8, I8, DENSE),
    OP("v_mfma_i32_4x4x4_16b_i8", G2 | G5, 4, 4, 4, 16, I8, I8, DENSE),
    OP("v_mfma_i32_32x32x16_i8", G2 | G5, 32, 32, 16, 1, I8, I8, DENSE),
    OP("v_mfma_i32_16x16x32_i8", G2 | G5, 16, 16, 32, 1, I8, I8, DENSE),
    OP("v_mfma_i32_16x16x64_i8", G5, 16, 16, 64, 1, I8, I8, DENSE),
    OP("v_mfma_i32_32x32x32_i8", G5, 32, 32, 32, 1, I8, I8, DENSE),
    OP("v_mfma_f64_16x16x4_f64", G2 | G5, 16, 16, 4, 1, F64, F64, DENSE),
    OP("v_mfma_f64_4x4x4_4b_f64", G2 | G5, 4, 4, 4, 4, F64, F64, DENSE),
    OP("v_mfma_f32_16x16x32_fp8_fp8", G2 | G5, 16, 16, 32, 1, FP8, FP8, DENSE),
    OP("v_mfma_f32_16x16x32_fp8_bf8", G2 | G5, 16, 16, 32, 1, FP8, BF8, DENSE),
    OP("v_mfma_f32_16x16x32_bf8_fp8", G2 | G5, 16, 16, 32, 1, BF8, FP8, DENSE),
    OP("v_mfma_f32_16x16x32_bf8_bf8", G2 | G5, 16, 16, 32, 1, BF8, BF8, DENSE),
    OP("v_mfma_f32_32x32x16_fp8_fp8", G2 | G5, 32, 32, 16, 1, FP8, FP8, DENSE),
    OP("v_mfma_f32_32x32x16_fp8_bf8", G2 | G5, 32, 32, 16, 1, FP8, BF8, DENSE),
    OP("v_mfma_f32_32x32x16_bf8_fp8", G2 | G5, 32, 32, 16, 1, BF8, FP8, DENSE),
    OP("v_mfma_f32_32x32x16_bf8_bf8", G2 | G5, 32, 32, 16, 1, BF8, BF8, DENSE),
    OP("v_mfma_f32_16x16x128_f8f6f4", G5, 16, 16, 128, 1, F8F6F4, F8F6F4, F8F6F4),
    OP("v_mfma_f32_32x32x64_f8f6f4", G5, 32, 32, 64, 1, F8F6F4, F8F6F4, F8F6F4),
    OP("v_mfma_scale_f32_16x16x128_f8f6f4", G5, 16, 16, 128, 1, F8F6F4, F8F6F4, F8F6F4),
    OP("v_mfma_scale_f32_32x32x64_f8f6f4", G5, 32, 32, 64, 1, F8F6F4, F8F6F4, F8F6F4),
    OP("v_smfmac_f32_16x16x32_f16", G2 | G5, 16, 16, 32, 1, F16, F16, SPARSE),
    OP("v_smfmac_f32_32x32x16_f16", G2 | G5, 32, 32, 16, 1, F16, F16, SPARSE),
    OP("v_smfmac_f32_16x16x64_f16", G5, 16, 16, 64, 1, F16, F16, SPARSE),
    OP("v_smfmac_f32_32x32x32_f16", G5, 32, 32, 32, 1, F16, F16, SPARSE),
    OP("v_smfmac_f32_16x16x32_bf16", G2 | G5, 16, 16, 32, 1, BF16, BF16, SPARSE),
    OP("v_smfmac_f32_32x32x16_bf16", G2 | G5, 32, 32, 16, 1, BF16, BF16, SPARSE),
    OP("v_smfmac_f32_16x16x64_bf16", G5, 16, 16, 64, 1, BF16, BF16, SPARSE),
    OP("v_smfmac_f32_32x32x32_bf16", G5, 32, 32, 32, 1, BF16, BF16, SPARSE),
    OP("v_smfmac_i32_16x16x64_i8", G2 | G5, 16, 16, 64, 1, I8, I8, SPARSE),
    OP("v_smfmac_i32_32x32x32_i8", G2 | G5, 32, 32, 32, 1, I8, I8, SPARSE),
    OP("v_smfmac_i32_16x16x128_i8", G5, 16, 16, 128, 1, I8, I8, SPARSE),
    OP("v_smfmac_i32_32x32x64_i8", G5, 32, 32, 64, 1, I8, I8, SPARSE),
    OP("v_smfmac_f32_16x16x64_fp8_fp8", G2 | G5, 16, 16, 64, 1, FP8, FP8, SPARSE),
    OP("v_smfmac_f32_16x16x64_fp8_bf8", G2 | G5, 16, 16, 64, 1, FP8, BF8, SPARSE),
    OP("v_smfmac_f32_16x16x64_bf8_fp8", G2 | G5, 16, 16, 64, 1, BF8, FP8, SPARSE),
    OP("v_smfmac_f32_16x16x64_bf8_bf8", G2 | G5, 16, 16, 64, 1, BF8, BF8, SPARSE),
    OP("v_smfmac_f32_32x32x32_fp8_fp8", G2 | G5, 32, 32, 32, 1, FP8, FP8, SPARSE),
    OP("v_smfmac_f32_32x32x32_fp8_bf8", G2 | G5, 32, 32, 32, 1, FP8, BF8, SPARSE),
    OP("v_smfmac_f32_32x32x32_bf8_fp8", G2 | G5, 32, 32, 32, 1, BF8, FP8, SPARSE),
    OP("v_smfmac_f32_32x32x32_bf8_bf8", G2 | G5, 32, 32, 32, 1, BF8, BF8, SPARSE),
    OP("v_smfmac_f32_16x16x128_fp8_fp8", G5, 16, 16, 128, 1, FP8, FP8, SPARSE),
    OP("v_smfmac_f32_16x16x128_fp8_bf8", G5, 16, 16, 128, 1, FP8, BF8, SPARSE),
    OP("v_smfmac_f32_16x16x128_bf8_fp8", G5, 16, 16, 128, 1, BF8, FP8, SPARSE),
    OP("v_smfmac_f32_16x16x128_bf8_bf8", G5, 16, 16, 128, 1, BF8, BF8, SPARSE),
    OP("v_smfmac_f32_32x32x64_fp8_fp8", G5, 32, 32, 64, 1, FP8, FP8, SPARSE),
    OP("v_smfmac_f32_32x32x64_fp8_bf8", G5, 32, 32, 64, 1, FP8, BF8, SPARSE),
    OP("v_smfmac_f32_32x32x64_bf8_fp8", G5, 32, 32, 64, 1, BF8, FP8, SPARSE),
    OP("v_smfmac_f32_32x32x64_bf8_bf8", G5, 32, 32, 64, 1, BF8, BF8, SPARSE),
    OP("v_mfma_f32_32x32x1f32", G9, 32, 32, 1, 2, F32, F32, DENSE),
    OP("v_mfma_f32_16x16x1f32", G9, 16, 16, 1, 4, F32, F32, DENSE),
    OP("v_mfma_f32_4x4x1f32", G9, 4, 4, 1, 16, F32, F32, DENSE),
    OP("v_mfma_f32_32x32x2f32", G9, 32, 32, 2, 1, F32, F32, DENSE),
    OP("v_mfma_f32_16x16x4f32", G9, 16, 16, 4, 1, F32, F32, DENSE),
    OP("v_mfma_f32_32x32x4f16", G9, 32, 32, 4, 2, F16, F16, DENSE),
    OP("v_mfma_f32_16x16x4f16", G9, 16, 16, 4, 4, F16, F16, DENSE),
    OP("v_mfma_f32_4x4x4f16", G9, 4, 4, 4, 16, F16, F16, DENSE),
    OP("v_mfma_f32_32x32x8f16", G9, 32, 32, 8, 1, F16, F16, DENSE),
    OP("v_mfma_f32_16x16x16f16", G9, 16, 16, 16, 1, F16, F16, DENSE),
    OP("v_mfma_i32_32x32x4i8", G9, 32, 32, 4, 2, I8, I8, DENSE),
    OP("v_mfma_i32_16x16x4i8", G9, 16, 16, 4, 4, I8, I8, DENSE),
    OP("v_mfma_i32_4x4x4i8", G9, 4, 4, 4, 16, I8, I8, DENSE),
    OP("v_mfma_i32_32x32x8i8", G9, 32, 32, 8, 1, I8, I8, DENSE),
    OP("v_mfma_i32_16x16x16i8", G9, 16, 16, 16, 1, I8, I8, DENSE),
    /* the bf16 ops without _1k: two bf16 per VGPR */
    OP("v_mfma_f32_32x32x2bf16", G9, 32, 32, 2, 2, BF16, BF16, DENSE),
    OP("v_mfma_f32_16x16x2bf16", G9, 16, 16, 2, 4, BF16, BF16, DENSE),
    OP("v_mfma_f32_4x4x2bf16", G9, 4, 4, 2, 16, BF16, BF16, DENSE),
    OP("v_mfma_f32_32x32x4bf16", G9, 32, 32, 4, 1, BF16, BF16, DENSE),
    OP("v_mfma_f32_16x16x8bf16", G9, 16, 16, 8, 1, BF16, BF16, DENSE),
    OP("v_mfma_f32_32x32x4bf16_1k", G9, 32, 32, 4, 2, BF16, BF16, DENSE),
    OP("v_mfma_f32_16x16x4bf16_1k", G9, 16, 16, 4, 4, BF16, BF16, DENSE),
    OP("v_mfma_f32_4x4x4bf16_1k", G9, 4, 4, 4, 16, BF16, BF16, DENSE),
    OP("v_mfma_f32_32x32x8bf16_1k", G9, 32, 32, 8, 1, BF16, BF16, DENSE),
    OP("v_mfma_f32_16x16x16bf16_1k", G9, 16, 16, 16, 1, BF16, BF16, DENSE),
    OP("v_mfma_f64_16x16x4f64", G9, 16, 16, 4, 1, F64, F64, DENSE),
    OP("v_mfma_f64_4x4x4f64", G9, 4, 4, 4, 4, F64, F64, DENSE),
};
#define NOPS (sizeof ops / sizeof ops[0])

/* ---- random values ----------------------------------------------------------------------------
 */

static uint64_t rng = 0x9e3779b97f4a7c15ull;
static uint64_t rnd(void) { return xorshift64(&rng); }

/* One random element of type t (f8f6f4: format fmt); salted with special values when special. */
static uint64_t gen(int t, int fmt, int special, int gfx942) {
    static const uint32_t s32[] = {0x7fc00000, 0x7f800000, 0xff800000, 0x00000001, 0x807fffff,
                                   0x80000000, 0x7f7fffff, 0xff7fffff, 0x00000000, 0x7fa00000};
    static const uint32_t s16[] = {0x7e00, 0x7c00, 0xfc00, 0x0001, 0x83ff, 0x8000, 0x7bff, 0xfbff};
    static const uint32_t sb16[] = {0x7fc0, 0x7f80, 0xff80, 0x0001, 0x807f, 0x8000, 0x7f7f, 0xff7f};
    static const uint64_t s64[] = {0x7ff8000000000000ull, 0x7ff0000000000000ull,
                                   0xfff0000000000000ull, 0x0000000000000001ull,
                                   0x8000000000000000ull, 0x7fefffffffffffffull};
    uint64_t r = rnd();
    int sp = special && (r & 7) == 0;
    r >>= 3;
    switch (t) {
    case RT_F32:
    case RT_XF32:
        if (sp)
            return s32[r % 10];
        return (r & 0x807fffffu) | (uint32_t)(120 + (r >> 40) % 15) << 23;
    case RT_F16:
        if (sp)
            return s16[r % 8];
        return (r & 0x83ffu) | (uint32_t)(10 + (r >> 40) % 11) << 10;
    case RT_BF16:
        if (sp)
            return sb16[r % 8];
        return (r & 0x807fu) | (uint32_t)(120 + (r >> 40) % 15) << 7;
    case RT_F64:
        if (sp)
            return s64[r % 6];
        return (r & 0x800fffffffffffffull) | (uint64_t)(1016 + (r >> 20) % 15) << 52;
    case RT_I8: return r & 0xff;
    default: {
        const fpf_format *f = t == RT_FP8   ? (gfx942 ? FPF_FP8_FNUZ : FPF_FP8_OCP)
                              : t == RT_BF8 ? (gfx942 ? FPF_BF8_FNUZ : FPF_BF8_OCP)
                              : fmt == 0    ? FPF_FP8_OCP
                              : fmt == 1    ? FPF_BF8_OCP
                              : fmt == 2    ? FPF_FP6
                              : fmt == 3    ? FPF_BF6
                                            : FPF_FP4;
        for (;;) { /* every code is fair game with specials; plain runs keep to finite values */
            unsigned c = (unsigned)(rnd() & ((1u << f->bits) - 1));
            if (special || (!fpf_is_nan(c, f) && !isinf(fpf_decode(c, f))))
                return c;
        }
    }
    }
}

/* Fill nregs registers of 64 lanes with elements of width w. */
static void fill(uint32_t (*R)[64], int nregs, int w, int t, int fmt, int special, int g942) {
    memset(R, 0, (size_t)nregs * 64 * 4);
    for (int l = 0; l < 64; l++)
        for (int e = 0; e < nregs * 32 / w; e++) {
            uint64_t v = gen(t, fmt, special, g942);
            for (int b = 0; b < w; b++) {
                int bit = e * w + b;
                R[bit / 32][l] |= (uint32_t)((v >> b) & 1) << (bit % 32);
            }
        }
}

/* ---- assembling many instructions at once -------------------------------------------------------
 */

#define MAXCASE 4096
#define LINE 256

typedef struct tcase {
    const ref_op *op;
    char text[LINE];
    int form; /* operand form, see make_case */
    ref_mods md;
    int na, nb, nc, nd;                          /* registers of A, B, C, D */
    int ra, rb, rc, rd;                          /* first register of each */
    int a_agpr, b_agpr, c_agpr, d_agpr, c_const; /* c_const: 1 + index into the constants */
    uint8_t bytes[16];
    int size;
} tcase;

static tcase cases[MAXCASE];
static int ncases;

/* Assemble every case's text (gfxemu's assembler, in-process; test_asm_crosscheck.sh compares
 * the bytes with llvm-mc-22's). */
static int assemble_all(const char *arch) {
    int bad = 0;
    for (int i = 0; i < ncases; i++) {
        size_t n;
        uint8_t *b = asm_snippet(arch, cases[i].text, &n);
        if (!b || n > sizeof cases[i].bytes) {
            bad = 1;
            cases[i].size = 0;
        } else {
            memcpy(cases[i].bytes, b, n);
            cases[i].size = (int)n;
        }
        free(b);
    }
    return bad ? -1 : 0;
}

static void regtext(char *buf, size_t n, int agpr, int base, int cnt) {
    if (cnt == 1)
        snprintf(buf, n, "%c%d", agpr ? 'a' : 'v', base);
    else
        snprintf(buf, n, "%c[%d:%d]", agpr ? 'a' : 'v', base, base + cnt - 1);
}

/* Inline constants for C (form 4): text for llvm-mc-22 and the element bits they stand for
 * (float constants at the accumulator's width; integer ones are the integer's bits). */
enum { CK_F32, CK_F64, CK_I32 };
static const char *const c_text[3][6] = {
    {"1.0", "-4.0", "0.5", "0", "0.15915494", "64"},
    {"1.0", "-4.0", "0.5", "0", "0.15915494309189532", "64"},
    {"7", "-3", "64", "0", "-16", "1"},
};
static const uint32_t cf_bits[6] = {0x3f800000, 0xc0800000, 0x3f000000, 0, 0x3e22f983, 64};
static const uint64_t cd_bits[6] = {0x3ff0000000000000ull, 0xc010000000000000ull,
                                    0x3fe0000000000000ull, 0,
                                    0x3fc45f306dc9c882ull, 64};
static const uint32_t ci_bits[6] = {7, 0xfffffffdu, 64, 0, 0xfffffff0u, 1};

/* Operand forms, rotating over a case's index:
 *   0: all VGPRs, D separate from C       1: C and D the same AGPRs
 *   2: A and B AGPRs, D = C VGPRs         3: D overlapping A and B (VGPRs)
 *   4: C an inline constant (dense ops; SMFMAC falls back to form 1)
 *   5: C and D separate AGPRs (only made by make_cases' plain cases) */
static void make_case(const ref_op *op, int form, ref_mods md) {
    if (ncases >= MAXCASE)
        return;
    tcase *c = &cases[ncases++];
    memset(c, 0, sizeof *c);
    c->op = op;
    c->md = md;
    int fa = op->kind == RK_F8F6F4 ? md.cbsz : 0, fb = op->kind == RK_F8F6F4 ? md.blgp : 0;
    int E = op->k * op->m * op->nb / 64;
    int ea = op->kind == RK_SPARSE ? E / 2 : E;
    c->na = (ea * ref_bits(op->ta, fa) + 31) / 32;
    c->nb = (E * ref_bits(op->tb, fb) + 31) / 32;
    c->nc = op->m * op->n * op->nb / 64 * (op->ta == RT_F64 ? 2 : 1);
    c->nd = c->nc;
    int sparse = op->kind == RK_SPARSE;
    if (sparse && form == 4)
        form = 1;
    c->form = form;
    c->ra = 32, c->rb = 48, c->rc = 64, c->rd = 128;
    switch (form) {
    case 1: c->c_agpr = c->d_agpr = 1, c->rd = c->rc; break;
    case 2: c->a_agpr = c->b_agpr = 1, c->rd = c->rc; break;
    case 3: c->rd = 32; break;
    case 4: c->c_const = 1 + ncases % 6; break;
    case 5: c->c_agpr = c->d_agpr = 1; break; /* C a[64:..], D a[128:..] */
    }
    if (sparse) /* C is the destination */
        c->rc = c->rd, c->c_agpr = c->d_agpr;
    char d[32], a[32], b[32], cc[32];
    regtext(d, sizeof d, c->d_agpr, c->rd, c->nd);
    regtext(a, sizeof a, c->a_agpr, c->ra, c->na);
    regtext(b, sizeof b, c->b_agpr, c->rb, c->nb);
    if (sparse)
        snprintf(cc, sizeof cc, "v20");
    else if (c->c_const)
        snprintf(cc, sizeof cc, "%s",
                 c_text[op->ta == RT_I8    ? CK_I32
                        : op->ta == RT_F64 ? CK_F64
                                           : CK_F32][c->c_const - 1]);
    else
        regtext(cc, sizeof cc, c->c_agpr, c->rc, c->nc);
    int n = snprintf(c->text, LINE, "%s %s, %s, %s, %s", op->name, d, a, b, cc);
    if (md.scaled)
        n += snprintf(c->text + n, LINE - (size_t)n,
                      ", v21, v22 op_sel:[%d,%d,0] op_sel_hi:[%d,%d,0]", md.sel_a & 1, md.sel_b & 1,
                      md.sel_a >> 1, md.sel_b >> 1);
    if (op->ta == RT_F64 && md.neg)
        n += snprintf(c->text + n, LINE - (size_t)n, " neg:[%d,%d,%d]", md.neg & 1, md.neg >> 1 & 1,
                      md.neg >> 2 & 1);
    if (md.cbsz)
        n += snprintf(c->text + n, LINE - (size_t)n, " cbsz:%d", md.cbsz);
    if (md.abid)
        n += snprintf(c->text + n, LINE - (size_t)n, " abid:%d", md.abid);
    if (md.blgp && op->ta != RT_F64)
        snprintf(c->text + n, LINE - (size_t)n, " blgp:%d", md.blgp);
}

/* Every legal modifier setting of an op, each with the next operand form. */
static void make_cases(const ref_op *op, int gfx942) {
    static int form;
    ref_mods md = {0};
    md.gfx942 = gfx942;
    if (op->ta == RT_F64) {
        /* gfx90a has no neg on f64 MFMAs (its BLGP bits fault: see test_f64_blgp) */
        for (md.neg = 0; md.neg < (op->archs == G9 ? 1 : 8); md.neg++)
            make_case(op, form++ % 5, md);
    } else if (op->kind == RK_F8F6F4) {
        md.scaled = strstr(op->name, "scale") != NULL;
        for (md.cbsz = 0; md.cbsz < 5; md.cbsz++)
            for (md.blgp = 0; md.blgp < 5; md.blgp++) {
                md.sel_a = (md.cbsz + md.blgp) & 3;
                md.sel_b = (md.cbsz * 3 + md.blgp + 1) & 3;
                make_case(op, form++ % 5, md);
            }
    } else if (op->kind == RK_SPARSE) {
        int sa = op->k * op->m / 64 / 2, nsets = 32 / (2 * sa);
        for (md.abid = 0; md.abid < nsets; md.abid++)
            make_case(op, form++ % 5, md);
        md.cbsz = 1, md.abid = nsets - 1; /* CBSZ != 0: ABID ignored, set 0 */
        make_case(op, form++ % 5, md);
    } else {
        int lg = 0;
        while ((1 << lg) < op->nb)
            lg++;
        for (md.cbsz = 0; md.cbsz <= lg; md.cbsz++)
            for (md.abid = 0; md.abid < (1 << md.cbsz); md.abid++)
                for (md.blgp = 0; md.blgp < 8; md.blgp++)
                    make_case(op, form++ % 5, md);
        /* no modifiers (the fast path's cases): each form twice, five cases apart, so each
         * gets random and special inputs */
        static const int plain_forms[5] = {0, 1, 2, 3, 5};
        memset(&md, 0, sizeof md);
        md.gfx942 = gfx942;
        for (int i = 0; i < 10; i++)
            make_case(op, plain_forms[i % 5], md);
    }
}

/* Two unmodified cases with C an inline constant (form 4) per dense op, random and special
 * inputs: the fast path takes them too.  Made after every other case, so those keep their
 * indices (and with them their inputs and constants). */
static void make_const_c_cases(const ref_op *op, int gfx942) {
    if (op->kind != RK_DENSE)
        return;
    ref_mods md = {0};
    md.gfx942 = gfx942;
    make_case(op, 4, md);
    make_case(op, 4, md);
}

/* ---- running one case ---------------------------------------------------------------------------
 */

/* Bit for bit: a NaN result too is one value, the default NaN (docs/mfma.md, mfma_ref.h). */
static int same(const ref_op *op, uint32_t got, uint32_t want, uint32_t got_hi, uint32_t want_hi,
                int hi) {
    if (op->ta == RT_F64)
        return !hi || (got == want && got_hi == want_hi); /* (checked with its high half) */
    return got == want;
}

static wave *w, *snap;
static ref_regs rr;
static uint32_t expect[32][64];

/* The builds of src/exec/mfma.c's MFMA fast path every case runs under: the default one (the
 * CPU's best, or what GFXEMU_MFMA_ISA asks) and each lower one ("off": the generic path only).
 * One process runs them all, so the host reference, most of the time, is computed once per
 * case (tests/exec/test_mfma_isa.sh ran this program once per build before). */
static const char *const all_builds[] = {"avx512bf16", "avx512", "avx2", "generic", "off"};
static const char *builds[5];
static int nbuilds;

static void pick_builds(void) {
    const char *best = mfma_fast_isa();
    int i = 0;
    while (i < 4 && strcmp(all_builds[i], best))
        i++;
    for (; i < 5; i++)
        builds[nbuilds++] = all_builds[i];
}

/* Switches to builds[b]; a switch that did not take fails (it would test another build twice). */
static void use_build(int b) {
    const char *got = mfma_fast_force(builds[b]);
    CHECK(!strcmp(got, builds[b]), "fast path: asked for %s, runs %s", builds[b], got);
}

static void run_build(tcase *c, isa_arch arch, int special);

static void run_case(tcase *c, isa_arch arch, int special) {
    const ref_op *op = c->op;
    int g942 = arch == ISA_GFX942;
    memset(w, 0, sizeof *w);
    for (int r = 0; r < 256; r++) /* background: every register has a recognisable random value */
        for (int l = 0; l < 64; l++) {
            w->v[r][l] = (uint32_t)rnd();
            w->a[r][l] = (uint32_t)rnd();
        }
    int fa = op->kind == RK_F8F6F4 ? c->md.cbsz : 0, fb = op->kind == RK_F8F6F4 ? c->md.blgp : 0;
    memset(&rr, 0, sizeof rr);
    fill(rr.A, c->na, ref_bits(op->ta, fa), op->ta, fa, special, g942);
    fill(rr.B, c->nb, ref_bits(op->tb, fb), op->tb, fb, special, g942);
    int ct = op->ta == RT_F64 ? RT_F64 : op->ta == RT_I8 ? RT_I8 : RT_F32;
    if (ct == RT_I8) /* with specials, a quarter of C sits next to the i32 limits */
        for (int r = 0; r < c->nc; r++)
            for (int l = 0; l < 64; l++) {
                uint64_t v = rnd();
                rr.C[r][l] = special && (v & 3) == 0
                                 ? (uint32_t)(((v >> 2) & 1) ? 0x7ffff000u : 0x80000fffu) +
                                       (uint32_t)((v >> 8) & 0x1fff) - 0x1000u
                                 : (uint32_t)v;
            }
    else
        fill(rr.C, c->nc, ct == RT_F64 ? 64 : 32, ct, 0, special, g942);
    if (c->c_const) /* every element of C is the constant's value at the C element width */
        for (int r = 0; r < c->nc; r++)
            for (int l = 0; l < 64; l++)
                rr.C[r][l] = ct == RT_I8    ? ci_bits[c->c_const - 1]
                             : ct == RT_F32 ? cf_bits[c->c_const - 1]
                                            : (uint32_t)(cd_bits[c->c_const - 1] >> (32 * (r & 1)));
    for (int l = 0; l < 64; l++) {
        uint32_t ix = 0; /* legal 4:2 patterns: two distinct ascending positions per group of 4 */
        static const uint8_t pairs[6] = {0x4, 0x8, 0xc, 0x9, 0xd, 0xe};
        for (int p = 0; p < 8; p++)
            ix |= (uint32_t)pairs[rnd() % 6] << (4 * p);
        rr.idx[l] = ix;
        uint32_t s = (uint32_t)rnd(), sv = 0;
        for (int by = 0; by < 4; by++) { /* E8M0 scales near 1, sometimes NaN or extreme */
            uint32_t e = 117 + (uint32_t)((s >> (8 * by)) % 21);
            if (special && ((s >> (8 * by)) & 0xf0) == 0xf0)
                e = ((s >> (8 * by)) & 1) ? 0xff : 0;
            sv |= e << (8 * by);
        }
        rr.sa[l] = sv;
        rr.sb[l] = sv ^ 0x03030303u;
    }
    /* place the operands */
    for (int r = 0; r < c->na; r++)
        memcpy(c->a_agpr ? w->a[c->ra + r] : w->v[c->ra + r], rr.A[r], 256);
    for (int r = 0; r < c->nb; r++)
        memcpy(c->b_agpr ? w->a[c->rb + r] : w->v[c->rb + r], rr.B[r], 256);
    if (!c->c_const)
        for (int r = 0; r < c->nc; r++)
            memcpy(c->c_agpr ? w->a[c->rc + r] : w->v[c->rc + r], rr.C[r], 256);
    /* D overlapping A/B (form 3): the sources are what the registers hold before the op */
    if (c->form == 3) {
        for (int r = 0; r < c->na; r++)
            memcpy(rr.A[r], w->v[c->ra + r], 256);
        for (int r = 0; r < c->nb; r++)
            memcpy(rr.B[r], w->v[c->rb + r], 256);
    }
    memcpy(w->v[20], rr.idx, 256);
    memcpy(w->v[21], rr.sa, 256);
    memcpy(w->v[22], rr.sb, 256);
    uint64_t exec = (c - cases) & 1 ? rnd() : ~0ull;
    wave_set_exec(w, exec);
    /* every third case: f32 input denormals flushed (FP_DENORM[4] = 0) and FP16_OVFL set */
    int odd_mode = (c - cases) % 3 == 2;
    w->mode = odd_mode ? (0x3e0 | 1u << 9 | 1u << 23) : (0x3f0 | 1u << 9);
    c->md.ftz = c->md.ovfl = odd_mode;
    memcpy(snap, w, sizeof *w);

    ref_run(op, &rr, &c->md, expect);

    /* the same inputs and reference under every build of the fast path (builds[]) */
    for (int b = 0; b < nbuilds; b++) {
        memcpy(w, snap, sizeof *w);
        use_build(b);
        run_build(c, arch, special);
    }
}

/* Runs case c (its registers in w, its reference in expect) under the current build and checks
 * D and that nothing else changed. */
static void run_build(tcase *c, isa_arch arch, int special) {
    const ref_op *op = c->op;
    uint8_t code[20];
    memcpy(code, c->bytes, (size_t)c->size);
    static const uint8_t endpgm[4] = {0x00, 0x00, 0x81, 0xbf};
    memcpy(code + c->size, endpgm, 4);
    xprog p;
    if (xprog_build(&p, arch, code, (uint32_t)c->size + 4, 0x1000) != 0) {
        CHECK(0, "%s: xprog_build failed", c->text);
        return;
    }
    w->prog = &p;
    w->pc = 0;
    w->budget = 10;
    w->status = WAVE_RUNNING;
    wave_run(w);
    w->prog = NULL;
    xprog_free(&p);
    CHECK(w->status == WAVE_DONE, "%s [%s, fast path %s]: status %d fault kind %d", c->text,
          isa_arch_name(arch), mfma_fast_isa(), w->status, w->fault.kind);
    if (w->status != WAVE_DONE)
        return;
    int bad = 0;
    for (int r = 0; r < c->nd && bad < 3; r++)
        for (int l = 0; l < 64 && bad < 3; l++) {
            const uint32_t *D = c->d_agpr ? w->a[c->rd + r] : w->v[c->rd + r];
            int hi = op->ta == RT_F64 && (r & 1);
            uint32_t glo = hi ? (c->d_agpr ? w->a : w->v)[c->rd + r - 1][l] : D[l];
            uint32_t wlo = hi ? expect[r - 1][l] : expect[r][l];
            int ok = op->ta == RT_F64 ? same(op, glo, wlo, D[l], expect[r][l], hi)
                                      : same(op, D[l], expect[r][l], 0, 0, 0);
            if (!ok) {
                bad++;
                CHECK(0, "%s [%s, %s, fast path %s]: d%d lane %d = 0x%08x, reference 0x%08x",
                      c->text, isa_arch_name(arch), special ? "specials" : "random",
                      mfma_fast_isa(), r, l, D[l], expect[r][l]);
            }
        }
    /* nothing else changed */
    for (int r = 0; r < 256 && bad < 3; r++) {
        int vd = !c->d_agpr && r >= c->rd && r < c->rd + c->nd;
        int ad = c->d_agpr && r >= c->rd && r < c->rd + c->nd;
        if (!vd && memcmp(w->v[r], snap->v[r], 256)) {
            bad++;
            CHECK(0, "%s [fast path %s]: v%d changed", c->text, mfma_fast_isa(), r);
        }
        if (!ad && memcmp(w->a[r], snap->a[r], 256)) {
            bad++;
            CHECK(0, "%s [fast path %s]: a%d changed", c->text, mfma_fast_isa(), r);
        }
    }
}

/* gfx90a encodes BLGP on its f64 MFMAs (gfx940+ read those bits as neg); with no documented f64
 * broadcast the instruction faults as unimplemented and leaves the registers alone. */
static void test_f64_blgp(void) {
    memset(w, 0, sizeof *w);
    for (int r = 0; r < 16; r++)
        for (int l = 0; l < 64; l++)
            w->v[r][l] = (uint32_t)rnd();
    wave_set_exec(w, ~0ull);
    memcpy(snap, w, sizeof *w);
    int st =
        run_snippet(w, "gfx90a", "v_mfma_f64_16x16x4f64 v[0:7], v[8:9], v[10:11], v[0:7] blgp:3");
    CHECK(st == WAVE_FAULT && w->fault.kind == XF_UNIMPLEMENTED, "f64 blgp: status %d fault %d", st,
          w->fault.kind);
    CHECK(w->fault.note && strstr(w->fault.note, "blgp:3"), "f64 blgp: note '%s'",
          w->fault.note ? w->fault.note : "(none)");
    CHECK(!memcmp(w->v, snap->v, sizeof w->v), "f64 blgp changed registers");
    /* CBSZ/ABID are just as undocumented for the f64 forms on CDNA2 */
    static const char *const bcast[2] = {
        "v_mfma_f64_4x4x4f64 v[0:1], v[8:9], v[10:11], v[0:1] cbsz:2 abid:1",
        "v_mfma_f64_4x4x4f64 v[0:1], v[8:9], v[10:11], v[0:1] abid:5"};
    static const char *const want[2] = {"cbsz:2", "abid:5"};
    for (int i = 0; i < 2; i++) {
        memcpy(w, snap, sizeof *w);
        st = run_snippet(w, "gfx90a", bcast[i]);
        CHECK(st == WAVE_FAULT && w->fault.kind == XF_UNIMPLEMENTED && w->fault.note &&
                  strstr(w->fault.note, want[i]),
              "f64 %s: status %d fault %d note '%s'", want[i], st, w->fault.kind,
              w->fault.note ? w->fault.note : "(none)");
        CHECK(!memcmp(w->v, snap->v, sizeof w->v), "f64 %s changed registers", want[i]);
    }
    memcpy(w, snap, sizeof *w);
    st = run_snippet(w, "gfx90a", "v_mfma_f64_16x16x4f64 v[0:7], v[8:9], v[10:11], v[0:7]");
    CHECK(st == WAVE_DONE, "f64 without blgp: status %d", st);
}

/* Words LLVM decodes but whose register tuples run past v255 (v_mfma_f32_32x32x1_2b_f32
 * v[248:279] and v[240:271], as llvm-mc-22 -disassemble prints them, and two fast-path ops):
 * an illegal-instruction fault, with no register written. */
static void test_out_of_range(void) {
    /* the last two are fast-path ops (no modifier, C = D), whose checks are made once, when the
     * program is built: v_mfma_f32_32x32x8_f16 v[248:263] and v_mfma_f32_16x16x16_bf16
     * v[254:257] (C the same tuple) */
    static const uint8_t words[4][12] = {
        {0xf8, 0x00, 0xc0, 0xd3, 0x00, 0x03, 0x02, 0x04, 0x00, 0x00, 0x81, 0xbf},
        {0xf0, 0x00, 0xc0, 0xd3, 0x00, 0x03, 0x02, 0x04, 0x00, 0x00, 0x81, 0xbf},
        {0xf8, 0x00, 0xcc, 0xd3, 0x00, 0x05, 0xe2, 0x07, 0x00, 0x00, 0x81, 0xbf},
        {0xfe, 0x00, 0xe1, 0xd3, 0x00, 0x05, 0xfa, 0x07, 0x00, 0x00, 0x81, 0xbf},
    };
    static const int first[4] = {248, 240, 248, 254};
    for (int t = 0; t < 4; t++) {
        memset(w, 0, sizeof *w);
        for (int r = 0; r < 256; r++)
            for (int l = 0; l < 64; l++)
                w->v[r][l] = w->a[r][l] = (uint32_t)rnd();
        wave_set_exec(w, ~0ull);
        memcpy(snap, w, sizeof *w);
        xprog p;
        if (xprog_build(&p, ISA_GFX950, words[t], sizeof words[t], 0x1000) != 0) {
            CHECK(0, "xprog_build failed");
            continue;
        }
        w->prog = &p;
        w->budget = 10;
        w->status = WAVE_RUNNING;
        wave_run(w);
        w->prog = NULL;
        xprog_free(&p);
        CHECK(w->status == WAVE_FAULT && w->fault.kind == XF_ILLEGAL && w->fault.pc == 0,
              "vdst v%d tuple past v255: status %d, fault kind %d", first[t], w->status,
              w->fault.kind);
        CHECK(!memcmp(w->v, snap->v, sizeof w->v) && !memcmp(w->a, snap->a, sizeof w->a),
              "vdst v%d tuple past v255: registers changed", first[t]);
    }
}

/* A v_mfma_ld_scale_b32 that is not fused with a scaled MFMA: no register changes (its scale
 * only feeds the MFMA of the same 16-byte instruction, CDNA4 ISA 7.2.1). */
static void test_ld_scale_alone(void) {
    memset(w, 0, sizeof *w);
    for (int r = 0; r < 256; r++)
        for (int l = 0; l < 64; l++)
            w->v[r][l] = w->a[r][l] = (uint32_t)rnd();
    wave_set_exec(w, ~0ull);
    memcpy(snap, w, sizeof *w);
    int st = run_snippet(w, "gfx950",
                         "v_mfma_ld_scale_b32 v21, v22 op_sel:[1,0] op_sel_hi:[0,1]\n"
                         "v_mfma_ld_scale_b32 v0, v1");
    CHECK(st == WAVE_DONE, "v_mfma_ld_scale_b32 alone: status %d fault %d", st, w->fault.kind);
    CHECK(!memcmp(w->v, snap->v, sizeof w->v) && !memcmp(w->a, snap->a, sizeof w->a),
          "v_mfma_ld_scale_b32 alone changed registers");
}

/* Every code of the four 8-bit formats (fp8/bf8 as OCP on gfx950 and as FNUZ on gfx942)
 * through the fast path's conversion, one code per row: A[i][0] is the code, A's other
 * elements are zero and B is all ones (the format's code for 1.0, found through the
 * reference), so D[i][j] is C + value(code) alone: a wrong value, or a NaN or inf taken for a
 * number, shows in its own row instead of being lost in a sum. */
static void test_fp8_codes(void) {
    static const char *const names[2] = {"v_mfma_f32_16x16x32_fp8_fp8",
                                         "v_mfma_f32_16x16x32_bf8_bf8"};
    for (int a = 0; a < 2; a++) {
        int g942 = a == 0;
        for (int t = 0; t < 2; t++) {
            const ref_op *op = NULL;
            for (size_t i = 0; i < NOPS; i++)
                if (!strcmp(ops[i].name, names[t]))
                    op = &ops[i];
            ref_mods md = {.gfx942 = g942};
            unsigned one = 0;
            while (one < 256 && ref_small(one, op->ta, 0, g942) != 1.0f)
                one++;
            CHECK(one < 256, "%s: no code for 1.0", names[t]);
            for (unsigned c0 = 0; c0 < 256; c0 += 16) {
                memset(w, 0, sizeof *w);
                memset(&rr, 0, sizeof rr);
                for (int l = 0; l < 64; l++) {
                    rr.A[0][l] = l < 16 ? c0 + (unsigned)l : 0; /* A[i][0] = code c0 + i */
                    rr.B[0][l] = rr.B[1][l] = one * 0x01010101u;
                    for (int r = 0; r < 4; r++)
                        rr.C[r][l] = (uint32_t)rnd() & 0x3f7fffffu; /* finite, |C| < 1 */
                }
                for (int r = 0; r < 2; r++) {
                    memcpy(w->v[32 + r], rr.A[r], 256);
                    memcpy(w->v[48 + r], rr.B[r], 256);
                }
                for (int r = 0; r < 4; r++)
                    memcpy(w->v[64 + r], rr.C[r], 256);
                wave_set_exec(w, ~0ull);
                ref_run(op, &rr, &md, expect);
                char text[128];
                snprintf(text, sizeof text, "%s v[64:67], v[32:33], v[48:49], v[64:67]", names[t]);
                int st = run_snippet(w, g942 ? "gfx942" : "gfx950", text);
                CHECK(st == WAVE_DONE, "%s: status %d", text, st);
                int bad = 0;
                for (int r = 0; r < 4 && bad < 3; r++)
                    for (int l = 0; l < 64 && bad < 3; l++)
                        if (!same(op, w->v[64 + r][l], expect[r][l], 0, 0, 0)) {
                            bad++;
                            CHECK(0,
                                  "%s [%s], codes from 0x%02x: d%d lane %d = 0x%08x, reference "
                                  "0x%08x",
                                  names[t], g942 ? "gfx942" : "gfx950", c0, r, l, w->v[64 + r][l],
                                  expect[r][l]);
                        }
            }
        }
    }
}

/* Runs text (one MFMA; or, when text is NULL, the 12 bytes at code) on w with 64 lanes of
 * register values from the rules below and MODE mode, built for the fast tier (ref 0) or the
 * reference tier (ref 1); v0-v31 land in out.  Returns the wave status (-1: not built). */
static int run_tier(const char *arch, const char *text, const uint8_t *code, uint32_t mode, int ref,
                    uint32_t (*out)[64]) {
    snippet_prog sp = {0};
    xprog raw;
    x_set_fast_tier(!ref);
    int built = text ? snippet_prog_load(&sp, arch, text)
                     : xprog_build(&raw, test_isa_arch(arch), code, 12, 0x1000);
    x_set_fast_tier(1);
    if (built != 0)
        return -1;
    memset(w, 0, sizeof *w);
    for (int l = 0; l < 64; l++) {
        for (int r = 0; r < 32; r++) /* accumulators 1.0 to 8.0 */
            w->v[r][l] = 0x3f800000u + (uint32_t)((l + r) & 3) * 0x00800000u;
        for (int r = 16; r < 28; r++) /* A and B (v16-19, v24-27): bf16 2^64, or 2 in some */
            if (r < 20 || r >= 24)    /* lanes' halves */
                w->v[r][l] = l % 5 == 0 ? 0x40005f80u : 0x5f805f80u;
    }
    wave_set_exec(w, ~0ull);
    w->mode = mode;
    w->prog = text ? &sp.prog : &raw;
    w->budget = 10;
    wave_run(w);
    memcpy(out, w->v, 32 * sizeof out[0]);
    w->prog = NULL;
    if (text)
        snippet_prog_free(&sp);
    else
        xprog_free(&raw);
    return w->status;
}

/* The fast path's tests made when the program is built (mfma.c x_mfma_pick) and the ones left
 * for each run.  FP16_OVFL is read per run: the same instruction (a fast-path op, C in place)
 * with MODE.FP16_OVFL clear and set must give the reference tier's sums each time (bf16 2^64 *
 * 2^64 overflows f32), and the two must differ.  C overlapping D only in part (the general
 * path's case) must give the reference tier's result as well: a 16x16 op, and a 32x32 one as
 * words (LLVM refuses to assemble the overlap for 16-register tuples; it decodes it). */
static void test_built_checks(void) {
    static const char *const ovfl = "v_mfma_f32_32x32x8_bf16 v[0:15], v[16:17], v[18:19], v[0:15]";
    static const char *const part[2] = {
        "v_mfma_f32_16x16x16_bf16 v[4:7], v[16:17], v[18:19], v[6:9]",
        "v_mfma_f32_16x16x16_bf16 v[6:9], v[24:25], v[26:27], v[4:7]"};
    /* v_mfma_f32_32x32x8_bf16 v[0:15], v[16:17], v[18:19], v[8:23] and v[8:23], v[24:25],
     * v[26:27], v[0:15] (C above D, then below it); s_endpgm */
    static const uint8_t part32[2][12] = {
        {0x00, 0x00, 0xe0, 0xd3, 0x10, 0x25, 0x22, 0x04, 0x00, 0x00, 0x81, 0xbf},
        {0x08, 0x00, 0xe0, 0xd3, 0x18, 0x35, 0x02, 0x04, 0x00, 0x00, 0x81, 0xbf}};
    static uint32_t got[2][32][64], ref[32][64];
    for (int a = 0; a < 2 * nbuilds; a++) { /* each target under each build */
        const char *arch = a & 1 ? "gfx942" : "gfx950";
        use_build(a / 2);
        for (int o = 0; o < 2; o++) {
            uint32_t mode = 0x3f0 | 1u << 9 | (uint32_t)o << 23;
            int st = run_tier(arch, ovfl, NULL, mode, 0, got[o]),
                sr = run_tier(arch, ovfl, NULL, mode, 1, ref);
            CHECK(st == WAVE_DONE && sr == WAVE_DONE, "[%s] %s FP16_OVFL %d: status %d / %d", ovfl,
                  arch, o, st, sr);
            CHECK(!memcmp(got[o], ref, sizeof ref),
                  "[%s] %s FP16_OVFL %d: differs from the reference tier", ovfl, arch, o);
        }
        CHECK(memcmp(got[0], got[1], sizeof got[0]) != 0,
              "[%s] %s: FP16_OVFL changed nothing (the case does not overflow)", ovfl, arch);
        for (int p = 0; p < 4; p++) {
            const char *t = p < 2 ? part[p] : NULL, *name = t        ? t
                                                            : p == 2 ? "32x32 C above D"
                                                                     : "32x32 C below D";
            int st = run_tier(arch, t, part32[p & 1], 0x3f0 | 1u << 9, 0, got[0]),
                sr = run_tier(arch, t, part32[p & 1], 0x3f0 | 1u << 9, 1, ref);
            CHECK(st == WAVE_DONE && sr == WAVE_DONE, "[%s] %s: status %d / %d", name, arch, st,
                  sr);
            CHECK(!memcmp(got[0], ref, sizeof ref), "[%s] %s: differs from the reference tier",
                  name, arch);
        }
    }
}

/* Runs text for arch from the state in w on the reference tier, then from the same state on the
 * fast tier: ref gets the first wave, w the second.  Returns how many MFMAs the avx512bf16
 * build's dot products ran on the fast tier; what names the case in failures. */
static uint64_t run_tiers(const char *arch, const char *text, wave *ref, const char *what) {
    memcpy(snap, w, sizeof *w);
    x_set_fast_tier(0);
    int st = run_snippet(w, arch, text);
    x_set_fast_tier(1);
    CHECK(st == WAVE_DONE, "%s, reference tier: status %d", what, st);
    memcpy(ref, w, sizeof *w);
    memcpy(w, snap, sizeof *w);
    uint64_t before = mfma_fast_dp_count();
    st = run_snippet(w, arch, text);
    CHECK(st == WAVE_DONE, "%s [%s]: status %d", what, mfma_fast_isa(), st);
    return mfma_fast_dp_count() - before;
}
/* VGPRs r0 .. r1-1 of w against ref's, bit for bit, the first three differences reported */
static void same_rows(const wave *ref, int r0, int r1, const char *what) {
    for (int r = r0, bad = 0; r < r1 && bad < 3; r++)
        for (int l = 0; l < 64 && bad < 3; l++)
            if (w->v[r][l] != ref->v[r][l]) {
                bad++;
                CHECK(0, "%s [%s]: v%d lane %d = 0x%08x, reference 0x%08x", what, mfma_fast_isa(),
                      r, l, w->v[r][l], ref->v[r][l]);
            }
}

/* The fast path's cache of converted fp8/bf8 operands (mfma.c f8_lookup): a program of MFMAs
 * that reuse, change and alias their operands, run by the current build from an empty cache and
 * compared register for register with the reference tier (no fast path, no cache).  It covers:
 * operands used again unchanged (the stored floats); a changed register (the whole second
 * register of A; one lane, the last, of B's last register); the same registers read as another
 * type; A and B the same registers; an AGPR tuple with a VGPR tuple's index; the other shape;
 * the destination overwriting A; and replacement, with the entry the B lookup would take being
 * the one A's lookup just found (which must not be replaced: A's floats are still to be used). */
static void test_f8_cache(void) {
    static const char *const text =
        /* 8 entries for 8 new operands, filled in order */
        "v_mfma_f32_16x16x32_fp8_fp8 v[64:67], v[0:1], v[2:3], v[64:67]\n"
        "v_mfma_f32_16x16x32_fp8_fp8 v[68:71], v[4:5], v[6:7], v[64:67]\n"
        "v_mfma_f32_16x16x32_fp8_fp8 v[72:75], v[8:9], v[10:11], v[68:71]\n"
        "v_mfma_f32_16x16x32_fp8_fp8 v[76:79], v[12:13], v[14:15], v[72:75]\n"
        /* A in the oldest entry, B new: B must take the next entry, not A's */
        "v_mfma_f32_16x16x32_fp8_fp8 v[80:83], v[0:1], v[16:17], v[76:79]\n"
        /* A replaced above (v[2:3]), B found */
        "v_mfma_f32_16x16x32_fp8_fp8 v[84:87], v[2:3], v[0:1], v[80:83]\n"
        /* both unchanged: the stored floats */
        "v_mfma_f32_16x16x32_fp8_fp8 v[88:91], v[32:33], v[48:49], v[84:87]\n"
        "v_mfma_f32_16x16x32_fp8_fp8 v[92:95], v[32:33], v[48:49], v[88:91]\n"
        /* A's second register changed */
        "v_mov_b32 v33, v40\n"
        "v_mfma_f32_16x16x32_fp8_fp8 v[64:67], v[32:33], v[48:49], v[92:95]\n"
        /* B's last lane of its last register changed */
        "s_mov_b32 exec_lo, 0\n"
        "s_mov_b32 exec_hi, 0x80000000\n"
        "v_mov_b32 v49, v41\n"
        "s_mov_b64 exec, -1\n"
        "v_mfma_f32_16x16x32_fp8_fp8 v[68:71], v[32:33], v[48:49], v[64:67]\n"
        /* the same registers as bf8; A and B the same registers; an AGPR tuple at v[32:33]'s
         * index; the 32x32x16 shape on the same operands */
        "v_mfma_f32_16x16x32_bf8_fp8 v[72:75], v[32:33], v[48:49], v[68:71]\n"
        "v_mfma_f32_16x16x32_fp8_fp8 v[76:79], v[48:49], v[48:49], v[72:75]\n"
        "v_mfma_f32_16x16x32_fp8_fp8 v[80:83], a[32:33], v[48:49], v[76:79]\n"
        "v_mfma_f32_32x32x16_fp8_fp8 v[96:111], v[32:33], v[48:49], v[96:111]\n"
        /* D overwrites A, then the same instruction reads the new A */
        "v_mfma_f32_16x16x32_fp8_fp8 v[32:35], v[32:33], v[48:49], v[80:83]\n"
        "v_mfma_f32_16x16x32_fp8_fp8 v[84:87], v[32:33], v[48:49], v[80:83]\n";
    static wave ref;
    for (int a = 0; a < 2; a++) {
        const char *arch = a ? "gfx942" : "gfx950";
        memset(w, 0, sizeof *w);
        for (int r = 0; r < 256; r++)
            for (int l = 0; l < 64; l++) {
                w->v[r][l] = (uint32_t)rnd();
                w->a[r][l] = (uint32_t)rnd();
            }
        /* operands without NaN or inf codes (exponent's top bit clear, FNUZ's 0x80 ruled out by
         * bit 0) and finite accumulators, so that the sums differ where the operands do */
        for (int r = 0; r < 64; r++)
            for (int l = 0; l < 64; l++) {
                w->v[r][l] = (w->v[r][l] & 0xb6b6b6b6u) | 0x01010101u;
                w->a[r][l] = (w->a[r][l] & 0xb6b6b6b6u) | 0x01010101u;
            }
        for (int r = 64; r < 112; r++)
            for (int l = 0; l < 64; l++)
                w->v[r][l] &= 0xbfffffffu;
        wave_set_exec(w, ~0ull);
        w->mode = 0x3f0 | 1u << 9;
        memcpy(snap, w, sizeof *w);
        x_set_fast_tier(0);
        int st = run_snippet(w, arch, text);
        x_set_fast_tier(1);
        CHECK(st == WAVE_DONE, "fp8 cache program [%s], reference tier: status %d", arch, st);
        memcpy(&ref, w, sizeof *w);
        memcpy(w, snap, sizeof *w);
        mfma_fast_cache_clear();
        st = run_snippet(w, arch, text);
        CHECK(st == WAVE_DONE, "fp8 cache program [%s, %s]: status %d", arch, mfma_fast_isa(), st);
        int bad = 0;
        for (int r = 0; r < 256 && bad < 3; r++)
            for (int l = 0; l < 64 && bad < 3; l++) {
                if (w->v[r][l] != ref.v[r][l]) {
                    bad++;
                    CHECK(0, "fp8 cache program [%s, %s]: v%d lane %d = 0x%08x, reference 0x%08x",
                          arch, mfma_fast_isa(), r, l, w->v[r][l], ref.v[r][l]);
                }
                if (w->a[r][l] != ref.a[r][l]) {
                    bad++;
                    CHECK(0, "fp8 cache program [%s, %s]: a%d lane %d = 0x%08x, reference 0x%08x",
                          arch, mfma_fast_isa(), r, l, w->a[r][l], ref.a[r][l]);
                }
            }
        /* the program's results are not all equal (the test would pass on an MFMA that wrote
         * nothing): the changed operands give other sums than the unchanged ones */
        CHECK(memcmp(ref.v[88], ref.v[92], 256) && memcmp(ref.v[64], ref.v[68], 256) &&
                  memcmp(ref.v[84], snap->v[84], 256),
              "fp8 cache program [%s]: reference results do not differ", arch);
        if (a)
            continue;
        /* the same registers read by gfx942, whose fp8 is FNUZ: gfx950's entries hold OCP
         * floats for exactly these contents */
        static const char *const fnuz = "v_mfma_f32_16x16x32_fp8_fp8 v[84:87], v[0:1], v[48:49], "
                                        "v[80:83]";
        run_tiers("gfx942", fnuz, &ref, "fp8 cache, gfx942 after gfx950");
        same_rows(&ref, 84, 88, "fp8 cache, gfx942 after gfx950");
    }
}

/* The avx512bf16 build's dot products (mfma.c mmk_dp) run only where vdpbf16ps's denormal
 * flushing cannot change a result: A and B elements zero or with biased exponent 72..183, C
 * elements zero or 25..247.  Each scenario fills the operands of six bf16 MFMAs (all four fast
 * shapes, a constant C, D overlapping A and B) and runs them on the reference tier and on the
 * fast tier; the results must be bit-identical, and the dot products must have run for exactly
 * the MFMAs whose operands are all in the window (none under the other builds).  The
 * out-of-window scenarios include ones where flushing would change the result (a denormal A
 * or B element, a denormal C, a product below 2^-126). */
static const char *const dp_text =
    "v_mfma_f32_16x16x16_bf16 v[64:67], v[0:1], v[2:3], v[64:67]\n"
    "v_mfma_f32_16x16x32_bf16 v[68:71], v[4:7], v[8:11], v[68:71]\n"
    "v_mfma_f32_32x32x8_bf16 v[80:95], v[0:1], v[2:3], v[80:95]\n"
    "v_mfma_f32_32x32x16_bf16 v[96:111], v[4:7], v[8:11], v[96:111]\n"
    "v_mfma_f32_16x16x16_bf16 v[72:75], v[0:1], v[2:3], 0\n"
    "v_mfma_f32_32x32x16_bf16 v[112:127], v[112:115], v[116:119], v[16:31]\n";
enum { DP_NMFMA = 6 };
static int is_c_reg(int r) {
    return (r >= 16 && r < 32) || (r >= 64 && r < 112 && !(r >= 72 && r < 80));
}
static int is_ab_reg(int r) { return r < 12 || (r >= 112 && r < 120); }
/* a bf16 with a random sign and mantissa and a biased exponent in [lo, hi] (1 in 8 zero) */
static uint32_t dp_bf16(int lo, int hi) {
    uint64_t r = rnd();
    if ((r & 7) == 0)
        return (r >> 3 & 1) << 15;
    return (uint32_t)((r >> 4 & 1) << 15 |
                      (uint32_t)(lo + (int)((r >> 8) % (uint64_t)(hi - lo + 1))) << 7 |
                      (r >> 20 & 0x7f));
}
static uint32_t dp_f32(int lo, int hi) {
    uint64_t r = rnd();
    if ((r & 7) == 0)
        return (uint32_t)(r >> 3 & 1) << 31;
    return (uint32_t)((r >> 4 & 1) << 31 |
                      (uint32_t)(lo + (int)((r >> 8) % (uint64_t)(hi - lo + 1))) << 23 |
                      (r >> 20 & 0x7fffff));
}
static uint32_t dp_bf16_at(int e) { return dp_bf16(e, e); }
static uint32_t dp_f32_at(int e) { return dp_f32(e, e); }
static const int dp_edge_ab[4] = {72, 73, 182, 183}, dp_edge_c[4] = {25, 26, 246, 247};
typedef struct {
    const char *name;
    int kind;      /* 0 random in the window, 1 the window's edges, 2 directed values */
    uint32_t a, b; /* kind 2: every A element a, every B element b (bf16) */
    uint32_t c;    /* kind 2: every C element */
    int plant;     /* kinds 0/1: 1 one A/B element per tuple set to `a`, 2 one C element to `c` */
    int in;        /* MFMAs whose operands are all in the window */
} dp_scenario;
static const dp_scenario dp_scen[] = {
    {"in the window", 0, 0, 0, 0, 0, DP_NMFMA},
    {"the window's edges", 1, 0, 0, 0, 0, DP_NMFMA},
    {"cancellation to 2^-125", 2, 0x2400, 0xa800, 0x0d000001, 0, DP_NMFMA},
    {"denormal A (DAZ would drop it)", 2, 0x0040, 0x3f80, 0, 0, 0},
    {"denormal B", 2, 0x3f80, 0x0041, 0, 0, 0},
    {"denormal C (DAZ would drop it)", 2, 0, 0x3f80, 0x00000001, 0, 1},
    {"products below 2^-126 (FTZ would drop them)", 2, 0x1f80, 0x9f80, 0, 0, 0},
    {"A and B exponent 71", 2, 0x2380, 0x2380, 0, 0, 0},
    {"C exponent 24", 2, 0x3f80, 0x3f80, 0x0c000000, 0, 1},
    {"one A/B element with exponent 71", 0, 0x2380, 0, 0, 1, 0},
    {"one A/B element with exponent 184", 0, 0xdc00, 0, 0, 1, 0},
    {"one A/B element infinite", 0, 0x7f80, 0, 0, 1, 0},
    {"one A/B element NaN", 0, 0xffc1, 0, 0, 1, 0},
    {"one A/B element denormal", 0, 0x8001, 0, 0, 1, 0},
    {"one C element with exponent 24", 0, 0, 0, 0x8c7fffff, 2, 1},
    {"one C element with exponent 248", 0, 0, 0, 0x7c000000, 2, 1},
    {"one C element denormal", 0, 0, 0, 0x807fffff, 2, 1},
    {"one C element NaN", 0, 0, 0, 0x7fc00000, 2, 1},
};
/* A tuples v[0:1], v[4:7], v[112:115]; B tuples v[2:3], v[8:11], v[116:119] */
static int is_a_reg(int r) { return r < 2 || (r >= 4 && r < 8) || (r >= 112 && r < 116); }
static void dp_fill(const dp_scenario *sc) {
    memset(w, 0, sizeof *w);
    for (int r = 0; r < 128; r++)
        for (int l = 0; l < 64; l++) {
            uint32_t v = 0, e = is_a_reg(r) ? sc->a : sc->b;
            if (is_ab_reg(r))
                v = sc->kind == 2   ? e | e << 16
                    : sc->kind == 1 ? dp_bf16_at(dp_edge_ab[rnd() % 4]) |
                                          dp_bf16_at(dp_edge_ab[rnd() % 4]) << 16
                                    : dp_bf16(72, 183) | dp_bf16(72, 183) << 16;
            else if (is_c_reg(r))
                v = sc->kind == 2   ? sc->c
                    : sc->kind == 1 ? dp_f32_at(dp_edge_c[rnd() % 4])
                                    : dp_f32(25, 247);
            w->v[r][l] = v;
        }
    static const int tuples[][2] = {{0, 2}, {2, 2}, {4, 4}, {8, 4}, {112, 4}, {116, 4}};
    static const int ctuples[][2] = {{64, 4}, {68, 4}, {80, 16}, {96, 16}, {16, 16}};
    if (sc->plant == 1)
        for (int t = 0; t < 6; t++) {
            int r = tuples[t][0] + (int)(rnd() % (uint64_t)tuples[t][1]), l = (int)(rnd() % 64),
                h = (int)(rnd() % 2);
            w->v[r][l] = (w->v[r][l] & (0xffff0000u >> 16 * h)) | sc->a << 16 * h;
        }
    if (sc->plant == 2)
        for (int t = 0; t < 5; t++)
            w->v[ctuples[t][0] + (int)(rnd() % (uint64_t)ctuples[t][1])][rnd() % 64] = sc->c;
    wave_set_exec(w, ~0ull);
    w->mode = 0x3f0 | 1u << 9;
}
static void test_dp_window(const char *build) {
    static wave ref;
    int dp = !strcmp(build, "avx512bf16");
    for (size_t i = 0; i < sizeof dp_scen / sizeof dp_scen[0]; i++)
        for (int rep = 0; rep < (dp_scen[i].kind == 2 ? 1 : 4); rep++) {
            const dp_scenario *sc = &dp_scen[i];
            dp_fill(sc);
            char what[160];
            snprintf(what, sizeof what, "bf16 dot products, %s", sc->name);
            uint64_t ran = run_tiers("gfx950", dp_text, &ref, what);
            CHECK(ran == (uint64_t)(dp ? sc->in : 0), "%s [%s]: ran for %llu MFMAs, want %d", what,
                  build, (unsigned long long)ran, dp ? sc->in : 0);
            same_rows(&ref, 0, 128, what);
        }
}

/* The same for 8-bit operands, which the avx512bf16 build multiplies as bf16 (every fp8 and bf8
 * value is one): four fp8/bf8 MFMAs on gfx950 (OCP) and gfx942 (FNUZ) with random finite codes,
 * then with one NaN code in v[0:1] (the A of two of them), then with denormal C elements (all
 * but the one with a constant C leave the dot products). */
static void test_dp_fp8(const char *build) {
    static const char *const text =
        "v_mfma_f32_16x16x32_fp8_fp8 v[64:67], v[0:1], v[2:3], v[64:67]\n"
        "v_mfma_f32_32x32x16_bf8_fp8 v[80:95], v[4:5], v[6:7], v[80:95]\n"
        "v_mfma_f32_16x16x32_bf8_bf8 v[68:71], v[0:1], v[6:7], 0\n"
        "v_mfma_f32_32x32x16_fp8_bf8 v[96:111], v[4:5], v[2:3], v[96:111]\n";
    static wave ref;
    int dp = !strcmp(build, "avx512bf16");
    for (int a = 0; a < 2; a++)
        for (int sc = 0; sc < 3; sc++) {
            const char *arch = a ? "gfx942" : "gfx950";
            static const int want[3] = {4, 2, 1};
            memset(w, 0, sizeof *w);
            /* codes finite as fp8 and as bf8 (v0, v1 are read as both), OCP and FNUZ: below
             * 0x7c in magnitude (bf8's infinities and NaNs), and not FNUZ's NaN 0x80 */
            for (int r = 0; r < 8; r++)
                for (int l = 0; l < 64; l++)
                    for (int b = 0; b < 4; b++) {
                        uint32_t c;
                        do
                            c = (uint32_t)rnd() & 0xff;
                        while ((c & 0x7f) >= 0x7c || c == 0x80);
                        w->v[r][l] |= c << 8 * b;
                    }
            for (int r = 64; r < 112; r++)
                for (int l = 0; l < 64; l++)
                    w->v[r][l] = sc == 2 ? 0x00000003u : dp_f32(25, 247);
            if (sc == 1) /* NaN in both formats: OCP 0x7f, FNUZ 0x80 */
                w->v[rnd() % 2][rnd() % 64] = a ? 0x80u : 0x7fu << 8 * (rnd() % 4);
            wave_set_exec(w, ~0ull);
            w->mode = 0x3f0 | 1u << 9;
            char what[64];
            snprintf(what, sizeof what, "fp8 dot products %s %d", arch, sc);
            uint64_t ran = run_tiers(arch, text, &ref, what);
            CHECK(ran == (uint64_t)(dp ? want[sc] : 0), "%s [%s]: ran for %llu MFMAs, want %d",
                  what, build, (unsigned long long)ran, dp ? want[sc] : 0);
            same_rows(&ref, 64, 112, what);
        }
}

int main(int argc, char **argv) {
    /* --fast-path: only name the build the CPU (and GFXEMU_MFMA_ISA) select.  test_mfma_isa.sh
     * asks this for the default build, whose cases this program's own run in the suite checks. */
    if (argc > 1 && strcmp(argv[1], "--fast-path") == 0) {
        printf("mfma fast path: %s\n", mfma_fast_isa());
        return 0;
    }
    w = calloc(1, sizeof *w);
    snap = calloc(1, sizeof *snap);
    pick_builds();
    /* tests/isa/test_asm_crosscheck.sh runs this again for the assembler's bytes: the cases'
     * snippets are all assembled before any runs, and running them again under every build
     * would be this program's own run in the suite again; the edge tests assemble their
     * snippets as they run, so they run once */
    const char *cc = getenv("GFXEMU_ASM_CROSSCHECK");
    int assemble_only = cc && *cc;
    int total[ISA_NARCH] = {0};
    static const int bit[ISA_NARCH] = {[ISA_GFX942] = G2, [ISA_GFX950] = G5, [ISA_GFX90A] = G9};
    for (int a = 0; a < ISA_NARCH; a++) {
        isa_arch arch = (isa_arch)a;
        if (isa_is_rdna(a)) /* no MFMA on RDNA (WMMA is not implemented) */
            continue;
        ncases = 0;
        for (size_t i = 0; i < NOPS; i++)
            if (ops[i].archs & bit[a])
                make_cases(&ops[i], arch == ISA_GFX942);
        for (size_t i = 0; i < NOPS; i++)
            if (ops[i].archs & bit[a])
                make_const_c_cases(&ops[i], arch == ISA_GFX942);
        if (assemble_all(isa_targets[a].name) != 0) {
            CHECK(0, "llvm-mc-22 did not assemble the %s cases", isa_targets[a].name);
            continue;
        }
        for (int i = 0; i < ncases && !assemble_only; i++)
            run_case(&cases[i], arch, i % 2);
        total[a] = ncases;
    }
    for (int b = 0; b < (assemble_only ? 1 : nbuilds); b++) { /* their snippets: once */
        use_build(b);
        test_out_of_range();
        test_ld_scale_alone();
        test_f64_blgp();
        test_fp8_codes();
        test_f8_cache();
        test_built_checks();
        if (!assemble_only) { /* (test_built_checks leaves the last build on) */
            use_build(b);
            test_dp_window(builds[b]);
            test_dp_fp8(builds[b]);
        }
    }
    use_build(0);
    /* the default build (test_mfma_isa.sh checks GFXEMU_MFMA_ISA selects the one it asks for) */
    printf("mfma fast path: %s\n", mfma_fast_isa());
    printf(assemble_only ? "assembled only (GFXEMU_ASM_CROSSCHECK); fast path builds:"
                         : "every case ran under the fast path builds:");
    for (int b = 0; b < nbuilds; b++)
        printf(" %s", builds[b]);
    printf("\n");
    printf("gfx942: %d cases, gfx950: %d cases, gfx90a: %d cases\n", total[ISA_GFX942],
           total[ISA_GFX950], total[ISA_GFX90A]);
    free(w);
    free(snap);
    return check_summary("test_mfma");
}
