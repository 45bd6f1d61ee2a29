/* valu_f16.c - half-precision and packed-math VALU ops (CDNA3/CDNA4 ISA: VOP2/VOP1/VOP3 *_F16,
 * VOP3P V_PK_*, V_FMA_MIX*, V_DOT2*).
 *
 * Every result is rounded once to f16: sums, products and quotients of f16 values go through
 * float (double rounding through 24 bits is harmless for them), fused ops (v_fma_f16,
 * v_pk_fma_f16, v_fma_mix*) through fma16f()/fma16d(), which round to odd first.  The v_mad/v_mac
 * forms are not fused: the product is rounded to f16 first.  16-bit results clear the high half of
 * the register, except the gfx9 op_sel forms (v_mad_f16, v_fma_f16, v_div_fixup_f16, 16-bit
 * min3/max3/med3), which keep it; VOP3 op_sel on the destination writes the high half and keeps
 * the low one.
 *
 * Packed (VOP3P) operands: for source i the low lane value is its high half when op_sel[i] is
 * set, the high lane value its high half when op_sel_hi[i] is set; neg_lo/neg_hi negate each.
 * Packed f16 float ops (and v_pk_fmac_f16's accumulator) follow MODE's f16 denormal bits for
 * each half of their inputs and results, like the scalar f16 ops; the dot products read their
 * halves as they are (their denormal behaviour is not modelled).
 * The packed f32 ops (gfx940+) do the same with the two dwords of a 64-bit operand. */
#include "exec/valu.h"

#define IEEE (vmode_ & MODE_IEEE) /* VMODE (valu.h) */

/* ---- fused arithmetic, branch-free so the lane loops vectorize ---------------------------------
 * NaN results: the f32 ops' rule (valu.h hw_fma, docs/architecture.md "NaN results"), made
 * explicit with masks so that no compiler, clone or vector width can change it: a's NaN, then
 * b's, then the product's (the default NaN of inf * 0, even with a NaN c), then c's; a sum NaN
 * from inf - inf is the default NaN.  (Until session 38 each op kept the order its x86-64-v3/v4
 * clone happened to have: c's first for v_fma_f16, b's first for v_pk_fma_f16.) */
static inline __attribute__((always_inline)) u32 nan32m(u32 x) { /* all-ones when x is a NaN */
    return 0u - (u32)((x & 0x7fffffffu) > 0x7f800000u);
}
static inline __attribute__((always_inline)) u32 msel(u32 m, u32 a, u32 b) {
    return (a & m) | (b & ~m);
} /* m all-ones ? a : b */
/* The f16 NaN a float NaN (bits x) becomes: quiet, its top 10 payload bits (as f2h). */
static inline __attribute__((always_inline)) u32 fnan2h(u32 x) {
    return ((x >> 16) & 0x8000u) | 0x7e00u | ((x >> 13) & 0x3ffu);
}
/* The NaN (float bits) a*b+c gives, from the float bits of a, b, c and of the product p as the
 * host computed it; *m is all-ones where the result is that NaN (p or c a NaN). */
static inline __attribute__((always_inline)) u32 fma_nan(u32 ab, u32 bb, u32 cb, u32 pb, u32 *m) {
    u32 na = nan32m(ab), nb = nan32m(bb), nc = nan32m(cb), np = nan32m(pb);
    *m = np | nc;
    return msel(np, msel(na, ab, msel(nb, bb, pb)), cb);
}
/* a*b+c rounded once to f16, for f16 inputs (exact f16 values as floats), in float only: the
 * product of two f16 values is exact in float (22 bits), TwoSum gives the float sum's exact error
 * (every value is a multiple of 2^-48, far above float's denormals, and below 2^33), and the sum
 * stepped to odd by the error's sign (24 bits >= 11 + 2) then rounds correctly to f16: the bits
 * valu.h's fma16() makes from the same values in double.  The tests are all-ones/zero masks, not
 * bools, so gcc vectorizes the loops. */
static inline __attribute__((always_inline)) u32 fma16f(float a, float b, float c) {
    float p = a * b, s = p + c, bp = s - c;
    float e = (p - bp) + (c - (s - bp));
    u32 sb = bf32(s);
    u32 fix =
        (0u - (u32)(e != 0)) & ((sb & 1) - 1) & (0u - (u32)((sb & 0x7f800000u) != 0x7f800000u));
    u32 away = 0u - (u32)((e > 0) == (s > 0)); /* the exact value lies beyond s: step away from 0 */
    sb += fix & ((away & 2) - 1);
    u32 m, n = fma_nan(bf32(a), bf32(b), bf32(c), bf32(p), &m);
    return msel(m, fnan2h(n), f2h(f32(sb)));
}
/* valu.h's fma16() (a, b, c f16 or f32 values, as doubles) written with masks so that its lane
 * loop vectorizes: the product exact in double, TwoSum's exact error, the float result rounded
 * to odd, then to f16; the same bits for every input.  A result that rounds to a float zero
 * steps to the smallest denormal of its sign (both functions took +0's sign as "not positive"
 * until session 22 and stepped +0 to the bits 0xffffffff, giving v_fma_mix*_f16 of a tiny
 * positive f32 product the f16 NaN 0xffff instead of +0).  NaNs as fma_nan() picks them, from
 * the inputs narrowed to float (exact, and a NaN keeps the payload bits an f16 result can
 * show). */
static inline __attribute__((always_inline)) u32 fma16d(double a, double b, double c) {
    double p = a * b, s = p + c, bp = s - c;
    double e = (p - bp) + (c - (s - bp));
    float f = (float)s;
    double r = (s - (double)f) + e; /* sign of the exact remainder */
    u64 r2 = bf64(r) << 1;
    u32 fb = bf32(f);
    u32 rnz = 0u - (u32)((r2 | (0 - r2)) >> 63); /* r != 0 (or NaN) */
    u32 rpos = rnz & ((u32)(bf64(r) >> 63) - 1); /* r > 0 (no NaN where used) */
    u32 fpos = (fb >> 31) - 1;                   /* f's sign bit clear, +0 included */
    u32 fix = rnz & ((fb & 1) - 1) & (0u - (u32)((fb & 0x7f800000u) != 0x7f800000u));
    u32 away = ~(rpos ^ fpos);
    fb += fix & ((away & 2) - 1);
    u32 m, n = fma_nan(bf32((float)a), bf32((float)b), bf32((float)c), bf32((float)p), &m);
    return msel(m, fnan2h(n), f2h(f32(fb)));
}

/* ---- scalar f16: a, b, c are exact f16 values (doubles; floats in H2F/H3F), A/B/C the raw bits -
 * The arithmetic ops compute in float: a sum, difference or product of two f16 values rounded to
 * float is what the exact (double) one rounded to float is, and valu.h's r16() rounds through
 * float anyway; float loops vectorize 16 lanes wide, as gcc already managed for the double forms
 * of add/sub/mul (it narrowed them itself), but not for mad/fma. */

