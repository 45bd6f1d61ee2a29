/* valu_cvt.c - conversions between integer, f16, bf16, f32 and f64 (CDNA3/CDNA4 ISA, VOP1
 * V_CVT_*, VOP3 V_CVT_PK*).
 *
 * Float-to-integer conversions truncate toward zero, saturate to the destination range and turn
 * NaN into 0.  Float-to-float conversions round to nearest even once; v_cvt_pkrtz rounds toward
 * zero.  f32 -> f16/bf16/fp8/bf8 and back use the branch-free bit-level helpers of valu.h (f2h,
 * f2bf, f2h_rtz) and exec/fpfmt.h (fpf_enc32, fpf_dec32), which give the bits of the exact
 * definitions (d2small, fpf_encode, fpf_decode) and vectorize. */
#include "exec/fpfmt.h"
#include "exec/valu.h"

/* Truncating conversions with saturation, NaN -> 0.  Clamped into range first (a NaN to 0)
 * and then converted, with selects instead of early returns: the lane loops vectorize (with
 * the returns they stayed scalar, a compare and branch chain per lane). */
static inline u32 f2i32(double v) {
    /* isless/isgreater/isunordered: quiet compares, which gcc may evaluate for every lane (the
     * ordered < and > may raise the invalid flag for a NaN, so gcc kept the branches) */
    double c = isgreater(v, 2147483647.0) ? 2147483647.0 : v;
    c = isless(c, -2147483648.0) ? -2147483648.0 : c;
    return (u32)(i32)(isunordered(v, v) ? 0.0 : c);
}
static inline u32 f2u32(double v) {
    double c = !isgreater(v, 0.0) ? 0.0 : isgreater(v, 4294967295.0) ? 4294967295.0 : v;
    return (u32)(uint64_t)c;
}

V1(v_cvt_f32_i32, FK_I32, bf32((float)(i32)a))
V1(v_cvt_f32_u32, FK_I32, bf32((float)a))
V1T(v_cvt_i32_f32, FK_F32, FK_I32, f2i32(f32(a)))
V1T(v_cvt_u32_f32, FK_F32, FK_I32, f2u32(f32(a)))
/* round half up, then floor */
V1T(v_cvt_rpi_i32_f32, FK_F32, FK_I32, f2i32(x_floor((double)f32(a) + 0.5)))
V1T(v_cvt_flr_i32_f32, FK_F32, FK_I32, f2i32(x_floor((double)f32(a))))
V1(v_cvt_f32_ubyte0, FK_I32, bf32((float)(a & 0xff)))
V1(v_cvt_f32_ubyte1, FK_I32, bf32((float)((a >> 8) & 0xff)))
V1(v_cvt_f32_ubyte2, FK_I32, bf32((float)((a >> 16) & 0xff)))
V1(v_cvt_f32_ubyte3, FK_I32, bf32((float)(a >> 24)))
/* S0[3:0] as a signed 4-bit value divided by 16. */
V1(v_cvt_off_f32_i4, FK_I32, bf32((float)((i32)(a << 28) >> 28) / 16.0f))
V1(v_cvt_f32_f16, FK_F16, bf32(h2f(a)))
/* bf16 -> f32 is exact: the bf16 bits become the high half. */
V1(v_cvt_f32_bf16, FK_I32, (a & 0xffff) << 16)

/* f32 -> f16: 16-bit result, high half zeroed. */
VFN static void v_cvt_f16_f32(wave *w, const xinst *x) {
    u32 t0[LANES], d[LANES];
    const u32 *A = vs32(w, x, 0, t0, FK_F32);
    VLOOP(l) d[l] = f2h(f32(A[l]));
    vd16(w, x, d, FK_F16, 0);
}

/* f2h_rtz, f2bf and f2h (valu.h) give d2h_rtz's, d2bf's and d2h's bits for f32 values,
 * branch-free, so these lane loops vectorize (d2small per lane cost 500-800 ns a wave). */
