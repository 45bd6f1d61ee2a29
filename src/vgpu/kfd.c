/* kfd.c - /dev/kfd's ioctls (linux/kfd_ioctl.h), answered as amdkfd would for the virtual GPUs.
 *
 * Memory: VRAM and GTT buffer objects get a range of the memfd (vgpu.h) whose offset is their
 * mmap_offset, and are mapped at their VA right away (GPU VA == host VA); userptr objects are
 * the caller's memory.  MAP/UNMAP_MEMORY_TO_GPU register/forget the object's range in the
 * device's address space (src/mem host-address mode), so a kernel reaches exactly the objects
 * mapped to its GPU and faults elsewhere.  Doorbell objects are the GPU's doorbell page.
 * Events: signal events with an event page (the thunk's buffer object on a dGPU), auto-reset,
 * waits with timeouts; memory-exception events carry a GPU fault's address.
 */
#include <errno.h>
#include <linux/kfd_ioctl.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <time.h>

#include "dispatch/dispatch.h"
#include "vgpu/vgpu.h"

/* linux/kfd_ioctl.h writes this flag as (1 << 31), an int shift C does not define (UBSan
 * reports it): the same bit, unsigned. */
#define ALLOC_WRITABLE 0x80000000u

/* A nonzero handle per object: amdkfd's layout, gpu_id in the high half. */
#define HANDLE(gpu, idx) ((uint64_t)VG_GPU_ID(gpu) << 32 | (uint64_t)((idx) + 1))

int vg_gpu_index(uint32_t gpu_id) {
    for (unsigned i = 0; i < vg.ngpus; i++)
        if (VG_GPU_ID(i) == gpu_id)
            return (int)i;
    return -1;
}

vg_bo *vg_bo_by_handle(uint64_t handle) {
    uint64_t idx = (handle & 0xffffffffu) - 1;
    if (!(handle & 0xffffffffu) || idx >= vg.nbos || vg.bos[idx].handle != handle)
        return NULL;
    return &vg.bos[idx];
}

vg_bo *vg_bo_containing(uint64_t va) {
    for (size_t i = 0; i < vg.nbos; i++) {
        vg_bo *b = &vg.bos[i];
        if (b->handle && va >= b->va && va - b->va < b->size)
            return b;
    }
    return NULL;
}

static gfx_device *device(int gpu) {
    /* The GPU's own device never launches (each queue has one): one thread. */
    if (!vg.dev[gpu] && dp_device_create(vg.card->arch, 1, &vg.dev[gpu]) != GFX_OK) {
        vg_msg("cannot create the emulated %s (out of memory)", vg.card->target);
        vg.dev[gpu] = NULL;
    }
    return vg.dev[gpu];
}

static int fail(int err) {
    errno = err;
    return -1;
}

/* ---- memory -------------------------------------------------------------------------------- */

