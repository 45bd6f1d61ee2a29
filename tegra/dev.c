/* dev.c - device open (nvmap + nvgpu ctrl, characteristics, ABI detection, address space,
 * doorbell) and memory (nvmap handle -> dmabuf fd -> CPU mmap -> GPU mapping). */
#include "abi.h"
#include "internal.h"

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

int nvt_fail(nvt_dev *dev, int rc, const char *fmt, ...) {
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(dev->err, sizeof dev->err, fmt, ap);
    va_end(ap);
    return rc;
}

int nvt_ioctl(nvt_dev *dev, int fd, unsigned long req, void *arg, const char *name) {
    int rc = dev->os.ioctl(dev->os.ctx, fd, req, arg);
    if (rc < 0)
        return nvt_fail(dev, rc, "%s (ioctl 0x%08lx on fd %d) failed: %s", name, req, fd,
                        strerror(-rc));
    return rc;
}

static uint32_t rd32(const uint8_t *p) {
    uint32_t v;
    memcpy(&v, p, 4);
    return v;
}
static uint64_t rd64(const uint8_t *p) {
    uint64_t v;
    memcpy(&v, p, 8);
    return v;
}

static int read_characteristics(nvt_dev *dev) {
    /* Ask for more than either ABI's struct: the kernel copies min(asked, its size) and reports
     * its size back in buf_size, which tells r35 (312 B) from r36 (328 B). */
    uint8_t buf[512];
    memset(buf, 0, sizeof buf);
    struct nvt_gpu_get_characteristics req = {sizeof buf, (uint64_t)(uintptr_t)buf};
    int rc = nvt_ioctl(dev, dev->ctrl_fd, NVT_GPU_IOCTL_GET_CHARACTERISTICS, &req,
                       "GET_CHARACTERISTICS");
    if (rc < 0)
        return rc;
    nvt_info *in = &dev->info;
    in->chars_size = (uint32_t)req.buf_size;
    if (req.buf_size == NVT_CHARS_SIZE_R36)
        in->abi = NVT_ABI_R36;
    else if (req.buf_size == NVT_CHARS_SIZE_R35)
        in->abi = NVT_ABI_R35;
    else
        return nvt_fail(dev, -EPROTO,
                        "unknown nvgpu ABI: GET_CHARACTERISTICS reports %llu bytes (r35: %u, "
                        "r36: %u)",
                        (unsigned long long)req.buf_size, NVT_CHARS_SIZE_R35, NVT_CHARS_SIZE_R36);
    const char *force = getenv("NVTEGRA_ABI");
    if (force && (!strcmp(force, "r35") || !strcmp(force, "r36")))
        in->abi = force[2] == '5' ? NVT_ABI_R35 : NVT_ABI_R36;
    /* The fields sit where the kernel's struct puts them: the layout follows the size the
     * kernel reported, even when NVTEGRA_ABI forces the other release's ioctls. */
    const nvt_chars_layout *L = nvt_chars_layout_of(req.buf_size == NVT_CHARS_SIZE_R35 ? 35 : 36);
    in->flags = rd64(buf + L->flags);
    in->compute_class = rd32(buf + L->compute_class);
    in->gpfifo_class = rd32(buf + L->gpfifo_class);
    in->dma_copy_class = rd32(buf + L->dma_copy_class);
    in->sm_version = rd32(buf + L->sm_version);
    in->tpc_count = rd32(buf + L->num_gpc) * rd32(buf + L->num_tpc_per_gpc);
    dev->big_page_size = rd32(buf + L->big_page_size);
    dev->big_page_sizes = rd32(buf + L->available_big_page_sizes);
    dev->pde_bits = rd32(buf + L->pde_coverage_bit_count);
    if (!(in->flags & NVT_CHARS_FLAG_USERMODE_SUBMIT))
        return nvt_fail(dev, -ENOTSUP,
                        "this nvgpu does not support usermode submit (characteristics flags "
                        "0x%llx lack bit 30)",
                        (unsigned long long)in->flags);
    return 0;
}

/* ALLOC_AS with a real range, checked first against the rules of nvgpu's gk20a_vm_alloc_share
 * (common/mm/as.c, the same in r35 and r36) with the MMU facts the kernel just reported, so a
 * mismatch is reported by name instead of as a bare EINVAL. */
