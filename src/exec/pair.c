/* pair.c - two wave32 waves run as one 64-lane wave (RDNA wave32 programs, fast tier).
 *
 * Why: a wave-instruction costs the interpreter about the same fixed time at 32 lanes as at 64
 * (docs/perf.md), so a wave32 kernel did half the lane-operations per second of the same kernel
 * built for wave64.  Two waves of one workgroup that run the same code, with the same scalar
 * operands, are one 64-lane wave for every lane-local vector instruction.
 *
 * The pair: wave A (the leader, `A->pair == B`) keeps its own VGPRs in lanes 0-31 of its file
 * and B's in lanes 32-63; B (the follower) keeps its scalar state (SGPRs, SCC, MODE, pc, status,
 * counts) in its own wave, as unpaired.  Per instruction (xpair, planned once per program):
 *  - XP_NOP (s_delay_alu, the s_wait* counters, s_clause, the cache controls...): nothing to
 *    do but count;
 *  - XP_SCALAR (SALU, SMEM, branches, messages, barriers): run on A and on B, each its own
 *    wave32 instruction on its own scalar state; a plain SALU op, a branch on SCC or a scalar
 *    load whose SGPR operands (and SCC) agree runs on A alone, its results copied to B;
 *  - XP_VECTOR (lane-local VALU, VOPD, global/flat/LDS memory): the wave64 build of the same
 *    word (xprog.prog64, handlers without XI_MASK32) runs once on A over 64 lanes.  Lane masks
 *    are 64-bit there (a mask operand at SGPR m is read and written as the pair m, m+1), so A's
 *    m+1 is swapped for B's m around the call, and EXEC_HI (slot 127, unused in wave32) holds
 *    B's EXEC_LO.  Scalar data operands (an SGPR source, a memory base or offset) must hold the
 *    same value in A and B; MODE too.  Runs of such instructions (and of plain SALU ops between
 *    them) go back to back, in native blocks where they fit.  A run may hold lane-mask ops
 *    (carries, compares, v_cndmask) when their masks are operands: each mask SGPR of the
 *    program has a slot pair of its own (XS_PAIR_MASK on, eight of them), which takes A's and
 *    B's masks at the run's start and gives the written ones back at its end, so no
 *    instruction of the run may read a mask as data or write one on the SALU;
 *  - XP_SPLIT (cross-lane and lane-id ops: readlane, permlane, mbcnt, ds_(b)permute, swizzle,
 *    addtid, WMMA, ...; buffer ops; VALU ops with more masks than a plan holds): with `step`,
 *    run on A and on B each as its own wave32 instruction, B's operand rows copied from A's
 *    lanes 32-63 into B's file and back (step_pair); without (ops that reach VGPRs beyond
 *    their operands, images, exports, scratch, anything unimplemented) the pair is split.
 * Plain SALU ops and a closing branch on SCC join the runs of vector instructions (run on A,
 * results copied to B).  Splitting (x_pair_split) copies B's lanes back into B's own file; from
 * then on both run as ordinary wave32 waves until a barrier releases both at one pc
 * (x_pair_rejoin, called by the scheduler).  A pair also splits when its waves' pcs or
 * statuses part (a divergent branch), or when a vector instruction's scalar data differ.  Every
 * paired instruction counts once for each wave and takes 2 from the budget, so --stats, the
 * watchdog and all results are those of the two waves run one after the other.
 */
#include "exec/pair.h"
#include "exec/jit.h"
#include "exec/opcov.h"

#include <stdatomic.h>
#include <stdlib.h>
#include <string.h>

enum { XP_NOP, XP_SCALAR, XP_VECTOR, XP_SPLIT };

#define XP_MAXCHK 8
#define XP_MAXRUNCHK 24
#define XP_MAXMASK 3
#define XP_MAXDST 8
#define XP_MAXRNG 8
/* Lane-mask SGPRs with a slot pair of their own per program (XS_PAIR_MASK.. the file's end),
 * and at most in one run */
#define XP_NSLOT ((NSREG - XS_PAIR_MASK) / 2)
#define XP_RUNMASK XP_NSLOT
struct xpair {
    const xinst *x;   /* the wave32 instruction starting at this pc (NULL: none) */
    const xinst *x64; /* XP_VECTOR: the wave64 build of it */
    uint8_t kind;
    uint8_t nchk, nmask;
    uint8_t mask_written; /* bit i: mask[i] is written */
    uint8_t exec_written; /* writes EXEC (v_cmpx) */
    /* XP_VECTOR without lane-mask SGPRs: the number of such instructions (and XP_NOPs between
     * them) from this one on (1-255), run back to back on the wave64 build (whose NOPs are
     * NOPs too); run_chk/nrun_chk the SGPRs all of them read as data. */
    uint8_t vrun, nrun_chk;
    uint8_t rcnt[XC_N];        /* the run's instructions per class (--stats) */
    uint8_t nrcls, rcls[XC_N]; /* the classes with a count in rcnt */
    /* A run may hold plain SALU ops (`once`, below): run on A alone, their destinations
     * (run_dst) and SCC are copied to B after the run; run_scc: SCC is compared at its start. */
    uint8_t run_scc, nrun_dst;
    uint16_t run_dst[XP_MAXDST];
    uint16_t nvec;    /* the run's vector calls: xprog.pair_seq[vidx..vidx+nvec) (a VOPD: its
                       * two halves, unless Y reads X's destination) */
    uint32_t vidx;    /* XP_VECTOR: its index in xprog.pair_seq (the wave64 xinsts in order) */
    uint32_t run_end; /* the pc after the run */
    uint16_t run_chk[XP_MAXRUNCHK];
    uint16_t chk[XP_MAXCHK];   /* SGPRs read as data: the same in both waves */
    uint16_t mask[XP_MAXMASK]; /* SGPRs read or written as a lane mask (not EXEC) */
    /* Bit i: mask[i] is an operand of the record, renamed in own (a copy of x64) to the slot
     * pair XS_PAIR_MASK + 2 mslot[i]; else it is implicit (VCC of v_div_fmas, of a VOPD v_cndmask)
     * and its high half is swapped into the SGPR after it for the call. */
    uint8_t renamed;
    /* the slot pair (XS_PAIR_MASK + 2 slot) of each renamed mask: the program's one for that
     * SGPR (x_pair_build's gmask), so that a run can hold the instruction; norun: the
     * instruction's masks are not all renamed to the program's slots (it joins no run) */
    uint8_t mslot[XP_MAXMASK], norun;
    xinst *own;
    /* XP_SCALAR, a plain SALU op (SOP1/SOP2/SOPC/SOPK, no state beyond its SGPR operands and
     * SCC) or a scalar load: when the SGPRs in chk and SCC hold the same values in both waves,
     * it runs on A only and its destination SGPRs (dst[0..ndst-1]) and SCC are copied to B. */
    uint8_t once, ndst;
    uint16_t dst[16];
    /* chk and run_chk as bit sets of SGPRs 0-127 (wave.pair_eq); *_slow: one is 128 or above */
    uint64_t need[2], run_need[2];
    uint8_t need_slow, run_need_slow;
    /* run_dst as a bit set (x_pair_run copies them to B lazily); run_dm_slow: one is 128 or
     * above (copied at once) */
    uint64_t run_dm[2];
    uint8_t run_dm_slow;
    /* The lane masks the run's vector instructions read or write (run_mreg, in the slot pairs
     * run_mslot; run_mw: bit i written): B's and A's values go into the slot pair at the run's
     * start and back into the SGPRs, each wave its own half, at its end. */
    uint8_t run_nmask, run_mw, run_mslot[XP_RUNMASK];
    uint16_t run_mreg[XP_RUNMASK];
    /* XP_SPLIT, step: the instruction runs on each wave by itself without splitting the pair
     * (step_pair), its VGPR operands (the rows rows[i], nrows[i] long) copied between B's
     * file and A's lanes 32-63 around it */
    uint8_t step, nrng;
    uint16_t rows[XP_MAXRNG];
    uint8_t nrows[XP_MAXRNG];
};

