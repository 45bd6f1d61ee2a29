/* test_vop3_ops.c - every VOP3/VOP3P/MAI opcode of gfx942 and gfx950 against LLVM 22, plus
 * hand-checked decoded records.
 *
 * Part 1 (oracle): for each opcode field value 0..0x3ff and each target, a set of probe
 * encodings (distinct VGPRs, 64-bit pairs, SGPRs, inline constants, misaligned tuples, AGPR
 * selects), a literal of several type-sensitive values in each source position, then every one
 * of the 13 modifier bits flipped alone and a few seeded random modifier combinations on top of
 * each legal probe, and 4000 random scaled-MFMA pairs.  Legality, size and text must equal
 * LLVM's.  Every opcode LLVM accepts must be decoded by us for at least one probe.
 * Part 2 (records): words built by hand from the CDNA3/CDNA4 manual's field layout, with the
 * op id, operand kinds/indices/widths and modifier bits the encoding implies.
 *
 * Build: gcc -std=c11 -Wall -Wextra -Werror -D_GNU_SOURCE -Isrc -Itests -Iinclude
 *        tests/isa/test_vop3_ops.c tests/common/(all .c) src/isa/(all .c) -ldl */
#include "common/check.h"
#include "common/rng.h"
#include "common/llvm_oracle.h"
#include "isa/isa.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define MAXC 400000

static uint32_t (*cases)[4];
static size_t ncases;
static unsigned fails, checked;

static uint64_t rng = 0x9e3779b97f4a7c15ull;
static uint32_t rnd(void) { return (uint32_t)(xorshift64(&rng) >> 11); }

static void add(uint32_t w0, uint32_t w1, uint32_t lit) {
    if (ncases < MAXC) {
        uint32_t *c = cases[ncases++];
        c[0] = w0, c[1] = w1, c[2] = lit, c[3] = 0xbf800000; /* s_nop after */
    }
}

static uint32_t srcs(unsigned a, unsigned b, unsigned c) { return a | (b << 9) | (c << 18); }

/* The probe operand sets: vdst, src0, src1, src2, extra w0 bits, extra w1 bits. */
static const struct {
    unsigned vdst, s0, s1, s2;
    uint32_t w0x, w1x;
} probes[] = {
    {40, 256 + 8, 256 + 16, 256 + 24, 0, 0},
    {40, 256 + 8, 256 + 16, 256 + 24, 1u << 14, 3u << 27}, /* VOP3P op_sel_hi default */
    {0, 256 + 8, 256 + 16, 256 + 24, 0, 3u << 27},         /* ops without vdst */
    {0, 256 + 8, 256 + 16, 256 + 24, 0, 0},
    {10, 4, 12, 256 + 30, 0, 0},                      /* SGPR sources, dst pair */
    {6, 128 + 7, 242, 248, 1u << 14, 3u << 27},       /* inline constants */
    {41, 255, 256 + 17, 256 + 25, 0, 0},              /* literal, odd registers */
    {106, 256 + 2, 106, 256 + 4, 1u << 15, 3u << 27}, /* vcc; acc_cd for MAI */
    {200, 256 + 100, 256 + 120, 256 + 200, 1u << 15, 0},
};

/* Literal values whose printing depends on the operand type (lit() when the value would have
 * been an inline constant of that type; 16-bit operands look at the low half). */
static const uint32_t lits[] = {0x3f000000, 0x3800, 0x3f00,     0xffff, 0x10000,
                                0x3e22f983, 1,      0xfffffff0, 0x3118, 0xbc00};

#define NPROBES (sizeof probes / sizeof probes[0])
#define NLITS (sizeof lits / sizeof lits[0])
#define NPER (NPROBES + 6 * NLITS) /* cases per opcode in build_cases */

static void build_cases(void) {
    for (unsigned op = 0; op < 1024; op++) {
        for (size_t p = 0; p < sizeof probes / sizeof probes[0]; p++)
            add(0xd0000000u | (op << 16) | probes[p].vdst | probes[p].w0x,
                srcs(probes[p].s0, probes[p].s1, probes[p].s2) | probes[p].w1x, 0x40490fdb);
        for (unsigned s = 0; s < 3; s++)
            for (size_t k = 0; k < sizeof lits / sizeof lits[0]; k++) {
                unsigned e[3] = {256 + 8, 256 + 16, 256 + 24};
                e[s] = 255;
                add(0xd0000000u | (op << 16) | 40 | (1u << 14), srcs(e[0], e[1], e[2]) | (3u << 27),
                    lits[k]);
                add(0xd0000000u | (op << 16) | 40, srcs(e[0], e[1], e[2]), lits[k]);
            }
    }
}

