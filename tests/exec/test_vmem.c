/* test_vmem.c - FLAT/GLOBAL/SCRATCH/MUBUF semantics on llvm-mc-22 snippets: per-lane addressing,
 * partial EXEC, sub-dword and d16 data, atomics with return, the LDS and private apertures, private
 * memory per lane, and faults that name the first bad lane and address. */
#include "common/check.h"
#include "common/snippet.h"
#include "exec/exec.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* rig.buf: 256 bytes, dword i = 0x1000 + i, ending where its page ends, so that an access past
 * it faults (allocations are page-granular, as on hardware: inside the last page it would not) */
static snippet_rig rig;
static wave *const w = &rig.wv;

static void reset(void) { snippet_rig_reset(&rig, ~0ull, 0); }

/* v[r:r+1] = base + 4 * lane * step */
static void set_addr(unsigned r, uint64_t base, unsigned step) {
    for (unsigned l = 0; l < 64; l++) {
        uint64_t a = base + 4ull * l * step;
        w->v[r][l] = (uint32_t)a;
        w->v[r + 1][l] = (uint32_t)(a >> 32);
    }
}

static uint32_t fb(float f) {
    uint32_t u;
    memcpy(&u, &f, 4);
    return u;
}

static uint32_t rd(uint64_t off) {
    uint32_t v = 0;
    gmem_read(rig.mem, rig.buf + off, &v, 4);
    return v;
}

/* The formatted MUBUF and MTBUF ops (buffer descriptor word 3 DATA_FORMAT [18:15] and
 * NUM_FORMAT [14:12], the same layout on gfx90a, gfx942 and gfx950): run on every CDNA target. */
