/* mem.c - DS, FLAT/GLOBAL/SCRATCH, MUBUF, MTBUF and (gfx90a) MIMG: decode into isa_inst, print
 * LLVM 22's text.
 *
 * Encodings (64-bit; CDNA3/CDNA4 ISA manuals, "Microcode formats"; bit positions of the gfx940+
 * cache bits were probed against LLVM 22):
 *   DS     w0: 110110 acc[25] op[24:17] gds[16] offset1[15:8] offset0[7:0]
 *          w1: vdst[31:24] data1[23:16] data0[15:8] addr[7:0]
 *   FLAT   w0: 110111 sc1[25] op[24:18] nt[17] sc0[16] seg[15:14] sve/lds[13] offset[12:0]
 *          w1: vdst[31:24] acc[23] saddr[22:16] data[15:8] addr[7:0]
 *   MUBUF  w0: 111000 op[24:18] nt[17] lds[16] sc1[15] sc0[14] idxen[13] offen[12] offset[11:0]
 *   MTBUF  w0: 111010 nfmt[25:23] dfmt[22:19] op[18:15] sc0[14] idxen[13] offen[12] offset[11:0]
 *          w1 (both): soffset[31:24] acc[23] nt[22] sc1[21] srsrc[20:16] vdata[15:8] vaddr[7:0]
 *          (MUBUF keeps nt and sc1 in w0; w1 bits 22:21 are ignored there)
 *
 * Which opcode exists, its operand widths, which modifier bits it accepts and prints, and the
 * register-class names LLVM reports for misaligned tuples all come from gen/mem.inc
 * (tools/isagen/mem.py).  The slot layout of the decoded record is documented in isa.h.
 */
#include "isa/isa.h"

/* Modifier bits, one namespace for all four formats (rows say which are legal / printed). */
enum {
    MEM_B_GDS = 1 << 0,
    MEM_B_ACC = 1 << 1,
    MEM_B_SC0 = 1 << 2,
    MEM_B_SC1 = 1 << 3,
    MEM_B_NT = 1 << 4,
    MEM_B_LDS = 1 << 5, /* MUBUF lds; FLAT scratch: sve */
    MEM_B_OFFEN = 1 << 6,
    MEM_B_IDXEN = 1 << 7,
};

/* DS offset printing styles; MEM_NEED_GDS marks GWS ops, legal only with gds set;
 * MEM_EXEC_NOTE marks global ops for which LLVM flags saddr = exec as the wrong class. */
enum {
    MEM_OFF_16 = 0,
    MEM_OFF_PAIR = 1,
    MEM_OFF_SWIZZLE = 2,
    MEM_OFF_NONE = 3,    /* ds_nop: the offset fields must be zero */
    MEM_NEED_LDS = 0x20, /* gfx90a's buffer_store_lds_dword: legal only with the lds bit */
    MEM_EXEC_NOTE = 0x40,
    MEM_NEED_GDS = 0x80,
};

/* Register-field slots of a row (also the src/dst layout, see isa.h). */
enum { MEM_S_VDST, MEM_S_ADDR, MEM_S_DATA, MEM_S_DATA1 };

struct mem_row {
    isa_opinfo info; /* dst_n[0] = vdst, src_n[0] = addr, src_n[1] = data, src_n[2] = data1;
                      * FLAT: aux = mask of legal modifier combinations (see dec_flat) */
    uint8_t fields;  /* 1 << MEM_S_* for each register field the op prints (GWS ops: data0
                      * is encoded in the addr byte; its width is src_n[1]) */
    uint8_t ok;      /* MEM_B_* bits that may be set (FLAT decodes with info.aux instead) */
    uint8_t shown;   /* MEM_B_* bits that change the text */
    uint8_t style;   /* MEM_OFF_* | MEM_EXEC_NOTE | MEM_NEED_GDS */
    uint8_t rtn_n;   /* FLAT/MUBUF atomics: dwords returned when sc0 is set */
    uint8_t cls;     /* index into mem_class_sets */
};

/* MIMG (gfx90a): vdata's width depends on dmask and d16, so a row carries LLVM's width per
 * [d16][dmask] (0: that combination is illegal). */
struct mimg_row {
    isa_opinfo info;
    uint8_t width[2][16];
    uint32_t ok[2];  /* bits of w0 / w1 that may be set besides the fields (d16: width[1]) */
    uint8_t sampler; /* image_sample: prints ssamp */
    uint8_t cls[2];  /* per acc: mem_class_names id LLVM reports for a misaligned vdata */
};
struct mimg_mod {
    uint8_t word, bit;
    const char *name;
};

