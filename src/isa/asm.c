/* asm.c - assemble one instruction of LLVM 22 syntax into its machine words.
 *
 * The encoder knows the microcode formats (field positions, CDNA3/CDNA4 ISA manuals "Microcode
 * formats", the same layouts the family decoders document) and nothing op-specific: everything
 * else is asked of the decoder and printer, which reproduce LLVM 22 exactly.
 *
 *  1. Mnemonic index.  Every opcode of every format is decoded once from a template word (all
 *     operand fields zero; VOP1/VOP2/VOPC also with the SDWA and DPP source codes, FLAT with each
 *     segment) and filed under the mnemonic the printer gives it.  A third target is a new
 *     isa_arch for the decoder and needs nothing here.
 *  2. Operand map.  For a candidate, each register field of the format is set to a probe value in
 *     turn; the printed operand that changes is the one that field encodes.  Printed operands no
 *     field changes are implicit (the vcc of v_addc_co_u32_e32).
 *  3. Operands.  Each input operand is turned into the field value(s) of its field's kind
 *     (register, inline constant or literal, 16-bit immediate, ...).
 *  4. Modifiers.  The format's modifier bits (clamp, omod, op_sel, neg, abs, sc0, offen, acc,
 *     SDWA selects, ...) are found by search: starting from the value llvm-mc uses by default,
 *     fields are set one at a time to the value that brings the printed text closest to the input
 *     (pairs of bits when single steps stall).  Offsets and DPP controls are computed directly.
 *  5. Verification.  The candidate is accepted only if the decoder prints exactly the input
 *     (numerically equal constants compare equal); candidates are tried in llvm-mc's order of
 *     preference (the VOP1/VOP2/VOPC form before _e64, inline constants before literals), so the
 *     bytes are the ones llvm-mc-22 produces.
 *
 * The search costs a few dozen decode+print calls per instruction (~10-50 us).
 */
#include "isa/fbits.h"
#include "isa/isa.h"

#include <ctype.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* ---- parsed text --------------------------------------------------------------------------- */

#define PL_MAXOP 8
#define PL_MAXKV 40
#define PL_TOK 128 /* s_waitcnt_depctr's six depctr_*() parts fit */

/* One line of assembly split the way LLVM prints it: mnemonic, comma-separated operands (their
 * neg/abs/sext wrappers moved to keys "neg.I", "abs.I", "sext.I"), then space-separated
 * modifiers as key/value pairs (lists become "key.0", "key.1", ...). */
typedef struct {
    char mnem[64];
    int mcol;
    int nops;
    char op[PL_MAXOP][PL_TOK];
    int opcol[PL_MAXOP];
    int nkv;
    char key[PL_MAXKV][32];
    char val[PL_MAXKV][PL_TOK];
    int kvcol[PL_MAXKV];
    int bad;         /* could not be split (too many operands, overlong token) */
    int loose_width; /* wave64 WMMA: tuples printed at their wave32 width compare equal */
} pline;

/* Copy s[0..n) trimmed into d. */
static void cpy(char *d, size_t dn, const char *s, size_t n) {
    while (n && isspace((unsigned char)*s))
        s++, n--;
    while (n && isspace((unsigned char)s[n - 1]))
        n--;
    if (n >= dn)
        n = dn - 1;
    memcpy(d, s, n);
    d[n] = 0;
}

static void kv_add(pline *p, const char *k, const char *v, int col) {
    if (p->nkv >= PL_MAXKV) {
        p->bad = 1;
        return;
    }
    cpy(p->key[p->nkv], sizeof p->key[0], k, strlen(k));
    cpy(p->val[p->nkv], sizeof p->val[0], v, strlen(v));
    p->kvcol[p->nkv] = col;
    p->nkv++;
}

static const char *kv_get(const pline *p, const char *k) {
    for (int i = 0; i < p->nkv; i++)
        if (!strcmp(p->key[i], k))
            return p->val[i];
    return NULL;
}

/* A modifier token: "name", "name:value", "name:[a,b]" or "name(value)". */
static void parse_mod(pline *p, const char *t, int col) {
    char name[64], val[PL_TOK];
    const char *c = strchr(t, ':');
    if (!c) {
        kv_add(p, t, "1", col);
        return;
    }
    cpy(name, sizeof name, t, (size_t)(c - t));
    cpy(val, sizeof val, c + 1, strlen(c + 1));
    /* output modifiers read as one numeric field so that the search can reach each value */
    if (!strcmp(name, "mul") || !strcmp(name, "div")) {
        kv_add(p, "omod",
               !strcmp(t, "mul:2")   ? "1"
               : !strcmp(t, "mul:4") ? "2"
               : !strcmp(t, "div:2") ? "3"
                                     : t,
               col);
        return;
    }
    if (val[0] == '[') {
        /* lists: one key per element; MTBUF format names say which field they are */
        int i = 0;
        char *s = val + 1;
        while (*s && *s != ']') {
            char *e = s;
            while (*e && *e != ',' && *e != ']')
                e++;
            char el[PL_TOK], k[128];
            cpy(el, sizeof el, s, (size_t)(e - s));
            if (!strcmp(name, "format") && !strncmp(el, "BUF_DATA_FORMAT", 15))
                snprintf(k, sizeof k, "format.d");
            else if (!strcmp(name, "format") && !strncmp(el, "BUF_NUM_FORMAT", 14))
                snprintf(k, sizeof k, "format.n");
            else
                snprintf(k, sizeof k, "%s.%d", name, i);
            kv_add(p, k, el, col);
            i++;
            s = *e == ',' ? e + 1 : e;
        }
        return;
    }
    kv_add(p, name, val, col);
}

static int is_flag_word(const char *t) {
    static const char *const flags[] = {
        "sc0", "sc1",   "nt", "glc", "slc",        "offen",           "idxen",  "lds",
        "gds", "clamp", "nv", "tfe", "row_mirror", "row_half_mirror", "addr64", NULL};
    for (int i = 0; flags[i]; i++)
        if (!strcmp(t, flags[i]))
            return 1;
    const char *c = strchr(t, ':');
    return c && memchr(t, '[', (size_t)(c - t)) == NULL;
}

static int is_waitcnt_part(const char *t) {
    return !strncmp(t, "vmcnt(", 6) || !strncmp(t, "expcnt(", 7) || !strncmp(t, "lgkmcnt(", 8) ||
           /* RDNA s_delay_alu: "instid0(VALU_DEP_1) | instskip(NEXT) | instid1(SALU_CYCLE_1)" */
           !strncmp(t, "instid0(", 8) || !strncmp(t, "instid1(", 8) ||
           !strncmp(t, "instskip(", 9) || !strcmp(t, "|") ||
           /* s_waitcnt_depctr / s_wait_alu: "depctr_va_vdst(0) depctr_sa_sdst(0) ..." */
           !strncmp(t, "depctr_", 7);
}

/* Strip neg/abs/sext wrappers from operand i. */
static void parse_operand(pline *p, const char *t, int col) {
    char buf[PL_TOK], key[32];
    int i = p->nops;
    snprintf(buf, sizeof buf, "%s", t);
    for (;;) {
        size_t l = strlen(buf);
        if (buf[0] == '-' && buf[1] && !isdigit((unsigned char)buf[1]) && buf[1] != '.') {
            snprintf(key, sizeof key, "neg.%d", i);
            kv_add(p, key, "1", col);
            memmove(buf, buf + 1, l);
        } else if (buf[0] == '|' && l > 2 && buf[l - 1] == '|') {
            snprintf(key, sizeof key, "abs.%d", i);
            kv_add(p, key, "1", col);
            buf[l - 1] = 0;
            memmove(buf, buf + 1, l - 1);
        } else if ((!strncmp(buf, "neg(", 4) || !strncmp(buf, "abs(", 4)) && buf[l - 1] == ')') {
            snprintf(key, sizeof key, "%.3s.%d", buf, i);
            kv_add(p, key, "1", col);
            buf[l - 1] = 0;
            memmove(buf, buf + 4, l - 4);
        } else if (!strncmp(buf, "sext(", 5) && buf[l - 1] == ')') {
            snprintf(key, sizeof key, "sext.%d", i);
            kv_add(p, key, "1", col);
            buf[l - 1] = 0;
            memmove(buf, buf + 5, l - 5);
        } else {
            break;
        }
    }
    if (i >= PL_MAXOP) {
        p->bad = 1;
        return;
    }
    snprintf(p->op[i], PL_TOK, "%s", buf);
    p->opcol[i] = col;
    p->nops++;
}

static void parse_line1(const char *text, pline *p);

/* Split text (no comment) into a pline.  Columns are 0-based offsets into text.  A VOPD pair
 * "X ops :: Y ops" reads as the mnemonic "X::Y" with X's operands, then Y's. */
static void parse_line(const char *text, pline *p) {
    const char *dc = strstr(text, "::");
    if (!dc) {
        parse_line1(text, p);
        return;
    }
    char left[256];
    pline r;
    size_t l = (size_t)(dc - text);
    if (l >= sizeof left) {
        memset(p, 0, sizeof *p);
        p->bad = 1;
        return;
    }
    memcpy(left, text, l);
    left[l] = 0;
    parse_line1(left, p);
    parse_line1(dc + 2, &r);
    size_t ml = strlen(p->mnem);
    if (ml + 2 + strlen(r.mnem) >= sizeof p->mnem || p->nops + r.nops > PL_MAXOP ||
        p->nkv + r.nkv > PL_MAXKV || r.bad) {
        p->bad = 1;
        return;
    }
    snprintf(p->mnem + ml, sizeof p->mnem - ml, "::%s", r.mnem);
    int off = (int)(l + 2);
    for (int i = 0; i < r.nops; i++) {
        memcpy(p->op[p->nops], r.op[i], sizeof r.op[i]);
        p->opcol[p->nops++] = r.opcol[i] + off;
    }
    for (int i = 0; i < r.nkv; i++)
        kv_add(p, r.key[i], r.val[i], r.kvcol[i] + off);
}

static void parse_line1(const char *text, pline *p) {
    memset(p, 0, sizeof *p);
    const char *s = text;
    while (isspace((unsigned char)*s))
        s++;
    const char *m = s;
    while (*s && !isspace((unsigned char)*s))
        s++;
    cpy(p->mnem, sizeof p->mnem, m, (size_t)(s - m));
    for (char *c = p->mnem; *c; c++)
        *c = (char)tolower((unsigned char)*c);
    p->mcol = (int)(m - text);
    /* split into top-level comma segments */
    const char *seg[PL_MAXOP + 2];
    size_t segl[PL_MAXOP + 2];
    int nseg = 0, depth = 0, bar = 0;
    const char *st = s;
    for (const char *c = s;; c++) {
        if (*c == '(' || *c == '[')
            depth++;
        else if (*c == ')' || *c == ']')
            depth--;
        else if (*c == '|')
            bar ^= 1;
        if (*c == 0 || (*c == ',' && depth == 0 && !bar)) {
            if (nseg >= PL_MAXOP + 1) {
                p->bad = 1;
                return;
            }
            seg[nseg] = st;
            segl[nseg++] = (size_t)(c - st);
            if (*c == 0)
                break;
            st = c + 1;
        }
    }
    for (int i = 0; i < nseg; i++) {
        const char *a = seg[i];
        size_t n = segl[i];
        while (n && isspace((unsigned char)*a))
            a++, n--;
        if (i < nseg - 1) {
            char t[PL_TOK];
            cpy(t, sizeof t, a, n);
            parse_operand(p, t, (int)(a - text));
            continue;
        }
        /* last segment: operand then modifiers, split at top-level spaces */
        int first = 1;
        const char *c = a, *end = a + n;
        char wait[PL_TOK] = "";
        int waitcol = -1;
        while (c < end) {
            while (c < end && isspace((unsigned char)*c))
                c++;
            if (c >= end)
                break;
            const char *b = c;
            int d = 0, br = 0;
            if (*c == '|' && c + 1 < end && isspace((unsigned char)c[1])) {
                c++; /* a lone "|" joins s_delay_alu's parts; it opens no |abs| */
                br = -1;
            }
            while (br >= 0 && c < end && (d > 0 || br || !isspace((unsigned char)*c))) {
                if (*c == '(' || *c == '[')
                    d++;
                else if (*c == ')' || *c == ']')
                    d--;
                else if (*c == '|')
                    br ^= 1;
                c++;
            }
            char t[PL_TOK];
            cpy(t, sizeof t, b, (size_t)(c - b));
            if (is_waitcnt_part(t)) {
                if (waitcol < 0)
                    waitcol = (int)(b - text);
                size_t wl = strlen(wait), tl = strlen(t);
                if (wl + tl + 2 > sizeof wait) {
                    p->bad = 1;
                    return;
                }
                if (wl)
                    wait[wl++] = ' ';
                memcpy(wait + wl, t, tl + 1);
                first = 0;
                continue;
            }
            if (first && !(nseg == 1 && is_flag_word(t)))
                parse_operand(p, t, (int)(b - text));
            else
                parse_mod(p, t, (int)(b - text));
            first = 0;
        }
        if (waitcol >= 0)
            parse_operand(p, wait, waitcol);
    }
}

/* ---- numbers ------------------------------------------------------------------------------- */

/* An integer token (decimal, 0x hex, optional sign). */
static int parse_int(const char *t, int64_t *v) {
    char *e;
    const char *s = t;
    int neg = 0;
    if (*s == '-')
        neg = 1, s++;
    if (!isdigit((unsigned char)*s))
        return 0;
    unsigned long long u = strtoull(s, &e, 0);
    if (*e)
        return 0;
    *v = neg ? -(int64_t)u : (int64_t)u;
    return 1;
}

static int parse_float(const char *t, double *v) {
    char *e;
    if (!strchr(t, '.') && !strchr(t, 'e'))
        return 0;
    if (!strncmp(t, "0x", 2) || !strncmp(t, "-0x", 3))
        return 0;
    *v = strtod(t, &e);
    return *e == 0 && e != t;
}

/* a literal's bits as the f32 it rounds to (round to nearest even, the host's default) */
static uint32_t f32_bits(double d) { return bf32((float)d); }

static uint16_t f16_bits(double d) {
    /* round to nearest even; finite normal and subnormal values (constants in source text) */
    uint32_t f = f32_bits(d);
    uint32_t sign = (f >> 16) & 0x8000;
    int e = (int)((f >> 23) & 0xff) - 127 + 15;
    uint32_t m = f & 0x7fffff;
    if (((f >> 23) & 0xff) == 0xff)
        return (uint16_t)(sign | 0x7c00 | (m ? 0x200 : 0));
    if (e >= 31)
        return (uint16_t)(sign | 0x7c00);
    if (e <= 0) {
        if (e < -10)
            return (uint16_t)sign;
        m |= 0x800000;
        unsigned sh = (unsigned)(14 - e);
        uint32_t r = m >> sh, rem = m & ((1u << sh) - 1), half = 1u << (sh - 1);
        if (rem > half || (rem == half && (r & 1)))
            r++;
        return (uint16_t)(sign | r);
    }
    uint32_t r = m >> 13, rem = m & 0x1fff;
    uint32_t h = sign | (uint32_t)e << 10 | r;
    if (rem > 0x1000 || (rem == 0x1000 && (r & 1)))
        h++;
    return (uint16_t)h;
}

/* Tokens the printer would have printed the same way: identical, or equal numbers (an integer
 * and a float equal to its f32/f16/f64-high/bf16 bits). */
static int tok_equiv(const char *a, const char *b) {
    if (!strcmp(a, b))
        return 1;
    /* gfx12 names HW_REG_MODE etc. HW_REG_WAVE_MODE; llvm-mc-22 takes both */
    if (!strncmp(a, "hwreg(HW_REG_", 13) && !strncmp(b, "hwreg(HW_REG_", 13)) {
        const char *x = a + 13, *y = b + 13;
        x += strncmp(x, "WAVE_", 5) ? 0 : 5;
        y += strncmp(y, "WAVE_", 5) ? 0 : 5;
        if (!strcmp(x, y))
            return 1;
    }
    /* hwreg(ID, ...) written with a number where the printer names the register: hwreg_field()
     * encoded the number itself, so the printed name is that id's; the rest must agree */
    for (int k = 0; k < 2; k++) {
        const char *n = k ? b : a, *m = k ? a : b;
        if (!strncmp(n, "hwreg(", 6) && isdigit((unsigned char)n[6]) &&
            !strncmp(m, "hwreg(HW_REG_", 13) &&
            !strcmp(n + 6 + strcspn(n + 6, ",)"), m + 6 + strcspn(m + 6, ",)")))
            return 1;
    }
    /* RDNA true16: llvm-mc reads a plain "v5" of a 16-bit operand as its low half "v5.l" (the
     * fake16 spelling; the same bits unless an op_sel bit names the high half) */
    size_t la = strlen(a), lb = strlen(b);
    if (a[0] == 'v' && isdigit((unsigned char)a[1]) && la + 2 == lb && !strncmp(a, b, la) &&
        !strcmp(b + la, ".l"))
        return 1;
    if (b[0] == 'v' && isdigit((unsigned char)b[1]) && lb + 2 == la && !strncmp(a, b, lb) &&
        !strcmp(a + lb, ".l"))
        return 1;
    int64_t ia, ib;
    double da, db;
    int ai = parse_int(a, &ia), bi = parse_int(b, &ib);
    if (ai && bi) /* 16-bit immediates print unsigned: -12 is the 65524 of a branch's SIMM16 */
        return ia == ib || (ia < 0 && ia >= -32768 && ib == ia + 65536) ||
               (ib < 0 && ib >= -32768 && ia == ib + 65536) ||
               /* a 64-bit integer operand's literal written sign-extended (0xffffffffd3dc167e) */
               ((uint64_t)ia >> 32 == 0xffffffffu &&
                (uint64_t)ib == ((uint64_t)ia & 0xffffffffu)) ||
               ((uint64_t)ib >> 32 == 0xffffffffu &&
                (uint64_t)ia == ((uint64_t)ib & 0xffffffffu)) ||
               /* the hex spelling of a negative inline constant: 0xfffffff0..0xffffffff, which
                * llvm-mc-22 encodes as the inline -16..-1 of a 32-bit operand (const_cands) */
               (ia >= 0xfffffff0LL && ia <= 0xffffffffLL && ib == ia - 0x100000000LL) ||
               (ib >= 0xfffffff0LL && ib <= 0xffffffffLL && ia == ib - 0x100000000LL);
    if (!strncmp(a, "lit(", 4)) {
        /* lit(X) forces a literal; the printer writes a non-inlinable literal without lit() */
        char in[PL_TOK], pb[PL_TOK];
        snprintf(in, sizeof in, "%s", a + 4);
        snprintf(pb, sizeof pb, "%s", b + (strncmp(b, "lit(", 4) ? 0 : 4));
        size_t l = strlen(in), lb = strlen(pb);
        if (!l || in[l - 1] != ')')
            return 0;
        in[l - 1] = 0;
        if (!strncmp(b, "lit(", 4) && lb && pb[lb - 1] == ')')
            pb[lb - 1] = 0;
        return parse_int(in, &ia) && parse_int(pb, &ib) && (uint32_t)ia == (uint32_t)ib;
    }
    if (!strncmp(b, "lit(", 4) || !strncmp(a, "lit(", 4))
        return 0;
    int af = parse_float(a, &da), bf = parse_float(b, &db);
    if (af && bf)
        return da == db || (fabs(da - db) < 1e-6 && fabs(da - 0.15915494309189532) < 1e-6);
    if (af && bi) {
        uint64_t u = (uint64_t)ib;
        return u == f32_bits(da) || u == f16_bits(da) || u == (bf64(da) >> 32) ||
               u == (f32_bits(da) >> 16);
    }
    if (bf && ai)
        return tok_equiv(b, a);
    return 0;
}

