/* test_rdna_fp8_kernels.c - clang-22's fp8/bf8 conversion builtins (tests/kernels/rdna_fp8.cl)
 * on gfx1201, wave32 and wave64, -O0..-O3: __builtin_amdgcn_cvt_f32_fp8/bf8 (byte selects),
 * cvt_pk_f32_fp8/bf8 (word selects), cvt_pk_fp8/bf8_f32 (word selects, the old word kept) and
 * cvt_sr_fp8/bf8_f32 (byte selects, the other bytes kept).  Expected values: the OCP format
 * reference in common/fp8_ref.h (none from a gfxemu run).  gfx1100 has no such ops: its build
 * stores nothing and is skipped. */
#include "common/check.h"
#include "common/fp8_ref.h"
#include "common/kernels.h"
#include "gfxemu.h"

#include <stdint.h>
#include <stdio.h>
#include <string.h>

#define G 4u /* workgroups of 64 */
#define N (64u * G)

static int f32_eq(float got, float want) {
    return bits32(got) == bits32(want) || (isnan(got) && isnan(want));
}
static void t_cvt(void) {
    if (strstr(kt.tag, "gfx1100"))
        return;
    static uint32_t in[N], p[2 * N];
    static float f[2 * N], o[8 * N];
    static const uint32_t edge[] = {0x00000000, 0x80000000, 0x3f880000, 0x3f980000,
                                    0x43e80000, 0x43e80001, 0x47600000, 0xc7700000,
                                    0x3b000000, 0x3ac00000, 0x37c00000, 0x7f800000,
                                    0xff800000, 0x7fc00000, 0x3fa12345, 0xc1234567};
    uint64_t seed = 0xf8f8f8f8u;
    for (unsigned i = 0; i < N; i++) {
        /* every code appears in every byte over the 256 work-items */
        in[i] = i | ((i * 7 + 3) & 0xff) << 8 | ((i * 13 + 5) & 0xff) << 16 |
                ((i * 29 + 11) & 0xff) << 24;
        f[2 * i] = from_bits32(i % 2 ? edge[(i / 2) % 16] : (uint32_t)xorshift64(&seed));
        f[2 * i + 1] = i % 3 ? from_bits32(edge[(i * 5) % 16])
                             : (float)((int)((uint32_t)xorshift64(&seed) % 2000) - 1000) / 7.0f;
    }
    uint64_t din = kt_upload(in, sizeof in), df = kt_upload(f, sizeof f),
             dout = kt_upload(NULL, sizeof o), dp = kt_upload(NULL, sizeof p);
    const void *args[] = {&din, &df, &dout, &dp};
    if (kt_launch1("cvt", G, 64, args, 4))
        return;
    gfx_memcpy_dtoh(kt.dev, o, dout, sizeof o);
    gfx_memcpy_dtoh(kt.dev, p, dp, sizeof p);
    int bad = 0;
    for (unsigned i = 0; i < N; i++) {
        uint32_t a = in[i];
        float want[8] = {(float)dec8(a & 0xff, &FP8),       (float)dec8(a >> 24, &FP8),
                         (float)dec8(a >> 8 & 0xff, &BF8),  (float)dec8(a >> 16 & 0xff, &BF8),
                         (float)dec8(a >> 16 & 0xff, &FP8), (float)dec8(a >> 24, &FP8),
                         (float)dec8(a & 0xff, &BF8),       (float)dec8(a >> 8 & 0xff, &BF8)};
        for (int k = 0; k < 8; k++)
            if (!f32_eq(o[8 * i + k], want[k]) && bad++ < 4)
                printf("  %s item %u f32 result %d: %08x want %08x\n", kt.tag, i, k,
                       bits32(o[8 * i + k]), bits32(want[k]));
        float u = f[2 * i], v = f[2 * i + 1];
        uint32_t pk = enc8(u, &FP8, -1) | enc8(v, &FP8, -1) << 8 | enc8(v, &BF8, -1) << 16 |
                      enc8(u, &BF8, -1) << 24;
        uint32_t sr =
            (a & 0x00ff00ffu) | enc8(u, &FP8, a) << 8 | enc8(v, &BF8, a ^ 0x9e3779b9u) << 24;
        static const fmt8 *const pkf[4] = {&FP8, &FP8, &BF8, &BF8}, *const srf[4] = {&FP8, &FP8,
                                                                                     &FP8, &BF8};
        if (!word8_eq(p[2 * i], pk, pkf) && bad++ < 4)
            printf("  %s item %u pk: %08x want %08x\n", kt.tag, i, p[2 * i], pk);
        if (!word8_eq(p[2 * i + 1], sr, srf) && bad++ < 4)
            printf("  %s item %u sr: %08x want %08x\n", kt.tag, i, p[2 * i + 1], sr);
    }
    CHECK(bad == 0, "%s cvt: %d results wrong", kt.tag, bad);
    gfx_buffer_free(kt.dev, din);
    gfx_buffer_free(kt.dev, df);
    gfx_buffer_free(kt.dev, dout);
    gfx_buffer_free(kt.dev, dp);
}

int main(void) {
    static const kt_test tests[] = {t_cvt};
    if (kt_run_rdna("rdna_fp8", "", tests, sizeof tests / sizeof tests[0]))
        return 1;
    return check_summary("test_rdna_fp8_kernels");
}
