/* fuzz_cubin.c - libFuzzer target: arbitrary bytes as an sm_87 cubin through libnvtegra's
 * parser (tegra/module.c, #included for its private struct; built by the rule in
 * tegra/tegra.mk from tegra/ sources only, run by `make fuzz`).  Every kernel a parse returns must
 * have its code, name and parameters inside the image, and binding parameters must stay inside
 * cbuf0. */
#include "module.c"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
    nvt_module *m = NULL;
    char err[256];
    if (nvt_module_parse(data, size, &m, err, sizeof err) != 0)
        return 0;
    static uint8_t cbuf0[65536 + 4096], argbuf[65536];
    const void *args[NVT_MAX_PARAMS];
    for (uint32_t i = 0; i < nvt_module_count(m); i++) {
        const nvt_kernel_info *k = nvt_module_kernel_at(m, i);
        const uint8_t *code = k->code;
        if (code < m->image || code > m->image + m->size ||
            k->code_size > (size_t)(m->image + m->size - code))
            __builtin_trap();
        volatile uint8_t sum = 0; /* touch every byte: ASan checks them */
        for (size_t b = 0; b < k->code_size; b++)
            sum ^= code[b];
        if (strlen(k->name) > m->size || nvt_module_kernel(m, k->name) == NULL)
            __builtin_trap();
        for (uint32_t a = 0; a < k->nparams && a < NVT_MAX_PARAMS; a++)
            args[a] = argbuf;
        nvt_kernel_bind_params(k, cbuf0, sizeof cbuf0, args, k->nparams);
    }
    nvt_module_destroy(m);
    return 0;
}