V2T(v_cvt_pkrtz_f16_f32, FK_F32, FK_RAW, f2h_rtz(f32(a)) | f2h_rtz(f32(b)) << 16)
/* D = {bf16(S1), bf16(S0)} (gfx950). */
V2T(v_cvt_pk_bf16_f32, FK_F32, FK_RAW, f2bf(f32(a)) | f2bf(f32(b)) << 16)
V2T(v_cvt_pk_f16_f32, FK_F32, FK_RAW, f2h(f32(a)) | f2h(f32(b)) << 16)

/* Normalized: clamp to [-1, 1] (or [0, 1]) and scale to the full 16-bit range, nearest even. */
static inline u32 norm_i16(double v) {
    if (v != v)
        return 0;
    v = v < -1 ? -1 : v > 1 ? 1 : v;
    return (u32)(i32)rint(v * 32767.0) & 0xffff;
}
static inline u32 norm_u16(double v) {
    if (v != v)
        return 0;
    v = v < 0 ? 0 : v > 1 ? 1 : v;
    return (u32)rint(v * 65535.0);
}
V2T(v_cvt_pknorm_i16_f32, FK_F32, FK_RAW, norm_i16(f32(a)) | norm_i16(f32(b)) << 16)
V2T(v_cvt_pknorm_u16_f32, FK_F32, FK_RAW, norm_u16(f32(a)) | norm_u16(f32(b)) << 16)
V2(v_cvt_pknorm_i16_f16, FK_F16, norm_i16(h2d(a)) | norm_i16(h2d(b)) << 16)
V2(v_cvt_pknorm_u16_f16, FK_F16, norm_u16(h2d(a)) | norm_u16(h2d(b)) << 16)
static inline u32 sat_u16(u32 v) { return v > 0xffff ? 0xffff : v; }
static inline u32 sat_i16(i32 v) {
    return (u32)(v < -32768 ? -32768 : v > 32767 ? 32767 : v) & 0xffff;
}
V2(v_cvt_pk_u16_u32, FK_I32, sat_u16(a) | sat_u16(b) << 16)
V2(v_cvt_pk_i16_i32, FK_I32, sat_i16((i32)a) | sat_i16((i32)b) << 16)
/* D = S2 with byte S1[1:0] replaced by S0 converted to u8 (nearest even, saturated). */
static inline u32 pk_u8(float v, u32 sel, u32 old) {
    double r = v != v ? 0 : rint(v < 0 ? 0 : v > 255 ? 255 : v);
    unsigned sh = 8 * (sel & 3);
    return (old & ~(0xffu << sh)) | (u32)r << sh;
}
VFN static void v_cvt_pk_u8_f32(wave *w, const xinst *x) {
    u32 t0[LANES], t1[LANES], t2[LANES], d[LANES];
    const u32 *A = vs32(w, x, 0, t0, FK_F32), *B = vs32(w, x, 1, t1, FK_I32),
              *C = vs32(w, x, 2, t2, FK_I32);
    VLOOP(l) d[l] = pk_u8(f32(A[l]), B[l], C[l]);
    vd32(w, x, d, FK_I32);
}

/* ---- f16 <-> 16-bit integers ------------------------------------------------------------------
 */

