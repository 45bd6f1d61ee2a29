/* queue.c - a TSG + subcontext + channel with usermode submit, and the work that goes through
 * it: kernel launches, copies, cross-queue waits and the 64-bit timeline that signals them.
 *
 * Every submission is one GPFIFO entry pointing at a pushbuffer chunk that ends with a host
 * semaphore release (with WFI) of the next timeline value: completion is signalled from the
 * pushbuffer, never by patching a QMD the GPU may still be reading.  Pushbuffer space and
 * kernel-argument slots are recycled once the timeline shows the work that used them done. */
#include "abi.h"
#include "internal.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

enum { SLOT_BYTES = 8192, QMD_OFF = 0, CBUF0_OFF = 256 };

typedef struct submit_rec {
    uint64_t pb_start, pb_end; /* monotonic pushbuffer byte positions */
    uint64_t value;
} submit_rec;

struct nvt_queue {
    nvt_dev *dev;
    int tsg_fd, ch_fd;
    uint32_t veid, token;
    nvt_mem *userd, *gpfifo, *pb, *sem, *args;
    uint32_t entries, put;
    uint64_t pb_pos;   /* next free pushbuffer byte, monotonic */
    submit_rec *recs;  /* in flight, indexed like the GPFIFO entries */
    uint32_t rec_head; /* oldest in-flight record */
    uint64_t value;    /* last timeline value submitted */
    uint32_t nslots, next_slot;
    uint64_t *slot_value; /* timeline value whose completion frees each argument slot */
    nvt_mem *local;       /* local-memory backing store, grown on demand */
    uint32_t local_per_thread;
    uint64_t local_per_tpc;
};

static volatile uint32_t *userd_word(const nvt_queue *q, uint32_t off) {
    return (volatile uint32_t *)((uint8_t *)q->userd->cpu + off);
}

uint64_t nvt_queue_completed(const nvt_queue *q) {
    return __atomic_load_n((const uint64_t *)q->sem->cpu, __ATOMIC_ACQUIRE);
}

uint64_t nvt_queue_last_signal(const nvt_queue *q) { return q->value; }
uint64_t nvt_queue_timeline_va(const nvt_queue *q) { return q->sem->gpu_va; }

static uint64_t now_ns(void) {
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (uint64_t)ts.tv_sec * 1000000000ull + (uint64_t)ts.tv_nsec;
}

/* Poll until done(q, arg) or timeout: spin briefly (launch latency), then sleep 20 us, longer
 * as the wait goes on (1/16 of the time waited so far, at most 1 ms): a long wait (a large copy)
 * then costs a few hundred wake-ups instead of 50,000 a second, and the completion is seen at
 * most 1/16 of the wait late. */
static int poll_until(nvt_queue *q, int (*done)(nvt_queue *, uint64_t), uint64_t arg,
                      uint32_t timeout_ms, const char *what) {
    uint64_t start = now_ns(), deadline = start + (uint64_t)timeout_ms * 1000000ull;
    for (unsigned spin = 0;; spin++) {
        if (done(q, arg))
            return 0;
        if (spin > 2000) {
            if (now_ns() > deadline)
                return nvt_fail(
                    q->dev, -ETIMEDOUT,
                    "%s: no progress in %u ms (timeline at %llu, waiting for %llu; "
                    "GP_GET %u, GP_PUT %u): channel hung or faulted",
                    what, timeout_ms, (unsigned long long)nvt_queue_completed(q),
                    (unsigned long long)arg,
                    __atomic_load_n((uint32_t *)userd_word(q, NVT_USERD_GP_GET), __ATOMIC_ACQUIRE),
                    q->put);
            uint64_t nap = (now_ns() - start) / 16;
            struct timespec ts = {0, nap < 20000 ? 20000 : nap > 1000000 ? 1000000 : (long)nap};
            nanosleep(&ts, NULL);
        }
    }
}

static int value_done(nvt_queue *q, uint64_t v) { return nvt_queue_completed(q) >= v; }

int nvt_queue_wait(nvt_queue *q, uint64_t value, uint32_t timeout_ms) {
    if (value > q->value)
        return nvt_fail(q->dev, -EINVAL,
                        "nvt_queue_wait: value %llu was never submitted (last %llu)",
                        (unsigned long long)value, (unsigned long long)q->value);
    return poll_until(q, value_done, value, timeout_ms, "nvt_queue_wait");
}

