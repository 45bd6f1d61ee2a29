/* step.c - wave_step(): one iteration of wave_run()'s loop (see step.h). */
#include "exec/step.h"
#include "exec/opcov.h"

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
#ifdef GFXEMU_OPCOV
    x_opcov_hit(w->prog, x);
#endif
    w->pc += x->size;
    x_run_one(w, x);
    return x;
}
