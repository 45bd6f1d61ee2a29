/* round.c - vector instructions under a non-default MODE.FP_ROUND (CDNA3/CDNA4 ISA, "MODE"
 * register; the encoding is LLVM's FLOAT_ROUND_MODE too).
 *
 * FP_ROUND = MODE[3:0]: bits 1:0 round f32 results, bits 3:2 f64 and f16 results; each field is
 * 0 nearest-even, 1 toward +inf, 2 toward -inf, 3 toward zero.  While it is 0 (every kernel
 * starts so unless its descriptor says otherwise) nothing here runs: wave_run() takes this path
 * only when MODE[3:0] != 0, the same single test that guards VSKIP and GPR indexing, and the
 * handlers themselves know nothing about rounding.
 *
 * Under a directed mode each vector instruction is classed by its op (the rnd and rf columns of
 * the per-op metadata table, src/isa/gen/opmeta.inc):
 *   EXACT  its result does not depend on the mode (integer ops, moves, compares, min/max,
 *          trunc/floor/rndne, exact conversions, the div_scale/div_fixup steps, ...): run as is,
 *          host in round-to-nearest (v_rndne keeps rounding to nearest even, as it must);
 *   HOST   the handler computes the result with ONE correctly rounded host operation on exact
 *          operands (add, mul, fma, f32/f64 conversions, ...): run it with the host's SSE/x87
 *          rounding set to the same direction (fesetround), so that operation rounds as the GPU
 *          would;
 *   OWN    f16/bf16 results (the handlers round to f16 with bit tricks that assume
 *          nearest-even) and v_div_fmas_f32 (round-to-odd in double): a handler here computes
 *          the exact value, or its round-to-odd double, in the host's default mode and rounds it
 *          to the small format in the directed mode with integer code (round_small());
 *   FAULT  everything else that produces a float: libm-based ops (exp, log, sin, rsq, ...),
 *          ops that round twice on the way (v_mad/v_mac, dot2), conversions whose directed
 *          semantics the manual does not spell out (pknorm, fp8), MFMA and float atomics: they
 *          stop the wave as unimplemented, the message naming the mode.  Never a silent
 *          nearest-even answer.
 *
 * Why the HOST handlers need no -frounding-math: GCC's assumption of the default rounding mode
 * only licenses constant folding and moving FP operations across the mode change.  The handlers
 * live in other translation units and are called through a pointer between fesetround() calls
 * that GCC cannot see through, and they fold nothing rounding-dependent (every operand is a
 * runtime value).  Vectorized code uses the same MXCSR, so the vector and scalar clones round
 * alike; tests/exec/test_round.c checks each HOST op in all four modes against an independent
 * reference (tests/exec/round_ref.c, compiled with -frounding-math).  This file itself does no
 * floating-point arithmetic while the host mode is changed. */
#include "exec/valu.h"

#include <fenv.h>
#include <stdio.h>
#include <string.h>

enum { RK_NONE, RK_EXACT, RK_HOST, RK_OWN, RK_FAULT };
/* Which MODE field rounds the result: F32 = MODE[1:0], F64 = MODE[3:2] (f64 and f16 results),
 * ANY = either (float atomics, MFMA: refused when any field is non-zero). */
enum { RF_F32, RF_F64, RF_ANY };

/* ---- directed rounding to a small format --------------------------------------------------- */

/* Round d to a binary format with ebits exponent and mbits mantissa bits (f16: 5/10, bf16: 8/7,
 * f32: 8/23) in mode m (FP_ROUND encoding).  d must be the exact value or its round-to-odd
 * double: then one rounding here is the correct rounding of the exact value (the odd last bit
 * stands for the discarded sticky bits; 53 >= mbits + 3).  Overflow gives infinity or the
 * largest finite value as the direction says; NaN stays a quiet NaN. */
