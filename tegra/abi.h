/* abi.h - our own definitions of the nvmap and nvgpu ioctl ABI that libnvtegra speaks, for L4T
 * r36 (JetPack 6) and r35 (JetPack 5).
 *
 * Written from the facts in docs/tegra.md (sizes, offsets, ioctl numbers), not copied from the
 * kernel headers (GPL-2.0 without the syscall note).  Every struct is checked twice: its size and
 * each field offset with _Static_assert, and the ioctl number built from it with _IOWR()/_IOW()
 * against the number computed from the real headers.  A wrong field size or a missing pad
 * therefore fails the build, not a Jetson.
 *
 * The simulated kernel driver (tegra/sim/) includes this header too, so it shares our reading of
 * the ABI: a misunderstanding here is invisible to the simulator tests. */
#ifndef NVTEGRA_ABI_H
#define NVTEGRA_ABI_H

#include <stddef.h>
#include <stdint.h>
#include <sys/ioctl.h>

#define NVT_ASSERT_SIZE(T, n) _Static_assert(sizeof(T) == (n), #T " must be " #n " bytes")
#define NVT_ASSERT_OFF(T, f, n) _Static_assert(offsetof(T, f) == (n), #T "." #f " must be at " #n)
#define NVT_ASSERT_IOCTL(req, n) _Static_assert((unsigned long)(req) == (n##UL), #req " != " #n)

/* ---- nvmap (/dev/nvmap) ---------------------------------------------------------------- */

/* CREATE: size in, handle out.  GET_FD: handle in, dmabuf fd out in the first word. */
struct nvt_nvmap_handle {
    uint32_t size_or_fd;
    uint32_t handle;
};
NVT_ASSERT_SIZE(struct nvt_nvmap_handle, 8);
NVT_ASSERT_OFF(struct nvt_nvmap_handle, handle, 4);

struct nvt_nvmap_alloc_r35 {
    uint32_t handle, heap_mask, flags, align;
};
struct nvt_nvmap_alloc_r36 {
    uint32_t handle, heap_mask, flags, align;
    int32_t numa_nid;
};
NVT_ASSERT_SIZE(struct nvt_nvmap_alloc_r35, 16);
NVT_ASSERT_SIZE(struct nvt_nvmap_alloc_r36, 20);
NVT_ASSERT_OFF(struct nvt_nvmap_alloc_r36, flags, 8);
NVT_ASSERT_OFF(struct nvt_nvmap_alloc_r36, align, 12);
NVT_ASSERT_OFF(struct nvt_nvmap_alloc_r36, numa_nid, 16);

#define NVT_NVMAP_IOC_CREATE _IOWR('N', 0, struct nvt_nvmap_handle)
#define NVT_NVMAP_IOC_ALLOC_R35 _IOW('N', 3, struct nvt_nvmap_alloc_r35)
#define NVT_NVMAP_IOC_ALLOC_R36 _IOW('N', 3, struct nvt_nvmap_alloc_r36)
#define NVT_NVMAP_IOC_FREE _IO('N', 4)
#define NVT_NVMAP_IOC_GET_FD _IOWR('N', 15, struct nvt_nvmap_handle)
NVT_ASSERT_IOCTL(NVT_NVMAP_IOC_CREATE, 0xC0084E00);
NVT_ASSERT_IOCTL(NVT_NVMAP_IOC_ALLOC_R35, 0x40104E03);
NVT_ASSERT_IOCTL(NVT_NVMAP_IOC_ALLOC_R36, 0x40144E03);
NVT_ASSERT_IOCTL(NVT_NVMAP_IOC_FREE, 0x4E04);
NVT_ASSERT_IOCTL(NVT_NVMAP_IOC_GET_FD, 0xC0084E0F);

#define NVT_NVMAP_HEAP_IOVMM (1u << 30)
#define NVT_NVMAP_UNCACHEABLE 0u
#define NVT_NVMAP_WRITE_COMBINE 1u
#define NVT_NVMAP_INNER_CACHEABLE 2u
#define NVT_NVMAP_CACHEABLE 3u
/* nvmap takes an allocation tag in the upper 16 bits of flags and complains in the kernel log
 * about untagged allocations; ours is 'NT'. */
#define NVT_NVMAP_TAG 0x4e54u
#define NVT_NVMAP_TAG_SHIFT 16

/* ---- nvgpu ctrl (/dev/nvgpu/igpu0/ctrl) --------------------------------------------------- */

