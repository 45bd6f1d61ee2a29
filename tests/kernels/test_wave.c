/* test_wave.c - cross-lane and memory kernels (tests/kernels/wave.cl) compiled by clang-22 for
 * gfx950 and gfx942 at -O0, -O1 and -O3, checked bit for bit against C references.
 *
 * The cross-lane references model the CDNA3 ISA descriptions directly: readfirstlane reads the
 * lowest active lane; ballot sets a bit per active lane; mbcnt counts the mask bits below the
 * lane; ds_bpermute lane l reads lane (addr[l] / 4) mod 64, ds_permute writes it; DPP lane l
 * reads the lane its control names ("DPP_CTRL" table), a lane whose row or bank is masked off is
 * not written (keeps `old`), an invalid source lane gives 0 with BOUND_CTRL and `old` without;
 * ds_swizzle in bitmask mode reads lane ((l & and) | or) ^ xor within its half-wave, in quad
 * mode lane offset[2k+1:2k] of its quad. */
#include "common/check.h"
#include "common/kernels.h"
#include "gfxemu.h"

#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static uint64_t rng = 0x510e527fade682d1ull;
static uint32_t rnd(void) { return kt_rand(&rng); }

/* ---- 1. readfirstlane, readlane, ballot, mbcnt ----------------------------------------------- */
static void t_ballot(void) {
    enum { N = 1000, W = (N + 63) / 64 }; /* the last wave has 40 lanes */
    static int32_t v[N], out[3 * 64 * W], want[3 * 64 * W];
    uint64_t masks[W], wmask[W];
    for (int i = 0; i < N; i++)
        v[i] = (int32_t)rnd() >> (rnd() % 16);
    for (int i = 64; i < 128; i++)
        v[i] &= ~1; /* a wave with no odd value */
    v[128] |= 1;    /* one whose first lane is odd */
    memset(out, 0x7f, sizeof out);
    memcpy(want, out, sizeof out);
    memset(masks, 0, sizeof masks);
    for (int w = 0; w < W; w++) {
        int lanes = N - 64 * w < 64 ? N - 64 * w : 64, first = -1, cnt = 0, found = 0;
        wmask[w] = 0;
        for (int l = 0; l < lanes; l++)
            if (v[64 * w + l] & 1) {
                if (!found++)
                    first = v[64 * w + l];
                wmask[w] |= 1ull << l;
                want[192 * w + 64 + cnt++] = v[64 * w + l];
            }
        for (int l = 0; l < lanes; l++) {
            want[192 * w + l] = v[64 * w + l] & 1 ? first : -1;
            want[192 * w + 128 + l] = v[64 * w + 37];
        }
    }
    uint64_t dv = kt_upload(v, sizeof v), dout = kt_upload(out, sizeof out),
             dm = kt_upload(NULL, sizeof masks);
    unsigned n = N;
    const void *p[] = {&dout, &dm, &dv, &n};
    if (kt_launch1("wave_ballot", W, 64, p, 4))
        return;
    gfx_memcpy_dtoh(kt.dev, out, dout, sizeof out);
    gfx_memcpy_dtoh(kt.dev, masks, dm, sizeof masks);
    int bad[4] = {0};
    static const char *what[3] = {"readfirstlane", "ballot+mbcnt compaction", "readlane 37"};
    for (int i = 0; i < 3 * 64 * W; i++)
        if (out[i] != want[i])
            kt_bad(&bad[(i / 64) % 3], "  wave_ballot wave %d %s lane %d: got %d want %d\n",
                   i / 192, what[(i / 64) % 3], i % 64, out[i], want[i]);
    for (int w = 0; w < W; w++)
        if (masks[w] != wmask[w])
            kt_bad(&bad[3], "  ballot wave %d: got %#llx want %#llx\n", w,
                   (unsigned long long)masks[w], (unsigned long long)wmask[w]);
    for (int k = 0; k < 3; k++)
        CHECK(bad[k] == 0, "%s wave_ballot %s: %d wrong", kt.tag, what[k], bad[k]);
    CHECK(bad[3] == 0, "%s wave_ballot ballot masks: %d wrong", kt.tag, bad[3]);
}

/* ---- 2. ds_bpermute / ds_permute --------------------------------------------------------------
 */
