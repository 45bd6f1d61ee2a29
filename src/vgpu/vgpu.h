/* vgpu.h - the virtual GPU behind `gfxemu exec` (issue #23, docs/virtual-gpu.md).
 *
 * libgfxemu-vgpu.so is preloaded into an unmodified ROCm program.  It answers the kernel driver's
 * interface the way amdgpu/amdkfd would: /dev/kfd ioctls (kfd.c), the DRM render node's ioctls
 * (drm.c), the sysfs topology and /proc/modules (topology.c, a tree of real files that paths are
 * redirected into, see interpose.c), and user-mode queues run by a thread per queue that
 * launches kernels on gfxemu's engine: AQL (queue.c), PM4 compute (pm4.c) and SDMA (sdma.c).
 *
 * Memory: every fake device file (/dev/kfd and each render node) is the same memfd.  Every object
 * a program may mmap (buffer objects, doorbell pages) owns a range of that file, and the
 * mmap offset the driver returns for it is the range's offset, so the file's bytes at that offset
 * ARE the object's memory: an mmap this library never sees (a dlsym'd libc mmap) still maps the
 * right pages.  VRAM and GTT buffer objects are also mapped at their GPU virtual address at
 * allocation, so GPU VA == host VA and kernels run on host pointers (src/mem host-address mode,
 * each buffer registered while it is mapped to the GPU).
 *
 * Layer: a client of the engine (like tools/ and python/); nothing below it knows it exists.  It
 * uses the internal dispatch interface (src/dispatch/dispatch.h) to launch a kernel descriptor
 * that lives in host memory, with the program's own dispatch packet, queue and kernarg pointers.
 */
#ifndef GFXEMU_VGPU_H
#define GFXEMU_VGPU_H

#include <pthread.h>
#include <stddef.h>
#include <stdint.h>

#include "gfxemu.h"

#define VG_MAX_GPUS 8
#define VG_PAGE 4096ull
/* Doorbells: one 8 KiB page per process and GPU of 1024 64-bit doorbells (gfx9, SOC15). */
#define VG_DOORBELL_PAGE 8192ull
/* Queues per process: 64-bit doorbells in the doorbell page. */
#define VG_MAX_QUEUES 1024
/* Render node minors start at 128 (/dev/dri/renderD128). */
#define VG_RENDER_MINOR 128
/* KFD gpu_id of GPU i (any non-zero value unique per GPU; the thunk treats it as opaque). */
#define VG_GPU_ID(i) (0x1000u + 0x111u * (unsigned)(i))

/* The real card a target stands for (sysfs topology and DRM device info). */
typedef struct vg_card {
    const char *target; /* "gfx90a" */
    gfx_arch arch;
    const char *product;         /* "MI210" */
    uint32_t gfx_target_version; /* major * 10000 + minor * 100 + stepping (decimal) */
    uint32_t device_id, pci_rev; /* libdrm's amdgpu.ids names the card by (id, revision) */
    uint32_t cus, simd_per_cu, shader_engines, waves_per_simd, lds_kb, xcc;
    uint32_t max_clock_mhz;
    uint32_t l1_kb, l2_kb;
    uint32_t family; /* AMDGPU_FAMILY_AI */
    uint32_t gb_addr_config;
} vg_card;

/* Look a target name up ("gfx90a", "gfx942", "gfx950"); NULL if unknown. */
const vg_card *vg_card_find(const char *target);

/* A buffer object (KFD ALLOC_MEMORY_OF_GPU). */
typedef struct vg_bo {
    uint64_t handle; /* 0: free slot */
    uint64_t va, size;
    uint64_t offset; /* in the memfd; userptr: none */
    uint64_t user;   /* userptr: the host address of its pages (va is the GPU's) */
    uint32_t flags;  /* KFD_IOC_ALLOC_MEM_FLAGS_* */
    int gpu;
    unsigned mapped; /* bit i: mapped to GPU i */
    uint64_t serial; /* unique per allocation (program cache key) */
} vg_bo;

