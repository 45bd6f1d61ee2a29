/* jit.c - native code for straight-line blocks of lane-local VALU instructions (see jit.h).
 *
 * Code generation: the block's instructions are lowered to three-address operations on "keys"
 * (a VGPR row, a broadcast SGPR or a broadcast constant), then emitted once as the body of a
 * loop over the wave's 16-lane quarters (two in a wave32 program, whose lanes 32-63 are never
 * read; with AVX2 8-lane eighths).  In the body each key lives in one of the 32 zmm (16 ymm)
 * registers from its first use: a VGPR is loaded from its row (rsi + 256 * r, rsi advancing
 * by the chunk's bytes), an SGPR broadcast
 * from the scalar file (rdi), a constant broadcast from an immediate.  A result goes into a free
 * register and becomes its VGPR's; when none is free the key used furthest ahead is evicted (a
 * written VGPR stored first), and at the end of the body every written VGPR is stored.
 *
 * The operations are those of the clones' lane expressions (valu_int.c, valu_f32.c, valu_cvt.c,
 * valu_f16.c PKF32) under the conditions x_jit_go() checks: every lane active and f32
 * denormals kept, so the host's IEEE arithmetic (MXCSR: round to nearest even, no DAZ/FTZ) is
 * what the handlers compute too.  Only the NaN payload of an operation with two NaN inputs may
 * differ, as it already differs between the handlers' vector and scalar paths.  An SDWA source
 * select is two shifts of the source into a register of its own (valu.h sdwa_shifts, as the
 * handlers' fetch does); v_exp_f32 is exp2_f32's double-precision arithmetic, step for step;
 * v_perm_b32 byte shuffles (AVX-512 code needs AVX-512BW for it).
 *
 * Encodings: EVEX (AVX-512F: 32 zmm registers, 16 lanes) or on a host without it VEX (AVX2 and
 * FMA: 16 ymm registers, 8 lanes, no vpternlogd, opmasks or vcvtudq2ps: those as two or more
 * operations, or not taken), register-register forms, [base + disp32] memory forms and
 * [rip + disp32] into a constant pool at the start of the code (pool_fill).  Hosts with neither
 * build no blocks. */
#include "exec/jit.h"
#include "exec/rdna.h"

#include <pthread.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>
/* Blocks are x86-64 code; on other hosts none is built (the interpreter runs everything). */
#if defined(__x86_64__) && defined(__linux__)
#define JIT_HOST 1
#else
#define JIT_HOST 0
#endif

/* ThreadSanitizer builds: no memory instructions in blocks (their copies race as vmem.c's fast
 * paths' do, and those builds take the general path for every access) */
#if defined(__SANITIZE_THREAD__)
#define JIT_TSAN 1
#elif defined(__has_feature)
#if __has_feature(thread_sanitizer)
#define JIT_TSAN 1
#endif
#endif
#ifndef JIT_TSAN
#define JIT_TSAN 0
#endif

static int jit_on = -1, jit_enc = -1; /* jit_enc: x_set_jit's 2 or 3, else 0 */
/* The host: 2 AVX-512F, 1 AVX2 and FMA, 0 neither (no blocks); + 4 with AVX-512BW as well, + 8
 * with AVX-512DQ. */
static int host_caps(void) {
#if JIT_HOST
    static int host = -1;
    int h = __atomic_load_n(&host, __ATOMIC_RELAXED);
    if (h < 0) {
        __builtin_cpu_init();
        h = __builtin_cpu_supports("avx512f")                                 ? 2
            : __builtin_cpu_supports("avx2") && __builtin_cpu_supports("fma") ? 1
                                                                              : 0;
        if (h == 2 && __builtin_cpu_supports("avx512bw"))
            h |= 4;
        if (h & 2 && __builtin_cpu_supports("avx512dq"))
            h |= 8;
        __atomic_store_n(&host, h, __ATOMIC_RELAXED);
    }
    return h;
#else
    return 0;
#endif
}
static int host_isa(void) { return host_caps() & 3; }
int x_jit_host(void) { return host_isa(); }
/* AVX-512BW (byte shuffles, blends and compares: v_perm_b32's code) on an AVX-512F host */
static int host_bw(void) { return host_caps() >> 2 & 1; }
int x_jit_enabled(void) { return host_isa() && x_env_switch(&jit_on, "GFXEMU_JIT", "0"); }
/* The encoding asked for: 2 AVX2 (GFXEMU_JIT=avx2, x_set_jit(2)), 3 AVX-512 without the
 * AVX-512DQ forms (GFXEMU_JIT=avx512f, x_set_jit(3)), 0 the host's best. */
static int asked_enc(void) {
    int f = __atomic_load_n(&jit_enc, __ATOMIC_RELAXED);
    if (f < 0) {
        const char *e = getenv("GFXEMU_JIT");
        f = !e ? 0 : !strcmp(e, "avx2") ? 2 : !strcmp(e, "avx512f") ? 3 : 0;
        __atomic_store_n(&jit_enc, f, __ATOMIC_RELAXED);
    }
    return f;
}
/* AVX2 code: on an AVX2 host, or when asked for. */
static int use_avx2(void) { return asked_enc() == 2 || host_isa() == 1; }
/* AVX-512DQ forms in AVX-512 code (v_exp_f32's vrangeps and vreducepd) */
static int use_dq(void) { return host_caps() >> 3 & 1 && asked_enc() != 3; }
void x_set_jit(int mode) {
    __atomic_store_n(&jit_on, mode ? 1 : 0, __ATOMIC_RELAXED);
    __atomic_store_n(&jit_enc, mode >= 2 ? mode : 0, __ATOMIC_RELAXED);
}

static uint64_t n_blocks, n_insts;
void x_jit_counts(uint64_t *blocks, uint64_t *insts) {
    *blocks = __atomic_load_n(&n_blocks, __ATOMIC_RELAXED);
    *insts = __atomic_load_n(&n_insts, __ATOMIC_RELAXED);
}

/* ---- operations ---------------------------------------------------------------------------- */

enum {
    J_ADDF = 1,
    J_SUBF,
    J_SUBRF,
    J_MULF,
    J_FMA,
    J_MOV,
    J_ADD,
    J_SUB,
    J_SUBR,
    J_MULLO,
    J_LSHLREV,
    J_LSHRREV,
    J_ASHRREV,
    J_AND,
    J_OR,
    J_XOR,
    J_XNOR,
    J_NOT,
    J_ADD3,
    J_LSHLADD,
    J_ADDLSHL,
    J_LSHLOR,
    J_ANDOR,
    J_OR3,
    J_XOR3,
    J_XAD,
    J_MAXU,
    J_MINU,
    J_MAXI,
    J_MINI,
    J_MULU24,
    J_MADU24,
    J_CVTFU,
    J_CVTFI,
    /* v_exp_f32: valu.h exp2_f32's double-precision steps, the same operations in the same
     * order (emit_exp2, emit_exp2_vex).  (Before J_PKFMA: the kinds from there on have paths of
     * their own in lower_op.) */
    J_EXPF,
    /* v_perm_b32: byte shuffles (emit_perm: AVX-512BW; emit_perm_vex) */
    J_PERM,
    J_PKFMA,
    J_PKMUL,
    J_PKADD,
    J_L64ADD,
    J_L64LO,
    J_L64HI,
    J_SHL64,
    J_SHL64LO,
    J_SHL64HI,
    J_MOV64,
    /* f32 max / min with the IEEE-mode NaN rules (valu.h FMINMAX); the 3-source forms as two;
     * blocks with them run only with MODE.IEEE set */
    J_MAXF,
    J_MINF,
    J_MAX3F,
    J_MIN3F,
    /* lane masks: compares write one, v_cndmask reads one, the carry forms do both (lop.mw,
     * lop.mr: the SGPR written / read) */
    J_CMPI,  /* signed compare, the predicate in lop.imm (vpcmpd) */
    J_CMPU,  /* unsigned (vpcmpud) */
    J_CMPF,  /* f32 (vcmpps) */
    J_CMP64, /* 64-bit equal / not equal: lop.s = a.lo, b.lo, a.hi, b.hi */
    J_CNDMASK,
    J_ADDCO,
    J_SUBCO,
    J_SUBRCO,
    J_ADDC,
    J_SUBB,
    J_SUBBR,
    /* v_mad_u64_u32 / v_mad_i64_i32: lowered to the high half (with the carry, lop.imm 1 when
     * signed), then the low half; both read s = A, B, C.lo (the high one also C.hi) */
    J_MADU64,
    J_MADI64,
    J_MADHI,
    J_MADLO,
    /* s_and/or/xor/andn2_b64 on lane masks (lower_klogic): chunk by chunk, lop.imm the op */
    J_KLOGIC,
    /* global_load_dword (lower_gload): d = the dwords at the chunk's addresses, s[0] the
     * address (low half) or the offset VGPR, s[1] the high half (-1 with saddr), s[2], s[3] the
     * saddr SGPR pair (-1 without: only there for the dependency tests, the code reads the
     * pair from the wave), lop.imm the instruction's index in gen.mem, lop.acc its hot line */
    J_GLOAD,
    /* global_store_dword ending a block (lower_gstore): the same sources; the data VGPR is the
     * instruction's.  The loop only finds each chunk's host address (wave.jit_st); the
     * stores follow the loop (emit_st_tail), after every load of the block as in program order */
    J_GSTORE
};

/* The ops with a block form, by the id the decoder (and rdna.c's remapping) gives them, their
 * source count and whether they are f32 arithmetic. */
static const struct {
    uint16_t op;
    uint8_t kind, nsrc, f32;
} jops[] = {
    {ISA_OPL_v_add_f32, J_ADDF, 2, 1},
    {ISA_OPL_v_sub_f32, J_SUBF, 2, 1},
    {ISA_OPL_v_subrev_f32, J_SUBRF, 2, 1},
    {ISA_OPL_v_mul_f32, J_MULF, 2, 1},
    {ISA_OPL_v_fma_f32, J_FMA, 3, 1},
    {ISA_OPL_v_fmac_f32, J_FMA, 3, 1},
    {ISA_OPL_v_fmamk_f32, J_FMA, 3, 1},
    {ISA_OPL_v_fmaak_f32, J_FMA, 3, 1},
    {ISA_OPL_v_mov_b32, J_MOV, 1, 0},
    {ISA_OPL_v_add_u32, J_ADD, 2, 0},
    {ISA_OPL_v_add_nc_u32, J_ADD, 2, 0},
    {ISA_OPL_v_sub_u32, J_SUB, 2, 0},
    {ISA_OPL_v_sub_nc_u32, J_SUB, 2, 0},
    {ISA_OPL_v_subrev_u32, J_SUBR, 2, 0},
    {ISA_OPL_v_subrev_nc_u32, J_SUBR, 2, 0},
    {ISA_OPL_v_mul_lo_u32, J_MULLO, 2, 0},
    {ISA_OPL_v_lshlrev_b32, J_LSHLREV, 2, 0},
    {ISA_OPL_v_lshrrev_b32, J_LSHRREV, 2, 0},
    {ISA_OPL_v_ashrrev_i32, J_ASHRREV, 2, 0},
    {ISA_OPL_v_and_b32, J_AND, 2, 0},
    {ISA_OPL_v_or_b32, J_OR, 2, 0},
    {ISA_OPL_v_xor_b32, J_XOR, 2, 0},
    {ISA_OPL_v_xnor_b32, J_XNOR, 2, 0},
    {ISA_OPL_v_not_b32, J_NOT, 1, 0},
    {ISA_OPL_v_add3_u32, J_ADD3, 3, 0},
    {ISA_OPL_v_lshl_add_u32, J_LSHLADD, 3, 0},
    {ISA_OPL_v_add_lshl_u32, J_ADDLSHL, 3, 0},
    {ISA_OPL_v_lshl_or_b32, J_LSHLOR, 3, 0},
    {ISA_OPL_v_and_or_b32, J_ANDOR, 3, 0},
    {ISA_OPL_v_or3_b32, J_OR3, 3, 0},
    {ISA_OPL_v_xor3_b32, J_XOR3, 3, 0},
    {ISA_OPL_v_xad_u32, J_XAD, 3, 0},
    {ISA_OPL_v_max_u32, J_MAXU, 2, 0},
    {ISA_OPL_v_min_u32, J_MINU, 2, 0},
    {ISA_OPL_v_max_i32, J_MAXI, 2, 0},
    {ISA_OPL_v_min_i32, J_MINI, 2, 0},
    {ISA_OPL_v_mul_u32_u24, J_MULU24, 2, 0},
    {ISA_OPL_v_mad_u32_u24, J_MADU24, 3, 0},
    {ISA_OPL_v_cvt_f32_u32, J_CVTFU, 1, 0},
    {ISA_OPL_v_cvt_f32_i32, J_CVTFI, 1, 0},
    {ISA_OPL_v_exp_f32, J_EXPF, 1, 1},
    {ISA_OPL_v_perm_b32, J_PERM, 3, 0},
    {ISA_OPL_v_pk_fma_f32, J_PKFMA, 3, 1},
    {ISA_OPL_v_pk_mul_f32, J_PKMUL, 2, 1},
    {ISA_OPL_v_pk_add_f32, J_PKADD, 2, 1},
    {ISA_OPL_v_lshl_add_u64, J_L64ADD, 3, 0},
    {ISA_OPL_v_lshlrev_b64, J_SHL64, 2, 0},
    {ISA_OPL_v_mov_b64, J_MOV64, 1, 0},
    {ISA_OPL_v_max_f32, J_MAXF, 2, 1},
    {ISA_OPL_v_min_f32, J_MINF, 2, 1},
    {ISA_OPL_v_max3_f32, J_MAX3F, 3, 1},
    {ISA_OPL_v_min3_f32, J_MIN3F, 3, 1},
    {ISA_OPL_v_cndmask_b32, J_CNDMASK, 2, 0},
    {ISA_OPL_v_mad_u64_u32, J_MADU64, 3, 0},
    {ISA_OPL_v_mad_i64_i32, J_MADI64, 3, 0},
    {ISA_OPL_v_add_co_u32, J_ADDCO, 2, 0},
    {ISA_OPL_v_sub_co_u32, J_SUBCO, 2, 0},
    {ISA_OPL_v_subrev_co_u32, J_SUBRCO, 2, 0},
    {ISA_OPL_v_addc_co_u32, J_ADDC, 2, 0},
    {ISA_OPL_v_add_co_ci_u32, J_ADDC, 2, 0},
    {ISA_OPL_v_subb_co_u32, J_SUBB, 2, 0},
    {ISA_OPL_v_sub_co_ci_u32, J_SUBB, 2, 0},
    {ISA_OPL_v_subbrev_co_u32, J_SUBBR, 2, 0},
    {ISA_OPL_v_subrev_co_ci_u32, J_SUBBR, 2, 0},
};
/* The compares with a block form, found by name (v_cmp_<cond>_<i32|u32|f32>; not v_cmpx, which
 * writes EXEC, nor v_cmp_class): the AVX-512 predicate of each condition.  Integer: vpcmpd /
 * vpcmpud's (EQ 0, LT 1, LE 2, NE 4, NLT 5, NLE 6).  f32: vcmpps's, chosen for the AMD
 * meaning: lt/le/gt/ge/eq/lg/o are ordered (false when an input is NaN), neq/nlt/nle/ngt/nge/u
 * are true then (AMD ISA manuals, "VOPC"). */
static const struct {
    const char *cond;
    uint8_t ipred, fpred; /* 0xff: no such compare */
} jcmps[] = {
    {"eq", 0, 0x00},     {"ne", 4, 0xff},     {"lt", 1, 0x01},     {"le", 2, 0x02},
    {"gt", 6, 0x0e},     {"ge", 5, 0x0d},     {"lg", 0xff, 0x0c},  {"neq", 0xff, 0x04},
    {"nlt", 0xff, 0x05}, {"nle", 0xff, 0x06}, {"ngt", 0xff, 0x0a}, {"nge", 0xff, 0x09},
    {"o", 0xff, 0x07},   {"u", 0xff, 0x03},
};

static uint8_t kind_of[ISA_NOPS], nsrc_of[ISA_NOPS], f32_of[ISA_NOPS], pred_of[ISA_NOPS];
/* Scalar ops a block may run after its code (pure ALU, by mnemonic prefix; none that touches
 * EXEC or indexes SGPRs through M0), and the emulator's no-ops it leaves out. */
static const char *const defer_prefix[] = {
    "s_add_",   "s_sub_",   "s_addc_",    "s_subb_",  "s_mul_",       "s_mov_b",     "s_movk_",
    "s_cmov",   "s_cmp",    "s_cselect_", "s_and_b",  "s_or_b",       "s_xor_b",     "s_andn2_b",
    "s_orn2_b", "s_nand_b", "s_nor_b",    "s_xnor_b", "s_lshl",       "s_lshr_",     "s_ashr_",
    "s_bfe_",   "s_bfm_",   "s_not_b",    "s_brev_",  "s_bcnt",       "s_ff0_",      "s_ff1_",
    "s_flbit_", "s_sext_",  "s_abs_",     "s_min_",   "s_max_",       "s_absdiff_",  "s_addk_",
    "s_mulk_",  "s_cmpk_",  "s_pack_",    "s_bitset", "s_and_not1_b", "s_or_not1_b",
};
/* Per op, worked out from its mnemonic the first time it is asked (0 not yet, 1 no, 2 yes):
 * whether a block may run it after its code, and whether it is one of the emulator's no-ops. */
static uint8_t defer_op[ISA_NOPS], nop_op[ISA_NOPS];
static int by_name(uint8_t *cache, unsigned op, int (*test)(const char *)) {
    uint8_t c = __atomic_load_n(&cache[op], __ATOMIC_RELAXED);
    if (!c) {
        const char *n = isa_op_names[op];
        c = n && test(n) ? 2 : 1;
        __atomic_store_n(&cache[op], c, __ATOMIC_RELAXED);
    }
    return c == 2;
}
static int defer_name(const char *n) {
    if (strstr(n, "exec") || strstr(n, "movrel"))
        return 0;
    for (size_t i = 0; i < sizeof defer_prefix / sizeof defer_prefix[0]; i++)
        if (!strncmp(n, defer_prefix[i], strlen(defer_prefix[i])))
            return 1;
    return 0;
}
static int nop_name(const char *n) {
    return !strcmp(n, "s_nop") || !strcmp(n, "s_waitcnt") || !strcmp(n, "s_delay_alu");
}

static void fill_tables(void) {
    for (size_t i = 0; i < sizeof jops / sizeof jops[0]; i++) {
        kind_of[jops[i].op] = jops[i].kind;
        nsrc_of[jops[i].op] = jops[i].nsrc;
        f32_of[jops[i].op] = jops[i].f32;
    }
    for (unsigned op = 0; op < ISA_NOPS; op++) {
        const char *n = isa_op_names[op];
        if (!n || strncmp(n, "v_cmp_", 6))
            continue;
        for (size_t i = 0; i < sizeof jcmps / sizeof jcmps[0]; i++) {
            size_t l = strlen(jcmps[i].cond);
            const char *t = n + 6 + l;
            if (strncmp(n + 6, jcmps[i].cond, l) || *t != '_')
                continue;
            int f = !strcmp(t, "_f32"), u = !strcmp(t, "_u32"), si = !strcmp(t, "_i32");
            int q = !strcmp(t, "_u64") || !strcmp(t, "_i64");
            uint8_t pred = f ? jcmps[i].fpred : jcmps[i].ipred;
            if (q && (pred == 0 || pred == 4)) { /* 64-bit: equal and not equal */
                kind_of[op] = J_CMP64;
                nsrc_of[op] = 2;
                pred_of[op] = pred;
            } else if ((f || u || si) && pred != 0xff) {
                kind_of[op] = f ? J_CMPF : u ? J_CMPU : J_CMPI;
                nsrc_of[op] = 2;
                f32_of[op] = (uint8_t)f;
                pred_of[op] = pred;
            }
        }
    }
}
static void init_tables(void) {
    static pthread_once_t once = PTHREAD_ONCE_INIT;
    pthread_once(&once, fill_tables);
}

/* Keys: VGPR r is r, SGPR s is KS + s, constant i of the block is KK + i. */
enum { KS = 1024, KK = 2048, KMAX = 4096, NK = 1024 };
enum { KM_ONES = -2, KM_ZERO = -3 }; /* J_KLOGIC's constant masks (-1: none) */
/* A deferred entry that only sets SCC from a J_KLOGIC op's slot (the block's k-th such entry,
 * its k-th mask op's): the op's address with bit 0 set (emit_block). */
#define KSCC_TAG(x) ((const xinst *)((uintptr_t)(x) | 1))
#define IS_KSCC(x) (((uintptr_t)(x) & 1) != 0)
#define IS_K(k) ((k) >= KK)

/* A lowered operation: d = kind(s[0], s[1], s[2]) with s[3] a helper constant (shift masks). */
typedef struct lop {
    uint8_t kind, ns, imm; /* imm: J_L64LO/J_L64HI's shift, a compare's predicate */
    int16_t d;             /* -1: none (a compare) */
    int16_t s[4];
    int16_t mw, mr; /* the lane mask written / read: its SGPR (-1 none), chunk c's bits at byte
                     * 2c (AVX2 c) of it */
    int16_t mr2;    /* J_KLOGIC's second mask read (mr the first); KM_ONES / KM_ZERO: a constant */
    uint8_t acc;    /* J_KLOGIC: its slot (the block's mask ops in order) for its SCC (emit) */
    uint8_t sel[2]; /* an SDWA source select of s[0] / s[1] (a register): 0 none, else 1 + the
                     * select (BYTE_0-3, WORD_0/1: 0-5) | 8 when sign-extended */
} lop;

typedef struct gen {
    uint8_t *buf;
    size_t len, cap;
    int fail;
    lop *ops;
    int nops;
    uint32_t kval[NK]; /* constant values */
    int nk;
    /* register allocation: the key each zmm holds (-1 none), written since loaded, in use */
    int avx2; /* VEX-encoded AVX2 (16 ymm registers, 8 lanes) instead of AVX-512 (32 zmm, 16) */
    int bw;   /* AVX-512 code may use AVX-512BW */
    int dq;   /* and AVX-512DQ */
    int nreg; /* 32 or 16 */
    int key[32];
    uint8_t dirty[32], pin[32];
    int16_t where[KMAX]; /* the zmm holding each key, -1 */
    int masks;           /* an operation reads or writes a lane mask: rdx points at it */
    size_t lanebits;     /* AVX2: offset in buf of the dwords 1 << l, l = 0..7 */
    size_t pool;         /* AVX-512: offset in buf of the constants emit_exp2 reads (P_*) */
    int mem_ok;          /* lower_access may take an access here (block()) */
    int nmem;            /* the block's loads and store, in gen.mem */
    unsigned hot0;       /* the hot line of its first load (the next ones follow) */
    unsigned hotst;      /* its store's (of the two for stores) */
    const xinst *start;  /* its first instruction */
    int st;              /* the operation that is its store, -1 none */
    const xinst *mem[16];
} gen;

