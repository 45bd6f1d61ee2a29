/* test_runasm_bounds.c - host-address mode must be a sandbox: a kernel run through
 * gfxemu_run_asm() cannot read or write host memory outside the ranges registered with
 * gfxemu_map_host(), through any memory path (global, flat, flat apertures, scratch, MUBUF with
 * huge num_records/stride/soffset, SMEM, s_scratch, loads into LDS, DS, atomics), even with
 * addresses crafted at a range's ends and at the 2^64 wraparound.
 *
 * The registered page sits between two PROT_NONE guard pages, so an access that escapes the
 * bounds checks by a little crashes the test (and ASan reports it under check-sanitize); one that
 * escapes far (the wraparound cases) hits unmapped or kernel addresses and crashes too.  Every
 * case must end in a fault record of the expected kind, and the page's bytes must be unchanged.
 * Positive controls (an in-range store at the last dword) show the addresses reach the kernel. */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

#include "common/asm.h"
#include "common/check.h"
#include "gfxemu.h"

static uint8_t *page; /* the registered range: [page, page + psz) */
static size_t psz;
static const char *arch;

/* s[0:1] = page, s[2:3] = a crafted address, s[4:7] = a buffer resource, s8 = a scalar */
static uint32_t user[9];

static void set_addr(uint64_t a) { user[2] = (uint32_t)a, user[3] = (uint32_t)(a >> 32); }
/* V#: base [47:0], stride [61:48], num_records [95:64], dword 3 as given. */
static void set_rsrc(uint64_t base, uint32_t stride, uint32_t num, uint32_t w3) {
    user[4] = (uint32_t)base;
    user[5] = (uint32_t)(base >> 32) & 0xffff;
    user[5] |= (stride & 0x3fff) << 16;
    user[6] = num;
    user[7] = w3;
}

/* Run text (+ s_endpgm) on one workgroup of 64 lanes; rsrc2 gets USER_SGPR_COUNT = 9 added.
 * Returns the gfxemu_run_asm() result and the fault in *f. */
static int run(const char *text, uint32_t rsrc2, uint32_t scratch, gfx_fault *f) {
    char src[1024];
    snprintf(src, sizeof src, "%s\ns_endpgm\n", text);
    size_t n;
    uint8_t *code = asm_snippet(arch, src, &n);
    if (!code) {
        CHECK(0, "%s: cannot assemble: %s", arch, text);
        memset(f, 0, sizeof *f);
        return -1;
    }
    int r = gfxemu_run_asm((uint64_t)(uintptr_t)code, (uint32_t)n, 1, 1, 1, 64, 1, 1, 0,
                           rsrc2 | 9u << 1, scratch, arch, user, 9);
    gfxemu_last_fault(f);
    free(code);
    return r;
}

/* An LDS case: out-of-range LDS accesses fault under memcheck only (GFXEMU_MEMCHECK=1); without
 * it they do what the hardware does (reads 0, writes dropped: src/exec/lds.c), so the run
 * succeeds, and the registered page still stays as it was. */
static void expect_fault(const char *what, const char *text, uint32_t rsrc2, uint32_t scratch,
                         gfx_fault_kind kind);
static void expect_lds(const char *what, const char *text, uint32_t rsrc2) {
    setenv("GFXEMU_MEMCHECK", "1", 1);
    expect_fault(what, text, rsrc2, 0, GFX_FAULT_LDS);
    unsetenv("GFXEMU_MEMCHECK");
    memset(page, 0x5a, psz);
    gfx_fault f;
    int r = run(text, rsrc2, 0, &f);
    size_t i = 0;
    while (i < psz && page[i] == 0x5a)
        i++;
    CHECK(r == 0, "%s %s without memcheck: result %d (%s)", arch, what, r, f.message);
    CHECK(i == psz, "%s %s without memcheck: the registered page changed at byte %zu", arch, what,
          i);
}