#define H1(name, expr)                                                                             \
    VFN static void name(wave *w, const xinst *x) {                                                \
        VMODE;                                                                                     \
        u32 t0[LANES], d[LANES];                                                                   \
        const u32 *A = vs32(w, x, 0, t0, FK_F16);                                                  \
        VLOOP(l) {                                                                                 \
            double a = h2d(A[l]);                                                                  \
            d[l] = (expr);                                                                         \
        }                                                                                          \
        vd16(w, x, d, FK_F16, 0);                                                                  \
    }
#define H2(name, expr) V16OP2(name, FK_F16, double, h2d, expr)
#define H3(name, expr, preserve) V16OP3(name, FK_F16, double, h2d, expr, preserve)
/* H2F/H3F: the f16 arithmetic ops with a, b, c floats (exact f16 values).  H3D: the same with a
 * direct path for the fused ops: a plain instruction (no modifiers) under full EXEC without f16
 * denormal flushing goes through valu.h's VDIRECT, and its all-VGPR form through the plain-VGPR
 * clone name##_vv (valu.h VV, rows VHV); the result goes straight into the destination's lane as
 * vd16() would write it there: the high half cleared, or kept by the gfx9 op_sel forms
 * (preserve) and by every RDNA 16-bit result.  (The unfused ops gain nothing from it: their
 * time is the f16 <-> float conversions, and a new loop would need their NaN order made
 * explicit, which costs more than the direct path saves.) */
#define H16PUT(r, keep) D[l] = ((D[l] & 0xffff0000u) & (0u - (u32)(keep))) | ((u32)(r) & 0xffff)
#define H16KEEP(preserve) ((preserve) || (x->xf & XI_RDNA))
#define H2F(name, expr) V16OP2(name, FK_F16, float, h2f, expr)
#define H3F(name, expr, preserve) V16OP3(name, FK_F16, float, h2f, expr, preserve)
#define H3D(name, expr, preserve)                                                                  \
    VFN static void name(wave *w, const xinst *x) {                                                \
        VMODE;                                                                                     \
        u32 t0[LANES], t1[LANES], t2[LANES], d[LANES];                                             \
        if (vplain(w, x, FK_F16)) {                                                                \
            const u32 *A = vs32p(w, x, 0, t0, FK_F16), *B = vs32p(w, x, 1, t1, FK_F16),            \
                      *C = vs32p(w, x, 2, t2, FK_F16);                                             \
            const int keep = H16KEEP(preserve);                                                    \
            VDIRECT({                                                                              \
                float a = h2f(A[l]), b = h2f(B[l]), c = h2f(C[l]);                                 \
                H16PUT(expr, keep);                                                                \
            });                                                                                    \
            return;                                                                                \
        }                                                                                          \
        const u32 *A = vs32(w, x, 0, t0, FK_F16), *B = vs32(w, x, 1, t1, FK_F16),                  \
                  *C = vs32(w, x, 2, t2, FK_F16);                                                  \
        VLOOP(l) {                                                                                 \
            float a = h2f(A[l]), b = h2f(B[l]), c = h2f(C[l]);                                     \
            d[l] = (u32)(expr);                                                                    \
        }                                                                                          \
        vd16(w, x, d, FK_F16, preserve);                                                           \
    }                                                                                              \
    VV(name, FK_F16, 3, const int keep = H16KEEP(preserve);                                        \
       float a = h2f(A[l]), b = h2f(B[l]), c = h2f(C[l]); H16PUT(expr, keep))

/* a*b+c unfused: the product rounded to f16, then the sum (rounded by the caller's f2h). */
static inline __attribute__((always_inline)) float mad16(float a, float b, float c) {
    float p = hw_mul(a, b); /* a NaN product (a NaN or inf * 0) is the result */
    return p != p ? p : hw_add(h2f(f2h(p)), c);
}

/* (hw_*: valu.h, the f32 ops' NaN rule; the NaN's f16 bits from f2h) */
H2F(v_add_f16, f2h(hw_add(a, b)))
H2F(v_sub_f16, f2h(hw_sub(a, b)))
H2F(v_subrev_f16, f2h(hw_sub(b, a)))
H2F(v_mul_f16, f2h(hw_mul(a, b)))
H2(v_max_f16, fmax16(A[l], B[l], IEEE))
H2(v_min_f16, fmin16(A[l], B[l], IEEE))
/* NaN inputs: a's, then b's, then the product's (inf * 0), then c's (see fma_nan) */
H3D(v_fma_f16, fma16f(a, b, c), 1)
H3D(v_fma_legacy_f16, fma16f(a, b, c), 0)
H3F(v_mad_f16, f2h(mad16(a, b, c)), 1)
H3F(v_mad_legacy_f16, f2h(mad16(a, b, c)), 0)
/* madmk/madak: the decoder puts the literal K in source order, so both are S0 * S1 + S2. */
H3F(v_madmk_f16, f2h(mad16(a, b, c)), 0)
H3F(v_madak_f16, f2h(mad16(a, b, c)), 0)
H3(v_min3_f16, fmin16(fmin16(A[l], B[l], IEEE), C[l], IEEE), 1)
H3(v_max3_f16, fmax16(fmax16(A[l], B[l], IEEE), C[l], IEEE), 1)
static inline u32 med3_16(u32 a, u32 b, u32 c, int ieee) {
    if (h2d(a) != h2d(a) || h2d(b) != h2d(b) || h2d(c) != h2d(c))
        return fmin16(fmin16(a, b, ieee), c, ieee);
    return fmax16(fmin16(a, b, ieee), fmin16(fmax16(a, b, ieee), c, ieee), ieee);
}
H3(v_med3_f16, med3_16(A[l], B[l], C[l], IEEE), 1)

/* A denormal f16 (h: 16 bits) as a signed zero when ftz is 0x7c00; h itself when ftz is 0.
 * Branch-free, so the loops using it vectorize. */
static inline __attribute__((always_inline)) u32 ftz16(u32 h, u32 ftz) {
    return vsel((u32)((h & 0x7c00u) == 0) & (u32)(ftz != 0), h & 0x8000u, h);
}

/* D = S0 * S1 + D (unfused): the accumulator is an input like S0 and S1, flushed like them
 * when MODE flushes f16 input denormals. */
VFN static void v_mac_f16(wave *w, const xinst *x) {
    u32 t0[LANES], t1[LANES], d[LANES];
    const u32 *A = vs32(w, x, 0, t0, FK_F16), *B = vs32(w, x, 1, t1, FK_F16);
    const u32 *D = vdreg(w, &x->in.dst[0]);
    u32 ftz = fk_flush_in(w->mode, FK_F16) ? 0x7c00 : 0;
    VLOOP(l) d[l] = f2h(mad16(h2f(A[l]), h2f(B[l]), h2f(ftz16(D[l] & 0xffff, ftz))));
    vd16(w, x, d, FK_F16, 0);
}

static double div_fixup16(double q, double den, double num) {
    int neg = signbit(den) != signbit(num);
    if (num != num || den != den)
        return NAN;
    if ((den == 0 && num == 0) || (isinf(den) && isinf(num)))
        return -NAN;
    if (den == 0 || isinf(num))
        return neg ? -INFINITY : INFINITY;
    if (isinf(den) || num == 0)
        return neg ? -0.0 : 0.0;
    return neg ? -fabs(q) : fabs(q);
}
H3(v_div_fixup_f16, d2h(div_fixup16(a, b, c)), 1)
H3(v_div_fixup_legacy_f16, d2h(div_fixup16(a, b, c)), 0)

