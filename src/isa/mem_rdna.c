/* mem_rdna.c - the RDNA memory encodings: DS, FLAT/GLOBAL/SCRATCH, MUBUF and MTBUF on gfx1100,
 * DS, VFLAT/VGLOBAL/VSCRATCH and VBUFFER on gfx1201: decode into isa_inst, print LLVM 22's text.
 * Decoded and printed only: nothing RDNA executes.
 *
 * Encodings (RDNA3 / RDNA4 ISA manuals, "Microcode formats"; bit positions checked against
 * LLVM 22):
 *   DS (both)     w0: 110110 op[25:18] gds[17] (gfx11 only) offset1[15:8] offset0[7:0]
 *                 w1: vdst[31:24] data1[23:16] data0[15:8] addr[7:0]
 *   FLAT (gfx11)  w0: 110111 op[24:18] seg[17:16] slc[15] glc[14] dlc[13] offset[12:0]
 *                 w1: vdst[31:24] sve[23] saddr[22:16] data[15:8] addr[7:0]
 *   VFLAT (gfx12) w0: 111011 seg[25:24] op[21:14] nv[7] saddr[6:0]
 *                 w1: data[30:23] th[22:20] scope[19:18] sve[17] scale_offset[16] vdst[7:0]
 *                 w2: offset[31:8] (signed 24-bit) addr[7:0]
 *   MUBUF (gfx11) w0: 111000 op[25:18] glc[14] dlc[13] slc[12] offset[11:0]
 *   MTBUF (gfx11) w0: 111010 format[25:19] op[18:15] glc[14] dlc[13] slc[12] offset[11:0]
 *                 w1 (both): soffset[31:24] idxen[23] offen[22] tfe[21] srsrc[20:16] (quads)
 *                 vdata[15:8] vaddr[7:0]
 *   VBUFFER (gfx12) w0: 110001 tfe[22] op[21:14] (128+: tbuffer) nv[7] soffset[6:0]
 *                 w1: idxen[31] offen[30] format[29:23] th[22:20] scope[19:18] srsrc[15:9]
 *                 vdata[7:0];  w2: offset[31:8] (unsigned 23-bit; bit 31 must be 0) vaddr[7:0]
 *
 * Per-op facts (mnemonic, register widths, accepted modifier bits) and the exact text of every
 * value of the scalar fields, the MTBUF format and the gfx12 th/scope pair come from
 * gen/mem_rdna.inc (tools/isagen/mem_rdna.py).  The CDNA encodings stay in mem.c.
 */
#include "isa/isa.h"

enum {
    RM_B_GDS = 1 << 0,
    RM_B_GLC = 1 << 1,
    RM_B_SLC = 1 << 2,
    RM_B_DLC = 1 << 3,
    RM_B_TFE = 1 << 4,
    RM_B_RTN = 1 << 5, /* FLAT atomics: glc (gfx11) / th bit 0 (gfx12) returns into vdst */
    RM_B_NV = 1 << 6,
    RM_B_SCALE = 1 << 7, /* gfx12 scale_offset */
};

enum {
    RM_OFF_16 = 0,
    RM_OFF_PAIR = 1,
    RM_OFF_SWIZZLE = 2,
    RM_OFF_NONE = 3,    /* ds_nop: offsets must be zero */
    RM_NEED_GDS = 4,    /* GWS ops: legal only with gds */
    RM_NO_VADDR = 8,    /* global_*_addtid: no vaddr */
    RM_FORMAT = 16,     /* tbuffer_*: prints the format field */
    RM_EXEC_PLAIN = 32, /* global: saddr = exec prints without LLVM's wrong-class note */
};

enum { RM_S_VDST, RM_S_ADDR, RM_S_DATA, RM_S_DATA1 };

