/* test_rdna_gap3.c - the third list of RDNA ops that used to fault as unimplemented (issue 15's
 * survey), on llvm-mc-22 snippets for gfx1100 and gfx1201 in wave32, lanes partly off: the
 * cache and wait ops with nothing to do (s_gl1_inv, global_wbinv, s_prefetch_*, s_wait_idle,
 * v_pipeflush), v_add/sub_nc_i32 with clamp, v_xnor_b32, v_swap_b32, v_swap_b16, v_swaprel_b32,
 * v_movrelsd_2_b32, v_sad_u16, v_cvt_pk_u16/i16_f32, v_mullit_f32, v_cndmask_b16, v_not_b16,
 * v_fmaak/fmamk_f16, v_sat_pk_u8_i16, v_cvt_pk_norm_*_f16, v_pk_fmac_f16, v_qsad/mqsad,
 * s_pack_hl_b32_b16, s_bitcmp*, s_cmovk_i32, s_bitreplicate_b64_b32, s_movrels/movreld, s_call_b64,
 * VINTERP's p10/p2 f32 and f16 forms and gfx12's IEEE 754-2019 v_/s_minimum/maximum ops. Expected
 * values come from a C reference of the RDNA3/RDNA4 ISA pseudocode written here (the ref_*
 * functions), from values worked out by hand, or (marked "hardware") from tinygrad's test/amd/hw
 * cases verified on an RDNA3 GPU; none from a gfxemu run. */
#include "common/bits.h"
#include "common/check.h"
#include "common/snippet.h"
#include "exec/exec.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static snippet_rig rig;
static wave *const w = &rig.wv;

#define OFF 0x00ff00ffu /* EXEC: lanes 8-15 and 24-31 off */
#define OLD 0xdeadbeefu /* v3 before the instruction */

/* Lanes 0-31 get v0/v1/v2 = row l % n of in[][3], v3 = OLD; EXEC = OFF; run; v3 of an active
 * lane must be ref(row, old v3), of an inactive lane OLD. */
typedef uint32_t (*ref3)(uint32_t a, uint32_t b, uint32_t c, uint32_t old);
static void vcase(const char *arch, const char *text, const uint32_t (*in)[3], unsigned n,
                  ref3 ref) {
    snippet_rig_lanes(&rig, 0, 0);
    for (unsigned l = 0; l < 64; l++) {
        const uint32_t *r = in[l % n];
        w->v[0][l] = r[0], w->v[1][l] = r[1], w->v[2][l] = r[2], w->v[3][l] = OLD;
    }
    w->s[4] = 0x0f0f0f0fu; /* a lane mask for v_cndmask_b16 */
    wave_set_exec(w, OFF);
    CHECK(snippet_rig_run(&rig, arch, text) == WAVE_DONE, "%s '%s' ran", arch, text);
    int bad = 0;
    for (unsigned l = 0; l < 64; l++) {
        const uint32_t *r = in[l % n];
        uint32_t want = l < 32 && (OFF >> l & 1) ? ref(r[0], r[1], r[2], OLD) : OLD;
        if (w->v[3][l] != want && bad++ < 3)
            printf("  %s '%s' lane %u (row %u): v3 %08x want %08x\n", arch, text, l, l % n,
                   w->v[3][l], want);
    }
    CHECK(bad == 0, "%s '%s'", arch, text);
}
#define VCASE(arch, text, rows, ref) vcase(arch, text, rows, sizeof rows / sizeof rows[0], ref)

/* ---- integer ------------------------------------------------------------------------------ */
/* V_ADD_NC_I32 / V_SUB_NC_I32 (RDNA3 ISA VOP3): S0 +/- S1, clamp saturates to the i32 range */
static uint32_t ref_add_sat(uint32_t a, uint32_t b, uint32_t c, uint32_t o) {
    (void)c, (void)o;
    int64_t r = (int64_t)(int32_t)a + (int32_t)b;
    return (uint32_t)(r > INT32_MAX ? INT32_MAX : r < INT32_MIN ? INT32_MIN : r);
}
static uint32_t ref_sub_sat(uint32_t a, uint32_t b, uint32_t c, uint32_t o) {
    (void)c, (void)o;
    int64_t r = (int64_t)(int32_t)a - (int32_t)b;
    return (uint32_t)(r > INT32_MAX ? INT32_MAX : r < INT32_MIN ? INT32_MIN : r);
}
static uint32_t ref_add_wrap(uint32_t a, uint32_t b, uint32_t c, uint32_t o) {
    (void)c, (void)o;
    return a + b;
}
static uint32_t ref_xnor(uint32_t a, uint32_t b, uint32_t c, uint32_t o) {
    (void)c, (void)o;
    return ~(a ^ b);
}
/* V_SAD_U16: S2 + |S0.lo - S1.lo| + |S0.hi - S1.hi| (unsigned halves) */
static uint32_t ad(uint32_t x, uint32_t y) { return x > y ? x - y : y - x; }
static uint32_t ref_sad_u16(uint32_t a, uint32_t b, uint32_t c, uint32_t o) {
    (void)o;
    return c + ad(a & 0xffff, b & 0xffff) + ad(a >> 16, b >> 16);
}
static const uint32_t int_rows[][3] = {
    {0x7fffffff, 1, 0},
    {0x80000000, 0xffffffff, 0},
    {0x7ffffff0, 0x10, 5},
    {0xfffffffe, 0x80000001, 7},
    {100, 0xffffff9c, 0},
    {0x00030001, 0x00050002, 0},
    {0xffff0000, 0x0000ffff, 0xfffffff0},
};

