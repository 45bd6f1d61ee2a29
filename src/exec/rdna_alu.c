/* rdna_alu.c - RDNA-only ALU and message handlers (gfx1100 RDNA3, gfx1201 RDNA4), with their
 * allowlist rows (the format of src/exec/rdna.c, which reads these tables too).
 *
 * What is here, each after the RDNA3/RDNA4 ISA manuals' pseudocode:
 *   - gfx12's IEEE 754-2019 minimumNumber/maximumNumber ops (v_max_num_f32, v_min3_num_f32,
 *     v_med3_num_f32, v_maxmin_num_f32 ...), which have no IEEE mode bit: a NaN operand gives the
 *     other operand, two NaNs a quiet NaN; and gfx11's fused v_maxmin/v_minmax forms, which
 *     follow MODE.IEEE like CDNA's v_max_f32;
 *   - v_fmac_f16 (gfx11 true16: the accumulator is the destination half), v_cvt_i32_i16 /
 *     v_cvt_u32_u16;
 *   - gfx12's SALU float ops (s_add_f32, s_fmac_f32, s_cvt_*, s_cmp_*_f32, the f16 forms) and
 *     the VALU ops that write an SGPR with a transcendental (v_s_rcp_f32 ...);
 *   - s_round_mode / s_denorm_mode (gfx11+ SOPP writes of MODE[3:0] / MODE[7:4]), RDNA's
 *     s_sendmsg ids and s_sendmsg_rtn (message results in an SGPR), s_mul_u64;
 *   - wave32 ds_permute/ds_bpermute (the lane index wraps at 32), float atomic min/max.
 * Rounding is to nearest even; the SALU float ops flush denormals as MODE's FP_DENORM says for
 * their format, as the VALU does. */
#include "exec/rdna.h"
#include "exec/valu.h"
#include "exec/xatomic.h"

#include <time.h>

#define IEEE (w->mode & MODE_IEEE)
#define MAX_I(a, b) ((a) > (b) ? (a) : (b))
#define MIN_I(a, b) ((a) < (b) ? (a) : (b))

/* ---- IEEE 754-2019 minimumNumber / maximumNumber (RDNA4 ISA V_MIN_NUM_F32 ...) ------------- */

static inline int nan32(u32 a) { return (a & 0x7fffffffu) > 0x7f800000u; }
static inline int nan64(u64 a) { return (a & 0x7fffffffffffffffull) > 0x7ff0000000000000ull; }
static inline int nan16(u32 a) { return (a & 0x7fffu) > 0x7c00u; }
/* two NaNs: S0 quieted; one NaN: the other operand; else the CDNA compare (-0 < +0) */
static inline u32 max_num32(u32 a, u32 b) {
    return nan32(a) && nan32(b) ? a | 0x400000u : fmax32(a, b, 0);
}
static inline u32 min_num32(u32 a, u32 b) {
    return nan32(a) && nan32(b) ? a | 0x400000u : fmin32(a, b, 0);
}
static inline u64 max_num64(u64 a, u64 b) {
    return nan64(a) && nan64(b) ? a | 0x8000000000000ull : fmax64(a, b, 0);
}
static inline u64 min_num64(u64 a, u64 b) {
    return nan64(a) && nan64(b) ? a | 0x8000000000000ull : fmin64(a, b, 0);
}
static inline u32 max_num16(u32 a, u32 b) {
    return nan16(a) && nan16(b) ? (a | 0x200u) & 0xffff : fmax16(a, b, 0);
}
static inline u32 min_num16(u32 a, u32 b) {
    return nan16(a) && nan16(b) ? (a | 0x200u) & 0xffff : fmin16(a, b, 0);
}
/* med3 with a NaN operand is min3 (RDNA4 ISA V_MED3_NUM_F32, as CDNA's V_MED3_F32) */
static inline u32 med3_num32(u32 a, u32 b, u32 c) {
    if (nan32(a) || nan32(b) || nan32(c))
        return min_num32(min_num32(a, b), c);
    return max_num32(min_num32(a, b), min_num32(max_num32(a, b), c));
}
static inline u32 med3_num16(u32 a, u32 b, u32 c) {
    if (nan16(a) || nan16(b) || nan16(c))
        return min_num16(min_num16(a, b), c);
    return max_num16(min_num16(a, b), min_num16(max_num16(a, b), c));
}

V2(v_max_num_f32, FK_F32, max_num32(a, b))
V2(v_min_num_f32, FK_F32, min_num32(a, b))
V3(v_max3_num_f32, FK_F32, max_num32(max_num32(a, b), c))
V3(v_min3_num_f32, FK_F32, min_num32(min_num32(a, b), c))
V3(v_med3_num_f32, FK_F32, med3_num32(a, b, c))
V3(v_maxmin_num_f32, FK_F32, min_num32(max_num32(a, b), c))
V3(v_minmax_num_f32, FK_F32, max_num32(min_num32(a, b), c))
/* gfx11: min(max(S0, S1), S2) and max(min(S0, S1), S2) with V_MAX_F32's IEEE-mode rules */
V3(v_maxmin_f32, FK_F32, fmin32(fmax32(a, b, IEEE), c, IEEE))
V3(v_minmax_f32, FK_F32, fmax32(fmin32(a, b, IEEE), c, IEEE))
V3(v_maxmin_i32, FK_I32, (u32)MIN_I(MAX_I((i32)a, (i32)b), (i32)c))
V3(v_minmax_i32, FK_I32, (u32)MAX_I(MIN_I((i32)a, (i32)b), (i32)c))
V3(v_maxmin_u32, FK_I32, MIN_I(MAX_I(a, b), c))
V3(v_minmax_u32, FK_I32, MAX_I(MIN_I(a, b), c))

#define F64MM(name, expr)                                                                          \
    VFN static void name(wave *w, const xinst *x) {                                                \
        u64 t0[LANES], t1[LANES];                                                                  \
        const u64 *A = vs64(w, x, 0, t0, FK_F64), *B = vs64(w, x, 1, t1, FK_F64);                  \
        VLOOP(l) {                                                                                 \
            u64 a = A[l], b = B[l];                                                                \
            t0[l] = (expr);                                                                        \
        }                                                                                          \
        vd64(w, x, t0, FK_F64);                                                                    \
    }
F64MM(v_max_num_f64, max_num64(a, b))
F64MM(v_min_num_f64, min_num64(a, b))

/* f16 forms: sources are halves (op_sel / true16), the result replaces its half */
#define H16OP(name, n, expr)                                                                       \
    VFN static void name(wave *w, const xinst *x) {                                                \
        u32 t0[LANES], t1[LANES], t2[LANES], d[LANES];                                             \
        const u32 *A = vs32(w, x, 0, t0, FK_F16), *B = vs32(w, x, 1, t1, FK_F16);                  \
        const u32 *C = n > 2 ? vs32(w, x, 2, t2, FK_F16) : t2;                                     \
        VLOOP(l) {                                                                                 \
            u32 a = A[l] & 0xffff, b = B[l] & 0xffff, c = n > 2 ? C[l] & 0xffff : 0;               \
            (void)c;                                                                               \
            d[l] = (expr);                                                                         \
        }                                                                                          \
        vd16(w, x, d, FK_F16, 1);                                                                  \
    }