struct nvt_gpu_get_characteristics {
    uint64_t buf_size;
    uint64_t buf_addr;
};
NVT_ASSERT_SIZE(struct nvt_gpu_get_characteristics, 16);
#define NVT_GPU_IOCTL_GET_CHARACTERISTICS _IOWR('G', 5, struct nvt_gpu_get_characteristics)
NVT_ASSERT_IOCTL(NVT_GPU_IOCTL_GET_CHARACTERISTICS, 0xC0104705);

/* The characteristics struct itself is read as bytes at per-release offsets; the kernel reports
 * the size it wrote in buf_size, which is how libnvtegra tells r35 (312) from r36 (328).  r36
 * inserted `s32 numa_domain_id` after num_gpc (offset 16), which moves every later u64-aligned
 * field by 8 (struct nvgpu_gpu_characteristics in nvgpu-ctrl.h of both releases; the table in
 * docs/tegra-abi.md gives each field's line). */
#define NVT_CHARS_SIZE_R35 312u
#define NVT_CHARS_SIZE_R36 328u
typedef struct nvt_chars_layout {
    uint32_t size;
    uint32_t num_gpc, num_tpc_per_gpc, big_page_size, pde_coverage_bit_count;
    uint32_t available_big_page_sizes, flags;
    uint32_t compute_class, gpfifo_class, dma_copy_class, sm_version;
} nvt_chars_layout;
/* abi is 35 or 36 (nvt_abi).  A function, not a table in the header: an unused static table
 * would trip -Wunused-const-variable in every file that includes this one. */
static inline const nvt_chars_layout *nvt_chars_layout_of(int abi) {
    static const nvt_chars_layout r35 = {
        NVT_CHARS_SIZE_R35, 12, 32, 40, 48, 52, 56, 72, 76, 84, 92};
    static const nvt_chars_layout r36 = {
        NVT_CHARS_SIZE_R36, 12, 40, 48, 56, 60, 64, 80, 84, 92, 100};
    return abi == 35 ? &r35 : &r36;
}
#define NVT_CHARS_FLAG_SYNCPOINT_ADDRESS (1ull << 26)
#define NVT_CHARS_FLAG_USER_SYNCPOINT (1ull << 28)
#define NVT_CHARS_FLAG_USERMODE_SUBMIT (1ull << 30)

struct nvt_gpu_alloc_as {
    uint32_t big_page_size;
    int32_t as_fd;
    uint32_t flags;
    uint32_t reserved;
    uint64_t va_range_start, va_range_end, va_range_split;
    uint32_t padding[6];
};
NVT_ASSERT_SIZE(struct nvt_gpu_alloc_as, 64);
NVT_ASSERT_OFF(struct nvt_gpu_alloc_as, as_fd, 4);
NVT_ASSERT_OFF(struct nvt_gpu_alloc_as, flags, 8);
NVT_ASSERT_OFF(struct nvt_gpu_alloc_as, va_range_start, 16);
NVT_ASSERT_OFF(struct nvt_gpu_alloc_as, va_range_split, 32);
#define NVT_GPU_IOCTL_ALLOC_AS _IOWR('G', 8, struct nvt_gpu_alloc_as)
NVT_ASSERT_IOCTL(NVT_GPU_IOCTL_ALLOC_AS, 0xC0404708);
#define NVT_AS_FLAG_UNIFIED_VA (1u << 1)
/* The address space libnvtegra asks for (both releases).  nvgpu's gk20a_vm_alloc_share
 * (common/mm/as.c) rejects with EINVAL: va_range_start or _end zero or not aligned to the PDE
 * size (1 << pde_coverage_bit_count of the big page size), start >= end, a non-zero split with
 * UNIFIED_VA (or without big pages), and a big_page_size that is not a power of two among
 * available_big_page_sizes.  big_page_size 0 means "no big pages", not "the default". */
#define NVT_AS_BIG_PAGE_SIZE 0x10000u
#define NVT_AS_VA_START (64ull << 20)
#define NVT_AS_VA_END (1ull << 37)

