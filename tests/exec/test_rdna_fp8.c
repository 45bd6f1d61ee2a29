/* test_rdna_fp8.c - gfx1201 (RDNA4) fp8/bf8 conversions on llvm-mc-22 snippets, wave32, lanes
 * partly off: v_cvt_f32_fp8/bf8 (VOP1, VOP3 byte_sel, DPP16, DPP8, VOP3 DPP), v_cvt_pk_f32_fp8/bf8
 * (VOP1, VOP3 op_sel), v_cvt_pk_fp8/bf8_f32 (VOP3 op_sel, neg/abs, VOP3 DPP16/DPP8) and
 * v_cvt_sr_fp8/bf8_f32 (byte_sel, VOP3 DPP16/DPP8).  RDNA4 uses the OCP formats (fp8 = E4M3FN,
 * bf8 = E5M2); the expected values come from the C reference in common/fp8_ref.h, none from a
 * gfxemu run.  Modelling choices the test pins (the RDNA4 manual's text was not at hand; they
 * are gfx950's, whose formats RDNA4 shares): out-of-range and infinite inputs give NaN for fp8
 * and +-inf for bf8 (gfx12 has no clamp bit on these ops: LLVM rejects it); NaN results are
 * checked as "some NaN code of the format"; f32 -> 8-bit rounds to nearest even, and under another
 * MODE.FP_ROUND it stops as unimplemented naming the mode (src/exec/round.c: the directed
 * semantics are not written down), while 8-bit -> f32 is exact and runs; v_cvt_sr_* rounds away
 * from zero iff the dropped fraction plus S1 * 2^-32 (S1 a fraction just below the kept lsb)
 * reaches one lsb. */
#include "common/bits.h"
#include "common/check.h"
#include "common/fp8_ref.h"
#include "common/snippet.h"
#include "exec/exec.h"

#include <math.h>
#include <stdio.h>
#include <string.h>

static snippet_rig rig;
static wave *const w = &rig.wv;

#define ARCH "gfx1201"
#define OFF 0x00ff00ffu /* EXEC: lanes 8-15 and 24-31 off (pairs l, l^1 share their state) */
#define OLD3 0xdeadbeefu
#define OLD4 0xcafef00du

/* ---- runner -------------------------------------------------------------------------------- */
/* in[l][3] -> v0, v1, v2 of lane l; v3/v4 = OLD3/OLD4; EXEC = OFF; run; active lanes must hold
 * want3/want4 (want4 NULL: v4 kept), inactive lanes OLD3/OLD4.  f32 results compare as "same
 * bits or both NaN"; byte results with nan8 set compare NaN codes as equal (see bytes_eq). */
static const fmt8 *nan8; /* the byte format of v3's result, NULL for f32 results */
static int bytes_eq(uint32_t got, uint32_t want) {
    const fmt8 *const fs[4] = {nan8, nan8, nan8, nan8};
    return word8_eq(got, want, fs);
}
static int word_eq(uint32_t got, uint32_t want) {
    if (nan8)
        return bytes_eq(got, want);
    return got == want || (isnan(from_bits32(got)) && isnan(from_bits32(want)));
}
static void run(const char *text, uint32_t in[64][3], const uint32_t *want3,
                const uint32_t *want4) {
    snippet_rig_lanes(&rig, 0, 0);
    for (unsigned l = 0; l < 64; l++) {
        w->v[0][l] = in[l][0], w->v[1][l] = in[l][1], w->v[2][l] = in[l][2];
        w->v[3][l] = OLD3, w->v[4][l] = OLD4;
    }
    wave_set_exec(w, OFF);
    CHECK(snippet_rig_run(&rig, ARCH, text) == WAVE_DONE, "'%s' ran", text);
    int bad = 0;
    for (unsigned l = 0; l < 64; l++) {
        int on = l < 32 && (OFF >> l & 1);
        uint32_t w3 = on ? want3[l] : OLD3, w4 = on && want4 ? want4[l] : OLD4;
        int ok3 = on ? word_eq(w->v[3][l], w3) : w->v[3][l] == w3;
        int ok4 = on && want4 ? word_eq(w->v[4][l], w4) : w->v[4][l] == w4;
        if ((!ok3 || !ok4) && bad++ < 4)
            printf("  '%s' lane %u: v3 %08x want %08x, v4 %08x want %08x\n", text, l, w->v[3][l],
                   w3, w->v[4][l], w4);
    }
    CHECK(bad == 0, "'%s'", text);
}

