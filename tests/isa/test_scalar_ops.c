/* test_scalar_ops.c - the scalar formats (SOP2, SOPK, SOP1, SOPC, SOPP, SMEM) against LLVM 22.
 *
 * Part 1 compares gfxemu's decoder+printer with LLVM's disassembler (legality, size, text) on
 * both targets for:
 *   - every opcode value of every scalar format, with several operand sets (distinct SGPRs,
 *     misaligned 64/128-bit tuples, ttmp/vcc/exec/m0/null, inline constants, literals);
 *   - every value of every operand field of every opcode (register classes, annotations);
 *   - literals on 32- and 64-bit sources around the inline-constant boundaries;
 *   - every 16-bit immediate of s_waitcnt, s_sendmsg(halt), s_set_gpr_idx_mode, s_nop,
 *     s_endpgm, s_branch, s_getreg_b32 and s_setreg_imm32_b32's literal forms;
 *   - SMEM: every (imm, soe, glc, nv) combination with signed offsets and SGPR offsets.
 * Part 2 checks decoded fields of hand-assembled words against values derived from the
 * encoding tables in the CDNA3/CDNA4 ISA manuals.
 *
 * Build: gcc -std=c11 -Isrc -Itests -Iinclude tests/isa/test_scalar_ops.c tests/common/... \
 *        src/isa/... -ldl.  Exit status 1 on any mismatch. */
#include "common/check.h"
#include "common/llvm_oracle.h"
#include "isa/isa.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

typedef struct {
    uint32_t (*w)[4];
    size_t n, cap;
} caseset;

static void add(caseset *c, uint32_t w0, uint32_t w1) {
    if (c->n == c->cap) {
        c->cap = c->cap ? 2 * c->cap : 4096;
        c->w = realloc(c->w, c->cap * sizeof *c->w);
        if (!c->w)
            exit(2);
    }
    c->w[c->n][0] = w0;
    c->w[c->n][1] = w1;
    c->w[c->n][2] = 0x9abcdef0;
    c->w[c->n][3] = 0x0fedcba9;
    c->n++;
}

/* ---- part 1: generated cases vs the oracle ------------------------------------------- */

static const uint32_t lits[] = {0x12345678, 0,          5,          64,         65,
                                0xffffffff, 0xfffffff0, 0xffffffef, 0x3f800000, 0xbf000000,
                                0x3e22f983, 0x80000000, 0x3ff00000};

/* Operand sets (dst, src0, src1) tried on every SOP1/SOP2/SOPC/SOPK opcode. */
static const uint8_t opsets[][3] = {
    {10, 20, 31},    {3, 7, 5},       {106, 126, 102}, {107, 255, 193}, {108, 110, 112},
    {109, 111, 113}, {124, 248, 128}, {125, 240, 247}, {126, 230, 235}, {100, 101, 99},
    {102, 104, 106}, {120, 253, 251}, {0, 254, 255},   {127, 239, 231}, {64, 208, 192},
};

static void sop_cases(caseset *c) {
    for (unsigned op = 0; op < 128; op++) /* SOP2 (opcodes >= 96 identify as SOPK/SOP1/...) */
        for (size_t k = 0; k < sizeof opsets / 3; k++)
            add(c, 0x80000000u | op << 23 | opsets[k][0] << 16 | opsets[k][2] << 8 | opsets[k][1],
                lits[k % 13]);
    for (unsigned op = 0; op < 256; op++) /* SOP1 */
        for (size_t k = 0; k < sizeof opsets / 3; k++)
            add(c, 0xbe800000u | opsets[k][0] << 16 | op << 8 | opsets[k][1], lits[k % 13]);
    for (unsigned op = 0; op < 128; op++) /* SOPC */
        for (size_t k = 0; k < sizeof opsets / 3; k++)
            add(c, 0xbf000000u | op << 16 | opsets[k][2] << 8 | opsets[k][1], lits[k % 13]);
    static const uint16_t imms[] = {0, 1, 0x1234, 0x8000, 0xffff, 0xfff0, 64, 65, 0x7fff};
    for (unsigned op = 0; op < 32; op++) /* SOPK */
        for (size_t k = 0; k < sizeof opsets / 3; k++)
            for (size_t i = 0; i < sizeof imms / sizeof imms[0]; i++)
                add(c, 0xb0000000u | op << 23 | opsets[k][0] << 16 | imms[i], lits[k % 13]);
    for (unsigned op = 0; op < 128; op++) /* SOPP */
        for (size_t i = 0; i < sizeof imms / sizeof imms[0]; i++)
            add(c, 0xbf800000u | op << 16 | imms[i], 0);
}

