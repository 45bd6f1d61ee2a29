/* test_atomics.c - global atomics contended across 64 workgroups of 256 work-items, and 2D/3D
 * grids with problem sizes that are not a multiple of the block (tests/kernels/atomics.cl),
 * compiled by clang-22 for gfx950 and gfx942 at -O0, -O1 and -O3 and run on 2 worker threads.
 * The references are computed here: final values of order-independent operations bit for bit,
 * the returned old values as permutations (tickets, exchange). */
#include "common/check.h"
#include "common/kernels.h"
#include "gfxemu.h"

#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static uint64_t rng = 0xa54ff53a5f1d36f1ull;
static uint32_t rnd(void) { return kt_rand(&rng); }
static uint64_t rnd64(void) { return (uint64_t)rnd() << 32 | rnd(); }

#define G 64        /* workgroups */
#define T (G * 256) /* work-items */

static int cmp_i32(const void *a, const void *b) {
    int32_t x = *(const int32_t *)a, y = *(const int32_t *)b;
    return (x > y) - (x < y);
}
static int cmp_i64(const void *a, const void *b) {
    int64_t x = *(const int64_t *)a, y = *(const int64_t *)b;
    return (x > y) - (x < y);
}

/* ---- 1. 32-bit atomics ----------------------------------------------------------------------- */
static void t_atomics_i32(void) {
    static int32_t v[T];
    static uint32_t tickets[T], seen[T];
    static int32_t olds[T + 1], all[T + 1];
    for (int i = 0; i < T; i++)
        v[i] = (int32_t)rnd() >> (rnd() % 31);
    int32_t c[18] = {0, 0, INT32_MAX, INT32_MIN, -1, 0, -1, 0, 0x12345678};
    c[17] = -555;
    int32_t want[17];
    memcpy(want, c, sizeof want);
    for (int i = 0; i < T; i++) {
        int32_t x = v[i];
        uint32_t bit = 1u << (i & 31);
        want[0]++;
        want[1] = (int32_t)((uint32_t)want[1] - (uint32_t)x);
        want[2] = x < want[2] ? x : want[2];
        want[3] = x > want[3] ? x : want[3];
        want[4] = (uint32_t)x < (uint32_t)want[4] ? x : want[4];
        want[5] = (uint32_t)x > (uint32_t)want[5] ? x : want[5];
        want[6] &= (int32_t)((uint32_t)x | bit);
        want[7] |= (int32_t)((uint32_t)x & bit);
        want[8] ^= x;
        want[9 + (x & 7)] += x >> 8;
    }
    uint64_t dc = kt_upload(c, sizeof c), dt = kt_upload(NULL, sizeof tickets),
             dold = kt_upload(NULL, T * 4), dv = kt_upload(v, sizeof v);
    const void *p[] = {&dc, &dt, &dold, &dv};
    if (kt_launch3("atomics_i32", G, 1, 1, 256, 1, 1, p, 4))
        return;
    gfx_memcpy_dtoh(kt.dev, c, dc, sizeof c);
    gfx_memcpy_dtoh(kt.dev, tickets, dt, sizeof tickets);
    gfx_memcpy_dtoh(kt.dev, olds, dold, T * 4);
    static const char *what[17] = {"add (count)", "sub",    "smin",   "smax",   "umin",   "umax",
                                   "and",         "or",     "xor",    "add[0]", "add[1]", "add[2]",
                                   "add[3]",      "add[4]", "add[5]", "add[6]", "add[7]"};
    for (int k = 0; k < 17; k++)
        CHECK(c[k] == want[k], "%s atomics_i32 %s: got %d (%#x) want %d (%#x)", kt.tag, what[k],
              c[k], (unsigned)c[k], want[k], (unsigned)want[k]);
    /* every ticket 0..T-1 handed out exactly once */
    memset(seen, 0, sizeof seen);
    int dup = 0;
    for (int i = 0; i < T; i++)
        dup += tickets[i] >= T || seen[tickets[i]]++;
    CHECK(dup == 0, "%s atomics_i32: %d tickets out of range or handed out twice", kt.tag, dup);
    /* exchange: the old values plus the final value are the initial value plus every input */
    olds[T] = c[17];
    memcpy(all, v, T * 4);
    all[T] = -555;
    qsort(olds, T + 1, 4, cmp_i32);
    qsort(all, T + 1, 4, cmp_i32);
    CHECK(memcmp(olds, all, sizeof all) == 0,
          "%s atomics_i32 swap: old values are not a permutation", kt.tag);
}

