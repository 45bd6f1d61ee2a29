/* vop_rdna.c - VOP1, VOP2 and VOPC on the RDNA targets (gfx1100, gfx1201): the 32-bit VALU
 * encodings and their literal forms, printed as LLVM 22 prints them (wave32 syntax: vcc_lo).
 *
 * The word layouts are CDNA's (RDNA3/RDNA4 ISA manuals, "VOP2", "VOP1", "VOPC"):
 *   VOP2  [31]=0        op[30:25] vdst[24:17] vsrc1[16:9] src0[8:0]
 *   VOP1  [31:25]=0x3f  vdst[24:17] op[16:9] src0[8:0]
 *   VOPC  [31:25]=0x3e  op[24:17] vsrc1[16:9] src0[8:0]
 * src0 = 255 appends a 32-bit literal.  There is no SDWA (249 is illegal); 250 (DPP16) and
 * 233/234 (DPP8, DPP8 with fetch-inactive) add a DPP dword (RDNA3 ISA "DPP16", "DPP8"):
 *   DPP16 src0[7:0] dpp_ctrl[16:8] fi[18] bound_ctrl[19] src0_neg[20] src0_abs[21] src1_neg[22]
 *         src1_abs[23] bank_mask[27:24] row_mask[31:28]
 *   DPP8  src0[7:0] lane_sel0..7[31:8] (3 bits each)
 * f.v holds dpp_ctrl, fi, bound_ctrl, row/bank masks and neg/abs; the DPP8 selectors are read
 * from the raw dword (in->w[1]) and in->flags has VR_INST_DPP8.
 *
 * 16-bit operands are true16 (RDNA3 ISA "16-bit VGPRs"): an 8-bit VGPR field names v0..v127,
 * bit 7 selecting the high half (v5.h) and 0 the low one (v5.l); a VGPR src0 is 256 + such a
 * field.  Which operands are halves, their widths, the literal type of src0 and which scalar/
 * constant encodings each operand accepts come from gen/vop_rdna.inc (tools/isagen/vop_rdna.py).
 *
 * The decoded record follows src/isa/vop.c's: dst[0] vdst (VGPR; SGPR for v_readfirstlane_b32;
 * vcc_lo for VOPC compares, exec_lo for v_cmpx), dst[1] vcc_lo for carry-outs and src0's VGPR
 * for v_swap_*; src[0] src0, src[1] vsrc1 (fmamk: K, vsrc1 in src[2]; fmaak: K in src[2]), then
 * vcc_lo for carry-ins, then vdst for the tied ops (fmac, dot2acc) and v_swap_*.
 */
#include "isa/isa.h"

#include <string.h>

struct vr_class {
    const char *name;  /* LLVM's register class, quoted in its invalid-register note */
    const char *modes; /* per encoding 0..255: '0' illegal, '1' ok, '2' note, '3' invalid imm */
};

struct vr_row {
    isa_opinfo i;
    uint8_t cls0;       /* src0 class */
    uint8_t clsd;       /* scalar-destination class (v_readfirstlane_b32) */
    uint8_t vrc0, vrc1; /* fake16: class LLVM names for a src0/vsrc1 VGPR above v127 (0: none) */
    uint8_t vrcd;       /* the same for the src0 of a DPP form */
    uint32_t dpp_shown; /* DPP16 bits LLVM prints (integer sources accept neg/abs, ignore them) */
};

enum { VR_INST_DPP8 = 1 }; /* isa_inst.flags */

#include "isa/gen/vop_rdna.inc"

#define VCC_LO 106
#define EXEC_LO 126

static const struct {
    const struct vr_row *t[3]; /* VOP2, VOP1, VOPC */
} vr_targets[ISA_NARCH] = {
    [ISA_GFX1100] = {{vr_vop2_gfx1100, vr_vop1_gfx1100, vr_vopc_gfx1100}},
    [ISA_GFX1201] = {{vr_vop2_gfx1201, vr_vop1_gfx1201, vr_vopc_gfx1201}},
};

static const struct vr_row *row_of(isa_arch a, isa_fmt f, unsigned op) {
    int k = f == ISA_FMT_VOP2 ? 0 : f == ISA_FMT_VOP1 ? 1 : 2;
    unsigned n = k == 0 ? 62 : 256;
    if ((unsigned)a >= ISA_NARCH || !vr_targets[a].t[k] || op >= n)
        return NULL;
    const struct vr_row *r = &vr_targets[a].t[k][op];
    return r->i.op ? r : NULL;
}

