/* tegra_test.h - helpers the libnvtegra tests share: open a device on the simulated kernel
 * driver, count this process's fds, and a simulated "scale" kernel. */
#ifndef NVTEGRA_TEST_H
#define NVTEGRA_TEST_H

#include "common/check.h"
#include "nvtegra.h"
#include "../../tegra/sim/nvtegra_sim.h"
#include "../../tegra/tools/suites.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

/* Open fds of this process: the check tool's own counter, which the tests link. */
#define count_fds nvt_count_fds

static inline nvt_dev *open_sim_dev(nvt_sim *sim) {
    nvt_dev *dev = NULL;
    char err[256];
    int rc = nvt_dev_open(nvt_sim_os(sim), &dev, err, sizeof err);
    if (rc < 0) {
        printf("FAIL nvt_dev_open on the simulator: %s\n", err);
        exit(1);
    }
    return dev;
}

/* The parameter layout nvcc gives scale(float *a, int n, float s): 8 + 4 + 4 bytes at 0x160. */
static inline nvt_kernel_info scale_info(void) {
    static const uint8_t code[256] = {0x42};
    nvt_kernel_info k;
    memset(&k, 0, sizeof k);
    k.name = "scale";
    k.code = code;
    k.code_size = sizeof code;
    k.registers = 8;
    k.param_base = NVT_CBUF0_PARAM_BASE;
    k.param_size = 16;
    k.nparams = 3;
    k.param_offset[0] = 0, k.param_bytes[0] = 8;
    k.param_offset[1] = 8, k.param_bytes[1] = 4;
    k.param_offset[2] = 12, k.param_bytes[2] = 4;
    k.cbuf0_size = 0x170;
    return k;
}

/* What the GPU would do for scale(): a[i] *= s for every thread i < n, reading the
 * parameters from constant bank 0 exactly where the driver put them. */
static inline int sim_scale(const nvt_sim_launch *l, void *user) {
    unsigned *calls = user;
    uint64_t a;
    int32_t n;
    float s;
    memcpy(&a, l->cbuf0 + 0x160, 8);
    memcpy(&n, l->cbuf0 + 0x168, 4);
    memcpy(&s, l->cbuf0 + 0x16c, 4);
    uint64_t threads =
        (uint64_t)l->grid[0] * l->grid[1] * l->grid[2] * l->block[0] * l->block[1] * l->block[2];
    uint64_t m = threads < (uint64_t)n ? threads : (uint64_t)n;
    if (n > 0) {
        float *p = nvt_sim_translate(l->sim, a, m * 4);
        if (!p)
            return -EFAULT;
        for (uint64_t i = 0; i < m; i++)
            p[i] *= s;
    }
    if (calls)
        (*calls)++;
    return 0;
}

/* nvcc_cached(FLAGS, SRC, &data, &size): the cubin `nvcc -cubin FLAGS` makes of the CUDA source
 * SRC (malloc'd), 0; -1 when nvcc is missing or fails.  nvcc is a fixed compiler, as clang-22
 * is for the AMD kernels (tests/common/kbuild.sh): its output is kept in
 * $BUILD/oracle-cache/nvcc-HASH.cubin, keyed by FLAGS, SRC and nvcc's binary (path, size,
 * mtime), and compiled again only when one of them changes.  One nvcc run is about 1 s of CPU
 * (cicc, ptxas, the host compiler); the tegra tests asked for five per `make check`. */
static inline int nvcc_cached(const char *flags, const char *src, uint8_t **data, size_t *size) {
    char nvcc[1024] = "", path[1200], cmd[3000];
    struct stat st;
    const char *dirs = getenv("PATH");
    while (dirs && *dirs && !nvcc[0]) {
        size_t len = strcspn(dirs, ":");
        snprintf(nvcc, sizeof nvcc, "%.*s/nvcc", (int)len, dirs);
        if (access(nvcc, X_OK) != 0)
            nvcc[0] = 0;
        dirs += len + (dirs[len] == ':');
    }
    if (!nvcc[0] || stat(nvcc, &st) != 0)
        return -1;
    uint64_t h = 0xcbf29ce484222325ull;
    const char *parts[] = {nvcc, flags, src};
    for (int k = 0; k < 3; k++)
        for (const char *c = parts[k];; c++) {
            h = (h ^ (uint8_t)*c) * 0x100000001b3ull;
            if (!*c)
                break;
        }
    uint64_t id[2] = {(uint64_t)st.st_size, (uint64_t)st.st_mtime};
    for (size_t k = 0; k < sizeof id; k++)
        h = (h ^ ((const uint8_t *)id)[k]) * 0x100000001b3ull;
    const char *build = getenv("BUILD") && *getenv("BUILD") ? getenv("BUILD") : "build";
    snprintf(path, sizeof path, "%s/oracle-cache/nvcc-%016llx.cubin", build, (unsigned long long)h);
    for (int attempt = 0; attempt < 2; attempt++) {
        FILE *f = fopen(path, "rb");
        if (f) {
            fseek(f, 0, SEEK_END);
            long n = ftell(f);
            fseek(f, 0, SEEK_SET);
            *data = n > 0 ? malloc((size_t)n) : NULL;
            int ok = *data && fread(*data, 1, (size_t)n, f) == (size_t)n;
            fclose(f);
            if (ok) {
                *size = (size_t)n;
                return 0;
            }
            free(*data);
            *data = NULL;
        }
        if (attempt)
            break;
        /* compile into a private directory, then rename into the cache (atomic for readers) */
        char dir[] = "/tmp/nvtegra-nvcc-XXXXXX";
        if (!mkdtemp(dir))
            return -1;
        snprintf(cmd, sizeof cmd, "%s/k.cu", dir);
        f = fopen(cmd, "w");
        if (!f)
            return -1;
        fputs(src, f);
        fclose(f);
        snprintf(cmd, sizeof cmd,
                 "mkdir -p '%s/oracle-cache' && nvcc -cubin %s -o %s/k.cubin %s/k.cu && "
                 "mv -f %s/k.cubin '%s'; rc=$?; rm -rf %s; exit $rc",
                 build, flags, dir, dir, dir, path, dir);
        if (system(cmd) != 0)
            return -1;
    }
    return -1;
}

#endif
