/* test_lds_fast.c - DS reads and writes on random lane addresses against a byte-level model of
 * the ISA's pseudocode written here (CDNA3 ISA "Data share operations": 32-bit wrapping
 * address + offset, little-endian bytes, lanes in order so the highest lane wins overlapping
 * writes, the d16/_hi forms keeping the other half).  lds.c takes whole-wave fast paths for
 * in-range accesses (full EXEC: unrolled loops and SSE2 transposes); each case runs under full
 * and partial EXEC, aligned and misaligned addresses, lanes writing the same bytes, vdst equal
 * to the address register, one or two lanes out of range (the fault's kind, pc, address, size
 * and lanes, and exactly the lanes below the first bad one performed), and with racecheck's
 * lds_watch hook installed (it must see every access, in lane order).  Snippets assembled by
 * tests/common/asm.c (checked against llvm-mc-22). */
#include "common/check.h"
#include "common/rng.h"
#include "common/snippet.h"
#include "exec/exec.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

enum { RD, WR, RD2, WR2 };
enum { M_DW, M_U, M_I, M_D16, M_HI }; /* sub-dword reads: zero/sign-extend, low or high half */

typedef struct {
    const char *text; /* after an s_nop, so the DS instruction is at pc 4 */
    int cls;
    unsigned es;  /* bytes per element */
    int mode;     /* reads: M_*; writes: M_HI stores the register's high half */
    unsigned dst; /* first vdst (reads) */
    unsigned off; /* byte offset; the two-address forms: off0/off1 in bytes below */
    unsigned off0, off1;
    int sign; /* sub-dword reads: sign-extend */
} dscase;

