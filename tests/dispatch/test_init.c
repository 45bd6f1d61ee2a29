/* test_init.c - what a wave sees before its first instruction, computed for hand-made kernel
 * descriptors, against the rules of LLVM's "AMDGPU Usage":
 *  - "SGPR Register Set Up Order": user SGPRs dense from s0 in the order private segment buffer
 *    (4), dispatch ptr (2), queue ptr (2), kernarg segment ptr (2), dispatch id (2), flat scratch
 *    init (2), private segment size (1), preloaded kernargs; system SGPRs from USER_SGPR_COUNT:
 *    workgroup id x, y, z, workgroup info; no scratch wave offset SGPR with architected flat
 *    scratch (gfx940+), which instead initialises FLAT_SCRATCH when ENABLE_PRIVATE_SEGMENT is set;
 *  - "Register Layout for Packed Work-Item ID Method": v0 = x | y << 10 | z << 20, y and z only
 *    when enable_vgpr_workitem_id asks for them;
 *  - code object V5 hidden arguments; the HSA kernel dispatch packet;
 *  - LDS limits (160 KiB gfx950, 64 KiB gfx942) and 1 KiB scratch granularity per wave.
 * The expected values below are written from those rules, not taken from gfxemu's output.
 */
#include "common/check.h"
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "dispatch/dispatch.h"

/* Descriptor fields (byte offsets of the V3 kernel descriptor). */
typedef struct {
    uint32_t group, priv, kernarg, rsrc1, rsrc2, rsrc3;
    uint16_t props, preload;
} kd_spec;

enum {
    P_PSB = 1 << 0,
    P_DISPATCH = 1 << 1,
    P_QUEUE = 1 << 2,
    P_KERNARG = 1 << 3,
    P_DISPATCH_ID = 1 << 4,
    P_FLAT_INIT = 1 << 5,
    P_PRIV_SIZE = 1 << 6
};
#define R2_PRIV (1u << 0)
#define R2_USER(n) ((uint32_t)(n) << 1)
#define R2_WGX (1u << 7)
#define R2_WGY (1u << 8)
#define R2_WGZ (1u << 9)
#define R2_INFO (1u << 10)
#define R2_VID(n) ((uint32_t)(n) << 11)

static void put32(uint8_t *p, uint32_t v) {
    for (int i = 0; i < 4; i++)
        p[i] = (uint8_t)(v >> (8 * i));
}

static ld_symbol sym = {.name = "k", .addr = 0x1000, .has_kd = 1, .kd_addr = 0x800};

static struct gfx_kernel make_kernel(const kd_spec *s, ld_kmeta *meta) {
    uint8_t kd[64] = {0};
    put32(kd + 0, s->group);
    put32(kd + 4, s->priv);
    put32(kd + 8, s->kernarg);
    put32(kd + 16, 0x800); /* entry at kd + 0x800 */
    put32(kd + 44, s->rsrc3);
    put32(kd + 48, s->rsrc1);
    put32(kd + 52, s->rsrc2);
    kd[56] = (uint8_t)s->props, kd[57] = (uint8_t)(s->props >> 8);
    kd[58] = (uint8_t)s->preload, kd[59] = (uint8_t)(s->preload >> 8);
    struct gfx_kernel k;
    memset(&k, 0, sizeof k);
    k.sym = &sym;
    k.meta = meta;
    ld_kd_decode(kd, &k.kd);
    k.entry = 0x1000;
    k.entry_pc = 0x40;
    return k;
}

static wave *w; /* struct wave is large: one, on the heap */

static uint64_t le(const uint8_t *p, unsigned off, unsigned n) {
    uint64_t v = 0;
    for (unsigned i = 0; i < n; i++)
        v |= (uint64_t)p[off + i] << (8 * i);
    return v;
}

