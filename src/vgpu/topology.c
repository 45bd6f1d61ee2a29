/* topology.c - the cards the virtual GPU reports, and the sysfs/proc tree describing them.
 *
 * The files and keys are those amdkfd writes under /sys/devices/virtual/kfd/kfd/topology
 * (kfd_topology.c) and the thunk (libhsakmt, src/topology.c) parses as "name value" lines: one
 * CPU node 0, then one node per GPU.  ROCr needs a GPU cache entry whose type has the HSACU bit;
 * rocminfo refuses to start unless /proc/modules lists amdgpu.  The tree is made of real files in
 * a private directory (removed at exit) that interpose.c redirects the paths into.
 */
#include <dirent.h>
#include <errno.h>
#include <signal.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "vgpu/vgpu.h"

/* Public figures of each card (AMD Instinct data sheets; device ids from the amdgpu driver).
 * CUs are the enabled ones: MI210 104, MI300X 304, MI355X 256. */
static const vg_card cards[] = {
    {"gfx90a", GFX_ARCH_GFX90A, "AMD Instinct MI210", 90010, 0x740f, 2, 104, 4, 8, 8, 64, 1, 1700,
     16, 8192, 141, 0x26010042},
    {"gfx942", GFX_ARCH_GFX942, "AMD Instinct MI300X", 90402, 0x74a1, 0, 304, 4, 32, 8, 64, 8, 2100,
     32, 4096, 141, 0x26010042},
    {"gfx950", GFX_ARCH_GFX950, "AMD Instinct MI355X", 90500, 0x75a3, 0, 256, 4, 32, 8, 160, 8,
     2400, 32, 4096, 141, 0x26010042},
};

/* IP discovery versions (major << 16 | minor << 8 | revision) of GC, SDMA and NBIO as amdgpu's
 * discovery names each card's blocks; not the gfx target's digits (gfx90a is GC 9.4.2, gfx942
 * GC 9.4.3): tinygrad picks its register headers by them. */
static const uint32_t ip_versions[][3] = {
    [GFX_ARCH_GFX90A] = {0x090402, 0x040400, 0x070400}, /* MI210 */
    [GFX_ARCH_GFX942] = {0x090403, 0x040402, 0x070900}, /* MI300X */
    [GFX_ARCH_GFX950] = {0x090500, 0x040405, 0x070901}, /* MI355X */
};

const vg_card *vg_card_find(const char *target) {
    size_t n = strcspn(target, ":");
    for (size_t i = 0; i < sizeof cards / sizeof cards[0]; i++)
        if (strlen(cards[i].target) == n && strncmp(target, cards[i].target, n) == 0)
            return &cards[i];
    return NULL;
}

static int mkdirs(const char *path) {
    char buf[512];
    snprintf(buf, sizeof buf, "%s", path);
    for (char *p = buf + 1; *p; p++) {
        if (*p != '/')
            continue;
        *p = 0;
        if (mkdir(buf, 0755) != 0 && errno != EEXIST)
            return -1;
        *p = '/';
    }
    return mkdir(buf, 0755) != 0 && errno != EEXIST ? -1 : 0;
}

