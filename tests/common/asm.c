/* asm.c - see asm.h.  Snippets are assembled in-process by gfxemu's own assembler (what
 * gfx_assemble with GFX_ASM_RAW runs: as_assemble_with, with one encoder per target kept for the
 * whole test), so a test starts no other process for its bytes.
 *
 * The assembler is itself checked against llvm-mc-22 by the cross-check mode: with
 * GFXEMU_ASM_CROSSCHECK set, every snippet a test assembles is also recorded, and when the test
 * exits all of them go to llvm-mc-22 (one call per target, each snippet behind its own label;
 * a snippet with labels or directives of its own, or one llvm-mc rejects, is assembled alone)
 * and the bytes are compared.  Every difference is printed; the last lines are one summary per
 * target, "asm-crosscheck: ARCH: N snippets, N mismatches", written to stderr and appended to
 * the file GFXEMU_ASM_CROSSCHECK names (unless it is "1").  tests/isa/test_asm_crosscheck.sh runs
 * the snippet tests in this mode. */
#ifndef _GNU_SOURCE
#define _GNU_SOURCE
#endif
#include "common/asm.h"

#include "asm/as.h"
#include "common/util.h"
#include "gfxemu.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

int asm_not_on_target;

typedef struct {
    char *arch, *text;
    uint8_t *ours; /* gfxemu's bytes, NULL: gfxemu rejected the text */
    size_t nours;
    uint8_t *bytes; /* llvm-mc-22's bytes, NULL: not (yet) assembled by it */
    size_t n;
    int tried; /* in a batch already */
} snip;

static snip *snips;
static size_t nsnips;

/* Appends byte v to *out (*used of *cap bytes). */
static void push_byte(uint8_t v, uint8_t **out, size_t *used, size_t *cap) {
    if (*used == *cap) {
        *cap = *cap ? 2 * *cap : 256;
        *out = realloc(*out, *cap);
    }
    (*out)[(*used)++] = v;
}

/* Appends the bytes of an "encoding: [0x..,0x..]" line to *out (*used of *cap bytes), or of a
 * data word llvm-mc echoes as "\t.long\t<decimal>" (a snippet's raw `.long` words, used for
 * instructions gfxemu's assembler cannot encode yet). */
static void add_encoding(const char *line, uint8_t **out, size_t *used, size_t *cap) {
    const char *e = strstr(line, "encoding: [");
    unsigned long word;
    if (!e && sscanf(line, " .long %lu", &word) == 1) {
        for (int k = 0; k < 4; k++)
            push_byte((uint8_t)(word >> (8 * k)), out, used, cap);
        return;
    }
    if (!e)
        return;
    for (const char *q = e + 11; *q && *q != ']';) {
        unsigned v;
        if (sscanf(q, "0x%x", &v) != 1)
            break;
        push_byte((uint8_t)v, out, used, cap);
        q = strchr(q, ',');
        if (!q)
            break;
        q++;
    }
}

/* llvm-mc-22's output (stdout and stderr) for `text` on arch, malloc'd; *status: its exit status
 * (-1: it could not be run).  The text goes in on stdin, so error lines read "<stdin>:LINE:...",
 * the same on every run: the answer is kept in the oracle cache (tests/common/util.h), keyed by
 * the target, the text and the llvm-mc-22 binary, and read back when the same text comes again;
 * only llvm-mc's work is reused, gfxemu's bytes are compared afresh. */
