/* valu.c - VALU framework (operand fetch with modifiers, SDWA, DPP, result writes; see valu.h)
 * and the data-movement ops: v_mov, v_cndmask, lane access (v_readlane, v_writelane,
 * v_readfirstlane, v_mbcnt), AGPR moves, v_swap, v_pk_mov. */
#include "exec/valu.h"

#include <pthread.h>

/* ---- small floats -------------------------------------------------------------------------- */

u32 d2small(double d, int ebits, int mbits) {
    u64 b = bf64(d);
    u32 sign = (u32)(b >> 63) << (ebits + mbits);
    int e = (int)((b >> 52) & 0x7ff);
    u64 m = b & 0xfffffffffffffull;
    u32 emax = (1u << ebits) - 1, inf = sign | emax << mbits;
    if (e == 0x7ff) /* NaN keeps its top payload bits and becomes quiet */
        return m ? inf | 1u << (mbits - 1) | (u32)(m >> (52 - mbits)) : inf;
    if (e == 0)
        return sign; /* double denormals are far below any small-format denormal */
    int bias = (1 << (ebits - 1)) - 1;
    int E = e - 1023 + bias; /* biased exponent in the small format */
    u64 mant = m | 1ull << 52;
    int shift = 52 - mbits + (E < 1 ? 1 - E : 0);
    if (shift > 60)
        return sign;
    u64 q = mant >> shift, rem = mant & ((1ull << shift) - 1), half = 1ull << (shift - 1);
    if (rem > half || (rem == half && (q & 1)))
        q++;
    if (E < 1) /* denormal; rounding up to the smallest normal encodes correctly */
        return sign | (u32)q;
    if (q >> (mbits + 1)) {
        q >>= 1;
        E++;
    }
    if (E >= (int)emax)
        return inf;
    return sign | (u32)E << mbits | ((u32)q & ((1u << mbits) - 1));
}

double fma_odd(double a, double b, double c) {
    double p = a * b; /* exact for f16/bf16 inputs (at most 2x11 significant bits) */
    double s = p + c;
    if (isinf(s) || isnan(s))
        return s;
    double bp = s - c, e = (p - bp) + (c - (s - bp)); /* TwoSum: s + e == p + c exactly */
    u64 bits = bf64(s);
    if (e != 0 && !(bits & 1))
        s = nextafter(s, e > 0 ? INFINITY : -INFINITY);
    return s;
}

/* ---- DPP (CDNA3 ISA "DPP"): lane l of src0 reads lane dpp_lane(ctrl, l), -1 = out of range -- */

static int dpp_lane(unsigned ctrl, int l) {
    int row = l & ~15, i = l & 15, n = (int)(ctrl & 15);
    if (ctrl <= 0xff)
        return (l & ~3) + (int)((ctrl >> (2 * (l & 3))) & 3);
    if (ctrl >= 0x101 && ctrl <= 0x10f) /* row_shl: data moves to lower lanes */
        return i + n < 16 ? l + n : -1;
    if (ctrl >= 0x111 && ctrl <= 0x11f) /* row_shr */
        return i >= n ? l - n : -1;
    if (ctrl >= 0x121 && ctrl <= 0x12f) /* row_ror */
        return row + ((i - n) & 15);
    if (ctrl >= 0x150 && ctrl <= 0x15f) /* row_newbcast (gfx90a+), RDNA's row_share */
        return row + n;
    if (ctrl >= 0x160 && ctrl <= 0x16f) /* row_xmask (RDNA only): lane i ^ n of the row */
        return row + (i ^ n);
    switch (ctrl) {
    case 0x130: return l < 63 ? l + 1 : -1;    /* wave_shl:1 */
    case 0x134: return (l + 1) & 63;           /* wave_rol:1 */
    case 0x138: return l > 0 ? l - 1 : -1;     /* wave_shr:1 */
    case 0x13c: return (l - 1) & 63;           /* wave_ror:1 */
    case 0x140: return row + 15 - i;           /* row_mirror */
    case 0x141: return (l & ~7) + 7 - (l & 7); /* row_half_mirror */
    case 0x142: return row > 0 ? row - 1 : -1; /* row_bcast:15: lane 15 of the previous row */
    case 0x143: return row >= 32 ? 31 : -1;    /* row_bcast:31: lane 31 to rows 2 and 3 */
    default: return -1;
    }
}

