/* image_rdna.c - the RDNA image encodings: MIMG on gfx1100 (with its NSA form), VIMAGE and VSAMPLE
 * on gfx1201: decode into isa_inst, print LLVM 22's text.  Decoded and printed only: executing
 * an image instruction faults as unimplemented (src/exec/rdna.c has no row for any of them).
 *
 * Encodings (RDNA3 / RDNA4 ISA manuals, "Microcode formats"; bit positions checked against
 * LLVM 22, see tools/isagen/image_rdna.py):
 *   MIMG (gfx11)  w0: 111100 op[25:18] d16[17] a16[16] r128[15] glc[14] dlc[13] slc[12]
 *                     dmask[11:8] unorm[7] dim[4:2] nsa[0]
 *                 w1: ssamp[30:26] lwe[22] tfe[21] srsrc[20:16] (quads) vdata[15:8] vaddr[7:0]
 *                 w2 (nsa): vaddr1..vaddr4, one byte each
 *   VIMAGE (gfx12) w0: 110100 dmask[25:22] op[21:14] nv[7] a16[6] d16[5] r128[4] dim[2:0]
 *                 w1: vaddr4[31:24] tfe[23] th[22:20] scope[19:18] rsrc[17:9] vdata[7:0]
 *                 w2: vaddr3..vaddr0, one byte each
 *   VSAMPLE (gfx12) w0: 111001 dmask[25:22] op[21:14] unorm[13] nv[7] a16[6] d16[5] r128[4]
 *                     tfe[3] dim[2:0]
 *                 w1: samp[31:23] th[22:20] scope[19:18] rsrc[17:9] lwe[8] vdata[7:0]
 *                 w2: vaddr3..vaddr0
 *
 * The register counts follow LLVM's disassembler: the data takes max(popcount(dmask), 1) dwords
 * (4 for gather4), halved (rounded up) by d16, plus one for tfe; the address takes what dim and
 * a16 ask of the op.  LLVM prints those widths only when it has such a variant of the op and the
 * widened registers fit below v256; otherwise it prints the op's base variant.  The generated
 * table holds, per op and form, the fixed bits, the base shape and the shape for every
 * a16 x dim x data size; the fit check is redone here.
 */
#include "isa/isa.h"

enum { IM_GATHER4 = 1, IM_SAMPLER = 2, IM_RSRC128 = 4 };

/* Modifiers in LLVM's printing order (tools/isagen/image_rdna.py MODS); bit i of im_row.shown
 * says the op prints modifier i, bit i of isa_inst.flags that the instruction sets it. */
enum {
    IM_M_DMASK,
    IM_M_DIM,
    IM_M_UNORM,
    IM_M_GLC,
    IM_M_SLC,
    IM_M_DLC,
    IM_M_TH,
    IM_M_NV,
    IM_M_R128,
    IM_M_A16,
    IM_M_TFE,
    IM_M_LWE,
    IM_M_D16,
    IM_NMOD
};

/* A shape: vdata dwords [4:0], address count [7:5], last address dwords [12:8]; 0 = none. */
static unsigned sh_vw(unsigned s) { return s & 31; }
static unsigned sh_cnt(unsigned s) { return (s >> 5) & 7; }
static unsigned sh_lw(unsigned s) { return s >> 8; }

struct im_fix {
    uint32_t m[3], v[3]; /* bits that must hold these values */
};

struct im_var {
    uint8_t size, dbl;       /* bytes; LLVM prints two spaces after the mnemonic */
    struct im_fix fix[2];    /* per a16 (BVH's a16 form has fewer address fields) */
    uint16_t base[2];        /* the base variant's shape, per a16 */
    uint8_t bw[2][5];        /* its address widths */
    uint16_t shape[2][8][5]; /* [a16][dim][data dwords - 1] */
};

struct im_row {
    uint16_t op; /* ISA_OP_*; 0: illegal */
    uint8_t flags;
    uint16_t shown;
    uint8_t th;           /* gfx12: which th/scope name list */
    struct im_var var[2]; /* MIMG: [nsa]; VIMAGE/VSAMPLE: [0] */
};

struct im_str {
    uint8_t ok;
    const char *text, *warn;
};

#include "isa/gen/image_rdna.inc"

/* Field positions per encoding: word, shift, width (0: the encoding has no such field). */
enum {
    F_NSA,
    F_DIM,
    F_UNORM,
    F_DMASK,
    F_SLC,
    F_DLC,
    F_GLC,
    F_R128,
    F_A16,
    F_D16,
    F_OP,
    F_VADDR0,
    F_VDATA,
    F_RSRC,
    F_TFE,
    F_LWE,
    F_SAMP,
    F_NV,
    F_SCOPE,
    F_TH,
    F_VADDR4,
    F_N
};

