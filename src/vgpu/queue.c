/* queue.c - the command processor: one thread per user-mode queue (AQL here; the PM4 and SDMA
 * packets in pm4.c and sdma.c), the kernel cache and launches.
 *
 * The thread notices new packets by watching the queue's write index (the program stores it
 * before ringing the doorbell): a short spin after each packet, then sleeps growing from 20 us
 * to 1 ms, so an idle queue burns no core and a busy one sees its next packet at once.  Packets
 * follow the HSA Platform System Architecture spec ("Architected Queuing Language"): a packet is
 * processed once its header type is no longer INVALID; afterwards the header is set to INVALID
 * and the read index advances (amd_queue_t.read_dispatch_id, the read pointer KFD was given).
 *  - KERNEL_DISPATCH: kernel_object is the address of the 64-byte kernel descriptor in host
 *    memory (GPU VA == host VA); the code is the buffer object holding the entry point.  The
 *    waves get the program's own packet, amd_queue_t and kernarg addresses in their user SGPRs.
 *  - BARRIER_AND / BARRIER_OR: wait until all / any dependent signal is 0.
 *  - completion signal (amd_signal_t): value decremented; an interrupt signal's mailbox gets its
 *    event id and the KFD event fires; start/end timestamps are written.
 * Packets run one after another, so the barrier bit and the fences hold trivially.
 */
#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/prctl.h>
#include <linux/kfd_ioctl.h>
#include <time.h>

#include "dispatch/dispatch.h"
#include "vgpu/vgpu.h"

/* AQL packet header (hsa_packet_header_t): type [7:0], barrier [8]. */
enum {
    PKT_VENDOR = 0,
    PKT_INVALID = 1,
    PKT_KERNEL_DISPATCH = 2,
    PKT_BARRIER_AND = 3,
    PKT_AGENT_DISPATCH = 4,
    PKT_BARRIER_OR = 5,
};

/* amd_signal_t (ROCr's amd_hsa_signal.h): kind, value, event_mailbox_ptr, event_id, reserved,
 * start_ts, end_ts. */
#define SIG_VALUE 8
#define SIG_MAILBOX 16
#define SIG_EVENT_ID 24
#define SIG_START_TS 32
#define SIG_END_TS 40

static vg_queue queues[VG_MAX_QUEUES];
static pthread_mutex_t q_lock = PTHREAD_MUTEX_INITIALIZER;

/* ---- kernels ------------------------------------------------------------------------------- */

/* A kernel descriptor seen in a dispatch, with the decoded code of the buffer object holding its
 * entry point.  Keyed by the descriptor's address, its bytes and that object's serial number (a
 * code object loaded again at the same address is another object). */
typedef struct vg_kernel {
    struct vg_kernel *next;
    uint64_t kd_addr, bo_serial;
    int pm4; /* a PM4 dispatch: kd_addr is the entry point, kd what the registers said */
    uint8_t kd[LD_KD_SIZE];
    gfx_module m;
    ld_symbol sym;
    xprog prog;
    struct gfx_kernel k;
    char name[128];
    /* --stats: dispatches run and their totals */
    uint64_t dispatches, wave_insts, waves, workgroups;
    double seconds;
} vg_kernel;

static vg_kernel *kernels; /* under vg.lock; a kernel never changes once made (but its stats) */

static uint16_t rd16(const uint8_t *p) { return (uint16_t)(p[0] | p[1] << 8); }
static uint32_t rd32(const uint8_t *p) {
    uint32_t v;
    memcpy(&v, p, 4);
    return v;
}
static uint64_t rd64(const uint8_t *p) {
    uint64_t v;
    memcpy(&v, p, 8);
    return v;
}

static int in_range(uint64_t off, uint64_t len, uint64_t size) {
    return off <= size && len <= size - off;
}

/* The kernel's name from the code object the runtime loaded: its loaded image starts with the
 * ELF header, and the dynamic symbol table (in a PT_LOAD segment, reached through PT_DYNAMIC's
 * DT_SYMTAB/DT_STRTAB) names NAME.kd at the descriptor's offset.  Everything is read inside the
 * buffer object; 0, or -1 when any of it is missing. */
