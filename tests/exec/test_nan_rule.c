/* test_nan_rule.c - which NaN an f32 add, subtract, multiply or multiply-add returns, on every
 * tier: the reference interpreter, the fast handlers (direct path, VV clones), and native
 * blocks in each of their encodings (the host's, AVX2, AVX-512 without AVX-512DQ).
 *
 * The rule (docs/architecture.md, "NaN results"): measured on RDNA hardware (gfx1151, gfx1201)
 * for v_add/sub/mul/fma/fmac/fmamk_f32, v_div_fmas_f32 with VCC clear and the VOPD halves:
 *   - the first NaN operand in source order (S0, S1, S2; fmamk S0, K, S1) is the result, with
 *     its sign and payload and the quiet bit (bit 22) set;
 *   - v_sub_f32 negates S1 before that choice (a NaN S1 comes out with its sign flipped);
 *   - a multiply-add whose product is inf * 0 gives the default NaN 0xffc00000, even with a NaN
 *     addend; every other invalid operation (inf - inf, inf * 0) gives the default NaN too.
 * gfxemu applies the same rule to the ops the sweeps did not cover (v_subrev_f32: S1 - S0, S1
 * the first operand; the packed f32 ops per half; gfx90a's unfused v_mad_f32/v_mac_f32).
 * Before this rule the tiers disagreed: a gfx950 c = a + b over random bits gave src0's NaN in
 * blocks, src1's in the fast handlers and either in the reference tier.
 *
 * Inputs: every triple of 12 values (quiet and signalling NaNs of both signs with payloads,
 * infinities, zeros, numbers, a denormal, the largest float) in v1, v2, v3, and a fourth in v4
 * (the packed ops' high halves), 64 (wave32: 32) lanes a run, full EXEC and, in every third run,
 * a partial one (then no block runs; the off lanes must keep their values).  MODE keeps f32
 * denormals (blocks run only then).  Each tier's result is compared with the model below. */
#include "common/check.h"
#include "common/snippet.h"
#include "exec/exec.h"
#include "exec/jit.h"
#include "isa/fbits.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

typedef uint32_t u32;

/* ---- the model ---------------------------------------------------------------------------- */
#define DEFAULT_NAN 0xffc00000u
static int is_nan(u32 v) { return (v & 0x7fffffffu) > 0x7f800000u; }
static int is_inf(u32 v) { return (v & 0x7fffffffu) == 0x7f800000u; }
static int is_zero(u32 v) { return (v & 0x7fffffffu) == 0; }
static u32 quiet(u32 v) { return v | 0x400000u; }
/* a result computed from non-NaN operands: a NaN there is an invalid operation */
static u32 fin(float r) { return r != r ? DEFAULT_NAN : bf32(r); }
static u32 m_add(u32 a, u32 b) {
    return is_nan(a) ? quiet(a) : is_nan(b) ? quiet(b) : fin(f32(a) + f32(b));
}
static u32 m_mul(u32 a, u32 b) {
    return is_nan(a) ? quiet(a) : is_nan(b) ? quiet(b) : fin(f32(a) * f32(b));
}
static u32 m_sub(u32 a, u32 b) { return m_add(a, b ^ 0x80000000u); }
static u32 m_fma(u32 a, u32 b, u32 c) {
    if (is_nan(a) || is_nan(b))
        return quiet(is_nan(a) ? a : b);
    if ((is_inf(a) && is_zero(b)) || (is_zero(a) && is_inf(b)))
        return DEFAULT_NAN;
    return is_nan(c) ? quiet(c) : fin(fmaf(f32(a), f32(b), f32(c)));
}
/* gfx90a's v_mad_f32: the product rounded, denormals flushed (inputs, product, result) */
static u32 ftz(u32 v) { return (v & 0x7f800000u) ? v : v & 0x80000000u; }
static u32 m_mad(u32 a, u32 b, u32 c) {
    a = ftz(a), b = ftz(b), c = ftz(c);
    u32 p = m_mul(a, b);
    return is_nan(p) ? p : ftz(m_add(ftz(p), c));
}

static const u32 vals[] = {
    0x7fc12345, /* quiet NaN, payload */
    0xffd54321, /* negative quiet NaN */
    0x7f812345, /* signalling NaN */
    0xff800f01, /* negative signalling NaN */
    0x7f800000, 0xff800000, 0x00000000, 0x80000000, 0x3f800000, 0xc0200000, /* -2.5 */
    0x00000003,                                                             /* denormal */
    0x7f7fffff,                                                             /* largest float */
};
enum { NV = sizeof vals / sizeof vals[0], NTRIPLES = NV * NV * NV };

