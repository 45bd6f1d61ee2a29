/* sched.c - resident workgroups and the turns of their waves.
 *
 * Each worker thread keeps a few workgroups resident in slots and runs their waves in turns.  The
 * fast path is the common case: one slot per worker, and each wave runs until it ends, reaches a
 * barrier or uses up a slice of DP_SLICE instructions (then the next wave of the workgroup gets
 * its turn), exactly as before co-residency existed; nothing is checked per instruction.
 *
 * A worker lets one more workgroup in (up to the residency of the modelled GPU, shared by all
 * workers, dp_occupancy) when every wave of its resident workgroups waits:
 *  - spins: every 2 slices a running wave is probed (every RESPIN_SLICE instructions when it
 *    spun before, or other waves of the launch waited): it is stepped up to PROBE_STEPS
 *    instructions, and a backward branch that comes back to a state seen before (same pc, same
 *    scalar registers, SCC, EXEC, M0, VCC, same VGPRs and AGPRs) means the wave repeats a loop
 *    that changes nothing: it can only leave it when another wave writes what it reads.  A
 *    spinning wave's later turns run it once around the loop; a different state at the branch
 *    means memory changed and it runs on;
 *  - waits in ds_gws_barrier / ds_gws_sema_p, or at s_barrier for such waves.
 * s_sleep ends a wave's turn.  Once a launch has seen waiting, a worker whose waves keep running
 * for LONG_RUN instructions also lets one more workgroup in (a wait loop that counts its
 * attempts changes its registers every time and is not seen as a spin).
 *
 * Deadlock: a worker whose waves all wait and that cannot admit another workgroup is stuck.
 * When every worker is stuck or finished, and a stuck worker has gone around all its waves 3
 * times with no progress anywhere (progress: a workgroup admitted or finished, a spinning wave
 * that saw a change, any GWS operation, a round in which some wave ran instructions; every
 * worker bumps the epoch when it becomes stuck or unstuck), nothing can ever change again: the
 * launch stops with a deadlock fault naming a waiting wave.  With one thread this is deterministic.
 */
#include <sched.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "dispatch/sched.h"
#include "exec/pair.h"
#include "exec/step.h"

#define PROBE_STEPS 512u
#define PROBE_EVERY (2ull * DP_SLICE)
/* A wave that spun and was let go (memory changed) usually waits again soon, at the same loop
 * (a software grid barrier, a queue): its next turns are this short and it is probed after each,
 * until a probe finds it spinning again or finds it doing other work (then PROBE_EVERY again).
 * Without this, every wait after the first cost two whole slices before the probe found it. */
#define RESPIN_SLICE 2048u
#define LONG_RUN (16ull * DP_SLICE)

enum { TURN_RAN, TURN_WAIT, TURN_STOP };
enum { SLOT_RAN, SLOT_WAIT, SLOT_DONE, SLOT_STOP };

/* ---- storage --------------------------------------------------------------------------------- */

static void free_slot(dp_slot *s) {
    free(s->waves);
    free(s->ws);
    free(s->lds);
    free(s->scratch);
    dp_race_free(s->race);
    memset(s, 0, sizeof *s);
}

static int size_slot(dp_slot *s, const dp_dispatch *d, int racecheck) {
    if (s->wave_cap < d->waves_per_wg) {
        free(s->waves);
        free(s->ws);
        s->waves = aligned_alloc(64, (sizeof(wave) + 63) / 64 * 64 * d->waves_per_wg);
        s->ws = calloc(d->waves_per_wg, sizeof *s->ws);
        s->wave_cap = s->waves && s->ws ? d->waves_per_wg : 0;
        s->caches_valid = 0;
        if (!s->wave_cap)
            return -1;
    }
    if (s->lds_cap < d->lds_size) {
        free(s->lds);
        /* Round up so that a 16-byte access at the last valid address stays inside. */
        s->lds = malloc(((size_t)d->lds_size + 63) & ~(size_t)63);
        s->lds_cap = s->lds ? d->lds_size : 0;
        if (!s->lds)
            return -1;
    }
    size_t sc = (size_t)d->scratch_wave * d->waves_per_wg;
    if (s->scratch_cap < sc) {
        free(s->scratch);
        s->scratch = malloc(sc);
        s->scratch_cap = s->scratch ? sc : 0;
        if (!s->scratch)
            return -1;
    }
    if (racecheck && !s->race && !(s->race = dp_race_new()))
        return -1;
    return 0;
}

/* Slot 0 of every worker is sized before the pool starts (an out-of-memory error then fails the
 * launch cleanly); further slots are made when a workgroup is admitted into them. */