static int mode(unsigned cls, unsigned enc) {
    return enc < 256 ? vr_classes[cls].modes[enc] - '0' : 1;
}

static void set_reg(isa_opnd *o, int kind, unsigned idx, unsigned n, int half) {
    o->kind = (uint8_t)kind;
    o->idx = (uint16_t)idx;
    o->n = (uint8_t)n;
    o->imm = half;
}

/* An 8-bit VGPR field; a true16 operand splits it into register [6:0] and half [7]. */
static void set_vfield(isa_opnd *o, unsigned field, unsigned n, int t16) {
    if (t16)
        set_reg(o, ISA_OPND_VGPR, field & 0x7f, 1, field & 0x80 ? ISA_HALF_H : ISA_HALF_L);
    else
        set_reg(o, ISA_OPND_VGPR, field, n, 0);
}

/* SGPR/TTMP pairs are read as the even pair below an odd encoding (LLVM warns, see
 * put_warning); RDNA's SGPRs are s0..s105. */
static void set_src(isa_opnd *o, unsigned enc, unsigned n, int t16) {
    if (enc >= 256) {
        set_vfield(o, enc - 256, n, t16);
        return;
    }
    isa_src9(o, enc, n);
    if (o->kind == ISA_OPND_SREG && n == 2 && (enc <= 105 || (enc >= 108 && enc <= 123)))
        o->idx &= ~1u;
}

/* The DPP dword; 0 when the op has no such form or LLVM refuses a bit of it. */
static int dec_dpp(const struct vr_row *r, unsigned src0, uint32_t w1, isa_inst *in) {
    isa_valu_fields *v = &in->f.v;
    in->variant = ISA_VAR_DPP;
    if (src0 != 0xfa) {
        if (!(r->i.flags & VR_DPP8))
            return 0;
        in->flags = VR_INST_DPP8;
        v->fi = src0 == 0xea;
        return 1;
    }
    if (!(r->i.flags & VR_DPP16) || ((w1 ^ VR_DPP_BASE) & ~r->i.aux & ~0xffu))
        return 0;
    isa_dpp16_fields(v, w1, r->dpp_shown);
    v->fi = (uint8_t)((w1 >> 18) & 1);
    return 1;
}

