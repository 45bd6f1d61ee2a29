/* runasm.c - the drop-in for frameworks' mock GPUs: gfxemu_run_asm() runs raw instruction bytes
 * the way a command processor would after a PM4 dispatch, with host addresses as device addresses.
 *
 * A mock driver knows only what it wrote into the hardware registers: the code address, the grid,
 * COMPUTE_PGM_RSRC2, the COMPUTE_USER_DATA values and the scratch size.  From those this file
 * builds a synthetic 64-byte kernel descriptor (see LLVM's "AMDGPU Usage", "Kernel Descriptor")
 * and launches it through the ordinary dispatcher (src/dispatch/), so initial wave state, LDS,
 * scratch, the worker pool, the watchdog and fault records are the same code as for code objects.
 *
 * Memory is the host-address mode of src/mem: device address == host pointer, and a kernel can
 * touch only the ranges registered with gfxemu_map_host(); anything else is a memory fault
 * returned as a non-zero result, never a wild host access.
 *
 * The entry points carry no handle (the framework's signature has none), so this file keeps the
 * one piece of process-wide state in the library: one device per architecture, the registered
 * ranges and a small cache of decoded programs, all behind one mutex.  The last fault and error
 * are per calling thread.
 */
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "dispatch/dispatch.h"
#include "exec/pair.h"

#define RA_MAX_USER_SGPRS 16u /* COMPUTE_USER_DATA_0..15 */
#define RA_CACHE 8            /* decoded programs kept (a framework reruns the same kernels) */

/* One decoded piece of raw code and the kernel handle that runs it. */
typedef struct ra_code {
    gfx_module m; /* only arch, text, text_size and text_addr are used */
    ld_symbol sym;
    xprog prog;
    xprog prog64; /* RDNA wave32: the wave64 build a pair's vector instructions run (pair.c) */
    struct gfx_kernel k;
    uint64_t stamp; /* last use, for eviction */
    int wave32;     /* RDNA: decoded for wave32 waves */
} ra_code;

static pthread_mutex_t ra_lock = PTHREAD_MUTEX_INITIALIZER;
static gfx_device *ra_dev[GFX_ARCH_COUNT];
/* The registered ranges (host regions only, merged as gmem_map_host does); each device's address
 * space holds the same host regions. */
static gmem *ra_ranges;
static ra_code *ra_cache[RA_CACHE];
static uint64_t ra_clock;

static _Thread_local gfx_fault ra_fault;
static _Thread_local char ra_error[2048];

static int fail(int r, const char *fmt, const char *a) {
    snprintf(ra_error, sizeof ra_error, fmt, a);
    return r;
}

/* "gfx950", "gfx942", "gfx90a", or the family names a framework passes: "cdna"/"cdna4" is gfx950
 * (the first target), "cdna3" gfx942, "cdna2" gfx90a.  Target features after a colon
 * ("gfx950:sramecc+") are ignored.  NULL or "" means gfx950. */
static int parse_arch(const char *name, gfx_arch *out) {
    static const struct {
        const char *name;
        gfx_arch arch;
    } names[] = {
        {"gfx950", GFX_ARCH_GFX950},   {"cdna", GFX_ARCH_GFX950},     {"cdna4", GFX_ARCH_GFX950},
        {"gfx942", GFX_ARCH_GFX942},   {"cdna3", GFX_ARCH_GFX942},    {"gfx90a", GFX_ARCH_GFX90A},
        {"cdna2", GFX_ARCH_GFX90A},    {"gfx1100", GFX_ARCH_GFX1100}, {"rdna3", GFX_ARCH_GFX1100},
        {"gfx1201", GFX_ARCH_GFX1201}, {"rdna4", GFX_ARCH_GFX1201}};
    if (!name || !*name) {
        *out = GFX_ARCH_GFX950;
        return 0;
    }
    size_t len = strcspn(name, ":");
    for (size_t i = 0; i < sizeof names / sizeof names[0]; i++) {
        if (strlen(names[i].name) == len && strncmp(name, names[i].name, len) == 0) {
            *out = names[i].arch;
            return 0;
        }
    }
    return -1;
}