static int alloc_memory(struct kfd_ioctl_alloc_memory_of_gpu_args *a) {
    int gpu = vg_gpu_index(a->gpu_id);
    if (gpu < 0 || !a->size)
        return fail(EINVAL);
    uint32_t kinds =
        a->flags & (KFD_IOC_ALLOC_MEM_FLAGS_VRAM | KFD_IOC_ALLOC_MEM_FLAGS_GTT |
                    KFD_IOC_ALLOC_MEM_FLAGS_USERPTR | KFD_IOC_ALLOC_MEM_FLAGS_DOORBELL |
                    KFD_IOC_ALLOC_MEM_FLAGS_MMIO_REMAP);
    if (__builtin_popcount(kinds) != 1) {
        vg_msg("ALLOC_MEMORY_OF_GPU with memory kind flags 0x%x: not one of VRAM, GTT, USERPTR, "
               "DOORBELL, MMIO_REMAP",
               kinds);
        return fail(EINVAL);
    }
    uint64_t size = (a->size + VG_PAGE - 1) & ~(VG_PAGE - 1);
    if ((kinds & KFD_IOC_ALLOC_MEM_FLAGS_VRAM) && vg.vram_used[gpu] + size > vg.vram)
        return fail(ENOMEM);
    pthread_mutex_lock(&vg.lock);
    size_t idx = 0;
    while (idx < vg.nbos && vg.bos[idx].handle)
        idx++;
    if (idx == vg.nbos) {
        if (vg.nbos == vg.capbos) {
            size_t cap = vg.capbos ? 2 * vg.capbos : 256;
            vg_bo *n = realloc(vg.bos, cap * sizeof *n);
            if (!n) {
                pthread_mutex_unlock(&vg.lock);
                return fail(ENOMEM);
            }
            vg.bos = n;
            vg.capbos = cap;
        }
        vg.nbos++;
    }
    vg_bo *b = &vg.bos[idx];
    memset(b, 0, sizeof *b);
    b->va = a->va_addr;
    b->size = size;
    b->flags = a->flags;
    b->gpu = gpu;
    b->serial = ++vg.bo_serial;
    int r = 0;
    if (kinds & KFD_IOC_ALLOC_MEM_FLAGS_USERPTR) {
        /* mmap_offset holds the user address; the thunk picks another GPU address for it
         * (ROCm 5.2 maps locked host memory at an address of its SVM aperture).  Kernels
         * reach the user's pages at the GPU address through an alias region. */
        b->user = a->mmap_offset;
        b->offset = 0;
    } else if (kinds & KFD_IOC_ALLOC_MEM_FLAGS_DOORBELL) {
        /* The process's doorbell page of this GPU, at the offset CREATE_QUEUE returned. */
        b->offset = vg.doorbell_offset[gpu];
    } else {
        b->offset = vg_memfd_alloc(size);
        /* Keep GPU VA == host VA even if the caller never maps it for the CPU (VRAM without
         * host access): the object's pages are at its VA from now on. */
        if (b->va && vg_map_fixed(b->va, size, b->offset) == MAP_FAILED) {
            vg_msg("ALLOC_MEMORY_OF_GPU: cannot map %llu bytes at 0x%llx: %s",
                   (unsigned long long)size, (unsigned long long)b->va, strerror(errno));
            r = fail(ENOMEM);
        }
        if (kinds & KFD_IOC_ALLOC_MEM_FLAGS_VRAM)
            vg.vram_used[gpu] += size;
    }
    if (r == 0) {
        b->handle = HANDLE(gpu, idx);
        a->handle = b->handle;
        if (!(kinds & KFD_IOC_ALLOC_MEM_FLAGS_USERPTR))
            a->mmap_offset = b->offset;
    }
    pthread_mutex_unlock(&vg.lock);
    return r;
}

int vg_bo_register(gfx_device *dev, const vg_bo *b, int map) {
    if (!map) {
        if (b->user && b->user != b->va)
            gmem_unmap_host(dev->mem, (void *)(uintptr_t)b->va);
        else
            gmem_unmap_host_range(dev->mem, (void *)(uintptr_t)b->va, b->size);
        return 0;
    }
    int ro = !(b->flags & ALLOC_WRITABLE) &&
             !(b->flags & (KFD_IOC_ALLOC_MEM_FLAGS_VRAM | KFD_IOC_ALLOC_MEM_FLAGS_GTT));
    return b->user && b->user != b->va
               ? gmem_map_alias(dev->mem, b->va, (void *)(uintptr_t)b->user, b->size, ro)
               : gmem_map_host(dev->mem, (void *)(uintptr_t)b->va, b->size, ro);
}

/* Register or forget b in GPU g's address space: the GPU's device (the engines' accesses) and
 * every AQL/PM4 queue's (its launches).  vg.lock held and vg.space write-locked: no launch
 * runs meanwhile. */
static int map_one(vg_bo *b, int g, int map) {
    gfx_device *dev = device(g);
    if (!dev)
        return -1;
    if (!map == !(b->mapped & 1u << g))
        return 0;
    gfx_device *devs[1 + VG_MAX_QUEUES];
    devs[0] = dev;
    unsigned n = 1 + vg_queue_devices(g, devs + 1, VG_MAX_QUEUES);
    for (unsigned i = 0; i < n; i++)
        if (vg_bo_register(devs[i], b, map) != 0) {
            while (i-- > 0)
                vg_bo_register(devs[i], b, 0);
            vg_msg("MAP_MEMORY_TO_GPU: [0x%llx, +%llu) overlaps memory the emulator holds",
                   (unsigned long long)b->va, (unsigned long long)b->size);
            return -1;
        }
    if (map)
        b->mapped |= 1u << g;
    else
        b->mapped &= ~(1u << g);
    return 0;
}

static int map_memory(struct kfd_ioctl_map_memory_to_gpu_args *a, int map) {
    pthread_rwlock_wrlock(&vg.space);
    pthread_mutex_lock(&vg.lock);
    vg_bo *b = vg_bo_by_handle(a->handle);
    const uint32_t *ids = (const uint32_t *)(uintptr_t)a->device_ids_array_ptr;
    int r = 0;
    if (!b || (a->n_devices && !ids))
        r = fail(EINVAL);
    for (uint32_t i = a->n_success; r == 0 && i < a->n_devices; i++) {
        int g = vg_gpu_index(ids[i]);
        if (g < 0 || map_one(b, g, map) != 0) {
            r = fail(g < 0 ? EINVAL : ENOMEM);
            break;
        }
        a->n_success = i + 1;
    }
    pthread_mutex_unlock(&vg.lock);
    pthread_rwlock_unlock(&vg.space);
    return r;
}