static char *llvm_mc(const char *arch, const char *text, int *status) {
    static unsigned long long mc_identity;
    if (!mc_identity)
        mc_identity = test_file_identity("llvm-mc-22");
    char name[96];
    unsigned long long h = test_hash(arch, strlen(arch) + 1, TEST_HASH0 ^ mc_identity);
    unsigned long long key2 = test_hash(arch, strlen(arch) + 1, mc_identity + 1);
    h = test_hash(text, strlen(text), h);
    key2 = test_hash(text, strlen(text), key2);
    snprintf(name, sizeof name, "mc-%s-%016llx", arch, h);
    unsigned char *d;
    size_t n;
    if (mc_identity && test_cache_get(name, key2, &d, &n) == 0 && n >= 4) {
        memcpy(status, d, 4);
        memmove(d, d + 4, n - 4 + 1); /* with test_cache_get's final 0 */
        return (char *)d;
    }
    /* "gfx1100:wavefrontsize64": the CPU name, then LLVM's feature for wave64 */
    char cpu[32];
    snprintf(cpu, sizeof cpu, "%.*s", (int)strcspn(arch, ":"), arch);
    const char *attr = strstr(arch, "wavefrontsize64") ? " -mattr=+wavefrontsize64" : "";
    char path[32] = "/tmp/gfxemu-asm-XXXXXX";
    int fd = mkstemp(path);
    *status = -1;
    if (fd < 0) {
        perror("asm_snippet: mkstemp");
        return NULL;
    }
    size_t len = strlen(text);
    if (write(fd, text, len) != (ssize_t)len || write(fd, "\n", 1) != 1) {
        close(fd);
        unlink(path);
        return NULL;
    }
    close(fd);
    char cmd[512];
    snprintf(cmd, sizeof cmd, "llvm-mc-22 -arch=amdgcn -mcpu=%s%s -show-encoding <%s 2>&1", cpu,
             attr, path);
    FILE *p = popen(cmd, "r");
    size_t used = 4, cap = 4096;
    char *out = malloc(cap);
    while (p && out) {
        if (used + 2048 > cap && !(out = realloc(out, cap *= 2)))
            break;
        size_t got = fread(out + used, 1, cap - used - 1, p);
        if (!got)
            break;
        used += got;
    }
    int st = p ? pclose(p) : -1;
    unlink(path);
    if (!out)
        return NULL;
    out[used] = 0;
    memcpy(out, &st, 4);
    if (mc_identity && p)
        test_cache_put(name, key2, out, used);
    *status = st;
    memmove(out, out + 4, used - 4 + 1);
    return out;
}

/* llvm-mc-22's bytes for one text assembled alone; NULL if it rejects the text. */
static uint8_t *llvm_alone(const char *arch, const char *text, size_t *n) {
    int st;
    char *listing = llvm_mc(arch, text, &st);
    if (!listing)
        return NULL;
    size_t cap = 0, used = 0;
    uint8_t *out = NULL;
    int bad = strstr(listing, "error:") != NULL;
    for (char *line = strtok(listing, "\n"); line; line = strtok(NULL, "\n"))
        add_encoding(line, &out, &used, &cap);
    free(listing);
    if (bad || st != 0 || used == 0) {
        free(out);
        return NULL;
    }
    *n = used;
    return out;
}

/* A snippet may share a batch only if nothing in it depends on where it sits or on what stands
 * beside it: no labels of its own and no directives (.p2align would pad from the batch's
 * start, a label defined twice is an error). */
static int batchable(const char *text) {
    for (const char *l = text; *l; l++) {
        while (*l == ' ' || *l == '\t')
            l++;
        if (*l == '.')
            return 0;
        const char *end = strchr(l, '\n');
        size_t len = end ? (size_t)(end - l) : strlen(l);
        while (len && (l[len - 1] == ' ' || l[len - 1] == '\t' || l[len - 1] == '\r'))
            len--;
        if (len && l[len - 1] == ':')
            return 0;
        if (!end)
            break;
        l = end;
    }
    return 1;
}

/* Assembles snippets idx[0..n) (all of one arch) in one llvm-mc-22 call, each behind the label
 * .Lgfxemu_snippet_<index>.  Returns how many were rejected (their idx entry is set to
 * SIZE_MAX so that the caller can try the others again); the others get their bytes. */