static int kernel_name(const vg_bo *b, uint64_t kd_addr, int pm4, char *out, size_t n) {
    const uint8_t *base = (const uint8_t *)(uintptr_t)b->va;
    uint64_t size = b->size;
#define IN(off, len) in_range(off, len, size)
    if (size < 64 || memcmp(base, "\177ELF", 4) != 0 || base[4] != 2 /* ELFCLASS64 */)
        return -1;
    uint64_t phoff = rd64(base + 32);
    uint16_t phentsize = rd16(base + 54), phnum = rd16(base + 56);
    uint64_t dyn = 0, dynsz = 0;
    for (unsigned i = 0; i < phnum && phentsize >= 56; i++) {
        uint64_t ph = phoff + (uint64_t)i * phentsize;
        if (!IN(ph, 56))
            return -1;
        if (rd32(base + ph) == 2 /* PT_DYNAMIC */) {
            dyn = rd64(base + ph + 16); /* p_vaddr */
            dynsz = rd64(base + ph + 40);
        }
    }
    if (!dyn || !IN(dyn, dynsz))
        return -1;
    uint64_t symtab = 0, strtab = 0, strsz = 0;
    for (uint64_t d = dyn; d + 16 <= dyn + dynsz; d += 16) {
        uint64_t tag = rd64(base + d), val = rd64(base + d + 8);
        if (tag == 6)
            symtab = val;
        else if (tag == 5)
            strtab = val;
        else if (tag == 10)
            strsz = val;
    }
    if (!symtab || strtab <= symtab || !IN(strtab, strsz) || !IN(symtab, strtab - symtab))
        return -1;
    uint64_t want = kd_addr - b->va;
    for (uint64_t sym = symtab; sym + 24 <= strtab; sym += 24) {
        uint32_t name = rd32(base + sym);
        if (rd64(base + sym + 8) != want || name >= strsz)
            continue;
        const char *s = (const char *)base + strtab + name;
        size_t len = strnlen(s, strsz - name);
        if (len == strsz - name)
            continue;
        if (pm4) {
            /* A PM4 dispatch knows only the entry point: the function symbol (STT_FUNC) there. */
            if ((base[sym + 4] & 0xf) != 2 || !len)
                continue;
            snprintf(out, n, "%s", s);
            return 0;
        }
        if (len < 4 || strcmp(s + len - 3, ".kd") != 0)
            continue;
        snprintf(out, n, "%.*s", (int)(len - 3), s);
        return 0;
    }
    return -1;
#undef IN
}

/* The kernel of descriptor kd (its bytes) with entry point `entry`, decoded on first use; kd_addr
 * is the descriptor's address (AQL) or the entry point (PM4). */
static vg_kernel *kernel_lookup(int gpu, uint64_t kd_addr, const uint8_t *kd, uint64_t entry,
                                int pm4, char *err, size_t errsz) {
    vg_bo *cb = vg_bo_containing(entry);
    if (!cb || !(cb->mapped & 1u << gpu)) {
        snprintf(err, errsz,
                 "the entry point 0x%" PRIx64 " of %s 0x%" PRIx64
                 " is not in a buffer object mapped to the GPU",
                 entry, pm4 ? "COMPUTE_PGM_LO/HI" : "kernel_object", kd_addr);
        return NULL;
    }
    for (vg_kernel *k = kernels; k; k = k->next)
        if (k->kd_addr == kd_addr && k->bo_serial == cb->serial && k->pm4 == pm4 &&
            memcmp(k->kd, kd, LD_KD_SIZE) == 0)
            return k;
    if (cb->size > (1ull << 31)) {
        snprintf(err, errsz, "code buffer object of %" PRIu64 " bytes is too large", cb->size);
        return NULL;
    }
    vg_kernel *k = calloc(1, sizeof *k);
    if (!k || !(k->m.text = malloc(cb->size))) {
        free(k);
        snprintf(err, errsz, "out of memory");
        return NULL;
    }
    k->kd_addr = kd_addr;
    k->bo_serial = cb->serial;
    k->pm4 = pm4;
    memcpy(k->kd, kd, LD_KD_SIZE);
    /* The whole object is the program: callees may lie before the entry (clang -O0). */
    memcpy(k->m.text, (const void *)(uintptr_t)cb->va, cb->size);
    k->m.arch = vg.card->arch;
    k->m.text_size = cb->size;
    k->m.text_addr = cb->va;
    snprintf(k->m.name, sizeof k->m.name, "<vgpu 0x%" PRIx64 ">", cb->va);
    if (xprog_build(&k->prog, (isa_arch)vg.card->arch, k->m.text, (uint32_t)cb->size, cb->va) !=
        0) {
        free(k->m.text);
        free(k);
        snprintf(err, errsz, "out of memory decoding the code");
        return NULL;
    }
    if (kernel_name(cb, kd_addr, pm4, k->name, sizeof k->name) != 0)
        snprintf(k->name, sizeof k->name, "kernel@0x%" PRIx64, kd_addr);
    k->sym.name = k->name;
    k->sym.addr = entry;
    k->sym.size = cb->va + cb->size - entry;
    k->sym.has_kd = 1;
    memcpy(k->sym.kd, kd, LD_KD_SIZE);
    k->sym.kd_addr = kd_addr;
    k->k.m = &k->m;
    k->k.sym = &k->sym;
    ld_kd_decode(kd, &k->k.kd);
    k->k.entry = entry;
    k->k.entry_pc = (uint32_t)(entry - cb->va);
    k->k.prog = &k->prog;
    x_zero_plan(&k->prog, k->k.entry_pc, &k->k.zplan);
    k->next = kernels;
    kernels = k;
    return k;
}

/* The kernel of an AQL dispatch: the descriptor at kd_addr in a buffer object mapped to the GPU. */
static vg_kernel *kernel_get(int gpu, uint64_t kd_addr, char *err, size_t errsz) {
    vg_bo *kb = vg_bo_containing(kd_addr);
    if (!kb || kd_addr + LD_KD_SIZE > kb->va + kb->size || !(kb->mapped & 1u << gpu)) {
        snprintf(err, errsz,
                 "kernel_object 0x%" PRIx64 " is not in a buffer object mapped to the GPU",
                 kd_addr);
        return NULL;
    }
    const uint8_t *kd = (const uint8_t *)(uintptr_t)kd_addr;
    int64_t entry_off;
    memcpy(&entry_off, kd + 16, 8); /* kernel_code_entry_byte_offset */
    return kernel_lookup(gpu, kd_addr, kd, kd_addr + (uint64_t)entry_off, 0, err, errsz);
}

