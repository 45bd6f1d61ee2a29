/* jit.h - native code for straight-line blocks of lane-local VALU instructions (src/exec/jit.c).
 *
 * A block is a stretch of one straight-line run (exec.c link_runs) made of plain VALU
 * instructions (no modifier or DPP, SDWA only as source selects; a VGPR destination; VGPR, SGPR
 * or constant sources)
 * whose operation jit.c knows, plus scalar ALU instructions and no-ops in
 * between that it may run before or after them (hoisted or deferred).  Its code runs each 16-lane
 * quarter of the wave through the whole block with the registers it touches held in host vector
 * registers: every lane is independent of the others in these instructions, so that is the same as
 * running the instructions one after another over all lanes.  The interpreter stays the reference:
 * a block runs only with every lane active and MODE not flushing f32 denormals, else its
 * instructions run one by one as before (x_jit_run returns NULL).  GFXEMU_JIT=0 turns it off.  The
 * code is AVX-512 (16-lane quarters in zmm registers), or AVX2 (8-lane eighths in ymm registers) on
 * a host without AVX-512F. */
#ifndef GFXEMU_EXEC_JIT_H
#define GFXEMU_EXEC_JIT_H

#include "exec/exec.h"
#include "exec/valu.h"

typedef struct xjit {
    void (*code)(wave *w);
    const xinst *last;          /* the block's last instruction */
    const xinst *const *defer;  /* scalar instructions run after the code, in program order */
    const xinst *const *vdefer; /* MFMAs run after those, in program order */
    uint16_t n;                 /* instructions the block covers (the deferred ones included) */
    uint16_t ndefer, nvdefer;
    uint8_t f32;    /* the block has f32 arithmetic: MODE must keep f32 denormals */
    uint8_t ieee;   /* it has f32 max/min, whose code follows MODE.IEEE set */
    uint8_t mem;    /* it has loads or stores (J_GLOAD, J_GSTORE, s_loads): x_jit_mem_go */
    uint8_t scalar; /* scalar ops alone (and s_loads): no code over the lanes, any EXEC */
    /* A block with memory instructions: the block without them that starts at the same
     * instruction (the rest of its instructions start blocks of their own), run instead when
     * this one may not (x_jit_mem_go: memcheck, a load that gathers); NULL: none. */
    const struct xjit *alt;
} xjit;

/* The blocks of one program (xprog.jit) or one pair plan: their code, an executable mapping. */
typedef struct xjitset {
    void *mem;
    size_t size;
    xjit *rec;
    uint32_t n;
    const xinst **defer;
} xjitset;

/* Whether blocks are built (GFXEMU_JIT unset or not "0", an x86-64 host with AVX-512F, or AVX2
 * and FMA).  x_set_jit: 0 off, 1 on (the host's best encoding), 2 on with AVX2 code even on
 * an AVX-512 host (tests; GFXEMU_JIT=avx2 does the same), 3 on with AVX-512 code that leaves out
 * the AVX-512DQ forms (tests; GFXEMU_JIT=avx512f). */
int x_jit_enabled(void);
void x_set_jit(int mode);
/* The host's vector ISA for blocks: 2 AVX-512F, 1 AVX2 and FMA, 0 neither. */
int x_jit_host(void);
/* Build p's blocks and point each block's first instruction at its block (x->jit); 0 on success
 * or when there is nothing to build, -1 when out of memory. */
int x_jit_build(xprog *p);
void x_jit_free(xprog *p);
/* Blocks for paired runs (pair.c): in each segment seq[start[i] .. start[i] + len[i]) of wave64
 * instructions (four quarters) and SALU ops, blocks where they fit; at[p] is the block starting
 * at seq[p] (its n the entries it covers); va is the program's code address (the names in
 * GFXEMU_PERF_MAP's file).  Returns the set to free, or NULL. */
xjitset *x_jit_build_seq(const xinst *const *seq, size_t nseq, const uint32_t *start,
                         const uint32_t *len, uint32_t nseg, const xjit **at, uint64_t va);
/* The program's branch targets, one byte per 4-byte slot (calloc'd; NULL when out of memory). */
uint8_t *x_branch_targets(const xprog *p);
void x_jit_free_set(xjitset *s);
/* Blocks built and instructions covered in programs built so far (tests, --stats). */
void x_jit_counts(uint64_t *blocks, uint64_t *insts);

/* Whether block j, starting at x, may run its memory instructions: not under memcheck, nor once
 * one of its loads has gathered (x_jit_load then sets the nolin of the block's first instruction
 * to 255). */
static inline int x_jit_mem_go(const wave *w, const xjit *j, const xinst *x) {
    return !j->mem || (!w->mc && __atomic_load_n(&x->nolin, __ATOMIC_RELAXED) != 255);
}

/* Whether block j, which starts with instruction x, may run on w: the conditions of the VV
 * clones whose lane expressions it computes (valu.h: every lane active, unless it is scalar ops
 * alone, and MODE not flushing f32 denormals when it has f32 arithmetic), MODE.IEEE for its f32
 * max/min, and x_jit_mem_go. */
static inline int x_jit_may(const wave *w, const xjit *j, const xinst *x) {
    return (j->scalar || vfull(w, x)) &&
           !(j->f32 && (fk_flush_in(w->mode, FK_F32) || fk_flush_out(w->mode, FK_F32))) &&
           !(j->ieee && !(w->mode & MODE_IEEE)) && x_jit_mem_go(w, j, x);
}
/* Run block j: its code, then its deferred scalar ops and MFMAs (runcode.c emits the same calls
 * for its blocks). */
static inline void x_jit_exec(wave *w, const xjit *j) {
    j->code(w);
    for (unsigned i = 0; i < j->ndefer; i++)
        j->defer[i]->fn(w, j->defer[i]);
    for (unsigned i = 0; i < j->nvdefer; i++)
        j->vdefer[i]->fn(w, j->vdefer[i]);
}
/* Run block j at x when x_jit_may allows it; 1 when it ran. */
static inline int x_jit_go(wave *w, const xjit *j, const xinst *x) {
    if (!x_jit_may(w, j, x))
        return 0;
    x_jit_exec(w, j);
    return 1;
}

/* The block at x (k 1) or its alt (k 2). */
static inline const xjit *x_jit_block(const xinst *x, int k) {
    return k == 1 ? x->jit : x->jit->alt;
}
/* Which block at x may run now: x->jit (1), or when it may not run its loads its alt (2), or
 * neither (0). */
static inline int x_jit_which(const wave *w, const xinst *x) {
    const xjit *j = x->jit;
    if (x_jit_mem_go(w, j, x))
        return x_jit_may(w, j, x);
    return j->alt && x_jit_may(w, j->alt, x) ? 2 : 0;
}

/* Run the block that starts at x (the one x_jit_which picks), which w->pc is at: the block that
 * ran, or NULL when the wave's state rules both out and the caller must run the instructions
 * itself. */
static inline const xjit *x_jit_run(wave *w, const xinst *x) {
    int k = x_jit_which(w, x);
    if (!k)
        return NULL;
    const xjit *j = x_jit_block(x, k);
    x_jit_exec(w, j);
    return j;
}

#endif