static int kconst(gen *g, uint32_t v) {
    for (int i = 0; i < g->nk; i++)
        if (g->kval[i] == v)
            return KK + i;
    if (g->nk == NK)
        return -1;
    g->kval[g->nk] = v;
    return KK + g->nk++;
}

/* ---- x86-64 encoding ----------------------------------------------------------------------- */

static void put(gen *g, uint8_t b) {
    if (g->len == g->cap) {
        size_t cap = g->cap ? 2 * g->cap : 4096;
        uint8_t *nb = realloc(g->buf, cap);
        if (!nb) {
            g->fail = 1;
            return;
        }
        g->buf = nb;
        g->cap = cap;
    }
    g->buf[g->len++] = b;
}
static void put32(gen *g, uint32_t v) {
    for (int i = 0; i < 4; i++)
        put(g, (uint8_t)(v >> (8 * i)));
}

enum { PP_NONE, PP_66, PP_F3, PP_F2 };
enum { MM_0F = 1, MM_0F38, MM_0F3A };
enum { R_RSI = 6, R_RDI = 7 };

/* ModRM (and disp32): register rm, or when rm < 0 the memory operand [base + disp32]. */
static void modrm(gen *g, unsigned reg, int rm, unsigned base, int32_t disp) {
    if (rm >= 0) {
        put(g, (uint8_t)(0xc0 | ((reg & 7) << 3) | ((unsigned)rm & 7)));
    } else {
        put(g, (uint8_t)(0x80 | ((reg & 7) << 3) | (base & 7)));
        put32(g, (uint32_t)disp);
    }
}

/* EVEX.512 instruction: ModRM.reg = reg, EVEX.vvvv = vvvv (0 when unused), ModRM.rm = register
 * rm, or when rm < 0 the memory operand [base + disp32]. */
static void evex_kw(gen *g, unsigned pp, unsigned mm, uint8_t opc, unsigned reg, unsigned vvvv,
                    int rm, unsigned base, int32_t disp, unsigned k, unsigned w);
static void evex_k(gen *g, unsigned pp, unsigned mm, uint8_t opc, unsigned reg, unsigned vvvv,
                   int rm, unsigned base, int32_t disp, unsigned k) {
    evex_kw(g, pp, mm, opc, reg, vvvv, rm, base, disp, k, 0);
}
static void evex_kw(gen *g, unsigned pp, unsigned mm, uint8_t opc, unsigned reg, unsigned vvvv,
                    int rm, unsigned base, int32_t disp, unsigned k, unsigned w) {
    unsigned r = (reg >> 3) & 1, rp = (reg >> 4) & 1, v = vvvv & 15, vp = (vvvv >> 4) & 1;
    unsigned b = rm >= 0 ? ((unsigned)rm >> 3) & 1 : (base >> 3) & 1;
    unsigned xx = rm >= 0 ? ((unsigned)rm >> 4) & 1 : 0;
    put(g, 0x62);
    put(g, (uint8_t)((!r << 7) | (!xx << 6) | (!b << 5) | (!rp << 4) | mm));
    put(g, (uint8_t)((w << 7) | ((~v & 15) << 3) | 4 | pp));
    put(g, (uint8_t)(0x40 | (!vp << 3) | (k & 7))); /* z0 (merging), L'L = 512, opmask k */
    put(g, opc);
    modrm(g, reg, rm, base, disp);
}
static void evex(gen *g, unsigned pp, unsigned mm, uint8_t opc, unsigned reg, unsigned vvvv, int rm,
                 unsigned base, int32_t disp) {
    evex_k(g, pp, mm, opc, reg, vvvv, rm, base, disp, 0);
}

/* VEX.256 (three-byte form, W0) with the same operands; registers 0-15 only. */
static void vex(gen *g, unsigned pp, unsigned mm, uint8_t opc, unsigned reg, unsigned vvvv, int rm,
                unsigned base, int32_t disp) {
    unsigned r = (reg >> 3) & 1, b = rm >= 0 ? ((unsigned)rm >> 3) & 1 : (base >> 3) & 1;
    put(g, 0xc4);
    put(g, (uint8_t)((!r << 7) | (1 << 6) | (!b << 5) | mm));
    put(g, (uint8_t)(((~vvvv & 15) << 3) | 4 | pp)); /* W0, L = 256 bits */
    put(g, opc);
    modrm(g, reg, rm, base, disp);
}
/* The instruction in the block's encoding (the opcodes used here are the same in both). */
static void vop(gen *g, unsigned pp, unsigned mm, uint8_t opc, unsigned reg, unsigned vvvv, int rm,
                unsigned base, int32_t disp) {
    if (g->avx2)
        vex(g, pp, mm, opc, reg, vvvv, rm, base, disp);
    else
        evex(g, pp, mm, opc, reg, vvvv, rm, base, disp);
}

/* d = a op b (vvvv = a, rm = b) */
static void op3(gen *g, unsigned pp, unsigned mm, uint8_t opc, int d, int a, int b) {
    vop(g, pp, mm, opc, (unsigned)d, (unsigned)a, b, 0, 0);
}
#define VADDPS(g, d, a, b) op3(g, PP_NONE, MM_0F, 0x58, d, a, b)
#define VMULPS(g, d, a, b) op3(g, PP_NONE, MM_0F, 0x59, d, a, b)
#define VSUBPS(g, d, a, b) op3(g, PP_NONE, MM_0F, 0x5c, d, a, b)
#define VFMADD231PS(g, d, a, b) op3(g, PP_66, MM_0F38, 0xb8, d, a, b) /* d = a * b + d */
#define VPADDD(g, d, a, b) op3(g, PP_66, MM_0F, 0xfe, d, a, b)
#define VPSUBD(g, d, a, b) op3(g, PP_66, MM_0F, 0xfa, d, a, b)
#define VPANDD(g, d, a, b) op3(g, PP_66, MM_0F, 0xdb, d, a, b)
#define VPORD(g, d, a, b) op3(g, PP_66, MM_0F, 0xeb, d, a, b)
#define VPXORD(g, d, a, b) op3(g, PP_66, MM_0F, 0xef, d, a, b)
#define VPANDND(g, d, a, b) op3(g, PP_66, MM_0F, 0xdf, d, a, b) /* d = ~a & b */
#define VPMULLD(g, d, a, b) op3(g, PP_66, MM_0F38, 0x40, d, a, b)
#define VPSLLVD(g, d, a, b) op3(g, PP_66, MM_0F38, 0x47, d, a, b) /* d = a << b */
#define VPSRLVD(g, d, a, b) op3(g, PP_66, MM_0F38, 0x45, d, a, b)
#define VPSRAVD(g, d, a, b) op3(g, PP_66, MM_0F38, 0x46, d, a, b)
#define VPMAXUD(g, d, a, b) op3(g, PP_66, MM_0F38, 0x3f, d, a, b)
#define VPMINUD(g, d, a, b) op3(g, PP_66, MM_0F38, 0x3b, d, a, b)
#define VPMAXSD(g, d, a, b) op3(g, PP_66, MM_0F38, 0x3d, d, a, b)
#define VPMINSD(g, d, a, b) op3(g, PP_66, MM_0F38, 0x39, d, a, b)
#define VMOVDQA32(g, d, a) op3(g, PP_66, MM_0F, 0x6f, d, 0, a)
#define VCVTDQ2PS(g, d, a) op3(g, PP_NONE, MM_0F, 0x5b, d, 0, a)
#define VCVTUDQ2PS(g, d, a) op3(g, PP_F2, MM_0F, 0x7a, d, 0, a)
/* AVX2 code (VEX): blend by a vector's sign bits, compare into a vector */
#define VBLENDVPS(d_, x_, y_, k_) /* d = k ? y : x */                                              \
    (vop(g, PP_66, MM_0F3A, 0x4a, (unsigned)(d_), (unsigned)(x_), (y_), 0, 0),                     \
     put(g, (uint8_t)((k_) << 4)))
#define VCMPPS(d_, x_, y_, pr_)                                                                    \
    (vop(g, PP_NONE, MM_0F, 0xc2, (unsigned)(d_), (unsigned)(x_), (y_), 0, 0), put(g, (pr_)))
/* d = ternary(d, a, b) by the truth table imm (bit 4d + 2a + b) */
static void vpternlogd(gen *g, int d, int a, int b, uint8_t imm) {
    op3(g, PP_66, MM_0F3A, 0x25, d, a, b);
    put(g, imm);
}
/* d = ternary(a, b, c) by the truth table imm (bit 4a + 2b + c); AVX2 has no vpternlogd: the
 * imms used here as two operations, m all ones (the lowered op's helper constant) */
static void tern(gen *g, int d, int a, int b, int c, int m, uint8_t imm) {
    if (!g->avx2) {
        VMOVDQA32(g, d, a);
        vpternlogd(g, d, b, c, imm);
        return;
    }
    switch (imm) {
    case 0xc3: VPXORD(g, d, a, b), VPXORD(g, d, d, m); break; /* ~(a ^ b) */
    case 0x0f: VPXORD(g, d, a, m); break;                     /* ~a */
    case 0xea: VPANDD(g, d, a, b), VPORD(g, d, d, c); break;  /* (a & b) | c */
    case 0xfe: VPORD(g, d, a, b), VPORD(g, d, d, c); break;   /* a | b | c */
    case 0x96: VPXORD(g, d, a, b), VPXORD(g, d, d, c); break; /* a ^ b ^ c */
    default: g->fail = 1;
    }
}
/* Opmask registers (AVX-512): k = compare(a, b) by pred, under opmask km (0: none) -- vpcmpd,
 * vpcmpud or vcmpps; kmovw between k and the mask's 16 bits of this chunk ([rdx + 4 m]);
 * k = k1 | k2; vptestnmd k{km} = (a & b) == 0; d{k} = k ? b : a (vpblendmd). */
static void vcmp_k(gen *g, unsigned kind, unsigned k, int a, int b, uint8_t pred, unsigned km) {
    if (kind == J_CMPF)
        evex_k(g, PP_NONE, MM_0F, 0xc2, k, (unsigned)a, b, 0, 0, km);
    else
        evex_k(g, PP_66, MM_0F3A, kind == J_CMPI ? 0x1f : 0x1e, k, (unsigned)a, b, 0, 0, km);
    put(g, pred);
}
static void kmov_mask(gen *g, int store, unsigned k, int m) { /* kmovw k, m16 / m16, k */
    put(g, 0xc5), put(g, 0xf8), put(g, store ? 0x91 : 0x90);
    modrm(g, k, -1, 2 /* rdx */, 4 * m);
}
static void kop(gen *g, uint8_t opc, unsigned k, unsigned k1, unsigned k2) { /* k = k1 op k2 */
    put(g, 0xc5), put(g, (uint8_t)(0x80 | ((~k1 & 15) << 3) | 4)), put(g, opc);
    put(g, (uint8_t)(0xc0 | (k << 3) | k2));
}
static void korw(gen *g, unsigned k, unsigned k1, unsigned k2) { kop(g, 0x45, k, k1, k2); }
static void vptestnmd(gen *g, unsigned k, int a, int b, unsigned km) {
    evex_k(g, PP_F3, MM_0F38, 0x27, k, (unsigned)a, b, 0, 0, km);
}
static void vpblendmd(gen *g, int d, int a, int b, unsigned k) {
    evex_k(g, PP_66, MM_0F38, 0x64, (unsigned)d, (unsigned)a, b, 0, 0, k);
}
/* d{k} = a + b (vpaddd, merging: lanes outside k keep d) */
static void vpaddd_k(gen *g, int d, int a, int b, unsigned k) {
    evex_k(g, PP_66, MM_0F, 0xfe, (unsigned)d, (unsigned)a, b, 0, 0, k);
}
static void vpsubd_k(gen *g, int d, int a, int b, unsigned k) { /* d{k} = a - b */
    evex_k(g, PP_66, MM_0F, 0xfa, (unsigned)d, (unsigned)a, b, 0, 0, k);
}
enum { P_LT = 1 }; /* vpcmpud's less-than */
/* Quadword ops (EVEX.W1; VEX ignores W): the 32 x 32 -> 64-bit products of the even dwords
 * (vpmuludq, vpmuldq signed), and a logical right shift of each quadword. */
static void vop_w1(gen *g, unsigned pp, unsigned mm, uint8_t opc, unsigned reg, unsigned vvvv,
                   int rm) {
    if (g->avx2)
        vex(g, pp, mm, opc, reg, vvvv, rm, 0, 0);
    else
        evex_kw(g, pp, mm, opc, reg, vvvv, rm, 0, 0, 0, 1);
}
static void vpmulxdq(gen *g, int sgn, int d, int a, int b) {
    if (sgn)
        vop_w1(g, PP_66, MM_0F38, 0x28, (unsigned)d, (unsigned)a, b);
    else
        vop_w1(g, PP_66, MM_0F, 0xf4, (unsigned)d, (unsigned)a, b);
}
static void vpsrlq32(gen *g, int d, int a) { /* d = a >> 32 per quadword */
    vop_w1(g, PP_66, MM_0F, 0x73, 2, (unsigned)d, a);
    put(g, 32);
}

/* AVX2 lane masks: 8 bits per chunk, at [rdx + 4 m] (rdx stepping a byte a chunk).  A mask as a
 * vector is all ones in the lanes whose bit is set. */
static void vex_ripw(gen *g, unsigned pp, unsigned mm, uint8_t opc, unsigned reg, unsigned vvvv,
                     size_t target, unsigned w) { /* op ymm, ymm, [rip + target - end] */
    put(g, 0xc4);
    put(g, (uint8_t)((!((reg >> 3) & 1) << 7) | 0x60 | mm));
    put(g, (uint8_t)((w << 7) | ((~vvvv & 15) << 3) | 4 | pp));
    put(g, opc);
    put(g, (uint8_t)(0x05 | ((reg & 7) << 3)));
    put32(g, (uint32_t)(int32_t)((int64_t)target - (int64_t)(g->len + 4)));
}
static void vex_rip(gen *g, unsigned pp, unsigned mm, uint8_t opc, unsigned reg, unsigned vvvv,
                    size_t target) {
    vex_ripw(g, pp, mm, opc, reg, vvvv, target, 0);
}
static void mask2_store(gen *g, int z, int m, int invert) {
    vex(g, PP_NONE, MM_0F, 0x50, 0, 0, z, 0, 0); /* vmovmskps eax, ymm */
    if (invert)
        put(g, 0xf6), put(g, 0xd0); /* not al */
    put(g, 0x88);                   /* mov [rdx + 4m], al */
    modrm(g, 0, -1, 2, 4 * m);
}
static void mask2_load(gen *g, int z, int m) {
    put(g, 0x0f), put(g, 0xb6); /* movzx eax, byte [rdx + 4m] */
    modrm(g, 0, -1, 2, 4 * m);
    /* vmovd xmm, eax; vpbroadcastd ymm, xmm; the lanes' own bits: vpand, vpcmpeqd */
    put(g, 0xc4), put(g, (uint8_t)((!((unsigned)z >> 3) << 7) | 0x60 | MM_0F));
    put(g, 0x79), put(g, 0x6e), put(g, (uint8_t)(0xc0 | (((unsigned)z & 7) << 3)));
    vex(g, PP_66, MM_0F38, 0x58, (unsigned)z, 0, z, 0, 0);
    vex_rip(g, PP_66, MM_0F, 0xdb, (unsigned)z, (unsigned)z, g->lanebits);
    vex_rip(g, PP_66, MM_0F, 0x76, (unsigned)z, (unsigned)z, g->lanebits);
}
#define VPCMPEQD(g, d, a, b) op3(g, PP_66, MM_0F, 0x76, d, a, b)
#define VPCMPGTD(g, d, a, b) op3(g, PP_66, MM_0F, 0x66, d, a, b) /* d = a > b, signed */

/* d = a shifted by imm (ext: /6 left, /2 logical right, /4 arithmetic right) */
static void vpshift_imm(gen *g, unsigned ext, int d, int a, unsigned imm) {
    vop(g, PP_66, MM_0F, 0x72, ext, (unsigned)d, a, 0, 0);
    put(g, (uint8_t)imm);
}

static void load_key(gen *g, int z, int k) {
    if (k < KS) { /* vmovdqu32 zmm, [rsi + 256 r] */
        vop(g, PP_F3, MM_0F, 0x6f, (unsigned)z, 0, -1, R_RSI, k * LANES * 4);
    } else if (k < KK) { /* vpbroadcastd zmm, [rdi + s] */
        vop(g, PP_66, MM_0F38, 0x58, (unsigned)z, 0, -1, R_RDI,
            (int32_t)(offsetof(wave, s) + 4 * (size_t)(k - KS)));
    } else { /* mov eax, imm32; vpbroadcastd zmm, eax (AVX2: vmovd xmm, eax; vpbroadcastd) */
        put(g, 0xb8);
        put32(g, g->kval[k - KK]);
        if (g->avx2) { /* vmovd xmm, eax is VEX.128 (L = 0) */
            put(g, 0xc4), put(g, (uint8_t)((!((unsigned)z >> 3) << 7) | 0x60 | MM_0F));
            put(g, 0x79), put(g, 0x6e), put(g, (uint8_t)(0xc0 | (((unsigned)z & 7) << 3)));
            vex(g, PP_66, MM_0F38, 0x58, (unsigned)z, 0, z, 0, 0);
        } else {
            evex(g, PP_66, MM_0F38, 0x7c, (unsigned)z, 0, 0, 0, 0);
        }
    }
}
static void store_vgpr(gen *g, int z, int r) { /* vmovdqu32 [rsi + 256 r], zmm */
    vop(g, PP_F3, MM_0F, 0x7f, (unsigned)z, 0, -1, R_RSI, r * LANES * 4);
}

static int grab(gen *g, int t);
/* EVEX.512 with the memory operand [rip + target] (an offset in buf): one element broadcast
 * when bc (EVEX.b), under opmask k; immlen: the bytes of immediate after the displacement. */
static void evex_rip(gen *g, unsigned pp, unsigned mm, uint8_t opc, unsigned reg, unsigned vvvv,
                     size_t target, unsigned k, unsigned w, unsigned bc, int immlen) {
    unsigned r = (reg >> 3) & 1, rp = (reg >> 4) & 1, v = vvvv & 15, vp = (vvvv >> 4) & 1;
    put(g, 0x62);
    put(g, (uint8_t)((!r << 7) | 0x60 | (!rp << 4) | mm));
    put(g, (uint8_t)((w << 7) | ((~v & 15) << 3) | 4 | pp));
    put(g, (uint8_t)(0x40 | (bc << 4) | (!vp << 3) | (k & 7)));
    put(g, opc);
    put(g, (uint8_t)(0x05 | ((reg & 7) << 3)));
    put32(g, (uint32_t)(int32_t)((int64_t)target - (int64_t)(g->len + 4 + (size_t)immlen)));
}

/* The constant pool (setb_init), one slot per constant: in AVX-512 code 8 bytes (a 32-bit value in
 * the low half), read as an embedded broadcast; in AVX2 code 32 bytes (the value in every
 * element), read as a vector.  exp2_f32's clamp (-160.0f, 160.0f), 1.5 * 2^52, ln 2, the Taylor
 * coefficients 1/9! .. 1/1! (P_C0 + i: 1/(9 - i)!; the last two both 1.0), the exponent bias as a
 * quadword (these from P_RND to P_BIAS are 64-bit elements), the quiet bit, the smallest normal
 * and the largest denormal. */
enum {
    P_M160,
    P_160,
    P_RND,
    P_LN2,
    P_C0,
    P_BIAS = P_C0 + 10,
    P_QUIET,
    P_MINNORM,
    P_MAXDEN,
    P_B03, /* emit_perm's: bytes 3 and 1 (low dword) */
    P_B01,
    P_N
};
/* Byte vectors after the slots (emit_perm), 64 bytes (AVX2 32): per dword j of a 128-bit lane its
 * bytes' offset there (4 * (j % 4) in each byte), the same + 1, and bytes 4, 2, 8, 11, 12, 7 and
 * 13 everywhere; then the dwords 4 j (J_GLOAD's consecutive addresses) */
enum { V_BASE, V_BASE1, V_4, V_2, V_8, V_11, V_12, V_7, V_13, V_IOTA4, V_N };
#define SLOT(s) (g->pool + (g->avx2 ? 32u : 8u) * (size_t)(s))
#define POOL_V(v) (SLOT(P_N) + (g->avx2 ? 32u : 64u) * (size_t)(v))
static void pool_fill(gen *g) {
    /* the same expressions as exp2_f32's, so the same doubles */
    const double c[10] = {1.0 / 362880, 1.0 / 40320, 1.0 / 5040, 1.0 / 720, 1.0 / 120,
                          1.0 / 24,     1.0 / 6,     0.5,        1.0,       1.0};
    uint64_t v[P_N];
    float m160 = -160.0f, p160 = 160.0f;
    double rnd = 0x1.8p52, ln2 = 0x1.62e42fefa39efp-1;
    uint32_t b;
    memcpy(&b, &m160, 4), v[P_M160] = b;
    memcpy(&b, &p160, 4), v[P_160] = b;
    memcpy(&v[P_RND], &rnd, 8);
    memcpy(&v[P_LN2], &ln2, 8);
    for (int i = 0; i < 10; i++)
        memcpy(&v[P_C0 + i], &c[i], 8);
    v[P_BIAS] = 1023, v[P_QUIET] = 0x400000, v[P_MINNORM] = 0x800000, v[P_MAXDEN] = 0x7fffff;
    v[P_B03] = 0x03030303, v[P_B01] = 0x01010101;
    g->pool = g->len;
    for (int i = 0; i < P_N; i++) {
        int wide = i >= P_RND && i <= P_BIAS;
        for (int e = 0; e < (g->avx2 ? 4 : 1); e++)
            put32(g, (uint32_t)v[i]), put32(g, wide ? (uint32_t)(v[i] >> 32) : (uint32_t)v[i]);
    }
    static const uint8_t bytes[V_N] = {0, 1, 4, 2, 8, 11, 12, 7, 13};
    for (int k = 0; k < V_N; k++)
        for (unsigned j = 0; j < (g->avx2 ? 8u : 16u); j++)
            put32(g, k == V_IOTA4
                         ? 4 * j /* J_GLOAD: lane j's offset in its chunk */
                         : 0x01010101u * (k <= V_BASE1 ? 4 * (j % 4) + bytes[k] : bytes[k]));
}
/* op d, a, [pool slot] broadcast: 32-bit elements (w 0) or 64-bit (w 1) */
static void op_pool(gen *g, unsigned pp, unsigned mm, uint8_t opc, int d, int a, int slot,
                    unsigned w, unsigned k) {
    evex_rip(g, pp, mm, opc, (unsigned)d, (unsigned)a, SLOT(slot), k, w, 1, 0);
}
static void op_pd(gen *g, uint8_t opc, int d, int a, int b) { /* vaddpd, vsubpd, vmulpd */
    evex_kw(g, PP_66, MM_0F, opc, (unsigned)d, (unsigned)a, b, 0, 0, 0, 1);
}

