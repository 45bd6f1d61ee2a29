/* vop3.c - the 64-bit VALU encodings: VOP3A/VOP3B (VOP1/VOP2/VOPC opcodes in their _e64 form and
 * the VOP3-only ops), VOP3P packed math, MAI (MFMA, SMFMAC, v_accvgpr_read/write) and gfx950's
 * 128-bit scaled MFMA.
 *
 * Encoding (CDNA3/CDNA4 ISA manuals, "VOP3A", "VOP3B", "VOP3P", "VOP3P-MAI"):
 *   w0: [31:26] 110100, op[25:16] (VOP3P: [31:23] 110100111, op[22:16], i.e. op 0x380..0x3ff here),
 *       [15:8] modifiers (VOP3A clamp/op_sel/abs, VOP3B clamp + sdst[14:8], VOP3P clamp/op_sel_hi2/
 *       op_sel/neg_hi, MAI acc_cd/abid/cbsz), vdst[7:0];
 *   w1: [31:27] modifiers (VOP3A neg/omod, VOP3P neg_lo/op_sel_hi, MAI blgp/acc), src2[26:18],
 *       src1[17:9], src0[8:0];  gfx950 adds a literal dword when a source is 255 (gfx942 has none).
 * What each of the 13 modifier bits means is measured per opcode by tools/isagen/vop3.py (a role
 * table), as is every operand field's class (which encodings LLVM accepts or annotates), so the
 * decoder below is one loop over tables rather than per-op code.
 *
 * The scaled MFMA (v_mfma_scale_f32_{16x16x128,32x32x64}_f8f6f4) is a v_mfma_ld_scale_b32 word
 * pair (op 0x3ac: scale sources in src0/src1, their op_sel/op_sel_hi) directly followed by the
 * f8f6f4 MFMA with op_sel[0] (w0 bit 11) set: 16 bytes, printed as one instruction.
 */
#include "isa/isa.h"

#include <stdio.h>
#include <string.h>

/* Role kinds of a modifier bit (isa.h has the kind << 3 | index layout and the common kinds). */
enum {
    VR_MNEG = VR_NCOMMON,
    VR_CBSZ,
    VR_ABID,
    VR_BLGP,
    VR_BITOP3,
    VR_ACC_CD,
    VR_ACC,
    VR_FI,
    VR_BC
};

/* isa_opinfo.flags */
enum {
    VF_E64 = 1 << 0,   /* a VOP1/VOP2/VOPC opcode in VOP3 form: mnemonic gets _e64 */
    VF_DST_V = 1 << 1, /* vdst is a VGPR (AGPR with acc_cd) */
    VF_DST_S = 1 << 2, /* vdst field holds a scalar destination (VOPC sdst, v_readlane) */
    VF_DST_A = 1 << 3, /* vdst is an AGPR (v_accvgpr_write) */
    VF_SDST = 1 << 4,  /* VOP3B: carry-out sdst in w0[14:8] */
};
#define VF_SRC_A(i) (1u << (8 + (i))) /* source i is an AGPR (v_accvgpr_read) */
#define VF_CD_SRC2 (1u << 12)         /* MFMA: acc_cd selects AGPRs for src2 (C) as for vdst */

/* isa_inst.flags: a scaled MFMA (w[0..1] the ld_scale word pair, w[2..3] the MFMA) */
enum { VOP3_SCALED = 1 };

struct vop3_class {
    const char *name; /* LLVM's register class, printed in its "Invalid register" note */
    uint16_t n;       /* number of encodings of the field */
    /* per encoding: '0' illegal, '1' ok, '2' invalid register, '3' invalid immediate */
    const char *modes;
};

struct vop3_row {
    isa_opinfo i;
    uint8_t role[13];                                  /* w0 bits 8..15, then w1 bits 27..31 */
    uint8_t opsel_n, ophi_n, neglo_n, neghi_n, mneg_n; /* printed list lengths */
    uint8_t ophi_def;                                  /* op_sel_hi value LLVM does not print */
    uint8_t cls[9];     /* operand classes: vdst, sdst, src0, src1, src2, then (MAI) vdst, src0,
                         * src1, src2 with their accumulator-select bit set */
    uint8_t vdst_probe; /* 0: the op has no vdst and the field must be 0 */
};

#include "isa/gen/vop3.inc"

#define NROWS(t) (sizeof t / sizeof t[0])