static u32 round_small(double d, int ebits, int mbits, unsigned m) {
    u64 b = bf64(d);
    int neg = (int)(b >> 63);
    u32 sign = (u32)neg << (ebits + mbits);
    int e = (int)((b >> 52) & 0x7ff);
    u64 f = b & 0xfffffffffffffull;
    u32 emax = (1u << ebits) - 1, inf = sign | emax << mbits;
    if (e == 0x7ff)
        return f ? inf | 1u << (mbits - 1) | (u32)(f >> (52 - mbits)) : inf;
    if (e == 0 && f == 0)
        return sign;
    int bias = (1 << (ebits - 1)) - 1;
    int E = e - 1023 + bias; /* biased exponent in the small format */
    u64 mant = f | 1ull << 52, q;
    int up;
    int shift = 52 - mbits + (E < 1 ? 1 - E : 0);
    if (e == 0 || shift > 60) { /* far below the smallest denormal: only the sticky bit is left */
        q = 0;
        up = m == 1 ? !neg : m == 2 ? neg : 0;
    } else {
        q = mant >> shift;
        u64 rem = mant & ((1ull << shift) - 1), half = 1ull << (shift - 1);
        int inexact = rem != 0;
        up = m == 0   ? rem > half || (rem == half && (q & 1))
             : m == 1 ? inexact && !neg
             : m == 2 ? inexact && neg
                      : 0;
    }
    q += (u64)up;
    if (E < 1) /* denormal; rounding up to the smallest normal encodes correctly */
        return sign | (u32)q;
    if (q >> (mbits + 1)) {
        q >>= 1;
        E++;
    }
    if (E >= (int)emax) { /* overflow: infinity unless the direction points back to zero */
        int to_inf = m == 0 || (m == 1 && !neg) || (m == 2 && neg);
        return to_inf ? inf : sign | (emax - 1) << mbits | ((1u << mbits) - 1);
    }
    return sign | (u32)E << mbits | ((u32)q & ((1u << mbits) - 1));
}
static inline u32 rh(double d, unsigned m) { return round_small(d, 5, 10, m); }

/* The sign of an exact zero sum x + y depends on the mode (IEEE 754 6.3): computed here in the
 * host's nearest mode it is +0 unless both are -0; toward -inf it is -0 unless both are +0. */
static inline double zsum(double s, double x, double y, unsigned m) {
    int both_pos = !signbit(x) && x == 0 && !signbit(y) && y == 0;
    return s == 0 && m == 2 && !both_pos ? -0.0 : s;
}

/* NaN results: valu.h's nan_add64 / nan_fma64 (docs/architecture.md "NaN results"), a
 * subtraction's S1 negated before; round_small() keeps the chosen NaN's sign and payload. */

/* Mode of the field that rounds x's result (OWN handlers: all of them round f16/bf16, MODE[3:2],
 * except v_div_fmas_f32). */
static inline unsigned mode_dp(const wave *w) { return (w->mode >> 2) & 3; }

/* ---- OWN handlers: f16 results ----------------------------------------------------------------
 * Operands come through vs32() and results go out through vd16()/vd32() as in valu_f16.c and
 * valu_cvt.c, so modifiers, SDWA, DPP, op_sel, denormal flushing and the high-half rules are
 * the same; only the rounding differs.  Sums and products of f16 values are exact in double. */

#define RH2(name, expr)                                                                            \
    static void name(wave *w, const xinst *x) {                                                    \
        u32 t0[LANES], t1[LANES], d[LANES];                                                        \
        const u32 *A = vs32(w, x, 0, t0, FK_F16), *B = vs32(w, x, 1, t1, FK_F16);                  \
        unsigned m = mode_dp(w);                                                                   \
        VLOOP(l) {                                                                                 \
            double a = h2d(A[l]), b = h2d(B[l]);                                                   \
            d[l] = rh(expr, m);                                                                    \
        }                                                                                          \
        vd16(w, x, d, FK_F16, 0);                                                                  \
    }
RH2(r_add_f16, zsum(nan_add64(a, b, a + b), a, b, m))
RH2(r_sub_f16, zsum(nan_add64(a, -b, a - b), a, -b, m))
RH2(r_subrev_f16, zsum(nan_add64(b, -a, b - a), b, -a, m))
RH2(r_mul_f16, nan_add64(a, b, a *b))

/* fma: the round-to-odd double of the exact a*b+c (valu.c's fma_odd) rounds once correctly. */
#define RFMA16(name, preserve)                                                                     \
    static void name(wave *w, const xinst *x) {                                                    \
        u32 t0[LANES], t1[LANES], t2[LANES], d[LANES];                                             \
        const u32 *A = vs32(w, x, 0, t0, FK_F16), *B = vs32(w, x, 1, t1, FK_F16),                  \
                  *C = vs32(w, x, 2, t2, FK_F16);                                                  \
        unsigned m = mode_dp(w);                                                                   \
        VLOOP(l) {                                                                                 \
            double a = h2d(A[l]), b = h2d(B[l]), c = h2d(C[l]);                                    \
            d[l] = rh(zsum(nan_fma64(a, b, c, fma_odd(a, b, c)), a * b, c, m), m);                 \
        }                                                                                          \
        vd16(w, x, d, FK_F16, preserve);                                                           \
    }
