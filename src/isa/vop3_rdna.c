/* vop3_rdna.c - the VOP3 and VOP3P encodings on the RDNA targets (gfx1100, gfx1201): VOP1/VOP2/
 * VOPC opcodes in their _e64 form, the VOP3-only ops and the VOP3 SDST forms (v_add_co_u32,
 * v_div_scale_*, v_mad_u64_u32, ...), packed math (v_pk_*, dot ops, v_fma_mix*, WMMA), with a
 * literal dword or a DPP16/DPP8 dword, printed as LLVM 22 does.
 *
 * Layout (RDNA3/RDNA4 ISA manuals, "VOP3", "VOP3 SDST", "DPP16", "DPP8"):
 *   w0: [31:26] 110101, op[25:16], clamp[15], op_sel[14:11] (SDST form: sdst[14:8]), abs[10:8],
 *       vdst[7:0];
 *   w1: neg[31:29], omod[28:27], src2[26:18], src1[17:9], src0[8:0].
 * VOP3P: w0[31:24] 11001100, op[22:16], clamp[15], op_sel_hi[2] [14], op_sel[13:11],
 *   neg_hi[10:8], vdst[7:0]; w1: neg_lo[31:29], op_sel_hi[1:0] [28:27], src2, src1, src0.
 * src0 = 0xFA adds a DPP16 dword, 0xE9/0xEA a DPP8 dword (0xEA: fi); the dword's low byte is
 * src0's VGPR.  Otherwise a source of 255 adds one literal dword shared by all such sources.
 *
 * As in src/isa/vop3.c, what each modifier bit means, which encodings each operand field accepts
 * (and which LLVM annotates) and how constants print are measured per opcode and per form by
 * tools/isagen/vop3_rdna.py; this file is one loop over those tables.  RDNA additions:
 *   - true16 operands (gfx11 16-bit ops): a VGPR prints v5.l, or v5.h when the op_sel bit of
 *     its slot is set (op_sel[k] for source k, op_sel[3] for vdst; RDNA3 ISA "16-bit VGPRs");
 *   - ALT bits: an op_sel bit the true16 form has no operand for makes LLVM decode the op's
 *     fake16 form instead (plain registers, op_sel ignored); that form has its own row;
 *   - the wave32 syntax: scalar destinations are one SGPR (s5, vcc_lo).
 *
 * Decoded record: dst[0] vdst (VGPR, or the SGPR(s) of a VOPC sdst / v_readlane), dst[1] the
 * SDST form's carry-out; src[0..2] src0..src2 (a DPP src0 is the VGPR of the DPP dword); the
 * literal in in->lit; f.v neg/abs/clamp/omod/opsel and the DPP fields.
 */
#include "isa/isa.h"

#include <string.h>

/* Role kinds of a modifier bit (tools/isagen/vop3.py names them; isa.h has the common ones). */
enum {
    VR_ALT = VR_NCOMMON,
    VR_HSEL,     /* an op_sel bit LLVM shows only as the .h of a true16 operand (v_cndmask_b16) */
    VR_BYTESEL,  /* gfx12 v_cvt_*fp8/bf8*: op_sel bits read as byte_sel (index = its bit) */
    VR_INDEX_KEY /* gfx12 v_swmmac_*: op_sel bits read as index_key */
};

/* isa_opinfo.flags */
enum {
    V3R_DST_V = 1 << 0,       /* vdst is a VGPR */
    V3R_DST_S = 1 << 1,       /* the vdst field is a scalar destination (VOPC sdst, v_readlane) */
    V3R_SDST = 1 << 2,        /* VOP3 SDST: carry-out in w0[14:8] */
    V3R_DPP8_INLINE = 1 << 3, /* LLVM reads the DPP8 selectors as an inline constant (vop_rdna.c) */
};
#define V3R_SRC_S(i) (1u << (8 + (i))) /* source i is probed as an SGPR (carry-in, lane) */

