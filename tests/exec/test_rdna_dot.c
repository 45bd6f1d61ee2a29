/* test_rdna_dot.c - the RDNA dot-product and mixed-precision ops (src/exec/rdna_vop3p.c and the
 * v_fma_mix / unsigned dot RUN rows of src/exec/rdna.c) on llvm-mc-22 snippets, gfx1100 and
 * gfx1201, wave32 with EXEC on lanes 16-31 only and wave64 with EXEC on lanes 16-47.
 *
 * Expected values are worked out by hand from the RDNA3/RDNA4 ISA pseudocode (the element
 * products, NEG[0]/NEG[1] as the iu8/iu4 signedness, op_sel/op_sel_hi/neg_lo/neg_hi, clamp) and
 * written as bit patterns with the arithmetic beside them.  Two cases pin modelling choices the
 * manuals leave open (src/exec/rdna_vop3p.c): the dot sum is rounded once, and an f32 S2 is
 * negated by neg_lo[2] together with neg_hi[2] (either alone faults). */
#include "common/check.h"
#include "common/snippet.h"
#include "exec/exec.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static snippet_rig rig;
static wave *const w = &rig.wv;

static int wave64(const char *a) { return strstr(a, "wavefrontsize64") != NULL; }

/* Run text with v1, v2, v6 set in every lane and vd = init; check vd in the active lanes
 * (16-31 in wave32, 16-47 in wave64) and that the others kept init. */
static void run(const char *a, const char *text, uint32_t v1, uint32_t v2, uint32_t v6, unsigned vd,
                uint32_t init, uint32_t want) {
    uint64_t ex = wave64(a) ? 0x0000ffffffff0000ull : 0xffff0000ull;
    snippet_rig_reset(&rig, ex, 0xf0); /* f16/f64 and f32 denormals kept, IEEE off */
    for (unsigned l = 0; l < 64; l++) {
        w->v[1][l] = v1;
        w->v[2][l] = v2;
        w->v[6][l] = v6;
        w->v[vd][l] = init;
    }
    int st = run_snippet(w, a, text);
    int bad = 0;
    for (unsigned l = 0; l < 64; l++)
        bad += w->v[vd][l] != ((ex >> l) & 1 ? want : init);
    CHECK(st == WAVE_DONE && bad == 0,
          "%s '%s': status %d, %d lanes wrong, lane 16 = %08x (want %08x)", a, text, st, bad,
          w->v[vd][16], want);
}
static void one(const char *a, const char *text, uint32_t v1, uint32_t v2, uint32_t v6, unsigned vd,
                uint32_t want) {
    run(a, text, v1, v2, v6, vd, 0x55, want);
}
/* text must stop the wave with a fault whose note names the reason */
static void faults(const char *a, const char *text, const char *why) {
    snippet_rig_reset(&rig, ~0ull, 0);
    int st = run_snippet(w, a, text);
    CHECK(st == WAVE_FAULT && w->fault.note && strstr(w->fault.note, why),
          "%s '%s': status %d, note '%s' (want a fault naming '%s')", a, text, st,
          w->fault.note ? w->fault.note : "", why);
}

/* f16: 1.0 0x3c00, 2.0 0x4000, 3.0 0x4200, 4.0 0x4400, 0.5 0x3800, 0.75 0x3a00, 2048 0x6800.
 * f32: 0.5 0x3f000000, 1.0 0x3f800000.  bf16: 1.0 0x3f80, 2.0 0x4000, 3.0 0x4040, 4.0 0x4080. */
