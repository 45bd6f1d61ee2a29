/* test_wmma.c - the RDNA WMMA ops (src/exec/wmma.c) on llvm-mc-22 snippets for gfx1100 and
 * gfx1201 in wave32 and wave64, against the separate reference model tests/exec/wmma_ref.h:
 * every op of each target, random exactly representable inputs, the neg_lo/neg_hi modifiers of
 * the 16-bit float ops (incl. |C| and -C), gfx11's op_sel[2] half of a 16-bit C/D (the other
 * half kept), integer signedness (neg_lo) and clamp, an inline-constant C, NaN/Inf inputs, and
 * the fp8 neg bits refused by name. */
#include "common/check.h"
#include "common/snippet.h"
#include "exec/exec.h"
#include "exec/wmma_ref.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static snippet_rig rig;
static wave *const w = &rig.wv;

enum { RA = 8, RB = 40, RC = 72, RD = 0 }; /* register bases of A, B, C, D */

static uint32_t rng = 12345;
static uint32_t rnd(void) {
    rng = rng * 1664525u + 1013904223u;
    return rng >> 8;
}

/* A random exactly representable element of type t (raw bits). */
static unsigned elem(int t) {
    static const double vals[] = {0, 0.25, 0.5, 0.75, 1, 1.25, 1.5, 2, 3, 3.5, 4};
    if (t == WR_I8)
        return rnd() & 0xff;
    if (t == WR_I4)
        return rnd() & 0xf;
    double v = vals[rnd() % 11] * (rnd() & 1 ? -1 : 1);
    const fpf_format *f = t == WR_F16    ? FPF_F16
                          : t == WR_BF16 ? FPF_BF16
                          : t == WR_FP8  ? FPF_FP8_OCP
                                         : FPF_BF8_OCP;
    return fpf_encode(v, f, 0);
}

/* Fill n registers at base with random elements of type t; gfx11 copies lanes 0-15 into the
 * other lane groups (the manual requires the copies equal). */
static void fill_ab(int base, int n, int t, int g12, int lanes) {
    int bits = wref_bits(t);
    for (int r = 0; r < n; r++)
        for (int l = 0; l < 64; l++) {
            uint32_t v = 0;
            for (int s = 0; s < 32 / bits; s++)
                v |= elem(t) << (bits * s);
            w->v[base + r][l] = !g12 && l >= 16 && l < lanes ? w->v[base + r][l % 16] : v;
        }
}

static uint32_t fbits(float f) {
    uint32_t u;
    memcpy(&u, &f, 4);
    return u;
}

/* One C element in 16 of a float op is a NaN with a payload (quiet or signalling, either sign):
 * the result must be the default NaN of D's type, not the host's propagated one (wmma_ref.h). */
static uint32_t c_nan(int to) {
    static const uint32_t f32[4] = {0x7fc12345u, 0xffa00001u, 0x7f800002u, 0xffd54321u};
    static const uint32_t f16[4] = {0x7e01u, 0xfd11u, 0x7c02u, 0xff23u};
    static const uint32_t b16[4] = {0x7fc1u, 0xff81u, 0x7f82u, 0xffd3u};
    unsigned k = rnd() % 4;
    return to == WR_OF16 ? f16[k] : to == WR_OBF16 ? b16[k] : f32[k];
}
static uint32_t c_half(int to) {
    return rnd() % 16 == 0 ? c_nan(to) : elem(to == WR_OF16 ? WR_F16 : WR_BF16);
}
static void fill_c(const wref_op *op, int n) {
    for (int r = 0; r < n; r++)
        for (int l = 0; l < 64; l++) {
            if (op->to == WR_OI32)
                w->v[RC + r][l] = rnd() % 2001 - 1000;
            else if (wref_out16(op->to))
                w->v[RC + r][l] = c_half(op->to) | c_half(op->to) << 16;
            else if (rnd() % 16 == 0)
                w->v[RC + r][l] = c_nan(op->to);
            else
                w->v[RC + r][l] = fbits((float)((int)(rnd() % 64) - 32) * 0.125f);
            w->v[RD + r][l] = 0xdead0000u | (uint32_t)l; /* old D: a kept half shows it */
        }
}