struct nvt_gpu_open_tsg_r35 {
    uint32_t tsg_fd, reserved;
};
struct nvt_gpu_open_tsg_r36 {
    uint32_t tsg_fd, flags;
    uint64_t source_device_instance_id, share_token;
};
NVT_ASSERT_SIZE(struct nvt_gpu_open_tsg_r35, 8);
NVT_ASSERT_SIZE(struct nvt_gpu_open_tsg_r36, 24);
NVT_ASSERT_OFF(struct nvt_gpu_open_tsg_r36, source_device_instance_id, 8);
NVT_ASSERT_OFF(struct nvt_gpu_open_tsg_r36, share_token, 16);
#define NVT_GPU_IOCTL_OPEN_TSG_R35 _IOWR('G', 9, struct nvt_gpu_open_tsg_r35)
#define NVT_GPU_IOCTL_OPEN_TSG_R36 _IOWR('G', 9, struct nvt_gpu_open_tsg_r36)
NVT_ASSERT_IOCTL(NVT_GPU_IOCTL_OPEN_TSG_R35, 0xC0084709);
NVT_ASSERT_IOCTL(NVT_GPU_IOCTL_OPEN_TSG_R36, 0xC0184709);

/* runlist_id in (-1: the graphics/compute runlist), channel_fd out. */
union nvt_gpu_open_channel {
    int32_t runlist_id;
    int32_t channel_fd;
};
NVT_ASSERT_SIZE(union nvt_gpu_open_channel, 4);
#define NVT_GPU_IOCTL_OPEN_CHANNEL _IOWR('G', 11, union nvt_gpu_open_channel)
NVT_ASSERT_IOCTL(NVT_GPU_IOCTL_OPEN_CHANNEL, 0xC004470B);

/* ---- nvgpu address space (fd from ALLOC_AS) ----------------------------------------------- */

struct nvt_as_bind_channel {
    uint32_t channel_fd;
};
NVT_ASSERT_SIZE(struct nvt_as_bind_channel, 4);
#define NVT_AS_IOCTL_BIND_CHANNEL _IOWR('A', 1, struct nvt_as_bind_channel)
NVT_ASSERT_IOCTL(NVT_AS_IOCTL_BIND_CHANNEL, 0xC0044101);

struct nvt_as_alloc_space {
    uint64_t pages;
    uint32_t page_size, flags;
    uint64_t offset_or_align;
    uint32_t padding[2];
};
NVT_ASSERT_SIZE(struct nvt_as_alloc_space, 32);
NVT_ASSERT_OFF(struct nvt_as_alloc_space, page_size, 8);
NVT_ASSERT_OFF(struct nvt_as_alloc_space, flags, 12);
NVT_ASSERT_OFF(struct nvt_as_alloc_space, offset_or_align, 16);
#define NVT_AS_IOCTL_ALLOC_SPACE _IOWR('A', 6, struct nvt_as_alloc_space)
NVT_ASSERT_IOCTL(NVT_AS_IOCTL_ALLOC_SPACE, 0xC0204106);
#define NVT_AS_ALLOC_SPACE_FIXED_OFFSET 1u
#define NVT_AS_ALLOC_SPACE_SPARSE 2u

struct nvt_as_unmap_buffer {
    uint64_t offset;
};
NVT_ASSERT_SIZE(struct nvt_as_unmap_buffer, 8);
#define NVT_AS_IOCTL_UNMAP_BUFFER _IOWR('A', 5, struct nvt_as_unmap_buffer)
NVT_ASSERT_IOCTL(NVT_AS_IOCTL_UNMAP_BUFFER, 0xC0084105);

struct nvt_as_map_buffer_ex {
    uint32_t flags;
    int16_t compr_kind, incompr_kind;
    uint32_t dmabuf_fd;
    uint32_t page_size;
    uint64_t buffer_offset;
    uint64_t mapping_size;
    uint64_t offset;
};
NVT_ASSERT_SIZE(struct nvt_as_map_buffer_ex, 40);
NVT_ASSERT_OFF(struct nvt_as_map_buffer_ex, compr_kind, 4);
NVT_ASSERT_OFF(struct nvt_as_map_buffer_ex, incompr_kind, 6);
NVT_ASSERT_OFF(struct nvt_as_map_buffer_ex, dmabuf_fd, 8);
NVT_ASSERT_OFF(struct nvt_as_map_buffer_ex, page_size, 12);
NVT_ASSERT_OFF(struct nvt_as_map_buffer_ex, buffer_offset, 16);
NVT_ASSERT_OFF(struct nvt_as_map_buffer_ex, mapping_size, 24);
NVT_ASSERT_OFF(struct nvt_as_map_buffer_ex, offset, 32);
#define NVT_AS_IOCTL_MAP_BUFFER_EX _IOWR('A', 7, struct nvt_as_map_buffer_ex)
NVT_ASSERT_IOCTL(NVT_AS_IOCTL_MAP_BUFFER_EX, 0xC0284107);
/* MAP_BUFFER_EX flags (nvgpu-as.h).  The coherent flag moved between releases: r35 has
 * IO_COHERENT at bit 4 and PLATFORM_ATOMIC at bit 9; r36 dropped both and DIRECT_KIND_CTRL and
 * has SYSTEM_COHERENT at bit 9.  libnvtegra sets neither coherent flag (nvmap's cache mode
 * decides); they are defined so the simulator rejects the other release's bits. */
