/* elf.c - parse AMDGPU ELF64 code objects.
 *
 * Layouts and constants: the System V gABI (ELF64 header, section header, symbol) and LLVM's
 * "AMDGPU Usage" document (EM_AMDGPU, ELFOSABI_AMDGPU_HSA, EF_AMDGPU_MACH, kernel descriptors).
 * The file is read through little-endian accessors at checked offsets, never by casting structs
 * over it, so alignment and truncation cannot hurt us.
 */
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "isa/isa.h"
#include "load/load.h"

enum {
    EHDR_SIZE = 64,
    SHDR_SIZE = 64,
    SYM_SIZE = 24,
    ELFCLASS64 = 2,
    ELFDATA2LSB = 1,
    ET_REL = 1,
    ET_DYN = 3,
    EM_AMDGPU = 224,
    ELFOSABI_AMDGPU_HSA = 64,
    SHT_PROGBITS = 1,
    SHT_SYMTAB = 2,
    SHT_STRTAB = 3,
    SHT_NOTE = 7,
    SHT_RELA = 4,
    SHT_NOBITS = 8,
    SHF_WRITE = 1,
    SHF_ALLOC = 2,
    SHF_EXECINSTR = 4,
    RELA_SIZE = 24,
    SHT_DYNSYM = 11,
    SHN_UNDEF = 0,
    SHN_LORESERVE = 0xff00,
    SHN_XINDEX = 0xffff,
    STT_NOTYPE = 0,
    STT_OBJECT = 1,
    STT_FUNC = 2,
    STT_SECTION = 3,
    STT_FILE = 4,
    EF_AMDGPU_MACH = 0xff,
    NT_AMDGPU_METADATA = 32,
};

/* EF_AMDGPU_MACH values, read off clang-22's output for each -mcpu: the processor a code object
 * was built for (gfx_module_target, "unsupported architecture" errors). */
static const struct {
    unsigned mach;
    const char *name;
} mach_names[] = {
    /* clang-format off */
    {0x20, "gfx600"},  {0x22, "gfx700"},  {0x2a, "gfx803"},  {0x2c, "gfx900"},
    {0x2f, "gfx906"},  {0x30, "gfx908"},  {0x36, "gfx1030"}, {0x3f, "gfx90a"},
    {0x41, "gfx1100"}, {0x43, "gfx1150"}, {0x44, "gfx1103"}, {0x46, "gfx1101"},
    {0x47, "gfx1102"}, {0x48, "gfx1200"}, {0x49, "gfx1250"}, {0x4a, "gfx1151"},
    {0x4c, "gfx942"},  {0x4e, "gfx1201"}, {0x4f, "gfx950"},  {0x51, "gfx9-generic"},
    {0x52, "gfx10-1-generic"}, {0x53, "gfx10-3-generic"}, {0x54, "gfx11-generic"},
    {0x59, "gfx12-generic"},   {0x5f, "gfx9-4-generic"},
    /* clang-format on */
};

/* Code objects for other processors whose code runs unchanged on one of gfxemu's targets, as the
 * ROCm runtime runs it on those GPUs: gfx1101/gfx1102/gfx1103 have gfx1100's instruction set and
 * gfx1200 has gfx1201's (LLVM AMDGPU Usage, "Processors": the same GFX11/GFX12 ISA, other
 * die configurations), and a generic code object (AMDGPU Usage, "Generic Processors") runs on
 * every member of its family: gfx11-generic on gfx1100..gfx1103 and gfx1150..gfx1153,
 * gfx12-generic on gfx1200/gfx1201, gfx9-4-generic on gfx940..gfx942 and gfx950 (without the
 * FP8/BF8 and XF32 instructions). */
static const struct {
    unsigned mach;
    gfx_arch arch;
} mach_runs_as[] = {
    {0x44, GFX_ARCH_GFX1100}, {0x46, GFX_ARCH_GFX1100}, {0x47, GFX_ARCH_GFX1100},
    {0x54, GFX_ARCH_GFX1100}, {0x48, GFX_ARCH_GFX1201}, {0x59, GFX_ARCH_GFX1201},
    {0x5f, GFX_ARCH_GFX942},
};