/* D = S0 * 2^S1 (S1 a signed 16-bit integer). */
VFN static void v_ldexp_f16(wave *w, const xinst *x) {
    u32 t0[LANES], t1[LANES], d[LANES];
    const u32 *A = vs32(w, x, 0, t0, FK_F16), *B = vs32(w, x, 1, t1, FK_I16);
    VLOOP(l) d[l] = d2h(ldexp(h2d(A[l]), (i16)B[l]));
    vd16(w, x, d, FK_F16, 0);
}

/* Rounded to f16 by r16 (through float, branch-free: the loops vectorize) rather than d2h (a
 * call per lane; 500-900 ns a wave-instruction): the same bits for all 65536 inputs (checked
 * once, exhaustively): the integers and fract's a - floor(a) (at most 24 bits from 2^-1 down)
 * are exact in float, and double rounding through float is innocuous for a quotient or a
 * square root (valu.h r16; sqrt is the instruction: -fno-math-errno, Makefile).  x_trunc and
 * the rest: valu.h. */
H1(v_trunc_f16, r16(x_trunc(a)))
H1(v_ceil_f16, r16(x_ceil(a)))
H1(v_floor_f16, r16(x_floor(a)))
H1(v_rndne_f16, r16(rint(a)))
/* in float, where a - floor(a) is exact and the selects vectorize */
H1(v_fract_f16, f2h(x_fractf((float)a, 0x1.ffcp-1f)))
H1(v_sqrt_f16, r16(sqrt(a)))
H1(v_rcp_f16, r16(1.0 / a))
H1(v_rsq_f16, d2h(1.0 / sqrt(a)))
H1(v_exp_f16, d2h(exp2(a)))
H1(v_log_f16, d2h(log2(a)))
static inline double sin_rev(double a, int cosine) {
    if (isinf(a) || a != a)
        return NAN;
    double r = a - rint(a);
    return cosine ? cos(2 * M_PI * r) : sin(2 * M_PI * r);
}
H1(v_sin_f16, d2h(sin_rev(a, 0)))
H1(v_cos_f16, d2h(sin_rev(a, 1)))
H1(v_frexp_mant_f16, d2h((isinf(a) || a != a) ? a : frexp(a, &(int){0})))
static inline u32 frexp_exp16(double a) {
    int e = 0;
    if (!isinf(a) && a == a)
        frexp(a, &e);
    return (u32)e & 0xffff;
}
H1(v_frexp_exp_i16_f16, frexp_exp16(a))

/* D = {S1.f16, S0.f16} */
VFN static void v_pack_b32_f16(wave *w, const xinst *x) {
    u32 t0[LANES], t1[LANES], d[LANES];
    const u32 *A = vs32(w, x, 0, t0, FK_F16), *B = vs32(w, x, 1, t1, FK_F16);
    VLOOP(l) d[l] = (A[l] & 0xffff) | B[l] << 16;
    vd32(w, x, d, FK_RAW);
}

/* ---- packed 16-bit (VOP3P) --------------------------------------------------------------------
 */

/* Source i split into its low-lane and high-lane 16-bit values. */
/* fl: 0 integer halves; 1 f16 halves (neg applies, denormals flushed when MODE flushes f16
 * inputs); 2 other 16-bit floats, or f16 read as it is (neg applies, no flushing).
 * pk_src16_ and pk_finish_ are inlined into this file's handlers, so that their loops are
 * compiled (vectorized) for each handler clone's target; pk_src16/pk_finish are their
 * out-of-line forms for round.c. */
static inline __attribute__((always_inline)) void pk_src16_(wave *w, const xinst *x, int i, u32 *lo,
                                                            u32 *hi, int fl) {
    u32 t[LANES];
    const isa_valu_fields *v = &x->in.f.v;
    const u32 *s = vs32(w, x, i, t, FK_RAW);
    if (x->in.src[i].kind == ISA_OPND_INLINE) {
        /* VOP3P reads an inline constant as a 32-bit value whose halves op_sel/op_sel_hi pick:
         * an f16 (bf16) float constant zero-extended, an integer one sign-extended, and for
         * the integer ops a float constant's f32 bits (exec.c).  Hardware: tinygrad test/amd/hw
         * test_v_pk_add_f16_with_inline_constant, test_v_pk_add_u16_float_inline_const_opsel;
         * clang-22 builds splat(2.0h) as "2.0 op_sel_hi:[1,0]", (0x4000, 0x4000) as "2.0
         * op_sel:[0,1]", (5, 0) as "5", on gfx11 and gfx9 alike.  v_pk_fmac_f16 (VOP2/VOP3, no
         * op_sel_hi) gets the low half in both lanes. */
        u32 k = (u32)x->k[i];
        if (x->in.fmt != ISA_FMT_VOP3P)
            k = (k & 0xffff) * 0x10001u;
        for (int l = 0; l < LANES; l++)
            t[l] = k;
        s = t;
    }
    /* v_pk_fmac_f16, the one packed op with a VOP2 encoding, has no op_sel_hi: its high
     * halves are the sources' high halves */
    int sl = (v->opsel >> i) & 1, sh = x->in.fmt != ISA_FMT_VOP3P || ((v->opsel_hi >> i) & 1);
    u32 nl = ((v->neg >> i) & 1) && fl ? 0x8000 : 0, nh = ((v->neg_hi >> i) & 1) && fl ? 0x8000 : 0;
    u32 ftz = fl == 1 && fk_flush_in(w->mode, FK_F16) ? 0x7c00 : 0;
    VLOOP(l) {
        lo[l] = ftz16(((sl ? s[l] >> 16 : s[l]) & 0xffff) ^ nl, ftz);
        hi[l] = ftz16(((sh ? s[l] >> 16 : s[l]) & 0xffff) ^ nh, ftz);
    }
}
void pk_src16(wave *w, const xinst *x, int i, u32 *lo, u32 *hi, int fl) {
    pk_src16_(w, x, i, lo, hi, fl);
}
/* An f16 (h: 16 bits) clamped to [0, 1]: NaN and everything <= 0 (-0 too) give +0, everything
 * >= 1 gives 1.0, by the bits: 0 and 0x7c01-0xffff (NaNs and negatives) are the first, 0x3c00-
 * 0x7c00 the second. */
