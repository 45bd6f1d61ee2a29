/* test_rdna_buf_kernels.c - clang-22 buffer-resource kernels (tests/kernels/rdna_buf.cl) on
 * gfx1100 and gfx1201, wave32 and wave64, -O0..-O3: raw buffer loads and stores of 1-16 bytes,
 * soffset and instruction offsets, atomics with and without return, with the work-items past
 * num_records reading 0 and having their stores and atomics dropped.  Every result is checked
 * against a C reference of the RDNA range rule (OOB_SELECT 3: an access, or each dword of a
 * multi-dword one, is in range when offset + size <= num_records). */
#include "common/check.h"
#include "common/kernels.h"
#include "gfxemu.h"

#include <stdint.h>
#include <stdio.h>
#include <string.h>

#define N 192u /* work-items: 3 workgroups of 64 */
#define VALID 150u
#define FLAGS_RAW 0x30000000u /* V# word 3: OOB_SELECT 3 (raw buffer), everything else 0 */
#define SENT 0xdeadbeefu

static void t_map(void) {
    uint32_t a[N], o[N + 8], seen[N];
    uint64_t rng = 0x1234567ull;
    for (unsigned i = 0; i < N; i++)
        a[i] = kt_rand(&rng);
    for (unsigned i = 0; i < N + 8; i++)
        o[i] = SENT;
    uint64_t da = kt_upload(a, sizeof a), dout = kt_upload(o, sizeof o),
             dseen = kt_upload(NULL, sizeof seen);
    uint32_t n = VALID, soff = 8, flags = FLAGS_RAW;
    const void *p[] = {&da, &dout, &dseen, &n, &soff, &flags};
    if (kt_launch1("buf_map", N / 64, 64, p, 6))
        return;
    gfx_memcpy_dtoh(kt.dev, o, dout, sizeof o);
    gfx_memcpy_dtoh(kt.dev, seen, dseen, sizeof seen);
    int bad = 0;
    for (unsigned i = 0; i < N; i++)
        if (seen[i] != (i < VALID ? a[i] : 0) && bad++ < 3)
            CHECK(0, "%s buf_map: seen[%u] = %x, want %x", kt.tag, i, seen[i],
                  i < VALID ? a[i] : 0);
    /* the store lands at o + soff + 4i: o[i + 2] = a[i] * 3 + 1; items VALID and VALID + 1 (in
     * range only if SOFFSET is not range-checked, the rule gfxemu follows) are not asserted;
     * items from VALID + 2 on are out of range under either reading, so o[] keeps its value */
    for (unsigned j = 0; j < N + 8; j++) {
        uint32_t want = SENT;
        if (j >= 2 && j - 2 < VALID)
            want = a[j - 2] * 3 + 1;
        else if (j >= 2 && j - 2 < VALID + 2)
            continue;
        if (o[j] != want && bad++ < 6)
            CHECK(0, "%s buf_map: o[%u] = %x, want %x", kt.tag, j, o[j], want);
    }
    CHECK(bad == 0, "%s buf_map: %d wrong", kt.tag, bad);
    gfx_buffer_free(kt.dev, da);
    gfx_buffer_free(kt.dev, dout);
    gfx_buffer_free(kt.dev, dseen);
}

/* Little-endian loads of the reference: 0 when off + size > nbytes. */
static uint32_t ld(const uint8_t *m, uint32_t nbytes, uint32_t off, unsigned size) {
    uint32_t v = 0;
    if (off + size <= nbytes)
        memcpy(&v, m + off, size);
    return v;
}
static void st(uint8_t *m, uint32_t nbytes, uint32_t off, uint32_t v, unsigned size) {
    if (off + size <= nbytes)
        memcpy(m + off, &v, size);
}

