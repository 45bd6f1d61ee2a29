/* launch.c - devices, the worker pool and the workgroup loop.
 *
 * Workgroups are independent except for global memory, so workers take workgroup indices from a
 * shared counter in any order; everything a wave sees at start (registers, zeroed LDS and
 * scratch) depends only on its ids, so results do not depend on the number of threads.
 *
 * Watchdog: waves run in slices of DP_SLICE instructions; between slices a worker adds what it
 * used to the launch's shared count and checks it against max_insts and the stop flag, so a fault
 * or an exhausted budget stops every worker within one slice.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "dispatch/dispatch.h"

/* Workers and the job's shared counters sit on their own cache lines: a line written by one
 * thread and read by another moves between the cores on every access (false sharing). */
struct dp_worker {
    _Alignas(64) gfx_device *dev;
    pthread_t th;
    unsigned idx;
    wave *waves;
    unsigned wave_cap;
    uint8_t *lds;
    size_t lds_cap;
    uint8_t *scratch;
    size_t scratch_cap;
    uint64_t count[XC_N];
    uint64_t waves_run, wgs_run;
    uint64_t unpublished; /* instructions run but not yet added to the job's count */
};

struct dp_job {
    dp_dispatch d;
    gmem *mem;
    uint64_t nwg;
    uint64_t max_insts;
    _Alignas(64) atomic_uint_fast64_t next_wg;
    _Alignas(64) atomic_uint_fast64_t insts;
    _Alignas(64) atomic_int stop;
    _Alignas(64) pthread_mutex_t fault_lock;
    int faulted;
    uint64_t fault_wg; /* linear index of the faulting workgroup */
    xfault fault;
    uint32_t fault_wg_id[3], fault_wave;
    const dp_hooks *hooks; /* debug/trace runner, see dispatch.h */
    int abandoned;         /* a hook stopped the launch */
    atomic_uint_fast64_t *progress; /* the device's progress_done */
};

/* ---- faults ---------------------------------------------------------------------------------- */

static const char *const fault_names[] = {
    [GFX_FAULT_NONE] = "none",
    [GFX_FAULT_MEMORY] = "memory fault",
    [GFX_FAULT_ILLEGAL] = "illegal instruction",
    [GFX_FAULT_UNIMPLEMENTED] = "unimplemented instruction",
    [GFX_FAULT_TRAP] = "trap",
    [GFX_FAULT_WATCHDOG] = "watchdog",
    [GFX_FAULT_PC] = "bad program counter",
    [GFX_FAULT_LDS] = "LDS fault",
    [GFX_FAULT_HALT] = "wave halted",
};

const char *gfx_fault_kind_name(gfx_fault_kind kind) {
    if ((unsigned)kind >= sizeof fault_names / sizeof fault_names[0])
        return "unknown fault";
    return fault_names[kind];
}

static gfx_fault_kind public_kind(int xk) {
    switch (xk) {
    case XF_MEMORY: return GFX_FAULT_MEMORY;
    case XF_ILLEGAL: return GFX_FAULT_ILLEGAL;
    case XF_UNIMPLEMENTED: return GFX_FAULT_UNIMPLEMENTED;
    case XF_TRAP: return GFX_FAULT_TRAP;
    case XF_WATCHDOG: return GFX_FAULT_WATCHDOG;
    case XF_PC: return GFX_FAULT_PC;
    case XF_LDS: return GFX_FAULT_LDS;
    case XF_HALT: return GFX_FAULT_HALT;
    default: return GFX_FAULT_NONE;
    }
}

/* Record the first fault of a launch (lowest workgroup index if several race) and stop it. */
static void record_fault(dp_job *j, const wave *w, uint64_t wg_linear) {
    pthread_mutex_lock(&j->fault_lock);
    if (!j->faulted || wg_linear < j->fault_wg) {
        j->faulted = 1;
        j->fault_wg = wg_linear;
        j->fault = w->fault;
        memcpy(j->fault_wg_id, w->wg_id, sizeof j->fault_wg_id);
        j->fault_wave = w->wave_id;
    }
    pthread_mutex_unlock(&j->fault_lock);
    atomic_store(&j->stop, 1);
}

/* " (16 bytes past the end of the 4000-byte buffer at 0x...)": where a bad address lies relative
 * to the nearest buffer, or the LDS size for an LDS fault. */