/* lane l's source word holds code c in byte sel and other codes elsewhere */
static uint32_t spread(unsigned c, unsigned sel, unsigned l) {
    uint32_t v = 0x5a3c96e1u ^ (l * 0x01010101u);
    return (v & ~(0xffu << 8 * sel)) | c << 8 * sel;
}

/* byte_sel:0 is the default, which the assembler wants left out */
static void drop_sel0(char *text) {
    char *p = strstr(text, " byte_sel:0");
    if (p)
        memmove(p, p + 11, strlen(p + 11) + 1);
}

/* v_cvt_f32_fp8/bf8: all 256 codes (8 runs of 32 lanes) in each byte_sel and form */
static void t_f32_f8(void) {
    static const struct {
        const char *fmt; /* %s = fp8/bf8, %u = byte */
        int dpp;         /* lane l reads lane l ^ 1 */
        int vop3;
    } forms[] = {
        {"v_cvt_f32_%s v3, v0", 0, 0},
        {"v_cvt_f32_%s_e64 v3, v0 byte_sel:%u", 0, 1},
        {"v_cvt_f32_%s_dpp v3, v0 quad_perm:[1,0,3,2] row_mask:0xf bank_mask:0xf", 1, 0},
        {"v_cvt_f32_%s_dpp v3, v0 dpp8:[1,0,3,2,5,4,7,6]", 1, 0},
        {"v_cvt_f32_%s_e64_dpp v3, v0 byte_sel:%u quad_perm:[1,0,3,2] row_mask:0xf "
         "bank_mask:0xf",
         1, 1},
        {"v_cvt_f32_%s_e64_dpp v3, v0 byte_sel:%u dpp8:[1,0,3,2,5,4,7,6]", 1, 1},
    };
    for (int bf = 0; bf < 2; bf++) {
        const fmt8 *f = bf ? &BF8 : &FP8;
        for (unsigned k = 0; k < sizeof forms / sizeof forms[0]; k++)
            for (unsigned sel = 0; sel < (forms[k].vop3 ? 4u : 1u); sel++) {
                char text[160];
                if (forms[k].vop3)
                    snprintf(text, sizeof text, forms[k].fmt, bf ? "bf8" : "fp8", sel);
                else
                    snprintf(text, sizeof text, forms[k].fmt, bf ? "bf8" : "fp8");
                drop_sel0(text);
                for (unsigned base = 0; base < 256; base += 32) {
                    uint32_t in[64][3] = {{0}}, want[64];
                    for (unsigned l = 0; l < 64; l++)
                        in[l][0] = spread((base + l) & 0xff, sel, l);
                    for (unsigned l = 0; l < 64; l++) {
                        unsigned src = forms[k].dpp ? l ^ 1 : l;
                        want[l] = f32_of((base + src) & 0xff, f);
                    }
                    nan8 = NULL;
                    run(text, in, want, NULL);
                }
            }
    }
}

