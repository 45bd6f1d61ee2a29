/* launch.c - devices, the worker pool, launches and their fault records.  Which workgroups are
 * resident and how their waves take turns is sched.c's business.
 *
 * Everything a wave sees at start (registers, zeroed LDS and scratch) depends only on its ids,
 * and residency is the modelled device's, so results do not depend on the number of threads.
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

#include "dispatch/sched.h"

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
    [GFX_FAULT_DEADLOCK] = "deadlock",
    [GFX_FAULT_TIMEOUT] = "timeout",
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
    case XF_DEADLOCK: return GFX_FAULT_DEADLOCK;
    case XF_TIMEOUT: return GFX_FAULT_TIMEOUT;
    default: return GFX_FAULT_NONE;
    }
}

/* Record the first fault of a launch (lowest workgroup index if several race) and stop it. */
void dp_record_fault(dp_job *j, const wave *w, uint64_t wg_linear) {
    pthread_mutex_lock(&j->fault_lock);
    if (!j->faulted || wg_linear < j->fault_wg) {
        j->faulted = 1;
        j->fault_wg = wg_linear;
        j->fault = w->fault;
        memcpy(j->fault_wg_id, w->wg_id, sizeof j->fault_wg_id);
        j->fault_wave = w->wave_id;
        j->fault_spinning = atomic_load(&j->nspinning);
    }
    pthread_mutex_unlock(&j->fault_lock);
    atomic_store(&j->stop, 1);
}

/* What a region is, for messages: "the 4000-byte buffer at 0x...", ".rodata of module k.co". */
static void region_name(const gmem_region *r, uint64_t addr, char *buf, size_t n) {
    static const char *const kinds[] = {[GMEM_BUFFER] = "buffer",
                                        [GMEM_HOST] = "registered host range",
                                        [GMEM_KERNARG] = "kernarg segment",
                                        [GMEM_PACKET] = "dispatch packet",
                                        [GMEM_QUEUE] = "queue",
                                        [GMEM_IMAGE] = "program image"};
    if (r->kind == GMEM_IMAGE && r->owner) {
        /* the section holding the address, or the last one below it */
        const gfx_module *m = r->owner;
        const ld_section *best = NULL;
        uint64_t off = addr - r->base;
        for (size_t i = 0; i < m->nsecs; i++)
            if (m->secs[i].addr <= off && (!best || m->secs[i].addr > best->addr))
                best = &m->secs[i];
        if (best && off - best->addr < best->size) {
            snprintf(buf, n, "%s of module %s (image at 0x%llx)", best->name, m->name,
                     (unsigned long long)r->base);
            return;
        }
        snprintf(buf, n, "the %llu-byte program image of module %s at 0x%llx",
                 (unsigned long long)r->size, m->name, (unsigned long long)r->base);
        return;
    }
    snprintf(buf, n, "the %llu-byte %s at 0x%llx", (unsigned long long)r->size, kinds[r->kind],
             (unsigned long long)r->base);
}

/* Nearer than this to a buffer, an address is described relative to it; farther, it is
 * "unmapped" (the gap gmem leaves between allocations is 64 KiB). */
#define NEAR_BYTES 0x10000ull

/* " (16 bytes past the end of the 4000-byte buffer at 0x...)": where a bad address lies: the
 * LDS, a wave's private memory, a buffer or program image it is in or near, or nothing. */
