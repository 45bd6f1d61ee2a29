/* exec.h - wave state, decoded programs and the instruction handlers (layer 4).
 *
 * A code object's .text is decoded once into a program: one xinst per instruction start, each
 * holding the decoded record, its handler and its constant operands already resolved to the
 * values the handler needs.  The wave loop is then: x = at[pc/4]; x->fn(w, x) for x and the
 * rest of its straight-line run (x->next, x->run; exec.c wave_run()).
 *
 * Register files are lane arrays: v[r][lane], a[r][lane].  The scalar file is indexed by the
 * source-operand encoding (s0..s101, flat_scratch 102-103, xnack_mask 104-105, vcc 106-107,
 * ttmp 108-123, m0 124, exec 126-127), so VCC/EXEC/M0 reads and writes need no special cases.
 */
#ifndef GFXEMU_EXEC_H
#define GFXEMU_EXEC_H

#include "isa/isa.h"
#include "mem/mem.h"

#include <stdint.h>

#define LANES 64
#define NVREG 272 /* 256 addressable + room for a 16-register range starting at v255 */
#define NSREG 256
/* Slot of the scalar file past the encodable registers (0-127) where a wave32 RDNA program
 * keeps EXEC_HI, which no lane follows in wave32 (src/exec/rdna.c x_rdna_exec_hi32()). */
#define XS_EXEC_HI32 128
/* Two slots past it where a wave32 vector instruction reading the 64-bit EXEC as a source finds
 * {EXEC_LO, EXEC_HI} (rdna.c r_exec64_src32() fills them before the instruction runs). */
#define XS_EXEC64_W32 129
/* Three pairs of slots where a paired wave32 vector instruction finds its lane-mask operands
 * as 64-bit masks, lanes 32-63 from the follower (src/exec/pair.c). */
#define XS_PAIR_MASK 240

/* WAVE_YIELD: the wave gave its turn up (s_sleep) and may run again at once; WAVE_GWS: it waits
 * in ds_gws_barrier / ds_gws_sema_p until gws.c's x_gws_poll() releases it.  Both are the
 * scheduler's business (src/dispatch/sched.c); wave_run() returns on them like on a barrier. */
enum { WAVE_RUNNING, WAVE_BARRIER, WAVE_DONE, WAVE_FAULT, WAVE_YIELD, WAVE_GWS };

typedef enum {
    XF_NONE = 0,
    XF_MEMORY,        /* address outside every allocation */
    XF_ILLEGAL,       /* word that is not an instruction on this target */
    XF_UNIMPLEMENTED, /* a valid instruction gfxemu cannot execute yet */
    XF_TRAP,          /* s_trap */
    XF_WATCHDOG,      /* instruction budget exhausted */
    XF_PC,            /* pc outside the code or inside an instruction */
    XF_LDS,           /* LDS access out of the workgroup's allocation */
    XF_HALT,          /* s_sethalt 1, s_sendmsghalt, s_sendmsg MSG_HALT_WAVES */
} xfault_kind;

enum { XS_GLOBAL, XS_LDS, XS_PRIVATE };

typedef struct xfault {
    int kind;
    uint32_t pc;   /* byte offset of the faulting instruction in .text */
    uint64_t addr; /* memory faults: first bad address */
    uint32_t size; /* access size in bytes */
    int write;
    uint64_t lanes;   /* lanes that faulted */
    uint8_t space;    /* memory faults: XS_GLOBAL, XS_LDS (flat LDS aperture: addr is an offset
                       * in the LDS) or XS_PRIVATE (the wave's private memory) */
    uint16_t op;      /* ISA_OP_* */
    const char *note; /* static text that completes the message, or NULL (round.c) */
} xfault;

typedef struct wave wave;
/* Bytes before struct wave's register files that put them on a 64-byte boundary (exec.c checks
 * it; change it with the fields before them). */
#define WAVE_PAD 40
typedef struct xinst xinst;

/* Memcheck (byte-exact checking, like compute-sanitizer's memcheck; src/exec/memcheck.c): every
 * global access that gmem_xlate() refuses but the page-granular rule allows is performed as the
 * hardware would and recorded here; accesses outside any page still fault.  Compiler-widened
 * scalar loads (naturally aligned, starting inside a buffer) are only counted. */
typedef struct xmc_rec {
    uint64_t addr;
    uint32_t pc, size;
    uint32_t wg[3], wave;
    uint16_t op;
    uint8_t write;
    int8_t lane; /* -1 for a scalar access */
} xmc_rec;