static void regs_text(char *s, size_t n, int base, int cnt) {
    if (cnt == 1)
        snprintf(s, n, "v%d", base);
    else
        snprintf(s, n, "v[%d:%d]", base, base + cnt - 1);
}

/* One op with one set of modifiers: returns the number of wrong D dwords (or -1). */
static int run_case(const char *arch, int g12, int w64, const wref_op *op, const char *mods,
                    const wref_mods *m, const char *c_const) {
    int lanes = w64 ? 64 : 32;
    int na = wref_ab_regs(op, g12, w64, op->ta), nb = wref_ab_regs(op, g12, w64, op->tb);
    int nc = wref_cd_regs(op, g12, w64);
    snippet_rig_reset(&rig, w64 ? ~0ull : 0xffffffffull, 0);
    fill_ab(RA, na, op->ta, g12, lanes);
    fill_ab(RB, nb, op->tb, g12, lanes);
    fill_c(op, nc);
    static uint32_t a[8][64], b[8][64], c[8][64], d[8][64];
    memcpy(a, w->v[RA], sizeof a);
    memcpy(b, w->v[RB], sizeof b);
    memcpy(c, w->v[RC], sizeof c);
    memcpy(d, w->v[RD], sizeof d);
    if (c_const) { /* an inline constant fills C */
        float cv = (float)atof(c_const);
        for (int r = 0; r < 8; r++)
            for (int l = 0; l < 64; l++)
                c[r][l] = op->to == WR_OI32    ? (uint32_t)(int)cv
                          : op->to == WR_OF16  ? fpf_encode(cv, FPF_F16, 0) * 0x10001u
                          : op->to == WR_OBF16 ? fpf_encode(cv, FPF_BF16, 0) * 0x10001u
                                               : fbits(cv);
    }
    wref_run(op, g12, w64, m, (const uint32_t (*)[64])a, (const uint32_t (*)[64])b,
             (const uint32_t (*)[64])c, d);
    char ta[32], tb[32], tc[32], td[32], text[256], full[48];
    regs_text(ta, sizeof ta, RA, na);
    regs_text(tb, sizeof tb, RB, nb);
    regs_text(tc, sizeof tc, RC, nc);
    regs_text(td, sizeof td, RD, nc);
    snprintf(text, sizeof text, "%s %s, %s, %s, %s %s", op->name, td, ta, tb,
             c_const ? c_const : tc, mods);
    snprintf(full, sizeof full, "%s%s", arch, w64 ? ":wavefrontsize64" : "");
    int st = run_snippet(w, full, text);
    if (st != WAVE_DONE) {
        printf("  %s '%s': status %d fault %d\n", full, text, st, w->fault.kind);
        return -1;
    }
    int bad = 0;
    for (int r = 0; r < nc; r++)
        for (int l = 0; l < lanes; l++)
            if (w->v[RD + r][l] != d[r][l]) {
                if (bad++ < 3)
                    printf("  %s '%s': v%d lane %d = %08x, want %08x\n", full, text, RD + r, l,
                           w->v[RD + r][l], d[r][l]);
            }
    return bad;
}