/* ---- 2. 64-bit atomics ----------------------------------------------------------------------- */
static void t_atomics_i64(void) {
    static int64_t v[T], olds[T + 1], all[T + 1];
    for (int i = 0; i < T; i++)
        v[i] = (int64_t)rnd64() >> (rnd() % 63);
    int64_t c[7] = {0, INT64_MAX, INT64_MIN, -1, 0, 777, 0};
    int64_t want[7];
    memcpy(want, c, sizeof c);
    for (int i = 0; i < T; i++) {
        int64_t x = v[i];
        want[0] = (int64_t)((uint64_t)want[0] + (uint64_t)x);
        want[1] = x < want[1] ? x : want[1];
        want[2] = x > want[2] ? x : want[2];
        want[3] = (uint64_t)x < (uint64_t)want[3] ? x : want[3];
        want[4] = (uint64_t)x > (uint64_t)want[4] ? x : want[4];
        want[6] ^= x;
    }
    uint64_t dc = kt_upload(c, sizeof c), dold = kt_upload(NULL, T * 8),
             dv = kt_upload(v, sizeof v);
    const void *p[] = {&dc, &dold, &dv};
    if (kt_launch3("atomics_i64", G, 1, 1, 256, 1, 1, p, 3))
        return;
    gfx_memcpy_dtoh(kt.dev, c, dc, sizeof c);
    gfx_memcpy_dtoh(kt.dev, olds, dold, T * 8);
    static const char *what[7] = {"add", "smin", "smax", "umin", "umax", "swap", "xor"};
    for (int k = 0; k < 7; k++)
        if (k != 5)
            CHECK(c[k] == want[k], "%s atomics_i64 %s: got %#llx want %#llx", kt.tag, what[k],
                  (unsigned long long)c[k], (unsigned long long)want[k]);
    /* exchange: the old values plus the final value are the initial value plus every input */
    olds[T] = c[5];
    memcpy(all, v, T * 8);
    all[T] = 777;
    qsort(olds, T + 1, 8, cmp_i64);
    qsort(all, T + 1, 8, cmp_i64);
    CHECK(memcmp(olds, all, sizeof all) == 0,
          "%s atomics_i64 swap: old values are not a permutation", kt.tag);
}

/* ---- 3. compare-and-swap loops --------------------------------------------------------------- */
/* Under racecheck (test_racecheck_silent.sh) a workgroup's waves take turns one instruction at a
 * time, and every wave's 64 lanes retry against all the others: 8 workgroups there, not 64 (the
 * suite's own run keeps 64; under racecheck the 64 were half the CPU time of that test). */
