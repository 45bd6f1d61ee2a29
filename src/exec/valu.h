/* valu.h - the vector-ALU framework shared by src/exec/valu*.c (internal to exec/).
 *
 * A VALU handler has three steps, each a helper below:
 *   1. fetch:  vs32()/vs64() give a lane array per source: a VGPR's own array when the operand
 *      needs no work, otherwise a temporary filled with the broadcast scalar/constant, the DPP
 *      permutation of src0, the SDWA byte/word selection, VOP3 op_sel half selection, the
 *      abs/neg input modifiers and denormal flushing (CDNA3/CDNA4 ISA, "VOP3", "SDWA", "DPP");
 *   2. compute: one loop over all 64 lanes with no EXEC test inside, so the compiler can
 *      vectorize it (inactive lanes compute values nobody stores);
 *   3. write:  vd32()/vd64()/vd16() apply omod/clamp, the SDWA destination rules and the write
 *      mask (EXEC, and the DPP row/bank masks and invalid source lanes), with a full-EXEC fast
 *      path.  Compares and carries write a lane mask with vmask_write().
 * The V2/V3/... macros in the family files wrap the three steps around a per-lane expression,
 * so an op reads like the manual's pseudocode.
 *
 * MODE register (w->mode, the hardware layout): FP_ROUND [3:0], FP_DENORM [7:4] (bits 5:4 f32,
 * 7:6 f64/f16; per pair bit 0 = keep input denormals, bit 1 = keep output denormals), DX10_CLAMP
 * [8], IEEE [9].  clang-22 kernels run with both denormal pairs = 3 (kept), IEEE = 1 and
 * DX10_CLAMP = 1; the dispatcher copies those from rsrc1.  The handlers round to nearest even;
 * a non-zero FP_ROUND [3:0] routes vector instructions through round.c.  NaN results are quiet
 * NaNs; their payload is whatever the host produces (hardware payloads are not modelled).
 *
 * Modelling choices the manual leaves open (tests/exec/test_valu.c pins each one down):
 *   - DPP: a source lane that is out of range or not in EXEC is invalid (gfx9 has no FI bit);
 *     with bound_ctrl it reads 0, otherwise the lane is not written.  row_bcast:15 and :31 have
 *     no source for row 0 (and rows 0-1), which is therefore invalid.
 *   - Lanes not written by a compare or carry read 0 in the result mask.
 *   - 16-bit results clear the high half, except the gfx9 op_sel forms (v_mad/v_fma/
 *     v_div_fixup_f16, v_mad_u16/i16, 16-bit min3/max3/med3), which keep it.
 *   - Packed-math inline constants: VOP3P reads the 32-bit constant (an f16 one zero-extended)
 *     through op_sel/op_sel_hi, as hardware and clang-22 do; v_pk_fmac_f16's VOP2/VOP3 forms
 *     duplicate the low half (valu_f16.c pk_src16).
 *
 * Speed: the lane loops have no branches on EXEC and work on local arrays, so they vectorize;
 * every handler is compiled for the baseline and for x86-64-v3 (VFN below), so on current hosts
 * they run 8 lanes per AVX2 instruction and fmaf is one vfmadd.
 */
#ifndef GFXEMU_VALU_H
#define GFXEMU_VALU_H

#include "exec/exec.h"
#include "isa/fbits.h"

#include <math.h>
#include <string.h>

/* The lane loops are written to be vectorized; GCC 12 only vectorizes cheap loops at -O2, so the
 * VALU files ask for -O3 (clang vectorizes at -O2 already). */
#if defined(__GNUC__) && !defined(__clang__)
#pragma GCC optimize("O3")
#endif
#ifdef __clang__
#pragma STDC FP_CONTRACT OFF /* a*b+c in this code means two roundings */
#endif

/* Handlers are compiled twice: for x86-64-v3 (AVX2 + FMA, chosen at load time when the CPU has
 * it) and for the baseline, so the lane loops run 8 lanes per instruction on current hosts. */
#if defined(__x86_64__) && defined(__linux__) && !defined(GFXEMU_NO_CLONES)
#define VFN __attribute__((target_clones("arch=x86-64-v4", "arch=x86-64-v3", "default")))
#else
#define VFN
#endif

typedef uint8_t u8;
typedef uint16_t u16;
typedef uint32_t u32;
typedef uint64_t u64;
typedef int8_t i8;
typedef int16_t i16;
typedef int32_t i32;
typedef int64_t i64;

/* Operand kinds for fetch/write: which modifiers apply and where the sign bit is. */
enum {
    FK_RAW = 0, /* bits as they are: no abs/neg, no op_sel, no denormal flushing */
    FK_I32,     /* integer: SDWA sext applies, abs/neg do not */
    FK_M32,     /* 32-bit move (v_cndmask): abs/neg on bit 31, no float semantics */
    FK_F32,     /* f32: abs/neg on bit 31, f32 denormal mode, omod/clamp on the result */
    FK_F64,     /* f64: abs/neg on bit 63, f64 denormal mode */
    FK_F16,     /* f16 in bits 15:0 (VOP3 op_sel picks bits 31:16): abs/neg on bit 15 */
    FK_I16,     /* 16-bit integer: VOP3 op_sel selects the half */
    FK_M64,     /* 64-bit with abs/neg on bit 63 but no denormal flushing (v_cmp_class_f64) */
};

#define MODE_IEEE (1u << 9)
#define MODE_DX10_CLAMP (1u << 8)
/* A handler's MODE, read once before its lane loops (IEEE below reads this copy): a result
 * stored into the wave's register file might, as far as GCC knows, change w->mode, so a read of
 * w->mode in the loop body was repeated every lane and kept the loop from vectorizing
 * (v_max_f32's lane loop ran scalar, 400-800 ns a wave-instruction against 5 for v_add_f32). */
#define VMODE                                                                                      \
    const u32 vmode_ = w->mode;                                                                    \
    (void)vmode_

/* ---- small-float formats (f16, bf16) ----------------------------------------------------- */

/* f16 <-> float with integer operations and selects only, so the lane loops vectorize (GCC 12
 * does not vectorize _Float16 conversions, and folds f16 -> float -> double into a library call).
 * h2f is exact: the fields move into place, infinities/NaNs get the float exponent, denormals
 * are renormalized by a float subtraction.  f2h rounds to nearest even: normal results add
 * 0xfff plus the kept lsb below the cut, denormal ones are rounded by adding 0.5 in float (whose
 * spacing there is the f16 denormal step), NaNs stay NaNs (quiet), overflow gives infinity. */
