// hip_programs.hip - HIP programs run unmodified under `gfxemu exec` by test_hip.sh.
// Built by Debian's hipcc (ROCm 5.2): hipcc --offload-arch=gfx90a -O2.  Each subcommand checks
// its results against a C reference computed here on the host and prints "PASS name" or
// "FAIL name: ..." (exit status 1).
#include <hip/hip_runtime.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define CHECK(x)                                                                                   \
    do {                                                                                           \
        hipError_t e_ = (x);                                                                       \
        if (e_ != hipSuccess) {                                                                    \
            printf("FAIL %s: %s returned %s\n", name, #x, hipGetErrorString(e_));                  \
            return 1;                                                                              \
        }                                                                                          \
    } while (0)

__global__ void vadd(const float *a, const float *b, float *c, int n) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n)
        c[i] = a[i] + b[i];
}

// Sum of each block's 256 inputs through LDS, a tree with barriers.
__global__ void block_sum(const int *in, int *out) {
    __shared__ int s[256];
    int t = threadIdx.x;
    s[t] = in[blockIdx.x * 256 + t];
    __syncthreads();
    for (int w = 128; w > 0; w >>= 1) {
        if (t < w)
            s[t] += s[t + w];
        __syncthreads();
    }
    if (t == 0)
        out[blockIdx.x] = s[0];
}

__global__ void histogram(const unsigned *in, unsigned *bins, int n) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n)
        atomicAdd(&bins[in[i] % 16], 1u);
}

__global__ void scale2d(float *m, int w, float f) {
    int x = blockIdx.x * blockDim.x + threadIdx.x, y = blockIdx.y * blockDim.y + threadIdx.y;
    m[y * w + x] = m[y * w + x] * f + (float)y;
}

__global__ void wild_store(int *p) { p[threadIdx.x] = 42; }

__global__ void hello(int x) {
    if (threadIdx.x < 3)
        printf("hello from lane %d of block %d, x = %d\n", (int)threadIdx.x, (int)blockIdx.x, x);
}

__global__ void fill(int *p, int v) {
    p[blockIdx.x * 256 + threadIdx.x] = v + blockIdx.x * 256 + threadIdx.x;
}

static int test_vadd(const char *name) {
    const int n = 1 << 16;
    float *a = (float *)malloc(n * 4), *b = (float *)malloc(n * 4), *c = (float *)malloc(n * 4);
    for (int i = 0; i < n; i++) {
        a[i] = (float)i;
        b[i] = 0.5f * (float)i + 1.0f;
    }
    float *da, *db, *dc;
    CHECK(hipMalloc(&da, n * 4));
    CHECK(hipMalloc(&db, n * 4));
    CHECK(hipMalloc(&dc, n * 4));
    CHECK(hipMemcpy(da, a, n * 4, hipMemcpyHostToDevice));
    CHECK(hipMemcpy(db, b, n * 4, hipMemcpyHostToDevice));
    hipLaunchKernelGGL(vadd, dim3(n / 256), dim3(256), 0, 0, da, db, dc, n);
    CHECK(hipGetLastError());
    CHECK(hipMemcpy(c, dc, n * 4, hipMemcpyDeviceToHost));
    for (int i = 0; i < n; i++)
        if (c[i] != a[i] + b[i]) {
            printf("FAIL %s: c[%d] = %g, expected %g\n", name, i, c[i], a[i] + b[i]);
            return 1;
        }
    printf("PASS %s\n", name);
    return 0;
}

// Host -> device -> device -> pinned host, with an offset sub-range copy.
static int test_memcpy(const char *name) {
    const int n = 100000;
    unsigned char *src = (unsigned char *)malloc(n), *pinned;
    for (int i = 0; i < n; i++)
        src[i] = (unsigned char)(i * 7 + 3);
    unsigned char *d1, *d2;
    CHECK(hipMalloc(&d1, n));
    CHECK(hipMalloc(&d2, n));
    CHECK(hipHostMalloc(&pinned, n));
    memset(pinned, 0, n);
    CHECK(hipMemcpy(d1, src, n, hipMemcpyHostToDevice));
    CHECK(hipMemset(d2, 0xab, n));
    CHECK(hipMemcpy(d2 + 1000, d1 + 17, 50000, hipMemcpyDeviceToDevice));
    CHECK(hipMemcpy(pinned, d2, n, hipMemcpyDeviceToHost));
    for (int i = 0; i < n; i++) {
        unsigned char want = (i >= 1000 && i < 51000) ? src[i - 1000 + 17] : 0xab;
        if (pinned[i] != want) {
            printf("FAIL %s: byte %d = 0x%02x, expected 0x%02x\n", name, i, pinned[i], want);
            return 1;
        }
    }
    CHECK(hipHostFree(pinned));
    printf("PASS %s\n", name);
    return 0;
}

