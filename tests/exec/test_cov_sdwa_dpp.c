/* test_cov_sdwa_dpp.c - the SDWA, DPP and _e64 encodings of the common 32- and 16-bit VOP1/VOP2 ops
 * on llvm-mc-22 encodings, gfx950 and gfx942.
 *
 * Each op runs in five forms on 64 lanes of edge values: DPP quad_perm:[1,0,3,2] with row 0
 * masked off (row_mask:0xe), DPP row_mirror, SDWA with src0_sel:WORD_1 and src1_sel:BYTE_2, its
 * VOP3 _e64 form, and (32-bit integer ops) SDWA dst_sel:BYTE_1 dst_unused:UNUSED_PRESERVE.  The
 * expected value of each lane is the op's host reference (written from the manual's pseudocode)
 * applied to the operands the encoding selects, computed on the host: the lane src0 comes from
 * (DPP), the word/byte it extracts (SDWA), and the bits of the destination it writes.  run_sel
 * covers every SDWA source select, with and without sext(). */
#include "common/check.h"
#include "common/cov.h"

typedef uint32_t u32;
static wave *w;

static float f(u32 x) { return from_bits32(x); }
static u32 fb(float v) { return bits32(v); }
static double h(u32 x) { return cov_h2d(x & 0xffff); }
static u32 hb(double v) {
    _Float16 x = (_Float16)v;
    uint16_t u;
    memcpy(&u, &x, 2);
    return u;
}
static int32_t sx(u32 v, int bits) { return (int32_t)(v << (32 - bits)) >> (32 - bits); }
static u32 cvt_i32(float v) {
    return v != v                ? 0
           : v >= 2147483647.0f  ? 0x7fffffff
           : v <= -2147483648.0f ? 0x80000000
                                 : (u32)(int32_t)v;
}
/* max/min with -0 < +0 (IEEE mode) */
static double dmax(double x, double y) {
    return x == 0 && y == 0 ? (signbit(x) ? y : x) : fmax(x, y);
}
static double dmin(double x, double y) {
    return x == 0 && y == 0 ? (signbit(x) ? x : y) : fmin(x, y);
}
static u32 cvt_u32(float v) { return v != v || v <= 0 ? 0 : v >= 4294967295.0f ? ~0u : (u32)v; }