static inline __attribute__((always_inline)) u32 clamp_h(u32 h) {
    return vsel(h - 1 >= 0x7c00u, 0, vsel(h >= 0x3c00u, 0x3c00u, h));
}
/* FL: float op (neg modifiers apply, clamp is [0,1]); expressions see a, b, c as raw halves. */
/* Clamp (float ops) and pack the two result halves, then write. */
/* Float results: denormal halves become signed zeros when MODE flushes f16 outputs. */
static inline __attribute__((always_inline)) void pk_finish_(wave *w, const xinst *x, const u32 *lo,
                                                             const u32 *hi, int fl) {
    u32 d[LANES];
    u32 cl = 0u - (u32)(fl && x->in.f.v.clamp);
    u32 ftz = fl && fk_flush_out(w->mode, FK_F16) ? 0x7c00 : 0;
    VLOOP(l) {
        u32 a = ftz16(lo[l] & 0xffff, ftz), b = ftz16(hi[l] & 0xffff, ftz);
        a = (clamp_h(a) & cl) | (a & ~cl);
        b = (clamp_h(b) & cl) | (b & ~cl);
        d[l] = a | b << 16;
    }
    vd32(w, x, d, FK_RAW);
}
void pk_finish(wave *w, const xinst *x, const u32 *lo, const u32 *hi, int fl) {
    pk_finish_(w, x, lo, hi, fl);
}
/* The direct path of a packed op: VOP3P with op_sel clear and op_sel_hi set (the default) for
 * its nsrc sources, no neg (fl: a float op) and no clamp, VGPR sources, every lane active and,
 * for the float ops, no f16 denormal flushing.  Then each half comes straight from its register
 * and the two results go straight into the destination, which is what pk_src16_() and
 * pk_finish_() give in that case. */
static inline __attribute__((always_inline)) int pk_direct(const wave *w, const xinst *x, int nsrc,
                                                           int fl) {
    const isa_valu_fields *v = &x->in.f.v;
    unsigned m = (1u << nsrc) - 1;
    if (x->in.fmt != ISA_FMT_VOP3P || x->in.variant >= ISA_VAR_SDWA || (v->opsel & m) ||
        (v->opsel_hi & m) != m || (fl && ((v->neg | v->neg_hi) & m)) || v->clamp || !vfull(w, x) ||
        (fl && (fk_flush_in(w->mode, FK_F16) || fk_flush_out(w->mode, FK_F16))))
        return 0;
    for (int i = 0; i < nsrc; i++)
        if (x->in.src[i].kind != ISA_OPND_VGPR)
            return 0;
    return 1;
}
/* One loop per half, in place, so each vectorizes. */
#define PK2(name, FL, expr)                                                                        \
    VFN static void name(wave *w, const xinst *x) {                                                \
        VMODE;                                                                                     \
        u32 al[LANES], ah[LANES], bl[LANES], bh[LANES];                                            \
        if (pk_direct(w, x, 2, FL)) {                                                              \
            const u32 *A = w->v[x->in.src[0].idx], *B = w->v[x->in.src[1].idx];                    \
            VDIRECT({                                                                              \
                u32 a = A[l] & 0xffff, b = B[l] & 0xffff;                                          \
                u32 lo = (u32)(expr) & 0xffff;                                                     \
                a = A[l] >> 16, b = B[l] >> 16;                                                    \
                D[l] = lo | ((u32)(expr) & 0xffff) << 16;                                          \
            });                                                                                    \
            return;                                                                                \
        }                                                                                          \
        pk_src16_(w, x, 0, al, ah, FL);                                                            \
        pk_src16_(w, x, 1, bl, bh, FL);                                                            \
        VLOOP(l) {                                                                                 \
            u32 a = al[l], b = bl[l];                                                              \
            al[l] = (u32)(expr) & 0xffff;                                                          \
        }                                                                                          \
        VLOOP(l) {                                                                                 \
            u32 a = ah[l], b = bh[l];                                                              \
            ah[l] = (u32)(expr) & 0xffff;                                                          \
        }                                                                                          \
        pk_finish_(w, x, al, ah, FL);                                                              \
    }
#define PK3(name, FL, expr)                                                                        \
    VFN static void name(wave *w, const xinst *x) {                                                \
        VMODE;                                                                                     \
        u32 al[LANES], ah[LANES], bl[LANES], bh[LANES], cl_[LANES], ch[LANES];                     \
        if (pk_direct(w, x, 3, FL)) {                                                              \
            const u32 *A = w->v[x->in.src[0].idx], *B = w->v[x->in.src[1].idx],                    \
                      *C = w->v[x->in.src[2].idx];                                                 \
            VDIRECT({                                                                              \
                u32 a = A[l] & 0xffff, b = B[l] & 0xffff, c = C[l] & 0xffff;                       \
                u32 lo = (u32)(expr) & 0xffff;                                                     \
                a = A[l] >> 16, b = B[l] >> 16, c = C[l] >> 16;                                    \
                D[l] = lo | ((u32)(expr) & 0xffff) << 16;                                          \
            });                                                                                    \
            return;                                                                                \
        }                                                                                          \
        pk_src16_(w, x, 0, al, ah, FL);                                                            \
        pk_src16_(w, x, 1, bl, bh, FL);                                                            \
        pk_src16_(w, x, 2, cl_, ch, FL);                                                           \
        VLOOP(l) {                                                                                 \
            u32 a = al[l], b = bl[l], c = cl_[l];                                                  \
            al[l] = (u32)(expr) & 0xffff;                                                          \
        }                                                                                          \
        VLOOP(l) {                                                                                 \
            u32 a = ah[l], b = bh[l], c = ch[l];                                                   \
            ah[l] = (u32)(expr) & 0xffff;                                                          \
        }                                                                                          \
        pk_finish_(w, x, al, ah, FL);                                                              \
    }
/* f16 arithmetic in float, as for the scalar ops (H2F, H3F) */
#define H(v) h2f(v)
#define S16(v) ((i32)(i16)(v))
PK2(v_pk_add_f16, 1, f2h(hw_add(H(a), H(b))))
PK2(v_pk_mul_f16, 1, f2h(hw_mul(H(a), H(b))))
PK2(v_pk_max_f16, 1, fmax16(a, b, IEEE))
PK2(v_pk_min_f16, 1, fmin16(a, b, IEEE))
PK3(v_pk_fma_f16, 1, fma16f(H(a), H(b), H(c))) /* (NaNs: as v_fma_f16's) */
/* Packed integer add/sub/mad: the VOP3P clamp bit saturates each half (unsigned or signed 16-bit,
 * CDNA3 ISA V_PK_ADD_U16 ...); without it the halves wrap. */
#define PCLAMP VCLAMP(x)
static inline u32 psat_u16(i64 v) { return v < 0 ? 0 : v > 0xffff ? 0xffff : (u32)v; }
static inline u32 psat_i16(i64 v) { return (u32)(v < -32768 ? -32768 : v > 32767 ? 32767 : v); }
PK2(v_pk_add_u16, 0, PCLAMP ? psat_u16((i64)a + b) : a + b)
PK2(v_pk_sub_u16, 0, PCLAMP ? psat_u16((i64)a - b) : a - b)
PK2(v_pk_add_i16, 0, PCLAMP ? psat_i16(S16(a) + S16(b)) : a + b)
PK2(v_pk_sub_i16, 0, PCLAMP ? psat_i16(S16(a) - S16(b)) : a - b)
PK2(v_pk_mul_lo_u16, 0, a *b)
PK2(v_pk_lshlrev_b16, 0, b << (a & 15))
PK2(v_pk_lshrrev_b16, 0, b >> (a & 15))
PK2(v_pk_ashrrev_i16, 0, (u32)(S16(b) >> (a & 15)))
PK2(v_pk_max_u16, 0, a > b ? a : b)
PK2(v_pk_min_u16, 0, a < b ? a : b)
PK2(v_pk_max_i16, 0, (u32)(S16(a) > S16(b) ? a : b))
PK2(v_pk_min_i16, 0, (u32)(S16(a) < S16(b) ? a : b))
PK3(v_pk_mad_u16, 0, PCLAMP ? psat_u16((i64)a *b + c) : a *b + c)
PK3(v_pk_mad_i16, 0,
    PCLAMP ? psat_i16((i64)S16(a) * S16(b) + S16(c)) : (u32)(S16(a) * S16(b) + S16(c)))

