/* scalar.c - decode and print the scalar formats: SOP2, SOPK, SOP1, SOPC, SOPP and SMEM.
 *
 * Encodings (CDNA3/CDNA4 ISA manuals, "Microcode formats"; checked against LLVM 22):
 *   SOP2  [31:30]=10        op[29:23] sdst[22:16] ssrc1[15:8] ssrc0[7:0]
 *   SOPK  [31:28]=1011      op[27:23] sdst[22:16] simm16[15:0]
 *   SOP1  [31:23]=101111101 sdst[22:16] op[15:8] ssrc0[7:0]
 *   SOPC  [31:23]=101111110 op[22:16] ssrc1[15:8] ssrc0[7:0]
 *   SOPP  [31:23]=101111111 op[22:16] simm16[15:0]
 *   SMEM  [31:26]=110000 op[25:18] imm[17] glc[16] nv[15] soe[14] sdata[12:6] sbase[5:0]
 *         (sbase counts register pairs); dword 1: offset[20:0] (signed) or an SGPR in [6:0]
 *         when imm=0 and soe=0; soffset[31:25] when soe=1.
 * A source field of 255 takes a 32-bit literal from the next dword.
 *
 * Everything op-specific comes from src/isa/gen/scalar.inc (tools/isagen/scalar.py): each row
 * gives an op's operand slots (their widths and which field values LLVM accepts, as an
 * "operand class"), how its 16-bit immediate prints, and a few flags.
 *
 * The decoded record (isa_inst):
 *   SOP2/SOP1   dst[0] = sdst, src[0] = ssrc0, src[1] = ssrc1 (those the op has)
 *   SOPC        src[0] = ssrc0, src[1] = ssrc1 (s_set_gpr_idx_on: src[1] = IMM mode)
 *   SOPK        the sdst register is dst[0] (s_movk, s_addk, s_getreg, s_call_b64, ...) or
 *               src[0] when the op only reads it (s_cmpk_*, s_setreg_b32, s_cbranch_i_fork);
 *               the immediate follows as an IMM source (movk/cmovk/addk/mulk/cmpk), or the
 *               literal for s_setreg_imm32_b32; hwreg()/branch fields are in f.s
 *   SOPP        no operands; f.s.imm16/simm16 and the decoded waitcnt/sendmsg/branch fields
 *   SMEM        dst[0] = sdata when written (loads, s_memtime, atomics with glc), src[0] =
 *               sdata when read (stores, atomics) or IMM for s_atc_probe*, src[1] = sbase,
 *               src[2] = the SGPR offset when present; f.s.offset/has_imm/glc/nv.
 * Register tuples keep LLVM's reading of a misaligned base: s[2:3] for an encoded 3 (LLVM
 * prints the aligned tuple and a warning; the engine addresses the same registers).
 */
#include "isa/isa.h"

#include <stdio.h>
#include <string.h>

typedef struct {
    uint8_t lo, hi, ann;
} sc_range;

typedef struct {
    const char *name;
    uint8_t has_ops;    /* LLVM prints an operation name after the message */
    uint8_t stream_ops; /* bit i: operation i also prints a stream id */
    const char *ops[8];
} sc_msg;

/* Immediate print styles (the generator's STYLES). */
enum {
    SC_IMM_NONE,
    SC_IMM_HEX,
    SC_IMM_U16,
    SC_IMM_UDEC,
    SC_IMM_ENDPGM,
    SC_IMM_WAITCNT,
    SC_IMM_SENDMSG,
    SC_IMM_GPRIDX,
    SC_IMM_HWREG,
    SC_IMM_WAITCNT11, /* gfx11 s_waitcnt: expcnt [2:0], lgkmcnt [9:4], vmcnt [15:10] */
    SC_IMM_DELAY,     /* s_delay_alu: instid0 [3:0], instskip [6:4], instid1 [10:7] */
    SC_IMM_DEPCTR,    /* s_waitcnt_depctr / s_wait_alu: the depctr_* counters */
    SC_IMM_VERSION    /* gfx11+ s_version: UC_VERSION_* names or-ed with the W64/W32/MDP flags */
};
#define SC_IMM_MASK 0xfu
#define SC_F_SEXT (1u << 4)            /* simm16 is signed */
#define SC_F_GPRIDX_SRC1 (1u << 5)     /* s_set_gpr_idx_on: ssrc1 is a gpr_idx() mode */
#define SC_F_IMM32 (1u << 6)           /* s_setreg_imm32_b32: a literal dword follows */
#define SC_F_GLC (1u << 7)             /* SMEM: glc is printed */
#define SC_F_NO_GLC (1u << 8)          /* SMEM: glc=1 is rejected */
#define SC_F_SDATA_INT (1u << 9)       /* SMEM: sdata prints as a number (s_atc_probe) */
#define SC_F_SDST_READ (1u << 10)      /* SOPK: the sdst register is a source */
#define SC_F_STORE (1u << 11)          /* SMEM: sdata is stored */
#define SC_F_ATOMIC (1u << 12)         /* SMEM: sdata is an atomic operand (returned with glc) */
#define SC_F_LIT(i) (1u << (13 + (i))) /* a 255 in slot i reads a literal dword */
#define SC_F_KIMM (1u << 17)        /* gfx12 s_fmaak_f32/s_fmamk_f32: a constant K dword follows */
#define SC_F_PREFETCH (1u << 18)    /* gfx12 SMEM s_prefetch_*: sbase, offset, soffset, sdata */
#define SC_F_SENDMSG_SRC (1u << 19) /* s_sendmsg_rtn_*: ssrc0 is a message id, not an operand */
#define SC_F_UOFF (1u << 24)        /* RDNA SMEM: a negative offset is illegal (gfx12 buffer ops) */
#define SC_F_M0_SPACE (1u << 25)    /* gfx12 s_barrier_*: LLVM 22 prints an m0 source as "m0 " */
#define SC_VARIANTS(m) ((uint32_t)(m) << 20) /* SMEM: legal (imm,soe) = (1,0) (0,0) (1,1) (0,1) */
#define SC_VARIANT_OK(flags) (((flags) >> 20) & 15u)
#define SC_AUX(a, b, c, d)                                                                         \
    ((uint32_t)(a) | (uint32_t)(b) << 8 | (uint32_t)(c) << 16 | (uint32_t)(d) << 24)

