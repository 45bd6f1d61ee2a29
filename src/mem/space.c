/* space.c - device address space (see mem.h). */
#include "mem/mem.h"

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

/* Allocations from this size up are anonymous mappings: from 2 MiB (GMEM_HUGE) up the kernel
 * hands out zero pages on first touch, so a large buffer the kernel writes sparsely (or a big
 * out: buffer) costs only the pages used, and nothing is zeroed twice; below that they are
 * populated at once (map_lazy).  MAP_NORESERVE: a size the host cannot back is refused up
 * front by the API (gfx_buffer_alloc), not by overcommit accounting here. */
#define GMEM_LAZY_MIN (1u << 20)
enum { OWNED_HEAP = 1, OWNED_MAP = 2 }; /* gmem_region.owned */

static uint64_t page_up(uint64_t x) { return (x + GMEM_PAGE - 1) & ~(GMEM_PAGE - 1); }

static void host_free(const gmem_region *r) {
    if (r->owned == OWNED_MAP)
        munmap(r->host, page_up(r->size));
    else if (r->owned)
        free(r->host);
}

/* A lazily backed mapping of size bytes (a multiple of GMEM_PAGE), 2 MiB-aligned and advised
 * for transparent huge pages: a first touch then costs one fault per 2 MiB instead of one per
 * 4 KiB.  Measured on the KVM development machine: touching 16 MiB of fresh 4 KiB pages took
 * 84 ms (20 us per fault), with huge pages about 1 ms; an elementwise kernel writing a fresh
 * output buffer paid that inside its launch.  Hosts with THP off (or "never") just get 4 KiB
 * pages.  The mapping is exactly [host, host + size): the alignment slack is unmapped again. */
#define GMEM_HUGE (2ull << 20)
static uint8_t *map_lazy(uint64_t size) {
    int flags = MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE;
    if (size < GMEM_HUGE) {
        /* Too small for a huge page: populated now, as the heap path's memset does for smaller
         * buffers and as hipMalloc'd memory is resident.  Left lazy, a 1 MiB output buffer took
         * 256 first-touch faults (~5 ms here) inside the first launch that wrote it, which made
         * a 512^3 GEMM's first launch 10-20% slower than the same work on a warm buffer. */
        void *p = mmap(NULL, size, PROT_READ | PROT_WRITE, flags | MAP_POPULATE, -1, 0);
        return p == MAP_FAILED ? NULL : p;
    }
    uint8_t *raw = mmap(NULL, size + GMEM_HUGE, PROT_READ | PROT_WRITE, flags, -1, 0);
    if (raw == MAP_FAILED)
        return NULL;
    uint8_t *p = (uint8_t *)(((uintptr_t)raw + GMEM_HUGE - 1) & ~(uintptr_t)(GMEM_HUGE - 1));
    if (p > raw)
        munmap(raw, (size_t)(p - raw));
    size_t tail = (size_t)(raw + size + GMEM_HUGE - (p + size));
    if (tail)
        munmap(p + size, tail);
#ifdef MADV_HUGEPAGE
    madvise(p, size, MADV_HUGEPAGE); /* advice only: failure leaves 4 KiB pages */
#endif
    return p;
}

struct gmem {
    gmem_region *r; /* sorted by base, non-overlapping */
    size_t n, cap;
    uint64_t next; /* next owned device address */
};

gmem *gmem_create(void) {
    gmem *m = calloc(1, sizeof *m);
    if (m)
        m->next = GMEM_HEAP_BASE;
    return m;
}

void gmem_destroy(gmem *m) {
    if (!m)
        return;
    for (size_t i = 0; i < m->n; i++)
        host_free(&m->r[i]);
    free(m->r);
    free(m);
}

