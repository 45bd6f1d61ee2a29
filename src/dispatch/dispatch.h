/* dispatch.h - layer 5: devices, kernels, launches (see ARCHITECTURE.md).
 *
 * A launch turns (kernel, grid, block, kernargs) into waves: it builds the kernarg segment, an AQL
 * dispatch packet and a zeroed fake queue in device memory, then hands workgroups to a pool of
 * worker threads.  Each worker owns its wave storage, LDS and scratch (allocated once, grown when
 * a launch needs more) and runs the waves of one workgroup round-robin until all of them end,
 * releasing them together at every s_barrier.
 *
 * Initial wave state follows LLVM's "AMDGPU Usage", "Initial Kernel Execution State" for targets
 * with packed work-item IDs (gfx90a, gfx942, gfx950), with architected flat scratch (gfx942,
 * gfx950) or without it (gfx90a: private segment buffer, flat scratch init and wave offset
 * SGPRs): see dp_wave_init().
 */
#ifndef GFXEMU_DISPATCH_H
#define GFXEMU_DISPATCH_H

#include <pthread.h>
#include <stdatomic.h>

#include "exec/exec.h"
#include "gfxemu.h"
#include "load/load.h"

/* LDS per workgroup: isa_targets[arch].lds_bytes (160 KiB gfx950, 64 KiB gfx942 and gfx90a). */
#define DP_MAX_BLOCK 1024u
/* gfx9 allocates scratch per wave in units of 1 KiB. */
#define DP_SCRATCH_GRANULE 1024u
/* Base of the addresses FLAT_SCRATCH points at (each wave gets its own slice).  Not a gmem range:
 * scratch is reached only through the wave's own private memory. */
#define DP_SCRATCH_VA 0x0000700000000000ull
/* Instructions a wave runs between checks of the stop flag and the launch's budget. */
#define DP_SLICE 65536u

/* A kernel handle: one per function with a NAME.kd descriptor, built on first lookup. */
struct gfx_kernel {
    const gfx_module *m;
    const ld_symbol *sym;
    const ld_kmeta *meta; /* NULL when the code object has no metadata for it */
    ld_kd kd;
    uint64_t entry;    /* address of the first instruction */
    uint32_t entry_pc; /* entry - .text address: the wave's initial pc */
    const xprog *prog;
    size_t nargs_explicit;
    /* Raw code run by gfxemu_run_asm() (src/api/runasm.c): the values of s[0..n_user_sgprs-1],
     * given by the caller instead of the ones the descriptor's enable bits ask for.  NULL for
     * kernels of code objects. */
    const uint32_t *user_sgprs;
    unsigned n_user_sgprs;
};

/* What the module keeps for execution (gfx_module.exec). */
typedef struct dp_module {
    xprog prog;
    struct gfx_kernel *kernels;
    size_t nkernels;
} dp_module;

/* The constant part of one launch, shared by all waves. */
typedef struct dp_dispatch {
    const struct gfx_kernel *k;
    gfx_arch arch;
    uint32_t grid[3];  /* workgroups */
    uint32_t block[3]; /* work-items per workgroup */
    uint32_t threads_per_wg, waves_per_wg;
    uint32_t dims;     /* 1, 2 or 3 */
    uint32_t lds_size; /* static + dynamic LDS bytes per workgroup */
    uint32_t dynamic_lds;
    uint32_t private_lane; /* private segment bytes per work-item asked for, in whole dwords */
    uint32_t scratch_lane; /* private bytes per lane actually allocated (>= private_lane) */
    uint32_t scratch_wave; /* bytes per wave: 64 x scratch_lane rounded up to 1 KiB */
    uint64_t kernarg_va, packet_va, queue_va, dispatch_id;
    const uint8_t *kernargs; /* host copy of the kernarg segment (for kernarg preloading) */
    uint32_t kernarg_size;
} dp_dispatch;

/* Fill d's geometry (threads/waves per workgroup, dims, LDS and scratch sizes) and check the
 * launch against the architecture's limits.  On error writes a message into err. */
gfx_result dp_plan(dp_dispatch *d, const struct gfx_kernel *k, gfx_arch arch,
                   const uint32_t grid[3], const uint32_t block[3], uint32_t dynamic_lds,
                   uint32_t private_size, char *err, size_t errsz);

/* Size of the kernarg segment for a launch with `user_size` caller bytes. */
uint32_t dp_kernarg_size(const struct gfx_kernel *k, size_t user_size);
/* Build the kernarg segment (seg, `size` bytes from dp_kernarg_size()): the caller's bytes, then
 * the hidden arguments the launcher knows. */
void dp_build_kernargs(const dp_dispatch *d, const void *user, size_t user_size, uint8_t *seg,
                       uint32_t size);
/* The 64-byte hsa_kernel_dispatch_packet_t of the HSA System Architecture spec. */
void dp_build_packet(const dp_dispatch *d, uint8_t pkt[64]);

/* Set up wave `wave` (index in its workgroup) of workgroup `wg` for its first instruction:
 * registers, EXEC, MODE, pc, ids, FLAT_SCRATCH.  Does not touch lds/mem/scratch pointers. */
void dp_wave_init(wave *w, const dp_dispatch *d, const uint32_t wg[3], uint32_t wave);

/* ---- devices and launches (launch.c) --------------------------------------------------------- */

typedef struct dp_worker dp_worker;
typedef struct dp_job dp_job;

/* Debug and trace hooks (src/debug/).  A launch with hooks runs on the calling thread alone,
 * workgroups in order, waves round-robin to barriers as usual, and runs each wave through
 * run() instead of wave_run(): the hot loop never tests for them. */
typedef struct dp_hooks {
    void *ctx;
    /* The waves of workgroup wg_linear are initialised (waves[i] is wave i) / have all ended
     * or the launch is stopping. */
    void (*wg_begin)(void *ctx, const dp_dispatch *d, wave *waves, unsigned n,
                     uint64_t wg_linear);
    void (*wg_end)(void *ctx, wave *waves, unsigned n);
    /* In place of wave_run(w), same contract; returns nonzero to abandon the launch. */
    int (*run)(void *ctx, wave *w);
} dp_hooks;

struct gfx_device {
    gfx_arch arch;
    unsigned nthreads;
    gmem *mem;
    pthread_mutex_t api_lock; /* one public call at a time */
    /* pool */
    pthread_mutex_t lock;
    pthread_cond_t start, done;
    uint64_t generation;
    unsigned active;
    int quit;
    dp_job *job;
    dp_worker *workers; /* nthreads; workers[0] is the launching thread */
    unsigned nstarted;  /* pool threads actually running */
    uint64_t dispatch_id;
    gfx_fault fault;
    char error[2048];
    const dp_hooks *hooks; /* set around one launch by src/debug/; NULL otherwise */
};

gfx_result dp_device_create(gfx_arch arch, unsigned threads, gfx_device **out);
void dp_device_free(gfx_device *dev);
/* Launch with a ready kernarg image (see gfx_launch). */
gfx_result dp_launch(gfx_device *dev, const struct gfx_kernel *k, const uint32_t grid[3],
                     const uint32_t block[3], const void *kernargs, size_t kernarg_size,
                     const gfx_launch_options *opts, gfx_stats *stats);

#endif
