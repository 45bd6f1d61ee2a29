/* valu_cmp.c - vector compares V_CMP_* / V_CMPX_* for f16, f32, f64, i16, u16, i32, u32, i64,
 * u64 and V_CMP_CLASS_* (CDNA3/CDNA4 ISA, "VOPC").
 *
 * A compare writes one bit per lane: to VCC (_e32, or SDWA without sdst) or to the SGPR pair in
 * the encoding (_e64).  Lanes not executed read 0.  V_CMPX_* also writes the result to EXEC (gfx9
 * family: the destination above is written too).  Float predicates follow the manual's names:
 * the N* forms are the negations, so they are true on unordered inputs; O/U test orderedness.
 * Every op is one X-macro row: predicate x type. */
#include "exec/valu.h"

static void cmp_write(wave *w, const xinst *x, u64 bits, int cmpx) {
    u64 r = bits & vwmask(w, x);
    /* RDNA's V_CMPX (gfx10+) writes EXEC only, in both encodings (src/exec/rdna.c) */
    if (!(cmpx && (x->xf & XI_RDNA)))
        vmask_write(w, x, vcmp_dst(x), r);
    if (cmpx)
        wave_set_exec(w, r);
}

/* Per-type operand fetch and conversion: a, b are the lane's operands. */
#define LOAD32(fk)                                                                                 \
    u32 t0[LANES], t1[LANES];                                                                      \
    const u32 *A = vs32(w, x, 0, t0, fk), *B = vs32(w, x, 1, t1, fk)
#define LOAD64(fk)                                                                                 \
    u64 t0[LANES], t1[LANES];                                                                      \
    const u64 *A = vs64(w, x, 0, t0, fk), *B = vs64(w, x, 1, t1, fk)
#define LOAD_f16 LOAD32(FK_F16)
#define LOAD_f32 LOAD32(FK_F32)
#define LOAD_f64 LOAD64(FK_F64)
#define LOAD_i16 LOAD32(FK_I16)
#define LOAD_u16 LOAD32(FK_I16)
#define LOAD_i32 LOAD32(FK_I32)
#define LOAD_u32 LOAD32(FK_I32)
#define LOAD_i64 LOAD64(FK_RAW)
#define LOAD_u64 LOAD64(FK_RAW)
#define CONV_f16 double a = h2d(A[l] & 0xffff), b = h2d(B[l] & 0xffff)
#define CONV_f32 float a = f32(A[l]), b = f32(B[l])
#define CONV_f64 double a = f64(A[l]), b = f64(B[l])
#define CONV_i16 i32 a = (i16)A[l], b = (i16)B[l]
#define CONV_u16 u32 a = A[l] & 0xffff, b = B[l] & 0xffff
#define CONV_i32 i32 a = (i32)A[l], b = (i32)B[l]
#define CONV_u32 u32 a = A[l], b = B[l]
#define CONV_i64 i64 a = (i64)A[l], b = (i64)B[l]
#define CONV_u64 u64 a = A[l], b = B[l]
#define T_f16 ISA_T_F16
#define T_f32 ISA_T_F32
#define T_f64 ISA_T_F64
#define T_i16 ISA_T_B16
#define T_u16 ISA_T_B16
#define T_i32 ISA_T_B32
#define T_u32 ISA_T_B32
#define T_i64 ISA_T_B64
#define T_u64 ISA_T_B64

/* The rows: V_CMP op, its V_CMPX twin, operand type, predicate on the lane's a and b.  Kept as
 * written (clang-format-22 reflows macro lists differently on every pass). */
