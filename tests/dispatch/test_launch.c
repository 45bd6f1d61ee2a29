/* test_launch.c - launches through the public API with the scalar-only kernels of
 * tests/dispatch/scalar.s (assembled by gfxemu's own assembler, gfx_module_assemble, for gfx950,
 * gfx942 and gfx90a; test_asm_crosscheck.sh compares its bytes with llvm-mc-22's): the initial
 * SGPRs and dispatch packet a kernel sees, barriers, results independent of the thread count,
 * faults (watchdog, trap, illegal instruction) with their records, and a device that stays usable.
 */
#include "common/check.h"
#include "common/util.h"
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "gfxemu.h"

static uint32_t rd32(const uint8_t *p) {
    return (uint32_t)p[0] | (uint32_t)p[1] << 8 | (uint32_t)p[2] << 16 | (uint32_t)p[3] << 24;
}
static uint64_t rd64(const uint8_t *p) { return rd32(p) | (uint64_t)rd32(p + 4) << 32; }

static const gfx_kernel *kernel(gfx_module *m, const char *name) {
    const gfx_kernel *k = NULL;
    gfx_result r = gfx_module_kernel(m, name, &k);
    CHECK(r == GFX_OK && k, "kernel %s: %s", name, gfx_result_str(r));
    if (!k)
        exit(1);
    return k;
}

/* dump: 2 x 3 x 2 workgroups of 64; 128 bytes per workgroup. */
static void dump(gfx_device *dev, gfx_module *m, uint8_t *out, size_t size, uint64_t *buf_addr) {
    const gfx_kernel *k = kernel(m, "dump");
    uint64_t buf;
    CHECK(gfx_buffer_alloc(dev, size, &buf) == GFX_OK, "alloc");
    const void *params[] = {&buf};
    uint32_t grid[3] = {2, 3, 2}, block[3] = {64, 1, 1};
    gfx_stats st;
    gfx_result r = gfx_launch_params(dev, k, grid, block, params, 1, NULL, &st);
    CHECK(r == GFX_OK, "dump: %s: %s", gfx_result_str(r), gfx_device_error(dev));
    CHECK(st.waves == 12 && st.workgroups == 12 && st.wave_insts == 12 * 20, "stats %llu %llu %llu",
          (unsigned long long)st.waves, (unsigned long long)st.workgroups,
          (unsigned long long)st.wave_insts);
    CHECK(st.salu == 12 * 8 && st.smem == 12 * 10 && st.branch == 12 && st.other == 12 &&
              st.valu == 0,
          "classes salu %llu smem %llu branch %llu other %llu", (unsigned long long)st.salu,
          (unsigned long long)st.smem, (unsigned long long)st.branch, (unsigned long long)st.other);
    CHECK(gfx_memcpy_dtoh(dev, out, buf, size) == GFX_OK, "dtoh");
    *buf_addr = buf;
}

static void check_dump(const uint8_t *out, unsigned threads) {
    uint64_t packet = rd64(out), kernarg = rd64(out + 16);
    for (unsigned z = 0; z < 2; z++)
        for (unsigned y = 0; y < 3; y++)
            for (unsigned x = 0; x < 2; x++) {
                const uint8_t *o = out + 128 * ((z * 3 + y) * 2 + x);
                CHECK(rd64(o) == packet && packet, "dispatch ptr");
                CHECK(rd64(o + 8) != 0, "queue ptr");
                CHECK(rd64(o + 16) == kernarg && kernarg, "kernarg ptr");
                CHECK(rd32(o + 32) == x && rd32(o + 36) == y && rd32(o + 40) == z,
                      "threads %u: wg (%u,%u,%u) sees (%u,%u,%u)", threads, x, y, z, rd32(o + 32),
                      rd32(o + 36), rd32(o + 40));
                CHECK(rd32(o + 44) == (1u << 31 | 1), "workgroup info 0x%x", rd32(o + 44));
                uint64_t fs = rd64(o + 48);
                CHECK(fs != 0 && (o == out || fs != rd64(out + 48)), "FLAT_SCRATCH 0x%llx",
                      (unsigned long long)fs);
                /* the AQL packet (HSA: header, setup, workgroup_size_x/y/z, grid_size_x/y/z,
                 * private_segment_size, group_segment_size, kernel_object, kernarg_address) */
                const uint8_t *p = o + 64;
                CHECK((p[0] & 0xff) == 2, "packet type %u", p[0]);
                CHECK(rd32(p) >> 16 == 3, "dims %u", rd32(p) >> 16);
                CHECK(rd32(p + 4) == (64 | 1u << 16) && (rd32(p + 8) & 0xffff) == 1,
                      "workgroup size");
                CHECK(rd32(p + 12) == 128 && rd32(p + 16) == 3 && rd32(p + 20) == 2, "grid size");
                CHECK(rd32(p + 24) == 20 && rd32(p + 28) == 0, "segment sizes %u %u", rd32(p + 24),
                      rd32(p + 28));
                CHECK(rd64(p + 32) != 0, "kernel object");
                CHECK(rd64(p + 40) == kernarg, "kernarg address");
            }
}