#define NVT_AS_MAP_FIXED_OFFSET 1u
#define NVT_AS_MAP_CACHEABLE 4u
#define NVT_AS_MAP_IO_COHERENT_R35 (1u << 4)
#define NVT_AS_MAP_DIRECT_KIND_CTRL (1u << 8) /* r35 only: the kinds are used only with this */
#define NVT_AS_MAP_PLATFORM_ATOMIC_R35 (1u << 9)
#define NVT_AS_MAP_SYSTEM_COHERENT_R36 (1u << 9)
#define NVT_KIND_INVALID (-1)
#define NVT_KIND_PITCH 0 /* generic pitch-linear memory */

struct nvt_as_get_sync_ro_map {
    uint64_t base_gpuva;
    uint32_t sync_size, num_syncpoints;
};
NVT_ASSERT_SIZE(struct nvt_as_get_sync_ro_map, 16);

/* ---- nvgpu TSG (fd from OPEN_TSG) ---------------------------------------------------------- */

struct nvt_tsg_bind_channel_ex {
    int32_t channel_fd;
    uint32_t subcontext_id;
    uint8_t reserved[16];
};
NVT_ASSERT_SIZE(struct nvt_tsg_bind_channel_ex, 24);
NVT_ASSERT_OFF(struct nvt_tsg_bind_channel_ex, subcontext_id, 4);
#define NVT_TSG_IOCTL_BIND_CHANNEL_EX _IOWR('T', 11, struct nvt_tsg_bind_channel_ex)
NVT_ASSERT_IOCTL(NVT_TSG_IOCTL_BIND_CHANNEL_EX, 0xC018540B);

struct nvt_tsg_create_subcontext {
    uint32_t type;
    int32_t as_fd;
    uint32_t veid;
    uint32_t reserved;
};
NVT_ASSERT_SIZE(struct nvt_tsg_create_subcontext, 16);
NVT_ASSERT_OFF(struct nvt_tsg_create_subcontext, veid, 8);
#define NVT_TSG_IOCTL_CREATE_SUBCONTEXT _IOWR('T', 18, struct nvt_tsg_create_subcontext)
NVT_ASSERT_IOCTL(NVT_TSG_IOCTL_CREATE_SUBCONTEXT, 0xC0105412); /* r36 only */
#define NVT_SUBCONTEXT_SYNC 0u
#define NVT_SUBCONTEXT_ASYNC 1u

/* ---- nvgpu channel (fd from OPEN_CHANNEL) -------------------------------------------------- */

struct nvt_ch_setup_bind_r35 {
    uint32_t num_gpfifo_entries, num_inflight_jobs, flags;
    int32_t userd_dmabuf_fd, gpfifo_dmabuf_fd;
    uint32_t work_submit_token;
    uint64_t userd_dmabuf_offset, gpfifo_dmabuf_offset;
    uint32_t reserved[9];
};
struct nvt_ch_setup_bind_r36 {
    uint32_t num_gpfifo_entries, num_inflight_jobs, flags;
    int32_t userd_dmabuf_fd, gpfifo_dmabuf_fd;
    uint32_t work_submit_token;
    uint64_t userd_dmabuf_offset, gpfifo_dmabuf_offset;
    uint64_t gpfifo_gpu_va, userd_gpu_va, usermode_mmio_gpu_va;
    uint32_t reserved[9];
};
NVT_ASSERT_SIZE(struct nvt_ch_setup_bind_r35, 80);
NVT_ASSERT_SIZE(struct nvt_ch_setup_bind_r36, 104);
NVT_ASSERT_OFF(struct nvt_ch_setup_bind_r36, flags, 8);
NVT_ASSERT_OFF(struct nvt_ch_setup_bind_r36, userd_dmabuf_fd, 12);
NVT_ASSERT_OFF(struct nvt_ch_setup_bind_r36, gpfifo_dmabuf_fd, 16);
NVT_ASSERT_OFF(struct nvt_ch_setup_bind_r36, work_submit_token, 20);
NVT_ASSERT_OFF(struct nvt_ch_setup_bind_r36, userd_dmabuf_offset, 24);
NVT_ASSERT_OFF(struct nvt_ch_setup_bind_r36, gpfifo_dmabuf_offset, 32);
NVT_ASSERT_OFF(struct nvt_ch_setup_bind_r36, gpfifo_gpu_va, 40);
NVT_ASSERT_OFF(struct nvt_ch_setup_bind_r36, usermode_mmio_gpu_va, 56);
NVT_ASSERT_OFF(struct nvt_ch_setup_bind_r36, reserved, 64);
NVT_ASSERT_OFF(struct nvt_ch_setup_bind_r35, work_submit_token, 20);
NVT_ASSERT_OFF(struct nvt_ch_setup_bind_r35, reserved, 40);
#define NVT_CH_IOCTL_SETUP_BIND_R35 _IOWR('H', 128, struct nvt_ch_setup_bind_r35)
#define NVT_CH_IOCTL_SETUP_BIND_R36 _IOWR('H', 128, struct nvt_ch_setup_bind_r36)
NVT_ASSERT_IOCTL(NVT_CH_IOCTL_SETUP_BIND_R35, 0xC0504880);
NVT_ASSERT_IOCTL(NVT_CH_IOCTL_SETUP_BIND_R36, 0xC0684880);
/* nvgpu's channel_setup_bind_prechecks (common/fifo/channel.c, both releases): USERMODE_SUPPORT
 * without DETERMINISTIC is EINVAL, and DETERMINISTIC while the channel watchdog is enabled (its
 * default) is EINVAL: the watchdog must be disabled with CH WDT before SETUP_BIND.  After that,
 * a deterministic channel refuses any WDT status but DISABLE. */
