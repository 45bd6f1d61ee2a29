/* device.c - public device, buffer, launch and fault API: argument checks and locking around
 * the dispatcher (src/dispatch/). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/sysinfo.h>

#include "dispatch/dispatch.h"

gfx_result gfx_device_create(gfx_arch arch, unsigned threads, gfx_device **out) {
    if (!out)
        return GFX_ERR_INVALID;
    return dp_device_create(arch, threads, out);
}

void gfx_device_free(gfx_device *dev) { dp_device_free(dev); }

gfx_arch gfx_device_arch(const gfx_device *dev) { return dev->arch; }

unsigned gfx_device_threads(const gfx_device *dev) { return dev ? dev->nthreads : 0; }

const char *gfx_device_error(const gfx_device *dev) { return dev ? dev->error : ""; }

/* RAM + swap: a buffer larger than this could only be backed by overcommit, and touching it
 * would get the process killed by the OOM killer instead of failing cleanly. */
static uint64_t host_memory(void) {
    struct sysinfo si;
    if (sysinfo(&si) != 0)
        return UINT64_MAX;
    return ((uint64_t)si.totalram + si.totalswap) * (si.mem_unit ? si.mem_unit : 1);
}

void gfx_launch_progress(gfx_device *dev, uint64_t *done, uint64_t *total) {
    uint64_t d = 0, t = 0;
    if (dev) {
        t = atomic_load_explicit(&dev->progress_total, memory_order_relaxed);
        d = atomic_load_explicit(&dev->progress_done, memory_order_relaxed);
    }
    if (done)
        *done = d < t ? d : t;
    if (total)
        *total = t;
}

gfx_result gfx_buffer_alloc(gfx_device *dev, uint64_t size, uint64_t *addr) {
    if (!dev || !addr)
        return GFX_ERR_INVALID;
    *addr = 0;
    uint64_t limit = host_memory();
    pthread_mutex_lock(&dev->api_lock);
    /* the device's buffers together, as each alone, must fit: pages are provided on first
     * touch, so a total beyond RAM + swap would end in the OOM killer, not in an error */
    uint64_t held = 0;
    for (size_t i = 0, n = gmem_count(dev->mem); i < n; i++) {
        const gmem_region *r = gmem_at(dev->mem, i);
        if (r->kind == GMEM_BUFFER && r->owned)
            held += r->size;
    }
    if (size > limit)
        snprintf(dev->error, sizeof dev->error,
                 "a buffer of %llu bytes does not fit in this machine's %llu bytes of memory "
                 "(RAM + swap)",
                 (unsigned long long)size, (unsigned long long)limit);
    else if (held > limit - size)
        snprintf(dev->error, sizeof dev->error,
                 "a buffer of %llu bytes does not fit beside the %llu bytes of buffers already "
                 "allocated in this machine's %llu bytes of memory (RAM + swap)",
                 (unsigned long long)size, (unsigned long long)held, (unsigned long long)limit);
    else if (!(*addr = gmem_alloc(dev->mem, size, -1)))
        snprintf(dev->error, sizeof dev->error, "cannot allocate a buffer of %llu bytes",
                 (unsigned long long)size);
    pthread_mutex_unlock(&dev->api_lock);
    return *addr ? GFX_OK : GFX_ERR_NOMEM;
}

gfx_result gfx_buffer_free(gfx_device *dev, uint64_t addr) {
    if (!dev)
        return GFX_ERR_INVALID;
    pthread_mutex_lock(&dev->api_lock);
    int r = gmem_free(dev->mem, addr);
    pthread_mutex_unlock(&dev->api_lock);
    return r == 0 ? GFX_OK : GFX_ERR_INVALID;
}

gfx_result gfx_buffer_move_out(gfx_device *dev, uint64_t addr, void *dst, uint64_t size) {
    if (!dev || (!dst && size))
        return GFX_ERR_INVALID;
    pthread_mutex_lock(&dev->api_lock);
    int r = gmem_move_out(dev->mem, addr, dst, size);
    pthread_mutex_unlock(&dev->api_lock);
    return r == 0 ? GFX_OK : GFX_ERR_INVALID;
}