static inline __attribute__((always_inline)) u32 vsel(u32 c, u32 a, u32 b) {
    return (a & -c) | (b & (c - 1));
} /* c ? a : b */
static inline __attribute__((always_inline)) float h2f(u32 h) {
    u32 o = (h & 0x7fffu) << 13, e = o & 0x0f800000u;
    o += 112u << 23;                                      /* rebias 15 -> 127 */
    o += (112u << 23) & -(u32)(e == 0x0f800000u);         /* inf/NaN: exponent 255 */
    u32 dn = bf32(f32(o + (1u << 23)) - f32(113u << 23)); /* denormal: renormalize */
    return f32(vsel(e == 0, dn, o) | (h & 0x8000u) << 16);
}
static inline __attribute__((always_inline)) u32 f2h(float f) {
    u32 x = bf32(f), sign = (x >> 16) & 0x8000u;
    x &= 0x7fffffffu;
    u32 nrm = (x - (112u << 23) + 0xfffu + ((x >> 13) & 1)) >> 13;
    u32 den = bf32(f32(x) + 0.5f) - 0x3f000000u;
    u32 big = vsel(x > 0x7f800000u, 0x7e00u | ((x >> 13) & 0x3ffu), 0x7c00u);
    return vsel(x >= 0x47800000u, big, vsel(x < 0x38800000u, den, nrm)) | sign;
}
/* floor, ceil and trunc from rintf/rint, which vectorize (vroundps/vrndscaleps and the pd
 * forms), where floorf(), floor() and the rest were a call per lane (GCC inlines them only
 * without trapping math: v_floor_f32 50-100 ns a wave-instruction).  rint's integer r is floor(a)
 * or ceil(a) in any rounding direction; one step of 1 (exact: a is not an integer, so below 2^23
 * or 2^52) corrects it, and the result has a's sign (floor(-0.3) = -1, ceil(-0.7) = -0).  A NaN
 * comes out of rint quiet, with its payload.  The f32 forms give floorf/ceilf/truncf's bits (a
 * NaN quieted) for all 2^32 inputs; the f64 forms were compared with floor/ceil/trunc on 10^9
 * random encodings and the edges (checked once, outside the tests). */
#define X_ROUNDERS(T, sfx, rnd, fab, bits, val, sign)                                              \
    static inline __attribute__((always_inline)) T x_with_sign##sfx(T r, T a) {                    \
        return val(bits(r) | (bits(a) & (sign)));                                                  \
    }                                                                                              \
    static inline __attribute__((always_inline)) T x_floor##sfx(T a) {                             \
        T r = rnd(a);                                                                              \
        return x_with_sign##sfx(r > a ? r - (T)1 : r, a);                                          \
    }                                                                                              \
    static inline __attribute__((always_inline)) T x_ceil##sfx(T a) {                              \
        T r = rnd(a);                                                                              \
        return x_with_sign##sfx(r < a ? r + (T)1 : r, a);                                          \
    }                                                                                              \
    static inline __attribute__((always_inline)) T x_trunc##sfx(T a) {                             \
        return x_with_sign##sfx(x_floor##sfx(fab(a)), a);                                          \
    }                                                                                              \
    /* v_fract_*: a - floor(a), kept at most `below1` (the format's largest value below 1) by a    \
     * select, not fmin (a call per lane; the difference is never a NaN there); a NaN gives        \
     * itself, an infinity the default NaN */                                                      \
    static inline __attribute__((always_inline)) T x_fract##sfx(T a, T below1) {                   \
        T d = a - x_floor##sfx(a);                                                                 \
        return a != a ? a : isinf(a) ? (T)NAN : d < below1 ? d : below1;                           \
    }
X_ROUNDERS(float, f, rintf, fabsf, bf32, f32, 0x80000000u)
X_ROUNDERS(double, , rint, fabs, bf64, f64, 0x8000000000000000ull)
#undef X_ROUNDERS
/* Exact value of an f16 (bits 15:0). */
static inline __attribute__((always_inline)) double h2d(u32 h) { return h2f(h); }
/* Round the exact result of an f16 add, subtract, multiply, divide or square root to f16.  Going
 * through float first is harmless: double rounding through a format of at least 2p + 2 bits is
 * innocuous for these operations (p = 11 for f16, float has 24).  Not for fma: see fma16(). */
static inline __attribute__((always_inline)) u32 r16(double v) { return f2h((float)v); }
/* Round a double once to a small IEEE format with ebits exponent and mbits mantissa bits
 * (round-to-nearest-even, overflow to infinity, gradual underflow, NaN quieted). */
u32 d2small(double d, int ebits, int mbits);
static inline u32 d2h(double d) { return d2small(d, 5, 10); }
/* f16 rounded toward zero: RNE, then step back when that rounded away from zero (v_cvt_pkrtz,
 * gfx12's s_cvt_pk_rtz_f16_f32). */
static inline u32 d2h_rtz(double v) {
    u32 r = d2h(v);
    if (v == v && fabs(h2d(r)) > fabs(v))
        r -= 1;
    return r;
}
static inline u32 d2bf(double d) { return d2small(d, 8, 7); }
/* d2bf and d2h_rtz of an f32 value, branch-free for the lane loops (the same bits for every
 * input).  bf16: round the f32 bits at bit 16 to nearest even (a carry into the exponent is
 * the correct next binade or infinity), NaNs quieted with their top payload bits.  f16 toward
 * zero: the f32 bits truncated (normal range), the significand shifted right (denormal
 * range); finite values beyond 65504 give 65504, infinities stay, NaNs as f2h. */
static inline __attribute__((always_inline)) u32 f2bf(float f) {
    u32 x = bf32(f);
    return vsel((x & 0x7fffffffu) > 0x7f800000u, (x >> 16) | 0x40u,
                (x + 0x7fffu + ((x >> 16) & 1)) >> 16);
}
static inline __attribute__((always_inline)) u32 f2h_rtz(float f) {
    u32 x = bf32(f), sign = (x >> 16) & 0x8000u;
    x &= 0x7fffffffu;
    u32 nrm = (x - (112u << 23)) >> 13, sh = 126 - (x >> 23);
    u32 den = ((x & 0x7fffffu) | 0x800000u) >> (sh > 31 ? 31 : sh); /* x < 2^-14: sh >= 14 */
    u32 big = vsel(x > 0x7f800000u, 0x7e00u | ((x >> 13) & 0x3ffu),
                   vsel(x == 0x7f800000u, 0x7c00u, 0x7bffu));
    return vsel(x >= 0x47800000u, big, vsel(x < 0x38800000u, den, nrm)) | sign;
}
/* a*b+c rounded once to f16/bf16: the double result is computed round-to-odd, which makes the
 * second rounding exact. */
double fma_odd(double a, double b, double c);
/* a*b+c (a, b, c f16 or f32 values) rounded once to f16, branch-free so lane loops vectorize:
 * the product is exact in double, TwoSum gives the sum's exact error, the float result is then
 * rounded to odd (24 bits >= 11 + 2), and the final float -> f16 rounding is correct. */
static inline __attribute__((always_inline)) u32 fma16(double a, double b, double c) {
    double p = a * b, s = p + c, bp = s - c;
    double e = (p - bp) + (c - (s - bp));
    float f = (float)s;
    double r = (s - (double)f) + e; /* sign of the exact remainder */
    u32 fb = bf32(f);
    u32 fix = (u32)(r != 0) & ~fb & 1u & (u32)((fb & 0x7f800000u) != 0x7f800000u);
    /* the exact value lies beyond f: step away from 0 (f's sign bit, so that a result that
     * rounded to a zero steps to the smallest denormal of its sign, not to -1's bits) */
    u32 away = (u32)((r > 0) == !(fb >> 31));
    fb = fb + (fix & away) - (fix & ~away);
    /* NaNs by the f32 ops' rule (hw_fma below): a's, b's, inf * 0's default NaN, then c's (which
     * the sum already carries) */
    return a != a ? f2h((float)a) : b != b ? f2h((float)b) : p != p ? 0xfe00u : f2h(f32(fb));
}

