/* mem.h - the device address space: every load, store and atomic a kernel does goes through it.
 *
 * Layer 2 (docs/architecture.md).  Two modes:
 *  - owned (default): gfxemu allocates; device addresses are handed out from a private range and
 *    each allocation is backed by host memory the kernel can reach only through a translation
 *    that checks [addr, addr+size) lies inside one allocation.
 *  - host-address: device address == host pointer (for frameworks that pass raw host pointers);
 *    the caller registers the ranges a kernel may touch and everything else faults.
 * Both modes are page-granular as hardware is (hardware faults only on unmapped pages): an owned
 * allocation is backed by whole 4 KiB pages (zeroed), and an access inside those pages but past
 * the requested size reads or writes that padding (hipMalloc gives page-granular blocks too); in
 * host-address mode a read may touch the rest of the pages holding a registered range (they are
 * mapped: registration checks it), while a write must stay inside the registered bytes (gfxemu
 * never writes host memory it was not given).  gmem_xlate() itself is byte-exact; the
 * page-granular rule is gmem_xlate_pad(), which the memory handlers try when it fails (and
 * which memcheck mode reports, see src/exec/memcheck.c).
 * The allocation table is read-only while a launch runs (allocate and free between launches), so
 * translation needs no lock; each wave keeps a small cache of the allocations it hit last (a
 * cache must not outlive the launch it was filled in: a later free would leave it dangling; the
 * dispatcher empties its waves' caches when a launch starts, src/dispatch/sched.c).
 */
#ifndef GFXEMU_MEM_H
#define GFXEMU_MEM_H

#include <stddef.h>
#include <stdint.h>

typedef struct gmem gmem;

#define GMEM_PAGE 4096ull

/* What a region is, for fault reports ("in .rodata of module X", "kernarg segment"). */
enum { GMEM_BUFFER, GMEM_HOST, GMEM_KERNARG, GMEM_PACKET, GMEM_QUEUE, GMEM_IMAGE };

typedef struct gmem_region {
    uint64_t base;     /* device address */
    uint64_t size;     /* bytes */
    uint8_t *host;     /* host address of base */
    int user;          /* caller tag (e.g. kernel argument number), -1 if none */
    int owned;         /* memory belongs to gmem (freed by it): 1 heap, 2 anonymous mapping */
    int kind;          /* GMEM_* */
    int ro;            /* host memory the process cannot write: stores fault */
    const void *owner; /* GMEM_IMAGE: the gfx_module it was loaded from */
    int pad_written;   /* a store reached the page padding past size (set by gmem_xlate_pad) */
} gmem_region;

/* A per-wave cache of the regions hit last: each line maps base..base+size to host (ro: no
 * stores); size 0 is an empty line (never hits), so an all-zero cache is empty.  Several lines,
 * filled round robin, because a kernel streams through several buffers at once (an elementwise
 * c[i] = a[i] + b[i] reads its kernarg segment and three buffers): with one line every wave
 * searched the region table at each switch (docs/perf.md). */
#define GMEM_CACHE_LINES 4
typedef struct gmem_cache_line {
    uint64_t base, size;
    uint8_t *host;
    int ro;
} gmem_cache_line;
/* hot: the lines the loads and stores inside native blocks (src/exec/jit.c) test inline, kept
 * apart from the round-robin lines: GMEM_HOT_LOADS for loads (a block's loads take them in turn),
 * then two for stores, which only writable lines fill, and one for scalar loads.  [va, va + 64) is
 * in hot[i] when va - base < lim (the line's size less 63; 0, as in an all-zero cache, never hits),
 * at host + (va - base); [va, va + 32) (AVX2 code's chunks) when va - base < lim32 (the size less
 * 31). */
#define GMEM_HOT_LOADS 4
#define GMEM_HOT_SMEM (GMEM_HOT_LOADS + 2) /* and one for the scalar loads blocks run first */
#define GMEM_HOT_LINES (GMEM_HOT_SMEM + 1)
typedef struct gmem_hot_line {
    uint64_t base, lim, lim32;
    uint8_t *host;
} gmem_hot_line;
typedef struct gmem_cache {
    gmem_cache_line line[GMEM_CACHE_LINES];
    unsigned next; /* the line the next miss fills */
    gmem_hot_line hot[GMEM_HOT_LINES];
} gmem_cache;

/* Device address layout (owned mode).  Apertures follow the gfx9 flat-address model: a flat
 * address inside the shared or private aperture goes to LDS or scratch instead of memory. */
#define GMEM_HEAP_BASE 0x0000100000000000ull        /* first global allocation */
#define GMEM_SHARED_APERTURE 0x0001000000000000ull  /* src_shared_base: hi dword 0x10000 */
#define GMEM_PRIVATE_APERTURE 0x0002000000000000ull /* src_private_base: hi dword 0x20000 */
#define GMEM_APERTURE_SIZE 0x0000000100000000ull    /* 4 GiB each */

gmem *gmem_create(void);
void gmem_destroy(gmem *m);