#include "isa/gen/mem.inc"

static const struct {
    const struct mem_row *ds, (*flat)[128], *mubuf, *mtbuf;
    const char *const *cpol;         /* names of the SC0, NT, SC1 bits */
    const struct mimg_row *mimg;     /* NULL: no image instructions (gfx940+) */
    const struct mimg_mod *mimg_mod; /* MIMG modifiers in LLVM's order */
} mem_targets[ISA_NARCH] = {
    [ISA_GFX942] = {mem_ds_gfx942, mem_flat_gfx942, mem_mubuf_gfx942, mem_mtbuf_gfx942,
                    mem_cpol_gfx942, NULL, NULL},
    [ISA_GFX950] = {mem_ds_gfx950, mem_flat_gfx950, mem_mubuf_gfx950, mem_mtbuf_gfx950,
                    mem_cpol_gfx950, NULL, NULL},
    [ISA_GFX90A] = {mem_ds_gfx90a, mem_flat_gfx90a, mem_mubuf_gfx90a, mem_mtbuf_gfx90a,
                    mem_cpol_gfx90a, mem_mimg_gfx90a, mem_mimg_mods_gfx90a},
};

static const struct mem_row *row_for(isa_arch arch, isa_fmt f, unsigned op, unsigned seg) {
    if ((unsigned)arch >= ISA_NARCH)
        return NULL;
    switch (f) {
    case ISA_FMT_DS: return &mem_targets[arch].ds[op];
    case ISA_FMT_FLAT:
        if (seg > 2)
            return NULL;
        return &mem_targets[arch].flat[seg][op];
    case ISA_FMT_MUBUF: return &mem_targets[arch].mubuf[op];
    case ISA_FMT_MTBUF: return &mem_targets[arch].mtbuf[op];
    default: return NULL;
    }
}

static const struct mem_row *row_of(const isa_inst *in) {
    return (const struct mem_row *)(const void *)in->info;
}

/* A VGPR or (acc) AGPR operand.  VGPR tuples may run past v255 (LLVM prints v[254:257]); an
 * AGPR tuple past a255 makes the word illegal. */
static int vreg(isa_opnd *o, unsigned idx, unsigned n, int agpr) {
    isa_reg_opnd(o, agpr ? ISA_OPND_AGPR : ISA_OPND_VGPR, idx, n);
    return !(agpr && idx + n > 256);
}

static void sreg(isa_opnd *o, unsigned enc, unsigned n) { isa_reg_opnd(o, ISA_OPND_SREG, enc, n); }

static unsigned bit(uint32_t w, unsigned b) { return (w >> b) & 1; }

static void set_cache_bits(isa_mem_fields *m, unsigned bits) {
    m->sc0 = m->glc = (bits & MEM_B_SC0) != 0;
    m->sc1 = (bits & MEM_B_SC1) != 0;
    m->nt = m->slc = (bits & MEM_B_NT) != 0;
    m->acc = (bits & MEM_B_ACC) != 0;
}

/* ---- DS ------------------------------------------------------------------------------------ */

static size_t dec_ds(const struct mem_row *r, const uint32_t *w, isa_inst *in) {
    isa_mem_fields *m = &in->f.m;
    unsigned bits = (bit(w[0], 16) ? MEM_B_GDS : 0) | (bit(w[0], 25) ? MEM_B_ACC : 0);
    /* GWS ops exist only with gds set; the other ops accept the bit (only GWS print it) */
    if ((bits & ~r->ok) || ((r->style & MEM_NEED_GDS) && !(bits & MEM_B_GDS)))
        return 0;
    if ((r->style & 3) == MEM_OFF_NONE && (w[0] & 0xffff))
        return 0;
    /* LLVM's DS encodings fix the fields an op does not use to zero */
    static const uint8_t shift[4] = {
        [MEM_S_VDST] = 24, [MEM_S_ADDR] = 0, [MEM_S_DATA] = 8, [MEM_S_DATA1] = 16};
    unsigned reg[4];
    for (int s = 0; s < 4; s++) {
        reg[s] = (w[1] >> shift[s]) & 0xff;
        if (!(r->fields >> s & 1) && reg[s])
            return 0;
    }
    int acc = (bits & MEM_B_ACC) != 0;
    m->gds = (bits & MEM_B_GDS) != 0;
    m->acc = (uint8_t)acc;
    m->offset0 = (uint8_t)w[0];
    m->offset1 = (uint8_t)(w[0] >> 8);
    m->offset = (int32_t)(w[0] & 0xffff);
    m->rtn = (r->info.flags & ISA_MF_RTN) != 0;
    int ok = 1;
    if (r->fields & (1 << MEM_S_VDST)) {
        ok &= vreg(&in->dst[0], reg[MEM_S_VDST], r->info.dst_n[0], acc);
        in->ndst = 1;
    }
    /* GWS ops have no address: their data0 sits in the addr byte (and follows acc) */
    if (r->fields & (1 << MEM_S_ADDR)) {
        if (r->style & MEM_NEED_GDS)
            ok &= vreg(&in->src[1], reg[MEM_S_ADDR], r->info.src_n[1], acc);
        else
            vreg(&in->src[0], reg[MEM_S_ADDR], 1, 0);
    }
    if (r->fields & (1 << MEM_S_DATA))
        ok &= vreg(&in->src[1], reg[MEM_S_DATA], r->info.src_n[1], acc);
    if (r->fields & (1 << MEM_S_DATA1))
        ok &= vreg(&in->src[2], reg[MEM_S_DATA1], r->info.src_n[2], acc);
    return ok ? 8 : 0;
}

