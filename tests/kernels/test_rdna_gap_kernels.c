/* test_rdna_gap_kernels.c - clang-22 kernels for RDNA ops added from issue 15's gap list
 * (tests/kernels/rdna_gap.cl) on gfx1100 and gfx1201, wave32 and wave64, -O0..-O3: ds_append /
 * ds_consume.  Checked against the RDNA3 ISA's DS_APPEND / DS_CONSUME: one atomic per wave
 * adds (subtracts) the number of active lanes and every active lane receives the value before
 * it, so all lanes of a kind in one wave hold one ticket, the waves' tickets chain from the
 * counter's start in whatever order the waves ran, and the counters end at n and 1000 - m.
 * And atomic float min/max (gfx1201: ds_min_num_f32 ..., global_atomic_min_num_f32) against a C
 * fold with the RDNA4 ISA's minimumNumber/maximumNumber rules. */
#include "common/check.h"
#include "common/kernels.h"
#include "gfxemu.h"

#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define G 3u /* workgroups of 64 */
#define N (64u * G)

/* Tickets of one kind in one wave: every active lane of the kind holds the same value. */
typedef struct {
    int ticket;
    unsigned count;
} wave_take;
static int by_ticket(const void *a, const void *b) {
    int x = ((const wave_take *)a)->ticket, y = ((const wave_take *)b)->ticket;
    return (x > y) - (x < y);
}
/* The waves' takes of one counter, in the order they ran, must chain from start: each wave's
 * ticket is the counter after the waves before it (dir +1 append, -1 consume), and the counter
 * ends at start + dir * (all lanes). */
static int chain_ok(wave_take *t, unsigned n, int start, int dir, int final) {
    qsort(t, n, sizeof *t, by_ticket);
    if (dir < 0) /* consume: the first wave got the highest ticket */
        for (unsigned i = 0; i < n / 2; i++) {
            wave_take x = t[i];
            t[i] = t[n - 1 - i], t[n - 1 - i] = x;
        }
    int c = start;
    for (unsigned i = 0; i < n; i++) {
        if (t[i].ticket != c)
            return 0;
        c += dir * (int)t[i].count;
    }
    return c == final;
}

static void t_append(void) {
    int32_t in[N], tick[N], total[2 * G];
    unsigned ws = strstr(kt.tag, "-w64") ? 64 : 32;
    uint64_t rng = 0x5eed1234ull;
    for (unsigned i = 0; i < N; i++)
        in[i] = (int32_t)(kt_rand(&rng) % 7) - 3;
    uint64_t din = kt_upload(in, sizeof in), dt = kt_upload(NULL, sizeof tick),
             dtot = kt_upload(NULL, sizeof total);
    const void *p[] = {&din, &dt, &dtot};
    if (kt_launch1("append", G, 64, p, 3))
        return;
    gfx_memcpy_dtoh(kt.dev, tick, dt, sizeof tick);
    gfx_memcpy_dtoh(kt.dev, total, dtot, sizeof total);
    int bad = 0;
    for (unsigned g = 0; g < G; g++) {
        wave_take ta[2], tc[2];
        unsigned na = 0, nc = 0, nw = 64 / ws;
        for (unsigned wv = 0; wv < nw; wv++) {
            ta[wv] = (wave_take){-1, 0}, tc[wv] = (wave_take){-1, 0};
            for (unsigned i = 64 * g + ws * wv; i < 64 * g + ws * (wv + 1); i++) {
                wave_take *t = in[i] > 0 ? &ta[wv] : &tc[wv];
                int v = in[i] > 0 ? tick[i] : tick[i] - 10000;
                if (t->count && t->ticket != v)
                    kt_bad(&bad, "%s append: workgroup %u wave %u: lane %u got %d, another %d",
                           kt.tag, g, wv, i % ws, v, t->ticket);
                t->ticket = v, t->count++;
            }
            na += ta[wv].count, nc += tc[wv].count;
        }
        /* a wave with no lane of a kind takes nothing from that counter */
        wave_take ca[2], cc[2];
        unsigned ka = 0, kc = 0;
        for (unsigned wv = 0; wv < nw; wv++) {
            if (ta[wv].count)
                ca[ka++] = ta[wv];
            if (tc[wv].count)
                cc[kc++] = tc[wv];
        }
        if (!chain_ok(ca, ka, 0, 1, total[2 * g]) || total[2 * g] != (int32_t)na ||
            !chain_ok(cc, kc, 1000, -1, total[2 * g + 1]) || total[2 * g + 1] != 1000 - (int32_t)nc)
            kt_bad(&bad,
                   "%s append: workgroup %u: %u appends (counter %d), %u consumes (counter %d)",
                   kt.tag, g, na, total[2 * g], nc, total[2 * g + 1]);
    }
    CHECK(bad == 0, "%s append: %d tickets or counters wrong", kt.tag, bad);
    gfx_buffer_free(kt.dev, din);
    gfx_buffer_free(kt.dev, dt);
    gfx_buffer_free(kt.dev, dtot);
}

