/* valu_int.c - integer VALU ops: add/sub with and without carry, 24/32/64-bit multiplies,
 * shifts, bitfield and byte ops, three-operand logic, 16-bit integer ops (CDNA3/CDNA4 ISA,
 * "VOP2", "VOP1", "VOP3A/VOP3B" opcode tables).
 *
 * Conventions: a, b, c are the lane's S0, S1, S2 as u32; CLAMP is the VOP3 clamp bit, which for
 * integer add/sub saturates instead of wrapping. */
#include "exec/valu.h"

#define CLAMP VCLAMP(x)

static inline u32 sat_u32(u64 r, int neg) { return neg ? 0 : r >> 32 ? 0xffffffffu : (u32)r; }
static inline u32 sat_i32(i64 r) {
    return r > INT32_MAX ? (u32)INT32_MAX : r < INT32_MIN ? (u32)INT32_MIN : (u32)r;
}

/* ---- add/sub ------------------------------------------------------------------------------- */

/* gfx9 no-carry forms: D = S0 + S1 (clamp: unsigned saturation). */
V2(v_add_u32, FK_I32, CLAMP ? sat_u32((u64)a + b, 0) : a + b)
V2(v_sub_u32, FK_I32, CLAMP ? sat_u32(a - b, b > a) : a - b)
V2(v_subrev_u32, FK_I32, CLAMP ? sat_u32(b - a, a > b) : b - a)
V2(v_add_i32, FK_I32, CLAMP ? sat_i32((i64)(i32)a + (i32)b) : a + b)
V2(v_sub_i32, FK_I32, CLAMP ? sat_i32((i64)(i32)a - (i32)b) : a - b)

/* Carry forms: r is computed in 64 bits from a, b and the carry-in ci; bit 32 of r is the
 * carry (add) or borrow (sub) out.  The carry mask goes to VCC (_e32) or the VOP3B sdst; lanes
 * not written read 0 in it. */
#define VCARRY(name, expr, sub)                                                                    \
    VFN static void name(wave *w, const xinst *x) {                                                \
        u32 t0[LANES], t1[LANES], d[LANES], cin[LANES];                                            \
        u8 co[LANES];                                                                              \
        vunpack(vmask_src(w, x, 2), cin);                                                          \
        if (vplain(w, x, FK_I32)) { /* the 64-bit address arithmetic: no clamp, every lane on */   \
            const u32 *A = vs32p(w, x, 0, t0, FK_I32), *B = vs32p(w, x, 1, t1, FK_I32);            \
            if (x->xf & XI_MASK32) /* VDIRECT computes lanes 0-31: 32-63 carry nothing */          \
                memset(co + 32, 0, 32);                                                            \
            VDIRECT({                                                                              \
                u64 a = A[l], b = B[l], ci = cin[l];                                               \
                (void)ci;                                                                          \
                u64 r = (expr);                                                                    \
                D[l] = (u32)r;                                                                     \
                co[l] = (u8)((r >> 32) & 1);                                                       \
            });                                                                                    \
            vmask_write(w, x, vcarry_dst(x), vpack(co) & wave_exec(w));                            \
            return;                                                                                \
        }                                                                                          \
        const u32 *A = vs32(w, x, 0, t0, FK_I32), *B = vs32(w, x, 1, t1, FK_I32);                  \
        u32 sat = CLAMP ? (sub ? 0 : 0xffffffffu) : 0, clamp = CLAMP ? 1 : 0;                      \
        VLOOP(l) {                                                                                 \
            u64 a = A[l], b = B[l], ci = cin[l];                                                   \
            (void)ci;                                                                              \
            u64 r = (expr);                                                                        \
            u32 c = (u32)(r >> 32) & 1;                                                            \
            d[l] = vsel(c & clamp, sat, (u32)r);                                                   \
            co[l] = (u8)c;                                                                         \
        }                                                                                          \
        u64 wm = vwmask(w, x);                                                                     \
        vd32(w, x, d, FK_I32);                                                                     \
        vmask_write(w, x, vcarry_dst(x), vpack(co) & wm);                                          \
    }
VCARRY(v_add_co_u32, a + b, 0)
VCARRY(v_sub_co_u32, a - b, 1)
VCARRY(v_subrev_co_u32, b - a, 1)
VCARRY(v_addc_co_u32, a + b + ci, 0)
VCARRY(v_subb_co_u32, a - b - ci, 1)
VCARRY(v_subbrev_co_u32, b - a - ci, 1)

/* ---- multiplies ---------------------------------------------------------------------------- */

static inline i64 i24(u32 v) { return (i64)((i32)(v << 8) >> 8); }
static inline u64 u24(u32 v) { return v & 0xffffff; }
V2(v_mul_i32_i24, FK_I32, (u32)(i24(a) * i24(b)))
V2(v_mul_hi_i32_i24, FK_I32, (u32)((u64)(i24(a) * i24(b)) >> 32))
V2(v_mul_u32_u24, FK_I32, (u32)(u24(a) * u24(b)))
V2(v_mul_hi_u32_u24, FK_I32, (u32)((u24(a) * u24(b)) >> 32))
V3(v_mad_i32_i24, FK_I32, (u32)(i24(a) * i24(b) + (i32)c))
V3(v_mad_u32_u24, FK_I32, (u32)(u24(a) * u24(b) + c))
V2(v_mul_lo_u32, FK_I32, a *b)
V2(v_mul_hi_u32, FK_I32, (u32)(((u64)a * b) >> 32))
V2(v_mul_hi_i32, FK_I32, (u32)((u64)((i64)(i32)a * (i32)b) >> 32))