int ld_runs_on(const gfx_module *m, gfx_arch a) {
    return m->arch == a || ((m->eflags & EF_AMDGPU_MACH) == 0x5f && a == GFX_ARCH_GFX950);
}

const char *ld_mach_name(unsigned mach) {
    for (size_t i = 0; i < sizeof mach_names / sizeof mach_names[0]; i++)
        if (mach_names[i].mach == mach)
            return mach_names[i].name;
    return NULL;
}

/* ---- bounded reading --------------------------------------------------------------------- */

typedef struct {
    const uint8_t *p;
    size_t n;
    char *err;
    size_t errsz;
} elf_file;

static uint16_t rd16(const uint8_t *p) { return (uint16_t)(p[0] | p[1] << 8); }
static uint32_t rd32(const uint8_t *p) { return (uint32_t)rd16(p) | (uint32_t)rd16(p + 2) << 16; }
static uint64_t rd64(const uint8_t *p) { return (uint64_t)rd32(p) | (uint64_t)rd32(p + 4) << 32; }

/* Whether [off, off+len) lies inside a buffer of `total` bytes, without overflowing. */
static int in_range(uint64_t off, uint64_t len, uint64_t total) {
    return off <= total && len <= total - off;
}

__attribute__((format(printf, 2, 3))) static gfx_result fail(elf_file *f, const char *fmt, ...) {
    if (f->err && f->errsz) {
        va_list ap;
        va_start(ap, fmt);
        vsnprintf(f->err, f->errsz, fmt, ap);
        va_end(ap);
    }
    return GFX_ERR_FORMAT;
}

typedef struct {
    uint32_t name, type, link;
    uint64_t flags, addr, offset, size, entsize;
} shdr;

typedef struct {
    elf_file f;
    uint64_t shoff;
    uint32_t shnum;
    const uint8_t *shstr; /* section-name string table, bounds-checked */
    uint64_t shstr_size;
} elf_ctx;

static void read_shdr(const elf_ctx *c, uint32_t i, shdr *s) {
    const uint8_t *p = c->f.p + c->shoff + (uint64_t)i * SHDR_SIZE;
    s->name = rd32(p);
    s->type = rd32(p + 4);
    s->flags = rd64(p + 8);
    s->addr = rd64(p + 16);
    s->offset = rd64(p + 24);
    s->size = rd64(p + 32);
    s->link = rd32(p + 40);
    s->entsize = rd64(p + 56);
}

/* A NUL-terminated string at `off` inside table [tab, tab+size), or NULL. */
static const char *str_at(const uint8_t *tab, uint64_t size, uint64_t off) {
    if (off >= size || !memchr(tab + off, 0, size - off))
        return NULL;
    return (const char *)tab + off;
}

static const char *sec_name(const elf_ctx *c, const shdr *s) {
    const char *n = c->shstr ? str_at(c->shstr, c->shstr_size, s->name) : NULL;
    return n ? n : "?";
}

/* Check that a section's contents lie inside the file. */
static gfx_result sec_check(elf_ctx *c, uint32_t i, const shdr *s) {
    if (s->type != SHT_NOBITS && !in_range(s->offset, s->size, c->f.n))
        return fail(&c->f, "section %u (%s) out of bounds (offset 0x%llx, size 0x%llx)", i,
                    sec_name(c, s), (unsigned long long)s->offset, (unsigned long long)s->size);
    return GFX_OK;
}

/* ---- header ------------------------------------------------------------------------------ */

