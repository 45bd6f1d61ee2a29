/* test_cov_mem.c - the loads and stores of every vector memory family (GLOBAL, FLAT, MUBUF,
 * SCRATCH, DS) in every width and sub-dword/d16 form, the loads into LDS, the DS two-address and
 * exchange forms, and the SMEM buffer/scratch/cache ops, on llvm-mc-22 encodings, gfx950 and
 * gfx942.
 *
 * Memory holds the byte pattern P(i) = i * 37 + 0x81 (sign bits vary); lane l accesses its own
 * 16-byte slot at byte offset l % 4 (bytes), 2 * (l % 2) (shorts) or 0, so every alignment within
 * a dword is exercised; lane 13 is outside EXEC.  Expected values are the manual's extension
 * rules (sbyte/sshort sign-extend; d16 writes the low half and keeps the high half; d16_hi the
 * reverse) applied to the pattern on the host. */
#include "common/check.h"
#include "common/cov.h"

static gmem *mem;
static uint64_t buf; /* 1024 bytes */
static wave *w;
static uint8_t lds[1024];
static uint8_t scratch[64 * 64];
static const uint64_t EXEC0 = ~(1ull << 13);

static uint8_t P(unsigned i) { return (uint8_t)(i * 37 + 0x81); }

enum { GLOBAL, FLAT, BUFFER, SCRATCH, DS, NFAM };
static const char *const fam_name[NFAM] = {"global", "flat", "buffer", "scratch", "ds"};

/* Private byte o of lane l (dword-interleaved across lanes, see src/exec/vmem.c). */
static uint8_t *priv(unsigned l, unsigned o) { return &scratch[((o / 4) * 64 + l) * 4 + o % 4]; }

static void reset(void) {
    memset(w, 0, sizeof *w);
    uint8_t b[1024];
    for (unsigned i = 0; i < 1024; i++)
        b[i] = P(i), lds[i] = P(i);
    gmem_write(mem, buf, b, sizeof b);
    for (unsigned l = 0; l < 64; l++)
        for (unsigned o = 0; o < 64; o++)
            *priv(l, o) = P(16 * l + o);
    wave_set_exec(w, EXEC0);
    w->mem = mem;
    w->lds = lds;
    w->lds_size = sizeof lds;
    w->scratch = scratch;
    w->scratch_lane = 64;
    snippet_set_rsrc(w, 12, buf, 0, 1024, 0);
}

/* Byte o of lane l's slot as the memory now holds it. */
static uint8_t mbyte(int fam, unsigned l, unsigned o) {
    uint8_t v = 0;
    if (fam == SCRATCH)
        return *priv(l, o);
    if (fam == DS)
        return lds[16 * l + o];
    gmem_read(mem, buf + 16 * l + o, &v, 1);
    return v;
}

/* Lane l's address registers for byte offset o in its slot: v[2:3] (global/flat), v2 (buffer
 * offen, scratch private offset, ds). */
static void set_addr(int fam, unsigned l, unsigned o) {
    uint64_t a = fam == GLOBAL || fam == FLAT ? buf + 16 * l + o : fam == SCRATCH ? o : 16 * l + o;
    w->v[2][l] = (uint32_t)a, w->v[3][l] = (uint32_t)(a >> 32);
}

static const char *addr_text(int fam, char *b, size_t n, const char *op, const char *data) {
    switch (fam) {
    case GLOBAL: snprintf(b, n, "%s %s, v[2:3], off", op, data); break;
    case FLAT: snprintf(b, n, "%s %s, v[2:3]", op, data); break;
    case BUFFER: snprintf(b, n, "%s %s, v2, s[12:15], 0 offen", op, data); break;
    case SCRATCH: snprintf(b, n, "%s %s, v2, off", op, data); break;
    default: snprintf(b, n, "%s %s, v2", op, data); break;
    }
    return b;
}

/* Loads: kind names per family (DS names differ), the access size and how the value lands. */
enum { UB, SB, US, SS, UB16, SB16, S16, UB16H, SB16H, S16H, DW1, DW2, DW3, DW4, NLK };
static const char *const ld_name[NLK] = {
    "ubyte",        "sbyte",        "ushort",       "sshort", "ubyte_d16", "sbyte_d16", "short_d16",
    "ubyte_d16_hi", "sbyte_d16_hi", "short_d16_hi", "dword",  "dwordx2",   "dwordx3",   "dwordx4"};