static const char *locate(const dp_job *j, const gfx_fault *f, char *buf, size_t n) {
    if (f->kind == GFX_FAULT_LDS) {
        snprintf(buf, n, " (the workgroup has %u bytes of LDS)", j->d.lds_size);
        return buf;
    }
    const gmem_region *r = gmem_nearest(j->mem, f->addr);
    if (!r) {
        snprintf(buf, n, " (no buffers)");
    } else if (f->addr >= r->base && f->addr - r->base < r->size) {
        /* starts inside, ends past the end */
        snprintf(buf, n, " (crosses the end of the %llu-byte buffer at 0x%llx)",
                 (unsigned long long)r->size, (unsigned long long)r->base);
    } else if (f->addr >= r->base + r->size) {
        snprintf(buf, n, " (%llu bytes past the end of the %llu-byte buffer at 0x%llx)",
                 (unsigned long long)(f->addr - r->base - r->size), (unsigned long long)r->size,
                 (unsigned long long)r->base);
    } else {
        snprintf(buf, n, " (%llu bytes before the %llu-byte buffer at 0x%llx)",
                 (unsigned long long)(r->base - f->addr), (unsigned long long)r->size,
                 (unsigned long long)r->base);
    }
    return buf;
}

/* Build the public fault record from the job's. */
static void describe_fault(const dp_job *j, gfx_fault *f, uint64_t insts) {
    const struct gfx_kernel *k = j->d.k;
    const xprog *p = k->prog;
    memset(f, 0, sizeof *f);
    f->kind = public_kind(j->fault.kind);
    snprintf(f->kernel, sizeof f->kernel, "%s", k->sym->name);
    memcpy(f->workgroup, j->fault_wg_id, sizeof f->workgroup);
    f->wave = j->fault_wave;
    f->lanes = j->fault.lanes;
    f->pc = k->m->text_addr + j->fault.pc;
    f->addr = j->fault.addr;
    f->size = j->fault.size;
    f->write = j->fault.write;
    f->wave_insts = insts;
    uint32_t pc = j->fault.pc;
    if (pc < p->code_size && !(pc & 3) && p->at[pc / 4]) {
        const xinst *x = p->at[pc / 4];
        if (x->in.op && x->in.op < ISA_NOPS && isa_op_names[x->in.op])
            snprintf(f->op, sizeof f->op, "%s", isa_op_names[x->in.op]);
        isa_print(&x->in, f->disasm, sizeof f->disasm);
        if (x->in.op == 0 || !f->disasm[0])
            snprintf(f->disasm, sizeof f->disasm, "<illegal 0x%08x>", x->in.w[0]);
    }

    char where[256], where_addr[128], lanes[32];
    snprintf(where, sizeof where, "kernel %s, workgroup (%u,%u,%u), wave %u", f->kernel,
             f->workgroup[0], f->workgroup[1], f->workgroup[2], f->wave);
    const char *kind = gfx_fault_kind_name(f->kind);
    const char *ins = f->disasm[0] ? f->disasm : "?";
    switch (f->kind) {
    case GFX_FAULT_MEMORY:
    case GFX_FAULT_LDS:
        /* a scalar access has no lanes */
        snprintf(lanes, sizeof lanes, ", lanes 0x%016llx", (unsigned long long)f->lanes);
        snprintf(f->message, sizeof f->message,
                 "%s: %s of %u bytes at 0x%llx%s by '%s' at pc 0x%llx (%s%s)", kind,
                 f->write ? "write" : "read", f->size, (unsigned long long)f->addr,
                 locate(j, f, where_addr, sizeof where_addr), ins, (unsigned long long)f->pc, where,
                 f->lanes ? lanes : "");
        break;
    case GFX_FAULT_WATCHDOG:
        /* The hint names the caller's knob: the launch option, or for raw code run by
         * gfxemu_run_asm() (the only kernels with user_sgprs) its environment variable.  The
         * CLI replaces it with its own option. */
        snprintf(f->message, sizeof f->message,
                 "%s: instruction budget of %llu wave-instructions exhausted at pc 0x%llx ('%s') "
                 "(%s); raise it with %s",
                 kind, (unsigned long long)j->max_insts, (unsigned long long)f->pc, ins, where,
                 k->user_sgprs ? "the GFXEMU_MAX_INSTS environment variable"
                               : "gfx_launch_options.max_insts");
        break;
    case GFX_FAULT_PC:
        snprintf(f->message, sizeof f->message,
                 "%s: pc 0x%llx is not the start of an instruction (%s)", kind,
                 (unsigned long long)f->pc, where);
        break;
    default:
        snprintf(f->message, sizeof f->message, "%s: '%s' at pc 0x%llx (%s)%s%s", kind, ins,
                 (unsigned long long)f->pc, where, j->fault.note ? ": " : "",
                 j->fault.note ? j->fault.note : "");
        break;
    }
}

