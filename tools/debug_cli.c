/* debug_cli.c - `gfxemu debug FILE.co KERNEL <run args>`: an interactive debugger on the
 * gfx_debug_* API, plus the fault report and the profile that `gfxemu run` prints.
 *
 * The launch runs inside gfx_debug_launch(); every stop calls handler() below, which reads
 * commands until one resumes the launch (step, next, continue, quit).  Commands come from a
 * TTY or a pipe; from a pipe each command is echoed after the prompt so that a scripted
 * session reads like an interactive one.  At the end of the input the launch runs on to its
 * end without stopping.  Ctrl-C (SIGINT) while the kernel runs stops it at the next
 * instruction (gfx_debug_interrupt), e.g. to look at an endless loop.
 * On a terminal, with libedit, commands get line editing, history and tab completion of
 * commands, registers and symbols; a pipe is read plainly.
 */
#include <ctype.h>
#include <errno.h>
#include <signal.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "debug_cli.h"

#ifdef GFXEMU_HAVE_LIBEDIT /* line editing, history, tab completion (Makefile: libedit-dev) */
#include <editline/readline.h>
#endif

typedef struct {
    const cli_program *p;
    FILE *in;
    int tty, eof;
    gfx_arch arch;
    const uint8_t *text;
    uint64_t text_addr;
    size_t text_size;
    gfx_symbol *syms;
    size_t nsyms;
    gfx_debug_session *s;
    struct {
        int id;
        char what[256];
    } bps[64]; /* what break/watch created, for info breakpoints */
    int nbps;
    uint32_t grid[3], block[3];
} dbg;

static void remember(dbg *d, int id, const char *fmt, ...) __attribute__((format(printf, 3, 4)));
static void remember(dbg *d, int id, const char *fmt, ...) {
    if (d->nbps >= 64)
        return;
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(d->bps[d->nbps].what, sizeof d->bps[d->nbps].what, fmt, ap);
    va_end(ap);
    d->bps[d->nbps++].id = id;
}

/* ---- code: symbols, instruction boundaries, disassembly -------------------------------------- */

/* The symbol an address is named after: the last function or label at or below it. */
static const gfx_symbol *symbol_for(const dbg *d, uint64_t addr) {
    const gfx_symbol *best = NULL;
    for (size_t i = 0; i < d->nsyms; i++)
        if (d->syms[i].addr <= addr && (!best || d->syms[i].addr >= best->addr))
            best = &d->syms[i];
    return best;
}

/* "<kernel+0x10>" */
static const char *where(const dbg *d, uint64_t addr, char *buf, size_t n) {
    const gfx_symbol *s = symbol_for(d, addr);
    if (!s)
        snprintf(buf, n, "<.text+0x%llx>", (unsigned long long)(addr - d->text_addr));
    else if (addr == s->addr)
        snprintf(buf, n, "<%s>", s->name);
    else
        snprintf(buf, n, "<%s+0x%llx>", s->name, (unsigned long long)(addr - s->addr));
    return buf;
}

static size_t disasm_at(const dbg *d, uint64_t addr, char *text, size_t n) {
    if (addr < d->text_addr || addr - d->text_addr + 4 > d->text_size) {
        snprintf(text, n, "<outside .text>");
        return 0;
    }
    size_t off = (size_t)(addr - d->text_addr);
    return gfx_disasm(d->arch, d->text + off, d->text_size - off, text, n);
}

/* Instruction starts from the containing symbol up to well past addr: out[] gets up to max. */
static size_t inst_starts(const dbg *d, uint64_t addr, uint64_t *out, size_t max, size_t after) {
    const gfx_symbol *s = symbol_for(d, addr);
    uint64_t pc = s ? s->addr : d->text_addr, end = d->text_addr + d->text_size;
    size_t n = 0, past = 0;
    char text[GFX_DISASM_MAX];
    while (pc + 4 <= end && n < max) {
        if (pc > addr && ++past > after)
            break;
        out[n++] = pc;
        size_t sz = gfx_disasm(d->arch, d->text + (pc - d->text_addr), end - pc, text, sizeof text);
        pc += sz ? sz : 4;
    }
    return n;
}

/* Print the instructions around addr (`before` and `after` of them), addr marked with "=>". */
static void listing(FILE *out, const dbg *d, uint64_t addr, size_t before, size_t after) {
    enum { MAX = 1 << 16 };
    static uint64_t starts[MAX];
    size_t n = inst_starts(d, addr, starts, MAX, after);
    size_t at = n;
    for (size_t i = 0; i < n; i++)
        if (starts[i] == addr)
            at = i;
    if (at == n) { /* not an instruction start: show just the words there */
        char text[GFX_DISASM_MAX];
        disasm_at(d, addr, text, sizeof text);
        fprintf(out, "=> 0x%llx  %s\n", (unsigned long long)addr, text);
        return;
    }
    size_t lo = at > before ? at - before : 0;
    int width = 0;
    char sym[160];
    for (size_t i = lo; i < n && i <= at + after; i++) {
        int len = (int)strlen(where(d, starts[i], sym, sizeof sym)) + 1;
        width = len > width ? len : width;
    }
    for (size_t i = lo; i < n && i <= at + after; i++) {
        char text[GFX_DISASM_MAX];
        disasm_at(d, starts[i], text, sizeof text);
        where(d, starts[i], sym, sizeof sym);
        strcat(sym, ":");
        fprintf(out, "%s 0x%llx %-*s %s\n", i == at ? "=>" : "  ", (unsigned long long)starts[i],
                width, sym, text);
    }
}

static void load_code(dbg *d, const cli_program *p) {
    d->p = p;
    d->arch = gfx_module_arch(p->m);
    d->text = gfx_module_text(p->m, &d->text_addr, &d->text_size);
    d->nsyms = gfx_module_symbol_count(p->m);
    d->syms = calloc(d->nsyms ? d->nsyms : 1, sizeof *d->syms);
    if (!d->syms)
        d->nsyms = 0;
    for (size_t i = 0; i < d->nsyms; i++)
        gfx_module_symbol(p->m, i, &d->syms[i]);
}

/* ---- fault reports --------------------------------------------------------------------------- */

static void lanes_text(uint64_t lanes, char *buf, size_t n) {
    int count = __builtin_popcountll(lanes);
    size_t len = (size_t)snprintf(buf, n, "0x%016llx (%d lane%s", (unsigned long long)lanes, count,
                                  count == 1 ? "" : "s");
    const char *sep = ": ";
    for (int l = 0; l < 64 && len + 16 < n;) {
        if (!(lanes >> l & 1)) {
            l++;
            continue;
        }
        int e = l;
        while (e + 1 < 64 && (lanes >> (e + 1) & 1))
            e++;
        len += (size_t)(e > l ? snprintf(buf + len, n - len, "%s%d-%d", sep, l, e)
                              : snprintf(buf + len, n - len, "%s%d", sep, l));
        sep = ",";
        l = e + 1;
    }
    snprintf(buf + len, n - len, ")");
}

