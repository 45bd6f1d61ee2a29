/* test_rdna_dpp_forms.c - every VOP1, VOP2, VOPC, VOP3 and VOP3P opcode of gfx1100 and gfx1201
 * that has a DPP16 or DPP8 form, run in that form and checked against the same op in its plain
 * form (_e32/_e64) fed by a v_mov_b32 with the same DPP control, in wave32 and wave64, with full
 * and partial EXEC; and every VOP1/VOP2/VOPC op's VOP3 (_e64) form against its _e32 form
 * (one_e64, below).
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
#include "common/util.h"
#include "exec/exec.h"
#include "isa/isa.h"

#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static wave *w, *w0, *ref;

enum { MOV_DST = 20, SRC0 = 1 };

/* v_mov_b32_dpp v20, v1 with DPP16 control dword d (its src0 byte replaced) or DPP8 selectors. */
static size_t mov_dpp(uint32_t *o, int dpp8, uint32_t ctrl, int fi) {
    o[0] = 0x7E000000u | (MOV_DST << 17) | (1u << 9) | (dpp8 ? (fi ? 0xEAu : 0xE9u) : 0xFAu);
    o[1] = dpp8 ? (ctrl << 8 | SRC0) : (ctrl & ~0xffu) | SRC0;
    return 2;
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
} control;

#define SEL8(a, b, c, d, e, f, g, h)                                                               \
    ((a) | (b) << 3 | (c) << 6 | (d) << 9 | (e) << 12 | (f) << 15 | (g) << 18 | (h) << 21)
static const control controls[] = {
    {"quad_perm:[1,0,3,2]", 0, 0xB1, 0},
    {"row_shr:1", 0, 0x111, 0},
    {"row_ror:3", 0, 0x123, 0},
    {"row_mirror", 0, 0x140, 0},
    {"row_share:5", 0, 0x155, 0},
    {"row_xmask:3", 0, 0x163, 0},
    {"row_shl:2 fi:1", 0, 0x102, 1},
    {"dpp8:[7,6,5,4,3,2,1,0]", 1, SEL8(7, 6, 5, 4, 3, 2, 1, 0), 0},
    {"dpp8:[1,1,0,0,3,3,2,2] fi:1", 1, SEL8(1, 1, 0, 0, 3, 3, 2, 2), 1},
};

/* Run code (n words) from the state in w0 on w; returns the status. */
static int run(const char *arch, unsigned lanes, const uint32_t *code, size_t n) {
    memcpy(w, w0, sizeof *w);
    xprog p;
    if (xprog_build_waves(&p, test_isa_arch(arch), (const uint8_t *)code, (uint32_t)(n * 4), 0x1000,
                          lanes) != 0)
        return -1;
    w->prog = &p;
    w->pc = 0;
    w->budget = 100;
    w->status = WAVE_RUNNING;
    wave_run(w);
    w->prog = NULL;
    xprog_free(&p);
    return w->status;
}

/* Two NaNs (f32, or f16 in each half) count as the same value: which input's payload a
 * two-NaN operation returns is not in the manuals, and gfxemu's vectorised plain forms and its
 * DPP/modifier path pick differently (docs/testing.md). */
static int f32_nan(uint32_t v) { return (v & 0x7f800000u) == 0x7f800000u && (v & 0x7fffffu); }
static int f16_nan(uint32_t v) { return (v & 0x7c00u) == 0x7c00u && (v & 0x3ffu); }
static int same_value(uint32_t a, uint32_t b) {
    if (a == b || (f32_nan(a) && f32_nan(b)))
        return 1;
    for (int h = 0; h < 32; h += 16) {
        uint32_t x = (a >> h) & 0xffff, y = (b >> h) & 0xffff;
        if (x != y && !(f16_nan(x) && f16_nan(y)))
            return 0;
    }
    return 1;
}

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
static uint32_t rnd(void) {
    rng ^= rng << 13, rng ^= rng >> 7, rng ^= rng << 17;
    return (uint32_t)(rng >> 16);
}

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
        if (ct->dpp8 != form)
            continue;
        uint32_t ctrl = ct->dpp8 ? ct->code : dpp16(ct->code, ct->fi);
        for (int wave64 = 0; wave64 < 2; wave64++)
            for (int partial = 0; partial < 2; partial++) {
                unsigned lanes = wave64 ? 64 : 32;
                uint64_t exec = partial ? (uint64_t)rnd() << 32 | rnd() : ~0ull;
                if (!wave64)
                    exec &= 0xffffffffull;
                fill(exec);
                uint32_t a[8], b[8];
                size_t na = mov_dpp(a, ct->dpp8, ctrl, ct->fi),
                       nb = mov_dpp(b, ct->dpp8, ctrl, ct->fi);
                for (size_t i = 0; i < nw; i++) {
                    a[na++] = words[i] | (i == s0w ? 256u + MOV_DST : 0);
                    b[nb++] = words[i] | (i == s0w ? src0_code(ct) : 0);
                }
                b[nb++] = ct->dpp8 ? ctrl << 8 | SRC0 : ctrl | SRC0;
                a[na++] = b[nb++] = 0xBFB00000u; /* s_endpgm */
                int sa = run(arch, lanes, a, na);
                memcpy(ref, w, sizeof *w);
                int sb = run(arch, lanes, b, nb);
                char why[160];
                isa_inst in;
                if (!isa_decode((isa_arch)test_isa_arch(arch), (const uint8_t *)&b[2], 4 * (nw + 1),
                                &in))
                    isa_dec_vop3_rdna_dpp_sdst((isa_arch)test_isa_arch(arch), &b[2], nw + 1, &in);
                const char *name = isa_op_names[in.op];
                if (sa == WAVE_DONE && sb == WAVE_FAULT && nodpp(name)) {
                    /* a DPP form gfxemu does not run: it must fault by name at its pc */
                    CHECK(w->fault.kind == XF_UNIMPLEMENTED && w->fault.pc == 8,
                          "%s %s DPP: fault %d at %#x, want unimplemented at 0x8", arch, name,
                          w->fault.kind, (unsigned)w->fault.pc);
                    continue;
                }
                CHECK(sa >= 0 && sb >= 0 && !differs(why, sizeof why),
                      "%s wave%u %s %s (%08x %08x %08x) %s: %s", arch, lanes,
                      partial ? "partial EXEC" : "full EXEC", name, b[2], b[3], b[4], ct->what,
                      sa < 0 || sb < 0 ? "did not build" : why);
            }
    }
}