static _Atomic uint64_t paired_insts, rejoins, mask_runs, shared_loads; /* x_pair_count(), ... */
/* This thread's counts for the first, third and fourth, added to them by x_pair_flush() (three
 * locked additions per turn of a pair were 3% of a gfx1100 vecadd's time). */
static _Thread_local uint64_t t_paired, t_mask_runs, t_shared;
void x_pair_flush(void) {
    if (t_paired)
        atomic_fetch_add_explicit(&paired_insts, t_paired, memory_order_relaxed);
    if (t_mask_runs)
        atomic_fetch_add_explicit(&mask_runs, t_mask_runs, memory_order_relaxed);
    if (t_shared)
        atomic_fetch_add_explicit(&shared_loads, t_shared, memory_order_relaxed);
    t_paired = t_mask_runs = t_shared = 0;
}
uint64_t x_pair_count(void) { return paired_insts; }
uint64_t x_pair_mask_runs(void) { return mask_runs; }
uint64_t x_pair_shared_loads(void) { return shared_loads; }
uint64_t x_pair_rejoins(void) { return rejoins; }

static int pairing = -1; /* x_pairing(); -1: the environment not read yet */
int x_pairing(void) {
#ifdef GFXEMU_OPCOV
    return 0; /* `make coverage` counts ops in the single-wave loops (opcov.h) */
#endif
    return x_env_switch(&pairing, "GFXEMU_PAIR", "0");
}
void x_set_pairing(int on) { __atomic_store_n(&pairing, on ? 1 : 0, __ATOMIC_RELAXED); }

static int has_prefix(const char *s, const char *p) { return strncmp(s, p, strlen(p)) == 0; }

/* Vector ops whose lanes see other lanes or their own lane number, or scalar results, or that
 * gfxemu models per wave (buffer descriptors may swizzle by lane; images; exports; LDS
 * parameter loads): never run paired. */
static int split_op(const char *name) {
    static const char *const pre[] = {
        "v_readlane", "v_readfirstlane", "v_writelane", "v_permlane",     "v_mbcnt",
        "v_movrel",   "v_interp",        "v_wmma",      "v_swmmac",       "ds_bpermute",
        "ds_permute", "ds_swizzle",      "ds_append",   "ds_consume",     "ds_gws",
        "ds_ordered", "ds_param",        "ds_direct",   "lds_",           "image_",
        "exp",        "buffer_",         "tbuffer_",    "global_load_tr", "scratch_",
        "v_s_",       "v_swaprel",
    };
    for (size_t i = 0; i < sizeof pre / sizeof pre[0]; i++)
        if (has_prefix(name, pre[i]))
            return 1;
    /* addtid: the lane number in the address; load_lds: in the LDS destination */
    return strstr(name, "addtid") != NULL || strstr(name, "load_lds") != NULL;
}

/* Ops that reach VGPRs or state beyond their operands (M0-relative registers, pixel-shader
 * inputs, images, exports, GWS/ordered counters, private memory): never stepped per wave. */
static int nostep_op(const char *name) {
    static const char *const pre[] = {"v_movrel",   "v_swaprel", "v_interp",       "ds_gws",
                                      "ds_ordered", "ds_param",  "ds_direct",      "lds_",
                                      "image_",     "exp",       "global_load_tr", "scratch_"};
    for (size_t i = 0; i < sizeof pre / sizeof pre[0]; i++)
        if (has_prefix(name, pre[i]))
            return 1;
    return strstr(name, "load_lds") != NULL;
}

/* Whether x can run on each wave of a pair by itself (step_pair), and its VGPR rows. */
static void plan_step(struct xpair *pl, const xinst *x, const char *name) {
    if (nostep_op(name))
        return;
    const isa_inst *in = &x->in;
    for (unsigned i = 0; i < 8; i++) {
        const isa_opnd *o = i < 2 ? &in->dst[i] : &in->src[i - 2];
        if (o->kind == ISA_OPND_AGPR)
            return;
        if (o->kind != ISA_OPND_VGPR)
            continue;
        unsigned n = o->n ? o->n : 1;
        if (pl->nrng >= XP_MAXRNG || o->idx + n > NVREG)
            return;
        pl->rows[pl->nrng] = o->idx;
        pl->nrows[pl->nrng++] = (uint8_t)n;
    }
    pl->step = 1;
}

/* A VALU source slot that is a lane mask: v_cndmask's condition, the carry-in of the
 * _co_ci ops (slot 2 in every encoding). */
static int mask_src(const char *name, unsigned slot) {
    return slot == 2 && (strstr(name, "cndmask") || strstr(name, "_co_ci_"));
}

static int add_u16(uint16_t *a, uint8_t *n, unsigned cap, unsigned v) {
    for (unsigned i = 0; i < *n; i++)
        if (a[i] == v)
            return 1;
    if (*n >= cap)
        return 0;
    a[(*n)++] = (uint16_t)v;
    return 1;
}

static int add_mask(struct xpair *pl, unsigned m, int written) {
    if (m == ISA_SREG_EXEC_LO) { /* EXEC: swapped for every vector instruction */
        pl->exec_written |= (uint8_t)written;
        return 1;
    }
    if (m == 125) /* null */
        return 1;
    for (unsigned i = 0; i < pl->nmask; i++)
        if (pl->mask[i] == m) {
            pl->mask_written |= (uint8_t)(written << i);
            return 1;
        }
    if (pl->nmask >= XP_MAXMASK || m + 1 >= 126)
        return 0;
    pl->mask_written |= (uint8_t)(written << pl->nmask);
    pl->mask[pl->nmask++] = (uint16_t)m;
    return 1;
}

