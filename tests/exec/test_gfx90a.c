/* test_gfx90a.c - what gfx90a (CDNA2) does differently from gfx942, on llvm-mc-22 encodings:
 *
 *  - the cache-policy bits are glc/slc/scc (the bit positions of gfx942's sc0/nt/sc1): a load
 *    with all three reads memory normally, and glc on an atomic returns the pre-op value (CDNA2
 *    ISA, "Vector Memory Operations": GLC on atomics = return pre-op value) while without it the
 *    destination is not written;
 *  - the L1/L2 maintenance ops buffer_wbinvl1, buffer_wbinvl1_vol, buffer_invl2 and buffer_wbl2
 *    exist (gfx942 lacks the first three) and change no register or memory;
 *  - v_mov_b64 does not exist: its gfx942 word is illegal on gfx90a and faults by name;
 *  - v_fmac_f64 rounds once (D = fma(S0, S1, D)), checked on operands where a separately rounded
 *    product would differ;
 *  - f64 atomics in DS and GLOBAL (ds_add_rtn_f64, global_atomic_add_f64 glc,
 *    global_atomic_min/max_f64) with edge values;
 *  - buffer_store_lds_dword copies LDS to memory; image instructions fault as unimplemented.
 * Expected values come from host arithmetic per lane. */
#include "common/bits.h"
#include "common/check.h"
#include "common/cov.h"
#include "common/util.h"

#include <float.h>

static gmem *mem;
static uint64_t buf; /* 64 lanes x 8 bytes */
static wave *w;
static uint8_t lds[1024];

static void reset(void) {
    memset(w, 0, sizeof *w);
    memset(lds, 0, sizeof lds);
    wave_set_exec(w, ~(1ull << 13)); /* lane 13 is off: it must change nothing */
    w->mem = mem;
    w->lds = lds;
    w->lds_size = sizeof lds;
    for (int l = 0; l < 64; l++) {
        uint64_t a = buf + 8u * (unsigned)l;
        w->v[2][l] = (uint32_t)a, w->v[3][l] = (uint32_t)(a >> 32);
    }
}

static uint64_t rd64(unsigned off) {
    uint64_t v = 0;
    gmem_read(mem, buf + off, &v, 8);
    return v;
}
static void wr64(unsigned off, uint64_t v) { gmem_write(mem, buf + off, &v, 8); }

static void test_cache_bits(void) {
    reset();
    for (int l = 0; l < 64; l++) {
        wr64(8u * (unsigned)l, 0x1111111100000000ull + (unsigned)l * 3u);
        w->v[4][l] = 100u + (unsigned)l;
        w->v[5][l] = w->v[6][l] = 0xdeadbeef;
    }
    int st = run_snippet(w, "gfx90a",
                         "global_load_dword v1, v[2:3], off glc slc scc\n"
                         "global_atomic_add v5, v[2:3], v4, off offset:4 glc\n"
                         "global_atomic_add v[2:3], v4, off offset:4\n"
                         "s_waitcnt vmcnt(0)");
    CHECK(st == WAVE_DONE, "cache bits: status %d fault %d", st, w->fault.kind);
    int bad = 0;
    for (int l = 0; l < 64; l++) {
        int on = l != 13;
        uint32_t lo = (uint32_t)l * 3u, hi = 0x11111111u;
        uint32_t want_hi = on ? hi + 2 * (100u + (unsigned)l) : hi;
        bad += w->v[1][l] != (on ? lo : 0);
        bad += w->v[5][l] != (on ? hi : 0xdeadbeef); /* glc: the value before the first add */
        bad += w->v[6][l] != 0xdeadbeef;             /* untouched */
        bad += rd64(8u * (unsigned)l) != ((uint64_t)want_hi << 32 | lo);
    }
    CHECK(bad == 0, "cache bits: %d wrong values", bad);

    /* the same words print with gfx90a's names and with gfx942's */
    static const uint32_t ld[2] = {0xde538000u,
                                   0x017f0002u}; /* global_load_dword ... glc slc scc */
    isa_inst in;
    char t90[128], t42[128];
    CHECK(isa_decode(ISA_GFX90A, (const uint8_t *)ld, 8, &in) == 8, "decode gfx90a");
    isa_print(&in, t90, sizeof t90);
    CHECK(isa_decode(ISA_GFX942, (const uint8_t *)ld, 8, &in) == 8, "decode gfx942");
    isa_print(&in, t42, sizeof t42);
    CHECK(!strcmp(t90, "global_load_dword v1, v[2:3], off glc slc scc"), "gfx90a: '%s'", t90);
    CHECK(!strcmp(t42, "global_load_dword v1, v[2:3], off sc0 nt sc1"), "gfx942: '%s'", t42);
}

