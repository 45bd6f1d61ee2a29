/* test_lds_tr.c - gfx950 ds_read_b64_tr_b4 and ds_read_b96_tr_b6 on llvm-mc-22 snippets.
 *
 * The expected values are not gfxemu's formula: they are the relation AMD's rocRoller checks on
 * gfx950 hardware in its TransposeLoadsTest (a 16x128 tile of 4-bit or 6-bit elements, packed
 * little-endian, element i at bits [i * ebits, (i + 1) * ebits); lane 16 w + y reads the 64/96-bit
 * row 32 w + y, and again 16 rows further on; the results stored lane-major as rocRoller stores
 * them), restated here over that test's own index names. */
#include "common/check.h"
#include "common/snippet.h"
#include "exec/exec.h"

#include <stdlib.h>
#include <string.h>

static wave *w;
static uint8_t lds[4096];

static unsigned get_bits(const uint8_t *p, unsigned pos, unsigned n) {
    unsigned v = 0;
    for (unsigned b = 0; b < n; b++)
        v |= (unsigned)(p[(pos + b) / 8] >> ((pos + b) % 8) & 1) << b;
    return v;
}
static void put_bits(uint8_t *p, unsigned pos, unsigned n, unsigned v) {
    for (unsigned b = 0; b < n; b++) {
        uint8_t m = (uint8_t)(1u << ((pos + b) % 8));
        p[(pos + b) / 8] = (uint8_t)((p[(pos + b) / 8] & ~m) | ((v >> b & 1) ? m : 0));
    }
}

int main(void) {
    w = malloc(sizeof *w);
    static uint8_t data[2048 * 6 / 8], res[2 * 64 * 12];
    uint32_t seed = 12345;
    for (int eb = 4; eb <= 6; eb += 2) {
        unsigned nbytes = eb == 4 ? 8 : 12, stride = eb == 4 ? 8 : 16; /* b6 rows padded to 16 */
        const unsigned N = 2048;                                       /* 16 x 128 elements */
        memset(data, 0, sizeof data);
        for (unsigned i = 0; i < N; i++) {
            seed = seed * 1103515245u + 12345u;
            put_bits(data, i * eb, eb, seed >> 16);
        }
        memset(w, 0, sizeof *w);
        memset(lds, 0, sizeof lds);
        for (unsigned c = 0; c < N * eb / 8 / nbytes; c++) /* row c: the c-th nbytes of data */
            memcpy(lds + c * stride, data + c * nbytes, nbytes);
        w->lds = lds;
        w->lds_size = sizeof lds;
        wave_set_exec(w, ~0ull);
        for (unsigned l = 0; l < 64; l++)
            w->v[1][l] = (32 * (l / 16) + l % 16) * stride;
        char src[128];
        snprintf(src, sizeof src,
                 eb == 4 ? "ds_read_b64_tr_b4 v[4:5], v1\nds_read_b64_tr_b4 v[8:9], v1 offset:%u"
                         : "ds_read_b96_tr_b6 v[4:6], v1\nds_read_b96_tr_b6 v[8:10], v1 offset:%u",
                 16 * stride);
        CHECK(run_snippet(w, "gfx950", src) == WAVE_DONE, "b%d runs (fault kind %d)", eb,
              w->fault.kind);
        int bad = 0;
        if (eb == 4) {
            /* rocRoller stores dword k of read t of lane L at dword (2 t + k) * 64 + L */
            for (unsigned t = 0; t < 2; t++)
                for (unsigned k = 0; k < 2; k++)
                    for (unsigned l = 0; l < 64; l++)
                        memcpy(res + 4 * ((2 * t + k) * 64 + l), &w->v[4 * (t + 1) + k][l], 4);
            /* data[(w * 4 + z) * 128 + x * 16 + y] == result[(z * 4 + w) * 128 + y * 8 + x] */
            for (unsigned z = 0; z < 4; z++)
                for (unsigned ww = 0; ww < 4; ww++)
                    for (unsigned x = 0; x < 8; x++)
                        for (unsigned y = 0; y < 16; y++)
                            bad += get_bits(data, ((ww * 4 + z) * 128 + x * 16 + y) * 4, 4) !=
                                   get_bits(res, ((z * 4 + ww) * 128 + y * 8 + x) * 4, 4);
        } else {
            /* rocRoller stores read t of lane L as 12 bytes at t * 768 + 12 L */
            for (unsigned t = 0; t < 2; t++)
                for (unsigned l = 0; l < 64; l++)
                    for (unsigned k = 0; k < 3; k++)
                        memcpy(res + t * 768 + 12 * l + 4 * k, &w->v[4 * (t + 1) + k][l], 4);
            /* data[(4 t + 2 z + w) * 256 + 16 x + y] == result[(4 w + 2 t + z) * 256 + 16 y + x] */
            for (unsigned t = 0; t < 2; t++)
                for (unsigned ww = 0; ww < 2; ww++)
                    for (unsigned z = 0; z < 2; z++)
                        for (unsigned x = 0; x < 16; x++)
                            for (unsigned y = 0; y < 16; y++)
                                bad +=
                                    get_bits(data, ((4 * t + 2 * z + ww) * 256 + 16 * x + y) * 6,
                                             6) !=
                                    get_bits(res, ((4 * ww + 2 * t + z) * 256 + 16 * y + x) * 6, 6);
        }
        CHECK(bad == 0, "ds_read_tr b%d: %d of 2048 elements wrong", eb, bad);
    }
    free(w);
    return check_summary("lds_tr");
}