gfx_result gfx_memcpy_htod(gfx_device *dev, uint64_t dst, const void *src, uint64_t size) {
    if (!dev || (!src && size))
        return GFX_ERR_INVALID;
    pthread_mutex_lock(&dev->api_lock);
    int r = gmem_write(dev->mem, dst, src, size);
    pthread_mutex_unlock(&dev->api_lock);
    return r == 0 ? GFX_OK : GFX_ERR_INVALID;
}

gfx_result gfx_memcpy_dtoh(gfx_device *dev, void *dst, uint64_t src, uint64_t size) {
    if (!dev || (!dst && size))
        return GFX_ERR_INVALID;
    pthread_mutex_lock(&dev->api_lock);
    int r = gmem_read(dev->mem, src, dst, size);
    pthread_mutex_unlock(&dev->api_lock);
    return r == 0 ? GFX_OK : GFX_ERR_INVALID;
}

gfx_result gfx_launch(gfx_device *dev, const gfx_kernel *k, const uint32_t grid[3],
                      const uint32_t block[3], const void *kernargs, size_t kernarg_size,
                      const gfx_launch_options *opts, gfx_stats *stats) {
    if (!dev || !k || !grid || !block || (!kernargs && kernarg_size))
        return GFX_ERR_INVALID;
    pthread_mutex_lock(&dev->api_lock);
    gfx_result r = dp_launch(dev, k, grid, block, kernargs, kernarg_size, opts, stats);
    pthread_mutex_unlock(&dev->api_lock);
    return r;
}

gfx_result gfx_launch_params(gfx_device *dev, const gfx_kernel *k, const uint32_t grid[3],
                             const uint32_t block[3], const void *const *params, size_t nparams,
                             const gfx_launch_options *opts, gfx_stats *stats) {
    if (!dev || !k || (!params && nparams))
        return GFX_ERR_INVALID;
    if (!k->meta) {
        strcpy(dev->error, "the kernel has no metadata: pass the kernarg bytes to gfx_launch()");
        return GFX_ERR_INVALID;
    }
    if (nparams != k->nargs_explicit) {
        snprintf(dev->error, sizeof dev->error, "kernel %s takes %zu arguments, %zu given",
                 k->sym->name, k->nargs_explicit, nparams);
        return GFX_ERR_INVALID;
    }
    size_t size = 0;
    for (size_t i = 0; i < nparams; i++) {
        const ld_arg *a = &k->meta->args[i];
        if ((size_t)a->offset + a->size > size)
            size = (size_t)a->offset + a->size;
    }
    uint8_t *buf = calloc(1, size ? size : 1);
    if (!buf)
        return GFX_ERR_NOMEM;
    for (size_t i = 0; i < nparams; i++) {
        const ld_arg *a = &k->meta->args[i];
        if (a->size && !params[i]) {
            free(buf);
            snprintf(dev->error, sizeof dev->error, "argument %zu is NULL", i);
            return GFX_ERR_INVALID;
        }
        if (a->size)
            memcpy(buf + a->offset, params[i], a->size);
    }
    gfx_result r = gfx_launch(dev, k, grid, block, buf, size, opts, stats);
    free(buf);
    return r;
}

gfx_result gfx_last_fault(const gfx_device *dev, gfx_fault *out) {
    if (!dev || !out)
        return GFX_ERR_INVALID;
    *out = dev->fault;
    return GFX_OK;
}

gfx_result gfx_device_set_cus(gfx_device *dev, unsigned cus) {
    if (!dev || cus > 65536)
        return GFX_ERR_INVALID;
    pthread_mutex_lock(&dev->api_lock);
    dev->cus = cus ? cus : dp_default_cus(dev->arch);
    pthread_mutex_unlock(&dev->api_lock);
    return GFX_OK;
}

unsigned gfx_device_cus(const gfx_device *dev) { return dev ? dev->cus : 0; }

size_t gfx_race_count(const gfx_device *dev) { return dev ? dev->nraces : 0; }

gfx_result gfx_race_get(const gfx_device *dev, size_t i, gfx_race *out) {
    if (!dev || !out || i >= dev->nraces)
        return GFX_ERR_INVALID;
    *out = dev->races[i];
    return GFX_OK;
}
