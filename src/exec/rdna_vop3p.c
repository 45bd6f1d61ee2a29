/* rdna_vop3p.c - the RDNA dot-product ops (gfx1100 RDNA3, gfx1201 RDNA4) with their allowlist
 * rows (src/exec/rdna.c's format; rdna.c reads this table too).
 *
 * What is here, each after the RDNA3/RDNA4 ISA manuals' pseudocode ("VOP3P" and "VOP3" opcode
 * tables):
 *   - v_dot2_f32_f16, v_dot2_f32_bf16 (VOP3P) and gfx11's v_dot2acc_f32_f16 (VOP2, S2 = D):
 *     D.f32 = S0.lo * S1.lo + S0.hi * S1.hi + S2.f32;
 *   - v_dot2_f16_f16, v_dot2_bf16_bf16 (VOP3): the same with a 16-bit S2 and result;
 *   - v_dot4_i32_iu8, v_dot8_i32_iu4: NEG[0] / NEG[1] say whether S0 / S1 elements are signed
 *     ("Figure out whether inputs are signed/unsigned"), S2 is an i32;
 *   - gfx12's v_dot4_f32_{fp8,bf8}_{fp8,bf8}: four products of OCP fp8 (E4M3) / bf8 (E5M2)
 *     elements plus S2.f32.
 * The unsigned integer dots (v_dot4_u32_u8, v_dot8_u32_u4) and the packed ops whose CDNA
 * handlers follow the same pseudocode are RUN rows in rdna.c.
 *
 * Modelling choices the manuals leave open:
 *   - Rounding: the products of 16-bit and 8-bit floats are exact; the pseudocode adds them to
 *     S2 one by one ("tmp += ...") without saying how wide tmp is.  The sum is rounded once to
 *     the result format, as the CDNA handlers of v_dot2_f32_f16 do (valu_f16.c), so one model
 *     serves every target.  Inputs are read as they are (denormals are not flushed), results
 *     are rounded to nearest even.
 *   - S2 of the f32-result ops is an f32 in a packed encoding.  clang-22 negates it by setting
 *     both neg_lo[2] and neg_hi[2] (and never sets op_sel[2] or clears op_sel_hi[2]); that
 *     negates S2.  Any other combination of those bits has no meaning the manuals give, so the
 *     wave faults with a note instead of guessing.
 *   - clamp on the f32 results clamps to [0, 1] (a NaN becomes 0), as for every f32 VALU result;
 *     on the integer ones it saturates to the signed 32-bit range.
 *   - VOP3 neg/abs on a packed S0/S1 of v_dot2_f16_f16 / v_dot2_bf16_bf16 apply to both halves
 *     (how LLVM folds a negated or absolute half2 into the instruction). */
#include "exec/fpfmt.h"
#include "exec/rdna.h"
#include "exec/valu.h"

/* f32 values of the float inline constants 240..248 (RDNA3 ISA "Inline constants"): S2 of the
 * f16 dots is an f32 operand although the rows resolve constants for their packed sources. */
static const u32 inline_f32[9] = {0x3f000000, 0xbf000000, 0x3f800000, 0xbf800000, 0x40000000,
                                  0xc0000000, 0x40800000, 0xc0800000, 0x3e22f983};

/* S2.f32 of a VOP3P dot op into C (with its negation applied), or 0 after a fault.  sel: the
 * op has op_sel/op_sel_hi bits for S2 (the f16/bf16 dots; the fp8 ones have none, the decoder
 * refuses them set). */
static int dot_src2_f32(wave *w, const xinst *x, u32 *C, int sel) {
    const isa_valu_fields *v = &x->in.f.v;
    int nl = (v->neg >> 2) & 1, nh = (v->neg_hi >> 2) & 1;
    if (nl != nh || (sel && (((v->opsel >> 2) & 1) || !((v->opsel_hi >> 2) & 1)))) {
        wave_fault(w, x, XF_UNIMPLEMENTED);
        w->fault.note = "neg_lo[2]/neg_hi[2] differing, op_sel[2] or op_sel_hi[2]=0 on the f32 S2 "
                        "of a dot op (the ISA manuals give these no meaning)";
        return 0;
    }
    const isa_opnd *o = &x->in.src[2];
    u32 t[LANES], sign = nl ? 0x80000000u : 0;
    const u32 *S = vs32(w, x, 2, t, FK_RAW);
    if (o->kind == ISA_OPND_INLINE && o->idx >= 240 && o->idx <= 248) {
        u32 k = inline_f32[o->idx - 240];
        VLOOP(l) t[l] = k;
        S = t;
    }
    VLOOP(l) C[l] = S[l] ^ sign;
    return 1;
}

