/* att.c - thread traces in AMD's gfx9 SQTT token format (gfx_debug_att; rocprofv3 --att on
 * MI300/MI350), fed by the debug layer's stepping loop so launches without it pay nothing.
 *
 * docs/att.md holds the format with its sources; in short:
 *   - a .att file per shader engine: an 8-byte header (legacy_version 0x11, gfx9_version2 5 for
 *     MI300 / 6 for MI350, SIMD mask, target CU, SE id), then little-endian tokens whose low
 *     nibble is their type and whose length the type fixes (16, 32, 48 or 64 bits);
 *   - time advances by 4 cycles per unit of a token's delta field (bits 4-11 of MISC tokens, bit
 *     4 of the others), so the stream's clock has a 4-cycle grain;
 *   - the dispatch's registers (COMPUTE_PGM_LO/HI = entry >> 8, NUM_THREAD_*, DISPATCH_INITIATOR)
 *     come as REG_CS tokens, the code object's load address, size and id as the decoder's
 *     USERDATA2 instrumentation packets (REG tokens), so a decoder can map PCs to the code object;
 *   - WAVE_START/WAVE_END for every wave of the shader engine; for the traced waves (target CU,
 *     SIMD mask, workgroups) an ISSUE token per instruction (INST, or IMMED for s_nop, s_waitcnt,
 *     s_barrier, s_endpgm and the like), an INST token with the instruction's type (branches:
 *     JUMP when taken, NEXT when not) and after s_setpc/s_swappc an INST_PC token with the new PC.
 *     Like the hardware's, the stream names no PC otherwise: a decoder walks the code object.
 *
 * Placement (a model, docs/att.md "Placement"): workgroup L goes to shader engine L mod SEs and
 * to CU (L / SEs) mod CUs-per-SE there; wave i of a workgroup to SIMD i mod 4, in the free wave
 * slot (8 per SIMD) that frees first; a workgroup starts when all its waves have a slot.
 *
 * Timestamps (docs/att.md "Timestamps"): an issue model, not a timing model.  Each wave issues
 * one instruction per cycle; memory instructions complete a fixed latency after issue (SMEM and
 * LDS ATT_LAT_LGKM, VMEM ATT_LAT_VMEM cycles) and s_waitcnt waits for them as its counts say;
 * s_barrier waits for the last wave of the workgroup to arrive.  Nothing else (pipelines, issue
 * arbitration between waves, caches, MFMA latency) is modelled.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "debug/debug.h"
#include "load/load.h"

#define ATT_LAT_LGKM 64  /* cycles from issue to completion: SMEM, LDS, GDS, messages */
#define ATT_LAT_VMEM 500 /* cycles from issue to completion: buffer, global, flat, scratch */
#define ATT_SLOTS 8      /* wave slots per SIMD on gfx942/gfx950 */
#define ATT_SIMDS 4
#define ATT_QMAX 64 /* outstanding memory operations remembered per counter */

/* gfx9 SQTT token types (low nibble of a token) */
enum {
    TK_MISC = 0,
    TK_TIMESTAMP = 1,
    TK_REG = 2,
    TK_WAVE_START = 3,
    TK_REG_CS = 5,
    TK_WAVE_END = 6,
    TK_INST = 10,
    TK_INST_PC = 11,
    TK_ISSUE = 13,
};
/* gfx9 SQTT instruction types (the INST token's bits 11-15) */
enum {
    IT_SMEM_RD = 0,
    IT_SALU_32 = 1,
    IT_VMEM_RD = 2,
    IT_VMEM_WR = 3,
    IT_FLAT_WR = 4,
    IT_VALU_32 = 5,
    IT_LDS = 6,
    IT_PC = 7,
    IT_JUMP = 12,
    IT_NEXT = 13,
    IT_FLAT_RD = 14,
    IT_OTHER_MSG = 15,
    IT_SMEM_WR = 16,
    IT_SALU_64 = 17,
    IT_VALU_64 = 18,
    IT_VALU_MAI = 28,
    IT_IMMED = 255, /* not a token value: an ISSUE with the IMMED status and no INST token */
};
enum { ISSUE_INST = 2, ISSUE_IMMED = 3 };
/* registers of the REG_CS tokens (7-bit offsets in the COMPUTE_* block) and USERDATA2 */
enum {
    R_DISPATCH_INITIATOR = 0x0,
    R_NUM_THREAD_X = 0x7,
    R_PGM_LO = 0xc,
    R_PGM_HI = 0xd,
    R_USERDATA2 = 0xc342,
};

typedef struct {
    uint32_t t;   /* issue cycle, from the wave's start */
    uint32_t aux; /* IT_PC: the new pc (byte offset in the program) */
    uint8_t type; /* IT_* */
} att_ev;

