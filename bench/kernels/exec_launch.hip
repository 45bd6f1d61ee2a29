// exec_launch.hip - the launch round trip of an unmodified HIP program under `gfxemu exec`
// (bench/b_exec.sh): N launches of a one-wave kernel, each waited for with
// hipDeviceSynchronize(), then N hipMemcpy device-to-host round trips of 4 bytes; with a second
// argument G, the host first sleeps G microseconds before each (the queue has gone idle).  Prints
// "launch_us <median microseconds> memcpy_us <median> ok <0|1>"; ok checks that every launch
// ran (the counter the kernel increments equals N).
#include <hip/hip_runtime.h>

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <thread>
#include <vector>

__global__ void bump(unsigned *counter) {
    if (threadIdx.x == 0)
        atomicAdd(counter, 1u);
}

static double median(std::vector<double> v) {
    std::sort(v.begin(), v.end());
    return v[v.size() / 2];
}

int main(int argc, char **argv) {
    int n = argc > 1 ? atoi(argv[1]) : 100, gap = argc > 2 ? atoi(argv[2]) : 0;
    unsigned *d = nullptr, h = 0;
    if (hipMalloc(&d, sizeof *d) != hipSuccess || hipMemset(d, 0, sizeof *d) != hipSuccess)
        return 1;
    bump<<<1, 64>>>(d); // the first launch loads the code object: not timed
    if (hipDeviceSynchronize() != hipSuccess)
        return 1;
    std::vector<double> launch, copy;
    for (int i = 0; i < n; i++) {
        if (gap)
            std::this_thread::sleep_for(std::chrono::microseconds(gap));
        auto t0 = std::chrono::steady_clock::now();
        bump<<<1, 64>>>(d);
        if (hipDeviceSynchronize() != hipSuccess)
            return 1;
        launch.push_back(std::chrono::duration<double, std::micro>(
                             std::chrono::steady_clock::now() - t0).count());
    }
    for (int i = 0; i < n; i++) {
        if (gap)
            std::this_thread::sleep_for(std::chrono::microseconds(gap));
        auto t0 = std::chrono::steady_clock::now();
        if (hipMemcpy(&h, d, sizeof h, hipMemcpyDeviceToHost) != hipSuccess)
            return 1;
        copy.push_back(std::chrono::duration<double, std::micro>(
                           std::chrono::steady_clock::now() - t0).count());
    }
    printf("launch_us %.1f memcpy_us %.1f ok %d\n", median(launch), median(copy),
           h == (unsigned)n + 1);
    return 0;
}
