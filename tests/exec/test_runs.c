/* test_runs.c - wave_run()'s straight-line runs (src/exec/exec.c run_straight()): the budget,
 * the class counts, the pc, faults and status changes inside a run are what running the same
 * instructions one at a time gives.
 *
 * The expected values come from the programs themselves: every VALU instruction of a program
 * here is `v_add_u32_e32 v1, 1, v1` (4 bytes), so v1 is the number of them that ran and their
 * pcs are 4 apart.  The reference tier (x_set_fast_tier(0)) runs no straight-line runs; each
 * case runs on both tiers, and on the fast tier with and without the runs as code (runcode.c,
 * which also goes on from a run into the next: a loop's budget running out there). */
#include "common/asm.h"
#include "common/check.h"
#include "common/snippet.h"
#include "common/util.h"
#include "exec/exec.h"
#include "exec/jit.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static const char *const ARCH = "gfx950";
static wave *w;
static gmem *mem; /* nothing mapped: every global access faults */
static int tier;  /* 2: fast (runs) with run code, 1: fast without, 0: reference */

/* n copies of the add, then tail (may be ""). */
static char *adds(unsigned n, const char *tail) {
    size_t len = (size_t)n * 32 + strlen(tail) + 2;
    char *s = malloc(len), *p = s;
    for (unsigned i = 0; i < n; i++)
        p += sprintf(p, "v_add_u32_e32 v1, 1, v1\n");
    strcpy(p, tail);
    return s;
}

typedef struct {
    snippet_prog sp;
} prog;

/* Reset w to run p from pc 0 with this budget. */
static void restart(prog *p, uint64_t budget) {
    memset(w, 0, sizeof *w);
    wave_set_exec(w, ~0ull);
    w->mem = mem;
    w->prog = &p->sp.prog;
    w->budget = budget;
    w->status = WAVE_RUNNING;
}

/* Build text (plus s_endpgm) on the current tier and reset w to run it from pc 0. */
static int load(prog *p, const char *text, uint64_t budget) {
    memset(p, 0, sizeof *p);
    x_set_fast_tier(tier > 0);
    x_set_runcode(tier == 2);
    if (snippet_prog_load(&p->sp, ARCH, text) != 0)
        return -1;
    restart(p, budget);
    return 0;
}

/* A budget that runs out before, inside and at the end of a run of n adds: the wave stops with
 * a watchdog fault at the first instruction it had no budget for, after exactly budget
 * instructions, as wave_step() would stop it. */
static void budget_cases(unsigned n) {
    char *text = adds(n, "");
    prog p; /* built once, run from a fresh wave for each budget */
    if (load(&p, text, 0) != 0) {
        CHECK(0, "assembling %u adds", n);
        free(text);
        return;
    }
    for (uint64_t b = 0; b <= n + 2; b++) {
        restart(&p, b);
        CHECK(p.sp.prog.runs == (tier > 0) &&
                  (p.sp.prog.rc_mem != NULL) == (tier == 2 && x_jit_enabled()),
              "tier %d: runs %d, run code %d", tier, p.sp.prog.runs, p.sp.prog.rc_mem != NULL);
        wave_run(w);
        uint64_t ran = b < n + 1 ? b : n + 1; /* n adds and s_endpgm */
        uint64_t valu = ran < n ? ran : n;
        if (b <= n) {
            CHECK(w->status == WAVE_FAULT && w->fault.kind == XF_WATCHDOG,
                  "tier %d n %u budget %llu: status %d kind %d", tier, n, (unsigned long long)b,
                  w->status, w->fault.kind);
            CHECK(w->fault.pc == 4 * b && w->pc == 4 * b, "tier %d n %u budget %llu: pc %u/%u",
                  tier, n, (unsigned long long)b, w->fault.pc, w->pc);
        } else {
            CHECK(w->status == WAVE_DONE, "tier %d n %u budget %llu: status %d", tier, n,
                  (unsigned long long)b, w->status);
        }
        CHECK(w->v[1][0] == valu && w->v[1][63] == valu,
              "tier %d n %u budget %llu: v1 %u (%llu adds)", tier, n, (unsigned long long)b,
              w->v[1][0], (unsigned long long)valu);
        CHECK(w->count[XC_VALU] == valu && w->count[XC_BRANCH] == ran - valu,
              "tier %d n %u budget %llu: counts valu %llu branch %llu", tier, n,
              (unsigned long long)b, (unsigned long long)w->count[XC_VALU],
              (unsigned long long)w->count[XC_BRANCH]);
        CHECK(w->budget == b - ran, "tier %d n %u budget %llu: left %llu", tier, n,
              (unsigned long long)b, (unsigned long long)w->budget);
    }
    snippet_prog_free(&p.sp);
    free(text);
}

