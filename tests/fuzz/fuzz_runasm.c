/* fuzz_runasm.c - libFuzzer target: random code bytes, COMPUTE_PGM_RSRC2, user SGPRs and scratch
 * size through gfxemu_run_asm() in host-address mode.  Only `buf` is registered; it is a heap
 * block, so ASan catches any access just outside it, and anything farther off is a wild access
 * (SIGSEGV) that libFuzzer reports.  A kernel may do anything inside buf; it may never reach
 * other memory.
 *
 * Input: [rsrc2 u32][scratch u8][mode u8][8 user SGPRs: 8 x u32][code...].  The user SGPRs are
 * made into addresses near buf's ends (mode bit k: SGPR pair k/2 is buf + the low 13 bits of the
 * fuzzed value, signed) so the fuzzer explores range edges, not only random 64-bit values. */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "gfxemu.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

enum { BUF = 4096 };
static uint8_t *buf;

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
    if (!buf) {
        setenv("GFXEMU_MAX_INSTS", "20000", 1); /* bounded runs: loops end in the watchdog */
        setenv("GFXEMU_THREADS", "1", 1);
        buf = calloc(1, BUF);
        if (!buf || gfxemu_map_host(buf, BUF) != 0)
            __builtin_trap();
    }
    if (size < 6 + 32 + 4)
        return 0;
    uint32_t rsrc2, user[8];
    memcpy(&rsrc2, data, 4);
    unsigned scratch = data[4] * 4u, mode = data[5];
    memcpy(user, data + 6, sizeof user);
    for (unsigned p = 0; p < 4; p++) {
        if (!((mode >> p) & 1))
            continue;
        int32_t off = (int32_t)(user[2 * p] << 19) >> 19; /* -4096 .. 4095 */
        uint64_t a = (uint64_t)(uintptr_t)buf + (uint64_t)(int64_t)off;
        if ((mode >> 4) & 1)
            a += BUF; /* around the end instead of the start */
        user[2 * p] = (uint32_t)a;
        user[2 * p + 1] = (uint32_t)(a >> 32);
    }
    /* The user SGPR count in rsrc2 is fuzzed too; at most 8 are supplied. */
    unsigned nuser = (rsrc2 >> 1) & 31;
    if (nuser > 8)
        nuser = 8;
    size_t n = (size - 38) & ~(size_t)3;
    if (n > 4096)
        n = 4096;
    uint8_t *code = malloc(n);
    if (!code)
        return 0;
    memcpy(code, data + 38, n);
    const char *arch = (mode >> 5) & 1 ? "gfx942" : "gfx950";
    /* One or two waves in one or two workgroups: enough for LDS sharing and barriers. */
    unsigned lx = (mode >> 6) & 1 ? 128 : 64, gx = (mode >> 7) + 1;
    gfxemu_run_asm((uint64_t)(uintptr_t)code, (uint32_t)n, gx, 1, 1, lx, 1, 1,
                   (uint64_t)(uintptr_t)buf, rsrc2, scratch, arch, user, nuser);
    free(code);
    return 0;
}