/* ---- fetch --------------------------------------------------------------------------------- */

/* MODE.FP_DENORM (bits 7:4): f32 inputs bit 4 and outputs bit 5, f64/f16 inputs bit 6 and
 * outputs bit 7; a clear bit flushes denormals.  out: 0 for inputs, 1 for outputs. */
static inline int fk_flush(u32 mode, int fk, int out) {
    if (fk == FK_F32)
        return !(mode & (0x10u << out));
    if (fk == FK_F64 || fk == FK_F16)
        return !(mode & (0x40u << out));
    return 0;
}
static inline int fk_flush_in(u32 mode, int fk) { return fk_flush(mode, fk, 0); }
static inline int fk_flush_out(u32 mode, int fk) { return fk_flush(mode, fk, 1); }

const u32 *vs32_slow(wave *w, const xinst *x, int i, u32 *tmp, int fk);
const u64 *vs64_slow(wave *w, const xinst *x, int i, u64 *tmp, int fk);

/* Source i as 64 lanes of 32 bits once SDWA, abs/neg/op_sel and input flushing are ruled out
 * (vs32(), and the V1/V2/V3 direct path after vplain()): a VGPR's own lane array, or a scalar
 * or constant broadcast into tmp. */
static inline __attribute__((always_inline)) const u32 *vs32p(wave *w, const xinst *x, int i,
                                                              u32 *tmp, int fk) {
    const isa_opnd *o = &x->in.src[i];
    if (o->kind == ISA_OPND_VGPR)
        return w->v[o->idx];
    /* A scalar or constant 32-bit operand is broadcast here, inline, instead of through
     * vs32_slow's checks (it was 5% of the VALU loop's profile). */
    if (fk <= FK_F32 &&
        (o->kind == ISA_OPND_SREG || o->kind == ISA_OPND_INLINE || o->kind == ISA_OPND_LITERAL)) {
        u32 k = o->kind == ISA_OPND_SREG ? w->s[o->idx] : (u32)x->k[i];
        for (int l = 0; l < LANES; l++)
            tmp[l] = k;
        return tmp;
    }
    return vs32_slow(w, x, i, tmp, fk);
}

/* Source i as 64 lanes of 32 bits.  tmp must hold 64 values. */
static inline __attribute__((always_inline)) const u32 *vs32(wave *w, const xinst *x, int i,
                                                             u32 *tmp, int fk) {
    int mods = fk >= FK_M32 && (((x->in.f.v.abs | x->in.f.v.neg | x->in.f.v.opsel) >> i) & 1);
    if (x->in.variant < ISA_VAR_SDWA && !mods && !fk_flush_in(w->mode, fk))
        return vs32p(w, x, i, tmp, fk);
    return vs32_slow(w, x, i, tmp, fk);
}

/* Source i as 64 lanes of 64 bits (register pairs are stored as two lane arrays, so this
 * always assembles into tmp). */
static inline __attribute__((always_inline)) const u64 *vs64(wave *w, const xinst *x, int i,
                                                             u64 *tmp, int fk) {
    const isa_opnd *o = &x->in.src[i];
    int mods = (fk == FK_F64 || fk == FK_M64) && (((x->in.f.v.abs | x->in.f.v.neg) >> i) & 1);
    if (x->in.variant < ISA_VAR_SDWA && !mods && !fk_flush_in(w->mode, fk)) {
        if (o->kind == ISA_OPND_VGPR) {
            const u32 *lo = w->v[o->idx], *hi = w->v[o->idx + 1];
            for (int l = 0; l < LANES; l++)
                tmp[l] = lo[l] | (u64)hi[l] << 32;
            return tmp;
        }
        /* SGPR pairs and constants (64-bit address arithmetic: s[n:n+1] + v[..]) broadcast
         * inline, as in vs32(). */
        if (o->kind == ISA_OPND_SREG || o->kind == ISA_OPND_INLINE || o->kind == ISA_OPND_LITERAL) {
            u64 k = o->kind == ISA_OPND_SREG ? w->s[o->idx] | (u64)w->s[o->idx + 1] << 32 : x->k[i];
            for (int l = 0; l < LANES; l++)
                tmp[l] = k;
            return tmp;
        }
    }
    return vs64_slow(w, x, i, tmp, fk);
}

/* Every lane of the wave active: all 64, or in an RDNA wave32 program (XI_MASK32) lanes 0-31.
 * A wave32 wave's lanes 32-63 are never active, never read by a memory or cross-lane op, and
 * never seen (rdna.c), so the direct path (VDIRECT) computes lanes 0-31 only. */
static inline __attribute__((always_inline)) int vfull(const wave *w, const xinst *x) {
    u64 e = wave_exec(w);
    return e == ~0ull || (e == 0xffffffffull && (x->xf & XI_MASK32));
}

/* The direct path of the V1/V2/V3 handlers: an instruction without modifiers (x->plain, set
 * by xprog_build), every lane active and no denormal flushing for its operand kind.  Then the
 * sources are the registers themselves (or a broadcast constant), and the result is written
 * straight into the destination.  A destination register is a whole lane array: it is either
 * one of the sources or disjoint from them, and a lane reads its sources before it writes, so
 * the compiler's vector loop (its run-time overlap test passes for both) computes what vd32()'s
 * copy through a temporary did, without that extra pass over 64 lanes. */
static inline __attribute__((always_inline)) int vplain(const wave *w, const xinst *x, int fk) {
    return x->plain && vfull(w, x) && !fk_flush_in(w->mode, fk) && !fk_flush_out(w->mode, fk);
}
/* The clamp bit as an op's expression reads it (valu_int.c CLAMP, valu_f16.c PCLAMP).  The
 * direct path (VDIRECT) and the VV clones only run plain instructions, which have no clamp
 * (valu_plain), and declare v_direct_ = 1: there the test folds to 0 and the lane loop keeps
 * only the wrapping arm.  Left to read the bit, gcc -O2 (no loop unswitching) computed both
 * arms of `CLAMP ? sat_u32((u64)a + b, 0) : a + b` in every lane: a v_add_u32 with a literal
 * took 464 host instructions, against 56 for a plain v_fma_f32 (callgrind, AVX2 clone). */
enum { v_direct_ = 0 };
#define VCLAMP(x) (!v_direct_ && (x)->in.f.v.clamp)

/* A lane loop whose iterations are independent although its arrays may be the same: a
 * destination register's lane array is either one of the source arrays or disjoint from it
 * (registers never overlap in part), and each lane reads its sources before it writes.  Without
 * this, gcc and clang test the overlap at run time before every vectorized loop: under
 * callgrind 20 of a wave32 v_fma_f32's 78 handler instructions (docs/perf.md, session 12). */
#if defined(__clang__)
/* (clang's `vectorize(assume_safety)` also forces vectorization and, under -Werror, fails the
 * build for every loop it cannot vectorize; clang keeps its run-time overlap test) */
#define VINDEP
#elif defined(__GNUC__)
#define VINDEP _Pragma("GCC ivdep")
#else
#define VINDEP
#endif