static void t_permute(void) {
    enum { W = 8, N = 64 * W };
    static int32_t v[N], idx[N], out[2 * N];
    for (int i = 0; i < N; i++) {
        v[i] = (int32_t)rnd();
        idx[i] = (int32_t)(rnd() % 256); /* beyond 63: only the lane bits of the address count */
    }
    kt_buf bufs[] = {KT_BUF(out), KT_BUF(v), KT_BUF(idx)};
    if (kt_call("wave_permute", (uint32_t[3]){W, 1, 1}, (uint32_t[3]){64, 1, 1}, bufs, 1, 3, NULL,
                0))
        return;
    int bad[2] = {0};
    for (int w = 0; w < W; w++) {
        int r = idx[64 * w];
        for (int l = 0; l < 64; l++) {
            int32_t pull = v[64 * w + (idx[64 * w + l] & 63)];
            int32_t push = v[64 * w + ((l - r) & 63)];
            if (out[128 * w + l] != pull)
                kt_bad(&bad[0], "  ds_bpermute wave %d lane %d idx %d: got %d want %d\n", w, l,
                       idx[64 * w + l], out[128 * w + l], pull);
            if (out[128 * w + 64 + l] != push)
                kt_bad(&bad[1], "  ds_permute wave %d lane %d (rotate %d): got %d want %d\n", w, l,
                       r, out[128 * w + 64 + l], push);
        }
    }
    CHECK(bad[0] == 0, "%s ds_bpermute_b32: %d wrong", kt.tag, bad[0]);
    CHECK(bad[1] == 0, "%s ds_permute_b32: %d wrong", kt.tag, bad[1]);
}

/* ---- 3. DPP -----------------------------------------------------------------------------------
 */
/* The source lane of lane l for a DPP control, or -1 when there is none. */
static int dpp_src(unsigned ctrl, int l) {
    int row = l & ~15, s;
    if (ctrl <= 0xff)
        return (l & ~3) | ((ctrl >> (2 * (l & 3))) & 3);
    if (ctrl >= 0x101 && ctrl <= 0x10f)
        return (s = l + (int)(ctrl & 15)) < row + 16 ? s : -1; /* row_shl */
    if (ctrl >= 0x111 && ctrl <= 0x11f)
        return (s = l - (int)(ctrl & 15)) >= row ? s : -1; /* row_shr */
    if (ctrl >= 0x121 && ctrl <= 0x12f)
        return row | ((l - (int)(ctrl & 15)) & 15); /* row_ror */
    if (ctrl >= 0x150 && ctrl <= 0x15f)
        return row | (int)(ctrl & 15); /* row_newbcast */
    switch (ctrl) {
    case 0x130: return l < 63 ? l + 1 : -1; /* wave_shl:1 */
    case 0x134: return (l + 1) & 63;        /* wave_rol:1 */
    case 0x138: return l > 0 ? l - 1 : -1;  /* wave_shr:1 */
    case 0x13c: return (l - 1) & 63;        /* wave_ror:1 */
    case 0x140: return row | (15 - (l & 15));
    case 0x141: return (l & ~7) | (7 - (l & 7));
    case 0x142: return row ? row - 1 : -1; /* row_bcast:15: last lane of the previous row */
    case 0x143: return l >= 32 ? 31 : -1;  /* row_bcast:31 */
    }
    return -1;
}

static void t_dpp(void) {
    enum { W = 4, N = 64 * W };
    static const struct {
        unsigned ctrl, row_mask, bank_mask, bound_ctrl;
    } c[12] = {{0x4e, 0xf, 0xf, 0},  {0x101, 0xf, 0xf, 0}, {0x113, 0xf, 0xf, 1},
               {0x125, 0xf, 0xf, 0}, {0x138, 0xf, 0xf, 0}, {0x134, 0xf, 0xf, 0},
               {0x140, 0xf, 0xf, 0}, {0x141, 0xf, 0xf, 0}, {0x142, 0xa, 0xf, 0},
               {0x143, 0xc, 0xf, 0}, {0xe4, 0xf, 0x5, 0},  {0x153, 0x5, 0xf, 1}};
    static int32_t v[N], out[12 * N];
    for (int i = 0; i < N; i++)
        v[i] = (int32_t)(rnd() | 1); /* never 0 or -7, the values of unwritten lanes */
    kt_buf bufs[] = {KT_BUF(out), KT_BUF(v)};
    if (kt_call("wave_dpp", (uint32_t[3]){W, 1, 1}, (uint32_t[3]){64, 1, 1}, bufs, 1, 2, NULL, 0))
        return;
    int bad[12] = {0};
    for (int i = 0; i < N; i++) {
        int l = i & 63, base = i & ~63;
        for (int k = 0; k < 12; k++) {
            int32_t want;
            int s = dpp_src(c[k].ctrl, l);
            if (!(c[k].row_mask >> (l >> 4) & 1) || !(c[k].bank_mask >> ((l >> 2) & 3) & 1))
                want = -7; /* not written: the old value */
            else if (s < 0)
                want = c[k].bound_ctrl ? 0 : -7;
            else
                want = v[base + s];
            if (out[12 * i + k] != want)
                kt_bad(&bad[k], "  dpp ctrl %#x lane %d: got %d want %d\n", c[k].ctrl, l,
                       out[12 * i + k], want);
        }
    }
    for (int k = 0; k < 12; k++)
        CHECK(bad[k] == 0,
              "%s v_mov_b32_dpp ctrl %#x row_mask %#x bank_mask %#x bound_ctrl %u: %d wrong",
              kt.tag, c[k].ctrl, c[k].row_mask, c[k].bank_mask, c[k].bound_ctrl, bad[k]);
}