/* ---- FLAT / GLOBAL / SCRATCH ----------------------------------------------------------------- */

/* 64-bit saddr of global: which encodings LLVM accepts (exec decodes, flagged as the wrong
 * class; m0 and the high halves of named pairs do not). */
static int saddr64_ok(unsigned enc) {
    return enc <= 102 || enc == 104 || enc == 106 || (enc >= 108 && enc <= 123) || enc == 125 ||
           enc == 126;
}

static size_t dec_flat(const struct mem_row *r, const uint32_t *w, isa_inst *in) {
    isa_mem_fields *m = &in->f.m;
    unsigned seg = (w[0] >> 14) & 3;
    /* The five modifier bits as an index into the row's mask of legal combinations (info.aux):
     * some returning atomics have no AGPR form, or none with sc1. */
    static const uint8_t kbit[5] = {MEM_B_LDS, MEM_B_SC0, MEM_B_NT, MEM_B_SC1, MEM_B_ACC};
    unsigned k = bit(w[0], 13) | bit(w[0], 16) << 1 | bit(w[0], 17) << 2 | bit(w[0], 25) << 3 |
                 bit(w[1], 23) << 4;
    if (!(r->info.aux >> k & 1))
        return 0;
    unsigned bits = 0;
    for (int i = 0; i < 5; i++)
        bits |= (k >> i & 1) ? kbit[i] : 0;
    unsigned saddr = (w[1] >> 16) & 0x7f;
    unsigned off13 = w[0] & 0x1fff;
    int acc = (bits & MEM_B_ACC) != 0;
    set_cache_bits(m, bits);
    m->seg = (uint8_t)seg;
    /* flat offsets are unsigned; global and scratch offsets are signed 13-bit */
    m->offset = seg == 0 ? (int32_t)off13 : (int32_t)(off13 ^ 0x1000) - 0x1000;
    int lds_bit = !isa_targets[in->arch].flat_sve; /* gfx90a: bit 13 is "lds" */
    m->sve = !lds_bit && seg == 1 && (bits & MEM_B_LDS);
    m->saddr_off = seg != 0 && saddr == 0x7f;
    m->lds = (r->info.flags & ISA_MF_LDS) != 0 || (lds_bit && (bits & MEM_B_LDS));

    unsigned an = 0; /* vaddr dwords */
    switch (seg) {
    case 0:
        if (saddr != 0) /* flat has no saddr; LLVM requires the field to be zero */
            return 0;
        an = 2;
        break;
    case 1:
        an = (lds_bit ? saddr == 0x7f : m->sve) ? 1 : 0;
        if (saddr != 0x7f)
            sreg(&in->src[3], saddr, 1);
        break;
    default:
        if (saddr == 0x7f) {
            an = 2;
        } else {
            if (!saddr64_ok(saddr))
                return 0;
            an = 1;
            sreg(&in->src[3], saddr, 2);
        }
    }
    if (an)
        vreg(&in->src[0], w[1] & 0xff, an, 0);
    int ok = 1;
    if (r->info.src_n[1])
        ok &= vreg(&in->src[1], (w[1] >> 8) & 0xff, r->info.src_n[1], acc);
    unsigned dn = r->info.dst_n[0];
    if (r->rtn_n && (bits & MEM_B_SC0)) {
        dn = r->rtn_n;
        m->rtn = 1;
    }
    if (m->lds) /* gfx90a's LDS DMA: the data goes to LDS at M0, not to registers */
        dn = 0;
    if (dn) {
        ok &= vreg(&in->dst[0], w[1] >> 24, dn, acc);
        in->ndst = 1;
    }
    return ok ? 8 : 0;
}