enum { V3R_E64, V3R_DPP16, V3R_DPP8 }; /* forms */

struct v3r_class {
    const char *name; /* LLVM's register class, quoted in its "Invalid register" note */
    uint16_t n;       /* encodings of the field */
    /* per encoding: '0' illegal, '1' ok, '2' invalid register, '3' invalid immediate, '4' ok but
     * printed as its raw encoding and no literal read (v_fmac_*_e64_dpp's src1) */
    const char *modes;
};

struct v3r_row {
    isa_opinfo i;     /* aux: DPP16 dword bits LLVM accepts */
    uint8_t role[13]; /* w0 bits 8..15, then w1 bits 27..31 */
    uint8_t form, suffix;
    uint8_t opsel_n, ophi_n, neglo_n, neghi_n; /* printed list lengths */
    uint8_t ophi_def;
    uint8_t t16;        /* bit k: source k is a true16 operand; bit 3: vdst */
    uint8_t cls[5];     /* classes of vdst, sdst, src0, src1, src2 */
    uint8_t vdst_probe; /* 0: the op has no vdst and the field must be 0 */
    uint16_t alt;       /* 1 + index of the fake16 row (v3r_alt_*), 0: none */
};

/* A DPP16 dpp_ctrl that LLVM 22 prints as another value's text (v_fma_mixlo/hi_f16_e64_dpp drop
 * bit 7 of some quad_perms and call others invalid; with dpp_ctrl 0xff LLVM also reads one more
 * dword, V3R_DPP_EXTRA); measured, used for printing and the instruction size only. */
struct v3r_dpp_shown {
    uint16_t op, ctrl, shown;
};
#define V3R_DPP_EXTRA 0x8000u

#include "isa/gen/vop3_rdna.inc"

#define NROWS(t) (sizeof t / sizeof t[0])

