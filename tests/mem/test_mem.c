/* test_mem.c - device address space: translation is exact at every edge, never wild. */
#include "mem/mem.h"

#include <stdio.h>
#include <string.h>

static int fails, checks;
#define CHECK(cond)                                                                                \
    do {                                                                                           \
        checks++;                                                                                  \
        if (!(cond)) {                                                                             \
            fails++;                                                                               \
            printf("FAIL %s:%d: %s\n", __FILE__, __LINE__, #cond);                                 \
        }                                                                                          \
    } while (0)

int main(void)
{
    gmem *m = gmem_create();
    gmem_cache c = {0, 0, NULL};
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
    CHECK(q != NULL && c.base == b && c.size == 4096);
    CHECK(gmem_xlate(m, &c, b + 4093, 4) == NULL);

    /* Copies are checked too. */
    uint32_t v = 0xdeadbeef, r = 0;
    CHECK(gmem_write(m, a + 96, &v, 4) == 0);
    CHECK(gmem_read(m, a + 96, &r, 4) == 0 && r == 0xdeadbeef);
    CHECK(gmem_write(m, a + 98, &v, 4) == -1);

    /* Nearest region for fault reports. */
    const gmem_region *n = gmem_nearest(m, a + 100 + 0x40);
    CHECK(n && n->base == a && n->user == 0);
    n = gmem_nearest(m, b - 8);
    CHECK(n && n->base == b && n->user == 1);

    /* Free: the range is gone, double free refused, the other allocation intact. */
    CHECK(gmem_free(m, a) == 0);
    CHECK(gmem_free(m, a) == -1);
    CHECK(gmem_free(m, b + 4) == -1);
    gmem_cache c2 = {0, 0, NULL};
    CHECK(gmem_xlate(m, &c2, a, 4) == NULL);
    CHECK(gmem_xlate(m, &c2, b, 4) != NULL);

    /* Host-address mode: only registered ranges translate, to themselves. */
    static uint8_t host[256];
    CHECK(gmem_map_host(m, host + 64, 128, 5) == 0);
    CHECK(gmem_map_host(m, host + 100, 16, 6) == -1); /* overlap refused */
    CHECK(gmem_xlate(m, &c2, (uint64_t)(uintptr_t)(host + 64), 128) == host + 64);
    CHECK(gmem_xlate(m, &c2, (uint64_t)(uintptr_t)(host + 63), 1) == NULL);
    CHECK(gmem_xlate(m, &c2, (uint64_t)(uintptr_t)(host + 190), 4) == NULL);
    CHECK(gmem_free(m, (uint64_t)(uintptr_t)(host + 64)) == -1); /* not owned */
    CHECK(gmem_unmap_host(m, host + 64) == 0);
    gmem_cache c3 = {0, 0, NULL};
    CHECK(gmem_xlate(m, &c3, (uint64_t)(uintptr_t)(host + 64), 1) == NULL);

    gmem_destroy(m);
    printf("mem: %d checks, %d failed\n", checks, fails);
    return fails != 0;
}
