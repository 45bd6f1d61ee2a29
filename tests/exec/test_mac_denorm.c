/* test_mac_denorm.c - the accumulating ops (v_fmac_f64, v_mac_f16, v_pk_fmac_f16) read their
 * destination as an input: when MODE flushes input denormals (set by the snippet itself with
 * s_setreg on MODE.FP_DENORM, bits 7:4), a denormal accumulator reads as a zero of its sign, as
 * S0 and S1 do; with denormals kept it is added as it is.  Packed f16 math follows the f16 mode
 * for its other inputs and its results too.  Expected values are worked out by hand: the
 * products are chosen zero (or one) so the result is the accumulator or a signed zero. */
#include "common/check.h"
#include "common/snippet.h"
#include "exec/exec.h"

#include <stdlib.h>
#include <string.h>

static wave *w;

static void reset(void) {
    memset(w, 0, sizeof *w);
    wave_set_exec(w, ~0ull);
}
static void set64(unsigned r, unsigned l, uint64_t v) {
    w->v[r][l] = (uint32_t)v;
    w->v[r + 1][l] = (uint32_t)(v >> 32);
}
static uint64_t get64(unsigned r, unsigned l) {
    return w->v[r][l] | (uint64_t)w->v[r + 1][l] << 32;
}

/* FP_DENORM values: 0xf keeps every denormal; 0xb flushes f64/f16 inputs only (bit 6 clear);
 * 0x7 flushes f64/f16 outputs only (bit 7 clear). */
#define KEEP "s_setreg_imm32_b32 hwreg(HW_REG_MODE, 4, 4), 0xf\n"
#define FLUSH_IN "s_setreg_imm32_b32 hwreg(HW_REG_MODE, 4, 4), 0xb\n"
#define FLUSH_OUT "s_setreg_imm32_b32 hwreg(HW_REG_MODE, 4, 4), 0x7\n"

