/* test_fp16_ovfl.c - MODE.FP16_OVFL (MODE[23]) for VALU ops with f16 results, on llvm-mc-22
 * snippets for gfx950, gfx942, gfx1100 and gfx1201 (issue 15).  The rule (CDNA3 and RDNA3 ISA,
 * "MODE" register): "If set, an overflowed FP16 result is clamped to +/- MAX_FP16, regardless of
 * round mode, while still preserving true INF values."  Every expected value below is worked out
 * by hand from that sentence and IEEE binary16 (MAX_FP16 = 65504 = 0x7bff; 65520 and above round
 * to infinity in round-to-nearest-even); none is taken from a gfxemu run.  Each case runs with
 * the bit clear (the overflow gives infinity) and set, and with a lane off (its register kept). */
#include "common/check.h"
#include "common/snippet.h"
#include "exec/exec.h"

#include <stdio.h>
#include <string.h>

static snippet_rig rig;
static wave *w = &rig.wv;

#define MAXH 0x7bffu
#define NMAXH 0xfbffu
#define INFH 0x7c00u
#define NINFH 0xfc00u
#define OFF_LANE 7       /* a lane EXEC leaves off */
#define KEEP 0xdeadbeefu /* the destination's value before the op */

typedef struct {
    uint32_t a, b;        /* v0, v1 of the lane */
    uint32_t plain, ovfl; /* v2 after the op: MODE[23] = 0, MODE[23] = 1 */
} row;

/* v_add_f16 (low halves; the high half of the result is written as 0 on gfx9 and on RDNA's
 * 32-bit-register form) */
static const row add16[] = {
    {MAXH, MAXH, INFH, MAXH},         /* 131008 overflows */
    {NMAXH, NMAXH, NINFH, NMAXH},     /* and to -inf */
    {0x7800, 0x7800, INFH, MAXH},     /* 32768 + 32768 = 65536 */
    {MAXH, 0x4c00, INFH, MAXH},       /* 65504 + 16 = 65520: the tie rounds to even, infinity */
    {MAXH, 0x4b00, MAXH, MAXH},       /* 65504 + 14 = 65518 rounds down to 65504: no overflow */
    {INFH, 0x3c00, INFH, INFH},       /* inf + 1: a true infinity stays */
    {NINFH, MAXH, NINFH, NINFH},      /* -inf + 65504 */
    {MAXH, MAXH, KEEP, KEEP},         /* OFF_LANE */
    {0x7e00, 0x3c00, 0x7e00, 0x7e00}, /* NaN stays NaN */
    {0x3c00, 0x4000, 0x4200, 0x4200}, /* 1 + 2 = 3 */
};
/* v_cvt_f16_f32 v2, v0 */
static const row cvt16[] = {
    {0x49742400u, 0, INFH, MAXH},   /* 1e6f */
    {0xc9742400u, 0, NINFH, NMAXH}, /* -1e6f */
    {0x477fe000u, 0, MAXH, MAXH},   /* 65504.0f exactly */
    {0x477ff000u, 0, INFH, MAXH},   /* 65520.0f: ties to even, infinity */
    {0x7f800000u, 0, INFH, INFH},   /* +inf f32: a true infinity */
    {0xff800000u, 0, NINFH, NINFH}, /* -inf */
    {0x7f7fffffu, 0, INFH, MAXH},   /* FLT_MAX */
    {0x49742400u, 0, KEEP, KEEP},   /* OFF_LANE */
    {0x3f800000u, 0, 0x3c00, 0x3c00},
};
/* v_rcp_f16 v2, v0: 1/0 is a division by zero, not an overflow: its infinity stays */
static const row rcp16[] = {
    {0x0000, 0, INFH, INFH},                                /* 1/+0 = +inf */
    {0x8000, 0, NINFH, NINFH},                              /* 1/-0 = -inf */
    {0x0001, 0, INFH, MAXH},                                /* 1/2^-24 = 2^24 overflows */
    {0x8001, 0, NINFH, NMAXH}, {0x4000, 0, 0x3800, 0x3800}, /* 1/2 */
    {INFH, 0, 0x0000, 0x0000},                              /* 1/inf = 0 */
    {0x0000, 0, INFH, INFH},   {0x0001, 0, KEEP, KEEP},     /* OFF_LANE */
};
/* v_pk_add_f16 v2, v0, v1: each half on its own */
static const row pk16[] = {
    {0x3c00u | MAXH << 16, 0x3c00u | MAXH << 16, 0x4000u | INFH << 16, 0x4000u | MAXH << 16},
    {MAXH | 0x3c00u << 16, MAXH | 0x3c00u << 16, INFH | 0x4000u << 16, MAXH | 0x4000u << 16},
    {MAXH | INFH << 16, MAXH | 0x3c00u << 16, INFH | INFH << 16, MAXH | INFH << 16},
    {NMAXH | NMAXH << 16, NMAXH | NMAXH << 16, NINFH | NINFH << 16, NMAXH | NMAXH << 16},
    {0, 0, 0, 0},
    {0, 0, 0, 0},
    {0, 0, 0, 0},
    {MAXH, MAXH, KEEP, KEEP}, /* OFF_LANE */
};

