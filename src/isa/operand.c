/* operand.c - operand names and constants exactly as LLVM 22 prints them for gfx942/gfx950.
 *
 * Source-operand encoding (CDNA3/CDNA4 ISA, "Scalar/Vector ALU operands"): 0-101 SGPRs,
 * 102-103 flat_scratch, 104-105 xnack_mask, 106-107 vcc, 108-123 ttmp0-15, 124 m0, 125 null,
 * 126-127 exec, 128-192 integers 0..64, 193-208 integers -1..-16, 230-231 src_flat_scratch_base,
 * 235-239 apertures and pops_exiting_wave_id, 240-248 float constants (248 = 1/(2*pi)),
 * 251-254 vccz, execz, scc, lds_direct, 255 literal, 256-511 VGPRs.
 */
#include "isa/isa.h"

#include <stdarg.h>
#include <stdio.h>
#include <string.h>

void isa_puts(isa_buf *b, const char *s) {
    size_t l = strlen(s);
    if (b->len < b->n) {
        size_t room = b->n - b->len - 1;
        size_t c = l < room ? l : room;
        memcpy(b->p + b->len, s, c);
        b->p[b->len + c] = 0;
    }
    b->len += l;
}

void isa_printf(isa_buf *b, const char *fmt, ...) {
    char tmp[256];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(tmp, sizeof tmp, fmt, ap);
    va_end(ap);
    isa_puts(b, tmp);
}

/* Register pairs/quads of a named special register print as the whole register. */
static const char *sreg_name(unsigned enc, unsigned n) {
    static const char *const lo[] = {
        [102] = "flat_scratch_lo",
        [103] = "flat_scratch_hi",
        [104] = "xnack_mask_lo",
        [105] = "xnack_mask_hi",
        [106] = "vcc_lo",
        [107] = "vcc_hi",
        [124] = "m0",
        [125] = "null",
        [126] = "exec_lo",
        [127] = "exec_hi",
    };
    static const char *const pair[] = {
        [102] = "flat_scratch", [104] = "xnack_mask", [106] = "vcc", [126] = "exec", [125] = "null",
    };
    if (enc >= 128)
        return NULL;
    if (n == 1)
        return lo[enc];
    if (n == 2)
        return pair[enc];
    return NULL;
}

/* LLVM's register syntax: one register prints as <prefix><index>, a run of n as
 * <prefix>[<first>:<last>]. */
static void put_range(isa_buf *b, const char *prefix, unsigned first, unsigned n) {
    if (n == 1)
        isa_printf(b, "%s%u", prefix, first);
    else
        isa_printf(b, "%s[%u:%u]", prefix, first, first + n - 1);
}

void isa_put_sreg(isa_buf *b, unsigned enc, unsigned n) {
    const char *nm = sreg_name(enc, n);
    if (nm) {
        isa_puts(b, nm);
        return;
    }
    if (enc <= 101) {
        put_range(b, "s", enc, n);
        return;
    }
    if (enc >= 108 && enc <= 123) {
        put_range(b, "ttmp", enc - 108, n);
        return;
    }
    isa_printf(b, "<sreg %u x%u>", enc, n);
}

/* RDNA3/RDNA4 ISA "Scalar operands": s0..s105, vcc 106, ttmp 108..123, null 124, m0 125,
 * exec 126; there is no flat_scratch or xnack_mask operand. */
void isa_put_sreg_arch(isa_buf *b, unsigned arch, unsigned enc, unsigned n) {
    if (!isa_is_rdna(arch)) {
        isa_put_sreg(b, enc, n);
        return;
    }
    if (enc <= 105) {
        put_range(b, "s", enc, n);
    } else if (enc == 124) {
        isa_puts(b, "null");
    } else if (enc == 125 && n == 1) {
        isa_puts(b, "m0");
    } else {
        isa_put_sreg(b, enc, n);
    }
}

void isa_put_vreg(isa_buf *b, unsigned idx, unsigned n, int agpr) {
    put_range(b, agpr ? "a" : "v", idx, n);
}

static const char *const special_names[] = {
    [230] = "src_flat_scratch_base_lo",
    [231] = "src_flat_scratch_base_hi",
    [235] = "src_shared_base",
    [236] = "src_shared_limit",
    [237] = "src_private_base",
    [238] = "src_private_limit",
    [239] = "src_pops_exiting_wave_id",
    [251] = "src_vccz",
    [252] = "src_execz",
    [253] = "src_scc",
    [254] = "src_lds_direct",
};

static const char *const float_consts[] = {"0.5", "-0.5", "1.0", "-1.0",
                                           "2.0", "-2.0", "4.0", "-4.0"};