RFMA16(r_fma_f16, 1)
RFMA16(r_fma_legacy_f16, 0)
/* RDNA's v_fmac_f16 (rdna_alu.c): the same fma, the accumulator the destination half, flushed
 * like the sources when MODE flushes f16 input denormals. */
static void r_fmac_f16(wave *w, const xinst *x) {
    u32 t0[LANES], t1[LANES], cb[LANES], d[LANES];
    const u32 *A = vs32(w, x, 0, t0, FK_F16), *B = vs32(w, x, 1, t1, FK_F16);
    unsigned m = mode_dp(w);
    fmac16_acc(w, x, cb);
    VLOOP(l) {
        double a = h2d(A[l]), b = h2d(B[l]), c = h2d(cb[l]);
        d[l] = rh(zsum(nan_fma64(a, b, c, fma_odd(a, b, c)), a * b, c, m), m);
    }
    vd16(w, x, d, FK_F16, 1);
}

/* Packed f16 (VOP3P): each half as the scalar op, operands and clamp as in valu_f16.c. */
static inline u32 pk_op(int op, u32 a, u32 b, u32 c, unsigned m) {
    double x = h2d(a), y = h2d(b), z = h2d(c);
    switch (op) {
    case 0: return rh(zsum(nan_add64(x, y, x + y), x, y, m), m);
    case 1: return rh(nan_add64(x, y, x * y), m);
    default: return rh(zsum(nan_fma64(x, y, z, fma_odd(x, y, z)), x * y, z, m), m);
    }
}
#define RPK(name, op, nsrc)                                                                        \
    static void name(wave *w, const xinst *x) {                                                    \
        u32 al[LANES], ah[LANES], bl[LANES], bh[LANES], cl[LANES] = {0}, ch[LANES] = {0};          \
        pk_src16(w, x, 0, al, ah, 1);                                                              \
        pk_src16(w, x, 1, bl, bh, 1);                                                              \
        if (nsrc > 2)                                                                              \
            pk_src16(w, x, 2, cl, ch, 1);                                                          \
        unsigned m = mode_dp(w);                                                                   \
        VLOOP(l) {                                                                                 \
            al[l] = pk_op(op, al[l], bl[l], cl[l], m);                                             \
            ah[l] = pk_op(op, ah[l], bh[l], ch[l], m);                                             \
        }                                                                                          \
        pk_finish(w, x, al, ah, 1);                                                                \
    }
RPK(r_pk_add_f16, 0, 2)
RPK(r_pk_mul_f16, 1, 2)
RPK(r_pk_fma_f16, 2, 3)
/* D = S0 * S1 + D, packed (no clamp, as v_pk_fmac_f16 in valu_f16.c). */
static void r_pk_fmac_f16(wave *w, const xinst *x) {
    u32 al[LANES], ah[LANES], bl[LANES], bh[LANES], d[LANES];
    pk_src16(w, x, 0, al, ah, 1);
    pk_src16(w, x, 1, bl, bh, 1);
    const u32 *D = vdreg(w, &x->in.dst[0]);
    unsigned m = mode_dp(w);
    VLOOP(l)
    d[l] = pk_op(2, al[l], bl[l], D[l] & 0xffff, m) | pk_op(2, ah[l], bh[l], D[l] >> 16, m) << 16;
    vd32(w, x, d, FK_RAW);
}

/* D = S0 * 2^S1: exact in double once the exponent is clamped to where nothing changes
 * (f16 values lie within 2^-24 .. 2^16). */
static void r_ldexp_f16(wave *w, const xinst *x) {
    u32 t0[LANES], t1[LANES], d[LANES];
    const u32 *A = vs32(w, x, 0, t0, FK_F16), *B = vs32(w, x, 1, t1, FK_I16);
    unsigned m = mode_dp(w);
    VLOOP(l) {
        int e = (i16)B[l];
        d[l] = rh(ldexp(h2d(A[l]), e < -100 ? -100 : e > 100 ? 100 : e), m);
    }
    vd16(w, x, d, FK_F16, 0);
}