static int popcount64(uint64_t v) {
    int n = 0;
    while (v)
        v &= v - 1, n++;
    return n;
}

/* Distance between two values of a modifier key (0 = equal). */
static int val_dist(const char *a, const char *b) {
    int64_t ia, ib;
    if (tok_equiv(a, b))
        return 0;
    if (parse_int(a, &ia) && parse_int(b, &ib))
        return popcount64((uint64_t)(ia ^ ib));
    return 1;
}

/* How far the printed candidate c is from the input p: 0 only for an exact match. */
/* RDNA true16 operands: llvm-mc takes a high half either way, "v0.h" alone (the printer adds
 * the op_sel it implies) or a plain "v0" with op_sel naming the half (RDNA3 ISA "16-bit VGPRs"). */
static int half_equiv(const char *in, const char *pr, int in_opsel) {
    size_t l = strlen(in);
    return in_opsel && in[0] == 'v' && isdigit((unsigned char)in[1]) && strlen(pr) == l + 2 &&
           !strncmp(in, pr, l) && !strcmp(pr + l, ".h");
}

static int has_key_prefix(const pline *p, const char *k) {
    size_t l = strlen(k);
    for (int i = 0; i < p->nkv; i++)
        if (!strncmp(p->key[i], k, l))
            return 1;
    return 0;
}

/* Two VGPR operands that start at the same register ("v8" and "v[8:9]"). */
static int same_vstart(const char *a, const char *b) {
    if (a[0] != 'v' || b[0] != 'v')
        return 0;
    const char *x = a + 1 + (a[1] == '['), *y = b + 1 + (b[1] == '[');
    if (!isdigit((unsigned char)*x) || !isdigit((unsigned char)*y))
        return 0;
    return strtoul(x, NULL, 10) == strtoul(y, NULL, 10);
}

static int line_dist(const pline *p, const pline *c) {
    int d = 0;
    int n = p->nops > c->nops ? p->nops : c->nops;
    int in_opsel = has_key_prefix(p, "op_sel."), pr_half = 0;
    for (int i = 0; i < n; i++) {
        if (i >= p->nops || i >= c->nops)
            d += 2;
        else if (!tok_equiv(p->op[i], c->op[i]) && !half_equiv(p->op[i], c->op[i], in_opsel) &&
                 !(p->loose_width && same_vstart(p->op[i], c->op[i])))
            d += 1;
        if (i < c->nops && strstr(c->op[i], ".h"))
            pr_half = 1;
    }
    /* the op_sel the printer adds beside .h operands the input spelled without it */
    int skip_opsel = !in_opsel && pr_half;
    for (int i = 0; i < p->nkv; i++) {
        const char *cv = kv_get(c, p->key[i]);
        int64_t v;
        if (!cv)
            d += 1 + (parse_int(p->val[i], &v) ? popcount64((uint64_t)v) : 0);
        else
            d += val_dist(p->val[i], cv);
    }
    for (int i = 0; i < c->nkv; i++)
        if (!kv_get(p, c->key[i]) && !(skip_opsel && !strncmp(c->key[i], "op_sel.", 7))) {
            int64_t v;
            d += 1 + (parse_int(c->val[i], &v) ? popcount64((uint64_t)v) : 0);
        }
    return d;
}

/* ---- registers ------------------------------------------------------------------------------ */

enum { R_NONE, R_S, R_V, R_A, R_SPECIAL, R_OFF };

typedef struct {
    int kind;     /* R_* */
    unsigned enc; /* R_S: scalar operand encoding; R_V/R_A: index; R_SPECIAL: encoding */
    unsigned n;   /* dwords */
    int half;     /* RDNA true16 VGPR half: 0 none, ISA_HALF_L (v5.l), ISA_HALF_H (v5.h) */
} reg_t;

/* Names the printer uses for scalar registers 102..127 and the special sources, taken from the
 * printer itself so the two never disagree. */
typedef struct {
    char name[32];
    uint16_t enc;
    uint8_t n, special;
} regname;

static int parse_range(const char *s, unsigned *lo, unsigned *n) {
    char *e;
    if (*s == '[') {
        unsigned long a = strtoul(s + 1, &e, 10);
        if (e == s + 1)
            return 0;
        unsigned long b = a;
        if (*e == ':') {
            const char *f = e + 1;
            b = strtoul(f, &e, 10);
            if (e == f)
                return 0;
        }
        if (strcmp(e, "]") || b < a || b - a >= 32)
            return 0;
        *lo = (unsigned)a;
        *n = (unsigned)(b - a + 1);
        return 1;
    }
    if (!isdigit((unsigned char)*s))
        return 0;
    unsigned long a = strtoul(s, &e, 10);
    if (*e)
        return 0;
    *lo = (unsigned)a;
    *n = 1;
    return 1;
}

/* ---- context ------------------------------------------------------------------------------- */

/* Field kinds: how an operand token becomes field bits. */
enum {
    K_SRC9,      /* VALU source: SGPR/const/VGPR (256+), literal 255 */
    K_SRC8,      /* scalar source: SGPR/const, literal 255 */
    K_REG8,      /* VGPR/AGPR index, or an SGPR encoding (v_readlane's sdst) */
    K_SDST7,     /* scalar destination */
    K_SBASE,     /* SMEM sbase: SGPR pair number */
    K_SRSRC,     /* buffer resource: SGPR quad number */
    K_SADDR,     /* FLAT saddr: SGPR, or off = 0x7f */
    K_VADDR,     /* FLAT/MUBUF vaddr: VGPR, or off */
    K_SIMM16,    /* SOPK/SOPP immediate: number, hwreg(), sendmsg(), waitcnt, gpr_idx() */
    K_SMOFF,     /* SMEM offset: immediate (imm=1) or SGPR */
    K_LIT32,     /* madmk/fmaak K: the literal dword itself */
    K_SDWA_SRC,  /* SDWA source: VGPR, or SGPR/const with the S bit */
    K_SDWA_SDST, /* VOPC SDWA: vcc, or an SGPR pair with the SD bit */
    K_SIMM8,     /* s_set_gpr_idx_on mode (ssrc1 byte as an immediate) */
    /* RDNA */
    K_RSMOFF, /* SMEM soffset (SGPR/null/m0), or an immediate offset with soffset = null */
    K_SREG7,  /* a 7-bit SGPR encoding naming a tuple by its first register (VBUFFER srsrc) */
    K_VDSTY,  /* VOPD vdsty: VGPR >> 1 (its low bit is !vdstx[0]) */
    K_SEARCH, /* a symbolic operand looked up through the printer (attr0.x, exp targets) */
    K_IMM,    /* an immediate operand written as a number (gfx12 s_prefetch_* offset) */
};

typedef struct {
    uint8_t w, sh, width, kind;
    int8_t xw, xsh; /* extra bit set with a register (SDWA S/SD bits); -1 = none */
} fld;

typedef struct {
    uint8_t w, sh, width;
} mfld;

/* Field layouts per format/variant. */
enum {
    L_SOP2,
    L_SOPK,
    L_SOP1,
    L_SOPC,
    L_SOPP,
    L_SMEM,
    L_VOP2,
    L_VOP1,
    L_VOPC,
    L_SDWA2,
    L_SDWA1,
    L_SDWAC,
    L_DPP2,
    L_DPP1,
    L_DPPC,
    L_VOP3,
    L_DS,
    L_FLAT,
    L_MUBUF,
    L_MTBUF,
    L_SCALED,
    /* RDNA3/RDNA4 (their ISA manuals, "Microcode formats"; the RDNA decoders document the same
     * positions) */
    L_RSOP2,   /* SOP2 with gfx12 s_fmaak/s_fmamk's K dword */
    L_RSMEM11, /* gfx11 SMEM */
    L_RSMEM12, /* gfx12 SMEM */
    L_RDPP2,   /* DPP16 (with FI) */
    L_RDPP1,
    L_RDPPC,
    L_RDPP8_2, /* DPP8: lane selects in the DPP dword, FI as src0 = 0xEA */
    L_RDPP8_1,
    L_RDPP8_C,
    L_RV3DPP,  /* VOP3/VOP3P with a DPP16 dword */
    L_RV3DPP8, /* VOP3/VOP3P with a DPP8 dword */
    L_VOPD,
    L_RDS,
    L_RFLAT,  /* gfx11 FLAT/GLOBAL/SCRATCH */
    L_VFLAT,  /* gfx12 VFLAT/VGLOBAL/VSCRATCH */
    L_RMUBUF, /* gfx11 */
    L_RMTBUF, /* gfx11 */
    L_VBUF,   /* gfx12 VBUFFER */
    L_LDSDIR, /* LDSDIR (gfx11) / VDSDIR (gfx12) */
    L_VINTERP,
    L_N
};

typedef struct {
    uint8_t nbase; /* instruction dwords before a literal */
    uint8_t nf;
    fld f[8];
    uint8_t nm;
    mfld m[28];
    uint32_t probe_or[2]; /* bits set while probing the operand map (fields that gate printing) */
    uint32_t alt_or[2];   /* a third operand map with these bits set (sc0: atomics return) */
    uint32_t alt2_or[2];  /* a fourth (MUBUF lds: no vdata) */
} layout;

#define F(w, sh, width, k) {w, sh, width, k, -1, 0}
#define FX(w, sh, width, k, xw, xsh) {w, sh, width, k, xw, xsh}
#define M(w, sh, width) {w, sh, width}
/* The second dword of the VOP1/VOP2/VOPC forms: DPP's bound_ctrl, the neg/abs bits and the
 * bank/row masks; SDWA's dst_sel/dst_unused/clamp/omod (not in VOPC) and the per-source sel,
 * sext, neg, abs fields. */
#define DPP_MODS                                                                                   \
    M(1, 19, 1), M(1, 20, 1), M(1, 21, 1), M(1, 22, 1), M(1, 23, 1), M(1, 24, 4), M(1, 28, 4)
#define SDWA_DST_MODS M(1, 8, 3), M(1, 11, 2), M(1, 13, 1), M(1, 14, 2)
#define SDWA_SRC_MODS                                                                              \
    M(1, 16, 3), M(1, 19, 1), M(1, 20, 1), M(1, 21, 1), M(1, 24, 3), M(1, 27, 1), M(1, 28, 1),     \
        M(1, 29, 1)