static gfx_result parse_header(elf_ctx *c, gfx_arch *arch, uint32_t *eflags, uint16_t *etype,
                               uint32_t *shstrndx) {
    elf_file *f = &c->f;
    const uint8_t *p = f->p;
    if (f->n < 4 || memcmp(p, "\177ELF", 4) != 0)
        return fail(f, "not an ELF file");
    if (f->n < EHDR_SIZE)
        return fail(f, "truncated ELF header (%zu of %d bytes)", f->n, EHDR_SIZE);
    if (p[4] != ELFCLASS64)
        return fail(f, "not a 64-bit ELF file (EI_CLASS %u)", p[4]);
    if (p[5] != ELFDATA2LSB)
        return fail(f, "not a little-endian ELF file (EI_DATA %u)", p[5]);
    uint16_t machine = rd16(p + 18);
    if (machine != EM_AMDGPU)
        return fail(f, "not an AMDGPU code object (e_machine %u)", machine);
    if (p[7] != ELFOSABI_AMDGPU_HSA)
        return fail(f, "not an AMDGPU HSA code object (EI_OSABI %u)", p[7]);
    /* ABI version 0 is code object V2, whose e_flags do not carry the architecture. */
    if (p[8] == 0)
        return fail(f, "unsupported code object version 2 (EI_ABIVERSION 0)");
    *etype = rd16(p + 16);
    if (*etype != ET_DYN && *etype != ET_REL)
        return fail(f, "unsupported ELF type %u (expected a shared object or relocatable)", *etype);

    *eflags = rd32(p + 48);
    /* The machine is e_flags[7:0]; the xnack (bits 9:8) and sramecc (bits 11:10) settings
     * ("AMDGPU Usage", EF_AMDGPU_FEATURE_*_V4: unsupported, any, off, on) do not change what the
     * code computes here, so every setting loads. */
    unsigned mach = *eflags & EF_AMDGPU_MACH;
    unsigned t = 0;
    while (t < ISA_NARCH && isa_targets[t].elf_mach != mach)
        t++;
    for (size_t k = 0; t == ISA_NARCH && k < sizeof mach_runs_as / sizeof mach_runs_as[0]; k++)
        if (mach_runs_as[k].mach == mach)
            t = (unsigned)mach_runs_as[k].arch;
    if (t < ISA_NARCH) {
        *arch = (gfx_arch)t;
    } else {
        const char *name = ld_mach_name(mach);
        fail(f, "unsupported architecture %s (0x%02x)", name ? name : "unknown", mach);
        return GFX_ERR_ARCH;
    }

    c->shoff = rd64(p + 40);
    uint16_t shentsize = rd16(p + 58);
    c->shnum = rd16(p + 60);
    *shstrndx = rd16(p + 62);
    if (c->shoff == 0)
        return fail(f, "no section header table");
    if (shentsize != SHDR_SIZE)
        return fail(f, "bad section header entry size %u (expected %d)", shentsize, SHDR_SIZE);
    if (!in_range(c->shoff, SHDR_SIZE, f->n))
        return fail(f, "section header table out of bounds (offset 0x%llx)",
                    (unsigned long long)c->shoff);
    /* Extended numbering (gABI): the real counts live in section header 0. */
    shdr s0;
    read_shdr(c, 0, &s0); /* in bounds: checked just above */
    uint32_t shnum = rd16(p + 60);
    if (shnum == 0) {
        if (s0.size > UINT32_MAX)
            return fail(f, "section count out of range");
        shnum = (uint32_t)s0.size;
    }
    if (*shstrndx == SHN_XINDEX)
        *shstrndx = s0.link;
    if (!in_range(c->shoff, (uint64_t)shnum * SHDR_SIZE, f->n))
        return fail(f, "section header table out of bounds (offset 0x%llx, %u entries)",
                    (unsigned long long)c->shoff, shnum);
    c->shnum = shnum;
    return GFX_OK;
}

/* ---- symbols ----------------------------------------------------------------------------- */

typedef struct {
    uint32_t name;
    uint8_t type;
    uint32_t shndx;
    uint64_t value, size;
} raw_sym;

typedef struct {
    ld_symbol s;
    size_t order;
} sort_item;

/* By address, then by name as llvm-objdump orders them (it labels a run of symbols sharing an
 * address with the last one), then by symbol-table order so the result never depends on qsort. */
static int by_addr(const void *a, const void *b) {
    const sort_item *x = a, *y = b;
    if (x->s.addr != y->s.addr)
        return x->s.addr < y->s.addr ? -1 : 1;
    int r = strcmp(x->s.name, y->s.name);
    if (r)
        return r;
    return x->order < y->order ? -1 : x->order > y->order;
}