static int alloc_as(nvt_dev *dev) {
    struct nvt_gpu_alloc_as as = {0};
    /* 0 would mean "no big pages" in nvgpu, not the default size: ask for 64 KiB explicitly.
     * The kernel accepts a power of two that is in available_big_page_sizes or is its default
     * (nvgpu-ctrl.h: "the default big page size is always available"). */
    as.big_page_size = NVT_AS_BIG_PAGE_SIZE;
    as.flags = NVT_AS_FLAG_UNIFIED_VA; /* so va_range_split stays 0 */
    as.va_range_start = NVT_AS_VA_START;
    as.va_range_end = NVT_AS_VA_END;
    if (!(dev->big_page_sizes & NVT_AS_BIG_PAGE_SIZE) && dev->big_page_size != NVT_AS_BIG_PAGE_SIZE)
        return nvt_fail(dev, -ENOTSUP,
                        "ALLOC_AS: this GPU offers no 64 KiB big pages (default %u, available "
                        "0x%x)",
                        dev->big_page_size, dev->big_page_sizes);
    if (dev->pde_bits < 12 || dev->pde_bits > 36 ||
        (as.va_range_start | as.va_range_end) & ((1ull << dev->pde_bits) - 1))
        return nvt_fail(dev, -ENOTSUP,
                        "ALLOC_AS: the VA range [0x%llx, 0x%llx) is not aligned to this GPU's "
                        "PDE coverage (2^%u bytes)",
                        (unsigned long long)as.va_range_start, (unsigned long long)as.va_range_end,
                        dev->pde_bits);
    int rc = nvt_ioctl(dev, dev->ctrl_fd, NVT_GPU_IOCTL_ALLOC_AS, &as, "ALLOC_AS");
    if (rc < 0)
        return rc;
    dev->as_fd = as.as_fd;
    return 0;
}

int nvt_dev_open(const nvt_os *os, nvt_dev **out, char *err, size_t errlen) {
    static const char *const ctrl_paths[] = {"/dev/nvgpu/igpu0/ctrl", "/dev/nvhost-ctrl-gpu"};
    *out = NULL;
    nvt_dev *dev = calloc(1, sizeof *dev);
    if (!dev) {
        if (err)
            snprintf(err, errlen, "out of memory");
        return -ENOMEM;
    }
    dev->os = os ? *os : *nvt_os_linux();
    dev->nvmap_fd = dev->ctrl_fd = dev->as_fd = -1;
    long pg = sysconf(_SC_PAGESIZE);
    dev->page = pg > 0 ? (size_t)pg : 4096;
    int rc = -ENODEV;
    for (unsigned i = 0; i < 2 && dev->ctrl_fd < 0; i++) {
        rc = dev->os.open(dev->os.ctx, ctrl_paths[i], O_RDWR);
        if (rc >= 0) {
            dev->ctrl_fd = rc;
            snprintf(dev->info.ctrl_path, sizeof dev->info.ctrl_path, "%s", ctrl_paths[i]);
        }
    }
    if (dev->ctrl_fd < 0) {
        rc = nvt_fail(dev, -ENODEV, "no nvgpu device found (%s, %s: %s)", ctrl_paths[0],
                      ctrl_paths[1], strerror(-rc));
        goto fail;
    }
    rc = dev->os.open(dev->os.ctx, "/dev/nvmap", O_RDWR);
    if (rc < 0) {
        rc = nvt_fail(dev, rc, "cannot open /dev/nvmap: %s", strerror(-rc));
        goto fail;
    }
    dev->nvmap_fd = rc;
    if ((rc = read_characteristics(dev)) < 0)
        goto fail;
    if ((rc = alloc_as(dev)) < 0)
        goto fail;
    void *um = dev->os.mmap(dev->os.ctx, NULL, NVT_USERMODE_MAP_SIZE, PROT_READ | PROT_WRITE,
                            MAP_SHARED, dev->ctrl_fd, 0);
    if (um == MAP_FAILED) {
        rc = nvt_fail(dev, -errno, "cannot map the usermode doorbell (mmap of %s): %s",
                      dev->info.ctrl_path, strerror(errno));
        goto fail;
    }
    dev->usermode = um;
    *out = dev;
    return 0;
fail:
    if (err)
        snprintf(err, errlen, "%s", dev->err);
    nvt_dev_close(dev);
    return rc;
}

void nvt_dev_close(nvt_dev *dev) {
    if (!dev)
        return;
    if (dev->usermode)
        dev->os.munmap(dev->os.ctx, (void *)dev->usermode, NVT_USERMODE_MAP_SIZE);
    if (dev->as_fd >= 0)
        dev->os.close(dev->os.ctx, dev->as_fd);
    if (dev->nvmap_fd >= 0)
        dev->os.close(dev->os.ctx, dev->nvmap_fd);
    if (dev->ctrl_fd >= 0)
        dev->os.close(dev->os.ctx, dev->ctrl_fd);
    free(dev);
}

const nvt_info *nvt_dev_info(const nvt_dev *dev) { return &dev->info; }
const char *nvt_dev_error(const nvt_dev *dev) { return dev->err; }

/* ---- memory ------------------------------------------------------------------------------- */

static const uint32_t nvmap_cache[3] = {NVT_NVMAP_CACHEABLE, NVT_NVMAP_WRITE_COMBINE,
                                        NVT_NVMAP_UNCACHEABLE};

static void nvmap_free(nvt_dev *dev, uint32_t handle) {
    /* NVMAP_IOC_FREE takes the handle as the argument value itself. */
    dev->os.ioctl(dev->os.ctx, dev->nvmap_fd, NVT_NVMAP_IOC_FREE, (void *)(uintptr_t)handle);
}

