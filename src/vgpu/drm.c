/* drm.c - the render node's ioctls, as much of amdgpu's DRM interface as libdrm's
 * amdgpu_device_initialize() and the thunk ask for: DRM_IOCTL_VERSION ("amdgpu"),
 * DRM_IOCTL_GET_CLIENT (the client is authenticated) and DRM_IOCTL_AMDGPU_INFO (ACCEL_WORKING,
 * DEV_INFO, READ_MMR_REG of GB_ADDR_CONFIG, VRAM_GTT, MEMORY, HW_IP_INFO, FW_VERSION).
 * Anything else is a one-line "gfxemu:" error and EINVAL.
 */
#include <errno.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include <drm.h>
#include <amdgpu_drm.h>

#include "vgpu/vgpu.h"

/* GB_ADDR_CONFIG's dword offset in the GC register space (gfx9). */
#define MM_GB_ADDR_CONFIG 0x263e

static int fail(int err) {
    errno = err;
    return -1;
}

/* Copy a string into a drm_version field: the caller gives a buffer and its size, gets the full
 * length back (a first call with length 0 asks for the sizes). */
static void put_str(char *dst, __kernel_size_t *len, const char *src) {
    size_t n = strlen(src);
    if (dst && *len)
        memcpy(dst, src, n < *len ? n : *len);
    *len = n;
}

static int render_gpu(int fd) {
    /* Which render node fd is: the minor it was opened as is not recorded (every node is the
     * same memfd), so all queries describe GPU 0's card; the cards are identical. */
    (void)fd;
    return 0;
}

