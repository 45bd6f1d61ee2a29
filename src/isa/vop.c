/* vop.c - VOP1, VOP2 and VOPC: the 32-bit VALU encodings and their literal, SDWA and DPP forms.
 *
 * Encodings (CDNA3/CDNA4 ISA manuals, "Vector ALU instructions"):
 *   VOP2  [31]=0        op[30:25] vdst[24:17] vsrc1[16:9] src0[8:0]
 *   VOP1  [31:25]=0x3f  vdst[24:17] op[16:9] src0[8:0]
 *   VOPC  [31:25]=0x3e  op[24:17] vsrc1[16:9] src0[8:0]
 * src0 = 255 appends a 32-bit literal, 249 (0xF9) an SDWA dword, 250 (0xFA) a DPP dword:
 *   SDWA  src0[7:0] dst_sel[10:8] dst_unused[12:11] clamp[13] omod[15:14] (VOPC: sdst[14:8]
 *         sd[15]) src0_sel[18:16] src0_sext[19] src0_neg[20] src0_abs[21] s0[23]
 *         src1_sel[26:24] src1_sext[27] src1_neg[28] src1_abs[29] s1[31]
 *   DPP   src0[7:0] dpp_ctrl[16:8] bound_ctrl[19] src0_neg[20] src0_abs[21] src1_neg[22]
 *         src1_abs[23] bank_mask[27:24] row_mask[31:28]
 *
 * Everything op-specific (mnemonic, operand widths and roles, which forms exist, which bits of
 * the SDWA/DPP dword LLVM accepts) comes from the generated tables in gen/vop.inc.
 *
 * The decoded record (what the execution engine reads):
 *   dst[0]  vdst (VGPR, or AGPR for v_accvgpr_mov_b32; an SGPR for v_readfirstlane_b32);
 *           VOPC: VCC, or the SDWA sdst when its SD bit is set
 *   dst[1]  VCC for carry-out ops (v_add_co_u32...), EXEC for v_cmpx_*, src0's VGPR for v_swap_b32
 *   src[0]  src0 (register, inline constant, or ISA_OPND_LITERAL with the value in in->lit; for a
 *           64-bit float source the literal is the high half, info->src_t[0] gives the type)
 *   src[1]  vsrc1; madmk/fmamk: the K literal, with vsrc1 in src[2]; madak/fmaak: K in src[2]
 *   then    VCC for carry-in ops and v_cndmask_b32; vdst for accumulating ops (mac, fmac,
 *           dot*c) and for v_swap_b32 -- these implicit sources follow the printed ones
 *   f.v     SDWA: dst_sel, dst_unused, clamp, omod, src*_sel, sext/neg/abs (bit i = source i),
 *           sdwa_s0/s1; DPP: dpp_ctrl, row_mask, bank_mask, bound_ctrl, neg/abs.
 *   v_nop has no operands but may carry a DPP dword (8 bytes, printed as controls only).
 *
 * SDWA selector value 7 (dst_sel, src0_sel, src1_sel) makes LLVM 22 itself crash, so there is no
 * reference text; the manual defines selectors 0-6 only, so we decode 7 as illegal.
 */
#include "isa/isa.h"

#include <string.h>

/* Per-op data that does not fit isa_opinfo (parallel tables in gen/vop.inc). */
typedef struct vop_extra {
    uint32_t dpp_ok;     /* DPP second-dword bits LLVM accepts */
    uint32_t dpp_shown;  /* ... and those it prints: neg/abs exist only for float sources */
    uint32_t sdwa_shown; /* SDWA bits LLVM prints (integer sources ignore neg/abs) */
    uint16_t rc;         /* register-class name indices: dst | src0 << 4 | src1 << 8 */
} vop_extra;

#include "isa/gen/vop.inc"

#define VCC_ENC 106
#define EXEC_ENC 126