static void complete(uint64_t signal, uint64_t start, uint64_t end) {
    if (!signal)
        return;
    uint8_t *s = (uint8_t *)(uintptr_t)signal;
    __atomic_store_n((uint64_t *)(s + SIG_START_TS), start, __ATOMIC_RELAXED);
    __atomic_store_n((uint64_t *)(s + SIG_END_TS), end, __ATOMIC_RELAXED);
    __atomic_fetch_sub((int64_t *)(s + SIG_VALUE), 1, __ATOMIC_SEQ_CST);
    uint64_t mailbox = __atomic_load_n((uint64_t *)(s + SIG_MAILBOX), __ATOMIC_ACQUIRE);
    if (mailbox) {
        uint32_t id = __atomic_load_n((uint32_t *)(s + SIG_EVENT_ID), __ATOMIC_RELAXED);
        __atomic_store_n((uint64_t *)(uintptr_t)mailbox, (uint64_t)id, __ATOMIC_RELEASE);
        vg_event_signal(id);
    }
}

/* An AQL packet's completion: the signal is decremented once the queue thread has stored the
 * read index past the packet (and its header is INVALID), as the packet processor consumes a
 * packet before its work completes; a waiter on the signal (ROCr, tests/vgpu/kfd_driver.c)
 * may then read the read index and reuse the slot.  Decremented right away it raced with that
 * store (CI saw "read index 0 after one packet" once). */
static void complete_aql(vg_queue *q, uint64_t signal, uint64_t start, uint64_t end) {
    q->done_pending = 1;
    q->done_signal = signal, q->done_t0 = start, q->done_t1 = end;
}
static void complete_pending(vg_queue *q) {
    if (q->done_pending) {
        q->done_pending = 0;
        complete(q->done_signal, q->done_t0, q->done_t1);
    }
}

/* Queue errors: the command processor stores an error code in amd_queue_t's
 * queue_inactive_signal (offset 192) and raises its interrupt; ROCr's queue error handler maps
 * bit 30 to HSA_STATUS_ERROR_ILLEGAL_INSTRUCTION and bit 31 to HSA_STATUS_ERROR_EXCEPTION (a
 * trap) and calls the runtime's queue error callback (HIP aborts with it).  gfxemu's own record
 * of the fault, printed before, says what it was (an unimplemented instruction, the watchdog). */
#define AMD_QUEUE_INACTIVE_SIGNAL 192
#define QERR_ILLEGAL_INSTRUCTION 0x40000000u
#define QERR_DEBUG_TRAP 0x80000000u

static void queue_error(uint64_t queue_addr, uint32_t code);

/* Launch k on the queue's own device with the geometry g; kk is this dispatch's copy of k->k
 * (its user SGPRs or AQL pointers set), so queues may launch the same kernel at once.  Takes
 * vg.space for reading while it runs (the buffer objects stay mapped), not vg.lock: the other
 * queues' packets, the program's ioctls and the events go on meanwhile.  1: a fault (in *f),
 * 0: done, -1: error (in err). */
static int launch(vg_queue *q, vg_kernel *k, struct gfx_kernel *kk, const vg_geom *g,
                  uint32_t private_size, uint32_t group_size, gfx_fault *f, char *err,
                  size_t errsz) {
    gfx_device *dev = q->dev;
    if (!dev) {
        snprintf(err, errsz, "no emulated device");
        return -1;
    }
    gfx_launch_options o = {0};
    o.private_size = private_size;
    if (group_size > kk->kd.group_segment_fixed_size)
        o.dynamic_lds = group_size - kk->kd.group_segment_fixed_size;
    o.memcheck = vg.memcheck;
    uint64_t t0 = vg.timeline ? vg_now_ns() : 0;
    int ret = 0;
    /* One launch, as the card runs it: partial workgroups at the grid's end are smaller
     * workgroups of the same dispatch (struct gfx_kernel.partial), resident with the others. */
    uint32_t grid[3], block[3];
    for (int i = 0; i < 3; i++) {
        grid[i] = g->count[i];
        block[i] = g->full[i];
        kk->wg_origin[i] = g->origin[i];
        kk->partial[i] = g->partial[i];
    }
    kk->external_writers = 1;
    gfx_stats sum;
    memset(&sum, 0, sizeof sum);
    vg_space_read();
    /* A PM4 dispatch whose end is its start has no workgroups: nothing runs. */
    gfx_result r = GFX_OK;
    if (!grid[0] || !grid[1] || !grid[2])
        r = GFX_OK;
    else if (vg.counters || vg.att[0])
        r = vg_profile_launch(q, k->name, kk, k->m.text, k->m.text_size, grid, block, &o, &sum);
    else
        r = gfx_launch(dev, kk, grid, block, NULL, 0, &o, &sum);
    if (r == GFX_ERR_FAULT) {
        ret = 1;
        gfx_last_fault(dev, f);
    } else if (r != GFX_OK) {
        snprintf(err, errsz, "%s", gfx_device_error(dev));
        ret = -1;
    }
    if (o.memcheck) {
        uint64_t n = gfx_memcheck_errors(dev, NULL);
        for (uint64_t e = 0; e < n && e < 20; e++) {
            gfx_memcheck_error me;
            if (gfx_memcheck_error_get(dev, (size_t)e, &me) == GFX_OK)
                vg_msg("memcheck: %s", me.message);
        }
    }
    vg_space_done();
    pthread_mutex_lock(&vg.lock);
    k->dispatches++;
    k->wave_insts += sum.wave_insts;
    k->waves += sum.waves;
    k->workgroups += sum.workgroups;
    k->seconds += sum.seconds;
    pthread_mutex_unlock(&vg.lock);
    if (vg.timeline) {
        char args[400];
        snprintf(args, sizeof args,
                 "\"grid\": [%u, %u, %u], \"workgroup\": [%u, %u, %u], \"partial\": [%u, %u, %u], "
                 "\"origin\": [%u, %u, %u], \"workgroups\": %llu, \"waves\": %llu, "
                 "\"wave_insts\": %llu%s",
                 g->count[0], g->count[1], g->count[2], g->full[0], g->full[1], g->full[2],
                 g->partial[0], g->partial[1], g->partial[2], g->origin[0], g->origin[1],
                 g->origin[2], (unsigned long long)sum.workgroups, (unsigned long long)sum.waves,
                 (unsigned long long)sum.wave_insts,
                 ret == 1 ? ", \"fault\": true"
                 : ret    ? ", \"error\": true"
                          : "");
        vg_timeline_span(q, k->name, "kernel", t0, vg_now_ns(), args);
    }
    return ret;
}