struct rm_row {
    isa_opinfo info; /* dst_n[0] vdst, src_n[0] addr, src_n[1] data, src_n[2] data1 */
    uint8_t fields;  /* 1 << RM_S_*: register fields the op prints */
    uint8_t ok;      /* RM_B_* bits the op accepts */
    uint8_t shown;   /* RM_B_* bits that change its text */
    uint8_t style;   /* RM_OFF_* | RM_NEED_GDS | RM_NO_VADDR */
    uint8_t rtn_n;   /* FLAT atomics: vdst dwords of the returning form */
    uint8_t th;      /* gfx12: th/scope names of [0] loads, [1] stores, [2] atomics */
};

/* A scalar field value as LLVM prints it: size 0 = illegal, 12 (gfx11 soffset 255) = a literal
 * follows; warn is LLVM's trailing alignment warning. */
struct rm_str {
    uint8_t size;
    const char *text, *warn;
};

#include "isa/gen/mem_rdna.inc"

static const struct {
    const struct rm_row *ds, *flat, *buf, *mtbuf;
    unsigned nflat; /* opcodes per FLAT segment */
    const struct rm_str *saddr64, *saddr32, *soffset, *srsrc;
    const char *const *format;
    const char *const (*th)[32];
    const uint16_t *ldsdir, *exp_op;
    const char *const *exp_target;
} rm_targets[ISA_NARCH] = {
    [ISA_GFX1100] = {rm_ds_gfx1100, &rm_flat_gfx1100[0][0], rm_mubuf_gfx1100, rm_mtbuf_gfx1100, 128,
                     rm_saddr64_gfx1100, rm_saddr32_gfx1100, rm_soffset_gfx1100, rm_srsrc_gfx1100,
                     rm_format_gfx1100, NULL, rm_ldsdir_gfx1100, &rm_exp_op_gfx1100,
                     rm_exp_target_gfx1100},
    [ISA_GFX1201] = {rm_ds_gfx1201, &rm_flat_gfx1201[0][0], rm_vbuffer_gfx1201, NULL, 256,
                     rm_saddr64_gfx1201, rm_saddr32_gfx1201, rm_soffset_gfx1201, rm_srsrc_gfx1201,
                     rm_format_gfx1201, rm_th_gfx1201, rm_ldsdir_gfx1201, &rm_exp_op_gfx1201,
                     rm_exp_target_gfx1201},
};

static const struct rm_row *row_of(const isa_inst *in) {
    return (const struct rm_row *)(const void *)in->info;
}

static unsigned bit(uint32_t w, unsigned b) { return (w >> b) & 1; }

static void vreg(isa_opnd *o, unsigned idx, unsigned n) { isa_reg_opnd(o, ISA_OPND_VGPR, idx, n); }

/* A scalar field: kept as the encoded value (printing reads the generated text). */
static void sfield(isa_opnd *o, unsigned enc, unsigned n) {
    isa_reg_opnd(o, ISA_OPND_SREG, enc, n);
}

static int set_row(isa_inst *in, const struct rm_row *r, unsigned op) {
    return isa_mem_set_row(in, r ? &r->info : NULL, op);
}

/* ---- DS ------------------------------------------------------------------------------------ */

