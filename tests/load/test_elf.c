/* test_elf.c - the code-object loader against real clang-22 output and against corrupted copies.
 *
 * Oracles are LLVM's own tools: llvm-nm-22 for the symbols in .text, and llvm-objdump-22's
 * kernel-descriptor listing for the descriptor fields.  Corrupted inputs (truncations, random
 * byte flips, targeted header/section damage) must each give an error or a valid module, never
 * a crash; the specific corruptions must give their specific messages.
 */
#include "common/rng.h"
#include "common/check.h"
#include "common/util.h"
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "gfxemu.h"

/* ---- loading real code objects ---------------------------------------------------------- */

typedef struct {
    char name[128];
    unsigned long long addr, size;
    char type;
} nm_sym;

/* What `TOOL ARGS 'PATH'` prints on stdout (malloc'd, 0-terminated), or NULL when it fails.
 * LLVM's tools are fixed oracles: the answer is kept in the oracle cache (common/util.h), keyed
 * by the command, PATH's content and the tool's binary, so a warm run starts no llvm-nm-22 or
 * llvm-objdump-22 (each start maps libLLVM: ~0.1 s of CPU here, 36 of them per run). */
static char *tool_output(const char *tool, const char *args, const char *path) {
    char cmd[1200], name[64];
    snprintf(cmd, sizeof cmd, "%s %s '%s'", tool, args, path);
    size_t flen;
    unsigned char *file = test_slurp(path, &flen), *data;
    unsigned long long id = test_file_identity(tool);
    unsigned long long h = test_hash(cmd, strlen(cmd) + 1, test_hash(&id, sizeof id, TEST_HASH0));
    h = test_hash(file, flen, h);
    unsigned long long key2 = test_hash(file, flen, test_hash(cmd, strlen(cmd) + 1, id + 1));
    free(file);
    snprintf(name, sizeof name, "tool-%016llx", h);
    size_t n;
    if (id && test_cache_get(name, key2, &data, &n) == 0)
        return (char *)data;
    FILE *p = popen(cmd, "r");
    size_t cap = 1 << 16, got = 1;
    char *out = malloc(cap);
    n = 0;
    while (p && out && got) {
        if (cap - n < 4096) {
            char *more = realloc(out, cap * 2);
            if (!more) {
                free(out);
                out = NULL;
                break;
            }
            out = more;
            cap *= 2;
        }
        got = fread(out + n, 1, cap - n - 1, p);
        n += got;
    }
    if (!p || pclose(p) != 0 || !out) {
        free(out);
        return NULL;
    }
    out[n] = 0;
    if (id)
        test_cache_put(name, key2, out, n);
    return out;
}

/* Defined symbols as llvm-nm-22 lists them (the dynamic ones for a stripped file). */
static size_t nm_symbols(const char *path, int dynamic, nm_sym *out, size_t max) {
    char *text =
        tool_output("llvm-nm-22", dynamic ? "-S --defined-only -D" : "-S --defined-only", path);
    if (!text) {
        fprintf(stderr, "llvm-nm-22 failed on %s\n", path);
        exit(1);
    }
    size_t n = 0;
    for (char *line = text; *line && n < max;) {
        char *nl = strchr(line, '\n');
        nm_sym s;
        if (sscanf(line, "%llx %llx %c %127s", &s.addr, &s.size, &s.type, s.name) == 4)
            out[n++] = s;
        line = nl ? nl + 1 : line + strlen(line);
    }
    free(text);
    return n;
}

/* A field of kernel `k`'s descriptor as llvm-objdump-22 prints it (".amdhsa_<field> N" between
 * ".amdhsa_kernel K" and ".end_amdhsa_kernel").  One listing of every descriptor in .rodata is
 * made per file and kept for the next calls: one llvm-objdump-22 run per field made this test
 * mostly process start-ups. */
static long long kd_field(const char *path, const char *k, const char *field) {
    static char *listing, last[1024];
    char key[160];
    if (strcmp(path, last) != 0) {
        free(listing);
        listing = tool_output("llvm-objdump-22", "-D -j .rodata", path);
        if (!listing) {
            fprintf(stderr, "llvm-objdump-22 failed on %s\n", path);
            exit(1);
        }
        snprintf(last, sizeof last, "%s", path);
    }
    snprintf(key, sizeof key, ".amdhsa_kernel %s\n", k);
    char *at = strstr(listing, key), *end = at ? strstr(at, ".end_amdhsa_kernel") : NULL;
    snprintf(key, sizeof key, ".amdhsa_%s ", field);
    long long v = -1;
    for (at = at ? strstr(at, key) : NULL; at && at < end; at = strstr(at + 1, key))
        v = strtoll(at + strlen(key), NULL, 0);
    if (v < 0) {
        fprintf(stderr, "no %s for %s in llvm-objdump-22 output of %s\n", field, k, path);
        exit(1);
    }
    return v;
}