H16OP(v_max_num_f16, 2, max_num16(a, b))
H16OP(v_min_num_f16, 2, min_num16(a, b))
H16OP(v_max3_num_f16, 3, max_num16(max_num16(a, b), c))
H16OP(v_min3_num_f16, 3, min_num16(min_num16(a, b), c))
H16OP(v_med3_num_f16, 3, med3_num16(a, b, c))
H16OP(v_maxmin_num_f16, 3, min_num16(max_num16(a, b), c))
H16OP(v_minmax_num_f16, 3, max_num16(min_num16(a, b), c))
H16OP(v_maxmin_f16, 3, fmin16(fmax16(a, b, IEEE), c, IEEE))
H16OP(v_minmax_f16, 3, fmax16(fmin16(a, b, IEEE), c, IEEE))

/* gfx12 packed f16 min/max (RDNA4 ISA VOP3P V_PK_MIN_NUM_F16 ... V_PK_MAXIMUM_F16): each half
 * alone, op_sel/op_sel_hi/neg as the other packed float ops (valu_f16.c pk_src16/pk_finish,
 * which also flush denormal halves as MODE says and clamp).  _num_: IEEE 754-2019
 * minimumNumber/maximumNumber as v_min_num_f16; minimum/maximum: a NaN operand gives a quiet
 * NaN, -0 < +0. */
#define MAXIMUM(name, T, isnan, qbit, cmp)                                                         \
    static inline T name(T a, T b) {                                                               \
        int sa = isnan(a) && !(a & qbit), sb = isnan(b) && !(b & qbit);                            \
        if (sa || sb) /* a signalling NaN, S0's first: quieted */                                  \
            return (sa ? a : b) | qbit;                                                            \
        if (isnan(a) || isnan(b)) /* a quiet NaN, S0's first: as it is */                          \
            return isnan(a) ? a : b;                                                               \
        return cmp(a, b, 0);                                                                       \
    }
/* (RDNA4 ISA V_MAXIMUM_F32 / V_MINIMUM_F32 and their f16/f64 forms: the NaN order above, else
 * the larger / smaller with -0 < +0) */
MAXIMUM(maximum16, u32, nan16, 0x200u, fmax16)
MAXIMUM(minimum16, u32, nan16, 0x200u, fmin16)
MAXIMUM(maximum32, u32, nan32, 0x400000u, fmax32)
MAXIMUM(minimum32, u32, nan32, 0x400000u, fmin32)
MAXIMUM(maximum64, u64, nan64, 0x8000000000000ull, fmax64)
MAXIMUM(minimum64, u64, nan64, 0x8000000000000ull, fmin64)
#define PK16OP(name, expr)                                                                         \
    VFN static void name(wave *w, const xinst *x) {                                                \
        u32 al[LANES], ah[LANES], bl[LANES], bh[LANES];                                            \
        pk_src16(w, x, 0, al, ah, 1);                                                              \
        pk_src16(w, x, 1, bl, bh, 1);                                                              \
        VLOOP(l) {                                                                                 \
            u32 a = al[l], b = bl[l];                                                              \
            al[l] = (expr);                                                                        \
            a = ah[l], b = bh[l];                                                                  \
            ah[l] = (expr);                                                                        \
        }                                                                                          \
        pk_finish(w, x, al, ah, 1);                                                                \
    }
PK16OP(v_pk_max_num_f16, max_num16(a, b))
PK16OP(v_pk_min_num_f16, min_num16(a, b))
PK16OP(v_pk_maximum_f16, maximum16(a, b))
PK16OP(v_pk_minimum_f16, minimum16(a, b))

/* gfx12 IEEE 754-2019 minimum/maximum (RDNA4 ISA VOP3 V_MAXIMUM_F32, V_MAXIMUM3_F32,
 * V_MAXIMUMMINIMUM_F32 = minimum(maximum(S0, S1), S2), V_MINIMUMMAXIMUM_F32, the F16 and F64
 * forms; S_MAXIMUM_F32 ... in the SALU): NaN-propagating, with no IEEE mode bit */
V2(v_maximum_f32, FK_F32, maximum32(a, b))
V2(v_minimum_f32, FK_F32, minimum32(a, b))
V3(v_maximum3_f32, FK_F32, maximum32(maximum32(a, b), c))
V3(v_minimum3_f32, FK_F32, minimum32(minimum32(a, b), c))
V3(v_maximumminimum_f32, FK_F32, minimum32(maximum32(a, b), c))
V3(v_minimummaximum_f32, FK_F32, maximum32(minimum32(a, b), c))
F64MM(v_maximum_f64, maximum64(a, b))
F64MM(v_minimum_f64, minimum64(a, b))
H16OP(v_maximum_f16, 2, maximum16(a, b))
H16OP(v_minimum_f16, 2, minimum16(a, b))
H16OP(v_maximum3_f16, 3, maximum16(maximum16(a, b), c))
H16OP(v_minimum3_f16, 3, minimum16(minimum16(a, b), c))
H16OP(v_maximumminimum_f16, 3, minimum16(maximum16(a, b), c))
H16OP(v_minimummaximum_f16, 3, maximum16(minimum16(a, b), c))

/* V_FMAC_F16 (RDNA3 ISA VOP2): D.f16 = S0.f16 * S1.f16 + D.f16, fused; the accumulator is the
 * destination half (op_sel bit 3 after rdna.c folds v5.h there), flushed like the sources when
 * MODE flushes f16 input denormals. */
VFN static void v_fmac_f16(wave *w, const xinst *x) {
    u32 t0[LANES], t1[LANES], c[LANES], d[LANES];
    const u32 *A = vs32(w, x, 0, t0, FK_F16), *B = vs32(w, x, 1, t1, FK_F16);
    fmac16_acc(w, x, c);
    VLOOP(l) d[l] = fma16(h2d(A[l]), h2d(B[l]), h2d(c[l]));
    vd16(w, x, d, FK_F16, 1);
}

/* V_FMA_DX9_ZERO_F32 / V_FMAC_DX9_ZERO_F32 (RDNA3/RDNA4 ISA): S2 (fmac: D) when S0 or S1 is
 * zero (DX9: 0 * anything, inf and NaN included, is 0; S2 is returned as it is), else the fused
 * S0 * S1 + S2. */
static inline u32 fma_dx9(u32 a, u32 b, u32 c) {
    return f32(a) == 0.0f || f32(b) == 0.0f ? c : bf32(hw_fma(f32(a), f32(b), f32(c)));
}
V3(v_fma_dx9_zero_f32, FK_F32, fma_dx9(a, b, c))
/* V_FMAC_DX9_ZERO_F32: the accumulator is the destination register, as v_fmac_f32's (the
 * _e64 record has no third source; its _e32 one names vdst there: reading D serves both, and
 * test_valu_forms found the _e64 form reading a constant 0 instead). */
VFN static void v_fmac_dx9_zero_f32(wave *w, const xinst *x) {
    u32 t0[LANES], t1[LANES], d[LANES];
    const u32 *A = vs32(w, x, 0, t0, FK_F32), *B = vs32(w, x, 1, t1, FK_F32);
    const u32 *D = vdreg(w, &x->in.dst[0]);
    int ftz = fk_flush_in(w->mode, FK_F32);
    VLOOP(l) {
        u32 c = ftz && !(D[l] & 0x7f800000u) ? D[l] & 0x80000000u : D[l];
        d[l] = fma_dx9(A[l], B[l], c);
    }
    vd32(w, x, d, FK_F32);
}

/* V_XOR3_B32 (RDNA3 ISA VOP3): D = S0 ^ S1 ^ S2 */
V3(v_xor3_b32, FK_I32, a ^ b ^ c)

