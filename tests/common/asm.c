/* asm.c - see asm.h.  Runs `llvm-mc-22 -show-encoding` and collects the bytes of every
 * "encoding: [0x..,...]" it prints.
 *
 * One llvm-mc-22 process costs far more than assembling a snippet (it loads all of LLVM), and a
 * test assembles dozens of snippets.  So the first asm_snippet() call of a process runs a
 * pre-pass: a forked child goes on through the rest of the test with every asm_snippet() call
 * recording its (arch, text) and returning NULL, as if assembly had failed (so the child runs
 * no wave and its checks fail quietly: its output goes to /dev/null, its exit status is
 * ignored).  The parent assembles everything the child recorded in one llvm-mc-22 call per
 * target, each snippet behind its own label, and keeps the bytes.  Then the test really runs,
 * and every asm_snippet() whose (arch, text) was assembled in the batch gets those bytes; any
 * other text (one computed from a result the child never had, one llvm-mc-22 rejects, one with
 * its own labels or directives) is assembled alone as before.  GFXEMU_ASM_PREPASS=0 turns the
 * pre-pass off. */
#ifndef _GNU_SOURCE
#define _GNU_SOURCE
#endif
#include "common/asm.h"

#include <fcntl.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

/* The child stops after this many seconds: the pre-pass only saves time, a test that takes
 * long without running its snippets keeps what was recorded by then. */
#define PREPASS_SECONDS 20

typedef struct {
    char *arch, *text;
    uint8_t *bytes; /* NULL: not assembled in a batch (assemble alone) */
    size_t n;
    int tried; /* in a batch already */
} snip;

static snip *snips;
static size_t nsnips;
static enum { PRE_NONE, PRE_DONE, PRE_CHILD } prepass;
static int record_fd = -1; /* in the pre-pass child: the pipe to the parent */

/* Appends the bytes of an "encoding: [0x..,0x..]" line to *out (*used of *cap bytes). */
static void add_encoding(const char *line, uint8_t **out, size_t *used, size_t *cap) {
    const char *e = strstr(line, "encoding: [");
    if (!e)
        return;
    for (const char *q = e + 11; *q && *q != ']';) {
        unsigned v;
        if (sscanf(q, "0x%x", &v) != 1)
            break;
        if (*used == *cap) {
            *cap = *cap ? 2 * *cap : 256;
            *out = realloc(*out, *cap);
        }
        (*out)[(*used)++] = (uint8_t)v;
        q = strchr(q, ',');
        if (!q)
            break;
        q++;
    }
}

/* Writes text to a new temporary file and opens llvm-mc-22 on it; *path gets the file name. */
static FILE *open_llvm_mc(const char *arch, const char *text, char path[32]) {
    strcpy(path, "/tmp/gfxemu-asm-XXXXXX");
    int fd = mkstemp(path);
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
    snprintf(cmd, sizeof cmd, "llvm-mc-22 -arch=amdgcn -mcpu=%s -show-encoding %s 2>&1", arch,
             path);
    FILE *p = popen(cmd, "r");
    if (!p)
        unlink(path);
    return p;
}

int asm_not_on_target;

