/* gws.c - ds_gws_* (CDNA3/CDNA4 ISA, "Global Wave Sync" and the DS opcode descriptions).
 *
 * Every op names a resource: rid = M0[21:16] + OFFSET[5:0] (mod 64), and takes its value from
 * DATA0 of the first active lane.  Barrier: ds_gws_init sets the counter to the number of waves
 * that take part minus one; each ds_gws_barrier arrival finds the counter: above zero it counts
 * down and waits, at zero it is the last arrival, reloads the counter with its own DATA0 (the
 * same "waves minus one", so the barrier can be used again) and releases every waiting wave.
 * Semaphore: ds_gws_sema_v adds one, ds_gws_sema_br adds DATA0, ds_gws_sema_p waits until the
 * value is positive and takes one, ds_gws_sema_release_all releases every wave waiting in
 * ds_gws_sema_p without taking anything.  These are wave-level operations: EXEC only chooses
 * the lane DATA0 comes from (LLVM's intrinsics are uniform).
 */
#include "exec/gws.h"

#include <string.h>

void x_gws_init(xgws *g) {
    memset(g->r, 0, sizeof g->r);
    pthread_mutex_init(&g->lock, NULL);
    atomic_init(&g->changes, 0);
}

void x_gws_destroy(xgws *g) { pthread_mutex_destroy(&g->lock); }

static unsigned gws_rid(const wave *w, const xinst *x) {
    return (((w->s[ISA_SREG_M0] >> 16) & 63u) + (x->in.f.m.offset & 63u)) & (XGWS_NRES - 1);
}

/* DATA0 of the first active lane (0 when no lane is active). */
static int64_t gws_data0(const wave *w, const xinst *x) {
    uint64_t e = wave_exec(w);
    if (!e || x->in.src[1].kind == ISA_OPND_NONE)
        return 0;
    const isa_opnd *o = &x->in.src[1];
    unsigned l = (unsigned)__builtin_ctzll(e);
    return o->kind == ISA_OPND_AGPR ? w->a[o->idx][l] : w->v[o->idx][l];
}

/* A launch without GWS state (a lockstep debug wave) cannot wait for other waves. */
static xgws *gws_of(wave *w, const xinst *x) {
    if (!w->gws) {
        wave_fault(w, x, XF_UNIMPLEMENTED);
        w->fault.note = "global wave sync needs a launch (no GWS outside gfx_launch)";
    }
    return w->gws;
}

/* Every op finds its resource and updates it under the lock, then counts a change: the cue for
 * the scheduler to poll the waves waiting in x_gws_poll. */
static xgws *gws_lock(wave *w, const xinst *x, unsigned *rid) {
    xgws *g = gws_of(w, x);
    if (!g)
        return NULL;
    *rid = gws_rid(w, x);
    pthread_mutex_lock(&g->lock);
    return g;
}

static void gws_unlock(xgws *g) {
    pthread_mutex_unlock(&g->lock);
    atomic_fetch_add(&g->changes, 1);
}

static void gws_wait(wave *w, xgws *g, unsigned rid, int what) {
    w->status = WAVE_GWS;
    w->gws_wait = (uint8_t)what;
    w->gws_rid = (uint8_t)rid;
    w->gws_gen = g->r[rid].gen;
}

static void ds_gws_init(wave *w, const xinst *x) {
    unsigned rid;
    xgws *g = gws_lock(w, x, &rid);
    if (!g)
        return;
    g->r[rid].count = gws_data0(w, x);
    gws_unlock(g);
}

static void ds_gws_barrier(wave *w, const xinst *x) {
    unsigned rid;
    xgws *g = gws_lock(w, x, &rid);
    if (!g)
        return;
    if (g->r[rid].count <= 0) {
        g->r[rid].count = gws_data0(w, x);
        g->r[rid].gen++;
    } else {
        g->r[rid].count--;
        gws_wait(w, g, rid, XGWS_WAIT_BARRIER);
    }
    gws_unlock(g);
}

static void gws_add(wave *w, const xinst *x, int64_t n, int release_all) {
    unsigned rid;
    xgws *g = gws_lock(w, x, &rid);
    if (!g)
        return;
    g->r[rid].count += n;
    g->r[rid].gen += release_all != 0;
    gws_unlock(g);
}

static void ds_gws_sema_v(wave *w, const xinst *x) { gws_add(w, x, 1, 0); }
static void ds_gws_sema_br(wave *w, const xinst *x) { gws_add(w, x, gws_data0(w, x), 0); }
static void ds_gws_sema_release_all(wave *w, const xinst *x) { gws_add(w, x, 0, 1); }

static void ds_gws_sema_p(wave *w, const xinst *x) {
    unsigned rid;
    xgws *g = gws_lock(w, x, &rid);
    if (!g)
        return;
    if (g->r[rid].count > 0)
        g->r[rid].count--;
    else
        gws_wait(w, g, rid, XGWS_WAIT_SEMA);
    gws_unlock(g);
}

int x_gws_poll(wave *w) {
    xgws *g = w->gws;
    if (w->status != WAVE_GWS || !g)
        return w->status != WAVE_GWS;
    int go = 0;
    pthread_mutex_lock(&g->lock);
    if (g->r[w->gws_rid].gen != w->gws_gen) {
        go = 1; /* the barrier opened, or ds_gws_sema_release_all */
    } else if (w->gws_wait == XGWS_WAIT_SEMA && g->r[w->gws_rid].count > 0) {
        g->r[w->gws_rid].count--;
        go = 1;
    }
    pthread_mutex_unlock(&g->lock);
    if (go) {
        w->status = WAVE_RUNNING;
        w->gws_wait = XGWS_WAIT_NONE;
        atomic_fetch_add(&g->changes, 1);
    }
    return go;
}

#define H(op, fn) XROW(op, ISA_T_B32, fn)
const xhandler x_gws_handlers[] = {
    H(ds_gws_init, ds_gws_init),     H(ds_gws_barrier, ds_gws_barrier),
    H(ds_gws_sema_v, ds_gws_sema_v), H(ds_gws_sema_br, ds_gws_sema_br),
    H(ds_gws_sema_p, ds_gws_sema_p), H(ds_gws_sema_release_all, ds_gws_sema_release_all),
};
const unsigned x_gws_nhandlers = sizeof x_gws_handlers / sizeof x_gws_handlers[0];
