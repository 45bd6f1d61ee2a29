/* test_progdata.c - program-scope data and hardware memory semantics (tests/kernels/progdata.cl)
 * on gfx950 and gfx942 at -O0, -O1 and -O3 (issue #13 items 1 and 3):
 *  - __constant lookup tables, a table of pointers into them (R_AMDGPU_RELATIVE64 relocations)
 *    and an initialised program-scope __global array, reached PC-relative;
 *  - initialised private arrays (clang -O0 copies the initialiser from .rodata);
 *  - a program-scope counter updated with atomics over several launches (it persists, and the
 *    host reads and writes it through gfx_module_symbol_address());
 *  - a 12-byte buffer read with a widened s_load_dwordx4 (runs as on hardware; memcheck does
 *    not report it);
 *  - an off-by-one read and write: the default mode lets them through as hardware does (the
 *    read sees the zeroed padding), memcheck reports exactly the bad lane, and an access past
 *    the buffer's page faults with a message that says where the address is.
 * Expected values are worked out here from the kernel source. */
#include "common/check.h"
#include "common/kernels.h"
#include "gfxemu.h"

#include <stdint.h>
#include <stdio.h>
#include <string.h>

static const int lut[8] = {3, 1, 4, 1, 5, 9, 2, 6};
static const int lut2[8] = {27, 18, 28, 18, 28, 45, 90, 45};
static int table[4] = {10, 20, 30, 40}; /* the kernels' program-scope table as it should be */

static const gfx_kernel *kernel(const char *name) {
    const gfx_kernel *k = NULL;
    gfx_result r = gfx_module_kernel(kt.mod, name, &k);
    CHECK(r == GFX_OK, "%s: no kernel %s", kt.tag, name);
    return k;
}

static gfx_result run(const char *name, unsigned groups, const void *const *params, size_t n,
                      int memcheck) {
    const gfx_kernel *k = kernel(name);
    if (!k)
        return GFX_ERR_NOT_FOUND;
    uint32_t grid[3] = {groups, 1, 1}, blk[3] = {64, 1, 1};
    gfx_launch_options o = {.memcheck = memcheck};
    return gfx_launch_params(kt.dev, k, grid, blk, params, n, &o, NULL);
}

static int read_global(const char *name, void *buf, uint64_t n) {
    uint64_t a, size;
    if (gfx_module_symbol_address(kt.dev, kt.mod, name, &a, &size) != GFX_OK || size != n)
        return -1;
    return gfx_memcpy_dtoh(kt.dev, buf, a, n) == GFX_OK ? 0 : -1;
}

static void check_lut(const char *when) {
    int out[128];
    uint64_t d = kt_upload(NULL, sizeof out);
    const void *p[] = {&d};
    CHECK(run("use_lut", 2, p, 1, 0) == GFX_OK, "%s use_lut (%s): %s", kt.tag, when,
          gfx_device_error(kt.dev));
    gfx_memcpy_dtoh(kt.dev, out, d, sizeof out);
    int bad = 0;
    for (int i = 0; i < 128; i++) {
        const int *t = (i >> 3) & 1 ? lut2 : lut;
        bad += out[i] != lut[i & 7] + 100 * t[(i + 3) & 7] + 1000 * table[i & 3];
    }
    CHECK(bad == 0, "%s use_lut (%s): %d of 128 wrong (out[1] = %d)", kt.tag, when, bad, out[1]);
    gfx_buffer_free(kt.dev, d);
}

static void t_tables(void) {
    table[0] = 10, table[1] = 20, table[2] = 30, table[3] = 40;
    check_lut("first launch");
    int host[8];
    CHECK(read_global("lut", host, sizeof host) == 0 && memcmp(host, lut, sizeof host) == 0,
          "%s: gfx_module_symbol_address(lut) does not give the table", kt.tag);
    uint64_t a;
    CHECK(gfx_module_symbol_address(kt.dev, kt.mod, "no_such_var", &a, NULL) == GFX_ERR_NOT_FOUND,
          "%s: an unknown symbol is found", kt.tag);
}