/* A vector instruction's plan from its wave32 record (the same word as the wave64 one).  The
 * lane-mask operands of the record are renamed to slot pairs in a copy of the wave64 xinst. */
static int plan_vector(struct xpair *pl, const xinst *x, const xinst *x64, uint16_t *gmask,
                       unsigned *ngmask) {
    const isa_inst *in = &x->in;
    const char *name = isa_op_names[in->op];
    int valu = x->cls == XC_VALU;
    /* v_cmpx writes EXEC whether or not the record names it: the VOP3 (_e64) form's is
     * implicit (no destination operand).  Without this B's new EXEC was dropped (lanes of B's
     * stayed active after a v_cmpx_*_e64 that turned them off). */
    if (valu && has_prefix(name, "v_cmpx"))
        pl->exec_written = 1;
    /* operand slots holding a mask: 0-1 dst, 2-7 src */
    int slot_mask[8];
    for (unsigned i = 0; i < 8; i++)
        slot_mask[i] = -1;
    for (unsigned i = 0; i < 2; i++) {
        const isa_opnd *o = &in->dst[i];
        if (o->kind != ISA_OPND_SREG)
            continue;
        if (!valu || o->n != 1 || !add_mask(pl, o->idx, 1)) /* a scalar result: per wave */
            return 0;
        slot_mask[i] = o->idx;
    }
    for (unsigned i = 0; i < 6; i++) {
        const isa_opnd *o = &in->src[i];
        if (o->kind == ISA_OPND_SPECIAL && (o->idx < 235 || o->idx > 238))
            return 0; /* vccz, execz, scc, lds_direct: per wave */
        if (o->kind != ISA_OPND_SREG)
            continue;
        if (valu && mask_src(name, i)) {
            if (o->n != 1 || !add_mask(pl, o->idx, 0))
                return 0;
            slot_mask[2 + i] = o->idx;
            continue;
        }
        for (unsigned r = 0; r < o->n; r++)
            if (!add_u16(pl->chk, &pl->nchk, XP_MAXCHK, o->idx + r))
                return 0;
    }
    unsigned explicit_n = pl->nmask;
    if (valu && (has_prefix(name, "v_div_fmas") && !add_mask(pl, ISA_SREG_VCC_LO, 0)))
        return 0;
    if (in->fmt == ISA_FMT_VOPD) {
        const xinst *h = (const xinst *)(uintptr_t)x64->k[0];
        for (int k = 0; k < 2; k++)
            if (h[k].in.op == ISA_OPL_v_cndmask_b32 && !add_mask(pl, ISA_SREG_VCC_LO, 0))
                return 0;
    }
    /* A mask added after the record's own (implicit VCC) that is also one of them stays
     * renamed: the handler reads the implicit one at VCC itself, so it must be swapped too. */
    for (unsigned i = 0; i < explicit_n; i++)
        pl->renamed |= (uint8_t)(1u << i);
    for (unsigned i = 0; i < pl->nmask; i++)
        if (pl->mask[i] == ISA_SREG_VCC_LO &&
            (has_prefix(name, "v_div_fmas") || in->fmt == ISA_FMT_VOPD))
            pl->renamed &= (uint8_t)~(1u << i);
    /* Swapping B's mask into the SGPR after an implicit one must not change another operand. */
    for (unsigned i = 0; i < pl->nmask; i++) {
        if (pl->renamed >> i & 1)
            continue;
        unsigned hi = pl->mask[i] + 1u;
        for (unsigned c = 0; c < pl->nchk; c++)
            if (pl->chk[c] == hi)
                return 0;
        for (unsigned k = 0; k < pl->nmask; k++)
            if (pl->mask[k] == hi)
                return 0;
    }
    /* the program's slot for each renamed mask; an implicit one, or no slot left: slots by
     * the masks' order (0, 1, 2), used only around this instruction's own call */
    pl->norun = 0;
    for (unsigned i = 0; i < pl->nmask; i++) {
        unsigned j = 0;
        while (j < *ngmask && gmask[j] != pl->mask[i])
            j++;
        if (j == *ngmask && j < XP_NSLOT)
            gmask[(*ngmask)++] = pl->mask[i];
        pl->norun |= (uint8_t)(!(pl->renamed >> i & 1) || j == XP_NSLOT);
        pl->mslot[i] = (uint8_t)j;
    }
    if (pl->norun)
        for (unsigned i = 0; i < pl->nmask; i++)
            pl->mslot[i] = (uint8_t)i;
    if (pl->renamed) {
        if (!(pl->own = malloc(sizeof *pl->own)))
            return 0;
        *pl->own = *x64;
        isa_inst *rn = &pl->own->in;
        for (unsigned s = 0; s < 8; s++) {
            if (slot_mask[s] < 0)
                continue;
            unsigned k = 0;
            while (k < pl->nmask && pl->mask[k] != (unsigned)slot_mask[s])
                k++;
            if (k == pl->nmask || !(pl->renamed >> k & 1))
                continue; /* EXEC or null: not in the list */
            isa_opnd *o = s < 2 ? &rn->dst[s] : &rn->src[s - 2];
            o->idx = (uint16_t)(XS_PAIR_MASK + 2 * pl->mslot[k]);
        }
        pl->x64 = pl->own;
    }
    return 1;
}

/* Whether a SALU op computes only from its SGPR operands and SCC, and which it writes.  A scalar
 * load (s_load_*, s_buffer_load_*) reads memory at an address made of its SGPR operands: the
 * same bytes for both waves when those agree (the two waves at one pc, each done with every
 * instruction before it; what another wave stores meanwhile is unordered with it either way). */
