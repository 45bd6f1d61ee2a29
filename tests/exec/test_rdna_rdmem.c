/* test_rdna_rdmem.c - RDNA memory ops that used to fault as unimplemented (issue 15), on
 * llvm-mc-22 snippets for gfx1100 and gfx1201: the scalar buffer loads s_buffer_load_b32..b512
 * (and gfx12's i8/u8/i16/u16), global_load/store_addtid_b32 and ds_load/store_addtid_b32.  Expected
 * values come from a C reference of the RDNA3/RDNA4 ISA text written here (the ref_* functions)
 * over a byte pattern the test writes; none from a gfxemu run. */
#include "common/check.h"
#include "common/snippet.h"
#include "exec/exec.h"

#include <stdio.h>
#include <string.h>

static snippet_rig rig;
static wave *const w = &rig.wv;

#define SENT 0x5eed5eedu /* an SGPR before the instruction */

/* byte i of the buffer pattern (rig.buf + i) */
static uint8_t pat(unsigned i) { return (uint8_t)(i * 37u + 11u); }

/* ---- scalar buffer loads ------------------------------------------------------------------ */
/* RDNA3/RDNA4 ISA S_BUFFER_LOAD: address = V#.base + offset, offset = imm + SOFFSET with its low
 * two bits dropped for dword loads; each dword (byte/halfword) wholly inside NUM_RECORDS bytes
 * reads memory, any other reads 0. */
static uint32_t ref_piece(uint64_t base_off, uint32_t num, uint32_t off, unsigned size) {
    if ((uint64_t)off + size > num)
        return 0;
    uint32_t v = 0;
    for (unsigned b = 0; b < size; b++)
        v |= (uint32_t)pat((unsigned)(base_off + off + b)) << 8 * b;
    return v;
}

/* Run text (its destination s8.., ndst dwords) with the V# in s[4:7] = buf + base_off, num
 * records, s0 = soff; check s8..s8+ndst-1 against the reference at byte offset off and that
 * the SGPR after them is untouched. */
static void sbuf_case(const char *arch, const char *text, uint32_t base_off, uint32_t num,
                      uint32_t soff, uint32_t off, unsigned ndst, unsigned size, int sign) {
    snippet_rig_lanes(&rig, 0, 0);
    uint8_t bytes[256];
    for (unsigned i = 0; i < 256; i++)
        bytes[i] = pat(i);
    gmem_write(rig.mem, rig.buf, bytes, 256);
    for (unsigned r = 8; r < 8 + 17; r++)
        w->s[r] = SENT;
    snippet_set_rsrc(w, 4, rig.buf + base_off, 0, num, 0);
    w->s[0] = soff;
    int st = snippet_rig_run(&rig, arch, text);
    CHECK(st == WAVE_DONE, "%s '%s' ran", arch, text);
    int bad = 0;
    for (unsigned i = 0; i <= ndst; i++) {
        uint32_t want = SENT;
        if (i < ndst) {
            want = ref_piece(base_off, num, off + size * i, size);
            if (sign && size == 1)
                want = (uint32_t)(int32_t)(int8_t)want;
            if (sign && size == 2)
                want = (uint32_t)(int32_t)(int16_t)want;
        }
        if (w->s[8 + i] != want && bad++ < 3)
            printf("  %s '%s' num %u: s%u %08x want %08x\n", arch, text, num, 8 + i, w->s[8 + i],
                   want);
    }
    CHECK(bad == 0, "%s '%s' num %u base+%u", arch, text, num, base_off);
}