/* Where addr lies relative to the nearest argument buffer. */
static void nearest_buffer(const cli_program *p, uint64_t addr, uint32_t size, char *buf,
                           size_t n) {
    const cli_buffer *best = NULL;
    uint64_t best_d = UINT64_MAX;
    for (size_t i = 0; i < p->nbufs; i++) {
        const cli_buffer *b = &p->bufs[i];
        uint64_t dist = addr < b->addr              ? b->addr - addr
                        : addr >= b->addr + b->size ? addr - (b->addr + b->size)
                                                    : 0;
        if (dist < best_d)
            best = b, best_d = dist;
    }
    if (!best) {
        snprintf(buf, n, "no argument buffers");
        return;
    }
    gfx_arg_info ai;
    char what[256];
    if (gfx_kernel_arg(p->k, best->arg, &ai) == GFX_OK && ai.name)
        snprintf(what, sizeof what, "argument %zu '%s' (%s, %llu bytes at 0x%llx)", best->arg,
                 ai.name, best->spec, (unsigned long long)best->size,
                 (unsigned long long)best->addr);
    else
        snprintf(what, sizeof what, "argument %zu (%s, %llu bytes at 0x%llx)", best->arg,
                 best->spec, (unsigned long long)best->size, (unsigned long long)best->addr);
    uint64_t end = best->addr + best->size;
    if (addr >= end)
        snprintf(buf, n, "0x%llx bytes past the end of %s", (unsigned long long)(addr - end), what);
    else if (addr < best->addr)
        snprintf(buf, n, "0x%llx bytes before the start of %s",
                 (unsigned long long)(best->addr - addr), what);
    else
        snprintf(buf, n, "offset 0x%llx of %s; the %u-byte access crosses its end",
                 (unsigned long long)(addr - best->addr), what, size);
}

static void fault_report(FILE *out, const dbg *d, const gfx_fault *f) {
    char buf[512], sym[160];
    fprintf(out, "%s in kernel %s, workgroup (%u,%u,%u), wave %u\n", gfx_fault_kind_name(f->kind),
            f->kernel, f->workgroup[0], f->workgroup[1], f->workgroup[2], f->wave);
    fprintf(out, "  pc:      0x%llx %s\n", (unsigned long long)f->pc,
            where(d, f->pc, sym, sizeof sym));
    if (f->kind == GFX_FAULT_MEMORY || f->kind == GFX_FAULT_LDS) {
        lanes_text(f->lanes, buf, sizeof buf);
        fprintf(out, "  lanes:   %s\n", f->lanes ? buf : "none (a scalar access)");
        fprintf(out, "  access:  %s of %u bytes at 0x%llx\n", f->write ? "write" : "read", f->size,
                (unsigned long long)f->addr);
        if (f->kind == GFX_FAULT_MEMORY) {
            nearest_buffer(d->p, f->addr, f->size, buf, sizeof buf);
            fprintf(out, "  nearest: %s\n", buf);
        } else {
            fprintf(out, "  (an LDS offset outside the workgroup's allocation)\n");
        }
    }
    if (f->kind == GFX_FAULT_WATCHDOG)
        fprintf(out, "  after %llu wave-instructions (raise the budget with --max-insts)\n",
                (unsigned long long)f->wave_insts);
    fprintf(out, "  code:\n");
    listing(out, d, f->pc, 3, 3);
}

void cli_fault_report(FILE *out, const cli_program *p, const gfx_fault *f) {
    dbg d;
    memset(&d, 0, sizeof d);
    load_code(&d, p);
    fault_report(out, &d, f);
    free(d.syms);
}

/* ---- profile --------------------------------------------------------------------------------- */

void cli_profile(FILE *out, const cli_program *p, const gfx_debug_session *s, const gfx_stats *st,
                 size_t top) {
    dbg d;
    memset(&d, 0, sizeof d);
    load_code(&d, p);
    gfx_profile_entry *e = calloc(top ? top : 1, sizeof *e);
    size_t n = e ? gfx_debug_profile(s, e, top) : 0;
    fprintf(out,
            "profile: %llu wave-instructions at %zu distinct pcs (salu %llu, valu %llu, "
            "vmem %llu, smem %llu, lds %llu, mfma %llu, branch %llu, other %llu)\n",
            (unsigned long long)st->wave_insts, n, (unsigned long long)st->salu,
            (unsigned long long)st->valu, (unsigned long long)st->vmem,
            (unsigned long long)st->smem, (unsigned long long)st->lds, (unsigned long long)st->mfma,
            (unsigned long long)st->branch, (unsigned long long)st->other);
    fprintf(out, "%12s %6s  %-10s %-22s %s\n", "count", "%", "pc", "where", "instruction");
    for (size_t i = 0; i < n && i < top; i++) {
        char text[GFX_DISASM_MAX], sym[160];
        disasm_at(&d, e[i].pc, text, sizeof text);
        fprintf(out, "%12llu %6.2f  0x%-8llx %-22s %s\n", (unsigned long long)e[i].count,
                st->wave_insts ? 100.0 * (double)e[i].count / (double)st->wave_insts : 0.0,
                (unsigned long long)e[i].pc, where(&d, e[i].pc, sym, sizeof sym), text);
    }
    free(e);
    free(d.syms);
}

/* ---- expressions ----------------------------------------------------------------------------- */

/* A register reference: v3, v3[17], v[4:5], v[4:5][2], a0, s4, s[4:5], exec, vcc, scc, m0, pc,
 * mode, or an SGPR name LLVM uses (vcc_lo, exec_hi, flat_scratch_lo, ttmp3, m0). */
typedef struct {
    gfx_reg_kind kind;
    unsigned lo, hi; /* register range (SGPR/VGPR/AGPR) */
    int lane;        /* -1: all lanes */
} reg_ref;

static const char *skip_ws(const char *p) {
    while (*p && isspace((unsigned char)*p))
        p++;
    return p;
}

static int parse_uint(const char **pp, uint64_t *v) {
    char *end;
    errno = 0;
    const char *p = skip_ws(*pp);
    if (!isdigit((unsigned char)*p))
        return -1;
    unsigned long long x = strtoull(p, &end, 0);
    if (errno)
        return -1;
    *v = x;
    *pp = end;
    return 0;
}

static int parse_reg(const char *p, reg_ref *r, const char **rest) {
    static const struct {
        const char *name;
        gfx_reg_kind kind;
        unsigned idx;
    } named[] = {
        {"exec_lo", GFX_REG_SGPR, 126},
        {"exec_hi", GFX_REG_SGPR, 127},
        {"vcc_lo", GFX_REG_SGPR, 106},
        {"vcc_hi", GFX_REG_SGPR, 107},
        {"flat_scratch_lo", GFX_REG_SGPR, 102},
        {"flat_scratch_hi", GFX_REG_SGPR, 103},
        {"exec", GFX_REG_EXEC, 0},
        {"vcc", GFX_REG_VCC, 0},
        {"scc", GFX_REG_SCC, 0},
        {"m0", GFX_REG_M0, 0},
        {"pc", GFX_REG_PC, 0},
        {"mode", GFX_REG_MODE, 0},
    };
    p = skip_ws(p);
    memset(r, 0, sizeof *r);
    r->lane = -1;
    for (size_t i = 0; i < sizeof named / sizeof named[0]; i++) {
        size_t n = strlen(named[i].name);
        if (strncmp(p, named[i].name, n) == 0 && !isalnum((unsigned char)p[n]) && p[n] != '_') {
            r->kind = named[i].kind;
            r->lo = r->hi = named[i].idx;
            *rest = p + n;
            return 0;
        }
    }
    uint64_t a, b;
    if (strncmp(p, "ttmp", 4) == 0) {
        p += 4;
        if (parse_uint(&p, &a) || a > 15)
            return -1;
        r->kind = GFX_REG_SGPR;
        r->lo = r->hi = 108 + (unsigned)a;
        *rest = p;
        return 0;
    }
    if (*p == 's')
        r->kind = GFX_REG_SGPR;
    else if (*p == 'v')
        r->kind = GFX_REG_VGPR;
    else if (*p == 'a')
        r->kind = GFX_REG_AGPR;
    else
        return -1;
    p++;
    unsigned limit = r->kind == GFX_REG_SGPR ? GFX_WAVE_SGPRS : GFX_WAVE_VGPRS;
    if (*p == '[') {
        p++;
        if (parse_uint(&p, &a))
            return -1;
        p = skip_ws(p);
        b = a;
        if (*p == ':') {
            p++;
            if (parse_uint(&p, &b))
                return -1;
            p = skip_ws(p);
        }
        if (*p != ']')
            return -1;
        p++;
    } else {
        if (parse_uint(&p, &a))
            return -1;
        b = a;
    }
    if (a > b || b >= limit || b - a >= 16)
        return -1;
    r->lo = (unsigned)a;
    r->hi = (unsigned)b;
    if (r->kind != GFX_REG_SGPR && *p == '[') {
        p++;
        uint64_t l;
        if (parse_uint(&p, &l) || l >= GFX_WAVE_LANES)
            return -1;
        p = skip_ws(p);
        if (*p != ']')
            return -1;
        p++;
        r->lane = (int)l;
    }
    *rest = p;
    return 0;
}