/* dpp_lane() of every dpp_ctrl value and lane, made once, as an index into a lane array with a
 * 65th entry for "out of range" (64), and the lanes in range as a mask: deciding lane by lane
 * was 85% of a kernel whose wave reductions are DPP moves and adds (about 350 ns per DPP
 * instruction). */
static uint8_t dpp_tab[512][LANES];
static u64 dpp_inrange[512];
static pthread_once_t dpp_once = PTHREAD_ONCE_INIT;
static int dpp_ready; /* the tables are made: pthread_once's call cost 2.5% of a DPP reduction */
static void dpp_build(void) {
    for (unsigned c = 0; c < 512; c++)
        for (int l = 0; l < LANES; l++) {
            int s = dpp_lane(c, l);
            dpp_tab[c][l] = (uint8_t)(s < 0 ? LANES : s);
            dpp_inrange[c] |= (u64)(s >= 0) << l;
        }
    __atomic_store_n(&dpp_ready, 1, __ATOMIC_RELEASE);
}

/* The source lane of every lane (LANES: out of range) and the mask of lanes in range: DPP16's
 * dpp_ctrl, or RDNA's DPP8 (XI_DPP8: lane l reads lane sel[l % 8] of its group of 8, the eight
 * 3-bit selectors in k[5], RDNA3 ISA "DPP8"), made in buf if it has to be. */
static const uint8_t *dpp_srcs(const xinst *x, uint8_t *buf, u64 *inrange) {
    if (x->xf & XI_DPP8) {
        for (int l = 0; l < LANES; l++)
            buf[l] = (uint8_t)((l & ~7) + (int)((x->k[5] >> (3 * (l & 7))) & 7));
        *inrange = ~0ull;
        return buf;
    }
    if (!__atomic_load_n(&dpp_ready, __ATOMIC_ACQUIRE))
        pthread_once(&dpp_once, dpp_build);
    *inrange = dpp_inrange[x->in.f.v.dpp_ctrl & 511];
    return dpp_tab[x->in.f.v.dpp_ctrl & 511];
}
/* The lanes whose source lane can be read: in range and active, or inactive with RDNA's FI
 * (fetch inactive) bit set (gfx9 has no FI bit: inactive lanes are never fetched). */
static u64 dpp_valid(const xinst *x, u64 ex, const uint8_t *src, u64 inrange) {
    if (ex == ~0ull || x->in.f.v.fi)
        return inrange;
    u64 m = 0;
    for (int l = 0; l < LANES; l++)
        m |= ((ex >> (src[l] & 63)) & 1) << l;
    return m & inrange;
}

/* A source lane is invalid when out of range or disabled by EXEC (dpp_valid).  Invalid lanes
 * read 0 with bound_ctrl set, otherwise the lane's write is disabled; rows/banks cleared in
 * row_mask/bank_mask are not written.  DPP8 has no masks and no bound_ctrl: every lane is
 * written, an invalid source reads 0. */
u64 vdpp_wmask(const wave *w, const xinst *x) {
    const isa_valu_fields *v = &x->in.f.v;
    u64 ex = wave_exec(w), rows = 0, banks = 0;
    if (x->xf & XI_DPP8)
        return ex;
    for (int r = 0; r < 4; r++) {
        if ((v->row_mask >> r) & 1) /* row r: lanes 16r..16r+15 */
            rows |= 0xffffull << 16 * r;
        if ((v->bank_mask >> r) & 1) /* bank r: lanes 4r..4r+3 of every row */
            banks |= 0x000f000f000f000full << 4 * r;
    }
    u64 m = rows & banks, inrange;
    if (!v->bound_ctrl) {
        uint8_t buf[LANES];
        const uint8_t *src = dpp_srcs(x, buf, &inrange);
        m &= dpp_valid(x, ex, src, inrange);
    }
    return m;
}