/* Registers: v2 address, v10-13 data0, v14-17 data1, v20-23 vdst (v2-5 where vdst is v2). */
static const dscase cases[] = {
    {"ds_read_b32 v20, v2 offset:12", RD, 4, M_DW, 20, 12, 0, 0, 0},
    {"ds_read_b64 v[20:21], v2 offset:8", RD, 8, M_DW, 20, 8, 0, 0, 0},
    {"ds_read_b64 v[2:3], v2 offset:40", RD, 8, M_DW, 2, 40, 0, 0, 0},
    {"ds_read_b96 v[20:22], v2", RD, 12, M_DW, 20, 0, 0, 0, 0},
    {"ds_read_b128 v[20:23], v2 offset:48", RD, 16, M_DW, 20, 48, 0, 0, 0},
    {"ds_read_b128 v[2:5], v2 offset:16", RD, 16, M_DW, 2, 16, 0, 0, 0},
    {"ds_read_u8 v20, v2 offset:3", RD, 1, M_U, 20, 3, 0, 0, 0},
    {"ds_read_i8 v20, v2", RD, 1, M_U, 20, 0, 0, 0, 1},
    {"ds_read_u16 v20, v2 offset:2", RD, 2, M_U, 20, 2, 0, 0, 0},
    {"ds_read_i16 v20, v2", RD, 2, M_U, 20, 0, 0, 0, 1},
    {"ds_read_u16_d16 v20, v2", RD, 2, M_D16, 20, 0, 0, 0, 0},
    {"ds_read_u16_d16_hi v20, v2 offset:6", RD, 2, M_HI, 20, 6, 0, 0, 0},
    {"ds_read_i8_d16_hi v20, v2", RD, 1, M_HI, 20, 0, 0, 0, 1},
    {"ds_write_b32 v2, v10 offset:4", WR, 4, M_DW, 0, 4, 0, 0, 0},
    {"ds_write_b64 v2, v[10:11]", WR, 8, M_DW, 0, 0, 0, 0, 0},
    {"ds_write_b96 v2, v[10:12] offset:20", WR, 12, M_DW, 0, 20, 0, 0, 0},
    {"ds_write_b128 v2, v[10:13] offset:32", WR, 16, M_DW, 0, 32, 0, 0, 0},
    {"ds_write_b8 v2, v10 offset:1", WR, 1, M_DW, 0, 1, 0, 0, 0},
    {"ds_write_b16 v2, v10 offset:80", WR, 2, M_DW, 0, 80, 0, 0, 0},
    {"ds_write_b8_d16_hi v2, v10", WR, 1, M_HI, 0, 0, 0, 0, 0},
    {"ds_write_b16_d16_hi v2, v10 offset:2", WR, 2, M_HI, 0, 2, 0, 0, 0},
    {"ds_read2_b32 v[20:21], v2 offset0:3 offset1:1", RD2, 4, M_DW, 20, 0, 12, 4, 0},
    {"ds_read2_b64 v[20:23], v2 offset1:4", RD2, 8, M_DW, 20, 0, 0, 32, 0},
    {"ds_read2_b64 v[20:23], v2 offset0:160 offset1:164", RD2, 8, M_DW, 20, 0, 1280, 1312, 0},
    {"ds_read2_b64 v[2:5], v2 offset0:5 offset1:2", RD2, 8, M_DW, 2, 0, 40, 16, 0},
    {"ds_read2st64_b64 v[20:23], v2 offset0:1 offset1:3", RD2, 8, M_DW, 20, 0, 512, 1536, 0},
    {"ds_read2_b64 v[20:23], v2 offset0:2 offset1:2", RD2, 8, M_DW, 20, 0, 16, 16, 0},
    {"ds_write2_b32 v2, v10, v14 offset0:1 offset1:9", WR2, 4, M_DW, 0, 0, 4, 36, 0},
    {"ds_write2_b32 v2, v10, v14 offset0:17 offset1:1", WR2, 4, M_DW, 0, 0, 68, 4, 0},
    {"ds_write2st64_b32 v2, v10, v14 offset1:1", WR2, 4, M_DW, 0, 0, 0, 256, 0},
    {"ds_read2st64_b32 v[20:21], v2 offset0:2 offset1:1", RD2, 4, M_DW, 20, 0, 512, 256, 0},
    {"ds_read2_b32 v[2:3], v2 offset1:16", RD2, 4, M_DW, 2, 0, 0, 64, 0},
    {"ds_read_b32 v2, v2 offset:4", RD, 4, M_DW, 2, 4, 0, 0, 0},
    {"ds_read_u8 v20, v2 offset:9", RD, 1, M_U, 20, 9, 0, 0, 0},
    {"ds_read_i16 v20, v2 offset:6", RD, 2, M_U, 20, 6, 0, 0, 1},
    {"ds_write2_b64 v2, v[10:11], v[14:15] offset1:1", WR2, 8, M_DW, 0, 0, 0, 8, 0},
    {"ds_write2_b64 v2, v[10:11], v[14:15] offset0:3 offset1:3", WR2, 8, M_DW, 0, 0, 24, 24, 0},
};

#define LDS_SIZE 4096u
static uint8_t lds[LDS_SIZE], ref_lds[LDS_SIZE];
static uint32_t ref_v[32][64];
static wave *w;
static uint64_t rng = 0x9e3779b97f4a7c15ull;
static uint32_t rnd(void) { return (uint32_t)(xorshift64(&rng) >> 16); }

/* The accesses the model makes, in order, for the lds_watch comparison. */
typedef struct {
    uint32_t addr, size;
    int write;
} access;
static access want_acc[256], got_acc[256];
static unsigned n_want, n_got;
static void watch(void *ctx, wave *wv, const xinst *x, uint32_t addr, uint32_t size, int kind) {
    (void)ctx, (void)wv, (void)x;
    if (n_got < 256)
        got_acc[n_got] = (access){addr, size, kind != 0};
    n_got++;
}

/* The model of one lane's element access at byte address a: 0, or -1 when out of range. */
static int ref_read(uint32_t a, unsigned es, uint8_t *out) {
    if ((uint64_t)a + es > LDS_SIZE)
        return -1;
    memcpy(out, ref_lds + a, es);
    return 0;
}

