/* nvtegra-bench - libnvtegra performance on a real Jetson Orin, side by side with the CUDA
 * driver API (libcuda.so.1 via dlopen) when present.  Prints one JSON object:
 *   alloc latency (1 MiB alloc+map+free, p50/p99 us), copy bandwidth H2D/D2H (memcpy into
 *   unified memory after a sync) and D2D (copy engine), kernel launch latency (launch + wait,
 *   p50/p99 us) and f32/f16 matmul GFLOPS (kernels built with nvcc, 1024^3, spot-checked).
 * Kernel benchmarks need nvcc; without it they are reported as null.
 * Exit status: 0, 1 on an error, 77 if there is no nvgpu device (nothing measured). */
#include "suites.h"

#include <dlfcn.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

static const char bench_cu[] =
    "#include <cuda_fp16.h>\n"
    "extern \"C\" __global__ void nop(int x) { (void)x; }\n"
    "#define T 16\n"
    "#define MM(name, E, load, store)                                                   \\\n"
    "extern \"C\" __global__ void name(const E *a, const E *b, E *c, int n) {      \\\n"
    "  __shared__ E ta[T][T], tb[T][T];                                               \\\n"
    "  int r = blockIdx.y * T + threadIdx.y, col = blockIdx.x * T + threadIdx.x;      \\\n"
    "  float acc = 0;                                                                 \\\n"
    "  for (int k = 0; k < n; k += T) {                                               \\\n"
    "    ta[threadIdx.y][threadIdx.x] = a[r * n + k + threadIdx.x];                   \\\n"
    "    tb[threadIdx.y][threadIdx.x] = b[(k + threadIdx.y) * n + col];               \\\n"
    "    __syncthreads();                                                             \\\n"
    "    for (int j = 0; j < T; j++)                                                  \\\n"
    "      acc += load(ta[threadIdx.y][j]) * load(tb[j][threadIdx.x]);                \\\n"
    "    __syncthreads();                                                             \\\n"
    "  }                                                                              \\\n"
    "  c[r * n + col] = store(acc);                                                   \\\n"
    "}\n"
    "#define ID(x) (x)\n"
    "MM(mm_f32, float, ID, ID)\n"
    "MM(mm_f16, __half, __half2float, __float2half)\n";

#define N 1024
#define REPS 200

static double now_us(void) {
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec * 1e6 + (double)ts.tv_nsec / 1e3;
}

static int cmp_d(const void *a, const void *b) {
    double x = *(const double *)a, y = *(const double *)b;
    return x < y ? -1 : x > y;
}

static void print_pct(const char *name, double *v, int n, const char *sep) {
    qsort(v, (size_t)n, sizeof *v, cmp_d);
    printf("    \"%s\": {\"p50\": %.2f, \"p99\": %.2f}%s\n", name, v[n / 2], v[n * 99 / 100], sep);
}

/* f32 -> f16 bits (round to nearest even; inputs here are small integers, exact). */
static uint16_t f2h(float f) {
    uint32_t x;
    memcpy(&x, &f, 4);
    uint32_t sign = (x >> 16) & 0x8000, e = (x >> 23) & 0xff, m = x & 0x7fffff;
    if (!e)
        return (uint16_t)sign;
    int he = (int)e - 127 + 15;
    return (uint16_t)(sign | (uint32_t)he << 10 | m >> 13);
}

static float h2f(uint16_t h) {
    uint32_t sign = (uint32_t)(h & 0x8000) << 16, e = (h >> 10) & 0x1f, m = h & 0x3ff;
    uint32_t x = e ? sign | (e - 15 + 127) << 23 | m << 13 : sign;
    float f;
    memcpy(&f, &x, 4);
    return f;
}

/* ---- libnvtegra --------------------------------------------------------------------------- */

