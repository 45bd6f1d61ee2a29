/* test_valu_forms.c - the other encodings of the VALU ops checked against a plain form of the
 * same op, on random registers in wave32 and wave64 (CDNA: wave64) with full and random EXEC,
 * for gfx1100, gfx1201, gfx950, gfx942 and gfx90a:
 *  - DPP16/DPP8: every VOP1, VOP2, VOPC, VOP3 and VOP3P opcode with such a form (gfx9: DPP16
 *    on VOP1/VOP2), against v_mov_b32 with the same DPP control (two for a 64-bit src0)
 *    followed by the plain form (below);
 *  - VOP3: every VOP1/VOP2/VOPC op's _e64 form against its _e32 form (one_e64), and neg/abs
 *    on every float source of every VOP3 op against the sign-bit operation done first
 *    (one_mods), and op_sel on every 16-bit source against a shift right by 16 done first
 *    (one_opsel);
 *  - SDWA (gfx9): source selects and sext against v_bfe_u32/v_bfe_i32 done first (one_sdwa);
 *  - VOP3 literals (RDNA): a literal src0/src1 against the same value in an SGPR (one_literal);
 *  - VOP3P packed 16-bit ops: random op_sel/op_sel_hi/neg_lo/neg_hi against v_perm_b32 (and
 *    v_xor_b32) of the sources first (one_packed);
 *  - VOPD (RDNA): random legal dual-issue words against their two halves as _e32
 *    instructions (vopd_forms).
 *
 * Why this check holds (RDNA3/RDNA4 ISA, "DPP"): DPP only changes where src0 comes from.  With
 * all rows and banks enabled and bound_ctrl set, a lane whose source lane is out of range or
 * inactive (fetch-inactive off) reads 0 and every active lane is written; DPP8 has no masks and
 * reads 0 the same way.  v_mov_b32_dpp v20, v1 with the same control gives v20 exactly the
 * src0 values the DPP form sees, so "v_mov_b32_dpp v20, v1 <ctrl>; op_e64 D, v20, ..." and
 * "v_mov_b32_dpp v20, v1 <ctrl>; op_e64_dpp D, v1, ... <ctrl>" must leave the whole wave state
 * identical (registers, SGPRs, EXEC, VCC, SCC, status).  The plain forms' results are checked
 * against the manuals by the other RDNA tests; this one covers the DPP forms of all of them
 * (most had never run in a test: `make coverage`, "VOP3 dpp"), and the VOP3 SDST
 * v_mad_co_u64/i64 DPP words clang-22 emits and LLVM cannot decode (exec.c).
 *
 * The encodings are built here from the VOP3/VOP3P layouts, not assembled: for each opcode the
 * first choice of src1/src2 fields (VGPR, SGPR, inline 0) with which the decoder accepts both
 * words is taken, so the set of forms is the decoder's (LLVM 22's) own. */
#include "common/check.h"
#include "common/rng.h"
#include "common/util.h"
#include "exec/exec.h"
#include "isa/isa.h"

#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static wave *w, *w0, *ref;

/* The targets and what differs between them here: s_endpgm, the VOP3 prefix, the e64 opcode
 * offsets of VOP1 and VOP2 (VOPC's is 0), and (CDNA) wave64 only, DPP16 on VOP1/VOP2/VOPC only,
 * no fetch-inactive, no VOPD. */
typedef struct {
    const char *name;
    int rdna;
    uint32_t endpgm, vop3;
    unsigned off1, off2;
} target;
static const target targets[] = {
    {"gfx1100", 1, 0xBFB00000u, 0xD4000000u, 0x180, 0x100},
    {"gfx1201", 1, 0xBFB00000u, 0xD4000000u, 0x180, 0x100},
    {"gfx950", 0, 0xBF810000u, 0xD0000000u, 0x140, 0x100},
    {"gfx942", 0, 0xBF810000u, 0xD0000000u, 0x140, 0x100},
    {"gfx90a", 0, 0xBF810000u, 0xD0000000u, 0x140, 0x100},
};
#define NT (sizeof targets / sizeof targets[0])
static const target *T;

enum { MOV_DST = 20, SRC0 = 1 };

/* v_mov_b32_dpp v20, v1 with DPP16 control dword d (its src0 byte replaced) or DPP8 selectors;
 * for a 64-bit src0 also v21 from v2 (the pair moves as one value, both halves alike). */
static size_t mov_dpp(uint32_t *o, int dpp8, uint32_t ctrl, int fi, int wide) {
    size_t n = 0;
    for (unsigned h = 0; h <= (unsigned)wide; h++) {
        o[n++] =
            0x7E000000u | ((MOV_DST + h) << 17) | (1u << 9) | (dpp8 ? (fi ? 0xEAu : 0xE9u) : 0xFAu);
        o[n++] = dpp8 ? (ctrl << 8 | (SRC0 + h)) : (ctrl & ~0xffu) | (SRC0 + h);
    }
    return n;
}

/* The DPP16 dword of a control: row/bank masks full, bound_ctrl set, fi as asked. */
static uint32_t dpp16(unsigned dpp_ctrl, int fi) {
    return 0xffu << 24 | 1u << 19 | (uint32_t)fi << 18 | dpp_ctrl << 8;
}

typedef struct {
    const char *what;
    int dpp8;
    uint32_t code; /* DPP16: dpp_ctrl; DPP8: the eight 3-bit selectors, lane 0 first */
    int fi;
    int which; /* 0 every target, 1 RDNA only, 2 CDNA (gfx9) only */
} control;

#define SEL8(a, b, c, d, e, f, g, h)                                                               \
    ((a) | (b) << 3 | (c) << 6 | (d) << 9 | (e) << 12 | (f) << 15 | (g) << 18 | (h) << 21)
static const control controls[] = {
    {"quad_perm:[1,0,3,2]", 0, 0xB1, 0, 0},
    {"row_shr:1", 0, 0x111, 0, 0},
    {"row_ror:3", 0, 0x123, 0, 0},
    {"row_mirror", 0, 0x140, 0, 0},
    {"row_share:5", 0, 0x155, 0, 1},
    {"row_xmask:3", 0, 0x163, 0, 1},
    {"row_shl:2 fi:1", 0, 0x102, 1, 1},
    {"row_shl:2", 0, 0x102, 0, 2},
    {"row_half_mirror", 0, 0x141, 0, 2},
    {"row_bcast:15", 0, 0x142, 0, 2},
    {"row_bcast:31", 0, 0x143, 0, 2},
    {"wave_shr:1", 0, 0x138, 0, 2},
    {"dpp8:[7,6,5,4,3,2,1,0]", 1, SEL8(7, 6, 5, 4, 3, 2, 1, 0), 0, 1},
    {"dpp8:[1,1,0,0,3,3,2,2] fi:1", 1, SEL8(1, 1, 0, 0, 3, 3, 2, 2), 1, 1},
};