/* Run the model over the active lanes; bad_lanes/first_addr describe the fault, if any. */
static void model(const dscase *c, uint64_t exec, uint64_t *bad_lanes, uint32_t *first_addr) {
    int faulted = 0;
    *bad_lanes = 0;
    n_want = 0;
    for (unsigned l = 0; l < 64; l++) {
        if (!(exec >> l & 1))
            continue;
        uint32_t base = ref_v[2][l];
        uint32_t ad[2];
        unsigned ne = c->cls == RD2 || c->cls == WR2 ? 2 : 1;
        if (ne == 2)
            ad[0] = base + c->off0, ad[1] = base + c->off1;
        else
            ad[0] = base + c->off;
        int bad = 0;
        for (unsigned k = 0; k < ne; k++)
            bad |= (uint64_t)ad[k] + c->es > LDS_SIZE;
        if (bad) {
            *bad_lanes |= 1ull << l;
            if (!faulted) {
                for (unsigned k = 0; k < ne; k++)
                    if ((uint64_t)ad[k] + c->es > LDS_SIZE) {
                        *first_addr = ad[k];
                        break;
                    }
            }
            faulted = 1;
            continue;
        }
        if (faulted)
            continue; /* lanes above the first bad one perform nothing */
        for (unsigned k = 0; k < ne; k++)
            if (n_want < 256)
                want_acc[n_want++] = (access){ad[k], c->es, c->cls == WR || c->cls == WR2};
        uint8_t b[32];
        if (c->cls == RD || c->cls == RD2) {
            for (unsigned k = 0; k < ne; k++)
                ref_read(ad[k], c->es, b + k * c->es);
            if (c->mode == M_DW) {
                for (unsigned i = 0; i < ne * c->es / 4; i++)
                    memcpy(&ref_v[c->dst + i][l], b + 4 * i, 4);
            } else {
                uint32_t v = c->es == 1 ? b[0] : (uint32_t)(b[0] | b[1] << 8);
                if (c->sign)
                    v = c->es == 1 ? (uint32_t)(int32_t)(int8_t)v : (uint32_t)(int32_t)(int16_t)v;
                uint32_t old = ref_v[c->dst][l];
                if (c->mode == M_U)
                    ref_v[c->dst][l] = v;
                else if (c->mode == M_D16)
                    ref_v[c->dst][l] = (old & 0xffff0000u) | (v & 0xffff);
                else
                    ref_v[c->dst][l] = (old & 0xffff) | v << 16;
            }
        } else {
            for (unsigned k = 0; k < ne; k++) {
                unsigned r = k ? 14 : 10;
                if (c->es >= 4) {
                    for (unsigned i = 0; i < c->es / 4; i++)
                        memcpy(b + 4 * i, &ref_v[r + i][l], 4);
                } else {
                    uint32_t v = ref_v[r][l] >> (c->mode == M_HI ? 16 : 0);
                    memcpy(b, &v, 4);
                }
                memcpy(ref_lds + ad[k], b, c->es);
            }
        }
    }
}

/* Lane addresses: 0 all in range, 1 misaligned, 2 eight distinct addresses (lanes collide),
 * 3 lane order reversed and 16-byte aligned (a GEMM tile's pattern).  The linear patterns, which
 * lds.c's quarter-at-a-time paths take (lane i of each 16-lane quarter at b + i * es): 4 a base
 * per quarter from a few nearby ones (quarters write the same bytes: the higher lanes must win),
 * 5 the whole wave in a row, misaligned, 6 the same with address + offset wrapping past 2^32,
 * 7 the whole wave in a row running past the end of LDS (a fault under memcheck).  The MFMA
 * operand tiles, which lds.c's tile paths take (R rows, 4 to 32, lane r + R * g at row r's
 * address + g * es): 8 rows ascending with a pitch of at least a row (sometimes misaligned), 9
 * rows descending and overlapping, 10 rows ascending but overlapping (writes must keep lane
 * order: the tile write path refuses both), 11 ascending with address + offset wrapping past
 * 2^32, 12 ascending with the last row running past the end of LDS (a fault under memcheck), 13
 * pattern 8 with one lane elsewhere or the upper groups one element further (not tiles: no tile
 * path may take them).  In these the inactive lanes' addresses are random: only active lanes
 * count. */