size_t isa_dec_vop_rdna(isa_arch arch, isa_fmt f, const uint32_t *w, size_t nw, isa_inst *in) {
    uint32_t w0 = w[0];
    unsigned op = isa_vop_opcode(f, w0), vdst = (w0 >> 17) & 0xff, vsrc1 = (w0 >> 9) & 0xff,
             src0 = w0 & 0x1ff;
    const struct vr_row *r = row_of(arch, f, op);
    if (!r)
        return 0;
    uint32_t fl = r->i.flags;
    in->info = &r->i;
    in->encop = (uint16_t)op;
    in->op = r->i.op;
    in->variant = ISA_VAR_E32;
    if (fl & VR_NOOPND) /* v_nop, v_pipeflush: src0 is not read, not even a literal or DPP */
        return vdst == 0 && mode(r->cls0, src0) ? 4 : 0;
    int dpp = src0 == 0xfa || src0 == 0xe9 || src0 == 0xea;
    if (dpp) {
        if (nw < 2 || !dec_dpp(r, src0, w[1], in))
            return 0;
    } else if (mode(r->cls0, src0) == 0) {
        return 0;
    }
    size_t size = dpp ? 8 : 4;
    if ((src0 == 255 || (fl & (VR_LIT_MK | VR_LIT_AK))) && !(size = isa_take_literal(in, w, nw, 4)))
        return 0;

    /* destinations */
    if (fl & VR_CMP)
        set_reg(&in->dst[in->ndst++], ISA_OPND_SREG, VCC_LO, 1, 0);
    else if (fl & VR_CMPX)
        set_reg(&in->dst[in->ndst++], ISA_OPND_SREG, EXEC_LO, 1, 0);
    else if (fl & VR_SDST) {
        /* LLVM decodes this field like a source operand, literal included (the same dword
         * as src0's when both are 255) */
        if (mode(r->clsd, vdst) == 0)
            return 0;
        isa_src9(&in->dst[in->ndst++], vdst, 1);
        if (vdst == 255 && !(size = isa_take_literal(in, w, nw, 4)))
            return 0;
    } else {
        if ((fl & VR_LO128_DST) && vdst >= 128)
            return 0;
        set_vfield(&in->dst[in->ndst++], vdst, r->i.dst_n[0], (fl & VR_T16_DST) != 0);
        if (fl & VR_VCC_DST)
            set_reg(&in->dst[in->ndst++], ISA_OPND_SREG, VCC_LO, 1, 0);
    }

    /* sources */
    if (dpp)
        set_vfield(&in->src[0], w[1] & 0xff, r->i.src_n[0], (fl & VR_T16_S0) != 0);
    else
        set_src(&in->src[0], src0, r->i.src_n[0], (fl & VR_T16_S0) != 0);
    in->nsrc = 1;
    if (f != ISA_FMT_VOP1) {
        set_vfield(&in->src[(fl & VR_LIT_MK) ? 2 : 1], vsrc1, r->i.src_n[1], (fl & VR_T16_S1) != 0);
        in->nsrc = 2;
    }
    if (fl & (VR_LIT_MK | VR_LIT_AK)) {
        set_reg(&in->src[(fl & VR_LIT_MK) ? 1 : 2], ISA_OPND_LITERAL, 255, 1, 0);
        in->nsrc = 3;
    }
    if (fl & VR_VCC_SRC)
        set_reg(&in->src[in->nsrc++], ISA_OPND_SREG, VCC_LO, 1, 0);
    /* implicit operands for the engine, after the printed ones */
    if (fl & VR_TIED)
        in->src[in->nsrc++] = in->dst[0];
    if (fl & VR_SWAP) {
        in->dst[in->ndst++] = in->src[0];
        in->src[in->nsrc++] = in->dst[0];
    }
    return size;
}

/* ---- printing ------------------------------------------------------------------------- */

/* LLVM's note for an odd 64-bit SGPR/TTMP encoding, appended after the instruction. */
static void put_warning(isa_buf *b, unsigned enc) {
    if (enc <= 105 && (enc & 1))
        isa_printf(b, " ; Warning: SGPR_64: scalar reg isn't aligned %u", enc);
    else if (enc >= 108 && enc <= 123 && (enc & 1))
        isa_printf(b, " ; Warning: TTMP_64: scalar reg isn't aligned %u", enc - 108);
}

static void put_note(isa_buf *b, const char *cls) {
    isa_printf(b, "/*Invalid register, operand has '%s' register class*/", cls);
}

/* One scalar/constant/VGPR operand with the note its class asks for at this encoding; vrc:
 * the note for a VGPR above v127 (fake16 operands). */
static void put_classed(isa_buf *b, const isa_inst *in, const isa_opnd *o, unsigned enc,
                        unsigned cls, int type, unsigned vrc) {
    int m = mode(cls, enc);
    if (m == 3) {
        isa_put_invalid_imm(b, in, o);
        return;
    }
    isa_put_opnd(b, in, o, type);
    if (m == 2)
        put_note(b, vr_classes[cls].name);
    else if (vrc && o->kind == ISA_OPND_VGPR && o->idx >= 128)
        put_note(b, vr_rc_names[vrc]);
}

void isa_put_dpp_tail_rdna(isa_buf *b, const isa_valu_fields *v, int dpp8, uint32_t dword) {
    if (dpp8) {
        uint32_t sel = dword >> 8;
        /* LLVM 22 reads the selector field of some ops (VR_DPP8_INLINE) as an operand: 128..208
         * and 240..248 print as the lanes of that inline constant's 32-bit value (0xc5, -5:
         * [3,7,7,7,7,7,7,7]); the hardware uses the bits (found by the CI's random sweep) */
        if (dpp8 == 2 && sel >= 128 && sel <= 208)
            sel = sel <= 192 ? sel - 128 : (uint32_t)(192 - (int)sel);
        else if (dpp8 == 2 && sel >= 240 && sel <= 248)
            sel = isa_f32_inline_bits[sel - 240];
        isa_puts(b, " dpp8:[");
        for (int i = 0; i < 8; i++)
            isa_printf(b, "%s%u", i ? "," : "", (sel >> (3 * i)) & 7);
        isa_puts(b, v->fi ? "] fi:1" : "]");
        return;
    }
    unsigned c = v->dpp_ctrl;
    isa_puts(b, " ");
    isa_put_dpp_ctrl(b, c, 1);
    isa_printf(b, " row_mask:0x%x bank_mask:0x%x", v->row_mask, v->bank_mask);
    if (v->bound_ctrl)
        isa_puts(b, " bound_ctrl:1");
    if (v->fi)
        isa_puts(b, " fi:1");
}

