/* dispatch.h - layer 5: devices, kernels, launches (docs/architecture.md, "Dispatch").
 *
 * A launch turns (kernel, grid, block, kernargs) into waves: it builds the kernarg segment, an AQL
 * dispatch packet and a zeroed fake queue in device memory, then hands workgroups to a pool of
 * worker threads.  Each worker keeps resident workgroups in slots (waves, LDS and scratch,
 * allocated once and grown when a launch needs more) and gives their waves turns; as many
 * workgroups are resident at once as the modelled GPU holds (occupancy.c), so workgroups may wait
 * for one another (sched.c, docs/architecture.md "Dispatch").
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
    xzplan zplan; /* the registers its waves must find zero (src/exec/zplan.c; ok 0: all) */
    size_t nargs_explicit;
    /* Raw code run by gfxemu_run_asm() (src/api/runasm.c): the values of s[0..n_user_sgprs-1],
     * given by the caller instead of the ones the descriptor's enable bits ask for.  NULL for
     * kernels of code objects. */
    const uint32_t *user_sgprs;
    unsigned n_user_sgprs;
    /* A dispatch from a program's own AQL queue (src/vgpu/queue.c): the dispatch packet, the
     * amd_queue_t and the kernarg segment the program wrote, at their host addresses (GPU VA ==
     * host VA), for the dispatch-ptr, queue-ptr and kernarg-ptr user SGPRs.  0: the launch's
     * own copies.  Such a kernel has no program image. */
    uint64_t aql_packet, aql_queue, aql_kernarg;
    /* The workgroup id of the launch's first workgroup (0 but for src/vgpu: PM4's
     * COMPUTE_START_X/Y/Z). */
    uint32_t wg_origin[3];
    /* Partial workgroups (0 but for src/vgpu): when partial[i] is not 0, the last workgroup in
     * dimension i has partial[i] (< block[i]) work-items, as the card runs an AQL grid size that
     * is not a multiple of the workgroup size (HSA) or PM4's PARTIAL_TG_EN: fewer waves, the
     * work-item ids of the smaller shape, in the same launch as the other workgroups. */
    uint32_t partial[3];
    /* Memory the waves wait on may be written by agents outside the launch (the program's host
     * threads, other queues: src/vgpu), so waves that all spin are no deadlock (the watchdog
     * still bounds them).  Always so for an AQL dispatch (aql_packet). */
    int external_writers;
};

typedef struct dp_image dp_image;

/* What the module keeps for execution (gfx_module.exec). */
typedef struct dp_module {
    xprog prog;
    xprog prog32; /* RDNA: the program built for the module's wave32 kernels (when it has any) */
    struct gfx_kernel *kernels;
    size_t nkernels;
    dp_image *images; /* its program images on devices (image.c; under the image lock) */
} dp_module;

/* The module's execution data, built on first use (kernel.c); NULL when out of memory. */
dp_module *dp_module_get(gfx_module *m);