static const layout layouts[L_N] = {
    [L_SOP2] = {1,
                3,
                {F(0, 16, 7, K_SDST7), F(0, 0, 8, K_SRC8), F(0, 8, 8, K_SRC8)},
                0,
                {{0}},
                {0, 0},
                {0, 0},
                {0, 0}},
    [L_SOPK] = {1,
                3,
                {F(0, 16, 7, K_SDST7), F(0, 0, 16, K_SIMM16), F(1, 0, 32, K_LIT32)},
                0,
                {{0}},
                {0, 0},
                {0, 0},
                {0, 0}},
    [L_SOP1] = {1, 2, {F(0, 16, 7, K_SDST7), F(0, 0, 8, K_SRC8)}, 0, {{0}}, {0, 0}, {0, 0}, {0, 0}},
    [L_SOPC] = {1, 2, {F(0, 0, 8, K_SRC8), F(0, 8, 8, K_SRC8)}, 0, {{0}}, {0, 0}, {0, 0}, {0, 0}},
    [L_SOPP] = {1, 1, {F(0, 0, 16, K_SIMM16)}, 0, {{0}}, {0, 0}, {0, 0}, {0, 0}},
    [L_SMEM] = {2,
                4,
                {F(0, 6, 7, K_SDST7), F(0, 0, 6, K_SBASE), F(1, 0, 21, K_SMOFF),
                 F(1, 25, 7, K_SDST7)},
                2,
                {M(0, 16, 1), M(0, 15, 1)},
                {0, 0},
                {0, 0},
                {0, 0}},
    [L_VOP2] = {1,
                4,
                {F(0, 17, 8, K_REG8), F(0, 0, 9, K_SRC9), F(0, 9, 8, K_REG8), F(1, 0, 32, K_LIT32)},
                0,
                {{0}},
                {0, 0},
                {0, 0},
                {0, 0}},
    [L_VOP1] = {1, 2, {F(0, 17, 8, K_REG8), F(0, 0, 9, K_SRC9)}, 0, {{0}}, {0, 0}, {0, 0}, {0, 0}},
    [L_VOPC] = {1, 2, {F(0, 0, 9, K_SRC9), F(0, 9, 8, K_REG8)}, 0, {{0}}, {0, 0}, {0, 0}, {0, 0}},
    [L_SDWA2] = {2,
                 3,
                 {F(0, 17, 8, K_REG8), FX(1, 0, 8, K_SDWA_SRC, 1, 23),
                  FX(0, 9, 8, K_SDWA_SRC, 1, 31)},
                 12,
                 {SDWA_DST_MODS, SDWA_SRC_MODS},
                 {0, 0},
                 {0, 0},
                 {0, 0}},
    [L_SDWA1] = {2,
                 2,
                 {F(0, 17, 8, K_REG8), FX(1, 0, 8, K_SDWA_SRC, 1, 23)},
                 12,
                 {SDWA_DST_MODS, SDWA_SRC_MODS},
                 {0, 0},
                 {0, 0},
                 {0, 0}},
    [L_SDWAC] = {2,
                 3,
                 {FX(1, 8, 7, K_SDWA_SDST, 1, 15), FX(1, 0, 8, K_SDWA_SRC, 1, 23),
                  FX(0, 9, 8, K_SDWA_SRC, 1, 31)},
                 8,
                 {SDWA_SRC_MODS},
                 {0, 0},
                 {0, 0},
                 {0, 0}},
    [L_DPP2] = {2,
                3,
                {F(0, 17, 8, K_REG8), F(1, 0, 8, K_REG8), F(0, 9, 8, K_REG8)},
                7,
                {DPP_MODS},
                {0, 0},
                {0, 0},
                {0, 0}},
    [L_DPP1] =
        {2, 2, {F(0, 17, 8, K_REG8), F(1, 0, 8, K_REG8)}, 7, {DPP_MODS}, {0, 0}, {0, 0}, {0, 0}},
    [L_DPPC] =
        {2, 2, {F(1, 0, 8, K_REG8), F(0, 9, 8, K_REG8)}, 7, {DPP_MODS}, {0, 0}, {0, 0}, {0, 0}},
    [L_VOP3] = {2,
                5,
                {F(0, 0, 8, K_REG8), F(0, 8, 7, K_SDST7), F(1, 0, 9, K_SRC9), F(1, 9, 9, K_SRC9),
                 F(1, 18, 9, K_SRC9)},
                13,
                {M(0, 8, 1), M(0, 9, 1), M(0, 10, 1), M(0, 11, 1), M(0, 12, 1), M(0, 13, 1),
                 M(0, 14, 1), M(0, 15, 1), M(1, 27, 1), M(1, 28, 1), M(1, 29, 1), M(1, 30, 1),
                 M(1, 31, 1)},
                {0, 0},
                {0, 0},
                {0, 0}},
    [L_DS] =
        {2,
         4,
         {F(1, 24, 8, K_REG8), F(1, 0, 8, K_REG8), F(1, 8, 8, K_REG8), F(1, 16, 8, K_REG8)},
         2,
         {M(0, 16, 1), M(0, 25, 1)},
         {0, 0},
         {0, 0},
         {0, 0}},
    [L_FLAT] = {2,
                4,
                {F(1, 24, 8, K_REG8), F(1, 0, 8, K_VADDR), F(1, 8, 8, K_REG8),
                 F(1, 16, 7, K_SADDR)},
                5,
                {M(0, 13, 1), M(0, 16, 1), M(0, 17, 1), M(0, 25, 1), M(1, 23, 1)},
                {1u << 13, 0},
                {1u << 16, 0},
                {0, 0}},
    [L_MUBUF] = {2,
                 4,
                 {F(1, 8, 8, K_REG8), F(1, 0, 8, K_VADDR), F(1, 16, 5, K_SRSRC),
                  F(1, 24, 8, K_SRC8)},
                 7,
                 {M(0, 12, 1), M(0, 13, 1), M(0, 14, 1), M(0, 15, 1), M(0, 16, 1), M(0, 17, 1),
                  M(1, 23, 1)},
                 {1u << 12, 0},
                 {1u << 14 | 1u << 12, 0},
                 {1u << 16 | 1u << 12, 0}},
    [L_MTBUF] = {2,
                 4,
                 {F(1, 8, 8, K_REG8), F(1, 0, 8, K_VADDR), F(1, 16, 5, K_SRSRC),
                  F(1, 24, 8, K_SRC8)},
                 8,
                 {M(0, 12, 1), M(0, 13, 1), M(0, 14, 1), M(0, 19, 4), M(0, 23, 3), M(1, 21, 1),
                  M(1, 22, 1), M(1, 23, 1)},
                 {1u << 12, 0},
                 {0, 0},
                 {0, 0}},
    /* gfx950 scaled MFMA: v_mfma_ld_scale_b32 (scale sources in w1) + the f8f6f4 MFMA (w2, w3) */
    [L_SCALED] = {4,
                  6,
                  {F(2, 0, 8, K_REG8), F(3, 0, 9, K_SRC9), F(3, 9, 9, K_SRC9), F(3, 18, 9, K_SRC9),
                   F(1, 0, 9, K_SRC9), F(1, 9, 9, K_SRC9)},
                  26,
                  {M(0, 8, 1),  M(0, 9, 1),  M(0, 10, 1), M(0, 11, 1), M(0, 12, 1), M(0, 13, 1),
                   M(0, 14, 1), M(0, 15, 1), M(1, 27, 1), M(1, 28, 1), M(1, 29, 1), M(1, 30, 1),
                   M(1, 31, 1), M(2, 8, 1),  M(2, 9, 1),  M(2, 10, 1), M(2, 12, 1), M(2, 13, 1),
                   M(2, 14, 1), M(2, 15, 1), M(3, 27, 1), M(3, 28, 1), M(3, 29, 1), M(3, 30, 1),
                   M(3, 31, 1), M(2, 11, 1)},
                  {0, 0},
                  {0, 0},
                  {0, 0}},
    [L_RSOP2] = {1,
                 4,
                 {F(0, 16, 7, K_SDST7), F(0, 0, 8, K_SRC8), F(0, 8, 8, K_SRC8),
                  F(1, 0, 32, K_LIT32)},
                 0,
                 {{0}},
                 {0, 0},
                 {0, 0},
                 {0, 0}},
    /* gfx11: glc[14] dlc[13]; w1 soffset[31:25] offset[20:0] */
    [L_RSMEM11] = {2,
                   3,
                   {F(0, 6, 7, K_SDST7), F(0, 0, 6, K_SBASE), F(1, 25, 7, K_RSMOFF)},
                   2,
                   {M(0, 14, 1), M(0, 13, 1)},
                   {0, 0},
                   {0, 0},
                   {0, 0}},
    /* gfx12: th[24:23] scope[22:21] nv[20]; w1 soffset[31:25] offset[23:0] */
    [L_RSMEM12] = {2,
                   4,
                   {F(0, 6, 7, K_SDST7), F(0, 0, 6, K_SBASE), F(1, 25, 7, K_RSMOFF),
                    F(1, 0, 24, K_IMM)},
                   3,
                   {M(0, 23, 2), M(0, 21, 2), M(0, 20, 1)},
                   {0, 0},
                   {0, 0},
                   {0, 0}},
    [L_RDPP2] = {2,
                 3,
                 {F(0, 17, 8, K_REG8), F(1, 0, 8, K_REG8), F(0, 9, 8, K_REG8)},
                 8,
                 {DPP_MODS, M(1, 18, 1)},
                 {0, 0},
                 {0, 0},
                 {0, 0}},
    [L_RDPP1] = {2,
                 2,
                 {F(0, 17, 8, K_REG8), F(1, 0, 8, K_REG8)},
                 8,
                 {DPP_MODS, M(1, 18, 1)},
                 {0, 0},
                 {0, 0},
                 {0, 0}},
    [L_RDPPC] = {2,
                 2,
                 {F(1, 0, 8, K_REG8), F(0, 9, 8, K_REG8)},
                 8,
                 {DPP_MODS, M(1, 18, 1)},
                 {0, 0},
                 {0, 0},
                 {0, 0}},
    [L_RDPP8_2] = {2,
                   3,
                   {F(0, 17, 8, K_REG8), F(1, 0, 8, K_REG8), F(0, 9, 8, K_REG8)},
                   0,
                   {{0}},
                   {0, 0},
                   {0, 0},
                   {0, 0}},
    [L_RDPP8_1] =
        {2, 2, {F(0, 17, 8, K_REG8), F(1, 0, 8, K_REG8)}, 0, {{0}}, {0, 0}, {0, 0}, {0, 0}},
    [L_RDPP8_C] =
        {2, 2, {F(1, 0, 8, K_REG8), F(0, 9, 8, K_REG8)}, 0, {{0}}, {0, 0}, {0, 0}, {0, 0}},
    [L_RV3DPP] = {3,
                  5,
                  {F(0, 0, 8, K_REG8), F(0, 8, 7, K_SDST7), F(2, 0, 8, K_REG8), F(1, 9, 9, K_SRC9),
                   F(1, 18, 9, K_SRC9)},
                  17,
                  {M(0, 8, 1), M(0, 9, 1), M(0, 10, 1), M(0, 11, 1), M(0, 12, 1), M(0, 13, 1),
                   M(0, 14, 1), M(0, 15, 1), M(1, 27, 1), M(1, 28, 1), M(1, 29, 1), M(1, 30, 1),
                   M(1, 31, 1), M(2, 18, 1), M(2, 19, 1), M(2, 24, 4), M(2, 28, 4)},
                  {0, 0},
                  {0, 0},
                  {0, 0}},
    [L_RV3DPP8] = {3,
                   5,
                   {F(0, 0, 8, K_REG8), F(0, 8, 7, K_SDST7), F(2, 0, 8, K_REG8), F(1, 9, 9, K_SRC9),
                    F(1, 18, 9, K_SRC9)},
                   13,
                   {M(0, 8, 1), M(0, 9, 1), M(0, 10, 1), M(0, 11, 1), M(0, 12, 1), M(0, 13, 1),
                    M(0, 14, 1), M(0, 15, 1), M(1, 27, 1), M(1, 28, 1), M(1, 29, 1), M(1, 30, 1),
                    M(1, 31, 1)},
                   {0, 0},
                   {0, 0},
                   {0, 0}},
    /* w0: opx[25:22] opy[21:17] vsrc1x[16:9] src0x[8:0]; w1: vdstx[31:24] vdsty[23:17]
     * vsrc1y[16:9] src0y[8:0]; a literal or K in w2, shared by both halves */
    [L_VOPD] = {2,
                7,
                {F(1, 24, 8, K_REG8), F(0, 0, 9, K_SRC9), F(0, 9, 8, K_REG8), F(1, 17, 7, K_VDSTY),
                 F(1, 0, 9, K_SRC9), F(1, 9, 8, K_REG8), F(2, 0, 32, K_LIT32)},
                0,
                {{0}},
                {0, 0},
                {0, 0},
                {0, 0}},
    /* op[25:18] gds[17] (gfx11) offset1[15:8] offset0[7:0]; w1 as on CDNA */
    [L_RDS] = {2,
               4,
               {F(1, 24, 8, K_REG8), F(1, 0, 8, K_REG8), F(1, 8, 8, K_REG8), F(1, 16, 8, K_REG8)},
               1,
               {M(0, 17, 1)},
               {0, 0},
               {0, 0},
               {0, 0}},
    /* op[24:18] seg[17:16] slc[15] glc[14] dlc[13] offset[12:0]; w1: vdst[31:24] sve[23]
     * saddr[22:16] data[15:8] addr[7:0]; glc makes an atomic return */
    [L_RFLAT] = {2,
                 4,
                 {F(1, 24, 8, K_REG8), F(1, 0, 8, K_VADDR), F(1, 8, 8, K_REG8),
                  F(1, 16, 7, K_SADDR)},
                 4,
                 {M(0, 15, 1), M(0, 14, 1), M(0, 13, 1), M(1, 23, 1)},
                 {0, 1u << 23},
                 {1u << 14, 0},
                 {0, 0}},
    /* seg[25:24] op[21:14] nv[7] saddr[6:0]; w1: data[30:23] th[22:20] scope[19:18] sve[17]
     * scale_offset[16] vdst[7:0]; w2: offset[31:8] addr[7:0]; th[0] makes an atomic return */
    [L_VFLAT] = {3,
                 4,
                 {F(1, 0, 8, K_REG8), F(2, 0, 8, K_VADDR), F(1, 23, 8, K_REG8),
                  F(0, 0, 7, K_SADDR)},
                 5,
                 {M(0, 7, 1), M(1, 20, 3), M(1, 18, 2), M(1, 17, 1), M(1, 16, 1)},
                 {0, 1u << 17},
                 {0, 1u << 20},
                 {0, 0}},
    /* op[25:18] glc[14] dlc[13] slc[12] offset[11:0]; w1: soffset[31:24] idxen[23] offen[22]
     * tfe[21] srsrc[20:16] vdata[15:8] vaddr[7:0] */
    [L_RMUBUF] = {2,
                  4,
                  {F(1, 8, 8, K_REG8), F(1, 0, 8, K_VADDR), F(1, 16, 5, K_SRSRC),
                   F(1, 24, 8, K_SRC8)},
                  6,
                  {M(0, 14, 1), M(0, 13, 1), M(0, 12, 1), M(1, 23, 1), M(1, 22, 1), M(1, 21, 1)},
                  {0, 1u << 22},
                  {1u << 14, 1u << 22},
                  {0, 0}},
    /* format[25:19] op[18:15], the rest as MUBUF */
    [L_RMTBUF] = {2,
                  4,
                  {F(1, 8, 8, K_REG8), F(1, 0, 8, K_VADDR), F(1, 16, 5, K_SRSRC),
                   F(1, 24, 8, K_SRC8)},
                  7,
                  {M(0, 19, 7), M(0, 14, 1), M(0, 13, 1), M(0, 12, 1), M(1, 23, 1), M(1, 22, 1),
                   M(1, 21, 1)},
                  {0, 1u << 22},
                  {0, 0},
                  {0, 0}},
    /* tfe[22] op[21:14] nv[7] soffset[6:0]; w1: idxen[31] offen[30] format[29:23] th[22:20]
     * scope[19:18] srsrc[15:9] vdata[7:0]; w2: offset[31:8] vaddr[7:0] */
    [L_VBUF] = {3,
                4,
                {F(1, 0, 8, K_REG8), F(2, 0, 8, K_VADDR), F(1, 9, 7, K_SREG7), F(0, 0, 7, K_SDST7)},
                7,
                {M(0, 22, 1), M(0, 7, 1), M(1, 31, 1), M(1, 30, 1), M(1, 23, 7), M(1, 20, 3),
                 M(1, 18, 2)},
                {0, 1u << 30},
                {0, 1u << 30 | 1u << 20},
                {0, 0}},
    /* op[21:20] wait_vdst[19:16] (gfx12: wait_va_vdst; wait_vm_vsrc[23]) attr[15:10]
     * attr_chan[9:8] vdst[7:0] */
    [L_LDSDIR] = {1,
                  2,
                  {F(0, 0, 8, K_REG8), F(0, 8, 8, K_SEARCH)},
                  2,
                  {M(0, 16, 4), M(0, 23, 1)},
                  {0, 0},
                  {0, 0},
                  {0, 0}},
    /* op[22:16] clamp[15] op_sel[14:11] wait_exp[10:8] vdst[7:0]; w1: neg[31:29] src2 src1
     * src0 */
    [L_VINTERP] = {2,
                   4,
                   {F(0, 0, 8, K_REG8), F(1, 0, 9, K_SRC9), F(1, 9, 9, K_SRC9),
                    F(1, 18, 9, K_SRC9)},
                   9,
                   {M(0, 15, 1), M(0, 14, 1), M(0, 13, 1), M(0, 12, 1), M(0, 11, 1), M(0, 8, 3),
                    M(1, 29, 1), M(1, 30, 1), M(1, 31, 1)},
                   {0, 0},
                   {0, 0},
                   {0, 0}},
};
#undef F
#undef FX
#undef M
#undef DPP_MODS
#undef SDWA_DST_MODS
#undef SDWA_SRC_MODS

/* One way to encode a mnemonic: a template (opcode and format bits set, operand fields zero). */
typedef struct {
    char mnem[64];
    uint8_t lay;            /* L_* */
    uint8_t mapped;         /* opmap computed */
    uint8_t size;           /* template size in bytes */
    int8_t opmap[PL_MAXOP]; /* printed operand -> field index, -1 implicit */
    uint8_t nprinted;
    int8_t opmap2[PL_MAXOP]; /* the same from non-zero fields (operands printed only then) */
    uint8_t nprinted2;
    int8_t opmap3[PL_MAXOP]; /* the same with the layout's alt_or bits (returning atomics) */
    uint8_t nprinted3;
    int8_t opmap4[PL_MAXOP]; /* ... and with its alt2_or bits */
    uint8_t nprinted4;
    uint32_t w[4];
} entry;

struct isa_asm {
    isa_arch arch;
    int wave64; /* RDNA: lane masks are SGPR pairs in the text (vcc, s[0:1]) */
    entry *e;
    size_t ne;
    regname *rn;
    size_t nrn;
};

static int print_words(isa_arch arch, const uint32_t *w, size_t nw, char *buf, size_t bn,
                       size_t *size) {
    isa_inst in;
    size_t n = isa_decode(arch, (const uint8_t *)w, nw * 4, &in);
    if (!n)
        return 0;
    isa_print(&in, buf, bn);
    if (size)
        *size = n;
    /* LLVM's annotations mark encodings it would not assemble back */
    if (strstr(buf, "Warning:") || strstr(buf, "/*"))
        return 0;
    return 1;
}

static int entry_cmp(const void *a, const void *b) {
    return strcmp(((const entry *)a)->mnem, ((const entry *)b)->mnem);
}

static int add_entry(isa_asm *a, size_t *cap, int lay, const uint32_t *w) {
    char buf[256];
    size_t size;
    uint32_t t[4] = {w[0], w[1], w[2], w[3]};
    if (!print_words(a->arch, t, 4, buf, sizeof buf, &size)) {
        /* ops that take no SGPR source (v_swap_b32, v_accvgpr_mov_b32, ...): v0 sources;
         * SMEM ops without an immediate form: imm=0 */
        int ok = 0;
        if (lay == L_VOP1 || lay == L_VOP2 || lay == L_VOPC) {
            t[0] |= 256;
            ok = print_words(a->arch, t, 4, buf, sizeof buf, &size);
        } else if (lay == L_VOPD) { /* VGPR sources */
            for (uint32_t m = 1; m < 4 && !ok; m++) {
                t[0] = (w[0] & ~0x1ffu) | (m & 1 ? 256u : 0);
                t[1] = (w[1] & ~0x1ffu) | (m & 2 ? 256u : 0);
                ok = print_words(a->arch, t, 4, buf, sizeof buf, &size);
            }
        } else if (lay == L_VINTERP) {
            t[1] = 256u | 256u << 9 | 256u << 18;
            ok = print_words(a->arch, t, 4, buf, sizeof buf, &size);
        } else if (lay == L_RV3DPP || lay == L_RV3DPP8) { /* VGPR src1/src2, v_cmpx exec_lo */
            for (uint32_t m = 1; m < 8 && !ok; m++) {
                t[0] = w[0] | (m & 4 ? 126u : 0);
                t[1] = (w[1] & 0x1ffu) | (m & 1 ? 256u : 0) << 9 | (m & 2 ? 256u : 0) << 18;
                ok = print_words(a->arch, t, 4, buf, sizeof buf, &size);
            }
        } else if (lay == L_VOP3) {
            /* each source a VGPR or an SGPR (v_readlane_b32 v0-source, s-lane); on RDNA also
             * v_cmpx_*_e64 (vdst = exec_lo, 126) and WMMA/SWMMAC (op_sel_hi all ones) */
            for (uint32_t m = 1; m < 8 * (isa_is_rdna(a->arch) ? 4 : 1) && !ok; m++) {
                t[0] = w[0] | (m & 8 ? 126u : 0) | (m & 16 ? 1u << 14 : 0);
                t[1] = (m & 1 ? 256u : 0) | (m & 2 ? 256u : 0) << 9 | (m & 4 ? 256u : 0) << 18 |
                       (m & 16 ? 3u << 27 : 0);
                ok = print_words(a->arch, t, 4, buf, sizeof buf, &size);
            }
        } else if (lay == L_SMEM) {
            t[0] &= ~(1u << 17);
            ok = print_words(a->arch, t, 4, buf, sizeof buf, &size);
        } else if (lay == L_DS || lay == L_RDS) { /* GWS ops exist only with gds set */
            t[0] |= lay == L_DS ? 1u << 16 : 1u << 17;
            ok = print_words(a->arch, t, 4, buf, sizeof buf, &size);
        }
        if (!ok)
            return 0;
    }
    if (a->ne == *cap) {
        size_t nc = *cap ? *cap * 2 : 1024;
        entry *ne = realloc(a->e, nc * sizeof *ne);
        if (!ne)
            return -1;
        a->e = ne;
        *cap = nc;
    }
    entry *e = &a->e[a->ne++];
    memset(e, 0, sizeof *e);
    pline pl;
    parse_line(buf, &pl); /* VOPD: "v_dual_x::v_dual_y" */
    snprintf(e->mnem, sizeof e->mnem, "%s", pl.mnem);
    e->lay = (uint8_t)lay;
    e->size = (uint8_t)size;
    memcpy(e->w, t, sizeof t);
    return 1;
}