/* Write a file of the tree (path relative to vg.dir), creating its directories. */
static int put(const char *rel, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
static int put(const char *rel, const char *fmt, ...) {
    char path[512];
    snprintf(path, sizeof path, "%s%s", vg.dir, rel);
    char *slash = strrchr(path, '/');
    *slash = 0;
    if (mkdirs(path) != 0)
        return -1;
    *slash = '/';
    FILE *f = fopen(path, "w");
    if (!f)
        return -1;
    va_list ap;
    va_start(ap, fmt);
    vfprintf(f, fmt, ap);
    va_end(ap);
    return fclose(f);
}

static uint64_t host_mem_bytes(void) {
    long pages = sysconf(_SC_PHYS_PAGES), size = sysconf(_SC_PAGESIZE);
    return pages > 0 && size > 0 ? (uint64_t)pages * (uint64_t)size : 16ull << 30;
}

static pid_t owner; /* the process that built the tree */

#define NODES "/sys/devices/virtual/kfd/kfd/topology/nodes"

static int cpu_node(void) {
    long cores = sysconf(_SC_NPROCESSORS_ONLN);
    if (cores < 1)
        cores = 1;
    int r = put(NODES "/0/gpu_id", "0\n") | put(NODES "/0/name", "\n");
    r |= put(NODES "/0/properties",
             "cpu_cores_count %ld\nsimd_count 0\nmem_banks_count 1\ncaches_count 0\n"
             "io_links_count %u\np2p_links_count 0\ncpu_core_id_base 0\nsimd_id_base 0\n"
             "max_waves_per_simd 0\nlds_size_in_kb 0\ngds_size_in_kb 0\nnum_gws 0\n"
             "wave_front_size 0\narray_count 0\nsimd_arrays_per_engine 0\ncu_per_simd_array 0\n"
             "simd_per_cu 0\nmax_slots_scratch_cu 0\ngfx_target_version 0\nvendor_id 0\n"
             "device_id 0\nlocation_id 0\ndomain 0\ndrm_render_minor 0\nhive_id 0\n"
             "num_sdma_engines 0\nnum_sdma_xgmi_engines 0\nnum_sdma_queues_per_engine 0\n"
             "num_cp_queues 0\nmax_engine_clk_ccompute 3000\n",
             cores, vg.ngpus);
    r |= put(NODES "/0/mem_banks/0/properties",
             "heap_type 0\nsize_in_bytes %llu\nflags 0\nwidth 64\nmem_clk_max 3200\n",
             (unsigned long long)host_mem_bytes());
    for (unsigned g = 0; g < vg.ngpus; g++) {
        char rel[256];
        snprintf(rel, sizeof rel, NODES "/0/io_links/%u/properties", g);
        /* type 2: PCIe (CRAT_IOLINK_TYPE_PCIEXPRESS); flags 1: enabled */
        r |= put(rel,
                 "type 2\nversion_major 0\nversion_minor 0\nnode_from 0\nnode_to %u\n"
                 "weight 20\nmin_latency 0\nmax_latency 0\nmin_bandwidth 0\n"
                 "max_bandwidth 0\nrecommended_transfer_size 0\nflags 1\n",
                 g + 1);
    }
    return r;
}

/* Capability bits (HSA_CAPABILITY in the thunk's hsakmttypes.h): QueueSizePowerOfTwo [3],
 * QueueSize32bit [4], DoorbellType [13:12] = 2 (gfx9's 64-bit doorbells).  SVMAPISupported [23]
 * stays off: the virtual GPU has no SVM. */
#define VG_CAPABILITY (1u << 3 | 1u << 4 | 2u << 12)

static int gpu_node(unsigned g) {
    const vg_card *c = vg.card;
    unsigned node = g + 1;
    char rel[256];
    int r = 0;
    snprintf(rel, sizeof rel, NODES "/%u/gpu_id", node);
    r |= put(rel, "%u\n", VG_GPU_ID(g));
    snprintf(rel, sizeof rel, NODES "/%u/name", node);
    r |= put(rel, "%s\n", c->target);
    unsigned simd_base = 0x80001000u + g * 0x1000u;
    snprintf(rel, sizeof rel, NODES "/%u/properties", node);
    r |= put(rel,
             "cpu_cores_count 0\nsimd_count %u\nmem_banks_count 1\ncaches_count 3\n"
             "io_links_count %u\np2p_links_count 0\ncpu_core_id_base 0\nsimd_id_base %u\n"
             "max_waves_per_simd %u\nlds_size_in_kb %u\ngds_size_in_kb 0\nnum_gws 64\n"
             "wave_front_size 64\narray_count %u\nsimd_arrays_per_engine 1\n"
             "cu_per_simd_array %u\nsimd_per_cu %u\nmax_slots_scratch_cu 32\n"
             "gfx_target_version %u\nvendor_id 4098\ndevice_id %u\nlocation_id %u\ndomain 0\n"
             "drm_render_minor %u\nhive_id 0\nnum_sdma_engines 2\nnum_sdma_xgmi_engines 0\n"
             "num_sdma_queues_per_engine 8\nnum_cp_queues 24\nmax_engine_clk_fcompute %u\n"
             "local_mem_size %llu\nfw_version 78\ncapability %u\ncapability2 0\ndebug_prop 0\n"
             "sdma_fw_version 8\nunique_id %llu\nnum_xcc %u\nmax_engine_clk_ccompute 3000\n",
             c->cus * c->simd_per_cu, vg.ngpus, simd_base, c->waves_per_simd, c->lds_kb,
             c->shader_engines, c->cus / c->shader_engines, c->simd_per_cu, c->gfx_target_version,
             c->device_id, (0x03u + g) << 8, VG_RENDER_MINOR + g, c->max_clock_mhz,
             (unsigned long long)vg.vram, VG_CAPABILITY, 0x5a5a000000000000ull + g, c->xcc);
    snprintf(rel, sizeof rel, NODES "/%u/mem_banks/0/properties", node);
    /* heap_type 1: HSA_HEAPTYPE_FRAME_BUFFER_PUBLIC (all of VRAM host-visible, large BAR) */
    r |= put(rel, "heap_type 1\nsize_in_bytes %llu\nflags 0\nwidth 4096\nmem_clk_max 1600\n",
             (unsigned long long)vg.vram);
    /* Cache type bits (HsaCacheType): data [0], instruction [1], CPU [2], HSACU [3]. */
    static const struct {
        unsigned level, type;
    } cache[3] = {{1, 0x9}, {1, 0xa}, {2, 0x9}};
    for (unsigned i = 0; i < 3; i++) {
        unsigned kb = cache[i].level == 2 ? vg.card->l2_kb : cache[i].type == 0xa ? 64 : c->l1_kb;
        snprintf(rel, sizeof rel, NODES "/%u/caches/%u/properties", node, i);
        r |= put(rel,
                 "processor_id_low %u\nlevel %u\nsize %u\ncache_line_size %u\n"
                 "cache_lines_per_tag 1\nassociation 16\nlatency 0\ntype %u\nsibling_map 1\n",
                 simd_base, cache[i].level, kb, cache[i].level == 2 ? 128 : 64, cache[i].type);
    }
    /* io_link 0 to the CPU, then one XGMI-less PCIe link to each peer GPU. */
    unsigned link = 0;
    for (unsigned to = 0; to <= vg.ngpus; to++) {
        if (to == node)
            continue;
        snprintf(rel, sizeof rel, NODES "/%u/io_links/%u/properties", node, link++);
        r |= put(rel,
                 "type 2\nversion_major 0\nversion_minor 0\nnode_from %u\nnode_to %u\n"
                 "weight %u\nmin_latency 0\nmax_latency 0\nmin_bandwidth 0\nmax_bandwidth 0\n"
                 "recommended_transfer_size 0\nflags 1\n",
                 node, to, to == 0 ? 20 : 40);
    }
    /* The render node's sysfs device: IP discovery (GC, SDMA, NBIO versions) as tinygrad reads
     * it, and the PCI ids. */
    char dev[128];
    snprintf(dev, sizeof dev, "/sys/class/drm/renderD%u/device", VG_RENDER_MINOR + g);
    snprintf(rel, sizeof rel, "%s/vendor", dev);
    r |= put(rel, "0x1002\n");
    snprintf(rel, sizeof rel, "%s/device", dev);
    r |= put(rel, "0x%04x\n", c->device_id);
    /* hardware ids (amdgpu's soc15_hw_ip.h: GC 11, SDMA0 42, NBIF 108) and the card's versions */
    const struct {
        const char *name;
        unsigned id;
        uint32_t v;
    } ips[] = {{"GC", 11, ip_versions[c->arch][0]},
               {"SDMA0", 42, ip_versions[c->arch][1]},
               {"NBIF", 108, ip_versions[c->arch][2]}};
    for (unsigned i = 0; i < 3; i++) {
        unsigned maj = ips[i].v >> 16, min = ips[i].v >> 8 & 0xff, rev = ips[i].v & 0xff;
        const char *fields[3] = {"major", "minor", "revision"};
        unsigned vals[3] = {maj, min, rev};
        for (unsigned f = 0; f < 3; f++) {
            snprintf(rel, sizeof rel, "%s/ip_discovery/die/0/%s/0/%s", dev, ips[i].name, fields[f]);
            r |= put(rel, "%u\n", vals[f]);
        }
        snprintf(rel, sizeof rel, "%s/ip_discovery/die/0/%u/0/major", dev, ips[i].id);
        r |= put(rel, "%u\n", maj);
        snprintf(rel, sizeof rel, "%s/ip_discovery/die/0/%u/0/minor", dev, ips[i].id);
        r |= put(rel, "%u\n", min);
        snprintf(rel, sizeof rel, "%s/ip_discovery/die/0/%u/0/revision", dev, ips[i].id);
        r |= put(rel, "%u\n", rev);
    }
    snprintf(rel, sizeof rel, "/dev/dri/renderD%u", VG_RENDER_MINOR + g);
    r |= put(rel, "%s", "");
    return r;
}

/* /proc/modules as it is, plus amdgpu if it is not loaded (rocminfo checks for it). */
static int modules(void) {
    char *text = NULL;
    size_t len = 0;
    FILE *out = open_memstream(&text, &len);
    if (!out)
        return -1;
    FILE *in = fopen("/proc/modules", "r");
    int have = 0;
    if (in) {
        char line[1024];
        while (fgets(line, sizeof line, in)) {
            if (strncmp(line, "amdgpu ", 7) == 0)
                have = 1;
            fputs(line, out);
        }
        fclose(in);
    }
    if (!have)
        fputs("amdgpu 9203712 0 - Live 0x0000000000000000\n", out);
    fclose(out);
    int r = put("/proc/modules", "%s", text);
    free(text);
    return r;
}

/* Some virtual machines' kernels publish no CPU caches (no /sys/devices/system/cpu/cpuN/cache),
 * and the thunk then refuses the CPU node ("Fail to get cache info for node 0").  Describe a
 * plain L1 data / L2 unified hierarchy per CPU instead; interpose.c redirects the cache
 * directories only when the real ones are missing. */
static int cpu_caches(void) {
    long cores = sysconf(_SC_NPROCESSORS_CONF);
    int r = 0;
    for (long c = 0; c < cores && c < 1024; c++) {
        static const struct {
            unsigned level;
            const char *type, *size;
        } idx[2] = {{1, "Data", "32K"}, {2, "Unified", "1024K"}};
        for (unsigned i = 0; i < 2; i++) {
            static const char *dirs[2] = {"/sys/devices/system/node/node0/cpu%ld/cache/index%u",
                                          "/sys/devices/system/cpu/cpu%ld/cache/index%u"};
            for (unsigned d = 0; d < 2; d++) {
                char base[256], rel[320];
                snprintf(base, sizeof base, dirs[d], c, i);
                snprintf(rel, sizeof rel, "%s/level", base);
                r |= put(rel, "%u\n", idx[i].level);
                snprintf(rel, sizeof rel, "%s/type", base);
                r |= put(rel, "%s\n", idx[i].type);
                snprintf(rel, sizeof rel, "%s/size", base);
                r |= put(rel, "%s\n", idx[i].size);
                snprintf(rel, sizeof rel, "%s/coherency_line_size", base);
                r |= put(rel, "64\n");
                snprintf(rel, sizeof rel, "%s/ways_of_associativity", base);
                r |= put(rel, "8\n");
                snprintf(rel, sizeof rel, "%s/physical_line_partition", base);
                r |= put(rel, "1\n");
                snprintf(rel, sizeof rel, "%s/shared_cpu_list", base);
                r |= put(rel, "%ld\n", c);
                snprintf(rel, sizeof rel, "%s/shared_cpu_map", base);
                r |= put(rel, "%lx\n", c < 63 ? 1l << c : 0l);
            }
        }
    }
    return r;
}

static void remove_tree(const char *path);

/* Trees of processes that died without running their exit handlers (ROCr aborts on a GPU
 * fault; a program may be killed): remove those whose process is gone. */
static void remove_stale(const char *tmp) {
    DIR *d = opendir(tmp);
    if (!d)
        return;
    struct dirent *e;
    while ((e = readdir(d))) {
        long pid;
        int at = 0;
        if (sscanf(e->d_name, "gfxemu-vgpu-%ld-%n", &pid, &at) != 1 || !at || pid <= 0)
            continue;
        if (kill((pid_t)pid, 0) == 0 || errno != ESRCH)
            continue;
        char path[512];
        snprintf(path, sizeof path, "%s/%s", tmp, e->d_name);
        remove_tree(path);
    }
    closedir(d);
}

int vg_topology_build(void) {
    owner = getpid();
    const char *tmp = getenv("TMPDIR");
    remove_stale(tmp && *tmp ? tmp : "/tmp");
    snprintf(vg.dir, sizeof vg.dir, "%s/gfxemu-vgpu-%ld-XXXXXX", tmp && *tmp ? tmp : "/tmp",
             (long)getpid());
    if (!mkdtemp(vg.dir)) {
        vg_msg("cannot create the virtual GPU's sysfs tree in %s: %s", vg.dir, strerror(errno));
        vg.dir[0] = 0;
        return -1;
    }
    int r = put("/sys/devices/virtual/kfd/kfd/topology/generation_id", "1\n");
    r |= put("/sys/devices/virtual/kfd/kfd/topology/system_properties",
             "platform_oem 0\nplatform_id 0\nplatform_rev 0\n");
    r |= cpu_node();
    for (unsigned g = 0; g < vg.ngpus; g++)
        r |= gpu_node(g);
    r |= put("/sys/module/amdgpu/initstate", "live\n");
    r |= put("/sys/module/amdgpu/refcnt", "0\n");
    r |= put("/sys/module/amdgpu/holders/.keep", "%s", "");
    struct stat st;
    vg.fake_cpu_cache = stat("/sys/devices/system/cpu/cpu0/cache", &st) != 0;
    if (vg.fake_cpu_cache)
        r |= cpu_caches();
    r |= put("/dev/kfd", "%s", "");
    r |= modules();
    char link[512], target[512];
    snprintf(link, sizeof link, "%s/sys/class/kfd", vg.dir);
    r |= mkdirs(link);
    snprintf(link, sizeof link, "%s/sys/class/kfd/kfd", vg.dir);
    snprintf(target, sizeof target, "%s/sys/devices/virtual/kfd/kfd", vg.dir);
    r |= symlink(target, link);
    if (r) {
        vg_msg("cannot write the virtual GPU's sysfs tree in %s", vg.dir);
        vg_topology_remove();
        return -1;
    }
    return 0;
}

static void remove_tree(const char *path) {
    DIR *d = opendir(path);
    if (d) {
        struct dirent *e;
        while ((e = readdir(d))) {
            if (strcmp(e->d_name, ".") == 0 || strcmp(e->d_name, "..") == 0)
                continue;
            char sub[1024];
            snprintf(sub, sizeof sub, "%s/%s", path, e->d_name);
            if (e->d_type == DT_DIR)
                remove_tree(sub);
            else
                unlink(sub);
        }
        closedir(d);
    }
    rmdir(path);
}

void vg_topology_remove(void) {
    /* A forked child that exits must not take its parent's tree with it. */
    if (vg.dir[0] && getpid() == owner)
        remove_tree(vg.dir);
    vg.dir[0] = 0;
}