/* The constant part of one launch, shared by all waves. */
typedef struct dp_dispatch {
    const struct gfx_kernel *k;
    gfx_arch arch;
    uint32_t grid[3];                      /* workgroups */
    uint32_t block[3];                     /* work-items per workgroup */
    uint32_t threads_per_wg, waves_per_wg; /* of a full workgroup */
    uint32_t partial[3]; /* k->partial: the last workgroup's work-items in each dimension, or 0 */
    int has_partial;
    uint32_t wave_lanes; /* 64, or 32 for an RDNA wave32 kernel (lanes 32-63 never run) */
    uint32_t dims;       /* 1, 2 or 3 */
    uint32_t lds_size;   /* static + dynamic LDS bytes per workgroup */
    uint32_t dynamic_lds;
    uint32_t private_lane; /* private segment bytes per work-item asked for, in whole dwords */
    uint32_t scratch_lane; /* private bytes per lane actually allocated (>= private_lane) */
    uint32_t scratch_wave; /* bytes per wave: 64 x scratch_lane rounded up to 1 KiB */
    uint64_t kernarg_va, packet_va, queue_va, dispatch_id;
    const uint8_t *kernargs; /* host copy of the kernarg segment (for kernarg preloading) */
    uint32_t kernarg_size;
    uint64_t va_bias; /* device address of the module's program image (0: none) */
    /* Zero every register of a wave, not only k->zplan's: a debugger or trace shows them before
     * the kernel writes them.  poison_regs: GFXEMU_POISON_REGS=1, fill the rows the plan does
     * not zero with garbage (a wrong plan then changes results). */
    uint8_t zero_all, poison_regs;
    /* What every wave of the launch starts with (dp_wave_template(), once the kernarg segment,
     * packet and queue addresses are set): s0-s127 with the user SGPRs in place when tmpl_ok
     * (none of them is the wave's own private memory), MODE, and facts of the target. */
    uint8_t tmpl_ok, tmpl_arch_fs, tmpl_gfx12;
    uint32_t tmpl_mode;
    uint32_t tmpl_s[128];
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
 * registers, EXEC, MODE, pc, ids, FLAT_SCRATCH.  Does not touch lds/mem/scratch pointers or the
 * translation cache (the caller empties it when a launch starts). */
void dp_wave_init(wave *w, const dp_dispatch *d, const uint32_t wg[3], uint32_t wave);
/* Fill d's tmpl_* fields from its kernel, kernarg segment, packet and queue addresses; a launch
 * calls it before its first wave (dp_wave_init() needs it). */
void dp_wave_template(dp_dispatch *d);
/* The work-items of workgroup wg in each dimension (block, or partial at the grid's end) and
 * its waves. */
uint32_t dp_wg_shape(const dp_dispatch *d, const uint32_t wg[3], uint32_t block[3]);

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
    void (*wg_begin)(void *ctx, const dp_dispatch *d, wave *waves, unsigned n, uint64_t wg_linear);
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
    unsigned cus;          /* compute units of the modelled GPU (gfx_device_set_cus) */
    gfx_race *races;       /* racecheck hazards of the last launch */
    size_t nraces;
    dp_image *images; /* program images of modules launched here (image.c) */
    /* memcheck findings of the last launch (launch.c) */
    gfx_memcheck_error *mc_errors;
    size_t mc_kept;
    uint64_t mc_count, mc_widened;
    /* gfx_launch_progress(): workgroups of the current (or last) launch finished and in all,
     * read by other threads while a launch runs (one relaxed add per workgroup). */
    atomic_uint_fast64_t progress_done;
    atomic_uint_fast64_t progress_total;
    /* The kernarg segment, dispatch packet and queue stand-in of the last launch, kept for the
     * next one (launch.c, launch_region): allocating and freeing three page-granular regions
     * per launch was a third of a small kernel's launch cost. */
    uint64_t launch_va[3], launch_size[3];
};

/* Compute units of the target's GPU: MI355X (gfx950) 256, MI300X (gfx942) 304. */
unsigned dp_default_cus(gfx_arch arch);

/* How many workgroups of one launch the modelled device keeps resident (occupancy.c). */
typedef struct dp_occupancy {
    unsigned cus;
    unsigned per_cu; /* workgroups per CU */
    unsigned waves_per_simd;
    const char *limit; /* what bounds per_cu: "waves", "VGPRs", "SGPRs", "LDS", "barriers" */
    uint64_t resident; /* cus x per_cu */
} dp_occupancy;
void dp_occupancy_of(const dp_dispatch *d, unsigned cus, dp_occupancy *o);

/* ---- program images (image.c) -----------------------------------------------------------------
 * One copy per module per device of the code object's allocated sections (load.h, "program
 * image"), made on the module's first launch (or symbol lookup) on the device and kept until the
 * module or the device is freed, so writable data persists across launches as on hardware.
 * Called with dev->api_lock held.  *base: the image's device address, 0 when the module has none
 * (a relocatable object).  On error writes a message into dev->error. */
gfx_result dp_image_get(gfx_device *dev, gfx_module *m, uint64_t *base);
/* Forget every image of the device (dp_device_free) / of the module (its memory is freed by
 * each device at its next dp_image_get or when the device is freed). */
void dp_image_device_gone(gfx_device *dev);
void dp_image_module_gone(dp_module *dm);

gfx_result dp_device_create(gfx_arch arch, unsigned threads, gfx_device **out);
void dp_device_free(gfx_device *dev);
/* Launch with a ready kernarg image (see gfx_launch). */
gfx_result dp_launch(gfx_device *dev, const struct gfx_kernel *k, const uint32_t grid[3],
                     const uint32_t block[3], const void *kernargs, size_t kernarg_size,
                     const gfx_launch_options *opts, gfx_stats *stats);

#endif