/* ---- 4. ds_swizzle ----------------------------------------------------------------------------
 */
static int swizzle_src(unsigned off, int l) {
    if (off & 0x8000)
        return (l & ~3) | ((off >> (2 * (l & 3))) & 3);
    unsigned and_m = off & 31, or_m = (off >> 5) & 31, xor_m = (off >> 10) & 31;
    return (l & 32) | (int)((((unsigned)l & and_m) | or_m) ^ xor_m);
}

static void t_swizzle(void) {
    enum { W = 4, N = 64 * W };
    static const unsigned offs[5] = {0x041f, 0x7c1f, 0x00a0, 0x0c18, 0x801b};
    static int32_t v[N], out[5 * N];
    for (int i = 0; i < N; i++)
        v[i] = (int32_t)rnd();
    kt_buf bufs[] = {KT_BUF(out), KT_BUF(v)};
    if (kt_call("wave_swizzle", (uint32_t[3]){W, 1, 1}, (uint32_t[3]){64, 1, 1}, bufs, 1, 2, NULL,
                0))
        return;
    int bad[5] = {0};
    for (int i = 0; i < N; i++)
        for (int k = 0; k < 5; k++) {
            int32_t want = v[(i & ~63) + swizzle_src(offs[k], i & 63)];
            if (out[5 * i + k] != want)
                kt_bad(&bad[k], "  ds_swizzle offset %#x lane %d: got %d want %d\n", offs[k],
                       i & 63, out[5 * i + k], want);
        }
    for (int k = 0; k < 5; k++)
        CHECK(bad[k] == 0, "%s ds_swizzle_b32 offset:%#x: %d wrong", kt.tag, offs[k], bad[k]);
}

/* ---- 5. LDS histogram -------------------------------------------------------------------------
 */
static void t_lds_histogram(void) {
    enum { G = 16, PER = 8, T = G * PER * 256 };
    static uint32_t v[T], hist[256], want[256];
    int32_t mm[2] = {INT32_MAX, INT32_MIN}, wmm[2] = {INT32_MAX, INT32_MIN};
    memset(want, 0, sizeof want);
    for (int i = 0; i < T; i++) {
        v[i] = rnd() % 7 ? rnd() : rnd() % 16; /* a few hot bins */
        want[v[i] & 255]++;
        wmm[0] = (int32_t)v[i] < wmm[0] ? (int32_t)v[i] : wmm[0];
        wmm[1] = (int32_t)v[i] > wmm[1] ? (int32_t)v[i] : wmm[1];
    }
    memset(hist, 0, sizeof hist);
    uint64_t dh = kt_upload(hist, sizeof hist), dmm = kt_upload(mm, sizeof mm),
             dv = kt_upload(v, sizeof v);
    unsigned per = PER;
    const void *p[] = {&dh, &dmm, &dv, &per};
    if (kt_launch1("lds_histogram", G, 256, p, 4))
        return;
    gfx_memcpy_dtoh(kt.dev, hist, dh, sizeof hist);
    gfx_memcpy_dtoh(kt.dev, mm, dmm, sizeof mm);
    int bad = 0;
    for (int b = 0; b < 256; b++)
        if (hist[b] != want[b])
            kt_bad(&bad, "  lds_histogram bin %d: got %u want %u\n", b, hist[b], want[b]);
    CHECK(bad == 0, "%s lds_histogram (ds_add_u32): %d bins wrong", kt.tag, bad);
    CHECK(mm[0] == wmm[0] && mm[1] == wmm[1],
          "%s lds_histogram ds_min/max_i32: got %d %d want %d %d", kt.tag, mm[0], mm[1], wmm[0],
          wmm[1]);
}

