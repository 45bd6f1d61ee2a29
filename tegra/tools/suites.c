/* suites.c - nvtegra-check's correctness suites: device info, memory with leak checks, copy
 * engine copies, ring wrap-around, a cross-queue signal chain, and (given a cubin) kernel
 * launches whose results are checked on the CPU. */
#include "suites.h"

#include <dirent.h>
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

const char nvt_scale_cu[] = "extern \"C\" __global__ void scale(float *a, int n, float s)\n"
                            "{\n"
                            "    int i = blockIdx.x * blockDim.x + threadIdx.x;\n"
                            "    if (i < n)\n"
                            "        a[i] *= s;\n"
                            "}\n";

#define TIMEOUT_MS 10000u

typedef struct run {
    const nvt_check_opts *o;
    nvt_dev *dev;
    int failed;
    char why[320];
} run;

int nvt_count_fds(void) {
    DIR *d = opendir("/proc/self/fd");
    int n = 0;
    if (!d)
        return -1;
    while (readdir(d))
        n++;
    closedir(d);
    return n;
}

#define REQUIRE(r, cond, ...)                                                                      \
    do {                                                                                           \
        if (!(cond)) {                                                                             \
            snprintf((r)->why, sizeof(r)->why, __VA_ARGS__);                                       \
            return -1;                                                                             \
        }                                                                                          \
    } while (0)

static int suite_info(run *r) {
    const nvt_info *in = nvt_dev_info(r->dev);
    fprintf(r->o->out, "  device %s, ABI r%d, compute 0x%x, gpfifo 0x%x, copy 0x%x, SM 0x%x\n",
            in->ctrl_path, in->abi, in->compute_class, in->gpfifo_class, in->dma_copy_class,
            in->sm_version);
    REQUIRE(r, in->compute_class == 0xC7C0, "compute class 0x%x is not AMPERE_COMPUTE_B",
            in->compute_class);
    REQUIRE(r, in->dma_copy_class == 0xC7B5, "copy class 0x%x is not AMPERE_DMA_COPY_B",
            in->dma_copy_class);
    REQUIRE(r, in->sm_version == 0x807, "SM version 0x%x is not 8.7", in->sm_version);
    return 0;
}

static int suite_memory(run *r) {
    int fds = nvt_count_fds();
    static const size_t sizes[] = {1, 4096, 65537, 1u << 20, 64u << 20};
    for (int round = 0; round < 20; round++)
        for (unsigned i = 0; i < sizeof sizes / sizeof *sizes; i++) {
            if (round && sizes[i] > (1u << 20))
                continue; /* the big one once: churn is about the small ones */
            nvt_mem *m;
            REQUIRE(r, nvt_mem_alloc(r->dev, sizes[i], (unsigned)(i % 3), &m) == 0, "alloc %zu: %s",
                    sizes[i], nvt_dev_error(r->dev));
            REQUIRE(r, m->gpu_va && m->gpu_va + m->size <= (1ull << 40),
                    "GPU VA 0x%llx beyond 40 bits", (unsigned long long)m->gpu_va);
            memset(m->cpu, round, sizes[i]);
            nvt_mem_free(r->dev, m);
        }
    REQUIRE(r, nvt_count_fds() == fds, "fd leak: %d -> %d", fds, nvt_count_fds());
    return 0;
}

static int suite_copy(run *r) {
    nvt_queue *q;
    REQUIRE(r, nvt_queue_create(r->dev, NULL, &q) == 0, "queue: %s", nvt_dev_error(r->dev));
    static const size_t sizes[] = {1, 3, 4096, 65537, 1u << 20, 64u << 20};
    int rc = 0;
    for (unsigned i = 0; i < sizeof sizes / sizeof *sizes && !rc; i++) {
        nvt_mem *a = NULL, *b = NULL;
        size_t n = sizes[i];
        if (nvt_mem_alloc(r->dev, n, 0, &a) || nvt_mem_alloc(r->dev, n, 0, &b)) {
            snprintf(r->why, sizeof r->why, "alloc: %s", nvt_dev_error(r->dev));
            rc = -1;
        } else {
            for (size_t j = 0; j < n; j++)
                ((uint8_t *)a->cpu)[j] = (uint8_t)(j * 7 + i);
            memset(b->cpu, 0, n);
            if (nvt_copy(q, b->gpu_va, a->gpu_va, n, NULL) || nvt_queue_sync(q, TIMEOUT_MS)) {
                snprintf(r->why, sizeof r->why, "copy %zu: %s", n, nvt_dev_error(r->dev));
                rc = -1;
            } else if (memcmp(a->cpu, b->cpu, n)) {
                snprintf(r->why, sizeof r->why, "copy of %zu bytes: data differs", n);
                rc = -1;
            }
        }
        nvt_mem_free(r->dev, a);
        nvt_mem_free(r->dev, b);
    }
    nvt_queue_destroy(q);
    return rc;
}