typedef struct {
    uint64_t dur;   /* cycles from start to the cycle after the last instruction */
    uint64_t start; /* placement: cycle it starts at */
    uint64_t ninst;
    att_ev *ev; /* traced waves: one event per instruction */
    size_t nev, cap;
    uint32_t wg; /* index in att.wgs */
    uint8_t idx, simd, slot, traced;
} att_wave;

typedef struct {
    uint64_t linear;
    uint32_t id[3];
    uint32_t first, n; /* its waves in att.waves */
    uint8_t se, cu;
} att_wg;

/* per wave of a running workgroup */
typedef struct {
    uint64_t clock;
    uint64_t vm[ATT_QMAX], lgkm[ATT_QMAX]; /* completion cycles of outstanding operations */
    unsigned nvm, nlgkm;
    unsigned nbar;   /* barriers passed */
    int bar_pending; /* 1 + index of the barrier it waits at */
} att_run;

/* a running workgroup (the dispatcher keeps several resident when waves wait) */
typedef struct {
    const wave *waves;
    unsigned n;
    uint32_t wg; /* index in att.wgs */
    att_run *run;
    uint64_t *bar; /* per barrier: the latest arrival */
    size_t nbar;
} att_live;

struct dbg_att {
    gfx_att_options o;
    char *dir, *code_object, *workgroups;
    /* the launch */
    gfx_arch arch;
    unsigned nse, cpse; /* shader engines, CUs per shader engine */
    uint64_t base;      /* device address of pc 0 (va_bias + code_va) */
    uint64_t load_base, load_size, entry;
    uint32_t grid[3], block[3]; /* copied from the dispatch, which ends before the writing */
    uint64_t dispatch_id;
    int have_base;
    att_wg *wgs;
    size_t nwgs, capwgs;
    att_wave *waves;
    size_t nwaves, capwaves;
    att_live *live;
    size_t nlive, caplive;
    int oom;
    char err[256];
};

/* ---- options ------------------------------------------------------------------------------- */

/* "0,4-7": 1 when every item is a number or a range lo-hi (lo <= hi); *hit when wg is in it. */
static int wg_list(const char *s, uint64_t wg, int *hit) {
    *hit = 0;
    if (!*s)
        return 0;
    while (*s) {
        char *end;
        if (*s < '0' || *s > '9')
            return 0;
        errno = 0;
        unsigned long long lo = strtoull(s, &end, 10), hi = lo;
        if (errno)
            return 0;
        s = end;
        if (*s == '-') {
            s++;
            if (*s < '0' || *s > '9')
                return 0;
            hi = strtoull(s, &end, 10);
            if (errno || hi < lo)
                return 0;
            s = end;
        }
        if (wg >= lo && wg <= hi)
            *hit = 1;
        if (*s == ',') {
            s++;
            if (!*s)
                return 0;
        } else if (*s) {
            return 0;
        }
    }
    return 1;
}

static void reset_launch(dbg_att *a) {
    for (size_t i = 0; i < a->nwaves; i++)
        free(a->waves[i].ev);
    for (size_t i = 0; i < a->nlive; i++) {
        free(a->live[i].run);
        free(a->live[i].bar);
    }
    a->nlive = 0;
    a->nwaves = a->nwgs = 0;
    a->have_base = 0;
    a->oom = 0;
}

void dbg_att_free(gfx_debug_session *s) {
    dbg_att *a = s->att;
    if (!a)
        return;
    reset_launch(a);
    free(a->waves);
    free(a->wgs);
    free(a->live);
    free(a->dir);
    free(a->code_object);
    free(a->workgroups);
    free(a);
    s->att = NULL;
}

gfx_result gfx_debug_att(gfx_debug_session *s, const gfx_att_options *o) {
    if (!s || !o)
        return GFX_ERR_INVALID;
    if (!o->dir) {
        dbg_att_free(s);
        return GFX_OK;
    }
    int hit;
    if (o->target_cu < 0 || o->target_cu > 15 || !o->se_mask || !o->simd_mask ||
        o->simd_mask > 0xf || (o->workgroups && !wg_list(o->workgroups, 0, &hit)) || !*o->dir)
        return GFX_ERR_INVALID;
    dbg_att_free(s);
    dbg_att *a = calloc(1, sizeof *a);
    if (!a)
        return GFX_ERR_NOMEM;
    a->o = *o;
    a->dir = dbg_dup_or_null(o->dir);
    a->code_object = dbg_dup_or_null(o->code_object);
    a->workgroups = dbg_dup_or_null(o->workgroups);
    s->att = a;
    if (!a->dir || (o->code_object && !a->code_object) || (o->workgroups && !a->workgroups)) {
        dbg_att_free(s);
        return GFX_ERR_NOMEM;
    }
    return GFX_OK;
}