static int bench_nvtegra(nvt_dev *dev, const nvt_module *mod) {
    nvt_queue *q;
    if (nvt_queue_create(dev, NULL, &q)) {
        fprintf(stderr, "nvtegra-bench: %s\n", nvt_dev_error(dev));
        return 1;
    }
    double lat[REPS];
    printf("  \"nvtegra\": {\n");
    for (int i = 0; i < REPS; i++) {
        nvt_mem *m;
        double t = now_us();
        if (nvt_mem_alloc(dev, 1 << 20, 0, &m))
            return fprintf(stderr, "nvtegra-bench: %s\n", nvt_dev_error(dev)), 1;
        nvt_mem_free(dev, m);
        lat[i] = now_us() - t;
    }
    print_pct("alloc_1mib_us", lat, REPS, ",");
    size_t bytes = 64u << 20;
    nvt_mem *a, *b;
    char *host = malloc(bytes);
    if (!host || nvt_mem_alloc(dev, bytes, 0, &a) || nvt_mem_alloc(dev, bytes, 0, &b))
        return fprintf(stderr, "nvtegra-bench: %s\n", nvt_dev_error(dev)), 1;
    memset(host, 1, bytes);
    double t = now_us();
    for (int i = 0; i < 5; i++)
        nvt_memcpy_to_device(q, a, 0, host, bytes);
    printf("    \"h2d_gbps\": %.2f,\n", 5.0 * (double)bytes / (now_us() - t) / 1e3);
    t = now_us();
    for (int i = 0; i < 5; i++)
        nvt_memcpy_from_device(q, host, a, 0, bytes);
    printf("    \"d2h_gbps\": %.2f,\n", 5.0 * (double)bytes / (now_us() - t) / 1e3);
    t = now_us();
    for (int i = 0; i < 5; i++)
        nvt_copy(q, b->gpu_va, a->gpu_va, bytes, NULL);
    int rc = nvt_queue_sync(q, 30000);
    double d2d = 5.0 * (double)bytes / (now_us() - t) / 1e3;
    if (rc)
        printf("    \"d2d_gbps\": null,\n");
    else
        printf("    \"d2d_gbps\": %.2f,\n", d2d);
    free(host);
    const nvt_kernel_info *kn = mod ? nvt_module_kernel(mod, "nop") : NULL;
    nvt_kernel *k;
    if (kn && !nvt_kernel_load(dev, kn, &k)) {
        int x = 0;
        const void *args[1] = {&x};
        uint32_t one[3] = {1, 1, 1};
        for (int i = 0; i < REPS; i++) {
            uint64_t sig;
            double t0 = now_us();
            if (nvt_launch(q, k, one, one, args, 1, &sig) || nvt_queue_wait(q, sig, 5000))
                return fprintf(stderr, "nvtegra-bench: %s\n", nvt_dev_error(dev)), 1;
            lat[i] = now_us() - t0;
        }
        print_pct("launch_us", lat, REPS, ",");
        nvt_kernel_unload(dev, k);
    } else {
        printf("    \"launch_us\": null,\n");
    }
    const char *names[2] = {"mm_f32", "mm_f16"};
    for (int v = 0; v < 2; v++) {
        const nvt_kernel_info *ki = mod ? nvt_module_kernel(mod, names[v]) : NULL;
        const char *sep = v ? "" : ",";
        nvt_mem *ma, *mb, *mc;
        size_t el = v ? 2 : 4, sz = (size_t)N * N * el;
        if (!ki || nvt_kernel_load(dev, ki, &k) || nvt_mem_alloc(dev, sz, 0, &ma) ||
            nvt_mem_alloc(dev, sz, 0, &mb) || nvt_mem_alloc(dev, sz, 0, &mc)) {
            printf("    \"matmul_%s_gflops\": null%s\n", v ? "f16" : "f32", sep);
            continue;
        }
        for (size_t i = 0; i < (size_t)N * N; i++) {
            float x = (float)(i % 7), y = (float)(i % 5);
            if (v) {
                ((uint16_t *)ma->cpu)[i] = f2h(x);
                ((uint16_t *)mb->cpu)[i] = f2h(y);
            } else {
                ((float *)ma->cpu)[i] = x;
                ((float *)mb->cpu)[i] = y;
            }
        }
        int n = N;
        const void *args[4] = {&ma->gpu_va, &mb->gpu_va, &mc->gpu_va, &n};
        uint32_t grid[3] = {N / 16, N / 16, 1}, block[3] = {16, 16, 1};
        t = now_us();
        for (int r = 0; r < 5; r++)
            nvt_launch(q, k, grid, block, args, 4, NULL);
        rc = nvt_queue_sync(q, 60000);
        double gf = 5.0 * 2.0 * N * (double)N * N / (now_us() - t) / 1e3;
        /* spot check c[r][c] = sum_k a[r][k] * b[k][c] on the CPU */
        int ok = rc == 0;
        for (int s = 0; s < 16 && ok; s++) {
            int r = (s * 97) % N, c = (s * 193) % N;
            double want = 0;
            for (int kk = 0; kk < N; kk++)
                want += (double)((r * N + kk) % 7) * (double)((kk * N + c) % 5);
            double got = v ? h2f(((uint16_t *)mc->cpu)[r * N + c]) : ((float *)mc->cpu)[r * N + c];
            ok = fabs(got - want) <= (v ? want * 1e-2 + 1 : want * 1e-5 + 1e-3);
        }
        printf("    \"matmul_%s_gflops\": %.1f, \"matmul_%s_verified\": %s%s\n", v ? "f16" : "f32",
               gf, v ? "f16" : "f32", ok ? "true" : "false", sep);
        nvt_mem_free(dev, ma);
        nvt_mem_free(dev, mb);
        nvt_mem_free(dev, mc);
        nvt_kernel_unload(dev, k);
    }
    printf("  },\n");
    nvt_mem_free(dev, a);
    nvt_mem_free(dev, b);
    nvt_queue_destroy(q);
    return 0;
}

/* ---- the CUDA driver API, for comparison -------------------------------------------------- */

typedef int (*cu_i)(unsigned);
typedef int (*cu_dev_get)(int *, int);
typedef int (*cu_ctx_retain)(void **, int);
typedef int (*cu_ctx_set)(void *);
typedef int (*cu_void)(void);
typedef int (*cu_mod_load)(void **, const void *);
typedef int (*cu_mod_fn)(void **, void *, const char *);
typedef int (*cu_launch)(void *, unsigned, unsigned, unsigned, unsigned, unsigned, unsigned,
                         unsigned, void *, void **, void **);