/* {carry, D.u64} = S0.u32 * S1.u32 + S2.u64 (VOP3B; the carry is bit 64 of the sum). */
VFN static void v_mad_u64_u32_slow(wave *w, const xinst *x) {
    u32 t0[LANES], t1[LANES];
    u64 t2[LANES], d[LANES], co = 0, wm = vwmask(w, x);
    const u32 *A = vs32(w, x, 0, t0, FK_I32), *B = vs32(w, x, 1, t1, FK_I32);
    const u64 *C = vs64(w, x, 2, t2, FK_RAW);
    u8 c[LANES];
    VLOOP(l) {
        /* the product is below 2^64, so the sum carries exactly when it wraps (vectorizes,
         * unlike a 128-bit sum; the carries are packed afterwards) */
        u64 r = (u64)A[l] * B[l] + C[l];
        d[l] = r;
        c[l] = r < C[l];
    }
    co = vpack(c);
    vd64(w, x, d, FK_RAW);
    vmask_write(w, x, vcarry_dst(x), co & wm);
}
/* Signed form: the carry reports that the 64-bit result overflowed. */
VFN static void v_mad_i64_i32(wave *w, const xinst *x) {
    u32 t0[LANES], t1[LANES];
    u64 t2[LANES], d[LANES], co = 0, wm = vwmask(w, x);
    const u32 *A = vs32(w, x, 0, t0, FK_I32), *B = vs32(w, x, 1, t1, FK_I32);
    const u64 *C = vs64(w, x, 2, t2, FK_RAW);
    VLOOP(l) {
        __int128 r = (__int128)((i64)(i32)A[l] * (i32)B[l]) + (i64)C[l];
        d[l] = (u64)r;
        co |= (u64)(r != (i64)r) << l;
    }
    vd64(w, x, d, FK_RAW);
    vmask_write(w, x, vcarry_dst(x), co & wm);
}

/* ---- shifts -------------------------------------------------------------------------------- */

V2(v_lshlrev_b32, FK_I32, b << (a & 31))
V2(v_lshrrev_b32, FK_I32, b >> (a & 31))
V2(v_ashrrev_i32, FK_I32, (u32)((i32)b >> (a & 31)))

/* The 64-bit address arithmetic every kernel does (v_lshlrev_b64, v_lshl_add_u64), computed on
 * the 32-bit halves the register pairs hold when the instruction has no modifiers and every
 * lane is on: no 64-bit lane values are assembled and split again.  Source i's halves are
 * the pair's own rows (VGPRs) or broadcast into tlo/thi. */
static inline __attribute__((always_inline)) void
vs64_halves(wave *w, const xinst *x, int i, u32 *tlo, u32 *thi, const u32 **lo, const u32 **hi) {
    const isa_opnd *o = &x->in.src[i];
    if (o->kind == ISA_OPND_VGPR && o->idx + 1 < NVREG) {
        *lo = w->v[o->idx];
        *hi = w->v[o->idx + 1];
        return;
    }
    if (o->kind == ISA_OPND_SREG || o->kind == ISA_OPND_INLINE || o->kind == ISA_OPND_LITERAL) {
        u64 k = o->kind == ISA_OPND_SREG ? w->s[o->idx] | (u64)w->s[o->idx + 1] << 32 : x->k[i];
        VFOR(x, {
            tlo[l] = (u32)k;
            thi[l] = (u32)(k >> 32);
        });
    } else {
        u64 t[LANES];
        const u64 *v = vs64(w, x, i, t, FK_RAW);
        VLOOP(l) {
            tlo[l] = (u32)v[l];
            thi[l] = (u32)(v[l] >> 32);
        }
    }
    *lo = tlo;
    *hi = thi;
}
/* Source i is the same in every lane (an SGPR or a constant, as the halves path reads it):
 * its value, 32 or 64 bits. */
static inline __attribute__((always_inline)) int v_uniform(const wave *w, const xinst *x, int i,
                                                           int bits64, u64 *k) {
    const isa_opnd *o = &x->in.src[i];
    if (o->kind == ISA_OPND_SREG)
        *k = w->s[o->idx] | (bits64 ? (u64)w->s[o->idx + 1] << 32 : 0);
    else if (o->kind == ISA_OPND_INLINE || o->kind == ISA_OPND_LITERAL)
        *k = bits64 ? x->k[i] : (u32)x->k[i];
    else
        return 0;
    return 1;
}
/* The destination pair's rows. */
static inline __attribute__((always_inline)) void vd64_rows(wave *w, const xinst *x, u32 **lo,
                                                            u32 **hi) {
    const isa_opnd *o = &x->in.dst[0];
    u32(*r)[LANES] = o->kind == ISA_OPND_AGPR ? w->a : w->v;
    *lo = r[o->idx];
    *hi = r[o->idx + 1];
}
/* The lane loop of the halves path: BODY sets dl, dh (lane l's result halves) from lane l of
 * the 64-bit source whose halves are Sl, Sh and of the other sources' rows O1, O2 (the sources
 * that are not registers are temporaries), and each lane depends on its own lane only.  The
 * loops are VFOR's (lanes 0-31 in wave32).  Under gcc, VINDEP tells the vectorizer the lanes are
 * independent; under clang (VINDEP empty) the compiler vectorizes a loop that writes Dl, Dh
 * directly only when its runtime check proves them apart from the sources, which an in-place
 * operation (v[0:1] = v[0:1] << 2) fails: there the loop reads Sl, Sh through Dl, Dh themselves.
 * A destination that overlaps a source pair otherwise (v[1:2] from v[0:1]) goes through
 * temporaries and copies (a wave32 wave's lanes only), which were the whole path before (two
 * 256-byte copies per instruction, a quarter of its time). */
#define V64_LOOP(Sl, Sh, O1, O2, ...)                                                              \
    do {                                                                                           \
        if (Sl == Dl && Sh == Dh) {                                                                \
            Sl = Dl, Sh = Dh;                                                                      \
            VFOR(x, {                                                                              \
                u32 dl, dh;                                                                        \
                __VA_ARGS__;                                                                       \
                Dl[l] = dl, Dh[l] = dh;                                                            \
            });                                                                                    \
        } else if (v64_apart(Dl, Dh, Sl, Sh) && v64_apart(Dl, Dh, O1, O2)) {                       \
            VFOR(x, {                                                                              \
                u32 dl, dh;                                                                        \
                __VA_ARGS__;                                                                       \
                Dl[l] = dl, Dh[l] = dh;                                                            \
            });                                                                                    \
        } else {                                                                                   \
            u32 tl[LANES], th[LANES];                                                              \
            VFOR(x, {                                                                              \
                u32 dl, dh;                                                                        \
                __VA_ARGS__;                                                                       \
                tl[l] = dl, th[l] = dh;                                                            \
            });                                                                                    \
            x_row_copy(Dl, tl, x->xf & XI_MASK32);                                                 \
            x_row_copy(Dh, th, x->xf & XI_MASK32);                                                 \
        }                                                                                          \
    } while (0)
