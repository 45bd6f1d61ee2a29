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

    /* (a vector instruction reading the 64-bit EXEC in wave32: test_rdna_gap2.c) */
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

/* gfx11 MUBUF SOFFSET may be an inline constant (encodings 128-208): its value is added, not
 * a scalar register's (the decoder once read "4" as s132, and "0" as s128, the slot a wave32
 * program keeps EXEC_HI in).  Raw V#, 64 bytes: lane l at v1 = 4l reads dword l + 1 (SOFFSET is
 * not range-checked), lanes 16 and up are out of range and read 0. */
static void t_soffset_inline(const char *a, int wave64) {
    unsigned n = wave64 ? 64 : 32;
    const char *text[] = {"buffer_load_b32 v2, v1, s[8:11], 4 offen",
                          "s_mov_b32 exec_hi, 8\nbuffer_load_b32 v2, v1, s[8:11], 0 offen"};
    for (int k = 0; k < (wave64 ? 1 : 2); k++) {
        reset(wave64);
        w->s[8] = (uint32_t)buf, w->s[9] = (uint32_t)(buf >> 32) & 0xffff;
        w->s[10] = 64, w->s[11] = 3u << 28;
        for (unsigned l = 0; l < 64; l++)
            w->v[1][l] = 4 * l;
        CHECK(run(a, text[k]) == WAVE_DONE, "%s %s", a, text[k]);
        int bad = 0;
        for (unsigned l = 0; l < n; l++)
            bad += w->v[2][l] != (l < 16 ? 0x1000 + l + (k ? 0 : 1) : 0);
        CHECK(bad == 0, "%s %s: %d lanes wrong (lane 0 %x, 15 %x)", a, text[k], bad, w->v[2][0],
              w->v[2][15]);
    }
}

/* The manuals' pseudocode: *_CSUB_U32 / *_SUB_CLAMP_U32 (RDNA3 ISA BUFFER_ATOMIC_CSUB_U32,
 * RDNA4 ISA BUFFER_ATOMIC_SUB_CLAMP_U32): new = old < data ? 0 : old - data; *_COND_SUB_U32
 * (RDNA4 ISA BUFFER_ATOMIC_COND_SUB_U32): new = old >= data ? old - data : old. */
static uint32_t ref_csub(uint32_t m, uint32_t d) { return m < d ? 0 : m - d; }
static uint32_t ref_cond_sub(uint32_t m, uint32_t d) { return m >= d ? m - d : m; }

/* data for lane l against memory 0x1000 + l: larger (lanes 0, 3, ...), equal, smaller */
static uint32_t sub_data(unsigned l) {
    return l % 3 == 0 ? 0x1000 + l + 1 : l % 3 == 1 ? 0x1000 + l : 5;
}

/* One atomic over lanes 0..n-1 with v1 = 4 * lane, v2 = data (and the return register), the
 * lanes in `on` active; memory or LDS dword i starts as 0x1000 + i, `inr` lanes are in range.
 * Checks memory and the returned values (ret: the op returns the old value). */