/* After a launch: report a fault (fault = 1, f) or an error (err[0]) as the hardware would, and
 * stop the queue.  0 when the launch ran. */
static int launch_report(vg_queue *q, int fault, const gfx_fault *f, const char *err,
                         uint64_t queue_addr, const char *what) {
    if (fault) {
        vg_msg("GPU fault on %s node %d: %s", vg.card->target, q->gpu + 1, f->message);
        q->broken = 1;
        if (f->kind == GFX_FAULT_MEMORY) {
            /* As amdkfd does on a VM fault: the memory-exception event, which ROCr reports
             * ("Memory access fault by GPU node-N ... on address ...") */
            vg_event_memory_fault(q->gpu, f->addr, f->write);
        } else if (q->type == KFD_IOC_QUEUE_TYPE_COMPUTE_AQL) {
            queue_error(queue_addr, f->kind == GFX_FAULT_TRAP || f->kind == GFX_FAULT_HALT
                                        ? QERR_DEBUG_TRAP
                                        : QERR_ILLEGAL_INSTRUCTION);
        } else {
            vg_msg("the PM4 queue is stopped");
        }
        return -1;
    }
    if (err[0]) {
        vg_msg("%s not run: %s", what, err);
        q->broken = 1;
        return -1;
    }
    return 0;
}

/* Run one KERNEL_DISPATCH packet (pkt: a copy; pkt_addr: where it is in the ring). */
static void dispatch(vg_queue *q, const uint8_t *pkt, uint64_t pkt_addr, uint64_t queue_addr) {
    uint16_t setup = rd16(pkt + 2);
    uint32_t dims = setup & 3;
    uint32_t wg[3] = {rd16(pkt + 4), rd16(pkt + 6), rd16(pkt + 8)};
    uint32_t gs[3] = {rd32(pkt + 12), rd32(pkt + 16), rd32(pkt + 20)};
    uint32_t private_size = rd32(pkt + 24), group_size = rd32(pkt + 28);
    uint64_t kd_addr = rd64(pkt + 32), kernarg = rd64(pkt + 40), signal = rd64(pkt + 56);
    uint64_t t0 = vg_gpu_clock();
    char err[256] = "";
    vg_geom g;
    memset(&g, 0, sizeof g);
    for (int i = 0; i < 3; i++) {
        if (i >= (int)dims) {
            wg[i] = wg[i] ? wg[i] : 1;
            gs[i] = gs[i] ? gs[i] : 1;
        }
        if (!wg[i] || !gs[i]) {
            snprintf(err, sizeof err, "dispatch packet with a zero workgroup or grid size");
            break;
        }
        /* A grid size that is not a multiple of the workgroup size ends in a partial
         * workgroup (HSA: the last workgroup in that dimension has the remaining work-items). */
        g.count[i] = gs[i] / wg[i] + (gs[i] % wg[i] != 0);
        g.full[i] = wg[i];
        g.partial[i] = gs[i] % wg[i];
    }
    int fault = 0;
    gfx_fault f;
    memset(&f, 0, sizeof f);
    if (!err[0]) {
        pthread_mutex_lock(&vg.lock);
        vg_kernel *k = kernel_get(q->gpu, kd_addr, err, sizeof err);
        struct gfx_kernel kk;
        if (k) /* the cache's kernels never change once made */
            kk = k->k;
        pthread_mutex_unlock(&vg.lock);
        if (k) {
            kk.aql_packet = pkt_addr;
            kk.aql_queue = queue_addr;
            kk.aql_kernarg = kernarg;
            fault = launch(q, k, &kk, &g, private_size, group_size, &f, err, sizeof err);
        }
    }
    uint64_t t1 = vg_gpu_clock();
    if (launch_report(q, fault == 1, &f, err, queue_addr, "kernel dispatch") == 0)
        complete_aql(q, signal, t0, t1);
}

