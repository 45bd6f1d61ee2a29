/* test_jit_load.c - global_load_dword inside native blocks (src/exec/jit.c J_GLOAD, vmem.c
 * x_jit_load, exec.c jit_stopped) against the interpreter, bit for bit.
 *
 * Short programs of integer VALU instructions around one or two loads (a VGPR-pair address built
 * with the carry forms, or an offset VGPR with saddr; an instruction offset; a load into its own
 * address register; a load from an address a load returned) run from the same state with the
 * blocks off and on, on gfx950, gfx942 and gfx90a.  The lane addresses are consecutive dwords
 * (the blocks' own path), consecutive but for one lane, reversed, all one address, running off
 * the end of an allocation at its page's end in one quarter (a fault: it must name the same
 * instruction, address and lanes as the interpreter's), past the end of an allocation into its
 * page's padding (readable, as on hardware), or unmapped altogether, with the high halves of a
 * pair differing in one lane, or with low halves that wrap inside a quarter (around 2^34, where
 * host memory is mapped so that a load of 64 bytes from the first lane's address would succeed);
 * some runs have a lane off.
 *
 * Without a fault the whole state must match.  With one, the status, the fault record, the pc,
 * the class counts and the registers the instructions before the faulting load write must match
 * (a block has run the instructions after the load on the quarters before the faulting one, as
 * a GPU runs past a load that later faults; jit.c documents it).
 *
 * Both encodings run: AVX-512 code (16-lane chunks) and AVX2 code (8-lane chunks; the host's
 * own on an AVX2 host).  It also checks that the loads are in the blocks (x_jit_counts), and how
 * often a block's code left a chunk to x_jit_load: once per load and cold hot line for
 * consecutive addresses (the code itself loads the other chunks), once more per chunk whose
 * lanes are not consecutive. */
#include "common/check.h"
#include "common/snippet.h"
#include "exec/exec.h"
#include "exec/jit.h"

#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static gmem *mem;
static uint64_t A, B, C, K;
/* C: p7's addresses; K: a page for KEND */ /* A: 256 bytes ending at its page's end; B: 1024
                                               bytes from a page */
static wave *w0, *wi, *wj;

/* p1: a VGPR-pair address (s[0:1] + 4 v0) through the carry forms, then s[2:3] + 4 v0 with an
 * instruction offset; results used after each load.  p2: an offset VGPR with saddr s[4:5], the
 * load into its own address register, then an address a load returned (v_lshl_add_u64: gfx940
 * and later).  p3: p1's first load and one whose address registers the block wrote after it (one
 * dword back). */
static const char *const p1 = "v_lshlrev_b32 v1, 2, v0\n"
                              "v_mov_b32 v3, s1\n"
                              "v_add_co_u32 v2, vcc, s0, v1\n"
                              "v_addc_co_u32 v3, vcc, 0, v3, vcc\n"
                              "global_load_dword v4, v[2:3], off\n"
                              "v_add_u32 v5, v4, v0\n"
                              "v_mov_b32 v7, s3\n"
                              "v_add_co_u32 v6, vcc, s2, v1\n"
                              "v_addc_co_u32 v7, vcc, 0, v7, vcc\n"
                              "global_load_dword v8, v[6:7], off offset:64\n"
                              "v_xor_b32 v9, v8, v5\n"
                              "v_mov_b32 v10, 7\n";
static const char *const p2 = "v_lshlrev_b32 v1, 2, v0\n"
                              "v_add_u32 v2, 0x40, v1\n"
                              "global_load_dword v2, v2, s[4:5] offset:-64\n"
                              "v_add_u32 v3, v2, v1\n"
                              "v_lshl_add_u64 v[6:7], v[12:13], 2, s[0:1]\n"
                              "global_load_dword v6, v[6:7], off\n"
                              "v_or_b32 v8, v6, v3\n";