/* one op of a snippet: its destination VGPR (pk: two) and its model on the lane's v1..v4 */
typedef struct {
    const char *name;
    int dst, pk; /* pk: dst holds the low half's result, dst + 1 the high half's */
    u32 (*model)(const u32 *v, int hi);
} check_op;

static u32 o_add(const u32 *v, int hi) { return hi ? m_add(v[2], v[3]) : m_add(v[1], v[2]); }
static u32 o_sub(const u32 *v, int hi) { return (void)hi, m_sub(v[1], v[2]); }
static u32 o_subrev(const u32 *v, int hi) { return (void)hi, m_sub(v[2], v[1]); }
static u32 o_mul(const u32 *v, int hi) { return hi ? m_mul(v[2], v[3]) : m_mul(v[1], v[2]); }
static u32 o_fma(const u32 *v, int hi) {
    return hi ? m_fma(v[2], v[3], v[4]) : m_fma(v[1], v[2], v[3]);
}
static u32 o_mad(const u32 *v, int hi) { return (void)hi, m_mad(v[1], v[2], v[3]); }
/* fmamk v, v1, K, v3 and fmaak v, v1, v2, K with K = 0x7fd00bad (a NaN literal) */
static u32 o_fmamk(const u32 *v, int hi) { return (void)hi, m_fma(v[1], 0x7fd00badu, v[3]); }
static u32 o_fmaak(const u32 *v, int hi) { return (void)hi, m_fma(v[1], v[2], 0x7fd00badu); }
static u32 o_fmaak15(const u32 *v, int hi) { return (void)hi, m_fma(v[1], v[2], 0x3fc00000u); }
static u32 o_fma05(const u32 *v, int hi) { return (void)hi, m_fma(v[1], v[2], 0x3f000000u); }

typedef struct {
    const char *arch;
    unsigned lanes;
    int blocks; /* the snippet has ops native blocks take */
    const char *text;
    check_op ops[16];
} target;

