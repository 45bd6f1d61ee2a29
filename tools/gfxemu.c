/* gfxemu.c - the gfxemu command-line tool.  Uses only the public API in include/gfxemu.h.
 *
 *   gfxemu disasm [--arch gfx950|gfx942|gfx90a] FILE.co     llvm-objdump-style listing of .text
 *   gfxemu disasm --arch ARCH --raw FILE.bin          one instruction per line, text only
 *   gfxemu run FILE.co KERNEL --grid .. --block .. [--arg SPEC]...   run a kernel
 *   gfxemu debug FILE.co KERNEL <run args>            the same under a debugger (debug_cli.c)
 *   gfxemu as [--arch ARCH] [--raw] IN.s -o OUT       assemble (code object, or .text bytes)
 *
 * Exit status: 0 success, 1 the input could not be processed, 2 usage error.
 */
#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "cli.h"
#include "debug_cli.h"
#include "gfxemu.h"

enum { EXIT_INPUT = 1, EXIT_USAGE = 2 };

/* llvm-objdump pads "\t" + instruction text to this many characters before the "//" comment. */
#define OBJDUMP_TEXT_COLUMN 60

void cli_error(const char *fmt, ...) {
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
    "usage: gfxemu disasm [--arch gfx950|gfx942|gfx90a|gfx1100|gfx1201] FILE.co\n"
    "       gfxemu disasm --arch gfx950|gfx942|gfx90a|gfx1100|gfx1201 --raw FILE.bin\n"
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
        cli_error("%s: %s", path, strerror(errno));
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
        cli_error("%s: %s", path, bad ? "read error" : "file too large");
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
        cli_error("%s: %zu trailing bytes after the last whole word", path, size - pc);
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
        cli_error("%s: %s", path, err);
        return EXIT_INPUT;
    }
    if (have_arch && gfx_module_arch(m) != arch) {
        cli_error("%s: code object is for %s, not %s", path, gfx_arch_name(gfx_module_arch(m)),
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
        cli_error("out of memory");
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
                cli_error(
                    "disasm: --arch needs a value (gfx950, gfx942, gfx90a, gfx1100 or gfx1201)");
                return EXIT_USAGE;
            }
            arch_name = argv[i];
        } else if (strncmp(a, "--arch=", 7) == 0) {
            arch_name = a + 7;
        } else if (a[0] == '-' && a[1]) {
            cli_error("disasm: unknown option '%s' (see gfxemu disasm --help)", a);
            return EXIT_USAGE;
        } else if (path) {
            cli_error("disasm: more than one input file ('%s' and '%s')", path, a);
            return EXIT_USAGE;
        } else {
            path = a;
        }
    }
    if (!path) {
        cli_error("disasm: missing input file (see gfxemu disasm --help)");
        return EXIT_USAGE;
    }
    gfx_arch arch = GFX_ARCH_GFX950;
    if (arch_name && gfx_arch_from_name(arch_name, &arch) != GFX_OK) {
        cli_error("disasm: unknown architecture '%s' (expected gfx950, gfx942, gfx90a, gfx1100 or "
                  "gfx1201)",
                  arch_name);
        return EXIT_USAGE;
    }
    if (raw && !arch_name) {
        cli_error("disasm: --raw needs --arch gfx950|gfx942|gfx90a|gfx1100|gfx1201");
        return EXIT_USAGE;
    }
    int rc = raw ? disasm_raw(arch, path) : disasm_module(arch, arch_name != NULL, path);
    if (fflush(stdout) != 0 || ferror(stdout)) {
        cli_error("disasm: error writing output");
        return EXIT_INPUT;
    }
    return rc;
}

/* ---- run --------------------------------------------------------------------------------- */

static const char run_usage[] =
    "usage: gfxemu run FILE.co KERNEL --grid X[,Y[,Z]] --block X[,Y[,Z]] [--arg SPEC]...\n"
    "       gfxemu run FILE.co KERNEL --global-size X[,Y[,Z]] --block X[,Y[,Z]] ...\n"
    "                  [--stats] [--threads N] [--max-insts N] [--dynamic-lds BYTES]\n"
    "                  [--timeout SECONDS] [--cus N] [--racecheck]\n"
    "                  [--private-size BYTES] [--keep-partial]\n"
    "\n"
    "Run KERNEL from FILE.co on an emulated GPU of the code object's architecture.  --grid is\n"
    "in workgroups, --block in work-items per workgroup; --global-size is the grid in\n"
    "work-items (an OpenCL NDRange, each dimension a multiple of --block's).  Each --arg fills\n"
    "the next kernel argument, in order:\n"
    "  i32:V u32:V i64:V u64:V f32:V f64:V   a scalar (integers also fit 1- and 2-byte args)\n"
    "  in:PATH            a buffer initialised from the file PATH\n"
    "  out:PATH:BYTES     a zeroed buffer of BYTES bytes, written to PATH after the run\n"
    "  inout:PATH         a buffer initialised from PATH and written back after the run\n"
    "  zero:BYTES         a zeroed buffer of BYTES bytes, not saved\n"
    "  local:BYTES        a __local pointer: BYTES of LDS placed after the static LDS\n"
    "  bytes:HEX          any by-value argument (struct, float4, ...) as its raw little-endian\n"
    "                     bytes in hex (\"0100000000002040\"); as many bytes as its size\n"
    "Pointer arguments receive the buffer's device address.  Every --arg is checked against\n"
    "the kernel's metadata before the launch: kind, size, and the type where it is named\n"
    "(f32: for an int parameter is refused).  Output files are created as temporary files\n"
    "before the launch and renamed into place after a successful run; after a fault none is\n"
    "left unless --keep-partial (then they hold what the kernel wrote).\n"
    "  in:X.npy, inout:X.npy, out:Y.npy:DTYPE[SHAPE] (e.g. float32[64,64]), out:Y.npy:BYTES\n"
    "                     NumPy arrays: dtype and shape kept; the dtype must match the\n"
    "                     argument's type name when the code object has one\n"
    "Pointer arguments receive the buffer's device address.\n"
    "  --stats            print one JSON object with instruction counts on stderr\n"
    "  --threads N        worker threads, 1 to 1024 (default: one per core)\n"
    "  --max-insts N      watchdog: wave-instructions allowed for the launch\n"
    "  --dynamic-lds N    bytes of dynamic LDS per workgroup\n"
    "  --timeout SECONDS  stop the launch after this much wall-clock time\n"
    "  --cus N            compute units of the modelled GPU (default 256 gfx950, 304 gfx942):\n"
    "                     with the kernel's occupancy, how many workgroups are resident at once\n"
    "  --racecheck        interleave each workgroup's waves instruction by instruction and\n"
    "                     report LDS accesses of different waves with no barrier between\n"
    "                     (RAW, WAR, WAW hazards) on stderr; exit status 1 if any\n"
    "  --private-size N   scratch bytes per work-item (at least the kernel's own; replaces\n"
    "                     the 16 KiB default stack of kernels with a dynamic stack)\n"
    "  --keep-partial     after a fault, still write the output files\n"
    "  --fault-report     after a fault, also print lanes, the code around the pc and the\n"
    "                     argument buffer nearest to a bad address\n"
    "  --trace FILE       one line per executed wave-instruction (pc, instruction, EXEC,\n"
    "                     registers written); --trace-limit N lines at most (default\n"
    "                     1000000, 0: no limit), only workgroup\n"
    "                     --trace-wg X,Y,Z, wave --trace-wave N, pcs --trace-pc LO:HI\n"
    "  --timeline FILE    Chrome/Perfetto trace-event JSON: a track per wave, spans between\n"
    "                     barriers, faults, instruction counters (open in ui.perfetto.dev)\n"
    "  --profile          print the hottest instructions on stderr (--profile-top N, 20)\n"
    "  --profile FILE.html  a self-contained page: disassembly with per-instruction counts,\n"
    "                     active lanes, memory bytes, LDS conflicts, hot lines, loops\n"
    "  --counters[=LIST]  performance counters under rocprofv3 names (SQ_INSTS_VALU,\n"
    "                     SQ_LDS_BANK_CONFLICT, ...; LIST: comma-separated, default all) on\n"
    "                     stderr; --counters-out FILE.csv|FILE.json writes them instead\n"
    "  --att DIR          thread trace in AMD's gfx9 SQTT format (rocprofv3 --att): .att\n"
    "                     token streams per shader engine, the code object, att_index.json;\n"
    "                     timestamps from an issue model, not a timing model (docs/att.md).\n"
    "                     Waves of --att-target-cu N (0-15, default 0) in each shader engine\n"
    "                     of --att-shader-engine-mask M (default 0x1) on the SIMDs of\n"
    "                     --att-simd-select M (default 0xf) get instruction tokens; gfxemu's\n"
    "                     --att-workgroups LIST (0,4-7: flat ids) narrows that to workgroups\n"
    "Tracing options run the launch on one thread, deterministically, through a stepping\n"
    "loop (slower); without them nothing is checked per instruction.\n"
    "  --memcheck         byte-exact checking (also GFXEMU_MEMCHECK=1): report every access\n"
    "                     past the exact bytes of a buffer that hardware would let through\n"
    "                     (inside the buffer's pages); the kernel continues, outputs are\n"
    "                     written, and the exit status is 1 if anything was reported\n"
    "  --dump-global NAME:PATH  after the run, write the bytes of the code object's\n"
    "                     program-scope variable NAME (as its symbol's size says) to PATH\n"
    "Exit status: 0 success, 1 the kernel faulted or the input was unusable, 2 usage error.\n";

