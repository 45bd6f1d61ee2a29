/* kfd_driver.c - a program that drives /dev/kfd itself, as a framework's driver does (no ROCm
 * runtime), run by test_kfd.sh under `gfxemu exec --arch gfx950`.  It reads the sysfs topology,
 * allocates VRAM/GTT buffer objects with KFD ioctls, maps them for the CPU with a raw mmap
 * syscall on the render node at the returned mmap offsets (which the preloaded library cannot
 * see: the pages must be right because the device file's bytes at that offset are the object),
 * creates an AQL queue, dispatches a clang-22 gfx950 kernel and waits for its completion signal,
 * then dispatches a kernel with a wild pointer and waits for the memory-exception event.
 * Prints "PASS ..." lines; exit 0 only if every check held.
 *
 * With a second argument it tests PM4 compute queues ("pm4"), SDMA queues ("sdma") or their error
 * paths ("errors") instead (test_kfd_queues.sh), or queues that run at the same time
 * ("concurrent"), or partial workgroups in one dispatch ("partial").
 *
 * usage: kfd_driver KERNEL.co [pm4|sdma|errors|concurrent|partial]   (the code object of
 * tests/vgpu/kfd_kernels.cl)
 */
#define _GNU_SOURCE
#include <elf.h>
#include <errno.h>
#include <fcntl.h>
#include <linux/kfd_ioctl.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/mman.h>
#include <sys/syscall.h>
#include <time.h>
#include <unistd.h>

static int failures;
/* KFD 1.13+ ioctls (Debian's linux/kfd_ioctl.h is 1.11): RUNTIME_ENABLE (r_debug, mode_mask,
 * capabilities_mask) and DBG_TRAP (pid, op, the op's arguments). */
struct runtime_enable_args {
    uint64_t r_debug;
    uint32_t mode_mask, caps;
};
struct dbg_trap_args {
    uint32_t pid, op, args[8];
};
#define RUNTIME_ENABLE _IOWR('K', 0x25, struct runtime_enable_args)
#define DBG_TRAP _IOWR('K', 0x26, struct dbg_trap_args)
#define CHECK(c, ...)                                                                              \
    do {                                                                                           \
        if (!(c)) {                                                                                \
            printf("FAIL: " __VA_ARGS__);                                                          \
            printf("\n");                                                                          \
            failures++;                                                                            \
        }                                                                                          \
    } while (0)

static int kfd, render;
static uint32_t gpu_id;

/* A raw mmap: never seen by an LD_PRELOAD library (tinygrad maps through a dlsym'd libc). */
static void *raw_mmap(void *addr, size_t len, int prot, int flags, int fd, uint64_t off) {
    return (void *)syscall(SYS_mmap, addr, len, prot, flags, fd, off);
}

typedef struct {
    uint8_t *p;
    uint64_t size, handle;
} bo;

static bo alloc_bo(uint64_t size, uint32_t kind) {
    bo b = {0};
    size = (size + 4095) & ~4095ull;
    void *va = mmap(NULL, size, PROT_NONE, MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE, -1, 0);
    struct kfd_ioctl_alloc_memory_of_gpu_args a = {0};
    a.va_addr = (uint64_t)(uintptr_t)va;
    a.size = size;
    a.gpu_id = gpu_id;
    a.flags = kind | KFD_IOC_ALLOC_MEM_FLAGS_WRITABLE | KFD_IOC_ALLOC_MEM_FLAGS_EXECUTABLE;
    if (va == MAP_FAILED || ioctl(kfd, AMDKFD_IOC_ALLOC_MEMORY_OF_GPU, &a) != 0) {
        CHECK(0, "ALLOC_MEMORY_OF_GPU of %llu bytes", (unsigned long long)size);
        return b;
    }
    void *cpu =
        raw_mmap(va, size, PROT_READ | PROT_WRITE, MAP_SHARED | MAP_FIXED, render, a.mmap_offset);
    CHECK(cpu == va, "raw mmap of the render node at offset 0x%llx",
          (unsigned long long)a.mmap_offset);
    struct kfd_ioctl_map_memory_to_gpu_args m = {0};
    m.handle = a.handle;
    m.device_ids_array_ptr = (uint64_t)(uintptr_t)&gpu_id;
    m.n_devices = 1;
    CHECK(ioctl(kfd, AMDKFD_IOC_MAP_MEMORY_TO_GPU, &m) == 0 && m.n_success == 1,
          "MAP_MEMORY_TO_GPU");
    b.p = va;
    b.size = size;
    b.handle = a.handle;
    return b;
}

/* Load the PT_LOAD segments of a linked code object at base; the address of NAME.kd. */
/* Copy into GPU memory with plain stores, not libc's memcpy: under TSan (make check-tsan) the
 * runtime intercepts this uninstrumented program's memcpy but cannot see the doorbell and write
 * pointer that order it before the device's reads, as the hardware's queue protocol does, and
 * would report the handoff as a race in the virtual GPU. */
static void gpu_write(uint8_t *dst, const uint8_t *src, size_t n) {
    volatile uint8_t *d = dst;
    for (size_t i = 0; i < n; i++)
        d[i] = src[i];
}

static uint64_t load_co(const char *path, uint8_t *base, uint64_t cap, const char *kd_name) {
    FILE *f = fopen(path, "rb");
    if (!f)
        return 0;
    static uint8_t buf[1 << 20];
    size_t n = fread(buf, 1, sizeof buf, f);
    fclose(f);
    const Elf64_Ehdr *eh = (const Elf64_Ehdr *)buf;
    const Elf64_Phdr *ph = (const Elf64_Phdr *)(buf + eh->e_phoff);
    for (int i = 0; i < eh->e_phnum; i++)
        if (ph[i].p_type == PT_LOAD && ph[i].p_vaddr + ph[i].p_memsz <= cap &&
            ph[i].p_offset + ph[i].p_filesz <= n)
            gpu_write(base + ph[i].p_vaddr, buf + ph[i].p_offset, ph[i].p_filesz);
    const Elf64_Shdr *sh = (const Elf64_Shdr *)(buf + eh->e_shoff);
    for (int i = 0; i < eh->e_shnum; i++) {
        if (sh[i].sh_type != SHT_SYMTAB && sh[i].sh_type != SHT_DYNSYM)
            continue;
        const Elf64_Sym *sym = (const Elf64_Sym *)(buf + sh[i].sh_offset);
        const char *str = (const char *)(buf + sh[sh[i].sh_link].sh_offset);
        for (size_t k = 0; k < sh[i].sh_size / sizeof *sym; k++)
            if (strcmp(str + sym[k].st_name, kd_name) == 0)
                return (uint64_t)(uintptr_t)base + sym[k].st_value;
    }
    return 0;
}

static double now(void) {
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return (double)t.tv_sec + (double)t.tv_nsec * 1e-9;
}

/* ---- PM4 compute and SDMA queues (kfd_driver KERNEL.co pm4|sdma|errors) ---------------------
 * As a framework's driver writes them for gfx9 (tinygrad's KFD path): a ring of dwords with
 * 64-bit read/write pointers (PM4: dwords, SDMA: bytes) and a doorbell.  Packet layouts are the
 * amdgpu kernel headers' (soc15d.h, vega10_sdma_pkt_open.h), register offsets gc_9_4_3.h's. */

/* gc_9_4_3 register addresses minus PACKET3_SET_SH_REG_START (0x2c00). */
enum {
    REG_COMPUTE_START_X = 0x2e04 - 0x2c00, /* START_X/Y/Z, NUM_THREAD_X/Y/Z, ... */
    REG_COMPUTE_PGM_LO = 0x2e0c - 0x2c00,
    REG_COMPUTE_PGM_RSRC1 = 0x2e12 - 0x2c00,
    REG_COMPUTE_RESOURCE_LIMITS = 0x2e15 - 0x2c00,
    REG_COMPUTE_TMPRING_SIZE = 0x2e18 - 0x2c00,
    REG_COMPUTE_PGM_RSRC3 = 0x2e2d - 0x2c00,
    REG_COMPUTE_USER_DATA_0 = 0x2e40 - 0x2c00,
};
#define PKT3(op, body) (3u << 30 | ((uint32_t)(body) - 1) << 16 | (uint32_t)(op) << 8)

typedef struct {
    bo ring, ctl;
    uint32_t type;
    volatile uint64_t *rptr, *wptr, *doorbell;
    uint64_t put; /* dwords (PM4) or bytes (SDMA) */
} queue;

static uint8_t *doorbells;

static int make_queue(queue *q, uint32_t type) {
    memset(q, 0, sizeof *q);
    q->type = type;
    q->ring = alloc_bo(4096, KFD_IOC_ALLOC_MEM_FLAGS_GTT);
    q->ctl = alloc_bo(4096, KFD_IOC_ALLOC_MEM_FLAGS_GTT);
    if (!q->ring.p || !q->ctl.p)
        return -1;
    q->rptr = (volatile uint64_t *)(q->ctl.p + 128);
    q->wptr = (volatile uint64_t *)(q->ctl.p + 56);
    /* SDMA queues are made with the newer, longer structure (sdma_engine_id, as tinygrad's
     * headers have it): amdkfd takes any size. */
    struct {
        struct kfd_ioctl_create_queue_args a;
        uint32_t sdma_engine_id, pad;
    } big = {0};
    struct kfd_ioctl_create_queue_args cq = {0};
    cq.ring_base_address = (uint64_t)(uintptr_t)q->ring.p;
    cq.ring_size = 4096;
    cq.gpu_id = gpu_id;
    cq.queue_type = type;
    cq.queue_percentage = 100;
    cq.read_pointer_address = (uint64_t)(uintptr_t)q->rptr;
    cq.write_pointer_address = (uint64_t)(uintptr_t)q->wptr;
    int r;
    if (type == KFD_IOC_QUEUE_TYPE_SDMA) {
        big.a = cq;
        big.pad = 0x5a5a;
        r = ioctl(kfd, _IOC(_IOC_READ | _IOC_WRITE, AMDKFD_IOCTL_BASE, 0x02, sizeof big), &big);
        CHECK(r != 0 || big.pad == 0x5a5a, "CREATE_QUEUE changed the caller's extra bytes");
        cq = big.a;
    } else {
        r = ioctl(kfd, AMDKFD_IOC_CREATE_QUEUE, &cq);
    }
    if (r != 0) {
        CHECK(0, "CREATE_QUEUE of type %u", type);
        return -1;
    }
    if (!doorbells) {
        doorbells = raw_mmap(NULL, 8192, PROT_READ | PROT_WRITE, MAP_SHARED, kfd,
                             cq.doorbell_offset & ~8191ull);
        CHECK(doorbells != MAP_FAILED, "raw mmap of the doorbell page");
        if (doorbells == MAP_FAILED)
            return -1;
    }
    q->doorbell = (volatile uint64_t *)(doorbells + (cq.doorbell_offset & 8191));
    return 0;
}