int dp_size_worker(dp_worker *wk, const dp_dispatch *d, int racecheck) {
    if (!wk->nslots) {
        wk->slots = calloc(1, sizeof *wk->slots);
        if (!wk->slots)
            return -1;
        wk->nslots = 1;
    }
    /* A launch that needed many resident workgroups does not keep their storage. */
    for (unsigned i = 1; i < wk->nslots; i++)
        free_slot(&wk->slots[i]);
    wk->nslots = 1;
    return size_slot(&wk->slots[0], d, racecheck);
}

void dp_free_worker(dp_worker *wk) {
    for (unsigned i = 0; i < wk->nslots; i++)
        free_slot(&wk->slots[i]);
    free(wk->slots);
    wk->slots = NULL;
    wk->nslots = 0;
}

/* ---- spin detection -------------------------------------------------------------------------- */

static uint64_t mix(uint64_t h, uint64_t v) {
    h = (h ^ v) * 0x9e3779b97f4a7c15ull;
    return h ^ (h >> 31);
}

/* Everything scalar a loop iteration can change: SGPRs (incl. VCC, M0, EXEC, TTMPs), SCC, MODE
 * and the indexing/skip modes. */
static uint64_t scalar_hash(const wave *w) {
    uint64_t h = 0x243f6a8885a308d3ull;
    for (unsigned i = 0; i < 128; i += 2)
        h = mix(h, w->s[i] | (uint64_t)w->s[i + 1] << 32);
    return mix(h, w->scc | (uint64_t)w->mode << 1 | (uint64_t)w->gpr_idx_on << 40 |
                      (uint64_t)w->vskip << 48);
}

static uint64_t vector_hash(const dp_job *j, const wave *w) {
    uint64_t h = 0x13198a2e03707344ull;
    for (unsigned r = 0; r < j->hash_nv; r++)
        for (unsigned l = 0; l < LANES; l += 2)
            h = mix(h, w->v[r][l] | (uint64_t)w->v[r][l + 1] << 32);
    for (unsigned r = 0; r < j->hash_na; r++)
        for (unsigned l = 0; l < LANES; l += 2)
            h = mix(h, w->a[r][l] | (uint64_t)w->a[r][l + 1] << 32);
    return h;
}

/* The global address instruction x (about to run) reads, for the first active lane: FLAT/GLOBAL
 * and MUBUF loads and atomics, scalar loads.  Only for the deadlock report. */
static int read_addr(const wave *w, const xinst *x, uint64_t *out) {
    const isa_inst *in = &x->in;
    uint64_t e = wave_exec(w);
    unsigned l = e ? (unsigned)__builtin_ctzll(e) : 0;
    if (x->cls == XC_SMEM) {
        if (!in->ndst || in->dst[0].kind != ISA_OPND_SREG || in->src[1].kind != ISA_OPND_SREG ||
            in->src[1].n != 2)
            return 0;
        const isa_scalar_fields *f = &in->f.s;
        uint64_t a = x_s64(w, x, 1) + (f->has_imm ? (uint64_t)(int64_t)f->offset : 0);
        if (f->has_soffset)
            a += x_s32(w, x, 2);
        *out = a & ~3ull;
        return 1;
    }
    if (x->cls != XC_VMEM || !e || !in->info || !(in->info->flags & (ISA_MF_LOAD | ISA_MF_ATOMIC)))
        return 0;
    const isa_mem_fields *f = &in->f.m;
    if (in->fmt == ISA_FMT_FLAT && f->seg != 1 && in->src[0].kind == ISA_OPND_VGPR) {
        uint64_t a;
        if (in->src[3].kind == ISA_OPND_SREG)
            a = x_s64(w, x, 3) + w->v[in->src[0].idx][l];
        else
            a = w->v[in->src[0].idx][l] | (uint64_t)w->v[in->src[0].idx + 1][l] << 32;
        *out = a + (uint64_t)(int64_t)f->offset;
        return 1;
    }
    if (in->fmt == ISA_FMT_MUBUF && in->src[3].kind == ISA_OPND_SREG) {
        unsigned r = in->src[3].idx;
        uint64_t a = (w->s[r] | (uint64_t)(w->s[r + 1] & 0xffff) << 32) + (uint32_t)f->offset;
        if (in->src[4].kind == ISA_OPND_SREG)
            a += w->s[in->src[4].idx];
        if (f->offen && in->src[0].kind == ISA_OPND_VGPR)
            a += w->v[in->src[0].idx + (f->idxen ? 1 : 0)][l];
        *out = a;
        return 1;
    }
    return 0;
}

/* A wave's end of slice is reported by wave_run()/wave_step() as a watchdog fault with budget 0;
 * the real watchdog is the launch-wide count. */
static void slice_end(wave *w) {
    if (w->status == WAVE_FAULT && w->fault.kind == XF_WATCHDOG && w->budget == 0) {
        w->status = WAVE_RUNNING;
        memset(&w->fault, 0, sizeof w->fault);
    }
}