/* Rows d0, d1 are neither row s0 nor s1 (register rows are equal or disjoint). */
static inline int v64_apart(const u32 *d0, const u32 *d1, const u32 *s0, const u32 *s1) {
    return d0 != s0 && d0 != s1 && d1 != s0 && d1 != s1;
}
/* The destination pair written from result halves dlo, dhi: a wave32 program's lanes 0-31 (the
 * lanes VFOR computed), else all 64. */
static inline __attribute__((always_inline)) void vd64_halves(wave *w, const xinst *x,
                                                              const u32 *dlo, const u32 *dhi) {
    u32 *Dl, *Dh;
    vd64_rows(w, x, &Dl, &Dh);
    x_row_copy(Dl, dlo, x->xf & XI_MASK32);
    x_row_copy(Dh, dhi, x->xf & XI_MASK32);
}
/* the halves path applies: plain, full EXEC, a register-pair destination in range */
#define V64_HALVES(x) (vplain(w, x, FK_RAW) && x->in.dst[0].idx + 1 < NVREG)

/* v_mad_u64_u32 on halves: the 32-bit sources and C's halves read in place, a wave32 program's
 * lanes 0-31 only (the i32 loops of clang's kernels run one per multiply). */
VFN static void v_mad_u64_u32(wave *w, const xinst *x) {
    if (!V64_HALVES(x)) {
        v_mad_u64_u32_slow(w, x);
        return;
    }
    u32 t0[LANES], t1[LANES], clo[LANES], chi[LANES], dlo[LANES], dhi[LANES];
    const u32 *A = vs32p(w, x, 0, t0, FK_I32), *B = vs32p(w, x, 1, t1, FK_I32), *Cl, *Ch;
    vs64_halves(w, x, 2, clo, chi, &Cl, &Ch);
    unsigned cd = vcarry_dst(x);
    if (cd == ISA_SREG_NULL) { /* no carry-out to write (RDNA's `null`) */
        /* In 32-bit halves, which vectorize better than 64-bit lanes, and straight into the
         * destination pair: a lane reads all its sources before it writes (VINDEP). */
        u32 *Dl = w->v[x->in.dst[0].idx], *Dh = w->v[x->in.dst[0].idx + 1];
        if (x->in.dst[0].kind == ISA_OPND_AGPR)
            Dl = w->a[x->in.dst[0].idx], Dh = w->a[x->in.dst[0].idx + 1];
        VFOR(x, {
            u32 a = A[l], b = B[l], cl = Cl[l], ch = Ch[l];
            u32 plo = a * b, phi = (u32)(((u64)a * b) >> 32), lo = plo + cl;
            Dl[l] = lo;
            Dh[l] = phi + ch + (lo < plo);
        });
        return;
    } else {
        u8 c[LANES];
        if (x->xf & XI_MASK32)
            memset(c + 32, 0, 32);
        VFOR(x, {
            u64 k = (u64)Ch[l] << 32 | Cl[l], r = (u64)A[l] * B[l] + k;
            dlo[l] = (u32)r;
            dhi[l] = (u32)(r >> 32);
            c[l] = r < k; /* the product is below 2^64: the sum carries exactly when it wraps */
        });
        vmask_write(w, x, cd, vpack(c) & wave_exec(w));
    }
    vd64_halves(w, x, dlo, dhi);
}

/* 64-bit shifts: S0 is the 32-bit shift count, S1 the 64-bit value. */
#define VSHIFT64(name, expr)                                                                       \
    VFN static void name(wave *w, const xinst *x) {                                                \
        u32 t0[LANES];                                                                             \
        u64 t1[LANES];                                                                             \
        const u32 *A = vs32(w, x, 0, t0, FK_I32);                                                  \
        const u64 *B = vs64(w, x, 1, t1, FK_RAW);                                                  \
        u64 d[LANES];                                                                              \
        VLOOP(l) {                                                                                 \
            u32 s = A[l] & 63;                                                                     \
            u64 b = B[l];                                                                          \
            d[l] = (expr);                                                                         \
        }                                                                                          \
        vd64(w, x, d, FK_RAW);                                                                     \
    }
/* v_lshlrev_b64 on halves: s < 32 moves the top s bits of lo into hi, s >= 32 moves lo
 * (shifted by s - 32) into hi and clears lo; (lo >> 1) >> (31 - s) is lo >> (32 - s) without
 * a 32-bit shift when s = 0. */
VSHIFT64(v_lshlrev_b64_slow, b << s)
VFN static void v_lshlrev_b64(wave *w, const xinst *x) {
    if (!V64_HALVES(x)) {
        v_lshlrev_b64_slow(w, x);
        return;
    }
    u32 t0[LANES], tlo[LANES], thi[LANES], *Dl, *Dh;
    const u32 *lo, *hi;
    u64 ks;
    vs64_halves(w, x, 1, tlo, thi, &lo, &hi);
    vd64_rows(w, x, &Dl, &Dh);
    if (v_uniform(w, x, 0, 0, &ks)) { /* one count (an index scaled to bytes): no lane masks */
        unsigned s = (unsigned)ks & 63;
        if (s >= 32)
            V64_LOOP(lo, hi, lo, hi, dl = 0, dh = lo[l] << (s - 32));
        else if (s)
            V64_LOOP(lo, hi, lo, hi, dl = lo[l] << s, dh = hi[l] << s | lo[l] >> (32 - s));
        else
            V64_LOOP(lo, hi, lo, hi, dl = lo[l], dh = hi[l]);
        return;
    }
    const u32 *S = vs32p(w, x, 0, t0, FK_I32);
    V64_LOOP(lo, hi, S, S, {
        u32 s = S[l] & 63, s1 = s & 31, big = 0u - (s >> 5), a = lo[l];
        u32 l2 = a << s1, h2 = (hi[l] << s1) | ((a >> 1) >> (31 - s1));
        dl = l2 & ~big;
        dh = (h2 & ~big) | (l2 & big);
    });
}
VSHIFT64(v_lshrrev_b64, b >> s)
VSHIFT64(v_ashrrev_i64, (u64)((i64)b >> s))

