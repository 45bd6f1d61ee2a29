/* b_gemm.c - MFMA-bound work: the tiled GEMM kernels of tests/workloads/gemm.cl at M = N = K =
 * 1024 (times BENCH_SCALE) for bf16, f16 and fp8 inputs on gfx950 (64x64 blocks per workgroup, and
 * the MFMA-dense 128x128 blocks of the _big kernels), and flash attention forward +
 * backward (tests/workloads/attention.cl) at sequence length 1024, head dimension 128.
 * Figures: MAC/s (matrix multiply-accumulates of the algorithm, per second of launch time) on 1
 * and 2 threads, and the seconds of the 1024^3 fp8 GEMM.  Each run's output is checked on a
 * sample of 2048 elements against a double-precision dot product (tests/common/workloads.h). */
#include "bench.h"
#include "common/workloads.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static const unsigned threads[] = {1, 2};

static double launch2d(gfx_device *dev, const gfx_kernel *k, uint32_t gx, uint32_t gy,
                       const void *const *params, size_t n)
{
    uint32_t grid[3] = {gx, gy, 1}, block[3] = {256, 1, 1};
    gfx_launch_options opt = {.max_insts = 1ull << 40};
    double t0 = bench_now();
    gfx_result r = gfx_launch_params(dev, k, grid, block, params, n, &opt, NULL);
    double t = bench_now() - t0;
    if (r != GFX_OK) {
        gfx_fault f;
        gfx_last_fault(dev, &f);
        fprintf(stderr, "b_gemm: launch failed: %s\n", f.kind ? f.message : gfx_device_error(dev));
        exit(1);
    }
    return t;
}

/* Check 2048 sampled elements of C (M x N, f32) against double dot products. */
static int check_gemm(wl_type t, const void *A, const void *B, int transb, int M, int N, int K,
                      const float *C, const char *what)
{
    int bad = 0;
    for (int s = 0; s < 2048; s++) {
        int m = (int)(bench_rand() % (uint32_t)M), n = (int)(bench_rand() % (uint32_t)N);
        double want = 0, mag = 0;
        for (int k = 0; k < K; k++) {
            double p = wl_get(t, A, (size_t)m * K + k, 1) *
                       wl_get(t, B, transb ? (size_t)n * K + k : (size_t)k * N + n, 1);
            want += p;
            mag += fabs(p);
        }
        double got = C[(size_t)m * N + n], tol = (K + 2) * ldexp(mag, -24) + ldexp(1, -100);
        if (!(fabs(got - want) <= tol) && bad++ < 3)
            fprintf(stderr, "%s: C[%d][%d] = %.9g, want %.9g\n", what, m, n, got, want);
    }
    return bad == 0;
}

static void gemm(gfx_module *mod, const char *kname, wl_type t, int transb, const char *bench)
{
    if (!bench_case(bench))
        return;
    /* the _big kernels compute 128x128 blocks of C per workgroup, the others 64x64 */
    uint32_t bs = strstr(kname, "_big") ? 128 : 64;
    int M = (int)(1024 * bench_scale()) / (int)bs * (int)bs, N, K;
    if (M < (int)bs)
        M = (int)bs;
    N = K = M;
    size_t es = wl_size(t);
    uint64_t seed = 0x853c49e6748fea9bull;
    void *A = malloc((size_t)M * K * es), *B = malloc((size_t)K * N * es);
    float *C = malloc(sizeof(float) * M * N);
    wl_fill(t, A, (size_t)M * K, &seed, 1);
    wl_fill(t, B, (size_t)K * N, &seed, 1);
    int runs = bench_runs(), ok = 1;
    double *secs = calloc((size_t)runs * 2, sizeof *secs);
    gfx_device *dev[2];
    uint64_t dA[2], dB[2], dC[2];
    for (int d = 0; d < 2; d++) {
        dev[d] = bench_device(threads[d]);
        dA[d] = bench_upload(dev[d], A, (size_t)M * K * es);
        dB[d] = bench_upload(dev[d], B, (size_t)K * N * es);
        dC[d] = bench_upload(dev[d], NULL, sizeof(float) * M * N);
    }
    const gfx_kernel *k = bench_kernel(mod, kname);
    for (int r = 0; r < runs; r++)
        for (int d = 0; d < 2; d++) {
            const void *params[] = {&dA[d], &dB[d], &dC[d], &M, &N, &K};
            secs[d * runs + r] = launch2d(dev[d], k, (uint32_t)N / bs, (uint32_t)M / bs, params, 6);
            if (r == 0 || r == runs - 1) {
                bench_download(dev[d], C, dC[d], sizeof(float) * M * N);
                ok &= check_gemm(t, A, B, transb, M, N, K, C, kname);
            }
        }
    char extra[160];
    snprintf(extra, sizeof extra, "\"unit\":\"MAC/s\",\"kernel\":\"%s\",\"M\":%d,\"N\":%d,\"K\":%d",
             kname, M, N, K);
    double macs = (double)M * N * K;
    for (int d = 0; d < 2; d++) {
        double *rate = malloc(sizeof(double) * runs);
        for (int r = 0; r < runs; r++)
            rate[r] = macs / secs[d * runs + r];
        bench_emit(bench, "macs_per_s", rate, runs, threads[d], ok, extra);
        if (t == WL_FP8)
            bench_emit(bench, "seconds", secs + d * runs, runs, threads[d], ok, extra);
        free(rate);
    }
    for (int d = 0; d < 2; d++)
        gfx_device_free(dev[d]);
    free(A);
    free(B);
    free(C);
    free(secs);
}

int main(void)
{
    gfx_module *mod = wl_load("gemm", "gfx950", "-O3");
    gemm(mod, "gemm_bf16_16", WL_BF16, 0, "gemm_bf16_16x16");
    gemm(mod, "gemm_bf16_32_tb", WL_BF16, 1, "gemm_bf16_32x32_tb");
    gemm(mod, "gemm_f16_32", WL_F16, 0, "gemm_f16_32x32");
    gemm(mod, "gemm_fp8_16", WL_FP8, 0, "gemm_fp8_16x16");
    gemm(mod, "gemm_fp8_32", WL_FP8, 0, "gemm_fp8_32x32");
    gemm(mod, "gemm_bf16_16_big", WL_BF16, 0, "gemm_bf16_16x16_big");
    gemm(mod, "gemm_fp8_16_big", WL_FP8, 1, "gemm_fp8_16x16_big");
    gemm(mod, "gemm_fp8_32_big", WL_FP8, 1, "gemm_fp8_32x32_big");
    gfx_module_free(mod);
    return 0;
}
