/* test_pair.c - two wave32 waves run as one 64-lane wave (src/exec/pair.c) give exactly what the
 * two waves give run one after the other: every kernel of tests/kernels/pair.cl runs on gfx1100
 * and gfx1201 (wave32 and wave64, -O0..-O3) with pairing off and on, and the outputs, the
 * launch result, the fault and every --stats count must be identical; the integer kernels are
 * also checked against C.  The cases: uniform math with 64-bit indexing (SGPR carries), lane-
 * and wave-divergent branches (the pair splits), ballots/readlane/bpermute/DPP/permlanex16 (lane
 * masks as values, cross-lane ops: split), LDS with barriers across two pairs and global
 * atomics, a fault in the second wave only.  In wave32 at -O1..-O3, the uniform kernel must
 * have run paired (x_pair_count), so a pairing that silently never happens fails too (-O0
 * kernels use private memory, which keeps waves unpaired). */
#include "common/asm.h"
#include "common/kernels.h"
#include "common/util.h"
#include "exec/pair.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

enum { MAXB = 4 };
typedef struct {
    void *host; /* input bytes, or NULL for a zeroed output */
    size_t size;
} pbuf;

typedef struct {
    uint8_t *got[MAXB];
    uint64_t base; /* device address of the first buffer */
    gfx_result r;
    gfx_stats st;
    gfx_fault f;
} outcome;

static int wave32(void) { return strstr(kt.tag, "w64") == NULL; }

/* Launch name with the buffers (device addresses first) and the scalars after them. */
static void run(outcome *o, int pair, const char *name, unsigned groups, unsigned block,
                const pbuf *b, size_t nb, const void *const *scal, size_t ns) {
    uint64_t addr[MAXB];
    const void *params[MAXB + 4];
    for (size_t i = 0; i < nb; i++) {
        addr[i] = kt_upload(b[i].host, b[i].size);
        params[i] = &addr[i];
    }
    uint64_t base = addr[0];
    for (size_t i = 0; i < ns; i++)
        params[nb + i] = scal[i];
    const gfx_kernel *k = NULL;
    memset(o, 0, sizeof *o);
    o->base = base;
    o->r = GFX_ERR_NOT_FOUND;
    if (gfx_module_kernel(kt.mod, name, &k) == GFX_OK) {
        uint32_t grid[3] = {groups, 1, 1}, blk[3] = {block, 1, 1};
        x_set_pairing(pair);
        o->r = gfx_launch_params(kt.dev, k, grid, blk, params, nb + ns, NULL, &o->st);
        x_set_pairing(1);
        gfx_last_fault(kt.dev, &o->f);
    }
    for (size_t i = 0; i < nb; i++) {
        o->got[i] = malloc(b[i].size);
        gfx_memcpy_dtoh(kt.dev, o->got[i], addr[i], b[i].size);
        gfx_buffer_free(kt.dev, addr[i]);
    }
}

/* Pairing off, then on: everything observable must be the same.  Returns the paired outcome
 * (the caller frees it with done()). */
static void both(outcome *on, const char *name, unsigned groups, unsigned block, const pbuf *b,
                 size_t nb, const void *const *scal, size_t ns) {
    outcome off;
    run(&off, 0, name, groups, block, b, nb, scal, ns);
    uint64_t before = x_pair_count();
    run(on, 1, name, groups, block, b, nb, scal, ns);
    /* (the reference tier, make check-reference, and make coverage pair nothing) */
    if (wave32() && x_fast_tier() && x_pairing() && !strstr(kt.tag, "-O0") &&
        strcmp(name, "uniform_mix") == 0)
        CHECK(x_pair_count() > before, "%s %s: no instruction ran paired", kt.tag, name);
    CHECK(on->r == off.r, "%s %s: result %d paired, %d not", kt.tag, name, on->r, off.r);
    /* the same fault: kind, address in the buffer, instruction, wave and lanes (the buffers
     * of the two runs lie at different addresses) */
    const char *m1 = strstr(on->f.message, " by '"), *m0 = strstr(off.f.message, " by '");
    CHECK(on->r != GFX_ERR_FAULT ||
              (on->f.kind == off.f.kind && on->f.addr - on->base == off.f.addr - off.base &&
               (m1 && m0 ? strcmp(m1, m0) == 0 : m1 == m0)),
          "%s %s: fault '%s' paired, '%s' not", kt.tag, name, on->f.message, off.f.message);
    const uint64_t *a = &on->st.salu, *c = &off.st.salu;
    for (int i = 0; i < 8; i++)
        CHECK(a[i] == c[i], "%s %s: stats class %d: %llu paired, %llu not", kt.tag, name, i,
              (unsigned long long)a[i], (unsigned long long)c[i]);
    CHECK(on->st.wave_insts == off.st.wave_insts && on->st.waves == off.st.waves,
          "%s %s: %llu wave-instructions paired, %llu not", kt.tag, name,
          (unsigned long long)on->st.wave_insts, (unsigned long long)off.st.wave_insts);
    for (size_t i = 0; i < nb; i++) {
        if (memcmp(on->got[i], off.got[i], b[i].size)) {
            size_t k = 0;
            while (on->got[i][k] == off.got[i][k])
                k++;
            CHECK(0, "%s %s: buffer %zu differs at byte %zu: %02x paired, %02x not", kt.tag, name,
                  i, k, on->got[i][k], off.got[i][k]);
        }
        free(off.got[i]);
    }
}