/* The temporaries of emit_exp2 and emit_exp2_vex, pinned: c, and per half x, kb, r, p. */
static void exp_regs(gen *g, int t, int *c, int x[2], int kb[2], int r[2], int p[2]) {
    g->pin[ *c = grab(g, t)] = 1;
    for (int h = 0; h < 2; h++) {
        g->pin[x[h] = grab(g, t)] = 1;
        g->pin[kb[h] = grab(g, t)] = 1;
        g->pin[r[h] = grab(g, t)] = 1;
        g->pin[p[h] = grab(g, t)] = 1;
    }
}

/* d = ftz(exp2_f32(a)) (valu.h), 16 lanes: the input clamped to +-160 (a NaN's result is
 * replaced at the end), widened to double in two halves of 8, each half through the same double
 * operations as the C (rounding to an integer by adding and subtracting 1.5 * 2^52, the reduced
 * argument times ln 2, Horner by fused multiply-adds, 2^k from the bits of the rounded value),
 * interleaved so that the halves' chains overlap; then narrowed, NaNs quieted, results below the
 * smallest normal flushed (they are never negative).  t: the operation (temporaries).
 *
 * With AVX-512DQ (g->dq) two steps take one instruction each, the same values: the clamp is
 * vrangeps (the smaller magnitude of a and 160, with a's sign: -0 stays -0, a NaN is replaced
 * anyway), and x - k is vreducepd (x less x rounded to an integer, ties to even: exact, as the
 * subtraction is).  The point is latency: a block of independent exps is not bound by the FMA
 * ports (without the nine FMAs of each its time halved, 18 of about 48 operations), but by how
 * long each exp's dependent operations wait (about 90 cycles); these take 8 cycles and 2
 * operations off it (docs/perf.md, session 31). */
static void emit_exp2(gen *g, int t, int d, int a) {
    int c, x[2], kb[2], r[2], p[2];
    exp_regs(g, t, &c, x, kb, r, p);
    if (g->dq) { /* vrangeps c, a, [160]{1to16}, min-abs with the sign of a */
        evex_rip(g, PP_66, MM_0F3A, 0x50, (unsigned)c, (unsigned)a, SLOT(P_160), 0, 0, 1, 1);
        put(g, 2);
    } else {
        op_pool(g, PP_NONE, MM_0F, 0x5f, c, a, P_M160, 0, 0); /* vmaxps */
        op_pool(g, PP_NONE, MM_0F, 0x5d, c, c, P_160, 0, 0);  /* vminps */
    }
    evex_kw(g, PP_NONE, MM_0F, 0x5a, (unsigned)x[0], 0, c, 0, 0, 0, 0); /* vcvtps2pd (low 8) */
    evex_kw(g, PP_66, MM_0F3A, 0x1b, (unsigned)c, 0, x[1], 0, 0, 0, 1); /* vextractf64x4 */
    put(g, 1);
    evex_kw(g, PP_NONE, MM_0F, 0x5a, (unsigned)x[1], 0, x[1], 0, 0, 0, 0);
    for (int h = 0; h < 2; h++)
        op_pool(g, PP_66, MM_0F, 0x58, kb[h], x[h], P_RND, 1, 0); /* kb = x + 1.5 * 2^52 */
    for (int h = 0; h < 2 && g->dq; h++) { /* vreducepd r, x, 8: x - k (precision flag off) */
        evex_kw(g, PP_66, MM_0F3A, 0x56, (unsigned)r[h], 0, x[h], 0, 0, 0, 1);
        put(g, 8);
    }
    for (int h = 0; h < 2 && !g->dq; h++)
        op_pool(g, PP_66, MM_0F, 0x5c, r[h], kb[h], P_RND, 1, 0); /* k = kb - 1.5 * 2^52 */
    for (int h = 0; h < 2 && !g->dq; h++)
        op_pd(g, 0x5c, r[h], x[h], r[h]); /* x - k */
    for (int h = 0; h < 2; h++)
        op_pool(g, PP_66, MM_0F, 0x59, r[h], r[h], P_LN2, 1, 0); /* r = (x - k) * ln 2 */
    for (int h = 0; h < 2; h++)                                  /* vbroadcastsd p, [1/9!] */
        evex_rip(g, PP_66, MM_0F38, 0x19, (unsigned)p[h], 0, SLOT(P_C0), 0, 1, 0, 0);
    for (int i = 1; i < 10; i++)
        for (int h = 0; h < 2; h++) /* vfmadd213pd: p = p * r + c_i */
            op_pool(g, PP_66, MM_0F38, 0xa8, p[h], r[h], P_C0 + i, 1, 0);
    for (int h = 0; h < 2; h++) {
        op_pool(g, PP_66, MM_0F, 0xd4, kb[h], kb[h], P_BIAS, 1, 0);            /* vpaddq */
        evex_kw(g, PP_66, MM_0F, 0x73, 6, (unsigned)kb[h], kb[h], 0, 0, 0, 1); /* vpsllq 52 */
        put(g, 52);
        op_pd(g, 0x59, p[h], p[h], kb[h]); /* p * 2^k */
    }
    evex_kw(g, PP_66, MM_0F, 0x5a, (unsigned)d, 0, p[0], 0, 0, 0, 1);             /* vcvtpd2ps */
    evex_kw(g, PP_66, MM_0F, 0x5a, (unsigned)x[1], 0, p[1], 0, 0, 0, 1);          /* vcvtpd2ps */
    evex_kw(g, PP_66, MM_0F3A, 0x1a, (unsigned)d, (unsigned)d, x[1], 0, 0, 0, 1); /* vinsertf64x4 */
    put(g, 1);
    vcmp_k(g, J_CMPF, 1, a, a, 3, 0);                    /* k1: a is a NaN */
    op_pool(g, PP_66, MM_0F, 0xeb, d, a, P_QUIET, 0, 1); /* vpord d{k1}: a quieted */
    evex_rip(g, PP_66, MM_0F3A, 0x1e, 2, (unsigned)d, SLOT(P_MINNORM), 0, 0, 1, 1);
    put(g, P_LT); /* vpcmpud k2 = d < 2^-126 */
    evex_k(g, PP_66, MM_0F, 0xef, (unsigned)d, (unsigned)d, d, 0, 0, 2); /* vpxord d{k2}: 0 */
}

/* The same in AVX2 code, 8 lanes (halves of 4 doubles), the constants as vectors ([rip +
 * disp32]): the flush first (a finite input's result is never negative, so a signed compare
 * with the largest denormal finds it), then the NaNs blended in. */
static void emit_exp2_vex(gen *g, int t, int d, int a) {
    int c, x[2], kb[2], r[2], p[2];
    exp_regs(g, t, &c, x, kb, r, p);
    vex_rip(g, PP_NONE, MM_0F, 0x5f, (unsigned)c, (unsigned)a, SLOT(P_M160)); /* vmaxps */
    vex_rip(g, PP_NONE, MM_0F, 0x5d, (unsigned)c, (unsigned)c, SLOT(P_160));  /* vminps */
    vex(g, PP_NONE, MM_0F, 0x5a, (unsigned)x[0], 0, c, 0, 0); /* vcvtps2pd (low 4) */
    vex(g, PP_66, MM_0F3A, 0x19, (unsigned)c, 0, x[1], 0, 0); /* vextractf128 */
    put(g, 1);
    vex(g, PP_NONE, MM_0F, 0x5a, (unsigned)x[1], 0, x[1], 0, 0);
    for (int h = 0; h < 2; h++) /* kb = x + 1.5 * 2^52 */
        vex_rip(g, PP_66, MM_0F, 0x58, (unsigned)kb[h], (unsigned)x[h], SLOT(P_RND));
    for (int h = 0; h < 2; h++) /* k = kb - 1.5 * 2^52 */
        vex_rip(g, PP_66, MM_0F, 0x5c, (unsigned)r[h], (unsigned)kb[h], SLOT(P_RND));
    for (int h = 0; h < 2; h++) /* x - k */
        vex(g, PP_66, MM_0F, 0x5c, (unsigned)r[h], (unsigned)x[h], r[h], 0, 0);
    for (int h = 0; h < 2; h++) /* r = (x - k) * ln 2 */
        vex_rip(g, PP_66, MM_0F, 0x59, (unsigned)r[h], (unsigned)r[h], SLOT(P_LN2));
    for (int h = 0; h < 2; h++) /* vmovupd p, [1/9!] */
        vex_rip(g, PP_66, MM_0F, 0x10, (unsigned)p[h], 0, SLOT(P_C0));
    for (int i = 1; i < 10; i++)
        for (int h = 0; h < 2; h++) /* vfmadd213pd: p = p * r + c_i */
            vex_ripw(g, PP_66, MM_0F38, 0xa8, (unsigned)p[h], (unsigned)r[h], SLOT(P_C0 + i), 1);
    for (int h = 0; h < 2; h++) {
        vex_rip(g, PP_66, MM_0F, 0xd4, (unsigned)kb[h], (unsigned)kb[h], SLOT(P_BIAS)); /* vpaddq */
        vex(g, PP_66, MM_0F, 0x73, 6, (unsigned)kb[h], kb[h], 0, 0); /* vpsllq 52 */
        put(g, 52);
        vex(g, PP_66, MM_0F, 0x59, (unsigned)p[h], (unsigned)p[h], kb[h], 0, 0); /* p * 2^k */
    }
    vex(g, PP_66, MM_0F, 0x5a, (unsigned)d, 0, p[0], 0, 0);             /* vcvtpd2ps */
    vex(g, PP_66, MM_0F, 0x5a, (unsigned)x[1], 0, p[1], 0, 0);          /* vcvtpd2ps */
    vex(g, PP_66, MM_0F3A, 0x18, (unsigned)d, (unsigned)d, x[1], 0, 0); /* vinsertf128 */
    put(g, 1);
    vex_rip(g, PP_66, MM_0F, 0x66, (unsigned)c, (unsigned)d, SLOT(P_MAXDEN)); /* vpcmpgtd */
    VPANDD(g, d, d, c);                                                       /* below 2^-126: 0 */
    vex(g, PP_NONE, MM_0F, 0xc2, (unsigned)c, (unsigned)a, a, 0, 0); /* vcmpps c = a is a NaN */
    put(g, 3);
    vex_rip(g, PP_66, MM_0F, 0xeb, (unsigned)x[0], (unsigned)a, SLOT(P_QUIET)); /* a quieted */
    vex(g, PP_66, MM_0F3A, 0x4a, (unsigned)d, (unsigned)d, x[0], 0, 0);         /* vblendvps by c */
    put(g, (uint8_t)(c << 4));
}

/* d = v_perm_b32(a, b, c) (valu_int.c perm_byte per byte, 16 lanes): selector byte s takes byte
 * s & 3 of a (s & 4) or b by vpshufb inside each dword's 128-bit lane; for 8-11 the sign of
 * byte 1 or 3 (s & 1) of a (s & 2) or b the same way, spread by vpmovb2m / vpmovm2b; then
 * s < 8 the byte, 8-11 the sign, 12 zero, above 0xff (unsigned byte compares). */
static void emit_perm(gen *g, int t, int d, int a, int b, int c) {
    int i = grab(g, t), r0, r1;
    g->pin[i] = 1;
    g->pin[r0 = grab(g, t)] = 1;
    g->pin[r1 = grab(g, t)] = 1;
    op_pool(g, PP_66, MM_0F, 0xdb, i, c, P_B03, 0, 0); /* vpandd: s & 3 */
    evex_rip(g, PP_66, MM_0F, 0xeb, (unsigned)i, (unsigned)i, POOL_V(V_BASE), 0, 0, 0, 0);
    evex(g, PP_66, MM_0F38, 0x00, (unsigned)r1, (unsigned)b, i, 0, 0);          /* vpshufb: b's */
    evex(g, PP_66, MM_0F38, 0x00, (unsigned)r0, (unsigned)a, i, 0, 0);          /* a's */
    evex_rip(g, PP_66, MM_0F38, 0x26, 1, (unsigned)c, POOL_V(V_4), 0, 0, 0, 0); /* vptestmb */
    evex_k(g, PP_66, MM_0F38, 0x66, (unsigned)r1, (unsigned)r1, r0, 0, 0, 1);   /* vpblendmb */
    op_pool(g, PP_66, MM_0F, 0xdb, i, c, P_B01, 0, 0); /* (s & 1) * 2 + 1 */
    VPADDD(g, i, i, i);
    evex_rip(g, PP_66, MM_0F, 0xeb, (unsigned)i, (unsigned)i, POOL_V(V_BASE1), 0, 0, 0, 0);
    evex(g, PP_66, MM_0F38, 0x00, (unsigned)r0, (unsigned)b, i, 0, 0);
    evex(g, PP_66, MM_0F38, 0x00, (unsigned)i, (unsigned)a, i, 0, 0);
    evex_rip(g, PP_66, MM_0F38, 0x26, 2, (unsigned)c, POOL_V(V_2), 0, 0, 0, 0);
    evex_k(g, PP_66, MM_0F38, 0x66, (unsigned)r0, (unsigned)r0, i, 0, 0, 2);
    evex(g, PP_F3, MM_0F38, 0x29, 3, 0, r0, 0, 0);           /* vpmovb2m k3 */
    evex(g, PP_F3, MM_0F38, 0x28, (unsigned)r0, 0, 3, 0, 0); /* vpmovm2b: the signs */
    evex_rip(g, PP_66, MM_0F3A, 0x3e, 4, (unsigned)c, POOL_V(V_8), 0, 0, 0, 1); /* vpcmpub */
    put(g, P_LT);                                                               /* s < 8 */
    evex_k(g, PP_66, MM_0F38, 0x66, (unsigned)d, (unsigned)r0, r1, 0, 0, 4);
    evex_rip(g, PP_66, MM_0F3A, 0x3e, 5, (unsigned)c, POOL_V(V_12), 0, 0, 0, 1);
    put(g, 6);                                               /* s > 12 */
    evex(g, PP_F3, MM_0F38, 0x28, (unsigned)r0, 0, 5, 0, 0); /* 0xff there, else 0 */
    evex_rip(g, PP_66, MM_0F3A, 0x3e, 6, (unsigned)c, POOL_V(V_11), 0, 0, 0, 1);
    put(g, 6); /* s > 11 */
    evex_k(g, PP_66, MM_0F38, 0x66, (unsigned)d, (unsigned)d, r0, 0, 0, 6);
}

/* The same in AVX2 code, 8 lanes: byte masks from vpand and vpcmpeqb instead of vptestmb, the
 * signs by vpcmpgtb against zero, the unsigned compares as vpmaxub / vpminub and vpcmpeqb
 * (s <= 7, s >= 13, s >= 12), vpblendvb instead of the masked blends. */
static void emit_perm_vex(gen *g, int t, int d, int a, int b, int c) {
    int i = grab(g, t), r0, r1, m;
    g->pin[i] = 1;
    g->pin[r0 = grab(g, t)] = 1;
    g->pin[r1 = grab(g, t)] = 1;
    g->pin[m = grab(g, t)] = 1;
#define BYTE_MASK(v, op) /* m = (c op V_v) == V_v per byte */                                      \
    vex_rip(g, PP_66, MM_0F, op, (unsigned)m, (unsigned)c, POOL_V(v));                             \
    vex_rip(g, PP_66, MM_0F, 0x74, (unsigned)m, (unsigned)m, POOL_V(v))
#define BLENDB(dst, x, y, k) /* dst = k ? y : x per byte (vpblendvb) */                            \
    vex(g, PP_66, MM_0F3A, 0x4c, (unsigned)(dst), (unsigned)(x), y, 0, 0),                         \
        put(g, (uint8_t)((k) << 4))
    vex_rip(g, PP_66, MM_0F, 0xdb, (unsigned)i, (unsigned)c, SLOT(P_B03));    /* vpand: s & 3 */
    vex_rip(g, PP_66, MM_0F, 0xeb, (unsigned)i, (unsigned)i, POOL_V(V_BASE)); /* vpor */
    vex(g, PP_66, MM_0F38, 0x00, (unsigned)r1, (unsigned)b, i, 0, 0);         /* vpshufb: b's */
    vex(g, PP_66, MM_0F38, 0x00, (unsigned)r0, (unsigned)a, i, 0, 0);         /* a's */
    BYTE_MASK(V_4, 0xdb);                                                     /* s & 4 */
    BLENDB(r1, r1, r0, m);
    vex_rip(g, PP_66, MM_0F, 0xdb, (unsigned)i, (unsigned)c, SLOT(P_B01)); /* (s & 1) * 2 + 1 */
    VPADDD(g, i, i, i);
    vex_rip(g, PP_66, MM_0F, 0xeb, (unsigned)i, (unsigned)i, POOL_V(V_BASE1));
    vex(g, PP_66, MM_0F38, 0x00, (unsigned)r0, (unsigned)b, i, 0, 0);
    vex(g, PP_66, MM_0F38, 0x00, (unsigned)i, (unsigned)a, i, 0, 0);
    BYTE_MASK(V_2, 0xdb); /* s & 2 */
    BLENDB(r0, r0, i, m);
    VPXORD(g, i, i, i);
    vex(g, PP_66, MM_0F, 0x64, (unsigned)r0, (unsigned)i, r0, 0, 0); /* vpcmpgtb: the signs */
    BYTE_MASK(V_7, 0xde);                                            /* vpmaxub: s <= 7 */
    BLENDB(d, r0, r1, m);
    BYTE_MASK(V_12, 0xda); /* vpminub: s >= 12 */
    VMOVDQA32(g, i, m);
    BYTE_MASK(V_13, 0xda); /* s >= 13: 0xff, 12: 0 */
    BLENDB(d, d, m, i);
#undef BYTE_MASK
#undef BLENDB
}

/* ---- register allocation ------------------------------------------------------------------- */

/* Position of the next operation from t on that reads key k (nops + 1: none, or k is written
 * first, so what the register holds is not needed again in the block). */
static void drop(gen *g, int z) {
    if (g->key[z] >= 0) {
        if (g->dirty[z])
            store_vgpr(g, z, g->key[z]);
        g->where[g->key[z]] = -1;
    }
    g->key[z] = -1;
    g->dirty[z] = 0;
}

/* Where each unpinned register's key is next needed from operation t (nu[z]): the first
 * operation that reads it, or nops + 1 when one writes it first or none uses it again.  One
 * pass over the operations for all registers (a pass per register made a long block's
 * allocation a few percent of a kernel's first launch, which builds the blocks). */
static void next_uses(const gen *g, int t, int *nu) {
    uint32_t open = 0;
    for (int z = 0; z < g->nreg; z++) {
        nu[z] = g->nops + 1;
        if (!g->pin[z] && g->key[z] >= 0)
            open |= 1u << z;
    }
    for (int i = t; i < g->nops && open; i++) {
        const lop *o = &g->ops[i];
        for (int j = 0; j < 5; j++) { /* the sources, then the destination (a write first) */
            int k = j < 4 ? o->s[j] : o->d, z = k >= 0 && k < KMAX ? g->where[k] : -1;
            if (z >= 0 && (open >> z & 1)) {
                nu[z] = j < 4 ? i : g->nops + 1;
                open &= ~(1u << z);
            }
        }
    }
}

/* A free register for operation t, evicting the key needed furthest ahead. */
static int grab(gen *g, int t) {
    int best = -1, far = -1, nu[32];
    for (int z = 0; z < g->nreg; z++)
        if (!g->pin[z] && g->key[z] < 0)
            return z;
    next_uses(g, t, nu);
    for (int z = 0; z < g->nreg; z++) {
        if (g->pin[z])
            continue;
        int u = nu[z] * 2 + !g->dirty[z];
        if (u > far)
            far = u, best = z;
    }
    if (best < 0) {
        g->fail = 1;
        return 0;
    }
    drop(g, best);
    return best;
}

static int use(gen *g, int t, int k) {
    int z = g->where[k];
    if (z < 0) {
        z = grab(g, t);
        load_key(g, z, k);
        g->key[z] = k;
        g->where[k] = (int16_t)z;
    }
    g->pin[z] = 1;
    return z;
}

/* AVX2: c |= the lanes of cm (a carry in) where d is 0 (where the carry goes on) */
static void carry2_on(gen *g, int t, int c, int d, int cm) {
    int u = grab(g, t);
    VPXORD(g, u, u, u);
    VPCMPEQD(g, u, d, u);
    VPANDD(g, u, u, cm);
    VPORD(g, c, c, u);
}
/* AVX2: d = the lanes where x < y unsigned (both biased by the sign bit, s) */
static void ltu2(gen *g, int t, int d, int x, int y, int s) {
    int u = grab(g, t);
    VPXORD(g, d, x, s);
    VPXORD(g, u, y, s);
    VPCMPGTD(g, d, u, d);
}

/* eax (r 0) or r8d (r 8) = this chunk's bits of mask m (16, AVX2 8), or a constant mask */
static void kload(gen *g, unsigned r, int m) {
    if (m < 0) { /* mov r32, imm32 */
        if (r)
            put(g, 0x41);
        put(g, 0xb8), put32(g, m == KM_ONES ? (g->avx2 ? 0xffu : 0xffffu) : 0);
        return;
    }
    if (r) /* movzx r32, word / byte [rdx + 4m] */
        put(g, 0x44);
    put(g, 0x0f), put(g, g->avx2 ? 0xb6 : 0xb7);
    modrm(g, 0, -1, 2, 4 * m);
}

/* The old value of o's destination, unless o reads it, is dead: its register (if any) is free
 * and not stored. */
static void forget_dead_dest(gen *g, const lop *o) {
    int old = g->where[o->d], reads_d = 0;
    for (int j = 0; j < 4; j++)
        reads_d |= o->s[j] == o->d;
    if (old >= 0 && !reads_d) {
        g->key[old] = -1;
        g->dirty[old] = 0;
        g->where[o->d] = -1;
    }
}