#define IM_LIT 255 /* gfx12 scalar field value: a literal follows */

struct im_field {
    uint8_t w, sh, n;
};

enum { E_MIMG, E_VIMAGE, E_VSAMPLE };

static const struct im_enc {
    const struct im_row *rows;
    const struct im_str *rsrc8, *rsrc4, *samp;
    const char *const (*th)[32];
    unsigned rsrc_scale; /* MIMG counts resource SGPRs in quads */
    struct im_field f[F_N];
} encs[3] = {
    [E_MIMG] = {im_mimg_gfx1100,
                im_rsrc8_mimg,
                im_rsrc4_mimg,
                im_samp_mimg,
                NULL,
                4,
                {[F_NSA] = {0, 0, 1},
                 [F_DIM] = {0, 2, 3},
                 [F_UNORM] = {0, 7, 1},
                 [F_DMASK] = {0, 8, 4},
                 [F_SLC] = {0, 12, 1},
                 [F_DLC] = {0, 13, 1},
                 [F_GLC] = {0, 14, 1},
                 [F_R128] = {0, 15, 1},
                 [F_A16] = {0, 16, 1},
                 [F_D16] = {0, 17, 1},
                 [F_OP] = {0, 18, 8},
                 [F_VADDR0] = {1, 0, 8},
                 [F_VDATA] = {1, 8, 8},
                 [F_RSRC] = {1, 16, 5},
                 [F_TFE] = {1, 21, 1},
                 [F_LWE] = {1, 22, 1},
                 [F_SAMP] = {1, 26, 5}}},
    [E_VIMAGE] = {im_vimage_gfx1201,
                  im_rsrc8_vimage,
                  im_rsrc4_vimage,
                  im_samp_vimage,
                  im_th_vimage,
                  1,
                  {[F_DIM] = {0, 0, 3},
                   [F_R128] = {0, 4, 1},
                   [F_D16] = {0, 5, 1},
                   [F_A16] = {0, 6, 1},
                   [F_NV] = {0, 7, 1},
                   [F_OP] = {0, 14, 8},
                   [F_DMASK] = {0, 22, 4},
                   [F_VDATA] = {1, 0, 8},
                   [F_RSRC] = {1, 9, 9},
                   [F_SCOPE] = {1, 18, 2},
                   [F_TH] = {1, 20, 3},
                   [F_TFE] = {1, 23, 1},
                   [F_VADDR4] = {1, 24, 8},
                   [F_VADDR0] = {2, 0, 8}}},
    [E_VSAMPLE] = {im_vsample_gfx1201,
                   im_rsrc8_vsample,
                   im_rsrc4_vsample,
                   im_samp_vsample,
                   im_th_vsample,
                   1,
                   {[F_DIM] = {0, 0, 3},
                    [F_TFE] = {0, 3, 1},
                    [F_R128] = {0, 4, 1},
                    [F_D16] = {0, 5, 1},
                    [F_A16] = {0, 6, 1},
                    [F_NV] = {0, 7, 1},
                    [F_UNORM] = {0, 13, 1},
                    [F_OP] = {0, 14, 8},
                    [F_DMASK] = {0, 22, 4},
                    [F_VDATA] = {1, 0, 8},
                    [F_LWE] = {1, 8, 1},
                    [F_RSRC] = {1, 9, 9},
                    [F_SCOPE] = {1, 18, 2},
                    [F_TH] = {1, 20, 3},
                    [F_SAMP] = {1, 23, 9},
                    [F_VADDR0] = {2, 0, 8}}},
};

static unsigned fld(const struct im_enc *e, const uint32_t *w, int f) {
    const struct im_field *x = &e->f[f];
    return x->n ? (w[x->w] >> x->sh) & ((1u << x->n) - 1) : 0;
}

/* Which modifier each field sets (fields absent from an encoding read 0). */
static const uint8_t mod_field[IM_NMOD] = {
    [IM_M_UNORM] = F_UNORM, [IM_M_GLC] = F_GLC,   [IM_M_SLC] = F_SLC, [IM_M_DLC] = F_DLC,
    [IM_M_NV] = F_NV,       [IM_M_R128] = F_R128, [IM_M_A16] = F_A16, [IM_M_TFE] = F_TFE,
    [IM_M_LWE] = F_LWE,     [IM_M_D16] = F_D16,
};

static int enc_of(const isa_inst *in) {
    if (isa_targets[in->arch].rdna < 12)
        return E_MIMG;
    return (in->w[0] >> 26) == 0x34 ? E_VIMAGE : E_VSAMPLE;
}

static const struct im_row *row_of(const isa_inst *in) { return &encs[enc_of(in)].rows[in->encop]; }