static inline float clamp01f(float f, int clamp) {
    if (!clamp)
        return f;
    return f != f || f <= 0.0f ? 0.0f : f >= 1.0f ? 1.0f : f;
}
static inline double bf2d(u32 h) { return (double)f32((h & 0xffff) << 16); }

/* D.f32 = S0.lo * S1.lo + S0.hi * S1.hi + C (16-bit halves: bf selects bf16 over f16). */
static void dot2_f32(wave *w, const xinst *x, const u32 *C, int bf) {
    u32 al[LANES], ah[LANES], bl[LANES], bh[LANES], d[LANES];
    pk_src16(w, x, 0, al, ah, 2); /* op_sel/op_sel_hi/neg_lo/neg_hi; halves read as they are */
    pk_src16(w, x, 1, bl, bh, 2);
    int cl = x->in.f.v.clamp;
    VLOOP(l) {
        /* each product is exact in double; their sum is too unless the two are more than about
         * 2^31 apart, where the smaller one can only matter as a tie-breaker */
        double s = bf ? bf2d(al[l]) * bf2d(bl[l]) + bf2d(ah[l]) * bf2d(bh[l])
                      : h2d(al[l]) * h2d(bl[l]) + h2d(ah[l]) * h2d(bh[l]);
        d[l] = bf32(clamp01f((float)fma_odd(1.0, s, (double)f32(C[l])), cl));
    }
    vd32(w, x, d, FK_RAW);
}
static void v_dot2_f32_f16(wave *w, const xinst *x) {
    u32 C[LANES];
    if (dot_src2_f32(w, x, C, 1))
        dot2_f32(w, x, C, 0);
}
static void v_dot2_f32_bf16(wave *w, const xinst *x) {
    u32 C[LANES];
    if (dot_src2_f32(w, x, C, 1))
        dot2_f32(w, x, C, 1);
}
/* gfx11 VOP2: D.f32 = S0.lo * S1.lo + S0.hi * S1.hi + D.f32 */
static void v_dot2acc_f32_f16(wave *w, const xinst *x) {
    u32 C[LANES];
    const u32 *D = vdreg(w, &x->in.dst[0]);
    VLOOP(l) C[l] = D[l];
    dot2_f32(w, x, C, 0);
}

/* VOPD V_DUAL_DOT2ACC_F32_BF16 (RDNA3 ISA "VOPD X-Instructions" 13): the bf16 form of the
 * above, D.f32 = S0.lo * S1.lo + S0.hi * S1.hi + D.f32 on bf16 halves, rounded once like
 * V_DOT2_F32_BF16; an inline constant is its bf16 value in both halves ("Duplicate lo to hi",
 * RDNA3 ISA "Inline Constants with Packed Math").  It has no VOP2 twin: the VOPD half runs it
 * under its own op id (rdna.c vopd_ops). */
static void v_dual_dot2acc_f32_bf16(wave *w, const xinst *x) {
    u32 C[LANES];
    const u32 *D = vdreg(w, &x->in.dst[0]);
    VLOOP(l) C[l] = D[l];
    dot2_f32(w, x, C, 1);
}

/* v_dot2_f16_f16 / v_dot2_bf16_bf16 (VOP3): D.16 = S0.lo * S1.lo + S0.hi * S1.hi + S2.16.
 * op_sel[2] picks S2's half, op_sel[3] the destination half (the other half is kept, RDNA3 ISA
 * "16-bit VGPRs"); neg/abs apply to both halves of S0/S1 and to S2. */
