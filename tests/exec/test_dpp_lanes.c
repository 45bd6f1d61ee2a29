/* test_dpp_lanes.c - every DPP16 control on every lane, and RDNA's DPP8, against a model written
 * here from the ISA manuals (CDNA3 ISA "DPP", RDNA3 ISA "DPP16" and "DPP8"):
 *
 *   lane l reads src0 from lane src(l) (per control, below); the source is invalid when out of
 *   range or when its EXEC bit is off (RDNA's fi:1 reads inactive lanes anyway).  Lane l is
 *   written when it is active, its row is in row_mask, its bank ((l / 4) % 4) is in bank_mask,
 *   and its source is valid or bound_ctrl:1 is set, in which case an invalid source reads 0.
 *   DPP8 has no masks: every active lane is written, an invalid source reads 0.
 *
 * Each control runs v_mov_b32_dpp under eight mask / bound_ctrl combinations and v_add_u32_dpp
 * (src0 permuted, src1 not) on llvm-mc-22 encodings, under full, alternating and random EXEC,
 * on gfx950 and gfx942 (wave64) and gfx1100 (wave64 and wave32).  Every lane of every
 * destination is compared, so a control's whole lane map is checked, not sample lanes. */
#include "common/check.h"
#include "common/rng.h"
#include "common/snippet.h"
#include "exec/exec.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

typedef uint32_t u32;
typedef uint64_t u64;

static wave *w;
static uint64_t rng = 0x2545f4914f6cdd1dull;
static u32 rnd(void) { return (u32)(xorshift64(&rng) >> 11); }

/* A control: its assembly text and its lane map (-1: out of range). */
typedef struct {
    char text[40];
    int src[64];
} ctl;

static int nctl;
static ctl ctls[128];
static ctl *add(const char *text) {
    ctl *c = &ctls[nctl++];
    snprintf(c->text, sizeof c->text, "%s", text);
    return c;
}

/* The controls of a target: CDNA (rdna 0) or RDNA3 (rdna 1). */
static void make_ctls(int rdna) {
    char t[40];
    nctl = 0;
    for (int k = 0; k < 4; k++) { /* quad_perm: lane i of each group of 4 reads lane sel[i] */
        int sel[4];
        for (int i = 0; i < 4; i++)
            sel[i] = k == 0 ? 3 - i : (int)(rnd() % 4);
        snprintf(t, sizeof t, "quad_perm:[%d,%d,%d,%d]", sel[0], sel[1], sel[2], sel[3]);
        ctl *c = add(t);
        for (int l = 0; l < 64; l++)
            c->src[l] = l / 4 * 4 + sel[l % 4];
    }
    for (int n = 1; n < 16; n++) {
        int i;
        ctl *c;
        snprintf(t, sizeof t, "row_shl:%d", n); /* row lane i reads row lane i + n */
        c = add(t);
        for (int l = 0; l < 64; l++)
            c->src[l] = (i = l % 16 + n) < 16 ? l / 16 * 16 + i : -1;
        snprintf(t, sizeof t, "row_shr:%d", n); /* row lane i reads row lane i - n */
        c = add(t);
        for (int l = 0; l < 64; l++)
            c->src[l] = (i = l % 16 - n) >= 0 ? l / 16 * 16 + i : -1;
        snprintf(t, sizeof t, "row_ror:%d", n); /* rotated right: lane i reads (i - n) mod 16 */
        c = add(t);
        for (int l = 0; l < 64; l++)
            c->src[l] = l / 16 * 16 + (l % 16 + 16 - n) % 16;
    }
    ctl *c = add("row_mirror");
    for (int l = 0; l < 64; l++)
        c->src[l] = l / 16 * 16 + 15 - l % 16;
    c = add("row_half_mirror");
    for (int l = 0; l < 64; l++)
        c->src[l] = l / 8 * 8 + 7 - l % 8;
    for (int n = 0; n < 16; n++) { /* every lane of a row reads lane n of it */
        snprintf(t, sizeof t, rdna ? "row_share:%d" : "row_newbcast:%d", n);
        c = add(t);
        for (int l = 0; l < 64; l++)
            c->src[l] = l / 16 * 16 + n;
    }
    if (rdna) {
        for (int n = 0; n < 16; n++) { /* row lane i reads row lane i xor n */
            snprintf(t, sizeof t, "row_xmask:%d", n);
            c = add(t);
            for (int l = 0; l < 64; l++)
                c->src[l] = l / 16 * 16 + ((l % 16) ^ n);
        }
        return;
    }
    c = add("wave_shl:1");
    for (int l = 0; l < 64; l++)
        c->src[l] = l < 63 ? l + 1 : -1;
    c = add("wave_rol:1");
    for (int l = 0; l < 64; l++)
        c->src[l] = (l + 1) % 64;
    c = add("wave_shr:1");
    for (int l = 0; l < 64; l++)
        c->src[l] = l > 0 ? l - 1 : -1;
    c = add("wave_ror:1");
    for (int l = 0; l < 64; l++)
        c->src[l] = (l + 63) % 64;
    c = add("row_bcast:15"); /* rows 1-3 read lane 15 of the row before */
    for (int l = 0; l < 64; l++)
        c->src[l] = l >= 16 ? l / 16 * 16 - 1 : -1;
    c = add("row_bcast:31"); /* rows 2 and 3 read lane 31 */
    for (int l = 0; l < 64; l++)
        c->src[l] = l >= 32 ? 31 : -1;
}