/* ---- collection ---------------------------------------------------------------------------- */

/* MI300X/MI355X: 8 XCDs of 4 shader engines.  Shader engines are as many as 8-CU groups fit
 * (at most 32, the width of rocprofv3's shader engine mask), CU indices fit the token's 4 bits. */
static void topology(dbg_att *a, unsigned cus) {
    if (!cus)
        cus = 1;
    unsigned nse = (cus + 7) / 8;
    if (nse > 32)
        nse = 32;
    unsigned cpse = (cus + nse - 1) / nse;
    if (cpse > 16)
        cpse = 16;
    a->nse = nse;
    a->cpse = cpse;
}

gfx_result dbg_att_begin(gfx_debug_session *s) {
    dbg_att *a = s->att;
    reset_launch(a);
    if (mkdir(a->dir, 0777) && errno != EEXIST) {
        snprintf(s->dev->error, sizeof s->dev->error,
                 "cannot create the thread trace directory %s: %s", a->dir, strerror(errno));
        return GFX_ERR_IO;
    }
    struct stat st;
    if (stat(a->dir, &st) || !S_ISDIR(st.st_mode) || access(a->dir, W_OK | X_OK)) {
        snprintf(s->dev->error, sizeof s->dev->error,
                 "cannot write the thread trace into %s: not a writable directory", a->dir);
        return GFX_ERR_IO;
    }
    a->arch = s->k->m->arch;
    topology(a, s->dev->cus ? s->dev->cus : dp_default_cus(a->arch));
    a->entry = 0;
    a->err[0] = 0;
    return GFX_OK;
}

static int grow(void **p, size_t *cap, size_t need, size_t elem) {
    if (need <= *cap)
        return 0;
    size_t c = *cap ? *cap * 2 : 16;
    while (c < need)
        c *= 2;
    void *q = realloc(*p, c * elem);
    if (!q)
        return -1;
    *p = q;
    *cap = c;
    return 0;
}

void dbg_att_wg(gfx_debug_session *s, const wave *waves, unsigned n, uint64_t wg_linear) {
    dbg_att *a = s->att;
    if (a->oom)
        return;
    att_run *run = calloc(n ? n : 1, sizeof *run);
    if (!run || grow((void **)&a->wgs, &a->capwgs, a->nwgs + 1, sizeof *a->wgs) ||
        grow((void **)&a->waves, &a->capwaves, a->nwaves + n, sizeof *a->waves) ||
        grow((void **)&a->live, &a->caplive, a->nlive + 1, sizeof *a->live)) {
        free(run);
        a->oom = 1;
        return;
    }
    a->live[a->nlive++] = (att_live){waves, n, (uint32_t)a->nwgs, run, NULL, 0};
    att_wg *g = &a->wgs[a->nwgs];
    g->linear = wg_linear;
    memcpy(g->id, waves[0].wg_id, sizeof g->id);
    g->first = (uint32_t)a->nwaves;
    g->n = n;
    g->se = (uint8_t)(wg_linear % a->nse);
    g->cu = (uint8_t)(wg_linear / a->nse % a->cpse);
    int in_list = 1;
    if (a->workgroups)
        wg_list(a->workgroups, wg_linear, &in_list);
    for (unsigned i = 0; i < n; i++) {
        att_wave *w = &a->waves[a->nwaves + i];
        memset(w, 0, sizeof *w);
        w->wg = (uint32_t)a->nwgs;
        w->idx = (uint8_t)i;
        w->simd = (uint8_t)(i % ATT_SIMDS);
        w->traced = (a->o.se_mask >> g->se & 1) && g->cu == (unsigned)a->o.target_cu &&
                    (a->o.simd_mask >> w->simd & 1) && in_list;
    }
    a->nwgs++;
    a->nwaves += n;
    if (!a->have_base) {
        const wave *w = &waves[0];
        a->base = w->va_bias + w->prog->code_va;
        a->load_base = w->va_bias;
        const gfx_module *m = s->k->m;
        a->load_size = m->image_size ? m->image_size : m->text_addr + m->text_size;
        a->entry = a->base + s->k->entry_pc;
        a->have_base = 1;
        if (s->d) {
            memcpy(a->grid, s->d->grid, sizeof a->grid);
            memcpy(a->block, s->d->block, sizeof a->block);
            a->dispatch_id = s->d->dispatch_id;
        }
    }
}