static void t_int(const char *a) {
    VCASE(a, "v_add_nc_i32 v3, v0, v1 clamp", int_rows, ref_add_sat);
    VCASE(a, "v_sub_nc_i32 v3, v0, v1 clamp", int_rows, ref_sub_sat);
    VCASE(a, "v_add_nc_i32 v3, v0, v1", int_rows, ref_add_wrap);
    VCASE(a, "v_xnor_b32 v3, v0, v1", int_rows, ref_xnor);
    VCASE(a, "v_sad_u16 v3, v0, v1, v2", int_rows, ref_sad_u16);
    /* hardware: V_SAD_U16 of 0x00030001, 0x00050002, 0 is 3; V_ADD_NC_I32 clamp of
     * 0x7fffffff + 1 is 0x7fffffff */
    VCASE(a, "v_sad_u16 v3, v0, v1, v2", int_rows, ref_sad_u16);
    CHECK(w->v[3][5] == 3, "%s v_sad_u16 hardware case: %u", a, w->v[3][5]);
    /* V_SWAP_B32: both registers exchange in active lanes only */
    snippet_rig_lanes(&rig, 0, 0);
    for (unsigned l = 0; l < 64; l++)
        w->v[0][l] = 100 + l, w->v[1][l] = 200 + l;
    wave_set_exec(w, OFF);
    CHECK(snippet_rig_run(&rig, a, "v_swap_b32 v0, v1") == WAVE_DONE, "%s swap", a);
    int bad = 0;
    for (unsigned l = 0; l < 64; l++) {
        int on = l < 32 && (OFF >> l & 1);
        bad += w->v[0][l] != (on ? 200 + l : 100 + l) || w->v[1][l] != (on ? 100 + l : 200 + l);
    }
    CHECK(bad == 0, "%s v_swap_b32: %d lanes wrong", a, bad);
}

/* V_SWAPREL_B32 / V_MOVRELSD_2_B32 (RDNA3 ISA VOP1): source index + M0[9:0], destination index
 * + M0[25:16]; V_SWAP_B16 (gfx11): two VGPR halves exchange.  Active lanes only. */
static void t_rel(const char *a, int gfx12) {
    snippet_rig_lanes(&rig, 0, 0);
    for (unsigned l = 0; l < 64; l++)
        for (unsigned r = 1; r < 12; r++)
            w->v[r][l] = r << 16 | l;
    w->s[0] = 5u << 16 | 1u | 0xfc00fc00u; /* bits above 25:16 and 9:0 are not read */
    wave_set_exec(w, OFF);
    CHECK(snippet_rig_run(&rig, a,
                          "s_mov_b32 m0, s0\nv_swaprel_b32 v1, v2\nv_movrelsd_2_b32 v5, v7") ==
              WAVE_DONE,
          "%s swaprel", a);
    /* swaprel: v6 <-> v3; then movrelsd_2: v10 = v8 */
    int bad = 0;
    for (unsigned l = 0; l < 64; l++) {
        int on = l < 32 && (OFF >> l & 1);
        bad += w->v[6][l] != ((on ? 3u : 6u) << 16 | l) || w->v[3][l] != ((on ? 6u : 3u) << 16 | l);
        bad += w->v[10][l] != ((on ? 8u : 10u) << 16 | l) || w->v[8][l] != (8u << 16 | l);
        bad += w->v[1][l] != (1u << 16 | l) || w->v[2][l] != (2u << 16 | l);
    }
    CHECK(bad == 0, "%s v_swaprel_b32 / v_movrelsd_2_b32: %d wrong", a, bad);
    if (gfx12)
        return;
    snippet_rig_lanes(&rig, 0, 0);
    for (unsigned l = 0; l < 64; l++)
        w->v[0][l] = 0xaaaa0000u | l, w->v[1][l] = 0x00bb0000u | 0xcc00u;
    wave_set_exec(w, OFF);
    CHECK(snippet_rig_run(&rig, a, "v_swap_b16 v0.l, v1.h") == WAVE_DONE, "%s swap_b16", a);
    bad = 0;
    for (unsigned l = 0; l < 64; l++) {
        int on = l < 32 && (OFF >> l & 1);
        bad += w->v[0][l] != (on ? 0xaaaa00bbu : 0xaaaa0000u | l);
        bad += w->v[1][l] != (on ? (l << 16 | 0xcc00u) : 0x00bbcc00u);
    }
    CHECK(bad == 0, "%s v_swap_b16: %d wrong (lane 0: %08x %08x)", a, bad, w->v[0][0], w->v[1][0]);
}

/* ---- conversions and f32 ------------------------------------------------------------------- */
/* v_cvt_u16_f32 / v_cvt_i16_f32 as the pseudocode uses them: truncate, saturate, NaN -> 0 */
static uint32_t cvt_u16(uint32_t u) {
    float f = from_bits32(u);
    if (isnan(f) || f <= 0)
        return 0;
    return f >= 65535.0f ? 0xffff : (uint32_t)truncf(f);
}
static uint32_t cvt_i16(uint32_t u) {
    float f = from_bits32(u);
    if (isnan(f))
        return 0;
    float t = truncf(f);
    int32_t v = t < -32768.0f ? -32768 : t > 32767.0f ? 32767 : (int32_t)t;
    return (uint32_t)v & 0xffff;
}
static uint32_t ref_pk_u16(uint32_t a, uint32_t b, uint32_t c, uint32_t o) {
    (void)c, (void)o;
    return cvt_u16(a) | cvt_u16(b) << 16;
}
static uint32_t ref_pk_i16(uint32_t a, uint32_t b, uint32_t c, uint32_t o) {
    (void)c, (void)o;
    return cvt_i16(a) | cvt_i16(b) << 16;
}
/* V_MULLIT_F32: -MAX_FLOAT when S1 is -MAX_FLOAT, -inf or NaN or S2 <= 0 or NaN, else S0 * S1 */
static uint32_t ref_mullit(uint32_t a, uint32_t b, uint32_t c, uint32_t o) {
    (void)o;
    float fb = from_bits32(b), fc = from_bits32(c);
    if (b == 0xff7fffffu || b == 0xff800000u || isnan(fb) || isnan(fc) || fc <= 0)
        return 0xff7fffffu;
    return bits32(from_bits32(a) * fb);
}
static const uint32_t f_rows[][3] = {
    {0x42c9999a, 0x43483333, 0x3f800000}, /* 100.9, 200.1, 1 (hardware: 100, 200 as u16) */
    {0x42c90000, 0xc24accce, 0x3f800000}, /* 100.5, -50.7 (hardware: 100, -50 as i16) */
    {0x7fc00000, 0x80000000, 0x3f800000}, /* NaN, -0 */
    {0x477fff00, 0x4f000000, 0x00000000}, /* 65535, 2^31; guard +0 */
    {0xbfc00000, 0xff800000, 0x80000000}, /* -1.5, -inf; guard -0 */
    {0x00000001, 0x7f800000, 0x7fc00000}, /* denormal, +inf; guard NaN */
    {0xc7000100, 0x46fffe00, 0x00000001}, /* -32769, 32767; guard denormal > 0 */
    {0x40000000, 0x40400000, 0x00000000}, /* hardware V_MULLIT: 2 * 3 with guard 0 */
    {0x40000000, 0xff7fffff, 0x3f800000}, /* S1 = -MAX_FLOAT */
    {0x7f000000, 0x40000000, 0x3f800000}, /* overflow to +inf */
};