static void t_ops(const char *arch, int g12) {
    for (int w64 = 0; w64 < 2; w64++)
        for (size_t i = 0; i < sizeof wref_ops / sizeof wref_ops[0]; i++) {
            const wref_op *op = &wref_ops[i];
            if (op->g12only && !g12)
                continue;
            wref_mods m0 = {0, 0, 0, 0};
            for (int rep = 0; rep < 3; rep++)
                CHECK(run_case(arch, g12, w64, op, "", &m0, NULL) == 0, "%s w%d %s plain", arch,
                      w64 ? 64 : 32, op->name);
            int ints = op->to == WR_OI32, f8 = op->ta == WR_FP8 || op->ta == WR_BF8;
            if (ints) {
                wref_mods ms = {1, 0, 0, 0}, mb = {3, 0, 0, 1};
                CHECK(run_case(arch, g12, w64, op, "neg_lo:[1,0,0]", &ms, NULL) == 0,
                      "%s %s signed A", arch, op->name);
                CHECK(run_case(arch, g12, w64, op, "neg_lo:[1,1,0] clamp", &mb, NULL) == 0,
                      "%s %s signed A and B, clamp", arch, op->name);
                CHECK(run_case(arch, g12, w64, op, "", &m0, "-7") == 0, "%s %s C = -7", arch,
                      op->name);
            } else if (!f8) {
                wref_mods mn = {5, 6, 0, 0};
                CHECK(run_case(arch, g12, w64, op, "neg_lo:[1,0,1] neg_hi:[0,1,1]", &mn, NULL) == 0,
                      "%s %s neg", arch, op->name);
                CHECK(run_case(arch, g12, w64, op, "", &m0, "1.0") == 0, "%s %s C = 1.0", arch,
                      op->name);
            } else {
                wref_mods mc = {4, 4, 0, 0}; /* gfx12 fp8: neg_lo[2]/neg_hi[2] are -C, |C| */
                CHECK(run_case(arch, g12, w64, op, "neg_lo:[0,0,1] neg_hi:[0,0,1]", &mc, NULL) == 0,
                      "%s %s -|C|", arch, op->name);
            }
            if (!g12 && wref_out16(op->to)) {
                wref_mods mh = {0, 0, 4, 0};
                CHECK(run_case(arch, g12, w64, op, "op_sel:[0,0,1]", &mh, NULL) == 0,
                      "%s %s op_sel high half", arch, op->name);
            }
        }
}

/* Saturation: C near INT32_MAX, all-0xff unsigned bytes: 16 * 255 * 255 more. */
static void t_clamp(const char *arch, int g12) {
    const wref_op *op = &wref_ops[4]; /* v_wmma_i32_16x16x16_iu8 */
    for (int clamp = 0; clamp < 2; clamp++) {
        snippet_rig_reset(&rig, 0xffffffffull, 0);
        for (int r = 0; r < 8; r++)
            for (int l = 0; l < 64; l++) {
                w->v[RA + r][l] = w->v[RB + r][l] = 0xffffffffu;
                w->v[RC + r][l] = 0x7fff0000u;
            }
        char text[128];
        snprintf(text, sizeof text, "%s v[0:7], v[%d:%d], v[%d:%d], v[72:79]%s", op->name, RA,
                 RA + (g12 ? 1 : 3), RB, RB + (g12 ? 1 : 3), clamp ? " clamp" : "");
        CHECK(run_snippet(w, arch, text) == WAVE_DONE, "%s clamp run", arch);
        /* 0x7fff0000 + 16*255*255 = 0x7fff0000 + 0xfe010 = 0x800ee010: wraps, or saturates */
        uint32_t want = clamp ? 0x7fffffffu : 0x800ee010u;
        int bad = 0;
        for (int r = 0; r < 8; r++)
            for (int l = 0; l < 32; l++)
                bad += w->v[r][l] != want;
        CHECK(bad == 0, "%s iu8 clamp=%d: %d wrong, v0[0] = %08x (want %08x)", arch, clamp, bad,
              w->v[0][0], want);
    }
}

/* A fresh wave32 wave with every A and B element 1.0 (na registers each) and C zero. */
static void ones(int na) {
    snippet_rig_reset(&rig, 0xffffffffull, 0);
    for (int r = 0; r < na; r++)
        for (int l = 0; l < 64; l++)
            w->v[RA + r][l] = w->v[RB + r][l] = 0x3c003c00; /* 1.0, 1.0 */
    for (int r = 0; r < 8; r++)
        for (int l = 0; l < 64; l++)
            w->v[RC + r][l] = 0;
}