static void t_dot2(const char *a) {
    /* 1*3 + 2*4 + 0.5 = 11.5 (0x41380000) */
    one(a, "v_dot2_f32_f16 v3, v1, v2, v6", 0x40003c00, 0x44004200, 0x3f000000, 3, 0x41380000);
    /* neg_lo:[1,0,0]: -1*3 + 2*4 + 0.5 = 5.5 (0x40b00000) */
    one(a, "v_dot2_f32_f16 v3, v1, v2, v6 neg_lo:[1,0,0]", 0x40003c00, 0x44004200, 0x3f000000, 3,
        0x40b00000);
    /* neg_hi:[0,1,0]: 1*3 + 2*-4 + 0.5 = -4.5 (0xc0900000) */
    one(a, "v_dot2_f32_f16 v3, v1, v2, v6 neg_hi:[0,1,0]", 0x40003c00, 0x44004200, 0x3f000000, 3,
        0xc0900000);
    /* S2 negated (clang-22's spelling of fdot2(a, b, -c)): 11 - 0.5 = 10.5 (0x41280000) */
    one(a, "v_dot2_f32_f16 v3, v1, v2, v6 neg_lo:[0,0,1] neg_hi:[0,0,1]", 0x40003c00, 0x44004200,
        0x3f000000, 3, 0x41280000);
    /* op_sel:[1,0,0] op_sel_hi:[0,1,1]: the low product takes src0's high half and the high one
     * its low half: 2*3 + 1*4 + 0.5 = 10.5 */
    one(a, "v_dot2_f32_f16 v3, v1, v2, v6 op_sel:[1,0,0] op_sel_hi:[0,1,1]", 0x40003c00, 0x44004200,
        0x3f000000, 3, 0x41280000);
    /* clamp: 11.5 -> 1.0; -4.5 -> 0 */
    one(a, "v_dot2_f32_f16 v3, v1, v2, v6 clamp", 0x40003c00, 0x44004200, 0x3f000000, 3,
        0x3f800000);
    one(a, "v_dot2_f32_f16 v3, v1, v2, v6 neg_hi:[0,1,0] clamp", 0x40003c00, 0x44004200, 0x3f000000,
        3, 0);
    /* an inline constant S2 is its f32 value: 11 + 1.0 = 12 (0x41400000) */
    one(a, "v_dot2_f32_f16 v3, v1, v2, 1.0", 0x40003c00, 0x44004200, 0, 3, 0x41400000);
    /* an f16 denormal is a number: 2^-24 * 1.0 + 0 * 0 + 0 = 2^-24 (0x33800000) */
    one(a, "v_dot2_f32_f16 v3, v1, v2, v6", 0x00000001, 0x00003c00, 0, 3, 0x33800000);
    /* 256 * 256 + 256 * 256 + 0 = 131072 (0x48000000): f16 256 = 0x5c00 */
    one(a, "v_dot2_f32_f16 v3, v1, v2, v6", 0x5c005c00, 0x5c005c00, 0, 3, 0x48000000);
    /* a quiet NaN half (0x7e00) gives the quiet NaN 0x7fc00000 (the f16 NaN widened) */
    one(a, "v_dot2_f32_f16 v3, v1, v2, v6", 0x3c003c00, 0x3c007e00, 0, 3, 0x7fc00000);
    /* modelling choice: one rounding.  1.0 + 2^-24 + 2^-24 = 1 + 2^-23 (0x3f800001) exactly;
     * adding one product at a time in f32 would round twice to 1.0.  f16 2^-12 = 0x0c00 */
    one(a, "v_dot2_f32_f16 v3, v1, v2, v6", 0x0c000c00, 0x0c000c00, 0x3f800000, 3, 0x3f800001);
    faults(a, "v_dot2_f32_f16 v3, v1, v2, v6 neg_lo:[0,0,1]", "neg_lo[2]");
    faults(a, "v_dot2_f32_f16 v3, v1, v2, v6 op_sel:[0,0,1]", "op_sel[2]");

    /* bf16: 1*3 + 2*4 + 0.5 = 11.5; neg_hi:[0,1,0]: 3 - 8 + 0.5 = -4.5 */
    one(a, "v_dot2_f32_bf16 v3, v1, v2, v6", 0x40003f80, 0x40804040, 0x3f000000, 3, 0x41380000);
    one(a, "v_dot2_f32_bf16 v3, v1, v2, v6 neg_hi:[0,1,0]", 0x40003f80, 0x40804040, 0x3f000000, 3,
        0xc0900000);
    /* bf16 keeps f32's range: 2^100 * 2^100 overflows f32 to +inf (bf16 2^100 = 0x71800000>>16
     * = 0x7180) */
    one(a, "v_dot2_f32_bf16 v3, v1, v2, v6", 0x00007180, 0x00007180, 0, 3, 0x7f800000);

    /* VOP3 f16 result: 1*3 + 2*4 + 0.5 = 11.5 = f16 0x49c0; the high half is kept */
    run(a, "v_dot2_f16_f16 v3, v1, v2, v6", 0x40003c00, 0x44004200, 0x00003800, 3, 0xdead0000,
        0xdead49c0);
    /* op_sel:[0,0,1,1]: S2 from the high half, the result to the high half (low half kept) */
    run(a, "v_dot2_f16_f16 v3, v1, v2, v6 op_sel:[0,0,1,1]", 0x40003c00, 0x44004200, 0x38000000, 3,
        0x0000beef, 0x49c0beef);
    /* -S0 negates both halves: -(3 + 8) + 0.5 = -10.5 = 0xc940; |S2| of -0.5 (0xb800) is 0.5 */
    run(a, "v_dot2_f16_f16 v3, -v1, v2, |v6|", 0x40003c00, 0x44004200, 0x0000b800, 3, 0, 0xc940);
    /* modelling choice: one rounding.  2048 + 0.75 + 0.5 = 2049.25 -> 2050 (0x6801, f16 spacing
     * 2 there); rounding after each addition would give 2048 */
    run(a, "v_dot2_f16_f16 v3, v1, v2, v6", 0x38003a00, 0x3c003c00, 0x00006800, 3, 0, 0x6801);
    /* bf16 result: 11.5 = bf16 0x4138 */
    run(a, "v_dot2_bf16_bf16 v3, v1, v2, v6", 0x40003f80, 0x40804040, 0x00003f00, 3, 0xdead0000,
        0xdead4138);
}