/* D.u64 = (S0.u64 << S1[2:0]) + S2.u64 (gfx940+). */
VFN static void v_lshl_add_u64(wave *w, const xinst *x) {
    if (V64_HALVES(x)) { /* (hi:lo << s) + C, s <= 7, with the carry out of the low half */
        u32 t1[LANES], alo[LANES], ahi[LANES], clo[LANES], chi[LANES], *Dl, *Dh;
        const u32 *Al, *Ah, *Cl, *Ch;
        u64 ka, ks;
        vs64_halves(w, x, 2, clo, chi, &Cl, &Ch);
        vd64_rows(w, x, &Dl, &Dh);
        if (v_uniform(w, x, 0, 1, &ka) && v_uniform(w, x, 1, 0, &ks)) {
            /* a buffer's base in SGPRs plus each lane's offset: one 64-bit add per lane */
            u64 k = ka << (ks & 7);
            u32 klo = (u32)k, khi = (u32)(k >> 32);
            V64_LOOP(Cl, Ch, Cl, Ch, {
                dl = Cl[l] + klo;
                dh = Ch[l] + khi + (dl < klo);
            });
            return;
        }
        const u32 *S = vs32p(w, x, 1, t1, FK_I32);
        vs64_halves(w, x, 0, alo, ahi, &Al, &Ah);
        /* an in-place destination is C's pair (v[4:5] = (v[2:3] << s) + v[4:5]) or A's */
        if (Al == Dl && Ah == Dh) {
            V64_LOOP(Al, Ah, Cl, Ch, {
                u32 s = S[l] & 7, a = Al[l];
                u32 l2 = a << s, h2 = (Ah[l] << s) | ((a >> 1) >> (31 - s));
                dl = l2 + Cl[l];
                dh = h2 + Ch[l] + (dl < l2);
            });
        } else {
            V64_LOOP(Cl, Ch, Al, Ah, {
                u32 s = S[l] & 7, a = Al[l];
                u32 l2 = a << s, h2 = (Ah[l] << s) | ((a >> 1) >> (31 - s));
                dl = l2 + Cl[l];
                dh = h2 + Ch[l] + (dl < l2);
            });
        }
        return;
    }
    u64 t0[LANES], t2[LANES], d[LANES];
    u32 t1[LANES];
    const u64 *A = vs64(w, x, 0, t0, FK_RAW), *C = vs64(w, x, 2, t2, FK_RAW);
    const u32 *B = vs32(w, x, 1, t1, FK_I32);
    VLOOP(l) d[l] = (A[l] << (B[l] & 7)) + C[l];
    vd64(w, x, d, FK_RAW);
}

/* ---- bit ops ------------------------------------------------------------------------------- */

V2(v_and_b32, FK_I32, a &b)
V2(v_or_b32, FK_I32, a | b)
V2(v_xor_b32, FK_I32, a ^ b)
V2(v_xnor_b32, FK_I32, ~(a ^ b))
V1(v_not_b32, FK_I32, ~a)

V1(v_bfrev_b32, FK_I32, x_brev32(a))
/* First set bit from the MSB / LSB; 0xffffffff when there is none. */
V1(v_ffbh_u32, FK_I32, a ? (u32)__builtin_clz(a) : 0xffffffffu)
V1(v_ffbl_b32, FK_I32, a ? (u32)__builtin_ctz(a) : 0xffffffffu)
/* First bit that differs from the sign bit, counted from the MSB; -1 for 0 and -1. */
V1(v_ffbh_i32, FK_I32,
   ((i32)a < 0 ? ~a : a) ? (u32)__builtin_clz((i32)a < 0 ? ~a : a) : 0xffffffffu)
V2(v_bcnt_u32_b32, FK_I32, (u32)__builtin_popcount(a) + b)
V2(v_bfm_b32, FK_I32, ((1u << (a & 31)) - 1) << (b & 31))

/* Bitfield extract: offset S1[4:0], width S2[4:0]; width 0 gives 0. */
static inline u32 bfe_u(u32 v, u32 off, u32 wd) {
    off &= 31, wd &= 31;
    return wd ? (v >> off) & ((1u << wd) - 1) : 0;
}
static inline u32 bfe_i(u32 v, u32 off, u32 wd) {
    off &= 31, wd &= 31;
    if (!wd)
        return 0;
    if (off + wd >= 32)
        return (u32)((i32)v >> off);
    return (u32)((i32)(v << (32 - off - wd)) >> (32 - wd));
}
V3(v_bfe_u32, FK_I32, bfe_u(a, b, c))
V3(v_bfe_i32, FK_I32, bfe_i(a, b, c))
V3(v_bfi_b32, FK_I32, (a & b) | (~a & c))
V3(v_alignbit_b32, FK_I32, (u32)((((u64)a << 32) | b) >> (c & 31)))
V3(v_alignbyte_b32, FK_I32, (u32)((((u64)a << 32) | b) >> (8 * (c & 3))))

/* Byte permute of {S0, S1} (S0 is the high dword) by the selector bytes of S2: 0-7 that byte,
 * 8-11 the sign of byte 1, 3, 5 or 7 replicated, 12 zero, 13-255 0xff.  Written without
 * branches and 64-bit shifts (per byte: which dword, which byte of it; which dword's bit 15 or
 * 31) so that the lane loop vectorizes: the attention kernels' v_perm_b32 was 7% of their time
 * as a per-lane loop. */
