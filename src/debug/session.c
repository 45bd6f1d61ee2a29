/* session.c - debug sessions: breakpoints, watchpoints, stepping and the stop handler, on the
 * dispatcher's hooks (dp_hooks).  See debug.h for the shape and include/gfxemu.h for the API.
 *
 * Every stop is "before the next instruction of a wave": a breakpoint before the instruction
 * at its address, a step or watchpoint right after the instruction that finished it.  After a
 * stop the wave that stopped may execute that next instruction without stopping again there
 * (resume_w/resume_pc), so `continue` from a breakpoint moves on.
 */
#include <stdlib.h>
#include <string.h>

#include "debug/debug.h"

static void wg_begin(void *ctx, const dp_dispatch *d, wave *waves, unsigned n, uint64_t wg_linear);
static void wg_end(void *ctx, wave *waves, unsigned n);
static int dbg_run(void *ctx, wave *w);

gfx_result gfx_debug_create(gfx_device *dev, gfx_debug_session **out) {
    if (!dev || !out)
        return GFX_ERR_INVALID;
    gfx_debug_session *s = calloc(1, sizeof *s);
    if (!s)
        return GFX_ERR_NOMEM;
    s->dev = dev;
    s->hooks = (dp_hooks){s, wg_begin, wg_end, dbg_run};
    s->next_id = 1;
    *out = s;
    return GFX_OK;
}

void gfx_debug_free(gfx_debug_session *s) {
    if (!s)
        return;
    free(s->bps);
    free(s->handles);
    free(s->prof);
    free(s->prof_detail);
    free(s->span_start);
    free(s->trace_path);
    free(s->timeline_path);
    dbg_att_free(s);
    free(s);
}

void gfx_debug_set_handler(gfx_debug_session *s, gfx_debug_handler fn, void *user,
                           int stop_at_entry) {
    if (!s)
        return;
    s->handler = fn;
    s->user = user;
    s->stop_at_entry = stop_at_entry;
}

void gfx_debug_interrupt(gfx_debug_session *s) {
    if (s)
        atomic_store_explicit(&s->interrupt, 1, memory_order_relaxed);
}

static dbg_break *add_break(gfx_debug_session *s) {
    if (s->nbps == s->capbps) {
        size_t cap = s->capbps ? s->capbps * 2 : 8;
        dbg_break *nb = realloc(s->bps, cap * sizeof *nb);
        if (!nb)
            return NULL;
        s->bps = nb;
        s->capbps = cap;
    }
    dbg_break *b = &s->bps[s->nbps++];
    memset(b, 0, sizeof *b);
    b->id = s->next_id++;
    return b;
}

gfx_result gfx_debug_break(gfx_debug_session *s, const gfx_breakpoint *bp, int *id) {
    if (!s || !bp || bp->wave < -1)
        return GFX_ERR_INVALID;
    dbg_break *b = add_break(s);
    if (!b)
        return GFX_ERR_NOMEM;
    b->bp = *bp;
    if (id)
        *id = b->id;
    return GFX_OK;
}

static int read_le(gmem *m, uint64_t addr, uint32_t size, uint64_t *v) {
    uint8_t buf[8] = {0};
    if (gmem_read(m, addr, buf, size) != 0)
        return -1;
    *v = 0;
    for (uint32_t i = 0; i < size; i++)
        *v |= (uint64_t)buf[i] << (8 * i);
    return 0;
}

gfx_result gfx_debug_watch(gfx_debug_session *s, uint64_t addr, uint32_t size, int *id) {
    if (!s || size < 1 || size > 8)
        return GFX_ERR_INVALID;
    dbg_break *b = add_break(s);
    if (!b)
        return GFX_ERR_NOMEM;
    b->watch = 1;
    b->addr = addr;
    b->size = size;
    b->old_valid = read_le(s->dev->mem, addr, size, &b->old) == 0;
    if (id)
        *id = b->id;
    return GFX_OK;
}

gfx_result gfx_debug_delete(gfx_debug_session *s, int id) {
    if (!s)
        return GFX_ERR_INVALID;
    if (id == 0) {
        s->nbps = 0;
        return GFX_OK;
    }
    for (size_t i = 0; i < s->nbps; i++) {
        if (s->bps[i].id == id) {
            memmove(&s->bps[i], &s->bps[i + 1], (s->nbps - i - 1) * sizeof *s->bps);
            s->nbps--;
            return GFX_OK;
        }
    }
    return GFX_ERR_NOT_FOUND;
}