static const char *const p3 = "v_lshlrev_b32 v1, 2, v0\n"
                              "v_mov_b32 v3, s1\n"
                              "v_add_co_u32 v2, vcc, s0, v1\n"
                              "v_addc_co_u32 v3, vcc, 0, v3, vcc\n"
                              "global_load_dword v4, v[2:3], off\n"
                              "v_add_co_u32 v2, vcc, -4, v2\n"
                              "v_addc_co_u32 v3, vcc, -1, v3, vcc\n"
                              "global_load_dword v5, v[2:3], off\n"
                              "v_sub_u32 v6, v5, v4\n";

/* p4: a VGPR pair whose low half is s0 + 4 v0 without a carry and whose high half is s1 + v14
 * (one lane's high half differs; or the low halves wrap inside a quarter). */
static const char *const p4 = "v_lshlrev_b32 v1, 2, v0\n"
                              "v_add_u32 v2, s0, v1\n"
                              "v_add_u32 v3, s1, v14\n"
                              "global_load_dword v4, v[2:3], off\n"
                              "v_add_u32 v5, v4, v0\n";

/* Stores (J_GSTORE, after the loop): p5 p1 with its second load a store, p6 a saddr load and a
 * saddr store; p7 p5 after two s_loads of its addresses from s[8:9] (blocks run them before
 * their code); p8 and p9 a load and a store of the same buffer a quarter apart (the store after
 * every lane's load, as in program order). */
/* the address of s[0:1] + 4 v0 in v[2:3], through the carry forms */
#define ADDR_A                                                                                     \
    "v_lshlrev_b32 v1, 2, v0\n"                                                                    \
    "v_mov_b32 v3, s1\n"                                                                           \
    "v_add_co_u32 v2, vcc, s0, v1\n"                                                               \
    "v_addc_co_u32 v3, vcc, 0, v3, vcc\n"
#define P5                                                                                         \
    ADDR_A "global_load_dword v4, v[2:3], off\n"                                                   \
           "v_add_u32 v5, v4, v0\n"                                                                \
           "v_mov_b32 v7, s3\n"                                                                    \
           "v_add_co_u32 v6, vcc, s2, v1\n"                                                        \
           "v_addc_co_u32 v7, vcc, 0, v7, vcc\n"                                                   \
           "global_store_dword v[6:7], v5, off offset:64\n"
static const char *const p5 = P5;
static const char *const p6 = "v_lshlrev_b32 v1, 2, v0\n"
                              "global_load_dword v2, v1, s[4:5]\n"
                              "v_xor_b32 v3, v2, v0\n"
                              "global_store_dword v1, v3, s[2:3] offset:64\n";
static const char *const p7 = "s_load_dword s10, s[8:9], 0x4\n"
                              "s_load_dwordx4 s[0:3], s[8:9], 0x0\n"
                              "s_waitcnt lgkmcnt(0)\n"
                              "v_mov_b32 v11, s10\n" P5;
static const char *const p8 = ADDR_A "global_load_dword v4, v[2:3], off offset:-64\n"
                                     "v_add_u32 v5, 1, v4\n"
                                     "global_store_dword v[2:3], v5, off\n";
static const char *const p9 = ADDR_A "global_load_dword v4, v[2:3], off\n"
                                     "v_add_u32 v5, 1, v4\n"
                                     "global_store_dword v[2:3], v5, off offset:-64\n";
static const char *const *const progs[] = {&p1, &p2, &p3, &p4, &p5, &p6, &p7, &p8, &p9};
enum { NPROG = sizeof progs / sizeof progs[0] };

/* The registers (v rows, a mask of them) the instructions before each program's loads write,
 * which must match even after a fault. */
enum { PRE1 = 1u << 1 | 1u << 2 | 1u << 3, PRE2 = 1u << 1, PRE3 = 1u << 1 };
static const unsigned pre[NPROG] = {PRE1, PRE2, PRE3, PRE1, PRE1, PRE2, PRE1, PRE1, PRE1};
static const unsigned ninsts[NPROG] = {12, 7, 9, 5, 10, 4, 14, 7, 7};

