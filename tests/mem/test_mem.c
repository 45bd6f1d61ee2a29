/* test_mem.c - device address space: translation is exact at every edge, never wild. */
#include "mem/mem.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>

static int fails, checks;
#define CHECK(cond)                                                                                \
    do {                                                                                           \
        checks++;                                                                                  \
        if (!(cond)) {                                                                             \
            fails++;                                                                               \
            printf("FAIL %s:%d: %s\n", __FILE__, __LINE__, #cond);                                 \
        }                                                                                          \
    } while (0)

int main(void) {
    gmem *m = gmem_create();
    gmem_cache c = {0};
    uint64_t a = gmem_alloc(m, 100, 0), b = gmem_alloc(m, 4096, 1);
    CHECK(a != 0 && b != 0 && b > a + 100);
    CHECK(a % 256 == 0 && b % 256 == 0);

    /* Inside, at both edges, straddling the end, just past the end, before the start. */
    uint8_t *p = gmem_xlate(m, &c, a, 4);
    CHECK(p != NULL && p[0] == 0 && p[3] == 0); /* zero-filled */
    CHECK(gmem_xlate(m, &c, a + 96, 4) == p + 96);
    CHECK(gmem_xlate(m, &c, a + 97, 4) == NULL);
    CHECK(gmem_xlate(m, &c, a + 100, 1) == NULL);
    CHECK(gmem_xlate(m, &c, a - 1, 1) == NULL);
    CHECK(gmem_xlate(m, &c, a, 101) == NULL);
    /* Sizes and addresses that overflow 64-bit arithmetic. */
    CHECK(gmem_xlate(m, &c, a + 8, UINT64_MAX) == NULL);
    CHECK(gmem_xlate(m, &c, UINT64_MAX - 1, 4) == NULL);
    CHECK(gmem_xlate(m, &c, 0, 4) == NULL);
    /* The cache follows the region actually hit. */
    uint8_t *q = gmem_xlate(m, &c, b + 4092, 4);
    const gmem_cache_line *last = &c.line[(c.next - 1) % GMEM_CACHE_LINES];
    CHECK(q != NULL && last->base == b && last->size == 4096);
    CHECK(gmem_xlate(m, &c, b + 4093, 4) == NULL);

    /* Copies are checked too. */
    uint32_t v = 0xdeadbeef, r = 0;
    CHECK(gmem_write(m, a + 96, &v, 4) == 0);
    CHECK(gmem_read(m, a + 96, &r, 4) == 0 && r == 0xdeadbeef);
    CHECK(gmem_write(m, a + 98, &v, 4) == -1);

    /* More regions than cache lines, visited in turn and back and forth: every translation is
     * its own region's host byte (an evicted or reused line never answers for another region),
     * and a store is refused only for the read-only one, whichever line holds it. */
    {
        enum { NR = GMEM_CACHE_LINES + 2 };
        static uint8_t ro_bytes[256];
        uint64_t rb[NR];
        for (int i = 0; i < NR - 1; i++) {
            rb[i] = gmem_alloc(m, 256, 10 + i);
            uint8_t tag = (uint8_t)(0x40 + i);
            CHECK(rb[i] && gmem_write(m, rb[i] + 255, &tag, 1) == 0);
        }
        ro_bytes[255] = 0x40 + NR - 1;
        CHECK(gmem_map_host(m, ro_bytes, sizeof ro_bytes, 1) == 0);
        rb[NR - 1] = (uint64_t)(uintptr_t)ro_bytes;
        gmem_cache cl = {0};
        static const int order[] = {0, 1, 2, 3, 4, 5, 0, 5, 1, 4, 2, 3, 5, 5, 0, 2, 4, 1, 3, 0};
        for (unsigned k = 0; k < sizeof order / sizeof order[0]; k++) {
            int i = order[k];
            const uint8_t *p8 = gmem_xlate(m, &cl, rb[i] + 255, 1);
            CHECK(p8 && *p8 == 0x40 + i);
            CHECK(gmem_xlate(m, &cl, rb[i] + 255, 2) == NULL); /* one byte past the end */
            uint8_t *w8 = gmem_xlate_w(m, &cl, rb[i], 4);
            CHECK(i == NR - 1 ? w8 == NULL : w8 != NULL);
        }
        CHECK(gmem_unmap_host(m, ro_bytes) == 0);
        for (int i = 0; i < NR - 1; i++)
            CHECK(gmem_free(m, rb[i]) == 0);
    }

    /* Nearest region for fault reports. */
    const gmem_region *n = gmem_nearest(m, a + 100 + 0x40);
    CHECK(n && n->base == a && n->user == 0);
    n = gmem_nearest(m, b - 8);
    CHECK(n && n->base == b && n->user == 1);

    /* Free: the range is gone, double free refused, the other allocation intact. */
    CHECK(gmem_free(m, a) == 0);
    CHECK(gmem_free(m, a) == -1);
    CHECK(gmem_free(m, b + 4) == -1);
    gmem_cache c2 = {0};
    CHECK(gmem_xlate(m, &c2, a, 4) == NULL);
    CHECK(gmem_xlate(m, &c2, b, 4) != NULL);

    /* Host-address mode: only registered ranges translate, to themselves. */
    static uint8_t host[256];
    CHECK(gmem_map_host(m, host + 64, 128, 0) == 0);
    size_t nreg = gmem_count(m);
    CHECK(gmem_map_host(m, host + 100, 16, 0) == 0); /* inside: nothing changes */
    CHECK(gmem_map_host(m, host + 64, 128, 0) == 0); /* identical: nothing changes */
    CHECK(gmem_count(m) == nreg);
    CHECK(gmem_xlate(m, &c2, (uint64_t)(uintptr_t)(host + 64), 128) == host + 64);
    CHECK(gmem_xlate(m, &c2, (uint64_t)(uintptr_t)(host + 63), 1) == NULL);
    CHECK(gmem_xlate(m, &c2, (uint64_t)(uintptr_t)(host + 190), 4) == NULL);
    CHECK(gmem_free(m, (uint64_t)(uintptr_t)(host + 64)) == -1); /* not owned */
    CHECK(gmem_unmap_host(m, host + 64) == 0);
    gmem_cache c3 = {0};
    CHECK(gmem_xlate(m, &c3, (uint64_t)(uintptr_t)(host + 64), 1) == NULL);

    /* Merging: adjacent and overlapping ranges become one region; unmapping by address takes
     * the whole merged region, by range exactly those bytes. */
    uint64_t h = (uint64_t)(uintptr_t)host;
    CHECK(gmem_map_host(m, host + 0, 64, 0) == 0);
    CHECK(gmem_map_host(m, host + 64, 64, 0) == 0);   /* adjacent */
    CHECK(gmem_map_host(m, host + 100, 100, 0) == 0); /* overlapping */
    CHECK(gmem_count(m) == nreg);
    const gmem_region *hr = gmem_find(m, h + 150);
    CHECK(hr && hr->base == h && hr->size == 200);
    gmem_cache c4 = {0};
    CHECK(gmem_xlate(m, &c4, h, 200) == host);
    CHECK(gmem_unmap_host_range(m, host + 50, 20) == 0); /* splits it */
    CHECK(gmem_count(m) == nreg + 1);
    CHECK(gmem_find(m, h + 49) && !gmem_find(m, h + 50) && !gmem_find(m, h + 69));
    CHECK(gmem_find(m, h + 70) && gmem_find(m, h + 199) && !gmem_find(m, h + 200));
    CHECK(gmem_unmap_host(m, host + 150) == 0); /* the whole [70, 200) */
    CHECK(!gmem_find(m, h + 70) && gmem_find(m, h + 10));
    CHECK(gmem_unmap_host(m, host + 150) == -1);
    CHECK(gmem_unmap_host(m, host + 10) == 0);
    CHECK(gmem_count(m) == nreg - 1);

    /* Page granularity.  Owned: the rest of the last page reads and writes (zero at first);
     * the next page faults.  Host: reads may touch the pages of a registered range, writes
     * only its bytes. */
    uint64_t o = gmem_alloc(m, 12, -1);
    CHECK(o && (o & 4095) == 0);
    const gmem_region *pr = NULL;
    uint8_t *pp = gmem_xlate_pad(m, o + 12, 4, 0, &pr);
    CHECK(pp && pr && pr->base == o && pp[0] == 0 && pp[3] == 0);
    CHECK(pr->pad_written == 0); /* a read of the padding does not mark it */
    CHECK(gmem_xlate_pad(m, o + 4092, 4, 1, NULL) != NULL);
    CHECK(pr->pad_written == 1); /* a store does: launch regions re-zero it on reuse */
    CHECK(gmem_xlate_pad(m, o + 4093, 4, 0, NULL) == NULL);
    CHECK(gmem_xlate_pad(m, o + 4096, 1, 0, NULL) == NULL);
    CHECK(gmem_xlate_pad(m, o - 1, 1, 0, NULL) == NULL);
    static _Alignas(4096) uint8_t page[8192];
    CHECK(gmem_map_host(m, page + 100, 8, 0) == 0);
    uint64_t pg = (uint64_t)(uintptr_t)page;
    CHECK(gmem_xlate_pad(m, pg + 108, 4, 0, NULL) == page + 108);
    CHECK(gmem_xlate_pad(m, pg, 4, 0, NULL) == page); /* before the range, same page */
    CHECK(gmem_xlate_pad(m, pg + 4092, 4, 0, NULL) == page + 4092);
    CHECK(gmem_xlate_pad(m, pg + 4094, 4, 0, NULL) == NULL); /* into the next page */
    CHECK(gmem_xlate_pad(m, pg + 108, 4, 1, NULL) == NULL);  /* writes: registered bytes only */
    CHECK(gmem_xlate_pad(m, pg + 96, 4, 1, NULL) == NULL);

    /* Registration checks: mapped, and whether writable. */
    int ro = -1;
    char why[256];
    CHECK(gmem_host_check(page, sizeof page, &ro, why, sizeof why) == 0 && ro == 0);
    static const char text[] = "read-only data";
    CHECK(gmem_host_check(text, sizeof text, &ro, why, sizeof why) == 0);
    uint8_t *un = mmap(NULL, 3 * 4096, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
    CHECK(un != MAP_FAILED);
    munmap(un + 4096, 4096); /* a hole in the middle */
    CHECK(gmem_host_check(un, 4096, &ro, why, sizeof why) == 0);
    CHECK(gmem_host_check(un, 4097, &ro, why, sizeof why) == -1 && strstr(why, "not mapped"));
    CHECK(gmem_host_check(un + 8192, 4096, &ro, why, sizeof why) == 0);
    mprotect(un + 8192, 4096, PROT_READ);
    CHECK(gmem_host_check(un + 8192, 4096, &ro, why, sizeof why) == 0 && ro == 1);
    mprotect(un + 8192, 4096, PROT_NONE);
    CHECK(gmem_host_check(un + 8192, 16, &ro, why, sizeof why) == -1);
    munmap(un, 4096);
    munmap(un + 8192, 4096);
    /* A read-only host region: loads translate, stores do not. */
    static const uint8_t rodata[64] = {1, 2, 3};
    CHECK(gmem_map_host(m, (void *)rodata, 64, 1) == 0);
    gmem_cache c5 = {0};
    CHECK(gmem_xlate(m, &c5, (uint64_t)(uintptr_t)rodata, 4) == rodata);
    CHECK(gmem_xlate_w(m, &c5, (uint64_t)(uintptr_t)rodata, 4) == NULL);

    /* gmem_move_out: the bytes arrive exactly (a lazily mapped buffer of 2.5 chunks plus a
     * tail, and a small heap one), the buffer is gone afterwards, and a call it refuses (not a
     * buffer's base, more bytes than the buffer has) frees nothing. */
    uint64_t big = (10ull << 20) + 4100;
    uint64_t bb = gmem_alloc(m, big, -1), sb = gmem_alloc(m, 300, -1);
    CHECK(bb != 0 && sb != 0);
    uint8_t *hp = gmem_xlate_w(m, &c5, bb, big), *dst = malloc(big);
    CHECK(hp != NULL && dst != NULL);
    for (uint64_t i = 0; hp && i < big; i++)
        hp[i] = (uint8_t)(i * 7 + (i >> 12));
    CHECK(gmem_move_out(m, bb + 4, dst, 16) == -1);
    CHECK(gmem_move_out(m, bb, dst, big + 1) == -1);
    CHECK(gmem_find(m, bb) != NULL);
    memset(dst, 0xee, big);
    CHECK(gmem_move_out(m, bb, dst, big) == 0);
    int same = 1;
    for (uint64_t i = 0; i < big; i++)
        same &= dst[i] == (uint8_t)(i * 7 + (i >> 12));
    CHECK(same);
    CHECK(gmem_find(m, bb) == NULL && gmem_free(m, bb) == -1);
    uint8_t *sp = gmem_xlate_w(m, &c5, sb, 300);
    CHECK(sp != NULL);
    if (sp)
        memset(sp, 0x5a, 300);
    memset(dst, 0, 301);
    CHECK(gmem_move_out(m, sb, dst, 200) == 0 && dst[0] == 0x5a && dst[199] == 0x5a &&
          dst[200] == 0);
    CHECK(gmem_find(m, sb) == NULL);
    free(dst);

    /* Big reads of a lazily backed buffer write zeros for the pages never touched instead of
     * reading them (copy_sparse in space.c): written bytes at page edges, a whole 2 MiB block,
     * the last byte, and untouched pages between them must all read back right, whole and from
     * unaligned addresses, into a destination full of junk (zeros must be written, not skipped).
     * The model is a host array written the same way. */
    {
        const uint64_t n = 16ull << 20; /* 2 MiB pages 1, 2, 4, 6 stay untouched */
        uint64_t lb = gmem_alloc(m, n, 1);
        uint8_t *model = calloc(1, n), *got = malloc(n);
        CHECK(lb != 0 && model && got);
        if (lb && model && got) {
            static const uint64_t at[] = {0, 4095, 4096, 12287, (6u << 20) + 4097};
            for (size_t i = 0; i < sizeof at / sizeof at[0]; i++) {
                uint8_t v = (uint8_t)(0x11 * (i + 1));
                model[at[i]] = v;
                CHECK(gmem_write(m, lb + at[i], &v, 1) == 0);
            }
            uint8_t *blk = malloc(2u << 20);
            for (uint32_t i = 0; blk && i < (2u << 20); i++)
                blk[i] = (uint8_t)(i * 13 + 1);
            if (blk) {
                memcpy(model + (10u << 20), blk, 2u << 20);
                CHECK(gmem_write(m, lb + (10u << 20), blk, 2u << 20) == 0);
            }
            free(blk);
            model[n - 1] = 0x77;
            CHECK(gmem_write(m, lb + n - 1, &model[n - 1], 1) == 0);
            static const uint64_t from[][2] = {
                {0, 16u << 20},         {1, (16u << 20) - 1},       {4095, 5u << 20},
                {4097, (8u << 20) + 3}, {(2u << 20) - 5, 2u << 20}, {(9u << 20) + 7, 4u << 20}};
            for (size_t i = 0; i < sizeof from / sizeof from[0]; i++) {
                memset(got, 0xa5, n);
                CHECK(gmem_read(m, lb + from[i][0], got, from[i][1]) == 0);
                CHECK(memcmp(got, model + from[i][0], from[i][1]) == 0);
                CHECK(from[i][0] + from[i][1] == n || got[from[i][1]] == 0xa5); /* no overrun */
            }
            /* gmem_move_out (the Python binding's Out results) copies the same way */
            memset(got, 0xa5, n);
            CHECK(gmem_move_out(m, lb, got, n) == 0 && memcmp(got, model, n) == 0);
        }
        free(model);
        free(got);
    }

    gmem_destroy(m);
    printf("mem: %d checks, %d failed\n", checks, fails);
    return fails != 0;
}