uint64_t gfx_debug_hits(const gfx_debug_session *s, int id) {
    for (size_t i = 0; s && i < s->nbps; i++)
        if (s->bps[i].id == id)
            return s->bps[i].hits;
    return 0;
}

/* ---- the launch ------------------------------------------------------------------------------ */

static void close_outputs(gfx_debug_session *s) {
    if (s->timeline)
        dbg_timeline_end(s);
    if (s->trace)
        fclose(s->trace);
    s->trace = s->timeline = NULL;
}

static gfx_result open_outputs(gfx_debug_session *s) {
    gfx_device *dev = s->dev;
    if (s->trace_path && !(s->trace = fopen(s->trace_path, "w"))) {
        snprintf(dev->error, sizeof dev->error, "cannot write the trace to %s", s->trace_path);
        return GFX_ERR_IO;
    }
    if (s->timeline_path && !(s->timeline = fopen(s->timeline_path, "w"))) {
        snprintf(dev->error, sizeof dev->error, "cannot write the timeline to %s",
                 s->timeline_path);
        close_outputs(s);
        return GFX_ERR_IO;
    }
    free(s->prof);
    s->prof = NULL;
    free(s->prof_detail);
    s->prof_detail = NULL;
    if (s->topt.profile) {
        const xprog *p = s->k->prog;
        s->prof_n = p->code_size / 4;
        s->prof_va = p->code_va;
        s->prof = calloc(s->prof_n ? s->prof_n : 1, sizeof *s->prof);
        if (s->counters_on)
            s->prof_detail = calloc(s->prof_n ? s->prof_n : 1, sizeof *s->prof_detail);
        if (!s->prof || (s->counters_on && !s->prof_detail)) {
            close_outputs(s);
            return GFX_ERR_NOMEM;
        }
    }
    s->trace_lines = 0;
    if (s->trace)
        fprintf(s->trace,
                "# gfxemu trace of kernel %s: workgroup, wave, pc, instruction, EXEC, "
                "registers written (active lanes)\n",
                s->k->sym->name);
    if (s->timeline)
        dbg_timeline_begin(s);
    if (s->att) {
        gfx_result r = dbg_att_begin(s);
        if (r != GFX_OK) {
            close_outputs(s);
            return r;
        }
    }
    return GFX_OK;
}

gfx_result gfx_debug_launch(gfx_debug_session *s, const gfx_kernel *k, const uint32_t grid[3],
                            const uint32_t block[3], const void *kernargs, size_t kernarg_size,
                            const gfx_launch_options *opts, gfx_stats *stats) {
    if (!s || !k || !grid || !block || (!kernargs && kernarg_size))
        return GFX_ERR_INVALID;
    gfx_device *dev = s->dev;
    pthread_mutex_lock(&dev->api_lock);
    s->k = k;
    s->d = NULL;
    s->insts = 0;
    memset(s->cls, 0, sizeof s->cls);
    s->in_launch = 1;
    s->in_wg = 0;
    s->entry_done = s->abandon = 0;
    s->sel_wg = 0;
    s->sel_wave = 0;
    s->mode = DBG_RUN;
    s->resume_w = NULL;
    s->fault_w = NULL;
    memset(&s->ctr, 0, sizeof s->ctr);
    atomic_store(&s->interrupt, 0);
    for (size_t i = 0; i < s->nbps; i++)
        if (s->bps[i].watch)
            s->bps[i].old_valid =
                read_le(dev->mem, s->bps[i].addr, s->bps[i].size, &s->bps[i].old) == 0;
    gfx_result r = open_outputs(s);
    if (r == GFX_OK) {
        dev->hooks = &s->hooks;
        r = dp_launch(dev, k, grid, block, kernargs, kernarg_size, opts, stats);
        dev->hooks = NULL;
        close_outputs(s);
        /* a fault still leaves the trace of what ran, as --keep-partial's outputs do */
        if (s->att && (r == GFX_OK || r == GFX_ERR_FAULT)) {
            gfx_result ra = dbg_att_end(s);
            if (ra != GFX_OK && r == GFX_OK)
                r = ra;
        }
    }
    s->in_launch = s->in_wg = 0;
    s->d = NULL;
    pthread_mutex_unlock(&dev->api_lock);
    return r;
}