#define XMC_KEEP 1024 /* records kept per launch (all are counted) */
typedef struct xmemcheck {
    void *lock; /* a pthread_mutex_t (the dispatcher owns it) */
    xmc_rec rec[XMC_KEEP];
    uint64_t n;       /* errors found (may exceed XMC_KEEP) */
    uint64_t widened; /* widened scalar loads suppressed */
} xmemcheck;
typedef void (*xfn)(wave *, const xinst *);

/* Instruction classes for --stats; an op's class is its cls column in the per-op metadata
 * (src/isa/gen/opmeta.inc: SALU, VALU, ... name XC_SALU, XC_VALU, ...). */
enum { XC_SALU, XC_VALU, XC_VMEM, XC_SMEM, XC_LDS, XC_MFMA, XC_BRANCH, XC_OTHER, XC_N };

/* xinst.xf bits, set by xprog_build (RDNA programs: src/exec/rdna.c) so that the handlers that
 * care test one byte of the instruction instead of the wave's target, size or tier. */
enum {
    XI_MASK32 = 1, /* wave32: lane masks (VCC, a compare's or carry's SGPR) are one SGPR */
    XI_RDNA = 2,   /* gfx10+ rules: V_CMPX_* write EXEC only, never VCC or an SGPR */
    XI_DPP8 = 4,   /* RDNA DPP8: lane selectors in k[5] (valu.c dpp_src()) */
    XI_REF = 8,    /* built for the reference tier (x_set_fast_tier(0)): no fast path runs it */
};

struct xinst {
    xfn fn;
    /* The straight-line run wave_run() executes without looking at the pc: next is the
     * instruction that follows this one in the code (NULL after the last), run the number of
     * instructions from this one up to and including the first that ends a run (1-255, see
     * xprog_build()'s ends_run()), rcnt how many of them are in each class (XC_*, the --stats
     * counts wave_run() adds at the run's start).  Only the last of a run finds w->pc already
     * advanced past it; the handlers before it never read w->pc. */
    const xinst *next;
    uint32_t pc;
    uint8_t size, cls;
    uint8_t xf;    /* XI_* */
    uint8_t plain; /* VALU: no SDWA/DPP, no abs/neg/op_sel, no clamp/omod (valu.h vplain()) */
    uint8_t run;
    uint8_t pk; /* xprog_build installed the packed-f32 clone (exec.c pk_fits): jit.c */
    /* The one field a handler writes: how many times in a row (up to 255) a DS instruction's
     * lanes were not linear (lds.c lin_note()), with relaxed atomics since waves on several
     * host threads run the same instruction. */
    uint8_t nolin;
    uint8_t rcnt[XC_N];
    const struct xjit *jit; /* a native block starts here (src/exec/jit.h), or NULL */
    const void *tc;         /* this instruction's entry in the program's run code (runcode.c) */
    uint64_t k[6]; /* value of each constant source (inline or literal), typed per operand */
    isa_inst in;
};

typedef struct xprog {
    isa_arch arch;
    const uint8_t *code;
    uint32_t code_size;
    uint64_t code_va; /* address of code[0] as the kernel sees it (s_getpc) */
    xinst **at;       /* at[pc/4]: instruction starting at pc, or NULL */
    xinst *insts;
    uint32_t ninsts;
    xinst *subs;    /* VOPD halves, two per VOPD instruction (RDNA) */
    uint8_t wave32; /* RDNA wave32 program: lanes 32-63 never run, masks are 32 bits */
    uint8_t runs;   /* wave_run() may run straight-line runs (0: the reference tier) */
    /* A wave32 program's plan for paired waves (src/exec/pair.c; NULL: none), and the wave64
     * build of the same code whose vector instructions a pair runs. */
    struct xpair *pair;
    const struct xinst **pair_seq;
    const struct xprog *prog64;
    /* Native blocks (src/exec/jit.c), NULL: none; and the pair plan's (pair.c); and the blocks
     * without memory instructions over the instructions of those with them (xjit.alt). */
    struct xjitset *jit, *pair_jit, *jit_alt;
    const struct xjit **pair_seq_jit; /* the block starting at each pair_seq position, or NULL */
    /* The runs as code (src/exec/runcode.c; NULL: none): rc_enter(w, x->tc, &budget) runs the
     * run entered at x as run_straight() would, with the budget already charged for it, and
     * the runs after it while it can (giving back to *budget the instructions not run). */
    void *rc_mem;
    size_t rc_size;
    void (*rc_enter)(wave *w, const void *tc, uint64_t *budget);
} xprog;