/* The f16 bit patterns of the float inline constants 240..248; i16 operands print a float
 * inline constant as these bits. */
static const uint16_t f16_inline_bits[] = {0x3800, 0xb800, 0x3c00, 0xbc00, 0x4000,
                                           0xc000, 0x4400, 0xc400, 0x3118};

static int int_inline(int32_t v) { return v >= -16 && v <= 64; }

static int in_u16(uint32_t v, const uint16_t *t) {
    for (int i = 0; i < 9; i++)
        if (v == t[i])
            return 1;
    return 0;
}

/* Whether a 32-bit literal value would have been encodable as an inline constant of this type;
 * LLVM 22 then prints it as lit(0x...) so that it re-assembles to the same bytes.  Probed rules:
 * 16-bit float operands look at the low half only; i16 operands accept the 32-bit inline set
 * (gfx9 encodes i16 float constants as f32 bits); packed 16-bit operands take an integer or a
 * zero-extended half constant; a 64-bit integer operand zero-extends the literal. */
const uint32_t isa_f32_inline_bits[9] = {0x3f000000, 0xbf000000, 0x3f800000, 0xbf800000, 0x40000000,
                                         0xc0000000, 0x40800000, 0xc0800000, 0x3e22f983};

static int literal_is_inlinable(uint32_t v, int type) {
    static const uint16_t bf16c[] = {0x3f00, 0xbf00, 0x3f80, 0xbf80, 0x4000,
                                     0xc000, 0x4080, 0xc080, 0x3e22};
    switch (type) {
    case ISA_T_B64: return v <= 64;
    case ISA_T_F64: return 0; /* a 64-bit float literal holds the high half; see isa_put_opnd */
    case ISA_T_F16:
    case ISA_T_F16_LIT32: return int_inline((int16_t)v) || in_u16(v & 0xffff, f16_inline_bits);
    case ISA_T_BF16: return int_inline((int16_t)v) || in_u16(v & 0xffff, bf16c);
    case ISA_T_V2F16: return int_inline((int32_t)v) || (v <= 0xffff && in_u16(v, f16_inline_bits));
    case ISA_T_V2BF16: return int_inline((int32_t)v) || (v <= 0xffff && in_u16(v, bf16c));
    case ISA_T_V2F16_SPLAT:
        return int_inline((int32_t)v) ||
               ((v >> 16) == (v & 0xffff) &&
                ((v & 0xffff) <= 64 || in_u16(v & 0xffff, f16_inline_bits)));
    default:
        if (int_inline((int32_t)v))
            return 1;
        for (size_t i = 0; i < 9; i++)
            if (v == isa_f32_inline_bits[i])
                return 1;
        return 0;
    }
}

/* A literal for a 64-bit float operand is the high half of the value; when that value is an
 * inline constant LLVM prints the constant itself (no lit()). */
static const char *f64_literal_name(uint32_t v) {
    static const uint32_t hi[] = {0x3fe00000, 0xbfe00000, 0x3ff00000, 0xbff00000,
                                  0x40000000, 0xc0000000, 0x40100000, 0xc0100000};
    if (v == 0)
        return "0";
    for (int i = 0; i < 8; i++)
        if (v == hi[i])
            return float_consts[i];
    return NULL;
}

void isa_put_opnd(isa_buf *b, const isa_inst *in, const isa_opnd *o, int type) {
    switch (o->kind) {
    case ISA_OPND_SREG: isa_put_sreg_arch(b, in->arch, o->idx, o->n); return;
    case ISA_OPND_VGPR:
        isa_put_vreg(b, o->idx, o->n, 0);
        if (o->imm == ISA_HALF_L || o->imm == ISA_HALF_H)
            isa_puts(b, o->imm == ISA_HALF_L ? ".l" : ".h");
        return;
    case ISA_OPND_AGPR: isa_put_vreg(b, o->idx, o->n, 1); return;
    case ISA_OPND_SPECIAL:
        isa_puts(b, o->idx < 255 && special_names[o->idx] ? special_names[o->idx] : "<special>");
        return;
    case ISA_OPND_INLINE:
        if (o->idx >= 128 && o->idx <= 192)
            isa_printf(b, "%d", o->idx - 128);
        else if (o->idx >= 193 && o->idx <= 208)
            isa_printf(b, "%d", 192 - (int)o->idx);
        else if (o->idx >= 240 && o->idx <= 248 && type == ISA_T_B16)
            isa_printf(b, "0x%x", f16_inline_bits[o->idx - 240]);
        else if (o->idx >= 240 && o->idx <= 247)
            isa_puts(b, float_consts[o->idx - 240]);
        else if (o->idx == 248)
            /* f64 tuples wider than 2 too: the C of RDNA WMMA, typed F64 by LLVM */
            isa_puts(b, (type == ISA_T_F64 && o->n >= 2) || (type == ISA_T_B64 && o->n == 2)
                            ? "0.15915494309189532"
                            : "0.15915494");
        else
            isa_printf(b, "<inline %u>", o->idx);
        return;
    case ISA_OPND_LITERAL:
        if (type == ISA_T_F64 && f64_literal_name(in->lit))
            isa_puts(b, f64_literal_name(in->lit));
        else if (literal_is_inlinable(in->lit, type))
            isa_printf(b, "lit(0x%x)", in->lit);
        else if (type == ISA_T_F16 || type == ISA_T_B16)
            isa_printf(b, "0x%x", in->lit & 0xffff); /* the operand sees the low half only */
        else
            isa_printf(b, "0x%x", in->lit);
        return;
    case ISA_OPND_IMM: isa_printf(b, "%d", o->imm); return;
    default: isa_puts(b, "<none>");
    }
}

