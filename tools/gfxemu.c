/* gfxemu.c - the gfxemu command-line tool.  Uses only the public API in include/gfxemu.h.
 *
 *   gfxemu disasm [--arch gfx950|gfx942] FILE.co     llvm-objdump-style listing of .text
 *   gfxemu disasm --arch ARCH --raw FILE.bin          one instruction per line, text only
 *   gfxemu run ...                                    (execution engine pending)
 *
 * Exit status: 0 success, 1 the input could not be processed, 2 usage error.
 */
#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "gfxemu.h"

enum { EXIT_INPUT = 1, EXIT_USAGE = 2 };

/* llvm-objdump pads "\t" + instruction text to this many characters before the "//" comment. */
#define OBJDUMP_TEXT_COLUMN 60

__attribute__((format(printf, 1, 2))) static void error(const char *fmt, ...) {
    va_list ap;
    fflush(stdout);
    fputs("gfxemu: error: ", stderr);
    va_start(ap, fmt);
    vfprintf(stderr, fmt, ap);
    va_end(ap);
    fputc('\n', stderr);
}

/* ---- disasm ------------------------------------------------------------------------------ */

static const char disasm_usage[] =
    "usage: gfxemu disasm [--arch gfx950|gfx942] FILE.co\n"
    "       gfxemu disasm --arch gfx950|gfx942 --raw FILE.bin\n"
    "\n"
    "Disassemble the .text section of an AMDGPU code object in llvm-objdump-22's format\n"
    "(the architecture comes from the ELF header unless --arch is given; they must agree).\n"
    "With --raw, FILE is a flat file of little-endian instruction words: print one line of\n"
    "text per instruction, \"<illegal 0xXXXXXXXX>\" for a word that is not an instruction.\n";

static int is_illegal(const char *text) { return strncmp(text, "<illegal ", 9) == 0; }

/* Read a whole file into memory; NULL (after printing the error) on failure. */
static unsigned char *read_file(const char *path, size_t *size) {
    FILE *fp = fopen(path, "rb");
    if (!fp) {
        error("%s: %s", path, strerror(errno));
        return NULL;
    }
    size_t cap = 1 << 16, n = 0;
    unsigned char *buf = malloc(cap);
    while (buf) {
        n += fread(buf + n, 1, cap - n, fp);
        if (n < cap)
            break;
        unsigned char *nb = cap < ((size_t)1 << 30) ? realloc(buf, cap * 2) : NULL;
        if (!nb) {
            free(buf);
            buf = NULL;
            break;
        }
        buf = nb;
        cap *= 2;
    }
    int bad = ferror(fp);
    fclose(fp);
    if (!buf || bad) {
        error("%s: %s", path, bad ? "read error" : "file too large");
        free(buf);
        return NULL;
    }
    *size = n;
    return buf;
}

static int disasm_raw(gfx_arch arch, const char *path) {
    size_t size = 0;
    unsigned char *buf = read_file(path, &size);
    if (!buf)
        return EXIT_INPUT;
    char text[GFX_DISASM_MAX];
    size_t pc = 0;
    while (size - pc >= 4) {
        pc += gfx_disasm(arch, buf + pc, size - pc, text, sizeof text);
        puts(text);
    }
    free(buf);
    if (pc != size) {
        error("%s: %zu trailing bytes after the last whole word", path, size - pc);
        return EXIT_INPUT;
    }
    return 0;
}

/* The listing's symbols: what llvm-objdump prints as labels and uses for branch comments. */
typedef struct {
    gfx_symbol *syms; /* sorted by address, then name */
    size_t n;
    uint64_t text_addr, text_end;
} symtab;

/* The symbol llvm-objdump names an address after: the last one at or below it. */
static const gfx_symbol *symbol_at_or_below(const symtab *t, uint64_t addr) {
    size_t lo = 0, hi = t->n;
    while (lo < hi) {
        size_t mid = lo + (hi - lo) / 2;
        if (t->syms[mid].addr <= addr)
            lo = mid + 1;
        else
            hi = mid;
    }
    return lo ? &t->syms[lo - 1] : NULL;
}

/* LLVM's AMDGPU symbolizer prints a branch whose target is exactly an untyped label as the
 * label's name instead of the offset (and objdump then adds no target comment). */
static const gfx_symbol *label_exactly_at(const symtab *t, uint64_t addr) {
    for (size_t i = 0; i < t->n; i++)
        if (t->syms[i].addr == addr && t->syms[i].is_label)
            return &t->syms[i];
    return NULL;
}