/* Copy n dwords into the ring (wrapping), then write the write pointer and ring the doorbell. */
static void submit(queue *q, const uint32_t *cmd, uint32_t n) {
    volatile uint32_t *ring = (volatile uint32_t *)q->ring.p;
    int sdma = q->type == KFD_IOC_QUEUE_TYPE_SDMA;
    uint64_t pos = sdma ? q->put / 4 : q->put;
    for (uint32_t i = 0; i < n; i++)
        ring[(pos + i) % 1024] = cmd[i];
    q->put += sdma ? 4ull * n : n;
    __atomic_store_n(q->wptr, q->put, __ATOMIC_RELEASE);
    *q->doorbell = q->put;
}

static int wait_u64(volatile uint64_t *p, uint64_t want, double timeout) {
    double t0 = now();
    while (__atomic_load_n(p, __ATOMIC_ACQUIRE) != want && now() - t0 < timeout)
        usleep(100);
    return *p == want;
}
static int wait_u32(volatile uint32_t *p, uint32_t want, double timeout) {
    double t0 = now();
    while (__atomic_load_n(p, __ATOMIC_ACQUIRE) != want && now() - t0 < timeout)
        usleep(100);
    return *p == want;
}

static uint64_t gpu_clock(void) {
    struct kfd_ioctl_get_clock_counters_args c = {0};
    c.gpu_id = gpu_id;
    CHECK(ioctl(kfd, AMDKFD_IOC_GET_CLOCK_COUNTERS, &c) == 0, "GET_CLOCK_COUNTERS");
    return c.gpu_clock_counter;
}

static double cpu_seconds(void) {
    struct timespec t;
    clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &t);
    return (double)t.tv_sec + (double)t.tv_nsec * 1e-9;
}

/* The event page (a buffer object, as tinygrad and a dGPU thunk pass it) and one auto-reset
 * signal event; *mailbox: its slot. */
static uint32_t signal_event(volatile uint64_t **mailbox) {
    static bo page;
    if (!page.p) {
        page = alloc_bo(0x8000, KFD_IOC_ALLOC_MEM_FLAGS_GTT);
        struct kfd_ioctl_create_event_args pe = {0};
        pe.event_page_offset = page.handle;
        CHECK(page.p && ioctl(kfd, AMDKFD_IOC_CREATE_EVENT, &pe) == 0, "CREATE_EVENT (page)");
    }
    struct kfd_ioctl_create_event_args e = {0};
    e.event_type = KFD_IOC_EVENT_SIGNAL;
    e.auto_reset = 1;
    CHECK(ioctl(kfd, AMDKFD_IOC_CREATE_EVENT, &e) == 0, "CREATE_EVENT (signal)");
    /* amdkfd returns the event page's mmap offset (KFD_MMAP_TYPE_EVENTS, 2 << 62) for every
     * signal event, not only the first: the thunk gives an event a mailbox only when it is set. */
    CHECK(e.event_page_offset == 2ull << 62,
          "CREATE_EVENT (signal) returned event_page_offset 0x%llx, not amdkfd's "
          "KFD_MMAP_TYPE_EVENTS",
          (unsigned long long)e.event_page_offset);
    *mailbox = (volatile uint64_t *)(page.p + 8ull * e.event_slot_index);
    return e.event_id;
}

static uint32_t wait_event(uint32_t id, uint32_t timeout_ms, struct kfd_event_data *out) {
    struct kfd_event_data d = {0};
    d.event_id = id;
    struct kfd_ioctl_wait_events_args w = {0};
    w.events_ptr = (uint64_t)(uintptr_t)&d;
    w.num_events = 1;
    w.timeout = timeout_ms;
    if (ioctl(kfd, AMDKFD_IOC_WAIT_EVENTS, &w) != 0)
        return 99;
    if (out)
        *out = d;
    return w.wait_result;
}

/* PM4 packet builders (body layouts: soc15d.h / kfd_pm4_headers_ai.h, gfx9). */
static uint32_t *set_sh(uint32_t *c, uint32_t reg, const uint32_t *v, uint32_t n) {
    *c++ = PKT3(0x76, n + 1); /* SET_SH_REG */
    *c++ = reg;
    for (uint32_t i = 0; i < n; i++)
        *c++ = v[i];
    return c;
}
static uint32_t *release_mem(uint32_t *c, void *addr, uint64_t data, uint32_t data_sel,
                             uint32_t int_sel) {
    uint64_t a = (uint64_t)(uintptr_t)addr;
    *c++ = PKT3(0x49, 7);
    *c++ = 20 | 5 << 8; /* CACHE_FLUSH_AND_INV_TS_EVENT, end of pipe */
    *c++ = data_sel << 29 | int_sel << 24;
    *c++ = (uint32_t)a;
    *c++ = (uint32_t)(a >> 32);
    *c++ = (uint32_t)data;
    *c++ = (uint32_t)(data >> 32);
    *c++ = 0; /* INT_CTXID: none (amdkfd then looks at every event slot) */
    return c;
}
static uint32_t *wait_reg_mem(uint32_t *c, void *addr, uint32_t func, uint32_t ref, uint32_t mask) {
    uint64_t a = (uint64_t)(uintptr_t)addr;
    *c++ = PKT3(0x3c, 6);
    *c++ = func | 1 << 4; /* memory space */
    *c++ = (uint32_t)a;
    *c++ = (uint32_t)(a >> 32);
    *c++ = ref;
    *c++ = mask;
    *c++ = 4; /* poll interval */
    return c;
}

/* The expected value of pm4_fill (kfd_kernels.cl). */
static uint32_t pm4_fill_want(uint32_t k, uint32_t wx, uint32_t wy, uint32_t l) {
    return (63 - l) * k + wx + 1000 * wy;
}

static uint32_t *copy_data(uint32_t *c, uint32_t sel, uint32_t s0, uint32_t s1, uint32_t d0,
                           uint32_t d1) {
    *c++ = PKT3(0x40, 5); /* COPY_DATA: SRC_SEL [3:0], DST_SEL [11:8], COUNT_SEL [16] */
    *c++ = sel;
    *c++ = s0;
    *c++ = s1;
    *c++ = d0;
    *c++ = d1;
    return c;
}

/* COPY_DATA (immediate, memory, clock and register sources; memory and register destinations),
 * SET_UCONFIG_REG, a register-space WAIT_REG_MEM, and a dispatch with COMPUTE_START_X/Y and a
 * partial last workgroup (PARTIAL_TG_EN, NUM_THREAD_PARTIAL), then one in work-items whose last
 * workgroup is partial, then a DISPATCH_INDIRECT, on the queue test_pm4 made. */