/* The process-wide state (one virtual GPU set per process). */
typedef struct vg_state {
    int ready;
    const vg_card *card;
    unsigned ngpus;
    unsigned threads;
    int memcheck;
    int stats;                             /* GFXEMU_VGPU_STATS=1: per-kernel totals at exit */
    uint64_t sdma_copies, sdma_copy_bytes; /* --stats: SDMA COPY_LINEAR packets run (atomic) */
    int timeline;      /* GFXEMU_VGPU_TIMELINE=FILE: the whole program's timeline (timeline.c) */
    uint32_t counters; /* GFXEMU_VGPU_COUNTERS: the counters reported (profile.c), 0: off */
    char att[512];     /* GFXEMU_VGPU_ATT=DIR: thread traces of every dispatch (profile.c) */
    uint64_t vram;     /* bytes per GPU */
    int memfd;         /* the one file behind /dev/kfd and every render node */
    uint64_t memfd_dev, memfd_ino;
    uint64_t next_offset; /* bump allocator in the memfd */
    char dir[256];        /* the redirected sysfs/proc tree */
    int opened;           /* a runtime opened /dev/kfd */
    int fake_cpu_cache;   /* the host publishes no CPU caches: the tree has some */
    int warn;             /* this process warns at exit if it never opened it */
    long pid;             /* the process that set the library up (not a fork child of it) */
    pthread_mutex_t lock; /* BO table, devices, events */
    /* The GPUs' address spaces (the src/mem tables of every engine device): read-locked by a
     * launch for as long as it runs and by the engines around their own accesses, write-locked
     * by MAP/UNMAP/FREE_MEMORY (before vg.lock; nothing holding vg.lock takes it).  Readers do
     * not exclude each other, so the queues of a GPU run at the same time, as on the card. */
    pthread_rwlock_t space;
    vg_bo *bos;
    size_t nbos, capbos;
    uint64_t bo_serial;
    uint64_t vram_used[VG_MAX_GPUS];
    gfx_device *dev[VG_MAX_GPUS];
    uint64_t doorbell_offset[VG_MAX_GPUS]; /* memfd offset of each GPU's doorbell page */
    uint8_t *doorbell[VG_MAX_GPUS];        /* this library's own mapping of it */
} vg_state;

extern vg_state vg;

/* Set everything up on first use (idempotent, thread-safe). 0 or -1. */
int vg_init(void);
/* A one-line "gfxemu: ..." message on stderr. */
void vg_msg(const char *fmt, ...) __attribute__((format(printf, 1, 2)));

/* Map [offset, offset+size) of the memfd at va (MAP_FIXED, shared, read/write). */
void *vg_map_fixed(uint64_t va, uint64_t size, uint64_t offset);

/* Is fd one of ours (an open of the memfd)?  */
int vg_is_ours(int fd);

/* topology.c: build the redirected tree under vg.dir; remove it. */
int vg_topology_build(void);
void vg_topology_remove(void);

/* kfd.c / drm.c: the ioctls (return as ioctl(2): 0 or -1 with errno). */
int vg_kfd_ioctl(unsigned long req, void *arg);
int vg_drm_ioctl(int fd, unsigned long req, void *arg);

/* A range of the memfd of `size` bytes (page-rounded), zero-filled; its offset. */
uint64_t vg_memfd_alloc(uint64_t size);
void vg_memfd_release(uint64_t offset, uint64_t size);

/* Read-lock the GPUs' address spaces (vg.space) around an engine's own accesses / a launch. */
static inline void vg_space_read(void) { pthread_rwlock_rdlock(&vg.space); }
static inline void vg_space_done(void) { pthread_rwlock_unlock(&vg.space); }

/* BO lookups (with vg.lock held). */
vg_bo *vg_bo_by_handle(uint64_t handle);
vg_bo *vg_bo_containing(uint64_t va);
int vg_gpu_index(uint32_t gpu_id); /* -1 if unknown */
/* Register (map = 1) or forget buffer object b in one engine device's address space (kfd.c); 0
 * or -1.  With vg.lock held, and vg.space write-locked unless dev is not yet in use. */
int vg_bo_register(gfx_device *dev, const vg_bo *b, int map);

/* Events (kfd.c): signal event `id` as the interrupt handler would. */
void vg_event_signal(uint32_t id);
/* Raise the memory-exception event for a GPU fault at va. */
void vg_event_memory_fault(int gpu, uint64_t va, int write);

/* ---- queues (queue.c; pm4.c and sdma.c run the PM4 and SDMA packets) ---------------------- */

/* A user-mode queue: KFD_IOC_QUEUE_TYPE_COMPUTE_AQL, _COMPUTE (PM4) or _SDMA/_SDMA_XGMI.  The
 * read and write pointers count what the program wrote, never wrapped: AQL packets (64 bytes),
 * PM4 dwords, SDMA bytes (as the hardware's RPTR/WPTR registers, amdgpu's gfx_v9_0.c and
 * sdma_v4_0.c).  One thread per queue runs its packets in order. */