typedef int (*cu_alloc)(unsigned long long *, size_t);
typedef int (*cu_free)(unsigned long long);
typedef int (*cu_dtod)(unsigned long long, unsigned long long, size_t);

static void bench_cuda(const void *cubin) {
    void *h = dlopen("libcuda.so.1", RTLD_NOW);
    if (!h) {
        printf("  \"cuda\": null\n");
        return;
    }
#define SYM(T, name) T name = (T)dlsym(h, #name)
    SYM(cu_i, cuInit);
    SYM(cu_dev_get, cuDeviceGet);
    SYM(cu_ctx_retain, cuDevicePrimaryCtxRetain);
    SYM(cu_ctx_set, cuCtxSetCurrent);
    SYM(cu_void, cuCtxSynchronize);
    SYM(cu_mod_load, cuModuleLoadData);
    SYM(cu_mod_fn, cuModuleGetFunction);
    SYM(cu_launch, cuLaunchKernel);
    cu_alloc mem_alloc = (cu_alloc)dlsym(h, "cuMemAlloc_v2");
    cu_free mem_free = (cu_free)dlsym(h, "cuMemFree_v2");
    cu_dtod dtod = (cu_dtod)dlsym(h, "cuMemcpyDtoD_v2");
#undef SYM
    int dev;
    void *ctx;
    if (!cuInit || !cuDeviceGet || !cuDevicePrimaryCtxRetain || !cuCtxSetCurrent ||
        !cuCtxSynchronize || !mem_alloc || !mem_free || !dtod || cuInit(0) ||
        cuDeviceGet(&dev, 0) || cuDevicePrimaryCtxRetain(&ctx, dev) || cuCtxSetCurrent(ctx)) {
        printf("  \"cuda\": null, \"cuda_note\": \"libcuda.so.1 present but unusable\"\n");
        dlclose(h);
        return;
    }
    printf("  \"cuda\": {\n");
    double lat[REPS];
    for (int i = 0; i < REPS; i++) {
        unsigned long long p;
        double t = now_us();
        mem_alloc(&p, 1 << 20);
        mem_free(p);
        lat[i] = now_us() - t;
    }
    print_pct("alloc_1mib_us", lat, REPS, ",");
    size_t bytes = 64u << 20;
    unsigned long long a, b;
    if (!mem_alloc(&a, bytes) && !mem_alloc(&b, bytes)) {
        double t = now_us();
        for (int i = 0; i < 5; i++)
            dtod(b, a, bytes);
        cuCtxSynchronize();
        printf("    \"d2d_gbps\": %.2f,\n", 5.0 * (double)bytes / (now_us() - t) / 1e3);
        mem_free(a);
        mem_free(b);
    }
    void *mod, *fn;
    if (cubin && cuModuleLoadData && cuModuleGetFunction && cuLaunchKernel &&
        !cuModuleLoadData(&mod, cubin) && !cuModuleGetFunction(&fn, mod, "nop")) {
        int x = 0;
        void *args[1] = {&x};
        for (int i = 0; i < REPS; i++) {
            double t = now_us();
            cuLaunchKernel(fn, 1, 1, 1, 1, 1, 1, 0, NULL, args, NULL);
            cuCtxSynchronize();
            lat[i] = now_us() - t;
        }
        print_pct("launch_us", lat, REPS, "");
    } else {
        printf("    \"launch_us\": null\n");
    }
    printf("  }\n");
    dlclose(h);
}

int main(int argc, char **argv) {
    (void)argv;
    if (argc > 1) {
        fprintf(stderr, "usage: nvtegra-bench   (prints JSON; needs a Jetson Orin)\n");
        return 2;
    }
    nvt_dev *dev;
    char err[256];
    if (nvt_dev_open(NULL, &dev, err, sizeof err) < 0) {
        fprintf(stderr, "nvtegra-bench: %s\n", err);
        return strstr(err, "no nvgpu device found") ? NVT_EXIT_SKIP : 1;
    }
    void *cubin = NULL;
    size_t size = 0;
    nvt_module *mod = NULL;
    if (nvt_nvcc_cubin(bench_cu, &cubin, &size) == 0 &&
        nvt_module_parse(cubin, size, &mod, err, sizeof err) < 0)
        fprintf(stderr, "nvtegra-bench: benchmark cubin: %s\n", err);
    const nvt_info *in = nvt_dev_info(dev);
    printf("{\n  \"device\": {\"node\": \"%s\", \"abi\": \"r%d\", \"sm\": \"0x%x\"},\n",
           in->ctrl_path, in->abi, in->sm_version);
    printf("  \"kernels\": %s,\n", mod ? "\"nvcc sm_87\"" : "null");
    int rc = bench_nvtegra(dev, mod);
    nvt_dev_close(dev);
    if (!rc)
        bench_cuda(cubin);
    printf("}\n");
    nvt_module_destroy(mod);
    free(cubin);
    return rc;
}
