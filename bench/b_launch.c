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
    free(total);
    free(launch);
    free(warm);
    return 0;
}
