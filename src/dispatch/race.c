/* race.c - racecheck: LDS hazards between the waves of a workgroup.
 *
 * Under GFX_LAUNCH_RACECHECK the scheduler gives the waves of a workgroup turns of one
 * instruction, and lds.c reports every lane's LDS access here.  Each LDS byte remembers, since
 * the last barrier (an epoch: nothing is cleared at a barrier), the last wave that wrote it and
 * at which pc, and which waves read it (the last two readers' pcs).  An access by another wave
 * is a hazard: a read of bytes another wave wrote (RAW), a write of bytes another wave read
 * (WAR) or wrote (WAW).  Read-modify-write atomics never race with one another and are not
 * tracked.  A hazard is reported once per (kind, earlier pc, later pc) per launch.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "dispatch/sched.h"

typedef struct cell {
    uint32_t epoch;
    uint32_t wpc, rpc, rpc2; /* last write; last read; last read by another wave than rwave */
    uint16_t rmask;          /* waves (mod 16) that read since the epoch began */
    int8_t wwave;            /* -1: not written in this epoch */
    uint8_t rwave, rwave2;
    uint8_t has_r2;
} cell;

#define SEEN_MAX 64

struct dp_race {
    cell *cells;
    size_t ncells;
    uint32_t epoch;
    dp_job *j;
    uint32_t wg[3];
    /* keys already reported by this launch, checked before the job's lock */
    struct {
        uint32_t kind, a, b;
    } seen[SEEN_MAX];
    unsigned nseen;
};

dp_race *dp_race_new(void) { return calloc(1, sizeof(dp_race)); }

void dp_race_free(dp_race *r) {
    if (r)
        free(r->cells);
    free(r);
}

int dp_race_begin(dp_race *r, dp_job *j, const dp_slot *s, uint32_t lds_size) {
    if (r->ncells < lds_size) {
        free(r->cells);
        r->cells = calloc(lds_size, sizeof *r->cells);
        r->ncells = r->cells ? lds_size : 0;
        r->epoch = 0;
        if (!r->cells)
            return -1;
    }
    if (r->j != j)
        r->nseen = 0;
    r->j = j;
    memcpy(r->wg, s->wg, sizeof r->wg);
    r->epoch++; /* a new workgroup: nothing before it counts */
    return 0;
}

void dp_race_barrier(dp_race *r) { r->epoch++; }

static const char *const kind_names[] = {"", "RAW", "WAR", "WAW"};

static void report(dp_race *r, int kind, uint32_t off, unsigned wa, uint32_t pca, unsigned wb,
                   uint32_t pcb) {
    for (unsigned i = 0; i < r->nseen; i++)
        if (r->seen[i].kind == (uint32_t)kind && r->seen[i].a == pca && r->seen[i].b == pcb)
            return;
    if (r->nseen < SEEN_MAX) {
        r->seen[r->nseen].kind = (uint32_t)kind;
        r->seen[r->nseen].a = pca;
        r->seen[r->nseen++].b = pcb;
    }
    dp_job *j = r->j;
    const xprog *p = j->d.k->prog;
    uint64_t base = j->d.k->m->text_addr;
    gfx_race g;
    memset(&g, 0, sizeof g);
    g.kind = (gfx_race_kind)kind;
    g.lds_offset = off;
    memcpy(g.workgroup, r->wg, sizeof g.workgroup);
    g.wave[0] = wa;
    g.wave[1] = wb;
    g.pc[0] = base + pca;
    g.pc[1] = base + pcb;
    for (int k = 0; k < 2; k++) {
        uint32_t pc = k ? pcb : pca;
        const xinst *x = pc < p->code_size && !(pc & 3) ? p->at[pc / 4] : NULL;
        if (!x || !xinst_print(x, g.disasm[k], sizeof g.disasm[k]))
            snprintf(g.disasm[k], sizeof g.disasm[k], "?");
    }
    static const char *const what[] = {"", "reads LDS that wave %u wrote",
                                       "writes LDS that wave %u read",
                                       "writes LDS that wave %u wrote"};
    char rel[64];
    snprintf(rel, sizeof rel, what[kind], wa);
    snprintf(g.message, sizeof g.message,
             "racecheck: %s hazard at LDS offset 0x%x in workgroup (%u,%u,%u): wave %u %s with no "
             "barrier between: wave %u at pc 0x%llx ('%s'), wave %u at pc 0x%llx ('%s')",
             kind_names[kind], off, r->wg[0], r->wg[1], r->wg[2], wb, rel, wa,
             (unsigned long long)g.pc[0], g.disasm[0], wb, (unsigned long long)g.pc[1],
             g.disasm[1]);
    pthread_mutex_lock(&j->race_lock);
    int dup = 0;
    for (size_t i = 0; i < j->nraces && !dup; i++)
        dup = j->races[i].kind == g.kind && j->races[i].pc[0] == g.pc[0] &&
              j->races[i].pc[1] == g.pc[1];
    if (!dup && j->nraces == j->races_cap) {
        size_t cap = j->races_cap ? 2 * j->races_cap : 16;
        gfx_race *nr = realloc(j->races, cap * sizeof *nr);
        if (nr) {
            j->races = nr;
            j->races_cap = cap;
        }
    }
    if (!dup && j->nraces < j->races_cap)
        j->races[j->nraces++] = g;
    pthread_mutex_unlock(&j->race_lock);
}

void dp_race_watch(void *ctx, wave *w, const xinst *x, uint32_t addr, uint32_t size, int kind) {
    dp_race *r = ctx;
    if (kind == 2 || !r->cells)
        return; /* atomics */
    unsigned me = w->wave_id;
    uint16_t bit = (uint16_t)(1u << (me & 15));
    for (uint32_t b = addr; b < addr + size && b < r->ncells; b++) {
        cell *c = &r->cells[b];
        if (c->epoch != r->epoch) {
            memset(c, 0, sizeof *c);
            c->epoch = r->epoch;
            c->wwave = -1;
        }
        if (c->wwave >= 0 && (unsigned)c->wwave != me)
            report(r, kind ? 3 : 1, b, (unsigned)c->wwave, c->wpc, me, x->pc);
        if (kind == 0) {
            if (c->rmask && c->rwave != me) {
                c->rwave2 = c->rwave;
                c->rpc2 = c->rpc;
                c->has_r2 = 1;
            }
            c->rmask |= bit;
            c->rwave = (uint8_t)me;
            c->rpc = x->pc;
        } else {
            if (c->rmask & ~bit) {
                if (c->rwave != me)
                    report(r, 2, b, c->rwave, c->rpc, me, x->pc);
                else if (c->has_r2)
                    report(r, 2, b, c->rwave2, c->rpc2, me, x->pc);
            }
            c->wwave = (int8_t)me;
            c->wpc = x->pc;
        }
    }
}