/* A DPP source: a VGPR with its neg/abs bits, "-|v1|".  For gfx12 LLVM 22 closes the bars of
 * v_cndmask_b32's src1 after the vcc_lo that follows it ("-|v5, vcc_lo|"): tail. */
static void put_dpp_src(isa_buf *b, const isa_inst *in, int i, unsigned vrc, const char *tail) {
    int neg = (in->f.v.neg >> i) & 1, abs = (in->f.v.abs >> i) & 1;
    isa_puts(b, neg ? (abs ? "-|" : "-") : abs ? "|" : "");
    put_classed(b, in, &in->src[i], 256, 0, ISA_T_B32, vrc);
    if (abs && tail) {
        isa_puts(b, tail);
        tail = NULL;
    }
    if (abs)
        isa_puts(b, "|");
    if (tail)
        isa_puts(b, tail);
}

void isa_print_vop_rdna(isa_buf *b, const isa_inst *in) {
    const struct vr_row *r = (const struct vr_row *)in->info;
    uint32_t fl = r->i.flags;
    int dpp = in->variant == ISA_VAR_DPP;
    isa_puts(b, isa_op_names[in->op]);
    if (fl & VR_NOOPND)
        return;
    if (dpp) {
        if (fl & VR_DPP_SUFFIX)
            isa_puts(b, "_dpp");
    } else if (!(fl & VR_NOSUFFIX)) {
        isa_puts(b, "_e32");
    }
    isa_puts(b, " ");
    const char *sep = "";
    if (fl & VR_CMP) {
        isa_puts(b, "vcc_lo");
        sep = ", ";
    } else if (fl & VR_SDST) {
        put_classed(b, in, &in->dst[0], (in->w[0] >> 17) & 0xff, r->clsd, ISA_T_B32, 0);
        sep = ", ";
    } else if (!(fl & VR_CMPX)) {
        isa_put_opnd(b, in, &in->dst[0], ISA_T_B32);
        if (fl & VR_VCC_DST)
            isa_puts(b, ", vcc_lo");
        sep = ", ";
    }
    unsigned src0 = in->w[0] & 0x1ff;
    isa_puts(b, sep);
    if (dpp)
        put_dpp_src(b, in, 0, r->vrcd, NULL);
    else
        put_classed(b, in, &in->src[0], src0, r->cls0, r->i.src_t[0], r->vrc0);
    int nprint = in->fmt == ISA_FMT_VOP1 ? 1 : (fl & (VR_LIT_MK | VR_LIT_AK)) ? 3 : 2;
    for (int i = 1; i < nprint; i++) {
        const isa_opnd *o = &in->src[i];
        isa_puts(b, ", ");
        if (dpp && i == 1)
            put_dpp_src(b, in, 1, r->vrc1,
                        (fl & VR_VCC_SRC) && isa_targets[in->arch].rdna >= 12 ? ", vcc_lo" : NULL);
        else if (o->kind == ISA_OPND_LITERAL)
            isa_printf(b, "0x%x", in->lit); /* the K constant always prints in hex */
        else
            put_classed(b, in, o, 256, 0, ISA_T_B32, r->vrc1);
    }
    if ((fl & VR_VCC_SRC) && !(dpp && isa_targets[in->arch].rdna >= 12))
        isa_puts(b, ", vcc_lo");
    if (dpp)
        isa_put_dpp_tail_rdna(b, &in->f.v,
                              !(in->flags & VR_INST_DPP8) ? 0
                              : (fl & VR_DPP8_INLINE)     ? 2
                                                          : 1,
                              in->w[1]);
    else if (in->src[0].kind == ISA_OPND_SREG && in->src[0].n == 2)
        put_warning(b, src0);
}