static void print_padded(const char *s, int len) {
    fputs(s, stdout);
    for (int i = len; i < OBJDUMP_TEXT_COLUMN; i++)
        putchar(' ');
}

/* One instruction line; returns the bytes consumed. */
static size_t print_inst(gfx_arch arch, const symtab *t, const unsigned char *p, size_t avail,
                         uint64_t pc) {
    char text[GFX_DISASM_MAX], line[GFX_DISASM_MAX + 64];
    int len;
    if (avail < 4) {
        /* Trailing bytes that are not a whole word: objdump shows them as .byte data. */
        len = snprintf(line, sizeof line, "\t.byte 0x%02x", p[0]);
        for (size_t i = 1; i < avail; i++)
            len += snprintf(line + len, sizeof line - (size_t)len, ", 0x%02x", p[i]);
        print_padded(line, len);
        printf("// %012llX:", (unsigned long long)pc);
        for (size_t i = 0; i < avail; i++)
            printf(" %02X", p[i]);
        putchar('\n');
        return avail;
    }
    size_t n = gfx_disasm(arch, p, avail, text, sizeof text);
    uint64_t target = 0;
    const gfx_symbol *label = NULL;
    int branch = gfx_branch_target(arch, p, avail, pc, &target);
    if (branch && (label = label_exactly_at(t, target))) {
        char *sp = strrchr(text, ' ');
        if (sp)
            snprintf(sp + 1, sizeof text - (size_t)(sp + 1 - text), "%s", label->name);
        branch = 0;
    }
    if (is_illegal(text))
        len = snprintf(line, sizeof line, "\t.long 0x%08x",
                       (unsigned)(p[0] | p[1] << 8 | p[2] << 16 | (unsigned)p[3] << 24));
    else
        len = snprintf(line, sizeof line, "\t%s", text);
    print_padded(line, len);
    printf("// %012llX:", (unsigned long long)pc);
    for (size_t i = 0; i + 4 <= n; i += 4)
        printf(" %08X",
               (unsigned)(p[i] | p[i + 1] << 8 | p[i + 2] << 16 | (unsigned)p[i + 3] << 24));
    if (branch && target >= t->text_addr && target < t->text_end) {
        const gfx_symbol *s = symbol_at_or_below(t, target);
        const char *name = s ? s->name : ".text";
        uint64_t off = target - (s ? s->addr : t->text_addr);
        if (off)
            printf(" <%s+0x%llx>", name, (unsigned long long)off);
        else
            printf(" <%s>", name);
    }
    putchar('\n');
    return n;
}

static void print_region(gfx_arch arch, const symtab *t, const unsigned char *text,
                         const char *name, uint64_t start, uint64_t end) {
    printf("\n%016llx <%s>:\n", (unsigned long long)start, name);
    for (uint64_t pc = start; pc < end;)
        pc += print_inst(arch, t, text + (pc - t->text_addr), end - pc, pc);
}

static int disasm_module(gfx_arch arch, int have_arch, const char *path) {
    char err[256];
    gfx_module *m = NULL;
    if (gfx_module_load_file(path, &m, err, sizeof err) != GFX_OK) {
        error("%s: %s", path, err);
        return EXIT_INPUT;
    }
    if (have_arch && gfx_module_arch(m) != arch) {
        error("%s: code object is for %s, not %s", path, gfx_arch_name(gfx_module_arch(m)),
              gfx_arch_name(arch));
        gfx_module_free(m);
        return EXIT_INPUT;
    }
    arch = gfx_module_arch(m);

    size_t text_size = 0;
    symtab t = {0};
    const unsigned char *text = gfx_module_text(m, &t.text_addr, &text_size);
    t.text_end = t.text_addr + text_size;
    t.n = gfx_module_symbol_count(m);
    t.syms = calloc(t.n ? t.n : 1, sizeof *t.syms);
    if (!t.syms) {
        error("out of memory");
        gfx_module_free(m);
        return EXIT_INPUT;
    }
    for (size_t i = 0; i < t.n; i++)
        gfx_module_symbol(m, i, &t.syms[i]);

    printf("\n%s:\tfile format elf64-amdgpu\n\nDisassembly of section .text:\n", path);
    /* Like llvm-objdump: bytes before the first symbol are labelled with the section name; a
     * symbol's code runs to the next symbol's address; of several symbols at one address only
     * the last (in address-then-name order) is shown. */
    uint64_t first = t.n ? t.syms[0].addr : t.text_end;
    if (first > t.text_addr || (t.n == 0 && text_size))
        print_region(arch, &t, text, ".text", t.text_addr, first);
    for (size_t i = 0; i < t.n; i++) {
        uint64_t end = i + 1 < t.n ? t.syms[i + 1].addr : t.text_end;
        if (t.syms[i].addr < end)
            print_region(arch, &t, text, t.syms[i].name, t.syms[i].addr, end);
    }
    free(t.syms);
    gfx_module_free(m);
    return 0;
}

