/* test_rdna_gap2.c - the second list of RDNA ops and rules that used to fault or were modelled
 * wrongly (issue 15), on llvm-mc-22 snippets for gfx1100 and gfx1201 in wave32 and wave64:
 * gfx12's minimumNumber/maximumNumber atomics (DS, GLOBAL, FLAT, BUFFER), gfx11's constant
 * integer compares, wave32 vector instructions reading the 64-bit EXEC, s_sendmsg and
 * s_sendmsg_rtn ids.  Every expected value
 * is written out by hand from the RDNA3/RDNA4 ISA manuals' pseudocode (section named at each
 * case), not taken from a gfxemu run. */
#include "common/check.h"
#include "common/snippet.h"
#include "exec/exec.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static gmem *mem;
static uint64_t buf; /* 256 bytes at the end of a 4 KiB allocation */
static wave *w;
static uint8_t lds[1024];
static uint8_t scratch[64 * 64];

static void reset(int wave64) {
    snippet_mem_reset(w, mem, buf, lds, sizeof lds, scratch, sizeof scratch / 64);
    wave_set_exec(w, wave64 ? ~0ull : 0xffffffffull);
    w->mode = 0xf0; /* denormals kept, IEEE off */
    for (unsigned l = 0; l < 64; l++)
        w->v[0][l] = l;
}

static int run(const char *arch, const char *text) {
    int st = run_snippet(w, arch, text);
    if (st != WAVE_DONE)
        printf("  (%s: %s: status %d, fault kind %d at pc %u%s%s)\n", arch, text, st, w->fault.kind,
               w->fault.pc, w->fault.note ? ": " : "", w->fault.note ? w->fault.note : "");
    return st;
}

/* ---- 1. minimumNumber / maximumNumber atomics ----------------------------------------------
 * RDNA4 ISA DS_MIN_NUM_F32 (and DS_MAX_NUM_F32, the _RTN and F64 forms, BUFFER/GLOBAL/FLAT
 * _ATOMIC_MIN_NUM_F32): tmp = MEM; src = DATA; both NaN: MEM = quiet(src); src NaN: MEM = tmp;
 * tmp NaN: MEM = src; else src < tmp (max: >) or the -0/+0 rule picks src; RETURN = tmp.
 * Each row: MEM, DATA, the min result, the max result -- worked out by hand. */
#define QN 0x7fc00000u  /* quiet NaN */
#define SN 0x7f800001u  /* signalling NaN */
#define NQN 0xffc00005u /* negative quiet NaN with payload */
#define ONE 0x3f800000u
#define MTWO 0xc0000000u
#define PZ 0x00000000u
#define NZ 0x80000000u
#define INF 0x7f800000u
#define NINF 0xff800000u
#define MAXN 0x7f7fffffu
#define DEN 0x00000001u  /* smallest positive denormal */
#define NDEN 0x80000001u /* smallest negative denormal */
static const uint32_t num32[][4] = {
    {ONE, MTWO, MTWO, ONE},
    {MTWO, ONE, MTWO, ONE},
    {QN, ONE, ONE, ONE},                /* MEM NaN: DATA */
    {ONE, QN, ONE, ONE},                /* DATA NaN: MEM kept */
    {ONE, SN, ONE, ONE},                /* signalling DATA too (isNAN is true for it) */
    {SN, MTWO, MTWO, MTWO},             /* signalling MEM: DATA */
    {QN, SN, 0x7fc00001u, 0x7fc00001u}, /* both NaN: DATA quieted (bit 22 set) */
    {0x7f800002u, NQN, NQN, NQN},       /* both NaN, DATA already quiet: as it is */
    {PZ, NZ, NZ, PZ},                   /* -0 < +0 */
    {NZ, PZ, NZ, PZ},
    {PZ, PZ, PZ, PZ},
    {NDEN, DEN, NDEN, DEN}, /* denormals compare as values (MODE keeps them) */
    {NINF, INF, NINF, INF},
    {MAXN, INF, MAXN, INF},
};
#define NCASE32 (sizeof num32 / sizeof num32[0])

/* One 32-bit atomic over every lane: lane l's MEM and DATA are row l % NCASE32 of num32.  The
 * instruction's address is v1 = 4 * lane (LDS, global offset, buffer offset) or v[6:7] (flat),
 * DATA v2, the return v3 (buffer: VDATA v2).  Checks memory and the return per lane. */