static int compare(const char *what, unsigned vrows, int all) {
    int bad = 0;
    if (wi->status != wj->status || wi->pc != wj->pc)
        bad++, printf("  %s: status %d / %d, pc %u / %u\n", what, wi->status, wj->status, wi->pc,
                      wj->pc);
    if (wi->fault.kind != wj->fault.kind || wi->fault.pc != wj->fault.pc ||
        wi->fault.addr != wj->fault.addr || wi->fault.lanes != wj->fault.lanes ||
        wi->fault.size != wj->fault.size || wi->fault.write != wj->fault.write)
        bad++, printf("  %s: fault %d at %u addr 0x%llx lanes 0x%llx / %d at %u addr 0x%llx lanes "
                      "0x%llx\n",
                      what, wi->fault.kind, wi->fault.pc, (unsigned long long)wi->fault.addr,
                      (unsigned long long)wi->fault.lanes, wj->fault.kind, wj->fault.pc,
                      (unsigned long long)wj->fault.addr, (unsigned long long)wj->fault.lanes);
    for (int c = 0; c < XC_N; c++)
        bad += wi->count[c] != wj->count[c];
    if (all || wi->status != WAVE_FAULT)
        for (int s = 0; s < NSREG; s++)
            bad += wi->s[s] != wj->s[s];
    else
        bad += wi->s[ISA_SREG_EXEC_LO] != wj->s[ISA_SREG_EXEC_LO] ||
               wi->s[ISA_SREG_EXEC_HI] != wj->s[ISA_SREG_EXEC_HI];
    for (unsigned r = 0; r < 16; r++) {
        if (!all && wi->status == WAVE_FAULT && !((vrows >> r) & 1))
            continue;
        for (unsigned l = 0; l < 64; l++)
            if (wi->v[r][l] != wj->v[r][l]) {
                if (bad < 4)
                    printf("  %s: v%u lane %u: interpreter 0x%08x, blocks 0x%08x\n", what, r, l,
                           wi->v[r][l], wj->v[r][l]);
                bad++;
            }
    }
    return bad;
}

static uint64_t slow, slow_warm; /* x_jit_load_count() during the runs with blocks */
static uint64_t covered;
/* what a run leaves in A, B with its page's padding, and WRAPPED's host memory */
static uint8_t mem_i[256 + 4096 + 8192], mem_j[sizeof mem_i];
static uint32_t wrapped[2048];

static void fill(uint64_t base, uint32_t bytes, uint32_t tag) {
    for (uint32_t i = 0; i < bytes / 4; i++) {
        uint32_t v = tag + i * 0x01010101u;
        gmem_write(mem, base + 4 * i, &v, 4);
    }
}
static void fill_all(void) {
    fill(A, 256, 0xa0000000u);
    fill(B, 1024, 0xb0000000u);
    void *pad = gmem_xlate_pad(mem, B + 1024, 3072, 1, NULL);
    CHECK(pad != NULL, "B's padding");
    if (pad)
        memset(pad, 0, 3072);
    for (unsigned i = 0; i < 2048; i++)
        wrapped[i] = 0xc0000000u + i;
}
static void snap(uint8_t *m) {
    gmem_read(mem, A, m, 256);
    gmem_read(mem, B, m + 256, 1024);
    const void *pad = gmem_xlate_pad(mem, B + 1024, 3072, 0, NULL);
    if (pad)
        memcpy(m + 256 + 1024, pad, 3072);
    memcpy(m + 256 + 4096, wrapped, sizeof wrapped);
}

/* Run text from w0 without blocks (wi) and with mode's (wj): cold (an empty translation cache),
 * then warm (the cache the cold run left; the state compared is this run's).  Memory starts as
 * fill_all() leaves it each time; mem_i and mem_j get what the interpreter's run and the warm
 * run leave. */