static uint32_t le32(const uint8_t *p) {
    return (uint32_t)p[0] | (uint32_t)p[1] << 8 | (uint32_t)p[2] << 16 | (uint32_t)p[3] << 24;
}

static void check_real(const char *path, gfx_arch arch, unsigned mach, int stripped) {
    char err[256] = "";
    gfx_module *m = NULL;
    gfx_result r = gfx_module_load_file(path, &m, err, sizeof err);
    CHECK(r == GFX_OK && m, "%s: %s", path, err);
    if (!m)
        return;
    CHECK(gfx_module_arch(m) == arch, "%s: arch %d", path, gfx_module_arch(m));
    CHECK((gfx_module_eflags(m) & 0xff) == mach, "%s: e_flags 0x%x", path, gfx_module_eflags(m));

    nm_sym nm[256];
    size_t nn = nm_symbols(path, stripped, nm, 256);
    uint64_t text_addr;
    size_t text_size;
    const uint8_t *text = gfx_module_text(m, &text_addr, &text_size);
    CHECK(text && text_size > 0, "%s: empty .text", path);

    /* Every llvm-nm text symbol ('T'/'t') is a gfxemu symbol with the same address and size. */
    size_t ntext = 0;
    for (size_t i = 0; i < nn; i++) {
        if (nm[i].type != 'T' && nm[i].type != 't')
            continue;
        ntext++;
        gfx_symbol s;
        r = gfx_module_find_symbol(m, nm[i].name, &s);
        CHECK(r == GFX_OK, "%s: symbol %s not found", path, nm[i].name);
        if (r != GFX_OK)
            continue;
        CHECK(s.addr == nm[i].addr && s.size == nm[i].size, "%s: %s at 0x%llx size %llu", path,
              s.name, (unsigned long long)s.addr, (unsigned long long)s.size);
        CHECK(s.addr >= text_addr && s.addr + s.size <= text_addr + text_size, "%s: %s", path,
              s.name);
        int has_kd = 0;
        char kdname[160];
        snprintf(kdname, sizeof kdname, "%.127s.kd", nm[i].name);
        for (size_t j = 0; j < nn; j++)
            has_kd |= strcmp(nm[j].name, kdname) == 0;
        CHECK(s.is_kernel == has_kd, "%s: %s is_kernel %d", path, s.name, s.is_kernel);
    }
    CHECK(gfx_module_symbol_count(m) == ntext, "%s: %zu symbols, llvm-nm lists %zu", path,
          gfx_module_symbol_count(m), ntext);

    /* Iteration is sorted by address. */
    for (size_t i = 1; i < gfx_module_symbol_count(m); i++) {
        gfx_symbol a, b;
        gfx_module_symbol(m, i - 1, &a);
        gfx_module_symbol(m, i, &b);
        CHECK(a.addr <= b.addr, "%s: symbols out of order at %zu", path, i);
    }
    gfx_symbol dummy;
    CHECK(gfx_module_symbol(m, gfx_module_symbol_count(m), &dummy) == GFX_ERR_INVALID, "%s", path);
    CHECK(gfx_module_find_symbol(m, "no_such_kernel", &dummy) == GFX_ERR_NOT_FOUND, "%s", path);

    /* Descriptors: fields agree with llvm-objdump, and the entry offset (bytes 16..23, signed,
     * relative to the descriptor) lands on the kernel's code. */
    static const char *kernels[] = {"vecadd", "reverse"};
    for (size_t k = 0; k < 2; k++) {
        uint8_t kd[64];
        gfx_symbol s;
        CHECK(gfx_module_find_symbol(m, kernels[k], &s) == GFX_OK && s.is_kernel, "%s: %s", path,
              kernels[k]);
        CHECK(gfx_module_kernel_descriptor(m, kernels[k], kd) == GFX_OK, "%s: %s.kd", path,
              kernels[k]);
        CHECK(le32(kd) == kd_field(path, kernels[k], "group_segment_fixed_size"), "%s: %s", path,
              kernels[k]);
        CHECK(le32(kd + 4) == kd_field(path, kernels[k], "private_segment_fixed_size"), "%s: %s",
              path, kernels[k]);
        CHECK(le32(kd + 8) == kd_field(path, kernels[k], "kernarg_size"), "%s: %s", path,
              kernels[k]);
        uint64_t entry = (uint64_t)le32(kd + 16) | (uint64_t)le32(kd + 20) << 32;
        unsigned long long kd_addr = 0;
        char kdname[64];
        snprintf(kdname, sizeof kdname, "%s.kd", kernels[k]);
        for (size_t j = 0; j < nn; j++)
            if (strcmp(nm[j].name, kdname) == 0)
                kd_addr = nm[j].addr;
        CHECK(kd_addr + entry == s.addr, "%s: %s entry 0x%llx + 0x%llx != 0x%llx", path, kernels[k],
              kd_addr, (unsigned long long)entry, (unsigned long long)s.addr);
    }
    uint8_t kd[64];
    CHECK(gfx_module_kernel_descriptor(m, "nope", kd) == GFX_ERR_NOT_FOUND, "%s", path);
    /* An -O0 build's helper functions are code without a descriptor. */
    if (gfx_module_find_symbol(m, "__clang_ocl_kern_imp_vecadd", &dummy) == GFX_OK)
        CHECK(gfx_module_kernel_descriptor(m, "__clang_ocl_kern_imp_vecadd", kd) ==
                  GFX_ERR_NOT_FOUND,
              "%s", path);

    /* load_mem of the same bytes gives the same module. */
    size_t size;
    unsigned char *bytes = test_slurp(path, &size);
    gfx_module *m2 = NULL;
    CHECK(gfx_module_load_mem(bytes, size, &m2, err, sizeof err) == GFX_OK, "%s: %s", path, err);
    if (m2) {
        uint64_t a2;
        size_t s2;
        const uint8_t *t2 = gfx_module_text(m2, &a2, &s2);
        CHECK(a2 == text_addr && s2 == text_size && memcmp(t2, text, s2) == 0, "%s", path);
        CHECK(gfx_module_symbol_count(m2) == gfx_module_symbol_count(m), "%s", path);
        gfx_module_free(m2);
    }
    free(bytes);
    gfx_module_free(m);
}