static size_t dec_ds(isa_arch arch, const uint32_t *w, isa_inst *in) {
    unsigned op = (w[0] >> 18) & 0xff;
    const struct rm_row *r = &rm_targets[arch].ds[op];
    if (!set_row(in, r, op))
        return 0;
    isa_mem_fields *m = &in->f.m;
    unsigned gds = bit(w[0], 17);
    if ((gds && !(r->ok & RM_B_GDS)) || ((r->style & RM_NEED_GDS) && !gds))
        return 0;
    if ((r->style & 3) == RM_OFF_NONE && (w[0] & 0xffff))
        return 0;
    /* LLVM's DS encodings fix the fields an op does not use to zero */
    static const uint8_t shift[4] = {24, 0, 8, 16};
    unsigned reg[4];
    for (int s = 0; s < 4; s++) {
        reg[s] = (w[1] >> shift[s]) & 0xff;
        if (!(r->fields >> s & 1) && reg[s])
            return 0;
    }
    m->gds = (uint8_t)gds;
    m->offset0 = (uint8_t)w[0];
    m->offset1 = (uint8_t)(w[0] >> 8);
    m->offset = (int32_t)(w[0] & 0xffff);
    m->rtn = (r->info.flags & ISA_MF_RTN) != 0;
    if (r->fields & (1 << RM_S_VDST)) {
        vreg(&in->dst[0], reg[RM_S_VDST], r->info.dst_n[0]);
        in->ndst = 1;
    }
    if (r->fields & (1 << RM_S_ADDR)) { /* GWS ops: data0 sits in the addr byte */
        if (r->style & RM_NEED_GDS)
            vreg(&in->src[1], reg[RM_S_ADDR], r->info.src_n[1]);
        else
            vreg(&in->src[0], reg[RM_S_ADDR], 1);
    }
    if (r->fields & (1 << RM_S_DATA))
        vreg(&in->src[1], reg[RM_S_DATA], r->info.src_n[1]);
    if (r->fields & (1 << RM_S_DATA1))
        vreg(&in->src[2], reg[RM_S_DATA1], r->info.src_n[2]);
    return 8;
}

static void print_ds(isa_buf *b, const isa_inst *in) {
    const struct rm_row *r = row_of(in);
    const isa_mem_fields *m = &in->f.m;
    const char *sep = " ";
    if (in->ndst) {
        isa_puts(b, sep), isa_put_vreg(b, in->dst[0].idx, in->dst[0].n, 0);
        sep = ", ";
    }
    for (int s = 0; s < 3; s++)
        if (in->src[s].kind != ISA_OPND_NONE) {
            isa_puts(b, sep), isa_put_vreg(b, in->src[s].idx, in->src[s].n, 0);
            sep = ", ";
        }
    _Static_assert(RM_OFF_PAIR == 1 && RM_OFF_SWIZZLE == 2, "isa_put_ds_offsets' styles");
    isa_put_ds_offsets(b, r->style & 3, m);
    if (m->gds && (r->shown & RM_B_GDS))
        isa_puts(b, " gds");
}

/* ---- FLAT / GLOBAL / SCRATCH ------------------------------------------------------------- */

#define RM_NULL 124 /* RDNA's null SGPR: "off" as a saddr */

