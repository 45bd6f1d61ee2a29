/* decode.c - identify the encoding family of an instruction and dispatch to its decoder/printer.
 *
 * First-word prefixes from the CDNA3/CDNA4 ISA manuals ("Microcode formats"):
 *   SOP1 1011_1110_1, SOPC 1011_1111_0, SOPP 1011_1111_1, SOPK 1011 (other), SOP2 10 (other),
 *   SMEM 110000, VOP2 0 (other), VOPC 0111110, VOP1 0111111, VOP3 110100 (VOP3P 110100111),
 *   VINTRP 110101, DS 110110, FLAT 110111, MUBUF 111000, MTBUF 111010, MIMG 111100, EXP 110001.
 */
#include "isa/isa.h"

#include <string.h>

#define ISA_OP_X(id, name) name,
const char *const isa_op_names[ISA_NOPS] = {
    "<illegal>",
#include "isa/gen/ops.inc"
};
#undef ISA_OP_X

isa_fmt isa_identify(uint32_t w) {
    if ((w >> 31) == 0) {
        if ((w >> 25) == 0x3f)
            return ISA_FMT_VOP1;
        if ((w >> 25) == 0x3e)
            return ISA_FMT_VOPC;
        return ISA_FMT_VOP2;
    }
    if ((w >> 30) == 2) {
        switch (w >> 23) {
        case 0x17d: return ISA_FMT_SOP1;
        case 0x17e: return ISA_FMT_SOPC;
        case 0x17f: return ISA_FMT_SOPP;
        }
        return (w >> 28) == 0xb ? ISA_FMT_SOPK : ISA_FMT_SOP2;
    }
    switch (w >> 26) {
    case 0x30: return ISA_FMT_SMEM;
    case 0x31: return ISA_FMT_EXP;
    case 0x34: return (w >> 23) == 0x1a7 ? ISA_FMT_VOP3P : ISA_FMT_VOP3;
    case 0x35: return ISA_FMT_VINTRP;
    case 0x36: return ISA_FMT_DS;
    case 0x37: return ISA_FMT_FLAT;
    case 0x38: return ISA_FMT_MUBUF;
    case 0x3a: return ISA_FMT_MTBUF;
    case 0x3c: return ISA_FMT_MIMG;
    }
    return ISA_FMT_INVALID;
}

/* RDNA3/RDNA4 ISA manuals, "Microcode formats": the SOP* and VOP1/VOP2/VOPC prefixes are CDNA's;
 * SMEM 111101, VOP3 110101, VOP3P 11001100, VOPD 110010, VINTERP 11001101, LDSDIR/VDSDIR
 * 11001110, DS 110110, EXP 111110; gfx11: FLAT 110111, MUBUF 111000, MTBUF 111010, MIMG 111100;
 * gfx12: VFLAT/VGLOBAL/VSCRATCH 111011, VBUFFER 110001, VIMAGE 110100, VSAMPLE 111001. */
isa_fmt isa_identify_arch(isa_arch arch, uint32_t w) {
    if (!isa_is_rdna(arch))
        return isa_identify(w);
    if ((w >> 30) != 3)
        return isa_identify(w); /* VOP1/VOP2/VOPC and the SOP formats */
    int g12 = isa_targets[arch].rdna >= 12;
    /* LLVM 22 also takes v_fma_mix_f32/v_fma_mixlo_f16/v_fma_mixhi_f16 (VOP3P 0x20..0x22) under
     * the GFX9 VOP3P prefix 110100111, on gfx11 and gfx12 alike (found by the sweep) */
    if ((w >> 23) == 0x1a7 && ((w >> 16) & 0x7f) >= 0x20 && ((w >> 16) & 0x7f) <= 0x22)
        return ISA_FMT_VOP3P;
    switch (w >> 24) {
    case 0xcc: return ISA_FMT_VOP3P;
    case 0xcd: return ISA_FMT_VINTERP;
    case 0xce: return ISA_FMT_LDSDIR;
    case 0xcf: return ISA_FMT_INVALID;
    }
    switch (w >> 26) {
    case 0x31: return g12 ? ISA_FMT_VBUFFER : ISA_FMT_INVALID;
    case 0x32: return ISA_FMT_VOPD;
    case 0x34: return g12 ? ISA_FMT_MIMG : ISA_FMT_INVALID;
    case 0x35: return ISA_FMT_VOP3;
    case 0x36: return ISA_FMT_DS;
    case 0x37: return g12 ? ISA_FMT_INVALID : ISA_FMT_FLAT;
    case 0x38: return g12 ? ISA_FMT_INVALID : ISA_FMT_MUBUF;
    case 0x39: return g12 ? ISA_FMT_MIMG : ISA_FMT_INVALID;
    case 0x3a: return g12 ? ISA_FMT_INVALID : ISA_FMT_MTBUF;
    case 0x3b: return g12 ? ISA_FMT_FLAT : ISA_FMT_INVALID;
    case 0x3c: return g12 ? ISA_FMT_INVALID : ISA_FMT_MIMG;
    case 0x3d: return ISA_FMT_SMEM;
    case 0x3e: return ISA_FMT_EXP;
    }
    return ISA_FMT_INVALID;
}