/* ---- one workgroup --------------------------------------------------------------------------- */

/* Run wave w until it leaves WAVE_RUNNING, in budget slices.  Returns 0, or -1 when the launch is
 * stopping (w may still be RUNNING). */
static int run_wave(dp_job *j, dp_worker *wk, wave *w) {
    for (;;) {
        if (atomic_load_explicit(&j->stop, memory_order_relaxed))
            return -1;
        /* A worker adds its count to the shared one only every DP_SLICE instructions, not after
         * every wave: short waves (elementwise kernels) would otherwise write that cache line
         * from both cores a few times per workgroup.  The budget check still sees this worker's
         * own count exactly (one thread: exact watchdog; n threads: as before, within a slice
         * per other worker). */
        uint64_t used = atomic_load_explicit(&j->insts, memory_order_relaxed) + wk->unpublished;
        if (used >= j->max_insts) {
            wave_fault(w, NULL, XF_WATCHDOG);
            return 0;
        }
        uint64_t slice = j->max_insts - used < DP_SLICE ? j->max_insts - used : DP_SLICE;
        w->budget = slice;
        if (j->hooks) {
            if (j->hooks->run(j->hooks->ctx, w)) {
                j->abandoned = 1;
                atomic_store(&j->stop, 1);
            }
        } else {
            wave_run(w);
        }
        wk->unpublished += slice - w->budget;
        if (wk->unpublished >= DP_SLICE) {
            atomic_fetch_add_explicit(&j->insts, wk->unpublished, memory_order_relaxed);
            wk->unpublished = 0;
        }
        /* wave_run reports the end of a slice as a watchdog fault; the real watchdog is the
         * launch-wide count checked above. */
        if (w->status == WAVE_FAULT && w->fault.kind == XF_WATCHDOG && w->budget == 0) {
            w->status = WAVE_RUNNING;
            memset(&w->fault, 0, sizeof w->fault);
            continue;
        }
        return 0;
    }
}

static void run_workgroup(dp_job *j, dp_worker *wk, uint64_t wg_linear) {
    const dp_dispatch *d = &j->d;
    uint32_t wg[3] = {(uint32_t)(wg_linear % d->grid[0]),
                      (uint32_t)(wg_linear / d->grid[0] % d->grid[1]),
                      (uint32_t)(wg_linear / d->grid[0] / d->grid[1])};
    if (d->lds_size)
        memset(wk->lds, 0, d->lds_size);
    if (d->scratch_wave)
        memset(wk->scratch, 0, (size_t)d->scratch_wave * d->waves_per_wg);
    unsigned n = d->waves_per_wg;
    for (unsigned i = 0; i < n; i++) {
        wave *w = &wk->waves[i];
        dp_wave_init(w, d, wg, i);
        w->mem = j->mem;
        w->lds = d->lds_size ? wk->lds : NULL;
        w->lds_size = d->lds_size;
        w->scratch = d->scratch_wave ? wk->scratch + (size_t)d->scratch_wave * i : NULL;
    }
    if (j->hooks)
        j->hooks->wg_begin(j->hooks->ctx, d, wk->waves, n, wg_linear);
    /* Round-robin: run every runnable wave until it blocks; when none can run, release the
     * barrier (a wave that has ended counts as arrived). */
    for (;;) {
        unsigned running = 0, barrier = 0;
        for (unsigned i = 0; i < n; i++) {
            wave *w = &wk->waves[i];
            if (w->status == WAVE_RUNNING && run_wave(j, wk, w) != 0)
                goto out;
            if (w->status == WAVE_FAULT) {
                record_fault(j, w, wg_linear);
                goto out;
            }
            running += w->status == WAVE_RUNNING;
            barrier += w->status == WAVE_BARRIER;
        }
        if (running)
            continue;
        if (!barrier)
            break;
        for (unsigned i = 0; i < n; i++)
            if (wk->waves[i].status == WAVE_BARRIER)
                wk->waves[i].status = WAVE_RUNNING;
    }
out:
    if (j->hooks)
        j->hooks->wg_end(j->hooks->ctx, wk->waves, n);
    for (unsigned i = 0; i < n; i++)
        for (int c = 0; c < XC_N; c++)
            wk->count[c] += wk->waves[i].count[c];
    wk->waves_run += n;
    wk->wgs_run++;
    atomic_fetch_add_explicit(j->progress, 1, memory_order_relaxed);
}