/* Run code (n words) from the state in w0 on w; returns the status. */
static int run(const char *arch, unsigned lanes, const uint32_t *code, size_t n) {
    memcpy(w, w0, sizeof *w);
    return run_code(w, arch, (const uint8_t *)code, n * 4, lanes, 100);
}

/* Bit for bit, NaNs included: where NaNs meet, every path returns the hardware's one
 * (docs/architecture.md, "NaN results").  (Two NaNs used to count as equal: the vectorised plain
 * forms and the DPP/modifier path picked different inputs of a two-NaN operation.) */
static int same_value(uint32_t a, uint32_t b) { return a == b; }

/* The first lane, register or SGPR where w and ref differ, as text (empty if none). */
static int differs(char *out, size_t n) {
    if (w->status != ref->status || w->fault.kind != ref->fault.kind) {
        snprintf(out, n, "status %d/%d fault %d/%d", w->status, ref->status, w->fault.kind,
                 ref->fault.kind);
        return 1;
    }
    for (unsigned r = 0; r < 64; r++)
        for (unsigned l = 0; l < LANES; l++)
            if (!same_value(w->v[r][l], ref->v[r][l])) {
                snprintf(out, n, "v%u lane %u: %08x, want %08x", r, l, w->v[r][l], ref->v[r][l]);
                return 1;
            }
    for (unsigned s = 0; s < 128; s++)
        if (w->s[s] != ref->s[s]) {
            snprintf(out, n, "s%u: %08x, want %08x", s, w->s[s], ref->s[s]);
            return 1;
        }
    if (w->scc != ref->scc) {
        snprintf(out, n, "scc %d, want %d", w->scc, ref->scc);
        return 1;
    }
    return 0;
}

static uint64_t rng = 0xd99d99ull;
static uint32_t rnd(void) { return (uint32_t)(xorshift64(&rng) >> 16); }

/* Register values: random bits, and float/half edge values in a quarter of the lanes. */
static void fill(uint64_t exec) {
    static const uint32_t edge[] = {0,          0x80000000, 0x7f800000, 0xff800000, 0x7fc00000,
                                    0x00000001, 0x807fffff, 0x3f800000, 0xbf800000, 0x3c003c00,
                                    0x7c00fc00, 0x7e000001, 0x00010000, 0xffffffff, 0x7fffffff};
    memset(w0, 0, sizeof *w0);
    w0->mode = 0xf0; /* denormals on, round to nearest (the kernels' default) */
    for (unsigned r = 0; r < 64; r++)
        for (unsigned l = 0; l < LANES; l++)
            w0->v[r][l] = rnd() % 4 ? rnd() ^ rnd() << 16 : edge[rnd() % 15];
    for (unsigned s = 0; s < 106; s++)
        w0->s[s] = rnd() % 4 ? rnd() ^ rnd() << 16 : edge[rnd() % 15];
    wave_set_exec(w0, exec);
}

static int decodes(const char *arch, const uint32_t *code, size_t n) {
    isa_inst in;
    size_t got = isa_decode((isa_arch)test_isa_arch(arch), (const uint8_t *)code, n * 4, &in);
    if (!got && n >= 3)
        got = isa_dec_vop3_rdna_dpp_sdst((isa_arch)test_isa_arch(arch), code, n, &in);
    return got == n * 4;
}

/* The DPP forms gfxemu faults on as unimplemented (README): the M0-relative moves, whose
 * handlers index the register file themselves. */
static int nodpp(const char *name) { return !strncmp(name, "v_movrel", 8); }

/* The src0 codes of the forms: DPP16, DPP8 (fi 0 / 1). */
static uint32_t src0_code(const control *ct) { return ct->dpp8 ? (ct->fi ? 0xEAu : 0xE9u) : 0xFAu; }

/* One instruction in its plain form (words[0..nw), src0 field in words[s0w] bits 8:0 set to v20
 * here) against its DPP form (src0 field the DPP code, the DPP dword after the words), every
 * control, wave size and EXEC of the table. */
static void compare(const char *arch, const uint32_t *words, size_t nw, size_t s0w, int form) {
    for (unsigned c = 0; c < sizeof controls / sizeof controls[0]; c++) {
        const control *ct = &controls[c];
        if (ct->dpp8 != form || ct->which == (T->rdna ? 2 : 1))
            continue;
        uint32_t ctrl = ct->dpp8 ? ct->code : dpp16(ct->code, ct->fi);
        uint32_t plain[4] = {0};
        for (size_t i = 0; i < nw; i++)
            plain[i] = words[i] | (i == s0w ? 256u + MOV_DST : 0);
        isa_inst pin;
        int wide =
            isa_decode((isa_arch)test_isa_arch(arch), (const uint8_t *)plain, 4 * nw, &pin) &&
            pin.src[0].n == 2;
        for (int wave64 = !T->rdna; wave64 < 2; wave64++)
            for (int partial = 0; partial < 2; partial++) {
                unsigned lanes = wave64 ? 64 : 32;
                uint64_t exec = partial ? (uint64_t)rnd() << 32 | rnd() : ~0ull;
                if (!wave64)
                    exec &= 0xffffffffull;
                fill(exec);
                uint32_t a[10], b[10];
                size_t na = mov_dpp(a, ct->dpp8, ctrl, ct->fi, wide),
                       nb = mov_dpp(b, ct->dpp8, ctrl, ct->fi, wide), nm = nb;
                for (size_t i = 0; i < nw; i++) {
                    a[na++] = words[i] | (i == s0w ? 256u + MOV_DST : 0);
                    b[nb++] = words[i] | (i == s0w ? src0_code(ct) : 0);
                }
                b[nb++] = ct->dpp8 ? ctrl << 8 | SRC0 : ctrl | SRC0;
                a[na++] = b[nb++] = T->endpgm; /* s_endpgm */
                int sa = run(arch, lanes, a, na);
                memcpy(ref, w, sizeof *w);
                int sb = run(arch, lanes, b, nb);
                char why[160];
                isa_inst in;
                if (!isa_decode((isa_arch)test_isa_arch(arch), (const uint8_t *)&b[nm],
                                4 * (nw + 1), &in))
                    isa_dec_vop3_rdna_dpp_sdst((isa_arch)test_isa_arch(arch), &b[nm], nw + 1, &in);
                const char *name = isa_op_names[in.op];
                if (sa == WAVE_DONE && sb == WAVE_FAULT && nodpp(name)) {
                    /* a DPP form gfxemu does not run: it must fault by name at its pc */
                    CHECK(w->fault.kind == XF_UNIMPLEMENTED && w->fault.pc == 4 * nm,
                          "%s %s DPP: fault %d at %#x, want unimplemented at %#x", arch, name,
                          w->fault.kind, (unsigned)w->fault.pc, (unsigned)(4 * nm));
                    continue;
                }
                CHECK(sa >= 0 && sb >= 0 && !differs(why, sizeof why),
                      "%s wave%u %s %s (%08x %08x %08x) %s: %s", arch, lanes,
                      partial ? "partial EXEC" : "full EXEC", name, b[nm], b[nm + 1], b[nm + 2],
                      ct->what, sa < 0 || sb < 0 ? "did not build" : why);
            }
    }
}