static int test_shared(const char *name) {
    const int blocks = 64, n = blocks * 256;
    int *in = (int *)malloc(n * 4), out[64];
    for (int i = 0; i < n; i++)
        in[i] = (i * 37) % 1000 - 500;
    int *din, *dout;
    CHECK(hipMalloc(&din, n * 4));
    CHECK(hipMalloc(&dout, blocks * 4));
    CHECK(hipMemcpy(din, in, n * 4, hipMemcpyHostToDevice));
    hipLaunchKernelGGL(block_sum, dim3(blocks), dim3(256), 0, 0, din, dout);
    CHECK(hipMemcpy(out, dout, blocks * 4, hipMemcpyDeviceToHost));
    for (int b = 0; b < blocks; b++) {
        int want = 0;
        for (int t = 0; t < 256; t++)
            want += in[b * 256 + t];
        if (out[b] != want) {
            printf("FAIL %s: block %d sum %d, expected %d\n", name, b, out[b], want);
            return 1;
        }
    }
    printf("PASS %s\n", name);
    return 0;
}

static int test_atomics(const char *name) {
    const int n = 50000;
    unsigned *in = (unsigned *)malloc(n * 4), bins[16], want[16] = {0};
    for (int i = 0; i < n; i++) {
        in[i] = (unsigned)(i * 2654435761u) >> 7;
        want[in[i] % 16]++;
    }
    unsigned *din, *dbins;
    CHECK(hipMalloc(&din, n * 4));
    CHECK(hipMalloc(&dbins, 64));
    CHECK(hipMemcpy(din, in, n * 4, hipMemcpyHostToDevice));
    CHECK(hipMemset(dbins, 0, 64));
    hipLaunchKernelGGL(histogram, dim3((n + 255) / 256), dim3(256), 0, 0, din, dbins, n);
    CHECK(hipMemcpy(bins, dbins, 64, hipMemcpyDeviceToHost));
    for (int b = 0; b < 16; b++)
        if (bins[b] != want[b]) {
            printf("FAIL %s: bin %d = %u, expected %u\n", name, b, bins[b], want[b]);
            return 1;
        }
    printf("PASS %s\n", name);
    return 0;
}

// Two streams, events between them, and a 2-D grid.
static int test_streams(const char *name) {
    const int w = 64, h = 32, n = w * h;
    float m[64 * 32], r[64 * 32];
    for (int i = 0; i < n; i++)
        m[i] = (float)(i % 97);
    float *dm;
    hipStream_t s1, s2;
    hipEvent_t done, t0, t1;
    CHECK(hipMalloc(&dm, n * 4));
    CHECK(hipStreamCreate(&s1));
    CHECK(hipStreamCreate(&s2));
    CHECK(hipEventCreate(&done));
    CHECK(hipEventCreate(&t0));
    CHECK(hipEventCreate(&t1));
    CHECK(hipMemcpyAsync(dm, m, n * 4, hipMemcpyHostToDevice, s1));
    CHECK(hipEventRecord(t0, s1));
    hipLaunchKernelGGL(scale2d, dim3(w / 16, h / 8), dim3(16, 8), 0, s1, dm, w, 2.0f);
    CHECK(hipEventRecord(done, s1));
    CHECK(hipEventRecord(t1, s1));
    CHECK(hipStreamWaitEvent(s2, done, 0));
    hipLaunchKernelGGL(scale2d, dim3(w / 16, h / 8), dim3(16, 8), 0, s2, dm, w, 3.0f);
    CHECK(hipMemcpyAsync(r, dm, n * 4, hipMemcpyDeviceToHost, s2));
    CHECK(hipStreamSynchronize(s2));
    /* s2 waited for `done` only: t1, recorded after it on s1, may still be pending (the elapsed
     * time is then hipErrorNotReady, as HIP defines it; seen under load) */
    CHECK(hipEventSynchronize(t1));
    float ms = -1;
    CHECK(hipEventElapsedTime(&ms, t0, t1));
    for (int i = 0; i < n; i++) {
        float y = (float)(i / w), want = (m[i] * 2.0f + y) * 3.0f + y;
        if (r[i] != want) {
            printf("FAIL %s: element %d = %g, expected %g\n", name, i, r[i], want);
            return 1;
        }
    }
    if (!(ms >= 0)) {
        printf("FAIL %s: hipEventElapsedTime gave %g ms\n", name, ms);
        return 1;
    }
    printf("PASS %s\n", name);
    return 0;
}