static void test_cache_ops(void) {
    reset();
    for (int l = 0; l < 64; l++)
        w->v[7][l] = (uint32_t)l * 7u;
    wave snap;
    memcpy(&snap, w, sizeof snap);
    uint64_t before = rd64(0);
    int st = run_snippet(w, "gfx90a",
                         "buffer_wbinvl1\nbuffer_wbinvl1_vol\nbuffer_invl2\n"
                         "buffer_wbl2");
    CHECK(st == WAVE_DONE, "cache ops: status %d fault %d", st, w->fault.kind);
    CHECK(!memcmp(w->v, snap.v, sizeof w->v) && !memcmp(w->s, snap.s, 104 * 4) && rd64(0) == before,
          "cache ops changed registers or memory");
    /* MUBUF opcode 0x29 is buffer_invl2 on gfx90a and buffer_inv on gfx942 */
    static const uint32_t invl2[2] = {0xe0a40000u, 0};
    isa_inst in;
    CHECK(isa_decode(ISA_GFX90A, (const uint8_t *)invl2, 8, &in) == 8 &&
              in.op == ISA_OP_BUFFER_INVL2,
          "buffer_invl2 on gfx90a");
    CHECK(isa_decode(ISA_GFX942, (const uint8_t *)invl2, 8, &in) == 8 && in.op == ISA_OP_BUFFER_INV,
          "opcode 0x29 on gfx942: %s", isa_op_names[in.op]);
}

static void test_no_mov_b64(void) {
    static const uint32_t mov64 = 0x7e007102u; /* gfx942: v_mov_b64_e32 v[0:1], v[2:3] */
    isa_inst in;
    CHECK(isa_decode(ISA_GFX942, (const uint8_t *)&mov64, 4, &in) == 4 && in.op == ISA_OP_V_MOV_B64,
          "v_mov_b64 on gfx942");
    CHECK(isa_decode(ISA_GFX90A, (const uint8_t *)&mov64, 4, &in) == 0, "v_mov_b64 on gfx90a");
    /* executing it faults as an illegal instruction at its pc */
    uint32_t code[2] = {mov64, 0xbf810000u /* s_endpgm */};
    xprog p;
    CHECK(xprog_build(&p, ISA_GFX90A, (const uint8_t *)code, sizeof code, 0x1000) == 0, "build");
    reset();
    w->prog = &p;
    w->budget = 10;
    wave_run(w);
    CHECK(w->status == WAVE_FAULT && w->fault.kind == XF_ILLEGAL && w->fault.pc == 0,
          "v_mov_b64 on gfx90a: status %d fault %d pc %llu", w->status, w->fault.kind,
          (unsigned long long)w->fault.pc);
    xprog_free(&p);
}

static void test_fmac_f64(void) {
    reset();
    int diff = 0;
    double A[64], B[64], C[64];
    for (int l = 0; l < 64; l++) {
        /* (1 + e)(1 - e) + -1 = -e^2: a separately rounded product gives 0 */
        double e = ldexp(1.0, -30 - (l % 20));
        A[l] = l % 4 == 3 ? DBL_MAX : 1.0 + e;
        B[l] = l % 4 == 3 ? 2.0 : 1.0 - e;
        C[l] = l % 4 == 3 ? -DBL_MAX : -1.0;
        diff += fma(A[l], B[l], C[l]) != A[l] * B[l] + C[l];
        w->v[4][l] = (uint32_t)bits64(A[l]), w->v[5][l] = (uint32_t)(bits64(A[l]) >> 32);
        w->v[6][l] = (uint32_t)bits64(B[l]), w->v[7][l] = (uint32_t)(bits64(B[l]) >> 32);
        w->v[8][l] = (uint32_t)bits64(C[l]), w->v[9][l] = (uint32_t)(bits64(C[l]) >> 32);
    }
    CHECK(diff > 32, "the operands do not tell fused from unfused (%d)", diff);
    int st = run_snippet(w, "gfx90a", "v_fmac_f64_e32 v[8:9], v[4:5], v[6:7]");
    CHECK(st == WAVE_DONE, "v_fmac_f64: status %d fault %d", st, w->fault.kind);
    int bad = 0;
    for (int l = 0; l < 64; l++) {
        uint64_t got = w->v[8][l] | (uint64_t)w->v[9][l] << 32;
        uint64_t want = l == 13 ? bits64(C[l]) : bits64(fma(A[l], B[l], C[l]));
        if (got != want && bad++ < 3)
            printf("  v_fmac_f64 lane %d: %a, want %a\n", l, from_bits64(got), from_bits64(want));
    }
    CHECK(bad == 0, "v_fmac_f64: %d lanes wrong", bad);
}

