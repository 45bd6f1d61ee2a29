/* test_smem.c - scalar memory on llvm-mc-22 snippets: loads, stores, buffer range checks,
 * atomics, and faults for addresses outside every allocation. */
#include "common/check.h"
#include "common/snippet.h"
#include "exec/exec.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static gmem *mem;
static uint64_t buf; /* 64 bytes: dword i holds 0x100 + i */
static wave *w;

static void reset(void) {
    memset(w, 0, sizeof *w);
    for (uint32_t i = 0; i < 16; i++) {
        uint32_t v = 0x100 + i;
        gmem_write(mem, buf + 4 * i, &v, 4);
    }
    w->s[0] = (uint32_t)buf;
    w->s[1] = (uint32_t)(buf >> 32);
    w->mem = mem;
}

int main(void) {
    mem = gmem_create();
    /* The buffer ends where its page ends, so that an access past it faults (allocations are
     * page-granular, as on hardware: inside the last page it would not). */
    buf = gmem_alloc(mem, 4096, 0) + 4096 - 64;
    w = malloc(sizeof *w);
    const char *arches[] = {"gfx950", "gfx942", "gfx90a"};
    for (int a = 0; a < 3; a++) {
        const char *arch = arches[a];
        reset();
        CHECK(run_snippet(w, arch, "s_load_dwordx2 s[4:5], s[0:1], 0x8") == WAVE_DONE, "%s load",
              arch);
        CHECK(w->s[4] == 0x102 && w->s[5] == 0x103, "%s load: %x %x", arch, w->s[4], w->s[5]);

        reset();
        w->s[2] = 0x3c;
        CHECK(run_snippet(w, arch, "s_load_dword s4, s[0:1], s2") == WAVE_DONE, "%s sgpr offset",
              arch);
        CHECK(w->s[4] == 0x10f, "%s sgpr offset: %x", arch, w->s[4]);

        /* The last dword is in range; one dword further is not. */
        reset();
        CHECK(run_snippet(w, arch, "s_load_dwordx4 s[4:7], s[0:1], 0x34") == WAVE_FAULT, "%s oob",
              arch);
        CHECK(w->fault.kind == XF_MEMORY && w->fault.addr == buf + 0x34 && w->fault.size == 16 &&
                  !w->fault.write,
              "%s oob fault: kind %d addr %llx size %u", arch, w->fault.kind,
              (unsigned long long)w->fault.addr, w->fault.size);
        CHECK(w->s[4] == 0, "%s oob load wrote registers", arch);

        reset();
        w->s[4] = 0xdeadbeef;
        CHECK(run_snippet(w, arch, "s_store_dword s4, s[0:1], 0x10") == WAVE_DONE, "%s store",
              arch);
        uint32_t v = 0;
        gmem_read(mem, buf + 0x10, &v, 4);
        CHECK(v == 0xdeadbeef, "%s store: %x", arch, v);

        /* s_buffer_load: num_records = 0x20 bytes, so dwords at 0x1c.. read 0x107, 0, 0, 0. */
        reset();
        snippet_set_rsrc(w, 8, buf, 0, 0x20, 0);
        CHECK(run_snippet(w, arch, "s_buffer_load_dwordx4 s[4:7], s[8:11], 0x1c") == WAVE_DONE,
              "%s bufload", arch);
        CHECK(w->s[4] == 0x107 && w->s[5] == 0 && w->s[6] == 0 && w->s[7] == 0,
              "%s bufload clip: %x %x %x %x", arch, w->s[4], w->s[5], w->s[6], w->s[7]);

        /* Atomic add with glc returns the old value and adds. */
        reset();
        w->s[4] = 5;
        CHECK(run_snippet(w, arch, "s_atomic_add s4, s[0:1], 0x0 glc") == WAVE_DONE, "%s atomic",
              arch);
        gmem_read(mem, buf, &v, 4);
        CHECK(w->s[4] == 0x100 && v == 0x105, "%s atomic: ret %x mem %x", arch, w->s[4], v);

        reset();
        w->s[4] = 7;     /* new value */
        w->s[5] = 0x101; /* compare */
        CHECK(run_snippet(w, arch, "s_atomic_cmpswap s[4:5], s[0:1], 0x4 glc") == WAVE_DONE,
              "%s cmpswap", arch);
        gmem_read(mem, buf + 4, &v, 4);
        CHECK(w->s[4] == 0x101 && v == 7, "%s cmpswap: ret %x mem %x", arch, w->s[4], v);
    }
    free(w);
    gmem_destroy(mem);
    return check_summary("smem");
}