static void num32_case(const char *a, int wave64, const char *text, int is_max, int ret, int lds_op,
                       uint64_t on) {
    unsigned n = wave64 ? 64 : 32;
    reset(wave64);
    wave_set_exec(w, on);
    w->s[8] = (uint32_t)buf, w->s[9] = (uint32_t)(buf >> 32) & 0xffff; /* V#: stride 0 */
    w->s[10] = 256, w->s[11] = 3u << 28;                        /* 256 bytes, OOB_SELECT 3 (raw) */
    w->s[12] = (uint32_t)buf, w->s[13] = (uint32_t)(buf >> 32); /* global saddr */
    for (unsigned l = 0; l < 64; l++) {
        const uint32_t *c = num32[l % NCASE32];
        if (lds_op)
            memcpy(lds + 4 * l, &c[0], 4);
        else
            gmem_write(mem, buf + 4 * l, &c[0], 4);
        w->v[1][l] = 4 * l, w->v[2][l] = c[1], w->v[3][l] = 0x77;
        w->v[6][l] = (uint32_t)(buf + 4 * l), w->v[7][l] = (uint32_t)((buf + 4 * l) >> 32);
    }
    CHECK(run(a, text) == WAVE_DONE, "%s %s", a, text);
    int bad = 0;
    unsigned rr = strstr(text, "buffer") ? 2 : 3;
    for (unsigned l = 0; l < 64; l++) {
        const uint32_t *c = num32[l % NCASE32];
        int act = l < n && (on >> l & 1);
        uint32_t want_m = act ? c[is_max ? 3 : 2] : c[0], got_m;
        uint32_t keep = rr == 2 ? c[1] : 0x77, want_r = act && ret ? c[0] : keep;
        if (lds_op)
            memcpy(&got_m, lds + 4 * l, 4);
        else
            gmem_read(mem, buf + 4 * l, &got_m, 4);
        if (got_m != want_m || w->v[rr][l] != want_r) {
            if (bad++ < 3)
                printf("  lane %u (case %u): mem %08x (want %08x) ret %08x (want %08x)\n", l,
                       l % (unsigned)NCASE32, got_m, want_m, w->v[rr][l], want_r);
        }
    }
    CHECK(bad == 0, "%s %s: %d lanes wrong", a, text, bad);
}

/* The f64 forms (RDNA4 ISA DS_MIN_NUM_F64 ...): the same rules on doubles. */
#define QN64 0x7ff8000000000000ull
#define SN64 0x7ff0000000000001ull
#define ONE64 0x3ff0000000000000ull
#define MTWO64 0xc000000000000000ull
#define NZ64 0x8000000000000000ull
static const uint64_t num64[][4] = {
    {ONE64, MTWO64, MTWO64, ONE64},
    {QN64, ONE64, ONE64, ONE64},
    {ONE64, SN64, ONE64, ONE64},
    {QN64, SN64, 0x7ff8000000000001ull, 0x7ff8000000000001ull},
    {0, NZ64, NZ64, 0},
    {NZ64, 0, NZ64, 0},
    {0x0000000000000001ull, 0x8000000000000001ull, 0x8000000000000001ull, 1},
    {0x7fefffffffffffffull, 0x7ff0000000000000ull, 0x7fefffffffffffffull, 0x7ff0000000000000ull},
};
#define NCASE64 (sizeof num64 / sizeof num64[0])

static void num64_case(const char *a, int wave64, const char *text, int is_max, int ret,
                       uint64_t on) {
    unsigned n = wave64 ? 64 : 32;
    reset(wave64);
    wave_set_exec(w, on);
    for (unsigned l = 0; l < 64; l++) {
        const uint64_t *c = num64[l % NCASE64];
        memcpy(lds + 8 * l, &c[0], 8);
        w->v[1][l] = 8 * l, w->v[2][l] = (uint32_t)c[1], w->v[3][l] = (uint32_t)(c[1] >> 32);
        w->v[4][l] = 0x77, w->v[5][l] = 0x78;
    }
    CHECK(run(a, text) == WAVE_DONE, "%s %s", a, text);
    int bad = 0;
    for (unsigned l = 0; l < 64; l++) {
        const uint64_t *c = num64[l % NCASE64];
        int act = l < n && (on >> l & 1);
        uint64_t want_m = act ? c[is_max ? 3 : 2] : c[0], got_m;
        uint64_t want_r = act && ret ? c[0] : 0x7800000077ull;
        uint64_t got_r = w->v[4][l] | (uint64_t)w->v[5][l] << 32;
        memcpy(&got_m, lds + 8 * l, 8);
        if (got_m != want_m || got_r != want_r) {
            if (bad++ < 3)
                printf("  lane %u: mem %016llx (want %016llx) ret %016llx (want %016llx)\n", l,
                       (unsigned long long)got_m, (unsigned long long)want_m,
                       (unsigned long long)got_r, (unsigned long long)want_r);
        }
    }
    CHECK(bad == 0, "%s %s: %d lanes wrong", a, text, bad);
}