static const char *locate_addr(const dp_dispatch *d, gmem *mem, int lds_fault, int space,
                               uint32_t wave_id, uint64_t addr, int write, char *buf, size_t n) {
    char what[256];
    if (lds_fault) {
        snprintf(buf, n, " (the workgroup has %u bytes of LDS)", d->lds_size);
        return buf;
    }
    if (space == XS_LDS) {
        snprintf(buf, n, " (offset 0x%llx in the LDS aperture; the workgroup has %u bytes of LDS)",
                 (unsigned long long)addr, d->lds_size);
        return buf;
    }
    if (space == XS_PRIVATE) {
        snprintf(buf, n,
                 " (in the private memory of wave %u, beyond its private segment of %u bytes per "
                 "lane)",
                 wave_id, d->scratch_lane);
        return buf;
    }
    if (addr >> 32 == GMEM_SHARED_APERTURE >> 32 || addr >> 32 == GMEM_PRIVATE_APERTURE >> 32) {
        snprintf(buf, n, " (in the %s aperture)",
                 addr >> 32 == GMEM_SHARED_APERTURE >> 32 ? "LDS" : "private");
        return buf;
    }
    const gmem_region *r = gmem_find(mem, addr);
    if (r) {
        region_name(r, addr, what, sizeof what);
        if (write && r->ro)
            snprintf(buf, n, " (%s is read-only host memory)", what);
        else /* starts inside, ends past the end */
            snprintf(buf, n, " (crosses the end of %s)", what);
        return buf;
    }
    r = gmem_nearest(mem, addr);
    if (!r) {
        snprintf(buf, n, " (unmapped: no buffers)");
        return buf;
    }
    uint64_t end = r->base + r->size;
    uint64_t dist = addr >= end ? addr - end : r->base - addr;
    region_name(r, addr >= end ? end - 1 : r->base, what, sizeof what);
    if (dist >= NEAR_BYTES)
        snprintf(buf, n, " (unmapped; the nearest is %s, %llu bytes %s)", what,
                 (unsigned long long)dist, addr >= end ? "past its end" : "before it");
    else if (addr >= end)
        snprintf(buf, n, " (%llu bytes past the end of %s)", (unsigned long long)dist, what);
    else
        snprintf(buf, n, " (%llu bytes before %s)", (unsigned long long)dist, what);
    return buf;
}

const char *dp_locate_arg(const dp_job *j, uint64_t addr, char *buf, size_t n) {
    const struct gfx_kernel *k = j->d.k;
    buf[0] = 0;
    const gmem_region *r = gmem_nearest(j->mem, addr);
    if (!r || addr < r->base || addr - r->base >= r->size)
        return buf;
    if (r->base == j->d.kernarg_va) {
        snprintf(buf, n, " (kernarg segment + 0x%llx)", (unsigned long long)(addr - r->base));
        return buf;
    }
    for (size_t i = 0; k->meta && i < k->nargs_explicit; i++) {
        const ld_arg *a = &k->meta->args[i];
        uint64_t v = 0;
        if (a->kind != GFX_ARG_GLOBAL_BUFFER || a->size != 8 ||
            (size_t)a->offset + 8 > j->d.kernarg_size)
            continue;
        memcpy(&v, j->d.kernargs + a->offset, 8);
        if (v >= r->base && v - r->base < r->size && addr >= v) {
            snprintf(buf, n, " (argument %zu + 0x%llx)", i, (unsigned long long)(addr - v));
            return buf;
        }
    }
    return buf;
}