static size_t dec_flat(isa_arch arch, const uint32_t *w, size_t nw, isa_inst *in) {
    int g12 = isa_targets[arch].rdna >= 12;
    unsigned seg, op, saddr, sve, vdst, data, addr, bits = 0;
    isa_mem_fields *m = &in->f.m;
    if (g12) {
        if (nw < 3)
            return 0;
        seg = (w[0] >> 24) & 3;
        op = (w[0] >> 14) & 0xff;
        saddr = w[0] & 0x7f;
        sve = bit(w[1], 17);
        vdst = w[1] & 0xff;
        data = (w[1] >> 23) & 0xff;
        addr = w[2] & 0xff;
        bits = (bit(w[0], 7) ? RM_B_NV : 0) | (bit(w[1], 16) ? RM_B_SCALE : 0);
        m->th = (uint8_t)((w[1] >> 20) & 7);
        m->scope = (uint8_t)((w[1] >> 18) & 3);
        m->offset = (int32_t)w[2] >> 8;
    } else {
        seg = (w[0] >> 16) & 3;
        op = (w[0] >> 18) & 0x7f;
        saddr = (w[1] >> 16) & 0x7f;
        sve = bit(w[1], 23);
        vdst = w[1] >> 24;
        data = (w[1] >> 8) & 0xff;
        addr = w[1] & 0xff;
        bits = (bit(w[0], 14) ? RM_B_GLC : 0) | (bit(w[0], 15) ? RM_B_SLC : 0) |
               (bit(w[0], 13) ? RM_B_DLC : 0);
        unsigned off13 = w[0] & 0x1fff;
        /* flat offsets are unsigned; global and scratch offsets are signed 13-bit */
        m->offset = seg == 0 ? (int32_t)off13 : (int32_t)(off13 ^ 0x1000) - 0x1000;
    }
    if (seg > 2)
        return 0;
    const struct rm_row *r = &rm_targets[arch].flat[seg * rm_targets[arch].nflat + op];
    if (!set_row(in, r, op))
        return 0;
    if (bits & ~r->ok)
        return 0;
    m->seg = (uint8_t)seg;
    m->glc = m->sc0 = (bits & RM_B_GLC) != 0;
    m->slc = m->nt = (bits & RM_B_SLC) != 0;
    m->dlc = (bits & RM_B_DLC) != 0;
    m->nv = (bits & RM_B_NV) != 0;
    m->scale_offset = (bits & RM_B_SCALE) != 0;
    m->saddr = (uint8_t)saddr;
    m->sve = (uint8_t)sve;
    m->saddr_off = saddr == RM_NULL;
    unsigned an = 0;
    switch (seg) {
    case 0:
        if (saddr != RM_NULL || sve) /* flat has no saddr */
            return 0;
        an = 2;
        break;
    case 1:
        if (!rm_targets[arch].saddr32[saddr].size)
            return 0;
        an = sve ? 1 : 0;
        sfield(&in->src[3], saddr, 1);
        break;
    default:
        if (sve || !rm_targets[arch].saddr64[saddr].size)
            return 0;
        if (!r->fields && saddr != RM_NULL) /* global_inv/wb/wbinv: no operands at all */
            return 0;
        an = m->saddr_off ? 2 : 1;
        sfield(&in->src[3], saddr, 2);
        if (r->style & RM_NO_VADDR)
            an = 0;
    }
    if (an)
        vreg(&in->src[0], addr, an);
    if (r->info.src_n[1])
        vreg(&in->src[1], data, r->info.src_n[1]);
    unsigned dn = r->info.dst_n[0];
    int rtn = g12 ? (m->th & 1) : m->glc;
    if ((r->ok & RM_B_RTN) && rtn) {
        dn = r->rtn_n;
        m->rtn = 1;
    }
    if (dn) {
        vreg(&in->dst[0], vdst, dn);
        in->ndst = 1;
    }
    return g12 ? 12 : 8;
}

/* The cache policy: gfx11 glc/slc/dlc, gfx12 th/scope (names per op kind) and nv. */
static void put_cpol(isa_buf *b, const isa_inst *in) {
    const struct rm_row *r = row_of(in);
    const isa_mem_fields *m = &in->f.m;
    const char *const(*th)[32] = rm_targets[in->arch].th;
    if (th) {
        const char *s = th[r->th][m->th * 4 + m->scope];
        if (*s)
            isa_printf(b, " %s", s);
        if (m->nv && (r->shown & RM_B_NV))
            isa_puts(b, " nv");
        return;
    }
    if (m->glc && (r->shown & RM_B_GLC))
        isa_puts(b, " glc");
    if (m->slc && (r->shown & RM_B_SLC))
        isa_puts(b, " slc");
    if (m->dlc && (r->shown & RM_B_DLC))
        isa_puts(b, " dlc");
}

static void print_flat(isa_buf *b, const isa_inst *in) {
    const isa_mem_fields *m = &in->f.m;
    const struct rm_str *warn = NULL;
    const char *sep = " ";
    if (in->ndst) {
        isa_puts(b, sep), isa_put_vreg(b, in->dst[0].idx, in->dst[0].n, 0);
        sep = ", ";
    }
    if (!(m->seg == 2 && (row_of(in)->style & RM_NO_VADDR))) {
        isa_puts(b, sep);
        if (in->src[0].kind != ISA_OPND_NONE)
            isa_put_vreg(b, in->src[0].idx, in->src[0].n, 0);
        else
            isa_puts(b, "off");
        sep = ", ";
    }
    if (in->src[1].kind != ISA_OPND_NONE) {
        isa_puts(b, sep), isa_put_vreg(b, in->src[1].idx, in->src[1].n, 0);
        sep = ", ";
    }
    if (!row_of(in)->fields) { /* global_inv/wb/wbinv: modifiers only */
        if (m->scale_offset)
            isa_puts(b, " scale_offset");
        put_cpol(b, in);
        return;
    }
    if (m->seg != 0) {
        const struct rm_str *s =
            &(m->seg == 1 ? rm_targets[in->arch].saddr32 : rm_targets[in->arch].saddr64)[m->saddr];
        isa_puts(b, sep);
        if (m->seg == 2 && m->saddr == 126 && (row_of(in)->style & RM_EXEC_PLAIN))
            isa_puts(b, "exec");
        else
            isa_puts(b, s->text);
        warn = s;
    }
    if (m->offset)
        isa_printf(b, " offset:%d", m->offset);
    if (m->scale_offset)
        isa_puts(b, " scale_offset");
    put_cpol(b, in);
    if (warn)
        isa_puts(b, warn->warn);
}