static int free_memory(struct kfd_ioctl_free_memory_of_gpu_args *a) {
    pthread_rwlock_wrlock(&vg.space);
    pthread_mutex_lock(&vg.lock);
    vg_bo *b = vg_bo_by_handle(a->handle);
    if (!b) {
        pthread_mutex_unlock(&vg.lock);
        pthread_rwlock_unlock(&vg.space);
        return fail(EINVAL);
    }
    for (unsigned g = 0; g < vg.ngpus; g++)
        map_one(b, g, 0);
    if (b->flags & (KFD_IOC_ALLOC_MEM_FLAGS_VRAM | KFD_IOC_ALLOC_MEM_FLAGS_GTT |
                    KFD_IOC_ALLOC_MEM_FLAGS_MMIO_REMAP)) {
        vg_memfd_release(b->offset, b->size);
        if (b->flags & KFD_IOC_ALLOC_MEM_FLAGS_VRAM)
            vg.vram_used[b->gpu] -= b->size;
    }
    b->handle = 0;
    pthread_mutex_unlock(&vg.lock);
    pthread_rwlock_unlock(&vg.space);
    return 0;
}

/* ---- events -------------------------------------------------------------------------------- */

#define VG_MAX_EVENTS 4096
#define FIRST_NONSIGNAL_ID KFD_SIGNAL_EVENT_LIMIT
/* amdkfd's value of an event-page slot that has not fired. */
#define UNSIGNALED_SLOT (~0ull)
/* amdkfd's mmap offset of the event page (kfd_priv.h: KFD_MMAP_TYPE_EVENTS, type [63:62] 2). */
#define KFD_MMAP_TYPE_EVENTS (2ull << 62)

typedef struct vg_event {
    uint32_t id; /* 0: free */
    uint32_t type;
    int auto_reset, signaled;
    /* KFD 1.14's event age: 1 at creation, one more each time the event is signaled.  A waiter
     * that passes an age (kfd_event_data.signal_event_data.last_event_age, offset 0 of its
     * union) other than the current one returns at once: the event fired since it looked. */
    uint64_t age;
    struct kfd_hsa_memory_exception_data mem; /* the last memory fault (memory events) */
} vg_event;

static vg_event events[VG_MAX_EVENTS];
static pthread_mutex_t ev_lock = PTHREAD_MUTEX_INITIALIZER;
static pthread_cond_t ev_cond = PTHREAD_COND_INITIALIZER;
static uint64_t *event_page; /* slots, indexed by signal event id */
static uint32_t next_nonsignal = FIRST_NONSIGNAL_ID;

static vg_event *event_find(uint32_t id) {
    for (unsigned i = 0; i < VG_MAX_EVENTS; i++)
        if (events[i].id == id && id)
            return &events[i];
    return NULL;
}

static int create_event(struct kfd_ioctl_create_event_args *a) {
    pthread_mutex_lock(&ev_lock);
    if (a->event_page_offset && !event_page) {
        /* A dGPU's thunk passes the handle of a buffer object it allocated as the page. */
        pthread_mutex_lock(&vg.lock);
        vg_bo *b = vg_bo_by_handle(a->event_page_offset);
        if (b && b->size >= KFD_SIGNAL_EVENT_LIMIT * 8) {
            event_page = (uint64_t *)(uintptr_t)b->va;
            for (unsigned i = 0; i < KFD_SIGNAL_EVENT_LIMIT; i++)
                __atomic_store_n(&event_page[i], UNSIGNALED_SLOT, __ATOMIC_RELAXED);
        }
        pthread_mutex_unlock(&vg.lock);
        if (!event_page) {
            pthread_mutex_unlock(&ev_lock);
            vg_msg("CREATE_EVENT: event page handle 0x%llx is not a buffer object of %d bytes",
                   (unsigned long long)a->event_page_offset, KFD_SIGNAL_EVENT_LIMIT * 8);
            return fail(EINVAL);
        }
    }
    vg_event *e = NULL;
    uint32_t id = 0;
    int signal =
        a->event_type == KFD_IOC_EVENT_SIGNAL || a->event_type == KFD_IOC_EVENT_DEBUG_EVENT;
    if (signal) {
        /* Signal events own the event-page slot of their id. */
        for (id = 1; id < KFD_SIGNAL_EVENT_LIMIT && event_find(id); id++)
            ;
        if (id == KFD_SIGNAL_EVENT_LIMIT)
            id = 0;
    } else {
        id = next_nonsignal++;
    }
    for (unsigned i = 0; id && i < VG_MAX_EVENTS && !e; i++)
        if (!events[i].id)
            e = &events[i];
    if (!e) {
        pthread_mutex_unlock(&ev_lock);
        return fail(ENOMEM);
    }
    memset(e, 0, sizeof *e);
    e->id = id;
    e->type = a->event_type;
    e->auto_reset = a->auto_reset != 0;
    e->age = 1;
    a->event_id = id;
    a->event_trigger_data = signal ? id : 0;
    a->event_slot_index = signal ? id : 0;
    /* amdkfd answers every signal event with the event page's mmap offset (KFD_MMAP_TYPE_EVENTS,
     * kfd_event_create), not only the call that handed it the page: the thunk gives an event a
     * mailbox (HWData2, the slot's address) only when the offset it gets back is non-zero.
     * Without it every event after the first had no mailbox, ROCr's interrupt signals had none,
     * and its SDMA engine then never wrote their slot nor raised a TRAP (the async signal
     * handler slept through the completion of a profiled SDMA copy). */
    a->event_page_offset = signal && event_page ? KFD_MMAP_TYPE_EVENTS : 0;
    if (signal && event_page)
        __atomic_store_n(&event_page[id], UNSIGNALED_SLOT, __ATOMIC_RELEASE);
    pthread_mutex_unlock(&ev_lock);
    return 0;
}