enum { ARG_SCALAR, ARG_IN, ARG_OUT, ARG_INOUT, ARG_ZERO, ARG_LOCAL, ARG_BYTES };

#define MAX_DUMPS 16 /* --dump-global options */
static int dump_globals(const char *cmd, gfx_device *dev, gfx_module *m, const char *const *dumps,
                        size_t n);
static int memcheck_report(gfx_device *dev);

typedef struct {
    const char *spec;
    int kind;
    const char *type; /* "i32", ... for scalars */
    uint8_t bytes[8]; /* scalar value, little-endian */
    unsigned size;    /* scalar size */
    int is_signed, is_int;
    int64_t ival; /* integer value, for narrowing checks */
    const char *path;
    uint64_t nbytes;     /* buffer size; local: LDS bytes; bytes: byte count */
    unsigned char *data; /* bytes: the argument's bytes */
    uint64_t addr;       /* device buffer */
    char *tmp;           /* out/inout: the temporary file the result goes to first */
    char *final;         /* the file tmp replaces (PATH, symbolic links resolved) */
    int direct;          /* PATH is not a regular file (a device, a FIFO): written in place */
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
    cli_error("%s: %s '%s': expected X[,Y[,Z]] with positive integers", cmd, opt, s);
    return -1;
}

/* --att DIR, --att-target-cu N, --att-shader-engine-mask M, --att-simd-select M,
 * --att-workgroups LIST (the names of rocprofv3's thread trace options; the last is gfxemu's). */
static int parse_att_option(const char *cmd, int argc, char **argv, int *i, gfx_att_options *o,
                            const char **sel) {
    static const char *const names[] = {"--att", "--att-target-cu", "--att-shader-engine-mask",
                                        "--att-simd-select", "--att-workgroups"};
    const char *a = argv[*i], *val = NULL;
    int which = -1;
    for (int k = 0; k < 5 && which < 0; k++) {
        size_t n = strlen(names[k]);
        if (strncmp(a, names[k], n) == 0 && (a[n] == 0 || a[n] == '='))
            which = k;
    }
    if (which < 0) {
        cli_error("%s: unknown option '%s' (see gfxemu %s --help)", cmd, a, cmd);
        return -1;
    }
    size_t n = strlen(names[which]);
    if (a[n] == '=')
        val = a + n + 1;
    else if (*i + 1 < argc)
        val = argv[++*i];
    if (!val || !*val) {
        cli_error("%s: %s needs a value (see gfxemu %s --help)", cmd, names[which], cmd);
        return -1;
    }
    uint64_t v = 0;
    switch (which) {
    case 0: o->dir = val; return 0;
    case 4: o->workgroups = val; break;
    case 1:
        if (parse_u64(val, &v) || v > 15) {
            cli_error("%s: --att-target-cu '%s': expected a CU index from 0 to 15", cmd, val);
            return -1;
        }
        o->target_cu = (int)v;
        break;
    case 2:
        if (parse_u64(val, &v) || v == 0 || v > UINT32_MAX) {
            cli_error("%s: --att-shader-engine-mask '%s': expected a nonzero 32-bit mask", cmd,
                      val);
            return -1;
        }
        o->se_mask = (uint32_t)v;
        break;
    default:
        if (parse_u64(val, &v) || v == 0 || v > 0xf) {
            cli_error("%s: --att-simd-select '%s': expected a SIMD mask from 0x1 to 0xf", cmd, val);
            return -1;
        }
        o->simd_mask = (uint32_t)v;
        break;
    }
    *sel = names[which];
    return 0;
}

static void le_store(uint8_t *p, unsigned n, uint64_t v) {
    for (unsigned i = 0; i < n; i++)
        p[i] = (uint8_t)(v >> (8 * i));
}

