/* sched.h - the dispatcher's internals shared by launch.c (devices, pool, launches, faults),
 * sched.c (resident workgroups and the waves' turns) and race.c (racecheck).
 *
 * A worker owns slots: each slot holds one resident workgroup (its waves, LDS and scratch).
 * See docs/architecture.md, "Dispatch", for the scheduling model.
 */
#ifndef GFXEMU_SCHED_H
#define GFXEMU_SCHED_H

#include "dispatch/dispatch.h"
#include "exec/gws.h"

typedef struct dp_race dp_race;

/* A wave's spin detection state (sched.c). */
typedef struct dp_wsched {
    uint64_t since_probe; /* instructions since its last probe */
    int spinning;
    int respin; /* it spun, and memory changed under it: probed again after RESPIN_SLICE */
    uint32_t spin_pc, loop_pc; /* the backward branch closing its wait loop, and its target */
    uint64_t shash, vhash;     /* the state it keeps coming back to */
    uint64_t addr;             /* the last memory address the loop reads (has_addr) */
    int has_addr;
} dp_wsched;

typedef struct dp_slot {
    wave *waves;
    unsigned wave_cap;
    uint8_t *lds;
    size_t lds_cap;
    uint8_t *scratch;
    size_t scratch_cap;
    dp_race *race;        /* racecheck shadow of this slot's LDS (racecheck launches only) */
    struct dp_wsched *ws; /* per wave: spin detection state */
    uint64_t wg_linear;
    uint32_t wg[3];
    unsigned nwaves; /* the workgroup's waves: d->waves_per_wg, fewer for a partial one */
    int live;        /* holds a resident workgroup */
    /* The waves' translation caches (wave.cache) were emptied in the running launch: they keep
     * their regions from one workgroup to the next, not from one launch to the next (buffers
     * may be freed and mappings changed between launches). */
    int caches_valid;
    /* Its wave32 waves run paired (begin_slot): a pair split by divergence is joined again
     * when a barrier releases both at one pc (run_slot). */
    int pairing;
} dp_slot;

/* What a stuck worker publishes for the deadlock report (under dp_job.stuck_lock). */
typedef struct dp_waiter {
    uint64_t wg_linear; /* UINT64_MAX: none */
    uint32_t wg[3], wave, pc;
    int how;       /* DP_WAIT_* */
    uint64_t addr; /* last memory address its loop read (has_addr) */
    int has_addr;
    unsigned waves, wgs; /* this worker's waiting waves and resident workgroups */
    uint64_t confirmed;  /* epoch + 1 at which it went around its waves 3 times unchanged */
    int exited;          /* it has left dp_work(): it changes nothing any more */
} dp_waiter;
enum { DP_WAIT_SPIN = 1, DP_WAIT_GWS, DP_WAIT_BARRIER, DP_WAIT_IDLE };

/* Workers and the job's shared counters sit on their own cache lines: a line written by one
 * thread and read by another moves between the cores on every access (false sharing). */
typedef struct dp_worker {
    _Alignas(64) gfx_device *dev;
    pthread_t th;
    unsigned idx;
    dp_slot *slots;
    unsigned nslots; /* slots allocated (live or free) */
    unsigned nlive;
    uint64_t count[XC_N];
    uint64_t waves_run, wgs_run;
    uint64_t unpublished; /* instructions run but not yet added to the job's count */
    uint64_t since_admit; /* instructions run since this worker last admitted a workgroup */
    /* deadlock detection */
    int stuck;
    unsigned stuck_rounds;
    uint64_t stuck_epoch;
    int ran_round; /* a wave ran instructions (beyond a spin check) in this round */
} dp_worker;

typedef struct dp_job {
    dp_dispatch d;
    gmem *mem;
    uint64_t nwg;
    uint64_t max_insts;
    double deadline; /* CLOCK_MONOTONIC seconds; 0: no timeout */
    double timeout;
    int racecheck;
    unsigned nworkers; /* workers taking part */
    dp_occupancy occ;
    _Alignas(64) atomic_uint_fast64_t next_wg;
    _Alignas(64) atomic_uint_fast64_t insts;
    _Alignas(64) atomic_int stop;
    _Alignas(64) atomic_uint_fast64_t resident; /* workgroups admitted and not finished */
    atomic_uint_fast64_t epoch;                 /* bumped by every scheduling progress event */
    atomic_uint nstuck, nexited;
    atomic_uint nspinning;     /* waves currently known to spin */
    atomic_int waited;         /* some wave spun, slept or waited on GWS in this launch */
    int nomem;                 /* a worker could not get storage for a workgroup */
    int limit_residency;       /* the grid has more workgroups than the device holds */
    unsigned hash_nv, hash_na; /* VGPRs and AGPRs the kernel uses (spin detection hashes) */
    _Alignas(64) pthread_mutex_t stuck_lock;
    dp_waiter *waiters; /* one per worker */
    xgws gws;
    _Alignas(64) pthread_mutex_t fault_lock;
    int faulted;
    uint64_t fault_wg; /* linear index of the faulting workgroup */
    xfault fault;
    uint32_t fault_wg_id[3], fault_wave;
    unsigned fault_spinning;        /* waves spinning when the fault was recorded */
    char deadlock[1024];            /* the deadlock/timeout message body when the fault is one */
    const dp_hooks *hooks;          /* debug/trace runner, see dispatch.h */
    int abandoned;                  /* a hook stopped the launch */
    xmemcheck *mc;                  /* memcheck mode (NULL: off) */
    atomic_uint_fast64_t *progress; /* the device's progress_done */
    /* racecheck reports (race.c) */
    pthread_mutex_t race_lock;
    gfx_race *races;
    size_t nraces, races_cap;
} dp_job;

/* Internal fault kinds of the scheduler (beyond exec.h's XF_*). */
enum { XF_DEADLOCK = 100, XF_TIMEOUT };

/* launch.c */
void dp_record_fault(dp_job *j, const wave *w, uint64_t wg_linear);
double dp_now(void);
/* " (argument 2 + 0x40)" when addr lies in the buffer an explicit pointer argument points
 * into, else "". */
const char *dp_locate_arg(const dp_job *j, uint64_t addr, char *buf, size_t n);

/* sched.c: the per-worker scheduling loop, and its storage. */
void dp_work(dp_job *j, dp_worker *wk);
int dp_size_worker(dp_worker *wk, const dp_dispatch *d, int racecheck);
void dp_free_worker(dp_worker *wk);

/* race.c */
dp_race *dp_race_new(void);
void dp_race_free(dp_race *r);
/* Start tracking a workgroup (its LDS of lds_size bytes) / a barrier of it was released. */
int dp_race_begin(dp_race *r, dp_job *j, const dp_slot *s, uint32_t lds_size);
void dp_race_barrier(dp_race *r);
void dp_race_watch(void *ctx, wave *w, const xinst *x, uint32_t addr, uint32_t size, int kind);

#endif