enum { E_VOP3, E_VOP3P, E_VOP1, E_VOP2, E_VOPC, E_N };
static const char *const enc_names[E_N] = {"VOP3", "VOP3P", "VOP1", "VOP2", "VOPC"};
static unsigned nforms[NT][E_N][2];

static void one_op(const char *arch, int g, int enc, unsigned op) {
    if (enc >= E_VOP1) { /* one word: vdst v30 (VOPC: VCC), vsrc1 v4, src0 in bits 8:0 */
        uint32_t word = enc == E_VOP1   ? 0x7E000000u | 30u << 17 | op << 9
                        : enc == E_VOP2 ? op << 25 | 30u << 17 | 4u << 9
                                        : 0x7C000000u | op << 17 | 4u << 9;
        for (int form = 0; form < 2; form++) {
            uint32_t e32[2] = {word | (256 + MOV_DST), 0};
            uint32_t dw[2] = {word | (form ? 0xE9u : 0xFAu), form ? SRC0 : dpp16(0xB1, 0) | SRC0};
            if (!decodes(arch, e32, 1) || !decodes(arch, dw, 2))
                continue;
            nforms[g][enc][form]++;
            compare(arch, &word, 1, 0, form);
        }
        return;
    }
    /* field choices: src1 v4 / s22 / inline 0 / encoding 0; src2 v8 / s24 / inline 0 / 0 */
    static const unsigned s1c[] = {256 + 4, 22, 128, 0}, s2c[] = {256 + 8, 24, 128, 0};
    int vop3p = enc == E_VOP3P;
    uint32_t base = vop3p ? 0xCC000000u | op << 16 : T->vop3 | op << 16;
    base |= 30u; /* vdst v30 (or s30); w0[14:8] 0: no modifiers, or a VOP3 SDST carry-out s0 */
    for (int form = 0; form < 2; form++) { /* DPP16, DPP8 */
        uint32_t words[2] = {0, 0};
        int found = 0;
        for (unsigned i = 0; i < 4 && !found; i++)
            for (unsigned k = 0; k < 4 && !found; k++)
                for (int hi = 0; hi < 2 && !found; hi++) {
                    /* VOP3P: op_sel_hi 1 for all three sources (src2's in w0[14]) or 0 */
                    uint32_t a = base, b = s1c[i] << 9 | s2c[k] << 18;
                    if (vop3p && hi) {
                        a = (a & ~(1u << 14)) | 1u << 14;
                        b |= 3u << 27;
                    } else if (!vop3p && hi)
                        continue;
                    uint32_t e64[3] = {a, b | (256 + MOV_DST), 0};
                    uint32_t dw[3] = {a, b | (form ? 0xE9u : 0xFAu),
                                      form ? SRC0 : dpp16(0xB1, 0) | SRC0};
                    if (decodes(arch, e64, 2) && decodes(arch, dw, 3)) {
                        found = 1;
                        words[0] = a, words[1] = b;
                    }
                }
        if (!found)
            continue;
        nforms[g][enc][form]++;
        compare(arch, words, 2, 1, form);
    }
}

/* The VOP3 (_e64) form of a VOP1/VOP2/VOPC op against its _e32 form, same VGPR operands: the
 * e64 opcode is the e32 one + 0x180 (VOP1), + 0x100 (VOP2), + 0 (VOPC); VCC, implicit in e32
 * (a compare's result, a carry-out, v_cndmask's and a carry-in's mask), is named in e64 (vdst,
 * SDST, src2 = vcc_lo), and a v_cmpx's e64 vdst field holds exec_lo.  Both must leave the same
 * wave state, in wave32 and wave64, full and random EXEC. */
static unsigned ne64[NT][E_N];
static void one_e64(const char *arch, int g, int enc, unsigned op) {
    uint32_t word = enc == E_VOP1   ? 0x7E000000u | 30u << 17 | op << 9
                    : enc == E_VOP2 ? op << 25 | 30u << 17 | 4u << 9
                                    : 0x7C000000u | op << 17 | 4u << 9;
    word |= 256 + SRC0;
    isa_inst e32;
    isa_arch a = (isa_arch)test_isa_arch(arch);
    if (isa_decode(a, (const uint8_t *)&word, 4, &e32) != 4)
        return;
    unsigned e64op = op + (enc == E_VOP1 ? T->off1 : enc == E_VOP2 ? T->off2 : 0);
    int vcc_out = e32.ndst > (enc == E_VOPC ? 0 : 1) ||
                  (enc == E_VOPC && e32.ndst == 1 && e32.dst[0].kind == ISA_OPND_SREG &&
                   e32.dst[0].idx == ISA_SREG_VCC_LO);
    int vcc_in = 0;
    for (unsigned i = 0; i < 3; i++)
        vcc_in |= e32.src[i].kind == ISA_OPND_SREG && e32.src[i].idx == ISA_SREG_VCC_LO && i == 2;
    uint32_t v[3];
    v[0] = T->vop3 | e64op << 16;
    if (enc == E_VOPC)
        v[0] |= vcc_out ? ISA_SREG_VCC_LO : ISA_SREG_EXEC_LO; /* a compare's SGPR / v_cmpx */
    else
        v[0] |= 30u | (vcc_out ? ISA_SREG_VCC_LO << 8 : 0);
    v[1] =
        (256 + SRC0) | (enc == E_VOP1 ? 0 : (256 + 4) << 9) | (vcc_in ? ISA_SREG_VCC_LO << 18 : 0);
    v[2] = T->endpgm;
    isa_inst e64;
    if (isa_decode(a, (const uint8_t *)v, 8, &e64) != 8 || e64.op != e32.op)
        return;
    ne64[g][enc]++;
    uint32_t c32[2] = {word, T->endpgm};
    for (int wave64 = !T->rdna; wave64 < 2; wave64++)
        for (int partial = 0; partial < 2; partial++) {
            unsigned lanes = wave64 ? 64 : 32;
            uint64_t exec = partial ? (uint64_t)rnd() << 32 | rnd() : ~0ull;
            fill(wave64 ? exec : exec & 0xffffffffull);
            int sa = run(arch, lanes, c32, 2);
            memcpy(ref, w, sizeof *w);
            int sb = run(arch, lanes, v, 3);
            char why[160];
            CHECK(sa >= 0 && sb >= 0 && !differs(why, sizeof why),
                  "%s wave%u %s %s e64 (%08x %08x) vs e32 (%08x): %s", arch, lanes,
                  partial ? "partial EXEC" : "full EXEC", isa_op_names[e32.op], v[0], v[1], word,
                  sa < 0 || sb < 0 ? "did not build" : why);
        }
}