static uint64_t get(const gfx_wave *w, gfx_reg_kind k, unsigned idx, unsigned lane) {
    uint64_t v = 0;
    gfx_wave_get(w, k, idx, lane, &v);
    return v;
}

/* Value of a register range (up to 2 dwords) in one lane. */
static uint64_t ref_value(const gfx_wave *w, const reg_ref *r, unsigned lane) {
    if (r->kind != GFX_REG_SGPR && r->kind != GFX_REG_VGPR && r->kind != GFX_REG_AGPR)
        return get(w, r->kind, 0, 0);
    uint64_t v = 0;
    for (unsigned i = r->lo; i <= r->hi && i < r->lo + 2; i++)
        v |= get(w, r->kind, i, lane) << (32 * (i - r->lo));
    return v;
}

static void ref_name(const reg_ref *r, char *buf, size_t n) {
    static const char *const names[] = {"s", "v", "a", "exec", "vcc", "scc", "m0", "pc", "mode"};
    if (r->kind > GFX_REG_AGPR) {
        snprintf(buf, n, "%s", names[r->kind]);
        return;
    }
    int len = r->lo == r->hi ? snprintf(buf, n, "%s%u", names[r->kind], r->lo)
                             : snprintf(buf, n, "%s[%u:%u]", names[r->kind], r->lo, r->hi);
    if (r->lane >= 0)
        snprintf(buf + len, n - (size_t)len, "[%d]", r->lane);
}

/* VGPRs/AGPRs the kernel's descriptor allocates (COMPUTE_PGM_RSRC1 VGPR granules of 8 on
 * gfx90a+, split at ACCUM_OFFSET): reading past them would show registers the hardware never
 * gave the wave, so `p v99` on an 8-VGPR kernel is an error, not a column of zeros. */
static void vgpr_limits(const dbg *d, unsigned *nv, unsigned *na) {
    gfx_kernel_info ki;
    gfx_kernel_get_info(d->p->k, &ki);
    unsigned total = ((ki.rsrc1 & 0x3f) + 1) * 8;
    if (total > GFX_WAVE_VGPRS * 2)
        total = GFX_WAVE_VGPRS * 2;
    unsigned arch = ki.accum_offset && ki.accum_offset < total ? ki.accum_offset : total;
    *nv = arch > GFX_WAVE_VGPRS ? GFX_WAVE_VGPRS : arch;
    *na = total - arch > GFX_WAVE_VGPRS ? GFX_WAVE_VGPRS : total - arch;
}

/* 0 if r names registers the wave has; else prints why not and returns -1. */
static int check_allocated(const dbg *d, const reg_ref *r, const char *cmd) {
    if (r->kind != GFX_REG_VGPR && r->kind != GFX_REG_AGPR)
        return 0;
    unsigned nv, na;
    vgpr_limits(d, &nv, &na);
    unsigned n = r->kind == GFX_REG_VGPR ? nv : na;
    if (r->hi < n)
        return 0;
    char name[64];
    ref_name(r, name, sizeof name);
    if (n == 0)
        printf("%s: %s: the kernel has no %s\n", cmd, name,
               r->kind == GFX_REG_VGPR ? "VGPRs" : "AGPRs");
    else
        printf("%s: %s: the kernel has %s0-%s%u only (%u %s)\n", cmd, name,
               r->kind == GFX_REG_VGPR ? "v" : "a", r->kind == GFX_REG_VGPR ? "v" : "a", n - 1, n,
               r->kind == GFX_REG_VGPR ? "VGPRs" : "AGPRs");
    return -1;
}

/* One value in format f: x (hex), d (signed), u (unsigned), f (float). */
static void put_value(FILE *out, uint64_t v, unsigned bytes, char f) {
    if (f == 'd')
        fprintf(out, "%lld", bytes == 8 ? (long long)v : (long long)(int32_t)v);
    else if (f == 'u')
        fprintf(out, "%llu", (unsigned long long)v);
    else if (f == 'f') {
        if (bytes == 8) {
            double x;
            memcpy(&x, &v, 8);
            fprintf(out, "%.17g", x);
        } else {
            float x;
            uint32_t u = (uint32_t)v;
            memcpy(&x, &u, 4);
            fprintf(out, "%.9g", (double)x);
        }
    } else
        fprintf(out, bytes == 8 ? "0x%016llx" : "0x%08llx", (unsigned long long)v);
}

/* A value in hex plus the readings a kernel author wants: decimal and, for 32 bits, float. */
static void put_scalar(FILE *out, uint64_t v, unsigned bytes, char f) {
    put_value(out, v, bytes, f);
    if (f == 'x') {
        fputs(" (", out);
        put_value(out, v, bytes, 'd');
        if (bytes == 4) {
            fputs(", ", out);
            put_value(out, v, bytes, 'f');
        }
        fputs(")", out);
    }
    fputc('\n', out);
}

static void cmd_print(dbg *d, gfx_wave *w, const char *args, char f) {
    reg_ref r;
    const char *rest;
    if (parse_reg(args, &r, &rest) || *skip_ws(rest)) {
        printf("cannot parse a register in '%s' (try v3, v3[17], v[4:5], s4, s[4:5], a0, exec, "
               "vcc, scc, m0, pc)\n",
               args);
        return;
    }
    if (check_allocated(d, &r, "p"))
        return;
    char name[64];
    ref_name(&r, name, sizeof name);
    unsigned bytes =
        r.kind == GFX_REG_EXEC || r.kind == GFX_REG_VCC || r.kind == GFX_REG_PC || r.hi > r.lo ? 8
                                                                                               : 4;
    if (r.hi - r.lo >= 2) { /* wide tuples: one dword at a time */
        for (unsigned i = r.lo; i <= r.hi; i++) {
            reg_ref one = r;
            one.lo = one.hi = i;
            char nm[64];
            ref_name(&one, nm, sizeof nm);
            if (r.kind == GFX_REG_SGPR || r.lane >= 0) {
                printf("%s = ", nm);
                put_scalar(stdout, ref_value(w, &one, r.lane < 0 ? 0 : (unsigned)r.lane), 4, f);
            } else {
                cmd_print(d, w, nm, f);
            }
        }
        return;
    }
    if (r.kind == GFX_REG_VGPR || r.kind == GFX_REG_AGPR) {
        if (r.lane >= 0) {
            printf("%s = ", name);
            put_scalar(stdout, ref_value(w, &r, (unsigned)r.lane), bytes, f);
            return;
        }
        uint64_t exec = get(w, GFX_REG_EXEC, 0, 0);
        printf("%s (exec 0x%016llx; lanes outside EXEC in brackets):\n", name,
               (unsigned long long)exec);
        unsigned per = bytes == 8 ? 4 : 8;
        for (unsigned l = 0; l < GFX_WAVE_LANES; l++) {
            if (l % per == 0)
                printf("  [%2u-%2u]", l, l + per - 1);
            int on = exec >> l & 1;
            printf(" %s", on ? "" : "[");
            put_value(stdout, ref_value(w, &r, l), bytes, f);
            printf("%s", on ? "" : "]");
            if (l % per == per - 1)
                putchar('\n');
        }
        return;
    }
    printf("%s = ", name);
    if (r.kind == GFX_REG_PC) {
        char sym[160];
        uint64_t pc = ref_value(w, &r, 0);
        printf("0x%llx %s\n", (unsigned long long)pc, where(d, pc, sym, sizeof sym));
        return;
    }
    put_scalar(stdout, ref_value(w, &r, 0), r.kind == GFX_REG_SCC ? 4 : bytes, f);
}