static int by_name(const void *a, const void *b) {
    const ld_symbol *x = *(const ld_symbol *const *)a, *y = *(const ld_symbol *const *)b;
    return strcmp(x->name, y->name);
}

/* Attach the 64-byte NAME.kd object to function NAME. */
static gfx_result attach_kd(elf_ctx *c, ld_symbol **index, size_t nfunc, const char *kdname,
                            const raw_sym *rs) {
    size_t len = strlen(kdname) - 3; /* caller checked the ".kd" suffix */
    shdr s;
    if (rs->shndx == SHN_UNDEF || rs->shndx >= c->shnum)
        return fail(&c->f, "kernel descriptor %s in bad section %u", kdname, rs->shndx);
    read_shdr(c, rs->shndx, &s);
    gfx_result r = sec_check(c, rs->shndx, &s);
    if (r)
        return r;
    if (rs->size != LD_KD_SIZE)
        return fail(&c->f, "kernel descriptor %s has size %llu (expected %d)", kdname,
                    (unsigned long long)rs->size, LD_KD_SIZE);
    if (s.type == SHT_NOBITS || rs->value < s.addr ||
        !in_range(rs->value - s.addr, LD_KD_SIZE, s.size))
        return fail(&c->f, "kernel descriptor %s outside its section", kdname);
    /* Binary search the function of the same name (index is sorted by name). */
    size_t lo = 0, hi = nfunc;
    while (lo < hi) {
        size_t mid = lo + (hi - lo) / 2;
        int r = strncmp(index[mid]->name, kdname, len);
        if (r == 0 && index[mid]->name[len] != 0)
            r = 1;
        if (r == 0) {
            ld_symbol *fn = index[mid];
            memcpy(fn->kd, c->f.p + s.offset + (rs->value - s.addr), LD_KD_SIZE);
            fn->has_kd = 1;
            fn->kd_addr = rs->value;
            return GFX_OK;
        }
        if (r < 0)
            lo = mid + 1;
        else
            hi = mid;
    }
    return GFX_OK; /* a descriptor without code: nothing to attach it to */
}