/* IEEE minimumNumber / maximumNumber as the RDNA4 ISA's DS_MIN_NUM_F32 pseudocode writes it:
 * a NaN operand loses to a number, -0 < +0.  Used as the fold of the expected results. */
static double fold(double acc, double v, int is_max) {
    if (isnan(v))
        return acc;
    if (isnan(acc))
        return v;
    if (v == 0 && acc == 0)
        return (is_max ? !signbit(v) : signbit(v)) ? v : acc;
    return (is_max ? v > acc : v < acc) ? v : acc;
}
/* Same value, and on gfx1201 the same bits (the sign of a zero, which minimumNumber fixes; on
 * gfx1100 ds_min_f32 keeps CDNA's compare, under which -0 vs +0 depends on the order). */
static int same(double got, double want, int exact) {
    if (isnan(want))
        return isnan(got);
    return got == want && (!exact || signbit(got) == signbit(want));
}

/* Atomic float min/max reductions into LDS (f32, f64) and global memory (f32), from a NaN start
 * on gfx1201 (the identity of minimumNumber) and +-inf on gfx1100.  Workgroup 0: random values
 * in [-100, 100] and NaNs; 1: [0, 10) with +0 and -0 and NaNs; 2: NaN but one lane; 3: only
 * zeros of both signs. */
#define FG 4u
static void t_fminmax(void) {
    float in[64 * FG], gout[2], out[2 * FG], old[64 * FG];
    double ind[64 * FG], outd[2 * FG];
    int g12 = strstr(kt.tag, "gfx1201") != NULL;
    uint64_t rng = 0xfa11ull;
    for (unsigned i = 0; i < 64 * FG; i++) {
        unsigned g = i / 64, l = i % 64;
        float v;
        if (g == 0)
            v = l % 7 == 3 ? NAN : (float)((int)(kt_rand(&rng) % 20001) - 10000) / 100.0f;
        else if (g == 1)
            v = l % 5 == 4 ? NAN
                : l < 10   ? (l & 1 ? -0.0f : 0.0f)
                           : (float)(kt_rand(&rng) % 1000) / 100.0f;
        else if (g == 2)
            v = l == 17 ? 5.0f : NAN;
        else
            v = kt_rand(&rng) & 1 ? -0.0f : 0.0f;
        in[i] = v, ind[i] = (double)v;
    }
    float init = g12 ? NAN : INFINITY, initmax = g12 ? NAN : -INFINITY;
    double initd = g12 ? (double)NAN : (double)INFINITY;
    /* the kernel starts both LDS slots at init: on gfx1100 max then starts at +inf, so its
     * LDS max is checked on gfx1201 only (the global max starts at -inf from the host) */
    gout[0] = init, gout[1] = initmax;
    uint64_t din = kt_upload(in, sizeof in), dind = kt_upload(ind, sizeof ind),
             dg = kt_upload(gout, sizeof gout), dout = kt_upload(NULL, sizeof out),
             doutd = kt_upload(NULL, sizeof outd), dold = kt_upload(NULL, sizeof old);
    const void *p[] = {&din, &dind, &init, &initd, &dg, &dout, &doutd, &dold};
    if (kt_launch1("fminmax", FG, 64, p, 8))
        return;
    gfx_memcpy_dtoh(kt.dev, gout, dg, sizeof gout);
    gfx_memcpy_dtoh(kt.dev, out, dout, sizeof out);
    gfx_memcpy_dtoh(kt.dev, outd, doutd, sizeof outd);
    gfx_memcpy_dtoh(kt.dev, old, dold, sizeof old);
    int bad = 0;
    double gmin = init, gmax = initmax;
    for (unsigned g = 0; g < FG; g++) {
        double mn = init, mx = g12 ? init : -INFINITY;
        for (unsigned l = 0; l < 64; l++) {
            mn = fold(mn, in[64 * g + l], 0), mx = fold(mx, in[64 * g + l], 1);
            gmin = fold(gmin, in[64 * g + l], 0), gmax = fold(gmax, in[64 * g + l], 1);
        }
        if (!same(out[2 * g], mn, g12) || !same(outd[2 * g], mn, g12))
            kt_bad(&bad, "%s fminmax: workgroup %u: min %g (f64 %g), want %g", kt.tag, g,
                   (double)out[2 * g], outd[2 * g], mn);
        if (g12 && (!same(out[2 * g + 1], mx, 1) || !same(outd[2 * g + 1], mx, 1)))
            kt_bad(&bad, "%s fminmax: workgroup %u: max %g (f64 %g), want %g", kt.tag, g,
                   (double)out[2 * g + 1], outd[2 * g + 1], mx);
        /* each lane's returned old max is the start or a value folded before it: never above
         * the final max */
        for (unsigned l = 0; g12 && l < 64; l++)
            if (!isnan(old[64 * g + l]) && old[64 * g + l] > mx)
                kt_bad(&bad, "%s fminmax: workgroup %u lane %u: old max %g above the final %g",
                       kt.tag, g, l, (double)old[64 * g + l], mx);
    }
    if (!same(gout[0], gmin, g12) || !same(gout[1], gmax, g12))
        kt_bad(&bad, "%s fminmax: global min %g max %g, want %g %g", kt.tag, (double)gout[0],
               (double)gout[1], gmin, gmax);
    CHECK(bad == 0, "%s fminmax: %d results wrong", kt.tag, bad);
    gfx_buffer_free(kt.dev, din);
    gfx_buffer_free(kt.dev, dind);
    gfx_buffer_free(kt.dev, dg);
    gfx_buffer_free(kt.dev, dout);
    gfx_buffer_free(kt.dev, doutd);
    gfx_buffer_free(kt.dev, dold);
}