/* The iu8/iu4 inputs of the first cases (and the v_fma_mix abs-of-an-f16-S2 case below) are
 * also hardware-verified RDNA3 cases (tinygrad test/amd/hw/test_vop3p.py: 4, -8, -8, 1020, 8),
 * here with an S2 added and in partial EXEC. */
static void t_int(const char *a) {
    /* iu8, both signed (neg_lo:[1,1,0]): bytes 0x04, 0x03, 0xfe, 0xff of S0 are 4, 3, -2, -1;
     * S1 all 1: 4 + 3 - 2 - 1 = 4, + S2 100 = 104 */
    one(a, "v_dot4_i32_iu8 v3, v1, v2, v6 neg_lo:[1,1,0]", 0xfffe0304, 0x01010101, 100, 3, 104);
    /* S0 signed only: -1 * 2 four times = -8 */
    one(a, "v_dot4_i32_iu8 v3, v1, v2, v6 neg_lo:[1,0,0]", 0xffffffff, 0x02020202, 0, 3,
        (uint32_t)-8);
    /* S1 signed only: 2 * -1 four times = -8 */
    one(a, "v_dot4_i32_iu8 v3, v1, v2, v6 neg_lo:[0,1,0]", 0x02020202, 0xffffffff, 0, 3,
        (uint32_t)-8);
    /* both unsigned: 255 * 1 four times = 1020 */
    one(a, "v_dot4_i32_iu8 v3, v1, v2, v6", 0xffffffff, 0x01010101, 0, 3, 1020);
    /* 0x7fffffff + 4 * 127 * 127 (64516) wraps to 0x8000fc03; clamp saturates to 0x7fffffff */
    one(a, "v_dot4_i32_iu8 v3, v1, v2, v6", 0x7f7f7f7f, 0x7f7f7f7f, 0x7fffffff, 3, 0x8000fc03);
    one(a, "v_dot4_i32_iu8 v3, v1, v2, v6 clamp", 0x7f7f7f7f, 0x7f7f7f7f, 0x7fffffff, 3,
        0x7fffffff);
    /* clamp below: -128 * 127 * 4 = -65024 added to INT32_MIN saturates at 0x80000000 */
    one(a, "v_dot4_i32_iu8 v3, v1, v2, v6 neg_lo:[1,0,0] clamp", 0x80808080, 0x7f7f7f7f, 0x80000000,
        3, 0x80000000);
    /* iu4: nibbles of 0xfe34fe34 are 4, 3, -2, -1 twice (signed), all of S1 are 1: 2 * 4 = 8 */
    one(a, "v_dot8_i32_iu4 v3, v1, v2, v6 neg_lo:[1,1,0]", 0xfe34fe34, 0x11111111, 0, 3, 8);
    /* unsigned: (4 + 3 + 14 + 15) * 2 = 72 */
    one(a, "v_dot8_i32_iu4 v3, v1, v2, v6", 0xfe34fe34, 0x11111111, 0, 3, 72);
    /* S0 signed, S1 unsigned 15s: 8 * 15 = 120 */
    one(a, "v_dot8_i32_iu4 v3, v1, v2, v6 neg_lo:[1,0,0]", 0xfe34fe34, 0xffffffff, 0, 3, 120);
    /* u8: 255 * 255 * 4 = 260100 (0x3f804) + 0xffff0000 wraps to 0x0002f804; clamp 0xffffffff */
    one(a, "v_dot4_u32_u8 v3, v1, v2, v6", 0xffffffff, 0xffffffff, 0xffff0000, 3, 0x0002f804);
    one(a, "v_dot4_u32_u8 v3, v1, v2, v6 clamp", 0xffffffff, 0xffffffff, 0xffff0000, 3, 0xffffffff);
    /* u4: nibbles 8..1 of 0x12345678 times 1: 36 */
    one(a, "v_dot8_u32_u4 v3, v1, v2, v6", 0x12345678, 0x11111111, 0, 3, 36);
}