static void plan_once(struct xpair *pl, const xinst *x) {
    static const char *const state[] = {"s_getreg", "s_setreg", "s_sendmsg", "s_movrel",
                                        "s_getpc",  "s_setpc",  "s_swappc",  "s_call",
                                        "s_rfe",    "s_ttrace", "s_barrier", "s_sleep"};
    const isa_inst *in = &x->in;
    const char *name = isa_op_names[in->op];
    if (x->cls == XC_SMEM ? !has_prefix(name, "s_load") && !has_prefix(name, "s_buffer_load")
                          : x->cls != XC_SALU && x->cls != XC_BRANCH)
        return;
    for (size_t i = 0; i < sizeof state / sizeof state[0]; i++)
        if (has_prefix(name, state[i]))
            return;
    if (strstr(name, "saveexec") || strstr(name, "wrexec")) /* EXEC, implicitly */
        return;
    if (in->fmt == ISA_FMT_SOPP) {
        /* a branch on SCC or none: with SCC the same, both waves go the same way */
        if (!strcmp(name, "s_branch") || !strcmp(name, "s_cbranch_scc0") ||
            !strcmp(name, "s_cbranch_scc1"))
            pl->once = 1;
        return;
    }
    uint8_t nchk = 0, ndst = 0;
    uint16_t chk[XP_MAXCHK];
    for (unsigned i = 0; i < 6; i++) {
        const isa_opnd *o = &in->src[i];
        if (o->kind == ISA_OPND_SPECIAL || o->kind == ISA_OPND_VGPR || o->kind == ISA_OPND_AGPR)
            return;
        if (o->kind == ISA_OPND_SREG)
            for (unsigned r = 0; r < o->n; r++)
                if (!add_u16(chk, &nchk, XP_MAXCHK, o->idx + r))
                    return;
    }
    for (unsigned i = 0; i < 2; i++) {
        const isa_opnd *o = &in->dst[i];
        if (o->kind == ISA_OPND_NONE)
            continue;
        if (o->kind != ISA_OPND_SREG)
            return;
        for (unsigned r = 0; r < o->n; r++) {
            if (ndst >= sizeof pl->dst / sizeof pl->dst[0])
                return;
            pl->dst[ndst++] = (uint16_t)(o->idx + r);
        }
    }
    memcpy(pl->chk, chk, sizeof chk);
    pl->nchk = nchk;
    pl->ndst = ndst;
    pl->once = 1;
}

static void need_bits(uint64_t need[2], uint8_t *slow, const uint16_t *regs, unsigned n) {
    need[0] = need[1] = 0;
    *slow = 0;
    for (unsigned i = 0; i < n; i++) {
        if (regs[i] >= 128)
            *slow = 1;
        else
            need[regs[i] >> 6] |= 1ull << (regs[i] & 63);
    }
}

static int has_u16(const uint16_t *a, unsigned n, unsigned v) {
    for (unsigned i = 0; i < n; i++)
        if (a[i] == v)
            return 1;
    return 0;
}

/* Whether q is a branch on SCC (or none) that may end a run: run on A, B follows its pc. */
static int branch_ends_run(const struct xpair *q) {
    return q->kind == XP_SCALAR && q->once && q->x->in.fmt == ISA_FMT_SOPP;
}

/* Whether a plain SALU op can be part of a run: not a branch, and not writing EXEC (the run's
 * vector instructions read both waves' EXEC as set at its start). */
static int salu_in_run(const struct xpair *q) {
    if (q->kind != XP_SCALAR || !q->once || q->x->in.fmt == ISA_FMT_SOPP || q->x->cls == XC_SMEM)
        return 0;
    for (unsigned k = 0; k < q->ndst; k++)
        if (q->dst[k] == ISA_SREG_EXEC_LO || q->dst[k] == ISA_SREG_EXEC_HI)
            return 0;
    return 1;
}

/* Native blocks (jit.c) in the runs' vector calls (pair_seq): each run that starts at a branch
 * target or after the end of the run before it, blocks wherever they fit.  A run that starts
 * inside another finds the other's blocks at the positions it shares with it. */
static void build_jit(xprog *p32, uint32_t nseq) {
    uint32_t nslots = p32->code_size / 4, n = 0, covered = 0;
    uint32_t *start = calloc(nslots ? nslots : 1, sizeof *start);
    uint32_t *len = calloc(nslots ? nslots : 1, sizeof *len);
    uint8_t *tgt = x_branch_targets(p32);
    const xjit **at = calloc(nseq ? nseq : 1, sizeof *at);
    if (start && len && tgt && at) {
        int entry = 0; /* a branch target, or after one where no run starts (s_delay_alu...) */
        for (uint32_t i = 0; i < p32->ninsts; i++) {
            const struct xpair *pl = &p32->pair[p32->insts[i].pc / 4];
            entry = tgt[pl->x->pc / 4] || entry;
            int head = entry || p32->insts[i].pc >= covered;
            if (pl->vrun < 2 || pl->nvec < 2 || !head)
                continue;
            entry = 0;
            start[n] = pl->vidx;
            len[n++] = pl->nvec;
            covered = pl->run_end;
        }
        p32->pair_jit = x_jit_build_seq(p32->pair_seq, nseq, start, len, n, at, p32->code_va);
    }
    if (p32->pair_jit)
        p32->pair_seq_jit = at;
    else
        free(at);
    free(start);
    free(len);
    free(tgt);
}

