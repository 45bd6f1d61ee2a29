/* test_cov_valu.c - the VOP1/VOP2/VOP3/VOP3P ops no other test executes, on llvm-mc-22
 * encodings, gfx950 and gfx942: f16 rounding ops and conversions, norm/pack conversions, 16-bit
 * and 24-bit integer ops, three-operand min/max/med, sad, div_fixup_f16, dot products, packed
 * integer ops and the fp8/bf8 packers.
 *
 * Each case runs one instruction over 64 lanes whose sources are drawn from small tables of edge
 * values (lane l: a = A[l % 8], b = B[l / 8], c = C[(l + 3) % 8]); lane 13 is outside EXEC and
 * keeps its old value.  Expected values come from host arithmetic written from the manual's
 * pseudocode (f16 through the compiler's _Float16, exact by construction where the manual does
 * not fix a rounding).  16-bit results are compared on bits 15:0 only: what gfx9 writes to the
 * high half is the subject of test_valu.c, not of this file. */
#include "common/check.h"
#include "common/cov.h"

typedef uint32_t u32;
typedef uint64_t u64;

static wave *w;
static int G950; /* current target is gfx950 */

static double h(u32 x) { return cov_h2d(x & 0xffff); }
static u32 hb(double v) /* f16 bits of v, rounded to nearest even */
{
    _Float16 f = (_Float16)v;
    uint16_t u;
    memcpy(&u, &f, 2);
    return u;
}
static float f(u32 x) { return from_bits32(x); }
static u32 fb(float v) { return bits32(v); }
static int32_t sext(u32 v, int bits) { return (int32_t)(v << (32 - bits)) >> (32 - bits); }
static u32 sat_i16(int64_t v) {
    return (u32)(v > 32767 ? 32767 : v < -32768 ? -32768 : v) & 0xffff;
}
static u32 sat_i32(int64_t v) {
    return (u32)(v > INT32_MAX ? INT32_MAX : v < INT32_MIN ? INT32_MIN : v);
}
static u32 norm_i16(double v) /* snorm: clamp to [-1, 1], times 32767 (exact inputs only) */
{
    if (v != v)
        return 0;
    v = v > 1 ? 1 : v < -1 ? -1 : v;
    return (u32)(int32_t)rint(v * 32767) & 0xffff;
}
static u32 norm_u16(double v) {
    if (v != v)
        return 0;
    v = v > 1 ? 1 : v < 0 ? 0 : v;
    return (u32)rint(v * 65535);
}
/* IEEE maximum/minimum (754-2019): NaN wins, -0 < +0. */
static float ieee_max(float a, float b) {
    if (a != a || b != b)
        return NAN;
    if (a == 0 && b == 0)
        return signbit(a) ? b : a;
    return a > b ? a : b;
}
static float ieee_min(float a, float b) {
    if (a != a || b != b)
        return NAN;
    if (a == 0 && b == 0)
        return signbit(a) ? a : b;
    return a < b ? a : b;
}
static int64_t med3i(int64_t a, int64_t b, int64_t c) {
    int64_t mx = a > b ? a : b, mn = a < b ? a : b;
    return c > mx ? mx : c < mn ? mn : c;
}
static double div_fixup(double q, double den, double num) {
    int s = signbit(den) != signbit(num);
    if (num != num || den != den)
        return NAN;
    if (den == 0 && num == 0)
        return NAN;
    if (isinf(den) && isinf(num))
        return NAN;
    if (den == 0 || isinf(num))
        return s ? -INFINITY : INFINITY;
    if (isinf(den) || num == 0)
        return s ? -0.0 : 0.0;
    return s ? -fabs(q) : fabs(q); /* the quotient takes the sign of num / den */
}
/* fp8 bf8 (E5M2) of exact values: gfx950 OCP bias 15, gfx942 bias 16. */
static u32 bf8(float v) {
    if (v == 0)
        return signbit(v) && G950 ? 0x80 : 0;
    int e;
    double m = frexp(fabs(v), &e); /* m in [0.5, 1) */
    u32 bias = G950 ? 15 : 16;
    return (v < 0 ? 0x80u : 0) | (u32)(e - 1 + (int)bias) << 2 | (u32)((m * 2 - 1) * 4);
}
static double bf8val(u32 b) {
    int s = (b >> 7) & 1, e = (b >> 2) & 31, m = b & 3;
    double v = e ? ldexp(4 + m, e - 2 - (G950 ? 15 : 16)) : ldexp(m, -2 + 1 - (G950 ? 15 : 16));
    return s ? -v : v;
}
static double bf16v(u32 x) { return f((x & 0xffff) << 16); }

