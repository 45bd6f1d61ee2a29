/* image.c - program images: a code object's allocated sections in device memory.
 *
 * Kernels reach __constant tables, private-array initialisers (clang -O0 copies them from
 * .rodata) and program-scope globals (.data, .bss) PC-relative: s_getpc_b64 plus a link-time
 * offset.  So the image keeps the ELF's virtual layout, with the code inside it, and the waves of
 * a launch see code addresses shifted by the image's device address (wave.va_bias): s_getpc then
 * gives the device address of the running instruction and the computed data address lands in the
 * image.  Fault and debugger pcs stay ELF addresses, as llvm-objdump prints them.
 *
 * Dynamic relocations (.rela.dyn) are applied for that base: clang-22/lld-22 emit
 * R_AMDGPU_RELATIVE64 for initialised pointers in program-scope data (a table of __constant
 * pointers); R_AMDGPU_ABS64 is applied for defined symbols; anything else refuses the launch by
 * name rather than leaving a wrong pointer ("AMDGPU Usage", "Relocation Records").
 *
 * Lifetime: an image belongs to (module, device).  Both lists are guarded by one lock taken after
 * a device's api_lock, never before it; a freed module only marks its images orphaned (it cannot
 * take the devices' locks in that order) and each device frees orphaned images at its next
 * dp_image_get() or when it is freed itself. */
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "dispatch/dispatch.h"

struct dp_image {
    gfx_device *dev;
    gfx_module *m; /* NULL once the module was freed */
    uint64_t base;
    dp_image *next_dev, *next_mod;
};

static pthread_mutex_t image_lock = PTHREAD_MUTEX_INITIALIZER;

static void put64(uint8_t *p, uint64_t v) {
    for (int i = 0; i < 8; i++)
        p[i] = (uint8_t)(v >> (8 * i));
}

/* Copy the sections into the image at base (already zeroed: .bss and the gaps stay 0) and apply
 * the relocations.  0 or -1 with a message. */
static int fill(gfx_device *dev, const gfx_module *m, uint64_t base) {
    for (size_t i = 0; i < m->nsecs; i++) {
        const ld_section *s = &m->secs[i];
        if (s->data && gmem_write(dev->mem, base + s->addr, s->data, s->size) != 0)
            return -1;
    }
    for (size_t i = 0; i < m->nrelocs; i++) {
        const ld_reloc *r = &m->relocs[i];
        uint64_t v;
        switch (r->type) {
        case LD_R_AMDGPU_NONE: continue;
        case LD_R_AMDGPU_RELATIVE64: v = base + (uint64_t)r->addend; break;
        case LD_R_AMDGPU_ABS64:
            if (r->sym_undef) {
                snprintf(dev->error, sizeof dev->error,
                         "code object: relocation at 0x%llx refers to an undefined symbol",
                         (unsigned long long)r->offset);
                return -1;
            }
            v = base + r->sym + (uint64_t)r->addend;
            break;
        default:
            snprintf(dev->error, sizeof dev->error,
                     "code object: unsupported dynamic relocation type %u at 0x%llx", r->type,
                     (unsigned long long)r->offset);
            return -1;
        }
        uint8_t b[8];
        put64(b, v);
        if (r->offset > m->image_size || 8 > m->image_size - r->offset ||
            gmem_write(dev->mem, base + r->offset, b, 8) != 0) {
            snprintf(dev->error, sizeof dev->error,
                     "code object: relocation at 0x%llx lies outside the loaded sections",
                     (unsigned long long)r->offset);
            return -1;
        }
    }
    return 0;
}

gfx_result dp_image_get(gfx_device *dev, gfx_module *m, uint64_t *base) {
    *base = 0;
    dp_module *dm = dp_module_get(m);
    if (!dm) {
        snprintf(dev->error, sizeof dev->error, "out of memory");
        return GFX_ERR_NOMEM;
    }
    pthread_mutex_lock(&image_lock);
    dp_image **pp = &dev->images, *hit = NULL;
    while (*pp) {
        dp_image *im = *pp;
        if (!im->m) { /* its module is gone */
            gmem_free(dev->mem, im->base);
            *pp = im->next_dev;
            free(im);
            continue;
        }
        if (im->m == m)
            hit = im;
        pp = &im->next_dev;
    }
    pthread_mutex_unlock(&image_lock);
    if (hit) {
        *base = hit->base;
        return GFX_OK;
    }
    if (m->image_size == 0)
        return GFX_OK;
    dp_image *im = calloc(1, sizeof *im);
    uint64_t b = im ? gmem_alloc_kind(dev->mem, m->image_size, GMEM_IMAGE, m) : 0;
    if (!b) {
        free(im);
        snprintf(dev->error, sizeof dev->error,
                 "out of memory for the code object's %llu-byte program image",
                 (unsigned long long)m->image_size);
        return GFX_ERR_NOMEM;
    }
    if (fill(dev, m, b) != 0) {
        gmem_free(dev->mem, b);
        free(im);
        return GFX_ERR_FORMAT;
    }
    im->dev = dev;
    im->m = m;
    im->base = b;
    pthread_mutex_lock(&image_lock);
    im->next_dev = dev->images;
    dev->images = im;
    im->next_mod = dm->images;
    dm->images = im;
    pthread_mutex_unlock(&image_lock);
    *base = b;
    return GFX_OK;
}

void dp_image_device_gone(gfx_device *dev) {
    pthread_mutex_lock(&image_lock);
    for (dp_image *im = dev->images, *next; im; im = next) {
        next = im->next_dev;
        if (im->m) {
            dp_module *dm = im->m->exec;
            for (dp_image **pp = &dm->images; *pp; pp = &(*pp)->next_mod) {
                if (*pp == im) {
                    *pp = im->next_mod;
                    break;
                }
            }
        }
        free(im); /* its memory goes with the device's address space */
    }
    dev->images = NULL;
    pthread_mutex_unlock(&image_lock);
}

void dp_image_module_gone(dp_module *dm) {
    pthread_mutex_lock(&image_lock);
    for (dp_image *im = dm->images; im; im = im->next_mod)
        im->m = NULL;
    dm->images = NULL;
    pthread_mutex_unlock(&image_lock);
}

gfx_result gfx_module_symbol_address(gfx_device *dev, gfx_module *m, const char *name,
                                     uint64_t *addr, uint64_t *size) {
    if (!dev || !m || !name || !addr)
        return GFX_ERR_INVALID;
    if (!ld_runs_on(m, dev->arch))
        return GFX_ERR_ARCH;
    uint64_t a = 0, n = 0;
    int found = 0;
    for (size_t i = 0; i < m->nobjs && !found; i++)
        if (strcmp(m->objs[i].name, name) == 0)
            a = m->objs[i].addr, n = m->objs[i].size, found = 1;
    for (size_t i = 0; i < m->nsyms && !found; i++)
        if (strcmp(m->syms[i].name, name) == 0)
            a = m->syms[i].addr, n = m->syms[i].size, found = 1;
    if (!found || m->image_size == 0)
        return GFX_ERR_NOT_FOUND;
    pthread_mutex_lock(&dev->api_lock);
    uint64_t base;
    gfx_result r = dp_image_get(dev, m, &base);
    pthread_mutex_unlock(&dev->api_lock);
    if (r)
        return r;
    *addr = base + a;
    if (size)
        *size = n;
    return GFX_OK;
}
