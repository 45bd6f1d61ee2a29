/* source.c - assemble a source file: labels, sections, data directives, expressions, and the
 * AMDHSA directives clang-22 -S writes (.amdhsa_kernel blocks -> kernel descriptors,
 * .amdgpu_metadata YAML -> msgpack note, .amdgcn_target -> e_flags).
 *
 * Two passes over the text.  Pass 1 sizes everything (symbol operands get placeholders, every
 * instruction's size is recorded); the writer's layout then fixes the addresses of every
 * section; pass 2 encodes with the real values and checks that no size changed.  Pointers in
 * .data/.data.rel.ro become R_AMDGPU_RELATIVE64 relocations (their count sizes .rela.dyn, so a
 * pass 2 that finds another count than the layout assumed is run again).  Instruction
 * operands that name symbols are evaluated here and handed to the instruction encoder as numbers:
 * a branch target becomes its SIMM16 word offset (range-checked), any other symbol expression a
 * forced literal (lit(...)), as llvm-mc encodes a fixup.
 */
#include "asm/as.h"

#include <ctype.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* ---- state ---------------------------------------------------------------------------------- */

typedef struct {
    uint8_t *p;
    size_t n, cap;
    unsigned align;
} sbuf;

typedef struct {
    char *name;
    int defined;
    int sec;      /* AS_SEC_*, or -1 for an absolute (.set) value */
    uint64_t off; /* offset, or the absolute value */
    uint64_t size;
    int global, is_func, is_object;
} sym;

/* .amdhsa_kernel fields: name -> value, collected until .end_amdhsa_kernel. */
typedef struct {
    char name[48];
    int64_t v;
} kfield;

typedef struct {
    isa_arch arch;
    isa_asm *enc;
    int pass, raw;
    int line, col;
    char *err;
    size_t errsz;
    int failed;
    sbuf sec[AS_NSEC + 1];
    int cur;
    sym *syms;
    size_t nsyms, capsyms;
    size_t *symtab, symcap;     /* find_sym's hash table: index + 1 into syms (0: empty slot) */
    uint64_t base[AS_NSEC + 1]; /* section addresses (pass 2) */
    as_reloc *rel;              /* pass 2: pointers in program-scope data */
    size_t nrel, caprel;
    size_t *got; /* .got: the index in syms of each slot's symbol, in order of first use */
    size_t ngot, capgot;
    int cov;
    uint32_t feat; /* xnack/sramecc e_flags bits */
    /* per-line facts from pass 1 */
    uint8_t *is_branch;
    size_t nlines;
    /* .amdhsa_kernel */
    int in_kernel;
    char kname[256];
    kfield kf[64];
    int nkf;
    /* .amdgpu_metadata */
    int in_meta;
    char *yaml;
    size_t yaml_n, yaml_cap;
    uint8_t *meta;
    size_t meta_n;
} st;

static void fail(st *s, int col, const char *fmt, ...) __attribute__((format(printf, 3, 4)));
static void fail(st *s, int col, const char *fmt, ...) {
    if (s->failed)
        return;
    s->failed = 1;
    char m[256];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(m, sizeof m, fmt, ap);
    va_end(ap);
    snprintf(s->err, s->errsz, "%d:%d: %s", s->line, col + 1, m);
}

static int grow(sbuf *b, size_t add) {
    if (b->n + add <= b->cap)
        return 1;
    size_t c = b->cap ? b->cap : 4096;
    while (c < b->n + add)
        c *= 2;
    uint8_t *p = realloc(b->p, c);
    if (!p)
        return 0;
    b->p = p;
    b->cap = c;
    return 1;
}

static void emit(st *s, const void *d, size_t n) {
    sbuf *b = &s->sec[s->cur];
    if (s->cur == AS_SEC_NONE) {
        b->n += n; /* sections we do not write (.AMDGPU.csdata, ...) only count */
        return;
    }
    if (s->cur == AS_SEC_BSS)
        for (size_t i = 0; i < n; i++)
            if (((const uint8_t *)d)[i]) {
                fail(s, 0,
                     ".bss holds only zeros (zero-initialised data has no bytes in the "
                     "file); put initialised data in .data");
                return;
            }
    if (!grow(b, n)) {
        fail(s, 0, "out of memory");
        return;
    }
    memcpy(b->p + b->n, d, n);
    b->n += n;
}

/* Symbols are found through an open-addressing hash table (linear probing, at most half full)
 * of indexes into syms: compiler output has thousands of labels, and a linear search for every
 * symbolic operand was half of `gfxemu as`'s time on a 700 KB file.  FNV-1a hash. */
static size_t sym_hash(const char *name, size_t len) {
    uint64_t h = 0xcbf29ce484222325ull;
    for (size_t i = 0; i < len; i++)
        h = (h ^ (uint8_t)name[i]) * 0x100000001b3ull;
    return (size_t)h;
}

static sym *find_sym(st *s, const char *name, size_t len) {
    if (!s->symcap)
        return NULL;
    for (size_t h = sym_hash(name, len) & (s->symcap - 1);; h = (h + 1) & (s->symcap - 1)) {
        size_t i = s->symtab[h];
        if (!i)
            return NULL;
        const char *n = s->syms[i - 1].name;
        if (!strncmp(n, name, len) && !n[len])
            return &s->syms[i - 1];
    }
}

static void put_sym(st *s, size_t i) {
    const char *n = s->syms[i].name;
    size_t h = sym_hash(n, strlen(n)) & (s->symcap - 1);
    while (s->symtab[h])
        h = (h + 1) & (s->symcap - 1);
    s->symtab[h] = i + 1;
}

/* Enter syms[i], the newest symbol, in the table, first growing it to keep it at most half
 * full.  0: out of memory. */
static int index_sym(st *s, size_t i) {
    if (2 * s->nsyms > s->symcap) {
        size_t cap = s->symcap ? 2 * s->symcap : 256;
        size_t *t = calloc(cap, sizeof *t);
        if (!t)
            return 0;
        free(s->symtab);
        s->symtab = t;
        s->symcap = cap;
        for (size_t k = 0; k < i; k++)
            put_sym(s, k);
    }
    put_sym(s, i);
    return 1;
}

static sym *get_sym(st *s, const char *name, size_t len) {
    sym *y = find_sym(s, name, len);
    if (y)
        return y;
    if (s->nsyms == s->capsyms) {
        size_t c = s->capsyms ? s->capsyms * 2 : 64;
        sym *n = realloc(s->syms, c * sizeof *n);
        if (!n)
            return NULL;
        s->syms = n;
        s->capsyms = c;
    }
    y = &s->syms[s->nsyms++];
    memset(y, 0, sizeof *y);
    y->name = malloc(len + 1);
    if (!y->name) {
        s->nsyms--;
        return NULL;
    }
    memcpy(y->name, name, len);
    y->name[len] = 0;
    y->sec = AS_SEC_NONE;
    if (!index_sym(s, s->nsyms - 1)) {
        free(y->name);
        s->nsyms--;
        return NULL;
    }
    return y;
}

static void define(st *s, const char *name, size_t len, int col) {
    sym *y = get_sym(s, name, len);
    if (!y) {
        fail(s, col, "out of memory");
        return;
    }
    if (s->pass == 1 && y->defined) {
        fail(s, col, "symbol '%s' is already defined", y->name);
        return;
    }
    y->defined = 1;
    y->sec = s->cur;
    y->off = s->sec[s->cur].n;
}

/* ---- expressions ---------------------------------------------------------------------------- */

typedef struct {
    st *s;
    const char *p, *start;
    int col0;
    uint64_t pc; /* address of the fixup (for @rel32) */
    int reloc;   /* a section symbol was used */
    int rel;     /* @rel32@lo (1) / @rel32@hi (2): the expression is S + A - P, then a half */
    int unresolved;
    int bad;
} ex;

static int is_ident0(int c) { return isalpha(c) || c == '_' || c == '.' || c == '$'; }
static int is_ident(int c) { return isalnum(c) || c == '_' || c == '.' || c == '$'; }

static void sp(ex *e) {
    while (*e->p == ' ' || *e->p == '\t')
        e->p++;
}

static int64_t ex_or(ex *e);

/* The .got slot of symbol y, made on first use; SIZE_MAX when out of memory. */
static size_t got_slot(st *s, const sym *y) {
    size_t at = (size_t)(y - s->syms);
    for (size_t i = 0; i < s->ngot; i++)
        if (s->got[i] == at)
            return i;
    if (s->ngot == s->capgot) {
        size_t c = s->capgot ? 2 * s->capgot : 8;
        size_t *g = realloc(s->got, c * sizeof *g);
        if (!g)
            return SIZE_MAX;
        s->got = g;
        s->capgot = c;
    }
    s->got[s->ngot] = at;
    return s->ngot++;
}

