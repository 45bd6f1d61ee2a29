/* core.c - version, result codes and architecture names. */
#include <string.h>

#include "gfxemu.h"
#include "isa/isa.h"

#define STR2(x) #x
#define STR(x) STR2(x)

const char *gfx_version(void) {
    return STR(GFXEMU_VERSION_MAJOR) "." STR(GFXEMU_VERSION_MINOR) "." STR(GFXEMU_VERSION_PATCH);
}

const char *gfx_result_str(gfx_result r) {
    switch (r) {
    case GFX_OK: return "success";
    case GFX_ERR_INVALID: return "invalid argument";
    case GFX_ERR_IO: return "input/output error";
    case GFX_ERR_FORMAT: return "malformed input";
    case GFX_ERR_ARCH: return "unsupported architecture";
    case GFX_ERR_NOT_FOUND: return "not found";
    case GFX_ERR_NOMEM: return "out of memory";
    case GFX_ERR_UNIMPLEMENTED: return "not implemented";
    case GFX_ERR_FAULT: return "kernel fault";
    case GFX_ERR_RESOURCE: return "launch exceeds device resources";
    case GFX_ERR_STOPPED: return "launch stopped by the debugger";
    }
    return "unknown error";
}

/* The public enum numbers the targets as the ISA layer does (src/isa/isa.h), so the names
 * have one table: isa_targets[]. */
_Static_assert(GFX_ARCH_COUNT == ISA_NARCH && GFX_ARCH_GFX942 == (int)ISA_GFX942 &&
                   GFX_ARCH_GFX950 == (int)ISA_GFX950 && GFX_ARCH_GFX90A == (int)ISA_GFX90A &&
                   GFX_ARCH_GFX1100 == (int)ISA_GFX1100 && GFX_ARCH_GFX1201 == (int)ISA_GFX1201,
               "gfx_arch and isa_arch must number the targets alike");

const char *gfx_arch_name(gfx_arch arch) {
    if ((unsigned)arch >= GFX_ARCH_COUNT)
        return "unknown";
    return isa_arch_name((isa_arch)arch);
}

gfx_result gfx_arch_from_name(const char *name, gfx_arch *out) {
    if (!name || !out)
        return GFX_ERR_INVALID;
    size_t len = strcspn(name, ":"); /* "gfx90a:sramecc-:xnack-": features do not matter */
    for (unsigned i = 0; i < GFX_ARCH_COUNT; i++) {
        const char *nm = isa_arch_name((isa_arch)i);
        if (strlen(nm) == len && strncmp(name, nm, len) == 0) {
            *out = (gfx_arch)i;
            return GFX_OK;
        }
    }
    return GFX_ERR_ARCH;
}
