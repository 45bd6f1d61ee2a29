/* space.c - device address space (see mem.h). */
#include "mem/mem.h"

#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>

/* Allocations from this size up are anonymous mappings: the kernel hands out zero pages on first
 * touch, so a large buffer the kernel writes sparsely (or a big out: buffer) costs only the pages
 * used, and nothing is zeroed twice.  MAP_NORESERVE: a size the host cannot back is refused up
 * front by the API (gfx_buffer_alloc), not by overcommit accounting here. */
#define GMEM_LAZY_MIN (1u << 20)
enum { OWNED_HEAP = 1, OWNED_MAP = 2 }; /* gmem_region.owned */

static uint64_t host_bytes(uint64_t size) { return (size + 63) & ~63ull; }

static void host_free(const gmem_region *r)
{
    if (r->owned == OWNED_MAP)
        munmap(r->host, host_bytes(r->size));
    else if (r->owned)
        free(r->host);
}

struct gmem {
    gmem_region *r; /* sorted by base, non-overlapping */
    size_t n, cap;
    uint64_t next;  /* next owned device address */
};

gmem *gmem_create(void)
{
    gmem *m = calloc(1, sizeof *m);
    if (m)
        m->next = GMEM_HEAP_BASE;
    return m;
}

void gmem_destroy(gmem *m)
{
    if (!m)
        return;
    for (size_t i = 0; i < m->n; i++)
        host_free(&m->r[i]);
    free(m->r);
    free(m);
}

/* Index of the first region with base > va. */
static size_t upper(const gmem *m, uint64_t va)
{
    size_t lo = 0, hi = m->n;
    while (lo < hi) {
        size_t mid = lo + (hi - lo) / 2;
        if (m->r[mid].base <= va)
            lo = mid + 1;
        else
            hi = mid;
    }
    return lo;
}

const gmem_region *gmem_find(const gmem *m, uint64_t va)
{
    size_t i = upper(m, va);
    if (i == 0)
        return NULL;
    const gmem_region *r = &m->r[i - 1];
    return va - r->base < r->size ? r : NULL;
}

const gmem_region *gmem_nearest(const gmem *m, uint64_t va)
{
    if (m->n == 0)
        return NULL;
    size_t i = upper(m, va);
    if (i == 0)
        return &m->r[0];
    if (i == m->n)
        return &m->r[m->n - 1];
    const gmem_region *below = &m->r[i - 1], *above = &m->r[i];
    uint64_t d_below = va - (below->base + below->size), d_above = above->base - va;
    return va < below->base + below->size || d_below <= d_above ? below : above;
}

static int insert(gmem *m, gmem_region reg)
{
    if (reg.size == 0 || reg.base + reg.size < reg.base)
        return -1;
    size_t i = upper(m, reg.base);
    if (i > 0 && m->r[i - 1].base + m->r[i - 1].size > reg.base)
        return -1;
    if (i < m->n && reg.base + reg.size > m->r[i].base)
        return -1;
    if (m->n == m->cap) {
        size_t cap = m->cap ? m->cap * 2 : 16;
        gmem_region *nr = realloc(m->r, cap * sizeof *nr);
        if (!nr)
            return -1;
        m->r = nr;
        m->cap = cap;
    }
    memmove(&m->r[i + 1], &m->r[i], (m->n - i) * sizeof *m->r);
    m->r[i] = reg;
    m->n++;
    return 0;
}

uint64_t gmem_alloc(gmem *m, uint64_t size, int user)
{
    if (size == 0)
        size = 1;
    if (size > (1ull << 40))
        return 0;
    /* Round the host block up so that 16-byte vector accesses at the tail stay inside it; the
     * region itself keeps the exact size so bounds checks are exact. */
    uint64_t host_size = host_bytes(size);
    int owned = host_size >= GMEM_LAZY_MIN ? OWNED_MAP : OWNED_HEAP;
    uint8_t *host;
    if (owned == OWNED_MAP) {
        host = mmap(NULL, host_size, PROT_READ | PROT_WRITE,
                    MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE, -1, 0);
        if (host == MAP_FAILED)
            return 0;
    } else {
        host = aligned_alloc(64, host_size);
        if (!host)
            return 0;
        memset(host, 0, host_size);
    }
    /* Leave an unmapped gap after every allocation so an overrun faults instead of landing in
     * the neighbour. */
    uint64_t base = m->next;
    m->next = (base + size + 0xffff + 0x10000) & ~0xffffull;
    gmem_region reg = {base, size, host, user, owned};
    if (insert(m, reg) != 0) {
        host_free(&reg);
        return 0;
    }
    return base;
}

int gmem_free(gmem *m, uint64_t va)
{
    size_t i = upper(m, va);
    if (i == 0 || m->r[i - 1].base != va || !m->r[i - 1].owned)
        return -1;
    host_free(&m->r[i - 1]);
    memmove(&m->r[i - 1], &m->r[i], (m->n - i) * sizeof *m->r);
    m->n--;
    return 0;
}

int gmem_map_host(gmem *m, void *p, uint64_t size, int user)
{
    gmem_region reg = {(uint64_t)(uintptr_t)p, size, p, user, 0};
    return insert(m, reg);
}

int gmem_unmap_host(gmem *m, void *p)
{
    uint64_t va = (uint64_t)(uintptr_t)p;
    size_t i = upper(m, va);
    if (i == 0 || m->r[i - 1].base != va || m->r[i - 1].owned)
        return -1;
    memmove(&m->r[i - 1], &m->r[i], (m->n - i) * sizeof *m->r);
    m->n--;
    return 0;
}

void *gmem_xlate_slow(const gmem *m, gmem_cache *c, uint64_t va, uint64_t size)
{
    const gmem_region *r = gmem_find(m, va);
    if (!r)
        return NULL;
    uint64_t off = va - r->base;
    if (size > r->size - off)
        return NULL;
    c->base = r->base;
    c->size = r->size;
    c->host = r->host;
    return r->host + off;
}

int gmem_write(gmem *m, uint64_t va, const void *src, uint64_t size)
{
    gmem_cache c = {0, 0, NULL};
    void *p = size ? gmem_xlate(m, &c, va, size) : NULL;
    if (size && !p)
        return -1;
    if (size)
        memcpy(p, src, size);
    return 0;
}

int gmem_read(const gmem *m, uint64_t va, void *dst, uint64_t size)
{
    gmem_cache c = {0, 0, NULL};
    const void *p = size ? gmem_xlate(m, &c, va, size) : NULL;
    if (size && !p)
        return -1;
    if (size)
        memcpy(dst, p, size);
    return 0;
}