static int test_pm4_more(const char *co, queue *q, bo *code, uint32_t rsrc3) {
    bo mem = alloc_bo(4096, KFD_IOC_ALLOC_MEM_FLAGS_GTT);
    bo out = alloc_bo(16384, KFD_IOC_ALLOC_MEM_FLAGS_VRAM);
    bo args = alloc_bo(4096, KFD_IOC_ALLOC_MEM_FLAGS_GTT);
    uint64_t kd = load_co(co, code->p, code->size, "pm4_ids.kd");
    CHECK(kd, "pm4_ids.kd in %s", co);
    if (failures)
        return 1;
    volatile uint32_t *a32 = (uint32_t *)mem.p, *e32 = (uint32_t *)(mem.p + 4),
                      *f32 = (uint32_t *)(mem.p + 12), *done = (uint32_t *)(mem.p + 16);
    volatile uint64_t *b64 = (uint64_t *)(mem.p + 32), *c64 = (uint64_t *)(mem.p + 40),
                      *clk = (uint64_t *)(mem.p + 48);
#define LO(p) ((uint32_t)(uintptr_t)(p))
#define HI(p) ((uint32_t)((uintptr_t)(p) >> 32))
    uint32_t cmd[512], *r = cmd;
    r = copy_data(r, 5 | 5 << 8, 0xc0ffee, 0, LO(a32), HI(a32)); /* immediate -> memory */
    r = copy_data(r, 5 | 5 << 8 | 1 << 16, 0x89abcdef, 0x01234567, LO(b64), HI(b64)); /* 64 */
    r = copy_data(r, 2 | 2 << 8 | 1 << 16, LO(b64), HI(b64), LO(c64), HI(c64)); /* mem -> mem */
    r = copy_data(r, 9 | 5 << 8 | 1 << 16, 0, 0, LO(clk), HI(clk));             /* GPU clock */
    *r++ = PKT3(0x79, 2); /* SET_UCONFIG_REG GRBM_GFX_INDEX (0xc200) */
    *r++ = 0x200;
    *r++ = 0xe0000000;
    r = copy_data(r, 0 | 5 << 8, 0xc200, 0, LO(e32), HI(e32)); /* register -> memory */
    r = copy_data(r, 2 | 0 << 8, LO(a32), HI(a32), 0xc300, 0); /* memory -> register */
    *r++ = PKT3(0x3c, 6); /* WAIT_REG_MEM, register space: (0xc300 & 0xffff) == 0xffee */
    *r++ = 3;
    *r++ = 0xc300;
    *r++ = 0;
    *r++ = 0xffee;
    *r++ = 0xffff;
    *r++ = 4;
    r = copy_data(r, 0 | 5 << 8, 0xc300, 0, LO(f32), HI(f32));

    /* pm4_ids: workgroups x 2..4 (START_X 2, DIM_X 5), y 1..2 (START_Y 1, DIM_Y 3); x's last
     * of 20 work-items. */
    const uint8_t *d = (const uint8_t *)(uintptr_t)kd;
    uint32_t rs[2] = {*(const uint32_t *)(d + 48), *(const uint32_t *)(d + 52)};
    uint32_t rs3 = *(const uint32_t *)(d + 44);
    (void)rsrc3;
    uint64_t entry = kd + (uint64_t)*(const int64_t *)(d + 16);
    uint32_t pgm[2] = {(uint32_t)(entry >> 8), (uint32_t)(entry >> 40)};
    uint32_t *out1 = (uint32_t *)out.p, *out2 = (uint32_t *)(out.p + 8192);
    *(uint64_t *)args.p = (uint64_t)(uintptr_t)out1;
    *(uint64_t *)(args.p + 64) = (uint64_t)(uintptr_t)out2;
    r = set_sh(r, REG_COMPUTE_PGM_LO, pgm, 2);
    r = set_sh(r, REG_COMPUTE_PGM_RSRC1, rs, 2);
    r = set_sh(r, REG_COMPUTE_PGM_RSRC3, &rs3, 1);
    uint32_t user1[2] = {LO(args.p), HI(args.p)};
    r = set_sh(r, REG_COMPUTE_USER_DATA_0, user1, 2);
    uint32_t start[6] = {2, 1, 0, 64 | 20u << 16, 1, 1};
    r = set_sh(r, REG_COMPUTE_START_X, start, 6);
    *r++ = PKT3(0x15, 4);
    *r++ = 5;
    *r++ = 3;
    *r++ = 1;
    *r++ = 1 | 1 << 1; /* COMPUTE_SHADER_EN, PARTIAL_TG_EN */
    /* then 150 work-items in x from 0: workgroups of 64, 64 and 22 */
    uint32_t user2[2] = {LO(args.p + 64), HI(args.p + 64)};
    r = set_sh(r, REG_COMPUTE_USER_DATA_0, user2, 2);
    *r++ = PKT3(0x15, 4);
    *r++ = 150;
    *r++ = 1;
    *r++ = 1;
    *r++ = 1 | 1 << 1 | 1 << 2 | 1 << 5; /* + FORCE_START_AT_000, USE_THREAD_DIMENSIONS */
    /* then DISPATCH_INDIRECT (as Mesa writes it for gfx9): SET_BASE index 1 is the address of
     * the dimensions, DISPATCH_INDIRECT's offset from it; 3 workgroups in x, the last of 20
     * work-items (PARTIAL_TG_EN, NUM_THREAD_PARTIAL) */
    uint32_t *out3 = (uint32_t *)(out.p + 12288), *dims = (uint32_t *)(mem.p + 256);
    dims[4] = 3, dims[5] = 1, dims[6] = 1;
    *(uint64_t *)(args.p + 128) = (uint64_t)(uintptr_t)out3;
    uint32_t user3[2] = {LO(args.p + 128), HI(args.p + 128)};
    r = set_sh(r, REG_COMPUTE_USER_DATA_0, user3, 2);
    *r++ = PKT3(0x11, 3); /* SET_BASE */
    *r++ = 1;
    *r++ = LO(dims);
    *r++ = HI(dims);
    *r++ = PKT3(0x16, 2); /* DISPATCH_INDIRECT: data offset, initiator */
    *r++ = 16;
    *r++ = 1 | 1 << 1 | 1 << 2;
    r = release_mem(r, (void *)done, 0x55, 1, 0);
    uint64_t t0 = gpu_clock();
    submit(q, cmd, (uint32_t)(r - cmd));
    CHECK(wait_u32(done, 0x55, 60), "the COPY_DATA/partial dispatch packets did not finish");
    uint64_t t1 = gpu_clock();
    CHECK(*a32 == 0xc0ffee && *b64 == 0x0123456789abcdefull && *c64 == 0x0123456789abcdefull,
          "COPY_DATA: imm32 0x%x, imm64 0x%llx, mem64 0x%llx", *a32, (unsigned long long)*b64,
          (unsigned long long)*c64);
    CHECK(*clk >= t0 && *clk <= t1, "COPY_DATA GPU clock %llu outside [%llu, %llu]",
          (unsigned long long)*clk, (unsigned long long)t0, (unsigned long long)t1);
    CHECK(*e32 == 0xe0000000 && *f32 == 0xc0ffee,
          "SET_UCONFIG_REG/COPY_DATA registers: 0x%x (0xe0000000), 0x%x (0xc0ffee)", *e32, *f32);
    int bad = 0;
    for (uint32_t wy = 0; wy < 3; wy++)
        for (uint32_t wx = 0; wx < 8; wx++)
            for (uint32_t l = 0; l < 64; l++) {
                int ran = wx >= 2 && wx <= 4 && wy >= 1 && (wx < 4 || l < 20);
                uint32_t want = ran ? 0x80000000u | wy << 16 | wx << 8 | l : 0;
                bad += out1[(wy * 8 + wx) * 64 + l] != want;
            }
    for (uint32_t wx = 0; wx < 8; wx++)
        for (uint32_t l = 0; l < 64; l++) {
            uint32_t want = wx * 64 + l < 150 ? 0x80000000u | wx << 8 | l : 0;
            bad += out2[wx * 64 + l] != want;
        }
    for (uint32_t wx = 0; wx < 4; wx++)
        for (uint32_t l = 0; l < 64; l++) {
            uint32_t want = wx < 2 || (wx == 2 && l < 20) ? 0x80000000u | wx << 8 | l : 0;
            bad += out3[wx * 64 + l] != want;
        }
    CHECK(bad == 0, "%d work-item marks of the partial/COMPUTE_START/indirect dispatches wrong",
          bad);
#undef LO
#undef HI
    if (!failures)
        printf("PASS pm4 more: COPY_DATA, SET_UCONFIG_REG, register WAIT_REG_MEM, COMPUTE_START, "
               "partial workgroups, DISPATCH_INDIRECT\n");
    return failures ? 1 : 0;
}