/* The eight mask combinations of the v_mov_b32_dpp lines (v1-v8), and v_add_u32_dpp's (v9). */
static const struct {
    unsigned row, bank, bound;
} masks[9] = {{15, 15, 0}, {15, 15, 1}, {5, 15, 0}, {10, 15, 1}, {15, 1, 0},
              {15, 6, 1},  {9, 12, 0},  {2, 9, 1},  {15, 15, 0}};

static u32 model_lane(const ctl *c, const int *dpp8, unsigned m, int fi, u64 exec, unsigned lanes,
                      int l, u32 old, int *written) {
    int s = dpp8 ? l / 8 * 8 + dpp8[l % 8] : c->src[l];
    int valid = s >= 0 && s < (int)lanes && (fi || ((exec >> s) & 1));
    u32 v = valid ? w->v[0][s] : 0;
    if (m == 8) /* v_add_u32_dpp v9, v0, v10 */
        v = v + w->v[10][l];
    int on = (exec >> l) & 1;
    if (!dpp8)
        on = on && ((masks[m].row >> (l / 16)) & 1) && ((masks[m].bank >> (l / 4 % 4)) & 1) &&
             (valid || masks[m].bound);
    *written = on;
    return on ? v : old;
}

static void run_one(const char *arch, unsigned lanes, int rdna, const ctl *c, const int *dpp8,
                    int fi) {
    char text[2048], ctltext[64];
    size_t n = 0;
    if (dpp8)
        snprintf(ctltext, sizeof ctltext, "dpp8:[%d,%d,%d,%d,%d,%d,%d,%d]%s", dpp8[0], dpp8[1],
                 dpp8[2], dpp8[3], dpp8[4], dpp8[5], dpp8[6], dpp8[7], fi ? " fi:1" : "");
    for (unsigned m = 0; m < 9; m++) {
        if (dpp8 && m > 0 && m < 8)
            continue;
        char mk[80] = "";
        if (!dpp8)
            snprintf(mk, sizeof mk, " row_mask:0x%x bank_mask:0x%x%s%s", masks[m].row,
                     masks[m].bank, masks[m].bound ? " bound_ctrl:1" : "", fi ? " fi:1" : "");
        if (m < 8)
            n += (size_t)snprintf(text + n, sizeof text - n, "v_mov_b32_dpp v%u, v0 %s%s\n", m + 1,
                                  dpp8 ? ctltext : c->text, mk);
        else
            n += (size_t)snprintf(text + n, sizeof text - n, "%s v9, v0, v10 %s%s\n",
                                  rdna ? "v_add_nc_u32_dpp" : "v_add_u32_dpp",
                                  dpp8 ? ctltext : c->text, mk);
    }
    const char *name = dpp8 ? ctltext : c->text;
    snippet_prog sp = {0};
    if (snippet_prog_load_waves(&sp, arch, text, lanes) != 0) {
        CHECK(0, "%s: %s does not assemble", arch, name);
        return;
    }
    const u64 all = lanes == 64 ? ~0ull : 0xffffffffull;
    const u64 execs[3] = {all, 0x5555555555555555ull & all, ((u64)rnd() << 32 | rnd()) & all};
    for (int e = 0; e < 3; e++) {
        memset(w, 0, sizeof *w);
        w->prog = &sp.prog;
        w->budget = 1000;
        w->mode = 0x3f0u;
        wave_set_exec(w, execs[e]);
        u32 before[11][64];
        for (int r = 0; r <= 10; r++)
            for (int l = 0; l < 64; l++)
                w->v[r][l] = before[r][l] = rnd();
        wave_run(w);
        CHECK(w->status == WAVE_DONE, "%s %s exec %llx: status %d", arch, name,
              (unsigned long long)execs[e], w->status);
        /* the model reads v0 and v10 as they were (no line writes them) */
        memcpy(w->v[0], before[0], sizeof before[0]);
        unsigned bad = 0, first_r = 0, first_l = 0;
        u32 want0 = 0;
        for (unsigned m = 0; m < 9; m++) {
            if (dpp8 && m > 0 && m < 8)
                continue;
            for (unsigned l = 0; l < lanes; l++) {
                int written;
                u32 want =
                    model_lane(c, dpp8, m, fi, execs[e], lanes, (int)l, before[m + 1][l], &written);
                if (w->v[m + 1][l] != want && !bad++)
                    first_r = m + 1, first_l = l, want0 = want;
            }
        }
        CHECK(bad == 0, "%s %s exec %llx: %u lanes wrong, first v%u[%u] = %08x, want %08x", arch,
              name, (unsigned long long)execs[e], bad, first_r, first_l, w->v[first_r][first_l],
              want0);
    }
    snippet_prog_free(&sp);
}

int main(void) {
    w = malloc(sizeof *w);
    static const struct {
        const char *arch;
        unsigned lanes;
        int rdna;
    } targets[] = {{"gfx950", 64, 0}, {"gfx942", 64, 0}, {"gfx1100", 64, 1}, {"gfx1100", 32, 1}};
    for (unsigned t = 0; t < sizeof targets / sizeof targets[0]; t++) {
        make_ctls(targets[t].rdna);
        for (int i = 0; i < nctl; i++)
            for (int fi = 0; fi <= targets[t].rdna; fi++)
                run_one(targets[t].arch, targets[t].lanes, targets[t].rdna, &ctls[i], NULL, fi);
        if (targets[t].rdna)
            for (int k = 0; k < 6; k++) {
                int sel[8];
                for (int i = 0; i < 8; i++)
                    sel[i] = k == 0 ? 7 - i : (int)(rnd() % 8);
                run_one(targets[t].arch, targets[t].lanes, 1, NULL, sel, k & 1);
            }
    }
    free(w);
    return check_summary("dpp_lanes");
}