static int parse_loc(dbg *d, const char *loc, uint64_t *addr);
static void show_location(dbg *d);

/* set REG [=] VALUE; for pc the value is a location (0xADDR, SYMBOL[+OFF], +OFF) in .text. */
static void cmd_set(dbg *d, gfx_wave *w, const char *args) {
    reg_ref r;
    const char *rest;
    uint64_t v;
    if (parse_reg(args, &r, &rest) || !*(rest = skip_ws(rest))) {
        printf("usage: set REG [=] VALUE (e.g. set v3[17] = 5, set s[4:5] = 0x1000, set exec = 1,"
               " set pc kernel+0x10)\n");
        return;
    }
    if (*rest == '=')
        rest = skip_ws(rest + 1);
    if (check_allocated(d, &r, "set"))
        return;
    if (r.kind == GFX_REG_PC) {
        char loc[256];
        snprintf(loc, sizeof loc, "%s", rest);
        loc[strcspn(loc, " \t")] = 0;
        if (parse_loc(d, loc, &v)) {
            printf("set: '%s' is not an address or a symbol of this code object\n", rest);
            return;
        }
        if (v < d->text_addr || v - d->text_addr + 4 > d->text_size || (v & 3)) {
            printf("set: pc 0x%llx is not a word in .text (0x%llx-0x%llx)\n", (unsigned long long)v,
                   (unsigned long long)d->text_addr,
                   (unsigned long long)(d->text_addr + d->text_size));
            return;
        }
        if (gfx_wave_set(w, GFX_REG_PC, 0, 0, v) != GFX_OK) {
            printf("set: cannot move this wave's pc to 0x%llx\n", (unsigned long long)v);
            return;
        }
        show_location(d);
        return;
    }
    int neg = *rest == '-';
    if (neg)
        rest++;
    if (parse_uint(&rest, &v) || *skip_ws(rest)) {
        printf("set: '%s' is not a number\n", rest);
        return;
    }
    if (neg)
        v = (uint64_t)-(int64_t)v;
    gfx_result res = GFX_OK;
    if (r.kind != GFX_REG_SGPR && r.kind != GFX_REG_VGPR && r.kind != GFX_REG_AGPR) {
        res = gfx_wave_set(w, r.kind, 0, 0, v);
    } else {
        for (unsigned l = 0; l < GFX_WAVE_LANES && res == GFX_OK; l++) {
            if (r.lane >= 0 && (int)l != r.lane)
                continue;
            for (unsigned i = r.lo; i <= r.hi && i < r.lo + 2 && res == GFX_OK; i++)
                res = gfx_wave_set(w, r.kind, i, l, (uint32_t)(v >> (32 * (i - r.lo))));
            if (r.kind == GFX_REG_SGPR)
                break;
        }
    }
    char name[64];
    ref_name(&r, name, sizeof name);
    if (res != GFX_OK)
        printf("set: cannot set %s: %s\n", name, gfx_result_str(res));
    else
        printf("%s = 0x%llx\n", name, (unsigned long long)v);
}

/* ---- the REPL -------------------------------------------------------------------------------- */

/* The selected wave, or NULL (with a note unless quiet) when its workgroup is still to run. */
static gfx_wave *selected_wave(dbg *d, uint32_t *idx, int quiet) {
    uint32_t wg[3], cur[3], wv;
    gfx_debug_selected(d->s, wg, &wv);
    if (gfx_debug_context(d->s, NULL, cur) != GFX_OK || memcmp(wg, cur, sizeof wg) != 0) {
        if (!quiet)
            printf("workgroup (%u,%u,%u) has not started yet: step or continue to get there\n",
                   wg[0], wg[1], wg[2]);
        return NULL;
    }
    if (idx)
        *idx = wv;
    return gfx_debug_wave(d->s, wv);
}

static gfx_wave *selected(dbg *d, uint32_t *idx) { return selected_wave(d, idx, 0); }

static void show_location(dbg *d) {
    uint32_t wv, wg[3];
    gfx_wave *w = selected(d, &wv);
    if (!w)
        return;
    gfx_debug_selected(d->s, wg, NULL);
    gfx_wave_snapshot *snap = malloc(sizeof *snap);
    if (!snap)
        return;
    gfx_wave_snapshot_get(w, snap);
    char sym[160];
    uint64_t pc = snap->state == GFX_WAVE_FAULT ? snap->fault_pc : snap->pc;
    printf("workgroup (%u,%u,%u) wave %u (%s), pc 0x%llx %s, exec 0x%016llx\n", wg[0], wg[1], wg[2],
           wv, gfx_wave_state_name(snap->state), (unsigned long long)pc,
           where(d, pc, sym, sizeof sym), (unsigned long long)snap->exec);
    if (snap->state != GFX_WAVE_DONE)
        listing(stdout, d, pc, 0, 0);
    free(snap);
}

static void cmd_bt(dbg *d) {
    const gfx_kernel *k;
    uint32_t wg[3];
    if (gfx_debug_context(d->s, &k, wg) != GFX_OK)
        return;
    gfx_kernel_info ki;
    gfx_kernel_get_info(k, &ki);
    printf("kernel %s, running workgroup (%u,%u,%u)\n", ki.name, wg[0], wg[1], wg[2]);
    show_location(d);
    /* Outside the kernel's own code (a function clang-22 calls at -O0), the AMDGPU calling
     * convention keeps the return address in s[30:31]. */
    gfx_wave *w = selected_wave(d, NULL, 1);
    if (!w)
        return;
    char sym[160];
    uint64_t pc = get(w, GFX_REG_PC, 0, 0);
    const gfx_symbol *in = symbol_for(d, pc);
    if (in && in->addr != ki.entry) {
        uint64_t ret = get(w, GFX_REG_SGPR, 30, 0) | get(w, GFX_REG_SGPR, 31, 0) << 32;
        ret -= gfx_wave_code_bias(w); /* the kernel sees code at its image's device address */
        printf("called from 0x%llx %s (the return address in s[30:31])\n", (unsigned long long)ret,
               where(d, ret, sym, sizeof sym));
    }
}

