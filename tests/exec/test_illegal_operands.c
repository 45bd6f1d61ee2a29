/* test_illegal_operands.c - encodings LLVM 22 decodes and prints but no GFX9 target runs as
 * written; each must fault as an illegal instruction at its pc, never execute with a made-up
 * operand:
 *
 *  - a VOP3 or VOP3P source of 255 (a literal).  GFX9 has no VOP3 literal (llvm-mc-22 refuses
 *    one on gfx90a..gfx950: "literal operands are not supported"), yet LLVM's gfx950
 *    disassembler reads the dword after the instruction as one; gfx942 and gfx90a do not decode
 *    the word at all.  The listing still shows LLVM's text.
 *  - v_swap_b32 and v_permlane{16,32}_swap_b32 with a src0 that is not a VGPR (an SGPR, an
 *    aperture, an inline constant, a literal): they exchange two VGPRs, and LLVM notes any
 *    other src0 as invalid.  Before this was refused, the handlers used the VGPR of the same
 *    index (s50 -> v50).
 *
 * The words were assembled with llvm-mc-22 from the VGPR forms and the source field patched;
 * the same forms with VGPRs run and are checked against a per-lane swap. */
#include "common/check.h"
#include "exec/exec.h"

#include <stdlib.h>
#include <string.h>

static wave *w;

#define ENDPGM 0xbf810000u

/* Build and run words on one wave (all lanes, VGPR i lane l = i * 1000 + l); WAVE_* status. */
static int run(isa_arch arch, const uint32_t *code, size_t nw, xprog *p) {
    memset(w, 0, sizeof *w);
    wave_set_exec(w, ~0ull);
    for (int i = 0; i < 64; i++)
        for (int l = 0; l < 64; l++)
            w->v[i][l] = (uint32_t)(i * 1000 + l);
    w->s[50] = 0xdeadbeefu;
    if (xprog_build(p, arch, (const uint8_t *)code, nw * 4, 0x1000) != 0)
        return -1;
    w->prog = p;
    w->budget = 100;
    wave_run(w);
    return w->status;
}

static const struct {
    isa_arch arch;
    const char *name;
} archs[] = {{ISA_GFX950, "gfx950"}, {ISA_GFX942, "gfx942"}, {ISA_GFX90A, "gfx90a"}};

/* The instruction at pc 4 (after an s_nop) faults as illegal; v0..v63 unchanged. */
static void expect_illegal(isa_arch arch, const char *an, const char *what, const uint32_t *ins,
                           size_t n, const char *text) {
    uint32_t code[8] = {0xbf800000u /* s_nop 0 */};
    memcpy(code + 1, ins, n * 4);
    code[1 + n] = ENDPGM;
    xprog p;
    int st = run(arch, code, n + 2, &p);
    CHECK(st == WAVE_FAULT && w->fault.kind == XF_ILLEGAL && w->fault.pc == 4,
          "%s %s: status %d fault kind %d pc %llu", an, what, st, w->fault.kind,
          (unsigned long long)w->fault.pc);
    int same = 1;
    for (int i = 0; i < 64; i++)
        for (int l = 0; l < 64; l++)
            same &= w->v[i][l] == (uint32_t)(i * 1000 + l);
    CHECK(same, "%s %s: VGPRs changed", an, what);
    if (text && st != -1) {
        char buf[160];
        const xinst *x = p.at[1];
        CHECK(x && xinst_print(x, buf, sizeof buf) && strcmp(buf, text) == 0,
              "%s %s: listed as '%s', want '%s'", an, what, x ? buf : "?", text);
    }
    xprog_free(&p);
}

static void test_vop3_literal(void) {
    /* v_add_f32_e64 v17, v0, v1 clamp div:2 with src1 = 255 and a literal -0.0 */
    static const uint32_t add[3] = {0xd1018011u, 0x1801ff00u, 0x80000000u};
    /* v_pk_add_f32 v[0:1], v[2:3], v[4:5] with src1 = 255 and a literal */
    static const uint32_t pk[3] = {0xd3b24000u, 0x1801ff02u, 0x3f800000u};
    for (size_t a = 0; a < sizeof archs / sizeof archs[0]; a++) {
        int g950 = archs[a].arch == ISA_GFX950;
        expect_illegal(archs[a].arch, archs[a].name, "VOP3 literal", add, 3,
                       g950 ? "v_add_f32_e64 v17, v0, 0x80000000 clamp div:2"
                            : "<illegal 0xd1018011>");
        expect_illegal(archs[a].arch, archs[a].name, "VOP3P literal", pk, 3, NULL);
        /* the VGPR form runs and writes v17 (its value is test_f32_omod's business) */
        uint32_t ok[3] = {0xd1018011u, 0x18020300u, ENDPGM};
        xprog p;
        CHECK(run(archs[a].arch, ok, 3, &p) == WAVE_DONE && w->v[17][5] != 17005,
              "%s VOP3 VGPR form: status %d", archs[a].name, w->status);
        xprog_free(&p);
    }
}

static void test_swap_src(void) {
    static const struct {
        uint32_t word; /* the VGPR form: vdst v49 (v1 for v_swap_b32), src0 v50 (v2) */
        const char *op;
        int gfx950_only;
        int half; /* 0: v_swap_b32; 16/32: permlane swap */
    } ops[] = {{0x7e02a302u, "v_swap_b32", 0, 0},
               {0x7e62b332u, "v_permlane16_swap_b32", 1, 16},
               {0x7e62b532u, "v_permlane32_swap_b32", 1, 32}};
    static const unsigned srcs[] = {50 /* s50 */, 235 /* src_shared_base */, 128 /* 0 */,
                                    255 /* literal */};
    for (size_t a = 0; a < sizeof archs / sizeof archs[0]; a++)
        for (size_t o = 0; o < sizeof ops / sizeof ops[0]; o++) {
            if (ops[o].gfx950_only && archs[a].arch != ISA_GFX950)
                continue;
            for (size_t s = 0; s < sizeof srcs / sizeof srcs[0]; s++) {
                uint32_t ins[2] = {(ops[o].word & ~0x1ffu) | srcs[s], 0x12345678u};
                char what[64];
                snprintf(what, sizeof what, "%s src0 %u", ops[o].op, srcs[s]);
                expect_illegal(archs[a].arch, archs[a].name, what, ins, srcs[s] == 255 ? 2 : 1,
                               NULL);
            }
            /* the VGPR form exchanges lanes as defined */
            uint32_t ok[2] = {ops[o].word, ENDPGM};
            unsigned d = ops[o].half ? 49 : 1, sv = ops[o].half ? 50 : 2;
            xprog p;
            int bad = -1;
            if (run(archs[a].arch, ok, 2, &p) == WAVE_DONE) {
                bad = 0;
                for (int l = 0; l < 64; l++) {
                    uint32_t D = d * 1000 + l, S = sv * 1000 + l;
                    int hi = ops[o].half == 32 ? l >= 32 : (l & 16) != 0;
                    if (ops[o].half == 0)
                        D = sv * 1000 + l, S = d * 1000 + l;
                    else if (hi)
                        D = sv * 1000 + l - ops[o].half;
                    else
                        S = d * 1000 + l + ops[o].half;
                    bad += w->v[d][l] != D || w->v[sv][l] != S;
                }
            }
            CHECK(bad == 0, "%s %s VGPR form: %d lanes wrong (status %d)", archs[a].name, ops[o].op,
                  bad, w->status);
            xprog_free(&p);
        }
}

int main(void) {
    w = malloc(sizeof *w);
    test_vop3_literal();
    test_swap_src();
    free(w);
    return check_summary("test_illegal_operands");
}
