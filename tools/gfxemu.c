/* gfxemu.c - the gfxemu command-line tool.  Uses only the public API in include/gfxemu.h.
 *
 *   gfxemu disasm [--arch gfx950|gfx942|gfx90a] FILE.co     llvm-objdump-style listing of .text
 *   gfxemu disasm --arch ARCH --raw FILE.bin          one instruction per line, text only
 *   gfxemu run FILE.co KERNEL --grid .. --block .. [--arg SPEC]...   run a kernel
 *   gfxemu debug FILE.co KERNEL <run args>            the same under a debugger (debug_cli.c)
 *
 * Exit status: 0 success, 1 the input could not be processed, 2 usage error.
 */
#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "debug_cli.h"
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
    "usage: gfxemu disasm [--arch gfx950|gfx942|gfx90a] FILE.co\n"
    "       gfxemu disasm --arch gfx950|gfx942|gfx90a --raw FILE.bin\n"
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
                error("disasm: --arch needs a value (gfx950, gfx942 or gfx90a)");
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
        error("disasm: unknown architecture '%s' (expected gfx950, gfx942 or gfx90a)", arch_name);
        return EXIT_USAGE;
    }
    if (raw && !arch_name) {
        error("disasm: --raw needs --arch gfx950|gfx942|gfx90a");
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

static const char run_usage[] =
    "usage: gfxemu run FILE.co KERNEL --grid X[,Y[,Z]] --block X[,Y[,Z]] [--arg SPEC]...\n"
    "                  [--stats] [--threads N] [--max-insts N] [--dynamic-lds BYTES]\n"
    "\n"
    "Run KERNEL from FILE.co on an emulated GPU of the code object's architecture.  --grid is\n"
    "in workgroups, --block in work-items per workgroup.  Each --arg fills the next kernel\n"
    "argument, in order:\n"
    "  i32:V u32:V i64:V u64:V f32:V f64:V   a scalar (integers also fit 1- and 2-byte args)\n"
    "  in:PATH            a buffer initialised from the file PATH\n"
    "  out:PATH:BYTES     a zeroed buffer of BYTES bytes, written to PATH after the run\n"
    "  inout:PATH         a buffer initialised from PATH and written back after the run\n"
    "  zero:BYTES         a zeroed buffer of BYTES bytes, not saved\n"
    "Pointer arguments receive the buffer's device address.\n"
    "  --stats            print one JSON object with instruction counts on stderr\n"
    "  --threads N        worker threads (default: one per core)\n"
    "  --max-insts N      watchdog: wave-instructions allowed for the launch\n"
    "  --dynamic-lds N    bytes of dynamic LDS per workgroup\n"
    "  --fault-report     after a fault, also print lanes, the code around the pc and the\n"
    "                     argument buffer nearest to a bad address\n"
    "  --trace FILE       one line per executed wave-instruction (pc, instruction, EXEC,\n"
    "                     registers written); --trace-limit N lines at most (default\n"
    "                     1000000, 0: no limit), only workgroup\n"
    "                     --trace-wg X,Y,Z, wave --trace-wave N, pcs --trace-pc LO:HI\n"
    "  --timeline FILE    Chrome/Perfetto trace-event JSON: a track per wave, spans between\n"
    "                     barriers, faults, instruction counters (open in ui.perfetto.dev)\n"
    "  --profile          print the hottest instructions on stderr (--profile-top N, 20)\n"
    "Tracing options run the launch on one thread, deterministically, through a stepping\n"
    "loop (slower); without them nothing is checked per instruction.\n"
    "Exit status: 0 success, 1 the kernel faulted or the input was unusable, 2 usage error.\n";

enum { ARG_SCALAR, ARG_IN, ARG_OUT, ARG_INOUT, ARG_ZERO };

typedef struct {
    const char *spec;
    int kind;
    const char *type; /* "i32", ... for scalars */
    uint8_t bytes[8]; /* scalar value, little-endian */
    unsigned size;    /* scalar size */
    int is_signed, is_int;
    int64_t ival; /* integer value, for narrowing checks */
    const char *path;
    uint64_t nbytes;     /* buffer size */
    unsigned char *data; /* file contents for in/inout */
    uint64_t addr;       /* device buffer */
} run_arg;

static int parse_u64(const char *s, uint64_t *out) {
    if (!*s || *s == '-' || *s == '+')
        return -1;
    char *end;
    errno = 0;
    unsigned long long v = strtoull(s, &end, 0);
    if (errno || *end)
        return -1;
    *out = v;
    return 0;
}

static int parse_dims(const char *cmd, const char *opt, const char *s, uint32_t d[3]) {
    d[0] = d[1] = d[2] = 1;
    char buf[128];
    if (strlen(s) >= sizeof buf)
        goto bad;
    strcpy(buf, s);
    int n = 0;
    for (char *tok = strtok(buf, ","); tok; tok = strtok(NULL, ",")) {
        uint64_t v;
        if (n == 3 || parse_u64(tok, &v) || v == 0 || v > UINT32_MAX)
            goto bad;
        d[n++] = (uint32_t)v;
    }
    if (n == 0 || s[strlen(s) - 1] == ',')
        goto bad;
    return 0;
bad:
    error("%s: %s '%s': expected X[,Y[,Z]] with positive integers", cmd, opt, s);
    return -1;
}

static void le_store(uint8_t *p, unsigned n, uint64_t v) {
    for (unsigned i = 0; i < n; i++)
        p[i] = (uint8_t)(v >> (8 * i));
}

static int parse_arg_spec(const char *cmd, const char *spec, run_arg *a) {
    memset(a, 0, sizeof *a);
    a->spec = spec;
    const char *colon = strchr(spec, ':');
    if (!colon)
        goto bad;
    size_t tl = (size_t)(colon - spec);
    const char *v = colon + 1;
    static const char *const scalars[] = {"i32", "u32", "i64", "u64", "f32", "f64"};
    for (int i = 0; i < 6; i++) {
        if (tl != 3 || strncmp(spec, scalars[i], 3) != 0)
            continue;
        a->kind = ARG_SCALAR;
        a->type = scalars[i];
        a->size = spec[1] == '3' ? 4 : 8;
        char *end;
        errno = 0;
        if (spec[0] == 'f') {
            double d = strtod(v, &end);
            if (!*v || *end || errno == ERANGE)
                goto bad;
            if (a->size == 4) {
                float f = (float)d;
                uint32_t b;
                memcpy(&b, &f, 4);
                le_store(a->bytes, 4, b);
            } else {
                uint64_t b;
                memcpy(&b, &d, 8);
                le_store(a->bytes, 8, b);
            }
            return 0;
        }
        a->is_int = 1;
        if (spec[0] == 'i') {
            long long x = strtoll(v, &end, 0);
            if (!*v || *end || errno || (a->size == 4 && (x < INT32_MIN || x > INT32_MAX)))
                goto bad;
            a->is_signed = 1;
            a->ival = x;
            le_store(a->bytes, a->size, (uint64_t)x);
        } else {
            uint64_t x;
            if (parse_u64(v, &x) || (a->size == 4 && x > UINT32_MAX))
                goto bad;
            a->ival = (int64_t)x;
            le_store(a->bytes, a->size, x);
        }
        return 0;
    }
    if (tl == 2 && strncmp(spec, "in", 2) == 0 && *v) {
        a->kind = ARG_IN, a->path = v;
        return 0;
    }
    if (tl == 5 && strncmp(spec, "inout", 5) == 0 && *v) {
        a->kind = ARG_INOUT, a->path = v;
        return 0;
    }
    if (tl == 4 && strncmp(spec, "zero", 4) == 0) {
        a->kind = ARG_ZERO;
        if (parse_u64(v, &a->nbytes))
            goto bad;
        return 0;
    }
    if (tl == 3 && strncmp(spec, "out", 3) == 0) {
        const char *last = strrchr(v, ':');
        if (!last || last == v || parse_u64(last + 1, &a->nbytes))
            goto bad;
        a->kind = ARG_OUT;
        char *p = malloc((size_t)(last - v) + 1);
        if (!p)
            goto bad;
        memcpy(p, v, (size_t)(last - v));
        p[last - v] = 0;
        a->path = p; /* freed with the argument */
        return 0;
    }
bad:
    error("%s: bad --arg '%s' (expected i32:V, u32:V, i64:V, u64:V, f32:V, f64:V, in:PATH, "
          "out:PATH:BYTES, inout:PATH or zero:BYTES)", cmd,
          spec);
    return -1;
}

static int write_file(const char *path, const void *data, size_t size) {
    FILE *fp = fopen(path, "wb");
    if (!fp) {
        error("%s: %s", path, strerror(errno));
        return -1;
    }
    size_t n = fwrite(data, 1, size, fp);
    if (fclose(fp) != 0 || n != size) {
        error("%s: write error", path);
        return -1;
    }
    return 0;
}

/* Check spec a against explicit kernel argument i and write its kernarg bytes. */
static int bind_arg(const char *cmd, const run_arg *a, size_t i, const gfx_arg_info *ai,
                    uint8_t *kernargs) {
    /* "argument 3 (double d)", or "(double)" when the object has no argument names */
    char what[256];
    const char *type = ai->type_name ? ai->type_name : ai->value_kind ? ai->value_kind : "?";
    snprintf(what, sizeof what, "argument %zu (%s%s%s)", i, type, ai->name ? " " : "",
             ai->name ? ai->name : "");
    int is_ptr = ai->kind == GFX_ARG_GLOBAL_BUFFER ||
                 (ai->address_space && ai->kind == GFX_ARG_BY_VALUE && ai->size == 8);
    if (a->kind != ARG_SCALAR) {
        if (!is_ptr || ai->size != 8) {
            error("%s: --arg %zu '%s': %s is not a pointer; give a scalar such as i32:V", cmd,
                  i + 1, a->spec, what);
            return -1;
        }
        le_store(kernargs + ai->offset, 8, a->addr);
        return 0;
    }
    if (is_ptr || ai->kind != GFX_ARG_BY_VALUE) {
        error("%s: --arg %zu '%s': %s is a %s, not a scalar", cmd, i + 1, a->spec, what,
              is_ptr ? "pointer; give in:, out:, inout: or zero:" : "special argument");
        return -1;
    }
    if (ai->size != a->size) {
        /* Integers may narrow into char/short arguments when the value fits. */
        int fits = 0;
        if (a->is_int && ai->size < a->size && ai->size <= 2) {
            int64_t lo = a->is_signed ? -(1ll << (8 * ai->size - 1)) : 0;
            int64_t hi =
                a->is_signed ? (1ll << (8 * ai->size - 1)) - 1 : (1ll << (8 * ai->size)) - 1;
            fits = a->ival >= lo && a->ival <= hi;
        }
        if (!fits) {
            error("%s: --arg %zu '%s': %s is %u byte%s, %s gives %u", cmd, i + 1, a->spec, what,
                  ai->size, ai->size == 1 ? "" : "s", a->type, a->size);
            return -1;
        }
    }
    memcpy(kernargs + ai->offset, a->bytes, ai->size);
    return 0;
}

static void print_stats(const char *kernel, const gfx_stats *s) {
    fflush(stdout);
    fprintf(stderr,
            "{\"kernel\": \"%s\", \"wave_insts\": %llu, \"waves\": %llu, \"workgroups\": %llu, "
            "\"seconds\": %.6f, \"threads\": %u, \"salu\": %llu, \"valu\": %llu, \"vmem\": %llu, "
            "\"smem\": %llu, \"lds\": %llu, \"mfma\": %llu, \"branch\": %llu, \"other\": %llu}\n",
            kernel, (unsigned long long)s->wave_insts, (unsigned long long)s->waves,
            (unsigned long long)s->workgroups, s->seconds, s->threads, (unsigned long long)s->salu,
            (unsigned long long)s->valu, (unsigned long long)s->vmem, (unsigned long long)s->smem,
            (unsigned long long)s->lds, (unsigned long long)s->mfma, (unsigned long long)s->branch,
            (unsigned long long)s->other);
}

static const char debug_usage[] =
    "usage: gfxemu debug FILE.co KERNEL --grid X[,Y[,Z]] --block X[,Y[,Z]] [--arg SPEC]...\n"
    "\n"
    "Run KERNEL as `gfxemu run` does (same options), stopped before its first instruction,\n"
    "under an interactive debugger reading commands from stdin (a terminal or a pipe):\n"
    "breakpoints, stepping, registers, memory, LDS.  Type 'help' at the prompt.\n";

static int parse_range(const char *s, uint64_t *lo, uint64_t *hi) {
    char buf[64];
    const char *colon = strchr(s, ':');
    if (!colon || (size_t)(colon - s) >= sizeof buf)
        return -1;
    memcpy(buf, s, (size_t)(colon - s));
    buf[colon - s] = 0;
    return parse_u64(buf, lo) || parse_u64(colon + 1, hi) || *hi <= *lo ? -1 : 0;
}

static int run_main(int argc, char **argv, int debug) {
    const char *cmd = debug ? "debug" : "run"; /* names the command in error messages */
    const char *path = NULL, *kname = NULL, *grid_s = NULL, *block_s = NULL;
    int stats = 0, profile = 0, fault_report = 0;
    uint64_t threads = 0, max_insts = 0, dyn_lds = 0, profile_top = 20;
    /* A trace keeps every active lane's values: bound it unless --trace-limit 0 says not to. */
    gfx_trace_options topt = {NULL, 1000000, {-1, -1, -1}, -1, 0, 0, NULL, 0};
    int tracing = 0;
    cli_buffer *bufs = calloc((size_t)argc, sizeof *bufs);
    size_t nbufs = 0;
    gfx_debug_session *session = NULL;
    run_arg *args = calloc((size_t)argc, sizeof *args);
    size_t nargs = 0;
    int rc = EXIT_USAGE;
    gfx_module *m = NULL;
    gfx_device *dev = NULL;
    uint8_t *kernargs = NULL;
    if (!args || !bufs) {
        free(args);
        free(bufs);
        error("out of memory");
        return EXIT_INPUT;
    }
    for (int i = 1; i < argc; i++) {
        const char *a = argv[i];
        const char *val = NULL;
        const char *opts[] = {"--grid",       "--block",       "--arg",      "--threads",
                              "--max-insts",  "--dynamic-lds", "--trace",    "--trace-limit",
                              "--trace-wg",   "--trace-wave",  "--trace-pc", "--timeline",
                              "--profile-top"};
        int which = -1;
        for (int k = 0; k < 13; k++) {
            size_t n = strlen(opts[k]);
            if (strncmp(a, opts[k], n) == 0 && (a[n] == 0 || a[n] == '=')) {
                which = k;
                if (a[n] == '=') {
                    val = a + n + 1;
                } else if (++i < argc) {
                    val = argv[i];
                } else {
                    error("%s: %s needs a value (see gfxemu %s --help)", cmd, opts[k], cmd);
                    goto out;
                }
            }
        }
        if (strcmp(a, "--help") == 0 || strcmp(a, "-h") == 0) {
            if (debug)
                fputs(debug_usage, stdout);
            fputs(run_usage, stdout);
            rc = 0;
            goto out;
        } else if (strcmp(a, "--stats") == 0) {
            stats = 1;
        } else if (strcmp(a, "--profile") == 0) {
            profile = tracing = 1;
        } else if (strcmp(a, "--fault-report") == 0) {
            fault_report = 1;
        } else if (which == 6 || which == 11) {
            *(which == 6 ? &topt.trace_path : &topt.timeline_path) = val;
            tracing = 1;
        } else if (which == 8) {
            /* workgroup ids start at 0: parse them without the positivity check */
            char buf[96];
            snprintf(buf, sizeof buf, "%s", val);
            int n = 0;
            for (char *t = strtok(buf, ","); t && n < 3; t = strtok(NULL, ",")) {
                uint64_t v;
                if (parse_u64(t, &v) || v > UINT32_MAX) {
                    n = -1;
                    break;
                }
                topt.trace_workgroup[n++] = (int64_t)v;
            }
            if (n <= 0) {
                error("%s: --trace-wg '%s': expected X[,Y[,Z]]", cmd, val);
                goto out;
            }
            for (; n < 3; n++)
                topt.trace_workgroup[n] = 0;
        } else if (which == 10) {
            if (parse_range(val, &topt.trace_pc_lo, &topt.trace_pc_hi)) {
                error("%s: --trace-pc '%s': expected LO:HI addresses with LO < HI", cmd, val);
                goto out;
            }
        } else if (which == 7 || which == 9 || which == 12) {
            uint64_t v;
            if (parse_u64(val, &v) || (which == 12 && v == 0)) {
                error("%s: %s '%s': expected a%s integer", cmd, opts[which], val,
                      which == 12 ? " positive" : " non-negative");
                goto out;
            }
            if (which == 7)
                topt.trace_limit = v;
            else if (which == 9)
                topt.trace_wave = (int64_t)v;
            else
                profile_top = v;
        } else if (which == 0) {
            grid_s = val;
        } else if (which == 1) {
            block_s = val;
        } else if (which == 2) {
            if (parse_arg_spec(cmd, val, &args[nargs]))
                goto out;
            nargs++;
        } else if (which >= 3 && which <= 5) {
            uint64_t *dst = which == 3 ? &threads : which == 4 ? &max_insts : &dyn_lds;
            if (parse_u64(val, dst) || (which == 3 && (*dst == 0 || *dst > 1024)) ||
                (which == 4 && *dst == 0) || (which == 5 && *dst > UINT32_MAX)) {
                error("%s: %s '%s': expected a %s integer", cmd, opts[which], val,
                      which == 5 ? "non-negative" : "positive");
                goto out;
            }
        } else if (a[0] == '-' && a[1]) {
            error("%s: unknown option '%s' (see gfxemu %s --help)", cmd, a, cmd);
            goto out;
        } else if (!path) {
            path = a;
        } else if (!kname) {
            kname = a;
        } else {
            error("%s: unexpected argument '%s' (kernel arguments go in --arg)", cmd, a);
            goto out;
        }
    }
    if (!path || !kname) {
        error("%s: missing %s (see gfxemu %s --help)", cmd,
              !path ? "code object file" : "kernel name", cmd);
        goto out;
    }
    uint32_t grid[3], block[3];
    if (!grid_s || !block_s) {
        error("%s: missing %s (see gfxemu %s --help)", cmd, !grid_s ? "--grid" : "--block", cmd);
        goto out;
    }
    if (parse_dims(cmd, "--grid", grid_s, grid) || parse_dims(cmd, "--block", block_s, block))
        goto out;

    rc = EXIT_INPUT;
    char err[256];
    if (gfx_module_load_file(path, &m, err, sizeof err) != GFX_OK) {
        error("%s: %s", path, err);
        goto out;
    }
    const gfx_kernel *k = NULL;
    gfx_result r = gfx_module_kernel(m, kname, &k);
    if (r == GFX_ERR_NOT_FOUND) {
        char list[512] = "";
        size_t len = 0;
        for (size_t i = 0; i < gfx_module_symbol_count(m); i++) {
            gfx_symbol s;
            gfx_module_symbol(m, i, &s);
            if (s.is_kernel && len < sizeof list)
                len += (size_t)snprintf(list + len, sizeof list - len, "%s%s", len ? ", " : "",
                                        s.name);
        }
        error("%s: no kernel '%s' (kernels: %s)", path, kname, len ? list : "none");
        goto out;
    }
    if (r != GFX_OK) {
        error("%s: kernel '%s': %s", path, kname, gfx_result_str(r));
        goto out;
    }
    gfx_kernel_info info;
    gfx_kernel_get_info(k, &info);
    if (!info.has_metadata && nargs) {
        const char *why = gfx_module_metadata_error(m);
        error("%s: kernel '%s' has no argument metadata%s%s", path, kname, *why ? ": " : "", why);
        goto out;
    }
    if (info.has_metadata && nargs != info.nargs_explicit) {
        error("%s: kernel '%s' takes %zu argument%s, %zu --arg given", cmd, kname,
              info.nargs_explicit, info.nargs_explicit == 1 ? "" : "s", nargs);
        rc = EXIT_USAGE;
        goto out;
    }
    if ((r = gfx_device_create(gfx_module_arch(m), (unsigned)threads, &dev)) != GFX_OK) {
        error("cannot create a %s device: %s", gfx_arch_name(gfx_module_arch(m)),
              gfx_result_str(r));
        goto out;
    }
    size_t ksize = 0;
    for (size_t i = 0; i < nargs; i++) {
        gfx_arg_info ai;
        gfx_kernel_arg(k, i, &ai);
        if ((size_t)ai.offset + ai.size > ksize)
            ksize = (size_t)ai.offset + ai.size;
    }
    kernargs = calloc(1, ksize ? ksize : 1);
    if (!kernargs) {
        error("out of memory");
        goto out;
    }
    for (size_t i = 0; i < nargs; i++) {
        run_arg *a = &args[i];
        gfx_arg_info ai;
        gfx_kernel_arg(k, i, &ai);
        if (a->kind == ARG_IN || a->kind == ARG_INOUT) {
            size_t n = 0;
            if (!(a->data = read_file(a->path, &n)))
                goto out;
            a->nbytes = n;
        }
        if (a->kind != ARG_SCALAR) {
            if (gfx_buffer_alloc(dev, a->nbytes ? a->nbytes : 1, &a->addr) != GFX_OK) {
                error("%s: --arg %zu '%s': cannot allocate %llu bytes", cmd, i + 1, a->spec,
                      (unsigned long long)a->nbytes);
                goto out;
            }
            if (a->data && a->nbytes)
                gfx_memcpy_htod(dev, a->addr, a->data, a->nbytes);
            bufs[nbufs++] = (cli_buffer){i, a->spec, a->addr, a->nbytes};
        }
        if (bind_arg(cmd, a, i, &ai, kernargs)) {
            rc = EXIT_USAGE;
            goto out;
        }
    }
    gfx_launch_options o = {max_insts, (uint32_t)dyn_lds, 0};
    gfx_stats st;
    cli_program prog = {m, k, bufs, nbufs};
    topt.profile = profile;
    if (debug || tracing) {
        if ((r = gfx_debug_create(dev, &session)) != GFX_OK ||
            (r = gfx_debug_trace(session, &topt)) != GFX_OK) {
            error("cannot start a debug session: %s", gfx_result_str(r));
            goto out;
        }
        if (debug)
            r = cli_debug(session, &prog, stdin, grid, block, kernargs, ksize, &o, &st);
        else
            r = gfx_debug_launch(session, k, grid, block, kernargs, ksize, &o, &st);
    } else {
        r = gfx_launch(dev, k, grid, block, kernargs, ksize, &o, &st);
    }
    if (stats)
        print_stats(kname, &st);
    if (profile && (r == GFX_OK || r == GFX_ERR_FAULT)) {
        fflush(stdout);
        cli_profile(stderr, &prog, session, &st, (size_t)profile_top);
    }
    if (r != GFX_OK) {
        const char *msg = gfx_device_error(dev);
        /* the library's watchdog hint names the API option; here it is --max-insts */
        const char *hint = strstr(msg, "; raise it with gfx_launch_options.max_insts");
        if (hint)
            error("%.*s; raise it with --max-insts", (int)(hint - msg), msg);
        else
            error("%s", *msg ? msg : gfx_result_str(r));
        gfx_fault f;
        if (r == GFX_ERR_FAULT && fault_report && gfx_last_fault(dev, &f) == GFX_OK)
            cli_fault_report(stderr, &prog, &f);
        goto out;
    }
    for (size_t i = 0; i < nargs; i++) {
        run_arg *a = &args[i];
        if (a->kind != ARG_OUT && a->kind != ARG_INOUT)
            continue;
        unsigned char *buf = malloc(a->nbytes ? a->nbytes : 1);
        if (!buf) {
            error("out of memory");
            goto out;
        }
        gfx_memcpy_dtoh(dev, buf, a->addr, a->nbytes);
        int bad = write_file(a->path, buf, a->nbytes);
        free(buf);
        if (bad)
            goto out;
    }
    rc = 0;
out:
    for (size_t i = 0; i < nargs; i++) {
        free(args[i].data);
        if (args[i].kind == ARG_OUT)
            free((char *)args[i].path);
    }
    free(args);
    free(bufs);
    free(kernargs);
    gfx_debug_free(session);
    gfx_device_free(dev);
    gfx_module_free(m);
    return rc;
}

static int cmd_run(int argc, char **argv) { return run_main(argc, argv, 0); }
static int cmd_debug(int argc, char **argv) { return run_main(argc, argv, 1); }

/* ---- main -------------------------------------------------------------------------------- */

typedef struct {
    const char *name;
    int (*run)(int argc, char **argv); /* argv[0] is the subcommand name */
    const char *summary;
} command;

static const command commands[] = {
    {"disasm", cmd_disasm, "disassemble a code object or raw instruction words"},
    {"run", cmd_run, "run a kernel on an emulated GPU"},
    {"debug", cmd_debug, "run a kernel under an interactive debugger"},
};

static void usage(FILE *out) {
    fprintf(out, "usage: gfxemu COMMAND [ARGS...]\n"
                 "       gfxemu --help | --version\n\n"
                 "gfxemu emulates AMD Instinct GPU machine code (gfx950, gfx942, gfx90a) on the CPU.\n\n"
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