static const struct {
    const struct vop3_row *rows;
    size_t n;
} vop3_targets[ISA_NARCH] = {
    [ISA_GFX942] = {vop3_rows_gfx942, NROWS(vop3_rows_gfx942)},
    [ISA_GFX950] = {vop3_rows_gfx950, NROWS(vop3_rows_gfx950)},
    [ISA_GFX90A] = {vop3_rows_gfx90a, NROWS(vop3_rows_gfx90a)},
};

static const struct vop3_row *find_row(isa_arch arch, unsigned op) {
    const struct vop3_row *t = vop3_targets[arch].rows;
    size_t lo = 0, hi = vop3_targets[arch].n;
    while (lo < hi) {
        size_t m = (lo + hi) / 2;
        if (t[m].i.encop == op)
            return &t[m];
        if (t[m].i.encop < op)
            lo = m + 1;
        else
            hi = m;
    }
    return NULL;
}

/* Per-operand note mode from the class table ('0'..'3'). */
static int class_mode(unsigned cls, unsigned enc) {
    const struct vop3_class *c = &vop3_classes[cls];
    return enc < c->n ? c->modes[enc] - '0' : 0;
}

/* Width of an f8f6f4 MFMA source from its format selector (cbsz for A, blgp for B):
 * fp8/bf8 8 dwords, fp6/bf6 6, fp4 4 (CDNA4 ISA, "Dense matrix ... F8F6F4"). */
static int f8f6f4_width(unsigned fmt) {
    static const int w[8] = {8, 8, 6, 6, 4, 8, 8, 8}; /* LLVM reads 5..7 as 8 dwords */
    return w[fmt & 7];
}

static int is_f8f6f4(unsigned op) {
    return op == ISA_OP_V_MFMA_F32_16X16X128_F8F6F4 || op == ISA_OP_V_MFMA_F32_32X32X64_F8F6F4;
}

/* Class of operand slot k (0 vdst, 1 sdst, 2 + s source s), following the MAI acc bits. */
static unsigned slot_class(const struct vop3_row *r, const isa_valu_fields *v, unsigned k) {
    if (k == 0 && v->acc_cd)
        return r->cls[5];
    if (k >= 2 && ((v->acc >> (k - 2)) & 1) && !(r->i.flags & VF_SRC_A(k - 2)))
        return r->cls[6 + k - 2];
    return r->cls[k];
}

/* A misaligned SGPR/TTMP tuple reads as the aligned one below it (LLVM warns, see put_operand). */
static unsigned sreg_align(unsigned enc, unsigned n) { return isa_sreg_align(enc, n, 101); }

/* Fill a register/constant operand from a 9-bit (or narrower) field; AGPR when agpr. */
static void set_opnd(isa_opnd *o, unsigned enc, unsigned n, int agpr) {
    isa_src9(o, enc, n);
    if (o->kind == ISA_OPND_VGPR && agpr)
        o->kind = ISA_OPND_AGPR;
    if (o->kind == ISA_OPND_SREG)
        o->idx = (uint16_t)sreg_align(enc, n);
}

/* Decode the modifier bits through the role table; returns 0 when a set bit is illegal. */
static int decode_mods(const struct vop3_row *r, const uint32_t *w, isa_valu_fields *v) {
    for (int k = 0; k < 13; k++) {
        unsigned bit = isa_vop3_mod_bit(w, k);
        unsigned kind = r->role[k] >> 3, idx = r->role[k] & 7;
        if (kind == VR_OPSEL_HI) {
            v->opsel_hi |= (uint8_t)(bit << idx);
            continue;
        }
        if (!bit)
            continue;
        switch (kind) {
        case VR_BAD: return 0;
        case VR_IGN: break;
        case VR_ABS: v->abs |= (uint8_t)(1 << idx); break;
        case VR_NEG:
        case VR_NEG_LO:
        case VR_MNEG: v->neg |= (uint8_t)(1 << idx); break;
        case VR_NEG_HI: v->neg_hi |= (uint8_t)(1 << idx); break;
        case VR_CLAMP: v->clamp = 1; break;
        case VR_OMOD: v->omod |= (uint8_t)(1 << idx); break;
        case VR_OPSEL: v->opsel |= (uint8_t)(1 << (k - 3)); break; /* w0[14:11]; bit 3 = dst */
        case VR_CBSZ: v->cbsz |= (uint8_t)(1 << idx); break;
        case VR_ABID: v->abid |= (uint8_t)(1 << idx); break;
        case VR_BLGP: v->blgp |= (uint8_t)(1 << idx); break;
        case VR_BITOP3: v->bitop3 |= (uint8_t)(1 << idx); break;
        case VR_ACC_CD: v->acc_cd = 1; break;
        case VR_ACC: v->acc |= (uint8_t)(1 << idx); break;
        case VR_FI: v->fi = 1; break;
        case VR_BC: v->bound_ctrl = 1; break;
        }
    }
    return 1;
}

