/* assemble.c - public assembler API on top of src/asm (source level, code-object writer). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "asm/as.h"
#include "gfxemu.h"

/* ".amdhsa_wavefront_size32 0" somewhere in src (a wave64 kernel descriptor). */
static int wave64_source(const char *src, size_t len) {
    static const char d[] = ".amdhsa_wavefront_size32";
    for (size_t i = 0; src && i + sizeof d < len; i++) {
        if (memcmp(src + i, d, sizeof d - 1))
            continue;
        size_t k = i + sizeof d - 1;
        while (k < len && (src[k] == ' ' || src[k] == '\t'))
            k++;
        if (k < len && src[k] == '0' && (k + 1 == len || src[k + 1] < '0' || src[k + 1] > '9'))
            return 1;
    }
    return 0;
}

gfx_result gfx_assemble(gfx_arch arch, const char *src, size_t len, unsigned flags, uint8_t **out,
                        size_t *out_size, char *err, size_t errsz) {
    char e[256];
    if (!err || !errsz)
        err = e, errsz = sizeof e;
    err[0] = 0;
    if (!out || !out_size || (!src && len)) {
        snprintf(err, errsz, "invalid argument");
        return GFX_ERR_INVALID;
    }
    *out = NULL;
    *out_size = 0;
    if ((unsigned)arch >= GFX_ARCH_COUNT) {
        snprintf(err, errsz, "unknown architecture");
        return GFX_ERR_ARCH;
    }
    as_out o;
    /* RDNA wave64: asked for, or announced by the source's kernel descriptor as clang -S writes
     * it for -mwavefrontsize64 (".amdhsa_wavefront_size32 0") */
    int w64 = isa_is_rdna((unsigned)arch) && ((flags & GFX_ASM_WAVE64) || wave64_source(src, len));
    isa_asm *enc = NULL;
    if (w64) {
        if (!(enc = isa_asm_new((isa_arch)arch))) {
            snprintf(err, errsz, "out of memory");
            return GFX_ERR_NOMEM;
        }
        isa_asm_set_wave64(enc, 1);
    }
    int bad = as_assemble_with(enc, (isa_arch)arch, src ? src : "", len, (flags & GFX_ASM_RAW) != 0,
                               &o, err, errsz);
    isa_asm_free(enc);
    if (bad)
        return GFX_ERR_FORMAT;
    gfx_result r = GFX_OK;
    if (flags & GFX_ASM_RAW) {
        *out = malloc(o.size[AS_SEC_TEXT] ? o.size[AS_SEC_TEXT] : 1);
        if (!*out) {
            r = GFX_ERR_NOMEM;
        } else {
            if (o.size[AS_SEC_TEXT])
                memcpy(*out, o.bytes[AS_SEC_TEXT], o.size[AS_SEC_TEXT]);
            *out_size = o.size[AS_SEC_TEXT];
        }
    } else if (as_write_elf(&o, out, out_size, err, errsz)) {
        r = GFX_ERR_NOMEM;
    }
    as_out_free(&o);
    return r;
}

gfx_result gfx_module_assemble(gfx_arch arch, const char *src, size_t len, gfx_module **out,
                               char *err, size_t errsz) {
    uint8_t *co;
    size_t n;
    if (out)
        *out = NULL;
    if (!out)
        return GFX_ERR_INVALID;
    gfx_result r = gfx_assemble(arch, src, len, 0, &co, &n, err, errsz);
    if (r != GFX_OK)
        return r;
    r = gfx_module_load_mem(co, n, out, err, errsz);
    free(co);
    return r;
}

void gfx_free(void *p) { free(p); }