/* V_CVT_I32_I16 / V_CVT_U32_U16 (RDNA3 ISA VOP1): a 16-bit source extended to 32 bits */
V1(v_cvt_i32_i16, FK_I16, (u32)(i32)(i16)(a & 0xffff))
V1(v_cvt_u32_u16, FK_I16, a & 0xffff)

/* ---- issue 15's survey: RDNA-only VALU ops that used to fault ------------------------------ */

/* V_CVT_PK_U16_F32 / V_CVT_PK_I16_F32 (RDNA3/RDNA4 ISA VOP3): D = {cvt(S1), cvt(S0)}, each f32
 * truncated toward zero and saturated to the 16-bit range; NaN gives 0 (the v_cvt_u16_f32 /
 * v_cvt_i16_f32 rules of the manuals' pseudocode). */
static inline u32 f32_to_u16_sat(u32 a) {
    float f = f32(a);
    return f != f || f <= 0.0f ? 0 : f >= 65535.0f ? 0xffff : (u32)f;
}
static inline u32 f32_to_i16_sat(u32 a) {
    float f = f32(a);
    i32 v = f != f ? 0 : f <= -32768.0f ? -32768 : f >= 32767.0f ? 32767 : (i32)f;
    return (u32)v & 0xffff;
}
#define CVT_PK16(name, cvt)                                                                        \
    VFN static void name(wave *w, const xinst *x) {                                                \
        u32 t0[LANES], t1[LANES], d[LANES];                                                        \
        const u32 *A = vs32(w, x, 0, t0, FK_F32), *B = vs32(w, x, 1, t1, FK_F32);                  \
        VLOOP(l) d[l] = cvt(A[l]) | cvt(B[l]) << 16;                                               \
        vd32(w, x, d, FK_I32);                                                                     \
    }
CVT_PK16(v_cvt_pk_u16_f32, f32_to_u16_sat)
CVT_PK16(v_cvt_pk_i16_f32, f32_to_i16_sat)

/* V_MULLIT_F32 (RDNA3/RDNA4 ISA VOP3): D = S0 * S1, but -MAX_FLOAT when S1 is -MAX_FLOAT, -inf or
 * NaN, or S2 is <= 0 or NaN (the lighting guard of the manuals' pseudocode). */
static inline u32 mullit(u32 a, u32 b, u32 c) {
    float fb = f32(b), fc = f32(c);
    if (fb == -0x1.fffffep127f || fb == -__builtin_inff() || fb != fb || !(fc > 0.0f))
        return 0xff7fffffu;
    return bf32(f32(a) * fb);
}
V3(v_mullit_f32, FK_F32, mullit(a, b, c))

/* V_CNDMASK_B16 (RDNA3/RDNA4 ISA VOP3): D.u16 = VCC[lane] ? S1.u16 : S0.u16, the mask in the
 * SGPR(s) of src2.  A move: the neg/abs modifiers flip / clear bit 15, nothing is flushed. */
VFN static void v_cndmask_b16(wave *w, const xinst *x) {
    u32 t0[LANES], t1[LANES], sel[LANES], d[LANES];
    const isa_valu_fields *v = &x->in.f.v;
    vunpack(vmask_src(w, x, 2), sel);
    const u32 *A = vs32(w, x, 0, t0, FK_I16), *B = vs32(w, x, 1, t1, FK_I16);
    u32 ca = (v->abs & 1) ? 0x8000u : 0, fa = (v->neg & 1) ? 0x8000u : 0;
    u32 cb = (v->abs & 2) ? 0x8000u : 0, fb = (v->neg & 2) ? 0x8000u : 0;
    VLOOP(l) d[l] = vsel(sel[l], (B[l] & ~cb) ^ fb, (A[l] & ~ca) ^ fa);
    vd16(w, x, d, FK_I16, 1);
}

/* V_NOT_B16 (RDNA3/RDNA4 ISA VOP1): D.u16 = ~S0.u16. */
VFN static void v_not_b16(wave *w, const xinst *x) {
    u32 t0[LANES], d[LANES];
    const u32 *A = vs32(w, x, 0, t0, FK_I16);
    VLOOP(l) d[l] = ~A[l] & 0xffff;
    vd16(w, x, d, FK_I16, 1);
}

/* S_PACK_HL_B32_B16 (RDNA3/RDNA4 ISA SOP2): D = {S1[15:0], S0[31:16]}. */
static void s_pack_hl_b32_b16(wave *w, const xinst *x) {
    x_sd32(w, x, x_s32(w, x, 0) >> 16 | x_s32(w, x, 1) << 16);
}

/* ---- VINTERP (RDNA3/RDNA4 ISA "VINTERP"): parameter interpolation as plain ALU ops ----------
 * The manuals' pseudocode reads other lanes of the lane's quad (q = laneId & ~3):
 * V_INTERP_P10_*: D = fma(src0's VGPR in lane q + 1, S1, src2's VGPR in lane q);
 * V_INTERP_P2_*:  D = fma(src0's VGPR in lane q + 2, S1, S2).
 * The _f16_f32 forms read those VGPRs as the f16 half op_sel names, widened to f32; p2_f16
 * rounds the f32 fma to f16 into the half op_sel[3] names (the pseudocode's 16'F(fma(...)): two
 * roundings).  The quad lanes are read whatever EXEC says (the pseudocode reads VGPRs, not
 * sources).  neg negates a source, clamp clamps the result; S1 (and p2's S2) is read as any VALU
 * source.  The rtz forms are not here (they fault as unimplemented). */
static int vi_src(wave *w, const xinst *x, int i, unsigned lane_off, int f16, float *out) {
    const isa_opnd *o = &x->in.src[i];
    const isa_valu_fields *v = &x->in.f.v;
    if (o->kind != ISA_OPND_VGPR) {
        wave_fault(w, x, XF_UNIMPLEMENTED);
        w->fault.note = "a VINTERP quad source that is not a VGPR";
        return 0;
    }
    const u32 *R = w->v[o->idx];
    int hi = (v->opsel >> i) & 1, ftz = fk_flush_in(w->mode, f16 ? FK_F16 : FK_F32);
    for (unsigned l = 0; l < LANES; l++) {
        u32 r = R[(l & ~3u) + lane_off];
        float f;
        if (f16) {
            u32 h = (hi ? r >> 16 : r) & 0xffff;
            if (ftz && !(h & 0x7c00))
                h &= 0x8000;
            f = (float)h2d(h);
        } else {
            if (ftz && !(r & 0x7f800000u))
                r &= 0x80000000u;
            f = f32(r);
        }
        out[l] = (v->neg >> i) & 1 ? -f : f;
    }
    return 1;
}
static void vinterp(wave *w, const xinst *x, int p2, int f16_in, int f16_out) {
    float a[LANES], c[LANES];
    u32 t1[LANES], t2[LANES], d[LANES];
    if (!vi_src(w, x, 0, p2 ? 2 : 1, f16_in, a))
        return;
    const u32 *B = vs32(w, x, 1, t1, FK_F32);
    if (p2) {
        const u32 *C = vs32(w, x, 2, t2, FK_F32);
        for (unsigned l = 0; l < LANES; l++)
            c[l] = f32(C[l]);
    } else if (!vi_src(w, x, 2, 0, f16_in, c)) {
        return;
    }
    for (unsigned l = 0; l < LANES; l++) {
        float r = fmaf(a[l], f32(B[l]), c[l]);
        d[l] = f16_out ? d2h((double)r) : bf32(r);
    }
    if (f16_out)
        vd16(w, x, d, FK_F16, 1);
    else
        vd32(w, x, d, FK_F32);
}
static void v_interp_p10_f32(wave *w, const xinst *x) { vinterp(w, x, 0, 0, 0); }
static void v_interp_p2_f32(wave *w, const xinst *x) { vinterp(w, x, 1, 0, 0); }
static void v_interp_p10_f16_f32(wave *w, const xinst *x) { vinterp(w, x, 0, 1, 0); }
static void v_interp_p2_f16_f32(wave *w, const xinst *x) { vinterp(w, x, 1, 1, 1); }