int x_pair_build(xprog *p32, const xprog *p64) {
    if (!p32->wave32 || !p64->at || p64->wave32 || !p32->runs)
        return 0;
    uint32_t nslots = p32->code_size / 4;
    struct xpair *plan = calloc(nslots ? nslots : 1, sizeof *plan);
    if (!plan)
        return -1;
    for (uint32_t i = 0; i < nslots; i++)
        plan[i].kind = XP_SPLIT;
    uint16_t gmask[XP_NSLOT]; /* the SGPR of each slot pair */
    unsigned ngmask = 0;
    for (uint32_t i = 0; i < p32->ninsts; i++) {
        const xinst *x = &p32->insts[i];
        struct xpair *pl = &plan[x->pc / 4];
        pl->x = x;
        if (!x_runs(x))
            continue;
        const char *name = isa_op_names[x->in.op];
        unsigned fmt = x->in.fmt;
        if (x_rdna_is_nop(x)) { /* the wait counters, and the cache controls (global_inv...) */
            pl->kind = XP_NOP;
            continue;
        }
        plan_step(pl, x, name); /* for an XP_SPLIT instruction */
        if (fmt == ISA_FMT_SOP1 || fmt == ISA_FMT_SOP2 || fmt == ISA_FMT_SOPK ||
            fmt == ISA_FMT_SOPC || fmt == ISA_FMT_SOPP || fmt == ISA_FMT_SMEM) {
            pl->kind = x_rdna_is_nop(x) ? XP_NOP : XP_SCALAR;
            if (pl->kind == XP_SCALAR)
                plan_once(pl, x);
            continue;
        }
        /* VALU, LDS and FLAT/GLOBAL encodings only (MUBUF/VBUFFER, images, exports,
         * interpolation split); WMMA/SWMMAC: the wave64 layout is not two wave32 ones */
        if ((fmt != ISA_FMT_VOP1 && fmt != ISA_FMT_VOP2 && fmt != ISA_FMT_VOPC &&
             fmt != ISA_FMT_VOP3 && fmt != ISA_FMT_VOP3P && fmt != ISA_FMT_VOPD &&
             fmt != ISA_FMT_DS && fmt != ISA_FMT_FLAT) ||
            (x->cls != XC_VALU && x->cls != XC_VMEM && x->cls != XC_LDS))
            continue;
        const xinst *x64 = x->pc / 4 < p64->code_size / 4 ? p64->at[x->pc / 4] : NULL;
        if (!x64 || x64->size != x->size || x64->in.op != x->in.op || !x_runs(x64) ||
            split_op(name))
            continue;
        pl->x64 = x64;
        if (plan_vector(pl, x, x64, gmask, &ngmask))
            pl->kind = XP_VECTOR;
    }
    /* Runs of vector instructions whose masks are all renamed (or that have none): the SGPRs
     * they read as data cannot change inside the run (no instruction of it writes an SGPR), so
     * they are compared once at its start. */
    const xinst **seq = calloc(p32->ninsts ? 2 * (size_t)p32->ninsts : 1, sizeof *seq);
    if (!seq) {
        free(plan);
        return -1;
    }
    uint32_t nseq = 0;
    for (uint32_t i = 0; i < p32->ninsts; i++) {
        struct xpair *pl = &plan[p32->insts[i].pc / 4];
        if (pl->kind == XP_VECTOR) {
            pl->vidx = nseq;
            if (pl->x64->fn == x_rdna_vopd) { /* the halves, without the wrapper's call */
                const xinst *h = (const xinst *)(uintptr_t)pl->x64->k[0];
                seq[nseq++] = &h[0];
                seq[nseq++] = &h[1];
            } else {
                seq[nseq++] = pl->x64;
            }
        } else if (salu_in_run(pl) || branch_ends_run(pl)) {
            pl->vidx = nseq;
            seq[nseq++] = pl->x;
        }
    }
    for (uint32_t i = 0; i < p32->ninsts; i++) {
        struct xpair *pl = &plan[p32->insts[i].pc / 4];
        for (uint32_t j = i; j < p32->ninsts && pl->vrun < 255; j++) {
            const struct xpair *q = &plan[p32->insts[j].pc / 4];
            if (q->kind == XP_NOP && j > i) { /* s_delay_alu & co. between them: no state */
                pl->vrun++;
                pl->rcnt[q->x->cls]++;
                pl->run_end = q->x->pc + q->x->size;
                continue;
            }
            int salu = salu_in_run(q), br = branch_ends_run(q) && j > i;
            if (!salu && !br && (q->kind != XP_VECTOR || (q->nmask && q->norun) || q->exec_written))
                break;
            /* the SGPRs read before the run writes them are compared at its start; those
             * written by its SALU ops are the same in both waves by then */
            uint8_t n = pl->nrun_chk, nd = pl->nrun_dst, nm = pl->run_nmask, mw = pl->run_mw;
            uint16_t c[XP_MAXRUNCHK], d[XP_MAXDST], mr[XP_RUNMASK];
            uint8_t ms[XP_RUNMASK];
            memcpy(c, pl->run_chk, sizeof c);
            memcpy(d, pl->run_dst, sizeof d);
            memcpy(mr, pl->run_mreg, sizeof mr);
            memcpy(ms, pl->run_mslot, sizeof ms);
            int fits = 1;
            /* Lane masks live in their slot pairs for the whole run, so no instruction of it
             * may read one as data (a vector op's scalar source, a SALU source) or write it as
             * a SALU result, before or after the mask op. */
            for (unsigned k = 0; !salu && !br && k < q->nmask && fits; k++) {
                unsigned m = q->mask[k], t = 0;
                if (has_u16(c, n, m) || has_u16(d, nd, m)) {
                    fits = 0;
                    break;
                }
                while (t < nm && mr[t] != m)
                    t++;
                if (t == nm) {
                    if (nm == XP_RUNMASK) {
                        fits = 0;
                        break;
                    }
                    mr[nm] = (uint16_t)m;
                    ms[nm++] = q->mslot[k];
                }
                mw |= (uint8_t)((q->mask_written >> k & 1) << t);
            }
            for (unsigned k = 0; k < q->nchk && fits; k++)
                fits = !has_u16(mr, nm, q->chk[k]);
            for (unsigned k = 0; salu && k < q->ndst && fits; k++)
                fits = !has_u16(mr, nm, q->dst[k]);
            for (unsigned k = 0; k < q->nchk && fits; k++)
                if (!has_u16(d, nd, q->chk[k]))
                    fits = add_u16(c, &n, XP_MAXRUNCHK, q->chk[k]);
            for (unsigned k = 0; salu && k < q->ndst && fits; k++)
                fits = add_u16(d, &nd, XP_MAXDST, q->dst[k]);
            if (!fits)
                break;
            memcpy(pl->run_chk, c, sizeof c);
            memcpy(pl->run_dst, d, sizeof d);
            memcpy(pl->run_mreg, mr, sizeof mr);
            memcpy(pl->run_mslot, ms, sizeof ms);
            pl->nrun_chk = n;
            pl->nrun_dst = nd;
            pl->run_nmask = nm;
            pl->run_mw = mw;
            pl->run_scc |= (uint8_t)(salu | br);
            pl->vrun++;
            pl->nvec += !salu && !br && q->x64->fn == x_rdna_vopd ? 2 : 1;
            pl->rcnt[q->x->cls]++;
            pl->run_end = q->x->pc + q->x->size;
            if (br) /* the run's last instruction, as in wave_run()'s runs */
                break;
        }
    }
    /* A NOP (s_delay_alu, a wait counter) right before a run starts it too: a loop's branch
     * target is often one, and it took a turn of x_pair_run()'s loop of its own every
     * iteration.  Backwards, so that NOPs in a row each take the run after them. */
    for (uint32_t i = p32->ninsts - 1; p32->ninsts && i-- > 0;) {
        struct xpair *pl = &plan[p32->insts[i].pc / 4];
        const struct xpair *q = &plan[p32->insts[i + 1].pc / 4];
        if (pl->kind != XP_NOP || !q->vrun || q->vrun == 255 || q->x->pc != pl->x->pc + pl->x->size)
            continue;
        /* the run's fields (a NOP has no others) */
        pl->vrun = q->vrun + 1;
        memcpy(pl->rcnt, q->rcnt, sizeof pl->rcnt);
        pl->rcnt[pl->x->cls]++;
        pl->run_scc = q->run_scc;
        pl->nrun_dst = q->nrun_dst;
        memcpy(pl->run_dst, q->run_dst, sizeof pl->run_dst);
        pl->nrun_chk = q->nrun_chk;
        memcpy(pl->run_chk, q->run_chk, sizeof pl->run_chk);
        pl->run_nmask = q->run_nmask;
        pl->run_mw = q->run_mw;
        memcpy(pl->run_mreg, q->run_mreg, sizeof pl->run_mreg);
        memcpy(pl->run_mslot, q->run_mslot, sizeof pl->run_mslot);
        pl->nvec = q->nvec;
        pl->vidx = q->vidx;
        pl->run_end = q->run_end;
    }
    for (uint32_t i = 0; i < nslots; i++) {
        struct xpair *pl = &plan[i];
        need_bits(pl->need, &pl->need_slow, pl->chk, pl->nchk);
        need_bits(pl->run_need, &pl->run_need_slow, pl->run_chk, pl->nrun_chk);
        need_bits(pl->run_dm, &pl->run_dm_slow, pl->run_dst, pl->nrun_dst);
        for (unsigned c = 0; c < XC_N && pl->vrun; c++)
            if (pl->rcnt[c])
                pl->rcls[pl->nrcls++] = (uint8_t)c;
    }
    x_pair_free(p32);
    p32->pair = plan;
    p32->pair_seq = seq;
    p32->prog64 = p64;
    build_jit(p32, nseq);
    return 0;
}

