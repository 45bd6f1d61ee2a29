/* fuzz_meta.c - libFuzzer target: arbitrary bytes as an NT_AMDGPU_METADATA msgpack blob, and the
 * first 64 as a kernel descriptor.  Whatever parses must be internally consistent. */
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include "load/load.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
    ld_meta m;
    char err[128];
    if (ld_meta_parse(data, size, &m, err, sizeof err) == GFX_OK) {
        for (size_t i = 0; i < m.nkernels; i++) {
            const ld_kmeta *k = &m.kernels[i];
            for (uint32_t a = 0; a < k->nargs; a++)
                if (k->args[a].value_kind && ld_arg_kind(k->args[a].value_kind) != k->args[a].kind)
                    __builtin_trap();
            if (k->name && ld_meta_find(&m, k->name) == NULL)
                __builtin_trap();
        }
        ld_meta_free(&m);
    } else if (!err[0]) {
        __builtin_trap(); /* every error has a message */
    }
    if (size >= LD_KD_SIZE) {
        ld_kd kd;
        ld_kd_decode(data, &kd);
        if (kd.accum_offset < 4 || kd.accum_offset > 256 || ld_kd_vgprs(&kd) > 512)
            __builtin_trap();
    }
    return 0;
}