/* The case must fault with kind and leave the page as it was. */
static void expect_fault(const char *what, const char *text, uint32_t rsrc2, uint32_t scratch,
                         gfx_fault_kind kind) {
    memset(page, 0x5a, psz);
    gfx_fault f;
    int r = run(text, rsrc2, scratch, &f);
    size_t i = 0;
    while (i < psz && page[i] == 0x5a)
        i++;
    CHECK(r == GFX_ERR_FAULT && f.kind == kind, "%s %s: result %d, fault %d (%s), want kind %d",
          arch, what, r, f.kind, f.message, kind);
    CHECK(i == psz, "%s %s: the registered page changed at byte %zu", arch, what, i);
    if (getenv("VERBOSE"))
        printf("%s %s: %s\n", arch, what, f.message);
}

int main(void) {
    psz = (size_t)sysconf(_SC_PAGESIZE);
    uint8_t *map = mmap(NULL, 3 * psz, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
    if (map == MAP_FAILED) {
        perror("mmap");
        return 1;
    }
    page = map + psz;
    if (mprotect(map, psz, PROT_NONE) || mprotect(page + psz, psz, PROT_NONE)) {
        perror("mprotect");
        return 1;
    }
    CHECK(gfxemu_map_host(page, psz) == 0, "map_host: %s", gfxemu_last_error());
    const uint64_t P = (uint64_t)(uintptr_t)page, E = P + psz, TOP = 0;
    const uint32_t SCRATCH_EN = 1, LDS_1 = 1u << 15; /* one LDS granule */
    static const char *const arches[] = {"gfx950", "gfx942"};

    for (unsigned ai = 0; ai < 2; ai++) {
        arch = arches[ai];
        memset(user, 0, sizeof user);
        user[0] = (uint32_t)P, user[1] = (uint32_t)(P >> 32);

        /* Positive controls: the last dword of the page is reachable by global, SMEM and buffer
         * stores, so the faults below are the bounds checks at work, not a setup mistake. */
        memset(page, 0, psz);
        set_addr(E - 4);
        set_rsrc(E - 4, 0, 4, 0);
        gfx_fault f;
        CHECK(run("v_mov_b32 v1, 0\nv_mov_b32 v2, 7\ns_mov_b64 exec, 1\n"
                  "global_store_dword v1, v2, s[2:3]",
                  0, 0, &f) == 0 &&
                  page[psz - 4] == 7,
              "%s control global: %s", arch, f.message);
        CHECK(run("s_mov_b32 s9, 9\ns_store_dword s9, s[2:3], 0\ns_dcache_wb", 0, 0, &f) == 0 &&
                  page[psz - 4] == 9,
              "%s control s_store: %s", arch, f.message);
        CHECK(run("v_mov_b32 v2, 11\ns_mov_b64 exec, 1\nbuffer_store_dword v2, off, s[4:7], 0", 0,
                  0, &f) == 0 &&
                  page[psz - 4] == 11,
              "%s control buffer: %s", arch, f.message);

        /* A V# base need not be dword-aligned (host pointers are arbitrary): the scalar buffer
         * load reads the bytes there (UBSan caught a misaligned u32 load; fuzz_runasm). */
        memcpy(page + 1, "\x11\x22\x33\x44", 4);
        set_rsrc(P + 1, 0, 16, 0);
        CHECK(run("s_buffer_load_dword s9, s[4:7], 0\ns_waitcnt lgkmcnt(0)\n"
                  "s_mov_b32 s8, 0\ns_mov_b64 s[2:3], s[0:1]\ns_store_dword s9, s[2:3], 8\n"
                  "s_dcache_wb",
                  0, 0, &f) == 0 &&
                  !memcmp(page + 8, "\x11\x22\x33\x44", 4),
              "%s unaligned s_buffer_load: %s", arch, f.message);

        /* ---- global / flat ---- */
        const char *gstore = "v_mov_b32 v1, 0\nglobal_store_dword v1, v2, s[2:3]";
        const char *gload = "v_mov_b32 v1, 0\nglobal_load_dword v2, v1, s[2:3]";
        set_addr(E - 2);
        expect_fault("global store straddling the end", gstore, 0, 0, GFX_FAULT_MEMORY);
        expect_fault("global load straddling the end", gload, 0, 0, GFX_FAULT_MEMORY);
        set_addr(E);
        expect_fault("global store at the end", gstore, 0, 0, GFX_FAULT_MEMORY);
        set_addr(P - 4);
        expect_fault("global store below the start", gstore, 0, 0, GFX_FAULT_MEMORY);
        set_addr(E - 12);
        expect_fault("global dwordx4 past the end",
                     "v_mov_b32 v1, 0\n"
                     "global_store_dwordx4 v1, v[4:7], s[2:3]",
                     0, 0, GFX_FAULT_MEMORY);
        set_addr(TOP - 2); /* bytes 2^64-2 .. 2^64+1 */
        expect_fault("global store wrapping 2^64", gstore, 0, 0, GFX_FAULT_MEMORY);
        set_addr(TOP - 0x10); /* saddr + 32-bit VGPR offset wraps to 0x10 */
        expect_fault("global saddr+voffset wrapping",
                     "v_mov_b32 v1, 0x20\n"
                     "global_store_dword v1, v2, s[2:3]",
                     0, 0, GFX_FAULT_MEMORY);
        set_addr(TOP - 4); /* 64-bit VGPR address + instruction offset wraps */
        expect_fault("global offset wrapping",
                     "v_mov_b32 v4, s2\nv_mov_b32 v5, s3\n"
                     "global_store_dword v[4:5], v2, off offset:8",
                     0, 0, GFX_FAULT_MEMORY);
        set_addr(E - 4);
        expect_fault("flat dwordx2 past the end",
                     "v_mov_b32 v4, s2\nv_mov_b32 v5, s3\n"
                     "flat_store_dwordx2 v[4:5], v[6:7]",
                     0, 0, GFX_FAULT_MEMORY);
        expect_fault("flat load per-lane past the end",
                     "v_mov_b32 v4, s2\nv_mov_b32 v5, s3\n"
                     "v_lshlrev_b32 v6, 2, v0\nv_add_co_u32 v4, vcc, v4, v6\n"
                     "v_addc_co_u32 v5, vcc, v5, 0, vcc\nflat_load_dword v2, v[4:5]",
                     0, 0, GFX_FAULT_MEMORY);
        set_addr(0x0002000000000000ull); /* private aperture without scratch */
        expect_fault("flat private aperture, no scratch",
                     "v_mov_b32 v4, s2\nv_mov_b32 v5, s3\n"
                     "flat_store_dword v[4:5], v2",
                     0, 0, GFX_FAULT_MEMORY);
        set_addr(0x00020000fffffffcull);
        expect_fault("flat private aperture top, scratch",
                     "v_mov_b32 v4, s2\n"
                     "v_mov_b32 v5, s3\nflat_store_dwordx2 v[4:5], v[6:7]",
                     SCRATCH_EN, 16, GFX_FAULT_MEMORY);
        set_addr(0x0001000000000000ull + 1280 * 1 - 2); /* shared aperture past the LDS */
        /* under memcheck: vmem reports LDS misses of flat as memory faults */
        setenv("GFXEMU_MEMCHECK", "1", 1);
        expect_fault("flat shared aperture past the LDS",
                     "v_mov_b32 v4, s2\n"
                     "v_mov_b32 v5, s3\nflat_store_dword v[4:5], v2",
                     LDS_1, 0, GFX_FAULT_MEMORY);
        unsetenv("GFXEMU_MEMCHECK");

        /* ---- scratch ---- */
        expect_fault("scratch without scratch", "scratch_store_dword off, v2, off offset:16", 0, 0,
                     GFX_FAULT_MEMORY);
        expect_fault("scratch past the lane's bytes", "scratch_store_dword off, v2, off offset:16",
                     SCRATCH_EN, 16, GFX_FAULT_MEMORY);
        expect_fault("scratch 32-bit wrap",
                     "v_mov_b32 v1, -4\n"
                     "scratch_store_dwordx2 v1, v[2:3], off",
                     SCRATCH_EN, 16, GFX_FAULT_MEMORY);

        /* ---- s_scratch (scalar scratch): SBASE is any SGPR pair ---- */
        set_addr(TOP - 16);
        expect_fault("s_scratch wrapping 2^64, no scratch",
                     "s_scratch_store_dwordx4 s[8:11], s[2:3], 0", 0, 0, GFX_FAULT_MEMORY);
        expect_fault("s_scratch load wrapping 2^64, no scratch",
                     "s_scratch_load_dwordx4 s[8:11], s[2:3], 0", 0, 0, GFX_FAULT_MEMORY);
        set_addr(TOP - 4);
        expect_fault("s_scratch offset wrapping 2^64, no scratch",
                     "s_scratch_store_dword s8, s[2:3], 4", 0, 0, GFX_FAULT_MEMORY);
        expect_fault("s_scratch past the wave's bytes",
                     "s_mov_b64 s[2:3], flat_scratch\n"
                     "s_scratch_store_dwordx2 s[8:9], s[2:3], 0x3fc",
                     SCRATCH_EN, 16, GFX_FAULT_MEMORY);
        set_addr(E - 4);
        expect_fault("s_scratch at a registered host address",
                     "s_scratch_store_dword s8, s[2:3], 0", SCRATCH_EN, 16, GFX_FAULT_MEMORY);

        /* ---- MUBUF: num_records never widens the registered range ---- */
        const char *bstore = "buffer_store_dword v2, off, s[4:7], 0 offset:8";
        set_rsrc(E - 4, 0, 0xffffffffu, 0);
        expect_fault("buffer raw past the end, huge num_records", bstore, 0, 0, GFX_FAULT_MEMORY);
        expect_fault("buffer load past the end, huge num_records",
                     "buffer_load_dwordx4 v[2:5], off, s[4:7], 0 offset:8", 0, 0, GFX_FAULT_MEMORY);
        set_rsrc(P, 0, 0xffffffffu, 0);
        user[8] = 0xfffffff0u; /* soffset: base + 4 GiB - 16 */
        expect_fault("buffer huge soffset", "buffer_store_dword v2, off, s[4:7], s8", 0, 0,
                     GFX_FAULT_MEMORY);
        set_rsrc(P, 0x3fff, 0xffffffffu, 0);
        expect_fault("buffer huge index*stride",
                     "v_mov_b32 v1, -2\n"
                     "buffer_store_dword v2, v1, s[4:7], 0 idxen",
                     0, 0, GFX_FAULT_MEMORY);
        set_rsrc(P, 0x3fff, 0xffffffffu, 1u << 23 | 0xfu << 15); /* add_tid, stride bits 17:14 */
        expect_fault("buffer add_tid stride",
                     "v_mov_b32 v1, 1\n"
                     "buffer_store_dword v2, v1, s[4:7], 0 idxen",
                     0, 0, GFX_FAULT_MEMORY);
        set_rsrc(P, 0x3fff, 0xffffffffu, 3u << 21 | 3u << 19); /* swizzled */
        user[5] |= 1u << 31;
        expect_fault("buffer swizzled huge index",
                     "v_mov_b32 v8, -2\nv_mov_b32 v9, -4\n"
                     "buffer_store_dword v2, v[8:9], s[4:7], 0 idxen offen",
                     0, 0, GFX_FAULT_MEMORY);
        set_rsrc(E - 4, 0, 0xffffffffu, 11u << 15 | 4u << 12); /* 32_32 uint: y is past the end */
        expect_fault("buffer format load past the end",
                     "buffer_load_format_xy v[2:3], off, s[4:7], 0", 0, 0, GFX_FAULT_MEMORY);
        expect_fault("buffer atomic past the end", "buffer_atomic_add v2, off, s[4:7], 0 offset:4",
                     0, 0, GFX_FAULT_MEMORY);
        expect_fault("buffer atomic_x2 straddling",
                     "buffer_atomic_cmpswap_x2 v[2:5], off, "
                     "s[4:7], 0 offset:0",
                     0, 0, GFX_FAULT_MEMORY);

        /* ---- SMEM ---- */
        set_addr(E - 32);
        expect_fault("s_load_dwordx16 past the end",
                     "s_load_dwordx16 s[8:23], s[2:3], 0\n"
                     "s_waitcnt lgkmcnt(0)",
                     0, 0, GFX_FAULT_MEMORY);
        set_addr(TOP - 4);
        expect_fault("s_load offset wrapping 2^64",
                     "s_load_dword s8, s[2:3], 8\n"
                     "s_waitcnt lgkmcnt(0)",
                     0, 0, GFX_FAULT_MEMORY);
        set_addr(E);
        expect_fault("s_store at the end", "s_store_dword s8, s[2:3], 0", 0, 0, GFX_FAULT_MEMORY);
        set_addr(P);
        user[8] = 0xfffffff0u;
        expect_fault("s_store huge soffset", "s_store_dword s8, s[2:3], s8", 0, 0,
                     GFX_FAULT_MEMORY);
        set_rsrc(E - 8, 0, 0xffffffffu, 0);
        expect_fault("s_buffer_load past the end, huge num_records",
                     "s_buffer_load_dwordx4 s[8:11], s[4:7], 0\ns_waitcnt lgkmcnt(0)", 0, 0,
                     GFX_FAULT_MEMORY);
        set_rsrc(E, 0, 0xffffffffu, 0);
        expect_fault("s_buffer_store past the end", "s_buffer_store_dwordx4 s[8:11], s[4:7], 0", 0,
                     0, GFX_FAULT_MEMORY);
        expect_fault("s_buffer_atomic past the end", "s_buffer_atomic_add s8, s[4:7], 8", 0, 0,
                     GFX_FAULT_MEMORY);
        set_addr(E);
        expect_fault("s_atomic at the end", "s_atomic_add s8, s[2:3], 0", 0, 0, GFX_FAULT_MEMORY);
        set_addr(TOP - 8);
        expect_fault("s_atomic_x2 wrapping", "s_atomic_swap_x2 s[8:9], s[2:3], 8", 0, 0,
                     GFX_FAULT_MEMORY);

        /* ---- atomics (global/flat) ---- */
        set_addr(E - 4);
        expect_fault("global atomic_x2 straddling",
                     "v_mov_b32 v1, 0\n"
                     "global_atomic_add_x2 v1, v[2:3], s[2:3]",
                     0, 0, GFX_FAULT_MEMORY);
        set_addr(E);
        expect_fault("global atomic cmpswap at the end",
                     "v_mov_b32 v1, 0\n"
                     "global_atomic_cmpswap v1, v[2:3], s[2:3]",
                     0, 0, GFX_FAULT_MEMORY);
        set_addr(TOP - 8);
        expect_fault("flat atomic wrapping",
                     "v_mov_b32 v4, s2\nv_mov_b32 v5, s3\n"
                     "flat_atomic_swap_x2 v[4:5], v[2:3] offset:8",
                     0, 0, GFX_FAULT_MEMORY);

        /* ---- loads into LDS and DS ---- */
        set_addr(P);
        expect_lds("global_load_lds with no LDS",
                   "v_mov_b32 v1, 0\ns_mov_b32 m0, 0\n"
                   "global_load_lds_dword v1, s[2:3]",
                   0);
        expect_lds("global_load_lds M0 past the LDS",
                   ai == 0 ? "v_mov_b32 v1, 0\ns_mov_b32 m0, 0x3fffc\n"
                             "global_load_lds_dwordx4 v1, s[2:3]"
                           : "v_mov_b32 v1, 0\ns_mov_b32 m0, 0xfffc\n"
                             "global_load_lds_dword v1, s[2:3] offset:4",
                   LDS_1);
        set_rsrc(P, 0, 0xffffffffu, 0);
        expect_lds("buffer load lds M0 past the LDS",
                   "s_mov_b32 m0, -1\n"
                   "buffer_load_dword off, s[4:7], 0 offset:4 lds",
                   LDS_1);
        expect_fault("scratch_load_lds no scratch",
                     "s_mov_b32 m0, 0\n"
                     "scratch_load_lds_dword off, off offset:4",
                     LDS_1, 0, GFX_FAULT_MEMORY);
        expect_lds("ds_write past the LDS",
                   "v_mov_b32 v1, -8\n"
                   "ds_write_b128 v1, v[4:7] offset:4",
                   LDS_1);
        expect_lds("ds atomic with no LDS", "v_mov_b32 v1, 0\nds_add_u32 v1, v2", 0);
        expect_lds("ds_append M0 past the LDS", "s_mov_b32 m0, 0xfffc\nds_append v1", LDS_1);
        expect_lds("ds_write2st64 past the LDS",
                   "v_mov_b32 v1, 0\n"
                   "ds_write2st64_b64 v1, v[2:3], v[4:5] offset1:255",
                   LDS_1);
    }

    CHECK(gfxemu_unmap_host(page) == 0, "unmap_host: %s", gfxemu_last_error());
    munmap(map, 3 * psz);
    return check_summary("runasm_bounds");
}
