/* gws.h - global wave sync resources of one launch (CDNA3/CDNA4 ISA, "Global Wave Sync").
 *
 * The hardware has 64 GWS resources shared by every wave of a dispatch; each is a counter used
 * either as a barrier (ds_gws_init / ds_gws_barrier) or as a semaphore (ds_gws_sema_*).  A wave
 * that has to wait leaves wave_run() with status WAVE_GWS; the scheduler (src/dispatch/sched.c)
 * asks x_gws_poll() when it may go on.  Waves of different workgroups run on different host
 * threads, so the resources sit behind one mutex.
 */
#ifndef GFXEMU_GWS_H
#define GFXEMU_GWS_H

#include <pthread.h>
#include <stdatomic.h>

#include "exec/exec.h"

#define XGWS_NRES 64
enum { XGWS_WAIT_NONE, XGWS_WAIT_BARRIER, XGWS_WAIT_SEMA };

typedef struct xgws {
    pthread_mutex_t lock;
    struct {
        int64_t count; /* barrier: arrivals still missing; semaphore: its value */
        uint64_t gen;  /* bumped when a barrier opens or ds_gws_sema_release_all runs */
    } r[XGWS_NRES];
    atomic_uint_fast64_t changes; /* bumped by every operation: progress, for deadlock checks */
} xgws;

void x_gws_init(xgws *g);
void x_gws_destroy(xgws *g);
/* For a wave in WAVE_GWS: 1 (and status WAVE_RUNNING) when its wait is over, else 0. */
int x_gws_poll(wave *w);

#endif