static void t_num_atomics(void) {
    for (int w64 = 0; w64 < 2; w64++) {
        const char *a = w64 ? "gfx1201:wavefrontsize64" : "gfx1201";
        uint64_t all = w64 ? ~0ull : 0xffffffffull, part = all & ~0x0f00f0f0ull;
        num32_case(a, w64, "ds_min_num_f32 v1, v2", 0, 0, 1, all);
        num32_case(a, w64, "ds_max_num_f32 v1, v2", 1, 0, 1, part);
        num32_case(a, w64, "ds_min_num_rtn_f32 v3, v1, v2", 0, 1, 1, part);
        num32_case(a, w64, "ds_max_num_rtn_f32 v3, v1, v2", 1, 1, 1, all);
        num32_case(a, w64, "global_atomic_min_num_f32 v3, v1, v2, s[12:13] th:TH_ATOMIC_RETURN", 0,
                   1, 0, part);
        num32_case(a, w64, "global_atomic_max_num_f32 v1, v2, s[12:13]", 1, 0, 0, all);
        num32_case(a, w64, "flat_atomic_min_num_f32 v[6:7], v2", 0, 0, 0, part);
        num32_case(a, w64, "flat_atomic_max_num_f32 v3, v[6:7], v2 th:TH_ATOMIC_RETURN", 1, 1, 0,
                   all);
        num32_case(a, w64,
                   "buffer_atomic_min_num_f32 v2, v1, s[8:11], null offen th:TH_ATOMIC_RETURN", 0,
                   1, 0, all);
        num32_case(a, w64, "buffer_atomic_max_num_f32 v2, v1, s[8:11], null offen", 1, 0, 0, part);
        num64_case(a, w64, "ds_min_num_f64 v1, v[2:3]", 0, 0, all);
        num64_case(a, w64, "ds_max_num_f64 v1, v[2:3]", 1, 0, part);
        num64_case(a, w64, "ds_min_num_rtn_f64 v[4:5], v1, v[2:3]", 0, 1, part);
        num64_case(a, w64, "ds_max_num_rtn_f64 v[4:5], v1, v[2:3]", 1, 1, all);
    }
}

/* ---- 2. gfx11's constant integer compares (RDNA3 ISA VOPC: V_CMP_F_* writes 0, V_CMP_T_* 1
 * for each active lane; inactive lanes' bits are 0; V_CMPX_* write EXEC only) -------------- */
static void t_cmp_const(int wave64) {
    const char *a = wave64 ? "gfx1100:wavefrontsize64" : "gfx1100";
    uint64_t on = wave64 ? 0xf0f0f0f00ff0ff0full : 0x0ff0ff0full;
    const char *mask = wave64 ? "s[4:5]" : "s4";
    const char *type[] = {"i32", "u32", "i64", "u64"};
    for (unsigned t = 0; t < 4; t++) {
        const char *src = t < 2 ? "v2, v3" : "v[2:3], v[4:5]";
        for (int truth = 0; truth < 2; truth++) {
            char text[160];
            uint64_t want = truth ? on : 0;
            /* e32 into VCC, e64 into an SGPR (pair) */
            reset(wave64);
            wave_set_exec(w, on);
            w->s[ISA_SREG_VCC_LO] = w->s[ISA_SREG_VCC_HI] = 0x5a5a5a5a;
            w->s[4] = w->s[5] = 0x3c3c3c3c;
            snprintf(text, sizeof text, "v_cmp_%s_%s vcc, %s\nv_cmp_%s_%s_e64 %s, %s",
                     truth ? "t" : "f", type[t], src, truth ? "t" : "f", type[t], mask, src);
            if (!wave64) /* wave32 names the one-SGPR mask vcc_lo */
                snprintf(text, sizeof text, "v_cmp_%s_%s vcc_lo, %s\nv_cmp_%s_%s_e64 %s, %s",
                         truth ? "t" : "f", type[t], src, truth ? "t" : "f", type[t], mask, src);
            CHECK(run(a, text) == WAVE_DONE, "%s %s", a, text);
            uint64_t vcc = w->s[ISA_SREG_VCC_LO] | (uint64_t)w->s[ISA_SREG_VCC_HI] << 32;
            uint64_t s45 = w->s[4] | (uint64_t)w->s[5] << 32;
            /* wave32: one SGPR, VCC_HI and s5 untouched */
            uint64_t wv = wave64 ? want : (want | 0x5a5a5a5a00000000ull);
            uint64_t ws = wave64 ? want : (want | 0x3c3c3c3c00000000ull);
            CHECK(vcc == wv && s45 == ws, "%s %s: vcc %016llx (want %016llx) s[4:5] %016llx", a,
                  text, (unsigned long long)vcc, (unsigned long long)wv, (unsigned long long)s45);

            /* V_CMPX: EXEC = the result; the next instruction runs in the lanes left */
            reset(wave64);
            wave_set_exec(w, on);
            w->s[ISA_SREG_VCC_LO] = w->s[ISA_SREG_VCC_HI] = 0x5a5a5a5a;
            for (unsigned l = 0; l < 64; l++)
                w->v[9][l] = 0x44;
            snprintf(text, sizeof text, "v_cmpx_%s_%s %s\nv_mov_b32 v9, 1", truth ? "t" : "f",
                     type[t], src);
            CHECK(run(a, text) == WAVE_DONE, "%s %s", a, text);
            int bad = 0;
            for (unsigned l = 0; l < 64; l++)
                bad += w->v[9][l] != ((want >> l & 1) ? 1u : 0x44u);
            CHECK(wave_exec(w) == want && bad == 0 && w->s[ISA_SREG_VCC_LO] == 0x5a5a5a5a,
                  "%s %s: exec %016llx (want %016llx), %d lanes of v9 wrong, vcc_lo %x", a, text,
                  (unsigned long long)wave_exec(w), (unsigned long long)want, bad,
                  w->s[ISA_SREG_VCC_LO]);
        }
    }
}