/* Register d holds VGPR key k's new value: a register its old value was in is free; nothing is
 * pinned any more. */
static void take_result(gen *g, int d, int k) {
    int old = g->where[k];
    if (old >= 0) {
        g->key[old] = -1;
        g->dirty[old] = 0;
    }
    g->key[d] = k;
    g->dirty[d] = 1;
    g->where[k] = (int16_t)d;
    memset(g->pin, 0, sizeof g->pin);
}

/* ---- loads ---------------------------------------------------------------------------------
 * A global_load_dword in a block (a wave64 program's): per chunk (a quarter of 16 lanes in
 * AVX-512 code, 8 lanes in AVX2 code), the code tests that the lanes' addresses are consecutive
 * dwords (the low halves minus 4 j all equal, the high halves all equal, no carry out of the low
 * half) and that [a, a + 64) lies in the load's hot line (mem.h gmem_cache; setb.hot), then loads
 * the chunk's 64 (32) bytes with one vector move.  Otherwise it calls x_jit_load (vmem.c) for the
 * chunk, saving the vector registers that hold keys around the call; that fills the hot line, or
 * runs the instruction's handler on the chunk's lanes.  A fault there stores what the chunk has
 * computed and returns (exec.c jit_stopped goes on). */
static void jmp_at(gen *g, size_t at, size_t to) { /* the rel32 ending at `at` aims at `to` */
    if (g->fail)
        return;
    int32_t rel = (int32_t)((int64_t)to - (int64_t)at);
    for (int i = 0; i < 4; i++)
        g->buf[at - 4 + (size_t)i] = (uint8_t)((uint32_t)rel >> (8 * i));
}
static size_t jcc32(gen *g, uint8_t cc) { /* 0f cc rel32 (patched by jmp_at); its end */
    put(g, 0x0f), put(g, cc), put32(g, 0);
    return g->len;
}
/* vmovd r32, xmm (EVEX.128, any of the 32 registers; AVX2 code VEX.128): the chunk's lane 0 */
static void movd_gpr(gen *g, unsigned r, int z) {
    unsigned zz = (unsigned)z;
    if (g->avx2) { /* c4, R X B 00001, W0 1111 L0 01, 7e, modrm */
        put(g, 0xc4);
        put(g, (uint8_t)((!((zz >> 3) & 1) << 7) | 0x40 | (!((r >> 3) & 1) << 5) | MM_0F));
        put(g, 0x79), put(g, 0x7e), put(g, (uint8_t)(0xc0 | ((zz & 7) << 3) | (r & 7)));
        return;
    }
    put(g, 0x62);
    put(g, (uint8_t)((!((zz >> 3) & 1) << 7) | 0x40 | (!((r >> 3) & 1) << 5) |
                     (!((zz >> 4) & 1) << 4) | MM_0F));
    put(g, 0x7d), put(g, 0x08), put(g, 0x7e);
    put(g, (uint8_t)(0xc0 | ((zz & 7) << 3) | (r & 7)));
}
static void rdi_mem(gen *g, uint8_t rex, uint8_t opc, size_t off) { /* op r, [rdi + off] */
    put(g, rex), put(g, opc), put(g, 0x87), put32(g, (uint32_t)off);
}
static void r9_gpr(gen *g, uint8_t opc, unsigned r, int32_t disp) { /* mov [r9 + d], r / back */
    put(g, (uint8_t)(0x49 | (r >> 3) << 2)), put(g, opc), put(g, (uint8_t)(0x81 | (r & 7) << 3));
    put32(g, (uint32_t)disp);
}
static void put64(gen *g, uint64_t v) { put32(g, (uint32_t)v), put32(g, (uint32_t)(v >> 32)); }

/* The test of J_GLOAD / J_GSTORE operation o (address registers lo, hi; hot line `line`): r8 =
 * the host address of the quarter's 64 bytes, or a jump from one of j[0..2] (their ends). */
static void addr_test(gen *g, int t, const lop *o, int lo, int hi, unsigned line, size_t j[3]) {
    const xinst *x = g->mem[o->imm];
    const size_t hot =
        offsetof(wave, cache) + offsetof(gmem_cache, hot) + line * sizeof(gmem_hot_line);
    const size_t hlim =
        hot + (g->avx2 ? offsetof(gmem_hot_line, lim32) : offsetof(gmem_hot_line, lim));
    const size_t hhost = hot + offsetof(gmem_hot_line, host);
    int32_t off = (int32_t)x->in.f.m.offset;
    int u = grab(g, t);
    g->pin[u] = 1;
    int v = grab(g, t);
    g->pin[v] = 1;
    /* u = (lo - 4 j) ^ its lane 0 (| hi ^ its lane 0); any bit set: not consecutive */
    if (g->avx2)
        vex_rip(g, PP_66, MM_0F, 0xfa, (unsigned)u, (unsigned)lo, POOL_V(V_IOTA4));
    else
        evex_rip(g, PP_66, MM_0F, 0xfa, (unsigned)u, (unsigned)lo, POOL_V(V_IOTA4), 0, 0, 0, 0);
    vop(g, PP_66, MM_0F38, 0x58, (unsigned)v, 0, u, 0, 0); /* vpbroadcastd v, xmm u */
    VPXORD(g, u, u, v);
    if (hi >= 0) {
        vop(g, PP_66, MM_0F38, 0x58, (unsigned)v, 0, hi, 0, 0);
        if (g->avx2)
            VPXORD(g, v, v, hi), VPORD(g, u, u, v);
        else
            vpternlogd(g, u, hi, v, 0xf6); /* u | (hi ^ v) */
    }
    if (g->avx2) {
        vex(g, PP_66, MM_0F38, 0x17, (unsigned)u, 0, u, 0, 0); /* vptest u, u */
    } else {
        evex_k(g, PP_66, MM_0F38, 0x27, 1, (unsigned)u, u, 0, 0, 0); /* vptestmd k1, u, u */
        put(g, 0xc5), put(g, 0xf8), put(g, 0x98), put(g, 0xc9);      /* kortestw k1, k1 */
    }
    j[0] = jcc32(g, 0x85);
    movd_gpr(g, 0, lo);
    /* cmp eax, 2^32 - 61 (AVX2: - 29): the last lane's carries */
    put(g, 0x3d), put32(g, UINT32_MAX - (g->avx2 ? 28 : 60));
    j[1] = jcc32(g, 0x87);
    if (hi >= 0) {
        movd_gpr(g, 8, hi);
        put(g, 0x49), put(g, 0xc1), put(g, 0xe0), put(g, 32); /* shl r8, 32 */
        put(g, 0x4c), put(g, 0x09), put(g, 0xc0);             /* or rax, r8 */
    } else {                                                  /* add rax, [rdi + s(saddr)] */
        rdi_mem(g, 0x48, 0x03, offsetof(wave, s) + 4 * (size_t)(o->s[2] - KS));
    }
    if (off)
        put(g, 0x48), put(g, 0x05), put32(g, (uint32_t)off); /* add rax, off */
    put(g, 0x49), put(g, 0x89), put(g, 0xc0);                /* mov r8, rax */
    rdi_mem(g, 0x4c, 0x2b, hot);                             /* sub r8, hot_base */
    rdi_mem(g, 0x4c, 0x3b, hlim);                            /* cmp r8, hot_lim */
    j[2] = jcc32(g, 0x83);
    rdi_mem(g, 0x4c, 0x03, hhost); /* add r8, hot_host */
    g->pin[u] = g->pin[v] = 0;
}

/* s_load_dword(x2, x4, x8, x16) from an SGPR pair plus an immediate, into s0-s101, that a
 * block runs before its code (block(): before any vector op): in the scalar hot line, a copy
 * into the SGPRs; else x_jit_sload (a fault returns at once).  RDNA's s_load_b32 ... b512 are
 * the same loads (their handlers are these; a null soffset is none). */
static int sload_ok(const xinst *x) {
    static const uint16_t ops[2][5] = {{ISA_OPL_s_load_dword, ISA_OPL_s_load_dwordx2,
                                        ISA_OPL_s_load_dwordx4, ISA_OPL_s_load_dwordx8,
                                        ISA_OPL_s_load_dwordx16},
                                       {ISA_OPL_s_load_b32, ISA_OPL_s_load_b64, ISA_OPL_s_load_b128,
                                        ISA_OPL_s_load_b256, ISA_OPL_s_load_b512}};
    const isa_opnd *d = &x->in.dst[0], *sb = &x->in.src[1];
    const int rdna = (x->xf & XI_RDNA) != 0;
    int op = 0;
    for (int i = 0; i < 5; i++)
        op |= x->in.op == ops[rdna][i] && d->n == 1u << i;
    return op && !(x->xf & XI_REF) && x->in.ndst == 1 && d->kind == ISA_OPND_SREG &&
           d->idx + d->n <= 102 && sb->kind == ISA_OPND_SREG && sb->n == 2 && sb->idx + 1u < 128 &&
           !x->in.f.s.has_soffset;
}
static void emit_sload(gen *g, const xinst *x) {
    const size_t hot =
        offsetof(wave, cache) + offsetof(gmem_cache, hot) + GMEM_HOT_SMEM * sizeof(gmem_hot_line);
    const isa_scalar_fields *f = &x->in.f.s;
    rdi_mem(g, 0x48, 0x8b, offsetof(wave, s) + 4 * (size_t)x->in.src[1].idx); /* mov rax, sbase */
    if (f->has_imm && f->offset)
        put(g, 0x48), put(g, 0x05), put32(g, (uint32_t)(int32_t)f->offset); /* add rax, off */
    put(g, 0x48), put(g, 0x83), put(g, 0xe0), put(g, 0xfc);                 /* and rax, ~3 */
    put(g, 0x49), put(g, 0x89), put(g, 0xc0);                               /* mov r8, rax */
    rdi_mem(g, 0x4c, 0x2b, hot);                                            /* sub r8, hot_base */
    /* mov r9, size (the scalar line's lim); sub r9, bytes; jb; cmp r8, r9; ja: the bytes in it */
    put(g, 0x4c), put(g, 0x8b), put(g, 0x8f),
        put32(g, (uint32_t)(hot + offsetof(gmem_hot_line, lim)));
    put(g, 0x49), put(g, 0x81), put(g, 0xe9), put32(g, 4 * x->in.dst[0].n);
    size_t j0 = jcc32(g, 0x82);
    put(g, 0x4d), put(g, 0x39), put(g, 0xc8); /* cmp r8, r9 */
    size_t j = jcc32(g, 0x87);
    rdi_mem(g, 0x4c, 0x03, hot + offsetof(gmem_hot_line, host));
    for (unsigned i = 0; i < x->in.dst[0].n; i += 2) { /* mov (r)ax, [r8 + 4i]; to the SGPRs */
        unsigned w = x->in.dst[0].n > 1;
        put(g, w ? 0x49 : 0x41), put(g, 0x8b), put(g, 0x80), put32(g, 4 * i);
        rdi_mem(g, w ? 0x48 : 0x40, 0x89, offsetof(wave, s) + 4 * ((size_t)x->in.dst[0].idx + i));
    }
    put(g, 0xe9), put32(g, 0);
    size_t done = g->len;
    jmp_at(g, j0, g->len), jmp_at(g, j, g->len);
    put(g, 0x57);                                                 /* push rdi */
    put(g, 0x48), put(g, 0xbe), put64(g, (uint64_t)(uintptr_t)x); /* mov rsi, x */
    put(g, 0x48), put(g, 0xb8), put64(g, (uint64_t)(uintptr_t)&x_jit_sload);
    put(g, 0xff), put(g, 0xd0);                                        /* call rax */
    put(g, 0x5f);                                                      /* pop rdi */
    put(g, 0x85), put(g, 0xc0), put(g, 0x74), put(g, 1), put(g, 0xc3); /* test; je +1; ret */
    jmp_at(g, done, g->len);
}

/* J_GSTORE in the loop: wave.jit_st[chunk] ([r10]) = the host address, or NULL */
static void emit_gstore(gen *g, int t) {
    const lop *o = &g->ops[t];
    int lo = use(g, t, o->s[0]), hi = o->s[1] >= 0 ? use(g, t, o->s[1]) : -1;
    size_t j[3];
    addr_test(g, t, o, lo, hi, GMEM_HOT_LOADS + o->acc, j);
    put(g, 0x4d), put(g, 0x89), put(g, 0x02); /* mov [r10], r8 */
    put(g, 0xeb), put(g, 7);                  /* jmp past: */
    for (int i = 0; i < 3; i++)
        jmp_at(g, j[i], g->len);
    put(g, 0x49), put(g, 0xc7), put(g, 0x02), put32(g, 0); /* mov qword [r10], 0 */
    memset(g->pin, 0, sizeof g->pin);
}

/* After the loop: the store's four quarters (AVX2 code: eight chunks) from its data row to their
 * host addresses, or when the loop left one NULL, x_jit_store (the whole instruction; a fault
 * returns at once). */
static void emit_st_tail(gen *g) {
    const lop *o = &g->ops[g->st];
    const xinst *x = g->mem[o->imm];
    const size_t row = offsetof(wave, v) + (size_t)x->in.src[1].idx * LANES * 4;
    size_t j[8];
    if (g->avx2) { /* mov rax, [rdi + jit_st + 8c]; test rax, rax; jz slow: all first, then */
        for (int c = 0; c < 8; c++) {
            rdi_mem(g, 0x48, 0x8b, offsetof(wave, jit_st) + 8 * (size_t)c);
            put(g, 0x48), put(g, 0x85), put(g, 0xc0);
            j[c] = jcc32(g, 0x84);
        }
        for (int c = 0; c < 8; c++) { /* vmovdqu ymm0, [rdi + the row's chunk]; to [rax] */
            rdi_mem(g, 0x48, 0x8b, offsetof(wave, jit_st) + 8 * (size_t)c);
            vop(g, PP_F3, MM_0F, 0x6f, 0, 0, -1, R_RDI, (int32_t)(row + 32 * (size_t)c));
            vop(g, PP_F3, MM_0F, 0x7f, 0, 0, -1, 0, 0);
        }
    } else {
        static const uint8_t reg[4][3] = {
            {0x48, 0x87, 0xc0}, {0x4c, 0x87, 0xc0}, {0x4c, 0x8f, 0xc9}, {0x4c, 0x9f, 0xdb}};
        static const unsigned base[4] = {0, 8, 9, 11}; /* rax r8 r9 r11 */
        for (int q = 0; q < 4; q++) { /* mov r, [rdi + jit_st + 8q]; test r, r; jz slow */
            put(g, reg[q][0]), put(g, 0x8b), put(g, reg[q][1]);
            put32(g, (uint32_t)(offsetof(wave, jit_st) + 8 * (size_t)q));
            put(g, q ? 0x4d : 0x48), put(g, 0x85), put(g, reg[q][2]);
            j[q] = jcc32(g, 0x84);
        }
        for (int q = 0; q < 4; q++) { /* vmovdqu32 zmm0, [rdi + the data row's quarter]; to [r] */
            evex(g, PP_F3, MM_0F, 0x6f, 0, 0, -1, R_RDI, (int32_t)(row + 64 * (size_t)q));
            evex(g, PP_F3, MM_0F, 0x7f, 0, 0, -1, base[q], 0);
        }
    }
    put(g, 0xe9), put32(g, 0);
    size_t done = g->len;
    for (int c = 0; c < (g->avx2 ? 8 : 4); c++)
        jmp_at(g, j[c], g->len);
    put(g, 0xc5), put(g, 0xf8), put(g, 0x77); /* vzeroupper */
    /* sub rsp, 136: past the red zone's mask slots (none here, but the call must not write
     * there), 16-byte aligned at the call */
    put(g, 0x48), put(g, 0x81), put(g, 0xec), put32(g, 136);
    put(g, 0x48), put(g, 0xbe), put64(g, (uint64_t)(uintptr_t)x); /* mov rsi, x */
    put(g, 0xba), put32(g, o->acc);                               /* mov edx, its line */
    put(g, 0x48), put(g, 0xb8), put64(g, (uint64_t)(uintptr_t)&x_jit_store);
    put(g, 0xff), put(g, 0xd0);                                        /* call rax */
    put(g, 0x48), put(g, 0x81), put(g, 0xc4), put32(g, 136);           /* add rsp, 136 */
    put(g, 0x85), put(g, 0xc0), put(g, 0x74), put(g, 1), put(g, 0xc3); /* test; je +1; ret */
    jmp_at(g, done, g->len);
}

static void emit_gload(gen *g, int t) {
    const lop *o = &g->ops[t];
    const xinst *x = g->mem[o->imm];
    forget_dead_dest(g, o);
    int lo = use(g, t, o->s[0]), hi = o->s[1] >= 0 ? use(g, t, o->s[1]) : -1;
    int d = grab(g, t);
    g->pin[d] = 1;
    size_t j[3];
    addr_test(g, t, o, lo, hi, o->acc, j);
    g->pin[d] = g->pin[lo] = 1;
    if (hi >= 0)
        g->pin[hi] = 1;
    vop(g, PP_F3, MM_0F, 0x6f, (unsigned)d, 0, -1, 8, 0); /* vmovdqu32 d, [r8] */
    put(g, 0xe9), put32(g, 0);
    size_t j4 = g->len;
    for (int i = 0; i < 3; i++)
        jmp_at(g, j[i], g->len);
    /* the chunk's addresses into their rows; the key registers (64 bytes each, AVX2 code's
     * 32 in the same slots) and rdi, rsi, rcx, rdx, r10 saved below the red zone (the mask ops'
     * slots), rsp 16-byte aligned at the call */
    store_vgpr(g, lo, o->s[0]);
    if (hi >= 0)
        store_vgpr(g, hi, o->s[1]);
    int saved[32], ns = 0;
    for (int z = 0; z < 32; z++)
        if (g->key[z] >= 0)
            saved[ns++] = z;
    int32_t frame = 64 * ns + 48 + 128 + 8, gp = 64 * ns;
    put(g, 0x48), put(g, 0x81), put(g, 0xec), put32(g, (uint32_t)frame); /* sub rsp, frame */
    put(g, 0x49), put(g, 0x89), put(g, 0xe1);                            /* mov r9, rsp */
    static const unsigned gprs[5] = {7, 6, 1, 2, 10};                    /* rdi rsi rcx rdx r10 */
    for (int i = 0; i < 5; i++)
        r9_gpr(g, 0x89, gprs[i], gp + 8 * i);
    for (int i = 0; i < ns; i++)
        vop(g, PP_F3, MM_0F, 0x7f, (unsigned)saved[i], 0, -1, 9, 64 * i);
    put(g, 0x48), put(g, 0xbe), put64(g, (uint64_t)(uintptr_t)x); /* mov rsi, x */
    /* edx = the chunk: 4 - ecx (AVX2 8 - ecx) */
    put(g, 0xba), put32(g, g->avx2 ? 8 : 4), put(g, 0x29), put(g, 0xca);
    put(g, 0xb9), put32(g, o->acc);                                      /* mov ecx, hot line */
    put(g, 0x49), put(g, 0xb8), put64(g, (uint64_t)(uintptr_t)g->start); /* mov r8, start */
    put(g, 0x41), put(g, 0xb9), put32(g, g->avx2 ? 8 : 16);              /* mov r9d, lanes */
    put(g, 0x48), put(g, 0xb8), put64(g, (uint64_t)(uintptr_t)&x_jit_load);
    put(g, 0xc5), put(g, 0xf8), put(g, 0x77); /* vzeroupper */
    put(g, 0xff), put(g, 0xd0);               /* call rax */
    put(g, 0x49), put(g, 0x89), put(g, 0xe1); /* mov r9, rsp */
    for (int i = 0; i < ns; i++)
        vop(g, PP_F3, MM_0F, 0x6f, (unsigned)saved[i], 0, -1, 9, 64 * i);
    for (int i = 0; i < 5; i++)
        r9_gpr(g, 0x8b, gprs[i], gp + 8 * i);
    put(g, 0x48), put(g, 0x81), put(g, 0xc4), put32(g, (uint32_t)frame); /* add rsp, frame */
    put(g, 0x85), put(g, 0xc0); /* test eax, eax; jz loaded */
    size_t j5 = jcc32(g, 0x84);
    for (int z = 0; z < 32; z++) /* a fault: the quarter's results so far; vzeroupper; ret */
        if (g->key[z] >= 0 && g->dirty[z])
            store_vgpr(g, z, g->key[z]);
    put(g, 0xc5), put(g, 0xf8), put(g, 0x77), put(g, 0xc3);
    jmp_at(g, j5, g->len);
    load_key(g, d, o->d); /* the chunk's lanes of the destination row */
    jmp_at(g, j4, g->len);
    take_result(g, d, o->d);
}

/* d = fma(a, b, c) with the hardware's NaN results (valu.h hw_fma).  vfmadd231ps d (= c), a, b
 * returns the first NaN of a, b, c quieted, as the hardware does (x86 takes the NaN of the vvvv
 * operand, then the r/m one's, then the destination's), but a NaN c where a * b is inf * 0, where
 * the hardware gives the default NaN.  So where c is a NaN (a compare and a branch when no lane
 * of the chunk has one; none for a constant c), the product a * b takes over where it is a NaN:
 * a's or b's quieted, or the default NaN of inf * 0. */
static void emit_fma(gen *g, int t, int d, int a, int b, int c) {
    const lop *o = &g->ops[t];
    VMOVDQA32(g, d, c);
    VFMADD231PS(g, d, a, b);
    if (IS_K(o->s[2]) && (g->kval[o->s[2] - KK] & 0x7fffffffu) <= 0x7f800000u)
        return; /* a constant c that is no NaN */
    int p = grab(g, t), q = -1;
    g->pin[p] = 1;
    if (g->avx2)
        g->pin[q = grab(g, t)] = 1;
    size_t skip;
    if (!g->avx2) {
        vcmp_k(g, J_CMPF, 1, c, c, 0x03, 0);                    /* UNORD_Q */
        put(g, 0xc5), put(g, 0xf8), put(g, 0x98), put(g, 0xc9); /* kortestw k1, k1 */
        skip = jcc32(g, 0x84);
        VMULPS(g, p, a, b);
        vcmp_k(g, J_CMPF, 2, p, p, 0x03, 0);
        vpblendmd(g, d, d, p, 2);
    } else {
        VCMPPS(p, c, c, 0x03);
        vex(g, PP_66, MM_0F38, 0x17, (unsigned)p, 0, p, 0, 0); /* vptest p, p */
        skip = jcc32(g, 0x84);
        VMULPS(g, p, a, b);
        VCMPPS(q, p, p, 0x03);
        VBLENDVPS(d, d, p, q);
    }
    jmp_at(g, skip, g->len);
    g->pin[p] = 0;
    if (q >= 0)
        g->pin[q] = 0;
}