int nvt_queue_sync(nvt_queue *q, uint32_t timeout_ms) {
    return nvt_queue_wait(q, q->value, timeout_ms);
}

/* Work waits this long for ring space before reporting a hung channel. */
#define SPACE_TIMEOUT_MS 10000u

/* Retire finished submissions; the pushbuffer is free from the oldest one still in flight. */
static void reclaim(nvt_queue *q) {
    uint64_t done = nvt_queue_completed(q);
    while (q->rec_head != q->put && q->recs[q->rec_head].value <= done)
        q->rec_head = (q->rec_head + 1) & (q->entries - 1);
}

/* Back-pressure: a GPFIFO slot is free once the submission recorded in it has completed.
 * Completion implies the host fetched past it (GP_GET), and it also frees the entry's
 * pushbuffer, which GP_GET alone does not (the host may still be reading the segment).  GP_GET
 * from USERD is therefore only reported in messages: relying on it would also hang on a kernel
 * that does not write USERD back. */
static int gpfifo_has_room(nvt_queue *q, uint64_t unused) {
    (void)unused;
    reclaim(q);
    return nvt_ring_free(q->put, q->rec_head, q->entries) > 0;
}

/* Reserve words of pushbuffer (contiguous) and a GPFIFO slot; waits for the GPU when full. */
static int begin(nvt_queue *q, uint32_t words, nvt_pb *pb, uint64_t *start) {
    uint64_t cap = q->pb->size, bytes = (uint64_t)words * 4;
    if (bytes > cap)
        return nvt_fail(q->dev, -E2BIG, "submission of %u words exceeds the %llu-byte pushbuffer",
                        words, (unsigned long long)cap);
    int rc = poll_until(q, gpfifo_has_room, 0, SPACE_TIMEOUT_MS, "waiting for GPFIFO space");
    if (rc < 0)
        return rc;
    uint64_t pos = q->pb_pos;
    if (pos % cap + bytes > cap)
        pos += cap - pos % cap; /* wrap: the skipped tail belongs to this submission */
    for (;;) {
        reclaim(q);
        if (q->rec_head == q->put)
            break; /* nothing in flight: the whole ring is free */
        if (pos + bytes - q->recs[q->rec_head].pb_start <= cap)
            break;
        if ((rc = poll_until(q, value_done, q->recs[q->rec_head].value, SPACE_TIMEOUT_MS,
                             "waiting for pushbuffer space")) < 0)
            return rc;
    }
    *start = q->pb_pos;
    q->pb_pos = pos;
    pb->words = (uint32_t *)((uint8_t *)q->pb->cpu + pos % cap);
    pb->len = 0;
    pb->cap = words;
    pb->overflow = 0;
    return 0;
}

static void doorbell(nvt_queue *q) {
    /* The GPFIFO entry and GP_PUT must be visible before the doorbell store. */
#if defined(__aarch64__)
    __asm__ volatile("dsb st" ::: "memory");
#else
    __atomic_thread_fence(__ATOMIC_SEQ_CST);
#endif
    __atomic_store_n((uint32_t *)&q->dev->usermode[NVT_USERMODE_DOORBELL / 4], q->token,
                     __ATOMIC_RELAXED);
}

/* Words end() adds: WFI (2), SYS_MEMBAR (5), release (6). */
#define END_WORDS 13u

/* Close the submission with the timeline release and ring the doorbell.  Before the release:
 * a wait for idle, so the work is finished, and a system memory barrier, so its writes are
 * visible to the CPU that sees the timeline value (the release's own RELEASE_WFI only orders
 * the release after the work). */
static int end(nvt_queue *q, nvt_pb *pb, uint64_t start, uint64_t *signal) {
    uint32_t wfi = 0; /* WFI SCOPE 0: wait for the current subcontext's work */
    nvt_pb_method(pb, 0, NVT_HOST_WFI, &wfi, 1);
    nvt_pb_membar(pb);
    nvt_pb_sem_release(pb, q->sem->gpu_va, q->value + 1, 1, 1);
    if (pb->overflow)
        return nvt_fail(q->dev, -EFAULT, "internal: pushbuffer chunk overflow (%u words)", pb->cap);
    uint64_t off = q->pb_pos % q->pb->size;
    q->pb_pos += (uint64_t)pb->len * 4;
    q->value++;
    q->recs[q->put] = (submit_rec){start, q->pb_pos, q->value};
    ((volatile uint64_t *)q->gpfifo->cpu)[q->put] =
        nvt_cmd_gpfifo_entry(q->pb->gpu_va + off, pb->len);
    q->put = (q->put + 1) & (q->entries - 1);
    __atomic_store_n((uint32_t *)userd_word(q, NVT_USERD_GP_PUT), q->put, __ATOMIC_RELEASE);
    doorbell(q);
    if (signal)
        *signal = q->value;
    return 0;
}