static size_t assemble_batch(const char *arch, size_t *idx, size_t n) {
    size_t len = 1, *first_line = malloc(n * sizeof *first_line);
    for (size_t k = 0; k < n; k++)
        len += strlen(snips[idx[k]].text) + 48;
    char *src = malloc(len), *s = src;
    size_t line = 1;
    for (size_t k = 0; k < n; k++) {
        s += sprintf(s, ".Lgfxemu_snippet_%zu:\n%s\n", idx[k], snips[idx[k]].text);
        first_line[k] = ++line;
        for (const char *c = snips[idx[k]].text; *c; c++)
            line += *c == '\n';
        line++;
    }
    int st;
    char *listing = llvm_mc(arch, src, &st);
    free(src);
    if (!listing) {
        free(first_line);
        return 0;
    }
    uint8_t **bytes = calloc(n, sizeof *bytes);
    size_t *used = calloc(n, sizeof *used), *cap = calloc(n, sizeof *cap), cur = SIZE_MAX;
    size_t rejected = 0;
    for (char *buf = strtok(listing, "\n"); buf; buf = strtok(NULL, "\n")) {
        size_t at;
        unsigned eline;
        if (sscanf(buf, ".Lgfxemu_snippet_%zu:", &at) == 1) {
            cur = SIZE_MAX;
            for (size_t k = 0; k < n; k++)
                if (idx[k] == at)
                    cur = k;
        } else if (sscanf(buf, "<stdin>:%u:", &eline) == 1 && strstr(buf, "error:")) {
            /* the snippet holding that line: the last one starting at or before it */
            size_t k = 0;
            while (k + 1 < n && first_line[k + 1] <= eline)
                k++;
            if (idx[k] != SIZE_MAX) {
                idx[k] = SIZE_MAX;
                rejected++;
            }
        } else if (cur != SIZE_MAX) {
            add_encoding(buf, &bytes[cur], &used[cur], &cap[cur]);
        }
    }
    free(listing);
    /* Keep the bytes only from a clean run: a rejected snippet can hide others' errors. */
    for (size_t k = 0; k < n; k++) {
        if (!rejected && st == 0 && used[k]) {
            snips[idx[k]].bytes = bytes[k];
            snips[idx[k]].n = used[k];
        } else {
            free(bytes[k]);
        }
    }
    free(bytes);
    free(used);
    free(cap);
    free(first_line);
    return rejected;
}

static void assemble_recorded(void) {
    size_t *idx = malloc((nsnips + 1) * sizeof *idx);
    for (size_t i = 0; idx && i < nsnips; i++) {
        if (snips[i].tried || !batchable(snips[i].text))
            continue;
        size_t n = 0;
        for (size_t j = i; j < nsnips; j++)
            if (!snips[j].tried && strcmp(snips[j].arch, snips[i].arch) == 0 &&
                batchable(snips[j].text)) {
                snips[j].tried = 1;
                idx[n++] = j;
            }
        /* A rejected snippet is left to assemble alone; the
         * rest are tried again without it. */
        for (int round = 0; round < 4 && n; round++) {
            if (assemble_batch(snips[i].arch, idx, n) == 0)
                break;
            size_t m = 0;
            for (size_t k = 0; k < n; k++)
                if (idx[k] != SIZE_MAX)
                    idx[m++] = idx[k];
            n = m;
        }
    }
    free(idx);
}

static void print_bytes(const char *what, const uint8_t *b, size_t n) {
    fprintf(stderr, "  %s:", what);
    if (!b)
        fprintf(stderr, " (rejected)");
    for (size_t i = 0; b && i < n; i++)
        fprintf(stderr, " %02x", b[i]);
    fprintf(stderr, "\n");
}