/* ---- MUBUF / MTBUF ----------------------------------------------------------------------------
 */

/* soffset: an 8-bit scalar source.  Encodings LLVM rejects: 209-229, 232-234, 249-250; 255 takes
 * a 32-bit literal after the instruction. */
static int soffset_ok(unsigned enc) {
    return !((enc >= 209 && enc <= 229) || (enc >= 232 && enc <= 234) || enc == 249 || enc == 250);
}

static size_t dec_buf(isa_fmt f, const struct mem_row *r, const uint32_t *w, size_t nw,
                      isa_inst *in) {
    isa_mem_fields *m = &in->f.m;
    unsigned bits = (bit(w[0], 12) ? MEM_B_OFFEN : 0) | (bit(w[0], 13) ? MEM_B_IDXEN : 0) |
                    (bit(w[0], 14) ? MEM_B_SC0 : 0) | (bit(w[1], 23) ? MEM_B_ACC : 0);
    if (f == ISA_FMT_MUBUF)
        bits |= (bit(w[0], 15) ? MEM_B_SC1 : 0) | (bit(w[0], 16) ? MEM_B_LDS : 0) |
                (bit(w[0], 17) ? MEM_B_NT : 0);
    else
        bits |= (bit(w[1], 21) ? MEM_B_SC1 : 0) | (bit(w[1], 22) ? MEM_B_NT : 0);
    if (bits & ~r->ok)
        return 0;
    if ((r->style & MEM_NEED_LDS) && !(bits & MEM_B_LDS))
        return 0;
    /* loading into LDS writes no registers, so there is nothing for acc to select */
    if ((bits & MEM_B_LDS) && (bits & MEM_B_ACC))
        return 0;
    int acc = (bits & MEM_B_ACC) != 0;
    set_cache_bits(m, bits);
    m->offen = (bits & MEM_B_OFFEN) != 0;
    m->idxen = (bits & MEM_B_IDXEN) != 0;
    m->lds = (bits & MEM_B_LDS) != 0;
    m->offset = (int32_t)(w[0] & 0xfff);
    if (f == ISA_FMT_MTBUF) {
        m->dfmt = (uint8_t)((w[0] >> 19) & 0xf);
        m->nfmt = (uint8_t)((w[0] >> 23) & 0x7);
    }
    if (!r->fields && !(r->style & MEM_NEED_LDS)) /* buffer_wbl2 / buffer_inv: no operands */
        return 8;
    unsigned rsrc = ((w[1] >> 16) & 0x1f) * 4, soff = w[1] >> 24;
    /* srsrc is an SGPR quad: s[0:3]..s[100:103] or ttmp[0:3]..ttmp[12:15] */
    if (rsrc == 104 || rsrc == 124 || !soffset_ok(soff))
        return 0;
    unsigned an = m->offen + m->idxen;
    if (an)
        vreg(&in->src[0], w[1] & 0xff, an, 0);
    sreg(&in->src[3], rsrc, 4);
    isa_src9(&in->src[4], soff, 1);
    size_t size = 8;
    if (isa_is_literal(soff)) {
        if (nw < 3)
            return 0;
        in->lit = w[2];
        size = 12;
    }
    int ok = 1;
    unsigned vdata = (w[1] >> 8) & 0xff;
    if (!m->lds) {
        if (r->info.dst_n[0]) { /* loads */
            ok &= vreg(&in->dst[0], vdata, r->info.dst_n[0], acc);
            in->ndst = 1;
        } else {
            ok &= vreg(&in->src[1], vdata, r->info.src_n[1], acc);
            if (r->rtn_n && (bits & MEM_B_SC0)) {
                ok &= vreg(&in->dst[0], vdata, r->rtn_n, acc);
                in->ndst = 1;
                m->rtn = 1;
            }
        }
    }
    return ok ? size : 0;
}

/* ---- MIMG (gfx90a) ----------------------------------------------------------------------------
 * w0: 111100 slc[25] op[24:18] lwe[17] acc[16] a16[15] da[14] glc[13] unorm[12] dmask[11:8]
 *     scc[7] (bits 6:1 ignored); w1: d16[31] ssamp[25:21] srsrc[20:16] vdata[15:8] vaddr[7:0].
 * Decoded only, not executed (image resources are not modelled: the engine faults by name).
 * Slots: dst[0] = vdata of loads/atomics/resinfo/sample, src[1] = vdata of stores and atomics,
 * src[0] = vaddr (LLVM prints one register whatever the address needs), src[3] = srsrc (8
 * dwords), src[5] = ssamp (4 dwords). */
