/* salu_case.h - the scalar-ALU cases of test_salu.c and test_cov_salu.c: the SGPRs a
 * snippet starts from, the SGPRs and SCC it must leave (worked out by hand from the ISA
 * pseudocode), and the checks of a finished run against them. */
#ifndef GFXEMU_TEST_SALU_CASE_H
#define GFXEMU_TEST_SALU_CASE_H

#include "exec/exec.h"

#include <stdio.h>
#include <string.h>

typedef struct {
    unsigned reg;
    uint32_t val;
} sv;

/* A case's SGPR lists hold at most SALU_NSV entries and end with END. */
#define SALU_NSV 8
#define END {0xffff, 0}

/* Zero w and give it the initial SGPRs init. */
static inline void salu_case_init(wave *w, const sv *init) {
    memset(w, 0, sizeof *w);
    for (const sv *s = init; s < init + SALU_NSV && s->reg != 0xffff; s++)
        w->s[s->reg] = s->val;
}

/* 0 when w holds the SGPRs expect and SCC scc (-1: any), else 1 with each difference printed
 * after "FAIL arch [text]". */
static inline int salu_case_expect(const wave *w, const char *arch, const char *text,
                                   const sv *expect, int scc) {
    int bad = 0;
    for (const sv *s = expect; s < expect + SALU_NSV && s->reg != 0xffff; s++)
        if (w->s[s->reg] != s->val) {
            printf("FAIL %s [%s]: s[%u] = 0x%08x, want 0x%08x\n", arch, text, s->reg, w->s[s->reg],
                   s->val);
            bad = 1;
        }
    if (scc >= 0 && (int)w->scc != scc) {
        printf("FAIL %s [%s]: scc = %u, want %d\n", arch, text, w->scc, scc);
        bad = 1;
    }
    return bad;
}

#endif