/* clang-format off */
#define ALL_CMPS(X)                                          \
    X(v_cmp_f_f16, v_cmpx_f_f16, f16, 0)                     \
    X(v_cmp_lt_f16, v_cmpx_lt_f16, f16, a < b)               \
    X(v_cmp_eq_f16, v_cmpx_eq_f16, f16, a == b)              \
    X(v_cmp_le_f16, v_cmpx_le_f16, f16, a <= b)              \
    X(v_cmp_gt_f16, v_cmpx_gt_f16, f16, a > b)               \
    X(v_cmp_lg_f16, v_cmpx_lg_f16, f16, a < b || a > b)      \
    X(v_cmp_ge_f16, v_cmpx_ge_f16, f16, a >= b)              \
    X(v_cmp_o_f16, v_cmpx_o_f16, f16, a == a && b == b)      \
    X(v_cmp_u_f16, v_cmpx_u_f16, f16, a != a || b != b)      \
    X(v_cmp_nge_f16, v_cmpx_nge_f16, f16, !(a >= b))         \
    X(v_cmp_nlg_f16, v_cmpx_nlg_f16, f16, !(a < b || a > b)) \
    X(v_cmp_ngt_f16, v_cmpx_ngt_f16, f16, !(a > b))          \
    X(v_cmp_nle_f16, v_cmpx_nle_f16, f16, !(a <= b))         \
    X(v_cmp_neq_f16, v_cmpx_neq_f16, f16, !(a == b))         \
    X(v_cmp_nlt_f16, v_cmpx_nlt_f16, f16, !(a < b))          \
    X(v_cmp_tru_f16, v_cmpx_tru_f16, f16, 1)                 \
    X(v_cmp_f_f32, v_cmpx_f_f32, f32, 0)                     \
    X(v_cmp_lt_f32, v_cmpx_lt_f32, f32, a < b)               \
    X(v_cmp_eq_f32, v_cmpx_eq_f32, f32, a == b)              \
    X(v_cmp_le_f32, v_cmpx_le_f32, f32, a <= b)              \
    X(v_cmp_gt_f32, v_cmpx_gt_f32, f32, a > b)               \
    X(v_cmp_lg_f32, v_cmpx_lg_f32, f32, a < b || a > b)      \
    X(v_cmp_ge_f32, v_cmpx_ge_f32, f32, a >= b)              \
    X(v_cmp_o_f32, v_cmpx_o_f32, f32, a == a && b == b)      \
    X(v_cmp_u_f32, v_cmpx_u_f32, f32, a != a || b != b)      \
    X(v_cmp_nge_f32, v_cmpx_nge_f32, f32, !(a >= b))         \
    X(v_cmp_nlg_f32, v_cmpx_nlg_f32, f32, !(a < b || a > b)) \
    X(v_cmp_ngt_f32, v_cmpx_ngt_f32, f32, !(a > b))          \
    X(v_cmp_nle_f32, v_cmpx_nle_f32, f32, !(a <= b))         \
    X(v_cmp_neq_f32, v_cmpx_neq_f32, f32, !(a == b))         \
    X(v_cmp_nlt_f32, v_cmpx_nlt_f32, f32, !(a < b))          \
    X(v_cmp_tru_f32, v_cmpx_tru_f32, f32, 1)                 \
    X(v_cmp_f_f64, v_cmpx_f_f64, f64, 0)                     \
    X(v_cmp_lt_f64, v_cmpx_lt_f64, f64, a < b)               \
    X(v_cmp_eq_f64, v_cmpx_eq_f64, f64, a == b)              \
    X(v_cmp_le_f64, v_cmpx_le_f64, f64, a <= b)              \
    X(v_cmp_gt_f64, v_cmpx_gt_f64, f64, a > b)               \
    X(v_cmp_lg_f64, v_cmpx_lg_f64, f64, a < b || a > b)      \
    X(v_cmp_ge_f64, v_cmpx_ge_f64, f64, a >= b)              \
    X(v_cmp_o_f64, v_cmpx_o_f64, f64, a == a && b == b)      \
    X(v_cmp_u_f64, v_cmpx_u_f64, f64, a != a || b != b)      \
    X(v_cmp_nge_f64, v_cmpx_nge_f64, f64, !(a >= b))         \
    X(v_cmp_nlg_f64, v_cmpx_nlg_f64, f64, !(a < b || a > b)) \
    X(v_cmp_ngt_f64, v_cmpx_ngt_f64, f64, !(a > b))          \
    X(v_cmp_nle_f64, v_cmpx_nle_f64, f64, !(a <= b))         \
    X(v_cmp_neq_f64, v_cmpx_neq_f64, f64, !(a == b))         \
    X(v_cmp_nlt_f64, v_cmpx_nlt_f64, f64, !(a < b))          \
    X(v_cmp_tru_f64, v_cmpx_tru_f64, f64, 1)                 \
    X(v_cmp_f_i16, v_cmpx_f_i16, i16, 0)                     \
    X(v_cmp_lt_i16, v_cmpx_lt_i16, i16, a < b)               \
    X(v_cmp_eq_i16, v_cmpx_eq_i16, i16, a == b)              \
    X(v_cmp_le_i16, v_cmpx_le_i16, i16, a <= b)              \
    X(v_cmp_gt_i16, v_cmpx_gt_i16, i16, a > b)               \
    X(v_cmp_ne_i16, v_cmpx_ne_i16, i16, a != b)              \
    X(v_cmp_ge_i16, v_cmpx_ge_i16, i16, a >= b)              \
    X(v_cmp_t_i16, v_cmpx_t_i16, i16, 1)                     \
    X(v_cmp_f_u16, v_cmpx_f_u16, u16, 0)                     \
    X(v_cmp_lt_u16, v_cmpx_lt_u16, u16, a < b)               \
    X(v_cmp_eq_u16, v_cmpx_eq_u16, u16, a == b)              \
    X(v_cmp_le_u16, v_cmpx_le_u16, u16, a <= b)              \
    X(v_cmp_gt_u16, v_cmpx_gt_u16, u16, a > b)               \
    X(v_cmp_ne_u16, v_cmpx_ne_u16, u16, a != b)              \
    X(v_cmp_ge_u16, v_cmpx_ge_u16, u16, a >= b)              \
    X(v_cmp_t_u16, v_cmpx_t_u16, u16, 1)                     \
    X(v_cmp_f_i32, v_cmpx_f_i32, i32, 0)                     \
    X(v_cmp_lt_i32, v_cmpx_lt_i32, i32, a < b)               \
    X(v_cmp_eq_i32, v_cmpx_eq_i32, i32, a == b)              \
    X(v_cmp_le_i32, v_cmpx_le_i32, i32, a <= b)              \
    X(v_cmp_gt_i32, v_cmpx_gt_i32, i32, a > b)               \
    X(v_cmp_ne_i32, v_cmpx_ne_i32, i32, a != b)              \
    X(v_cmp_ge_i32, v_cmpx_ge_i32, i32, a >= b)              \
    X(v_cmp_t_i32, v_cmpx_t_i32, i32, 1)                     \
    X(v_cmp_f_u32, v_cmpx_f_u32, u32, 0)                     \
    X(v_cmp_lt_u32, v_cmpx_lt_u32, u32, a < b)               \
    X(v_cmp_eq_u32, v_cmpx_eq_u32, u32, a == b)              \
    X(v_cmp_le_u32, v_cmpx_le_u32, u32, a <= b)              \
    X(v_cmp_gt_u32, v_cmpx_gt_u32, u32, a > b)               \
    X(v_cmp_ne_u32, v_cmpx_ne_u32, u32, a != b)              \
    X(v_cmp_ge_u32, v_cmpx_ge_u32, u32, a >= b)              \
    X(v_cmp_t_u32, v_cmpx_t_u32, u32, 1)                     \
    X(v_cmp_f_i64, v_cmpx_f_i64, i64, 0)                     \
    X(v_cmp_lt_i64, v_cmpx_lt_i64, i64, a < b)               \
    X(v_cmp_eq_i64, v_cmpx_eq_i64, i64, a == b)              \
    X(v_cmp_le_i64, v_cmpx_le_i64, i64, a <= b)              \
    X(v_cmp_gt_i64, v_cmpx_gt_i64, i64, a > b)               \
    X(v_cmp_ne_i64, v_cmpx_ne_i64, i64, a != b)              \
    X(v_cmp_ge_i64, v_cmpx_ge_i64, i64, a >= b)              \
    X(v_cmp_t_i64, v_cmpx_t_i64, i64, 1)                     \
    X(v_cmp_f_u64, v_cmpx_f_u64, u64, 0)                     \
    X(v_cmp_lt_u64, v_cmpx_lt_u64, u64, a < b)               \
    X(v_cmp_eq_u64, v_cmpx_eq_u64, u64, a == b)              \
    X(v_cmp_le_u64, v_cmpx_le_u64, u64, a <= b)              \
    X(v_cmp_gt_u64, v_cmpx_gt_u64, u64, a > b)               \
    X(v_cmp_ne_u64, v_cmpx_ne_u64, u64, a != b)              \
    X(v_cmp_ge_u64, v_cmpx_ge_u64, u64, a >= b)              \
    X(v_cmp_t_u64, v_cmpx_t_u64, u64, 1)
