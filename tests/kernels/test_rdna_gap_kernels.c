/* test_rdna_gap_kernels.c - clang-22 kernels for RDNA ops added from issue 15's gap list
 * (tests/kernels/rdna_gap.cl) on gfx1100 and gfx1201, wave32 and wave64, -O0..-O3: ds_append /
 * ds_consume.  Checked against the RDNA3 ISA's DS_APPEND / DS_CONSUME: one atomic per wave
 * adds (subtracts) the number of active lanes and every active lane receives the value before
 * it, so all lanes of a kind in one wave hold one ticket, the waves' tickets chain from the
 * counter's start in whatever order the waves ran, and the counters end at n and 1000 - m. */
#include "common/check.h"
#include "common/kernels.h"
#include "gfxemu.h"

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

int main(void) {
    static const kt_test tests[] = {t_append};
    if (kt_run_rdna("rdna_gap", "", tests, sizeof tests / sizeof tests[0]))
        return 1;
    return check_summary("test_rdna_gap_kernels");
}