static void wait_queue(uint64_t *q, unsigned *n, unsigned keep, uint64_t *clock) {
    if (*n <= keep)
        return;
    /* completions are kept sorted: the oldest n - keep must be done */
    uint64_t t = q[*n - keep - 1];
    if (t > *clock)
        *clock = t;
    memmove(q, q + (*n - keep), keep * sizeof *q);
    *n = keep;
}

static void push_queue(uint64_t *q, unsigned *n, uint64_t done, uint64_t *clock) {
    if (*n == ATT_QMAX)
        wait_queue(q, n, ATT_QMAX - 1, clock);
    unsigned i = *n;
    while (i > 0 && q[i - 1] > done) { /* LDS and SMEM share lgkmcnt with different latencies */
        q[i] = q[i - 1];
        i--;
    }
    q[i] = done;
    (*n)++;
}

/* The SQTT type of instruction x that has just run from pc (the wave is now at w->pc). */
static uint8_t inst_type(const wave *w, const xinst *x, uint32_t pc) {
    const isa_inst *in = &x->in;
    uint32_t flags = in->info ? in->info->flags : 0;
    int two = in->ndst && in->info && in->info->dst_n[0] == 2;
    switch (x->cls) {
    case XC_SALU: return two ? IT_SALU_64 : IT_SALU_32;
    case XC_VALU: return two ? IT_VALU_64 : IT_VALU_32;
    case XC_MFMA: return IT_VALU_MAI;
    case XC_SMEM: return flags & (ISA_MF_STORE | ISA_MF_ATOMIC) ? IT_SMEM_WR : IT_SMEM_RD;
    case XC_LDS: return IT_LDS;
    case XC_VMEM:
        if (in->fmt == ISA_FMT_FLAT)
            return flags & ISA_MF_LOAD && !(flags & ISA_MF_STORE) ? IT_FLAT_RD : IT_FLAT_WR;
        return flags & ISA_MF_LOAD && !(flags & ISA_MF_STORE) ? IT_VMEM_RD : IT_VMEM_WR;
    case XC_BRANCH:
        /* PC-relative branches say taken or not; a PC from registers comes as INST_PC */
        if (in->f.s.is_branch)
            return w->pc != pc + x->size ? IT_JUMP : IT_NEXT;
        if (in->op == ISA_OP_S_GETPC_B64)
            return IT_SALU_64;
        if (in->op == ISA_OP_S_SETPC_B64 || in->op == ISA_OP_S_SWAPPC_B64 ||
            in->op == ISA_OP_S_RFE_B64 || in->op == ISA_OP_S_CBRANCH_G_FORK ||
            in->op == ISA_OP_S_CBRANCH_JOIN)
            return IT_PC;
        return IT_IMMED; /* s_endpgm */
    default:
        if (in->op == ISA_OP_S_SENDMSG || in->op == ISA_OP_S_SENDMSGHALT)
            return IT_OTHER_MSG;
        return IT_IMMED;
    }
}

static att_live *live_of(dbg_att *a, const wave *w) {
    for (size_t i = 0; i < a->nlive; i++)
        if (w >= a->live[i].waves && w < a->live[i].waves + a->live[i].n)
            return &a->live[i];
    return NULL;
}

void dbg_att_wg_end(gfx_debug_session *s, const wave *waves) {
    dbg_att *a = s->att;
    att_live *l = live_of(a, waves);
    if (!l)
        return;
    free(l->run);
    free(l->bar);
    *l = a->live[--a->nlive];
}