static void done(outcome *o, size_t nb) {
    for (size_t i = 0; i < nb; i++)
        free(o->got[i]);
}

static void t_uniform(void) {
    enum { G = 6, B = 64, N = G * B };
    static float in[N];
    uint64_t rng = 0x5eed;
    for (unsigned i = 0; i < N; i++)
        in[i] = (float)(kt_rand(&rng) % 20000) / 100.0f - 50.0f;
    int64_t off = -((int64_t)1 << 40);
    uint32_t n = 37;
    pbuf b[] = {{NULL, N * 4}, {in, sizeof in}, {NULL, N * 8}};
    const void *s[] = {&off, &n};
    outcome o;
    both(&o, "uniform_mix", G, B, b, 3, s, 2);
    CHECK(o.r == GFX_OK, "%s uniform_mix: %s", kt.tag, gfx_device_error(kt.dev));
    done(&o, 3);
    /* workgroups of 48: a pair whose second wave has 16 lanes */
    both(&o, "uniform_mix", N / 48, 48, b, 3, s, 2);
    CHECK(o.r == GFX_OK, "%s uniform_mix 48: %s", kt.tag, gfx_device_error(kt.dev));
    done(&o, 3);
}

static void t_divergent(void) {
    enum { G = 4, B = 96, N = G * B }; /* 3 waves of 32: a pair and a single wave */
    uint32_t n = 5;
    static uint32_t sparse[N];
    for (uint32_t i = 0; i < N; i++)
        sparse[i] = 0xdeadbeefu;
    uint64_t ds = kt_upload(sparse, sizeof sparse);
    pbuf b[] = {{NULL, N * 4}};
    const void *s[] = {&n, &ds};
    outcome o;
    both(&o, "divergent", G, B, b, 1, s, 2);
    uint32_t got_sparse[N];
    gfx_memcpy_dtoh(kt.dev, got_sparse, ds, sizeof got_sparse);
    gfx_buffer_free(kt.dev, ds);
    const uint32_t *got = (const uint32_t *)o.got[0];
    int bad = 0;
    for (uint32_t i = 0; i < N; i++) {
        uint32_t l = i % B, v = i * 2654435761u;
        bad += got_sparse[i] != (l % 3 == 0 ? v ^ n : 0xdeadbeefu);
        v = l & 1 ? v ^ (v >> 7) : v + 12345u;
        if (l >= 32)
            for (uint32_t k = 0; k < n; k++)
                v = v * 1664525u + 1013904223u;
        else if (l < 7)
            v = ~v;
        bad += got[i] != v;
    }
    CHECK(o.r == GFX_OK && bad == 0, "%s divergent: %d wrong", kt.tag, bad);
    done(&o, 1);
}

static void t_masks(void) {
    enum { G = 3, B = 64, N = G * B };
    static uint32_t in[N];
    uint64_t rng = 0xabcdef;
    for (unsigned i = 0; i < N; i++)
        in[i] = kt_rand(&rng);
    pbuf b[] = {{NULL, N * 16}, {in, sizeof in}};
    outcome o;
    both(&o, "masks", G, B, b, 2, NULL, 0);
    CHECK(o.r == GFX_OK, "%s masks: %s", kt.tag, gfx_device_error(kt.dev));
    /* the ballot of each wave: lanes whose value is 1 mod 4 */
    const uint32_t *got = (const uint32_t *)o.got[0];
    unsigned w = wave32() ? 32 : 64;
    int bad = 0;
    for (unsigned i = 0; i < N; i++) {
        unsigned base = i / w * w;
        uint32_t ballot = 0;
        for (unsigned l = 0; l < 32 && base + l < N; l++)
            ballot |= (uint32_t)((in[base + l] & 3) == 1) << l;
        bad += got[4 * i] != ballot;
    }
    CHECK(bad == 0, "%s masks: %d wrong ballots", kt.tag, bad);
    done(&o, 2);
}

