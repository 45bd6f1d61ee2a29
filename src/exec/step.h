/* step.h - one instruction at a time: the slow twin of wave_run() for debuggers and tracers.
 *
 * wave_run() (exec.c) is the hot loop and knows nothing of debugging.  wave_step() runs exactly
 * one instruction with the same semantics (budget, class counts, VGPR indexing, faults), so a
 * runner built on it (src/debug/) can look at the wave between instructions.  Which loop runs
 * is decided once per launch (dp_hooks in src/dispatch/dispatch.h), never per instruction.
 */
#ifndef GFXEMU_STEP_H
#define GFXEMU_STEP_H

#include "exec/exec.h"

/* The instruction at w->pc, or NULL when pc is outside the code or inside an instruction. */
static inline const xinst *wave_inst_at(const xprog *p, uint32_t pc) {
    return (pc < p->code_size && !(pc & 3)) ? p->at[pc / 4] : NULL;
}

/* Run one instruction of a RUNNING wave (a watchdog fault when w->budget is 0, a pc fault when
 * pc is not an instruction).  Returns the executed instruction, or NULL when none ran. */
const xinst *wave_step(wave *w);

#endif