static void wg_begin(void *ctx, const dp_dispatch *d, wave *waves, unsigned n, uint64_t wg_linear) {
    gfx_debug_session *s = ctx;
    s->d = d;
    if (s->cap_handles < n) {
        gfx_wave *h = realloc(s->handles, n * sizeof *h);
        uint64_t *sp = realloc(s->span_start, n * sizeof *sp);
        if (h)
            s->handles = h;
        if (sp)
            s->span_start = sp;
        if (!h || !sp) {
            s->abandon = 1; /* out of memory: the first dbg_run() stops the launch */
            s->nwaves = 0;
            return;
        }
        s->cap_handles = n;
    }
    for (unsigned i = 0; i < n; i++) {
        memset(&s->handles[i], 0, sizeof s->handles[i]);
        s->handles[i].w = &waves[i];
        s->handles[i].d = d;
        s->span_start[i] = UINT64_MAX;
    }
    s->waves = waves;
    s->nwaves = n;
    s->wg_linear = wg_linear;
    s->in_wg = 1;
    s->ctr.waves += n;
    s->ctr.workgroups++;
    if (s->timeline)
        dbg_timeline_wg(s);
    if (s->att)
        dbg_att_wg(s, waves, n, wg_linear);
}

static int is_selected(const gfx_debug_session *s, const wave *w) {
    return s->sel_wg == s->wg_linear && s->sel_wave == w->wave_id;
}

static const xinst *next_inst(const wave *w) { return wave_inst_at(w->prog, w->pc); }

/* Arm NEXT for the selected wave: over a call, run until it is back after the call. */
static void arm_next(gfx_debug_session *s) {
    const xinst *x = NULL;
    if (s->in_wg && s->sel_wg == s->wg_linear && s->sel_wave < s->nwaves)
        x = next_inst(&s->waves[s->sel_wave]);
    if (x && (x->in.op == ISA_OP_S_SWAPPC_B64 || x->in.op == ISA_OP_S_CALL_B64)) {
        s->mode = DBG_NEXT;
        s->next_pc = x->pc + x->size;
    } else {
        s->mode = DBG_STEP;
        s->step_left = 1;
    }
}

/* Call the handler for a stop of wave w; returns nonzero when the launch is to be abandoned. */
static int stop(gfx_debug_session *s, wave *w, gfx_stop *st) {
    st->workgroup[0] = w->wg_id[0];
    st->workgroup[1] = w->wg_id[1];
    st->workgroup[2] = w->wg_id[2];
    st->wave = w->wave_id;
    if (!st->pc)
        st->pc = dbg_wave_pc(w);
    st->wave_insts = s->insts;
    s->sel_wg = s->wg_linear;
    s->sel_wave = w->wave_id;
    s->mode = DBG_RUN;
    s->next_more = 0;
    gfx_resume r = s->handler(s, st, s->user);
    atomic_store_explicit(&s->interrupt, 0, memory_order_relaxed); /* any stop answers it */
    s->resume_w = w;
    s->resume_pc = w->pc;
    switch (r.kind) {
    case GFX_RESUME_STEP:
        s->mode = DBG_STEP;
        s->step_left = r.count ? r.count : 1;
        break;
    case GFX_RESUME_NEXT:
        s->next_more = r.count > 1 ? r.count - 1 : 0;
        arm_next(s);
        break;
    case GFX_RESUME_KILL: s->abandon = 1; return 1;
    default: break;
    }
    return 0;
}

static int match(int64_t want, uint32_t have) { return want < 0 || (uint64_t)want == have; }

