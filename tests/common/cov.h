/* cov.h - helpers for the coverage tests (tests/exec/test_cov_*.c, docs/testing.md): run a
 * snippet of any length assembled by llvm-mc-22, and host-side float helpers for references. */
#ifndef GFXEMU_TEST_COV_H
#define GFXEMU_TEST_COV_H

#include "common/asm.h"
#include "exec/exec.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* Like run_snippet() (snippet.h) without its length limit: assemble text + s_endpgm for arch,
 * run it on w from its current registers.  Returns the WAVE_* status, -1 if it did not build. */
static inline int cov_run(wave *w, const char *arch, const char *text)
{
    size_t len = strlen(text) + 16, n;
    char *src = malloc(len);
    snprintf(src, len, "%s\ns_endpgm", text);
    uint8_t *code = asm_snippet(arch, src, &n);
    free(src);
    if (!code)
        return -1;
    xprog p;
    if (xprog_build(&p, strcmp(arch, "gfx942") ? ISA_GFX950 : ISA_GFX942, code, (uint32_t)n,
                    0x1000) != 0) {
        free(code);
        return -1;
    }
    w->prog = &p;
    w->pc = 0;
    w->budget = 100000;
    w->status = WAVE_RUNNING;
    memset(&w->fault, 0, sizeof w->fault);
    wave_run(w);
    w->prog = NULL;
    xprog_free(&p);
    free(code);
    return w->status;
}

static inline float cov_f32(uint32_t u)
{
    float f;
    memcpy(&f, &u, 4);
    return f;
}
static inline uint32_t cov_u32(float f)
{
    uint32_t u;
    memcpy(&u, &f, 4);
    return u;
}
static inline double cov_f64(uint64_t u)
{
    double f;
    memcpy(&f, &u, 8);
    return f;
}
static inline uint64_t cov_u64(double f)
{
    uint64_t u;
    memcpy(&u, &f, 8);
    return u;
}
/* IEEE binary16 bits to double (exact). */
static inline double cov_h2d(uint32_t h)
{
    int s = (h >> 15) & 1, e = (h >> 10) & 0x1f, m = h & 0x3ff;
    double v = e == 0 ? ldexp(m, -24) : e == 31 ? (m ? NAN : INFINITY) : ldexp(m | 0x400, e - 25);
    return s ? -v : v;
}

#endif