static int64_t ex_primary(ex *e) {
    sp(e);
    if (*e->p == '(') {
        e->p++;
        int64_t v = ex_or(e);
        sp(e);
        if (*e->p != ')') {
            e->bad = 1;
            return 0;
        }
        e->p++;
        return v;
    }
    if (*e->p == '-') {
        e->p++;
        return -ex_primary(e);
    }
    if (*e->p == '~') {
        e->p++;
        return ~ex_primary(e);
    }
    if (*e->p == '+') {
        e->p++;
        return ex_primary(e);
    }
    if (isdigit((unsigned char)*e->p)) {
        char *end;
        uint64_t v = strtoull(e->p, &end, 0);
        e->p = end;
        return (int64_t)v;
    }
    if (is_ident0((unsigned char)*e->p)) {
        const char *b = e->p;
        while (is_ident((unsigned char)*e->p))
            e->p++;
        size_t len = (size_t)(e->p - b);
        int rel = 0, got = 0;
        if (!strncmp(e->p, "@rel32@lo", 9))
            rel = 1, e->p += 9;
        else if (!strncmp(e->p, "@rel32@hi", 9))
            rel = 2, e->p += 9;
        else if (!strncmp(e->p, "@gotpcrel32@lo", 14))
            rel = 1, got = 1, e->p += 14;
        else if (!strncmp(e->p, "@gotpcrel32@hi", 14))
            rel = 2, got = 1, e->p += 14;
        else if (*e->p == '@') {
            e->bad = 1; /* other specifiers (@abs32, @gotpcrel without 32) are not supported */
            return 0;
        }
        sym *y = find_sym(e->s, b, len);
        /* sym@gotpcrel32: PC-relative to the symbol's .got slot, which holds its address
         * (clang's access to a global that could be preempted; lld fills the slot) */
        size_t slot = got && y ? got_slot(e->s, y) : 0; /* made in pass 0 */
        if (slot == SIZE_MAX) {
            e->bad = 1;
            return 0;
        }
        if (!y || !y->defined) {
            e->unresolved = 1;
            return 0;
        }
        int64_t v;
        if (got) {
            v = (int64_t)(e->s->base[AS_SEC_GOT] + 8 * slot);
            e->reloc = 1;
        } else if (y->sec < 0) {
            v = (int64_t)y->off;
        } else {
            v = (int64_t)(e->s->base[y->sec] + y->off);
            e->reloc = 1;
        }
        if (rel) {
            /* S - P here; the addend (the rest of the expression, "sym@rel32@hi+12") is added
             * before eval() takes the low or high half, as the fixup does */
            v -= (int64_t)e->pc;
            e->rel = rel;
        }
        return v;
    }
    e->bad = 1;
    return 0;
}

static int64_t ex_mul(ex *e) {
    int64_t v = ex_primary(e);
    for (;;) {
        sp(e);
        char c = *e->p;
        if (c != '*' && c != '/' && c != '%')
            return v;
        e->p++;
        int64_t r = ex_primary(e);
        if (c == '*')
            v *= r;
        else if (r == 0) {
            if (!e->unresolved)
                e->bad = 1;
            v = 0;
        } else
            v = c == '/' ? v / r : v % r;
    }
}

static int64_t ex_add(ex *e) {
    int64_t v = ex_mul(e);
    for (;;) {
        sp(e);
        char c = *e->p;
        if (c != '+' && c != '-')
            return v;
        e->p++;
        int64_t r = ex_mul(e);
        v = c == '+' ? v + r : v - r;
    }
}

static int64_t ex_shift(ex *e) {
    int64_t v = ex_add(e);
    for (;;) {
        sp(e);
        if (!strncmp(e->p, "<<", 2)) {
            e->p += 2;
            v = (int64_t)((uint64_t)v << (ex_add(e) & 63));
        } else if (!strncmp(e->p, ">>", 2)) {
            e->p += 2;
            v >>= ex_add(e) & 63;
        } else
            return v;
    }
}

static int64_t ex_or(ex *e) {
    int64_t v = ex_shift(e);
    for (;;) {
        sp(e);
        char c = *e->p;
        if ((c != '&' && c != '|' && c != '^') || e->p[1] == c)
            return v;
        e->p++;
        int64_t r = ex_shift(e);
        v = c == '&' ? v & r : c == '|' ? v | r : v ^ r;
    }
}

/* Evaluate a whole expression string.  Returns 0 on a syntax error. */
static int eval(st *s, const char *txt, uint64_t pc, int64_t *v, int *reloc, int *unresolved) {
    ex e = {s, txt, txt, 0, pc, 0, 0, 0, 0};
    *v = ex_or(&e);
    if (e.rel == 1)
        *v = (int64_t)(uint32_t)*v;
    else if (e.rel == 2)
        *v = (int64_t)(uint32_t)((uint64_t)*v >> 32);
    sp(&e);
    if (*e.p || e.bad)
        return 0;
    if (reloc)
        *reloc = e.reloc;
    if (unresolved)
        *unresolved = e.unresolved;
    return 1;
}

/* ---- instruction lines ---------------------------------------------------------------------- */

/* Whether an operand names a symbol (rather than a register, constant or keyword). */
static int operand_is_symbolic(st *s, const char *op, size_t n) {
    if (memchr(op, '@', n))
        return 1;
    size_t i = 0;
    while (i < n && (op[i] == '(' || op[i] == '-' || op[i] == ' '))
        i++;
    size_t b = i;
    if (i >= n || !is_ident0((unsigned char)op[i]))
        return 0;
    while (i < n && is_ident((unsigned char)op[i]))
        i++;
    sym *y = find_sym(s, op + b, i - b);
    return y != NULL;
}

/* Rewrite an instruction's symbolic operands: mode 0 puts "0" in their place, mode 1
 * "lit(0)" (pass 1 sizing), mode 2 their values (a branch's word offset, or a literal).
 * Returns 0 after fail(); *symbolic says whether any operand was rewritten. */
static int subst(st *s, const char *text, int col, int mode, int branch, char *out, size_t outsz,
                 int *symbolic) {
    size_t on = 0;
    const char *p = text;
    while (*p && !isspace((unsigned char)*p))
        p++;
    if ((size_t)(p - text) >= outsz - 1) {
        fail(s, col, "instruction too long");
        return 0;
    }
    memcpy(out, text, (size_t)(p - text));
    on = (size_t)(p - text);
    uint64_t pc = s->base[s->cur] + s->sec[s->cur].n;
    *symbolic = 0;
    const char *seg = p;
    int depth = 0;
    for (const char *c = p;; c++) {
        if (*c == '(' || *c == '[')
            depth++;
        else if (*c == ')' || *c == ']')
            depth--;
        if (*c && !(*c == ',' && depth == 0))
            continue;
        /* operand = seg..c (the last one may carry modifiers after a space) */
        const char *a = seg, *z = c;
        while (a < z && isspace((unsigned char)*a))
            a++;
        const char *opend = z;
        if (!*c) {
            const char *q = a;
            int d = 0;
            while (q < z && (d || !isspace((unsigned char)*q))) {
                if (*q == '(' || *q == '[')
                    d++;
                else if (*q == ')' || *q == ']')
                    d--;
                q++;
            }
            opend = q;
        }
        char piece[512], rep[64];
        size_t pl = (size_t)(opend - a);
        /* what goes out for seg..z: seg itself, or (symbolic) the spaces before the operand,
         * its replacement and what follows it (modifiers) */
        const char *part[3] = {seg, "", ""};
        size_t plen[3] = {(size_t)(z - seg), 0, 0};
        if (pl && pl < sizeof piece && operand_is_symbolic(s, a, pl)) {
            memcpy(piece, a, pl);
            piece[pl] = 0;
            *symbolic = 1;
            if (mode == 0) {
                snprintf(rep, sizeof rep, "0");
            } else if (mode == 1) {
                snprintf(rep, sizeof rep, "%s", branch ? "0" : "lit(0x0)");
            } else {
                int64_t v;
                int reloc = 0, unres = 0;
                /* a literal follows the first instruction dword: that is the fixup's address */
                if (!eval(s, piece, pc + 4, &v, &reloc, &unres)) {
                    fail(s, (int)(a - text) + col, "bad expression '%s'", piece);
                    return 0;
                }
                if (unres) {
                    fail(s, (int)(a - text) + col, "undefined symbol in '%s'", piece);
                    return 0;
                }
                if (branch) {
                    int64_t d = v - (int64_t)(pc + 4);
                    if (d % 4) {
                        fail(s, (int)(a - text) + col, "branch target '%s' is not 4-byte aligned",
                             piece);
                        return 0;
                    }
                    d /= 4;
                    if (d < -32768 || d > 32767) {
                        fail(s, (int)(a - text) + col,
                             "branch target '%s' out of range (%lld words away; SIMM16 reaches "
                             "-32768..32767)",
                             piece, (long long)d);
                        return 0;
                    }
                    snprintf(rep, sizeof rep, "%lld", (long long)d);
                } else if (reloc) {
                    snprintf(rep, sizeof rep, "lit(0x%x)", (uint32_t)v);
                } else {
                    snprintf(rep, sizeof rep, "%lld", (long long)v);
                }
            }
            plen[0] = (size_t)(a - seg);
            part[1] = rep;
            plen[1] = strlen(rep);
            part[2] = opend;
            plen[2] = (size_t)(z - opend);
        }
        if (on + plen[0] + plen[1] + plen[2] + 2 >= outsz) {
            fail(s, col, "instruction too long");
            return 0;
        }
        if (seg != p)
            out[on++] = ',';
        for (int i = 0; i < 3; i++) {
            memcpy(out + on, part[i], plen[i]);
            on += plen[i];
        }
        if (!*c)
            break;
        seg = c + 1;
    }
    out[on] = 0;
    return 1;
}

