/* kfd_driver.c - a program that drives /dev/kfd itself, as a framework's driver does (no ROCm
 * runtime), run by test_kfd.sh under `gfxemu exec --arch gfx950`.  It reads the sysfs topology,
 * allocates VRAM/GTT buffer objects with KFD ioctls, maps them for the CPU with a raw mmap
 * syscall on the render node at the returned mmap offsets (which the preloaded library cannot
 * see: the pages must be right because the device file's bytes at that offset are the object),
 * creates an AQL queue, dispatches a clang-22 gfx950 kernel and waits for its completion signal,
 * then dispatches a kernel with a wild pointer and waits for the memory-exception event.
 * Prints "PASS ..." lines; exit 0 only if every check held.
 *
 * usage: kfd_driver KERNEL.co   (the code object of tests/vgpu/kfd_kernels.cl)
 */
#define _GNU_SOURCE
#include <elf.h>
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
            memcpy(base + ph[i].p_vaddr, buf + ph[i].p_offset, ph[i].p_filesz);
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

int main(int argc, char **argv) {
    if (argc != 2) {
        fprintf(stderr, "usage: kfd_driver KERNEL.co\n");
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
    unsigned long long simds = 0, lds = 0, gfxv = 0;
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
    }
    if (f)
        fclose(f);
    /* MI355X: 256 CUs x 4 SIMDs, 160 KiB LDS */
    CHECK(simds == 1024 && lds == 160 && gfxv == 90500,
          "properties: simd_count %llu, "
          "lds_size_in_kb %llu, gfx_target_version %llu",
          simds, lds, gfxv);

    kfd = open("/dev/kfd", O_RDWR | O_CLOEXEC);
    render = open("/dev/dri/renderD128", O_RDWR | O_CLOEXEC);
    CHECK(kfd >= 0 && render >= 0, "open /dev/kfd and renderD128");
    struct kfd_ioctl_get_version_args ver = {0};
    CHECK(ioctl(kfd, AMDKFD_IOC_GET_VERSION, &ver) == 0 && ver.major_version == 1, "GET_VERSION");
    struct kfd_ioctl_acquire_vm_args vm = {(uint32_t)render, gpu_id};
    CHECK(ioctl(kfd, AMDKFD_IOC_ACQUIRE_VM, &vm) == 0, "ACQUIRE_VM");
    if (failures)
        return 1;

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

    /* Dispatch packet i: 4 workgroups of 64 lanes, out[i] = 3 * i + 7 (or a wild store). */
    for (int round = 0; round < 2; round++) {
        uint8_t *pkt = ring.p + 64 * round;
        memset(pkt + 2, 0, 62);
        *(int64_t *)(signal + 8) = 1;
        kernarg[0] = (uint64_t)(uintptr_t)out.p;
        *(uint16_t *)(pkt + 2) = 1;  /* one dimension */
        *(uint16_t *)(pkt + 4) = 64; /* workgroup size */
        *(uint16_t *)(pkt + 6) = 1;
        *(uint16_t *)(pkt + 8) = 1;
        *(uint32_t *)(pkt + 12) = 256; /* grid size in work-items */
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
                bad += ((uint32_t *)out.p)[i] != 3u * (uint32_t)i + 7u;
            CHECK(bad == 0, "%d of 256 results wrong", bad);
            CHECK(*(uint64_t *)(q + 128) == 1, "read index %llu after one packet",
                  (unsigned long long)*(uint64_t *)(q + 128));
            CHECK((*(uint16_t *)pkt & 0xff) == 1, "the consumed packet's header is not INVALID");
            if (!failures)
                printf("PASS dispatch: 256 results, completion signal, read index\n");
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
    struct kfd_ioctl_create_event_args se = {0};
    se.event_type = KFD_IOC_EVENT_SIGNAL;
    se.auto_reset = 1;
    CHECK(ioctl(kfd, AMDKFD_IOC_CREATE_EVENT, &se) == 0, "CREATE_EVENT (signal)");
    struct kfd_event_data sd = {0};
    sd.event_id = se.event_id;
    struct kfd_ioctl_wait_events_args sw = {(uint64_t)(uintptr_t)&sd, 1, 0, 50, 0};
    double t0 = now();
    CHECK(ioctl(kfd, AMDKFD_IOC_WAIT_EVENTS, &sw) == 0 &&
              sw.wait_result == KFD_IOC_WAIT_RESULT_TIMEOUT && now() - t0 >= 0.045,
          "WAIT_EVENTS on an unsignaled event: result %u after %.3f s", sw.wait_result, now() - t0);
    struct kfd_ioctl_set_event_args set = {se.event_id, 0};
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
    return failures ? 1 : 0;
}