enum {
    CEIL16,
    FLOOR16,
    TRUNC16,
    RNDNE16,
    FRACT16,
    FREXPM16,
    CVT_U16_F16,
    NORM_I16_F16,
    NORM_U16_F16,
    F32_BF16,
    UBYTE3,
    EXP_LEG,
    LOG_LEG,
    FMAAK,
    MADAK16,
    MADMK16,
    MIN16,
    MAX16,
    SUB16,
    SUBREV16,
    MAXI16,
    MAXU16,
    MINI16,
    SUBREVU16,
    MULHI_I24,
    MULHI_U24,
    PK_FMAC16,
    DOT2C_F16,
    DOT2C_BF16,
    DOT8C_I4,
    ADD_I16,
    ADD_I16C,
    ADD_I32,
    ADD_I32C,
    SUB_I32,
    SUB_I32C,
    PKACC_U8,
    PKNORM_I16_F32,
    PKNORM_U16_F32,
    PKNORM_I16_F16,
    PKNORM_U16_F16,
    DIVFIX16,
    FMA16,
    MAD16,
    MADI16,
    MADI32I16,
    MADU32U16,
    MADI32I24,
    MAX3F16,
    MAX3F32,
    MAX3I16,
    MAX3I32,
    MAX3U16,
    MAX3U32,
    MIN3F32,
    MIN3I16,
    MIN3I32,
    MIN3U16,
    MED3F16,
    MED3I16,
    MED3U16,
    MED3U32,
    MAXIMUM3,
    MINIMUM3,
    SADU32,
    PK_LSHRREV,
    PK_MADI16,
    PK_MADU16,
    PK_MAXI16,
    PK_MINU16,
    PK_SUBI16,
    PK_MINIMUM3,
    DOT2_F16,
    DOT2_BF16,
    DOT8_I4,
    DOT8_U4,
    MIXHI,
    CVT_PK_BF8,
    CVT_PK_F32_BF8,
    SAT_PK_U8,
};

