/* mem.h - the device address space: every load, store and atomic a kernel does goes through it.
 *
 * Layer 2 (docs/architecture.md).  Two modes:
 *  - owned (default): gfxemu allocates; device addresses are handed out from a private range and
 *    each allocation is backed by host memory the kernel can reach only through a translation
 *    that checks [addr, addr+size) lies inside one allocation.
 *  - host-address: device address == host pointer (for frameworks that pass raw host pointers);
 *    the caller registers the ranges a kernel may touch and everything else faults.
 * The allocation table is read-only while a launch runs (allocate and free between launches), so
 * translation needs no lock; each wave keeps a one-entry cache of the last allocation it hit
 * (a cache must not outlive the launch it was filled in: a later free would leave it dangling).
 */
#ifndef GFXEMU_MEM_H
#define GFXEMU_MEM_H

#include <stddef.h>
#include <stdint.h>

typedef struct gmem gmem;

typedef struct gmem_region {
    uint64_t base;  /* device address */
    uint64_t size;  /* bytes */
    uint8_t *host;  /* host address of base */
    int user;       /* caller tag (e.g. kernel argument number), -1 if none */
    int owned;      /* memory belongs to gmem (freed by it): 1 heap, 2 anonymous mapping */
} gmem_region;

/* A per-wave cache of the last region hit: base..base+size maps to host. */
typedef struct gmem_cache {
    uint64_t base, size;
    uint8_t *host;
} gmem_cache;

/* Device address layout (owned mode).  Apertures follow the gfx9 flat-address model: a flat
 * address inside the shared or private aperture goes to LDS or scratch instead of memory. */
#define GMEM_HEAP_BASE 0x0000100000000000ull     /* first global allocation */
#define GMEM_SHARED_APERTURE 0x0001000000000000ull  /* src_shared_base: hi dword 0x10000 */
#define GMEM_PRIVATE_APERTURE 0x0002000000000000ull /* src_private_base: hi dword 0x20000 */
#define GMEM_APERTURE_SIZE 0x0000000100000000ull    /* 4 GiB each */

gmem *gmem_create(void);
void gmem_destroy(gmem *m);

/* Allocate size bytes (zeroed), aligned to 256 bytes or more; returns the device address or 0. */
uint64_t gmem_alloc(gmem *m, uint64_t size, int user);
/* Free by base address; returns 0, or -1 if va is not the base of an owned allocation. */
int gmem_free(gmem *m, uint64_t va);
/* Host-address mode: allow kernels to touch [p, p+size) at device address (uint64_t)p. */
int gmem_map_host(gmem *m, void *p, uint64_t size, int user);
int gmem_unmap_host(gmem *m, void *p);

/* The region containing va, or NULL. */
const gmem_region *gmem_find(const gmem *m, uint64_t va);
/* The region nearest to va (for fault reports: "0x40 bytes past the end of arg 2"), or NULL. */
const gmem_region *gmem_nearest(const gmem *m, uint64_t va);

void *gmem_xlate_slow(const gmem *m, gmem_cache *c, uint64_t va, uint64_t size);

/* Host pointer for [va, va+size) when it lies inside one region, else NULL. */
static inline void *gmem_xlate(const gmem *m, gmem_cache *c, uint64_t va, uint64_t size)
{
    uint64_t off = va - c->base;  /* wraps for va < base: then off >= size */
    if (off < c->size && size <= c->size - off)
        return c->host + off;
    return gmem_xlate_slow(m, c, va, size);
}

/* Copy in/out with the same checks; return 0 or -1 when the range is not mapped. */
int gmem_write(gmem *m, uint64_t va, const void *src, uint64_t size);
int gmem_read(const gmem *m, uint64_t va, void *dst, uint64_t size);

#endif