/* ---- scalar float: gfx12 SALU (RDNA4 ISA "SALU floating point") and v_s_* ----------------- */

static inline float sflush32(const wave *w, float v, int out) {
    int keep = out ? (w->mode & 0x20) : (w->mode & 0x10);
    return !keep && fabsf(v) < 0x1p-126f ? copysignf(0.0f, v) : v;
}
static inline u32 sflush16(const wave *w, u32 h, int out) {
    int keep = out ? (w->mode & 0x80) : (w->mode & 0x40);
    return !keep && !(h & 0x7c00) ? h & 0x8000 : h;
}
static inline float sf(const wave *w, const xinst *x, int i) {
    return sflush32(w, f32(x_s32(w, x, i)), 0);
}
static inline u32 sh16(const wave *w, const xinst *x, int i) {
    return sflush16(w, x_s32(w, x, i) & 0xffff, 0);
}
static inline void sdf(wave *w, const xinst *x, float v) { x_sd32(w, x, bf32(sflush32(w, v, 1))); }
/* an f16 result: bits 31:16 of the SGPR are written as 0 (RDNA4 ISA "D.u32 = 32'U(result)") */
static inline void sdh(wave *w, const xinst *x, u32 h) { x_sd32(w, x, sflush16(w, h & 0xffff, 1)); }

#define SF2(name, expr)                                                                            \
    static void name(wave *w, const xinst *x) {                                                    \
        float a = sf(w, x, 0), b = sf(w, x, 1);                                                    \
        (void)b;                                                                                   \
        sdf(w, x, (expr));                                                                         \
    }
SF2(s_add_f32, hw_add(a, b)) /* (valu.h: the VALU ops' NaN results) */
SF2(s_sub_f32, hw_sub(a, b))
SF2(s_mul_f32, hw_mul(a, b))
SF2(s_max_num_f32, f32(max_num32(bf32(a), bf32(b))))
SF2(s_min_num_f32, f32(min_num32(bf32(a), bf32(b))))
SF2(s_maximum_f32, f32(maximum32(bf32(a), bf32(b))))
SF2(s_minimum_f32, f32(minimum32(bf32(a), bf32(b))))
SF2(s_trunc_f32, truncf(a))
SF2(s_floor_f32, floorf(a))
SF2(s_ceil_f32, ceilf(a))
SF2(s_rndne_f32, rintf(a))
/* D = S0 * S1 + D, and the K forms: the decoder puts K last (src/isa/scalar.c), after S0 and
 * S1, for both; RDNA4 ISA S_FMAAK_F32 is S0 * S1 + K, S_FMAMK_F32 is S0 * K + S1 */
static void s_fmac_f32(wave *w, const xinst *x) {
    float d = sflush32(w, f32(w->s[x->in.dst[0].idx]), 0);
    sdf(w, x, hw_fma(sf(w, x, 0), sf(w, x, 1), d));
}
static void s_fmaak_f32(wave *w, const xinst *x) {
    sdf(w, x, hw_fma(sf(w, x, 0), sf(w, x, 1), sf(w, x, 2)));
}
static void s_fmamk_f32(wave *w, const xinst *x) {
    sdf(w, x, hw_fma(sf(w, x, 0), sf(w, x, 2), sf(w, x, 1)));
}
static void s_cvt_f32_i32(wave *w, const xinst *x) { sdf(w, x, (float)(i32)x_s32(w, x, 0)); }
static void s_cvt_f32_u32(wave *w, const xinst *x) { sdf(w, x, (float)x_s32(w, x, 0)); }
/* float -> integer: truncate, saturate, NaN -> 0 (as V_CVT_I32_F32 / V_CVT_U32_F32) */
static void s_cvt_i32_f32(wave *w, const xinst *x) {
    float a = sf(w, x, 0);
    x_sd32(w, x,
           a != a         ? 0
           : a >= 0x1p31f ? 0x7fffffffu
           : a < -0x1p31f ? 0x80000000u
                          : (u32)(i32)a);
}
static void s_cvt_u32_f32(wave *w, const xinst *x) {
    float a = sf(w, x, 0);
    x_sd32(w, x, a != a || a <= 0 ? 0 : a >= 0x1p32f ? 0xffffffffu : (u32)a);
}
static void s_cvt_f16_f32(wave *w, const xinst *x) { sdh(w, x, d2h(sf(w, x, 0))); }
static void s_cvt_f32_f16(wave *w, const xinst *x) { sdf(w, x, h2f(sh16(w, x, 0))); }
static void s_cvt_hi_f32_f16(wave *w, const xinst *x) {
    sdf(w, x, h2f(sflush16(w, x_s32(w, x, 0) >> 16, 0)));
}
#define SH2(name, expr)                                                                            \
    static void name(wave *w, const xinst *x) {                                                    \
        u32 a = sh16(w, x, 0), b = sh16(w, x, 1);                                                  \
        double da = h2d(a), db = h2d(b);                                                           \
        (void)a, (void)b, (void)da, (void)db;                                                      \
        sdh(w, x, (expr));                                                                         \
    }
SH2(s_add_f16, r16(da + db))
SH2(s_sub_f16, r16(da - db))
SH2(s_mul_f16, r16(da *db))
SH2(s_max_num_f16, max_num16(a, b))
SH2(s_min_num_f16, min_num16(a, b))
SH2(s_maximum_f16, maximum16(a, b))
SH2(s_minimum_f16, minimum16(a, b))
SH2(s_trunc_f16, d2h(trunc(da)))
SH2(s_floor_f16, d2h(floor(da)))
SH2(s_ceil_f16, d2h(ceil(da)))
SH2(s_rndne_f16, d2h(nearbyint(da)))
static void s_fmac_f16(wave *w, const xinst *x) {
    u32 d = sflush16(w, w->s[x->in.dst[0].idx] & 0xffff, 0);
    sdh(w, x, fma16(h2d(sh16(w, x, 0)), h2d(sh16(w, x, 1)), h2d(d)));
}
/* S_CMP_*_F32/F16: SCC = the compare; the "n" forms are true for unordered operands */
#define SCMPS(X)                                                                                   \
    X(s_cmp_lt_f32, s_cmp_lt_f16, a < b)                                                           \
    X(s_cmp_eq_f32, s_cmp_eq_f16, a == b)                                                          \
    X(s_cmp_le_f32, s_cmp_le_f16, a <= b)                                                          \
    X(s_cmp_gt_f32, s_cmp_gt_f16, a > b)                                                           \
    X(s_cmp_lg_f32, s_cmp_lg_f16, a<b || a> b)                                                     \
    X(s_cmp_ge_f32, s_cmp_ge_f16, a >= b)                                                          \
    X(s_cmp_o_f32, s_cmp_o_f16, a == a && b == b)                                                  \
    X(s_cmp_u_f32, s_cmp_u_f16, a != a || b != b)                                                  \
    X(s_cmp_nge_f32, s_cmp_nge_f16, !(a >= b))                                                     \
    X(s_cmp_nlg_f32, s_cmp_nlg_f16, !(a < b || a > b))                                             \
    X(s_cmp_ngt_f32, s_cmp_ngt_f16, !(a > b))                                                      \
    X(s_cmp_nle_f32, s_cmp_nle_f16, !(a <= b))                                                     \
    X(s_cmp_neq_f32, s_cmp_neq_f16, !(a == b))                                                     \
    X(s_cmp_nlt_f32, s_cmp_nlt_f16, !(a < b))