/* Modifier variants of one legal word: each modifier bit alone, and random combinations. */
static void add_variants(const uint32_t *w) {
    for (int b = 8; b < 16; b++)
        add(w[0] ^ (1u << b), w[1], w[2]);
    for (int b = 27; b < 32; b++)
        add(w[0], w[1] ^ (1u << b), w[2]);
    for (int k = 0; k < 6; k++)
        add((w[0] & ~0xff00u) | (rnd() & 0xff00u), (w[1] & 0x07ffffffu) | (rnd() & 0xf8000000u),
            w[2]);
}

static int compare(const char *arch, isa_arch a, size_t from, size_t to, oracle_result *res,
                   unsigned char *legal_op) {
    int bad = 0;
    oracle_batch(arch, (const uint32_t (*)[4])(cases + from), to - from, res);
    for (size_t i = from; i < to; i++) {
        const oracle_result *r = &res[i - from];
        if (r->size == ORACLE_CRASH)
            continue;
        isa_inst in;
        char text[ORACLE_TEXT + 256];
        size_t sz = isa_decode(a, (const uint8_t *)cases[i], 16, &in);
        if (sz)
            isa_print(&in, text, sizeof text);
        else
            text[0] = 0;
        checked++;
        if (r->size && legal_op)
            legal_op[(cases[i][0] >> 16) & 0x3ff] = 1;
        /* the oracle keeps ORACLE_TEXT - 1 characters of very long texts */
        size_t cmpn = strlen(r->text) >= ORACLE_TEXT - 1 ? ORACLE_TEXT - 1 : sizeof text;
        if ((int)sz == r->size && (sz == 0 || strncmp(text, r->text, cmpn) == 0))
            continue;
        if (fails++ < 40)
            printf("  MISMATCH %s %08x %08x %08x\n    llvm  : [%d] %s\n    gfxemu: [%zu] %s\n",
                   arch, cases[i][0], cases[i][1], cases[i][2], r->size,
                   r->size ? r->text : "<illegal>", sz, sz ? text : "<illegal>");
        bad++;
    }
    return bad;
}

static void oracle_part(void) {

    oracle_result *res = malloc(MAXC * sizeof *res);
    if (!res)
        exit(2);
    for (int ai = 0; ai < ISA_NARCH; ai++) {
        isa_arch a = (isa_arch)ai;
        if (isa_is_rdna(ai)) /* the cases come from CDNA's tables; RDNA's words are
                              * checked by test_sweep and tests/isa/test_rdna_* */
            continue;
        unsigned char legal_op[1024] = {0}, ours[1024] = {0};
        ncases = 0;
        build_cases();
        size_t base = ncases;
        compare(isa_targets[ai].name, a, 0, base, res, legal_op);
        /* variants of every legal probe (not of the literal cases) */
        for (size_t i = 0; i < base; i++) {
            if ((i % NPER) >= NPROBES)
                continue;
            isa_inst in;
            if (isa_decode(a, (const uint8_t *)cases[i], 16, &in)) {
                ours[in.encop & 0x3ff] = 1;
                add_variants(cases[i]);
            }
        }
        /* scaled MFMA pairs (gfx950): ld_scale + f8f6f4 MFMA with op_sel[0] (w0 bit 11); mostly
         * VGPR scale sources and MFMA modifier bits other than abid, sometimes anything */
        for (int k = 0; k < 4000; k++) {
            int wild = k % 4 == 3;
            uint32_t s0 = wild ? rnd() & 511 : 256 + (rnd() & 255);
            uint32_t s1 = wild ? rnd() & 511 : 256 + (rnd() & 255);
            uint32_t mods = wild ? rnd() & 0xffffu : (rnd() & 0x87ffu) | 0x800u;
            uint32_t c[4] = {0xd3ac0000u | (rnd() & 0xffffu),
                             srcs(s0, s1, rnd() & 511) | (rnd() & 0xf8000000u),
                             0xd3ad0000u | ((k & 1) << 16) | mods, rnd()};
            if (ncases < MAXC) {
                memcpy(cases[ncases], c, sizeof c);
                ncases++;
            }
        }
        compare(isa_targets[ai].name, a, base, ncases, res, NULL);
        unsigned nlegal = 0, missed = 0;
        for (int op = 0; op < 1024; op++) {
            nlegal += legal_op[op];
            if (legal_op[op] && !ours[op]) {
                missed++;
                printf("  %s: opcode 0x%x legal in LLVM but no probe decoded\n",
                       isa_targets[ai].name, op);
            }
        }
        fails += missed;
        printf("%s: %u opcodes legal in LLVM, %zu words compared\n", isa_targets[ai].name, nlegal,
               ncases);
    }
    free(res);
}