static uint64_t budget_left(const dp_job *j, const dp_worker *wk) {
    uint64_t used = atomic_load_explicit(&j->insts, memory_order_relaxed) + wk->unpublished;
    return used >= j->max_insts ? 0 : j->max_insts - used;
}

static void account(dp_job *j, dp_worker *wk, uint64_t ran) {
    wk->unpublished += ran;
    wk->since_admit += ran;
    /* A worker adds its count to the shared one only every DP_SLICE instructions, not after
     * every wave: short waves (elementwise kernels) would otherwise write that cache line
     * from both cores a few times per workgroup.  The budget check still sees this worker's
     * own count exactly (one thread: exact watchdog; n threads: within a slice per other
     * worker). */
    if (wk->unpublished >= DP_SLICE) {
        atomic_fetch_add_explicit(&j->insts, wk->unpublished, memory_order_relaxed);
        wk->unpublished = 0;
    }
}

/* One instruction of a watched wave (probe, still_spinning): the wave's next instruction, with
 * the address it reads kept in ws; NULL when the wave stopped running. */
static const xinst *watch_step(wave *w, dp_wsched *ws) {
    if (w->status == WAVE_YIELD)
        w->status = WAVE_RUNNING; /* s_sleep inside the loop is part of it */
    if (w->status != WAVE_RUNNING)
        return NULL;
    const xinst *nx = wave_inst_at(w->prog, w->pc);
    uint64_t a;
    if (nx && read_addr(w, nx, &a))
        ws->addr = a, ws->has_addr = 1;
    return wave_step(w);
}

/* Step a running wave looking for a loop that comes back to the same state (see the top).
 * Scalar state is compared first; the VGPR/AGPR hash is computed only for a loop whose scalar
 * state repeats.  A loop whose scalar state changes twice in a row (a counting loop) ends the
 * probe early, so probing costs little in ordinary kernels. */
static int probe(dp_job *j, dp_worker *wk, wave *w, dp_wsched *ws, uint64_t *stepped) {
    struct {
        uint32_t pc;
        unsigned misses;
        int vset;
        uint64_t sh, vh;
    } seen[8];
    unsigned nseen = 0, steps = PROBE_STEPS;
    uint64_t left = budget_left(j, wk);
    if (left < steps)
        return 0;
    int found = 0;
    w->budget = steps;
    while (w->budget && !found) {
        const xinst *x = watch_step(w, ws);
        if (!x)
            break;
        if (x->cls != XC_BRANCH || w->pc > x->pc || w->status != WAVE_RUNNING)
            continue;
        uint64_t sh = scalar_hash(w);
        unsigned i = 0;
        while (i < nseen && seen[i].pc != x->pc)
            i++;
        if (i == nseen) {
            if (nseen == 8)
                break;
            seen[nseen].pc = x->pc;
            seen[nseen].misses = 0;
            seen[nseen].vset = 0;
            seen[nseen].sh = sh;
            seen[nseen++].vh = 0;
            continue;
        }
        if (seen[i].sh != sh) {
            seen[i].sh = sh;
            seen[i].vset = 0;
            if (++seen[i].misses >= 2)
                break;
            continue;
        }
        uint64_t vh = vector_hash(j, w);
        if (seen[i].vset && seen[i].vh == vh) {
            found = 1;
            ws->spin_pc = x->pc;
            ws->loop_pc = w->pc;
            ws->shash = sh;
            ws->vhash = vh;
        } else {
            if (seen[i].vset && ++seen[i].misses >= 2)
                break;
            seen[i].vh = vh;
            seen[i].vset = 1;
        }
    }
    account(j, wk, steps - w->budget);
    *stepped = steps - w->budget;
    slice_end(w);
    return found;
}

/* After a probe of a pair's leader a that found no spin (the probe split the pair and stepped a
 * alone n instructions): step its follower b the same n, and if both then stand at one pc,
 * running, pair them again.  A pair whose waves run the same code does not stay split, and a
 * long-running pair is probed as often as any wave. */
static void follow_probe(dp_job *j, dp_worker *wk, wave *a, wave *b, uint64_t n) {
    if (b->status == WAVE_YIELD)
        b->status = WAVE_RUNNING;
    if (budget_left(j, wk) < n)
        return;
    b->budget = n;
    while (b->budget && wave_step(b))
        ;
    account(j, wk, n - b->budget);
    slice_end(b);
    x_pair_rejoin(a, b);
}

/* Run a spinning wave once around its loop: 1 when it came back to the same state. */
static int still_spinning(dp_job *j, dp_worker *wk, wave *w, dp_wsched *ws) {
    unsigned steps = PROBE_STEPS;
    if (budget_left(j, wk) < steps)
        return 0; /* let the normal path raise the watchdog */
    int same = 0;
    w->budget = steps;
    while (w->budget) {
        const xinst *x = watch_step(w, ws);
        if (!x)
            break;
        if (x->pc == ws->spin_pc && w->pc == ws->loop_pc && w->status == WAVE_RUNNING) {
            same = scalar_hash(w) == ws->shash && vector_hash(j, w) == ws->vhash;
            break;
        }
    }
    account(j, wk, steps - w->budget);
    slice_end(w);
    return same;
}