static int suite_ring(run *r) {
    nvt_queue_opts qo = {16, 16384, 0, 0};
    nvt_queue *q;
    REQUIRE(r, nvt_queue_create(r->dev, &qo, &q) == 0, "queue: %s", nvt_dev_error(r->dev));
    nvt_mem *m;
    int rc = nvt_mem_alloc(r->dev, 2000 * 4, 0, &m);
    if (rc == 0) {
        uint32_t *w = m->cpu;
        for (int i = 0; i < 1000; i++)
            w[i] = (uint32_t)i * 2654435761u, w[1000 + i] = 0;
        for (int i = 0; i < 1000 && !rc; i++)
            rc = nvt_copy(q, m->gpu_va + 4000 + 4ull * i, m->gpu_va + 4ull * i, 4, NULL);
        if (!rc)
            rc = nvt_queue_sync(q, TIMEOUT_MS);
        if (!rc && memcmp(w, w + 1000, 4000))
            rc = -EIO;
        if (rc)
            snprintf(r->why, sizeof r->why, "1000 copies through a 16-entry ring: %s",
                     rc == -EIO ? "data differs" : nvt_dev_error(r->dev));
        nvt_mem_free(r->dev, m);
    } else {
        snprintf(r->why, sizeof r->why, "alloc: %s", nvt_dev_error(r->dev));
    }
    nvt_queue_destroy(q);
    return rc ? -1 : 0;
}

static int suite_chain(run *r) {
    nvt_queue *a = NULL, *b = NULL;
    nvt_mem *m = NULL;
    int rc = -1;
    if (nvt_queue_create(r->dev, NULL, &a) || nvt_queue_create(r->dev, NULL, &b) ||
        nvt_mem_alloc(r->dev, 4096, 0, &m)) {
        snprintf(r->why, sizeof r->why, "setup: %s", nvt_dev_error(r->dev));
        goto out;
    }
    /* a copies word i to i+1, b waits for a and copies i+1 to i+2, ... */
    uint32_t *w = m->cpu;
    memset(w, 0, 4096);
    w[0] = 0xc0ffee;
    uint64_t sig = 0;
    for (int i = 0; i < 100; i++) {
        nvt_queue *x = i & 1 ? b : a, *y = i & 1 ? a : b;
        if (nvt_copy(x, m->gpu_va + 4ull * (i + 1), m->gpu_va + 4ull * i, 4, &sig) ||
            nvt_queue_wait_for(y, x, sig)) {
            snprintf(r->why, sizeof r->why, "hop %d: %s", i, nvt_dev_error(r->dev));
            goto out;
        }
    }
    if (nvt_queue_sync(a, TIMEOUT_MS) || nvt_queue_sync(b, TIMEOUT_MS)) {
        snprintf(r->why, sizeof r->why, "sync: %s", nvt_dev_error(r->dev));
        goto out;
    }
    rc = 0;
    for (int i = 0; i <= 100; i++)
        if (w[i] != 0xc0ffee) {
            snprintf(r->why, sizeof r->why, "word %d is 0x%x: a hop ran before its signal", i,
                     w[i]);
            rc = -1;
            break;
        }
out:
    nvt_mem_free(r->dev, m);
    nvt_queue_destroy(a);
    nvt_queue_destroy(b);
    return rc;
}