/* dppmad: DPP sources folded into v_mad_co_u64_u32 (gfx1201 -O1..-O3, see rdna_gap.cl), checked
 * against the DPP16 row_shr:1, row_shl:1 and quad_perm:[1,0,3,2]
 * lane maps of the RDNA ISA. */
static void t_dppmad(void) {
    uint32_t in[N], out[2 * N];
    int64_t wide[N];
    uint64_t rng = 0xd99aull;
    for (unsigned i = 0; i < N; i++)
        in[i] = (uint32_t)kt_rand(&rng);
    uint64_t din = kt_upload(in, sizeof in), dout = kt_upload(NULL, sizeof out),
             dwide = kt_upload(NULL, sizeof wide);
    const void *p[] = {&dout, &din, &dwide};
    if (kt_launch1("dppmad", G, 64, p, 3))
        return;
    gfx_memcpy_dtoh(kt.dev, out, dout, sizeof out);
    gfx_memcpy_dtoh(kt.dev, wide, dwide, sizeof wide);
    int bad = 0;
    for (unsigned i = 0; i < N; i++) {
        uint32_t v = in[i], l = i % 64, sh = l % 16 ? in[i - 1] : 0, qp = in[i ^ 1];
        uint32_t w0 = sh * v + (v >> 3), w1 = qp * (v | 1u) + l;
        int32_t sl = l % 16 != 15 ? (int32_t)(in[i + 1] ^ 0x80000000u) : 0;
        int64_t w2 = (int64_t)sl * (int32_t)v + (int32_t)(v << 7);
        if (out[2 * i] != w0 || out[2 * i + 1] != w1 || wide[i] != w2)
            kt_bad(&bad, "%s dppmad: item %u: %#x %#x %lld, want %#x %#x %lld", kt.tag, i,
                   out[2 * i], out[2 * i + 1], (long long)wide[i], w0, w1, (long long)w2);
    }
    CHECK(bad == 0, "%s dppmad: %d results wrong", kt.tag, bad);
    gfx_buffer_free(kt.dev, din);
    gfx_buffer_free(kt.dev, dout);
    gfx_buffer_free(kt.dev, dwide);
}

int main(void) {
    static const kt_test tests[] = {t_append, t_fminmax, t_dppmad};
    if (kt_run_rdna("rdna_gap", "", tests, sizeof tests / sizeof tests[0]))
        return 1;
    return check_summary("test_rdna_gap_kernels");
}