/* Row for an opcode (NULL if LLVM has none); *x receives its vop_extra row. */
static const struct {
    const isa_opinfo *t[3]; /* VOP2, VOP1, VOPC */
    const vop_extra *x[3];
} vop_targets[ISA_NARCH] = {
    [ISA_GFX942] = {{vop_vop2_gfx942, vop_vop1_gfx942, vop_vopc_gfx942},
                    {vop_x_vop2_gfx942, vop_x_vop1_gfx942, vop_x_vopc_gfx942}},
    [ISA_GFX950] = {{vop_vop2_gfx950, vop_vop1_gfx950, vop_vopc_gfx950},
                    {vop_x_vop2_gfx950, vop_x_vop1_gfx950, vop_x_vopc_gfx950}},
    [ISA_GFX90A] = {{vop_vop2_gfx90a, vop_vop1_gfx90a, vop_vopc_gfx90a},
                    {vop_x_vop2_gfx90a, vop_x_vop1_gfx90a, vop_x_vopc_gfx90a}},
};

static const isa_opinfo *table(isa_arch a, isa_fmt f, unsigned op, const vop_extra **x) {
    int k = f == ISA_FMT_VOP2 ? 0 : f == ISA_FMT_VOP1 ? 1 : 2;
    unsigned n = k == 0 ? 62 : 256;
    if ((unsigned)a >= ISA_NARCH)
        return NULL;
    const isa_opinfo *t = vop_targets[a].t[k];
    const vop_extra *e = vop_targets[a].x[k];
    if (op >= n || !(t[op].flags & VF_E32))
        return NULL;
    if (x)
        *x = &e[op];
    return &t[op];
}

static const vop_extra *extra_of(const isa_inst *in) {
    const vop_extra *x = NULL;
    table((isa_arch)in->arch, (isa_fmt)in->fmt, in->encop, &x);
    return x;
}

static void set_sreg(isa_opnd *o, unsigned enc, unsigned n) {
    isa_reg_opnd(o, ISA_OPND_SREG, enc, n);
}

static void set_vreg(isa_opnd *o, unsigned idx, unsigned n, int agpr) {
    isa_reg_opnd(o, agpr ? ISA_OPND_AGPR : ISA_OPND_VGPR, idx, n);
}

/* Whether a scalar/constant source encoding is a legal operand of n dwords.  Reserved
 * encodings (209-229, 232-234) never are; 64-bit operands refuse the odd halves of named
 * pairs, m0, exec_hi, src_flat_scratch_base_hi and lds_direct. */
static int src_enc_ok(unsigned enc, unsigned n) {
    if ((enc >= 209 && enc <= 229) || (enc >= 232 && enc <= 234) || enc == 249 || enc == 250)
        return 0;
    if (n == 2 && (enc == 103 || enc == 105 || enc == 107 || enc == 124 || enc == 127 ||
                   enc == 231 || enc == 254))
        return 0;
    return 1;
}

/* Fill a source from a 9-bit field; 64-bit SGPR/TTMP pairs are forced even, as LLVM reads
 * them (it then warns about the odd encoding; see put_sreg_warning). */
static void src_from_enc(isa_opnd *o, unsigned enc, unsigned n, int agpr) {
    isa_src9(o, enc, n);
    if (o->kind == ISA_OPND_VGPR && agpr)
        o->kind = ISA_OPND_AGPR;
    if (o->kind == ISA_OPND_SREG && n == 2 && (enc <= 101 || (enc >= 108 && enc <= 123)))
        o->idx &= ~1u;
}

/* ---- decoding ------------------------------------------------------------------------- */

/* An SDWA source: a VGPR, or (its S bit set) a scalar operand, where a literal cannot go. */
static int sdwa_src(isa_opnd *o, unsigned enc, int scalar) {
    if (!scalar) {
        set_vreg(o, enc, 1, 0);
        return 1;
    }
    if (!src_enc_ok(enc, 1) || enc == 255)
        return 0;
    src_from_enc(o, enc, 1, 0);
    return 1;
}

