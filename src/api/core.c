/* core.c - version, result codes and architecture names. */
#include <string.h>

#include "gfxemu.h"

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

static const char *const arch_names[GFX_ARCH_COUNT] = {
    [GFX_ARCH_GFX942] = "gfx942",   [GFX_ARCH_GFX950] = "gfx950",   [GFX_ARCH_GFX90A] = "gfx90a",
    [GFX_ARCH_GFX1100] = "gfx1100", [GFX_ARCH_GFX1201] = "gfx1201",
};

const char *gfx_arch_name(gfx_arch arch) {
    if ((unsigned)arch >= GFX_ARCH_COUNT)
        return "unknown";
    return arch_names[arch];
}

gfx_result gfx_arch_from_name(const char *name, gfx_arch *out) {
    if (!name || !out)
        return GFX_ERR_INVALID;
    size_t len = strcspn(name, ":"); /* "gfx90a:sramecc-:xnack-": features do not matter */
    for (unsigned i = 0; i < GFX_ARCH_COUNT; i++) {
        if (strlen(arch_names[i]) == len && strncmp(name, arch_names[i], len) == 0) {
            *out = (gfx_arch)i;
            return GFX_OK;
        }
    }
    return GFX_ERR_ARCH;
}