void isa_reg_opnd(isa_opnd *o, isa_opnd_kind kind, unsigned idx, unsigned n) {
    o->kind = (uint8_t)kind;
    o->idx = (uint16_t)idx;
    o->n = (uint8_t)n;
    o->imm = 0;
}

size_t isa_take_literal(isa_inst *in, const uint32_t *w, size_t nw, size_t size) {
    if (nw < size / 4 + 1)
        return 0;
    in->lit = w[size / 4];
    return size + 4;
}

void isa_src9(isa_opnd *o, unsigned enc, unsigned n) {
    o->n = (uint8_t)n;
    o->imm = 0;
    o->idx = (uint16_t)enc;
    if (enc >= 256) {
        o->kind = ISA_OPND_VGPR;
        o->idx = (uint16_t)(enc - 256);
    } else if (enc < 128) {
        o->kind = ISA_OPND_SREG;
    } else if (enc <= 208 || (enc >= 240 && enc <= 248)) {
        o->kind = ISA_OPND_INLINE;
    } else if (enc == 255) {
        o->kind = ISA_OPND_LITERAL;
    } else {
        o->kind = ISA_OPND_SPECIAL;
    }
}

/* ---- VOP3/VOP3P modifiers, shared by the GFX9 (vop3.c) and RDNA (vop3_rdna.c) printers ------ */

unsigned isa_vop3_mod_bit(const uint32_t *w, int k) {
    return k < 8 ? (w[0] >> (8 + k)) & 1 : (w[1] >> (27 + k - 8)) & 1;
}

unsigned isa_vop3_role_mask(const uint8_t role[13], unsigned kind) {
    unsigned m = 0;
    for (int k = 0; k < 13; k++)
        if ((role[k] >> 3) == kind)
            m |= 1u << (role[k] & 7);
    return m;
}

/* op_sel as LLVM lists it: the fields keep the encoded bits (bit 3 = dst), the list places each
 * at its role's position (a 2-source op lists [src0, src1, dst]). */
static unsigned opsel_list(const uint8_t role[13], unsigned opsel) {
    unsigned bits = 0;
    for (int k = 3; k < 7; k++)
        if ((role[k] >> 3) == VR_OPSEL && ((opsel >> (k - 3)) & 1))
            bits |= 1u << (role[k] & 7);
    return bits;
}

unsigned isa_sreg_align(unsigned enc, unsigned n, unsigned last_sgpr) {
    unsigned base = enc <= last_sgpr ? 0 : 108, al = n >= 4 ? 4 : 2;
    if (n < 2 || !(enc <= last_sgpr || (enc >= 108 && enc <= 123)))
        return enc;
    return base + ((enc - base) & ~(al - 1));
}

void isa_put_lit_as_imm(isa_buf *b, uint32_t v) {
    const uint32_t *f = isa_f32_inline_bits;
    static const char *const fs[] = {"0.5",  "-0.5", "1.0",  "-1.0",      "2.0",
                                     "-2.0", "4.0",  "-4.0", "0.15915494"};
    if ((int32_t)v >= -16 && (int32_t)v <= 64) {
        isa_printf(b, "%d", (int32_t)v);
        return;
    }
    for (size_t i = 0; i < 9; i++)
        if (v == f[i]) {
            isa_puts(b, fs[i]);
            return;
        }
    isa_printf(b, "0x%x", v);
}

void isa_put_bit_list(isa_buf *b, const char *name, unsigned n, unsigned bits) {
    isa_printf(b, " %s:[", name);
    for (unsigned j = 0; j < n; j++)
        isa_printf(b, j ? ",%u" : "%u", (bits >> j) & 1);
    isa_puts(b, "]");
}