/* gfx950 IEEE maximum (max 1) / minimum (max 0) of three, per half: NaN propagates, -0 < +0. */
static inline u32 maxmin16(u32 a, u32 b, int max) {
    if (h2d(a) != h2d(a))
        return a | 0x200;
    if (h2d(b) != h2d(b))
        return b | 0x200;
    return max ? fmax16(a, b, 0) : fmin16(a, b, 0);
}
PK3(v_pk_maximum3_f16, 1, maxmin16(maxmin16(a, b, 1), c, 1))
PK3(v_pk_minimum3_f16, 1, maxmin16(maxmin16(a, b, 0), c, 0))

/* D = S0 * S1 + D, packed: the accumulator halves are inputs like the others (flushed like
 * them), and the results flushed like every packed f16 result. */
VFN static void v_pk_fmac_f16(wave *w, const xinst *x) {
    u32 al[LANES], ah[LANES], bl[LANES], bh[LANES], d[LANES];
    if (vplain(w, x, FK_F16) && x->in.src[0].kind == ISA_OPND_VGPR &&
        x->in.src[1].kind == ISA_OPND_VGPR) { /* as pk_direct(): straight from the registers */
        const u32 *A = w->v[x->in.src[0].idx], *B = w->v[x->in.src[1].idx];
        VDIRECT({
            u32 r0 = fma16f(H(A[l] & 0xffff), H(B[l] & 0xffff), H(D[l] & 0xffff));
            u32 r1 = fma16f(H(A[l] >> 16), H(B[l] >> 16), H(D[l] >> 16));
            D[l] = r0 | r1 << 16;
        });
        return;
    }
    pk_src16_(w, x, 0, al, ah, 1); /* VOP2/VOP3A: the high halves for the high lane */
    pk_src16_(w, x, 1, bl, bh, 1);
    const u32 *D = vdreg(w, &x->in.dst[0]);
    u32 fi = fk_flush_in(w->mode, FK_F16) ? 0x7c00 : 0,
        fo = fk_flush_out(w->mode, FK_F16) ? 0x7c00 : 0;
    VLOOP(l) {
        /* NaNs: S0's, then S1's, then D's */
        u32 r0 = fma16f(H(al[l]), H(bl[l]), H(ftz16(D[l] & 0xffff, fi)));
        u32 r1 = fma16f(H(ah[l]), H(bh[l]), H(ftz16(D[l] >> 16, fi)));
        d[l] = ftz16(r0, fo) | ftz16(r1, fo) << 16;
    }
    vd32(w, x, d, FK_RAW);
}

/* ---- mixed precision: v_fma_mix* -----------------------------------------------------------
 * Source i is f32 when op_sel_hi[i] is 0, else the f16 half picked by op_sel[i]; neg and abs
 * apply (the abs bits sit where VOP3P has neg_hi).  One rounding to the result format. */
static inline __attribute__((always_inline)) void mix_src(wave *w, const xinst *x, int i,
                                                          double *r) {
    u32 t[LANES];
    const isa_valu_fields *v = &x->in.f.v;
    const u32 *s = vs32(w, x, i, t, FK_RAW);
    int f16 = (v->opsel_hi >> i) & 1, hi = (v->opsel >> i) & 1;
    int ab = (v->abs >> i) & 1, ng = (v->neg >> i) & 1;
    if (f16 && x->in.src[i].kind == ISA_OPND_INLINE && x->in.src[i].idx >= 240) {
        /* a float inline constant read as f16 is that constant's f16 value */
        u32 k = d2h((double)f32((u32)x->k[i]));
        for (int l = 0; l < LANES; l++)
            t[l] = k | k << 16;
        s = t;
    }
    VLOOP(l) {
        double d = f16 ? h2d(hi ? s[l] >> 16 : s[l] & 0xffff) : (double)f32(s[l]);
        d = ab ? fabs(d) : d;
        r[l] = ng ? -d : d;
    }
}
static double clamp01(double v) { return v != v ? 0.0 : v < 0 ? 0.0 : v > 1 ? 1.0 : v; }
/* clamp01 on float bits: NaNs and negatives (not -0) give +0, above 1.0 (+inf too) 1.0. */
static inline __attribute__((always_inline)) u32 clamp01_f32(u32 x) {
    return msel(nan32m(x) | (0u - (u32)(x > 0x80000000u)), 0,
                msel(0u - (u32)(x - 0x3f800001u < 0x40000000u), 0x3f800000u, x));
}
/* The f32 form: the inputs are exact floats; a NaN input gives S1's NaN, else S0's, else S2's
 * (the order the libm fmaf call gave them). */
static inline __attribute__((always_inline)) void fma_mix_f32(wave *w, const xinst *x) {
    double a[LANES], b[LANES], c[LANES];
    u32 d[LANES];
    mix_src(w, x, 0, a);
    mix_src(w, x, 1, b);
    mix_src(w, x, 2, c);
    u32 cl = 0u - (u32)x->in.f.v.clamp;
    VLOOP(l) {
        float af = (float)a[l], bf = (float)b[l], cf = (float)c[l];
        u32 r = bf32(hw_fma(af, bf, cf)); /* (NaNs: valu.h's rule) */
        d[l] = msel(cl, clamp01_f32(r), r);
    }
    vd32(w, x, d, FK_RAW);
}
/* The f16 forms (hi: the result goes to the high half, the other half is kept).  NaN inputs:
 * as fma16f's.  The clamp is clamp01 then d2h on the f16 result, by the
 * bits: -0 stays -0 (it is not below 0), NaNs and negatives give +0, above 1.0 gives 1.0. */
static inline __attribute__((always_inline)) void fma_mix16(wave *w, const xinst *x, int hi) {
    double a[LANES], b[LANES], c[LANES];
    u32 d[LANES];
    mix_src(w, x, 0, a);
    mix_src(w, x, 1, b);
    mix_src(w, x, 2, c);
    const u32 *D = vdreg(w, &x->in.dst[0]);
    u32 cl = 0u - (u32)x->in.f.v.clamp;
    VLOOP(l) {
        u32 h = fma16d(a[l], b[l], c[l]);
        u32 hc = vsel((u32)(h == 0x8000u), h, clamp_h(h));
        h = msel(cl, hc, h);
        d[l] = hi ? (D[l] & 0xffff) | h << 16 : (D[l] & 0xffff0000u) | h;
    }
    vd32(w, x, d, FK_RAW);
}
VFN static void v_fma_mix_f32(wave *w, const xinst *x) { fma_mix_f32(w, x); }
VFN static void v_fma_mixlo_f16(wave *w, const xinst *x) { fma_mix16(w, x, 0); }
VFN static void v_fma_mixhi_f16(wave *w, const xinst *x) { fma_mix16(w, x, 1); }