static void r_cvt_f16_f32(wave *w, const xinst *x) {
    u32 t0[LANES], d[LANES];
    const u32 *A = vs32(w, x, 0, t0, FK_F32);
    unsigned m = mode_dp(w);
    VLOOP(l) d[l] = rh((double)f32(A[l]), m);
    vd16(w, x, d, FK_F16, 0);
}
static void r_cvt_f16_u16(wave *w, const xinst *x) {
    u32 t0[LANES], d[LANES];
    const u32 *A = vs32(w, x, 0, t0, FK_I16);
    unsigned m = mode_dp(w);
    VLOOP(l) d[l] = rh((double)(A[l] & 0xffff), m);
    vd16(w, x, d, FK_F16, 0);
}
static void r_cvt_f16_i16(wave *w, const xinst *x) {
    u32 t0[LANES], d[LANES];
    const u32 *A = vs32(w, x, 0, t0, FK_I16);
    unsigned m = mode_dp(w);
    VLOOP(l) d[l] = rh((double)(i16)A[l], m);
    vd16(w, x, d, FK_F16, 0);
}
/* D = {f16(S1), f16(S0)} and the bf16 form (gfx950). */
#define RCVT_PK(name, ebits, mbits)                                                                \
    static void name(wave *w, const xinst *x) {                                                    \
        u32 t0[LANES], t1[LANES], d[LANES];                                                        \
        const u32 *A = vs32(w, x, 0, t0, FK_F32), *B = vs32(w, x, 1, t1, FK_F32);                  \
        unsigned m = mode_dp(w);                                                                   \
        VLOOP(l)                                                                                   \
        d[l] = round_small(f32(A[l]), ebits, mbits, m) | round_small(f32(B[l]), ebits, mbits, m)   \
                                                             << 16;                                \
        vd32(w, x, d, FK_RAW);                                                                     \
    }
RCVT_PK(r_cvt_pk_f16_f32, 5, 10)
RCVT_PK(r_cvt_pk_bf16_f32, 8, 7)

/* v_div_fmas_f32 (valu_f32.c): S0 * S1 + S2, scaled by 2^+-64 in the lanes where VCC is set,
 * rounded once to f32 in MODE[1:0]'s direction: the round-to-odd double of the fma, scaled
 * exactly, rounds correctly. */
static void r_div_fmas_f32(wave *w, const xinst *x) {
    u32 t0[LANES], t1[LANES], t2[LANES], d[LANES];
    const u32 *A = vs32(w, x, 0, t0, FK_F32), *B = vs32(w, x, 1, t1, FK_F32),
              *C = vs32(w, x, 2, t2, FK_F32);
    u64 vcc = w->s[ISA_SREG_VCC_LO] | (u64)w->s[ISA_SREG_VCC_HI] << 32;
    unsigned m = w->mode & 3;
    VLOOP(l) {
        float a = f32(A[l]), b = f32(B[l]), c = f32(C[l]);
        double r = zsum(nan_fma64(a, b, c, fma_odd(a, b, c)), (double)a * b, c, m);
        if ((vcc >> l) & 1)
            r = ldexp(r, ((bf32(c) >> 23) & 0xff) > 127 ? 64 : -64);
        d[l] = round_small(r, 8, 23, m);
    }
    vd32(w, x, d, FK_F32);
}

/* ---- the op table -----------------------------------------------------------------------------
 * Kind and field of every op are the rnd and rf columns of the per-op metadata table
 * (src/isa/gen/opmeta.inc; tools/isagen/meta_overlay.py lists the EXACT, HOST and OWN ops with
 * the reasons, and which float ops fault by default).  Here only the OWN ops' handlers. */
#define ISA_META(id, name, fmts, cls, rnd, ...) [ISA_OP_##id] = RK_##rnd,
static const uint8_t kind_of[ISA_NOPS] = {
#include "isa/gen/opmeta.inc"
};
#undef ISA_META
#define ISA_META(id, name, fmts, cls, rnd, rf, ...) [ISA_OP_##id] = RF_##rf,
static const uint8_t field_of[ISA_NOPS] = {
#include "isa/gen/opmeta.inc"
};
#undef ISA_META