/* Emit operation t. */
static void emit(gen *g, int t) {
    const lop *o = &g->ops[t];
    int z[4] = {0, 0, 0, 0};
    if (o->kind == J_GLOAD) {
        emit_gload(g, t);
        return;
    }
    if (o->kind == J_GSTORE) {
        emit_gstore(g, t);
        return;
    }
    if (o->kind == J_KLOGIC) { /* integer code on this chunk's bits: no vector register */
        kload(g, 0, o->mr);
        kload(g, 8, o->mr2);
        if (o->imm == 3) /* andn2: not r8d */
            put(g, 0x41), put(g, 0xf7), put(g, 0xd0);
        static const uint8_t opc[4] = {0x21, 0x09, 0x31, 0x21}; /* and, or, xor, and */
        put(g, 0x44), put(g, opc[o->imm]), put(g, 0xc0);        /* op eax, r8d */
        if (!g->avx2)
            put(g, 0x66);
        put(g, g->avx2 ? 0x88 : 0x89); /* mov [rdx + 4m], ax / al */
        modrm(g, 0, -1, 2, 4 * o->mw);
        /* or [rsp - 4 (slot + 1)], eax: the result's bits so far, for its SCC (in the red zone:
         * the code calls nothing) */
        put(g, 0x09), put(g, 0x44), put(g, 0x24), put(g, (uint8_t)(-4 * (o->acc + 1)));
        return;
    }
    if (o->kind == J_CMP64) { /* both halves equal; not equal: either differs */
        int al = use(g, t, o->s[0]), bl = use(g, t, o->s[1]);
        int ah = use(g, t, o->s[2]), bh = use(g, t, o->s[3]), ne = o->imm == 4;
        if (!g->avx2) {
            vcmp_k(g, J_CMPI, 1, al, bl, o->imm, 0);
            vcmp_k(g, J_CMPI, 2, ah, bh, o->imm, 0);
            kop(g, ne ? 0x45 : 0x41, 1, 1, 2); /* korw / kandw */
            kmov_mask(g, 1, 1, o->mw);
        } else {
            int r = grab(g, t), u;
            g->pin[r] = 1;
            u = grab(g, t);
            VPCMPEQD(g, r, al, bl);
            VPCMPEQD(g, u, ah, bh);
            VPANDD(g, r, r, u);
            mask2_store(g, r, o->mw, ne);
        }
        memset(g->pin, 0, sizeof g->pin);
        return;
    }
    if (o->kind == J_CMPI || o->kind == J_CMPU || o->kind == J_CMPF) { /* no VGPR written */
        int a = use(g, t, o->s[0]), b = use(g, t, o->s[1]);
        if (!g->avx2) {
            vcmp_k(g, o->kind, 1, a, b, o->imm, 0);
            kmov_mask(g, 1, 1, o->mw);
        } else if (o->kind == J_CMPF) { /* vcmpps ymm takes every predicate */
            int r = grab(g, t);
            vop(g, PP_NONE, MM_0F, 0xc2, (unsigned)r, (unsigned)a, b, 0, 0);
            put(g, o->imm);
            mask2_store(g, r, o->mw, 0);
        } else { /* EQ and GT only: the others swapped or inverted; unsigned biased */
            int r = grab(g, t), p = o->imm, inv = p == 4 || p == 5 || p == 2;
            g->pin[r] = 1;
            int lt = p == 1 || p == 5, eq = p == 0 || p == 4, x = lt ? b : a, y = lt ? a : b;
            if (eq) {
                VPCMPEQD(g, r, a, b);
            } else if (o->kind == J_CMPU) {
                ltu2(g, t, r, y, x, use(g, t, o->s[3])); /* x > y is y < x */
            } else {
                VPCMPGTD(g, r, x, y);
            }
            mask2_store(g, r, o->mw, inv);
        }
        memset(g->pin, 0, sizeof g->pin);
        return;
    }
    /* a constant shift count is an immediate, not a register */
    int imm_src = o->kind == J_LSHLREV || o->kind == J_LSHRREV || o->kind == J_ASHRREV ? 0
                  : o->kind == J_LSHLADD || o->kind == J_LSHLOR                        ? 1
                  : o->kind == J_ADDLSHL                                               ? 2
                                                                                       : -1;
    int imm = imm_src >= 0 && IS_K(o->s[imm_src]);
    unsigned sh = imm ? g->kval[o->s[imm_src] - KK] & 31 : 0;
    forget_dead_dest(g, o);
    for (int j = 0; j < 4; j++)
        if (o->s[j] >= 0 && !(imm && j == imm_src) && !(imm && j == 3))
            z[j] = use(g, t, o->s[j]);
    for (int j = 0; j < 2; j++) /* SDWA: the field, in a register of its own */
        if (o->sel[j]) {
            unsigned up, down;
            sdwa_shifts((o->sel[j] & 7u) - 1, &up, &down);
            int u = grab(g, t);
            g->pin[u] = 1;
            if (up)
                vpshift_imm(g, 6, u, z[j], up);
            vpshift_imm(g, o->sel[j] & 8 ? 4 : 2, u, up ? u : z[j], down);
            z[j] = u;
        }
    int d = grab(g, t);
    g->pin[d] = 1;
    int a = z[0], b = z[1], c = z[2], m = z[3];
    switch (o->kind) {
    /* The f32 NaN results are the hardware's (valu.h hw_add ...): x86 returns its first operand's
     * NaN (quieted) before its second's, so add and multiply name a first */
    case J_ADDF: VADDPS(g, d, a, b); break;
    case J_SUBF: /* a + (b ^ the sign bit, m): a NaN b comes out negated (hw_sub) */
    case J_SUBRF:
        VPXORD(g, d, o->kind == J_SUBF ? b : a, m);
        VADDPS(g, d, o->kind == J_SUBF ? a : b, d);
        break;
    case J_MULF: VMULPS(g, d, a, b); break;
    case J_FMA: emit_fma(g, t, d, a, b, c); break;
    case J_MOV: VMOVDQA32(g, d, a); break;
    case J_ADD: VPADDD(g, d, a, b); break;
    case J_SUB: VPSUBD(g, d, a, b); break;
    case J_SUBR: VPSUBD(g, d, b, a); break;
    case J_MULLO: VPMULLD(g, d, a, b); break;
    case J_LSHLREV:
    case J_LSHRREV:
    case J_ASHRREV:
        if (imm) {
            vpshift_imm(g, o->kind == J_LSHLREV ? 6 : o->kind == J_LSHRREV ? 2 : 4, d, b, sh);
        } else {
            VPANDD(g, d, a, m);
            if (o->kind == J_LSHLREV)
                VPSLLVD(g, d, b, d);
            else if (o->kind == J_LSHRREV)
                VPSRLVD(g, d, b, d);
            else
                VPSRAVD(g, d, b, d);
        }
        break;
    case J_LSHLADD:
    case J_LSHLOR:
        if (imm) {
            vpshift_imm(g, 6, d, a, sh);
        } else {
            VPANDD(g, d, b, m);
            VPSLLVD(g, d, a, d);
        }
        if (o->kind == J_LSHLADD)
            VPADDD(g, d, d, c);
        else
            VPORD(g, d, d, c);
        break;
    case J_ADDLSHL:
        VPADDD(g, d, a, b);
        if (imm) {
            vpshift_imm(g, 6, d, d, sh);
        } else {
            int tz = grab(g, t);
            VPANDD(g, tz, c, m);
            VPSLLVD(g, d, d, tz);
        }
        break;
    case J_AND: VPANDD(g, d, a, b); break;
    case J_OR: VPORD(g, d, a, b); break;
    case J_XOR: VPXORD(g, d, a, b); break;
    case J_XNOR: tern(g, d, a, b, b, m, 0xc3); break;
    case J_NOT: tern(g, d, a, a, a, m, 0x0f); break;
    case J_ADD3:
        VPADDD(g, d, a, b);
        VPADDD(g, d, d, c);
        break;
    case J_ANDOR: tern(g, d, a, b, c, m, 0xea); break;
    case J_OR3: tern(g, d, a, b, c, m, 0xfe); break;
    case J_XOR3: tern(g, d, a, b, c, m, 0x96); break;
    case J_XAD:
        VPXORD(g, d, a, b);
        VPADDD(g, d, d, c);
        break;
    case J_MAXU: VPMAXUD(g, d, a, b); break;
    case J_MINU: VPMINUD(g, d, a, b); break;
    case J_MAXI: VPMAXSD(g, d, a, b); break;
    case J_MINI: VPMINSD(g, d, a, b); break;
    case J_MULU24:
    case J_MADU24: {
        int tz = grab(g, t);
        VPANDD(g, d, a, m);
        VPANDD(g, tz, b, m);
        VPMULLD(g, d, d, tz);
        if (o->kind == J_MADU24)
            VPADDD(g, d, d, c);
        break;
    }
    case J_L64LO: /* (alo << s) + clo */
        if (o->imm) {
            vpshift_imm(g, 6, d, a, o->imm);
            VPADDD(g, d, d, c);
        } else {
            VPADDD(g, d, a, c);
        }
        break;
    case J_L64HI: { /* (ahi << s | alo >> (32 - s)) + chi + carry(alo << s, clo) */
        int tz = grab(g, t), uz;
        g->pin[tz] = 1;
        uz = grab(g, t);
        if (o->imm) {
            vpshift_imm(g, 6, d, b, o->imm);
            vpshift_imm(g, 2, tz, a, 32u - o->imm);
            VPORD(g, d, d, tz);
            vpshift_imm(g, 6, tz, a, o->imm);
        } else {
            VMOVDQA32(g, d, b);
            VMOVDQA32(g, tz, a);
        }
        VPADDD(g, uz, tz, c); /* the low sum */
        if (!g->avx2) {
            vpternlogd(g, tz, c, uz, 0xd4); /* carry in bit 31: majority(lo', clo, ~sum) */
        } else {                            /* (lo' & clo) | ((lo' | clo) & ~sum) */
            g->pin[uz] = 1;
            int vz = grab(g, t);
            VPORD(g, vz, tz, c);
            VPANDND(g, vz, uz, vz);
            VPANDD(g, tz, tz, c);
            VPORD(g, tz, tz, vz);
            g->pin[uz] = 0;
        }
        vpshift_imm(g, 2, tz, tz, 31);
        VPADDD(g, d, d, m);
        VPADDD(g, d, d, tz);
        break;
    }
    case J_SHL64LO: /* lo << s (0 from s = 32 on) */
        if (o->imm >= 32)
            VPXORD(g, d, d, d);
        else if (o->imm)
            vpshift_imm(g, 6, d, a, o->imm);
        else
            VMOVDQA32(g, d, a);
        break;
    case J_SHL64HI: /* hi << s | lo >> (32 - s); lo << (s - 32) from s = 32 on */
        if (o->imm >= 32) {
            vpshift_imm(g, 6, d, a, o->imm - 32u);
        } else if (o->imm) {
            int tz = grab(g, t);
            vpshift_imm(g, 6, d, b, o->imm);
            vpshift_imm(g, 2, tz, a, 32u - o->imm);
            VPORD(g, d, d, tz);
        } else {
            VMOVDQA32(g, d, b);
        }
        break;
    case J_CVTFU: VCVTUDQ2PS(g, d, a); break;
    case J_EXPF: (g->avx2 ? emit_exp2_vex : emit_exp2)(g, t, d, a); break;
    case J_PERM: (g->avx2 ? emit_perm_vex : emit_perm)(g, t, d, a, b, c); break;
    case J_CVTFI: VCVTDQ2PS(g, d, a); break;
    case J_MAXF:
    case J_MINF: { /* valu.h FMINMAX with IEEE set; m the quiet bit */
        int mx = o->kind == J_MAXF;
        uint8_t pr = mx ? 0x0e : 0x01; /* GT_OS, LT_OS */
        if (!g->avx2) {
            vcmp_k(g, J_CMPF, 1, a, b, pr, 0);
            vpblendmd(g, d, b, a, 1);            /* a > b ? a : b (NaNs: b) */
            vcmp_k(g, J_CMPF, 2, a, b, 0x00, 0); /* equal: a & b (max), a | b (min) */
            evex_k(g, PP_66, MM_0F, mx ? 0xdb : 0xeb, (unsigned)d, (unsigned)a, b, 0, 0, 2);
            vcmp_k(g, J_CMPF, 3, b, b, 0x03, 0); /* b NaN, a not: a */
            vcmp_k(g, J_CMPF, 4, a, a, 0x07, 0);
            kop(g, 0x41, 3, 3, 4);
            evex_k(g, PP_66, MM_0F, 0x6f, (unsigned)d, 0, a, 0, 0, 3);
            vcmp_k(g, J_CMPF, 4, a, a, 0x03, 0); /* signalling NaNs, a's first: quieted */
            vptestnmd(g, 5, a, m, 4);
            vcmp_k(g, J_CMPF, 6, b, b, 0x03, 0);
            vptestnmd(g, 6, b, m, 6);
            kop(g, 0x42, 6, 5, 6); /* kandnw: b's unless a's */
            evex_k(g, PP_66, MM_0F, 0xeb, (unsigned)d, (unsigned)a, m, 0, 0, 5);
            evex_k(g, PP_66, MM_0F, 0xeb, (unsigned)d, (unsigned)b, m, 0, 0, 6);
            break;
        }
        int p = grab(g, t), q, r;
        g->pin[p] = 1;
        g->pin[q = grab(g, t)] = 1;
        g->pin[r = grab(g, t)] = 1;
        VCMPPS(p, a, b, pr);
        VBLENDVPS(d, b, a, p);
        VCMPPS(p, a, b, 0x00);
        if (mx)
            VPANDD(g, q, a, b);
        else
            VPORD(g, q, a, b);
        VBLENDVPS(d, d, q, p);
        VCMPPS(p, b, b, 0x03);
        VCMPPS(q, a, a, 0x07);
        VPANDD(g, p, p, q);
        VBLENDVPS(d, d, a, p);
        /* signalling NaNs (a NaN whose quiet bit is clear), a's first: quieted */
        VPXORD(g, r, r, r);
        VCMPPS(p, a, a, 0x03);
        VPANDD(g, q, a, m);
        VPCMPEQD(g, q, q, r);
        VPANDD(g, p, p, q); /* a sNaN */
        VPORD(g, q, a, m);
        VBLENDVPS(d, d, q, p);
        VCMPPS(q, b, b, 0x03);
        VPANDND(g, p, p, q); /* b NaN, a not sNaN */
        VPANDD(g, q, b, m);
        VPCMPEQD(g, q, q, r);
        VPANDD(g, p, p, q); /* b sNaN, a not */
        VPORD(g, q, b, m);
        VBLENDVPS(d, d, q, p);
#undef VBLENDVPS
#undef VCMPPS
        break;
    }
    case J_MADLO: /* A * B + C.lo, low 32 bits */
        VPMULLD(g, d, a, b);
        VPADDD(g, d, d, c);
        break;
    case J_MADHI: { /* the high half of A * B + C, and the carry (overflow when signed) */
        int sgn = o->imm, p = grab(g, t), q, r;
        g->pin[p] = 1;
        g->pin[q = grab(g, t)] = 1;
        g->pin[r = grab(g, t)] = 1;
        vpmulxdq(g, sgn, p, a, b); /* the even lanes' products */
        vpsrlq32(g, q, a);
        vpsrlq32(g, r, b);
        vpmulxdq(g, sgn, q, q, r); /* the odd lanes' */
        vpsrlq32(g, p, p);
        if (g->avx2) { /* d = the products' high halves: the even lanes', the odd ones' */
            vex(g, PP_66, MM_0F3A, 0x02, (unsigned)d, (unsigned)p, q, 0, 0); /* vpblendd */
            put(g, 0xaa);
        } else {
            put(g, 0xb8), put32(g, 0xaaaa);                                  /* mov eax, 0xaaaa */
            put(g, 0xc5), put(g, 0xf8), put(g, 0x92), put(g, 0xc0 | 3 << 3); /* kmovw k3, eax */
            vpblendmd(g, d, p, q, 3);
        }
        VPMULLD(g, r, a, b); /* the low halves */
        VPADDD(g, p, r, c);  /* the low sum */
        if (sgn)
            VMOVDQA32(g, q, d); /* (the product's high half, for the overflow) */
        VPADDD(g, d, d, m);
        if (g->avx2) { /* the low sum's carry into d: - (all ones) */
            int sb = grab(g, t);
            g->pin[sb] = 1;
            VPCMPEQD(g, sb, sb, sb);
            vpshift_imm(g, 6, sb, sb, 31); /* the sign bit, for ltu2 */
            int cy = grab(g, t);
            g->pin[cy] = 1;
            ltu2(g, t, cy, p, r, sb);
            VPSUBD(g, d, d, cy);
            if (o->mw < 0)
                break;
            if (sgn) { /* overflow: the addends' signs agree and the sum's differs */
                VPXORD(g, q, q, m);
                VPXORD(g, r, d, m);
                VPANDND(g, q, q, r);
                mask2_store(g, q, o->mw, 0);
            } else { /* D < C (the sum wrapped) is d < C.hi: see below */
                ltu2(g, t, q, d, m, sb);
                mask2_store(g, q, o->mw, 0);
            }
            break;
        }
        vcmp_k(g, J_CMPU, 1, p, r, P_LT, 0); /* the low sum's carry */
        vpternlogd(g, r, r, r, 0xff);        /* all ones */
        vpsubd_k(g, d, d, r, 1);
        if (o->mw < 0)
            break;
        if (sgn) {
            VPXORD(g, q, q, m);
            VPXORD(g, r, d, m);
            VPANDND(g, q, q, r);
            VPXORD(g, r, r, r);
            vcmp_k(g, J_CMPI, 4, q, r, P_LT, 0); /* the sign bits */
        } else {
            /* The sum wraps exactly when d < C.hi: the product's high half is at most
             * 0xfffffffe, so with the low carry it adds less than 2^32 to C.hi, and d = C.hi
             * would need it to add 0 or 2^32 */
            vcmp_k(g, J_CMPU, 4, d, m, P_LT, 0);
        }
        kmov_mask(g, 1, 4, o->mw);
        break;
    }
    case J_CNDMASK: /* D = mask ? S1 : S0 */
        if (g->avx2) {
            int mz = grab(g, t);
            mask2_load(g, mz, o->mr);
            vop(g, PP_66, MM_0F3A, 0x4c, (unsigned)d, (unsigned)a, b, 0, 0); /* vpblendvb */
            put(g, (uint8_t)(mz << 4));
            break;
        }
        kmov_mask(g, 0, 1, o->mr);
        vpblendmd(g, d, a, b, 1);
        break;
    /* Carries: k1 the carry (borrow) out, k2 the carry in, m the constant 1 (AVX2: the sign
     * bit, for the unsigned compares).  With a carry in, t = a + b (a - b) carries on again
     * exactly when t is all ones (zero) and the carry is set. */
    case J_ADDCO:
    case J_ADDC:
        if (g->avx2) { /* m: the sign bit; cm: the carry in; c: the carry out */
            int cin = o->kind == J_ADDC, cm = 0, c;
            if (cin)
                g->pin[cm = grab(g, t)] = 1, mask2_load(g, cm, o->mr);
            VPADDD(g, d, a, b);
            g->pin[c = grab(g, t)] = 1;
            ltu2(g, t, c, d, a, m); /* the sum wrapped */
            if (cin) {
                VPSUBD(g, d, d, cm); /* + 1 */
                carry2_on(g, t, c, d, cm);
            }
            if (o->mw >= 0)
                mask2_store(g, c, o->mw, 0);
            break;
        }
        if (o->kind == J_ADDC)
            kmov_mask(g, 0, 2, o->mr);
        VPADDD(g, d, a, b);
        vcmp_k(g, J_CMPU, 1, d, a, P_LT, 0); /* the sum wrapped */
        if (o->kind == J_ADDC) {
            vpaddd_k(g, d, d, m, 2);
            vptestnmd(g, 3, d, d, 2);
            korw(g, 1, 1, 3);
        }
        if (o->mw >= 0)
            kmov_mask(g, 1, 1, o->mw);
        break;
    case J_SUBCO:
    case J_SUBRCO:
    case J_SUBB:
    case J_SUBBR: {
        int rev = o->kind == J_SUBRCO || o->kind == J_SUBBR, x = rev ? b : a, y = rev ? a : b;
        int cin = o->kind == J_SUBB || o->kind == J_SUBBR;
        if (g->avx2) {
            int cm = 0, c;
            if (cin)
                g->pin[cm = grab(g, t)] = 1, mask2_load(g, cm, o->mr);
            VPSUBD(g, d, x, y);
            g->pin[c = grab(g, t)] = 1;
            ltu2(g, t, c, x, y, m); /* x < y borrows */
            if (cin) {
                carry2_on(g, t, c, d, cm);
                VPADDD(g, d, d, cm); /* - 1 */
            }
            if (o->mw >= 0)
                mask2_store(g, c, o->mw, 0);
            break;
        }
        if (cin)
            kmov_mask(g, 0, 2, o->mr);
        VPSUBD(g, d, x, y);
        vcmp_k(g, J_CMPU, 1, x, y, P_LT, 0); /* x < y borrows */
        if (cin) {
            vptestnmd(g, 3, d, d, 2);
            korw(g, 1, 1, 3);
            vpsubd_k(g, d, d, m, 2);
        }
        if (o->mw >= 0)
            kmov_mask(g, 1, 1, o->mw);
        break;
    }
    default: g->fail = 1;
    }
    take_result(g, d, o->d);
}

static void emit_salu(gen *g, const xinst *x);
static void setcc_scc(gen *g, uint8_t cc);
/* Code for the lowered block: the hoisted scalar ops pre[0..npre), the loop over quarters, then
 * the deferred scalar ops salu[0..nsalu) (native code, emit_salu()).  Returns the offset of its
 * entry. */