VFN static void v_cvt_f16_u16(wave *w, const xinst *x) {
    u32 t0[LANES], d[LANES];
    const u32 *A = vs32(w, x, 0, t0, FK_I16);
    VLOOP(l) d[l] = f2h((float)(A[l] & 0xffff)); /* exact in float */
    vd16(w, x, d, FK_F16, 0);
}
VFN static void v_cvt_f16_i16(wave *w, const xinst *x) {
    u32 t0[LANES], d[LANES];
    const u32 *A = vs32(w, x, 0, t0, FK_I16);
    VLOOP(l) d[l] = f2h((float)(i16)A[l]);
    vd16(w, x, d, FK_F16, 0);
}
VFN static void v_cvt_u16_f16(wave *w, const xinst *x) {
    u32 t0[LANES], d[LANES];
    const u32 *A = vs32(w, x, 0, t0, FK_F16);
    VLOOP(l) {
        double v = h2d(A[l]);
        d[l] = v != v || v <= 0 ? 0 : v >= 65535 ? 0xffff : (u32)v;
    }
    vd16(w, x, d, FK_I16, 0);
}
VFN static void v_cvt_i16_f16(wave *w, const xinst *x) {
    u32 t0[LANES], d[LANES];
    const u32 *A = vs32(w, x, 0, t0, FK_F16);
    VLOOP(l) {
        double v = h2d(A[l]);
        d[l] = v != v ? 0 : sat_i16(v >= 32767 ? 32767 : v <= -32768 ? -32768 : (i32)v);
    }
    vd16(w, x, d, FK_I16, 0);
}

/* ---- 8-bit floats (CDNA3: FNUZ formats; CDNA4 and RDNA4: OCP formats; see exec/fpfmt.h) ----
 * f32 -> 8-bit rounds to nearest even; out-of-range values and infinities give NaN (infinity for
 * OCP E5M2) unless clamp is set, which saturates to the largest finite value.  RDNA4 (gfx1201)
 * runs these handlers too (src/exec/rdna.c): the same OCP formats and rules as gfx950, but its
 * VOP3 forms have no clamp bit (LLVM refuses it, so these ops never saturate there) and name
 * bytes with byte_sel (isa_valu_fields.byte_sel; 0 on CDNA) rather than SDWA or op_sel[3:2]. */
static inline const fpf_format *f8(const xinst *x, int bf8) {
    if (!isa_targets[x->in.arch].fp8_fnuz)
        return bf8 ? FPF_BF8_OCP : FPF_FP8_OCP;
    return bf8 ? FPF_BF8_FNUZ : FPF_FP8_FNUZ;
}

/* The lane loops below use fpfmt.h's branch-free fpf_dec32/fpf_enc32 (the bits of fpf_decode,
 * fpf_encode and fpf_encode_sr), with the format's constants made once per instruction. */

/* D = f32(S0.byte): the byte is picked by SDWA src0_sel on CDNA, by byte_sel on gfx12 (VOP3),
 * byte 0 otherwise. */
#define CVT_F32_F8(name, bf8)                                                                      \
    VFN static void name(wave *w, const xinst *x) {                                                \
        u32 t0[LANES], d[LANES];                                                                   \
        const u32 *A = vs32(w, x, 0, t0, FK_I32);                                                  \
        const fpf_dec_k k = fpf_dec_consts(f8(x, bf8));                                            \
        const unsigned sh = 8u * x->in.f.v.byte_sel;                                               \
        VLOOP(l) d[l] = fpf_dec32(A[l] >> sh, k);                                                  \
        vd32(w, x, d, FK_I32);                                                                     \
    }
CVT_F32_F8(v_cvt_f32_fp8, 0)
CVT_F32_F8(v_cvt_f32_bf8, 1)
/* D[31:0] = f32(word.byte0), D[63:32] = f32(word.byte1); the word is SDWA src0_sel or op_sel[0]. */
#define CVT_PK_F32_F8(name, bf8)                                                                   \
    VFN static void name(wave *w, const xinst *x) {                                                \
        u32 t0[LANES];                                                                             \
        u64 d[LANES];                                                                              \
        const u32 *A = vs32(w, x, 0, t0, FK_I32);                                                  \
        int hi = x->in.fmt == ISA_FMT_VOP3 && (x->in.f.v.opsel & 1);                               \
        const fpf_dec_k k = fpf_dec_consts(f8(x, bf8));                                            \
        const unsigned sh = hi ? 16 : 0;                                                           \
        VLOOP(l) {                                                                                 \
            u32 wd = A[l] >> sh;                                                                   \
            d[l] = fpf_dec32(wd, k) | (u64)fpf_dec32(wd >> 8, k) << 32;                            \
        }                                                                                          \
        vd64(w, x, d, FK_RAW);                                                                     \
    }