static void test_formats(const char *a) {
    int bad;
    /* Formatted loads.  Raw buffer (stride 0); memory bytes 00 ff 80 01 | 00 80 ff 7f | ... */
    reset();
    uint8_t bytes[16] = {0x00, 0xff, 0x80, 0x01, 0x00, 0x80, 0xff, 0x7f,
                         0xfe, 0x02, 0x00, 0x3c, 0x00, 0xc0, 0x55, 0xaa};
    gmem_write(rig.mem, rig.buf, bytes, sizeof bytes);
    snippet_set_rsrc(w, 4, rig.buf, 0, 256, 10u << 15 | 0u << 12); /* 8_8_8_8 UNORM */
    for (unsigned l = 0; l < 64; l++)
        w->v[1][l] = 0;
    wave_set_exec(w, 1);
    CHECK(run_snippet(w, a, "buffer_load_format_xyzw v[4:7], v1, s[4:7], 0 offen") == WAVE_DONE,
          "%s format unorm", a);
    CHECK(w->v[4][0] == 0 && w->v[5][0] == 0x3f800000 && w->v[6][0] == fb((float)(128.0 / 255)) &&
              w->v[7][0] == fb((float)(1.0 / 255)),
          "%s format unorm: %x %x %x %x", a, w->v[4][0], w->v[5][0], w->v[6][0], w->v[7][0]);
    /* tbuffer: format from the instruction.  16_16 SNORM at byte 4: 0x8000 -> -1 (clamped),
     * 0x7fff -> 1; z missing -> 0, w missing -> 1.0. */
    CHECK(run_snippet(w, a,
                      "tbuffer_load_format_xyzw v[4:7], v1, s[4:7], 0 "
                      "format:[BUF_DATA_FORMAT_16_16,BUF_NUM_FORMAT_SNORM] offen offset:4") ==
                  WAVE_DONE &&
              w->v[4][0] == 0xbf800000 && w->v[5][0] == 0x3f800000 && w->v[6][0] == 0 &&
              w->v[7][0] == 0x3f800000,
          "%s tbuffer snorm: %x %x %x %x", a, w->v[4][0], w->v[5][0], w->v[6][0], w->v[7][0]);
    /* 8_8 SSCALED at byte 8: 0xfe -> -2.0, 0x02 -> 2.0; 32 UINT: integer, y missing -> 0;
     * 8 SINT xyzw: w missing -> integer 1. */
    CHECK(run_snippet(w, a,
                      "tbuffer_load_format_xy v[4:5], v1, s[4:7], 0 "
                      "format:[BUF_DATA_FORMAT_8_8,BUF_NUM_FORMAT_SSCALED] offen offset:8\n"
                      "tbuffer_load_format_xy v[8:9], v1, s[4:7], 0 "
                      "format:[BUF_DATA_FORMAT_32,BUF_NUM_FORMAT_UINT] offen offset:4\n"
                      "tbuffer_load_format_xyzw v[10:13], v1, s[4:7], 0 "
                      "format:[BUF_DATA_FORMAT_8,BUF_NUM_FORMAT_SINT] offen offset:8") ==
                  WAVE_DONE &&
              w->v[4][0] == fb(-2.0f) && w->v[5][0] == fb(2.0f) && w->v[8][0] == 0x7fff8000 &&
              w->v[9][0] == 0 && w->v[10][0] == 0xfffffffe && w->v[11][0] == 0 && w->v[13][0] == 1,
          "%s tbuffer sscaled/uint/sint: %x %x %x %x %x %x", a, w->v[4][0], w->v[5][0], w->v[8][0],
          w->v[9][0], w->v[10][0], w->v[13][0]);
    /* d16: 16_16_16_16 FLOAT at byte 8 -> raw halves packed two per VGPR; d16_xyz keeps the
     * high half of its second VGPR; d16_hi_x with 8 UNORM writes f16(1.0) to the high half. */
    w->s[7] = 12u << 15 | 7u << 12;
    w->v[4][0] = w->v[5][0] = w->v[6][0] = w->v[7][0] = 0x12345678;
    CHECK(run_snippet(w, a,
                      "buffer_load_format_d16_xyzw v[4:5], v1, s[4:7], 0 offen offset:8\n"
                      "buffer_load_format_d16_xyz v[6:7], v1, s[4:7], 0 offen offset:8") ==
                  WAVE_DONE &&
              w->v[4][0] == 0x3c0002fe && w->v[5][0] == 0xaa55c000 && w->v[6][0] == 0x3c0002fe &&
              w->v[7][0] == 0x1234c000,
          "%s d16: %x %x %x %x", a, w->v[4][0], w->v[5][0], w->v[6][0], w->v[7][0]);
    w->s[7] = 1u << 15 | 0u << 12;
    w->v[8][0] = 0x11112222;
    CHECK(run_snippet(w, a, "buffer_load_format_d16_hi_x v8, v1, s[4:7], 0 offen offset:1") ==
                  WAVE_DONE &&
              w->v[8][0] == 0x3c002222,
          "%s d16_hi: %x", a, w->v[8][0]);
    /* Raw-buffer range per component: num_records 6, 8_8_8_8 at byte 4: x, y inside, z, w 0. */
    w->s[6] = 6;
    w->s[7] = 10u << 15 | 4u << 12; /* UINT */
    CHECK(run_snippet(w, a, "buffer_load_format_xyzw v[4:7], v1, s[4:7], 0 offen offset:4") ==
                  WAVE_DONE &&
              w->v[4][0] == 0 && w->v[5][0] == 0x80 && w->v[6][0] == 0 && w->v[7][0] == 0,
          "%s format oob: %x %x %x %x", a, w->v[4][0], w->v[5][0], w->v[6][0], w->v[7][0]);
    /* A packed format (10_10_10_2) is not modelled: a fault naming the instruction. */
    w->s[6] = 256;
    w->s[7] = 8u << 15;
    CHECK(run_snippet(w, a, "buffer_load_format_x v4, v1, s[4:7], 0 offen") == WAVE_FAULT &&
              w->fault.kind == XF_UNIMPLEMENTED,
          "%s packed format faults", a);

    /* Formatted stores: 8_8_8_8 UNORM from {0.5, -1, 2, NaN} -> 128 (127.5 to even), 0, 255,
     * 0; 16_16 SINT d16 from packed halves; 16 FLOAT from f32 1.5 -> 0x3e00. */
    reset();
    snippet_set_rsrc(w, 4, rig.buf, 0, 256, 2u << 15 | 7u << 12); /* 16 FLOAT */
    wave_set_exec(w, 1);
    w->v[1][0] = 0;
    w->v[4][0] = fb(0.5f), w->v[5][0] = fb(-1.0f), w->v[6][0] = fb(2.0f), w->v[7][0] = 0x7fc00000;
    w->v[8][0] = 0xfffe0003;
    w->v[9][0] = fb(1.5f);
    CHECK(run_snippet(w, a,
                      "tbuffer_store_format_xyzw v[4:7], v1, s[4:7], 0 "
                      "format:[BUF_DATA_FORMAT_8_8_8_8,BUF_NUM_FORMAT_UNORM] offen\n"
                      "tbuffer_store_format_d16_xy v8, v1, s[4:7], 0 "
                      "format:[BUF_DATA_FORMAT_16_16,BUF_NUM_FORMAT_SINT] offen offset:4\n"
                      "buffer_store_format_x v9, v1, s[4:7], 0 offen offset:8\n"
                      "buffer_store_format_d16_hi_x v8, v1, s[4:7], 0 offen offset:12") ==
              WAVE_DONE,
          "%s format stores", a);
    CHECK(rd(0) == 0x00ff0080 && rd(4) == 0xfffe0003 && rd(8) == 0x00003e00 &&
              (rd(12) & 0xffff) == 0xfffe,
          "%s format stores: %08x %08x %08x %08x", a, rd(0), rd(4), rd(8), rd(12));

    /* Every formatted op, both families: store then load back through an identity format
     * (32_32_32_32 UINT, or 16_16_16_16 UINT for d16): the op writes exactly its components,
     * packed two per VGPR for d16, and leaves the rest of memory and registers alone. */
    static const char *const comps[4] = {"x", "xy", "xyz", "xyzw"};
    static const char *const vd[2][4] = {{"v4", "v[4:5]", "v[4:6]", "v[4:7]"},
                                         {"v4", "v4", "v[4:5]", "v[4:5]"}};
    static const char *const vl[2][4] = {{"v8", "v[8:9]", "v[8:10]", "v[8:11]"},
                                         {"v8", "v8", "v[8:9]", "v[8:9]"}};
    bad = 0;
    for (int tb = 0; tb < 2; tb++)
        for (int d16 = 0; d16 < 2; d16++)
            for (int nc = 1; nc <= 4; nc++) {
                reset();
                snippet_set_rsrc(w, 4, rig.buf, 0, 256, (d16 ? 12u : 14u) << 15 | 4u << 12);
                wave_set_exec(w, 1);
                w->v[1][0] = 64;
                uint32_t sent = 0xeeeeeeee;
                for (int i = 0; i < 4; i++) {
                    gmem_write(rig.mem, rig.buf + 64 + 4 * i, &sent, 4);
                    w->v[4 + i][0] = 0xa0a00000u + 0x10001u * (uint32_t)i;
                    w->v[8 + i][0] = sent;
                }
                char text[512];
                const char *fmt =
                    d16 ? "BUF_DATA_FORMAT_16_16_16_16" : "BUF_DATA_FORMAT_32_32_32_32";
                char tfmt[96] = "";
                if (tb)
                    snprintf(tfmt, sizeof tfmt, " format:[%s,BUF_NUM_FORMAT_UINT]", fmt);
                snprintf(text, sizeof text,
                         "%sbuffer_store_format_%s%s %s, v1, s[4:7], 0%s offen\n"
                         "%sbuffer_load_format_%s%s %s, v1, s[4:7], 0%s offen",
                         tb ? "t" : "", d16 ? "d16_" : "", comps[nc - 1], vd[d16][nc - 1], tfmt,
                         tb ? "t" : "", d16 ? "d16_" : "", comps[nc - 1], vl[d16][nc - 1], tfmt);
                if (run_snippet(w, a, text) != WAVE_DONE) {
                    printf("  %s [%s] did not run\n", a, text);
                    bad++;
                    continue;
                }
                for (int c = 0; c < 4; c++) {
                    uint32_t want_mem, want_reg, got_mem, got_reg;
                    if (!d16) {
                        want_mem = c < nc ? 0xa0a00000u + 0x10001u * (uint32_t)c : sent;
                        got_mem = rd(64 + 4 * (uint64_t)c);
                        want_reg = c < nc ? want_mem : sent;
                        got_reg = w->v[8 + c][0];
                    } else {
                        uint32_t src = w->v[4 + c / 2][0] >> (16 * (c & 1)) & 0xffff;
                        uint32_t m2 = rd(64 + 4 * (uint64_t)(c / 2)) >> (16 * (c & 1)) & 0xffff;
                        want_mem = c < nc ? src : 0xeeee;
                        got_mem = m2;
                        want_reg = c < nc ? src : 0xeeee;
                        got_reg = w->v[8 + c / 2][0] >> (16 * (c & 1)) & 0xffff;
                    }
                    if (got_mem != want_mem || got_reg != want_reg) {
                        if (bad < 4)
                            printf("  %s [%s] comp %d: mem %x want %x, reg %x want %x\n", a, text,
                                   c, got_mem, want_mem, got_reg, want_reg);
                        bad++;
                    }
                }
            }
    CHECK(bad == 0, "%s every format op: %d wrong", a, bad);
}