static void plan(dp_dispatch *d, const struct gfx_kernel *k, gfx_arch arch, uint32_t gx,
                 uint32_t gy, uint32_t gz, uint32_t bx, uint32_t by, uint32_t bz) {
    uint32_t grid[3] = {gx, gy, gz}, block[3] = {bx, by, bz};
    char err[256];
    gfx_result r = dp_plan(d, k, arch, grid, block, 0, 0, err, sizeof err);
    CHECK(r == GFX_OK, "plan: %s", err);
    d->packet_va = 0x100000001000ull;
    d->queue_va = 0x100000002000ull;
    d->kernarg_va = 0x100000003000ull;
    d->dispatch_id = 0x0000000500000007ull;
}

static uint64_t s64(unsigned i) { return w->s[i] | (uint64_t)w->s[i + 1] << 32; }

/* A wave as a launch starts it: the launch's template (dp_wave_template(), from the dispatch as
 * the case left it), then the wave's own state. */
static void wave_init(wave *x, dp_dispatch *d, const uint32_t wg[3], uint32_t i) {
    dp_wave_template(d);
    dp_wave_init(x, d, wg, i);
}

/* All pointers, ids, workgroup info, 3-D packed ids, private segment (FLAT_SCRATCH). */
static void case_all_ids(void) {
    kd_spec s = {.priv = 20,
                 .rsrc2 = R2_PRIV | R2_USER(8) | R2_WGX | R2_WGY | R2_WGZ | R2_INFO | R2_VID(2),
                 .props = P_DISPATCH | P_QUEUE | P_KERNARG | P_DISPATCH_ID};
    struct gfx_kernel k = make_kernel(&s, NULL);
    dp_dispatch d;
    plan(&d, &k, GFX_ARCH_GFX950, 3, 2, 2, 8, 4, 4); /* 128 work-items: 2 waves */
    CHECK(d.waves_per_wg == 2 && d.threads_per_wg == 128, "%u waves", d.waves_per_wg);
    uint32_t wg[3] = {2, 1, 1};
    memset(w, 0xa5, sizeof *w);
    wave_init(w, &d, wg, 1);
    CHECK(d.tmpl_ok, "no user SGPR template for a kernel without per-wave user SGPRs");
    CHECK(s64(0) == d.packet_va, "s[0:1] = 0x%llx", (unsigned long long)s64(0));
    CHECK(s64(2) == d.queue_va, "s[2:3] = 0x%llx", (unsigned long long)s64(2));
    CHECK(s64(4) == d.kernarg_va, "s[4:5] = 0x%llx", (unsigned long long)s64(4));
    CHECK(s64(6) == d.dispatch_id, "s[6:7] = 0x%llx", (unsigned long long)s64(6));
    CHECK(w->s[8] == 2 && w->s[9] == 1 && w->s[10] == 1, "wg ids %u %u %u", w->s[8], w->s[9],
          w->s[10]);
    /* second wave: first_wavefront clear; 2 waves in the workgroup */
    CHECK(w->s[11] == 2, "workgroup info 0x%x", w->s[11]);
    CHECK(w->s[12] == 0, "s12 = 0x%x (no scratch wave offset with architected flat scratch)",
          w->s[12]);
    uint64_t fs = s64(102);
    CHECK(fs != 0 && fs == w->scratch_va, "FLAT_SCRATCH 0x%llx", (unsigned long long)fs);
    CHECK(w->pc == 0x40 && w->status == WAVE_RUNNING, "pc 0x%x", w->pc);
    CHECK(wave_exec(w) == ~0ull, "exec 0x%llx", (unsigned long long)wave_exec(w));
    CHECK(w->s[106] == 0 && w->s[107] == 0 && w->s[124] == 0 && w->scc == 0, "vcc/m0/scc");
    /* every other SGPR of the file (it held 0xa5 bytes) is 0, up to its last entry */
    unsigned nonzero = 0;
    for (unsigned i = 12; i < NSREG; i++)
        if (i != ISA_SREG_FLAT_SCRATCH_LO && i != ISA_SREG_FLAT_SCRATCH_HI &&
            i != ISA_SREG_EXEC_LO && i != ISA_SREG_EXEC_HI)
            nonzero += w->s[i] != 0;
    CHECK(nonzero == 0, "%u SGPRs from s12 up not cleared", nonzero);
    for (unsigned lane = 0; lane < 64; lane++) {
        unsigned t = 64 + lane, x = t % 8, y = t / 8 % 4, z = t / 32;
        CHECK(w->v[0][lane] == (x | y << 10 | z << 20), "v0[%u] = 0x%x", lane, w->v[0][lane]);
    }
    /* Registers the descriptor allocates start at 0 (granules 0 -> 8 VGPRs, ACCUM_OFFSET 4). */
    CHECK(w->v[1][5] == 0 && w->v[3][63] == 0 && w->a[0][0] == 0 && w->a[3][63] == 0,
          "registers not cleared");
    CHECK(w->wg_id[0] == 2 && w->wg_id[1] == 1 && w->wg_id[2] == 1 && w->wave_id == 1, "ids");
    /* private 20 bytes -> 64 * 20 = 1280 per wave -> 2048 (1 KiB granules) -> 32 per lane */
    CHECK(d.private_lane == 20 && d.scratch_wave == 2048 && d.scratch_lane == 32 &&
              w->scratch_lane == 32,
          "scratch %u %u %u", d.private_lane, d.scratch_wave, d.scratch_lane);

    /* The first wave of the workgroup; FLAT_SCRATCH differs between waves. */
    wave *w0 = malloc(sizeof *w0);
    wave_init(w0, &d, wg, 0);
    CHECK(w0->s[11] == (1u << 31 | 2), "workgroup info 0x%x", w0->s[11]);
    CHECK(w0->scratch_va != w->scratch_va && w0->scratch_va + 2048 <= w->scratch_va + 2048,
          "scratch va");
    CHECK(w0->v[0][0] == 0 && w0->v[0][9] == (1 | 1 << 10), "v0 of wave 0");
    free(w0);
}

