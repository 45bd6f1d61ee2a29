/* test_rdna_buf.c - RDNA buffer memory (src/exec/rdna_mem.c) on llvm-mc-22 snippets for gfx1100
 * (MUBUF/MTBUF) and gfx1201 (VBUFFER), wave32 and wave64: the RDNA V# layout, offen/idxen/
 * soffset/instruction offset, each OOB_SELECT range rule (out of range: loads 0, stores and
 * atomics dropped), per-dword checks of multi-dword accesses, swizzled and ADD_TID addressing,
 * atomics returning the old value (gfx11 glc, gfx12 th:TH_ATOMIC_RETURN), the format ops, a
 * memory fault for an in-range access outside the allocation; and the other RDNA-only ops of
 * rdna_mem.c: ds_cmpstore (operand order), v_permlane16/x16/64, v_alignbit/alignbyte with a
 * true16 high-half shift.  Expected values are worked out by hand from the RDNA3/RDNA4 ISA
 * manuals; memory holds dword i = 0x1000 + i, so a load's value names the dword it read. */
#include "common/check.h"
#include "common/snippet.h"
#include "exec/exec.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static snippet_rig rig; /* buf: 256 bytes at the end of a 4 KiB allocation, dword i = 0x1000 + i */
static wave *const w = &rig.wv;

#define OOB(n) ((uint32_t)(n) << 28) /* V# word3 OOB_SELECT */
#define ID_SEL (4u | 5u << 3 | 6u << 6 | 7u << 9)

static void reset(int wave64) { snippet_rig_lanes(&rig, wave64, 0); }

/* The V# in s[8:11]: base buf (+ base_off), stride, swizzle, num_records, word3. */
static void vsharp(uint32_t base_off, uint32_t stride, uint32_t swz, uint32_t num, uint32_t w3) {
    uint64_t b = rig.buf + base_off;
    w->s[8] = (uint32_t)b;
    w->s[9] = (uint32_t)(b >> 32 & 0xffff) | stride << 16 | swz << 30;
    w->s[10] = num;
    w->s[11] = w3;
}

static int run(const char *arch, const char *text) { return snippet_rig_run(&rig, arch, text); }

static uint32_t mem32(uint32_t off) {
    uint32_t v = 0;
    gmem_read(rig.mem, rig.buf + off, &v, 4);
    return v;
}