void dbg_att_inst(gfx_debug_session *s, const wave *w, const xinst *x, uint32_t pc) {
    dbg_att *a = s->att;
    att_live *l = a->oom ? NULL : live_of(a, w);
    if (!l)
        return;
    unsigned wi = (unsigned)(w - l->waves);
    att_run *r = &l->run[wi];
    att_wave *aw = &a->waves[a->wgs[l->wg].first + wi];
    if (r->bar_pending) {
        uint64_t t = l->bar[r->bar_pending - 1];
        if (t > r->clock)
            r->clock = t;
        r->bar_pending = 0;
    }
    const isa_inst *in = &x->in;
    if (in->op == ISA_OP_S_WAITCNT) {
        /* gfx9: vmcnt counts VMEM loads and stores, lgkmcnt LDS, SMEM, GDS and messages */
        wait_queue(r->vm, &r->nvm, in->f.s.vmcnt, &r->clock);
        wait_queue(r->lgkm, &r->nlgkm, in->f.s.lgkmcnt, &r->clock);
    }
    uint64_t t = r->clock;
    if (x->cls == XC_VMEM)
        push_queue(r->vm, &r->nvm, t + ATT_LAT_VMEM, &r->clock);
    else if (x->cls == XC_SMEM || x->cls == XC_LDS)
        push_queue(r->lgkm, &r->nlgkm, t + ATT_LAT_LGKM, &r->clock);
    if (in->op == ISA_OP_S_BARRIER) {
        unsigned b = r->nbar++;
        if (b >= l->nbar) {
            size_t cap = l->nbar;
            if (grow((void **)&l->bar, &cap, b + 1, sizeof *l->bar)) {
                a->oom = 1;
                return;
            }
            for (size_t i = l->nbar; i < cap; i++)
                l->bar[i] = 0;
            l->nbar = cap;
        }
        if (t + 1 > l->bar[b])
            l->bar[b] = t + 1;
        r->bar_pending = (int)b + 1;
    }
    if (t < r->clock) /* a full queue made the wave wait before issuing */
        t = r->clock;
    r->clock = t + 1;
    aw->ninst++;
    aw->dur = r->clock;
    if (!aw->traced)
        return;
    if (t > UINT32_MAX || grow((void **)&aw->ev, &aw->cap, aw->nev + 1, sizeof *aw->ev)) {
        a->oom = 1;
        return;
    }
    uint8_t type = inst_type(w, x, pc);
    aw->ev[aw->nev++] = (att_ev){(uint32_t)t, type == IT_PC ? w->pc : 0, type};
}

/* ---- writing ------------------------------------------------------------------------------- */

typedef struct {
    uint8_t *p;
    size_t n, cap;
    uint64_t q; /* current time in 4-cycle units */
    int oom;
} tokbuf;

static void put(tokbuf *b, uint64_t v, unsigned bytes) {
    if (grow((void **)&b->p, &b->cap, b->n + bytes, 1)) {
        b->oom = 1;
        return;
    }
    for (unsigned i = 0; i < bytes; i++)
        b->p[b->n++] = (uint8_t)(v >> (8 * i));
}

/* Length in bytes of each token type (type = low nibble). */
static const uint8_t tok_len[16] = {2, 8, 8, 4, 2, 6, 2, 2, 2, 2, 2, 8, 6, 4, 8, 6};

/* Token v (type in bits 0-3, fields set, delta bit clear) at cycle t: MISC TIME tokens carry
 * the time the token's own 1-bit delta cannot. */
static void tok(tokbuf *b, uint64_t t, uint64_t v) {
    uint64_t q = t / 4, d = q > b->q ? q - b->q : 0;
    while (d > 1) {
        uint64_t m = d - 1 > 255 ? 255 : d - 1;
        put(b, TK_MISC | m << 4, 2); /* misc_type 0: TIME */
        d -= m;
    }
    b->q = q > b->q ? q : b->q;
    put(b, v | d << 4, tok_len[v & 15]);
}

static void reg(tokbuf *b, uint32_t addr, uint32_t data) {
    /* me field 0 reads as ME 1 (the decoder adds one), bit 15 enables */
    tok(b, 0, TK_REG | 1ull << 15 | (uint64_t)addr << 16 | (uint64_t)data << 32);
}

static void reg_cs(tokbuf *b, uint32_t addr, uint32_t data) {
    tok(b, 0, TK_REG_CS | (uint64_t)(addr & 0x7f) << 9 | (uint64_t)data << 16);
}

/* The decoder's code object instrumentation (USERDATA2): a header per field, then its value. */
static void codeobj_field(tokbuf *b, unsigned type, uint32_t value) {
    reg(b, R_USERDATA2, 4 | type << 8); /* opcode CODEOBJ, data20 0 */
    reg(b, R_USERDATA2, value);
}

typedef struct {
    uint64_t t;
    uint32_t wave; /* index in a->waves */
    uint32_t k;    /* 0: start, 1 + i: event i, UINT32_MAX: end */
} att_item;

static int by_time(const void *x, const void *y) {
    const att_item *p = x, *q = y;
    if (p->t != q->t)
        return p->t < q->t ? -1 : 1;
    /* at one cycle: ends free slots first, then starts, then instructions */
    int rp = p->k == UINT32_MAX ? 0 : p->k == 0 ? 1 : 2;
    int rq = q->k == UINT32_MAX ? 0 : q->k == 0 ? 1 : 2;
    if (rp != rq)
        return rp - rq;
    if (p->wave != q->wave)
        return p->wave < q->wave ? -1 : 1;
    return (p->k > q->k) - (p->k < q->k);
}