static void t_atomics_cas(void) {
    static uint32_t v[T];
    static double d[T];
    const unsigned g = kt_options(NULL) ? 8 : G, n = g * 256;
    uint64_t want = 1;
    double dmax = -INFINITY;
    for (unsigned i = 0; i < n; i++) {
        v[i] = 1 + rnd() % 2147483646u;
        d[i] = ldexp((double)(int64_t)rnd64(), -(int)(rnd() % 100));
        want = want * v[i] % 2147483647u;
        dmax = d[i] > dmax ? d[i] : dmax;
    }
    uint32_t prod = 1, retries = 0;
    double fm = -INFINITY;
    uint64_t dp = kt_upload(&prod, 4), dfm = kt_upload(&fm, 8), dr = kt_upload(&retries, 4),
             dv = kt_upload(v, sizeof v), dd = kt_upload(d, sizeof d);
    const void *p[] = {&dp, &dfm, &dr, &dv, &dd};
    if (kt_launch3("atomics_cas", g, 1, 1, 256, 1, 1, p, 5))
        return;
    gfx_memcpy_dtoh(kt.dev, &prod, dp, 4);
    gfx_memcpy_dtoh(kt.dev, &fm, dfm, 8);
    gfx_memcpy_dtoh(kt.dev, &retries, dr, 4);
    CHECK(prod == want, "%s atomics_cas product mod p: got %u want %u", kt.tag, prod,
          (uint32_t)want);
    CHECK(fm == dmax, "%s atomics_cas f64 max: got %a want %a", kt.tag, fm, dmax);
    /* the 64 lanes of a wave compete for one address, so most first attempts fail */
    CHECK(retries >= 63, "%s atomics_cas: only %u retries", kt.tag, retries);
}

/* ---- 4. float atomic add --------------------------------------------------------------------- */
static void t_atomics_fadd(void) {
    static float v[T];
    float f[4] = {0.5f, -0.5f, 0.0f, 1e6f};
    double d[2] = {1.0, -3.0};
    float wf[4];
    double wd[2];
    memcpy(wf, f, sizeof f);
    memcpy(wd, d, sizeof d);
    for (int i = 0; i < T; i++) {
        v[i] = (float)(int)(rnd() % 2001 - 1000) * 0.25f; /* every partial sum is exact */
        wf[i & 3] += v[i];
        wd[i & 1] += (double)v[i] * 0x1p-20;
    }
    uint64_t df = kt_upload(f, sizeof f), dd = kt_upload(d, sizeof d), dv = kt_upload(v, sizeof v);
    const void *p[] = {&df, &dd, &dv};
    if (kt_launch3("atomics_fadd", G, 1, 1, 256, 1, 1, p, 3))
        return;
    gfx_memcpy_dtoh(kt.dev, f, df, sizeof f);
    gfx_memcpy_dtoh(kt.dev, d, dd, sizeof d);
    for (int k = 0; k < 4; k++)
        CHECK(f[k] == wf[k], "%s global_atomic_add_f32[%d]: got %a want %a", kt.tag, k, f[k],
              wf[k]);
    for (int k = 0; k < 2; k++)
        CHECK(d[k] == wd[k], "%s global_atomic_add_f64[%d]: got %a want %a", kt.tag, k, d[k],
              wd[k]);
}

/* ---- 5. 2D grid, partial workgroups -----------------------------------------------------------
 */
static void t_grid2d(void) {
    enum { W = 100, H = 37, GX = (W + 15) / 16, GY = (H + 7) / 8 };
    static int32_t out[W * H + 64];
    uint32_t info[8];
    memset(out, 0xff, sizeof out);
    memset(info, 0xff, sizeof info);
    uint64_t dout = kt_upload(out, sizeof out), dinfo = kt_upload(info, sizeof info);
    unsigned w = W, h = H;
    const void *p[] = {&dout, &dinfo, &w, &h};
    if (kt_launch3("grid2d_partial", GX, GY, 1, 16, 8, 1, p, 4))
        return;
    gfx_memcpy_dtoh(kt.dev, out, dout, sizeof out);
    gfx_memcpy_dtoh(kt.dev, info, dinfo, sizeof info);
    int bad = 0;
    for (int y = 0; y < H; y++)
        for (int x = 0; x < W; x++)
            if (out[y * W + x] != x * 1000 + y && bad++ < 2)
                printf("  grid2d[%d][%d]: got %d\n", y, x, out[y * W + x]);
    for (int k = W * H; k < W * H + 64; k++)
        bad += out[k] != -1;
    CHECK(bad == 0, "%s grid2d_partial %dx%d in %dx%d blocks of 16x8: %d wrong", kt.tag, W, H, GX,
          GY, bad);
    const uint32_t want[8] = {GX, GY, 16, 8, 2, GX * 16, GY * 8, 16};
    static const char *what[8] = {"hidden_block_count_x", "hidden_block_count_y",
                                  "hidden_group_size_x",  "hidden_group_size_y",
                                  "hidden_grid_dims",     "packet grid_size_x",
                                  "packet grid_size_y",   "packet workgroup_size_x"};
    for (int k = 0; k < 8; k++)
        CHECK(info[k] == want[k], "%s grid2d_partial %s: got %u want %u", kt.tag, what[k], info[k],
              want[k]);
}