/* Every value of every operand field, others at plain SGPRs (the operand classes). */
static void field_cases(caseset *c) {
    for (unsigned v = 0; v < 256; v++) {
        for (unsigned op = 0; op < 128; op++) {
            add(c, 0x80000000u | op << 23 | 8 << 16 | 24 << 8 | v, 0x11223344);
            add(c, 0x80000000u | op << 23 | 8 << 16 | v << 8 | 16, 0x11223344);
            if (v < 128)
                add(c, 0x80000000u | op << 23 | v << 16 | 24 << 8 | 16, 0x11223344);
            add(c, 0xbf000000u | op << 16 | 24 << 8 | v, 0x11223344);
            add(c, 0xbf000000u | op << 16 | v << 8 | 16, 0x11223344);
        }
        for (unsigned op = 0; op < 256; op++) {
            add(c, 0xbe800000u | 8 << 16 | op << 8 | v, 0x11223344);
            if (v < 128)
                add(c, 0xbe800000u | v << 16 | op << 8 | 16, 0x11223344);
        }
        if (v < 128)
            for (unsigned op = 0; op < 32; op++)
                add(c, 0xb0000000u | op << 23 | v << 16 | 0x0840, 0x11223344);
    }
}

/* Literals on every 32/64-bit source. */
static void literal_cases(caseset *c) {
    for (size_t i = 0; i < sizeof lits / sizeof lits[0]; i++) {
        for (unsigned op = 0; op < 128; op++) {
            add(c, 0x80000000u | op << 23 | 4 << 16 | 6 << 8 | 255, lits[i]);
            add(c, 0x80000000u | op << 23 | 4 << 16 | 255 << 8 | 6, lits[i]);
            add(c, 0x80000000u | op << 23 | 4 << 16 | 255 << 8 | 255, lits[i]);
            add(c, 0xbf000000u | op << 16 | 255 << 8 | 6, lits[i]);
            add(c, 0xbf000000u | op << 16 | 6 << 8 | 255, lits[i]);
        }
        for (unsigned op = 0; op < 256; op++)
            add(c, 0xbe800000u | 4 << 16 | op << 8 | 255, lits[i]);
        add(c, 0xba000000u | 0x0841, lits[i]); /* s_setreg_imm32_b32 */
    }
}

/* Every 16-bit immediate of the ops whose immediate has its own syntax. */
static void imm16_cases(caseset *c) {
    static const uint8_t sopp[] = {0, 1, 2, 12, 16, 17, 29};
    for (unsigned v = 0; v < 0x10000; v++) {
        for (size_t i = 0; i < sizeof sopp; i++)
            add(c, 0xbf800000u | (uint32_t)sopp[i] << 16 | v, 0);
        add(c, 0xb0000000u | 17u << 23 | 9u << 16 | v, 0); /* s_getreg_b32 */
        if ((v & 0x3f) == 0x11)
            add(c, 0xb0000000u | 20u << 23 | v, 0x40000000); /* s_setreg_imm32_b32 */
    }
}

static void smem_cases(caseset *c) {
    static const uint32_t offs[] = {0,        0x10, 0xfffff, 0x100000, 0x1fffff,
                                    0x1ffff0, 0x7f, 0x7c,    0x7d,     0x7e};
    static const uint8_t sdata[] = {8, 9, 10, 101, 102, 106, 108, 109, 124, 125, 126};
    static const uint8_t sbase[] = {2, 3, 51, 53, 54, 55, 63};
    static const uint8_t soff[] = {0, 5, 106, 124, 125, 126, 127};
    for (unsigned op = 0; op < 256; op++)
        for (unsigned bitsv = 0; bitsv < 32; bitsv++) { /* imm, glc, nv, soe, bit 13 */
            uint32_t flags = (bitsv & 1) << 17 | (bitsv >> 1 & 1) << 16 | (bitsv >> 2 & 1) << 15 |
                             (bitsv >> 3 & 1) << 14 | (bitsv >> 4 & 1) << 13;
            for (size_t k = 0; k < sizeof offs / sizeof offs[0]; k++) {
                uint32_t w0 = 0xc0000000u | op << 18 | flags |
                              (uint32_t)sdata[k % sizeof sdata] << 6 | sbase[k % sizeof sbase];
                add(c, w0, offs[k] | (uint32_t)soff[k % sizeof soff] << 25);
            }
        }
    for (unsigned op = 0; op < 256; op++) /* every sdata and sbase value, imm form */
        for (unsigned v = 0; v < 128; v++) {
            add(c, 0xc0000000u | op << 18 | 1u << 17 | v << 6 | 3, 0x24);
            add(c, 0xc0000000u | op << 18 | 3u << 16 | v << 6 | 3, 0x24); /* glc */
            if (v < 64)
                add(c, 0xc0000000u | op << 18 | 1u << 17 | 8u << 6 | v, 0x24);
            add(c, 0xc0000000u | op << 18 | 8u << 6 | 4, v); /* SGPR offset */
            add(c, 0xc0000000u | op << 18 | 1u << 14 | 8u << 6 | 4, v << 25);
        }
}