static void t_lds(void) {
    enum { G = 3, B = 128, N = G * B };
    static uint32_t in[N];
    uint64_t rng = 0x77;
    for (unsigned i = 0; i < N; i++)
        in[i] = kt_rand(&rng);
    pbuf b[] = {{NULL, N * 4}, {NULL, 20 * 4}, {in, sizeof in}};
    outcome o;
    both(&o, "lds_atomics", G, B, b, 3, NULL, 0);
    const uint32_t *got = (const uint32_t *)o.got[0], *counts = (const uint32_t *)o.got[1];
    uint32_t want_counts[20] = {0};
    int bad = 0;
    for (unsigned g = 0; g < G; g++) {
        uint32_t t[B], v[B];
        for (unsigned l = 0; l < B; l++)
            t[l] = in[g * B + l] * 3u + l;
        for (unsigned l = 0; l < B; l++)
            v[l] = t[127 - l] ^ t[(l + 32) & 127];
        for (unsigned l = 0; l < B; l++) {
            bad += got[g * B + l] != v[(l * 5) & 127];
            want_counts[v[l] & 15]++;
            if (v[l] > want_counts[16 + (l & 3)])
                want_counts[16 + (l & 3)] = v[l];
        }
    }
    bad += memcmp(counts, want_counts, sizeof want_counts) != 0;
    CHECK(o.r == GFX_OK && bad == 0, "%s lds_atomics: %d wrong", kt.tag, bad);
    done(&o, 3);
}

static void t_fault(void) {
    uint32_t far = 1u << 20; /* 4 MiB past a 256-byte buffer */
    pbuf b[] = {{NULL, 256}};
    const void *s[] = {&far};
    outcome o;
    both(&o, "fault_second", 1, 64, b, 1, s, 1);
    CHECK(o.r == GFX_ERR_FAULT && o.f.kind == GFX_FAULT_MEMORY, "%s fault_second: result %d, '%s'",
          kt.tag, o.r, o.f.message);
    if (wave32())
        CHECK(strstr(o.f.message, "wave 1, lanes 0x00000000ffffffff") != NULL,
              "%s fault_second: '%s'", kt.tag, o.f.message);
    done(&o, 1);
    /* A load out of bounds in every lane, one workgroup: the first wave's fault, its 32 lanes
     * (wave32), paired and not.  A paired follower has run every instruction its leader ran up
     * to the fault, which unpaired it had not begun, so its counts are the leader's: the
     * paired counts are twice the unpaired ones.  (A block that stopped at the load must take
     * the rest of the run back from them.) */
    pbuf c[] = {{NULL, 256}, {NULL, 256}};
    outcome on, off;
    run(&off, 0, "fault_load", 1, 64, c, 2, s, 1);
    uint64_t before = x_pair_count();
    run(&on, 1, "fault_load", 1, 64, c, 2, s, 1);
    int paired = x_pair_count() > before;
    if (wave32() && x_fast_tier() && x_pairing() && !strstr(kt.tag, "-O0"))
        CHECK(paired, "%s fault_load: nothing ran paired", kt.tag);
    const char *m1 = strstr(on.f.message, " by '"), *m0 = strstr(off.f.message, " by '");
    CHECK(on.r == GFX_ERR_FAULT && off.r == GFX_ERR_FAULT && on.f.kind == GFX_FAULT_MEMORY &&
              on.f.kind == off.f.kind && m1 && m0 && strcmp(m1, m0) == 0,
          "%s fault_load: '%s' paired, '%s' not", kt.tag, on.f.message, off.f.message);
    if (wave32())
        CHECK(strstr(on.f.message, "wave 0, lanes 0x00000000ffffffff") != NULL,
              "%s fault_load: '%s'", kt.tag, on.f.message);
    const uint64_t *a = &on.st.salu, *z = &off.st.salu;
    for (int i = 0; i < 8; i++)
        CHECK(a[i] == (paired ? 2 : 1) * z[i],
              "%s fault_load: stats class %d: %llu paired, %llu not", kt.tag, i,
              (unsigned long long)a[i], (unsigned long long)z[i]);
    done(&on, 2);
    done(&off, 2);
}