/* ---- hand-checked records ---------------------------------------------------------------- */

static size_t dec(isa_arch a, uint32_t w0, uint32_t w1, uint32_t w2, uint32_t w3, isa_inst *in) {
    uint32_t w[4] = {w0, w1, w2, w3};
    return isa_decode(a, (const uint8_t *)w, 16, in);
}

#define OPND(o, k, i, nn) ((o).kind == (k) && (o).idx == (i) && (o).n == (nn))

static void record_part(void) {
    isa_inst in;
    /* v_fma_f32 v40, -|v8|, v16, v24 clamp mul:2 : VOP3A op 0x1cb, abs[8], clamp[15],
     * omod[28:27]=1, neg[29] */
    EXPECT(dec(ISA_GFX950, 0xd1cb8128, srcs(264, 272, 280) | (1u << 27) | (1u << 29), 0, 0, &in) ==
           8);
    EXPECT(in.op == ISA_OP_V_FMA_F32 && in.variant == ISA_VAR_NONE && in.fmt == ISA_FMT_VOP3);
    EXPECT(in.ndst == 1 && in.nsrc == 3 && OPND(in.dst[0], ISA_OPND_VGPR, 40, 1));
    EXPECT(OPND(in.src[0], ISA_OPND_VGPR, 8, 1) && OPND(in.src[2], ISA_OPND_VGPR, 24, 1));
    EXPECT(in.f.v.abs == 1 && in.f.v.neg == 1 && in.f.v.clamp == 1 && in.f.v.omod == 1);

    /* v_add_co_u32_e64 v40, s[2:3], v8, s5 : VOP3B op 0x119, sdst[14:8] = 2 */
    EXPECT(dec(ISA_GFX942, 0xd1190000 | (2 << 8) | 40, srcs(264, 5, 0), 0, 0, &in) == 8);
    EXPECT(in.op == ISA_OP_V_ADD_CO_U32 && in.variant == ISA_VAR_E64 && in.ndst == 2);
    EXPECT(OPND(in.dst[0], ISA_OPND_VGPR, 40, 1) && OPND(in.dst[1], ISA_OPND_SREG, 2, 2));
    EXPECT(in.f.v.sdst_valid && OPND(in.src[1], ISA_OPND_SREG, 5, 1));

    /* v_cmp_lt_f32_e64 vcc, v8, 1.0 : VOPC op 0x41 in VOP3, sdst in vdst, 1.0 = encoding 242 */
    EXPECT(dec(ISA_GFX950, 0xd0410000 | 106, srcs(264, 242, 0), 0, 0, &in) == 8);
    EXPECT(in.op == ISA_OP_V_CMP_LT_F32 && in.variant == ISA_VAR_E64);
    EXPECT(OPND(in.dst[0], ISA_OPND_SREG, 106, 2) && OPND(in.src[1], ISA_OPND_INLINE, 242, 1));

    /* v_add_i16 v40, v8, v16 op_sel:[0,0,1]: op_sel[3] (w0 bit 14) selects the dst high half;
     * LLVM lists a 2-source op's op_sel as [src0, src1, dst], the record keeps bit 3 */
    EXPECT(dec(ISA_GFX942, 0xd29e4028, srcs(264, 272, 0), 0, 0, &in) == 8);
    EXPECT(in.op == ISA_OP_V_ADD_I16 && in.f.v.opsel == 8);

    /* v_pk_fma_f16 v40, v8, v16, v24 op_sel:[1,0,0] op_sel_hi:[0,1,1] neg_lo:[0,1,0]:
     * VOP3P op 0x0e, op_sel[11], op_sel_hi = {w1[27], w1[28], w0[14]}, neg_lo[30] */
    EXPECT(dec(ISA_GFX942, 0xd38e0000 | (1 << 11) | (1 << 14) | 40,
               srcs(264, 272, 280) | (1u << 28) | (1u << 30), 0, 0, &in) == 8);
    EXPECT(in.op == ISA_OP_V_PK_FMA_F16 && in.fmt == ISA_FMT_VOP3P);
    EXPECT(in.f.v.opsel == 1 && in.f.v.opsel_hi == 6 && in.f.v.neg == 2 && in.f.v.neg_hi == 0);

    /* v_mfma_f32_16x16x4_f32 a[0:3], v1, a2, a[4:7] cbsz:1 abid:2 blgp:3 : MAI op 0x45,
     * acc_cd[15], abid[14:11], cbsz[10:8], acc(B)[w1 28], blgp[w1 31:29] */
    EXPECT(dec(ISA_GFX942, 0xd3c58000 | (2 << 11) | (1 << 8),
               srcs(257, 258, 260) | (1u << 28) | (3u << 29), 0, 0, &in) == 8);
    EXPECT(in.op == ISA_OP_V_MFMA_F32_16X16X4_F32 && OPND(in.dst[0], ISA_OPND_AGPR, 0, 4));
    EXPECT(OPND(in.src[0], ISA_OPND_VGPR, 1, 1) && OPND(in.src[1], ISA_OPND_AGPR, 2, 1));
    EXPECT(OPND(in.src[2], ISA_OPND_AGPR, 4, 4));
    EXPECT(in.f.v.cbsz == 1 && in.f.v.abid == 2 && in.f.v.blgp == 3 && in.f.v.acc_cd == 1);

    /* v_mfma_f32_16x16x128_f8f6f4 v[0:3], v[4:9], v[12:15], v[20:23] cbsz:2 blgp:4 (fp6 A, fp4 B)
     */
    EXPECT(dec(ISA_GFX950, 0xd3ad0200, srcs(260, 268, 276) | (4u << 29), 0, 0, &in) == 8);
    EXPECT(OPND(in.src[0], ISA_OPND_VGPR, 4, 6) && OPND(in.src[1], ISA_OPND_VGPR, 12, 4));
    EXPECT(dec(ISA_GFX942, 0xd3ad0200, srcs(260, 268, 276) | (4u << 29), 0, 0, &in) == 0);

    /* scaled: v_mfma_scale_f32_16x16x128_f8f6f4 v[0:3], v[4:11], v[12:19], v[20:23], v24, v25
     * (ld_scale word pair, then the MFMA with op_sel[0]; as llvm-mc-22 assembles it) */
    EXPECT(dec(ISA_GFX950, 0xd3ac0000, 0x00023318, 0xd3ad0800, 0x04521904, &in) == 16);
    EXPECT(in.op == ISA_OP_V_MFMA_SCALE_F32_16X16X128_F8F6F4 && in.nsrc == 5);
    EXPECT(OPND(in.dst[0], ISA_OPND_VGPR, 0, 4) && OPND(in.src[0], ISA_OPND_VGPR, 4, 8));
    EXPECT(OPND(in.src[1], ISA_OPND_VGPR, 12, 8) && OPND(in.src[2], ISA_OPND_VGPR, 20, 4));
    EXPECT(OPND(in.src[3], ISA_OPND_VGPR, 24, 1) && OPND(in.src[4], ISA_OPND_VGPR, 25, 1));

    /* literal: gfx950 VOP3 reads a 32-bit literal for source 255; gfx942 has none */
    EXPECT(dec(ISA_GFX950, 0xd1010000 | 40, srcs(255, 272, 0), 0x12345678, 0, &in) == 12);
    EXPECT(in.src[0].kind == ISA_OPND_LITERAL && in.lit == 0x12345678);
    EXPECT(dec(ISA_GFX942, 0xd1010000 | 40, srcs(255, 272, 0), 0x12345678, 0, &in) == 0);

    /* v_accvgpr_read_b32 v40, a8 and v_accvgpr_write_b32 a40, v8 */
    EXPECT(dec(ISA_GFX942, 0xd3d80000 | 40, srcs(264, 0, 0), 0, 0, &in) == 8);
    EXPECT(in.op == ISA_OP_V_ACCVGPR_READ_B32 && OPND(in.src[0], ISA_OPND_AGPR, 8, 1));
    EXPECT(dec(ISA_GFX942, 0xd3d90000 | 40, srcs(264, 0, 0), 0, 0, &in) == 8);
    EXPECT(in.op == ISA_OP_V_ACCVGPR_WRITE_B32 && OPND(in.dst[0], ISA_OPND_AGPR, 40, 1));

    /* v_fma_f64 v[40:41], v[8:9], s[10:11], 0.5 */
    EXPECT(dec(ISA_GFX942, 0xd1cc0000 | 40, srcs(264, 10, 240), 0, 0, &in) == 8);
    EXPECT(OPND(in.dst[0], ISA_OPND_VGPR, 40, 2) && OPND(in.src[1], ISA_OPND_SREG, 10, 2));
    EXPECT(OPND(in.src[2], ISA_OPND_INLINE, 240, 2));
}

int main(void) {
    if (oracle_init() != 0)
        return 1;
    cases = malloc(MAXC * sizeof *cases);
    if (!cases)
        return 2;
    record_part();
    oracle_part();
    printf("test_vop3_ops: %u words compared with LLVM, %u failures%s\n", checked,
           fails + check_fails, fails + check_fails ? " (FAIL)" : "");
    free(cases);
    return fails + check_fails ? 1 : 0;
}