/* Reference: lane sources a, b, c and the old destination d. */
static u32 ref(int id, u32 a, u32 b, u32 c, u32 d) {
    switch (id) {
    case CEIL16: return hb(ceil(h(a)));
    case FLOOR16: return hb(floor(h(a)));
    case TRUNC16: return hb(trunc(h(a)));
    case RNDNE16: return hb(nearbyint(h(a)));
    case FRACT16: return hb(h(a) - floor(h(a)));
    case FREXPM16: {
        int e;
        return h(a) == 0 ? a & 0xffff : hb(frexp(h(a), &e));
    }
    case CVT_U16_F16: {
        double v = h(a);
        return v != v || v <= 0 ? 0 : v >= 65535 ? 65535 : (u32)trunc(v);
    }
    case NORM_I16_F16: return norm_i16(h(a));
    case NORM_U16_F16: return norm_u16(h(a));
    case F32_BF16: return (a & 0xffff) << 16;
    case UBYTE3: return fb((float)(a >> 24));
    case EXP_LEG: return fb(exp2f(f(a)));
    case LOG_LEG: return fb(log2f(f(a)));
    case FMAAK: return fb(fmaf(f(a), f(b), 3.0f));
    case MADAK16: return hb(h(a) * h(b) + 3.0);
    case MADMK16: return hb(h(a) * 3.0 + h(b));
    case MIN16: return hb(fmin(h(a), h(b)));
    case MAX16: return hb(fmax(h(a), h(b)));
    case SUB16: return hb(h(a) - h(b));
    case SUBREV16: return hb(h(b) - h(a));
    case MAXI16: return (u32)(sext(a, 16) > sext(b, 16) ? a : b) & 0xffff;
    case MAXU16: return ((a & 0xffff) > (b & 0xffff) ? a : b) & 0xffff;
    case MINI16: return (u32)(sext(a, 16) < sext(b, 16) ? a : b) & 0xffff;
    case SUBREVU16: return (b - a) & 0xffff;
    case MULHI_I24: return (u32)(((int64_t)sext(a, 24) * sext(b, 24)) >> 32);
    case MULHI_U24: return (u32)(((u64)(a & 0xffffff) * (b & 0xffffff)) >> 32);
    case PK_FMAC16: return hb(h(a) * h(b) + h(d)) | hb(h(a >> 16) * h(b >> 16) + h(d >> 16)) << 16;
    case DOT2C_F16: return fb((float)(h(a) * h(b) + h(a >> 16) * h(b >> 16) + f(d)));
    case DOT2C_BF16:
        return fb((float)(bf16v(a) * bf16v(b) + bf16v(a >> 16) * bf16v(b >> 16) + f(d)));
    case DOT8C_I4:
    case DOT8_I4:
    case DOT8_U4: {
        int64_t s = id == DOT8C_I4 ? (int32_t)d : (int32_t)c;
        for (int i = 0; i < 8; i++) {
            u32 x = (a >> (4 * i)) & 15, y = (b >> (4 * i)) & 15;
            s += id == DOT8_U4 ? (int64_t)x * y : (int64_t)sext(x, 4) * sext(y, 4);
        }
        return (u32)s;
    }
    case ADD_I16: return (a + b) & 0xffff;
    case ADD_I16C: return sat_i16((int64_t)sext(a, 16) + sext(b, 16));
    case ADD_I32: return a + b;
    case ADD_I32C: return sat_i32((int64_t)(int32_t)a + (int32_t)b);
    case SUB_I32: return a - b;
    case SUB_I32C: return sat_i32((int64_t)(int32_t)a - (int32_t)b);
    case PKACC_U8: {
        float v = f(a);
        u32 byte = v != v || v <= 0 ? 0 : v >= 255 ? 255 : (u32)rintf(v), sh = 8 * (b & 3);
        return (d & ~(0xffu << sh)) | byte << sh;
    }
    case PKNORM_I16_F32: return norm_i16(f(a)) | norm_i16(f(b)) << 16;
    case PKNORM_U16_F32: return norm_u16(f(a)) | norm_u16(f(b)) << 16;
    case PKNORM_I16_F16: return norm_i16(h(a)) | norm_i16(h(b)) << 16;
    case PKNORM_U16_F16: return norm_u16(h(a)) | norm_u16(h(b)) << 16;
    case DIVFIX16: return hb(div_fixup(h(a), h(b), h(c)));
    case FMA16:
    case MAD16: return hb(h(a) * h(b) + h(c));
    case MADI16: return (u32)(sext(a, 16) * sext(b, 16) + sext(c, 16)) & 0xffff;
    case MADI32I16: return (u32)((int64_t)sext(a, 16) * sext(b, 16) + (int32_t)c);
    case MADU32U16: return (a & 0xffff) * (b & 0xffff) + c;
    case MADI32I24: return (u32)((int64_t)sext(a, 24) * sext(b, 24) + (int32_t)c);
    case MAX3F16: return hb(fmax(fmax(h(a), h(b)), h(c)));
    case MAX3F32: return fb(fmaxf(fmaxf(f(a), f(b)), f(c)));
    case MAX3I16: {
        int32_t m = sext(a, 16) > sext(b, 16) ? sext(a, 16) : sext(b, 16);
        return (u32)(sext(c, 16) > m ? sext(c, 16) : m) & 0xffff;
    }
    case MAX3I32: {
        int32_t m = (int32_t)a > (int32_t)b ? (int32_t)a : (int32_t)b;
        return (u32)((int32_t)c > m ? (int32_t)c : m);
    }
    case MAX3U16: {
        u32 m = (a & 0xffff) > (b & 0xffff) ? a & 0xffff : b & 0xffff;
        return (c & 0xffff) > m ? c & 0xffff : m;
    }
    case MAX3U32: {
        u32 m = a > b ? a : b;
        return c > m ? c : m;
    }
    case MIN3F32: return fb(fminf(fminf(f(a), f(b)), f(c)));
    case MIN3I16: {
        int32_t m = sext(a, 16) < sext(b, 16) ? sext(a, 16) : sext(b, 16);
        return (u32)(sext(c, 16) < m ? sext(c, 16) : m) & 0xffff;
    }
    case MIN3I32: {
        int32_t m = (int32_t)a < (int32_t)b ? (int32_t)a : (int32_t)b;
        return (u32)((int32_t)c < m ? (int32_t)c : m);
    }
    case MIN3U16: {
        u32 m = (a & 0xffff) < (b & 0xffff) ? a & 0xffff : b & 0xffff;
        return (c & 0xffff) < m ? c & 0xffff : m;
    }
    case MED3F16: {
        double x = h(a), y = h(b), z = h(c);
        double mx = fmax(x, y), mn = fmin(x, y);
        return hb(z > mx ? mx : z < mn ? mn : z);
    }
    case MED3I16: return (u32)med3i(sext(a, 16), sext(b, 16), sext(c, 16)) & 0xffff;
    case MED3U16: return (u32)med3i(a & 0xffff, b & 0xffff, c & 0xffff);
    case MED3U32: return (u32)med3i(a, b, c);
    case MAXIMUM3: return fb(ieee_max(ieee_max(f(a), f(b)), f(c)));
    case MINIMUM3: return fb(ieee_min(ieee_min(f(a), f(b)), f(c)));
    case SADU32: return (a > b ? a - b : b - a) + c;
    case PK_LSHRREV: return ((b & 0xffff) >> (a & 15)) | ((b >> 16) >> ((a >> 16) & 15)) << 16;
    case PK_MADI16:
        return ((u32)(sext(a, 16) * sext(b, 16) + sext(c, 16)) & 0xffff) |
               (u32)(sext(a >> 16, 16) * sext(b >> 16, 16) + sext(c >> 16, 16)) << 16;
    case PK_MADU16:
        return (((a & 0xffff) * (b & 0xffff) + c) & 0xffff) | ((a >> 16) * (b >> 16) + (c >> 16))
                                                                  << 16;
    case PK_MAXI16:
        return ((u32)(sext(a, 16) > sext(b, 16) ? a : b) & 0xffff) |
               ((u32)(sext(a >> 16, 16) > sext(b >> 16, 16) ? a : b) & 0xffff0000);
    case PK_MINU16:
        return ((a & 0xffff) < (b & 0xffff) ? a & 0xffff : b & 0xffff) |
               ((a >> 16) < (b >> 16) ? a & 0xffff0000 : b & 0xffff0000);
    case PK_SUBI16: return ((a - b) & 0xffff) | ((a >> 16) - (b >> 16)) << 16;
    case PK_MINIMUM3: {
        u32 r = 0;
        for (int i = 0; i < 2; i++) {
            float x = (float)h(a >> (16 * i)), y = (float)h(b >> (16 * i)),
                  z = (float)h(c >> (16 * i));
            r |= hb(ieee_min(ieee_min(x, y), z)) << (16 * i);
        }
        return r;
    }
    case DOT2_F16: return fb((float)(h(a) * h(b) + h(a >> 16) * h(b >> 16) + f(c)));
    case DOT2_BF16:
        return fb((float)(bf16v(a) * bf16v(b) + bf16v(a >> 16) * bf16v(b >> 16) + f(c)));
    case MIXHI: return (d & 0xffff) | hb((double)f(a) * f(b) + f(c)) << 16;
    case CVT_PK_BF8: return bf8(f(a)) | bf8(f(b)) << 8;
    case CVT_PK_F32_BF8: return fb((float)bf8val(a & 0xff)); /* low result only, see below */
    case SAT_PK_U8: {
        int32_t lo = sext(a, 16), hi = sext(a >> 16, 16);
        return (u32)(lo < 0     ? 0
                     : lo > 255 ? 255
                                : lo) |
               (u32)(hi < 0     ? 0
                     : hi > 255 ? 255
                                : hi)
                   << 8;
    }
    }
    return 0;
}