#define SCMP_DEF(n32, n16, expr)                                                                   \
    static void n32(wave *w, const xinst *x) {                                                     \
        double a = sf(w, x, 0), b = sf(w, x, 1);                                                   \
        w->scc = (expr);                                                                           \
    }                                                                                              \
    static void n16(wave *w, const xinst *x) {                                                     \
        double a = h2d(sh16(w, x, 0)), b = h2d(sh16(w, x, 1));                                     \
        w->scc = (expr);                                                                           \
    }
SCMPS(SCMP_DEF)

/* V_S_EXP_F32 ... (RDNA4 ISA VOP3 "v_s_*"): the transcendental unit on a scalar operand, the
 * result to an SGPR; the same computation as V_EXP_F32 ... (valu_f32.c: denormal inputs and
 * results flushed).  abs/neg apply to the source; clamp/omod are refused at build time by
 * being absent from LLVM's syntax for these ops. */
static inline float tftz(float v) { return fabsf(v) < 0x1p-126f ? copysignf(0.0f, v) : v; }
static float vs_src(const wave *w, const xinst *x) {
    u32 a = x_s32(w, x, 0);
    if (x->in.f.v.abs & 1)
        a &= 0x7fffffffu;
    if (x->in.f.v.neg & 1)
        a ^= 0x80000000u;
    return f32(a);
}
#define VSF(name, expr)                                                                            \
    static void name(wave *w, const xinst *x) {                                                    \
        float a = vs_src(w, x);                                                                    \
        x_sd32(w, x, bf32(expr));                                                                  \
    }
VSF(v_s_exp_f32, tftz(exp2_f32(a)))
VSF(v_s_log_f32, log2_f32(tftz(a)))
VSF(v_s_rcp_f32, tftz(1.0f / tftz(a)))
VSF(v_s_rsq_f32, tftz((float)(1.0 / sqrt((double)tftz(a)))))
VSF(v_s_sqrt_f32, tftz(sqrtf(tftz(a))))
/* The f16 forms (RDNA4 ISA V_S_EXP_F16 ...: D.f16 = f(S0.f16), D[31:16] = 0): the source is the
 * SGPR's low half (op_sel[0]: the high one), abs/neg on bit 15, f16 denormals as MODE says,
 * the function as the VALU's V_EXP_F16 ... computes it (valu_f16.c). */
static void vsh(wave *w, const xinst *x, double (*f)(double)) {
    u32 a = x_s32(w, x, 0) >> (x->in.f.v.opsel & 1 ? 16 : 0) & 0xffff;
    if (x->in.f.v.abs & 1)
        a &= 0x7fffu;
    if (x->in.f.v.neg & 1)
        a ^= 0x8000u;
    if (fk_flush_in(w->mode, FK_F16) && !(a & 0x7c00))
        a &= 0x8000u;
    u32 d = d2h(f(h2d(a)));
    if (fk_flush_out(w->mode, FK_F16) && !(d & 0x7c00))
        d &= 0x8000u;
    x_sd32(w, x, d);
}
static double h_rcp(double v) { return 1.0 / v; }
static double h_rsq(double v) { return 1.0 / sqrt(v); }
static void v_s_exp_f16(wave *w, const xinst *x) { vsh(w, x, exp2); }
static void v_s_log_f16(wave *w, const xinst *x) { vsh(w, x, log2); }
static void v_s_rcp_f16(wave *w, const xinst *x) { vsh(w, x, h_rcp); }
static void v_s_rsq_f16(wave *w, const xinst *x) { vsh(w, x, h_rsq); }
static void v_s_sqrt_f16(wave *w, const xinst *x) { vsh(w, x, sqrt); }

/* S_CVT_PK_RTZ_F16_F32 (RDNA4 ISA SOP2): D = {f16(S1), f16(S0)}, each rounded toward zero
 * whatever MODE says; f32 inputs flushed as MODE says. */
static void s_cvt_pk_rtz_f16_f32(wave *w, const xinst *x) {
    x_sd32(w, x, d2h_rtz(sf(w, x, 0)) | d2h_rtz(sf(w, x, 1)) << 16);
}

/* S_MOVRELSD_2_B32 (RDNA3/RDNA4 ISA SOP1): SGPR[D + M0[25:16]] = SGPR[S0 + M0[9:0]]; an index
 * past s105 is refused with a note. */
static void s_movrelsd_2_b32(wave *w, const xinst *x) {
    u32 m0 = w->s[ISA_SREG_M0];
    unsigned si = x->in.src[0].idx + (m0 & 0x3ff), di = x->in.dst[0].idx + (m0 >> 16 & 0x3ff);
    if (x->in.src[0].kind != ISA_OPND_SREG || x->in.dst[0].kind != ISA_OPND_SREG || si > 105 ||
        di > 105) {
        wave_fault(w, x, XF_UNIMPLEMENTED);
        w->fault.note = "an M0-relative SGPR index past s105";
        return;
    }
    w->s[di] = w->s[si];
}

/* ---- SOPP / messages ----------------------------------------------------------------------- */

/* S_ROUND_MODE / S_DENORM_MODE (RDNA3 ISA SOPP): MODE.FP_ROUND = SIMM16[3:0] and MODE.FP_DENORM
 * = SIMM16[3:0] (a non-zero FP_ROUND sends vector instructions through round.c) */
static void s_round_mode(wave *w, const xinst *x) {
    w->mode = (w->mode & ~0xfu) | (x->in.w[0] & 0xf);
}
static void s_denorm_mode(wave *w, const xinst *x) {
    w->mode = (w->mode & ~0xf0u) | (x->in.w[0] & 0xf) << 4;
}

/* S_SENDMSG (RDNA3/RDNA4 message ids, SIMM16[7:0]; LLVM's AMDGPU Usage lists the gfx11/gfx12
 * ids): MSG_INTERRUPT (1) goes to a host handler nobody listens to here; MSG_DEALLOC_VGPRS (3)
 * only releases the VGPRs of a wave that is about to end (a hint: nothing of the wave's state
 * changes that it can still see); both let the wave go on.  The others (HS_TESSFACTOR,
 * GS_ALLOC_REQ, gfx11's STALL_WAVE_GEN and HALT_WAVES, unnamed ids) are graphics or
 * wave-launch control with no meaning gfxemu can give a compute wave: they stop it by name. */
static void r_sendmsg(wave *w, const xinst *x) {
    switch (x->in.f.s.msg) {
    case 1:
    case 3: return;
    case 0: wave_fault(w, x, XF_ILLEGAL); return;
    default:
        wave_fault(w, x, XF_UNIMPLEMENTED);
        w->fault.note = "message id without a compute meaning in gfxemu";
    }
}
/* S_SENDMSG_RTN_B32/B64 (RDNA3 ISA): the message's answer in SDST.  MSG_RTN_GET_DOORBELL (0x80)
 * answers the queue's doorbell id (gfxemu runs one queue: 0), MSG_RTN_GET_TMA (0x82) and
 * MSG_RTN_GET_TBA (0x85) the trap handler's memory and base addresses (gfxemu installs no trap
 * handler, s_trap stops the wave: 0), MSG_RTN_GET_REALTIME (0x83) the 100 MHz constant-rate
 * clock s_memrealtime reads on CDNA, gfx12's MSG_RTN_GET_SE_AID_ID (0x87) the shader engine and
 * die the wave runs on (one of each: 0).  GET_DDID, SAVE_WAVE (context save), gfx12's
 * GET_TBA_TO_PC and unnamed ids stop the wave by name. */
