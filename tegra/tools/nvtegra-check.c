/* nvtegra-check - run libnvtegra's correctness suites on a real Jetson Orin and scan the kernel
 * log for nvgpu errors they caused.
 *
 *   nvtegra-check [--cubin FILE]   FILE: an sm_87 cubin with scale(float*, int, float);
 *                                  without it the kernel is built with nvcc when installed.
 * Exit status: 0 all passed, 1 a suite failed, 77 no nvgpu device found (nothing tested). */
#include "suites.h"

#include <stdlib.h>
#include <string.h>

/* nvgpu error lines in the kernel log, or -1 if it cannot be read. */
static int kernel_log_errors(void) {
    FILE *p = popen("dmesg 2>/dev/null", "r");
    if (!p)
        return -1;
    char line[1024];
    int n = 0, lines = 0;
    while (fgets(line, sizeof line, p)) {
        lines++;
        if (strstr(line, "nvgpu") &&
            (strstr(line, "error") || strstr(line, "fault") || strstr(line, "timeout") ||
             strstr(line, "failed") || strstr(line, "MMU")))
            n++;
    }
    int st = pclose(p);
    return st != 0 || lines == 0 ? -1 : n;
}

int main(int argc, char **argv) {
    const char *cubin_path = NULL;
    for (int i = 1; i < argc; i++) {
        if (!strcmp(argv[i], "--cubin") && i + 1 < argc) {
            cubin_path = argv[++i];
        } else {
            fprintf(stderr, "usage: nvtegra-check [--cubin FILE]\n");
            return 2;
        }
    }
    nvt_check_opts o = {NULL, NULL, 0, NULL, NULL, stdout};
    void *cubin = NULL;
    size_t size = 0;
    if (cubin_path) {
        FILE *f = fopen(cubin_path, "rb");
        if (!f) {
            fprintf(stderr, "nvtegra-check: cannot open %s\n", cubin_path);
            return 2;
        }
        fseek(f, 0, SEEK_END);
        size = (size_t)ftell(f);
        fseek(f, 0, SEEK_SET);
        cubin = malloc(size);
        if (!cubin || fread(cubin, 1, size, f) != size) {
            fprintf(stderr, "nvtegra-check: cannot read %s\n", cubin_path);
            return 2;
        }
        fclose(f);
    }
    int before = kernel_log_errors();
    /* Probe for the device before compiling anything. */
    nvt_dev *probe;
    char err[256];
    if (nvt_dev_open(NULL, &probe, err, sizeof err) < 0) {
        printf("nvtegra-check: %s\n", err);
        free(cubin);
        return strstr(err, "no nvgpu device found") ? NVT_EXIT_SKIP : 1;
    }
    nvt_dev_close(probe);
    if (!cubin && nvt_nvcc_cubin(nvt_scale_cu, &cubin, &size) < 0)
        cubin = NULL;
    o.cubin = cubin;
    o.cubin_size = size;
    int rc = nvt_check_run(&o);
    int after = kernel_log_errors();
    if (before < 0 || after < 0) {
        printf("SKIP kernel-log: dmesg not readable (needs root or kernel.dmesg_restrict=0) - "
               "NOT scanned\n");
    } else if (after > before) {
        printf("FAIL kernel-log: %d new nvgpu error lines (see dmesg)\n", after - before);
        rc = rc ? rc : 1;
    } else {
        printf("PASS kernel-log: no new nvgpu errors\n");
    }
    free(cubin);
    return rc;
}