static size_t emit_block(gen *g, unsigned quarters, const xinst *const *pre, unsigned npre,
                         const xinst *const *salu, unsigned nsalu) {
    size_t entry = g->len;
    for (unsigned i = 0; i < npre; i++)
        if (pre[i]->cls == XC_SMEM)
            emit_sload(g, pre[i]);
        else
            emit_salu(g, pre[i]);
    if (!g->nops) { /* scalar ops alone (block(): none deferred) */
        put(g, 0xc3);
        return entry;
    }
    for (int t = 0, k = 0; t < g->nops; t++) /* mask ops' result bits: mov dword [rsp - 4k], 0 */
        if (g->ops[t].kind == J_KLOGIC) {
            put(g, 0xc7), put(g, 0x44), put(g, 0x24), put(g, (uint8_t)(-4 * ++k));
            put32(g, 0);
        }
    for (int z = 0; z < 32; z++)
        g->key[z] = -1, g->dirty[z] = 0, g->pin[z] = 0;
    g->nreg = g->avx2 ? 16 : 32;
    memset(g->where, 0xff, sizeof g->where);
    /* lea rsi, [rdi + offsetof(wave, v)]; mov ecx, chunks (16 lanes each, AVX2 8) */
    put(g, 0x48), put(g, 0x8d), put(g, 0xb7), put32(g, (uint32_t)offsetof(wave, v));
    put(g, 0xb9), put32(g, g->avx2 ? 2 * quarters : quarters);
    if (g->masks) /* lea rdx, [rdi + offsetof(wave, s)]: chunk c's mask bits at [rdx + 2c] */
        put(g, 0x48), put(g, 0x8d), put(g, 0x97), put32(g, (uint32_t)offsetof(wave, s));
    if (g->st >= 0) /* lea r10, [rdi + offsetof(wave, jit_st)]: the chunk's host address */
        put(g, 0x4c), put(g, 0x8d), put(g, 0x97), put32(g, (uint32_t)offsetof(wave, jit_st));
    size_t top = g->len;
    for (int t = 0; t < g->nops; t++)
        emit(g, t);
    for (int z = 0; z < 32; z++)
        drop(g, z);
    /* add rsi, 64 (32); (add rdx, 2;) dec ecx; jnz top; vzeroupper; ret */
    put(g, 0x48), put(g, 0x83), put(g, 0xc6), put(g, g->avx2 ? 0x20 : 0x40);
    if (g->masks)
        put(g, 0x48), put(g, 0x83), put(g, 0xc2), put(g, g->avx2 ? 1 : 2);
    if (g->st >= 0) /* add r10, 8 */
        put(g, 0x49), put(g, 0x83), put(g, 0xc2), put(g, 8);
    put(g, 0xff), put(g, 0xc9);
    put(g, 0x0f), put(g, 0x85), put32(g, (uint32_t)(int32_t)(top - (g->len + 4)));
    if (g->st >= 0)
        emit_st_tail(g);
    put(g, 0xc5), put(g, 0xf8), put(g, 0x77);
    for (unsigned i = 0, k = 0; i < nsalu; i++)
        if (IS_KSCC(salu[i])) { /* cmp dword [rsp - 4 (k + 1)], 0; setne -> SCC */
            put(g, 0x83), put(g, 0x7c), put(g, 0x24), put(g, (uint8_t)(-4 * (int)++k)), put(g, 0);
            setcc_scc(g, 0x95);
        } else {
            emit_salu(g, salu[i]);
        }
    put(g, 0xc3);
    return entry;
}

/* ---- scalar ops after the code ---------------------------------------------------------------
 * The deferred scalar ops of a block as x86-64 integer code after its loop (rdi still the wave)
 * instead of a handler call each, when every one of them is of these kinds: the same results
 * and SCC as src/exec/salu.c's handlers, in program order. */

enum {
    S_MOV = 1, /* D = S0 */
    S_MOVK,    /* D = SIMM16 (SOPK) */
    S_ADDU,    /* SCC = carry */
    S_SUBU,    /* SCC = borrow */
    S_ADDC,    /* + SCC; SCC = carry */
    S_SUBB,    /* - SCC; SCC = borrow */
    S_ADDI,    /* SCC = signed overflow */
    S_SUBI,
    S_AND, /* logic and shifts: SCC = D != 0 */
    S_OR,
    S_XOR,
    S_ANDN2,
    S_LSHL,
    S_LSHR,
    S_ASHR,
    S_MUL, /* SCC kept */
    S_CSEL,
    S_CMP,   /* SCC = S0 cond S1 (the setcc opcode in the table) */
    S_MULK,  /* D = D * SIMM16 (SOPK; SCC kept) */
    S_ADDK,  /* D = D + SIMM16; SCC = signed overflow */
    S_SAVEX, /* D = EXEC; EXEC = S0 op EXEC (op: the logic kind in cc); SCC = EXEC != 0 */
};
/* Sets of SGPRs, a bit each (salu_sets, block()). */
static int meets(const uint64_t a[2], const uint64_t b[2]) {
    return ((a[0] & b[0]) | (a[1] & b[1])) != 0;
}
static void add_bits(uint64_t a[2], const uint64_t b[2]) { a[0] |= b[0], a[1] |= b[1]; }
static const struct {
    uint16_t op;
    uint8_t kind, w64, cc; /* cc: the setcc opcode's second byte for S_CMP; S_SAVEX's logic */
} sops[] = {
    {ISA_OPL_s_mov_b32, S_MOV, 0, 0},
    {ISA_OPL_s_mov_b64, S_MOV, 1, 0},
    {ISA_OPL_s_movk_i32, S_MOVK, 0, 0},
    {ISA_OPL_s_add_u32, S_ADDU, 0, 0},
    {ISA_OPL_s_sub_u32, S_SUBU, 0, 0},
    {ISA_OPL_s_addc_u32, S_ADDC, 0, 0},
    {ISA_OPL_s_subb_u32, S_SUBB, 0, 0},
    {ISA_OPL_s_add_i32, S_ADDI, 0, 0},
    {ISA_OPL_s_sub_i32, S_SUBI, 0, 0},
    {ISA_OPL_s_and_b32, S_AND, 0, 0},
    {ISA_OPL_s_and_b64, S_AND, 1, 0},
    {ISA_OPL_s_or_b32, S_OR, 0, 0},
    {ISA_OPL_s_or_b64, S_OR, 1, 0},
    {ISA_OPL_s_xor_b32, S_XOR, 0, 0},
    {ISA_OPL_s_xor_b64, S_XOR, 1, 0},
    {ISA_OPL_s_andn2_b32, S_ANDN2, 0, 0},
    {ISA_OPL_s_andn2_b64, S_ANDN2, 1, 0},
    {ISA_OPL_s_lshl_b32, S_LSHL, 0, 0},
    {ISA_OPL_s_lshr_b32, S_LSHR, 0, 0},
    {ISA_OPL_s_ashr_i32, S_ASHR, 0, 0},
    {ISA_OPL_s_mul_i32, S_MUL, 0, 0},
    {ISA_OPL_s_cselect_b32, S_CSEL, 0, 0},
    {ISA_OPL_s_cselect_b64, S_CSEL, 1, 0},
    {ISA_OPL_s_cmp_eq_u32, S_CMP, 0, 0x94},
    {ISA_OPL_s_cmp_eq_i32, S_CMP, 0, 0x94},
    {ISA_OPL_s_cmp_lg_u32, S_CMP, 0, 0x95},
    {ISA_OPL_s_cmp_lg_i32, S_CMP, 0, 0x95},
    {ISA_OPL_s_cmp_gt_i32, S_CMP, 0, 0x9f},
    {ISA_OPL_s_cmp_ge_i32, S_CMP, 0, 0x9d},
    {ISA_OPL_s_cmp_lt_i32, S_CMP, 0, 0x9c},
    {ISA_OPL_s_cmp_le_i32, S_CMP, 0, 0x9e},
    {ISA_OPL_s_cmp_gt_u32, S_CMP, 0, 0x97},
    {ISA_OPL_s_cmp_ge_u32, S_CMP, 0, 0x93},
    {ISA_OPL_s_cmp_lt_u32, S_CMP, 0, 0x92},
    {ISA_OPL_s_cmp_le_u32, S_CMP, 0, 0x96},
    {ISA_OPL_s_mulk_i32, S_MULK, 0, 0},
    {ISA_OPL_s_addk_i32, S_ADDK, 0, 0},
    {ISA_OPL_s_and_saveexec_b64, S_SAVEX, 1, S_AND},
    {ISA_OPL_s_or_saveexec_b64, S_SAVEX, 1, S_OR},
    {ISA_OPL_s_xor_saveexec_b64, S_SAVEX, 1, S_XOR},
    {ISA_OPL_s_andn2_saveexec_b64, S_SAVEX, 1, S_ANDN2},
};
static int sop_index(const xinst *x) {
    for (size_t i = 0; i < sizeof sops / sizeof sops[0]; i++)
        if (sops[i].op == x->in.op)
            return (int)i;
    return -1;
}
/* Whether x has native code here: a kind above, SGPR (below 128) or constant sources. */
static int salu_native(const xinst *x) {
    int i = sop_index(x);
    if (i < 0)
        return 0;
    int k = sops[i].kind;
    unsigned ns = k == S_MOVK || k == S_MULK || k == S_ADDK ? 0
                  : k == S_MOV || k == S_SAVEX              ? 1
                                                            : 2;
    if (x->in.nsrc < ns ||
        (k != S_CMP && (x->in.ndst != 1 || x->in.dst[0].kind != ISA_OPND_SREG)) ||
        ((k == S_MULK || k == S_ADDK) && x->in.dst[0].idx >= 128))
        return 0;
    for (unsigned j = 0; j < ns; j++) {
        const isa_opnd *o = &x->in.src[j];
        if (o->kind == ISA_OPND_SREG ? o->idx + 1u + sops[i].w64 > 128
                                     : o->kind != ISA_OPND_INLINE && o->kind != ISA_OPND_LITERAL)
            return 0;
    }
    return 1;
}
/* Whether native scalar op x reads SCC (with carry in, s_cselect) or writes it (all but the
 * moves, s_mul_i32 and s_cselect). */
static void salu_scc(const xinst *x, int *reads, int *writes) {
    int k = sops[sop_index(x)].kind;
    *reads = k == S_ADDC || k == S_SUBB || k == S_CSEL;
    *writes = k != S_MOV && k != S_MOVK && k != S_MUL && k != S_CSEL && k != S_MULK;
}
/* Whether x is one of the saveexec ops with native code (S_SAVEX): they read and write EXEC
 * besides their operands. */
static int saveexec(const xinst *x) {
    int i = sop_index(x);
    return i >= 0 && sops[i].kind == S_SAVEX;
}
/* The SGPRs (below 128) scalar op x reads and writes, a bit each: its operands, the destination
 * s_mulk_i32 and s_addk_i32 also read, and the saveexec ops' EXEC. */
static void salu_sets(const xinst *x, uint64_t rd[2], uint64_t wr[2]) {
    rd[0] = rd[1] = wr[0] = wr[1] = 0;
    for (unsigned k = 0; k < x->in.ndst; k++)
        for (unsigned r = x->in.dst[k].idx; r < x->in.dst[k].idx + x->in.dst[k].n && r < 128; r++)
            wr[r >> 6] |= 1ull << (r & 63);
    if (x->in.op == ISA_OPL_s_mulk_i32 || x->in.op == ISA_OPL_s_addk_i32)
        add_bits(rd, wr);
    if (saveexec(x))
        rd[1] |= 3ull << 62, wr[1] |= 3ull << 62;
    for (unsigned k = 0; k < x->in.nsrc; k++)
        if (x->in.src[k].kind == ISA_OPND_SREG)
            for (unsigned r = x->in.src[k].idx; r < x->in.src[k].idx + x->in.src[k].n && r < 128;
                 r++)
                rd[r >> 6] |= 1ull << (r & 63);
}
/* mov eax/ecx (r 0/1; rax/rcx when w64) <- source j */
static void sload(gen *g, const xinst *x, int j, unsigned r, int w64) {
    const isa_opnd *o = &x->in.src[j];
    if (o->kind == ISA_OPND_SREG) {
        if (w64)
            put(g, 0x48);
        put(g, 0x8b);
        modrm(g, r, -1, R_RDI, (int32_t)(offsetof(wave, s) + 4 * (size_t)o->idx));
    } else if (w64) { /* mov r64, imm64 */
        put(g, 0x48), put(g, (uint8_t)(0xb8 + r));
        put32(g, (uint32_t)x->k[j]), put32(g, (uint32_t)(x->k[j] >> 32));
    } else {
        put(g, (uint8_t)(0xb8 + r)), put32(g, (uint32_t)x->k[j]);
    }
}
static void scc_op(gen *g, uint8_t opc, unsigned reg) { /* opc [rdi + scc] (reg: modrm.reg) */
    put(g, opc);
    modrm(g, reg, -1, R_RDI, (int32_t)offsetof(wave, scc));
}
static void setcc_scc(gen *g, uint8_t cc) { /* setcc dl; movzx edx, dl; mov [rdi + scc], edx */
    put(g, 0x0f), put(g, cc), put(g, 0xc2);
    put(g, 0x0f), put(g, 0xb6), put(g, 0xd2);
    scc_op(g, 0x89, 2);
}
static void emit_salu(gen *g, const xinst *x) {
    int i = sop_index(x), k = sops[i].kind, w = sops[i].w64;
    uint8_t rexw = w ? 0x48 : 0;
#define RW() (rexw ? put(g, rexw) : (void)0)
    if (k == S_MOVK) {
        put(g, 0xb8), put32(g, (uint32_t)(int32_t)(int16_t)(x->in.w[0] & 0xffff));
    } else if (k == S_MULK || k == S_ADDK) { /* eax = D, ecx = SIMM16 */
        rdi_mem(g, 0x40, 0x8b, offsetof(wave, s) + 4 * (size_t)x->in.dst[0].idx);
        put(g, 0xb9), put32(g, (uint32_t)(int32_t)(int16_t)(x->in.w[0] & 0xffff));
    } else {
        sload(g, x, 0, 0, w);
        if (k != S_MOV && k != S_SAVEX)
            sload(g, x, 1, 1, w);
    }
    switch (k) {
    case S_ADDU: put(g, 0x01), put(g, 0xc8), setcc_scc(g, 0x92); break; /* add; setc */
    case S_SUBU: put(g, 0x29), put(g, 0xc8), setcc_scc(g, 0x92); break; /* sub; setc */
    case S_ADDI: put(g, 0x01), put(g, 0xc8), setcc_scc(g, 0x90); break; /* add; seto */
    case S_SUBI: put(g, 0x29), put(g, 0xc8), setcc_scc(g, 0x90); break;
    case S_ADDC:
    case S_SUBB:
        put(g, 0x0f), put(g, 0xba), modrm(g, 4, -1, R_RDI, (int32_t)offsetof(wave, scc)), put(g, 0);
        put(g, k == S_ADDC ? 0x11 : 0x19), put(g, 0xc8); /* bt scc, 0; adc / sbb eax, ecx */
        setcc_scc(g, 0x92);
        break;
    case S_AND:
    case S_OR:
    case S_XOR:
    case S_ANDN2:
    case S_LSHL:
    case S_LSHR:
    case S_ASHR:
        if (k == S_ANDN2)
            RW(), put(g, 0xf7), put(g, 0xd1); /* not ecx */
        RW();
        if (k == S_LSHL || k == S_LSHR || k == S_ASHR) /* shl / shr / sar eax, cl */
            put(g, 0xd3), put(g, k == S_LSHL ? 0xe0 : k == S_LSHR ? 0xe8 : 0xf8);
        else
            put(g, k == S_OR ? 0x09 : k == S_XOR ? 0x31 : 0x21), put(g, 0xc8);
        RW(), put(g, 0x85), put(g, 0xc0); /* test eax, eax */
        setcc_scc(g, 0x95);
        break;
    case S_MUL:
    case S_MULK: put(g, 0x0f), put(g, 0xaf), put(g, 0xc1); break; /* imul eax, ecx */
    case S_ADDK: put(g, 0x01), put(g, 0xc8), setcc_scc(g, 0x90); break;
    case S_SAVEX: { /* rcx = EXEC, rdx = it or ~it; rax op= rdx; EXEC = rax; SCC; D = rcx */
        const size_t ex = offsetof(wave, s) + 4 * (size_t)ISA_SREG_EXEC_LO;
        put(g, 0x48), put(g, 0x8b), modrm(g, 1, -1, R_RDI, (int32_t)ex); /* mov rcx, EXEC */
        put(g, 0x48), put(g, 0x89), put(g, 0xca);                        /* mov rdx, rcx */
        if (sops[i].cc == S_ANDN2)
            put(g, 0x48), put(g, 0xf7), put(g, 0xd2); /* not rdx */
        uint8_t opc = sops[i].cc == S_OR ? 0x09 : sops[i].cc == S_XOR ? 0x31 : 0x21;
        put(g, 0x48), put(g, opc), put(g, 0xd0); /* and / or / xor rax, rdx */
        rdi_mem(g, 0x48, 0x89, ex);
        put(g, 0x48), put(g, 0x85), put(g, 0xc0); /* test rax, rax */
        setcc_scc(g, 0x95);
        put(g, 0x48), put(g, 0x89), put(g, 0xc8); /* mov rax, rcx: D below */
        break;
    }
    case S_CSEL:
        scc_op(g, 0x83, 7), put(g, 0); /* cmp dword [scc], 0; cmove eax, ecx */
        RW(), put(g, 0x0f), put(g, 0x44), put(g, 0xc1);
        break;
    case S_CMP: put(g, 0x39), put(g, 0xc8), setcc_scc(g, sops[i].cc); return; /* cmp eax, ecx */
    default: break;
    }
    unsigned d = x->in.dst[0].idx;
    if (d != 125) { /* (the null register: no write) */
        RW(), put(g, 0x89);
        modrm(g, 0, -1, R_RDI, (int32_t)(offsetof(wave, s) + 4 * (size_t)d));
    }
#undef RW
}

/* ---- blocks -------------------------------------------------------------------------------- */

/* The key of source i of x (a 32-bit register or constant), half h of a pair source. */
static int src_key(gen *g, const xinst *x, int i, int h) {
    const isa_opnd *o = &x->in.src[i];
    if (o->kind == ISA_OPND_VGPR)
        return o->idx + h < KS ? o->idx + h : -1;
    if (o->kind == ISA_OPND_SREG)
        return o->idx + h < 128 ? KS + o->idx + h : -1;
    if (o->kind == ISA_OPND_INLINE || o->kind == ISA_OPND_LITERAL)
        return kconst(g, (uint32_t)(x->k[i] >> (h ? 32 : 0)));
    return -1;
}

static int shift_kind(unsigned kind) {
    return kind == J_LSHLREV || kind == J_LSHRREV || kind == J_ASHRREV || kind == J_LSHLADD ||
           kind == J_LSHLOR || kind == J_ADDLSHL;
}

/* Whether a lane mask at SGPR m (a pair unless the program is wave32) can be read or written in a
 * block: below EXEC, and not the discarded slot 125 (writes; vmask_write); or in the slot pairs
 * where a paired wave32 run keeps its masks (pair.c). */
static int mask_ok(const xinst *x, unsigned m, int write) {
    unsigned hi = m + !(x->xf & XI_MASK32);
    return write ? (m != 125 && hi < ISA_SREG_EXEC_LO) || (m >= XS_PAIR_MASK && hi < NSREG)
                 : hi < NSREG;
}

/* The lane-mask ops: compares, v_cndmask_b32, the carry forms.  Their 32-bit (64-bit compares:
 * pair) sources as for the other ops; the mask read is the VOP3 form's third source or VCC, the
 * mask written the compare's SGPR (vcmp_dst) or the carry's (vcarry_dst), VCC in the VOP2/VOPC
 * forms. A compare into the discarded slot has no effect: nothing to lower. */
static int lower_mask(gen *g, const xinst *x, unsigned kind) {
    int cmp = kind <= J_CMP64, cin = kind == J_CNDMASK || kind >= J_ADDC, cout = kind >= J_ADDCO;
    unsigned ns = x->in.nsrc;
    if (!x->plain || ns < 2 || ns > 2u + cin)
        return 0;
    lop *l = &g->ops[g->nops];
    memset(l, 0xff, sizeof *l);
    l->kind = (uint8_t)kind;
    l->ns = 2;
    l->imm = cmp ? pred_of[x->in.op] : 0;
    for (int j = 0; j < 2; j++) {
        const isa_opnd *o = &x->in.src[j];
        int q = kind == J_CMP64; /* a pair's halves as two sources each */
        if ((o->kind == ISA_OPND_VGPR || o->kind == ISA_OPND_SREG) && o->n != 1 + q)
            return 0;
        if ((l->s[j] = (int16_t)src_key(g, x, j, 0)) < 0 ||
            (q && (l->s[2 + j] = (int16_t)src_key(g, x, j, 1)) < 0))
            return 0;
    }
    if (cin) {
        const isa_opnd *o = &x->in.src[2];
        unsigned m = ns < 3 ? ISA_SREG_VCC_LO : o->idx;
        if ((ns == 3 && o->kind != ISA_OPND_SREG) || !mask_ok(x, m, 0))
            return 0;
        l->mr = (int16_t)m;
    }
    if (cmp || cout) {
        unsigned m = cmp ? vcmp_dst(x) : vcarry_dst(x);
        if (m == 125) {
            if (cmp)
                return 1;
        } else if (!mask_ok(x, m, 1)) {
            return 0;
        } else {
            l->mw = (int16_t)m;
        }
    }
    if (!cmp) {
        const isa_opnd *d = &x->in.dst[0];
        if (x->in.ndst < 1 || d->kind != ISA_OPND_VGPR || d->n != 1 || d->idx >= KS)
            return 0;
        l->d = (int16_t)d->idx;
    }
    /* helper constants: AVX-512 adds a carry in as 1; AVX2 compares unsigned biased */
    if (g->avx2 ? kind == J_CMPU || kind >= J_ADDCO : kind >= J_ADDC)
        if ((l->s[3] = (int16_t)kconst(g, g->avx2 ? 0x80000000u : 1)) < 0)
            return 0;
    g->masks = 1;
    g->nops++;
    return 1;
}

/* v_mad_u64_u32 / v_mad_i64_i32 D, sdst, A, B, C: the high half first (it reads C.hi, and the
 * low half's sources must not be the high half's destination), then the low one. */
