/* test_rdna_rdmem.c - RDNA memory ops that used to fault as unimplemented (issue 15), on
 * llvm-mc-22 snippets for gfx1100 and gfx1201: the scalar buffer loads s_buffer_load_b32..b512
 * (and gfx12's i8/u8/i16/u16), global_load/store_addtid_b32 and ds_load/store_addtid_b32, gfx11's
 * global/flat_atomic_cmpswap_f32, gfx12's global/flat_atomic_pk_add_f16/bf16 and
 * ds_bpermute_fi_b32.  Expected values come from a C reference of the RDNA3/RDNA4 ISA text written
 * here (the ref_* functions) over a byte pattern the test writes; none from a gfxemu run. */
#include "common/bits.h"
#include "common/check.h"
#include "common/snippet.h"
#include "exec/exec.h"

#include <math.h>
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

/* ---- float atomics --------------------------------------------------------------------- */
/* Round an exact value to a binary format with mbits fraction bits and exponents emin..emax,
 * to nearest even (nearbyint in the default rounding mode), denormals kept, overflow to inf. */
static double round_fmt(double v, int mbits, int emin, int emax) {
    if (v == 0 || isnan(v) || isinf(v))
        return v;
    int e = ilogb(v);
    if (e < emin)
        e = emin;
    double r = ldexp(nearbyint(ldexp(v, mbits - e)), e - mbits);
    return fabs(r) >= ldexp(1, emax + 1) ? copysign(INFINITY, v) : r;
}
static double h2d_ref(uint32_t h) {
    int e = (h >> 10) & 31;
    double m = h & 1023, s = h & 0x8000 ? -1 : 1;
    if (e == 31)
        return m ? NAN : s * INFINITY;
    return s * (e ? ldexp(1024 + m, e - 25) : ldexp(m, -24));
}
static uint32_t d2h_ref(double v) { /* v exactly representable in binary16, or NaN */
    uint32_t sg = signbit(v) ? 0x8000 : 0;
    if (isnan(v))
        return 0x7e00;
    if (isinf(v))
        return sg | 0x7c00;
    if (v == 0)
        return sg;
    v = fabs(v);
    int e = ilogb(v);
    if (e < -14)
        return sg | (uint32_t)ldexp(v, 24);
    return sg | (uint32_t)(e + 15) << 10 | ((uint32_t)ldexp(v, 10 - e) - 1024);
}
static uint32_t ref_pk_f16(uint32_t m, uint32_t d) {
    uint32_t r = 0;
    for (int i = 0; i < 2; i++) {
        double s = h2d_ref(m >> 16 * i & 0xffff) + h2d_ref(d >> 16 * i & 0xffff); /* exact */
        r |= d2h_ref(round_fmt(s, 10, -14, 15)) << 16 * i;
    }
    return r;
}
static uint32_t ref_pk_bf16(uint32_t m, uint32_t d) {
    uint32_t r = 0;
    for (int i = 0; i < 2; i++) {
        double s = (double)from_bits32((m >> 16 * i & 0xffff) << 16) +
                   from_bits32((d >> 16 * i & 0xffff) << 16);
        /* exact in double for these rows (exponents within 52 of each other) */
        float f = (float)round_fmt(s, 7, -126, 127);
        r |= (isnan(f) ? 0x7fc0 : bits32(f) >> 16) << 16 * i;
    }
    return r;
}
/* a NaN half (either format) matches any NaN: which quiet NaN the unit gives is not checked */
static int same_pk(uint32_t got, uint32_t want, int bf) {
    for (int i = 0; i < 2; i++) {
        uint32_t g = got >> 16 * i & 0xffff, x = want >> 16 * i & 0xffff;
        uint32_t em = bf ? 0x7f80 : 0x7c00, mm = bf ? 0x7f : 0x3ff;
        int gn = (g & em) == em && (g & mm), xn = (x & em) == em && (x & mm);
        if (xn ? !gn : g != x)
            return 0;
    }
    return 1;
}
/* {MEM, DATA} rows, each half an edge: RNE ties either way, overflow to inf, +-0, denormals,
 * NaN, inf - inf */
static const uint32_t pk_f16_rows[][2] = {
    {0x40003c00, 0x3c004000}, /* 1+2, 2+1 */
    {0x3c013c00, 0x10001000}, /* 1+2^-10 + 2^-11 rounds up to 0x3c02; 1 + 2^-11 ties to 1 */
    {0x7bff7bff, 0x4c004bff}, /* 65504+16 ties to inf (even); 65504+15.99 stays 65504 */
    {0x80000000, 0x80008000}, /* -0 + -0 = -0, +0 + -0 = +0 */
    {0x00010001, 0x83ff8001}, /* 2^-24 - (denormal) stays denormal; x + -x = +0 */
    {0x7e003c00, 0x3c00fc00}, /* NaN + 1; 1 + -inf */
    {0x7c00fc00, 0xfc00fc00}, /* inf + -inf = NaN; -inf + -inf */
    {0xc500bc00, 0x45003c00}, /* -5 + 5 = +0; -1 + 1 = +0 */
};
static const uint32_t pk_bf16_rows[][2] = {
    {0x40003f80, 0x3f804000}, /* 1+2, 2+1 */
    {0x3f813f80, 0x3b803b80}, /* 1+2^-7 + 2^-8 rounds up to 0x3f82; 1 + 2^-8 ties to 1 */
    {0x7f7f7f7f, 0x7b007a80}, /* max + 2^119 (half an ulp) ties to inf; max + 2^118 stays */
    {0x80000000, 0x80008000}, /* -0 + -0, +0 + -0 */
    {0x00010001, 0x00018001}, /* denormals: 2 * 2^-133; x + -x = +0 */
    {0x7fc03f80, 0x3f80ff80}, /* NaN + 1; 1 + -inf */
    {0x7f80ff80, 0xff80ff80}, /* inf + -inf = NaN; -inf + -inf */
};