/* Private segment buffer, kernarg ptr, flat scratch init, private segment size; x id only;
 * a partial wave. */
static void case_buffer_and_partial(void) {
    kd_spec s = {.priv = 4,
                 .rsrc2 = R2_USER(9) | R2_WGX,
                 .props = P_PSB | P_KERNARG | P_FLAT_INIT | P_PRIV_SIZE};
    struct gfx_kernel k = make_kernel(&s, NULL);
    dp_dispatch d;
    plan(&d, &k, GFX_ARCH_GFX942, 5, 1, 1, 100, 1, 1);
    uint32_t wg[3] = {4, 0, 0};
    memset(w, 0x5a, sizeof *w);
    wave_init(w, &d, wg, 1);
    /* s[0:3] the V# (base = this wave's scratch), s[4:5] kernarg, s[6:7] flat scratch init,
     * s8 private segment size, s9 workgroup id x */
    CHECK(!d.tmpl_ok, "a user SGPR template for a per-wave private segment buffer");
    CHECK((w->s[0] | (uint64_t)(w->s[1] & 0xffff) << 32) == w->scratch_va && w->scratch_va,
          "V# base");
    CHECK(s64(4) == d.kernarg_va, "s[4:5] = 0x%llx", (unsigned long long)s64(4));
    CHECK(s64(6) != 0, "flat scratch init");
    CHECK(w->s[8] == 4, "private segment size %u", w->s[8]);
    CHECK(w->s[9] == 4, "workgroup id x in s9: %u", w->s[9]);
    CHECK(w->s[10] == 0, "s10 = %u", w->s[10]);
    CHECK(s64(102) == 0, "FLAT_SCRATCH without ENABLE_PRIVATE_SEGMENT: 0x%llx",
          (unsigned long long)s64(102));
    /* 100 work-items: wave 1 has lanes 0..35 */
    CHECK(wave_exec(w) == (1ull << 36) - 1, "exec 0x%llx", (unsigned long long)wave_exec(w));
    for (unsigned lane = 0; lane < 64; lane++)
        CHECK(w->v[0][lane] == (lane < 36 ? 64 + lane : 0), "v0[%u] = %u", lane, w->v[0][lane]);
    /* 4 bytes per lane -> 256 per wave -> one 1 KiB granule */
    CHECK(d.scratch_wave == 1024 && d.scratch_lane == 16, "scratch %u", d.scratch_wave);
}