enum { NPAT = 14 };
static uint32_t lane_addr(int pat, unsigned l, unsigned span, unsigned es, unsigned off,
                          uint64_t exec, const uint32_t *qbase) {
    unsigned room = LDS_SIZE - span;
    if (pat >= 4 && !(exec >> l & 1))
        return rnd();
    switch (pat) {
    case 0: return (rnd() % room) & ~3u;
    case 1: return rnd() % room;
    case 2: return ((l * 5) % 8) * 16;
    case 3: return ((63 - l) * 16) % room;
    case 4: return qbase[l / 16] + (l % 16) * es;
    case 5: return qbase[0] + l * es;
    case 6: return qbase[0] % 8 + l * es - off;
    case 7: return LDS_SIZE - span - 40 * es + l * es;
    }
    unsigned R = 4u << (qbase[1] >> 4 & 3), G = 64 / R, r = l % R, g = l / R;
    unsigned pitch = G * es + qbase[1] % 3 * 4 + qbase[1] % 2, base = qbase[0] % (room - R * pitch);
    switch (pat) {
    case 13:
        if (qbase[2] & 64 ? g < G / 2 : l != qbase[2] % 64)
            return base + r * pitch + g * es;
        return qbase[2] & 64 ? base + r * pitch + (g + 1) * es : qbase[3] % (room - R * pitch);
    case 8: return base + r * pitch + g * es;
    case 9: return qbase[0] % (room - 70 * es) + (R - 1 - r) * es + g * es;
    case 10: return qbase[0] % (room - 80 * es) + r * 2 * es + g * es;
    case 12: return room - (R - 1) * pitch - es + 1 + qbase[0] % es + r * pitch + g * es;
    default: return qbase[0] % 8 + r * G * es + g * es - off;
    }
}