static void cmd_regs(dbg *d) {
    gfx_wave *w = selected(d, NULL);
    if (!w)
        return;
    gfx_kernel_info ki;
    gfx_kernel_get_info(d->p->k, &ki);
    char sym[160];
    uint64_t pc = get(w, GFX_REG_PC, 0, 0);
    printf("pc   0x%llx %s\n", (unsigned long long)pc, where(d, pc, sym, sizeof sym));
    printf("exec 0x%016llx  vcc 0x%016llx  scc %llu  m0 0x%08llx  mode 0x%08llx\n",
           (unsigned long long)get(w, GFX_REG_EXEC, 0, 0),
           (unsigned long long)get(w, GFX_REG_VCC, 0, 0),
           (unsigned long long)get(w, GFX_REG_SCC, 0, 0),
           (unsigned long long)get(w, GFX_REG_M0, 0, 0),
           (unsigned long long)get(w, GFX_REG_MODE, 0, 0));
    unsigned ns = ki.sgpr_count ? ki.sgpr_count : 16;
    if (ns > 102)
        ns = 102;
    ns = (ns + 7) / 8 * 8;
    for (unsigned i = 0; i < ns && i < 104; i++) {
        if (i % 8 == 0)
            printf("s%-3u", i);
        printf(" %08llx", (unsigned long long)get(w, GFX_REG_SGPR, i, 0));
        if (i % 8 == 7)
            putchar('\n');
    }
    unsigned nv = ki.vgpr_count ? ki.vgpr_count : 8;
    printf("%u VGPRs%s in use: 'p v0' shows a register in every lane\n", nv,
           ki.agpr_count ? " and AGPRs" : "");
}

static void cmd_waves(dbg *d) {
    gfx_wave_info info[16];
    size_t n = gfx_debug_waves(d->s, info, 16);
    uint32_t wg[3], sel;
    gfx_debug_selected(d->s, wg, &sel);
    for (size_t i = 0; i < n; i++) {
        gfx_wave_info *wi = i < 16 ? &info[i] : NULL;
        if (!wi)
            break;
        char sym[160];
        int is_sel = memcmp(wg, wi->workgroup, sizeof wg) == 0 && sel == wi->wave;
        printf("%s wave %u of (%u,%u,%u): %-10s pc 0x%llx %s exec 0x%016llx, %llu insts\n",
               is_sel ? "*" : " ", wi->wave, wi->workgroup[0], wi->workgroup[1], wi->workgroup[2],
               gfx_wave_state_name(wi->state), (unsigned long long)wi->pc,
               where(d, wi->pc, sym, sizeof sym), (unsigned long long)wi->exec,
               (unsigned long long)wi->insts);
    }
    if (n > 16)
        printf("  ... %zu waves in all\n", n);
}

static int parse_wg(const char *s, uint32_t wg[3]) {
    wg[0] = wg[1] = wg[2] = 0;
    for (int i = 0; i < 3; i++) {
        uint64_t v;
        if (parse_uint(&s, &v) || v > UINT32_MAX)
            return -1;
        wg[i] = (uint32_t)v;
        s = skip_ws(s);
        if (*s != ',')
            return *s ? -1 : 0;
        s++;
    }
    return -1;
}

/* LOC: 0xADDR, SYMBOL, SYMBOL+OFF or +OFF (from the kernel's entry). */
static int parse_loc(dbg *d, const char *loc, uint64_t *addr) {
    uint64_t off = 0;
    const char *plus = strchr(loc, '+');
    if (isdigit((unsigned char)loc[0])) {
        const char *p = loc;
        return parse_uint(&p, addr) || *skip_ws(p) ? -1 : 0;
    }
    if (plus) {
        const char *p = plus + 1;
        if (parse_uint(&p, &off) || *skip_ws(p))
            return -1;
    }
    char name[256];
    size_t n = plus ? (size_t)(plus - loc) : strlen(loc);
    if (n >= sizeof name)
        return -1;
    memcpy(name, loc, n);
    name[n] = 0;
    uint64_t base;
    if (n == 0) {
        gfx_kernel_info ki;
        gfx_kernel_get_info(d->p->k, &ki);
        base = ki.entry;
    } else {
        gfx_symbol sym;
        if (gfx_module_find_symbol(d->p->m, name, &sym) != GFX_OK)
            return -1;
        base = sym.addr;
    }
    *addr = base + off;
    return 0;
}

static void cmd_break(dbg *d, char *args) {
    char *loc = strtok(args, " \t");
    gfx_breakpoint bp = {0, NULL, {-1, -1, -1}, -1};
    uint64_t addr;
    if (!loc) {
        printf("usage: break 0xADDR|SYMBOL[+OFF]|+OFF [wg X[,Y,Z]] [wave N]\n");
        return;
    }
    if (parse_loc(d, loc, &addr)) {
        char name[256];
        snprintf(name, sizeof name, "%s", loc);
        name[strcspn(name, "+")] = 0;
        gfx_symbol sym;
        if (*name && !isdigit((unsigned char)*name) &&
            gfx_module_find_symbol(d->p->m, name, &sym) != GFX_OK)
            printf("break: no symbol '%s' in the code object (see `info kernel`; tab completes "
                   "symbols)\n",
                   name);
        else
            printf("break: cannot parse the location '%s' (0xADDR, SYMBOL, SYMBOL+OFF or "
                   "+OFF)\n",
                   loc);
        return;
    }
    if (addr < d->text_addr || addr - d->text_addr + 4 > d->text_size || (addr & 3)) {
        printf("break: 0x%llx is not an instruction address in .text (0x%llx-0x%llx)\n",
               (unsigned long long)addr, (unsigned long long)d->text_addr,
               (unsigned long long)(d->text_addr + d->text_size));
        return;
    }
    for (char *t = strtok(NULL, " \t"); t; t = strtok(NULL, " \t")) {
        char *v = strtok(NULL, " \t");
        uint32_t wg[3];
        uint64_t n;
        const char *vp = v;
        if (v && strcmp(t, "wg") == 0 && parse_wg(v, wg) == 0) {
            for (int i = 0; i < 3; i++)
                bp.workgroup[i] = wg[i];
        } else if (v && strcmp(t, "wave") == 0 && parse_uint(&vp, &n) == 0 && !*vp) {
            bp.wave = (int64_t)n;
        } else {
            printf("break: expected 'wg X[,Y,Z]' or 'wave N' after the location\n");
            return;
        }
    }
    bp.addr = addr;
    bp.kernel = d->p->k;
    int id;
    gfx_debug_break(d->s, &bp, &id);
    char text[GFX_DISASM_MAX], sym[160];
    disasm_at(d, addr, text, sizeof text);
    printf("Breakpoint %d at 0x%llx %s: %s\n", id, (unsigned long long)addr,
           where(d, addr, sym, sizeof sym), text);
    char filt[96] = "";
    if (bp.workgroup[0] >= 0)
        snprintf(filt, sizeof filt, " in workgroup (%lld,%lld,%lld)", (long long)bp.workgroup[0],
                 (long long)bp.workgroup[1], (long long)bp.workgroup[2]);
    if (bp.wave >= 0)
        snprintf(filt + strlen(filt), sizeof filt - strlen(filt), " wave %lld", (long long)bp.wave);
    remember(d, id, "breakpoint at 0x%llx %s%s", (unsigned long long)addr, sym, filt);
}