/* At exit in cross-check mode: llvm-mc-22's bytes for every recorded snippet against ours. */
static void crosscheck_report(void) {
    assemble_recorded();
    const char *path = getenv("GFXEMU_ASM_CROSSCHECK");
    FILE *sum = path && strcmp(path, "1") ? fopen(path, "a") : NULL;
    for (size_t i = 0; i < nsnips; i++) {
        if (snips[i].tried == 2)
            continue; /* this arch is reported already */
        size_t count = 0, bad = 0;
        for (size_t j = i; j < nsnips; j++) {
            snip *s = &snips[j];
            if (strcmp(s->arch, snips[i].arch))
                continue;
            s->tried = 2;
            if (!s->bytes)
                s->bytes = llvm_alone(s->arch, s->text, &s->n);
            count++;
            /* both rejecting (an instruction the target lacks) is agreement */
            if (!s->bytes && !s->ours)
                continue;
            if (s->bytes && s->ours && s->n == s->nours && !memcmp(s->bytes, s->ours, s->n))
                continue;
            bad++;
            fprintf(stderr, "asm-crosscheck: %s: gfxemu and llvm-mc-22 differ on:\n%s\n", s->arch,
                    s->text);
            print_bytes("gfxemu    ", s->ours, s->nours);
            print_bytes("llvm-mc-22", s->bytes, s->n);
        }
        fprintf(stderr, "asm-crosscheck: %s: %zu snippets, %zu mismatches\n", snips[i].arch, count,
                bad);
        if (sum)
            fprintf(sum, "asm-crosscheck: %s: %zu snippets, %zu mismatches\n", snips[i].arch, count,
                    bad);
    }
    if (sum)
        fclose(sum);
}

/* Records a snippet (once per arch and text) for the cross-check. */
static void record(const char *arch, const char *text, const uint8_t *ours, size_t n) {
    static int registered;
    if (!registered) {
        registered = 1;
        atexit(crosscheck_report);
    }
    for (size_t i = 0; i < nsnips; i++)
        if (strcmp(snips[i].text, text) == 0 && strcmp(snips[i].arch, arch) == 0)
            return;
    snip *t = realloc(snips, (nsnips + 1) * sizeof *snips);
    if (!t)
        return;
    snips = t;
    snip *s = &snips[nsnips++];
    memset(s, 0, sizeof *s);
    s->arch = strdup(arch);
    s->text = strdup(text);
    if (ours && (s->ours = malloc(n ? n : 1))) {
        memcpy(s->ours, ours, n);
        s->nours = n;
    }
}

uint8_t *asm_snippet(const char *arch, const char *text, size_t *n) {
    asm_not_on_target = 0;
    gfx_arch a;
    if (gfx_arch_from_name(arch, &a) != GFX_OK) {
        fprintf(stderr, "asm_snippet: no assembler for '%s'\n", arch);
        return NULL;
    }
    /* One encoder per target for the whole test: the library's gfx_assemble() builds one per
     * call (~3 ms), which thousands of snippets would pay again and again.  Same assembler,
     * same bytes (as_assemble_with is what gfx_assemble runs).  RDNA wave64 snippets
     * ("gfx1100:wavefrontsize64", llvm-mc's -mattr=+wavefrontsize64) have their own encoder. */
    static isa_asm *enc[GFX_ARCH_COUNT][2];
    int w64 = isa_is_rdna((unsigned)a) && strstr(arch, "wavefrontsize64") != NULL;
    if (!enc[a][w64]) {
        if (!(enc[a][w64] = isa_asm_new((isa_arch)a))) {
            fprintf(stderr, "asm_snippet: out of memory\n");
            return NULL;
        }
        isa_asm_set_wave64(enc[a][w64], w64);
    }
    as_out o;
    char err[256];
    int bad =
        as_assemble_with(enc[a][w64], (isa_arch)a, text, strlen(text), 1, &o, err, sizeof err);
    const char *cc = getenv("GFXEMU_ASM_CROSSCHECK");
    if (cc && *cc)
        record(arch, text, bad ? NULL : o.bytes[AS_SEC_TEXT], bad ? 0 : o.size[AS_SEC_TEXT]);
    if (bad) {
        /* what llvm-mc-22 calls "instruction not supported on this GPU" */
        asm_not_on_target = strstr(err, "unknown instruction") != NULL;
        fprintf(stderr, "asm_snippet: gfxemu as (%s): %s in:\n%s\n", arch, err, text);
        return NULL;
    }
    size_t size = o.size[AS_SEC_TEXT];
    uint8_t *out = malloc(size ? size : 1);
    if (out && size)
        memcpy(out, o.bytes[AS_SEC_TEXT], size);
    as_out_free(&o);
    *n = size;
    return out;
}