struct wave {
    uint32_t s[NSREG];
    uint32_t scc;
    uint32_t pc; /* byte offset in the program */
    int status;
    uint32_t mode;
    uint8_t gpr_idx_on; /* s_set_gpr_idx_on: VALU operands picked by M0[15:12] get + M0[7:0] */
    uint8_t vskip;      /* s_setvskip: vector instructions are not issued */
    const xprog *prog;
    gmem *mem;
    gmem_cache cache;
    xmemcheck *mc;    /* memcheck mode: where to report (NULL: off) */
    uint64_t va_bias; /* added to code addresses the kernel sees (s_getpc): where the
                       * module's image sits in device memory (0: at its ELF addresses) */
    uint8_t *lds;     /* the workgroup's LDS */
    uint32_t lds_size;
    /* Set by the dispatcher (src/dispatch/) at wave start. */
    uint32_t wg_id[3];     /* workgroup id */
    uint32_t wave_id;      /* index of this wave in its workgroup */
    uint8_t *scratch;      /* this wave's private memory: 64 lanes x scratch_lane bytes, no other
                            * wave shares it; the layout inside is the memory handlers' choice */
    uint32_t scratch_lane; /* private bytes per lane (0: the kernel has no scratch) */
    uint64_t scratch_va;   /* the value FLAT_SCRATCH (s[102:103]) starts with: this wave's
                            * scratch base as the kernel sees it (architected flat scratch) */
    uint64_t budget;       /* remaining instructions before the watchdog fires */
    uint64_t count[XC_N];  /* executed wave-instructions per class */
    xfault fault;
    /* Global wave sync (gws.c): the launch's resources, and what this wave waits for. */
    struct xgws *gws;
    uint8_t gws_wait; /* XGWS_WAIT_* while status is WAVE_GWS */
    uint8_t gws_rid;
    uint64_t gws_gen;
    /* Racecheck (src/dispatch/race.c): called for every LDS byte range a lane accesses
     * (kind 0 read, 1 write, 2 atomic) when set; NULL on every ordinary launch. */
    void (*lds_watch)(void *ctx, wave *w, const xinst *x, uint32_t addr, uint32_t size, int kind);
    void *lds_watch_ctx;
    /* Paired wave32 waves (src/exec/pair.c): the leader's pair is its follower, whose VGPRs it
     * keeps in lanes 32-63 and for which it runs (the follower takes no turns of its own). */
    struct wave *pair;
    uint8_t pair_follower;
    uint16_t pair_nv; /* VGPRs the kernel has (the rows a split copies back) */
    /* The leader's SGPRs 0-127 known to hold the same value as the follower's (bit per SGPR):
     * a cache of pair.c's comparisons, never set for a pair that differs. */
    uint64_t pair_eq[2];
    /* A native block's store (src/exec/jit.c J_GSTORE): each chunk's host address (16 lanes
     * in AVX-512 code, 8 in AVX2 code), or NULL where the block's test sent the store to
     * x_jit_store. */
    uint8_t *jit_st[8];
    /* The register files start on a cache line (WAVE_PAD, checked in exec.c): with the wave
     * itself 64-byte aligned (the dispatcher's and the debugger's aligned_alloc), every 64-lane
     * row is four whole-line AVX-512 (or eight AVX2) accesses and a handler's store forwards to
     * the next instruction's load; at 24 bytes into a line every row straddled two.  They
     * follow the scalar state, which stays in the same pages as the first rows. */
    uint8_t pad_[WAVE_PAD];
    uint32_t v[NVREG][LANES];
    uint32_t a[NVREG][LANES];
};

static inline uint64_t wave_exec(const wave *w) {
    return w->s[ISA_SREG_EXEC_LO] | (uint64_t)w->s[ISA_SREG_EXEC_HI] << 32;
}
/* Lanes 0-31 of a register row copied (x_copy32), or a wave's lanes (x_row_copy: 32 for a
 * wave32 program, else 64) as straight-line 32-byte moves.  A memcpy whose size GCC does not
 * see (32 or 64 lanes), or a 256-byte one in a large function, became `rep movsq`, whose start
 * cost about as much as the instruction around it (v_mad_u64_u32 was a third of a loop's time).
 * Byte-aligned: vmem_lin copies global memory at any address (a dword load may be misaligned),
 * and UBSan stops on a misaligned access through a 4-byte-aligned type (test_hip's blits). */