/* ---- 3. wave32 vector instructions reading the 64-bit EXEC (RDNA3 ISA 3.2.2: EXEC_HI is a
 * register a wave32 program may write and read; no lane follows it) ------------------------ */
static void t_exec64_src(const char *a) {
    /* V_LSHLREV_B64: D = S1 << S0[5:0]; S1 = {EXEC_HI, EXEC_LO} = 0x0000ff00_00ffff0f after
     * the two 32-bit writes; lanes 0-3, 8-15 and 16-23 run (EXEC_LO) */
    reset(0);
    for (unsigned l = 0; l < 64; l++)
        w->v[2][l] = w->v[3][l] = 0x99;
    CHECK(run(a, "s_mov_b32 exec_lo, 0x00ffff0f\ns_mov_b32 exec_hi, 0xff00\n"
                 "v_lshlrev_b64 v[2:3], 4, exec") == WAVE_DONE,
          "%s v_lshlrev_b64 exec", a);
    int bad = 0;
    for (unsigned l = 0; l < 64; l++) {
        int act = l < 32 && (0x00ffff0fu >> l & 1);
        bad +=
            w->v[2][l] != (act ? 0x0ffff0f0u : 0x99u) || w->v[3][l] != (act ? 0x000ff000u : 0x99u);
    }
    CHECK(bad == 0 && w->s[ISA_SREG_EXEC_HI] == 0,
          "%s v_lshlrev_b64 v[2:3], 4, exec: %d lanes wrong (lane 0 %08x:%08x), s127 %x", a, bad,
          w->v[3][0], w->v[2][0], w->s[ISA_SREG_EXEC_HI]);

    /* V_CMP_EQ_U64 with EXEC as S0: lane l compares {EXEC_HI, EXEC_LO} with v[2:3]; lanes 0
     * and 1 hold the value, lane 2 only its low half; the result to VCC_LO */
    reset(0);
    for (unsigned l = 0; l < 64; l++)
        w->v[2][l] = 0xffffffff, w->v[3][l] = l < 2 ? 7 : 8;
    CHECK(run(a, "s_mov_b32 exec_hi, 7\nv_cmp_eq_u64 vcc_lo, exec, v[2:3]") == WAVE_DONE,
          "%s v_cmp_eq_u64 exec", a);
    CHECK(w->s[ISA_SREG_VCC_LO] == 3, "%s v_cmp_eq_u64 vcc_lo, exec, v[2:3]: vcc_lo %x", a,
          w->s[ISA_SREG_VCC_LO]);

    /* V_ADD_NC_U64 (gfx12) / V_ADD_CO_U32 pair: not needed; v_mad_u64_u32 takes a 64-bit S2:
     * D = S0 * S1 + S2 = 2 * 3 + {EXEC_HI 1, EXEC_LO} */
    reset(0);
    w->s[ISA_SREG_EXEC_LO] = 0x80000001u;
    CHECK(run(a, "s_mov_b32 exec_hi, 1\nv_mad_u64_u32 v[4:5], null, 2, 3, exec") == WAVE_DONE,
          "%s v_mad_u64_u32 exec", a);
    CHECK(w->v[4][0] == 0x80000007u && w->v[5][0] == 1 && w->v[4][31] == 0x80000007u &&
              w->v[4][1] == 0,
          "%s v_mad_u64_u32 ..., exec: lane 0 %08x:%08x lane 31 %08x lane 1 %08x", a, w->v[5][0],
          w->v[4][0], w->v[4][31], w->v[4][1]);
}

/* ---- 6. buffer formats (RDNA3/RDNA4 ISA "Buffer formats"; the unified format codes are
 * LLVM's BUF_FMT_*: 30 10_11_11_FLOAT, 31 11_11_10_FLOAT, 32-35 10_10_10_2 UNORM/SNORM/UINT/
 * SINT, 36-41 2_10_10_10 UNORM/SNORM/USCALED/SSCALED/UINT/SINT).  A packed format's name lists
 * its components from the most significant down: X is in the low bits. ------------------- */
