/* cmd.c - pure command encoders: method headers, GPFIFO entries, host semaphores, compute and
 * copy launches, QMD v03_00, and the GPFIFO ring arithmetic.  No state, no OS: everything here
 * is testable bit by bit against the field positions in docs/tegra.md (NVIDIA open-gpu-doc
 * clc56f.h / clc7c0.h / clc7c0qmd.h / clc7b5.h). */
#include "nvtegra.h"

#include <errno.h>

uint32_t nvt_cmd_header(unsigned sec_op, unsigned subch, uint32_t method, uint32_t count) {
    /* SEC_OP 31:29, COUNT/IMMD 28:16, SUBCH 15:13, ADDRESS 11:0 in dwords. */
    return (sec_op & 7u) << 29 | (count & 0x1fffu) << 16 | (subch & 7u) << 13 |
           ((method >> 2) & 0xfffu);
}

uint64_t nvt_cmd_gpfifo_entry(uint64_t gpu_va, uint32_t len_dwords) {
    /* ENTRY0 GET 31:2 = va[31:2]; ENTRY1 GET_HI 7:0 = va[39:32], LENGTH 30:10. */
    return (gpu_va & 0xfffffffffcull) | (uint64_t)(len_dwords & 0x1fffffu) << 42;
}

static void pb_put(nvt_pb *pb, uint32_t w) {
    if (pb->len < pb->cap)
        pb->words[pb->len++] = w;
    else
        pb->overflow = 1;
}

void nvt_pb_method(nvt_pb *pb, unsigned subch, uint32_t method, const uint32_t *data, uint32_t n) {
    pb_put(pb, nvt_cmd_header(NVT_SEC_INC, subch, method, n));
    for (uint32_t i = 0; i < n; i++)
        pb_put(pb, data[i]);
}

void nvt_pb_immd(nvt_pb *pb, unsigned subch, uint32_t method, uint32_t value) {
    pb_put(pb, nvt_cmd_header(NVT_SEC_IMMD, subch, method, value));
}

static void pb_semaphore(nvt_pb *pb, uint64_t va, uint64_t payload, uint32_t execute) {
    /* SEM_ADDR_LO (31:2), SEM_ADDR_HI (7:0), PAYLOAD_LO, PAYLOAD_HI, SEM_EXECUTE: five
     * consecutive methods, one INC header. */
    uint32_t d[5] = {(uint32_t)va & ~3u, (uint32_t)(va >> 32) & 0xffu, (uint32_t)payload,
                     (uint32_t)(payload >> 32), execute};
    nvt_pb_method(pb, 0, NVT_HOST_SEM_ADDR_LO, d, 5);
}

void nvt_pb_sem_release(nvt_pb *pb, uint64_t va, uint64_t payload, int payload64, int wfi) {
    pb_semaphore(pb, va, payload,
                 NVT_SEM_RELEASE | (wfi ? NVT_SEM_RELEASE_WFI : 0) |
                     (payload64 ? NVT_SEM_PAYLOAD_64 : 0));
}

/* ACQUIRE_SWITCH_TSG (bit 12): let other TSGs run while this one waits. */
#define SEM_ACQUIRE_SWITCH_TSG (1u << 12)

void nvt_pb_sem_acquire(nvt_pb *pb, uint64_t va, uint64_t payload, int payload64) {
    /* A 64-bit timeline never wraps, so it waits with STRICT_GEQ; a 32-bit one may wrap and
     * waits with CIRC_GEQ, as nvgpu's syncpoint waits do. */
    uint32_t op = payload64 ? NVT_SEM_ACQ_STRICT_GEQ | NVT_SEM_PAYLOAD_64 : NVT_SEM_ACQ_CIRC_GEQ;
    pb_semaphore(pb, va, payload, op | SEM_ACQUIRE_SWITCH_TSG);
}

void nvt_pb_membar(nvt_pb *pb) {
    /* MEM_OP_A..D (clc56f.h): A and B only matter for TLB invalidates, C's MEMBAR_TYPE 0 is
     * SYS_MEMBAR (memory visible to the CPU too), D 31:27 is the operation, MEMBAR = 5. */
    const uint32_t d[4] = {0, 0, 0, 5u << 27};
    nvt_pb_method(pb, 0, NVT_HOST_MEM_OP_A, d, 4);
}