int nvt_mem_alloc(nvt_dev *dev, size_t size, unsigned flags, nvt_mem **out) {
    *out = NULL;
    unsigned cache = flags & NVT_MEM_CACHE_MASK;
    if (!size || cache > 2)
        return nvt_fail(dev, -EINVAL, "nvt_mem_alloc: bad size %zu or flags 0x%x", size, flags);
    size_t bytes = (size + dev->page - 1) & ~(dev->page - 1);
    if (bytes < size || bytes > UINT32_MAX)
        return nvt_fail(dev, -EINVAL,
                        "nvt_mem_alloc: %zu bytes does not fit nvmap's 32-bit handle size", size);
    nvt_mem *m = calloc(1, sizeof *m);
    if (!m)
        return nvt_fail(dev, -ENOMEM, "out of memory");
    m->size = bytes;
    m->dmabuf_fd = -1;
    struct nvt_nvmap_handle h = {(uint32_t)bytes, 0};
    int rc = nvt_ioctl(dev, dev->nvmap_fd, NVT_NVMAP_IOC_CREATE, &h, "NVMAP_IOC_CREATE");
    if (rc < 0)
        goto fail_nohandle;
    m->handle = h.handle;
    uint32_t nvflags = nvmap_cache[cache] | NVT_NVMAP_TAG << NVT_NVMAP_TAG_SHIFT;
    if (dev->info.abi == NVT_ABI_R36) {
        struct nvt_nvmap_alloc_r36 a = {m->handle, NVT_NVMAP_HEAP_IOVMM, nvflags,
                                        (uint32_t)dev->page, -1};
        rc = nvt_ioctl(dev, dev->nvmap_fd, NVT_NVMAP_IOC_ALLOC_R36, &a, "NVMAP_IOC_ALLOC");
    } else {
        struct nvt_nvmap_alloc_r35 a = {m->handle, NVT_NVMAP_HEAP_IOVMM, nvflags,
                                        (uint32_t)dev->page};
        rc = nvt_ioctl(dev, dev->nvmap_fd, NVT_NVMAP_IOC_ALLOC_R35, &a, "NVMAP_IOC_ALLOC");
    }
    if (rc < 0)
        goto fail;
    struct nvt_nvmap_handle g = {0, m->handle};
    if ((rc = nvt_ioctl(dev, dev->nvmap_fd, NVT_NVMAP_IOC_GET_FD, &g, "NVMAP_IOC_GET_FD")) < 0)
        goto fail;
    m->dmabuf_fd = (int)g.size_or_fd;
    void *p =
        dev->os.mmap(dev->os.ctx, NULL, bytes, PROT_READ | PROT_WRITE, MAP_SHARED, m->dmabuf_fd, 0);
    if (p == MAP_FAILED) {
        rc = nvt_fail(dev, -errno, "mmap of dmabuf fd %d (%zu bytes) failed: %s", m->dmabuf_fd,
                      bytes, strerror(errno));
        goto fail;
    }
    m->cpu = p;
    if (!(flags & NVT_MEM_NO_GPU_MAP)) {
        struct nvt_as_map_buffer_ex mb = {0};
        mb.flags = cache == 0 ? NVT_AS_MAP_CACHEABLE : 0;
        if (dev->info.abi == NVT_ABI_R35)
            mb.flags |= NVT_AS_MAP_DIRECT_KIND_CTRL;
        mb.compr_kind = NVT_KIND_INVALID;
        mb.incompr_kind = NVT_KIND_PITCH;
        mb.dmabuf_fd = (uint32_t)m->dmabuf_fd;
        mb.page_size = 4096;
        mb.mapping_size = bytes;
        rc = nvt_ioctl(dev, dev->as_fd, NVT_AS_IOCTL_MAP_BUFFER_EX, &mb, "MAP_BUFFER_EX");
        if (rc < 0)
            goto fail;
        m->gpu_va = mb.offset;
    }
    *out = m;
    return 0;
fail:
    if (m->cpu)
        dev->os.munmap(dev->os.ctx, m->cpu, bytes);
    if (m->dmabuf_fd >= 0)
        dev->os.close(dev->os.ctx, m->dmabuf_fd);
    nvmap_free(dev, m->handle);
fail_nohandle:
    free(m);
    return rc;
}

void nvt_mem_free(nvt_dev *dev, nvt_mem *m) {
    if (!m)
        return;
    if (m->gpu_va) {
        struct nvt_as_unmap_buffer u = {m->gpu_va};
        nvt_ioctl(dev, dev->as_fd, NVT_AS_IOCTL_UNMAP_BUFFER, &u, "UNMAP_BUFFER");
    }
    dev->os.munmap(dev->os.ctx, m->cpu, m->size);
    dev->os.close(dev->os.ctx, m->dmabuf_fd);
    nvmap_free(dev, m->handle);
    free(m);
}