/* Raw buffers (OOB_SELECT 3): offen, the instruction offset, soffset; per-dword range checks. */
static void t_raw(const char *a, int wave64) {
    unsigned n = wave64 ? 64 : 32;
    reset(wave64);
    vsharp(0, 0, 0, 64, OOB(3)); /* 64 bytes: dwords 0-15 */
    w->s[4] = 0;
    for (unsigned l = 0; l < 64; l++)
        w->v[1][l] = 4 * l, w->v[2][l] = 0x77;
    CHECK(run(a, "buffer_load_b32 v2, v1, s[8:11], s4 offen") == WAVE_DONE, "%s raw load", a);
    int bad = 0;
    for (unsigned l = 0; l < n; l++)
        bad += w->v[2][l] != (l < 16 ? 0x1000 + l : 0);
    CHECK(bad == 0, "%s raw offen: %d lanes wrong (lane 15 %x, 16 %x)", a, bad, w->v[2][15],
          w->v[2][16]);

    /* soffset moves the address but is not range-checked; the instruction offset is:
     * offset = v1 + 4, address = base + 8 + offset; in range while offset + 4 <= 64 */
    reset(wave64);
    vsharp(0, 0, 0, 64, OOB(3));
    w->s[4] = 8;
    for (unsigned l = 0; l < 64; l++)
        w->v[1][l] = 4 * l;
    CHECK(run(a, "buffer_load_b32 v2, v1, s[8:11], s4 offen offset:4") == WAVE_DONE, "%s soff", a);
    bad = 0;
    for (unsigned l = 0; l < n; l++)
        bad += w->v[2][l] != (4 * l + 4 + 4 <= 64 ? 0x1000 + l + 3 : 0);
    CHECK(bad == 0, "%s raw soffset+offset: %d lanes wrong (lane 14 %x, 15 %x)", a, bad,
          w->v[2][14], w->v[2][15]);

    /* b128 partly out of range: num 20, lane 0 at offset 8 reads dwords 2, 3, 4 and a 0; lane 1
     * at offset 12 gets dwords 3, 4 and two 0s (each dword checked on its own) */
    reset(wave64);
    vsharp(0, 0, 0, 20, OOB(3));
    for (unsigned l = 0; l < 64; l++)
        w->v[1][l] = 8 + 4 * l;
    CHECK(run(a, "buffer_load_b128 v[4:7], v1, s[8:11], null offen") == WAVE_DONE, "%s b128", a);
    CHECK(w->v[4][0] == 0x1002 && w->v[5][0] == 0x1003 && w->v[6][0] == 0x1004 && w->v[7][0] == 0 &&
              w->v[4][1] == 0x1003 && w->v[5][1] == 0x1004 && w->v[6][1] == 0 && w->v[7][1] == 0 &&
              w->v[4][3] == 0,
          "%s b128 per dword: lane0 %x %x %x %x lane1 %x %x %x %x", a, w->v[4][0], w->v[5][0],
          w->v[6][0], w->v[7][0], w->v[4][1], w->v[5][1], w->v[6][1], w->v[7][1]);

    /* stores: in-range lanes write, the others are dropped; partial EXEC with lanes 16-31 */
    reset(wave64);
    vsharp(64, 0, 0, 32, OOB(3)); /* dwords 16-23 of the buffer */
    wave_set_exec(w, wave64 ? 0xffff00000000ff0full : 0xffff0f0full);
    for (unsigned l = 0; l < 64; l++)
        w->v[1][l] = 4 * (l % 16) + (l >= 16 ? 64 : 0), w->v[2][l] = 0xa000 + l;
    CHECK(run(a, "buffer_store_b32 v2, v1, s[8:11], null offen") == WAVE_DONE, "%s store", a);
    /* lanes 0-3 write dwords 16-19; lanes 8-11 (offsets 32-44) and 16-31 (64..) are out of
     * range, dropped */
    bad = 0;
    for (unsigned i = 0; i < 32; i++) {
        uint32_t want = 0x1000 + 16 + i;
        if (i < 4)
            want = 0xa000 + i;
        bad += mem32(64 + 4 * i) != want;
    }
    CHECK(bad == 0, "%s raw store: %d dwords wrong (dword 16 %x, 20 %x, 24 %x)", a, bad, mem32(64),
          mem32(80), mem32(96));

    /* sub-dword: byte load (zero-extended), d16_hi keeps the low half, byte store */
    reset(wave64);
    vsharp(0, 0, 0, 256, OOB(3));
    for (unsigned l = 0; l < 64; l++)
        w->v[1][l] = 5, w->v[3][l] = 0x1234abcd, w->v[4][l] = 0xeeee00c3;
    CHECK(run(a, "buffer_load_u8 v2, v1, s[8:11], null offen\n"
                 "buffer_load_d16_hi_u8 v3, v1, s[8:11], null offen\n"
                 "buffer_store_b8 v4, off, s[8:11], null offset:200") == WAVE_DONE,
          "%s sub-dword", a);
    /* byte 5 = byte 1 of dword 1 (0x1001) = 0x10 */
    CHECK(w->v[2][0] == 0x10 && w->v[3][0] == 0x0010abcd &&
              mem32(200) == ((0x1000u + 50) & ~0xffu) + 0xc3,
          "%s sub-dword: u8 %x d16_hi %x mem %x", a, w->v[2][0], w->v[3][0], mem32(200));
}