static const char *const ds_ld_name[NLK] = {
    "u8",        "i8",        "u16",        "i16", "u8_d16", "i8_d16", "u16_d16",
    "u8_d16_hi", "i8_d16_hi", "u16_d16_hi", "b32", "b64",    "b96",    "b128"};
static unsigned ld_off(int k, unsigned l) {
    int bytes = k == UB || k == SB || k == UB16 || k == SB16 || k == UB16H || k == SB16H;
    int shorts = k == US || k == SS || k == S16 || k == S16H;
    return bytes ? l % 4 : shorts ? 2 * (l % 2) : 0;
}
static uint32_t ld_ref(int k, uint32_t old, const uint8_t *m) {
    uint32_t u8 = m[0], s8 = (uint32_t)(int32_t)(int8_t)m[0], u16 = m[0] | m[1] << 8;
    uint32_t s16 = (uint32_t)(int32_t)(int16_t)u16;
    switch (k) {
    case UB: return u8;
    case SB: return s8;
    case US: return u16;
    case SS: return s16;
    case UB16: return (old & 0xffff0000) | u8;
    case SB16: return (old & 0xffff0000) | (s8 & 0xffff);
    case S16: return (old & 0xffff0000) | u16;
    case UB16H: return (old & 0xffff) | u8 << 16;
    case SB16H: return (old & 0xffff) | (s8 & 0xffff) << 16;
    case S16H: return (old & 0xffff) | u16 << 16;
    default: return m[0] | m[1] << 8 | m[2] << 16 | (uint32_t)m[3] << 24;
    }
}

static void test_loads(const char *arch, int fam) {
    for (int k = 0; k < NLK; k++) {
        char op[64], text[128];
        if (fam == DS) {
            snprintf(op, sizeof op, "ds_read_%s", ds_ld_name[k]);
        } else
            snprintf(op, sizeof op, "%s_load_%s", fam_name[fam], ld_name[k]);
        int ndw = k >= DW1 ? k - DW1 + 1 : 1;
        const char *dst[] = {"v4", "v[4:5]", "v[4:6]", "v[4:7]"};
        addr_text(fam, text, sizeof text, op, k >= DW1 ? dst[ndw - 1] : "v5");
        reset();
        for (unsigned l = 0; l < 64; l++) {
            set_addr(fam, l, ld_off(k, l));
            for (int r = 4; r < 8; r++)
                w->v[r][l] = 0xa5a50000u + 0x1111u * (unsigned)r + l;
        }
        int st = cov_run_done(w, arch, text);
        if (st == COV_NOT_ON_TARGET)
            continue;
        int bad = 0;
        for (unsigned l = 0; l < 64 && st == WAVE_DONE; l++)
            for (int i = 0; i < ndw; i++) {
                int r = k >= DW1 ? 4 + i : 5;
                uint32_t old = 0xa5a50000u + 0x1111u * (unsigned)r + l;
                uint8_t m[4];
                for (int b = 0; b < 4; b++)
                    m[b] = mbyte(fam, l, ld_off(k, l) + 4 * (unsigned)i + (unsigned)b);
                uint32_t want = l == 13 ? old : ld_ref(k, old, m);
                if (w->v[r][l] != want && bad++ < 3)
                    printf("  %s [%s] lane %u v%d = %08x, want %08x\n", arch, text, l, r,
                           w->v[r][l], want);
            }
        CHECK(bad == 0, "%s [%s]: %d wrong", arch, text, bad);
    }
}