static void t_cvt(const char *a) {
    VCASE(a, "v_cvt_pk_u16_f32 v3, v0, v1", f_rows, ref_pk_u16);
    VCASE(a, "v_cvt_pk_i16_f32 v3, v0, v1", f_rows, ref_pk_i16);
    VCASE(a, "v_mullit_f32 v3, v0, v1, v2", f_rows, ref_mullit);
    /* hardware: 2 * 3 with guard 1 is 6.0 */
    static const uint32_t lit_hw[][3] = {{0x40000000, 0x40400000, 0x3f800000}};
    VCASE(a, "v_mullit_f32 v3, v0, v1, v2", lit_hw, ref_mullit);
    CHECK(w->v[3][0] == 0x40c00000u, "%s v_mullit_f32 hardware case %08x", a, w->v[3][0]);
}

/* ---- 16-bit ------------------------------------------------------------------------------- */
/* gfx11 true16 forms write v3.h and keep v3.l; the gfx12 forms (fake16) write v3's low half and
 * keep the high half. */
static uint32_t put_hi(uint32_t o, uint32_t h) { return (o & 0xffff) | (h & 0xffff) << 16; }
static uint32_t put_lo(uint32_t o, uint32_t h) { return (o & 0xffff0000u) | (h & 0xffff); }
static unsigned cur_lane; /* v_cndmask_b16's reference needs the lane: see t_16 */
static uint32_t ref_not_hi(uint32_t a, uint32_t b, uint32_t c, uint32_t o) {
    (void)b, (void)c;
    return put_hi(o, ~a);
}
static uint32_t ref_not_lo(uint32_t a, uint32_t b, uint32_t c, uint32_t o) {
    (void)b, (void)c;
    return put_lo(o, ~a);
}
/* V_SAT_PK_U8_I16: {sat_u8(S0.i16[1]), sat_u8(S0.i16[0])} as a 16-bit result */
static uint32_t satu8(uint32_t h) {
    int v = (int16_t)h;
    return v < 0 ? 0 : v > 255 ? 255 : (uint32_t)v;
}
static uint32_t ref_sat_hi(uint32_t a, uint32_t b, uint32_t c, uint32_t o) {
    (void)b, (void)c;
    return put_hi(o, satu8(a & 0xffff) | satu8(a >> 16) << 8);
}
static uint32_t ref_sat_lo(uint32_t a, uint32_t b, uint32_t c, uint32_t o) {
    (void)b, (void)c;
    return put_lo(o, satu8(a & 0xffff) | satu8(a >> 16) << 8);
}
static const uint32_t h_rows[][3] = {
    {0x01237fff, 0x8000ffff, 0},
    {0xff80007f, 0x00ff0100, 0},
    {0x00000000, 0xffff0001, 0},
    {0xfffe8000, 0x12345678, 0},
};

