/* fuzz_elf.c - libFuzzer target: arbitrary bytes as a code object, through the public API.
 * Any module that loads is used in every way the API allows. */
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include "gfxemu.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
    char err[128];
    gfx_module *m = NULL;
    if (gfx_module_load_mem(data, size, &m, err, sizeof err) != GFX_OK)
        return 0;
    uint64_t addr;
    size_t n;
    const uint8_t *text = gfx_module_text(m, &addr, &n);
    char buf[GFX_DISASM_MAX];
    for (size_t off = 0; off + 4 <= n && off < 1024;)
        off += gfx_disasm(gfx_module_arch(m), text + off, n - off, buf, sizeof buf);
    for (size_t i = 0; i < gfx_module_symbol_count(m); i++) {
        gfx_symbol s, t;
        uint8_t kd[64];
        gfx_module_symbol(m, i, &s);
        /* Symbols are promised to lie inside .text. */
        if (s.addr < addr || s.addr - addr > n || s.size > n - (s.addr - addr))
            __builtin_trap();
        if (gfx_module_find_symbol(m, s.name, &t) != GFX_OK)
            __builtin_trap();
        if (gfx_module_kernel_descriptor(m, s.name, kd) == GFX_OK && !t.is_kernel)
            __builtin_trap();
        /* Kernel handles: descriptor, metadata (from the fuzzed note) and arguments. */
        const gfx_kernel *k = NULL;
        gfx_kernel_info info;
        if (s.is_kernel && gfx_module_kernel(m, s.name, &k) == GFX_OK) {
            if (gfx_kernel_get_info(k, &info) != GFX_OK || info.nargs_explicit > info.nargs)
                __builtin_trap();
            for (size_t a = 0; a < info.nargs; a++) {
                gfx_arg_info ai;
                if (gfx_kernel_arg(k, a, &ai) != GFX_OK)
                    __builtin_trap();
            }
        }
    }
    gfx_module_free(m);
    return 0;
}