CVT_PK_F32_F8(v_cvt_pk_f32_fp8, 0)
CVT_PK_F32_F8(v_cvt_pk_f32_bf8, 1)
/* D.word[op_sel[3]] = {f8(S1), f8(S0)}; the other word is kept. */
#define CVT_PK_F8_F32(name, bf8)                                                                   \
    VFN static void name(wave *w, const xinst *x) {                                                \
        u32 t0[LANES], t1[LANES], d[LANES];                                                        \
        const u32 *A = vs32(w, x, 0, t0, FK_F32), *B = vs32(w, x, 1, t1, FK_F32);                  \
        const u32 *D = vdreg(w, &x->in.dst[0]);                                                    \
        const fpf_enc_k k = fpf_enc_consts(f8(x, bf8), x->in.f.v.clamp ? FPF_SAT : 0, 0);          \
        const u32 keep = vop3_dst_hi(x) ? 0xffffu : 0xffff0000u, sh = vop3_dst_hi(x) ? 16 : 0;     \
        VLOOP(l) {                                                                                 \
            u32 p = fpf_enc32(A[l], 0, k, FPF_RNE, 0, 0) | fpf_enc32(B[l], 0, k, FPF_RNE, 0, 0)    \
                                                               << 8;                               \
            d[l] = (D[l] & keep) | p << sh;                                                        \
        }                                                                                          \
        vd32(w, x, d, FK_RAW);                                                                     \
    }
CVT_PK_F8_F32(v_cvt_pk_fp8_f32, 0)
CVT_PK_F8_F32(v_cvt_pk_bf8_f32, 1)

/* f16 -> normalized 16-bit integer (16-bit result). */
VFN static void v_cvt_norm_i16_f16(wave *w, const xinst *x) {
    u32 t0[LANES], d[LANES];
    const u32 *A = vs32(w, x, 0, t0, FK_F16);
    VLOOP(l) d[l] = norm_i16(h2d(A[l]));
    vd16(w, x, d, FK_I16, 0);
}
VFN static void v_cvt_norm_u16_f16(wave *w, const xinst *x) {
    u32 t0[LANES], d[LANES];
    const u32 *A = vs32(w, x, 0, t0, FK_F16);
    VLOOP(l) d[l] = norm_u16(h2d(A[l]));
    vd16(w, x, d, FK_I16, 0);
}
/* D.u16 = {sat_u8(S0.i16[1]), sat_u8(S0.i16[0])} */
static inline u32 sat_u8(i32 v) { return v < 0 ? 0 : v > 255 ? 255 : (u32)v; }
VFN static void v_sat_pk_u8_i16(wave *w, const xinst *x) {
    u32 t0[LANES], d[LANES];
    const u32 *A = vs32(w, x, 0, t0, FK_I32);
    VLOOP(l) d[l] = sat_u8((i16)A[l]) | sat_u8((i16)(A[l] >> 16)) << 8;
    vd16(w, x, d, FK_I16, 0);
}
/* gfx950: D.u16 = {sat8(S1 >> S2[4:0]), sat8(S0 >> S2[4:0])} (arithmetic shifts), into the half
 * op_sel picks. */
static inline u32 sat_i8(i32 v) { return (u32)(v < -128 ? -128 : v > 127 ? 127 : v) & 0xff; }
#define ASHR_PK(name, sat)                                                                         \
    VFN static void name(wave *w, const xinst *x) {                                                \
        u32 t0[LANES], t1[LANES], t2[LANES], d[LANES];                                             \
        const u32 *A = vs32(w, x, 0, t0, FK_I32), *B = vs32(w, x, 1, t1, FK_I32),                  \
                  *C = vs32(w, x, 2, t2, FK_I32);                                                  \
        VLOOP(l) d[l] = sat((i32)A[l] >> (C[l] & 31)) | sat((i32)B[l] >> (C[l] & 31)) << 8;        \
        vd16(w, x, d, FK_I16, 1);                                                                  \
    }