static const target targets[] = {
    {"gfx950",
     64,
     1,
     "v_add_f32_e32 v10, v1, v2\n"
     "v_sub_f32_e32 v11, v1, v2\n"
     "v_subrev_f32_e32 v12, v1, v2\n"
     "v_mul_f32_e32 v13, v1, v2\n"
     "v_fma_f32 v14, v1, v2, v3\n"
     "v_mov_b32_e32 v15, v3\n"
     "v_fmac_f32_e32 v15, v1, v2\n"
     "v_mov_b32_e32 v24, v1\n" /* (aligned pairs: v1 v2, v2 v3, v3 v4) */
     "v_mov_b32_e32 v25, v2\n"
     "v_mov_b32_e32 v26, v2\n"
     "v_mov_b32_e32 v27, v3\n"
     "v_mov_b32_e32 v28, v3\n"
     "v_mov_b32_e32 v29, v4\n"
     "v_pk_add_f32 v[16:17], v[24:25], v[26:27]\n"
     "v_pk_mul_f32 v[18:19], v[24:25], v[26:27]\n"
     "v_pk_fma_f32 v[20:21], v[24:25], v[26:27], v[28:29]\n"
     "v_add_f32_e64 v22, v1, v2\n"
     "s_mov_b64 vcc, 0\n"
     "v_div_fmas_f32 v23, v1, v2, v3\n"
     "v_fma_mix_f32 v30, v1, v2, v3\n", /* (op_sel_hi 0: f32 sources) */
     {{"v_add_f32", 10, 0, o_add},
      {"v_sub_f32", 11, 0, o_sub},
      {"v_subrev_f32", 12, 0, o_subrev},
      {"v_mul_f32", 13, 0, o_mul},
      {"v_fma_f32", 14, 0, o_fma},
      {"v_fmac_f32", 15, 0, o_fma},
      {"v_pk_add_f32", 16, 1, o_add},
      {"v_pk_mul_f32", 18, 1, o_mul},
      {"v_pk_fma_f32", 20, 1, o_fma},
      {"v_add_f32_e64", 22, 0, o_add},
      {"v_div_fmas_f32", 23, 0, o_fma},
      {"v_fma_mix_f32", 30, 0, o_fma}}},
    {"gfx90a",
     64,
     0,
     "v_mad_f32 v10, v1, v2, v3\n"
     "v_mov_b32_e32 v11, v3\n"
     "v_mac_f32_e32 v11, v1, v2\n"
     "v_fma_f32 v12, v1, v2, v3\n",
     {{"v_mad_f32", 10, 0, o_mad}, {"v_mac_f32", 11, 0, o_mad}, {"v_fma_f32", 12, 0, o_fma}}},
    {"gfx1100",
     32,
     1,
     "v_mov_b32_e32 v6, v1\n" /* (the VOPD halves' sources in other banks) */
     "v_mov_b32_e32 v7, v2\n"
     "v_dual_add_f32 v10, v1, v2 :: v_dual_mul_f32 v11, v6, v7\n"
     "v_dual_sub_f32 v12, v1, v2 :: v_dual_subrev_f32 v13, v6, v7\n"
     "v_mov_b32_e32 v14, v3\n"
     "v_dual_fmac_f32 v14, v1, v2 :: v_dual_mov_b32 v15, v3\n"
     "v_fmamk_f32 v16, v1, 0x7fd00bad, v3\n"
     "v_fmaak_f32 v17, v1, v2, 0x7fd00bad\n"
     "v_sub_f32_e32 v18, v1, v2\n"
     "v_fma_f32 v19, v1, v2, v3\n"
     "v_fmaak_f32 v20, v1, v2, 0x3fc00000\n" /* (a constant addend that is no NaN) */
     "v_fma_f32 v21, v1, v2, 0.5\n",
     {{"v_dual_add_f32", 10, 0, o_add},
      {"v_dual_mul_f32", 11, 0, o_mul},
      {"v_dual_sub_f32", 12, 0, o_sub},
      {"v_dual_subrev_f32", 13, 0, o_subrev},
      {"v_dual_fmac_f32", 14, 0, o_fma},
      {"v_fmamk_f32", 16, 0, o_fmamk},
      {"v_fmaak_f32", 17, 0, o_fmaak},
      {"v_sub_f32", 18, 0, o_sub},
      {"v_fma_f32", 19, 0, o_fma},
      {"v_fmaak_f32 (1.5)", 20, 0, o_fmaak15},
      {"v_fma_f32 (0.5)", 21, 0, o_fma05}}},
};

/* The tiers: 0 the reference interpreter, 1 the fast handlers without blocks, 2 blocks in the
 * host's encoding, 3 AVX2 blocks, 4 AVX-512 blocks without AVX-512DQ (3 and 4: AVX-512 hosts) */
static const char *const tier_names[] = {"reference", "fast", "blocks", "blocks-avx2",
                                         "blocks-avx512f"};
static void set_tier(int t) {
    x_set_fast_tier(t != 0);
    x_set_jit(t <= 1 ? 0 : t - 1);
}

static wave *w;