#define NVT_SETUP_BIND_DETERMINISTIC 2u
#define NVT_SETUP_BIND_USERMODE_SUPPORT 8u
#define NVT_SETUP_BIND_USERMODE_GPU_MAP_RESOURCES 16u /* r36 only */

struct nvt_ch_alloc_obj_ctx {
    uint32_t class_num, flags;
    uint64_t obj_id;
};
NVT_ASSERT_SIZE(struct nvt_ch_alloc_obj_ctx, 16);
NVT_ASSERT_OFF(struct nvt_ch_alloc_obj_ctx, obj_id, 8);
#define NVT_CH_IOCTL_ALLOC_OBJ_CTX _IOWR('H', 108, struct nvt_ch_alloc_obj_ctx)
NVT_ASSERT_IOCTL(NVT_CH_IOCTL_ALLOC_OBJ_CTX, 0xC010486C);

struct nvt_ch_wdt {
    uint32_t wdt_status, timeout_ms;
};
NVT_ASSERT_SIZE(struct nvt_ch_wdt, 8);
#define NVT_CH_IOCTL_WDT _IOW('H', 119, struct nvt_ch_wdt)
NVT_ASSERT_IOCTL(NVT_CH_IOCTL_WDT, 0x40084877);
/* wdt_status: exactly one of DISABLE/ENABLE (else EINVAL), plus "timeout_ms is valid". */
#define NVT_WDT_DISABLE 1u
#define NVT_WDT_ENABLE 2u
#define NVT_WDT_SET_TIMEOUT 4u
#define NVT_WDT_DISABLE_DUMP 8u

struct nvt_ch_get_user_syncpoint {
    uint64_t gpu_va;
    uint32_t syncpoint_id, syncpoint_max;
};
NVT_ASSERT_SIZE(struct nvt_ch_get_user_syncpoint, 16);
#define NVT_CH_IOCTL_GET_USER_SYNCPOINT _IOR('H', 126, struct nvt_ch_get_user_syncpoint)
NVT_ASSERT_IOCTL(NVT_CH_IOCTL_GET_USER_SYNCPOINT, 0x8010487E);

/* CHANNEL_SET_NVMAP_FD ('H', 5): accepted and ignored by both releases (an empty case in
 * ioctl_channel.c's switch), so libnvtegra does not call it. */

/* ---- usermode doorbell ------------------------------------------------------------------- */

/* mmap(ctrl_fd, NVT_USERMODE_MAP_SIZE, offset 0) maps the usermode register window
 * (NV_USERMODE func_cfg0 0x30000); the doorbell (func_doorbell 0x30090) is a 32-bit store of
 * the channel's work_submit_token at +0x90. */
#define NVT_USERMODE_MAP_SIZE 0x10000u
#define NVT_USERMODE_DOORBELL 0x90u

/* USERD: the host's GP_GET and the producer's GP_PUT, in 32-bit words. */
#define NVT_USERD_GP_GET 0x88u
#define NVT_USERD_GP_PUT 0x8cu
#define NVT_USERD_SIZE 4096u

#endif