/* ---- creation ----------------------------------------------------------------------------- */

static int bind_channel(nvt_queue *q) {
    nvt_dev *dev = q->dev;
    int rc;
    if (dev->info.abi == NVT_ABI_R36) {
        struct nvt_gpu_open_tsg_r36 t = {0};
        rc = nvt_ioctl(dev, dev->ctrl_fd, NVT_GPU_IOCTL_OPEN_TSG_R36, &t, "OPEN_TSG");
        q->tsg_fd = (int)t.tsg_fd;
    } else {
        struct nvt_gpu_open_tsg_r35 t = {0};
        rc = nvt_ioctl(dev, dev->ctrl_fd, NVT_GPU_IOCTL_OPEN_TSG_R35, &t, "OPEN_TSG");
        q->tsg_fd = (int)t.tsg_fd;
    }
    if (rc < 0) {
        q->tsg_fd = -1;
        return rc;
    }
    if (dev->info.abi == NVT_ABI_R36) {
        struct nvt_tsg_create_subcontext s = {NVT_SUBCONTEXT_ASYNC, dev->as_fd, 0, 0};
        if ((rc = nvt_ioctl(dev, q->tsg_fd, NVT_TSG_IOCTL_CREATE_SUBCONTEXT, &s,
                            "TSG_CREATE_SUBCONTEXT")) < 0)
            return rc;
        q->veid = s.veid;
    }
    union nvt_gpu_open_channel oc = {.runlist_id = -1};
    if ((rc = nvt_ioctl(dev, dev->ctrl_fd, NVT_GPU_IOCTL_OPEN_CHANNEL, &oc, "OPEN_CHANNEL")) < 0)
        return rc;
    q->ch_fd = oc.channel_fd;
    struct nvt_as_bind_channel ab = {(uint32_t)q->ch_fd};
    if ((rc = nvt_ioctl(dev, dev->as_fd, NVT_AS_IOCTL_BIND_CHANNEL, &ab, "AS_BIND_CHANNEL")) < 0)
        return rc;
    struct nvt_tsg_bind_channel_ex tb = {q->ch_fd, q->veid, {0}};
    if ((rc = nvt_ioctl(dev, q->tsg_fd, NVT_TSG_IOCTL_BIND_CHANNEL_EX, &tb,
                        "TSG_BIND_CHANNEL_EX")) < 0)
        return rc;
    /* Usermode submit needs a deterministic channel, and nvgpu refuses DETERMINISTIC while the
     * channel watchdog is enabled, which it is by default (channel_setup_bind_prechecks in
     * common/fifo/channel.c): disable it before SETUP_BIND.  It cannot be re-enabled later. */
    struct nvt_ch_wdt w = {NVT_WDT_DISABLE, 0};
    return nvt_ioctl(dev, q->ch_fd, NVT_CH_IOCTL_WDT, &w, "CHANNEL_WDT (disable)");
}