/* Kernarg preloading: dwords after the last other user SGPR; x and y ids only. */
static void case_preload(void) {
    kd_spec s = {.rsrc2 = R2_USER(5) | R2_WGX | R2_WGZ | R2_VID(1),
                 .props = P_KERNARG,
                 .preload = 3 | 1 << 7}; /* 3 dwords from dword 1 */
    struct gfx_kernel k = make_kernel(&s, NULL);
    dp_dispatch d;
    plan(&d, &k, GFX_ARCH_GFX950, 1, 1, 7, 4, 4, 4);
    uint8_t ka[32];
    for (int i = 0; i < 32; i++)
        ka[i] = (uint8_t)(0x10 + i);
    d.kernargs = ka;
    d.kernarg_size = sizeof ka;
    uint32_t wg[3] = {0, 0, 6};
    wave_init(w, &d, wg, 0);
    CHECK(s64(0) == d.kernarg_va, "s[0:1]");
    CHECK(w->s[2] == 0x17161514 && w->s[3] == 0x1b1a1918 && w->s[4] == 0x1f1e1d1c,
          "preloaded 0x%x 0x%x 0x%x", w->s[2], w->s[3], w->s[4]);
    CHECK(w->s[5] == 0 && w->s[6] == 6, "wg x %u, wg z %u", w->s[5], w->s[6]);
    for (unsigned lane = 0; lane < 64; lane++) {
        unsigned x = lane % 4, y = lane / 4 % 4;
        CHECK(w->v[0][lane] == (x | y << 10), "v0[%u] = 0x%x (z must stay 0)", lane, w->v[0][lane]);
    }
}

/* USER_SGPR_COUNT decides where system SGPRs start, even past the enabled user SGPRs. */
static void case_user_count(void) {
    kd_spec s = {.rsrc2 = R2_USER(6) | R2_WGY, .props = P_KERNARG};
    struct gfx_kernel k = make_kernel(&s, NULL);
    dp_dispatch d;
    plan(&d, &k, GFX_ARCH_GFX950, 1, 9, 1, 64, 1, 1);
    uint32_t wg[3] = {0, 8, 0};
    wave_init(w, &d, wg, 0);
    CHECK(w->s[6] == 8 && w->s[2] == 0, "wg y at s6: %u", w->s[6]);
    for (unsigned lane = 0; lane < 64; lane++)
        CHECK(w->v[0][lane] == lane, "v0[%u]", lane);
}

/* MODE from rsrc1: FP_ROUND [3:0], FP_DENORM [7:4], DX10_CLAMP [8], IEEE [9]. */
static void case_mode(void) {
    kd_spec s = {.rsrc1 = 3u << 16 | 1u << 18 | 2u << 12 | 1u << 21 | 1u << 23};
    struct gfx_kernel k = make_kernel(&s, NULL);
    dp_dispatch d;
    plan(&d, &k, GFX_ARCH_GFX950, 1, 1, 1, 1, 1, 1);
    uint32_t wg[3] = {0, 0, 0};
    wave_init(w, &d, wg, 0);
    CHECK(w->mode == (2u | 3u << 4 | 1u << 6 | 1u << 8 | 1u << 9), "mode 0x%x", w->mode);
    CHECK(wave_exec(w) == 1, "one work-item: exec 0x%llx", (unsigned long long)wave_exec(w));
}

/* ---- kernarg segment and dispatch packet -------------------------------------------------- */

