/* b_launch.c - first-launch latency: create a device, load the code object, look the kernel up
 * (decodes .text), allocate a buffer, launch a tiny kernel (one wave) and read the result back.
 * Each run starts from nothing but the process (the code object is compiled before timing).
 * Run 0 is also the first use in the process (lazily built tables): reported as "cold_ms". */
#include "bench.h"

#include <stdio.h>
#include <stdlib.h>

int main(void)
{
    const char *co = bench_compile("bench/kernels/bench.cl", "gfx950");
    int runs = bench_runs(), ok = 1;
    double *total = calloc((size_t)runs, sizeof *total), *launch = calloc((size_t)runs, 8);
    double *warm = calloc((size_t)runs, 8);
    for (int r = 0; r < runs; r++) {
        double t0 = bench_now();
        gfx_device *dev = bench_device(1);
        gfx_module *m = bench_load(co);
        const gfx_kernel *k = bench_kernel(m, "tiny");
        uint64_t out = bench_upload(dev, NULL, 64 * 4);
        const void *params[] = {&out};
        launch[r] = bench_launch(dev, k, 1, 64, params, 1, NULL) * 1e3;
        uint32_t got[64], want[64];
        bench_download(dev, got, out, sizeof got);
        total[r] = (bench_now() - t0) * 1e3;
        warm[r] = bench_launch(dev, k, 1, 64, params, 1, NULL) * 1e3;
        for (unsigned l = 0; l < 64; l++)
            want[l] = l * 3u + 1u;
        ok &= bench_check_u32("tiny", got, want, 64);
        gfx_module_free(m);
        gfx_device_free(dev);
    }
    char extra[128];
    snprintf(extra, sizeof extra, "\"unit\":\"ms\",\"cold_ms\":%.4g", total[0]);
    bench_emit("first_launch", "total_ms", total, runs, 1, ok, extra);
    bench_emit("first_launch", "launch_ms", launch, runs, 1, ok, "\"unit\":\"ms\"");
    bench_emit("first_launch", "second_launch_ms", warm, runs, 1, ok, "\"unit\":\"ms\"");

    /* The worker pool's fixed cost: a warm launch of the tiny kernel on 2 workgroups, on 1 and
     * on 2 threads (the second wakes a pool thread and waits for it). */
    static const unsigned threads[] = {1, 2};
    for (int t = 0; t < 2; t++) {
        gfx_device *dev = bench_device(threads[t]);
        gfx_module *m = bench_load(co);
        const gfx_kernel *k = bench_kernel(m, "tiny");
        uint64_t out = bench_upload(dev, NULL, 64 * 4);
        const void *params[] = {&out};
        bench_launch(dev, k, 2, 64, params, 1, NULL);
        for (int r = 0; r < runs; r++)
            warm[r] = bench_launch(dev, k, 2, 64, params, 1, NULL) * 1e3;
        uint32_t got[64], want[64];
        bench_download(dev, got, out, sizeof got);
        for (unsigned l = 0; l < 64; l++)
            want[l] = l * 3u + 1u;
        int ok2 = bench_check_u32("tiny 2 workgroups", got, want, 64);
        bench_emit("pool_launch", "launch_ms", warm, runs, threads[t], ok2,
                   "\"unit\":\"ms\",\"workgroups\":2");
        gfx_module_free(m);
        gfx_device_free(dev);
    }
    free(total);
    free(launch);
    free(warm);
    return 0;
}