ASHR_PK(v_ashr_pk_i8_i32, sat_i8)
ASHR_PK(v_ashr_pk_u8_i32, sat_u8)
/* D.byte[S1[1:0]] = u8(S0), the other bytes of D kept. */
VFN static void v_cvt_pkaccum_u8_f32(wave *w, const xinst *x) {
    u32 t0[LANES], t1[LANES], d[LANES];
    const u32 *A = vs32(w, x, 0, t0, FK_F32), *B = vs32(w, x, 1, t1, FK_I32);
    const u32 *D = vdreg(w, &x->in.dst[0]);
    VLOOP(l) d[l] = pk_u8(f32(A[l]), B[l], D[l]);
    vd32(w, x, d, FK_RAW);
}
/* gfx950 stochastic rounding of an f32 to f16/bf16: D.half[op_sel[3]], the other half kept.  The
 * random S1 is added below the kept bits and the sum truncated (fpfmt.h FPF_SR_LOW: S1[15:0] for
 * bf16, S1[12:0] for f16 normals, more bits for f16 denormals); overflow gives infinity, NaN a
 * quiet NaN. */
#define CVT_SR16(name, fmt)                                                                        \
    VFN static void name(wave *w, const xinst *x) {                                                \
        u32 t0[LANES], t1[LANES], d[LANES];                                                        \
        const u32 *A = vs32(w, x, 0, t0, FK_F32), *B = vs32(w, x, 1, t1, FK_I32);                  \
        const fpf_enc_k k = fpf_enc_consts(fmt, 0, 0);                                             \
        VLOOP(l) d[l] = fpf_enc32(A[l], 0, k, FPF_RSR_LOW, 0, B[l]);                               \
        vd16(w, x, d, FK_I16, 1);                                                                  \
    }
CVT_SR16(v_cvt_sr_bf16_f32, FPF_BF16)
CVT_SR16(v_cvt_sr_f16_f32, FPF_F16)
/* D.byte[op_sel[3:2]] (gfx12: D.byte[byte_sel], the same bits) = fp8/bf8(S0) rounded
 * stochastically with S1, the other bytes kept.  gfx950 and gfx1201 (OCP): S1 is a 32-bit
 * fraction aligned below the kept lsb (AMD's gfx950 reference model; RDNA4 is assumed to round
 * as gfx950 does); gfx942 (FNUZ): S1's low bits are added to the dropped f32 bits (the gfx942-era
 * FNUZ software model).  Out of range: NaN (infinity for OCP bf8), as v_cvt_pk_fp8_f32 without
 * clamp. */
#define CVT_SR_F8(name, bf8)                                                                       \
    VFN static void name(wave *w, const xinst *x) {                                                \
        u32 t0[LANES], t1[LANES], d[LANES];                                                        \
        const u32 *A = vs32(w, x, 0, t0, FK_F32), *B = vs32(w, x, 1, t1, FK_I32);                  \
        const u32 *D = vdreg(w, &x->in.dst[0]);                                                    \
        const fpf_enc_k k = fpf_enc_consts(f8(x, bf8), 0, 0);                                      \
        const unsigned sh = 8 * (((x->in.f.v.opsel >> 2) & 3) | x->in.f.v.byte_sel);               \
        const u32 keep = ~(0xffu << sh);                                                           \
        if (isa_targets[x->in.arch].fp8_fnuz)                                                      \
            VLOOP(l) d[l] = (D[l] & keep) | fpf_enc32(A[l], 0, k, FPF_RSR_LOW, 0, B[l]) << sh;     \
        else                                                                                       \
            VLOOP(l) d[l] = (D[l] & keep) | fpf_enc32(A[l], 0, k, FPF_RSR, 0, B[l]) << sh;         \
        vd32(w, x, d, FK_RAW);                                                                     \
    }