/* Structured buffers: idxen (+ offen), OOB_SELECT 0, 1 and 2. */
static void t_struct(const char *a, int wave64) {
    unsigned n = wave64 ? 64 : 32;
    /* OOB 0: stride 8, 4 records; index = lane, offset 4: record l's second dword (2l + 1);
     * a b64 at offset 4 runs past the stride: its second dword is out of range */
    reset(wave64);
    vsharp(0, 8, 0, 4, OOB(0));
    for (unsigned l = 0; l < 64; l++)
        w->v[1][l] = l;
    CHECK(run(a, "buffer_load_b64 v[4:5], v1, s[8:11], null idxen offset:4") == WAVE_DONE,
          "%s struct", a);
    int bad = 0;
    for (unsigned l = 0; l < n; l++)
        bad += w->v[4][l] != (l < 4 ? 0x1000 + 2 * l + 1 : 0) || w->v[5][l] != 0;
    CHECK(bad == 0, "%s OOB 0: %d lanes wrong (lane 1 %x %x)", a, bad, w->v[4][1], w->v[5][1]);

    /* OOB 1: the index only; the same b64 reads both dwords */
    reset(wave64);
    vsharp(0, 8, 0, 4, OOB(1));
    for (unsigned l = 0; l < 64; l++)
        w->v[1][l] = l;
    CHECK(run(a, "buffer_load_b64 v[4:5], v1, s[8:11], null idxen offset:4") == WAVE_DONE,
          "%s struct1", a);
    bad = 0;
    for (unsigned l = 0; l < n; l++)
        bad += w->v[4][l] != (l < 4 ? 0x1000 + 2 * l + 1 : 0) ||
               w->v[5][l] != (l < 4 ? 0x1000 + 2 * l + 2 : 0);
    CHECK(bad == 0, "%s OOB 1: %d lanes wrong (lane 1 %x %x)", a, bad, w->v[4][1], w->v[5][1]);

    /* idxen and offen together: v1 index, v2 offset; address = index * 12 + offset */
    reset(wave64);
    vsharp(0, 12, 0, 5, OOB(0));
    for (unsigned l = 0; l < 64; l++)
        w->v[1][l] = l % 8, w->v[2][l] = 4 * (l % 4);
    CHECK(run(a, "buffer_load_b32 v3, v[1:2], s[8:11], null idxen offen") == WAVE_DONE,
          "%s idx+off", a);
    bad = 0;
    for (unsigned l = 0; l < n; l++) {
        unsigned idx = l % 8, off = 4 * (l % 4);
        uint32_t want = idx < 5 && off + 4 <= 12 ? 0x1000 + (idx * 12 + off) / 4 : 0;
        bad += w->v[3][l] != want;
    }
    CHECK(bad == 0, "%s idxen+offen: %d lanes wrong (lane 6 %x, 7 %x)", a, bad, w->v[3][6],
          w->v[3][7]);

    /* OOB 2: no bounds at all unless num_records is 0 */
    reset(wave64);
    vsharp(0, 0, 0, 1, OOB(2));
    CHECK(run(a, "buffer_load_b32 v3, off, s[8:11], null offset:200") == WAVE_DONE, "%s oob2", a);
    CHECK(w->v[3][0] == 0x1000 + 50, "%s OOB 2 (num 1): %x", a, w->v[3][0]);
    reset(wave64);
    vsharp(0, 0, 0, 0, OOB(2));
    w->v[3][0] = 9;
    CHECK(run(a, "buffer_load_b32 v3, off, s[8:11], null offset:200") == WAVE_DONE, "%s oob2", a);
    CHECK(w->v[3][0] == 0, "%s OOB 2 (num 0): %x", a, w->v[3][0]);
}

/* Swizzled addressing (4-byte elements, index stride 8) and ADD_TID_ENABLE. */
static void t_swizzle(const char *a, int wave64) {
    reset(wave64);
    vsharp(0, 16, 1, 64, OOB(3)); /* swizzle + stride: OOB 3 checks as OOB 0 */
    for (unsigned l = 0; l < 64; l++)
        w->v[1][l] = l % 16, w->v[2][l] = 4;
    CHECK(run(a, "buffer_load_b32 v3, v[1:2], s[8:11], null idxen offen") == WAVE_DONE, "%s swz",
          a);
    /* (index / 8 * 16 + 4 / 4 * 4) * 8 + index % 8 * 4 + 0 */
    CHECK(w->v[3][3] == 0x1000 + 11 && w->v[3][9] == 0x1000 + 41,
          "%s swizzle: lane 3 %x (want 100b), lane 9 %x (want 1029)", a, w->v[3][3], w->v[3][9]);

    /* ADD_TID_ENABLE: index = lane id, stride 4, no VGPR address; 62 records */
    reset(wave64);
    vsharp(0, 4, 0, 62, OOB(1) | 1u << 23);
    CHECK(run(a, "buffer_load_b32 v3, off, s[8:11], null offset:8") == WAVE_DONE, "%s tid", a);
    int bad = 0;
    for (unsigned l = 0; l < (wave64 ? 64u : 32u); l++)
        bad += w->v[3][l] != (l < 62 ? 0x1000 + l + 2 : 0);
    CHECK(bad == 0, "%s add_tid: %d lanes wrong (lane 5 %x)", a, bad, w->v[3][5]);
}