/* A scheduling event other workers' deadlock checks must see.  Only a launch in which some wave
 * waited has stuck workers to tell (a worker sets `waited` before it can become stuck), so the
 * fast path writes no shared line here. */
static void progress(dp_job *j) {
    if (atomic_load_explicit(&j->waited, memory_order_relaxed))
        atomic_fetch_add(&j->epoch, 1);
}

/* ---- turns ------------------------------------------------------------------------------------
 */

static void wave_fault_kind(wave *w, int kind) {
    wave_fault(w, NULL, XF_WATCHDOG);
    w->fault.kind = kind;
}

static void note_wait(dp_job *j) {
    if (!atomic_load_explicit(&j->waited, memory_order_relaxed))
        atomic_store(&j->waited, 1);
}

static int wave_turn(dp_job *j, dp_worker *wk, dp_slot *s, unsigned i) {
    wave *w = &s->waves[i];
    dp_wsched *ws = &s->ws[i];
    if (w->status == WAVE_GWS) {
        note_wait(j);
        if (!x_gws_poll(w))
            return TURN_WAIT;
    }
    if (w->status == WAVE_YIELD)
        w->status = WAVE_RUNNING;
    if (w->status != WAVE_RUNNING)
        return TURN_WAIT;
    if (atomic_load_explicit(&j->stop, memory_order_relaxed))
        return TURN_STOP;
    uint64_t left = budget_left(j, wk);
    if (!left) {
        wave_fault(w, NULL, XF_WATCHDOG);
        return TURN_RAN;
    }
    if (j->deadline > 0 && dp_now() > j->deadline) {
        wave_fault_kind(w, XF_TIMEOUT);
        return TURN_RAN;
    }
    if (ws->spinning) {
        if (still_spinning(j, wk, w, ws))
            return TURN_WAIT;
        ws->spinning = 0;
        ws->respin = 1;
        atomic_fetch_sub(&j->nspinning, 1);
        progress(j);
        if (w->status != WAVE_RUNNING)
            return TURN_RAN;
        left = budget_left(j, wk);
        if (!left)
            return TURN_RAN; /* the next turn raises the watchdog */
    }
    /* Racecheck interleaves a workgroup's waves one instruction at a time; a workgroup of one
     * wave has no other wave to interleave with or to race against (race.c reports accesses by
     * different waves only), so it runs in whole slices as without racecheck. */
    uint64_t slice = j->racecheck && s->nwaves > 1 ? 1 : left < DP_SLICE ? left : DP_SLICE;
    if (ws->respin && slice > RESPIN_SLICE)
        slice = RESPIN_SLICE;
    w->budget = slice;
    if (j->hooks) {
        if (j->hooks->run(j->hooks->ctx, w)) {
            j->abandoned = 1;
            atomic_store(&j->stop, 1);
        }
    } else if (w->pair) {
        /* after a split the leader goes on with the rest of its slice first, as the lower wave
         * of the two would have run before the other unpaired */
        if (!x_pair_run(w) && w->status == WAVE_RUNNING && w->budget)
            wave_run(w);
    } else {
        wave_run(w);
    }
    uint64_t ran = slice - w->budget;
    account(j, wk, ran);
    if (ran)
        wk->ran_round = 1;
    slice_end(w);
    if (w->status == WAVE_YIELD)
        note_wait(j);
    if ((w->status == WAVE_RUNNING || w->status == WAVE_YIELD) && !j->hooks) {
        ws->since_probe += ran;
        /* A pair is probed only once the launch has seen waiting, or after LONG_RUN: the
         * probe steps single waves, so it splits the pair (follow_probe joins it again), and
         * most long runs are no waits. */
        int late = w->pair && ws->since_probe < LONG_RUN &&
                   !atomic_load_explicit(&j->waited, memory_order_relaxed);
        if (ws->since_probe >= (ws->respin ? RESPIN_SLICE : PROBE_EVERY) && !late) {
            ws->since_probe = 0;
            if (w->status == WAVE_YIELD)
                w->status = WAVE_RUNNING;
            wave *b = w->pair;
            uint64_t stepped = 0;
            if (b) /* the probe steps single waves */
                x_pair_split(w);
            if (probe(j, wk, w, ws, &stepped)) {
                ws->spinning = 1;
                atomic_fetch_add(&j->nspinning, 1);
                note_wait(j);
                return TURN_WAIT;
            }
            ws->respin = 0;
            if (b && w->status == WAVE_RUNNING)
                follow_probe(j, wk, w, b, stepped);
        }
    }
    return TURN_RAN;
}