static void sub_case(const char *a, int wave64, const char *text, int cond, int ret, int lds_op,
                     uint64_t on, unsigned inr) {
    unsigned n = wave64 ? 64 : 32;
    reset(wave64);
    wave_set_exec(w, on);
    w->s[8] = (uint32_t)buf, w->s[9] = (uint32_t)(buf >> 32) & 0xffff; /* V#: stride 0 */
    w->s[10] = 4 * inr, w->s[11] = 3u << 28; /* num_records, OOB_SELECT 3 (raw) */
    w->s[12] = (uint32_t)buf, w->s[13] = (uint32_t)(buf >> 32); /* global saddr */
    for (unsigned l = 0; l < 64; l++) {
        uint32_t m = 0x1000 + l;
        memcpy(lds + 4 * (l % 64), &m, 4);
        w->v[1][l] = 4 * l, w->v[2][l] = w->v[3][l] = sub_data(l), w->v[4][l] = 0x77;
        w->v[6][l] = (uint32_t)(buf + 4 * l), w->v[7][l] = (uint32_t)((buf + 4 * l) >> 32);
    }
    CHECK(run(a, text) == WAVE_DONE, "%s %s", a, text);
    int bad = 0;
    for (unsigned l = 0; l < 64; l++) {
        uint32_t old = 0x1000 + l, d = sub_data(l);
        int act = l < n && (on >> l & 1) && l < inr;
        uint32_t want_m = act ? (cond ? ref_cond_sub(old, d) : ref_csub(old, d)) : old;
        uint32_t got_m;
        if (lds_op)
            memcpy(&got_m, lds + 4 * l, 4);
        else
            got_m = mem32(4 * l);
        /* the return lands in v4 (DS, global) or v2 (buffer: VDATA); an active out-of-range
         * buffer atomic returns 0 */
        unsigned rr = strstr(text, "buffer") ? 2 : 4;
        uint32_t keep = rr == 2 ? d : 0x77;
        uint32_t want_r = !ret || l >= n || !(on >> l & 1) ? keep : l < inr ? old : 0;
        if (got_m != want_m || w->v[rr][l] != want_r) {
            if (bad++ < 3)
                printf("  lane %u: mem %x (want %x) ret %x (want %x)\n", l, got_m, want_m,
                       w->v[rr][l], want_r);
        }
    }
    CHECK(bad == 0, "%s %s: %d lanes wrong", a, text, bad);
}

/* The clamping and conditional atomic subtracts (RDNA3: buffer/global_atomic_csub_u32; RDNA4:
 * buffer/global/flat_atomic_sub_clamp_u32 and _cond_sub_u32, ds_sub_clamp/cond_sub). */
static void t_csub(void) {
    for (int w64 = 0; w64 < 2; w64++) {
        const char *g11 = w64 ? "gfx1100:wavefrontsize64" : "gfx1100";
        const char *g12 = w64 ? "gfx1201:wavefrontsize64" : "gfx1201";
        uint64_t all = w64 ? ~0ull : 0xffffffffull, part = all & ~0xf0f0ull;
        sub_case(g11, w64, "buffer_atomic_csub_u32 v2, v1, s[8:11], null offen glc", 0, 1, 0, all,
                 16);
        sub_case(g11, w64, "buffer_atomic_csub_u32 v2, v1, s[8:11], null offen glc", 0, 1, 0, part,
                 64);
        sub_case(g11, w64, "global_atomic_csub_u32 v4, v1, v3, s[12:13] glc", 0, 1, 0, part, 64);
        sub_case(g11, w64, "global_atomic_csub_u32 v1, v3, s[12:13]", 0, 0, 0, all, 64);
        sub_case(g12, w64,
                 "buffer_atomic_sub_clamp_u32 v2, v1, s[8:11], null offen th:TH_ATOMIC_RETURN", 0,
                 1, 0, part, 16);
        sub_case(g12, w64,
                 "buffer_atomic_cond_sub_u32 v2, v1, s[8:11], null offen th:TH_ATOMIC_RETURN", 1, 1,
                 0, all, 16);
        sub_case(g12, w64, "buffer_atomic_cond_sub_u32 v2, v1, s[8:11], null offen", 1, 0, 0, part,
                 64);
        sub_case(g12, w64, "global_atomic_sub_clamp_u32 v4, v1, v3, s[12:13] th:TH_ATOMIC_RETURN",
                 0, 1, 0, part, 64);
        sub_case(g12, w64, "global_atomic_cond_sub_u32 v4, v1, v3, s[12:13] th:TH_ATOMIC_RETURN", 1,
                 1, 0, all, 64);
        sub_case(g12, w64, "flat_atomic_cond_sub_u32 v4, v[6:7], v3 th:TH_ATOMIC_RETURN", 1, 1, 0,
                 part, 64);
        sub_case(g12, w64, "flat_atomic_sub_clamp_u32 v[6:7], v3", 0, 0, 0, all, 64);
        sub_case(g12, w64, "ds_sub_clamp_rtn_u32 v4, v1, v3", 0, 1, 1, part, 64);
        sub_case(g12, w64, "ds_sub_clamp_u32 v1, v3", 0, 0, 1, all, 64);
        sub_case(g12, w64, "ds_cond_sub_rtn_u32 v4, v1, v3", 1, 1, 1, all, 64);
        sub_case(g12, w64, "ds_cond_sub_u32 v1, v3", 1, 0, 1, part, 64);
    }
}