/* f16 cases worked out by hand: v0 = {hi, lo} f16 pairs, v1 likewise */
static void t_16(const char *a, int gfx12) {
    VCASE(a, gfx12 ? "v_not_b16 v3, v0" : "v_not_b16 v3.h, v0.l", h_rows,
          gfx12 ? ref_not_lo : ref_not_hi);
    VCASE(a, gfx12 ? "v_sat_pk_u8_i16 v3, v0" : "v_sat_pk_u8_i16 v3.h, v0", h_rows,
          gfx12 ? ref_sat_lo : ref_sat_hi);
    /* V_CNDMASK_B16: mask s4 = 0x0f0f0f0f: lanes 0-3, 8-11, ... take S1, the others S0 */
    snippet_rig_lanes(&rig, 0, 0);
    for (unsigned l = 0; l < 64; l++)
        w->v[0][l] = 0x11110000u + l, w->v[1][l] = 0x2222u | (0x3300u + l) << 16, w->v[3][l] = OLD;
    w->s[4] = 0x0f0f0f0fu;
    wave_set_exec(w, OFF);
    const char *cm = gfx12 ? "v_cndmask_b16 v3, v0, v1, s4" : "v_cndmask_b16 v3.h, v0.l, v1.h, s4";
    CHECK(snippet_rig_run(&rig, a, cm) == WAVE_DONE, "%s %s", a, cm);
    int bad = 0;
    for (cur_lane = 0; cur_lane < 64; cur_lane++) {
        unsigned l = cur_lane;
        uint32_t s0 = l & 0xffff, s1 = gfx12 ? 0x2222u : 0x3300u + l;
        uint32_t r = (0x0f0f0f0fu >> (l & 31) & 1) ? s1 : s0;
        uint32_t want = l < 32 && (OFF >> l & 1) ? (gfx12 ? put_lo(OLD, r) : put_hi(OLD, r)) : OLD;
        if (w->v[3][l] != want && bad++ < 3)
            printf("  lane %u: %08x want %08x\n", l, w->v[3][l], want);
    }
    CHECK(bad == 0, "%s %s", a, cm);
    /* V_CNDMASK_B16 with neg on S0: bit 15 flips, nothing else (a move, no float rules) */
    snippet_rig_lanes(&rig, 0, 0);
    for (unsigned l = 0; l < 64; l++)
        w->v[0][l] = 0x7c01u, w->v[3][l] = 0;
    w->s[4] = 0;
    CHECK(snippet_rig_run(&rig, a,
                          gfx12 ? "v_cndmask_b16 v3, -v0, v1, s4"
                                : "v_cndmask_b16 v3.l, -v0.l, v1.l, s4") == WAVE_DONE &&
              w->v[3][0] == 0xfc01u,
          "%s v_cndmask_b16 neg: %08x", a, w->v[3][0]);
    /* V_FMAAK_F16 / V_FMAMK_F16 (K = 2.0 = 0x4000): 1.5 * 2 + 2 = 5 (0x4500); 60000 * 2 + 2
     * overflows to +inf; NaN stays NaN (quiet: 0x7e00); -0 * 2 + (-0)... with K = 2: 2 */
    snippet_rig_lanes(&rig, 0, 0);
    const uint32_t x0[4] = {0x3e00, 0x7b53, 0x7e00, 0x8000},
                   want_k[4] = {0x4500, 0x7c00, 0x7e00, 0x4000};
    for (unsigned l = 0; l < 64; l++)
        w->v[0][l] = x0[l % 4] | 0xabcd0000u, w->v[1][l] = 0x4000, w->v[3][l] = OLD;
    CHECK(snippet_rig_run(&rig, a,
                          gfx12 ? "v_fmaak_f16 v3, v0, v1, 0x4000\nv_fmamk_f16 v4, v0, 0x4000, v1"
                                : "v_fmaak_f16 v3.l, v0.l, v1.l, 0x4000\n"
                                  "v_fmamk_f16 v4.h, v0.l, 0x4000, v1.l") == WAVE_DONE,
          "%s fmaak/fmamk", a);
    bad = 0;
    for (unsigned l = 0; l < 32; l++)
        bad += w->v[3][l] != put_lo(OLD, want_k[l % 4]) ||
               (w->v[4][l] & (gfx12 ? 0xffffu : 0xffff0000u)) !=
                   (gfx12 ? want_k[l % 4] : want_k[l % 4] << 16);
    CHECK(bad == 0, "%s fmaak/fmamk: %d lanes wrong (lane 0: %08x %08x)", a, bad, w->v[3][0],
          w->v[4][0]);
    /* V_CVT_PK_NORM_I16_F16 / _U16_F16: 1.0 -> 32767 / 65535, -1.0 -> -32767 / 0, 2.0
     * saturates, 0 -> 0; V_PK_FMAC_F16: D = S0 * S1 + D per half */
    snippet_rig_lanes(&rig, 0, 0);
    w->v[0][0] = 0xbc003c00u, w->v[1][0] = 0x00004000u, w->v[3][0] = 0x40003c00u; /* {2,1} */
    w->v[6][0] = 0x3c003800u, w->v[7][0] = 0x40003c00u;                           /* {1,.5},{2,1} */
    CHECK(snippet_rig_run(&rig, a,
                          gfx12 ? "v_cvt_pk_norm_i16_f16 v4, v0, v1\n"
                                  "v_cvt_pk_norm_u16_f16 v5, v0, v0 op_sel:[1,1,0]\n"
                                  "v_pk_fmac_f16 v3, v6, v7"
                                : "v_cvt_pk_norm_i16_f16 v4, v0.l, v1.h\n"
                                  "v_cvt_pk_norm_u16_f16 v5, v0.h, v1.l\n"
                                  "v_pk_fmac_f16 v3, v6, v7") == WAVE_DONE,
          "%s norm", a);
    CHECK(w->v[4][0] == (gfx12 ? 0x7fff7fffu : 0x00007fffu), "%s v_cvt_pk_norm_i16_f16 %08x", a,
          w->v[4][0]);
    CHECK(w->v[5][0] == (gfx12 ? 0u : 0xffff0000u), "%s v_cvt_pk_norm_u16_f16 %08x", a, w->v[5][0]);
    CHECK(w->v[3][0] == 0x44003e00u, "%s v_pk_fmac_f16 %08x", a, w->v[3][0]); /* {4, 1.5} */
}

/* ---- SAD over quads ------------------------------------------------------------------------ */
static void t_qsad(const char *a) {
    /* S0 = 0 (8 bytes), S1 = 0x01010101, S2 = 0: each of the four 4-byte SADs is 4 */
    snippet_rig_lanes(&rig, 0, 0);
    w->v[4][0] = w->v[5][0] = 0, w->v[6][0] = 0x01010101u;
    CHECK(snippet_rig_run(&rig, a,
                          "v_qsad_pk_u16_u8 v[8:9], v[4:5], v6, 0\n"
                          "v_mqsad_pk_u16_u8 v[10:11], v[4:5], v6, 0\n"
                          "v_mov_b32 v12, 0\nv_mov_b32 v13, 0\nv_mov_b32 v14, 1\nv_mov_b32 v15, 2\n"
                          "v_mqsad_u32_u8 v[16:19], v[4:5], v6, v[12:15]") == WAVE_DONE,
          "%s qsad", a);
    CHECK(w->v[8][0] == 0x00040004u && w->v[9][0] == 0x00040004u && w->v[10][0] == 0x00040004u &&
              w->v[11][0] == 0x00040004u,
          "%s qsad/mqsad_pk: %08x %08x %08x %08x", a, w->v[8][0], w->v[9][0], w->v[10][0],
          w->v[11][0]);
    CHECK(w->v[16][0] == 4 && w->v[17][0] == 4 && w->v[18][0] == 5 && w->v[19][0] == 6,
          "%s mqsad_u32: %u %u %u %u", a, w->v[16][0], w->v[17][0], w->v[18][0], w->v[19][0]);
}

