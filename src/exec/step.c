/* step.c - wave_step(): one iteration of wave_run()'s loop (see step.h). */
#include "exec/step.h"

const xinst *wave_step(wave *w) {
    if (w->status != WAVE_RUNNING)
        return NULL;
    if (w->budget == 0) {
        wave_fault(w, NULL, XF_WATCHDOG);
        return NULL;
    }
    w->budget--;
    const xinst *x = wave_inst_at(w->prog, w->pc);
    if (!x) {
        wave_fault(w, NULL, XF_PC);
        return NULL;
    }
    w->count[x->cls]++;
    w->pc += x->size;
    if (w->gpr_idx_on | w->vskip) /* the same slow path as wave_run() */
        x_run_moded(w, x);
    else
        x->fn(w, x);
    return x;
}