static void run_target(const target *tg, int tier) {
    set_tier(tier);
    uint64_t b0, i0, b1, i1;
    x_jit_counts(&b0, &i0);
    snippet_prog sp = {0};
    int rc = snippet_prog_load_waves(&sp, tg->arch, tg->text, tg->lanes);
    CHECK(rc == 0, "%s: the snippet does not assemble or decode", tg->arch);
    if (rc)
        return;
    x_jit_counts(&b1, &i1);
    if (tier >= 2 && tg->blocks)
        CHECK(i1 - i0 >= 4, "%s %s: blocks cover %llu instructions", tg->arch, tier_names[tier],
              (unsigned long long)(i1 - i0));
    int nops = 0;
    while (nops < 16 && tg->ops[nops].name)
        nops++;
    unsigned bad[16] = {0}, lanes_checked = 0;
    const unsigned L = tg->lanes, rounds = (NTRIPLES + L - 1) / L;
    for (unsigned round = 0; round < 2 * rounds; round++) {
        /* the first pass with all lanes on, the second with a partial EXEC */
        const int partial = round >= rounds;
        const unsigned base = (round % rounds) * L;
        memset(w, 0, sizeof *w);
        w->prog = &sp.prog;
        w->budget = 100;
        w->mode = 0xf0; /* f32/f64 denormals kept */
        uint64_t exec = L == 32 ? 0xffffffffull : ~0ull;
        if (partial)
            exec &= 0x6db6db6db6db6db6ull ^ (uint64_t)round * 0x9e3779b97f4a7c15ull;
        wave_set_exec(w, exec);
        for (unsigned l = 0; l < L; l++) {
            unsigned t = (base + l) % NTRIPLES;
            w->v[1][l] = vals[t % NV];
            w->v[2][l] = vals[t / NV % NV];
            w->v[3][l] = vals[t / (NV * NV)];
            w->v[4][l] = vals[(t * 7 + round) % NV];
            for (int r = 10; r < 32; r++)
                w->v[r][l] = 0xdead0000u + (u32)r;
        }
        wave_run(w);
        CHECK(w->status == WAVE_DONE, "%s %s round %u: status %d", tg->arch, tier_names[tier],
              round, w->status);
        for (unsigned l = 0; l < L; l++) {
            u32 v[5];
            for (int r = 1; r <= 4; r++)
                v[r] = w->v[r][l];
            const int on = (exec >> l) & 1;
            lanes_checked += on;
            for (int k = 0; k < nops; k++) {
                const check_op *o = &tg->ops[k];
                for (int h = 0; h <= o->pk; h++) {
                    u32 got = w->v[o->dst + h][l];
                    u32 want = on ? o->model(v, h) : 0xdead0000u + (u32)(o->dst + h);
                    if (got != want && bad[k]++ < 3)
                        printf("FAIL %s %s %s%s lane %u: %08x %08x %08x %08x: %08x, want "
                               "%08x\n",
                               tg->arch, tier_names[tier], o->name, h ? " (high)" : "", l, v[1],
                               v[2], v[3], v[4], got, want);
                }
            }
        }
    }
    for (int k = 0; k < nops; k++)
        CHECK(bad[k] == 0, "%s %s %s: %u wrong results", tg->arch, tier_names[tier],
              tg->ops[k].name, bad[k]);
    CHECK(lanes_checked > NTRIPLES, "%s: %u lanes checked", tg->arch, lanes_checked);
    snippet_prog_free(&sp);
}

/* ---- f64: the same rule (not measured on hardware; gfxemu carries the f32 one over) ---------- */
typedef uint64_t u64;
#define DEFAULT_NAN64 0xfff8000000000000ull
static int is_nan64(u64 v) { return (v & 0x7fffffffffffffffull) > 0x7ff0000000000000ull; }
static u64 quiet64(u64 v) { return v | 0x8000000000000ull; }
static u64 fin64(double r) { return r != r ? DEFAULT_NAN64 : bf64(r); }
static u64 m_add64(u64 a, u64 b) {
    return is_nan64(a) ? quiet64(a) : is_nan64(b) ? quiet64(b) : fin64(f64(a) + f64(b));
}
static u64 m_mul64(u64 a, u64 b) {
    return is_nan64(a) ? quiet64(a) : is_nan64(b) ? quiet64(b) : fin64(f64(a) * f64(b));
}
static u64 m_fma64(u64 a, u64 b, u64 c) {
    if (is_nan64(a) || is_nan64(b))
        return quiet64(is_nan64(a) ? a : b);
    u64 ma = a << 1, mb = b << 1; /* magnitudes */
    if ((ma == 0xffe0000000000000ull && mb == 0) || (ma == 0 && mb == 0xffe0000000000000ull))
        return DEFAULT_NAN64;
    return is_nan64(c) ? quiet64(c) : fin64(fma(f64(a), f64(b), f64(c)));
}
static const u64 vals64[] = {0x7ff8000012345678ull,
                             0xfff9abcdef000001ull,
                             0x7ff0000000000123ull,
                             0xfff4000000000001ull,
                             0x7ff0000000000000ull,
                             0xfff0000000000000ull,
                             0,
                             0x8000000000000000ull,
                             0x3ff0000000000000ull,
                             0xc004000000000000ull,
                             3,
                             0x7fefffffffffffffull};
enum { NV64 = sizeof vals64 / sizeof vals64[0], NT64 = NV64 * NV64 * NV64 };

/* v_add_f64 (and with S1 negated), v_mul_f64, v_fma_f64 on a = v[40:41], b = v[42:43],
 * c = v[44:45], into v[30:37] */