static void work(dp_job *j, dp_worker *wk) {
    wk->unpublished = 0;
    while (!atomic_load_explicit(&j->stop, memory_order_relaxed)) {
        uint64_t i = atomic_fetch_add(&j->next_wg, 1);
        if (i >= j->nwg)
            break;
        run_workgroup(j, wk, i);
    }
    atomic_fetch_add_explicit(&j->insts, wk->unpublished, memory_order_relaxed);
    wk->unpublished = 0;
}

/* ---- the pool -------------------------------------------------------------------------------- */

static void *pool_thread(void *arg) {
    dp_worker *wk = arg;
    gfx_device *dev = wk->dev;
    pthread_mutex_lock(&dev->lock);
    /* Generation 0 is the state at creation: a launch that bumps it before this thread first
     * runs must still be seen. */
    uint64_t seen = 0;
    for (;;) {
        while (!dev->quit && dev->generation == seen)
            pthread_cond_wait(&dev->start, &dev->lock);
        if (dev->quit)
            break;
        seen = dev->generation;
        dp_job *j = dev->job;
        pthread_mutex_unlock(&dev->lock);
        work(j, wk);
        pthread_mutex_lock(&dev->lock);
        if (--dev->active == 0)
            pthread_cond_signal(&dev->done);
    }
    pthread_mutex_unlock(&dev->lock);
    return NULL;
}

static void free_worker(dp_worker *wk) {
    free(wk->waves);
    free(wk->lds);
    free(wk->scratch);
}

/* Grow a worker's storage for launch d (called while the pool is idle). */
static int size_worker(dp_worker *wk, const dp_dispatch *d) {
    if (wk->wave_cap < d->waves_per_wg) {
        free(wk->waves);
        wk->waves = aligned_alloc(64, (sizeof(wave) + 63) / 64 * 64 * d->waves_per_wg);
        wk->wave_cap = wk->waves ? d->waves_per_wg : 0;
        if (!wk->waves)
            return -1;
    }
    if (wk->lds_cap < d->lds_size) {
        free(wk->lds);
        /* Round up so that a 16-byte access at the last valid address stays inside. */
        wk->lds = malloc(((size_t)d->lds_size + 63) & ~(size_t)63);
        wk->lds_cap = wk->lds ? d->lds_size : 0;
        if (!wk->lds)
            return -1;
    }
    size_t sc = (size_t)d->scratch_wave * d->waves_per_wg;
    if (wk->scratch_cap < sc) {
        free(wk->scratch);
        wk->scratch = malloc(sc);
        wk->scratch_cap = wk->scratch ? sc : 0;
        if (!wk->scratch)
            return -1;
    }
    return 0;
}