CVT_SR_F8(v_cvt_sr_fp8_f32, 0)
CVT_SR_F8(v_cvt_sr_bf8_f32, 1)

/* ---- f64 conversions ------------------------------------------------------------------------ */

VFN static void v_cvt_f32_f64(wave *w, const xinst *x) {
    u64 t0[LANES];
    u32 d[LANES];
    const u64 *A = vs64(w, x, 0, t0, FK_F64);
    VLOOP(l) d[l] = bf32((float)f64(A[l]));
    vd32(w, x, d, FK_F32);
}
#define CVT_TO64(name, fk, expr)                                                                   \
    VFN static void name(wave *w, const xinst *x) {                                                \
        u32 t0[LANES];                                                                             \
        u64 d[LANES];                                                                              \
        const u32 *A = vs32(w, x, 0, t0, fk);                                                      \
        VLOOP(l) {                                                                                 \
            u32 a = A[l];                                                                          \
            d[l] = bf64(expr);                                                                     \
        }                                                                                          \
        vd64(w, x, d, FK_F64);                                                                     \
    }
CVT_TO64(v_cvt_f64_f32, FK_F32, (double)f32(a))
CVT_TO64(v_cvt_f64_i32, FK_I32, (double)(i32)a)
CVT_TO64(v_cvt_f64_u32, FK_I32, (double)a)
#define CVT_FROM64(name, expr)                                                                     \
    VFN static void name(wave *w, const xinst *x) {                                                \
        u64 t0[LANES];                                                                             \
        u32 d[LANES];                                                                              \
        const u64 *A = vs64(w, x, 0, t0, FK_F64);                                                  \
        VLOOP(l) {                                                                                 \
            double a = f64(A[l]);                                                                  \
            d[l] = (expr);                                                                         \
        }                                                                                          \
        vd32(w, x, d, FK_I32);                                                                     \
    }
CVT_FROM64(v_cvt_i32_f64, f2i32(a))
CVT_FROM64(v_cvt_u32_f64, f2u32(a))