static const struct im_var *var_of(const isa_inst *in) {
    return &row_of(in)->var[enc_of(in) == E_MIMG ? in->w[0] & 1 : 0];
}

static unsigned popcount4(unsigned x) {
    return (x & 1) + (x >> 1 & 1) + (x >> 2 & 1) + (x >> 3 & 1);
}

size_t isa_dec_image_rdna(isa_arch arch, isa_fmt f, const uint32_t *w, size_t nw, isa_inst *in) {
    (void)f;
    if (!isa_is_rdna(arch) || nw < 2)
        return 0;
    isa_inst tmp = {.arch = (uint8_t)arch, .w = {w[0]}};
    int ei = enc_of(&tmp);
    const struct im_enc *e = &encs[ei];
    unsigned op = fld(e, w, F_OP);
    const struct im_row *r = &e->rows[op];
    if (!r->op)
        return 0;
    unsigned nsa = fld(e, w, F_NSA);
    const struct im_var *v = &r->var[nsa];
    if (nw * 4 < v->size)
        return 0;
    unsigned a16 = fld(e, w, F_A16);
    for (int i = 0; i < 3; i++)
        if ((w[i] & v->fix[a16].m[i]) != v->fix[a16].v[i])
            return 0;
    unsigned dmask = fld(e, w, F_DMASK), dim = fld(e, w, F_DIM);
    unsigned dst = (r->flags & IM_GATHER4) ? 4 : popcount4(dmask);
    if (dst == 0)
        dst = 1;
    if (fld(e, w, F_D16))
        dst = (dst + 1) / 2;
    if (fld(e, w, F_TFE))
        dst++;
    unsigned vdata = fld(e, w, F_VDATA);
    unsigned addr[5] = {fld(e, w, F_VADDR0), 0, 0, 0, 0};
    if (ei != E_MIMG || nsa) {
        uint32_t x = w[2] >> (ei == E_MIMG ? 0 : 8);
        for (int i = 1; i < 5 && i < (ei == E_MIMG ? 5 : 4); i++, x >>= 8)
            addr[i] = x & 0xff;
        if (ei != E_MIMG)
            addr[4] = fld(e, w, F_VADDR4);
    }
    /* LLVM widens to the shape dim/a16/dmask ask for when it has that variant and the widened
     * registers exist (v255 is the last); otherwise it prints the base variant. */
    unsigned b = v->base[a16], s = v->shape[a16][dim][dst - 1];
    if (s && s != b) {
        int ok = !(sh_vw(s) != sh_vw(b) && vdata + sh_vw(s) > 256);
        if (ok && ei == E_MIMG && !nsa)
            ok = !(sh_lw(s) != sh_lw(b) && addr[0] + sh_lw(s) > 256);
        else if (ok && sh_lw(s) > 1) /* partial NSA: the last address register is widened */
            ok = addr[sh_cnt(s) - 1] + sh_lw(s) <= 256;
        if (!ok)
            s = b;
    } else {
        s = b;
    }
    /* the base variant's registers print even past v255 (v[255:256]), as LLVM does */
    in->op = r->op;
    in->encop = (uint16_t)op;
    in->info = NULL;
    in->ndst = 1;
    isa_reg_opnd(&in->dst[0], ISA_OPND_VGPR, vdata, sh_vw(s));
    unsigned cnt = sh_cnt(s);
    for (unsigned i = 0; i < cnt; i++) {
        unsigned n = s == b ? v->bw[a16][i] : (i + 1 == cnt ? sh_lw(s) : 1);
        isa_reg_opnd(&in->src[i], ISA_OPND_VGPR, addr[i], n);
    }
    in->nsrc = (uint8_t)cnt;
    /* the resource (src[5]) and the sampler (isa_inst.lit) stay as encoded: printing reads
     * the generated text of each value */
    unsigned rsrc = fld(e, w, F_RSRC), samp = fld(e, w, F_SAMP);
    const struct im_str *rs = (r->flags & IM_RSRC128) ? e->rsrc4 : e->rsrc8;
    if (!rs || !rs[rsrc].ok)
        return 0;
    if ((r->flags & IM_SAMPLER) && (!e->samp || !e->samp[samp].ok))
        return 0;
    isa_reg_opnd(&in->src[5], ISA_OPND_SREG, rsrc * e->rsrc_scale, (r->flags & IM_RSRC128) ? 4 : 8);
    isa_reg_opnd(&in->dst[1], ISA_OPND_SREG, samp, 4);
    size_t size = v->size;
    /* gfx12's 9-bit scalar fields: 255 reads a literal dword, which LLVM prints with its
     * invalid-immediate note */
    if (e->rsrc_scale == 1 && (rsrc == IM_LIT || ((r->flags & IM_SAMPLER) && samp == IM_LIT))) {
        if (nw * 4 < size + 4)
            return 0;
        in->lit = w[size / 4];
        size += 4;
    }
    isa_mem_fields *m = &in->f.m;
    m->dmask = (uint8_t)dmask;
    m->dim = (uint8_t)dim;
    m->d16 = (uint8_t)fld(e, w, F_D16);
    m->tfe = (uint8_t)fld(e, w, F_TFE);
    m->glc = (uint8_t)fld(e, w, F_GLC);
    m->slc = (uint8_t)fld(e, w, F_SLC);
    m->dlc = (uint8_t)fld(e, w, F_DLC);
    m->nv = (uint8_t)fld(e, w, F_NV);
    m->th = (uint8_t)fld(e, w, F_TH);
    m->scope = (uint8_t)fld(e, w, F_SCOPE);
    m->srsrc = (uint8_t)rsrc;
    uint16_t mods = 0;
    for (int i = 0; i < IM_NMOD; i++)
        if (mod_field[i] && fld(e, w, mod_field[i]))
            mods |= (uint16_t)(1u << i);
    in->flags = mods;
    return size;
}