/* Atomics: the old value returned on request, out-of-range lanes do nothing and return 0. */
static void t_atomic(const char *a, int g12) {
    reset(0);
    vsharp(0, 0, 0, 16, OOB(3));
    for (unsigned l = 0; l < 64; l++)
        w->v[1][l] = 4 * (l % 8), w->v[2][l] = 1;
    char text[256];
    snprintf(text, sizeof text, "buffer_atomic_add_u32 v2, v1, s[8:11], null offen %s",
             g12 ? "th:TH_ATOMIC_RETURN" : "glc");
    CHECK(run(a, text) == WAVE_DONE, "%s atomic", a);
    /* lanes 0-3 hit dwords 0-3, 4 lanes each (l % 8 < 4: lanes 0-3, 8-11, 16-19, 24-27) */
    CHECK(mem32(0) == 0x1004 && mem32(12) == 0x1007 && mem32(16) == 0x1004,
          "%s atomic add: dword0 %x dword3 %x dword4 %x", a, mem32(0), mem32(12), mem32(16));
    CHECK(w->v[2][0] == 0x1000 && w->v[2][8] == 0x1001 && w->v[2][24] == 0x1003 && w->v[2][4] == 0,
          "%s atomic return: lane0 %x lane8 %x lane24 %x lane4 %x", a, w->v[2][0], w->v[2][8],
          w->v[2][24], w->v[2][4]);

    /* without the return bit vdata keeps its value */
    reset(0);
    vsharp(0, 0, 0, 16, OOB(3));
    for (unsigned l = 0; l < 64; l++)
        w->v[1][l] = 0, w->v[2][l] = 2;
    wave_set_exec(w, 1);
    CHECK(run(a, "buffer_atomic_add_u32 v2, v1, s[8:11], null offen") == WAVE_DONE, "%s noret", a);
    CHECK(mem32(0) == 0x1002 && w->v[2][0] == 2, "%s atomic no return: mem %x v2 %x", a, mem32(0),
          w->v[2][0]);

    /* cmpswap: vdata = {new, cmp}; lane 0 matches (0x1000), lane 1 does not */
    reset(0);
    vsharp(0, 0, 0, 64, OOB(3));
    wave_set_exec(w, 3);
    for (unsigned l = 0; l < 64; l++)
        w->v[1][l] = 4 * l, w->v[4][l] = 0xbeef, w->v[5][l] = 0x1000;
    snprintf(text, sizeof text, "buffer_atomic_cmpswap_b32 v[4:5], v1, s[8:11], null offen %s",
             g12 ? "th:TH_ATOMIC_RETURN" : "glc");
    CHECK(run(a, text) == WAVE_DONE, "%s cmpswap", a);
    CHECK(mem32(0) == 0xbeef && mem32(4) == 0x1001 && w->v[4][0] == 0x1000 &&
              w->v[4][1] == 0x1001 && w->v[5][0] == 0x1000,
          "%s cmpswap: mem %x %x ret %x %x", a, mem32(0), mem32(4), w->v[4][0], w->v[4][1]);
}

/* gfx11 buffer_atomic_cmpswap_f32: a float compare (-0 == +0; NaN equals nothing). */
static void t_cmpswap_f32(void) {
    const char *a = "gfx1100";
    reset(0);
    vsharp(0, 0, 0, 64, OOB(3));
    wave_set_exec(w, 3);
    uint32_t m[2] = {0x00000000, 0x7fc00000}; /* +0.0, NaN */
    gmem_write(rig.mem, rig.buf, m, 8);
    for (unsigned l = 0; l < 64; l++)
        w->v[1][l] = 4 * l, w->v[4][l] = 0x40490fdb, w->v[5][l] = l ? 0x7fc00000 : 0x80000000;
    CHECK(run(a, "buffer_atomic_cmpswap_f32 v[4:5], v1, s[8:11], 0 offen glc") == WAVE_DONE,
          "cmpswap_f32");
    CHECK(mem32(0) == 0x40490fdb && mem32(4) == 0x7fc00000 && w->v[4][0] == 0 &&
              w->v[4][1] == 0x7fc00000,
          "buffer_atomic_cmpswap_f32: mem %x %x ret %x %x", mem32(0), mem32(4), w->v[4][0],
          w->v[4][1]);
}