const xhandler x_valu_cvt_handlers[] = {
    VHV(v_cvt_f32_i32, v_cvt_f32_i32, ISA_T_B32),
    VHV(v_cvt_f32_u32, v_cvt_f32_u32, ISA_T_B32),
    VHV(v_cvt_i32_f32, v_cvt_i32_f32, ISA_T_F32),
    VHV(v_cvt_u32_f32, v_cvt_u32_f32, ISA_T_F32),
    VHV(v_cvt_rpi_i32_f32, v_cvt_rpi_i32_f32, ISA_T_F32),
    VHV(v_cvt_flr_i32_f32, v_cvt_flr_i32_f32, ISA_T_F32),
    VHV(v_cvt_f32_ubyte0, v_cvt_f32_ubyte0, ISA_T_B32),
    VHV(v_cvt_f32_ubyte1, v_cvt_f32_ubyte1, ISA_T_B32),
    VHV(v_cvt_f32_ubyte2, v_cvt_f32_ubyte2, ISA_T_B32),
    VHV(v_cvt_f32_ubyte3, v_cvt_f32_ubyte3, ISA_T_B32),
    VHV(v_cvt_off_f32_i4, v_cvt_off_f32_i4, ISA_T_B32),
    VHV(v_cvt_f32_f16, v_cvt_f32_f16, ISA_T_F16),
    VHV(v_cvt_f32_bf16, v_cvt_f32_bf16, ISA_T_BF16),
    VH(v_cvt_f16_f32, v_cvt_f16_f32, ISA_T_F32),
    VHV(v_cvt_pkrtz_f16_f32, v_cvt_pkrtz_f16_f32, ISA_T_F32),
    VHV(v_cvt_pk_bf16_f32, v_cvt_pk_bf16_f32, ISA_T_F32),
    VHV(v_cvt_pk_f16_f32, v_cvt_pk_f16_f32, ISA_T_F32),
    VHV(v_cvt_pknorm_i16_f32, v_cvt_pknorm_i16_f32, ISA_T_F32),
    VHV(v_cvt_pknorm_u16_f32, v_cvt_pknorm_u16_f32, ISA_T_F32),
    VHV(v_cvt_pknorm_i16_f16, v_cvt_pknorm_i16_f16, ISA_T_F16),
    VHV(v_cvt_pknorm_u16_f16, v_cvt_pknorm_u16_f16, ISA_T_F16),
    VHV(v_cvt_pk_u16_u32, v_cvt_pk_u16_u32, ISA_T_B32),
    VHV(v_cvt_pk_i16_i32, v_cvt_pk_i16_i32, ISA_T_B32),
    VH(v_cvt_pk_u8_f32, v_cvt_pk_u8_f32, ISA_T_F32),
    VH(v_cvt_f16_u16, v_cvt_f16_u16, ISA_T_B16),
    VH(v_cvt_f16_i16, v_cvt_f16_i16, ISA_T_B16),
    VH(v_cvt_u16_f16, v_cvt_u16_f16, ISA_T_F16),
    VH(v_cvt_i16_f16, v_cvt_i16_f16, ISA_T_F16),
    VH(v_cvt_f32_f64, v_cvt_f32_f64, ISA_T_F64),
    VH(v_cvt_f64_f32, v_cvt_f64_f32, ISA_T_F32),
    VH(v_cvt_f64_i32, v_cvt_f64_i32, ISA_T_B32),
    VH(v_cvt_f64_u32, v_cvt_f64_u32, ISA_T_B32),
    VH(v_cvt_i32_f64, v_cvt_i32_f64, ISA_T_F64),
    VH(v_cvt_u32_f64, v_cvt_u32_f64, ISA_T_F64),
    VH(v_cvt_f32_fp8, v_cvt_f32_fp8, ISA_T_B32),
    VH(v_cvt_f32_bf8, v_cvt_f32_bf8, ISA_T_B32),
    VH(v_cvt_pk_f32_fp8, v_cvt_pk_f32_fp8, ISA_T_B32),
    VH(v_cvt_pk_f32_bf8, v_cvt_pk_f32_bf8, ISA_T_B32),
    VH(v_cvt_pk_fp8_f32, v_cvt_pk_fp8_f32, ISA_T_F32),
    VH(v_cvt_pk_bf8_f32, v_cvt_pk_bf8_f32, ISA_T_F32),
    VH(v_cvt_norm_i16_f16, v_cvt_norm_i16_f16, ISA_T_F16),
    VH(v_cvt_norm_u16_f16, v_cvt_norm_u16_f16, ISA_T_F16),
    VH(v_sat_pk_u8_i16, v_sat_pk_u8_i16, ISA_T_B32),
    VH(v_ashr_pk_i8_i32, v_ashr_pk_i8_i32, ISA_T_B32),
    VH(v_ashr_pk_u8_i32, v_ashr_pk_u8_i32, ISA_T_B32),
    VH(v_cvt_pkaccum_u8_f32, v_cvt_pkaccum_u8_f32, ISA_T_F32),
    VH(v_cvt_sr_bf16_f32, v_cvt_sr_bf16_f32, ISA_T_F32),
    VH(v_cvt_sr_f16_f32, v_cvt_sr_f16_f32, ISA_T_F32),
    VH(v_cvt_sr_fp8_f32, v_cvt_sr_fp8_f32, ISA_T_F32),
    VH(v_cvt_sr_bf8_f32, v_cvt_sr_bf8_f32, ISA_T_F32),
};
const unsigned x_valu_cvt_nhandlers = sizeof x_valu_cvt_handlers / sizeof x_valu_cvt_handlers[0];