/* t[l] = lane src[l] of t, or 0 where that lane cannot be read; T is u32 or u64.  An unreadable
 * lane indexes the zero after the copy of t. */
#define DPP_PERMUTE(T, t)                                                                          \
    do {                                                                                           \
        uint8_t buf_[LANES], idx_[LANES];                                                          \
        u64 in_range_;                                                                             \
        const uint8_t *s_ = dpp_srcs(x, buf_, &in_range_);                                         \
        u64 ok_ = dpp_valid(x, wave_exec(w), s_, in_range_);                                       \
        if (ok_ != in_range_) {                                                                    \
            for (int l = 0; l < LANES; l++)                                                        \
                idx_[l] = (ok_ >> l) & 1 ? s_[l] : LANES;                                          \
            s_ = idx_;                                                                             \
        }                                                                                          \
        T in_[LANES + 1];                                                                          \
        memcpy(in_, t, LANES * sizeof(T));                                                         \
        in_[LANES] = 0;                                                                            \
        for (int l = 0; l < LANES; l++)                                                            \
            t[l] = in_[s_[l]];                                                                     \
    } while (0)

#if defined(__x86_64__) && defined(__linux__) && !defined(GFXEMU_NO_CLONES)
#include <immintrin.h>
/* DPP_PERMUTE of 32-bit lanes in AVX-512: each quarter's 16 results are two two-register
 * permutes (sources 0-31 and 32-63) blended by bit 5 of the index, zero where it is LANES. */
__attribute__((target("arch=x86-64-v4"))) static void dpp_gather32_v4(u32 *t, const u32 *src,
                                                                      const uint8_t *idx) {
    __m512i s0 = _mm512_loadu_si512(src), s1 = _mm512_loadu_si512(src + 16),
            s2 = _mm512_loadu_si512(src + 32), s3 = _mm512_loadu_si512(src + 48);
    for (int q = 0; q < 4; q++) {
        __m512i i = _mm512_cvtepu8_epi32(_mm_loadu_si128((const __m128i *)(idx + 16 * q)));
        __mmask16 hi = _mm512_test_epi32_mask(i, _mm512_set1_epi32(32));
        __mmask16 ok = _mm512_cmplt_epu32_mask(i, _mm512_set1_epi32(LANES));
        __m512i lo = _mm512_permutex2var_epi32(s0, i, s1),
                up = _mm512_permutex2var_epi32(s2, i, s3);
        _mm512_storeu_si512(t + 16 * q,
                            _mm512_maskz_mov_epi32(ok, _mm512_mask_blend_epi32(hi, lo, up)));
    }
}
#define HAVE_DPP_V4 1
#endif

/* t = DPP_PERMUTE of src, a register row read in place: a copy of it just stored in smaller
 * pieces made the 64-byte loads wait for store forwarding, half of the permute's time. */
static void dpp_permute32(const wave *w, const xinst *x, const u32 *src, u32 *t) {
#ifdef HAVE_DPP_V4
    if (__builtin_cpu_supports("x86-64-v4")) {
        uint8_t buf[LANES], idx[LANES];
        u64 inrange;
        const uint8_t *s = dpp_srcs(x, buf, &inrange);
        u64 ok = dpp_valid(x, wave_exec(w), s, inrange);
        if (ok != inrange) {
            for (int l = 0; l < LANES; l++)
                idx[l] = (ok >> l) & 1 ? s[l] : LANES;
            s = idx;
        }
        dpp_gather32_v4(t, src, s);
        return;
    }
#endif
    memmove(t, src, LANES * 4);
    DPP_PERMUTE(u32, t);
}

/* ---- fetch --------------------------------------------------------------------------------- */

static void fill32(u32 *t, u32 v) {
    for (int l = 0; l < LANES; l++)
        t[l] = v;
}