static inline u32 perm_byte(u32 a, u32 b, u32 sel) {
    sel &= 0xff;
    u32 byte = ((sel & 4 ? a : b) >> (8 * (sel & 3))) & 0xff;
    u32 sign = (0u - (((sel & 2 ? a : b) >> (15 + 16 * (sel & 1))) & 1)) & 0xff;
    return sel < 8 ? byte : sel < 12 ? sign : sel == 12 ? 0 : 0xff;
}
static inline u32 perm_b32(u32 a, u32 b, u32 c) {
    return perm_byte(a, b, c) | perm_byte(a, b, c >> 8) << 8 | perm_byte(a, b, c >> 16) << 16 |
           perm_byte(a, b, c >> 24) << 24;
}
V3(v_perm_lanes, FK_I32, perm_b32(a, b, c))
/* The selector an SGPR or constant (how compilers pack bf16 and f16 halves): the same byte
 * choice in every lane, so the result is built one byte position at a time with shifts that
 * are the same for all lanes, a few vector operations per position. */
VFN static void v_perm_b32(wave *w, const xinst *x) {
    const isa_opnd *o = &x->in.src[2];
    if ((o->kind != ISA_OPND_SREG && o->kind != ISA_OPND_INLINE && o->kind != ISA_OPND_LITERAL) ||
        !vplain(w, x, FK_I32)) {
        v_perm_lanes(w, x);
        return;
    }
    u32 sel = o->kind == ISA_OPND_SREG ? w->s[o->idx] : (u32)x->k[2];
    u32 t0[LANES], t1[LANES], r[LANES] = {0};
    const u32 *A = vs32p(w, x, 0, t0, FK_I32), *B = vs32p(w, x, 1, t1, FK_I32);
    unsigned n = x->xf & XI_MASK32 ? 32 : LANES;
    for (unsigned k = 0; k < 4; k++) {
        u32 s = (sel >> (8 * k)) & 0xff;
        if (s < 8) {
            const u32 *X = s & 4 ? A : B;
            unsigned sh = 8 * (s & 3);
            for (unsigned l = 0; l < n; l++)
                r[l] |= ((X[l] >> sh) & 0xff) << (8 * k);
        } else if (s < 12) {
            const u32 *X = s & 2 ? A : B;
            unsigned bit = 15 + 16 * (s & 1);
            for (unsigned l = 0; l < n; l++)
                r[l] |= ((0u - ((X[l] >> bit) & 1)) & 0xff) << (8 * k);
        } else if (s > 12) {
            for (unsigned l = 0; l < n; l++)
                r[l] |= 0xffu << (8 * k);
        }
    }
    x_row_copy(vdreg(w, &x->in.dst[0]), r, n == 32);
}

V3(v_xad_u32, FK_I32, (a ^ b) + c)
V3(v_lshl_add_u32, FK_I32, (a << (b & 31)) + c)
V3(v_add_lshl_u32, FK_I32, (a + b) << (c & 31))
V3(v_add3_u32, FK_I32, a + b + c)
V3(v_lshl_or_b32, FK_I32, (a << (b & 31)) | c)
V3(v_and_or_b32, FK_I32, (a & b) | c)
V3(v_or3_b32, FK_I32, a | b | c)

/* v_bitop3: each result bit is the truth table entry indexed by {S0, S1, S2} bits. */
static inline u32 bitop3(u32 a, u32 b, u32 c, unsigned tt) {
    u32 r = 0;
    for (int i = 0; i < 8; i++)
        if ((tt >> i) & 1)
            r |= (i & 4 ? a : ~a) & (i & 2 ? b : ~b) & (i & 1 ? c : ~c);
    return r;
}
V3(v_bitop3_b32, FK_I32, bitop3(a, b, c, x->in.f.v.bitop3))

/* gfx950 V_PRNG_B32: one step of a Galois LFSR (period 2^32 - 1 for a nonzero seed). */
V1(v_prng_b32, FK_RAW, (a << 1) ^ ((a >> 31) ? 197u : 0u))

/* ---- min/max/med3 -------------------------------------------------------------------------- */

#define MIN(x, y) ((x) < (y) ? (x) : (y))
#define MAX(x, y) ((x) > (y) ? (x) : (y))
#define MED3(x, y, z) MAX(MIN(x, y), MIN(MAX(x, y), z))
V2(v_min_i32, FK_I32, (u32)MIN((i32)a, (i32)b))
V2(v_max_i32, FK_I32, (u32)MAX((i32)a, (i32)b))
V2(v_min_u32, FK_I32, MIN(a, b))
V2(v_max_u32, FK_I32, MAX(a, b))
V3(v_min3_i32, FK_I32, (u32)MIN(MIN((i32)a, (i32)b), (i32)c))
V3(v_max3_i32, FK_I32, (u32)MAX(MAX((i32)a, (i32)b), (i32)c))
V3(v_med3_i32, FK_I32, (u32)MED3((i32)a, (i32)b, (i32)c))
V3(v_min3_u32, FK_I32, MIN(MIN(a, b), c))
V3(v_max3_u32, FK_I32, MAX(MAX(a, b), c))
V3(v_med3_u32, FK_I32, MED3(a, b, c))

/* ---- sums of absolute differences ---------------------------------------------------------- */

static inline u32 absd(u32 x, u32 y) { return x > y ? x - y : y - x; }
static inline u32 sad8(u32 a, u32 b, int masked) {
    u32 s = 0;
    for (int i = 0; i < 32; i += 8)
        if (!masked || ((b >> i) & 0xff))
            s += absd((a >> i) & 0xff, (b >> i) & 0xff);
    return s;
}
V3(v_sad_u8, FK_I32, sad8(a, b, 0) + c)
V3(v_sad_hi_u8, FK_I32, (sad8(a, b, 0) << 16) + c)
V3(v_msad_u8, FK_I32, sad8(a, b, 1) + c)
V3(v_sad_u16, FK_I32, absd(a & 0xffff, b & 0xffff) + absd(a >> 16, b >> 16) + c)
V3(v_sad_u32, FK_I32, absd(a, b) + c)
/* Quad SADs (V_QSAD_PK_U16_U8, V_MQSAD_PK_U16_U8, V_MQSAD_U32_U8): S0 is 8 bytes, S1 a 4-byte
 * reference, S2 the 4 accumulators; result i is the (m)sad of S0 bytes i..i+3 against S1 plus
 * accumulator i, truncated to 16 bits in the packed forms.  S2 and D are 64-bit (128-bit for
 * mqsad_u32), so these read and write their register tuples dword by dword. */