static int lower_mad(gen *g, const xinst *x, int sgn) {
    const isa_opnd *d = &x->in.dst[0];
    if (!x->plain || x->in.nsrc != 3 || x->in.ndst < 1 || d->kind != ISA_OPND_VGPR || d->n != 2 ||
        d->idx + 2 > KS)
        return 0;
    int k[4];
    for (int j = 0; j < 3; j++) {
        const isa_opnd *o = &x->in.src[j];
        if ((o->kind == ISA_OPND_VGPR || o->kind == ISA_OPND_SREG) && o->n != (j == 2 ? 2 : 1))
            return 0;
        if ((k[j] = src_key(g, x, j, 0)) < 0)
            return 0;
    }
    if ((k[3] = src_key(g, x, 2, 1)) < 0)
        return 0;
    int hi = d->idx + 1;
    if (hi == k[0] || hi == k[1] || hi == k[2])
        return 0;
    unsigned m = vcarry_dst(x);
    int mw = -1;
    if (m != 125) {
        if (!mask_ok(x, m, 1))
            return 0;
        mw = (int)m;
    }
    lop *l = &g->ops[g->nops];
    memset(l, 0xff, 2 * sizeof *l);
    l[0].kind = J_MADHI, l[0].ns = 4, l[0].imm = (uint8_t)sgn, l[0].d = (int16_t)hi;
    l[1].kind = J_MADLO, l[1].ns = 3, l[1].imm = 0, l[1].d = (int16_t)d->idx;
    for (int j = 0; j < 4; j++)
        l[0].s[j] = (int16_t)k[j];
    for (int j = 0; j < 3; j++)
        l[1].s[j] = (int16_t)k[j];
    l[0].mw = (int16_t)mw;
    g->masks |= mw >= 0;
    g->nops += 2;
    return 1;
}

/* An SDWA instruction a block takes: source selects only (the destination the whole DWORD, no
 * neg, abs, clamp or omod), and not in the reference tier, which builds no blocks anyway. */
static int sdwa_ok(const xinst *x) {
    const isa_valu_fields *v = &x->in.f.v;
    return x->in.variant == ISA_VAR_SDWA && !(x->xf & XI_REF) && v->dst_sel >= 6 &&
           !(v->neg | v->abs | v->neg_hi | v->opsel | v->opsel_hi) && !v->clamp && !v->omod;
}

static int lower_op(gen *g, const xinst *x);
/* Lower x into g->ops; 0 when it has no block form.  Only lower_op's last path takes SDWA and
 * sets the selects; the other ops have none. */
static int lower(gen *g, const xinst *x) {
    int before = g->nops;
    if (!lower_op(g, x))
        return 0;
    for (int i = before; i < g->nops; i++)
        if (x->in.variant != ISA_VAR_SDWA)
            g->ops[i].sel[0] = g->ops[i].sel[1] = 0;
    return 1;
}
static int lower_op(gen *g, const xinst *x) {
    if (x->fn == x_rdna_vopd) { /* both halves, X first (Y reading X's result is _rbw) */
        const xinst *h = (const xinst *)(uintptr_t)x->k[0];
        int before = g->nops;
        if (!lower(g, &h[0]) || !lower(g, &h[1])) {
            g->nops = before;
            return 0;
        }
        return 1;
    }
    unsigned op = x->in.op, kind = kind_of[op];
    if (kind == J_MADU64 || kind == J_MADI64)
        return lower_mad(g, x, kind == J_MADI64);
    if (kind >= J_CMPI)
        return lower_mask(g, x, kind);
    if (!kind || x->in.nsrc != nsrc_of[op] || x->in.ndst != 1 ||
        x->in.dst[0].kind != ISA_OPND_VGPR || x->in.dst[0].idx + 2 > KS)
        return 0;
    if (kind == J_L64ADD) { /* D.u64 = (A.u64 << (S1 & 7)) + C.u64: high half, then low */
        const isa_opnd *sh = &x->in.src[1];
        if (!x->plain || x->in.dst[0].n != 2 ||
            (sh->kind != ISA_OPND_INLINE && sh->kind != ISA_OPND_LITERAL))
            return 0;
        int k[4], d = x->in.dst[0].idx;
        for (int h = 0; h < 2; h++) {       /* (a constant's halves: its 64-bit value's, x->k) */
            k[h] = src_key(g, x, 0, h);     /* alo, ahi */
            k[2 + h] = src_key(g, x, 2, h); /* clo, chi */
        }
        if (k[0] < 0 || k[1] < 0 || k[2] < 0 || k[3] < 0 || d + 1 == k[0] || d + 1 == k[2])
            return 0; /* (the high half written first must not be a source of the low) */
        for (int h = 1; h >= 0; h--) {
            lop *l = &g->ops[g->nops++];
            l->kind = h ? J_L64HI : J_L64LO;
            l->ns = 4;
            l->imm = (uint8_t)(x->k[1] & 7);
            l->d = (int16_t)(d + h);
            l->s[0] = (int16_t)k[0], l->s[1] = (int16_t)(h ? k[1] : -1);
            l->s[2] = (int16_t)k[2], l->s[3] = (int16_t)(h ? k[3] : -1);
        }
        return 1;
    }
    if (kind == J_SHL64 || kind == J_MOV64) {
        /* v_lshlrev_b64 D, count, B with a constant count (high half first, as above), or
         * v_mov_b64 D, S (low half first: S's high half must not be D's low one) */
        int sh = kind == J_SHL64, d = x->in.dst[0].idx;
        const isa_opnd *v = &x->in.src[sh];
        if (!x->plain || x->in.dst[0].n != 2 ||
            (sh && x->in.src[0].kind != ISA_OPND_INLINE && x->in.src[0].kind != ISA_OPND_LITERAL) ||
            (v->kind != ISA_OPND_VGPR && v->kind != ISA_OPND_SREG &&
             (sh || (v->kind != ISA_OPND_INLINE && v->kind != ISA_OPND_LITERAL))))
            return 0;
        int lo = src_key(g, x, sh, 0), hi = src_key(g, x, sh, 1);
        if (lo < 0 || hi < 0 || (sh ? d + 1 == lo : d == hi))
            return 0;
        for (int i = 0; i < 2; i++) {
            int h = sh ? 1 - i : i;
            lop *l = &g->ops[g->nops++];
            l->kind = !sh ? J_MOV : h ? J_SHL64HI : J_SHL64LO;
            l->ns = 2;
            l->imm = sh ? (uint8_t)(x->k[0] & 63) : 0;
            l->d = (int16_t)(d + h);
            l->s[0] = (int16_t)(sh ? lo : h ? hi : lo);
            l->s[1] = (int16_t)(sh && h ? hi : -1);
            l->s[2] = l->s[3] = -1;
        }
        return 1;
    }
    if (kind == J_MAXF || kind == J_MINF || kind == J_MAX3F || kind == J_MIN3F) {
        /* d = f(a, b) (then d = f(d, c)): c must not be d, which the first one writes */
        int three = kind == J_MAX3F || kind == J_MIN3F, k[3], d = x->in.dst[0].idx;
        if (!x->plain)
            return 0;
        for (int j = 0; j < 2 + three; j++) {
            const isa_opnd *o = &x->in.src[j];
            if (((o->kind == ISA_OPND_VGPR || o->kind == ISA_OPND_SREG) && o->n != 1) ||
                (k[j] = src_key(g, x, j, 0)) < 0)
                return 0;
        }
        int qb = kconst(g, 0x400000); /* the quiet bit */
        if (qb < 0 || (three && k[2] == d))
            return 0;
        for (int i = 0; i <= three; i++) {
            lop *l = &g->ops[g->nops++];
            l->kind = kind == J_MAXF || kind == J_MAX3F ? J_MAXF : J_MINF;
            l->ns = 2, l->imm = 0, l->d = (int16_t)d;
            l->s[0] = (int16_t)(i ? d : k[0]), l->s[1] = (int16_t)(i ? k[2] : k[1]);
            l->s[2] = -1, l->s[3] = (int16_t)qb;
        }
        return 1;
    }
    if (kind >= J_PKFMA) {
        /* two f32 operations, the low dwords then the high ones; each source's dword for each
         * half is the one op_sel / op_sel_hi picks (valu_f16.c pk_src32: the default takes low
         * with low and high with high; v_pk_mul_f32 v[0:1], v[2:3], v[4:5] op_sel_hi:[0,1]
         * scales both halves by v2).  No neg, abs, clamp or omod; register sources only; the
         * high operation must not read the low destination dword, which the low one wrote. */
        const isa_valu_fields *v = &x->in.f.v;
        if (x->in.variant >= ISA_VAR_SDWA || (v->neg | v->abs | v->neg_hi) || v->clamp || v->omod ||
            x->in.dst[0].n != 2)
            return 0;
        for (unsigned i = 0; i < x->in.nsrc; i++)
            if (x->in.src[i].kind != ISA_OPND_VGPR && x->in.src[i].kind != ISA_OPND_SREG)
                return 0;
        for (int h = 0; h < 2; h++) {
            lop *l = &g->ops[g->nops + h];
            l->kind = kind == J_PKFMA ? J_FMA : kind == J_PKMUL ? J_MULF : J_ADDF;
            l->ns = (uint8_t)x->in.nsrc;
            l->d = (int16_t)(x->in.dst[0].idx + h);
            for (int j = 0; j < 4; j++) {
                int sel = ((h ? v->opsel_hi : v->opsel) >> j) & 1;
                int k = j < (int)x->in.nsrc ? src_key(g, x, j, sel) : -1;
                if (j < (int)x->in.nsrc && (k < 0 || (h && k == x->in.dst[0].idx)))
                    return 0;
                l->s[j] = (int16_t)k;
            }
        }
        g->nops += 2;
        return 1;
    }
    /* a plain instruction (no modifier, DPP or SDWA) with 32-bit register or constant sources:
     * what the VV clones run, and the mixes of SGPRs and constants they do not take; or the
     * same with SDWA source selects (sdwa_ok) */
    int sdwa = !x->plain && sdwa_ok(x);
    if (!x->plain && !sdwa)
        return 0;
    for (unsigned i = 0; i < x->in.nsrc; i++)
        if ((x->in.src[i].kind == ISA_OPND_VGPR || x->in.src[i].kind == ISA_OPND_SREG) &&
            x->in.src[i].n != 1)
            return 0;
    lop *l = &g->ops[g->nops];
    l->kind = (uint8_t)kind;
    l->ns = (uint8_t)x->in.nsrc;
    l->d = (int16_t)x->in.dst[0].idx;
    l->sel[0] = l->sel[1] = 0;
    for (int j = 0; j < 4; j++) {
        int k = j < (int)x->in.nsrc ? src_key(g, x, j, 0) : -1;
        if (j < (int)x->in.nsrc && k < 0)
            return 0;
        l->s[j] = (int16_t)k;
    }
    for (int j = 0; sdwa && j < 2 && j < (int)x->in.nsrc; j++) {
        const isa_valu_fields *v = &x->in.f.v;
        unsigned sel = j ? v->src1_sel : v->src0_sel, sx = (v->sext >> j) & 1, up, down;
        if (sel >= 6)
            continue;
        if (!IS_K(l->s[j])) { /* shifted in the code (emit) */
            l->sel[j] = (uint8_t)(1 + sel + 8 * sx);
            continue;
        }
        /* a constant's field is a constant */
        uint32_t c = g->kval[l->s[j] - KK];
        sdwa_shifts(sel, &up, &down);
        c = sx ? (uint32_t)((int32_t)(c << up) >> down) : c << up >> down;
        if ((l->s[j] = (int16_t)kconst(g, c)) < 0)
            return 0;
    }
    if (kind == J_CVTFU && g->avx2) /* (no vcvtudq2ps) */
        return 0;
    if (kind == J_PERM && !g->avx2 && !g->bw)
        return 0;
    if ((kind == J_XNOR || kind == J_NOT) && g->avx2 && (l->s[3] = (int16_t)kconst(g, ~0u)) < 0)
        return 0;
    if ((kind == J_SUBF || kind == J_SUBRF) && (l->s[3] = (int16_t)kconst(g, 0x80000000u)) < 0)
        return 0; /* the sign bit (emit) */
    if (shift_kind(kind))
        l->s[3] = (int16_t)kconst(g, 31);
    else if (kind == J_MULU24 || kind == J_MADU24)
        l->s[3] = (int16_t)kconst(g, 0xffffff);
    if ((shift_kind(kind) || kind == J_MULU24 || kind == J_MADU24) && l->s[3] < 0)
        return 0;
    g->nops++;
    return 1;
}

/* The SGPRs (bit per encoding 0-127) lowered operations from `from` on read. */
static void sgprs_read(const gen *g, int from, uint64_t rd[2]) {
    rd[0] = rd[1] = 0;
    for (int i = from; i < g->nops; i++)
        for (int j = 0; j < 4; j++) {
            int k = g->ops[i].s[j];
            if (k >= KS && k < KK)
                rd[(k - KS) >> 6] |= 1ull << ((k - KS) & 63);
        }
}

/* The SGPRs (bit per encoding 0-127) that lowered operations from `from` on read (rd) and
 * write (wr) as lane masks: a mask is one SGPR in a wave32 program, else a pair. */
static void masks_used(const gen *g, int from, int pair, uint64_t rd[2], uint64_t wr[2]) {
    rd[0] = rd[1] = wr[0] = wr[1] = 0;
    for (int i = from; i < g->nops; i++)
        for (int h = 0; h <= pair; h++) {
            int r = g->ops[i].mr, r2 = g->ops[i].mr2, w = g->ops[i].mw;
            if (r >= 0 && r + h < 128)
                rd[(r + h) >> 6] |= 1ull << ((r + h) & 63);
            if (r2 >= 0 && r2 + h < 128)
                rd[(r2 + h) >> 6] |= 1ull << ((r2 + h) & 63);
            if (w >= 0 && w + h < 128)
                wr[(w + h) >> 6] |= 1ull << ((w + h) & 63);
        }
}
/* VGPR sets, a bit per key below KS. */
enum { VW = KS / 64 };
static void vset_add(uint64_t *v, unsigned r, unsigned n) {
    for (unsigned i = r; i < r + n && i < KS; i++)
        v[i >> 6] |= 1ull << (i & 63);
}
static int vset_meets(const uint64_t *a, const uint64_t *b) {
    uint64_t m = 0;
    for (int i = 0; i < VW; i++)
        m |= a[i] & b[i];
    return m != 0;
}
/* The VGPRs lowered operations from `from` on read (rd) and write (wr). */
static void vgprs_used(const gen *g, int from, uint64_t *rd, uint64_t *wr) {
    memset(rd, 0, VW * sizeof *rd), memset(wr, 0, VW * sizeof *wr);
    for (int i = from; i < g->nops; i++) {
        for (int j = 0; j < 4; j++)
            if (g->ops[i].s[j] >= 0 && g->ops[i].s[j] < KS)
                vset_add(rd, (unsigned)g->ops[i].s[j], 1);
        if (g->ops[i].d >= 0 && g->ops[i].d < KS)
            vset_add(wr, (unsigned)g->ops[i].d, 1);
    }
}
/* An MFMA a block may run after its code (x_mfma_plain): the VGPRs it reads and writes added to
 * rd and wr (its AGPRs are no block's business).  0: not such an MFMA. */
static int mfma_defer(const xinst *x, uint64_t *rd, uint64_t *wr) {
    unsigned rows[4];
    if (x->cls != XC_MFMA || (x->xf & (XI_RDNA | XI_REF)) || !x_mfma_plain(x, rows) ||
        x->in.ndst != 1)
        return 0;
    for (int i = 0; i < 3; i++)
        if (x->in.src[i].kind == ISA_OPND_VGPR)
            vset_add(rd, x->in.src[i].idx, rows[i]);
    if (x->in.dst[0].kind == ISA_OPND_VGPR)
        vset_add(wr, x->in.dst[0].idx, rows[3]);
    return 1;
}

/* Instructions a block steps over: the emulator's no-ops (wait counters, s_nop, s_delay_alu,
 * RDNA's cache controls) are left out; scalar ALU ops are run after the code (deferred). */
static int is_nop(const xinst *x) {
    return by_name(nop_op, x->in.op, nop_name) || ((x->xf & XI_RDNA) && x_rdna_is_nop(x));
}
/* ex: x may write EXEC (setb.ex): then also the saveexec ops with native code. */
static int deferrable(const xinst *x, int ex) {
    unsigned f = x->in.fmt;
    if (x->cls != XC_SALU ||
        (f != ISA_FMT_SOP1 && f != ISA_FMT_SOP2 && f != ISA_FMT_SOPK && f != ISA_FMT_SOPC) ||
        !(by_name(defer_op, x->in.op, defer_name) || (ex && saveexec(x))))
        return 0;
    for (unsigned i = 0; i < x->in.ndst; i++) {
        const isa_opnd *o = &x->in.dst[i];
        if (o->kind != ISA_OPND_SREG || o->idx + o->n > (ex ? 128u : 126u))
            return 0; /* EXEC (unless ex) or something unusual */
    }
    return 1;
}

/* A 64-bit mask operand of scalar op x: an SGPR pair (EXEC included: a block runs only with
 * every lane active, and none writes it), or the constants 0 and -1; -1 when neither. */
static int klogic_src(const xinst *x, int i) {
    const isa_opnd *o = &x->in.src[i];
    if (o->kind == ISA_OPND_SREG)
        return o->n == 2 && o->idx + 1u < 128 ? (int)o->idx : -1;
    if (o->kind == ISA_OPND_INLINE || o->kind == ISA_OPND_LITERAL)
        return x->k[i] == ~0ull ? KM_ONES : x->k[i] == 0 ? KM_ZERO : -1;
    return -1;
}
/* The mask ops of a block keep their results' bits in 4-byte slots below the stack pointer (in
 * the red zone: the code calls nothing but x_jit_load, and moves the stack pointer below the
 * slots first): 30 of them fit in its 128 bytes. */
enum { KSLOTS = 30 };
enum { VDEFER_MAX = 32 }; /* MFMAs a block runs after its code (block()) */
/* s_and_b64, s_or_b64, s_xor_b64, s_andn2_b64 in a wave64 program as a lane-wise op on the
 * masks (J_KLOGIC): bit l of the result is bit l of the sources', so each chunk's bits can be
 * made with the chunk's vector code, and a vector op after it may read the result as a mask.
 * SCC (result != 0) needs the whole result: each chunk's bits are ORed into the op's slot, and
 * block() defers an entry that sets SCC from the slot after the code, in program order. */
static int lower_klogic(gen *g, const xinst *x) {
    static const uint16_t ops[4] = {ISA_OPL_s_and_b64, ISA_OPL_s_or_b64, ISA_OPL_s_xor_b64,
                                    ISA_OPL_s_andn2_b64};
    int which = -1;
    for (int i = 0; i < 4; i++)
        if (x->in.op == ops[i])
            which = i;
    const isa_opnd *d = &x->in.dst[0];
    if (which < 0 || x->cls != XC_SALU || x->in.fmt != ISA_FMT_SOP2 ||
        (x->xf & (XI_MASK32 | XI_REF)) || x->in.nsrc != 2 || x->in.ndst != 1 ||
        d->kind != ISA_OPND_SREG || d->n != 2 || !mask_ok(x, d->idx, 1))
        return 0;
    int a = klogic_src(x, 0), b = klogic_src(x, 1), slot = 0;
    for (int i = 0; i < g->nops; i++)
        slot += g->ops[i].kind == J_KLOGIC;
    if (a == -1 || b == -1 || slot >= KSLOTS)
        return 0;
    lop *l = &g->ops[g->nops++];
    memset(l, 0xff, sizeof *l);
    l->acc = (uint8_t)slot;
    l->kind = J_KLOGIC, l->ns = 0, l->imm = (uint8_t)which;
    l->mr = (int16_t)a, l->mr2 = (int16_t)b, l->mw = (int16_t)d->idx;
    l->sel[0] = l->sel[1] = 0;
    g->masks = 1;
    return 1;
}
/* The address of x, a global_load_dword or global_store_dword (op; CDNA's GLOBAL segment: no
 * aperture, no private memory) or RDNA's global_load_b32 / global_store_b32 (rop: the same
 * access, in a wave64 program or a pair's 64 lanes; not with gfx12's scale_offset bit) from a
 * VGPR pair or an offset VGPR and saddr, with no LDS or tfe bit, where block() allows memory
 * instructions (gen.mem_ok), as a new operation of `kind` (J_GLOAD, J_GSTORE) whose sources are
 * filled in; NULL when x is not such an access. */
static lop *lower_access(gen *g, const xinst *x, unsigned op, unsigned rop, int kind) {
    const isa_mem_fields *m = &x->in.f.m;
    const isa_opnd *va = &x->in.src[0], *sa = &x->in.src[3];
    int saddr = sa->kind == ISA_OPND_SREG;
    if (!g->mem_ok || g->nmem == (int)(sizeof g->mem / sizeof g->mem[0]) ||
        x->in.op != (x->xf & XI_RDNA ? rop : op) || m->scale_offset ||
        (x->xf & (XI_REF | XI_MASK32)) || m->seg != 2 || m->lds || m->tfe ||
        va->kind != ISA_OPND_VGPR ||
        (saddr ? va->n != 1 || sa->n != 2 || sa->idx + 1u >= 128 : va->n != 2) ||
        va->idx + 1u >= KS)
        return NULL;
    lop *l = &g->ops[g->nops++];
    memset(l, 0xff, sizeof *l);
    l->kind = (uint8_t)kind, l->ns = 0, l->imm = (uint8_t)g->nmem;
    l->sel[0] = l->sel[1] = 0;
    l->s[0] = (int16_t)va->idx;
    l->s[1] = (int16_t)(saddr ? -1 : va->idx + 1);
    l->s[2] = (int16_t)(saddr ? KS + sa->idx : -1);
    l->s[3] = (int16_t)(saddr ? KS + sa->idx + 1 : -1);
    g->mem[g->nmem++] = x;
    return l;
}
/* global_load_dword into a VGPR: J_GLOAD */
static int lower_gload(gen *g, const xinst *x) {
    const isa_opnd *d = &x->in.dst[0];
    lop *l;
    if (x->in.ndst != 1 || d->kind != ISA_OPND_VGPR || d->n != 1 || d->idx >= KS ||
        !(l = lower_access(g, x, ISA_OPL_global_load_dword, ISA_OPL_global_load_b32, J_GLOAD)))
        return 0;
    l->d = (int16_t)d->idx;
    l->acc = (uint8_t)((g->hot0 + l->imm) % GMEM_HOT_LOADS); /* its hot line */
    return 1;
}
/* global_store_dword from a VGPR: J_GSTORE (the block's last) */
static int lower_gstore(gen *g, const xinst *x) {
    const isa_opnd *dat = &x->in.src[1];
    lop *l;
    if (g->st >= 0 || x->in.ndst != 0 || dat->kind != ISA_OPND_VGPR || dat->n != 1 ||
        dat->idx >= NVREG ||
        !(l = lower_access(g, x, ISA_OPL_global_store_dword, ISA_OPL_global_store_b32, J_GSTORE)))
        return 0;
    g->st = (int)(l - g->ops);
    l->acc = (uint8_t)(g->hotst % 2); /* its line of the two for stores */
    return 1;
}

