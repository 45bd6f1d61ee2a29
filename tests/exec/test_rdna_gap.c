/* test_rdna_gap.c - RDNA ops that used to fault as unimplemented (issue 15's gap list), on
 * llvm-mc-22 snippets for gfx1100 and gfx1201, wave32 and wave64: EXEC_HI in wave32, the
 * clamping atomic subtracts, and the other rows added with them.  Expected values are worked
 * out by hand from the RDNA3/RDNA4 ISA manuals' pseudocode (section named at each case), not
 * taken from gfxemu runs. */
#include "common/check.h"
#include "common/snippet.h"
#include "exec/exec.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static gmem *mem;
static uint64_t buf; /* 256 bytes at the end of a 4 KiB allocation: dword i = 0x1000 + i */
static wave *w;
static uint8_t lds[256];
static uint8_t scratch[64 * 64];

static void reset(int wave64) {
    snippet_mem_reset(w, mem, buf, lds, sizeof lds, scratch, sizeof scratch / 64);
    wave_set_exec(w, wave64 ? ~0ull : 0xffffffffull);
    w->mode = 0xf0;
    for (unsigned l = 0; l < 64; l++)
        w->v[0][l] = l;
}

static int run(const char *arch, const char *text) {
    int st = run_snippet(w, arch, text);
    if (st != WAVE_DONE)
        printf("  (%s: status %d, fault kind %d at pc %u%s%s)\n", arch, st, w->fault.kind,
               w->fault.pc, w->fault.note ? ": " : "", w->fault.note ? w->fault.note : "");
    return st;
}

static uint32_t mem32(uint32_t off) {
    uint32_t v = 0;
    gmem_read(mem, buf + off, &v, 4);
    return v;
}
static void put32(uint32_t off, uint32_t v) { gmem_write(mem, buf + off, &v, 4); }

/* Lanes of v[r] (0..n-1) equal to want where EXEC bit set, else keep (the preset). */
static int lanes_wrong(unsigned r, unsigned n, uint64_t on, uint32_t want, uint32_t keep) {
    int bad = 0;
    for (unsigned l = 0; l < n; l++)
        bad += w->v[r][l] != ((on >> l & 1) ? want : keep);
    return bad;
}

/* EXEC_HI in wave32 (RDNA3 ISA 2.1 and 3.2.2: the upper 32 bits of EXEC are ignored, hardware
 * does not act upon them; EXECZ reflects EXEC[31:0]). */