/* ---- 6. 128 KiB of LDS (gfx950) ---------------------------------------------------------------
 */
static void t_lds_big_hist(void) {
    enum { PER = 64, T = PER * 256, B = 32768 };
    const gfx_kernel *k;
    if (!kt.gfx950) {
        /* clang-22 refuses 128 KiB of LDS for gfx942, so wave.cl defines it for gfx950 only */
        CHECK(gfx_module_kernel(kt.mod, "lds_big_hist", &k) == GFX_ERR_NOT_FOUND,
              "%s lds_big_hist should not exist", kt.tag);
        return;
    }
    static uint32_t v[T], hist[B], want[B];
    memset(want, 0, sizeof want);
    for (int i = 0; i < T; i++) {
        v[i] = i % 5 ? rnd() : 32767 - rnd() % 64; /* hot bins at the very top of the LDS */
        want[v[i] & (B - 1)]++;
    }
    unsigned per = PER;
    kt_buf bufs[] = {KT_BUF(hist), KT_BUF(v)};
    const void *args[] = {&per};
    if (kt_call("lds_big_hist", (uint32_t[3]){1, 1, 1}, (uint32_t[3]){256, 1, 1}, bufs, 1, 2, args,
                1))
        return;
    int bad = 0;
    for (int b = 0; b < B; b++)
        if (hist[b] != want[b])
            kt_bad(&bad, "  lds_big_hist bin %d: got %u want %u\n", b, hist[b], want[b]);
    CHECK(bad == 0, "%s lds_big_hist (128 KiB LDS): %d bins wrong", kt.tag, bad);
}

/* ---- 7. private array sort --------------------------------------------------------------------
 */
static int cmp_i32(const void *a, const void *b) {
    int32_t x = *(const int32_t *)a, y = *(const int32_t *)b;
    return (x > y) - (x < y);
}

static void t_private_sort(void) {
    enum { N = 200 };
    static int32_t v[40 * N], out[41 * N], sorted[40];
    for (int i = 0; i < 40 * N; i++)
        v[i] = (int32_t)rnd() >> (rnd() % 31);
    unsigned n = N;
    kt_buf bufs[] = {KT_BUF(out), KT_BUF(v)};
    const void *args[] = {&n};
    if (kt_call("private_sort", (uint32_t[3]){(N + 63) / 64, 1, 1}, (uint32_t[3]){64, 1, 1}, bufs,
                1, 2, args, 1))
        return;
    int bad = 0;
    for (int i = 0; i < N; i++) {
        memcpy(sorted, &v[40 * i], sizeof sorted);
        qsort(sorted, 40, 4, cmp_i32);
        int32_t pick = (int32_t)((uint32_t)sorted[v[40 * i] & 31] -
                                 (uint32_t)sorted[(v[40 * i + 1] & 7) + 32]);
        if (memcmp(&out[40 * i], sorted, sizeof sorted) != 0 || out[40 * N + i] != pick)
            kt_bad(&bad,
                   "  private_sort[%d]: got %d %d ... %d, pick %d want %d %d ... %d, pick %d\n", i,
                   out[40 * i], out[40 * i + 1], out[40 * i + 39], out[40 * N + i], sorted[0],
                   sorted[1], sorted[39], pick);
    }
    CHECK(bad == 0, "%s private_sort (40 ints of scratch per work-item): %d wrong", kt.tag, bad);
}

/* ---- 8. structs by value ----------------------------------------------------------------------
 */
/* The same layout as in wave.cl: x86-64 and amdgcn align every member naturally. */
typedef struct {
    int8_t c;
    int32_t i;
    double d;
    int16_t s[3];
    float f;
    int64_t l;
} inner_t;
typedef struct {
    uint8_t tag;
    inner_t in;
    _Float16 h;
    uint32_t u[2];
} outer_t;