/* Stores: byte, byte_d16_hi, short, short_d16_hi, dword..dwordx4 of v[20:23]. */
static void test_stores(const char *arch, int fam) {
    static const char *const st_name[8] = {"byte",  "byte_d16_hi", "short",   "short_d16_hi",
                                           "dword", "dwordx2",     "dwordx3", "dwordx4"};
    static const char *const ds_st_name[8] = {"b8",  "b8_d16_hi", "b16", "b16_d16_hi",
                                              "b32", "b64",       "b96", "b128"};
    static const char *const src[8] = {"v20", "v20",      "v20",      "v20",
                                       "v20", "v[20:21]", "v[20:22]", "v[20:23]"};
    for (int k = 0; k < 8; k++) {
        char op[64], text[128];
        if (fam == DS)
            snprintf(op, sizeof op, "ds_write_%s", ds_st_name[k]);
        else
            snprintf(op, sizeof op, "%s_store_%s", fam_name[fam], st_name[k]);
        /* store syntax: global "op v[2:3], data, off", flat "op v[2:3], data", buffer "op data,
         * v2, s[12:15], 0 offen", scratch "op v2, data, off", ds "op v2, data" */
        switch (fam) {
        case GLOBAL: snprintf(text, sizeof text, "%s v[2:3], %s, off", op, src[k]); break;
        case FLAT: snprintf(text, sizeof text, "%s v[2:3], %s", op, src[k]); break;
        case BUFFER: snprintf(text, sizeof text, "%s %s, v2, s[12:15], 0 offen", op, src[k]); break;
        case SCRATCH: snprintf(text, sizeof text, "%s v2, %s, off", op, src[k]); break;
        default: snprintf(text, sizeof text, "%s v2, %s", op, src[k]); break;
        }
        unsigned size = k < 2 ? 1 : k < 4 ? 2 : 4 * (unsigned)(k - 3);
        reset();
        for (unsigned l = 0; l < 64; l++) {
            unsigned o = k < 2 ? l % 4 : k < 4 ? 2 * (l % 2) : 0;
            set_addr(fam, l, o);
            for (int r = 0; r < 4; r++)
                w->v[20 + r][l] = 0x01020304u * (unsigned)(r + 1) + 0x10001000u * l;
        }
        int st = cov_run_done(w, arch, text);
        if (st == COV_NOT_ON_TARGET)
            continue;
        int bad = 0;
        for (unsigned l = 0; l < 64 && st == WAVE_DONE; l++) {
            unsigned o = k < 2 ? l % 4 : k < 4 ? 2 * (l % 2) : 0;
            uint8_t want[16];
            for (unsigned i = 0; i < 16; i++)
                want[i] = P(16 * l + i);
            if (l != 13) {
                uint8_t data[16];
                for (int r = 0; r < 4; r++)
                    for (int b = 0; b < 4; b++)
                        data[4 * r + b] = (uint8_t)(w->v[20 + r][l] >> (8 * b));
                unsigned from = k == 1 || k == 3 ? 2 : 0; /* d16_hi: bits 31:16 */
                for (unsigned i = 0; i < size; i++)
                    want[o + i] = data[from + i];
            }
            for (unsigned i = 0; i < 16; i++)
                if (mbyte(fam, l, i) != want[i] && bad++ < 3)
                    printf("  %s [%s] lane %u byte %u = %02x, want %02x\n", arch, text, l, i,
                           mbyte(fam, l, i), want[i]);
        }
        CHECK(bad == 0, "%s [%s]: %d wrong", arch, text, bad);
    }
}

/* global/scratch_load_lds_*: lane l's value, extended to a dword (ndw dwords for dwordxN), goes
 * to LDS at M0[17:2] * 4 + lane * 4 * ndw. */
static void test_load_lds(const char *arch, int fam) {
    static const struct {
        const char *name;
        int k, gfx950_only;
    } ops[] = {{"ubyte", UB, 0},  {"sbyte", SB, 0},    {"ushort", US, 0},  {"sshort", SS, 0},
               {"dword", DW1, 0}, {"dwordx3", DW3, 1}, {"dwordx4", DW4, 1}};
    for (size_t i = 0; i < sizeof ops / sizeof ops[0]; i++) {
        if (ops[i].gfx950_only && (strcmp(arch, "gfx950") || fam == SCRATCH))
            continue; /* gfx950 added global_load_lds_dwordx3/x4 only */
        char text[128];
        snprintf(text, sizeof text,
                 fam == GLOBAL ? "%s_load_lds_%s v[2:3], off" : "%s_load_lds_%s v2, off",
                 fam_name[fam], ops[i].name);
        int k = ops[i].k, ndw = k >= DW1 ? k - DW1 + 1 : 1;
        reset();
        memset(lds, 0xee, sizeof lds);
        w->s[124] = 0;
        for (unsigned l = 0; l < 64; l++)
            set_addr(fam, l, ld_off(k, l));
        int st = cov_run_done(w, arch, text);
        if (st == COV_NOT_ON_TARGET)
            continue;
        int bad = 0;
        for (unsigned l = 0; l < 64 && st == WAVE_DONE; l++)
            for (int d = 0; d < ndw; d++) {
                uint8_t m[4];
                for (int b = 0; b < 4; b++)
                    m[b] = P(16 * l + ld_off(k, l) + 4 * (unsigned)d + (unsigned)b);
                uint32_t got, want = l == 13 ? 0xeeeeeeee : ld_ref(k, 0, m);
                memcpy(&got, lds + 4 * (l * (unsigned)ndw + (unsigned)d), 4);
                if (got != want && bad++ < 3)
                    printf("  %s [%s] lane %u dword %d = %08x, want %08x\n", arch, text, l, d, got,
                           want);
            }
        CHECK(bad == 0, "%s [%s]: %d wrong", arch, text, bad);
    }
}