/* Give each wave of the workgroup turns until all have ended (SLOT_DONE), all wait (SLOT_WAIT),
 * or a turn ended at a slice end or s_sleep (SLOT_RAN: the worker's other workgroups go next).
 * A barrier is released when every wave that has not ended is at it. */
static int run_slot(dp_job *j, dp_worker *wk, dp_slot *s) {
    unsigned n = s->nwaves;
    for (;;) {
        int ran = 0, turn_end = 0;
        for (unsigned i = 0; i < n; i++) {
            wave *w = &s->waves[i];
            if (w->status == WAVE_DONE || w->status == WAVE_BARRIER || w->pair_follower)
                continue; /* a paired follower runs in its leader's turns */
            wave *b = w->pair;
            int t = wave_turn(j, wk, s, i);
            if (t == TURN_STOP)
                return SLOT_STOP;
            if (w->status == WAVE_FAULT || (b && b->status == WAVE_FAULT)) {
                dp_record_fault(j, w->status == WAVE_FAULT ? w : b, s->wg_linear);
                return SLOT_STOP;
            }
            if (t == TURN_RAN) {
                ran = 1;
                turn_end |= w->status == WAVE_RUNNING || w->status == WAVE_YIELD;
            }
        }
        unsigned live = 0, barrier = 0;
        for (unsigned i = 0; i < n; i++) {
            live += s->waves[i].status != WAVE_DONE;
            barrier += s->waves[i].status == WAVE_BARRIER;
        }
        if (!live)
            return SLOT_DONE;
        if (barrier == live) {
            /* a wave that has ended counts as arrived */
            for (unsigned i = 0; i < n; i++)
                if (s->waves[i].status == WAVE_BARRIER)
                    s->waves[i].status = WAVE_RUNNING;
            for (unsigned i = 0; s->pairing && i + 1 < n; i += 2)
                x_pair_rejoin(&s->waves[i], &s->waves[i + 1]);
            if (s->race)
                dp_race_barrier(s->race);
            continue;
        }
        if (!ran)
            return SLOT_WAIT;
        if (turn_end)
            return SLOT_RAN;
    }
}

/* ---- admission --------------------------------------------------------------------------------
 */

static void begin_slot(dp_job *j, dp_slot *s, uint64_t wg_linear) {
    const dp_dispatch *d = &j->d;
    s->wg_linear = wg_linear;
    /* two divisions, 32-bit where the index fits (a 64-bit divide is 40-90 cycles on some
     * x86 cores; four of them were 14% of dp_work in a 64 Ki-float vecadd) */
    if (wg_linear <= UINT32_MAX) {
        uint32_t l = (uint32_t)wg_linear, q = l / d->grid[0];
        s->wg[0] = l - q * d->grid[0];
        s->wg[1] = q % d->grid[1];
        s->wg[2] = q / d->grid[1];
    } else {
        uint64_t q = wg_linear / d->grid[0];
        s->wg[0] = (uint32_t)(wg_linear - q * d->grid[0]);
        s->wg[1] = (uint32_t)(q % d->grid[1]);
        s->wg[2] = (uint32_t)(q / d->grid[1]);
    }
    s->live = 1;
    /* A partial workgroup at the grid's end has fewer waves (0: a dispatch without one). */
    s->nwaves = d->has_partial ? dp_wg_shape(d, s->wg, NULL) : d->waves_per_wg;
    unsigned n = s->nwaves;
    if (d->lds_size)
        memset(s->lds, 0, d->lds_size);
    if (d->scratch_wave)
        memset(s->scratch, 0, (size_t)d->scratch_wave * n);
    memset(s->ws, 0, n * sizeof *s->ws);
    if (!s->caches_valid) {
        for (unsigned i = 0; i < s->wave_cap; i++)
            memset(&s->waves[i].cache, 0, sizeof s->waves[i].cache);
        s->caches_valid = 1;
    }
    /* Once waves of this launch have waited, a new workgroup's waves probably wait in the same
     * loops: probe them early too (one probe, after RESPIN_SLICE, if they do not). */
    if (atomic_load_explicit(&j->waited, memory_order_relaxed))
        for (unsigned i = 0; i < n; i++)
            s->ws[i].respin = 1;
    int race = j->racecheck && s->race && dp_race_begin(s->race, j, s, d->lds_size) == 0;
    for (unsigned i = 0; i < n; i++) {
        wave *w = &s->waves[i];
        dp_wave_init(w, d, s->wg, i);
        w->pair = NULL;
        w->pair_follower = 0;
        w->mem = j->mem;
        w->mc = j->mc;
        w->va_bias = d->va_bias;
        w->lds = d->lds_size ? s->lds : NULL;
        w->lds_size = d->lds_size;
        w->scratch = d->scratch_wave ? s->scratch + (size_t)d->scratch_wave * i : NULL;
        w->gws = &j->gws;
        w->gws_wait = XGWS_WAIT_NONE;
        w->lds_watch = race ? dp_race_watch : NULL;
        w->lds_watch_ctx = race ? s->race : NULL;
    }
    /* Wave32 waves run two by two as one 64-lane wave where they can (src/exec/pair.c): not
     * under a debugger, trace, racecheck or memcheck (they follow single waves), nor with
     * private memory (each wave's own). */
    s->pairing = d->k->prog && d->k->prog->pair && !j->hooks && !race && !j->mc &&
                 !d->scratch_wave && x_fast_tier() && x_pairing();
    if (s->pairing)
        for (unsigned i = 0; i + 1 < n; i += 2)
            x_pair_begin(&s->waves[i], &s->waves[i + 1], j->hash_nv);
    if (j->hooks)
        j->hooks->wg_begin(j->hooks->ctx, d, s->waves, n, wg_linear);
}