#define SEL_XYZW (4u | 5u << 3 | 6u << 6 | 7u << 9)
static uint32_t fbits(float f) {
    uint32_t u;
    memcpy(&u, &f, 4);
    return u;
}
/* Every lane's dword holds raw; lane l loads at offset 4l (offen), lanes past `inr` are out of
 * range (OOB_SELECT 3) and read 0.  v4..v7 get the components; want[] hand-worked. */
static void fmt_load_case(const char *a, int wave64, unsigned uf, uint32_t raw, const char *text,
                          const uint32_t *want, unsigned nc, unsigned inr) {
    unsigned n = wave64 ? 64 : 32;
    reset(wave64);
    snippet_set_rsrc(w, 8, buf, 0, 4 * inr, 3u << 28 | uf << 12 | SEL_XYZW);
    for (unsigned l = 0; l < 64; l++) {
        gmem_write(mem, buf + 4 * l, &raw, 4);
        w->v[1][l] = 4 * l;
        for (unsigned c = 0; c < 4; c++)
            w->v[4 + c][l] = 0x99;
    }
    CHECK(run(a, text) == WAVE_DONE, "%s %s (format %u)", a, text, uf);
    int bad = 0;
    for (unsigned l = 0; l < 64; l++)
        for (unsigned c = 0; c < 4; c++) {
            uint32_t wv = c >= nc || l >= n ? 0x99 : l >= inr ? 0 : want[c];
            if (w->v[4 + c][l] != wv && bad++ < 3)
                printf("  lane %u component %u: %08x, want %08x\n", l, c, w->v[4 + c][l], wv);
        }
    CHECK(bad == 0, "%s %s (format %u, raw %08x): %d wrong", a, text, uf, raw, bad);
}
static void fmt_store_case(const char *a, unsigned uf, const uint32_t *in, const char *text,
                           uint32_t want) {
    reset(0);
    snippet_set_rsrc(w, 8, buf, 0, 64, 3u << 28 | uf << 12 | SEL_XYZW);
    uint32_t z = 0x55555555;
    for (unsigned l = 0; l < 64; l++) {
        gmem_write(mem, buf + 4 * l, &z, 4);
        w->v[1][l] = 4 * l;
        for (unsigned c = 0; c < 4; c++)
            w->v[4 + c][l] = in[c];
    }
    CHECK(run(a, text) == WAVE_DONE, "%s %s (format %u)", a, text, uf);
    int bad = 0;
    for (unsigned l = 0; l < 32; l++) {
        uint32_t got;
        gmem_read(mem, buf + 4 * l, &got, 4);
        uint32_t wv = l < 16 ? want : 0x55555555; /* 64 bytes: lanes 16+ out of range */
        if (got != wv && bad++ < 3)
            printf("  lane %u: %08x, want %08x\n", l, got, wv);
    }
    CHECK(bad == 0, "%s %s (format %u): %d lanes wrong", a, text, uf, bad);
}