static size_t dec_mimg(isa_arch arch, const uint32_t *w, isa_inst *in) {
    const struct mimg_row *tab = mem_targets[arch].mimg;
    unsigned op = (w[0] >> 18) & 0x7f;
    if (!tab || tab[op].info.op == ISA_OP_ILLEGAL)
        return 0;
    const struct mimg_row *r = &tab[op];
    isa_mem_fields *m = &in->f.m;
    const uint32_t fixed0 = 0xfc000000u | 0x7fu << 18 | 0xfu << 8, fixed1 = 0x03ffffffu;
    unsigned d16 = w[1] >> 31, dmask = (w[0] >> 8) & 0xf;
    if ((w[0] & ~(fixed0 | r->ok[0])) || (w[1] & ~(fixed1 | 1u << 31 | r->ok[1])))
        return 0;
    unsigned n = r->width[d16][dmask], dflt = r->width[0][1];
    if (!n)
        return 0;
    unsigned rsrc = ((w[1] >> 16) & 0x1f) * 4, samp = ((w[1] >> 21) & 0x1f) * 4;
    /* srsrc is an 8-dword tuple: s[0:7]..s[96:103] or ttmp[0:7]..ttmp[8:15] */
    if (rsrc == 100 || rsrc == 104 || rsrc == 120 || rsrc == 124)
        return 0;
    if (r->sampler ? (samp == 104 || samp == 124) : samp != 0)
        return 0;
    unsigned vdata = (w[1] >> 8) & 0xff;
    int acc = bit(w[0], 16);
    /* LLVM decodes the op with its base width and then widens vdata to what dmask/d16 ask for;
     * when the wider tuple cannot exist (odd start, past the last register) it keeps the base
     * width. */
    if (n != dflt && ((vdata & 1) || vdata + n > 256))
        n = dflt;
    in->op = r->info.op;
    in->encop = (uint16_t)op;
    in->info = &r->info;
    in->flags = (uint16_t)r->info.flags;
    in->nsrc = 6;
    m->dmask = (uint8_t)dmask;
    m->d16 = (uint8_t)d16;
    m->acc = (uint8_t)acc;
    m->glc = m->sc0 = (uint8_t)bit(w[0], 13);
    m->slc = m->nt = (uint8_t)bit(w[0], 25);
    m->sc1 = (uint8_t)bit(w[0], 7);
    vreg(&in->src[0], w[1] & 0xff, 1, 0);
    sreg(&in->src[3], rsrc, 8);
    if (r->sampler)
        sreg(&in->src[5], samp, 4);
    int ok = 1;
    if (r->info.flags & (ISA_MF_STORE | ISA_MF_ATOMIC))
        ok &= vreg(&in->src[1], vdata, n, acc);
    if (!(r->info.flags & ISA_MF_STORE)) {
        ok &= vreg(&in->dst[0], vdata, n, acc);
        in->ndst = 1;
    }
    return ok ? 8 : 0;
}

static void print_mimg(isa_buf *b, const isa_inst *in) {
    const struct mimg_row *r = (const struct mimg_row *)(const void *)in->info;
    const isa_mem_fields *m = &in->f.m;
    const isa_opnd *vd = in->ndst ? &in->dst[0] : &in->src[1];
    isa_puts(b, " ");
    isa_put_vreg(b, vd->idx, vd->n, vd->kind == ISA_OPND_AGPR);
    if (vd->n > 1 && (vd->idx & 1) && r->cls[m->acc])
        isa_printf(b, "/*Invalid register, operand has '%s' register class*/",
                   mem_class_names[r->cls[m->acc]]);
    isa_puts(b, ", ");
    isa_put_vreg(b, in->src[0].idx, 1, 0);
    isa_puts(b, ", ");
    isa_put_sreg(b, in->src[3].idx, 8);
    if (r->sampler)
        isa_puts(b, ", "), isa_put_sreg(b, in->src[5].idx, 4);
    if (m->dmask)
        isa_printf(b, " dmask:0x%x", m->dmask);
    for (const struct mimg_mod *mm = mem_targets[in->arch].mimg_mod; mm->name; mm++)
        if (in->w[mm->word] >> mm->bit & 1)
            isa_printf(b, " %s", mm->name);
}