static void case_kernargs(void) {
    ld_arg args[] = {
        {.offset = 0, .size = 8, .kind = GFX_ARG_GLOBAL_BUFFER},
        {.offset = 8, .size = 4, .kind = GFX_ARG_BY_VALUE},
        {.offset = 16, .size = 4, .kind = GFX_ARG_HIDDEN_BLOCK_COUNT_X},
        {.offset = 20, .size = 4, .kind = GFX_ARG_HIDDEN_BLOCK_COUNT_Y},
        {.offset = 24, .size = 4, .kind = GFX_ARG_HIDDEN_BLOCK_COUNT_Z},
        {.offset = 28, .size = 2, .kind = GFX_ARG_HIDDEN_GROUP_SIZE_X},
        {.offset = 30, .size = 2, .kind = GFX_ARG_HIDDEN_GROUP_SIZE_Y},
        {.offset = 32, .size = 2, .kind = GFX_ARG_HIDDEN_GROUP_SIZE_Z},
        {.offset = 34, .size = 2, .kind = GFX_ARG_HIDDEN_REMAINDER_X},
        {.offset = 36, .size = 2, .kind = GFX_ARG_HIDDEN_REMAINDER_Y},
        {.offset = 38, .size = 2, .kind = GFX_ARG_HIDDEN_REMAINDER_Z},
        {.offset = 56, .size = 8, .kind = GFX_ARG_HIDDEN_GLOBAL_OFFSET_X},
        {.offset = 64, .size = 8, .kind = GFX_ARG_HIDDEN_GLOBAL_OFFSET_Y},
        {.offset = 72, .size = 8, .kind = GFX_ARG_HIDDEN_GLOBAL_OFFSET_Z},
        {.offset = 80, .size = 2, .kind = GFX_ARG_HIDDEN_GRID_DIMS},
        {.offset = 96, .size = 8, .kind = GFX_ARG_HIDDEN_HOSTCALL_BUFFER},
        {.offset = 120, .size = 4, .kind = GFX_ARG_HIDDEN_DYNAMIC_LDS_SIZE},
        {.offset = 124, .size = 4, .kind = GFX_ARG_HIDDEN_PRIVATE_BASE},
        {.offset = 128, .size = 4, .kind = GFX_ARG_HIDDEN_SHARED_BASE},
        {.offset = 136, .size = 8, .kind = GFX_ARG_HIDDEN_QUEUE_PTR},
    };
    ld_kmeta meta = {.args = args,
                     .nargs = sizeof args / sizeof args[0],
                     .kernarg_segment_size = 272,
                     .kernarg_segment_align = 8};
    kd_spec s = {.group = 1000, .priv = 0, .kernarg = 272, .props = P_KERNARG};
    struct gfx_kernel k = make_kernel(&s, &meta);
    dp_dispatch d;
    uint32_t grid[3] = {7, 5, 1}, block[3] = {16, 8, 1};
    char err[256];
    CHECK(dp_plan(&d, &k, GFX_ARCH_GFX950, grid, block, 512, 0, err, sizeof err) == GFX_OK, "%s",
          err);
    d.queue_va = 0x100000002000ull;
    d.kernarg_va = 0x100000003000ull;
    CHECK(dp_kernarg_size(&k, 12) == 272 && dp_kernarg_size(&k, 300) == 300, "kernarg size");
    uint8_t user[104], seg[272];
    for (int i = 0; i < 104; i++)
        user[i] = (uint8_t)(0xc0 + i);
    dp_build_kernargs(&d, user, 104, seg, sizeof seg);
    CHECK(memcmp(seg, user, 16) == 0, "explicit bytes copied");
    CHECK(le(seg, 16, 4) == 7 && le(seg, 20, 4) == 5 && le(seg, 24, 4) == 1,
          "block counts %llu %llu %llu", (unsigned long long)le(seg, 16, 4),
          (unsigned long long)le(seg, 20, 4), (unsigned long long)le(seg, 24, 4));
    CHECK(le(seg, 28, 2) == 16 && le(seg, 30, 2) == 8 && le(seg, 32, 2) == 1, "group sizes");
    CHECK(le(seg, 34, 2) == 0 && le(seg, 36, 2) == 0 && le(seg, 38, 2) == 0, "remainders");
    CHECK(le(seg, 56, 8) == 0 && le(seg, 64, 8) == 0 && le(seg, 72, 8) == 0, "global offsets");
    CHECK(le(seg, 80, 2) == 2, "grid dims %llu", (unsigned long long)le(seg, 80, 2));
    CHECK(memcmp(seg + 96, user + 96, 8) == 0, "hidden args nobody provides keep caller bytes");
    CHECK(le(seg, 120, 4) == 512, "dynamic lds %llu", (unsigned long long)le(seg, 120, 4));
    CHECK(le(seg, 124, 4) == GMEM_PRIVATE_APERTURE >> 32, "private base 0x%llx",
          (unsigned long long)le(seg, 124, 4));
    CHECK(le(seg, 128, 4) == GMEM_SHARED_APERTURE >> 32, "shared base");
    CHECK(le(seg, 136, 8) == d.queue_va, "queue ptr");
    CHECK(le(seg, 144, 8) == 0 && le(seg, 264, 8) == 0, "rest zero");
    CHECK(d.lds_size == 1512 && d.dims == 2, "lds %u dims %u", d.lds_size, d.dims);

    uint8_t p[64];
    dp_build_packet(&d, p);
    uint8_t *q = p;
    CHECK((le(q, 0, 2) & 0xff) == 2, "packet type KERNEL_DISPATCH");
    CHECK(le(q, 2, 2) == 2, "setup dims");
    CHECK(le(q, 4, 2) == 16 && le(q, 6, 2) == 8 && le(q, 8, 2) == 1, "workgroup size");
    CHECK(le(q, 12, 4) == 112 && le(q, 16, 4) == 40 && le(q, 20, 4) == 1,
          "grid size in work-items");
    CHECK(le(q, 28, 4) == 1512, "group segment size");
    CHECK(le(q, 32, 8) == 0x800, "kernel object = descriptor address");
    CHECK(le(q, 40, 8) == d.kernarg_va, "kernarg address");
    CHECK(le(q, 56, 8) == 0, "completion signal");
}