void x_pair_free(xprog *p) {
    x_jit_free_set(p->pair_jit);
    free(p->pair_seq_jit);
    p->pair_jit = NULL;
    p->pair_seq_jit = NULL;
    if (p->pair)
        for (uint32_t i = 0; i < p->code_size / 4; i++)
            free(p->pair[i].own);
    free(p->pair);
    free(p->pair_seq);
    p->pair = NULL;
    p->pair_seq = NULL;
    p->prog64 = NULL;
}

void x_pair_begin(wave *a, wave *b, unsigned nv) {
    if (nv > NVREG)
        nv = NVREG;
    /* dp_wave_init() gives a full wave32 leader the rows its zero plan names zeroed in all 64
     * lanes, which is what b, full as well, has in its own file there; only the work-item ids
     * in v0-v2 differ.  A follower with fewer lanes has its whole allocation zeroed (a partial
     * wave may turn on lanes that no prefix wrote): all of its rows. */
    unsigned rows = b->s[ISA_SREG_EXEC_LO] == ~0u ? 3 : nv;
    for (unsigned r = 0; r < nv && r < rows; r++)
        memcpy(&a->v[r][32], b->v[r], 32 * sizeof b->v[r][0]);
    a->pair = b;
    a->pair_nv = (uint16_t)nv;
    b->pair = NULL;
    b->pair_follower = 1;
    a->pair_follower = 0;
}

void x_pair_rejoin(wave *a, wave *b) {
    if (a->pair || a->pair_follower || b->pair || b->pair_follower || !a->prog->pair ||
        a->status != WAVE_RUNNING || b->status != WAVE_RUNNING || a->pc != b->pc)
        return;
    for (unsigned r = 0; r < a->pair_nv; r++)
        memcpy(&a->v[r][32], b->v[r], 32 * sizeof b->v[r][0]);
    a->pair = b;
    b->pair_follower = 1;
    atomic_fetch_add_explicit(&rejoins, 1, memory_order_relaxed);
}

void x_pair_split(wave *a) {
    wave *b = a->pair;
    if (!b)
        return;
    for (unsigned r = 0; r < a->pair_nv; r++)
        memcpy(b->v[r], &a->v[r][32], 32 * sizeof b->v[r][0]);
    a->pair = NULL;
    b->pair_follower = 0;
}

/* Whether a and b agree in MODE (the handlers read A's, denormal modes too) and in the n SGPRs
 * regs names. */
static inline int agree(const wave *a, const wave *b, const uint16_t *regs, unsigned n) {
    int same = a->mode == b->mode;
    for (unsigned i = 0; i < n; i++)
        same &= a->s[regs[i]] == b->s[regs[i]];
    return same;
}
/* agree() through the cache of SGPRs known to be equal (wave.pair_eq): the comparison only when
 * one of need is not known, and then its result is remembered. */
static inline int agree_known(wave *a, const wave *b, const uint16_t *regs, unsigned n,
                              const uint64_t need[2], int slow) {
    if (!slow && a->mode == b->mode && !(need[0] & ~a->pair_eq[0]) && !(need[1] & ~a->pair_eq[1]))
        return 1;
    if (!agree(a, b, regs, n))
        return 0;
    if (!slow) {
        a->pair_eq[0] |= need[0];
        a->pair_eq[1] |= need[1];
    }
    return 1;
}
static inline void eq_set(wave *a, unsigned r, int same) {
    if (r >= 128)
        return;
    uint64_t bit = 1ull << (r & 63);
    a->pair_eq[r >> 6] = same ? a->pair_eq[r >> 6] | bit : a->pair_eq[r >> 6] & ~bit;
}

/* x (an XP_SPLIT instruction with step) on A, then on B, each its own wave32 instruction: B's
 * VGPR operands are copied from A's lanes 32-63 into B's file and back around it, all of them
 * (a returning atomic writes its data operand).  A's run touches no other VGPR (the operands
 * are all of the VGPRs x reaches), and whatever it leaves in lanes 32-63 of these rows is
 * replaced by B's. */
static void step_pair(wave *a, wave *b, const struct xpair *pl, const xinst *x) {
    for (unsigned i = 0; i < pl->nrng; i++)
        for (unsigned r = pl->rows[i]; r < pl->rows[i] + pl->nrows[i]; r++)
            memcpy(b->v[r], &a->v[r][32], 32 * sizeof b->v[r][0]);
    x_run_one(a, x);
    x_run_one(b, x);
    for (unsigned i = 0; i < pl->nrng; i++)
        for (unsigned r = pl->rows[i]; r < pl->rows[i] + pl->nrows[i]; r++)
            memcpy(&a->v[r][32], b->v[r], 32 * sizeof b->v[r][0]);
}

/* B takes the results of a `once` SALU op that ran on A. */
static inline void copy_scalar(wave *b, wave *a, const struct xpair *pl) {
    for (unsigned i = 0; i < pl->ndst; i++) {
        b->s[pl->dst[i]] = a->s[pl->dst[i]];
        eq_set(a, pl->dst[i], 1);
    }
    b->scc = a->scc;
}

/* A fault of the 64-lane instruction is A's, with A's lanes, when any of them faulted (A, the
 * lower wave, would have run it first unpaired), else B's. */
static void give_fault(wave *a, wave *b) {
    if (a->fault.lanes & 0xffffffffull) {
        a->fault.lanes &= 0xffffffffull;
    } else if (a->fault.lanes) {
        b->fault = a->fault;
        b->fault.lanes >>= 32;
        b->status = WAVE_FAULT;
        memset(&a->fault, 0, sizeof a->fault);
        a->status = WAVE_RUNNING;
    }
}

/* B's copies of the SGPRs in lazy, which the runs since the last flush wrote on A (B's values
 * are A's): a loop's counter and the like, written every iteration, are copied once when the
 * pair leaves the loop instead of after every run. */