/* Decode one VOP3/VOP3P/MAI instruction starting at w (nw words available); 0 = illegal. */
static size_t dec_one(isa_arch arch, const uint32_t *w, size_t nw, isa_inst *in) {
    unsigned op = (w[0] >> 16) & 0x3ff;
    const struct vop3_row *r = find_row(arch, op);
    isa_valu_fields *v = &in->f.v;
    if (!r || nw < 2)
        return 0;
    memset(v, 0, sizeof *v);
    if (!decode_mods(r, w, v))
        return 0;
    if (r->i.ndst == 0 && r->vdst_probe == 0 && (w[0] & 0xff))
        return 0;
    in->op = r->i.op;
    in->encop = (uint16_t)op;
    in->info = &r->i;
    in->variant = (r->i.flags & VF_E64) ? ISA_VAR_E64 : ISA_VAR_NONE;
    in->ndst = r->i.ndst;
    in->nsrc = r->i.nsrc;
    if (v->acc_cd && (r->i.flags & VF_CD_SRC2))
        v->acc |= 4;
    if (r->i.flags & VF_DST_V) {
        unsigned e = w[0] & 0xff;
        if (class_mode(slot_class(r, v, 0), e) == 0)
            return 0;
        set_opnd(&in->dst[0], 256 + e, r->i.dst_n[0], v->acc_cd);
    } else if (r->i.flags & VF_DST_A) {
        set_opnd(&in->dst[0], 256 + (w[0] & 0xff), r->i.dst_n[0], 1);
    } else if (r->i.flags & VF_DST_S) {
        unsigned e = w[0] & 0xff;
        if (class_mode(r->cls[0], e) == 0)
            return 0;
        set_opnd(&in->dst[0], e, r->i.dst_n[0], 0);
        v->sdst_valid = 1;
        if (e == 255) { /* LLVM reads a literal even here (and notes "Invalid immediate") */
            if (!isa_targets[arch].vop3_literal || nw < 3)
                return 0;
            in->lit = w[2];
        }
    }
    if (r->i.flags & VF_SDST) {
        unsigned e = (w[0] >> 8) & 0x7f;
        v->sdst_valid = 1;
        if (class_mode(r->cls[1], e) == 0)
            return 0;
        set_opnd(&in->dst[r->i.ndst - 1], e, r->i.dst_n[r->i.ndst - 1], 0);
    }
    size_t size = in->dst[0].kind == ISA_OPND_LITERAL ? 12 : 8;
    for (unsigned s = 0; s < r->i.nsrc && s < 3; s++) {
        unsigned e = (w[1] >> (9 * s)) & 0x1ff;
        unsigned n = r->i.src_n[s];
        if (is_f8f6f4(r->i.op) && s < 2) {
            n = (unsigned)f8f6f4_width(s == 0 ? v->cbsz : v->blgp);
            /* LLVM 22 has no 6/4-dword constants: it takes only the integers 0..64 there (and
             * prints them as 0); other constants are rejected */
            if (n != 8 && (e == 255 || (e > 192 && e < 256 && class_mode(r->cls[2 + s], e) == 3)))
                return 0;
        }
        if (class_mode(slot_class(r, v, 2 + s), e) == 0)
            return 0;
        int agpr = ((v->acc >> s) & 1) || ((r->i.flags & VF_SRC_A(s)) != 0);
        set_opnd(&in->src[s], e, n, agpr);
        if (e == 255) {
            if (!isa_targets[arch].vop3_literal || nw < 3)
                return 0; /* gfx942 VOP3 has no literal (LLVM 22 crashes on such words) */
            in->lit = w[2];
            size = 12;
        }
    }
    return size;
}