/* ---- launch checks ----------------------------------------------------------------------- */

static void case_limits(void) {
    kd_spec s = {.group = 60000};
    struct gfx_kernel k = make_kernel(&s, NULL);
    dp_dispatch d;
    char err[256];
    uint32_t g[3] = {1, 1, 1}, b[3] = {64, 1, 1};
    CHECK(dp_plan(&d, &k, GFX_ARCH_GFX942, g, b, 5536, 0, err, sizeof err) == GFX_OK,
          "64 KiB on gfx942: %s", err);
    CHECK(dp_plan(&d, &k, GFX_ARCH_GFX942, g, b, 5537, 0, err, sizeof err) == GFX_ERR_RESOURCE &&
              strstr(err, "LDS") && strstr(err, "65536"),
          "65537 bytes on gfx942: '%s'", err);
    CHECK(dp_plan(&d, &k, GFX_ARCH_GFX950, g, b, 100000, 0, err, sizeof err) == GFX_OK,
          "160000 bytes on gfx950: %s", err);
    CHECK(dp_plan(&d, &k, GFX_ARCH_GFX950, g, b, 163840 - 60000, 0, err, sizeof err) == GFX_OK,
          "160 KiB on gfx950: %s", err);
    CHECK(dp_plan(&d, &k, GFX_ARCH_GFX950, g, b, 163841 - 60000, 0, err, sizeof err) ==
              GFX_ERR_RESOURCE,
          "160 KiB + 1 on gfx950");
    uint32_t big[3] = {1025, 1, 1}, zero[3] = {0, 1, 1}, odd[3] = {32, 32, 1};
    CHECK(dp_plan(&d, &k, GFX_ARCH_GFX950, g, big, 0, 0, err, sizeof err) == GFX_ERR_RESOURCE,
          "1025 work-items");
    CHECK(dp_plan(&d, &k, GFX_ARCH_GFX950, g, odd, 0, 0, err, sizeof err) == GFX_OK &&
              d.waves_per_wg == 16,
          "1024 work-items: %u waves", d.waves_per_wg);
    CHECK(dp_plan(&d, &k, GFX_ARCH_GFX950, zero, b, 0, 0, err, sizeof err) == GFX_ERR_INVALID,
          "grid 0");
    ld_kmeta meta = {.max_flat_workgroup_size = 256};
    k.meta = &meta;
    uint32_t b257[3] = {257, 1, 1};
    CHECK(dp_plan(&d, &k, GFX_ARCH_GFX950, g, b257, 0, 0, err, sizeof err) == GFX_ERR_RESOURCE &&
              strstr(err, "max_flat_workgroup_size"),
          "257 > max_flat_workgroup_size: '%s'", err);
    /* dynamic stack: private size grows by GFX_DYNAMIC_STACK_SIZE */
    meta.uses_dynamic_stack = 1;
    meta.max_flat_workgroup_size = 0;
    CHECK(dp_plan(&d, &k, GFX_ARCH_GFX950, g, b, 0, 0, err, sizeof err) == GFX_OK &&
              d.private_lane == GFX_DYNAMIC_STACK_SIZE,
          "dynamic stack %u", d.private_lane);
    CHECK(dp_plan(&d, &k, GFX_ARCH_GFX950, g, b, 0, 100, err, sizeof err) == GFX_OK &&
              d.private_lane == 100 && d.scratch_wave == 7168,
          "private_size override %u %u", d.private_lane, d.scratch_wave);
}