enum { I32 = 1, I16, F32, F16 }; /* result/compare kind */
typedef struct {
    const char *name;
    int vop1, kind;
} op;
static const op ops[] = {
    {"v_add_u32", 0, I32},        {"v_sub_u32", 0, I32},        {"v_subrev_u32", 0, I32},
    {"v_and_b32", 0, I32},        {"v_or_b32", 0, I32},         {"v_xor_b32", 0, I32},
    {"v_xnor_b32", 0, I32},       {"v_lshlrev_b32", 0, I32},    {"v_lshrrev_b32", 0, I32},
    {"v_ashrrev_i32", 0, I32},    {"v_max_i32", 0, I32},        {"v_min_i32", 0, I32},
    {"v_max_u32", 0, I32},        {"v_min_u32", 0, I32},        {"v_mul_u32_u24", 0, I32},
    {"v_mul_i32_i24", 0, I32},    {"v_mul_hi_u32_u24", 0, I32}, {"v_mul_hi_i32_i24", 0, I32},
    {"v_add_u16", 0, I16},        {"v_sub_u16", 0, I16},        {"v_subrev_u16", 0, I16},
    {"v_mul_lo_u16", 0, I16},     {"v_lshlrev_b16", 0, I16},    {"v_lshrrev_b16", 0, I16},
    {"v_ashrrev_i16", 0, I16},    {"v_max_i16", 0, I16},        {"v_min_i16", 0, I16},
    {"v_max_u16", 0, I16},        {"v_min_u16", 0, I16},        {"v_add_f32", 0, F32},
    {"v_sub_f32", 0, F32},        {"v_subrev_f32", 0, F32},     {"v_mul_f32", 0, F32},
    {"v_max_f32", 0, F32},        {"v_min_f32", 0, F32},        {"v_add_f16", 0, F16},
    {"v_sub_f16", 0, F16},        {"v_subrev_f16", 0, F16},     {"v_mul_f16", 0, F16},
    {"v_max_f16", 0, F16},        {"v_min_f16", 0, F16},        {"v_mov_b32", 1, I32},
    {"v_not_b32", 1, I32},        {"v_bfrev_b32", 1, I32},      {"v_ffbh_u32", 1, I32},
    {"v_ffbl_b32", 1, I32},       {"v_ffbh_i32", 1, I32},       {"v_cvt_f32_i32", 1, F32},
    {"v_cvt_f32_u32", 1, F32},    {"v_cvt_f32_ubyte0", 1, F32}, {"v_cvt_f32_ubyte1", 1, F32},
    {"v_cvt_f32_ubyte2", 1, F32}, {"v_cvt_f32_ubyte3", 1, F32}, {"v_cvt_i32_f32", 1, I32},
    {"v_cvt_u32_f32", 1, I32},    {"v_trunc_f32", 1, F32},      {"v_floor_f32", 1, F32},
    {"v_ceil_f32", 1, F32},       {"v_rndne_f32", 1, F32},      {"v_cvt_f32_f16", 1, F32},
    {"v_cvt_f16_f32", 1, F16},    {"v_cvt_f16_u16", 1, F16},    {"v_cvt_f16_i16", 1, F16},
    {"v_cvt_u16_f16", 1, I16},    {"v_cvt_i16_f16", 1, I16},    {"v_trunc_f16", 1, F16},
    {"v_floor_f16", 1, F16},      {"v_ceil_f16", 1, F16},       {"v_rndne_f16", 1, F16},
};