static int event_op(uint32_t id, int op) { /* 0 destroy, 1 set, 2 reset */
    pthread_mutex_lock(&ev_lock);
    vg_event *e = event_find(id);
    if (!e) {
        pthread_mutex_unlock(&ev_lock);
        return fail(EINVAL);
    }
    if (op == 0)
        e->id = 0;
    else
        e->signaled = op == 1;
    e->age += op == 1;
    if (op == 2 && event_page && id < KFD_SIGNAL_EVENT_LIMIT)
        __atomic_store_n(&event_page[id], UNSIGNALED_SLOT, __ATOMIC_RELEASE);
    pthread_cond_broadcast(&ev_cond);
    pthread_mutex_unlock(&ev_lock);
    return 0;
}

void vg_event_signal(uint32_t id) { event_op(id, 1); }

void vg_event_interrupt(uint32_t ctxid) {
    pthread_mutex_lock(&ev_lock);
    /* amdkfd (kfd_signal_event_interrupt): a valid signal-event id fires that event; otherwise
     * every signal event whose event-page slot was written fires, which fired() finds by itself
     * once the waiters look again. */
    vg_event *e = ctxid && ctxid < KFD_SIGNAL_EVENT_LIMIT ? event_find(ctxid) : NULL;
    if (e && e->type == KFD_IOC_EVENT_SIGNAL) {
        e->signaled = 1;
        e->age++;
    }
    pthread_cond_broadcast(&ev_cond);
    pthread_mutex_unlock(&ev_lock);
}

void vg_event_memory_fault(int gpu, uint64_t va, int write) {
    (void)write;
    pthread_mutex_lock(&ev_lock);
    for (unsigned i = 0; i < VG_MAX_EVENTS; i++) {
        vg_event *e = &events[i];
        if (!e->id || e->type != KFD_IOC_EVENT_MEMORY)
            continue;
        memset(&e->mem, 0, sizeof e->mem);
        e->mem.failure.NotPresent = 1;
        e->mem.va = va & ~(VG_PAGE - 1); /* amdkfd reports the page */
        e->mem.gpu_id = VG_GPU_ID(gpu);
        e->signaled = 1;
        e->age++;
    }
    pthread_cond_broadcast(&ev_cond);
    pthread_mutex_unlock(&ev_lock);
}

/* A signal event has fired when its flag is set or the hardware wrote its slot. */
static int fired(vg_event *e) {
    if (e->signaled)
        return 1;
    if (e->type == KFD_IOC_EVENT_SIGNAL && event_page && e->id < KFD_SIGNAL_EVENT_LIMIT &&
        __atomic_load_n(&event_page[e->id], __ATOMIC_ACQUIRE) != UNSIGNALED_SLOT)
        return 1;
    return 0;
}

/* A signal event whose waiter passed an age other than its current one (KFD 1.14): it fired
 * since the waiter last looked.  0 (older thunks, Debian's ROCm 5.2) asks for no check. */
static int aged(const vg_event *e, const struct kfd_event_data *d) {
    uint64_t age;
    memcpy(&age, d, sizeof age); /* signal_event_data.last_event_age, at the union's start */
    return e->type != KFD_IOC_EVENT_MEMORY && age && age != e->age;
}