static void add_regname(isa_asm *a, const char *name, unsigned enc, unsigned n, int special) {
    regname *r = realloc(a->rn, (a->nrn + 1) * sizeof *r);
    if (!r)
        return;
    a->rn = r;
    r = &a->rn[a->nrn++];
    snprintf(r->name, sizeof r->name, "%s", name);
    r->enc = (uint16_t)enc;
    r->n = (uint8_t)n;
    r->special = (uint8_t)special;
}

/* The RDNA templates: every opcode of every format (RDNA3/RDNA4 ISA "Microcode formats"), in
 * each form LLVM prints with its own mnemonic suffix (e32, DPP16, DPP8, e64, e64_dpp), FLAT in
 * each segment. */
static int add_rdna_templates(isa_asm *a, size_t *cap) {
    int g12 = isa_targets[a->arch].rdna >= 12;
    uint32_t w[4];
#define ADDR(lay, w0, w1, w2)                                                                      \
    do {                                                                                           \
        w[0] = (w0), w[1] = (w1), w[2] = (w2), w[3] = 0;                                           \
        if (add_entry(a, cap, lay, w) < 0)                                                         \
            return -1;                                                                             \
    } while (0)
    for (uint32_t op = 0; op < 128; op++)
        if (isa_identify(0x80000000u | op << 23) == ISA_FMT_SOP2)
            ADDR(L_RSOP2, 0x80000000u | op << 23, 0, 0);
    for (uint32_t op = 0; op < 32; op++)
        if (isa_identify(0xb0000000u | op << 23) == ISA_FMT_SOPK)
            ADDR(L_SOPK, 0xb0000000u | op << 23, 0, 0);
    for (uint32_t op = 0; op < 256; op++)
        ADDR(L_SOP1, 0xbe800000u | op << 8, 0, 0);
    for (uint32_t op = 0; op < 128; op++) {
        ADDR(L_SOPC, 0xbf000000u | op << 16, 0, 0);
        ADDR(L_SOPP, 0xbf800000u | op << 16, 0, 0);
    }
    for (uint32_t op = 0; op < 256; op++) {
        if (g12 && op >= 64)
            break;
        ADDR(g12 ? L_RSMEM12 : L_RSMEM11, 0xf4000000u | op << (g12 ? 13 : 18), 0, 0);
    }
    /* DPP16 dword: quad_perm:[0,1,2,3], all rows and banks; DPP8: the identity selects */
    const uint32_t dpp16 = 0xff00e400u, dpp8 = 0xfac688u << 8;
    for (uint32_t op = 0; op < 62; op++) {
        ADDR(L_VOP2, op << 25, 0, 0);
        ADDR(L_RDPP2, op << 25 | 0xfa, dpp16, 0);
        ADDR(L_RDPP8_2, op << 25 | 0xe9, dpp8, 0);
    }
    for (uint32_t op = 0; op < 256; op++) {
        ADDR(L_VOP1, 0x7e000000u | op << 9, 0, 0);
        ADDR(L_RDPP1, 0x7e000000u | op << 9 | 0xfa, dpp16, 0);
        ADDR(L_RDPP8_1, 0x7e000000u | op << 9 | 0xe9, dpp8, 0);
        ADDR(L_VOPC, 0x7c000000u | op << 17, 0, 0);
        ADDR(L_RDPPC, 0x7c000000u | op << 17 | 0xfa, dpp16, 0);
        ADDR(L_RDPP8_C, 0x7c000000u | op << 17 | 0xe9, dpp8, 0);
    }
    for (uint32_t op = 0; op < 1024 + 128; op++) {
        uint32_t w0 = op < 1024 ? 0xd4000000u | op << 16 : 0xcc000000u | (op - 1024) << 16;
        ADDR(L_VOP3, w0, 0, 0);
        ADDR(L_RV3DPP, w0, 0xfa, dpp16);
        ADDR(L_RV3DPP8, w0, 0xe9, dpp8);
    }
    for (uint32_t x = 0; x < 16; x++)
        for (uint32_t y = 0; y < 32; y++)
            ADDR(L_VOPD, 0xc8000000u | x << 22 | y << 17, 0, 0);
    for (uint32_t op = 0; op < 256; op++)
        ADDR(L_RDS, 0xd8000000u | op << 18, 0, 0);
    for (uint32_t seg = 0; seg < 3; seg++)
        for (uint32_t op = 0; op < (g12 ? 256u : 128u); op++) {
            if (g12)
                ADDR(L_VFLAT, 0xec000000u | seg << 24 | op << 14 | 124u, 0, 0);
            else
                ADDR(L_RFLAT, 0xdc000000u | op << 18 | seg << 16, 124u << 16, 0);
        }
    for (uint32_t op = 0; op < (g12 ? 256u : 128u); op++) {
        if (g12) /* format 1 (BUF_FMT_8_UNORM), llvm-mc's default, on buffer ops too */
            ADDR(L_VBUF, 0xc4000000u | op << 14 | 124u, 1u << 23, 0);
        else
            ADDR(L_RMUBUF, 0xe0000000u | op << 18, 0, 0);
    }
    for (uint32_t op = 0; !g12 && op < 16; op++)
        ADDR(L_RMTBUF, 0xe8000000u | op << 15 | 1u << 19, 0, 0);
    for (uint32_t op = 0; op < 4; op++)
        ADDR(L_LDSDIR, 0xce000000u | op << 20, 0, 0);
    for (uint32_t op = 0; op < 128; op++)
        ADDR(L_VINTERP, 0xcd000000u | op << 16, 0, 0);
#undef ADDR
    return 0;
}

isa_asm *isa_asm_new(isa_arch arch) {
    isa_asm *a = calloc(1, sizeof *a);
    if (!a)
        return NULL;
    a->arch = arch;
    size_t cap = 0;
    uint32_t w[4];
#define ADD(lay, w0, w1)                                                                           \
    do {                                                                                           \
        w[0] = (w0), w[1] = (w1), w[2] = 0, w[3] = 0;                                              \
        if (add_entry(a, &cap, lay, w) < 0)                                                        \
            goto fail;                                                                             \
    } while (0)
    if (isa_is_rdna(arch)) {
        if (add_rdna_templates(a, &cap) < 0)
            goto fail;
        goto sorted;
    }
    for (uint32_t op = 0; op < 128; op++)
        if (isa_identify(0x80000000u | op << 23) == ISA_FMT_SOP2)
            ADD(L_SOP2, 0x80000000u | op << 23, 0);
    for (uint32_t op = 0; op < 32; op++)
        if (isa_identify(0xb0000000u | op << 23) == ISA_FMT_SOPK)
            ADD(L_SOPK, 0xb0000000u | op << 23, 0);
    for (uint32_t op = 0; op < 256; op++)
        ADD(L_SOP1, 0xbe800000u | op << 8, 0);
    for (uint32_t op = 0; op < 128; op++)
        ADD(L_SOPC, 0xbf000000u | op << 16, 0);
    for (uint32_t op = 0; op < 128; op++)
        ADD(L_SOPP, 0xbf800000u | op << 16, 0);
    for (uint32_t op = 0; op < 256; op++)
        ADD(L_SMEM, 0xc0000000u | op << 18 | 1u << 17, 0);
    for (uint32_t op = 0; op < 63; op++) {
        ADD(L_VOP2, op << 25, 0);
        ADD(L_SDWA2, op << 25 | 0xf9, 0x06060600u);
        ADD(L_DPP2, op << 25 | 0xfa, 0xff0000e4u);
    }
    for (uint32_t op = 0; op < 256; op++) {
        ADD(L_VOP1, 0x7e000000u | op << 9, 0);
        ADD(L_SDWA1, 0x7e000000u | op << 9 | 0xf9, 0x00060600u);
        ADD(L_DPP1, 0x7e000000u | op << 9 | 0xfa, 0xff0000e4u);
        ADD(L_VOPC, 0x7c000000u | op << 17, 0);
        ADD(L_SDWAC, 0x7c000000u | op << 17 | 0xf9, 0x06060000u);
        ADD(L_DPPC, 0x7c000000u | op << 17 | 0xfa, 0xff0000e4u);
    }
    for (uint32_t op = 0; op < 1024; op++)
        ADD(L_VOP3, 0xd0000000u | op << 16, 0);
    for (uint32_t op = 0; op < 128; op++) { /* scaled MFMA pairs (gfx950): 16 bytes */
        uint32_t t[4] = {0xd3ac0000u, 256u | 256u << 9, 0xd3800800u | op << 16,
                         256u | 256u << 9 | 256u << 18};
        isa_inst in;
        if (isa_decode(arch, (const uint8_t *)t, 16, &in) == 16 &&
            add_entry(a, &cap, L_SCALED, t) < 0)
            goto fail;
    }
    for (uint32_t op = 0; op < 256; op++)
        ADD(L_DS, 0xd8000000u | op << 17, 0);
    for (uint32_t seg = 0; seg < 3; seg++)
        for (uint32_t op = 0; op < 128; op++)
            ADD(L_FLAT, 0xdc000000u | op << 18 | seg << 14, seg ? 0x007f0000u : 0);
    for (uint32_t op = 0; op < 128; op++)
        ADD(L_MUBUF, 0xe0000000u | op << 18, 0);
    for (uint32_t op = 0; op < 16; op++)
        ADD(L_MTBUF, 0xe8000000u | op << 15 | 1u << 19 | 4u << 23, 0);
#undef ADD
sorted:
    qsort(a->e, a->ne, sizeof *a->e, entry_cmp);
    /* register names, from the printer */
    {
        char buf[64];
        isa_buf b;
        for (unsigned enc = 102; enc < 128; enc++)
            for (unsigned n = 1; n <= 2 - (enc & 1); n++) { /* pairs start at even encodings */
                b = (isa_buf){buf, sizeof buf, 0};
                buf[0] = 0;
                isa_put_sreg_arch(&b, arch, enc, n);
                if (buf[0] && buf[0] != '<' && buf[0] != 't' &&
                    !(buf[0] == 's' && isdigit((unsigned char)buf[1])))
                    add_regname(a, buf, enc, n, 0);
            }
        isa_inst in;
        memset(&in, 0, sizeof in);
        in.arch = (uint8_t)arch;
        for (unsigned enc = 209; enc < 255; enc++) {
            if (enc >= 240 && enc <= 248)
                continue;
            isa_opnd o = {ISA_OPND_SPECIAL, 1, (uint16_t)enc, 0};
            b = (isa_buf){buf, sizeof buf, 0};
            buf[0] = 0;
            isa_put_opnd(&b, &in, &o, ISA_T_B32);
            if (buf[0] && buf[0] != '<')
                add_regname(a, buf, enc, 1, 1);
        }
        add_regname(a, "lds_direct", 254, 1, 1);
    }
    return a;
fail:
    isa_asm_free(a);
    return NULL;
}

void isa_asm_free(isa_asm *a) {
    if (!a)
        return;
    free(a->e);
    free(a->rn);
    free(a);
}

static int parse_reg(const isa_asm *a, const char *t, reg_t *r) {
    unsigned lo, n;
    memset(r, 0, sizeof *r);
    if (!strcmp(t, "off")) {
        r->kind = R_OFF;
        return 1;
    }
    for (size_t i = 0; i < a->nrn; i++)
        if (!strcmp(a->rn[i].name, t)) {
            r->kind = a->rn[i].special ? R_SPECIAL : R_S;
            r->enc = a->rn[i].enc;
            r->n = a->rn[i].n;
            return 1;
        }
    if (!strncmp(t, "ttmp", 4) && parse_range(t + 4, &lo, &n) && lo + n <= 16) {
        r->kind = R_S, r->enc = 108 + lo, r->n = n;
        return 1;
    }
    /* RDNA3/RDNA4 ISA "Scalar operands": s0..s105 */
    if (t[0] == 's' && parse_range(t + 1, &lo, &n) &&
        lo + n <= (isa_is_rdna(a->arch) ? 106u : 102u)) {
        r->kind = R_S, r->enc = lo, r->n = n;
        return 1;
    }
    size_t tl = strlen(t);
    if (isa_is_rdna(a->arch) && t[0] == 'v' && tl > 3 && t[tl - 2] == '.' &&
        (t[tl - 1] == 'l' || t[tl - 1] == 'h')) {
        char num[16];
        if (tl - 3 >= sizeof num)
            return 0;
        memcpy(num, t + 1, tl - 3);
        num[tl - 3] = 0;
        if (!parse_range(num, &lo, &n) || n != 1 || lo > 255)
            return 0;
        r->kind = R_V, r->enc = lo, r->n = 1;
        r->half = t[tl - 1] == 'h' ? ISA_HALF_H : ISA_HALF_L;
        return 1;
    }
    if ((t[0] == 'v' || t[0] == 'a') && parse_range(t + 1, &lo, &n) && lo + n <= 256) {
        r->kind = t[0] == 'v' ? R_V : R_A, r->enc = lo, r->n = n;
        return 1;
    }
    return 0;
}

/* ---- operand values ------------------------------------------------------------------------ */

typedef struct {
    uint32_t v;      /* field value */
    int8_t xbit;     /* set the field's extra bit */
    uint8_t has_lit; /* a literal dword follows */
    uint32_t lit;
    uint32_t clr[2]; /* bits to clear (SMEM imm) */
    uint8_t has_aux; /* K_RSMOFF: an immediate offset for the SMEM offset field */
    uint32_t aux;
} cand;

static const double float_inl[] = {0.5, -0.5, 1.0, -1.0, 2.0, -2.0, 4.0, -4.0};

/* Inline-constant and literal encodings of a constant token, in llvm-mc's order of preference. */
static int const_cands(const char *t, int allow_lit, cand *c, int max) {
    int n = 0;
    int64_t iv;
    double dv;
    memset(c, 0, sizeof *c * (size_t)max);
    if (!strncmp(t, "lit(", 4)) {
        char in[PL_TOK];
        snprintf(in, sizeof in, "%s", t + 4);
        size_t l = strlen(in);
        if (!l || in[l - 1] != ')' || !allow_lit)
            return 0;
        in[l - 1] = 0;
        if (!parse_int(in, &iv))
            return 0;
        c[0].v = 255, c[0].has_lit = 1, c[0].lit = (uint32_t)iv;
        return 1;
    }
    if (parse_int(t, &iv)) {
        if (iv >= 0 && iv <= 64)
            c[n++].v = (uint32_t)(128 + iv);
        else if (iv < 0 && iv >= -16)
            c[n++].v = (uint32_t)(192 - iv);
        /* the f32 pattern of a float constant is inlined where the operand is 32 bits wide,
         * an f16 pattern only where it is a 16-bit float (i16 operands print float constants
         * as f16 bits, but llvm-mc reads such hex as a literal); a 64-bit operand keeps the
         * literal (s_cselect_b64 s[8:9], 0x3f800000, ...: the inline 1.0 would be the f64
         * 1.0 there).  So the literal comes first: where the operand could inline it, it
         * prints as lit(...) and the inline form after it is taken */
        if (allow_lit && n < max) {
            c[n].v = 255, c[n].has_lit = 1, c[n].lit = (uint32_t)iv;
            n++;
        }
        for (int k = 0; k < 8 && n < max - 3; k++)
            if ((uint64_t)iv == f32_bits(float_inl[k]))
                c[n++].v = (uint32_t)(240 + k);
        if (iv == 0x3e22f983 && n < max - 3)
            c[n++].v = 248;
        /* 0xfffffff0..0xffffffff: a 32-bit operand reads them as -16..-1, which llvm-mc-22
         * encodes inline; after the literal, which a 64-bit operand keeps (s_mov_b64 s[0:1],
         * 0xffffffff prints the literal back, a 32-bit one prints lit(0xffffffff)) */
        if (iv >= 0xfffffff0LL && iv <= 0xffffffffLL && n < max)
            c[n++].v = (uint32_t)(192 + (0x100000000LL - iv));
        if (iv >= 0xfff0 && iv <= 0xffff && n < max) /* the same for a 16-bit float operand */
            c[n++].v = (uint32_t)(192 + (0x10000 - iv));
        for (int k = 0; k < 8 && n < max - 2; k++)
            if ((uint64_t)iv == f16_bits(float_inl[k]))
                c[n++].v = (uint32_t)(240 + k);
        if (iv == 0x3118 && n < max - 2)
            c[n++].v = 248;
        if (allow_lit && n < max && iv > 0xffffffffLL) { /* 64-bit value: its high half */
            c[n].v = 255, c[n].has_lit = 1, c[n].lit = (uint32_t)((uint64_t)iv >> 32);
            n++;
        }
        if (allow_lit && n < max && (uint64_t)iv >> 32 == 0xffffffffu) { /* sign-extended */
            c[n].v = 255, c[n].has_lit = 1, c[n].lit = (uint32_t)iv;
            n++;
        }
        return n;
    }
    if (parse_float(t, &dv)) {
        for (int k = 0; k < 8; k++)
            if (dv == float_inl[k])
                c[n++].v = (uint32_t)(240 + k);
        if (fabs(dv - 0.15915494309189532) < 1e-6)
            c[n++].v = 248;
        if (allow_lit) {
            uint32_t lits[4] = {f32_bits(dv), f16_bits(dv), (uint32_t)(bf64(dv) >> 32),
                                f32_bits(dv) >> 16};
            for (int k = 0; k < 4 && n < max; k++) {
                c[n].v = 255, c[n].has_lit = 1, c[n].lit = lits[k];
                n++;
            }
        }
        return n;
    }
    return 0;
}