static u32 ref(const char *n, u32 a, u32 b) {
#define IS(s) (!strcmp(n, s))
    if (IS("v_add_u32"))
        return a + b;
    if (IS("v_sub_u32"))
        return a - b;
    if (IS("v_subrev_u32"))
        return b - a;
    if (IS("v_and_b32"))
        return a & b;
    if (IS("v_or_b32"))
        return a | b;
    if (IS("v_xor_b32"))
        return a ^ b;
    if (IS("v_xnor_b32"))
        return ~(a ^ b);
    if (IS("v_lshlrev_b32"))
        return b << (a & 31);
    if (IS("v_lshrrev_b32"))
        return b >> (a & 31);
    if (IS("v_ashrrev_i32"))
        return (u32)((int32_t)b >> (a & 31));
    if (IS("v_max_i32"))
        return (int32_t)a > (int32_t)b ? a : b;
    if (IS("v_min_i32"))
        return (int32_t)a < (int32_t)b ? a : b;
    if (IS("v_max_u32"))
        return a > b ? a : b;
    if (IS("v_min_u32"))
        return a < b ? a : b;
    if (IS("v_mul_u32_u24"))
        return (a & 0xffffff) * (b & 0xffffff);
    if (IS("v_mul_i32_i24"))
        return (u32)((int64_t)sx(a, 24) * sx(b, 24));
    if (IS("v_mul_hi_u32_u24"))
        return (u32)(((uint64_t)(a & 0xffffff) * (b & 0xffffff)) >> 32);
    if (IS("v_mul_hi_i32_i24"))
        return (u32)(((int64_t)sx(a, 24) * sx(b, 24)) >> 32);
    if (IS("v_add_u16"))
        return a + b;
    if (IS("v_sub_u16"))
        return a - b;
    if (IS("v_subrev_u16"))
        return b - a;
    if (IS("v_mul_lo_u16"))
        return (a & 0xffff) * (b & 0xffff);
    if (IS("v_lshlrev_b16"))
        return b << (a & 15);
    if (IS("v_lshrrev_b16"))
        return (b & 0xffff) >> (a & 15);
    if (IS("v_ashrrev_i16"))
        return (u32)(sx(b, 16) >> (a & 15));
    if (IS("v_max_i16"))
        return sx(a, 16) > sx(b, 16) ? a : b;
    if (IS("v_min_i16"))
        return sx(a, 16) < sx(b, 16) ? a : b;
    if (IS("v_max_u16"))
        return (a & 0xffff) > (b & 0xffff) ? a : b;
    if (IS("v_min_u16"))
        return (a & 0xffff) < (b & 0xffff) ? a : b;
    if (IS("v_add_f32"))
        return fb(f(a) + f(b));
    if (IS("v_sub_f32"))
        return fb(f(a) - f(b));
    if (IS("v_subrev_f32"))
        return fb(f(b) - f(a));
    if (IS("v_mul_f32"))
        return fb(f(a) * f(b));
    if (IS("v_max_f32"))
        return fb((float)dmax(f(a), f(b)));
    if (IS("v_min_f32"))
        return fb((float)dmin(f(a), f(b)));
    if (IS("v_add_f16"))
        return hb(h(a) + h(b));
    if (IS("v_sub_f16"))
        return hb(h(a) - h(b));
    if (IS("v_subrev_f16"))
        return hb(h(b) - h(a));
    if (IS("v_mul_f16"))
        return hb(h(a) * h(b));
    if (IS("v_max_f16"))
        return hb(dmax(h(a), h(b)));
    if (IS("v_min_f16"))
        return hb(dmin(h(a), h(b)));
    if (IS("v_mov_b32"))
        return a;
    if (IS("v_not_b32"))
        return ~a;
    if (IS("v_bfrev_b32")) {
        u32 r = 0;
        for (int i = 0; i < 32; i++)
            r |= ((a >> i) & 1) << (31 - i);
        return r;
    }
    if (IS("v_ffbh_u32"))
        return a ? (u32)__builtin_clz(a) : ~0u;
    if (IS("v_ffbl_b32"))
        return a ? (u32)__builtin_ctz(a) : ~0u;
    if (IS("v_ffbh_i32")) {
        u32 x = (int32_t)a < 0 ? ~a : a;
        return x ? (u32)__builtin_clz(x) : ~0u;
    }
    if (IS("v_cvt_f32_i32"))
        return fb((float)(int32_t)a);
    if (IS("v_cvt_f32_u32"))
        return fb((float)a);
    if (IS("v_cvt_f32_ubyte0"))
        return fb((float)(a & 0xff));
    if (IS("v_cvt_f32_ubyte1"))
        return fb((float)((a >> 8) & 0xff));
    if (IS("v_cvt_f32_ubyte2"))
        return fb((float)((a >> 16) & 0xff));
    if (IS("v_cvt_f32_ubyte3"))
        return fb((float)(a >> 24));
    if (IS("v_cvt_i32_f32"))
        return cvt_i32(f(a));
    if (IS("v_cvt_u32_f32"))
        return cvt_u32(f(a));
    if (IS("v_trunc_f32"))
        return fb(truncf(f(a)));
    if (IS("v_floor_f32"))
        return fb(floorf(f(a)));
    if (IS("v_ceil_f32"))
        return fb(ceilf(f(a)));
    if (IS("v_rndne_f32"))
        return fb(nearbyintf(f(a)));
    if (IS("v_cvt_f32_f16"))
        return fb((float)h(a));
    if (IS("v_cvt_f16_f32"))
        return hb(f(a));
    if (IS("v_cvt_f16_u16"))
        return hb(a & 0xffff);
    if (IS("v_cvt_f16_i16"))
        return hb(sx(a, 16));
    if (IS("v_cvt_u16_f16")) {
        double v = h(a);
        return v != v || v <= 0 ? 0 : v >= 65535 ? 65535 : (u32)v;
    }
    if (IS("v_cvt_i16_f16")) {
        double v = h(a);
        return v != v ? 0 : v >= 32767 ? 32767 : v <= -32768 ? 0x8000 : (u32)(int32_t)v & 0xffff;
    }
    if (IS("v_trunc_f16"))
        return hb(trunc(h(a)));
    if (IS("v_floor_f16"))
        return hb(floor(h(a)));
    if (IS("v_ceil_f16"))
        return hb(ceil(h(a)));
    if (IS("v_rndne_f16"))
        return hb(nearbyint(h(a)));
#undef IS
    return 0xbad;
}