/* v_cvt_pk_f32_fp8/bf8: v[3:4] = f32 of the word's two bytes; the word is op_sel[0] (VOP3) */
static void t_pk_f32_f8(void) {
    for (int bf = 0; bf < 2; bf++) {
        const fmt8 *f = bf ? &BF8 : &FP8;
        for (int hi = 0; hi < 3; hi++) { /* 0 VOP1, 1 VOP3 op_sel:[0,0], 2 VOP3 op_sel:[1,0] */
            char text[96];
            snprintf(text, sizeof text,
                     hi == 0 ? "v_cvt_pk_f32_%s v[3:4], v0"
                             : "v_cvt_pk_f32_%s_e64 v[3:4], v0 op_sel:[%d,0]",
                     bf ? "bf8" : "fp8", hi - 1);
            for (unsigned base = 0; base < 256; base += 32) {
                uint32_t in[64][3] = {{0}}, w3[64], w4[64];
                for (unsigned l = 0; l < 64; l++) {
                    unsigned c0 = (base + l) & 0xff, c1 = (c0 * 37 + 11) & 0xff;
                    unsigned word = c0 | c1 << 8;
                    in[l][0] = hi == 2 ? word << 16 | 0x7f7f : word | 0x7f7f0000u;
                    w3[l] = f32_of(c0, f), w4[l] = f32_of(c1, f);
                }
                nan8 = NULL;
                run(text, in, w3, w4);
            }
        }
    }
}

/* f32 edge values: zeros, both formats' denormals and their halfway points, ties in the normal
 * range, the maxima and the values either side of their overflow thresholds, infinities, NaN */
static const uint32_t edges[] = {0x00000000,
                                 0x80000000,
                                 0x3f800000,
                                 0xbf800000,
                                 0x3f000000,
                                 0x00000001,
                                 0x80400000,
                                 0x3b000000 /* 2^-9 fp8 min denormal */,
                                 0x3a800000 /* 2^-10: tie -> 0 */,
                                 0x3a800001 /* just above: -> 2^-9 */,
                                 0x3ac00000 /* 1.5 * 2^-10 -> 2^-9 */,
                                 0x3b400000 /* 1.5 * 2^-9: tie -> 2^-8 */,
                                 0x3c700000 /* 0.9375 * 2^-6: fp8 denormal max */,
                                 0x37800000 /* 2^-16 bf8 min denormal */,
                                 0x37000000 /* 2^-17 tie -> 0 */,
                                 0x37c00000 /* 1.5 * 2^-16: tie -> 2^-15 */,
                                 0xb7400000 /* -0.75 * 2^-16 */,
                                 0x3f880000 /* 1.0625: fp8 tie -> 1 */,
                                 0x3f980000 /* 1.1875: fp8 tie -> 1.25 */,
                                 0x3f900000 /* 1.125: bf8 tie -> 1 */,
                                 0x3fb00000 /* 1.375: bf8 tie -> 1.5 */,
                                 0x43e00000 /* 448 */,
                                 0xc3e00000,
                                 0x43e80000 /* 464: fp8 tie -> 448 */,
                                 0x43e80001 /* -> fp8 NaN */,
                                 0x43f00000 /* 480 */,
                                 0x47600000 /* 57344 */,
                                 0x47680000 /* 59392 -> 57344 */,
                                 0x476fffff /* -> 57344 */,
                                 0xc7700000 /* -61440: tie -> -inf */,
                                 0x7f7fffff,
                                 0x7f800000,
                                 0xff800000,
                                 0x7fc00000,
                                 0xffc00001,
                                 0x7f800001 /* sNaN */,
                                 0x40490fdb /* pi */,
                                 0xc2f6e979 /* -123.456 */,
                                 0x3e2aaaab /* 1/3 */};
#define NEDGE (sizeof edges / sizeof edges[0])

