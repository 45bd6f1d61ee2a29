/* debug.h - debug sessions, traces, timelines and profiles (the debug layer, above dispatch).
 *
 * A session installs dp_hooks for one launch (src/dispatch/dispatch.h): the dispatcher then runs
 * on one thread and hands every wave to dbg_run(), a loop over wave_step() (src/exec/step.h)
 * that checks breakpoints, watchpoints and steps between instructions and feeds the trace,
 * timeline and profile writers.  Nothing below this layer knows any of it exists.
 */
#ifndef GFXEMU_DEBUG_H
#define GFXEMU_DEBUG_H

#include <stdatomic.h>
#include <stdio.h>

#include "dispatch/dispatch.h"
#include "exec/step.h"

struct gfx_wave {
    wave *w;
    const dp_dispatch *d; /* the launch (NULL for a lockstep wave) */
    /* lockstep waves own everything below */
    int owned;
    xprog prog;
    uint8_t *code;
    gmem *mem; /* the device's, or an empty one when there is no device */
    int own_mem;
};

typedef struct dbg_break {
    int id;
    int watch; /* 0: breakpoint, 1: watchpoint */
    gfx_breakpoint bp;
    uint64_t addr; /* watchpoint */
    uint32_t size;
    uint64_t old; /* watched bytes as last seen */
    int old_valid;
    uint64_t hits;
} dbg_break;

enum { DBG_RUN, DBG_STEP, DBG_NEXT };

typedef struct dbg_att dbg_att; /* att.c */

struct gfx_debug_session {
    gfx_device *dev;
    dp_hooks hooks;
    gfx_debug_handler handler;
    void *user;
    int stop_at_entry;
    atomic_int interrupt; /* gfx_debug_interrupt() */
    dbg_break *bps;
    size_t nbps, capbps;
    int next_id;

    /* the launch */
    const struct gfx_kernel *k;
    const dp_dispatch *d;
    uint64_t insts; /* wave-instructions executed in the launch so far */
    uint64_t cls[XC_N];
    int in_launch, entry_done, abandon;
    /* the running workgroup */
    wave *waves;
    gfx_wave *handles;
    unsigned nwaves, cap_handles;
    uint64_t wg_linear;
    int in_wg;
    /* the stopped wave may run its next instruction without stopping again */
    const wave *resume_w;
    uint32_t resume_pc;
    /* selection and the pending resume */
    uint64_t sel_wg;
    uint32_t sel_wave;
    int mode;
    uint64_t step_left;
    uint32_t next_pc;   /* DBG_NEXT: stop when the selected wave is back here */
    uint64_t next_more; /* NEXT with a count: further nexts after the current one */
    xfault fault;       /* a GFX_STOP_FAULT stop */
    const wave *fault_w;

    /* outputs */
    gfx_trace_options topt;
    char *trace_path, *timeline_path;
    FILE *trace, *timeline;
    uint64_t trace_lines;
    uint64_t *prof; /* executions per pc/4 of the launch's program */
    uint32_t prof_n;
    uint64_t prof_va;
    uint64_t *span_start; /* per wave of the running workgroup: UINT64_MAX when not running */
    int tl_first;
    int counters_on; /* gfx_debug_counters_enable() */
    gfx_counters ctr;
    /* per pc/4 like prof, when the profile and counters are both on: EXEC bits, bytes and
     * bank-conflict cycles (gfx_debug_profile_lines) */
    uint64_t (*prof_detail)[3];
    dbg_att *att; /* gfx_debug_att(): NULL when thread traces are off */
};

/* trace.c */
void dbg_trace_inst(gfx_debug_session *s, const wave *w, const xinst *x, uint32_t pc, uint64_t exec,
                    const uint32_t *s_before, uint32_t scc_before);
int dbg_trace_wants(const gfx_debug_session *s, const wave *w, uint32_t pc);
/* timeline.c */
void dbg_timeline_begin(gfx_debug_session *s);
void dbg_timeline_wg(gfx_debug_session *s);
void dbg_timeline_span(gfx_debug_session *s, const wave *w, unsigned idx);
void dbg_timeline_fault(gfx_debug_session *s, const wave *w);
void dbg_timeline_end(gfx_debug_session *s);
/* counters.c: count the instruction x that wave w is about to execute */
void dbg_count_inst(gfx_debug_session *s, const wave *w, const xinst *x);
/* session.c: a malloc'd copy of p (NULL for NULL or when out of memory) */
char *dbg_dup_or_null(const char *p);
/* att.c: thread traces (gfx_debug_att) */
gfx_result dbg_att_begin(gfx_debug_session *s);
void dbg_att_wg(gfx_debug_session *s, const wave *waves, unsigned n, uint64_t wg_linear);
void dbg_att_wg_end(gfx_debug_session *s, const wave *waves);
void dbg_att_inst(gfx_debug_session *s, const wave *w, const xinst *x, uint32_t pc);
gfx_result dbg_att_end(gfx_debug_session *s);
void dbg_att_free(gfx_debug_session *s);
/* wave.c */
uint64_t dbg_wave_pc(const wave *w);
/* EXEC as the program sees it: in a wave32 RDNA program EXEC_HI is kept in the slot
 * XS_EXEC_HI32, not in s[127] (which gates lanes 32-63 and stays 0; src/exec/rdna.c), so the
 * debugger's exec, exec_hi (s127) and snapshots read and write that slot. */
uint64_t dbg_wave_exec(const wave *w);
gfx_wave_state dbg_wave_state(const wave *w);
gfx_fault_kind dbg_fault_kind(int xk);

#endif