static void place(dbg_att *a) {
    size_t nslots = (size_t)a->nse * a->cpse * ATT_SIMDS * ATT_SLOTS;
    uint64_t *free_at = calloc(nslots, sizeof *free_at);
    if (!free_at) {
        a->oom = 1;
        return;
    }
    for (size_t g = 0; g < a->nwgs; g++) {
        att_wg *wg = &a->wgs[g];
        uint64_t *cu = free_at + ((size_t)wg->se * a->cpse + wg->cu) * ATT_SIMDS * ATT_SLOTS;
        uint64_t start = 0;
        uint8_t taken[ATT_SIMDS] = {0};
        for (uint32_t i = 0; i < wg->n; i++) {
            att_wave *w = &a->waves[wg->first + i];
            uint64_t *simd = cu + w->simd * ATT_SLOTS;
            int best = -1;
            for (int k = 0; k < ATT_SLOTS; k++)
                if (!(taken[w->simd] >> k & 1) && (best < 0 || simd[k] < simd[best]))
                    best = k;
            if (best < 0)
                best = 0; /* more than 8 waves on a SIMD cannot happen for 16 waves per group */
            taken[w->simd] |= (uint8_t)(1u << best);
            w->slot = (uint8_t)best;
            if (simd[best] > start)
                start = simd[best];
        }
        for (uint32_t i = 0; i < wg->n; i++) {
            att_wave *w = &a->waves[wg->first + i];
            w->start = start;
            /* the slot frees 4 cycles (one token grain) after the wave's last instruction */
            cu[w->simd * ATT_SLOTS + w->slot] = start + w->dur + 4;
        }
    }
    free(free_at);
}

static const char *arch_name(gfx_arch arch) {
    return arch == GFX_ARCH_GFX942 ? "gfx942" : arch == GFX_ARCH_GFX950 ? "gfx950" : "gfx90a";
}

/* Encode shader engine se; counts its waves, traced waves and instructions. */
static int encode_se(dbg_att *a, unsigned se, tokbuf *b, uint64_t cnt[3]) {
    size_t n = 0;
    for (size_t i = 0; i < a->nwaves; i++)
        if (a->wgs[a->waves[i].wg].se == se)
            n += 2 + a->waves[i].nev;
    att_item *it = malloc((n ? n : 1) * sizeof *it);
    if (!it)
        return -1;
    size_t j = 0;
    for (size_t i = 0; i < a->nwaves; i++) {
        att_wave *w = &a->waves[i];
        if (a->wgs[w->wg].se != se)
            continue;
        cnt[0]++;
        cnt[1] += w->traced;
        cnt[2] += w->nev;
        it[j++] = (att_item){w->start, (uint32_t)i, 0};
        for (size_t e = 0; e < w->nev; e++)
            it[j++] = (att_item){w->start + w->ev[e].t, (uint32_t)i, (uint32_t)e + 1};
        /* a wave that ran nothing still ends after it starts (ends sort first at one cycle) */
        it[j++] = (att_item){w->start + (w->dur ? w->dur : 1), (uint32_t)i, UINT32_MAX};
    }
    qsort(it, n, sizeof *it, by_time);

    /* software header: legacy_version 0x11, gfx9_version2 (5 MI300, 6 MI350), SIMD mask,
     * target CU, SE id (4 is MI200 and earlier) */
    unsigned v2 = a->arch == GFX_ARCH_GFX950 ? 6 : a->arch == GFX_ARCH_GFX942 ? 5 : 4;
    uint64_t hdr = 0x11 | (uint64_t)v2 << 13 | (uint64_t)a->o.simd_mask << 16 |
                   (uint64_t)a->o.target_cu << 20 | (uint64_t)(se & 63) << 26;
    put(b, hdr, 8);
    tok(b, 0, TK_TIMESTAMP);          /* time 0: the dispatch starts the stream's clock */
    reg(b, R_USERDATA2, 0x434f5200u); /* "\0ROC": the decoder's instrumentation is on */
    codeobj_field(b, 2, (uint32_t)a->load_base);         /* ADDR_LO */
    codeobj_field(b, 3, (uint32_t)(a->load_base >> 32)); /* ADDR_HI */
    codeobj_field(b, 1, (uint32_t)a->load_size);         /* SIZE_LO */
    codeobj_field(b, 4, (uint32_t)(a->load_size >> 32)); /* SIZE_HI */
    codeobj_field(b, 0, 2u | 1u << 2);                   /* TAIL: load, from start, id 1 */
    reg_cs(b, R_PGM_LO, (uint32_t)(a->entry >> 8));
    reg_cs(b, R_PGM_HI, (uint32_t)(a->entry >> 40) & 0xff);
    for (int k = 0; k < 3; k++)
        reg_cs(b, R_NUM_THREAD_X + k, a->block[k]);
    reg_cs(b, R_DISPATCH_INITIATOR, 1); /* COMPUTE_SHADER_EN: the dispatch starts */

    for (size_t i = 0; i < n; i++) {
        att_wave *w = &a->waves[it[i].wave];
        att_wg *g = &a->wgs[w->wg];
        uint64_t loc = (uint64_t)g->cu << 6 | (uint64_t)w->slot << 10 | (uint64_t)w->simd << 14;
        if (it[i].k == 0) {
            tok(b, it[i].t, TK_WAVE_START | loc | 1ull << 18); /* ME 1, pipe 0 */
        } else if (it[i].k == UINT32_MAX) {
            tok(b, it[i].t, TK_WAVE_END | loc);
        } else {
            const att_ev *e = &w->ev[it[i].k - 1];
            uint64_t st = e->type == IT_IMMED ? ISSUE_IMMED : ISSUE_INST;
            tok(b, it[i].t, TK_ISSUE | (uint64_t)w->simd << 5 | st << (8 + 2 * w->slot));
            if (e->type == IT_IMMED)
                continue;
            uint64_t ws = (uint64_t)w->slot << 5 | (uint64_t)w->simd << 9;
            tok(b, it[i].t, TK_INST | ws | (uint64_t)e->type << 11);
            if (e->type == IT_PC)
                tok(b, it[i].t, TK_INST_PC | ws | ((a->base + e->aux) >> 2) << 16);
        }
    }
    free(it);
    return b->oom ? -1 : 0;
}