static gfx_result parse_symbols(elf_ctx *c, uint32_t symi, uint32_t texti, const shdr *text,
                                gfx_module *m) {
    shdr st, ss;
    read_shdr(c, symi, &st);
    gfx_result r = sec_check(c, symi, &st);
    if (r)
        return r;
    if (st.entsize != SYM_SIZE)
        return fail(&c->f, "bad symbol entry size %llu (expected %d)",
                    (unsigned long long)st.entsize, SYM_SIZE);
    if (st.link == 0 || st.link >= c->shnum)
        return fail(&c->f, "symbol string table index %u out of range", st.link);
    read_shdr(c, st.link, &ss);
    if (ss.type != SHT_STRTAB)
        return fail(&c->f, "symbol string table %u is not a string table", st.link);
    if ((r = sec_check(c, st.link, &ss)))
        return r;

    /* Names point into one private copy of the string table: total memory stays proportional
     * to the file size whatever the symbols' name offsets are. */
    m->strings = malloc(ss.size + 1);
    if (!m->strings)
        return GFX_ERR_NOMEM;
    memcpy(m->strings, c->f.p + ss.offset, ss.size);
    m->strings[ss.size] = 0;
    const uint8_t *strtab = (const uint8_t *)m->strings;

    size_t n = st.size / SYM_SIZE;
    raw_sym *raw = calloc(n ? n : 1, sizeof *raw);
    sort_item *items = calloc(n ? n : 1, sizeof *items);
    ld_symbol **index = calloc(n ? n : 1, sizeof *index);
    if (!raw || !items || !index) {
        r = GFX_ERR_NOMEM;
        goto out;
    }
    size_t nfunc = 0;
    for (size_t i = 0; i < n; i++) {
        const uint8_t *p = c->f.p + st.offset + i * SYM_SIZE;
        raw_sym *rs = &raw[i];
        rs->name = rd32(p);
        rs->type = p[4] & 0xf;
        rs->shndx = rd16(p + 6);
        rs->value = rd64(p + 8);
        rs->size = rd64(p + 16);
        if (rs->shndx != texti || rs->type == STT_SECTION || rs->type == STT_FILE)
            continue;
        const char *name = str_at(strtab, ss.size, rs->name);
        if (!name) {
            r = fail(&c->f, "symbol %zu name out of bounds", i);
            goto out;
        }
        if (!*name)
            continue;
        uint64_t off = rs->value - text->addr;
        if (rs->value < text->addr || off > text->size || rs->size > text->size - off) {
            r = fail(&c->f, "symbol %s (0x%llx, size %llu) lies outside .text", name,
                     (unsigned long long)rs->value, (unsigned long long)rs->size);
            goto out;
        }
        sort_item *it = &items[nfunc++];
        it->s.name = (char *)name;
        it->s.addr = rs->value;
        it->s.size = rs->size;
        it->s.is_label = rs->type == STT_NOTYPE;
        it->order = i;
    }
    qsort(items, nfunc, sizeof *items, by_addr);
    m->syms = calloc(nfunc ? nfunc : 1, sizeof *m->syms);
    if (!m->syms) {
        r = GFX_ERR_NOMEM;
        goto out;
    }
    for (size_t i = 0; i < nfunc; i++) {
        m->syms[i] = items[i].s;
        index[i] = &m->syms[i];
    }
    m->nsyms = nfunc;
    qsort(index, nfunc, sizeof *index, by_name);

    m->objs = calloc(n ? n : 1, sizeof *m->objs);
    if (!m->objs) {
        r = GFX_ERR_NOMEM;
        goto out;
    }
    for (size_t i = 0; i < n; i++) {
        const raw_sym *rs = &raw[i];
        if (rs->type != STT_OBJECT)
            continue;
        const char *name = str_at(strtab, ss.size, rs->name);
        if (!name) {
            r = fail(&c->f, "symbol %zu name out of bounds", i);
            goto out;
        }
        if (*name && rs->shndx != SHN_UNDEF && rs->shndx < SHN_LORESERVE)
            m->objs[m->nobjs++] = (ld_object){name, rs->value, rs->size};
        size_t len = strlen(name);
        if (len <= 3 || strcmp(name + len - 3, ".kd") != 0)
            continue;
        if ((r = attach_kd(c, index, nfunc, name, rs)))
            goto out;
    }
    r = GFX_OK;
out:
    free(raw);
    free(items);
    free(index);
    return r;
}

/* ---- metadata note ----------------------------------------------------------------------- */

/* Find the NT_AMDGPU_METADATA note (owner "AMDGPU") in the SHT_NOTE sections and parse it into
 * m->meta.  A damaged note is not fatal: disassembly does not need it, so the module loads and
 * m->meta_err says what was wrong (a launch then reports it). */
static void parse_notes(elf_ctx *c, gfx_module *m) {
    for (uint32_t i = 1; i < c->shnum; i++) {
        shdr s;
        read_shdr(c, i, &s);
        if (s.type != SHT_NOTE || !in_range(s.offset, s.size, c->f.n))
            continue;
        const uint8_t *p = c->f.p + s.offset;
        uint64_t off = 0;
        /* Each note: namesz, descsz, type, then name and desc, each padded to 4 bytes. */
        while (in_range(off, 12, s.size)) {
            uint32_t namesz = rd32(p + off), descsz = rd32(p + off + 4), type = rd32(p + off + 8);
            uint64_t name_off = off + 12;
            uint64_t desc_off = name_off + (((uint64_t)namesz + 3) & ~3ull);
            if (!in_range(name_off, namesz, s.size) || !in_range(desc_off, descsz, s.size)) {
                snprintf(m->meta_err, sizeof m->meta_err, "metadata: note out of bounds");
                return;
            }
            if (type == NT_AMDGPU_METADATA && namesz == 7 &&
                memcmp(p + name_off, "AMDGPU", 7) == 0) {
                if (ld_meta_parse(p + desc_off, descsz, &m->meta, m->meta_err,
                                  sizeof m->meta_err) == GFX_OK)
                    m->has_meta = 1;
                return;
            }
            off = desc_off + (((uint64_t)descsz + 3) & ~3ull);
        }
    }
}