static int hexval(char c) {
    return c >= '0' && c <= '9'   ? c - '0'
           : c >= 'a' && c <= 'f' ? c - 'a' + 10
           : c >= 'A' && c <= 'F' ? c - 'A' + 10
                                  : -1;
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
    if (tl == 5 && strncmp(spec, "local", 5) == 0) {
        a->kind = ARG_LOCAL;
        if (parse_u64(v, &a->nbytes))
            goto bad;
        if (a->nbytes == 0) {
            cli_error("%s: --arg '%s': a __local argument needs at least 1 byte of LDS", cmd, spec);
            return -1;
        }
        return 0;
    }
    if (tl == 5 && strncmp(spec, "bytes", 5) == 0) {
        size_t n = strlen(v);
        if (n == 0 || n % 2) {
            cli_error("%s: --arg '%s': bytes:HEX needs an even number of hex digits (two per byte)",
                      cmd, spec);
            return -1;
        }
        a->kind = ARG_BYTES;
        a->nbytes = n / 2;
        if (!(a->data = malloc(n / 2)))
            goto bad;
        for (size_t i = 0; i < n / 2; i++) {
            int hi = hexval(v[2 * i]), lo = hexval(v[2 * i + 1]);
            if (hi < 0 || lo < 0) {
                cli_error("%s: --arg '%s': '%.2s' is not a hex byte", cmd, spec, v + 2 * i);
                free(a->data);
                a->data = NULL;
                return -1;
            }
            a->data[i] = (unsigned char)(hi << 4 | lo);
        }
        return 0;
    }
    if (tl == 3 && strncmp(spec, "out", 3) == 0) {
        const char *last = strrchr(v, ':');
        cli_npy np = {0};
        if (!last || last == v ||
            (parse_u64(last + 1, &a->nbytes) &&
             (!cli_is_npy_path(v, (size_t)(last - v)) || cli_npy_parse_spec(last + 1, &np))))
            goto bad;
        if (cli_is_npy_path(v, (size_t)(last - v)) && np.valid) /* out:y.npy:float32[N] */
            a->nbytes = np.nbytes;
        if (a->nbytes == 0) {
            cli_error(
                "%s: --arg '%s': an output of 0 bytes; give its size in bytes (out:PATH:BYTES "
                "with BYTES >= 1)",
                cmd, spec);
            return -1;
        }
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
    cli_error("%s: bad --arg '%s' (expected i32:V, u32:V, i64:V, u64:V, f32:V, f64:V, in:PATH, "
              "out:PATH:BYTES, out:PATH.npy:DTYPE[SHAPE], inout:PATH, zero:BYTES, local:BYTES or "
              "bytes:HEX)",
              cmd, spec);
    return -1;
}

/* Buffers move between files and device memory through one bounded staging block, so an N-byte
 * argument costs N bytes of (lazily allocated) device memory and no second full copy. */
#define IO_CHUNK ((size_t)4 << 20)

/* Copy the file `path` (nbytes long, checked before) into the device buffer at addr. */
static int file_to_device(gfx_device *dev, const char *path, uint64_t addr, uint64_t nbytes,
                          unsigned char *stage) {
    FILE *fp = fopen(path, "rb");
    if (!fp) {
        cli_error("%s: %s", path, strerror(errno));
        return -1;
    }
    uint64_t done = 0;
    while (done < nbytes) {
        size_t want = nbytes - done < IO_CHUNK ? (size_t)(nbytes - done) : IO_CHUNK;
        size_t got = fread(stage, 1, want, fp);
        if (got)
            gfx_memcpy_htod(dev, addr + done, stage, got);
        done += got;
        if (got < want)
            break;
    }
    int bad = ferror(fp) || done != nbytes;
    fclose(fp);
    if (bad)
        cli_error("%s: read error (the file changed while it was read?)", path);
    return bad ? -1 : 0;
}

/* Create the temporary file an output goes to (next to PATH, so that the final rename stays on
 * one file system): proves before the launch that PATH's directory is writable.  A PATH that
 * exists and is not a regular file (/dev/stdout, a FIFO) is written in place instead, after a
 * successful run; a symbolic link is followed, so the file it names is replaced. */
static int output_begin(run_arg *a) {
    struct stat st;
    char *real = NULL;
    if (stat(a->path, &st) == 0) {
        if (S_ISDIR(st.st_mode)) {
            cli_error("%s: is a directory", a->path);
            return -1;
        }
        if (!S_ISREG(st.st_mode)) {
            if (access(a->path, W_OK) != 0) {
                cli_error("%s: %s", a->path, strerror(errno));
                return -1;
            }
            a->direct = 1;
            return 0;
        }
        real = realpath(a->path, NULL);
    }
    const char *target = real ? real : a->path;
    size_t n = strlen(target) + 32;
    if (!(a->tmp = malloc(n)) || !(a->final = strdup(target))) {
        free(real);
        cli_error("out of memory");
        return -1;
    }
    free(real); /* target may be real: from here on only a->final holds the path */
    snprintf(a->tmp, n, "%s.gfxemu-XXXXXX", a->final);
    int fd = mkstemp(a->tmp);
    if (fd < 0) {
        cli_error("%s: cannot create the output file: %s", a->path, strerror(errno));
        free(a->tmp);
        a->tmp = NULL;
        return -1;
    }
    /* mkstemp makes the file 0600; an output gets the permissions a plain create would. */
    mode_t mask = umask(0);
    umask(mask);
    if (fchmod(fd, 0666 & ~mask) != 0 || close(fd) != 0) {
        cli_error("%s: %s", a->tmp, strerror(errno));
        return -1;
    }
    return 0;
}

/* Move a finished output's temporary file over PATH. */
static int output_rename(run_arg *a) {
    if (rename(a->tmp, a->final) != 0) {
        cli_error("%s: cannot replace it: %s", a->path, strerror(errno));
        return -1;
    }
    free(a->tmp);
    a->tmp = NULL;
    return 0;
}

/* Write the device buffer (a .npy array: header and data) into the temporary file and rename it
 * to PATH. */
static int output_finish(gfx_device *dev, run_arg *a, const cli_npy *np, unsigned char *stage) {
    const char *dst = a->direct ? a->path : a->tmp;
    if (np->valid) { /* a .npy array: its header, then the data, written in one piece */
        unsigned char *buf = malloc(a->nbytes ? a->nbytes : 1);
        char nerr[256];
        if (!buf) {
            cli_error("out of memory");
            return -1;
        }
        gfx_memcpy_dtoh(dev, buf, a->addr, a->nbytes);
        int bad = cli_npy_write(dst, np, buf, a->nbytes, nerr, sizeof nerr);
        free(buf);
        if (bad) {
            cli_error("%s: %s", a->path, nerr);
            return -1;
        }
        return a->direct ? 0 : output_rename(a);
    }
    FILE *fp = fopen(dst, "wb");
    if (!fp) {
        cli_error("%s: %s", dst, strerror(errno));
        return -1;
    }
    uint64_t done = 0;
    int bad = 0;
    while (done < a->nbytes && !bad) {
        size_t n = a->nbytes - done < IO_CHUNK ? (size_t)(a->nbytes - done) : IO_CHUNK;
        gfx_memcpy_dtoh(dev, stage, a->addr + done, n);
        bad = fwrite(stage, 1, n, fp) != n;
        done += n;
    }
    if (fclose(fp) != 0 || bad) {
        cli_error("%s: write error: %s", a->path, strerror(errno));
        return -1;
    }
    return a->direct ? 0 : output_rename(a);
}

/* What an OpenCL .type_name says a by-value argument holds: 'f' a floating-point scalar, 'i' an
 * integer scalar, 0 anything else (vectors, structs, typedefs, or no name: HIP emits none). */
static int scalar_class(const char *tn) {
    static const char *const floats[] = {"float", "double", "half"};
    static const char *const ints[] = {
        "char",           "uchar",        "short",         "ushort",      "int",
        "uint",           "long",         "ulong",         "bool",        "size_t",
        "ptrdiff_t",      "intptr_t",     "uintptr_t",     "signed char", "unsigned char",
        "unsigned short", "unsigned int", "unsigned long", "int8_t",      "uint8_t",
        "int16_t",        "uint16_t",     "int32_t",       "uint32_t",    "int64_t",
        "uint64_t"};
    if (!tn)
        return 0;
    for (size_t i = 0; i < sizeof floats / sizeof *floats; i++)
        if (strcmp(tn, floats[i]) == 0)
            return 'f';
    for (size_t i = 0; i < sizeof ints / sizeof *ints; i++)
        if (strcmp(tn, ints[i]) == 0)
            return 'i';
    return 0;
}

static int is_pointer_arg(const gfx_arg_info *ai) {
    return ai->kind == GFX_ARG_GLOBAL_BUFFER ||
           (ai->address_space && ai->kind == GFX_ARG_BY_VALUE && ai->size == 8);
}

/* The --arg forms that fit argument ai, for "give ..." in errors. */
static const char *arg_advice(const gfx_arg_info *ai, char *buf, size_t n) {
    int cls = scalar_class(ai->type_name);
    if (is_pointer_arg(ai))
        return "in:PATH, out:PATH:BYTES, inout:PATH or zero:BYTES";
    if (ai->kind == GFX_ARG_DYNAMIC_SHARED_POINTER)
        return "local:BYTES (the LDS bytes to reserve for it)";
    if (ai->kind != GFX_ARG_BY_VALUE)
        return "nothing: images, samplers, pipes and queues are not supported";
    if (cls == 'f' && (ai->size == 4 || ai->size == 8))
        return ai->size == 4 ? "f32:V" : "f64:V";
    if (cls == 'i' && (ai->size == 4 || ai->size == 8))
        return ai->size == 4 ? "i32:V or u32:V" : "i64:V or u64:V";
    if (cls == 'i' && ai->size < 4)
        return "i32:V or u32:V (narrowed when the value fits)";
    snprintf(buf, n, "bytes:HEX with %u bytes (%u hex digits)", ai->size, 2 * ai->size);
    return buf;
}

/* Check spec a against explicit kernel argument i and write its kernarg bytes (__local
 * arguments are placed by the caller with gfx_kernel_bind_local). */
static int bind_arg(const char *cmd, const run_arg *a, size_t i, const gfx_arg_info *ai,
                    uint8_t *kernargs) {
    /* "argument 3 (double d)", or "(double)" when the object has no argument names */
    char what[256], advice[64];
    const char *type = ai->type_name ? ai->type_name : ai->value_kind ? ai->value_kind : "?";
    snprintf(what, sizeof what, "argument %zu (%s%s%s)", i, type, ai->name ? " " : "",
             ai->name ? ai->name : "");
    const char *give = arg_advice(ai, advice, sizeof advice);
    int is_ptr = is_pointer_arg(ai), cls = scalar_class(ai->type_name);
    const char *kind = is_ptr                                       ? "a pointer"
                       : ai->kind == GFX_ARG_DYNAMIC_SHARED_POINTER ? "a __local pointer"
                       : ai->kind != GFX_ARG_BY_VALUE               ? "a special argument"
                       : cls == 'f'                                 ? "a floating-point value"
                       : cls == 'i'                                 ? "an integer"
                                                                    : "a by-value argument";
#define ARG_ERROR(fmt, ...)                                                                        \
    do {                                                                                           \
        cli_error("%s: --arg %zu '%s': %s is %s of %u byte%s; " fmt "; give %s", cmd, i + 1,       \
                  a->spec, what, kind, ai->size, ai->size == 1 ? "" : "s", __VA_ARGS__, give);     \
        return -1;                                                                                 \
    } while (0)
    if (ai->kind == GFX_ARG_DYNAMIC_SHARED_POINTER || a->kind == ARG_LOCAL) {
        if (ai->kind != GFX_ARG_DYNAMIC_SHARED_POINTER || a->kind != ARG_LOCAL)
            ARG_ERROR("%s is %s", a->kind == ARG_LOCAL ? "local:" : "this",
                      a->kind == ARG_LOCAL ? "only for __local pointers" : "not LDS");
        return 0;
    }
    if (a->kind == ARG_BYTES) {
        if (is_ptr || ai->kind != GFX_ARG_BY_VALUE)
            ARG_ERROR("%s", "bytes: is only for by-value arguments");
        if (a->nbytes != ai->size)
            ARG_ERROR("bytes: gives %llu", (unsigned long long)a->nbytes);
        memcpy(kernargs + ai->offset, a->data, ai->size);
        return 0;
    }
    if (a->kind != ARG_SCALAR) {
        if (!is_ptr || ai->size != 8)
            ARG_ERROR("%s", "it is not a pointer, so it takes no buffer");
        le_store(kernargs + ai->offset, 8, a->addr);
        return 0;
    }
    if (is_ptr || ai->kind != GFX_ARG_BY_VALUE)
        ARG_ERROR("%s", is_ptr ? "it takes a buffer, not a scalar" : "a scalar does not fit it");
    /* The bits of 1.5f passed to an int (1069547520), or of an integer passed to a float, are
     * never what was meant: the metadata's type name settles which one the kernel reads. */
    if ((cls == 'i' && !a->is_int) || (cls == 'f' && a->is_int))
        ARG_ERROR("%s gives %s", a->type, a->is_int ? "an integer" : "a floating-point value");
    if (ai->size != a->size) {
        /* Integers may narrow into char/short arguments when the value fits. */
        int fits = 0;
        if (a->is_int && ai->size < a->size && ai->size <= 2) {
            int64_t lo = a->is_signed ? -(1ll << (8 * ai->size - 1)) : 0;
            int64_t hi =
                a->is_signed ? (1ll << (8 * ai->size - 1)) - 1 : (1ll << (8 * ai->size)) - 1;
            fits = a->ival >= lo && a->ival <= hi;
        }
        if (!fits && a->is_int && ai->size < a->size && ai->size <= 2)
            ARG_ERROR("%lld does not fit in it", (long long)a->ival);
        if (!fits)
            ARG_ERROR("%s gives %u", a->type, a->size);
    }
#undef ARG_ERROR
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

/* What `gfxemu run` or `gfxemu debug` was asked to do: the command line, parsed and checked. */
typedef struct {
    const char *cmd; /* "run" or "debug": names the command in error messages */
    int debug, help;
    const char *path, *kname, *grid_s, *block_s;
    const char *global_s; /* --global-size */
    int stats, profile, fault_report, racecheck, memcheck, keep_partial;
    int tracing; /* an option that needs the stepping loop of a debug session */
    const char *dumps[MAX_DUMPS];
    size_t ndumps;
    uint64_t threads, max_insts, dyn_lds, profile_top, cus, private_size;
    double timeout;
    gfx_trace_options topt;
    const char *counters_out; /* --counters-out FILE */
    uint32_t counters;        /* --counters: mask of counters */
    const char *profile_html; /* --profile FILE.html */
    gfx_att_options att;      /* --att DIR and its selection */
    const char *att_sel;      /* a selection option given (it needs --att) */
    run_arg *args;            /* one per --arg, nargs of them */
    size_t nargs;
    uint32_t grid[3], block[3]; /* workgroups (from --grid or --global-size) and their size */
} run_opts;

/* The options that take a value, as "--opt VALUE" or "--opt=VALUE". */
enum {
    OPT_GRID,
    OPT_BLOCK,
    OPT_ARG,
    OPT_THREADS,
    OPT_MAX_INSTS,
    OPT_DYNAMIC_LDS,
    OPT_TRACE,
    OPT_TRACE_LIMIT,
    OPT_TRACE_WG,
    OPT_TRACE_WAVE,
    OPT_TRACE_PC,
    OPT_TIMELINE,
    OPT_PROFILE_TOP,
    OPT_TIMEOUT,
    OPT_CUS,
    OPT_DUMP_GLOBAL,
    OPT_PRIVATE_SIZE,
    NUM_VALUED_OPTS
};
static const char *const valued_opts[NUM_VALUED_OPTS] = {
    [OPT_GRID] = "--grid",
    [OPT_BLOCK] = "--block",
    [OPT_ARG] = "--arg",
    [OPT_THREADS] = "--threads",
    [OPT_MAX_INSTS] = "--max-insts",
    [OPT_DYNAMIC_LDS] = "--dynamic-lds",
    [OPT_TRACE] = "--trace",
    [OPT_TRACE_LIMIT] = "--trace-limit",
    [OPT_TRACE_WG] = "--trace-wg",
    [OPT_TRACE_WAVE] = "--trace-wave",
    [OPT_TRACE_PC] = "--trace-pc",
    [OPT_TIMELINE] = "--timeline",
    [OPT_PROFILE_TOP] = "--profile-top",
    [OPT_TIMEOUT] = "--timeout",
    [OPT_CUS] = "--cus",
    [OPT_DUMP_GLOBAL] = "--dump-global",
    [OPT_PRIVATE_SIZE] = "--private-size",
};

/* One option of valued_opts with its value; 0, or -1 after reporting a bad value. */
static int run_option_value(run_opts *o, int which, const char *val) {
    const char *cmd = o->cmd;
    switch (which) {
    case OPT_GRID: o->grid_s = val; return 0;
    case OPT_BLOCK: o->block_s = val; return 0;
    case OPT_ARG:
        if (parse_arg_spec(cmd, val, &o->args[o->nargs]))
            return -1;
        o->nargs++;
        return 0;
    case OPT_THREADS:
    case OPT_MAX_INSTS:
    case OPT_DYNAMIC_LDS: {
        uint64_t *dst = which == OPT_THREADS     ? &o->threads
                        : which == OPT_MAX_INSTS ? &o->max_insts
                                                 : &o->dyn_lds;
        if (which == OPT_THREADS && !parse_u64(val, dst) && *dst > 1024) {
            cli_error("%s: --threads %s: at most 1024 worker threads (this machine has %ld "
                      "cores; the default is one per core)",
                      cmd, val, sysconf(_SC_NPROCESSORS_ONLN));
            return -1;
        }
        if (parse_u64(val, dst) || (which != OPT_DYNAMIC_LDS && *dst == 0) ||
            (which == OPT_DYNAMIC_LDS && *dst > UINT32_MAX)) {
            cli_error("%s: %s '%s': expected a %s integer", cmd, valued_opts[which], val,
                      which == OPT_DYNAMIC_LDS ? "non-negative" : "positive");
            return -1;
        }
        return 0;
    }
    case OPT_TRACE:
    case OPT_TIMELINE:
        *(which == OPT_TRACE ? &o->topt.trace_path : &o->topt.timeline_path) = val;
        o->tracing = 1;
        return 0;
    case OPT_TRACE_LIMIT:
    case OPT_TRACE_WAVE:
    case OPT_PROFILE_TOP: {
        uint64_t v;
        if (parse_u64(val, &v) || (which == OPT_PROFILE_TOP && v == 0)) {
            cli_error("%s: %s '%s': expected a%s integer", cmd, valued_opts[which], val,
                      which == OPT_PROFILE_TOP ? " positive" : " non-negative");
            return -1;
        }
        if (which == OPT_TRACE_LIMIT)
            o->topt.trace_limit = v;
        else if (which == OPT_TRACE_WAVE)
            o->topt.trace_wave = (int64_t)v;
        else
            o->profile_top = v;
        return 0;
    }
    case OPT_TRACE_WG: {
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
            o->topt.trace_workgroup[n++] = (int64_t)v;
        }
        if (n <= 0) {
            cli_error("%s: --trace-wg '%s': expected X[,Y[,Z]]", cmd, val);
            return -1;
        }
        for (; n < 3; n++)
            o->topt.trace_workgroup[n] = 0;
        return 0;
    }
    case OPT_TRACE_PC:
        if (parse_range(val, &o->topt.trace_pc_lo, &o->topt.trace_pc_hi)) {
            cli_error("%s: --trace-pc '%s': expected LO:HI addresses with LO < HI", cmd, val);
            return -1;
        }
        return 0;
    case OPT_TIMEOUT: {
        char *end = NULL;
        o->timeout = strtod(val, &end);
        if (!end || *end || end == val || !(o->timeout > 0) || o->timeout > 1e9) {
            cli_error("%s: --timeout '%s': expected a positive number of seconds", cmd, val);
            return -1;
        }
        return 0;
    }
    case OPT_CUS:
        if (parse_u64(val, &o->cus) || o->cus == 0 || o->cus > 65536) {
            cli_error("%s: --cus '%s': expected an integer from 1 to 65536", cmd, val);
            return -1;
        }
        return 0;
    case OPT_DUMP_GLOBAL: {
        const char *colon = strchr(val, ':');
        if (!colon || colon == val || !colon[1] || o->ndumps == MAX_DUMPS) {
            cli_error("%s: --dump-global '%s': %s", cmd, val,
                      o->ndumps == MAX_DUMPS ? "too many (at most 16)" : "expected NAME:PATH");
            return -1;
        }
        o->dumps[o->ndumps++] = val;
        return 0;
    }
    case OPT_PRIVATE_SIZE:
        /* gfx_launch_options.private_size is 32-bit; the launch refuses more than 1 MiB per
         * work-item (far beyond any real kernel's private segment) */
        if (parse_u64(val, &o->private_size) || o->private_size > (1u << 20)) {
            cli_error("%s: --private-size '%s': expected bytes per work-item, 0 to 1048576", cmd,
                      val);
            return -1;
        }
        return 0;
    }
    return 0;
}

/* The options without a value of valued_opts (flags, --profile's two forms, --counters, --att,
 * --global-size) and the two positional arguments: argv[*i], consuming more if it takes them.
 * 0, or -1 after reporting an error. */
static int run_option(run_opts *o, int argc, char **argv, int *i) {
    const char *cmd = o->cmd, *a = argv[*i];
    if (strcmp(a, "--help") == 0 || strcmp(a, "-h") == 0) {
        o->help = 1;
    } else if (strcmp(a, "--stats") == 0) {
        o->stats = 1;
    } else if (strcmp(a, "--profile") == 0 && *i + 1 < argc && strlen(argv[*i + 1]) > 5 &&
               strcmp(argv[*i + 1] + strlen(argv[*i + 1]) - 5, ".html") == 0) {
        o->profile_html = argv[++*i]; /* --profile FILE.html: the HTML page, not the text */
        o->tracing = 1;
    } else if (strncmp(a, "--profile=", 10) == 0 && a[10]) {
        o->profile_html = a + 10;
        o->tracing = 1;
    } else if (strcmp(a, "--profile") == 0) {
        o->profile = o->tracing = 1;
    } else if (strcmp(a, "--fault-report") == 0) {
        o->fault_report = 1;
    } else if (strcmp(a, "--racecheck") == 0) {
        o->racecheck = 1;
    } else if (strcmp(a, "--memcheck") == 0) {
        o->memcheck = 1;
    } else if (strcmp(a, "--keep-partial") == 0) {
        o->keep_partial = 1;
    } else if (strcmp(a, "--counters") == 0 || strncmp(a, "--counters=", 11) == 0) {
        if (cli_counters_parse(a[10] == '=' ? a + 11 : NULL, &o->counters))
            return -1;
        o->tracing = 1;
    } else if (strcmp(a, "--counters-out") == 0) {
        if (++*i >= argc) {
            cli_error("%s: --counters-out needs a file (see gfxemu %s --help)", cmd, cmd);
            return -1;
        }
        o->counters_out = argv[*i];
        if (!o->counters)
            cli_counters_parse(NULL, &o->counters);
        o->tracing = 1;
    } else if (strcmp(a, "--global-size") == 0 || strncmp(a, "--global-size=", 14) == 0) {
        if (a[13] == '=') {
            o->global_s = a + 14;
        } else if (++*i < argc) {
            o->global_s = argv[*i];
        } else {
            cli_error("%s: --global-size needs a value (see gfxemu %s --help)", cmd, cmd);
            return -1;
        }
    } else if (strncmp(a, "--att", 5) == 0 && (a[5] == 0 || a[5] == '=' || a[5] == '-')) {
        if (parse_att_option(cmd, argc, argv, i, &o->att, &o->att_sel))
            return -1;
        o->tracing = 1;
    } else if (a[0] == '-' && a[1]) {
        cli_error("%s: unknown option '%s' (see gfxemu %s --help)", cmd, a, cmd);
        return -1;
    } else if (!o->path) {
        o->path = a;
    } else if (!o->kname) {
        o->kname = a;
    } else {
        cli_error("%s: unexpected argument '%s' (kernel arguments go in --arg)", cmd, a);
        return -1;
    }
    return 0;
}

/* The launch's grid in workgroups, from --grid or --global-size, and --block. */
static int run_dims(run_opts *o) {
    const char *cmd = o->cmd;
    if (o->grid_s && o->global_s) {
        cli_error("%s: --grid (workgroups) and --global-size (work-items) exclude each other", cmd);
        return -1;
    }
    if ((!o->grid_s && !o->global_s) || !o->block_s) {
        cli_error("%s: missing %s (see gfxemu %s --help)", cmd,
                  !o->grid_s && !o->global_s ? "--grid" : "--block", cmd);
        return -1;
    }
    if (parse_dims(cmd, o->grid_s ? "--grid" : "--global-size", o->grid_s ? o->grid_s : o->global_s,
                   o->grid) ||
        parse_dims(cmd, "--block", o->block_s, o->block))
        return -1;
    /* An OpenCL NDRange: work-items per dimension, each a multiple of the workgroup size (gfxemu
     * launches whole workgroups, as OpenCL 1.x requires). */
    for (int d = 0; o->global_s && d < 3; d++) {
        if (o->grid[d] % o->block[d]) {
            cli_error("%s: --global-size '%s': dimension %d (%u) is not a multiple of the --block "
                      "size %u",
                      cmd, o->global_s, d, o->grid[d], o->block[d]);
            return -1;
        }
        o->grid[d] /= o->block[d];
    }
    return 0;
}

/* The command line into *o (whose args has argc entries); 0, or -1 after reporting a usage error.
 * --help sets o->help and stops there. */
static int run_parse(run_opts *o, int argc, char **argv) {
    for (int i = 1; i < argc && !o->help; i++) {
        const char *a = argv[i];
        int which = -1;
        const char *val = NULL;
        for (int k = 0; k < NUM_VALUED_OPTS && which < 0; k++) {
            size_t n = strlen(valued_opts[k]);
            if (strncmp(a, valued_opts[k], n) == 0 && (a[n] == 0 || a[n] == '=')) {
                which = k;
                if (a[n] == '=') {
                    val = a + n + 1;
                } else if (++i < argc) {
                    val = argv[i];
                } else {
                    cli_error("%s: %s needs a value (see gfxemu %s --help)", o->cmd, valued_opts[k],
                              o->cmd);
                    return -1;
                }
            }
        }
        if (which >= 0 ? run_option_value(o, which, val) : run_option(o, argc, argv, &i))
            return -1;
    }
    if (o->help)
        return 0;
    if (!o->path || !o->kname) {
        cli_error("%s: missing %s (see gfxemu %s --help)", o->cmd,
                  !o->path ? "code object file" : "kernel name", o->cmd);
        return -1;
    }
    if (o->att_sel && !o->att.dir) {
        cli_error("%s: %s needs --att DIR", o->cmd, o->att_sel);
        return -1;
    }
    o->att.code_object = o->path;
    return run_dims(o);
}

/* What a run holds: the code object, the device and the argument buffers. */
typedef struct {
    gfx_module *m;
    const gfx_kernel *k;
    gfx_kernel_info info;
    gfx_device *dev;
    gfx_debug_session *session;
    uint8_t *kernargs;
    size_t ksize;
    uint32_t lds_dyn;     /* --dynamic-lds plus the LDS of local-pointer arguments */
    unsigned char *stage; /* IO_CHUNK bytes for copies between files and the device */
    cli_buffer *bufs;     /* the device buffers, for the debugger and reports */
    size_t nbufs;
    cli_npy *npys; /* .npy arrays of in/out/inout args */
} run_state;

/* The code object, its kernel (checked against the number of --arg) and a device for it;
 * 0 or the exit status. */
static int run_load(const run_opts *o, run_state *s) {
    const char *path = o->path, *kname = o->kname;
    char err[256];
    if (gfx_module_load_file(path, &s->m, err, sizeof err) != GFX_OK) {
        cli_error("%s: %s", path, err);
        return EXIT_INPUT;
    }
    gfx_result r = gfx_module_kernel(s->m, kname, &s->k);
    if (r == GFX_ERR_NOT_FOUND) {
        char list[512] = "";
        size_t len = 0;
        for (size_t i = 0; i < gfx_module_symbol_count(s->m); i++) {
            gfx_symbol sym;
            gfx_module_symbol(s->m, i, &sym);
            if (sym.is_kernel && len < sizeof list)
                len += (size_t)snprintf(list + len, sizeof list - len, "%s%s", len ? ", " : "",
                                        sym.name);
        }
        cli_error("%s: no kernel '%s' (kernels: %s)", path, kname, len ? list : "none");
        return EXIT_INPUT;
    }
    if (r != GFX_OK) {
        const char *why = gfx_module_kernel_error(s->m);
        cli_error("%s: kernel '%s': %s", path, kname, *why ? why : gfx_result_str(r));
        return EXIT_INPUT;
    }
    gfx_kernel_get_info(s->k, &s->info);
    if (!s->info.has_metadata && o->nargs) {
        const char *why = gfx_module_metadata_error(s->m);
        cli_error("%s: kernel '%s' has no argument metadata%s%s", path, kname, *why ? ": " : "",
                  why);
        return EXIT_INPUT;
    }
    if (s->info.has_metadata && o->nargs != s->info.nargs_explicit) {
        cli_error("%s: kernel '%s' takes %zu argument%s, %zu --arg given", o->cmd, kname,
                  s->info.nargs_explicit, s->info.nargs_explicit == 1 ? "" : "s", o->nargs);
        return EXIT_USAGE;
    }
    gfx_arch arch = gfx_module_arch(s->m);
    if ((r = gfx_device_create(arch, (unsigned)o->threads, &s->dev)) != GFX_OK) {
        cli_error("cannot create a %s device: %s", gfx_arch_name(arch), gfx_result_str(r));
        return EXIT_INPUT;
    }
    if (o->cus)
        gfx_device_set_cus(s->dev, (unsigned)o->cus);
    return 0;
}

/* The kernel argument buffer, with every --arg checked against the metadata, input sizes and
 * output paths, before any device memory is committed or the kernel runs; 0 or the exit status. */
static int run_bind_args(const run_opts *o, run_state *s) {
    const char *cmd = o->cmd;
    for (size_t i = 0; i < o->nargs; i++) {
        gfx_arg_info ai;
        gfx_kernel_arg(s->k, i, &ai);
        if ((size_t)ai.offset + ai.size > s->ksize)
            s->ksize = (size_t)ai.offset + ai.size;
    }
    s->kernargs = calloc(1, s->ksize ? s->ksize : 1);
    s->stage = malloc(IO_CHUNK);
    if (!s->kernargs || !s->stage) {
        cli_error("out of memory");
        return EXIT_INPUT;
    }
    s->lds_dyn = (uint32_t)o->dyn_lds;
    for (size_t i = 0; i < o->nargs; i++) {
        run_arg *a = &o->args[i];
        gfx_arg_info ai;
        gfx_kernel_arg(s->k, i, &ai);
        if (bind_arg(cmd, a, i, &ai, s->kernargs))
            return EXIT_USAGE;
        if (a->kind == ARG_LOCAL) {
            uint32_t before = s->lds_dyn;
            if (gfx_kernel_bind_local(s->k, i, a->nbytes, &s->lds_dyn, s->kernargs, s->ksize) !=
                GFX_OK) {
                gfx_arch arch = gfx_module_arch(s->m);
                cli_error("%s: --arg %zu '%s': %llu bytes of LDS for argument %zu (%s) do not fit: "
                          "%u static + %u dynamic bytes are in use and %s has %u per workgroup",
                          cmd, i + 1, a->spec, (unsigned long long)a->nbytes, i,
                          ai.name ? ai.name : "__local pointer", s->info.group_segment_fixed_size,
                          before, gfx_arch_name(arch),
                          arch == GFX_ARCH_GFX950 ? 160u * 1024 : 64u * 1024);
                return EXIT_INPUT;
            }
        }
        if (a->kind == ARG_IN || a->kind == ARG_INOUT) {
            struct stat st;
            if (stat(a->path, &st) != 0) {
                cli_error("%s: %s", a->path, strerror(errno));
                return EXIT_INPUT;
            }
            if (S_ISDIR(st.st_mode)) {
                cli_error("%s: is a directory", a->path);
                return EXIT_INPUT;
            }
            a->nbytes = (uint64_t)st.st_size;
        }
        char nerr[256];
        if ((a->kind == ARG_IN || a->kind == ARG_INOUT) &&
            cli_is_npy_path(a->path, strlen(a->path))) {
            size_t n = 0;
            if (!(a->data = read_file(a->path, &n)))
                return EXIT_INPUT;
            a->nbytes = n;
            if (cli_npy_load(a->path, a->data, &a->nbytes, &s->npys[i], &ai, nerr, sizeof nerr)) {
                cli_error("%s: --arg %zu '%s': %s", cmd, i + 1, a->spec, nerr);
                return EXIT_INPUT;
            }
        }
        if (a->kind == ARG_OUT &&
            cli_npy_out(a->spec, a->path, a->nbytes, &s->npys[i], &ai, nerr, sizeof nerr)) {
            cli_error("%s: --arg %zu '%s': %s", cmd, i + 1, a->spec, nerr);
            return EXIT_INPUT;
        }
        if ((a->kind == ARG_OUT || a->kind == ARG_INOUT) && output_begin(a))
            return EXIT_INPUT;
    }
    return 0;
}

/* Device buffers for the in/out/inout/zero arguments, inputs copied in, their addresses in the
 * kernel arguments; 0 or the exit status. */
static int run_upload(const run_opts *o, run_state *s) {
    for (size_t i = 0; i < o->nargs; i++) {
        run_arg *a = &o->args[i];
        if (a->kind != ARG_IN && a->kind != ARG_INOUT && a->kind != ARG_OUT && a->kind != ARG_ZERO)
            continue;
        if (gfx_buffer_alloc(s->dev, a->nbytes ? a->nbytes : 1, &a->addr) != GFX_OK) {
            cli_error("%s: --arg %zu '%s': %s", o->cmd, i + 1, a->spec, gfx_device_error(s->dev));
            return EXIT_INPUT;
        }
        if (a->data && (a->kind == ARG_IN || a->kind == ARG_INOUT)) /* a .npy array's data */
            gfx_memcpy_htod(s->dev, a->addr, a->data, a->nbytes);
        else if ((a->kind == ARG_IN || a->kind == ARG_INOUT) &&
                 file_to_device(s->dev, a->path, a->addr, a->nbytes, s->stage))
            return EXIT_INPUT;
        s->bufs[s->nbufs++] = (cli_buffer){i, a->spec, a->addr, a->nbytes};
        gfx_arg_info ai;
        gfx_kernel_arg(s->k, i, &ai);
        le_store(s->kernargs + ai.offset, 8, a->addr);
    }
    return 0;
}

/* The launch: under the debugger, through a debug session when an option traces, or plain with a
 * progress line.  *r is the launch's result; the return value 0 or the exit status when the debug
 * session could not start. */
static int run_launch(run_opts *o, run_state *s, gfx_stats *st, gfx_result *r) {
    gfx_launch_options lo = {.max_insts = o->max_insts,
                             .dynamic_lds = s->lds_dyn,
                             .private_size = (uint32_t)o->private_size,
                             .timeout = o->timeout,
                             .flags = o->racecheck ? GFX_LAUNCH_RACECHECK : 0,
                             .memcheck = o->memcheck};
    cli_program prog = {s->m, s->k, s->bufs, s->nbufs};
    o->topt.profile = o->profile || o->profile_html;
    if (o->debug || o->tracing) {
        if ((*r = gfx_debug_create(s->dev, &s->session)) != GFX_OK ||
            (*r = gfx_debug_trace(s->session, &o->topt)) != GFX_OK ||
            (*r = gfx_debug_counters_enable(s->session, o->counters || o->profile_html)) !=
                GFX_OK) {
            cli_error("cannot start a debug session: %s", gfx_result_str(*r));
            return EXIT_INPUT;
        }
        if (o->att.dir && gfx_debug_att(s->session, &o->att) != GFX_OK) {
            /* the other options were checked while parsing: only the list is left */
            cli_error("%s: --att-workgroups '%s': expected workgroup ids and ranges like 0,4-7",
                      o->cmd, o->att.workgroups ? o->att.workgroups : "");
            return EXIT_USAGE;
        }
        if (o->debug)
            *r = cli_debug(s->session, &prog, stdin, o->grid, o->block, s->kernargs, s->ksize, &lo,
                           st);
        else
            *r = gfx_debug_launch(s->session, s->k, o->grid, o->block, s->kernargs, s->ksize, &lo,
                                  st);
    } else {
        cli_progress *progress = cli_progress_start(s->dev, stderr);
        *r = gfx_launch(s->dev, s->k, o->grid, o->block, s->kernargs, s->ksize, &lo, st);
        cli_progress_stop(progress);
    }
    return 0;
}

/* What the tracing options gathered (a run that faulted still has its counts): the HTML profile,
 * counters, the text profile; 0 or the exit status when a file cannot be written. */
static int run_report_tracing(const run_opts *o, const run_state *s, const gfx_stats *st,
                              gfx_result r) {
    cli_program prog = {s->m, s->k, s->bufs, s->nbufs};
    if (r != GFX_OK && r != GFX_ERR_FAULT)
        return 0;
    if (o->profile_html && s->session) {
        gfx_counters ctr;
        gfx_debug_counters(s->session, &ctr);
        if (cli_profile_html(o->profile_html, &prog, s->session, st, &ctr)) {
            cli_error("%s: cannot write the profile: %s", o->profile_html, strerror(errno));
            return EXIT_INPUT;
        }
    }
    if (o->counters && s->session) {
        gfx_counters ctr;
        cli_occupancy occ;
        gfx_debug_counters(s->session, &ctr);
        cli_occupancy_compute(&s->info, gfx_module_arch(s->m),
                              o->block[0] * o->block[1] * o->block[2], (uint32_t)o->dyn_lds, &occ);
        fflush(stdout);
        if (!o->counters_out)
            cli_counters_print(stderr, o->kname, o->counters, &ctr, &occ);
        else if (cli_counters_write(o->counters_out, o->kname, o->counters, &ctr, &occ, &s->info,
                                    o->grid, o->block)) {
            cli_error("%s: cannot write the counters: %s", o->counters_out, strerror(errno));
            return EXIT_INPUT;
        }
    }
    if (o->profile) {
        fflush(stdout);
        cli_profile(stderr, &prog, s->session, st, (size_t)o->profile_top);
    }
    return 0;
}

/* The launch's failure on stderr, in the CLI's words, with the fault report if asked for. */
static void run_report_failure(const run_opts *o, const run_state *s, gfx_result r) {
    const char *msg = gfx_device_error(s->dev);
    /* the library's watchdog hint names the API option; here it is --max-insts */
    const char *hint = strstr(msg, "; raise it with gfx_launch_options.max_insts");
    if (hint)
        cli_error("%.*s; raise it with --max-insts", (int)(hint - msg), msg);
    else if (r == GFX_ERR_FAULT && strncmp(msg, "deadlock:", 9) == 0 &&
             strstr(msg, "can never be resident"))
        cli_error("%s (see --cus)", msg);
    else
        cli_error("%s", *msg ? msg : gfx_result_str(r));
    gfx_fault f;
    cli_program prog = {s->m, s->k, s->bufs, s->nbufs};
    if (r == GFX_ERR_FAULT && o->fault_report && gfx_last_fault(s->dev, &f) == GFX_OK)
        cli_fault_report(stderr, &prog, &f);
}

/* Everything after the launch: statistics, tracing reports, the error, the output files
 * (after a fault only with --keep-partial), --dump-global, memcheck and racecheck findings.
 * Returns the exit status. */
static int run_report(const run_opts *o, run_state *s, const gfx_stats *st, gfx_result r) {
    if (o->stats)
        print_stats(o->kname, st);
    int rc = run_report_tracing(o, s, st, r);
    if (rc)
        return rc;
    if (r != GFX_OK) {
        run_report_failure(o, s, r);
        if (!o->keep_partial || r != GFX_ERR_FAULT)
            return EXIT_INPUT;
    }
    for (size_t i = 0; i < o->nargs; i++)
        if ((o->args[i].tmp || o->args[i].direct) &&
            output_finish(s->dev, &o->args[i], &s->npys[i], s->stage))
            return EXIT_INPUT;
    if (r != GFX_OK || dump_globals(o->cmd, s->dev, s->m, o->dumps, o->ndumps))
        return EXIT_INPUT;
    rc = memcheck_report(s->dev);
    /* racecheck hazards are reported after the outputs are written: the run itself completed */
    for (size_t i = 0; i < gfx_race_count(s->dev); i++) {
        gfx_race h;
        if (gfx_race_get(s->dev, i, &h) == GFX_OK)
            fprintf(stderr, "gfxemu: %s\n", h.message);
        rc = EXIT_INPUT;
    }
    return rc;
}

static int run_main(int argc, char **argv, int debug) {
    /* A trace keeps every active lane's values: bound it unless --trace-limit 0 says not to.
     * --att starts at CU 0 (rocprofv3 starts at CU 1, which would often be idle on a small grid
     * here), SE 0 and all four SIMDs. */
    run_opts o = {.cmd = debug ? "debug" : "run",
                  .debug = debug,
                  .profile_top = 20,
                  .topt = {NULL, 1000000, {-1, -1, -1}, -1, 0, 0, NULL, 0},
                  .att = {NULL, NULL, 0, 0x1, 0xf, NULL}};
    run_state s = {0};
    gfx_stats st;
    gfx_result r = GFX_OK;
    int rc = EXIT_USAGE;
    o.args = calloc((size_t)argc, sizeof *o.args);
    s.bufs = calloc((size_t)argc, sizeof *s.bufs);
    s.npys = calloc((size_t)argc, sizeof *s.npys);
    if (!o.args || !s.bufs || !s.npys) {
        cli_error("out of memory");
        rc = EXIT_INPUT;
        goto out;
    }
    if (run_parse(&o, argc, argv))
        goto out;
    if (o.help) {
        if (debug)
            fputs(debug_usage, stdout);
        fputs(run_usage, stdout);
        rc = 0;
        goto out;
    }
    if ((rc = run_load(&o, &s)) || (rc = run_bind_args(&o, &s)) || (rc = run_upload(&o, &s)) ||
        (rc = run_launch(&o, &s, &st, &r)))
        goto out;
    rc = run_report(&o, &s, &st, r);
out:
    for (size_t i = 0; i < o.nargs; i++) {
        run_arg *a = &o.args[i];
        if (a->tmp) /* a fault, an error, or an output not reached: leave no partial file */
            unlink(a->tmp);
        free(a->tmp);
        free(a->final);
        free(a->data);
        if (a->kind == ARG_OUT)
            free((char *)a->path);
    }
    free(o.args);
    free(s.bufs);
    free(s.npys);
    free(s.kernargs);
    free(s.stage);
    gfx_debug_free(s.session);
    gfx_device_free(s.dev);
    gfx_module_free(s.m);
    return rc;
}

static int write_file(const char *path, const void *data, size_t size) {
    FILE *fp = fopen(path, "wb");
    if (!fp) {
        cli_error("%s: %s", path, strerror(errno));
        return -1;
    }
    size_t n = fwrite(data, 1, size, fp);
    if (fclose(fp) != 0 || n != size) {
        cli_error("%s: write error", path);
        return -1;
    }
    return 0;
}

/* --dump-global NAME:PATH: the variable's bytes in the device's copy of the program image. */
static int dump_globals(const char *cmd, gfx_device *dev, gfx_module *m, const char *const *dumps,
                        size_t n) {
    for (size_t i = 0; i < n; i++) {
        const char *colon = strchr(dumps[i], ':');
        char name[256];
        snprintf(name, sizeof name, "%.*s", (int)(colon - dumps[i]), dumps[i]);
        uint64_t addr, size;
        gfx_result r = gfx_module_symbol_address(dev, m, name, &addr, &size);
        if (r != GFX_OK) {
            cli_error("%s: --dump-global: no program-scope variable '%s' (%s)", cmd, name,
                      gfx_result_str(r));
            return 1;
        }
        unsigned char *buf = malloc(size ? size : 1);
        if (!buf || gfx_memcpy_dtoh(dev, buf, addr, size) != GFX_OK) {
            free(buf);
            cli_error("%s: --dump-global: cannot read '%s'", cmd, name);
            return 1;
        }
        int bad = write_file(colon + 1, buf, size);
        free(buf);
        if (bad)
            return 1;
    }
    return 0;
}

/* Print what memcheck found; 1 if it found anything. */
static int memcheck_report(gfx_device *dev) {
    uint64_t widened, n = gfx_memcheck_errors(dev, &widened);
    for (size_t i = 0; i < n && i < GFX_MEMCHECK_KEEP; i++) {
        gfx_memcheck_error e;
        if (gfx_memcheck_error_get(dev, i, &e) == GFX_OK)
            fprintf(stderr, "%s\n", e.message);
    }
    if (n || widened)
        fprintf(stderr, "memcheck: %llu error%s%s (%llu widened scalar load%s not reported)\n",
                (unsigned long long)n, n == 1 ? "" : "s",
                n > GFX_MEMCHECK_KEEP ? ", the first 1024 shown" : "", (unsigned long long)widened,
                widened == 1 ? "" : "s");
    return n ? 1 : 0;
}

static int cmd_run(int argc, char **argv) { return run_main(argc, argv, 0); }
static int cmd_debug(int argc, char **argv) { return run_main(argc, argv, 1); }

/* ---- as ---------------------------------------------------------------------------------- */

static const char as_usage[] =
    "usage: gfxemu as [--arch ARCH] [--wave64] IN.s -o OUT.co\n"
    "       gfxemu as --arch ARCH [--wave64] --raw IN.s -o OUT.bin\n"
    "\n"
    "Assemble LLVM-syntax assembly (clang-22 -S output, or bare instructions) into an AMDHSA code\n"
    "object, or with --raw into the instruction bytes of .text only.  ARCH: gfx950, gfx942,\n"
    "gfx90a, gfx1100 or gfx1201.  Without --arch the target comes from the source's\n"
    ".amdgcn_target directive.  IN.s may be '-' for standard input.\n"
    "  --wave64  RDNA: wave64 code (llvm-mc's -mattr=+wavefrontsize64: vcc, s[0:1] lane masks);\n"
    "            also chosen by '.amdhsa_wavefront_size32 0' in the source.  Default: wave32.\n";

static int cmd_as(int argc, char **argv) {
    const char *in = NULL, *outp = NULL, *arch_name = NULL;
    int raw = 0, wave64 = 0;
    for (int i = 1; i < argc; i++) {
        const char *a = argv[i];
        if (strcmp(a, "--help") == 0 || strcmp(a, "-h") == 0) {
            fputs(as_usage, stdout);
            return 0;
        } else if (strcmp(a, "--raw") == 0) {
            raw = 1;
        } else if (strcmp(a, "--wave64") == 0) {
            wave64 = 1;
        } else if (strcmp(a, "--arch") == 0 || strcmp(a, "-o") == 0) {
            if (++i >= argc) {
                cli_error("as: %s needs a value (see gfxemu as --help)", a);
                return EXIT_USAGE;
            }
            *(a[1] == 'o' ? &outp : &arch_name) = argv[i];
        } else if (strncmp(a, "--arch=", 7) == 0) {
            arch_name = a + 7;
        } else if (a[0] == '-' && a[1]) {
            cli_error("as: unknown option '%s' (see gfxemu as --help)", a);
            return EXIT_USAGE;
        } else if (in) {
            cli_error("as: more than one input file ('%s' and '%s')", in, a);
            return EXIT_USAGE;
        } else {
            in = a;
        }
    }
    if (!in || !outp) {
        cli_error("as: %s (see gfxemu as --help)", in ? "missing -o OUTPUT" : "missing input file");
        return EXIT_USAGE;
    }
    gfx_arch arch = GFX_ARCH_GFX950;
    if (arch_name && gfx_arch_from_name(arch_name, &arch) != GFX_OK) {
        cli_error(
            "as: unknown architecture '%s' (expected gfx950, gfx942, gfx90a, gfx1100 or gfx1201)",
            arch_name);
        return EXIT_USAGE;
    }
    if (raw && !arch_name) {
        cli_error("as: --raw needs --arch (gfx950, gfx942, gfx90a, gfx1100 or gfx1201)");
        return EXIT_USAGE;
    }
    size_t n = 0;
    char *src = NULL;
    if (strcmp(in, "-") == 0) {
        size_t cap = 0;
        for (;;) {
            if (n + 4096 > cap) {
                char *p = realloc(src, cap = cap * 2 + 8192);
                if (!p) {
                    free(src);
                    cli_error("as: out of memory");
                    return EXIT_INPUT;
                }
                src = p;
            }
            size_t r = fread(src + n, 1, cap - n, stdin);
            n += r;
            if (r == 0)
                break;
        }
    } else {
        src = (char *)read_file(in, &n);
        if (!src)
            return EXIT_INPUT;
    }
    if (!arch_name) {
        /* the target named by .amdgcn_target "amdgcn-amd-amdhsa--gfxNNN[:features]" */
        const char *t = NULL;
        for (size_t i = 0; i + 14 < n && !t; i++)
            if (memcmp(src + i, ".amdgcn_target", 14) == 0)
                t = src + i;
        const char *g = NULL;
        for (const char *q = t; q && q < src + n && *q != '\n' && !g; q++)
            if (q + 3 < src + n && memcmp(q, "gfx", 3) == 0)
                g = q;
        char name[16] = "";
        for (size_t k = 0; g && k + 1 < sizeof name && g + k < src + n &&
                           ((g[k] >= 'a' && g[k] <= 'z') || (g[k] >= '0' && g[k] <= '9'));
             k++)
            name[k] = g[k], name[k + 1] = 0;
        if (!g || gfx_arch_from_name(name, &arch) != GFX_OK) {
            free(src);
            cli_error("as: %s: no --arch and no supported .amdgcn_target%s%s", in, g ? " " : "",
                      name);
            return EXIT_USAGE;
        }
    }
    uint8_t *out = NULL;
    size_t outn = 0;
    char err[512];
    gfx_result r =
        gfx_assemble(arch, src, n, (raw ? GFX_ASM_RAW : 0) | (wave64 ? GFX_ASM_WAVE64 : 0), &out,
                     &outn, err, sizeof err);
    free(src);
    if (r != GFX_OK) {
        cli_error("as: %s:%s", in, err);
        return EXIT_INPUT;
    }
    FILE *f = fopen(outp, "wb");
    if (!f || fwrite(out, 1, outn, f) != outn || fclose(f) != 0) {
        cli_error("as: %s: %s", outp, strerror(errno));
        gfx_free(out);
        return EXIT_INPUT;
    }
    gfx_free(out);
    return 0;
}

/* ---- main -------------------------------------------------------------------------------- */

typedef struct {
    const char *name;
    int (*run)(int argc, char **argv); /* argv[0] is the subcommand name */
    const char *summary;
} command;

static const command commands[] = {
    {"disasm", cmd_disasm, "disassemble a code object or raw instruction words"},
    {"as", cmd_as, "assemble LLVM-syntax assembly into a code object or raw bytes"},
    {"run", cmd_run, "run a kernel on an emulated GPU"},
    {"debug", cmd_debug, "run a kernel under an interactive debugger"},
    {"info", cmd_info, "describe a code object's kernels: arguments, registers, occupancy"},
    {"exec", cmd_exec, "run an unmodified ROCm program on a virtual AMD GPU"},
};

static void usage(FILE *out) {
    fprintf(out,
            "usage: gfxemu COMMAND [ARGS...]\n"
            "       gfxemu --help | --version\n\n"
            "gfxemu emulates AMD Instinct GPU machine code (gfx950, gfx942, gfx90a) on the CPU.\n\n"
            "commands:\n");
    for (size_t i = 0; i < sizeof commands / sizeof commands[0]; i++)
        fprintf(out, "  %-8s %s\n", commands[i].name, commands[i].summary);
    fprintf(out, "\nRun 'gfxemu COMMAND --help' or 'gfxemu help COMMAND' for a command's "
                 "options.\n");
}

int main(int argc, char **argv) {
    static char outbuf[1 << 16];
    setvbuf(stdout, outbuf, _IOFBF, sizeof outbuf);
    if (argc < 2) {
        usage(stderr);
        return EXIT_USAGE;
    }
    const char *cmd = argv[1];
    if (strcmp(cmd, "help") == 0 && argc > 2) {
        /* `gfxemu help COMMAND` is `gfxemu COMMAND --help` */
        for (size_t i = 0; i < sizeof commands / sizeof commands[0]; i++)
            if (strcmp(argv[2], commands[i].name) == 0) {
                char *hargv[] = {argv[2], "--help", NULL};
                return commands[i].run(2, hargv);
            }
        cli_error("help: unknown command '%s' (see gfxemu --help)", argv[2]);
        return EXIT_USAGE;
    }
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
    cli_error("unknown command '%s' (see gfxemu --help)", cmd);
    return EXIT_USAGE;
}