static int wait_events(struct kfd_ioctl_wait_events_args *a) {
    struct kfd_event_data *data = (struct kfd_event_data *)(uintptr_t)a->events_ptr;
    if (!a->num_events || !data)
        return fail(EINVAL);
    struct timespec deadline;
    clock_gettime(CLOCK_REALTIME, &deadline);
    uint64_t ns = (uint64_t)deadline.tv_nsec + (uint64_t)a->timeout % 1000 * 1000000ull;
    deadline.tv_sec += a->timeout / 1000 + (time_t)(ns / 1000000000ull);
    deadline.tv_nsec = (long)(ns % 1000000000ull);
    int forever = a->timeout == 0xffffffffu;
    pthread_mutex_lock(&ev_lock);
    for (;;) {
        uint32_t n = 0;
        for (uint32_t i = 0; i < a->num_events; i++) {
            vg_event *e = event_find(data[i].event_id);
            if (!e) {
                pthread_mutex_unlock(&ev_lock);
                return fail(EINVAL);
            }
            n += fired(e) || aged(e, &data[i]);
        }
        if (a->wait_for_all ? n == a->num_events : n > 0) {
            for (uint32_t i = 0; i < a->num_events; i++) {
                vg_event *e = event_find(data[i].event_id);
                if (e->type != KFD_IOC_EVENT_MEMORY) /* the age it has now, for the next wait */
                    memcpy(&data[i], &e->age, sizeof e->age);
                if (!fired(e))
                    continue;
                if (e->type == KFD_IOC_EVENT_MEMORY)
                    data[i].memory_exception_data = e->mem;
                if (e->auto_reset) {
                    e->signaled = 0;
                    if (event_page && e->id < KFD_SIGNAL_EVENT_LIMIT)
                        __atomic_store_n(&event_page[e->id], UNSIGNALED_SLOT, __ATOMIC_RELEASE);
                }
            }
            a->wait_result = KFD_IOC_WAIT_RESULT_COMPLETE;
            break;
        }
        if (a->timeout == 0) {
            a->wait_result = KFD_IOC_WAIT_RESULT_TIMEOUT;
            break;
        }
        /* Slots are written by the program's own stores (hsa_signal_store on an interrupt
         * signal writes the mailbox, then SET_EVENT): wake now and then to look at them. */
        struct timespec tick;
        clock_gettime(CLOCK_REALTIME, &tick);
        tick.tv_nsec += 2000000;
        if (tick.tv_nsec >= 1000000000) {
            tick.tv_sec++;
            tick.tv_nsec -= 1000000000;
        }
        if (!forever && (tick.tv_sec > deadline.tv_sec ||
                         (tick.tv_sec == deadline.tv_sec && tick.tv_nsec > deadline.tv_nsec)))
            tick = deadline;
        int r = pthread_cond_timedwait(&ev_cond, &ev_lock, &tick);
        if (r == ETIMEDOUT && !forever && tick.tv_sec == deadline.tv_sec &&
            tick.tv_nsec == deadline.tv_nsec) {
            /* one more look after the deadline */
            a->timeout = 0;
        }
    }
    pthread_mutex_unlock(&ev_lock);
    return 0;
}

/* ---- queues -------------------------------------------------------------------------------- */

/* SDMA queues go to every program, ROCm's runtime included (it then copies with SDMA packets,
 * as on the card).  GFXEMU_VGPU_SDMA=0 refuses them (CREATE_QUEUE fails, as when a card's SDMA
 * queues are all taken): ROCr then copies with its blit kernels. */
static int sdma_offered(void) {
    const char *env = getenv("GFXEMU_VGPU_SDMA");
    return !(env && strcmp(env, "0") == 0);
}

/* ---- debugger interface (KFD 1.13+) --------------------------------------------------------- */

/* struct kfd_ioctl_runtime_enable_args (kfd_ioctl.h 1.13+; Debian's header is 1.11). */
struct vg_runtime_enable_args {
    uint64_t r_debug;
    uint32_t mode_mask; /* bit 0 ENABLE, else disable; bit 1 TTMP_SAVE */
    uint32_t capabilities_mask;
};

static struct {
    int enabled;
    uint64_t r_debug;
    uint32_t mode;
} runtime;

/* RUNTIME_ENABLE as amdkfd answers it for a process no debugger is attached to: enabling records
 * the runtime's r_debug address and mode (EBUSY when already enabled, EEXIST once queues exist:
 * the runtime enables before its first queue); a mode without the ENABLE bit disables.  No
 * capabilities (no core dumps, no debugger). */