/* VOPD (wave32 dual issue) against its two halves run one after the other as VOP2/VOP1 _e32
 * instructions, on random legal VOPD words whose halves do not read each other's destination
 * (then the manual's read-before-write rule and the sequence agree): every X/Y opcode pair the
 * decoder accepts, VGPR, SGPR, inline and literal (shared K) sources, VCC for v_cndmask. */
typedef struct {
    char name[40];
    uint32_t word; /* opcode bits of the e32 encoding */
    int vop1;
} e32op;
static e32op e32s[80];
static unsigned ne32;

static void find_e32(isa_arch a) {
    ne32 = 0;
    for (unsigned op = 0; op < 64; op++) { /* VOP2, with a literal after it for fmaak/fmamk */
        uint32_t t[2] = {op << 25 | 30u << 17 | 4u << 9 | (256 + SRC0), 0x3f800000u};
        isa_inst in;
        if (isa_decode(a, (const uint8_t *)t, 8, &in) && ne32 < 80) {
            snprintf(e32s[ne32].name, sizeof e32s[0].name, "%s", isa_op_names[in.op]);
            e32s[ne32].word = op << 25;
            e32s[ne32++].vop1 = 0;
        }
    }
    snprintf(e32s[ne32].name, sizeof e32s[0].name, "v_mov_b32");
    e32s[ne32].word = 0x7E000000u | 1u << 9;
    e32s[ne32++].vop1 = 1;
}
static const e32op *e32_of(const char *dual) { /* "v_dual_X" -> "v_X" */
    for (unsigned i = 0; i < ne32; i++)
        if (!strcmp(e32s[i].name + 2, dual + 7))
            return &e32s[i];
    return NULL;
}
/* One half as e32 words at o: returns the count.  v_dual_dot2acc_f32_bf16 (and on gfx12
 * v_dual_dot2acc_f32_f16) has no e32 twin: it is VOP3P v_dot2_f32_bf16 (_f16, vop3p_op) with
 * the destination as src2 (e == NULL). */
static size_t half_words(uint32_t *o, const e32op *e, const isa_inst *in, int y, int k,
                         unsigned vop3p_op) {
    const isa_opnd *d = &in->dst[y], *s0 = &in->src[2 * y], *s1 = &in->src[2 * y + 1];
    unsigned src0 = s0->kind == ISA_OPND_VGPR ? 256u + s0->idx : (in->w[y] & 0x1ff);
    size_t n = 0;
    if (!e) {
        o[n++] = 0xCC004000u | vop3p_op << 16 | d->idx;
        o[n++] = src0 | (256u + s1->idx) << 9 | (256u + d->idx) << 18 | 3u << 27;
    } else
        o[n++] = e->word | (uint32_t)d->idx << 17 | (e->vop1 ? 0 : (uint32_t)s1->idx << 9) | src0;
    if (src0 == 255 || k)
        o[n++] = in->lit;
    return n;
}
static int reads(const isa_inst *in, int y, unsigned v) {
    const isa_opnd *s0 = &in->src[2 * y], *s1 = &in->src[2 * y + 1];
    return (s0->kind == ISA_OPND_VGPR && s0->idx == v) ||
           (s1->kind == ISA_OPND_VGPR && s1->idx == v);
}
static unsigned npairs[NT], ncases[NT];
static void vopd_forms(const char *arch, int g) {
    isa_arch a = (isa_arch)test_isa_arch(arch);
    find_e32(a);
    static uint8_t seen[16][32];
    memset(seen, 0, sizeof seen);
    for (unsigned t = 0; t < 40000; t++) {
        unsigned opx = rnd() % 16, opy = rnd() % 32, r = rnd();
        unsigned s0x = r % 4 == 0   ? rnd() % 11
                       : r % 4 == 1 ? 128 + rnd() % 81
                       : r % 8 == 2 ? 255
                                    : 256 + rnd() % 16;
        r = rnd();
        unsigned s0y = r % 4 == 0   ? rnd() % 11
                       : r % 4 == 1 ? 128 + rnd() % 81
                       : r % 8 == 2 ? 255
                                    : 256 + rnd() % 16;
        uint32_t v[4] = {0xC8000000u | opx << 22 | opy << 17 | (rnd() % 16) << 9 | s0x,
                         (rnd() % 32) << 24 | (rnd() % 16) << 17 | (rnd() % 16) << 9 | s0y,
                         rnd() % 2 ? 0x40490fdbu : rnd(), 0};
        isa_inst in;
        size_t n = isa_decode(a, (const uint8_t *)v, 12, &in);
        if (!n || in.fmt != ISA_FMT_VOPD)
            continue;
        const char *nx = isa_op_names[in.op], *ny = isa_op_names[in.flags];
        const e32op *ex = e32_of(nx), *ey = e32_of(ny);
        /* VOP3P v_dot2_f32_f16 0x13, v_dot2_f32_bf16 0x1a: the stand-ins with no e32 form */
        unsigned px = strstr(nx, "dot2acc_f32_bf16")  ? 0x1a
                      : strstr(nx, "dot2acc_f32_f16") ? 0x13
                                                      : 0;
        unsigned py = strstr(ny, "dot2acc_f32_bf16")  ? 0x1a
                      : strstr(ny, "dot2acc_f32_f16") ? 0x13
                                                      : 0;
        int bfx = !ex && px, bfy = !ey && py;
        CHECK((ex || bfx) && (ey || bfy), "%s: no e32 form for %s / %s", arch, nx, ny);
        if ((!ex && !bfx) || (!ey && !bfy))
            continue;
        /* (its VOP3P stand-in reads a constant src0 by VOP3P's packed-constant rule, not as
         * the VOPD word does: compared with a VGPR src0 only) */
        if ((bfx && in.src[0].kind != ISA_OPND_VGPR) || (bfy && in.src[2].kind != ISA_OPND_VGPR))
            continue;
        /* (an fmac/dot2acc half also reads its own vdst, never the other half's: the two
         * destinations always differ, in their VGPR bank) */
        if (reads(&in, 1, in.dst[0].idx) || reads(&in, 0, in.dst[1].idx))
            continue;
        int kx = strstr(nx, "fmaak") || strstr(nx, "fmamk"),
            ky = strstr(ny, "fmaak") || strstr(ny, "fmamk");
        uint32_t c[8];
        size_t nc = half_words(c, ex, &in, 0, kx, px);
        nc += half_words(c + nc, ey, &in, 1, ky, py);
        c[nc++] = T->endpgm;
        uint32_t d[4];
        memcpy(d, v, n);
        d[n / 4] = T->endpgm;
        if (!seen[opx][opy])
            npairs[g]++;
        seen[opx][opy] = 1;
        ncases[g]++;
        uint64_t exec = t % 3 ? ~0ull : (uint64_t)rnd();
        fill(exec & 0xffffffffull);
        w0->s[ISA_SREG_VCC_LO] = rnd();
        int sa = run(arch, 32, c, nc);
        memcpy(ref, w, sizeof *w);
        int sb = run(arch, 32, d, n / 4 + 1);
        char why[160], text[160];
        isa_print(&in, text, sizeof text);
        CHECK(sa >= 0 && sb >= 0 && !differs(why, sizeof why), "%s %s (%08x %08x): %s", arch, text,
              v[0], v[1], sa < 0 || sb < 0 ? "did not build" : why);
    }
}