static void end_slot(dp_job *j, dp_worker *wk, dp_slot *s) {
    unsigned n = s->nwaves;
    if (j->hooks)
        j->hooks->wg_end(j->hooks->ctx, s->waves, n);
    for (unsigned i = 0; i < n; i++) {
        for (int c = 0; c < XC_N; c++)
            wk->count[c] += s->waves[i].count[c];
        if (s->ws[i].spinning)
            atomic_fetch_sub(&j->nspinning, 1);
    }
    wk->waves_run += n;
    wk->wgs_run++;
    atomic_fetch_add_explicit(j->progress, 1, memory_order_relaxed); /* gfx_launch_progress */
    s->live = 0;
    wk->nlive--;
    if (j->limit_residency)
        atomic_fetch_sub(&j->resident, 1);
    progress(j);
}

/* Make the next workgroup of the grid resident on this worker: 1, or 0 when the device holds
 * no more, -1 when the grid has none left, -2 out of memory. */
static int admit(dp_job *j, dp_worker *wk) {
    /* A grid that fits the device entirely needs no residency count (the common case: one
     * shared counter less to write per workgroup). */
    if (j->limit_residency) {
        uint64_t r = atomic_load(&j->resident);
        do {
            if (r >= j->occ.resident)
                return atomic_load(&j->next_wg) >= j->nwg ? -1 : 0;
        } while (!atomic_compare_exchange_weak(&j->resident, &r, r + 1));
    }
    uint64_t i = atomic_fetch_add(&j->next_wg, 1);
    if (i >= j->nwg) {
        if (j->limit_residency)
            atomic_fetch_sub(&j->resident, 1);
        return -1;
    }
    unsigned k = 0;
    while (k < wk->nslots && wk->slots[k].live)
        k++;
    if (k == wk->nslots) {
        dp_slot *ns = realloc(wk->slots, (wk->nslots + 1) * sizeof *ns);
        if (ns) {
            wk->slots = ns;
            memset(&ns[wk->nslots++], 0, sizeof *ns);
        }
    }
    if (k == wk->nslots || size_slot(&wk->slots[k], &j->d, j->racecheck)) {
        if (j->limit_residency)
            atomic_fetch_sub(&j->resident, 1);
        return -2;
    }
    wk->nlive++;
    begin_slot(j, &wk->slots[k], i);
    progress(j);
    return 1;
}

/* ---- deadlock ----------------------------------------------------------------------------------
 */

/* What this worker's waiting waves look like, for the report. */
static void publish_waiter(dp_job *j, dp_worker *wk, uint64_t confirmed, int exited) {
    dp_waiter v = {UINT64_MAX, {0, 0, 0}, 0,         0,     wk->nlive ? 0 : DP_WAIT_IDLE, 0, 0,
                   0,          0,         confirmed, exited};
    for (unsigned k = 0; k < wk->nslots; k++) {
        const dp_slot *s = &wk->slots[k];
        if (!s->live)
            continue;
        v.wgs++;
        for (unsigned i = 0; i < s->nwaves; i++) {
            const wave *w = &s->waves[i];
            const dp_wsched *ws = &s->ws[i];
            if (w->status == WAVE_DONE)
                continue;
            v.waves++;
            int how = ws->spinning            ? DP_WAIT_SPIN
                      : w->status == WAVE_GWS ? DP_WAIT_GWS
                                              : DP_WAIT_BARRIER;
            /* name the first workgroup's first spinning wave; else one in GWS; else barrier */
            if (v.wg_linear == UINT64_MAX || s->wg_linear < v.wg_linear ||
                (s->wg_linear == v.wg_linear && how < v.how)) {
                v.wg_linear = s->wg_linear;
                memcpy(v.wg, s->wg, sizeof v.wg);
                v.wave = i;
                v.how = how;
                v.pc = how == DP_WAIT_SPIN ? ws->spin_pc : w->pc;
                v.addr = ws->addr;
                v.has_addr = how == DP_WAIT_SPIN && ws->has_addr;
                if (how == DP_WAIT_GWS)
                    v.addr = w->gws_rid;
            }
        }
    }
    pthread_mutex_lock(&j->stuck_lock);
    j->waiters[wk->idx] = v;
    pthread_mutex_unlock(&j->stuck_lock);
}