/* ---- scalar -------------------------------------------------------------------------------- */
static void t_scalar(const char *a) {
    /* hardware: S_PACK_HL_B32_B16 of 0xDEADAAAA, 0xDEADBBBB is 0xBBBBDEAD */
    snippet_rig_lanes(&rig, 0, 0);
    w->s[0] = 0xdeadaaaau, w->s[1] = 0xdeadbbbbu;
    CHECK(snippet_rig_run(&rig, a, "s_pack_hl_b32_b16 s2, s0, s1") == WAVE_DONE &&
              w->s[2] == 0xbbbbdeadu,
          "%s s_pack_hl_b32_b16: %08x", a, w->s[2]);
    /* S_BITCMP0/1: SCC = bit S1[4:0] (b64: [5:0]) of S0 is 0 / 1; copied out with s_cselect */
    snippet_rig_lanes(&rig, 0, 0);
    w->s[0] = 0x80000010u, w->s[1] = 0x1u, w->s[2] = 4, w->s[3] = 36, w->s[4] = 35;
    CHECK(snippet_rig_run(&rig, a,
                          "s_bitcmp1_b32 s0, s2\ns_cselect_b32 s10, 1, 0\n"
                          "s_bitcmp0_b32 s0, 31\ns_cselect_b32 s11, 1, 0\n"
                          "s_bitcmp1_b64 s[0:1], s3\ns_cselect_b32 s12, 1, 0\n"
                          "s_bitcmp0_b64 s[0:1], s4\ns_cselect_b32 s13, 1, 0") == WAVE_DONE,
          "%s bitcmp", a);
    /* bit 4 of s0 is 1; bit 31 of s0 is 1 (bitcmp0: 0); bit 36 of s[0:1] is 0 (s1 = 1: bit
     * 32); bit 35 is 0 (bitcmp0: 1) */
    CHECK(w->s[10] == 1 && w->s[11] == 0 && w->s[12] == 0 && w->s[13] == 1,
          "%s bitcmp: %u %u %u %u", a, w->s[10], w->s[11], w->s[12], w->s[13]);
    /* S_CMOVK_I32: D = sext(SIMM16) if SCC; S_BITREPLICATE_B64_B32: each bit of S0 twice */
    snippet_rig_lanes(&rig, 0, 0);
    w->s[2] = 0x80000005u;
    CHECK(snippet_rig_run(&rig, a,
                          "s_mov_b32 s0, 7\ns_mov_b32 s1, 7\ns_cmp_eq_u32 s0, s0\n"
                          "s_cmovk_i32 s0, 0x8001\ns_cmp_lg_u32 s0, s0\ns_cmovk_i32 s1, 0x1234\n"
                          "s_bitreplicate_b64_b32 s[4:5], s2") == WAVE_DONE,
          "%s cmovk", a);
    CHECK(w->s[0] == 0xffff8001u && w->s[1] == 7 && w->s[4] == 0x33u && w->s[5] == 0xc0000000u,
          "%s cmovk/bitreplicate: %08x %08x %08x %08x", a, w->s[0], w->s[1], w->s[4], w->s[5]);
    /* S_MOVRELS/MOVRELD: the source / destination SGPR index plus M0 */
    snippet_rig_lanes(&rig, 0, 0);
    for (unsigned i = 0; i < 16; i++)
        w->s[20 + i] = 0x100 + i;
    CHECK(snippet_rig_run(&rig, a,
                          "s_mov_b32 m0, 2\ns_movrels_b32 s0, s20\ns_movrels_b64 s[2:3], s[20:21]\n"
                          "s_movreld_b32 s30, s1\ns_movreld_b64 s[24:25], s[2:3]") == WAVE_DONE,
          "%s movrel", a);
    /* s0 = s22; s[2:3] = s[22:23]; s32 = s1 (0); s[26:27] = s[2:3] */
    CHECK(w->s[0] == 0x102 && w->s[2] == 0x102 && w->s[3] == 0x103 && w->s[32] == 0 &&
              w->s[26] == 0x102 && w->s[27] == 0x103 && w->s[30] == 0x10a,
          "%s movrel: %x %x %x %x %x %x", a, w->s[0], w->s[2], w->s[3], w->s[32], w->s[26],
          w->s[27]);
    /* S_CALL_B64: D = the address after it; a jump of SIMM16 dwords from there */
    snippet_rig_lanes(&rig, 0, 0);
    CHECK(snippet_rig_run(&rig, a,
                          "s_call_b64 s[0:1], 1\ns_mov_b32 s4, 1\ns_mov_b32 s5, 2\n"
                          "s_getpc_b64 s[6:7]") == WAVE_DONE,
          "%s s_call_b64", a);
    /* s_call (4 bytes) then s_mov s4 (4 bytes) skipped; s_getpc at byte 12 returns 16 */
    CHECK(w->s[4] == 0 && w->s[5] == 2 && w->s[6] - w->s[0] == 12 && w->s[7] == w->s[1],
          "%s s_call_b64: s4 %u s5 %u s0 %x s6 %x", a, w->s[4], w->s[5], w->s[0], w->s[6]);
}

/* V_FMA_DX9_ZERO_F32 / V_FMAC_DX9_ZERO_F32: S2 (fmac: D) as it is when S0 or S1 is zero, else
 * fma; gfx12's V_S_*_F16 (an f16 result in an SGPR, bits 31:16 zero), S_CVT_PK_RTZ_F16_F32 and
 * S_MOVRELSD_2_B32.  Values worked out by hand. */