static int test_pm4(const char *co) {
    bo code = alloc_bo(1 << 20, KFD_IOC_ALLOC_MEM_FLAGS_VRAM);
    bo out = alloc_bo(8192, KFD_IOC_ALLOC_MEM_FLAGS_VRAM);
    bo args = alloc_bo(4096, KFD_IOC_ALLOC_MEM_FLAGS_GTT);
    bo ibuf = alloc_bo(4096, KFD_IOC_ALLOC_MEM_FLAGS_GTT);
    bo sig = alloc_bo(4096, KFD_IOC_ALLOC_MEM_FLAGS_GTT);
    uint64_t kd = load_co(co, code.p, code.size, "pm4_fill.kd");
    CHECK(kd, "pm4_fill.kd in %s", co);
    queue q;
    if (failures || make_queue(&q, KFD_IOC_QUEUE_TYPE_COMPUTE) != 0)
        return 1;
    volatile uint64_t *mailbox;
    uint32_t ev = signal_event(&mailbox);

    /* What a driver reads from the kernel descriptor (AMDGPU Usage, "Kernel Descriptor"). */
    const uint8_t *d = (const uint8_t *)(uintptr_t)kd;
    uint32_t rsrc3 = *(const uint32_t *)(d + 44), rsrc1 = *(const uint32_t *)(d + 48),
             rsrc2 = *(const uint32_t *)(d + 52);
    uint16_t props = *(const uint16_t *)(d + 56);
    uint64_t entry = kd + (uint64_t)*(const int64_t *)(d + 16);
    /* Only the kernarg pointer is a user SGPR (KERNARG_SEGMENT_PTR, bit 3) */
    CHECK(props == 1u << 3 && (rsrc2 >> 1 & 0x1f) == 2 && (rsrc2 & 1) == 0,
          "pm4_fill descriptor: code properties 0x%x, rsrc2 0x%x", props, rsrc2);
    /* tmp[64] is dynamic LDS: 256 bytes, one RSRC2.LDS_SIZE granule (1280 bytes on gfx950) */
    rsrc2 |= 1u << 15;

    /* Kernel arguments: out, k, tmp (LDS offset 0); two dispatches. */
    uint8_t *ka = args.p, *kb = args.p + 256;
    uint32_t *out1 = (uint32_t *)out.p, *out2 = (uint32_t *)(out.p + 4096);
    *(uint64_t *)ka = (uint64_t)(uintptr_t)out1;
    *(uint32_t *)(ka + 8) = 5;
    *(uint64_t *)kb = (uint64_t)(uintptr_t)out2;
    *(uint32_t *)(kb + 8) = 11;
    volatile uint32_t *fence = (uint32_t *)sig.p, *fence2 = (uint32_t *)(sig.p + 32);
    volatile uint32_t *gate = (uint32_t *)(sig.p + 64), *skipped = (uint32_t *)(sig.p + 96),
                      *xcc1 = (uint32_t *)(sig.p + 100);
    volatile uint64_t *ts = (uint64_t *)(sig.p + 8);

    /* The first dispatch's state and DISPATCH_DIRECT in an indirect buffer, in workgroups. */
    uint32_t *c = (uint32_t *)ibuf.p;
    *c++ = PKT3(0x58, 6); /* ACQUIRE_MEM: coher_cntl, size, base, poll interval */
    *c++ = 0;
    *c++ = 0xffffffff;
    *c++ = 0xff;
    *c++ = 0;
    *c++ = 0;
    *c++ = 10;
    uint32_t pgm[2] = {(uint32_t)(entry >> 8), (uint32_t)(entry >> 40)};
    c = set_sh(c, REG_COMPUTE_PGM_LO, pgm, 2);
    uint32_t rs[2] = {rsrc1, rsrc2};
    c = set_sh(c, REG_COMPUTE_PGM_RSRC1, rs, 2);
    c = set_sh(c, REG_COMPUTE_PGM_RSRC3, &rsrc3, 1);
    uint32_t tmpring = 0;
    c = set_sh(c, REG_COMPUTE_TMPRING_SIZE, &tmpring, 1);
    uint32_t user1[2] = {(uint32_t)(uintptr_t)ka, (uint32_t)((uintptr_t)ka >> 32)};
    c = set_sh(c, REG_COMPUTE_USER_DATA_0, user1, 2);
    uint32_t limits = 0;
    c = set_sh(c, REG_COMPUTE_RESOURCE_LIMITS, &limits, 1);
    uint32_t start[8] = {0, 0, 0, 64, 1, 1, 0, 0}; /* START_X/Y/Z, NUM_THREAD_X/Y/Z, ... */
    c = set_sh(c, REG_COMPUTE_START_X, start, 8);
    *c++ = PKT3(0x15, 4); /* DISPATCH_DIRECT: 4 x 2 x 1 workgroups */
    *c++ = 4;
    *c++ = 2;
    *c++ = 1;
    *c++ = 1 | 1 << 2;    /* COMPUTE_SHADER_EN, FORCE_START_AT_000 */
    *c++ = PKT3(0x46, 1); /* EVENT_WRITE CS_PARTIAL_FLUSH */
    *c++ = 7 | 4 << 8;
    uint32_t ibn = (uint32_t)(c - (uint32_t *)ibuf.p);

    uint32_t cmd[256], *r = cmd;
    uint64_t ib = (uint64_t)(uintptr_t)ibuf.p;
    *r++ = PKT3(0x3f, 3); /* INDIRECT_BUFFER */
    *r++ = (uint32_t)ib;
    *r++ = (uint32_t)(ib >> 32);
    *r++ = ibn | 1u << 23; /* IB_SIZE, VALID */
    /* The second dispatch in the ring, same state but its own arguments, in threads. */
    uint32_t user2[2] = {(uint32_t)(uintptr_t)kb, (uint32_t)((uintptr_t)kb >> 32)};
    r = set_sh(r, REG_COMPUTE_USER_DATA_0, user2, 2);
    *r++ = PKT3(0x15, 4);
    *r++ = 256;
    *r++ = 3;
    *r++ = 1;
    *r++ = 1 | 1 << 2 | 1 << 5;              /* USE_THREAD_DIMENSIONS */
    *r++ = 0xffff1000;                       /* a one-dword NOP (amdgpu's gfx9 ring padding) */
    r = release_mem(r, (void *)ts, 0, 3, 0); /* GPU clock counter */
    r = release_mem(r, (void *)fence, 0x1234, 1, 0);   /* 32-bit data */
    *r++ = PKT3(0x23, 1);                              /* PRED_EXEC, no XCC */
    *r++ = 8;                                          /* EXEC_COUNT: the RELEASE_MEM */
    r = release_mem(r, (void *)skipped, 0xdead, 1, 0); /* skipped */
    *r++ = PKT3(0x23, 1);                              /* PRED_EXEC on XCC 1 (MI355X has 8) */
    *r++ = 2u << 24 | 8;
    r = release_mem(r, (void *)xcc1, 0xbeef, 1, 0);
    volatile uint32_t *wd = (uint32_t *)(sig.p + 128);
    uint64_t wda = (uint64_t)(uintptr_t)wd;
    *r++ = PKT3(0x37, 5); /* WRITE_DATA to memory (DST_SEL 5): two dwords */
    *r++ = 5 << 8 | 1 << 20;
    *r++ = (uint32_t)wda;
    *r++ = (uint32_t)(wda >> 32);
    *r++ = 0xa1;
    *r++ = 0xa2;
    *r++ = PKT3(0x37, 5); /* the same with WR_ONE_ADDR: both to wd[2], the last stays */
    *r++ = 5 << 8 | 1 << 16;
    *r++ = (uint32_t)(wda + 8);
    *r++ = (uint32_t)((wda + 8) >> 32);
    *r++ = 0xb1;
    *r++ = 0xb2;
    /* the event's mailbox and the interrupt, as tinygrad signals its timeline event on gfx9 */
    r = release_mem(r, (void *)mailbox, ev, 1, 2);
    uint64_t t0 = gpu_clock();
    submit(&q, cmd, (uint32_t)(r - cmd));
    uint32_t res = wait_event(ev, 60000, NULL);
    uint64_t t1 = gpu_clock();
    CHECK(res == KFD_IOC_WAIT_RESULT_COMPLETE, "WAIT_EVENTS after RELEASE_MEM's interrupt: %u",
          res);
    CHECK(*fence == 0x1234, "RELEASE_MEM fence 0x%x", *fence);
    CHECK(*ts >= t0 && *ts <= t1, "RELEASE_MEM GPU clock %llu outside [%llu, %llu]",
          (unsigned long long)*ts, (unsigned long long)t0, (unsigned long long)t1);
    CHECK(wd[0] == 0xa1 && wd[1] == 0xa2 && wd[2] == 0xb2 && wd[3] == 0,
          "WRITE_DATA: %x %x %x %x (a1 a2 b2 0)", wd[0], wd[1], wd[2], wd[3]);
    CHECK(*skipped == 0 && *xcc1 == 0xbeef, "PRED_EXEC: no-XCC packet wrote 0x%x, XCC-1 0x%x",
          *skipped, *xcc1);
    int bad = 0;
    for (uint32_t wy = 0; wy < 3; wy++)
        for (uint32_t wx = 0; wx < 4; wx++)
            for (uint32_t l = 0; l < 64; l++) {
                uint32_t i = (wy * 4 + wx) * 64 + l;
                if (wy < 2)
                    bad += out1[i] != pm4_fill_want(5, wx, wy, l);
                bad += out2[i] != pm4_fill_want(11, wx, wy, l);
            }
    CHECK(bad == 0, "%d of 1280 dispatch results wrong (out1[1] %u, out2[1] %u)", bad, out1[1],
          out2[1]);
    CHECK(wait_u64(q.rptr, q.put, 5), "read pointer %llu, write pointer %llu (dwords)",
          (unsigned long long)*q.rptr, (unsigned long long)q.put);
    if (!failures)
        printf("PASS pm4: SET_SH_REG + DISPATCH_DIRECT (IB and ring), RELEASE_MEM data, clock and "
               "interrupt event, PRED_EXEC, WRITE_DATA\n");

    /* WAIT_REG_MEM: (gate & 0xff) == 1; the RELEASE_MEM after it must wait.  The waiting queue
     * must not burn a core. */
    *gate = 0x100;
    r = wait_reg_mem(cmd, (void *)gate, 3, 1, 0xff);
    uint64_t wait_at = q.put;
    r = release_mem(r, (void *)fence2, 0x77, 1, 0);
    submit(&q, cmd, (uint32_t)(r - cmd));
    double cpu0 = cpu_seconds();
    usleep(300000);
    double cpu = cpu_seconds() - cpu0;
    CHECK(*fence2 == 0 && *q.rptr == wait_at,
          "RELEASE_MEM ran before its WAIT_REG_MEM held: fence 0x%x, read pointer %llu (wait "
          "at %llu)",
          *fence2, (unsigned long long)*q.rptr, (unsigned long long)wait_at);
    CHECK(cpu < 0.1, "the process used %.3f s of CPU in 0.3 s while the queue waited", cpu);
    *gate = 0x201; /* masked: 1 */
    CHECK(wait_u32(fence2, 0x77, 60), "RELEASE_MEM after WAIT_REG_MEM: fence 0x%x", *fence2);
    CHECK(wait_u64(q.rptr, q.put, 5), "read pointer after the wait");
    if (!failures)
        printf("PASS pm4 wait: WAIT_REG_MEM holds the queue (%.3f s CPU in 0.3 s), then "
               "releases it\n",
               cpu);
    return test_pm4_more(co, &q, &code, rsrc3) || failures ? 1 : 0;
}