static gfx_result launch0(gfx_device *dev, const gfx_kernel *k, uint32_t groups, uint32_t threads,
                          uint64_t max_insts) {
    uint32_t grid[3] = {groups, 1, 1}, block[3] = {threads, 1, 1};
    gfx_launch_options o = {.max_insts = max_insts};
    return gfx_launch(dev, k, grid, block, NULL, 0, &o, NULL);
}

static void check_arch(const char *src, size_t len, gfx_arch arch) {
    char err[256];
    gfx_module *m = NULL;
    CHECK(gfx_module_assemble(arch, src, len, &m, err, sizeof err) == GFX_OK, "scalar.s for %s: %s",
          gfx_arch_name(arch), err);
    if (!m)
        return;
    size_t size = 12 * 128;
    uint8_t *a = calloc(1, size), *b = calloc(1, size);
    gfx_device *d1 = NULL, *d2 = NULL;
    CHECK(gfx_device_create(arch, 1, &d1) == GFX_OK, "device");
    CHECK(gfx_device_create(arch, 2, &d2) == GFX_OK, "device");
    uint64_t ba, bb;
    dump(d1, m, a, size, &ba);
    dump(d2, m, b, size, &bb);
    check_dump(a, 1);
    check_dump(b, 2);
    /* The same launch sequence on 1 and 2 threads: identical memory. */
    CHECK(memcmp(a, b, size) == 0, "dump differs between 1 and 2 threads");
    /* The dispatch id counts launches on a device. */
    CHECK(rd64(a + 24) == 0, "first dispatch id %llu", (unsigned long long)rd64(a + 24));
    dump(d1, m, a, size, &ba);
    CHECK(rd64(a + 24) == 1, "second dispatch id %llu", (unsigned long long)rd64(a + 24));

    /* barrier: the first wave reads what the second stored before the barrier. */
    const gfx_kernel *kb = kernel(m, "barrier");
    for (int t = 0; t < 2; t++) {
        gfx_device *d = t ? d2 : d1;
        uint64_t buf;
        uint32_t got[2] = {0, 0};
        gfx_buffer_alloc(d, 8, &buf);
        const void *params[] = {&buf};
        /* One workgroup: every workgroup of `barrier` stores to the same two words, a race of
         * the kernel itself that TSan reports when workgroups overlap on two threads. */
        uint32_t grid[3] = {1, 1, 1}, block[3] = {128, 1, 1};
        CHECK(gfx_launch_params(d, kb, grid, block, params, 1, NULL, NULL) == GFX_OK, "barrier: %s",
              gfx_device_error(d));
        gfx_memcpy_dtoh(d, got, buf, 8);
        CHECK(got[0] == 0x1234 && got[1] == 0x1234, "barrier: %x %x", got[0], got[1]);
        CHECK(gfx_launch_params(d, kb, grid, block, params, 0, NULL, NULL) == GFX_ERR_INVALID,
              "wrong argument count");
    }

    /* Faults, each followed by a launch that works. */
    gfx_fault f;
    gfx_symbol sym;
    CHECK(launch0(d2, kernel(m, "spin"), 4, 64, 1000000) == GFX_ERR_FAULT, "spin");
    gfx_last_fault(d2, &f);
    CHECK(f.kind == GFX_FAULT_WATCHDOG && strstr(f.message, "watchdog") &&
              strcmp(f.kernel, "spin") == 0 && f.workgroup[0] < 4 &&
              (strcmp(f.op, "s_add_u32") == 0 || strcmp(f.op, "s_branch") == 0),
          "watchdog record: %d %s '%s'", f.kind, f.op, f.message);
    /* the hint names the API's knob, not the CLI's */
    CHECK(strstr(f.message, "; raise it with gfx_launch_options.max_insts") &&
              !strstr(f.message, "--max-insts"),
          "watchdog hint: '%s'", f.message);
    CHECK(f.wave_insts >= 1000000 && f.wave_insts < 1000000 + 3 * 65536, "stopped after %llu",
          (unsigned long long)f.wave_insts);
    CHECK(launch0(d2, kernel(m, "trap"), 4, 256, 0) == GFX_ERR_FAULT, "trap");
    gfx_last_fault(d2, &f);
    gfx_module_find_symbol(m, "trap", &sym);
    CHECK(f.kind == GFX_FAULT_TRAP && strcmp(f.disasm, "s_trap 2") == 0 &&
              strcmp(f.op, "s_trap") == 0 && f.pc == sym.addr + 4 && f.wave < 4,
          "trap record: %d '%s' pc 0x%llx", f.kind, f.disasm, (unsigned long long)f.pc);
    CHECK(launch0(d1, kernel(m, "illegal"), 1, 64, 0) == GFX_ERR_FAULT, "illegal");
    gfx_last_fault(d1, &f);
    gfx_module_find_symbol(m, "illegal", &sym);
    CHECK(f.kind == GFX_FAULT_ILLEGAL && strcmp(f.disasm, "<illegal 0xf4080500>") == 0 &&
              f.pc == sym.addr + 4 && strstr(f.message, "illegal instruction"),
          "illegal record: %d '%s' '%s'", f.kind, f.disasm, f.message);
    dump(d2, m, b, size, &bb);
    gfx_last_fault(d2, &f);
    CHECK(f.kind == GFX_FAULT_NONE && gfx_device_error(d2)[0] == 0, "fault cleared");

    /* Resource errors. */
    gfx_launch_options big = {.dynamic_lds = 200000};
    uint32_t g1[3] = {1, 1, 1}, b64[3] = {64, 1, 1};
    CHECK(gfx_launch(d1, kernel(m, "spin"), g1, b64, NULL, 0, &big, NULL) == GFX_ERR_RESOURCE &&
              strstr(gfx_device_error(d1), "LDS"),
          "LDS: %s", gfx_device_error(d1));
    gfx_device *other = NULL;
    gfx_device_create(arch == GFX_ARCH_GFX950 ? GFX_ARCH_GFX942 : GFX_ARCH_GFX950, 1, &other);
    CHECK(launch0(other, kernel(m, "spin"), 1, 64, 100) == GFX_ERR_ARCH, "arch mismatch");
    gfx_device_free(other);

    gfx_device_free(d1);
    gfx_device_free(d2);
    free(a);
    free(b);
    gfx_module_free(m);
}