/* gfx12 fp8 (E4M3: 0.5 0x30, 1.0 0x38, 2.0 0x40) and bf8 (E5M2: 1.0 0x3c, -1.0 0xbc, 2.0 0x40) */
static void t_fp8(const char *a) {
    /* bytes 0.5, 1, 1, 2 times 1: 4.5, + 0.5 = 5 (0x40a00000) */
    one(a, "v_dot4_f32_fp8_fp8 v3, v1, v2, v6", 0x40383830, 0x38383838, 0x3f000000, 3, 0x40a00000);
    /* 0.5 * 2 + 1 * 1 + 1 * -1 + 2 * 1 = 3, + 0.5 = 3.5 (0x40600000) */
    one(a, "v_dot4_f32_fp8_bf8 v3, v1, v2, v6", 0x40383830, 0x3cbc3c40, 0x3f000000, 3, 0x40600000);
    one(a, "v_dot4_f32_bf8_fp8 v3, v1, v2, v6", 0x3cbc3c40, 0x40383830, 0x3f000000, 3, 0x40600000);
    /* 4 + 1 + 1 + 1 = 7, + 0.5 = 7.5 (0x40f00000) */
    one(a, "v_dot4_f32_bf8_bf8 v3, v1, v2, v6", 0x3cbc3c40, 0x3cbc3c40, 0x3f000000, 3, 0x40f00000);
    /* S2 negated: 4.5 - 0.5 = 4 (0x40800000) */
    one(a, "v_dot4_f32_fp8_fp8 v3, v1, v2, v6 neg_lo:[0,0,1] neg_hi:[0,0,1]", 0x40383830,
        0x38383838, 0x3f000000, 3, 0x40800000);
    /* fp8 448 (0x7e) * 448 = 200704 exactly: 0x48440000 */
    one(a, "v_dot4_f32_fp8_fp8 v3, v1, v2, v6", 0x0000007e, 0x0000007e, 0, 3, 0x48440000);
    /* bf8 inf (0x7c) * 1 = inf */
    one(a, "v_dot4_f32_bf8_bf8 v3, v1, v2, v6", 0x0000007c, 0x0000003c, 0, 3, 0x7f800000);
}

/* v_fma_mix*: op_sel_hi[i] = 0 reads source i as f32, else the f16 half op_sel[i] picks; the
 * neg_hi bits are abs (LLVM spells them |v|). */
static void t_mix(const char *a) {
    /* f32: 2 * 3 + 1 = 7 */
    one(a, "v_fma_mix_f32 v3, v1, v2, v6", 0x40000000, 0x40400000, 0x3f800000, 3, 0x40e00000);
    /* S2 the f16 -1.0 in the high half, with abs: 6 + 1 = 7 */
    one(a, "v_fma_mix_f32 v3, v1, v2, |v6| op_sel:[0,0,1] op_sel_hi:[0,0,1]", 0x40000000,
        0x40400000, 0xbc000000, 3, 0x40e00000);
    /* S0 the f16 low half 2.0 negated: -2 * 3 + 1 = -5 (0xc0a00000) */
    one(a, "v_fma_mix_f32 v3, -v1, v2, v6 op_sel_hi:[1,0,0]", 0x00004000, 0x40400000, 0x3f800000, 3,
        0xc0a00000);
    /* clamp: 7 -> 1 */
    one(a, "v_fma_mix_f32 v3, v1, v2, v6 clamp", 0x40000000, 0x40400000, 0x3f800000, 3, 0x3f800000);
    /* mixlo/mixhi: 7 = f16 0x4700 into one half, the other kept */
    run(a, "v_fma_mixlo_f16 v3, v1, v2, v6", 0x40000000, 0x40400000, 0x3f800000, 3, 0xdead0000,
        0xdead4700);
    run(a, "v_fma_mixhi_f16 v3, v1, v2, v6", 0x40000000, 0x40400000, 0x3f800000, 3, 0x0000beef,
        0x4700beef);
    /* one rounding to f16: 1 * 2049 + 2^-20 is just above the tie 2049 between 2048 and 2050,
     * so it rounds up to 2050 (0x6801); rounding to f32 first would give the tie and then 2048.
     * f32 2049 = 0x45001000, 2^-20 = 0x35800000 */
    run(a, "v_fma_mixlo_f16 v3, v1, v2, v6", 0x3f800000, 0x45001000, 0x35800000, 3, 0, 0x6801);
}