int vg_queue_launch_regs(vg_queue *q, const uint8_t kd[64], uint64_t entry, const uint32_t *user,
                         unsigned nuser, const vg_geom *g) {
    char err[256] = "";
    int fault = 0;
    gfx_fault f;
    memset(&f, 0, sizeof f);
    pthread_mutex_lock(&vg.lock);
    vg_kernel *k = kernel_lookup(q->gpu, entry, kd, entry, 1, err, sizeof err);
    struct gfx_kernel kk;
    if (k)
        kk = k->k;
    pthread_mutex_unlock(&vg.lock);
    if (k) {
        /* CP loads COMPUTE_USER_DATA_0..15 into s0..s15; nothing else is a user SGPR. */
        uint32_t sgprs[16];
        nuser = nuser < 16 ? nuser : 16;
        memcpy(sgprs, user, nuser * sizeof *user);
        kk.user_sgprs = sgprs;
        kk.n_user_sgprs = nuser;
        fault = launch(q, k, &kk, g, 0, 0, &f, err, sizeof err);
    }
    return launch_report(q, fault == 1, &f, err, 0, "PM4 DISPATCH_DIRECT");
}

static void queue_error(uint64_t queue_addr, uint32_t code) {
    uint64_t sig =
        queue_addr ? *(volatile uint64_t *)(uintptr_t)(queue_addr + AMD_QUEUE_INACTIVE_SIGNAL) : 0;
    if (!sig) {
        vg_msg("the queue is stopped; the program has no queue error signal and waits forever");
        return;
    }
    uint8_t *s = (uint8_t *)(uintptr_t)sig;
    vg_msg("the queue is stopped with error 0x%x (%s) in its queue_inactive_signal", code,
           code == QERR_DEBUG_TRAP ? "debug trap" : "illegal instruction");
    __atomic_store_n((int64_t *)(s + SIG_VALUE), (int64_t)code, __ATOMIC_SEQ_CST);
    uint64_t mailbox = __atomic_load_n((uint64_t *)(s + SIG_MAILBOX), __ATOMIC_ACQUIRE);
    if (mailbox) {
        uint32_t id = __atomic_load_n((uint32_t *)(s + SIG_EVENT_ID), __ATOMIC_RELAXED);
        __atomic_store_n((uint64_t *)(uintptr_t)mailbox, (uint64_t)id, __ATOMIC_RELEASE);
        vg_event_signal(id);
    }
}

static int signal_is_zero(uint64_t signal) {
    return __atomic_load_n((int64_t *)(uintptr_t)(signal + SIG_VALUE), __ATOMIC_ACQUIRE) == 0;
}

int vg_queue_poll_wait(vg_queue *q, unsigned *sleep_us) {
    if (__atomic_load_n(&q->stop, __ATOMIC_ACQUIRE))
        return -1;
    struct timespec ts = {0, (long)*sleep_us * 1000};
    nanosleep(&ts, NULL);
    if (*sleep_us < 1000)
        *sleep_us *= 2;
    return __atomic_load_n(&q->stop, __ATOMIC_ACQUIRE) ? -1 : 0;
}

void *vg_queue_mem(vg_queue *q, const char *what, uint64_t va, uint64_t n, int write) {
    gfx_device *dev = vg.dev[q->gpu];
    gmem_cache c;
    memset(&c, 0, sizeof c);
    void *p = NULL;
    if (dev && n)
        p = write ? gmem_xlate_w(dev->mem, &c, va, n) : gmem_xlate(dev->mem, &c, va, n);
    if (p)
        return p;
    /* The first byte of the range that is not there: the page a VM fault would name. */
    uint64_t bad = va;
    const gmem_region *r = dev ? gmem_find(dev->mem, va) : NULL;
    if (r)
        bad = r->ro && write ? va : r->base + r->size;
    vg_msg("GPU fault on %s node %d: %s %s of %" PRIu64 " bytes at 0x%" PRIx64 ": 0x%" PRIx64
           " is not in a buffer object mapped %sto the GPU; the queue is stopped",
           vg.card->target, q->gpu + 1, what, write ? "write" : "read", n, va, bad,
           r && r->ro && write ? "writable " : "");
    q->broken = 1;
    q->fault_pending = 1;
    q->fault_va = bad;
    q->fault_write = write;
    return NULL;
}

int vg_queue_store(vg_queue *q, const char *what, uint64_t va, uint64_t v, unsigned n) {
    vg_space_read();
    void *d = vg_queue_mem(q, what, va, n, 1);
    if (d && n == 8)
        __atomic_store_n((uint64_t *)d, v, __ATOMIC_RELEASE);
    else if (d)
        __atomic_store_n((uint32_t *)d, (uint32_t)v, __ATOMIC_RELEASE);
    vg_space_done();
    return d ? 0 : -1;
}

/* FUNCTION of PM4 WAIT_REG_MEM and SDMA POLL_REGMEM: 0 always, 1 <, 2 <=, 3 ==, 4 !=, 5 >=,
 * 6 > (7 is reserved: never true). */