static int dec_sdwa(const isa_opinfo *r, const vop_extra *x, isa_fmt f, uint32_t w0, uint32_t w1,
                    isa_inst *in) {
    static const uint32_t base[] = {[ISA_FMT_VOP2] = VOP_SDWA_BASE_VOP2,
                                    [ISA_FMT_VOP1] = VOP_SDWA_BASE_VOP1,
                                    [ISA_FMT_VOPC] = VOP_SDWA_BASE_VOPC};
    isa_valu_fields *v = &in->f.v;
    if (!(r->flags & VF_SDWA) || ((w1 ^ base[f]) & ~r->aux))
        return 0;
    /* bits LLVM accepts but ignores (neg/abs of integer sources, dst_unused of ops with a
     * fixed dst_sel) read as 0 */
    uint32_t m = w1 & (x->sdwa_shown | 0x008000ffu);
    unsigned s0sel = (w1 >> 16) & 7, s1sel = (w1 >> 24) & 7, dsel = (w1 >> 8) & 7;
    if (s0sel == 7 || (f != ISA_FMT_VOP1 && s1sel == 7) || (f != ISA_FMT_VOPC && dsel == 7))
        return 0;
    v->src0_sel = (uint8_t)s0sel;
    v->src1_sel = (uint8_t)(f == ISA_FMT_VOP1 ? 0 : s1sel);
    v->sext = (uint8_t)(((m >> 19) & 1) | ((m >> 26) & 2));
    v->neg = (uint8_t)(((m >> 20) & 1) | ((m >> 27) & 2));
    v->abs = (uint8_t)(((m >> 21) & 1) | ((m >> 28) & 2));
    v->sdwa_s0 = (uint8_t)((w1 >> 23) & 1);
    v->sdwa_s1 = (uint8_t)((w1 >> 31) & 1);
    if (f == ISA_FMT_VOPC) {
        v->sdst_valid = (uint8_t)((w1 >> 15) & 1);
        if (v->sdst_valid) {
            unsigned sd = (w1 >> 8) & 0x7f; /* a 64-bit scalar register, like a 64-bit source */
            if (!src_enc_ok(sd, 2))
                return 0;
            src_from_enc(&in->dst[0], sd, 2, 0);
        }
    } else {
        v->dst_sel = (uint8_t)dsel;
        v->dst_unused = (uint8_t)((m >> 11) & 3);
        v->clamp = (uint8_t)((w1 >> 13) & 1);
        v->omod = (uint8_t)((w1 >> 14) & 3);
    }
    if (!sdwa_src(&in->src[0], w1 & 0xff, v->sdwa_s0))
        return 0;
    return f == ISA_FMT_VOP1 || sdwa_src(&in->src[1], (w0 >> 9) & 0xff, v->sdwa_s1);
}

static int dec_dpp(const isa_opinfo *r, const vop_extra *x, uint32_t w1, isa_inst *in) {
    isa_valu_fields *v = &in->f.v;
    if (!(r->flags & VF_DPP) || ((w1 ^ VOP_DPP_BASE) & ~x->dpp_ok))
        return 0;
    isa_dpp16_fields(v, w1, x->dpp_shown); /* neg/abs of integer sources: accepted, ignored */
    set_vreg(&in->src[0], w1 & 0xff, r->src_n[0], 0);
    return 1;
}