static void t_packed(const char *a, int wave64, int gfx12) {
    const char *ld4 = gfx12 ? "buffer_load_format_xyzw v[4:7], v1, s[8:11], null offen"
                            : "buffer_load_format_xyzw v[4:7], v1, s[8:11], 0 offen";
    /* 2_10_10_10: X = 0x3ff [9:0], Y = 0x200 [19:10], Z = 1 [29:20], W = 2 [31:30] */
    uint32_t r2 = 0x801803ffu;
    uint32_t un[] = {fbits(1.0f), fbits((float)(512.0 / 1023)), fbits((float)(1.0 / 1023)),
                     fbits((float)(2.0 / 3))};
    /* SNORM: 0x3ff = -1 -> -1/511; 0x200 = -512 -> -512/511, clamped to -1; 1/511; W = -2 of 2
     * bits -> -2, clamped to -1 */
    uint32_t sn[] = {fbits((float)(-1.0 / 511)), fbits(-1.0f), fbits((float)(1.0 / 511)),
                     fbits(-1.0f)};
    uint32_t us[] = {fbits(1023.0f), fbits(512.0f), fbits(1.0f), fbits(2.0f)};
    uint32_t ss[] = {fbits(-1.0f), fbits(-512.0f), fbits(1.0f), fbits(-2.0f)};
    uint32_t ui[] = {1023, 512, 1, 2}, si[] = {0xffffffffu, 0xfffffe00u, 1, 0xfffffffeu};
    const uint32_t *w2[] = {un, sn, us, ss, ui, si};
    for (unsigned k = 0; k < 6; k++)
        fmt_load_case(a, wave64, 36 + k, r2, ld4, w2[k], 4, 64);
    fmt_load_case(a, wave64, 36, r2, ld4, un, 4, 16); /* lanes 16+ out of range */
    /* tbuffer names the format in the instruction; format_xy loads X and Y only */
    fmt_load_case(a, wave64, 0, r2,
                  gfx12 ? "tbuffer_load_format_xy v[4:5], v1, s[8:11], null "
                          "format:[BUF_FMT_2_10_10_10_SINT] offen"
                        : "tbuffer_load_format_xy v[4:5], v1, s[8:11], 0 "
                          "format:[BUF_FMT_2_10_10_10_SINT] offen",
                  si, 2, 64);
    /* 10_10_10_2: X = 1 [1:0], Y = 0x3ff [11:2], Z = 0x155 [21:12], W = 0x200 [31:22] */
    uint32_t r3 = 0x80155ffdu;
    uint32_t un3[] = {fbits((float)(1.0 / 3)), fbits(1.0f), fbits((float)(341.0 / 1023)),
                      fbits((float)(512.0 / 1023))};
    uint32_t sn3[] = {fbits(1.0f), fbits((float)(-1.0 / 511)), fbits((float)(341.0 / 511)),
                      fbits(-1.0f)};
    uint32_t ui3[] = {1, 1023, 341, 512}, si3[] = {1, 0xffffffffu, 341, 0xfffffe00u};
    const uint32_t *w3[] = {un3, sn3, ui3, si3};
    for (unsigned k = 0; k < 4; k++)
        fmt_load_case(a, wave64, 32 + k, r3, ld4, w3[k], 4, 64);
    /* 10_11_11_FLOAT: X (11 bits) 1.0 = exponent 15 -> 0x3c0; Y 2.5 = 1.25 * 2^1 -> exponent
     * 16, mantissa 16/64 -> 0x410; Z (10 bits) 0x3e0 = +inf; W missing: 1.0 */
    uint32_t f1[] = {fbits(1.0f), fbits(2.5f), fbits(INFINITY), fbits(1.0f)};
    fmt_load_case(a, wave64, 30, 0xf82083c0u, ld4, f1, 4, 64);
    /* X = 1: denormal 2^-14 * 1/64 = 2^-20; Y = 0x7c1: NaN (the load gives f32 NaN 0x7fc00000
     * as the conversion makes it); Z = exponent 30, mantissa 31: (1 + 31/32) * 2^15 = 64512 */
    uint32_t f2[] = {fbits(0x1p-20f), 0x7fc00000u, fbits(64512.0f), fbits(1.0f)};
    fmt_load_case(a, wave64, 30, 0xf7fe0801u, ld4, f2, 4, 64);
    /* 11_11_10_FLOAT: X (10 bits) 0.5 = exponent 14 -> 0x1c0; Y (11) 3.0 -> 0x420; Z 0 */
    uint32_t f3[] = {fbits(0.5f), fbits(3.0f), 0, fbits(1.0f)};
    fmt_load_case(a, wave64, 31, 0x001081c0u, ld4, f3, 4, 64);

    if (wave64)
        return;
    const char *st4 = gfx12 ? "buffer_store_format_xyzw v[4:7], v1, s[8:11], null offen"
                            : "buffer_store_format_xyzw v[4:7], v1, s[8:11], 0 offen";
    const char *st3 = gfx12 ? "buffer_store_format_xyz v[4:6], v1, s[8:11], null offen"
                            : "buffer_store_format_xyz v[4:6], v1, s[8:11], 0 offen";
    /* 2_10_10_10_UNORM {1.0, 0.5, 0, 1.0}: 1023, 511.5 -> 512 (nearest even), 0, 3 */
    uint32_t s1[] = {fbits(1.0f), fbits(0.5f), 0, fbits(1.0f)};
    fmt_store_case(a, 36, s1, st4, 0xc00803ffu);
    /* 2_10_10_10_SINT {-1, 511, -512, 1}: 0x3ff, 0x1ff, 0x200, 1 */
    uint32_t s2[] = {0xffffffffu, 511, 0xfffffe00u, 1};
    fmt_store_case(a, 41, s2, st4, 0x3ff | 0x1ffu << 10 | 0x200u << 20 | 1u << 30);
    /* 10_11_11_FLOAT {1.0, -2.0 (negative: 0), 65536 (past 64512: +inf 0x3e0)} */
    uint32_t s3[] = {fbits(1.0f), fbits(-2.0f), fbits(65536.0f), 0};
    fmt_store_case(a, 30, s3, st3, 0xf80003c0u);
    /* ties to even: 1 + 2^-7 is half way between 1.0 and 1 + 1/64: 1.0 (0x3c0); 1 + 3 * 2^-7
     * between 1 + 1/64 and 1 + 2/64: the even 0x3c2; Z NaN: a NaN (exponent 31, mantissa not 0) */
    uint32_t s4[] = {fbits(1.0078125f), fbits(1.0234375f), 0x7fc00000u, 0};
    reset(0);
    fmt_store_case(a, 30, s4, st3, 0x3c0u | 0x3c2u << 11 | 0x3f0u << 22);
    /* a store of fewer components than the format has is refused by name */
    reset(0);
    snippet_set_rsrc(w, 8, buf, 0, 64, 3u << 28 | 36u << 12 | SEL_XYZW);
    int st = run_snippet(w, a,
                         gfx12 ? "buffer_store_format_x v4, v1, s[8:11], null offen"
                               : "buffer_store_format_x v4, v1, s[8:11], 0 offen");
    CHECK(st == WAVE_FAULT && w->fault.kind == XF_UNIMPLEMENTED && w->fault.note != NULL,
          "%s packed store_format_x: %d %d", a, st, w->fault.kind);
}