// Device printf (HIP's hostcall: the kernel waits for the host's answer in host memory).
static int test_printf(const char *name) {
    hipLaunchKernelGGL(hello, dim3(2), dim3(64), 0, 0, 41 + 1);
    CHECK(hipDeviceSynchronize());
    fflush(stdout);
    printf("PASS %s\n", name);
    return 0;
}

// Two GPUs (gfxemu exec --devices 2): fill on device 0, hipMemcpyPeer to device 1, a kernel on
// device 1 overwrites the first 256 elements.
static int test_peer(const char *name) {
    int n = 0;
    CHECK(hipGetDeviceCount(&n));
    if (n != 2) {
        printf("FAIL %s: %d devices, expected 2\n", name, n);
        return 1;
    }
    const int N = 4096;
    int *a, *b;
    static int h[4096];
    CHECK(hipSetDevice(0));
    CHECK(hipMalloc(&a, N * 4));
    hipLaunchKernelGGL(fill, dim3(N / 256), dim3(256), 0, 0, a, 5);
    CHECK(hipDeviceSynchronize());
    CHECK(hipSetDevice(1));
    CHECK(hipMalloc(&b, N * 4));
    CHECK(hipMemcpyPeer(b, 1, a, 0, N * 4));
    hipLaunchKernelGGL(fill, dim3(1), dim3(256), 0, 0, b, 1000000);
    CHECK(hipMemcpy(h, b, N * 4, hipMemcpyDeviceToHost));
    for (int i = 0; i < N; i++) {
        int want = i < 256 ? 1000000 + i : 5 + i;
        if (h[i] != want) {
            printf("FAIL %s: element %d = %d, expected %d\n", name, i, h[i], want);
            return 1;
        }
    }
    printf("PASS %s\n", name);
    return 0;
}

// Two streams at the same time: a kernel on stream 1 spins until a kernel launched afterwards
// on stream 2 sets the flag (HIP gives each stream its own hardware queue; the card runs them
// concurrently), then writes 1000 * flag + i.
__global__ void spin_on_flag(volatile unsigned *flag, unsigned *out) {
    while (*flag == 0)
        __builtin_amdgcn_s_sleep(2);
    out[threadIdx.x] = 1000u * *flag + threadIdx.x;
}
__global__ void set_flag(volatile unsigned *flag, unsigned v) {
    if (threadIdx.x == 0)
        *flag = v;
}

static int test_concurrent(const char *name) {
    unsigned *flag, *out, r[64];
    hipStream_t s1, s2;
    CHECK(hipMalloc(&flag, 4));
    CHECK(hipMalloc(&out, sizeof r));
    CHECK(hipMemset(flag, 0, 4));
    CHECK(hipDeviceSynchronize());
    CHECK(hipStreamCreate(&s1));
    CHECK(hipStreamCreate(&s2));
    hipLaunchKernelGGL(spin_on_flag, dim3(1), dim3(64), 0, s1, flag, out);
    hipLaunchKernelGGL(set_flag, dim3(1), dim3(64), 0, s2, flag, 7u);
    CHECK(hipStreamSynchronize(s2));
    CHECK(hipStreamSynchronize(s1));
    CHECK(hipMemcpy(r, out, sizeof r, hipMemcpyDeviceToHost));
    for (unsigned i = 0; i < 64; i++)
        if (r[i] != 7000u + i) {
            printf("FAIL %s: out[%u] = %u, expected %u\n", name, i, r[i], 7000u + i);
            return 1;
        }
    printf("PASS %s\n", name);
    return 0;
}

// A store to an address no allocation covers: the GPU faults; ROCr reports it and aborts.
static int test_fault(const char *name) {
    (void)name;
    hipLaunchKernelGGL(wild_store, dim3(1), dim3(64), 0, 0, (int *)0x10000);
    hipDeviceSynchronize();
    printf("FAIL fault: the program went on after the faulting kernel\n");
    return 1;
}

int main(int argc, char **argv) {
    static const struct {
        const char *name;
        int (*fn)(const char *);
    } tests[] = {
        {"vadd", test_vadd},       {"memcpy", test_memcpy},   {"shared", test_shared},
        {"atomics", test_atomics}, {"streams", test_streams}, {"fault", test_fault},
        {"printf", test_printf},   {"peer", test_peer},       {"concurrent", test_concurrent}};
    int fails = 0, ran = 0;
    for (int a = 1; a < argc; a++)
        for (unsigned t = 0; t < sizeof tests / sizeof tests[0]; t++)
            if (strcmp(argv[a], tests[t].name) == 0) {
                fails += tests[t].fn(tests[t].name);
                ran++;
            }
    if (!ran) {
        printf("usage: hip_programs TEST... (vadd memcpy shared atomics streams printf peer "
               "concurrent fault)\n");
        return 2;
    }
    return fails ? 1 : 0;
}