typedef struct vg_queue {
    int used;
    uint32_t id, type;
    int gpu;
    uint64_t ring;
    uint32_t ring_size;
    volatile uint64_t *rptr, *wptr;
    pthread_t thread;
    /* AQL and PM4: the queue's own engine device (its worker threads; its address space holds
     * the same buffer objects as the GPU's, vg.dev), so a kernel on one queue never waits for a
     * kernel on another.  NULL for SDMA, whose accesses go through vg.dev[gpu]. */
    gfx_device *dev;
    int stop;     /* set by DESTROY_QUEUE's thread, read by the queue's (atomics) */
    int broken;   /* a fault or an unknown packet stopped it (as the hardware queue would be) */
    uint32_t *sh; /* PM4: the SH registers 0x2c00..0x2fff that SET_SH_REG writes */
    uint32_t *uconfig;    /* PM4: user-config registers 0xc000.. (allocated on first write) */
    uint8_t *uconfig_set; /* bit per register: written */
    uint64_t
        indirect_base; /* PM4: SET_BASE index 1, where DISPATCH_INDIRECT's offset counts from */
    uint32_t *pkt;     /* PM4/SDMA: the packet being run, copied out of the ring (it may wrap) */
    /* A memory fault of the engine itself (vg_queue_mem), raised as the memory-exception event
     * by the queue thread once it holds no lock. */
    int fault_pending, fault_write;
    uint64_t fault_va;
    /* An AQL packet's completion signal, decremented by the queue thread after the read index
     * has moved past the packet (queue.c): a waiter woken by it sees the packet consumed. */
    int done_pending;
    uint64_t done_signal, done_t0, done_t1;
} vg_queue;

/* User-config registers a PM4 queue keeps (0xc000..0xffff). */
#define VG_UCONFIG_REGS 0x4000u
/* Words of vg_queue.pkt: the longest PM4 packet (header + 0x4000 dwords). */
#define VG_PKT_DWORDS (1u + 0x4000u)

/* Poll memory without burning a core: call between failed looks; sleeps 1 us, doubling up to
 * 1 ms.  -1 when the queue is being destroyed. */
int vg_queue_poll_wait(vg_queue *q, unsigned *sleep_us);
/* The host address of [va, va+n) in the GPU's address space (a buffer object mapped to this GPU,
 * src/mem), for the engine's own accesses; call with vg.space read-locked (vg_space_read).  NULL
 * after reporting a GPU memory fault ("ENGINE PACKET read/write of N bytes at VA") as the hardware
 * would: the queue stops and the memory-exception event fires (once the queue thread holds no
 * lock). */
void *vg_queue_mem(vg_queue *q, const char *what, uint64_t va, uint64_t n, int write);
/* Store n bytes (4 or 8, aligned) of v at va as one write; 0, or -1 after vg_queue_mem's fault. */
int vg_queue_store(vg_queue *q, const char *what, uint64_t va, uint64_t v, unsigned n);
/* Wait until ((the dword at va) & mask) FUNC ref (PM4 WAIT_REG_MEM, SDMA POLL_REGMEM: 0 always,
 * 1 <, 2 <=, 3 ==, 4 !=, 5 >=, 6 >), polling with vg_queue_poll_wait.  0, or -1 (a fault, or
 * the queue is being destroyed). */
int vg_queue_poll_mem(vg_queue *q, const char *what, uint64_t va, uint32_t func, uint32_t ref,
                      uint32_t mask);
/* v FUNC ref for those functions (1 when it holds). */
int vg_queue_compare(uint32_t func, uint32_t v, uint32_t ref);
/* A dispatch's workgroups in each dimension: `count` of them with ids from `origin`, of `full`
 * work-items each, except the last, of `partial` work-items when partial != 0. */
typedef struct vg_geom {
    uint32_t count[3], full[3], partial[3], origin[3];
} vg_geom;
/* Launch a PM4 dispatch: the 64-byte descriptor CP's registers amount to, the entry point, the
 * user SGPRs (COMPUTE_USER_DATA) and the geometry.  0, or -1 after reporting why (the queue
 * stops). */
int vg_queue_launch_regs(vg_queue *q, const uint8_t kd[64], uint64_t entry, const uint32_t *user,
                         unsigned nuser, const vg_geom *g);