static void disasm_at(const dp_job *j, uint32_t pc, uint64_t *addr, char *buf, size_t n) {
    const xprog *p = j->d.k->prog;
    *addr = j->d.k->m->text_addr + pc;
    const xinst *x = wave_inst_at(p, pc);
    if (!x || !xinst_print(x, buf, n) || !buf[0])
        snprintf(buf, n, "?");
}

static void declare_deadlock(dp_job *j) {
    pthread_mutex_lock(&j->stuck_lock);
    unsigned waves = 0, wgs = 0;
    dp_waiter bw;
    const dp_waiter *best = NULL;
    for (unsigned i = 0; i < j->nworkers; i++) {
        const dp_waiter *v = &j->waiters[i];
        waves += v->waves;
        wgs += v->wgs;
        if (v->wg_linear != UINT64_MAX && (!best || v->wg_linear < best->wg_linear))
            best = v;
    }
    if (best) /* a copy: other workers may publish again once the lock is released */
        bw = *best, best = &bw;
    char msg[sizeof j->deadlock], ins[96], argbuf[96];
    size_t len = (size_t)snprintf(
        msg, sizeof msg, "deadlock: %u wave%s of %u workgroup%s wait%s without progress", waves,
        waves == 1 ? "" : "s", wgs, wgs == 1 ? "" : "s", waves == 1 ? "s" : "");
    uint32_t fault_pc = 0;
    if (best) {
        uint64_t pc;
        disasm_at(j, best->pc, &pc, ins, sizeof ins);
        fault_pc = best->pc;
        const char *verb = best->how == DP_WAIT_SPIN ? "spins" : "waits";
        len += (size_t)snprintf(
            msg + len, sizeof msg - len, "; wave %u of workgroup (%u,%u,%u) %s at pc 0x%llx ('%s')",
            best->wave, best->wg[0], best->wg[1], best->wg[2], verb, (unsigned long long)pc, ins);
        if (len < sizeof msg && best->how == DP_WAIT_SPIN && best->has_addr)
            len += (size_t)snprintf(msg + len, sizeof msg - len, " reading 0x%llx%s",
                                    (unsigned long long)best->addr,
                                    dp_locate_arg(j, best->addr, argbuf, sizeof argbuf));
        else if (len < sizeof msg && best->how == DP_WAIT_GWS)
            len += (size_t)snprintf(msg + len, sizeof msg - len, " on GWS resource %llu",
                                    (unsigned long long)best->addr);
        else if (len < sizeof msg && best->how == DP_WAIT_BARRIER)
            len += (size_t)snprintf(msg + len, sizeof msg - len,
                                    " for the other waves of its workgroup");
    }
    uint64_t next = atomic_load(&j->next_wg);
    if (next < j->nwg && len < sizeof msg) {
        const dp_dispatch *d = &j->d;
        uint64_t left = j->nwg - next;
        snprintf(msg + len, sizeof msg - len,
                 "; workgroup (%u,%u,%u)%s%.0llu%s can never be resident while these wait: the "
                 "device holds %llu workgroup%s of this kernel at once (%u CU%s x %u, bounded by "
                 "%s)",
                 (uint32_t)(next % d->grid[0]), (uint32_t)(next / d->grid[0] % d->grid[1]),
                 (uint32_t)(next / d->grid[0] / d->grid[1]), left > 1 ? " and " : "",
                 left > 1 ? (unsigned long long)(left - 1) : 0ull, left > 1 ? " more" : "",
                 (unsigned long long)j->occ.resident, j->occ.resident == 1 ? "" : "s", j->occ.cus,
                 j->occ.cus == 1 ? "" : "s", j->occ.per_cu, j->occ.limit);
    }
    pthread_mutex_unlock(&j->stuck_lock);
    pthread_mutex_lock(&j->fault_lock);
    if (!j->faulted) {
        j->faulted = 1;
        memset(&j->fault, 0, sizeof j->fault);
        j->fault.kind = XF_DEADLOCK;
        j->fault.pc = fault_pc;
        if (best) {
            j->fault_wg = best->wg_linear;
            memcpy(j->fault_wg_id, best->wg, sizeof j->fault_wg_id);
            j->fault_wave = best->wave;
            j->fault.addr = best->has_addr ? best->addr : 0;
        }
        snprintf(j->deadlock, sizeof j->deadlock, "%s", msg);
    }
    pthread_mutex_unlock(&j->fault_lock);
    atomic_store(&j->stop, 1);
}

static uint64_t epoch_now(dp_job *j) {
    return atomic_load(&j->epoch) + atomic_load(&j->gws.changes);
}