size_t isa_dec_vop(isa_arch arch, isa_fmt f, const uint32_t *w, size_t nw, isa_inst *in) {
    uint32_t w0 = w[0];
    unsigned op = isa_vop_opcode(f, w0), vdst = (w0 >> 17) & 0xff, vsrc1 = (w0 >> 9) & 0xff,
             src0 = w0 & 0x1ff;
    const vop_extra *x = NULL;
    const isa_opinfo *r = table(arch, f, op, &x);
    if (!r)
        return 0;
    in->info = r;
    in->encop = (uint16_t)op;
    in->op = r->op;
    in->variant = ISA_VAR_E32;
    size_t size = 4;

    if (r->flags & VF_NOOPND) { /* v_nop/v_clrexcp: vdst must be 0; src0 is ignored... */
        if (vdst != 0)
            return 0;
        if (src0 != 0xfa || !(r->flags & VF_DPP))
            return 4;
        /* ...except that LLVM reads v_nop's DPP dword (and prints its controls) when that
         * dword is a valid one; otherwise the word is a plain 4-byte v_nop */
        if (nw < 2 || !dec_dpp(r, x, w[1], in)) {
            memset(&in->f.v, 0, sizeof in->f.v);
            in->src[0].kind = ISA_OPND_NONE;
            return 4;
        }
        in->src[0].kind = ISA_OPND_NONE;
        in->variant = ISA_VAR_DPP;
        return 8;
    }

    int agpr = (r->flags & VF_AGPR) != 0;
    unsigned n0 = r->src_n[0];
    /* destinations */
    if (f == ISA_FMT_VOPC) {
        set_sreg(&in->dst[in->ndst++], VCC_ENC, 2);
        if (r->flags & VF_CMPX)
            set_sreg(&in->dst[in->ndst++], EXEC_ENC, 2);
    } else if (r->flags & VF_SDST) {
        /* LLVM decodes this field like a source operand (constants included) */
        if (!src_enc_ok(vdst, 1))
            return 0;
        src_from_enc(&in->dst[in->ndst++], vdst, 1, 0);
        if (vdst == 255 && !(size = isa_take_literal(in, w, nw, 4)))
            return 0;
    } else {
        set_vreg(&in->dst[in->ndst++], vdst, r->dst_n[0], agpr);
        if (r->flags & VF_VCC_DST)
            set_sreg(&in->dst[in->ndst++], VCC_ENC, 2);
    }

    /* src0 and its extension dword */
    if (src0 == 0xf9 || src0 == 0xfa) {
        if (nw < 2 || agpr || (r->flags & (VF_VONLY | VF_SDST)))
            return 0;
        int ok = src0 == 0xf9 ? dec_sdwa(r, x, f, w0, w[1], in) : dec_dpp(r, x, w[1], in);
        if (!ok)
            return 0;
        in->variant = src0 == 0xf9 ? ISA_VAR_SDWA : ISA_VAR_DPP;
        size = 8;
    } else {
        if (!src_enc_ok(src0, n0))
            return 0;
        src_from_enc(&in->src[0], src0, n0, agpr);
        if ((src0 == 255 || (r->flags & (VF_LIT_MK | VF_LIT_AK))) &&
            !(size = isa_take_literal(in, w, nw, 4)))
            return 0;
    }
    in->nsrc = 1;
    if (in->variant != ISA_VAR_SDWA && f != ISA_FMT_VOP1) {
        isa_opnd *s1 = &in->src[(r->flags & VF_LIT_MK) ? 2 : 1];
        set_vreg(s1, vsrc1, r->src_n[1], 0);
    }
    if (f != ISA_FMT_VOP1)
        in->nsrc = 2;
    if (r->flags & (VF_LIT_MK | VF_LIT_AK)) {
        isa_opnd *k = &in->src[(r->flags & VF_LIT_MK) ? 1 : 2];
        k->kind = ISA_OPND_LITERAL;
        k->n = 1;
        k->idx = 255;
        in->nsrc = 3;
    }
    if (r->flags & VF_VCC_SRC)
        set_sreg(&in->src[in->nsrc++], VCC_ENC, 2);
    /* implicit operands for the engine, after the printed ones */
    if (r->flags & VF_TIED)
        in->src[in->nsrc++] = in->dst[0];
    if (r->flags & VF_SWAP) {
        in->dst[in->ndst++] = in->src[0];
        in->src[in->nsrc++] = in->dst[0];
    }
    return size;
}

/* ---- printing ------------------------------------------------------------------------- */

static const char *rc_name(const isa_inst *in, int slot) {
    const vop_extra *x = extra_of(in);
    unsigned i = x ? (x->rc >> (4 * slot)) & 0xf : 0;
    return i < sizeof vop_rc_names / sizeof vop_rc_names[0] ? vop_rc_names[i] : "";
}

static void put_invalid_reg(isa_buf *b, const char *cls) {
    isa_printf(b, "/*Invalid register, operand has '%s' register class*/", cls);
}

/* A constant where only registers are allowed: LLVM prints the value as a plain 32-bit
 * immediate followed by a note (also used by vop_rdna.c). */
void isa_dpp16_fields(isa_valu_fields *v, uint32_t w1, uint32_t shown) {
    v->dpp_ctrl = (uint16_t)((w1 >> 8) & 0x1ff);
    v->bound_ctrl = (uint8_t)((w1 >> 19) & 1);
    uint32_t m = w1 & shown;
    v->neg = (uint8_t)(((m >> 20) & 1) | ((m >> 21) & 2));
    v->abs = (uint8_t)(((m >> 21) & 1) | ((m >> 22) & 2));
    v->bank_mask = (uint8_t)((w1 >> 24) & 0xf);
    v->row_mask = (uint8_t)(w1 >> 28);
}