static uint32_t lds32(unsigned off) {
    uint32_t v;
    memcpy(&v, lds + off, 4);
    return v;
}
static uint32_t pat32(unsigned off) {
    return P(off) | P(off + 1) << 8 | P(off + 2) << 16 | (uint32_t)P(off + 3) << 24;
}

/* DS two-address and exchange forms, addtid, append/consume. */
static void test_ds_misc(const char *arch) {
    /* read2_b64 offset0:1 offset1:3 (8-byte units): addr + 8, addr + 24; st64: x 64 * 8 */
    reset();
    for (unsigned l = 0; l < 64; l++)
        w->v[2][l] = 8 * (l % 8);
    CHECK(cov_run(w, arch,
                  "ds_read2_b64 v[4:7], v2 offset0:1 offset1:3\n"
                  "ds_read2st64_b64 v[8:11], v2 offset1:1") == WAVE_DONE,
          "%s read2_b64", arch);
    int bad = 0;
    for (unsigned l = 0; l < 64; l++) {
        unsigned a = 8 * (l % 8);
        uint32_t want[8] = {pat32(a + 8), pat32(a + 12), pat32(a + 24),  pat32(a + 28),
                            pat32(a),     pat32(a + 4),  pat32(a + 512), pat32(a + 516)};
        for (int i = 0; i < 8; i++)
            bad += l != 13 && w->v[4 + i][l] != want[i];
    }
    CHECK(bad == 0, "%s read2_b64/read2st64_b64: %d wrong", arch, bad);
    /* write2_b64 / write2st64_b64 from lane 0 only */
    reset();
    wave_set_exec(w, 1);
    for (int r = 4; r < 8; r++)
        w->v[r][0] = 0x11111111u * (unsigned)r;
    w->v[2][0] = 16;
    CHECK(cov_run(w, arch,
                  "ds_write2_b64 v2, v[4:5], v[6:7] offset0:1 offset1:4\n"
                  "ds_write2st64_b64 v2, v[6:7], v[4:5] offset0:0 offset1:1") == WAVE_DONE,
          "%s write2_b64", arch);
    CHECK(lds32(24) == 0x44444444 && lds32(28) == 0x55555555 && lds32(48) == 0x66666666 &&
              lds32(52) == 0x77777777 && lds32(16) == 0x66666666 && lds32(20) == 0x77777777 &&
              lds32(16 + 512) == 0x44444444 && lds32(16 + 516) == 0x55555555 &&
              lds32(32) == pat32(32),
          "%s write2_b64: %08x %08x %08x %08x %08x", arch, lds32(24), lds32(48), lds32(16),
          lds32(528), lds32(32));
    /* write2_b32 (4-byte units) and write2st64_b32 (256-byte units) */
    reset();
    wave_set_exec(w, 1);
    w->v[2][0] = 8, w->v[4][0] = 0xaaaa0001, w->v[5][0] = 0xaaaa0002;
    CHECK(cov_run(w, arch,
                  "ds_write2_b32 v2, v4, v5 offset0:1 offset1:5\n"
                  "ds_write2st64_b32 v2, v5, v4 offset0:1 offset1:2") == WAVE_DONE,
          "%s write2_b32", arch);
    CHECK(lds32(12) == 0xaaaa0001 && lds32(28) == 0xaaaa0002 && lds32(8 + 256) == 0xaaaa0002 &&
              lds32(8 + 512) == 0xaaaa0001 && lds32(16) == pat32(16),
          "%s write2_b32: %08x %08x %08x %08x", arch, lds32(12), lds32(28), lds32(264), lds32(520));
    /* wrxchg2: both old values return, both new ones land (b32 units of 4, b64 of 8, st64 x64) */
    static const struct {
        const char *text;
        unsigned unit, o0, o1, dw;
    } xc[] = {{"ds_wrxchg2_rtn_b32 v[10:11], v2, v4, v5 offset0:1 offset1:2", 4, 1, 2, 1},
              {"ds_wrxchg2st64_rtn_b32 v[10:11], v2, v4, v5 offset0:0 offset1:1", 256, 0, 1, 1},
              {"ds_wrxchg2_rtn_b64 v[10:13], v2, v[4:5], v[6:7] offset0:1 offset1:3", 8, 1, 3, 2},
              {"ds_wrxchg2st64_rtn_b64 v[10:13], v2, v[4:5], v[6:7] offset1:1", 512, 0, 1, 2}};
    for (size_t i = 0; i < sizeof xc / sizeof xc[0]; i++) {
        reset();
        wave_set_exec(w, 1);
        w->v[2][0] = 8;
        for (int r = 4; r < 8; r++)
            w->v[r][0] = 0xabc00000u + (unsigned)r;
        CHECK(cov_run(w, arch, xc[i].text) == WAVE_DONE, "%s [%s]", arch, xc[i].text);
        unsigned a0 = 8 + xc[i].unit * xc[i].o0, a1 = 8 + xc[i].unit * xc[i].o1;
        int ok = 1;
        for (unsigned d = 0; d < xc[i].dw; d++) {
            ok &= w->v[10 + d][0] == pat32(a0 + 4 * d);
            ok &= w->v[10 + xc[i].dw + d][0] == pat32(a1 + 4 * d);
            ok &= lds32(a0 + 4 * d) == 0xabc00004u + d;
            ok &= lds32(a1 + 4 * d) == 0xabc00004u + (xc[i].dw == 1 ? 1 : 2) + d;
        }
        CHECK(ok, "%s [%s]: ret %08x %08x lds %08x %08x", arch, xc[i].text, w->v[10][0],
              w->v[11][0], lds32(a0), lds32(a1));
    }
    /* addtid: LDS address = M0 + offset + lane * 4 (no address VGPR) */
    reset();
    w->s[124] = 64;
    for (unsigned l = 0; l < 64; l++)
        w->v[4][l] = 0x700 + l;
    CHECK(cov_run(w, arch, "ds_write_addtid_b32 v4 offset:16\nds_read_addtid_b32 v5 offset:12") ==
              WAVE_DONE,
          "%s addtid", arch);
    bad = 0;
    for (unsigned l = 0; l < 64; l++) {
        if (l == 13)
            continue;
        uint32_t want_mem = 0x700 + l;
        bad += lds32(80 + 4 * l) != want_mem;
        /* read at 64 + 12 + 4l: lane l sees what lane l - 1 wrote (lane 0 the pattern; lane 14
         * what lane 13 did not write) */
        uint32_t want = l == 0 ? pat32(76) : l == 14 ? pat32(76 + 4 * 14) : 0x700 + l - 1;
        bad += w->v[5][l] != want;
    }
    CHECK(bad == 0, "%s addtid: %d wrong", arch, bad);
    /* append adds the count of active lanes to the LDS dword at M0 + offset, returning the old
     * value to every lane; consume subtracts it. */
    reset();
    w->s[124] = 0;
    memset(lds + 32, 0, 8);
    lds[32] = 10;
    CHECK(cov_run(w, arch,
                  "ds_append v4 offset:32\nds_consume v5 offset:32\nds_consume v6 offset:32") ==
              WAVE_DONE,
          "%s append", arch);
    CHECK(w->v[4][0] == 10 && w->v[5][63] == 73 && w->v[6][7] == 10 && lds32(32) == (uint32_t)-53,
          "%s append/consume: %u %u %u lds %d", arch, w->v[4][0], w->v[5][63], w->v[6][7],
          (int)lds32(32));
}

