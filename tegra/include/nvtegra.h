/* nvtegra.h - libnvtegra: a userspace driver for the NVIDIA Jetson Orin iGPU (ga10b, SM 8.7)
 * that talks to the L4T kernel drivers nvmap and nvgpu directly, without the CUDA runtime.
 *
 * Layers, bottom up (see docs/tegra.md):
 *   nvt_os       the only way the library reaches the OS (open/ioctl/mmap/munmap/close); the
 *                real table calls libc, tests plug in the simulated kernel driver.
 *   nvt_dev      device, memory (nvmap + GPU mappings), address space.
 *   nvt_queue    TSG + subcontext + channel with usermode submit; launches, copies, signals.
 *   nvt_cmd_*    pure command encoders: GPFIFO entries, method headers, semaphores, QMD v03,
 *                copy engine, and the GPFIFO ring arithmetic.
 *   nvt_module   sm_87 cubin loading: kernel code, parameter layout, registers, shared memory.
 *
 * Errors: functions return 0 or a negative errno; nvt_dev_error() holds a one-line message. */
#ifndef NVTEGRA_H
#define NVTEGRA_H

#include <stddef.h>
#include <stdint.h>
#include <sys/types.h>

#ifdef __cplusplus
extern "C" {
#endif

#if defined(__GNUC__)
#define NVT_API __attribute__((visibility("default")))
#else
#define NVT_API
#endif

/* ---- OS backend --------------------------------------------------------------------------- */

typedef struct nvt_os {
    int (*open)(void *ctx, const char *path, int flags);
    int (*ioctl)(void *ctx, int fd, unsigned long request, void *arg);
    void *(*mmap)(void *ctx, void *addr, size_t len, int prot, int flags, int fd, off_t offset);
    int (*munmap)(void *ctx, void *addr, size_t len);
    int (*close)(void *ctx, int fd);
    void *ctx;
} nvt_os;

/* The real kernel: libc's open/ioctl/mmap/munmap/close.  Each returns -errno on failure
 * (mmap: MAP_FAILED with errno set). */
NVT_API const nvt_os *nvt_os_linux(void);

/* ---- Device ------------------------------------------------------------------------------- */

typedef enum { NVT_ABI_R35 = 35, NVT_ABI_R36 = 36 } nvt_abi;

typedef struct nvt_info {
    nvt_abi abi;
    uint32_t compute_class, gpfifo_class, dma_copy_class;
    uint32_t sm_version; /* 0x807 on Orin */
    uint64_t flags;      /* GET_CHARACTERISTICS flags */
    uint32_t chars_size; /* bytes of characteristics the kernel reported */
    char ctrl_path[64];  /* the node that answered */
    uint32_t tpc_count;  /* num_gpc * num_tpc_per_gpc (architectural maximum): sizes local memory */
} nvt_info;

typedef struct nvt_dev nvt_dev;

/* Open /dev/nvmap and the nvgpu ctrl node (/dev/nvgpu/igpu0/ctrl, else /dev/nvhost-ctrl-gpu),
 * read the characteristics, detect the ABI, create a unified-VA address space and map the
 * usermode doorbell.  os NULL means nvt_os_linux().  Returns -ENODEV with "no nvgpu device
 * found" when neither node exists.  On failure *out is NULL and, if err is non-NULL, the
 * message is copied into err[errlen]. */
NVT_API int nvt_dev_open(const nvt_os *os, nvt_dev **out, char *err, size_t errlen);
NVT_API void nvt_dev_close(nvt_dev *dev);
NVT_API const nvt_info *nvt_dev_info(const nvt_dev *dev);
NVT_API const char *nvt_dev_error(const nvt_dev *dev);

/* ---- Memory ------------------------------------------------------------------------------- */

enum {
    NVT_MEM_CACHED = 0,        /* nvmap CACHEABLE (default: command buffers, arguments) */
    NVT_MEM_WRITE_COMBINE = 1, /* nvmap WRITE_COMBINE */
    NVT_MEM_UNCACHED = 2,      /* nvmap UNCACHEABLE */
    NVT_MEM_CACHE_MASK = 3,
    NVT_MEM_NO_GPU_MAP = 1 << 4, /* CPU mapping only (USERD and GPFIFO of a channel) */
};

typedef struct nvt_mem {
    void *cpu;       /* CPU mapping of the dmabuf */
    uint64_t gpu_va; /* 0 with NVT_MEM_NO_GPU_MAP */
    size_t size;     /* rounded up to the page size */
    int dmabuf_fd;
    uint32_t handle; /* nvmap handle */
} nvt_mem;

/* nvmap create + alloc (IOVMM heap, tagged) -> dmabuf fd -> CPU mmap -> MAP_BUFFER_EX. */
NVT_API int nvt_mem_alloc(nvt_dev *dev, size_t size, unsigned flags, nvt_mem **out);
/* Unmap from the GPU and the CPU, close the dmabuf fd, free the nvmap handle. */
NVT_API void nvt_mem_free(nvt_dev *dev, nvt_mem *mem);

/* ---- Command layer (pure functions) ------------------------------------------------------- */

enum { NVT_SEC_INC = 1, NVT_SEC_NON_INC = 3, NVT_SEC_IMMD = 4, NVT_SEC_ONE_INC = 5 };
enum { NVT_SUBCH_COMPUTE = 1, NVT_SUBCH_COPY = 4 };

/* Host (C56F/C76F) methods, byte offsets. */
#define NVT_HOST_SET_OBJECT 0x000u
#define NVT_HOST_SEM_ADDR_LO 0x05cu
#define NVT_HOST_SEM_ADDR_HI 0x060u
#define NVT_HOST_SEM_PAYLOAD_LO 0x064u
#define NVT_HOST_SEM_PAYLOAD_HI 0x068u
#define NVT_HOST_SEM_EXECUTE 0x06cu
#define NVT_HOST_MEM_OP_A 0x028u /* ..MEM_OP_D 0x034: MEMBAR and TLB operations */
#define NVT_HOST_MEM_OP_D 0x034u
#define NVT_HOST_WFI 0x078u
#define NVT_SEM_ACQUIRE 0u
#define NVT_SEM_RELEASE 1u
#define NVT_SEM_ACQ_STRICT_GEQ 2u
#define NVT_SEM_ACQ_CIRC_GEQ 3u
#define NVT_SEM_RELEASE_WFI (1u << 20)
#define NVT_SEM_PAYLOAD_64 (1u << 24)
#define NVT_SEM_TIMESTAMP (1u << 25)

/* Compute (C7C0) methods. */
#define NVT_COMPUTE_SEND_PCAS_A 0x2b4u
#define NVT_COMPUTE_SEND_SIGNALING_PCAS2_B 0x2c0u
#define NVT_PCAS_ACTION_SCHEDULE 2u
#define NVT_PCAS_ACTION_PREFETCH_SCHEDULE 9u
/* The generic-address windows where shared and local memory appear (A: address bits 48:32,
 * B: bits 31:0), the local-memory backing store (A/B, same split) and its size per TPC
 * (NON_THROTTLED A: size bits 39:32, B: bits 31:0, C: the SM count it covers). */
#define NVT_COMPUTE_SET_SHADER_SHARED_MEMORY_WINDOW_A 0x2a0u
#define NVT_COMPUTE_SET_SHADER_LOCAL_MEMORY_NON_THROTTLED_A 0x2e4u
#define NVT_COMPUTE_SET_SHADER_LOCAL_MEMORY_A 0x790u
#define NVT_COMPUTE_SET_SHADER_LOCAL_MEMORY_WINDOW_A 0x7b0u

/* Copy engine (C7B5) methods and LAUNCH_DMA fields. */
#define NVT_COPY_LAUNCH_DMA 0x300u
#define NVT_COPY_OFFSET_IN_UPPER 0x400u
#define NVT_COPY_OFFSET_OUT_UPPER 0x408u
#define NVT_COPY_LINE_LENGTH_IN 0x418u
#define NVT_COPY_LINE_COUNT 0x41cu
#define NVT_DMA_NON_PIPELINED 2u
#define NVT_DMA_FLUSH_ENABLE (1u << 2)
#define NVT_DMA_SRC_PITCH (1u << 7)
#define NVT_DMA_DST_PITCH (1u << 8)
#define NVT_DMA_MULTI_LINE (1u << 9)
/* Bytes one LAUNCH_DMA moves at most: LINE_LENGTH_IN is documented as 32 bits, but some
 * sources say 24; staying below 2^23 is safe either way. */
#define NVT_COPY_CHUNK (1u << 23)

/* A method header.  count is the number of data words (IMMD: the 13-bit immediate). */
NVT_API uint32_t nvt_cmd_header(unsigned sec_op, unsigned subch, uint32_t method, uint32_t count);
/* A GPFIFO entry pointing at len_dwords of pushbuffer at gpu_va (4-byte aligned). */
NVT_API uint64_t nvt_cmd_gpfifo_entry(uint64_t gpu_va, uint32_t len_dwords);

/* A pushbuffer being written; the emitters never write past cap (they set overflow). */
typedef struct nvt_pb {
    uint32_t *words;
    uint32_t len, cap;
    int overflow;
} nvt_pb;

NVT_API void nvt_pb_method(nvt_pb *pb, unsigned subch, uint32_t method, const uint32_t *data,
                           uint32_t n);
NVT_API void nvt_pb_immd(nvt_pb *pb, unsigned subch, uint32_t method, uint32_t value);
/* Host SYS_MEMBAR (MEM_OP_A..D): earlier work's memory writes are visible system-wide, the
 * CPU included, before anything after it (libnvtegra: before each timeline release). */
NVT_API void nvt_pb_membar(nvt_pb *pb);
/* Host semaphore release of a 32- or 64-bit payload, after a wait-for-idle if wfi. */
NVT_API void nvt_pb_sem_release(nvt_pb *pb, uint64_t va, uint64_t payload, int payload64, int wfi);
/* Host semaphore acquire: wait until *(va) >= payload (64-bit: strict, 32-bit: circular). */
NVT_API void nvt_pb_sem_acquire(nvt_pb *pb, uint64_t va, uint64_t payload, int payload64);
/* Schedule the QMD at qmd_va (256-byte aligned) on the compute subchannel. */
NVT_API void nvt_pb_launch_qmd(nvt_pb *pb, uint64_t qmd_va);
/* A 1-D copy of bytes (<= NVT_COPY_CHUNK) on the copy subchannel. */
NVT_API void nvt_pb_copy(nvt_pb *pb, uint64_t dst_va, uint64_t src_va, uint32_t bytes);

/* QMD v03_00: 64 dwords; field positions in MW bit numbering (bit b is dword b/32). */
#define NVT_QMD_WORDS 64
#define NVT_QMD_BYTES 256
NVT_API void nvt_qmd_set(uint32_t *qmd, unsigned hi, unsigned lo, uint64_t value);
NVT_API uint64_t nvt_qmd_get(const uint32_t *qmd, unsigned hi, unsigned lo);

/* sm_8x reserves 1 KiB of shared memory per block for the system: nvt_qmd_build adds it to
 * shared_bytes, which can therefore be at most the 164 KiB SM carve-out minus 1 KiB. */
#define NVT_SHARED_RESERVED 1024u
#define NVT_SHARED_MAX (164u * 1024 - NVT_SHARED_RESERVED)

typedef struct nvt_qmd_desc {
    uint64_t program_va; /* first instruction of the kernel */
    uint32_t grid[3], block[3];
    uint32_t shared_bytes; /* the kernel's static + dynamic shared memory, without the 1 KiB */
    uint32_t registers;
    uint32_t barriers;
    uint64_t cbuf0_va; /* constant bank 0: driver area + parameters */
    uint32_t cbuf0_size;
    uint64_t release_va; /* 0: no QMD release (libnvtegra signals from the pushbuffer) */
    uint32_t release_payload;
    uint32_t local_bytes; /* local memory per thread (multiple of 16; 0: none) */
} nvt_qmd_desc;

/* Fill qmd[64]; -EINVAL (with no write) for out-of-range values (grid, block, alignment). */
NVT_API int nvt_qmd_build(uint32_t *qmd, const nvt_qmd_desc *d);

/* GPFIFO ring arithmetic: entries is a power of two; one slot stays empty so that put == get
 * means empty.  Pure: the caller owns put and reads get from USERD. */
NVT_API uint32_t nvt_ring_free(uint32_t put, uint32_t get, uint32_t entries);

/* ---- Modules (sm_87 cubins) --------------------------------------------------------------- */

#define NVT_MAX_PARAMS 64
/* Parameters start at this offset of constant bank 0 on Volta and later. */
#define NVT_CBUF0_PARAM_BASE 0x160u
/* The driver area below it, as nvt_launch fills it (docs/tegra-abi.md): blockDim (3 x u32),
 * gridDim (3 x u32), the shared and local windows (u64 each) and the stack top (u64: the
 * kernel's local bytes per thread, where its stack pointer starts). */
#define NVT_CBUF0_BLOCK_DIM 0x00u
#define NVT_CBUF0_GRID_DIM 0x0cu
#define NVT_CBUF0_SHARED_WINDOW 0x18u
#define NVT_CBUF0_LOCAL_WINDOW 0x20u
#define NVT_CBUF0_STACK_TOP 0x28u
#define NVT_CBUF0_DRIVER_END 0x30u

typedef struct nvt_kernel_info {
    const char *name;
    const void *code;
    size_t code_size;
    uint32_t registers;
    uint32_t shared_bytes;
    uint32_t barriers;
    uint32_t param_base, param_size; /* in constant bank 0 */
    uint32_t nparams;
    uint16_t param_offset[NVT_MAX_PARAMS]; /* relative to param_base, by ordinal */
    uint16_t param_bytes[NVT_MAX_PARAMS];
    uint32_t cbuf0_size; /* size of .nv.constant0.<name> */
    /* Local memory per thread: the larger of MIN_STACK_SIZE (EIATTR 0x12) and FRAME_SIZE
     * (0x11), rounded up to 16; the queue allocates and windows it at launch. */
    uint32_t local_bytes;
} nvt_kernel_info;

typedef struct nvt_module nvt_module;

/* Parse an sm_87 cubin (the bytes are copied); errors name the problem in err. */
NVT_API int nvt_module_parse(const void *elf, size_t size, nvt_module **out, char *err,
                             size_t errlen);
NVT_API void nvt_module_destroy(nvt_module *mod);
NVT_API const nvt_kernel_info *nvt_module_kernel(const nvt_module *mod, const char *name);
NVT_API uint32_t nvt_module_count(const nvt_module *mod);
NVT_API const nvt_kernel_info *nvt_module_kernel_at(const nvt_module *mod, uint32_t i);
/* Write the parameters (args[i] points at param_bytes[i] bytes) into cbuf0 at param_base. */
NVT_API int nvt_kernel_bind_params(const nvt_kernel_info *k, void *cbuf0, size_t cbuf0_size,
                                   const void *const *args, uint32_t nargs);

/* ---- Queues ------------------------------------------------------------------------------- */

typedef struct nvt_queue nvt_queue;

/* Where each queue places the shared- and local-memory windows of the generic address space.
 * Outside every GPU mapping: above the [64 MiB, 2^37) address space and the kernel's area
 * after it, 4 GiB apart (a window spans at most 16 MiB). */
#define NVT_SHARED_WINDOW 0x4000000000ull
#define NVT_LOCAL_WINDOW 0x4100000000ull
/* Threads one TPC can hold at once on sm_87 (2 SMs x 1536): sizes the local-memory store. */
#define NVT_THREADS_PER_TPC 3072u

typedef struct nvt_queue_opts {
    uint32_t gpfifo_entries; /* power of two; 0 = 1024 */
    uint32_t pushbuf_bytes;  /* 0 = 256 KiB */
    uint32_t arg_slots;      /* kernel-argument slots recycled after completion; 0 = 256 */
    /* Must be 0: usermode submit needs a deterministic channel, which nvgpu allows only with
     * the channel watchdog disabled, so the queue always disables it (CHANNEL_WDT) before
     * SETUP_BIND.  Any other value makes nvt_queue_create fail with -EINVAL.  (A hung channel
     * shows up as an nvt_queue_wait timeout instead.) */
    uint32_t watchdog_ms;
} nvt_queue_opts;

NVT_API int nvt_queue_create(nvt_dev *dev, const nvt_queue_opts *opts, nvt_queue **out);
NVT_API void nvt_queue_destroy(nvt_queue *q);

/* A kernel loaded into GPU memory. */
typedef struct nvt_kernel {
    nvt_kernel_info info;
    uint64_t code_va;
    nvt_mem *code_mem;
} nvt_kernel;

NVT_API int nvt_kernel_load(nvt_dev *dev, const nvt_kernel_info *info, nvt_kernel **out);
NVT_API void nvt_kernel_unload(nvt_dev *dev, nvt_kernel *k);

/* Launch k on grid x block; the parameters are copied into a recycled argument slot.  On
 * success *signal (if non-NULL) is the queue timeline value that marks its completion. */
NVT_API int nvt_launch(nvt_queue *q, const nvt_kernel *k, const uint32_t grid[3],
                       const uint32_t block[3], const void *const *args, uint32_t nargs,
                       uint64_t *signal);
/* nvt_launch with dynamic_shared bytes of dynamic shared memory (extern __shared__) on top of
 * the kernel's static shared memory; -E2BIG past NVT_SHARED_MAX in all. */
NVT_API int nvt_launch_shared(nvt_queue *q, const nvt_kernel *k, const uint32_t grid[3],
                              const uint32_t block[3], uint32_t dynamic_shared,
                              const void *const *args, uint32_t nargs, uint64_t *signal);
/* Copy-engine copy between GPU addresses (any size; split into LAUNCH_DMAs). */
NVT_API int nvt_copy(nvt_queue *q, uint64_t dst_va, uint64_t src_va, uint64_t bytes,
                     uint64_t *signal);
/* Make q wait (on the GPU) until other's timeline reaches value. */
NVT_API int nvt_queue_wait_for(nvt_queue *q, const nvt_queue *other, uint64_t value);
/* Block the CPU until q's timeline reaches value.  -ETIMEDOUT after timeout_ms, with a message
 * naming the timeline, GP_GET and GP_PUT: that is how a faulted or hung channel shows up (the
 * driver does not yet read nvgpu's error notifier, so it cannot tell the two apart); -EINVAL
 * for a value never submitted. */
NVT_API int nvt_queue_wait(nvt_queue *q, uint64_t value, uint32_t timeout_ms);
/* Wait for everything submitted so far. */
NVT_API int nvt_queue_sync(nvt_queue *q, uint32_t timeout_ms);
NVT_API uint64_t nvt_queue_completed(const nvt_queue *q);
NVT_API uint64_t nvt_queue_last_signal(const nvt_queue *q);
/* GPU VA of the queue's 64-bit timeline semaphore. */
NVT_API uint64_t nvt_queue_timeline_va(const nvt_queue *q);

/* Host<->device copies on this unified-memory device: sync the queue, then memcpy. */
NVT_API int nvt_memcpy_from_device(nvt_queue *q, void *dst, const nvt_mem *src, size_t off,
                                   size_t bytes);
NVT_API int nvt_memcpy_to_device(nvt_queue *q, nvt_mem *dst, size_t off, const void *src,
                                 size_t bytes);

#ifdef __cplusplus
}
#endif

#endif