/* An in-range access outside every allocation is a memory fault, as for global. */
static void t_fault(const char *a) {
    reset(0);
    vsharp(0, 0, 0, 0xffffffff, OOB(3));
    for (unsigned l = 0; l < 64; l++)
        w->v[1][l] = 4 * l;
    int st = run_snippet(w, a, "buffer_load_b32 v2, v1, s[8:11], null offen offset:128");
    /* lanes 32.. would be past the 256 bytes; in wave32 lanes 0-31 reach bytes 128-255 (in) */
    CHECK(st == WAVE_DONE, "%s in-allocation raw load: status %d", a, st);
    st = run_snippet(w, a, "buffer_store_b32 v2, v1, s[8:11], null offen offset:192");
    CHECK(st == WAVE_FAULT && w->fault.kind == XF_MEMORY && w->fault.addr == rig.buf + 256,
          "%s past the allocation: status %d kind %d addr %llx", a, st, w->fault.kind,
          (unsigned long long)(w->fault.addr - rig.buf));
}

/* Format ops: tbuffer (format in the instruction) and buffer_*_format (format in the V#). */
static void t_format(const char *a) {
    reset(0);
    vsharp(0, 0, 0, 64, OOB(3) | ID_SEL);
    for (unsigned l = 0; l < 64; l++)
        w->v[1][l] = 4 * l;
    CHECK(run(a, "tbuffer_load_format_xy v[4:5], v1, s[8:11], null format:[BUF_FMT_8_8_UNORM] "
                 "offen") == WAVE_DONE,
          "%s tbuffer", a);
    /* dword 1 = 0x00001001: bytes 01 10 -> x = 1/255, y = 16/255 */
    float x, y;
    memcpy(&x, &w->v[4][1], 4);
    memcpy(&y, &w->v[5][1], 4);
    CHECK(x == (float)(1.0 / 255) && y == (float)(16.0 / 255), "%s 8_8_unorm: %a %a", a, x, y);

    /* V# format 16_16_UINT (27), 3 components: z is missing and reads 0 */
    reset(0);
    vsharp(0, 0, 0, 64, OOB(3) | ID_SEL | 27u << 12);
    for (unsigned l = 0; l < 64; l++)
        w->v[1][l] = 4 * l, w->v[6][l] = 0x55;
    CHECK(run(a, "buffer_load_format_xyz v[4:6], v1, s[8:11], null offen") == WAVE_DONE,
          "%s format", a);
    CHECK(w->v[4][2] == 0x1002 && w->v[5][2] == 0 && w->v[6][2] == 0, "%s 16_16_uint: %x %x %x", a,
          w->v[4][2], w->v[5][2], w->v[6][2]);

    /* all or nothing: 8_8_8_8_UINT (46) at offset 60 fits (60 + 4 <= 64), at 62 it does not */
    reset(0);
    vsharp(0, 0, 0, 64, OOB(3) | ID_SEL | 46u << 12);
    w->v[1][0] = 60, w->v[1][1] = 62;
    wave_set_exec(w, 3);
    CHECK(run(a, "buffer_load_format_xyzw v[4:7], v1, s[8:11], null offen") == WAVE_DONE,
          "%s fmt oob", a);
    /* dword 15 = 0x0000100f: bytes 0f 10 00 00 */
    CHECK(w->v[4][0] == 0x0f && w->v[5][0] == 0x10 && w->v[6][0] == 0 && w->v[7][0] == 0 &&
              w->v[4][1] == 0 && w->v[5][1] == 0,
          "%s format range check: lane0 %x %x lane1 %x %x", a, w->v[4][0], w->v[5][0], w->v[4][1],
          w->v[5][1]);

    /* a format store: 16_16_FLOAT from two f32 (1.5 -> 0x3e00, -2 -> 0xc000) */
    reset(0);
    vsharp(0, 0, 0, 64, OOB(3));
    wave_set_exec(w, 1);
    w->v[1][0] = 8, w->v[4][0] = 0x3fc00000, w->v[5][0] = 0xc0000000;
    CHECK(run(a, "tbuffer_store_format_xy v[4:5], v1, s[8:11], null "
                 "format:[BUF_FMT_16_16_FLOAT] offen") == WAVE_DONE,
          "%s fmt store", a);
    CHECK(mem32(8) == 0xc0003e00, "%s 16_16_float store: %x", a, mem32(8));
    /* (the packed formats and DST_SEL swizzles: test_rdna_gap2.c) */
}