size_t isa_dec_mem(isa_arch arch, isa_fmt f, const uint32_t *w, size_t nw, isa_inst *in) {
    if (nw < 2)
        return 0;
    unsigned op;
    switch (f) {
    case ISA_FMT_DS: op = (w[0] >> 17) & 0xff; break;
    case ISA_FMT_FLAT:
    case ISA_FMT_MUBUF: op = (w[0] >> 18) & 0x7f; break;
    case ISA_FMT_MTBUF: op = (w[0] >> 15) & 0xf; break;
    case ISA_FMT_MIMG: return dec_mimg(arch, w, in);
    default: return 0;
    }
    const struct mem_row *r = row_for(arch, f, op, (w[0] >> 14) & 3);
    if (!isa_mem_set_row(in, r ? &r->info : NULL, op))
        return 0;
    size_t n = f == ISA_FMT_DS     ? dec_ds(r, w, in)
               : f == ISA_FMT_FLAT ? dec_flat(r, w, in)
                                   : dec_buf(f, r, w, nw, in);
    if (n == 0)
        in->op = ISA_OP_ILLEGAL;
    return n;
}

/* ---- printing ----------------------------------------------------------------------------- */

/* A register operand, with LLVM's note when a tuple is not even-aligned (gfx90a+ requires
 * 64-bit and wider VGPR/AGPR tuples to start at an even register). */
static void put_reg(isa_buf *b, const isa_inst *in, int slot, const isa_opnd *o) {
    isa_put_vreg(b, o->idx, o->n, o->kind == ISA_OPND_AGPR);
    unsigned c = mem_class_sets[row_of(in)->cls][in->f.m.sc0][in->f.m.acc][slot];
    if (o->n > 1 && (o->idx & 1) && c)
        isa_printf(b, "/*Invalid register, operand has '%s' register class*/", mem_class_names[c]);
}

/* ds_swizzle_b32's offset as LLVM spells it: offset[15:13] == 111 is the FFT mode
 * (offset[4:0]); offset[15:14] == 11 the rotate mode (direction offset[10], count
 * offset[9:5]); offset[15] with offset[14:8] == 0 the quad-permute mode (2-bit lane selects in
 * offset[7:0]); offset[15] == 0 the bit-mask mode (and/or/xor masks in offset[4:0], [9:5],
 * [14:10]), printed as SWAP/REVERSE/BROADCAST when the masks have that shape and as a per-bit
 * pattern otherwise (0/1 = forced, p = kept, i = inverted lane-id bit).  Anything else prints
 * as a plain number. */
static void put_ds_swizzle(isa_buf *b, unsigned v) {
    if ((v & 0xe000) == 0xe000) {
        isa_printf(b, "swizzle(FFT,%u)", v & 31);
        return;
    }
    if ((v & 0xc000) == 0xc000) {
        isa_printf(b, "swizzle(ROTATE,%u,%u)", (v >> 10) & 1, (v >> 5) & 31);
        return;
    }
    if ((v & 0xff00) == 0x8000) {
        isa_printf(b, "swizzle(QUAD_PERM,%u,%u,%u,%u)", v & 3, (v >> 2) & 3, (v >> 4) & 3,
                   (v >> 6) & 3);
        return;
    }
    if (v & 0x8000) {
        isa_printf(b, "%u", v);
        return;
    }
    unsigned and_m = v & 31, or_m = (v >> 5) & 31, xor_m = (v >> 10) & 31;
    unsigned group = 32 - and_m;
    if (and_m == 31 && or_m == 0 && xor_m && !(xor_m & (xor_m - 1))) {
        isa_printf(b, "swizzle(SWAP,%u)", xor_m);
    } else if (and_m == 31 && or_m == 0 && xor_m && !((xor_m + 1) & xor_m)) {
        isa_printf(b, "swizzle(REVERSE,%u)", xor_m + 1);
    } else if (group > 1 && !(group & (group - 1)) && or_m < group && xor_m == 0) {
        isa_printf(b, "swizzle(BROADCAST,%u,%u)", group, or_m);
    } else {
        char pat[6];
        for (int i = 0; i < 5; i++) {
            unsigned bb = 1u << (4 - i);
            unsigned p0 = ((0 & and_m) | or_m) ^ xor_m, p1 = ((31 & and_m) | or_m) ^ xor_m;
            unsigned x0 = p0 & bb, x1 = p1 & bb;
            pat[i] = x0 == x1 ? (x0 ? '1' : '0') : (x0 ? 'i' : 'p');
        }
        pat[5] = 0;
        isa_printf(b, "swizzle(BITMASK_PERM,\"%s\")", pat);
    }
}