static void run_f64(const char *arch, unsigned L, int tier) {
    set_tier(tier);
    snippet_prog sp = {0};
    const char *text = "v_add_f64 v[30:31], v[40:41], v[42:43]\n"
                       "v_add_f64 v[32:33], v[40:41], -v[42:43]\n"
                       "v_mul_f64 v[34:35], v[40:41], v[42:43]\n"
                       "v_fma_f64 v[36:37], v[40:41], v[42:43], v[44:45]\n";
    int rc = snippet_prog_load_waves(&sp, arch, text, L);
    CHECK(rc == 0, "%s: the f64 snippet does not assemble or decode", arch);
    if (rc)
        return;
    static const char *const names[] = {"v_add_f64", "v_add_f64 (-S1)", "v_mul_f64", "v_fma_f64"};
    unsigned bad[4] = {0};
    for (unsigned base = 0; base < NT64; base += L) {
        memset(w, 0, sizeof *w);
        w->prog = &sp.prog;
        w->budget = 100;
        w->mode = 0xf0;
        wave_set_exec(w, L == 32 ? 0xffffffffull : ~0ull);
        for (unsigned l = 0; l < L; l++) {
            unsigned t = (base + l) % NT64;
            u64 v[3] = {vals64[t % NV64], vals64[t / NV64 % NV64], vals64[t / (NV64 * NV64)]};
            for (int i = 0; i < 3; i++)
                w->v[40 + 2 * i][l] = (u32)v[i], w->v[41 + 2 * i][l] = (u32)(v[i] >> 32);
        }
        wave_run(w);
        CHECK(w->status == WAVE_DONE, "%s f64 %s: status %d", arch, tier_names[tier], w->status);
        for (unsigned l = 0; l < L; l++) {
            u64 a = w->v[40][l] | (u64)w->v[41][l] << 32, b = w->v[42][l] | (u64)w->v[43][l] << 32,
                c = w->v[44][l] | (u64)w->v[45][l] << 32;
            u64 want[4] = {m_add64(a, b), m_add64(a, b ^ 0x8000000000000000ull), m_mul64(a, b),
                           m_fma64(a, b, c)};
            for (int k = 0; k < 4; k++) {
                u64 got = w->v[30 + 2 * k][l] | (u64)w->v[31 + 2 * k][l] << 32;
                if (got != want[k] && bad[k]++ < 3)
                    printf(
                        "FAIL %s %s %s lane %u: %016llx %016llx %016llx: %016llx, want %016llx\n",
                        arch, tier_names[tier], names[k], l, (unsigned long long)a,
                        (unsigned long long)b, (unsigned long long)c, (unsigned long long)got,
                        (unsigned long long)want[k]);
            }
        }
    }
    for (int k = 0; k < 4; k++)
        CHECK(bad[k] == 0, "%s %s %s: %u wrong results", arch, tier_names[tier], names[k], bad[k]);
    snippet_prog_free(&sp);
}

/* ---- f16: the same rule (not measured on hardware; gfxemu carries the f32 one over) ---------
 * The model gives the NaN results only: -1 where the result is no NaN (f16 rounding has tests of
 * its own); there the result must not be a NaN. */
static int is_nan16(u32 h) { return (h & 0x7fffu) > 0x7c00u; }
static double h2d_(u32 h) {
    int e = (int)(h >> 10 & 31), m = (int)(h & 0x3ff);
    double v = e == 31 ? (m ? NAN : INFINITY) : e ? ldexp(1024 + m, e - 25) : ldexp(m, -24);
    return h & 0x8000 ? -v : v;
}
/* add 1: a + b (c unused); 0: a * b + c; 2: the same with the product rounded to f16 (v_mad_f16:
 * then an overflow to infinity may meet an infinite c) */
static long m16_fma(u32 a, u32 b, u32 c, int add) {
    if (is_nan16(a) || is_nan16(b))
        return (is_nan16(a) ? a : b) | 0x200u;
    double x = h2d_(a), y = h2d_(b), p = add == 1 ? x : x * y;
    if (p != p)
        return 0xfe00; /* inf * 0 */
    if (add == 2 && fabs(p) >= 65520.0)
        p = p < 0 ? -INFINITY : INFINITY;
    add = add == 1;
    if (!add && is_nan16(c))
        return c | 0x200u;
    double r = add ? x + y : p + h2d_(c);
    return r != r ? 0xfe00 : -1;
}
static const u32 vals16[] = {0x7e12, 0xfe34, 0x7c56, 0xfc01, 0x7c00, 0xfc00,
                             0x0000, 0x8000, 0x3c00, 0xc100, 0x0003, 0x7bff};