#include "isa/gen/scalar.inc"

/* ---- tables per target ------------------------------------------------------------------ */

typedef struct {
    const isa_opinfo *tab[ISA_NFMT];
    const char *const *hwreg;
    const sc_msg *sendmsg;
} sc_target;

/* Every target's generated tables follow one naming scheme (sc_<format>_<target>, see
 * tools/isagen/scalar.py), so one row builder names them all. */
#define SC_TARGET(t)                                                                               \
    {{[ISA_FMT_SOP2] = sc_sop2_##t,                                                                \
      [ISA_FMT_SOPK] = sc_sopk_##t,                                                                \
      [ISA_FMT_SOP1] = sc_sop1_##t,                                                                \
      [ISA_FMT_SOPC] = sc_sopc_##t,                                                                \
      [ISA_FMT_SOPP] = sc_sopp_##t,                                                                \
      [ISA_FMT_SMEM] = sc_smem_##t},                                                               \
     sc_hwreg_##t,                                                                                 \
     sc_sendmsg_##t}

static const sc_target sc_targets[ISA_NARCH] = {
    [ISA_GFX942] = SC_TARGET(gfx942),   [ISA_GFX950] = SC_TARGET(gfx950),
    [ISA_GFX90A] = SC_TARGET(gfx90a),   [ISA_GFX1100] = SC_TARGET(gfx1100),
    [ISA_GFX1201] = SC_TARGET(gfx1201),
};
#undef SC_TARGET

/* Last SGPR of the register file: s101 on CDNA (102..105 are flat_scratch and xnack_mask),
 * s105 on RDNA (RDNA3 ISA "Scalar General-Purpose Registers": 106 SGPRs). */
static unsigned last_sgpr(unsigned arch) { return isa_is_rdna(arch) ? 105 : 101; }

/* Opcode field and operand slots (shift, width) of each SOP format; the slot order matches
 * the generated rows. */
typedef struct {
    uint8_t op_sh, op_w, nslot;
    uint8_t sh[3], w[3];
} sc_layout;

static const sc_layout sc_layouts[ISA_NFMT] = {
    [ISA_FMT_SOP2] = {23, 7, 3, {16, 0, 8}, {7, 8, 8}},
    [ISA_FMT_SOPK] = {23, 5, 1, {16}, {7}},
    [ISA_FMT_SOP1] = {8, 8, 2, {16, 0}, {7, 8}},
    [ISA_FMT_SOPC] = {16, 7, 2, {0, 8}, {8, 8}},
    [ISA_FMT_SOPP] = {16, 7, 0, {0}, {0}},
    [ISA_FMT_SMEM] = {18, 8, 0, {0}, {0}},
};

static unsigned bits(uint32_t w, unsigned sh, unsigned n) { return (w >> sh) & ((1u << n) - 1); }

static unsigned slot_class(const isa_opinfo *r, unsigned i) { return (r->aux >> (8 * i)) & 0xff; }

/* -1 when LLVM rejects value v in operand class cls, else the annotation index (0 = none). */
static int class_ann(unsigned cls, unsigned v) {
    if (cls == 0)
        return 0;
    for (unsigned k = sc_class_start[cls - 1]; k < sc_class_start[cls]; k++)
        if (v >= sc_class_ranges[k].lo && v <= sc_class_ranges[k].hi)
            return sc_class_ranges[k].ann;
    return -1;
}

/* SMEM operand slot values, in the row's slot order: sdata, sbase (in register pairs: the
 * SGPR encoding is twice this), SGPR offset from the offset field, soffset. */
static void smem_slots(const uint32_t *w, unsigned v[4]) {
    v[0] = bits(w[0], 6, 7);
    v[1] = bits(w[0], 0, 6);
    v[2] = bits(w[1], 0, 7);
    v[3] = bits(w[1], 25, 7);
}

static unsigned smem_variant(uint32_t w0) {
    unsigned imm = bits(w0, 17, 1), soe = bits(w0, 14, 1);
    return soe ? (imm ? 2 : 3) : (imm ? 0 : 1);
}

/* ---- decoding ---------------------------------------------------------------------------- */

/* A scalar register tuple of n dwords at encoding enc: LLVM reads a misaligned base as the
 * aligned tuple containing it (SGPR/TTMP pairs align to 2, larger tuples to 4). */
static void sreg_opnd(isa_opnd *o, unsigned arch, unsigned enc, unsigned n) {
    unsigned a = n == 1 ? 1 : n == 2 ? 2 : 4;
    o->kind = ISA_OPND_SREG;
    o->n = (uint8_t)n;
    o->imm = 0;
    if (enc <= last_sgpr(arch))
        o->idx = (uint16_t)(enc & ~(a - 1));
    else if (enc >= 108 && enc <= 123)
        o->idx = (uint16_t)(108 + ((enc - 108) & ~(a - 1)));
    else
        o->idx = (uint16_t)enc;
}

/* Source operand from an 8-bit scalar source field. */
static void src_opnd(isa_opnd *o, unsigned arch, unsigned enc, unsigned n) {
    if (enc < 128)
        sreg_opnd(o, arch, enc, n);
    else
        isa_src9(o, enc, n);
}

static void imm_opnd(isa_opnd *o, int32_t v) {
    o->kind = ISA_OPND_IMM;
    o->n = 1;
    o->idx = 0;
    o->imm = v;
}

/* The 16-bit immediate: raw, signed view, and the fields of the special syntaxes. */
static void dec_imm16(isa_inst *in, const isa_opinfo *r, unsigned v) {
    isa_scalar_fields *s = &in->f.s;
    s->imm16 = (uint16_t)v;
    s->simm16 = (r->flags & SC_F_SEXT) ? (int16_t)v : (int32_t)v;
    switch (r->flags & SC_IMM_MASK) {
    case SC_IMM_WAITCNT: /* vmcnt is split: [3:0] and [15:14] */
        s->vmcnt = (uint8_t)((v & 15) | ((v >> 14) & 3) << 4);
        s->expcnt = (uint8_t)((v >> 4) & 7);
        s->lgkmcnt = (uint8_t)((v >> 8) & 15);
        break;
    case SC_IMM_WAITCNT11:
        s->vmcnt = (uint8_t)(v >> 10);
        s->expcnt = (uint8_t)(v & 7);
        s->lgkmcnt = (uint8_t)((v >> 4) & 63);
        break;
    case SC_IMM_SENDMSG:
        if (isa_is_rdna(in->arch)) { /* gfx11+: an 8-bit message id, no operation/stream */
            s->msg = (uint8_t)v;
            break;
        }
        s->msg = (uint8_t)(v & 15);
        s->msg_op = (uint8_t)((v >> 4) & 7);
        s->msg_stream = (uint8_t)((v >> 8) & 3);
        break;
    case SC_IMM_HWREG:
        s->hw_id = (uint8_t)(v & 63);
        s->hw_off = (uint8_t)((v >> 6) & 31);
        s->hw_size = (uint8_t)(((v >> 11) & 31) + 1);
        break;
    case SC_IMM_GPRIDX: s->gpr_idx_mode = (uint8_t)(v & 15); break;
    case SC_IMM_UDEC: /* branches: a signed dword count from the next instruction */
        if (r->flags & SC_F_SEXT) {
            s->is_branch = 1;
            s->offset = (int32_t)(int16_t)v * 4;
        }
        break;
    }
}

static size_t dec_sop(isa_fmt f, const isa_opinfo *r, const uint32_t *w, size_t nw, isa_inst *in) {
    const sc_layout *L = &sc_layouts[f];
    unsigned v[3] = {0, 0, 0};
    size_t size = 4;
    for (unsigned i = 0; i < L->nslot; i++) {
        v[i] = bits(w[0], L->sh[i], L->w[i]);
        if (class_ann(slot_class(r, i), v[i]) < 0)
            return 0;
        if (v[i] == 255 && (r->flags & SC_F_LIT(i)))
            size = 8;
    }
    if (r->flags & (SC_F_IMM32 | SC_F_KIMM))
        size = 8;
    if (size / 4 > nw)
        return 0;
    if (size == 8)
        in->lit = w[1];

    unsigned imm = w[0] & 0xffff;
    switch (f) {
    case ISA_FMT_SOP2:
    case ISA_FMT_SOP1:
        if (r->src_n[0])
            sreg_opnd(&in->dst[in->ndst++], in->arch, v[0], r->src_n[0]);
        for (unsigned i = 1; i < L->nslot; i++) {
            if (!r->src_n[i])
                continue;
            if (i == 1 && (r->flags & SC_F_SENDMSG_SRC)) {
                in->f.s.msg = (uint8_t)v[1];
                imm_opnd(&in->src[in->nsrc++], (int32_t)v[1]);
            } else {
                src_opnd(&in->src[in->nsrc++], in->arch, v[i], r->src_n[i]);
            }
        }
        if (r->flags & SC_F_KIMM) { /* K is the last source (the engine reads its name) */
            in->src[in->nsrc].kind = ISA_OPND_LITERAL;
            in->src[in->nsrc++].n = 1;
        }
        break;
    case ISA_FMT_SOPC:
        src_opnd(&in->src[in->nsrc++], in->arch, v[0], r->src_n[0]);
        if (r->flags & SC_F_GPRIDX_SRC1) {
            in->f.s.gpr_idx_mode = (uint8_t)(v[1] & 15);
            imm_opnd(&in->src[in->nsrc++], (int32_t)v[1]);
        } else {
            src_opnd(&in->src[in->nsrc++], in->arch, v[1], r->src_n[1]);
        }
        break;
    case ISA_FMT_SOPK:
        dec_imm16(in, r, imm);
        if (r->src_n[0]) {
            isa_opnd *o = (r->flags & SC_F_SDST_READ) ? &in->src[in->nsrc++] : &in->dst[in->ndst++];
            sreg_opnd(o, in->arch, v[0], r->src_n[0]);
        }
        if (r->flags & SC_F_IMM32) {
            in->src[in->nsrc].kind = ISA_OPND_LITERAL;
            in->src[in->nsrc++].n = 1;
        } else if ((r->flags & SC_IMM_MASK) == SC_IMM_HEX) {
            imm_opnd(&in->src[in->nsrc++], in->f.s.simm16);
        }
        break;
    case ISA_FMT_SOPP:
        if ((r->flags & SC_IMM_MASK) == SC_IMM_NONE && imm != 0)
            return 0;
        dec_imm16(in, r, imm);
        break;
    default: return 0;
    }
    return size;
}

static size_t dec_smem(const isa_opinfo *r, const uint32_t *w, size_t nw, isa_inst *in) {
    unsigned v[4];
    unsigned var = smem_variant(w[0]);
    unsigned imm = bits(w[0], 17, 1), soe = bits(w[0], 14, 1), glc = bits(w[0], 16, 1);
    if (nw < 2 || !(SC_VARIANT_OK(r->flags) & (1u << var)))
        return 0;
    if (glc && (r->flags & SC_F_NO_GLC))
        return 0;
    smem_slots(w, v);
    /* slot 2 (SGPR in the offset field) only exists for imm=0,soe=0; slot 3 only with soe */
    int used[4] = {1, 1, !imm && !soe, soe};
    for (unsigned i = 0; i < 4; i++)
        if (used[i] && class_ann(slot_class(r, i), v[i]) < 0)
            return 0;

    isa_scalar_fields *s = &in->f.s;
    s->has_imm = (uint8_t)imm;
    s->glc = (uint8_t)glc;
    s->nv = (uint8_t)bits(w[0], 15, 1);
    if (imm) /* 21-bit signed byte offset (gfx9 layout) */
        s->offset = (int32_t)((w[1] & 0x1fffff) ^ 0x100000) - 0x100000;
    if (!imm || soe) {
        s->has_soffset = 1;
        s->soffset = (uint8_t)(soe ? v[3] : v[2]);
    }

    /* fixed positions: src[0] = sdata when read, src[1] = sbase, src[2] = SGPR offset */
    unsigned n = r->src_n[0];
    if (r->flags & SC_F_SDATA_INT) {
        imm_opnd(&in->src[0], (int32_t)v[0]);
        in->nsrc = 1;
    } else if (n) {
        if (r->flags & (SC_F_STORE | SC_F_ATOMIC)) {
            sreg_opnd(&in->src[0], in->arch, v[0], n);
            in->nsrc = 1;
        }
        if (!(r->flags & SC_F_STORE) && (!(r->flags & SC_F_ATOMIC) || glc))
            sreg_opnd(&in->dst[in->ndst++], in->arch, v[0], n);
    }
    if (r->src_n[1]) {
        sreg_opnd(&in->src[1], in->arch, v[1] * 2, r->src_n[1]);
        in->nsrc = 2;
        if (s->has_soffset) {
            sreg_opnd(&in->src[2], in->arch, s->soffset, 1);
            in->nsrc = 3;
        }
    }
    return 8;
}

/* RDNA SMEM (RDNA3/RDNA4 ISA "Scalar Memory Instructions"): gfx11 op[25:18] glc[14] dlc[13],
 * gfx12 op[18:13] nv[20] scope[22:21] th[24:23]; sdata[12:6], sbase[5:0] in register pairs.
 * Dword 1: signed byte offset [20:0] (gfx11) or [23:0] (gfx12; bit 24 scale_offset) and
 * soffset[31:25], where null (124) means no SGPR offset. */
static size_t dec_smem_rdna(const isa_opinfo *r, const uint32_t *w, size_t nw, isa_inst *in) {
    int g12 = isa_targets[in->arch].rdna >= 12;
    unsigned v[4];
    if (nw < 2)
        return 0;
    smem_slots(w, v);
    uint32_t cpol = g12 ? (w[0] & 0x1f00000u) | (w[1] & 0x1000000u) : w[0] & 0x6000u;
    if (cpol && (r->flags & SC_F_NO_GLC))
        return 0;
    if ((r->flags & SC_F_UOFF) && (w[1] >> (g12 ? 23 : 20) & 1))
        return 0;
    int used[4] = {1, 1, 0, 1};
    for (unsigned i = 0; i < 4; i++)
        if (used[i] && class_ann(slot_class(r, i), v[i]) < 0)
            return 0;
    isa_scalar_fields *s = &in->f.s;
    s->has_imm = 1;
    s->glc = (uint8_t)(g12 ? 0 : bits(w[0], 14, 1));
    s->nv = (uint8_t)(g12 ? bits(w[0], 20, 1) : 0);
    s->offset = g12 ? (int32_t)((w[1] & 0xffffffu) ^ 0x800000u) - 0x800000
                    : (int32_t)((w[1] & 0x1fffffu) ^ 0x100000u) - 0x100000;
    if (v[3] != 124) {
        s->has_soffset = 1;
        s->soffset = (uint8_t)v[3];
    }
    unsigned n = r->src_n[0];
    if (r->flags & SC_F_SDATA_INT) {
        imm_opnd(&in->src[0], (int32_t)v[0]);
        in->nsrc = 1;
    } else if (n) {
        sreg_opnd(&in->dst[in->ndst++], in->arch, v[0], n);
    }
    if (r->src_n[1]) {
        sreg_opnd(&in->src[1], in->arch, v[1] * 2, r->src_n[1]);
        in->nsrc = 2;
    }
    if (s->has_soffset && (r->src_n[1] || (r->flags & SC_F_PREFETCH))) {
        sreg_opnd(&in->src[2], in->arch, s->soffset, 1);
        in->nsrc = 3;
    }
    return 8;
}

size_t isa_dec_scalar(isa_arch arch, isa_fmt f, const uint32_t *w, size_t nw, isa_inst *in) {
    const sc_layout *L = &sc_layouts[f];
    const isa_opinfo *tab = sc_targets[arch].tab[f];
    if (!tab || nw == 0)
        return 0;
    unsigned op = bits(w[0], L->op_sh, L->op_w);
    if (f == ISA_FMT_SMEM && isa_is_rdna(arch))
        op = isa_targets[arch].rdna >= 12 ? bits(w[0], 13, 6) : bits(w[0], 18, 8);
    const isa_opinfo *r = &tab[op];
    if (r->op == ISA_OP_ILLEGAL)
        return 0;
    in->op = r->op;
    in->encop = (uint16_t)op;
    in->info = r;
    size_t n = f != ISA_FMT_SMEM   ? dec_sop(f, r, w, nw, in)
               : isa_is_rdna(arch) ? dec_smem_rdna(r, w, nw, in)
                                   : dec_smem(r, w, nw, in);
    if (n == 0)
        in->op = ISA_OP_ILLEGAL;
    return n;
}

/* ---- printing ---------------------------------------------------------------------------- */

/* The printer appends LLVM's misalignment warnings after the instruction, in operand order:
 * " ; Warning: SGPR_64: scalar reg isn't aligned 3Warning: ..." (LLVM concatenates them). */
typedef struct {
    isa_buf *b;
    unsigned arch;
    char warn[256];
    isa_buf w;
    int nops;
} sc_out;

static void sep(sc_out *o) { isa_puts(o->b, o->nops++ ? ", " : " "); }

static void put_tuple(sc_out *o, const char *cls, const char *pfx, unsigned base, unsigned raw,
                      unsigned n) {
    unsigned a = n == 2 ? 2 : 4;
    unsigned al = base & ~(a - 1);
    isa_printf(o->b, "%s[%u:%u]", pfx, al, al + n - 1);
    if (al != base)
        isa_printf(&o->w, "Warning: %s_%u: scalar reg isn't aligned %u", cls, 32 * n, raw);
}

/* Register name for encoding enc as an n-dword operand (enc < 128). */
static void put_sreg(sc_out *o, unsigned enc, unsigned n) {
    if (n == 1) {
        isa_put_sreg_arch(o->b, o->arch, enc, 1);
    } else if (enc <= last_sgpr(o->arch)) {
        put_tuple(o, "SGPR", "s", enc, enc, n);
    } else if (enc >= 108 && enc <= 123 && n == 3) {
        /* LLVM 22 has no 96-bit TTMP class: it prints the 256-bit tuple at the 4-aligned base
         * (after its invalid-register note) */
        unsigned al = (enc - 108) & ~3u;
        isa_printf(o->b, "ttmp[%u:%u]", al, al + 7);
        if (al != enc - 108)
            isa_printf(&o->w, "Warning: TTMP_256: scalar reg isn't aligned %u", enc - 108);
    } else if (enc >= 108 && enc <= 123) {
        put_tuple(o, "TTMP", "ttmp", enc - 108, enc - 108, n);
    } else if (enc == (isa_is_rdna(o->arch) ? 124u : 125u)) {
        isa_puts(o->b, "null");
    } else {
        isa_put_sreg_arch(o->b, o->arch, enc, n);
    }
}

/* LLVM holds a 64-bit operand's 32-bit literal zero-extended, so only 0..64 would have been
 * an inline constant (and print as lit()). */
static void put_src(sc_out *o, const isa_inst *in, unsigned enc, unsigned n, int type) {
    if (enc < 128) {
        put_sreg(o, enc, n);
    } else if (enc == 255 && n == 2) {
        isa_printf(o->b, in->lit <= 64 ? "lit(0x%x)" : "0x%x", in->lit);
    } else {
        isa_opnd x;
        isa_src9(&x, enc, n);
        isa_put_opnd(o->b, in, &x, n == 2 ? ISA_T_B64 : type);
    }
}

static void put_imm32(isa_buf *b, uint32_t v);

/* An operand LLVM flags as an invalid immediate prints as a plain 32-bit constant. */
static void put_src_ann(sc_out *o, const isa_inst *in, const isa_opinfo *r, unsigned slot,
                        unsigned enc, unsigned n) {
    int a = class_ann(slot_class(r, slot), enc);
    if (a > 0 && enc == 255)
        put_imm32(o->b, in->lit); /* no lit() around it either */
    else
        put_src(o, in, enc, a > 0 && enc >= 128 ? 1 : n, slot < 6 ? r->src_t[slot] : ISA_T_B32);
    if (a > 0)
        isa_puts(o->b, sc_annotations[a]);
}

static void put_ann(sc_out *o, const isa_opinfo *r, unsigned slot, unsigned v) {
    int a = class_ann(slot_class(r, slot), v);
    if (a > 0)
        isa_puts(o->b, sc_annotations[a]);
}

/* s_setreg_imm32_b32's literal prints as the inline constant it could have been. */
static void put_imm32(isa_buf *b, uint32_t v) {
    static const struct {
        uint32_t v;
        const char *s;
    } fc[] = {{0x3f000000, "0.5"},  {0xbf000000, "-0.5"}, {0x3f800000, "1.0"},
              {0xbf800000, "-1.0"}, {0x40000000, "2.0"},  {0xc0000000, "-2.0"},
              {0x40800000, "4.0"},  {0xc0800000, "-4.0"}, {0x3e22f983, "0.15915494"}};
    if ((int32_t)v >= -16 && (int32_t)v <= 64) {
        isa_printf(b, "%d", (int32_t)v);
        return;
    }
    for (size_t i = 0; i < sizeof fc / sizeof fc[0]; i++)
        if (fc[i].v == v) {
            isa_puts(b, fc[i].s);
            return;
        }
    isa_printf(b, "0x%x", v);
}

/* lgkm_max: 15 on gfx9, 63 on gfx11 (its wider lgkmcnt field). */
static void put_waitcnt(isa_buf *b, const isa_scalar_fields *s, unsigned lgkm_max) {
    static const char *const nm[3] = {"vmcnt", "expcnt", "lgkmcnt"};
    const unsigned val[3] = {s->vmcnt, s->expcnt, s->lgkmcnt}, max[3] = {63, 7, lgkm_max};
    int all = val[0] == max[0] && val[1] == max[1] && val[2] == max[2];
    int first = 1;
    /* a counter at its maximum means "don't wait" and is left out, unless all are */
    for (int i = 0; i < 3; i++) {
        if (!all && val[i] == max[i])
            continue;
        isa_printf(b, "%s%s(%u)", first ? "" : " ", nm[i], val[i]);
        first = 0;
    }
}

/* gfx11+: a known 8-bit id prints by name whatever bits 15:8 hold (LLVM 22 masks them). */
static void put_sendmsg_rdna(isa_buf *b, const sc_msg *tab, unsigned v) {
    if (tab[v & 0xff].name)
        isa_printf(b, "sendmsg(%s)", tab[v & 0xff].name);
    else if (v < 256)
        isa_printf(b, "sendmsg(%u, 0, 0)", v);
    else
        isa_printf(b, "%u", v);
}

/* s_delay_alu (RDNA3 ISA "s_delay_alu"): fields that are 0 are left out. */
static void put_delay(isa_buf *b, unsigned v) {
    static const char *const id[] = {"NO_DEP",        "VALU_DEP_1",    "VALU_DEP_2",
                                     "VALU_DEP_3",    "VALU_DEP_4",    "TRANS32_DEP_1",
                                     "TRANS32_DEP_2", "TRANS32_DEP_3", "FMA_ACCUM_CYCLE_1",
                                     "SALU_CYCLE_1",  "SALU_CYCLE_2",  "SALU_CYCLE_3"};
    static const char *const skip[] = {"SAME", "NEXT", "SKIP_1", "SKIP_2", "SKIP_3", "SKIP_4"};
    const unsigned f[3] = {v & 15, (v >> 4) & 7, (v >> 7) & 15};
    static const char *const nm[3] = {"instid0", "instskip", "instid1"};
    int first = 1;
    for (int i = 0; i < 3; i++) {
        if (!f[i])
            continue;
        isa_printf(b, "%s%s(", first ? "" : " | ", nm[i]);
        if (i == 1)
            isa_puts(b, f[i] < 6 ? skip[f[i]] : "/* invalid instskip value */");
        else
            isa_puts(b, f[i] < 12 ? id[f[i]] : "/* invalid instid value */");
        isa_puts(b, ")");
        first = 0;
    }
    if (first)
        isa_puts(b, "0");
}

/* s_waitcnt_depctr / s_wait_alu: counters at their maximum are left out unless all are; bits
 * 6:5 belong to no counter and force the plain hex form. */
static void put_depctr(isa_buf *b, unsigned v) {
    static const struct {
        const char *n;
        uint8_t sh, w;
    } f[] = {{"hold_cnt", 7, 1}, {"sa_sdst", 0, 1}, {"va_vdst", 12, 4}, {"va_sdst", 9, 3},
             {"va_ssrc", 8, 1},  {"va_vcc", 1, 1},  {"vm_vsrc", 2, 3}};
    if (v & 0x60) {
        isa_printf(b, "0x%x", v);
        return;
    }
    int all = 1;
    for (size_t i = 0; i < sizeof f / sizeof f[0]; i++)
        all &= ((v >> f[i].sh) & ((1u << f[i].w) - 1)) == (1u << f[i].w) - 1;
    int first = 1;
    for (size_t i = 0; i < sizeof f / sizeof f[0]; i++) {
        unsigned x = (v >> f[i].sh) & ((1u << f[i].w) - 1);
        if (!all && x == (1u << f[i].w) - 1)
            continue;
        isa_printf(b, "%sdepctr_%s(%u)", first ? "" : " ", f[i].n, x);
        first = 0;
    }
}

/* s_version: bits 12:8 set give plain hex; otherwise the low byte (by name, else decimal) or-ed
 * with each flag of bits 15:13, every earlier expression in parentheses (LLVM's printer). */
static void put_version(isa_buf *b, unsigned v) {
    static const char *const flag[3] = {"UC_VERSION_W64_BIT", "UC_VERSION_W32_BIT",
                                        "UC_VERSION_MDP_BIT"};
    if (v & 0x1f00) {
        isa_printf(b, "0x%x", v);
        return;
    }
    unsigned n = 0;
    for (int i = 0; i < 3; i++)
        n += (v >> (13 + i)) & 1;
    for (unsigned i = 1; i < n; i++)
        isa_puts(b, "(");
    switch (v & 0xff) {
    case 0: isa_puts(b, "UC_VERSION_GFX7"); break;
    case 4: isa_puts(b, "UC_VERSION_GFX10"); break;
    case 6: isa_puts(b, "UC_VERSION_GFX11"); break;
    case 9: isa_puts(b, "UC_VERSION_GFX12"); break;
    default: isa_printf(b, "%u", v & 0xff);
    }
    for (int i = 0, k = 0; i < 3; i++)
        if ((v >> (13 + i)) & 1)
            isa_printf(b, "%s|%s", k++ ? ")" : "", flag[i]);
}

static void put_sendmsg(isa_buf *b, const sc_msg *tab, unsigned v) {
    unsigned msg = v & 15, op = (v >> 4) & 7, st = (v >> 8) & 3;
    const sc_msg *m = &tab[msg];
    if (m->name) {
        if (!m->has_ops) {
            if (op == 0 && st == 0) {
                isa_printf(b, "sendmsg(%s)", m->name);
                return;
            }
        } else if (m->ops[op]) {
            if (m->stream_ops >> op & 1) {
                isa_printf(b, "sendmsg(%s, %s, %u)", m->name, m->ops[op], st);
                return;
            }
            if (st == 0) {
                isa_printf(b, "sendmsg(%s, %s)", m->name, m->ops[op]);
                return;
            }
        }
    }
    /* numeric form only when the value round-trips through the three fields */
    if ((v & ~0x37fu) == 0)
        isa_printf(b, "sendmsg(%u, %u, %u)", msg, op, st);
    else
        isa_printf(b, "%u", v);
}

static void put_gpridx(isa_buf *b, unsigned v) {
    static const char *const nm[4] = {"SRC0", "SRC1", "SRC2", "DST"};
    if (v > 15) {
        isa_printf(b, "0x%x", v);
        return;
    }
    isa_puts(b, "gpr_idx(");
    for (int i = 0, k = 0; i < 4; i++)
        if (v >> i & 1)
            isa_printf(b, "%s%s", k++ ? "," : "", nm[i]);
    isa_puts(b, ")");
}

static void put_hwreg(isa_buf *b, const char *const *names, const isa_scalar_fields *s) {
    char id[8];
    const char *n = names[s->hw_id];
    if (!n) {
        snprintf(id, sizeof id, "%u", s->hw_id);
        n = id;
    }
    if (s->hw_off == 0 && s->hw_size == 32)
        isa_printf(b, "hwreg(%s)", n);
    else
        isa_printf(b, "hwreg(%s, %u, %u)", n, s->hw_off, s->hw_size);
}

static void put_imm16(sc_out *o, const isa_inst *in, const isa_opinfo *r) {
    const isa_scalar_fields *s = &in->f.s;
    unsigned v = s->imm16;
    isa_buf *b = o->b;
    switch (r->flags & SC_IMM_MASK) {
    case SC_IMM_NONE: return;
    case SC_IMM_ENDPGM:
        if (v == 0)
            return;
        break;
    default: break;
    }
    sep(o);
    switch (r->flags & SC_IMM_MASK) {
    case SC_IMM_HEX: isa_printf(b, "0x%x", v); break;
    case SC_IMM_U16: /* LLVM prints small values in decimal, others in hex */
        isa_printf(b, v <= 64 ? "%u" : "0x%x", v);
        break;
    case SC_IMM_WAITCNT: put_waitcnt(b, s, 15); break;
    case SC_IMM_SENDMSG:
        if (isa_is_rdna(in->arch))
            put_sendmsg_rdna(b, sc_targets[in->arch].sendmsg, v);
        else
            put_sendmsg(b, sc_targets[in->arch].sendmsg, v);
        break;
    case SC_IMM_WAITCNT11: put_waitcnt(b, s, 63); break;
    case SC_IMM_DELAY: put_delay(b, v); break;
    case SC_IMM_DEPCTR: put_depctr(b, v); break;
    case SC_IMM_VERSION: put_version(b, v); break;
    case SC_IMM_GPRIDX: put_gpridx(b, v); break;
    case SC_IMM_HWREG: put_hwreg(b, sc_targets[in->arch].hwreg, s); break;
    default: /* UDEC, ENDPGM: unsigned decimal, branch offsets included */ isa_printf(b, "%u", v);
    }
}

static void print_sop(sc_out *o, const isa_inst *in, const isa_opinfo *r) {
    const sc_layout *L = &sc_layouts[in->fmt];
    unsigned v[3] = {0, 0, 0};
    for (unsigned i = 0; i < L->nslot; i++)
        v[i] = bits(in->w[0], L->sh[i], L->w[i]);
    switch (in->fmt) {
    case ISA_FMT_SOP2:
    case ISA_FMT_SOP1:
    case ISA_FMT_SOPC: {
        int dst = in->fmt != ISA_FMT_SOPC;
        if (r->flags & SC_F_KIMM) { /* s_fmamk_f32 d, a, K, b and s_fmaak_f32 d, a, b, K */
            int mk = in->op == ISA_OP_S_FMAMK_F32; /* K before the last source */
            sep(o);
            put_sreg(o, v[0], r->src_n[0]);
            put_ann(o, r, 0, v[0]);
            sep(o);
            put_src_ann(o, in, r, 1, v[1], r->src_n[1]);
            if (mk) { /* K always prints as plain hex (LLVM 22) */
                sep(o);
                isa_printf(o->b, "0x%x", in->lit);
            }
            sep(o);
            put_src_ann(o, in, r, 2, v[2], r->src_n[2]);
            if (!mk) {
                sep(o);
                isa_printf(o->b, "0x%x", in->lit);
            }
            break;
        }
        for (unsigned i = 0; i < L->nslot; i++) {
            if (!r->src_n[i])
                continue;
            sep(o);
            if (i == 1 && (r->flags & SC_F_GPRIDX_SRC1))
                put_gpridx(o->b, v[i]);
            else if (i == 1 && (r->flags & SC_F_SENDMSG_SRC))
                put_sendmsg_rdna(o->b, sc_targets[in->arch].sendmsg, v[i]);
            else if (i == 0 && dst)
                put_sreg(o, v[i], r->src_n[i]);
            else {
                put_src_ann(o, in, r, i, v[i], r->src_n[i]);
                if (i == (dst ? 1u : 0u) && v[i] == 125 && (r->flags & SC_F_M0_SPACE))
                    isa_puts(o->b, " ");
                continue;
            }
            put_ann(o, r, i, v[i]);
        }
        break;
    }
    case ISA_FMT_SOPK: {
        /* hwreg() comes first for the setreg forms, last for getreg */
        int hw_first =
            (r->flags & SC_IMM_MASK) == SC_IMM_HWREG && (r->flags & (SC_F_SDST_READ | SC_F_IMM32));
        if (hw_first)
            put_imm16(o, in, r);
        if (r->src_n[0]) {
            sep(o);
            put_sreg(o, v[0], r->src_n[0]);
            put_ann(o, r, 0, v[0]);
        }
        if (r->flags & SC_F_IMM32) {
            sep(o);
            put_imm32(o->b, in->lit);
        } else if (!hw_first) {
            put_imm16(o, in, r);
        }
        break;
    }
    default: /* SOPP */ put_imm16(o, in, r);
    }
}

static void print_smem(sc_out *o, const isa_inst *in, const isa_opinfo *r) {
    const isa_scalar_fields *s = &in->f.s;
    unsigned v[4];
    smem_slots(in->w, v);
    if (r->flags & SC_F_SDATA_INT) { /* printed like SOPP's plain immediates */
        sep(o);
        isa_printf(o->b, v[0] <= 64 ? "%u" : "0x%x", v[0]);
    } else if (r->src_n[0]) {
        size_t w0 = o->w.len;
        sep(o);
        put_sreg(o, v[0], r->src_n[0]);
        put_ann(o, r, 0, v[0]);
        /* a returning atomic has sdata as both result and source: LLVM warns twice */
        if ((r->flags & SC_F_ATOMIC) && s->glc && o->w.len > w0 && o->w.len < sizeof o->warn) {
            char dup[sizeof o->warn];
            memcpy(dup, o->warn + w0, o->w.len - w0);
            dup[o->w.len - w0] = 0;
            isa_puts(&o->w, dup);
        }
    }
    if (r->src_n[1]) {
        sep(o);
        put_sreg(o, v[1] * 2, r->src_n[1]);
        put_ann(o, r, 1, v[1]);
        sep(o);
        if (s->has_soffset) {
            unsigned slot = bits(in->w[0], 14, 1) ? 3 : 2;
            put_sreg(o, v[slot], 1);
            put_ann(o, r, slot, v[slot]);
            if (s->has_imm)
                isa_puts(o->b, " offset:");
        }
        if (s->has_imm) {
            if (s->offset < 0)
                isa_printf(o->b, "-0x%x", (unsigned)-s->offset);
            else
                isa_printf(o->b, "0x%x", (unsigned)s->offset);
        }
    }
    if (s->glc && (r->flags & SC_F_GLC))
        isa_puts(o->b, " glc");
}

static void put_offset(isa_buf *b, int32_t off) {
    if (off < 0)
        isa_printf(b, "-0x%x", (unsigned)-off);
    else
        isa_printf(b, "0x%x", (unsigned)off);
}

/* RDNA SMEM text, probed from LLVM 22: "sdata, sbase, soffset offset:X" where a null soffset
 * leaves the bare offset; gfx11 leaves out a zero offset (and prints "null" when both are
 * empty), gfx12 always prints it.  s_prefetch_*: "sbase, offset, soffset, sdata". */
static void print_smem_rdna(sc_out *o, const isa_inst *in, const isa_opinfo *r) {
    const isa_scalar_fields *s = &in->f.s;
    int g12 = isa_targets[in->arch].rdna >= 12;
    unsigned v[4];
    smem_slots(in->w, v);
    if (r->flags & SC_F_PREFETCH) {
        if (r->src_n[1]) {
            sep(o);
            put_sreg(o, v[1] * 2, r->src_n[1]);
            put_ann(o, r, 1, v[1]);
        }
        sep(o);
        put_offset(o->b, s->offset);
        sep(o);
        put_sreg(o, v[3], 1);
        put_ann(o, r, 3, v[3]);
        sep(o);
        isa_printf(o->b, "%u", v[0]);
        return;
    }
    if (r->flags & SC_F_SDATA_INT) {
        sep(o);
        isa_printf(o->b, v[0] <= 64 ? "%u" : "0x%x", v[0]);
    } else if (r->src_n[0]) {
        sep(o);
        put_sreg(o, v[0], r->src_n[0]);
        put_ann(o, r, 0, v[0]);
    }
    if (!r->src_n[1])
        return;
    sep(o);
    put_sreg(o, v[1] * 2, r->src_n[1]);
    put_ann(o, r, 1, v[1]);
    sep(o);
    if (s->has_soffset) {
        put_sreg(o, v[3], 1);
        put_ann(o, r, 3, v[3]);
        if (s->offset || g12) {
            isa_puts(o->b, " offset:");
            put_offset(o->b, s->offset);
        }
    } else if (s->offset || g12) {
        put_offset(o->b, s->offset);
    } else {
        isa_puts(o->b, "null");
    }
    if (!(r->flags & SC_F_GLC))
        return;
    if (g12) {
        /* th 3 is "last use", named BYPASS at system scope (LLVM 22's CPol printer) */
        static const char *const th[4] = {NULL, "TH_LOAD_NT", "TH_LOAD_HT", "TH_LOAD_LU"};
        static const char *const scope[4] = {NULL, "SCOPE_SE", "SCOPE_DEV", "SCOPE_SYS"};
        unsigned t = bits(in->w[0], 23, 2), sc = bits(in->w[0], 21, 2);
        if (bits(in->w[1], 24, 1))
            isa_puts(o->b, " scale_offset");
        if (t)
            isa_printf(o->b, " th:%s", t == 3 && sc == 3 ? "TH_LOAD_BYPASS" : th[t]);
        if (sc)
            isa_printf(o->b, " scope:%s", scope[sc]);
        if (s->nv)
            isa_puts(o->b, " nv");
    } else {
        if (s->glc)
            isa_puts(o->b, " glc");
        if (bits(in->w[0], 13, 1))
            isa_puts(o->b, " dlc");
    }
}

void isa_print_scalar(isa_buf *b, const isa_inst *in) {
    const isa_opinfo *r = in->info;
    sc_out o = {.b = b, .arch = in->arch};
    o.w = (isa_buf){o.warn, sizeof o.warn, 0};
    o.warn[0] = 0;
    isa_puts(b, isa_op_names[in->op]);
    if (in->fmt == ISA_FMT_SMEM && isa_is_rdna(in->arch))
        print_smem_rdna(&o, in, r);
    else if (in->fmt == ISA_FMT_SMEM)
        print_smem(&o, in, r);
    else
        print_sop(&o, in, r);
    if (o.w.len) {
        isa_puts(b, " ; ");
        isa_puts(b, o.warn);
    }
}