/* DS_CMPSTORE: DATA is the new value, DATA2 the compare value (RDNA3 ISA, the reverse of gfx9). */
static void t_cmpstore(const char *a) {
    reset(0);
    uint32_t init[4] = {5, 6, 7, 8};
    memcpy(rig.lds, init, sizeof init);
    for (unsigned l = 0; l < 64; l++)
        w->v[1][l] = 4 * (l & 3), w->v[2][l] = 100 + l, w->v[3][l] = 5 + (l & 1);
    wave_set_exec(w, 0xf);
    /* lane 0: mem 5 == cmp 5 -> 100; lane 1: mem 6 == cmp 6 -> 101; lanes 2, 3: cmp 5/6 vs mem
     * 7/8 -> unchanged; the rtn form returns the old value */
    CHECK(run(a, "ds_cmpstore_rtn_b32 v4, v1, v2, v3") == WAVE_DONE, "%s cmpstore", a);
    uint32_t m[4];
    memcpy(m, rig.lds, sizeof m);
    CHECK(m[0] == 100 && m[1] == 101 && m[2] == 7 && m[3] == 8 && w->v[4][0] == 5 &&
              w->v[4][2] == 7,
          "%s ds_cmpstore_rtn_b32: lds %u %u %u %u ret %u %u", a, m[0], m[1], m[2], m[3],
          w->v[4][0], w->v[4][2]);
}

/* The other DS ops with a gfx9 twin, one lane each, values worked out by hand. */
static void t_ds_more(const char *a, int g12) {
    reset(0);
    wave_set_exec(w, 1);
    uint32_t init[8] = {0xf0f0f0f0, 10, 3, 0, 0x11111111, 0x22222222, 0x33333333, 0x44444444};
    memcpy(rig.lds, init, sizeof init);
    w->v[1][0] = 0, w->v[2][0] = 0x00ff00ff, w->v[3][0] = 0x0a0a0a0a;
    /* mskor: (mem & ~data) | data2 = (f0f0f0f0 & ff00ff00) | 0a0a0a0a = fa0afa0a */
    CHECK(run(a, "ds_mskor_rtn_b32 v4, v1, v2, v3") == WAVE_DONE, "%s mskor", a);
    uint32_t m0;
    memcpy(&m0, rig.lds, 4);
    CHECK(m0 == 0xfa0afa0a && w->v[4][0] == 0xf0f0f0f0, "%s ds_mskor_rtn_b32: %x ret %x", a, m0,
          w->v[4][0]);
    /* rsub_u64 at byte 8: data - mem = 5 - 3 (dwords 2, 3 = 3, 0) */
    w->v[1][0] = 8, w->v[2][0] = 5, w->v[3][0] = 0;
    CHECK(run(a, "ds_rsub_rtn_u64 v[4:5], v1, v[2:3]") == WAVE_DONE, "%s rsub", a);
    uint32_t m2[2];
    memcpy(m2, rig.lds + 8, 8);
    CHECK(m2[0] == 2 && m2[1] == 0 && w->v[4][0] == 3 && w->v[5][0] == 0,
          "%s ds_rsub_rtn_u64: %x:%x ret %x", a, m2[1], m2[0], w->v[4][0]);
    /* storexchg_2addr: dwords 4 + 1 and 4 + 3 (offsets in dwords) take v2 and v3 */
    w->v[1][0] = 16, w->v[2][0] = 0xaa, w->v[3][0] = 0xbb;
    CHECK(run(a, "ds_storexchg_2addr_rtn_b32 v[4:5], v1, v2, v3 offset0:1 offset1:3") == WAVE_DONE,
          "%s storexchg", a);
    uint32_t m4[4];
    memcpy(m4, rig.lds + 16, 16);
    CHECK(m4[0] == 0x11111111 && m4[1] == 0xaa && m4[2] == 0x33333333 && m4[3] == 0xbb &&
              w->v[4][0] == 0x22222222 && w->v[5][0] == 0x44444444,
          "%s ds_storexchg_2addr_rtn_b32: %x %x ret %x %x", a, m4[1], m4[3], w->v[4][0],
          w->v[5][0]);
    CHECK(run(a, "ds_nop") == WAVE_DONE, "%s ds_nop", a);
    if (!g12) {
        /* wrap: mem 10 >= data 4 -> 6; f64 min of 2.5 and -1.0 */
        w->v[1][0] = 4, w->v[2][0] = 4, w->v[3][0] = 7;
        CHECK(run(a, "ds_wrap_rtn_b32 v4, v1, v2, v3") == WAVE_DONE, "%s wrap", a);
        uint32_t m1;
        memcpy(&m1, rig.lds + 4, 4);
        CHECK(m1 == 6 && w->v[4][0] == 10, "%s ds_wrap_rtn_b32: %u ret %u", a, m1, w->v[4][0]);
        double d = 2.5, e = -1.0;
        memcpy(rig.lds + 32, &d, 8);
        w->v[1][0] = 32;
        uint64_t eb;
        memcpy(&eb, &e, 8);
        w->v[2][0] = (uint32_t)eb, w->v[3][0] = (uint32_t)(eb >> 32);
        CHECK(run(a, "ds_min_rtn_f64 v[4:5], v1, v[2:3]") == WAVE_DONE, "%s min f64", a);
        memcpy(&d, rig.lds + 32, 8);
        CHECK(d == -1.0 && w->v[5][0] == 0x40040000, "%s ds_min_rtn_f64: %g ret hi %x", a, d,
              w->v[5][0]);
    } else {
        /* pk_add_f16: (1.0, 2.0) + (0.5, -3.0) = (1.5, -1.0) */
        uint32_t h = 0x40003c00;
        memcpy(rig.lds + 40, &h, 4);
        w->v[1][0] = 40, w->v[2][0] = 0xc2003800;
        CHECK(run(a, "ds_pk_add_rtn_f16 v4, v1, v2") == WAVE_DONE, "%s pk_add", a);
        memcpy(&h, rig.lds + 40, 4);
        CHECK(h == 0xbc003e00 && w->v[4][0] == 0x40003c00, "%s ds_pk_add_rtn_f16: %08x ret %08x", a,
              h, w->v[4][0]);
    }
}