/* Parse the SOPP/SOPK special immediates whose fields are known from the manual. */
static int waitcnt_value(int rdna, const char *t, uint32_t *out) {
    unsigned vm = 63, exp = 7, lgkm = rdna ? 63 : 15;
    const char *s = t;
    while (*s) {
        while (*s == ' ' || *s == '&')
            s++;
        if (!*s)
            break;
        char name[16];
        size_t l = strcspn(s, "(");
        if (l >= sizeof name || !s[l])
            return 0;
        memcpy(name, s, l);
        name[l] = 0;
        char *e;
        unsigned long v = strtoul(s + l + 1, &e, 0);
        if (*e != ')')
            return 0;
        if (!strcmp(name, "vmcnt") && v < 64)
            vm = (unsigned)v;
        else if (!strcmp(name, "expcnt") && v < 8)
            exp = (unsigned)v;
        else if (!strcmp(name, "lgkmcnt") && v < (rdna ? 64u : 16u))
            lgkm = (unsigned)v;
        else
            return 0;
        s = e + 1;
    }
    /* RDNA3 S_WAITCNT: expcnt[2:0], lgkmcnt[9:4], vmcnt[15:10] */
    if (rdna) {
        *out = exp | lgkm << 4 | vm << 10;
        return 1;
    }
    /* CDNA3/CDNA4 S_WAITCNT: vmcnt[3:0], expcnt[6:4], lgkmcnt[11:8], vmcnt[5:4] in [15:14] */
    *out = (vm & 15) | (exp << 4) | (lgkm << 8) | ((vm >> 4) << 14);
    return 1;
}

/* ---- building and checking a candidate ------------------------------------------------------ */

typedef struct {
    const isa_asm *a;
    const entry *e;
    const pline *in;
    int mnem_suffix_ok;    /* the input mnemonic lacks the _e32/_e64/... suffix */
    const char *ds_offset; /* a DS offset as written, when in holds its printed form instead */
} job;

static void set_bits(uint32_t *w, unsigned wi, unsigned sh, unsigned width, uint32_t v) {
    uint32_t m = width >= 32 ? 0xffffffffu : ((1u << width) - 1) << sh;
    w[wi] = (w[wi] & ~m) | ((v << sh) & m);
}

static uint32_t get_bits(const uint32_t *w, unsigned wi, unsigned sh, unsigned width) {
    return width >= 32 ? w[wi] : (w[wi] >> sh) & ((1u << width) - 1);
}

/* RDNA SMEM: gfx12 prints "offset:0x0" beside an SGPR soffset, gfx11 leaves it out; llvm-mc
 * takes both spellings for the same bytes. */
static void drop_zero_offset(pline *p) {
    for (int i = 0; i < p->nkv; i++) {
        int64_t v;
        if (strcmp(p->key[i], "offset") || !parse_int(p->val[i], &v) || v)
            continue;
        memmove(&p->key[i], &p->key[i + 1], (size_t)(p->nkv - i - 1) * sizeof p->key[0]);
        memmove(&p->val[i], &p->val[i + 1], (size_t)(p->nkv - i - 1) * sizeof p->val[0]);
        memmove(&p->kvcol[i], &p->kvcol[i + 1], (size_t)(p->nkv - i - 1) * sizeof p->kvcol[0]);
        p->nkv--;
        return;
    }
}

/* VINTERP/LDSDIR: the printer always writes the wait counts (wait_exp:0), llvm-mc takes them
 * left out as 0: a zero count the input does not name is dropped from the printed line. */
static void drop_zero_waits(pline *p, const pline *in) {
    for (int i = 0; i < p->nkv; i++) {
        int64_t v;
        if (strncmp(p->key[i], "wait_", 5) || !parse_int(p->val[i], &v) || v ||
            kv_get(in, p->key[i]))
            continue;
        memmove(&p->key[i], &p->key[i + 1], (size_t)(p->nkv - i - 1) * sizeof p->key[0]);
        memmove(&p->val[i], &p->val[i + 1], (size_t)(p->nkv - i - 1) * sizeof p->val[0]);
        memmove(&p->kvcol[i], &p->kvcol[i + 1], (size_t)(p->nkv - i - 1) * sizeof p->kvcol[0]);
        p->nkv--;
        i--;
    }
}

/* Print words; fill pl. */
static int try_print(const job *j, const uint32_t *w, pline *pl, size_t *size, char *text,
                     size_t tn) {
    char buf[256];
    if (!print_words(j->a->arch, w, 4, buf, sizeof buf, size))
        return 0;
    parse_line(buf, pl);
    if (isa_is_rdna(j->a->arch) && !strncmp(pl->mnem, "s_", 2))
        drop_zero_offset(pl);
    if (isa_is_rdna(j->a->arch) && j->in)
        drop_zero_waits(pl, j->in);
    if (text)
        snprintf(text, tn, "%s", buf);
    return !pl->bad;
}

static int strip_dpp(const char *m, char *out, size_t n);

static int mnem_ok(const job *j, const pline *c) {
    char sd[64];
    if (!strcmp(j->in->mnem, c->mnem) ||
        (strip_dpp(j->in->mnem, sd, sizeof sd) && !strcmp(sd, c->mnem)))
        return 1;
    size_t l = strlen(j->in->mnem);
    if (strncmp(j->in->mnem, c->mnem, l))
        return 0;
    const char *suf = c->mnem + l;
    return !strcmp(suf, "_e32") || !strcmp(suf, "_e64");
}

/* RDNA VOPC DPP prints without its _dpp suffix (v_cmp_lt_f32 vcc_lo, v0, v1 quad_perm:...),
 * which llvm-mc also accepts: the input's mnemonic minus "_dpp". */
static int strip_dpp(const char *m, char *out, size_t n) {
    size_t l = strlen(m);
    if (l < 5 || l >= n || strcmp(m + l - 4, "_dpp") || !strncmp(m + l - 8, "_e64_dpp", 8))
        return 0;
    memcpy(out, m, l - 4);
    out[l - 4] = 0;
    return 1;
}

/* Distance of words w from the input; big when they do not decode. */
static int dist_of(const job *j, const uint32_t *w, size_t *size) {
    pline c;
    if (!try_print(j, w, &c, size, NULL, 0))
        return 1 << 20;
    if (!mnem_ok(j, &c))
        return 1 << 19;
    return line_dist(j->in, &c);
}

static uint32_t probe_value(const fld *F, int second) {
    /* register tuples up to 16 SGPRs / 8 VGPRs stay aligned: s4, s[4:7], s[12:27], v[4:7] */
    uint32_t pv = F->kind == K_SRSRC ? 1 : F->kind == K_SBASE ? 2 : 4;
    return second ? pv * 3 : pv;
}

/* Two printed register tuples that start at the same register and differ only in size: a
 * modifier field changed the operand's width (an f8f6f4 MFMA's cbsz/blgp select the A/B formats,
 * and cbsz sits where VOP3's sdst would be), not which register it is. */
static int width_only(const char *a, const char *b) {
    if (a[0] != b[0] || !strchr("vsa", a[0]) || a[1] != '[' || b[1] != '[')
        return 0;
    return strtoul(a + 2, NULL, 10) == strtoul(b + 2, NULL, 10);
}

/* One operand map: base words w0 (fields at value set `from`: 0 or the first probe values),
 * each field moved to the next probe value in turn. */
static int compute_map(const isa_asm *a, const entry *e, int from, const uint32_t *extra,
                       int8_t *opmap, uint8_t *np) {
    const layout *L = &layouts[e->lay];
    job j = {a, e, NULL, 0, NULL};
    uint32_t w0[4];
    pline p0, p1;
    memset(opmap, -1, PL_MAXOP);
    for (int pass = 0; pass < 2; pass++) {
        memcpy(w0, e->w, sizeof w0);
        /* FLAT bit 13 is scratch's SVE only on gfx940+; on gfx90a it is the LDS bit, which
         * drops the load's vdst from the printed text and so must stay clear while probing. */
        if (pass == 0 && (e->lay != L_FLAT || isa_targets[a->arch].flat_sve)) {
            w0[0] |= L->probe_or[0];
            w0[1] |= L->probe_or[1];
        }
        if (extra) {
            w0[0] |= extra[0];
            w0[1] |= extra[1];
        }
        if (from)
            for (int f = 0; f < L->nf; f++) {
                const fld *F = &L->f[f];
                uint32_t v =
                    probe_value(F, 0) + (get_bits(e->w, F->w, F->sh, F->width) >= 256 ? 256 : 0);
                set_bits(w0, F->w, F->sh, F->width, v);
            }
        if (try_print(&j, w0, &p0, NULL, NULL, 0))
            break;
        if (pass == 1)
            return 0;
    }
    *np = (uint8_t)p0.nops;
    for (int f = 0; f < L->nf; f++) {
        const fld *F = &L->f[f];
        uint32_t w1[4];
        memcpy(w1, w0, sizeof w1);
        set_bits(w1, F->w, F->sh, F->width,
                 probe_value(F, from) + (get_bits(e->w, F->w, F->sh, F->width) >= 256 ? 256 : 0));
        if (F->xw >= 0)
            w1[F->xw] |= 1u << F->xsh;
        if (!try_print(&j, w1, &p1, NULL, NULL, 0) || p1.nops != p0.nops)
            continue;
        for (int i = 0; i < p0.nops && i < PL_MAXOP; i++)
            if (strcmp(p0.op[i], p1.op[i]) && opmap[i] < 0 && !width_only(p0.op[i], p1.op[i])) {
                opmap[i] = (int8_t)f;
                break;
            }
    }
    return 1;
}

/* Compute the operand maps of an entry: which field prints each operand.  Operands that appear
 * only for non-zero field values (s_endpgm 3) get a second map from a non-zero base. */
static void map_entry(const isa_asm *a, entry *e) {
    e->mapped = 1;
    const layout *L = &layouts[e->lay];
    if (!compute_map(a, e, 0, NULL, e->opmap, &e->nprinted))
        e->nprinted = 0xff;
    if (!compute_map(a, e, 1, NULL, e->opmap2, &e->nprinted2))
        e->nprinted2 = 0xff;
    if (!(L->alt_or[0] | L->alt_or[1]) ||
        !compute_map(a, e, 0, L->alt_or, e->opmap3, &e->nprinted3))
        e->nprinted3 = 0xff;
    /* gfx90a's FLAT LDS bit (global/scratch loads into LDS print no vdst) takes the fourth map */
    static const uint32_t flat_lds[2] = {1u << 13, 0};
    const uint32_t *alt2 =
        e->lay == L_FLAT && !isa_targets[a->arch].flat_sve ? flat_lds : L->alt2_or;
    if (!(alt2[0] | alt2[1]) || !compute_map(a, e, 0, alt2, e->opmap4, &e->nprinted4))
        e->nprinted4 = 0xff;
}

/* Candidate field values for an operand token in a field of kind k. */
static int operand_cands(const job *j, const fld *F, const char *t, cand *c, int max) {
    reg_t r;
    memset(c, 0, sizeof *c * (size_t)max);
    int isreg = parse_reg(j->a, t, &r);
    switch (F->kind) {
    case K_SRC9:
    case K_SRC8:
        if (isreg) {
            if (r.kind == R_S || r.kind == R_SPECIAL) {
                c[0].v = r.enc;
                return 1;
            }
            if ((r.kind == R_V || r.kind == R_A) && F->kind == K_SRC9) {
                c[0].v = 256 + r.enc;
                /* a true16 high half: bit 7 of a VOP1/VOP2/VOPC VGPR field (v0..v127), or
                 * the op_sel bit of a VOP3 source (found by the modifier search) */
                if (r.half == ISA_HALF_H && r.enc < 128)
                    c[1].v = 256 + 128 + r.enc;
                return r.half == ISA_HALF_H && r.enc < 128 ? 2 : 1;
            }
            return 0;
        }
        {
            int n = const_cands(t, 1, c, max);
            /* other symbolic forms (gpr_idx(SRC0,...)) are looked up through the printer */
            return n ? n : isalpha((unsigned char)t[0]) && strchr(t, '(') ? -1 : 0;
        }
    case K_SDWA_SRC:
        if (isreg && (r.kind == R_V || r.kind == R_A)) {
            c[0].v = r.enc;
            return 1;
        }
        if (isreg && (r.kind == R_S || r.kind == R_SPECIAL)) {
            c[0].v = r.enc, c[0].xbit = 1;
            return 1;
        }
        {
            int n = const_cands(t, 0, c, max);
            for (int i = 0; i < n; i++)
                c[i].xbit = 1;
            return n;
        }
    case K_SDWA_SDST:
        if (isreg && r.kind == R_S) {
            /* vcc is SD=0 (llvm-mc's form); any SGPR pair also fits the sdst field with SD=1 */
            c[r.enc == 106].v = r.enc, c[r.enc == 106].xbit = 1;
            c[r.enc != 106].v = 0;
            return 2;
        }
        return 0;
    case K_REG8: /* (VOPC _e64 sdst may name any scalar source, src_* included) */
        if (isreg && (r.kind == R_V || r.kind == R_A || r.kind == R_S || r.kind == R_SPECIAL)) {
            c[0].v = r.enc;
            if (r.half == ISA_HALF_H && r.enc < 128) {
                c[1].v = 128 + r.enc;
                return 2;
            }
            return 1;
        }
        return 0;
    case K_VDSTY:
        if (isreg && r.kind == R_V) {
            c[0].v = r.enc >> 1;
            return 1;
        }
        return 0;
    case K_SREG7:
        if (isreg && r.kind == R_S) {
            c[0].v = r.enc;
            return 1;
        }
        return 0;
    case K_SEARCH: return -1;
    case K_IMM: {
        int64_t v;
        if (!parse_int(t, &v))
            return 0;
        c[0].v = (uint32_t)v & ((1u << F->width) - 1);
        return 1;
    }
    case K_RSMOFF: {
        int64_t v;
        if (isreg && r.kind == R_S) {
            c[0].v = r.enc;
            return 1;
        }
        if (parse_int(t, &v)) { /* an immediate offset: soffset = null (RDNA3 ISA "SMEM") */
            c[0].v = 124, c[0].has_aux = 1, c[0].aux = (uint32_t)v;
            return 1;
        }
        return 0;
    }
    case K_VADDR:
        if (isreg && (r.kind == R_V || r.kind == R_A)) {
            c[0].v = r.enc;
            return 1;
        }
        if (isreg && r.kind == R_OFF) {
            c[0].v = 0;
            return 1;
        }
        return 0;
    case K_SDST7: {
        int64_t v;
        if (isreg && r.kind == R_S) {
            c[0].v = r.enc;
            return 1;
        }
        if (parse_int(t, &v) && v >= 0 && v < 128) { /* s_atc_probe's sdata is a number */
            c[0].v = (uint32_t)v;
            return 1;
        }
        return 0;
    }
    case K_SADDR:
        if (isreg && r.kind == R_S) {
            c[0].v = r.enc;
            return 1;
        }
        if (isreg && r.kind == R_OFF) { /* off: 0x7f on GFX9, null (124) on RDNA */
            c[0].v = isa_is_rdna(j->a->arch) ? 124 : 0x7f;
            return 1;
        }
        return 0;
    case K_SBASE:
        if (isreg && r.kind == R_S) {
            c[0].v = r.enc / 2;
            return 1;
        }
        return 0;
    case K_SRSRC:
        if (isreg && r.kind == R_S) {
            c[0].v = r.enc / 4;
            return 1;
        }
        return 0;
    case K_SMOFF: {
        int64_t v;
        if (isreg && r.kind == R_S) {
            c[0].v = r.enc, c[0].clr[0] = 1u << 17;
            return 1;
        }
        if (parse_int(t, &v)) {
            c[0].v = (uint32_t)v & 0x1fffff;
            return 1;
        }
        return 0;
    }
    case K_LIT32: {
        int n = const_cands(t, 1, c, max), k = 0;
        for (int i = 0; i < n; i++)
            if (c[i].has_lit)
                c[k].v = c[i].lit, c[k].has_lit = 0, k++;
        return k;
    }
    case K_SIMM16: {
        int64_t v;
        uint32_t u;
        if (parse_int(t, &v)) {
            c[0].v = (uint32_t)v & 0xffff;
            return 1;
        }
        if (waitcnt_value(isa_is_rdna(j->a->arch), t, &u)) {
            c[0].v = u;
            return 1;
        }
        return -1; /* symbolic: search the field */
    }
    }
    return 0;
}

/* Search a field for the value whose printed operand i equals token t (hwreg(), sendmsg(), ...). */
static int search_field(const job *j, uint32_t *w, const fld *F, int i, const char *t,
                        uint32_t lim) {
    for (uint32_t v = 0; v < lim; v++) {
        uint32_t x[4];
        memcpy(x, w, sizeof x);
        set_bits(x, F->w, F->sh, F->width, v);
        pline c;
        if (try_print(j, x, &c, NULL, NULL, 0) && i < c.nops && !strcmp(c.op[i], t)) {
            memcpy(w, x, sizeof x);
            return 1;
        }
    }
    return 0;
}

/* s_delay_alu's "instid0(X) | instskip(Y) | instid1(Z)" (RDNA3 ISA "S_DELAY_ALU": instid0[3:0],
 * instskip[6:4], instid1[10:7]): each part's value is found through the printer alone. */
static int delay_alu_field(const job *j, uint32_t *w, const fld *F, int i, const char *t) {
    static const unsigned sh[3] = {0, 4, 7};
    if (strncmp(t, "instid0(", 8) && strncmp(t, "instskip(", 9) && strncmp(t, "instid1(", 8))
        return 0;
    uint32_t v = 0;
    const char *s = t;
    while (*s) {
        char part[PL_TOK];
        size_t l = strcspn(s, "|");
        cpy(part, sizeof part, s, l);
        int found = 0;
        for (int k = 0; k < 3 && !found; k++)
            for (uint32_t x = 1; x < 16 && !found; x++) {
                uint32_t y[4];
                memcpy(y, w, sizeof y);
                set_bits(y, F->w, F->sh, F->width, x << sh[k]);
                pline c;
                if (try_print(j, y, &c, NULL, NULL, 0) && i < c.nops && !strcmp(c.op[i], part))
                    v |= x << sh[k], found = 1;
            }
        if (!found)
            return 0;
        s += l;
        if (*s == '|')
            s++;
    }
    set_bits(w, F->w, F->sh, F->width, v);
    return 1;
}