static unsigned env_uint(const char *name, unsigned long long max, unsigned long long *out) {
    const char *s = getenv(name);
    if (!s || !*s)
        return 0;
    char *end;
    unsigned long long v = strtoull(s, &end, 0);
    if (*end || v > max)
        return 0;
    *out = v;
    return 1;
}

/* Make dev's host regions exactly the registered ranges (after a failed change or a dispatch's
 * own ranges).  0, or -1 when a range collides with the device's own memory. */
static int sync_ranges(gfx_device *dev) {
    gmem_unmap_host_all(dev->mem);
    for (size_t i = 0; ra_ranges && i < gmem_count(ra_ranges); i++) {
        const gmem_region *r = gmem_at(ra_ranges, i);
        if (gmem_map_host(dev->mem, r->host, r->size, r->ro) != 0)
            return -1;
    }
    return 0;
}

/* The device for arch, created on first use with every registered range mapped.
 * GFXEMU_THREADS sets its worker count (default: one per core). */
static gfx_device *device(gfx_arch arch) {
    if (ra_dev[arch])
        return ra_dev[arch];
    unsigned long long threads = 0;
    env_uint("GFXEMU_THREADS", 1024, &threads);
    gfx_device *dev;
    if (dp_device_create(arch, (unsigned)threads, &dev) != GFX_OK)
        return NULL;
    if (sync_ranges(dev) != 0) {
        dp_device_free(dev);
        return NULL;
    }
    return ra_dev[arch] = dev;
}

static void code_free(ra_code *c) {
    if (!c)
        return;
    xprog_free(&c->prog);
    xprog_free(&c->prog64);
    free(c->m.text);
    free(c);
}

/* The cached program for these exact bytes at this address, or a newly decoded one. */
static ra_code *code_get(gfx_arch arch, uint64_t addr, const uint8_t *bytes, uint32_t size,
                         int wave32) {
    ra_code **slot = &ra_cache[0];
    for (unsigned i = 0; i < RA_CACHE; i++) {
        ra_code *c = ra_cache[i];
        if (c && c->m.arch == arch && c->m.text_addr == addr && c->m.text_size == size &&
            c->wave32 == wave32 && memcmp(c->m.text, bytes, size) == 0) {
            c->stamp = ++ra_clock;
            return c;
        }
        if (!c || (*slot && c->stamp < (*slot)->stamp))
            slot = &ra_cache[i];
        if (!c)
            break;
    }
    ra_code *c = calloc(1, sizeof *c);
    if (!c || !(c->m.text = malloc(size))) {
        free(c);
        return NULL;
    }
    memcpy(c->m.text, bytes, size);
    c->m.arch = arch;
    c->m.text_size = size;
    c->m.text_addr = addr; /* s_getpc and fault pcs give host addresses, as the driver sees them */
    c->wave32 = wave32;
    if (xprog_build_waves(&c->prog, (isa_arch)arch, c->m.text, size, addr, wave32 ? 32 : 64) != 0 ||
        (c->prog.wave32 &&
         (xprog_build_waves(&c->prog64, (isa_arch)arch, c->m.text, size, addr, 64) != 0 ||
          x_pair_build(&c->prog, &c->prog64) != 0))) {
        xprog_free(&c->prog);
        xprog_free(&c->prog64);
        free(c->m.text);
        free(c);
        return NULL;
    }
    c->sym.name = "run_asm";
    c->sym.addr = addr;
    c->sym.size = size;
    c->sym.has_kd = 1;
    c->sym.kd_addr = addr;
    c->k.m = &c->m;
    c->k.sym = &c->sym;
    c->k.entry = addr;
    c->k.entry_pc = 0;
    c->k.prog = &c->prog;
    code_free(*slot);
    c->stamp = ++ra_clock;
    *slot = c;
    return c;
}

static void put32(uint8_t *p, uint32_t v) {
    for (int i = 0; i < 4; i++)
        p[i] = (uint8_t)(v >> (8 * i));
}

/* rsrc1's floating-point mode fields ("AMDGPU Usage", COMPUTE_PGM_RSRC1): FLOAT_ROUND_MODE_32/16_64
 * and FLOAT_DENORM_MODE_32/16_64 [19:12], DX10_CLAMP [21], IEEE_MODE [23], FP16_OVFL [26]. */
#define RSRC1_MODE_BITS (0xffu << 12 | 1u << 21 | 1u << 23 | 1u << 26)