/* DPP16 on VOP3P (gfx11 and gfx12 have _e64_dpp forms of v_fma_mix* and the f16/bf16 dots):
 * both run through the VALU framework's DPP fetch; lane l reads src0 from lane l ^ 1
 * (quad_perm:[1,0,3,2]).  v_fma_mix: v1 = f32(l), v2 = 1.0, v6 = 0: D = f32(l ^ 1). */
static void t_dpp(const char *a) {
    snippet_rig_reset(&rig, 0xffff0000ull, 0);
    for (unsigned l = 0; l < 64; l++) {
        float f = (float)l;
        memcpy(&w->v[1][l], &f, 4);
        w->v[2][l] = 0x3f800000;
        w->v[6][l] = 0;
        w->v[3][l] = 0x55;
    }
    int st = run_snippet(w, a,
                         "v_fma_mix_f32_e64_dpp v3, v1, v2, v6 quad_perm:[1,0,3,2] "
                         "row_mask:0xf bank_mask:0xf");
    int bad = 0;
    for (unsigned l = 0; l < 64; l++) {
        float f = (float)(l ^ 1);
        uint32_t want;
        memcpy(&want, &f, 4);
        bad += w->v[3][l] != (l >= 16 && l < 32 ? want : 0x55u);
    }
    CHECK(st == WAVE_DONE && bad == 0, "%s v_fma_mix_f32 DPP: status %d, %d lanes wrong", a, st,
          bad);
    /* the dots fetch through the framework too: lane l's products use src0 of lane l ^ 1.
     * v1 = {f16 l ^ 0 ...}: lo half = f16(l), hi half 0; v2 = {1.0, 0}; v6 = 0.5 -> l ^ 1 + 0.5 */
    snippet_rig_reset(&rig, 0xffff0000ull, 0);
    for (unsigned l = 0; l < 64; l++) {
        _Float16 h = (_Float16)l;
        uint16_t hb;
        memcpy(&hb, &h, 2);
        w->v[1][l] = hb;
        w->v[2][l] = 0x3c00;
        w->v[6][l] = 0x3f000000;
        w->v[3][l] = 0x55;
    }
    st = run_snippet(w, a,
                     "v_dot2_f32_f16_e64_dpp v3, v1, v2, v6 quad_perm:[1,0,3,2] "
                     "row_mask:0xf bank_mask:0xf");
    bad = 0;
    for (unsigned l = 0; l < 64; l++) {
        float f = (float)(l ^ 1) + 0.5f;
        uint32_t want;
        memcpy(&want, &f, 4);
        bad += w->v[3][l] != (l >= 16 && l < 32 ? want : 0x55u);
    }
    CHECK(st == WAVE_DONE && bad == 0, "%s v_dot2_f32_f16 DPP: status %d, %d lanes wrong", a, st,
          bad);
}

int main(void) {
    if (snippet_rig_open(&rig) != 0)
        return 1;
    const char *arch[] = {"gfx1100", "gfx1201", "gfx1100:wavefrontsize64",
                          "gfx1201:wavefrontsize64"};
    for (int i = 0; i < 4; i++) {
        t_dot2(arch[i]);
        t_int(arch[i]);
        t_mix(arch[i]);
    }
    t_fp8("gfx1201");
    t_dpp("gfx1100");
    t_dpp("gfx1201");
    t_fp8("gfx1201:wavefrontsize64");
    /* gfx11's VOP2 accumulate form: D = 1*3 + 2*4 + D (0.5) = 11.5 */
    run("gfx1100", "v_dot2acc_f32_f16 v3, v1, v2", 0x40003c00, 0x44004200, 0, 3, 0x3f000000,
        0x41380000);
    /* VOPD (both targets, wave32 only): X accumulates into v3 while Y copies v3, which must read
     * the value from before X wrote (RDNA3 ISA "VOPD": sources are read before results are written)
     */
    for (int i = 0; i < 2; i++) {
        run(arch[i], "v_dual_dot2acc_f32_f16 v3, v1, v2 :: v_dual_mov_b32 v4, v3", 0x40003c00,
            0x44004200, 0, 3, 0x3f000000, 0x41380000);
        CHECK(w->v[4][16] == 0x3f000000 && w->v[4][0] == 0,
              "%s VOPD dot2acc/mov: v4 lane 16 = %08x (want the old v3 0x3f000000)", arch[i],
              w->v[4][16]);
    }
    snippet_rig_close(&rig);
    return check_summary("test_rdna_dot");
}