/* ---- MUBUF / MTBUF / VBUFFER -------------------------------------------------------------- */

static size_t dec_buf(isa_arch arch, isa_fmt f, const uint32_t *w, size_t nw, isa_inst *in) {
    int g12 = isa_targets[arch].rdna >= 12;
    isa_mem_fields *m = &in->f.m;
    unsigned op, soff, rsrc, vdata, vaddr, bits, size;
    const struct rm_row *r;
    if (g12) {
        if (nw < 3 || bit(w[2], 31) || (w[1] & 0x30000)) /* w1[17:16] must be zero */
            return 0;
        op = (w[0] >> 14) & 0xff;
        r = &rm_targets[arch].buf[op];
        soff = w[0] & 0x7f;
        rsrc = (w[1] >> 9) & 0x7f;
        vdata = w[1] & 0xff;
        vaddr = w[2] & 0xff;
        bits = (bit(w[0], 22) ? RM_B_TFE : 0) | (bit(w[0], 7) ? RM_B_NV : 0);
        m->idxen = (uint8_t)bit(w[1], 31);
        m->offen = (uint8_t)bit(w[1], 30);
        m->format = (uint8_t)((w[1] >> 23) & 0x7f);
        m->th = (uint8_t)((w[1] >> 20) & 7);
        m->scope = (uint8_t)((w[1] >> 18) & 3);
        m->offset = (int32_t)(w[2] >> 8);
        size = 12;
    } else {
        if (f == ISA_FMT_MTBUF) {
            op = (w[0] >> 15) & 0xf;
            r = &rm_targets[arch].mtbuf[op];
            m->format = (uint8_t)((w[0] >> 19) & 0x7f);
        } else {
            op = (w[0] >> 18) & 0xff;
            r = &rm_targets[arch].buf[op];
        }
        soff = w[1] >> 24;
        rsrc = (w[1] >> 16) & 0x1f;
        vdata = (w[1] >> 8) & 0xff;
        vaddr = w[1] & 0xff;
        bits = (bit(w[0], 14) ? RM_B_GLC : 0) | (bit(w[0], 12) ? RM_B_SLC : 0) |
               (bit(w[0], 13) ? RM_B_DLC : 0) | (bit(w[1], 21) ? RM_B_TFE : 0);
        m->idxen = (uint8_t)bit(w[1], 23);
        m->offen = (uint8_t)bit(w[1], 22);
        m->offset = (int32_t)(w[0] & 0xfff);
        size = 8;
    }
    if (!set_row(in, r, op) || (bits & ~r->ok))
        return 0;
    m->glc = m->sc0 = (bits & RM_B_GLC) != 0;
    m->slc = m->nt = (bits & RM_B_SLC) != 0;
    m->dlc = (bits & RM_B_DLC) != 0;
    m->tfe = (bits & RM_B_TFE) != 0;
    m->nv = (bits & RM_B_NV) != 0;
    if (!r->fields) /* buffer_gl0_inv / buffer_gl1_inv: no operands, no address modes */
        return m->idxen || m->offen ? 0 : size;
    const struct rm_str *so = &rm_targets[arch].soffset[soff], *rs = &rm_targets[arch].srsrc[rsrc];
    if (!so->size || !rs->size)
        return 0;
    m->soffset = (uint8_t)soff;
    m->srsrc = (uint8_t)rsrc;
    if (so->size > size) { /* a literal soffset */
        if (nw * 4 < (size_t)size + 4)
            return 0;
        in->lit = w[size / 4];
        isa_src9(&in->src[4], soff, 1);
        size += 4;
    } else if (soff >= 128) { /* gfx11 SOFFSET 128-208/240-248: an inline constant */
        isa_src9(&in->src[4], soff, 1);
    } else {
        sfield(&in->src[4], soff, 1);
    }
    sfield(&in->src[3], rsrc, 4);
    unsigned an = m->offen + m->idxen;
    if (an)
        vreg(&in->src[0], vaddr, an);
    unsigned n = r->info.dst_n[0] ? r->info.dst_n[0] : r->info.src_n[1];
    n += m->tfe; /* tfe: one more dword for the fault status */
    if (r->info.dst_n[0]) {
        vreg(&in->dst[0], vdata, n);
        in->ndst = 1;
    } else {
        vreg(&in->src[1], vdata, n);
    }
    return size;
}