/* V_PERMLANE16 / X16 / 64. */
static void t_permlane(const char *a, int wave64) {
    unsigned n = wave64 ? 64 : 32;
    reset(wave64);
    w->s[0] = 0x89abcdef, w->s[1] = 0x01234567; /* lane i of a row reads lane 15 - i */
    CHECK(run(a, "v_permlane16_b32 v3, v0, s0, s1") == WAVE_DONE, "%s permlane16", a);
    int bad = 0;
    for (unsigned l = 0; l < n; l++)
        bad += w->v[3][l] != (l & ~15u) + 15 - (l & 15);
    CHECK(bad == 0, "%s permlane16: %d lanes wrong (lane 17 %u)", a, bad, w->v[3][17]);

    reset(wave64);
    w->s[0] = 0x76543210, w->s[1] = 0xfedcba98; /* identity select: lane i reads i ^ 16 */
    CHECK(run(a, "v_permlanex16_b32 v3, v0, s0, s1") == WAVE_DONE, "%s permlanex16", a);
    bad = 0;
    for (unsigned l = 0; l < n; l++)
        bad += w->v[3][l] != (l ^ 16);
    CHECK(bad == 0, "%s permlanex16: %d lanes wrong (lane 40 %u)", a, bad, w->v[3][40]);

    /* source lanes outside EXEC: lanes 16-31 on, reading lanes 0-15 (off): not written without
     * FI or BOUND_CTRL, 0 with BOUND_CTRL, the value with FI */
    static const struct {
        const char *mods;
        uint32_t want17;
    } fb[] = {{"", 0x55}, {" op_sel:[0,1]", 0}, {" op_sel:[1,0]", 1}, {" op_sel:[1,1]", 1}};
    for (int i = 0; i < 4; i++) {
        reset(wave64);
        wave_set_exec(w, 0xffff0000ull);
        w->s[0] = 0x76543210, w->s[1] = 0xfedcba98;
        for (unsigned l = 0; l < 64; l++)
            w->v[3][l] = 0x55;
        char text[96];
        snprintf(text, sizeof text, "v_permlanex16_b32 v3, v0, s0, s1%s", fb[i].mods);
        CHECK(run(a, text) == WAVE_DONE, "%s fi/bc", a);
        CHECK(w->v[3][17] == fb[i].want17 && w->v[3][1] == 0x55, "%s '%s': lane 17 %x lane 1 %x", a,
              text, w->v[3][17], w->v[3][1]);
    }

    /* gfx12 _var forms: lane l's select is its own v1[3:0] (here (l * 5 + 3) & 15, with junk
     * in the high bits) */
    if (strstr(a, "gfx1201")) {
        reset(wave64);
        for (unsigned l = 0; l < 64; l++)
            w->v[1][l] = 0xfff0u * l + ((l * 5 + 3) & 15);
        CHECK(run(a, "v_permlane16_var_b32 v3, v0, v1\nv_permlanex16_var_b32 v4, v0, v1") ==
                  WAVE_DONE,
              "%s permlane var", a);
        bad = 0;
        for (unsigned l = 0; l < n; l++) {
            unsigned k = (l * 5 + 3 + (0xfff0u * l)) & 15;
            bad += w->v[3][l] != (l & ~15u) + k || w->v[4][l] != (((l & ~15u) + k) ^ 16);
        }
        CHECK(bad == 0, "%s permlane16/x16_var: %d lanes wrong (lane 18: %u %u)", a, bad,
              w->v[3][18], w->v[4][18]);
    }

    reset(wave64);
    for (unsigned l = 0; l < 64; l++)
        w->v[3][l] = 0x55;
    CHECK(run(a, "v_permlane64_b32 v3, v0") == WAVE_DONE, "%s permlane64", a);
    CHECK(wave64 ? w->v[3][5] == 37 && w->v[3][40] == 8 : w->v[3][5] == 0x55,
          "%s permlane64: lane 5 %u lane 40 %u", a, w->v[3][5], w->v[3][40]);
}