/* Two workgroups of 64 lanes of code (arch) through gfxemu_run_asm() (the mock-GPU entry),
 * pairing on or off, the buffer out (bytes long: init's bytes, or zeros when init is NULL) at
 * s[0:1]; its result. */
static int run_asm_pairing(const char *arch, const uint8_t *code, size_t n, uint32_t *out,
                           size_t bytes, int pair, const uint32_t *init) {
    if (init)
        memcpy(out, init, bytes);
    else
        memset(out, 0, bytes);
    uint64_t p = (uint64_t)(uintptr_t)out;
    uint32_t user[2] = {(uint32_t)p, (uint32_t)(p >> 32)};
    uint64_t ranges[2] = {p, bytes};
    x_set_pairing(pair);
    int r = gfxemu_run_asm_ranges((uint64_t)(uintptr_t)code, (uint32_t)n, 2, 1, 1, 64, 1, 1, 0,
                                  2u << 1, 0, arch, user, 2, ranges, 1);
    x_set_pairing(1);
    return r;
}

/* gfxemu_run_asm() pairs wave32 waves too: two workgroups of 64 lanes store l * l + 7 at lane
 * l of the buffer whose address is in s[0:1], paired and not. */
static void t_run_asm(void) {
    static const char *const text = "v_lshlrev_b32 v1, 2, v0\n"
                                    "v_mul_lo_u32 v2, v0, v0\n"
                                    "v_add_nc_u32 v2, v2, 7\n"
                                    "global_store_b32 v1, v2, s[0:1]\n"
                                    "s_endpgm\n";
    static const char *const arches[] = {"gfx1100", "gfx1201"};
    for (int a = 0; a < 2; a++) {
        size_t n;
        uint8_t *code = asm_snippet(arches[a], text, &n);
        CHECK(code != NULL, "%s: cannot assemble the run_asm program", arches[a]);
        if (!code)
            continue;
        for (int pair = 0; pair < 2; pair++) {
            static uint32_t out[64];
            uint64_t before = x_pair_count();
            int r = run_asm_pairing(arches[a], code, n, out, sizeof out, pair, NULL), bad = 0;
            for (uint32_t l = 0; l < 64; l++)
                bad += out[l] != l * l + 7;
            CHECK(r == 0 && bad == 0, "%s run_asm (pairing %d): r %d, %d wrong", arches[a], pair, r,
                  bad);
            if (pair && x_fast_tier() && x_pairing())
                CHECK(x_pair_count() > before, "%s run_asm: no instruction ran paired", arches[a]);
        }
        free(code);
    }
}

/* Scalar loads whose address SGPRs agree run once for both waves of a pair, their results
 * copied to the second wave (all 16 SGPRs of an s_load_b512); a faulting one faults as
 * unpaired, the first wave's fault. */
static void t_shared_loads(void) {
    static const char *const text[] = {"s_load_b512 s[8:23], s[0:1], 0x100\n"
                                       "s_waitcnt lgkmcnt(0)\n"
                                       "v_mov_b32 v2, s8\n"
                                       "v_add_nc_u32 v2, s23, v2\n"
                                       "v_add_nc_u32 v2, s15, v2\n"
                                       "v_lshlrev_b32 v1, 2, v0\n"
                                       "global_store_b32 v1, v2, s[0:1]\n"
                                       "s_endpgm\n",
                                       "s_load_b32 s8, s[0:1], 0xf0000\n"
                                       "s_waitcnt lgkmcnt(0)\n"
                                       "v_mov_b32 v2, s8\n"
                                       "v_lshlrev_b32 v1, 2, v0\n"
                                       "global_store_b32 v1, v2, s[0:1]\n"
                                       "s_endpgm\n"};
    static const char *const arches[] = {"gfx1100", "gfx1201"};
    static uint32_t init[128], out[128];
    for (uint32_t i = 0; i < 128; i++)
        init[i] = 0x1000u * i + 0x35u;
    for (int a = 0; a < 2; a++)
        for (int t = 0; t < 2; t++) {
            size_t n;
            uint8_t *code = asm_snippet(arches[a], text[t], &n);
            CHECK(code != NULL, "%s: cannot assemble shared load program %d", arches[a], t);
            if (!code)
                continue;
            int r[2];
            for (int pair = 0; pair < 2; pair++) {
                uint64_t before = x_pair_shared_loads();
                r[pair] = run_asm_pairing(arches[a], code, n, out, sizeof out, pair, init);
                int bad = 0;
                for (uint32_t l = 0; t == 0 && l < 128; l++)
                    bad += out[l] != (l < 64 ? init[64] + init[79] + init[71] : init[l]);
                CHECK(t == 1 || (r[pair] == 0 && bad == 0),
                      "%s shared load (pairing %d): r %d, %d wrong", arches[a], pair, r[pair], bad);
                if (t == 0 && pair && x_fast_tier() && x_pairing())
                    CHECK(x_pair_shared_loads() > before, "%s: no scalar load ran once", arches[a]);
            }
            if (t == 1)
                CHECK(r[0] != 0 && r[0] == r[1],
                      "%s faulting scalar load: r %d unpaired, %d paired", arches[a], r[0], r[1]);
            free(code);
        }
}

