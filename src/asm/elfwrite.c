/* elfwrite.c - write an AMDHSA code object: an ELF64 shared object as ld.lld-22 lays it out.
 *
 * "AMDGPU Usage" (LLVM), "ELF Code Object": e_ident OSABI = ELFOSABI_AMDGPU_HSA (64), ABI version
 * = code object version - 2, e_machine EM_AMDGPU (224), e_flags = EF_AMDGPU_MACH | the xnack /
 * sramecc feature bits; kernels are STT_FUNC symbols in .text with an STT_OBJECT NAME.kd
 * descriptor in .rodata; the metadata is an NT_AMDGPU_METADATA note (owner "AMDGPU", type 32)
 * holding msgpack.  Segments: PHDR, LOAD (R: headers, note, dynamic symbols, .rela.dyn,
 * .rodata), LOAD (R E: .text on its own page), LOAD (RW: .data.rel.ro, .dynamic, .got), LOAD
 * (RW: .data, .bss; only when there is writable data), DYNAMIC, NOTE.  Pointers in
 * program-scope data and .got entries get R_AMDGPU_RELATIVE64 entries in .rela.dyn (DT_RELA),
 * as lld writes them for symbols that cannot be preempted (every global here is
 * STV_PROTECTED).
 */
#include "asm/as.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

enum { EHDR = 64, PHDR_SZ = 56, SHDR_SZ = 64, SYM_SZ = 24, RELA_SZ = 24, MAX_PHDR = 7 };
enum {
    SH_NULL,
    SH_NOTE,
    SH_DYNSYM,
    SH_HASH,
    SH_DYNSTR,
    SH_RELA,
    SH_RODATA,
    SH_TEXT,
    SH_RELRO,
    SH_DYNAMIC,
    SH_GOT,
    SH_DATA,
    SH_BSS,
    SH_SYMTAB,
    SH_SHSTRTAB,
    SH_STRTAB,
    SH_N
};
/* The section of each AS_SEC_* */
static const int sh_of[AS_NSEC] = {[AS_SEC_TEXT] = SH_TEXT,   [AS_SEC_RODATA] = SH_RODATA,
                                   [AS_SEC_RELRO] = SH_RELRO, [AS_SEC_DATA] = SH_DATA,
                                   [AS_SEC_BSS] = SH_BSS,     [AS_SEC_GOT] = SH_GOT};

typedef struct {
    uint64_t off[SH_N], addr[SH_N], size[SH_N], align[SH_N];
    uint64_t shoff, total;
    int nphdr, has_data;       /* a second RW segment for .data/.bss */
    size_t ndyn, nsym, nlocal; /* dynsym entries (incl. null), symtab entries, symtab locals */
    size_t dynstr_size, strtab_size, note_size, ndynamic;
} plan;

static const char shstrtab[] =
    "\0.note\0.dynsym\0.hash\0.dynstr\0.rela.dyn\0.rodata\0.text\0"
    ".data.rel.ro\0.dynamic\0.got\0.data\0.bss\0.symtab\0.shstrtab\0.strtab";

static uint64_t al(uint64_t v, uint64_t a) { return a ? (v + a - 1) / a * a : v; }
static uint64_t max64(uint64_t a, uint64_t b) { return a > b ? a : b; }

/* Local symbols with .L names are assembler temporaries: not written (as llvm-mc does). */
static int is_temp(const as_sym *s) { return s->name[0] == '.' && s->name[1] == 'L'; }