int main(void) {
    w = malloc(sizeof *w);
    const char *arches[] = {"gfx950", "gfx942", "gfx90a"};
    const uint64_t execs[] = {~0ull, 0xfedcba9876543210ull, 1ull << 63 | 1, 0xffffffffull, 0,
                              ~0ull};
    const unsigned nex = sizeof execs / sizeof execs[0];
    for (int ai = 0; ai < 3; ai++) {
        const char *arch = arches[ai];
        for (unsigned ci = 0; ci < sizeof cases / sizeof cases[0]; ci++) {
            const dscase *c = &cases[ci];
            char text[160];
            snprintf(text, sizeof text, "s_nop 0\n%s", c->text);
            snippet_prog sp = {0};
            if (snippet_prog_load(&sp, arch, text) != 0) {
                CHECK(0, "%s %s: does not assemble", arch, c->text);
                continue;
            }
            unsigned span =
                (c->cls == RD2 || c->cls == WR2 ? c->off0 > c->off1 ? c->off0 : c->off1 : c->off) +
                c->es;
            /* trial: exec pattern x address pattern x {plain, watched, one bad lane, two} */
            for (unsigned t = 0; t < nex * NPAT * 4; t++) {
                uint64_t exec = execs[t % nex];
                int pat = (int)(t / nex % NPAT), var = (int)(t / nex / NPAT);
                uint32_t qbase[4];
                for (unsigned q = 0; q < 4; q++)
                    qbase[q] =
                        pat == 4 ? (rnd() % 3) * 8 + 100 : rnd() % (LDS_SIZE - span - 64 * c->es);
                /* the tiles' row count (bits 4-5 of qbase[1]): all four in each case's plain
                 * full-EXEC trials (execs[0] and [5]) across the three targets */
                qbase[1] = (qbase[1] & ~0x30u) | (uint32_t)((ai + (t % nex ? 2 : 0)) & 3) << 4;
                memset(w, 0, sizeof *w);
                w->prog = &sp.prog;
                w->budget = 100;
                wave_set_exec(w, exec);
                w->lds = lds;
                w->lds_size = LDS_SIZE;
                for (unsigned i = 0; i < LDS_SIZE; i++)
                    lds[i] = (uint8_t)rnd();
                for (unsigned r = 0; r < 32; r++)
                    for (unsigned l = 0; l < 64; l++)
                        w->v[r][l] = r == 2 ? lane_addr(pat, l, span, c->es,
                                                        c->cls < RD2        ? c->off
                                                        : c->off0 < c->off1 ? c->off0
                                                                            : c->off1,
                                                        exec, qbase)
                                            : rnd();
                unsigned bad1 = rnd() % 64, bad2 = rnd() % 64;
                int past = pat == 7 || pat == 12; /* lanes past the end */
                if (past)                         /* a fault, as the model expects */
                    w->mc = snippet_memcheck();
                if (var >= 2) { /* partly past the end, or wrapping to a huge address: an LDS
                                 * fault under memcheck (by default the hardware's 0 and dropped
                                 * write, test_lds.c) */
                    w->v[2][bad1] = LDS_SIZE - span + 1 + rnd() % 8;
                    w->mc = snippet_memcheck();
                }
                if (var == 3)
                    w->v[2][bad2] = 0xfffff000u + rnd() % 16;
                /* the model's access list is for in-range lanes (patterns 7, 12 have bad ones) */
                int watched = var == 1 && !past;
                if (watched) {
                    w->lds_watch = watch;
                    n_got = 0;
                }
                memcpy(ref_lds, lds, LDS_SIZE);
                memcpy(ref_v, w->v, sizeof ref_v);
                uint64_t bad = 0;
                uint32_t first = 0;
                model(c, exec, &bad, &first);
                wave_run(w);
                const char *what = c->text;
                if (bad) {
                    CHECK(w->status == WAVE_FAULT && w->fault.kind == XF_LDS && w->fault.pc == 4 &&
                              w->fault.lanes == bad && w->fault.addr == first &&
                              w->fault.size == c->es &&
                              w->fault.write == (c->cls == WR || c->cls == WR2),
                          "%s %s exec %llx pat %d: status %d kind %d pc %u lanes %llx (want "
                          "%llx) addr %llx (want %x) size %u",
                          arch, what, (unsigned long long)exec, pat, w->status, w->fault.kind,
                          w->fault.pc, (unsigned long long)w->fault.lanes, (unsigned long long)bad,
                          (unsigned long long)w->fault.addr, first, (unsigned)w->fault.size);
                } else {
                    CHECK(w->status == WAVE_DONE, "%s %s exec %llx pat %d var %d: status %d", arch,
                          what, (unsigned long long)exec, pat, var, w->status);
                }
                unsigned badv = 0, first_r = 0, first_l = 0;
                for (unsigned r = 0; r < 32; r++)
                    for (unsigned l = 0; l < 64; l++)
                        if (w->v[r][l] != ref_v[r][l] && !badv++)
                            first_r = r, first_l = l;
                CHECK(badv == 0,
                      "%s %s exec %llx pat %d var %d: %u register values differ, v%u "
                      "lane %u %08x (want %08x)",
                      arch, what, (unsigned long long)exec, pat, var, badv, first_r, first_l,
                      w->v[first_r][first_l], ref_v[first_r][first_l]);
                unsigned badb = 0, first_b = 0;
                for (unsigned i = 0; i < LDS_SIZE; i++)
                    if (lds[i] != ref_lds[i] && !badb++)
                        first_b = i;
                CHECK(badb == 0, "%s %s exec %llx pat %d var %d: %u LDS bytes differ, first %u",
                      arch, what, (unsigned long long)exec, pat, var, badb, first_b);
                if (watched) {
                    int same = n_got == n_want;
                    for (unsigned i = 0; same && i < n_want && i < 256; i++)
                        same = got_acc[i].addr == want_acc[i].addr &&
                               got_acc[i].size == want_acc[i].size &&
                               got_acc[i].write == want_acc[i].write;
                    CHECK(same, "%s %s exec %llx pat %d: lds_watch saw %u accesses, want %u", arch,
                          what, (unsigned long long)exec, pat, n_got, n_want);
                }
            }
            snippet_prog_free(&sp);
        }
    }
    free(w);
    return check_summary("lds_fast");
}