const char *isa_fmt_name(isa_fmt f) {
    static const char *const n[ISA_NFMT] = {
        "invalid", "SOP2", "SOPK", "SOP1",  "SOPC",    "SOPP",   "SMEM",    "VOP2",
        "VOP1",    "VOPC", "VOP3", "VOP3P", "DS",      "FLAT",   "MUBUF",   "MTBUF",
        "VINTRP",  "EXP",  "MIMG", "VOPD",  "VINTERP", "LDSDIR", "VBUFFER",
    };
    return (unsigned)f < ISA_NFMT ? n[f] : "?";
}

/* LDS: CDNA2 and CDNA3 ISA "LDS": 64 KiB per workgroup, LDS_SIZE in 128-dword granules (GFX9);
 * CDNA4: 160 KiB, 320-dword granules.  e_flags machine values: LLVM AMDGPU Usage, "ELF Header". */
const isa_target isa_targets[ISA_NARCH] = {
    [ISA_GFX942] = {"gfx942", "cdna3", 0x4c, 0, 0, 1, 1, 1, 64u * 1024u, 128u * 4u, 0},
    [ISA_GFX950] = {"gfx950", "cdna4", 0x4f, 1, 1, 1, 0, 1, 160u * 1024u, 320u * 4u, 0},
    [ISA_GFX90A] = {"gfx90a", "cdna2", 0x3f, 0, 0, 0, 0, 0, 64u * 1024u, 128u * 4u, 0},
    /* RDNA3/RDNA4: 64 KiB LDS per workgroup, architected flat scratch.  The LDS_SIZE granule
     * (512 bytes, used only by run_asm's synthetic descriptor) is not yet checked against the
     * RDNA manuals. */
    [ISA_GFX1100] = {"gfx1100", "rdna3", 0x41, 1, 0, 1, 0, 0, 64u * 1024u, 128u * 4u, 11},
    [ISA_GFX1201] = {"gfx1201", "rdna4", 0x4e, 1, 0, 1, 0, 0, 64u * 1024u, 128u * 4u, 12},
};

const char *isa_arch_name(isa_arch a) {
    return (unsigned)a < ISA_NARCH ? isa_targets[a].name : "?";
}

/* Which family decodes and prints each format.  EXP and VINTRP do not exist on the CDNA targets
 * (no entry, so their words are illegal); MIMG exists on gfx90a only (src/isa/mem.c has no image
 * table for gfx942/gfx950). */
typedef size_t (*dec_fn)(isa_arch, isa_fmt, const uint32_t *, size_t, isa_inst *);
typedef void (*print_fn)(isa_buf *, const isa_inst *);
/* RDNA targets have their own table: every RDNA encoding. */
typedef struct {
    dec_fn dec;
    print_fn print;
} family;
static const family families_rdna[ISA_NFMT] = {
    [ISA_FMT_VOP1] = {isa_dec_vop_rdna, isa_print_vop_rdna},
    [ISA_FMT_VOP2] = {isa_dec_vop_rdna, isa_print_vop_rdna},
    [ISA_FMT_VOPC] = {isa_dec_vop_rdna, isa_print_vop_rdna},
    [ISA_FMT_VOP3] = {isa_dec_vop3_rdna, isa_print_vop3_rdna},
    [ISA_FMT_VOP3P] = {isa_dec_vop3_rdna, isa_print_vop3_rdna},
    [ISA_FMT_VOPD] = {isa_dec_vopd_rdna, isa_print_vopd_rdna},
    [ISA_FMT_DS] = {isa_dec_mem_rdna, isa_print_mem_rdna},
    [ISA_FMT_FLAT] = {isa_dec_mem_rdna, isa_print_mem_rdna},
    [ISA_FMT_MUBUF] = {isa_dec_mem_rdna, isa_print_mem_rdna},
    [ISA_FMT_MTBUF] = {isa_dec_mem_rdna, isa_print_mem_rdna},
    [ISA_FMT_VBUFFER] = {isa_dec_mem_rdna, isa_print_mem_rdna},
    [ISA_FMT_LDSDIR] = {isa_dec_mem_rdna, isa_print_mem_rdna},
    [ISA_FMT_EXP] = {isa_dec_mem_rdna, isa_print_mem_rdna},
    [ISA_FMT_MIMG] = {isa_dec_image_rdna, isa_print_image_rdna}, /* gfx12: VIMAGE and VSAMPLE */
    [ISA_FMT_VINTERP] = {isa_dec_vinterp_rdna, isa_print_vinterp_rdna},
};

static const family families[ISA_NFMT] = {
    [ISA_FMT_VOP1] = {isa_dec_vop, isa_print_vop},
    [ISA_FMT_VOP2] = {isa_dec_vop, isa_print_vop},
    [ISA_FMT_VOPC] = {isa_dec_vop, isa_print_vop},
    [ISA_FMT_VOP3] = {isa_dec_vop3, isa_print_vop3},
    [ISA_FMT_VOP3P] = {isa_dec_vop3, isa_print_vop3},
    [ISA_FMT_DS] = {isa_dec_mem, isa_print_mem},
    [ISA_FMT_FLAT] = {isa_dec_mem, isa_print_mem},
    [ISA_FMT_MUBUF] = {isa_dec_mem, isa_print_mem},
    [ISA_FMT_MTBUF] = {isa_dec_mem, isa_print_mem},
    [ISA_FMT_MIMG] = {isa_dec_mem, isa_print_mem}, /* gfx90a only: no table on gfx940+ */
};