static void do_inst(st *s, const char *text, int col) {
    char out[1024];
    int symbolic;
    uint8_t b[16];
    isa_asm_error e;
    size_t n;
    int branch = (size_t)s->line < s->nlines && s->is_branch[s->line];
    if (s->pass == 1) {
        /* size it: a symbol operand of a branch is its 16-bit offset, anything else a literal */
        if (!subst(s, text, col, 0, 0, out, sizeof out, &symbolic))
            return;
        n = isa_asm_inst(s->enc, out, b, &e);
        if (n && symbolic) {
            isa_inst in;
            if (isa_decode(s->arch, b, n, &in) &&
                (in.fmt == ISA_FMT_SOPP || in.fmt == ISA_FMT_SOPK) && in.f.s.is_branch) {
                if ((size_t)s->line < s->nlines)
                    s->is_branch[s->line] = 1;
            } else {
                if (!subst(s, text, col, 1, 0, out, sizeof out, &symbolic))
                    return;
                n = isa_asm_inst(s->enc, out, b, &e);
            }
        }
    } else {
        if (!subst(s, text, col, 2, branch, out, sizeof out, &symbolic))
            return;
        n = isa_asm_inst(s->enc, out, b, &e);
    }
    if (!n) {
        /* columns are exact unless operands were rewritten: then point at the instruction */
        const char *o = e.col >= 0 && (size_t)e.col < strlen(text) ? text + e.col : "";
        size_t il = 0;
        while (is_ident((unsigned char)o[il]))
            il++;
        if (symbolic) /* columns do not survive the rewrite: show what was encoded */
            fail(s, col, "%s (as '%s')", e.msg, out);
        else if (il && is_ident0((unsigned char)o[0]) &&
                 (!o[il] || o[il] == ',' || isspace((unsigned char)o[il])) &&
                 strstr(e.msg, "immediate"))
            fail(s, col + e.col, "undefined symbol '%.*s' (%s)", (int)il, o, e.msg);
        else
            fail(s, col + e.col, "%s", e.msg);
        return;
    }
    if (s->cur == AS_SEC_NONE) {
        fail(s, col, "instruction outside .text");
        return;
    }
    emit(s, b, n);
}

/* ---- YAML metadata -> msgpack ---------------------------------------------------------------- */

/* The subset of YAML LLVM writes for code-object metadata: block maps and sequences by
 * indentation, plain/quoted scalars.  Types as LLVM's msgpack document reads them: integers,
 * booleans (true/false), everything else a string. */
typedef struct ynode {
    int kind; /* 0 scalar, 1 map, 2 seq */
    char *text;
    struct ynode **kids; /* map: key,value pairs */
    size_t nk;
} ynode;

typedef struct {
    char **ln;
    int *ind;
    size_t n, i;
    int bad;
} yp;

static void yfree(ynode *n) {
    if (!n)
        return;
    for (size_t i = 0; i < n->nk; i++)
        yfree(n->kids[i]);
    free(n->kids);
    free(n->text);
    free(n);
}

static ynode *ynew(int kind, const char *t, size_t len) {
    ynode *n = calloc(1, sizeof *n);
    if (!n)
        return NULL;
    n->kind = kind;
    if (t) {
        n->text = malloc(len + 1);
        if (n->text) {
            memcpy(n->text, t, len);
            n->text[len] = 0;
        }
    }
    return n;
}

static void yadd(ynode *p, ynode *k, yp *y) {
    ynode **n = realloc(p->kids, (p->nk + 1) * sizeof *n);
    if (!n || !k) {
        y->bad = 1;
        yfree(k);
        return;
    }
    p->kids = n;
    p->kids[p->nk++] = k;
}

static ynode *yparse(yp *y, int ind);

/* A YAML flow node ("[1, 2]", "{ .name: out, .size: 8 }", a plain or quoted scalar) starting
 * at *t, up to end; *t moves past it.  Hand-written metadata often uses flow style; clang writes
 * block style. */
static ynode *yflow(yp *y, const char **t, const char *end) {
    const char *c = *t;
    while (c < end && *c == ' ')
        c++;
    if (c < end && (*c == '[' || *c == '{')) {
        char close = *c == '[' ? ']' : '}';
        ynode *n = ynew(*c == '[' ? 2 : 1, NULL, 0);
        if (!n) {
            y->bad = 1;
            return NULL;
        }
        c++;
        for (;;) {
            while (c < end && *c == ' ')
                c++;
            if (c >= end) {
                y->bad = 1;
                break;
            }
            if (*c == close) {
                c++;
                break;
            }
            if (close == '}') { /* key: value */
                const char *k = c;
                while (c < end && !(*c == ':' && (c + 1 >= end || c[1] == ' ')) && *c != close)
                    c++;
                if (c >= end || *c != ':') {
                    y->bad = 1;
                    break;
                }
                size_t kl = (size_t)(c - k);
                while (kl && k[kl - 1] == ' ')
                    kl--;
                yadd(n, ynew(0, k, kl), y);
                c++;
            }
            yadd(n, yflow(y, &c, end), y);
            while (c < end && *c == ' ')
                c++;
            if (c < end && *c == ',')
                c++;
        }
        *t = c;
        return n;
    }
    const char *b = c;
    if (c < end && (*c == '\'' || *c == '"')) {
        char q = *c++;
        while (c < end && (*c != q || (q == '\'' && c + 1 < end && c[1] == q && c++)))
            c++;
        c += c < end;
    } else {
        while (c < end && *c != ',' && *c != ']' && *c != '}')
            c++;
    }
    size_t l = (size_t)(c - b);
    while (l && isspace((unsigned char)b[l - 1]))
        l--;
    *t = c;
    return ynew(0, b, l);
}

/* A value after "key: " or "- ": a scalar, or a flow sequence or map. */
static ynode *yscalar(yp *y, const char *t) {
    size_t l = strlen(t);
    while (l && isspace((unsigned char)t[l - 1]))
        l--;
    if (l < 2 || !((t[0] == '[' && t[l - 1] == ']') || (t[0] == '{' && t[l - 1] == '}')))
        return ynew(0, t, l);
    const char *c = t;
    return yflow(y, &c, t + l);
}

/* Parse "key: value" lines at indentation ind into a map; `first` is a line that has had its
 * "- " prefix removed (its content starts at column ind). */
static ynode *ymap(yp *y, int ind, const char *first) {
    ynode *m = ynew(1, NULL, 0);
    if (!m) {
        y->bad = 1;
        return NULL;
    }
    const char *line = first;
    for (;;) {
        if (!line) {
            if (y->i >= y->n || y->ind[y->i] != ind || y->ln[y->i][ind] == '-')
                break;
            line = y->ln[y->i] + ind;
            y->i++;
        }
        const char *c = strstr(line, ":");
        while (c && c[1] && c[1] != ' ')
            c = strstr(c + 1, ":");
        if (!c) {
            y->bad = 1;
            break;
        }
        yadd(m, ynew(0, line, (size_t)(c - line)), y);
        const char *v = c + 1;
        while (*v == ' ')
            v++;
        if (*v)
            yadd(m, yscalar(y, v), y);
        else if (y->i < y->n &&
                 (y->ind[y->i] > ind || (y->ind[y->i] == ind && y->ln[y->i][ind] == '-')))
            yadd(m, yparse(y, y->ind[y->i]), y);
        else
            yadd(m, ynew(0, "", 0), y);
        line = NULL;
    }
    return m;
}