void nvt_pb_launch_qmd(nvt_pb *pb, uint64_t qmd_va) {
    uint32_t a = (uint32_t)(qmd_va >> 8);
    nvt_pb_method(pb, NVT_SUBCH_COMPUTE, NVT_COMPUTE_SEND_PCAS_A, &a, 1);
    uint32_t b = NVT_PCAS_ACTION_PREFETCH_SCHEDULE;
    nvt_pb_method(pb, NVT_SUBCH_COMPUTE, NVT_COMPUTE_SEND_SIGNALING_PCAS2_B, &b, 1);
}

void nvt_pb_copy(nvt_pb *pb, uint64_t dst_va, uint64_t src_va, uint32_t bytes) {
    uint32_t off[4] = {(uint32_t)(src_va >> 32), (uint32_t)src_va, (uint32_t)(dst_va >> 32),
                       (uint32_t)dst_va};
    nvt_pb_method(pb, NVT_SUBCH_COPY, NVT_COPY_OFFSET_IN_UPPER, off, 4);
    uint32_t line[2] = {bytes, 1};
    nvt_pb_method(pb, NVT_SUBCH_COPY, NVT_COPY_LINE_LENGTH_IN, line, 2);
    uint32_t launch =
        NVT_DMA_NON_PIPELINED | NVT_DMA_FLUSH_ENABLE | NVT_DMA_SRC_PITCH | NVT_DMA_DST_PITCH;
    nvt_pb_method(pb, NVT_SUBCH_COPY, NVT_COPY_LAUNCH_DMA, &launch, 1);
}

/* ---- QMD v03_00 --------------------------------------------------------------------------- */

void nvt_qmd_set(uint32_t *qmd, unsigned hi, unsigned lo, uint64_t value) {
    for (unsigned b = lo; b <= hi; b++) {
        uint32_t bit = 1u << (b & 31);
        if ((value >> (b - lo)) & 1)
            qmd[b >> 5] |= bit;
        else
            qmd[b >> 5] &= ~bit;
    }
}

uint64_t nvt_qmd_get(const uint32_t *qmd, unsigned hi, unsigned lo) {
    uint64_t v = 0;
    for (unsigned b = hi + 1; b-- > lo;)
        v = v << 1 | ((qmd[b >> 5] >> (b & 31)) & 1);
    return v;
}

/* The shared-memory carve-outs of an SM of compute capability 8.7, in KiB (CUDA C++
 * Programming Guide, compute capability 8.x: 0, 8, 16, 32, 64, 100, 132 or 164 KB); the QMD
 * fields hold KiB/4 + 1 (clc7c0qmd.h's SM_CONFIG encoding as we read it).  Only hardware
 * interprets this (docs/tegra-abi.md: unverified).  0 means "does not fit". */
static uint32_t smem_config(uint32_t bytes) {
    static const uint32_t kib[] = {8, 16, 32, 64, 100, 132, 164};
    for (unsigned i = 0; i < sizeof kib / sizeof kib[0]; i++)
        if (bytes <= kib[i] * 1024u)
            return kib[i] / 4 + 1;
    return 0;
}