/* The general fetch: a register source is read in place (p) until a step changes it; each step
 * that does writes t from p, and p becomes t.  A source that needs none (an SDWA instruction's
 * DWORD source, a VOP3 source with no modifier of its own) is the register's own row, as vs32p
 * returns it. */
const u32 *vs32_slow(wave *w, const xinst *x, int i, u32 *t, int fk) {
    const isa_opnd *o = &x->in.src[i];
    const isa_valu_fields *v = &x->in.f.v;
    int dpp = x->in.variant == ISA_VAR_DPP && i == 0;
    const u32 *p = t;
    switch (o->kind) {
    case ISA_OPND_VGPR:
    case ISA_OPND_AGPR: {
        const u32 *r = o->kind == ISA_OPND_VGPR ? w->v[o->idx] : w->a[o->idx];
        if (dpp)
            dpp_permute32(w, x, r, t), dpp = 0;
        else
            p = r;
        break;
    }
    case ISA_OPND_SREG: fill32(t, w->s[o->idx]); break;
    case ISA_OPND_SPECIAL: fill32(t, (u32)x_special(w, o->idx, 1)); break;
    default: fill32(t, (u32)x->k[i]); break;
    }
    if (dpp) /* a scalar or constant src0: DPP encodes only VGPRs, but the fetch stays total */
        dpp_permute32(w, x, t, t);
    if (x->in.variant == ISA_VAR_SDWA && i < 2) {
        unsigned sel = i == 0 ? v->src0_sel : v->src1_sel;
        int sext = (v->sext >> i) & 1;
        unsigned up, down;
        sdwa_shifts(sel, &up, &down);
        if (down && sext)
            for (int l = 0; l < LANES; l++)
                t[l] = (u32)((i32)(p[l] << up) >> down);
        else if (down)
            for (int l = 0; l < LANES; l++)
                t[l] = p[l] << up >> down;
        if (down)
            p = t;
    }
    if ((fk == FK_F16 || fk == FK_I16) && x->in.variant != ISA_VAR_SDWA) {
        /* VOP3 op_sel; on RDNA every format (true16 halves folded into op_sel, see rdna.c) */
        int hi = (x->in.fmt == ISA_FMT_VOP3 || (x->xf & XI_RDNA)) && ((v->opsel >> i) & 1);
        for (int l = 0; l < LANES; l++)
            t[l] = (hi ? p[l] >> 16 : p[l]) & 0xffff;
        p = t;
    }
    u32 sbit = fk == FK_F16 ? 0x8000u : 0x80000000u;
    if (fk == FK_F32 || fk == FK_M32 || fk == FK_F16) {
        u32 clr = ((v->abs >> i) & 1) ? sbit : 0, flip = ((v->neg >> i) & 1) ? sbit : 0;
        if (clr | flip) {
            for (int l = 0; l < LANES; l++)
                t[l] = (p[l] & ~clr) ^ flip;
            p = t;
        }
    }
    if (fk_flush_in(w->mode, fk)) {
        u32 emask = fk == FK_F16 ? 0x7c00u : 0x7f800000u;
        for (int l = 0; l < LANES; l++)
            t[l] = p[l] & emask ? p[l] : p[l] & sbit;
        p = t;
    }
    return p;
}