/* The body for each lane l of the wave: in an RDNA wave32 program (XI_MASK32) lanes 0-31 only,
 * since lanes 32-63 are never active and never read (rdna.c), so a wave32 instruction does half
 * a wave64 one's work; else all 64.  Two loops with constant trip counts, so that each
 * vectorizes without a remainder; the body must touch its own lane only (VINDEP). */
#define VFOR(x, ...)                                                                               \
    do {                                                                                           \
        if ((x)->xf & XI_MASK32) {                                                                 \
            VINDEP for (int l = 0; l < 32; l++) __VA_ARGS__;                                       \
        } else {                                                                                   \
            VINDEP for (int l = 0; l < LANES; l++) __VA_ARGS__;                                    \
        }                                                                                          \
    } while (0)
/* VFOR whose body stores the lane's result in D[l], the destination register. */
#define VDIRECT(...)                                                                               \
    do {                                                                                           \
        enum { v_direct_ = 1 }; /* VCLAMP is 0 here */                                             \
        u32 *D = vdreg(w, &x->in.dst[0]);                                                          \
        VFOR(x, __VA_ARGS__);                                                                      \
    } while (0)

/* VDIRECT for the VV clones, whose destination is a VGPR (exec.c vv_fits, vk_fits, vk1_fits):
 * no AGPR test. */
#define VDIRECT_V(...)                                                                             \
    do {                                                                                           \
        enum { v_direct_ = 1 };                                                                    \
        u32 *D = w->v[x->in.dst[0].idx];                                                           \
        VFOR(x, __VA_ARGS__);                                                                      \
    } while (0)

/* A lane-mask source (carry-in, v_cndmask selector): an SGPR pair, a constant, or VCC when
 * the encoding names none (VOP2 _e32 forms). */
static inline u64 vmask_src(const wave *w, const xinst *x, int i) {
    const isa_opnd *o = &x->in.src[i];
    if (i < x->in.nsrc && o->kind == ISA_OPND_SREG)
        return w->s[o->idx] | (u64)w->s[o->idx + 1] << 32;
    if (i < x->in.nsrc && (o->kind == ISA_OPND_INLINE || o->kind == ISA_OPND_LITERAL))
        return x->k[i];
    if (i < x->in.nsrc && o->kind == ISA_OPND_SPECIAL)
        return x_special(w, o->idx, 2);
    return w->s[ISA_SREG_VCC_LO] | (u64)w->s[ISA_SREG_VCC_HI] << 32;
}

/* Packed 16-bit operands and results (valu_f16.c; round.c uses them too): source i split into
 * its low-lane and high-lane halves (op_sel/op_sel_hi, neg_lo/neg_hi when fl), and the two result
 * halves clamped (fl: float clamp) and written. */
void pk_src16(wave *w, const xinst *x, int i, u32 *lo, u32 *hi, int fl);
void pk_finish(wave *w, const xinst *x, const u32 *lo, const u32 *hi, int fl);

/* ---- write --------------------------------------------------------------------------------- */

/* Lanes written: EXEC, narrowed by DPP row/bank masks and invalid source lanes. */
u64 vdpp_wmask(const wave *w, const xinst *x);
static inline __attribute__((always_inline)) u64 vwmask(const wave *w, const xinst *x) {
    u64 e = wave_exec(w);
    return x->in.variant == ISA_VAR_DPP ? e & vdpp_wmask(w, x) : e;
}

/* VOP3 op_sel bit of the destination (write the high half).  isa.h documents it as bit 3; the
 * decoder currently stores op_sel list positions, where the destination of an op with n sources
 * is bit n: accept both. */
static inline int vop3_dst_hi(const xinst *x) {
    unsigned os = x->in.f.v.opsel;
    if (x->xf & XI_RDNA) /* bit 3 in every RDNA format (rdna.c folds true16 halves there) */
        return (os >> 3) & 1;
    return x->in.fmt == ISA_FMT_VOP3 && ((os >> 3 | os >> (x->in.nsrc & 7)) & 1);
}

static inline u32 *vdreg(wave *w, const isa_opnd *o) {
    return o->kind == ISA_OPND_AGPR ? w->a[o->idx] : w->v[o->idx];
}

/* v_fmac_f16's accumulator per lane (RDNA3 ISA VOP2 V_FMAC_F16, D.f16 = S0 * S1 + D.f16): the
 * destination's half that op_sel's destination bit names (rdna.c folds v5.h there), flushed like
 * a source when MODE flushes f16 input denormals.  rdna_alu.c's handler and round.c's (directed
 * rounding) both read it. */
static inline void fmac16_acc(wave *w, const xinst *x, u32 *c) {
    const u32 *D = vdreg(w, &x->in.dst[0]);
    unsigned sh = vop3_dst_hi(x) ? 16 : 0;
    int ftz = fk_flush_in(w->mode, FK_F16);
    for (unsigned l = 0; l < LANES; l++) {
        u32 v = (D[l] >> sh) & 0xffff;
        c[l] = ftz && !(v & 0x7c00) ? v & 0x8000 : v;
    }
}

/* Masked store of 64 lanes: a plain copy under full EXEC, else a branch-free select per lane
 * (a lane's mask bit widened to a word), which vectorizes in the x86-64-v3 clones; the per-lane
 * branches it replaced mispredicted under divergent EXEC masks (docs/perf.md). */
static inline __attribute__((always_inline)) void vstore(u32 *restrict D, const u32 *restrict d,
                                                         u64 wm) {
    if (wm == ~0ull) {
        memcpy(D, d, LANES * 4);
        return;
    }
    if (wm == 0xffffffffull) { /* a full wave32 wave (and any wave with lanes 0-31 on) */
        memcpy(D, d, 32 * 4);
        return;
    }
    /* lane_bit (exec.h) rather than a shift by the lane number: vd64()/vd32_slow() are also
     * compiled for the baseline. */
    u32 lo = (u32)wm, hi = (u32)(wm >> 32);
    for (int l = 0; l < 32; l++) {
        u32 m = 0u - (u32)((lo & lane_bit[l]) != 0);
        D[l] = (d[l] & m) | (D[l] & ~m);
    }
    for (int l = 0; l < 32; l++) {
        u32 m = 0u - (u32)((hi & lane_bit[l]) != 0);
        D[l + 32] = (d[l + 32] & m) | (D[l + 32] & ~m);
    }
}

/* (clang wants a multiversioned function's declaration to say so before its first use; GCC
 * would then call the clones by name from every unit, which only valu.c defines) */
#ifdef __clang__
VFN
#endif
    void vd32_slow(wave *w, const xinst *x, u32 *d, int fk, u64 wm);
void vd64_slow(wave *w, const xinst *x, u64 *d, int fk);
/* 64-bit result to the register pair dst[0].  Non-f64 results (no omod, clamp or flushing)
 * with every lane written, as the 64-bit address arithmetic of nearly every kernel is (a
 * quarter of an elementwise kernel's time), are split straight into the pair here, inside the
 * handler's own (vector) clone; everything else goes through vd64_slow(). */