static void cmd_x(dbg *d, const char *fmt, const char *args) {
    uint64_t count = 8, addr;
    char f = 'x';
    if (fmt && *fmt == '/') {
        fmt++;
        if (isdigit((unsigned char)*fmt)) {
            char *end;
            count = strtoull(fmt, &end, 10);
            fmt = end;
        }
        if (*fmt)
            f = *fmt;
    }
    if (!strchr("xdufb", f) || count == 0 || count > 4096) {
        printf("usage: x/NF ADDR (N words, F = x hex, d, u, f float, b bytes)\n");
        return;
    }
    reg_ref r;
    const char *rest, *p = args;
    gfx_wave *w = NULL;
    if (parse_reg(args, &r, &rest) == 0 && !*skip_ws(rest) && (w = selected(d, NULL))) {
        addr = ref_value(w, &r, r.lane < 0 ? 0 : (unsigned)r.lane);
    } else if (parse_uint(&p, &addr) || *skip_ws(p)) {
        printf("x: '%s' is not an address\n", args);
        return;
    }
    unsigned unit = f == 'b' ? 1 : 4, per = f == 'b' ? 16 : 4;
    for (uint64_t i = 0; i < count; i++) {
        uint64_t a = addr + i * unit;
        if (i % per == 0)
            printf("%s0x%llx:", i ? "\n" : "", (unsigned long long)a);
        uint8_t b[4] = {0};
        if (gfx_debug_memory(d->s, a, b, unit, 0) != GFX_OK) {
            printf(" <not mapped>");
            break;
        }
        uint32_t v = b[0] | b[1] << 8 | b[2] << 16 | (uint32_t)b[3] << 24;
        if (f == 'b')
            printf(" %02x", b[0]);
        else {
            putchar(' ');
            put_value(stdout, v, 4, f);
        }
    }
    putchar('\n');
}

static void cmd_lds(dbg *d, const char *args) {
    uint64_t off, len = 64;
    const char *p = args;
    if (parse_uint(&p, &off) || (*skip_ws(p) && parse_uint(&p, &len)) || len > 65536) {
        printf("usage: lds OFFSET [BYTES]\n");
        return;
    }
    gfx_wave *w = selected(d, NULL);
    if (!w)
        return;
    uint8_t *buf = malloc(len ? len : 1);
    /* an offset past 32 bits is outside (not truncated to a small one) */
    if (!buf || off > UINT32_MAX ||
        gfx_wave_lds(w, (uint32_t)off, buf, (uint32_t)len, 0) != GFX_OK) {
        printf("lds: [0x%llx, 0x%llx) is outside the workgroup's LDS\n", (unsigned long long)off,
               (unsigned long long)(off + len));
        free(buf);
        return;
    }
    for (uint64_t i = 0; i < len; i += 4) {
        if (i % 16 == 0)
            printf("%slds+0x%llx:", i ? "\n" : "", (unsigned long long)(off + i));
        uint32_t v = 0;
        for (unsigned b = 0; b < 4 && i + b < len; b++)
            v |= (uint32_t)buf[i + b] << (8 * b);
        printf(" 0x%08x", v);
    }
    putchar('\n');
    free(buf);
}

static const char help_text[] =
    "Commands (the selected wave is the one that stopped, or the one `wave` chose):\n"
    "  break LOC [wg X,Y,Z] [wave N]  stop before the instruction at LOC: 0xADDR, SYMBOL,\n"
    "                                 SYMBOL+OFF or +OFF (from the kernel entry)\n"
    "  watch ADDR [BYTES]             stop when an instruction changes device memory there\n"
    "  delete [N]                     delete breakpoint/watchpoint N (all without N)\n"
    "  info breakpoints               list them with their hit counts\n"
    "  info kernel                    registers, LDS, scratch, arguments of the kernel\n"
    "  step [N] | s                   execute N instructions of the selected wave\n"
    "  next [N] | n                   the same, but run a call (s_swappc/s_call) to its return\n"
    "  continue | c                   run to the next stop\n"
    "  wave X[,Y,Z] N                 select wave N of workgroup (X,Y,Z) (this or a later one)\n"
    "  waves                          the waves of the running workgroup and their state\n"
    "  args                           the buffers given as kernel arguments and their addresses\n"
    "  bt | where                     kernel, workgroup, wave, pc and symbol+offset\n"
    "  regs                           scalar registers, EXEC, VCC, SCC, M0, pc\n"
    "  p[/x|d|u|f] REG                v3, v3[17], v[4:5], a0, s4, s[4:5], exec, vcc, scc, m0, pc\n"
    "  set REG [=] VALUE              e.g. set v3[17] = 5 (v3 = 5 sets every lane);\n"
    "                                 set pc LOC moves the selected wave (LOC as for break)\n"
    "  x/NF ADDR|s[A:B]               N words of device memory, F = x, d, u, f or b (bytes)\n"
    "  lds OFFSET [BYTES]             the workgroup's LDS\n"
    "  disas [N]                      N instructions either side of pc (default 5)\n"
    "  quit | q                       abandon the launch\n"
    "Ctrl-C while the kernel runs stops it at the next instruction.  On a terminal, TAB\n"
    "completes commands, registers and symbols, and the arrow keys recall earlier commands.\n";

static void cmd_info_breaks(dbg *d) {
    if (!d->nbps)
        printf("no breakpoints or watchpoints\n");
    for (int i = 0; i < d->nbps; i++) {
        uint64_t h = gfx_debug_hits(d->s, d->bps[i].id);
        printf("  %d: %s, %llu hit%s\n", d->bps[i].id, d->bps[i].what, (unsigned long long)h,
               h == 1 ? "" : "s");
    }
}

/* info kernel: what the code object says about the kernel being debugged, and the launch. */
static void cmd_info_kernel(dbg *d) {
    gfx_kernel_info ki;
    gfx_kernel_get_info(d->p->k, &ki);
    unsigned nv, na;
    vgpr_limits(d, &nv, &na);
    printf("kernel %s, entry 0x%llx, %s\n", ki.name, (unsigned long long)ki.entry,
           gfx_arch_name(d->arch));
    printf("  launch: grid %ux%ux%u workgroups of %ux%ux%u work-items\n", d->grid[0], d->grid[1],
           d->grid[2], d->block[0], d->block[1], d->block[2]);
    printf("  registers: v0-v%u (%u VGPRs)", nv ? nv - 1 : 0, nv);
    if (na)
        printf(", a0-a%u (%u AGPRs, from ACCUM_OFFSET %u)", na - 1, na, ki.accum_offset);
    printf(", %u SGPRs (metadata), %u user SGPRs\n", ki.sgpr_count, ki.user_sgpr_count);
    printf("  LDS %u bytes per workgroup, scratch %u bytes per work-item%s, kernarg segment %u "
           "bytes\n",
           ki.group_segment_fixed_size, ki.private_segment_fixed_size,
           ki.uses_dynamic_stack ? " + dynamic stack" : "",
           ki.has_metadata ? ki.kernarg_segment_size : ki.kernarg_size);
    printf("  rsrc1 0x%08x rsrc2 0x%08x rsrc3 0x%08x\n", ki.rsrc1, ki.rsrc2, ki.rsrc3);
    for (size_t i = 0; i < ki.nargs_explicit; i++) {
        gfx_arg_info ai;
        gfx_kernel_arg(d->p->k, i, &ai);
        printf("  argument %zu: %s%s%s, %u bytes at kernarg offset %u", i,
               ai.type_name    ? ai.type_name
               : ai.value_kind ? ai.value_kind
                               : "?",
               ai.name ? " " : "", ai.name ? ai.name : "", ai.size, ai.offset);
        for (size_t b = 0; b < d->p->nbufs; b++)
            if (d->p->bufs[b].arg == i)
                printf(" = %s (%llu bytes at 0x%llx)", d->p->bufs[b].spec,
                       (unsigned long long)d->p->bufs[b].size,
                       (unsigned long long)d->p->bufs[b].addr);
        putchar('\n');
    }
}