/* s_waitcnt_depctr / s_wait_alu "depctr_NAME(N) ..." (RDNA3/RDNA4 ISA "S_WAITCNT_DEPCTR"):
 * fields not named keep their default, all ones; bits 5 and 6 belong to no field and stay 0. */
static int cmp_str(const void *a, const void *b) {
    return strcmp(*(const char *const *)a, *(const char *const *)b);
}

/* The same space-separated parts in any order ("depctr_a(0) depctr_b(1)"). */
static int same_parts(const char *a, const char *b) {
    char x[PL_TOK], y[PL_TOK];
    const char *pa[16], *pb[16];
    int na = 0, nb = 0;
    snprintf(x, sizeof x, "%s", a);
    snprintf(y, sizeof y, "%s", b);
    for (char *t = strtok(x, " "); t && na < 16; t = strtok(NULL, " "))
        pa[na++] = t;
    for (char *t = strtok(y, " "); t && nb < 16; t = strtok(NULL, " "))
        pb[nb++] = t;
    if (na != nb)
        return 0;
    qsort(pa, (size_t)na, sizeof *pa, cmp_str);
    qsort(pb, (size_t)nb, sizeof *pb, cmp_str);
    for (int k = 0; k < na; k++)
        if (strcmp(pa[k], pb[k]))
            return 0;
    return 1;
}

static int depctr_field(const job *j, uint32_t *w, const fld *F, int i, const char *t,
                        char *printed, size_t pn) {
    static const struct {
        const char *name;
        unsigned sh, width;
    } f[] = {{"depctr_sa_sdst", 0, 1},  {"depctr_va_vcc", 1, 1},  {"depctr_vm_vsrc", 2, 3},
             {"depctr_hold_cnt", 7, 1}, {"depctr_va_ssrc", 8, 1}, {"depctr_va_sdst", 9, 3},
             {"depctr_va_vdst", 12, 4}};
    if (strncmp(t, "depctr_", 7) || !isa_is_rdna(j->a->arch))
        return 0;
    uint32_t v = 0xff9f;
    const char *s = t;
    while (*s) {
        while (*s == ' ')
            s++;
        if (!*s)
            break;
        size_t k = 0, l = strcspn(s, "(");
        for (; k < sizeof f / sizeof *f; k++)
            if (strlen(f[k].name) == l && !strncmp(s, f[k].name, l))
                break;
        char *e;
        unsigned long n = k < sizeof f / sizeof *f && s[l] ? strtoul(s + l + 1, &e, 0) : ~0ul;
        if (n >= 1ul << f[k].width || *e != ')')
            return 0;
        v = (v & ~(((1u << f[k].width) - 1) << f[k].sh)) | (uint32_t)n << f[k].sh;
        s = e + 1;
    }
    uint32_t x[4];
    memcpy(x, w, sizeof x);
    set_bits(x, F->w, F->sh, F->width, v);
    pline c;
    if (!try_print(j, x, &c, NULL, NULL, 0) || i >= c.nops || !same_parts(c.op[i], t))
        return 0;
    snprintf(printed, pn, "%s", c.op[i]); /* the printer's order, for the final comparison */
    memcpy(w, x, sizeof x);
    return 1;
}

/* hwreg(NAME|ID[, offset, size]): find the id by name through the printer, the rest from the
 * manual (SIMM16 = id | offset << 6 | (size - 1) << 11). */
static int hwreg_field(const job *j, uint32_t *w, const fld *F, int i, const char *t) {
    char a0[40];
    unsigned off = 0, size = 32;
    if (strncmp(t, "hwreg(", 6))
        return 0;
    const char *s = t + 6;
    size_t l = strcspn(s, ",)");
    if (l >= sizeof a0)
        return 0;
    memcpy(a0, s, l);
    a0[l] = 0;
    if (s[l] == ',' && sscanf(s + l + 1, "%u , %u", &off, &size) != 2)
        return 0;
    if (off > 31 || size < 1 || size > 32)
        return 0;
    int64_t id;
    if (!parse_int(a0, &id)) {
        id = -1;
        for (unsigned v = 0; v < 64 && id < 0; v++) {
            uint32_t x[4];
            memcpy(x, w, sizeof x);
            set_bits(x, F->w, F->sh, F->width, v | 31u << 11);
            pline c;
            char want[64], want12[72];
            snprintf(want, sizeof want, "hwreg(%s)", a0);
            /* gfx12 prints HW_REG_WAVE_MODE where llvm-mc still takes HW_REG_MODE */
            snprintf(want12, sizeof want12, "hwreg(HW_REG_WAVE_%s)",
                     strncmp(a0, "HW_REG_", 7) ? "" : a0 + 7);
            if (try_print(j, x, &c, NULL, NULL, 0) && i < c.nops &&
                (!strcmp(c.op[i], want) ||
                 (isa_targets[j->a->arch].rdna >= 12 && !strcmp(c.op[i], want12))))
                id = v;
        }
        if (id < 0)
            return 0;
    }
    if (id < 0 || id > 63)
        return 0;
    set_bits(w, F->w, F->sh, F->width, (uint32_t)id | off << 6 | (size - 1) << 11);
    return 1;
}

/* DPP control from its modifiers (CDNA3/CDNA4 "DPP_CTRL" enumeration). */
static int dpp_ctrl(const pline *p, uint32_t *ctl) {
    const char *v;
    int64_t n;
    if ((v = kv_get(p, "quad_perm.0"))) {
        uint32_t q = 0;
        for (int i = 0; i < 4; i++) {
            char k[16];
            snprintf(k, sizeof k, "quad_perm.%d", i);
            const char *e = kv_get(p, k);
            if (!e || !parse_int(e, &n) || n < 0 || n > 3)
                return 0;
            q |= (uint32_t)n << (2 * i);
        }
        *ctl = q;
        return 1;
    }
    static const struct {
        const char *k;
        uint32_t base;
        int lo, hi;
    } r[] = {{"row_shl", 0x100, 1, 15},
             {"row_shr", 0x110, 1, 15},
             {"row_ror", 0x120, 1, 15},
             {"wave_shl", 0x130 - 1, 1, 1},
             {"wave_rol", 0x134 - 1, 1, 1},
             {"wave_shr", 0x138 - 1, 1, 1},
             {"wave_ror", 0x13c - 1, 1, 1},
             {"row_newbcast", 0x150, 0, 15},
             /* RDNA3 ISA "DPP16": row_share 0x150-0x15f, row_xmask 0x160-0x16f */
             {"row_share", 0x150, 0, 15},
             {"row_xmask", 0x160, 0, 15}};
    for (size_t i = 0; i < sizeof r / sizeof r[0]; i++)
        if ((v = kv_get(p, r[i].k))) {
            if (!parse_int(v, &n) || n < r[i].lo || n > r[i].hi)
                return 0;
            *ctl = r[i].base + (uint32_t)n;
            return 1;
        }
    if (kv_get(p, "row_mirror")) {
        *ctl = 0x140;
        return 1;
    }
    if (kv_get(p, "row_half_mirror")) {
        *ctl = 0x141;
        return 1;
    }
    if ((v = kv_get(p, "row_bcast"))) {
        if (!parse_int(v, &n) || (n != 15 && n != 31))
            return 0;
        *ctl = n == 15 ? 0x142 : 0x143;
        return 1;
    }
    return -1;
}

/* Offsets and other wide modifier fields set directly. */
static int direct_mods(const job *j, uint32_t *w) {
    const pline *p = j->in;
    const char *v;
    int64_t n;
    switch (j->e->lay) {
    case L_DS:
        if ((v = j->ds_offset ? j->ds_offset : kv_get(p, "offset"))) {
            if (parse_int(v, &n) && n >= 0 && n <= 0xffff)
                set_bits(w, 0, 0, 16, (uint32_t)n);
            else if (!strncmp(v, "swizzle(BITMASK_PERM,\"", 22) && strlen(v) == 29 &&
                     !strcmp(v + 27, "\")")) {
                /* ds_swizzle bit-mask mode (offset[15] = 0): per lane-id bit, from the MSB, '0'/'1'
                 * force it, 'p' keeps it, 'i' inverts it: and_mask[4:0] or_mask[9:5]
                 * xor_mask[14:10]. Computed rather than searched: the printer shows some of these
                 * masks in another form (BROADCAST), llvm-mc encodes the masks as written. */
                uint32_t am = 0, om = 0, xm = 0;
                for (int k = 0; k < 5; k++) {
                    char ch = v[22 + k];
                    uint32_t bit = 1u << (4 - k);
                    if (ch == '1')
                        om |= bit;
                    else if (ch == 'p')
                        am |= bit;
                    else if (ch == 'i')
                        am |= bit, xm |= bit;
                    else if (ch != '0')
                        return 0;
                }
                set_bits(w, 0, 0, 16, am | om << 5 | xm << 10);
            } else if (!strncmp(v, "swizzle(", 8)) {
                /* the swizzle pattern: search the 16-bit field for the printed form */
                for (uint32_t s = 0; s < 0x10000; s++) {
                    uint32_t x[4];
                    memcpy(x, w, sizeof x);
                    set_bits(x, 0, 0, 16, s);
                    pline c;
                    const char *cv;
                    if (try_print(j, x, &c, NULL, NULL, 0) && (cv = kv_get(&c, "offset")) &&
                        !strcmp(cv, v)) {
                        memcpy(w, x, sizeof x);
                        break;
                    }
                }
            } else
                return 0;
        }
        if ((v = kv_get(p, "offset0"))) {
            if (!parse_int(v, &n) || n < 0 || n > 255)
                return 0;
            set_bits(w, 0, 0, 8, (uint32_t)n);
        }
        if ((v = kv_get(p, "offset1"))) {
            if (!parse_int(v, &n) || n < 0 || n > 255)
                return 0;
            set_bits(w, 0, 8, 8, (uint32_t)n);
        }
        break;
    case L_FLAT:
        if ((v = kv_get(p, "offset"))) {
            if (!parse_int(v, &n) || n < -4096 || n > 8191)
                return 0;
            set_bits(w, 0, 0, 13, (uint32_t)n);
        }
        break;
    case L_MUBUF:
    case L_MTBUF:
        if ((v = kv_get(p, "offset"))) {
            if (!parse_int(v, &n) || n < 0 || n > 4095)
                return 0;
            set_bits(w, 0, 0, 12, (uint32_t)n);
        }
        break;
    case L_SMEM:
        if ((v = kv_get(p, "offset"))) {
            if (!parse_int(v, &n) || n < -(1 << 20) || n >= (1 << 20))
                return 0;
            /* imm offset plus an SGPR offset: soe=1, the SGPR moves to soffset */
            w[0] |= 1u << 14 | 1u << 17;
            uint32_t sg = get_bits(w, 1, 0, 7);
            set_bits(w, 1, 0, 21, (uint32_t)n);
            set_bits(w, 1, 25, 7, sg);
        }
        break;
    case L_DPP1:
    case L_DPP2:
    case L_DPPC:
    case L_RDPP1:
    case L_RDPP2:
    case L_RDPPC:
    case L_RV3DPP: {
        uint32_t ctl;
        int r = dpp_ctrl(p, &ctl);
        if (r == 0)
            return 0;
        if (r > 0)
            set_bits(w, j->e->lay == L_RV3DPP ? 2 : 1, 8, 9, ctl);
        break;
    }
    case L_RDPP8_1:
    case L_RDPP8_2:
    case L_RDPP8_C:
    case L_RV3DPP8: {
        /* RDNA3 ISA "DPP8": lane_sel[i] at bits 8 + 3i of the DPP dword; FI is src0 = 0xEA */
        unsigned dw = j->e->lay == L_RV3DPP8 ? 2 : 1;
        for (int i = 0; i < 8; i++) {
            char k[16];
            snprintf(k, sizeof k, "dpp8.%d", i);
            if (!(v = kv_get(p, k)) || !parse_int(v, &n) || n < 0 || n > 7)
                return 0;
            set_bits(w, dw, 8 + 3 * (unsigned)i, 3, (uint32_t)n);
        }
        if ((v = kv_get(p, "fi")) && parse_int(v, &n) && n == 1)
            set_bits(w, dw - 1, 0, 9, 0xea);
        break;
    }
    case L_RDS:
        /* the DS offsets as on CDNA */
        {
            job k = *j;
            entry e2 = *j->e;
            e2.lay = L_DS;
            k.e = &e2;
            return direct_mods(&k, w);
        }
    case L_RFLAT:
        if ((v = kv_get(p, "offset"))) {
            if (!parse_int(v, &n) || n < -4096 || n > 4095)
                return 0;
            set_bits(w, 0, 0, 13, (uint32_t)n);
        }
        break;
    case L_VFLAT:
    case L_VBUF:
        /* gfx12: offset[31:8] of the third dword, signed (VFLAT) or 23-bit unsigned (VBUFFER) */
        if ((v = kv_get(p, "offset"))) {
            if (!parse_int(v, &n) || n < -(1 << 23) || n >= (1 << 23) ||
                (j->e->lay == L_VBUF && n < 0))
                return 0;
            set_bits(w, 2, 8, 24, (uint32_t)n);
        }
        break;
    case L_RMUBUF:
    case L_RMTBUF:
        if ((v = kv_get(p, "offset"))) {
            if (!parse_int(v, &n) || n < 0 || n > 4095)
                return 0;
            set_bits(w, 0, 0, 12, (uint32_t)n);
        }
        break;
    case L_RSMEM11:
    case L_RSMEM12:
        if ((v = kv_get(p, "offset"))) {
            int bitsn = j->e->lay == L_RSMEM12 ? 24 : 21;
            if (!parse_int(v, &n) || n < -(1 << (bitsn - 1)) || n >= (1 << (bitsn - 1)))
                return 0;
            set_bits(w, 1, 0, (unsigned)bitsn, (uint32_t)n);
        }
        break;
    }
    return 1;
}

/* Descend over the modifier fields; returns the final distance. */
static int descend(const job *j, uint32_t *w, const uint32_t *opmask, size_t *size) {
    const layout *L = &layouts[j->e->lay];
    int best = dist_of(j, w, size);
    for (int round = 0; round < 8 && best > 0; round++) {
        int improved = 0;
        for (int f = 0; f < L->nm && best > 0; f++) {
            const mfld *m = &L->m[f];
            uint32_t mask = ((1u << m->width) - 1) << m->sh;
            if (opmask[m->w] & mask)
                continue;
            uint32_t cur = get_bits(w, m->w, m->sh, m->width), bv = cur;
            for (uint32_t v = 0; v < (1u << m->width); v++) {
                if (v == cur)
                    continue;
                uint32_t x[4];
                memcpy(x, w, sizeof x);
                set_bits(x, m->w, m->sh, m->width, v);
                int d = dist_of(j, x, NULL);
                if (d < best)
                    best = d, bv = v, improved = 1;
            }
            set_bits(w, m->w, m->sh, m->width, bv);
        }
        if (!improved)
            break;
    }
    if (best > 0) {
        /* single steps stall where a key needs two bits at once (op_sel_hi back to default) */
        for (int f = 0; f < L->nm && best > 0; f++)
            for (int g = f + 1; g < L->nm && best > 0; g++) {
                const mfld *m = &L->m[f], *n = &L->m[g];
                if (m->width != 1 || n->width != 1 || (opmask[m->w] >> m->sh & 1) ||
                    (opmask[n->w] >> n->sh & 1))
                    continue;
                uint32_t x[4];
                memcpy(x, w, sizeof x);
                x[m->w] ^= 1u << m->sh;
                x[n->w] ^= 1u << n->sh;
                int d = dist_of(j, x, NULL);
                if (d < best) {
                    best = d;
                    memcpy(w, x, sizeof x);
                }
            }
    }
    if (best == 0)
        dist_of(j, w, size);
    return best;
}

/* Try to encode the input with entry e.  Returns bytes, 0 when it does not fit; *err_op gets the
 * input operand that could not be placed (or -1) and *score how close it came. */
