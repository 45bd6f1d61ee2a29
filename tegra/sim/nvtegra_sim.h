/* nvtegra_sim.h - a simulated nvmap + nvgpu kernel driver and GPU for testing libnvtegra
 * without a Jetson.  Tests only: link build/libnvtegra_sim.a and pass nvt_sim_os(sim) to
 * nvt_dev_open().
 *
 * What it does: implements the ioctls libnvtegra uses with the validation the real drivers do
 * (ioctl numbers per ABI, struct fields, fd kinds, power-of-two rings, alignment, ordering of
 * the binding calls) and their error codes; dmabufs are memfds, so fds and mappings are real
 * and leaks show up; a GPU thread fetches GPFIFO entries after doorbells and executes host
 * methods (semaphores), copy-engine LAUNCH_DMA and compute QMD launches, where the "kernel" is
 * a C function registered for the QMD's program address.
 *
 * What it cannot do: confirm that any of this matches the real hardware or kernel (it is built
 * from the same reading of the ABI as the driver), run SASS, or observe each MMIO store (a
 * doorbell is seen when the GPU thread polls the doorbell word; see docs/tegra.md). */
#ifndef NVTEGRA_SIM_H
#define NVTEGRA_SIM_H

#include "nvtegra.h"

typedef struct nvt_sim nvt_sim;

typedef struct nvt_sim_launch {
    nvt_sim *sim;
    const uint32_t *qmd; /* the 64 QMD dwords as the GPU read them */
    uint64_t program_va;
    uint32_t grid[3], block[3];
    uint32_t shared_bytes, registers, barriers;
    uint64_t cbuf0_va;
    const uint8_t *cbuf0; /* constant bank 0 as the GPU sees it */
    uint32_t cbuf0_size;
    uint32_t sm_config;   /* TARGET_SM_CONFIG_SHARED_MEM_SIZE, checked against MIN/MAX */
    uint32_t local_bytes; /* SHADER_LOCAL_MEMORY_LOW_SIZE: local memory per thread */
    /* the channel's compute state at the launch: windows, local-memory store (VA, bytes) */
    uint64_t shared_window, local_window, local_va, local_store_bytes;
} nvt_sim_launch;

/* A simulated kernel: return 0, or -EFAULT for a memory fault (the channel then faults). */
typedef int (*nvt_sim_kernel_fn)(const nvt_sim_launch *launch, void *user);

typedef struct nvt_sim_stats {
    int open_fds;             /* device, AS, TSG, channel and dmabuf fds open through the backend */
    int cpu_mappings;         /* live mmaps made through the backend */
    int gpu_mappings;         /* live MAP_BUFFER_EX mappings */
    int handles;              /* live nvmap handles */
    uint64_t bytes;           /* bytes allocated in live handles */
    uint64_t max_gpu_va_end;  /* highest end of a MAP_BUFFER_EX mapping */
    unsigned untagged_allocs; /* nvmap ALLOCs without a tag (the kernel warns) */
    unsigned doorbells, bad_doorbells;
    unsigned gpfifo_entries, launches, copies, sem_releases, sem_acquires;
    unsigned faults;
    char last_fault[256];
    uint32_t last_wdt_status, last_wdt_timeout_ms;
    uint32_t last_nvmap_flags;
    uint32_t last_map_flags;
    /* the address space ALLOC_AS created */
    uint32_t as_big_page_size;
    uint64_t as_va_start, as_va_end;
    /* the last WDT status a channel received before its SETUP_BIND; SETUP_BINDs refused for
     * the deterministic/watchdog/usermode rules */
    uint32_t wdt_before_setup_bind;
    unsigned setup_bind_refusals;
    /* host SYS_MEMBARs executed, and semaphore releases that followed a launch or copy with no
     * SYS_MEMBAR in between (its writes were not guaranteed visible to the CPU) */
    unsigned membars, unfenced_releases;
    unsigned local_launches; /* launches with local memory, all checks passed */
} nvt_sim_stats;

nvt_sim *nvt_sim_create(nvt_abi abi);
void nvt_sim_destroy(nvt_sim *sim);
const nvt_os *nvt_sim_os(nvt_sim *sim);
/* Which device nodes exist: 0 none (open fails with ENOENT), 1 all (default), 2 /dev/nvmap
 * and only the legacy /dev/nvhost-ctrl-gpu ctrl node. */
void nvt_sim_set_present(nvt_sim *sim, int present);
/* Total bytes nvmap may hand out (default 1 GiB): larger ALLOCs fail with ENOMEM. */
void nvt_sim_set_mem_limit(nvt_sim *sim, uint64_t bytes);
/* Stop or restart the GPU thread's fetching (doorbells stay latched while paused). */
void nvt_sim_pause(nvt_sim *sim, int paused);
int nvt_sim_register_kernel(nvt_sim *sim, uint64_t program_va, nvt_sim_kernel_fn fn, void *user);
/* GPU virtual address -> host pointer for len bytes, or NULL if any byte is unmapped.  Only
 * valid inside a kernel callback (the GPU thread holds the simulator's lock). */
void *nvt_sim_translate(nvt_sim *sim, uint64_t va, uint64_t len);
void nvt_sim_stats_get(nvt_sim *sim, nvt_sim_stats *out);

#endif