void isa_put_invalid_imm(isa_buf *b, const isa_inst *in, const isa_opnd *o) {
    if (o->kind == ISA_OPND_LITERAL) {
        uint32_t v = in->lit;
        isa_opnd t = {ISA_OPND_INLINE, 1, 0, 0};
        if ((int32_t)v >= -16 && (int32_t)v <= 64)
            isa_printf(b, "%d", (int)(int32_t)v);
        else {
            int k = -1;
            for (int i = 0; i < 9; i++)
                if (v == isa_f32_inline_bits[i])
                    k = i;
            if (k >= 0) {
                t.idx = (uint16_t)(240 + k);
                isa_put_opnd(b, in, &t, ISA_T_F32);
            } else {
                isa_printf(b, "0x%x", v);
            }
        }
    } else {
        isa_put_opnd(b, in, o, ISA_T_F32);
    }
    isa_puts(b, "/*Invalid immediate*/");
}

/* One operand, with the notes LLVM adds for registers of the wrong class or alignment. */
static void put_opnd(isa_buf *b, const isa_inst *in, const isa_opnd *o, int type, const char *cls,
                     int vonly) {
    if (vonly && (o->kind == ISA_OPND_INLINE || o->kind == ISA_OPND_LITERAL)) {
        isa_put_invalid_imm(b, in, o);
        return;
    }
    isa_put_opnd(b, in, o, type);
    /* VGPR-only sources: SGPRs but null, and lds_direct unless the class allows it */
    if (vonly && ((o->kind == ISA_OPND_SREG && o->idx != 125) ||
                  (o->kind == ISA_OPND_SPECIAL && o->idx == 254 && strcmp(cls, "VRegOrLds_32"))))
        put_invalid_reg(b, cls);
    else if (o->n == 2 && (o->kind == ISA_OPND_VGPR || o->kind == ISA_OPND_AGPR) && (o->idx & 1))
        put_invalid_reg(b, cls);
}

/* "-|v1|", "sext(v1)" */
static void put_src_mod(isa_buf *b, const isa_inst *in, int i, int type, const char *cls) {
    const isa_valu_fields *v = &in->f.v;
    int neg = (v->neg >> i) & 1, abs = (v->abs >> i) & 1, sext = (v->sext >> i) & 1;
    /* LLVM writes neg(c) for a negated constant without abs, as "-" could read as its sign */
    int negf = neg && !abs && in->src[i].kind == ISA_OPND_INLINE;
    if (negf)
        isa_puts(b, "neg(");
    else if (neg)
        isa_puts(b, "-");
    if (abs)
        isa_puts(b, "|");
    if (sext)
        isa_puts(b, "sext(");
    put_opnd(b, in, &in->src[i], type, cls, 0);
    if (sext)
        isa_puts(b, ")");
    if (abs)
        isa_puts(b, "|");
    if (negf)
        isa_puts(b, ")");
}

static const char *const sel_names[] = {"BYTE_0", "BYTE_1", "BYTE_2", "BYTE_3",
                                        "WORD_0", "WORD_1", "DWORD",  "?"};
static const char *const unused_names[] = {"UNUSED_PAD", "UNUSED_SEXT", "UNUSED_PRESERVE",
                                           "UNUSED_PAD"};

static void put_dpp_ctrl(isa_buf *b, const isa_inst *in) {
    unsigned c = in->f.v.dpp_ctrl;
    if ((in->info->flags & VF_DPALU) && !(c >= 0x150 && c <= 0x15f)) {
        isa_puts(b, " /* DP ALU dpp only supports row_newbcast */");
        return;
    }
    isa_put_dpp_ctrl(b, c, 0);
}

static void put_dpp_tail(isa_buf *b, const isa_inst *in) {
    const isa_valu_fields *v = &in->f.v;
    isa_puts(b, " ");
    put_dpp_ctrl(b, in);
    isa_printf(b, " row_mask:0x%x bank_mask:0x%x", v->row_mask, v->bank_mask);
    if (v->bound_ctrl)
        isa_puts(b, " bound_ctrl:1");
}

/* LLVM's note for an odd 64-bit SGPR/TTMP encoding, appended after the instruction. */
static void put_sreg_warning(isa_buf *b, unsigned enc) {
    if (enc <= 101 && (enc & 1))
        isa_printf(b, " ; Warning: SGPR_64: scalar reg isn't aligned %u", enc);
    else if (enc >= 108 && enc <= 123 && (enc & 1))
        isa_printf(b, " ; Warning: TTMP_64: scalar reg isn't aligned %u", enc - 108);
}