int vg_queue_compare(uint32_t func, uint32_t v, uint32_t ref) {
    switch (func) {
    case 0: return 1;
    case 1: return v < ref;
    case 2: return v <= ref;
    case 3: return v == ref;
    case 4: return v != ref;
    case 5: return v >= ref;
    case 6: return v > ref;
    default: return 0;
    }
}

int vg_queue_poll_mem(vg_queue *q, const char *what, uint64_t va, uint32_t func, uint32_t ref,
                      uint32_t mask) {
    unsigned us = 1;
    for (;;) {
        vg_space_read();
        uint32_t *m = vg_queue_mem(q, what, va, 4, 0);
        uint32_t v = m ? __atomic_load_n(m, __ATOMIC_ACQUIRE) : 0;
        vg_space_done();
        if (!m)
            return -1;
        if (vg_queue_compare(func, v & mask, ref))
            return 0;
        if (vg_queue_poll_wait(q, &us) != 0)
            return -1;
    }
}

/* An indirect buffer of ndw (> 0) dwords at va, copied out through vg_queue_mem (so the
 * program may reuse it while its packets run); free() it.  NULL after reporting why. */
static uint32_t *copy_ib(vg_queue *q, const char *what, uint64_t va, uint32_t ndw) {
    uint32_t *ib = malloc((size_t)ndw * 4 + 4);
    if (!ib) {
        vg_msg("%s of %u dwords: out of memory; the queue is stopped", what, ndw);
        return NULL;
    }
    vg_space_read();
    const void *p = vg_queue_mem(q, what, va, (uint64_t)ndw * 4, 0);
    if (p)
        memcpy(ib, p, (size_t)ndw * 4);
    vg_space_done();
    if (!p) {
        free(ib);
        return NULL;
    }
    return ib;
}

int vg_queue_run_ib(vg_queue *q, const char *what, uint64_t va, uint32_t ndw, int depth,
                    vg_ib_runner run) {
    if (!ndw)
        return 0;
    uint32_t *ib = copy_ib(q, what, va, ndw);
    int r = ib ? run(q, ib, ndw, depth) : -1;
    free(ib);
    return r;
}

void vg_ring_copy(const vg_queue *q, uint64_t pos, uint32_t n, uint32_t *out) {
    const volatile uint32_t *ring = (const volatile uint32_t *)(uintptr_t)q->ring;
    uint64_t ndw = q->ring_size / 4;
    for (uint32_t i = 0; i < n; i++)
        out[i] = ring[(pos + i) % ndw];
}

/* BARRIER_AND (all) or BARRIER_OR (any) of the five dependent signals. */
static void barrier(vg_queue *q, const uint8_t *pkt, int all) {
    uint64_t deps[5];
    int n = 0;
    for (int i = 0; i < 5; i++)
        if ((deps[n] = rd64(pkt + 8 + 8 * i)))
            n++;
    unsigned sleep_us = 1;
    uint64_t t0 = vg.timeline ? vg_now_ns() : 0;
    while (n) {
        int zero = 0;
        for (int i = 0; i < n; i++)
            zero += signal_is_zero(deps[i]);
        if ((all ? zero == n : zero > 0) || vg_queue_poll_wait(q, &sleep_us) != 0)
            break;
    }
    if (vg.timeline) {
        char args[64];
        snprintf(args, sizeof args, "\"signals\": %d", n);
        vg_timeline_span(q, all ? "BARRIER_AND" : "BARRIER_OR", "barrier", t0, vg_now_ns(), args);
    }
    uint64_t t = vg_gpu_clock();
    complete_aql(q, rd64(pkt + 56), t, t);
}

/* Vendor-specific AQL packets (ROCr's amd_aql_pm4_ib.h): header type 0, then the AMD format
 * byte; format 1 is a PM4 indirect buffer, which ROCr uses for cache maintenance. */
static int vendor(vg_queue *q, const uint8_t *pkt) {
    if (pkt[2] == 1) {
        /* amd_aql_pm4_ib: a 4-dword INDIRECT_BUFFER command, then the completion signal. */
        uint32_t ib[4];
        memcpy(ib, pkt + 4, sizeof ib);
        if (vg_pm4_run(q, ib, 4, 0) != 0)
            return -1;
        uint64_t t = vg_gpu_clock();
        complete_aql(q, rd64(pkt + 56), t, t);
        return 0;
    }
    char words[200];
    int n = 0;
    for (int i = 0; i < 16; i++)
        n += snprintf(words + n, sizeof words - (size_t)n, " %08x", rd32(pkt + 4 * i));
    vg_msg("vendor AQL packet format %u is not implemented; the queue is stopped:%s", pkt[2],
           words);
    return -1;
}

/* The AQL packet at read index r: r + 1 once run, r while its slot is still INVALID (reserved,
 * not yet written), -1 when the queue stopped. */