static size_t try_entry(isa_asm *a, entry *e, const pline *in, uint32_t *out, int *err_op,
                        int *score, uint32_t *closest) {
    const layout *L = &layouts[e->lay];
    job j = {a, e, in, 0, NULL};
    pline in2;
    const char *sw = e->lay == L_DS ? kv_get(in, "offset") : NULL;
    int64_t num;
    if (sw && (!strncmp(sw, "swizzle(BITMASK_PERM,", 21) || parse_int(sw, &num))) {
        /* the mask is encoded as written (direct_mods); the printer may show the same offset in
         * another form (BROADCAST, or swizzle(...) for a number): compare against that form */
        uint32_t w[4];
        memcpy(w, e->w, sizeof w);
        pline c;
        const char *pv;
        if (direct_mods(&j, w) && try_print(&j, w, &c, NULL, NULL, 0) &&
            (pv = kv_get(&c, "offset"))) {
            in2 = *in;
            for (int k = 0; k < in2.nkv; k++)
                if (!strcmp(in2.key[k], "offset"))
                    cpy(in2.val[k], sizeof in2.val[k], pv, strlen(pv));
            /* ... but encoded as written: a number, or masks whose printed form is another
             * spelling of the same lane pattern (0x1ca3 prints as "000i0", which as masks is
             * 0x802) */
            j.ds_offset = sw;
            j.in = in = &in2;
        }
    }
    *err_op = -1;
    *score = 1 << 20;
    if (!e->mapped)
        map_entry(a, e);
    const int8_t *opmap = e->opmap;
    if (in->nops != e->nprinted && in->nops == e->nprinted2)
        opmap = e->opmap2;
    else if (in->nops != e->nprinted && in->nops == e->nprinted3)
        opmap = e->opmap3;
    else if (in->nops != e->nprinted && in->nops == e->nprinted4)
        opmap = e->opmap4;
    else if (in->nops != e->nprinted) {
        *err_op = in->nops > e->nprinted ? e->nprinted : in->nops;
        *score = 1 << 18;
        return 0;
    }
    /* A number where the printer shows a symbolic form (s_sendmsg 0, s_getreg_b32 s0, 0x1801):
     * llvm-mc takes the number as the field's value, so compare against what that value prints. */
    for (int i = 0; i < in->nops; i++) {
        int f = opmap[i];
        /* RDNA SMEM offset 0 with soffset null: llvm-mc takes "0x0" and "null" alike; gfx11
         * prints "null", gfx12 "0x0" */
        if (f >= 0 && L->f[f].kind == K_RSMOFF &&
            ((parse_int(in->op[i], &num) && num == 0) || !strcmp(in->op[i], "null"))) {
            if (in != &in2) {
                in2 = *in;
                j.in = in = &in2;
            }
            snprintf(in2.op[i], sizeof in2.op[i], "%s",
                     isa_targets[a->arch].rdna >= 12 ? "0x0" : "null");
            continue;
        }
        /* (s_sendmsg_rtn_b32/b64 hold their message id in SSRC0, printed as sendmsg()) */
        int rtn = f >= 0 && L->f[f].kind == K_SRC8 && !strncmp(in->mnem, "s_sendmsg_rtn_", 14);
        if (f < 0 || (L->f[f].kind != K_SIMM16 && !rtn) || !parse_int(in->op[i], &num) || num < 0 ||
            num > (rtn ? 0xff : 0xffff))
            continue;
        const fld *F = &L->f[f];
        uint32_t w[4];
        memcpy(w, e->w, sizeof w);
        set_bits(w, F->w, F->sh, F->width, (uint32_t)num);
        pline c;
        int64_t pn;
        if (!try_print(&j, w, &c, NULL, NULL, 0) || c.nops != in->nops || parse_int(c.op[i], &pn))
            continue;
        if (in != &in2) {
            in2 = *in;
            j.in = in = &in2;
        }
        cpy(in2.op[i], sizeof in2.op[i], c.op[i], strlen(c.op[i]));
    }
    /* operand candidates */
    char dep[PL_TOK];
    cand cs[PL_MAXOP][8];
    int nc[PL_MAXOP];
    uint32_t base[4], opmask[4] = {0, 0, 0, 0}; /* a word each, like base */
    memcpy(base, e->w, sizeof base);
    for (int i = 0; i < in->nops; i++) {
        nc[i] = 0;
        int f = opmap[i];
        if (f < 0)
            continue;
        const fld *F = &L->f[f];
        uint32_t fm = F->width >= 32 ? 0xffffffffu : ((1u << F->width) - 1) << F->sh;
        opmask[F->w] |= fm;
        if (F->xw >= 0)
            opmask[F->xw] |= 1u << F->xsh;
        nc[i] = operand_cands(&j, F, in->op[i], cs[i], 8);
        if (nc[i] < 0) {
            /* symbolic immediate: resolve now on the base words */
            if (!hwreg_field(&j, base, F, i, in->op[i]) &&
                !delay_alu_field(&j, base, F, i, in->op[i]) &&
                !(depctr_field(&j, base, F, i, in->op[i], dep, sizeof dep) &&
                  (in == &in2 || (in2 = *in, j.in = in = &in2, 1)) &&
                  snprintf(in2.op[i], sizeof in2.op[i], "%s", dep) >= 0) &&
                !search_field(&j, base, F, i, in->op[i],
                              /* RDNA's s_version names cover all 16 bits */
                              F->width <= 10 ? 1u << F->width
                              : isa_is_rdna(a->arch) && F->kind == K_SIMM16 &&
                                      (strchr(in->op[i], '|') || strstr(in->op[i], "UC_VERSION"))
                                  ? 1u << 16
                                  : 1024)) {
                *err_op = i;
                *score = 1 << 17;
                return 0;
            }
            nc[i] = 0;
        } else if (nc[i] == 0) {
            *err_op = i;
            *score = 1 << 17;
            return 0;
        }
    }
    if (e->lay == L_VOP3 && !(opmask[0] & 0x7f00)) {
        /* VOP3A: op_sel_hi bits of VOP3P default to 1 in llvm-mc; tried as a start below */
    }
    /* enumerate candidate combinations (at most 8^k, in practice a handful) */
    int idx[PL_MAXOP] = {0};
    int bestscore = 1 << 20;
    for (int iter = 0; iter < 256; iter++) {
        uint32_t w[4];
        memcpy(w, base, sizeof w);
        int lit = -1, ok = 1;
        uint32_t litv = 0;
        for (int i = 0; i < in->nops && ok; i++) {
            int f = opmap[i];
            if (f < 0 || nc[i] == 0)
                continue;
            const fld *F = &L->f[f];
            const cand *c = &cs[i][idx[i]];
            set_bits(w, F->w, F->sh, F->width, c->v);
            if (F->xw >= 0 && c->xbit)
                w[F->xw] |= 1u << F->xsh;
            if (c->has_aux) /* RDNA SMEM offset: 21 bits (gfx11), 24 (gfx12) */
                set_bits(w, 1, 0, isa_targets[j.a->arch].rdna >= 12 ? 24 : 21, c->aux);
            w[0] &= ~c->clr[0];
            if (c->has_lit) {
                if (lit >= 0 && litv != c->lit)
                    ok = 0;
                lit = i, litv = c->lit;
            }
        }
        if (ok && lit >= 0) {
            if (L->nbase >= 4)
                ok = 0;
            else
                w[L->nbase] = litv;
        }
        if (ok && e->lay == L_SMEM && in->nops >= 3 && kv_get(in, "offset") == NULL) {
            /* nothing: the offset operand is in w1 already */
        }
        if (ok && !direct_mods(&j, w))
            ok = 0;
        if (ok) {
            /* start states: all modifier bits clear, and llvm-mc's VOP3P default op_sel_hi */
            uint32_t starts[2][4];
            int ns = 1;
            memcpy(starts[0], w, sizeof w);
            if ((e->lay == L_VOP3 && (e->w[0] >> 23) == 0x1a7 && !isa_is_rdna(a->arch)) ||
                ((e->lay == L_VOP3 || e->lay == L_RV3DPP || e->lay == L_RV3DPP8) &&
                 (e->w[0] >> 24) == 0xcc && isa_is_rdna(a->arch))) {
                memcpy(starts[1], w, sizeof w);
                starts[1][0] |= 1u << 14;
                starts[1][1] |= 3u << 27;
                ns = 2;
                memcpy(starts[0], starts[1], sizeof w);
                memcpy(starts[1], w, sizeof w);
            }
            for (int s = 0; s < ns; s++) {
                uint32_t x[4];
                size_t size = 0;
                memcpy(x, starts[s], sizeof x);
                int d = descend(&j, x, opmask, &size);
                if (d == 0 && size) {
                    memcpy(out, x, sizeof x);
                    *score = 0;
                    return size;
                }
                if (d < bestscore) {
                    bestscore = d;
                    memcpy(closest, x, sizeof x);
                }
            }
        }
        /* next combination */
        int k = 0;
        for (; k < in->nops; k++) {
            if (nc[k] > 1 && ++idx[k] < nc[k])
                break;
            idx[k] = 0;
        }
        if (k == in->nops)
            break;
    }
    *score = bestscore;
    return 0;
}

static entry *find_first(isa_asm *a, const char *m, size_t *n) {
    size_t lo = 0, hi = a->ne;
    while (lo < hi) {
        size_t mid = (lo + hi) / 2;
        if (strcmp(a->e[mid].mnem, m) < 0)
            lo = mid + 1;
        else
            hi = mid;
    }
    size_t k = lo;
    while (k < a->ne && !strcmp(a->e[k].mnem, m))
        k++;
    *n = k - lo;
    return *n ? &a->e[lo] : NULL;
}

/* Rules llvm-mc-22 enforces that the encoding itself cannot express: an instruction that
 * breaks them decodes and prints, but the hardware does not run it as written.
 *  - Constant bus (CDNA3/CDNA4 ISA "VALU instruction operands"): a VALU instruction reads at
 *    most one scalar value (SGPRs, VCC, M0, EXEC, TTMPs, a literal; the same SGPR twice counts
 *    once; inline constants are free) on GFX9; v_writelane_b32 may add M0 as its lane select.
 *  - gfx90a and later CDNA: VGPR and AGPR tuples (64-bit and wider operands) start at an even
 *    register.
 *  - null, src_flat_scratch_base_lo/hi and src_lds_direct are refused on these targets. */
/* The RDNA rules llvm-mc-22 enforces beyond the encoding (found by the round trip; not all of
 * them yet, see docs/architecture.md):
 *  - src_flat_scratch_base_lo/hi, src_pops_exiting_wave_id, src_vccz and src_execz are not
 *    RDNA operands;
 *  - s_waitcnt_{vs,vm,exp,lgkm}cnt (gfx11) take null as their register;
 *  - lds_param_load / ds_param_load read attributes 0..32;
 *  - VOPD (RDNA3 ISA "VOPD"): the two halves read their vsrc1 (and on gfx11 their src0) from
 *    different VGPR banks (VGPR index mod 4; a fmamk half's vsrc1 is not checked here). */
static const char *rule_violation_rdna(isa_arch arch, const isa_inst *in) {
    static const char *const gone[256] = {
        [230] = "src_flat_scratch_base_lo register not available on this GPU",
        [231] = "src_flat_scratch_base_hi register not available on this GPU",
        [239] = "src_pops_exiting_wave_id register not available on this GPU",
        [251] = "src_vccz register not available on this GPU",
        [252] = "src_execz register not available on this GPU"};
    for (int i = 0; i < in->ndst + in->nsrc; i++) {
        const isa_opnd *o = i < in->ndst ? &in->dst[i] : &in->src[i - in->ndst];
        if ((o->kind == ISA_OPND_SPECIAL || o->kind == ISA_OPND_SREG) && o->idx < 256 &&
            gone[o->idx])
            return gone[o->idx];
    }
    if ((in->op == ISA_OP_S_WAITCNT_VSCNT || in->op == ISA_OP_S_WAITCNT_VMCNT ||
         in->op == ISA_OP_S_WAITCNT_EXPCNT || in->op == ISA_OP_S_WAITCNT_LGKMCNT) &&
        (in->w[0] >> 16 & 0x7f) != 124) /* SOPK sdst */
        return "src0 must be null";
    if ((in->op == ISA_OP_LDS_PARAM_LOAD || in->op == ISA_OP_DS_PARAM_LOAD) &&
        (in->w[0] >> 10 & 0x3f) > 32)
        return "out of bounds interpolation attribute number";
    if (in->fmt == ISA_FMT_VOPD) {
        const isa_opnd *s = in->src;
        if (isa_targets[arch].rdna < 12 && s[0].kind == ISA_OPND_VGPR &&
            s[2].kind == ISA_OPND_VGPR && (s[0].idx & 3) == (s[2].idx & 3))
            return "src0 operands must use different VGPR banks";
        if (s[1].kind == ISA_OPND_VGPR && s[3].kind == ISA_OPND_VGPR &&
            (s[1].idx & 3) == (s[3].idx & 3) && !strstr(isa_op_names[in->op], "fmamk") &&
            !strstr(isa_op_names[in->flags], "fmamk"))
            return "src1 operands must use different VGPR banks";
    }
    return NULL;
}

static const char *rule_violation(isa_arch arch, const uint8_t *b, size_t sz) {
    isa_inst in;
    if (isa_decode(arch, b, sz, &in) != sz)
        return NULL;
    if (isa_is_rdna(arch))
        return rule_violation_rdna(arch, &in);
    for (int i = 0; i < in.ndst + in.nsrc; i++) {
        const isa_opnd *o = i < in.ndst ? &in.dst[i] : &in.src[i - in.ndst];
        if ((o->kind == ISA_OPND_VGPR || o->kind == ISA_OPND_AGPR) && o->n >= 2 && (o->idx & 1))
            return "invalid register class: vgpr tuples must be 64 bit aligned";
        /* operands the LLVM 22 disassembler prints for these encodings but its assembler
         * refuses on GFX9 targets */
        if (o->kind == ISA_OPND_SREG && o->idx == 125)
            return "'null' operand is not supported on this GPU";
        if ((o->kind == ISA_OPND_SREG || o->kind == ISA_OPND_SPECIAL) &&
            (o->idx == 230 || o->idx == 231))
            return "src_flat_scratch_base register not available on this GPU";
        if (o->kind == ISA_OPND_SPECIAL && o->idx == 254)
            return "lds_direct is not supported on this GPU";
    }
    /* s_set_gpr_idx_mode takes the four mode bits only (llvm-mc: "only 4-bit values") */
    if ((in.op == ISA_OP_S_SET_GPR_IDX_MODE && in.f.s.imm16 > 15) ||
        (in.op == ISA_OP_S_SET_GPR_IDX_ON && (in.w[0] >> 8 & 0xff) > 15)) /* SOPC ssrc1 byte */
        return "invalid immediate: only 4-bit values are legal";
    /* s_buffer_* (a 4-SGPR buffer resource as base) take an unsigned 20-bit offset; the signed
     * 21-bit form is for the s_load/s_store/s_scratch ops */
    if (in.fmt == ISA_FMT_SMEM && in.f.s.has_imm && in.f.s.offset < 0 && in.nsrc > 1 &&
        in.src[1].kind == ISA_OPND_SREG && in.src[1].n == 4) /* src[1] = sbase (scalar.c) */
        return "expected a 20-bit unsigned offset";
    /* FLAT (flat segment, not global/scratch) offsets are 12-bit unsigned on GFX9 */
    if (in.fmt == ISA_FMT_FLAT && in.f.m.seg == 0 && (in.f.m.offset < 0 || in.f.m.offset > 4095))
        return "expected a 12-bit unsigned offset";
    /* MUBUF/MTBUF soffset: an SGPR or inline constant, never a literal on GFX9 */
    if ((in.fmt == ISA_FMT_MUBUF || in.fmt == ISA_FMT_MTBUF) && in.nsrc > 4 &&
        in.src[4].kind == ISA_OPND_LITERAL)
        return "invalid operand for instruction";
    /* Operands that are registers in LLVM's operand classes, where the encoding also reaches
     * the apertures and src_pops_exiting_wave_id (235..239): s_movrels_* index SGPRs,
     * s_setpc/s_rfe/s_cbranch_join take SGPR pairs or an SGPR, v_readfirstlane_b32, v_swap_b32 and
     * v_permlane{16,32}_swap_b32 a VGPR, v_accvgpr_mov_b32 an AGPR.  The 64-bit ones and
     * v_accvgpr_mov_b32 take none of the 1-bit sources (src_scc, src_vccz, src_execz) either. */
    if ((in.op == ISA_OP_S_MOVRELS_B32 || in.op == ISA_OP_S_MOVRELS_B64 ||
         in.op == ISA_OP_S_SETPC_B64 || in.op == ISA_OP_S_RFE_B64 ||
         in.op == ISA_OP_S_CBRANCH_JOIN || in.op == ISA_OP_V_READFIRSTLANE_B32 ||
         in.op == ISA_OP_V_SWAP_B32 || in.op == ISA_OP_V_PERMLANE16_SWAP_B32 ||
         in.op == ISA_OP_V_PERMLANE32_SWAP_B32 || in.op == ISA_OP_V_ACCVGPR_MOV_B32) &&
        in.nsrc > 0 && in.src[0].kind == ISA_OPND_SPECIAL &&
        ((in.src[0].idx >= 235 && in.src[0].idx <= 239) || in.src[0].n == 2 ||
         in.op == ISA_OP_V_ACCVGPR_MOV_B32))
        return "invalid operand for instruction";
    int valu = in.fmt == ISA_FMT_VOP1 || in.fmt == ISA_FMT_VOP2 || in.fmt == ISA_FMT_VOPC ||
               in.fmt == ISA_FMT_VOP3 || in.fmt == ISA_FMT_VOP3P;
    if (!valu)
        return NULL;
    /* no VOP3/VOP3P literal on GFX9 (the gfx950 disassembler reads one; exec.c refuses it) */
    for (int i = 0; (in.fmt == ISA_FMT_VOP3 || in.fmt == ISA_FMT_VOP3P) && i < in.ndst + in.nsrc;
         i++)
        if ((i < in.ndst ? &in.dst[i] : &in.src[i - in.ndst])->kind == ISA_OPND_LITERAL)
            return "literal operands are not supported";
    /* A literal feeding a 16-bit operand must fit in 16 bits (LLVM's isSafeTruncation; the
     * disassembler still prints the whole 32-bit word it finds) */
    int k16 = in.op == ISA_OP_V_MADAK_F16 || in.op == ISA_OP_V_MADMK_F16; /* K is an f16 */
    for (int i = 0; i < in.nsrc && i < 6 && in.info; i++) {
        int t = k16 ? ISA_T_F16 : in.info->src_t[i];
        if (in.src[i].kind == ISA_OPND_LITERAL && in.lit > 0xffff &&
            (t == ISA_T_F16 || t == ISA_T_BF16 || t == ISA_T_B16))
            return "invalid operand for instruction";
    }
    /* gfx940+ VOP3P dot ops take no op_sel and the default op_sel_hi (all ones): llvm-mc
     * rejects any other value there, even spelled at the default */
    if (isa_targets[arch].flat_sve && in.fmt == ISA_FMT_VOP3P &&
        (in.op == ISA_OP_V_DOT2_F32_F16 || in.op == ISA_OP_V_DOT2_I32_I16 ||
         in.op == ISA_OP_V_DOT2_U32_U16 || in.op == ISA_OP_V_DOT2_F32_BF16 ||
         in.op == ISA_OP_V_DOT4_I32_I8 || in.op == ISA_OP_V_DOT4_U32_U8 ||
         in.op == ISA_OP_V_DOT8_I32_I4 || in.op == ISA_OP_V_DOT8_U32_U4) &&
        ((in.w[0] >> 11 & 7) != 0 || !(in.w[0] >> 14 & 1) || (in.w[1] >> 27 & 3) != 3))
        return "invalid op_sel operand";
    /* the carry-in of v_addc/v_subb/v_subbrev_co_u32_e64 is an SGPR pair (VOP3B src2) */
    if ((in.op == ISA_OP_V_ADDC_CO_U32 || in.op == ISA_OP_V_SUBB_CO_U32 ||
         in.op == ISA_OP_V_SUBBREV_CO_U32) &&
        in.fmt == ISA_FMT_VOP3 && in.nsrc > 2 &&
        (in.src[2].kind == ISA_OPND_VGPR || in.src[2].kind == ISA_OPND_AGPR))
        return "invalid operand for instruction";
    /* MFMA with more than 4 result registers: C may be D itself or apart from it, never
     * partly over it (llvm-mc allows the overlap for 4-register results) */
    if (in.fmt == ISA_FMT_VOP3P && !strncmp(isa_op_names[in.op], "v_mfma", 6) && in.ndst &&
        in.dst[0].n > 4 && in.nsrc > 2 && in.dst[0].kind == in.src[2].kind &&
        (in.dst[0].kind == ISA_OPND_VGPR || in.dst[0].kind == ISA_OPND_AGPR)) {
        unsigned d0 = in.dst[0].idx, d1 = d0 + in.dst[0].n, c0 = in.src[2].idx,
                 c1 = c0 + in.src[2].n;
        if (c0 < d1 && d0 < c1 && !(c0 == d0 && c1 == d1))
            return "source 2 operand must not partially overlap with dst";
    }
    int writelane = !strncmp(isa_op_names[in.op], "v_writelane", 11);
    int uses = 0, lit = 0;
    /* v_div_fmas_* read VCC implicitly: it takes the constant bus slot */
    if (in.op == ISA_OP_V_DIV_FMAS_F32 || in.op == ISA_OP_V_DIV_FMAS_F64)
        uses = 1;
    int seen[4] = {-1, -1, -1, -1};
    for (int i = 0; i < in.nsrc && i < 4; i++) {
        const isa_opnd *o = &in.src[i];
        if (o->kind == ISA_OPND_LITERAL) {
            lit = 1;
        } else if (writelane && i == 1 && o->kind == ISA_OPND_SREG && o->idx == 124) {
            continue; /* v_writelane_b32's lane select may be M0 beside an SGPR value */
        } else if (o->kind == ISA_OPND_SREG || o->kind == ISA_OPND_SPECIAL) {
            /* SPECIAL: apertures, vccz/execz/scc read through the constant bus as SGPRs do */
            /* the same register read twice counts once; s2 beside s[2:3] (or vcc_lo beside
             * vcc) are two different operands to LLVM */
            int dup = 0;
            for (int j = 0; j < i; j++)
                dup |= seen[j] == (o->idx << 8 | o->n);
            seen[i] = o->idx << 8 | o->n;
            uses += !dup;
        }
    }
    return uses + lit > 1 ? "invalid operand (violates constant bus restrictions)" : NULL;
}