/* Public API argument checks that need no kernel. */
static void case_api(void) {
    gfx_device *dev = NULL;
    CHECK(gfx_device_create((gfx_arch)7, 1, &dev) == GFX_ERR_ARCH && !dev, "bad arch");
    CHECK(gfx_device_create(GFX_ARCH_GFX950, 2, NULL) == GFX_ERR_INVALID, "NULL out");
    CHECK(gfx_device_create(GFX_ARCH_GFX942, 3, &dev) == GFX_OK && dev, "create");
    if (!dev)
        return;
    CHECK(gfx_device_threads(dev) == 3 && gfx_device_arch(dev) == GFX_ARCH_GFX942, "threads");
    uint64_t a = 0, b = 0;
    CHECK(gfx_buffer_alloc(dev, 100, &a) == GFX_OK && a && (a & 255) == 0, "alloc");
    CHECK(gfx_buffer_alloc(dev, 1, &b) == GFX_OK && b > a + 100, "second alloc");
    uint8_t buf[200];
    memset(buf, 7, sizeof buf);
    CHECK(gfx_memcpy_htod(dev, a, buf, 100) == GFX_OK, "htod");
    CHECK(gfx_memcpy_htod(dev, a, buf, 101) == GFX_ERR_INVALID, "htod past the end");
    CHECK(gfx_memcpy_htod(dev, a + 100, buf, 1) == GFX_ERR_INVALID, "htod after the end");
    CHECK(gfx_memcpy_dtoh(dev, buf, a - 1, 2) == GFX_ERR_INVALID, "dtoh before the start");
    memset(buf, 0, sizeof buf);
    CHECK(gfx_memcpy_dtoh(dev, buf, a + 50, 50) == GFX_OK && buf[0] == 7 && buf[49] == 7, "dtoh");
    CHECK(gfx_buffer_free(dev, a + 4) == GFX_ERR_INVALID, "free inside");
    CHECK(gfx_buffer_free(dev, a) == GFX_OK, "free");
    CHECK(gfx_buffer_free(dev, a) == GFX_ERR_INVALID, "double free");
    CHECK(gfx_memcpy_htod(dev, a, buf, 1) == GFX_ERR_INVALID, "write after free");
    uint32_t g[3] = {1, 1, 1};
    CHECK(gfx_launch(dev, NULL, g, g, NULL, 0, NULL, NULL) == GFX_ERR_INVALID, "NULL kernel");
    gfx_fault f;
    CHECK(gfx_last_fault(dev, &f) == GFX_OK && f.kind == GFX_FAULT_NONE, "no fault yet");
    CHECK(strcmp(gfx_fault_kind_name(GFX_FAULT_WATCHDOG), "watchdog") == 0, "kind name");
    CHECK(strcmp(gfx_result_str(GFX_ERR_FAULT), "kernel fault") == 0, "result str");
    gfx_device_free(dev);
    gfx_device_free(NULL);
}

int main(void) {
    w = malloc(sizeof *w);
    if (!w)
        return 1;
    case_all_ids();
    case_buffer_and_partial();
    case_preload();
    case_user_count();
    case_mode();
    case_kernargs();
    case_limits();
    case_api();
    free(w);
    return check_summary("test_init");
}