int main(void) {
    FILE *f = fopen("tests/dispatch/scalar.s", "rb");
    CHECK(f != NULL, "tests/dispatch/scalar.s: cannot open");
    if (!f)
        return 1;
    static char src[1 << 16], src90a[(1 << 16) + 64];
    size_t len = fread(src, 1, sizeof src - 1, f);
    fclose(f);
    CHECK(len > 0 && len < sizeof src - 1, "tests/dispatch/scalar.s: read %zu bytes", len);
    src[len] = 0;
    check_arch(src, len, GFX_ARCH_GFX950);
    check_arch(src, len, GFX_ARCH_GFX942);
    /* gfx90a has no architected flat scratch, so no .amdhsa_enable_private_segment: its private
     * segment is the wave offset SGPR (after the workgroup info, which dump does not store) */
    const char *from = ".amdhsa_enable_private_segment 1",
               *to = ".amdhsa_system_sgpr_private_segment_wavefront_offset 1";
    const char *at = strstr(src, from);
    CHECK(at != NULL, "scalar.s: no %s", from);
    if (at) {
        size_t pre = (size_t)(at - src);
        snprintf(src90a, sizeof src90a, "%.*s%s%s", (int)pre, src, to, at + strlen(from));
        check_arch(src90a, strlen(src90a), GFX_ARCH_GFX90A);
    }
    return check_summary("test_launch");
}