#define OWN(op, fn) [ISA_OPL_##op] = fn
static const xfn own_of[ISA_NOPS] = {
    OWN(v_div_fmas_f32, r_div_fmas_f32),
    OWN(v_add_f16, r_add_f16),
    OWN(v_sub_f16, r_sub_f16),
    OWN(v_subrev_f16, r_subrev_f16),
    OWN(v_mul_f16, r_mul_f16),
    OWN(v_fma_f16, r_fma_f16),
    OWN(v_fma_legacy_f16, r_fma_legacy_f16),
    OWN(v_fmac_f16, r_fmac_f16),
    /* RDNA's VOP2 forms with a literal run v_fma_f16's handler (rdna_alu.c AS16): S0 * S1 + S2
     * in the decoder's source order */
    OWN(v_fmaak_f16, r_fma_f16),
    OWN(v_fmamk_f16, r_fma_f16),
    OWN(v_ldexp_f16, r_ldexp_f16),
    OWN(v_pk_add_f16, r_pk_add_f16),
    OWN(v_pk_mul_f16, r_pk_mul_f16),
    OWN(v_pk_fma_f16, r_pk_fma_f16),
    OWN(v_pk_fmac_f16, r_pk_fmac_f16),
    OWN(v_cvt_f16_f32, r_cvt_f16_f32),
    OWN(v_cvt_f16_u16, r_cvt_f16_u16),
    OWN(v_cvt_f16_i16, r_cvt_f16_i16),
    OWN(v_cvt_pk_f16_f32, r_cvt_pk_f16_f32),
    OWN(v_cvt_pk_bf16_f32, r_cvt_pk_bf16_f32),
};

/* Fault notes, by field and mode. */
static const char *const NOTE[2][4] = {
    {NULL, "rounding mode toward +inf (MODE.FP_ROUND[1:0] = 1) is not supported for this op",
     "rounding mode toward -inf (MODE.FP_ROUND[1:0] = 2) is not supported for this op",
     "rounding mode toward zero (MODE.FP_ROUND[1:0] = 3) is not supported for this op"},
    {NULL, "rounding mode toward +inf (MODE.FP_ROUND[3:2] = 1) is not supported for this op",
     "rounding mode toward -inf (MODE.FP_ROUND[3:2] = 2) is not supported for this op",
     "rounding mode toward zero (MODE.FP_ROUND[3:2] = 3) is not supported for this op"},
};

static const int host_mode[4] = {FE_TONEAREST, FE_UPWARD, FE_DOWNWARD, FE_TOWARDZERO};
/* x's handler with the host's rounding in direction m (the HOST ops). */
static void run_host(wave *w, const xinst *x, unsigned m) {
    int old = fegetround();
    fesetround(host_mode[m]);
    x_run_plain(w, x);
    fesetround(old);
}

/* Op's kind under w's MODE (RK_NONE when its field is at nearest-even), and that mode. */
static unsigned kind_now(const wave *w, unsigned op, unsigned *fld, unsigned *m) {
    op = op < ISA_NOPS ? op : 0;
    unsigned k = kind_of[op];
    if (k == RK_NONE || k == RK_EXACT)
        return RK_NONE;
    *fld = field_of[op];
    if (*fld == RF_ANY)
        *fld = w->mode & 3 ? RF_F32 : RF_F64;
    *m = (w->mode >> (*fld == RF_F64 ? 2 : 0)) & 3;
    return *m ? k : RK_NONE;
}

/* An RDNA VOPD pair (x_rdna_vopd: halves h[0], h[1], ordinary VOP1/VOP2 ops): refused when a
 * half is, else run as a whole, under the host's rounding when a half needs it.  Every VOPD op
 * with a float result is an f32 one (MODE[1:0]): EXACT halves (min/max, moves, integer ops) do
 * not see the host mode, so one mode serves both. */
static void run_vopd(wave *w, const xinst *x) {
    const xinst *h = (const xinst *)(uintptr_t)x->k[0];
    unsigned host = 0;
    for (int i = 0; i < 2; i++) {
        unsigned fld = RF_F32, m = 0, k = kind_now(w, h[i].in.op, &fld, &m);
        if (k == RK_FAULT || k == RK_OWN) { /* (no VOPD op has its own handler) */
            wave_fault(w, x, XF_UNIMPLEMENTED);
            w->fault.op = i ? x->in.flags : x->in.op; /* the half's v_dual_* name */
            w->fault.note = NOTE[fld == RF_F64][m];
            return;
        }
        if (k == RK_HOST)
            host = m;
    }
    if (host)
        run_host(w, x, host);
    else
        x_run_plain(w, x);
}