static void r_sendmsg_rtn(wave *w, const xinst *x) {
    u64 v;
    switch (x->in.f.s.msg) {
    case 0x80:
    case 0x82:
    case 0x85: v = 0; break;
    case 0x87:
        if (x->in.arch != ISA_GFX1201)
            goto refuse;
        v = 0;
        break;
    case 0x83: {
        struct timespec ts;
        clock_gettime(CLOCK_MONOTONIC, &ts);
        v = ((u64)ts.tv_sec * 1000000000u + (u64)ts.tv_nsec) / 10;
        break;
    }
    default:
    refuse:
        wave_fault(w, x, XF_UNIMPLEMENTED);
        w->fault.note = "message id without a compute meaning in gfxemu";
        return;
    }
    if (x->in.dst[0].n >= 2)
        x_sd64(w, x, v);
    else
        x_sd32(w, x, (u32)v);
}

/* S_MUL_U64 (RDNA4 ISA SOP2): the low 64 bits of the product; SCC is not changed */
static void s_mul_u64(wave *w, const xinst *x) { x_sd64(w, x, x_s64(w, x, 0) * x_s64(w, x, 1)); }

/* ---- memory -------------------------------------------------------------------------------- */

/* DS_PERMUTE_B32 / DS_BPERMUTE_B32 in wave32: the lane index is ((addr + offset) >> 2) mod 32
 * (RDNA3 ISA "LDS: permute"); inactive lanes are not written and, as sources, read 0. */
static void ds_permute32(wave *w, const xinst *x, int backward) {
    const u32 *a = w->v[x->in.src[0].idx], *s = w->v[x->in.src[1].idx];
    u32 *d = w->v[x->in.dst[0].idx], tmp[32] = {0};
    u64 ex = wave_exec(w);
    for (unsigned l = 0; l < 32; l++) {
        if (!((ex >> l) & 1))
            continue;
        unsigned other = ((a[l] + (u32)x->in.f.m.offset) >> 2) & 31;
        if (backward)
            tmp[l] = (ex >> other) & 1 ? s[other] : 0;
        else
            tmp[other] = s[l];
    }
    for (unsigned l = 0; l < 32; l++)
        if ((ex >> l) & 1)
            d[l] = tmp[l];
}
static void r_ds_permute32(wave *w, const xinst *x) { ds_permute32(w, x, 0); }
static void r_ds_bpermute32(wave *w, const xinst *x) { ds_permute32(w, x, 1); }
/* gfx12 DS_BPERMUTE_FI_B32 (RDNA4 ISA "LDS: permute"): ds_bpermute_b32 that reads its source
 * lane whether or not that lane is in EXEC ("fetch inactive"); EXEC picks only the lanes
 * written.  The index is ((addr + offset) >> 2) mod the wave size. */
static void ds_bpermute_fi(wave *w, const xinst *x, unsigned lanes) {
    const u32 *a = w->v[x->in.src[0].idx], *s = w->v[x->in.src[1].idx];
    u32 *d = w->v[x->in.dst[0].idx], tmp[LANES] = {0};
    u64 ex = wave_exec(w);
    for (unsigned l = 0; l < lanes; l++)
        if ((ex >> l) & 1)
            tmp[l] = s[((a[l] + (u32)x->in.f.m.offset) >> 2) & (lanes - 1)];
    for (unsigned l = 0; l < lanes; l++)
        if ((ex >> l) & 1)
            d[l] = tmp[l];
}
static void r_ds_bpermute_fi64(wave *w, const xinst *x) { ds_bpermute_fi(w, x, 64); }
static void r_ds_bpermute_fi32(wave *w, const xinst *x) { ds_bpermute_fi(w, x, 32); }

/* GLOBAL/FLAT_ATOMIC_MIN_F32 / MAX_F32 (gfx11) and the _NUM_ names (gfx12): MEM = the smaller
 * (larger) of MEM and DATA (xatomic.h XA_FMIN/XA_FMAX) */
static void r_atomic_fmin32(wave *w, const xinst *x) { x_flat_atomic(w, x, XA_FMIN, 0); }
static void r_atomic_fmax32(wave *w, const xinst *x) { x_flat_atomic(w, x, XA_FMAX, 0); }
/* gfx12's _NUM_ forms are IEEE minimumNumber/maximumNumber (RDNA4 ISA GLOBAL_ATOMIC_MIN_NUM_F32,
 * DS_MIN_NUM_F32 ...): a NaN DATA leaves MEM alone, a NaN MEM takes DATA, -0 < +0
 * (xatomic.c XA_FMIN_NUM); the DS forms take f32 and f64, with and without _RTN */
static void r_atomic_fmin_num32(wave *w, const xinst *x) { x_flat_atomic(w, x, XA_FMIN_NUM, 0); }
static void r_atomic_fmax_num32(wave *w, const xinst *x) { x_flat_atomic(w, x, XA_FMAX_NUM, 0); }
static void r_ds_fmin_num32(wave *w, const xinst *x) { x_ds_atomic(w, x, XA_FMIN_NUM, 0); }
static void r_ds_fmax_num32(wave *w, const xinst *x) { x_ds_atomic(w, x, XA_FMAX_NUM, 0); }
static void r_ds_fmin_num64(wave *w, const xinst *x) { x_ds_atomic(w, x, XA_FMIN_NUM, 1); }
static void r_ds_fmax_num64(wave *w, const xinst *x) { x_ds_atomic(w, x, XA_FMAX_NUM, 1); }
/* GLOBAL_ATOMIC_CSUB_U32 (gfx11) / *_ATOMIC_SUB_CLAMP_U32 (gfx12): MEM = MEM < DATA ? 0 :
 * MEM - DATA; *_ATOMIC_COND_SUB_U32 (gfx12): MEM = MEM >= DATA ? MEM - DATA : MEM; the old value
 * returned with glc / TH_ATOMIC_RETURN (RDNA3 ISA GLOBAL_ATOMIC_CSUB_U32, RDNA4 ISA
 * GLOBAL_ATOMIC_SUB_CLAMP_U32 and GLOBAL_ATOMIC_COND_SUB_U32).  The DS forms (gfx12
 * DS_SUB_CLAMP_U32 / DS_COND_SUB_U32, with and without _RTN) are the same on LDS. */
/* gfx11 GLOBAL/FLAT_ATOMIC_CMPSWAP_F32 (RDNA3 ISA): DATA[31:0] is the new value, DATA[63:32]
 * the compare value; MEM takes the new value when MEM == compare as f32 (so -0 matches +0 and
 * a NaN matches nothing), and the old MEM is returned with glc (xatomic.c XA_CMPSWAP_F, as
 * buffer_atomic_cmpswap_f32) */