/* ---- corrupted inputs ------------------------------------------------------------------- */

/* Load a buffer; on success exercise every accessor (and the disassembler over .text) so a
 * sanitizer build sees any bad pointer the loader let through.  Returns the result. */
static gfx_result load_and_use(const uint8_t *data, size_t size, char *err, size_t errsz) {
    gfx_module *m = NULL;
    gfx_result r = gfx_module_load_mem(data, size, &m, err, errsz);
    if (r != GFX_OK) {
        CHECK(m == NULL, "module returned with error");
        CHECK(err[0] != 0 && !strchr(err, '\n'), "error message '%s'", err);
        return r;
    }
    uint64_t addr;
    size_t n;
    const uint8_t *text = gfx_module_text(m, &addr, &n);
    char buf[GFX_DISASM_MAX];
    for (size_t off = 0; off + 4 <= n && off < 4096;)
        off += gfx_disasm(gfx_module_arch(m), text + off, n - off, buf, sizeof buf);
    for (size_t i = 0; i < gfx_module_symbol_count(m); i++) {
        gfx_symbol s;
        uint8_t kd[64];
        CHECK(gfx_module_symbol(m, i, &s) == GFX_OK, "symbol %zu", i);
        CHECK(s.addr >= addr && s.addr - addr <= n && s.size <= n - (s.addr - addr),
              "symbol %s outside .text", s.name);
        volatile size_t len = strlen(s.name);
        (void)len;
        gfx_module_kernel_descriptor(m, s.name, kd);
    }
    gfx_module_free(m);
    return GFX_OK;
}

static void expect_error(const uint8_t *data, size_t size, gfx_result want, const char *msg,
                         const char *what) {
    char err[256] = "";
    gfx_result r = load_and_use(data, size, err, sizeof err);
    CHECK(r == want, "%s: result %d (%s), want %d", what, r, err, want);
    CHECK(strstr(err, msg) != NULL, "%s: message '%s', want '%s'", what, err, msg);
}

static uint64_t rd64(const uint8_t *p) { return le32(p) | (uint64_t)le32(p + 4) << 32; }
static void wr16(uint8_t *p, uint16_t v) { p[0] = (uint8_t)v, p[1] = (uint8_t)(v >> 8); }
static void wr32(uint8_t *p, uint32_t v) { wr16(p, (uint16_t)v), wr16(p + 2, (uint16_t)(v >> 16)); }
static void wr64(uint8_t *p, uint64_t v) { wr32(p, (uint32_t)v), wr32(p + 4, (uint32_t)(v >> 32)); }

/* Section header of the section called `name` (a tiny independent reader for the test). */
static uint8_t *shdr_of(uint8_t *d, const char *name, int *index) {
    uint64_t shoff = rd64(d + 40);
    unsigned shnum = d[60] | d[61] << 8, shstrndx = d[62] | d[63] << 8;
    uint8_t *strs = d + rd64(d + shoff + 64 * shstrndx + 24);
    for (unsigned i = 0; i < shnum; i++) {
        uint8_t *sh = d + shoff + 64 * i;
        if (strcmp((char *)strs + le32(sh), name) == 0) {
            if (index)
                *index = (int)i;
            return sh;
        }
    }
    fprintf(stderr, "test: no section %s\n", name);
    exit(1);
}