/* Mark for dropping every element of list `prefix` ("op_sel." ...) when all of them are
 * `value`, the list's default. */
static void drop_list(const pline *p, int *drop, const char *prefix, int64_t value) {
    size_t l = strlen(prefix);
    int all = 1, any = 0;
    for (int i = 0; i < p->nkv; i++) {
        int64_t v;
        if (strncmp(p->key[i], prefix, l))
            continue;
        any = 1;
        all &= parse_int(p->val[i], &v) && v == value;
    }
    for (int i = 0; any && all && i < p->nkv; i++)
        drop[i] |= !strncmp(p->key[i], prefix, l);
}

/* llvm-mc accepts modifiers spelled at their default value, which its printer leaves out
 * ("offset:0", "op_sel:[0,0,0]", "cbsz:0", an MTBUF format's BUF_DATA_FORMAT_8 or
 * BUF_NUM_FORMAT_UNORM): drop them, so that the input compares with the printed text.  op_sel_hi's
 * default is all ones on the packed ops (dropped below) and all zeros on v_fma_mix*. */
static void drop_defaults(pline *p, unsigned arch) {
    static const char *const zero_keys[] = {"offset", "offset0", "offset1",  "cbsz",
                                            "abid",   "blgp",    "index_key"};
    static const char *const zero_lists[] = {"op_sel.", "neg_lo.", "neg_hi."};
    int drop[PL_MAXKV] = {0};
    for (int i = 0; i < p->nkv; i++) {
        int64_t v;
        int zero = parse_int(p->val[i], &v) && v == 0;
        /* not SMEM's: there "offset:0" beside an SGPR offset selects the soe form */
        for (size_t k = 0; k < sizeof zero_keys / sizeof *zero_keys; k++)
            drop[i] |= zero && !strcmp(p->key[i], zero_keys[k]) && strncmp(p->mnem, "s_", 2);
        drop[i] |= !strcmp(p->key[i], "format.d") && !strcmp(p->val[i], "BUF_DATA_FORMAT_8");
        drop[i] |= !strcmp(p->key[i], "format.n") && !strcmp(p->val[i], "BUF_NUM_FORMAT_UNORM");
    }
    for (size_t k = 0; k < sizeof zero_lists / sizeof *zero_lists; k++)
        drop_list(p, drop, zero_lists[k], 0);
    /* op_sel_hi all ones is the default of the packed ops (v_pk_*, v_dot*), which the printer
     * leaves out too ("v_pk_mul_f32 v[0:1], v[2:3], v[4:5] op_sel_hi:[1,1]"); on v_fma_mix* it
     * is all zeros, and spelled out is printed.  llvm-mc refuses any op_sel_hi on gfx940+'s dot
     * ops. */
    if (!strncmp(p->mnem, "v_pk_", 5) ||
        (!strncmp(p->mnem, "v_dot", 5) && arch != ISA_GFX942 && arch != ISA_GFX950))
        drop_list(p, drop, "op_sel_hi.", 1);
    int n = 0;
    for (int i = 0; i < p->nkv; i++) {
        if (drop[i])
            continue;
        if (n != i) {
            memcpy(p->key[n], p->key[i], sizeof p->key[n]);
            memcpy(p->val[n], p->val[i], sizeof p->val[n]);
            p->kvcol[n] = p->kvcol[i];
        }
        n++;
    }
    p->nkv = n;
}

void isa_asm_set_wave64(isa_asm *a, int on) { a->wave64 = on && isa_is_rdna(a->arch); }
int isa_asm_get_wave64(const isa_asm *a) { return a && a->wave64; }

static size_t asm_one(isa_asm *a, const char *text, uint8_t out[16], isa_asm_error *err);

/* Wave64 RDNA text names lane masks as SGPR pairs (vcc, exec, s[0:1]) where the wave32 text the
 * printer writes names one SGPR (vcc_lo, exec_lo, s0): the same encoding (the field holds the
 * first register either way).  A wave64 line that does not assemble as written is tried again
 * with some of its pairs spelled the wave32 way, fewest first; the printer still has to give
 * back exactly that text, so only lane-mask operands can change. */
size_t isa_asm_inst(isa_asm *a, const char *text, uint8_t out[16], isa_asm_error *err) {
    size_t n = asm_one(a, text, out, err);
    if (n || !a->wave64)
        return n;
    enum { MAXP = 5 };
    const char *at[MAXP];
    size_t len[MAXP];
    char repl[MAXP][16];
    int np = 0;
    size_t tl = strlen(text);
    if (tl >= 256)
        return 0;
    for (size_t i = 0; i < tl && np < MAXP; i++) {
        if (i && (isalnum((unsigned char)text[i - 1]) || text[i - 1] == '_'))
            continue;
        const char *t = text + i;
        unsigned lo, hi;
        int used = 0;
        if (!strncmp(t, "vcc", 3) && !isalnum((unsigned char)t[3]) && t[3] != '_') {
            snprintf(repl[np], sizeof repl[np], "vcc_lo"), len[np] = 3;
        } else if (!strncmp(t, "exec", 4) && !isalnum((unsigned char)t[4]) && t[4] != '_') {
            snprintf(repl[np], sizeof repl[np], "exec_lo"), len[np] = 4;
        } else if (sscanf(t, "s[%u:%u]%n", &lo, &hi, &used) == 2 && used && hi == lo + 1) {
            snprintf(repl[np], sizeof repl[np], "s%u", lo), len[np] = (size_t)used;
        } else if (sscanf(t, "ttmp[%u:%u]%n", &lo, &hi, &used) == 2 && used && hi == lo + 1) {
            snprintf(repl[np], sizeof repl[np], "ttmp%u", lo), len[np] = (size_t)used;
        } else {
            continue;
        }
        at[np++] = t;
    }
    isa_asm_error e2;
    for (int k = 1; k <= np; k++)
        for (unsigned m = 1; m < 1u << np; m++) {
            if (popcount64(m) != k)
                continue;
            char buf[384];
            size_t o = 0;
            const char *c = text;
            for (int p = 0; p < np; p++) {
                if (!(m >> p & 1))
                    continue;
                o += (size_t)snprintf(buf + o, sizeof buf - o, "%.*s%s", (int)(at[p] - c), c,
                                      repl[p]);
                c = at[p] + len[p];
            }
            snprintf(buf + o, sizeof buf - o, "%s", c);
            n = asm_one(a, buf, out, &e2);
            if (n)
                return n;
        }
    return 0;
}

/* The older names llvm-mc-22 also accepts on a target (v_add_u32 for v_add_nc_u32, s_load_dword
 * for s_load_b32, ...), each found and checked against llvm-mc by tools/isagen/asm_alias.py;
 * rows sorted by target, then old name. */
static const struct asm_alias {
    uint8_t arch;
    const char *name, *canon;
} asm_aliases[] = {
#define ASM_ALIAS(arch, name, canon) {arch, name, canon},
#include "isa/gen/asm_alias.inc"
#undef ASM_ALIAS
};

static const char *find_alias(unsigned arch, const char *name) {
    size_t lo = 0, hi = sizeof asm_aliases / sizeof *asm_aliases;
    while (lo < hi) {
        size_t mid = (lo + hi) / 2;
        const struct asm_alias *r = &asm_aliases[mid];
        int c = r->arch != arch ? (r->arch < arch ? -1 : 1) : strcmp(r->name, name);
        if (!c)
            return r->canon;
        if (c < 0)
            lo = mid + 1;
        else
            hi = mid;
    }
    return NULL;
}

/* Replace an old mnemonic by the one LLVM prints, keeping an encoding suffix llvm-mc accepts
 * after either (v_add_u32_e64 is v_add_nc_u32_e64). */
static void resolve_alias(unsigned arch, char *mnem, size_t size) {
    static const char *const suffixes[] = {"", "_e32", "_e64", "_e64_dpp", "_dpp"};
    size_t l = strlen(mnem);
    for (size_t k = 0; k < sizeof suffixes / sizeof *suffixes; k++) {
        size_t sl = strlen(suffixes[k]);
        char base[64];
        if (l <= sl || l - sl >= sizeof base || strcmp(mnem + l - sl, suffixes[k]))
            continue;
        memcpy(base, mnem, l - sl);
        base[l - sl] = 0;
        const char *canon = find_alias(arch, base);
        if (canon) {
            snprintf(mnem, size, "%s%s", canon, suffixes[k]);
            return;
        }
    }
}

static size_t asm_one(isa_asm *a, const char *text, uint8_t out[16], isa_asm_error *err) {
    pline in;
    memset(err, 0, sizeof *err);
    parse_line(text, &in);
    drop_defaults(&in, a->arch);
    if (isa_is_rdna(a->arch) && !strncmp(in.mnem, "s_", 2))
        drop_zero_offset(&in);
    /* WMMA/SWMMAC in wave64 hold half as many VGPRs per D/C tuple as the wave32 text the
     * printer writes (RDNA3 ISA "WMMA"); the fields name only the first register. */
    in.loose_width =
        a->wave64 && (!strncmp(in.mnem, "v_wmma", 6) || !strncmp(in.mnem, "v_swmmac", 8));
    char asked[sizeof in.mnem]; /* the spelling the errors quote, before resolve_alias */
    memcpy(asked, in.mnem, sizeof asked);
    resolve_alias(a->arch, in.mnem, sizeof in.mnem);
    if (in.bad) {
        err->col = in.mcol;
        snprintf(err->msg, sizeof err->msg, "too many operands or an overlong operand");
        return 0;
    }
    /* llvm-mc's preference: the exact mnemonic, then the VOP1/VOP2/VOPC form, then VOP3 */
    static const char *const suffixes[] = {"", "_e32", "_e64"};
    int any = 0, best = 1 << 30, bestop = -1;
    const entry *beste = NULL;
    const char *broken = NULL;
    uint32_t closest[4] = {0, 0, 0, 0};
    char nodpp[64];
    int has_nodpp = isa_is_rdna(a->arch) && strip_dpp(in.mnem, nodpp, sizeof nodpp);
    for (size_t s = 0; s < 4; s++) {
        char m[80];
        if (s == 3 && !has_nodpp)
            break;
        snprintf(m, sizeof m, "%s%s", s == 3 ? nodpp : in.mnem, s == 3 ? "" : suffixes[s]);
        if (s && s < 3 &&
            (strstr(in.mnem, "_e32") || strstr(in.mnem, "_e64") || strstr(in.mnem, "_sdwa") ||
             strstr(in.mnem, "_dpp")))
            continue;
        size_t n;
        entry *e = find_first(a, m, &n);
        for (size_t k = 0; k < n; k++) {
            uint32_t w[4], cw[4] = {0, 0, 0, 0};
            int eop, score;
            any = 1;
            size_t sz = try_entry(a, &e[k], &in, w, &eop, &score, cw);
            const char *why = sz ? rule_violation(a->arch, (const uint8_t *)w, sz) : NULL;
            if (sz && !why) {
                memcpy(out, w, sz);
                return sz;
            }
            if (why && !broken) /* another candidate may still encode it legally */
                broken = why;
            if (score < best) {
                best = score, bestop = eop, beste = &e[k];
                memcpy(closest, cw, sizeof cw);
            }
        }
    }
    if (broken) {
        err->col = in.mcol;
        snprintf(err->msg, sizeof err->msg, "%s", broken);
        return 0;
    }
    if (!any && isa_is_rdna(a->arch) &&
        (!strncmp(in.mnem, "image_", 6) || !strcmp(in.mnem, "exp") ||
         !strncmp(in.mnem, "export", 6))) {
        err->col = in.mcol;
        snprintf(err->msg, sizeof err->msg,
                 "'%s': gfxemu's assembler does not encode the %s format on %s yet", in.mnem,
                 in.mnem[0] == 'i' ? (isa_targets[a->arch].rdna >= 12 ? "VIMAGE/VSAMPLE" : "MIMG")
                                   : "EXP",
                 isa_arch_name(a->arch));
        return 0;
    }
    if (!any) {
        err->col = in.mcol;
        snprintf(err->msg, sizeof err->msg, "unknown instruction '%s' on %s", in.mnem,
                 isa_arch_name(a->arch));
        return 0;
    }
    if (bestop >= 0 && bestop < in.nops) {
        err->col = in.opcol[bestop];
        const fld *F = &layouts[beste->lay].f[beste->opmap[bestop] >= 0 ? beste->opmap[bestop] : 0];
        static const char *const what[] = {[K_SRC9] = "a register or constant",
                                           [K_SRC8] = "a scalar register or constant",
                                           [K_REG8] = "a vector register",
                                           [K_SDST7] = "a scalar register",
                                           [K_SBASE] = "an SGPR pair",
                                           [K_SRSRC] = "an SGPR quad (buffer resource)",
                                           [K_SADDR] = "a scalar register or 'off'",
                                           [K_VADDR] = "a vector register or 'off'",
                                           [K_SIMM16] = "a 16-bit immediate",
                                           [K_SMOFF] = "an offset or scalar register",
                                           [K_LIT32] = "a 32-bit constant",
                                           [K_SDWA_SRC] = "a register or inline constant",
                                           [K_SDWA_SDST] = "a scalar register pair",
                                           [K_SIMM8] = "an immediate",
                                           [K_RSMOFF] = "an offset or scalar register",
                                           [K_SREG7] = "an SGPR quad (buffer resource)",
                                           [K_VDSTY] = "a vector register",
                                           [K_SEARCH] = "a symbolic operand",
                                           [K_IMM] = "an immediate"};
        snprintf(err->msg, sizeof err->msg, "invalid operand for '%s': expected %s", asked,
                 beste->opmap[bestop] >= 0 ? what[F->kind] : "the operand the instruction implies");
        return 0;
    }
    if (bestop >= 0) {
        err->col = (int)strlen(text);
        snprintf(err->msg, sizeof err->msg, "too few operands for '%s': expected %u", asked,
                 beste ? beste->nprinted : 0);
        return 0;
    }
    /* the operands fitted their fields but the closest encoding prints differently: point at the
     * first operand that differs and say what the instruction has there */
    if (beste && best < (1 << 17)) {
        job j = {a, beste, &in, 0, NULL};
        pline c;
        if (try_print(&j, closest, &c, NULL, NULL, 0) && c.nops == in.nops) {
            for (int i = 0; i < in.nops; i++) {
                if (tok_equiv(in.op[i], c.op[i]))
                    continue;
                reg_t r;
                const char *kind = "a constant";
                if (parse_reg(a, c.op[i], &r))
                    kind = r.kind == R_V     ? "a vector register"
                           : r.kind == R_A   ? "an accumulator register"
                           : r.kind == R_OFF ? "'off'"
                                             : "a scalar register";
                err->col = in.opcol[i];
                snprintf(err->msg, sizeof err->msg,
                         "invalid operand for '%s': expected %s (like '%s')", asked, kind, c.op[i]);
                return 0;
            }
        }
    }
    err->col = in.nkv ? in.kvcol[0] : in.mcol;
    snprintf(err->msg, sizeof err->msg, "invalid operands or modifiers for '%s'", asked);
    return 0;
}