static void forget(dbg *d, int id) {
    int j = 0;
    for (int i = 0; i < d->nbps; i++)
        if (id && d->bps[i].id != id)
            d->bps[j++] = d->bps[i];
    d->nbps = j;
}

#ifdef GFXEMU_HAVE_LIBEDIT
/* Tab completion: the first word from the command list, later words from register names and
 * the code object's symbols (for break, set pc, p). */
static const char *const command_words[] = {
    "break", "watch", "delete",      "info",  "step", "next",  "continue", "wave",
    "waves", "args",  "bt",          "where", "regs", "print", "set",      "x",
    "lds",   "disas", "disassemble", "quit",  "help", NULL};
static const char *const register_words[] = {
    "exec", "exec_lo",         "exec_hi",         "vcc", "vcc_lo", "vcc_hi", "scc", "m0", "pc",
    "mode", "flat_scratch_lo", "flat_scratch_hi", NULL};
static dbg *edit_dbg;
static int edit_first_word;

static char *complete_next(const char *text, int state) {
    static size_t i, j, len;
    static char buf[64];
    if (!state)
        i = j = 0, len = strlen(text);
    if (edit_first_word) {
        while (command_words[i])
            if (strncmp(command_words[i++], text, len) == 0)
                return strdup(command_words[i - 1]);
        return NULL;
    }
    while (register_words[i])
        if (strncmp(register_words[i++], text, len) == 0)
            return strdup(register_words[i - 1]);
    /* v0.., a0.., s0.. up to what the kernel has (SGPRs: the 102 a wave can name) */
    unsigned nv, na;
    vgpr_limits(edit_dbg, &nv, &na);
    const unsigned counts[3] = {nv, na, 102};
    const char prefix[3] = {'v', 'a', 's'};
    while (j < 3 * 512) {
        unsigned kind = (unsigned)(j / 512), n = (unsigned)(j % 512);
        j++;
        if (n >= counts[kind])
            continue;
        snprintf(buf, sizeof buf, "%c%u", prefix[kind], n);
        if (len && strncmp(buf, text, len) == 0)
            return strdup(buf);
    }
    for (size_t k = j - 3 * 512; k < edit_dbg->nsyms; k++) {
        j++;
        if (strncmp(edit_dbg->syms[k].name, text, len) == 0)
            return strdup(edit_dbg->syms[k].name);
    }
    return NULL;
}

static char **complete(const char *text, int start, int end) {
    (void)end;
    edit_first_word = skip_ws(rl_line_buffer) - rl_line_buffer >= start;
    rl_attempted_completion_over = 1; /* never fall back to file names */
    return rl_completion_matches(text, complete_next);
}

static void edit_setup(dbg *d) {
    edit_dbg = d;
    rl_readline_name = "gfxemu";
    rl_instream = d->in;
    rl_outstream = stdout;
    rl_attempted_completion_function = complete;
    using_history();
}
#endif

/* Read one command; NULL at the end of the input. */
static char *read_command(dbg *d, char *buf, size_t n) {
    if (d->eof)
        return NULL;
#ifdef GFXEMU_HAVE_LIBEDIT
    if (d->tty) {
        fflush(stdout);
        char *line = readline("(gfxemu) ");
        if (!line) {
            d->eof = 1;
            printf("\nend of input: running to the end without stopping\n");
            return NULL;
        }
        snprintf(buf, n, "%s", line);
        if (*skip_ws(line))
            add_history(line);
        free(line);
        return buf;
    }
#endif
    fputs("(gfxemu) ", stdout);
    fflush(stdout);
    if (!fgets(buf, (int)n, d->in)) {
        d->eof = 1;
        printf("\nend of input: running to the end without stopping\n");
        return NULL;
    }
    buf[strcspn(buf, "\r\n")] = 0;
    if (!d->tty)
        printf("%s\n", buf);
    return buf;
}

