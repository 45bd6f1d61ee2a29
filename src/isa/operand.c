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

void isa_put_sreg(isa_buf *b, unsigned enc, unsigned n) {
    const char *nm = sreg_name(enc, n);
    if (nm) {
        isa_puts(b, nm);
        return;
    }
    if (enc <= 101) {
        if (n == 1)
            isa_printf(b, "s%u", enc);
        else
            isa_printf(b, "s[%u:%u]", enc, enc + n - 1);
        return;
    }
    if (enc >= 108 && enc <= 123) {
        if (n == 1)
            isa_printf(b, "ttmp%u", enc - 108);
        else
            isa_printf(b, "ttmp[%u:%u]", enc - 108, enc - 108 + n - 1);
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
        if (n == 1)
            isa_printf(b, "s%u", enc);
        else
            isa_printf(b, "s[%u:%u]", enc, enc + n - 1);
    } else if (enc == 124) {
        isa_puts(b, "null");
    } else if (enc == 125 && n == 1) {
        isa_puts(b, "m0");
    } else {
        isa_put_sreg(b, enc, n);
    }
}

void isa_put_vreg(isa_buf *b, unsigned idx, unsigned n, int agpr) {
    char c = agpr ? 'a' : 'v';
    if (n == 1)
        isa_printf(b, "%c%u", c, idx);
    else
        isa_printf(b, "%c[%u:%u]", c, idx, idx + n - 1);
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
static int literal_is_inlinable(uint32_t v, int type) {
    static const uint32_t f32c[] = {0x3f000000, 0xbf000000, 0x3f800000, 0xbf800000, 0x40000000,
                                    0xc0000000, 0x40800000, 0xc0800000, 0x3e22f983};
    static const uint16_t bf16c[] = {0x3f00, 0xbf00, 0x3f80, 0xbf80, 0x4000,
                                     0xc000, 0x4080, 0xc080, 0x3e22};
    switch (type) {
    case ISA_T_B64: return v <= 64;
    case ISA_T_F64: return 0; /* a 64-bit float literal holds the high half; see isa_put_opnd */
    case ISA_T_F16: return int_inline((int16_t)v) || in_u16(v & 0xffff, f16_inline_bits);
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
        for (size_t i = 0; i < sizeof f32c / sizeof f32c[0]; i++)
            if (v == f32c[i])
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
            isa_puts(b, (type == ISA_T_F64 || type == ISA_T_B64) && o->n == 2
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