/* Inf x 0 in one product: that D element is NaN, the others are finite. */
static void t_nan(const char *arch, int g12) {
    int na = g12 ? 4 : 8;
    ones(na);
    /* A[0][0] = +inf: lane 0, register 0, low half (both targets); B[0][0] = 0 */
    w->v[RA][0] = 0x3c007c00;
    if (!g12)
        w->v[RA][16] = 0x3c007c00;
    w->v[RB][0] = 0x3c000000;
    if (!g12)
        w->v[RB][16] = 0x3c000000;
    char text[128];
    snprintf(text, sizeof text, "v_wmma_f32_16x16x16_f16 v[0:7], v[%d:%d], v[%d:%d], v[72:79]", RA,
             RA + na - 1, RB, RB + na - 1);
    CHECK(run_snippet(w, arch, text) == WAVE_DONE, "%s nan run", arch);
    /* D[0][0] (register 0, lane 0 on both targets) = inf*0 + ... = NaN; D[0][1] = inf;
     * D[1][0] = 0 + 15 (row 1 has no inf, B column 0 has a 0 in k = 0) */
    float d00, d01;
    memcpy(&d00, &w->v[0][0], 4);
    memcpy(&d01, &w->v[0][1], 4);
    unsigned r10 = g12 ? 1 : 0, l10 = g12 ? 0 : 16;
    float d10;
    memcpy(&d10, &w->v[r10][l10], 4);
    CHECK(w->v[0][0] == 0xffc00000u && isinf(d01) && d01 > 0 && d10 == 15.0f,
          "%s inf*0: D00 %08x D01 %g D10 %g (want the default NaN ffc00000, inf, 15)", arch,
          w->v[0][0], d01, d10);
    (void)d00;

    /* Two NaNs meeting: C[1][1] a NaN with a payload and A[1][0] the f16 NaN 0x7e01 (A row 1:
     * lane 1, register 0, low half on both targets; gfx11's copy in lane 17).  D[1][1] and
     * D[1][2] (A's NaN alone) are the default NaN, not C's or A's payload; D[0][0] = 16. */
    ones(na);
    w->v[RA][1] = 0x3c007e01;
    if (!g12)
        w->v[RA][17] = 0x3c007e01;
    unsigned r11 = g12 ? 1 : 0, l11 = g12 ? 1 : 17, l12 = g12 ? 2 : 18;
    w->v[RC + r11][l11] = 0x7fc12345u;
    CHECK(run_snippet(w, arch, text) == WAVE_DONE, "%s two-NaN run", arch);
    CHECK(w->v[r11][l11] == 0xffc00000u && w->v[r11][l12] == 0xffc00000u &&
              w->v[0][0] == 0x41800000u,
          "%s NaNs: D11 %08x D12 %08x D00 %08x (want ffc00000, ffc00000, 41800000)", arch,
          w->v[r11][l11], w->v[r11][l12], w->v[0][0]);
}

/* gfx11 iu8 with a neg_hi bit: LLVM encodes it, the RDNA3 ISA gives it no meaning for integer
 * WMMA ("must be zero"): refused by name rather than guessed. */
static void t_refused(void) {
    snippet_rig_reset(&rig, 0xffffffffull, 0);
    int st = run_snippet(w, "gfx1100",
                         "v_wmma_i32_16x16x16_iu8 v[0:7], v[8:11], v[16:19], "
                         "v[24:31] neg_hi:[1,0,0]");
    CHECK(st == WAVE_FAULT && w->fault.kind == XF_UNIMPLEMENTED &&
              w->fault.op == ISA_OPL_v_wmma_i32_16x16x16_iu8,
          "iu8 neg_hi: status %d kind %d", st, w->fault.kind);
}

/* SWMMAC (gfx12): random stored A values, B, C (= the old D) and a random index VGPR whose
 * 4-bit entries name two different positions of each group of four k; every index_key set. */