#define T(f, a)                                                                                    \
    {v3r_rows_##f##_##a, v3r_alt_##f##_##a, NROWS(v3r_rows_##f##_##a), v3r_dpp_shown_##f##_##a,    \
     NROWS(v3r_dpp_shown_##f##_##a)}
/* [target][VOP3, VOP3P] */
static const struct v3r_table {
    const struct v3r_row *rows, *alt;
    size_t n;
    const struct v3r_dpp_shown *shown;
    size_t nshown;
} v3r_targets[ISA_NARCH][2] = {
    [ISA_GFX1100] = {T(vop3, gfx1100), T(vop3p, gfx1100)},
    [ISA_GFX1201] = {T(vop3, gfx1201), T(vop3p, gfx1201)},
};
#undef T

/* The dpp_ctrl LLVM prints for `ctrl` of DPP16 opcode `op` (and V3R_DPP_EXTRA), or ctrl. */
static unsigned dpp_shown(const struct v3r_table *tb, unsigned op, unsigned ctrl) {
    for (size_t k = 0; k < tb->nshown; k++)
        if (tb->shown[k].op == op && tb->shown[k].ctrl == ctrl)
            return tb->shown[k].shown;
    return ctrl;
}

static const char *const suffixes[4] = {"", "_e64", "_e64_dpp", "_dpp"};

static const struct v3r_row *find_row(const struct v3r_table *tb, unsigned op, unsigned form) {
    const struct v3r_row *t = tb->rows;
    unsigned key = op * 4 + form;
    size_t lo = 0, hi = t ? tb->n : 0;
    while (lo < hi) {
        size_t m = (lo + hi) / 2;
        unsigned k = t[m].i.encop * 4u + t[m].form;
        if (k == key)
            return &t[m];
        if (k < key)
            lo = m + 1;
        else
            hi = m;
    }
    return NULL;
}

static int class_mode(unsigned cls, unsigned enc) {
    const struct v3r_class *c = &v3r_classes[cls];
    return enc < c->n ? c->modes[enc] - '0' : 0;
}

/* 1 when a set bit has the ALT role: LLVM decodes the fake16 form. */
static int wants_alt(const struct v3r_row *r, const uint32_t *w) {
    for (int k = 0; k < 13; k++)
        if ((r->role[k] >> 3) == VR_ALT && isa_vop3_mod_bit(w, k))
            return 1;
    return 0;
}

/* Modifier slots of op_sel_hi (w0[14], w1[27], w1[28]): set in the probe base of rows whose
 * ophi_def is 7, so there a BAD role means "illegal when clear" (gfx12 WMMA, SWMMAC and the fp8
 * dot ops take only the default op_sel_hi:[1,1,1]). */
#define V3R_OPHI_SLOTS ((1u << 6) | (1u << 8) | (1u << 9))

static int decode_mods(const struct v3r_row *r, const uint32_t *w, isa_valu_fields *v) {
    unsigned base = r->ophi_def ? V3R_OPHI_SLOTS : 0;
    for (int k = 0; k < 13; k++) {
        unsigned bit = isa_vop3_mod_bit(w, k), kind = r->role[k] >> 3, idx = r->role[k] & 7;
        if (kind == VR_OPSEL_HI) {
            v->opsel_hi |= (uint8_t)(bit << idx);
            continue;
        }
        if (kind == VR_BAD && bit != ((base >> k) & 1))
            return 0;
        if (!bit)
            continue;
        switch (kind) {
        case VR_ABS: v->abs |= (uint8_t)(1 << idx); break;
        case VR_NEG:
        case VR_NEG_LO: v->neg |= (uint8_t)(1 << idx); break;
        case VR_NEG_HI: v->neg_hi |= (uint8_t)(1 << idx); break;
        case VR_CLAMP: v->clamp = 1; break;
        case VR_OMOD: v->omod |= (uint8_t)(1 << idx); break;
        case VR_OPSEL:
        case VR_HSEL: v->opsel |= (uint8_t)(1 << (k - 3)); break; /* w0[14:11]; bit 3 = dst */
        case VR_BYTESEL: v->byte_sel |= (uint8_t)(1 << idx); break;
        case VR_INDEX_KEY: v->index_key |= (uint8_t)(1 << idx); break;
        default: break; /* IGN, ALT */
        }
    }
    return 1;
}

/* RDNA SGPR tuples are aligned like CDNA's; LLVM warns about a misaligned one (put_operand). */
static unsigned sreg_align(unsigned enc, unsigned n) { return isa_sreg_align(enc, n, 105); }

static void set_opnd(isa_opnd *o, unsigned enc, unsigned n, int t16, int hi) {
    isa_src9(o, enc, n);
    if (o->kind == ISA_OPND_SREG)
        o->idx = (uint16_t)sreg_align(enc, n);
    if (o->kind == ISA_OPND_VGPR && t16)
        o->imm = hi ? ISA_HALF_H : ISA_HALF_L;
}

/* The DPP fields of a DPP16 dword d or a DPP8 form (src0 code s0: 0xea is fetch-inactive);
 * neg/abs come from the VOP3 fields, the dword's own neg/abs bits are ignored. */
static void dpp_fields(isa_valu_fields *v, unsigned form, unsigned s0, uint32_t d) {
    if (form == V3R_DPP16) {
        uint8_t neg = v->neg, abs = v->abs;
        isa_dpp16_fields(v, d, 0);
        v->neg = neg;
        v->abs = abs;
        v->fi = (uint8_t)((d >> 18) & 1);
    } else {
        v->fi = s0 == 0xea;
    }
}

size_t isa_dec_vop3_rdna(isa_arch arch, isa_fmt f, const uint32_t *w, size_t nw, isa_inst *in) {
    if (nw < 2 || (unsigned)arch >= ISA_NARCH)
        return 0;
    const struct v3r_table *tb = &v3r_targets[arch][f == ISA_FMT_VOP3P];
    /* VOP3P: w0[23] is no opcode bit LLVM knows, so an opcode >= 128 finds no row */
    unsigned op = (w[0] >> 16) & (f == ISA_FMT_VOP3P ? 0xff : 0x3ff), s0 = w[1] & 0x1ff;
    unsigned form = s0 == 0xfa ? V3R_DPP16 : (s0 == 0xe9 || s0 == 0xea) ? V3R_DPP8 : V3R_E64;
    const struct v3r_row *r = find_row(tb, op, form);
    if (!r && form != V3R_E64) /* no DPP form: the field is an ordinary source encoding */
        r = find_row(tb, op, form = V3R_E64);
    if (!r)
        return 0;
    if (r->alt && wants_alt(r, w))
        r = &tb->alt[r->alt - 1];
    isa_valu_fields *v = &in->f.v;
    memset(v, 0, sizeof *v);
    if (!decode_mods(r, w, v))
        return 0;
    /* no destination operand: the field must hold what LLVM expects (v_cmpx_*: 126, EXEC_LO) */
    if (r->i.ndst == 0 && (w[0] & 0xff) != r->vdst_probe)
        return 0;
    in->op = r->i.op;
    in->encop = (uint16_t)op;
    in->info = &r->i;
    in->variant = form == V3R_E64 ? ISA_VAR_E64 : ISA_VAR_DPP;
    in->ndst = r->i.ndst;
    in->nsrc = r->i.nsrc;
    size_t size = form == V3R_E64 ? 8 : 12;
    int extra = 0;
    if (form != V3R_E64) {
        if (nw < 3 || (form == V3R_DPP16 && (w[2] & ~r->i.aux)))
            return 0;
        dpp_fields(v, form, s0, w[2]);
        if (form == V3R_DPP16 && (dpp_shown(tb, op, v->dpp_ctrl) & V3R_DPP_EXTRA)) {
            if (nw < 4)
                return 0;
            size += 4;
            extra = 1;
        }
    }
    int lit = 0;
    if (r->i.flags & (V3R_DST_V | V3R_DST_S)) {
        unsigned e = w[0] & 0xff;
        if (class_mode(r->cls[0], e) == 0)
            return 0;
        if (r->i.flags & V3R_DST_V) {
            set_opnd(&in->dst[0], 256 + e, r->i.dst_n[0], r->t16 & 8, v->opsel & 8);
        } else {
            set_opnd(&in->dst[0], e, r->i.dst_n[0], 0, 0);
            v->sdst_valid = 1;
            lit |= e == 255; /* LLVM reads a literal even here (and notes "Invalid immediate") */
        }
    }
    if (r->i.flags & V3R_SDST) {
        unsigned e = (w[0] >> 8) & 0x7f;
        if (class_mode(r->cls[1], e) == 0)
            return 0;
        set_opnd(&in->dst[r->i.ndst - 1], e, r->i.dst_n[r->i.ndst - 1], 0, 0);
        v->sdst_valid = 1;
    }
    for (unsigned s = 0; s < r->i.nsrc && s < 3; s++) {
        unsigned e = (w[1] >> (9 * s)) & 0x1ff;
        int hi = (v->opsel >> s) & 1, t16 = (r->t16 >> s) & 1;
        if (s == 0 && form != V3R_E64) {
            set_opnd(&in->src[0], 256 + (w[2] & 0xff), r->i.src_n[0], t16, hi);
            continue;
        }
        if (class_mode(r->cls[2 + s], e) == 0)
            return 0;
        set_opnd(&in->src[s], e, r->i.src_n[s], t16, hi);
        lit |= e == 255 && class_mode(r->cls[2 + s], e) != 4;
    }
    /* after the DPP dword when there is one; with dpp_ctrl 0xff's extra dword, that dword is the
     * literal (LLVM 22 reads 16 bytes, not 20; found by the CI's random sweep) */
    if (lit && extra) {
        in->lit = w[size / 4 - 1];
        return size;
    }
    if (lit)
        return isa_take_literal(in, w, nw, size);
    return size;
}

/* Execution only (isa.h): LLVM 22's code generator folds a DPP move into the 32-bit source of a
 * VOP3 SDST op (gfx12 v_mad_co_u64_u32 with a DPP16 src0, clang -O3), an encoding its own
 * disassembler and assembler have no row for.  Such a word decodes here as that DPP form: the E64
 * row with src0 the DPP dword's VGPR, and the DPP fields; only for SDST ops whose first two
 * sources are 32-bit, so only the words the combine can make.  No literal (the combine never
 * makes one).  The disassembler keeps printing the word as LLVM does. */
size_t isa_dec_vop3_rdna_dpp_sdst(isa_arch arch, const uint32_t *w, size_t nw, isa_inst *in) {
    if (nw < 3 || !isa_is_rdna(arch) || isa_identify_arch(arch, w[0]) != ISA_FMT_VOP3)
        return 0;
    const struct v3r_table *tb = &v3r_targets[arch][0];
    unsigned op = (w[0] >> 16) & 0x3ff, s0 = w[1] & 0x1ff;
    unsigned form = s0 == 0xfa ? V3R_DPP16 : (s0 == 0xe9 || s0 == 0xea) ? V3R_DPP8 : V3R_E64;
    const struct v3r_row *r = find_row(tb, op, V3R_E64);
    if (form == V3R_E64 || find_row(tb, op, form) || !r || !(r->i.flags & V3R_SDST) ||
        r->i.nsrc < 2 || r->i.src_n[0] != 1 || r->i.src_n[1] != 1)
        return 0;
    uint32_t t[2] = {w[0], (w[1] & ~0x1ffu) | (256u + (w[2] & 0xff))};
    if (isa_dec_vop3_rdna(arch, ISA_FMT_VOP3, t, 2, in) != 8)
        return 0;
    dpp_fields(&in->f.v, form, s0, w[2]);
    in->variant = ISA_VAR_DPP;
    return 12;
}

/* ---- printing ------------------------------------------------------------------------------ */

/* One operand with its neg/abs, LLVM's class note and (in *warn) an alignment warning. */
static void put_operand(isa_buf *out, char *warn, size_t wsz, const isa_inst *in, const isa_opnd *o,
                        int type, unsigned cls, unsigned enc, int neg, int abs) {
    char core[256];
    isa_buf cb = {core, sizeof core, 0}, *b = &cb;
    core[0] = 0;
    int mode = class_mode(cls, enc);
    if (o->kind == ISA_OPND_SREG && o->n > 1 && (enc <= 105 || (enc >= 108 && enc <= 123))) {
        unsigned base = enc <= 105 ? 0 : 108, al = sreg_align(enc, o->n);
        isa_put_sreg_arch(b, in->arch, al, o->n);
        if (al != enc) { /* LLVM joins its warnings without a separator */
            isa_buf wb = {warn, wsz, strlen(warn)};
            isa_printf(&wb, "%sWarning: %s_%u: scalar reg isn't aligned %u", warn[0] ? "" : " ; ",
                       base ? "TTMP" : "SGPR", 32 * o->n, enc - base);
        }
    } else if (mode == 4) { /* v_fmac_*_e64_dpp: LLVM shows a constant's raw encoding */
        isa_printf(b, "0x%x", enc);
    } else if (o->kind == ISA_OPND_LITERAL && mode == 3) {
        isa_put_lit_as_imm(b, in->lit);
    } else {
        isa_put_opnd(b, in, o, type);
    }
    if (mode == 2)
        isa_printf(b, "/*Invalid register, operand has '%s' register class*/",
                   v3r_classes[cls].name);
    else if (mode == 3)
        isa_puts(b, "/*Invalid immediate*/");
    isa_put_neg_abs(out, o, core, neg, abs);
}

void isa_print_vop3_rdna(isa_buf *b, const isa_inst *in) {
    const struct v3r_row *r = (const struct v3r_row *)(const void *)in->info;
    const isa_valu_fields *v = &in->f.v;
    char warn[192] = {0};
    /* an E64 row with a DPP src0: isa_dec_vop3_rdna_dpp_sdst()'s words, named as LLVM would */
    int made = in->variant == ISA_VAR_DPP && r->form == V3R_E64;
    unsigned s0 = in->w[1] & 0x1ff;
    isa_puts(b, isa_op_names[in->op]);
    isa_puts(b, made ? "_e64_dpp" : suffixes[r->suffix & 3]);
    const char *sep = " ";
    for (unsigned d = 0; d < in->ndst; d++) {
        int sd = (r->i.flags & V3R_SDST) && d + 1u == in->ndst;
        unsigned enc = sd ? (in->w[0] >> 8) & 0x7f : in->w[0] & 0xff;
        isa_puts(b, sep);
        sep = ", ";
        put_operand(b, warn, sizeof warn, in, &in->dst[d], ISA_T_B32, r->cls[sd ? 1 : 0], enc, 0,
                    0);
    }
    unsigned negm = v->neg & isa_vop3_role_mask(r->role, VR_NEG);
    for (unsigned s = 0; s < in->nsrc && s < 3; s++) {
        isa_puts(b, sep);
        sep = ", ";
        int neg = (negm >> s) & 1, abs = (v->abs >> s) & 1;
        if (s == 0 && in->variant == ISA_VAR_DPP) {
            put_operand(b, warn, sizeof warn, in, &in->src[0], ISA_T_B32, 0, 256, neg, abs);
            continue;
        }
        unsigned enc = (in->w[1] >> (9 * s)) & 0x1ff;
        int t = r->i.src_t[s];
        /* The DPP forms of v_dot2_f32_f16/bf16 type src1 as one 16-bit value, not a pair: a
         * literal is lit() when its low half is a constant, and prints whole (the CI's random
         * sweep found this on gfx1201; gfx1100 agrees) */
        if (s == 1 && in->variant == ISA_VAR_DPP && in->src[1].kind == ISA_OPND_LITERAL &&
            (in->op == ISA_OP_V_DOT2_F32_F16 || in->op == ISA_OP_V_DOT2_F32_BF16))
            t = in->op == ISA_OP_V_DOT2_F32_F16 ? ISA_T_F16_LIT32 : ISA_T_BF16;
        put_operand(b, warn, sizeof warn, in, &in->src[s], t, r->cls[2 + s], enc, neg, abs);
    }
    if (v->index_key)
        isa_printf(b, " index_key:%u", v->index_key);
    isa_vop3p_lists l = {r->role, r->opsel_n, r->ophi_n, r->neglo_n, r->neghi_n, r->ophi_def};
    isa_put_vop3p_lists(b, v, &l);
    if (v->byte_sel)
        isa_printf(b, " byte_sel:%u", v->byte_sel);
    if (in->variant == ISA_VAR_DPP) {
        isa_valu_fields shown = *v;
        const struct v3r_table *tb = &v3r_targets[in->arch][in->fmt == ISA_FMT_VOP3P];
        if (r->form == V3R_DPP16)
            shown.dpp_ctrl = (uint16_t)(dpp_shown(tb, in->encop, v->dpp_ctrl) & ~V3R_DPP_EXTRA);
        int dpp8 = r->form == V3R_DPP8 || (made && (s0 == 0xe9 || s0 == 0xea));
        isa_put_dpp_tail_rdna(b, &shown,
                              !dpp8                            ? 0
                              : (r->i.flags & V3R_DPP8_INLINE) ? 2
                                                               : 1,
                              in->w[2]);
    }
    isa_puts(b, warn);
}