static void dot2_16(wave *w, const xinst *x, int bf) {
    const isa_valu_fields *v = &x->in.f.v;
    u32 t[3][LANES], s[2][LANES], d[LANES];
    for (int i = 0; i < 2; i++) {
        const u32 *S = vs32(w, x, i, t[i], FK_RAW);
        u32 ab = (v->abs >> i) & 1 ? 0x7fff7fffu : 0xffffffffu;
        u32 ng = (v->neg >> i) & 1 ? 0x80008000u : 0;
        if (x->in.src[i].kind == ISA_OPND_INLINE) { /* a packed inline constant is the splat */
            u32 k = (u32)x->k[i] & 0xffff;
            VLOOP(l) s[i][l] = ((k | k << 16) & ab) ^ ng;
        } else {
            VLOOP(l) s[i][l] = (S[l] & ab) ^ ng;
        }
    }
    const u32 *S2 = vs32(w, x, 2, t[2], FK_RAW);
    int hi2 = (v->opsel >> 2) & 1;
    u32 ab2 = (v->abs >> 2) & 1 ? 0x7fffu : 0xffffu, ng2 = (v->neg >> 2) & 1 ? 0x8000u : 0;
    VLOOP(l) {
        u32 a = s[0][l], b = s[1][l], c = (((hi2 ? S2[l] >> 16 : S2[l]) & 0xffff) & ab2) ^ ng2;
        double p, cc;
        if (bf) {
            p = bf2d(a) * bf2d(b) + bf2d(a >> 16) * bf2d(b >> 16);
            cc = bf2d(c);
        } else {
            p = h2d(a & 0xffff) * h2d(b & 0xffff) + h2d(a >> 16) * h2d(b >> 16);
            cc = h2d(c);
        }
        double r = fma_odd(1.0, p, cc); /* round to odd, then once to the 16-bit format */
        if (r != r) { /* the first NaN operand (S0.lo, S1.lo, S0.hi, S1.hi, S2), as valu.h
                       * hw_add's rule; none: an invalid operation's default NaN */
            u32 in[5] = {a & 0xffff, b & 0xffff, a >> 16, b >> 16, c};
            r = f64(0xfff8000000000000ull);
            for (int k = 0; k < 5; k++) {
                double e = bf ? bf2d(in[k]) : h2d(in[k]);
                if (e != e) {
                    r = e;
                    break;
                }
            }
        }
        d[l] = bf ? d2bf(r) : d2h(r);
    }
    vd16(w, x, d, FK_RAW, 1); /* FK_RAW: no f16 flushing of bf16 bits */
}
static void v_dot2_f16_f16(wave *w, const xinst *x) { dot2_16(w, x, 0); }
static void v_dot2_bf16_bf16(wave *w, const xinst *x) { dot2_16(w, x, 1); }

/* v_dot4_i32_iu8 / v_dot8_i32_iu4: elements of S0 (S1) are signed when NEG[0] (NEG[1]) is set,
 * else unsigned; the sum with S2.i32 is exact in 64 bits, then wraps, or saturates with clamp. */
static void dot_iu(wave *w, const xinst *x, int bits) {
    u32 t0[LANES], t1[LANES], t2[LANES], d[LANES];
    const isa_valu_fields *v = &x->in.f.v;
    const u32 *A = vs32(w, x, 0, t0, FK_RAW), *B = vs32(w, x, 1, t1, FK_RAW),
              *C = vs32(w, x, 2, t2, FK_RAW);
    int sa = v->neg & 1, sb = (v->neg >> 1) & 1, cl = v->clamp;
    u32 m = (1u << bits) - 1, top = 1u << (bits - 1);
    VLOOP(l) {
        i64 acc = (i32)C[l];
        for (int e = 0; e < 32; e += bits) {
            u32 a = (A[l] >> e) & m, b = (B[l] >> e) & m;
            i64 ia = sa && (a & top) ? (i64)a - (i64)(m + 1) : (i64)a;
            i64 ib = sb && (b & top) ? (i64)b - (i64)(m + 1) : (i64)b;
            acc += ia * ib;
        }
        if (cl)
            acc = acc > INT32_MAX ? INT32_MAX : acc < INT32_MIN ? INT32_MIN : acc;
        d[l] = (u32)acc;
    }
    vd32(w, x, d, FK_RAW);
}
static void v_dot4_i32_iu8(wave *w, const xinst *x) { dot_iu(w, x, 8); }
static void v_dot8_i32_iu4(wave *w, const xinst *x) { dot_iu(w, x, 4); }