void isa_print_vop(isa_buf *b, const isa_inst *in) {
    const isa_opinfo *r = in->info;
    const isa_valu_fields *v = &in->f.v;
    int sdwa = in->variant == ISA_VAR_SDWA, dpp = in->variant == ISA_VAR_DPP;
    isa_puts(b, isa_op_names[in->op]);
    if (r->flags & VF_NOOPND) {
        if (dpp) /* v_nop with a DPP dword: no suffix, controls only */
            put_dpp_tail(b, in);
        return;
    }
    if (sdwa)
        isa_puts(b, "_sdwa");
    else if (dpp)
        isa_puts(b, "_dpp");
    else if (!(r->flags & VF_NOSUFFIX))
        isa_puts(b, "_e32");
    isa_puts(b, " ");
    int warn = -1; /* raw encoding of an odd scalar pair to warn about */

    /* destination */
    if (in->fmt == ISA_FMT_VOPC) {
        if (sdwa && v->sdst_valid) {
            unsigned sd = (in->w[1] >> 8) & 0x7f;
            isa_put_opnd(b, in, &in->dst[0], ISA_T_B64);
            warn = (int)sd;
        } else {
            isa_puts(b, "vcc");
        }
    } else if (r->flags & VF_SDST) {
        const isa_opnd *d = &in->dst[0];
        if (d->kind == ISA_OPND_INLINE || d->kind == ISA_OPND_LITERAL)
            isa_put_invalid_imm(b, in, d);
        else {
            isa_put_opnd(b, in, d, ISA_T_B32);
            if ((d->kind == ISA_OPND_SREG && d->idx == 124) ||
                (d->kind == ISA_OPND_SPECIAL && d->idx == 254))
                put_invalid_reg(b, rc_name(in, 0));
        }
    } else {
        put_opnd(b, in, &in->dst[0], ISA_T_B32, rc_name(in, 0), 0);
        if (r->flags & VF_VCC_DST)
            isa_puts(b, ", vcc");
    }

    /* printed sources, in table order */
    int nprint = in->fmt == ISA_FMT_VOP1 ? 1 : 2;
    if (r->flags & (VF_LIT_MK | VF_LIT_AK))
        nprint = 3;
    for (int i = 0; i < nprint; i++) {
        const isa_opnd *o = &in->src[i];
        isa_puts(b, ", ");
        if (o->kind == ISA_OPND_LITERAL && o->idx == 255 && (r->flags & (VF_LIT_MK | VF_LIT_AK)) &&
            i == ((r->flags & VF_LIT_MK) ? 1 : 2)) {
            isa_printf(b, "0x%x", in->lit); /* the K constant always prints in hex */
            continue;
        }
        int role = i == 0 ? 0 : 1; /* the K literal was handled above */
        int type = r->src_t[role];
        const char *cls = rc_name(in, 1 + role);
        if (sdwa || dpp) {
            if (dpp && role == 0)
                cls = "VReg_64_Align2"; /* a DPP src0 is always a VGPR */
            put_src_mod(b, in, role, type, cls);
        } else {
            put_opnd(b, in, o, type, cls, role == 0 && (r->flags & VF_VONLY));
            if (role == 0 && o->kind == ISA_OPND_SREG && o->n == 2)
                warn = (int)(in->w[0] & 0xff);
        }
    }
    if (r->flags & VF_VCC_SRC)
        isa_puts(b, ", vcc");

    if (sdwa) {
        if (in->fmt != ISA_FMT_VOPC) {
            if (v->clamp)
                isa_puts(b, " clamp");
            static const char *const omod[] = {"", " mul:2", " mul:4", " div:2"};
            isa_puts(b, omod[v->omod & 3]);
            /* ops whose SDWA dst is fixed (v_cvt_f32_fp8: dst_sel DWORD) print no dst_* */
            const vop_extra *x = extra_of(in);
            if (x && (x->sdwa_shown & (1u << 11)))
                isa_printf(b, " dst_sel:%s dst_unused:%s", sel_names[v->dst_sel],
                           unused_names[v->dst_unused & 3]);
        }
        isa_printf(b, " src0_sel:%s", sel_names[v->src0_sel]);
        if (in->fmt != ISA_FMT_VOP1)
            isa_printf(b, " src1_sel:%s", sel_names[v->src1_sel]);
    } else if (dpp) {
        put_dpp_tail(b, in);
    }
    if (warn >= 0)
        put_sreg_warning(b, (unsigned)warn);
}