/* V_ALIGNBIT_B32 / V_ALIGNBYTE_B32 (RDNA3 ISA VOP3: D = ({S0, S1} >> S2[4:0] bits, or S2[1:0]
 * bytes)[31:0]) in their DPP16/DPP8 forms: DPP picks src0's lane; row_mask leaves rows
 * unwritten.  S0 = 0x1000 + lane, S1 = 0xf0000000 | lane. */
static uint32_t align_ref(uint32_t s0, uint32_t s1, unsigned sh) {
    return (uint32_t)((((uint64_t)s0 << 32) | s1) >> sh);
}
static void t_align_dpp(const char *a, int wave64) {
    unsigned n = wave64 ? 64 : 32;
    struct {
        const char *text;
        unsigned sh;   /* bits */
        int dpp8;      /* the lane map: 0 quad_perm [1,0,3,2], 1 dpp8 [7,...,0] */
        unsigned rows; /* row_mask */
    } c[] = {
        {"v_alignbit_b32_e64_dpp v1, v2, v3, v4 quad_perm:[1,0,3,2] row_mask:0xf bank_mask:0xf", 4,
         0, 0xf},
        {"v_alignbit_b32_e64_dpp v1, v2, v3, v4 quad_perm:[1,0,3,2] row_mask:0x5 bank_mask:0xf", 4,
         0, 0x5},
        {"v_alignbyte_b32_e64_dpp v1, v2, v3, v5 dpp8:[7,6,5,4,3,2,1,0]", 8, 1, 0xf},
    };
    for (unsigned k = 0; k < 3; k++) {
        reset(wave64);
        for (unsigned l = 0; l < 64; l++)
            w->v[1][l] = 0x99, w->v[2][l] = 0x1000 + l, w->v[3][l] = 0xf0000000u | l,
            w->v[4][l] = 36 /* bits 4:0 = 4 */, w->v[5][l] = 0x101 /* bits 1:0 = 1 byte */;
        CHECK(run(a, c[k].text) == WAVE_DONE, "%s %s", a, c[k].text);
        int bad = 0;
        for (unsigned l = 0; l < n; l++) {
            unsigned src = c[k].dpp8 ? (l & ~7u) | (7 - (l & 7)) : l ^ 1;
            uint32_t want = (c[k].rows >> (l / 16) & 1)
                                ? align_ref(0x1000 + src, 0xf0000000u | l, c[k].sh)
                                : 0x99;
            if (w->v[1][l] != want && bad++ < 2)
                printf("  lane %u: %x want %x\n", l, w->v[1][l], want);
        }
        CHECK(bad == 0, "%s %s: %d lanes wrong", a, c[k].text, bad);
    }
}

/* gfx11's true16 shift operand in a DPP form: v4.h holds the shift (bits [20:16] of v4). */
static void t_align_dpp_h(void) {
    reset(0);
    for (unsigned l = 0; l < 64; l++)
        w->v[2][l] = 0x1000 + l, w->v[3][l] = 0xf0000000u | l, w->v[4][l] = 8u << 16 | 31;
    CHECK(run("gfx1100", "v_alignbit_b32_e64_dpp v1, v2, v3, v4.h row_shr:1 row_mask:0xf "
                         "bank_mask:0xf bound_ctrl:1") == WAVE_DONE,
          "align .h dpp");
    /* row_shr:1: lane l reads src0 of lane l - 1 in its row; lane 0 of a row has no source and
     * with bound_ctrl reads 0 */
    int bad = 0;
    for (unsigned l = 0; l < 32; l++) {
        uint32_t s0 = (l & 15) ? 0x1000 + l - 1 : 0;
        bad += w->v[1][l] != align_ref(s0, 0xf0000000u | l, 8);
    }
    CHECK(bad == 0, "v_alignbit .h dpp: %d lanes wrong (lane 0 %x, 1 %x)", bad, w->v[1][0],
          w->v[1][1]);
}