/* An instruction in the middle of a run that stops the wave: the adds before it ran, the ones
 * after it did not, the counts and the budget cover exactly the instructions up to it, and the
 * pc is past it (where a barrier or a yield resumes). */
static void stop_case(const char *what, const char *mid, unsigned mid_bytes, int status, int kind,
                      unsigned cls) {
    char *head = adds(5, mid), *text = malloc(strlen(head) + 300);
    char *tail = adds(7, "");
    sprintf(text, "%s\n%s", head, tail);
    prog p;
    if (load(&p, text, 1000) != 0) {
        CHECK(0, "%s: does not assemble", what);
    } else {
        wave_run(w);
        CHECK(w->status == status, "tier %d %s: status %d", tier, what, w->status);
        if (status == WAVE_FAULT)
            CHECK(w->fault.kind == kind && w->fault.pc == 20, "tier %d %s: fault %d at %u", tier,
                  what, w->fault.kind, w->fault.pc);
        CHECK(w->pc == 20 + mid_bytes, "tier %d %s: pc %u", tier, what, w->pc);
        CHECK(w->v[1][9] == 5, "tier %d %s: v1 %u", tier, what, w->v[1][9]);
        CHECK(w->count[XC_VALU] == 5 && w->count[cls] == 1 && w->budget == 1000 - 6,
              "tier %d %s: valu %llu, class %u %llu, budget %llu", tier, what,
              (unsigned long long)w->count[XC_VALU], cls, (unsigned long long)w->count[cls],
              (unsigned long long)w->budget);
        if (status != WAVE_FAULT) { /* resumes after it: the other 7 adds and s_endpgm */
            w->status = WAVE_RUNNING;
            wave_run(w);
            CHECK(w->status == WAVE_DONE && w->v[1][9] == 12 && w->count[XC_VALU] == 12 &&
                      w->budget == 1000 - 14,
                  "tier %d %s resumed: status %d v1 %u valu %llu budget %llu", tier, what,
                  w->status, w->v[1][9], (unsigned long long)w->count[XC_VALU],
                  (unsigned long long)w->budget);
        }
    }
    snippet_prog_free(&p.sp);
    free(head);
    free(tail);
    free(text);
}

/* An instruction that changes the wave's mode ends its run: the instruction after it runs in
 * the new mode.  MODE.FP_ROUND[1:0] = 1 rounds f32 results towards +infinity (CDNA3 ISA,
 * "MODE"): 1.0 + 2^-25 is 1.0 rounded to nearest and the next float, 0x3f800001, rounded up.
 * s_setvskip 1 (bit 0 of s2 = 1) drops the vector instructions that follow. */
static void mode_cases(void) {
    prog p;
    if (load(&p,
             "s_setreg_imm32_b32 hwreg(HW_REG_MODE, 0, 2), 1\n"
             "v_add_f32_e32 v2, v3, v4\n"
             "s_setreg_imm32_b32 hwreg(HW_REG_MODE, 0, 2), 0\n"
             "v_add_f32_e32 v5, v3, v4",
             1000) != 0) {
        CHECK(0, "setreg: does not assemble");
    } else {
        for (int l = 0; l < 64; l++) {
            w->v[3][l] = 0x3f800000u; /* 1.0 */
            w->v[4][l] = 0x33000000u; /* 2^-25 */
        }
        wave_run(w);
        CHECK(w->status == WAVE_DONE && w->v[2][0] == 0x3f800001u && w->v[5][0] == 0x3f800000u,
              "tier %d setreg round-up: status %d v2 %08x v5 %08x", tier, w->status, w->v[2][0],
              w->v[5][0]);
    }
    snippet_prog_free(&p.sp);
    if (load(&p, "s_setvskip s2, 0\nv_mov_b32_e32 v6, 7\nv_add_u32_e32 v1, 1, v1", 1000) != 0) {
        CHECK(0, "setvskip: does not assemble");
    } else {
        w->s[2] = 1;
        wave_run(w);
        CHECK(w->status == WAVE_DONE && w->v[6][0] == 0 && w->v[1][0] == 0 &&
                  w->count[XC_VALU] == 2,
              "tier %d setvskip: status %d v6 %u v1 %u valu %llu", tier, w->status, w->v[6][0],
              w->v[1][0], (unsigned long long)w->count[XC_VALU]);
    }
    snippet_prog_free(&p.sp);
}