static void test_smem(const char *arch) {
    reset();
    snippet_set_rsrc(w, 8, buf, 0, 0x48, 0);
    CHECK(cov_run(w, arch,
                  "s_buffer_load_dword s20, s[8:11], 0x4\n"
                  "s_buffer_load_dwordx2 s[22:23], s[8:11], 0x40\n"
                  "s_buffer_load_dwordx8 s[24:31], s[8:11], 0x20\n"
                  "s_buffer_load_dwordx16 s[32:47], s[8:11], 0x10") == WAVE_DONE,
          "%s s_buffer_load", arch);
    /* num_records 0x48: dwords at 0x48 and beyond read 0 */
    int ok = w->s[20] == pat32(4) && w->s[22] == pat32(0x40) && w->s[23] == pat32(0x44);
    for (int i = 0; i < 8; i++)
        ok &= w->s[24 + i] == (0x20 + 4u * i < 0x48 ? pat32(0x20 + 4u * i) : 0);
    for (int i = 0; i < 16; i++)
        ok &= w->s[32 + i] == (0x10 + 4u * i < 0x48 ? pat32(0x10 + 4u * i) : 0);
    CHECK(ok, "%s s_buffer_load values: %08x %08x %08x %08x", arch, w->s[20], w->s[22], w->s[31],
          w->s[47]);
    reset();
    snippet_set_rsrc(w, 8, buf, 0, 0x100, 0);
    for (int i = 0; i < 8; i++)
        w->s[20 + i] = 0xc0de0000u + (unsigned)i;
    CHECK(cov_run(w, arch,
                  "s_buffer_store_dword s20, s[8:11], 0x0\n"
                  "s_buffer_store_dwordx2 s[22:23], s[8:11], 0x8\n"
                  "s_buffer_store_dwordx4 s[24:27], s[8:11], 0x10\n"
                  "s_dcache_wb\ns_dcache_inv\ns_dcache_wb_vol\ns_dcache_inv_vol\n"
                  "s_dcache_discard s[8:9], 0x0\ns_dcache_discard_x2 s[8:9], 0x0\n"
                  "s_atc_probe 0, s[8:9], 0x0\ns_atc_probe_buffer 0, s[8:11], 0x0") == WAVE_DONE,
          "%s s_buffer_store", arch);
    uint32_t m[8];
    gmem_read(mem, buf, m, sizeof m);
    CHECK(m[0] == 0xc0de0000 && m[1] == pat32(4) && m[2] == 0xc0de0002 && m[3] == 0xc0de0003 &&
              m[4] == 0xc0de0004 && m[7] == 0xc0de0007,
          "%s s_buffer_store values: %08x %08x %08x %08x", arch, m[0], m[1], m[2], m[7]);
    /* s_scratch: scalar dword o of the wave's scratch is w->scratch + o (the private bytes) */
    reset();
    w->scratch_va = 0x10000000;
    w->s[4] = 0x10000000, w->s[5] = 0;
    w->s[20] = 0x5ca1ab1e, w->s[21] = 0xfeedf00d;
    CHECK(cov_run(w, arch,
                  "s_scratch_store_dwordx2 s[20:21], s[4:5], 0x10\n"
                  "s_scratch_load_dwordx4 s[24:27], s[4:5], 0xc") == WAVE_DONE,
          "%s s_scratch", arch);
    uint32_t sc[2];
    memcpy(sc, scratch + 0x10, 8);
    CHECK(sc[0] == 0x5ca1ab1e && sc[1] == 0xfeedf00d && w->s[25] == 0x5ca1ab1e &&
              w->s[26] == 0xfeedf00d,
          "%s s_scratch: %08x %08x %08x %08x", arch, sc[0], sc[1], w->s[25], w->s[26]);
    /* s_memtime/s_memrealtime: 64-bit counters that do not run backwards */
    reset();
    CHECK(cov_run(w, arch,
                  "s_memtime s[20:21]\ns_memrealtime s[22:23]\ns_nop 0\ns_nop 0\n"
                  "s_memtime s[24:25]\ns_memrealtime s[26:27]") == WAVE_DONE,
          "%s memtime", arch);
    uint64_t t0 = w->s[20] | (uint64_t)w->s[21] << 32, t1 = w->s[24] | (uint64_t)w->s[25] << 32;
    uint64_t r0 = w->s[22] | (uint64_t)w->s[23] << 32, r1 = w->s[26] | (uint64_t)w->s[27] << 32;
    CHECK(t1 > t0 && r1 >= r0 && r0 != 0, "%s memtime: %llu %llu %llu %llu", arch,
          (unsigned long long)t0, (unsigned long long)t1, (unsigned long long)r0,
          (unsigned long long)r1);
    /* cache maintenance of the vector memory: no visible effect */
    reset();
    const char *cache = strcmp(arch, "gfx90a") ? "buffer_wbl2\nbuffer_inv\nv_mov_b32 v1, 7"
                                               : "buffer_wbl2\nbuffer_invl2\nv_mov_b32 v1, 7";
    CHECK(cov_run(w, arch, cache) == WAVE_DONE && w->v[1][0] == 7, "%s buffer_wbl2/inv", arch);
}