const u64 *vs64_slow(wave *w, const xinst *x, int i, u64 *t, int fk) {
    const isa_opnd *o = &x->in.src[i];
    const isa_valu_fields *v = &x->in.f.v;
    switch (o->kind) {
    case ISA_OPND_VGPR:
    case ISA_OPND_AGPR: {
        const u32 *lo = o->kind == ISA_OPND_VGPR ? w->v[o->idx] : w->a[o->idx];
        const u32 *hi = o->kind == ISA_OPND_VGPR ? w->v[o->idx + 1] : w->a[o->idx + 1];
        for (int l = 0; l < LANES; l++)
            t[l] = lo[l] | (u64)hi[l] << 32;
        break;
    }
    case ISA_OPND_SREG: {
        u64 s = w->s[o->idx] | (u64)w->s[o->idx + 1] << 32;
        for (int l = 0; l < LANES; l++)
            t[l] = s;
        break;
    }
    default: {
        u64 s = o->kind == ISA_OPND_SPECIAL ? x_special(w, o->idx, 2) : x->k[i];
        for (int l = 0; l < LANES; l++)
            t[l] = s;
        break;
    }
    }
    if (x->in.variant == ISA_VAR_DPP && i == 0)
        DPP_PERMUTE(u64, t);
    if (fk == FK_F64 || fk == FK_M64) {
        u64 sb = 1ull << 63;
        u64 clr = ((v->abs >> i) & 1) ? sb : 0, flip = ((v->neg >> i) & 1) ? sb : 0;
        if (clr | flip)
            for (int l = 0; l < LANES; l++)
                t[l] = (t[l] & ~clr) ^ flip;
        if (fk_flush_in(w->mode, fk))
            for (int l = 0; l < LANES; l++)
                if (!(t[l] & 0x7ff0000000000000ull))
                    t[l] &= sb;
    }
    return t;
}

/* ---- write --------------------------------------------------------------------------------- */

static const double omod_scale[4] = {1.0, 2.0, 4.0, 0.5};

/* The omod scale in effect: hardware ignores omod while MODE.IEEE is set (LLVM's SIFoldOperands
 * folds omod only without IEEE mode for that reason; tinygrad test/amd/hw test_omod_ignored saw
 * v_add_f32 mul:2 give the unscaled sum on RDNA3).  gfx12 has no IEEE mode bit: omod applies. */
static inline double omod_of(const wave *w, const xinst *x) {
    int ieee = (w->mode & MODE_IEEE) && isa_targets[x->in.arch].rdna < 12;
    return ieee ? 1.0 : omod_scale[x->in.f.v.omod & 3];
}

/* clamp to [0, 1]; NaN becomes 0 under DX10_CLAMP (CDNA3 ISA "Output modifiers"). */
static inline double clamp01(double v, u32 mode) {
    if (v != v)
        return (mode & MODE_DX10_CLAMP) ? 0.0 : v;
    return v < 0 ? 0.0 : v > 1 ? 1.0 : v;
}

static u32 sdwa_dst(u32 d, u32 old, unsigned sel, unsigned unused) {
    if (sel >= 6)
        return d;
    unsigned sh = sel <= 3 ? 8 * sel : 16 * (sel - 4), width = sel <= 3 ? 8 : 16;
    u32 fmask = ((1u << width) - 1) << sh, f = (d << sh) & fmask;
    if (unused == 2) /* UNUSED_PRESERVE */
        return (old & ~fmask) | f;
    if (unused == 1 && ((f >> (sh + width - 1)) & 1) && sh + width < 32) /* UNUSED_SEXT */
        return f | ~0u << (sh + width);
    return f; /* UNUSED_PAD */
}

/* f32 omod and clamp, the value of (float)clamp01((double)f * scale) computed in float: the
 * product by 1, 2, 4 or 0.5 is exact in double, so one float multiply rounds it the same way
 * (to a denormal or an infinity alike, and a NaN comes out quiet with its payload either way);
 * the exact product is below 0 exactly when f is, which the rounded one need not show (a tiny
 * negative product rounds to -0, which clamp01 would keep), and above 1 when the rounded one is
 * or rounds to 1.  Branch-free, so the lane loop vectorizes in the handler clones. */
static inline u32 omod_clamp32(u32 b, float scale, int clamp, int dx10) {
    float f = f32(b), p = f * scale;
    float c = f < 0.0f ? 0.0f : p > 1.0f ? 1.0f : p;
    c = f != f ? (dx10 ? 0.0f : p) : c;
    return bf32(clamp ? c : p);
}