static ynode *yparse(yp *y, int ind) {
    if (y->i >= y->n) {
        y->bad = 1;
        return NULL;
    }
    const char *l = y->ln[y->i] + ind;
    if (l[0] == '-' && (l[1] == ' ' || !l[1])) {
        ynode *s = ynew(2, NULL, 0);
        if (!s) {
            y->bad = 1;
            return NULL;
        }
        while (y->i < y->n && y->ind[y->i] == ind && y->ln[y->i][ind] == '-') {
            const char *item = y->ln[y->i] + ind + 1;
            int sub = ind + 1;
            while (*item == ' ')
                item++, sub++;
            y->i++;
            const char *c = strstr(item, ": ");
            size_t il = strlen(item);
            int is_map = (c || (il && item[il - 1] == ':')) && item[0] != '\'' && item[0] != '"' &&
                         item[0] != '{' && item[0] != '[';
            if (is_map)
                yadd(s, ymap(y, sub, item), y);
            else
                yadd(s, yscalar(y, item), y);
        }
        return s;
    }
    return ymap(y, ind, NULL);
}

static void mp_put(sbuf *b, const void *d, size_t n, int *bad) {
    if (!grow(b, n)) {
        *bad = 1;
        return;
    }
    memcpy(b->p + b->n, d, n);
    b->n += n;
}

static void mp_be(sbuf *b, uint8_t tag, uint64_t v, int bytes, int *bad) {
    uint8_t t[9];
    t[0] = tag;
    for (int i = 0; i < bytes; i++)
        t[1 + i] = (uint8_t)(v >> (8 * (bytes - 1 - i)));
    mp_put(b, t, (size_t)bytes + 1, bad);
}

static void mp_len(sbuf *b, uint8_t fix, uint8_t t16, uint8_t t32, size_t n, unsigned fixmax,
                   int *bad) {
    if (n <= fixmax)
        mp_be(b, (uint8_t)(fix | n), 0, 0, bad);
    else if (n <= 0xffff)
        mp_be(b, t16, n, 2, bad);
    else
        mp_be(b, t32, n, 4, bad);
}

static void mp_str(sbuf *b, const char *s, size_t l, int *bad) {
    if (l < 32)
        mp_be(b, (uint8_t)(0xa0 | l), 0, 0, bad);
    else if (l < 256)
        mp_be(b, 0xd9, l, 1, bad);
    else
        mp_be(b, 0xda, l, 2, bad);
    mp_put(b, s, l, bad);
}

static void mp_node(sbuf *b, const ynode *n, int *bad) {
    if (!n) {
        *bad = 1;
        return;
    }
    if (n->kind == 1) {
        mp_len(b, 0x80, 0xde, 0xdf, n->nk / 2, 15, bad);
        for (size_t i = 0; i < n->nk; i++)
            mp_node(b, n->kids[i], bad);
        return;
    }
    if (n->kind == 2) {
        mp_len(b, 0x90, 0xdc, 0xdd, n->nk, 15, bad);
        for (size_t i = 0; i < n->nk; i++)
            mp_node(b, n->kids[i], bad);
        return;
    }
    const char *t = n->text ? n->text : "";
    size_t l = strlen(t);
    if (l >= 2 && (t[0] == '\'' || t[0] == '"') && t[l - 1] == t[0]) {
        /* quoted: '' is an escaped quote in single-quoted YAML */
        char *u = malloc(l);
        size_t k = 0;
        if (!u) {
            *bad = 1;
            return;
        }
        for (size_t i = 1; i + 1 < l; i++) {
            if (t[0] == '\'' && t[i] == '\'' && t[i + 1] == '\'')
                i++;
            u[k++] = t[i];
        }
        mp_str(b, u, k, bad);
        free(u);
        return;
    }
    if (!strcmp(t, "true") || !strcmp(t, "false")) {
        mp_be(b, t[0] == 't' ? 0xc3 : 0xc2, 0, 0, bad);
        return;
    }
    char *end;
    if (l && (isdigit((unsigned char)t[0]) || (t[0] == '-' && isdigit((unsigned char)t[1])))) {
        long long v = strtoll(t, &end, 0);
        if (!*end) {
            if (v >= 0) {
                uint64_t u = (uint64_t)v;
                if (u < 128)
                    mp_be(b, (uint8_t)u, 0, 0, bad);
                else if (u < 256)
                    mp_be(b, 0xcc, u, 1, bad);
                else if (u < 65536)
                    mp_be(b, 0xcd, u, 2, bad);
                else if (u <= 0xffffffffu)
                    mp_be(b, 0xce, u, 4, bad);
                else
                    mp_be(b, 0xcf, u, 8, bad);
            } else if (v >= -32) {
                mp_be(b, (uint8_t)(int8_t)v, 0, 0, bad);
            } else {
                mp_be(b, 0xd3, (uint64_t)v, 8, bad);
            }
            return;
        }
    }
    mp_str(b, t, l, bad);
}

static void finish_meta(st *s) {
    /* split into lines with their indentation; drop document markers and blank lines */
    yp y = {0};
    char *t = s->yaml;
    size_t cap = 0;
    for (char *l = t; l && *l;) {
        char *nl = strchr(l, '\n');
        if (nl)
            *nl = 0;
        int ind = 0;
        while (l[ind] == ' ')
            ind++;
        if (l[ind] && strcmp(l + ind, "---") && strcmp(l + ind, "...")) {
            if (y.n == cap) {
                cap = cap ? cap * 2 : 256;
                char **a = realloc(y.ln, cap * sizeof *a);
                int *b = realloc(y.ind, cap * sizeof *b);
                if (a)
                    y.ln = a;
                if (b)
                    y.ind = b;
                if (!a || !b) {
                    fail(s, 0, "out of memory");
                    return;
                }
            }
            size_t e = strlen(l);
            while (e && isspace((unsigned char)l[e - 1]))
                l[--e] = 0;
            y.ln[y.n] = l;
            y.ind[y.n++] = ind;
        }
        l = nl ? nl + 1 : NULL;
    }
    ynode *root = y.n ? yparse(&y, y.ind[0]) : NULL;
    sbuf mb = {0};
    int bad = y.bad || !root || y.i != y.n;
    if (!bad)
        mp_node(&mb, root, &bad);
    yfree(root);
    free(y.ln);
    free(y.ind);
    if (bad) {
        free(mb.p);
        fail(s, 0, ".amdgpu_metadata: YAML this assembler does not read (line %zu of the block)",
             y.i + 1);
        return;
    }
    free(s->meta);
    s->meta = mb.p;
    s->meta_n = mb.n;
}

/* ---- kernel descriptor ---------------------------------------------------------------------- */

static int64_t kget(st *s, const char *name, int64_t def) {
    for (int i = 0; i < s->nkf; i++)
        if (!strcmp(s->kf[i].name, name))
            return s->kf[i].v;
    return def;
}

/* Known .amdhsa_ directives (others are rejected as bad directives). */
static const char *const kd_names[] = {"group_segment_fixed_size",
                                       "private_segment_fixed_size",
                                       "kernarg_size",
                                       "user_sgpr_count",
                                       "user_sgpr_private_segment_buffer",
                                       "user_sgpr_dispatch_ptr",
                                       "user_sgpr_queue_ptr",
                                       "user_sgpr_kernarg_segment_ptr",
                                       "user_sgpr_dispatch_id",
                                       "user_sgpr_flat_scratch_init",
                                       "user_sgpr_kernarg_preload_length",
                                       "user_sgpr_kernarg_preload_offset",
                                       "user_sgpr_private_segment_size",
                                       "uses_dynamic_stack",
                                       "enable_private_segment",
                                       "system_sgpr_private_segment_wavefront_offset",
                                       "system_sgpr_workgroup_id_x",
                                       "system_sgpr_workgroup_id_y",
                                       "system_sgpr_workgroup_id_z",
                                       "system_sgpr_workgroup_info",
                                       "system_vgpr_workitem_id",
                                       "next_free_vgpr",
                                       "next_free_sgpr",
                                       "accum_offset",
                                       "reserve_vcc",
                                       "reserve_flat_scratch",
                                       "reserve_xnack_mask",
                                       "float_round_mode_32",
                                       "float_round_mode_16_64",
                                       "float_denorm_mode_32",
                                       "float_denorm_mode_16_64",
                                       "dx10_clamp",
                                       "ieee_mode",
                                       "fp16_overflow",
                                       "tg_split",
                                       "exception_fp_ieee_invalid_op",
                                       "exception_fp_denorm_src",
                                       "exception_fp_ieee_div_zero",
                                       "exception_fp_ieee_overflow",
                                       "exception_fp_ieee_underflow",
                                       "exception_fp_ieee_inexact",
                                       "exception_int_div_zero",
                                       "wavefront_size32",
                                       "named_barrier_count",
                                       "inst_pref_size",
                                       "round_robin_scheduling",
                                       "forward_progress",
                                       "shared_vgpr_count",
                                       "memory_ordered",
                                       "workgroup_processor_mode",
                                       NULL};