static void test_f64_atomics(void) {
    static const double fv[8] = {1.5, -2.25, 0.0, -0.0, 1e300, -1e300, INFINITY, 3.0};
    static const char *const ops[] = {
        "global_atomic_add_f64 v[10:11], v[2:3], v[4:5], off glc",
        "global_atomic_min_f64 v[10:11], v[2:3], v[4:5], off glc",
        "global_atomic_max_f64 v[2:3], v[4:5], off",
        "ds_add_rtn_f64 v[10:11], v1, v[4:5]",
        "ds_add_f64 v1, v[4:5]",
    };
    for (size_t i = 0; i < sizeof ops / sizeof ops[0]; i++) {
        const char *t = ops[i];
        int ds = !strncmp(t, "ds_", 3), rtn = strstr(t, "glc") || strstr(t, "rtn");
        int kind = strstr(t, "min") ? 1 : strstr(t, "max") ? 2 : 0;
        reset();
        uint64_t o[64], d[64];
        for (int l = 0; l < 64; l++) {
            o[l] = bits64(fv[l % 8]), d[l] = bits64(fv[l / 8]);
            if (ds)
                memcpy(lds + 8 * l, &o[l], 8);
            else
                wr64(8u * (unsigned)l, o[l]);
            w->v[1][l] = 8u * (unsigned)l;
            w->v[4][l] = (uint32_t)d[l], w->v[5][l] = (uint32_t)(d[l] >> 32);
            w->v[10][l] = w->v[11][l] = 0x55555555u;
        }
        int st = run_snippet(w, "gfx90a", t);
        CHECK(st == WAVE_DONE, "[%s]: status %d fault %d", t, st, w->fault.kind);
        int bad = 0;
        for (int l = 0; l < 64 && st == WAVE_DONE; l++) {
            double a = from_bits64(o[l]), b = from_bits64(d[l]);
            uint64_t want = l == 13     ? o[l]
                            : kind == 1 ? bits64(fmin(a, b))
                            : kind == 2 ? bits64(fmax(a, b))
                                        : bits64(a + b);
            uint64_t got;
            if (ds)
                memcpy(&got, lds + 8 * l, 8);
            else
                got = rd64(8u * (unsigned)l);
            if (kind && a == 0 && b == 0 && from_bits64(got) == 0)
                want = got; /* min/max of +0 and -0: either zero */
            uint64_t ret = w->v[10][l] | (uint64_t)w->v[11][l] << 32;
            uint64_t rwant = rtn && l != 13 ? o[l] : 0x5555555555555555ull;
            if ((got != want || ret != rwant) && bad++ < 3)
                printf("  [%s] lane %d: %a op %a: mem %a want %a, ret %llx want %llx\n", t, l, a, b,
                       from_bits64(got), from_bits64(want), (unsigned long long)ret,
                       (unsigned long long)rwant);
        }
        CHECK(bad == 0, "[%s]: %d lanes wrong", t, bad);
    }
}

/* gfx90a's LDS-DMA load (global_load_dword ... lds, FLAT bit 13) writes LDS exactly as gfx942's
 * global_load_lds_dword (whose LDS layout tests/exec/test_cov_mem.c checks by hand) and no
 * VGPR. */
static void test_lds_dma(void) {
    uint8_t want[sizeof lds];
    for (int t = 0; t < 2; t++) {
        reset();
        for (int l = 0; l < 64; l++) {
            wr64(8u * (unsigned)l, 0x0101010101010101ull * (unsigned)(l + 1));
            w->v[1][l] = 0xdeadbeef;
        }
        w->s[124] = 16; /* M0: LDS base */
        int st = run_snippet(w, t ? "gfx90a" : "gfx942",
                             t ? "global_load_dword v[2:3], off offset:4 lds\ns_waitcnt vmcnt(0)"
                               : "global_load_lds_dword v[2:3], off offset:4\ns_waitcnt vmcnt(0)");
        CHECK(st == WAVE_DONE, "lds dma %d: status %d fault %d", t, st, w->fault.kind);
        if (!t) {
            memcpy(want, lds, sizeof lds);
            continue;
        }
        int nz = 0;
        for (size_t i = 0; i < sizeof lds; i++)
            nz += lds[i] != 0;
        CHECK(nz >= 63 * 4 && !memcmp(lds, want, sizeof lds), "gfx90a lds dma: %d bytes set", nz);
        CHECK(w->v[1][0] == 0xdeadbeef, "lds dma wrote a VGPR");
    }
}

/* buffer_store_lds_dword (the LDS-to-memory LDS_DMA form; legal only with the lds bit): lane l
 * copies the LDS dword at M0 + offset + 4 * l to its buffer address.  The encoding has no VGPR
 * address, so the lanes are told apart by the descriptor's ADD_TID_ENABLE (index = lane, stride
 * 4): lane l writes base + soffset + offset + 4 * l.  num_records = 60 records: lanes 60..63 are
 * out of range and dropped; lane 13 is off. */
