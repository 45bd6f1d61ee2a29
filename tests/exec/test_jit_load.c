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
 * It also checks that the loads are in the blocks on an AVX-512 host (x_jit_counts), and how
 * often a block's code left a quarter to x_jit_load: once per load and cold hot line for
 * consecutive addresses (the code itself loads the other three quarters), once more per quarter
 * whose lanes are not consecutive. */
#include "common/check.h"
#include "common/snippet.h"
#include "exec/exec.h"
#include "exec/jit.h"

#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static gmem *mem;
static uint64_t A, B; /* A: 256 bytes ending at its page's end; B: 1024 bytes from a page */
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

/* The registers (v rows, a mask of them) the instructions before each program's loads write,
 * which must match even after a fault. */
enum { PRE1 = 1u << 1 | 1u << 2 | 1u << 3, PRE2 = 1u << 1, PRE3 = 1u << 1 };
static const unsigned pre[4] = {PRE1, PRE2, PRE3, PRE1};
static const unsigned ninsts[4] = {12, 7, 9, 5};

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

static uint64_t slow; /* x_jit_load_count() during the last run with blocks */
static uint64_t covered;

/* Run text from w0 without blocks (wi) and with mode's (wj); the states are compared. */
static void run_both(const char *arch, const char *text, int mode) {
    uint64_t b0, i0, b1, i1;
    memcpy(wi, w0, sizeof *wi);
    x_set_jit(0);
    int st0 = run_snippet(wi, arch, text);
    memcpy(wj, w0, sizeof *wj);
    x_set_jit(mode);
    x_jit_counts(&b0, &i0);
    uint64_t s0 = x_jit_load_count();
    int st1 = run_snippet(wj, arch, text);
    slow = x_jit_load_count() - s0;
    x_jit_counts(&b1, &i1);
    covered = i1 - i0;
    CHECK(st0 >= 0 && st1 >= 0, "%s: does not assemble", arch);
}

static void fill(uint64_t base, uint32_t bytes, uint32_t tag) {
    for (uint32_t i = 0; i < bytes / 4; i++) {
        uint32_t v = tag + i * 0x01010101u;
        gmem_write(mem, base + 4 * i, &v, 4);
    }
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
    int fault;             /* expected: a fault (-1: in p4 only) */
    unsigned slow1, slow2; /* x_jit_load calls expected on an AVX-512 host: p1, p2 (~0u: any) */
} scen;

/* Offsets: NONE an unmapped address; WRAP 80 bytes below 2^34, in WRAPPED (host memory at
 * device addresses 2^34 - 4096 to 2^34 + 4096): the first quarter's lanes stay below 2^34 (its
 * load fills the hot line with WRAPPED), the second's low halves wrap from its fifth lane on */
#define NONE INT64_MIN
#define WRAP (INT64_MIN + 1)
#define WRAPPED 0x3fffff000ull
static uint64_t at(uint64_t base, int64_t off) {
    return off == NONE   ? 0x7ff000000000ull
           : off == WRAP ? WRAPPED + 4096 - 80
                         : base + (uint64_t)off;
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
    fill(A, 256, 0xa0000000u);
    static uint32_t wrapped[2048];
    for (unsigned i = 0; i < 2048; i++)
        wrapped[i] = 0xc0000000u + i;
    if (gmem_map_alias(mem, WRAPPED, wrapped, sizeof wrapped, 0) != 0)
        return 1;
    fill(B, 1024, 0xb0000000u);
    /* the blocks' own path needs an AVX-512 host (x_set_jit(1): the host's code) */
    int native = x_jit_host() == 2;
    static const scen scens[] = {
        {"consecutive", 0, 0, 0, 64, ~0ull, 0, 2, 2},
        {"one lane off", 1, 0, 0, 64, ~0ull, 0, 4, 3},
        {"reversed", 2, 0, 0, 64, ~0ull, 0, 8, 5},
        {"one address", 3, 0, 0, 64, ~0ull, 0, 8, 5},
        {"quarter 3 past A's page", 0, 56, 0, 64, ~0ull, 1, ~0u, ~0u},
        {"first load unmapped", 0, NONE, 0, 64, ~0ull, 1, ~0u, ~0u},
        {"second load past B into padding", 0, 0, 1024 - 128 - 64, 1024 - 192, ~0ull, 0, ~0u, ~0u},
        {"B's last quarter in padding", 0, 0, 1024 - 192 - 64, 1024 - 128, ~0ull, 0, ~0u, ~0u},
        {"one lane off (exec)", 0, 0, 0, 64, ~0ull >> 1, 0, 0, 0},
        {"reversed past A's page", 2, 56, 0, 64, ~0ull, 1, ~0u, ~0u},
        {"a high half differs (p4: unmapped)", 4, 0, 0, 64, ~0ull, -1, ~0u, ~0u},
        {"low halves wrap (p4: unmapped)", 0, WRAP, 0, 64, ~0ull, -1, ~0u, ~0u},
    };
    const char *arches[] = {"gfx950", "gfx942", "gfx90a"};
    int built = 0;
    for (unsigned a = 0; a < 3; a++)
        for (unsigned i = 0; i < sizeof scens / sizeof scens[0]; i++) {
            const scen *sc = &scens[i];
            for (int prog = 0; prog < 4; prog++) {
                const char *text = prog == 0 ? p1 : prog == 1 ? p2 : prog == 2 ? p3 : p4;
                if (prog == 1 && a == 2) /* (no v_lshl_add_u64 on gfx90a) */
                    continue;
                memset(w0, 0, sizeof *w0);
                w0->mem = mem;
                lanes(sc->pattern);
                set_pair(0, at(A, sc->a));
                set_pair(2, at(B, sc->b));
                set_pair(4, at(B, sc->c));
                wave_set_exec(w0, sc->exec);
                for (int mode = 1; mode <= (native ? 2 : 1); mode++) {
                    char what[160];
                    snprintf(what, sizeof what, "%s p%d %s (%s)", arches[a], prog + 1, sc->name,
                             mode == 2 ? "AVX2" : "host code");
                    run_both(arches[a], text, mode);
                    int d = compare(what, pre[prog], 0);
                    CHECK(d == 0, "%s: %d words differ", what, d);
                    int fault = sc->fault >= 0 ? sc->fault : prog == 3;
                    CHECK((wi->status == WAVE_FAULT) == fault, "%s: status %d", what, wi->status);
                    if (mode == 2 || !native) { /* no loads in AVX2 blocks */
                        CHECK(slow == 0, "%s: %llu quarters to x_jit_load", what,
                              (unsigned long long)slow);
                        continue;
                    }
                    unsigned want = prog == 1 ? sc->slow2 : sc->slow1;
                    if (prog == 3 && want != ~0u) /* (p4: one load, p1's first) */
                        want /= 2;
                    /* (p3's second load: p1's first one dword back) */
                    if (want != ~0u)
                        CHECK(slow == want, "%s: %llu quarters to x_jit_load, want %u", what,
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
    if (native)
        CHECK(built > 0, "no run built a block with loads");
    x_set_jit(1);
    gmem_destroy(mem);
    free(w0), free(wi), free(wj);
    return check_summary("jit_load");
}