/* v_cvt_pk_fp8/bf8_f32: D.word[op_sel[3]] = {f8(S1), f8(S0)}, the other word kept */
static void t_pk_f8_f32(void) {
    static const struct {
        const char *fmt;
        int hi, neg0, abs1, dpp;
    } forms[] = {
        {"v_cvt_pk_%s_f32 v3, v0, v1", 0, 0, 0, 0},
        {"v_cvt_pk_%s_f32 v3, v0, v1 op_sel:[0,0,1]", 1, 0, 0, 0},
        {"v_cvt_pk_%s_f32 v3, -v0, |v1|", 0, 1, 1, 0},
        /* v_cvt_pk_{fp8,bf8}_f32_e64_dpp v3, v0, v1 op_sel:[0,0,1] quad_perm:[1,0,3,2]
         * row_mask:0xf bank_mask:0xf as llvm-mc-22 encodes it (gfxemu's assembler does not take
         * this form yet; %s picks the opcode byte) */
        {".long 0xd76%s4003, 0x000202fa, 0xff00b100", 1, 0, 0, 1},
        {"v_cvt_pk_%s_f32_e64_dpp v3, v0, v1 op_sel:[0,0,1] dpp8:[1,0,3,2,5,4,7,6]", 1, 0, 0, 2},
    };
    for (int bf = 0; bf < 2; bf++) {
        const fmt8 *f = bf ? &BF8 : &FP8;
        for (unsigned k = 0; k < sizeof forms / sizeof forms[0]; k++) {
            char text[160];
            if (forms[k].dpp == 1)
                snprintf(text, sizeof text, forms[k].fmt, bf ? "a" : "9");
            else
                snprintf(text, sizeof text, forms[k].fmt, bf ? "bf8" : "fp8");
            for (unsigned base = 0; base < NEDGE; base += 16) {
                uint32_t in[64][3] = {{0}}, want[64];
                for (unsigned l = 0; l < 64; l++) {
                    in[l][0] = edges[(base + l) % NEDGE];
                    in[l][1] = edges[(base + 7 * l + 3) % NEDGE];
                }
                for (unsigned l = 0; l < 64; l++) {
                    unsigned src = forms[k].dpp ? l ^ 1 : l; /* DPP moves src0 only */
                    float a = from_bits32(in[src][0]), b = from_bits32(in[l][1]);
                    if (forms[k].neg0)
                        a = from_bits32(in[src][0] ^ 0x80000000u);
                    if (forms[k].abs1)
                        b = from_bits32(in[l][1] & 0x7fffffffu);
                    uint32_t p = enc8(a, f, -1) | enc8(b, f, -1) << 8;
                    want[l] = forms[k].hi ? (OLD3 & 0xffff) | p << 16 : (OLD3 & 0xffff0000u) | p;
                }
                nan8 = f;
                run(text, in, want, NULL);
            }
        }
    }
}

/* v_cvt_sr_fp8/bf8_f32: D.byte[byte_sel] = f8(S0) rounded with the random S1, others kept */
static void t_sr_f8_f32(void) {
    static const uint32_t rnds[] = {0,           0xffffffffu, 0x80000000u,
                                    0x7fffffffu, 0x40000000u, 0x12345678u};
    static const char *const dpp[3] = {"", " quad_perm:[1,0,3,2] row_mask:0xf bank_mask:0xf",
                                       " dpp8:[1,0,3,2,5,4,7,6]"};
    for (int bf = 0; bf < 2; bf++) {
        const fmt8 *f = bf ? &BF8 : &FP8;
        for (unsigned k = 0; k < 6; k++) { /* byte_sel 0-3; DPP16 and DPP8 with byte_sel:2 */
            unsigned sel = k < 4 ? k : 2, d = k < 4 ? 0 : k - 3;
            char text[128];
            snprintf(text, sizeof text, "v_cvt_sr_%s_f32%s v3, v0, v1 byte_sel:%u%s",
                     bf ? "bf8" : "fp8", d ? "_e64_dpp" : "", sel, dpp[d]);
            drop_sel0(text);
            for (unsigned base = 0; base < NEDGE * 6; base += 32) {
                uint32_t in[64][3] = {{0}}, want[64];
                for (unsigned l = 0; l < 64; l++) {
                    unsigned i = (base + l) % (NEDGE * 6);
                    in[l][0] = edges[i % NEDGE];
                    in[l][1] = rnds[i / NEDGE];
                    /* values off both formats' grids, so the random value decides */
                    if (i % 5 == 4)
                        in[l][0] = 0x3fa12345u ^ (i << 13);
                }
                for (unsigned l = 0; l < 64; l++) {
                    unsigned src = d ? l ^ 1 : l; /* DPP moves src0 only */
                    uint32_t c = enc8(from_bits32(in[src][0]), f, in[l][1]);
                    want[l] = (OLD3 & ~(0xffu << 8 * sel)) | c << 8 * sel;
                }
                nan8 = f;
                run(text, in, want, NULL);
            }
        }
    }
}

