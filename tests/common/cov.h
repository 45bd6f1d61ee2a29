/* cov.h - helpers for the coverage tests (tests/exec/test_cov_*.c, docs/testing.md): run a
 * snippet of any length (assembled by tests/common/asm.c), and host-side float helpers for
 * references. */
#ifndef GFXEMU_TEST_COV_H
#define GFXEMU_TEST_COV_H

#include "common/asm.h"
#include "common/bits.h"
#include "common/check.h"
#include "common/snippet.h"
#include "exec/exec.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* text with the gfx940+ cache-policy words as gfx90a spells the same bits: sc0 -> glc,
 * nt -> slc, sc1 -> scc (CDNA2/CDNA3 ISA: same bit positions).  Returns a malloc'd copy. */
static inline char *cov_cpol90a(const char *text) {
    static const char *const from[] = {" sc0", " nt", " sc1"}, *const to[] = {" glc", " slc",
                                                                              " scc"};
    char *out = malloc(2 * strlen(text) + 1), *o = out;
    if (!out)
        return NULL;
    for (const char *p = text; *p;) {
        int k = 0;
        for (; k < 3; k++) {
            size_t n = strlen(from[k]);
            if (!strncmp(p, from[k], n) && (p[n] == 0 || p[n] == ' ' || p[n] == '\n'))
                break;
        }
        if (k < 3) {
            o += sprintf(o, "%s", to[k]);
            p += strlen(from[k]);
        } else
            *o++ = *p++;
    }
    *o = 0;
    return out;
}

/* Assemble text + s_endpgm for arch and run it on w from its current registers, with a budget
 * of 100000 instructions.  Returns the WAVE_* status, -1 if it did not build.  On gfx90a the
 * cache-policy words are translated (cov_cpol90a), so one snippet serves every target. */
/* cov_run's answer for a gfx90a snippet naming an instruction gfx90a does not have (llvm-mc-22:
 * "instruction not supported on this GPU") while gfx942 assembles it: nothing ran; the caller
 * moves on, and the count is printed (cov_report_na) so it is never mistaken for a pass. */
enum { COV_NOT_ON_TARGET = -2 };
static int cov_na_count;

static inline int cov_run(wave *w, const char *arch, const char *text) {
    if (strcmp(arch, "gfx90a"))
        return run_snippet_budget(w, arch, text, 100000);
    char *t = cov_cpol90a(text);
    int st = t ? run_snippet_budget(w, arch, t, 100000) : -1;
    free(t);
    if (st == -1 && asm_not_on_target) {
        size_t n;
        uint8_t *other = asm_snippet("gfx942", text, &n);
        if (other) {
            free(other);
            cov_na_count++;
            return COV_NOT_ON_TARGET;
        }
    }
    return st;
}

/* cov_run for a snippet that must run to its end: anything but WAVE_DONE (and
 * COV_NOT_ON_TARGET, returned as it is for the caller to skip) is a failed check of the calling
 * test, with the status and fault kind.  Returns cov_run's status. */
static inline int cov_run_done(wave *w, const char *arch, const char *text) {
    int st = cov_run(w, arch, text);
    if (st != COV_NOT_ON_TARGET)
        CHECK(st == WAVE_DONE, "%s [%s]: status %d fault %d", arch, text, st, w->fault.kind);
    return st;
}

static inline void cov_report_na(const char *test) {
    printf("%s: %d gfx90a snippets name instructions gfx90a does not have (not run there)\n", test,
           cov_na_count);
}

/* IEEE binary16 bits to double (exact). */
static inline double cov_h2d(uint32_t h) {
    int s = (h >> 15) & 1, e = (h >> 10) & 0x1f, m = h & 0x3ff;
    double v = e == 0 ? ldexp(m, -24) : e == 31 ? (m ? NAN : INFINITY) : ldexp(m | 0x400, e - 25);
    return s ? -v : v;
}

#endif