gfx_result dp_device_create(gfx_arch arch, unsigned threads, gfx_device **out) {
    *out = NULL;
    if ((unsigned)arch >= GFX_ARCH_COUNT)
        return GFX_ERR_ARCH;
    if (threads == 0) {
        long n = sysconf(_SC_NPROCESSORS_ONLN);
        threads = n > 0 ? (unsigned)n : 1;
    }
    if (threads > 1024)
        threads = 1024;
    gfx_device *dev = calloc(1, sizeof *dev);
    if (!dev)
        return GFX_ERR_NOMEM;
    dev->arch = arch;
    dev->nthreads = threads;
    dev->mem = gmem_create();
    dev->workers = aligned_alloc(64, threads * sizeof *dev->workers);
    if (dev->workers)
        memset(dev->workers, 0, threads * sizeof *dev->workers);
    if (!dev->mem || !dev->workers) {
        gmem_destroy(dev->mem);
        free(dev->workers);
        free(dev);
        return GFX_ERR_NOMEM;
    }
    pthread_mutex_init(&dev->api_lock, NULL);
    pthread_mutex_init(&dev->lock, NULL);
    pthread_cond_init(&dev->start, NULL);
    pthread_cond_init(&dev->done, NULL);
    for (unsigned i = 0; i < threads; i++) {
        dev->workers[i].dev = dev;
        dev->workers[i].idx = i;
    }
    for (unsigned i = 1; i < threads; i++) {
        if (pthread_create(&dev->workers[i].th, NULL, pool_thread, &dev->workers[i]) != 0)
            break;
        dev->nstarted++;
    }
    /* Fewer threads than asked (resource limits) still works: the pool is what started. */
    dev->nthreads = dev->nstarted + 1;
    *out = dev;
    return GFX_OK;
}

void dp_device_free(gfx_device *dev) {
    if (!dev)
        return;
    pthread_mutex_lock(&dev->lock);
    dev->quit = 1;
    pthread_cond_broadcast(&dev->start);
    pthread_mutex_unlock(&dev->lock);
    for (unsigned i = 1; i <= dev->nstarted; i++)
        pthread_join(dev->workers[i].th, NULL);
    for (unsigned i = 0; i < dev->nstarted + 1; i++)
        free_worker(&dev->workers[i]);
    free(dev->workers);
    gmem_destroy(dev->mem);
    pthread_mutex_destroy(&dev->api_lock);
    pthread_mutex_destroy(&dev->lock);
    pthread_cond_destroy(&dev->start);
    pthread_cond_destroy(&dev->done);
    free(dev);
}

static double now(void) {
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + ts.tv_nsec * 1e-9;
}

static gfx_result fail(gfx_device *dev, gfx_result r, const char *msg) {
    snprintf(dev->error, sizeof dev->error, "%s", msg);
    return r;
}