/* SOP1/SOP2/SOPK/SOPC/SOPP/SMEM (adjacent in isa_fmt) have one decoder and printer on every
 * target: what differs per target sits in src/isa/scalar.c's tables. */
static const family *family_of(unsigned arch, unsigned f) {
    static const family scalar = {isa_dec_scalar, isa_print_scalar};
    if (f >= ISA_FMT_SOP2 && f <= ISA_FMT_SMEM)
        return &scalar;
    if (f >= ISA_NFMT)
        return NULL;
    return isa_is_rdna(arch) ? &families_rdna[f] : &families[f];
}

size_t isa_decode(isa_arch arch, const uint8_t *p, size_t avail, isa_inst *out) {
    uint32_t w[4] = {0, 0, 0, 0};
    size_t nw = avail / 4 > 4 ? 4 : avail / 4;
    memset(out, 0, sizeof *out);
    out->arch = (uint8_t)arch;
    if (nw == 0 || (unsigned)arch >= ISA_NARCH)
        return 0;
    memcpy(w, p, nw * 4); /* instruction words are little-endian; so are our hosts */
    memcpy(out->w, w, sizeof w);
    isa_fmt f = isa_identify_arch(arch, w[0]);
    out->fmt = (uint8_t)f;
    const family *fam = family_of(arch, f);
    dec_fn dec = fam ? fam->dec : NULL;
    if (isa_is_rdna(arch) && f == ISA_FMT_VOP3P && (w[0] >> 23) == 0x1a7) {
        const family *img = family_of(arch, ISA_FMT_MIMG);
        /* On gfx12 the alias's words are also VIMAGE words (prefix 0x34), opcodes 0x80..0x8b.
         * With twelve bytes at hand LLVM 22 tries its 96-bit tables first, so a word that is a
         * legal image atomic (add/min/max_flt, pk_add_f16/bf16) is that; with eight it is the
         * v_fma_mix alias (the CI's random sweep found this). */
        if (isa_targets[arch].rdna >= 12 && nw >= 3 && img && img->dec) {
            isa_inst t;
            memset(&t, 0, sizeof t);
            t.arch = (uint8_t)arch;
            t.fmt = (uint8_t)ISA_FMT_MIMG;
            memcpy(t.w, w, sizeof w);
            size_t n = img->dec(arch, ISA_FMT_MIMG, w, nw, &t);
            /* not the BVH opcodes of the window (0x80, 0x81): LLVM 22 reads those words as the
             * alias, or as nothing (their dmask here is always 0xe; found by the sweep) */
            int bvh = t.op == ISA_OP_IMAGE_BVH_DUAL_INTERSECT_RAY ||
                      t.op == ISA_OP_IMAGE_BVH8_INTERSECT_RAY;
            if (n != 0 && n <= nw * 4 && t.op != ISA_OP_ILLEGAL && !bvh) {
                *out = t;
                out->size = (uint8_t)n;
                return n;
            }
        }
        /* the GFX9-prefix v_fma_mix* alias (above) has no DPP form: with a DPP8 or DPP16 src0
         * (0xe9, 0xea, 0xfa) LLVM 22 reads the word as gfx11 does not know it, and as gfx12's
         * VIMAGE (prefix 0x34) does (the CI sweep found gfxemu printing a DPP8 v_fma_mixhi_f16
         * where llvm said illegal) */
        if ((w[1] & 0x1ff) == 0xe9 || (w[1] & 0x1ff) == 0xea || (w[1] & 0x1ff) == 0xfa) {
            f = isa_targets[arch].rdna >= 12 ? ISA_FMT_MIMG : ISA_FMT_INVALID;
            out->fmt = (uint8_t)f;
            fam = family_of(arch, f);
            dec = fam ? fam->dec : NULL;
        } else {
            w[0] = 0xcc000000u | (w[0] & 0x7fffff);
        }
    }
    size_t n = dec ? dec(arch, f, w, nw, out) : 0;
    if (n == 0 || n > nw * 4 || out->op == ISA_OP_ILLEGAL) {
        out->op = ISA_OP_ILLEGAL;
        out->size = 0;
        return 0;
    }
    out->size = (uint8_t)n;
    return n;
}

size_t isa_print(const isa_inst *in, char *buf, size_t bufsz) {
    isa_buf b = {buf, bufsz, 0};
    if (bufsz)
        buf[0] = 0;
    const family *fam = family_of(in->arch, in->fmt);
    print_fn pr = fam ? fam->print : NULL;
    if (in->op == ISA_OP_ILLEGAL || !pr) {
        isa_printf(&b, "<illegal 0x%08x>", in->w[0]);
        return b.len;
    }
    pr(&b, in);
    return b.len;
}