int main(void) {
    w = malloc(sizeof *w);
    const char *arches[] = {"gfx950", "gfx942", "gfx90a"};
    for (int ai = 0; ai < 3; ai++) {
        const char *a = arches[ai];
        for (int flush = 0; flush < 2; flush++) {
            const char *m = flush ? FLUSH_IN : KEEP, *tag = flush ? "flush-in" : "keep";
            char src[256];

            /* v_fmac_f64: lane 0 +0 * 1 + max denormal, lane 1 -0 * 1 + -max denormal,
             * lane 2 +0 * 1 + 1.0 (a normal accumulator is never touched). */
            reset();
            for (unsigned l = 0; l < 3; l++) {
                set64(0, l, l == 1 ? 0x8000000000000000ull : 0);
                set64(4, l, 0x3ff0000000000000ull);
            }
            set64(2, 0, 0x000fffffffffffffull);
            set64(2, 1, 0x800fffffffffffffull);
            set64(2, 2, 0x3ff0000000000000ull);
            snprintf(src, sizeof src, "%sv_fmac_f64_e32 v[2:3], v[0:1], v[4:5]", m);
            CHECK(run_snippet(w, a, src) == WAVE_DONE, "%s %s fmac_f64 runs", a, tag);
            uint64_t want0 = flush ? 0 : 0x000fffffffffffffull;
            uint64_t want1 = flush ? 0x8000000000000000ull : 0x800fffffffffffffull;
            CHECK(get64(2, 0) == want0 && get64(2, 1) == want1 &&
                      get64(2, 2) == 0x3ff0000000000000ull,
                  "%s %s v_fmac_f64: %016llx %016llx %016llx, want %016llx %016llx 3ff0...", a, tag,
                  (unsigned long long)get64(2, 0), (unsigned long long)get64(2, 1),
                  (unsigned long long)get64(2, 2), (unsigned long long)want0,
                  (unsigned long long)want1);

            /* v_mac_f16: the accumulator is bits 15:0 (the high half is junk, and the result
             * clears it). */
            reset();
            w->v[0][0] = 0x0000, w->v[0][1] = 0x8000, w->v[0][2] = 0x0000;
            for (unsigned l = 0; l < 3; l++)
                w->v[1][l] = 0x3c00;
            w->v[2][0] = 0xabcd03ff, w->v[2][1] = 0xabcd83ff, w->v[2][2] = 0xabcd3c00;
            snprintf(src, sizeof src, "%sv_mac_f16_e32 v2, v0, v1", m);
            CHECK(run_snippet(w, a, src) == WAVE_DONE, "%s %s mac_f16 runs", a, tag);
            uint32_t h0 = flush ? 0 : 0x03ff, h1 = flush ? 0x8000 : 0x83ff;
            CHECK(w->v[2][0] == h0 && w->v[2][1] == h1 && w->v[2][2] == 0x3c00,
                  "%s %s v_mac_f16: %08x %08x %08x, want %08x %08x 3c00", a, tag, w->v[2][0],
                  w->v[2][1], w->v[2][2], h0, h1);

            /* v_pk_fmac_f16: lane 0 halves (+0, -0) * 1 + (max denormal, -max denormal);
             * lane 1 denormal S0 halves * 1 + 0; lane 2 normal values. */
            reset();
            w->v[0][0] = 0x80000000, w->v[1][0] = 0x3c003c00, w->v[2][0] = 0x83ff03ff;
            w->v[0][1] = 0x02000001, w->v[1][1] = 0x3c003c00, w->v[2][1] = 0;
            w->v[0][2] = 0x40003c00, w->v[1][2] = 0x3c003c00, w->v[2][2] = 0x3c004000;
            snprintf(src, sizeof src, "%sv_pk_fmac_f16_e32 v2, v0, v1", m);
            CHECK(run_snippet(w, a, src) == WAVE_DONE, "%s %s pk_fmac_f16 runs", a, tag);
            uint32_t p0 = flush ? 0x80000000 : 0x83ff03ff, p1 = flush ? 0 : 0x02000001;
            CHECK(w->v[2][0] == p0 && w->v[2][1] == p1 && w->v[2][2] == 0x42004200,
                  "%s %s v_pk_fmac_f16: %08x %08x %08x, want %08x %08x 42004200", a, tag,
                  w->v[2][0], w->v[2][1], w->v[2][2], p0, p1);

            /* v_pk_add_f16 follows the same input mode: denormal + 0 */
            reset();
            w->v[0][0] = 0x82000001;
            snprintf(src, sizeof src, "%sv_pk_add_f16 v2, v0, v1", m);
            CHECK(run_snippet(w, a, src) == WAVE_DONE, "%s %s pk_add_f16 runs", a, tag);
            uint32_t q = flush ? 0 : 0x82000001; /* -0 + +0 = +0 */
            CHECK(w->v[2][0] == q, "%s %s v_pk_add_f16: %08x, want %08x", a, tag, w->v[2][0], q);
        }

        /* Output flushing (inputs kept): denormal results of the packed ops become zeros of
         * their sign; 0x0200 + 0x0100 = 0x0300 (denormal), -0x0001 + 0 = -0x0001. */
        reset();
        w->v[0][0] = 0x80010200, w->v[1][0] = 0x00000100;
        w->v[2][0] = 0x80010200, w->v[4][0] = 0x3c003c00, w->v[5][0] = 0x00000100;
        CHECK(run_snippet(w, a,
                          FLUSH_OUT "v_pk_add_f16 v3, v0, v1\n"
                                    "v_pk_fmac_f16_e32 v5, v2, v4") == WAVE_DONE,
              "%s flush-out runs", a);
        CHECK(w->v[3][0] == 0x80000000 && w->v[5][0] == 0x80000000,
              "%s flush-out: pk_add %08x pk_fmac %08x, want 80000000", a, w->v[3][0], w->v[5][0]);
    }
    free(w);
    return check_summary("mac_denorm");
}