static void t_sbuf(const char *arch, int gfx12) {
    /* in range: one dword, soffset + imm, and the widths up to 16 dwords */
    sbuf_case(arch, "s_buffer_load_b32 s8, s[4:7], 0x10", 0, 256, 0, 0x10, 1, 4, 0);
    sbuf_case(arch, "s_buffer_load_b64 s[8:9], s[4:7], s0 offset:0x8", 0, 256, 0x20, 0x28, 2, 4, 0);
    sbuf_case(arch, "s_buffer_load_b128 s[8:11], s[4:7], s0 offset:0x4", 0, 256, 0x40, 0x44, 4, 4,
              0);
    sbuf_case(arch, "s_buffer_load_b256 s[8:15], s[4:7], 0x80", 0, 256, 0, 0x80, 8, 4, 0);
    sbuf_case(arch, "s_buffer_load_b512 s[8:23], s[4:7], 0x0", 0, 256, 0, 0, 16, 4, 0);
    /* the low two offset bits are ignored (dword-addressed): 0x13 + 1 loads at 0x14 */
    sbuf_case(arch, "s_buffer_load_b32 s8, s[4:7], s0 offset:0x13", 0, 256, 1, 0x14, 1, 4, 0);
    /* a V# base that is not dword-aligned */
    sbuf_case(arch, "s_buffer_load_b64 s[8:9], s[4:7], 0x8", 2, 200, 0, 0x8, 2, 4, 0);
    /* partly out of range: dwords at 56 and 60 of 64 records read, 64 and 68 read 0 */
    sbuf_case(arch, "s_buffer_load_b128 s[8:11], s[4:7], 0x38", 0, 64, 0, 0x38, 4, 4, 0);
    /* NUM_RECORDS not a multiple of 4: the dword at 16 of 18 records is out of range */
    sbuf_case(arch, "s_buffer_load_b512 s[8:23], s[4:7], 0x0", 0, 18, 0, 0, 16, 4, 0);
    /* wholly out of range, and NUM_RECORDS = 0 */
    sbuf_case(arch, "s_buffer_load_b64 s[8:9], s[4:7], s0 offset:0x0", 0, 64, 64, 64, 2, 4, 0);
    sbuf_case(arch, "s_buffer_load_b32 s8, s[4:7], 0x0", 0, 0, 0, 0, 1, 4, 0);
    /* an offset far past the buffer (SOFFSET 0x10000000) reads 0 without touching memory */
    sbuf_case(arch, "s_buffer_load_b32 s8, s[4:7], s0 offset:0x4", 0, 256, 0x10000000, 0x10000004,
              1, 4, 0);
    if (!gfx12)
        return;
    sbuf_case(arch, "s_buffer_load_b96 s[8:10], s[4:7], s0 offset:0x0", 0, 256, 0x30, 0x30, 3, 4,
              0);
    sbuf_case(arch, "s_buffer_load_b96 s[8:10], s[4:7], 0x34", 0, 0x3c, 0, 0x34, 3, 4, 0);
    /* sub-dword loads: no alignment, sign or zero extension, a byte/halfword past NUM_RECORDS
     * reads 0 (pattern bytes: 0x3 -> 0x7a, 0x5 -> 0xc4 with bit 7 set) */
    sbuf_case(arch, "s_buffer_load_u8 s8, s[4:7], 0x5", 0, 256, 0, 5, 1, 1, 0);
    sbuf_case(arch, "s_buffer_load_i8 s8, s[4:7], 0x5", 0, 256, 0, 5, 1, 1, 1);
    sbuf_case(arch, "s_buffer_load_i8 s8, s[4:7], 0x3", 0, 256, 0, 3, 1, 1, 1);
    sbuf_case(arch, "s_buffer_load_u16 s8, s[4:7], s0 offset:0x3", 0, 256, 2, 5, 1, 2, 0);
    sbuf_case(arch, "s_buffer_load_i16 s8, s[4:7], s0 offset:0x3", 0, 256, 2, 5, 1, 2, 1);
    sbuf_case(arch, "s_buffer_load_i16 s8, s[4:7], 0x7", 0, 8, 0, 7, 1, 2, 1);
    sbuf_case(arch, "s_buffer_load_u8 s8, s[4:7], 0x7", 0, 8, 0, 7, 1, 1, 0);
    sbuf_case(arch, "s_buffer_load_i8 s8, s[4:7], 0x8", 0, 8, 0, 8, 1, 1, 1);
}

/* ---- *_addtid_b32 -------------------------------------------------------------------------- */
#define OFF 0x00ff00ffu /* EXEC: lanes 8-15 and 24-31 off (wave64: also 40-47, 56-63) */
#define OLD 0xdeadbeefu
static uint32_t pat32(unsigned byte) {
    return pat(byte) | (uint32_t)pat(byte + 1) << 8 | (uint32_t)pat(byte + 2) << 16 |
           (uint32_t)pat(byte + 3) << 24;
}
static int lane_on(unsigned l, int w64) { return (l < 32 || w64) && (OFF >> (l & 31) & 1); }
static void fill_buf(void) {
    uint8_t bytes[256];
    for (unsigned i = 0; i < 256; i++)
        bytes[i] = pat(i);
    gmem_write(rig.mem, rig.buf, bytes, 256);
}