static inline __attribute__((always_inline)) void vd64(wave *w, const xinst *x, u64 *d, int fk) {
    const isa_opnd *o = &x->in.dst[0];
    u64 wm = vwmask(w, x);
    if (fk != FK_F64 && (wm == ~0ull || (wm == 0xffffffffull && (x->xf & XI_MASK32)))) {
        u32 *lo = vdreg(w, o), *hi = o->kind == ISA_OPND_AGPR ? w->a[o->idx + 1] : w->v[o->idx + 1];
        VFOR(x, {
            lo[l] = (u32)d[l];
            hi[l] = (u32)(d[l] >> 32);
        });
        return;
    }
    vd64_slow(w, x, d, fk);
}
/* 16-bit result in bits 15:0 of d; preserve: the op keeps the other half of the register
 * (gfx9 v_mad/fma_*16 family), otherwise the high half is written as zero. */
void vd16(wave *w, const xinst *x, u32 *d, int fk, int preserve);

/* 32-bit result to dst[0]. */
static inline __attribute__((always_inline)) void vd32(wave *w, const xinst *x, u32 *d, int fk) {
    const isa_valu_fields *v = &x->in.f.v;
    if (x->in.variant >= ISA_VAR_SDWA || ((v->clamp | v->omod) && fk == FK_F32) ||
        fk_flush_out(w->mode, fk)) {
        vd32_slow(w, x, d, fk, vwmask(w, x));
        return;
    }
    vstore(vdreg(w, &x->in.dst[0]), d, wave_exec(w));
}

/* Write a lane mask to the SGPR pair at encoding idx (125 = null).  Lanes outside wm read 0.
 * A wave32 program's masks are one SGPR (VCC_LO, not VCC_HI: RDNA3 ISA "Wave32 and Wave64"),
 * which xprog_build marks in the instruction (XI_MASK32). */
static inline void vmask_write(wave *w, const xinst *x, unsigned idx, u64 bits) {
    if (idx == 125 || idx >= NSREG - 1)
        return;
    w->s[idx] = (u32)bits;
    if (!(x->xf & XI_MASK32))
        w->s[idx + 1] = (u32)(bits >> 32);
}
/* 64 lane flags (0/1 bytes) to a lane mask: the multiply gathers the low bit of each of 8 bytes
 * into the top byte (every partial product lands on its own bit, so nothing carries). */
static inline u64 vpack(const u8 *c) {
    u64 r = 0;
    for (int g = 0; g < LANES; g += 8) {
        u64 v;
        memcpy(&v, c + g, 8);
        r |= ((v * 0x0102040810204080ull) >> 56) << g;
    }
    return r;
}

/* A lane mask to one 0/1 word per lane (32-bit shifts only, so it vectorizes). */
static inline __attribute__((always_inline)) void vunpack(u64 m, u32 *bit) {
    u32 lo = (u32)m, hi = (u32)(m >> 32);
    for (int l = 0; l < 32; l++)
        bit[l] = (lo >> l) & 1;
    for (int l = 0; l < 32; l++)
        bit[l + 32] = (hi >> l) & 1;
}

/* Destination of a compare result: the SGPR named by the encoding, else VCC. */
static inline unsigned vcmp_dst(const xinst *x) {
    return x->in.ndst >= 1 && x->in.dst[0].kind == ISA_OPND_SREG ? x->in.dst[0].idx
                                                                 : ISA_SREG_VCC_LO;
}
/* Destination of a carry-out: VOP3B sdst (dst[1]), else VCC. */
static inline unsigned vcarry_dst(const xinst *x) {
    return x->in.ndst >= 2 && x->in.dst[1].kind == ISA_OPND_SREG ? x->in.dst[1].idx
                                                                 : ISA_SREG_VCC_LO;
}

/* ---- float helpers ------------------------------------------------------------------------ */

/* v_min/v_max NaN rules (CDNA3 ISA V_MIN_F32): in IEEE mode a signalling NaN input gives a quiet
 * NaN; otherwise a NaN input yields the other operand.  -0 < +0. */
/* One definition for each format (tie: and/or of the bit patterns picks +0 for max, -0 for
 * min; e the exponent field, q the quiet bit), as selects of masks, the rules applied from the
 * last to the first, so that the lane loops vectorize: with a branch per rule v_max_f32 with |v|
 * cost 350 ns a wave-instruction, v_pk_max_f16 1 us, v_max_f64 300 ns. */
#define FMINMAX(name, T, F, val, e, q, cmp, tie)                                                   \
    static inline __attribute__((always_inline)) T name(T a, T b, int ieee) {                      \
        F x = val(a), y = val(b);                                                                  \
        T sa = (T)0 - (T)(((a & ((e) | (q))) == (e)) & ((a & ((q) - 1)) != 0)),                    \
          sb = (T)0 - (T)(((b & ((e) | (q))) == (e)) & ((b & ((q) - 1)) != 0));                    \
        T r = FMM_SEL(T, x cmp y, a, b);                                                           \
        r = FMM_SEL(T, x == y, a tie b, r);                                                        \
        r = FMM_SEL(T, y != y, a, r);                                                              \
        r = FMM_SEL(T, x != x, b, r);                                                              \
        T qn = ((sa & a) | (~sa & b)) | (q);                                                       \
        return FMM_SEL(T, (ieee != 0) & ((sa | sb) != 0), qn, r);                                  \
    }
#define FMM_SEL(T, c, p, r) (((p) & ((T)0 - (T)(c))) | ((r) & ((T)(c) - 1))) /* c ? p : r */
FMINMAX(fmax32, u32, float, f32, 0x7f800000u, 0x400000u, >, &)
FMINMAX(fmin32, u32, float, f32, 0x7f800000u, 0x400000u, <, |)
FMINMAX(fmax64, u64, double, f64, 0x7ff0000000000000ull, 0x8000000000000ull, >, &)
FMINMAX(fmin64, u64, double, f64, 0x7ff0000000000000ull, 0x8000000000000ull, <, |)
FMINMAX(fmax16, u32, float, h2f, 0x7c00u, 0x200u, >, &) /* (h2f is exact) */
FMINMAX(fmin16, u32, float, h2f, 0x7c00u, 0x200u, <, |)
#undef FMINMAX
#undef FMM_SEL

/* An SDWA source select as two shifts: the field (BYTE_0-3: sel 0-3, WORD_0/1: 4-5) to the top,
 * then down to bit 0, arithmetically when sext; DWORD (6 and up) is the value itself.  Uniform
 * shift counts, so the lane loop vectorizes (an attention kernel's v_and_b32_sdwa WORD_1); jit.c's
 * blocks make the same two shifts. */
static inline void sdwa_shifts(unsigned sel, unsigned *up, unsigned *down) {
    unsigned width = sel <= 3 ? 8 : sel <= 5 ? 16 : 32, at = sel <= 3 ? 8 * sel : 16 * (sel - 4);
    *up = width == 32 ? 0 : 32 - at - width;
    *down = 32 - width;
}

/* 2^a for v_exp_f32 (and its legacy and scalar forms), the same bits on every host and in
 * every tier: libm's exp2f differs between C libraries and between glibc's FMA and plain
 * variants, and a loop calling it does not vectorize (it was 15% of a causal attention
 * kernel's time).  2^a = 2^k * 2^r with k = a rounded to an integer (ties to even, by adding
 * and subtracting 1.5 * 2^52), |r| <= 1/2, 2^r by its Taylor series in r ln 2 to degree 9
 * (truncation below 1e-11 relative), all in double, then one rounding to float: correctly
 * rounded but within about 1e-11 of a halfway point (39 in 4 M random inputs, each 1 ULP
 * off), always within 1 ULP of the exact value (the hardware unit's accuracy;
 * tests/kernels/test_math.c).  2^k is made from its exponent bits (k + 1023 << 52); |a| above
 * 160 (infinities, NaNs) is taken as +-160, whose result rounds to inf or 0 in the final
 * conversion, and a NaN gives itself quieted.  The selects are integer masks and the floating
 * point is only adds, multiplies and conversions, all done for every input: a loop of this
 * vectorizes, and with ISO C's -ffp-contract=off the scalar and vector forms compute the same
 * bits. */
