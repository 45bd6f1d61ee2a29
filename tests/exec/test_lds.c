/* test_lds.c - DS semantics on llvm-mc-22 snippets: round trips, two-address forms, atomics
 * contended within a wave, permutes/swizzles with partial EXEC, compare-store, d16 reads and
 * out-of-range faults.  Expected values follow the ISA pseudocode. */
#include "common/check.h"
#include "common/snippet.h"
#include "exec/exec.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static wave *w;
static uint8_t lds[1024];

static void reset(void) {
    memset(w, 0, sizeof *w);
    memset(lds, 0, sizeof lds);
    wave_set_exec(w, ~0ull);
    w->lds = lds;
    w->lds_size = sizeof lds;
    for (unsigned l = 0; l < 64; l++) {
        w->v[1][l] = 4 * l;     /* per-lane address */
        w->v[2][l] = 0x100 + l; /* data */
        w->v[3][l] = 0x200 + l; /* data */
    }
}

static uint32_t at(unsigned off) {
    uint32_t v;
    memcpy(&v, lds + off, 4);
    return v;
}

int main(void) {
    w = malloc(sizeof *w);
    /* gfx90a (CDNA2) has every DS op used here but the gfx950 transposing reads */
    const char *arches[] = {"gfx950", "gfx942", "gfx90a"};
    for (int ai = 0; ai < 3; ai++) {
        const char *a = arches[ai];
        int bad;

        reset();
        CHECK(run_snippet(w, a, "ds_write_b32 v1, v2 offset:4\nds_read_b32 v4, v1 offset:4") ==
                  WAVE_DONE,
              "%s rt", a);
        bad = 0;
        for (unsigned l = 0; l < 64; l++)
            bad += w->v[4][l] != 0x100 + l;
        CHECK(bad == 0 && at(4) == 0x100 && at(8) == 0x101, "%s rt: %d bad, %x", a, bad, at(4));

        /* write2: data0 at addr + 4*offset0, data1 at addr + 4*offset1. */
        reset();
        for (unsigned l = 0; l < 64; l++)
            w->v[1][l] = 16 * l;
        CHECK(run_snippet(w, a,
                          "ds_write2_b32 v1, v2, v3 offset0:1 offset1:3\nds_read2_b32 v[4:5], v1 "
                          "offset0:3 offset1:1") == WAVE_DONE,
              "%s write2", a);
        CHECK(at(16 * 5 + 4) == 0x105 && at(16 * 5 + 12) == 0x205 && w->v[4][5] == 0x205 &&
                  w->v[5][5] == 0x105,
              "%s write2: %x %x %x %x", a, at(84), at(92), w->v[4][5], w->v[5][5]);

        /* 64 lanes add 1 at address 0; lane l sees l earlier adds. */
        reset();
        for (unsigned l = 0; l < 64; l++) {
            w->v[1][l] = 0;
            w->v[5][l] = 1;
        }
        CHECK(run_snippet(w, a, "ds_add_rtn_u32 v4, v1, v5") == WAVE_DONE, "%s add", a);
        CHECK(at(0) == 64 && w->v[4][0] == 0 && w->v[4][63] == 63, "%s add: %u %u %u", a, at(0),
              w->v[4][0], w->v[4][63]);

        /* bpermute reverses the wave; a source lane outside EXEC reads 0, and lanes outside EXEC
         * keep their destination. */
        reset();
        for (unsigned l = 0; l < 64; l++) {
            w->v[1][l] = 4 * (63 - l);
            w->v[4][l] = 0xdead;
        }
        wave_set_exec(w, 0xffffffff00000fffull);
        CHECK(run_snippet(w, a, "ds_bpermute_b32 v4, v1, v2") == WAVE_DONE, "%s bperm", a);
        CHECK(w->v[4][0] == 0x100 + 63, "%s bperm lane0 %x", a, w->v[4][0]);
        CHECK(w->v[4][40] == 0 && w->v[4][12] == 0xdead && w->v[4][60] == 0x103,
              "%s bperm: lane40 %x lane12 %x lane60 %x", a, w->v[4][40], w->v[4][12], w->v[4][60]);

        /* bpermute with every lane active (the whole-wave path: a 64-entry lookup): addresses
         * past 255 wrap to their lane mod 64, the offset is added first, and the destination
         * may be the address or the data register. */
        for (int form = 0; form < 3; form++) {
            reset();
            uint32_t addr[64], data[64];
            for (unsigned l = 0; l < 64; l++) {
                addr[l] = (l * 2654435761u) ^ (l << 9); /* any bits, including 1:0 and >= 256 */
                data[l] = 0x5000 + l * 3;
                w->v[1][l] = addr[l];
                w->v[2][l] = data[l];
            }
            static const char *const src[] = {"ds_bpermute_b32 v4, v1, v2 offset:12",
                                              "ds_bpermute_b32 v2, v1, v2 offset:12",
                                              "ds_bpermute_b32 v1, v1, v2 offset:12"};
            static const int dst[] = {4, 2, 1};
            CHECK(run_snippet(w, a, src[form]) == WAVE_DONE, "%s %s", a, src[form]);
            bad = 0;
            for (unsigned l = 0; l < 64; l++)
                if (w->v[dst[form]][l] != data[((addr[l] + 12) >> 2) & 63] && bad++ < 3)
                    CHECK(0, "%s %s: lane %u = %x, want %x", a, src[form], l, w->v[dst[form]][l],
                          data[((addr[l] + 12) >> 2) & 63]);
            CHECK(bad == 0, "%s %s: %d lanes wrong", a, src[form], bad);
        }

        /* permute: lane l sends to lane 63-l. */
        reset();
        for (unsigned l = 0; l < 64; l++)
            w->v[1][l] = 4 * (63 - l);
        CHECK(run_snippet(w, a, "ds_permute_b32 v4, v1, v2") == WAVE_DONE, "%s perm", a);
        CHECK(w->v[4][0] == 0x100 + 63 && w->v[4][63] == 0x100, "%s perm: %x %x", a, w->v[4][0],
              w->v[4][63]);

        /* swizzle quad mode 0x801b reverses each quad: lane 4k+i takes lane 4k+3-i. */
        reset();
        CHECK(run_snippet(w, a, "ds_swizzle_b32 v4, v2 offset:0x801b") == WAVE_DONE, "%s swz", a);
        CHECK(w->v[4][4] == 0x107 && w->v[4][6] == 0x105, "%s swz: %x %x", a, w->v[4][4],
              w->v[4][6]);
        /* bitmask mode: xor_mask 1 swaps neighbours. */
        reset();
        CHECK(run_snippet(w, a, "ds_swizzle_b32 v4, v2 offset:0x41f") == WAVE_DONE, "%s swz2", a);
        CHECK(w->v[4][10] == 0x10b && w->v[4][11] == 0x10a, "%s swz2: %x %x", a, w->v[4][10],
              w->v[4][11]);
        /* every lane, both modes, under a partial EXEC, into another register and in place: an
         * active lane takes its source lane's value, 0 when that lane is off; an inactive lane
         * keeps its own (ISA DS_SWIZZLE_B32). */
        static const unsigned swz_off[] = {0x801b, 0x80e4, 0x41f, 0x7c1f, 0x3c1f, 0x1ca3};
        static const uint64_t swz_exec[] = {~0ull, 0x0f0f00ff5a5a3c3cull, 0x8000000000000001ull};
        for (unsigned o = 0; o < 6; o++)
            for (unsigned e = 0; e < 3; e++)
                for (int inplace = 0; inplace < 2; inplace++) {
                    char text[64];
                    unsigned off = swz_off[o], dr = inplace ? 2 : 4;
                    snprintf(text, sizeof text, "ds_swizzle_b32 v%u, v2 offset:%#x", dr, off);
                    reset();
                    wave_set_exec(w, swz_exec[e]);
                    for (unsigned l = 0; l < 64; l++)
                        w->v[4][l] = 0xdead0000u + l;
                    CHECK(run_snippet(w, a, text) == WAVE_DONE, "%s %s", a, text);
                    int bad = 0;
                    for (unsigned l = 0; l < 64; l++) {
                        unsigned from =
                            off & 0x8000
                                ? (l & ~3u) | ((off >> (2 * (l & 3))) & 3)
                                : (l & 32) | ((((l & 31) & (off & 31)) | ((off >> 5) & 31)) ^
                                              ((off >> 10) & 31));
                        uint32_t old = inplace ? 0x100 + l : 0xdead0000u + l;
                        uint32_t want = !((swz_exec[e] >> l) & 1)     ? old
                                        : ((swz_exec[e] >> from) & 1) ? 0x100 + from
                                                                      : 0;
                        if (w->v[dr][l] != want && bad++ < 3)
                            CHECK(0, "%s %s exec %#llx lane %u: %x, want %x", a, text,
                                  (unsigned long long)swz_exec[e], l, w->v[dr][l], want);
                    }
                    CHECK(bad == 0, "%s %s exec %#llx: %d lanes wrong", a, text,
                          (unsigned long long)swz_exec[e], bad);
                }

        /* compare-store: DATA (v5) is compared, DATA2 (v6) stored on a match. */
        reset();
        for (unsigned l = 0; l < 64; l++) {
            w->v[5][l] = l == 3 ? 0x77 : 0;
            w->v[6][l] = 0x99;
        }
        memcpy(lds + 12, "\x77\0\0\0", 4);
        memcpy(lds + 16, "\x78\0\0\0", 4);
        CHECK(run_snippet(w, a, "ds_cmpst_rtn_b32 v4, v1, v5, v6") == WAVE_DONE, "%s cmpst", a);
        CHECK(at(12) == 0x99 && at(16) == 0x78 && w->v[4][3] == 0x77, "%s cmpst: %x %x %x", a,
              at(12), at(16), w->v[4][3]);

        /* d16_hi read keeps the low half; sign-extending byte read. */
        reset();
        lds[0] = 0x85;
        for (unsigned l = 0; l < 64; l++) {
            w->v[1][l] = 0;
            w->v[4][l] = 0x12345678;
        }
        CHECK(run_snippet(w, a, "ds_read_i8_d16_hi v4, v1\nds_read_i8 v5, v1") == WAVE_DONE,
              "%s d16", a);
        CHECK(w->v[4][9] == 0xff855678 && w->v[5][9] == 0xffffff85, "%s d16: %x %x", a, w->v[4][9],
              w->v[5][9]);

        /* The last dword is in range, the next is past the LDS: as on the hardware (RDNA2/RDNA3
         * ISA "LDS access") the read gives 0 and a write there is dropped; under memcheck it is an
         * LDS fault with its lane. */
        reset();
        memcpy(lds + 1020, "\x11\x22\x33\x44", 4);
        for (unsigned l = 0; l < 64; l++)
            w->v[1][l] = 1020 + 4 * (l == 17), w->v[4][l] = 0xdead;
        CHECK(run_snippet(w, a, "ds_read_b32 v4, v1") == WAVE_DONE && w->v[4][17] == 0 &&
                  w->v[4][16] == 0x44332211 && w->v[4][18] == 0x44332211,
              "%s oob read: status %d, lane 17 %x, lane 16 %x", a, w->status, w->v[4][17],
              w->v[4][16]);
        reset();
        static uint8_t before[sizeof lds];
        memset(lds, 0xa5, sizeof lds);
        memcpy(before, lds, sizeof lds);
        for (unsigned l = 0; l < 64; l++)
            w->v[1][l] = l == 5 ? 1024 : l == 6 ? 0xfffffffcu : 4 * l, w->v[4][l] = 0x100 + l;
        CHECK(run_snippet(w, a, "ds_write_b32 v1, v4\nds_add_rtn_u32 v5, v1, v4") == WAVE_DONE &&
                  w->v[5][5] == 0 && w->v[5][6] == 0 && w->v[5][7] == 0x107,
              "%s oob write/atomic: status %d, returned %x %x %x", a, w->status, w->v[5][5],
              w->v[5][6], w->v[5][7]);
        int same = 1; /* lanes 5 and 6 wrote nowhere: dwords 5, 6 and 64 on keep their bytes */
        for (unsigned i = 0; i < sizeof lds; i++)
            if (i / 4 == 5 || i / 4 == 6 || i / 4 >= 64)
                same &= lds[i] == before[i];
        uint32_t d7;
        memcpy(&d7, lds + 28, 4);
        CHECK(same && d7 == 2 * 0x107, "%s oob write: LDS changed outside lanes 0-63's dwords (%x)",
              a, d7);
        reset();
        w->mc = snippet_memcheck();
        for (unsigned l = 0; l < 64; l++)
            w->v[1][l] = 1020 + 4 * (l == 17);
        CHECK(run_snippet(w, a, "ds_read_b32 v4, v1") == WAVE_FAULT && w->fault.kind == XF_LDS &&
                  w->fault.lanes == 1ull << 17 && w->fault.addr == 1024,
              "%s oob under memcheck: kind %d lanes %llx addr %llu", a, w->fault.kind,
              (unsigned long long)w->fault.lanes, (unsigned long long)w->fault.addr);
        w->mc = NULL;

        /* ds_wrap_rtn_b32: 8 lanes on one counter, applied in lane order: subtract 3 while the
         * value allows it, otherwise add 7.  10 -> 7 -> 4 -> 1 -> 8 -> 5 -> 2 -> 9 -> 6. */
        reset();
        wave_set_exec(w, 0xff);
        lds[0] = 10;
        for (unsigned l = 0; l < 64; l++)
            w->v[1][l] = 0, w->v[2][l] = 3, w->v[3][l] = 7;
        CHECK(run_snippet(w, a, "ds_wrap_rtn_b32 v4, v1, v2, v3") == WAVE_DONE, "%s wrap", a);
        static const uint32_t wrap_ret[8] = {10, 7, 4, 1, 8, 5, 2, 9};
        bad = 0;
        for (unsigned l = 0; l < 8; l++)
            bad += w->v[4][l] != wrap_ret[l];
        CHECK(bad == 0 && at(0) == 6, "%s wrap: %d wrong, final %u", a, bad, at(0));

        /* ds_condxchg32_rtn_b64: address (v1 + 4) & 0xfff8 = 8 * lane; dword k is written with
         * bit 31 cleared only when bit 31 of data dword k is set; old dwords come back. */
        reset();
        for (unsigned i = 0; i < 256; i++) {
            uint32_t v = 0xa0000 + i;
            memcpy(lds + 4 * i, &v, 4);
        }
        for (unsigned l = 0; l < 64; l++) {
            w->v[1][l] = 8 * l;
            w->v[4][l] = l & 1 ? 0x80001234u : 0x5555u;
            w->v[5][l] = l & 2 ? 0xffffffffu : 0x7fffffffu;
        }
        CHECK(run_snippet(w, a, "ds_condxchg32_rtn_b64 v[6:7], v1, v[4:5] offset:4\nds_nop") ==
                  WAVE_DONE,
              "%s condxchg", a);
        bad = 0;
        for (unsigned l = 0; l < 64; l++) {
            bad += w->v[6][l] != 0xa0000 + 2 * l || w->v[7][l] != 0xa0000 + 2 * l + 1;
            bad += at(8 * l) != (l & 1 ? 0x1234u : 0xa0000 + 2 * l);
            bad += at(8 * l + 4) != (l & 2 ? 0x7fffffffu : 0xa0000 + 2 * l + 1);
        }
        CHECK(bad == 0, "%s condxchg: %d wrong (lane 3: %x %x mem %x %x)", a, bad, w->v[6][3],
              w->v[7][3], at(24), at(28));

        /* gfx950 transposing reads, checked from the MFMA-operand point of view: in each group g
         * of 16 lanes, a column-major tile of 16 (M) x n (K) elements at 128 * g (n = 64 / bits);
         * lane a = M / n + (16 / n) * K addresses the n consecutive M values from M at K, and
         * lane L must end up with M = L, K = 0..n-1 (element j holds K = j). */
        if (ai == 0) {
            reset();
            for (unsigned g = 0; g < 4; g++)
                for (unsigned k = 0; k < 4; k++)
                    for (unsigned m = 0; m < 16; m++) {
                        uint16_t v = (uint16_t)(g << 12 | k << 8 | m);
                        memcpy(lds + 128 * g + 2 * (m + 16 * k), &v, 2);
                    }
            for (unsigned l = 0; l < 64; l++) {
                unsigned g = l / 16, ad = l % 16; /* ad = M / 4 + 4 * K */
                w->v[1][l] = 128 * g + 2 * (4 * (ad % 4) + 16 * (ad / 4));
            }
            w->v[4][63] = 0xdead;
            wave_set_exec(w, ~0ull >> 1);
            /* lane 63 is inactive: its data reads as 0 where others take elements from it */
            CHECK(run_snippet(w, a, "ds_read_b64_tr_b16 v[4:5], v1") == WAVE_DONE, "%s tr_b16", a);
            bad = 0;
            for (unsigned l = 0; l < 63; l++) {
                unsigned g = l / 16, m = l % 16;
                uint32_t e[4];
                for (unsigned k = 0; k < 4; k++)
                    e[k] = (g << 12 | k << 8 | m);
                if (g == 3 && m / 4 == 3) /* element K=3 comes from lane 48 + m / 4 + 12 = 63 */
                    e[3] = 0;
                bad += w->v[4][l] != (e[0] | e[1] << 16) || w->v[5][l] != (e[2] | e[3] << 16);
            }
            CHECK(bad == 0 && w->v[4][63] == 0xdead,
                  "%s tr_b16: %d lanes wrong (lane 5: %08x %08x)", a, bad, w->v[4][5], w->v[5][5]);

            reset();
            for (unsigned g = 0; g < 4; g++)
                for (unsigned k = 0; k < 8; k++)
                    for (unsigned m = 0; m < 16; m++)
                        lds[128 * g + m + 16 * k] = (uint8_t)(g * 37 + k * 16 + m);
            for (unsigned l = 0; l < 64; l++) {
                unsigned g = l / 16, ad = l % 16; /* ad = M / 8 + 2 * K */
                w->v[1][l] = 128 * g + 8 * (ad % 2) + 16 * (ad / 2);
            }
            CHECK(run_snippet(w, a, "ds_read_b64_tr_b8 v[4:5], v1 offset:0") == WAVE_DONE,
                  "%s tr_b8", a);
            bad = 0;
            for (unsigned l = 0; l < 64; l++) {
                unsigned g = l / 16, m = l % 16;
                uint64_t want = 0;
                for (unsigned k = 0; k < 8; k++)
                    want |= (uint64_t)(uint8_t)(g * 37 + k * 16 + m) << (8 * k);
                bad += (w->v[4][l] | (uint64_t)w->v[5][l] << 32) != want;
            }
            CHECK(bad == 0, "%s tr_b8: %d lanes wrong (lane 9: %08x %08x)", a, bad, w->v[4][9],
                  w->v[5][9]);
        }
    }
    free(w);
    return check_summary("lds");
}