/* Value tables (raw bits). */
static const u32 FH[8] = {0x3c00, 0xc100, 0x4180, 0x8000, 0x7c00, 0x0001, 0xbe00, 0x5640};
static const u32 FHN[8] = {0x3c00, 0xc100, 0x4180, 0x8000, 0x3555, 0x0001, 0xbe00, 0x5640};
static const u32 FHX[8] = {0x3c00, 0xc100, 0x4180, 0x0000, 0x3800, 0x4400, 0xbe00, 0x4800};
static const u32 FHM[8] = {0x3c00, 0xc100, 0x4180, 0x8000, 0x7c00, 0xfc00, 0x7e00, 0x0000};
static const u32 FS[8] = {0x3f800000, 0xc0200000, 0x7f800000, 0x80000000,
                          0x7fc00000, 0x00000001, 0xff800000, 0x4b000001};
static const u32 FSNN[8] = {0x3f800000, 0xc0200000, 0x7f800000, 0x80000000,
                            0x3f000000, 0x00000001, 0xff800000, 0x4b000001};
static const u32 FSZ[8] = {0x3f800000, 0x7fc00000, 0x00000000, 0x80000000,
                           0xbf800000, 0x7f800000, 0xff800000, 0x40400000};
static const u32 FNORM[8] = {0x3f800000, 0xbf800000, 0,          0x40000000,
                             0xc0400000, 0x80000000, 0x7fc00000, 0x7f800000};
static const u32 FEXP[8] = {0x40400000, 0,          0xbf800000, 0x41200000,
                            0x3f800000, 0x40000000, 0xc0000000, 0x40800000};
static const u32 FLOG[8] = {0x41000000, 0x3f800000, 0x3e800000, 0x44800000,
                            0x40000000, 0x3f000000, 0x43000000, 0x4f800000};
static const u32 I16[8] = {0x00008000, 0xffff7fff, 0x12340000, 0xabcd0001,
                           0x0000ffff, 0x00000002, 0x7fff7fff, 0x80018001};
static const u32 I32[8] = {0x80000000, 0x7fffffff, 0,          1,
                           0xffffffff, 0x00800000, 0xff800001, 0x12345678};
static const u32 I24[8] = {0x00800000, 0x007fffff, 0xff000001, 0xffffff,
                           2,          0x00ffffff, 0x12800000, 0x7f654321};
static const u32 PKU8[8] = {0x40e00000, 0x43960000, 0xc0a00000, 0x43000000,
                            0x7fc00000, 0x437f0000, 0x3f800000, 0x7f800000};
static const u32 LANE[8] = {0, 1, 2, 3, 4, 5, 6, 7};
static const u32 DIVN[8] = {0x4000, 0x0000, 0x3c00, 0x7c00, 0x8000, 0x7e00, 0xc000, 0x7c00};
static const u32 DIVD[8] = {0x4000, 0x0000, 0x8000, 0x7c00, 0x3c00, 0xfc00, 0x4200, 0x7e00};
static const u32 PKH[8] = {0x3c004000, 0xc1003800, 0x42000000, 0x3400bc00,
                           0x48004400, 0x00003c00, 0xbc00c400, 0x38003800};
static const u32 PKB[8] = {0x3f804000, 0xc0203f00, 0x40000000, 0x3e80bf80,
                           0x41004080, 0x00003f80, 0xbf80c080, 0x3f003f00};
static const u32 NIB[8] = {0x01234567, 0x89abcdef, 0xffffffff, 0x88888888,
                           0x77777777, 0,          0x0f0f0f0f, 0x12481248};
static const u32 PKI[8] = {0x80007fff, 0xffff0001, 0x00020003, 0x7fff8000,
                           0x12345678, 0xfffffffe, 0x00100010, 0xabcdef01};