static u32 src_dword(const wave *w, const xinst *x, int i, unsigned j, unsigned l) {
    const isa_opnd *o = &x->in.src[i];
    if (o->kind == ISA_OPND_VGPR)
        return w->v[o->idx + j][l];
    if (o->kind == ISA_OPND_SREG)
        return w->s[o->idx + j];
    if (o->kind == ISA_OPND_SPECIAL)
        return (u32)(x_special(w, o->idx, 2) >> (32 * (j & 1)));
    return j < 2 ? (u32)(x->k[i] >> (32 * j)) : 0; /* constants: 64-bit value, zero above */
}
static void qsad(wave *w, const xinst *x, int masked, int wide) {
    u64 wm = vwmask(w, x);
    unsigned nd = wide ? 4 : 2;
    u32 r[4][LANES];
    VLOOP(l) {
        u64 s0 = src_dword(w, x, 0, 0, l) | (u64)src_dword(w, x, 0, 1, l) << 32;
        u32 s1 = src_dword(w, x, 1, 0, l);
        for (unsigned i = 0; i < 4; i++) {
            u32 acc = wide ? src_dword(w, x, 2, i, l)
                           : (src_dword(w, x, 2, i / 2, l) >> (16 * (i & 1))) & 0xffff;
            u32 v = sad8((u32)(s0 >> (8 * i)), s1, masked) + acc;
            if (wide)
                r[i][l] = v;
            else if (i & 1)
                r[i / 2][l] |= (v & 0xffff) << 16;
            else
                r[i / 2][l] = v & 0xffff;
        }
    }
    for (unsigned j = 0; j < nd; j++)
        vstore(w->v[x->in.dst[0].idx + j], r[j], wm);
}
static void v_qsad_pk_u16_u8(wave *w, const xinst *x) { qsad(w, x, 0, 0); }
static void v_mqsad_pk_u16_u8(wave *w, const xinst *x) { qsad(w, x, 1, 0); }
static void v_mqsad_u32_u8(wave *w, const xinst *x) { qsad(w, x, 1, 1); }
static inline u32 lerp8(u32 a, u32 b, u32 c) {
    u32 r = 0;
    for (int i = 0; i < 32; i += 8)
        r |= ((((a >> i) & 0xff) + ((b >> i) & 0xff) + ((c >> i) & 1)) >> 1) << i;
    return r;
}
V3(v_lerp_u8, FK_I32, lerp8(a, b, c))

/* ---- 16-bit integer ops -----------------------------------------------------------------------
 * Results go through vd16: high half zeroed, except the gfx9 mad forms that keep it. */
static inline u32 lo16(u32 v) { return v & 0xffff; }
#define V16_2(name, expr) V16OP2(name, FK_I16, u32, lo16, expr)
#define V16_3(name, expr, preserve) V16OP3(name, FK_I16, u32, lo16, expr, preserve)
static inline u32 sat_u16(i32 v) { return v < 0 ? 0 : v > 0xffff ? 0xffff : (u32)v; }
static inline u32 sat_i16(i32 v) { return (u32)(v < -32768 ? -32768 : v > 32767 ? 32767 : v); }
#define S16(v) ((i32)(i16)(v))
V16_2(v_add_u16, CLAMP ? sat_u16((i32)(a + b)) : a + b)
V16_2(v_sub_u16, CLAMP ? sat_u16((i32)a - (i32)b) : a - b)
V16_2(v_subrev_u16, CLAMP ? sat_u16((i32)b - (i32)a) : b - a)
V16_2(v_add_i16, CLAMP ? sat_i16(S16(a) + S16(b)) : (u32)(a + b))
V16_2(v_sub_i16, CLAMP ? sat_i16(S16(a) - S16(b)) : (u32)(a - b))
V16_2(v_mul_lo_u16, a *b)
V16_2(v_lshlrev_b16, b << (a & 15))
V16_2(v_lshrrev_b16, b >> (a & 15))
V16_2(v_ashrrev_i16, (u32)(S16(b) >> (a & 15)))
V16_2(v_max_u16, MAX(a, b))
V16_2(v_min_u16, MIN(a, b))
V16_2(v_max_i16, (u32)MAX(S16(a), S16(b)))
V16_2(v_min_i16, (u32)MIN(S16(a), S16(b)))
V16_3(v_mad_u16, CLAMP ? sat_u16((i32)(a * b + c)) : a *b + c, 1)
V16_3(v_mad_i16, CLAMP ? sat_i16(S16(a) * S16(b) + S16(c)) : (u32)(S16(a) * S16(b) + S16(c)), 1)
V16_3(v_mad_legacy_u16, a *b + c, 0)
V16_3(v_mad_legacy_i16, (u32)(S16(a) * S16(b) + S16(c)), 0)
V16_3(v_min3_u16, MIN(MIN(a, b), c), 1)
V16_3(v_max3_u16, MAX(MAX(a, b), c), 1)
V16_3(v_med3_u16, MED3(a, b, c), 1)
V16_3(v_min3_i16, (u32)MIN(MIN(S16(a), S16(b)), S16(c)), 1)
V16_3(v_max3_i16, (u32)MAX(MAX(S16(a), S16(b)), S16(c)), 1)
V16_3(v_med3_i16, (u32)MED3(S16(a), S16(b), S16(c)), 1)

/* 16-bit form: op_sel picks the source halves and the destination half; the other half of the
 * destination is kept, as for the other gfx9 op_sel 16-bit ops (the manual only says D.b16). */
V16_3(v_bitop3_b16, bitop3(a, b, c, x->in.f.v.bitop3) & 0xffff, 1)

/* 16 x 16 + 32: S0/S1 are halves picked by op_sel, S2 a full dword. */
#define V16MAD32(name, expr)                                                                       \
    VFN static void name(wave *w, const xinst *x) {                                                \
        u32 t0[LANES], t1[LANES], t2[LANES], d[LANES];                                             \
        const u32 *A = vs32(w, x, 0, t0, FK_I16), *B = vs32(w, x, 1, t1, FK_I16),                  \
                  *C = vs32(w, x, 2, t2, FK_I32);                                                  \
        VLOOP(l) {                                                                                 \
            u32 a = A[l] & 0xffff, b = B[l] & 0xffff, c = C[l];                                    \
            d[l] = (u32)(expr);                                                                    \
        }                                                                                          \
        vd32(w, x, d, FK_I32);                                                                     \
    }