/* Edge values: f32 and f16 (both halves) specials, integer extremes, byte patterns. */
static const u32 VA[8] = {0x3f800000, 0xc0200000, 0x00000005, 0xffffff80,
                          0x7f7fffff, 0x3c00c500, 0x80000001, 0x4b800021};
static const u32 VB[8] = {0x40400000, 0x00000003, 0xbc007c00, 0x80000000,
                          0x3e00bf80, 0x00ff1f00, 0x7fffffff, 0x41c80000};

static int same(int kind, u32 got, u32 want) {
    if (kind == F32 && f(want) != f(want))
        return f(got) != f(got);
    if (kind == F16 || kind == I16) {
        got &= 0xffff, want &= 0xffff;
        if (kind == F16 && (want & 0x7c00) == 0x7c00 && (want & 0x3ff))
            return (got & 0x7c00) == 0x7c00 && (got & 0x3ff);
    }
    return got == want;
}

static void run_op(const char *arch, const op *o) {
    char text[1024];
    const char *s1 = o->vop1 ? "" : ", v1";
    int n = snprintf(text, sizeof text,
                     "%s_dpp v3, v0%s quad_perm:[1,0,3,2] row_mask:0xe bank_mask:0xf\n"
                     "%s_dpp v4, v0%s row_mirror row_mask:0xf bank_mask:0xf\n"
                     "%s_sdwa v5, v0%s dst_sel:DWORD dst_unused:UNUSED_PAD src0_sel:WORD_1%s\n",
                     o->name, s1, o->name, s1, o->name, s1, o->vop1 ? "" : " src1_sel:BYTE_2");
    n += snprintf(text + n, sizeof text - (size_t)n, "%s_e64 v7, v0%s\n", o->name, s1);
    if (o->kind == I32)
        snprintf(text + n, sizeof text - (size_t)n,
                 "%s_sdwa v6, v0%s dst_sel:BYTE_1 dst_unused:UNUSED_PRESERVE src0_sel:DWORD%s",
                 o->name, s1, o->vop1 ? "" : " src1_sel:DWORD");
    memset(w, 0, sizeof *w);
    w->mode = 0x3f0;
    wave_set_exec(w, ~0ull);
    for (int l = 0; l < 64; l++) {
        w->v[0][l] = VA[l % 8] ^ (u32)(l / 8) << 4;
        w->v[1][l] = VB[(l / 8 + l) % 8];
        for (int r = 3; r < 8; r++)
            w->v[r][l] = 0xdddd0000u + (u32)(r << 8) + (u32)l;
    }
    u32 a[64], b[64];
    memcpy(a, w->v[0], sizeof a);
    memcpy(b, w->v[1], sizeof b);
    int st = cov_run(w, arch, text);
    if (st == COV_NOT_ON_TARGET)
        return;
    CHECK(st == WAVE_DONE, "%s %s: status %d", arch, o->name, st);
    if (st != WAVE_DONE)
        return;
    int bad = 0;
    for (int l = 0; l < 64; l++) {
        int q = (l & ~3) | ((l & 3) ^ 1), m = (l & ~15) | (15 - (l & 15));
        u32 w3 = l < 16 ? 0xdddd0300u + (u32)l : ref(o->name, a[q], b[l]);
        u32 w4 = ref(o->name, a[m], b[l]);
        u32 w5 = ref(o->name, a[l] >> 16, (b[l] >> 16) & 0xff);
        u32 w7 = ref(o->name, a[l], b[l]);
        u32 w6 = (0xdddd0600u + (u32)l) & ~0xff00u;
        w6 |= (ref(o->name, a[l], b[l]) & 0xff) << 8;
        int ok = (l < 16 ? w->v[3][l] == w3 : same(o->kind, w->v[3][l], w3)) &&
                 same(o->kind, w->v[4][l], w4) && same(o->kind, w->v[5][l], w5) &&
                 same(o->kind, w->v[7][l], w7) && (o->kind != I32 || w->v[6][l] == w6);
        if (!ok && bad++ < 3)
            printf("  %s %s lane %d: a %08x b %08x: dpp %08x/%08x mirror %08x/%08x sdwa "
                   "%08x/%08x byte1 %08x/%08x e64 %08x/%08x\n",
                   arch, o->name, l, a[l], b[l], w->v[3][l], w3, w->v[4][l], w4, w->v[5][l], w5,
                   w->v[6][l], w6, w->v[7][l], w7);
    }
    CHECK(bad == 0, "%s %s: %d lanes wrong", arch, o->name, bad);
}