/* The 64-byte descriptor of "AMDGPU Usage", "Kernel Descriptor" (code object v3+), GFX9 field
 * rules for gfx90a-class targets (gfx942/gfx950). */
static void emit_kd(st *s, int col) {
    uint8_t kd[64];
    memset(kd, 0, sizeof kd);
    uint32_t v32;
    v32 = (uint32_t)kget(s, "group_segment_fixed_size", 0);
    memcpy(kd + 0, &v32, 4);
    v32 = (uint32_t)kget(s, "private_segment_fixed_size", 0);
    memcpy(kd + 4, &v32, 4);
    v32 = (uint32_t)kget(s, "kernarg_size", 0);
    memcpy(kd + 8, &v32, 4);
    /* entry point: the kernel symbol's address relative to the descriptor's */
    uint64_t kd_addr = s->base[s->cur] + s->sec[s->cur].n;
    sym *k = find_sym(s, s->kname, strlen(s->kname));
    if (s->pass == 2) {
        if (!k || !k->defined || k->sec != AS_SEC_TEXT) {
            fail(s, col, "kernel '%s' has no code label in .text", s->kname);
            return;
        }
        int64_t off = (int64_t)(s->base[AS_SEC_TEXT] + k->off) - (int64_t)kd_addr;
        memcpy(kd + 16, &off, 8);
    }
    /* register counts: VGPRs in granules of 8 (the unified file: AGPRs after accum_offset),
     * SGPRs in granules of 8 including VCC, FLAT_SCRATCH and XNACK_MASK when reserved */
    int64_t nv = kget(s, "next_free_vgpr", 0), acc = kget(s, "accum_offset", 4);
    int64_t vg = nv > acc ? nv : acc;
    if (vg < 1)
        vg = 1;
    /* GFX9 extra SGPRs after the last one used: VCC 2, with FLAT_SCRATCH 4, with XNACK_MASK 6
     * (the three are consecutive, so each includes the one before) */
    int64_t ns = kget(s, "next_free_sgpr", 0);
    if (kget(s, "reserve_xnack_mask", s->feat & 0x300 ? 1 : 0))
        ns += 6;
    else if (kget(s, "reserve_flat_scratch", 1))
        ns += 4;
    else if (kget(s, "reserve_vcc", 1))
        ns += 2;
    if (ns < 1)
        ns = 1;
    uint32_t r1 = 0, r2 = 0, r3 = 0;
    int rdna = isa_targets[s->arch].rdna;
    /* wave32 unless the assembler runs in wave64 mode (llvm-mc's +wavefrontsize64) */
    int64_t w32 = kget(s, "wavefront_size32", rdna && !isa_asm_get_wave64(s->enc));
    if (rdna) {
        /* GFX10+ ("AMDGPU Usage", "compute_pgm_rsrc1"): VGPRs in granules of 8 in wave32 and 4
         * in wave64, no SGPR count; DX10_CLAMP and IEEE_MODE are gone on gfx12; WGP_MODE,
         * MEM_ORDERED and FWD_PROGRESS default to 1 as llvm-mc-22 sets them */
        int64_t nvr = nv < 1 ? 1 : nv, g = w32 ? 8 : 4;
        r1 |= (uint32_t)((nvr + g - 1) / g - 1) & 63;
        if (rdna < 12) {
            r1 |= ((uint32_t)kget(s, "dx10_clamp", 1) & 1) << 21;
            r1 |= ((uint32_t)kget(s, "ieee_mode", 1) & 1) << 23;
        }
        r1 |= ((uint32_t)kget(s, "workgroup_processor_mode", 1) & 1) << 29;
        r1 |= ((uint32_t)kget(s, "memory_ordered", 1) & 1) << 30;
        r1 |= ((uint32_t)kget(s, "forward_progress", 1) & 1) << 31;
        r3 |= (uint32_t)kget(s, "shared_vgpr_count", 0) & 15;
    } else {
        r1 |= (uint32_t)((vg + 7) / 8 - 1) & 63;
        r1 |= ((uint32_t)((ns + 7) / 8 - 1) & 15) << 6;
        r1 |= ((uint32_t)kget(s, "dx10_clamp", 1) & 1) << 21;
        r1 |= ((uint32_t)kget(s, "ieee_mode", 1) & 1) << 23;
    }
    r1 |= ((uint32_t)kget(s, "float_round_mode_32", 0) & 3) << 12;
    r1 |= ((uint32_t)kget(s, "float_round_mode_16_64", 0) & 3) << 14;
    r1 |= ((uint32_t)kget(s, "float_denorm_mode_32", 0) & 3) << 16;
    r1 |= ((uint32_t)kget(s, "float_denorm_mode_16_64", 3) & 3) << 18;
    r1 |= ((uint32_t)kget(s, "fp16_overflow", 0) & 1) << 26;
    /* COMPUTE_PGM_RSRC2.ENABLE_PRIVATE_SEGMENT: .amdhsa_enable_private_segment on gfx940+ (flat
     * scratch is architected), .amdhsa_system_sgpr_private_segment_wavefront_offset before it
     * (the wave's scratch offset SGPR) - "AMDGPU Usage", "Kernel Descriptor" */
    r2 |= (uint32_t)(kget(s, "enable_private_segment", 0) |
                     kget(s, "system_sgpr_private_segment_wavefront_offset", 0)) &
          1;
    /* Without .amdhsa_user_sgpr_count, llvm-mc counts the user SGPRs the block enables
     * ("AMDGPU Usage", "Initial Kernel Execution State": private segment buffer 4, the pointers
     * and dispatch id 2 each, private segment size 1, plus the preloaded kernarg SGPRs). */
    int64_t implied =
        4 * kget(s, "user_sgpr_private_segment_buffer", 0) +
        2 * (kget(s, "user_sgpr_dispatch_ptr", 0) + kget(s, "user_sgpr_queue_ptr", 0) +
             kget(s, "user_sgpr_kernarg_segment_ptr", 0) + kget(s, "user_sgpr_dispatch_id", 0) +
             kget(s, "user_sgpr_flat_scratch_init", 0)) +
        kget(s, "user_sgpr_private_segment_size", 0) +
        kget(s, "user_sgpr_kernarg_preload_length", 0);
    r2 |= ((uint32_t)kget(s, "user_sgpr_count", implied) & 31) << 1;
    r2 |= ((uint32_t)kget(s, "system_sgpr_workgroup_id_x", 1) & 1) << 7;
    r2 |= ((uint32_t)kget(s, "system_sgpr_workgroup_id_y", 0) & 1) << 8;
    r2 |= ((uint32_t)kget(s, "system_sgpr_workgroup_id_z", 0) & 1) << 9;
    r2 |= ((uint32_t)kget(s, "system_sgpr_workgroup_info", 0) & 1) << 10;
    r2 |= ((uint32_t)kget(s, "system_vgpr_workitem_id", 0) & 3) << 11;
    static const char *const exc[] = {"exception_fp_ieee_invalid_op", "exception_fp_denorm_src",
                                      "exception_fp_ieee_div_zero",   "exception_fp_ieee_overflow",
                                      "exception_fp_ieee_underflow",  "exception_fp_ieee_inexact",
                                      "exception_int_div_zero"};
    for (int i = 0; i < 7; i++)
        r2 |= ((uint32_t)kget(s, exc[i], 0) & 1) << (24 + i);
    if (!rdna) { /* ACCUM_OFFSET and TG_SPLIT: gfx90a-class only */
        r3 |= (uint32_t)(acc / 4 - 1) & 63;
        r3 |= ((uint32_t)kget(s, "tg_split", 0) & 1) << 16;
    }
    memcpy(kd + 44, &r3, 4);
    memcpy(kd + 48, &r1, 4);
    memcpy(kd + 52, &r2, 4);
    uint16_t props = 0;
    static const char *const pr[] = {
        "user_sgpr_private_segment_buffer", "user_sgpr_dispatch_ptr", "user_sgpr_queue_ptr",
        "user_sgpr_kernarg_segment_ptr",    "user_sgpr_dispatch_id",  "user_sgpr_flat_scratch_init",
        "user_sgpr_private_segment_size"};
    for (int i = 0; i < 7; i++)
        props |= (uint16_t)(((uint32_t)kget(s, pr[i], 0) & 1) << i);
    props |= (uint16_t)(((uint32_t)w32 & 1) << 10);
    props |= (uint16_t)(((uint32_t)kget(s, "uses_dynamic_stack", 0) & 1) << 11);
    memcpy(kd + 56, &props, 2);
    uint16_t pre =
        (uint16_t)(((uint32_t)kget(s, "user_sgpr_kernarg_preload_length", 0) & 127) |
                   ((uint32_t)kget(s, "user_sgpr_kernarg_preload_offset", 0) & 511) << 7);
    memcpy(kd + 58, &pre, 2);
    char kdname[300];
    snprintf(kdname, sizeof kdname, "%s.kd", s->kname);
    define(s, kdname, strlen(kdname), col);
    sym *y = find_sym(s, kdname, strlen(kdname));
    if (y) {
        y->global = 1;
        y->is_object = 1;
        y->size = 64;
    }
    emit(s, kd, sizeof kd);
}