static void make_plan(const as_out *o, plan *p) {
    memset(p, 0, sizeof *p);
    p->ndyn = 1;
    p->nsym = 1;
    p->dynstr_size = 1;
    p->strtab_size = 1;
    for (size_t i = 0; i < o->nsyms; i++) {
        const as_sym *s = &o->syms[i];
        if (s->sec == AS_SEC_NONE || is_temp(s))
            continue;
        size_t l = strlen(s->name) + 1;
        p->nsym++;
        p->strtab_size += l;
        if (s->global) {
            p->ndyn++;
            p->dynstr_size += l;
        } else {
            p->nlocal++;
        }
    }
    p->note_size = o->meta ? 12 + 8 + al(o->meta_size, 4) : 0;
    p->has_data = o->size[AS_SEC_DATA] || o->size[AS_SEC_BSS];
    p->nphdr = p->has_data ? 7 : 6;
    p->ndynamic = o->nrelocs ? 9 : 6;
    for (int a = 0; a < AS_NSEC; a++) {
        p->size[sh_of[a]] = o->size[a];
        p->align[sh_of[a]] = max64(o->align[a], 1);
    }
    uint64_t off = EHDR + (uint64_t)p->nphdr * PHDR_SZ;
    p->align[SH_NOTE] = 4, p->size[SH_NOTE] = p->note_size;
    p->align[SH_DYNSYM] = 8, p->size[SH_DYNSYM] = p->ndyn * SYM_SZ;
    p->align[SH_HASH] = 4, p->size[SH_HASH] = (2 + 1 + p->ndyn) * 4;
    p->align[SH_DYNSTR] = 1, p->size[SH_DYNSTR] = p->dynstr_size;
    p->align[SH_RELA] = 8, p->size[SH_RELA] = o->nrelocs * RELA_SZ;
    p->align[SH_RODATA] = max64(p->align[SH_RODATA], 64);
    for (int s = SH_NOTE; s <= SH_RODATA; s++) {
        off = al(off, p->align[s]);
        p->off[s] = p->addr[s] = off;
        off += p->size[s];
    }
    /* Each later segment starts on the next page, at the same offset within the page as in the
     * file (lld's rule): .text; .data.rel.ro + .dynamic; .data + .bss. */
    p->align[SH_TEXT] = max64(p->align[SH_TEXT], 256);
    off = al(off, p->align[SH_TEXT]);
    p->off[SH_TEXT] = off;
    p->addr[SH_TEXT] = al(p->addr[SH_RODATA] + p->size[SH_RODATA], 0x1000) + (off & 0xfff);
    off += p->size[SH_TEXT];
    off = al(off, p->size[SH_RELRO] ? max64(p->align[SH_RELRO], 8) : 8);
    p->off[SH_RELRO] = off;
    p->addr[SH_RELRO] = al(p->addr[SH_TEXT] + p->size[SH_TEXT], 0x1000) + (off & 0xfff);
    p->align[SH_DYNAMIC] = 8, p->size[SH_DYNAMIC] = p->ndynamic * 16;
    p->off[SH_DYNAMIC] = al(off + p->size[SH_RELRO], 8);
    p->addr[SH_DYNAMIC] = p->addr[SH_RELRO] + (p->off[SH_DYNAMIC] - p->off[SH_RELRO]);
    /* .got follows .dynamic in the same segment, as lld places it */
    p->align[SH_GOT] = 8;
    p->off[SH_GOT] = al(p->off[SH_DYNAMIC] + p->size[SH_DYNAMIC], 8);
    p->addr[SH_GOT] = p->addr[SH_DYNAMIC] + (p->off[SH_GOT] - p->off[SH_DYNAMIC]);
    off = p->off[SH_GOT] + p->size[SH_GOT];
    uint64_t end = p->addr[SH_GOT] + p->size[SH_GOT];
    if (p->has_data) {
        off = al(off, p->align[SH_DATA]);
        end = al(end, 0x1000) + (off & 0xfff);
    }
    p->off[SH_DATA] = off;
    p->addr[SH_DATA] = end;
    off += p->size[SH_DATA];
    p->off[SH_BSS] = off; /* NOBITS: no bytes in the file */
    p->addr[SH_BSS] = al(p->addr[SH_DATA] + p->size[SH_DATA], p->align[SH_BSS]);
    p->align[SH_SYMTAB] = 8, p->size[SH_SYMTAB] = p->nsym * SYM_SZ;
    p->align[SH_SHSTRTAB] = 1, p->size[SH_SHSTRTAB] = sizeof shstrtab;
    p->align[SH_STRTAB] = 1, p->size[SH_STRTAB] = p->strtab_size;
    for (int s = SH_SYMTAB; s <= SH_STRTAB; s++) {
        off = al(off, p->align[s]);
        p->off[s] = off;
        off += p->size[s];
    }
    p->shoff = al(off, 8);
    p->total = p->shoff + SH_N * SHDR_SZ;
}

void as_layout(const as_out *o, uint64_t addr[AS_NSEC]) {
    plan p;
    make_plan(o, &p);
    for (int a = 0; a < AS_NSEC; a++)
        addr[a] = p.addr[sh_of[a]];
}

static void w16(uint8_t *b, uint16_t v) { memcpy(b, &v, 2); }
static void w32(uint8_t *b, uint32_t v) { memcpy(b, &v, 4); }
static void w64(uint8_t *b, uint64_t v) { memcpy(b, &v, 8); }

static void put_sym(uint8_t *b, uint32_t name, const as_sym *s, const plan *p) {
    int sh = sh_of[s->sec];
    unsigned type = s->is_func ? 2 : s->is_object ? 1 : 0; /* STT_FUNC, STT_OBJECT, STT_NOTYPE */
    w32(b, name);
    b[4] = (uint8_t)((s->global ? 1 : 0) << 4 | type);
    b[5] = s->global ? 3 : 0; /* STV_PROTECTED, as clang marks kernels */
    w16(b + 6, (uint16_t)sh);
    w64(b + 8, p->addr[sh] + s->off);
    w64(b + 16, s->size);
}

