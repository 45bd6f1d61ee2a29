/* test_local_args.c - __local pointer arguments through the C API (tests/kernels/local_args.cl,
 * gfx950 and gfx942 at -O0, -O1 and -O3): gfx_kernel_bind_local() places each after the static
 * LDS at its .pointee_align (int 4, short 2, double 8), in argument order, and writes its
 * address into the kernarg bytes for gfx_launch(); the kernel's results and the addresses it
 * saw are checked against that rule worked out here, and an LDS request beyond the
 * architecture's is a clean GFX_ERR_RESOURCE. */
#include "common/check.h"
#include "common/kernels.h"
#include "gfxemu.h"

#include <stdint.h>
#include <stdio.h>
#include <string.h>

static uint32_t align_up(uint32_t v, uint32_t a) { return (v + a - 1) / a * a; }

static void t_locals(void) {
    const gfx_kernel *k;
    if (gfx_module_kernel(kt.mod, "locals", &k) != GFX_OK) {
        CHECK(0, "%s: no kernel locals", kt.tag);
        return;
    }
    gfx_kernel_info info;
    gfx_kernel_get_info(k, &info);
    CHECK(info.group_segment_fixed_size >= 20, "%s: static LDS %u < 5 ints", kt.tag,
          info.group_segment_fixed_size);
    int32_t out[67];
    uint64_t dout = kt_upload(NULL, sizeof out);
    /* a: 64 ints, b: 67 shorts (134 bytes: c's 8-byte alignment then skips 2), c: 64 doubles */
    uint32_t na = 256, nb = 134, nc = 512;
    int32_t n = 7;
    gfx_arg_info ai[5];
    uint8_t kargs[64] = {0};
    for (int i = 0; i < 5; i++)
        if (gfx_kernel_arg(k, (size_t)i, &ai[i]) != GFX_OK || ai[i].offset + ai[i].size > 64) {
            CHECK(0, "%s: argument %d metadata", kt.tag, i);
            return;
        }
    memcpy(kargs + ai[0].offset, &dout, 8);
    memcpy(kargs + ai[4].offset, &n, 4);
    uint32_t dyn = 0;
    const uint32_t sizes[3] = {na, nb, nc};
    for (int i = 0; i < 3; i++)
        CHECK(gfx_kernel_bind_local(k, (size_t)i + 1, sizes[i], &dyn, kargs, sizeof kargs) ==
                  GFX_OK,
              "%s: bind_local %d", kt.tag, i + 1);
    const uint32_t grid[3] = {1, 1, 1}, block[3] = {64, 1, 1};
    gfx_launch_options o = {.dynamic_lds = dyn};
    gfx_result lr = gfx_launch(kt.dev, k, grid, block, kargs, sizeof kargs, &o, NULL);
    if (lr != GFX_OK) {
        CHECK(0, "%s: launch failed: %s", kt.tag, gfx_device_error(kt.dev));
        return;
    }
    gfx_memcpy_dtoh(kt.dev, out, dout, sizeof out);
    uint32_t a = align_up(info.group_segment_fixed_size, 4);
    uint32_t b = align_up(a + na, 2), c = align_up(b + nb, 8);
    CHECK((uint32_t)out[64] == a && (uint32_t)out[65] == b && (uint32_t)out[66] == c,
          "%s: LDS addresses %d %d %d, want %u %u %u", kt.tag, out[64], out[65], out[66], a, b, c);
    int bad = 0;
    for (int i = 0; i < 64; i++) {
        int want = 6 * (63 - i) + 100 + i % 5 + n;
        if (out[i] != want && bad++ < 3)
            CHECK(0, "%s: out[%d] = %d, want %d", kt.tag, i, out[i], want);
    }
    CHECK(bad == 0, "%s: %d wrong elements", kt.tag, bad);

    CHECK(dyn == c + nc - info.group_segment_fixed_size, "%s: dynamic LDS %u, want %u", kt.tag, dyn,
          c + nc - info.group_segment_fixed_size);
    /* more LDS than the architecture has: refused, and the total left as it was */
    uint32_t huge = kt.gfx950 ? 160 * 1024 : 64 * 1024, before = dyn;
    CHECK(gfx_kernel_bind_local(k, 2, huge, &dyn, kargs, sizeof kargs) == GFX_ERR_RESOURCE &&
              dyn == before,
          "%s: oversized __local accepted", kt.tag);
    /* gfx_kernel_bind_local: only for __local pointers, placed after the caller's dynamic LDS */
    memset(kargs, 0, sizeof kargs);
    dyn = 100;
    CHECK(gfx_kernel_bind_local(k, 0, 4, &dyn, kargs, sizeof kargs) == GFX_ERR_INVALID &&
              dyn == 100,
          "%s: bind_local accepted a global pointer", kt.tag);
    CHECK(gfx_kernel_bind_local(k, 3, 8, &dyn, kargs, sizeof kargs) == GFX_OK &&
              ai[3].pointee_align == 8,
          "%s: bind_local failed (pointee_align %u)", kt.tag, ai[3].pointee_align);
    uint32_t off;
    memcpy(&off, kargs + ai[3].offset, 4);
    uint32_t want = align_up(info.group_segment_fixed_size + 100, 8);
    CHECK(off == want && dyn == want + 8 - info.group_segment_fixed_size,
          "%s: bind_local placed at %u (dynamic %u), want %u", kt.tag, off, dyn, want);
    gfx_buffer_free(kt.dev, dout);
}

int main(void) {
    static const kt_test tests[] = {t_locals};
    if (kt_run_all("local_args", "", tests, 1))
        return 1;
    if (kt_run_rdna("local_args", "", tests, 1)) /* gfx1100/gfx1201, wave32 and wave64 */
        return 1;
    return check_summary("test_local_args");
}