static int64_t aql_step(vg_queue *q, uint64_t r) {
    uint8_t *slot = (uint8_t *)(uintptr_t)(q->ring + (r % (q->ring_size / 64)) * 64);
    volatile uint16_t *hdr = (volatile uint16_t *)slot;
    uint16_t h = __atomic_load_n(hdr, __ATOMIC_ACQUIRE);
    if ((h & 0xff) == PKT_INVALID)
        return (int64_t)r;
    uint8_t pkt[64];
    memcpy(pkt, slot, 64);
    /* amd_queue_t's base from the read pointer: read_dispatch_id_field_base_byte_offset, the
     * word after read_dispatch_id, is how the command processor finds it (ROCr sets it after
     * the queue is created, so it is read here, not at creation). */
    uint64_t queue_addr = 0;
    uint32_t back = *(volatile uint32_t *)((uintptr_t)q->rptr + 8);
    if (back && back <= (uintptr_t)q->rptr)
        queue_addr = (uint64_t)(uintptr_t)q->rptr - back;
    switch (h & 0xff) {
    case PKT_KERNEL_DISPATCH: dispatch(q, pkt, (uint64_t)(uintptr_t)slot, queue_addr); break;
    case PKT_BARRIER_AND:
    case PKT_BARRIER_OR: barrier(q, pkt, (h & 0xff) == PKT_BARRIER_AND); break;
    case PKT_VENDOR:
        if (vendor(q, pkt) != 0)
            q->broken = 1;
        break;
    default:
        vg_msg("AQL packet type %u (%s) is not implemented; the queue is stopped", h & 0xff,
               (h & 0xff) == PKT_AGENT_DISPATCH ? "agent dispatch" : "unknown");
        q->broken = 1;
        break;
    }
    if (q->broken)
        return -1;
    __atomic_store_n(hdr, (uint16_t)((h & ~0xffu) | PKT_INVALID), __ATOMIC_RELEASE);
    return (int64_t)r + 1;
}

static void *queue_main(void *arg) {
    vg_queue *q = arg;
    unsigned idle = 0;
    /* The doorbell is a plain store into memory (no system call to wake us), so an idle queue
     * polls the write pointer between short sleeps.  Linux stretches a sleep by the thread's
     * timer slack (50 us by default), which made every launch round trip ~120 us: ask for
     * none. */
    prctl(PR_SET_TIMERSLACK, 1UL, 0UL, 0UL, 0UL);
    while (!__atomic_load_n(&q->stop, __ATOMIC_ACQUIRE)) {
        uint64_t r = *q->rptr, w = *q->wptr;
        int64_t next = -1;
        if (r < w && !q->broken) {
            if (q->type == KFD_IOC_QUEUE_TYPE_COMPUTE_AQL)
                next = aql_step(q, r);
            else if (q->type == KFD_IOC_QUEUE_TYPE_COMPUTE)
                next = vg_pm4_step(q, r, w);
            else
                next = vg_sdma_step(q, r, w);
        }
        if (q->fault_pending) {
            q->fault_pending = 0;
            vg_event_memory_fault(q->gpu, q->fault_va, q->fault_write);
        }
        if (next > (int64_t)r) {
            idle = 0;
            __atomic_store_n(q->rptr, (uint64_t)next, __ATOMIC_RELEASE);
            complete_pending(q);
            continue;
        }
        complete_pending(q); /* (a packet that stopped the queue) */
        /* Nothing to do, a packet not yet (completely) written, or a stopped queue. */
        if (idle < 200) {
            idle++;
            __builtin_ia32_pause();
        } else {
            unsigned us = idle < 400 ? 20 : 1000;
            idle++;
            struct timespec ts = {0, (long)us * 1000};
            nanosleep(&ts, NULL);
        }
    }
    return NULL;
}

int vg_queue_create(int gpu, uint32_t type, uint64_t ring, uint32_t ring_size, uint64_t rptr,
                    uint64_t wptr, uint32_t *queue_id, uint64_t *doorbell_offset) {
    if (!ring || !rptr || !wptr || ring_size < 64 || (ring_size & (ring_size - 1)))
        return -1;
    uint32_t *sh = NULL, *pkt = NULL;
    if (type != KFD_IOC_QUEUE_TYPE_COMPUTE_AQL) {
        pkt = malloc(VG_PKT_DWORDS * sizeof *pkt);
        if (type == KFD_IOC_QUEUE_TYPE_COMPUTE)
            sh = calloc(0x400, sizeof *sh);
        if (!pkt || (type == KFD_IOC_QUEUE_TYPE_COMPUTE && !sh)) {
            free(pkt);
            free(sh);
            return -1;
        }
    }
    /* The GPU's device (the engines' accesses) and, for AQL and PM4, the queue's own one with
     * every buffer object now mapped to the GPU; under vg.lock, so no MAP/UNMAP slips between
     * copying the mappings and publishing the device (map_one, kfd.c). */
    pthread_mutex_lock(&vg.lock);
    gfx_device *dev = NULL;
    int ok = vg.dev[gpu] || dp_device_create(vg.card->arch, 1, &vg.dev[gpu]) == GFX_OK;
    if (!ok)
        vg.dev[gpu] = NULL;
    if (ok && type != KFD_IOC_QUEUE_TYPE_SDMA && type != KFD_IOC_QUEUE_TYPE_SDMA_XGMI) {
        ok = dp_device_create(vg.card->arch, vg.threads, &dev) == GFX_OK;
        for (size_t i = 0; ok && i < vg.nbos; i++)
            if (vg.bos[i].handle && vg.bos[i].mapped & 1u << gpu)
                ok = vg_bo_register(dev, &vg.bos[i], 1) == 0;
        if (!ok && dev) {
            dp_device_free(dev);
            dev = NULL;
        }
    }
    pthread_mutex_lock(&q_lock);
    uint32_t id = 0;
    while (id < VG_MAX_QUEUES && queues[id].used)
        id++;
    if (!ok || id == VG_MAX_QUEUES)
        goto fail;
    vg_queue *q = &queues[id];
    memset(q, 0, sizeof *q);
    q->used = 1;
    q->id = id;
    q->type = type;
    q->gpu = gpu;
    q->dev = dev;
    q->ring = ring;
    q->ring_size = ring_size;
    q->rptr = (volatile uint64_t *)(uintptr_t)rptr;
    q->wptr = (volatile uint64_t *)(uintptr_t)wptr;
    q->sh = sh;
    q->pkt = pkt;
    if (pthread_create(&q->thread, NULL, queue_main, q) != 0) {
        q->used = 0;
        q->dev = NULL;
        goto fail;
    }
    pthread_mutex_unlock(&q_lock);
    pthread_mutex_unlock(&vg.lock);
    *queue_id = id;
    /* SOC15: the doorbell's byte offset inside the page is part of the returned offset. */
    *doorbell_offset = vg.doorbell_offset[gpu] + (uint64_t)id * 8;
    return 0;
fail:
    pthread_mutex_unlock(&q_lock);
    pthread_mutex_unlock(&vg.lock);
    dp_device_free(dev);
    free(pkt);
    free(sh);
    return -1;
}