static const u32 SH[8] = {0x00010003, 0x000f0010, 0x00080004, 0x0,
                          0x001f0011, 0x00070002, 0x000c000c, 0x00050001};
static const u32 MIXF[8] = {0x3f800000, 0x40000000, 0xbf000000, 0x3e800000,
                            0x41000000, 0,          0xc0400000, 0x3fc00000};
static const u32 BF8F[8] = {0x3f800000, 0x40000000, 0xbf000000, 0,
                            0x3e800000, 0xc0800000, 0x41000000, 0x3fc00000};
static const u32 BF8B[8] = {0x3c, 0x40, 0xb8, 0x00, 0x44, 0x3e, 0xc2, 0x34};

typedef struct {
    const char *text; /* sources v0, v1, v2; destination v3 */
    int id;
    const u32 *a, *b, *c;
    u32 cmp;  /* bits of v3 compared */
    int fnan; /* 16: f16 NaN-any compare, 32: f32 NaN-any */
    int only; /* 0 both targets, 950 / 942: one of them */
} vcase;

static const vcase cases[] = {
    {"v_ceil_f16_e32 v3, v0", CEIL16, FH, FH, FH, 0xffff, 16, 0},
    {"v_floor_f16_e32 v3, v0", FLOOR16, FH, FH, FH, 0xffff, 16, 0},
    {"v_trunc_f16_e32 v3, v0", TRUNC16, FH, FH, FH, 0xffff, 16, 0},
    {"v_rndne_f16_e32 v3, v0", RNDNE16, FH, FH, FH, 0xffff, 16, 0},
    {"v_fract_f16_e32 v3, v0", FRACT16, FHN, FH, FH, 0xffff, 16, 0},
    {"v_frexp_mant_f16_e32 v3, v0", FREXPM16, FHN, FH, FH, 0xffff, 16, 0},
    {"v_cvt_u16_f16_e32 v3, v0", CVT_U16_F16, FH, FH, FH, 0xffff, 0, 0},
    {"v_cvt_norm_i16_f16_e32 v3, v0", NORM_I16_F16, FH, FH, FH, 0xffff, 0, 0},
    {"v_cvt_norm_u16_f16_e32 v3, v0", NORM_U16_F16, FH, FH, FH, 0xffff, 0, 0},
    {"v_cvt_f32_bf16_e32 v3, v0", F32_BF16, PKB, FH, FH, ~0u, 32, 950},
    {"v_cvt_f32_ubyte3_e32 v3, v0", UBYTE3, I32, FH, FH, ~0u, 0, 0},
    {"v_exp_legacy_f32_e32 v3, v0", EXP_LEG, FEXP, FH, FH, ~0u, 0, 0},
    {"v_log_legacy_f32_e32 v3, v0", LOG_LEG, FLOG, FH, FH, ~0u, 0, 0},
    {"v_fmaak_f32 v3, v0, v1, 0x40400000", FMAAK, FS, FS, FS, ~0u, 32, 0},
    {"v_madak_f16 v3, v0, v1, 0x4200", MADAK16, FHX, FHX, FH, 0xffff, 16, 0},
    {"v_madmk_f16 v3, v0, 0x4200, v1", MADMK16, FHX, FHX, FH, 0xffff, 16, 0},
    {"v_min_f16_e32 v3, v0, v1", MIN16, FH, FH, FH, 0xffff, 16, 0},
    {"v_max_f16_e64 v3, v0, v1", MAX16, FH, FH, FH, 0xffff, 16, 0},
    {"v_sub_f16_e32 v3, v0, v1", SUB16, FH, FH, FH, 0xffff, 16, 0},
    {"v_subrev_f16_e32 v3, v0, v1", SUBREV16, FH, FH, FH, 0xffff, 16, 0},
    {"v_max_i16_e32 v3, v0, v1", MAXI16, I16, I16, I16, 0xffff, 0, 0},
    {"v_max_u16_e32 v3, v0, v1", MAXU16, I16, I16, I16, 0xffff, 0, 0},
    {"v_min_i16_e32 v3, v0, v1", MINI16, I16, I16, I16, 0xffff, 0, 0},
    {"v_subrev_u16_e32 v3, v0, v1", SUBREVU16, I16, I16, I16, 0xffff, 0, 0},
    {"v_mul_hi_i32_i24_e32 v3, v0, v1", MULHI_I24, I24, I24, I24, ~0u, 0, 0},
    {"v_mul_hi_u32_u24_e32 v3, v0, v1", MULHI_U24, I24, I24, I24, ~0u, 0, 0},
    {"v_pk_fmac_f16_e32 v3, v0, v1", PK_FMAC16, PKH, PKH, PKH, ~0u, 0, 0},
    {"v_dot2c_f32_f16_e32 v3, v0, v1", DOT2C_F16, PKH, PKH, PKH, ~0u, 0, 0},
    {"v_dot2c_f32_bf16_e32 v3, v0, v1", DOT2C_BF16, PKB, PKB, PKB, ~0u, 0, 950},
    {"v_dot8c_i32_i4_e32 v3, v0, v1", DOT8C_I4, NIB, NIB, NIB, ~0u, 0, 0},
    {"v_add_i16 v3, v0, v1", ADD_I16, I16, I16, I16, 0xffff, 0, 0},
    {"v_add_i16 v3, v0, v1 clamp", ADD_I16C, I16, I16, I16, 0xffff, 0, 0},
    {"v_add_i32 v3, v0, v1", ADD_I32, I32, I32, I32, ~0u, 0, 0},
    {"v_add_i32 v3, v0, v1 clamp", ADD_I32C, I32, I32, I32, ~0u, 0, 0},
    {"v_sub_i32 v3, v0, v1", SUB_I32, I32, I32, I32, ~0u, 0, 0},
    {"v_sub_i32 v3, v0, v1 clamp", SUB_I32C, I32, I32, I32, ~0u, 0, 0},
    {"v_cvt_pkaccum_u8_f32 v3, v0, v1", PKACC_U8, PKU8, LANE, LANE, ~0u, 0, 0},
    {"v_cvt_pknorm_i16_f32 v3, v0, v1", PKNORM_I16_F32, FNORM, FNORM, FH, ~0u, 0, 0},
    {"v_cvt_pknorm_u16_f32 v3, v0, v1", PKNORM_U16_F32, FNORM, FNORM, FH, ~0u, 0, 0},
    {"v_cvt_pknorm_i16_f16 v3, v0, v1", PKNORM_I16_F16, FH, FH, FH, ~0u, 0, 0},
    {"v_cvt_pknorm_u16_f16 v3, v0, v1", PKNORM_U16_F16, FH, FH, FH, ~0u, 0, 0},
    {"v_div_fixup_f16 v3, v0, v1, v2", DIVFIX16, FHX, DIVD, DIVN, 0xffff, 16, 0},
    {"v_div_fixup_legacy_f16 v3, v0, v1, v2", DIVFIX16, FHX, DIVD, DIVN, 0xffff, 16, 0},
    {"v_fma_legacy_f16 v3, v0, v1, v2", FMA16, FHX, FHX, FHX, 0xffff, 16, 0},
    {"v_mad_f16 v3, v0, v1, v2", MAD16, FHX, FHX, FHX, 0xffff, 16, 0},
    {"v_mad_legacy_f16 v3, v0, v1, v2", MAD16, FHX, FHX, FHX, 0xffff, 16, 0},
    {"v_mad_i16 v3, v0, v1, v2", MADI16, I16, I16, I16, 0xffff, 0, 0},
    {"v_mad_legacy_i16 v3, v0, v1, v2", MADI16, I16, I16, I16, 0xffff, 0, 0},
    {"v_mad_i32_i16 v3, v0, v1, v2", MADI32I16, I16, I16, I32, ~0u, 0, 0},
    {"v_mad_u32_u16 v3, v0, v1, v2", MADU32U16, I16, I16, I32, ~0u, 0, 0},
    {"v_mad_i32_i24 v3, v0, v1, v2", MADI32I24, I24, I24, I32, ~0u, 0, 0},
    {"v_max3_f16 v3, v0, v1, v2", MAX3F16, FHM, FHM, FHM, 0xffff, 16, 0},
    {"v_max3_f32 v3, v0, v1, v2", MAX3F32, FSNN, FSNN, FSNN, ~0u, 32, 0},
    {"v_max3_i16 v3, v0, v1, v2", MAX3I16, I16, I16, I16, 0xffff, 0, 0},
    {"v_max3_i32 v3, v0, v1, v2", MAX3I32, I32, I32, I32, ~0u, 0, 0},
    {"v_max3_u16 v3, v0, v1, v2", MAX3U16, I16, I16, I16, 0xffff, 0, 0},
    {"v_max3_u32 v3, v0, v1, v2", MAX3U32, I32, I32, I32, ~0u, 0, 0},
    {"v_min3_f32 v3, v0, v1, v2", MIN3F32, FSNN, FSNN, FSNN, ~0u, 32, 0},
    {"v_min3_i16 v3, v0, v1, v2", MIN3I16, I16, I16, I16, 0xffff, 0, 0},
    {"v_min3_i32 v3, v0, v1, v2", MIN3I32, I32, I32, I32, ~0u, 0, 0},
    {"v_min3_u16 v3, v0, v1, v2", MIN3U16, I16, I16, I16, 0xffff, 0, 0},
    {"v_med3_f16 v3, v0, v1, v2", MED3F16, FHX, FHX, FHX, 0xffff, 16, 0},
    {"v_med3_i16 v3, v0, v1, v2", MED3I16, I16, I16, I16, 0xffff, 0, 0},
    {"v_med3_u16 v3, v0, v1, v2", MED3U16, I16, I16, I16, 0xffff, 0, 0},
    {"v_med3_u32 v3, v0, v1, v2", MED3U32, I32, I32, I32, ~0u, 0, 0},
    {"v_maximum3_f32 v3, v0, v1, v2", MAXIMUM3, FSZ, FSZ, FSZ, ~0u, 32, 950},
    {"v_minimum3_f32 v3, v0, v1, v2", MINIMUM3, FSZ, FSZ, FSZ, ~0u, 32, 950},
    {"v_sad_u32 v3, v0, v1, v2", SADU32, I32, I32, I32, ~0u, 0, 0},
    {"v_pk_lshrrev_b16 v3, v0, v1", PK_LSHRREV, SH, PKI, PKI, ~0u, 0, 0},
    {"v_pk_mad_i16 v3, v0, v1, v2", PK_MADI16, PKI, PKI, PKI, ~0u, 0, 0},
    {"v_pk_mad_u16 v3, v0, v1, v2", PK_MADU16, PKI, PKI, PKI, ~0u, 0, 0},
    {"v_pk_max_i16 v3, v0, v1", PK_MAXI16, PKI, PKI, PKI, ~0u, 0, 0},
    {"v_pk_min_u16 v3, v0, v1", PK_MINU16, PKI, PKI, PKI, ~0u, 0, 0},
    {"v_pk_sub_i16 v3, v0, v1", PK_SUBI16, PKI, PKI, PKI, ~0u, 0, 0},
    {"v_pk_minimum3_f16 v3, v0, v1, v2", PK_MINIMUM3, PKH, PKH, PKH, ~0u, 0, 950},
    {"v_dot2_f32_f16 v3, v0, v1, v2", DOT2_F16, PKH, PKH, FSNN, ~0u, 0, 0},
    {"v_dot2_f32_bf16 v3, v0, v1, v2", DOT2_BF16, PKB, PKB, FSNN, ~0u, 0, 950},
    {"v_dot8_i32_i4 v3, v0, v1, v2", DOT8_I4, NIB, NIB, I32, ~0u, 0, 0},
    {"v_dot8_u32_u4 v3, v0, v1, v2", DOT8_U4, NIB, NIB, I32, ~0u, 0, 0},
    {"v_fma_mixhi_f16 v3, v0, v1, v2", MIXHI, MIXF, MIXF, MIXF, ~0u, 0, 0},
    {"v_cvt_pk_bf8_f32 v3, v0, v1", CVT_PK_BF8, BF8F, BF8F, FH, 0xffff, 0, 0},
    {"v_sat_pk_u8_i16_e32 v3, v0", SAT_PK_U8, PKI, PKI, PKI, 0xffff, 0, 0},
    /* the VOP3 (_e64) forms of VOP1/VOP2 ops above */
    {"v_fract_f16_e64 v3, v0", FRACT16, FHN, FH, FH, 0xffff, 16, 0},
    {"v_frexp_mant_f16_e64 v3, v0", FREXPM16, FHN, FH, FH, 0xffff, 16, 0},
    {"v_cvt_norm_i16_f16_e64 v3, v0", NORM_I16_F16, FH, FH, FH, 0xffff, 0, 0},
    {"v_cvt_norm_u16_f16_e64 v3, v0", NORM_U16_F16, FH, FH, FH, 0xffff, 0, 0},
    {"v_cvt_f32_bf16_e64 v3, v0", F32_BF16, PKB, FH, FH, ~0u, 32, 950},
    {"v_exp_legacy_f32_e64 v3, v0", EXP_LEG, FEXP, FH, FH, ~0u, 0, 0},
    {"v_log_legacy_f32_e64 v3, v0", LOG_LEG, FLOG, FH, FH, ~0u, 0, 0},
    {"v_pk_fmac_f16_e64 v3, v0, v1", PK_FMAC16, PKH, PKH, PKH, ~0u, 0, 0},
    {"v_dot2c_f32_f16_e64 v3, v0, v1", DOT2C_F16, PKH, PKH, PKH, ~0u, 0, 0},
    {"v_dot2c_f32_bf16_e64 v3, v0, v1", DOT2C_BF16, PKB, PKB, PKB, ~0u, 0, 950},
    {"v_dot8c_i32_i4_e64 v3, v0, v1", DOT8C_I4, NIB, NIB, NIB, ~0u, 0, 0},
    {"v_sat_pk_u8_i16_e64 v3, v0", SAT_PK_U8, PKI, PKI, PKI, 0xffff, 0, 0},
};