V16MAD32(v_mad_u32_u16, a *b + c)
V16MAD32(v_mad_i32_i16, (u32)(S16(a) * S16(b)) + c)

/* ---- integer dot products: D = sum of lane-wise products of packed S0, S1 elements + S2 -----
 * (the *C forms accumulate into D; clamp saturates the signed/unsigned 32-bit result) */
static inline u32 dot_sat(i64 v, int sgn, int clamp) {
    if (!clamp)
        return (u32)v;
    return sgn ? sat_i32(v) : v < 0 ? 0 : v > 0xffffffffll ? 0xffffffffu : (u32)v;
}
static inline i64 dotn(u32 a, u32 b, int bits, int sgn) {
    i64 s = 0;
    for (int i = 0; i < 32; i += bits) {
        u32 m = (1u << bits) - 1, x = (a >> i) & m, y = (b >> i) & m;
        i64 xa = sgn ? (i64)((i32)(x << (32 - bits)) >> (32 - bits)) : (i64)x;
        i64 ya = sgn ? (i64)((i32)(y << (32 - bits)) >> (32 - bits)) : (i64)y;
        s += xa * ya;
    }
    return s;
}
#define VDOT(name, bits, sgn)                                                                      \
    V3(name, FK_RAW, dot_sat(dotn(a, b, bits, sgn) + (sgn ? (i64)(i32)c : (i64)c), sgn, CLAMP))
VDOT(v_dot2_i32_i16, 16, 1)
VDOT(v_dot2_u32_u16, 16, 0)
VDOT(v_dot4_i32_i8, 8, 1)
VDOT(v_dot4_u32_u8, 8, 0)
VDOT(v_dot8_i32_i4, 4, 1)
VDOT(v_dot8_u32_u4, 4, 0)
#define VDOTC(name, bits)                                                                          \
    VFN static void name(wave *w, const xinst *x) {                                                \
        u32 t0[LANES], t1[LANES], d[LANES];                                                        \
        const u32 *A = vs32(w, x, 0, t0, FK_RAW), *B = vs32(w, x, 1, t1, FK_RAW);                  \
        const u32 *D = vdreg(w, &x->in.dst[0]);                                                    \
        VLOOP(l) d[l] = dot_sat(dotn(A[l], B[l], bits, 1) + (i32)D[l], 1, CLAMP);                  \
        vd32(w, x, d, FK_RAW);                                                                     \
    }
VDOTC(v_dot2c_i32_i16, 16)
VDOTC(v_dot4c_i32_i8, 8)
VDOTC(v_dot8c_i32_i4, 4)