static uint32_t ref_dx9(uint32_t a, uint32_t b, uint32_t c, uint32_t o) {
    (void)o;
    float fa = from_bits32(a), fb = from_bits32(b);
    return fa == 0 || fb == 0 ? c : bits32(fmaf(fa, fb, from_bits32(c)));
}
static const uint32_t dx9_rows[][3] = {
    {0x00000000, 0x7f800000, 0x80000000}, /* 0 * inf: S2 (-0) as it is */
    {0x7fc00000, 0x80000000, 0x3f800000}, /* NaN * -0: S2 */
    {0x40000000, 0x40400000, 0x3f800000}, /* 2 * 3 + 1 = 7 */
    {0x7f800000, 0x3f800000, 0xff800000}, /* inf - inf: NaN */
    {0x3f800001, 0x3f800001, 0xbf800002}, /* fused: the low product bits survive */
};
static void t_dx9_sfp(const char *a, int gfx12) {
    VCASE(a, "v_fma_dx9_zero_f32 v3, v0, v1, v2", dx9_rows, ref_dx9);
    if (!gfx12) {
        /* fmac: the accumulator is v3; v_mov puts S2 there first */
        VCASE(a, "v_mov_b32 v3, v2\nv_fmac_dx9_zero_f32 v3, v0, v1", dx9_rows, ref_dx9);
    }
    snippet_rig_lanes(&rig, 0, 0);
    w->s[20] = 0x11, w->s[21] = 0x22, w->s[30] = 0;
    CHECK(snippet_rig_run(&rig, a, "s_mov_b32 m0, 0x00070001\ns_movrelsd_2_b32 s23, s20") ==
                  WAVE_DONE &&
              w->s[30] == 0x22 && w->s[23] == 0,
          "%s s_movrelsd_2_b32: s30 %x", a, w->s[30]);
    if (!gfx12)
        return;
    snippet_rig_lanes(&rig, 0, 0);
    w->s[0] = 0x3f7fffffu; /* just below 1: rtz 0x3bff, RNE would give 1.0 */
    w->s[1] = 0xc77fff00u; /* -65535: rtz -65504 (0xfbff), not -inf */
    w->s[2] = 0xffff4400u; /* f16 4.0 in the low half, junk above */
    CHECK(snippet_rig_run(&rig, a,
                          "s_cvt_pk_rtz_f16_f32 s4, s0, s1\nv_s_exp_f16 s5, s2\n"
                          "v_s_log_f16 s6, s2\nv_s_rcp_f16 s7, s2\nv_s_rsq_f16 s8, s2\n"
                          "v_s_sqrt_f16 s9, s2\nv_s_sqrt_f16 s10, -s2\n"
                          "v_s_exp_f16 s11, 1.0") == WAVE_DONE,
          "%s salu f16", a);
    /* exp2(4) = 16 (0x4c00), log2(4) = 2 (0x4000), 1/4 (0x3400), 1/2 (0x3800), 2 (0x4000),
     * sqrt(-4) a NaN, exp2(1.0) = 2 */
    CHECK(w->s[4] == 0xfbff3bffu && w->s[5] == 0x4c00 && w->s[6] == 0x4000 && w->s[7] == 0x3400 &&
              w->s[8] == 0x3800 && w->s[9] == 0x4000 && (w->s[10] & 0x7fff) > 0x7c00 &&
              w->s[10] < 0x10000 && w->s[11] == 0x4000,
          "%s salu f16: %08x %x %x %x %x %x %x %x", a, w->s[4], w->s[5], w->s[6], w->s[7], w->s[8],
          w->s[9], w->s[10], w->s[11]);
}

/* ---- cache, prefetch and wait ops: nothing to do, the wave goes on -------------------------- */
static void t_nothing(const char *a, int gfx12) {
    snippet_rig_lanes(&rig, 0, 0);
    CHECK(snippet_rig_run(&rig, a,
                          gfx12 ? "global_wbinv\ns_prefetch_inst s[0:1], 0x100, s3, 2\n"
                                  "s_prefetch_data s[0:1], 0x100, s3, 2\n"
                                  /* s_prefetch_inst_pc_rel, s_prefetch_data_pc_rel 0x100,
                                   * null, 2 and s_buffer_prefetch_data s[4:7], 0x100, null, 2
                                   * (llvm-mc-22's encodings: gfxemu as does not take their
                                   * null soffset) */
                                  ".long 0xf404a080, 0xf8000100, 0xf4050080, 0xf8000100\n"
                                  ".long 0xf404e082, 0xf8000100\n"
                                  "s_wait_idle\nv_nop\nv_pipeflush\ns_mov_b32 s9, 9"
                                : "s_gl1_inv\ns_wait_idle\nv_nop\nv_pipeflush\ns_mov_b32 s9, 9") ==
                  WAVE_DONE &&
              w->s[9] == 9,
          "%s cache/prefetch/wait ops", a);
}

/* ---- VINTERP ------------------------------------------------------------------------------- */
/* hardware: p10_f32 with v1 = 100 + lane, S1 = 2.0 (an SGPR there, which llvm-mc refuses), v3 = 10
 * + lane: lanes 0-3 212, 4-7 224 (fma(v1 of lane q+1, 2, v3 of lane q)); p10_f16_f32 with f16 v1 =
 * lane, v3 = 10 + lane: 12 / 24.  The others worked out by hand from the same formula. */
static void t_vinterp(const char *a, int gfx12) {
    snippet_rig_lanes(&rig, 0, 0);
    for (unsigned l = 0; l < 64; l++) {
        w->v[1][l] = bits32(100.0f + (float)l), w->v[3][l] = bits32(10.0f + (float)l);
        w->v[2][l] = bits32(2.0f);
    }
    wave_set_exec(w, 0x0000000fu); /* lanes 1-3 of quad 1 off: the quad reads ignore EXEC */
    CHECK(snippet_rig_run(&rig, a,
                          "v_interp_p10_f32 v4, v1, v2, v3\n"
                          "v_interp_p2_f32 v6, v1, v2, v3\n"
                          "v_interp_p10_f32 v7, -v1, v2, v3 clamp") == WAVE_DONE,
          "%s interp f32", a);
    int bad = 0;
    for (unsigned l = 0; l < 4; l++) {
        bad += w->v[4][l] != bits32(212.0f);
        bad += w->v[6][l] != bits32(102.0f * 2.0f + 10.0f + (float)l); /* lane 2, own S2 */
        bad += w->v[7][l] != bits32(0.0f); /* -101 * 2 + 10 clamped to 0 */
    }
    bad += w->v[4][4] != 0; /* an inactive lane is not written */
    CHECK(bad == 0, "%s interp f32: %d wrong (lane 0: %08x %08x %08x)", a, bad, w->v[4][0],
          w->v[6][0], w->v[7][0]);
    /* f16: v1.l = lane (f16), v1.h = -lane, v3.l = 10 + lane (f16) */
    snippet_rig_lanes(&rig, 0, 0);
    static const uint16_t h_int[] = {0x0000, 0x3c00, 0x4000, 0x4200, 0x4400, 0x4500, 0x4600,
                                     0x4700, 0x4800, 0x4880, 0x4900, 0x4980, 0x4a00, 0x4a80,
                                     0x4b00, 0x4b80, 0x4c00, 0x4c40, 0x4c80, 0x4cc0};
    for (unsigned l = 0; l < 8; l++) {
        w->v[1][l] = h_int[l] | (uint32_t)(h_int[l] | 0x8000u) << 16;
        w->v[3][l] = h_int[10 + l];
        w->v[8][l] = OLD;
    }
    for (unsigned l = 0; l < 64; l++)
        w->v[2][l] = bits32(2.0f), w->v[9][l] = bits32(0.5f);
    wave_set_exec(w, 0xffu);
    CHECK(snippet_rig_run(&rig, a,
                          gfx12 ? "v_interp_p10_f16_f32 v4, v1, v2, v3\n"
                                  "v_interp_p10_f16_f32 v5, v1, v2, v3 op_sel:[1,0,0,0]\n"
                                  "v_interp_p2_f16_f32 v8, v1, v2, v9 op_sel:[0,0,0,1]"
                                : "v_interp_p10_f16_f32 v4, v1.l, v2, v3.l\n"
                                  "v_interp_p10_f16_f32 v5, v1.h, v2, v3.l\n"
                                  "v_interp_p2_f16_f32 v8.h, v1.l, v2, v9") == WAVE_DONE,
          "%s interp f16", a);
    bad = 0;
    for (unsigned l = 0; l < 8; l++) {
        unsigned q = l & ~3u;
        bad += w->v[4][l] != bits32((float)(q + 1) * 2.0f + (float)(10 + q));
        bad += w->v[5][l] != bits32(-(float)(q + 1) * 2.0f + (float)(10 + q));
        /* (q + 2) * 2 + 0.5 as f16 in the high half: 4.5 = 0x4480, 12.5 = 0x4a40 */
        bad += w->v[8][l] != ((OLD & 0xffff) | (q ? 0x4a40u : 0x4480u) << 16);
    }
    CHECK(bad == 0, "%s interp f16: %d wrong (lane 0: %08x %08x %08x)", a, bad, w->v[4][0],
          w->v[5][0], w->v[8][0]);
    CHECK(w->v[4][0] == bits32(12.0f) && w->v[4][4] == bits32(24.0f), "%s p10_f16 hardware case",
          a);
}