/* The VOP3 source modifiers: op_e64 with neg (w1[29 + i]) or abs (w0[8 + i]) on a float source
 * i against the same op reading v20 (v[20:21]), which a v_xor_b32 / v_and_b32 of the sign bit
 * (of the low half for an f16 source, of the high dword for an f64 one) made from the source:
 * the manuals define both modifiers as that bit operation on the operand as read. */
static const e32op *e32_named(const char *name) {
    for (unsigned i = 0; i < ne32; i++)
        if (!strcmp(e32s[i].name, name))
            return &e32s[i];
    return NULL;
}
static unsigned nmods[NT];

/* Sources that are not floats although their constants print as such, where the manuals'
 * "input modifiers apply to floating-point operands" leaves neg/abs without a float meaning:
 * exponents, class masks, stochastic-rounding seeds, byte positions, integer dots and bit ops,
 * packed 8-bit floats (one sign bit per element, not bit 31), and v_s_* (scalar sources only). */
static int int_source(const char *name, unsigned i) {
    static const struct {
        const char *pre;
        unsigned mask; /* the sources (bit i) */
    } skip[] = {
        {"v_ldexp_", 2},         {"v_cmp_class_", 2},     {"v_cmpx_class_", 2},
        {"v_cvt_pk_u8_f32", 6},  {"v_dot2c_i32", 7},      {"v_dot4c_i32", 7},
        {"v_dot8c_i32", 7},      {"v_bitop3", 7},         {"v_ashr_pk_", 7},
        {"v_cvt_pk_f32_fp8", 1}, {"v_cvt_pk_f32_bf8", 1}, {"v_s_", 7},
    };
    for (size_t k = 0; k < sizeof skip / sizeof skip[0]; k++)
        if (!strncmp(name, skip[k].pre, strlen(skip[k].pre)) && (skip[k].mask >> i & 1))
            return 1;
    /* stochastic rounding: src1 is the random bits (v_cvt_sr_*, v_cvt_scalef32_sr_*) */
    return i == 1 && strstr(name, "_sr_") != NULL;
}
/* The first src1/src2 field choice (VGPR, SGPR, inline 0, encoding 0) with which VOP3 word
 * base, src0 v1, decodes: its second word in *w1, the record in *in. */
static int plain_e64(isa_arch a, uint32_t base, uint32_t *w1, isa_inst *in) {
    static const unsigned s1c[] = {256 + 4, 22, 128, 0}, s2c[] = {256 + 8, 24, 128, 0};
    for (unsigned i = 0; i < 4; i++)
        for (unsigned k = 0; k < 4; k++) {
            uint32_t t[3] = {base, (256 + SRC0) | s1c[i] << 9 | s2c[k] << 18, 0};
            if (isa_decode(a, (const uint8_t *)t, 8, in) == 8) {
                *w1 = t[1];
                return 1;
            }
        }
    return 0;
}

static void one_mods(const char *arch, int g, unsigned op) {
    isa_arch a = (isa_arch)test_isa_arch(arch);
    uint32_t base = T->vop3 | op << 16 | 30u, w1 = 0;
    isa_inst in;
    int found = plain_e64(a, base, &w1, &in);
    if (!found || in.fmt != ISA_FMT_VOP3 || !in.info)
        return;
    const e32op *vxor = e32_named("v_xor_b32"), *vand = e32_named("v_and_b32"),
                *vmov = e32_named("v_mov_b32");
    int sdst = in.ndst == 2 && in.dst[1].kind == ISA_OPND_SREG;
    for (unsigned i = 0; i < in.nsrc && i < 3; i++) {
        int t = in.info->src_t[i];
        if (in.src[i].kind != ISA_OPND_VGPR ||
            (t != ISA_T_F32 && t != ISA_T_F16 && t != ISA_T_F64) ||
            int_source(isa_op_names[in.op], i))
            continue;
        unsigned r = in.src[i].idx, wide = t == ISA_T_F64;
        uint32_t bit = t == ISA_T_F16 ? 0x8000u : 0x80000000u;
        for (int abs = 0; abs < 2; abs++) {
            if (abs && sdst) /* w0[10:8] is the carry-out there */
                continue;
            uint32_t e = abs ? base | 1u << (8 + i) : base, f = abs ? w1 : w1 | 1u << (29 + i);
            uint32_t chk[3] = {e, f, 0};
            isa_inst m;
            if (isa_decode(a, (const uint8_t *)chk, 8, &m) != 8 || m.op != in.op)
                continue; /* the modifier is not allowed on this source */
            const e32op *bop = abs ? vand : vxor;
            uint32_t k = abs ? ~bit : bit, pre[8];
            size_t np = 0;
            if (wide) /* v20 = lo; v21 = hi op k */
                pre[np++] = vmov->word | (uint32_t)MOV_DST << 17 | (256 + r);
            pre[np++] = bop->word | (uint32_t)(MOV_DST + wide) << 17 | (r + wide) << 9 | 255;
            pre[np++] = abs && t == ISA_T_F16 ? 0xffff7fffu : k;
            uint32_t pa[12], pb[12];
            memcpy(pa, pre, np * 4);
            memcpy(pb, pre, np * 4);
            size_t na = np, nb = np;
            /* A: the plain op reading v20; B: the modifier on the original source */
            uint32_t ra = w1, rb = f;
            if (i == 0)
                ra = (ra & ~0x1ffu) | (256 + MOV_DST);
            else
                ra = (ra & ~(0x1ffu << (9 * i))) | (256u + MOV_DST) << (9 * i);
            pa[na++] = base, pa[na++] = ra, pa[na++] = T->endpgm;
            pb[nb++] = e, pb[nb++] = rb, pb[nb++] = T->endpgm;
            nmods[g]++;
            for (int wave64 = !T->rdna; wave64 < 2; wave64++) {
                fill(wave64 ? ~0ull : 0xffffffffull);
                int sa = run(arch, wave64 ? 64 : 32, pa, na);
                memcpy(ref, w, sizeof *w);
                int sb = run(arch, wave64 ? 64 : 32, pb, nb);
                char why[160];
                CHECK(sa >= 0 && sb >= 0 && !differs(why, sizeof why),
                      "%s wave%d %s %s on src%u (%08x %08x): %s", arch, wave64 ? 64 : 32,
                      isa_op_names[in.op], abs ? "abs" : "neg", i, e, rb,
                      sa < 0 || sb < 0 ? "did not build" : why);
            }
        }
    }
}