static void t_widths(void) {
    static uint32_t a[N * 4], o[N * 4], want[N * 4];
    uint64_t rng = 0xabcdefull;
    for (unsigned i = 0; i < N * 4; i++)
        a[i] = kt_rand(&rng), o[i] = SENT ^ i;
    memcpy(want, o, sizeof o);
    /* the last valid item's b128 is half in range: dwords checked one by one */
    uint32_t nbytes = VALID * 16 - 8, flags = FLAGS_RAW;
    const uint8_t *am = (const uint8_t *)a;
    uint8_t *wm = (uint8_t *)want;
    for (unsigned i = 0; i < N; i++) {
        uint32_t b = i * 16, v4[4], v2[2], v3[3];
        for (unsigned k = 0; k < 4; k++)
            v4[k] = ld(am, nbytes, b + 4 * k, 4);
        for (unsigned k = 0; k < 2; k++)
            v2[k] = ld(am, nbytes, b + 4 + 4 * k, 4);
        for (unsigned k = 0; k < 3; k++)
            v3[k] = ld(am, nbytes, b + 4 * k, 4);
        uint32_t c = ld(am, nbytes, b + 5, 1), h = ld(am, nbytes, b + 10, 2);
        uint32_t r[4] = {v4[0] + v2[1], v4[1] ^ v3[2], v4[2] + c, v4[3] + h};
        for (unsigned k = 0; k < 4; k++)
            st(wm, nbytes, b + 4 * k, r[k], 4);
        st(wm, nbytes, b + 3, (c + 1) & 0xff, 1);
        st(wm, nbytes, b + 8, (h ^ 0x5555) & 0xffff, 2);
    }
    uint64_t da = kt_upload(a, sizeof a), dout = kt_upload(o, sizeof o);
    const void *p[] = {&da, &dout, &nbytes, &flags};
    if (kt_launch1("buf_widths", N / 64, 64, p, 4))
        return;
    gfx_memcpy_dtoh(kt.dev, o, dout, sizeof o);
    int bad = 0;
    for (unsigned i = 0; i < N * 4; i++)
        if (o[i] != want[i] && bad++ < 4)
            CHECK(0, "%s buf_widths: dword %u = %08x, want %08x", kt.tag, i, o[i], want[i]);
    CHECK(bad == 0, "%s buf_widths: %d wrong", kt.tag, bad);
    gfx_buffer_free(kt.dev, da);
    gfx_buffer_free(kt.dev, dout);
}

static void t_atomics(void) {
    uint32_t a[N], bins[16] = {0}, tickets[N];
    float f[3] = {0, 1e30f, -1e30f};
    uint64_t rng = 0x55aa55ull;
    for (unsigned i = 0; i < N; i++)
        a[i] = kt_rand(&rng);
    uint64_t da = kt_upload(a, sizeof a), db = kt_upload(bins, sizeof bins),
             dt = kt_upload(NULL, sizeof tickets), df = kt_upload(f, sizeof f);
    uint32_t n = VALID, flags = FLAGS_RAW;
    const void *p[] = {&da, &db, &dt, &df, &n, &flags};
    if (kt_launch1("buf_atomics", N / 64, 64, p, 6))
        return;
    gfx_memcpy_dtoh(kt.dev, bins, db, sizeof bins);
    gfx_memcpy_dtoh(kt.dev, tickets, dt, sizeof tickets);
    gfx_memcpy_dtoh(kt.dev, f, df, sizeof f);
    unsigned count[16] = {0};
    uint64_t seen[16] = {0}; /* bit t: ticket t handed out in that bin */
    double sum = 0, mn = 1e30, mx = -1e30;
    int bad = 0;
    for (unsigned i = 0; i < N; i++) {
        if (i >= VALID) { /* out of range: returns 0 */
            bad += tickets[i] != 0;
            continue;
        }
        unsigned bin = a[i] % 16;
        count[bin]++;
        if (tickets[i] < 64)
            seen[bin] |= 1ull << tickets[i];
        float v = (float)(int)(a[i] % 1000) - 500.0f;
        sum += v, mn = v < mn ? v : mn, mx = v > mx ? v : mx;
    }
    for (unsigned b = 0; b < 16; b++)
        bad += bins[b] != count[b] || seen[b] != (count[b] >= 64 ? ~0ull : (1ull << count[b]) - 1);
    CHECK(bad == 0, "%s buf_atomics: %d bins/tickets wrong (bin 0: %u of %u)", kt.tag, bad, bins[0],
          count[0]);
    CHECK(f[0] == (float)sum && f[1] == (float)mn && f[2] == (float)mx,
          "%s buf_atomics: add %g min %g max %g, want %g %g %g", kt.tag, f[0], f[1], f[2], sum, mn,
          mx);
    gfx_buffer_free(kt.dev, da);
    gfx_buffer_free(kt.dev, db);
    gfx_buffer_free(kt.dev, dt);
    gfx_buffer_free(kt.dev, df);
}

int main(void) {
    static const kt_test tests[] = {t_map, t_widths, t_atomics};
    if (kt_run_rdna("rdna_buf", "", tests, sizeof tests / sizeof tests[0]))
        return 1;
    return check_summary("test_rdna_buf_kernels");
}