/* ---- program image ----------------------------------------------------------------------- */

/* The largest image gfxemu maps (.bss included): far more than any code object's data. */
#define LD_IMAGE_MAX (1ull << 32)

/* Value of symbol `i` of dynamic symbol table `symi` for a relocation; *undef when it has none. */
static uint64_t dyn_sym_value(elf_ctx *c, uint32_t symi, uint64_t i, int *undef) {
    shdr st;
    *undef = 1;
    if (!symi || symi >= c->shnum)
        return 0;
    read_shdr(c, symi, &st);
    if (st.entsize != SYM_SIZE || !in_range(st.offset, st.size, c->f.n) || i >= st.size / SYM_SIZE)
        return 0;
    const uint8_t *p = c->f.p + st.offset + i * SYM_SIZE;
    if (rd16(p + 6) == SHN_UNDEF)
        return 0;
    *undef = 0;
    return rd64(p + 8);
}

/* Record the SHF_ALLOC sections, their contents and the dynamic relocations of a linked object.
 * Relocatable objects (ET_REL) place every section at address 0: they get no image. */
static gfx_result parse_image(elf_ctx *c, gfx_module *m) {
    if (m->etype != ET_DYN)
        return GFX_OK;
    size_t nalloc = 0, names = 0;
    uint64_t data = 0, nrel = 0;
    for (uint32_t i = 1; i < c->shnum; i++) {
        shdr s;
        read_shdr(c, i, &s);
        if (!(s.flags & SHF_ALLOC) || s.size == 0)
            continue;
        gfx_result r = sec_check(c, i, &s);
        if (r)
            return r;
        if (s.addr > LD_IMAGE_MAX || s.size > LD_IMAGE_MAX - s.addr)
            return fail(&c->f, "section %u (%s) lies beyond 4 GiB (0x%llx, size 0x%llx)", i,
                        sec_name(c, &s), (unsigned long long)s.addr, (unsigned long long)s.size);
        nalloc++;
        names += strlen(sec_name(c, &s)) + 1;
        if (s.type != SHT_NOBITS)
            data += s.size;
        if (s.type == SHT_RELA)
            nrel += s.size / RELA_SIZE;
        if (s.addr + s.size > m->image_size)
            m->image_size = s.addr + s.size;
    }
    m->secs = calloc(nalloc ? nalloc : 1, sizeof *m->secs);
    m->secdata = malloc(data ? data : 1); /* data <= file size: sections are inside the file */
    m->secnames = malloc(names ? names : 1);
    m->relocs = calloc(nrel ? nrel : 1, sizeof *m->relocs);
    if (!m->secs || !m->secdata || !m->secnames || !m->relocs)
        return GFX_ERR_NOMEM;
    uint64_t doff = 0;
    size_t noff = 0;
    for (uint32_t i = 1; i < c->shnum; i++) {
        shdr s;
        read_shdr(c, i, &s);
        if (!(s.flags & SHF_ALLOC) || s.size == 0)
            continue;
        ld_section *d = &m->secs[m->nsecs++];
        size_t len = strlen(sec_name(c, &s)) + 1;
        memcpy(m->secnames + noff, sec_name(c, &s), len);
        d->name = m->secnames + noff;
        noff += len;
        d->addr = s.addr;
        d->size = s.size;
        d->write = (s.flags & SHF_WRITE) != 0;
        d->exec = (s.flags & SHF_EXECINSTR) != 0;
        if (s.type != SHT_NOBITS) {
            memcpy(m->secdata + doff, c->f.p + s.offset, s.size);
            d->data = m->secdata + doff;
            doff += s.size;
        }
        if (s.type != SHT_RELA)
            continue;
        if (s.entsize != RELA_SIZE)
            return fail(&c->f, "bad relocation entry size %llu (expected %d)",
                        (unsigned long long)s.entsize, RELA_SIZE);
        for (uint64_t k = 0; k < s.size / RELA_SIZE; k++) {
            const uint8_t *p = c->f.p + s.offset + k * RELA_SIZE;
            ld_reloc *rl = &m->relocs[m->nrelocs++];
            uint64_t info = rd64(p + 8);
            rl->offset = rd64(p);
            rl->type = (uint32_t)info;
            rl->addend = (int64_t)rd64(p + 16);
            rl->sym = (info >> 32) ? dyn_sym_value(c, s.link, info >> 32, &rl->sym_undef) : 0;
        }
    }
    return GFX_OK;
}

