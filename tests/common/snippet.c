/* snippet.c - see snippet.h. */
#include "common/snippet.h"

#include "common/asm.h"
#include "common/util.h"

#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

int run_snippet(wave *w, const char *arch, const char *text) {
    return run_snippet_budget(w, arch, text, 1000);
}

int run_snippet_budget(wave *w, const char *arch, const char *text, uint64_t budget) {
    size_t len = strlen(text) + 16, n;
    char *src = malloc(len);
    if (!src)
        return -1;
    snprintf(src, len, "%s\ns_endpgm", text);
    uint8_t *code = asm_snippet(arch, src, &n);
    free(src);
    if (!code)
        return -1;
    /* RDNA snippets run as wave32 unless the arch asks for wave64 ("gfx1100:wavefrontsize64") */
    int st = run_code(w, arch, code, n, strstr(arch, "wavefrontsize64") ? 64 : 32, budget);
    free(code);
    return st;
}

int snippet_prog_load(snippet_prog *p, const char *arch, const char *text) {
    return snippet_prog_load_waves(p, arch, text, 64);
}

int snippet_prog_load_waves(snippet_prog *p, const char *arch, const char *text, unsigned lanes) {
    snippet_prog_free(p);
    size_t len = strlen(text) + 16, n;
    char *src = malloc(len);
    if (!src)
        return -1;
    snprintf(src, len, "%s\ns_endpgm", text);
    p->code = asm_snippet(arch, src, &n);
    free(src);
    if (!p->code)
        return -1;
    if (xprog_build_waves(&p->prog, test_isa_arch(arch), p->code, (uint32_t)n, 0x1000, lanes) !=
        0) {
        free(p->code);
        p->code = NULL;
        return -1;
    }
    return 0;
}

void snippet_prog_free(snippet_prog *p) {
    if (p->code) {
        xprog_free(&p->prog);
        free(p->code);
        p->code = NULL;
    }
}

void snippet_mem_reset(wave *w, gmem *mem, uint64_t buf, uint8_t *lds, uint32_t lds_size,
                       uint8_t *scratch, uint32_t scratch_lane) {
    memset(w, 0, sizeof *w);
    for (uint32_t i = 0; i < 64; i++) {
        uint32_t v = 0x1000 + i;
        gmem_write(mem, buf + 4 * i, &v, 4);
    }
    memset(lds, 0, lds_size);
    memset(scratch, 0, 64 * (size_t)scratch_lane);
    wave_set_exec(w, ~0ull);
    w->mem = mem;
    w->lds = lds;
    w->lds_size = lds_size;
    w->scratch = scratch;
    w->scratch_lane = scratch_lane;
}

int snippet_rig_open(snippet_rig *r) {
    r->mem = gmem_create();
    uint64_t base = r->mem ? gmem_alloc(r->mem, 4096, 0) : 0;
    if (!base) {
        fprintf(stderr, "snippet_rig_open: no global memory\n");
        if (r->mem)
            gmem_destroy(r->mem);
        r->mem = NULL;
        return -1;
    }
    r->buf = base + 4096 - 256;
    return 0;
}

void snippet_rig_close(snippet_rig *r) {
    gmem_destroy(r->mem);
    r->mem = NULL;
}

void snippet_rig_reset(snippet_rig *r, uint64_t exec, uint32_t mode) {
    snippet_mem_reset(&r->wv, r->mem, r->buf, r->lds, sizeof r->lds, r->scratch,
                      sizeof r->scratch / 64);
    wave_set_exec(&r->wv, exec);
    r->wv.mode = mode;
}

void snippet_rig_lanes(snippet_rig *r, int wave64, uint32_t v0_base) {
    snippet_rig_reset(r, wave64 ? ~0ull : 0xffffffffull, 0xf0);
    for (unsigned l = 0; l < 64; l++)
        r->wv.v[0][l] = v0_base + l;
}

int snippet_rig_run(snippet_rig *r, const char *arch, const char *text) {
    int st = run_snippet(&r->wv, arch, text);
    if (st != WAVE_DONE)
        printf("  (%s '%s': status %d, fault kind %d at pc %u)\n", arch, text, st, r->wv.fault.kind,
               r->wv.fault.pc);
    return st;
}

xmemcheck *snippet_memcheck(void) {
    static pthread_mutex_t lock = PTHREAD_MUTEX_INITIALIZER;
    static xmemcheck mc;
    mc.lock = &lock;
    mc.n = mc.widened = 0;
    return &mc;
}