static void t_private_init(void) {
    static const int primes[16] = {2, 3, 5, 7, 11, 13, 17, 19, 23, 29, 31, 37, 41, 43, 47, 53};
    const int ks[] = {0, 5, 17};
    for (size_t c = 0; c < 3; c++) {
        int out[64], k = ks[c];
        uint64_t d = kt_upload(NULL, sizeof out);
        const void *p[] = {&d, &k};
        CHECK(run("priv_init", 1, p, 2, 0) == GFX_OK, "%s priv_init: %s", kt.tag,
              gfx_device_error(kt.dev));
        gfx_memcpy_dtoh(kt.dev, out, d, sizeof out);
        int bad = 0;
        for (int i = 0; i < 64; i++)
            bad += out[i] != primes[(i + k) & 15] * (k + 1);
        CHECK(bad == 0, "%s priv_init k=%d: %d wrong", kt.tag, k, bad);
        gfx_buffer_free(kt.dev, d);
    }
}

/* Each launch hands out the counter values [start, start + 128) once each. */
static void count_launch(int start) {
    int out[128];
    uint64_t d = kt_upload(NULL, sizeof out);
    const void *p[] = {&d};
    CHECK(run("count", 2, p, 1, 0) == GFX_OK, "%s count: %s", kt.tag, gfx_device_error(kt.dev));
    gfx_memcpy_dtoh(kt.dev, out, d, sizeof out);
    uint8_t seen[128] = {0};
    int bad = 0;
    for (int i = 0; i < 128; i++) {
        int v = out[i] - start;
        if (v < 0 || v >= 128 || seen[v]++)
            bad++;
    }
    CHECK(bad == 0, "%s count from %d: %d values wrong (out[0] = %d)", kt.tag, start, bad, out[0]);
    gfx_buffer_free(kt.dev, d);
    for (int i = 0; i < 4; i++)
        table[i] += i + 1;
}

static void t_counter(void) {
    int c = -1;
    CHECK(read_global("counter", &c, 4) == 0 && c == 0, "%s: counter starts at %d", kt.tag, c);
    for (int l = 0; l < 3; l++)
        count_launch(128 * l);
    CHECK(read_global("counter", &c, 4) == 0 && c == 384, "%s: counter is %d after 3 launches",
          kt.tag, c);
    int t[4];
    CHECK(read_global("table", t, sizeof t) == 0 && memcmp(t, table, sizeof t) == 0,
          "%s: table is {%d,%d,%d,%d} after 3 launches", kt.tag, t[0], t[1], t[2], t[3]);
    check_lut("after the counter launches"); /* another kernel sees the updated table */
    /* the host writes the variable; the next launch starts from there */
    uint64_t a;
    c = 100000;
    CHECK(gfx_module_symbol_address(kt.dev, kt.mod, "counter", &a, NULL) == GFX_OK &&
              gfx_memcpy_htod(kt.dev, a, &c, 4) == GFX_OK,
          "%s: cannot write counter", kt.tag);
    count_launch(100000);
}

static void t_widened_load(void) {
    const float v[3] = {1.5f, 2.25f, -3.0f};
    for (int mc = 0; mc < 2; mc++) {
        uint64_t src = kt_upload(v, sizeof v), dst = kt_upload(NULL, 64 * 4);
        const void *p[] = {&src, &dst};
        gfx_result r = run("sum3", 1, p, 2, mc);
        CHECK(r == GFX_OK, "%s sum3 (memcheck %d) on a 12-byte buffer: %s", kt.tag, mc,
              gfx_device_error(kt.dev));
        float out[64];
        gfx_memcpy_dtoh(kt.dev, out, dst, sizeof out);
        int bad = 0;
        for (int i = 0; i < 64; i++)
            bad += out[i] != -6.0f + (float)i; /* 1.5 + 4.5 - 12 + i, all exact */
        CHECK(bad == 0, "%s sum3: %d wrong", kt.tag, bad);
        if (mc) {
            uint64_t widened = 0, n = gfx_memcheck_errors(kt.dev, &widened);
            CHECK(n == 0, "%s sum3: memcheck reports %llu errors for a widened load", kt.tag,
                  (unsigned long long)n);
            /* gfx12 has s_load_b96: clang loads the 12 bytes exactly there */
            if (strstr(kt.tag, "-O3") && !strstr(kt.tag, "gfx12"))
                CHECK(widened >= 1, "%s sum3: the widened s_load_dwordx4 was not seen", kt.tag);
        }
        gfx_buffer_free(kt.dev, src);
        gfx_buffer_free(kt.dev, dst);
    }
}