/* The instructions a pair only counts (XP_NOP) and native blocks step over: RDNA's wait
 * counters (gfx11's s_waitcnt too, which runs CDNA's no-op handler), s_nop and s_delay_alu; a
 * scalar op that is one would end every run at the wait after each s_load. */
static void t_nops(void) {
    static const char *const text[] = {
        "s_waitcnt lgkmcnt(0)\ns_nop 0\ns_delay_alu instid0(VALU_DEP_1)\n"
        "s_waitcnt_vscnt null, 0x0\ns_mov_b32 s0, 0\ns_endpgm\n",
        "s_wait_loadcnt 0x0\ns_nop 0\ns_delay_alu instid0(VALU_DEP_1)\n"
        "s_wait_kmcnt 0x0\ns_mov_b32 s0, 0\ns_endpgm\n"};
    static const char *const arches[] = {"gfx1100", "gfx1201"};
    for (int a = 0; a < 2; a++) {
        size_t n;
        uint8_t *code = asm_snippet(arches[a], text[a], &n);
        CHECK(code != NULL, "%s: cannot assemble the no-op program", arches[a]);
        if (!code)
            continue;
        xprog p;
        memset(&p, 0, sizeof p);
        if (xprog_build(&p, (isa_arch)test_isa_arch(arches[a]), code, (uint32_t)n, 0) == 0) {
            CHECK(p.ninsts == 6, "%s: %u instructions", arches[a], p.ninsts);
            for (uint32_t i = 0; i < p.ninsts && i < 6; i++)
                CHECK(x_rdna_is_nop(&p.insts[i]) == (i < 4), "%s: %s is%s a no-op", arches[a],
                      isa_op_names[p.insts[i].in.op], i < 4 ? " not" : "");
            xprog_free(&p);
        } else {
            CHECK(0, "%s: xprog_build", arches[a]);
        }
        free(code);
    }
}

/* Lane masks that live across runs: a compare and a carry written in one run, read per wave by
 * SALU ops after it (each wave's own mask back in its SGPR), and read again in a later run
 * (each wave's mask into the run's slot pair); an s_load between the runs ends the first. */