static int runtime_enable(void *arg) {
    struct vg_runtime_enable_args *a = arg;
    a->capabilities_mask = 0;
    pthread_mutex_lock(&vg.lock);
    int r = 0;
    if (!(a->mode_mask & 1)) {
        runtime.enabled = 0;
        runtime.r_debug = 0;
    } else if (runtime.enabled) {
        r = fail(EBUSY);
    } else if (vg_queue_devices_any()) {
        r = fail(EEXIST);
    } else {
        runtime.enabled = 1;
        runtime.r_debug = a->r_debug;
        runtime.mode = a->mode_mask;
    }
    pthread_mutex_unlock(&vg.lock);
    return r;
}

/* DBG_TRAP (struct kfd_ioctl_dbg_trap_args: pid, op, then the op's arguments): the debugger's
 * interface to a process's waves; the virtual GPU has none of it.  One line per op. */
static int dbg_trap(void *arg) {
    static const char *const ops[] = {"ENABLE",
                                      "DISABLE",
                                      "SEND_RUNTIME_EVENT",
                                      "SET_EXCEPTIONS_ENABLED",
                                      "SET_WAVE_LAUNCH_OVERRIDE",
                                      "SET_WAVE_LAUNCH_MODE",
                                      "SUSPEND_QUEUES",
                                      "RESUME_QUEUES",
                                      "SET_NODE_ADDRESS_WATCH",
                                      "CLEAR_NODE_ADDRESS_WATCH",
                                      "SET_FLAGS",
                                      "QUERY_DEBUG_EVENT",
                                      "QUERY_EXCEPTION_INFO",
                                      "GET_QUEUE_SNAPSHOT",
                                      "GET_DEVICE_SNAPSHOT"};
    static unsigned char told[16];
    uint32_t op;
    memcpy(&op, (const uint8_t *)arg + 4, 4);
    unsigned i = op < 15 ? op : 15;
    if (!__atomic_exchange_n(&told[i], 1, __ATOMIC_RELAXED))
        vg_msg("KFD ioctl DBG_TRAP op %s (%u) is not implemented by the virtual GPU (no debugger "
               "support)",
               op < 15 ? ops[op] : "unknown", op);
    return fail(EINVAL);
}

/* ---- the ioctl switch ---------------------------------------------------------------------- */

static const char *ioctl_name(unsigned nr) {
    static const char *names[] = {
        [0x01] = "GET_VERSION",
        [0x02] = "CREATE_QUEUE",
        [0x03] = "DESTROY_QUEUE",
        [0x04] = "SET_MEMORY_POLICY",
        [0x05] = "GET_CLOCK_COUNTERS",
        [0x06] = "GET_PROCESS_APERTURES",
        [0x07] = "UPDATE_QUEUE",
        [0x08] = "CREATE_EVENT",
        [0x09] = "DESTROY_EVENT",
        [0x0a] = "SET_EVENT",
        [0x0b] = "RESET_EVENT",
        [0x0c] = "WAIT_EVENTS",
        [0x0d] = "DBG_REGISTER",
        [0x0e] = "DBG_UNREGISTER",
        [0x0f] = "DBG_ADDRESS_WATCH",
        [0x10] = "DBG_WAVE_CONTROL",
        [0x11] = "SET_SCRATCH_BACKING_VA",
        [0x12] = "GET_TILE_CONFIG",
        [0x13] = "SET_TRAP_HANDLER",
        [0x14] = "GET_PROCESS_APERTURES_NEW",
        [0x15] = "ACQUIRE_VM",
        [0x16] = "ALLOC_MEMORY_OF_GPU",
        [0x17] = "FREE_MEMORY_OF_GPU",
        [0x18] = "MAP_MEMORY_TO_GPU",
        [0x19] = "UNMAP_MEMORY_FROM_GPU",
        [0x1a] = "SET_CU_MASK",
        [0x1b] = "GET_QUEUE_WAVE_STATE",
        [0x1c] = "GET_DMABUF_INFO",
        [0x1d] = "IMPORT_DMABUF",
        [0x1e] = "ALLOC_QUEUE_GWS",
        [0x1f] = "SMI_EVENTS",
        [0x20] = "SVM",
        [0x21] = "SET_XNACK_MODE",
        [0x22] = "CRIU_OP",
        [0x23] = "AVAILABLE_MEMORY",
        [0x24] = "EXPORT_DMABUF",
        [0x25] = "RUNTIME_ENABLE",
        [0x26] = "DBG_TRAP",
    };
    return nr < sizeof names / sizeof names[0] && names[nr] ? names[nr] : "unknown";
}