int nvt_qmd_build(uint32_t *qmd, const nvt_qmd_desc *d) {
    uint64_t threads = (uint64_t)d->block[0] * d->block[1] * d->block[2];
    if (!d->grid[0] || !d->grid[1] || !d->grid[2] || d->grid[0] > 0x7fffffffu ||
        d->grid[1] > 0xffffu || d->grid[2] > 0xffffu || !threads || threads > 1024 ||
        d->block[2] > 64 || d->registers > 255 || d->barriers > 16 || (d->program_va & 127) ||
        d->program_va >> 40 || (d->cbuf0_va & 255) || d->cbuf0_va >> 40 || (d->cbuf0_size & 15) ||
        d->cbuf0_size > 0x10000 || (d->release_va & 3) || d->release_va >> 40 ||
        d->shared_bytes > NVT_SHARED_MAX || (d->local_bytes & 15) || d->local_bytes > 0xffffffu)
        return -EINVAL;
    /* sm_8x: the driver reserves 1 KiB of shared memory per block (CUDA C++ Programming Guide,
     * compute capability 8.x), so the block's allocation and the SM configuration both count
     * it on top of the kernel's own (static + dynamic) shared memory. */
    uint32_t shared = d->shared_bytes + NVT_SHARED_RESERVED;
    uint32_t cfg = smem_config(shared);
    for (int i = 0; i < NVT_QMD_WORDS; i++)
        qmd[i] = 0;
    nvt_qmd_set(qmd, 133, 128, 0x3f); /* QMD_GROUP_ID */
    nvt_qmd_set(qmd, 134, 134, 1);    /* SM_GLOBAL_CACHING_ENABLE */
    nvt_qmd_set(qmd, 191, 186, 0x3f); /* INVALIDATE_*: caches see this launch's CPU writes */
    nvt_qmd_set(qmd, 415, 384, d->grid[0]);
    nvt_qmd_set(qmd, 431, 416, d->grid[1]);
    nvt_qmd_set(qmd, 463, 448, d->grid[2]);
    nvt_qmd_set(qmd, 378, 378, 1); /* API_VISIBLE_CALL_LIMIT = NO_CHECK (0 would be _32) */
    nvt_qmd_set(qmd, 561, 544, shared);
    /* One SM configuration, the smallest that holds the block: MIN = MAX = TARGET.  TARGET left
     * 0 would ask for a 0 KiB carve-out below the block's own allocation. */
    nvt_qmd_set(qmd, 567, 562, cfg); /* MIN_SM_CONFIG_SHARED_MEM_SIZE */
    nvt_qmd_set(qmd, 574, 569, cfg); /* MAX_SM_CONFIG_SHARED_MEM_SIZE */
    nvt_qmd_set(qmd, 662, 657, cfg); /* TARGET_SM_CONFIG_SHARED_MEM_SIZE */
    nvt_qmd_set(qmd, 579, 576, 0);   /* QMD_VERSION */
    nvt_qmd_set(qmd, 583, 580, 3);   /* QMD_MAJOR_VERSION */
    nvt_qmd_set(qmd, 607, 592, d->block[0]);
    nvt_qmd_set(qmd, 623, 608, d->block[1]);
    nvt_qmd_set(qmd, 639, 624, d->block[2]);
    nvt_qmd_set(qmd, 656, 648, d->registers);
    nvt_qmd_set(qmd, 759, 736, d->local_bytes); /* SHADER_LOCAL_MEMORY_LOW_SIZE, per thread */
    nvt_qmd_set(qmd, 767, 763, d->barriers);
    if (d->release_va) {
        nvt_qmd_set(qmd, 799, 768, (uint32_t)d->release_va);
        nvt_qmd_set(qmd, 807, 800, d->release_va >> 32);
        nvt_qmd_set(qmd, 823, 823, 1); /* RELEASE0_ENABLE */
        nvt_qmd_set(qmd, 831, 830, 1); /* RELEASE0 structure: one word */
        nvt_qmd_set(qmd, 863, 832, d->release_payload);
    }
    if (d->cbuf0_size) {
        nvt_qmd_set(qmd, 640, 640, 1); /* CONSTANT_BUFFER_VALID(0) */
        nvt_qmd_set(qmd, 1055, 1024, (uint32_t)d->cbuf0_va);
        nvt_qmd_set(qmd, 1072, 1056, d->cbuf0_va >> 32);
        nvt_qmd_set(qmd, 1087, 1075, d->cbuf0_size >> 4);
    }
    nvt_qmd_set(qmd, 1567, 1536, (uint32_t)d->program_va);
    nvt_qmd_set(qmd, 1584, 1568, d->program_va >> 32);
    return 0;
}

uint32_t nvt_ring_free(uint32_t put, uint32_t get, uint32_t entries) {
    return (get - put - 1) & (entries - 1);
}