/* gfx950 scaled MFMA: v_mfma_ld_scale_b32 pair + f8f6f4 MFMA with op_sel[0] set. */
static size_t dec_scaled(isa_arch arch, const uint32_t *w, size_t nw, isa_inst *in) {
    if (!isa_targets[arch].scaled_mfma || nw < 4 || ((w[0] >> 16) & 0x3ff) != 0x3ac)
        return 0;
    if ((w[2] >> 23) != 0x1a7 || !(w[2] & (1u << 11)))
        return 0;
    unsigned mop = (w[2] >> 16) & 0x3ff;
    if (mop != 0x3ad && mop != 0x3ae)
        return 0;
    /* in the pair LLVM ignores the ld_scale word's vdst and all its modifier bits but op_sel[1:0]
     * (w0[12:11]) and op_sel_hi[1:0] (w1[28:27]) */
    uint32_t lw[2] = {(w[0] & 0xffff1800u) & ~0xffu, (w[1] & 0x07ffffffu) | (3u << 27)};
    isa_inst sc;
    memset(&sc, 0, sizeof sc);
    if (dec_one(arch, lw, 2, &sc) != 8)
        return 0;
    sc.f.v.opsel_hi = (uint8_t)((w[1] >> 27) & 3);
    for (unsigned s = 0; s < 2; s++) /* the pair has its own class for the scale sources */
        if (class_mode(VOP3_SCALE_CLASS, (w[1] >> (9 * s)) & 0x1ff) == 0)
            return 0;
    /* the MFMA word's op_sel[0] marks the pair; its other op_sel bits stay illegal */
    uint32_t mw[2] = {w[2] & ~(1u << 11), w[3]};
    if (dec_one(arch, mw, 2, in) != 8)
        return 0;
    in->op = in->op == ISA_OP_V_MFMA_F32_16X16X128_F8F6F4 ? ISA_OP_V_MFMA_SCALE_F32_16X16X128_F8F6F4
                                                          : ISA_OP_V_MFMA_SCALE_F32_32X32X64_F8F6F4;
    in->src[3] = sc.src[0];
    in->src[4] = sc.src[1];
    in->nsrc = 5;
    in->f.v.scale_opsel = sc.f.v.opsel;
    in->f.v.scale_opsel_hi = sc.f.v.opsel_hi;
    in->flags = VOP3_SCALED;
    return 16;
}

size_t isa_dec_vop3(isa_arch arch, isa_fmt f, const uint32_t *w, size_t nw, isa_inst *in) {
    (void)f;
    size_t n = dec_scaled(arch, w, nw, in);
    if (n)
        return n;
    memset(in->dst, 0, sizeof in->dst);
    memset(in->src, 0, sizeof in->src);
    in->flags = 0;
    return dec_one(arch, w, nw, in);
}

/* ---- printing ------------------------------------------------------------------------------ */

typedef struct {
    isa_buf *b;
    char warn[512]; /* LLVM's alignment warnings, appended after the text */
    size_t wl;
} pctx;

static void add_warning(pctx *c, const char *cls, unsigned bits, unsigned num) {
    static const char *const pre[2] = {" ; Warning: ", "Warning: "};
    int k = snprintf(c->warn + c->wl, sizeof c->warn - c->wl,
                     "%s%s_%u: scalar reg isn't aligned %u", pre[c->wl != 0], cls, bits, num);
    if (k > 0 && c->wl + (size_t)k < sizeof c->warn)
        c->wl += (size_t)k;
}

/* One operand: register/constant text, LLVM's class note, and an alignment warning. */
static void put_operand(pctx *c, const isa_inst *in, const isa_opnd *o, int type, unsigned cls,
                        unsigned enc, int neg, int abs, unsigned nbits_override) {
    char core[256];
    isa_buf cb = {core, sizeof core, 0}, *b = &cb;
    core[0] = 0;
    int mode = class_mode(cls, enc);
    if (o->kind == ISA_OPND_SREG && o->n > 1 && ((enc <= 101) || (enc >= 108 && enc <= 123))) {
        /* LLVM has no scalar tuple wider than 16: a 32-dword MFMA C in SGPRs prints as 16 */
        unsigned n = o->n > 16 ? 16 : o->n;
        unsigned base = enc <= 101 ? 0 : 108;
        if (n == 6 && !nbits_override) /* LLVM 22 lacks 192-bit scalar classes here: it */
            n = base ? 8 : 5;          /* shows TTMP_256 and SGPR_160 tuples instead */
        unsigned al = sreg_align(enc, n);
        isa_put_sreg(b, al, n);
        if (al != enc) /* f8f6f4 A/B: LLVM names the 8-dword class whatever the format */
            add_warning(c, base ? "TTMP" : "SGPR", nbits_override ? 256 : 32 * n, enc - base);
    } else if (o->kind == ISA_OPND_SREG && o->idx == 125) {
        isa_puts(b, "null");
    } else if (o->kind == ISA_OPND_INLINE && o->idx == 248 && type == ISA_T_F64) {
        isa_puts(b, "0.15915494309189532"); /* f64 MFMA C: any width */
    } else if (o->kind == ISA_OPND_INLINE && nbits_override && nbits_override != 256) {
        isa_puts(b, "0");
    } else if (o->kind == ISA_OPND_LITERAL && mode == 3) {
        isa_put_lit_as_imm(b, in->lit);
    } else {
        isa_put_opnd(b, in, o, type);
    }
    if (mode == 2) {
        const char *nm = vop3_classes[cls].name;
        char tmp[40];
        if (nbits_override) { /* f8f6f4 sources: the class follows the format's width */
            snprintf(tmp, sizeof tmp, "AV_%u_Align2", nbits_override);
            nm = tmp;
        }
        isa_printf(b, "/*Invalid register, operand has '%s' register class*/", nm);
    } else if (mode == 3) {
        isa_puts(b, "/*Invalid immediate*/");
    }
    isa_put_neg_abs(c->b, o, core, neg, abs);
}