static int info(int gpu, struct drm_amdgpu_info *q) {
    void *out = (void *)(uintptr_t)q->return_pointer;
    const vg_card *c = vg.card;
    if (!out)
        return fail(EINVAL);
    switch (q->query) {
    case AMDGPU_INFO_ACCEL_WORKING: {
        uint32_t v = 1;
        memcpy(out, &v, q->return_size < 4 ? q->return_size : 4);
        return 0;
    }
    case AMDGPU_INFO_DEV_INFO: {
        struct drm_amdgpu_info_device d;
        memset(&d, 0, sizeof d);
        d.device_id = c->device_id;
        d.pci_rev = c->pci_rev;
        d.family = c->family;
        d.num_shader_engines = c->shader_engines;
        d.num_shader_arrays_per_engine = 1;
        d.gpu_counter_freq = 100000; /* kHz */
        d.max_engine_clock = c->max_clock_mhz * 1000ull;
        d.max_memory_clock = 1600000;
        d.cu_active_number = c->cus;
        d.cu_ao_mask = 0xffffffffu;
        unsigned per_se = c->cus / c->shader_engines;
        for (unsigned se = 0; se < 4 && se < c->shader_engines; se++)
            d.cu_bitmap[se][0] = per_se >= 32 ? 0xffffffffu : (1u << per_se) - 1;
        d.num_rb_pipes = 0;
        d.virtual_address_offset = 0x200000;
        d.virtual_address_max = 0x800000000000ull;
        d.virtual_address_alignment = 4096;
        d.pte_fragment_size = 2 * 1024 * 1024;
        d.gart_page_size = 4096;
        d.vram_type = 6; /* AMDGPU_VRAM_TYPE_HBM */
        d.vram_bit_width = 4096;
        d.wave_front_size = 64;
        d.num_shader_visible_vgprs = 512;
        d.num_cu_per_sh = per_se;
        d.num_tcc_blocks = 16;
        d.high_va_offset = 0xffff800000000000ull;
        d.high_va_max = 0xffffffffffffffffull;
        (void)gpu;
        memcpy(out, &d, q->return_size < sizeof d ? q->return_size : sizeof d);
        return 0;
    }
    case AMDGPU_INFO_READ_MMR_REG: {
        uint32_t *regs = out;
        uint32_t n = q->read_mmr_reg.count;
        if ((uint64_t)n * 4 > q->return_size)
            return fail(EINVAL);
        for (uint32_t i = 0; i < n; i++) {
            uint32_t reg = q->read_mmr_reg.dword_offset + i;
            if (reg != MM_GB_ADDR_CONFIG) {
                vg_msg("AMDGPU_INFO_READ_MMR_REG of register 0x%x is not implemented (only "
                       "GB_ADDR_CONFIG)",
                       reg);
                return fail(EINVAL);
            }
            regs[i] = c->gb_addr_config;
        }
        return 0;
    }
    case AMDGPU_INFO_VRAM_GTT: {
        struct drm_amdgpu_info_vram_gtt v = {vg.vram, vg.vram, 16ull << 30};
        memcpy(out, &v, q->return_size < sizeof v ? q->return_size : sizeof v);
        return 0;
    }
    case AMDGPU_INFO_MEMORY: {
        struct drm_amdgpu_memory_info m;
        memset(&m, 0, sizeof m);
        m.vram.total_heap_size = m.vram.usable_heap_size = vg.vram;
        m.vram.max_allocation = vg.vram * 3 / 4;
        m.cpu_accessible_vram = m.vram;
        m.gtt.total_heap_size = m.gtt.usable_heap_size = 16ull << 30;
        m.gtt.max_allocation = 12ull << 30;
        memcpy(out, &m, q->return_size < sizeof m ? q->return_size : sizeof m);
        return 0;
    }
    case AMDGPU_INFO_FW_VERSION: {
        struct drm_amdgpu_info_firmware f = {78, 0};
        memcpy(out, &f, q->return_size < sizeof f ? q->return_size : sizeof f);
        return 0;
    }
    case AMDGPU_INFO_HW_IP_INFO: {
        struct drm_amdgpu_info_hw_ip h;
        memset(&h, 0, sizeof h);
        if (q->query_hw_ip.type == AMDGPU_HW_IP_COMPUTE ||
            q->query_hw_ip.type == AMDGPU_HW_IP_GFX) {
            h.hw_ip_version_major = 9;
            h.hw_ip_version_minor = c->gfx_target_version / 100 % 100;
            h.available_rings = 1;
        } else if (q->query_hw_ip.type == AMDGPU_HW_IP_DMA) {
            h.hw_ip_version_major = 4;
            h.available_rings = 1;
        }
        h.ib_start_alignment = 32;
        h.ib_size_alignment = 32;
        memcpy(out, &h, q->return_size < sizeof h ? q->return_size : sizeof h);
        return 0;
    }
    }
    vg_msg("AMDGPU_INFO query 0x%x is not implemented by the virtual GPU", q->query);
    return fail(EINVAL);
}

int vg_drm_ioctl(int fd, unsigned long req, void *arg) {
    if (!arg)
        return fail(EFAULT);
    switch (req) {
    case DRM_IOCTL_VERSION: {
        struct drm_version *v = arg;
        v->version_major = 3;
        v->version_minor = 49;
        v->version_patchlevel = 0;
        put_str(v->name, &v->name_len, "amdgpu");
        put_str(v->date, &v->date_len, "20150101");
        put_str(v->desc, &v->desc_len, "AMD GPU");
        return 0;
    }
    case DRM_IOCTL_GET_CLIENT: {
        struct drm_client *c = arg;
        if (c->idx != 0)
            return fail(EINVAL);
        c->auth = 1;
        c->pid = (unsigned long)getpid();
        c->uid = (unsigned long)getuid();
        c->magic = 0;
        c->iocs = 0;
        return 0;
    }
    case DRM_IOCTL_AMDGPU_INFO: return info(render_gpu(fd), arg);
    }
    vg_msg("DRM ioctl 0x%lx (nr 0x%02x) on the render node is not implemented by the virtual GPU",
           req, (unsigned)_IOC_NR(req));
    return fail(EINVAL);
}