static int cmd_disasm(int argc, char **argv) {
    const char *path = NULL, *arch_name = NULL;
    int raw = 0;
    for (int i = 1; i < argc; i++) {
        const char *a = argv[i];
        if (strcmp(a, "--help") == 0 || strcmp(a, "-h") == 0) {
            fputs(disasm_usage, stdout);
            return 0;
        } else if (strcmp(a, "--raw") == 0) {
            raw = 1;
        } else if (strcmp(a, "--arch") == 0) {
            if (++i >= argc) {
                error("disasm: --arch needs a value (gfx950 or gfx942)");
                return EXIT_USAGE;
            }
            arch_name = argv[i];
        } else if (strncmp(a, "--arch=", 7) == 0) {
            arch_name = a + 7;
        } else if (a[0] == '-' && a[1]) {
            error("disasm: unknown option '%s' (see gfxemu disasm --help)", a);
            return EXIT_USAGE;
        } else if (path) {
            error("disasm: more than one input file ('%s' and '%s')", path, a);
            return EXIT_USAGE;
        } else {
            path = a;
        }
    }
    if (!path) {
        error("disasm: missing input file (see gfxemu disasm --help)");
        return EXIT_USAGE;
    }
    gfx_arch arch = GFX_ARCH_GFX950;
    if (arch_name && gfx_arch_from_name(arch_name, &arch) != GFX_OK) {
        error("disasm: unknown architecture '%s' (expected gfx950 or gfx942)", arch_name);
        return EXIT_USAGE;
    }
    if (raw && !arch_name) {
        error("disasm: --raw needs --arch gfx950|gfx942");
        return EXIT_USAGE;
    }
    int rc = raw ? disasm_raw(arch, path) : disasm_module(arch, arch_name != NULL, path);
    if (fflush(stdout) != 0 || ferror(stdout)) {
        error("disasm: error writing output");
        return EXIT_INPUT;
    }
    return rc;
}

/* ---- run --------------------------------------------------------------------------------- */

static int cmd_run(int argc, char **argv) {
    (void)argc;
    (void)argv;
    error("run: not implemented yet (execution engine pending)");
    return EXIT_USAGE;
}

/* ---- main -------------------------------------------------------------------------------- */

typedef struct {
    const char *name;
    int (*run)(int argc, char **argv); /* argv[0] is the subcommand name */
    const char *summary;
} command;

static const command commands[] = {
    {"disasm", cmd_disasm, "disassemble a code object or raw instruction words"},
    {"run", cmd_run, "run a kernel (not implemented yet)"},
};

static void usage(FILE *out) {
    fprintf(out, "usage: gfxemu COMMAND [ARGS...]\n"
                 "       gfxemu --help | --version\n\n"
                 "gfxemu emulates AMD Instinct GPU machine code (gfx950, gfx942) on the CPU.\n\n"
                 "commands:\n");
    for (size_t i = 0; i < sizeof commands / sizeof commands[0]; i++)
        fprintf(out, "  %-8s %s\n", commands[i].name, commands[i].summary);
    fprintf(out, "\nRun 'gfxemu COMMAND --help' for a command's options.\n");
}

int main(int argc, char **argv) {
    static char outbuf[1 << 16];
    setvbuf(stdout, outbuf, _IOFBF, sizeof outbuf);
    if (argc < 2) {
        usage(stderr);
        return EXIT_USAGE;
    }
    const char *cmd = argv[1];
    if (strcmp(cmd, "--help") == 0 || strcmp(cmd, "-h") == 0 || strcmp(cmd, "help") == 0) {
        usage(stdout);
        return 0;
    }
    if (strcmp(cmd, "--version") == 0) {
        printf("gfxemu %s\n", gfx_version());
        return 0;
    }
    for (size_t i = 0; i < sizeof commands / sizeof commands[0]; i++)
        if (strcmp(cmd, commands[i].name) == 0)
            return commands[i].run(argc - 1, argv + 1);
    error("unknown command '%s' (see gfxemu --help)", cmd);
    return EXIT_USAGE;
}