/* ---- gfx12 IEEE 754-2019 minimum / maximum ------------------------------------------------
 * RDNA4 ISA V_MAXIMUM_F32 (V_MINIMUM_F32, the f16/f64, 3-operand and fused forms, S_MAXIMUM_*):
 * a signalling NaN operand quieted (S0's first), else a quiet NaN operand as it is (S0's first),
 * else the larger (smaller) value, +0 > -0.  ref_mm: that rule for a format of `bits` bits. */
static double fval(uint64_t v, unsigned bits) {
    unsigned eb = bits == 16 ? 5 : 8, mb = bits == 16 ? 10 : 23;
    uint64_t e = (v >> mb) & ((1u << eb) - 1), m = v & ((1ull << mb) - 1);
    int bias = (1 << (eb - 1)) - 1;
    double f = e ? ldexp((double)(m | 1ull << mb), (int)e - bias - (int)mb)
                 : ldexp((double)m, 1 - bias - (int)mb);
    return (v >> (bits - 1)) & 1 ? -f : f;
}
static uint64_t ref_mm(uint64_t a, uint64_t b, unsigned bits, int max) {
    unsigned mb = bits == 16 ? 10 : bits == 32 ? 23 : 52;
    uint64_t abs = (bits == 64 ? ~0ull : (1ull << bits) - 1) >> 1, inf = abs & ~((1ull << mb) - 1),
             q = 1ull << (mb - 1);
    int na = (a & abs) > inf, nb = (b & abs) > inf;
    if (na && !(a & q))
        return a | q;
    if (nb && !(b & q))
        return b | q;
    if (na || nb)
        return na ? a : b;
    double fa = bits == 64 ? 0 : fval(a, bits), fb = bits == 64 ? 0 : fval(b, bits);
    if (bits == 64)
        memcpy(&fa, &a, 8), memcpy(&fb, &b, 8);
    if (fa == fb && fa == 0) /* +0 > -0 */
        return ((a >> (bits - 1)) & 1) == (unsigned)max ? b : a;
    return (max ? fa > fb : fa < fb) || fa == fb ? a : b;
}
static uint32_t ref_max32(uint32_t a, uint32_t b, uint32_t c, uint32_t o) {
    (void)c, (void)o;
    return (uint32_t)ref_mm(a, b, 32, 1);
}
static uint32_t ref_min32(uint32_t a, uint32_t b, uint32_t c, uint32_t o) {
    (void)c, (void)o;
    return (uint32_t)ref_mm(a, b, 32, 0);
}
static uint32_t ref_max3_32(uint32_t a, uint32_t b, uint32_t c, uint32_t o) {
    (void)o;
    return (uint32_t)ref_mm(ref_mm(a, b, 32, 1), c, 32, 1);
}
static uint32_t ref_maxmin32(uint32_t a, uint32_t b, uint32_t c, uint32_t o) {
    (void)o;
    return (uint32_t)ref_mm(ref_mm(a, b, 32, 1), c, 32, 0);
}
static uint32_t ref_minmax32(uint32_t a, uint32_t b, uint32_t c, uint32_t o) {
    (void)o;
    return (uint32_t)ref_mm(ref_mm(a, b, 32, 0), c, 32, 1);
}
static uint32_t ref_min3_32_rev(uint32_t a, uint32_t b, uint32_t c, uint32_t o) {
    (void)o;
    return (uint32_t)ref_mm(ref_mm(c, b, 32, 0), a, 32, 0);
}
static uint32_t ref_min3_16(uint32_t a, uint32_t b, uint32_t c, uint32_t o) {
    return put_lo(o, (uint32_t)ref_mm(ref_mm(a & 0xffff, b & 0xffff, 16, 0), c & 0xffff, 16, 0));
}
static uint32_t ref_max16(uint32_t a, uint32_t b, uint32_t c, uint32_t o) {
    (void)c;
    return put_lo(o, (uint32_t)ref_mm(a & 0xffff, b & 0xffff, 16, 1));
}
static const uint32_t mm32_rows[][3] = {
    {0x3f800000, 0xc0000000, 0x00000000}, /* 1, -2, 0 */
    {0x00000000, 0x80000000, 0x80000000}, /* +0, -0 */
    {0x80000000, 0x00000000, 0x7fc00000},
    {0x7fc00000, 0x3f800000, 0x3f800000}, /* quiet NaN first */
    {0x3f800000, 0xffc00001, 0x3f800000}, /* quiet NaN (negative, payload) second */
    {0x7f800001, 0x7fc00002, 0x00000000}, /* signalling NaN first: quieted */
    {0x7fc00002, 0x7f800003, 0x00000000}, /* signalling second wins over a quiet first */
    {0xff800000, 0x7f800000, 0x00000001}, /* -inf, +inf */
    {0x00000001, 0x80000001, 0x00000002}, /* denormals (MODE keeps them) */
    {0x7f7fffff, 0xff7fffff, 0x7f800001},
    {0x7f800005, 0xff800006, 0x7f800007}, /* both signalling: S0 quieted */
};
static const uint32_t mm16_rows[][3] = {
    {0xaaaa3c00, 0xc000, 0x0000}, {0x55550000, 0x8000, 0x8000}, {0x12347e00, 0x3c00, 0x3c00},
    {0x00003c00, 0xfe01, 0x3c00}, {0xffff7c01, 0x7e02, 0x0000}, {0x00007e02, 0x7c03, 0x0000},
    {0x0000fc00, 0x7c00, 0x0001}, {0x00000001, 0x8001, 0x0002}, {0x00007c05, 0xfc06, 0x7c07},
};