/* Allocate size bytes (zeroed, in whole zeroed pages), page-aligned; returns the device address
 * or 0.  gmem_alloc_kind() also tags the region (GMEM_*, owner) for fault reports. */
uint64_t gmem_alloc(gmem *m, uint64_t size, int user);
uint64_t gmem_alloc_kind(gmem *m, uint64_t size, int kind, const void *owner);
/* Free by base address; returns 0, or -1 if va is not the base of an owned allocation. */
int gmem_free(gmem *m, uint64_t va);
/* Copies size bytes from the start of the owned buffer at va to dst, then frees it, releasing
 * the buffer's pages as the copy goes (peak host memory ~size, not 2x).  -1: not an owned
 * buffer's base, or size larger than the buffer. */
int gmem_move_out(gmem *m, uint64_t va, void *dst, uint64_t size);
/* Host-address mode: allow kernels to touch [p, p+size) at device address (uint64_t)p.
 * Registered host memory is a set of bytes: registering a range already inside it changes
 * nothing, and overlapping or adjacent ranges merge into one region (ro when any part is).
 * Returns -1 for an empty or wrapping range or one that meets an owned allocation. */
int gmem_map_host(gmem *m, void *p, uint64_t size, int ro);
/* Host memory reached at another device address: kernels touch [base, base+size) and get
 * [host, host+size) (a userptr buffer object the driver maps at a GPU address of its choosing,
 * src/vgpu/kfd.c).  Never merged with other regions; -1 if it overlaps one. */
int gmem_map_alias(gmem *m, uint64_t base, void *host, uint64_t size, int ro);
/* Forget the whole (merged) registered region that contains p; -1 if none does. */
int gmem_unmap_host(gmem *m, void *p);
/* Forget exactly the bytes [p, p+size) (a region around them is split); -1 if none of them
 * were registered. */
int gmem_unmap_host_range(gmem *m, void *p, uint64_t size);
/* Remove every host region (owned allocations stay). */
void gmem_unmap_host_all(gmem *m);
/* Check that every page of [p, p+size) is mapped readable in this process (/proc/self/maps,
 * or mincore() without /proc): 0 when it is (*ro = 1 if some page is not writable), else -1
 * with the reason in why ("... is not mapped"). */
int gmem_host_check(const void *p, uint64_t size, int *ro, char *why, size_t whysz);

/* Regions in address order, for copying one address space's host ranges to another. */
size_t gmem_count(const gmem *m);
const gmem_region *gmem_at(const gmem *m, size_t i);
/* gmem_host_check() for n ranges (base, size pairs) at once; *bad = the index of the first bad
 * one; ro[i] (may be NULL) as gmem_host_check's *ro. */
int gmem_host_check_n(const uint64_t (*ranges)[2], size_t n, int *ro, size_t *bad, char *why,
                      size_t whysz);

/* The region containing va, or NULL. */
const gmem_region *gmem_find(const gmem *m, uint64_t va);
/* The region nearest to va (for fault reports: "0x40 bytes past the end of arg 2"), or NULL. */
const gmem_region *gmem_nearest(const gmem *m, uint64_t va);

const gmem_cache_line *gmem_xlate_slow(const gmem *m, gmem_cache *c, uint64_t va, uint64_t size);

/* The cache line of the region holding all of [va, va+size) (filled from the region table on a
 * miss), or NULL when no one region holds it. */
static inline const gmem_cache_line *gmem_xlate_line(const gmem *m, gmem_cache *c, uint64_t va,
                                                     uint64_t size) {
    for (int i = 0; i < GMEM_CACHE_LINES; i++) {
        const gmem_cache_line *l = &c->line[i];
        uint64_t off = va - l->base; /* wraps for va < base: then off >= size */
        if (off < l->size && size <= l->size - off)
            return l;
    }
    return gmem_xlate_slow(m, c, va, size);
}
/* Host pointer for [va, va+size) when it lies inside one region, else NULL. */
static inline void *gmem_xlate(const gmem *m, gmem_cache *c, uint64_t va, uint64_t size) {
    const gmem_cache_line *l = gmem_xlate_line(m, c, va, size);
    return l ? l->host + (va - l->base) : NULL;
}
/* The same for a store: NULL also for read-only host memory. */
static inline void *gmem_xlate_w(const gmem *m, gmem_cache *c, uint64_t va, uint64_t size) {
    const gmem_cache_line *l = gmem_xlate_line(m, c, va, size);
    return l && !l->ro ? l->host + (va - l->base) : NULL;
}
/* Page-granular translation for an access gmem_xlate() refused (see the top of this file):
 * the host pointer when [va, va+size) lies in the padding pages of one owned allocation, or
 * (reads only) in the pages holding one registered host range; else NULL.  *r (may be NULL)
 * gets the region. */
void *gmem_xlate_pad(const gmem *m, uint64_t va, uint64_t size, int write, const gmem_region **r);

/* Copy in/out with the same (byte-exact) checks; return 0 or -1 when the range is not mapped. */
int gmem_write(gmem *m, uint64_t va, const void *src, uint64_t size);
int gmem_read(const gmem *m, uint64_t va, void *dst, uint64_t size);

#endif