static int same(u32 got, u32 want, u32 mask, int fnan) {
    got &= mask, want &= mask;
    if (fnan == 16 && (want & 0x7c00) == 0x7c00 && (want & 0x3ff))
        return (got & 0x7c00) == 0x7c00 && (got & 0x3ff);
    if (fnan == 32 && from_bits32(want) != from_bits32(want))
        return from_bits32(got) != from_bits32(got);
    return got == want;
}

static void run_case(const char *arch, const vcase *c) {
    memset(w, 0, sizeof *w);
    w->mode = 0x3f0; /* clang-22's default: denormals kept, IEEE, DX10 clamp */
    u32 old[64];
    for (int l = 0; l < 64; l++) {
        w->v[0][l] = c->a[l % 8];
        w->v[1][l] = c->b[l / 8];
        w->v[2][l] = c->c[(l + 3) % 8];
        w->v[3][l] = old[l] = c->id == PK_FMAC16 || c->id == DOT2C_F16 || c->id == DOT2C_BF16
                                  ? PKH[(l + 5) % 8] & (c->id == PK_FMAC16 ? ~0u : 0xffff0000u)
                              : c->id == DOT8C_I4 ? I32[(l + 5) % 8]
                                                  : 0x11223344u + (u32)l;
    }
    wave_set_exec(w, ~(1ull << 13));
    int st = cov_run_done(w, arch, c->text);
    if (st == COV_NOT_ON_TARGET)
        return;
    if (st != WAVE_DONE)
        return;
    int bad = 0;
    for (int l = 0; l < 64; l++) {
        u32 want =
            l == 13 ? old[l] : ref(c->id, c->a[l % 8], c->b[l / 8], c->c[(l + 3) % 8], old[l]);
        if (!same(w->v[3][l], want, l == 13 ? ~0u : c->cmp, c->fnan) && bad++ < 4)
            printf("  %s [%s] lane %d: a %08x b %08x c %08x -> %08x, want %08x\n", arch, c->text, l,
                   c->a[l % 8], c->b[l / 8], c->c[(l + 3) % 8], w->v[3][l], want);
    }
    CHECK(bad == 0, "%s [%s]: %d lanes wrong", arch, c->text, bad);
}