/* Before wave w executes the instruction at its pc. */
static int check_before(gfx_debug_session *s, wave *w) {
    if (w == s->resume_w) { /* wave storage is reused by the next workgroup: one use only */
        s->resume_w = NULL;
        if (w->pc == s->resume_pc)
            return 0;
    }
    gfx_stop st;
    memset(&st, 0, sizeof st);
    if (!s->entry_done) {
        s->entry_done = 1;
        if (s->stop_at_entry) {
            st.reason = GFX_STOP_ENTRY;
            return stop(s, w, &st);
        }
    }
    if (atomic_load_explicit(&s->interrupt, memory_order_relaxed)) {
        st.reason = GFX_STOP_INTERRUPT;
        return stop(s, w, &st);
    }
    if (s->mode == DBG_NEXT && is_selected(s, w) && w->pc == s->next_pc) {
        if (s->next_more) {
            s->next_more--;
            arm_next(s);
        } else {
            st.reason = GFX_STOP_STEP;
            return stop(s, w, &st);
        }
    }
    uint64_t addr = dbg_wave_pc(w);
    for (size_t i = 0; i < s->nbps; i++) {
        dbg_break *b = &s->bps[i];
        if (b->watch || b->bp.addr != addr || (b->bp.kernel && b->bp.kernel != s->k))
            continue;
        int any_wg = b->bp.workgroup[0] < 0 && b->bp.workgroup[1] < 0 && b->bp.workgroup[2] < 0;
        if (!any_wg &&
            !(match(b->bp.workgroup[0], w->wg_id[0]) && match(b->bp.workgroup[1], w->wg_id[1]) &&
              match(b->bp.workgroup[2], w->wg_id[2])))
            continue;
        if (!match(b->bp.wave, w->wave_id))
            continue;
        st.reason = GFX_STOP_BREAKPOINT;
        st.id = b->id;
        st.hits = ++b->hits;
        return stop(s, w, &st);
    }
    return 0;
}

/* After wave w executed an instruction. */
static int check_after(gfx_debug_session *s, wave *w) {
    if (w->status == WAVE_FAULT)
        return 0; /* the fault stop (wg_end) reports it; a partial store is no watch event */
    gfx_stop st;
    memset(&st, 0, sizeof st);
    for (size_t i = 0; i < s->nbps; i++) {
        dbg_break *b = &s->bps[i];
        uint64_t now;
        if (!b->watch || read_le(w->mem, b->addr, b->size, &now) != 0)
            continue;
        if (b->old_valid && now == b->old)
            continue;
        int had = b->old_valid;
        uint64_t old = b->old;
        b->old = now;
        b->old_valid = 1;
        if (!had)
            continue;
        st.reason = GFX_STOP_WATCH;
        st.id = b->id;
        st.hits = ++b->hits;
        st.addr = b->addr;
        st.size = b->size;
        st.old_value = old;
        st.new_value = now;
        return stop(s, w, &st);
    }
    if (s->mode == DBG_STEP && is_selected(s, w) && --s->step_left == 0) {
        if (s->next_more && w->status == WAVE_RUNNING) {
            s->next_more--;
            arm_next(s);
            return 0;
        }
        st.reason = GFX_STOP_STEP;
        return stop(s, w, &st);
    }
    return 0;
}

static int slice_end(const wave *w) {
    return w->status == WAVE_FAULT && w->fault.kind == XF_WATCHDOG && w->budget == 0;
}

/* The stepping loop: wave_run()'s contract, one wave_step() at a time. */
static int dbg_run(void *ctx, wave *w) {
    gfx_debug_session *s = ctx;
    if (s->abandon)
        return 1;
    unsigned idx = w->wave_id;
    if (s->span_start[idx] == UINT64_MAX)
        s->span_start[idx] = s->insts;
    uint32_t sregs[NSREG];
    while (w->status == WAVE_RUNNING) {
        if (w->budget == 0) {
            wave_fault(w, NULL, XF_WATCHDOG); /* the end of the dispatcher's slice */
            break;
        }
        if (s->handler && check_before(s, w))
            return 1;
        uint32_t pc = w->pc, scc = w->scc;
        uint64_t exec = wave_exec(w);
        int traced = s->trace && dbg_trace_wants(s, w, pc);
        if (s->counters_on) {
            const xinst *nx = next_inst(w);
            if (nx)
                dbg_count_inst(s, w, nx);
        }
        if (traced)
            memcpy(sregs, w->s, sizeof sregs);
        const xinst *x = wave_step(w);
        if (!x)
            break;
        s->insts++;
        s->cls[x->cls]++;
        if (s->prof && pc / 4 < s->prof_n)
            s->prof[pc / 4]++;
        if (traced)
            dbg_trace_inst(s, w, x, pc, exec, sregs, scc);
        if (s->att)
            dbg_att_inst(s, w, x, pc);
        if (s->handler && check_after(s, w))
            return 1;
    }
    if (w->status != WAVE_RUNNING && !slice_end(w) && s->timeline)
        dbg_timeline_span(s, w, idx);
    return 0;
}