/* ---- directives ----------------------------------------------------------------------------- */

static int word_is(const char *p, const char *w) {
    size_t l = strlen(w);
    return !strncmp(p, w, l) && (!p[l] || isspace((unsigned char)p[l]));
}

static void align_to(st *s, unsigned a, int fillw, uint64_t fill) {
    sbuf *b = &s->sec[s->cur];
    if (a > b->align)
        b->align = a;
    while (b->n % a) {
        if (fillw == 4 && b->n % 4 == 0 && (b->n + 4) <= ((b->n + a - 1) / a * a)) {
            uint32_t f = (uint32_t)fill;
            emit(s, &f, 4);
        } else {
            uint8_t f = s->cur == AS_SEC_TEXT && fillw == 0 ? 0 : (uint8_t)fill;
            emit(s, &f, 1);
        }
        if (s->failed)
            return;
    }
}

/* Record an R_AMDGPU_RELATIVE64 relocation; returns nonzero after fail(). */
static int push_reloc(st *s, int sec, uint64_t off, uint64_t addend, int col) {
    if (s->nrel == s->caprel) {
        size_t c = s->caprel ? 2 * s->caprel : 16;
        as_reloc *r = realloc(s->rel, c * sizeof *r);
        if (!r) {
            fail(s, col, "out of memory");
            return 1;
        }
        s->rel = r;
        s->caprel = c;
    }
    s->rel[s->nrel++] = (as_reloc){sec, off, addend};
    return 0;
}

/* A data value that is an address in the code object (a pointer in program-scope data) needs
 * a dynamic relocation, since the loader chooses the base.  Found by evaluating again with
 * every section moved: an absolute value (a constant, a difference of two labels) stays, an
 * address moves with its section.  Returns nonzero after fail(). */
static int data_reloc(st *s, const char *t, int64_t v, int size, int col) {
    const uint64_t delta = 1ull << 32;
    uint64_t saved[AS_NSEC];
    memcpy(saved, s->base, sizeof saved);
    for (int i = 0; i < AS_NSEC; i++)
        s->base[i] += delta;
    int64_t v2 = v;
    eval(s, t, s->base[s->cur] + s->sec[s->cur].n, &v2, NULL, NULL);
    memcpy(s->base, saved, sizeof saved);
    if ((uint64_t)(v2 - v) == 0)
        return 0;
    if ((uint64_t)(v2 - v) != delta) {
        fail(s, col, "'%s' is neither a constant nor one address plus a constant", t);
        return 1;
    }
    if (size != 8) {
        fail(s, col, "'%s' is an address: it needs an 8-byte field (.quad), not %d bytes", t, size);
        return 1;
    }
    if (s->cur != AS_SEC_RELRO && s->cur != AS_SEC_DATA) {
        fail(s, col,
             "'%s' is an address: a pointer needs a dynamic relocation, which only writable "
             "data (.data, .data.rel.ro) can take",
             t);
        return 1;
    }
    return push_reloc(s, s->cur, s->sec[s->cur].n, (uint64_t)v, col);
}

/* Comma-separated expression list of a data directive. */
/* The up to three comma-separated operands of .p2align/.balign/.align and .fill/.zero/.space:
 * v[i] keeps the caller's default where the alignment directives leave a field empty
 * (`.p2align 4,,8`); `absolute` (the .fill family) wants every field and no unresolved symbol.
 * Returns the number of fields, or -1 after failing with msg. */
static int expr_list(st *s, char *args, int64_t v[3], int absolute, int col, const char *msg) {
    int n = 0;
    char *p = args;
    while (*p && n < 3) {
        char *e = p + strcspn(p, ",");
        char c = *e;
        *e = 0;
        int unres = 0;
        if ((absolute || *p) && (!eval(s, p, 0, &v[n], NULL, absolute ? &unres : NULL) || unres)) {
            fail(s, col, "%s", msg);
            return -1;
        }
        n++;
        if (!c)
            break;
        *e = c;
        p = e + 1;
    }
    return n;
}

static void data_list(st *s, const char *args, int size, int col) {
    const char *p = args;
    while (*p) {
        const char *e = p;
        int d = 0;
        while (*e && (d || *e != ',')) {
            if (*e == '(')
                d++;
            else if (*e == ')')
                d--;
            e++;
        }
        char t[256];
        size_t l = (size_t)(e - p);
        if (l >= sizeof t) {
            fail(s, col, "expression too long");
            return;
        }
        memcpy(t, p, l);
        t[l] = 0;
        int64_t v;
        int unres = 0;
        if (!eval(s, t, s->base[s->cur] + s->sec[s->cur].n, &v, NULL, &unres)) {
            fail(s, col + (int)(p - args), "bad expression '%s'", t);
            return;
        }
        if (unres && s->pass == 2) {
            fail(s, col + (int)(p - args), "undefined symbol in '%s'", t);
            return;
        }
        if (s->pass == 2 && data_reloc(s, t, v, size, col + (int)(p - args)))
            return;
        uint64_t u = (uint64_t)v;
        emit(s, &u, (size_t)size); /* little-endian host */
        p = *e ? e + 1 : e;
    }
}

static void do_string(st *s, const char *args, int zero, int col) {
    const char *p = args;
    while (*p == ' ')
        p++;
    if (*p != '"') {
        fail(s, col, "expected a string");
        return;
    }
    p++;
    while (*p && *p != '"') {
        uint8_t c = (uint8_t)*p++;
        if (c == '\\' && *p) {
            char e = *p++;
            c = e == 'n' ? '\n' : e == 't' ? '\t' : e == '0' ? 0 : (uint8_t)e;
        }
        emit(s, &c, 1);
    }
    if (zero) {
        uint8_t z = 0;
        emit(s, &z, 1);
    }
}

/* Which output section a section name goes to: ld.lld's default script merges .text.*,
 * .rodata.*, .data.rel.ro.*, .data.* and .bss.* into the section of that name. */
static int section_of(const char *name) {
    static const struct {
        const char *prefix;
        int sec;
    } map[] = {{".text", AS_SEC_TEXT},
               {".rodata", AS_SEC_RODATA},
               {".data.rel.ro", AS_SEC_RELRO},
               {".data", AS_SEC_DATA},
               {".bss", AS_SEC_BSS}};
    for (size_t i = 0; i < sizeof map / sizeof map[0]; i++) {
        size_t l = strlen(map[i].prefix);
        if (!strncmp(name, map[i].prefix, l) && (!name[l] || name[l] == '.'))
            return map[i].sec;
    }
    return AS_SEC_NONE;
}

static void set_section(st *s, const char *name) { s->cur = section_of(name); }

static void parse_target(st *s, const char *t, int col) {
    /* "amdgcn-amd-amdhsa--gfx950[:sramecc+|-][:xnack+|-]" */
    const char *g = strstr(t, "gfx");
    if (!g) {
        fail(s, col, ".amdgcn_target: expected a target such as \"amdgcn-amd-amdhsa--%s\"",
             isa_arch_name(s->arch));
        return;
    }
    size_t l = strcspn(g, ":\"");
    if (strlen(isa_arch_name(s->arch)) != l || strncmp(g, isa_arch_name(s->arch), l)) {
        fail(s, col, ".amdgcn_target %.*s does not match the architecture %s", (int)l, g,
             isa_arch_name(s->arch));
        return;
    }
    /* EF_AMDGPU_FEATURE_XNACK_*_V4 [9:8] and SRAMECC [11:10]: any = 1, off = 2, on = 3 */
    uint32_t x = 0x100, r = 0x400;
    if (strstr(g, "xnack+"))
        x = 0x300;
    else if (strstr(g, "xnack-"))
        x = 0x200;
    if (strstr(g, "sramecc+"))
        r = 0xc00;
    else if (strstr(g, "sramecc-"))
        r = 0x800;
    s->feat = x | r;
}