enum { E_VOP3, E_VOP3P, E_VOP1, E_VOP2, E_VOPC, E_N };
static const char *const enc_names[E_N] = {"VOP3", "VOP3P", "VOP1", "VOP2", "VOPC"};
static unsigned nforms[2][E_N][2];

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
    uint32_t base = vop3p ? 0xCC000000u | op << 16 : 0xD4000000u | op << 16;
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
static unsigned ne64[2][E_N];
static void one_e64(const char *arch, int g, int enc, unsigned op) {
    uint32_t word = enc == E_VOP1   ? 0x7E000000u | 30u << 17 | op << 9
                    : enc == E_VOP2 ? op << 25 | 30u << 17 | 4u << 9
                                    : 0x7C000000u | op << 17 | 4u << 9;
    word |= 256 + SRC0;
    isa_inst e32;
    isa_arch a = (isa_arch)test_isa_arch(arch);
    if (isa_decode(a, (const uint8_t *)&word, 4, &e32) != 4)
        return;
    unsigned e64op = op + (enc == E_VOP1 ? 0x180 : enc == E_VOP2 ? 0x100 : 0);
    int vcc_out = e32.ndst > (enc == E_VOPC ? 0 : 1) ||
                  (enc == E_VOPC && e32.ndst == 1 && e32.dst[0].kind == ISA_OPND_SREG &&
                   e32.dst[0].idx == ISA_SREG_VCC_LO);
    int vcc_in = 0;
    for (unsigned i = 0; i < 3; i++)
        vcc_in |= e32.src[i].kind == ISA_OPND_SREG && e32.src[i].idx == ISA_SREG_VCC_LO && i == 2;
    uint32_t v[3];
    v[0] = 0xD4000000u | e64op << 16;
    if (enc == E_VOPC)
        v[0] |= vcc_out ? ISA_SREG_VCC_LO : ISA_SREG_EXEC_LO; /* a compare's SGPR / v_cmpx */
    else
        v[0] |= 30u | (vcc_out ? ISA_SREG_VCC_LO << 8 : 0);
    v[1] =
        (256 + SRC0) | (enc == E_VOP1 ? 0 : (256 + 4) << 9) | (vcc_in ? ISA_SREG_VCC_LO << 18 : 0);
    v[2] = 0xBFB00000u;
    isa_inst e64;
    if (isa_decode(a, (const uint8_t *)v, 8, &e64) != 8 || e64.op != e32.op)
        return;
    ne64[g][enc]++;
    uint32_t c32[2] = {word, 0xBFB00000u};
    for (int wave64 = 0; wave64 < 2; wave64++)
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

int main(void) {
    w = aligned_alloc(64, sizeof *w);
    w0 = aligned_alloc(64, sizeof *w0);
    ref = aligned_alloc(64, sizeof *ref);
    if (!w || !w0 || !ref)
        return 1;
    static const char *const arches[] = {"gfx1100", "gfx1201"};
    for (int g = 0; g < 2; g++) {
        static const unsigned nops[E_N] = {0x400, 0x80, 0x100, 0x40, 0x100};
        for (int e = 0; e < E_N; e++) {
            for (unsigned op = 0; op < nops[e]; op++)
                one_op(arches[g], g, e, op);
            printf("%s %s: %u opcodes with a DPP16 form, %u with a DPP8 form\n", arches[g],
                   enc_names[e], nforms[g][e][0], nforms[g][e][1]);
        }
        /* the decoder's tables hold about 320 VOP3 opcodes with a DPP16 form (random words),
         * and VOP1/VOP2/VOPC have dozens each: far fewer means the field choices above stopped
         * matching them */
        for (int e = E_VOP1; e <= E_VOPC; e++) {
            for (unsigned op = 0; op < nops[e]; op++)
                one_e64(arches[g], g, e, op);
            printf("%s %s: %u opcodes checked in their e64 form\n", arches[g], enc_names[e],
                   ne64[g][e]);
        }
        CHECK(ne64[g][E_VOP1] >= 60 && ne64[g][E_VOP2] >= 35 && ne64[g][E_VOPC] >= 70,
              "%s: too few e64 forms found", arches[g]);
        CHECK(nforms[g][E_VOP3][0] >= 250 && nforms[g][E_VOP3][1] >= 250 &&
                  nforms[g][E_VOP1][0] >= 40 && nforms[g][E_VOP2][0] >= 25 &&
                  nforms[g][E_VOPC][0] >= 60,
              "%s: too few DPP forms found", arches[g]);
    }
    free(w);
    free(w0);
    free(ref);
    return check_summary("test_rdna_dpp_forms");
}