int isa_mem_set_row(isa_inst *in, const isa_opinfo *info, unsigned op) {
    if (!info || info->op == ISA_OP_ILLEGAL)
        return 0;
    in->op = info->op;
    in->encop = (uint16_t)op;
    in->info = info;
    in->flags = (uint16_t)info->flags;
    in->nsrc = 5; /* the slots of the memory operand layout in isa.h */
    in->ndst = 0;
    return 1;
}

void isa_put_buf_addr_mods(isa_buf *b, const isa_mem_fields *m) {
    if (m->idxen)
        isa_puts(b, " idxen");
    if (m->offen)
        isa_puts(b, " offen");
    if (m->offset)
        isa_printf(b, " offset:%d", m->offset);
}

void isa_put_ds_offsets(isa_buf *b, unsigned style, const isa_mem_fields *m) {
    switch (style) {
    case MEM_OFF_PAIR:
        if (m->offset0)
            isa_printf(b, " offset0:%u", m->offset0);
        if (m->offset1)
            isa_printf(b, " offset1:%u", m->offset1);
        break;
    case MEM_OFF_SWIZZLE:
        if (m->offset)
            isa_puts(b, " offset:"), put_ds_swizzle(b, (unsigned)m->offset);
        break;
    default:
        if (m->offset)
            isa_printf(b, " offset:%d", m->offset);
    }
}

static void print_ds(isa_buf *b, const isa_inst *in) {
    const struct mem_row *r = row_of(in);
    const isa_mem_fields *m = &in->f.m;
    const char *sep = " ";
    if (in->ndst) {
        isa_puts(b, sep), put_reg(b, in, MEM_S_VDST, &in->dst[0]);
        sep = ", ";
    }
    for (int s = 0; s < 3; s++) {
        static const uint8_t slot[3] = {MEM_S_ADDR, MEM_S_DATA, MEM_S_DATA1};
        if (in->src[s].kind != ISA_OPND_NONE) {
            isa_puts(b, sep), put_reg(b, in, slot[s], &in->src[s]);
            sep = ", ";
        }
    }
    isa_put_ds_offsets(b, r->style & 3, m);
    if (m->gds && (r->shown & MEM_B_GDS))
        isa_puts(b, " gds");
}

/* The cache-policy modifiers in LLVM's order. */
static void put_cpol(isa_buf *b, const isa_inst *in) {
    const struct mem_row *r = row_of(in);
    const isa_mem_fields *m = &in->f.m;
    const char *const *name = mem_targets[in->arch].cpol; /* glc/slc/scc on gfx90a */
    if (m->sc0 && (r->shown & MEM_B_SC0))
        isa_printf(b, " %s", name[0]);
    if (m->nt && (r->shown & MEM_B_NT))
        isa_printf(b, " %s", name[1]);
    if (m->sc1 && (r->shown & MEM_B_SC1))
        isa_printf(b, " %s", name[2]);
}

/* A 64-bit saddr.  An odd SGPR/TTMP number decodes to the pair below it, with a warning LLVM
 * appends to the line; returns the misaligned number (or -1) so the caller can append it. */
static int put_saddr64(isa_buf *b, const isa_inst *in, unsigned enc, const char **kind) {
    if (enc == 126) {
        isa_puts(b, "exec");
        /* (gfx90a's LDS-DMA form of a load takes exec without a note) */
        int dma90a = in->f.m.lds && !isa_targets[in->arch].flat_sve;
        if ((row_of(in)->style & MEM_EXEC_NOTE) && !dma90a)
            isa_puts(b, "/*Invalid register, operand has 'SReg_64_XEXEC_XNULL' register class*/");
        return -1;
    }
    if (enc == 125) {
        isa_puts(b, "null");
        return -1;
    }
    if (enc <= 101 && (enc & 1)) {
        isa_put_sreg(b, enc - 1, 2);
        *kind = "SGPR_64";
        return (int)enc;
    }
    if (enc >= 108 && enc <= 123 && (enc & 1)) {
        isa_put_sreg(b, enc - 1, 2);
        *kind = "TTMP_64";
        return (int)(enc - 108);
    }
    isa_put_sreg(b, enc, 2);
    return -1;
}