/* ROCm 5.x's own numbers above the upstream ones (the thunk's include/linux/kfd_ioctl.h). */
static const char *ioctl_name_rocm(unsigned nr) {
    static const char *names[] = {"IPC_IMPORT_HANDLE", "IPC_EXPORT_HANDLE", "DBG_TRAP (ROCm 5.x)",
                                  "CROSS_MEMORY_COPY", "SPM"};
    return nr >= 0x80 && nr < 0x85 ? names[nr - 0x80] : "unknown";
}

/* amdkfd takes any argument size for an ioctl it knows (kfd_ioctl(): the caller's bytes, the
 * rest zero, as many bytes back): newer headers grew some structures (CREATE_QUEUE's
 * sdma_engine_id, which tinygrad's autogen has), older thunks pass fewer bytes.  So requests are
 * told apart by number, and the handlers run on a zero-filled copy. */
static _Thread_local union {
    uint64_t align;
    unsigned char b[1u << _IOC_SIZEBITS];
} ioctl_buf;

static int kfd_ioctl_nr(unsigned nr, void *arg);

int vg_kfd_ioctl(unsigned long req, void *arg) {
    if (!arg)
        return fail(EFAULT);
    unsigned size = _IOC_SIZE(req);
    memset(ioctl_buf.b, 0, sizeof ioctl_buf.b);
    memcpy(ioctl_buf.b, arg, size);
    int r = kfd_ioctl_nr(_IOC_NR(req), ioctl_buf.b);
    int err = errno;
    memcpy(arg, ioctl_buf.b, size);
    errno = err;
    return r;
}

