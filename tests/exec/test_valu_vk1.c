/* test_valu_vk1.c - VALU instructions with an SGPR or a constant in src1 and VGPRs elsewhere,
 * the forms the `_vk1` clones run (src/exec/valu.h VV, exec.c vk1_fits): VOP3 integer and f32
 * ops as clang-22 writes them (v_lshl_add_u32 v3, v2, 3, v3; v_and_or_b32 v, v, s3, v;
 * v_mul_lo_u32 v, v, s1), the non-commutative ones among them (v_sub_u32, v_lshlrev_b32_e64,
 * v_bfe_u32) so that a source taken from the wrong position shows; gfx950 and gfx942 wave64,
 * and gfx1100 wave32 with 32-bit literals in src1.  Each form runs alone from edge inputs (+-0,
 * denormals, infinities, NaNs, INT_MIN, -1) under full EXEC (the clone) and a partial one (the
 * general handler), against the ISA's per-lane operation written here in C; the test also checks
 * that the fast tier installed a handler other than the reference tier's for each form. */
#include "common/bits.h"
#include "common/check.h"
#include "common/snippet.h"
#include "exec/exec.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

enum {
    LSHL_ADD,
    AND_OR,
    MUL_LO,
    ADD3,
    FMA_F32,
    MUL_F32,
    SUB_U32,
    LSHLREV,
    BFE_U32,
    SUB_F32,
    MAX_F32,
    XAD_U32,
};
/* a source: a VGPR (reg >= 0) or a value the same in every lane */
typedef struct {
    int reg;
    uint32_t k;
} src;
typedef struct {
    const char *text;
    int op, dst;
    src s[3];
} vform;
#define V(r) {r, 0}
#define K(k) {-1, k}
/* s0..s5 as set below */
static const uint32_t sregs[6] = {0x3fc00000u, 0x0019660du, 0x80000000u,
                                  0x0000ffffu, 0x00000025u, 0x00000001u};
static const vform gfx9_forms[] = {
    {"v_lshl_add_u32 v3, v2, 3, v4", LSHL_ADD, 3, {V(2), K(3), V(4)}},
    {"v_lshl_add_u32 v4, v2, 3, v4", LSHL_ADD, 4, {V(2), K(3), V(4)}},
    {"v_and_or_b32 v5, v6, s3, v7", AND_OR, 5, {V(6), K(0x0000ffffu), V(7)}},
    {"v_mul_lo_u32 v8, v2, s1", MUL_LO, 8, {V(2), K(0x0019660du)}},
    {"v_add3_u32 v9, v2, s2, v6", ADD3, 9, {V(2), K(0x80000000u), V(6)}},
    {"v_fma_f32 v10, v2, s0, v6", FMA_F32, 10, {V(2), K(0x3fc00000u), V(6)}},
    {"v_fma_f32 v11, v2, -0.5, v11", FMA_F32, 11, {V(2), K(0xbf000000u), V(11)}},
    {"v_mul_f32_e64 v12, v6, 2.0", MUL_F32, 12, {V(6), K(0x40000000u)}},
    {"v_sub_u32_e64 v13, v2, s3", SUB_U32, 13, {V(2), K(0x0000ffffu)}},
    {"v_lshlrev_b32_e64 v14, v2, s4", LSHLREV, 14, {V(2), K(0x00000025u)}},
    {"v_bfe_u32 v15, v6, 8, v7", BFE_U32, 15, {V(6), K(8), V(7)}},
    {"v_sub_f32_e64 v16, v2, s5", SUB_F32, 16, {V(2), K(0x00000001u)}},
    {"v_max_f32_e64 v17, v2, 0", MAX_F32, 17, {V(2), K(0)}},
    {"v_xad_u32 v18, v2, -1, v6", XAD_U32, 18, {V(2), K(0xffffffffu), V(6)}},
};
static const vform gfx11_forms[] = {
    {"v_lshl_add_u32 v3, v2, 3, v4", LSHL_ADD, 3, {V(2), K(3), V(4)}},
    {"v_and_or_b32 v5, v6, 0x12345678, v7", AND_OR, 5, {V(6), K(0x12345678u), V(7)}},
    {"v_mul_lo_u32 v8, v2, s1", MUL_LO, 8, {V(2), K(0x0019660du)}},
    {"v_fma_f32 v10, v2, 0x3fc00001, v6", FMA_F32, 10, {V(2), K(0x3fc00001u), V(6)}},
    {"v_sub_nc_u32_e64 v13, v2, s3", SUB_U32, 13, {V(2), K(0x0000ffffu)}},
    {"v_lshlrev_b32_e64 v14, v2, 0x25", LSHLREV, 14, {V(2), K(0x25u)}},
};

static const uint32_t edges[] = {
    0x00000000, 0x80000000, 0x00000001, 0x807fffff, 0x00800000, 0x7f800000,
    0xff800000, 0x7fc00000, 0x7f800001, 0x7f7fffff, 0x3f800000, 0xbfc00000,
    0xffffffff, 0x7fffffff, 0x0000001f, 0x00000020, 0x00001f08, 0xc0000000,
};
static uint32_t value(unsigned reg, int l, int set) {
    uint32_t k = reg * 64u + (uint32_t)l + 4096u * (uint32_t)set;
    if (k % 3 == 0)
        return edges[(k / 3) % (sizeof edges / sizeof edges[0])];
    if (k % 3 == 1)
        return bits32((float)((int)(k * 37 % 201) - 100) / 8.0f);
    return k * 0x9e3779b9u;
}
static int isnan32(uint32_t v) { return (v & 0x7fffffffu) > 0x7f800000u; }
static int issnan32(uint32_t v) { return isnan32(v) && !(v & 0x400000u); }