VFN void vd32_slow(wave *w, const xinst *x, u32 *d, int fk, u64 wm) {
    const isa_valu_fields *v = &x->in.f.v;
    u32 *D = vdreg(w, &x->in.dst[0]);
    if (fk == FK_F32 && (v->omod || v->clamp)) {
        const float scale = (float)omod_of(w, x);
        const int clamp = v->clamp, dx10 = (w->mode & MODE_DX10_CLAMP) != 0;
        for (int l = 0; l < LANES; l++)
            d[l] = omod_clamp32(d[l], scale, clamp, dx10);
    }
    if (fk == FK_F32 && fk_flush_out(w->mode, fk))
        for (int l = 0; l < LANES; l++)
            if (!(d[l] & 0x7f800000u))
                d[l] &= 0x80000000u;
    if (x->in.variant == ISA_VAR_SDWA && x->in.dst[0].kind != ISA_OPND_NONE)
        for (int l = 0; l < LANES; l++)
            d[l] = sdwa_dst(d[l], D[l], v->dst_sel, v->dst_unused);
    vstore(D, d, wm);
}

/* vd64() for f64 results (omod, clamp, denormal flushing) and partial EXEC or DPP masks (the
 * full-EXEC integer case is inline in valu.h). */
void vd64_slow(wave *w, const xinst *x, u64 *d, int fk) {
    const isa_valu_fields *v = &x->in.f.v;
    u64 wm = vwmask(w, x);
    const isa_opnd *o = &x->in.dst[0];
    if (fk == FK_F64 && (v->omod || v->clamp))
        for (int l = 0; l < LANES; l++) {
            double r = f64(d[l]) * omod_of(w, x);
            d[l] = bf64(v->clamp ? clamp01(r, w->mode) : r);
        }
    if (fk == FK_F64 && fk_flush_out(w->mode, fk))
        for (int l = 0; l < LANES; l++)
            if (!(d[l] & 0x7ff0000000000000ull))
                d[l] &= 1ull << 63;
    u32 *lo = vdreg(w, o), *hi = o->kind == ISA_OPND_AGPR ? w->a[o->idx + 1] : w->v[o->idx + 1];
    u32 dl[LANES], dh[LANES];
    for (int l = 0; l < LANES; l++) {
        dl[l] = (u32)d[l];
        dh[l] = (u32)(d[l] >> 32);
    }
    vstore(lo, dl, wm);
    vstore(hi, dh, wm);
}

void vd16(wave *w, const xinst *x, u32 *d, int fk, int preserve) {
    const isa_valu_fields *v = &x->in.f.v;
    u64 wm = vwmask(w, x);
    u32 *D = vdreg(w, &x->in.dst[0]);
    if (fk == FK_F16 && (v->omod || v->clamp))
        for (int l = 0; l < LANES; l++) {
            double r = h2d(d[l] & 0xffff) * omod_of(w, x);
            d[l] = d2h(v->clamp ? clamp01(r, w->mode) : r);
        }
    for (int l = 0; l < LANES; l++)
        d[l] &= 0xffff;
    if (fk == FK_F16 && fk_flush_out(w->mode, fk))
        for (int l = 0; l < LANES; l++)
            if (!(d[l] & 0x7c00))
                d[l] &= 0x8000;
    if (x->in.variant == ISA_VAR_SDWA) {
        vd32_slow(w, x, d, FK_RAW, wm);
        return;
    }
    int hi = vop3_dst_hi(x);
    /* RDNA's 16-bit VGPR halves: a 16-bit result replaces its half and keeps the other (RDNA3
     * ISA "16-bit VGPRs"; gfx12's fake16 code only names low halves) */
    preserve |= (x->xf & XI_RDNA) != 0;
    for (int l = 0; l < LANES; l++)
        d[l] = hi ? (D[l] & 0xffff) | d[l] << 16 : preserve ? (D[l] & 0xffff0000u) | d[l] : d[l];

    vstore(D, d, wm);
}

/* ---- data movement ------------------------------------------------------------------------- */

VFN static void v_nop(wave *w, const xinst *x) { (void)w, (void)x; }

V1(v_mov_b32, FK_I32, a)