/* VOPD V_DUAL_DOT2ACC_F32_BF16 (RDNA3 ISA VOPD): D.f32 += S0.lo * S1.lo + S0.hi * S1.hi, bf16
 * halves.  S0 = {3.0, 2.0} (bf16 0x4040, 0x4000), S1 = {-0.5, 1.5} (0xbf00, 0x3fc0), D = 10 +
 * lane: 2 * 1.5 + 3 * -0.5 + D = 11.5 + lane; with S0 the inline 1.0 (1.0 in both halves):
 * 1.5 - 0.5 + D = 11 + lane.  The Y half (v_dual_mov_b32) runs alongside. */
static void t_dual_dot2acc_bf16(const char *a) {
    const char *text[] = {"v_dual_dot2acc_f32_bf16 v1, v2, v3 :: v_dual_mov_b32 v4, v5",
                          "v_dual_dot2acc_f32_bf16 v1, 1.0, v3 :: v_dual_mov_b32 v4, v5"};
    for (int k = 0; k < 2; k++) {
        reset(0);
        w->s[ISA_SREG_EXEC_LO] = 0x7fffffff; /* lane 31 off */
        for (unsigned l = 0; l < 64; l++) {
            float d = 10.0f + (float)l;
            memcpy(&w->v[1][l], &d, 4);
            w->v[2][l] = 0x40404000u, w->v[3][l] = 0xbf003fc0u, w->v[5][l] = 0x500 + l;
        }
        CHECK(run(a, text[k]) == WAVE_DONE, "%s %s", a, text[k]);
        int bad = 0;
        for (unsigned l = 0; l < 32; l++) {
            float want = l == 31 ? 41.0f : (k ? 11.0f : 11.5f) + (float)l, got;
            memcpy(&got, &w->v[1][l], 4);
            bad += got != want || w->v[4][l] != (l == 31 ? 0 : 0x500 + l);
        }
        CHECK(bad == 0, "%s %s: %d lanes wrong (lane 0 %08x)", a, text[k], bad, w->v[1][0]);
    }
}

/* DS_APPEND / DS_CONSUME (RDNA3 ISA "DS"): LDS[M0 + offset] +/- popcount(EXEC), the old value
 * to every active lane.  M0 = 8, offset 4: the counter is LDS dword 3 (100); EXEC has 8 (wave32)
 * or 16 (wave64) lanes. */
static void t_append(const char *a, int wave64) {
    uint64_t on = wave64 ? 0x0f0f00000f0f0000ull | 0xf0f0ull : 0x0f0f00f0ull;
    unsigned cnt = (unsigned)__builtin_popcountll(on);
    const char *text[] = {"s_mov_b32 m0, 8\nds_append v1 offset:4",
                          "s_mov_b32 m0, 8\nds_consume v1 offset:4"};
    for (int k = 0; k < 2; k++) {
        reset(wave64);
        wave_set_exec(w, on);
        uint32_t c = 100, got;
        memcpy(lds + 12, &c, 4);
        for (unsigned l = 0; l < 64; l++)
            w->v[1][l] = 0x55;
        CHECK(run(a, text[k]) == WAVE_DONE, "%s %s", a, text[k]);
        memcpy(&got, lds + 12, 4);
        CHECK(got == (k ? 100 - cnt : 100 + cnt) && lanes_wrong(1, 64, on, 100, 0x55) == 0,
              "%s %s: counter %u, v1[4] %x v1[0] %x", a, text[k], got, w->v[1][4], w->v[1][0]);
    }
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
    t_csub();
    for (int i = 0; i < 2; i++) {
        t_align_dpp(t[i], 0);
        t_dual_dot2acc_bf16(t[i]);
    }
    t_align_dpp("gfx1100:wavefrontsize64", 1);
    t_align_dpp("gfx1201:wavefrontsize64", 1);
    t_align_dpp_h();
    for (int i = 0; i < 2; i++)
        t_append(t[i], 0);
    t_append("gfx1100:wavefrontsize64", 1);
    t_append("gfx1201:wavefrontsize64", 1);
    t_soffset_inline("gfx1100", 0);
    t_soffset_inline("gfx1100:wavefrontsize64", 1);
    (void)put32;
    free(w);
    gmem_destroy(mem);
    return check_summary("test_rdna_gap");
}