static const char *locate(const dp_job *j, const gfx_fault *f, char *buf, size_t n) {
    return locate_addr(&j->d, j->mem, f->kind == GFX_FAULT_LDS, j->fault.space, j->fault_wave,
                       f->addr, f->write, buf, n);
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
        xinst_print(x, f->disasm, sizeof f->disasm);
        if (x->in.op == 0 || !f->disasm[0])
            snprintf(f->disasm, sizeof f->disasm, "<illegal 0x%08x>", x->in.w[0]);
    }

    char where[256], where_addr[512], lanes[32];
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
    case GFX_FAULT_WATCHDOG: {
        /* The hint names the caller's knob: the launch option, or for raw code run by
         * gfxemu_run_asm() (the only kernels with user_sgprs) its environment variable.  The
         * CLI replaces it with its own option.  No hint when waves were spinning on memory
         * nothing changed: a bigger budget does not help a kernel that waits forever. */
        unsigned spinning = j->fault_spinning;
        char stuck[160] = "";
        if (spinning)
            snprintf(stuck, sizeof stuck,
                     "; %u wave%s waited on memory that nothing changed: the kernel looks stuck "
                     "rather than long",
                     spinning, spinning == 1 ? "" : "s");
        snprintf(f->message, sizeof f->message,
                 "%s: instruction budget of %llu wave-instructions exhausted at pc 0x%llx ('%s') "
                 "(%s)%s%s",
                 kind, (unsigned long long)j->max_insts, (unsigned long long)f->pc, ins, where,
                 spinning ? stuck : "; raise it with ",
                 spinning        ? ""
                 : k->user_sgprs ? "the GFXEMU_MAX_INSTS environment variable"
                                 : "gfx_launch_options.max_insts");
        break;
    }
    case GFX_FAULT_DEADLOCK: snprintf(f->message, sizeof f->message, "%s", j->deadlock); break;
    case GFX_FAULT_TIMEOUT: {
        unsigned spinning = j->fault_spinning;
        char stuck[128] = "";
        if (spinning)
            snprintf(stuck, sizeof stuck, "; %u wave%s waited on memory that nothing changed",
                     spinning, spinning == 1 ? "" : "s");
        snprintf(f->message, sizeof f->message,
                 "%s: the launch ran longer than %g s; stopped at pc 0x%llx ('%s') (%s)%s", kind,
                 j->timeout, (unsigned long long)f->pc, ins, where, stuck);
        break;
    }
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
        dp_work(j, wk);
        pthread_mutex_lock(&dev->lock);
        if (--dev->active == 0)
            pthread_cond_signal(&dev->done);
    }
    pthread_mutex_unlock(&dev->lock);
    return NULL;
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
    dev->cus = dp_default_cus(arch);
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
        dp_free_worker(&dev->workers[i]);
    free(dev->workers);
    free(dev->races);
    dp_image_device_gone(dev);
    free(dev->mc_errors);
    gmem_destroy(dev->mem);
    pthread_mutex_destroy(&dev->api_lock);
    pthread_mutex_destroy(&dev->lock);
    pthread_cond_destroy(&dev->start);
    pthread_cond_destroy(&dev->done);
    free(dev);
}

/* Turn the launch's memcheck records into the device's public ones (with messages). */
static void memcheck_collect(gfx_device *dev, const dp_job *j) {
    const xmemcheck *mc = j->mc;
    dev->mc_count = mc->n;
    dev->mc_widened = mc->widened;
    size_t keep = mc->n < XMC_KEEP ? (size_t)mc->n : XMC_KEEP;
    if (!keep)
        return;
    gfx_memcheck_error *e = realloc(dev->mc_errors, keep * sizeof *e);
    if (!e)
        return;
    dev->mc_errors = e;
    const struct gfx_kernel *k = j->d.k;
    for (size_t i = 0; i < keep; i++, e++) {
        const xmc_rec *r = &mc->rec[i];
        memset(e, 0, sizeof *e);
        e->pc = k->m->text_addr + r->pc;
        if (r->op && r->op < ISA_NOPS && isa_op_names[r->op])
            snprintf(e->op, sizeof e->op, "%s", isa_op_names[r->op]);
        memcpy(e->workgroup, r->wg, sizeof e->workgroup);
        e->wave = r->wave;
        e->lane = r->lane;
        e->addr = r->addr;
        e->size = r->size;
        e->write = r->write;
        char where[512], ins[GFX_DISASM_MAX] = "?", lane[32] = "";
        const xprog *p = k->prog;
        if (r->pc < p->code_size && !(r->pc & 3) && p->at[r->pc / 4])
            xinst_print(p->at[r->pc / 4], ins, sizeof ins);
        if (r->lane >= 0)
            snprintf(lane, sizeof lane, ", lane %d", r->lane);
        locate_addr(&j->d, j->mem, 0, XS_GLOBAL, r->wave, r->addr, 0, where, sizeof where);
        snprintf(e->message, sizeof e->message,
                 "memcheck: %s of %u bytes at 0x%llx%s by '%.300s' at pc 0x%llx (kernel %s, "
                 "workgroup (%u,%u,%u), wave %u%s)",
                 r->write ? "write" : "read", r->size, (unsigned long long)r->addr, where, ins,
                 (unsigned long long)e->pc, k->sym->name, r->wg[0], r->wg[1], r->wg[2], r->wave,
                 lane);
    }
    dev->mc_kept = keep;
}