int vg_queue_destroy(uint32_t queue_id) {
    pthread_mutex_lock(&q_lock);
    if (queue_id >= VG_MAX_QUEUES || !queues[queue_id].used) {
        pthread_mutex_unlock(&q_lock);
        return -1;
    }
    vg_queue *q = &queues[queue_id];
    __atomic_store_n(&q->stop, 1, __ATOMIC_RELEASE);
    pthread_mutex_unlock(&q_lock);
    pthread_join(q->thread, NULL);
    pthread_mutex_lock(&vg.lock);
    pthread_mutex_lock(&q_lock);
    gfx_device *dev = q->dev;
    q->dev = NULL;
    pthread_mutex_unlock(&q_lock);
    pthread_mutex_unlock(&vg.lock);
    dp_device_free(dev);
    free(q->sh);
    free(q->pkt);
    free(q->uconfig);
    free(q->uconfig_set);
    q->sh = q->pkt = NULL;
    q->uconfig = NULL;
    q->uconfig_set = NULL;
    q->used = 0;
    return 0;
}

int vg_queue_devices_any(void) {
    int any = 0;
    pthread_mutex_lock(&q_lock);
    for (uint32_t i = 0; i < VG_MAX_QUEUES && !any; i++)
        any = queues[i].used;
    pthread_mutex_unlock(&q_lock);
    return any;
}

unsigned vg_queue_devices(int gpu, gfx_device **out, unsigned max) {
    unsigned n = 0;
    pthread_mutex_lock(&q_lock);
    for (uint32_t i = 0; i < VG_MAX_QUEUES && n < max; i++)
        if (queues[i].used && queues[i].gpu == gpu && queues[i].dev)
            out[n++] = queues[i].dev;
    pthread_mutex_unlock(&q_lock);
    return n;
}

void vg_queues_stop(void) {
    for (uint32_t i = 0; i < VG_MAX_QUEUES; i++)
        if (queues[i].used)
            vg_queue_destroy(i);
}

/* `gfxemu exec --stats` (GFXEMU_VGPU_STATS=1): per kernel symbol, at exit, most time first. */
void vg_stats_print(void) {
    uint64_t copies = __atomic_load_n(&vg.sdma_copies, __ATOMIC_RELAXED);
    if (copies)
        fprintf(stderr, "gfxemu: stats: SDMA COPY_LINEAR: %llu packets, %llu bytes\n",
                (unsigned long long)copies,
                (unsigned long long)__atomic_load_n(&vg.sdma_copy_bytes, __ATOMIC_RELAXED));
    size_t n = 0;
    for (vg_kernel *k = kernels; k; k = k->next)
        n++;
    if (!n)
        return;
    vg_kernel **v = calloc(n, sizeof *v);
    if (!v)
        return;
    n = 0;
    for (vg_kernel *k = kernels; k; k = k->next)
        v[n++] = k;
    for (size_t i = 1; i < n; i++)
        for (size_t j = i; j > 0 && v[j]->seconds > v[j - 1]->seconds; j--) {
            vg_kernel *t = v[j];
            v[j] = v[j - 1];
            v[j - 1] = t;
        }
    fprintf(stderr, "gfxemu: stats: %-40s %10s %14s %10s %10s %12s\n", "kernel", "dispatches",
            "wave-insts", "waves", "workgroups", "seconds");
    for (size_t i = 0; i < n; i++)
        fprintf(stderr, "gfxemu: stats: %-40s %10llu %14llu %10llu %10llu %12.6f\n", v[i]->name,
                (unsigned long long)v[i]->dispatches, (unsigned long long)v[i]->wave_insts,
                (unsigned long long)v[i]->waves, (unsigned long long)v[i]->workgroups,
                v[i]->seconds);
    free(v);
}