static void t_struct(void) {
    inner_t a = {-5, 123456, 0.1, {-3, 7, 11}, 2.5f, -(1ll << 40) - 3};
    outer_t b = {200,
                 {9, -70000, -1e300, {1, 2, -32768}, -1.0f, (1ll << 53) - 1},
                 (_Float16)0.333f,
                 {4000000000u, 7}};
    int scale = -2;
    double out[13];
    memset(out, 0, sizeof out);
    uint64_t dout = kt_upload(out, sizeof out);
    const void *p[] = {&dout, &a, &b, &scale};
    if (kt_launch1("struct_byval", 1, 64, p, 4))
        return;
    gfx_memcpy_dtoh(kt.dev, out, dout, sizeof out);
    const double want[13] = {-5,
                             123456,
                             0.1,
                             -3 + 14 + 44,
                             2.5,
                             (double)(-(1ll << 40) - 3),
                             200,
                             9 - 70000,
                             2e300,
                             -32768,
                             (double)((1ll << 53) - 1),
                             (double)(_Float16)0.333f,
                             4000000000.0 - 7};
    int bad = 0;
    for (int k = 0; k < 13; k++)
        if (memcmp(&out[k], &want[k], 8) != 0)
            kt_bad(&bad, "  struct_byval field %d: got %a want %a\n", k, out[k], want[k]);
    CHECK(bad == 0, "%s struct_byval: %d fields wrong", kt.tag, bad);
}

/* ---- 9. many arguments ------------------------------------------------------------------------
 */
static void t_many_args(void) {
    int8_t a0 = -100;
    uint8_t a1 = 250, a20 = 17;
    int16_t a2 = -30000, a17 = 12345;
    uint16_t a3 = 65000;
    int32_t a4 = -2000000000, a21 = 77;
    uint32_t a5 = 4000000000u;
    int64_t a6 = -(1ll << 50), a18 = 1ll << 45;
    uint64_t a7 = 1ull << 63;
    float a8 = 1.25f, a19 = -0.375f;
    double a9 = 1e-300, a15 = -123.5;
    _Float16 a10 = (_Float16)-2.5;
    float a11[4] __attribute__((aligned(16))) = {1, 2, 3, 4};
    int32_t a12[2] __attribute__((aligned(8))) = {10, -20};
    int8_t a14 = 3;
    static int32_t in[64], res[64];
    for (int i = 0; i < 64; i++)
        in[i] = (int32_t)(rnd() % 100000) - 50000;
    double out[64];
    uint64_t dout = kt_upload(NULL, sizeof out), d13 = kt_upload(in, sizeof in),
             d16 = kt_upload(NULL, sizeof res);
    const void *p[] = {&dout, &a0, &a1,  &a2,  &a3,  &a4,  &a5,  &a6,  &a7,  &a8,  &a9, &a10,
                       a11,   a12, &d13, &a14, &a15, &d16, &a17, &a18, &a19, &a20, &a21};
    if (kt_launch1("many_args", 1, 64, p, 23))
        return;
    gfx_memcpy_dtoh(kt.dev, out, dout, sizeof out);
    gfx_memcpy_dtoh(kt.dev, res, d16, sizeof res);
    int bad = 0;
    for (int i = 0; i < 64; i++) {
        double r[22] = {a0,          a1,         a2,  a3,  a4,          a5,
                        (double)a6,  (double)a7, a8,  a9,  (double)a10, 1 + 2 * 2 + 3 * 4 + 4 * 8,
                        30,          in[i],      a14, a15, 0,           a17,
                        (double)a18, a19,        a20, a21};
        if (memcmp(&out[i], &r[i % 22], 8) != 0 || res[i] != in[i] * 2 + i)
            kt_bad(&bad, "  many_args lane %d (argument %d): got %a want %a, p16 %d want %d\n", i,
                   i % 22, out[i], r[i % 22], res[i], in[i] * 2 + i);
    }
    CHECK(bad == 0, "%s many_args (23 arguments of mixed types): %d wrong", kt.tag, bad);
}

/* ---- 10. narrow and wide memory accesses ------------------------------------------------------
 */