uint64_t gfx_memcheck_errors(const gfx_device *dev, uint64_t *widened) {
    if (widened)
        *widened = dev ? dev->mc_widened : 0;
    return dev ? dev->mc_count : 0;
}

gfx_result gfx_memcheck_error_get(const gfx_device *dev, size_t i, gfx_memcheck_error *out) {
    if (!dev || !out || i >= dev->mc_kept)
        return GFX_ERR_INVALID;
    *out = dev->mc_errors[i];
    return GFX_OK;
}

double dp_now(void) {
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + ts.tv_nsec * 1e-9;
}

static gfx_result fail(gfx_device *dev, gfx_result r, const char *msg) {
    snprintf(dev->error, sizeof dev->error, "%s", msg);
    return r;
}

/* Region i of the launch's fixed memory (kernarg segment, packet, queue): the last launch's when
 * it has this size and is still there (gfx_buffer_free() takes any owned address), zeroed in
 * whole pages as a fresh allocation is; else a new one.  The page padding past size is zeroed
 * again only when a store reached it (gmem_region.pad_written): zeroing three whole pages was a
 * fifth of a warm one-wave launch. */
static uint64_t launch_region(gfx_device *dev, int i, uint64_t size, int kind) {
    uint64_t va = dev->launch_va[i];
    if (va) {
        gmem_region *r = (gmem_region *)gmem_find(dev->mem, va); /* between launches: ours */
        if (r && r->base == va && r->kind == kind && dev->launch_size[i] == size) {
            memset(r->host, 0, size);
            if (r->pad_written) {
                memset(r->host + size, 0, ((size + GMEM_PAGE - 1) & ~(GMEM_PAGE - 1)) - size);
                r->pad_written = 0;
            }
            return va;
        }
        if (r && r->base == va && r->kind == kind)
            gmem_free(dev->mem, va);
    }
    va = gmem_alloc_kind(dev->mem, size, kind, NULL);
    dev->launch_va[i] = va;
    dev->launch_size[i] = va ? size : 0;
    return va;
}