/* ---- entry point ------------------------------------------------------------------------- */

void ld_module_free(gfx_module *m) {
    if (!m)
        return;
    free(m->text);
    free(m->syms);
    free(m->strings);
    free(m->secs);
    free(m->secdata);
    free(m->secnames);
    free(m->relocs);
    free(m->objs);
    ld_meta_free(&m->meta);
    if (m->exec_free)
        m->exec_free(m->exec);
    free(m);
}

gfx_result ld_elf_parse(const uint8_t *data, size_t size, gfx_module **out, char *err,
                        size_t errsz) {
    elf_ctx c = {.f = {data, size, err, errsz}};
    gfx_module *m = NULL;
    uint32_t shstrndx = 0;
    gfx_result r;
    *out = NULL;
    if (err && errsz)
        err[0] = 0;
    if (!data && size)
        return GFX_ERR_INVALID;

    m = calloc(1, sizeof *m);
    if (!m)
        return GFX_ERR_NOMEM;
    snprintf(m->name, sizeof m->name, "<memory>");
    if ((r = parse_header(&c, &m->arch, &m->eflags, &m->etype, &shstrndx)))
        goto fail;

    if (shstrndx == SHN_UNDEF || shstrndx >= c.shnum) {
        r = fail(&c.f, "section name table index %u out of range", shstrndx);
        goto fail;
    }
    shdr s;
    read_shdr(&c, shstrndx, &s);
    if (s.type != SHT_STRTAB) {
        r = fail(&c.f, "section name table %u is not a string table", shstrndx);
        goto fail;
    }
    if ((r = sec_check(&c, shstrndx, &s)))
        goto fail;
    c.shstr = data + s.offset;
    c.shstr_size = s.size;

    uint32_t texti = 0, symtab = 0, dynsym = 0;
    shdr text = {0};
    for (uint32_t i = 1; i < c.shnum; i++) {
        read_shdr(&c, i, &s);
        if (s.type == SHT_SYMTAB && !symtab)
            symtab = i;
        if (s.type == SHT_DYNSYM && !dynsym)
            dynsym = i;
        const char *name = str_at(c.shstr, c.shstr_size, s.name);
        if (!name) {
            r = fail(&c.f, "section %u name out of bounds", i);
            goto fail;
        }
        if (strcmp(name, ".text") != 0 || texti)
            continue;
        if (s.type != SHT_PROGBITS) {
            r = fail(&c.f, "section .text has type %u (expected PROGBITS)", s.type);
            goto fail;
        }
        if ((r = sec_check(&c, i, &s)))
            goto fail;
        if (s.addr > UINT64_MAX - s.size) {
            r = fail(&c.f, "section .text address range overflows");
            goto fail;
        }
        texti = i;
        text = s;
    }
    if (!texti) {
        r = fail(&c.f, "no .text section");
        goto fail;
    }
    if (texti >= SHN_LORESERVE) {
        r = fail(&c.f, ".text section index %u is not addressable by symbols", texti);
        goto fail;
    }
    m->text = malloc(text.size ? text.size : 1);
    if (!m->text) {
        r = GFX_ERR_NOMEM;
        goto fail;
    }
    memcpy(m->text, data + text.offset, text.size);
    m->text_size = text.size;
    m->text_addr = text.addr;

    /* Prefer the full symbol table; a stripped object still has the dynamic one. */
    if (symtab || dynsym) {
        if ((r = parse_symbols(&c, symtab ? symtab : dynsym, texti, &text, m)))
            goto fail;
    }
    parse_notes(&c, m);
    if ((r = parse_image(&c, m)))
        goto fail;
    *out = m;
    return GFX_OK;
fail:
    ld_module_free(m);
    if (r == GFX_ERR_NOMEM && err && errsz)
        snprintf(err, errsz, "out of memory");
    return r;
}