static void t_exec_hi(const char *a) {
    /* s_mov_b64 exec, -1: EXEC_LO all ones; lanes 32-63 of v1 (never active in wave32) keep
     * their preset; s_mov_b64 s[0:1], exec reads both halves back */
    reset(0);
    w->s[ISA_SREG_EXEC_LO] = 0xff;
    for (unsigned l = 0; l < 64; l++)
        w->v[1][l] = 0x55;
    CHECK(run(a, "s_mov_b64 exec, -1\nv_mov_b32 v1, 7\ns_mov_b64 s[0:1], exec") == WAVE_DONE,
          "%s mov64", a);
    CHECK(lanes_wrong(1, 64, 0xffffffffull, 7, 0x55) == 0 && w->s[0] == 0xffffffff &&
              w->s[1] == 0xffffffff && w->s[ISA_SREG_EXEC_LO] == 0xffffffff,
          "%s s_mov_b64 exec: v1[31] %x v1[32] %x s0 %x s1 %x", a, w->v[1][31], w->v[1][32],
          w->s[0], w->s[1]);

    /* 32-bit writes: EXEC_LO = 0xffff gates lanes 0-15; EXEC_HI = 0xffff0000 is kept (read
     * back by SALU and VALU) but gates nothing */
    reset(0);
    CHECK(run(a, "s_mov_b32 exec_lo, 0xffff\ns_mov_b32 exec_hi, 0xffff0000\n"
                 "v_mov_b32 v1, 9\nv_mov_b32 v2, exec_hi\ns_mov_b32 s3, exec_hi") == WAVE_DONE,
          "%s mov32", a);
    CHECK(lanes_wrong(1, 64, 0xffff, 9, 0) == 0 && lanes_wrong(2, 64, 0xffff, 0xffff0000, 0) == 0 &&
              w->s[3] == 0xffff0000,
          "%s exec_hi 32-bit: v1[15] %x v1[16] %x v1[48] %x v2[0] %x s3 %x", a, w->v[1][15],
          w->v[1][16], w->v[1][48], w->v[2][0], w->s[3]);

    /* EXECZ looks at EXEC_LO: with EXEC_LO = 0 and EXEC_HI != 0 s_cbranch_execz is taken */
    reset(0);
    CHECK(run(a, "s_mov_b64 exec, s[4:5]\ns_cbranch_execz 1\ns_mov_b32 s7, 1\ns_mov_b32 s8, 2") ==
              WAVE_DONE,
          "%s execz", a);
    CHECK(w->s[7] == 0 && w->s[8] == 2, "%s execz (EXEC 0): s7 %u s8 %u", a, w->s[7], w->s[8]);
    reset(0);
    w->s[4] = 0, w->s[5] = 0xf0;
    CHECK(run(a, "s_mov_b64 exec, s[4:5]\ns_cbranch_execz 1\ns_mov_b32 s7, 1\ns_mov_b32 s8, 2\n"
                 "v_mov_b32 v1, 3") == WAVE_DONE,
          "%s execz hi", a);
    CHECK(w->s[7] == 0 && w->s[8] == 2 && lanes_wrong(1, 64, 0, 3, 0) == 0,
          "%s execz (EXEC_HI 0xf0): s7 %u s8 %u v1[36] %x", a, w->s[7], w->s[8], w->v[1][36]);

    /* S_AND_SAVEEXEC_B64 (RDNA3 ISA SOP1): saveexec = EXEC.u64; EXEC.u64 = S0.u64 & EXEC.u64;
     * D0.u64 = saveexec; SCC = EXEC.u64 != 0 -- the 64-bit pseudocode as written, so with
     * EXEC_HI = 0xf0 and S0 = 0x000000ff_0000000f: EXEC = 0x000000f0_0000000f, D = the old
     * EXEC (0x000000f0_ffffffff), SCC 1, lanes 0-3 active */
    reset(0);
    w->s[6] = 0x0000000f, w->s[7] = 0xff;
    CHECK(run(a, "s_mov_b32 exec_hi, 0xf0\ns_and_saveexec_b64 s[4:5], s[6:7]\nv_mov_b32 v1, 5\n"
                 "s_mov_b64 s[10:11], exec") == WAVE_DONE,
          "%s saveexec64", a);
    CHECK(w->s[4] == 0xffffffff && w->s[5] == 0xf0 && w->s[10] == 0xf && w->s[11] == 0xf0 &&
              w->scc == 1 && lanes_wrong(1, 64, 0xf, 5, 0) == 0,
          "%s s_and_saveexec_b64: s4 %x s5 %x exec %x:%x scc %u v1[4] %x", a, w->s[4], w->s[5],
          w->s[11], w->s[10], w->scc, w->v[1][4]);
    /* EXEC_LO ends 0 and EXEC_HI not: SCC is 1 (64-bit test), no lane runs */
    reset(0);
    w->s[6] = 0, w->s[7] = 0xff;
    CHECK(run(a, "s_mov_b32 exec_hi, 0xf0\ns_and_saveexec_b64 s[4:5], s[6:7]\nv_mov_b32 v1, 5") ==
              WAVE_DONE,
          "%s saveexec64 lo 0", a);
    CHECK(w->scc == 1 && w->s[ISA_SREG_EXEC_LO] == 0 && lanes_wrong(1, 64, 0, 5, 0) == 0,
          "%s saveexec64 exec_lo 0: scc %u exec_lo %x", a, w->scc, w->s[ISA_SREG_EXEC_LO]);
    /* S_OR_SAVEEXEC_B64 with S0 = 0: EXEC unchanged, D the old EXEC */
    reset(0);
    w->s[ISA_SREG_EXEC_LO] = 0x00ff00ff;
    CHECK(run(a, "s_or_saveexec_b64 s[4:5], 0\nv_mov_b32 v1, 6") == WAVE_DONE, "%s or64", a);
    CHECK(w->s[4] == 0x00ff00ff && w->s[5] == 0 && w->scc == 1 &&
              lanes_wrong(1, 64, 0x00ff00ff, 6, 0) == 0,
          "%s s_or_saveexec_b64: s4 %x s5 %x scc %u", a, w->s[4], w->s[5], w->scc);

    /* S_AND_NOT0_WREXEC_B32: EXEC = ~S0 & EXEC; D = the new EXEC; SCC = EXEC != 0 */
    reset(0);
    w->s[ISA_SREG_EXEC_LO] = 0xff00ff00;
    w->s[3] = 0x0f000f00;
    CHECK(run(a, "s_and_not0_wrexec_b32 s2, s3") == WAVE_DONE, "%s wrexec0", a);
    CHECK(w->s[2] == 0xf000f000 && w->s[ISA_SREG_EXEC_LO] == 0xf000f000 && w->scc == 1,
          "%s s_and_not0_wrexec_b32: s2 %x exec %x scc %u", a, w->s[2], w->s[ISA_SREG_EXEC_LO],
          w->scc);
    /* S_AND_NOT1_WREXEC_B32: EXEC = S0 & ~EXEC: with S0 inside EXEC the result is 0, SCC 0 */
    reset(0);
    w->s[ISA_SREG_EXEC_LO] = 0xffff0000;
    w->s[3] = 0x00ff0000;
    CHECK(run(a, "s_and_not1_wrexec_b32 s2, s3") == WAVE_DONE, "%s wrexec1", a);
    CHECK(w->s[2] == 0 && w->s[ISA_SREG_EXEC_LO] == 0 && w->scc == 0,
          "%s s_and_not1_wrexec_b32: s2 %x exec %x scc %u", a, w->s[2], w->s[ISA_SREG_EXEC_LO],
          w->scc);
    /* S_AND_NOT0_WREXEC_B64 in wave32: EXEC = ~S0 & EXEC over 64 bits, D = the new EXEC */
    reset(0);
    w->s[ISA_SREG_EXEC_LO] = 0xff;
    w->s[4] = 0x0f, w->s[5] = 0;
    CHECK(run(a, "s_mov_b32 exec_hi, 3\ns_and_not0_wrexec_b64 s[2:3], s[4:5]\nv_mov_b32 v1, 1") ==
              WAVE_DONE,
          "%s wrexec64", a);
    CHECK(w->s[2] == 0xf0 && w->s[3] == 3 && w->s[ISA_SREG_EXEC_LO] == 0xf0 &&
              lanes_wrong(1, 64, 0xf0, 1, 0) == 0,
          "%s s_and_not0_wrexec_b64: s2 %x s3 %x exec_lo %x", a, w->s[2], w->s[3],
          w->s[ISA_SREG_EXEC_LO]);

    /* a vector instruction reading the 64-bit EXEC in wave32 is refused by name */
    reset(0);
    CHECK(run_snippet(w, a, "v_lshlrev_b64 v[2:3], 0, exec") == WAVE_FAULT &&
              w->fault.kind == XF_UNIMPLEMENTED && w->fault.note != NULL,
          "%s v_lshlrev_b64 exec: kind %d", a, w->fault.kind);
}