/* The symbol-table entry of symbol `name` in .symtab. */
static uint8_t *sym_of(uint8_t *d, const char *name) {
    uint8_t *st = shdr_of(d, ".symtab", NULL), *ss = shdr_of(d, ".strtab", NULL);
    uint8_t *syms = d + rd64(st + 24), *strs = d + rd64(ss + 24);
    for (uint64_t i = 0; i < rd64(st + 32) / 24; i++)
        if (strcmp((char *)strs + le32(syms + 24 * i), name) == 0)
            return syms + 24 * i;
    fprintf(stderr, "test: no symbol %s\n", name);
    exit(1);
}

static uint64_t rng_state = 0x9e3779b97f4a7c15ull;
static uint64_t rng(void) { return xorshift64(&rng_state); }

static void check_corrupt(const char *path) {
    size_t size;
    uint8_t *orig = test_slurp(path, &size);
    uint8_t *d = malloc(size);
    char err[256], what[64];

    /* Truncations: the section header table sits at the end, so every prefix is an error. */
    for (size_t len = 0; len < size; len += len < 256 ? 1 : 1 + len / 61) {
        memcpy(d, orig, len);
        snprintf(what, sizeof what, "truncated to %zu", len);
        err[0] = 0;
        CHECK(load_and_use(d, len, err, sizeof err) != GFX_OK, "%s", what);
        if (len < 4)
            CHECK(strcmp(err, "not an ELF file") == 0, "%s: '%s'", what, err);
        else if (len < 64)
            CHECK(strstr(err, "truncated ELF header") != NULL, "%s: '%s'", what, err);
    }

    /* Random damage: 1..8 bytes at random offsets, 3000 times (seeded, so reproducible). */
    size_t ok = 0;
    for (int iter = 0; iter < 3000; iter++) {
        memcpy(d, orig, size);
        int nflip = 1 + (int)(rng() % 8);
        for (int k = 0; k < nflip; k++) {
            /* Aim half of the damage at the headers and tables where it matters most. */
            uint64_t shoff = rd64(orig + 40);
            size_t off = rng() % 2 ? rng() % size : rng() % 64 + (rng() % 2 ? shoff - 64 : 0);
            if (off >= size)
                off = rng() % size;
            d[off] ^= (uint8_t)(1 + rng() % 255);
        }
        err[0] = 0;
        ok += load_and_use(d, size, err, sizeof err) == GFX_OK;
    }
    CHECK(ok > 0 && ok < 3000, "random damage: %zu of 3000 loaded", ok);

    /* Every single byte of the ELF header and section header table set to 0xff. */
    uint64_t shoff = rd64(orig + 40);
    for (size_t off = 0; off < size; off++) {
        if (off >= 64 && off < shoff)
            continue;
        memcpy(d, orig, size);
        d[off] = 0xff;
        err[0] = 0;
        load_and_use(d, size, err, sizeof err);
    }

    /* Specific damage, specific messages. */
#define DAMAGE(stmt, want, msg)                                                                    \
    do {                                                                                           \
        memcpy(d, orig, size);                                                                     \
        stmt;                                                                                      \
        expect_error(d, size, want, msg, #stmt);                                                   \
    } while (0)
    DAMAGE(d[0] = 'X', GFX_ERR_FORMAT, "not an ELF file");
    DAMAGE(d[4] = 1, GFX_ERR_FORMAT, "not a 64-bit ELF file (EI_CLASS 1)");
    DAMAGE(d[5] = 2, GFX_ERR_FORMAT, "not a little-endian ELF file (EI_DATA 2)");
    DAMAGE(wr16(d + 18, 62), GFX_ERR_FORMAT, "not an AMDGPU code object (e_machine 62)");
    DAMAGE(d[7] = 0, GFX_ERR_FORMAT, "not an AMDGPU HSA code object (EI_OSABI 0)");
    DAMAGE(d[8] = 0, GFX_ERR_FORMAT, "unsupported code object version 2");
    DAMAGE(wr16(d + 16, 2), GFX_ERR_FORMAT, "unsupported ELF type 2");
    DAMAGE(d[48] = 0x30, GFX_ERR_ARCH, "unsupported architecture gfx908 (0x30)");
    DAMAGE(d[48] = 0x2c, GFX_ERR_ARCH, "unsupported architecture gfx900 (0x2c)");
    DAMAGE(d[48] = 0xfe, GFX_ERR_ARCH, "unsupported architecture unknown (0xfe)");
    DAMAGE(wr64(d + 40, 0xffffffffffffff00ull), GFX_ERR_FORMAT,
           "section header table out of bounds");
    DAMAGE(wr64(d + 40, size - 100), GFX_ERR_FORMAT, "section header table out of bounds");
    DAMAGE(wr64(d + 40, 0), GFX_ERR_FORMAT, "no section header table");
    DAMAGE(wr16(d + 60, 0xfff0), GFX_ERR_FORMAT, "section header table out of bounds");
    DAMAGE(wr16(d + 58, 32), GFX_ERR_FORMAT, "bad section header entry size 32");
    DAMAGE(wr16(d + 62, 0xfff0), GFX_ERR_FORMAT, "section name table index 65520 out of range");
    int texti = 0;
    shdr_of(orig, ".text", &texti);
    char msg[128];
    snprintf(msg, sizeof msg, "section %d (.text) out of bounds", texti);
    DAMAGE(wr64(shdr_of(d, ".text", NULL) + 24, 0x7fffffffffffff00ull), GFX_ERR_FORMAT, msg);
    DAMAGE(wr64(shdr_of(d, ".text", NULL) + 32, size), GFX_ERR_FORMAT, msg);
    DAMAGE(wr32(shdr_of(d, ".text", NULL) + 4, 8), GFX_ERR_FORMAT,
           "section .text has type 8 (expected PROGBITS)");
    DAMAGE(memcpy(d + rd64(shdr_of(d, ".shstrtab", NULL) + 24) + le32(shdr_of(d, ".text", NULL)),
                  ".txet", 5),
           GFX_ERR_FORMAT, "no .text section");
    DAMAGE(wr32(shdr_of(d, ".symtab", NULL) + 40, 0xffff), GFX_ERR_FORMAT,
           "symbol string table index 65535 out of range");
    DAMAGE(wr64(shdr_of(d, ".symtab", NULL) + 56, 16), GFX_ERR_FORMAT, "bad symbol entry size 16");
    DAMAGE(wr32(sym_of(d, "vecadd"), 0x7ffffff0), GFX_ERR_FORMAT, "name out of bounds");
    DAMAGE(wr64(sym_of(d, "vecadd") + 8, 0x10), GFX_ERR_FORMAT, "symbol vecadd (0x10, size");
    DAMAGE(wr64(sym_of(d, "vecadd") + 16, 1ull << 40), GFX_ERR_FORMAT, "lies outside .text");
    DAMAGE(wr64(sym_of(d, "vecadd.kd") + 16, 32), GFX_ERR_FORMAT,
           "kernel descriptor vecadd.kd has size 32 (expected 64)");
    DAMAGE(wr64(sym_of(d, "vecadd.kd") + 8, 0xfffffffffffffff0ull), GFX_ERR_FORMAT,
           "kernel descriptor vecadd.kd outside its section");
#undef DAMAGE

    free(d);
    free(orig);
}

static void check_misc(void) {
    char err[256] = "";
    gfx_module *m = (gfx_module *)1;
    CHECK(gfx_module_load_mem(NULL, 0, &m, err, sizeof err) == GFX_ERR_FORMAT && !m, "%s", err);
    CHECK(strcmp(err, "not an ELF file") == 0, "'%s'", err);
    CHECK(gfx_module_load_mem(NULL, 10, &m, err, sizeof err) == GFX_ERR_INVALID, "NULL data");
    CHECK(gfx_module_load_mem("hello, world\n", 13, &m, NULL, 0) == GFX_ERR_FORMAT, "no err buf");
    CHECK(gfx_module_load_file("/nonexistent/x.co", &m, err, sizeof err) == GFX_ERR_IO && !m, "%s",
          err);
    CHECK(strcmp(err, "No such file or directory") == 0, "'%s'", err);
    CHECK(gfx_module_load_file("/", &m, err, sizeof err) == GFX_ERR_IO, "%s", err);
    CHECK(strcmp(err, "is a directory") == 0, "'%s'", err);
    CHECK(gfx_module_load_file("/dev/null", &m, err, sizeof err) == GFX_ERR_IO, "%s", err);
    CHECK(strcmp(err, "not a regular file") == 0, "'%s'", err);
    char tiny[8];
    CHECK(gfx_module_load_mem("\177ELF", 4, &m, tiny, sizeof tiny) == GFX_ERR_FORMAT, "tiny");
    CHECK(strcmp(tiny, "truncat") == 0, "message truncated to the buffer: '%s'", tiny);
    gfx_module_free(NULL);

    gfx_arch a = GFX_ARCH_GFX942;
    CHECK(gfx_arch_from_name("gfx950", &a) == GFX_OK && a == GFX_ARCH_GFX950, "gfx950");
    CHECK(gfx_arch_from_name("gfx942", &a) == GFX_OK && a == GFX_ARCH_GFX942, "gfx942");
    CHECK(gfx_arch_from_name("gfx90a", &a) == GFX_OK && a == GFX_ARCH_GFX90A, "gfx90a");
    a = GFX_ARCH_GFX942; /* the ROCm runtime's agent name carries target features */
    CHECK(gfx_arch_from_name("gfx90a:sramecc-:xnack-", &a) == GFX_OK && a == GFX_ARCH_GFX90A,
          "gfx90a:sramecc-:xnack-");
    CHECK(gfx_arch_from_name("gfx90", &a) == GFX_ERR_ARCH, "gfx90");
    CHECK(gfx_arch_from_name("gfx908", &a) == GFX_ERR_ARCH, "gfx908");
    CHECK(strcmp(gfx_arch_name(GFX_ARCH_GFX90A), "gfx90a") == 0, "name of gfx90a");
    CHECK(gfx_arch_from_name("gfx1100", &a) == GFX_OK && a == GFX_ARCH_GFX1100, "gfx1100");
    CHECK(gfx_arch_from_name("gfx1201", &a) == GFX_OK && a == GFX_ARCH_GFX1201, "gfx1201");
    CHECK(gfx_arch_from_name("gfx1101", &a) == GFX_ERR_ARCH, "gfx1101 is not a target");
    CHECK(strcmp(gfx_arch_name(GFX_ARCH_GFX1201), "gfx1201") == 0, "name of gfx1201");
    CHECK(gfx_arch_from_name(NULL, &a) == GFX_ERR_INVALID, "NULL");
    CHECK(strcmp(gfx_arch_name(GFX_ARCH_GFX950), "gfx950") == 0, "name");
    CHECK(strcmp(gfx_arch_name((gfx_arch)7), "unknown") == 0, "name of 7");
    for (int i = GFX_OK; i <= GFX_ERR_UNIMPLEMENTED; i++)
        for (int j = GFX_OK; j < i; j++)
            CHECK(strcmp(gfx_result_str((gfx_result)i), gfx_result_str((gfx_result)j)) != 0,
                  "results %d and %d share a description", i, j);
    CHECK(strcmp(gfx_result_str((gfx_result)99), "unknown error") == 0, "99");
    CHECK(strcmp(gfx_version(), "0.1.0") == 0 || GFXEMU_VERSION_MINOR != 1, "%s", gfx_version());
}

/* tests/load/kernels.cl built for cpu must be refused with msg */
static void expect_refused(const char *dir, const char *cpu, const char *msg) {
    char co[600], args[256], err[256] = "";
    snprintf(co, sizeof co, "%s/kernels_%s.co", dir, cpu);
    snprintf(args, sizeof args,
             "-x cl -cl-std=CL2.0 -target amdgcn-amd-amdhsa -mcpu=%s -nogpulib -O2 "
             "tests/load/kernels.cl",
             cpu);
    test_kbuild("co", co, args);
    gfx_module *m = NULL;
    CHECK(gfx_module_load_file(co, &m, err, sizeof err) == GFX_ERR_ARCH && !m &&
              strcmp(err, msg) == 0,
          "%s: '%s'", cpu, err);
    gfx_module_free(m);
}

/* vecadd (tests/load/kernels.cl) on 100 floats, 2 workgroups of 64, on a device of `arch` */
static int run_vecadd(gfx_module *m, gfx_arch arch) {
    enum { N = 100 };
    float a[N], b[N], c[N];
    for (int i = 0; i < N; i++)
        a[i] = (float)i * 0.5f, b[i] = 3.0f - (float)i, c[i] = -1.0f;
    gfx_device *dev = NULL;
    const gfx_kernel *k = NULL;
    uint64_t da = 0, db = 0, dc = 0;
    int ok = gfx_device_create(arch, 1, &dev) == GFX_OK &&
             gfx_module_kernel(m, "vecadd", &k) == GFX_OK &&
             gfx_buffer_alloc(dev, sizeof a, &da) == GFX_OK &&
             gfx_buffer_alloc(dev, sizeof b, &db) == GFX_OK &&
             gfx_buffer_alloc(dev, sizeof c, &dc) == GFX_OK &&
             gfx_memcpy_htod(dev, da, a, sizeof a) == GFX_OK &&
             gfx_memcpy_htod(dev, db, b, sizeof b) == GFX_OK;
    if (ok) {
        struct {
            uint64_t a, b, c;
            int32_t n;
        } ka = {da, db, dc, N};
        uint32_t grid[3] = {2, 1, 1}, block[3] = {64, 1, 1};
        ok = gfx_launch(dev, k, grid, block, &ka, sizeof ka, NULL, NULL) == GFX_OK &&
             gfx_memcpy_dtoh(dev, c, dc, sizeof c) == GFX_OK;
        if (!ok)
            fprintf(stderr, "vecadd: %s\n", gfx_device_error(dev));
    }
    for (int i = 0; ok && i < N; i++)
        ok = c[i] == a[i] + b[i];
    gfx_device_free(dev);
    return ok;
}

int main(void) {
    const char *b = test_build_dir();
    char dir[512], co[600];
    snprintf(dir, sizeof dir, "%s/test-data/load", b);
    test_sh("mkdir -p '%s'", dir);
    static const struct {
        const char *cpu;
        gfx_arch arch;
        unsigned mach;
    } targets[] = {{"gfx950", GFX_ARCH_GFX950, 0x4f},
                   {"gfx942", GFX_ARCH_GFX942, 0x4c},
                   {"gfx90a", GFX_ARCH_GFX90A, 0x3f},
                   {"gfx1100", GFX_ARCH_GFX1100, 0x41},
                   {"gfx1201", GFX_ARCH_GFX1201, 0x4e}};
    for (size_t t = 0; t < sizeof targets / sizeof targets[0]; t++) {
        for (int opt = 0; opt <= 2; opt += 2) {
            snprintf(co, sizeof co, "%s/kernels_%s_O%d.co", dir, targets[t].cpu, opt);
            /* tests/common/kbuild.sh: compiled once, again only when out of date */
            char args[256];
            snprintf(args, sizeof args,
                     "-x cl -cl-std=CL2.0 -target amdgcn-amd-amdhsa -mcpu=%s -nogpulib -O%d "
                     "tests/load/kernels.cl",
                     targets[t].cpu, opt);
            test_kbuild("co", co, args);
            check_real(co, targets[t].arch, targets[t].mach, 0);
            if (t == 0 && opt == 0)
                check_corrupt(co);
        }
    }
    /* A stripped object keeps only .dynsym: kernels are still found. */
    snprintf(co, sizeof co, "%s/kernels_gfx950_O2", dir);
    test_sh("llvm-strip-22 '%s.co' -o '%s.stripped.co'", co, co);
    strcat(co, ".stripped.co");
    check_real(co, GFX_ARCH_GFX950, 0x4f, 1);
    /* gfx90a in every xnack/sramecc setting loads as gfx90a.  e_flags (AMDGPU Usage, code
     * object V4+): xnack in bits 9:8, sramecc in 11:10, each 1 any, 2 off, 3 on. */
    static const struct {
        const char *cpu;
        unsigned feat;
    } v90a[] = {{"gfx90a", 0x500},
                {"gfx90a:xnack+", 0x700},
                {"gfx90a:xnack-", 0x600},
                {"gfx90a:sramecc+", 0xd00},
                {"gfx90a:sramecc-", 0x900},
                {"gfx90a:sramecc-:xnack-", 0xa00},
                {"gfx90a:sramecc+:xnack+", 0xf00}};
    for (size_t v = 0; v < sizeof v90a / sizeof v90a[0]; v++) {
        snprintf(co, sizeof co, "%s/kernels_gfx90a_v%zu.co", dir, v);
        char args[256];
        snprintf(args, sizeof args,
                 "-x cl -cl-std=CL2.0 -target amdgcn-amd-amdhsa -mcpu=%s -nogpulib -O2 "
                 "tests/load/kernels.cl",
                 v90a[v].cpu);
        test_kbuild("co", co, args);
        check_real(co, GFX_ARCH_GFX90A, 0x3f, 0);
        gfx_module *vm = NULL;
        char verr[256] = "";
        if (gfx_module_load_file(co, &vm, verr, sizeof verr) == GFX_OK) {
            CHECK((gfx_module_eflags(vm) & 0xf00) == v90a[v].feat, "%s: e_flags 0x%x", v90a[v].cpu,
                  gfx_module_eflags(vm));
            gfx_module_free(vm);
        }
    }
    /* RDNA objects' kernels are handed out (src/exec/rdna.c runs them): wave32 by default. */
    for (size_t t = 3; t < 5; t++) {
        snprintf(co, sizeof co, "%s/kernels_%s_O2.co", dir, targets[t].cpu);
        gfx_module *rm = NULL;
        char rerr[256] = "";
        if (gfx_module_load_file(co, &rm, rerr, sizeof rerr) != GFX_OK) {
            CHECK(0, "%s: %s", co, rerr);
            continue;
        }
        const gfx_kernel *k = NULL;
        gfx_kernel_info ki;
        CHECK(gfx_module_kernel(rm, "vecadd", &k) == GFX_OK && k &&
                  gfx_kernel_get_info(k, &ki) == GFX_OK && ki.wavefront_size == 32 &&
                  (ki.code_properties >> 10 & 1),
              "%s: %s", co, gfx_module_kernel_error(rm));
        gfx_module_free(rm);
    }
    /* Code objects for processors with a target's instruction set, and generic code objects,
     * load as that target (src/load/elf.c, mach_runs_as) and their kernels compute there:
     * vecadd's sums are checked against the host's. */
    static const struct {
        const char *cpu;
        gfx_arch arch;
        unsigned mach;
    } runs_as[] = {
        {"gfx1101", GFX_ARCH_GFX1100, 0x46},      {"gfx1102", GFX_ARCH_GFX1100, 0x47},
        {"gfx1103", GFX_ARCH_GFX1100, 0x44},      {"gfx11-generic", GFX_ARCH_GFX1100, 0x54},
        {"gfx1200", GFX_ARCH_GFX1201, 0x48},      {"gfx12-generic", GFX_ARCH_GFX1201, 0x59},
        {"gfx9-4-generic", GFX_ARCH_GFX942, 0x5f}};
    for (size_t t = 0; t < sizeof runs_as / sizeof runs_as[0]; t++) {
        snprintf(co, sizeof co, "%s/kernels_%s_O2.co", dir, runs_as[t].cpu);
        char args[256];
        snprintf(args, sizeof args,
                 "-x cl -cl-std=CL2.0 -target amdgcn-amd-amdhsa -mcpu=%s -nogpulib -O2 "
                 "tests/load/kernels.cl",
                 runs_as[t].cpu);
        test_kbuild("co", co, args);
        gfx_module *gm = NULL;
        char gerr[256] = "";
        if (gfx_module_load_file(co, &gm, gerr, sizeof gerr) != GFX_OK) {
            CHECK(0, "%s: %s", runs_as[t].cpu, gerr);
            continue;
        }
        const char *tn = gfx_module_target(gm);
        CHECK(gfx_module_arch(gm) == runs_as[t].arch &&
                  (gfx_module_eflags(gm) & 0xff) == runs_as[t].mach && tn &&
                  strcmp(tn, runs_as[t].cpu) == 0,
              "%s: arch %s, target %s", runs_as[t].cpu, gfx_arch_name(gfx_module_arch(gm)),
              tn ? tn : "(null)");
        CHECK(run_vecadd(gm, runs_as[t].arch), "%s: vecadd", runs_as[t].cpu);
        /* gfx9-4-generic's members include gfx950: its kernels run on a gfx950 device too */
        if (runs_as[t].mach == 0x5f)
            CHECK(run_vecadd(gm, GFX_ARCH_GFX950), "%s: vecadd on a gfx950 device", runs_as[t].cpu);
        gfx_module_free(gm);
    }
    /* ... but code for gfx942 itself is not gfx950 code: refused by name on a gfx950 device */
    {
        snprintf(co, sizeof co, "%s/kernels_gfx942_O2.co", dir);
        test_kbuild("co", co,
                    "-x cl -cl-std=CL2.0 -target amdgcn-amd-amdhsa -mcpu=gfx942 -nogpulib -O2 "
                    "tests/load/kernels.cl");
        gfx_module *gm = NULL;
        gfx_device *dev = NULL;
        const gfx_kernel *k = NULL;
        char gerr[256] = "";
        uint32_t grid[3] = {1, 1, 1}, block[3] = {64, 1, 1};
        uint64_t ka[4] = {0, 0, 0, 0};
        int ok = gfx_module_load_file(co, &gm, gerr, sizeof gerr) == GFX_OK &&
                 gfx_device_create(GFX_ARCH_GFX950, 1, &dev) == GFX_OK &&
                 gfx_module_kernel(gm, "vecadd", &k) == GFX_OK;
        CHECK(ok && gfx_launch(dev, k, grid, block, ka, sizeof ka, NULL, NULL) == GFX_ERR_ARCH &&
                  strstr(gfx_device_error(dev), "is gfx942 code; the device is gfx950"),
              "gfx942 code on a gfx950 device: %s", dev ? gfx_device_error(dev) : gerr);
        gfx_device_free(dev);
        gfx_module_free(gm);
    }
    /* gfx1150 (RDNA3.5) has instructions gfx1100 lacks, gfx908 (CDNA1) no unified VGPR file:
     * refused with their names */
    expect_refused(dir, "gfx1150", "unsupported architecture gfx1150 (0x43)");
    expect_refused(dir, "gfx908", "unsupported architecture gfx908 (0x30)");
    check_misc();

    if (check_fails) {
        fprintf(stderr, "test_elf: %d checks failed\n", check_fails);
        return 1;
    }
    puts("test_elf: all checks passed");
    return 0;
}