/* The VCC ops (carry in/out, v_cndmask_b32) in DPP, SDWA and _e64 forms: VCC holds the carry-in
 * (s[30:31] for _e64); each form's carry-out is saved to an SGPR pair. */
static void run_carry(const char *arch, const char *name, int cin, int kind) {
    /* kind: 0 add, 1 sub, 2 subrev (carry ops), 3 cndmask */
    char text[1024];
    int cnd = kind == 3;
    const char *co = cnd ? "" : "vcc, ", *ci = cin || cnd ? ", vcc" : "";
    snprintf(text, sizeof text,
             "s_mov_b64 vcc, s[30:31]\n%s_dpp v3, %sv0, v1%s quad_perm:[1,0,3,2] row_mask:0xf "
             "bank_mask:0xf\ns_mov_b64 s[20:21], vcc\ns_mov_b64 vcc, s[30:31]\n"
             "%s_sdwa v5, %sv0, v1%s dst_sel:DWORD dst_unused:UNUSED_PAD src0_sel:WORD_1 "
             "src1_sel:BYTE_2\ns_mov_b64 s[22:23], vcc\n%s_e64 v7, %sv0, v1%s",
             name, co, ci, name, co, ci, name, cnd ? "" : "s[24:25], ", ci[0] ? ", s[30:31]" : "");
    memset(w, 0, sizeof *w);
    wave_set_exec(w, ~0ull);
    uint64_t vin = 0x0ff0a55a3cc3f00full;
    w->s[30] = (u32)vin, w->s[31] = (u32)(vin >> 32);
    u32 a[64], b[64];
    for (int l = 0; l < 64; l++) {
        w->v[0][l] = a[l] = VA[l % 8] ^ (u32)(l / 8) << 20;
        w->v[1][l] = b[l] = VB[(l / 8 + l) % 8];
    }
    int st = cov_run(w, arch, text);
    if (st == COV_NOT_ON_TARGET)
        return;
    CHECK(st == WAVE_DONE, "%s %s: status %d", arch, name, st);
    if (st != WAVE_DONE)
        return;
    uint64_t want_c[3] = {0, 0, 0};
    int bad = 0;
    for (int l = 0; l < 64; l++) {
        int q = (l & ~3) | ((l & 3) ^ 1);
        u32 x[3] = {a[q], a[l] >> 16, a[l]}, y[3] = {b[l], (b[l] >> 16) & 0xff, b[l]};
        uint64_t c = (vin >> l) & 1;
        for (int f = 0; f < 3; f++) {
            uint64_t X = x[f], Y = y[f], ci2 = cin ? c : 0, r, co2;
            if (kind == 0)
                r = X + Y + ci2, co2 = r >> 32;
            else if (kind == 1)
                r = X - Y - ci2, co2 = Y + ci2 > X;
            else if (kind == 2)
                r = Y - X - ci2, co2 = X + ci2 > Y;
            else
                r = c ? Y : X, co2 = 0;
            want_c[f] |= co2 << l;
            u32 got = w->v[3 + 2 * f][l];
            if (got != (u32)r && bad++ < 3)
                printf("  %s %s form %d lane %d: %08x, want %08x\n", arch, name, f, l, got, (u32)r);
        }
    }
    if (!cnd)
        for (int f = 0; f < 3; f++) {
            uint64_t got = w->s[20 + 2 * f] | (uint64_t)w->s[21 + 2 * f] << 32;
            if (got != want_c[f] && bad++ < 6)
                printf("  %s %s form %d carry %016llx, want %016llx\n", arch, name, f,
                       (unsigned long long)got, (unsigned long long)want_c[f]);
        }
    CHECK(bad == 0, "%s %s: %d wrong", arch, name, bad);
}