/* lanes 0-31 each own a dword at buf + 4 * l (MEM = row l % n's MEM), v[2:3] its address,
 * v4 = DATA (v5 = the compare value for cmpswap), v10 = OLD; EXEC = OFF */
typedef uint32_t (*ref_atomic)(uint32_t m, uint32_t d);
static void atomic_case(const char *arch, const char *text, const uint32_t (*rows)[3], unsigned n,
                        int rtn, int bf, ref_atomic ref) {
    snippet_rig_lanes(&rig, 0, 0);
    uint32_t m[64];
    for (unsigned l = 0; l < 64; l++) {
        const uint32_t *r = rows[l % n];
        uint64_t a = rig.buf + 4 * l;
        m[l] = r[0];
        w->v[2][l] = (uint32_t)a, w->v[3][l] = (uint32_t)(a >> 32);
        w->v[4][l] = r[1], w->v[5][l] = r[2], w->v[10][l] = OLD;
    }
    gmem_write(rig.mem, rig.buf, m, sizeof m);
    wave_set_exec(w, OFF);
    CHECK(snippet_rig_run(&rig, arch, text) == WAVE_DONE, "%s '%s' ran", arch, text);
    uint32_t got[64];
    gmem_read(rig.mem, rig.buf, got, sizeof got);
    int bad = 0;
    for (unsigned l = 0; l < 32; l++) {
        const uint32_t *r = rows[l % n];
        int on = lane_on(l, 0);
        uint32_t want = on ? ref(r[0], r[1]) : r[0], wret = on && rtn ? r[0] : OLD;
        int ok = on ? same_pk(got[l], want, bf) : got[l] == want;
        if ((!ok || w->v[10][l] != wret) && bad++ < 3)
            printf("  %s '%s' lane %u mem %08x data %08x: mem %08x want %08x, v10 %08x want %08x\n",
                   arch, text, l, r[0], r[1], got[l], want, w->v[10][l], wret);
    }
    CHECK(bad == 0, "%s '%s'", arch, text);
}
static const uint32_t (*pk_rows3(const uint32_t (*rows)[2], unsigned n))[3] {
    static uint32_t out[16][3];
    for (unsigned i = 0; i < n; i++)
        out[i][0] = rows[i][0], out[i][1] = rows[i][1], out[i][2] = 0;
    return (const uint32_t (*)[3])out;
}

/* gfx11 GLOBAL/FLAT_ATOMIC_CMPSWAP_F32 (RDNA3 ISA): MEM = MEM == CMP (as f32) ? DATA : MEM,
 * DATA in v4 and CMP in v5; rows {MEM, DATA, CMP} */
static const uint32_t fcmp_rows[][3] = {
    {0x3f800000, 0x40400000, 0x3f800000}, /* 1 == 1: swapped */
    {0x3f800000, 0x40400000, 0x40000000}, /* 1 != 2: kept */
    {0x00000000, 0x40400000, 0x80000000}, /* +0 == -0: swapped */
    {0x80000000, 0x40400000, 0x00000000}, /* -0 == +0: swapped */
    {0x7fc00000, 0x40400000, 0x7fc00000}, /* NaN == NaN is false: kept, same bits or not */
    {0x7f800000, 0xc0400000, 0x7f800000}, /* inf == inf: swapped */
    {0x3f800000, 0x7fc00000, 0x3f800001}, /* an ulp apart: kept */
};
static void t_fcmpswap(const char *arch) {
    static const char *const ops[][2] = {
        {"global_atomic_cmpswap_f32 v10, v[2:3], v[4:5], off glc", "1"},
        {"flat_atomic_cmpswap_f32 v10, v[2:3], v[4:5] glc", "1"},
        {"global_atomic_cmpswap_f32 v[2:3], v[4:5], off", "0"},
        {"flat_atomic_cmpswap_f32 v[2:3], v[4:5]", "0"},
    };
    unsigned n = sizeof fcmp_rows / sizeof fcmp_rows[0];
    for (unsigned k = 0; k < 4; k++) {
        snippet_rig_lanes(&rig, 0, 0);
        uint32_t m[64];
        for (unsigned l = 0; l < 64; l++) {
            const uint32_t *r = fcmp_rows[l % n];
            uint64_t a = rig.buf + 4 * l;
            m[l] = r[0];
            w->v[2][l] = (uint32_t)a, w->v[3][l] = (uint32_t)(a >> 32);
            w->v[4][l] = r[1], w->v[5][l] = r[2], w->v[10][l] = OLD;
        }
        gmem_write(rig.mem, rig.buf, m, sizeof m);
        wave_set_exec(w, OFF);
        const char *t = ops[k][0];
        int rtn = ops[k][1][0] == '1';
        CHECK(snippet_rig_run(&rig, arch, t) == WAVE_DONE, "%s '%s' ran", arch, t);
        uint32_t got[64];
        gmem_read(rig.mem, rig.buf, got, sizeof got);
        int bad = 0;
        for (unsigned l = 0; l < 32; l++) {
            const uint32_t *r = fcmp_rows[l % n];
            int on = lane_on(l, 0);
            uint32_t want = on && from_bits32(r[0]) == from_bits32(r[2]) ? r[1] : r[0];
            uint32_t wret = on && rtn ? r[0] : OLD;
            if ((got[l] != want || w->v[10][l] != wret) && bad++ < 3)
                printf("  %s '%s' lane %u: mem %08x want %08x, v10 %08x want %08x\n", arch, t, l,
                       got[l], want, w->v[10][l], wret);
        }
        CHECK(bad == 0, "%s '%s'", arch, t);
    }
}

