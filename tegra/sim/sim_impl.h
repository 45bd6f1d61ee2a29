/* sim_impl.h - state shared by the simulated kernel driver (kdriver.c) and GPU (gpu.c). */
#ifndef NVTEGRA_SIM_IMPL_H
#define NVTEGRA_SIM_IMPL_H

#include "abi.h"
#include "nvtegra_sim.h"

#include <pthread.h>

enum obj_kind { OBJ_NONE, OBJ_NVMAP, OBJ_CTRL, OBJ_AS, OBJ_TSG, OBJ_CHANNEL, OBJ_DMABUF };

typedef struct sim_buf { /* an nvmap allocation */
    int refs;            /* handle + dmabuf fds + GPU mappings */
    int memfd;           /* -1 until ALLOC */
    uint32_t handle, size, flags;
    uint8_t *phys; /* the simulator's own mapping: "physical memory" */
    /* The driver's whole-buffer CPU mapping, if any.  The GPU side reads through it rather
     * than through phys so that ThreadSanitizer sees CPU and "GPU" accesses at the same
     * addresses (through two mappings, their release/acquire pairs would look unsynchronized). */
    uint8_t *alias;
} sim_buf;

typedef struct sim_map { /* a GPU mapping in the (single) address space */
    uint64_t va, size;
    sim_buf *buf;
    uint64_t buf_offset;
    int kernel_owned; /* made by SETUP_BIND (GPU_MAP_RESOURCES), not by MAP_BUFFER_EX */
} sim_map;

#define SIM_SUBCTX 64
/* ga10b in Jetson AGX Orin: 2 GPCs of 4 TPCs (2 SMs each); reported by GET_CHARACTERISTICS */
#define SIM_NUM_GPC 2u
#define SIM_TPC_PER_GPC 4u
#define SIM_PB_WORDS_MAX (1u << 21)

typedef struct sim_channel {
    int fd, chid;
    int as_bound, tsg_fd, setup;
    int wdt_enabled, deterministic;
    uint32_t entries, token;
    sim_buf *userd, *gpfifo;
    uint64_t userd_off, gpfifo_off;
    uint64_t gpfifo_va, userd_va; /* r36 GPU_MAP_RESOURCES */
    int has_compute, has_copy;
    int error;
    int kicked; /* a doorbell asked for a fetch */
    /* the fetch position inside the current GPFIFO entry (an acquire can block mid-entry) */
    uint32_t cur_word;
    /* method state */
    uint32_t subch_class[8];
    uint64_t sem_addr, sem_payload;
    uint32_t pcas_a;
    /* compute state the launches depend on (clc7c0.h methods) */
    uint64_t shared_window, local_window, local_va, local_per_tpc;
    uint32_t local_sm_count;
    int windows_set; /* bit 0 shared, bit 1 local */
    int unfenced;    /* launch or copy writes not yet behind a SYS_MEMBAR */
    uint32_t mem_op[3];
    uint64_t copy_in, copy_out;
    uint32_t pitch_in, pitch_out, line_length, line_count;
} sim_channel;

typedef struct sim_obj {
    enum obj_kind kind;
    int memfd_backed;     /* the real fd is ours and must be closed */
    sim_buf *buf;         /* OBJ_DMABUF */
    sim_channel *ch;      /* OBJ_CHANNEL */
    uint64_t subctx_mask; /* OBJ_TSG: allocated VEIDs */
} sim_obj;

typedef struct sim_kernel {
    uint64_t va;
    nvt_sim_kernel_fn fn;
    void *user;
} sim_kernel;

typedef struct sim_cpumap {
    void *addr;
    size_t len;
    sim_buf *buf; /* dmabuf mappings hold a reference, as in the kernel */
} sim_cpumap;

struct nvt_sim {
    nvt_os os;
    nvt_abi abi;
    pthread_mutex_t lock;
    pthread_t gpu;
    int running, paused, present;
    uint64_t mem_limit;
    sim_obj *fds; /* indexed by fd */
    int nfds;
    sim_buf **handles; /* indexed by handle - 1 */
    int nhandles;
    sim_map *maps; /* sorted by va */
    int nmaps, capmaps;
    int as_exists;
    uint64_t va_start, va_end; /* the address space's user range, from ALLOC_AS */
    sim_channel *chans[64];
    int usermode_memfd;
    volatile uint32_t *usermode; /* the simulator's view of the doorbell page */
    sim_cpumap *mmaps;
    int nmmaps, capmmaps;
    sim_kernel *kernels;
    int nkernels;
    nvt_sim_stats st;
};

/* gpu.c */
void *sim_gpu_thread(void *arg);
/* kdriver.c, callers hold sim->lock */
void *sim_translate_locked(nvt_sim *sim, uint64_t va, uint64_t len);
void *sim_buf_ptr(sim_buf *b, uint64_t off, uint64_t len);
void sim_fault(nvt_sim *sim, sim_channel *ch, const char *fmt, ...)
    __attribute__((format(printf, 3, 4)));

#endif
