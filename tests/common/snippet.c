/* snippet.c - see snippet.h. */
#include "common/snippet.h"

#include "common/asm.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

int run_snippet(wave *w, const char *arch, const char *text)
{
    char src[1024];
    snprintf(src, sizeof src, "%s\ns_endpgm", text);
    size_t n;
    uint8_t *code = asm_snippet(arch, src, &n);
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
    w->budget = 1000;
    w->status = WAVE_RUNNING;
    memset(&w->fault, 0, sizeof w->fault);
    wave_run(w);
    w->prog = NULL;
    xprog_free(&p);
    free(code);
    return w->status;
}
