/* cov.h - helpers for the coverage tests (tests/exec/test_cov_*.c, docs/testing.md): run a
 * snippet of any length assembled by llvm-mc-22, and host-side float helpers for references. */
#ifndef GFXEMU_TEST_COV_H
#define GFXEMU_TEST_COV_H

#include "common/asm.h"
#include "common/bits.h"
#include "common/snippet.h"
#include "exec/exec.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* Assemble text + s_endpgm for arch and run it on w from its current registers, with a budget
 * of 100000 instructions.  Returns the WAVE_* status, -1 if it did not build. */
static inline int cov_run(wave *w, const char *arch, const char *text)
{
    return run_snippet_budget(w, arch, text, 100000);
}

/* IEEE binary16 bits to double (exact). */
static inline double cov_h2d(uint32_t h)
{
    int s = (h >> 15) & 1, e = (h >> 10) & 0x1f, m = h & 0x3ff;
    double v = e == 0 ? ldexp(m, -24) : e == 31 ? (m ? NAN : INFINITY) : ldexp(m | 0x400, e - 25);
    return s ? -v : v;
}

#endif