/* ---- 6. 3D grid, partial workgroups and partial waves -------------------------------------------
 */
static void t_grid3d(void) {
    enum { X = 13, Y = 10, Z = 7 };
    static int32_t out[X * Y * Z + 64];
    memset(out, 0xff, sizeof out);
    uint64_t dout = kt_upload(out, sizeof out);
    unsigned x = X, y = Y, z = Z;
    const void *p[] = {&dout, &x, &y, &z};
    if (kt_launch3("grid3d_partial", (X + 4) / 5, (Y + 2) / 3, (Z + 1) / 2, 5, 3, 2, p, 4))
        return;
    gfx_memcpy_dtoh(kt.dev, out, dout, sizeof out);
    int bad = 0;
    for (int k = 0; k < Z; k++)
        for (int j = 0; j < Y; j++)
            for (int i = 0; i < X; i++)
                if (out[(k * Y + j) * X + i] != (i | j << 8 | k << 16) && bad++ < 2)
                    printf("  grid3d[%d][%d][%d]: got %#x\n", k, j, i, out[(k * Y + j) * X + i]);
    for (int k = X * Y * Z; k < X * Y * Z + 64; k++)
        bad += out[k] != -1;
    CHECK(bad == 0, "%s grid3d_partial %dx%dx%d in blocks of 5x3x2: %d wrong", kt.tag, X, Y, Z,
          bad);
}

/* ---- 7. many workgroups ------------------------------------------------------------------------
 */
/* The -O3 builds launch 203,500 workgroups (more than 65,535, a flat id past 16 bits); the others
 * read the ids with their own code but in a 1100x3x2 grid: x still needs 11 bits and y and z are
 * still past 1, at 3% of the cost (the full grid at -O0 was most of this suite's time). */
static void t_wg_ids(void) {
    enum { GX = 1100, GY_BIG = 37, GZ_BIG = 5, NWG_BIG = GX * GY_BIG * GZ_BIG };
    static uint32_t out[2 * NWG_BIG];
    const int big = strstr(kt.tag, "-O3") != NULL;
    const uint32_t GY = big ? GY_BIG : 3, GZ = big ? GZ_BIG : 2, NWG = GX * GY * GZ;
    kt_buf bufs[] = {{out, 2 * NWG * sizeof out[0]}};
    if (kt_call("wg_ids", (uint32_t[3]){GX, GY, GZ}, (uint32_t[3]){1, 1, 1}, bufs, 1, 1, NULL, 0))
        return;
    int bad = 0;
    for (uint32_t z = 0; z < GZ; z++)
        for (uint32_t y = 0; y < GY; y++)
            for (uint32_t x = 0; x < GX; x++) {
                uint32_t f = (z * GY + y) * GX + x;
                if ((out[2 * f] != (x | y << 12 | z << 24) || out[2 * f + 1] != NWG) && bad++ < 2)
                    printf("  wg_ids (%u,%u,%u): got %#x %u\n", x, y, z, out[2 * f],
                           out[2 * f + 1]);
            }
    CHECK(bad == 0, "%s wg_ids: %d of %d workgroups wrong", kt.tag, bad, NWG);
}