static void run_both(const char *arch, const char *text, int mode) {
    uint64_t b0, i0, b1, i1;
    fill_all();
    memcpy(wi, w0, sizeof *wi);
    x_set_jit(0);
    int st0 = run_snippet(wi, arch, text);
    snap(mem_i);
    fill_all();
    memcpy(wj, w0, sizeof *wj);
    x_set_jit(mode);
    x_jit_counts(&b0, &i0);
    uint64_t s0 = x_jit_load_count();
    int st1 = run_snippet(wj, arch, text);
    slow = x_jit_load_count() - s0;
    x_jit_counts(&b1, &i1);
    covered = i1 - i0;
    gmem_cache c = wj->cache;
    fill_all();
    memcpy(wj, w0, sizeof *wj);
    wj->cache = c;
    s0 = x_jit_load_count();
    int st2 = run_snippet(wj, arch, text);
    slow_warm = x_jit_load_count() - s0;
    snap(mem_j);
    CHECK(st0 >= 0 && st1 >= 0 && st2 >= 0, "%s: does not assemble", arch);
}

static void set_pair(unsigned s, uint64_t a) {
    w0->s[s] = (uint32_t)a;
    w0->s[s + 1] = (uint32_t)(a >> 32);
}

/* v0 (and v12, p2's second index; v14, p4's high halves) by pattern: 0 lane l, 1 lane l but
 * lane 37, 2 63 - l, 3 all 5, 4 lane l with v14 1 in lane 20 (else 0) */
static void lanes(int pattern) {
    for (unsigned l = 0; l < 64; l++) {
        w0->v[0][l] = pattern == 2 ? 63 - l : pattern == 3 ? 5 : l;
        w0->v[12][l] = l;
        w0->v[14][l] = pattern == 4 && l == 20;
    }
    if (pattern == 1)
        w0->v[0][37] = 3;
}

typedef struct {
    const char *name;
    int pattern;
    /* s[0:1] at A + a, s[2:3] at B + b, s[4:5] at B + c (NONE, WRAP: below) */
    int64_t a, b, c;
    uint64_t exec;
    int fault; /* expected: a fault (-1: in p4 only) */
    /* x_jit_load calls expected in AVX-512 code (16-lane chunks) and AVX2 code (8): p1, p2
     * (~0u: any) */
    unsigned slow1, slow2, slow1_avx2, slow2_avx2;
    int64_t k; /* p7's s[8:9]: C; NONE unmapped; KEND 12 bytes before the end of an allocation
                * at its page's end (its s_load_dword, first, fills the scalar hot line; its
                * s_load_dwordx4 runs past the end) */
} scen;

/* Offsets: NONE an unmapped address; WRAP 80 bytes below 2^34, in WRAPPED (host memory at
 * device addresses 2^34 - 4096 to 2^34 + 4096): the first quarter's lanes stay below 2^34 (its
 * load fills the hot line with WRAPPED), the second's low halves wrap from its fifth lane on;
 * WRAP2 124 bytes below: the low halves wrap at lane 31, the last of the second quarter (which
 * starts 60 bytes below 2^32) and of the fourth chunk of 8 (28 bytes below): the highest
 * starts the code's carry test must send to x_jit_load */
#define NONE INT64_MIN
#define KEND (INT64_MIN + 2)
#define WRAP (INT64_MIN + 1)
#define WRAP2 (INT64_MIN + 3)
#define WRAPPED 0x3fffff000ull
static uint64_t at(uint64_t base, int64_t off) {
    return off == NONE    ? 0x7ff000000000ull
           : off == WRAP  ? WRAPPED + 4096 - 80
           : off == WRAP2 ? WRAPPED + 4096 - 124
                          : base + (uint64_t)off;
}

/* A block whose loads gather (p1 with lanes reversed) stops running once one of its loads has
 * sent 255 quarters in a row to x_jit_load (x_jit_mem_go), and its alt (the same instructions in
 * blocks without loads) runs instead: one program, built once, run 100 times, the last run's
 * state and memory against the interpreter's. */