void x_run_rounded(wave *w, const xinst *x) {
    if (x->fn == x_rdna_vopd || x->fn == x_rdna_vopd_rbw) {
        run_vopd(w, x);
        return;
    }
    unsigned op = x->in.op < ISA_NOPS ? x->in.op : 0, fld = RF_F32, m = 0,
             k = kind_now(w, op, &fld, &m);
    if (k == RK_NONE) {
        x_run_plain(w, x);
        return;
    }
    if (k == RK_FAULT) {
        wave_fault(w, x, XF_UNIMPLEMENTED);
        w->fault.note = NOTE[fld == RF_F64][m];
        return;
    }
    if (k == RK_OWN) {
        xinst t = *x; /* the own handler, under GPR indexing too */
        t.fn = own_of[op];
        x_run_plain(w, &t);
        return;
    }
    run_host(w, x, m);
}

/* ---- MODE.FP16_OVFL ----------------------------------------------------------------------------
 * CDNA3 and RDNA3 ISA, MODE register: "FP16_OVFL: If set, an overflowed FP16 result is clamped to
 * +/- MAX_FP16, regardless of round mode, while still preserving true INF values."  The handlers
 * know nothing of it: x_run_moded() sends a VALU op with f16 results here while the bit is set,
 * the op runs as it would (rounded in a directed mode too), and then each f16 half it changed to
 * +-inf becomes +-0x7bff, unless the lane's infinity is a true one: a source of the lane holds an
 * infinity (f32, or f16 in either half), or, for the ops whose result is infinite for a zero
 * source (rcp, rsq, log: -inf, div_fixup: x/0), a zero.  The sources are read as raw register
 * words before the op runs, both halves and the f32 view alike, so a lane is taken as holding a
 * true infinity rather too often than too rarely (then it keeps the infinity, as without the
 * mode); a packed op's result half looks at the source halves its op_sel bits pick.  A DPP source
 * reads other lanes: any infinity (or zero) in it counts for every lane.
 * What stays unhandled: an overflow whose destination half already held the same infinity
 * before (the half did not change), and WMMA results (wmma.c does not apply the mode). */

static uint8_t f16_res[ISA_NOPS]; /* x_f16_result(), 3 = not classified yet */

/* The first type token of an op's name (after the verb) is its result type in LLVM's naming
 * (v_add_f16, v_cvt_f16_f32, v_dot2_f32_f16, v_cvt_pk_f16_f32, v_pk_fma_f16, v_s_rcp_f16). */
static int classify_f16(const char *n) {
    static const char *const types[] = {"f16", "f32", "f64", "bf16", "i16", "u16", "i32", "u32",
                                        "b16", "b32", "b64", "i64",  "u64", "i8",  "u8",  "fp8",
                                        "bf8", "fp4", "fp6", "bf6",  "i4",  "u4",  "f8"};
    if (strncmp(n, "v_", 2) || !strncmp(n, "v_cmp", 5) || strstr(n, "class") ||
        strstr(n, "interp_p10"))
        return 0;
    char buf[64];
    snprintf(buf, sizeof buf, "%s", n + 2);
    for (char *save = NULL, *t = strtok_r(buf, "_", &save); t; t = strtok_r(NULL, "_", &save))
        for (size_t i = 0; i < sizeof types / sizeof types[0]; i++)
            if (!strcmp(t, types[i])) {
                if (i != 0)
                    return 0;
                int zero_inf = strstr(n, "rcp") || strstr(n, "rsq") || strstr(n, "log") ||
                               strstr(n, "div_fixup");
                return zero_inf ? 2 : 1;
            }
    return 0;
}

int x_f16_result(unsigned op) {
    if (op >= ISA_NOPS)
        return 0;
    uint8_t r = __atomic_load_n(&f16_res[op], __ATOMIC_RELAXED);
    if (r == 0) { /* 0 in the zeroed table means "not classified": store class + 1 */
        r = (uint8_t)(classify_f16(isa_op_names[op] ? isa_op_names[op] : "") + 1);
        __atomic_store_n(&f16_res[op], r, __ATOMIC_RELAXED);
    }
    return r - 1;
}