static void fault_stop(gfx_debug_session *s, wave *w) {
    s->fault = w->fault;
    s->fault_w = w;
    if (s->timeline)
        dbg_timeline_fault(s, w);
    if (!s->handler)
        return;
    gfx_stop st;
    memset(&st, 0, sizeof st);
    st.reason = GFX_STOP_FAULT;
    st.pc = w->prog->code_va + w->fault.pc;
    stop(s, w, &st); /* resuming ends the launch whatever the handler says */
}

static void wg_end(void *ctx, wave *waves, unsigned n) {
    gfx_debug_session *s = ctx;
    for (unsigned i = 0; i < n && i < s->nwaves; i++) {
        wave *w = &waves[i];
        if (w->status == WAVE_FAULT && !slice_end(w) && !s->fault_w)
            fault_stop(s, w);
        if (s->timeline && s->span_start[i] != UINT64_MAX)
            dbg_timeline_span(s, w, i);
    }
    if (s->att)
        dbg_att_wg_end(s, waves);
    s->in_wg = 0;
    s->resume_w = NULL;
}

/* ---- inside a stop handler ------------------------------------------------------------------- */

size_t gfx_debug_waves(gfx_debug_session *s, gfx_wave_info *out, size_t max) {
    if (!s || !s->in_wg)
        return 0;
    for (unsigned i = 0; i < s->nwaves && i < max; i++) {
        const wave *w = &s->waves[i];
        gfx_wave_info *o = &out[i];
        memcpy(o->workgroup, w->wg_id, sizeof o->workgroup);
        o->wave = w->wave_id;
        o->state = dbg_wave_state(w);
        o->pc = w->status == WAVE_FAULT ? w->prog->code_va + w->fault.pc : dbg_wave_pc(w);
        o->exec = dbg_wave_exec(w);
        o->insts = 0;
        for (int c = 0; c < XC_N; c++)
            o->insts += w->count[c];
    }
    return s->nwaves;
}

gfx_wave *gfx_debug_wave(gfx_debug_session *s, uint32_t idx) {
    if (!s || !s->in_wg || idx >= s->nwaves)
        return NULL;
    return &s->handles[idx];
}

gfx_result gfx_debug_select(gfx_debug_session *s, const uint32_t wg[3], uint32_t idx) {
    if (!s || !wg || !s->in_launch || !s->d)
        return GFX_ERR_INVALID;
    const dp_dispatch *d = s->d;
    if (wg[0] >= d->grid[0] || wg[1] >= d->grid[1] || wg[2] >= d->grid[2] || idx >= d->waves_per_wg)
        return GFX_ERR_INVALID;
    uint64_t lin = wg[0] + (uint64_t)d->grid[0] * (wg[1] + (uint64_t)d->grid[1] * wg[2]);
    if (lin < s->wg_linear || (lin == s->wg_linear && !s->in_wg))
        return GFX_ERR_INVALID;
    s->sel_wg = lin;
    s->sel_wave = idx;
    return GFX_OK;
}

void gfx_debug_selected(const gfx_debug_session *s, uint32_t wg[3], uint32_t *idx) {
    if (!s || !s->d) {
        if (wg)
            wg[0] = wg[1] = wg[2] = 0;
        if (idx)
            *idx = 0;
        return;
    }
    const dp_dispatch *d = s->d;
    if (wg) {
        wg[0] = (uint32_t)(s->sel_wg % d->grid[0]);
        wg[1] = (uint32_t)(s->sel_wg / d->grid[0] % d->grid[1]);
        wg[2] = (uint32_t)(s->sel_wg / d->grid[0] / d->grid[1]);
    }
    if (idx)
        *idx = s->sel_wave;
}

gfx_result gfx_debug_context(const gfx_debug_session *s, const gfx_kernel **k, uint32_t wg[3]) {
    if (!s || !s->in_launch || !s->d)
        return GFX_ERR_INVALID;
    if (k)
        *k = s->k;
    if (wg) {
        const dp_dispatch *d = s->d;
        wg[0] = (uint32_t)(s->wg_linear % d->grid[0]);
        wg[1] = (uint32_t)(s->wg_linear / d->grid[0] % d->grid[1]);
        wg[2] = (uint32_t)(s->wg_linear / d->grid[0] / d->grid[1]);
    }
    return GFX_OK;
}

gfx_result gfx_debug_memory(gfx_debug_session *s, uint64_t addr, void *buf, uint64_t size,
                            int write) {
    if (!s || (!buf && size))
        return GFX_ERR_INVALID;
    int r =
        write ? gmem_write(s->dev->mem, addr, buf, size) : gmem_read(s->dev->mem, addr, buf, size);
    return r == 0 ? GFX_OK : GFX_ERR_INVALID;
}

