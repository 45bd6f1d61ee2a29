/* asm.c - see asm.h.  Runs `llvm-mc-22 -show-encoding` and collects the bytes of every
 * "encoding: [0x..,...]" it prints. */
#ifndef _GNU_SOURCE
#define _GNU_SOURCE
#endif
#include "common/asm.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

int asm_not_on_target;

uint8_t *asm_snippet(const char *arch, const char *text, size_t *n)
{
    asm_not_on_target = 0;
    char in[] = "/tmp/gfxemu-asm-XXXXXX";
    int fd = mkstemp(in);
    if (fd < 0) {
        perror("asm_snippet: mkstemp");
        return NULL;
    }
    size_t len = strlen(text);
    if (write(fd, text, len) != (ssize_t)len || write(fd, "\n", 1) != 1) {
        close(fd);
        unlink(in);
        return NULL;
    }
    close(fd);
    char cmd[512];
    snprintf(cmd, sizeof cmd, "llvm-mc-22 -arch=amdgcn -mcpu=%s -show-encoding %s 2>&1", arch, in);
    FILE *p = popen(cmd, "r");
    if (!p) {
        unlink(in);
        return NULL;
    }
    size_t cap = 256, used = 0;
    uint8_t *out = malloc(cap);
    char line[1024];
    int bad = 0, other = 0;
    while (fgets(line, sizeof line, p)) {
        if (strstr(line, "error:")) {
            fprintf(stderr, "asm_snippet: %s", line);
            bad = 1;
            other |= !strstr(line, "instruction not supported on this GPU");
        }
        char *e = strstr(line, "encoding: [");
        if (!e)
            continue;
        for (char *q = e + 11; *q && *q != ']';) {
            unsigned v;
            if (sscanf(q, "0x%x", &v) != 1)
                break;
            if (used == cap)
                out = realloc(out, cap *= 2);
            out[used++] = (uint8_t)v;
            q = strchr(q, ',');
            if (!q)
                break;
            q++;
        }
    }
    int st = pclose(p);
    unlink(in);
    asm_not_on_target = bad && !other;
    if (bad || st != 0 || used == 0) {
        fprintf(stderr, "asm_snippet: llvm-mc-22 failed on:\n%s\n", text);
        free(out);
        return NULL;
    }
    *n = used;
    return out;
}