static uint8_t *assemble_alone(const char *arch, const char *text, size_t *n) {
    char path[32];
    FILE *p = open_llvm_mc(arch, text, path);
    if (!p)
        return NULL;
    size_t cap = 0, used = 0;
    uint8_t *out = NULL;
    char line[1024];
    int bad = 0, other = 0;
    while (fgets(line, sizeof line, p)) {
        if (strstr(line, "error:")) {
            fprintf(stderr, "asm_snippet: %s", line);
            bad = 1;
            other |= !strstr(line, "instruction not supported on this GPU");
        }
        add_encoding(line, &out, &used, &cap);
    }
    int st = pclose(p);
    unlink(path);
    asm_not_on_target = bad && !other;
    if (bad || st != 0 || used == 0) {
        fprintf(stderr, "asm_snippet: llvm-mc-22 failed on:\n%s\n", text);
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
    char path[32];
    FILE *p = open_llvm_mc(arch, src, path);
    free(src);
    if (!p) {
        free(first_line);
        return 0;
    }
    uint8_t **bytes = calloc(n, sizeof *bytes);
    size_t *used = calloc(n, sizeof *used), *cap = calloc(n, sizeof *cap), cur = SIZE_MAX;
    size_t rejected = 0;
    char buf[1024];
    while (fgets(buf, sizeof buf, p)) {
        size_t at;
        unsigned eline;
        if (sscanf(buf, ".Lgfxemu_snippet_%zu:", &at) == 1) {
            cur = SIZE_MAX;
            for (size_t k = 0; k < n; k++)
                if (idx[k] == at)
                    cur = k;
        } else if (strncmp(buf, path, strlen(path)) == 0 &&
                   sscanf(buf + strlen(path), ":%u:", &eline) == 1 && strstr(buf, "error:")) {
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
    int st = pclose(p);
    unlink(path);
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
        /* A rejected snippet is left to assemble alone (which prints llvm-mc's message); the
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

static void add_snip(const char *arch, const char *text) {
    for (size_t i = 0; i < nsnips; i++)
        if (strcmp(snips[i].text, text) == 0 && strcmp(snips[i].arch, arch) == 0)
            return;
    snip *t = realloc(snips, (nsnips + 1) * sizeof *snips);
    if (!t)
        return;
    snips = t;
    snips[nsnips].arch = strdup(arch);
    snips[nsnips].text = strdup(text);
    snips[nsnips].bytes = NULL;
    snips[nsnips].n = 0;
    snips[nsnips].tried = 0;
    nsnips++;
}

/* The pre-pass (see the top of the file).  Returns in the parent once the batch is assembled,
 * and in the child, which then records instead of assembling. */
static void run_prepass(void) {
    prepass = PRE_DONE;
    const char *env = getenv("GFXEMU_ASM_PREPASS");
    if (env && strcmp(env, "0") == 0)
        return;
    int fds[2];
    if (pipe(fds) != 0)
        return;
    fflush(NULL); /* else the child would print the parent's buffered output again */
    pid_t pid = fork();
    if (pid < 0) {
        close(fds[0]);
        close(fds[1]);
        return;
    }
    if (pid == 0) {
        close(fds[0]);
        record_fd = fds[1];
        prepass = PRE_CHILD;
        int null = open("/dev/null", O_RDWR);
        if (null >= 0) {
            dup2(null, 0);
            dup2(null, 1);
            dup2(null, 2);
        }
        alarm(PREPASS_SECONDS);
        return;
    }
    close(fds[1]);
    /* Records are "arch\0text\0". */
    size_t cap = 1 << 16, used = 0;
    char *buf = malloc(cap);
    ssize_t got;
    while (buf && (got = read(fds[0], buf + used, cap - used)) > 0) {
        used += (size_t)got;
        if (used == cap) {
            char *t = realloc(buf, cap *= 2);
            if (!t)
                break;
            buf = t;
        }
    }
    close(fds[0]);
    waitpid(pid, NULL, 0);
    /* a record cut short by the child's end has no final NUL: drop it */
    while (used && buf[used - 1] != 0)
        used--;
    for (size_t at = 0; buf && at < used;) {
        const char *arch = buf + at;
        at += strlen(arch) + 1;
        if (at >= used)
            break;
        const char *text = buf + at;
        at += strlen(text) + 1;
        add_snip(arch, text);
    }
    free(buf);
    assemble_recorded();
}

uint8_t *asm_snippet(const char *arch, const char *text, size_t *n) {
    asm_not_on_target = 0;
    if (prepass == PRE_NONE)
        run_prepass();
    if (prepass == PRE_CHILD) {
        size_t la = strlen(arch) + 1, lt = strlen(text) + 1;
        if (write(record_fd, arch, la) != (ssize_t)la || write(record_fd, text, lt) != (ssize_t)lt)
            _exit(0);
        return NULL;
    }
    for (size_t i = 0; i < nsnips; i++)
        if (snips[i].bytes && strcmp(snips[i].text, text) == 0 &&
            strcmp(snips[i].arch, arch) == 0) {
            uint8_t *out = malloc(snips[i].n);
            if (!out)
                return NULL;
            memcpy(out, snips[i].bytes, snips[i].n);
            *n = snips[i].n;
            return out;
        }
    return assemble_alone(arch, text, n);
}