static int test_sdma(void) {
    bo src = alloc_bo(8192, KFD_IOC_ALLOC_MEM_FLAGS_VRAM);
    bo dst = alloc_bo(8192, KFD_IOC_ALLOC_MEM_FLAGS_VRAM);
    bo sig = alloc_bo(4096, KFD_IOC_ALLOC_MEM_FLAGS_GTT);
    bo ibuf = alloc_bo(4096, KFD_IOC_ALLOC_MEM_FLAGS_GTT);
    queue q;
    if (failures || make_queue(&q, KFD_IOC_QUEUE_TYPE_SDMA) != 0)
        return 1;
    volatile uint64_t *mailbox;
    uint32_t ev = signal_event(&mailbox);
    for (int i = 0; i < 8192; i++)
        src.p[i] = (uint8_t)(i * 7 + 3);
    uint8_t *cp = dst.p, *fill = dst.p + 4096;
    volatile uint32_t *fence = (uint32_t *)sig.p, *fence2 = (uint32_t *)(sig.p + 4),
                      *cas = (uint32_t *)(sig.p + 8), *gate = (uint32_t *)(sig.p + 12),
                      *words = (uint32_t *)(sig.p + 64), *ibfence = (uint32_t *)(sig.p + 80);
    volatile uint64_t *counter = (uint64_t *)(sig.p + 16), *ts = (uint64_t *)(sig.p + 24),
                      *umax = (uint64_t *)(sig.p + 32);
    *counter = 40;
    *cas = 9;
    *umax = 0x100000000ull;
    uint64_t a;
    uint32_t cmd[256], *c = cmd;
#define LOHI(p) (a = (uint64_t)(uintptr_t)(p), *c++ = (uint32_t)a, *c++ = (uint32_t)(a >> 32))
    *c++ = 11 | 2u << 30; /* CONST_FILL, dword pattern */
    LOHI(fill + 4);
    *c++ = 0xa5c3e1f0;
    *c++ = 1000 - 1; /* bytes - 1 */
    *c++ = 1;        /* COPY_LINEAR */
    *c++ = 3001 - 1;
    *c++ = 0;
    LOHI(src.p + 3);
    LOHI(cp + 5);
    *c++ = 2; /* WRITE_UNTILED: 3 dwords */
    LOHI(words);
    *c++ = 3 - 1;
    *c++ = 0x11111111;
    *c++ = 0x22222222;
    *c++ = 0x33333333;
    *c++ = 10 | 47u << 25; /* ATOMIC ADD64 */
    LOHI(counter);
    *c++ = 2;
    *c++ = 0;
    *c++ = 0;
    *c++ = 0;
    *c++ = 0;
    *c++ = 10 | 0x08u << 25; /* ATOMIC CMPSWAP_RTN_32: 9 -> 77 */
    LOHI(cas);
    *c++ = 77;
    *c++ = 0;
    *c++ = 9;
    *c++ = 0;
    *c++ = 0;
    *c++ = 10 | (0x34u + 0x40u) << 25; /* ATOMIC UMAX_64 (no return) */
    LOHI(umax);
    *c++ = 5;
    *c++ = 1;
    *c++ = 0;
    *c++ = 0;
    *c++ = 0;
    /* Float atomics (TC_OP): FMIN_RTN_32 3.5 vs -2 -> -2; FMAX_32 (no return) 1.0 vs NaN ->
     * 1.0 (a NaN loses); FCMPSWAP_RTN_32 -0.0 == +0.0 -> 8.0; FMAX_RTN_64 -1.0 vs 2.5 -> 2.5;
     * FMIN_FLUSH_DENORM_RTN_32 1.0 vs the smallest denormal (flushed to +0) -> +0. */
    static const struct {
        uint32_t op, off;
        uint64_t init, src, cmp;
    } fa[] = {{0x02, 160, 0x40600000, 0xc0000000, 0},
              {0x43, 164, 0x3f800000, 0x7fc00000, 0},
              {0x01, 168, 0x80000000, 0x41000000, 0x00000000},
              {0x23, 176, 0xbff0000000000000ull, 0x4004000000000000ull, 0},
              {0x0a, 184, 0x3f800000, 0x00000001, 0}};
    for (unsigned i = 0; i < sizeof fa / sizeof fa[0]; i++) {
        if (fa[i].op & 0x20)
            *(volatile uint64_t *)(sig.p + fa[i].off) = fa[i].init;
        else
            *(volatile uint32_t *)(sig.p + fa[i].off) = (uint32_t)fa[i].init;
        *c++ = 10 | fa[i].op << 25;
        LOHI(sig.p + fa[i].off);
        *c++ = (uint32_t)fa[i].src;
        *c++ = (uint32_t)(fa[i].src >> 32);
        *c++ = (uint32_t)fa[i].cmp;
        *c++ = (uint32_t)(fa[i].cmp >> 32);
        *c++ = 0;
    }
    *c++ = 11; /* CONST_FILL, byte fill (FILLSIZE 0): the data's low byte */
    LOHI(fill + 2001);
    *c++ = 0x1234567a;
    *c++ = 37 - 1;
    *c++ = 13 | 2u << 8; /* TIMESTAMP GET_GLOBAL */
    LOHI(ts);
    *c++ = 0 | 2u << 16; /* NOP with 2 more dwords */
    *c++ = 0xdeadbeef;
    *c++ = 0xdeadbeef;
    /* an indirect buffer with one FENCE */
    uint32_t *ibc = (uint32_t *)ibuf.p;
    ibc[0] = 5;
    ibc[1] = (uint32_t)(uintptr_t)ibfence;
    ibc[2] = (uint32_t)((uintptr_t)ibfence >> 32);
    ibc[3] = 0x1b;
    *c++ = 4; /* INDIRECT */
    LOHI(ibc);
    *c++ = 4;
    *c++ = 0;
    *c++ = 0;
    *c++ = 5; /* FENCE */
    LOHI(fence);
    *c++ = 0xf00d;
    *c++ = 5; /* FENCE to the event's mailbox, then TRAP: tinygrad's signal */
    LOHI(mailbox);
    *c++ = ev;
    *c++ = 6;
    *c++ = ev;
    uint64_t t0 = gpu_clock();
    submit(&q, cmd, (uint32_t)(c - cmd));
    uint32_t res = wait_event(ev, 60000, NULL);
    uint64_t t1 = gpu_clock();
    CHECK(res == KFD_IOC_WAIT_RESULT_COMPLETE, "WAIT_EVENTS after SDMA TRAP: %u", res);
    CHECK(*fence == 0xf00d && *ibfence == 0x1b, "FENCE 0x%x, FENCE in the IB 0x%x", *fence,
          *ibfence);
    int bad = 0;
    for (int i = 0; i < 4096; i++) {
        uint8_t want = i >= 4 && i < 1004      ? (uint8_t)(0xa5c3e1f0u >> (8 * (i & 3)))
                       : i >= 2001 && i < 2038 ? 0x7a
                                               : 0;
        bad += fill[i] != want;
    }
    CHECK(bad == 0, "CONST_FILL (dword and byte fills): %d of 4096 bytes wrong", bad);
    const volatile uint32_t *f = (const uint32_t *)(sig.p + 160);
    CHECK(f[0] == 0xc0000000 && f[1] == 0x3f800000 && f[2] == 0x41000000 &&
              *(const volatile uint64_t *)(sig.p + 176) == 0x4004000000000000ull && f[6] == 0,
          "float ATOMICs: fmin 0x%x (c0000000), fmax 0x%x (3f800000), fcmpswap 0x%x (41000000), "
          "fmax64 0x%llx (4004000000000000), fmin flush-denorm 0x%x (0)",
          f[0], f[1], f[2], (unsigned long long)*(const volatile uint64_t *)(sig.p + 176), f[6]);
    bad = 0;
    for (int i = 0; i < 4096; i++) {
        uint8_t want = i >= 5 && i < 3006 ? (uint8_t)((i - 5 + 3) * 7 + 3) : 0;
        bad += cp[i] != want;
    }
    CHECK(bad == 0, "COPY_LINEAR: %d of 4096 bytes wrong", bad);
    CHECK(words[0] == 0x11111111 && words[1] == 0x22222222 && words[2] == 0x33333333 &&
              words[3] == 0,
          "WRITE: %x %x %x %x", words[0], words[1], words[2], words[3]);
    CHECK(*counter == 42 && *cas == 77 && *umax == 0x100000005ull,
          "ATOMIC: add64 %llu (42), cmpswap %u (77), umax64 0x%llx (0x100000005)",
          (unsigned long long)*counter, *cas, (unsigned long long)*umax);
    CHECK(*ts >= t0 && *ts <= t1, "TIMESTAMP %llu outside [%llu, %llu]", (unsigned long long)*ts,
          (unsigned long long)t0, (unsigned long long)t1);
    CHECK(wait_u64(q.rptr, q.put, 5), "SDMA read pointer %llu, write pointer %llu (bytes)",
          (unsigned long long)*q.rptr, (unsigned long long)q.put);
    if (!failures)
        printf("PASS sdma: CONST_FILL (dword, byte), COPY_LINEAR, WRITE, ATOMIC (integer, float), "
               "TIMESTAMP, NOP, INDIRECT, FENCE, TRAP event\n");

    /* POLL_REGMEM: (gate & 0xff) == 1, then a FENCE. */
    *gate = 0x300;
    c = cmd;
    *c++ = 8 | 3u << 28 | 1u << 31; /* POLL_REGMEM, func ==, memory */
    LOHI(gate);
    *c++ = 1;
    *c++ = 0xff;
    *c++ = 4 | 0xfffu << 16;
    *c++ = 5;
    LOHI(fence2);
    *c++ = 0x99;
#undef LOHI
    uint64_t poll_at = q.put;
    submit(&q, cmd, (uint32_t)(c - cmd));
    double cpu0 = cpu_seconds();
    usleep(300000);
    double cpu = cpu_seconds() - cpu0;
    CHECK(*fence2 == 0 && *q.rptr == poll_at, "FENCE ran before POLL_REGMEM held: 0x%x", *fence2);
    CHECK(cpu < 0.1, "the process used %.3f s of CPU in 0.3 s while the SDMA queue polled", cpu);
    *gate = 0x401;
    CHECK(wait_u32(fence2, 0x99, 60), "FENCE after POLL_REGMEM: 0x%x", *fence2);
    CHECK(wait_u64(q.rptr, q.put, 5), "SDMA read pointer after the poll");
    if (!failures)
        printf("PASS sdma poll: POLL_REGMEM holds the queue (%.3f s CPU in 0.3 s), then "
               "releases it\n",
               cpu);
    return failures ? 1 : 0;
}

/* Error paths: an unknown PM4 opcode and SDMA opcode stop their queue with a message naming it;
 * an SDMA copy to a wild address is a GPU memory fault (the memory-exception event names the
 * page), never a host access. */