/* gfx11 true16: the shift of v_alignbit/alignbyte from either half of a VGPR. */
static void t_align(void) {
    const char *a = "gfx1100";
    reset(0);
    for (unsigned l = 0; l < 64; l++)
        w->v[1][l] = 0x12345678, w->v[2][l] = 0x9abcdef0, w->v[3][l] = 8u << 16 | 4;
    CHECK(run(a, "v_alignbit_b32 v4, v1, v2, v3.h\nv_alignbit_b32 v5, v1, v2, v3.l\n"
                 "v_alignbyte_b32 v6, v1, v2, v3.h\nv_alignbyte_b32 v7, v1, v2, v3.l") == WAVE_DONE,
          "align");
    /* {v1, v2} = 0x123456789abcdef0: >> 8 = 0x789abcde, >> 4 = 0x89abcdef, bytes: 8 & 3 = 0
     * -> 0x9abcdef0, 4 & 3 = 0 -> the same */
    CHECK(w->v[4][0] == 0x789abcde && w->v[5][0] == 0x89abcdef && w->v[6][0] == 0x9abcdef0 &&
              w->v[7][0] == 0x9abcdef0,
          "alignbit/alignbyte .h/.l: %08x %08x %08x %08x", w->v[4][0], w->v[5][0], w->v[6][0],
          w->v[7][0]);
    reset(0);
    for (unsigned l = 0; l < 64; l++)
        w->v[1][l] = 0x12345678, w->v[2][l] = 0x9abcdef0, w->v[3][l] = 3u << 16 | 1;
    CHECK(run(a, "v_alignbyte_b32 v6, v1, v2, v3.h\nv_alignbyte_b32 v7, v1, v2, v3.l") == WAVE_DONE,
          "alignbyte");
    CHECK(w->v[6][0] == 0x3456789a && w->v[7][0] == 0x789abcde, "alignbyte .h/.l: %08x %08x",
          w->v[6][0], w->v[7][0]);
}

int main(void) {
    if (snippet_rig_open(&rig) != 0)
        return 1;
    const char *t[] = {"gfx1100", "gfx1201"},
               *t64[] = {"gfx1100:wavefrontsize64", "gfx1201:wavefrontsize64"};
    for (int i = 0; i < 2; i++) {
        t_raw(t[i], 0);
        t_raw(t64[i], 1);
        t_struct(t[i], 0);
        t_struct(t64[i], 1);
        t_swizzle(t[i], 0);
        t_swizzle(t64[i], 1);
        t_atomic(t[i], i);
        t_fault(t[i]);
        t_format(t[i]);
        t_cmpstore(t[i]);
        t_ds_more(t[i], i);
        t_permlane(t[i], 0);
        t_permlane(t64[i], 1);
    }
    t_align();
    t_cmpswap_f32();
    const uint16_t *miss;
    CHECK(x_rdna_missing(&miss) == 0, "RDNA rows without a handler: %u (first op %u)",
          x_rdna_missing(&miss), x_rdna_missing(&miss) ? miss[0] : 0);
    snippet_rig_close(&rig);
    return check_summary("test_rdna_buf");
}