/* the reference itself, against values worked out by hand */
static void t_reference(void) {
    CHECK(dec8(0x7e, &FP8) == 448 && dec8(0x01, &FP8) == ldexp(1, -9) && isnan(dec8(0xff, &FP8)) &&
              dec8(0x08, &FP8) == ldexp(1, -6) && dec8(0x80, &FP8) == 0 &&
              signbit(dec8(0x80, &FP8)),
          "fp8 reference decode");
    CHECK(dec8(0x7b, &BF8) == 57344 && dec8(0x7c, &BF8) == INFINITY && isnan(dec8(0x7d, &BF8)) &&
              dec8(0x01, &BF8) == ldexp(1, -16) && dec8(0xbc, &BF8) == -1,
          "bf8 reference decode");
    CHECK(enc8(448, &FP8, -1) == 0x7e && enc8(464, &FP8, -1) == 0x7e &&
              enc8(465, &FP8, -1) == 0x7f && enc8(1.0625f, &FP8, -1) == 0x38 &&
              enc8(1.1875f, &FP8, -1) == 0x3a && enc8(-0.0f, &FP8, -1) == 0x80 &&
              enc8(0x1p-10f, &FP8, -1) == 0 && enc8(0x1.8p-10f, &FP8, -1) == 1,
          "fp8 reference encode");
    CHECK(enc8(61440, &BF8, -1) == 0x7c && enc8(61439, &BF8, -1) == 0x7b &&
              enc8(59392, &BF8, -1) == 0x7b && enc8(-INFINITY, &BF8, -1) == 0xfc &&
              enc8(1.125f, &BF8, -1) == 0x3c && enc8(1.375f, &BF8, -1) == 0x3e,
          "bf8 reference encode");
    CHECK(enc8(1.0625f, &FP8, 0x80000000) == 0x39 && enc8(1.0625f, &FP8, 0x7fffffff) == 0x38 &&
              enc8(1.01f, &FP8, 0xffffffffu) == 0x39 && enc8(1.01f, &FP8, 0) == 0x38,
          "fp8 reference stochastic rounding");
}

/* MODE.FP_ROUND toward zero: the f32 -> 8-bit ops fault by name (no silent nearest-even
 * answer), the exact 8-bit -> f32 ops run */
static void t_mode(void) {
    static const char *const narrow[] = {"v_cvt_pk_fp8_f32 v3, v0, v1",
                                         "v_cvt_sr_bf8_f32 v3, v0, v1 byte_sel:1"};
    for (int i = 0; i < 2; i++) {
        snippet_rig_reset(&rig, OFF, 0xf3); /* f32 round bits 1:0 = 3, toward zero */
        w->v[0][0] = 0x3f880000u;           /* 1.0625: a tie, so the mode would matter */
        int st = run_snippet(w, ARCH, narrow[i]);
        CHECK(st != WAVE_DONE && w->fault.kind == XF_UNIMPLEMENTED && w->fault.note &&
                  strstr(w->fault.note, "toward zero"),
              "'%s' under round toward zero faults naming the mode", narrow[i]);
    }
    snippet_rig_reset(&rig, OFF, 0xf3);
    w->v[0][0] = 0x7b; /* bf8 57344 */
    CHECK(snippet_rig_run(&rig, ARCH, "v_cvt_f32_bf8 v3, v0") == WAVE_DONE &&
              w->v[3][0] == 0x47600000u,
          "v_cvt_f32_bf8 under round toward zero runs");
}

int main(void) {
    if (snippet_rig_open(&rig) != 0)
        return 1;
    t_reference();
    t_f32_f8();
    t_pk_f32_f8();
    t_pk_f8_f32();
    t_sr_f8_f32();
    t_mode();
    snippet_rig_close(&rig);
    return check_summary("test_rdna_fp8");
}