static void t_narrow_wide(void) {
    enum { N = 1000 };
    static int8_t s8[N], b8[N + 4];
    static uint16_t u16[N];
    static int16_t b16[N + 2];
    static int32_t in4[4 * N], v4[4 * N], v3[4 * N], o[N];
    for (int i = 0; i < N; i++) {
        s8[i] = (int8_t)rnd();
        u16[i] = (uint16_t)rnd();
    }
    for (int i = 0; i < 4 * N; i++)
        in4[i] = (int32_t)rnd();
    memset(b8, 0x55, sizeof b8);
    memset(b16, 0x55, sizeof b16);
    memset(v3, 0x55, sizeof v3);
    uint64_t db8 = kt_upload(b8, sizeof b8), db16 = kt_upload(b16, sizeof b16),
             dv4 = kt_upload(NULL, sizeof v4), dv3 = kt_upload(v3, sizeof v3),
             dout = kt_upload(NULL, sizeof o), ds8 = kt_upload(s8, sizeof s8),
             du16 = kt_upload(u16, sizeof u16), din4 = kt_upload(in4, sizeof in4);
    unsigned n = N;
    const void *p[] = {&db8, &db16, &dv4, &dv3, &dout, &ds8, &du16, &din4, &n};
    if (kt_launch1("narrow_wide", (N + 63) / 64, 64, p, 9))
        return;
    gfx_memcpy_dtoh(kt.dev, b8, db8, sizeof b8);
    gfx_memcpy_dtoh(kt.dev, b16, db16, sizeof b16);
    gfx_memcpy_dtoh(kt.dev, v4, dv4, sizeof v4);
    gfx_memcpy_dtoh(kt.dev, v3, dv3, sizeof v3);
    gfx_memcpy_dtoh(kt.dev, o, dout, sizeof o);
    int bad = 0;
    for (int i = 0; i < N; i++) {
        int8_t w8 = (int8_t)(s8[i] * 3 + 1);
        int16_t w16 = (int16_t)(u16[i] ^ (uint16_t)(i * 7));
        const int32_t *q = &in4[4 * i];
        int32_t w4[4] = {q[3] + 1, q[2] + 2, q[1] + 3, q[0] + 4};
        int32_t w3[3] = {(int32_t)((uint32_t)q[0] * 2), (int32_t)((uint32_t)q[1] * 2),
                         (int32_t)((uint32_t)q[2] * 2)};
        int32_t wo = s8[i] + u16[i] + s8[N - 1 - i];
        /* int3 is 16 bytes in memory (OpenCL: 3-component vectors are aligned like 4) */
        if (b8[i] != w8 || b16[i] != w16 || memcmp(&v4[4 * i], w4, 16) != 0 ||
            memcmp(&v3[4 * i], w3, 12) != 0 || o[i] != wo)
            kt_bad(&bad, "  narrow_wide[%d]: got %d %d %d %d want %d %d %d %d\n", i, b8[i], b16[i],
                   v4[4 * i], o[i], w8, w16, w4[0], wo);
    }
    /* nothing written past n */
    for (int k = 0; k < 4; k++)
        bad += b8[N + k] != 0x55;
    bad += b16[N] != 0x5555 || b16[N + 1] != 0x5555;
    CHECK(bad == 0, "%s narrow_wide: %d wrong", kt.tag, bad);
}

/* ---- 11. LDS widths ---------------------------------------------------------------------------
 */
static void t_lds_widths(void) {
    static int32_t in[4 * 64], out[12 * 64];
    for (int i = 0; i < 4 * 64; i++)
        in[i] = (int32_t)rnd();
    kt_buf bufs[] = {KT_BUF(out), KT_BUF(in)};
    if (kt_call("lds_widths", (uint32_t[3]){1, 1, 1}, (uint32_t[3]){64, 1, 1}, bufs, 1, 2, NULL, 0))
        return;
    int bad = 0;
    for (int l = 0; l < 64; l++) {
        int r = 63 - l, s = (l + 17) & 63, t = (l * 5) & 63;
        const int32_t *qr = &in[4 * r], *qs = &in[4 * s], *qt = &in[4 * t];
        int32_t w[12] = {qr[0], qr[1],         qr[2],          qr[3],
                         qs[1], qs[2],         qs[3],          qt[0],
                         qt[1], (int8_t)qr[2], (uint8_t)qs[2], (uint16_t)qr[3] + (int16_t)qs[3]};
        if (memcmp(&out[12 * l], w, sizeof w) != 0)
            kt_bad(&bad, "  lds_widths lane %d: got %d %d %d %d want %d %d %d %d\n", l,
                   out[12 * l + 4], out[12 * l + 9], out[12 * l + 10], out[12 * l + 11], w[4], w[9],
                   w[10], w[11]);
    }
    CHECK(bad == 0, "%s lds_widths (b128, b96, b64, i8/u8, u16/i16): %d lanes wrong", kt.tag, bad);
}

/* ---- 12. tiled f32 matrix multiply ------------------------------------------------------------
 */