/* The descriptor CP would have read: rsrc2 as given, LDS from its LDS_SIZE field, the whole VGPR
 * and AGPR files (raw code does not say how many it uses), and the floating-point mode of rsrc1's
 * mode fields, or (rsrc1 < 0) the one clang-22 gives OpenCL/HIP kernels (no denormal flushing,
 * DX10_CLAMP and IEEE on). */
static void make_kd(uint8_t kd[LD_KD_SIZE], gfx_arch arch, uint32_t rsrc2, int64_t rsrc1,
                    int wave32) {
    memset(kd, 0, LD_KD_SIZE);
    /* LDS_SIZE granule of COMPUTE_PGM_RSRC2 ("AMDGPU Usage", GRANULATED_LDS_SIZE) */
    uint32_t granule = isa_targets[arch].lds_granule;
    put32(kd + 0, (rsrc2 >> 15 & 0x1ff) * granule);
    put32(kd + 44, 63); /* rsrc3: ACCUM_OFFSET 256 */
    /* rsrc1: gfx12 has no DX10_CLAMP/IEEE bits (21 and 23 mean other things there) */
    uint32_t no_clamp_ieee = isa_targets[arch].rdna >= 12 ? 1u << 21 | 1u << 23 : 0;
    uint32_t modes =
        rsrc1 >= 0 ? (uint32_t)rsrc1 & RSRC1_MODE_BITS : 3u << 16 | 3u << 18 | 1u << 21 | 1u << 23;
    put32(kd + 48, 63u | (modes & ~no_clamp_ieee));
    put32(kd + 52, rsrc2);
    if (wave32) /* kernel_code_properties ENABLE_WAVEFRONT_SIZE32 */
        kd[57] |= 1u << 2;
}

/* RDNA runs wave32 unless the arch string asks for wave64 with LLVM's feature name
 * ("gfx1100:wavefrontsize64", "rdna4:+wavefrontsize64"); CDNA is always wave64. */
static int wants_wave32(gfx_arch a, const char *arch) {
    if (!isa_is_rdna(a))
        return 0;
    const char *f = arch ? strchr(arch, ':') : NULL;
    return !(f && strstr(f, "wavefrontsize64"));
}