static void do_directive(st *s, char *d, int col) {
    char *a = d;
    while (*a && !isspace((unsigned char)*a))
        a++;
    char *args = a;
    while (isspace((unsigned char)*args))
        args++;
    if (s->in_kernel) {
        if (word_is(d, ".end_amdhsa_kernel")) {
            s->in_kernel = 0;
            emit_kd(s, col);
            return;
        }
        if (strncmp(d, ".amdhsa_", 8)) {
            fail(s, col, "expected .amdhsa_ directive or .end_amdhsa_kernel");
            return;
        }
        char name[48];
        size_t l = (size_t)(a - d) - 8;
        if (l >= sizeof name)
            l = sizeof name - 1;
        memcpy(name, d + 8, l);
        name[l] = 0;
        int known = 0;
        for (int i = 0; kd_names[i]; i++)
            known |= !strcmp(kd_names[i], name);
        if (!known) {
            fail(s, col, "unknown kernel descriptor directive '.amdhsa_%s'", name);
            return;
        }
        int64_t v;
        int unres = 0;
        if (!eval(s, args, 0, &v, NULL, &unres) || unres) {
            fail(s, (int)(args - d) + col, "expected an absolute expression for .amdhsa_%s", name);
            return;
        }
        if (s->nkf < 64) {
            snprintf(s->kf[s->nkf].name, sizeof s->kf[0].name, "%s", name);
            s->kf[s->nkf++].v = v;
        }
        return;
    }
    if (word_is(d, ".text")) {
        s->cur = AS_SEC_TEXT;
    } else if (word_is(d, ".rodata") || word_is(d, ".data") || word_is(d, ".bss")) {
        s->cur = section_of(d);
    } else if (word_is(d, ".section")) {
        char name[128];
        size_t l = strcspn(args, ", \t");
        if (l >= sizeof name)
            l = sizeof name - 1;
        memcpy(name, args, l);
        name[l] = 0;
        if (name[0] == '"') {
            memmove(name, name + 1, strlen(name));
            name[strcspn(name, "\"")] = 0;
        }
        set_section(s, name);
    } else if (word_is(d, ".p2align") || word_is(d, ".p2alignl") || word_is(d, ".balign") ||
               word_is(d, ".align")) {
        int64_t v[3] = {0, -1, 0};
        int n = expr_list(s, args, v, 0, col, "bad alignment expression");
        if (n < 0)
            return;
        int64_t al = word_is(d, ".balign") ? v[0] : (v[0] < 0 || v[0] > 16 ? -1 : 1LL << v[0]);
        if (al <= 0 || (al & (al - 1))) {
            fail(s, col, "bad alignment");
            return;
        }
        int words = word_is(d, ".p2alignl");
        /* code is padded with s_nop 0 unless a fill value is given (llvm-mc's rule) */
        uint64_t fill = n >= 2 && v[1] >= 0 ? (uint64_t)v[1] : 0;
        if (s->cur == AS_SEC_TEXT && (n < 2 || v[1] < 0))
            words = 1, fill = 0xbf800000u;
        align_to(s, (unsigned)al, words ? 4 : 1, fill);
    } else if (word_is(d, ".byte")) {
        data_list(s, args, 1, col + (int)(args - d));
    } else if (word_is(d, ".short") || word_is(d, ".2byte") || word_is(d, ".hword")) {
        data_list(s, args, 2, col + (int)(args - d));
    } else if (word_is(d, ".long") || word_is(d, ".4byte") || word_is(d, ".int")) {
        data_list(s, args, 4, col + (int)(args - d));
    } else if (word_is(d, ".quad") || word_is(d, ".8byte")) {
        data_list(s, args, 8, col + (int)(args - d));
    } else if (word_is(d, ".fill") || word_is(d, ".zero") || word_is(d, ".space") ||
               word_is(d, ".skip")) {
        int64_t v[3] = {0, 1, 0};
        int is_fill = word_is(d, ".fill");
        int n = expr_list(s, args, v, 1, col, "expected an absolute expression");
        if (n < 0)
            return;
        if (!is_fill) { /* .zero N / .space N[, fill] */
            v[2] = n > 1 ? v[1] : 0;
            v[1] = 1;
        }
        if (v[0] < 0 || v[0] > (1 << 24) || v[1] < 0 || v[1] > 8) {
            fail(s, col, "bad .fill count or size");
            return;
        }
        for (int64_t i = 0; i < v[0]; i++)
            emit(s, &v[2], (size_t)v[1]);
    } else if (word_is(d, ".ascii")) {
        do_string(s, args, 0, col);
    } else if (word_is(d, ".asciz") || word_is(d, ".string")) {
        do_string(s, args, 1, col);
    } else if (word_is(d, ".globl") || word_is(d, ".global") || word_is(d, ".protected") ||
               word_is(d, ".weak")) {
        sym *y = get_sym(s, args, strcspn(args, " \t,"));
        if (y && !word_is(d, ".protected"))
            y->global = 1;
    } else if (word_is(d, ".type")) {
        size_t l = strcspn(args, " \t,");
        sym *y = get_sym(s, args, l);
        if (y && strstr(args + l, "function"))
            y->is_func = 1;
        else if (y && strstr(args + l, "object"))
            y->is_object = 1;
    } else if (word_is(d, ".size")) {
        size_t l = strcspn(args, " \t,");
        sym *y = get_sym(s, args, l);
        char *e = strchr(args, ',');
        int64_t v;
        int unres = 0;
        if (!e || !eval(s, e + 1, 0, &v, NULL, &unres)) {
            fail(s, col, ".size: expected a symbol and an expression");
            return;
        }
        if (y && !unres)
            y->size = (uint64_t)v;
    } else if (word_is(d, ".set") || word_is(d, ".equ")) {
        size_t l = strcspn(args, " \t,");
        char *e = strchr(args, ',');
        if (!e) {
            fail(s, col, "%s: expected a symbol and an expression",
                 word_is(d, ".set") ? ".set" : ".equ");
            return;
        }
        int64_t v;
        int unres = 0, reloc = 0;
        /* only absolute values are kept; clang's resource-usage .sets may use functions
         * (max(...)) an absolute evaluator does not know: those symbols stay undefined */
        if (eval(s, e + 1, 0, &v, &reloc, &unres) && !unres && !reloc) {
            sym *y = get_sym(s, args, l);
            if (y) {
                y->defined = 1;
                y->sec = -1;
                y->off = (uint64_t)v;
            }
        }
    } else if (word_is(d, ".amdgcn_target")) {
        parse_target(s, args, col);
    } else if (word_is(d, ".amdhsa_code_object_version")) {
        int64_t v;
        if (!eval(s, args, 0, &v, NULL, NULL) || v < 4 || v > 6) {
            fail(s, col, ".amdhsa_code_object_version: expected 4, 5 or 6");
            return;
        }
        s->cov = (int)v;
    } else if (word_is(d, ".amdhsa_kernel")) {
        s->in_kernel = 1;
        s->nkf = 0;
        snprintf(s->kname, sizeof s->kname, "%.*s", (int)strcspn(args, " \t"), args);
    } else if (word_is(d, ".amdgpu_metadata")) {
        s->in_meta = 1;
        s->yaml_n = 0;
    } else if (word_is(d, ".ident") || word_is(d, ".addrsig") || word_is(d, ".addrsig_sym") ||
               word_is(d, ".file") || word_is(d, ".loc") || !strncmp(d, ".cfi_", 5) ||
               word_is(d, ".hidden") || word_is(d, ".local") ||
               word_is(d, ".end_amdgpu_metadata") || word_is(d, ".amdgpu_hsa_kernel") ||
               word_is(d, ".sleb128") || word_is(d, ".uleb128")) {
        /* no effect on what gfxemu writes */
    } else {
        fail(s, col, "unknown directive '%.*s'", (int)(a - d), d);
    }
}

/* ---- driver --------------------------------------------------------------------------------- */

/* Strip a ';' comment (outside quotes) and a "//" comment. */
static void strip_comment(char *l) {
    int q = 0;
    for (char *c = l; *c; c++) {
        if (*c == '"')
            q ^= 1;
        if (!q && (*c == ';' || (c[0] == '/' && c[1] == '/') || (*c == '#' && c == l))) {
            *c = 0;
            return;
        }
    }
}