static int setup_bind(nvt_queue *q) {
    nvt_dev *dev = q->dev;
    int rc;
    if (dev->info.abi == NVT_ABI_R36) {
        struct nvt_ch_setup_bind_r36 s = {0};
        s.num_gpfifo_entries = q->entries;
        s.flags = NVT_SETUP_BIND_DETERMINISTIC | NVT_SETUP_BIND_USERMODE_SUPPORT |
                  NVT_SETUP_BIND_USERMODE_GPU_MAP_RESOURCES;
        s.userd_dmabuf_fd = q->userd->dmabuf_fd;
        s.gpfifo_dmabuf_fd = q->gpfifo->dmabuf_fd;
        rc = nvt_ioctl(dev, q->ch_fd, NVT_CH_IOCTL_SETUP_BIND_R36, &s, "SETUP_BIND");
        q->token = s.work_submit_token;
    } else {
        struct nvt_ch_setup_bind_r35 s = {0};
        s.num_gpfifo_entries = q->entries;
        s.flags = NVT_SETUP_BIND_DETERMINISTIC | NVT_SETUP_BIND_USERMODE_SUPPORT;
        s.userd_dmabuf_fd = q->userd->dmabuf_fd;
        s.gpfifo_dmabuf_fd = q->gpfifo->dmabuf_fd;
        rc = nvt_ioctl(dev, q->ch_fd, NVT_CH_IOCTL_SETUP_BIND_R35, &s, "SETUP_BIND");
        q->token = s.work_submit_token;
    }
    if (rc < 0)
        return rc;
    const uint32_t classes[2] = {dev->info.compute_class, dev->info.dma_copy_class};
    for (int i = 0; i < 2; i++) {
        struct nvt_ch_alloc_obj_ctx o = {classes[i], 0, 0};
        if ((rc = nvt_ioctl(dev, q->ch_fd, NVT_CH_IOCTL_ALLOC_OBJ_CTX, &o, "ALLOC_OBJ_CTX")) < 0)
            return rc;
    }
    return 0;
}

int nvt_queue_create(nvt_dev *dev, const nvt_queue_opts *opts, nvt_queue **out) {
    nvt_queue_opts o = opts ? *opts : (nvt_queue_opts){0};
    *out = NULL;
    if (!o.gpfifo_entries)
        o.gpfifo_entries = 1024;
    if (!o.pushbuf_bytes)
        o.pushbuf_bytes = 256 * 1024;
    if (!o.arg_slots)
        o.arg_slots = 256;
    if (o.gpfifo_entries < 2 || (o.gpfifo_entries & (o.gpfifo_entries - 1)) ||
        o.gpfifo_entries > (1u << 20))
        return nvt_fail(dev, -EINVAL, "gpfifo_entries %u is not a power of two in [2, 2^20]",
                        o.gpfifo_entries);
    if (o.watchdog_ms)
        return nvt_fail(dev, -EINVAL,
                        "watchdog_ms %u: the channel watchdog cannot be used with usermode "
                        "submit (nvgpu requires it disabled on the deterministic channel that "
                        "usermode submit needs); leave it 0",
                        o.watchdog_ms);
    nvt_queue *q = calloc(1, sizeof *q);
    if (!q)
        return nvt_fail(dev, -ENOMEM, "out of memory");
    q->dev = dev;
    q->tsg_fd = q->ch_fd = -1;
    q->entries = o.gpfifo_entries;
    q->nslots = o.arg_slots;
    q->recs = calloc(q->entries, sizeof *q->recs);
    q->slot_value = calloc(q->nslots, sizeof *q->slot_value);
    int rc = -ENOMEM;
    if (!q->recs || !q->slot_value) {
        nvt_fail(dev, rc, "out of memory");
        goto fail;
    }
    if ((rc = bind_channel(q)) < 0)
        goto fail;
    /* USERD and GPFIFO: separate buffers, CPU-mapped; the kernel maps them for the GPU. */
    if ((rc = nvt_mem_alloc(dev, NVT_USERD_SIZE, NVT_MEM_UNCACHED | NVT_MEM_NO_GPU_MAP,
                            &q->userd)) < 0 ||
        (rc = nvt_mem_alloc(dev, (size_t)q->entries * 8, NVT_MEM_CACHED | NVT_MEM_NO_GPU_MAP,
                            &q->gpfifo)) < 0 ||
        (rc = setup_bind(q)) < 0 ||
        (rc = nvt_mem_alloc(dev, o.pushbuf_bytes, NVT_MEM_CACHED, &q->pb)) < 0 ||
        (rc = nvt_mem_alloc(dev, 4096, NVT_MEM_UNCACHED, &q->sem)) < 0 ||
        (rc = nvt_mem_alloc(dev, (size_t)q->nslots * SLOT_BYTES, NVT_MEM_CACHED, &q->args)) < 0)
        goto fail;
    /* Bind the compute and copy classes to their subchannels, and place the shared- and
     * local-memory windows of the generic address space (clc7c0.h; state of the compute
     * object, so once per channel).  Kernels read the same addresses from cbuf0. */
    nvt_pb pb;
    uint64_t start;
    if ((rc = begin(q, 16 + END_WORDS, &pb, &start)) < 0)
        goto fail;
    nvt_pb_method(&pb, NVT_SUBCH_COMPUTE, NVT_HOST_SET_OBJECT, &dev->info.compute_class, 1);
    nvt_pb_method(&pb, NVT_SUBCH_COPY, NVT_HOST_SET_OBJECT, &dev->info.dma_copy_class, 1);
    const uint32_t shw[2] = {(uint32_t)(NVT_SHARED_WINDOW >> 32), (uint32_t)NVT_SHARED_WINDOW};
    const uint32_t lw[2] = {(uint32_t)(NVT_LOCAL_WINDOW >> 32), (uint32_t)NVT_LOCAL_WINDOW};
    nvt_pb_method(&pb, NVT_SUBCH_COMPUTE, NVT_COMPUTE_SET_SHADER_SHARED_MEMORY_WINDOW_A, shw, 2);
    nvt_pb_method(&pb, NVT_SUBCH_COMPUTE, NVT_COMPUTE_SET_SHADER_LOCAL_MEMORY_WINDOW_A, lw, 2);
    if ((rc = end(q, &pb, start, NULL)) < 0 || (rc = nvt_queue_sync(q, SPACE_TIMEOUT_MS)) < 0)
        goto fail;
    *out = q;
    return 0;
fail:
    nvt_queue_destroy(q);
    return rc;
}