#define arch_names(a) isa_targets[a].name

static size_t compare(isa_arch arch, const caseset *c, size_t *legal_out) {
    enum { CHUNK = 65536 };
    /* allocated once for every target: 42 MB, whose first touch costs 10,000 page faults */
    static oracle_result *res;
    size_t bad = 0, legal = 0;
    if (!res && !(res = malloc(CHUNK * sizeof *res)))
        exit(2);
    for (size_t pos = 0; pos < c->n; pos += CHUNK) {
        size_t m = c->n - pos < CHUNK ? c->n - pos : CHUNK;
        oracle_batch(arch_names(arch), (const uint32_t (*)[4])(c->w + pos), m, res);
        for (size_t i = 0; i < m; i++) {
            const uint32_t *w = c->w[pos + i];
            isa_inst in;
            char text[ORACLE_TEXT + 256] = "";
            if (res[i].size == ORACLE_CRASH)
                continue;
            size_t sz = isa_decode(arch, (const uint8_t *)w, 16, &in);
            if (sz)
                isa_print(&in, text, sizeof text);
            legal += res[i].size > 0;
            if ((int)sz == res[i].size && (sz == 0 || strcmp(text, res[i].text) == 0))
                continue;
            if (bad++ < 10)
                printf("  MISMATCH %s %08x %08x\n    llvm  : [%d] %s\n    gfxemu: [%zu] %s\n",
                       arch_names(arch), w[0], w[1], res[i].size,
                       res[i].size ? res[i].text : "<illegal>", sz, sz ? text : "<illegal>");
        }
    }
    *legal_out = legal;
    return bad;
}

/* Legal opcodes per format, counted by decoding each opcode value with plain operands. */
static void count_opcodes(isa_arch arch) {
    static const struct {
        const char *name;
        uint32_t base;
        unsigned sh, n;
        uint32_t w1;
    } f[] = {
        {"SOP2", 0x80081008u, 23, 128, 0}, {"SOPK", 0xb0080000u, 23, 32, 0},
        {"SOP1", 0xbe880010u, 8, 256, 0},  {"SOPC", 0xbf001008u, 16, 128, 0},
        {"SOPP", 0xbf800000u, 16, 128, 0}, {"SMEM", 0xc0000202u, 18, 256, 0},
    };
    printf("  %s opcodes:", arch_names(arch));
    for (size_t k = 0; k < sizeof f / sizeof f[0]; k++) {
        unsigned cnt = 0;
        for (unsigned op = 0; op < f[k].n; op++) {
            uint32_t w[2] = {f[k].base | op << f[k].sh, f[k].w1};
            isa_inst in;
            if (strcmp(isa_fmt_name(isa_identify(w[0])), f[k].name) != 0)
                continue;
            /* SMEM: some ops only exist with imm=0 (s_dcache_*, s_memtime) */
            if (isa_decode(arch, (const uint8_t *)w, 8, &in) ||
                (k == 5 && (w[0] |= 1u << 17, isa_decode(arch, (const uint8_t *)w, 8, &in))))
                cnt++;
        }
        printf(" %s %u", f[k].name, cnt);
    }
    printf("\n");
}

/* ---- part 2: decoded fields of hand-assembled words ------------------------------------ */

static size_t dec(isa_arch a, uint32_t w0, uint32_t w1, isa_inst *in) {
    uint32_t w[4] = {w0, w1, 0, 0};
    return isa_decode(a, (const uint8_t *)w, sizeof w, in);
}