static int test_errors(void) {
    bo sig = alloc_bo(4096, KFD_IOC_ALLOC_MEM_FLAGS_GTT);
    bo src = alloc_bo(4096, KFD_IOC_ALLOC_MEM_FLAGS_VRAM);
    queue pm4, pm4b, sdma, sdma2;
    if (failures || make_queue(&pm4, KFD_IOC_QUEUE_TYPE_COMPUTE) != 0 ||
        make_queue(&pm4b, KFD_IOC_QUEUE_TYPE_COMPUTE) != 0 ||
        make_queue(&sdma, KFD_IOC_QUEUE_TYPE_SDMA) != 0 ||
        make_queue(&sdma2, KFD_IOC_QUEUE_TYPE_SDMA) != 0)
        return 1;
    struct kfd_ioctl_create_event_args me = {0};
    me.event_type = KFD_IOC_EVENT_MEMORY;
    CHECK(ioctl(kfd, AMDKFD_IOC_CREATE_EVENT, &me) == 0, "CREATE_EVENT (memory)");
    volatile uint32_t *f1 = (uint32_t *)sig.p, *f2 = (uint32_t *)(sig.p + 4),
                      *f3 = (uint32_t *)(sig.p + 8), *f4 = (uint32_t *)(sig.p + 12);
    uint32_t cmd[64], *c = cmd;
    *c++ = PKT3(0x1e, 2); /* ATOMIC_MEM: not implemented */
    *c++ = 0;
    *c++ = 0;
    c = release_mem(c, (void *)f1, 1, 1, 0);
    submit(&pm4, cmd, (uint32_t)(c - cmd));

    /* A register-space WAIT_REG_MEM that can never hold (only the queue writes the register). */
    c = cmd;
    *c++ = PKT3(0x79, 2); /* SET_UCONFIG_REG 0xc300 = 1 */
    *c++ = 0x300;
    *c++ = 1;
    *c++ = PKT3(0x3c, 6); /* WAIT_REG_MEM register 0xc300 == 2 */
    *c++ = 3;
    *c++ = 0xc300;
    *c++ = 0;
    *c++ = 2;
    *c++ = 0xffffffff;
    *c++ = 4;
    c = release_mem(c, (void *)f4, 1, 1, 0);
    submit(&pm4b, cmd, (uint32_t)(c - cmd));

    c = cmd;
    *c++ = 3; /* SDMA opcode 3: none */
    *c++ = 5;
    *c++ = (uint32_t)(uintptr_t)f2;
    *c++ = (uint32_t)((uintptr_t)f2 >> 32);
    *c++ = 1;
    submit(&sdma2, cmd, (uint32_t)(c - cmd));

    /* COPY_LINEAR of 256 bytes to 64 MiB past the source: no buffer object is there. */
    uint64_t wild = (uint64_t)(uintptr_t)src.p + (64ull << 20);
    c = cmd;
    *c++ = 1;
    *c++ = 256 - 1;
    *c++ = 0;
    *c++ = (uint32_t)(uintptr_t)src.p;
    *c++ = (uint32_t)((uintptr_t)src.p >> 32);
    *c++ = (uint32_t)wild;
    *c++ = (uint32_t)(wild >> 32);
    *c++ = 5;
    *c++ = (uint32_t)(uintptr_t)f3;
    *c++ = (uint32_t)((uintptr_t)f3 >> 32);
    *c++ = 1;
    submit(&sdma, cmd, (uint32_t)(c - cmd));
    struct kfd_event_data data;
    uint32_t res = wait_event(me.event_id, 60000, &data);
    CHECK(res == KFD_IOC_WAIT_RESULT_COMPLETE &&
              data.memory_exception_data.va == (wild & ~4095ull) &&
              data.memory_exception_data.gpu_id == gpu_id,
          "memory exception of the wild SDMA copy: result %u, va 0x%llx (expected 0x%llx)", res,
          (unsigned long long)data.memory_exception_data.va, (unsigned long long)(wild & ~4095ull));
    usleep(300000);
    CHECK(*f1 == 0 && *pm4.rptr == 0,
          "the PM4 queue ran past an unknown opcode (fence %u, rptr %llu)", *f1,
          (unsigned long long)*pm4.rptr);
    CHECK(*f4 == 0 && *pm4b.rptr == 3,
          "the PM4 queue ran past a register wait that cannot hold "
          "(fence %u, rptr %llu)",
          *f4, (unsigned long long)*pm4b.rptr);
    CHECK(*f2 == 0 && *sdma2.rptr == 0, "the SDMA queue ran past an unknown opcode");
    CHECK(*f3 == 0 && *sdma.rptr == 0, "the SDMA queue ran past its faulting copy");
    if (!failures)
        printf("PASS errors: unknown PM4 and SDMA opcodes stop their queues, a wild SDMA copy is "
               "a memory fault\n");
    return failures ? 1 : 0;
}

/* ---- queues at the same time (kfd_driver KERNEL.co concurrent) ------------------------------
 * On the card every queue's engine runs by itself: a kernel on one AQL queue that waits for a
 * flag is still running when an SDMA FENCE, a PM4 WRITE_DATA or another AQL queue's kernel
 * writes the flag, and then finishes.  Each wait is checked to have really waited (the kernel
 * has not finished 100 ms after its launch, before the writer is submitted). */

/* The next dispatch packet of AQL queue q: a grid of n[0] x n[1] work-items in workgroups of
 * wg[0] x wg[1]; *signal (the value of an amd_signal_t, 8 bytes into it) is set to 1 and counts
 * down at the end. */
static void aql_dispatch2(queue *q, uint64_t kd, const uint32_t n[2], const uint32_t wg[2],
                          void *kernarg, volatile int64_t *signal) {
    uint64_t slot = q->put++;
    uint8_t *pkt = q->ring.p + 64 * (slot % 64);
    memset(pkt + 2, 0, 62);
    *signal = 1;
    *(uint16_t *)(pkt + 2) = n[1] > 1 || wg[1] > 1 ? 2 : 1; /* dimensions */
    *(uint16_t *)(pkt + 4) = (uint16_t)wg[0];
    *(uint16_t *)(pkt + 6) = (uint16_t)wg[1];
    *(uint16_t *)(pkt + 8) = 1;
    *(uint32_t *)(pkt + 12) = n[0];
    *(uint32_t *)(pkt + 16) = n[1];
    *(uint32_t *)(pkt + 20) = 1;
    *(uint64_t *)(pkt + 32) = kd;
    *(uint64_t *)(pkt + 40) = (uint64_t)(uintptr_t)kernarg;
    *(uint64_t *)(pkt + 56) = (uint64_t)(uintptr_t)signal - 8;
    __atomic_store_n((uint16_t *)pkt, (uint16_t)(2 | 1 << 8 | 2 << 9 | 2 << 11), __ATOMIC_RELEASE);
    __atomic_store_n(q->wptr, q->put, __ATOMIC_RELEASE);
    *q->doorbell = slot;
}

static void aql_dispatch(queue *q, uint64_t kd, uint32_t n, uint32_t wg, void *kernarg,
                         volatile int64_t *signal) {
    const uint32_t nn[2] = {n, 1}, ww[2] = {wg, 1};
    aql_dispatch2(q, kd, nn, ww, kernarg, signal);
}

static int make_aql_queue(queue *q) {
    if (make_queue(q, KFD_IOC_QUEUE_TYPE_COMPUTE_AQL) != 0)
        return -1;
    /* amd_queue_t: read index at 128, and at 136 the offset back to the base */
    *(uint32_t *)(q->ctl.p + 136) = 128;
    return 0;
}

static int wait_signal(volatile int64_t *signal, double timeout) {
    double t0 = now();
    while (__atomic_load_n(signal, __ATOMIC_ACQUIRE) != 0 && now() - t0 < timeout)
        usleep(100);
    return *signal == 0;
}

static int test_concurrent(const char *co) {
    bo code = alloc_bo(1 << 20, KFD_IOC_ALLOC_MEM_FLAGS_VRAM);
    bo out = alloc_bo(3 * 4096, KFD_IOC_ALLOC_MEM_FLAGS_VRAM);
    bo misc = alloc_bo(4096, KFD_IOC_ALLOC_MEM_FLAGS_GTT); /* flags, signals, kernargs */
    uint64_t wait_kd = load_co(co, code.p, code.size, "wait_flag.kd");
    uint64_t set_kd = load_co(co, code.p, code.size, "set_flag.kd");
    CHECK(wait_kd && set_kd, "wait_flag.kd and set_flag.kd in %s", co);
    queue a, c, pm4, sdma;
    if (failures || make_aql_queue(&a) != 0 || make_aql_queue(&c) != 0 ||
        make_queue(&pm4, KFD_IOC_QUEUE_TYPE_COMPUTE) != 0 ||
        make_queue(&sdma, KFD_IOC_QUEUE_TYPE_SDMA) != 0)
        return 1;
    volatile uint32_t *flags = (uint32_t *)misc.p;
    volatile int64_t *sig = (int64_t *)(misc.p + 72), *sig_set = (int64_t *)(misc.p + 136);
    static const char *const writer[3] = {"an SDMA FENCE", "a PM4 WRITE_DATA",
                                          "another AQL queue's kernel"};
    for (int round = 0; round < 3; round++) {
        const uint32_t want = 5 + (uint32_t)round;
        uint32_t *o = (uint32_t *)(out.p + 4096 * round);
        uint8_t *ka = misc.p + 1024 + 256 * round;
        *(uint64_t *)ka = (uint64_t)(uintptr_t)&flags[round];
        *(uint32_t *)(ka + 8) = want;
        *(uint64_t *)(ka + 16) = (uint64_t)(uintptr_t)o;
        aql_dispatch(&a, wait_kd, 128, 64, ka, sig);
        usleep(100000);
        CHECK(*sig == 1, "round %d: the waiting kernel finished before its flag was written",
              round);
        uint64_t fa = (uint64_t)(uintptr_t)&flags[round];
        if (round == 0) {
            uint32_t cmd[4] = {5 /* FENCE */, (uint32_t)fa, (uint32_t)(fa >> 32), want};
            submit(&sdma, cmd, 4);
        } else if (round == 1) {
            uint32_t cmd[5] = {PKT3(0x37, 4), 5 << 8 | 1 << 20, (uint32_t)fa, (uint32_t)(fa >> 32),
                               want};
            submit(&pm4, cmd, 5);
        } else {
            uint8_t *kb = misc.p + 2048;
            *(uint64_t *)kb = fa;
            *(uint32_t *)(kb + 8) = want;
            aql_dispatch(&c, set_kd, 64, 64, kb, sig_set);
            CHECK(wait_signal(sig_set, 30), "the flag-setting kernel on the second AQL queue");
        }
        CHECK(wait_signal(sig, 30),
              "round %d: the kernel waiting for %s did not finish (the queues do not run at "
              "the same time)",
              round, writer[round]);
        int bad = 0;
        for (uint32_t i = 0; i < 128; i++)
            bad += o[i] != want * 1000 + i;
        CHECK(bad == 0, "round %d: %d of 128 results wrong", round, bad);
    }
    if (!failures)
        printf("PASS concurrent: a kernel waiting on one AQL queue finished after an SDMA FENCE, "
               "a PM4 WRITE_DATA and another AQL queue's kernel wrote its flag\n");
    return failures ? 1 : 0;
}