static int kfd_ioctl_nr(unsigned nr, void *arg) {
    switch (nr) {
    case _IOC_NR(AMDKFD_IOC_GET_VERSION): {
        struct kfd_ioctl_get_version_args *a = arg;
        a->major_version = 1;
        /* 1.14: the runtime-enable handshake and event ages that ROCm 6 thunks expect (and
         * tinygrad then makes: it calls RUNTIME_ENABLE on >= 1.14).  ROCm 5.x thunks accept
         * any 1.x, and pass no event age. */
        a->minor_version = 14;
        return 0;
    }
    case 0x25: return runtime_enable(arg);
    case 0x26: return dbg_trap(arg);
    case _IOC_NR(AMDKFD_IOC_GET_PROCESS_APERTURES_NEW): {
        struct kfd_ioctl_get_process_apertures_new_args *a = arg;
        struct kfd_process_device_apertures *ap =
            (struct kfd_process_device_apertures *)(uintptr_t)a->kfd_process_device_apertures_ptr;
        if (a->num_of_nodes == 0 || !ap) {
            a->num_of_nodes = vg.ngpus;
            return 0;
        }
        uint32_t n = a->num_of_nodes < vg.ngpus ? a->num_of_nodes : vg.ngpus;
        for (uint32_t i = 0; i < n; i++) {
            memset(&ap[i], 0, sizeof ap[i]);
            /* gfx9's apertures (amdkfd kfd_flat_memory.c): LDS at 1 << 48, scratch at 2 << 48,
             * 4 GiB each, the same values gfxemu's flat addressing uses; GPUVM is the 47-bit
             * user address space (GPU VA == host VA). */
            ap[i].lds_base = 0x0001000000000000ull;
            ap[i].lds_limit = 0x00010000ffffffffull;
            ap[i].scratch_base = 0x0002000000000000ull;
            ap[i].scratch_limit = 0x00020000ffffffffull;
            ap[i].gpuvm_base = 0x1000000ull;
            ap[i].gpuvm_limit = 0x00007fffffffffffull;
            ap[i].gpu_id = VG_GPU_ID(i);
        }
        a->num_of_nodes = n;
        return 0;
    }
    case _IOC_NR(AMDKFD_IOC_ACQUIRE_VM):
    case _IOC_NR(AMDKFD_IOC_SET_MEMORY_POLICY):
    case _IOC_NR(AMDKFD_IOC_SET_SCRATCH_BACKING_VA):
    case _IOC_NR(AMDKFD_IOC_SET_TRAP_HANDLER):
        /* Nothing to do: one address space, and gfxemu gives every wave its own scratch. */
        return 0;
    case _IOC_NR(AMDKFD_IOC_SET_XNACK_MODE): {
        struct kfd_ioctl_set_xnack_mode_args *a = arg;
        if (a->xnack_enabled > 0) {
            vg_msg("SET_XNACK_MODE: XNACK (retry on page faults) is not implemented");
            return fail(EPERM);
        }
        a->xnack_enabled = 0;
        return 0;
    }
    case _IOC_NR(AMDKFD_IOC_GET_TILE_CONFIG): {
        struct kfd_ioctl_get_tile_config_args *a = arg;
        a->num_tile_configs = 0;
        a->num_macro_tile_configs = 0;
        a->gb_addr_config = vg.card->gb_addr_config;
        a->num_banks = 0;
        a->num_ranks = 0;
        return 0;
    }
    case _IOC_NR(AMDKFD_IOC_GET_CLOCK_COUNTERS): {
        struct kfd_ioctl_get_clock_counters_args *a = arg;
        uint64_t t = vg_now_ns();
        a->gpu_clock_counter = t / VG_GPU_CLOCK_NS; /* the same instant, as amdkfd samples */
        a->cpu_clock_counter = t;
        a->system_clock_counter = t;
        a->system_clock_freq = 1000000000ull;
        return 0;
    }
    case _IOC_NR(AMDKFD_IOC_AVAILABLE_MEMORY): {
        struct kfd_ioctl_get_available_memory_args *a = arg;
        int g = vg_gpu_index(a->gpu_id);
        if (g < 0)
            return fail(EINVAL);
        a->available = vg.vram - vg.vram_used[g];
        return 0;
    }
    case _IOC_NR(AMDKFD_IOC_ALLOC_MEMORY_OF_GPU): return alloc_memory(arg);
    case _IOC_NR(AMDKFD_IOC_FREE_MEMORY_OF_GPU): return free_memory(arg);
    case _IOC_NR(AMDKFD_IOC_MAP_MEMORY_TO_GPU): return map_memory(arg, 1);
    case _IOC_NR(AMDKFD_IOC_UNMAP_MEMORY_FROM_GPU):
        return map_memory((struct kfd_ioctl_map_memory_to_gpu_args *)arg, 0);
    case _IOC_NR(AMDKFD_IOC_CREATE_QUEUE): {
        struct kfd_ioctl_create_queue_args *a = arg;
        int g = vg_gpu_index(a->gpu_id);
        if (g < 0)
            return fail(EINVAL);
        /* SDMA_XGMI is an SDMA engine on the XGMI link: the same packets. */
        if (a->queue_type != KFD_IOC_QUEUE_TYPE_COMPUTE_AQL &&
            a->queue_type != KFD_IOC_QUEUE_TYPE_COMPUTE &&
            a->queue_type != KFD_IOC_QUEUE_TYPE_SDMA &&
            a->queue_type != KFD_IOC_QUEUE_TYPE_SDMA_XGMI) {
            vg_msg("CREATE_QUEUE: queue type %u is not implemented (AQL and PM4 compute, SDMA "
                   "and SDMA XGMI queues are)",
                   a->queue_type);
            return fail(EINVAL);
        }
        uint32_t type =
            a->queue_type == KFD_IOC_QUEUE_TYPE_SDMA_XGMI ? KFD_IOC_QUEUE_TYPE_SDMA : a->queue_type;
        if (type == KFD_IOC_QUEUE_TYPE_SDMA && !sdma_offered())
            return fail(EINVAL);
        uint64_t doorbell = 0;
        if (vg_queue_create(g, type, a->ring_base_address, a->ring_size, a->read_pointer_address,
                            a->write_pointer_address, &a->queue_id, &doorbell) != 0)
            return fail(ENOMEM);
        a->doorbell_offset = doorbell;
        return 0;
    }
    case _IOC_NR(AMDKFD_IOC_DESTROY_QUEUE): {
        struct kfd_ioctl_destroy_queue_args *a = arg;
        return vg_queue_destroy(a->queue_id) == 0 ? 0 : fail(EINVAL);
    }
    case _IOC_NR(AMDKFD_IOC_CREATE_EVENT): return create_event(arg);
    case _IOC_NR(AMDKFD_IOC_DESTROY_EVENT):
        return event_op(((struct kfd_ioctl_destroy_event_args *)arg)->event_id, 0);
    case _IOC_NR(AMDKFD_IOC_SET_EVENT):
        return event_op(((struct kfd_ioctl_set_event_args *)arg)->event_id, 1);
    case _IOC_NR(AMDKFD_IOC_RESET_EVENT):
        return event_op(((struct kfd_ioctl_reset_event_args *)arg)->event_id, 2);
    case _IOC_NR(AMDKFD_IOC_WAIT_EVENTS): return wait_events(arg);
    }
    /* Once per ioctl: runtimes probe optional ones (ROCm 5.x asks for DBG_TRAP) again and
     * again. */
    static unsigned char told[256];
    if (!told[nr & 0xff]) {
        told[nr & 0xff] = 1;
        vg_msg("KFD ioctl %s (nr 0x%02x) is not implemented by the virtual GPU",
               nr >= 0x80 ? ioctl_name_rocm(nr) : ioctl_name(nr), nr);
    }
    return fail(EINVAL);
}
