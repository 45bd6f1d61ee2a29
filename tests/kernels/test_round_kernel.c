/* test_round_kernel.c - clang-22 kernels that change the rounding mode themselves
 * (tests/kernels/round.cl), for gfx950 and gfx942 at -O0, -O1 and -O3.
 *
 * References: the host's own operations between fesetround() calls on volatile operands (the
 * volatile loads and stores keep GCC from moving the arithmetic across the mode change), and
 * libgcc's float -> _Float16 conversion, which follows the host rounding mode.  The mode read
 * back with __builtin_flt_rounds is C's FLT_ROUNDS numbering (0 zero, 1 nearest, 2 +inf,
 * 3 -inf). */
#include "common/check.h"
#include "common/kernels.h"
#include "gfxemu.h"

#include <fenv.h>
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>

static uint64_t rng = 0x510e527fade682d1ull;
static uint32_t rnd(void) { return kt_rand(&rng); }

#define N 640
#define GROUPS (N / 64)
static const int HOST[4] = {FE_TONEAREST, FE_UPWARD, FE_DOWNWARD, FE_TOWARDZERO};
static const int FLT_OF_HW[4] = {1, 2, 3, 0}; /* FP_ROUND value -> FLT_ROUNDS value */

/* [op](x, y, z) with the host in mode m */
static void ref(int m, float x, float y, float z, double dx, double dy, float *r, double *rd,
                uint16_t *h) {
    volatile float vx = x, vy = y, vz = z, o[4];
    volatile double vdx = dx, vdy = dy, od[2];
    volatile _Float16 oh;
    fesetround(HOST[m]);
    o[0] = vx + vy;
    o[1] = vx * vy;
    o[2] = fmaf(vx, vy, vz);
    o[3] = vx - vy;
    od[0] = vdx + vdy;
    od[1] = vdx * vdy;
    oh = (_Float16)vx;
    fesetround(FE_TONEAREST);
    for (int k = 0; k < 4; k++)
        r[k] = o[k];
    rd[0] = od[0], rd[1] = od[1];
    _Float16 hv = oh;
    memcpy(h, &hv, 2);
}

static float rnd_f32(int i) {
    uint32_t r = rnd();
    if (i % 8 == 0)
        return from_bits32(r & 0x807fffffu); /* denormal */
    if (i % 8 == 1)
        return from_bits32((r & 0x807fffffu) | (250 + rnd() % 4) << 23); /* near overflow */
    if (i % 8 == 2)
        return from_bits32((r & 0x80001fffu) | (100 + rnd() % 40) << 23 | 0x1000); /* f16 ties */
    return from_bits32((r & 0x807fffffu) | (110 + rnd() % 30) << 23);
}

static void t_setreg(void) {
    static float a[N], b[N], c[N], out[4 * N];
    static double da[N], db[N], outd[2 * N];
    static uint16_t outh[N];
    static int32_t modes[N];
    for (int i = 0; i < N; i++) {
        a[i] = rnd_f32(i);
        b[i] = i % 5 == 0 ? a[i] : rnd_f32((int)rnd()); /* x - x: -0 toward -inf */
        c[i] = rnd_f32((int)rnd());
        for (int k = 0; k < 2; k++) {
            uint64_t r = ((uint64_t)rnd() << 32 | rnd()) & 0x800fffffffffffffull;
            r |= (uint64_t)(1000 + rnd() % 40) << 52;
            memcpy(k ? &db[i] : &da[i], &r, 8);
        }
    }
    a[1] = 1.0f, b[1] = 0x1p-24f;                   /* a tie */
    a[2] = 0x1.fffffep127f, b[2] = 0x1.fffffep127f; /* overflow: max finite toward zero/-inf */
    a[3] = 0x1p-149f, b[3] = 0.75f;                 /* a product below the smallest denormal */
    uint64_t d_out = kt_upload(NULL, sizeof out), d_outd = kt_upload(NULL, sizeof outd),
             d_outh = kt_upload(NULL, sizeof outh), d_modes = kt_upload(NULL, sizeof modes),
             d_a = kt_upload(a, sizeof a), d_b = kt_upload(b, sizeof b),
             d_c = kt_upload(c, sizeof c), d_da = kt_upload(da, sizeof da),
             d_db = kt_upload(db, sizeof db);
    static const char *what[7] = {"add", "mul", "fma", "sub", "f64 add", "f64 mul", "cvt f16"};
    for (unsigned m = 0; m < 4; m++) {
        unsigned n = N;
        const void *p[] = {&d_out, &d_outd, &d_outh, &d_modes, &d_a, &d_b,
                           &d_c,   &d_da,   &d_db,   &m,       &n};
        if (kt_launch1("round_setreg", GROUPS, 64, p, 11))
            continue;
        gfx_memcpy_dtoh(kt.dev, out, d_out, sizeof out);
        gfx_memcpy_dtoh(kt.dev, outd, d_outd, sizeof outd);
        gfx_memcpy_dtoh(kt.dev, outh, d_outh, sizeof outh);
        gfx_memcpy_dtoh(kt.dev, modes, d_modes, sizeof modes);
        int bad[8] = {0};
        for (int i = 0; i < N; i++) {
            float w[4];
            double wd[2];
            uint16_t wh;
            ref((int)m, a[i], b[i], c[i], da[i], db[i], w, wd, &wh);
            for (int k = 0; k < 4; k++)
                if (!same32(out[4 * i + k], w[k]))
                    kt_bad(&bad[k], "  mode %u %s(%a, %a, %a): got %a want %a\n", m, what[k], a[i],
                           b[i], c[i], out[4 * i + k], w[k]);
            for (int k = 0; k < 2; k++)
                if (!same64(outd[2 * i + k], wd[k]))
                    kt_bad(&bad[4 + k], "  mode %u %s(%a, %a): got %a want %a\n", m, what[4 + k],
                           da[i], db[i], outd[2 * i + k], wd[k]);
            if (outh[i] != wh && !((wh & 0x7fff) > 0x7c00 && (outh[i] & 0x7fff) > 0x7c00))
                kt_bad(&bad[6], "  mode %u cvt f16(%a): got %04x want %04x\n", m, a[i], outh[i],
                       wh);
            if (modes[i] != FLT_OF_HW[m])
                kt_bad(&bad[7], "  mode %u: __builtin_flt_rounds() = %d, want %d\n", m, modes[i],
                       FLT_OF_HW[m]);
        }
        for (int k = 0; k < 7; k++)
            CHECK(bad[k] == 0, "%s rounding mode %u: %s: %d wrong", kt.tag, m, what[k], bad[k]);
        CHECK(bad[7] == 0, "%s rounding mode %u: mode read back wrong in %d lanes", kt.tag, m,
              bad[7]);
    }
}