static inline void lazy_flush(wave *a, wave *b, uint64_t lazy[2]) {
    for (unsigned k = 0; k < 2; k++)
        for (uint64_t m = lazy[k]; m; m &= m - 1) {
            unsigned r = 64 * k + (unsigned)__builtin_ctzll(m);
            b->s[r] = a->s[r];
        }
    lazy[0] = lazy[1] = 0;
}
/* Mask SGPR m into its slot pair, A's lanes in the low SGPR and B's in the high one, and back
 * into each wave's SGPR (an instruction's masks around its call in the per-instruction path; a
 * run's at its start, and the written ones at its end). */
static inline void mask_in(wave *a, const wave *b, unsigned m, unsigned slot) {
    a->s[XS_PAIR_MASK + 2 * slot] = a->s[m];
    a->s[XS_PAIR_MASK + 2 * slot + 1] = b->s[m];
}
static inline void mask_out(wave *a, wave *b, unsigned m, unsigned slot) {
    a->s[m] = a->s[XS_PAIR_MASK + 2 * slot];
    b->s[m] = a->s[XS_PAIR_MASK + 2 * slot + 1];
}
static inline void masks_in(wave *a, const wave *b, const struct xpair *pl) {
    for (unsigned i = 0; i < pl->run_nmask; i++)
        mask_in(a, b, pl->run_mreg[i], pl->run_mslot[i]);
}
static inline void masks_out(wave *a, wave *b, const struct xpair *pl) {
    for (unsigned i = 0; i < pl->run_nmask; i++)
        if (pl->run_mw >> i & 1) {
            mask_out(a, b, pl->run_mreg[i], pl->run_mslot[i]);
            eq_set(a, pl->run_mreg[i], 0);
        }
}
/* The --stats counts of n runs of pl. */
static inline void run_counts(uint64_t cnt[XC_N], const struct xpair *pl, uint64_t n) {
    if (pl)
        for (unsigned c = 0; c < pl->nrcls; c++)
            cnt[pl->rcls[c]] += (uint64_t)pl->rcnt[pl->rcls[c]] * n;
}