static void put_value(isa_buf *b, const char *name, unsigned v) {
    if (v <= 10) /* LLVM prints small values in decimal */
        isa_printf(b, " %s:%u", name, v);
    else
        isa_printf(b, " %s:0x%x", name, v);
}

void isa_print_vop3(isa_buf *b, const isa_inst *in) {
    const struct vop3_row *r = (const struct vop3_row *)(const void *)in->info;
    const isa_valu_fields *v = &in->f.v;
    pctx c = {b, {0}, 0};
    if (!r) {
        isa_puts(b, "<unprinted>");
        return;
    }
    isa_puts(b, isa_op_names[in->op]);
    if (in->variant == ISA_VAR_E64)
        isa_puts(b, "_e64");
    const uint32_t *w = (in->flags & VOP3_SCALED) ? in->w + 2 : in->w;
    int first = 1;
    for (unsigned d = 0; d < in->ndst; d++) {
        isa_puts(b, first ? " " : ", ");
        first = 0;
        int sd = (r->i.flags & VF_SDST) && d + 1u == in->ndst;
        unsigned enc = sd ? (w[0] >> 8) & 0x7f : w[0] & 0xff;
        unsigned cls = slot_class(r, v, sd ? 1 : 0);
        put_operand(&c, in, &in->dst[d], ISA_T_B32, cls, enc, 0, 0, 0);
    }
    unsigned ns = in->nsrc > 3 ? 3 : in->nsrc;
    unsigned neg_prefix =
        v->neg & isa_vop3_role_mask(r->role, VR_NEG); /* neg_lo/MFMA neg print as lists */
    for (unsigned s = 0; s < ns; s++) {
        isa_puts(b, first ? " " : ", ");
        first = 0;
        unsigned enc = (w[1] >> (9 * s)) & 0x1ff;
        int neg = (neg_prefix >> s) & 1, abs = (v->abs >> s) & 1;
        unsigned ov = 0;
        if (is_f8f6f4(r->i.op) && s < 2 && in->src[s].n != 8)
            ov = 32u * in->src[s].n;
        put_operand(&c, in, &in->src[s], r->i.src_t[s], slot_class(r, v, 2 + s), enc, neg, abs, ov);
    }
    if (in->flags & VOP3_SCALED) { /* the two scale sources, then the ld_scale modifiers */
        for (unsigned s = 0; s < 2; s++) {
            unsigned enc = (in->w[1] >> (9 * s)) & 0x1ff;
            isa_puts(b, ", ");
            put_operand(&c, in, &in->src[3 + s], ISA_T_B32, VOP3_SCALE_CLASS, enc, 0, 0, 0);
        }
        if (v->scale_opsel & 3)
            isa_put_bit_list(b, "op_sel", 3, v->scale_opsel & 3);
        /* printed always: its third element has no bit, so it never equals LLVM's default */
        isa_put_bit_list(b, "op_sel_hi", 3, v->scale_opsel_hi & 3);
    }
    if (v->bitop3)
        put_value(b, "bitop3", v->bitop3);
    isa_vop3p_lists l = {r->role, r->opsel_n, r->ophi_n, r->neglo_n, r->neghi_n, r->ophi_def};
    isa_put_vop3p_lists(b, v, &l);
    if (v->cbsz)
        isa_printf(b, " cbsz:%u", v->cbsz);
    if (v->abid)
        isa_printf(b, " abid:%u", v->abid);
    if (v->blgp)
        isa_printf(b, " blgp:%u", v->blgp);
    if (r->mneg_n && v->neg)
        isa_put_bit_list(b, "neg", r->mneg_n, v->neg);
    if (v->bound_ctrl)
        isa_puts(b, " bound_ctrl:1");
    if (v->fi)
        isa_puts(b, " fi:1");
    if (c.wl)
        isa_puts(b, c.warn);
}