/* s_memtime reads the wave's instruction count (src/exec/smem.c: the instructions executed so
 * far, itself included), which a run charges at its start: 3 adds and s_memtime are 4. */
static void memtime_case(void) {
    prog p;
    char *text = adds(3, "s_memtime s[10:11]\nv_add_u32_e32 v1, 1, v1\nv_add_u32_e32 v1, 1, v1");
    if (load(&p, text, 1000) != 0) {
        CHECK(0, "s_memtime: does not assemble");
    } else {
        wave_run(w);
        CHECK(w->status == WAVE_DONE && w->s[10] == 4 && w->s[11] == 0 && w->v[1][0] == 5,
              "tier %d s_memtime: status %d s[10:11] %u %u v1 %u", tier, w->status, w->s[10],
              w->s[11], w->v[1][0]);
    }
    snippet_prog_free(&p.sp);
    free(text);
}

/* A loop: the branch ends a run, the next iteration starts one at the branch target. */
static void loop_case(void) {
    prog p;
    char *body = adds(3, "s_add_u32 s0, s0, -1\ns_cmp_lg_u32 s0, 0\ns_cbranch_scc1 -6");
    if (load(&p, body, 1000) != 0) {
        CHECK(0, "loop: does not assemble");
    } else {
        w->s[0] = 10;
        wave_run(w);
        CHECK(w->status == WAVE_DONE && w->v[1][0] == 30 && w->count[XC_VALU] == 30 &&
                  w->count[XC_SALU] == 20 && w->count[XC_BRANCH] == 11 && w->budget == 1000 - 61,
              "tier %d loop: status %d v1 %u valu %llu salu %llu branch %llu", tier, w->status,
              w->v[1][0], (unsigned long long)w->count[XC_VALU],
              (unsigned long long)w->count[XC_SALU], (unsigned long long)w->count[XC_BRANCH]);
    }
    snippet_prog_free(&p.sp);
    free(body);
    /* the same loop with a budget of 35: five iterations (30 instructions), then the sixth's
     * run (6) is longer than the 5 left, so its instructions go one at a time until the
     * watchdog stops the wave at the branch (pc 20) */
    body = adds(3, "s_add_u32 s0, s0, -1\ns_cmp_lg_u32 s0, 0\ns_cbranch_scc1 -6");
    if (load(&p, body, 35) != 0) {
        CHECK(0, "loop: does not assemble");
    } else {
        w->s[0] = 10;
        wave_run(w);
        CHECK(w->status == WAVE_FAULT && w->fault.kind == XF_WATCHDOG && w->pc == 20 &&
                  w->v[1][0] == 18 && w->count[XC_VALU] == 18 && w->count[XC_SALU] == 12 &&
                  w->count[XC_BRANCH] == 5 && w->budget == 0 && w->s[0] == 4,
              "tier %d loop, budget 35: status %d pc %u v1 %u valu %llu salu %llu branch %llu "
              "s0 %u",
              tier, w->status, w->pc, w->v[1][0], (unsigned long long)w->count[XC_VALU],
              (unsigned long long)w->count[XC_SALU], (unsigned long long)w->count[XC_BRANCH],
              w->s[0]);
    }
    snippet_prog_free(&p.sp);
    free(body);
}

int main(void) {
    w = malloc(sizeof *w);
    mem = gmem_create();
    if (!w || !mem)
        return 1;
    int start = x_fast_tier();
    for (tier = 2; tier >= 0; tier--) {
        budget_cases(8);
        budget_cases(300); /* longer than one run (255 instructions at most) */
        stop_case("s_trap", "s_trap 2", 4, WAVE_FAULT, XF_TRAP, XC_OTHER);
        stop_case("unmapped load", "global_load_dword v7, v[8:9], off", 8, WAVE_FAULT, XF_MEMORY,
                  XC_VMEM);
        stop_case("s_barrier", "s_barrier", 4, WAVE_BARRIER, 0, XC_OTHER);
        stop_case("s_sleep", "s_sleep 1", 4, WAVE_YIELD, 0, XC_OTHER);
        mode_cases();
        memtime_case();
        loop_case();
    }
    x_set_fast_tier(start);
    x_set_runcode(1);
    gmem_destroy(mem);
    free(w);
    return check_summary("test_runs");
}