typedef uint32_t x_v8u __attribute__((vector_size(32), aligned(1), may_alias));
static inline __attribute__((always_inline)) void x_copy32(uint32_t *d, const uint32_t *s) {
    x_v8u a = *(const x_v8u *)s, b = *(const x_v8u *)(s + 8), c = *(const x_v8u *)(s + 16),
          e = *(const x_v8u *)(s + 24);
    *(x_v8u *)d = a;
    *(x_v8u *)(d + 8) = b;
    *(x_v8u *)(d + 16) = c;
    *(x_v8u *)(d + 24) = e;
}
static inline __attribute__((always_inline)) void x_row_copy(uint32_t *d, const uint32_t *s,
                                                             int wave32) {
    x_copy32(d, s);
    if (!wave32)
        x_copy32(d + 32, s + 32);
}
/* Bit l of a 32-bit lane mask, as a table: lane loops that test EXEC through it vectorize even
 * in the baseline (SSE2) build, which has no per-lane variable shift. */
static const uint32_t lane_bit[32] = {
#define LANE_BIT4(i) 1u << (i), 1u << (i + 1), 1u << (i + 2), 1u << (i + 3)
    LANE_BIT4(0),  LANE_BIT4(4),  LANE_BIT4(8),  LANE_BIT4(12),
    LANE_BIT4(16), LANE_BIT4(20), LANE_BIT4(24), LANE_BIT4(28),
#undef LANE_BIT4
};
/* Four lanes' 16 bytes each (q0-q3: lanes l to l + 3, dwords 0-3) into the four register rows
 * d[0..3][l..l + 3]: a 4x4 dword transpose in SSE2 (x86-64's baseline), the wide loads of a
 * GEMM's LDS and global memory traffic without 16 scattered dword stores. */
#if defined(__SSE2__)
#include <emmintrin.h>
#define X_ROWS4 1
static inline
    __attribute__((always_inline)) void x_rows4(uint32_t (*d)[LANES], unsigned l, __m128i q0,
                                                __m128i q1, __m128i q2, __m128i q3) {
    __m128i t0 = _mm_unpacklo_epi32(q0, q1), t1 = _mm_unpacklo_epi32(q2, q3);
    __m128i t2 = _mm_unpackhi_epi32(q0, q1), t3 = _mm_unpackhi_epi32(q2, q3);
    _mm_storeu_si128((__m128i *)&d[0][l], _mm_unpacklo_epi64(t0, t1));
    _mm_storeu_si128((__m128i *)&d[1][l], _mm_unpackhi_epi64(t0, t1));
    _mm_storeu_si128((__m128i *)&d[2][l], _mm_unpacklo_epi64(t2, t3));
    _mm_storeu_si128((__m128i *)&d[3][l], _mm_unpackhi_epi64(t2, t3));
}
#endif
/* m[l] = all ones when lane l is set in exec, else 0. */
static inline __attribute__((always_inline)) void exec_lane_masks(uint64_t exec,
                                                                  uint32_t m[LANES]) {
    uint32_t lo = (uint32_t)exec, hi = (uint32_t)(exec >> 32);
    for (int l = 0; l < 32; l++)
        m[l] = 0u - (uint32_t)((lo & lane_bit[l]) != 0);
    for (int l = 0; l < 32; l++)
        m[l + 32] = 0u - (uint32_t)((hi & lane_bit[l]) != 0);
}
/* A sub-dword load's register value (FLAT/GLOBAL/MUBUF and DS alike): v holds the loaded bytes
 * (1 or 2), zero above them; sign: sign-extend them; half 0 fills the register, 1 writes the low
 * 16 bits (d16) and 2 the high 16 bits (d16_hi), keeping the other half of old. */
static inline uint32_t x_subdword(uint32_t v, unsigned bytes, int sign, int half, uint32_t old) {
    uint32_t x = bytes == 1 ? (sign ? (uint32_t)(int32_t)(int8_t)v : (uint8_t)v)
                            : (sign ? (uint32_t)(int32_t)(int16_t)v : (uint16_t)v);
    if (half == 0)
        return x;
    x &= 0xffffu;
    return half == 1 ? (old & 0xffff0000u) | x : (old & 0xffffu) | x << 16;
}
static inline void wave_set_exec(wave *w, uint64_t e) {
    w->s[ISA_SREG_EXEC_LO] = (uint32_t)e;
    w->s[ISA_SREG_EXEC_HI] = (uint32_t)(e >> 32);
}