static int run(uint64_t code, uint32_t code_size, uint32_t gx, uint32_t gy, uint32_t gz,
               uint32_t lx, uint32_t ly, uint32_t lz, uint64_t kernarg, uint32_t rsrc2,
               uint32_t scratch_per_lane, const char *arch, const uint32_t *user_sgprs,
               uint32_t n_user_sgprs, const uint64_t *ranges, size_t n_ranges, int64_t rsrc1) {
    memset(&ra_fault, 0, sizeof ra_fault);
    ra_error[0] = 0;
    gfx_arch a;
    if (parse_arch(arch, &a) != 0)
        return fail(GFX_ERR_ARCH,
                    "run_asm: unknown architecture '%s' (gfx950, gfx942, gfx90a, cdna, cdna4, "
                    "cdna3, cdna2, gfx1100, rdna3, gfx1201, rdna4)",
                    arch);
    int wave32 = wants_wave32(a, arch);
    if (!code || code_size < 4)
        return fail(GFX_ERR_INVALID, "run_asm: no code (%s)",
                    code ? "code_size is less than one instruction" : "the code pointer is NULL");
    if (n_user_sgprs > RA_MAX_USER_SGPRS || (n_user_sgprs && !user_sgprs))
        return fail(GFX_ERR_INVALID, "run_asm: %s",
                    n_user_sgprs > RA_MAX_USER_SGPRS ? "more than 16 user SGPRs"
                                                     : "user_sgprs is NULL");
    /* Without user SGPRs the kernarg pointer goes to s[0:1], as for a kernel that enables only
     * the kernarg segment pointer. */
    uint32_t user[RA_MAX_USER_SGPRS] = {(uint32_t)kernarg, (uint32_t)(kernarg >> 32)};
    unsigned nuser = 2;
    if (user_sgprs) {
        memcpy(user, user_sgprs, n_user_sgprs * sizeof *user);
        nuser = n_user_sgprs;
    }

    if (n_ranges && !ranges)
        return fail(GFX_ERR_INVALID, "run_asm: %s", "ranges is NULL");
    int *ro = NULL;
    if (n_ranges) {
        /* Proven mapped before anything runs: a kernel must never reach a host page that is
         * not there (issue #17: a SIGSEGV in the host is a bug). */
        const uint64_t (*rg)[2] = (const uint64_t (*)[2])ranges;
        char why[256];
        size_t bad = 0;
        for (size_t i = 0; i < n_ranges; i++)
            if (!rg[i][1] || rg[i][0] + rg[i][1] < rg[i][0]) {
                snprintf(why, sizeof why, "range %zu (0x%llx, %llu) is %s", i,
                         (unsigned long long)rg[i][0], (unsigned long long)rg[i][1],
                         rg[i][1] ? "wrapping around the address space" : "empty");
                return fail(GFX_ERR_INVALID, "run_asm: %s", why);
            }
        if (!(ro = calloc(n_ranges, sizeof *ro)))
            return fail(GFX_ERR_NOMEM, "run_asm: %s", "out of memory");
        if (gmem_host_check_n(rg, n_ranges, ro, &bad, why, sizeof why) != 0) {
            free(ro);
            char msg[320];
            snprintf(msg, sizeof msg, "range %zu: %s", bad, why);
            return fail(GFX_ERR_INVALID, "run_asm: %s", msg);
        }
    }
    pthread_mutex_lock(&ra_lock);
    int r = GFX_ERR_NOMEM;
    gfx_device *dev = device(a);
    /* The dispatch's own ranges join the registered ones for this dispatch only. */
    for (size_t i = 0; dev && i < n_ranges; i++) {
        if (gmem_map_host(dev->mem, (void *)(uintptr_t)ranges[2 * i], ranges[2 * i + 1], ro[i]) !=
            0) {
            sync_ranges(dev);
            r = fail(GFX_ERR_INVALID, "run_asm: %s",
                     "a range collides with gfxemu's own device memory");
            goto out;
        }
    }
    ra_code *c =
        dev ? code_get(a, code, (const uint8_t *)(uintptr_t)code, code_size, wave32) : NULL;
    if (!c) {
        fail(r, "run_asm: %s",
             dev ? "cannot decode the code (out of memory)"
                 : "cannot create the device (out of memory, or a "
                   "registered range collides with gfxemu's own memory)");
        goto out;
    }
    uint8_t kd[LD_KD_SIZE];
    make_kd(kd, a, rsrc2, rsrc1, wave32);
    ld_kd_decode(kd, &c->k.kd);
    c->k.user_sgprs = user;
    c->k.n_user_sgprs = nuser;
    unsigned long long max_insts = 0;
    env_uint("GFXEMU_MAX_INSTS", ~0ull, &max_insts);
    gfx_launch_options o = {.max_insts = max_insts, .private_size = scratch_per_lane};
    const uint32_t grid[3] = {gx, gy, gz}, block[3] = {lx, ly, lz};
    r = gfx_launch(dev, &c->k, grid, block, NULL, 0, &o, NULL);
    c->k.user_sgprs = NULL;
    if (r != GFX_OK) {
        ra_fault = dev->fault;
        snprintf(ra_error, sizeof ra_error, "%s", dev->error[0] ? dev->error : gfx_result_str(r));
    }
out:
    if (dev && n_ranges)
        sync_ranges(dev);
    pthread_mutex_unlock(&ra_lock);
    free(ro);
    return r;
}

int gfxemu_run_asm(uint64_t code, uint32_t code_size, uint32_t gx, uint32_t gy, uint32_t gz,
                   uint32_t lx, uint32_t ly, uint32_t lz, uint64_t kernarg, uint32_t rsrc2,
                   uint32_t scratch_per_lane, const char *arch, const uint32_t *user_sgprs,
                   uint32_t n_user_sgprs) {
    return run(code, code_size, gx, gy, gz, lx, ly, lz, kernarg, rsrc2, scratch_per_lane, arch,
               user_sgprs, n_user_sgprs, NULL, 0, -1);
}