static void r_atomic_fcmpswap32(wave *w, const xinst *x) { x_flat_atomic(w, x, XA_CMPSWAP_F, 0); }
static void r_atomic_csub(wave *w, const xinst *x) { x_flat_atomic(w, x, XA_CSUB, 0); }
static void r_atomic_cond_sub(wave *w, const xinst *x) { x_flat_atomic(w, x, XA_COND_SUB, 0); }
static void r_ds_csub(wave *w, const xinst *x) { x_ds_atomic(w, x, XA_CSUB, 0); }
static void r_ds_cond_sub(wave *w, const xinst *x) { x_ds_atomic(w, x, XA_COND_SUB, 0); }

/* ---- rows ---------------------------------------------------------------------------------- */

/* clang-format off */
const rdna_row x_rdna_alu_rows[] = {
    OWNV(v_max_num_f32, ISA_T_F32, v_max_num_f32), OWNV(v_min_num_f32, ISA_T_F32, v_min_num_f32),
    OWNV(v_max3_num_f32, ISA_T_F32, v_max3_num_f32), OWNV(v_min3_num_f32, ISA_T_F32, v_min3_num_f32),
    OWNV(v_med3_num_f32, ISA_T_F32, v_med3_num_f32),
    OWNV(v_maxmin_num_f32, ISA_T_F32, v_maxmin_num_f32),
    OWNV(v_minmax_num_f32, ISA_T_F32, v_minmax_num_f32),
    OWNV(v_maxmin_f32, ISA_T_F32, v_maxmin_f32), OWNV(v_minmax_f32, ISA_T_F32, v_minmax_f32),
    OWNV(v_maxmin_i32, ISA_T_B32, v_maxmin_i32), OWNV(v_minmax_i32, ISA_T_B32, v_minmax_i32),
    OWNV(v_maxmin_u32, ISA_T_B32, v_maxmin_u32), OWNV(v_minmax_u32, ISA_T_B32, v_minmax_u32),
    OWN(v_max_num_f64, ISA_T_F64, v_max_num_f64), OWN(v_min_num_f64, ISA_T_F64, v_min_num_f64),
    OWNV16(v_max_num_f16, ISA_T_F16, v_max_num_f16), OWNV16(v_min_num_f16, ISA_T_F16, v_min_num_f16),
    OWNV16(v_max3_num_f16, ISA_T_F16, v_max3_num_f16),
    OWNV16(v_min3_num_f16, ISA_T_F16, v_min3_num_f16),
    OWNV16(v_med3_num_f16, ISA_T_F16, v_med3_num_f16),
    OWNV16(v_maxmin_num_f16, ISA_T_F16, v_maxmin_num_f16),
    OWNV16(v_minmax_num_f16, ISA_T_F16, v_minmax_num_f16),
    OWNV16(v_maxmin_f16, ISA_T_F16, v_maxmin_f16), OWNV16(v_minmax_f16, ISA_T_F16, v_minmax_f16),
    OWNV16(v_fmac_f16, ISA_T_F16, v_fmac_f16), OWNV(v_xor3_b32, ISA_T_B32, v_xor3_b32),
    OWN(v_pk_max_num_f16, ISA_T_V2F16, v_pk_max_num_f16),
    OWN(v_pk_min_num_f16, ISA_T_V2F16, v_pk_min_num_f16),
    OWN(v_pk_maximum_f16, ISA_T_V2F16, v_pk_maximum_f16),
    OWN(v_pk_minimum_f16, ISA_T_V2F16, v_pk_minimum_f16),
    OWNV(v_maximum_f32, ISA_T_F32, v_maximum_f32), OWNV(v_minimum_f32, ISA_T_F32, v_minimum_f32),
    OWNV(v_maximum3_f32, ISA_T_F32, v_maximum3_f32), OWNV(v_minimum3_f32, ISA_T_F32, v_minimum3_f32),
    OWNV(v_maximumminimum_f32, ISA_T_F32, v_maximumminimum_f32),
    OWNV(v_minimummaximum_f32, ISA_T_F32, v_minimummaximum_f32),
    OWN(v_maximum_f64, ISA_T_F64, v_maximum_f64), OWN(v_minimum_f64, ISA_T_F64, v_minimum_f64),
    OWNV16(v_maximum_f16, ISA_T_F16, v_maximum_f16), OWNV16(v_minimum_f16, ISA_T_F16, v_minimum_f16),
    OWNV16(v_maximum3_f16, ISA_T_F16, v_maximum3_f16),
    OWNV16(v_minimum3_f16, ISA_T_F16, v_minimum3_f16),
    OWNV16(v_maximumminimum_f16, ISA_T_F16, v_maximumminimum_f16),
    OWNV16(v_minimummaximum_f16, ISA_T_F16, v_minimummaximum_f16),
    OWN(s_maximum_f32, ISA_T_F32, s_maximum_f32), OWN(s_minimum_f32, ISA_T_F32, s_minimum_f32),
    OWN(s_maximum_f16, ISA_T_F16, s_maximum_f16), OWN(s_minimum_f16, ISA_T_F16, s_minimum_f16),
    OWNV(v_cvt_pk_u16_f32, ISA_T_F32, v_cvt_pk_u16_f32),
    OWNV(v_cvt_pk_i16_f32, ISA_T_F32, v_cvt_pk_i16_f32), OWNV(v_mullit_f32, ISA_T_F32, v_mullit_f32),
    OWNV16(v_cndmask_b16, ISA_T_B16, v_cndmask_b16), OWNV16(v_not_b16, ISA_T_B16, v_not_b16),
    /* V_FMAAK_F16 / V_FMAMK_F16 (RDNA3 ISA VOP2): fma(S0, S1, K) / fma(S0, K, S1), K the
     * literal's low 16 bits in the source slot the decoder gives it, as v_fma_f16 */
    AS16(v_fmaak_f16, v_fma_f16), AS16(v_fmamk_f16, v_fma_f16),
    OWN(s_pack_hl_b32_b16, ISA_T_B32, s_pack_hl_b32_b16),
    OWN(v_interp_p10_f32, ISA_T_F32, v_interp_p10_f32),
    OWN(v_interp_p2_f32, ISA_T_F32, v_interp_p2_f32),
    OWN(v_interp_p10_f16_f32, ISA_T_F32, v_interp_p10_f16_f32),
    OWN(v_interp_p2_f16_f32, ISA_T_F32, v_interp_p2_f16_f32),
    OWNV16(v_cvt_i32_i16, ISA_T_B16, v_cvt_i32_i16), OWNV16(v_cvt_u32_u16, ISA_T_B16, v_cvt_u32_u16),
    /* SALU float (gfx12) */
    OWN(s_add_f32, ISA_T_F32, s_add_f32), OWN(s_sub_f32, ISA_T_F32, s_sub_f32),
    OWN(s_mul_f32, ISA_T_F32, s_mul_f32), OWN(s_fmac_f32, ISA_T_F32, s_fmac_f32),
    OWN(s_fmaak_f32, ISA_T_F32, s_fmaak_f32), OWN(s_fmamk_f32, ISA_T_F32, s_fmamk_f32),
    OWN(s_max_num_f32, ISA_T_F32, s_max_num_f32), OWN(s_min_num_f32, ISA_T_F32, s_min_num_f32),
    OWN(s_trunc_f32, ISA_T_F32, s_trunc_f32), OWN(s_floor_f32, ISA_T_F32, s_floor_f32),
    OWN(s_ceil_f32, ISA_T_F32, s_ceil_f32), OWN(s_rndne_f32, ISA_T_F32, s_rndne_f32),
    OWN(s_cvt_f32_i32, ISA_T_B32, s_cvt_f32_i32), OWN(s_cvt_f32_u32, ISA_T_B32, s_cvt_f32_u32),
    OWN(s_cvt_i32_f32, ISA_T_F32, s_cvt_i32_f32), OWN(s_cvt_u32_f32, ISA_T_F32, s_cvt_u32_f32),
    OWN(s_cvt_f16_f32, ISA_T_F32, s_cvt_f16_f32), OWN(s_cvt_f32_f16, ISA_T_F16, s_cvt_f32_f16),
    OWN(s_cvt_hi_f32_f16, ISA_T_B32, s_cvt_hi_f32_f16),
    OWN(s_add_f16, ISA_T_F16, s_add_f16), OWN(s_sub_f16, ISA_T_F16, s_sub_f16),
    OWN(s_mul_f16, ISA_T_F16, s_mul_f16), OWN(s_fmac_f16, ISA_T_F16, s_fmac_f16),
    OWN(s_max_num_f16, ISA_T_F16, s_max_num_f16), OWN(s_min_num_f16, ISA_T_F16, s_min_num_f16),
    OWN(s_trunc_f16, ISA_T_F16, s_trunc_f16), OWN(s_floor_f16, ISA_T_F16, s_floor_f16),
    OWN(s_ceil_f16, ISA_T_F16, s_ceil_f16), OWN(s_rndne_f16, ISA_T_F16, s_rndne_f16),
#define SCMP_ROW(n32, n16, expr) OWN(n32, ISA_T_F32, n32), OWN(n16, ISA_T_F16, n16),
    SCMPS(SCMP_ROW)
    OWN(v_s_exp_f32, ISA_T_F32, v_s_exp_f32), OWN(v_s_log_f32, ISA_T_F32, v_s_log_f32),
    OWN(v_s_rcp_f32, ISA_T_F32, v_s_rcp_f32), OWN(v_s_rsq_f32, ISA_T_F32, v_s_rsq_f32),
    OWN(v_s_sqrt_f32, ISA_T_F32, v_s_sqrt_f32),
    OWN(v_s_exp_f16, ISA_T_F16, v_s_exp_f16), OWN(v_s_log_f16, ISA_T_F16, v_s_log_f16),
    OWN(v_s_rcp_f16, ISA_T_F16, v_s_rcp_f16), OWN(v_s_rsq_f16, ISA_T_F16, v_s_rsq_f16),
    OWN(v_s_sqrt_f16, ISA_T_F16, v_s_sqrt_f16),
    OWN(s_cvt_pk_rtz_f16_f32, ISA_T_F32, s_cvt_pk_rtz_f16_f32),
    OWN(s_movrelsd_2_b32, ISA_T_B32, s_movrelsd_2_b32),
    /* (the VOP2 fmac names its destination as the third source: src/isa/vop_rdna.c) */
    OWN(v_fma_dx9_zero_f32, ISA_T_F32, v_fma_dx9_zero_f32),
    OWNV(v_fmac_dx9_zero_f32, ISA_T_F32, v_fmac_dx9_zero_f32),
    /* SOPP, messages, 64-bit multiply */
    OWN(s_round_mode, ISA_T_B32, s_round_mode), OWN(s_denorm_mode, ISA_T_B32, s_denorm_mode),
    OWN(s_sendmsg, ISA_T_B32, r_sendmsg), OWN(s_sendmsg_rtn_b32, ISA_T_B32, r_sendmsg_rtn),
    OWN(s_sendmsg_rtn_b64, ISA_T_B64, r_sendmsg_rtn),
    OWN(s_mul_u64, ISA_T_B64, s_mul_u64),
    /* float atomics without a CDNA f32 twin */
    OWN(global_atomic_min_f32, ISA_T_B32, r_atomic_fmin32),
    OWN(global_atomic_max_f32, ISA_T_B32, r_atomic_fmax32),
    OWN(flat_atomic_min_f32, ISA_T_B32, r_atomic_fmin32),
    OWN(flat_atomic_max_f32, ISA_T_B32, r_atomic_fmax32),
    OWN(global_atomic_min_num_f32, ISA_T_B32, r_atomic_fmin_num32),
    OWN(global_atomic_max_num_f32, ISA_T_B32, r_atomic_fmax_num32),
    OWN(flat_atomic_min_num_f32, ISA_T_B32, r_atomic_fmin_num32),
    OWN(flat_atomic_max_num_f32, ISA_T_B32, r_atomic_fmax_num32),
    OWN(ds_min_num_f32, ISA_T_B32, r_ds_fmin_num32),
    OWN(ds_min_num_rtn_f32, ISA_T_B32, r_ds_fmin_num32),
    OWN(ds_max_num_f32, ISA_T_B32, r_ds_fmax_num32),
    OWN(ds_max_num_rtn_f32, ISA_T_B32, r_ds_fmax_num32),
    OWN(ds_min_num_f64, ISA_T_B64, r_ds_fmin_num64),
    OWN(ds_min_num_rtn_f64, ISA_T_B64, r_ds_fmin_num64),
    OWN(ds_max_num_f64, ISA_T_B64, r_ds_fmax_num64),
    OWN(ds_max_num_rtn_f64, ISA_T_B64, r_ds_fmax_num64),
    OWN(ds_bpermute_fi_b32, ISA_T_B32, r_ds_bpermute_fi64),
    OWN(global_atomic_cmpswap_f32, ISA_T_B32, r_atomic_fcmpswap32),
    OWN(flat_atomic_cmpswap_f32, ISA_T_B32, r_atomic_fcmpswap32),
    /* gfx12 GLOBAL/FLAT_ATOMIC_PK_ADD_F16/BF16 (RDNA4 ISA): each 16-bit half of MEM gains the
     * same half of DATA, the CDNA ops' handlers (XA_PK_ADD_F16/BF16, as the buffer forms) */
    RUN(global_atomic_pk_add_f16), RUN(global_atomic_pk_add_bf16),
    RUN(flat_atomic_pk_add_f16), RUN(flat_atomic_pk_add_bf16),
    OWN(global_atomic_csub_u32, ISA_T_B32, r_atomic_csub),
    OWN(global_atomic_sub_clamp_u32, ISA_T_B32, r_atomic_csub),
    OWN(flat_atomic_sub_clamp_u32, ISA_T_B32, r_atomic_csub),
    OWN(global_atomic_cond_sub_u32, ISA_T_B32, r_atomic_cond_sub),
    OWN(flat_atomic_cond_sub_u32, ISA_T_B32, r_atomic_cond_sub),
    OWN(ds_sub_clamp_u32, ISA_T_B32, r_ds_csub), OWN(ds_sub_clamp_rtn_u32, ISA_T_B32, r_ds_csub),
    OWN(ds_cond_sub_u32, ISA_T_B32, r_ds_cond_sub),
    OWN(ds_cond_sub_rtn_u32, ISA_T_B32, r_ds_cond_sub),
};
const unsigned x_rdna_alu_nrows = sizeof x_rdna_alu_rows / sizeof x_rdna_alu_rows[0];

/* wave32 meanings */
const rdna_row x_rdna_alu_w32[] = {
    OWN(ds_permute_b32, ISA_T_B32, r_ds_permute32),
    OWN(ds_bpermute_b32, ISA_T_B32, r_ds_bpermute32),
    OWN(ds_bpermute_fi_b32, ISA_T_B32, r_ds_bpermute_fi32),
};
const unsigned x_rdna_alu_nw32 = sizeof x_rdna_alu_w32 / sizeof x_rdna_alu_w32[0];
/* clang-format on */