static void put_vregs(isa_buf *b, const isa_opnd *o) { isa_put_vreg(b, o->idx, o->n, 0); }

void isa_print_image_rdna(isa_buf *b, const isa_inst *in) {
    const struct im_enc *e = &encs[enc_of(in)];
    const struct im_row *r = row_of(in);
    const isa_mem_fields *m = &in->f.m;
    isa_puts(b, isa_op_names[in->op]);
    isa_puts(b, var_of(in)->dbl ? "  " : " ");
    put_vregs(b, &in->dst[0]);
    isa_puts(b, ", ");
    if (in->nsrc == 1) {
        put_vregs(b, &in->src[0]);
    } else {
        isa_puts(b, "[");
        for (unsigned i = 0; i < in->nsrc; i++) {
            if (i)
                isa_puts(b, ", ");
            put_vregs(b, &in->src[i]);
        }
        isa_puts(b, "]");
    }
    unsigned rsrc = in->src[5].idx / e->rsrc_scale;
    const struct im_str *rs = &((r->flags & IM_RSRC128) ? e->rsrc4 : e->rsrc8)[rsrc];
    const struct im_str *ss = (r->flags & IM_SAMPLER) ? &e->samp[in->dst[1].idx] : NULL;
    int lit_rs = e->rsrc_scale == 1 && rsrc == IM_LIT;
    int lit_ss = ss && e->rsrc_scale == 1 && in->dst[1].idx == IM_LIT;
    isa_puts(b, ", ");
    if (lit_rs) {
        isa_put_lit_as_imm(b, in->lit);
        isa_puts(b, "/*Invalid immediate*/");
    } else {
        isa_puts(b, rs->text);
    }
    if (ss) {
        isa_puts(b, ", ");
        if (lit_ss) {
            isa_put_lit_as_imm(b, in->lit);
            isa_puts(b, "/*Invalid immediate*/");
        } else {
            isa_puts(b, ss->text);
        }
    }
    static const char *const dims[8] = {"1D",       "2D",       "3D",      "CUBE",
                                        "1D_ARRAY", "2D_ARRAY", "2D_MSAA", "2D_MSAA_ARRAY"};
    static const char *const names[IM_NMOD] = {
        [IM_M_UNORM] = "unorm", [IM_M_GLC] = "glc",   [IM_M_SLC] = "slc", [IM_M_DLC] = "dlc",
        [IM_M_NV] = "nv",       [IM_M_R128] = "r128", [IM_M_A16] = "a16", [IM_M_TFE] = "tfe",
        [IM_M_LWE] = "lwe",     [IM_M_D16] = "d16",
    };
    for (int i = 0; i < IM_NMOD; i++) {
        if (!(r->shown >> i & 1))
            continue;
        if (i == IM_M_DMASK) {
            if (m->dmask)
                isa_printf(b, " dmask:0x%x", m->dmask);
        } else if (i == IM_M_DIM) {
            isa_printf(b, " dim:SQ_RSRC_IMG_%s", dims[m->dim & 7]);
        } else if (i == IM_M_TH) {
            const char *t = e->th[r->th][m->th * 4 + m->scope];
            if (*t)
                isa_printf(b, " %s", t);
        } else if (in->flags >> i & 1) {
            isa_printf(b, " %s", names[i]);
        }
    }
    /* LLVM runs two warnings together: the second loses its " ; " */
    isa_puts(b, rs->warn);
    if (ss && *ss->warn)
        isa_puts(b, *rs->warn ? ss->warn + 3 : ss->warn);
}