/* V_MAX_F32 in IEEE mode (MODE.IEEE set): a signalling NaN input gives it quieted, a quiet NaN
 * the other operand; +0 > -0. */
static uint32_t max_f32(uint32_t a, uint32_t b) {
    if (issnan32(a) || issnan32(b))
        return (issnan32(a) ? a : b) | 0x400000u;
    if (isnan32(a))
        return b;
    if (isnan32(b))
        return a;
    float x = from_bits32(a), y = from_bits32(b);
    if (x == y)
        return a & b;
    return x > y ? a : b;
}
static uint32_t ref(int op, uint32_t a, uint32_t b, uint32_t c) {
    float x = from_bits32(a), y = from_bits32(b), z = from_bits32(c);
    switch (op) {
    case LSHL_ADD: return (a << (b & 31)) + c;
    case AND_OR: return (a & b) | c;
    case MUL_LO: return a * b;
    case ADD3: return a + b + c;
    case FMA_F32: return bits32(fmaf(x, y, z));
    case MUL_F32: return bits32(x * y);
    case SUB_U32: return a - b;
    case LSHLREV: return b << (a & 31);
    case BFE_U32: return (a >> (b & 31)) & (uint32_t)((1ull << (c & 31)) - 1);
    case SUB_F32: return bits32(x - y);
    case MAX_F32: return max_f32(a, b);
    case XAD_U32: return (a ^ b) + c;
    }
    return 0;
}
static int is_float(int op) {
    return op == FMA_F32 || op == MUL_F32 || op == SUB_F32 || op == MAX_F32;
}

static uint32_t before[32][64];
static void run_forms(wave *w, const char *arch, const vform *forms, unsigned n, unsigned lanes) {
    snippet_prog sp = {0}, rp = {0};
    for (unsigned f = 0; f < n; f++) {
        const vform *vf = &forms[f];
        x_set_fast_tier(0);
        int bad_load = snippet_prog_load_waves(&rp, arch, vf->text, lanes);
        x_set_fast_tier(1);
        bad_load |= snippet_prog_load_waves(&sp, arch, vf->text, lanes);
        CHECK(bad_load == 0, "%s: '%s' does not assemble", arch, vf->text);
        if (bad_load)
            continue;
        CHECK(sp.prog.insts[0].fn != rp.prog.insts[0].fn, "%s: '%s' runs the general handler", arch,
              vf->text);
        int nsrc = vf->s[2].reg == 0 && vf->s[2].k == 0 ? 2 : 3;
        for (int e = 0; e < 3; e++) {
            uint64_t exec = e == 1 ? 0x96e1f00f5a5a0ff1ull : ~0ull;
            if (lanes == 32)
                exec &= 0xffffffffull;
            memset(w, 0, sizeof *w);
            w->mode = 0x3f0; /* denormals kept, IEEE, DX10_CLAMP: the clang-22 kernels' MODE */
            wave_set_exec(w, exec);
            memcpy(w->s, sregs, sizeof sregs);
            for (unsigned r = 0; r < 32; r++)
                for (int l = 0; l < 64; l++)
                    w->v[r][l] = before[r][l] = value(r, l, e == 2);
            w->prog = &sp.prog;
            w->pc = 0;
            w->budget = 10;
            w->status = WAVE_RUNNING;
            wave_run(w);
            CHECK(w->status == WAVE_DONE, "%s: '%s': status %d", arch, vf->text, w->status);
            int bad = 0;
            for (unsigned l = 0; l < lanes; l++) {
                uint32_t in[3] = {0, 0, 0};
                for (int i = 0; i < nsrc; i++)
                    in[i] = vf->s[i].reg >= 0 ? before[vf->s[i].reg][l] : vf->s[i].k;
                int on = (exec >> l) & 1;
                uint32_t got = w->v[vf->dst][l];
                uint32_t want = on ? ref(vf->op, in[0], in[1], in[2]) : before[vf->dst][l];
                /* NaN payloads are not modelled (docs/perf.md, session 11): any NaN */
                int nan_ok = on && is_float(vf->op) && isnan32(got) && isnan32(want);
                if (got != want && !nan_ok && bad++ < 4)
                    printf("FAIL %s '%s' exec %d lane %u: got %08x want %08x (in %08x %08x %08x)\n",
                           arch, vf->text, e, l, got, want, in[0], in[1], in[2]);
            }
            for (unsigned r = 0; r < 32; r++)
                for (unsigned l = 0; l < lanes; l++)
                    if (r != (unsigned)vf->dst && w->v[r][l] != before[r][l] && bad++ < 4)
                        printf("FAIL %s '%s': v%u lane %u written\n", arch, vf->text, r, l);
            CHECK(bad == 0, "%s: '%s' exec %d: %d wrong", arch, vf->text, e, bad);
        }
    }
    snippet_prog_free(&sp);
    snippet_prog_free(&rp);
}

int main(void) {
    wave *w = malloc(sizeof *w);
    run_forms(w, "gfx950", gfx9_forms, sizeof gfx9_forms / sizeof gfx9_forms[0], 64);
    run_forms(w, "gfx942", gfx9_forms, sizeof gfx9_forms / sizeof gfx9_forms[0], 64);
    run_forms(w, "gfx1100", gfx11_forms, sizeof gfx11_forms / sizeof gfx11_forms[0], 32);
    free(w);
    return check_summary("valu_vk1");
}