/* Wave64 is untouched: EXEC_HI gates lanes 32-63. */
static void t_exec_hi64(const char *a) {
    reset(1);
    CHECK(run(a, "s_mov_b32 exec_hi, 0xffff0000\ns_mov_b32 exec_lo, 1\nv_mov_b32 v1, 4") ==
              WAVE_DONE,
          "%s wave64", a);
    CHECK(lanes_wrong(1, 64, 0xffff000000000001ull, 4, 0) == 0,
          "%s wave64 exec_hi: v1[0] %x v1[47] %x v1[48] %x", a, w->v[1][0], w->v[1][47],
          w->v[1][48]);
    /* S_NAND_SAVEEXEC_B64: EXEC = ~(S0 & EXEC); D = the old EXEC */
    reset(1);
    w->s[4] = 0xffff0000, w->s[5] = 0xffffffff;
    CHECK(run(a, "s_nand_saveexec_b64 s[2:3], s[4:5]\nv_mov_b32 v1, 2") == WAVE_DONE, "%s nand", a);
    CHECK(w->s[2] == 0xffffffff && w->s[3] == 0xffffffff && wave_exec(w) == 0xffffull &&
              w->scc == 1 && lanes_wrong(1, 64, 0xffff, 2, 0) == 0,
          "%s s_nand_saveexec_b64: s2 %x s3 %x exec %llx", a, w->s[2], w->s[3],
          (unsigned long long)wave_exec(w));
}

int main(void) {
    mem = gmem_create();
    buf = gmem_alloc(mem, 4096, 0) + 4096 - 256;
    w = malloc(sizeof *w);
    const char *t[] = {"gfx1100", "gfx1201"};
    for (int i = 0; i < 2; i++)
        t_exec_hi(t[i]);
    t_exec_hi64("gfx1100:wavefrontsize64");
    t_exec_hi64("gfx1201:wavefrontsize64");
    (void)mem32;
    (void)put32;
    free(w);
    gmem_destroy(mem);
    return check_summary("test_rdna_gap");
}