/* The carry/borrow ops: VCC in and out. */
static void test_carry(const char *arch) {
    memset(w, 0, sizeof *w);
    u64 cin = 0x5555aaaa0f0ff0f0ull;
    for (int l = 0; l < 64; l++)
        w->v[0][l] = I32[l % 8], w->v[1][l] = I32[l / 8];
    wave_set_exec(w, ~0ull);
    w->s[106] = (u32)cin, w->s[107] = (u32)(cin >> 32);
    CHECK(cov_run(w, arch,
                  "v_subbrev_co_u32_e32 v3, vcc, v0, v1, vcc\ns_mov_b64 s[4:5], vcc\n"
                  "v_subrev_co_u32_e32 v4, vcc, v0, v1") == WAVE_DONE,
          "%s subrev carry", arch);
    u64 b1 = 0, b2 = 0;
    int bad = 0;
    for (int l = 0; l < 64; l++) {
        u64 a = I32[l % 8], b = I32[l / 8], ci = (cin >> l) & 1;
        bad += w->v[3][l] != (u32)(b - a - ci) || w->v[4][l] != (u32)(b - a);
        b1 |= (u64)(a + ci > b) << l;
        b2 |= (u64)(a > b) << l;
    }
    CHECK(bad == 0 && (w->s[4] | (u64)w->s[5] << 32) == b1 &&
              (w->s[106] | (u64)w->s[107] << 32) == b2,
          "%s subrev carry: %d wrong", arch, bad);
}

