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

#endif