static int suite_compute(run *r) {
    nvt_module *mod;
    char err[256];
    REQUIRE(r, nvt_module_parse(r->o->cubin, r->o->cubin_size, &mod, err, sizeof err) == 0,
            "cubin: %s", err);
    const nvt_kernel_info *ki = nvt_module_kernel(mod, "scale");
    nvt_queue *q = NULL;
    nvt_kernel *k = NULL;
    nvt_mem *m = NULL;
    int rc = -1;
    if (!ki) {
        snprintf(r->why, sizeof r->why, "the cubin has no kernel named scale");
        goto out;
    }
    if (nvt_queue_create(r->dev, NULL, &q) || nvt_kernel_load(r->dev, ki, &k) ||
        nvt_mem_alloc(r->dev, 100000 * 4, 0, &m)) {
        snprintf(r->why, sizeof r->why, "setup: %s", nvt_dev_error(r->dev));
        goto out;
    }
    if (r->o->kernel_loaded)
        r->o->kernel_loaded(r->o->ctx, k);
    float *f = m->cpu;
    for (int i = 0; i < 100000; i++)
        f[i] = (float)(i % 1000);
    int32_t n = 100000;
    float s = 1.0f;
    const void *args[3] = {&m->gpu_va, &n, &s};
    uint32_t grid[3] = {(100000 + 255) / 256, 1, 1}, block[3] = {256, 1, 1};
    /* 1000 launches alternately doubling and halving: the data must come back unchanged,
     * and one last doubling must be visible */
    for (int i = 0; i < 1001; i++) {
        s = i == 1000 ? 2.0f : (i & 1 ? 0.5f : 2.0f);
        if (nvt_launch(q, k, grid, block, args, 3, NULL)) {
            snprintf(r->why, sizeof r->why, "launch %d: %s", i, nvt_dev_error(r->dev));
            goto out;
        }
    }
    if (nvt_queue_sync(q, TIMEOUT_MS)) {
        snprintf(r->why, sizeof r->why, "sync: %s", nvt_dev_error(r->dev));
        goto out;
    }
    rc = 0;
    for (int i = 0; i < 100000; i++)
        if (f[i] != (float)(i % 1000) * 2.0f) {
            snprintf(r->why, sizeof r->why, "a[%d] = %g, expected %g", i, (double)f[i],
                     (double)((float)(i % 1000) * 2.0f));
            rc = -1;
            break;
        }
out:
    nvt_mem_free(r->dev, m);
    nvt_kernel_unload(r->dev, k);
    nvt_queue_destroy(q);
    nvt_module_destroy(mod);
    return rc;
}

int nvt_check_run(const nvt_check_opts *o) {
    run r = {o, NULL, 0, ""};
    char err[256];
    if (nvt_dev_open(o->os, &r.dev, err, sizeof err) < 0) {
        fprintf(o->out, "%s\n", err);
        return strstr(err, "no nvgpu device found") ? NVT_EXIT_SKIP : 1;
    }
    static const struct {
        const char *name;
        int (*fn)(run *);
    } suites[] = {{"info", suite_info}, {"memory", suite_memory}, {"copy", suite_copy},
                  {"ring", suite_ring}, {"chain", suite_chain},   {"compute", suite_compute}};
    for (unsigned i = 0; i < sizeof suites / sizeof *suites; i++) {
        if (suites[i].fn == suite_compute && !o->cubin) {
            fprintf(o->out, "SKIP %s: no cubin (give --cubin, or install nvcc) - NOT tested\n",
                    suites[i].name);
            continue;
        }
        r.why[0] = 0;
        if (suites[i].fn(&r) == 0) {
            fprintf(o->out, "PASS %s\n", suites[i].name);
        } else {
            fprintf(o->out, "FAIL %s: %s\n", suites[i].name, r.why);
            r.failed = 1;
        }
    }
    nvt_dev_close(r.dev);
    return r.failed;
}

int nvt_nvcc_cubin(const char *cu_source, void **cubin, size_t *size) {
    if (system("command -v nvcc >/dev/null 2>&1") != 0)
        return -1;
    char dir[] = "/tmp/nvtegra-XXXXXX";
    if (!mkdtemp(dir))
        return -1;
    char cu[64], out[64], cmd[256];
    snprintf(cu, sizeof cu, "%s/k.cu", dir);
    snprintf(out, sizeof out, "%s/k.cubin", dir);
    FILE *f = fopen(cu, "w");
    int rc = -1;
    if (f) {
        fputs(cu_source, f);
        fclose(f);
        snprintf(cmd, sizeof cmd, "nvcc -cubin -arch=sm_87 -O3 -o %s %s", out, cu);
        if (system(cmd) == 0 && (f = fopen(out, "rb"))) {
            fseek(f, 0, SEEK_END);
            long n = ftell(f);
            fseek(f, 0, SEEK_SET);
            *cubin = malloc((size_t)n);
            if (*cubin && fread(*cubin, 1, (size_t)n, f) == (size_t)n) {
                *size = (size_t)n;
                rc = 0;
            }
            fclose(f);
        }
    }
    snprintf(cmd, sizeof cmd, "rm -rf %s", dir);
    if (system(cmd) != 0)
        fprintf(stderr, "could not remove %s\n", dir);
    return rc;
}