/* clang-format on */

#define DEF_CMP(cmp, cmpx, ty, cond)                                                               \
    static inline __attribute__((always_inline)) void cmp##_x(wave *w, const xinst *x,             \
                                                              int cmpx_) {                         \
        LOAD_##ty;                                                                                 \
        u8 c[LANES];                                                                               \
        if (x->xf & XI_MASK32) /* a wave32 wave: lanes 0-31 (VFOR), 32-63 are never on */          \
            memset(c + 32, 0, 32);                                                                 \
        VFOR(x, {                                                                                  \
            CONV_##ty;                                                                             \
            (void)a, (void)b;                                                                      \
            c[l] = (cond) ? 1 : 0;                                                                 \
        });                                                                                        \
        cmp_write(w, x, vpack(c), cmpx_);                                                          \
    }                                                                                              \
    VFN static void cmp(wave *w, const xinst *x) { cmp##_x(w, x, 0); }                             \
    VFN static void cmpx(wave *w, const xinst *x) { cmp##_x(w, x, 1); }
ALL_CMPS(DEF_CMP)

/* ---- class: S1 bits select the classes that test true ---------------------------------------
 * 0 signalling NaN, 1 quiet NaN, 2 -inf, 3 -normal, 4 -denormal, 5 -0, 6 +0, 7 +denormal,
 * 8 +normal, 9 +inf. */
static inline u32 fclass(u32 sign, u32 exp_all_ones, u32 exp_zero, u32 man_zero, u32 quiet) {
    /* arithmetic instead of selects, so that class lane loops vectorize (gcc kept a branch per
     * lane for the selects): p is the positive class (inf 9, normal 8, denormal 7, zero 6),
     * the negative one 11 - p, and a NaN's is its quiet bit */
    u32 p = 8 + exp_all_ones - exp_zero * (1 + man_zero);
    u32 c = p + sign * (11 - 2 * p), nan = exp_all_ones & (1 - man_zero);
    return c + nan * (quiet - c);
}
static inline u32 class32(u32 u) {
    u32 e = (u >> 23) & 0xff, m = u & 0x7fffff;
    return fclass(u >> 31, e == 0xff, e == 0, m == 0, (m >> 22) & 1);
}
static inline u32 class16(u32 u) {
    u32 e = (u >> 10) & 0x1f, m = u & 0x3ff;
    return fclass((u >> 15) & 1, e == 0x1f, e == 0, m == 0, (m >> 9) & 1);
}
static inline u32 class64(u64 u) {
    u64 e = (u >> 52) & 0x7ff, m = u & 0xfffffffffffffull;
    return fclass((u32)(u >> 63), e == 0x7ff, e == 0, m == 0, (u32)((m >> 51) & 1));
}
/* Modifiers apply to S0, but denormals are never flushed: class must see them.  S1 (the class
 * mask) is read as fk1: the f16 form's is a 16-bit operand, which op_sel may take from the high
 * half (gfx11 v_cmp_class_f16 s0, v1, v2.h: found by tests/exec/test_valu_forms.c). */
#define DEF_CLASS(name, S0T, load0, cls, fk1)                                                      \
    static inline __attribute__((always_inline)) void name##_x(wave *w, const xinst *x,            \
                                                               int cmpx) {                         \
        S0T t0[LANES];                                                                             \
        u32 t1[LANES];                                                                             \
        const S0T *A = load0;                                                                      \
        const u32 *B = vs32(w, x, 1, t1, fk1);                                                     \
        u8 c[LANES]; /* one byte per lane, packed after the loop: the loop vectorizes */           \
        VLOOP(l) c[l] = (u8)((B[l] >> cls(A[l])) & 1);                                             \
        cmp_write(w, x, vpack(c), cmpx);                                                           \
    }                                                                                              \
    VFN static void name(wave *w, const xinst *x) { name##_x(w, x, 0); }
DEF_CLASS(v_cmp_class_f32, u32, vs32(w, x, 0, t0, FK_M32), class32, FK_I32)
DEF_CLASS(v_cmp_class_f16, u32, vs32(w, x, 0, t0, FK_F16), class16, FK_I16)
/* (abs/neg apply to S0 as to any f64 source; denormals are classified, never flushed: found by
 * tests/exec/test_valu_forms.c, the f64 form ignored the modifiers) */
DEF_CLASS(v_cmp_class_f64, u64, vs64(w, x, 0, t0, FK_M64), class64, FK_I32)
VFN static void v_cmpx_class_f32(wave *w, const xinst *x) { v_cmp_class_f32_x(w, x, 1); }
VFN static void v_cmpx_class_f16(wave *w, const xinst *x) { v_cmp_class_f16_x(w, x, 1); }
VFN static void v_cmpx_class_f64(wave *w, const xinst *x) { v_cmp_class_f64_x(w, x, 1); }

#define ROW_CMP(cmp, cmpx, ty, cond) VH(cmp, cmp, T_##ty), VH(cmpx, cmpx, T_##ty),
const xhandler x_valu_cmp_handlers[] = {
    ALL_CMPS(ROW_CMP) VH(v_cmp_class_f32, v_cmp_class_f32, ISA_T_F32),
    VH(v_cmpx_class_f32, v_cmpx_class_f32, ISA_T_F32),
    VH(v_cmp_class_f16, v_cmp_class_f16, ISA_T_F16),
    VH(v_cmpx_class_f16, v_cmpx_class_f16, ISA_T_F16),
    VH(v_cmp_class_f64, v_cmp_class_f64, ISA_T_F64),
    VH(v_cmpx_class_f64, v_cmpx_class_f64, ISA_T_F64),
};
const unsigned x_valu_cmp_nhandlers = sizeof x_valu_cmp_handlers / sizeof x_valu_cmp_handlers[0];