/* __builtin_set_flt_rounds (llvm.set.rounding) takes FLT_ROUNDS values; the next launch starts
 * again from the descriptor's mode (nearest), whatever the previous one left. */
static void t_flt_rounds(void) {
    static float a[N], b[N], out[N];
    static int32_t modes[N];
    for (int i = 0; i < N; i++) {
        a[i] = rnd_f32(i);
        b[i] = rnd_f32((int)rnd());
    }
    uint64_t d_out = kt_upload(NULL, sizeof out), d_modes = kt_upload(NULL, sizeof modes),
             d_a = kt_upload(a, sizeof a), d_b = kt_upload(b, sizeof b);
    static const int flt_to_host[4] = {FE_TOWARDZERO, FE_TONEAREST, FE_UPWARD, FE_DOWNWARD};
    for (int flt = 0; flt < 4; flt++) {
        unsigned n = N;
        const void *p[] = {&d_out, &d_modes, &d_a, &d_b, &flt, &n};
        if (kt_launch1("round_flt", GROUPS, 64, p, 6))
            continue;
        gfx_memcpy_dtoh(kt.dev, out, d_out, sizeof out);
        gfx_memcpy_dtoh(kt.dev, modes, d_modes, sizeof modes);
        int bad = 0, badm = 0;
        for (int i = 0; i < N; i++) {
            volatile float x = a[i], y = b[i], s;
            fesetround(flt_to_host[flt]);
            s = x + y;
            fesetround(FE_TONEAREST);
            if (!same32(out[i], s))
                kt_bad(&bad, "  FLT_ROUNDS %d: %a + %a = %a, want %a\n", flt, a[i], b[i], out[i],
                       s);
            if (modes[i] != flt)
                kt_bad(&badm, "  FLT_ROUNDS %d: read back %d\n", flt, modes[i]);
        }
        CHECK(bad == 0, "%s __builtin_set_flt_rounds(%d): %d sums wrong", kt.tag, flt, bad);
        CHECK(badm == 0, "%s __builtin_set_flt_rounds(%d): %d lanes read the mode wrong", kt.tag,
              flt, badm);
    }
    /* after a launch that left toward -inf (FLT_ROUNDS 3) behind: nearest again */
    unsigned n = N;
    const void *p[] = {&d_out, &d_modes, &d_a, &d_b, &n};
    if (kt_launch1("round_none", GROUPS, 64, p, 5))
        return;
    gfx_memcpy_dtoh(kt.dev, out, d_out, sizeof out);
    gfx_memcpy_dtoh(kt.dev, modes, d_modes, sizeof modes);
    int bad = 0;
    for (int i = 0; i < N; i++)
        if (!same32(out[i], a[i] + b[i]) || modes[i] != 1)
            kt_bad(&bad, "  no mode change: %a + %a = %a (mode %d), want %a (mode 1)\n", a[i], b[i],
                   out[i], modes[i], a[i] + b[i]);
    CHECK(bad == 0, "%s a kernel that sets no mode: %d lanes not at nearest-even", kt.tag, bad);
}

/* An op without a directed-rounding model stops the launch with a message naming the mode. */
static void t_unsupported(void) {
    static float a[64], out[64];
    uint64_t d_out = kt_upload(NULL, sizeof out), d_a = kt_upload(a, sizeof a);
    const void *p[] = {&d_out, &d_a};
    const gfx_kernel *k;
    if (gfx_module_kernel(kt.mod, "round_exp", &k) != GFX_OK) {
        CHECK(0, "%s round_exp: kernel not found", kt.tag);
        return;
    }
    uint32_t grid[3] = {1, 1, 1}, blk[3] = {64, 1, 1};
    gfx_launch_options o = {0};
    gfx_stats st;
    gfx_fault f;
    gfx_result r = gfx_launch_params(kt.dev, k, grid, blk, p, 2, &o, &st);
    memset(&f, 0, sizeof f);
    gfx_last_fault(kt.dev, &f);
    CHECK(r == GFX_ERR_FAULT && f.kind == GFX_FAULT_UNIMPLEMENTED &&
              strstr(f.message, "v_exp_f32") && strstr(f.message, "toward -inf"),
          "%s round_exp: %s, message '%s'", kt.tag, gfx_result_str(r), f.message);
}

int main(void) {
    static const kt_test tests[] = {t_setreg, t_flt_rounds, t_unsupported};
    return kt_main("round", "", tests, sizeof tests / sizeof tests[0], "round");
}