const xhandler x_valu_int_handlers[] = {
    VHV(v_add_u32, v_add_u32, ISA_T_B32),
    VHV(v_sub_u32, v_sub_u32, ISA_T_B32),
    VHV(v_subrev_u32, v_subrev_u32, ISA_T_B32),
    VHV(v_add_i32, v_add_i32, ISA_T_B32),
    VHV(v_sub_i32, v_sub_i32, ISA_T_B32),
    VH(v_add_co_u32, v_add_co_u32, ISA_T_B32),
    VH(v_sub_co_u32, v_sub_co_u32, ISA_T_B32),
    VH(v_subrev_co_u32, v_subrev_co_u32, ISA_T_B32),
    VH(v_addc_co_u32, v_addc_co_u32, ISA_T_B32),
    VH(v_subb_co_u32, v_subb_co_u32, ISA_T_B32),
    VH(v_subbrev_co_u32, v_subbrev_co_u32, ISA_T_B32),
    VHV(v_mul_i32_i24, v_mul_i32_i24, ISA_T_B32),
    VHV(v_mul_hi_i32_i24, v_mul_hi_i32_i24, ISA_T_B32),
    VHV(v_mul_u32_u24, v_mul_u32_u24, ISA_T_B32),
    VHV(v_mul_hi_u32_u24, v_mul_hi_u32_u24, ISA_T_B32),
    VHV(v_mad_i32_i24, v_mad_i32_i24, ISA_T_B32),
    VHV(v_mad_u32_u24, v_mad_u32_u24, ISA_T_B32),
    VHV(v_mul_lo_u32, v_mul_lo_u32, ISA_T_B32),
    VHV(v_mul_hi_u32, v_mul_hi_u32, ISA_T_B32),
    VHV(v_mul_hi_i32, v_mul_hi_i32, ISA_T_B32),
    VH(v_mad_u64_u32, v_mad_u64_u32, ISA_T_B64),
    VH(v_mad_i64_i32, v_mad_i64_i32, ISA_T_B64),
    VHV(v_lshlrev_b32, v_lshlrev_b32, ISA_T_B32),
    VHV(v_lshrrev_b32, v_lshrrev_b32, ISA_T_B32),
    VHV(v_ashrrev_i32, v_ashrrev_i32, ISA_T_B32),
    VH(v_lshlrev_b64, v_lshlrev_b64, ISA_T_B64),
    VH(v_lshrrev_b64, v_lshrrev_b64, ISA_T_B64),
    VH(v_ashrrev_i64, v_ashrrev_i64, ISA_T_B64),
    VH(v_lshl_add_u64, v_lshl_add_u64, ISA_T_B64),
    VHV(v_and_b32, v_and_b32, ISA_T_B32),
    VHV(v_or_b32, v_or_b32, ISA_T_B32),
    VHV(v_xor_b32, v_xor_b32, ISA_T_B32),
    VHV(v_xnor_b32, v_xnor_b32, ISA_T_B32),
    VHV(v_not_b32, v_not_b32, ISA_T_B32),
    VHV(v_bfrev_b32, v_bfrev_b32, ISA_T_B32),
    VHV(v_ffbh_u32, v_ffbh_u32, ISA_T_B32),
    VHV(v_ffbl_b32, v_ffbl_b32, ISA_T_B32),
    VHV(v_ffbh_i32, v_ffbh_i32, ISA_T_B32),
    VHV(v_bcnt_u32_b32, v_bcnt_u32_b32, ISA_T_B32),
    VHV(v_bfm_b32, v_bfm_b32, ISA_T_B32),
    VHV(v_bfe_u32, v_bfe_u32, ISA_T_B32),
    VHV(v_bfe_i32, v_bfe_i32, ISA_T_B32),
    VHV(v_bfi_b32, v_bfi_b32, ISA_T_B32),
    VHV(v_alignbit_b32, v_alignbit_b32, ISA_T_B32),
    VHV(v_alignbyte_b32, v_alignbyte_b32, ISA_T_B32),
    {ISA_OPL_v_perm_b32, ISA_T_B32, v_perm_b32, v_perm_lanes_vv, v_perm_lanes_vvn, v_perm_lanes_vk,
     v_perm_lanes_vk1},
    VHV(v_xad_u32, v_xad_u32, ISA_T_B32),
    VHV(v_lshl_add_u32, v_lshl_add_u32, ISA_T_B32),
    VHV(v_add_lshl_u32, v_add_lshl_u32, ISA_T_B32),
    VHV(v_add3_u32, v_add3_u32, ISA_T_B32),
    VHV(v_lshl_or_b32, v_lshl_or_b32, ISA_T_B32),
    VHV(v_and_or_b32, v_and_or_b32, ISA_T_B32),
    VHV(v_or3_b32, v_or3_b32, ISA_T_B32),
    VHV(v_bitop3_b32, v_bitop3_b32, ISA_T_B32),
    VHV(v_min_i32, v_min_i32, ISA_T_B32),
    VHV(v_max_i32, v_max_i32, ISA_T_B32),
    VHV(v_min_u32, v_min_u32, ISA_T_B32),
    VHV(v_max_u32, v_max_u32, ISA_T_B32),
    VHV(v_min3_i32, v_min3_i32, ISA_T_B32),
    VHV(v_max3_i32, v_max3_i32, ISA_T_B32),
    VHV(v_med3_i32, v_med3_i32, ISA_T_B32),
    VHV(v_min3_u32, v_min3_u32, ISA_T_B32),
    VHV(v_max3_u32, v_max3_u32, ISA_T_B32),
    VHV(v_med3_u32, v_med3_u32, ISA_T_B32),
    VHV(v_sad_u8, v_sad_u8, ISA_T_B32),
    VHV(v_sad_hi_u8, v_sad_hi_u8, ISA_T_B32),
    VHV(v_msad_u8, v_msad_u8, ISA_T_B32),
    VHV(v_sad_u16, v_sad_u16, ISA_T_B32),
    VHV(v_sad_u32, v_sad_u32, ISA_T_B32),
    VHV(v_lerp_u8, v_lerp_u8, ISA_T_B32),
    VH(v_bitop3_b16, v_bitop3_b16, ISA_T_B16),
    VHV(v_prng_b32, v_prng_b32, ISA_T_B32),
    VH(v_qsad_pk_u16_u8, v_qsad_pk_u16_u8, ISA_T_B64),
    VH(v_mqsad_pk_u16_u8, v_mqsad_pk_u16_u8, ISA_T_B64),
    VH(v_mqsad_u32_u8, v_mqsad_u32_u8, ISA_T_B64),
    VH(v_add_u16, v_add_u16, ISA_T_B16),
    VH(v_sub_u16, v_sub_u16, ISA_T_B16),
    VH(v_subrev_u16, v_subrev_u16, ISA_T_B16),
    VH(v_add_i16, v_add_i16, ISA_T_B16),
    VH(v_sub_i16, v_sub_i16, ISA_T_B16),
    VH(v_mul_lo_u16, v_mul_lo_u16, ISA_T_B16),
    VH(v_lshlrev_b16, v_lshlrev_b16, ISA_T_B16),
    VH(v_lshrrev_b16, v_lshrrev_b16, ISA_T_B16),
    VH(v_ashrrev_i16, v_ashrrev_i16, ISA_T_B16),
    VH(v_max_u16, v_max_u16, ISA_T_B16),
    VH(v_min_u16, v_min_u16, ISA_T_B16),
    VH(v_max_i16, v_max_i16, ISA_T_B16),
    VH(v_min_i16, v_min_i16, ISA_T_B16),
    VH(v_mad_u16, v_mad_u16, ISA_T_B16),
    VH(v_mad_i16, v_mad_i16, ISA_T_B16),
    VH(v_mad_legacy_u16, v_mad_legacy_u16, ISA_T_B16),
    VH(v_mad_legacy_i16, v_mad_legacy_i16, ISA_T_B16),
    VH(v_min3_u16, v_min3_u16, ISA_T_B16),
    VH(v_max3_u16, v_max3_u16, ISA_T_B16),
    VH(v_med3_u16, v_med3_u16, ISA_T_B16),
    VH(v_min3_i16, v_min3_i16, ISA_T_B16),
    VH(v_max3_i16, v_max3_i16, ISA_T_B16),
    VH(v_med3_i16, v_med3_i16, ISA_T_B16),
    VH(v_mad_u32_u16, v_mad_u32_u16, ISA_T_B16),
    VH(v_mad_i32_i16, v_mad_i32_i16, ISA_T_B16),
    VHV(v_dot2_i32_i16, v_dot2_i32_i16, ISA_T_B32),
    VHV(v_dot2_u32_u16, v_dot2_u32_u16, ISA_T_B32),
    VHV(v_dot4_i32_i8, v_dot4_i32_i8, ISA_T_B32),
    VHV(v_dot4_u32_u8, v_dot4_u32_u8, ISA_T_B32),
    VHV(v_dot8_i32_i4, v_dot8_i32_i4, ISA_T_B32),
    VHV(v_dot8_u32_u4, v_dot8_u32_u4, ISA_T_B32),
    VH(v_dot2c_i32_i16, v_dot2c_i32_i16, ISA_T_B32),
    VH(v_dot4c_i32_i8, v_dot4c_i32_i8, ISA_T_B32),
    VH(v_dot8c_i32_i4, v_dot8c_i32_i4, ISA_T_B32),
};
const unsigned x_valu_int_nhandlers = sizeof x_valu_int_handlers / sizeof x_valu_int_handlers[0];