void nvt_queue_destroy(nvt_queue *q) {
    if (!q)
        return;
    nvt_dev *dev = q->dev;
    /* The channel goes first, so the GPU stops using the buffers before they are freed. */
    if (q->ch_fd >= 0)
        dev->os.close(dev->os.ctx, q->ch_fd);
    if (q->tsg_fd >= 0)
        dev->os.close(dev->os.ctx, q->tsg_fd);
    nvt_mem_free(dev, q->local);
    nvt_mem_free(dev, q->args);
    nvt_mem_free(dev, q->sem);
    nvt_mem_free(dev, q->pb);
    nvt_mem_free(dev, q->gpfifo);
    nvt_mem_free(dev, q->userd);
    free(q->recs);
    free(q->slot_value);
    free(q);
}

/* ---- work --------------------------------------------------------------------------------- */

int nvt_kernel_load(nvt_dev *dev, const nvt_kernel_info *info, nvt_kernel **out) {
    *out = NULL;
    nvt_kernel *k = calloc(1, sizeof *k);
    if (!k)
        return nvt_fail(dev, -ENOMEM, "out of memory");
    k->info = *info;
    /* Room past the end: the instruction fetcher reads ahead of the last instruction. */
    int rc = nvt_mem_alloc(dev, info->code_size + 1024, NVT_MEM_CACHED, &k->code_mem);
    if (rc < 0) {
        free(k);
        return rc;
    }
    memcpy(k->code_mem->cpu, info->code, info->code_size);
    k->code_va = k->code_mem->gpu_va;
    *out = k;
    return 0;
}

void nvt_kernel_unload(nvt_dev *dev, nvt_kernel *k) {
    if (!k)
        return;
    nvt_mem_free(dev, k->code_mem);
    free(k);
}

/* Make the local-memory store hold bytes per thread for every thread the GPU can have
 * resident: per TPC, 2 SMs of 1536 threads (compute capability 8.7), times the TPC count
 * GET_CHARACTERISTICS reported.  The old store may be in use by submitted work, so the queue drains
 * first. */
static int grow_local(nvt_queue *q, uint32_t bytes) {
    nvt_dev *dev = q->dev;
    uint64_t tpcs = dev->info.tpc_count ? dev->info.tpc_count : 1;
    uint64_t per_tpc = ((uint64_t)bytes * NVT_THREADS_PER_TPC + 0xffff) & ~0xffffull;
    if (per_tpc * tpcs > UINT32_MAX)
        return nvt_fail(dev, -E2BIG,
                        "%u bytes of local memory per thread need %llu bytes for %llu TPCs, "
                        "more than one nvmap allocation holds",
                        bytes, (unsigned long long)(per_tpc * tpcs), (unsigned long long)tpcs);
    int rc = nvt_queue_sync(q, SPACE_TIMEOUT_MS);
    if (rc < 0)
        return rc;
    nvt_mem *m;
    if ((rc = nvt_mem_alloc(dev, (size_t)(per_tpc * tpcs), NVT_MEM_CACHED, &m)) < 0)
        return rc;
    nvt_mem_free(dev, q->local);
    q->local = m;
    q->local_per_thread = bytes;
    q->local_per_tpc = per_tpc;
    return 0;
}