/* The tier xprog_build() builds for.  1 (the default): the fast paths may run an instruction --
 * the VALU direct path and VV clones (valu.h), the vector-memory and scratch fast paths
 * (vmem.c), the MFMA fast path (mfma.c).  0: the reference interpreter alone, every instruction
 * through its general handler (XI_REF); tests/exec/test_tiers.c runs programs both ways and
 * compares the results bit for bit.  GFXEMU_TIER=reference in the environment starts a process
 * at 0.  Programs already built keep their tier. */
int x_fast_tier(void);
/* A switch read once from the environment into *cache (-1: not read yet): 0 when variable var is
 * set to off, else 1. */
int x_env_switch(int *cache, const char *var, const char *off);
void x_set_fast_tier(int on);

/* Which registers a wave of the kernel entering at entry_pc must find zero (zplan.c): VGPR rows
 * v[] and AGPR rows a[] (bit r of word r / 64) and, when all_sgprs, SGPRs past s127 (reachable
 * only by tuples that run past the encodable ones).  Returns 0 and ok = 0 when the program is
 * one the plan does not model (RDNA, dynamic register indexing, ...): zero everything. */
typedef struct xzplan {
    uint8_t ok, all_sgprs;
    /* s0-s127 in chunks of 16 (bit c: s[16c .. 16c+15]): the chunks the code names, and always
     * s96-s127 (FLAT_SCRATCH, VCC, TTMPs, M0, EXEC: read by instructions that do not name them).
     * Only these need their start values; the others are never read. */
    uint8_t s_chunks;
    uint64_t v[NVREG / 64 + 1], a[NVREG / 64 + 1];
} xzplan;
int x_zero_plan(const xprog *p, uint32_t entry_pc, xzplan *z);

/* Build a program from code bytes (decodes every instruction reachable by a linear sweep). */
int xprog_build(xprog *p, isa_arch arch, const uint8_t *code, uint32_t size, uint64_t va);
/* The same for waves of wave_lanes (32 or 64) lanes.  CDNA runs wave64 only; an RDNA program is
 * built for one wave size (src/exec/rdna.c: which ops run there, the register remap). */
int xprog_build_waves(xprog *p, isa_arch arch, const uint8_t *code, uint32_t size, uint64_t va,
                      unsigned wave_lanes);
/* The text of x as the code says it (RDNA programs keep their operands in the engine's register
 * numbering, see rdna.c; this undoes that for printing).  Returns isa_print()'s result. */
size_t xinst_print(const xinst *x, char *buf, size_t n);
void xprog_free(xprog *p);

/* Run a wave until it ends, faults, reaches a barrier, or its budget runs out. */
void wave_run(wave *w);
void wave_fault(wave *w, const xinst *x, int kind);
/* Run a VALU instruction under VGPR indexing (s_set_gpr_idx_on). */
void x_run_indexed(wave *w, const xinst *x);
/* Run x when the wave is in a rare mode (VSKIP, GPR indexing, MODE.FP_ROUND != 0): the slow path
 * of wave_run()/wave_step(); x_run_plain() is its tail without the rounding-mode step. */
void x_run_moded(wave *w, const xinst *x);
void x_run_plain(wave *w, const xinst *x);
/* MODE.FP16_OVFL (MODE[23], gfx9 and RDNA alike): overflowed f16 VALU results become +-MAX_FP16
 * (round.c x_run_f16_ovfl; MFMA applies it in mfma.c). */
#define MODE_FP16_OVFL (1u << 23)
static inline int wave_moded(const wave *w) {
    return w->gpr_idx_on | w->vskip | (w->mode & (15u | MODE_FP16_OVFL));
}
/* Run x, which w->pc is already past: through x_run_moded() when the wave is in a rare mode
 * (wave_run(), wave_step() and pair.c's runs of one instruction). */