void isa_put_neg_abs(isa_buf *b, const isa_opnd *o, const char *text, int neg, int abs) {
    /* LLVM writes neg(...) around a bare number (-1 and neg(1) differ), '-' before anything
     * else, including lit(...) */
    int num = (o->kind == ISA_OPND_INLINE || o->kind == ISA_OPND_LITERAL) &&
              strncmp(text, "lit(", 4) != 0;
    isa_puts(b, neg ? (!abs && num ? "neg(" : "-") : "");
    isa_puts(b, abs ? "|" : "");
    isa_puts(b, text);
    isa_puts(b, abs ? "|" : "");
    isa_puts(b, neg && !abs && num ? ")" : "");
}

void isa_put_vop3p_lists(isa_buf *b, const isa_valu_fields *v, const isa_vop3p_lists *l) {
    if (l->opsel_n && opsel_list(l->role, v->opsel))
        isa_put_bit_list(b, "op_sel", l->opsel_n, opsel_list(l->role, v->opsel));
    if (l->ophi_n) {
        unsigned m = isa_vop3_role_mask(l->role, VR_OPSEL_HI);
        if ((v->opsel_hi & m) != (l->ophi_def & m))
            isa_put_bit_list(b, "op_sel_hi", l->ophi_n, v->opsel_hi & m);
    }
    if (l->neglo_n && v->neg)
        isa_put_bit_list(b, "neg_lo", l->neglo_n, v->neg);
    if (l->neghi_n && v->neg_hi)
        isa_put_bit_list(b, "neg_hi", l->neghi_n, v->neg_hi);
    if (v->clamp)
        isa_puts(b, " clamp");
    static const char *const omod[4] = {"", " mul:2", " mul:4", " div:2"};
    isa_puts(b, omod[v->omod & 3]);
}

/* ---- DPP16 dpp_ctrl, GFX9 (vop.c) and GFX10+ (vop_rdna.c) ---------------------------------- */

/* dpp_ctrl ranges and their syntax per generation (%u = low 4 bits): 0x150-0x15f is gfx90a+'s
 * row_newbcast and gfx10+'s row_share; the gfx9 wave shifts and row_bcast, and gfx10's row_xmask
 * on gfx9, get LLVM's "not supported" notes; anything not listed is invalid. */
static const struct {
    uint16_t lo, hi;
    const char *fmt[2]; /* [GFX9, GFX10+] */
} dpp_ctrl_names[] = {
    {0x101, 0x10f, {"row_shl:%u", "row_shl:%u"}},
    {0x111, 0x11f, {"row_shr:%u", "row_shr:%u"}},
    {0x121, 0x12f, {"row_ror:%u", "row_ror:%u"}},
    {0x130, 0x130, {"wave_shl:1", "/* wave_shl is not supported starting from GFX10 */"}},
    {0x134, 0x134, {"wave_rol:1", "/* wave_rol is not supported starting from GFX10 */"}},
    {0x138, 0x138, {"wave_shr:1", "/* wave_shr is not supported starting from GFX10 */"}},
    {0x13c, 0x13c, {"wave_ror:1", "/* wave_ror is not supported starting from GFX10 */"}},
    {0x140, 0x140, {"row_mirror", "row_mirror"}},
    {0x141, 0x141, {"row_half_mirror", "row_half_mirror"}},
    {0x142, 0x142, {"row_bcast:15", "/* row_bcast is not supported starting from GFX10 */"}},
    {0x143, 0x143, {"row_bcast:31", "/* row_bcast is not supported starting from GFX10 */"}},
    {0x150, 0x15f, {"row_newbcast:%u", "row_share:%u"}},
    {0x160,
     0x16f,
     {"/* row_xmask is not supported on ASICs earlier than GFX10 */", "row_xmask:%u"}},
};

void isa_put_dpp_ctrl(isa_buf *b, unsigned ctrl, int gfx10) {
    if (ctrl <= 0xff) {
        isa_printf(b, "quad_perm:[%u,%u,%u,%u]", ctrl & 3, (ctrl >> 2) & 3, (ctrl >> 4) & 3,
                   ctrl >> 6);
        return;
    }
    for (size_t i = 0; i < sizeof dpp_ctrl_names / sizeof dpp_ctrl_names[0]; i++)
        if (ctrl >= dpp_ctrl_names[i].lo && ctrl <= dpp_ctrl_names[i].hi) {
            isa_printf(b, dpp_ctrl_names[i].fmt[gfx10 != 0], ctrl & 0xf);
            return;
        }
    isa_puts(b, "/* Invalid dpp_ctrl value */");
}