int as_write_elf(const as_out *o, uint8_t **buf, size_t *size, char *err, size_t errsz) {
    plan p;
    make_plan(o, &p);
    uint8_t *b = calloc(1, p.total);
    if (!b) {
        snprintf(err, errsz, "out of memory");
        return 1;
    }
    /* ELF header */
    memcpy(b, "\177ELF", 4);
    b[4] = 2, b[5] = 1, b[6] = 1, b[7] = 64; /* ELF64, little-endian, ELFOSABI_AMDGPU_HSA */
    b[8] = (uint8_t)(o->cov - 2);            /* ELFABIVERSION_AMDGPU_HSA_V<cov> */
    w16(b + 16, 3);                          /* ET_DYN */
    w16(b + 18, 224);                        /* EM_AMDGPU */
    w32(b + 20, 1);
    w64(b + 32, EHDR);
    w64(b + 40, p.shoff);
    w32(b + 48, o->eflags);
    w16(b + 52, EHDR);
    w16(b + 54, PHDR_SZ);
    w16(b + 56, (uint16_t)p.nphdr);
    w16(b + 58, SHDR_SZ);
    w16(b + 60, SH_N);
    w16(b + 62, SH_SHSTRTAB);
    /* program headers */
    typedef struct {
        uint32_t type, flags;
        uint64_t off, addr, filesz, memsz, align;
    } phdr;
    phdr ph[MAX_PHDR] = {
        {6, 4, EHDR, EHDR, (uint64_t)p.nphdr * PHDR_SZ, (uint64_t)p.nphdr * PHDR_SZ, 8}, /* PHDR */
        {1, 4, 0, 0, p.off[SH_RODATA] + p.size[SH_RODATA], p.off[SH_RODATA] + p.size[SH_RODATA],
         0x1000}, /* LOAD R */
        {1, 5, p.off[SH_TEXT], p.addr[SH_TEXT], p.size[SH_TEXT], p.size[SH_TEXT],
         0x1000}, /* LOAD R E */
        {1, 6, p.off[SH_RELRO], p.addr[SH_RELRO], p.off[SH_GOT] + p.size[SH_GOT] - p.off[SH_RELRO],
         p.off[SH_GOT] + p.size[SH_GOT] - p.off[SH_RELRO], 0x1000}, /* LOAD RW */
    };
    int np = 4;
    if (p.has_data) /* LOAD RW: .data, then .bss in memory only */
        ph[np++] = (phdr){1,
                          6,
                          p.off[SH_DATA],
                          p.addr[SH_DATA],
                          p.size[SH_DATA],
                          p.addr[SH_BSS] + p.size[SH_BSS] - p.addr[SH_DATA],
                          0x1000};
    ph[np++] =
        (phdr){2, 6, p.off[SH_DYNAMIC], p.addr[SH_DYNAMIC], p.size[SH_DYNAMIC], p.size[SH_DYNAMIC],
               8}; /* DYNAMIC */
    ph[np++] = (phdr){4, 4, p.off[SH_NOTE], p.addr[SH_NOTE], p.size[SH_NOTE], p.size[SH_NOTE],
                      4}; /* NOTE */
    for (int i = 0; i < np; i++) {
        uint8_t *h = b + EHDR + i * PHDR_SZ;
        w32(h, ph[i].type);
        w32(h + 4, ph[i].flags);
        w64(h + 8, ph[i].off);
        w64(h + 16, ph[i].addr);
        w64(h + 24, ph[i].addr);
        w64(h + 32, ph[i].filesz);
        w64(h + 40, ph[i].memsz);
        w64(h + 48, ph[i].align);
    }
    /* metadata note */
    if (o->meta) {
        uint8_t *n = b + p.off[SH_NOTE];
        w32(n, 7);
        w32(n + 4, (uint32_t)o->meta_size);
        w32(n + 8, 32); /* NT_AMDGPU_METADATA */
        memcpy(n + 12, "AMDGPU", 7);
        memcpy(n + 20, o->meta, o->meta_size);
    }
    /* symbols: .dynsym holds the globals, .symtab locals first, then the globals */
    size_t di = 1, dstr = 1, si = 1, sstr = 1;
    for (int pass = 0; pass < 2; pass++)
        for (size_t i = 0; i < o->nsyms; i++) {
            const as_sym *s = &o->syms[i];
            if (s->sec == AS_SEC_NONE || is_temp(s) || s->global != pass)
                continue;
            size_t l = strlen(s->name) + 1;
            memcpy(b + p.off[SH_STRTAB] + sstr, s->name, l);
            put_sym(b + p.off[SH_SYMTAB] + si * SYM_SZ, (uint32_t)sstr, s, &p);
            si++, sstr += l;
            if (s->global) {
                memcpy(b + p.off[SH_DYNSTR] + dstr, s->name, l);
                put_sym(b + p.off[SH_DYNSYM] + di * SYM_SZ, (uint32_t)dstr, s, &p);
                di++, dstr += l;
            }
        }
    /* SysV hash with one bucket: every lookup walks the chain of all symbols */
    {
        uint8_t *h = b + p.off[SH_HASH];
        w32(h, 1);
        w32(h + 4, (uint32_t)p.ndyn);
        w32(h + 8, (uint32_t)(p.ndyn > 1 ? p.ndyn - 1 : 0));
        for (size_t i = 0; i < p.ndyn; i++)
            w32(h + 12 + 4 * i, (uint32_t)(i > 1 ? i - 1 : 0));
    }
    for (int a = 0; a < AS_NSEC; a++)
        if (o->bytes[a] && o->size[a])
            memcpy(b + p.off[sh_of[a]], o->bytes[a], o->size[a]);
    /* R_AMDGPU_RELATIVE64 (13): the loader stores base + addend; the addend is also stored in
     * place, as the value at link address 0 */
    for (size_t i = 0; i < o->nrelocs; i++) {
        const as_reloc *r = &o->relocs[i];
        uint8_t *e = b + p.off[SH_RELA] + i * RELA_SZ;
        w64(e, p.addr[sh_of[r->sec]] + r->off);
        w64(e + 8, 13);
        w64(e + 16, r->addend);
        w64(b + p.off[sh_of[r->sec]] + r->off, r->addend);
    }
    {
        uint64_t dyn[9][2] = {{4, p.addr[SH_HASH]},   {5, p.addr[SH_DYNSTR]},
                              {6, p.addr[SH_DYNSYM]}, {10, p.size[SH_DYNSTR]},
                              {11, SYM_SZ},           {0, 0}};
        if (o->nrelocs) { /* DT_RELA, DT_RELASZ, DT_RELAENT before the DT_NULL */
            const uint64_t rela[4][2] = {
                {7, p.addr[SH_RELA]}, {8, p.size[SH_RELA]}, {9, RELA_SZ}, {0, 0}};
            memcpy(dyn[5], rela, sizeof rela);
        }
        for (size_t i = 0; i < p.ndynamic; i++) {
            w64(b + p.off[SH_DYNAMIC] + 16 * i, dyn[i][0]);
            w64(b + p.off[SH_DYNAMIC] + 16 * i + 8, dyn[i][1]);
        }
    }
    memcpy(b + p.off[SH_SHSTRTAB], shstrtab, sizeof shstrtab);
    /* section headers */
    static const uint32_t type[SH_N] = {0, 7, 11, 5, 3, 4, 1, 1, 1, 6, 1, 1, 8, 2, 3, 3};
    static const uint64_t flags[SH_N] = {0, 2, 2, 2, 2, 2, 2, 6, 3, 3, 3, 3, 3, 0, 0, 0};
    uint32_t name = 0;
    for (int s = 1; s < SH_N; s++) {
        name += (uint32_t)strlen(shstrtab + name) + 1;
        uint8_t *h = b + p.shoff + s * SHDR_SZ;
        w32(h, name);
        w32(h + 4, type[s]);
        w64(h + 8, flags[s]);
        w64(h + 16, p.addr[s]);
        w64(h + 24, p.off[s]);
        w64(h + 32, p.size[s]);
        uint32_t link = s == SH_DYNSYM || s == SH_DYNAMIC ? SH_DYNSTR
                        : s == SH_HASH || s == SH_RELA    ? SH_DYNSYM
                        : s == SH_SYMTAB                  ? SH_STRTAB
                                                          : 0;
        uint32_t info = s == SH_DYNSYM ? 1 : s == SH_SYMTAB ? (uint32_t)(1 + p.nlocal) : 0;
        w32(h + 40, link);
        w32(h + 44, info);
        w64(h + 48, p.align[s] ? p.align[s] : 1);
        w64(h + 56, s == SH_DYNSYM || s == SH_SYMTAB ? SYM_SZ
                    : s == SH_RELA                   ? RELA_SZ
                    : s == SH_DYNAMIC                ? 16
                    : s == SH_HASH                   ? 4
                                                     : 0);
    }
    *buf = b;
    *size = p.total;
    return 0;
}