static void t_pk_add(const char *arch) {
    static const char *const ops[] = {
        "global_atomic_pk_add_f16 v10, v[2:3], v4, off th:TH_ATOMIC_RETURN",
        "flat_atomic_pk_add_f16 v10, v[2:3], v4 th:TH_ATOMIC_RETURN",
        "global_atomic_pk_add_f16 v[2:3], v4, off",
        "flat_atomic_pk_add_f16 v[2:3], v4",
        "global_atomic_pk_add_bf16 v10, v[2:3], v4, off th:TH_ATOMIC_RETURN",
        "flat_atomic_pk_add_bf16 v10, v[2:3], v4 th:TH_ATOMIC_RETURN",
        "global_atomic_pk_add_bf16 v[2:3], v4, off",
        "flat_atomic_pk_add_bf16 v[2:3], v4",
    };
    for (unsigned k = 0; k < 8; k++) {
        int bf = k >= 4, rtn = strstr(ops[k], "RETURN") != NULL;
        unsigned n = bf ? sizeof pk_bf16_rows / sizeof pk_bf16_rows[0]
                        : sizeof pk_f16_rows / sizeof pk_f16_rows[0];
        atomic_case(arch, ops[k], pk_rows3(bf ? pk_bf16_rows : pk_f16_rows, n), n, rtn, bf,
                    bf ? ref_pk_bf16 : ref_pk_f16);
    }
}

/* ---- ds_bpermute_fi_b32 ------------------------------------------------------------------- */
/* RDNA4 ISA "LDS: permute": lane l (in EXEC) gets DATA0 of lane ((ADDR + offset) >> 2) mod the
 * wave size, whether or not that lane is in EXEC; lanes not in EXEC are not written. */
static void t_bpermute_fi(const char *arch, int w64) {
    unsigned n = w64 ? 64 : 32;
    uint64_t ex = w64 ? (uint64_t)OFF << 32 | OFF : OFF;
    snippet_rig_lanes(&rig, w64, 0);
    for (unsigned l = 0; l < 64; l++) {
        /* index bits above [7:2] set, to be ignored */
        w->v[1][l] = (l * 7 + 3) * 4 + 0x12300u + (l & 3);
        w->v[2][l] = 0xd0000000u + l * 0x101u, w->v[3][l] = OLD;
    }
    wave_set_exec(w, ex);
    const char *t = "ds_bpermute_fi_b32 v3, v1, v2 offset:8\ns_wait_dscnt 0";
    CHECK(snippet_rig_run(&rig, arch, t) == WAVE_DONE, "%s '%s' ran", arch, t);
    int bad = 0, inactive_src = 0;
    for (unsigned l = 0; l < 64; l++) {
        uint32_t want = OLD;
        if (l < n && (ex >> l & 1)) {
            unsigned src = (l * 7 + 3 + 2) % n; /* (addr + 8) >> 2, the +l&3 bits below bit 2 */
            want = 0xd0000000u + src * 0x101u;
            inactive_src += !(ex >> src & 1);
        }
        if (w->v[3][l] != want && bad++ < 3)
            printf("  %s ds_bpermute_fi lane %u: %08x want %08x\n", arch, l, w->v[3][l], want);
    }
    CHECK(bad == 0 && inactive_src > 0, "%s ds_bpermute_fi_b32 (%d lanes read inactive ones)", arch,
          inactive_src);
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
    t_fcmpswap("gfx1100");
    t_pk_add("gfx1201");
    t_bpermute_fi("gfx1201", 0);
    t_bpermute_fi("gfx1201:wavefrontsize64", 1);
    snippet_rig_close(&rig);
    return check_summary("test_rdna_rdmem");
}