/* Every lane on, lane l's byte or short at start + size * l (consecutive elements, as a[i] of a
 * byte or half array), starting at an odd byte: the sub-dword loads and stores of GLOBAL, FLAT
 * and BUFFER take a whole-wave path there (src/exec/vmem.c vmem_fast, `coalesced`). */
static void test_linear(const char *arch, int fam) {
    static const int kinds[] = {UB, SB, US, SS, UB16, SB16, S16, UB16H, SB16H, S16H};
    static const char *const st_name[4] = {"byte", "byte_d16_hi", "short", "short_d16_hi"};
    const unsigned start = 5;
    for (int store = 0; store < 2; store++)
        for (int i = 0; i < (store ? 4 : 10); i++) {
            int k = kinds[i];
            unsigned size = store ? (i < 2 ? 1 : 2) : ld_off(k, 1) == 1 ? 1 : 2;
            char op[64], text[128];
            snprintf(op, sizeof op, "%s_%s_%s", fam_name[fam], store ? "store" : "load",
                     store ? st_name[i] : ld_name[k]);
            if (store)
                snprintf(text, sizeof text,
                         fam == GLOBAL ? "%s v[2:3], v20, off"
                         : fam == FLAT ? "%s v[2:3], v20"
                                       : "%s v20, v2, s[12:15], 0 offen",
                         op);
            else
                addr_text(fam, text, sizeof text, op, "v5");
            reset();
            wave_set_exec(w, ~0ull);
            for (unsigned l = 0; l < 64; l++) {
                uint64_t a = (fam == BUFFER ? 0 : buf) + start + size * l;
                w->v[2][l] = (uint32_t)a, w->v[3][l] = (uint32_t)(a >> 32);
                w->v[5][l] = 0xa5a50000u + l;
                w->v[20][l] = 0x9abc0000u + 0x01010101u * l;
            }
            int st = cov_run_done(w, arch, text);
            if (st == COV_NOT_ON_TARGET)
                continue;
            uint8_t now[1024];
            gmem_read(mem, buf, now, sizeof now);
            int bad = 0;
            if (store) {
                uint8_t want[1024];
                for (unsigned b = 0; b < 1024; b++)
                    want[b] = P(b);
                for (unsigned l = 0; l < 64; l++) {
                    uint32_t v = w->v[20][l] >> (i == 1 || i == 3 ? 16 : 0);
                    for (unsigned b = 0; b < size; b++)
                        want[start + size * l + b] = (uint8_t)(v >> (8 * b));
                }
                for (unsigned b = 0; b < 1024; b++)
                    if (now[b] != want[b] && bad++ < 3)
                        printf("  %s [%s] byte %u = %02x, want %02x\n", arch, text, b, now[b],
                               want[b]);
            } else
                for (unsigned l = 0; l < 64 && st == WAVE_DONE; l++) {
                    uint32_t want = ld_ref(k, 0xa5a50000u + l, now + start + size * l);
                    if (w->v[5][l] != want && bad++ < 3)
                        printf("  %s [%s] lane %u v5 = %08x, want %08x\n", arch, text, l,
                               w->v[5][l], want);
                }
            CHECK(st == WAVE_DONE && bad == 0, "%s [%s] linear: %d wrong", arch, text, bad);
        }
}

int main(void) {
    mem = gmem_create();
    buf = gmem_alloc(mem, 1024, 0);
    w = malloc(sizeof *w);
    const char *arches[] = {"gfx950", "gfx942", "gfx90a"};
    for (int a = 0; a < 3; a++) {
        for (int f = 0; f < NFAM; f++) {
            test_loads(arches[a], f);
            test_stores(arches[a], f);
            if (f == GLOBAL || f == FLAT || f == BUFFER)
                test_linear(arches[a], f);
        }
        test_load_lds(arches[a], GLOBAL);
        test_load_lds(arches[a], SCRATCH);
        test_ds_misc(arches[a]);
        test_smem(arches[a]);
    }
    free(w);
    gmem_destroy(mem);
    cov_report_na("cov_mem");
    return check_summary("cov_mem");
}