static void test_gather_off(int mode, int avx2) {
    snippet_prog sp = {0};
    x_set_jit(mode);
    if (snippet_prog_load(&sp, "gfx950", p1) != 0) {
        CHECK(0, "p1 does not assemble");
        return;
    }
    memset(w0, 0, sizeof *w0);
    w0->mem = mem;
    lanes(2);
    set_pair(0, A);
    set_pair(2, B);
    wave_set_exec(w0, ~0ull);
    uint64_t first = 0, last = 0, total = 0;
    for (int r = 0; r < 100; r++) {
        fill_all();
        memcpy(wj, w0, sizeof *wj);
        wj->prog = &sp.prog;
        wj->budget = 1000;
        wj->status = WAVE_RUNNING;
        uint64_t s0 = x_jit_load_count();
        wave_run(wj);
        last = x_jit_load_count() - s0;
        first = r ? first : last;
        total += last;
    }
    snap(mem_j);
    fill_all();
    memcpy(wi, w0, sizeof *wi);
    x_set_jit(0);
    run_snippet(wi, "gfx950", p1);
    snap(mem_i);
    x_set_jit(1);
    wj->prog = NULL, wi->prog = NULL;
    const char *enc = avx2 ? "AVX2" : "AVX-512";
    CHECK(compare("gather off", 0, 1) == 0 && !memcmp(mem_i, mem_j, sizeof mem_i),
          "gather off (%s): the states differ", enc);
    /* the block without loads that runs instead, at the same instruction */
    if (x_jit_host())
        CHECK(sp.prog.jit_alt && sp.prog.insts[0].jit && sp.prog.insts[0].jit->alt,
              "gather off (%s): no block without loads", enc);
    /* 8 quarters a run (16 chunks of 8 lanes) until load 1 has sent 255 in a row: 64 runs (32) */
    if (x_jit_host())
        CHECK(first == (avx2 ? 16u : 8u) && last == 0 && total == 8 * 64,
              "gather off (%s): %llu calls in the first run, %llu in the last, %llu in all", enc,
              (unsigned long long)first, (unsigned long long)last, (unsigned long long)total);
    snippet_prog_free(&sp);
}

/* p7 as RDNA code, wave64 (blocks take RDNA's s_load_b32 ... b512 and its dword global forms
 * there): the kernel's two s_loads before the code, a load and a store; the s_loads' base
 * mapped, unmapped, or 12 bytes before an allocation's end (the b128 load faults). */
static void test_rdna_p7(int host) {
    static const char *const arch[2] = {"gfx1100:wavefrontsize64", "gfx1201:wavefrontsize64"};
    static const char *const wait[2] = {"s_waitcnt lgkmcnt(0)\n", "s_wait_kmcnt 0x0\n"};
    static const int64_t ks[3] = {0, NONE, KEND};
    for (int t = 0; t < 2; t++) {
        char text[1024];
        snprintf(text, sizeof text,
                 "s_load_b32 s10, s[8:9], 0x4\n"
                 "s_load_b128 s[0:3], s[8:9], 0x0\n"
                 "%s"
                 "v_mov_b32 v11, s10\n"
                 "v_lshlrev_b32 v1, 2, v0\n"
                 "v_mov_b32 v3, s1\n"
                 "v_add_co_u32 v2, vcc, s0, v1\n"
                 "v_add_co_ci_u32 v3, vcc, 0, v3, vcc\n"
                 "global_load_b32 v4, v[2:3], off\n"
                 "v_add_nc_u32 v5, v4, v0\n"
                 "v_mov_b32 v7, s3\n"
                 "v_add_co_u32 v6, vcc, s2, v1\n"
                 "v_add_co_ci_u32 v7, vcc, 0, v7, vcc\n"
                 "global_store_b32 v[6:7], v5, off offset:64\n",
                 wait[t]);
        for (int i = 0; i < 3; i++)
            for (int mode = 1; mode <= (host == 2 ? 2 : 1); mode++) {
                memset(w0, 0, sizeof *w0);
                w0->mem = mem;
                lanes(0);
                uint64_t kern[2] = {at(A, 0), at(B, 0)};
                gmem_write(mem, C, kern, sizeof kern);
                gmem_write(mem, K + 4096 - 12, kern, 12);
                set_pair(8, ks[i] == NONE ? at(C, NONE) : ks[i] == KEND ? K + 4096 - 12 : C);
                wave_set_exec(w0, ~0ull);
                char what[160];
                snprintf(what, sizeof what, "%s RDNA p7 (s_load base %d, %s)", arch[t], i,
                         mode == 2 || host == 1 ? "AVX2" : "AVX-512");
                run_both(arch[t], text, mode);
                CHECK(compare(what, PRE1, 0) == 0, "%s: registers differ", what);
                CHECK(!memcmp(mem_i, mem_j, sizeof mem_i), "%s: memory differs", what);
                CHECK((wi->status == WAVE_FAULT) == (i != 0), "%s: status %d", what, wi->status);
                if (host && i == 0) /* every instruction in one block, the s_loads too */
                    CHECK(covered == ninsts[6], "%s: blocks cover %llu instructions, not %u", what,
                          (unsigned long long)covered, ninsts[6]);
            }
    }
}

