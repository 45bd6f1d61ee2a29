/* test_runasm_threads.c - gfxemu_run_asm()'s process-wide state (devices, registered ranges,
 * decoded-code cache) and its per-thread fault/error records under concurrent callers: several
 * threads register their own buffers, run kernels that write them, fault on purpose and
 * unregister, all at once.  Every thread must see exactly its own results and its own last
 * fault.  Run under ThreadSanitizer by `make check-tsan`. */
#include <pthread.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "common/asm.h"
#include "common/check.h"
#include "gfxemu.h"

enum { THREADS = 4, ROUNDS = 12 };

/* s[0:1] = buffer, s2 = a per-thread tag: lane l stores tag + l at buffer + 4 * l. */
static const char *const STORE = "v_lshlrev_b32 v1, 2, v0\n"
                                 "v_add_u32 v2, s2, v0\n"
                                 "global_store_dword v1, v2, s[0:1]\n"
                                 "s_endpgm\n";
/* The same store 4 KiB past the buffer: a memory fault. */
static const char *const WILD = "v_lshlrev_b32 v1, 2, v0\n"
                                "v_add_u32 v1, 0x1000, v1\n"
                                "global_store_dword v1, v0, s[0:1]\n"
                                "s_endpgm\n";

static uint8_t *code_store, *code_wild;
static size_t n_store, n_wild;
static int fails[THREADS];

static void *worker(void *arg) {
    unsigned t = (unsigned)(uintptr_t)arg;
    uint32_t *buf = calloc(64, 4);
    if (!buf) {
        fails[t]++;
        return NULL;
    }
    for (unsigned r = 0; r < ROUNDS; r++) {
        const char *arch = (r + t) & 1 ? "gfx942" : "gfx950";
        uint32_t tag = t * 1000 + r * 100;
        uint32_t user[3] = {(uint32_t)(uintptr_t)buf, (uint32_t)((uintptr_t)buf >> 32), tag};
        if (gfxemu_map_host(buf, 64 * 4) != 0) {
            fails[t]++;
            break;
        }
        int rc = gfxemu_run_asm((uint64_t)(uintptr_t)code_store, (uint32_t)n_store, 1, 1, 1, 64, 1,
                                1, 0, 3u << 1, 0, arch, user, 3);
        gfx_fault f;
        gfxemu_last_fault(&f);
        if (rc != 0 || f.kind != GFX_FAULT_NONE || *gfxemu_last_error())
            fails[t]++;
        for (unsigned l = 0; l < 64; l++)
            if (buf[l] != tag + l)
                fails[t]++;
        /* A fault of this thread is recorded for this thread only. */
        if (r % 3 == t % 3) {
            rc = gfxemu_run_asm((uint64_t)(uintptr_t)code_wild, (uint32_t)n_wild, 1, 1, 1, 64, 1, 1,
                                0, 3u << 1, 0, arch, user, 3);
            gfxemu_last_fault(&f);
            if (rc != GFX_ERR_FAULT || f.kind != GFX_FAULT_MEMORY ||
                f.addr != (uint64_t)(uintptr_t)buf + 0x1000)
                fails[t]++;
        }
        if (gfxemu_unmap_host(buf) != 0)
            fails[t]++;
        /* Unregistered now: the same kernel faults. */
        rc = gfxemu_run_asm((uint64_t)(uintptr_t)code_store, (uint32_t)n_store, 1, 1, 1, 64, 1, 1,
                            0, 3u << 1, 0, arch, user, 3);
        gfxemu_last_fault(&f);
        if (rc != GFX_ERR_FAULT || f.kind != GFX_FAULT_MEMORY)
            fails[t]++;
        memset(buf, 0, 64 * 4);
    }
    free(buf);
    return NULL;
}

int main(void) {
    code_store = asm_snippet("gfx950", STORE, &n_store);
    code_wild = asm_snippet("gfx950", WILD, &n_wild);
    CHECK(code_store && code_wild, "assemble");
    if (!code_store || !code_wild)
        return check_summary("runasm_threads");
    pthread_t th[THREADS];
    for (unsigned t = 0; t < THREADS; t++)
        CHECK(pthread_create(&th[t], NULL, worker, (void *)(uintptr_t)t) == 0, "thread %u", t);
    for (unsigned t = 0; t < THREADS; t++)
        pthread_join(th[t], NULL);
    for (unsigned t = 0; t < THREADS; t++)
        CHECK(fails[t] == 0, "thread %u: %d wrong results or fault records", t, fails[t]);
    free(code_store);
    free(code_wild);
    return check_summary("runasm_threads");
}
