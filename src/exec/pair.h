/* pair.h - two wave32 waves run as one 64-lane wave (see pair.c). */
#ifndef GFXEMU_EXEC_PAIR_H
#define GFXEMU_EXEC_PAIR_H

#include "exec/exec.h"

/* Whether launches pair wave32 waves: on unless GFXEMU_PAIR=0; tests set it. */
int x_pairing(void);
void x_set_pairing(int on);
/* Instructions run paired so far in this process (each counts once for the pair). */
uint64_t x_pair_count(void);
/* Runs of paired vector instructions with lane masks (carries, compares, v_cndmask) started so
 * far in this process. */
uint64_t x_pair_mask_runs(void);
/* Scalar loads run once for both waves of a pair (their address SGPRs agreed) so far in this
 * process. */
uint64_t x_pair_shared_loads(void);
/* The counts of the three above that this thread gathered, added to them: a worker thread's
 * end of its part of a launch (dispatch/sched.c dp_work), before the launch returns. */
void x_pair_flush(void);
/* Split pairs joined again at a barrier so far in this process (x_pair_rejoin). */
uint64_t x_pair_rejoins(void);

/* Plan every instruction of the wave32 program p32 for paired runs, against p64, the wave64
 * build of the same code.  0 (also when p32 is no wave32 program or the reference tier built
 * it: no plan, no pairing), -1 out of memory. */
int x_pair_build(xprog *p32, const xprog *p64);
void x_pair_free(xprog *p);

/* Pair wave32 waves a and b (both just initialised, a's program planned): a takes b's first nv
 * VGPRs (all the kernel has) into its lanes 32-63 and runs for both from now on. */
void x_pair_begin(wave *a, wave *b, unsigned nv);

/* Run the pair led by a for a->budget wave-instructions (2 per paired instruction) like
 * wave_run(): until a status other than running, the budget's end (a watchdog fault with budget
 * 0, as wave_run() leaves it) or a split (the two waves go on as ordinary waves, b's VGPRs back
 * in b).  Returns 1 while still paired; after a split, a fault may be b's. */
int x_pair_run(wave *a);

/* End a's pairing: b's lanes back into b's own register file. */
void x_pair_split(wave *a);

/* Pair a and b (paired by x_pair_begin once, split since) again when both run at the same pc:
 * b's VGPRs back into a's lanes 32-63.  Nothing when they are paired or apart. */
void x_pair_rejoin(wave *a, wave *b);

#endif