int main(void) {
    mem = gmem_create();
    A = gmem_alloc(mem, 4096, 0) + 4096 - 256;
    B = gmem_alloc(mem, 1024, 1);
    w0 = aligned_alloc(64, sizeof *w0);
    wi = aligned_alloc(64, sizeof *wi);
    wj = aligned_alloc(64, sizeof *wj);
    if (!mem || !A || !B || !w0 || !wi || !wj)
        return 1;
    C = gmem_alloc(mem, 64, 2);
    K = gmem_alloc(mem, 4096, 3);
    if (gmem_map_alias(mem, WRAPPED, wrapped, sizeof wrapped, 0) != 0)
        return 1;
    fill(B, 1024, 0xb0000000u);
    /* x_set_jit(1): the host's code (AVX-512 or AVX2; none: no blocks), 2: AVX2 code */
    const int host = x_jit_host();
    static const scen scens[] = {
        /* one call per load for the cold hot line; one more per chunk whose lanes are not
         * consecutive: lane 37's (p1: both loads; p2: its first), all (p2's second load's
         * addresses are consecutive) */
        {"consecutive", 0, 0, 0, 64, ~0ull, 0, 2, 2, 2, 2, 0},
        {"one lane off", 1, 0, 0, 64, ~0ull, 0, 4, 3, 4, 3, 0},
        {"reversed", 2, 0, 0, 64, ~0ull, 0, 8, 5, 16, 9, 0},
        {"one address", 3, 0, 0, 64, ~0ull, 0, 8, 5, 16, 9, 0},
        {"quarter 3 past A's page", 0, 56, 0, 64, ~0ull, 1, ~0u, ~0u, ~0u, ~0u, 0},
        {"first load unmapped", 0, NONE, 0, 64, ~0ull, 1, ~0u, ~0u, ~0u, ~0u, 0},
        {"second load past B into padding", 0, 0, 1024 - 128 - 64, 1024 - 192, ~0ull, 0, ~0u, ~0u,
         ~0u, ~0u, 0},
        {"B's last quarter in padding", 0, 0, 1024 - 192 - 64, 1024 - 128, ~0ull, 0, ~0u, ~0u, ~0u,
         ~0u, 0},
        {"one lane off (exec)", 0, 0, 0, 64, ~0ull >> 1, 0, 0, 0, 0, 0, 0},
        {"reversed past A's page", 2, 56, 0, 64, ~0ull, 1, ~0u, ~0u, ~0u, ~0u, 0},
        {"lane 60 past A's page", 0, 16, 0, 64, ~0ull, 1, ~0u, ~0u, ~0u, ~0u, 0},
        {"a high half differs (p4: unmapped)", 4, 0, 0, 64, ~0ull, -1, ~0u, ~0u, ~0u, ~0u, 0},
        {"low halves wrap (p4: unmapped)", 0, WRAP, 0, 64, ~0ull, -1, ~0u, ~0u, ~0u, ~0u, 0},
        {"a chunk's last lane wraps (p4: unmapped)", 0, WRAP2, 0, 64, ~0ull, -1, ~0u, ~0u, ~0u, ~0u,
         0},
        {"s[8:9] unmapped (p7)", 0, 0, 0, 64, ~0ull, -1, ~0u, ~0u, ~0u, ~0u, NONE},
        {"s_load past a mapping's end (p7)", 0, 0, 0, 64, ~0ull, -1, ~0u, ~0u, ~0u, ~0u, KEND},
    };
    const char *arches[] = {"gfx950", "gfx942", "gfx90a"};
    int built = 0;
    for (unsigned a = 0; a < 3; a++)
        for (unsigned i = 0; i < sizeof scens / sizeof scens[0]; i++) {
            const scen *sc = &scens[i];
            for (int prog = 0; prog < NPROG; prog++) {
                const char *text = *progs[prog];
                if (prog == 1 && a == 2) /* (no v_lshl_add_u64 on gfx90a) */
                    continue;
                memset(w0, 0, sizeof *w0);
                w0->mem = mem;
                lanes(sc->pattern);
                set_pair(0, at(A, sc->a));
                set_pair(2, at(B, sc->b));
                set_pair(4, at(B, sc->c));
                uint64_t kern[2] = {at(A, sc->a), at(B, sc->b)}; /* p7's s_loads */
                gmem_write(mem, C, kern, sizeof kern);
                gmem_write(mem, K + 4096 - 12, kern, 12);
                set_pair(8, sc->k == NONE ? at(C, NONE) : sc->k == KEND ? K + 4096 - 12 : C);
                wave_set_exec(w0, sc->exec);
                for (int mode = 1; mode <= (host == 2 ? 2 : 1); mode++) {
                    const int avx2 = mode == 2 || host == 1;
                    char what[160];
                    snprintf(what, sizeof what, "%s p%d %s (%s)", arches[a], prog + 1, sc->name,
                             avx2 ? "AVX2" : "AVX-512");
                    run_both(arches[a], text, mode);
                    int d = compare(what, pre[prog], 0);
                    CHECK(d == 0, "%s: %d words differ", what, d);
                    CHECK(!memcmp(mem_i, mem_j, sizeof mem_i), "%s: memory differs", what);
                    int fault = sc->fault >= 0 ? sc->fault : prog == 3;
                    if (sc->k != 0)
                        fault = prog == 6;
                    if (prog <= 3 || prog == 6)
                        CHECK((wi->status == WAVE_FAULT) == fault, "%s: status %d", what,
                              wi->status);
                    fault = wi->status == WAVE_FAULT;
                    if (!host) { /* no blocks */
                        CHECK(slow == 0 && slow_warm == 0, "%s: %llu, %llu calls to vmem.c", what,
                              (unsigned long long)slow, (unsigned long long)slow_warm);
                        continue;
                    }
                    if (sc->pattern == 0 && sc->exec == ~0ull && !fault && i == 0)
                        CHECK(slow_warm == 0, "%s: %llu calls to vmem.c when warm", what,
                              (unsigned long long)slow_warm);
                    unsigned want = avx2 ? (prog == 1 ? sc->slow2_avx2 : sc->slow1_avx2)
                                         : (prog == 1 ? sc->slow2 : sc->slow1);
                    if (prog >= 4)
                        want = ~0u;               /* (the cold counts of p1-p4 only) */
                    if (prog == 3 && want != ~0u) /* (p4: one load, p1's first) */
                        want /= 2;
                    /* (p3's second load: p1's first one dword back) */
                    if (want != ~0u)
                        CHECK(slow == want, "%s: %llu chunks to x_jit_load, want %u", what,
                              (unsigned long long)slow, want);
                    if (sc->exec == ~0ull && !fault) {
                        /* every instruction in one block (the snippet's s_endpgm aside) */
                        unsigned n = ninsts[prog];
                        CHECK(covered == n, "%s: blocks cover %llu instructions, not %u", what,
                              (unsigned long long)covered, n);
                        built++;
                    }
                }
            }
        }
    if (host)
        CHECK(built > 0, "no run built a block with loads");
    test_rdna_p7(host);
    test_gather_off(1, host == 1);
    if (host == 2)
        test_gather_off(2, 1);
    x_set_jit(1);
    gmem_destroy(mem);
    free(w0), free(wi), free(wj);
    return check_summary("jit_load");
}