/* pm4.c: run ndw dwords of PM4 packets (an indirect buffer) / the packet at the queue's read
 * pointer.  vg_pm4_step returns the new read pointer (r itself: not all of the packet is there
 * yet) or -1 when the queue stopped. */
int vg_pm4_run(vg_queue *q, const uint32_t *ib, uint32_t ndw, int depth);
int64_t vg_pm4_step(vg_queue *q, uint64_t r, uint64_t w);
/* sdma.c: the same for an SDMA queue (pointers in bytes). */
int64_t vg_sdma_step(vg_queue *q, uint64_t r, uint64_t w);
/* Run the indirect buffer of ndw dwords at va with run (vg_pm4_run or SDMA's packet loop) at
 * nesting depth depth, PM4 and SDMA alike: it is copied out through vg_queue_mem first, so the
 * program may reuse it while its packets run.  0 for an empty one; -1 after reporting why. */
typedef int (*vg_ib_runner)(vg_queue *q, const uint32_t *ib, uint32_t ndw, int depth);
int vg_queue_run_ib(vg_queue *q, const char *what, uint64_t va, uint32_t ndw, int depth,
                    vg_ib_runner run);
/* Copy n dwords of the ring starting at dword position pos (wrapping) into out. */
void vg_ring_copy(const vg_queue *q, uint64_t pos, uint32_t n, uint32_t *out);

/* kfd.c: an interrupt with a context id (RELEASE_MEM's INT_CTXID, SDMA TRAP's INT_CONTEXT), as
 * amdkfd's interrupt handler does: the signal event with that id fires; without one, waiters
 * look at every event-page slot. */
void vg_event_interrupt(uint32_t ctxid);

/* A queue of KFD type `type` (AQL, PM4 compute, SDMA); 0 or -1. */
int vg_queue_create(int gpu, uint32_t type, uint64_t ring, uint32_t ring_size, uint64_t rptr,
                    uint64_t wptr, uint32_t *queue_id, uint64_t *doorbell_offset);
int vg_queue_destroy(uint32_t queue_id);
/* The engine devices of GPU gpu's AQL and PM4 queues (at most max) into out; their number.  With
 * vg.lock held (queues are created and destroyed under it). */
unsigned vg_queue_devices(int gpu, gfx_device **out, unsigned max);
/* Does the process have any queue (RUNTIME_ENABLE's EEXIST)? */
int vg_queue_devices_any(void);
void vg_queues_stop(void);
/* Per-kernel totals on stderr (--stats). */
void vg_stats_print(void);

/* timeline.c (--timeline): read GFXEMU_VGPU_TIMELINE and start the clock; one span of what
 * queue q ran from t0_ns to t1_ns (vg_now_ns), `args` the inside of a JSON object (or NULL);
 * finish the file.  Spans cost nothing without the option (vg.timeline = 0). */
void vg_timeline_init(void);
void vg_timeline_span(const vg_queue *q, const char *name, const char *cat, uint64_t t0_ns,
                      uint64_t t1_ns, const char *args);
void vg_timeline_close(void);

/* profile.c (--counters, --att): read GFXEMU_VGPU_COUNTERS and GFXEMU_VGPU_ATT; launch one
 * dispatch of queue q under a debug session that collects them (image: the kernel's buffer
 * object, for the trace's code object); the counters report at exit. */
int vg_profile_init(void);
gfx_result vg_profile_launch(const vg_queue *q, const char *name, const struct gfx_kernel *kk,
                             const void *image, uint64_t image_size, const uint32_t grid[3],
                             const uint32_t block[3], const gfx_launch_options *o, gfx_stats *st);
void vg_profile_print(void);

/* Clocks: the CPU and system counters of GET_CLOCK_COUNTERS are CLOCK_BOOTTIME nanoseconds. */
uint64_t vg_now_ns(void);
/* The GPU clock counter (GET_CLOCK_COUNTERS' gpu_clock_counter, AQL signal timestamps, PM4
 * RELEASE_MEM and SDMA TIMESTAMP): 100 MHz, the MI-series' reference clock, which frameworks
 * assume (tinygrad divides its timestamps by 100 for microseconds; ROCr converts through
 * GET_CLOCK_COUNTERS pairs and takes any rate). */
#define VG_GPU_CLOCK_NS 10 /* nanoseconds per GPU clock tick */
static inline uint64_t vg_gpu_clock(void) { return vg_now_ns() / VG_GPU_CLOCK_NS; }

#endif