/* op_sel on a 16-bit source of a VOP3 op (w0[11 + i]: the source's high half) against the op
 * reading the low half of a copy shifted right by 16 first (v_lshrrev_b32 v20, 16, src). */
static unsigned nopsel[NT];
static void one_opsel(const char *arch, int g, unsigned op) {
    isa_arch a = (isa_arch)test_isa_arch(arch);
    uint32_t base = T->vop3 | op << 16 | 30u, w1 = 0;
    isa_inst in;
    int found = plain_e64(a, base, &w1, &in);
    const e32op *shr = e32_named("v_lshrrev_b32");
    if (!found || in.fmt != ISA_FMT_VOP3 || !in.info || !shr ||
        (in.ndst == 2 && in.dst[1].kind == ISA_OPND_SREG)) /* (w0[14:8]: a carry-out) */
        return;
    for (unsigned i = 0; i < in.nsrc && i < 3; i++) {
        int t = in.info->src_t[i];
        if (in.src[i].kind != ISA_OPND_VGPR || in.src[i].n != 1 ||
            (t != ISA_T_F16 && t != ISA_T_B16 && t != ISA_T_BF16))
            continue;
        uint32_t e = base | 1u << (11 + i), chk[3] = {e, w1, 0};
        isa_inst m;
        /* no op_sel on this source, or LLVM reads the word without it (gfx12 fake16, gfx9
         * VOPC: the bit is dropped, as llvm-mc-22 -disassemble shows) */
        if (isa_decode(a, (const uint8_t *)chk, 8, &m) != 8 || m.op != in.op ||
            !((m.f.v.opsel >> i) & 1))
            continue;
        uint32_t ra = i == 0 ? (w1 & ~0x1ffu) | (256 + MOV_DST)
                             : (w1 & ~(0x1ffu << (9 * i))) | (256u + MOV_DST) << (9 * i);
        /* v_lshrrev_b32 v20, 16, v<src> (inline 16 = encoding 144) */
        uint32_t pre = shr->word | (uint32_t)MOV_DST << 17 | in.src[i].idx << 9 | 144;
        uint32_t pa[4] = {pre, base, ra, T->endpgm}, pb[4] = {pre, e, w1, T->endpgm};
        nopsel[g]++;
        for (int wave64 = !T->rdna; wave64 < 2; wave64++) {
            fill(wave64 ? ~0ull : 0xffffffffull);
            int sa = run(arch, wave64 ? 64 : 32, pa, 4);
            memcpy(ref, w, sizeof *w);
            int sb = run(arch, wave64 ? 64 : 32, pb, 4);
            char why[160];
            CHECK(sa >= 0 && sb >= 0 && !differs(why, sizeof why),
                  "%s wave%d %s op_sel on src%u (%08x %08x): %s", arch, wave64 ? 64 : 32,
                  isa_op_names[in.op], i, e, w1, sa < 0 || sb < 0 ? "did not build" : why);
        }
    }
}

/* gfx9 SDWA source selects: op_sdwa D, v1, v4 src0_sel:S0 src1_sel:S1 (dst_sel:DWORD
 * dst_unused:UNUSED_PAD, with or without sext) against the e32 op reading v20/v21, which
 * v_bfe_u32 (v_bfe_i32 for sext) extracted from v1/v4 first: the manual's definition of a
 * source select (a byte or word, zero- or sign-extended to 32 bits). */
static unsigned nsdwa[NT];
static void one_sdwa(const char *arch, int g, int enc, unsigned op) {
    static const unsigned sels[][2] = {{1, 6}, {5, 6}, {6, 2}, {4, 5}, {3, 0}, {0, 4}, {2, 3}};
    isa_arch a = (isa_arch)test_isa_arch(arch);
    uint32_t word = enc == E_VOP1   ? 0x7E000000u | 30u << 17 | op << 9
                    : enc == E_VOP2 ? op << 25 | 30u << 17 | 4u << 9
                                    : 0x7C000000u | op << 17 | 4u << 9;
    uint32_t plain = word | (256 + SRC0);
    isa_inst e32;
    if (isa_decode(a, (const uint8_t *)&plain, 4, &e32) != 4)
        return;
    int counted = 0;
    for (size_t k = 0; k < sizeof sels / sizeof sels[0]; k++)
        for (unsigned sx = 0; sx < 4; sx++) { /* bit 0: src0 sext, bit 1: src1 sext */
            unsigned s0 = sels[k][0], s1 = enc == E_VOP1 ? 6 : sels[k][1];
            uint32_t sd = SRC0 | 6u << 8 | s0 << 16 | (sx & 1) << 19 | s1 << 24 | (sx >> 1) << 27;
            uint32_t sw[2] = {word | 0xF9, sd};
            isa_inst m;
            if (isa_decode(a, (const uint8_t *)sw, 8, &m) != 8 || m.op != e32.op ||
                m.variant != ISA_VAR_SDWA || (enc == E_VOP1 && (sx & 2)))
                continue;
            if ((sx & 1) != (m.f.v.sext & 1) || ((sx >> 1) & 1) != ((m.f.v.sext >> 1) & 1))
                continue; /* (a sext bit the decoder does not take) */
            uint32_t pre[4], np = 0;
            unsigned src[2] = {SRC0, 4}, sel[2] = {s0, s1};
            for (int i = 0; i < (enc == E_VOP1 ? 1 : 2); i++) {
                if (sel[i] == 6)
                    continue;
                unsigned off = sel[i] < 4 ? 8 * sel[i] : 16 * (sel[i] - 4),
                         width = sel[i] < 4 ? 8 : 16, sext = (sx >> i) & 1;
                pre[np++] = T->vop3 | (0x1c8u + sext) << 16 | (MOV_DST + i);
                pre[np++] = (256 + src[i]) | (128 + off) << 9 | (128 + width) << 18;
            }
            uint32_t pa[8], pb[8];
            memcpy(pa, pre, np * 4);
            memcpy(pb, pre, np * 4);
            size_t na = np, nb = np;
            uint32_t ref32 = word;
            ref32 |= s0 == 6 ? 256u + SRC0 : 256u + MOV_DST;
            if (enc != E_VOP1 && s1 != 6)
                ref32 = (ref32 & ~(0xffu << 9)) | (MOV_DST + 1u) << 9;
            pa[na++] = ref32, pa[na++] = T->endpgm;
            pb[nb++] = sw[0], pb[nb++] = sd, pb[nb++] = T->endpgm;
            if (!counted++)
                nsdwa[g]++;
            fill(rnd() % 2 ? ~0ull : (uint64_t)rnd() << 32 | rnd());
            int sa = run(arch, 64, pa, na);
            memcpy(ref, w, sizeof *w);
            int sb = run(arch, 64, pb, nb);
            char why[160];
            CHECK(sa >= 0 && sb >= 0 && !differs(why, sizeof why),
                  "%s %s sdwa src0_sel:%u src1_sel:%u sext %u (%08x %08x): %s", arch,
                  isa_op_names[e32.op], s0, s1, sx, sw[0], sd,
                  sa < 0 || sb < 0 ? "did not build" : why);
        }
}