/* ---- dot products ---------------------------------------------------------------------------- */

/* D.f32 = S0.lo * S1.lo + S0.hi * S1.hi + S2.f32, the halves f16 or (bf) bf16.  The products
 * are exact in double; their sum rounds to double, then once to f32: the sum plus S2 is rounded
 * to odd in double (fma_odd(1.0, s, c) in valu.c, inline here) and that to f32.  The C forms
 * (VOP2) accumulate into D instead of S2. */
static inline __attribute__((always_inline)) double bf2d(u32 h) {
    return (double)f32((h & 0xffff) << 16);
}
/* h: 16 bits */
static inline __attribute__((always_inline)) double half2d(u32 h, int bf) {
    return bf ? bf2d(h) : (double)h2f(h);
}
static inline __attribute__((always_inline)) u64 nan64m(u64 x) {
    return 0 - (u64)((x & 0x7fffffffffffffffull) > 0x7ff0000000000000ull);
}
static inline __attribute__((always_inline)) u64 msel64(u64 m, u64 a, u64 b) {
    return (a & m) | (b & ~m);
}
/* s + c rounded to odd in double, as fma_odd(1.0, s, c) gives it, branch-free: TwoSum's error
 * e is exact (s and c are far from double's overflow and underflow here), and an inexact sum
 * with an even last bit steps one unit toward e (+1 on the bits away from zero, -1 toward it).
 * Infinities and NaNs are left as the sum made them.  With 64-bit masks only, a lane loop of it
 * vectorizes 8 doubles wide under AVX-512. */
static inline __attribute__((always_inline)) double add_odd(double s, double c) {
    double t = s + c, bp = t - c, e = (s - bp) + (c - (t - bp));
    u64 tb = bf64(t), eb = bf64(e);
    u64 fix = (0 - (u64)((eb << 1) != 0)) & ((tb & 1) - 1) &
              (0 - (u64)((tb & 0x7ff0000000000000ull) != 0x7ff0000000000000ull));
    u64 away = (((eb ^ tb) >> 63) & 1) - 1; /* e has t's sign */
    return f64(tb + (fix & ((away & 2) - 1)));
}
/* One lane: al*bl + ah*bh + c, the halves as doubles.  NaN inputs (see fma_nan) in the order
 * the scalar code had: S0.lo, S1.lo, S0.hi, S1.hi, then the accumulator. */
static inline __attribute__((always_inline)) double dot2_lane(double al, double ah, double bl,
                                                              double bh, double c) {
    double pa = al * bl, pb = ah * bh, s = pa + pb, t = add_odd(s, c);
    u64 PA = bf64(pa), PB = bf64(pb), S = bf64(s), C = bf64(c);
    u64 na = msel64(nan64m(bf64(al)), bf64(al), msel64(nan64m(bf64(bl)), bf64(bl), PA));
    u64 nb = msel64(nan64m(bf64(ah)), bf64(ah), msel64(nan64m(bf64(bh)), bf64(bh), PB));
    u64 ns = msel64(nan64m(PA), na, msel64(nan64m(PB), nb, S));
    return f64(msel64(nan64m(S), ns, msel64(nan64m(C), C, bf64(t))));
}
static inline __attribute__((always_inline)) void dot2_f32(wave *w, const xinst *x, int bf) {
    u32 al[LANES], ah[LANES], bl[LANES], bh[LANES], t2[LANES], d[LANES];
    pk_src16_(w, x, 0, al, ah, 2);
    pk_src16_(w, x, 1, bl, bh, 2);
    const u32 *C = vs32(w, x, 2, t2, FK_RAW);
    VLOOP(l) {
        double r = dot2_lane(half2d(al[l], bf), half2d(ah[l], bf), half2d(bl[l], bf),
                             half2d(bh[l], bf), f32(C[l]));
        d[l] = bf32((float)r);
    }
    vd32(w, x, d, FK_RAW);
}
static inline __attribute__((always_inline)) void dot2c_f32(wave *w, const xinst *x, int bf) {
    u32 t0[LANES], t1[LANES], d[LANES];
    const u32 *A = vs32(w, x, 0, t0, FK_RAW), *B = vs32(w, x, 1, t1, FK_RAW);
    const u32 *D = vdreg(w, &x->in.dst[0]);
    VLOOP(l) {
        double r = dot2_lane(half2d(A[l] & 0xffff, bf), half2d(A[l] >> 16, bf),
                             half2d(B[l] & 0xffff, bf), half2d(B[l] >> 16, bf), f32(D[l]));
        d[l] = bf32((float)r);
    }
    vd32(w, x, d, FK_RAW);
}
VFN static void v_dot2_f32_f16(wave *w, const xinst *x) { dot2_f32(w, x, 0); }
VFN static void v_dot2c_f32_f16(wave *w, const xinst *x) { dot2c_f32(w, x, 0); }
VFN static void v_dot2_f32_bf16(wave *w, const xinst *x) { dot2_f32(w, x, 1); }
VFN static void v_dot2c_f32_bf16(wave *w, const xinst *x) { dot2c_f32(w, x, 1); }

/* ---- packed f32 (gfx940+): 64-bit operands holding two f32 --------------------------------- */

/* An inline constant feeding a packed-f32 operand is the splat of its 32-bit f32 value (as for
 * packed 16-bit operands: LLVM encodes splat(1.0) as the inline 1.0 with op_sel_hi set); exec.c
 * resolved the float ones as f64 (64-bit operand), so narrow them back.  pk_scalar() gives a
 * source that is no register pair as the 64-bit value its two dwords are picked from. */
static inline __attribute__((always_inline)) u64 pk_scalar(const wave *w, const xinst *x, int i) {
    const isa_opnd *o = &x->in.src[i];
    if (o->kind == ISA_OPND_INLINE || o->kind == ISA_OPND_LITERAL) {
        u32 k = o->kind == ISA_OPND_INLINE && o->idx >= 240 ? bf32((float)f64(x->k[i]))
                : o->kind == ISA_OPND_LITERAL               ? x->in.lit
                                                            : (u32)x->k[i];
        return o->kind == ISA_OPND_INLINE ? k | (u64)k << 32 : k;
    }
    if (o->kind == ISA_OPND_SREG)
        return w->s[o->idx] | (u64)w->s[o->idx + 1] << 32;
    return o->kind == ISA_OPND_SPECIAL ? x_special(w, o->idx, 2) : x->k[i];
}
/* Source i comes back as two lane arrays, the f32 picked by op_sel (*lo) and by op_sel_hi (*hi),
 * with neg/neg_hi applied.  A register pair is stored as two lane arrays already, so without neg
 * the registers themselves are returned (no copy); tl/th (64 values each) hold anything else. */