enum { NV16 = sizeof vals16 / sizeof vals16[0], NT16 = NV16 * NV16 * NV16 };

/* v1 = a | c << 16, v2 = b | a << 16, v3 = c | b << 16: the scalar ops read the low halves, the
 * packed ones both (high: c, a, b) */
static void run_f16(const char *arch, unsigned L, int tier, const char *text, int nops,
                    const char *const *names, const int *kind, int directed) {
    set_tier(tier);
    snippet_prog sp = {0};
    int rc = snippet_prog_load_waves(&sp, arch, text, L);
    CHECK(rc == 0, "%s: the f16 snippet does not assemble or decode", arch);
    if (rc)
        return;
    unsigned bad[8] = {0};
    /* each triple in the default rounding mode, then (directed) rounding f16 results toward +inf
     * (MODE[3:2] = 1: round.c's handlers) */
    for (unsigned base = 0; base < (directed ? 2 : 1) * NT16; base += L) {
        memset(w, 0, sizeof *w);
        w->prog = &sp.prog;
        w->budget = 100;
        w->mode = base < NT16 ? 0xf0 : 0xf4;
        wave_set_exec(w, L == 32 ? 0xffffffffull : ~0ull);
        for (unsigned l = 0; l < L; l++) {
            unsigned t = (base + l) % NT16;
            u32 a = vals16[t % NV16], b = vals16[t / NV16 % NV16], c = vals16[t / (NV16 * NV16)];
            w->v[1][l] = a | c << 16, w->v[2][l] = b | a << 16, w->v[3][l] = c | b << 16;
        }
        wave_run(w);
        CHECK(w->status == WAVE_DONE, "%s f16 %s: status %d at pc %u (%s)", arch, tier_names[tier],
              w->status, w->fault.pc, w->fault.note ? w->fault.note : "");
        for (unsigned l = 0; l < L; l++) {
            u32 a = w->v[1][l] & 0xffff, b = w->v[2][l] & 0xffff, c = w->v[3][l] & 0xffff;
            for (int k = 0; k < nops; k++)
                for (int h = 0; h < (kind[k] & 4 ? 2 : 1); h++) {
                    u32 x = h ? c : a, y = h ? a : b, z = h ? b : c;
                    int kk = kind[k] & 3; /* 0 add, 1 sub, 2 mul, 3 fma (+ 8 unfused) */
                    long want = kk == 3   ? m16_fma(x, y, z, kind[k] & 8 ? 2 : 0)
                                : kk == 2 ? m16_fma(x, y, 0, 0)
                                          : m16_fma(x, kk ? y ^ 0x8000u : y, 0, 1);
                    u32 got = (w->v[10 + k][l] >> (16 * h)) & 0xffff;
                    if (want < 0 ? is_nan16(got) : got != (u32)want)
                        if (bad[k]++ < 3)
                            printf("FAIL %s %s %s%s lane %u: %04x %04x %04x: %04x, want %04lx\n",
                                   arch, tier_names[tier], names[k], h ? " (high)" : "", l, x, y, z,
                                   got, want < 0 ? 0 : (unsigned long)want);
                }
        }
    }
    for (int k = 0; k < nops; k++)
        CHECK(bad[k] == 0, "%s %s %s: %u wrong results", arch, tier_names[tier], names[k], bad[k]);
    snippet_prog_free(&sp);
}
static void run_f16_targets(int tier) {
    /* kind: 0 add, 1 sub, 2 mul, 3 fma; + 4 packed (both halves); + 8 unfused */
    static const char *const n9[] = {"v_add_f16",    "v_sub_f16",    "v_mul_f16",   "v_fma_f16",
                                     "v_pk_add_f16", "v_pk_mul_f16", "v_pk_fma_f16"};
    static const int k9[] = {0, 1, 2, 3, 4, 6, 7};
    run_f16("gfx950", 64, tier,
            "v_add_f16_e32 v10, v1, v2\n"
            "v_sub_f16_e32 v11, v1, v2\n"
            "v_mul_f16_e32 v12, v1, v2\n"
            "v_fma_f16 v13, v1, v2, v3\n"
            "v_pk_add_f16 v14, v1, v2\n"
            "v_pk_mul_f16 v15, v1, v2\n"
            "v_pk_fma_f16 v16, v1, v2, v3\n",
            7, n9, k9, 1);
    /* (the unfused v_mad_f16 has no directed-rounding handler: that mode stops it) */
    static const char *const nmad[] = {"v_mad_f16"};
    static const int kmad[] = {11};
    run_f16("gfx950", 64, tier, "v_mad_f16 v10, v1, v2, v3\n", 1, nmad, kmad, 0);
    static const char *const n11[] = {"v_add_f16",   "v_subrev_f16 (S1 - S0)", "v_mul_f16",
                                      "v_fma_f16",   "v_pk_add_f16",           "v_pk_fma_f16",
                                      "v_pk_mul_f16"};
    static const int k11[] = {0, 1, 2, 3, 4, 7, 6};
    /* (v_subrev_f16 v11, v2, v1 is v1 - v2: the model's sub) */
    run_f16("gfx1100", 32, tier,
            "v_add_f16_e32 v10, v1, v2\n"
            "v_subrev_f16_e32 v11, v2, v1\n"
            "v_mul_f16_e32 v12, v1, v2\n"
            "v_fma_f16 v13, v1, v2, v3\n"
            "v_pk_add_f16 v14, v1, v2\n"
            "v_pk_fma_f16 v15, v1, v2, v3\n"
            "v_pk_mul_f16 v16, v1, v2\n",
            7, n11, k11, 1);
    /* (nor has RDNA's v_fmac_f16) */
    static const char *const nfmac[] = {"v_fmac_f16"};
    static const int kfmac[] = {3};
    run_f16("gfx1100", 32, tier, "v_mov_b32_e32 v10, v3\nv_fmac_f16_e32 v10, v1, v2\n", 1, nfmac,
            kfmac, 0);
}