static void unstick(dp_job *j, dp_worker *wk) {
    if (!wk->stuck)
        return;
    wk->stuck = 0;
    atomic_fetch_sub(&j->nstuck, 1);
    atomic_fetch_add(&j->epoch, 1);
}

/* Called after a round in which no wave ran (beyond a spin check that found the same state) and
 * nothing could be admitted.  A wave that ran and went back to waiting in the same round (a
 * probe found it spinning, it reached a barrier) is progress (dp_work: ran_round): what it wrote
 * may be what another worker's spinning wave reads, and that worker may have gone around its
 * waves before the write; the epoch must change after the write so that it looks again. */
static void stuck_round(dp_job *j, dp_worker *wk) {
    if (!wk->stuck) {
        note_wait(j);
        wk->stuck = 1;
        wk->stuck_rounds = 0;
        atomic_fetch_add(&j->nstuck, 1);
        atomic_fetch_add(&j->epoch, 1);
        wk->stuck_epoch = epoch_now(j);
        publish_waiter(j, wk, 0, 0);
        return;
    }
    uint64_t e = epoch_now(j);
    if (e != wk->stuck_epoch) {
        wk->stuck_epoch = e;
        wk->stuck_rounds = 0;
        publish_waiter(j, wk, 0, 0);
        return;
    }
    if (++wk->stuck_rounds < 3)
        return;
    if (j->d.k->aql_packet || j->d.k->external_writers) {
        /* A program's own dispatch (src/vgpu/): the host or another queue may write what the
         * waves wait for (HIP's hostcall/printf buffer, a flag), so spinning is no deadlock; sleep
         * a little between rounds instead of burning the core.  The watchdog still bounds it. */
        struct timespec ts = {0, 50000};
        nanosleep(&ts, NULL);
        return;
    }
    if (wk->stuck_rounds == 3)
        publish_waiter(j, wk, e + 1, 0);
    if (atomic_load(&j->nstuck) + atomic_load(&j->nexited) < j->nworkers) {
        if (j->nworkers > 1)
            sched_yield(); /* another worker runs what we wait for: do not burn its core */
        return;
    }
    /* Every other worker must have gone around its own waves 3 times since the last change
     * too: one worker's rounds say nothing about what another's waves have seen. */
    int all = 1;
    pthread_mutex_lock(&j->stuck_lock);
    for (unsigned i = 0; i < j->nworkers && all; i++)
        all = j->waiters[i].exited || j->waiters[i].confirmed == e + 1;
    pthread_mutex_unlock(&j->stuck_lock);
    if (all && epoch_now(j) == e)
        declare_deadlock(j);
    else if (j->nworkers > 1)
        sched_yield();
}

void dp_work(dp_job *j, dp_worker *wk) {
    for (unsigned k = 0; k < wk->nslots; k++)
        wk->slots[k].caches_valid = 0; /* a new launch: see dp_slot */
    wk->unpublished = 0;
    wk->since_admit = 0;
    wk->stuck = 0;
    wk->nlive = 0;
    for (;;) {
        if (atomic_load_explicit(&j->stop, memory_order_relaxed))
            break;
        int all_wait = 1, progress = 0;
        wk->ran_round = 0;
        for (unsigned k = 0; k < wk->nslots; k++) {
            dp_slot *s = &wk->slots[k];
            if (!s->live)
                continue;
            int r = run_slot(j, wk, s);
            if (r == SLOT_STOP)
                goto out;
            if (r == SLOT_DONE) {
                end_slot(j, wk, s);
                progress = 1;
            }
            if (r != SLOT_WAIT)
                all_wait = 0;
        }
        int a = 0;
        if (!wk->nlive || all_wait ||
            (wk->since_admit >= LONG_RUN &&
             atomic_load_explicit(&j->waited, memory_order_relaxed))) {
            a = admit(j, wk);
            if (a == -2) {
                j->nomem = 1;
                atomic_store(&j->stop, 1);
                break;
            }
            if (a == 1)
                wk->since_admit = 0;
            if (a == -1 && !wk->nlive)
                break; /* the grid is done as far as this worker goes */
        }
        if (a == 1 || progress || !all_wait || wk->ran_round) {
            unstick(j, wk);
            continue;
        }
        stuck_round(j, wk);
    }
out:
    for (unsigned k = 0; k < wk->nslots; k++)
        if (wk->slots[k].live)
            end_slot(j, wk, &wk->slots[k]);
    if (wk->stuck) {
        wk->stuck = 0;
        atomic_fetch_sub(&j->nstuck, 1);
    }
    publish_waiter(j, wk, 0, 1);
    atomic_fetch_add(&j->nexited, 1);
    atomic_fetch_add(&j->epoch, 1);
    atomic_fetch_add_explicit(&j->insts, wk->unpublished, memory_order_relaxed);
    wk->unpublished = 0;
    x_pair_flush();
}