/* ---- 8. f64 min/max, f32 min, packed f16 add, LDS f32 add
 * ---------------------------------------- */
static void t_atomics_fminmax(void) {
    static double v[T];
    static float sums[G * 4], wsums[G * 4];
    static _Float16 h[128];
    double d[2] = {1e300, -1e300}, wd[2] = {1e300, -1e300};
    float f = INFINITY, wf = INFINITY;
    memset(wsums, 0, sizeof wsums);
    memset(h, 0, sizeof h);
    for (int i = 0; i < T; i++) {
        /* nonzero, both signs, |v| < 2^60: (int)(v * 2^-44) < 2^16, and 64 of them sum exactly */
        v[i] = ldexp((double)((int64_t)rnd64() >> 4), -(int)(rnd() % 80)) + (i % 2 ? 0.5 : -0.5);
        wd[0] = v[i] < wd[0] ? v[i] : wd[0];
        wd[1] = v[i] > wd[1] ? v[i] : wd[1];
        wf = (float)v[i] < wf ? (float)v[i] : wf;
        wsums[(i / 256) * 4 + (i & 3)] += (float)(int)(v[i] * 0x1p-44);
    }
    uint64_t dd = kt_upload(d, sizeof d), df = kt_upload(&f, 4), dh = kt_upload(h, sizeof h),
             ds = kt_upload(NULL, sizeof sums), dv = kt_upload(v, sizeof v);
    const void *p[] = {&dd, &df, &dh, &ds, &dv};
    if (kt_launch3("atomics_fminmax", G, 1, 1, 256, 1, 1, p, 5))
        return;
    gfx_memcpy_dtoh(kt.dev, d, dd, sizeof d);
    gfx_memcpy_dtoh(kt.dev, &f, df, 4);
    gfx_memcpy_dtoh(kt.dev, h, dh, sizeof h);
    gfx_memcpy_dtoh(kt.dev, sums, ds, sizeof sums);
    CHECK(d[0] == wd[0] && d[1] == wd[1], "%s global_atomic_min/max_f64: got %a %a want %a %a",
          kt.tag, d[0], d[1], wd[0], wd[1]);
    CHECK(f == wf, "%s f32 atomic min (CAS loop): got %a want %a", kt.tag, f, wf);
    int bad = 0;
    for (int k = 0; k < 64; k++) /* T / 64 adds of (1, 0.5) each */
        bad += (double)h[2 * k] != T / 64 || (double)h[2 * k + 1] != T / 128;
    CHECK(bad == 0, "%s global_atomic_pk_add_f16: %d of 64 wrong (got %g %g want %d %d)", kt.tag,
          bad, (double)h[0], (double)h[1], T / 64, T / 128);
    bad = 0;
    for (int k = 0; k < G * 4; k++)
        bad += sums[k] != wsums[k];
    CHECK(bad == 0, "%s ds_add_f32: %d of %d workgroup sums wrong (got %g want %g)", kt.tag, bad,
          G * 4, sums[0], wsums[0]);
}

int main(void) {
    static const kt_test tests[] = {t_atomics_i32, t_atomics_i64, t_atomics_cas, t_atomics_fadd,
                                    t_grid2d,      t_grid3d,      t_wg_ids,      t_atomics_fminmax};
    if (kt_run_all("atomics", "", tests, sizeof tests / sizeof tests[0]))
        return 1;
    /* RDNA (src/exec/rdna.c): atomics.cl leaves atomics_fminmax out there */
    static const kt_test rdna[] = {t_atomics_i32, t_atomics_i64, t_atomics_cas, t_atomics_fadd,
                                   t_grid2d,      t_grid3d,      t_wg_ids};
    if (kt_run_rdna("atomics", "", rdna, sizeof rdna / sizeof rdna[0]))
        return 1;
    return check_summary("atomics");
}