static int f16_inf(u32 h) { return (h & 0x7fff) == 0x7c00; }
/* Lanes whose source word (lane values r, or v for every lane) counts as special for a result
 * half: an infinity in the half `half` of it (a packed op's operand), or with half < 0 in any
 * view of the word (f32, or f16 in either half); with zeros, also a zero in half `zhalf` (the
 * 16-bit operand the op reads) or as an f32. */
static u64 src_special(const u32 *r, u32 v, int half, int zeros, int zhalf, int dpp) {
    u64 m = 0;
    for (int l = 0; l < (r ? LANES : 1); l++) {
        u32 x = r ? r[l] : v;
        int s = half >= 0
                    ? f16_inf(x >> (16 * half) & 0xffff)
                    : (x & 0x7fffffffu) == 0x7f800000u || f16_inf(x & 0xffff) || f16_inf(x >> 16);
        s |= zeros && (!(x >> (16 * zhalf) & 0x7fff) || !(x & 0x7fffffffu));
        m |= (u64)s << l;
    }
    return r ? (m && dpp ? ~0ull : m) : (m ? ~0ull : 0);
}

void x_run_f16_ovfl(wave *w, const xinst *x) {
    const isa_inst *in = &x->in;
    int zeros = x_f16_result(in->op) == 2;
    /* Which lanes hold a true infinity (or zero), from the sources before the op runs, for each
     * result half: a packed op's result half h reads the half of source i its op_sel (h = 0) or
     * op_sel_hi (h = 1) bit picks; any other op's sources count in every view for both. */
    int packed = in->fmt == ISA_FMT_VOP3P && !strncmp(isa_op_names[in->op], "v_pk_", 5);
    u64 special[2] = {0, 0};
    for (unsigned i = 0; i < in->nsrc && i < 3; i++) {
        const isa_opnd *o = &in->src[i];
        const u32 *r = o->kind == ISA_OPND_VGPR   ? w->v[o->idx]
                       : o->kind == ISA_OPND_AGPR ? w->a[o->idx]
                                                  : NULL;
        u32 v = o->kind == ISA_OPND_SREG ? w->s[o->idx < NSREG ? o->idx : 0]
                : o->kind == ISA_OPND_INLINE || o->kind == ISA_OPND_LITERAL ? (u32)x->k[i]
                                                                            : 0;
        int dpp = in->variant == ISA_VAR_DPP;
        for (int h = 0; h < 2; h++) {
            int half = -1, zhalf = (int)((in->f.v.opsel >> i) & 1);
            if (packed && r) /* constants: every view (their halves are the assembler's) */
                zhalf = half = (int)(((h ? in->f.v.opsel_hi : in->f.v.opsel) >> i) & 1);
            special[h] |= src_special(r, v, half, zeros, zhalf, dpp);
        }
    }
    const isa_opnd *d = &in->dst[0];
    int vdst = in->ndst >= 1 && (d->kind == ISA_OPND_VGPR || d->kind == ISA_OPND_AGPR);
    int sdst = in->ndst >= 1 && d->kind == ISA_OPND_SREG && d->idx < NSREG; /* v_s_*_f16 */
    u32 old[LANES];
    u32 *D = vdst   ? (d->kind == ISA_OPND_AGPR ? w->a[d->idx] : w->v[d->idx])
             : sdst ? &w->s[d->idx]
                    : NULL;
    unsigned n = vdst ? LANES : 1;
    if (D)
        memcpy(old, D, n * 4);
    if (w->mode & 15)
        x_run_rounded(w, x);
    else
        x_run_plain(w, x);
    if (!D || w->status == WAVE_FAULT)
        return;
    u64 exec = vdst ? wave_exec(w) : 1;
    for (unsigned l = 0; l < n; l++) {
        if (!((exec >> l) & 1))
            continue;
        for (int h = 0; h < 2; h++) {
            u32 nh = (D[l] >> (16 * h)) & 0xffff;
            if (f16_inf(nh) && nh != ((old[l] >> (16 * h)) & 0xffff) && !((special[h] >> l) & 1))
                D[l] = (D[l] & ~(0xffffu << (16 * h))) | (((nh & 0x8000u) | 0x7bffu) << (16 * h));
        }
    }
}