/* Index of the first region with base > va. */
static size_t upper(const gmem *m, uint64_t va) {
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

const gmem_region *gmem_find(const gmem *m, uint64_t va) {
    size_t i = upper(m, va);
    if (i == 0)
        return NULL;
    const gmem_region *r = &m->r[i - 1];
    return va - r->base < r->size ? r : NULL;
}

const gmem_region *gmem_nearest(const gmem *m, uint64_t va) {
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

static int insert(gmem *m, gmem_region reg) {
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

uint64_t gmem_alloc_kind(gmem *m, uint64_t size, int kind, const void *owner) {
    if (size == 0)
        size = 1;
    if (size > (1ull << 40))
        return 0;
    /* Whole pages, as hipMalloc hands out: the bytes past `size` up to the page end are
     * padding a kernel may touch as on hardware (gmem_xlate_pad); the region keeps the exact
     * size for byte-exact checks (memcheck) and fault reports. */
    uint64_t host_size = page_up(size);
    int owned = host_size >= GMEM_LAZY_MIN ? OWNED_MAP : OWNED_HEAP;
    uint8_t *host;
    if (owned == OWNED_MAP) {
        host = map_lazy(host_size);
        if (!host)
            return 0;
    } else {
        host = aligned_alloc(GMEM_PAGE, host_size);
        if (!host)
            return 0;
        memset(host, 0, host_size);
    }
    /* Leave an unmapped gap after every allocation so an overrun faults instead of landing in
     * the neighbour. */
    uint64_t base = m->next;
    m->next = (base + size + 0xffff + 0x10000) & ~0xffffull;
    gmem_region reg = {base, size, host, -1, owned, kind, 0, owner, 0};
    if (insert(m, reg) != 0) {
        host_free(&reg);
        return 0;
    }
    return base;
}

uint64_t gmem_alloc(gmem *m, uint64_t size, int user) {
    uint64_t va = gmem_alloc_kind(m, size, GMEM_BUFFER, NULL);
    if (va)
        m->r[upper(m, va) - 1].user = user;
    return va;
}

int gmem_free(gmem *m, uint64_t va) {
    size_t i = upper(m, va);
    if (i == 0 || m->r[i - 1].base != va || !m->r[i - 1].owned)
        return -1;
    host_free(&m->r[i - 1]);
    memmove(&m->r[i - 1], &m->r[i], (m->n - i) * sizeof *m->r);
    m->n--;
    return 0;
}

/* Copies size bytes from the lazily backed mapping at src to dst, writing zeros for the host
 * pages that were never touched instead of reading them: /proc/self/pagemap says which pages
 * are neither present nor swapped out, and such a page of a private anonymous mapping reads as
 * zero.  Some hosts' kernels do not map the shared zero page on a read fault (the paravirtual
 * test machine: reading 256 MiB of fresh anonymous memory took ~1 s of system time and made it
 * all resident), so reading back a big, sparsely written out: buffer allocated and cleared every
 * page of it: `gfxemu run` with a 512 MiB output took 2.9 s of CPU, nearly all of it in the
 * kernel.  Returns 0, or -1 when pagemap cannot be read (the caller copies as usual). */
static int copy_sparse(uint8_t *dst, const uint8_t *src, uint64_t size) {
    long pg = sysconf(_SC_PAGESIZE);
    if (pg <= 0)
        return -1;
    int fd = open("/proc/self/pagemap", O_RDONLY | O_CLOEXEC);
    if (fd < 0)
        return -1;
    uint64_t ent[512];
    uintptr_t first = (uintptr_t)src / (uintptr_t)pg, last = ((uintptr_t)src + size - 1) / pg;
    int rc = 0;
    for (uintptr_t b = first; b <= last && rc == 0; b += 512) {
        size_t n = last - b + 1 < 512 ? (size_t)(last - b + 1) : 512;
        if (pread(fd, ent, n * 8, (off_t)(b * 8)) != (ssize_t)(n * 8)) {
            rc = -1; /* nothing of this batch is copied yet: the caller copies it all */
            break;
        }
        for (size_t i = 0; i < n; i++) {
            uintptr_t lo = (b + i) * (uintptr_t)pg, hi = lo + (uintptr_t)pg;
            if (lo < (uintptr_t)src)
                lo = (uintptr_t)src;
            if (hi > (uintptr_t)src + size)
                hi = (uintptr_t)src + size;
            uint8_t *d = dst + (lo - (uintptr_t)src);
            if (ent[i] >> 62) /* bit 63 present, bit 62 swapped: it holds data */
                memcpy(d, (const void *)lo, hi - lo);
            else
                memset(d, 0, hi - lo);
        }
    }
    close(fd);
    return rc;
}

/* Copies the first size bytes of the owned buffer at va to dst and frees the buffer.  For an
 * anonymous mapping, each copied chunk's pages are handed back to the kernel (MADV_DONTNEED)
 * before the next chunk is copied, so the host holds about size bytes at the peak, not twice
 * that: the Python binding's Out(nbytes) result is made this way (issue #17, item 2). */
int gmem_move_out(gmem *m, uint64_t va, void *dst, uint64_t size) {
    size_t i = upper(m, va);
    if (i == 0 || m->r[i - 1].base != va || !m->r[i - 1].owned || size > m->r[i - 1].size ||
        (!dst && size))
        return -1;
    const gmem_region *r = &m->r[i - 1];
    const uint64_t chunk = 4ull << 20; /* a multiple of GMEM_PAGE */
    for (uint64_t off = 0; off < size; off += chunk) {
        uint64_t n = size - off < chunk ? size - off : chunk;
        if (r->owned != OWNED_MAP || copy_sparse((uint8_t *)dst + off, r->host + off, n) != 0)
            memcpy((uint8_t *)dst + off, r->host + off, n);
        if (r->owned == OWNED_MAP && n == chunk)
            madvise(r->host + off, chunk, MADV_DONTNEED);
    }
    return gmem_free(m, va);
}

static void remove_at(gmem *m, size_t i) {
    memmove(&m->r[i], &m->r[i + 1], (m->n - i - 1) * sizeof *m->r);
    m->n--;
}

int gmem_map_host(gmem *m, void *p, uint64_t size, int ro) {
    uint64_t b = (uint64_t)(uintptr_t)p, e = b + size;
    if (size == 0 || e < b)
        return -1;
    /* Every region that overlaps or touches [b, e) merges into it; an owned one refuses. */
    size_t i = upper(m, b);
    size_t first = i > 0 && m->r[i - 1].base + m->r[i - 1].size >= b ? i - 1 : i, last = first;
    while (last < m->n && m->r[last].base <= e)
        last++;
    /* An alias (gmem_map_alias) that only touches the range stays apart; one that overlaps it
     * refuses, as an owned allocation does. */
#define ALIAS(k) (m->r[k].host != (uint8_t *)(uintptr_t)m->r[k].base)
    if (first < last && ALIAS(first) && m->r[first].base + m->r[first].size == b)
        first++;
    if (last > first && ALIAS(last - 1) && m->r[last - 1].base == e)
        last--;
    for (size_t k = first; k < last; k++)
        if (m->r[k].owned || ALIAS(k))
            return -1;
#undef ALIAS
    for (size_t k = first; k < last; k++) {
        if (m->r[k].base < b)
            b = m->r[k].base;
        if (m->r[k].base + m->r[k].size > e)
            e = m->r[k].base + m->r[k].size;
        ro |= m->r[k].ro;
    }
    for (size_t k = last; k > first; k--)
        remove_at(m, k - 1);
    gmem_region reg = {b, e - b, (uint8_t *)(uintptr_t)b, -1, 0, GMEM_HOST, ro != 0, NULL, 0};
    return insert(m, reg);
}

int gmem_map_alias(gmem *m, uint64_t base, void *host, uint64_t size, int ro) {
    if (size == 0 || base + size < base)
        return -1;
    gmem_region reg = {base, size, host, -1, 0, GMEM_HOST, ro != 0, NULL, 0};
    return insert(m, reg);
}

int gmem_unmap_host(gmem *m, void *p) {
    const gmem_region *r = gmem_find(m, (uint64_t)(uintptr_t)p);
    if (!r || r->owned)
        return -1;
    remove_at(m, (size_t)(r - m->r));
    return 0;
}

int gmem_unmap_host_range(gmem *m, void *p, uint64_t size) {
    uint64_t b = (uint64_t)(uintptr_t)p, e = b + size;
    if (size == 0 || e < b)
        return -1;
    int hit = 0;
    for (size_t i = 0; i < m->n;) {
        gmem_region r = m->r[i];
        uint64_t rb = r.base, re = r.base + r.size;
        if (r.owned || re <= b || rb >= e) {
            i++;
            continue;
        }
        hit = 1;
        remove_at(m, i);
        /* keep what lies outside [b, e): at most a head and a tail */
        if (rb < b) {
            gmem_region h = r;
            h.size = b - rb;
            if (insert(m, h) != 0)
                return -1;
            i++;
        }
        if (re > e) {
            gmem_region t = r;
            t.base = e;
            t.size = re - e;
            t.host = r.host + (e - rb);
            if (insert(m, t) != 0)
                return -1;
            i++;
        }
    }
    return hit ? 0 : -1;
}

void gmem_unmap_host_all(gmem *m) {
    for (size_t i = m->n; i > 0; i--)
        if (!m->r[i - 1].owned)
            remove_at(m, i - 1);
}

/* The process's mappings from /proc/self/maps, sorted by address as the kernel lists them. */
typedef struct {
    uint64_t lo, hi;
    int r, w;
} map_ent;

static map_ent *maps_load(size_t *n) {
    FILE *f = fopen("/proc/self/maps", "r");
    if (!f)
        return NULL;
    map_ent *v = NULL;
    size_t cap = 0;
    char line[512];
    *n = 0;
    while (fgets(line, sizeof line, f)) {
        unsigned long long lo, hi;
        char perm[8];
        size_t len = strlen(line);
        while (len && line[len - 1] != '\n' && fgets(line, sizeof line, f)) /* long path */
            len = strlen(line);
        if (sscanf(line, "%llx-%llx %7s", &lo, &hi, perm) != 3)
            continue;
        if (*n == cap) {
            cap = cap ? cap * 2 : 256;
            map_ent *nv = realloc(v, cap * sizeof *v);
            if (!nv) {
                free(v);
                fclose(f);
                return NULL;
            }
            v = nv;
        }
        v[(*n)++] = (map_ent){lo, hi, perm[0] == 'r', perm[1] == 'w'};
    }
    fclose(f);
    if (!v)
        v = malloc(sizeof *v); /* no lines: an empty table, not a failure */
    return v;
}

/* Whether the pages of [b, e) are covered by readable mappings; *hole = the first page that is
 * not, *ro = 1 when some page is not writable. */
static int maps_cover(const map_ent *v, size_t n, uint64_t b, uint64_t e, int *ro, uint64_t *hole) {
    uint64_t at = b; /* everything below `at` is known to be covered */
    *ro = 0;
    for (size_t i = 0; i < n && at < e; i++) {
        if (v[i].hi <= at)
            continue;
        if (v[i].lo > at || !v[i].r)
            break; /* a gap or an unreadable mapping at `at` */
        *ro |= !v[i].w;
        at = v[i].hi;
    }
    *hole = at;
    return at >= e;
}

int gmem_host_check_n(const uint64_t (*ranges)[2], size_t n, int *ro, size_t *bad, char *why,
                      size_t whysz) {
    size_t nm = 0;
    map_ent *v = maps_load(&nm);
    for (size_t i = 0; i < n; i++) {
        uint64_t p = ranges[i][0], size = ranges[i][1];
        uint64_t b = p & ~(GMEM_PAGE - 1), e = page_up(p + size), hole = b;
        int r_o = 0, ok;
        if (v) {
            ok = maps_cover(v, nm, b, e, &r_o, &hole);
        } else {
            /* No /proc: mincore() fails with ENOMEM for any unmapped page (permissions
             * unknown). */
            size_t np = (size_t)((e - b) / GMEM_PAGE);
            unsigned char *vec = malloc(np ? np : 1);
            ok = vec && mincore((void *)(uintptr_t)b, e - b, vec) == 0;
            free(vec);
        }
        if (ro)
            ro[i] = r_o;
        if (!ok) {
            *bad = i;
            snprintf(why, whysz,
                     "[0x%llx, +%llu) is not mapped readable in this process (page 0x%llx)",
                     (unsigned long long)p, (unsigned long long)size,
                     (unsigned long long)(hole & ~(GMEM_PAGE - 1)));
            free(v);
            return -1;
        }
    }
    free(v);
    return 0;
}

int gmem_host_check(const void *p, uint64_t size, int *ro, char *why, size_t whysz) {
    const uint64_t r[1][2] = {{(uint64_t)(uintptr_t)p, size}};
    size_t bad;
    return gmem_host_check_n(r, 1, ro, &bad, why, whysz);
}

size_t gmem_count(const gmem *m) { return m->n; }
const gmem_region *gmem_at(const gmem *m, size_t i) { return i < m->n ? &m->r[i] : NULL; }

const gmem_cache_line *gmem_xlate_slow(const gmem *m, gmem_cache *c, uint64_t va, uint64_t size) {
    const gmem_region *r = gmem_find(m, va);
    if (!r)
        return NULL;
    uint64_t off = va - r->base;
    if (size > r->size - off)
        return NULL;
    gmem_cache_line *l = &c->line[c->next++ % GMEM_CACHE_LINES];
    l->base = r->base;
    l->size = r->size;
    l->host = r->host;
    l->ro = r->ro;
    return l;
}

/* Whether [va, va+size) fits the page-granular span of region r for this direction. */
static int pad_fits(const gmem_region *r, uint64_t va, uint64_t size, int write) {
    uint64_t lo = r->base, hi = r->base + r->size;
    if (r->owned) {
        hi = r->base + page_up(r->size);
    } else {
        if (write)
            return 0; /* never write host bytes that were not registered */
        lo &= ~(GMEM_PAGE - 1);
        hi = page_up(hi);
    }
    return va >= lo && va < hi && size <= hi - va;
}

void *gmem_xlate_pad(const gmem *m, uint64_t va, uint64_t size, int write,
                     const gmem_region **out) {
    /* The region at or below va, and (host ranges start mid-page) the one above it. */
    size_t i = upper(m, va);
    for (size_t k = i > 0 ? i - 1 : 0; k < m->n && k <= i; k++) {
        const gmem_region *r = &m->r[k];
        if (pad_fits(r, va, size, write) && !(write && r->ro)) {
            if (write) /* the one way a store reaches the padding: a reused region re-zeroes it */
                __atomic_store_n(&((gmem_region *)r)->pad_written, 1, __ATOMIC_RELAXED);
            if (out)
                *out = r;
            return r->host + (va - r->base); /* va may lie below base: same page, mapped */
        }
    }
    return NULL;
}

int gmem_write(gmem *m, uint64_t va, const void *src, uint64_t size) {
    gmem_cache c = {0};
    void *p = size ? gmem_xlate_w(m, &c, va, size) : NULL;
    if (size && !p)
        return -1;
    if (size)
        memcpy(p, src, size);
    return 0;
}

int gmem_read(const gmem *m, uint64_t va, void *dst, uint64_t size) {
    gmem_cache c = {0};
    const void *p = size ? gmem_xlate(m, &c, va, size) : NULL;
    if (size && !p)
        return -1;
    if (size >= GMEM_HUGE) { /* big reads from a lazily backed buffer skip untouched pages */
        size_t i = upper(m, va);
        if (i && m->r[i - 1].owned == OWNED_MAP && copy_sparse(dst, p, size) == 0)
            return 0;
    }
    if (size)
        memcpy(dst, p, size);
    return 0;
}
