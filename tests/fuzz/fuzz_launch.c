/* fuzz_launch.c - libFuzzer target: valid kernels launched through the C API with random
 * argument values of the kinds their metadata asks for: buffers of random sizes and contents for
 * pointers (so kernels index past them, fault, or run), random bytes for by-value arguments,
 * random LDS sizes for __local pointers (gfx_kernel_bind_local), random grid, block, dynamic LDS
 * and private sizes; the kernarg bytes go to gfx_launch().  Every launch must end in GFX_OK or a
 * clean error or fault; the device must stay usable.
 *
 * Kernels: every kernel of the code objects run_fuzz.sh builds from examples/vecadd.cl,
 * tests/load/kernels.cl and tests/tools/args.cl for gfx950 and gfx942
 * (build/fuzz/seeds/<name>_<cpu>.co, or the directory $GFXEMU_FUZZ_SEEDS). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "gfxemu.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

#define MAX_KERNELS 256

static struct {
    gfx_module *m;
    gfx_device *dev;
} mods[6];
static const gfx_kernel *kernels[MAX_KERNELS];
static gfx_device *kdev[MAX_KERNELS];
static size_t nkernels;

static void setup(void) {
    const char *dir = getenv("GFXEMU_FUZZ_SEEDS");
    if (!dir)
        dir = "build/fuzz/seeds";
    static const char *const names[] = {"vecadd", "kernels", "args"};
    static const char *const cpus[] = {"gfx950", "gfx942"};
    size_t nm = 0;
    for (int i = 0; i < 3; i++)
        for (int c = 0; c < 2; c++) {
            char path[4096], err[256];
            snprintf(path, sizeof path, "%s/%s_%s.co", dir, names[i], cpus[c]);
            gfx_module *m;
            if (gfx_module_load_file(path, &m, err, sizeof err) != GFX_OK) {
                fprintf(stderr, "fuzz_launch: %s: %s (run_fuzz.sh builds it)\n", path, err);
                abort();
            }
            gfx_device *dev;
            if (gfx_device_create(gfx_module_arch(m), 1, &dev) != GFX_OK)
                abort();
            mods[nm].m = m;
            mods[nm++].dev = dev;
            for (size_t s = 0; s < gfx_module_symbol_count(m) && nkernels < MAX_KERNELS; s++) {
                gfx_symbol sym;
                const gfx_kernel *k;
                if (gfx_module_symbol(m, s, &sym) == GFX_OK && sym.is_kernel &&
                    gfx_module_kernel(m, sym.name, &k) == GFX_OK) {
                    kdev[nkernels] = dev;
                    kernels[nkernels++] = k;
                }
            }
        }
    if (!nkernels)
        abort();
}

/* The fuzz input as a stream of bytes (zeros after its end). */
typedef struct {
    const uint8_t *p;
    size_t n, i;
} stream;

static uint32_t take(stream *s, unsigned bytes) {
    uint32_t v = 0;
    for (unsigned b = 0; b < bytes; b++)
        v |= (uint32_t)(s->i < s->n ? s->p[s->i++] : 0) << (8 * b);
    return v;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
    if (!nkernels)
        setup();
    stream s = {data, size, 0};
    size_t ki = take(&s, 1) % nkernels;
    const gfx_kernel *k = kernels[ki];
    gfx_device *dev = kdev[ki];
    gfx_kernel_info info;
    if (gfx_kernel_get_info(k, &info) != GFX_OK || !info.has_metadata || info.nargs_explicit > 32)
        return 0;
    uint32_t grid[3] = {1 + take(&s, 1) % 4, 1 + take(&s, 1) % 2, 1};
    uint32_t block[3] = {1 + take(&s, 2) % 256, 1, 1};
    gfx_launch_options o = {.max_insts = 100000, .dynamic_lds = take(&s, 2) % 4096};
    if (take(&s, 1) & 1)
        o.private_size = take(&s, 2) % 65536;
    uint8_t kargs[1024] = {0};
    uint64_t bufs[32];
    size_t nbufs = 0;
    for (size_t i = 0; i < info.nargs_explicit; i++) {
        gfx_arg_info ai;
        if (gfx_kernel_arg(k, i, &ai) != GFX_OK || (size_t)ai.offset + ai.size > sizeof kargs)
            goto done;
        if (ai.kind == GFX_ARG_GLOBAL_BUFFER) {
            uint32_t n = take(&s, 2) % 8192;
            uint64_t addr;
            if (gfx_buffer_alloc(dev, n ? n : 1, &addr) != GFX_OK)
                abort(); /* small sizes always fit */
            bufs[nbufs++] = addr;
            uint8_t fill[8192];
            for (uint32_t b = 0; b < n; b++)
                fill[b] = (uint8_t)take(&s, 1);
            if (n && gfx_memcpy_htod(dev, addr, fill, n) != GFX_OK)
                abort();
            memcpy(kargs + ai.offset, &addr, ai.size < 8 ? ai.size : 8);
        } else if (ai.kind == GFX_ARG_DYNAMIC_SHARED_POINTER) {
            uint32_t n = take(&s, 3) % (200 * 1024); /* may exceed the LDS: a clean refusal */
            gfx_result r = gfx_kernel_bind_local(k, i, n, &o.dynamic_lds, kargs, sizeof kargs);
            if (r != GFX_OK && r != GFX_ERR_RESOURCE && !(r == GFX_ERR_INVALID && n == 0))
                abort();
        } else {
            for (uint32_t b = 0; b < ai.size; b++)
                kargs[ai.offset + b] = (uint8_t)take(&s, 1);
        }
    }
    gfx_stats st;
    gfx_result r = gfx_launch(dev, k, grid, block, kargs, sizeof kargs, &o, &st);
    if (r != GFX_OK && r != GFX_ERR_FAULT && r != GFX_ERR_RESOURCE && r != GFX_ERR_INVALID) {
        fprintf(stderr, "fuzz_launch: unexpected result %s (%s)\n", gfx_result_str(r),
                gfx_device_error(dev));
        abort();
    }
    if (r != GFX_OK && !*gfx_device_error(dev)) {
        fprintf(stderr, "fuzz_launch: %s without a message\n", gfx_result_str(r));
        abort();
    }
done:
    for (size_t b = 0; b < nbufs; b++)
        if (gfx_buffer_free(dev, bufs[b]) != GFX_OK)
            abort();
    return 0;
}