/* The job's settings from the launch options, its shared counters and locks. */
static void job_init(dp_job *j, gfx_device *dev, const struct gfx_kernel *k,
                     const gfx_launch_options *o, double t0) {
    dp_dispatch *d = &j->d;
    j->mem = dev->mem;
    j->max_insts = o->max_insts;
    j->timeout = o->timeout > 0 ? o->timeout : 0;
    j->deadline = j->timeout > 0 ? t0 + j->timeout : 0;
    j->racecheck = (o->flags & GFX_LAUNCH_RACECHECK) != 0;
    dp_occupancy_of(d, dev->cus, &j->occ);
    j->limit_residency = j->nwg > j->occ.resident;
    {
        /* VGPRs and AGPRs the kernel uses, for spin detection: the unified count, split at
         * ACCUM_OFFSET when the kernel has AGPRs. */
        unsigned total = ld_kd_vgprs(&k->kd), acc = k->kd.accum_offset;
        if (isa_is_rdna((isa_arch)dev->arch))
            acc = 0; /* no AGPRs: those descriptor bits mean other things on gfx11/gfx12 */
        if (total > 512)
            total = 512;
        j->hash_nv = acc && acc < total ? acc : total;
        j->hash_na = total - j->hash_nv;
        if (j->hash_nv > 256)
            j->hash_nv = 256;
        if (j->hash_na > 256)
            j->hash_na = 256;
    }
    atomic_init(&j->next_wg, 0);
    atomic_init(&j->insts, 0);
    atomic_init(&j->stop, 0);
    atomic_init(&j->resident, 0);
    atomic_init(&j->epoch, 0);
    atomic_init(&j->nstuck, 0);
    atomic_init(&j->nexited, 0);
    atomic_init(&j->nspinning, 0);
    atomic_init(&j->waited, 0);
    j->progress = &dev->progress_done;
    atomic_store_explicit(&dev->progress_done, 0, memory_order_relaxed);
    atomic_store_explicit(&dev->progress_total, j->nwg, memory_order_relaxed);
    pthread_mutex_init(&j->fault_lock, NULL);
    pthread_mutex_init(&j->stuck_lock, NULL);
    pthread_mutex_init(&j->race_lock, NULL);
    x_gws_init(&j->gws);
    /* A debug launch does not probe for spins (the probe would step waves outside the
     * debugger's view): let its workers admit more workgroups after long turns instead. */
    if (j->hooks)
        atomic_store(&j->waited, 1);
}

/* Run the job's workgroups: on the caller's thread and, with more than one thread to use, the
 * device's pool; then move its racecheck reports to the device. */
static gfx_result job_run(gfx_device *dev, dp_job *j, unsigned nthreads) {
    /* With one workgroup there is nothing to share: run it on the caller's thread alone. */
    int pool = nthreads > 1 && dev->nstarted > 0;
    j->nworkers = pool ? dev->nstarted + 1 : 1;
    j->waiters = calloc(j->nworkers, sizeof *j->waiters);
    if (!j->waiters)
        return fail(dev, GFX_ERR_NOMEM, "out of memory");
    for (unsigned i = 0; i < j->nworkers; i++)
        j->waiters[i].wg_linear = UINT64_MAX;
    if (pool) {
        pthread_mutex_lock(&dev->lock);
        dev->job = j;
        dev->active = dev->nstarted;
        dev->generation++;
        pthread_cond_broadcast(&dev->start);
        pthread_mutex_unlock(&dev->lock);
    }
    dp_work(j, &dev->workers[0]);
    if (pool) {
        pthread_mutex_lock(&dev->lock);
        while (dev->active > 0)
            pthread_cond_wait(&dev->done, &dev->lock);
        dev->job = NULL;
        pthread_mutex_unlock(&dev->lock);
    }
    free(j->waiters);
    /* racecheck reports move to the device */
    free(dev->races);
    dev->races = j->races;
    dev->nraces = j->nraces;
    j->races = NULL;
    return GFX_OK;
}

/* The workers' instruction counts into *stats (when given), and zeroed for the next launch;
 * returns the total of wave-instructions. */
static uint64_t collect_stats(gfx_device *dev, unsigned nthreads, gfx_stats *stats) {
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
    return total;
}