/* DST_SEL (V# word 3 [11:0], 3 bits per register component: 0 -> 0, 1 -> 1 or 1.0, 4-7 -> X,
 * Y, Z, W) on format loads.  Memory: the 8_8_8_8 UINT word 0x44332211 (X 0x11 ... W 0x44), or
 * 16_16 FLOAT 0x3c00c000 (X -2.0, Y 1.0; Z 0, W 1.0 as the format lacks them).  Every lane is
 * in range (what an out-of-range lane gets under a constant selector is not written down). */
static void sel_case(const char *a, int wave64, unsigned uf, uint32_t raw, uint32_t sel,
                     const char *text, const uint32_t *want, unsigned nc) {
    unsigned n = wave64 ? 64 : 32;
    reset(wave64);
    wave_set_exec(w, wave64 ? 0xffff0000ffff00ffull : 0xffff00ffull);
    snippet_set_rsrc(w, 8, buf, 0, 256, 3u << 28 | uf << 12 | sel);
    for (unsigned l = 0; l < 64; l++) {
        gmem_write(mem, buf + 4 * l, &raw, 4);
        w->v[1][l] = 4 * l;
        for (unsigned c = 0; c < 4; c++)
            w->v[4 + c][l] = 0x99999999u;
    }
    CHECK(run(a, text) == WAVE_DONE, "%s %s (sel %03x)", a, text, sel);
    uint64_t on = wave_exec(w);
    int bad = 0;
    for (unsigned l = 0; l < 64; l++)
        for (unsigned c = 0; c < 4; c++) {
            uint32_t wv = c >= nc || l >= n || !(on >> l & 1) ? 0x99999999u : want[c];
            if (w->v[4 + c][l] != wv && bad++ < 3)
                printf("  lane %u component %u: %08x, want %08x\n", l, c, w->v[4 + c][l], wv);
        }
    CHECK(bad == 0, "%s %s (sel %03x): %d wrong", a, text, sel, bad);
}
#define SEL(x, y, z, w) ((x) | (y) << 3 | (z) << 6 | (w) << 9)
static void t_dst_sel(const char *a, int wave64, int gfx12) {
    const char *ld4 = gfx12 ? "buffer_load_format_xyzw v[4:7], v1, s[8:11], null offen"
                            : "buffer_load_format_xyzw v[4:7], v1, s[8:11], 0 offen";
    const char *ld2 = gfx12 ? "buffer_load_format_xy v[4:5], v1, s[8:11], null offen"
                            : "buffer_load_format_xy v[4:5], v1, s[8:11], 0 offen";
    const char *d16 = gfx12 ? "buffer_load_d16_format_xyzw v[4:5], v1, s[8:11], null offen"
                            : "buffer_load_d16_format_xyzw v[4:5], v1, s[8:11], 0 offen";
    /* 8_8_8_8_UINT is unified format 46: WZYX reversed, then 0 and 1 (the integer 1) */
    uint32_t r1[] = {0x44, 0x33, 0x22, 0x11};
    sel_case(a, wave64, 46, 0x44332211u, SEL(7, 6, 5, 4), ld4, r1, 4);
    uint32_t r2[] = {0, 1, 0x11, 0x11};
    sel_case(a, wave64, 46, 0x44332211u, SEL(0, 1, 4, 4), ld4, r2, 4);
    /* format_xy of a 4-component format may select its Z and W */
    uint32_t r3[] = {0x33, 0x44};
    sel_case(a, wave64, 46, 0x44332211u, SEL(6, 7, 4, 5), ld2, r3, 2);
    /* 16_16_FLOAT (29): Y, X, the missing Z (0) and W (1.0), and the constant 1 is 1.0 */
    uint32_t r4[] = {0x3f800000u, 0xc0000000u, 0, 0x3f800000u};
    sel_case(a, wave64, 29, 0x3c00c000u, SEL(5, 4, 6, 7), ld4, r4, 4);
    uint32_t r5[] = {0x3f800000u, 0, 0x3f800000u, 0xc0000000u};
    sel_case(a, wave64, 29, 0x3c00c000u, SEL(1, 0, 7, 4), ld4, r5, 4);
    /* d16: {1.0 (f16 0x3c00), X = -2.0 (0xc000)} in v4, {Y = 1.0, 0} in v5 */
    uint32_t r6[] = {0xc0003c00u, 0x00003c00u};
    sel_case(a, wave64, 29, 0x3c00c000u, SEL(1, 4, 5, 0), d16, r6, 2);
    /* a packed format through DST_SEL: 2_10_10_10_UINT (40) W, Z, Y, X */
    uint32_t r7[] = {2, 1, 512, 1023};
    sel_case(a, wave64, 40, 0x801803ffu, SEL(7, 6, 5, 4), ld4, r7, 4);
    /* a reserved selector (2) stops the wave by name */
    reset(wave64);
    snippet_set_rsrc(w, 8, buf, 0, 64, 3u << 28 | 46u << 12 | SEL(4, 2, 6, 7));
    int st = run_snippet(w, a, ld4);
    CHECK(st == WAVE_FAULT && w->fault.kind == XF_UNIMPLEMENTED && w->fault.note != NULL,
          "%s reserved dst_sel: %d %d", a, st, w->fault.kind);
}