/* v_accvgpr_read/write/mov_b32 between two registers, no modifier (exec.c mov_rr_fits): a row
 * copy.  Through v_mov_b32's general path the AGPR source was copied into a temporary first
 * (vs32_slow) and the result again into the destination: 12-30 ns against v_mov_b32's 1-3.  A
 * clang -O0 kernel's SGPR spills move their VGPR through an AGPR twice per use. */
VFN void x_mov_rr(wave *w, const xinst *x) {
    const isa_opnd *s = &x->in.src[0];
    const u32 *S = s->kind == ISA_OPND_AGPR ? w->a[s->idx] : w->v[s->idx];
    u32 *D = vdreg(w, &x->in.dst[0]);
    u64 e = wave_exec(w);
    if (S == D)
        return;
    if (e == ~0ull) {
        x_row_copy(D, S, 0);
        return;
    }
    vstore(D, S, e);
}

VFN static void v_mov_b64(wave *w, const xinst *x) {
    u64 t[LANES];
    const u64 *a = vs64(w, x, 0, t, FK_RAW);
    if (a != t)
        memcpy(t, a, sizeof t);
    vd64(w, x, t, FK_RAW);
}

/* D = VCC[lane] ? S1 : S0 (the mask is an SGPR pair in the VOP3 form). */
VFN static void v_cndmask_b32(wave *w, const xinst *x) {
    u32 t0[LANES], t1[LANES], d[LANES];
    u32 sel[LANES];
    vunpack(vmask_src(w, x, 2), sel);
    if (vplain(w, x, FK_M32)) { /* straight into the destination, a wave32 wave's lanes only */
        const u32 *A = vs32p(w, x, 0, t0, FK_M32), *B = vs32p(w, x, 1, t1, FK_M32);
        VDIRECT(D[l] = vsel(sel[l], B[l], A[l]));
        return;
    }
    const u32 *A = vs32(w, x, 0, t0, FK_M32), *B = vs32(w, x, 1, t1, FK_M32);
    VLOOP(l) d[l] = vsel(sel[l], B[l], A[l]);
    vd32(w, x, d, FK_M32);
}

/* The first active lane (lane 0 when EXEC is 0). */
VFN static void v_readfirstlane_b32(wave *w, const xinst *x) {
    u32 t[LANES];
    u64 e = wave_exec(w);
    const u32 *a = vs32(w, x, 0, t, FK_RAW);
    x_sd32(w, x, a[e ? __builtin_ctzll(e) : 0]);
}

VFN static void v_readlane_b32(wave *w, const xinst *x) {
    u32 t[LANES];
    const u32 *a = vs32(w, x, 0, t, FK_RAW);
    x_sd32(w, x, a[x_s32(w, x, 1) & 63]);
}

/* Writes one lane regardless of EXEC. */
VFN static void v_writelane_b32(wave *w, const xinst *x) {
    vdreg(w, &x->in.dst[0])[x_s32(w, x, 1) & 63] = x_s32(w, x, 0);
}

/* Count of set mask bits below this lane (bits 31:0 / 63:32 of the mask), plus S1.  The
 * population count by shifts and masks, and the lane's mask by a 32-bit shift: the lane loops
 * vectorize (with __builtin_popcount they were a popcnt per lane; AVX-512 hosts without
 * VPOPCNTDQ have no vector form of it). */
static inline u32 popc32(u32 v) {
    v = v - ((v >> 1) & 0x55555555u);
    v = (v & 0x33333333u) + ((v >> 2) & 0x33333333u);
    v = (v + (v >> 4)) & 0x0f0f0f0fu;
    v += v >> 8; /* adds, not the usual multiply: gcc turns that form back into popcnt */
    return (v + (v >> 16)) & 0x3f;
}
V2(v_mbcnt_lo_u32_b32, FK_I32, popc32(a &(l >= 32 ? ~0u : ~(~0u << (l & 31)))) + b)
V2(v_mbcnt_hi_u32_b32, FK_I32, popc32(a &(l < 32 ? 0u : ~(~0u << (l & 31)))) + b)