int gfxemu_run_asm_ranges(uint64_t code, uint32_t code_size, uint32_t gx, uint32_t gy, uint32_t gz,
                          uint32_t lx, uint32_t ly, uint32_t lz, uint64_t kernarg, uint32_t rsrc2,
                          uint32_t scratch_per_lane, const char *arch, const uint32_t *user_sgprs,
                          uint32_t n_user_sgprs, const uint64_t *ranges, size_t n_ranges) {
    return run(code, code_size, gx, gy, gz, lx, ly, lz, kernarg, rsrc2, scratch_per_lane, arch,
               user_sgprs, n_user_sgprs, ranges, n_ranges, -1);
}

int gfxemu_run_asm_rsrc1(uint64_t code, uint32_t code_size, uint32_t gx, uint32_t gy, uint32_t gz,
                         uint32_t lx, uint32_t ly, uint32_t lz, uint64_t kernarg, uint32_t rsrc2,
                         uint32_t scratch_per_lane, const char *arch, const uint32_t *user_sgprs,
                         uint32_t n_user_sgprs, const uint64_t *ranges, size_t n_ranges,
                         uint32_t rsrc1) {
    return run(code, code_size, gx, gy, gz, lx, ly, lz, kernarg, rsrc2, scratch_per_lane, arch,
               user_sgprs, n_user_sgprs, ranges, n_ranges, rsrc1);
}

int gfxemu_map_host(const void *ptr, uint64_t size) {
    ra_error[0] = 0;
    if (!ptr || !size)
        return fail(GFX_ERR_INVALID, "map_host: %s", !ptr ? "NULL pointer" : "size 0");
    uint64_t base = (uint64_t)(uintptr_t)ptr;
    if (base + size < base)
        return fail(GFX_ERR_INVALID, "map_host: %s", "range wraps around the address space");
    int ro;
    char why[256];
    if (gmem_host_check(ptr, size, &ro, why, sizeof why) != 0)
        return fail(GFX_ERR_INVALID, "map_host: %s", why);
    pthread_mutex_lock(&ra_lock);
    int r = GFX_OK;
    if (!ra_ranges && !(ra_ranges = gmem_create())) {
        r = fail(GFX_ERR_NOMEM, "map_host: %s", "out of memory");
        goto out;
    }
    for (unsigned a = 0; a < GFX_ARCH_COUNT; a++) {
        if (ra_dev[a] && gmem_map_host(ra_dev[a]->mem, (void *)ptr, size, ro) != 0) {
            for (unsigned b = 0; b <= a; b++)
                if (ra_dev[b])
                    sync_ranges(ra_dev[b]);
            r = fail(GFX_ERR_INVALID, "map_host: %s",
                     "the range collides with gfxemu's own device memory");
            goto out;
        }
    }
    if (gmem_map_host(ra_ranges, (void *)ptr, size, ro) != 0)
        r = fail(GFX_ERR_NOMEM, "map_host: %s", "out of memory");
out:
    pthread_mutex_unlock(&ra_lock);
    return r;
}

/* size 0: the whole registered region containing ptr; else exactly [ptr, ptr+size). */
static int unmap(const void *ptr, uint64_t size) {
    ra_error[0] = 0;
    pthread_mutex_lock(&ra_lock);
    int r = GFX_OK;
    int bad = !ra_ranges || (size ? gmem_unmap_host_range(ra_ranges, (void *)ptr, size)
                                  : gmem_unmap_host(ra_ranges, (void *)ptr)) != 0;
    if (bad)
        r = fail(GFX_ERR_INVALID, "unmap_host: %s",
                 size ? "no byte of the range is registered" : "the address is not registered");
    for (unsigned a = 0; !bad && a < GFX_ARCH_COUNT; a++)
        if (ra_dev[a])
            sync_ranges(ra_dev[a]);
    pthread_mutex_unlock(&ra_lock);
    return r;
}

int gfxemu_unmap_host(const void *ptr) { return unmap(ptr, 0); }

int gfxemu_unmap_host_range(const void *ptr, uint64_t size) {
    if (!size)
        return fail(GFX_ERR_INVALID, "unmap_host: %s", "size 0");
    return unmap(ptr, size);
}

int gfxemu_last_fault(gfx_fault *out) {
    if (!out)
        return GFX_ERR_INVALID;
    *out = ra_fault;
    return GFX_OK;
}

const char *gfxemu_last_error(void) { return ra_error; }