static void field_checks(void) {
    isa_inst in;
    for (int a = 0; a < 2; a++) {
        /* s_load_dwordx2 s[4:5], s[0:1], 0x24: SMEM op 1, imm=1, sdata=4, sbase=0 */
        EXPECT(dec(a, 0xc0060100, 0x24, &in) == 8);
        EXPECT(in.op == ISA_OP_S_LOAD_DWORDX2 && in.fmt == ISA_FMT_SMEM);
        EXPECT(in.ndst == 1 && in.dst[0].kind == ISA_OPND_SREG && in.dst[0].idx == 4 &&
               in.dst[0].n == 2);
        EXPECT(in.src[1].kind == ISA_OPND_SREG && in.src[1].idx == 0 && in.src[1].n == 2);
        EXPECT(in.f.s.has_imm == 1 && in.f.s.offset == 0x24 && !in.f.s.has_soffset);
        /* s_buffer_load_dwordx4 s[8:11], s[12:15], -16 glc: op 10, sbase field 6 */
        EXPECT(dec(a, 0xc02b0206, 0x1ffff0, &in) == 8);
        EXPECT(in.op == ISA_OP_S_BUFFER_LOAD_DWORDX4 && in.f.s.offset == -16 && in.f.s.glc == 1);
        EXPECT(in.dst[0].idx == 8 && in.dst[0].n == 4 && in.src[1].idx == 12 && in.src[1].n == 4);
        /* s_load_dword s8, s[4:5], s7 offset:0x10: soe=1, soffset in dword 1 [31:25] */
        EXPECT(dec(a, 0xc0024202, 0x10 | 7u << 25, &in) == 8);
        EXPECT(in.f.s.has_soffset && in.f.s.soffset == 7 && in.f.s.offset == 0x10 &&
               in.src[2].kind == ISA_OPND_SREG && in.src[2].idx == 7);
        /* s_store_dword s8, s[4:5], m0: imm=0, soe=0: SGPR offset in dword 1 [6:0] */
        EXPECT(dec(a, 0xc0400202, 124, &in) == 8);
        EXPECT(in.op == ISA_OP_S_STORE_DWORD && in.ndst == 0 && in.src[0].idx == 8 &&
               in.f.s.has_soffset && in.f.s.soffset == 124 && !in.f.s.has_imm);
        /* s_waitcnt vmcnt(0) lgkmcnt(0): expcnt field at its maximum (7) */
        EXPECT(dec(a, 0xbf8c0070, 0, &in) == 4);
        EXPECT(in.op == ISA_OP_S_WAITCNT && in.f.s.vmcnt == 0 && in.f.s.expcnt == 7 &&
               in.f.s.lgkmcnt == 0);
        /* vmcnt is split over [3:0] and [15:14] */
        EXPECT(dec(a, 0xbf8cc07f, 0, &in) == 4 && in.f.s.vmcnt == 63 && in.f.s.lgkmcnt == 0);
        /* s_branch -2 (to itself minus one dword): offset in bytes from the next instruction */
        EXPECT(dec(a, 0xbf82fffe, 0, &in) == 4);
        EXPECT(in.op == ISA_OP_S_BRANCH && in.f.s.is_branch && in.f.s.offset == -8 &&
               in.f.s.simm16 == -2 && in.f.s.imm16 == 0xfffe);
        EXPECT(dec(a, 0xbf850005, 0, &in) == 4 && in.op == ISA_OP_S_CBRANCH_SCC1 &&
               in.f.s.offset == 20);
        /* s_movk_i32 s3, 0xfff0 sign-extends; s_cmpk_eq_u32 zero-extends */
        EXPECT(dec(a, 0xb003fff0, 0, &in) == 4);
        EXPECT(in.op == ISA_OP_S_MOVK_I32 && in.ndst == 1 && in.dst[0].idx == 3 &&
               in.src[0].kind == ISA_OPND_IMM && in.src[0].imm == -16);
        EXPECT(dec(a, 0xb403fff0, 0, &in) == 4);
        EXPECT(in.op == ISA_OP_S_CMPK_EQ_U32 && in.ndst == 0 && in.src[0].idx == 3 &&
               in.src[1].kind == ISA_OPND_IMM && in.src[1].imm == 0xfff0);
        /* s_getreg_b32 s4, hwreg(HW_REG_MODE, 2, 3): id 1, offset 2, size-1 = 2 */
        EXPECT(dec(a, 0xb8841081, 0, &in) == 4);
        EXPECT(in.op == ISA_OP_S_GETREG_B32 && in.f.s.hw_id == 1 && in.f.s.hw_off == 2 &&
               in.f.s.hw_size == 3 && in.dst[0].idx == 4);
        /* s_setreg_imm32_b32 hwreg(HW_REG_MODE, 0, 1), 0x12345: an 8-byte instruction */
        EXPECT(dec(a, 0xba000001, 0x12345, &in) == 8 && in.lit == 0x12345 &&
               in.src[0].kind == ISA_OPND_LITERAL);
        /* s_add_u32 s0, s1, 0x12345678: src1 = 255 takes the literal */
        EXPECT(dec(a, 0x8000ff01, 0x12345678, &in) == 8);
        EXPECT(in.op == ISA_OP_S_ADD_U32 && in.src[1].kind == ISA_OPND_LITERAL &&
               in.lit == 0x12345678 && in.src[0].kind == ISA_OPND_SREG && in.src[0].idx == 1);
        /* s_mov_b64 s[2:3], exec: exec keeps its encoding 126 as a 2-dword SREG */
        EXPECT(dec(a, 0xbe82017e, 0, &in) == 4);
        EXPECT(in.op == ISA_OP_S_MOV_B64 && in.dst[0].idx == 2 && in.dst[0].n == 2 &&
               in.src[0].kind == ISA_OPND_SREG && in.src[0].idx == 126 && in.src[0].n == 2);
        /* s_mov_b64 s[2:3], s[6:7] encoded with the odd base 7: LLVM reads s[6:7] */
        EXPECT(dec(a, 0xbe820107, 0, &in) == 4 && in.src[0].idx == 6);
        /* s_mov_b64 vcc_hi-as-pair (107) is rejected */
        EXPECT(dec(a, 0xbe82016b, 0, &in) == 0);
        /* s_sendmsg sendmsg(MSG_GS, GS_OP_EMIT, 1): msg 2, op 2, stream 1 */
        EXPECT(dec(a, 0xbf900122, 0, &in) == 4 && in.f.s.msg == 2 && in.f.s.msg_op == 2 &&
               in.f.s.msg_stream == 1);
        /* s_set_gpr_idx_on s2, gpr_idx(SRC0,DST): mode 9 in ssrc1 */
        EXPECT(dec(a, 0xbf110902, 0, &in) == 4 && in.op == ISA_OP_S_SET_GPR_IDX_ON &&
               in.f.s.gpr_idx_mode == 9 && in.src[0].idx == 2 && in.src[1].imm == 9);
        /* s_swappc_b64 s[30:31], s[4:5] */
        EXPECT(dec(a, 0xbe9e1e04, 0, &in) == 4 && in.op == ISA_OP_S_SWAPPC_B64 &&
               in.dst[0].idx == 30 && in.src[0].idx == 4);
        /* s_barrier must have simm16 = 0 */
        EXPECT(dec(a, 0xbf8a0000, 0, &in) == 4 && dec(a, 0xbf8a0001, 0, &in) == 0);
        /* RDNA3's s_load_b128 is not a gfx9 instruction */
        EXPECT(dec(a, 0xf4080500, 0, &in) == 0);
        /* s_memtime s[8:9] only with imm=0 */
        EXPECT(dec(a, 0xc0900200, 0, &in) == 8 && in.dst[0].idx == 8 && in.dst[0].n == 2);
        EXPECT(dec(a, 0xc0920200, 0, &in) == 0);
    }
}

int main(void) {
    if (oracle_init() != 0)
        return 1;
    caseset c = {0};
    sop_cases(&c);
    field_cases(&c);
    literal_cases(&c);
    imm16_cases(&c);
    smem_cases(&c);
    size_t total_bad = 0;
    for (int a = 0; a < ISA_NARCH; a++) {
        size_t legal;
        size_t bad = compare((isa_arch)a, &c, &legal);
        printf("%s: %zu cases, %zu legal, %zu mismatches\n", arch_names(a), c.n, legal, bad);
        count_opcodes((isa_arch)a);
        total_bad += bad;
    }
    field_checks();
    free(c.w);
    printf("test_scalar_ops: %zu mismatches, %d field-check failures%s\n", total_bad, check_fails,
           total_bad || check_fails ? " (FAIL)" : "");
    return total_bad || check_fails ? 1 : 0;
}