int nvt_launch(nvt_queue *q, const nvt_kernel *k, const uint32_t grid[3], const uint32_t block[3],
               const void *const *args, uint32_t nargs, uint64_t *signal) {
    return nvt_launch_shared(q, k, grid, block, 0, args, nargs, signal);
}

int nvt_launch_shared(nvt_queue *q, const nvt_kernel *k, const uint32_t grid[3],
                      const uint32_t block[3], uint32_t dynamic_shared, const void *const *args,
                      uint32_t nargs, uint64_t *signal) {
    const nvt_kernel_info *ki = &k->info;
    uint64_t shared = (uint64_t)ki->shared_bytes + dynamic_shared;
    if (shared > NVT_SHARED_MAX)
        return nvt_fail(q->dev, -E2BIG,
                        "%s: %u bytes of static and %u of dynamic shared memory exceed the %u a "
                        "block can have (164 KiB less the 1 KiB the system reserves)",
                        ki->name, ki->shared_bytes, dynamic_shared, NVT_SHARED_MAX);
    /* 64-bit: a cubin's cbuf0 size near 2^32 must not wrap to a small bank when rounded */
    uint64_t cb_need = (uint64_t)ki->param_base + ki->param_size;
    if (ki->cbuf0_size > cb_need)
        cb_need = ki->cbuf0_size;
    if (cb_need < NVT_CBUF0_DRIVER_END)
        cb_need = NVT_CBUF0_DRIVER_END;
    cb_need = (cb_need + 15) & ~15ull;
    if (cb_need > SLOT_BYTES - CBUF0_OFF)
        return nvt_fail(q->dev, -E2BIG, "%s: constant bank 0 of %llu bytes exceeds a %u-byte slot",
                        ki->name, (unsigned long long)cb_need, SLOT_BYTES - CBUF0_OFF);
    uint32_t cb_size = (uint32_t)cb_need;
    int rc, set_local = 0;
    if (ki->local_bytes > q->local_per_thread) {
        if ((rc = grow_local(q, ki->local_bytes)) < 0)
            return rc;
        set_local = 1;
    }
    /* Recycle the slot only once the launch that last used it has completed. */
    uint32_t slot = q->next_slot;
    rc = poll_until(q, value_done, q->slot_value[slot], SPACE_TIMEOUT_MS,
                    "waiting for a kernel-argument slot");
    if (rc < 0)
        return rc;
    uint8_t *base = (uint8_t *)q->args->cpu + (size_t)slot * SLOT_BYTES;
    uint64_t va = q->args->gpu_va + (uint64_t)slot * SLOT_BYTES;
    uint8_t *cb = base + CBUF0_OFF;
    memset(cb, 0, cb_size);
    /* Driver area of cbuf0, where compiled sm_8x code reads it: blockDim at 0x0, gridDim at
     * 0xc, the shared and local windows at 0x18 and 0x20, and at 0x28 the stack top, the
     * initial stack pointer inside this thread's local memory (the stack grows down from the
     * top of the per-thread allocation).  Unverified on hardware: docs/tegra-abi.md. */
    const uint64_t shw = NVT_SHARED_WINDOW, lw = NVT_LOCAL_WINDOW, top = ki->local_bytes;
    memcpy(cb + NVT_CBUF0_BLOCK_DIM, block, 12);
    memcpy(cb + NVT_CBUF0_GRID_DIM, grid, 12);
    memcpy(cb + NVT_CBUF0_SHARED_WINDOW, &shw, 8);
    memcpy(cb + NVT_CBUF0_LOCAL_WINDOW, &lw, 8);
    memcpy(cb + NVT_CBUF0_STACK_TOP, &top, 8);
    if ((rc = nvt_kernel_bind_params(ki, cb, cb_size, args, nargs)) < 0)
        return nvt_fail(q->dev, rc, "%s: %u arguments given, the kernel takes %u", ki->name, nargs,
                        ki->nparams);
    nvt_qmd_desc d = {0};
    d.program_va = k->code_va;
    memcpy(d.grid, grid, sizeof d.grid);
    memcpy(d.block, block, sizeof d.block);
    d.shared_bytes = (uint32_t)shared;
    d.registers = ki->registers;
    d.barriers = ki->barriers;
    d.cbuf0_va = va + CBUF0_OFF;
    d.cbuf0_size = cb_size;
    d.local_bytes = ki->local_bytes;
    if ((rc = nvt_qmd_build((uint32_t *)(base + QMD_OFF), &d)) < 0)
        return nvt_fail(q->dev, rc,
                        "%s: launch out of range (grid %ux%ux%u, block %ux%ux%u, %u registers, "
                        "%u bytes shared)",
                        ki->name, grid[0], grid[1], grid[2], block[0], block[1], block[2],
                        ki->registers, (uint32_t)shared);
    nvt_pb pb;
    uint64_t start;
    if ((rc = begin(q, 16 + END_WORDS, &pb, &start)) < 0)
        return rc;
    if (set_local) {
        /* the new store and its size per TPC, for as many SMs as the TPCs hold */
        uint64_t lva = q->local->gpu_va;
        const uint32_t a[2] = {(uint32_t)(lva >> 32), (uint32_t)lva};
        const uint32_t n[3] = {(uint32_t)(q->local_per_tpc >> 32), (uint32_t)q->local_per_tpc,
                               2 * (q->dev->info.tpc_count ? q->dev->info.tpc_count : 1)};
        nvt_pb_method(&pb, NVT_SUBCH_COMPUTE, NVT_COMPUTE_SET_SHADER_LOCAL_MEMORY_A, a, 2);
        nvt_pb_method(&pb, NVT_SUBCH_COMPUTE, NVT_COMPUTE_SET_SHADER_LOCAL_MEMORY_NON_THROTTLED_A,
                      n, 3);
    }
    nvt_pb_launch_qmd(&pb, va + QMD_OFF);
    if ((rc = end(q, &pb, start, signal)) < 0)
        return rc;
    q->slot_value[slot] = q->value;
    q->next_slot = (slot + 1) % q->nslots;
    return 0;
}

