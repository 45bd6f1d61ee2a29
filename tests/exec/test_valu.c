/* test_valu.c - VALU semantics on snippets assembled by llvm-mc-22, run on one wave.
 *
 * Expected values come from C reference formulas evaluated here or from constants worked out by
 * hand from the CDNA3/CDNA4 ISA manual; never from gfxemu output.  The cases run on gfx950,
 * gfx942 and gfx90a (CDNA2: the same semantics for the ops it has; those it lacks are left out
 * there).  Every case also checks that lanes outside EXEC keep their old value where that
 * matters. */
#include "common/bits.h"
#include "common/asm.h"
#include "common/check.h"
#include "common/snippet.h"
#include "exec/exec.h"
#include "exec/jit.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

typedef uint32_t u32;
typedef uint64_t u64;

static const char *ARCH;
static isa_arch IA;
static wave *W;
static snippet_prog SP;
static int fails, checks;
static const char *CUR;

#define MODE_DEFAULT 0x3f0u /* f32/f64/f16 denormals kept, DX10_CLAMP, IEEE (clang-22 rsrc1) */

/* Assemble text (+ s_endpgm) and reset the wave: all lanes on, default MODE, registers 0. */
static int load(const char *text) {
    CUR = text;
    checks++;
    if (snippet_prog_load(&SP, ARCH, text) != 0) {
        printf("FAIL %s [%s]: does not assemble/build\n", ARCH, text);
        fails++;
        return 0;
    }
    memset(W, 0, sizeof *W);
    W->prog = &SP.prog;
    W->budget = 100000;
    W->mode = MODE_DEFAULT;
    wave_set_exec(W, ~0ull);
    return 1;
}
static int run(void) {
    wave_run(W);
    if (W->status != WAVE_DONE) {
        printf("FAIL %s [%s]: status %d fault kind %d op %s at pc %u\n", ARCH, CUR, W->status,
               W->fault.kind, isa_op_names[W->fault.op], W->fault.pc);
        fails++;
        return 0;
    }
    return 1;
}
static void expect(int ok, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
#include <stdarg.h>
static void expect(int ok, const char *fmt, ...) {
    checks++;
    if (ok)
        return;
    va_list ap;
    va_start(ap, fmt);
    check_vprint_fail(ARCH, CUR, fmt, ap);
    va_end(ap);
    fails++;
}
static void ev(int r, int lane, u32 want) {
    expect(W->v[r][lane] == want, "v%d[%d] = 0x%08x, want 0x%08x", r, lane, W->v[r][lane], want);
}
static void es(int r, u32 want) {
    expect(W->s[r] == want, "s%d = 0x%08x, want 0x%08x", r, W->s[r], want);
}
static void es64(int r, u64 want) {
    u64 got = W->s[r] | (u64)W->s[r + 1] << 32;
    expect(got == want, "s[%d:%d] = 0x%016llx, want 0x%016llx", r, r + 1, (unsigned long long)got,
           (unsigned long long)want);
}
static void set_all(int r, u32 v) {
    for (int l = 0; l < 64; l++)
        W->v[r][l] = v;
}
static void set64(int r, int lane, u64 v) {
    W->v[r][lane] = (u32)v;
    W->v[r + 1][lane] = (u32)(v >> 32);
}
static u64 get64(int r, int lane) { return W->v[r][lane] | (u64)W->v[r + 1][lane] << 32; }

/* ---- f32 arithmetic over a table of special values, lanes pair them up ---------------------- */

static const u32 SPECIAL[] = {
    0x00000000, 0x80000000, 0x3f800000, 0xbf800000, 0x7f800000, 0xff800000, 0x7fc00000,
    0x00000001, 0x807fffff, 0x00800000, 0x7f7fffff, 0xff7fffff, 0x3eaaaaab, 0x40490fdb,
    0x4b000001, 0xcb800000, 0x1e3ce508, 0x5f5e1000, 0x34000000, 0xb3800000,
};
#define NSPECIAL (sizeof SPECIAL / sizeof SPECIAL[0])
static u32 spec_a(int l) { return SPECIAL[l % NSPECIAL]; }
static u32 spec_b(int l) { return SPECIAL[(l * 7 + 3) % NSPECIAL]; }
static u32 spec_c(int l) { return SPECIAL[(l * 11 + 5) % NSPECIAL]; }
static int same_f32(u32 got, u32 want) {
    if (from_bits32(want) !=
        from_bits32(want)) /* any NaN matches: hardware NaN payloads are not modelled */
        return from_bits32(got) != from_bits32(got);
    return got == want;
}

static void test_f32_binary(void) {
    static const struct {
        const char *text;
        int op;
    } ops[] = {{"v_add_f32_e32 v2, v0, v1", 0},    {"v_sub_f32_e32 v2, v0, v1", 1},
               {"v_subrev_f32_e32 v2, v0, v1", 2}, {"v_mul_f32_e32 v2, v0, v1", 3},
               {"v_fma_f32 v2, v0, v1, v3", 4},    {"v_fmac_f32_e32 v2, v0, v1", 5}};
    for (size_t k = 0; k < sizeof ops / sizeof ops[0]; k++) {
        if (!load(ops[k].text))
            continue;
        for (int l = 0; l < 64; l++) {
            W->v[0][l] = spec_a(l);
            W->v[1][l] = spec_b(l);
            W->v[3][l] = spec_c(l);
            W->v[2][l] = spec_c(l); /* fmac accumulator */
        }
        wave_set_exec(W, 0xfffffffffffffff7ull); /* lane 3 off */
        if (!run())
            continue;
        for (int l = 0; l < 64; l++) {
            float a = from_bits32(spec_a(l)), b = from_bits32(spec_b(l)),
                  c = from_bits32(spec_c(l)), r;
            switch (ops[k].op) {
            case 0: r = a + b; break;
            case 1: r = a - b; break;
            case 2: r = b - a; break;
            case 3: r = a * b; break;
            default: r = fmaf(a, b, c); break;
            }
            u32 want = l == 3 ? spec_c(l) : bits32(r);
            expect(same_f32(W->v[2][l], want), "lane %d: %08x op %08x = %08x, want %08x", l,
                   spec_a(l), spec_b(l), W->v[2][l], want);
        }
    }
}

/* Fused multiply-add rounds once: 1 + 2^-24 times 1 + 2^-24 minus 1 needs the exact product. */
static void test_fma_single_rounding(void) {
    if (!load("v_fma_f32 v2, v0, v0, v1"))
        return;
    set_all(0, 0x3f800800); /* 1 + 2^-12 */
    set_all(1, 0xbf800000); /* -1 */
    if (!run())
        return;
    /* (1 + 2^-12)^2 - 1 = 2^-11 + 2^-24 exactly (0x3a000400); rounding the product first
     * would lose the 2^-24 (a tie to even) and give 0x3a000000 */
    ev(2, 0, 0x3a000400);
}

/* ---- inline constants and literals ----------------------------------------------------------- */

static void test_constants(void) {
    if (load("v_mov_b32_e32 v1, 0.15915494\nv_mov_b32_e32 v2, -4.0\nv_mov_b32_e32 v3, -16\n"
             "v_mov_b32_e32 v4, 0x12345678\nv_add_f32_e32 v5, 0.5, v0\nv_mov_b32_e32 v6, 64") &&
        run()) {
        ev(1, 0, 0x3e22f983); /* 1/(2*pi) */
        ev(2, 5, 0xc0800000);
        ev(3, 9, 0xfffffff0);
        ev(4, 63, 0x12345678);
        ev(5, 1, 0x3f000000); /* 0.5 + 0 */
        ev(6, 2, 64);
    }
    /* f64 operands: inline 1.0 is the f64 value; 1/(2*pi) as f64 */
    if (load("v_add_f64 v[2:3], 1.0, v[0:1]\nv_mul_f64 v[4:5], 0.15915494309189532, v[0:1]")) {
        for (int l = 0; l < 64; l++)
            set64(0, l, bits64(2.0));
        if (run()) {
            expect(get64(2, 7) == bits64(3.0), "f64 1.0 + 2.0 = %016llx",
                   (unsigned long long)get64(2, 7));
            expect(
                get64(4, 7) ==
                    bits64(2 * from_bits64(0x3fc45f306dc9c882ull)), /* inline 1/(2pi), f64 form */
                "f64 inv2pi*2 = %016llx", (unsigned long long)get64(4, 7));
        }
    }
    /* SGPR broadcast and a literal in VOP3 (gfx950 only has VOP3 literals) */
    if (load("v_add_f32_e32 v2, s4, v0")) {
        W->s[4] = 0x40400000; /* 3 */
        set_all(0, 0x3f800000);
        if (run())
            ev(2, 33, 0x40800000);
    }
}

/* ---- VOP3 modifiers ------------------------------------------------------------------------ */

static void test_modifiers(void) {
    if (load("v_add_f32_e64 v2, -v0, |v1|\nv_mul_f32_e64 v3, v0, v1 mul:2\n"
             "v_mul_f32_e64 v4, v0, v1 div:2\nv_add_f32_e64 v5, v0, v1 clamp\n"
             "v_add_f32_e64 v6, -|v1|, v0 clamp mul:4\nv_max_f32_e64 v7, v8, v8 clamp")) {
        set_all(0, 0x40000000); /* 2 */
        set_all(1, 0xc0400000); /* -3 */
        set_all(8, 0x7fc00000); /* NaN: clamp gives 0 under DX10_CLAMP */
        W->mode &= ~(1u << 9);  /* omod applies only without MODE.IEEE */
        if (run()) {
            ev(2, 0, 0x3f800000); /* -2 + 3 = 1 */
            ev(3, 0, 0xc1400000); /* 2 * -3 * 2 = -12 */
            ev(4, 0, 0xc0400000); /* 2 * -3 / 2 = -3 */
            ev(5, 0, 0x00000000); /* clamp(-1) = 0 */
            ev(6, 0, 0x00000000); /* (-3 + 2) * 4 = -4 -> 0 */
            ev(7, 0, 0x00000000);
        }
    }
    /* MODE.IEEE set (clang's default): the hardware ignores omod, clamp still applies (LLVM folds
     * omod only without IEEE mode; hardware value on RDNA3, tinygrad test/amd/hw
     * test_omod_ignored: v_add_f32 3 + 1 mul:2 = 4) */
    if (load("v_add_f32_e64 v2, v0, v1 mul:2\nv_mul_f64 v[4:5], v[6:7], v[6:7] div:2\n"
             "v_add_f32_e64 v8, v0, v1 clamp mul:4")) {
        set_all(0, 0x40400000); /* 3 */
        set_all(1, 0x3f800000); /* 1 */
        set_all(6, 0);
        set_all(7, 0x40080000); /* 3.0 */
        if (run()) {
            ev(2, 0, 0x40800000); /* 4, not 8 */
            ev(4, 0, 0x00000000);
            ev(5, 0, 0x40220000); /* 9, not 4.5 */
            ev(8, 0, 0x3f800000); /* clamp(4) = 1 */
        }
    }
    if (load("v_add_f16_e64 v3, v0, v1 mul:4")) {
        set_all(0, 0x4200); /* f16 3 */
        set_all(1, 0x3c00); /* f16 1 */
        if (run())
            ev(3, 0, 0x4400); /* f16 4, not 16 */
    }
    if (load("v_add_f32_e64 v5, v0, v1 clamp")) {
        set_all(0, 0x3f000000);
        set_all(1, 0x3f400000); /* 0.5 + 0.75 = 1.25 -> 1 */
        if (run())
            ev(5, 0, 0x3f800000);
    }
}

/* ---- min/max and special values ----------------------------------------------------------- */

static void test_minmax(void) {
    if (!load("v_max_f32_e32 v2, v0, v1\nv_min_f32_e32 v3, v0, v1\nv_med3_f32 v4, v0, v1, v5"))
        return;
    u32 a[] = {0x7fc00000, 0x3f800000, 0x80000000, 0x00000000, 0x7fa00000, 0xff800000};
    u32 b[] = {0x3f800000, 0x7fc00000, 0x00000000, 0x80000000, 0x40000000, 0x7f800000};
    for (int l = 0; l < 6; l++) {
        W->v[0][l] = a[l];
        W->v[1][l] = b[l];
        W->v[5][l] = 0x40400000; /* 3 */
    }
    if (!run())
        return;
    ev(2, 0, 0x3f800000); /* max(qNaN, 1) = 1 */
    ev(3, 1, 0x3f800000); /* min(1, qNaN) = 1 */
    ev(2, 2, 0x00000000); /* max(-0, +0) = +0 */
    ev(3, 2, 0x80000000); /* min(-0, +0) = -0 */
    ev(2, 3, 0x00000000);
    ev(3, 3, 0x80000000);
    ev(2, 4, 0x7fe00000); /* IEEE mode: sNaN input gives the quieted NaN */
    ev(2, 5, 0x7f800000);
    ev(3, 5, 0xff800000);
    ev(4, 1, 0x3f800000); /* med3 with a NaN = min3 = min(min(1, NaN), 3) = 1 */
    ev(4, 5, 0x40400000); /* med3(-inf, inf, 3) = 3 */
    /* The same rules through the general path (source modifiers), on the modified values */
    if (!load("v_max_f32_e64 v6, |v0|, v1\nv_min_f32_e64 v7, -v0, v1"))
        return;
    for (int l = 0; l < 6; l++) {
        W->v[0][l] = a[l];
        W->v[1][l] = l == 4 ? 0x40000000 : b[l];
    }
    if (!run())
        return;
    ev(6, 0, 0x3f800000); /* max(|qNaN|, 1) = 1 */
    ev(7, 0, 0x3f800000); /* min(-qNaN, 1) = 1 */
    ev(6, 1, 0x3f800000); /* max(1, qNaN) = 1 */
    ev(7, 1, 0xbf800000); /* min(-1, qNaN) = -1 */
    ev(6, 2, 0x00000000); /* max(|-0|, +0) = +0 */
    ev(7, 2, 0x00000000); /* min(-(-0), +0) = +0 */
    ev(6, 3, 0x00000000); /* max(|+0|, -0) = +0 */
    ev(7, 3, 0x80000000); /* min(-(+0), -0) = -0 */
    ev(6, 4, 0x7fe00000); /* max(|sNaN|, 2): the sNaN quieted */
    ev(7, 4, 0xffe00000); /* min(-sNaN, 2): the negated sNaN quieted */
    ev(6, 5, 0x7f800000); /* max(|-inf|, inf) = inf */
    ev(7, 5, 0x7f800000); /* min(-(-inf), inf) = inf */
}

/* min/max of f32, f16 (one, packed and three operands) and f64 on the same eight cases: a quiet
 * NaN either side (the other operand), -0/+0 both ways, a signalling NaN either side (IEEE mode:
 * quieted; else the other operand), -inf/+inf, two quiet NaNs (the second).  Every lane (case
 * l % 8), with the native blocks off and
 * on, MODE.IEEE set and clear, all lanes and every other lane (the rest keep their values): the
 * handlers' lane loops are vectorized selects, whose every rule and lane count this checks. */
static void test_minmax_formats(void) {
    enum { N = 8 };
    static const u32 fa[N] = {0x7fc00000, 0x3f800000, 0x80000000, 0,
                              0x7fa00000, 0xff800000, 0x7fc00001, 0x40000000},
                     fb[N] = {0x3f800000, 0x7fc00000, 0,          0x80000000,
                              0x40000000, 0x7f800000, 0xffc00002, 0x7fa00000},
                     fmax[N] = {0x3f800000, 0x3f800000, 0,          0,
                                0x7fe00000, 0x7f800000, 0xffc00002, 0x7fe00000},
                     fmin[N] = {0x3f800000, 0x3f800000, 0x80000000, 0x80000000,
                                0x7fe00000, 0xff800000, 0xffc00002, 0x7fe00000};
    static const u32 ha[N] = {0x7e00, 0x3c00, 0x8000, 0, 0x7d00, 0xfc00, 0x7e01, 0x4000},
                     hb[N] = {0x3c00, 0x7e00, 0, 0x8000, 0x4000, 0x7c00, 0xfe02, 0x7d00},
                     hmax[N] = {0x3c00, 0x3c00, 0, 0, 0x7f00, 0x7c00, 0xfe02, 0x7f00},
                     hmin[N] = {0x3c00, 0x3c00, 0x8000, 0x8000, 0x7f00, 0xfc00, 0xfe02, 0x7f00};
    static const u64 da[N] = {0x7ff8000000000000ull, 0x3ff0000000000000ull,
                              0x8000000000000000ull, 0,
                              0x7ff4000000000000ull, 0xfff0000000000000ull,
                              0x7ff8000000000001ull, 0x4000000000000000ull},
                     db[N] = {0x3ff0000000000000ull, 0x7ff8000000000000ull, 0,
                              0x8000000000000000ull, 0x4000000000000000ull, 0x7ff0000000000000ull,
                              0xfff8000000000002ull, 0x7ff4000000000000ull},
                     dmax[N] = {0x3ff0000000000000ull,
                                0x3ff0000000000000ull,
                                0,
                                0,
                                0x7ffc000000000000ull,
                                0x7ff0000000000000ull,
                                0xfff8000000000002ull,
                                0x7ffc000000000000ull},
                     dmin[N] = {0x3ff0000000000000ull, 0x3ff0000000000000ull, 0x8000000000000000ull,
                                0x8000000000000000ull, 0x7ffc000000000000ull, 0xfff0000000000000ull,
                                0xfff8000000000002ull, 0x7ffc000000000000ull};
    for (int k = 0; k < 8; k++) {
        const int jit = k & 1, ieee = !(k & 2), half = k >> 2;
        if (!load("v_max_f32_e32 v2, v0, v1\nv_min_f32_e32 v3, v0, v1\n"
                  "v_max_f16_e32 v4, v10, v11\nv_min_f16_e32 v5, v10, v11\n"
                  "v_pk_max_f16 v6, v12, v13\nv_max3_f16 v7, v10, v11, v14\n"
                  "v_max_f64 v[16:17], v[20:21], v[22:23]\nv_min_f64 v[18:19], v[20:21], v[22:23]"))
            return;
        if (!ieee)
            W->mode &= ~MODE_IEEE;
        const u64 exec = half ? 0x5555555555555555ull : ~0ull;
        wave_set_exec(W, exec);
        for (int l = 0; l < 64; l++) {
            const int i = l % N, j = (l + 1) % N;
            W->v[0][l] = fa[i], W->v[1][l] = fb[i];
            W->v[10][l] = ha[i], W->v[11][l] = hb[i], W->v[14][l] = 0xc000; /* -2 */
            W->v[12][l] = ha[i] | ha[j] << 16, W->v[13][l] = hb[i] | hb[j] << 16;
            W->v[20][l] = (u32)da[i], W->v[21][l] = (u32)(da[i] >> 32);
            W->v[22][l] = (u32)db[i], W->v[23][l] = (u32)(db[i] >> 32);
            for (int r = 2; r < 8; r++)
                W->v[r][l] = 0xdead0000u + (u32)r;
            for (int r = 16; r < 20; r++)
                W->v[r][l] = 0xdead0000u + (u32)r;
        }
        x_set_jit(jit);
        int ok = run();
        x_set_jit(1);
        if (!ok)
            return;
        int bad = 0;
        for (int l = 0; l < 64 && bad < 4; l++) {
            const int i = l % N, j = (l + 1) % N, on = (int)(exec >> l & 1);
            const int sn = (i == 4 || i == 7) && !ieee, snj = (j == 4 || j == 7) && !ieee;
            /* without IEEE a signalling NaN is an ordinary NaN: the other operand (2) */
            u32 fx = sn ? 0x40000000 : fmax[i], fn = sn ? 0x40000000 : fmin[i];
            u32 hx = sn ? 0x4000 : hmax[i], hn = sn ? 0x4000 : hmin[i];
            u32 hxj = snj ? 0x4000 : hmax[j];
            /* max3(a, b, -2) = max(max(a, b), -2): a quieted NaN gives the other operand */
            u32 h3 = (hx & 0x7fff) > 0x7c00 ? 0xc000 : hx;
            u64 dx = sn ? 0x4000000000000000ull : dmax[i],
                dn = sn ? 0x4000000000000000ull : dmin[i];
            struct {
                int r;
                u32 got, want, mask;
            } c[] = {{2, W->v[2][l], fx, ~0u},
                     {3, W->v[3][l], fn, ~0u},
                     {4, W->v[4][l], hx, 0xffff},
                     {5, W->v[5][l], hn, 0xffff},
                     {6, W->v[6][l], hx | hxj << 16, ~0u},
                     {7, W->v[7][l], h3, 0xffff},
                     {16, W->v[16][l], (u32)dx, ~0u},
                     {17, W->v[17][l], (u32)(dx >> 32), ~0u},
                     {18, W->v[18][l], (u32)dn, ~0u},
                     {19, W->v[19][l], (u32)(dn >> 32), ~0u}};
            for (size_t n = 0; n < sizeof c / sizeof c[0]; n++) {
                u32 want = on ? c[n].want : 0xdead0000u + (u32)c[n].r, mask = on ? c[n].mask : ~0u;
                if ((c[n].got & mask) != (want & mask)) {
                    expect(0, "blocks %d, IEEE %d, EXEC 0x%016llx: v%d[%d] = 0x%08x, want 0x%08x",
                           jit, ieee, (unsigned long long)exec, c[n].r, l, c[n].got, want);
                    bad++;
                }
            }
        }
        expect(bad == 0, "min/max cases (blocks %d, IEEE %d)", jit, ieee);
    }
}

static void test_transcendental(void) {
    if (!load("v_sqrt_f32_e32 v1, v0\nv_rcp_f32_e32 v2, v0\nv_log_f32_e32 v3, v0\n"
              "v_exp_f32_e32 v4, v0\nv_rsq_f32_e32 v5, v0\nv_sin_f32_e32 v6, v0\n"
              "v_cos_f32_e32 v7, v0\nv_fract_f32_e32 v8, v0\nv_frexp_mant_f32_e32 v9, v0\n"
              "v_frexp_exp_i32_f32_e32 v10, v0\nv_trunc_f32_e32 v11, v0\n"
              "v_rndne_f32_e32 v12, v0\nv_floor_f32_e32 v13, v0\nv_ceil_f32_e32 v14, v0"))
        return;
    u32 in[] = {0x80000000, 0x00000000, 0x40800000, 0xff800000, 0x3e800000,
                0x3f000000, 0xc0200000, 0x00000001, 0xb2000000};
    for (int l = 0; l < 9; l++)
        W->v[0][l] = in[l];
    if (!run())
        return;
    ev(1, 0, 0x80000000); /* sqrt(-0) = -0 */
    ev(2, 0, 0xff800000); /* rcp(-0) = -inf */
    ev(2, 1, 0x7f800000);
    ev(3, 1, 0xff800000); /* log2(0) = -inf */
    ev(1, 2, 0x40000000); /* sqrt(4) = 2 */
    ev(2, 2, 0x3e800000); /* 1/4 */
    ev(3, 2, 0x40000000); /* log2(4) = 2 */
    ev(4, 2, 0x41800000); /* 2^4 = 16 */
    ev(5, 2, 0x3f000000); /* rsq(4) = 0.5 */
    ev(4, 3, 0x00000000); /* 2^-inf = 0 */
    ev(6, 4, 0x3f800000); /* sin(0.25 * 2pi) = 1 */
    expect(fabsf(from_bits32(W->v[7][4])) < 1e-6f, "cos(pi/2) = %g", from_bits32(W->v[7][4]));
    ev(7, 5, 0xbf800000);  /* cos(0.5 * 2pi) = -1 */
    ev(8, 6, 0x3f000000);  /* fract(-2.5) = 0.5 */
    ev(9, 6, 0xbf200000);  /* frexp_mant(-2.5) = -0.625 */
    ev(10, 6, 2);          /* frexp_exp(-2.5) = 2 */
    ev(11, 6, 0xc0000000); /* trunc(-2.5) = -2 */
    ev(12, 6, 0xc0000000); /* rndne(-2.5) = -2 (even) */
    ev(13, 6, 0xc0400000); /* floor(-2.5) = -3 */
    ev(14, 6, 0xc0000000); /* ceil(-2.5) = -2 */
    ev(3, 7, 0xff800000);  /* log of a denormal: input flushed -> -inf */
    ev(8, 8, 0x3f7fffff);  /* fract(-2^-27) rounds to 1.0, kept below 1 */
}

/* ---- the f32/f64 division sequences clang-22 emits, against C division -------------------- *
 * Tiny numerators (exponent <= 23 / 53) come last: div_scale sets VCC for them (hardware), so
 * only the numerator may be scaled. */

static void test_fdiv(void) {
    static const u32 num[] = {0x3f800000, 0x40400000, 0x00000001, 0x7f7fffff, 0x00800000,
                              0x3f800000, 0x00000000, 0x7f800000, 0x7fc00000, 0x41200000,
                              0x80000003, 0x7f000000, 0x0001ffff, 0x3f800000, 0xc2f60000,
                              0x0a000000, 0x0b812345};
    static const u32 den[] = {0x40400000, 0x3f800000, 0x3f800000, 0x00000001, 0x7f7fffff,
                              0x00000000, 0x00000000, 0x7f800000, 0x3f800000, 0x0000000b,
                              0x3f000000, 0x00000003, 0x5f000000, 0x7e800000, 0x3a83126f,
                              0x3fc00000, 0xc0400000};
    if (!load("v_div_scale_f32 v3, s[2:3], v2, v2, v1\nv_rcp_f32_e32 v4, v3\n"
              "v_div_scale_f32 v5, vcc, v1, v2, v1\nv_fma_f32 v6, -v3, v4, 1.0\n"
              "v_fmac_f32_e32 v4, v6, v4\nv_mul_f32_e32 v6, v5, v4\nv_fma_f32 v7, -v3, v6, v5\n"
              "v_fmac_f32_e32 v6, v7, v4\nv_fma_f32 v3, -v3, v6, v5\n"
              "v_div_fmas_f32 v3, v3, v4, v6\nv_div_fixup_f32 v1, v3, v2, v1"))
        return;
    int n = sizeof num / sizeof num[0];
    for (int l = 0; l < 64; l++) {
        W->v[1][l] = l < n ? num[l] : bits32((float)(l * 37 % 101) * 1.37e-3f - 0.05f);
        W->v[2][l] = l < n ? den[l] : bits32((float)(l * 13 % 29) * 0.77f + 0.1f);
    }
    u32 n0[64], d0[64];
    memcpy(n0, W->v[1], sizeof n0);
    memcpy(d0, W->v[2], sizeof d0);
    if (!run())
        return;
    for (int l = 0; l < 64; l++) {
        u32 want = bits32(from_bits32(n0[l]) / from_bits32(d0[l]));
        expect(same_f32(W->v[1][l], want), "lane %d: %a / %a = %08x, want %08x", l,
               from_bits32(n0[l]), from_bits32(d0[l]), W->v[1][l], want);
    }
    if (!load(
            "v_div_scale_f64 v[4:5], s[2:3], v[2:3], v[2:3], v[0:1]\nv_rcp_f64_e32 v[6:7], v[4:5]\n"
            "v_div_scale_f64 v[8:9], vcc, v[0:1], v[2:3], v[0:1]\n"
            "v_fma_f64 v[10:11], -v[4:5], v[6:7], 1.0\nv_fmac_f64_e32 v[6:7], v[6:7], v[10:11]\n"
            "v_fma_f64 v[10:11], -v[4:5], v[6:7], 1.0\nv_fmac_f64_e32 v[6:7], v[6:7], v[10:11]\n"
            "v_mul_f64 v[10:11], v[8:9], v[6:7]\nv_fma_f64 v[4:5], -v[4:5], v[10:11], v[8:9]\n"
            "v_div_fmas_f64 v[4:5], v[4:5], v[6:7], v[10:11]\n"
            "v_div_fixup_f64 v[0:1], v[4:5], v[2:3], v[0:1]"))
        return;
    static const double dn[] = {1.0, 3.0,    0x1p-1074, 0x1.fffffffffffffp1023,
                                0.0, 1.0,    -0.0,      INFINITY,
                                7.0, 1e-300, 0x1p-1000, 0x1.3p-980};
    static const double dd[] = {3.0, 1.0, 3.0,  0x1p-1074, 5.0,     0.0,
                                2.0, 2.0, -0.1, 1e300,     0x1p100, 3.0};
    int m = sizeof dn / sizeof dn[0];
    double xn[64], xd[64];
    for (int l = 0; l < 64; l++) {
        xn[l] = l < m ? dn[l] : (l * 37 % 101) * 1.37e-3 - 0.05;
        xd[l] = l < m ? dd[l] : (l * 13 % 29) * 0.77 + 0.1;
        set64(0, l, bits64(xn[l]));
        set64(2, l, bits64(xd[l]));
    }
    if (!run())
        return;
    for (int l = 0; l < 64; l++) {
        double want = xn[l] / xd[l];
        u64 got = get64(0, l);
        expect(got == bits64(want) || (want != want && from_bits64(got) != from_bits64(got)),
               "f64 lane %d: %a / %a = %a, want %a", l, xn[l], xd[l], from_bits64(got), want);
    }
}

/* clang-22's division sequences over every pair of edge operands (zeros, denormals, tiny
 * numerators around div_scale's exponent <= 23/53 rule, tiny/tiny quotients above 1, huge
 * operands, exponent differences around 96/768, infinities, NaN), against the host's
 * correctly rounded division: div_scale's VCC and scaling, div_fmas and div_fixup must agree. */
static const char FDIV32[] =
    "v_div_scale_f32 v3, s[2:3], v2, v2, v1\nv_rcp_f32_e32 v4, v3\n"
    "v_div_scale_f32 v5, vcc, v1, v2, v1\nv_fma_f32 v6, -v3, v4, 1.0\n"
    "v_fmac_f32_e32 v4, v6, v4\nv_mul_f32_e32 v6, v5, v4\nv_fma_f32 v7, -v3, v6, v5\n"
    "v_fmac_f32_e32 v6, v7, v4\nv_fma_f32 v3, -v3, v6, v5\n"
    "v_div_fmas_f32 v3, v3, v4, v6\nv_div_fixup_f32 v1, v3, v2, v1";
static const char FDIV64[] =
    "v_div_scale_f64 v[4:5], s[2:3], v[2:3], v[2:3], v[0:1]\nv_rcp_f64_e32 v[6:7], v[4:5]\n"
    "v_div_scale_f64 v[8:9], vcc, v[0:1], v[2:3], v[0:1]\n"
    "v_fma_f64 v[10:11], -v[4:5], v[6:7], 1.0\nv_fmac_f64_e32 v[6:7], v[6:7], v[10:11]\n"
    "v_fma_f64 v[10:11], -v[4:5], v[6:7], 1.0\nv_fmac_f64_e32 v[6:7], v[6:7], v[10:11]\n"
    "v_mul_f64 v[10:11], v[8:9], v[6:7]\nv_fma_f64 v[4:5], -v[4:5], v[10:11], v[8:9]\n"
    "v_div_fmas_f64 v[4:5], v[4:5], v[6:7], v[10:11]\n"
    "v_div_fixup_f64 v[0:1], v[4:5], v[2:3], v[0:1]";

static void test_fdiv_sweep(void) {
    static const u32 v32[] = {
        0x00000000, 0x80000000, 0x00000001, 0x80000001, 0x00000003, 0x0007ffff, 0x007fffff,
        0x00800000, 0x00812345, 0x80c00001, 0x0a000000, 0x0a7fffff, 0x0b800000, 0x0bffffff,
        0x0c000000, 0x1f800000, 0x1fffffff, 0x20000000, 0x3f800000, 0xbfc00000, 0x40400000,
        0x3eaaaaab, 0x4e800000, 0x4f000000, 0x4f800000, 0x5f800000, 0x7e800000, 0x7f000000,
        0x7f7fffff, 0xff7fffff, 0x7f800000, 0xff800000, 0x7fc00000, 0x2f800000, 0x30000000};
    enum { N32 = sizeof v32 / sizeof v32[0] };
    int bad = 0;
    for (int base = 0; base < N32 * N32; base += 64) {
        if (!load(FDIV32))
            return;
        u32 n0[64], d0[64];
        for (int l = 0; l < 64; l++) {
            int k = (base + l) % (N32 * N32);
            n0[l] = W->v[1][l] = v32[k / N32];
            d0[l] = W->v[2][l] = v32[k % N32];
        }
        if (!run())
            return;
        for (int l = 0; l < 64; l++) {
            u32 want = bits32(from_bits32(n0[l]) / from_bits32(d0[l]));
            if (!same_f32(W->v[1][l], want) && bad++ < 8)
                expect(0, "f32 sweep: %a / %a = %08x, want %08x", from_bits32(n0[l]),
                       from_bits32(d0[l]), W->v[1][l], want);
        }
    }
    static const double v64[] = {0.0,
                                 -0.0,
                                 0x1p-1074,
                                 -0x3p-1074,
                                 0x0.fffffffffffffp-1022,
                                 0x1p-1022,
                                 0x1.3p-1000,
                                 0x1p-971,
                                 0x1.fffffffffffffp-971,
                                 0x1p-970,
                                 0x1p-900,
                                 0x1p-128,
                                 0x1.fffffp-128,
                                 1.0,
                                 -1.5,
                                 3.0,
                                 0x1.5555555555555p-2,
                                 0x1p128,
                                 0x1p231,
                                 0x1p232,
                                 0x1p233,
                                 0x1p1000,
                                 0x1p1022,
                                 0x1.fffffffffffffp1023,
                                 -0x1.fffffffffffffp1023,
                                 INFINITY,
                                 -INFINITY,
                                 NAN};
    enum { N64 = sizeof v64 / sizeof v64[0] };
    for (int base = 0; base < N64 * N64; base += 64) {
        if (!load(FDIV64))
            return;
        double xn[64], xd[64];
        for (int l = 0; l < 64; l++) {
            int k = (base + l) % (N64 * N64);
            xn[l] = v64[k / N64], xd[l] = v64[k % N64];
            set64(0, l, bits64(xn[l]));
            set64(2, l, bits64(xd[l]));
        }
        if (!run())
            return;
        for (int l = 0; l < 64; l++) {
            double want = xn[l] / xd[l];
            u64 got = get64(0, l);
            if (!(got == bits64(want) || (want != want && from_bits64(got) != from_bits64(got))) &&
                bad++ < 16)
                expect(0, "f64 sweep: %a / %a = %a, want %a", xn[l], xd[l], from_bits64(got), want);
        }
    }
    expect(bad == 0, "fdiv sweep: %d wrong quotients", bad);
}

/* ---- integer ops, carries and compares ------------------------------------------------------ */

static void test_carry(void) {
    if (!load("v_add_co_u32_e32 v2, vcc, v0, v1\nv_addc_co_u32_e32 v3, vcc, v0, v1, vcc\n"
              "v_sub_co_u32_e64 v4, s[4:5], v0, v1\nv_subb_co_u32_e64 v5, s[6:7], v0, v1, s[4:5]"))
        return;
    for (int l = 0; l < 64; l++) {
        W->v[0][l] = l & 1 ? 0xffffffff : (u32)l;
        W->v[1][l] = l & 2 ? 2 : 0;
    }
    wave_set_exec(W, 0x7fffffffffffffffull); /* lane 63 off */
    W->v[2][63] = 0xdead;
    if (!run())
        return;
    u64 c1 = 0, c2 = 0, b1 = 0, b2 = 0;
    for (int l = 0; l < 63; l++) {
        u64 a = l & 1 ? 0xffffffffull : (u64)l, b = l & 2 ? 2 : 0;
        u64 s = a + b;
        c1 |= (s >> 32) << l;
        ev(2, l, (u32)s);
        b1 |= (u64)(b > a) << l;
        ev(4, l, (u32)(a - b));
    }
    for (int l = 0; l < 63; l++) {
        u64 a = l & 1 ? 0xffffffffull : (u64)l, b = l & 2 ? 2 : 0;
        u64 s = a + b + ((c1 >> l) & 1);
        c2 |= (s >> 32) << l;
        ev(3, l, (u32)s);
        u64 bb = b + ((b1 >> l) & 1);
        b2 |= (u64)(bb > a) << l;
        ev(5, l, (u32)(a - bb));
    }
    ev(2, 63, 0xdead);
    es64(106, c2);
    es64(4, b1);
    es64(6, b2);
    if (load("v_add_u32_e64 v2, v0, v1 clamp\nv_sub_u32_e64 v3, v1, v0 clamp\n"
             "v_add_u32_e32 v4, v0, v1\nv_subrev_u32_e32 v5, v0, v1")) {
        set_all(0, 0xfffffff0);
        set_all(1, 0x20);
        if (run()) {
            ev(2, 0, 0xffffffff);
            ev(3, 0, 0);
            ev(4, 0, 0x10);
            ev(5, 0, 0x30);
        }
    }
}

/* v_perm_b32 over every selector byte value, in each byte position, with data whose bytes and
 * sign bits differ: the reference is the ISA's table (0-7 a byte of {S0, S1}, S0 high; 8-11
 * byte 1/3/5/7's sign replicated; 12 zero; 13 and up 0xff), written here lane by lane. */
static u32 perm_ref(u32 s0, u32 s1, u32 sel) {
    u64 d = (u64)s0 << 32 | s1;
    u32 r = 0;
    for (int k = 0; k < 4; k++) {
        u32 s = (sel >> (8 * k)) & 0xff, v;
        if (s < 8)
            v = (u32)(d >> (8 * s)) & 0xff;
        else if (s < 12)
            v = (d >> (8 * (2 * (s - 8) + 1) + 7)) & 1 ? 0xff : 0;
        else
            v = s == 12 ? 0 : 0xff;
        r |= v << (8 * k);
    }
    return r;
}
static void test_perm_all(void) {
    for (int round = 0; round < 4; round++) {
        if (!load("s_mov_b32 s4, 0x0c0b0a09\nv_perm_b32 v3, v0, v1, v2\nv_perm_b32 v4, v0, v1, s4"))
            return;
        for (int l = 0; l < 64; l++) {
            u32 sel = (u32)(round * 64 + l); /* 0..255 in byte `round`, neighbours vary */
            W->v[2][l] = sel << (8 * round) | ((u32)(l * 37 + 11) & 0xff)
                                                  << (8 * ((round + 1) & 3));
            W->v[0][l] = 0x80008000u ^ (u32)(l * 0x01010101u) ^ (round & 1 ? 0x80000000u : 0);
            W->v[1][l] = 0x7f807f00u ^ (u32)(l * 0x10203u) ^ (round & 2 ? 0x8000u : 0);
        }
        if (!run())
            return;
        int bad = 0;
        for (int l = 0; l < 64; l++) {
            u32 w3 = perm_ref(W->v[0][l], W->v[1][l], W->v[2][l]);
            u32 w4 = perm_ref(W->v[0][l], W->v[1][l], 0x0c0b0a09);
            if ((W->v[3][l] != w3 || W->v[4][l] != w4) && bad++ < 3)
                expect(0, "v_perm_b32 lane %d sel %08x: %08x %08x, want %08x %08x", l, W->v[2][l],
                       W->v[3][l], W->v[4][l], w3, w4);
        }
        expect(bad == 0, "v_perm_b32 round %d: %d lanes wrong", round, bad);
    }
    /* A uniform selector (an SGPR: the same byte choice in every lane) with every byte value in
     * every position. */
    int bad = 0;
    for (u32 t = 0; t < 256; t++) {
        u32 sel = 0;
        for (u32 k = 0; k < 4; k++)
            sel |= ((t + 64 * k) & 0xff) << (8 * ((k + t / 64) & 3));
        if (!load("v_perm_b32 v3, v0, v1, s4"))
            return;
        W->s[4] = sel;
        for (int l = 0; l < 64; l++) {
            W->v[0][l] = 0x80008000u ^ (u32)(l * 0x01010101u) ^ (t & 1 ? 0x80000000u : 0);
            W->v[1][l] = 0x7f807f00u ^ (u32)(l * 0x10203u) ^ (t & 2 ? 0x8000u : 0);
        }
        if (!run())
            return;
        for (int l = 0; l < 64; l++) {
            u32 want = perm_ref(W->v[0][l], W->v[1][l], sel);
            if (W->v[3][l] != want && bad++ < 3)
                expect(0, "v_perm_b32 s4 = %08x lane %d: %08x, want %08x", sel, l, W->v[3][l],
                       want);
        }
    }
    expect(bad == 0, "v_perm_b32 with an SGPR selector: %d lanes wrong", bad);
}

static void test_int(void) {
    if (!load("v_mul_hi_u32 v2, v0, v1\nv_mul_hi_i32 v3, v0, v1\nv_mul_lo_u32 v4, v0, v1\n"
              "v_mul_u32_u24_e32 v5, v0, v1\nv_mul_i32_i24_e32 v6, v0, v1\n"
              "v_bfe_u32 v7, v0, 4, 8\nv_bfe_i32 v8, v0, 4, 8\nv_bfi_b32 v9, s20, v0, v1\n"
              "v_alignbit_b32 v10, v0, v1, 8\nv_alignbyte_b32 v11, v0, v1, 1\n"
              "v_perm_b32 v12, v0, v1, s21\nv_ffbh_u32_e32 v13, v1\n"
              "v_ffbl_b32_e32 v14, v1\nv_ffbh_i32_e32 v15, v0\nv_bcnt_u32_b32 v16, v0, 5\n"
              "v_lshlrev_b32_e32 v17, 33, v1\nv_ashrrev_i32_e32 v18, 4, v0\n"
              "v_lshl_add_u32 v19, v0, 4, v1\nv_add3_u32 v20, v0, v1, 7\n"
              "v_lshl_or_b32 v21, v1, 8, v0\nv_and_or_b32 v22, v0, s22, v1\n"
              "v_or3_b32 v23, v0, v1, s23\nv_xad_u32 v24, v0, v1, 1\n"
              "v_bfm_b32 v25, 4, 8\nv_min_i32_e32 v26, v0, v1\nv_max_u32_e32 v27, v0, v1\n"
              "v_med3_i32 v28, v0, v1, 0\nv_not_b32_e32 v29, v0\nv_bfrev_b32_e32 v30, 1\n"
              "v_mad_u32_u24 v31, v0, v1, 3\nv_add_lshl_u32 v32, v0, v1, 1\n"
              "v_xnor_b32_e32 v33, v0, v1"))
        return;
    u32 a = 0x8765f3a1, b = 0x00012340;
    W->s[20] = 0xff00ff00;
    W->s[21] = 0x0c0d0703;
    W->s[22] = 0xff;
    W->s[23] = 0x100;
    set_all(0, a);
    set_all(1, b);
    if (!run())
        return;
    ev(2, 0, (u32)(((u64)a * b) >> 32));
    ev(3, 0, (u32)((u64)((int64_t)(int32_t)a * (int32_t)b) >> 32));
    ev(4, 0, a * b);
    ev(5, 0, (a & 0xffffff) * (b & 0xffffff));
    ev(6, 0, (u32)((int64_t)((int32_t)(a << 8) >> 8) * (int64_t)b));
    ev(7, 0, (a >> 4) & 0xff);
    ev(8, 0, (u32)(int32_t)(int8_t)((a >> 4) & 0xff));
    ev(9, 0, (0xff00ff00 & a) | (0x00ff00ff & b));
    ev(10, 0, (u32)((((u64)a << 32) | b) >> 8));
    ev(11, 0, (u32)((((u64)a << 32) | b) >> 8));
    /* selectors: byte 0 <- 0x03 = b byte 3 (0x00); byte 1 <- 0x07 = a byte 3 (0x87);
     * byte 2 <- 0x0d = 0xff; byte 3 <- 0x0c = 0x00 */
    ev(12, 0, 0x00ff8700);
    ev(13, 0, 15);
    ev(14, 0, 6);
    ev(15, 0, 1); /* 0x8765f3a1: first bit differing from the sign bit is bit 30 -> 1 */
    ev(16, 0, (u32)__builtin_popcount(a) + 5);
    ev(17, 0, b << 1); /* shift count 33 & 31 */
    ev(18, 0, (u32)((int32_t)a >> 4));
    ev(19, 0, (a << 4) + b);
    ev(20, 0, a + b + 7);
    ev(21, 0, (b << 8) | a);
    ev(22, 0, (a & 0xff) | b);
    ev(23, 0, a | b | 0x100);
    ev(24, 0, (a ^ b) + 1);
    ev(25, 0, 0xf00);
    ev(26, 0, a);
    ev(27, 0, a);
    ev(28, 0, 0); /* med3(-big, 0x12340, 0) = 0 */
    ev(29, 0, ~a);
    ev(30, 0, 0x80000000);
    ev(31, 0, (a & 0xffffff) * (b & 0xffffff) + 3);
    ev(32, 0, (a + b) << 1);
    ev(33, 0, ~(a ^ b));
}

static void test_int64(void) {
    /* gfx90a has neither v_lshl_add_u64 nor v_mov_b64 (gfx940 added them) */
    int g90a = IA == ISA_GFX90A;
    if (!load(g90a ? "v_mad_u64_u32 v[2:3], s[4:5], v0, v1, v[6:7]\n"
                     "v_mad_i64_i32 v[8:9], s[10:11], v0, v1, 0\n"
                     "v_lshlrev_b64 v[12:13], 36, v[6:7]\nv_ashrrev_i64 v[14:15], 4, v[16:17]"
                   : "v_mad_u64_u32 v[2:3], s[4:5], v0, v1, v[6:7]\n"
                     "v_mad_i64_i32 v[8:9], s[10:11], v0, v1, 0\n"
                     "v_lshlrev_b64 v[12:13], 36, v[6:7]\nv_ashrrev_i64 v[14:15], 4, v[16:17]\n"
                     "v_lshl_add_u64 v[18:19], v[6:7], 2, v[16:17]\nv_mov_b64 v[20:21], v[6:7]"))
        return;
    for (int l = 0; l < 64; l++) {
        W->v[0][l] = 0xffffffff;
        W->v[1][l] = l == 0 ? 0xffffffff : 2;
        set64(6, l, l == 0 ? ~0ull : 0x123456789ull);
        set64(16, l, 0x8000000000000010ull);
    }
    if (!run())
        return;
    /* lane 0: (2^32-1)^2 + 2^64-1 = 2^65 - 2^33 -> low 64 bits 0xfffffffe00000000, carry 1 */
    expect(get64(2, 0) == 0xfffffffe00000000ull, "mad_u64 lane0 %llx",
           (unsigned long long)get64(2, 0));
    expect(get64(2, 1) == 0x1fffffffeull + 0x123456789ull, "mad_u64 lane1");
    es64(4, 1);
    expect(get64(8, 1) == (u64)-2, "mad_i64 -1*2 = %llx", (unsigned long long)get64(8, 1));
    es64(10, 0);
    expect(get64(12, 1) == 0x123456789ull << 36, "lshlrev_b64");
    expect(get64(14, 1) == 0xf800000000000001ull, "ashrrev_i64");
    if (g90a)
        return;
    expect(get64(18, 1) == (0x123456789ull << 2) + 0x8000000000000010ull, "lshl_add_u64");
    expect(get64(20, 1) == 0x123456789ull, "mov_b64");
}

/* The 64-bit address arithmetic on register halves (valu_int.c's full-EXEC path) against C:
 * every shift count 0-63 of v_lshlrev_b64 (one per lane), v_lshl_add_u64 with counts 0-7 and
 * carries out of the low half, a destination that is a source pair, an SGPR-pair and a
 * constant source, an SGPR-pair base with a constant count (a buffer address) and shifts by one
 * count for every lane (the uniform cases), and the same program again under partial EXEC (the
 * general path). */
static void test_shift64(void) {
    if (IA == ISA_GFX90A) /* no v_lshl_add_u64 (gfx940+); v_lshlrev_b64 runs in test_int64 */
        return;
    static const char *prog = "v_lshlrev_b64 v[10:11], v0, v[2:3]\n"
                              "v_lshl_add_u64 v[12:13], v[2:3], v1, v[4:5]\n"
                              "v_lshl_add_u64 v[4:5], v[4:5], v1, s[6:7]\n"
                              "v_lshlrev_b64 v[2:3], v0, v[2:3]\n"
                              "v_lshl_add_u64 v[14:15], 45, v1, v[6:7]\n"
                              "v_lshl_add_u64 v[16:17], s[6:7], 3, v[8:9]\n"
                              "v_lshl_add_u64 v[8:9], s[6:7], 0, v[8:9]\n"
                              "v_lshlrev_b64 v[18:19], 36, v[6:7]\n"
                              "v_lshlrev_b64 v[20:21], 5, v[6:7]\n"
                              "v_lshlrev_b64 v[22:23], 0, v[6:7]\n"
                              "v_lshlrev_b64 v[24:25], s8, v[6:7]\n"
                              "v_lshlrev_b64 v[8:9], 3, v[8:9]";
    for (int partial = 0; partial < 2; partial++) {
        if (!load(prog))
            return;
        u64 exec = partial ? 0x5a5a0ff0f00f3cc3ull : ~0ull;
        u64 sval = 0xfffffffe00000009ull;
        W->s[6] = (u32)sval, W->s[7] = (u32)(sval >> 32);
        W->s[8] = 0xffffffe1u; /* a count of 33: bits above 5 are ignored */
        u64 a[64], c[64], d6[64], e8[64];
        for (int l = 0; l < 64; l++) {
            a[l] = 0x9abcdef0fedcba98ull ^ ((u64)l * 0x0101010101010101ull);
            c[l] = l & 1 ? 0x00000001ffffffffull + (u64)l : 0x7fffffffffffff00ull - (u64)l;
            d6[l] = 0x1111111122222222ull * (u64)(l + 1);
            W->v[0][l] = (u32)l | 0xc0u; /* bits above the count are ignored */
            W->v[1][l] = (u32)(l % 8) | 0x100u;
            set64(2, l, a[l]);
            set64(4, l, c[l]);
            set64(6, l, d6[l]);
            /* odd lanes carry out of the low half when the SGPR pair is added */
            e8[l] = (u64)l << 40 | (l & 1 ? 0xffffffc0u + (u32)l : (u32)l * 0x01000193u);
            set64(8, l, e8[l]);
            for (int r = 16; r <= 24; r += 2)
                set64(r, l, 0xdeadbeefdeadbeefull);
            set64(10, l, 0xdeadbeefdeadbeefull);
            set64(12, l, 0xdeadbeefdeadbeefull);
            set64(14, l, 0xdeadbeefdeadbeefull);
        }
        wave_set_exec(W, exec);
        if (!run())
            return;
        for (int l = 0; l < 64; l++) {
            int on = (exec >> l) & 1;
            u64 old = 0xdeadbeefdeadbeefull;
            unsigned s = (unsigned)l & 63, s7 = (unsigned)(l % 8);
            u64 w10 = on ? a[l] << s : old, w12 = on ? (a[l] << s7) + c[l] : old;
            u64 w4 = on ? (c[l] << s7) + sval : c[l], w2 = on ? a[l] << s : a[l];
            u64 w14 = on ? (45ull << s7) + d6[l] : old;
            u64 w16 = on ? (sval << 3) + e8[l] : old, w8 = on ? (sval + e8[l]) << 3 : e8[l];
            /* one count for every lane: >= 32, below 32, 0, and from an SGPR */
            u64 w18 = on ? d6[l] << 36 : old, w20 = on ? d6[l] << 5 : old;
            u64 w22 = on ? d6[l] : old, w24 = on ? d6[l] << 33 : old;
            expect(get64(10, l) == w10, "lshlrev_b64 lane %d: %llx, want %llx", l,
                   (unsigned long long)get64(10, l), (unsigned long long)w10);
            expect(get64(12, l) == w12, "lshl_add_u64 lane %d: %llx, want %llx", l,
                   (unsigned long long)get64(12, l), (unsigned long long)w12);
            expect(get64(4, l) == w4, "lshl_add_u64 in place, sgpr lane %d: %llx, want %llx", l,
                   (unsigned long long)get64(4, l), (unsigned long long)w4);
            expect(get64(2, l) == w2, "lshlrev_b64 in place lane %d: %llx, want %llx", l,
                   (unsigned long long)get64(2, l), (unsigned long long)w2);
            expect(get64(14, l) == w14, "lshl_add_u64 constant lane %d: %llx, want %llx", l,
                   (unsigned long long)get64(14, l), (unsigned long long)w14);
            expect(get64(16, l) == w16, "lshl_add_u64 sgpr base lane %d: %llx, want %llx", l,
                   (unsigned long long)get64(16, l), (unsigned long long)w16);
            expect(get64(8, l) == w8,
                   "lshl_add_u64 sgpr base in place, lshlrev_b64 3 in place lane %d: %llx, want "
                   "%llx",
                   l, (unsigned long long)get64(8, l), (unsigned long long)w8);
            expect(get64(18, l) == w18 && get64(20, l) == w20 && get64(22, l) == w22 &&
                       get64(24, l) == w24,
                   "lshlrev_b64 by one count lane %d: %llx %llx %llx %llx", l,
                   (unsigned long long)get64(18, l), (unsigned long long)get64(20, l),
                   (unsigned long long)get64(22, l), (unsigned long long)get64(24, l));
        }
    }
}

static void test_cmp(void) {
    if (!load("v_cmp_lt_f32_e32 vcc, v0, v1\nv_cmp_nge_f32_e64 s[4:5], v0, v1\n"
              "v_cmp_class_f32_e64 s[6:7], v0, 0x3\nv_cmp_eq_u32_e64 s[8:9], v2, 5\n"
              "v_cmp_gt_i64_e64 s[10:11], v[4:5], 0\nv_cmp_o_f32_e64 s[12:13], v0, v1\n"
              "v_cmp_lg_f64_e64 s[14:15], v[4:5], v[4:5]"))
        return;
    u64 lt = 0, nge = 0, cls = 0, gt = 0, o = 0;
    for (int l = 0; l < 64; l++) {
        u32 a = spec_a(l), b = spec_b(l);
        W->v[0][l] = a;
        W->v[1][l] = b;
        W->v[2][l] = (u32)l;
        set64(4, l, (u64)(int64_t)(l - 32));
        if (l == 5)
            continue; /* lane 5 is off */
        lt |= (u64)(from_bits32(a) < from_bits32(b)) << l;
        nge |= (u64) !(from_bits32(a) >= from_bits32(b)) << l;
        cls |= (u64)(from_bits32(a) != from_bits32(a)) << l; /* mask 3 = signalling | quiet NaN */
        gt |= (u64)(l > 32) << l;
        o |= (u64)(from_bits32(a) == from_bits32(a) && from_bits32(b) == from_bits32(b)) << l;
    }
    wave_set_exec(W, ~(1ull << 5));
    if (!run())
        return;
    es64(106, lt);
    es64(4, nge);
    es64(6, cls);
    es64(8, 0); /* the only match is lane 5, which is off */
    es64(10, gt);
    es64(12, o);
    es64(14, 0);
    if (load("v_cmpx_gt_u32_e32 vcc, v0, v1\nv_mov_b32_e32 v2, 7")) {
        for (int l = 0; l < 64; l++) {
            W->v[0][l] = (u32)l;
            W->v[1][l] = 40;
            W->v[2][l] = 1;
        }
        wave_set_exec(W, 0x0000ffff0000ffffull);
        if (run()) {
            u64 want = 0; /* lanes 41..47 of the enabled 32..47 */
            for (int l = 41; l < 48; l++)
                want |= 1ull << l;
            es64(126, want);
            es64(106, want);
            ev(2, 41, 7);
            ev(2, 40, 1);
            ev(2, 50, 1);
        }
    }
    if (load("v_cmp_class_f64_e64 s[4:5], v[0:1], v2\nv_cmp_class_f32_e32 vcc, v3, v2")) {
        static const u64 d[] = {0xfff0000000000000ull, 0x8000000000000001ull, 0,
                                0x7ff0000000000001ull, 0x7ff8000000000000ull};
        static const u32 f[] = {0xff800000, 0x80000001, 0, 0x7f800001, 0x7fc00000};
        static const u32 m[] = {1u << 2, 1u << 4, 1u << 6, 1u << 0, 1u << 1};
        for (int l = 0; l < 64; l++) {
            set64(0, l, d[l % 5]);
            W->v[3][l] = f[l % 5];
            W->v[2][l] = l < 5 ? m[l] : m[(l + 1) % 5];
        }
        if (run()) {
            es64(4, 0x1f);
            es64(106, 0x1f);
        }
    }
}

static void test_cndmask(void) {
    if (!load("v_cndmask_b32_e32 v2, v0, v1, vcc\nv_cndmask_b32_e64 v3, v0, -v1, s[4:5]\n"
              "v_readfirstlane_b32 s10, v6\nv_readlane_b32 s11, v6, 17\n"
              "v_writelane_b32 v7, s12, 3\nv_mbcnt_lo_u32_b32 v8, -1, 0\n"
              "v_mbcnt_hi_u32_b32 v8, -1, v8"))
        return;
    for (int l = 0; l < 64; l++) {
        W->v[0][l] = 100 + l;
        W->v[1][l] = 0x3f800000;
        W->v[6][l] = 1000 + l;
        W->v[7][l] = 5;
    }
    W->s[106] = 0xaaaaaaaa;
    W->s[107] = 0x0;
    W->s[4] = 0x1;
    W->s[5] = 0x80000000;
    W->s[12] = 0x77;
    wave_set_exec(W, 0xfffffff0fffffff0ull);
    if (!run())
        return;
    ev(2, 5, 0x3f800000);
    ev(2, 6, 106);
    ev(2, 1, 0); /* lane 1 is off: untouched */
    ev(3, 63, 0xbf800000);
    ev(3, 62, 162);
    es(10, 1004);
    es(11, 1017);
    ev(7, 3, 0x77); /* writelane ignores EXEC */
    ev(7, 4, 5);
    ev(8, 40, 40);
    ev(8, 10, 10);
    ev(8, 2, 0);
}

/* ---- SDWA and DPP -------------------------------------------------------------------------- */

static void test_sdwa(void) {
    if (!load("v_add_u32_sdwa v2, v0, v1 dst_sel:BYTE_1 dst_unused:UNUSED_PRESERVE "
              "src0_sel:WORD_1 src1_sel:BYTE_0\n"
              "v_mov_b32_sdwa v3, sext(v0) dst_sel:DWORD dst_unused:UNUSED_PAD src0_sel:BYTE_2\n"
              "v_mov_b32_sdwa v4, v0 dst_sel:WORD_1 dst_unused:UNUSED_PAD src0_sel:BYTE_0\n"
              "v_mov_b32_sdwa v5, v0 dst_sel:BYTE_0 dst_unused:UNUSED_SEXT src0_sel:BYTE_3\n"
              "v_add_f32_sdwa v6, -v7, |v8| dst_sel:DWORD dst_unused:UNUSED_PAD "
              "src0_sel:DWORD src1_sel:DWORD\n"
              "v_add_f16_sdwa v9, v10, v10 dst_sel:WORD_1 dst_unused:UNUSED_PRESERVE "
              "src0_sel:WORD_1 src1_sel:WORD_0"))
        return;
    set_all(0, 0x9a8b7c6d);
    set_all(1, 0x11223344);
    set_all(2, 0xa5a5a5a5);
    set_all(7, 0x40000000);
    set_all(8, 0xc0400000);
    set_all(9, 0x0000beef);
    set_all(10, 0x3c004000); /* hi 1.0, lo 2.0 */
    if (!run())
        return;
    /* WORD_1 of v0 = 0x9a8b, BYTE_0 of v1 = 0x44: sum 0x9acf, low byte 0xcf into byte 1 */
    ev(2, 0, 0xa5a5cfa5);
    ev(3, 0, 0xffffff8b);
    ev(4, 0, 0x006d0000);
    ev(5, 0, 0xffffff9a); /* byte 0x9a, upper bits sign-extended */
    ev(6, 0, 0x3f800000); /* -2 + 3 */
    ev(9, 0, 0x4200beef); /* 1.0 + 2.0 = 3.0 (0x4200) into the high half */
}

static void test_dpp(void) {
    if (!load("v_mov_b32_dpp v1, v0 quad_perm:[3,2,1,0] row_mask:0xf bank_mask:0xf\n"
              "v_mov_b32_dpp v2, v0 row_shr:1 row_mask:0xf bank_mask:0xf\n"
              "v_mov_b32_dpp v3, v0 row_shr:1 row_mask:0xf bank_mask:0xf bound_ctrl:1\n"
              "v_mov_b32_dpp v4, v0 row_shl:15 row_mask:0x5 bank_mask:0xf bound_ctrl:1\n"
              "v_mov_b32_dpp v5, v0 wave_shr:1 row_mask:0xf bank_mask:0xf\n"
              "v_mov_b32_dpp v6, v0 row_mirror row_mask:0xf bank_mask:0x1\n"
              "v_mov_b32_dpp v7, v0 row_bcast:15 row_mask:0xa bank_mask:0xf\n"
              "v_mov_b32_dpp v8, v0 row_bcast:31 row_mask:0xc bank_mask:0xf\n"
              "v_add_f32_dpp v9, v10, v10 row_ror:4 row_mask:0xf bank_mask:0xf\n"
              "v_mov_b32_dpp v11, v0 wave_rol:1 row_mask:0xf bank_mask:0xf\n"
              "v_mov_b32_dpp v12, v0 row_half_mirror row_mask:0xf bank_mask:0xf"))
        return;
    for (int l = 0; l < 64; l++) {
        W->v[0][l] = (u32)l;
        W->v[10][l] = bits32((float)l);
        for (int r = 1; r <= 12; r++)
            if (r != 10)
                W->v[r][l] = 0xeeee;
    }
    wave_set_exec(W, ~(1ull << 20)); /* lane 20 is off: reading it is invalid */
    if (!run())
        return;
    ev(1, 0, 3);
    ev(1, 6, 5);
    ev(2, 0, 0xeeee); /* row_shr:1, lane 0 of a row: source out of range, write disabled */
    ev(2, 17, 16);
    ev(2, 21, 0xeeee); /* source lane 20 is off */
    ev(3, 16, 0);      /* bound_ctrl: reads 0 */
    ev(3, 21, 0);
    ev(4, 0, 15);
    ev(4, 1, 0);
    ev(4, 16, 0xeeee); /* row 1 masked */
    ev(4, 32, 47);
    ev(5, 0, 0xeeee);
    ev(5, 63, 62);
    ev(6, 1, 14);     /* bank 0 */
    ev(6, 5, 0xeeee); /* bank 1 masked */
    ev(7, 16, 15);
    ev(7, 50, 47);
    ev(7, 1, 0xeeee);
    ev(8, 40, 31);
    ev(8, 63, 31);
    ev(8, 20, 0xeeee);
    ev(9, 4, bits32(0.0f + 4.0f));  /* row_ror:4: lane 4 reads lane 0 */
    ev(9, 0, bits32(12.0f + 0.0f)); /* lane 0 reads lane 12 */
    ev(11, 63, 0);
    ev(11, 5, 6);
    ev(12, 3, 4);
    ev(12, 9, 14);
    ev(1, 20, 0xeeee); /* lane 20 itself is off */
}

/* ---- conversions ---------------------------------------------------------------------------- */

/* Reference f32 -> f16, round to nearest even, by counting: the nearest of the two f16 values
 * around x, worked out from an exhaustive table of f16 values. */
static double h2d_ref(u32 h) {
    int e = (h >> 10) & 31, m = h & 0x3ff;
    double v = e == 0 ? m * 0x1p-24 : e == 31 ? (m ? NAN : INFINITY) : (1024 + m) * pow(2, e - 25);
    return (h & 0x8000) ? -v : v;
}
static u32 f2h_ref(float f) {
    double x = f;
    if (x != x)
        return 0x7e00;
    u32 s = signbit(x) ? 0x8000 : 0;
    double a = fabs(x);
    if (a >= 65520.0)
        return s | 0x7c00;
    u32 best = 0;
    for (u32 h = 0; h < 0x7c00; h++) { /* monotonic: find the last value <= a */
        if (h2d_ref(h) <= a)
            best = h;
        else
            break;
    }
    if (best < 0x7bff) {
        double lo = h2d_ref(best), hi = h2d_ref(best + 1);
        if (a - lo > hi - a || (a - lo == hi - a && (best & 1)))
            best++;
    } else if (a > 65504.0) {
        best = a - 65504.0 >= 16.0 ? 0x7c00 : 0x7bff;
    }
    return s | best;
}

static void test_cvt(void) {
    if (!load("v_cvt_i32_f32_e32 v1, v0\nv_cvt_u32_f32_e32 v2, v0\nv_cvt_f16_f32_e32 v3, v0\n"
              "v_cvt_f32_f16_e32 v4, v3\nv_cvt_f32_i32_e32 v5, v6\nv_cvt_f32_u32_e32 v7, v6\n"
              "v_cvt_f64_f32_e32 v[8:9], v0\nv_cvt_f32_f64_e32 v10, v[8:9]\n"
              "v_cvt_rpi_i32_f32_e32 v11, v0\nv_cvt_flr_i32_f32_e32 v12, v0\n"
              "v_cvt_f32_ubyte2_e32 v13, v6"))
        return;
    static const u32 in[] = {0x7fc00000, 0x4f000000, 0xcf000001, 0xbf800000, 0x477ff000,
                             0x477fefff, 0x33800000, 0x33000001, 0x33000000, 0x387fc000,
                             0x38800000, 0x3f800001, 0x3f801000, 0x3f803000, 0xc0200000,
                             0x00000001, 0x7f800000, 0x4f800000, 0x3fc00000, 0xbfc00000};
    int n = sizeof in / sizeof in[0];
    for (int l = 0; l < 64; l++) {
        W->v[0][l] = l < n ? in[l] : bits32((float)(l - 40) * 1.7e-5f);
        W->v[6][l] = l == 0 ? 0x80000000 : l == 1 ? 0xffffffff : (u32)(l * 0x01234567);
        W->v[3][l] = 0xabcd0000;
    }
    u32 v0[64], v6[64];
    memcpy(v0, W->v[0], sizeof v0);
    memcpy(v6, W->v[6], sizeof v6);
    if (!run())
        return;
    for (int l = 0; l < 64; l++) {
        float f = from_bits32(v0[l]);
        double t = f;
        u32 wi = f != f               ? 0
                 : t >= 2147483647.0  ? 0x7fffffff
                 : t <= -2147483648.0 ? 0x80000000
                                      : (u32)(int32_t)t;
        u32 wu = f != f || t <= 0 ? 0 : t >= 4294967295.0 ? 0xffffffff : (u32)t;
        ev(1, l, wi);
        ev(2, l, wu);
        u32 h = f2h_ref(f);
        expect(W->v[3][l] == h, "cvt_f16_f32 lane %d (%a): %08x, want %04x (high half zeroed)", l,
               f, W->v[3][l], h);
        expect(same_f32(W->v[4][l], bits32((float)h2d_ref(h))), "cvt_f32_f16 lane %d", l);
        ev(5, l, bits32((float)(int32_t)v6[l]));
        ev(7, l, bits32((float)v6[l]));
        expect(same_f32(W->v[10][l], v0[l]), "f32->f64->f32 lane %d", l);
        double r = floor(t + 0.5), fl = floor(t);
        ev(11, l,
           f != f               ? 0
           : r >= 2147483647.0  ? 0x7fffffff
           : r <= -2147483648.0 ? 0x80000000
                                : (u32)(int32_t)r);
        ev(12, l,
           f != f                ? 0
           : fl >= 2147483647.0  ? 0x7fffffff
           : fl <= -2147483648.0 ? 0x80000000
                                 : (u32)(int32_t)fl);
        ev(13, l, bits32((float)((v6[l] >> 16) & 0xff)));
    }
    ev(3, 4, 0x7c00); /* 65520 -> inf */
    ev(3, 5, 0x7bff);
    ev(3, 6, 0x0001); /* 2^-24: smallest denormal */
    ev(3, 7, 0x0001); /* just above half of it rounds up */
    ev(3, 8, 0x0000); /* exactly half: ties to even (0) */
}

static void test_bf16(void) {
    if (!load("v_cvt_pk_bf16_f32 v2, v0, v1"))
        return;
    static const u32 a[] = {0x3f808000, 0x3f818000, 0x3f808001, 0x7f7fffff, 0x7fa00000};
    static const u32 b[] = {0x40490fdb, 0xbf800000, 0x00000001, 0xff800000, 0x80000000};
    static const u32 want[] = {0x40493f80, 0xbf803f82, 0x00003f81, 0xff807f80, 0x80007fe0};
    for (int l = 0; l < 5; l++) {
        W->v[0][l] = a[l];
        W->v[1][l] = b[l];
    }
    if (!run())
        return;
    for (int l = 0; l < 5; l++)
        ev(2, l, want[l]);
}

/* ---- f16 and packed math ----------------------------------------------------------------------
 */

static void test_f16(void) {
    if (!load("v_add_f16_e32 v2, v0, v1\nv_fma_f16 v3, v0, v1, v4\nv_mul_f16_e32 v5, v0, v1\n"
              "v_fma_f16 v6, v0, v1, v4 op_sel:[1,0,0,1]\nv_max_f16_e32 v7, v0, v8"))
        return;
    /* fma tie case: a*b+c whose f32 rounding lands exactly on an f16 midpoint.
     * a = 1 + 2^-10 (0x3c01), b = 1 + 2^-10, c = -2^-11 * ... chosen so that the exact
     * result is 1 + 2^-9 + 2^-20 + tiny: f16 nearest is 1 + 2^-9 (0x3c02) */
    for (int l = 0; l < 64; l++) {
        W->v[0][l] = 0x40003c01; /* hi 2.0, lo 1+2^-10 */
        W->v[1][l] = 0x00003c01;
        W->v[4][l] = 0x00000001; /* smallest f16 denormal 2^-24 */
        W->v[2][l] = W->v[3][l] = W->v[5][l] = W->v[6][l] = W->v[7][l] = 0x5555aaaa;
        W->v[8][l] = 0x7e00;
    }
    if (!run())
        return;
    /* (1+2^-10)^2 = 1 + 2^-9 + 2^-20; + 2^-24: still rounds to 1 + 2^-9 = 0x3c02 */
    ev(3, 0, 0x55553c02); /* v_fma_f16 keeps the high half (gfx9 op_sel form) */
    ev(5, 0, 0x00003c02); /* v_mul_f16 clears it */
    ev(2, 0, 0x00004001); /* 1+2^-10 + 1+2^-10 = 2 + 2^-9 = 0x4001 */
    /* op_sel:[1,0,0,1]: S0 = hi half of v0 = 2.0, result into the high half:
     * 2 * (1+2^-10) + 2^-24 = 2 + 2^-9 + 2^-24 -> 0x4001 */
    ev(6, 0, 0x4001aaaa);
    ev(7, 0, 0x00003c01); /* max(x, NaN) = x */
    /* Plain fused rounding: (1+2^-10)^2 + 2^-11 = 1 + 2^-9 + 2^-11 + 2^-20, just above the
     * midpoint between 0x3c02 and 0x3c03. */
    if (load("v_fma_f16 v3, v0, v1, v2")) {
        set_all(0, 0x3c01);
        set_all(1, 0x3c01);
        set_all(2, 0x1000);
        if (run())
            ev(3, 0, 0x3c03);
    }
    /* The double-rounding trap: a = 1+2^-10, b = 0x0ffe = 2^-11 (1-2^-10), c = 1+2^-10.
     * Exact a*b+c = 1 + 3*2^-11 - 2^-31, just below the midpoint of 0x3c01/0x3c02: the answer
     * is 0x3c01.  Rounding to f32 first gives the midpoint exactly, which ties to 0x3c02. */
    if (load("v_fma_f16 v3, v0, v1, v2")) {
        set_all(0, 0x3c01);
        set_all(1, 0x0ffe);
        set_all(2, 0x3c01);
        if (run())
            ev(3, 0, 0x3c01);
    }
    /* a = b = 1 - 2^-11, c = -2^-12: exact = midpoint(0x3bfd, 0x3bfe) + 2^-22 -> 0x3bfe */
    if (load("v_fma_f16 v3, v0, v1, v2")) {
        set_all(0, 0x3bff);
        set_all(1, 0x3bff);
        set_all(2, 0x8c00);
        if (run())
            ev(3, 0, 0x3bfe);
    }
    /* denormal addend: (1+2^-10) * 2^-14 (1+2^-10) - 2^-24 = 2^-14 + 2^-24 + 2^-34 -> 0x0401 */
    if (load("v_fma_f16 v3, v0, v1, v2")) {
        set_all(0, 0x3c01);
        set_all(1, 0x0401);
        set_all(2, 0x8001);
        if (run())
            ev(3, 0, 0x0401);
    }
}

static void test_packed(void) {
    if (!load("v_pk_add_f16 v2, v0, v1\nv_pk_add_f16 v3, v0, v1 op_sel:[1,0] op_sel_hi:[0,1]\n"
              "v_pk_mul_f16 v4, v0, v1 neg_lo:[1,0] neg_hi:[0,1]\n"
              "v_pk_fma_f32 v[6:7], v[8:9], v[10:11], v[12:13]\n"
              "v_pk_add_f32 v[14:15], v[8:9], v[10:11] op_sel:[1,0] op_sel_hi:[0,1]\n"
              "v_pk_mov_b32 v[16:17], v[8:9], v[10:11] op_sel:[1,0]\n"
              "v_pk_add_u16 v18, v19, 1 op_sel_hi:[1,0]\n"
              "v_pk_fma_f16 v20, v0, v1, v0"))
        return;
    for (int l = 0; l < 64; l++) {
        W->v[0][l] = 0x40003c00; /* hi 2, lo 1 */
        W->v[1][l] = 0x44004200; /* hi 4, lo 3 */
        set64(8, l, (u64)bits32(3.0f) << 32 | bits32(2.0f));
        set64(10, l, (u64)bits32(5.0f) << 32 | bits32(4.0f));
        set64(12, l, (u64)bits32(0.5f) << 32 | bits32(0.25f));
        W->v[19][l] = 0xffff0005;
    }
    if (!run())
        return;
    ev(2, 0, 0x46004400); /* hi 6, lo 4 */
    ev(3, 0, 0x45004500); /* lo: hi(v0) + lo(v1) = 2 + 3; hi: lo(v0) + hi(v1) = 1 + 4 */
    ev(4, 0, 0xc800c200); /* lo: -1 * 3 = -3 (0xc200); hi: 2 * -4 = -8 (0xc800) */
    expect(get64(6, 0) == ((u64)bits32(15.5f) << 32 | bits32(8.25f)), "pk_fma_f32 %016llx",
           (unsigned long long)get64(6, 0));
    /* lo: S0.hi + S1.lo = 3 + 4 = 7; hi: S0.lo + S1.hi = 2 + 5 = 7 */
    expect(get64(14, 0) == ((u64)bits32(7.0f) << 32 | bits32(7.0f)), "pk_add_f32 op_sel %016llx",
           (unsigned long long)get64(14, 0));
    expect(get64(16, 0) == ((u64)bits32(4.0f) << 32 | bits32(3.0f)), "pk_mov_b32 %016llx",
           (unsigned long long)get64(16, 0));
    ev(18, 0, 0x00000006); /* lo 5 + 1; hi 0xffff + 1 (constant hi half read from its lo) */
    ev(20, 0, 0x49004400); /* lo 1*3+1 = 4, hi 2*4+2 = 10 */
}

static void test_f64(void) {
    if (!load("v_add_f64 v[4:5], v[0:1], v[2:3]\nv_mul_f64 v[6:7], v[0:1], v[2:3]\n"
              "v_fma_f64 v[8:9], v[0:1], v[2:3], v[0:1]\nv_max_f64 v[10:11], v[0:1], v[2:3]\n"
              "v_ldexp_f64 v[12:13], v[0:1], -3\nv_sqrt_f64_e32 v[14:15], v[2:3]\n"
              "v_floor_f64_e32 v[16:17], v[0:1]\nv_fract_f64_e32 v[18:19], v[0:1]\n"
              "v_cvt_i32_f64_e32 v20, v[0:1]\nv_add_f64 v[22:23], -v[0:1], |v[2:3]|"))
        return;
    static const double a[] = {1.5, -2.25, 0x1p-1074, 1e308, -0.0, NAN};
    static const double b[] = {2.0, 4.0, 0x1p-1074, 1e308, 0.0, 1.0};
    for (int l = 0; l < 64; l++) {
        set64(0, l, bits64(a[l % 6]));
        set64(2, l, bits64(b[l % 6]));
    }
    wave_set_exec(W, ~2ull);
    set64(4, 1, 0x1234);
    if (!run())
        return;
    for (int l = 0; l < 12; l++) {
        if (l == 1) {
            expect(get64(4, 1) == 0x1234, "inactive f64 lane written");
            continue;
        }
        double x = a[l % 6], y = b[l % 6];
        u64 want[] = {bits64(x + y),
                      bits64(x * y),
                      bits64(fma(x, y, x)),
                      bits64(x != x               ? y
                             : (x == 0 && y == 0) ? 0.0
                                                  : fmax(x, y)),
                      bits64(ldexp(x, -3)),
                      bits64(sqrt(y)),
                      bits64(floor(x)),
                      0,
                      0,
                      bits64(-x + fabs(y))};
        int regs[] = {4, 6, 8, 10, 12, 14, 16, 18, 20, 22};
        for (int k = 0; k < 10; k++) {
            if (k == 7 || k == 8)
                continue;
            u64 g = get64(regs[k], l);
            expect(g == want[k] || (from_bits64(want[k]) != from_bits64(want[k]) &&
                                    from_bits64(g) != from_bits64(g)),
                   "f64 op %d lane %d: %a, want %a", k, l, from_bits64(g), from_bits64(want[k]));
        }
    }
    expect(get64(18, 0) == bits64(0.5), "fract(1.5)");
    ev(20, 3, 0x7fffffff); /* 1e308 saturates */
    ev(20, 1 + 6, 0xfffffffe);
}

static void test_denorm_mode(void) {
    if (!load("v_add_f32_e32 v2, v0, v0\nv_mul_f32_e32 v3, v0, v1"))
        return;
    W->mode = MODE_DEFAULT & ~0x30u; /* f32 denormals flushed (input and output) */
    set_all(0, 0x00000003);
    set_all(1, 0x3f800000);
    if (!run())
        return;
    ev(2, 0, 0x00000000); /* denormal inputs read as 0 */
    ev(3, 0, 0x00000000);
    /* f32 flushing applies to f32 values only: an integer or packed 16-bit result whose bits
     * look like an f32 denormal is kept (hardware values, tinygrad test/amd/hw
     * test_v_cvt_i32_f32_positive 42.7 -> 42 and test_cvt_pk_norm_i16_f32_basic, which run
     * with f32 denormals flushed) */
    if (!load("v_cvt_i32_f32_e32 v2, v0\nv_cvt_u32_f32_e32 v3, v0\nv_cvt_flr_i32_f32 v4, v0\n"
              "v_cvt_rpi_i32_f32 v5, v0\nv_frexp_exp_i32_f32 v6, v0\n"
              "v_cvt_pkrtz_f16_f32 v7, v1, 0\nv_cvt_pknorm_i16_f32 v8, v9, 0\n"
              "v_cvt_pknorm_u16_f32 v10, v9, 0"))
        return;
    W->mode = MODE_DEFAULT & ~0x30u;
    set_all(0, 0x422acccd); /* 42.7 */
    set_all(1, 0x3f800000); /* 1.0 */
    set_all(9, 0x3f000000); /* 0.5 */
    if (!run())
        return;
    ev(2, 0, 42);
    ev(3, 0, 42);
    ev(4, 0, 42);
    ev(5, 0, 43);
    ev(6, 0, 6);       /* 42.7 = 0.667 * 2^6 */
    ev(7, 0, 0x3c00);  /* {f16 0, f16 1} */
    ev(8, 0, 0x4000);  /* round(0.5 * 32767) = 16384 */
    ev(10, 0, 0x8000); /* round(0.5 * 65535) = 32768 (nearest even of 32767.5) */
}

static void test_agpr(void) {
    if (!load("v_accvgpr_write_b32 a1, v0\nv_accvgpr_read_b32 v2, a1\n"
              "v_accvgpr_mov_b32 a3, a1\nv_accvgpr_write_b32 a4, 7"))
        return;
    set_all(0, 0xcafe);
    wave_set_exec(W, 0xffull);
    if (!run())
        return;
    expect(W->a[1][0] == 0xcafe && W->a[3][7] == 0xcafe && W->a[3][8] == 0 && W->a[4][0] == 7,
           "agpr moves: a1 %x a3 %x a3[8] %x a4 %x", W->a[1][0], W->a[3][7], W->a[3][8],
           W->a[4][0]);
    ev(2, 5, 0xcafe);
    ev(2, 9, 0);
}

/* The AGPR moves between registers (exec.c mov_rr_fits, valu.c x_mov_rr: a row copy), every
 * lane's own value, under full and partial EXEC masks (high lanes too) and none: written lanes
 * take the source, the others keep their old value; a move onto itself changes nothing. */
static void test_agpr_rows(void) {
    static const u64 masks[] = {
        ~0ull, 0xffull, 0xf0f0f0f00f0f0f0full, 1ull << 63, 0x5555555555555555ull, 0};
    for (unsigned m = 0; m < sizeof masks / sizeof masks[0]; m++) {
        if (!load("v_accvgpr_write_b32 a2, v0\nv_accvgpr_read_b32 v3, a1\n"
                  "v_accvgpr_mov_b32 a4, a1\nv_accvgpr_mov_b32 a5, a5\n"
                  "v_accvgpr_read_b32 v6, a5"))
            return;
        for (u32 l = 0; l < 64; l++) {
            W->v[0][l] = 0x10000u + l, W->a[1][l] = 0x20000u + 3 * l;
            W->a[2][l] = 0xa2a20000u + l, W->v[3][l] = 0x33330000u + l;
            W->a[4][l] = 0x44440000u + l, W->a[5][l] = 0x55550000u + l;
            W->v[6][l] = 0x66660000u + l;
        }
        wave_set_exec(W, masks[m]);
        if (!run())
            return;
        int bad = 0;
        for (u32 l = 0; l < 64 && !bad; l++) {
            int on = (int)(masks[m] >> l & 1);
            bad = W->a[2][l] != (on ? 0x10000u + l : 0xa2a20000u + l) ||
                  W->v[3][l] != (on ? 0x20000u + 3 * l : 0x33330000u + l) ||
                  W->a[4][l] != (on ? 0x20000u + 3 * l : 0x44440000u + l) ||
                  W->a[5][l] != 0x55550000u + l ||
                  W->v[6][l] != (on ? 0x55550000u + l : 0x66660000u + l);
            if (bad)
                expect(0, "exec %016llx lane %u: a2 %x v3 %x a4 %x a5 %x v6 %x",
                       (unsigned long long)masks[m], l, W->a[2][l], W->v[3][l], W->a[4][l],
                       W->a[5][l], W->v[6][l]);
        }
        expect(!bad, "agpr row moves under exec %016llx", (unsigned long long)masks[m]);
    }
}

/* ---- more f16: transcendental unit, integer conversions, unfused mac, mix ------------------ */

static void test_f16_more(void) {
    if (!load("v_sqrt_f16_e32 v1, v0\nv_rcp_f16_e32 v2, v0\nv_exp_f16_e32 v3, v0\n"
              "v_log_f16_e32 v4, v0\nv_cvt_i16_f16_e32 v5, v0\nv_cvt_f16_i16_e32 v6, v7\n"
              "v_cvt_f16_u16_e32 v8, v7\nv_ldexp_f16_e32 v9, v0, v10\n"
              "v_frexp_exp_i16_f16_e32 v11, v0\nv_add_u16_e32 v12, v7, v7\n"
              "v_mad_u16 v13, v7, v7, v7\nv_pack_b32_f16 v14, v0, v2\n"
              "v_cvt_pkrtz_f16_f32 v15, v16, v17\nv_min3_f16 v18, v0, v2, v1"))
        return;
    set_all(0, 0x4400);     /* 4.0 */
    set_all(7, 0xdead8003); /* i16 -32765 / u16 0x8003 */
    set_all(10, 0xffff);    /* -1 */
    set_all(13, 0x12340000);
    set_all(16, 0x3f800fff); /* 1 + tiny: RTZ gives 1.0 (0x3c00), RNE would too */
    set_all(17, 0xc77fff00); /* -65535: beyond the f16 range; RTZ gives -65504 (0xfbff) */
    if (!run())
        return;
    ev(1, 0, 0x4000); /* sqrt 4 = 2 */
    ev(2, 0, 0x3400); /* 1/4 */
    ev(3, 0, 0x4c00); /* 2^4 = 16 */
    ev(4, 0, 0x4000); /* log2 4 = 2 */
    ev(5, 0, 4);
    ev(6, 0, 0xf800);  /* -32765 -> -32768 (spacing 16 there; -32752 is farther) */
    ev(8, 0, 0x7800);  /* 32771 -> 32768 */
    ev(9, 0, 0x4000);  /* 4 * 2^-1 */
    ev(11, 0, 3);      /* 4 = 0.5 * 2^3 */
    ev(12, 0, 0x0006); /* 0x8003 + 0x8003 = 0x10006 -> 0x0006, high half cleared */
    ev(13, 0, 0x12340000 | ((0x8003u * 0x8003u + 0x8003u) & 0xffff)); /* high half kept */
    ev(14, 0, 0x34004400);
    ev(15, 0, 0xfbff3c00);
    ev(18, 0, 0x3400); /* min3(4, 0.25, 2) */
    if (load("v_mac_f16_e32 v2, v0, v1\nv_fma_mix_f32 v3, v0, v1, v4 op_sel_hi:[1,1,0]\n"
             "v_fma_mixlo_f16 v5, v0, v1, v4 op_sel_hi:[1,1,0]\n"
             "v_pk_add_f16 v6, v0, 1.0\nv_pk_mul_f16 v7, v8, -2.0\n"
             "v_fma_mix_f32 v9, v0, 1.0, v4 op_sel_hi:[1,1,0]")) {
        /* mac (unfused): (1+2^-10)^2 = 1 + 2^-9 + 2^-20 rounds to 1 + 2^-9 first, and adding
         * -(1 + 2^-9) gives 0.  Fused (the mix ops) keeps 2^-20 (f16 denormal 0x0010). */
        set_all(0, 0x3c01);
        set_all(1, 0x3c01);
        set_all(2, 0xbc02);
        set_all(4, 0xbf804000); /* -(1 + 2^-9) as f32 */
        set_all(5, 0xabcd0000);
        set_all(8, 0x40003c00);
        if (run()) {
            ev(2, 0, 0x0000);
            ev(3, 0, bits32(0x1p-20f)); /* f16 x f16 + f32, one rounding */
            ev(5, 0, 0xabcd0010);       /* mixlo keeps the high half */
            /* VOP3P reads the inline 1.0 as 0x00003c00 and op_sel_hi picks its high half, 0
             * (hardware value, tinygrad test/amd/hw test_v_pk_add_f16_with_inline_constant):
             * lo 1+2^-10 + 1 ties to 2.0, hi 0 + 0 */
            ev(6, 0, 0x00004000);
            ev(7, 0, 0x0000c000); /* (2, 1) * (0, -2) */
            /* the inline 1.0 read as an f16 source is f16 1.0: (1+2^-10) - (1+2^-9) = -2^-10 */
            ev(9, 0, 0xba800000);
        }
    }
}

/* VOP3P inline constants: a 32-bit value (f16 constants zero-extended, integers sign-extended,
 * float constants of the integer ops as f32 bits) whose halves op_sel/op_sel_hi pick.  The
 * facts: RDNA3 hardware (tinygrad test/amd/hw test_vop3p) and clang-22's gfx90a/gfx942/gfx950
 * code, which builds (2h,2h)*x + (1h,0) as "v_pk_fma_f16 ..., 2.0, 1.0 op_sel_hi:[1,0,1]",
 * x + (0x4000,0x4000) as "v_pk_add_u16 ..., 2.0 op_sel:[0,1]", x + (5,0) as "..., 5", x + (0,5)
 * as "..., 5 op_sel:[0,1] op_sel_hi:[1,0]" and x + (-1,-1) as "..., -1". */
static void test_packed_const(void) {
    if (!load("v_pk_fma_f16 v1, v0, 2.0, 1.0 op_sel_hi:[1,0,1]\n"
              "v_pk_add_u16 v2, v0, 2.0 op_sel:[0,1]\nv_pk_add_u16 v3, v0, 2.0\n"
              "v_pk_add_u16 v4, v0, 5\nv_pk_add_u16 v5, v0, 5 op_sel:[0,1] op_sel_hi:[1,0]\n"
              "v_pk_add_u16 v6, v0, -1\nv_pk_mul_f16 v7, v0, 0.5 op_sel:[0,1] op_sel_hi:[1,0]\n"
              "v_pk_add_f16 v8, v0, 1.0"))
        return;
    set_all(0, 0x44004200); /* (hi 4.0, lo 3.0) as f16; as u16 (0x4400, 0x4200) */
    if (!run())
        return;
    ev(1, 0, 0x48004700); /* (4*2 + 0, 3*2 + 1) */
    ev(2, 0, 0x84008200); /* + (0x4000, 0x4000) */
    ev(3, 0, 0x84004200); /* + (0x4000, 0) */
    ev(4, 0, 0x44004205); /* + (0, 5) */
    ev(5, 0, 0x44054200); /* + (5, 0) */
    ev(6, 0, 0x43ff41ff); /* + (0xffff, 0xffff) */
    ev(7, 0, 0x40000000); /* * (0.5, 0) */
    ev(8, 0, 0x44004400); /* + (0, 1.0) */
}

/* ---- more integer and misc ops -------------------------------------------------------------- */

static void test_misc(void) {
    if (!load("v_mul_legacy_f32 v1, v0, v2\nv_rcp_f32_e32 v3, v4\nv_exp_f32_e32 v5, v6\n"
              "v_cvt_pk_u8_f32 v7, v8, 1, v9\nv_sad_u8 v10, v11, v12, 5\n"
              "v_lerp_u8 v13, v11, v12, v14\nv_cvt_off_f32_i4_e32 v15, v16\n"
              "v_swap_b32 v17, v18\nv_cvt_f32_ubyte1_e32 v19, v11\n"
              "v_msad_u8 v20, v11, v21, 0\nv_cvt_flr_i32_f32_e32 v22, v23"))
        return;
    set_all(0, 0);
    set_all(2, 0x7f800000); /* 0 * inf = 0 (legacy) */
    set_all(4, 0x00000010); /* denormal: rcp input flushed -> +inf */
    set_all(6, 0xc3000000); /* 2^-128 is denormal: flushed -> 0 */
    set_all(8, 0x4337a000); /* 183.625 -> 184 */
    set_all(9, 0x11223344);
    set_all(11, 0x10ff2080);
    set_all(12, 0x20013070);
    set_all(14, 0x01010001);
    set_all(16, 0x0000000f); /* -1 / 16 */
    set_all(17, 1);
    set_all(18, 2);
    set_all(21, 0x00ff0070);
    set_all(23, 0xbf000001); /* -0.50000006 -> -1 */
    wave_set_exec(W, ~1ull);
    if (!run())
        return;
    ev(1, 1, 0);
    ev(3, 1, 0x7f800000);
    ev(5, 1, 0);
    ev(7, 1, 0x1122b844);
    /* |0x10-0x20| + |0xff-0x01| + |0x20-0x30| + |0x80-0x70| + 5 */
    ev(10, 1, 0x10 + 0xfe + 0x10 + 0x10 + 5);
    /* per byte (a + b + (c & 1)) >> 1 */
    ev(13, 1,
       ((0x10 + 0x20 + 1) >> 1) << 24 | ((0xff + 0x01 + 1) >> 1) << 16 |
           ((0x20 + 0x30 + 0) >> 1) << 8 | ((0x80 + 0x70 + 1) >> 1));
    ev(15, 1, 0xbd800000);
    ev(17, 1, 2);
    ev(18, 1, 1);
    ev(17, 0, 1); /* lane 0 is off: no swap */
    ev(19, 1, bits32(32.0f));
    /* masked SAD skips bytes whose reference (S1) byte is 0: bytes 3 and 1 */
    ev(20, 1, (0xff - 0xff) + (0x80 - 0x70));
    ev(22, 1, 0xffffffff);
    if (IA == ISA_GFX950 && load("v_bitop3_b32 v1, v0, v2, v3 bitop3:0x96")) {
        set_all(0, 0xff00ff00);
        set_all(2, 0xf0f0f0f0);
        set_all(3, 0xcccccccc);
        if (run())
            ev(1, 0, 0xff00ff00 ^ 0xf0f0f0f0 ^ 0xcccccccc); /* 0x96 is the 3-input xor */
    }
    if (load("v_readfirstlane_b32 s0, v0\nv_cmpx_gt_u32_e64 s[2:3], v0, 3\n"
             "v_cmp_eq_u32_sdwa s[4:5], v1, v2 src0_sel:BYTE_0 src1_sel:BYTE_1\n"
             "v_mov_b32_dpp v3, v0 row_newbcast:4 row_mask:0xf bank_mask:0xf")) {
        for (int l = 0; l < 64; l++) {
            W->v[0][l] = (u32)l;
            W->v[1][l] = 0x100 + (u32)l;
            W->v[2][l] = 0x300 | (l == 7 ? 7u << 8 : 0);
            W->v[3][l] = 0xeeee;
        }
        wave_set_exec(W, 0);
        W->s[126] = 0xf0; /* lanes 4..7 */
        if (run()) {
            es(0, 4);
            es64(2, 0xf0);
            es64(126, 0xf0);
            es64(4, 1ull << 7); /* byte 0 of v1 (7) == byte 1 of v2 (7) only in lane 7 */
            ev(3, 5, 4);        /* lane 4 of the row (an active lane) */
            ev(3, 1, 0xeeee);
        }
    }
    if (load("v_cmp_lt_f16_e32 vcc, v0, v1\nv_cmp_gt_i16_e64 s[4:5], v0, v1\n"
             "v_cmp_ge_u64_e64 s[6:7], v[2:3], v[4:5]")) {
        for (int l = 0; l < 64; l++) {
            W->v[0][l] = l & 1 ? 0xbc00 : 0x3c00;      /* -1 / 1 (as i16: negative / positive) */
            W->v[1][l] = 0x0000ffff * (l & 2 ? 1 : 0); /* f16 NaN? 0xffff is a NaN; else +0 */
            set64(2, l, (u64)l << 33);
            set64(4, l, 20ull << 33);
        }
        if (run()) {
            u64 lt = 0, gt = 0, ge = 0;
            for (int l = 0; l < 64; l++) {
                int nan = (l & 2) != 0;
                lt |= (u64)(!nan && (l & 1)) << l; /* -1 < 0 */
                int16_t a = (int16_t)(l & 1 ? 0xbc00 : 0x3c00), b = (int16_t)(nan ? 0xffff : 0);
                gt |= (u64)(a > b) << l;
                ge |= (u64)(l >= 20) << l;
            }
            es64(106, lt);
            es64(4, gt);
            es64(6, ge);
        }
    }
}

/* ---- 8-bit floats and integer dot products ------------------------------------------------- */

/* gfx90a has the integer dot products but no 8-bit floats */
static void test_dot_gfx90a(void) {
    if (!load("v_dot4_i32_i8 v8, v9, v10, v11\nv_dot4c_i32_i8_e32 v12, v9, v10\n"
              "v_dot2_i32_i16 v13, v9, v10, 0"))
        return;
    set_all(9, 0x01ff7f80);
    set_all(10, 0x02030405);
    set_all(11, 1000);
    set_all(12, 10);
    if (!run())
        return;
    ev(8, 0, (u32)(-128 * 5 + 127 * 4 - 1 * 3 + 1 * 2 + 1000));
    ev(12, 0, (u32)(-128 * 5 + 127 * 4 - 1 * 3 + 1 * 2 + 10));
    ev(13, 0, (u32)((int16_t)0x7f80 * 0x0405 + (int16_t)0x01ff * 0x0203));
}

static void test_fp8_dot(void) {
    if (IA == ISA_GFX90A) {
        test_dot_gfx90a();
        return;
    }
    if (!load("v_cvt_f32_fp8_e32 v1, v0\nv_cvt_f32_bf8_e32 v2, v0\n"
              "v_cvt_pk_fp8_f32 v3, v4, v5\nv_cvt_pk_fp8_f32 v3, v5, v4 op_sel:[0,0,1]\n"
              "v_cvt_pk_f32_fp8_e32 v[6:7], v3\nv_dot4_i32_i8 v8, v9, v10, v11\n"
              "v_dot4c_i32_i8_e32 v12, v9, v10\nv_dot2_i32_i16 v13, v9, v10, 0"))
        return;
    static const u32 in[] = {0x80, 0x7f, 0x08, 0x01, 0x40, 0x38, 0x7e, 0x7c};
    for (int l = 0; l < 8; l++) {
        W->v[0][l] = in[l] | 0xab00;
        W->v[4][l] = l == 1 ? bits32(1000.0f) : bits32(1.0f);
        W->v[5][l] = bits32(-2.0f);
    }
    set_all(9, 0x01ff7f80);
    set_all(10, 0x02030405);
    set_all(11, 1000);
    set_all(12, 10);
    if (!run())
        return;
    int g950 = IA == ISA_GFX950;
    /* fp8: gfx942 E4M3 bias 8 (0x80 NaN, max 240); gfx950 OCP E4M3 bias 7 (0x7f NaN, max 448) */
    if (g950)
        ev(1, 0, 0x80000000); /* OCP 0x80 is -0 */
    else
        expect(from_bits32(W->v[1][0]) != from_bits32(W->v[1][0]), "fp8 0x80 is NaN on gfx942");
    if (!g950) {
        ev(1, 1, bits32(240.0f));
        ev(1, 2, bits32(0x1p-7f));
        ev(1, 3, bits32(0x1p-10f));
        ev(1, 4, bits32(1.0f));
        ev(2, 4, bits32(1.0f)); /* bf8 E5M2 bias 16: 0x40 = 2^0 */
        /* low word {fp8(-2) = 0xc8, fp8(1) = 0x40}, high word the swapped pair */
        ev(3, 0, 0x40c8c840);
        ev(3, 1, 0x80c8c880); /* 1000 overflows (no clamp): NaN 0x80 */
    } else {
        expect(from_bits32(W->v[1][1]) != from_bits32(W->v[1][1]), "OCP fp8 0x7f is NaN");
        ev(1, 5, bits32(1.0f));
        ev(1, 6, bits32(448.0f));
        ev(2, 7, bits32(INFINITY)); /* OCP E5M2 0x7c = inf */
        ev(3, 0, 0x38c0c038);
        ev(3, 1, 0x7fc0c07f); /* 1000 overflows E4M3 (no clamp): NaN 0x7f */
    }
    /* pk_f32_fp8 of the low word of v3 (lane 0): f32(fp8(1.0)), f32(fp8(-2.0)) */
    expect(get64(6, 0) == ((u64)bits32(-2.0f) << 32 | bits32(1.0f)), "pk_f32_fp8 %016llx",
           (unsigned long long)get64(6, 0));
    ev(8, 0, (u32)(-128 * 5 + 127 * 4 - 1 * 3 + 1 * 2 + 1000));
    ev(12, 0, (u32)(-128 * 5 + 127 * 4 - 1 * 3 + 1 * 2 + 10));
    ev(13, 0, (u32)((int16_t)0x7f80 * 0x0405 + (int16_t)0x01ff * 0x0203));
}

/* ---- gfx950-only ops ---------------------------------------------------------------------- */

static void test_gfx950(void) {
    if (!load("v_permlane16_swap_b32 v1, v2\nv_permlane32_swap_b32 v3, v4\n"
              "v_ashr_pk_i8_i32 v5, v6, v7, 4 op_sel:[0,0,0,1]\nv_ashr_pk_u8_i32 v8, v6, v7, 4\n"
              "v_cvt_sr_bf16_f32 v9, v10, v11\nv_pk_maximum3_f16 v12, v13, v14, v15\n"
              "v_sat_pk_u8_i16 v16, v17"))
        return;
    for (int l = 0; l < 64; l++) {
        W->v[1][l] = 100 + l;
        W->v[2][l] = 200 + l;
        W->v[3][l] = 300 + l;
        W->v[4][l] = 400 + l;
    }
    set_all(5, 0x1234abcd);
    set_all(6, 0x00001000); /* >> 4 = 256 -> saturates to 127 (i8) / 255 (u8) */
    set_all(7, 0xfffff800); /* >> 4 = -128 */
    set_all(8, 0x5555aaaa);
    set_all(10, 0x3f808000); /* bf16 tie: truncation + random decides */
    W->v[11][0] = 0x7fff;    /* below 0x8000: stays 0x3f80 */
    W->v[11][1] = 0x8000;    /* reaches the next value: 0x3f81 */
    set_all(13, 0x7e003c00); /* hi NaN, lo 1.0 */
    set_all(14, 0x3c008000); /* hi 1.0, lo -0 */
    set_all(15, 0xbc000000); /* hi -1, lo +0 */
    set_all(17, 0xff80012c); /* hi -128 -> 0, lo 300 -> 255 */
    if (!run())
        return;
    ev(1, 16, 200); /* vdst row 1 <- src0 row 0 */
    ev(2, 0, 116);  /* src0 row 0 <- vdst row 1 */
    ev(1, 0, 100);  /* vdst row 0 unchanged */
    ev(1, 48, 232);
    ev(3, 40, 408);
    ev(4, 8, 340);
    ev(5, 0, 0x807fabcdu); /* high half: {sat(-128), sat(256)}, low kept */
    ev(8, 0, 0x555500ffu);
    ev(9, 0, 0x3f80);
    ev(9, 1, 0x3f81);
    ev(12, 0, 0x7e003c00);
    ev(16, 0, 0x00ff);
}

/* v_trig_preop_f64: segment 0 of 2/pi is its first 53 fraction bits, 0x145f306dc9c882 / 2^53
 * (2/pi = 0.a2f9836e4e441529fc...), segment 1 the next 53; a huge S0 moves the window down. */
static void test_trig_preop(void) {
    if (!load("v_trig_preop_f64 v[2:3], v[0:1], 0\nv_trig_preop_f64 v[4:5], v[0:1], 1\n"
              "v_trig_preop_f64 v[6:7], v[8:9], 0"))
        return;
    for (int l = 0; l < 64; l++) {
        set64(0, l, bits64(1.0));
        set64(8, l, bits64(0x1p100)); /* exponent 1123: window moves down 46 bits */
    }
    if (!run())
        return;
    /* 2/pi in hex: 0.a2f9836e4e441529fc2757d1f534ddc0db629599... ; the first 53 bits are
     * 0x145f306dc9c882 (a2f9836e4e4415 >> 3), the next 53 bits follow */
    expect(get64(2, 0) == bits64(ldexp((double)0x145f306dc9c882ull, -53)), "segment 0: %a",
           from_bits64(get64(2, 0)));
    expect(get64(4, 0) == bits64(ldexp((double)0x14a7f09d5f47d4ull, -106)), "segment 1: %a",
           from_bits64(get64(4, 0)));
    /* shift 46: fraction bits 47..99 of 2/pi, 0x0a94fe13abe8f (leading zeros included) */
    expect(get64(6, 0) == bits64(ldexp((double)0xa94fe13abe8full, -99)), "shifted: %a",
           from_bits64(get64(6, 0)));
}

int main(void) {
    W = malloc(sizeof *W);
    const char *arches[] = {"gfx950", "gfx942", "gfx90a"};
    for (int a = 0; a < 3; a++) {
        ARCH = arches[a];
        IA = a == 0 ? ISA_GFX950 : a == 1 ? ISA_GFX942 : ISA_GFX90A;
        test_f32_binary();
        test_fma_single_rounding();
        test_constants();
        test_modifiers();
        test_minmax();
        test_minmax_formats();
        test_transcendental();
        test_fdiv();
        test_fdiv_sweep();
        test_carry();
        test_int();
        test_perm_all();
        test_int64();
        test_shift64();
        test_cmp();
        test_cndmask();
        test_sdwa();
        test_dpp();
        test_cvt();
        test_f16();
        test_packed();
        test_packed_const();
        test_f64();
        test_denorm_mode();
        test_agpr();
        test_agpr_rows();
        test_f16_more();
        test_misc();
        test_fp8_dot();
        test_trig_preop();
        if (a == 0) {
            test_bf16();
            test_gfx950();
        }
    }
    snippet_prog_free(&SP);
    free(W);
    return check_report("valu", checks, fails);
}