gfx_result dp_launch(gfx_device *dev, const struct gfx_kernel *k, const uint32_t grid[3],
                     const uint32_t block[3], const void *kernargs, size_t kernarg_size,
                     const gfx_launch_options *opts, gfx_stats *stats) {
    double t0 = now();
    gfx_launch_options o = {0, 0, 0};
    if (opts)
        o = *opts;
    if (!o.max_insts)
        o.max_insts = GFX_DEFAULT_MAX_INSTS;
    memset(&dev->fault, 0, sizeof dev->fault);
    dev->error[0] = 0;
    if (stats)
        memset(stats, 0, sizeof *stats);
    if (k->m->arch != dev->arch) {
        snprintf(dev->error, sizeof dev->error, "kernel %s is %s code; the device is %s",
                 k->sym->name, gfx_arch_name(k->m->arch), gfx_arch_name(dev->arch));
        return GFX_ERR_ARCH;
    }

    dp_job *j = aligned_alloc(64, sizeof *j);
    if (!j)
        return fail(dev, GFX_ERR_NOMEM, "out of memory");
    memset(j, 0, sizeof *j);
    gfx_result r = dp_plan(&j->d, k, dev->arch, grid, block, o.dynamic_lds, o.private_size,
                           dev->error, sizeof dev->error);
    if (r) {
        free(j);
        return r;
    }
    dp_dispatch *d = &j->d;
    uint32_t ksize = dp_kernarg_size(k, kernarg_size);
    /* Kernarg memory is allocated in 256-byte units (as runtimes do), so wide scalar loads the
     * compiler rounds up past the last argument stay inside it. */
    uint32_t kalloc = (ksize + 255) & ~255u;
    uint8_t *kimg = calloc(1, kalloc ? kalloc : 256);
    uint8_t pkt[64];
    d->dispatch_id = dev->dispatch_id++;
    d->kernarg_va = gmem_alloc(dev->mem, kalloc ? kalloc : 256, -1);
    d->packet_va = gmem_alloc(dev->mem, 64, -1);
    d->queue_va = gmem_alloc(dev->mem, 256, -1); /* a zeroed stand-in for amd_queue_t */
    if (!kimg || !d->kernarg_va || !d->packet_va || !d->queue_va) {
        r = fail(dev, GFX_ERR_NOMEM, "out of memory");
        goto out;
    }
    dp_build_kernargs(d, kernargs, kernarg_size, kimg, ksize);
    d->kernargs = kimg;
    d->kernarg_size = ksize;
    dp_build_packet(d, pkt);
    gmem_write(dev->mem, d->kernarg_va, kimg, ksize);
    gmem_write(dev->mem, d->packet_va, pkt, sizeof pkt);

    j->nwg = (uint64_t)grid[0] * grid[1] * grid[2];
    /* Every worker gets storage: all pool threads wake, and any of them may take a workgroup. */
    for (unsigned i = 0; i < dev->nthreads; i++) {
        dp_worker *wk = &dev->workers[i];
        memset(wk->count, 0, sizeof wk->count);
        wk->waves_run = wk->wgs_run = 0;
        if (size_worker(wk, d)) {
            r = fail(dev, GFX_ERR_NOMEM, "out of memory for wave storage");
            goto out;
        }
    }
    unsigned nthreads = j->nwg < dev->nthreads ? (unsigned)j->nwg : dev->nthreads;
    j->hooks = dev->hooks;
    if (j->hooks)
        nthreads = 1;
    j->mem = dev->mem;
    j->max_insts = o.max_insts;
    atomic_init(&j->next_wg, 0);
    atomic_init(&j->insts, 0);
    atomic_init(&j->stop, 0);
    j->progress = &dev->progress_done;
    atomic_store_explicit(&dev->progress_done, 0, memory_order_relaxed);
    atomic_store_explicit(&dev->progress_total, j->nwg, memory_order_relaxed);
    pthread_mutex_init(&j->fault_lock, NULL);

    /* With one workgroup there is nothing to share: run it on the caller's thread alone. */
    int pool = nthreads > 1 && dev->nstarted > 0;
    if (pool) {
        pthread_mutex_lock(&dev->lock);
        dev->job = j;
        dev->active = dev->nstarted;
        dev->generation++;
        pthread_cond_broadcast(&dev->start);
        pthread_mutex_unlock(&dev->lock);
    }
    work(j, &dev->workers[0]);
    if (pool) {
        pthread_mutex_lock(&dev->lock);
        while (dev->active > 0)
            pthread_cond_wait(&dev->done, &dev->lock);
        dev->job = NULL;
        pthread_mutex_unlock(&dev->lock);
    }
    pthread_mutex_destroy(&j->fault_lock);

    uint64_t count[XC_N] = {0}, waves = 0, wgs = 0;
    for (unsigned i = 0; i < dev->nthreads; i++) {
        dp_worker *wk = &dev->workers[i];
        for (int c = 0; c < XC_N; c++)
            count[c] += wk->count[c];
        waves += wk->waves_run;
        wgs += wk->wgs_run;
        memset(wk->count, 0, sizeof wk->count);
        wk->waves_run = wk->wgs_run = 0;
    }
    uint64_t total = 0;
    for (int c = 0; c < XC_N; c++)
        total += count[c];
    if (stats) {
        stats->wave_insts = total;
        stats->waves = waves;
        stats->workgroups = wgs;
        stats->threads = nthreads;
        stats->salu = count[XC_SALU];
        stats->valu = count[XC_VALU];
        stats->vmem = count[XC_VMEM];
        stats->smem = count[XC_SMEM];
        stats->lds = count[XC_LDS];
        stats->mfma = count[XC_MFMA];
        stats->branch = count[XC_BRANCH];
        stats->other = count[XC_OTHER];
    }
    if (j->abandoned && !j->faulted) {
        r = fail(dev, GFX_ERR_STOPPED, "the launch was stopped by the debugger");
    } else if (j->faulted) {
        describe_fault(j, &dev->fault, total);
        snprintf(dev->error, sizeof dev->error, "%s", dev->fault.message);
        r = GFX_ERR_FAULT;
    }
out:
    if (d->kernarg_va)
        gmem_free(dev->mem, d->kernarg_va);
    if (d->packet_va)
        gmem_free(dev->mem, d->packet_va);
    if (d->queue_va)
        gmem_free(dev->mem, d->queue_va);
    free(kimg);
    free(j);
    if (stats)
        stats->seconds = now() - t0;
    return r;
}