/* VOP1 ops whose results are not exact in general (transcendentals, float-to-int roundings),
 * on 4 inputs whose results are exact: DPP quad_perm:[1,0,3,2] and SDWA (f16: src0_sel:WORD_1,
 * f32: DWORD) forms.  f16 flag: inputs and results are f16 (inputs in the low half for DPP, the
 * high half for SDWA); int flag: the result is an integer. */
typedef struct {
    const char *name;
    int f16, integer;
    float in[4], out[4];
} exact_op;
static const exact_op exact_ops[] = {
    {"v_rcp_f32", 0, 0, {2, 0.25f, -8, 1}, {0.5f, 4, -0.125f, 1}},
    {"v_rcp_iflag_f32", 0, 0, {2, 0.25f, -8, 1}, {0.5f, 4, -0.125f, 1}},
    {"v_rsq_f32", 0, 0, {4, 0.25f, 16, 1}, {0.5f, 2, 0.25f, 1}},
    {"v_sqrt_f32", 0, 0, {4, 0.25f, 16, 1}, {2, 0.5f, 4, 1}},
    {"v_exp_f32", 0, 0, {3, -1, 0, 10}, {8, 0.5f, 1, 1024}},
    {"v_exp_legacy_f32", 0, 0, {3, -1, 0, 10}, {8, 0.5f, 1, 1024}},
    {"v_log_f32", 0, 0, {8, 0.5f, 1, 1024}, {3, -1, 0, 10}},
    {"v_log_legacy_f32", 0, 0, {8, 0.5f, 1, 1024}, {3, -1, 0, 10}},
    {"v_sin_f32", 0, 0, {0.25f, 0, -0.25f, 1.25f}, {1, 0, -1, 1}},
    {"v_cos_f32", 0, 0, {0, 0.5f, 1, -0.5f}, {1, -1, 1, -1}},
    {"v_fract_f32", 0, 0, {2.5f, -0.25f, 3, 0.125f}, {0.5f, 0.75f, 0, 0.125f}},
    {"v_frexp_mant_f32", 0, 0, {8, -3, 0.25f, 1}, {0.5f, -0.75f, 0.5f, 0.5f}},
    {"v_frexp_exp_i32_f32", 0, 1, {8, -3, 0.25f, 1}, {4, 2, -1, 1}},
    {"v_cvt_flr_i32_f32", 0, 1, {2.5f, -2.5f, 7, -0.5f}, {2, -3, 7, -1}},
    {"v_cvt_rpi_i32_f32", 0, 1, {2.5f, -2.5f, 7.25f, -0.5f}, {3, -2, 7, 0}},
    {"v_rcp_f16", 1, 0, {2, 4, -8, 1}, {0.5f, 0.25f, -0.125f, 1}},
    {"v_rsq_f16", 1, 0, {4, 0.25f, 16, 1}, {0.5f, 2, 0.25f, 1}},
    {"v_sqrt_f16", 1, 0, {4, 0.25f, 16, 1}, {2, 0.5f, 4, 1}},
    {"v_exp_f16", 1, 0, {3, -1, 0, 10}, {8, 0.5f, 1, 1024}},
    {"v_log_f16", 1, 0, {8, 0.5f, 1, 1024}, {3, -1, 0, 10}},
    {"v_sin_f16", 1, 0, {0.25f, 0, -0.25f, 1.25f}, {1, 0, -1, 1}},
    {"v_cos_f16", 1, 0, {0, 0.5f, 1, -0.5f}, {1, -1, 1, -1}},
    {"v_fract_f16", 1, 0, {2.5f, -0.25f, 3, 0.125f}, {0.5f, 0.75f, 0, 0.125f}},
    {"v_frexp_mant_f16", 1, 0, {8, -3, 0.25f, 1}, {0.5f, -0.75f, 0.5f, 0.5f}},
    {"v_frexp_exp_i16_f16", 1, 1, {8, -3, 0.25f, 1}, {4, 2, -1, 1}},
    {"v_cvt_norm_i16_f16", 1, 1, {1, -1, 0, 2}, {32767, -32767, 0, 32767}},
    {"v_cvt_norm_u16_f16", 1, 1, {1, -1, 0, 2}, {65535, 0, 0, 65535}},
};

