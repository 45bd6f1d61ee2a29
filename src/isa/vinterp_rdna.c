/* vinterp_rdna.c - RDNA's VINTERP encoding (v_interp_p10/p2 f32, f16 and rtz forms), gfx1100
 * and gfx1201: decode into isa_inst, print LLVM 22's text.
 *
 * Layout (RDNA3 / RDNA4 ISA manuals, "VINTERP"; bit positions checked against LLVM 22):
 *   w0: 11001101 op[22:16] clamp[15] op_sel[14:11] (src0, src1, src2, dst) wait_exp[10:8]
 *       vdst[7:0]
 *   w1: neg[31:29] src2[26:18] src1[17:9] src0[8:0]; a source of 255 reads a literal dword.
 *
 * The operand text (VGPR halves on gfx11's f16 ops, LLVM's notes on scalar and constant
 * encodings, which the hardware does not accept) is looked up in gen/vinterp_rdna.inc
 * (tools/isagen/vinterp_rdna.py), per op, operand, neg and op_sel bit.
 *
 * Operands: dst[0] vdst (VGPR; .imm = ISA_HALF_H when op_sel[3] names the high half of a
 * 16-bit destination); src[0..2] as encoded (isa_src9: VGPR, SGPR, constant or literal);
 * v.neg, v.opsel, v.clamp; the wait_exp field in isa_inst.flags.
 */
#include "isa/isa.h"

struct vi_row {
    uint16_t op;       /* ISA_OP_*; 0: illegal */
    uint32_t zero[2];  /* bits of w0[15:0] and w1 that must be zero */
    uint8_t opsel_ok;  /* op_sel bits the op accepts; bit 7: it prints them */
    uint8_t lit_ok;    /* sources that may be a literal */
    int16_t tab[4][4]; /* [src0, src1, src2, dst][neg * 2 + op_sel bit] -> vi_tok row */
};

#include "isa/gen/vinterp_rdna.inc"

#define VI_LIT 255

static const struct vi_row *vi_rows(unsigned arch) {
    return isa_targets[arch].rdna >= 12 ? vi_gfx1201 : vi_gfx1100;
}

size_t isa_dec_vinterp_rdna(isa_arch arch, isa_fmt f, const uint32_t *w, size_t nw, isa_inst *in) {
    (void)f;
    if (!isa_is_rdna(arch) || nw < 2)
        return 0;
    unsigned op = (w[0] >> 16) & 0x7f;
    const struct vi_row *r = &vi_rows(arch)[op];
    if (!r->op || (w[0] & r->zero[0] & 0xffff) || (w[1] & r->zero[1]))
        return 0;
    isa_valu_fields *v = &in->f.v;
    unsigned opsel = (w[0] >> 11) & 0xf, neg = w[1] >> 29;
    size_t size = 8;
    for (int s = 0; s < 3; s++) {
        unsigned enc = (w[1] >> (9 * s)) & 0x1ff;
        int sel = opsel >> s & 1, ng = neg >> s & 1;
        int t = r->tab[s][ng * 2 + sel];
        if (enc == VI_LIT && t >= 0 &&
            vi_str[vi_tok[t][0]][vi_str[vi_tok[t][0]][0] == '-'] == 'v') {
            /* gfx11's 16-bit sources read the field's low 8 bits as a VGPR: 255 is v255 */
            enc = 256 + 255;
        } else if (enc == VI_LIT) {
            if (!(r->lit_ok >> s & 1) || nw < 3)
                return 0;
            in->lit = w[2];
            size = 12;
        } else if (t < 0 || !vi_tok[t][enc]) {
            return 0;
        }
        isa_src9(&in->src[s], enc, 1);
    }
    int t = r->tab[3][opsel >> 3 & 1];
    if (t < 0 || !vi_tok[t][w[0] & 0xff])
        return 0;
    in->op = r->op;
    in->encop = (uint16_t)op;
    in->info = NULL;
    in->ndst = 1;
    in->nsrc = 3;
    isa_reg_opnd(&in->dst[0], ISA_OPND_VGPR, w[0] & 0xff, 1);
    v->neg = (uint8_t)neg;
    v->opsel = (uint8_t)opsel;
    v->clamp = (uint8_t)((w[0] >> 15) & 1);
    in->flags = (uint16_t)((w[0] >> 8) & 7); /* wait_exp */
    return size;
}

void isa_print_vinterp_rdna(isa_buf *b, const isa_inst *in) {
    const struct vi_row *r = &vi_rows(in->arch)[in->encop];
    const isa_valu_fields *v = &in->f.v;
    isa_puts(b, isa_op_names[in->op]);
    isa_printf(b, " %s", vi_str[vi_tok[r->tab[3][v->opsel >> 3 & 1]][in->dst[0].idx]]);
    for (int s = 0; s < 3; s++) {
        unsigned enc = in->src[s].kind == ISA_OPND_LITERAL ? VI_LIT : (in->w[1] >> (9 * s)) & 0x1ff;
        int ng = v->neg >> s & 1;
        isa_puts(b, ", ");
        if (enc == VI_LIT && in->src[s].kind == ISA_OPND_VGPR)
            enc = 256 + 255;
        if (enc == VI_LIT) {
            /* LLVM prints the literal as an immediate with its invalid-immediate note, in
             * neg(...) when negated */
            if (ng)
                isa_puts(b, "neg(");
            isa_put_lit_as_imm(b, in->lit);
            isa_puts(b, "/*Invalid immediate*/");
            if (ng)
                isa_puts(b, ")");
        } else {
            isa_puts(b, vi_str[vi_tok[r->tab[s][ng * 2 + (v->opsel >> s & 1)]][enc]]);
        }
    }
    if (v->clamp)
        isa_puts(b, " clamp");
    if (v->opsel && (r->opsel_ok & 0x80))
        isa_put_bit_list(b, "op_sel", 4, v->opsel);
    isa_printf(b, " wait_exp:%u", in->flags & 7);
}