static inline __attribute__((always_inline)) void
pk_src32(wave *w, const xinst *x, int i, const u32 **lo, const u32 **hi, u32 *tl, u32 *th) {
    const isa_valu_fields *v = &x->in.f.v;
    const isa_opnd *o = &x->in.src[i];
    int sl = (v->opsel >> i) & 1, sh = (v->opsel_hi >> i) & 1;
    u32 nl = ((v->neg >> i) & 1) ? 0x80000000u : 0, nh = ((v->neg_hi >> i) & 1) ? 0x80000000u : 0;
    if (o->kind == ISA_OPND_VGPR || o->kind == ISA_OPND_AGPR) {
        u32(*r)[LANES] = o->kind == ISA_OPND_AGPR ? w->a : w->v;
        const u32 *a = r[o->idx + sl], *b = r[o->idx + sh];
        if (nl) {
            VLOOP(l) tl[l] = a[l] ^ nl;
            a = tl;
        }
        if (nh) {
            VLOOP(l) th[l] = b[l] ^ nh;
            b = th;
        }
        *lo = a;
        *hi = b;
        return;
    }
    u64 s = pk_scalar(w, x, i);
    u32 a = (u32)(sl ? s >> 32 : s) ^ nl, b = (u32)(sh ? s >> 32 : s) ^ nh;
    VLOOP(l) {
        tl[l] = a;
        th[l] = b;
    }
    *lo = tl;
    *hi = th;
}
static inline u32 clamp_f(u32 v, int clamp) { return clamp ? bf32((float)clamp01(f32(v))) : v; }
/* The two halves are computed and written as separate lane arrays (the register pair's own
 * layout), so the loops vectorize and nothing is interleaved into 64-bit values. */
#define PKF32_LOOP(nsrc, expr, cl, outl, outh)                                                     \
    VLOOP(l) {                                                                                     \
        float a = f32(al[l]), b = f32(bl[l]), c = nsrc > 2 ? f32(cl_[l]) : 0;                      \
        float a1 = f32(ah[l]), b1 = f32(bh[l]), c1 = nsrc > 2 ? f32(ch[l]) : 0;                    \
        (void)c;                                                                                   \
        u32 lo = clamp_f(bf32(expr), cl);                                                          \
        a = a1, b = b1, c = c1;                                                                    \
        outl[l] = lo;                                                                              \
        outh[l] = clamp_f(bf32(expr), cl);                                                         \
    }
/* name is the general handler.  name##_pk is its clone for the instructions exec.c's pk_fits()
 * accepts (row PKV): no modifier (op_sel 0, op_sel_hi set for every source, the default),
 * a VGPR-pair destination, sources that are VGPR pairs (the destination or disjoint from it),
 * SGPR pairs or inline constants.  Under full EXEC, without denormal flushing or GPR indexing
 * (which could make a source overlap the destination in part), it computes both halves in one
 * lane loop straight into the destination pair; a scalar or constant source is broadcast once
 * into a local array, as pk_src32() does.  Anything else runs name. */
#define PKF32(name, nsrc, expr)                                                                    \
    VFN static void name(wave *w, const xinst *x) {                                                \
        VMODE;                                                                                     \
        u32 t[6][LANES], dl[LANES], dh[LANES];                                                     \
        const u32 *al, *ah, *bl, *bh, *cl_, *ch;                                                   \
        pk_src32(w, x, 0, &al, &ah, t[0], t[1]);                                                   \
        pk_src32(w, x, 1, &bl, &bh, t[2], t[3]);                                                   \
        cl_ = al, ch = ah;                                                                         \
        if (nsrc > 2)                                                                              \
            pk_src32(w, x, 2, &cl_, &ch, t[4], t[5]);                                              \
        const isa_opnd *o = &x->in.dst[0];                                                         \
        u32(*r)[LANES] = o->kind == ISA_OPND_AGPR ? w->a : w->v;                                   \
        u64 wm = vwmask(w, x);                                                                     \
        if (x->in.f.v.clamp)                                                                       \
            PKF32_LOOP(nsrc, expr, 1, dl, dh)                                                      \
        else                                                                                       \
            PKF32_LOOP(nsrc, expr, 0, dl, dh)                                                      \
        vstore(r[o->idx], dl, wm);                                                                 \
        vstore(r[o->idx + 1], dh, wm);                                                             \
    }                                                                                              \
    enum { name##_pkn = nsrc };                                                                    \
    VFN static void name##_pk(wave *w, const xinst *x) {                                           \
        VMODE;                                                                                     \
        if (!vfull(w, x) || w->gpr_idx_on || fk_flush_in(w->mode, FK_F32) ||                       \
            fk_flush_out(w->mode, FK_F32)) {                                                       \
            name(w, x);                                                                            \
            return;                                                                                \
        }                                                                                          \
        if (nsrc == 2 && x->in.src[0].kind == ISA_OPND_VGPR &&                                     \
            x->in.src[1].kind != ISA_OPND_VGPR) {                                                  \
            /* v_pk_mul_f32 v[10:11], v[4:5], s[0:1]: the scalar pair's two f32 stay in            \
             * registers (a broadcast into arrays was a quarter of the clone's instructions) */    \
            u64 k = pk_scalar(w, x, 1);                                                            \
            const float kl = f32((u32)k), kh = f32((u32)(k >> 32));                                \
            const u32 *al = w->v[x->in.src[0].idx], *ah = w->v[x->in.src[0].idx + 1];              \
            u32 *dl = w->v[x->in.dst[0].idx], *dh = w->v[x->in.dst[0].idx + 1];                    \
            VFOR(x, {                                                                              \
                float a = f32(al[l]), b = kl, c = 0;                                               \
                (void)c;                                                                           \
                u32 lo = bf32(expr);                                                               \
                a = f32(ah[l]), b = kh;                                                            \
                dl[l] = lo;                                                                        \
                dh[l] = bf32(expr);                                                                \
            });                                                                                    \
            return;                                                                                \
        }                                                                                          \
        u32 t[2 * nsrc][LANES];                                                                    \
        const u32 *S[6];                                                                           \
        for (int i = 0; i < nsrc; i++) {                                                           \
            const isa_opnd *o = &x->in.src[i];                                                     \
            if (o->kind == ISA_OPND_VGPR) {                                                        \
                S[2 * i] = w->v[o->idx];                                                           \
                S[2 * i + 1] = w->v[o->idx + 1];                                                   \
                continue;                                                                          \
            }                                                                                      \
            u64 k = pk_scalar(w, x, i);                                                            \
            for (int l = 0; l < LANES; l++) {                                                      \
                t[2 * i][l] = (u32)k;                                                              \
                t[2 * i + 1][l] = (u32)(k >> 32);                                                  \
            }                                                                                      \
            S[2 * i] = t[2 * i], S[2 * i + 1] = t[2 * i + 1];                                      \
        }                                                                                          \
        const u32 *al = S[0], *ah = S[1], *bl = S[2], *bh = S[3];                                  \
        const u32 *cl_ = nsrc > 2 ? S[4] : al, *ch = nsrc > 2 ? S[5] : ah;                         \
        u32 *dl = w->v[x->in.dst[0].idx], *dh = w->v[x->in.dst[0].idx + 1];                        \
        VFOR(x, {                                                                                  \
            float a = f32(al[l]), b = f32(bl[l]), c = nsrc > 2 ? f32(cl_[l]) : 0;                  \
            float a1 = f32(ah[l]), b1 = f32(bh[l]), c1 = nsrc > 2 ? f32(ch[l]) : 0;                \
            (void)c;                                                                               \
            u32 lo = bf32(expr);                                                                   \
            a = a1, b = b1, c = c1;                                                                \
            dl[l] = lo;                                                                            \
            dh[l] = bf32(expr);                                                                    \
        });                                                                                        \
    }