static void run_exact(const char *arch, const exact_op *o) {
    char text[512];
    snprintf(text, sizeof text,
             "%s_dpp v3, v0 quad_perm:[1,0,3,2] row_mask:0xf bank_mask:0xf\n"
             "%s_sdwa v5, v1 dst_sel:DWORD dst_unused:UNUSED_PAD src0_sel:%s",
             o->name, o->name, o->f16 ? "WORD_1" : "DWORD");
    memset(w, 0, sizeof *w);
    w->mode = 0x3f0;
    wave_set_exec(w, ~0ull);
    for (int l = 0; l < 64; l++) {
        float x = o->in[l % 4];
        w->v[0][l] = o->f16 ? hb(x) | 0xbeef0000u : fb(x);
        w->v[1][l] = o->f16 ? hb(x) << 16 | 0xbeef : fb(x);
    }
    int st = cov_run(w, arch, text);
    if (st == COV_NOT_ON_TARGET)
        return;
    CHECK(st == WAVE_DONE, "%s %s: status %d", arch, o->name, st);
    if (st != WAVE_DONE)
        return;
    int bad = 0;
    for (int l = 0; l < 64; l++) {
        u32 m = o->f16 ? 0xffff : ~0u;
        float r3 = o->out[(l ^ 1) % 4], r5 = o->out[l % 4];
        u32 w3 = o->integer ? (u32)(int32_t)r3 : o->f16 ? hb(r3) : fb(r3);
        u32 w5 = o->integer ? (u32)(int32_t)r5 : o->f16 ? hb(r5) : fb(r5);
        if (((w->v[3][l] ^ w3) & m || (w->v[5][l] ^ w5) & m) && bad++ < 3)
            printf("  %s %s lane %d: dpp %08x want %08x, sdwa %08x want %08x\n", arch, o->name, l,
                   w->v[3][l], w3, w->v[5][l], w5);
    }
    CHECK(bad == 0, "%s %s: %d lanes wrong", arch, o->name, bad);
}

/* SDWA source selects: every src0_sel and src1_sel (BYTE_0-3, WORD_0/1, DWORD), each with and
 * without sext(), on v_sub_u32_sdwa (not commutative, so a swapped operand shows) over lanes
 * whose bytes and halves have the sign bit set and clear, under a partial EXEC.  The expected
 * lane is the field (CDNA3 ISA, SDWA: SEL selects the byte or word, SEXT sign-extends it; a
 * DWORD is the whole register) of each source, subtracted on the host; inactive lanes keep v5. */