static inline void x_run_one(wave *w, const xinst *x) {
    if (__builtin_expect(wave_moded(w), 0))
        x_run_moded(w, x);
    else
        x->fn(w, x);
}
/* Run x under a non-default MODE.FP_ROUND (round.c): correctly rounded in that mode, or a fault. */
void x_run_rounded(wave *w, const xinst *x);
/* The runs of p as code (runcode.c): 0, or -1 when out of memory; x_runcode_free unmaps it. */
int x_runcode_build(xprog *p);
void x_runcode_free(xprog *p);
/* Whether programs built from now on get run code (GFXEMU_RUNCODE=0 sets 0; tests). */
void x_set_runcode(int on);
/* Called from that code (exec.c): instruction x stopped the wave (the pc past it, the rest of
 * its run taken back from the counts: their number), or the native block of n instructions at x
 * did (exec.c jit_stopped); and which block at x may run (jit.h x_jit_which). */
uint64_t x_runcode_stop(wave *w, const xinst *x);
uint64_t x_runcode_jstop(wave *w, const xinst *x, unsigned n);
int x_runcode_which(wave *w, const xinst *x);
/* Run x (a VALU op) under MODE.FP16_OVFL = 1: as x_run_moded() would, then every f16 result that
 * overflowed to infinity is clamped to +-MAX_FP16 (round.c). */
void x_run_f16_ovfl(wave *w, const xinst *x);
/* Whether op writes f16 results (1), or f16 results that are infinite for a zero source as well
 * (2: rcp, rsq, log, div_fixup), or neither (0). */
int x_f16_result(unsigned op);
/* A memory fault at [addr, addr+size) (write: 1 for stores and atomics). */
void wave_mem_fault(wave *w, const xinst *x, uint64_t addr, uint32_t size, int write);
/* An out-of-range LDS access outside memcheck (lds.c): XLDS_SINK zeroed scratch bytes to read
 * (as 0) or write (dropped), as the hardware treats addresses past the allocation. */
#define XLDS_SINK 64
uint8_t *x_lds_sink(wave *w, const xinst *x, unsigned size);

/* The address a kernel sees for byte offset pc of its program (s_getpc, s_swappc, ...). */
static inline uint64_t wave_code_va(const wave *w, uint32_t pc) {
    return w->prog->code_va + w->va_bias + pc;
}

/* Global memory for [a, a+size): the byte-exact translation, else the page-granular one that
 * hardware allows (reported in memcheck mode), else NULL (the caller faults).  lane: the lane
 * of a vector access, -1 for a scalar one. */
void *x_gmem_miss(wave *w, const xinst *x, uint64_t a, uint64_t size, int write, int lane);
static inline void *x_gmem(wave *w, const xinst *x, uint64_t a, uint64_t size, int write,
                           int lane) {
    void *p =
        write ? gmem_xlate_w(w->mem, &w->cache, a, size) : gmem_xlate(w->mem, &w->cache, a, size);
    return p ? p : x_gmem_miss(w, x, a, size, write, lane);
}
/* Whether x_gmem() would give memory (nothing is reported). */
int x_gmem_ok(wave *w, uint64_t a, uint64_t size, int write);

/* Whether op (ISA_OP_*) has a handler, i.e. executes instead of faulting as unimplemented. */
int x_has_semantics(unsigned op);

/* Handler registration: families fill these tables (salu.c, valu.c, ...).  Every row names its
 * op by the literal lower-case mnemonic (ISA_OPL_*, src/isa/isa.h), through XROW() or a family's
 * row macro built on it, so `grep -rnw v_add_f32 src/exec` lands on the row
 * (tests/exec/test_handler_rows.py checks this for every op gfxemu decodes). */
typedef struct xhandler {
    uint16_t op;
    uint8_t type; /* ISA_T_* used to resolve constant sources (width from the operand) */
    xfn fn;
    xfn vv;          /* a V1/V2/V3 handler's plain-VGPR clone (valu.h VV), or NULL */
    uint8_t vv_nsrc; /* the sources the clones read; with XV_PK, vv is a packed-f32 clone */
    xfn vk;          /* its clone for a scalar or constant src0 (valu.h VV), or NULL */
    xfn vk1;         /* the same for a scalar or constant src1 (valu.h VV), or NULL */
} xhandler;
enum { XV_PK = 0x80 }; /* xhandler.vv_nsrc: vv runs the instructions exec.c pk_fits() accepts */
#define XROW(op, type, fn) {ISA_OPL_##op, type, fn, NULL, 0, NULL, NULL}