int main(void) {
    w = malloc(sizeof *w);
    const char *arches[] = {"gfx950", "gfx942", "gfx90a"};
    for (int a = 0; a < 3; a++) {
        G950 = a == 0;
        for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++)
            if (!cases[i].only || cases[i].only == (G950 ? 950 : 942))
                run_case(arches[a], &cases[i]);
        test_carry(arches[a]);
        /* v_nop and v_clrexcp change nothing */
        memset(w, 0, sizeof *w);
        wave_set_exec(w, ~0ull);
        CHECK(cov_run(w, arches[a], "v_nop\nv_clrexcp\nv_mov_b32 v1, 5") == WAVE_DONE &&
                  w->v[1][9] == 5,
              "%s v_nop/v_clrexcp", arches[a]);
        /* v_cvt_pk_f32_bf8: two bf8 bytes of the selected word to two f32 */
        memset(w, 0, sizeof *w);
        wave_set_exec(w, ~0ull);
        for (int l = 0; l < 64; l++)
            w->v[0][l] = BF8B[l % 8] | BF8B[(l + 1) % 8] << 8 | BF8B[(l + 2) % 8] << 16 |
                         BF8B[(l + 3) % 8] << 24;
        int cst = cov_run(w, arches[a],
                          "v_cvt_pk_f32_bf8_e32 v[4:5], v0\n"
                          "v_cvt_pk_f32_bf8_sdwa v[6:7], v0 src0_sel:WORD_1");
        if (cst == COV_NOT_ON_TARGET) /* gfx90a has no 8-bit floats */
            continue;
        CHECK(cst == WAVE_DONE, "%s cvt_pk_f32_bf8", arches[a]);
        int bad = 0;
        for (int l = 0; l < 64; l++)
            for (int i = 0; i < 4; i++) {
                u32 want = fb((float)bf8val(BF8B[(l + i) % 8]));
                bad += w->v[4 + i][l] != want;
            }
        CHECK(bad == 0, "%s cvt_pk_f32_bf8: %d wrong (lane 0: %08x %08x %08x %08x)", arches[a], bad,
              w->v[4][0], w->v[5][0], w->v[6][0], w->v[7][0]);
    }
    free(w);
    cov_report_na("cov_valu");
    return check_summary("cov_valu");
}