PKF32(v_pk_add_f32, 2, hw_add(a, b))
PKF32(v_pk_mul_f32, 2, hw_mul(a, b))
PKF32(v_pk_fma_f32, 3, hw_fma(a, b, c))

const xhandler x_valu_f16_handlers[] = {
    VH(v_add_f16, v_add_f16, ISA_T_F16),
    VH(v_sub_f16, v_sub_f16, ISA_T_F16),
    VH(v_subrev_f16, v_subrev_f16, ISA_T_F16),
    VH(v_mul_f16, v_mul_f16, ISA_T_F16),
    VH(v_max_f16, v_max_f16, ISA_T_F16),
    VH(v_min_f16, v_min_f16, ISA_T_F16),
    VHV(v_fma_f16, v_fma_f16, ISA_T_F16),
    VHV(v_fma_legacy_f16, v_fma_legacy_f16, ISA_T_F16),
    VH(v_mad_f16, v_mad_f16, ISA_T_F16),
    VH(v_mad_legacy_f16, v_mad_legacy_f16, ISA_T_F16),
    VH(v_madmk_f16, v_madmk_f16, ISA_T_F16),
    VH(v_madak_f16, v_madak_f16, ISA_T_F16),
    VH(v_mac_f16, v_mac_f16, ISA_T_F16),
    VH(v_min3_f16, v_min3_f16, ISA_T_F16),
    VH(v_max3_f16, v_max3_f16, ISA_T_F16),
    VH(v_med3_f16, v_med3_f16, ISA_T_F16),
    VH(v_div_fixup_f16, v_div_fixup_f16, ISA_T_F16),
    VH(v_div_fixup_legacy_f16, v_div_fixup_legacy_f16, ISA_T_F16),
    VH(v_ldexp_f16, v_ldexp_f16, ISA_T_F16),
    VH(v_trunc_f16, v_trunc_f16, ISA_T_F16),
    VH(v_ceil_f16, v_ceil_f16, ISA_T_F16),
    VH(v_floor_f16, v_floor_f16, ISA_T_F16),
    VH(v_rndne_f16, v_rndne_f16, ISA_T_F16),
    VH(v_fract_f16, v_fract_f16, ISA_T_F16),
    VH(v_sqrt_f16, v_sqrt_f16, ISA_T_F16),
    VH(v_rcp_f16, v_rcp_f16, ISA_T_F16),
    VH(v_rsq_f16, v_rsq_f16, ISA_T_F16),
    VH(v_exp_f16, v_exp_f16, ISA_T_F16),
    VH(v_log_f16, v_log_f16, ISA_T_F16),
    VH(v_sin_f16, v_sin_f16, ISA_T_F16),
    VH(v_cos_f16, v_cos_f16, ISA_T_F16),
    VH(v_frexp_mant_f16, v_frexp_mant_f16, ISA_T_F16),
    VH(v_frexp_exp_i16_f16, v_frexp_exp_i16_f16, ISA_T_F16),
    VH(v_pack_b32_f16, v_pack_b32_f16, ISA_T_F16),
    VH(v_pk_add_f16, v_pk_add_f16, ISA_T_V2F16),
    VH(v_pk_mul_f16, v_pk_mul_f16, ISA_T_V2F16),
    VH(v_pk_max_f16, v_pk_max_f16, ISA_T_V2F16),
    VH(v_pk_min_f16, v_pk_min_f16, ISA_T_V2F16),
    VH(v_pk_fma_f16, v_pk_fma_f16, ISA_T_V2F16),
    VH(v_pk_fmac_f16, v_pk_fmac_f16, ISA_T_V2F16),
    VH(v_pk_add_u16, v_pk_add_u16, ISA_T_V2B16),
    VH(v_pk_sub_u16, v_pk_sub_u16, ISA_T_V2B16),
    VH(v_pk_add_i16, v_pk_add_i16, ISA_T_V2B16),
    VH(v_pk_sub_i16, v_pk_sub_i16, ISA_T_V2B16),
    VH(v_pk_mul_lo_u16, v_pk_mul_lo_u16, ISA_T_V2B16),
    VH(v_pk_lshlrev_b16, v_pk_lshlrev_b16, ISA_T_V2B16),
    VH(v_pk_lshrrev_b16, v_pk_lshrrev_b16, ISA_T_V2B16),
    VH(v_pk_ashrrev_i16, v_pk_ashrrev_i16, ISA_T_V2B16),
    VH(v_pk_max_u16, v_pk_max_u16, ISA_T_V2B16),
    VH(v_pk_min_u16, v_pk_min_u16, ISA_T_V2B16),
    VH(v_pk_max_i16, v_pk_max_i16, ISA_T_V2B16),
    VH(v_pk_min_i16, v_pk_min_i16, ISA_T_V2B16),
    VH(v_pk_mad_u16, v_pk_mad_u16, ISA_T_V2B16),
    VH(v_pk_mad_i16, v_pk_mad_i16, ISA_T_V2B16),
    VH(v_pk_maximum3_f16, v_pk_maximum3_f16, ISA_T_V2F16),
    VH(v_pk_minimum3_f16, v_pk_minimum3_f16, ISA_T_V2F16),
    VH(v_fma_mix_f32, v_fma_mix_f32, ISA_T_F32),
    VH(v_fma_mixlo_f16, v_fma_mixlo_f16, ISA_T_F32),
    VH(v_fma_mixhi_f16, v_fma_mixhi_f16, ISA_T_F32),
    VH(v_dot2_f32_f16, v_dot2_f32_f16, ISA_T_V2F16),
    VH(v_dot2c_f32_f16, v_dot2c_f32_f16, ISA_T_V2F16),
    VH(v_dot2_f32_bf16, v_dot2_f32_bf16, ISA_T_V2BF16),
    VH(v_dot2c_f32_bf16, v_dot2c_f32_bf16, ISA_T_V2BF16),
    PKV(v_pk_add_f32, v_pk_add_f32, ISA_T_F32),
    PKV(v_pk_mul_f32, v_pk_mul_f32, ISA_T_F32),
    PKV(v_pk_fma_f32, v_pk_fma_f32, ISA_T_F32),
};
const unsigned x_valu_f16_nhandlers = sizeof x_valu_f16_handlers / sizeof x_valu_f16_handlers[0];