gfx_result dp_launch(gfx_device *dev, const struct gfx_kernel *k, const uint32_t grid[3],
                     const uint32_t block[3], const void *kernargs, size_t kernarg_size,
                     const gfx_launch_options *opts, gfx_stats *stats) {
    double t0 = dp_now();
    gfx_launch_options o = {0};
    if (opts)
        o = *opts;
    if (!o.max_insts)
        o.max_insts = GFX_DEFAULT_MAX_INSTS;
    memset(&dev->fault, 0, sizeof dev->fault);
    dev->error[0] = 0;
    dev->nraces = 0;
    dev->mc_kept = 0;
    dev->mc_count = dev->mc_widened = 0;
    const char *mce = getenv("GFXEMU_MEMCHECK");
    if (mce && strcmp(mce, "1") == 0)
        o.memcheck = 1;
    if (stats)
        memset(stats, 0, sizeof *stats);
    if (!ld_runs_on(k->m, dev->arch)) {
        snprintf(dev->error, sizeof dev->error, "kernel %s is %s code; the device is %s",
                 k->sym->name, isa_arch_name((isa_arch)k->m->arch),
                 isa_arch_name((isa_arch)dev->arch));
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
    /* The module's program image (its .rodata/.data/.bss, see image.c): the waves see code
     * addresses shifted to where it lies.  Raw code of gfxemu_run_asm() has no image. */
    if (!k->user_sgprs && !k->aql_packet &&
        (r = dp_image_get(dev, (gfx_module *)k->m, &d->va_bias))) {
        free(j);
        return r;
    }
    pthread_mutex_t mc_lock;
    if (o.memcheck) {
        j->mc = calloc(1, sizeof *j->mc);
        if (!j->mc) {
            free(j);
            return fail(dev, GFX_ERR_NOMEM, "out of memory");
        }
        pthread_mutex_init(&mc_lock, NULL);
        j->mc->lock = &mc_lock;
    }
    uint32_t ksize = dp_kernarg_size(k, kernarg_size);
    /* Kernarg memory is allocated in 256-byte units (as runtimes do), so wide scalar loads the
     * compiler rounds up past the last argument stay inside it. */
    uint32_t kalloc = (ksize + 255) & ~255u;
    uint8_t *kimg = calloc(1, kalloc ? kalloc : 256);
    uint8_t pkt[64];
    d->dispatch_id = dev->dispatch_id++;
    d->kernarg_va = launch_region(dev, 0, kalloc ? kalloc : 256, GMEM_KERNARG);
    d->packet_va = launch_region(dev, 1, 64, GMEM_PACKET);
    /* a zeroed stand-in for amd_queue_t */
    d->queue_va = launch_region(dev, 2, 256, GMEM_QUEUE);
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
        if (dp_size_worker(wk, d, (o.flags & GFX_LAUNCH_RACECHECK) != 0)) {
            r = fail(dev, GFX_ERR_NOMEM, "out of memory for wave storage");
            goto out;
        }
    }
    unsigned nthreads = j->nwg < dev->nthreads ? (unsigned)j->nwg : dev->nthreads;
    j->hooks = dev->hooks;
    if (j->hooks)
        nthreads = 1;
    j->d.zero_all = j->hooks != NULL;
    const char *poison = getenv("GFXEMU_POISON_REGS");
    j->d.poison_regs = poison && *poison && strcmp(poison, "0") != 0;
    dp_wave_template(&j->d);
    job_init(j, dev, k, &o, t0);

    if ((r = job_run(dev, j, nthreads)))
        goto out_job;

    uint64_t total = collect_stats(dev, nthreads, stats);
    if (j->mc)
        memcheck_collect(dev, j);
    if (j->nomem && !j->faulted) {
        r = fail(dev, GFX_ERR_NOMEM, "out of memory for a resident workgroup's storage");
    } else if (j->abandoned && !j->faulted) {
        r = fail(dev, GFX_ERR_STOPPED, "the launch was stopped by the debugger");
    } else if (j->faulted) {
        describe_fault(j, &dev->fault, total);
        snprintf(dev->error, sizeof dev->error, "%s", dev->fault.message);
        r = GFX_ERR_FAULT;
    }
out_job:
    x_gws_destroy(&j->gws);
    pthread_mutex_destroy(&j->fault_lock);
    pthread_mutex_destroy(&j->stuck_lock);
    pthread_mutex_destroy(&j->race_lock);
    free(j->races);
out:
    free(kimg);
    if (j->mc) {
        pthread_mutex_destroy(&mc_lock);
        free(j->mc);
    }
    free(j);
    if (stats)
        stats->seconds = dp_now() - t0;
    return r;
}