gfx_result gfx_debug_fault(const gfx_debug_session *s, gfx_fault *f) {
    if (!s || !f || !s->fault_w)
        return GFX_ERR_INVALID;
    const wave *w = s->fault_w;
    const xfault *x = &s->fault;
    memset(f, 0, sizeof *f);
    f->kind = dbg_fault_kind(x->kind);
    snprintf(f->kernel, sizeof f->kernel, "%s", s->k->sym->name);
    memcpy(f->workgroup, w->wg_id, sizeof f->workgroup);
    f->wave = w->wave_id;
    f->lanes = x->lanes;
    f->pc = w->prog->code_va + x->pc;
    f->addr = x->addr;
    f->size = x->size;
    f->write = x->write;
    f->wave_insts = s->insts;
    const xinst *xi = wave_inst_at(w->prog, x->pc);
    if (xi) {
        if (xi->in.op && xi->in.op < ISA_NOPS && isa_op_names[xi->in.op])
            snprintf(f->op, sizeof f->op, "%s", isa_op_names[xi->in.op]);
        xinst_print(xi, f->disasm, sizeof f->disasm);
    }
    return GFX_OK;
}

/* ---- outputs --------------------------------------------------------------------------------- */

char *dbg_dup_or_null(const char *p) {
    if (!p)
        return NULL;
    size_t n = strlen(p) + 1;
    char *d = malloc(n);
    if (d)
        memcpy(d, p, n);
    return d;
}

gfx_result gfx_debug_trace(gfx_debug_session *s, const gfx_trace_options *o) {
    if (!s || !o)
        return GFX_ERR_INVALID;
    free(s->trace_path);
    free(s->timeline_path);
    s->topt = *o;
    s->trace_path = dbg_dup_or_null(o->trace_path);
    s->timeline_path = dbg_dup_or_null(o->timeline_path);
    s->topt.trace_path = s->trace_path;
    s->topt.timeline_path = s->timeline_path;
    if ((o->trace_path && !s->trace_path) || (o->timeline_path && !s->timeline_path))
        return GFX_ERR_NOMEM;
    return GFX_OK;
}

static int by_count(const void *a, const void *b) {
    const gfx_profile_entry *x = a, *y = b;
    if (x->count != y->count)
        return x->count < y->count ? 1 : -1;
    return (x->pc > y->pc) - (x->pc < y->pc);
}

size_t gfx_debug_profile(const gfx_debug_session *s, gfx_profile_entry *out, size_t max) {
    if (!s || !s->prof)
        return 0;
    size_t n = 0;
    for (uint32_t i = 0; i < s->prof_n; i++)
        n += s->prof[i] != 0;
    gfx_profile_entry *all = malloc((n ? n : 1) * sizeof *all);
    if (!all)
        return 0;
    size_t j = 0;
    for (uint32_t i = 0; i < s->prof_n; i++)
        if (s->prof[i])
            all[j++] = (gfx_profile_entry){s->prof_va + 4ull * i, s->prof[i]};
    qsort(all, n, sizeof *all, by_count);
    for (size_t i = 0; i < n && i < max; i++)
        out[i] = all[i];
    free(all);
    return n;
}

gfx_result gfx_debug_counters_enable(gfx_debug_session *s, int on) {
    if (!s)
        return GFX_ERR_INVALID;
    s->counters_on = on != 0;
    return GFX_OK;
}

gfx_result gfx_debug_counters(const gfx_debug_session *s, gfx_counters *out) {
    if (!s || !out)
        return GFX_ERR_INVALID;
    *out = s->ctr;
    return GFX_OK;
}

size_t gfx_debug_profile_lines(const gfx_debug_session *s, gfx_profile_line *out, size_t max) {
    if (!s || !s->prof || !s->prof_detail)
        return 0;
    size_t n = 0;
    for (uint32_t i = 0; i < s->prof_n; i++) {
        if (!s->prof[i])
            continue;
        if (out && n < max)
            out[n] = (gfx_profile_line){s->prof_va + 4ull * i, s->prof[i], s->prof_detail[i][0],
                                        s->prof_detail[i][1], s->prof_detail[i][2]};
        n++;
    }
    return n;
}