/* gfx12's scalar float ops (the same rule, valu.h hw_*): every pair / triple, one run each */
static void run_salu(int tier) {
    set_tier(tier);
    snippet_prog sp = {0};
    const char *text = "s_add_f32 s10, s1, s2\n"
                       "s_sub_f32 s11, s1, s2\n"
                       "s_mul_f32 s12, s1, s2\n"
                       "s_mov_b32 s13, s3\n"
                       "s_fmac_f32 s13, s1, s2\n"
                       "s_fmaak_f32 s14, s1, s2, 0x7fd00bad\n";
    int rc = snippet_prog_load_waves(&sp, "gfx1201", text, 32);
    CHECK(rc == 0, "gfx1201: the scalar snippet does not assemble or decode");
    if (rc)
        return;
    static const char *const names[] = {"s_add_f32", "s_sub_f32", "s_mul_f32", "s_fmac_f32",
                                        "s_fmaak_f32"};
    unsigned bad[5] = {0};
    for (unsigned t = 0; t < NTRIPLES; t++) {
        memset(w, 0, sizeof *w);
        w->prog = &sp.prog;
        w->budget = 100;
        w->mode = 0xf0;
        wave_set_exec(w, 0xffffffffull);
        u32 a = vals[t % NV], b = vals[t / NV % NV], c = vals[t / (NV * NV)];
        w->s[1] = a, w->s[2] = b, w->s[3] = c;
        wave_run(w);
        CHECK(w->status == WAVE_DONE, "gfx1201 scalar %s: status %d", tier_names[tier], w->status);
        u32 want[5] = {m_add(a, b), m_sub(a, b), m_mul(a, b), m_fma(a, b, c),
                       m_fma(a, b, 0x7fd00badu)};
        for (int k = 0; k < 5; k++)
            if (w->s[10 + k] != want[k] && bad[k]++ < 3)
                printf("FAIL gfx1201 %s %s: %08x %08x %08x: %08x, want %08x\n", tier_names[tier],
                       names[k], a, b, c, w->s[10 + k], want[k]);
    }
    for (int k = 0; k < 5; k++)
        CHECK(bad[k] == 0, "gfx1201 %s %s: %u wrong results", tier_names[tier], names[k], bad[k]);
    snippet_prog_free(&sp);
}

int main(void) {
    w = malloc(sizeof *w);
    const int ntiers = !x_jit_host() ? 2 : x_jit_host() == 2 ? 5 : 3;
    for (size_t i = 0; i < sizeof targets / sizeof targets[0]; i++)
        for (int t = 0; t < ntiers; t++)
            run_target(&targets[i], t);
    for (int t = 0; t < 2; t++) {
        run_f64("gfx950", 64, t);
        run_f64("gfx1100", 32, t);
        run_salu(t);
        run_f16_targets(t);
    }
    free(w);
    return check_summary("nan_rule");
}