static void t_matmul_f32(void) {
    enum { M = 48 };
    static float a[M * M], b[M * M], c[M * M];
    for (int i = 0; i < M * M; i++) {
        a[i] = (float)((int)(rnd() % 201) - 100);
        b[i] = (float)((int)(rnd() % 201) - 100);
    }
    uint64_t da = kt_upload(a, sizeof a), db = kt_upload(b, sizeof b),
             dc = kt_upload(NULL, sizeof c);
    unsigned n = M;
    const void *p[] = {&dc, &da, &db, &n};
    uint32_t grid[3] = {M / 16, M / 16, 1}, blk[3] = {16, 16, 1};
    int r = kt_launch("matmul_f32_tiled", grid, blk, p, 4);
    CHECK(r == 0, "%s matmul_f32_tiled: launch failed", kt.tag);
    if (r)
        return;
    gfx_memcpy_dtoh(kt.dev, c, dc, sizeof c);
    int bad = 0;
    for (int i = 0; i < M; i++)
        for (int j = 0; j < M; j++) {
            float s = 0; /* |partial sums| < 2^24: exact in any order */
            for (int k = 0; k < M; k++)
                s += a[i * M + k] * b[k * M + j];
            if (c[i * M + j] != s)
                kt_bad(&bad, "  matmul_f32[%d][%d]: got %g want %g\n", i, j, c[i * M + j], s);
        }
    CHECK(bad == 0, "%s matmul_f32_tiled %dx%d: %d wrong", kt.tag, M, M, bad);
}

/* ---- 13. dynamic LDS ------------------------------------------------------------------------- */
static void t_dyn_lds(void) {
    const gfx_kernel *k;
    gfx_kernel_info info;
    if (gfx_module_kernel(kt.mod, "dyn_lds", &k) != GFX_OK ||
        gfx_kernel_get_info(k, &info) != GFX_OK) {
        CHECK(0, "%s dyn_lds: no kernel", kt.tag);
        return;
    }
    /* gfx950: 120000 bytes of dynamic LDS (beyond gfx942's 64 KiB); gfx942: 32000 */
    uint32_t m = kt.gfx950 ? 30000 : 8000;
    uint32_t lds_off = (info.group_segment_fixed_size + 15) & ~15u; /* where the runtime puts it */
    static uint32_t out[512];                                       /* two workgroups */
    uint64_t dout = kt_upload(NULL, sizeof out);
    const void *p[] = {&dout, &lds_off, &m};
    uint32_t grid[3] = {2, 1, 1}, blk[3] = {256, 1, 1};
    gfx_launch_options o = {.dynamic_lds = 4 * m};
    gfx_result r = gfx_launch_params(kt.dev, k, grid, blk, p, 3, kt_options(&o), NULL);
    CHECK(r == GFX_OK && !kt_no_races("dyn_lds"), "%s dyn_lds %u bytes: %s (%s)", kt.tag, 4 * m,
          gfx_result_str(r), gfx_device_error(kt.dev));
    if (r != GFX_OK)
        return;
    gfx_memcpy_dtoh(kt.dev, out, dout, sizeof out);
    int bad = 0;
    for (uint32_t l = 0; l < 512; l++) {
        uint32_t sum = ((l & 255) + 1) & 63;
        for (uint32_t j = ((l & 255) * 7) % 256; j < m; j += 256)
            sum += (m - 1 - j) * 2654435761u;
        if (out[l] != sum)
            kt_bad(&bad, "  dyn_lds work-item %u: got %u want %u\n", l, out[l], sum);
    }
    CHECK(bad == 0, "%s dyn_lds (%u + %u bytes of LDS): %d wrong", kt.tag, lds_off, 4 * m, bad);
    /* more than the architecture has: refused, and the device still works */
    o.dynamic_lds = 200000;
    r = gfx_launch_params(kt.dev, k, grid, blk, p, 3, &o, NULL);
    CHECK(r == GFX_ERR_RESOURCE, "%s dyn_lds with 200000 bytes: %s, want GFX_ERR_RESOURCE", kt.tag,
          gfx_result_str(r));
    o.dynamic_lds = 4 * m;
    memset(out, 0, sizeof out);
    gfx_memcpy_htod(kt.dev, dout, out, sizeof out);
    r = gfx_launch_params(kt.dev, k, grid, blk, p, 3, &o, NULL);
    gfx_memcpy_dtoh(kt.dev, out, dout, sizeof out);
    CHECK(r == GFX_OK && out[5] != 0, "%s dyn_lds after a refused launch: %s", kt.tag,
          gfx_result_str(r));
}

/* ---- 14. 1024-work-item reduction -------------------------------------------------------------
 */