static int write_file(const char *path, const void *p, size_t n) {
    FILE *f = fopen(path, "wb");
    if (!f)
        return -1;
    int bad = n && fwrite(p, 1, n, f) != n;
    return fclose(f) || bad ? -1 : 0;
}

static int copy_file(const char *from, const char *to) {
    FILE *f = fopen(from, "rb");
    if (!f)
        return -1;
    FILE *g = fopen(to, "wb");
    if (!g) {
        fclose(f);
        return -1;
    }
    char buf[65536];
    size_t k;
    int bad = 0;
    while ((k = fread(buf, 1, sizeof buf, f)) > 0)
        if (fwrite(buf, 1, k, g) != k)
            bad = 1;
    bad |= ferror(f);
    fclose(f);
    return fclose(g) || bad ? -1 : 0;
}

static void json_str(FILE *f, const char *s) {
    fputc('"', f);
    for (; *s; s++) {
        unsigned char c = (unsigned char)*s;
        if (c == '"' || c == '\\')
            fprintf(f, "\\%c", c);
        else if (c < 0x20)
            fprintf(f, "\\u%04x", c);
        else
            fputc(c, f);
    }
    fputc('"', f);
}

gfx_result dbg_att_end(gfx_debug_session *s) {
    dbg_att *a = s->att;
    gfx_device *dev = s->dev;
    if (!a->nwgs)
        return GFX_OK; /* the launch never started a workgroup (a planning error) */
    if (!a->oom)
        place(a);
    if (a->oom) {
        snprintf(
            dev->error, sizeof dev->error,
            "out of memory collecting the thread trace (or a wave ran past 2^32 model cycles)");
        return GFX_ERR_NOMEM;
    }
    size_t dn = strlen(a->dir) + 96;
    char *path = malloc(dn);
    if (!path)
        return GFX_ERR_NOMEM;
    const char *prefix = "gfxemu";
    uint64_t did = a->dispatch_id;
    gfx_result r = GFX_OK;
    snprintf(path, dn, "%s/att_index.json", a->dir);
    FILE *f = fopen(path, "w");
    if (!f) {
        snprintf(dev->error, sizeof dev->error, "cannot write %s: %s", path, strerror(errno));
        free(path);
        return GFX_ERR_IO;
    }
    int have_co = 0;
    if (a->code_object) {
        snprintf(path, dn, "%s/%s_code_object_id_1.out", a->dir, prefix);
        if (copy_file(a->code_object, path)) {
            snprintf(dev->error, sizeof dev->error, "cannot copy the code object to %s: %s", path,
                     strerror(errno));
            r = GFX_ERR_IO;
        }
        have_co = 1;
    }
    fprintf(f, "{\n  \"format\": \"gfxemu-att-index\",\n  \"version\": 1,\n");
    fprintf(f, "  \"note\": \"gfx9 SQTT token streams written by gfxemu; timestamps come from an "
               "issue model (one instruction per cycle per wave, fixed memory latencies), not a "
               "timing model. See docs/att.md.\",\n");
    fprintf(f,
            "  \"agent\": {\"name\": \"%s\", \"shader_engines\": %u, \"cus_per_shader_engine\": "
            "%u, \"simds_per_cu\": %d, \"wave_slots_per_simd\": %d, \"wave_size\": 64},\n",
            arch_name(a->arch), a->nse, a->cpse, ATT_SIMDS, ATT_SLOTS);
    fprintf(f,
            "  \"timing_model\": {\"cycles_per_instruction\": 1, \"lgkm_latency\": %d, "
            "\"vmem_latency\": %d, \"token_time_unit\": 4},\n",
            ATT_LAT_LGKM, ATT_LAT_VMEM);
    fprintf(f, "  \"dispatch\": {\"id\": %llu, \"kernel\": ", (unsigned long long)did);
    json_str(f, s->k->sym->name);
    fprintf(f,
            ", \"grid\": [%u, %u, %u], \"block\": [%u, %u, %u], \"workgroups\": %zu, "
            "\"waves\": %zu, \"entry\": %llu},\n",
            a->grid[0], a->grid[1], a->grid[2], a->block[0], a->block[1], a->block[2], a->nwgs,
            a->nwaves, (unsigned long long)a->entry);
    fprintf(f, "  \"code_objects\": [{\"id\": 1, \"file\": ");
    if (have_co) {
        snprintf(path, dn, "%s_code_object_id_1.out", prefix);
        json_str(f, path);
        fprintf(f, ", \"uri\": ");
        json_str(f, a->code_object);
    } else {
        fprintf(f, "null, \"uri\": null");
    }
    fprintf(f, ", \"load_base\": %llu, \"load_size\": %llu, \"code_va\": %llu}],\n",
            (unsigned long long)a->load_base, (unsigned long long)a->load_size,
            (unsigned long long)(a->base - a->load_base));
    fprintf(f,
            "  \"selection\": {\"target_cu\": %d, \"shader_engine_mask\": %u, "
            "\"simd_select\": %u, \"workgroups\": ",
            a->o.target_cu, a->o.se_mask, a->o.simd_mask);
    if (a->workgroups)
        json_str(f, a->workgroups);
    else
        fprintf(f, "null");
    fprintf(f, "},\n  \"traces\": [");
    int first = 1;
    for (unsigned se = 0; se < a->nse && r == GFX_OK; se++) {
        if (!(a->o.se_mask >> se & 1))
            continue;
        tokbuf b = {0};
        uint64_t cnt[3] = {0};
        snprintf(path, dn, "%s/%s_shader_engine_%u_%llu.att", a->dir, prefix, se,
                 (unsigned long long)did);
        if (encode_se(a, se, &b, cnt)) {
            snprintf(dev->error, sizeof dev->error, "out of memory writing the thread trace");
            r = GFX_ERR_NOMEM;
        } else if (write_file(path, b.p, b.n)) {
            snprintf(dev->error, sizeof dev->error, "cannot write %s: %s", path, strerror(errno));
            r = GFX_ERR_IO;
        }
        free(b.p);
        snprintf(path, dn, "%s_shader_engine_%u_%llu.att", prefix, se, (unsigned long long)did);
        fprintf(f, "%s\n    {\"file\": ", first ? "" : ",");
        json_str(f, path);
        fprintf(f,
                ", \"shader_engine\": %u, \"waves\": %llu, \"traced_waves\": %llu, "
                "\"instructions\": %llu}",
                se, (unsigned long long)cnt[0], (unsigned long long)cnt[1],
                (unsigned long long)cnt[2]);
        first = 0;
    }
    fprintf(f, "\n  ],\n  \"traced_waves\": [");
    first = 1;
    for (size_t i = 0; i < a->nwaves; i++) {
        const att_wave *w = &a->waves[i];
        if (!w->traced)
            continue;
        const att_wg *g = &a->wgs[w->wg];
        fprintf(f,
                "%s\n    {\"workgroup\": [%u, %u, %u], \"workgroup_linear\": %llu, \"wave\": %u, "
                "\"shader_engine\": %u, \"cu\": %u, \"simd\": %u, \"slot\": %u, \"start\": "
                "%llu, \"end\": %llu, \"instructions\": %llu}",
                first ? "" : ",", g->id[0], g->id[1], g->id[2], (unsigned long long)g->linear,
                w->idx, g->se, g->cu, w->simd, w->slot, (unsigned long long)w->start,
                (unsigned long long)(w->start + w->dur), (unsigned long long)w->ninst);
        first = 0;
    }
    fprintf(f, "\n  ]\n}\n");
    if (fclose(f) && r == GFX_OK) {
        snprintf(dev->error, sizeof dev->error, "cannot write the thread trace index in %s",
                 a->dir);
        r = GFX_ERR_IO;
    }
    free(path);
    return r;
}