static void t_mask_asm(void) {
    static const char *const text = "v_cmp_gt_u32_e64 s4, v0, 40\n"
                                    "v_add_co_u32 v1, vcc_lo, v0, -20\n"
                                    "s_load_b32 s5, s[0:1], 0x0\n"
                                    "s_bcnt1_i32_b32 s6, vcc_lo\n"
                                    "s_bcnt1_i32_b32 s7, s4\n"
                                    "s_waitcnt lgkmcnt(0)\n"
                                    "v_cndmask_b32_e64 v2, 1, 2, s4\n"
                                    "v_add_co_ci_u32_e64 v3, null, 0, 0, vcc_lo\n"
                                    "v_lshl_add_u32 v2, v3, 4, v2\n"
                                    "v_lshlrev_b32 v1, 2, v0\n"
                                    "global_store_b32 v1, v2, s[0:1]\n"
                                    "s_load_b32 s5, s[0:1], 0x0\n" /* (the run's end) */
                                    "s_waitcnt lgkmcnt(0)\n"
                                    "v_mov_b32 v4, s6\n"
                                    "v_mad_u32_u24 v4, s7, 0x100, v4\n"
                                    "global_store_b32 v1, v4, s[0:1] offset:256\n"
                                    "s_endpgm\n";
    static const char *const arches[] = {"gfx1100", "gfx1201"};
    for (int a = 0; a < 2; a++) {
        size_t n;
        uint8_t *code = asm_snippet(arches[a], text, &n);
        CHECK(code != NULL, "%s: cannot assemble the mask program", arches[a]);
        if (!code)
            continue;
        for (int pair = 0; pair < 2; pair++) {
            static uint32_t out[128];
            uint64_t before = x_pair_mask_runs();
            int r = run_asm_pairing(arches[a], code, n, out, sizeof out, pair, NULL), bad = 0;
            for (uint32_t l = 0; l < 64; l++) {
                /* each wave's popcounts: carries (ids >= 20) and ids > 40 among its 32 lanes */
                uint32_t w0 = l & ~31u, carries = 0, big = 0;
                for (uint32_t k = w0; k < w0 + 32; k++)
                    carries += k >= 20, big += k > 40;
                bad += out[l] != (l > 40 ? 2 : 1) + ((uint32_t)(l >= 20) << 4);
                bad += out[64 + l] != carries + (big << 8);
            }
            CHECK(r == 0 && bad == 0, "%s mask program (pairing %d): r %d, %d wrong", arches[a],
                  pair, r, bad);
            if (pair && x_fast_tier() && x_pairing())
                CHECK(x_pair_mask_runs() > before, "%s mask program: no run with lane masks",
                      arches[a]);
        }
        free(code);
    }
}

/* scalar_runs: SALU ops between the VALU ops of a loop, on scalars that agree (the loop
 * counter) and that differ between the waves (a ballot's popcount), against C. */
static void t_scalar_runs(void) {
    enum { G = 3, B = 64, N = G * B };
    static uint32_t in[N];
    uint64_t rng = 0x5ca1a;
    for (unsigned i = 0; i < N; i++)
        in[i] = kt_rand(&rng);
    in[5] |= 1, in[40] &= ~1u; /* the two waves' popcounts differ in workgroup 0 */
    uint32_t n = 29;
    pbuf b[] = {{NULL, N * 4}, {in, sizeof in}};
    const void *s[] = {&n};
    outcome o;
    both(&o, "scalar_runs", G, B, b, 2, s, 1);
    CHECK(o.r == GFX_OK, "%s scalar_runs: %s", kt.tag, gfx_device_error(kt.dev));
    const uint32_t *got = (const uint32_t *)o.got[0];
    unsigned w = wave32() ? 32 : 64;
    int bad = 0;
    for (unsigned i = 0; i < N; i++) {
        unsigned base = i / w * w;
        uint32_t pop = 0, acc = in[i], sc = 0;
        for (unsigned l = 0; l < w; l++)
            pop += in[base + l] & 1;
        for (uint32_t k = 0; k < n; k++) {
            acc = acc * 1664525u + (acc >> 11) + k;
            sc = sc * 3u + pop + k;
        }
        bad += got[i] != (acc ^ sc);
    }
    CHECK(bad == 0, "%s scalar_runs: %d wrong", kt.tag, bad);
    done(&o, 2);
    /* one workgroup long enough (about 3 M wave-instructions) for the spin probe, which splits
     * a pair after LONG_RUN: the pair is joined again after it (follow_probe) */
    uint32_t nl = 150000;
    const void *sl[] = {&nl};
    pbuf bl[] = {{NULL, 64 * 4}, {in, 64 * 4}};
    uint64_t before = x_pair_rejoins();
    both(&o, "scalar_runs", 1, B, bl, 2, sl, 1);
    if (wave32() && x_fast_tier() && x_pairing() && !strstr(kt.tag, "-O0"))
        CHECK(x_pair_rejoins() > before, "%s scalar_runs long: no pair joined after a probe",
              kt.tag);
    got = (const uint32_t *)o.got[0];
    bad = 0;
    for (unsigned i = 0; i < 64; i++) {
        unsigned base = i / w * w;
        uint32_t pop = 0, acc = in[i], sc = 0;
        for (unsigned l = 0; l < w; l++)
            pop += in[base + l] & 1;
        for (uint32_t k = 0; k < nl; k++) {
            acc = acc * 1664525u + (acc >> 11) + k;
            sc = sc * 3u + pop + k;
        }
        bad += got[i] != (acc ^ sc);
    }
    CHECK(o.r == GFX_OK && bad == 0, "%s scalar_runs long: %d wrong", kt.tag, bad);
    done(&o, 2);
}