extern const xhandler x_salu_handlers[];
extern const unsigned x_salu_nhandlers;
/* VALU families (src/exec/valu*.c) */
extern const xhandler x_valu_handlers[], x_valu_int_handlers[], x_valu_f32_handlers[],
    x_valu_f64_handlers[], x_valu_f16_handlers[], x_valu_cvt_handlers[], x_valu_cmp_handlers[];
extern const unsigned x_valu_nhandlers, x_valu_int_nhandlers, x_valu_f32_nhandlers,
    x_valu_f64_nhandlers, x_valu_f16_nhandlers, x_valu_cvt_nhandlers, x_valu_cmp_nhandlers;
extern const xhandler x_smem_handlers[];
extern const unsigned x_smem_nhandlers;
extern const xhandler x_flat_handlers[];
extern const unsigned x_flat_nhandlers;
extern const xhandler x_lds_handlers[];
extern const unsigned x_lds_nhandlers;
extern const xhandler x_valu_scale_handlers[]; /* src/exec/valu_scale.c */
extern const unsigned x_valu_scale_nhandlers;
extern const xhandler x_mfma_handlers[]; /* src/exec/mfma.c */
extern const unsigned x_mfma_nhandlers;
/* Which build of the MFMA fast path runs: "avx512bf16", "avx512", "avx2", "generic" or "off"
 * (the CPU's best, or lower when the environment variable GFXEMU_MFMA_ISA asks;
 * src/exec/mfma.c). */
const char *mfma_fast_isa(void);
/* How many MFMAs the avx512bf16 build has run by dot products on the calling thread (mfma.c
 * mmk_dp).  For tests. */
uint64_t mfma_fast_dp_count(void);
/* A chunk c of n lanes (16 in AVX-512 code, 8 in AVX2 code) of a GLOBAL dword load in a block
 * that the block's own test sent here (vmem.c), hot the load's hot line: 1 when it faulted on
 * the chunk's lanes (the block then stores its registers and returns; exec.c jit_stopped gives
 * the wave the whole instruction's fault).  x_jit_fault_lanes() returns the first lane of the
 * chunk that faulted and sets *n to its width (LANES and 0 after a store, which runs after the
 * code).  x_jit_load_count: the calls blocks made on this thread to x_jit_load (one per chunk),
 * x_jit_store and x_jit_sload (tests; x_jit_slow). */
int x_jit_load(wave *w, const xinst *x, unsigned c, unsigned hot, const xinst *start, unsigned n);
unsigned x_jit_fault_lanes(unsigned *n);
/* A native block of the instructions xs[0..n) stopped w at a faulting load or store (pair.c's
 * runs; exec.c's own use the chain): w's registers as if the load's fault were the whole
 * instruction's (exec.c fault_fix); returns the index of the faulting instruction. */
unsigned x_jit_fault_seq(wave *w, const xinst *const *xs, unsigned n);
uint64_t x_jit_load_count(void);
extern _Thread_local uint64_t x_jit_slow;
/* A GLOBAL dword store ending a block, whose quarters the block's test did not all find in the
 * store's hot line `hot` (vmem.c): the whole instruction by its handler, after filling the hot
 * line from the first quarter's addresses where they are consecutive in one writable region.
 * 1 when it faulted. */
int x_jit_store(wave *w, const xinst *x, unsigned hot);
/* An s_load a block runs before its code, whose address its code did not find in the scalar hot
 * line (smem.c): the instruction by its handler, after filling the line with the region it
 * reads from.  1 when it faulted. */
int x_jit_sload(wave *w, const xinst *x);
/* Switches the MFMA fast path to the build named as GFXEMU_MFMA_ISA would name it (capped at
 * what the CPU has) and returns the name of the build now in use.  For tests, between waves. */
const char *mfma_fast_force(const char *want);
/* Empties the calling thread's cache of converted fp8/bf8 MFMA operands (mfma.c f8_lookup), so
 * that a test knows which entries a sequence of MFMAs fills and replaces.  For tests. */
void mfma_fast_cache_clear(void);
extern const xhandler x_gws_handlers[]; /* src/exec/gws.c */
extern const unsigned x_gws_nhandlers;

/* RDNA programs (src/exec/rdna.c): the allowlist resolved against the family handlers (by_op,
 * op_cls: exec.c's tables), an op's handler for a wave size (NULL: it does not run on RDNA;
 * *cls its --stats class), the VOPD half a v_dual_* op is (-1: none), and the operand remap
 * between RDNA's register encodings and the scalar file's (undo: back, for printing). */