VFN static void v_swap_b32(wave *w, const xinst *x) {
    u32 *D = vdreg(w, &x->in.dst[0]), *S = vdreg(w, &x->in.src[0]);
    u64 e = wave_exec(w);
    for (int l = 0; l < LANES; l++)
        if ((e >> l) & 1) {
            u32 t = D[l];
            D[l] = S[l];
            S[l] = t;
        }
}

/* D[31:0] = op_sel[0] ? S0[63:32] : S0[31:0]; D[63:32] = op_sel[1] ? S1[63:32] : S1[31:0]. */
VFN static void v_pk_mov_b32(wave *w, const xinst *x) {
    u64 t0[LANES], t1[LANES];
    const u64 *a = vs64(w, x, 0, t0, FK_RAW), *b = vs64(w, x, 1, t1, FK_RAW);
    unsigned os = x->in.f.v.opsel;
    u64 d[LANES];
    VLOOP(l) {
        u32 lo = (u32)(os & 1 ? a[l] >> 32 : a[l]), hi = (u32)(os & 2 ? b[l] >> 32 : b[l]);
        d[l] = lo | (u64)hi << 32;
    }
    vd64(w, x, d, FK_RAW);
}

/* v_permlane16_swap (gfx950): rows 1 and 3 of vdst trade places with rows 0 and 2 of src0;
 * v_permlane32_swap: lanes 32..63 of vdst with lanes 0..31 of src0.  Both registers are
 * written, each lane where EXEC is set. */
static void permlane_swap(wave *w, const xinst *x, int half) {
    u32 *D = vdreg(w, &x->in.dst[0]), *S = vdreg(w, &x->in.src[0]);
    u32 od[LANES], os[LANES];
    u64 e = wave_exec(w);
    memcpy(od, D, sizeof od);
    memcpy(os, S, sizeof os);
    for (int l = 0; l < LANES; l++) {
        int hi = half == 32 ? l >= 32 : (l & 16) != 0;
        if (hi && ((e >> l) & 1))
            D[l] = os[l - half];
        if (!hi && ((e >> l) & 1))
            S[l] = od[l + half];
    }
}
VFN static void v_permlane16_swap_b32(wave *w, const xinst *x) { permlane_swap(w, x, 16); }
VFN static void v_permlane32_swap_b32(wave *w, const xinst *x) { permlane_swap(w, x, 32); }

const xhandler x_valu_handlers[] = {
    VH(v_nop, v_nop, ISA_T_B32),
    VHV(v_mov_b32, v_mov_b32, ISA_T_B32),
    VH(v_mov_b64, v_mov_b64, ISA_T_B64),
    VH(v_cndmask_b32, v_cndmask_b32, ISA_T_B32),
    VH(v_readfirstlane_b32, v_readfirstlane_b32, ISA_T_B32),
    VH(v_readlane_b32, v_readlane_b32, ISA_T_B32),
    VH(v_writelane_b32, v_writelane_b32, ISA_T_B32),
    VHV(v_mbcnt_lo_u32_b32, v_mbcnt_lo_u32_b32, ISA_T_B32),
    VHV(v_mbcnt_hi_u32_b32, v_mbcnt_hi_u32_b32, ISA_T_B32),
    VHV(v_accvgpr_read_b32, v_mov_b32, ISA_T_B32),
    VHV(v_accvgpr_write_b32, v_mov_b32, ISA_T_B32),
    VHV(v_accvgpr_mov_b32, v_mov_b32, ISA_T_B32),
    VH(v_swap_b32, v_swap_b32, ISA_T_B32),
    VH(v_pk_mov_b32, v_pk_mov_b32, ISA_T_B64),
    VH(v_clrexcp, v_nop, ISA_T_B32),
    VH(v_permlane16_swap_b32, v_permlane16_swap_b32, ISA_T_B32),
    VH(v_permlane32_swap_b32, v_permlane32_swap_b32, ISA_T_B32),
};
const unsigned x_valu_nhandlers = sizeof x_valu_handlers / sizeof x_valu_handlers[0];
