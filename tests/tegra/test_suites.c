/* test_suites.c - nvtegra-check's suites (tegra/tools/suites.c) run against the simulated
 * driver, so the hardware tool's own logic is exercised in CI; on a machine without the device
 * the same entry point reports "no nvgpu device found" and the skip status. */
#include "tegra_test.h"

static void register_scale(void *ctx, const nvt_kernel *k) {
    nvt_sim_register_kernel(ctx, k->code_va, sim_scale, NULL);
}

static int count(const char *s, const char *word) {
    int n = 0;
    for (const char *p = s; (p = strstr(p, word)); p++)
        n++;
    return n;
}

int main(void) {
    uint8_t *cubin = NULL;
    size_t size = 0;
    /* nvt_nvcc_cubin()'s command (tegra/tools/suites.c), through the test's nvcc cache */
    int have_cubin = nvcc_cached("-arch=sm_87 -O3", nvt_scale_cu, &cubin, &size) == 0;
    if (!have_cubin)
        printf("NOTE: nvcc not found: the compute suite did NOT run\n");
    for (int abi = 35; abi <= 36; abi++) {
        nvt_sim *sim = nvt_sim_create((nvt_abi)abi);
        char *text = NULL;
        size_t len = 0;
        FILE *out = open_memstream(&text, &len);
        nvt_check_opts o = {nvt_sim_os(sim), cubin, size, register_scale, sim, out};
        int rc = nvt_check_run(&o);
        fclose(out);
        printf("r%d:\n%s", abi, text);
        CHECK(rc == 0, "suites on the simulator returned %d", rc);
        CHECK(count(text, "PASS ") == (have_cubin ? 6 : 5) && count(text, "FAIL") == 0,
              "every suite passes");
        free(text);
        nvt_sim_set_present(sim, 0);
        out = open_memstream(&text, &len);
        o.out = out;
        rc = nvt_check_run(&o);
        fclose(out);
        CHECK(rc == NVT_EXIT_SKIP && strstr(text, "no nvgpu device found"), "no device: rc %d, %s",
              rc, text);
        free(text);
        nvt_sim_destroy(sim);
    }
    free(cubin);
    return check_summary("tegra/test_suites");
}