/* Work-item 63's lane in its wave: 63, or 31 (of wave 1) in an RDNA wave32 code object. */
static int lane63(void) {
    int w32 = (strstr(kt.tag, "gfx11") || strstr(kt.tag, "gfx12")) && !strstr(kt.tag, "-w64");
    return w32 ? 31 : 63;
}

static void t_off_by_one(void) {
    int in[64], out[64];
    for (int i = 0; i < 64; i++)
        in[i] = 7 * i + 1;
    for (int mc = 0; mc < 2; mc++) {
        uint64_t s = kt_upload(in, sizeof in), d = kt_upload(NULL, sizeof out);
        const void *p[] = {&s, &d};
        CHECK(run("shift_read", 1, p, 2, mc) == GFX_OK, "%s shift_read (memcheck %d): %s", kt.tag,
              mc, gfx_device_error(kt.dev));
        gfx_memcpy_dtoh(kt.dev, out, d, sizeof out);
        int bad = 0;
        for (int i = 0; i < 64; i++)
            bad += out[i] != (i < 63 ? in[i + 1] : 0); /* in[64]: the zeroed padding */
        CHECK(bad == 0, "%s shift_read: %d wrong", kt.tag, bad);
        uint64_t n = gfx_memcheck_errors(kt.dev, NULL);
        gfx_memcheck_error e;
        CHECK(n == (uint64_t)mc, "%s shift_read (memcheck %d): %llu errors", kt.tag, mc,
              (unsigned long long)n);
        if (mc && n == 1 && gfx_memcheck_error_get(kt.dev, 0, &e) == GFX_OK) {
            CHECK(e.lane == lane63() && !e.write && e.addr == s + 256 && e.size == 4,
                  "%s shift_read: record lane %d write %d addr 0x%llx size %u", kt.tag, e.lane,
                  e.write, (unsigned long long)e.addr, e.size);
            CHECK(strstr(e.message, "read of 4 bytes") &&
                      strstr(e.message, "0 bytes past the end of the 256-byte buffer"),
                  "%s shift_read: message '%s'", kt.tag, e.message);
        }
        gfx_buffer_free(kt.dev, s);
        gfx_buffer_free(kt.dev, d);

        int far = 0;
        d = kt_upload(NULL, sizeof out);
        const void *q[] = {&d, &far};
        CHECK(run("shift_write", 1, q, 2, mc) == GFX_OK, "%s shift_write (memcheck %d): %s", kt.tag,
              mc, gfx_device_error(kt.dev));
        gfx_memcpy_dtoh(kt.dev, out, d, sizeof out);
        bad = out[0] != 0;
        for (int i = 1; i < 64; i++)
            bad += out[i] != i - 1;
        CHECK(bad == 0, "%s shift_write: %d wrong", kt.tag, bad);
        n = gfx_memcheck_errors(kt.dev, NULL);
        CHECK(n == (uint64_t)mc, "%s shift_write (memcheck %d): %llu errors", kt.tag, mc,
              (unsigned long long)n);
        if (mc && n == 1 && gfx_memcheck_error_get(kt.dev, 0, &e) == GFX_OK)
            CHECK(e.lane == lane63() && e.write && e.addr == d + 256,
                  "%s shift_write: record lane %d write %d addr 0x%llx", kt.tag, e.lane, e.write,
                  (unsigned long long)e.addr);
        /* 8 KiB further: outside the buffer's page, a fault in either mode */
        far = 2048;
        gfx_result r = run("shift_write", 1, q, 2, mc);
        gfx_fault f;
        gfx_last_fault(kt.dev, &f);
        CHECK(r == GFX_ERR_FAULT && f.kind == GFX_FAULT_MEMORY && f.write &&
                  f.addr == d + 4 * 2049 &&
                  strstr(f.message, "past the end of the 256-byte buffer"),
              "%s shift_write far: r %d, '%s'", kt.tag, r, f.message);
        gfx_buffer_free(kt.dev, d);
    }
}

int main(void) {
    static const kt_test tests[] = {t_tables, t_private_init, t_counter, t_widened_load,
                                    t_off_by_one};
    int r = kt_run_all("progdata", "", tests, sizeof tests / sizeof tests[0]);
    /* RDNA: the same kernels on gfx1100 and gfx1201, wave32 and wave64 (src/exec/rdna.c) */
    r |= kt_run_rdna("progdata", "", tests, sizeof tests / sizeof tests[0]);
    return check_summary("progdata") || r;
}