static gfx_resume repl(dbg *d) {
    char line[1024], last[1024] = "";
    for (;;) {
        char *cmd = read_command(d, line, sizeof line);
        if (!cmd) {
            gfx_debug_delete(d->s, 0);
            return (gfx_resume){GFX_RESUME_CONTINUE, 0};
        }
        char *p = (char *)skip_ws(cmd);
        if (!*p) {
            if (!*last)
                continue;
            memcpy(line, last, sizeof line); /* an empty line repeats step/next */
            p = line;
        }
        char word[32] = "";
        size_t wl = strcspn(p, " \t/");
        if (wl < sizeof word) {
            memcpy(word, p, wl);
            word[wl] = 0;
        }
        if (strcmp(word, "step") == 0 || strcmp(word, "s") == 0 || strcmp(word, "next") == 0 ||
            strcmp(word, "n") == 0)
            snprintf(last, sizeof last, "%s", p);
        else
            last[0] = 0;
        char *args = (char *)skip_ws(p + wl);
        char *fmt = p[wl] == '/' ? p + wl : NULL;
        if (fmt) {
            args = fmt + strcspn(fmt, " \t");
            if (*args)
                *args++ = 0;
            args = (char *)skip_ws(args);
        }
        uint64_t n = 1;
        const char *ap = args;
        if (strcmp(word, "step") == 0 || strcmp(word, "s") == 0 || strcmp(word, "next") == 0 ||
            strcmp(word, "n") == 0) {
            if (*args && (parse_uint(&ap, &n) || n == 0)) {
                printf("usage: %s [N]\n", word);
                continue;
            }
            uint32_t wv;
            gfx_wave *w = selected_wave(d, &wv, 1);
            if (w) {
                uint64_t st;
                gfx_wave_snapshot *snap = malloc(sizeof *snap);
                st = snap && gfx_wave_snapshot_get(w, snap) == GFX_OK ? snap->state : 0;
                free(snap);
                if (st == GFX_WAVE_DONE || st == GFX_WAVE_FAULT) {
                    printf("wave %u has %s: select another with `wave`, or continue\n", wv,
                           st == GFX_WAVE_DONE ? "ended" : "faulted");
                    continue;
                }
                if (st == GFX_WAVE_BARRIER)
                    printf("wave %u waits at a barrier: the other waves run until it opens\n", wv);
            }
            return (gfx_resume){word[0] == 's' ? GFX_RESUME_STEP : GFX_RESUME_NEXT, n};
        } else if (strcmp(word, "continue") == 0 || strcmp(word, "c") == 0) {
            return (gfx_resume){GFX_RESUME_CONTINUE, 0};
        } else if (strcmp(word, "quit") == 0 || strcmp(word, "q") == 0 ||
                   strcmp(word, "kill") == 0) {
            return (gfx_resume){GFX_RESUME_KILL, 0};
        } else if (strcmp(word, "help") == 0 || strcmp(word, "h") == 0) {
            fputs(help_text, stdout);
        } else if (strcmp(word, "break") == 0 || strcmp(word, "b") == 0) {
            cmd_break(d, args);
        } else if (strcmp(word, "watch") == 0) {
            uint64_t addr, size = 4;
            if (parse_uint(&ap, &addr) || (*skip_ws(ap) && parse_uint(&ap, &size)) || size < 1 ||
                size > 8) {
                printf("usage: watch ADDR [BYTES 1..8]\n");
                continue;
            }
            int id;
            gfx_debug_watch(d->s, addr, (uint32_t)size, &id);
            printf("Watchpoint %d: %llu bytes at 0x%llx\n", id, (unsigned long long)size,
                   (unsigned long long)addr);
            remember(d, id, "watchpoint on %llu bytes at 0x%llx", (unsigned long long)size,
                     (unsigned long long)addr);
        } else if (strcmp(word, "delete") == 0 || strcmp(word, "d") == 0) {
            uint64_t id = 0;
            if (*args && parse_uint(&ap, &id)) {
                printf("usage: delete [N]\n");
                continue;
            }
            if (gfx_debug_delete(d->s, (int)id) != GFX_OK) {
                printf("no breakpoint or watchpoint %llu\n", (unsigned long long)id);
                continue;
            }
            forget(d, (int)id);
            printf(id ? "deleted %llu\n" : "deleted all breakpoints and watchpoints\n",
                   (unsigned long long)id);
        } else if (strcmp(word, "info") == 0) {
            if (!*args || strncmp(args, "breakpoints", strlen(args)) == 0)
                cmd_info_breaks(d);
            else if (strncmp(args, "kernel", strlen(args)) == 0)
                cmd_info_kernel(d);
            else
                printf("info: unknown subject '%s' (info breakpoints, info kernel)\n", args);
        } else if (strcmp(word, "wave") == 0) {
            char *wgs = strtok(args, " \t"), *ws = strtok(NULL, " \t");
            uint32_t wg[3];
            const char *wp = ws;
            uint64_t wv;
            if (!wgs || !ws || parse_wg(wgs, wg) || parse_uint(&wp, &wv) || *wp) {
                printf("usage: wave X[,Y,Z] N\n");
                continue;
            }
            if (gfx_debug_select(d->s, wg, (uint32_t)wv) != GFX_OK) {
                printf("no wave %llu in workgroup (%u,%u,%u) that is running or still to run\n",
                       (unsigned long long)wv, wg[0], wg[1], wg[2]);
                continue;
            }
            show_location(d);
        } else if (strcmp(word, "waves") == 0) {
            cmd_waves(d);
        } else if (strcmp(word, "args") == 0) {
            for (size_t i = 0; i < d->p->nbufs; i++)
                printf("argument %zu: %s, %llu bytes at 0x%llx\n", d->p->bufs[i].arg,
                       d->p->bufs[i].spec, (unsigned long long)d->p->bufs[i].size,
                       (unsigned long long)d->p->bufs[i].addr);
            if (!d->p->nbufs)
                printf("no buffer arguments\n");
        } else if (strcmp(word, "bt") == 0 || strcmp(word, "where") == 0) {
            cmd_bt(d);
        } else if (strcmp(word, "regs") == 0) {
            cmd_regs(d);
        } else if (strcmp(word, "p") == 0 || strcmp(word, "print") == 0) {
            gfx_wave *w = selected(d, NULL);
            char f = fmt && fmt[1] ? fmt[1] : 'x';
            if (!strchr("xduf", f))
                printf("p: format /%c is not one of /x /d /u /f\n", f);
            else if (w)
                cmd_print(d, w, args, f);
        } else if (strcmp(word, "set") == 0) {
            gfx_wave *w = selected(d, NULL);
            if (w)
                cmd_set(d, w, args);
        } else if (strcmp(word, "x") == 0) {
            cmd_x(d, fmt, args);
        } else if (strcmp(word, "lds") == 0) {
            cmd_lds(d, args);
        } else if (strcmp(word, "disas") == 0 || strcmp(word, "disassemble") == 0) {
            uint64_t k = 5;
            if (*args && parse_uint(&ap, &k)) {
                printf("usage: disas [N]\n");
                continue;
            }
            gfx_wave *w = selected(d, NULL);
            if (w)
                listing(stdout, d, get(w, GFX_REG_PC, 0, 0), (size_t)k, (size_t)k);
        } else {
            printf("unknown command '%s' (try help)\n", p);
        }
    }
}

static gfx_resume handler(gfx_debug_session *s, const gfx_stop *st, void *user) {
    dbg *d = user;
    d->s = s;
    char sym[160];
    switch (st->reason) {
    case GFX_STOP_ENTRY: printf("Stopped at the kernel entry.\n"); break;
    case GFX_STOP_BREAKPOINT:
        printf("Breakpoint %d (hit %llu) at 0x%llx %s\n", st->id, (unsigned long long)st->hits,
               (unsigned long long)st->pc, where(d, st->pc, sym, sizeof sym));
        break;
    case GFX_STOP_WATCH:
        printf("Watchpoint %d: %u bytes at 0x%llx changed from 0x%llx to 0x%llx\n", st->id,
               st->size, (unsigned long long)st->addr, (unsigned long long)st->old_value,
               (unsigned long long)st->new_value);
        break;
    case GFX_STOP_FAULT: {
        gfx_fault f;
        if (gfx_debug_fault(s, &f) == GFX_OK)
            fault_report(stdout, d, &f);
        printf("(the launch ends when you continue)\n");
        break;
    }
    case GFX_STOP_INTERRUPT: printf("Interrupted.\n"); break;
    case GFX_STOP_STEP: break;
    }
    if (st->reason != GFX_STOP_FAULT)
        show_location(d);
    if (d->eof)
        return (gfx_resume){GFX_RESUME_CONTINUE, 0};
    return repl(d);
}

/* Ctrl-C stops the kernel at its next instruction instead of ending gfxemu. */
static gfx_debug_session *interrupt_target;
static void on_sigint(int sig) {
    (void)sig;
    gfx_debug_interrupt(interrupt_target);
}

gfx_result cli_debug(gfx_debug_session *s, const cli_program *p, FILE *in, const uint32_t grid[3],
                     const uint32_t block[3], const void *kernargs, size_t kernarg_size,
                     const gfx_launch_options *opts, gfx_stats *stats) {
    dbg d;
    memset(&d, 0, sizeof d);
    load_code(&d, p);
    d.in = in;
    d.tty = isatty(fileno(in));
    d.s = s;
    memcpy(d.grid, grid, sizeof d.grid);
    memcpy(d.block, block, sizeof d.block);
#ifdef GFXEMU_HAVE_LIBEDIT
    if (d.tty)
        edit_setup(&d);
#endif
    gfx_kernel_info ki;
    gfx_kernel_get_info(p->k, &ki);
    uint64_t waves = ((uint64_t)block[0] * block[1] * block[2] + 63) / 64;
    printf("gfxemu debug: kernel %s (entry 0x%llx), grid %ux%ux%u workgroups of %ux%ux%u "
           "work-items (%llu wave%s each). Type 'help' for commands.\n",
           ki.name, (unsigned long long)ki.entry, grid[0], grid[1], grid[2], block[0], block[1],
           block[2], (unsigned long long)waves, waves == 1 ? "" : "s");
    gfx_debug_set_handler(s, handler, &d, 1);
    struct sigaction sa, old;
    memset(&sa, 0, sizeof sa);
    sa.sa_handler = on_sigint;
    sa.sa_flags = SA_RESTART;
    sigemptyset(&sa.sa_mask);
    interrupt_target = s;
    sigaction(SIGINT, &sa, &old);
    gfx_result r = gfx_debug_launch(s, p->k, grid, block, kernargs, kernarg_size, opts, stats);
    sigaction(SIGINT, &old, NULL);
    interrupt_target = NULL;
    if (r == GFX_OK)
        printf("The kernel finished: %llu wave-instructions.\n",
               (unsigned long long)stats->wave_insts);
    else if (r == GFX_ERR_STOPPED)
        printf("The launch was abandoned.\n");
    free(d.syms);
    fflush(stdout);
    return r;
}