/* Partial workgroups (kfd_driver KERNEL.co partial): an AQL grid of 100 x 3 work-items in
 * workgroups of 64 x 2 runs as one dispatch of 2 x 2 workgroups, the last in x of 36 work-items,
 * the last in y of 1 (HSA), all resident together: workgroup (0,0) waits for the corner (1,1). */
static int test_partial(const char *co) {
    bo code = alloc_bo(1 << 20, KFD_IOC_ALLOC_MEM_FLAGS_VRAM);
    bo out = alloc_bo(4 * 128 * 4, KFD_IOC_ALLOC_MEM_FLAGS_VRAM);
    bo misc = alloc_bo(4096, KFD_IOC_ALLOC_MEM_FLAGS_GTT);
    uint64_t kd = load_co(co, code.p, code.size, "edge_ids.kd");
    CHECK(kd, "edge_ids.kd in %s", co);
    queue a;
    if (failures || make_aql_queue(&a) != 0)
        return 1;
    volatile int64_t *sig = (int64_t *)(misc.p + 72);
    uint8_t *ka = misc.p + 1024;
    *(uint64_t *)ka = (uint64_t)(uintptr_t)out.p;
    *(uint64_t *)(ka + 8) = (uint64_t)(uintptr_t)misc.p; /* the flag */
    const uint32_t n[2] = {100, 3}, wg[2] = {64, 2};
    aql_dispatch2(&a, kd, n, wg, ka, sig);
    CHECK(wait_signal(sig, 60), "the dispatch did not finish (workgroup (0,0) waits for the "
                                "partial workgroup (1,1))");
    const uint32_t *o = (const uint32_t *)out.p;
    int bad = 0;
    for (uint32_t y = 0; y < 4; y++)
        for (uint32_t x = 0; x < 128; x++) {
            uint32_t want = x < 100 && y < 3 ? 0x80000000u | (y / 2) << 24 | (x / 64) << 16 |
                                                   (y % 2) << 8 | (x % 64)
                                             : 0;
            if (o[y * 128 + x] != want && bad++ < 5)
                printf("out[%u][%u] = 0x%08x, expected 0x%08x\n", y, x, o[y * 128 + x], want);
        }
    CHECK(bad == 0, "%d of 512 work-item ids wrong", bad);
    CHECK(*(volatile uint32_t *)misc.p == 1, "the corner workgroup did not set the flag");
    if (!failures)
        printf("PASS partial: 100 x 3 work-items in 64 x 2 workgroups, one dispatch: edge "
               "workgroups of 36 and 1 work-items with their ids, a wait across the edge\n");
    return failures ? 1 : 0;
}