/* ---- 7. messages (LLVM AMDGPU Usage, gfx11/gfx12 sendmsg ids) ---------------------------- */
static void t_sendmsg(const char *a, int gfx12) {
    /* MSG_DEALLOC_VGPRS (3) is a hint for a wave about to end: the wave goes on */
    reset(0);
    CHECK(run(a, "s_sendmsg sendmsg(MSG_DEALLOC_VGPRS)\ns_mov_b32 s6, 1") == WAVE_DONE &&
              w->s[6] == 1,
          "%s dealloc_vgprs: s6 %u", a, w->s[6]);
    /* no trap handler is installed: TMA and TBA read 0; gfx12's shader engine / die id 0 */
    reset(0);
    for (unsigned r = 0; r < 8; r++)
        w->s[r] = 0x55555555;
    CHECK(run(a, gfx12 ? "s_sendmsg_rtn_b32 s0, sendmsg(MSG_RTN_GET_TMA)\n"
                         "s_sendmsg_rtn_b64 s[2:3], sendmsg(MSG_RTN_GET_TBA)\n"
                         "s_sendmsg_rtn_b32 s4, sendmsg(MSG_RTN_GET_SE_AID_ID)"
                       : "s_sendmsg_rtn_b32 s0, sendmsg(MSG_RTN_GET_TMA)\n"
                         "s_sendmsg_rtn_b64 s[2:3], sendmsg(MSG_RTN_GET_TBA)\n"
                         "s_mov_b32 s4, 0") == WAVE_DONE,
          "%s sendmsg_rtn", a);
    CHECK(w->s[0] == 0 && w->s[1] == 0x55555555 && w->s[2] == 0 && w->s[3] == 0 && w->s[4] == 0 &&
              w->s[5] == 0x55555555,
          "%s sendmsg_rtn: s0 %x s1 %x s[2:3] %x:%x s4 %x", a, w->s[0], w->s[1], w->s[3], w->s[2],
          w->s[4]);
    /* the rest stop the wave by name at its pc */
    const char *refused[] = {"s_sendmsg sendmsg(MSG_HS_TESSFACTOR)",
                             "s_sendmsg sendmsg(MSG_GS_ALLOC_REQ)",
                             "s_sendmsg 11",
                             "s_sendmsg_rtn_b32 s0, sendmsg(MSG_RTN_GET_DDID)",
                             "s_sendmsg_rtn_b32 s0, sendmsg(MSG_RTN_SAVE_WAVE)",
                             gfx12 ? "s_sendmsg_rtn_b64 s[0:1], sendmsg(MSG_RTN_GET_TBA_TO_PC)"
                                   : "s_sendmsg_rtn_b32 s0, 135"};
    for (unsigned i = 0; i < sizeof refused / sizeof refused[0]; i++) {
        reset(0);
        int st = run_snippet(w, a, refused[i]);
        CHECK(st == WAVE_FAULT && w->fault.kind == XF_UNIMPLEMENTED && w->fault.pc == 0 &&
                  w->fault.note != NULL,
              "%s '%s': status %d kind %d", a, refused[i], st, w->fault.kind);
    }
}

int main(void) {
    mem = gmem_create();
    buf = gmem_alloc(mem, 4096, 0) + 4096 - 256;
    w = malloc(sizeof *w);
    t_num_atomics();
    t_cmp_const(0);
    t_cmp_const(1);
    t_exec64_src("gfx1100");
    t_exec64_src("gfx1201");
    t_packed("gfx1100", 0, 0);
    t_packed("gfx1201", 0, 1);
    t_packed("gfx1100:wavefrontsize64", 1, 0);
    t_packed("gfx1201:wavefrontsize64", 1, 1);
    t_dst_sel("gfx1100", 0, 0);
    t_dst_sel("gfx1201", 0, 1);
    t_dst_sel("gfx1100:wavefrontsize64", 1, 0);
    t_dst_sel("gfx1201:wavefrontsize64", 1, 1);
    t_sendmsg("gfx1100", 0);
    t_sendmsg("gfx1201", 1);
    free(w);
    gmem_destroy(mem);
    return check_summary("test_rdna_gap2");
}