static void print_flat(isa_buf *b, const isa_inst *in) {
    const isa_mem_fields *m = &in->f.m;
    const char *sep = " ";
    if (in->ndst) {
        isa_puts(b, sep), put_reg(b, in, MEM_S_VDST, &in->dst[0]);
        sep = ", ";
    }
    isa_puts(b, sep);
    if (in->src[0].kind != ISA_OPND_NONE)
        put_reg(b, in, MEM_S_ADDR, &in->src[0]);
    else
        isa_puts(b, "off");
    if (in->src[1].kind != ISA_OPND_NONE)
        isa_puts(b, ", "), put_reg(b, in, MEM_S_DATA, &in->src[1]);
    int warn = -1;
    const char *kind = "";
    if (m->seg != 0) {
        isa_puts(b, ", ");
        if (m->saddr_off)
            isa_puts(b, "off");
        else if (m->seg == 1)
            isa_put_sreg(b, in->src[3].idx, 1);
        else
            warn = put_saddr64(b, in, in->src[3].idx, &kind);
    }
    if (m->offset)
        isa_printf(b, " offset:%d", m->offset);
    put_cpol(b, in);
    if (m->lds && !isa_targets[in->arch].flat_sve)
        isa_puts(b, " lds");
    if (warn >= 0)
        isa_printf(b, " ; Warning: %s: scalar reg isn't aligned %d", kind, warn);
}

static const char *const dfmt_names[16] = {
    "INVALID",     "8",        "16",          "8_8",         "32",      "16_16",
    "10_11_11",    "11_11_10", "10_10_10_2",  "2_10_10_10",  "8_8_8_8", "32_32",
    "16_16_16_16", "32_32_32", "32_32_32_32", "RESERVED_15",
};
static const char *const nfmt_names[8] = {
    "UNORM", "SNORM", "USCALED", "SSCALED", "UINT", "SINT", "RESERVED_6", "FLOAT",
};

/* soffset = src_lds_direct decodes, with LLVM's note that it is the wrong class */
static void put_soffset_note(isa_buf *b, const isa_inst *in) {
    if (in->src[4].kind == ISA_OPND_SPECIAL && in->src[4].idx == 254)
        isa_puts(b, "/*Invalid register, operand has 'SReg_32' register class*/");
}

static void print_buf(isa_buf *b, const isa_inst *in) {
    const struct mem_row *r = row_of(in);
    const isa_mem_fields *m = &in->f.m;
    if (r->style & MEM_NEED_LDS) { /* buffer_store_lds_dword: no VGPR operands, lds first */
        isa_puts(b, " ");
        isa_put_sreg(b, in->src[3].idx, 4);
        isa_puts(b, ", ");
        isa_put_opnd(b, in, &in->src[4], ISA_T_B32);
        put_soffset_note(b, in);
        if (m->offset)
            isa_printf(b, " offset:%d", m->offset);
        isa_puts(b, " lds");
        put_cpol(b, in);
        return;
    }
    if (!r->fields) { /* buffer_wbl2 / buffer_inv print their cache bits only */
        put_cpol(b, in);
        return;
    }
    {
        int load = r->info.dst_n[0] != 0;
        isa_puts(b, " ");
        if (!m->lds) {
            put_reg(b, in, load ? MEM_S_VDST : MEM_S_DATA, load ? &in->dst[0] : &in->src[1]);
            isa_puts(b, ", ");
        }
        if (in->src[0].kind != ISA_OPND_NONE)
            put_reg(b, in, MEM_S_ADDR, &in->src[0]);
        else
            isa_puts(b, "off");
        isa_puts(b, ", ");
        isa_put_sreg(b, in->src[3].idx, 4);
        isa_puts(b, ", ");
        isa_put_opnd(b, in, &in->src[4], ISA_T_B32);
        put_soffset_note(b, in);
    }
    /* MTBUF: the default format (BUF_DATA_FORMAT_8, BUF_NUM_FORMAT_UNORM) is not printed */
    if (in->fmt == ISA_FMT_MTBUF && !(m->dfmt == 1 && m->nfmt == 0)) {
        isa_puts(b, " format:[");
        if (m->dfmt != 1)
            isa_printf(b, "BUF_DATA_FORMAT_%s", dfmt_names[m->dfmt]);
        if (m->dfmt != 1 && m->nfmt != 0)
            isa_puts(b, ",");
        if (m->nfmt != 0)
            isa_printf(b, "BUF_NUM_FORMAT_%s", nfmt_names[m->nfmt]);
        isa_puts(b, "]");
    }
    isa_put_buf_addr_mods(b, m);
    put_cpol(b, in);
    if (m->lds)
        isa_puts(b, " lds");
}

void isa_print_mem(isa_buf *b, const isa_inst *in) {
    isa_puts(b, isa_op_names[in->op]);
    switch (in->fmt) {
    case ISA_FMT_DS: print_ds(b, in); break;
    case ISA_FMT_FLAT: print_flat(b, in); break;
    case ISA_FMT_MIMG: print_mimg(b, in); break;
    default: print_buf(b, in);
    }
}