/* gfx12 v_dot4_f32_<a>_<b>: D.f32 = sum of four products of S0.a[i] * S1.b[i] + S2.f32, OCP
 * fp8 (E4M3) and bf8 (E5M2) as RDNA4 reads them (its WMMA ops use the same formats).  Each
 * product is exact (<= 8 significant bits); the sum is rounded once to f32. */
static void dot4_f8(wave *w, const xinst *x, const fpf_format *fa, const fpf_format *fb) {
    u32 t0[LANES], t1[LANES], C[LANES], d[LANES];
    if (!dot_src2_f32(w, x, C, 0))
        return;
    const u32 *A = vs32(w, x, 0, t0, FK_RAW), *B = vs32(w, x, 1, t1, FK_RAW);
    int cl = x->in.f.v.clamp;
    VLOOP(l) {
        double s = 0;
        for (int e = 0; e < 32; e += 8)
            s += (double)fpf_decode((A[l] >> e) & 0xff, fa) *
                 (double)fpf_decode((B[l] >> e) & 0xff, fb);
        d[l] = bf32(clamp01f((float)fma_odd(1.0, s, (double)f32(C[l])), cl));
    }
    vd32(w, x, d, FK_RAW);
}
static void v_dot4_f32_fp8_fp8(wave *w, const xinst *x) { dot4_f8(w, x, FPF_FP8_OCP, FPF_FP8_OCP); }
static void v_dot4_f32_fp8_bf8(wave *w, const xinst *x) { dot4_f8(w, x, FPF_FP8_OCP, FPF_BF8_OCP); }
static void v_dot4_f32_bf8_fp8(wave *w, const xinst *x) { dot4_f8(w, x, FPF_BF8_OCP, FPF_FP8_OCP); }
static void v_dot4_f32_bf8_bf8(wave *w, const xinst *x) { dot4_f8(w, x, FPF_BF8_OCP, FPF_BF8_OCP); }

/* OWNV: these handlers fetch and write through the VALU framework, so their DPP16/DPP8 forms
 * (v_dot2_f32_f16/bf16 and the fp8 dots in VOP3P, v_dot2acc_f32_f16 in VOP2) run too */
/* clang-format off */
const rdna_row x_rdna_vop3p_rows[] = {
    OWNV(v_dot2_f32_f16, ISA_T_V2F16, v_dot2_f32_f16),
    OWNV(v_dot2_f32_bf16, ISA_T_V2BF16, v_dot2_f32_bf16),
    OWNV(v_dot2acc_f32_f16, ISA_T_V2F16, v_dot2acc_f32_f16),
    OWNV(v_dual_dot2acc_f32_bf16, ISA_T_V2BF16, v_dual_dot2acc_f32_bf16),
    OWNV16(v_dot2_f16_f16, ISA_T_V2F16, v_dot2_f16_f16),
    OWNV16(v_dot2_bf16_bf16, ISA_T_V2BF16, v_dot2_bf16_bf16),
    OWN(v_dot4_i32_iu8, ISA_T_B32, v_dot4_i32_iu8),
    OWN(v_dot8_i32_iu4, ISA_T_B32, v_dot8_i32_iu4),
    OWNV(v_dot4_f32_fp8_fp8, ISA_T_B32, v_dot4_f32_fp8_fp8),
    OWNV(v_dot4_f32_fp8_bf8, ISA_T_B32, v_dot4_f32_fp8_bf8),
    OWNV(v_dot4_f32_bf8_fp8, ISA_T_B32, v_dot4_f32_bf8_fp8),
    OWNV(v_dot4_f32_bf8_bf8, ISA_T_B32, v_dot4_f32_bf8_bf8),
};
const unsigned x_rdna_vop3p_nrows = sizeof x_rdna_vop3p_rows / sizeof x_rdna_vop3p_rows[0];
/* clang-format on */