int main(void) {
    if (snippet_rig_open(&rig) != 0)
        return 1;
    const char *arches[] = {"gfx950", "gfx942"};
    for (int ai = 0; ai < 2; ai++) {
        const char *a = arches[ai];
        int bad;

        reset();
        set_addr(2, rig.buf, 1);
        CHECK(run_snippet(w, a, "global_load_dword v1, v[2:3], off") == WAVE_DONE, "%s load", a);
        bad = 0;
        for (unsigned l = 0; l < 64; l++)
            bad += w->v[1][l] != 0x1000 + l;
        CHECK(bad == 0, "%s load: %d lanes wrong", a, bad);

        /* Partial EXEC: lanes outside it keep their value. */
        reset();
        set_addr(2, rig.buf, 1);
        for (unsigned l = 0; l < 64; l++)
            w->v[1][l] = 0xaaaa;
        wave_set_exec(w, 0x00000000ffff0000ull);
        CHECK(run_snippet(w, a, "global_load_dword v1, v[2:3], off") == WAVE_DONE, "%s partial", a);
        CHECK(w->v[1][15] == 0xaaaa && w->v[1][16] == 0x1010 && w->v[1][31] == 0x101f &&
                  w->v[1][32] == 0xaaaa,
              "%s partial: %x %x %x %x", a, w->v[1][15], w->v[1][16], w->v[1][31], w->v[1][32]);

        /* saddr + 32-bit VGPR offset + immediate; lane 63 reads 4 bytes past the end. */
        reset();
        w->s[0] = (uint32_t)rig.buf;
        w->s[1] = (uint32_t)(rig.buf >> 32);
        for (unsigned l = 0; l < 64; l++)
            w->v[2][l] = 4 * l;
        CHECK(run_snippet(w, a, "global_load_dword v1, v2, s[0:1] offset:4") == WAVE_FAULT,
              "%s oob", a);
        CHECK(w->fault.kind == XF_MEMORY && w->fault.addr == rig.buf + 256 && w->fault.size == 4 &&
                  w->fault.lanes == 1ull << 63 && !w->fault.write,
              "%s oob: kind %d addr +%lld lanes %llx", a, w->fault.kind,
              (long long)(w->fault.addr - rig.buf), (unsigned long long)w->fault.lanes);

        /* Sub-dword: sign extension, d16_hi keeps the low half, short stores. */
        reset();
        set_addr(2, rig.buf, 0);
        uint32_t b80 = 0x00008080;
        gmem_write(rig.mem, rig.buf, &b80, 4);
        for (unsigned l = 0; l < 64; l++)
            w->v[1][l] = 0x11112222;
        CHECK(run_snippet(
                  w, a,
                  "global_load_sbyte v4, v[2:3], off\nglobal_load_short_d16_hi v1, v[2:3], off") ==
                  WAVE_DONE,
              "%s subdword", a);
        CHECK(w->v[4][7] == 0xffffff80 && w->v[1][7] == 0x80802222, "%s subdword: %x %x", a,
              w->v[4][7], w->v[1][7]);
        reset();
        set_addr(2, rig.buf, 1);
        wave_set_exec(w, 1);
        w->v[5][0] = 0x12345678;
        CHECK(run_snippet(w, a,
                          "global_store_short v[2:3], v5, off\nglobal_store_byte_d16_hi v[2:3], "
                          "v5, off offset:2") == WAVE_DONE,
              "%s store short", a);
        CHECK(rd(0) == 0x00345678, "%s store short: %08x", a, rd(0));
        /* Every lane: shorts at buf + 2l, the high bytes of the data at buf + 128 + l, and 64
         * bytes to one address (lanes in order: lane 63's byte stays). */
        reset();
        wave_set_exec(w, ~0ull);
        for (unsigned l = 0; l < 64; l++) {
            uint64_t sa = rig.buf + 2 * l, ba = rig.buf + 128 + l;
            w->v[2][l] = (uint32_t)sa, w->v[3][l] = (uint32_t)(sa >> 32);
            w->v[6][l] = (uint32_t)ba, w->v[7][l] = (uint32_t)(ba >> 32);
            w->v[8][l] = (uint32_t)rig.buf, w->v[9][l] = (uint32_t)(rig.buf >> 32);
            w->v[5][l] = 0xab000000u | (l << 16) | 0x7700u | (0xc0u ^ l); /* hi byte != lo byte */
        }
        CHECK(run_snippet(w, a,
                          "global_store_short v[2:3], v5, off\n"
                          "global_store_byte_d16_hi v[6:7], v5, off\n"
                          "global_store_byte v[8:9], v5, off offset:252") == WAVE_DONE,
              "%s store short all lanes", a);
        CHECK(rd(0) == 0x77c177c0 && rd(124) == 0x77ff77fe && rd(128) == 0x03020100 &&
                  rd(188) == 0x3f3e3d3c && (rd(252) & 0xff) == 0xff && rd(192) == 0x1000 + 48,
              "%s store short all lanes: %08x %08x %08x %08x %08x %08x", a, rd(0), rd(124), rd(128),
              rd(188), rd(252), rd(192));

        /* 64 lanes add 1 to one address: the memory sees 64 adds, lane l gets the value after
         * l earlier adds. */
        reset();
        set_addr(2, rig.buf, 0);
        for (unsigned l = 0; l < 64; l++)
            w->v[4][l] = 1;
        CHECK(run_snippet(w, a, "global_atomic_add v1, v[2:3], v4, off sc0") == WAVE_DONE,
              "%s atomic", a);
        CHECK(rd(0) == 0x1000 + 64 && w->v[1][0] == 0x1000 && w->v[1][63] == 0x1000 + 63,
              "%s atomic: mem %x ret0 %x ret63 %x", a, rd(0), w->v[1][0], w->v[1][63]);
        reset();
        set_addr(2, rig.buf, 1);
        for (unsigned l = 0; l < 64; l++) {
            w->v[4][l] = 7;                      /* new */
            w->v[5][l] = l & 1 ? 0x1000 + l : 0; /* compare: matches on odd lanes */
        }
        CHECK(run_snippet(w, a, "global_atomic_cmpswap v1, v[2:3], v[4:5], off sc0") == WAVE_DONE,
              "%s cas", a);
        CHECK(rd(4) == 7 && rd(8) == 0x1002 && w->v[1][2] == 0x1002, "%s cas: %x %x %x", a, rd(4),
              rd(8), w->v[1][2]);

        /* The shared aperture routes a flat access to LDS. */
        reset();
        set_addr(2, GMEM_SHARED_APERTURE, 1);
        for (unsigned l = 0; l < 64; l++)
            w->v[5][l] = 0x500 + l;
        CHECK(run_snippet(w, a, "flat_store_dword v[2:3], v5") == WAVE_DONE, "%s flat lds", a);
        uint32_t l9;
        memcpy(&l9, rig.lds + 36, 4);
        CHECK(l9 == 0x509, "%s flat lds: %x", a, l9);
        set_addr(2, GMEM_SHARED_APERTURE + 4, 1); /* lane 63 is 4 bytes past the LDS */
        for (unsigned l = 0; l < 64; l++)
            w->v[6][l] = 0xdead;
        /* the LDS's out-of-range rule (lds.c): 0 for lane 63; a fault under memcheck */
        CHECK(run_snippet(w, a, "flat_load_dword v6, v[2:3]") == WAVE_DONE && w->v[6][63] == 0 &&
                  w->v[6][62] == 0x500 + 63,
              "%s flat lds past the end: status %d, %x %x", a, w->status, w->v[6][62], w->v[6][63]);
        CHECK(run_snippet(w, a, "flat_store_dword v[2:3], v6") == WAVE_DONE && rig.lds[255] == 0,
              "%s flat lds store past the end: status %d", a, w->status);
        w->mc = snippet_memcheck();
        CHECK(run_snippet(w, a, "flat_load_dword v6, v[2:3]") == WAVE_FAULT &&
                  w->fault.space == XS_LDS && w->fault.lanes == 1ull << 63,
              "%s flat lds oob under memcheck", a);
        w->mc = NULL;

        /* Private memory: every lane has its own bytes at the same offset. */
        reset();
        for (unsigned l = 0; l < 64; l++)
            w->v[5][l] = 0x700 + l;
        CHECK(run_snippet(w, a,
                          "scratch_store_dword off, v5, off offset:8\nscratch_load_dword v6, off, "
                          "off offset:8") == WAVE_DONE,
              "%s scratch", a);
        bad = 0;
        for (unsigned l = 0; l < 64; l++)
            bad += w->v[6][l] != 0x700 + l;
        uint32_t s2_9;
        memcpy(&s2_9, rig.scratch + (2 * 64 + 9) * 4, 4);
        CHECK(bad == 0 && s2_9 == 0x709, "%s scratch: %d lanes wrong, layout %x", a, bad, s2_9);
        CHECK(run_snippet(w, a, "scratch_load_dword v6, off, off offset:64") == WAVE_FAULT &&
                  w->fault.kind == XF_MEMORY,
              "%s scratch past the lane's size faults", a);
        /* Per-lane offsets (a VGPR address, dword-aligned): lane l's dwordx2 at 8 * (l % 4),
         * read back through a dwordx4 at 0 and in the layout (dword d of lane l at
         * (d * 64 + l) * 4); byte, short and d16_hi stores land in the lane's own bytes; under
         * partial EXEC the inactive lanes keep theirs; a misaligned dword offset is still
         * right (the per-lane path). */
        reset();
        for (unsigned l = 0; l < 64; l++) {
            w->v[2][l] = 8 * (l % 4);
            w->v[4][l] = 0x100 + l, w->v[5][l] = 0x200 + l;
            w->v[7][l] = 0x11223300u | l;
        }
        CHECK(run_snippet(w, a,
                          "scratch_store_dwordx2 v2, v[4:5], off\n"
                          "scratch_store_byte v2, v7, off offset:32\n"
                          "scratch_store_short v2, v7, off offset:34\n"
                          "scratch_store_byte_d16_hi v2, v7, off offset:36\n"
                          "scratch_store_short_d16_hi v2, v7, off offset:38") == WAVE_DONE,
              "%s scratch per-lane", a);
        bad = 0;
        for (unsigned l = 0; l < 64; l++) {
            unsigned d0 = 2 * (l % 4);
            uint32_t got[2], b[2];
            memcpy(&got[0], rig.scratch + (d0 * 64 + l) * 4, 4);
            memcpy(&got[1], rig.scratch + ((d0 + 1) * 64 + l) * 4, 4);
            memcpy(&b[0], rig.scratch + ((8 + d0) * 64 + l) * 4, 4);
            memcpy(&b[1], rig.scratch + ((9 + d0) * 64 + l) * 4, 4);
            bad += got[0] != 0x100 + l || got[1] != 0x200 + l ||
                   b[0] != ((0x3300u | l) << 16 | (l & 0xff)) || b[1] != (0x1122u << 16 | 0x22u);
        }
        CHECK(bad == 0, "%s scratch per-lane layout: %d lanes wrong", a, bad);
        for (unsigned l = 0; l < 64; l++)
            w->v[2][l] = 4 * (l % 2) + 2; /* misaligned dword offsets */
        wave_set_exec(w, 0x5555555555555555ull);
        CHECK(run_snippet(w, a,
                          "scratch_store_dword v2, v4, off offset:48\n"
                          "scratch_load_dword v9, v2, off offset:48") == WAVE_DONE,
              "%s scratch misaligned", a);
        bad = 0;
        for (unsigned l = 0; l < 64; l += 2)
            bad += w->v[9][l] != 0x100 + l;
        CHECK(bad == 0, "%s scratch misaligned: %d lanes wrong", a, bad);
        wave_set_exec(w, ~0ull);
        for (unsigned l = 0; l < 64; l++)
            w->v[6][l] = 0xdead;
        wave_set_exec(w, 0xf0f0f0f0f0f0f0f0ull);
        CHECK(run_snippet(w, a, "scratch_load_dwordx4 v[8:11], off, off") == WAVE_DONE,
              "%s scratch uniform partial", a);
        bad = 0;
        for (unsigned l = 0; l < 64; l++)
            if ((l >> 2) & 1)
                bad += w->v[8][l] != (l % 4 == 0 ? 0x100 + l : 0) ||
                       w->v[10][l] != (l % 4 == 1 ? 0x100 + l : 0);
        CHECK(bad == 0, "%s scratch uniform partial: %d lanes wrong", a, bad);
        wave_set_exec(w, ~0ull);

        /* FLAT through the private aperture (clang -O0 reaches private arrays this way):
         * the same bytes as scratch_*.  One offset in every lane, full and partial EXEC;
         * per-lane offsets; lanes split between private and global memory; a lane past its
         * private size faults and is named; a misaligned dword. */
        reset();
        set_addr(2, GMEM_PRIVATE_APERTURE + 16, 0);
        for (unsigned l = 0; l < 64; l++)
            w->v[6][l] = 0x900 + l, w->v[7][l] = 0xa00 + l;
        CHECK(run_snippet(w, a, "flat_store_dwordx2 v[2:3], v[6:7] offset:8") == WAVE_DONE,
              "%s flat private store", a);
        bad = 0;
        for (unsigned l = 0; l < 64; l++) {
            uint32_t d6, d7;
            memcpy(&d6, rig.scratch + (6 * 64 + l) * 4, 4);
            memcpy(&d7, rig.scratch + (7 * 64 + l) * 4, 4);
            bad += d6 != 0x900 + l || d7 != 0xa00 + l;
        }
        CHECK(bad == 0, "%s flat private store layout: %d lanes wrong", a, bad);
        for (unsigned l = 0; l < 64; l++)
            w->v[8][l] = 0xdead, w->v[9][l] = 0xbeef;
        wave_set_exec(w, 0x8000000f0f0f0f01ull);
        CHECK(run_snippet(w, a, "flat_load_dwordx2 v[8:9], v[2:3] offset:8") == WAVE_DONE,
              "%s flat private load partial", a);
        bad = 0;
        for (unsigned l = 0; l < 64; l++) {
            int on = (0x8000000f0f0f0f01ull >> l) & 1;
            bad +=
                w->v[8][l] != (on ? 0x900 + l : 0xdead) || w->v[9][l] != (on ? 0xa00 + l : 0xbeef);
        }
        CHECK(bad == 0, "%s flat private load partial: %d lanes wrong", a, bad);
        wave_set_exec(w, ~0ull);
        /* lane l at dword 8 + l % 8 (an indexed private array) */
        for (unsigned l = 0; l < 64; l++) {
            uint64_t pa = GMEM_PRIVATE_APERTURE + 32 + 4 * (l % 8);
            w->v[2][l] = (uint32_t)pa, w->v[3][l] = (uint32_t)(pa >> 32);
            w->v[5][l] = 0xc00 + l;
        }
        CHECK(run_snippet(w, a, "flat_store_dword v[2:3], v5") == WAVE_DONE,
              "%s flat private per-lane store", a);
        for (unsigned l = 0; l < 64; l++)
            w->v[8][l] = 0x5a5a;
        wave_set_exec(w, 0x00ff00ff00ff00ffull);
        CHECK(run_snippet(w, a, "flat_load_dword v8, v[2:3]") == WAVE_DONE,
              "%s flat private per-lane load", a);
        bad = 0;
        for (unsigned l = 0; l < 64; l++) {
            uint32_t d;
            memcpy(&d, rig.scratch + ((8 + l % 8) * 64 + l) * 4, 4);
            int on = (0x00ff00ff00ff00ffull >> l) & 1;
            bad += d != 0xc00 + l || w->v[8][l] != (on ? 0xc00 + l : 0x5a5au);
        }
        CHECK(bad == 0, "%s flat private per-lane: %d lanes wrong", a, bad);
        wave_set_exec(w, ~0ull);
        /* lanes 0-31 private dword 8 + l % 8, lanes 32-63 the global buffer's dword l - 32 */
        for (unsigned l = 32; l < 64; l++) {
            uint64_t ga = rig.buf + 4 * (l - 32);
            w->v[2][l] = (uint32_t)ga, w->v[3][l] = (uint32_t)(ga >> 32);
        }
        CHECK(run_snippet(w, a, "flat_load_dword v8, v[2:3]") == WAVE_DONE,
              "%s flat private+global", a);
        bad = 0;
        for (unsigned l = 0; l < 64; l++)
            bad += w->v[8][l] != (l < 32 ? 0xc00 + l : 0x1000 + l - 32);
        CHECK(bad == 0, "%s flat private+global: %d lanes wrong", a, bad);
        /* lane 5 at byte 64 of a 64-byte private memory: a fault naming lane 5 */
        set_addr(2, GMEM_PRIVATE_APERTURE + 60, 0);
        w->v[2][5] += 4;
        CHECK(run_snippet(w, a, "flat_load_dword v8, v[2:3]") == WAVE_FAULT &&
                  w->fault.kind == XF_MEMORY && w->fault.lanes == 1ull << 5,
              "%s flat private past the lane's size: lanes %llx", a,
              (unsigned long long)w->fault.lanes);
        /* lane 9 just above the aperture, at an in-range low dword: a global address that
         * no allocation holds, so a fault in global memory naming lane 9 */
        set_addr(2, GMEM_PRIVATE_APERTURE + 16, 0);
        w->v[3][9] += 1;
        CHECK(run_snippet(w, a, "flat_store_dword v[2:3], v5") == WAVE_FAULT &&
                  w->fault.kind == XF_MEMORY && w->fault.lanes == 1ull << 9 &&
                  w->fault.space == XS_GLOBAL,
              "%s flat lane outside the private aperture: lanes %llx", a,
              (unsigned long long)w->fault.lanes);
        /* a misaligned dword (offset 2 of every lane): bytes 2..5 of the lane's memory */
        set_addr(2, GMEM_PRIVATE_APERTURE + 2, 0);
        for (unsigned l = 0; l < 64; l++) {
            uint32_t d0 = 0x33221100u + l, d1 = 0x77665544u;
            memcpy(rig.scratch + l * 4, &d0, 4);
            memcpy(rig.scratch + (64 + l) * 4, &d1, 4);
        }
        CHECK(run_snippet(w, a, "flat_load_dword v8, v[2:3]") == WAVE_DONE,
              "%s flat private misaligned", a);
        bad = 0;
        for (unsigned l = 0; l < 64; l++)
            bad += w->v[8][l] != (0x5544u << 16 | 0x3322u);
        CHECK(bad == 0, "%s flat private misaligned: %d lanes wrong (lane 0 %x)", a, bad,
              w->v[8][0]);

        /* MUBUF raw buffer (stride 0): num_records = 0x18 bytes.  A dwordx4 at offset 0x10 reads
         * two dwords and zeros; stores past the end are dropped; nothing outside is touched. */
        reset();
        snippet_set_rsrc(w, 4, rig.buf, 0, 0x18, 0);
        w->s[8] = 4; /* soffset */
        for (unsigned l = 0; l < 64; l++)
            w->v[2][l] = 4 * l;
        wave_set_exec(w, 0x7);
        CHECK(run_snippet(w, a, "buffer_load_dwordx4 v[4:7], v2, s[4:7], s8 offen offset:12") ==
                  WAVE_DONE,
              "%s mubuf", a);
        /* lane 0: offset 12 -> bytes 12..27 (+4 soffset: address buf+16): dwords at offsets
         * 12, 16 are inside 0x18, 20 is inside (20+4 <= 24), 24 is out. */
        CHECK(w->v[4][0] == 0x1004 && w->v[5][0] == 0x1005 && w->v[6][0] == 0x1006 &&
                  w->v[7][0] == 0,
              "%s mubuf lane0: %x %x %x %x", a, w->v[4][0], w->v[5][0], w->v[6][0], w->v[7][0]);
        CHECK(w->v[4][2] == 0x1006 && w->v[5][2] == 0 && w->v[6][2] == 0, "%s mubuf lane2: %x %x",
              a, w->v[4][2], w->v[5][2]);
        for (unsigned l = 0; l < 64; l++)
            w->v[9][l] = 0xabc0 + l;
        CHECK(run_snippet(w, a, "buffer_store_dword v9, v2, s[4:7], 0 offen offset:16") ==
                  WAVE_DONE,
              "%s mubuf store", a);
        CHECK(rd(16) == 0xabc0 && rd(20) == 0xabc1 && rd(24) == 0x1006, "%s mubuf store: %x %x %x",
              a, rd(16), rd(20), rd(24));
        /* A huge num_records cannot reach past the allocation: that is a fault, not a write. */
        w->s[6] = 0xffffffff;
        for (unsigned l = 0; l < 64; l++)
            w->v[2][l] = 0x10000;
        CHECK(run_snippet(w, a, "buffer_store_dword v9, v2, s[4:7], 0 offen") == WAVE_FAULT &&
                  w->fault.kind == XF_MEMORY && w->fault.addr == rig.buf + 0x10000,
              "%s mubuf huge num_records", a);
        /* MUBUF raw buffer with every active lane's whole access inside num_records (vmem.c's
         * per-instruction path): lane l reads and writes its own dwords, the last lane ending
         * exactly at num_records; one byte less and lane 63's last dword reads 0 and its
         * store is dropped (the per-lane path); the cache-swizzle bit with a stride addresses
         * linearly too; a uniform offset without offen reaches one dword for all lanes. */
        reset();
        snippet_set_rsrc(w, 4, rig.buf, 0, 256, 0);
        for (unsigned l = 0; l < 64; l++)
            w->v[2][l] = 4 * l;
        CHECK(run_snippet(w, a, "buffer_load_dword v4, v2, s[4:7], 0 offen") == WAVE_DONE,
              "%s mubuf in range", a);
        int ok = 1;
        for (unsigned l = 0; l < 64; l++)
            ok &= w->v[4][l] == 0x1000 + l;
        CHECK(ok, "%s mubuf in range: lane 5 %x, lane 63 %x", a, w->v[4][5], w->v[4][63]);
        for (unsigned l = 0; l < 32; l++)
            w->v[2][l] = 8 * (31 - l); /* dwordx2, lanes in reverse order */
        wave_set_exec(w, 0xffffffffull);
        CHECK(run_snippet(w, a, "buffer_load_dwordx2 v[6:7], v2, s[4:7], 0 offen") == WAVE_DONE,
              "%s mubuf x2 in range", a);
        ok = 1;
        for (unsigned l = 0; l < 32; l++)
            ok &= w->v[6][l] == 0x1000 + 2 * (31 - l) && w->v[7][l] == 0x1001 + 2 * (31 - l);
        CHECK(ok, "%s mubuf x2 in range: lane 0 %x %x", a, w->v[6][0], w->v[7][0]);
        wave_set_exec(w, ~0ull);
        for (unsigned l = 0; l < 64; l++) {
            w->v[2][l] = 4 * l;
            w->v[9][l] = 0x5000 + l;
        }
        w->s[5] |= (16u | 0x4000u) << 16; /* stride 16 with the cache-swizzle bit: still raw */
        CHECK(run_snippet(w, a, "buffer_store_dword v9, v2, s[4:7], 0 offen") == WAVE_DONE,
              "%s mubuf store in range", a);
        CHECK(rd(0) == 0x5000 && rd(20) == 0x5005 && rd(252) == 0x503f,
              "%s mubuf store in range: %x %x %x", a, rd(0), rd(20), rd(252));
        CHECK(run_snippet(w, a, "buffer_load_dword v5, off, s[4:7], 0 offset:20") == WAVE_DONE &&
                  w->v[5][0] == 0x5005 && w->v[5][63] == 0x5005,
              "%s mubuf uniform offset: %x %x", a, w->v[5][0], w->v[5][63]);
        w->s[6] = 255;
        for (unsigned l = 0; l < 64; l++)
            w->v[9][l] = 0x6000 + l;
        CHECK(run_snippet(w, a, "buffer_store_dword v9, v2, s[4:7], 0 offen") == WAVE_DONE &&
                  rd(248) == 0x603e && rd(252) == 0x503f,
              "%s mubuf store one byte short: %x %x", a, rd(248), rd(252));
        CHECK(run_snippet(w, a, "buffer_load_dword v4, v2, s[4:7], 0 offen") == WAVE_DONE &&
                  w->v[4][62] == 0x603e && w->v[4][63] == 0,
              "%s mubuf load one byte short: %x %x", a, w->v[4][62], w->v[4][63]);
        /* Lanes wholly past num_records (128 bytes: lanes 32-63) read 0 and drop their stores,
         * the rest go on as in range (vmem.c's per-instruction path): into the offsets' own
         * register, under every other lane, and a store from lane 16 on past the end. */
        w->s[6] = 128;
        CHECK(run_snippet(w, a, "buffer_load_dword v2, v2, s[4:7], 0 offen") == WAVE_DONE,
              "%s mubuf load past num_records", a);
        ok = 1;
        for (unsigned l = 0; l < 64; l++)
            ok &= w->v[2][l] == (l < 32 ? 0x6000 + l : 0);
        CHECK(ok, "%s mubuf load past num_records: lane 31 %x, lane 32 %x", a, w->v[2][31],
              w->v[2][32]);
        for (unsigned l = 0; l < 64; l++) {
            w->v[2][l] = 4 * l;
            w->v[3][l] = 64 + 4 * l;
            w->v[4][l] = 0xdead;
            w->v[9][l] = 0x7000 + l;
        }
        wave_set_exec(w, 0x5555555555555555ull);
        CHECK(run_snippet(w, a, "buffer_load_dword v4, v2, s[4:7], 0 offen") == WAVE_DONE,
              "%s mubuf load past num_records, every other lane", a);
        ok = 1;
        for (unsigned l = 0; l < 64; l++)
            ok &= w->v[4][l] == (l % 2 ? 0xdead : l < 32 ? 0x6000 + l : 0);
        CHECK(ok, "%s mubuf load past num_records, every other lane: %x %x %x", a, w->v[4][1],
              w->v[4][30], w->v[4][32]);
        wave_set_exec(w, ~0ull);
        CHECK(run_snippet(w, a, "buffer_store_dword v9, v3, s[4:7], 0 offen") == WAVE_DONE &&
                  rd(60) == 0x600f && rd(64) == 0x7000 && rd(124) == 0x700f && rd(128) == 0x6020 &&
                  rd(252) == 0x503f,
              "%s mubuf store past num_records: %x %x %x %x %x", a, rd(60), rd(64), rd(124),
              rd(128), rd(252));
        /* Lanes partly inside num_records (130 bytes) under full EXEC: a dwordx4 at 4 * lane
         * (lane 5 at 4 * lane + 2) reads the dwords that end at or below 130 and zeros for the
         * rest (vmem.c's per-instruction path takes those lanes after the others); lanes 29-31
         * partly inside, 32 at 128 with no whole dword, 33 on wholly past.  Expected values from
         * the memory itself, each dword at its own (possibly unaligned) offset. */
        reset();
        snippet_set_rsrc(w, 4, rig.buf, 0, 130, 0);
        for (unsigned l = 0; l < 64; l++)
            w->v[2][l] = 4 * l + (l == 5 ? 2 : 0);
        for (unsigned l = 0; l < 64; l++)
            for (unsigned r = 4; r < 8; r++)
                w->v[r][l] = 0xdead;
        CHECK(run_snippet(w, a, "buffer_load_dwordx4 v[4:7], v2, s[4:7], 0 offen") == WAVE_DONE,
              "%s mubuf dwordx4 partly inside", a);
        int pbad = 0;
        for (unsigned l = 0; l < 64; l++)
            for (unsigned i = 0; i < 4; i++) {
                uint32_t o = w->v[2][l] + 4 * i, want = o + 4 <= 130 ? rd(o) : 0;
                if (w->v[4 + i][l] != want && pbad++ < 3)
                    printf("  %s mubuf partly inside: lane %u dword %u: %x, want %x\n", a, l, i,
                           w->v[4 + i][l], want);
            }
        CHECK(pbad == 0, "%s mubuf dwordx4 partly inside: %d dwords wrong", a, pbad);
        CHECK(w->v[6][29] == rd(124) && w->v[7][29] == 0 && w->v[4][31] == rd(124) &&
                  w->v[5][31] == 0 && w->v[4][32] == 0,
              "%s mubuf partly inside: edges %x %x %x %x %x", a, w->v[6][29], w->v[7][29],
              w->v[4][31], w->v[5][31], w->v[4][32]);
        /* Scattered loads and stores under a partial EXEC (vmem.c's lane masks from EXEC's
         * halves): lane l's dword at 4 * (63 - l), a byte of it, a dwordx4 at 4 * (7l mod 61); the
         * lanes off keep their registers and their words in memory.  Each half of EXEC off in
         * turn, and a mixed mask. */
        static const uint64_t pexec[] = {0x00000000ffffffffull, 0xffffffff00000000ull,
                                         0x5555aaaa0f0f00ffull};
        for (int e = 0; e < 3; e++) {
            reset();
            w->s[0] = (uint32_t)rig.buf;
            w->s[1] = (uint32_t)(rig.buf >> 32);
            uint32_t before[64];
            for (unsigned l = 0; l < 64; l++) {
                w->v[2][l] = 4 * (63 - l);
                w->v[3][l] = 4 * ((7 * l) % 61);
                w->v[10][l] = 0x7000 + l;
                for (unsigned r = 4; r < 10; r++)
                    w->v[r][l] = 0xdead0000 + l;
                before[l] = rd(4 * l);
            }
            wave_set_exec(w, pexec[e]);
            CHECK(run_snippet(w, a,
                              "global_load_dword v4, v2, s[0:1]\n"
                              "global_load_ubyte v5, v2, s[0:1] offset:1\n"
                              "global_load_dwordx4 v[6:9], v3, s[0:1]\n"
                              "global_store_dword v2, v10, s[0:1]") == WAVE_DONE,
                  "%s partial exec %d: status %d, fault %d at +%lld", a, e, w->status,
                  w->fault.kind, (long long)(w->fault.addr - rig.buf));
            int ebad = 0;
            for (unsigned l = 0; l < 64; l++) {
                int on = (pexec[e] >> l) & 1;
                uint32_t want[6] = {before[63 - l], (before[63 - l] >> 8) & 0xff, 0, 0, 0, 0};
                for (unsigned i = 0; i < 4; i++)
                    want[2 + i] = before[(7 * l) % 61 + i];
                for (unsigned r = 0; r < 6; r++)
                    if (w->v[4 + r][l] != (on ? want[r] : 0xdead0000 + l) && ebad++ < 3)
                        printf("  %s partial exec %d: lane %u v%u %x, want %x\n", a, e, l, 4 + r,
                               w->v[4 + r][l], on ? want[r] : 0xdead0000 + l);
                uint32_t m = rd(4 * (63 - l)), mw = on ? 0x7000 + l : before[63 - l];
                if (m != mw && ebad++ < 3)
                    printf("  %s partial exec %d: word %u %x, want %x\n", a, e, 63 - l, m, mw);
            }
            CHECK(ebad == 0, "%s partial exec %d: %d wrong", a, e, ebad);
        }
        /* Structured buffer: stride 16, index in the VGPR; index >= num_records reads 0. */
        reset();
        snippet_set_rsrc(w, 4, rig.buf, 16u << 16, 3, 0);
        for (unsigned l = 0; l < 64; l++)
            w->v[2][l] = l;
        wave_set_exec(w, 0xf);
        CHECK(run_snippet(w, a, "buffer_load_dword v4, v2, s[4:7], 0 idxen offset:4") == WAVE_DONE,
              "%s mubuf idxen", a);
        CHECK(w->v[4][0] == 0x1001 && w->v[4][2] == 0x1009 && w->v[4][3] == 0,
              "%s mubuf idxen: %x %x %x", a, w->v[4][0], w->v[4][2], w->v[4][3]);

        /* SWIZZLE_EN without ADD_TID_ENABLE addresses linearly on gfx942/gfx950 (see buf_ref):
         * stride 8, index = lane, offset 4 -> buffer_offset = 8 * lane + 4: lane 0 -> dword 1,
         * lane 7 -> 60 (dword 15), lane 9 -> 76 (dword 19), lane 15 -> 124 (dword 31).  The
         * [20:19] bits GCN3 called ELEMENT_SIZE change nothing. */
        reset();
        snippet_set_rsrc(w, 4, rig.buf, 8u << 16 | 1u << 31, 16, 1u << 19);
        for (unsigned l = 0; l < 64; l++)
            w->v[2][l] = l, w->v[3][l] = 4;
        wave_set_exec(w, 0xffff);
        CHECK(run_snippet(w, a, "buffer_load_dword v4, v[2:3], s[4:7], 0 idxen offen") == WAVE_DONE,
              "%s swizzle_en alone", a);
        CHECK(w->v[4][0] == 0x1000 + 1 && w->v[4][7] == 0x1000 + 15 && w->v[4][9] == 0x1000 + 19 &&
                  w->v[4][15] == 0x1000 + 31,
              "%s swizzle_en alone: %x %x %x %x", a, w->v[4][0], w->v[4][7], w->v[4][9],
              w->v[4][15]);
        /* HipKittens' descriptor (verified on MI300/MI350 hardware): word1 = base_hi |
         * (stride | 0xC000) << 16 (cache swizzle and swizzle enable, stride a row pitch of 512),
         * word3 = 0x110000, num_records = 64 bytes, plain offen: linear, byte-range checked.
         * Lane l reads offset 4 * l + 8: dword l + 2 while 4 * l + 8 + 4 <= 64, else 0. */
        reset();
        snippet_set_rsrc(w, 4, rig.buf, (512u | 0xc000u) << 16, 64, 0x110000);
        for (unsigned l = 0; l < 64; l++)
            w->v[2][l] = 4 * l;
        wave_set_exec(w, ~0ull);
        CHECK(run_snippet(w, a, "buffer_load_dword v4, v2, s[4:7], 0 offen offset:8") == WAVE_DONE,
              "%s hipkittens descriptor", a);
        bad = 0;
        for (unsigned l = 0; l < 64; l++)
            bad += w->v[4][l] != (4 * l + 8 + 4 <= 64 ? 0x1000 + l + 2 : 0);
        CHECK(bad == 0, "%s hipkittens descriptor: %d lanes wrong (lane 1 %x, lane 14 %x)", a, bad,
              w->v[4][1], w->v[4][14]);
        /* ... and a store through it lands linearly too: lane l writes dword l + 2, lanes whose
         * dword is past 64 bytes are dropped. */
        for (unsigned l = 0; l < 64; l++)
            w->v[9][l] = 0xbee0 + l;
        CHECK(run_snippet(w, a, "buffer_store_dword v9, v2, s[4:7], 0 offen offset:8") ==
                      WAVE_DONE &&
                  rd(8) == 0xbee0 && rd(60) == 0xbee0 + 13 && rd(64) == 0x1000 + 16,
              "%s hipkittens store: %x %x %x", a, rd(8), rd(60), rd(64));
        /* Genuinely swizzled: SWIZZLE_EN + ADD_TID_ENABLE, stride 8 (DATA_FORMAT 0 adds no
         * bits), INDEX_STRIDE 16 (1), 4-byte elements, VGPR index 0, offset 4, idxen:
         * index = lane; buffer_offset = (lane / 16 * 8 + 4 / 4 * 4) * 16 + lane % 16 * 4 + 0:
         * lane 0 -> 64 (dword 16), lane 15 -> 124 (31), lane 16 -> 192 (48), lane 31 -> 252 (63).
         */
        reset();
        snippet_set_rsrc(w, 4, rig.buf, 8u << 16 | 1u << 31, 64, 1u << 21 | 1u << 23);
        for (unsigned l = 0; l < 64; l++)
            w->v[2][l] = 0;
        wave_set_exec(w, 0xffffffffull);
        CHECK(run_snippet(w, a, "buffer_load_dword v4, v2, s[4:7], 0 idxen offset:4") == WAVE_DONE,
              "%s swizzled", a);
        bad = 0;
        for (unsigned l = 0; l < 32; l++)
            bad += w->v[4][l] != 0x1000 + ((l / 16 * 8 + 4) * 16 + l % 16 * 4) / 4;
        CHECK(bad == 0 && w->v[4][0] == 0x1000 + 16 && w->v[4][16] == 0x1000 + 48,
              "%s swizzled: %d lanes wrong (%x %x %x)", a, bad, w->v[4][0], w->v[4][15],
              w->v[4][16]);
        /* INDEX_STRIDE 16 (1) with the lane as index and offset 0: lane 9 -> 9 * 4 = 36. */
        w->s[7] = 1u << 19 | 1u << 21 | 1u << 23;
        for (unsigned l = 0; l < 64; l++)
            w->v[2][l] = 0, w->v[3][l] = 0;
        wave_set_exec(w, 0xffff);
        CHECK(run_snippet(w, a, "buffer_load_dword v4, v[2:3], s[4:7], 0 idxen offen") ==
                      WAVE_DONE &&
                  w->v[4][9] == 0x1000 + 9 && w->v[4][0] == 0x1000,
              "%s swizzle tid: %x", a, w->v[4][9]);

        test_formats(a);

        /* Loads into LDS.  global_load_lds_dword: LDS address M0[17:2] * 4 + offset + lane * 4
         * (M0 = 0x43: the low bits are dropped), the global address gets the offset too. */
        reset();
        set_addr(2, rig.buf, 1);
        wave_set_exec(w, 0xff);
        w->s[124] = 0x43;
        for (unsigned l = 0; l < 64; l++)
            w->v[9][l] = 0x5555;
        CHECK(run_snippet(w, a, "global_load_lds_dword v[2:3], off offset:8") == WAVE_DONE,
              "%s lds dword", a);
        uint32_t ld[64];
        memcpy(ld, rig.lds, sizeof ld);
        bad = 0;
        for (unsigned l = 0; l < 8; l++)
            bad += ld[(0x40 + 8) / 4 + l] != 0x1000 + 2 + l;
        CHECK(bad == 0 && ld[0x40 / 4 + 1] == 0 && ld[(0x48 / 4) + 8] == 0,
              "%s lds dword: %d wrong, %x", a, bad, ld[0x48 / 4]);
        /* sbyte / ushort extend to a dword per lane; scratch_load_lds reads the lane's own
         * private memory. */
        reset();
        set_addr(2, rig.buf + 3, 1);
        set_addr(4, rig.buf + 2, 1);
        wave_set_exec(w, 0x3);
        uint32_t neg = 0x8081fffe;
        gmem_write(rig.mem, rig.buf, &neg, 4);
        gmem_write(rig.mem, rig.buf + 4, &neg, 4);
        w->s[124] = 0;
        CHECK(run_snippet(w, a,
                          "global_load_lds_sbyte v[2:3], off\n"
                          "s_mov_b32 m0, 16\nglobal_load_lds_ushort v[4:5], off") == WAVE_DONE,
              "%s lds sub-dword", a);
        memcpy(ld, rig.lds, sizeof ld);
        CHECK(ld[0] == 0xffffff80 && ld[1] == 0xffffff80 && ld[4] == 0x8081 && ld[5] == 0x8081,
              "%s lds sub-dword: %x %x %x %x", a, ld[0], ld[1], ld[4], ld[5]);
        reset();
        wave_set_exec(w, 0xf);
        for (unsigned l = 0; l < 4; l++)
            memcpy(rig.scratch + (1 * 64 + l) * 4, &(uint32_t){0x900 + l},
                   4); /* dword 1 of lane l */
        w->s[124] = 0x20;
        CHECK(run_snippet(w, a, "scratch_load_lds_dword off, off offset:4") == WAVE_DONE,
              "%s scratch lds", a);
        memcpy(ld, rig.lds, sizeof ld);
        CHECK(ld[(0x20 + 4) / 4] == 0x900 && ld[(0x20 + 4) / 4 + 3] == 0x903,
              "%s scratch lds: %x %x", a, ld[9], ld[12]);
        /* MUBUF lds bit: LDS address M0 (bytes) + the instruction offset + lane * 4. */
        reset();
        snippet_set_rsrc(w, 4, rig.buf, 0, 256, 0);
        w->s[124] = 0x22;
        wave_set_exec(w, 0xf);
        for (unsigned l = 0; l < 64; l++)
            w->v[1][l] = 4 * l;
        CHECK(run_snippet(w, a, "buffer_load_dword v1, s[4:7], 0 offen offset:4 lds") == WAVE_DONE,
              "%s mubuf lds", a);
        uint32_t m0v;
        memcpy(&m0v, rig.lds + 0x22 + 4 + 12, 4);
        CHECK(m0v == 0x1000 + 1 + 3 && w->v[1][3] == 12, "%s mubuf lds: %x", a, m0v);
        /* LDS past the end: the lanes there are dropped (the hardware discards LDS writes past
         * the allocation), the others land; under memcheck it is an LDS fault. */
        w->s[124] = 250;
        static uint8_t lds_before[256];
        memcpy(lds_before, rig.lds, sizeof lds_before);
        CHECK(run_snippet(w, a, "buffer_load_dword v1, s[4:7], 0 offen lds") == WAVE_DONE &&
                  !memcmp(lds_before, rig.lds, 250) &&
                  !memcmp(rig.lds + 250, "\x00\x10\x00\x00", 4) &&
                  !memcmp(lds_before + 254, rig.lds + 254, 2),
              "%s mubuf lds past the end: status %d", a, w->status);
        w->mc = snippet_memcheck();
        CHECK(run_snippet(w, a, "buffer_load_dword v1, s[4:7], 0 offen lds") == WAVE_FAULT &&
                  w->fault.kind == XF_LDS,
              "%s mubuf lds oob under memcheck", a);
        w->mc = NULL;
        if (ai == 0) {
            reset();
            set_addr(2, rig.buf, 4);
            wave_set_exec(w, 0x3);
            w->s[124] = 0;
            CHECK(run_snippet(w, a, "global_load_lds_dwordx4 v[2:3], off") == WAVE_DONE,
                  "%s lds x4", a);
            memcpy(ld, rig.lds, sizeof ld);
            CHECK(ld[0] == 0x1000 && ld[3] == 0x1003 && ld[4] == 0x1004 && ld[7] == 0x1007,
                  "%s lds x4: %x %x %x", a, ld[0], ld[4], ld[7]);
        }
    }
    /* gfx90a: the formatted ops only (its cache bits, LDS-DMA and scratch rules differ: see
     * test_gfx90a.c); the descriptor and format semantics are the same as gfx942's */
    test_formats("gfx90a");
    snippet_rig_close(&rig);
    return check_summary("vmem");
}