int main(int argc, char **argv) {
    if (argc != 2 && argc != 3) {
        fprintf(stderr, "usage: kfd_driver KERNEL.co [pm4|sdma|errors|concurrent|partial]\n");
        return 2;
    }
    /* Topology: node 1 is the GPU. */
    char name[64] = "";
    FILE *f = fopen("/sys/devices/virtual/kfd/kfd/topology/nodes/1/gpu_id", "r");
    CHECK(f && fscanf(f, "%u", &gpu_id) == 1 && gpu_id, "nodes/1/gpu_id");
    if (f)
        fclose(f);
    f = fopen("/sys/class/kfd/kfd/topology/nodes/1/name", "r");
    CHECK(f && fscanf(f, "%63s", name) == 1 && strcmp(name, "gfx950") == 0,
          "nodes/1/name is '%s', expected gfx950", name);
    if (f)
        fclose(f);
    unsigned long long simds = 0, lds = 0, gfxv = 0, xcc = 0;
    f = fopen("/sys/devices/virtual/kfd/kfd/topology/nodes/1/properties", "r");
    char key[64];
    unsigned long long v;
    while (f && fscanf(f, "%63s %llu", key, &v) == 2) {
        if (!strcmp(key, "simd_count"))
            simds = v;
        if (!strcmp(key, "lds_size_in_kb"))
            lds = v;
        if (!strcmp(key, "gfx_target_version"))
            gfxv = v;
        if (!strcmp(key, "num_xcc"))
            xcc = v;
    }
    if (f)
        fclose(f);
    /* MI355X: 256 CUs x 4 SIMDs, 160 KiB LDS, 8 XCCs (tinygrad then makes AQL compute queues) */
    CHECK(simds == 1024 && lds == 160 && gfxv == 90500 && xcc == 8,
          "properties: simd_count %llu, "
          "lds_size_in_kb %llu, gfx_target_version %llu, num_xcc %llu",
          simds, lds, gfxv, xcc);
    /* IP discovery as amdgpu names MI355X's blocks: GC 9.5.0, SDMA 4.4.5, NBIO 7.9.1 (the GC
     * version is not the gfx target's: tinygrad picks its register headers by it) */
    static const struct {
        const char *ip;
        unsigned v[3];
    } ipv[] = {{"GC", {9, 5, 0}}, {"SDMA0", {4, 4, 5}}, {"NBIF", {7, 9, 1}}};
    for (unsigned i = 0; i < 3; i++)
        for (unsigned p = 0; p < 3; p++) {
            static const char *part[3] = {"major", "minor", "revision"};
            char path[160];
            unsigned got = 99;
            snprintf(path, sizeof path,
                     "/sys/class/drm/renderD128/device/ip_discovery/die/0/%s/0/%s", ipv[i].ip,
                     part[p]);
            f = fopen(path, "r");
            CHECK(f && fscanf(f, "%u", &got) == 1 && got == ipv[i].v[p], "%s: %u, expected %u",
                  path, got, ipv[i].v[p]);
            if (f)
                fclose(f);
        }

    kfd = open("/dev/kfd", O_RDWR | O_CLOEXEC);
    render = open("/dev/dri/renderD128", O_RDWR | O_CLOEXEC);
    CHECK(kfd >= 0 && render >= 0, "open /dev/kfd and renderD128");
    struct kfd_ioctl_get_version_args ver = {0};
    CHECK(ioctl(kfd, AMDKFD_IOC_GET_VERSION, &ver) == 0 && ver.major_version == 1 &&
              ver.minor_version == 14,
          "GET_VERSION %u.%u, expected 1.14", ver.major_version, ver.minor_version);
    /* KFD 1.14: the runtime enables itself before its first queue, as ROCm 6 and tinygrad do
     * (struct kfd_ioctl_runtime_enable_args: r_debug, mode_mask, capabilities_mask). */
    struct runtime_enable_args re = {0x1234, 1, 0xffffffff};
    CHECK(ioctl(kfd, RUNTIME_ENABLE, &re) == 0 && re.caps == 0, "RUNTIME_ENABLE: capabilities 0x%x",
          re.caps);
    struct kfd_ioctl_acquire_vm_args vm = {(uint32_t)render, gpu_id};
    CHECK(ioctl(kfd, AMDKFD_IOC_ACQUIRE_VM, &vm) == 0, "ACQUIRE_VM");
    if (failures)
        return 1;
    if (argc == 3)
        return !strcmp(argv[2], "pm4")          ? test_pm4(argv[1])
               : !strcmp(argv[2], "sdma")       ? test_sdma()
               : !strcmp(argv[2], "concurrent") ? test_concurrent(argv[1])
               : !strcmp(argv[2], "partial")    ? test_partial(argv[1])
                                                : test_errors();

    bo code = alloc_bo(1 << 20, KFD_IOC_ALLOC_MEM_FLAGS_VRAM);
    bo ring = alloc_bo(4096, KFD_IOC_ALLOC_MEM_FLAGS_GTT);
    bo misc = alloc_bo(4096, KFD_IOC_ALLOC_MEM_FLAGS_GTT); /* amd_queue_t, signal, kernargs */
    bo out = alloc_bo(4096, KFD_IOC_ALLOC_MEM_FLAGS_VRAM);
    uint64_t kd = load_co(argv[1], code.p, code.size, "fill.kd");
    uint64_t kd_bad = load_co(argv[1], code.p, code.size, "fill_bad.kd");
    CHECK(kd && kd_bad, "fill.kd and fill_bad.kd in %s", argv[1]);
    if (failures)
        return 1;

    /* amd_queue_t stand-in: write index at 56, read index at 128, and at 136 the offset back
     * to the structure's base (read_dispatch_id_field_base_byte_offset). */
    uint8_t *q = misc.p;
    *(uint32_t *)(q + 136) = 128;
    uint8_t *signal = misc.p + 256;
    uint64_t *kernarg = (uint64_t *)(misc.p + 512);
    struct kfd_ioctl_create_queue_args cq = {0};
    cq.ring_base_address = (uint64_t)(uintptr_t)ring.p;
    cq.ring_size = 4096;
    cq.gpu_id = gpu_id;
    cq.queue_type = KFD_IOC_QUEUE_TYPE_COMPUTE_AQL;
    cq.queue_percentage = 100;
    cq.read_pointer_address = (uint64_t)(uintptr_t)(q + 128);
    cq.write_pointer_address = (uint64_t)(uintptr_t)(q + 56);
    CHECK(ioctl(kfd, AMDKFD_IOC_CREATE_QUEUE, &cq) == 0, "CREATE_QUEUE");
    uint8_t *db = raw_mmap(NULL, 8192, PROT_READ | PROT_WRITE, MAP_SHARED, kfd,
                           cq.doorbell_offset & ~8191ull);
    CHECK(db != MAP_FAILED, "raw mmap of the doorbell page");
    if (failures)
        return 1;
    volatile uint64_t *doorbell = (volatile uint64_t *)(db + (cq.doorbell_offset & 8191));

    struct kfd_ioctl_create_event_args ev = {0};
    ev.event_type = KFD_IOC_EVENT_MEMORY;
    CHECK(ioctl(kfd, AMDKFD_IOC_CREATE_EVENT, &ev) == 0, "CREATE_EVENT (memory)");

    /* Dispatch packet i: 250 work-items in workgroups of 64 lanes, the last workgroup partial
     * (58 work-items), out[i] = 3 * i + 7 for i < 250 (or a wild store). */
    for (int round = 0; round < 2; round++) {
        uint8_t *pkt = ring.p + 64 * round;
        memset(pkt + 2, 0, 62);
        *(int64_t *)(signal + 8) = 1;
        kernarg[0] = (uint64_t)(uintptr_t)out.p;
        *(uint16_t *)(pkt + 2) = 1;  /* one dimension */
        *(uint16_t *)(pkt + 4) = 64; /* workgroup size */
        *(uint16_t *)(pkt + 6) = 1;
        *(uint16_t *)(pkt + 8) = 1;
        *(uint32_t *)(pkt + 12) = 250; /* grid size in work-items: not a multiple of 64 */
        *(uint32_t *)(pkt + 16) = 1;
        *(uint32_t *)(pkt + 20) = 1;
        *(uint64_t *)(pkt + 32) = round == 0 ? kd : kd_bad;
        *(uint64_t *)(pkt + 40) = (uint64_t)(uintptr_t)kernarg;
        *(uint64_t *)(pkt + 56) = (uint64_t)(uintptr_t)signal;
        /* header last: KERNEL_DISPATCH (2), barrier, system-scope acquire/release fences */
        __atomic_store_n((uint16_t *)pkt, (uint16_t)(2 | 1 << 8 | 2 << 9 | 2 << 11),
                         __ATOMIC_RELEASE);
        __atomic_store_n((uint64_t *)(q + 56), (uint64_t)round + 1, __ATOMIC_RELEASE);
        *doorbell = (uint64_t)round;
        if (round == 0) {
            double t0 = now();
            while (__atomic_load_n((int64_t *)(signal + 8), __ATOMIC_ACQUIRE) != 0 &&
                   now() - t0 < 60)
                usleep(100);
            CHECK(*(int64_t *)(signal + 8) == 0, "the completion signal did not reach 0");
            int bad = 0;
            for (int i = 0; i < 256; i++)
                bad += ((uint32_t *)out.p)[i] != (i < 250 ? 3u * (uint32_t)i + 7u : 0);
            CHECK(bad == 0, "%d of 256 results wrong (250 written, 6 untouched)", bad);
            CHECK(*(uint64_t *)(q + 128) == 1, "read index %llu after one packet",
                  (unsigned long long)*(uint64_t *)(q + 128));
            CHECK((*(uint16_t *)pkt & 0xff) == 1, "the consumed packet's header is not INVALID");
            if (!failures)
                printf("PASS dispatch: 250 results (a partial last workgroup), completion "
                       "signal, read index\n");
        } else {
            struct kfd_event_data data = {0};
            data.event_id = ev.event_id;
            struct kfd_ioctl_wait_events_args w = {0};
            w.events_ptr = (uint64_t)(uintptr_t)&data;
            w.num_events = 1;
            w.timeout = 60000;
            CHECK(ioctl(kfd, AMDKFD_IOC_WAIT_EVENTS, &w) == 0 &&
                      w.wait_result == KFD_IOC_WAIT_RESULT_COMPLETE,
                  "WAIT_EVENTS for the memory exception: result %u", w.wait_result);
            /* fill_bad stores to out + 64 MiB: the fault names that page */
            uint64_t want = ((uint64_t)(uintptr_t)out.p + (64ull << 20)) & ~4095ull;
            CHECK(data.memory_exception_data.va == want &&
                      data.memory_exception_data.gpu_id == gpu_id &&
                      data.memory_exception_data.failure.NotPresent == 1,
                  "memory exception va 0x%llx (expected 0x%llx), gpu_id %u",
                  (unsigned long long)data.memory_exception_data.va, (unsigned long long)want,
                  data.memory_exception_data.gpu_id);
            CHECK(*(int64_t *)(signal + 8) == 1, "the faulting dispatch's signal was decremented");
            if (!failures)
                printf("PASS fault: memory-exception event with the faulting page\n");
        }
    }

    /* An event nobody signals: WAIT_EVENTS times out. */
    volatile uint64_t *mailbox;
    struct kfd_event_data sd = {0};
    sd.event_id = signal_event(&mailbox);
    struct kfd_ioctl_wait_events_args sw = {(uint64_t)(uintptr_t)&sd, 1, 0, 50, 0};
    double t0 = now();
    CHECK(ioctl(kfd, AMDKFD_IOC_WAIT_EVENTS, &sw) == 0 &&
              sw.wait_result == KFD_IOC_WAIT_RESULT_TIMEOUT && now() - t0 >= 0.045,
          "WAIT_EVENTS on an unsignaled event: result %u after %.3f s", sw.wait_result, now() - t0);
    struct kfd_ioctl_set_event_args set = {sd.event_id, 0};
    CHECK(ioctl(kfd, AMDKFD_IOC_SET_EVENT, &set) == 0, "SET_EVENT");
    sw.wait_result = 99;
    CHECK(ioctl(kfd, AMDKFD_IOC_WAIT_EVENTS, &sw) == 0 &&
              sw.wait_result == KFD_IOC_WAIT_RESULT_COMPLETE,
          "WAIT_EVENTS after SET_EVENT: result %u", sw.wait_result);
    /* auto-reset: the wait consumed it */
    CHECK(ioctl(kfd, AMDKFD_IOC_WAIT_EVENTS, &sw) == 0 &&
              sw.wait_result == KFD_IOC_WAIT_RESULT_TIMEOUT,
          "auto-reset event still signaled: result %u", sw.wait_result);
    if (!failures)
        printf("PASS events: timeout, set, auto-reset\n");

    /* KFD 1.14 event ages (kfd_event_data.signal_event_data.last_event_age, the union's first 8
     * bytes): a new event is age 1, SET_EVENT makes it 2; a wait returns the age it saw; a wait
     * with an older age returns at once (it fired since), one with the current age waits. */
    struct kfd_event_data ad = {0};
    ad.event_id = signal_event(&mailbox);
    struct kfd_ioctl_wait_events_args aw = {(uint64_t)(uintptr_t)&ad, 1, 0, 50, 0};
    struct kfd_ioctl_set_event_args aset = {ad.event_id, 0};
    uint64_t age = 0;
    CHECK(ioctl(kfd, AMDKFD_IOC_SET_EVENT, &aset) == 0 &&
              ioctl(kfd, AMDKFD_IOC_WAIT_EVENTS, &aw) == 0 &&
              aw.wait_result == KFD_IOC_WAIT_RESULT_COMPLETE && (memcpy(&age, &ad, 8), age == 2),
          "event age: result %u, age %llu after SET_EVENT (expected 2)", aw.wait_result,
          (unsigned long long)age);
    age = 1;
    memcpy(&ad, &age, 8);
    t0 = now();
    CHECK(ioctl(kfd, AMDKFD_IOC_WAIT_EVENTS, &aw) == 0 &&
              aw.wait_result == KFD_IOC_WAIT_RESULT_COMPLETE && now() - t0 < 0.04 &&
              (memcpy(&age, &ad, 8), age == 2),
          "a wait with an older age did not return at once: result %u, age %llu", aw.wait_result,
          (unsigned long long)age);
    CHECK(ioctl(kfd, AMDKFD_IOC_WAIT_EVENTS, &aw) == 0 &&
              aw.wait_result == KFD_IOC_WAIT_RESULT_TIMEOUT,
          "a wait with the current age did not wait: result %u", aw.wait_result);

    /* RUNTIME_ENABLE again: EBUSY while enabled; disabled, EEXIST now that queues exist. */
    re.mode_mask = 1;
    CHECK(ioctl(kfd, RUNTIME_ENABLE, &re) == -1 && errno == EBUSY, "RUNTIME_ENABLE twice");
    re.mode_mask = 0;
    CHECK(ioctl(kfd, RUNTIME_ENABLE, &re) == 0, "RUNTIME_ENABLE with mode 0 (disable)");
    re.mode_mask = 1;
    CHECK(ioctl(kfd, RUNTIME_ENABLE, &re) == -1 && errno == EEXIST,
          "RUNTIME_ENABLE with a queue: not EEXIST");
    /* DBG_TRAP: no debugger interface; one gfxemu: line naming the op (test_kfd.sh) */
    struct dbg_trap_args dt = {(uint32_t)getpid(), 13, {0}};
    CHECK(ioctl(kfd, DBG_TRAP, &dt) == -1 && errno == EINVAL, "DBG_TRAP GET_QUEUE_SNAPSHOT");
    if (!failures)
        printf("PASS kfd 1.14: version, event ages, RUNTIME_ENABLE/disable, DBG_TRAP refused\n");
    return failures ? 1 : 0;
}