static void print_buf(isa_buf *b, const isa_inst *in) {
    const isa_mem_fields *m = &in->f.m;
    const struct rm_row *r = row_of(in);
    if (r->fields) {
        const isa_opnd *vd = in->ndst ? &in->dst[0] : &in->src[1];
        isa_puts(b, " ");
        isa_put_vreg(b, vd->idx, vd->n, 0);
        isa_puts(b, ", ");
        if (in->src[0].kind != ISA_OPND_NONE)
            isa_put_vreg(b, in->src[0].idx, in->src[0].n, 0);
        else
            isa_puts(b, "off");
        const struct rm_str *rs = &rm_targets[in->arch].srsrc[m->srsrc];
        const struct rm_str *so = &rm_targets[in->arch].soffset[m->soffset];
        isa_printf(b, ", %s, ", rs->text);
        if (in->src[4].kind == ISA_OPND_LITERAL)
            isa_put_opnd(b, in, &in->src[4], ISA_T_B32);
        else
            isa_puts(b, so->text);
        const char *fs = rm_targets[in->arch].format[m->format];
        if ((r->style & RM_FORMAT) && *fs)
            isa_printf(b, " %s", fs);
        isa_put_buf_addr_mods(b, m);
        put_cpol(b, in);
        if (m->tfe)
            isa_puts(b, " tfe");
        isa_puts(b, rs->warn);
        return;
    }
    put_cpol(b, in);
}

/* ---- LDSDIR (gfx11) / VDSDIR (gfx12) --------------------------------------------------------
 * 32-bit: 11001110 wait_vm_vsrc[23] (gfx12 only) op[22:20] wait_vdst[19:16] attr[15:10]
 * attrchan[9:8] vdst[7:0].  RDNA3 ISA "LDS Direct / Parameter Load": op 0 reads an attribute
 * (LDS_PARAM_LOAD), op 1 the LDS at M0 (LDS_DIRECT_LOAD), which has no attribute operand. */
enum { RM_LDSDIR_PARAM = 0, RM_LDSDIR_DIRECT = 1 };

static size_t dec_ldsdir(isa_arch arch, const uint32_t *w, isa_inst *in) {
    unsigned op = (w[0] >> 20) & 7;
    uint16_t id = rm_targets[arch].ldsdir[op];
    if (!id || (isa_targets[arch].rdna < 12 && bit(w[0], 23)))
        return 0;
    isa_mem_fields *m = &in->f.m;
    in->op = id;
    in->encop = (uint16_t)op;
    in->info = NULL;
    in->ndst = 1;
    vreg(&in->dst[0], w[0] & 0xff, 1);
    m->attr = (uint8_t)((w[0] >> 10) & 0x3f);
    m->attrchan = (uint8_t)((w[0] >> 8) & 3);
    m->wait_vdst = (uint8_t)((w[0] >> 16) & 0xf); /* gfx12: wait_va_vdst */
    m->wait_vsrc = (uint8_t)bit(w[0], 23);        /* gfx12: wait_vm_vsrc */
    return 4;
}