static int run_rows(const char *arch, int wave32, const char *text, const row *r, size_t n,
                    uint32_t mask, int ovfl, const char *setreg) {
    uint64_t exec = (wave32 ? 0xffffffffull : ~0ull) & ~(1ull << OFF_LANE);
    snippet_rig_reset(&rig, exec, 0xf0 | (ovfl && !setreg ? MODE_FP16_OVFL : 0));
    for (unsigned l = 0; l < 64; l++) {
        const row *c = &r[l % n];
        w->v[0][l] = c->a;
        w->v[1][l] = c->b;
        w->v[2][l] = KEEP;
    }
    char prog[256];
    snprintf(prog, sizeof prog, "%s%s", setreg && ovfl ? setreg : "", text);
    int st = run_snippet(w, arch, prog);
    CHECK(st == WAVE_DONE, "%s: %s: status %d fault %d", arch, prog, st, w->fault.kind);
    if (st != WAVE_DONE)
        return 1;
    int bad = 0;
    for (unsigned l = 0; l < (wave32 ? 32u : 64u); l++) {
        const row *c = &r[l % n];
        uint32_t want = ovfl ? c->ovfl : c->plain;
        if (l % n == OFF_LANE)
            want = l == OFF_LANE ? KEEP : (ovfl ? r[OFF_LANE - 1].ovfl : r[OFF_LANE - 1].plain);
        if (l % n == OFF_LANE && l != OFF_LANE)
            continue; /* the same inputs as OFF_LANE in a lane that is on: not tabled */
        uint32_t got = l == OFF_LANE ? w->v[2][l] : w->v[2][l] & mask;
        want = l == OFF_LANE ? want : want & mask;
        bad += got != want;
        CHECK(got == want, "%s FP16_OVFL=%d: %s lane %u: a %08x b %08x got %08x want %08x", arch,
              ovfl, text, l, c->a, c->b, got, want);
    }
    return bad;
}

int main(void) {
    if (snippet_rig_open(&rig))
        return 1;
    static const struct {
        const char *arch;
        int wave32;
        const char *setreg;
    } archs[] = {
        {"gfx950", 0, "s_setreg_imm32_b32 hwreg(HW_REG_MODE, 23, 1), 1\n"},
        {"gfx942", 0, "s_setreg_imm32_b32 hwreg(HW_REG_MODE, 23, 1), 1\n"},
        {"gfx1100", 1, "s_setreg_imm32_b32 hwreg(HW_REG_MODE, 23, 1), 1\n"},
        {"gfx1201", 1, "s_setreg_imm32_b32 hwreg(HW_REG_MODE, 23, 1), 1\n"},
    };
    static const struct {
        const char *text;
        const row *r;
        size_t n;
        uint32_t
            mask; /* the result bits compared: a 16-bit op's high half is the target's business */
    } ops[] = {
        {"v_add_f16 v2, v0, v1", add16, sizeof add16 / sizeof add16[0], 0xffff},
        {"v_add_f16_e64 v2, v0, v1", add16, sizeof add16 / sizeof add16[0], 0xffff},
        {"v_cvt_f16_f32 v2, v0", cvt16, sizeof cvt16 / sizeof cvt16[0], 0xffff},
        {"v_rcp_f16 v2, v0", rcp16, sizeof rcp16 / sizeof rcp16[0], 0xffff},
        {"v_pk_add_f16 v2, v0, v1", pk16, sizeof pk16 / sizeof pk16[0], 0xffffffffu},
    };
    for (size_t a = 0; a < sizeof archs / sizeof archs[0]; a++)
        for (size_t o = 0; o < sizeof ops / sizeof ops[0]; o++)
            for (int ovfl = 0; ovfl < 2; ovfl++)
                for (int via_setreg = 0; via_setreg < 2; via_setreg++)
                    run_rows(archs[a].arch, archs[a].wave32, ops[o].text, ops[o].r, ops[o].n,
                             ops[o].mask, ovfl, via_setreg ? archs[a].setreg : NULL);
    snippet_rig_close(&rig);
    return check_summary("fp16_ovfl");
}