static void t_reduce1024(void) {
    enum { G = 4 };
    static uint32_t in[G * 1024], out[G], t[1024];
    for (int i = 0; i < G * 1024; i++)
        in[i] = rnd();
    kt_buf bufs[] = {KT_BUF(out), KT_BUF(in)};
    if (kt_call("reduce1024", (uint32_t[3]){G, 1, 1}, (uint32_t[3]){1024, 1, 1}, bufs, 1, 2, NULL,
                0))
        return;
    int bad = 0;
    for (int g = 0; g < G; g++) {
        memcpy(t, &in[g * 1024], sizeof t);
        for (int s = 512; s > 0; s >>= 1)
            for (int l = 0; l < s; l++)
                t[l] = t[l] * 3 + t[l + s];
        if (out[g] != t[0])
            kt_bad(&bad, "  reduce1024[%d]: got %#x want %#x\n", g, out[g], t[0]);
    }
    CHECK(bad == 0, "%s reduce1024 (16 waves, 10 barriers): %d of %d wrong", kt.tag, bad, G);
}

/* ---- 15. 4 KiB of scratch per work-item -------------------------------------------------------
 */
static void t_private_big(void) {
    enum { N = 130 };
    static int32_t idx[32 * N], out[N], arr[1024];
    for (int i = 0; i < 32 * N; i++)
        idx[i] = (int32_t)(rnd() & 0xfffff);
    unsigned n = N;
    kt_buf bufs[] = {KT_BUF(out), KT_BUF(idx)};
    const void *args[] = {&n};
    if (kt_call("private_big", (uint32_t[3]){(N + 63) / 64, 1, 1}, (uint32_t[3]){64, 1, 1}, bufs, 1,
                2, args, 1))
        return;
    int bad = 0;
    for (int i = 0; i < N; i++) {
        for (int k = 0; k < 1024; k++)
            arr[k] = i * 1024 + k;
        for (int k = 0; k < 32; k++)
            arr[idx[32 * i + k] & 1023] ^= k << 20;
        uint32_t s = 0;
        for (int k = 0; k < 32; k++)
            s = s * 31 + (uint32_t)arr[(idx[32 * i + k] >> 10) & 1023];
        if (out[i] != (int32_t)s)
            kt_bad(&bad, "  private_big[%d]: got %d want %d\n", i, out[i], (int32_t)s);
    }
    CHECK(bad == 0, "%s private_big (4 KiB of scratch per work-item): %d wrong", kt.tag, bad);
}

/* ---- 16. raw buffer accesses ----------------------------------------------------------------- */
static void t_buffer_raw(void) {
    static int32_t buf[256], out[64];
    for (int i = 0; i < 256; i++)
        buf[i] = (int32_t)rnd();
    int load_bytes = 100, store_bytes = 400; /* lanes 0-24 load, lanes 0-35 store */
    uint64_t db = kt_upload(buf, sizeof buf), dout = kt_upload(NULL, sizeof out);
    const void *p[] = {&dout, &db, &load_bytes, &store_bytes};
    if (kt_launch1("buffer_raw", 1, 64, p, 4))
        return;
    static int32_t after[256];
    gfx_memcpy_dtoh(kt.dev, out, dout, sizeof out);
    gfx_memcpy_dtoh(kt.dev, after, db, sizeof after);
    int bad = 0;
    for (int l = 0; l < 64; l++) {
        int32_t v = l < 25 ? buf[l] : 0;
        if (out[l] != v)
            kt_bad(&bad, "  buffer_load lane %d: got %d want %d\n", l, out[l], v);
    }
    for (int k = 0; k < 256; k++) {
        /* stores from lane l go to dword 64 + l, kept while its byte offset is below 400 */
        int32_t w = k >= 64 && k < 100 ? (k - 64 < 25 ? buf[k - 64] : 0) + 1 : buf[k];
        if (after[k] != w)
            kt_bad(&bad, "  buffer_store dword %d: got %d want %d\n", k, after[k], w);
    }
    CHECK(bad == 0, "%s buffer_raw (num_records range checks): %d wrong", kt.tag, bad);
}

int main(void) {
    static const kt_test tests[] = {t_ballot,        t_permute,      t_dpp,          t_swizzle,
                                    t_lds_histogram, t_lds_big_hist, t_private_sort, t_struct,
                                    t_many_args,     t_narrow_wide,  t_lds_widths,   t_matmul_f32,
                                    t_dyn_lds,       t_reduce1024,   t_private_big,  t_buffer_raw};
    if (kt_run_all("wave", "", tests, sizeof tests / sizeof tests[0]))
        return 1;
    return check_summary("wave");
}