/* Blocks being built for one program or one pair plan: the code in g->buf, the records with
 * the offset of their code in place of the pointer, the deferred instructions. */
typedef struct setb {
    gen *g;
    xjit *rec;
    size_t *entry;
    uint32_t *pc0; /* each block's first instruction (perf_map()) */
    uint64_t va;   /* the program's address (pc0 + va: the code object's address) */
    uint32_t n, cap;
    const xinst **defer;
    uint32_t ndefer, dcap;
    const xinst **hoist; /* the block being built's hoisted scalar ops (block()) */
    uint32_t hcap;
    unsigned quarters;
    int mem;      /* blocks may have loads and stores (J_GLOAD, J_GSTORE: wave64 programs'
                   * blocks) */
    int ex;       /* blocks may write EXEC and may be scalar ops alone (wave64 programs' blocks;
                   * not pair plans, whose scalar ops see two waves' EXEC) */
    unsigned hot; /* the hot line of the next block's first load: the program's loads take the
                   * lines in turn, so that those of one block or of neighbouring ones (a
                   * loop's) keep lines of their own; stores the same with theirs */
    unsigned hotst;
} setb;

/* A block from xs[0..n): lowerable VALU instructions, no-ops and deferrable scalar ops, up to
 * the last VALU one; added to b when it has two VALU instructions or more.  Returns the number
 * of xs it covers (0: none). */
static unsigned block(setb *b, const xinst *const *xs, unsigned n) {
    gen *g = b->g;
    g->nops = 0;
    g->nk = 0;
    g->masks = 0;
    g->nmem = 0;
    g->hot0 = b->hot;
    g->hotst = b->hotst;
    g->st = -1;
    g->start = xs[0];
    /* SGPRs the deferred ops write and read, the vector ops read as data and write as masks.
     * The code runs the block chunk by chunk, and the deferred ops after it, so: no vector op
     * reads as data an SGPR written before it in the block (by either), nor as a mask one a
     * deferred op writes; no mask is written to an SGPR read or written before by a deferred
     * op, or read as data by a vector op. */
    /* A scalar op with native code may instead be hoisted: run before the code, in program
     * order with the other hoisted ones.  That is the same as running it in its place when
     * nothing before it in the block wrote what it reads (a vector op's mask, a deferred op's
     * result) or read or wrote what it writes (a vector op's data or mask, a deferred op's
     * sources or results), and no deferred op before it touches SCC when it does.  The vector
     * ops after it then read its results in the code (no end of the block). */
    /* MFMAs (mfma_defer) run after the code and the deferred scalar ops, in program order:
     * they touch no SGPR, so only the vector ops after one must not read what it writes nor
     * write what it reads or writes (mrd, mwr). */
    uint64_t wr[2] = {0, 0}, drd[2] = {0, 0}, srd[2] = {0, 0}, vwr[2] = {0, 0}, vmrd[2] = {0, 0};
    uint64_t mrd[VW] = {0}, mwr[VW] = {0};
    /* Loads: a load's fault returns from the code at once, where no deferred op (run after
     * the code) nor MFMA may come before it, nor a hoisted op (run before it) after it: a block
     * takes a load only while it has neither, and ends at either after one (hasmem). */
    int pair = b->quarters == 4, dscc = 0, dnat = 1, kscc = 0, hasmem = 0, smem = 0;
    unsigned nv = 0, covered = 0, nd = 0, ndk = 0, nh = 0, nhk = 0, nm = 0, nmk = 0;
    /* EXEC (b->ex): a scalar op that writes it (exw) ends the vector part of the block: the code
     * runs with every lane active, so no vector op, MFMA or mask op may follow it.  It is never
     * hoisted over a vector op, only deferred.  ns: the scalar ops with native code so far, nsk
     * the covered ones; a block of scalar ops alone (no code loop) needs two of them. */
    int exw = 0;
    unsigned ns = 0, nsk = 0;
    const xinst *mf[VDEFER_MAX];
    uint8_t f32 = 0, heavy = 0, ieee = 0;
    if (b->ndefer + n > b->dcap) {
        uint32_t cap = b->dcap * 2 + n + 16;
        const xinst **d = realloc(b->defer, cap * sizeof *d);
        if (!d)
            return g->fail = 1, 0;
        b->defer = d;
        b->dcap = cap;
    }
    if (n > b->hcap) {
        const xinst **h = realloc(b->hoist, (n + 16) * sizeof *h);
        if (!h)
            return g->fail = 1, 0;
        b->hoist = h;
        b->hcap = n + 16;
    }
    for (unsigned j = 0; j < n; j++) {
        const xinst *x = xs[j];
        int before = g->nops, nkb = g->nk, klog = 0;
        /* (a mask op's SCC is native code after the loop: only with native deferred ops) */
        /* (nor after a vector op that read EXEC: jit_stopped runs those again under another) */
        g->mem_ok = b->mem && nd == 0 && nm == 0 && !((srd[1] | vmrd[1]) >> 62);
        if (exw && x->cls != XC_SALU && !is_nop(x))
            break;
        if ((x->cls == XC_VALU && lower(g, x)) ||
            (klog = dnat && !hasmem && !exw && lower_klogic(g, x)) ||
            (x->cls == XC_VMEM && (lower_gload(g, x) || lower_gstore(g, x)))) {
            uint64_t rd[2], krd[2], kwr[2], vr[VW], vw[VW];
            uint64_t dw[2] = {wr[0] | drd[0], wr[1] | drd[1]};
            for (int i = before; i < g->nops; i++) { /* (the mask ops set their own) */
                if (g->ops[i].kind < J_CMPI)
                    g->ops[i].mw = g->ops[i].mr = -1;
                if (g->ops[i].kind != J_KLOGIC)
                    g->ops[i].mr2 = -1;
            }
            sgprs_read(g, before, rd);
            masks_used(g, before, pair, krd, kwr);
            if (nm) /* (the VGPRs matter only after an MFMA) */
                vgprs_used(g, before, vr, vw);
            if (meets(rd, wr) || meets(rd, vwr) || meets(krd, wr) || meets(kwr, dw) ||
                meets(kwr, srd) || meets(kwr, rd) ||
                (nm && (vset_meets(vr, mwr) || vset_meets(vw, mwr) || vset_meets(vw, mrd)))) {
                g->nops = before, g->nk = nkb;
                break;
            }
            add_bits(srd, rd);
            add_bits(vwr, kwr);
            add_bits(vmrd, krd);
            hasmem |= x->cls == XC_VMEM;
            if (klog) { /* its SCC, in program order with the deferred ops */
                b->defer[b->ndefer + nd++] = KSCC_TAG(x);
                dscc = kscc = 1;
            }
            f32 |= x->fn == x_rdna_vopd ? 1 : f32_of[x->in.op];
            for (int i = before; i < g->nops; i++)
                ieee |= g->ops[i].kind == J_MAXF || g->ops[i].kind == J_MINF;
            /* the interpreter's 64-bit ops assemble their halves: worth a block alone */
            heavy |= kind_of[x->in.op] == J_L64ADD || kind_of[x->in.op] == J_SHL64;
            nv++;
            covered = j + 1;
            ndk = nd, nhk = nh, nmk = nm, nsk = ns;
            if (g->st >= 0) /* a store ends the block: the code stores after the loop */
                break;
            continue;
        }
        g->nops = before, g->nk = nkb;
        /* before the first vector op: no-ops, and scalar ops with native code (hoisted) */
        if (is_nop(x)) {
            if (b->ex && covered == j) /* (after the block's last op, in it) */
                covered = j + 1;
            continue;
        }
        if (hasmem)
            break;
        if (nv == 0 && b->mem && x->cls == XC_SMEM && sload_ok(x)) {
            /* before the code, and before any vector op, so that its fault leaves the wave as
             * the interpreter would; the deferred and hoisted ops' tests need no more (no vector
             * op, so no deferred op, is before it) */
            b->hoist[nh++] = x;
            smem = 1;
            continue;
        }
        if (nv && nm < VDEFER_MAX && mfma_defer(x, mrd, mwr)) {
            mf[nm++] = x;
            covered = j + 1; /* (one may end the block) */
            ndk = nd, nhk = nh, nmk = nm, nsk = ns;
            continue;
        }
        if (!deferrable(x, b->ex))
            break;
        uint64_t xr[2], xw[2];
        int sr = 1, sw = 1, nat = salu_native(x);
        salu_sets(x, xr, xw);
        int xex = xw[1] >> 62 != 0;
        if (nat)
            salu_scc(x, &sr, &sw);
        if (nat && !meets(xr, vwr) && !meets(xr, wr) && !meets(xw, srd) && !meets(xw, vmrd) &&
            !meets(xw, vwr) && !meets(xw, wr) && !meets(xw, drd) && !((sr || sw) && dscc) &&
            !(xex && (nv || nm))) {
            b->hoist[nh++] = x;
            exw |= xex;
            ns++;
            if (b->ex) /* (a block may end with it) */
                covered = j + 1, ndk = nd, nhk = nh, nmk = nm, nsk = ns;
            continue;
        }
        if (nv == 0 || (!nat && kscc))
            break;
        add_bits(wr, xw);
        add_bits(drd, xr);
        dscc |= sr || sw;
        dnat &= nat;
        exw |= xex;
        ns += (unsigned)nat;
        b->defer[b->ndefer + nd++] = x;
        if (b->ex && dnat) /* (a block may end with it when the deferred ops are code) */
            covered = j + 1, ndk = nd, nhk = nh, nmk = nm, nsk = ns;
    }
    if (nv + nmk < 2 && !heavy && !(b->ex && nv + nmk + nsk >= 2))
        return 0;
    if (b->n == b->cap) {
        uint32_t cap = b->cap * 2 + 16;
        xjit *r = realloc(b->rec, cap * sizeof *r);
        size_t *e = r ? realloc(b->entry, cap * sizeof *e) : NULL;
        uint32_t *p0 = e ? realloc(b->pc0, cap * sizeof *p0) : NULL;
        if (r)
            b->rec = r;
        if (e)
            b->entry = e;
        if (!p0)
            return g->fail = 1, 0;
        b->pc0 = p0;
        b->cap = cap;
    }
    /* the deferred ops as native code when there is some for each */
    int native = 1;
    for (unsigned i = 0; i < ndk && native; i++)
        native = IS_KSCC(b->defer[b->ndefer + i]) || salu_native(b->defer[b->ndefer + i]);
    size_t entry =
        emit_block(g, b->quarters, b->hoist, nhk, b->defer + b->ndefer, native ? ndk : 0);
    if (g->fail)
        return 0;
    xjit *r = &b->rec[b->n];
    memset(r, 0, sizeof *r);
    b->pc0[b->n] = xs[0]->pc;
    b->entry[b->n++] = entry;
    r->last = xs[covered - 1];
    r->defer = (const xinst *const *)(uintptr_t)b->ndefer; /* an index until the end */
    r->ndefer = (uint16_t)(native ? 0 : ndk);
    for (unsigned i = 0; i < nmk; i++) /* the MFMAs after the scalar ops */
        b->defer[b->ndefer + ndk + i] = mf[i];
    r->vdefer = (const xinst *const *)(uintptr_t)(b->ndefer + ndk);
    r->nvdefer = (uint16_t)nmk;
    r->n = (uint16_t)covered;
    r->f32 = f32;
    r->ieee = ieee;
    r->mem = (uint8_t)(hasmem || (smem && nhk));
    r->scalar = nv == 0; /* (no code loop: EXEC may be anything) */
    b->hot += (unsigned)(g->nmem - (g->st >= 0));
    b->hotst += g->st >= 0;
    b->ndefer += ndk + nmk;
    __atomic_add_fetch(&n_insts, covered, __ATOMIC_RELAXED);
    return covered;
}

/* GFXEMU_PERF_MAP=1: each block's code named in /tmp/perf-PID.map, the file `perf report` reads
 * for code it finds no symbols for ("START SIZE NAME", hex; the name gives the address of the
 * block's first instruction, as `gfxemu disasm` and `--profile` print it, and how many
 * instructions the block covers). */
static int perf_map_on = -1; /* -1: the environment not read yet */
static void perf_map(const setb *b, const uint8_t *mem) {
    int on = __atomic_load_n(&perf_map_on, __ATOMIC_RELAXED); /* (workers build pair plans) */
    if (on < 0) {
        const char *e = getenv("GFXEMU_PERF_MAP");
        on = e && *e && strcmp(e, "0");
        __atomic_store_n(&perf_map_on, on, __ATOMIC_RELAXED);
    }
    if (!on)
        return;
    static pthread_mutex_t lock = PTHREAD_MUTEX_INITIALIZER;
    char path[64];
    snprintf(path, sizeof path, "/tmp/perf-%d.map", (int)getpid());
    pthread_mutex_lock(&lock);
    FILE *f = fopen(path, "a");
    for (uint32_t i = 0; f && i < b->n; i++) {
        size_t end = i + 1 < b->n ? b->entry[i + 1] : b->g->len;
        fprintf(f, "%lx %zx gfxemu block 0x%llx, %u instructions\n",
                (unsigned long)(uintptr_t)(mem + b->entry[i]), end - b->entry[i],
                (unsigned long long)(b->va + b->pc0[i]), b->rec[i].n);
    }
    if (f)
        fclose(f);
    pthread_mutex_unlock(&lock);
}

/* Map b's code executable and fill in the records' pointers: the set, or NULL (no blocks, or no
 * executable memory: the interpreter runs everything). */
static xjitset *finish(setb *b) {
    if (b->n == 0 || b->g->fail)
        return NULL;
    xjitset *s = calloc(1, sizeof *s);
    if (!s)
        return NULL;
    s->size = (b->g->len + 4095) & ~(size_t)4095;
    void *mem = mmap(NULL, s->size, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
    if (mem == MAP_FAILED) {
        free(s);
        return NULL;
    }
    memcpy(mem, b->g->buf, b->g->len);
    if (mprotect(mem, s->size, PROT_READ | PROT_EXEC) != 0) {
        munmap(mem, s->size);
        free(s);
        return NULL;
    }
    perf_map(b, mem);
    s->mem = mem;
    s->rec = b->rec;
    s->n = b->n;
    s->defer = b->defer;
    b->rec = NULL;
    b->defer = NULL;
    for (uint32_t i = 0; i < s->n; i++) {
        xjit *r = &s->rec[i];
        void *fn = (uint8_t *)mem + b->entry[i];
        memcpy(&r->code, &fn, sizeof fn);
        r->defer = s->defer + (uintptr_t)r->defer;
        r->vdefer = s->defer + (uintptr_t)r->vdefer;
    }
    __atomic_add_fetch(&n_blocks, s->n, __ATOMIC_RELAXED);
    return s;
}

static int setb_init(setb *b, unsigned quarters) {
    memset(b, 0, sizeof *b);
    b->quarters = quarters;
    b->g = calloc(1, sizeof *b->g);
    if (b->g && (b->g->avx2 = use_avx2())) { /* the lane bits mask2_load() reads, at 0 */
        b->g->lanebits = 0;
        for (unsigned l = 0; l < 8; l++)
            put32(b->g, 1u << l);
    } else if (b->g) {
        b->g->bw = host_bw();
        b->g->dq = use_dq();
    }
    if (b->g)
        pool_fill(b->g); /* (after the lane bits: its slots' size depends on the encoding) */
    return b->g && !b->g->fail ? 0 : -1;
}
static void setb_free(setb *b) {
    if (b->g)
        free(b->g->ops), free(b->g->buf);
    free(b->g);
    free(b->rec);
    free(b->entry);
    free(b->pc0);
    free(b->defer);
    free(b->hoist);
}
static int setb_ops(setb *b, size_t n) {
    free(b->g->ops);
    b->g->ops = calloc(2 * n + 2, sizeof *b->g->ops);
    return b->g->ops ? 0 : -1;
}

void x_jit_free_set(xjitset *s) {
    if (!s)
        return;
    munmap(s->mem, s->size);
    free(s->rec);
    free(s->defer);
    free(s);
}

/* The blocks without memory instructions over the instructions each block with them of s covers
 * (its first one at first[k]), as blocks were before: the alt of a block with memory
 * instructions is the one starting where it starts; the others start at their instructions (which
 * no block of s starts at).  Out of memory: none (the blocks with loads then fall back on the
 * interpreter). */
static void build_alts(xprog *p, const xinst **xs, const uint32_t *ext, xjitset *s,
                       const uint32_t *first) {
    setb b;
    if (setb_init(&b, 4) || setb_ops(&b, 2 * (size_t)p->ninsts)) {
        setb_free(&b);
        return;
    }
    b.va = p->code_va;
    b.ex = 1; /* (a wave64 program's: only those have blocks with memory instructions) */
    uint32_t *at = calloc(p->ninsts, sizeof *at); /* 1 + the alt block starting there */
    uint64_t alt_insts = 0;
    for (uint32_t k = 0; at && k < s->n && !b.g->fail; k++) {
        if (!s->rec[k].mem) /* (memcheck runs them too) */
            continue;
        for (uint32_t i = first[k], end = i + s->rec[k].n; i < end && !b.g->fail;) {
            unsigned lim = end - i < ext[i] ? end - i : ext[i];
            unsigned got = lim && xs[i]->in.op != ISA_OPL_s_nop ? block(&b, xs + i, lim) : 0;
            if (got)
                at[i] = b.n, alt_insts += got;
            i += got ? got : 1;
        }
    }
    xjitset *a = at && !b.g->fail ? finish(&b) : NULL;
    for (uint32_t i = 0; a && i < p->ninsts; i++) {
        if (!at[i])
            continue;
        xjit *r = (xjit *)(uintptr_t)p->insts[i].jit;
        if (r)
            r->alt = &a->rec[at[i] - 1];
        else
            p->insts[i].jit = &a->rec[at[i] - 1];
    }
    p->jit_alt = a;
    /* (x_jit_counts counts the program's blocks, not these spares) */
    __atomic_sub_fetch(&n_insts, alt_insts, __ATOMIC_RELAXED);
    if (a)
        __atomic_sub_fetch(&n_blocks, a->n, __ATOMIC_RELAXED);
    free(at);
    setb_free(&b);
}

int x_jit_build(xprog *p) {
    if (!x_jit_enabled() || p->ninsts < 2)
        return 0;
    init_tables();
    setb b;
    const xinst **xs = calloc(p->ninsts, sizeof *xs);
    /* branch targets: a block never spans one, so that a loop's head starts a block */
    uint8_t *tgt = x_branch_targets(p);
    int rc = -1;
    if (setb_init(&b, p->wave32 ? 2 : 4) || !xs || !tgt || setb_ops(&b, 2 * (size_t)p->ninsts))
        goto out;
    b.va = p->code_va;
    b.mem = !p->wave32 && !JIT_TSAN;
    b.ex = !p->wave32;
    uint32_t *first = calloc(p->ninsts, sizeof *first);
    if (!first)
        goto out;
    /* xs[i] = instruction i; ext[i] = how many from i on a block may cover: inside one run and
     * before its last instruction (run >= 2), no branch target after i (computed backwards) */
    uint32_t *ext = calloc(p->ninsts + 1, sizeof *ext);
    if (!ext)
        goto out_first;
    for (uint32_t i = p->ninsts; i-- > 0;) {
        xs[i] = &p->insts[i];
        int joins = i + 1 < p->ninsts && !tgt[p->insts[i + 1].pc / 4];
        ext[i] = p->insts[i].run >= 2 ? 1 + (joins ? ext[i + 1] : 0) : 0;
    }
    for (uint32_t i = 0; i < p->ninsts;) {
        /* (not from an s_nop: the padding before a kernel's entry, which must start its own) */
        unsigned got = ext[i] && xs[i]->in.op != ISA_OPL_s_nop ? block(&b, xs + i, ext[i]) : 0;
        if (b.g->fail) {
            free(ext);
            goto out_first;
        }
        if (got)
            first[b.n - 1] = i;
        i += got ? got : 1;
    }
    rc = 0;
    xjitset *s = finish(&b);
    if (s) {
        for (uint32_t k = 0; k < s->n; k++)
            p->insts[first[k]].jit = &s->rec[k];
        p->jit = s;
        build_alts(p, xs, ext, s, first);
    }
    free(ext);
out_first:
    free(first);
out:
    setb_free(&b);
    free(xs);
    free(tgt);
    return rc;
}

xjitset *x_jit_build_seq(const xinst *const *seq, size_t nseq, const uint32_t *start,
                         const uint32_t *len, uint32_t nseg, const xjit **at, uint64_t va) {
    if (!x_jit_enabled())
        return NULL;
    init_tables();
    setb b;
    uint32_t *pos = calloc(nseq ? nseq : 1, sizeof *pos);   /* each block's position */
    uint32_t *here = calloc(nseq ? nseq : 1, sizeof *here); /* 1 + the block at a position */
    if (!pos || !here || setb_init(&b, 4) || setb_ops(&b, nseq)) {
        free(pos);
        free(here);
        setb_free(&b);
        return NULL;
    }
    b.va = va;
    b.mem = !JIT_TSAN; /* (x_pair_run gives a faulting block's wave x_jit_fault_seq) */
    for (uint32_t i = 0; i < nseg && !b.g->fail; i++)
        for (uint32_t p = start[i], end = start[i] + len[i]; p + 1 < end && !b.g->fail;) {
            if (here[p]) { /* a segment before this one made it */
                p += b.rec[here[p] - 1].n;
                continue;
            }
            unsigned got = block(&b, seq + p, end - p);
            if (got) {
                pos[b.n - 1] = p;
                here[p] = b.n;
            }
            p += got ? got : 1;
        }
    xjitset *s = finish(&b);
    for (uint32_t i = 0; s && i < s->n; i++)
        at[pos[i]] = &s->rec[i];
    setb_free(&b);
    free(pos);
    free(here);
    return s;
}

uint8_t *x_branch_targets(const xprog *p) {
    uint8_t *tgt = calloc(p->code_size / 4 + 1, 1);
    for (uint32_t i = 0; tgt && i < p->ninsts; i++) {
        const xinst *x = &p->insts[i];
        int64_t to = (int64_t)x->pc + x->size + x->in.f.s.offset;
        if (x->cls == XC_BRANCH && x->in.f.s.is_branch && to >= 0 && to < p->code_size)
            tgt[to / 4] = 1;
    }
    return tgt;
}

void x_jit_free(xprog *p) {
    x_jit_free_set(p->jit);
    x_jit_free_set(p->jit_alt);
    p->jit = p->jit_alt = NULL;
}