static inline float exp2_f32(float a) {
    uint32_t ab, ub;
    memcpy(&ab, &a, 4);
    uint32_t mag = ab & 0x7fffffffu, mb = 0u - (uint32_t)(mag > 0x43200000u); /* |a| > 160 */
    uint32_t mn = 0u - (uint32_t)(mag > 0x7f800000u);                         /* NaN */
    uint32_t cb = (mb & ((ab & 0x80000000u) | 0x43200000u)) | (~mb & ab);
    float c;
    memcpy(&c, &cb, 4);
    double x = c, kb = x + 0x1.8p52, k = kb - 0x1.8p52, r = (x - k) * 0x1.62e42fefa39efp-1;
    double p = 1.0 / 362880;
    p = fma(p, r, 1.0 / 40320);
    p = fma(p, r, 1.0 / 5040);
    p = fma(p, r, 1.0 / 720);
    p = fma(p, r, 1.0 / 120);
    p = fma(p, r, 1.0 / 24);
    p = fma(p, r, 1.0 / 6);
    p = fma(p, r, 0.5);
    p = fma(p, r, 1.0);
    p = fma(p, r, 1.0);
    uint64_t kbits;
    double sc;
    memcpy(&kbits, &kb, 8); /* k in the low bits */
    kbits = (kbits + 1023) << 52;
    memcpy(&sc, &kbits, 8);
    float y = (float)(p * sc);
    memcpy(&ub, &y, 4);
    ub = (mn & (ab | 0x400000u)) | (~mn & ub);
    memcpy(&y, &ub, 4);
    return y;
}

/* log2 a for v_log_f32 (and its legacy and scalar forms), the same bits on every host and in
 * every tier, in place of libm's log2f (a call per lane, 5 ns a lane here, which varies between
 * C libraries; glibc's is within 0.502 ULP, not correctly rounded: it missed 87054 of the 8 M
 * floats in [0.5, 1)).  a = 2^e m exactly in double (float denormals are double normals), m in
 * [sqrt(1/2), sqrt(2)); log2 m = (2 / ln 2) artanh t, t = (m - 1) / (m + 1), |t| <= 0.172, by
 * its series to t^21 (truncation below 1e-17 relative); then e added and one rounding to float.
 * Exhaustively, every positive finite float gives the float log2l() of it rounds to
 * (docs/perf.md, session 24).  Zeros give -inf, +inf itself, negative inputs (-inf too) the
 * default NaN with its sign set (0xffc00000), NaNs themselves quieted: log2f's bits.  Integer
 * masks and fma()/adds/multiplies/one divide for every input, as exp2_f32. */
static inline float log2_f32(float a) {
    uint32_t ab, yb;
    memcpy(&ab, &a, 4);
    double d = a, m, big_m, y2;
    uint64_t db, mb, bigb;
    memcpy(&db, &d, 8);
    int64_t e = (int64_t)((db >> 52) & 0x7ff) - 1023;
    mb = (db & 0xfffffffffffffull) | 0x3ff0000000000000ull; /* m in [1, 2) */
    memcpy(&m, &mb, 8);
    uint64_t big = 0 - (uint64_t)(m > 0x1.6a09e667f3bcdp0); /* m > sqrt(2): m / 2, e + 1 */
    big_m = m * 0.5;
    memcpy(&bigb, &big_m, 8);
    mb = (bigb & big) | (mb & ~big);
    memcpy(&m, &mb, 8);
    e += (int64_t)(big & 1);
    double t = (m - 1.0) / (m + 1.0), z = t * t;
    double p = 1.0 / 21;
    p = fma(p, z, 1.0 / 19);
    p = fma(p, z, 1.0 / 17);
    p = fma(p, z, 1.0 / 15);
    p = fma(p, z, 1.0 / 13);
    p = fma(p, z, 1.0 / 11);
    p = fma(p, z, 1.0 / 9);
    p = fma(p, z, 1.0 / 7);
    p = fma(p, z, 1.0 / 5);
    p = fma(p, z, 1.0 / 3);
    double s = t * 0x1.71547652b82fep1; /* 2 / ln 2 */
    y2 = (double)e + fma(s * z, p, s);
    float y = (float)y2;
    memcpy(&yb, &y, 4);
    uint32_t mag = ab & 0x7fffffffu;
    uint32_t nan = 0u - (uint32_t)(mag > 0x7f800000u), zero = 0u - (uint32_t)(mag == 0);
    uint32_t neg = 0u - (uint32_t)(ab > 0x80000000u), inf = 0u - (uint32_t)(ab == 0x7f800000u);
    yb = (yb & ~(zero | neg | inf)) | (zero & 0xff800000u) | (inf & 0x7f800000u) |
         (neg & 0xffc00000u);
    yb = (nan & (ab | 0x400000u)) | (~nan & yb);
    memcpy(&y, &yb, 4);
    return y;
}

/* Single-rounding f32 fma: one instruction in the x86-64-v3 clones, a libm call otherwise. */
static inline float fma32(float a, float b, float c) { return fmaf(a, b, c); }

/* The NaN results of the f32 add, subtract, multiply and multiply-add (docs/architecture.md,
 * "NaN results"; measured on RDNA hardware): the first NaN operand in source order, its sign and
 * payload kept and the quiet bit set; a subtraction negates S1 first; a multiply-add whose
 * product is inf * 0 gives the default NaN 0xffc00000 even with a NaN addend.  x86's SSE/AVX
 * arithmetic returns a lone NaN operand that way too, and the same default NaN for an invalid
 * operation, so only the order of two NaNs needs fixing: `a + b` returns whichever NaN the
 * instruction gcc chose names first, and the handlers' paths (and the tiers) disagreed.  The
 * tests (a != a) vectorize as compares and blends. */
static inline float nan_first(float a, float r) { return a != a ? f32(bf32(a) | 0x400000u) : r; }
static inline float hw_add(float a, float b) { return nan_first(a, a + b); }
/* (not a + -b: gcc folds that into a - b, whose lone NaN b keeps its sign) */
static inline float hw_sub(float a, float b) {
    return nan_first(a, b != b ? f32((bf32(b) | 0x400000u) ^ 0x80000000u) : a - b);
}
static inline float hw_mul(float a, float b) { return nan_first(a, a * b); }
static inline float hw_fma(float a, float b, float c) {
    float r = fma32(a, b, c), p = a * b; /* p is a NaN: a or b is one, or inf * 0 */
    return nan_first(a, nan_first(b, c != c && p != p ? f32(0xffc00000u) : r));
}
/* The same rule for f64 (not measured: the f32 one carried over), with the default NaN
 * 0xfff8000000000000 (an f64 subtraction is an add with S1 negated by its modifier), written
 * out for both operands: r is the result the caller computed (the host's, or round.c's
 * round-to-odd one, for f16 results too), used where no operand is a NaN. */