/* GLOBAL_LOAD/STORE_ADDTID_B32 (RDNA3/RDNA4 ISA): lane l's dword at SADDR + offset + l * 4 */
static void t_global_addtid(const char *arch, int w64) {
    uint64_t ex = w64 ? (uint64_t)OFF << 32 | OFF : OFF;
    /* load: SADDR = buf + 64, offset -64 (wave64's 64 lanes span exactly the 256 bytes) */
    snippet_rig_lanes(&rig, w64, 0);
    fill_buf();
    for (unsigned l = 0; l < 64; l++)
        w->v[3][l] = OLD;
    w->s[2] = (uint32_t)(rig.buf + 64), w->s[3] = (uint32_t)((rig.buf + 64) >> 32);
    wave_set_exec(w, ex);
    const char *ld = "global_load_addtid_b32 v3, s[2:3] offset:-64";
    CHECK(snippet_rig_run(&rig, arch, ld) == WAVE_DONE, "%s '%s' ran", arch, ld);
    int bad = 0;
    for (unsigned l = 0; l < 64; l++) {
        uint32_t want = lane_on(l, w64) ? pat32(4 * l) : OLD;
        if (w->v[3][l] != want && bad++ < 3)
            printf("  %s '%s' lane %u: %08x want %08x\n", arch, ld, l, w->v[3][l], want);
    }
    CHECK(bad == 0, "%s '%s'", arch, ld);
    /* store: SADDR = buf, offset 0; inactive lanes' dwords keep the pattern */
    snippet_rig_lanes(&rig, w64, 0);
    fill_buf();
    for (unsigned l = 0; l < 64; l++)
        w->v[1][l] = 0xa5000000u + l;
    w->s[2] = (uint32_t)rig.buf, w->s[3] = (uint32_t)(rig.buf >> 32);
    wave_set_exec(w, ex);
    const char *st = "global_store_addtid_b32 v1, s[2:3] offset:0";
    CHECK(snippet_rig_run(&rig, arch, st) == WAVE_DONE, "%s '%s' ran", arch, st);
    uint32_t m[64];
    gmem_read(rig.mem, rig.buf, m, sizeof m);
    bad = 0;
    for (unsigned l = 0; l < 64; l++) {
        uint32_t want = lane_on(l, w64) ? 0xa5000000u + l : pat32(4 * l);
        if (m[l] != want && bad++ < 3)
            printf("  %s '%s' dword %u: %08x want %08x\n", arch, st, l, m[l], want);
    }
    CHECK(bad == 0, "%s '%s'", arch, st);
    /* offset 16 in wave64 with every lane on: lane 60's dword is buf + 256, past the 4 KiB
     * allocation, a memory fault there */
    if (w64) {
        snippet_rig_lanes(&rig, 1, 0);
        w->s[2] = (uint32_t)rig.buf, w->s[3] = (uint32_t)(rig.buf >> 32);
        int r = run_snippet(w, arch, "global_load_addtid_b32 v3, s[2:3] offset:16");
        CHECK(r == WAVE_FAULT && w->fault.kind == XF_MEMORY && w->fault.addr == rig.buf + 256,
              "%s addtid past the allocation: status %d kind %d addr +%lld", arch, r, w->fault.kind,
              (long long)(w->fault.addr - rig.buf));
    }
}

/* DS_LOAD/STORE_ADDTID_B32 (RDNA3/RDNA4 ISA): lane l's dword at M0[15:0] + offset + l * 4 */
static void t_ds_addtid(const char *arch) {
    snippet_rig_lanes(&rig, 0, 0);
    for (unsigned i = 0; i < 256; i++)
        rig.lds[i] = pat(i);
    for (unsigned l = 0; l < 64; l++)
        w->v[3][l] = OLD, w->v[1][l] = 0x3c000000u + l;
    w->s[ISA_SREG_M0] = 0xabcd0008u; /* M0[31:16] is not part of the address */
    wave_set_exec(w, OFF);
    const char *ld = "ds_load_addtid_b32 v3 offset:4\ns_wait_dscnt 0";
    const char *text = strcmp(arch, "gfx1100") ? ld : "ds_load_addtid_b32 v3 offset:4\ns_waitcnt 0";
    CHECK(snippet_rig_run(&rig, arch, text) == WAVE_DONE, "%s '%s' ran", arch, text);
    int bad = 0;
    for (unsigned l = 0; l < 64; l++) {
        uint32_t want = lane_on(l, 0) ? pat32(12 + 4 * l) : OLD;
        if (w->v[3][l] != want && bad++ < 3)
            printf("  %s ds_load_addtid lane %u: %08x want %08x\n", arch, l, w->v[3][l], want);
    }
    CHECK(bad == 0, "%s ds_load_addtid_b32", arch);
    text = "ds_store_addtid_b32 v1 offset:32";
    CHECK(snippet_rig_run(&rig, arch, text) == WAVE_DONE, "%s '%s' ran", arch, text);
    bad = 0;
    for (unsigned l = 0; l < 32; l++) {
        uint32_t got, want = lane_on(l, 0) ? 0x3c000000u + l : pat32(40 + 4 * l);
        memcpy(&got, &rig.lds[40 + 4 * l], 4);
        if (got != want && bad++ < 3)
            printf("  %s ds_store_addtid dword %u: %08x want %08x\n", arch, l, got, want);
    }
    CHECK(bad == 0, "%s ds_store_addtid_b32", arch);
}

int main(void) {
    if (snippet_rig_open(&rig) != 0)
        return 1;
    t_sbuf("gfx1100", 0);
    t_sbuf("gfx1201", 1);
    t_global_addtid("gfx1100", 0);
    t_global_addtid("gfx1100:wavefrontsize64", 1);
    t_global_addtid("gfx1201", 0);
    t_global_addtid("gfx1201:wavefrontsize64", 1);
    t_ds_addtid("gfx1100");
    t_ds_addtid("gfx1201");
    snippet_rig_close(&rig);
    return check_summary("test_rdna_rdmem");
}