/* Copies per submission: ten words each, plus the release. */
#define COPIES_PER_SUBMIT 64u

int nvt_copy(nvt_queue *q, uint64_t dst_va, uint64_t src_va, uint64_t bytes, uint64_t *signal) {
    if (!bytes)
        return nvt_fail(q->dev, -EINVAL, "nvt_copy: zero bytes");
    while (bytes) {
        nvt_pb pb;
        uint64_t start;
        int rc = begin(q, COPIES_PER_SUBMIT * 10 + END_WORDS, &pb, &start);
        if (rc < 0)
            return rc;
        for (unsigned i = 0; i < COPIES_PER_SUBMIT && bytes; i++) {
            uint32_t n = bytes > NVT_COPY_CHUNK ? NVT_COPY_CHUNK : (uint32_t)bytes;
            nvt_pb_copy(&pb, dst_va, src_va, n);
            dst_va += n;
            src_va += n;
            bytes -= n;
        }
        if ((rc = end(q, &pb, start, signal)) < 0)
            return rc;
    }
    return 0;
}

int nvt_queue_wait_for(nvt_queue *q, const nvt_queue *other, uint64_t value) {
    nvt_pb pb;
    uint64_t start;
    int rc = begin(q, 6 + END_WORDS, &pb, &start);
    if (rc < 0)
        return rc;
    nvt_pb_sem_acquire(&pb, other->sem->gpu_va, value, 1);
    return end(q, &pb, start, NULL);
}

/* Unified memory: after the sync the CPU mapping holds what the GPU wrote. */
int nvt_memcpy_from_device(nvt_queue *q, void *dst, const nvt_mem *src, size_t off, size_t bytes) {
    if (off > src->size || bytes > src->size - off)
        return nvt_fail(q->dev, -EINVAL, "nvt_memcpy_from_device: range past the buffer");
    int rc = nvt_queue_sync(q, SPACE_TIMEOUT_MS);
    if (rc == 0)
        memcpy(dst, (const uint8_t *)src->cpu + off, bytes);
    return rc;
}

int nvt_memcpy_to_device(nvt_queue *q, nvt_mem *dst, size_t off, const void *src, size_t bytes) {
    if (off > dst->size || bytes > dst->size - off)
        return nvt_fail(q->dev, -EINVAL, "nvt_memcpy_to_device: range past the buffer");
    int rc = nvt_queue_sync(q, SPACE_TIMEOUT_MS);
    if (rc == 0)
        memcpy((uint8_t *)dst->cpu + off, src, bytes);
    return rc;
}