static inline double nan_first64(double a, double r) {
    return a != a ? f64(bf64(a) | 0x8000000000000ull) : r;
}
static inline double nan_add64(double a, double b, double r) {
    return nan_first64(a, nan_first64(b, r));
}
static inline double nan_fma64(double a, double b, double c, double r) {
    double p = a * b; /* a NaN: a or b is one, or inf * 0 */
    return nan_add64(a, b, p != p ? f64(0xfff8000000000000ull) : nan_first64(c, r));
}
static inline double hw_fma64(double a, double b, double c) {
    return nan_fma64(a, b, c, fma(a, b, c));
}

/* ---- handler-table helpers ----------------------------------------------------------------- */

#define VH(op, fn, type) XROW(op, type, fn)
/* The row of a handler written with V1/V2/V3, which also has its plain-VGPR clone (VV below). */
#define VHV(op, fn, type) {ISA_OPL_##op, type, fn, fn##_vv, fn##_vvn, fn##_vk, fn##_vk1}
/* The row of an op whose plain form is another V1/V2/V3 handler `like` with the same sources:
 * its instructions that fit `like`'s clones (xprog_build's vv_fits/vk_fits) run those. */
#define VHC(op, fn, type, like)                                                                    \
    {ISA_OPL_##op, type, fn, like##_vv, like##_vvn, like##_vk, like##_vk1}
/* The row of a packed-f32 op (valu_f16.c PKF32) with its clone fn##_pk, which xprog_build installs
 * for the instructions pk_fits() accepts. */
#define PKV(op, fn, type) {ISA_OPL_##op, type, fn, fn##_pk, XV_PK | fn##_pkn, NULL, NULL}

/* ---- lane-loop macros ------------------------------------------------------------------------
 * Inside EXPR: a, b, c are the lane's source values (u32 bits), l the lane number; helpers
 * f32()/bf32() convert.  D32_* store a 32-bit result. */
#define VLOOP(n) for (int l = 0; l < LANES; l++)

/* name##_vv, the plain-VGPR clone of a V1/V2/V3 handler, which xprog_build() installs (rows
 * written with VHV) for an instruction without modifiers whose nsrc (name##_vvn) sources and
 * destination are all VGPRs: the direct path alone, the lane arrays found from the register
 * numbers, in a function without the general path's temporaries and operand decoding.  A VALU
 * op's own cost was mostly that set-up (a wave32 v_fma_f32: 96 host instructions, 16 of them
 * lane work; the clone takes 43; docs/perf.md).  Under a partial EXEC or denormal flushing it
 * runs the full handler.  As in VDIRECT, a wave32 program's instructions do lanes 0-31 only.
 * (Constant and SGPR sources stay with the full handler: a clone that also took them, through
 * a zero array ORed with the value, measured slower on every op.)
 * name##_vk is the same for an instruction whose src0 is an SGPR or a 32-bit constant and whose
 * other sources are VGPRs (exec.c vk_fits: every VOP1/VOP2 e32 form with a scalar src0, such as
 * v_add_u32_e32 v5, 0x3c6ef35f, v5): src0 is broadcast once into a local array.  Under
 * callgrind (AVX2 clone) that v_add_u32 took 94 host instructions through the full handler's
 * direct path and 36 here.
 * name##_vk1 is the same with the scalar or constant in src1 (exec.c vk1_fits), as VOP3 forms
 * have it: v_lshl_add_u32 v3, v2, 3, v3; v_and_or_b32 v4, v5, s3, v4; v_mul_lo_u32 v5, v2, s1. */
#define VV(name, fk, nsrc, ...)                                                                    \
    enum { name##_vvn = nsrc };                                                                    \
    VFN static void name##_vv(wave *w, const xinst *x);                                            \
    /* a clone only a VHV row installs; clang refuses `unused` on target_clones functions */       \
    __attribute__((unused)) static void (*const name##_vvp)(wave *, const xinst *) = name##_vv;    \
    VFN static void name##_vv(wave *w, const xinst *x) {                                           \
        VMODE;                                                                                     \
        if (!vfull(w, x) || fk_flush_in(w->mode, fk) || fk_flush_out(w->mode, fk)) {               \
            name(w, x);                                                                            \
            return;                                                                                \
        }                                                                                          \
        const isa_opnd *s = x->in.src;                                                             \
        const u32 *A = w->v[s[0].idx], *B = w->v[s[nsrc > 1].idx];                                 \
        const u32 *C = w->v[s[nsrc > 2 ? 2 : 0].idx];                                              \
        (void)B, (void)C;                                                                          \
        VDIRECT_V({ __VA_ARGS__; });                                                               \
    }                                                                                              \
    VFN static void name##_vk(wave *w, const xinst *x);                                            \
    __attribute__((unused)) static void (*const name##_vkp)(wave *, const xinst *) = name##_vk;    \
    VFN static void name##_vk(wave *w, const xinst *x) {                                           \
        VMODE;                                                                                     \
        if (fk > FK_F32 || !vfull(w, x) || fk_flush_in(w->mode, fk) ||                             \
            fk_flush_out(w->mode, fk)) {                                                           \
            name(w, x);                                                                            \
            return;                                                                                \
        }                                                                                          \
        const isa_opnd *s = x->in.src;                                                             \
        const u32 k = s[0].kind == ISA_OPND_SREG ? w->s[s[0].idx] : (u32)x->k[0];                  \
        u32 A[LANES];                                                                              \
        for (int l = 0; l < LANES; l++)                                                            \
            A[l] = k;                                                                              \
        const u32 *B = w->v[s[nsrc > 1].idx], *C = w->v[s[nsrc > 2 ? 2 : 0].idx];                  \
        (void)B, (void)C;                                                                          \
        VDIRECT_V({ __VA_ARGS__; });                                                               \
    }                                                                                              \
    VFN static void name##_vk1(wave *w, const xinst *x);                                           \
    __attribute__((unused)) static void (*const name##_vk1p)(wave *, const xinst *) = name##_vk1;  \
    VFN static void name##_vk1(wave *w, const xinst *x) {                                          \
        VMODE;                                                                                     \
        if (nsrc < 2 || fk > FK_F32 || !vfull(w, x) || fk_flush_in(w->mode, fk) ||                 \
            fk_flush_out(w->mode, fk)) {                                                           \
            name(w, x);                                                                            \
            return;                                                                                \
        }                                                                                          \
        const isa_opnd *s = x->in.src;                                                             \
        const u32 k = s[1].kind == ISA_OPND_SREG ? w->s[s[1].idx] : (u32)x->k[1];                  \
        u32 B[LANES];                                                                              \
        for (int l = 0; l < LANES; l++)                                                            \
            B[l] = k;                                                                              \
        const u32 *A = w->v[s[0].idx], *C = w->v[s[nsrc > 2 ? 2 : 0].idx];                         \
        (void)B, (void)C;                                                                          \
        VDIRECT_V({ __VA_ARGS__; });                                                               \
    }

/* D = expr(a) with 1 source of kind fk; V1T/V2T: a result of another kind fko (a float-to-integer
 * or packed-16-bit result is not flushed, scaled or clamped as an f32) */
#define V1T(name, fk, fko, expr)                                                                   \
    VFN static void name(wave *w, const xinst *x) {                                                \
        VMODE;                                                                                     \
        u32 t0[LANES], d[LANES];                                                                   \
        if (vplain(w, x, fk)) {                                                                    \
            const u32 *A = vs32p(w, x, 0, t0, fk);                                                 \
            VDIRECT({                                                                              \
                u32 a = A[l];                                                                      \
                D[l] = (u32)(expr);                                                                \
            });                                                                                    \
            return;                                                                                \
        }                                                                                          \
        const u32 *A = vs32(w, x, 0, t0, fk);                                                      \
        VLOOP(l) {                                                                                 \
            u32 a = A[l];                                                                          \
            d[l] = (u32)(expr);                                                                    \
        }                                                                                          \
        vd32(w, x, d, fko);                                                                        \
    }                                                                                              \
    VV(name, fk, 1, u32 a = A[l]; D[l] = (u32)(expr))
#define V1(name, fk, expr) V1T(name, fk, fk, expr)
#define V2T(name, fk, fko, expr)                                                                   \
    VFN static void name(wave *w, const xinst *x) {                                                \
        VMODE;                                                                                     \
        u32 t0[LANES], t1[LANES], d[LANES];                                                        \
        if (vplain(w, x, fk)) {                                                                    \
            const u32 *A = vs32p(w, x, 0, t0, fk), *B = vs32p(w, x, 1, t1, fk);                    \
            VDIRECT({                                                                              \
                u32 a = A[l], b = B[l];                                                            \
                D[l] = (u32)(expr);                                                                \
            });                                                                                    \
            return;                                                                                \
        }                                                                                          \
        const u32 *A = vs32(w, x, 0, t0, fk), *B = vs32(w, x, 1, t1, fk);                          \
        VLOOP(l) {                                                                                 \
            u32 a = A[l], b = B[l];                                                                \
            d[l] = (u32)(expr);                                                                    \
        }                                                                                          \
        vd32(w, x, d, fko);                                                                        \
    }                                                                                              \
    VV(name, fk, 2, u32 a = A[l], b = B[l]; D[l] = (u32)(expr))
#define V2(name, fk, expr) V2T(name, fk, fk, expr)
#define V3(name, fk, expr)                                                                         \
    VFN static void name(wave *w, const xinst *x) {                                                \
        VMODE;                                                                                     \
        u32 t0[LANES], t1[LANES], t2[LANES], d[LANES];                                             \
        if (vplain(w, x, fk)) {                                                                    \
            const u32 *A = vs32p(w, x, 0, t0, fk), *B = vs32p(w, x, 1, t1, fk),                    \
                      *C = vs32p(w, x, 2, t2, fk);                                                 \
            VDIRECT({                                                                              \
                u32 a = A[l], b = B[l], c = C[l];                                                  \
                D[l] = (u32)(expr);                                                                \
            });                                                                                    \
            return;                                                                                \
        }                                                                                          \
        const u32 *A = vs32(w, x, 0, t0, fk), *B = vs32(w, x, 1, t1, fk),                          \
                  *C = vs32(w, x, 2, t2, fk);                                                      \
        VLOOP(l) {                                                                                 \
            u32 a = A[l], b = B[l], c = C[l];                                                      \
            d[l] = (u32)(expr);                                                                    \
        }                                                                                          \
        vd32(w, x, d, fk);                                                                         \
    }                                                                                              \
    VV(name, fk, 3, u32 a = A[l], b = B[l], c = C[l]; D[l] = (u32)(expr))
/* 16-bit forms (the f16 and i16 families): a, b, c are conv(lane bits) of type T, expr the
 * 16-bit result; vd16 writes it, keeping the high half when `preserve` (gfx9 mad forms). */
#define V16OP2(name, fk, T, conv, expr)                                                            \
    VFN static void name(wave *w, const xinst *x) {                                                \
        VMODE;                                                                                     \
        u32 t0[LANES], t1[LANES], d[LANES];                                                        \
        const u32 *A = vs32(w, x, 0, t0, fk), *B = vs32(w, x, 1, t1, fk);                          \
        VLOOP(l) {                                                                                 \
            T a = conv(A[l]), b = conv(B[l]);                                                      \
            (void)a, (void)b;                                                                      \
            d[l] = (u32)(expr);                                                                    \
        }                                                                                          \
        vd16(w, x, d, fk, 0);                                                                      \
    }
#define V16OP3(name, fk, T, conv, expr, preserve)                                                  \
    VFN static void name(wave *w, const xinst *x) {                                                \
        VMODE;                                                                                     \
        u32 t0[LANES], t1[LANES], t2[LANES], d[LANES];                                             \
        const u32 *A = vs32(w, x, 0, t0, fk), *B = vs32(w, x, 1, t1, fk),                          \
                  *C = vs32(w, x, 2, t2, fk);                                                      \
        VLOOP(l) {                                                                                 \
            T a = conv(A[l]), b = conv(B[l]), c = conv(C[l]);                                      \
            (void)a, (void)b, (void)c;                                                             \
            d[l] = (u32)(expr);                                                                    \
        }                                                                                          \
        vd16(w, x, d, fk, preserve);                                                               \
    }
/* f32 forms: a, b, c are floats, expr is a float. */
#define F32OP1(name, expr)                                                                         \
    static inline float vf1_##name(float a) { return (expr); }                                     \
    V1(name, FK_F32, bf32(vf1_##name(f32(a))))
#define F32OP2(name, expr)                                                                         \
    static inline float vf2_##name(float a, float b) { return (expr); }                            \
    V2(name, FK_F32, bf32(vf2_##name(f32(a), f32(b))))
#define F32OP3(name, expr)                                                                         \
    static inline float vf3_##name(float a, float b, float c) { return (expr); }                   \
    V3(name, FK_F32, bf32(vf3_##name(f32(a), f32(b), f32(c))))

/* 64-bit forms: a, b, c are u64 bits. */
#define V64_1(name, fk, expr)                                                                      \
    VFN static void name(wave *w, const xinst *x) {                                                \
        VMODE;                                                                                     \
        u64 t0[LANES];                                                                             \
        const u64 *A = vs64(w, x, 0, t0, fk);                                                      \
        VLOOP(l) {                                                                                 \
            u64 a = A[l];                                                                          \
            t0[l] = (u64)(expr);                                                                   \
        }                                                                                          \
        vd64(w, x, t0, fk);                                                                        \
    }
#define F64OP1(name, expr)                                                                         \
    static inline double vd1_##name(double a) { return (expr); }                                   \
    V64_1(name, FK_F64, bf64(vd1_##name(f64(a))))
#define F64OP2(name, expr)                                                                         \
    static inline double vd2_##name(double a, double b) { return (expr); }                         \
    VFN static void name(wave *w, const xinst *x) {                                                \
        VMODE;                                                                                     \
        u64 t0[LANES], t1[LANES];                                                                  \
        const u64 *A = vs64(w, x, 0, t0, FK_F64), *B = vs64(w, x, 1, t1, FK_F64);                  \
        VLOOP(l) t0[l] = bf64(vd2_##name(f64(A[l]), f64(B[l])));                                   \
        vd64(w, x, t0, FK_F64);                                                                    \
    }

#endif