static void t_minmax(const char *a) {
    VCASE(a, "v_maximum_f32 v3, v0, v1", mm32_rows, ref_max32);
    VCASE(a, "v_minimum_f32 v3, v0, v1", mm32_rows, ref_min32);
    VCASE(a, "v_maximum3_f32 v3, v0, v1, v2", mm32_rows, ref_max3_32);
    VCASE(a, "v_minimum3_f32 v3, v2, v1, v0", mm32_rows, ref_min3_32_rev);
    VCASE(a, "v_maximumminimum_f32 v3, v0, v1, v2", mm32_rows, ref_maxmin32);
    VCASE(a, "v_minimummaximum_f32 v3, v0, v1, v2", mm32_rows, ref_minmax32);
    VCASE(a, "v_maximum_f16 v3, v0, v1", mm16_rows, ref_max16);
    VCASE(a, "v_minimum3_f16 v3, v0, v1, v2", mm16_rows, ref_min3_16);
    VCASE(a,
          "v_minimum_f16 v3, v0, v1\nv_maximum3_f16 v3, v0, v1, v2\n"
          "v_maximumminimum_f16 v3, v0, v1, v2\nv_minimummaximum_f16 v3, v0, v1, v2\n"
          "v_maximum_f16 v3, v0, v1",
          mm16_rows, ref_max16);
    /* f64 and the SALU forms on a few rows: each row's S0, S1 per lane / per run */
    static const uint64_t r64[][2] = {
        {0x3ff0000000000000ull, 0xc000000000000000ull},
        {0x0000000000000000ull, 0x8000000000000000ull},
        {0x7ff0000000000001ull, 0x7ff8000000000002ull},
        {0x7ff8000000000002ull, 0x7ff0000000000003ull},
        {0xfff8000000000000ull, 0x3ff0000000000000ull},
        {0x0000000000000001ull, 0x8000000000000001ull},
    };
    snippet_rig_lanes(&rig, 0, 0);
    for (unsigned l = 0; l < 32; l++) {
        const uint64_t *r = r64[l % 6];
        w->v[4][l] = (uint32_t)r[0], w->v[5][l] = (uint32_t)(r[0] >> 32);
        w->v[6][l] = (uint32_t)r[1], w->v[7][l] = (uint32_t)(r[1] >> 32);
    }
    CHECK(snippet_rig_run(&rig, a,
                          "v_maximum_f64 v[8:9], v[4:5], v[6:7]\n"
                          "v_minimum_f64 v[10:11], v[4:5], v[6:7]") == WAVE_DONE,
          "%s f64", a);
    int bad = 0;
    for (unsigned l = 0; l < 32; l++) {
        const uint64_t *r = r64[l % 6];
        uint64_t mx = w->v[8][l] | (uint64_t)w->v[9][l] << 32;
        uint64_t mn = w->v[10][l] | (uint64_t)w->v[11][l] << 32;
        bad += mx != ref_mm(r[0], r[1], 64, 1) || mn != ref_mm(r[0], r[1], 64, 0);
    }
    CHECK(bad == 0, "%s v_maximum/minimum_f64: %d lanes wrong", a, bad);
    bad = 0;
    for (unsigned i = 0; i < sizeof mm32_rows / sizeof mm32_rows[0]; i++) {
        snippet_rig_lanes(&rig, 0, 0);
        w->s[0] = mm32_rows[i][0], w->s[1] = mm32_rows[i][1];
        w->s[4] = mm16_rows[i % 9][0], w->s[5] = mm16_rows[i % 9][1];
        CHECK(snippet_rig_run(&rig, a,
                              "s_maximum_f32 s2, s0, s1\ns_minimum_f32 s3, s0, s1\n"
                              "s_maximum_f16 s6, s4, s5\ns_minimum_f16 s7, s4, s5") == WAVE_DONE,
              "%s salu", a);
        uint32_t h0 = mm16_rows[i % 9][0] & 0xffff, h1 = mm16_rows[i % 9][1];
        /* the f16 results zero bits 31:16 (RDNA4 ISA S_MAXIMUM_F16: D.u32 = 32'U(result)) */
        bad += w->s[2] != ref_mm(w->s[0], w->s[1], 32, 1) ||
               w->s[3] != ref_mm(w->s[0], w->s[1], 32, 0) || w->s[6] != ref_mm(h0, h1, 16, 1) ||
               w->s[7] != ref_mm(h0, h1, 16, 0);
    }
    CHECK(bad == 0, "%s s_maximum/minimum: %d rows wrong", a, bad);
}

int main(void) {
    if (snippet_rig_open(&rig) != 0)
        return 1;
    const char *arch[2] = {"gfx1100", "gfx1201"};
    for (int g = 0; g < 2; g++) {
        t_int(arch[g]);
        t_rel(arch[g], g);
        t_cvt(arch[g]);
        t_16(arch[g], g);
        t_qsad(arch[g]);
        t_scalar(arch[g]);
        t_nothing(arch[g], g);
        t_dx9_sfp(arch[g], g);
        t_vinterp(arch[g], g);
        if (g)
            t_minmax(arch[g]);
    }
    snippet_rig_close(&rig);
    return check_summary("test_rdna_gap3");
}