static void test_store_lds_dword(void) {
    reset();
    for (unsigned i = 0; i < sizeof lds; i++)
        lds[i] = (uint8_t)(i * 7 + 1);
    for (unsigned i = 0; i < 512; i += 8)
        wr64(i, 0x5555555555555555ull);
    w->s[124] = 8;                                                       /* M0 */
    w->s[4] = (uint32_t)buf, w->s[5] = (uint32_t)(buf >> 32) | 4u << 16; /* stride 4 */
    w->s[6] = 60, w->s[7] = 1u << 23;                                    /* ADD_TID_ENABLE */
    w->s[8] = 16;                                                        /* soffset */
    int st = run_snippet(w, "gfx90a",
                         /* buffer_store_lds_dword s[4:7], s8 offset:4 lds (gfxemu as
                          * cannot encode it yet: the words llvm-mc-22 gives) */
                         ".long 0xe0f50004, 0x08010000\ns_waitcnt vmcnt(0)");
    CHECK(st == WAVE_DONE, "store_lds_dword: status %d fault %d", st, w->fault.kind);
    int bad = 0;
    for (unsigned l = 0; l < 64; l++) {
        uint32_t got, want = 0x55555555u;
        gmem_read(mem, buf + 16 + 4 + 4 * l, &got, 4);
        if (l != 13 && l < 60) {
            unsigned a = 8 + 4 + 4 * l; /* LDS byte address */
            want = 0;
            for (unsigned k = 0; k < 4; k++)
                want |= (uint32_t)(uint8_t)((a + k) * 7 + 1) << (8 * k);
        }
        if (got != want && bad++ < 3)
            printf("  lane %u: %08x want %08x\n", l, got, want);
    }
    CHECK(bad == 0, "store_lds_dword: %d lanes wrong", bad);
    uint32_t below;
    gmem_read(mem, buf + 16, &below, 4);
    CHECK(below == 0x55555555u, "store_lds_dword wrote below its first address");

    /* an LDS address past the end (LDS is 1 KiB here) reads 0, as the hardware's LDS does;
     * under memcheck it is an LDS fault */
    for (int strict = 0; strict < 2; strict++) {
        reset();
        w->mc = strict ? snippet_memcheck() : NULL;
        w->s[124] = 1000;
        w->s[4] = (uint32_t)buf, w->s[5] = (uint32_t)(buf >> 32) | 4u << 16;
        w->s[6] = 60, w->s[7] = 1u << 23;
        for (unsigned i = 0; i < 1024; i++)
            lds[i] = (uint8_t)(i | 1);
        for (unsigned i = 0; i < 512; i += 8)
            wr64(i, 0x5555555555555555ull);
        st = run_snippet(w, "gfx90a", ".long 0xe0f50000, 0x80010000"); /* buffer_store_lds_dword
                                                                       s[4:7], 0 lds */
        if (strict) {
            CHECK(st == WAVE_FAULT && w->fault.kind == XF_LDS, "store_lds_dword past LDS: %d %d",
                  st, w->fault.kind);
            continue;
        }
        uint32_t got[15];
        gmem_read(mem, buf, got, sizeof got);
        /* lane l stores LDS dword 1000 + 4 l at buf + 4 l: lanes 0-5 read LDS bytes 1000-1023
         * (byte i holds i | 1), lanes 6 on are past the LDS and store 0; lane 13 is off */
        CHECK(st == WAVE_DONE && got[0] == 0xebebe9e9u && got[5] == 0xfffffdfdu && got[6] == 0 &&
                  got[12] == 0 && got[13] == 0x55555555u && got[14] == 0,
              "store_lds_dword past LDS: status %d, %x %x %x %x %x", st, got[0], got[5], got[6],
              got[13], got[14]);
    }
    w->mc = NULL;
}

/* Image instructions decode (tests/isa) but are not executed: gfxemu models no image
 * resources, so they stop the wave as unimplemented, by name. */
static void test_image_faults(void) {
    reset();
    int st = run_snippet(w, "gfx90a", /* image_load v[4:7], v1, s[8:15] dmask:0xf unorm */
                         ".long 0xf0001f00, 0x00020401");
    CHECK(st == WAVE_FAULT && w->fault.kind == XF_UNIMPLEMENTED, "image_load: %d %d", st,
          w->fault.kind);
}

int main(void) {
    mem = gmem_create();
    buf = gmem_alloc(mem, 512, 0);
    w = malloc(sizeof *w);
    test_cache_bits();
    test_cache_ops();
    test_no_mov_b64();
    test_fmac_f64();
    test_f64_atomics();
    test_lds_dma();
    test_store_lds_dword();
    test_image_faults();
    free(w);
    gmem_destroy(mem);
    return check_summary("test_gfx90a");
}