int x_pair_run(wave *a) {
    wave *b = a->pair;
    const xprog *p = a->prog;
    const struct xpair *plan = p->pair;
    const xinst *const *seq = p->pair_seq;
    const uint32_t code_size = p->code_size;
    uint64_t budget = a->budget, cnt[XC_N] = {0};
    /* last: the run that ran last, while only runs have run since the last flush; its runs so
     * far (nlast) are counted at the end or when another starts */
    const struct xpair *last = NULL;
    uint64_t lazy[2] = {0, 0}, nlast = 0, nmruns = 0, nshared = 0;
    int paired = 1, moded = wave_moded(a) || wave_moded(b);
    if (b->status == WAVE_YIELD && a->status == WAVE_RUNNING)
        b->status = WAVE_RUNNING;      /* both slept (s_sleep); the scheduler woke the leader */
    a->pair_eq[0] = a->pair_eq[1] = 0; /* known only within a turn */
    while (a->status == WAVE_RUNNING) {
        uint32_t pc = a->pc;
        const struct xpair *pl = pc < code_size && !(pc & 3) ? &plan[pc / 4] : NULL;
        if (pl != last) {
            if (lazy[0] | lazy[1])
                lazy_flush(a, b, lazy);
            run_counts(cnt, last, nlast);
            last = NULL, nlast = 0;
        }
        if (!pl || (pl->kind == XP_SPLIT && !pl->step) || b->status != WAVE_RUNNING) {
            paired = 0;
            break;
        }
        if (__builtin_expect(budget < 2, 0)) {
            budget = 0;
            wave_fault(a, NULL, XF_WATCHDOG);
            break;
        }
        const xinst *x = pl->x;
        if (pl->kind == XP_SPLIT) { /* step: each wave by itself, the pair kept */
            budget -= 2;
            cnt[x->cls]++;
            a->pc = b->pc = pc + x->size;
            step_pair(a, b, pl, x);
            a->pair_eq[0] = a->pair_eq[1] = 0; /* (SGPR results are per wave) */
            if (a->pc != b->pc || a->status != b->status) {
                paired = 0;
                break;
            }
            moded = wave_moded(a) || wave_moded(b);
            continue;
        }
        /* (a run whose scalar inputs differ: its instructions one by one, below) */
        if (pl->vrun > 1 && !moded && budget >= 2u * pl->vrun &&
            agree_known(a, b, pl->run_chk, pl->nrun_chk, pl->run_need, pl->run_need_slow) &&
            (!pl->run_scc || a->scc == b->scc)) {
            /* the run's vector and SALU instructions back to back on A; its NOPs are only
             * counted.  A run that branches back to its own start (a loop) runs again at once
             * while the budget lasts: its scalar inputs are the same in both waves as they
             * were (the SGPRs it writes are copied to B, lazily), and B's EXEC is unchanged. */
            /* (the plan's fields in locals: the stores through a and b would reload them) */
            const xinst *const *run = seq + pl->vidx;
            const xjit *const *at = p->pair_seq_jit ? p->pair_seq_jit + pl->vidx : NULL;
            const unsigned nvec = pl->nvec, cost = 2u * pl->vrun;
            const uint32_t run_end = pl->run_end;
            const int again = !pl->run_need_slow && !pl->run_dm_slow;
            /* the usual loop body: one block, then the branch */
            const xjit *j0 = at ? at[0] : NULL;
            const int one_block = j0 && nvec >= 2 && j0->n == nvec - 1u;
            unsigned done = 0; /* runs completed here */
            a->s[ISA_SREG_EXEC_HI] = b->s[ISA_SREG_EXEC_LO];
            if (pl->run_nmask) {
                masks_in(a, b, pl);
                nmruns++;
            }
            for (;;) {
                const xinst *const *q = run, *v = NULL;
                unsigned n = nvec;
                budget -= cost;
                last = pl, nlast++;
                a->pc = run_end; /* where a branch ending the run counts from */
                if (one_block && x_jit_go(a, j0, *q)) {
                    if (__builtin_expect(a->status != WAVE_RUNNING, 0)) { /* a load's fault */
                        q += x_jit_fault_seq(a, q, j0->n);
                        v = *q++;
                    } else {
                        q += nvec - 1;
                        v = *q++;
                        v->fn(a, v);
                    }
                } else
                    for (;;) {
                        const xjit *j = at ? at[q - run] : NULL;
                        /* (*q is a wave64 instruction: all 64 lanes must be active) */
                        if (j && j->n <= n && x_jit_go(a, j, *q)) { /* native code (jit.c) */
                            if (__builtin_expect(a->status != WAVE_RUNNING, 0)) {
                                q += x_jit_fault_seq(a, q, j->n); /* a load's or store's fault */
                                v = *q++;
                                break;
                            }
                            q += j->n;
                            if ((n -= j->n) == 0)
                                break;
                            continue;
                        }
                        v = *q++;
                        v->fn(a, v);
                        if (__builtin_expect(a->status != WAVE_RUNNING, 0) || --n == 0)
                            break;
                    }
                if (__builtin_expect(a->status != WAVE_RUNNING, 0)) {
                    /* stopped at v: the rest of the run was charged, not run; B gets the
                     * results of the SALU ops before it */
                    a->s[ISA_SREG_EXEC_HI] = 0;
                    if (pl->run_nmask)
                        masks_out(a, b, pl);
                    if (done) { /* the runs before this one wrote them */
                        lazy[0] |= pl->run_dm[0], lazy[1] |= pl->run_dm[1];
                    }
                    lazy_flush(a, b, lazy);
                    run_counts(cnt, last, nlast);
                    last = NULL, nlast = 0;
                    for (const xinst *const *r = run; r < q; r++)
                        if ((*r)->cls == XC_SALU)
                            copy_scalar(b, a, &plan[(*r)->pc / 4]);
                    a->pc = b->pc = v->pc + v->size;
                    const xinst *u = p->prog64->at[v->pc / 4]->next; /* v: maybe a VOPD half */
                    for (; u && u->pc < run_end; u = u->next) {
                        cnt[u->cls]--;
                        budget += 2;
                    }
                    give_fault(a, b);
                    paired = 0;
                    goto out;
                }
                done++;
                if (!again || a->pc != pc || budget < cost)
                    break;
            }
            if (pl->run_nmask)
                masks_out(a, b, pl);
            /* B takes the SGPRs and SCC the runs wrote (the SGPRs lazily) */
            if (__builtin_expect(pl->run_dm_slow, 0)) {
                for (unsigned k = 0; k < pl->nrun_dst; k++) {
                    b->s[pl->run_dst[k]] = a->s[pl->run_dst[k]];
                    eq_set(a, pl->run_dst[k], 1);
                }
            } else {
                lazy[0] |= pl->run_dm[0], lazy[1] |= pl->run_dm[1];
                a->pair_eq[0] |= pl->run_dm[0], a->pair_eq[1] |= pl->run_dm[1];
            }
            if (pl->run_scc)
                b->scc = a->scc;
            a->s[ISA_SREG_EXEC_HI] = 0;
            b->pc = a->pc;
            continue;
        }
        /* not a run: B's SGPRs must be its own again */
        if (lazy[0] | lazy[1])
            lazy_flush(a, b, lazy);
        run_counts(cnt, last, nlast);
        last = NULL, nlast = 0;
        if (pl->kind == XP_VECTOR) {
            if (!agree_known(a, b, pl->chk, pl->nchk, pl->need, pl->need_slow)) {
                paired = 0;
                break;
            }
            budget -= 2;
            cnt[x->cls]++;
            a->pc = b->pc = pc + x->size;
            uint32_t keep[XP_MAXMASK];
            for (unsigned i = 0; i < pl->nmask; i++) {
                unsigned m = pl->mask[i];
                if (pl->renamed >> i & 1) {
                    mask_in(a, b, m, pl->mslot[i]);
                } else {
                    keep[i] = a->s[m + 1];
                    a->s[m + 1] = b->s[m];
                }
            }
            /* EXEC_HI is no register of a wave32 program (rdna.c keeps its value in slot 128),
             * so slot 127 is 0 but here, where it holds B's lanes */
            a->s[ISA_SREG_EXEC_HI] = b->s[ISA_SREG_EXEC_LO];
            if (__builtin_expect(moded, 0))
                x_run_moded(a, pl->x64);
            else
                pl->x64->fn(a, pl->x64);
            if (pl->exec_written) {
                b->s[ISA_SREG_EXEC_LO] = a->s[ISA_SREG_EXEC_HI];
                eq_set(a, ISA_SREG_EXEC_LO, 0);
            }
            a->s[ISA_SREG_EXEC_HI] = 0;
            for (unsigned i = pl->nmask; i-- > 0;) {
                unsigned m = pl->mask[i];
                if (pl->mask_written >> i & 1) /* each wave's own lanes */
                    eq_set(a, m, 0);
                if (pl->renamed >> i & 1) {
                    if (pl->mask_written >> i & 1)
                        mask_out(a, b, m, pl->mslot[i]);
                    continue;
                }
                if (pl->mask_written >> i & 1)
                    b->s[m] = a->s[m + 1];
                a->s[m + 1] = keep[i];
            }
            if (__builtin_expect(a->status != WAVE_RUNNING, 0)) {
                give_fault(a, b);
                paired = 0;
                break;
            }
            continue;
        }
        budget -= 2;
        cnt[x->cls]++;
        a->pc = b->pc = pc + x->size;
        if (pl->kind == XP_NOP)
            continue;
        if (pl->once) {
            if (a->scc == b->scc && agree_known(a, b, pl->chk, pl->nchk, pl->need, pl->need_slow)) {
                /* (a fault stops the loop; b stays running, the exit below says so) */
                x_run_one(a, x);
                if (__builtin_expect(a->status == WAVE_FAULT, 0)) {
                    /* a scalar load's: B has not run it (its count is taken back: it counts
                     * the instruction when it runs it) */
                    b->pc = pc;
                    b->count[x->cls]--;
                    continue;
                }
                nshared += x->cls == XC_SMEM;
                copy_scalar(b, a, pl);
                b->pc = a->pc; /* a branch's target */
                continue;
            }
        }
        x_run_one(a, x);
        x_run_one(b, x);
        /* each wave wrote its own SGPRs (a load, a message's result, EXEC...): none is known
         * equal any more, but a branch's writes nothing */
        if (x->cls != XC_BRANCH || x->in.dst[0].kind != ISA_OPND_NONE)
            a->pair_eq[0] = a->pair_eq[1] = 0;
        if (a->pc != b->pc || a->status != b->status) {
            paired = 0;
            break;
        }
        moded = wave_moded(a) || wave_moded(b);
    }
out:
    lazy_flush(a, b, lazy);
    run_counts(cnt, last, nlast);
    uint64_t all = 0;
    for (int c = 0; c < XC_N; c++) {
        a->count[c] += cnt[c];
        b->count[c] += cnt[c];
        all += cnt[c];
    }
    t_paired += all;
    t_mask_runs += nmruns;
    t_shared += nshared;
    a->budget = budget;
    if (paired)
        b->status = a->status == WAVE_FAULT ? WAVE_RUNNING : a->status; /* barrier, end, sleep */
    else
        x_pair_split(a);
    return paired;
}