/* RDNA VOP3 literals: a 32-bit source given as a literal dword against the same value in an
 * SGPR (s22), for every VOP3 op whose src1 (or src0) takes both. */
static unsigned nlit[NT];
static void one_literal(const char *arch, int g, unsigned op) {
    isa_arch a = (isa_arch)test_isa_arch(arch);
    uint32_t base = T->vop3 | op << 16 | 30u;
    for (unsigned i = 0; i < 2; i++) { /* the literal in src0 or src1 */
        uint32_t ws =
            i ? (256 + SRC0) | 22u << 9 | (256 + 8) << 18 : 22u | (256 + 4) << 9 | (256 + 8) << 18;
        uint32_t wl = i ? (ws & ~(0x1ffu << 9)) | 255u << 9 : (ws & ~0x1ffu) | 255u;
        uint32_t lit = rnd() % 2 ? 0x40490fdbu : rnd();
        uint32_t ts[3] = {base, ws, 0}, tl[3] = {base, wl, lit};
        isa_inst is, il;
        if (isa_decode(a, (const uint8_t *)ts, 8, &is) != 8 ||
            isa_decode(a, (const uint8_t *)tl, 12, &il) != 12 || is.op != il.op ||
            is.src[i].kind != ISA_OPND_SREG || is.src[i].n != 1 ||
            il.src[i].kind != ISA_OPND_LITERAL)
            continue;
        uint32_t pa[3] = {base, ws, T->endpgm}, pb[4] = {base, wl, lit, T->endpgm};
        nlit[g]++;
        for (int wave64 = 0; wave64 < 2; wave64++) {
            fill(wave64 ? ~0ull : 0xffffffffull);
            w0->s[22] = lit;
            int sa = run(arch, wave64 ? 64 : 32, pa, 3);
            memcpy(ref, w, sizeof *w);
            int sb = run(arch, wave64 ? 64 : 32, pb, 4);
            char why[160];
            CHECK(sa >= 0 && sb >= 0 && !differs(why, sizeof why),
                  "%s wave%d %s literal %#x in src%u (%08x %08x): %s", arch, wave64 ? 64 : 32,
                  isa_op_names[is.op], lit, i, base, wl, sa < 0 || sb < 0 ? "did not build" : why);
        }
    }
}

/* VOP3P packed 16-bit ops: op_sel / op_sel_hi (which half feeds the low / high computation) and
 * neg_lo / neg_hi (float ops: negate that input) on each source, against the op with default
 * modifiers reading a copy v_perm_b32 rearranged (and v_xor_b32 negated) first. */