/* rejoin: a divergent loop splits the pairs, the barrier after it joins them again (wave32:
 * counted by x_pair_rejoins), against C. */
static void t_rejoin(void) {
    enum { G = 3, B = 128, N = G * B };
    static uint32_t in[N];
    uint64_t rng = 0x4e70;
    for (unsigned i = 0; i < N; i++)
        in[i] = kt_rand(&rng);
    uint32_t n = 23;
    pbuf b[] = {{NULL, N * 4}, {in, sizeof in}};
    const void *s[] = {&n};
    uint64_t before = x_pair_rejoins();
    outcome o;
    both(&o, "rejoin", G, B, b, 2, s, 1);
    if (wave32() && x_fast_tier() && x_pairing() && !strstr(kt.tag, "-O0"))
        CHECK(x_pair_rejoins() > before, "%s rejoin: no pair joined again", kt.tag);
    const uint32_t *got = (const uint32_t *)o.got[0];
    int bad = 0;
    for (unsigned g = 0; g < G; g++) {
        uint32_t t[B];
        for (unsigned l = 0; l < B; l++) {
            uint32_t v = in[g * B + l], trips = (l & 32) ? n : 1;
            for (uint32_t k = 0; k < trips; k++)
                v = v * 1664525u + 1013904223u;
            t[l] = v;
        }
        for (unsigned l = 0; l < B; l++) {
            uint32_t u = t[(l + 37) & 127];
            for (uint32_t k = 0; k < n; k++)
                u = (u ^ (u >> 9)) * 2654435761u + k;
            bad += got[g * B + l] != u;
        }
    }
    CHECK(o.r == GFX_OK && bad == 0, "%s rejoin: %d wrong", kt.tag, bad);
    done(&o, 2);
}

/* lane_masks: carries and compares whose lane masks differ between the two waves, inside runs
 * of paired instructions (the masks in their slot pairs for the run, and in native blocks),
 * and a v_cmpx_*_e64 whose EXEC differs between the waves, against C; in wave32 from -O1 on
 * runs with masks must have run (x_pair_mask_runs). */
static void t_lane_masks(void) {
    enum { G = 3, B = 64, N = G * B };
    static uint32_t in[N];
    uint64_t rng = 0x1a7e;
    for (unsigned i = 0; i < N; i++)
        in[i] = kt_rand(&rng);
    uint32_t n = 23;
    pbuf b[] = {{NULL, N * 8}, {in, sizeof in}};
    const void *s[] = {&n};
    outcome o;
    uint64_t before = x_pair_mask_runs();
    both(&o, "lane_masks", G, B, b, 2, s, 1);
    CHECK(o.r == GFX_OK, "%s lane_masks: %s", kt.tag, gfx_device_error(kt.dev));
    if (wave32() && x_fast_tier() && x_pairing() && !strstr(kt.tag, "-O0"))
        CHECK(x_pair_mask_runs() > before, "%s lane_masks: no run with lane masks", kt.tag);
    const uint64_t *got = (const uint64_t *)o.got[0];
    int bad = 0;
    for (unsigned i = 0; i < N; i++) {
        uint64_t x = in[i], y = (uint64_t)in[i] << 31 | 0x7fffffffu;
        for (uint32_t k = 0; k < n; k++) {
            x += y;
            y = x < y ? y - (x >> 3) : y + k;
            uint32_t lo = (uint32_t)x;
            x ^= lo > (uint32_t)y ? (uint64_t)lo << 7 : (uint64_t)k;
        }
        bad += got[i] != (x ^ y);
    }
    CHECK(bad == 0, "%s lane_masks: %d wrong", kt.tag, bad);
    done(&o, 2);
}

int main(void) {
    static const kt_test tests[] = {t_uniform, t_divergent,   t_masks,  t_lds,
                                    t_fault,   t_scalar_runs, t_rejoin, t_lane_masks};
    if (kt_run_rdna("pair", "", tests, sizeof tests / sizeof tests[0]))
        return 1;
    t_run_asm();
    t_mask_asm();
    t_nops();
    t_shared_loads();
    return check_summary("test_pair");
}