void x_rdna_build(const xhandler *by_op, const uint8_t *op_cls, xfn unimpl);
const xhandler *x_rdna_handler(unsigned op, int wave32, uint8_t *cls);
int x_rdna_vopd_op(unsigned dual);
/* An RDNA instruction that changes no state in gfxemu (s_delay_alu, the wait counters, ...). */
int x_rdna_is_nop(const xinst *x);
int x_rdna_t16_ok(unsigned op);
int x_rdna_dpp_ok(unsigned op);
unsigned x_rdna_missing(const uint16_t **ops);
void x_rdna_remap(isa_inst *in, int undo);
/* A wave32 instruction whose scalar operands name EXEC_HI: renamed or wrapped (rdna.c). */
void x_rdna_exec_hi32(xinst *x);
/* VOPD: run both halves (x->k[0] points at them); _rbw when Y reads X's destination. */
void x_rdna_vopd(wave *w, const xinst *x);
/* vmem.c: a FLAT/GLOBAL/SCRATCH atomic of an xatomic.h operation (for RDNA-only ops) */
void x_flat_atomic(wave *w, const xinst *x, int aop, int is64);
/* lds.c: a DS atomic of an xatomic.h operation (for RDNA-only ops) */
void x_ds_atomic(wave *w, const xinst *x, int aop, int is64);
void x_rdna_vopd_rbw(wave *w, const xinst *x);
/* RDNA WMMA (src/exec/wmma.c). */
void x_rdna_wmma(wave *w, const xinst *x);

/* valu.c: a register-to-register move with an AGPR end (exec.c mov_rr_fits). */
void x_mov_rr(wave *w, const xinst *x);
/* mfma.c: x->fn, or x_mfma's clone for an MFMA whose fast-path tests pass when it is built. */
xfn x_mfma_pick(const xinst *x);
/* Whether x is an MFMA that x_mfma_pick() sent to the fast path (it cannot fault, and reads
 * nothing but its operands and MODE) with VGPR, AGPR or constant sources; then rows[] the
 * registers src0, src1 and src2 read and dst writes (jit.c runs such MFMAs after a block). */
int x_mfma_plain(const xinst *x, unsigned rows[4]);

/* Value of a special source (src_scc, src_execz, apertures, ...) read as n dwords. */
uint64_t x_special(const wave *w, unsigned enc, unsigned n);

/* The 32 bits in reverse order (S_BREV_B32, V_BFREV_B32). */
static inline uint32_t x_brev32(uint32_t v) {
    v = ((v >> 1) & 0x55555555u) | ((v & 0x55555555u) << 1);
    v = ((v >> 2) & 0x33333333u) | ((v & 0x33333333u) << 2);
    v = ((v >> 4) & 0x0f0f0f0fu) | ((v & 0x0f0f0f0fu) << 4);
    v = ((v >> 8) & 0x00ff00ffu) | ((v & 0x00ff00ffu) << 8);
    return (v >> 16) | (v << 16);
}

/* Scalar operand access (sources may be registers, inline constants or literals). */
static inline uint32_t x_s32(const wave *w, const xinst *x, int i) {
    const isa_opnd *o = &x->in.src[i];
    if (o->kind == ISA_OPND_SREG)
        return w->s[o->idx];
    if (o->kind == ISA_OPND_SPECIAL)
        return (uint32_t)x_special(w, o->idx, 1);
    return (uint32_t)x->k[i];
}
static inline uint64_t x_s64(const wave *w, const xinst *x, int i) {
    const isa_opnd *o = &x->in.src[i];
    if (o->kind == ISA_OPND_SREG)
        return w->s[o->idx] | (uint64_t)w->s[o->idx + 1] << 32;
    if (o->kind == ISA_OPND_SPECIAL)
        return x_special(w, o->idx, 2);
    return x->k[i];
}
static inline void x_sd32(wave *w, const xinst *x, uint32_t v) {
    unsigned d = x->in.dst[0].idx;
    if (d != 125) /* null */
        w->s[d] = v;
}
static inline void x_sd64(wave *w, const xinst *x, uint64_t v) {
    unsigned d = x->in.dst[0].idx;
    if (d != 125) {
        w->s[d] = (uint32_t)v;
        w->s[d + 1] = (uint32_t)(v >> 32);
    }
}

#endif