static void print_ldsdir(isa_buf *b, const isa_inst *in) {
    const isa_mem_fields *m = &in->f.m;
    isa_puts(b, " "), isa_put_vreg(b, in->dst[0].idx, 1, 0);
    if (in->encop == RM_LDSDIR_PARAM)
        isa_printf(b, ", attr%u.%c", m->attr, "xyzw"[m->attrchan]);
    if (isa_targets[in->arch].rdna >= 12)
        isa_printf(b, " wait_va_vdst:%u wait_vm_vsrc:%u", m->wait_vdst, m->wait_vsrc);
    else
        isa_printf(b, " wait_vdst:%u", m->wait_vdst);
}

/* ---- EXP -------------------------------------------------------------------------------------
 * 64-bit: w0 = 111110 row_en[13] done[11] target[9:4] en[3:0]; w1 = vsrc3..vsrc0 (bytes).
 * A source whose en bit is clear prints as "off". */
static size_t dec_exp(isa_arch arch, const uint32_t *w, isa_inst *in) {
    isa_mem_fields *m = &in->f.m;
    in->op = *rm_targets[arch].exp_op;
    in->encop = 0;
    in->info = NULL;
    in->nsrc = 4;
    m->target = (uint8_t)((w[0] >> 4) & 0x3f);
    m->en = (uint8_t)(w[0] & 0xf);
    m->done = (uint8_t)bit(w[0], 11);
    m->row_en = (uint8_t)bit(w[0], 13);
    for (int i = 0; i < 4; i++)
        if (m->en >> i & 1)
            vreg(&in->src[i], (w[1] >> (8 * i)) & 0xff, 1);
    return 8;
}

static void print_exp(isa_buf *b, const isa_inst *in) {
    const isa_mem_fields *m = &in->f.m;
    isa_printf(b, " %s", rm_targets[in->arch].exp_target[m->target]);
    for (int i = 0; i < 4; i++) {
        isa_puts(b, i ? ", " : " ");
        if (in->src[i].kind == ISA_OPND_VGPR)
            isa_put_vreg(b, in->src[i].idx, 1, 0);
        else
            isa_puts(b, "off");
    }
    if (m->done)
        isa_puts(b, " done");
    if (m->row_en)
        isa_puts(b, " row_en");
}

/* ---- entry points ------------------------------------------------------------------------- */

size_t isa_dec_mem_rdna(isa_arch arch, isa_fmt f, const uint32_t *w, size_t nw, isa_inst *in) {
    if (nw < 1 || !isa_is_rdna(arch))
        return 0;
    if (f == ISA_FMT_LDSDIR)
        return dec_ldsdir(arch, w, in);
    if (nw < 2)
        return 0;
    size_t n = 0;
    switch (f) {
    case ISA_FMT_EXP: n = dec_exp(arch, w, in); break;
    case ISA_FMT_DS: n = dec_ds(arch, w, in); break;
    case ISA_FMT_FLAT: n = dec_flat(arch, w, nw, in); break;
    case ISA_FMT_MUBUF:
    case ISA_FMT_MTBUF:
    case ISA_FMT_VBUFFER: n = dec_buf(arch, f, w, nw, in); break;
    default: return 0;
    }
    if (n == 0)
        in->op = ISA_OP_ILLEGAL;
    return n;
}

void isa_print_mem_rdna(isa_buf *b, const isa_inst *in) {
    isa_puts(b, isa_op_names[in->op]);
    switch (in->fmt) {
    case ISA_FMT_DS: print_ds(b, in); break;
    case ISA_FMT_FLAT: print_flat(b, in); break;
    case ISA_FMT_LDSDIR: print_ldsdir(b, in); break;
    case ISA_FMT_EXP: print_exp(b, in); break;
    default: print_buf(b, in);
    }
}
