/* fuzz_decode.c - libFuzzer target: arbitrary bytes as instruction words for both targets,
 * through the public disassembly API. */
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include "gfxemu.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
    char buf[GFX_DISASM_MAX], small[7];
    for (int a = 0; a < GFX_ARCH_COUNT; a++) {
        for (size_t off = 0; off + 4 <= size;) {
            size_t n = gfx_disasm((gfx_arch)a, data + off, size - off, buf, sizeof buf);
            if (n < 4 || n > 16 || n % 4 || n > size - off || strlen(buf) >= sizeof buf)
                __builtin_trap();
            /* A short buffer truncates, never overflows. */
            if (gfx_disasm((gfx_arch)a, data + off, size - off, small, sizeof small) != n ||
                strlen(small) >= sizeof small)
                __builtin_trap();
            uint64_t target;
            gfx_branch_target((gfx_arch)a, data + off, size - off, 0x1000 + off, &target);
            off += n;
        }
    }
    return 0;
}