static unsigned npk[NT];
static void one_packed(const char *arch, int g, unsigned op) {
    isa_arch a = (isa_arch)test_isa_arch(arch);
    uint32_t pfx = T->rdna ? 0xCC000000u : 0xD3800000u, perm = T->rdna ? 0xD6440000u : 0xD1ED0000u;
    uint32_t d0 = pfx | op << 16 | 1u << 14 | 30u,
             d1 = (256 + SRC0) | (256 + 4) << 9 | (256 + 8) << 18 | 3u << 27;
    isa_inst in;
    const e32op *vxor = e32_named("v_xor_b32");
    if (isa_decode(a, (const uint8_t *)(uint32_t[]){d0, d1}, 8, &in) != 8)
        d1 &= ~(0x1ffu << 18); /* (a two-source op whose src2 field must be 0) */
    if (isa_decode(a, (const uint8_t *)(uint32_t[]){d0, d1}, 8, &in) != 8 || !in.info || !vxor ||
        strncmp(isa_op_names[in.op], "v_pk_", 5) || in.nsrc < 2)
        return;
    /* 16-bit halves only (not v_pk_*_f32 / v_pk_mov_b32); neg only on the float ones */
    const char *pn = isa_op_names[in.op];
    if (strstr(pn, "32"))
        return;
    int flt = strstr(pn, "_f16") || strstr(pn, "_bf16");
    unsigned ns = in.nsrc < 3 ? in.nsrc : 3, srcs[3] = {SRC0, 4, 8}, done = 0;
    for (unsigned t = 0; t < 24; t++) {
        unsigned sel = rnd() & 7, selhi = rnd() & 7, nlo = flt ? rnd() & 7 : 0,
                 nhi = flt ? rnd() & 7 : 0;
        sel &= (1u << ns) - 1, selhi |= ~((1u << ns) - 1) & 7, nlo &= (1u << ns) - 1,
            nhi &= (1u << ns) - 1;
        uint32_t e0 = (pfx | op << 16 | 30u) | nhi << 8 | sel << 11 | ((selhi >> 2) & 1) << 14;
        uint32_t e1 = (d1 & ~(3u << 27)) | (selhi & 3) << 27 | nlo << 29;
        isa_inst m;
        if (isa_decode(a, (const uint8_t *)(uint32_t[]){e0, e1}, 8, &m) != 8 || m.op != in.op)
            continue;
        uint32_t pre[16], np = 0, r1 = d1;
        for (unsigned i = 0; i < ns; i++) {
            /* low half from half sel_i, high half from half selhi_i: v_perm_b32 byte selects
             * (0-3: the second source's bytes, here the same register) */
            pre[np++] = perm | (MOV_DST + i);
            pre[np++] = (256 + srcs[i]) | (256 + srcs[i]) << 9 | (40 + i) << 18;
            if ((nlo | nhi) >> i & 1) {
                pre[np++] = vxor->word | (MOV_DST + i) << 17 | (MOV_DST + i) << 9 | (44 + i);
            }
            r1 = (r1 & ~(0x1ffu << (9 * i))) | (256u + MOV_DST + i) << (9 * i);
        }
        uint32_t pa[24], pb[24];
        memcpy(pa, pre, np * 4);
        memcpy(pb, pre, np * 4);
        size_t na = np, nb = np;
        pa[na++] = d0, pa[na++] = r1, pa[na++] = T->endpgm;
        pb[nb++] = e0, pb[nb++] = e1, pb[nb++] = T->endpgm;
        if (!done++)
            npk[g]++;
        for (int wave64 = !T->rdna; wave64 < 2; wave64++) {
            fill(wave64 ? ~0ull : 0xffffffffull);
            for (unsigned i = 0; i < ns; i++) {
                unsigned lo = (sel >> i & 1) * 2, hi = (selhi >> i & 1) * 2;
                w0->s[40 + i] = lo | (lo + 1) << 8 | hi << 16 | (hi + 1) << 24;
                w0->s[44 + i] = ((nlo >> i & 1) ? 0x8000u : 0) | ((nhi >> i & 1) ? 0x80000000u : 0);
            }
            int sa = run(arch, wave64 ? 64 : 32, pa, na);
            memcpy(ref, w, sizeof *w);
            int sb = run(arch, wave64 ? 64 : 32, pb, nb);
            char why[160];
            CHECK(sa >= 0 && sb >= 0 && !differs(why, sizeof why),
                  "%s wave%d %s op_sel %u op_sel_hi %u neg_lo %u neg_hi %u (%08x %08x): %s", arch,
                  wave64 ? 64 : 32, isa_op_names[in.op], sel, selhi, nlo, nhi, e0, e1,
                  sa < 0 || sb < 0 ? "did not build" : why);
        }
    }
}

int main(void) {
    w = aligned_alloc(64, sizeof *w);
    w0 = aligned_alloc(64, sizeof *w0);
    ref = aligned_alloc(64, sizeof *ref);
    if (!w || !w0 || !ref)
        return 1;
    for (unsigned g = 0; g < NT; g++) {
        T = &targets[g];
        const char *arch = T->name;
        static const unsigned nops[E_N] = {0x400, 0x80, 0x100, 0x40, 0x100};
        for (int e = T->rdna ? E_VOP3 : E_VOP1; e < E_N; e++) { /* gfx9: no VOP3 DPP */
            for (unsigned op = 0; op < nops[e]; op++)
                one_op(arch, g, e, op);
            printf("%s %s: %u opcodes with a DPP16 form, %u with a DPP8 form\n", arch, enc_names[e],
                   nforms[g][e][0], nforms[g][e][1]);
        }
        for (int e = E_VOP1; e <= E_VOPC; e++) {
            for (unsigned op = 0; op < nops[e]; op++)
                one_e64(arch, g, e, op);
            printf("%s %s: %u opcodes checked in their e64 form\n", arch, enc_names[e], ne64[g][e]);
        }
        CHECK(ne64[g][E_VOP1] >= 50 && ne64[g][E_VOP2] >= 35 && ne64[g][E_VOPC] >= 70,
              "%s: too few e64 forms found", arch);
        /* the decoder's tables hold about 320 VOP3 opcodes with a DPP16 form on RDNA (random
         * words), and VOP1/VOP2/VOPC have dozens each: far fewer means the field choices above
         * stopped matching them */
        CHECK(nforms[g][E_VOP1][0] >= 40 && nforms[g][E_VOP2][0] >= 25 &&
                  (!T->rdna || nforms[g][E_VOPC][0] >= 60), /* (gfx9 VOPC has no DPP) */
              "%s: too few DPP forms found", arch);
        if (!T->rdna) {
            for (int e = E_VOP1; e <= E_VOPC; e++)
                for (unsigned op = 0; op < nops[e]; op++)
                    one_sdwa(arch, g, e, op);
            printf("%s: %u opcodes checked with SDWA source selects\n", arch, nsdwa[g]);
            CHECK(nsdwa[g] >= 150, "%s: only %u SDWA opcodes", arch, nsdwa[g]);
        }
        find_e32((isa_arch)test_isa_arch(arch));
        for (unsigned op = 0; op < 0x400; op++)
            one_mods(arch, g, op);
        printf("%s: %u source modifiers checked\n", arch, nmods[g]);
        for (unsigned op = 0; op < 0x400; op++)
            one_opsel(arch, g, op);
        printf("%s: %u 16-bit sources checked with op_sel\n", arch, nopsel[g]);
        for (unsigned op = 0; op < 0x80; op++)
            one_packed(arch, g, op);
        printf("%s: %u packed 16-bit ops checked with op_sel/op_sel_hi/neg\n", arch, npk[g]);
        CHECK(npk[g] >= 10, "%s: only %u packed ops", arch, npk[g]);
        CHECK(nopsel[g] >= 20, "%s: only %u op_sel sources found", arch, nopsel[g]);
        CHECK(nmods[g] >= 200, "%s: only %u source modifiers found", arch, nmods[g]);
        if (!T->rdna)
            continue;
        CHECK(nforms[g][E_VOP3][0] >= 250 && nforms[g][E_VOP3][1] >= 250,
              "%s: too few VOP3 DPP forms found", arch);
        for (unsigned op = 0; op < 0x400; op++)
            one_literal(arch, g, op);
        printf("%s: %u VOP3 literal sources checked\n", arch, nlit[g]);
        CHECK(nlit[g] >= 300, "%s: only %u VOP3 literal sources", arch, nlit[g]);
        vopd_forms(arch, g);
        printf("%s VOPD: %u X/Y opcode pairs in %u words\n", arch, npairs[g], ncases[g]);
        CHECK(npairs[g] >= 150, "%s: only %u VOPD opcode pairs", arch, npairs[g]);
    }
    free(w);
    free(w0);
    free(ref);
    return check_summary("test_valu_forms");
}
