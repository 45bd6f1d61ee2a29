/* test_gemm.c - the tiled MFMA GEMM kernels of gemm.cl, compiled by clang-22 at -O3 for gfx950
 * and gfx942, on square and ragged shapes, against the double-precision reference of
 * tests/common/workloads.c within the error bound of f32 accumulation of exact products. */
#include "common/check.h"
#include "common/workloads.h"
#include "gfxemu.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static const struct {
    const char *name;
    wl_type type;
    int transb, gfx950_only;
} kernels[] = {
    {"gemm_bf16_16", WL_BF16, 0, 0},     {"gemm_bf16_32", WL_BF16, 0, 0},
    {"gemm_bf16_16_tb", WL_BF16, 1, 0},  {"gemm_bf16_32_tb", WL_BF16, 1, 0},
    {"gemm_f16_16", WL_F16, 0, 0},       {"gemm_f16_32", WL_F16, 0, 0},
    {"gemm_fp8_16", WL_FP8, 0, 0},       {"gemm_fp8_32", WL_FP8, 0, 0},
    {"gemm_fp8_16_tb", WL_FP8, 1, 0},    {"gemm_bf16x_16", WL_BF16, 0, 1},
    {"gemm_bf16x_32_tb", WL_BF16, 1, 1}, {"gemm_f16x_16", WL_F16, 0, 1},
    {"gemm_bf16_16_big", WL_BF16, 0, 0}, {"gemm_fp8_32_big", WL_FP8, 1, 0},
    {"gemm_fp8_16_big", WL_FP8, 1, 0},
};

/* M, N, K: square, ragged in every dimension (not multiples of the 64x64 block, K not a
 * multiple of the step, odd K so the rows of A are not 16-byte aligned), and thin. */
static const int shapes[][3] = {{256, 256, 256}, {96, 80, 72}, {70, 130, 37}, {16, 64, 512}};

static void run(gfx_device *dev, gfx_module *mod, int k, const int *shape, int gfx950,
                const char *arch) {
    int M = shape[0], N = shape[1], K = shape[2];
    wl_type t = kernels[k].type;
    size_t es = wl_size(t);
    uint64_t seed = 0x9e3779b97f4a7c15ull ^ (uint64_t)(M * 131 + N * 7 + K + k * 1000);
    void *A = malloc((size_t)M * K * es), *B = malloc((size_t)K * N * es);
    float *C = malloc(sizeof(float) * M * N);
    double *ref = malloc(sizeof(double) * M * N), *mag = malloc(sizeof(double) * M * N);
    wl_fill(t, A, (size_t)M * K, &seed, gfx950);
    wl_fill(t, B, (size_t)K * N, &seed, gfx950);
    wl_gemm_ref(t, A, B, kernels[k].transb, M, N, K, gfx950, ref, mag);

    uint64_t dA, dB, dC;
    char what[128];
    snprintf(what, sizeof what, "%s %s %dx%dx%d", arch, kernels[k].name, M, N, K);
    const gfx_kernel *kern;
    int ok = gfx_module_kernel(mod, kernels[k].name, &kern) == GFX_OK &&
             gfx_buffer_alloc(dev, (uint64_t)M * K * es, &dA) == GFX_OK &&
             gfx_buffer_alloc(dev, (uint64_t)K * N * es, &dB) == GFX_OK &&
             gfx_buffer_alloc(dev, sizeof(float) * M * N, &dC) == GFX_OK &&
             gfx_memcpy_htod(dev, dA, A, (uint64_t)M * K * es) == GFX_OK &&
             gfx_memcpy_htod(dev, dB, B, (uint64_t)K * N * es) == GFX_OK;
    CHECK(ok, "%s: set-up failed: %s", what, gfx_device_error(dev));
    if (ok) {
        /* NaN bytes: every element must be written by the kernel */
        memset(C, 0xff, sizeof(float) * M * N);
        gfx_memcpy_htod(dev, dC, C, sizeof(float) * M * N);
        const void *params[] = {&dA, &dB, &dC, &M, &N, &K};
        uint32_t bs = strstr(kernels[k].name, "_big") ? 128 : 64; /* block of C per workgroup */
        uint32_t grid[3] = {((uint32_t)N + bs - 1) / bs, ((uint32_t)M + bs - 1) / bs, 1};
        uint32_t block[3] = {256, 1, 1};
        gfx_stats st;
        gfx_result r = gfx_launch_params(dev, kern, grid, block, params, 6, NULL, &st);
        gfx_fault f;
        gfx_last_fault(dev, &f);
        CHECK(r == GFX_OK, "%s: launch: %s", what, f.kind ? f.message : gfx_device_error(dev));
        if (r == GFX_OK) {
            gfx_memcpy_dtoh(dev, C, dC, sizeof(float) * M * N);
            size_t bad = wl_gemm_compare(C, ref, mag, M, N, K, what);
            CHECK(bad == 0, "%s: %zu of %d elements wrong", what, bad, M * N);
            CHECK(st.mfma > 0, "%s: no MFMA executed", what);
        }
        gfx_buffer_free(dev, dA);
        gfx_buffer_free(dev, dB);
        gfx_buffer_free(dev, dC);
    }
    free(A);
    free(B);
    free(C);
    free(ref);
    free(mag);
}

int main(void) {
    const char *arches[] = {"gfx950", "gfx942"};
    for (int a = 0; a < 2; a++) {
        gfx_arch arch;
        gfx_arch_from_name(arches[a], &arch);
        gfx_module *mod = wl_load("gemm", arches[a], "-O3");
        gfx_device *dev;
        if (gfx_device_create(arch, 2, &dev) != GFX_OK) {
            printf("FAIL cannot create a %s device\n", arches[a]);
            return 1;
        }
        for (size_t k = 0; k < sizeof kernels / sizeof kernels[0]; k++) {
            if (kernels[k].gfx950_only && a == 1) {
                const gfx_kernel *kern;
                CHECK(gfx_module_kernel(mod, kernels[k].name, &kern) != GFX_OK,
                      "gfx942 build unexpectedly has %s", kernels[k].name);
                continue;
            }
            for (size_t s = 0; s < sizeof shapes / sizeof shapes[0]; s++)
                run(dev, mod, (int)k, shapes[s], a == 0, arches[a]);
        }
        gfx_device_free(dev);
        gfx_module_free(mod);
    }
    return check_summary("test_gemm");
}