static const char *const sel_name[7] = {"BYTE_0", "BYTE_1", "BYTE_2", "BYTE_3",
                                        "WORD_0", "WORD_1", "DWORD"};
static u32 sel_ref(u32 v, int sel, int sext) {
    if (sel == 6)
        return v;
    unsigned bits = sel < 4 ? 8 : 16, at = sel < 4 ? 8 * (unsigned)sel : 16 * (unsigned)(sel - 4);
    u32 x = (v >> at) & ((1u << bits) - 1);
    return sext ? (u32)sx(x, (int)bits) : x;
}
static void run_sel(const char *arch) {
    const uint64_t exec = 0xf0f0ff00aa55ffffull;
    for (int s0 = 0; s0 < 7; s0++)
        for (int s1 = 0; s1 < 7; s1++)
            for (int e = 0; e < 4; e++) {
                int x0 = e & 1, x1 = e >> 1;
                char text[256];
                snprintf(text, sizeof text,
                         "v_sub_u32_sdwa v5, %sv0%s, %sv1%s dst_sel:DWORD "
                         "dst_unused:UNUSED_PAD src0_sel:%s src1_sel:%s",
                         x0 ? "sext(" : "", x0 ? ")" : "", x1 ? "sext(" : "", x1 ? ")" : "",
                         sel_name[s0], sel_name[s1]);
                memset(w, 0, sizeof *w);
                wave_set_exec(w, exec);
                uint64_t r = 0x243f6a8885a308d3ull ^ (uint64_t)(s0 * 49 + s1 * 4 + e);
                for (int l = 0; l < 64; l++) {
                    r = r * 6364136223846793005ull + 1442695040888963407ull;
                    w->v[0][l] = (u32)(r >> 32) ^ (l & 1 ? 0x80808080u : 0);
                    w->v[1][l] = (u32)r ^ (l & 2 ? 0x00800080u : 0x80008000u);
                    w->v[5][l] = 0x5a5a0000u + (u32)l;
                }
                if (cov_run_done(w, arch, text) != WAVE_DONE)
                    continue;
                int bad = 0;
                for (int l = 0; l < 64; l++) {
                    u32 want = exec >> l & 1
                                   ? sel_ref(w->v[0][l], s0, x0) - sel_ref(w->v[1][l], s1, x1)
                                   : 0x5a5a0000u + (u32)l;
                    if (w->v[5][l] != want && bad++ < 2)
                        printf("  %s [%s] lane %d: %08x want %08x\n", arch, text, l, w->v[5][l],
                               want);
                }
                CHECK(bad == 0, "%s [%s]: %d lanes wrong", arch, text, bad);
            }
}

int main(void) {
    w = malloc(sizeof *w);
    const char *arches[] = {"gfx950", "gfx942", "gfx90a"};
    for (int a = 0; a < 3; a++)
        run_sel(arches[a]);
    for (int a = 0; a < 3; a++)
        for (size_t i = 0; i < sizeof ops / sizeof ops[0]; i++)
            run_op(arches[a], &ops[i]);
    for (int a = 0; a < 3; a++) {
        run_carry(arches[a], "v_add_co_u32", 0, 0);
        run_carry(arches[a], "v_sub_co_u32", 0, 1);
        run_carry(arches[a], "v_subrev_co_u32", 0, 2);
        run_carry(arches[a], "v_addc_co_u32", 1, 0);
        run_carry(arches[a], "v_subb_co_u32", 1, 1);
        run_carry(arches[a], "v_subbrev_co_u32", 1, 2);
        run_carry(arches[a], "v_cndmask_b32", 0, 3);
        for (size_t i = 0; i < sizeof exact_ops / sizeof exact_ops[0]; i++)
            run_exact(arches[a], &exact_ops[i]);
    }
    free(w);
    return check_summary("cov_sdwa_dpp");
}