static void run_pass(st *s, const char *src, size_t n) {
    const char *p = src, *end = src + n;
    s->line = 0;
    s->cur = AS_SEC_TEXT;
    for (int i = 0; i <= AS_NSEC; i++)
        s->sec[i].n = 0;
    s->nrel = 0;
    char buf[4096];
    while (p < end && !s->failed) {
        const char *nl = memchr(p, '\n', (size_t)(end - p));
        size_t l = nl ? (size_t)(nl - p) : (size_t)(end - p);
        s->line++;
        if (l >= sizeof buf) {
            fail(s, 0, "line too long");
            break;
        }
        memcpy(buf, p, l);
        buf[l] = 0;
        p = nl ? nl + 1 : end;
        if (s->in_meta) {
            char *t = buf;
            while (isspace((unsigned char)*t))
                t++;
            if (word_is(t, ".end_amdgpu_metadata")) {
                s->in_meta = 0;
                if (s->pass == 1)
                    finish_meta(s);
                continue;
            }
            if (s->pass == 1) {
                if (s->yaml_n + l + 2 > s->yaml_cap) {
                    size_t c = (s->yaml_cap + l + 2) * 2;
                    char *y = realloc(s->yaml, c);
                    if (!y) {
                        fail(s, 0, "out of memory");
                        break;
                    }
                    s->yaml = y;
                    s->yaml_cap = c;
                }
                memcpy(s->yaml + s->yaml_n, buf, l);
                s->yaml_n += l;
                s->yaml[s->yaml_n++] = '\n';
                s->yaml[s->yaml_n] = 0;
            }
            continue;
        }
        strip_comment(buf);
        char *t = buf;
        for (char *c = t; *c; c++)
            if (*c == '\t' || *c == '\r')
                *c = ' ';
        for (;;) {
            while (isspace((unsigned char)*t))
                t++;
            /* labels: "name:" */
            char *c = t;
            if (is_ident0((unsigned char)*c) || *c == '"') {
                while (is_ident((unsigned char)*c))
                    c++;
                if (*c == ':' && c > t) {
                    if (s->pass == 1)
                        define(s, t, (size_t)(c - t), (int)(t - buf));
                    else {
                        sym *y = find_sym(s, t, (size_t)(c - t));
                        if (y && (y->off != s->sec[s->cur].n || y->sec != s->cur))
                            fail(s, (int)(t - buf), "label '%.*s' moved between passes",
                                 (int)(c - t), t);
                    }
                    t = c + 1;
                    continue;
                }
            }
            break;
        }
        size_t tl = strlen(t);
        while (tl && isspace((unsigned char)t[tl - 1]))
            t[--tl] = 0;
        if (!*t)
            continue;
        if (*t == '.')
            do_directive(s, t, (int)(t - buf));
        else if (s->in_kernel)
            fail(s, (int)(t - buf), "expected .amdhsa_ directive or .end_amdhsa_kernel");
        else
            do_inst(s, t, (int)(t - buf));
    }
    /* .got: one 8-byte slot per symbol named with @gotpcrel32, holding its address (a
     * relocation, as lld fills it for a symbol it cannot preempt; an absolute value as is) */
    sbuf *g = &s->sec[AS_SEC_GOT];
    g->align = 8;
    if (!s->failed && !grow(g, 8 * s->ngot))
        fail(s, 0, "out of memory");
    for (size_t i = 0; i < s->ngot && !s->failed; i++) {
        const sym *y = &s->syms[s->got[i]];
        uint64_t v = y->sec < 0 ? y->off : s->base[y->sec] + y->off;
        memcpy(g->p + g->n, &v, 8);
        if (s->pass == 2 && y->sec >= 0 && push_reloc(s, AS_SEC_GOT, g->n, v, 0))
            break;
        g->n += 8;
    }
    if (!s->failed && s->in_kernel)
        fail(s, 0, "missing .end_amdhsa_kernel");
    if (!s->failed && s->in_meta)
        fail(s, 0, "missing .end_amdgpu_metadata");
}

void as_out_free(as_out *o) {
    if (!o)
        return;
    for (int i = 0; i < AS_NSEC; i++)
        free(o->bytes[i]);
    free(o->relocs);
    for (size_t i = 0; i < o->nsyms; i++)
        free(o->syms[i].name);
    free(o->syms);
    free(o->meta);
    memset(o, 0, sizeof *o);
}

int as_assemble(isa_arch arch, const char *src, size_t n, int raw, as_out *out, char *err,
                size_t errsz) {
    return as_assemble_with(NULL, arch, src, n, raw, out, err, errsz);
}

int as_assemble_with(isa_asm *enc, isa_arch arch, const char *src, size_t n, int raw, as_out *out,
                     char *err, size_t errsz) {
    st s;
    memset(&s, 0, sizeof s);
    memset(out, 0, sizeof *out);
    s.arch = arch;
    s.err = err;
    s.errsz = errsz;
    s.raw = raw;
    s.cov = 5;
    s.feat = 0x500;
    if (errsz)
        err[0] = 0;
    s.enc = enc ? enc : isa_asm_new(arch);
    size_t lines = 2;
    for (size_t i = 0; i < n; i++)
        lines += src[i] == '\n';
    s.is_branch = calloc(lines, 1);
    s.nlines = lines;
    if (!s.enc || !s.is_branch) {
        snprintf(err, errsz, "out of memory");
        if (!enc)
            isa_asm_free(s.enc);
        free(s.is_branch);
        return 1;
    }
    /* pass 0: labels and .set names, so that forward references are known to be symbols */
    {
        const char *p = src, *end = src + n;
        while (p < end) {
            while (p < end && isspace((unsigned char)*p))
                p++;
            const char *b = p;
            while (p < end && is_ident((unsigned char)*p))
                p++;
            if (p < end && *p == ':' && p > b && is_ident0((unsigned char)*b))
                get_sym(&s, b, (size_t)(p - b));
            if (end - b > 5 && !strncmp(b, ".set ", 5)) {
                const char *q = b + 5;
                while (q < end && *q == ' ')
                    q++;
                const char *e = q;
                while (e < end && is_ident((unsigned char)*e))
                    e++;
                if (e > q)
                    get_sym(&s, q, (size_t)(e - q));
            }
            const char *nl = memchr(p, '\n', (size_t)(end - p));
            /* .got slots, in order of first reference: pass 1 sizes instructions without
             * evaluating their symbol operands, so the references are found here */
            for (const char *g = b; g && g < (nl ? nl : end);) {
                g = memmem(g, (size_t)((nl ? nl : end) - g), "@gotpcrel32", 11);
                if (!g)
                    break;
                const char *nb = g;
                while (nb > b && is_ident((unsigned char)nb[-1]))
                    nb--;
                if (nb < g && got_slot(&s, get_sym(&s, nb, (size_t)(g - nb))) == SIZE_MAX)
                    fail(&s, 0, "out of memory");
                g += 11;
            }
            p = nl ? nl + 1 : end;
        }
    }
    s.pass = 1;
    run_pass(&s, src, n);
    if (!s.failed) {
        /* layout, then pass 2 with the final addresses */
        out->arch = arch;
        for (int i = 0; i < AS_NSEC; i++) {
            out->size[i] = s.sec[i].n;
            out->align[i] = s.sec[i].align;
        }
        out->meta = s.meta;
        out->meta_size = s.meta_n;
        s.meta = NULL;
        /* symbols (for the layout's sizes) */
        out->syms = calloc(s.nsyms + 1, sizeof *out->syms);
        if (!out->syms) {
            fail(&s, 0, "out of memory");
        } else {
            for (size_t i = 0; i < s.nsyms; i++) {
                sym *y = &s.syms[i];
                as_sym *o = &out->syms[out->nsyms];
                if (!y->defined || y->sec < 0 || y->sec == AS_SEC_NONE)
                    continue;
                o->name = strdup(y->name);
                o->sec = y->sec;
                o->off = y->off;
                o->size = y->size;
                o->global = y->global;
                o->is_func = y->is_func;
                o->is_object = y->is_object;
                out->nsyms++;
            }
        }
        /* The relocations pass 2 finds size .rela.dyn, which moves the sections after it: when
         * their number differs from the layout's, lay out again and repeat pass 2 (once). */
        for (int round = 0; round < 2 && !s.failed; round++) {
            if (!raw)
                as_layout(out, s.base);
            s.pass = 2;
            run_pass(&s, src, n);
            if (s.nrel == out->nrelocs)
                break;
            out->nrelocs = s.nrel;
            if (round == 1)
                fail(&s, 0, "relocation count changed between passes");
        }
    }
    for (int i = 0; i < AS_NSEC && !s.failed; i++)
        if (s.sec[i].n != out->size[i])
            fail(&s, 0, "section sizes changed between passes");
    if (!s.failed) {
        for (int i = 0; i < AS_NSEC; i++) {
            out->bytes[i] = i == AS_SEC_BSS ? NULL : s.sec[i].p;
            if (i != AS_SEC_BSS)
                s.sec[i].p = NULL;
        }
        out->relocs = s.rel;
        out->nrelocs = s.nrel;
        s.rel = NULL;
        as_layout(out, out->addr);
        out->cov = s.cov;
        /* EF_AMDGPU_MACH per target ("AMDGPU Usage", "AMDGPU ELF Header") */
        out->eflags = isa_targets[arch].elf_mach | s.feat;
    }
    for (int i = 0; i <= AS_NSEC; i++)
        free(s.sec[i].p);
    free(s.rel);
    for (size_t i = 0; i < s.nsyms; i++)
        free(s.syms[i].name);
    free(s.syms);
    free(s.symtab);
    free(s.got);
    free(s.yaml);
    free(s.meta);
    free(s.is_branch);
    if (!enc)
        isa_asm_free(s.enc);
    if (s.failed) {
        as_out_free(out);
        return 1;
    }
    return 0;
}