enum { RI = 100 }; /* the index VGPR */
static int run_sp(int w64, const wref_op *op, int key, const char *mods, const wref_mods *m) {
    int lanes = w64 ? 64 : 32;
    int na = wref_sp_a_regs(op, w64), nb = wref_ab_regs(op, 1, w64, op->tb);
    int nc = wref_cd_regs(op, 1, w64);
    snippet_rig_reset(&rig, w64 ? ~0ull : 0xffffffffull, 0);
    fill_ab(RA, na, op->ta, 1, lanes);
    fill_ab(RB, nb, op->tb, 1, lanes);
    fill_c(op, nc);
    for (int r = 0; r < nc; r++) /* C is the destination */
        for (int l = 0; l < 64; l++)
            w->v[RD + r][l] = w->v[RC + r][l];
    for (int l = 0; l < 64; l++) {
        uint32_t x = 0;
        for (int n = 0; n < 8; n++) {
            unsigned p0 = rnd() % 4, p1 = (p0 + 1 + rnd() % 3) % 4;
            x |= (p0 | p1 << 2) << (4 * n);
        }
        w->v[RI][l] = x;
    }
    static uint32_t a[8][64], b[8][64], d[8][64], idx[64];
    memcpy(a, w->v[RA], sizeof a);
    memcpy(b, w->v[RB], sizeof b);
    memcpy(d, w->v[RD], sizeof d);
    memcpy(idx, w->v[RI], sizeof idx);
    wref_sp_run(op, w64, m, key, (const uint32_t (*)[64])a, (const uint32_t (*)[64])b, idx, d);
    char ta[32], tb[32], td[32], text[256], full[48];
    regs_text(ta, sizeof ta, RA, na);
    regs_text(tb, sizeof tb, RB, nb);
    regs_text(td, sizeof td, RD, nc);
    char ik[32] = ""; /* an op with one index set takes no index_key */
    if (32 / (4 * wref_sp_groups(op, w64)) > 1)
        snprintf(ik, sizeof ik, "index_key:%d", key);
    snprintf(text, sizeof text, "%s %s, %s, %s, v%d %s %s", op->name, td, ta, tb, RI, ik, mods);
    snprintf(full, sizeof full, "gfx1201%s", w64 ? ":wavefrontsize64" : "");
    int st = run_snippet(w, full, text);
    if (st != WAVE_DONE) {
        printf("  %s '%s': status %d fault %d %s\n", full, text, st, w->fault.kind,
               w->fault.note ? w->fault.note : "");
        return -1;
    }
    int bad = 0;
    for (int r = 0; r < nc; r++)
        for (int l = 0; l < lanes; l++)
            if (w->v[RD + r][l] != d[r][l] && bad++ < 3)
                printf("  %s '%s': v%d lane %d = %08x, want %08x\n", full, text, RD + r, l,
                       w->v[RD + r][l], d[r][l]);
    return bad;
}

static void t_sparse(void) {
    for (int w64 = 0; w64 < 2; w64++)
        for (size_t i = 0; i < sizeof wref_sp_ops / sizeof wref_sp_ops[0]; i++) {
            const wref_op *op = &wref_sp_ops[i];
            /* wave64 16- and 8-bit ops have four index sets, but the RDNA decoder reads one
             * index_key bit (index_key:2 and :3 are illegal words there so far): sets 0 and 1.
             * The emulator reads any set (wmma.c sparse_index) */
            int nkeys = 32 / (4 * wref_sp_groups(op, w64));
            nkeys = nkeys > 2 ? 2 : nkeys;
            if (op->k == 64) /* wave64 has two sets; the decoder knows no index_key for it */
                nkeys = 1;
            int ints = op->to == WR_OI32, f8 = op->ta == WR_FP8 || op->ta == WR_BF8;
            wref_mods m0 = {0, 0, 0, 0};
            for (int key = 0; key < nkeys; key++)
                for (int rep = 0; rep < 2; rep++)
                    CHECK(run_sp(w64, op, key, "", &m0) == 0, "w%d %s index_key:%d", w64 ? 64 : 32,
                          op->name, key);
            if (ints) {
                wref_mods ms = {3, 0, 0, 0}, mb = {2, 0, 0, 0};
                CHECK(run_sp(w64, op, 0, "neg_lo:[1,1,0]", &ms) == 0, "w%d %s signed A, B",
                      w64 ? 64 : 32, op->name);
                CHECK(run_sp(w64, op, 0, "neg_lo:[0,1,0]", &mb) == 0, "w%d %s signed B",
                      w64 ? 64 : 32, op->name);
            } else if (!f8) {
                wref_mods mn = {1, 2, 0, 0};
                CHECK(run_sp(w64, op, nkeys - 1, "neg_lo:[1,0,0] neg_hi:[0,1,0]", &mn) == 0,
                      "w%d %s neg", w64 ? 64 : 32, op->name);
            }
        }
}

int main(void) {
    if (snippet_rig_open(&rig) != 0)
        return 1;
    t_ops("gfx1100", 0);
    t_ops("gfx1201", 1);
    t_clamp("gfx1100", 0);
    t_clamp("gfx1201", 1);
    t_nan("gfx1100", 0);
    t_nan("gfx1201", 1);
    t_refused();
    t_sparse();
    snippet_rig_close(&rig);
    return check_summary("test_wmma");
}
