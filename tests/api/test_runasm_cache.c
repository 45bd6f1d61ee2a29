/* test_runasm_cache.c - a wave's translation cache (src/mem/mem.h, several lines that live from
 * one workgroup to the next within a launch) must never carry a mapping into the next launch:
 * between dispatches the same host address can be registered again with fewer bytes, or its
 * pages lose write permission, and the next dispatch must see the new mapping.
 *
 * Host-address mode (gfxemu_run_asm_ranges) with GFXEMU_THREADS=1, so that both dispatches run
 * their wave on the same worker (and slot) and a stale line would be found.  The kernel copies
 * the dword at s[0:1] to s[0:1] + 4 through global memory (and reads the kernarg-free user
 * SGPRs only).  The first dispatch registers 16 pages and succeeds; the second registers only the
 * first page, and the same access 8 pages in must be a memory fault (a line kept from the first
 * dispatch spans all 16 pages and would let it through).  Then a store to pages made read-only
 * between dispatches must fault (a kept line still says writable). */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

#include "common/asm.h"
#include "common/check.h"
#include "gfxemu.h"

static const char *const copy_text = "v_mov_b32 v0, s0\n"
                                     "v_mov_b32 v1, s1\n"
                                     "global_load_dword v2, v[0:1], off\n"
                                     "s_waitcnt vmcnt(0)\n"
                                     "global_store_dword v[0:1], v2, off offset:4\n"
                                     "s_endpgm\n";

/* One workgroup of 64 lanes copying the dword at a; ranges: n (base, size) pairs. */
static int run_copy(const char *arch, const uint8_t *code, size_t n, uint64_t a,
                    const uint64_t *ranges, size_t nranges, gfx_fault *f) {
    uint32_t user[2] = {(uint32_t)a, (uint32_t)(a >> 32)};
    int r = gfxemu_run_asm_ranges((uint64_t)(uintptr_t)code, (uint32_t)n, 1, 1, 1, 64, 1, 1, 0,
                                  2u << 1, 0, arch, user, 2, ranges, nranges);
    gfxemu_last_fault(f);
    return r;
}

int main(void) {
    setenv("GFXEMU_THREADS", "1", 1);
    size_t psz = (size_t)sysconf(_SC_PAGESIZE);
    uint8_t *map = mmap(NULL, 16 * psz, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
    if (map == MAP_FAILED) {
        perror("mmap");
        return 1;
    }
    const uint64_t P = (uint64_t)(uintptr_t)map, A = P + 8 * psz;
    static const char *const arches[] = {"gfx950", "gfx942"};
    for (unsigned ai = 0; ai < 2; ai++) {
        const char *arch = arches[ai];
        size_t n;
        uint8_t *code = asm_snippet(arch, copy_text, &n);
        CHECK(code != NULL, "%s: cannot assemble the copy kernel", arch);
        if (!code)
            continue;
        gfx_fault f;
        /* 16 pages registered: the copy happens (the control). */
        memset(map, 0, 16 * psz);
        memcpy(map + 8 * psz, "\x11\x22\x33\x44", 4);
        uint64_t all[2] = {P, 16 * psz}, first[2] = {P, psz};
        int r = run_copy(arch, code, n, A, all, 1, &f);
        CHECK(r == 0 && !memcmp(map + 8 * psz + 4, "\x11\x22\x33\x44", 4),
              "%s control: result %d (%s)", arch, r, f.message);
        /* The same address with only the first page registered: a fault, nothing written. */
        memset(map + 8 * psz + 4, 0, 4);
        r = run_copy(arch, code, n, A, first, 1, &f);
        CHECK(r == GFX_ERR_FAULT && f.kind == GFX_FAULT_MEMORY && f.addr == A,
              "%s: access past a range registered again with fewer pages: result %d, fault %d "
              "at 0x%llx (%s)",
              arch, r, f.kind, (unsigned long long)f.addr, f.message);
        CHECK(!memcmp(map + 8 * psz + 4, "\0\0\0\0", 4), "%s: the unregistered page was written",
              arch);
        /* Writable, then read-only: the store must fault (and not crash the process). */
        r = run_copy(arch, code, n, A, all, 1, &f);
        CHECK(r == 0, "%s control 2: result %d (%s)", arch, r, f.message);
        CHECK(mprotect(map, 16 * psz, PROT_READ) == 0, "mprotect");
        r = run_copy(arch, code, n, A, all, 1, &f);
        CHECK(r == GFX_ERR_FAULT && f.kind == GFX_FAULT_MEMORY,
              "%s: store to pages made read-only between dispatches: result %d, fault %d (%s)",
              arch, r, f.kind, f.message);
        CHECK(mprotect(map, 16 * psz, PROT_READ | PROT_WRITE) == 0, "mprotect");
        free(code);
    }
    munmap(map, 16 * psz);
    return check_summary("runasm_cache");
}
