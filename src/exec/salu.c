/* salu.c - scalar ALU (SOP1, SOP2, SOPK, SOPC) and program control (SOPP), CDNA3/CDNA4 ISA
 * chapters "Scalar ALU operations" and "Program flow control".
 *
 * Each handler is one line of semantics inside a macro that fetches S0/S1 and writes D: the
 * macros name the operand widths, so a reader can check an op against the manual's pseudocode. */
#include "exec/exec.h"

#include <string.h>

typedef uint32_t u32;
typedef uint64_t u64;
typedef int32_t i32;
typedef int64_t i64;

#define S0 x_s32(w, x, 0)
#define S1 x_s32(w, x, 1)
#define S0_64 x_s64(w, x, 0)
#define S1_64 x_s64(w, x, 1)
/* SOPK/SOPP 16-bit immediate, taken from the raw word: the field is [15:0] in both formats. */
#define SIMM16 ((i32)(int16_t)(x->in.w[0] & 0xffff))
#define UIMM16 ((u32)(x->in.w[0] & 0xffff))
#define SCC w->scc

/* Write D; the ...Z forms also set SCC = D != 0 (the manual's "SCC = (D != 0)"). */
static inline void sd32_z(wave *w, const xinst *x, u32 d) {
    w->scc = d != 0;
    x_sd32(w, x, d);
}
static inline void sd64_z(wave *w, const xinst *x, u64 d) {
    w->scc = d != 0;
    x_sd64(w, x, d);
}
/* D = expr over S0 and (SOP2) S1 of one width, written by `write`. */
#define SOP_32(name, expr, write)                                                                  \
    static void name(wave *w, const xinst *x) {                                                    \
        u32 s0 = S0, s1 = x->in.nsrc > 1 ? S1 : 0;                                                 \
        (void)s0, (void)s1;                                                                        \
        write(w, x, (u32)(expr));                                                                  \
    }
#define SOP_64(name, expr, write)                                                                  \
    static void name(wave *w, const xinst *x) {                                                    \
        u64 s0 = S0_64, s1 = x->in.nsrc > 1 ? S1_64 : 0;                                           \
        (void)s0, (void)s1;                                                                        \
        write(w, x, (u64)(expr));                                                                  \
    }
/* D.u32 = expr, SCC untouched. */
#define OP32(name, expr) SOP_32(name, expr, x_sd32)
/* D.u32 = expr; SCC = D != 0. */
#define OP32Z(name, expr) SOP_32(name, expr, sd32_z)
#define OP64(name, expr) SOP_64(name, expr, x_sd64)
#define OP64Z(name, expr) SOP_64(name, expr, sd64_z)
/* 64-bit source, 32-bit result, SCC = result != 0 (bit counts of a 64-bit value). */
#define OP64TO32Z(name, expr)                                                                      \
    static void name(wave *w, const xinst *x) {                                                    \
        u64 s0 = S0_64;                                                                            \
        sd32_z(w, x, (u32)(expr));                                                                 \
    }
#define OP64TO32(name, expr)                                                                       \
    static void name(wave *w, const xinst *x) {                                                    \
        u64 s0 = S0_64;                                                                            \
        x_sd32(w, x, (u32)(expr));                                                                 \
    }
/* SCC = cond (SOPC). */
#define CMP32(name, expr)                                                                          \
    static void name(wave *w, const xinst *x) {                                                    \
        u32 s0 = S0, s1 = S1;                                                                      \
        w->scc = (expr) ? 1 : 0;                                                                   \
    }
#define CMP64(name, expr)                                                                          \
    static void name(wave *w, const xinst *x) {                                                    \
        u64 s0 = S0_64, s1 = S1_64;                                                                \
        w->scc = (expr) ? 1 : 0;                                                                   \
    }

static inline u32 popc32(u32 v) { return (u32)__builtin_popcount(v); }
static inline u32 popc64(u64 v) { return (u32)__builtin_popcountll(v); }
static inline u64 brev64(u64 v) { return (u64)x_brev32((u32)v) << 32 | x_brev32((u32)(v >> 32)); }
/* Find first one from the LSB; -1 (0xffffffff) when none. */
static inline u32 ff1_32(u32 v) { return v ? (u32)__builtin_ctz(v) : 0xffffffffu; }
static inline u32 ff1_64(u64 v) { return v ? (u32)__builtin_ctzll(v) : 0xffffffffu; }
/* Find first one from the MSB, counted from the MSB; -1 when none. */
static inline u32 flbit32(u32 v) { return v ? (u32)__builtin_clz(v) : 0xffffffffu; }
static inline u32 flbit64(u64 v) { return v ? (u32)__builtin_clzll(v) : 0xffffffffu; }
/* Signed: first bit that differs from the sign bit, counted from the MSB; -1 for 0 and -1. */
static inline u32 flbit_i32(u32 v) { return flbit32((i32)v < 0 ? ~v : v); }
static inline u32 flbit_i64(u64 v) { return flbit64((i64)v < 0 ? ~v : v); }
/* Whole-quad mode: a quad is all ones if any of its bits is set. */
static inline u64 wqm64(u64 v) {
    u64 r = 0;
    for (int q = 0; q < 64; q += 4)
        if ((v >> q) & 0xf)
            r |= 0xfull << q;
    return r;
}
static inline u64 quadmask64(u64 v) {
    u64 r = 0;
    for (int q = 0; q < 16; q++)
        if ((v >> (4 * q)) & 0xf)
            r |= 1ull << q;
    return r;
}
/* Bitfield extract from a `bits`-wide (32 or 64) value v: S1[4:0] offset (S1[5:0] for 64-bit),
 * S1[22:16] width, sign-extended from the field's top bit when `sign`.  A field reaching past
 * bit bits-1 ends there (the value is shifted right).  Worked in 64 bits: the caller keeps the
 * low `bits`. */
static inline u64 bfe(u64 v, u32 c, unsigned bits, int sign) {
    u32 off = c & (bits - 1), wd = (c >> 16) & 0x7f;
    if (wd == 0)
        return 0;
    if (!sign) {
        u64 r = v >> off;
        return wd >= 64 ? r : r & ((1ull << wd) - 1);
    }
    if (wd + off >= bits)
        return (u64)((bits == 32 ? (i64)(i32)v : (i64)v) >> off);
    return (u64)((i64)(v << (64 - wd - off)) >> (64 - wd));
}

/* ---- SOP2 ---------------------------------------------------------------------------------- */

static void s_add_u32(wave *w, const xinst *x) {
    u64 r = (u64)S0 + S1;
    w->scc = (u32)(r >> 32);
    x_sd32(w, x, (u32)r);
}
static void s_sub_u32(wave *w, const xinst *x) {
    u32 a = S0, b = S1;
    w->scc = b > a;
    x_sd32(w, x, a - b);
}
static void s_addc_u32(wave *w, const xinst *x) {
    u64 r = (u64)S0 + S1 + w->scc;
    w->scc = (u32)(r >> 32);
    x_sd32(w, x, (u32)r);
}
static void s_subb_u32(wave *w, const xinst *x) {
    u64 a = S0, b = (u64)S1 + w->scc;
    w->scc = b > a;
    x_sd32(w, x, (u32)(a - b));
}
/* Signed add/sub: SCC = signed overflow. */
static void s_add_i32(wave *w, const xinst *x) {
    i32 a = (i32)S0, b = (i32)S1, r;
    w->scc = __builtin_add_overflow(a, b, &r);
    x_sd32(w, x, (u32)r);
}
static void s_sub_i32(wave *w, const xinst *x) {
    i32 a = (i32)S0, b = (i32)S1, r;
    w->scc = __builtin_sub_overflow(a, b, &r);
    x_sd32(w, x, (u32)r);
}
/* min/max: SCC = 1 when S0 was selected by the strict comparison. */
#define MINMAX(name, T, cmp)                                                                       \
    static void name(wave *w, const xinst *x) {                                                    \
        T a = (T)S0, b = (T)S1;                                                                    \
        w->scc = a cmp b;                                                                          \
        x_sd32(w, x, (u32)(a cmp b ? a : b));                                                      \
    }
MINMAX(s_min_i32, i32, <)
MINMAX(s_min_u32, u32, <)
MINMAX(s_max_i32, i32, >)
MINMAX(s_max_u32, u32, >)
OP32(s_cselect_b32, w->scc ? s0 : s1)
OP64(s_cselect_b64, w->scc ? s0 : s1)
OP32Z(s_and_b32, s0 &s1)
OP64Z(s_and_b64, s0 &s1)
OP32Z(s_or_b32, s0 | s1)
OP64Z(s_or_b64, s0 | s1)
OP32Z(s_xor_b32, s0 ^ s1)
OP64Z(s_xor_b64, s0 ^ s1)
OP32Z(s_andn2_b32, s0 & ~s1)
OP64Z(s_andn2_b64, s0 & ~s1)
OP32Z(s_orn2_b32, s0 | ~s1)
OP64Z(s_orn2_b64, s0 | ~s1)
OP32Z(s_nand_b32, ~(s0 &s1))
OP64Z(s_nand_b64, ~(s0 &s1))
OP32Z(s_nor_b32, ~(s0 | s1))
OP64Z(s_nor_b64, ~(s0 | s1))
OP32Z(s_xnor_b32, ~(s0 ^ s1))
OP64Z(s_xnor_b64, ~(s0 ^ s1))
OP32Z(s_lshl_b32, s0 << (s1 & 31))
OP32Z(s_lshr_b32, s0 >> (s1 & 31))
OP32Z(s_ashr_i32, (i32)s0 >> (s1 & 31))
/* 64-bit shifts take a 32-bit shift count in S1. */
static void s_lshl_b64(wave *w, const xinst *x) {
    u64 d = S0_64 << (S1 & 63);
    w->scc = d != 0;
    x_sd64(w, x, d);
}
static void s_lshr_b64(wave *w, const xinst *x) {
    u64 d = S0_64 >> (S1 & 63);
    w->scc = d != 0;
    x_sd64(w, x, d);
}
static void s_ashr_i64(wave *w, const xinst *x) {
    u64 d = (u64)((i64)S0_64 >> (S1 & 63));
    w->scc = d != 0;
    x_sd64(w, x, d);
}
OP32(s_bfm_b32, ((1u << (s0 & 31)) - 1) << (s1 & 31))
static void s_bfm_b64(wave *w, const xinst *x) {
    u32 a = S0, b = S1;
    x_sd64(w, x, ((1ull << (a & 63)) - 1) << (b & 63));
}
OP32(s_mul_i32, (u32)((i64)(i32)s0 * (i64)(i32)s1))
OP32(s_mul_hi_u32, (u32)(((u64)s0 * s1) >> 32))
OP32(s_mul_hi_i32, (u32)((u64)((i64)(i32)s0 * (i64)(i32)s1) >> 32))
OP32Z(s_bfe_u32, (u32)bfe(s0, s1, 32, 0))
OP32Z(s_bfe_i32, (u32)bfe(s0, s1, 32, 1))
static void s_bfe_u64(wave *w, const xinst *x) {
    u64 d = bfe(S0_64, S1, 64, 0);
    w->scc = d != 0;
    x_sd64(w, x, d);
}
static void s_bfe_i64(wave *w, const xinst *x) {
    u64 d = bfe(S0_64, S1, 64, 1);
    w->scc = d != 0;
    x_sd64(w, x, d);
}
static void s_absdiff_i32(wave *w, const xinst *x) {
    i64 d = (i64)(i32)S0 - (i64)(i32)S1;
    u32 r = (u32)(d < 0 ? -d : d);
    w->scc = r != 0;
    x_sd32(w, x, r);
}
/* s_lshlN_add_u32: D = (S0 << N) + S1; SCC = unsigned overflow. */
#define LSHL_ADD(name, n)                                                                          \
    static void name(wave *w, const xinst *x) {                                                    \
        u64 r = ((u64)S0 << n) + S1;                                                               \
        w->scc = r >> 32 != 0;                                                                     \
        x_sd32(w, x, (u32)r);                                                                      \
    }
LSHL_ADD(s_lshl1_add_u32, 1)
LSHL_ADD(s_lshl2_add_u32, 2)
LSHL_ADD(s_lshl3_add_u32, 3)
LSHL_ADD(s_lshl4_add_u32, 4)
OP32(s_pack_ll_b32_b16, (s0 & 0xffff) | s1 << 16)
OP32(s_pack_lh_b32_b16, (s0 & 0xffff) | (s1 & 0xffff0000u))
OP32(s_pack_hh_b32_b16, s0 >> 16 | (s1 & 0xffff0000u))

/* ---- SOP1 ---------------------------------------------------------------------------------- */

OP32(s_mov_b32, s0)
OP64(s_mov_b64, s0)
static void s_cmov_b32(wave *w, const xinst *x) {
    if (w->scc)
        x_sd32(w, x, S0);
}
static void s_cmov_b64(wave *w, const xinst *x) {
    if (w->scc)
        x_sd64(w, x, S0_64);
}
OP32Z(s_not_b32, ~s0)
OP64Z(s_not_b64, ~s0)
OP32Z(s_wqm_b32, (u32)wqm64(s0))
OP64Z(s_wqm_b64, wqm64(s0))
OP32(s_brev_b32, x_brev32(s0))
OP64(s_brev_b64, brev64(s0))
OP32Z(s_bcnt0_i32_b32, 32 - popc32(s0))
OP64TO32Z(s_bcnt0_i32_b64, 64 - popc64(s0))
OP32Z(s_bcnt1_i32_b32, popc32(s0))
OP64TO32Z(s_bcnt1_i32_b64, popc64(s0))
OP32(s_ff0_i32_b32, ff1_32(~s0))
OP64TO32(s_ff0_i32_b64, ff1_64(~s0))
OP32(s_ff1_i32_b32, ff1_32(s0))
OP64TO32(s_ff1_i32_b64, ff1_64(s0))
OP32(s_flbit_i32_b32, flbit32(s0))
OP64TO32(s_flbit_i32_b64, flbit64(s0))
OP32(s_flbit_i32, flbit_i32(s0))
OP64TO32(s_flbit_i32_i64, flbit_i64(s0))
OP32(s_sext_i32_i8, (u32)(i32)(int8_t)s0)
OP32(s_sext_i32_i16, (u32)(i32)(int16_t)s0)
OP32Z(s_abs_i32, (i32)s0 < 0 ? -s0 : s0)
OP32Z(s_quadmask_b32, (u32)quadmask64(s0))
OP64Z(s_quadmask_b64, quadmask64(s0))
/* s_bitset: D[S0[4:0]] = 0/1, the other bits of D kept. */
static void s_bitset0_b32(wave *w, const xinst *x) {
    x_sd32(w, x, w->s[x->in.dst[0].idx] & ~(1u << (S0 & 31)));
}
static void s_bitset1_b32(wave *w, const xinst *x) {
    x_sd32(w, x, w->s[x->in.dst[0].idx] | 1u << (S0 & 31));
}
static void s_bitset0_b64(wave *w, const xinst *x) {
    unsigned d = x->in.dst[0].idx;
    u64 v = w->s[d] | (u64)w->s[d + 1] << 32;
    x_sd64(w, x, v & ~(1ull << (S0 & 63)));
}
static void s_bitset1_b64(wave *w, const xinst *x) {
    unsigned d = x->in.dst[0].idx;
    u64 v = w->s[d] | (u64)w->s[d + 1] << 32;
    x_sd64(w, x, v | 1ull << (S0 & 63));
}
static void s_bitreplicate_b64_b32(wave *w, const xinst *x) {
    u32 s = S0;
    u64 r = 0;
    for (int i = 0; i < 32; i++)
        if ((s >> i) & 1)
            r |= 3ull << (2 * i);
    x_sd64(w, x, r);
}

/* saveexec family: D = EXEC; EXEC = f(S0, EXEC); SCC = EXEC != 0.  The wrexec forms write the
 * new EXEC to D instead of the old one. */
#define SAVEEXEC(name, expr, wr)                                                                   \
    static void name(wave *w, const xinst *x) {                                                    \
        u64 s0 = S0_64, ex = wave_exec(w);                                                         \
        u64 ne = (expr);                                                                           \
        wave_set_exec(w, ne);                                                                      \
        w->scc = ne != 0;                                                                          \
        x_sd64(w, x, wr ? ne : ex);                                                                \
    }
SAVEEXEC(s_and_saveexec_b64, s0 &ex, 0)
SAVEEXEC(s_or_saveexec_b64, s0 | ex, 0)
SAVEEXEC(s_xor_saveexec_b64, s0 ^ ex, 0)
SAVEEXEC(s_andn2_saveexec_b64, s0 & ~ex, 0)
SAVEEXEC(s_orn2_saveexec_b64, s0 | ~ex, 0)
SAVEEXEC(s_nand_saveexec_b64, ~(s0 &ex), 0)
SAVEEXEC(s_nor_saveexec_b64, ~(s0 | ex), 0)
SAVEEXEC(s_xnor_saveexec_b64, ~(s0 ^ ex), 0)
SAVEEXEC(s_andn1_saveexec_b64, ~s0 &ex, 0)
SAVEEXEC(s_orn1_saveexec_b64, ~s0 | ex, 0)
SAVEEXEC(s_andn1_wrexec_b64, ~s0 &ex, 1)
SAVEEXEC(s_andn2_wrexec_b64, s0 & ~ex, 1)

/* Program counter: addresses are code_va + byte offset; w->pc already points past this
 * instruction when the handler runs.  A target 4 GiB or more away from the code (either side)
 * must not wrap into it: it becomes an offset the wave loop refuses (bad-PC fault). */
static void jump_va(wave *w, u64 va) {
    u64 off = va - w->prog->code_va - w->va_bias;
    w->pc = off > UINT32_MAX ? UINT32_MAX : (u32)off;
}
static void s_getpc_b64(wave *w, const xinst *x) { x_sd64(w, x, wave_code_va(w, w->pc)); }
static void s_setpc_b64(wave *w, const xinst *x) { jump_va(w, S0_64); }
static void s_swappc_b64(wave *w, const xinst *x) {
    u64 target = S0_64;
    x_sd64(w, x, wave_code_va(w, w->pc));
    jump_va(w, target);
}

/* s_movrels/s_movreld: relative SGPR addressing by M0; an index past the SGPR file faults. */
static int sreg_index_ok(unsigned idx, unsigned n) { return idx + n <= ISA_SREG_FLAT_SCRATCH_LO; }
static void s_movrels_b32(wave *w, const xinst *x) {
    unsigned i = x->in.src[0].idx + w->s[ISA_SREG_M0];
    if (!sreg_index_ok(i, 1)) {
        wave_fault(w, x, XF_ILLEGAL);
        return;
    }
    x_sd32(w, x, w->s[i]);
}
static void s_movrels_b64(wave *w, const xinst *x) {
    unsigned i = x->in.src[0].idx + w->s[ISA_SREG_M0];
    if (!sreg_index_ok(i, 2)) {
        wave_fault(w, x, XF_ILLEGAL);
        return;
    }
    x_sd64(w, x, w->s[i] | (u64)w->s[i + 1] << 32);
}
static void s_movreld_b32(wave *w, const xinst *x) {
    unsigned i = x->in.dst[0].idx + w->s[ISA_SREG_M0];
    if (!sreg_index_ok(i, 1)) {
        wave_fault(w, x, XF_ILLEGAL);
        return;
    }
    w->s[i] = S0;
}
static void s_movreld_b64(wave *w, const xinst *x) {
    unsigned i = x->in.dst[0].idx + w->s[ISA_SREG_M0];
    if (!sreg_index_ok(i, 2)) {
        wave_fault(w, x, XF_ILLEGAL);
        return;
    }
    u64 v = S0_64;
    w->s[i] = (u32)v;
    w->s[i + 1] = (u32)(v >> 32);
}

/* ---- VGPR indexing (CDNA3/CDNA4 ISA "VGPR indexing") ------------------------------------------
 * s_set_gpr_idx_on S0, mode: M0[7:0] = S0[7:0], M0[15:12] = mode (bit 0 SRC0, 1 SRC1, 2 SRC2,
 * 3 DST), indexing on; while on, each VALU instruction's selected VGPR operands are offset by
 * M0[7:0].  An index that runs past v255 faults instead of touching other registers. */
static void s_set_gpr_idx_on(wave *w, const xinst *x) {
    unsigned mode = x->in.f.s.gpr_idx_mode & 15;
    w->s[ISA_SREG_M0] = (w->s[ISA_SREG_M0] & ~0xf0ffu) | (S0 & 0xff) | mode << 12;
    w->gpr_idx_on = 1;
}
static void s_set_gpr_idx_off(wave *w, const xinst *x) {
    (void)x;
    w->gpr_idx_on = 0;
}
static void s_set_gpr_idx_idx(wave *w, const xinst *x) {
    w->s[ISA_SREG_M0] = (w->s[ISA_SREG_M0] & ~0xffu) | (S0 & 0xff);
}
static void s_set_gpr_idx_mode(wave *w, const xinst *x) {
    w->s[ISA_SREG_M0] = (w->s[ISA_SREG_M0] & ~0xf000u) | (u32)(x->in.f.s.gpr_idx_mode & 15) << 12;
}

void x_run_indexed(wave *w, const xinst *x) {
    xinst t = *x;
    unsigned idx = w->s[ISA_SREG_M0] & 0xff, mode = (w->s[ISA_SREG_M0] >> 12) & 15;
    for (unsigned i = 0; i < 4; i++) {
        if (!((mode >> i) & 1))
            continue;
        isa_opnd *o = i == 3 ? &t.in.dst[0] : &t.in.src[i];
        if (o->kind != ISA_OPND_VGPR)
            continue;
        if (o->idx + idx + o->n > 256) {
            wave_fault(w, x, XF_ILLEGAL);
            return;
        }
        o->idx = (uint16_t)(o->idx + idx);
    }
    t.fn(w, &t);
}

/* ---- hardware registers (s_getreg/s_setreg) ---------------------------------------------------
 * MODE (hwreg 1) is modelled: FP_DENORM drives the VALU's denormal handling, FP_ROUND the
 * rounding (a non-zero FP_ROUND sends vector instructions through round.c, which computes in
 * that mode or faults by name).  Any other register faults as unimplemented. */
enum { HWREG_MODE = 1 };

static u32 hw_mask(const xinst *x) {
    unsigned off = x->in.f.s.hw_off, size = x->in.f.s.hw_size;
    u32 m = size >= 32 ? 0xffffffffu : (1u << size) - 1;
    return m << off;
}
static void s_getreg_b32(wave *w, const xinst *x) {
    if (x->in.f.s.hw_id != HWREG_MODE) {
        wave_fault(w, x, XF_UNIMPLEMENTED);
        return;
    }
    x_sd32(w, x, (w->mode & hw_mask(x)) >> x->in.f.s.hw_off);
}
static void setreg(wave *w, const xinst *x, u32 v) {
    u32 m = hw_mask(x), nm = (w->mode & ~m) | ((v << x->in.f.s.hw_off) & m);
    if (x->in.f.s.hw_id != HWREG_MODE) {
        wave_fault(w, x, XF_UNIMPLEMENTED);
        return;
    }
    w->mode = nm;
}
static void s_setreg_b32(wave *w, const xinst *x) { setreg(w, x, S0); }
static void s_setreg_imm32_b32(wave *w, const xinst *x) { setreg(w, x, x->in.lit); }

/* ---- SOPC ---------------------------------------------------------------------------------- */

CMP32(s_cmp_eq_i32, s0 == s1)
CMP32(s_cmp_lg_i32, s0 != s1)
CMP32(s_cmp_gt_i32, (i32)s0 > (i32)s1)
CMP32(s_cmp_ge_i32, (i32)s0 >= (i32)s1)
CMP32(s_cmp_lt_i32, (i32)s0 < (i32)s1)
CMP32(s_cmp_le_i32, (i32)s0 <= (i32)s1)
CMP32(s_cmp_eq_u32, s0 == s1)
CMP32(s_cmp_lg_u32, s0 != s1)
CMP32(s_cmp_gt_u32, s0 > s1)
CMP32(s_cmp_ge_u32, s0 >= s1)
CMP32(s_cmp_lt_u32, s0 < s1)
CMP32(s_cmp_le_u32, s0 <= s1)
CMP64(s_cmp_eq_u64, s0 == s1)
CMP64(s_cmp_lg_u64, s0 != s1)
CMP32(s_bitcmp0_b32, ((s0 >> (s1 & 31)) & 1) == 0)
CMP32(s_bitcmp1_b32, ((s0 >> (s1 & 31)) & 1) == 1)
static void s_bitcmp0_b64(wave *w, const xinst *x) { w->scc = ((S0_64 >> (S1 & 63)) & 1) == 0; }
static void s_bitcmp1_b64(wave *w, const xinst *x) { w->scc = ((S0_64 >> (S1 & 63)) & 1) == 1; }

/* ---- SOPK ---------------------------------------------------------------------------------- */

static void s_movk_i32(wave *w, const xinst *x) { x_sd32(w, x, (u32)SIMM16); }
static void s_cmovk_i32(wave *w, const xinst *x) {
    if (w->scc)
        x_sd32(w, x, (u32)SIMM16);
}
/* SOPK compares only read the register in the sdst field: the decoder gives it as src[0]. */
#define CMPK(name, expr)                                                                           \
    static void name(wave *w, const xinst *x) {                                                    \
        u32 s0 = S0;                                                                               \
        w->scc = (expr) ? 1 : 0;                                                                   \
    }
CMPK(s_cmpk_eq_i32, (i32)s0 == SIMM16)
CMPK(s_cmpk_lg_i32, (i32)s0 != SIMM16)
CMPK(s_cmpk_gt_i32, (i32)s0 > SIMM16)
CMPK(s_cmpk_ge_i32, (i32)s0 >= SIMM16)
CMPK(s_cmpk_lt_i32, (i32)s0 < SIMM16)
CMPK(s_cmpk_le_i32, (i32)s0 <= SIMM16)
CMPK(s_cmpk_eq_u32, s0 == UIMM16)
CMPK(s_cmpk_lg_u32, s0 != UIMM16)
CMPK(s_cmpk_gt_u32, s0 > UIMM16)
CMPK(s_cmpk_ge_u32, s0 >= UIMM16)
CMPK(s_cmpk_lt_u32, s0 < UIMM16)
CMPK(s_cmpk_le_u32, s0 <= UIMM16)
static void s_addk_i32(wave *w, const xinst *x) {
    i32 r, a = (i32)w->s[x->in.dst[0].idx];
    w->scc = __builtin_add_overflow(a, SIMM16, &r);
    x_sd32(w, x, (u32)r);
}
static void s_mulk_i32(wave *w, const xinst *x) {
    x_sd32(w, x, (u32)((i64)(i32)w->s[x->in.dst[0].idx] * SIMM16));
}
static void s_call_b64(wave *w, const xinst *x) {
    x_sd64(w, x, wave_code_va(w, w->pc));
    w->pc += (u32)(SIMM16 * 4);
}

/* ---- SOPP ---------------------------------------------------------------------------------- */

static void s_nop(wave *w, const xinst *x) { (void)w, (void)x; }
static void s_endpgm(wave *w, const xinst *x) {
    (void)x;
    w->status = WAVE_DONE;
}
static void s_trap(wave *w, const xinst *x) { wave_fault(w, x, XF_TRAP); }
/* s_sleep: the wave stops issuing for a while (CDNA3/CDNA4 ISA, S_SLEEP): give the turn to the
 * other resident waves.  Kernels sleep in wait loops, so this is where a waiting wave lets the
 * wave it waits for run (src/dispatch/sched.c). */
static void s_sleep(wave *w, const xinst *x) {
    (void)x;
    w->status = WAVE_YIELD;
}

static void s_barrier(wave *w, const xinst *x) {
    (void)x;
    w->status = WAVE_BARRIER;
}
#define BRANCH(name, cond)                                                                         \
    static void name(wave *w, const xinst *x) {                                                    \
        if (cond)                                                                                  \
            w->pc += (u32)(SIMM16 * 4);                                                            \
    }
BRANCH(s_branch, 1)
BRANCH(s_cbranch_scc0, w->scc == 0)
BRANCH(s_cbranch_scc1, w->scc != 0)
BRANCH(s_cbranch_vccz, (w->s[ISA_SREG_VCC_LO] | w->s[ISA_SREG_VCC_HI]) == 0)
BRANCH(s_cbranch_vccnz, (w->s[ISA_SREG_VCC_LO] | w->s[ISA_SREG_VCC_HI]) != 0)
BRANCH(s_cbranch_execz, wave_exec(w) == 0)
BRANCH(s_cbranch_execnz, wave_exec(w) != 0)

/* Debug branches: taken when WAVE_STATUS.COND_DBG_SYS / COND_DBG_USER are set.  Those bits are
 * set only from outside the wave (the debugger, through the SQ); gfxemu has no such agent, so
 * they read 0 and the branches fall through (s_cbranch_cdbgsys_and_user likewise). */
BRANCH(s_cbranch_cdbg, 0)

/* s_sethalt 1 halts the wave until an outside agent resumes it, which never happens here: report
 * it as a "wave halted" fault rather than hang the launch.  s_sethalt 0 clears HALT: nothing to
 * do, a running wave is not halted. */
static void s_sethalt(wave *w, const xinst *x) {
    if (UIMM16 & 1)
        wave_fault(w, x, XF_HALT);
}

/* s_sendmsg (CDNA3/CDNA4 ISA "Send Message"): the message id is SIMM16[3:0].  For a compute wave
 * only MSG_INTERRUPT has an effect gfxemu can honour: it sends M0[23:0] to the host's interrupt
 * handler and the wave goes on (nobody listens here, so that is all).  MSG_HALT_WAVES halts the
 * waves of the queue (a halt fault).  0 is illegal.  Context save/stall and GET_DOORBELL (which
 * returns a doorbell id in EXEC), and the graphics messages of gfx9 (GS, GS_DONE, ORDERED_PS_DONE,
 * ...) have no meaning gfxemu can give them: they stop the wave as unimplemented rather than be
 * silently dropped.  Returns 0 when the wave may continue. */
static int sendmsg(wave *w, const xinst *x) {
    switch (x->in.f.s.msg) {
    case 1: /* MSG_INTERRUPT */ return 0;
    case 6: /* MSG_HALT_WAVES */ wave_fault(w, x, XF_HALT); return -1;
    case 0: wave_fault(w, x, XF_ILLEGAL); return -1;
    default: wave_fault(w, x, XF_UNIMPLEMENTED); return -1;
    }
}
static void s_sendmsg(wave *w, const xinst *x) { (void)sendmsg(w, x); }
static void s_sendmsghalt(wave *w, const xinst *x) {
    if (sendmsg(w, x) == 0)
        wave_fault(w, x, XF_HALT);
}

/* s_setvskip S0, S1: VSKIP = S0[S1[4:0]]; while set, vector instructions are not issued (the wave
 * loop drops them, src/exec/exec.c). */
static void s_setvskip(wave *w, const xinst *x) { w->vskip = (S0 >> (S1 & 31)) & 1; }

/* Fork/join with the control-stack pointer CSP = MODE[31:29]: a fork runs the side with fewer
 * active lanes first and pushes {PC, EXEC} of the other side to SGPR[CSP*4 .. CSP*4+3] (EXEC in
 * the low pair, the byte address in the high pair); s_cbranch_join S0 pops and jumps there unless
 * CSP is back at the value saved in S0. */
static unsigned csp(const wave *w) { return w->mode >> 29; }
static void set_csp(wave *w, unsigned c) { w->mode = (w->mode & 0x1fffffffu) | (c & 7) << 29; }
static void csp_fork(wave *w, u64 mask, u64 target_va) {
    u64 exec = wave_exec(w), pass = mask & exec, fail = ~mask & exec;
    u64 next_va = wave_code_va(w, w->pc), push_pc, push_exec;
    if (pass == exec) {
        jump_va(w, target_va);
        return;
    }
    if (fail == exec)
        return;
    if (__builtin_popcountll(fail) < __builtin_popcountll(pass)) {
        wave_set_exec(w, fail);
        push_exec = pass, push_pc = target_va;
    } else {
        wave_set_exec(w, pass);
        push_exec = fail, push_pc = next_va;
        jump_va(w, target_va);
    }
    u32 *e = &w->s[csp(w) * 4];
    e[0] = (u32)push_exec, e[1] = (u32)(push_exec >> 32);
    e[2] = (u32)push_pc, e[3] = (u32)(push_pc >> 32);
    set_csp(w, csp(w) + 1);
}
static void s_cbranch_g_fork(wave *w, const xinst *x) { csp_fork(w, S0_64, S1_64); }
static void s_cbranch_i_fork(wave *w, const xinst *x) {
    csp_fork(w, S0_64, wave_code_va(w, w->pc) + (u64)(int64_t)x->in.f.s.offset);
}
static void s_cbranch_join(wave *w, const xinst *x) {
    if (csp(w) == S0)
        return;
    set_csp(w, csp(w) - 1);
    const u32 *e = &w->s[csp(w) * 4];
    wave_set_exec(w, e[0] | (u64)e[1] << 32);
    jump_va(w, e[2] | (u64)e[3] << 32);
}

/* s_rfe_b64: clear PRIV and jump to S0.  The manual allows it only inside a trap handler; gfxemu
 * runs none (s_trap faults), so PRIV is always 0 and what is left is the jump. */
static void s_rfe_b64(wave *w, const xinst *x) { jump_va(w, S0_64); }

#define H(op, fn) XROW(op, ISA_T_B32, fn)
#define H64(op, fn) XROW(op, ISA_T_B64, fn)
const xhandler x_salu_handlers[] = {
    H(s_add_u32, s_add_u32),
    H(s_sub_u32, s_sub_u32),
    H(s_addc_u32, s_addc_u32),
    H(s_subb_u32, s_subb_u32),
    H(s_add_i32, s_add_i32),
    H(s_sub_i32, s_sub_i32),
    H(s_min_i32, s_min_i32),
    H(s_min_u32, s_min_u32),
    H(s_max_i32, s_max_i32),
    H(s_max_u32, s_max_u32),
    H(s_cselect_b32, s_cselect_b32),
    H64(s_cselect_b64, s_cselect_b64),
    H(s_and_b32, s_and_b32),
    H64(s_and_b64, s_and_b64),
    H(s_or_b32, s_or_b32),
    H64(s_or_b64, s_or_b64),
    H(s_xor_b32, s_xor_b32),
    H64(s_xor_b64, s_xor_b64),
    H(s_andn2_b32, s_andn2_b32),
    H64(s_andn2_b64, s_andn2_b64),
    H(s_orn2_b32, s_orn2_b32),
    H64(s_orn2_b64, s_orn2_b64),
    H(s_nand_b32, s_nand_b32),
    H64(s_nand_b64, s_nand_b64),
    H(s_nor_b32, s_nor_b32),
    H64(s_nor_b64, s_nor_b64),
    H(s_xnor_b32, s_xnor_b32),
    H64(s_xnor_b64, s_xnor_b64),
    H(s_lshl_b32, s_lshl_b32),
    H64(s_lshl_b64, s_lshl_b64),
    H(s_lshr_b32, s_lshr_b32),
    H64(s_lshr_b64, s_lshr_b64),
    H(s_ashr_i32, s_ashr_i32),
    H64(s_ashr_i64, s_ashr_i64),
    H(s_bfm_b32, s_bfm_b32),
    H(s_bfm_b64, s_bfm_b64),
    H(s_mul_i32, s_mul_i32),
    H(s_mul_hi_u32, s_mul_hi_u32),
    H(s_mul_hi_i32, s_mul_hi_i32),
    H(s_bfe_u32, s_bfe_u32),
    H(s_bfe_i32, s_bfe_i32),
    H64(s_bfe_u64, s_bfe_u64),
    H64(s_bfe_i64, s_bfe_i64),
    H(s_absdiff_i32, s_absdiff_i32),
    H(s_lshl1_add_u32, s_lshl1_add_u32),
    H(s_lshl2_add_u32, s_lshl2_add_u32),
    H(s_lshl3_add_u32, s_lshl3_add_u32),
    H(s_lshl4_add_u32, s_lshl4_add_u32),
    H(s_pack_ll_b32_b16, s_pack_ll_b32_b16),
    H(s_pack_lh_b32_b16, s_pack_lh_b32_b16),
    H(s_pack_hh_b32_b16, s_pack_hh_b32_b16),
    H(s_mov_b32, s_mov_b32),
    H64(s_mov_b64, s_mov_b64),
    H(s_cmov_b32, s_cmov_b32),
    H64(s_cmov_b64, s_cmov_b64),
    H(s_not_b32, s_not_b32),
    H64(s_not_b64, s_not_b64),
    H(s_wqm_b32, s_wqm_b32),
    H64(s_wqm_b64, s_wqm_b64),
    H(s_brev_b32, s_brev_b32),
    H64(s_brev_b64, s_brev_b64),
    H(s_bcnt0_i32_b32, s_bcnt0_i32_b32),
    H64(s_bcnt0_i32_b64, s_bcnt0_i32_b64),
    H(s_bcnt1_i32_b32, s_bcnt1_i32_b32),
    H64(s_bcnt1_i32_b64, s_bcnt1_i32_b64),
    H(s_ff0_i32_b32, s_ff0_i32_b32),
    H64(s_ff0_i32_b64, s_ff0_i32_b64),
    H(s_ff1_i32_b32, s_ff1_i32_b32),
    H64(s_ff1_i32_b64, s_ff1_i32_b64),
    H(s_flbit_i32_b32, s_flbit_i32_b32),
    H64(s_flbit_i32_b64, s_flbit_i32_b64),
    H(s_flbit_i32, s_flbit_i32),
    H64(s_flbit_i32_i64, s_flbit_i32_i64),
    H(s_sext_i32_i8, s_sext_i32_i8),
    H(s_sext_i32_i16, s_sext_i32_i16),
    H(s_abs_i32, s_abs_i32),
    H(s_quadmask_b32, s_quadmask_b32),
    H64(s_quadmask_b64, s_quadmask_b64),
    H(s_bitset0_b32, s_bitset0_b32),
    H(s_bitset1_b32, s_bitset1_b32),
    H(s_bitset0_b64, s_bitset0_b64),
    H(s_bitset1_b64, s_bitset1_b64),
    H(s_bitreplicate_b64_b32, s_bitreplicate_b64_b32),
    H64(s_and_saveexec_b64, s_and_saveexec_b64),
    H64(s_or_saveexec_b64, s_or_saveexec_b64),
    H64(s_xor_saveexec_b64, s_xor_saveexec_b64),
    H64(s_andn2_saveexec_b64, s_andn2_saveexec_b64),
    H64(s_orn2_saveexec_b64, s_orn2_saveexec_b64),
    H64(s_nand_saveexec_b64, s_nand_saveexec_b64),
    H64(s_nor_saveexec_b64, s_nor_saveexec_b64),
    H64(s_xnor_saveexec_b64, s_xnor_saveexec_b64),
    H64(s_andn1_saveexec_b64, s_andn1_saveexec_b64),
    H64(s_orn1_saveexec_b64, s_orn1_saveexec_b64),
    H64(s_andn1_wrexec_b64, s_andn1_wrexec_b64),
    H64(s_andn2_wrexec_b64, s_andn2_wrexec_b64),
    H64(s_getpc_b64, s_getpc_b64),
    H64(s_setpc_b64, s_setpc_b64),
    H64(s_swappc_b64, s_swappc_b64),
    H(s_movrels_b32, s_movrels_b32),
    H64(s_movrels_b64, s_movrels_b64),
    H(s_movreld_b32, s_movreld_b32),
    H64(s_movreld_b64, s_movreld_b64),
    H(s_cmp_eq_i32, s_cmp_eq_i32),
    H(s_cmp_lg_i32, s_cmp_lg_i32),
    H(s_cmp_gt_i32, s_cmp_gt_i32),
    H(s_cmp_ge_i32, s_cmp_ge_i32),
    H(s_cmp_lt_i32, s_cmp_lt_i32),
    H(s_cmp_le_i32, s_cmp_le_i32),
    H(s_cmp_eq_u32, s_cmp_eq_u32),
    H(s_cmp_lg_u32, s_cmp_lg_u32),
    H(s_cmp_gt_u32, s_cmp_gt_u32),
    H(s_cmp_ge_u32, s_cmp_ge_u32),
    H(s_cmp_lt_u32, s_cmp_lt_u32),
    H(s_cmp_le_u32, s_cmp_le_u32),
    H64(s_cmp_eq_u64, s_cmp_eq_u64),
    H64(s_cmp_lg_u64, s_cmp_lg_u64),
    H(s_bitcmp0_b32, s_bitcmp0_b32),
    H(s_bitcmp1_b32, s_bitcmp1_b32),
    H64(s_bitcmp0_b64, s_bitcmp0_b64),
    H64(s_bitcmp1_b64, s_bitcmp1_b64),
    H(s_movk_i32, s_movk_i32),
    H(s_cmovk_i32, s_cmovk_i32),
    H(s_cmpk_eq_i32, s_cmpk_eq_i32),
    H(s_cmpk_lg_i32, s_cmpk_lg_i32),
    H(s_cmpk_gt_i32, s_cmpk_gt_i32),
    H(s_cmpk_ge_i32, s_cmpk_ge_i32),
    H(s_cmpk_lt_i32, s_cmpk_lt_i32),
    H(s_cmpk_le_i32, s_cmpk_le_i32),
    H(s_cmpk_eq_u32, s_cmpk_eq_u32),
    H(s_cmpk_lg_u32, s_cmpk_lg_u32),
    H(s_cmpk_gt_u32, s_cmpk_gt_u32),
    H(s_cmpk_ge_u32, s_cmpk_ge_u32),
    H(s_cmpk_lt_u32, s_cmpk_lt_u32),
    H(s_cmpk_le_u32, s_cmpk_le_u32),
    H(s_addk_i32, s_addk_i32),
    H(s_mulk_i32, s_mulk_i32),
    H64(s_call_b64, s_call_b64),
    H(s_set_gpr_idx_on, s_set_gpr_idx_on),
    H(s_set_gpr_idx_off, s_set_gpr_idx_off),
    H(s_set_gpr_idx_idx, s_set_gpr_idx_idx),
    H(s_set_gpr_idx_mode, s_set_gpr_idx_mode),
    H(s_getreg_b32, s_getreg_b32),
    H(s_setreg_b32, s_setreg_b32),
    H(s_setreg_imm32_b32, s_setreg_imm32_b32),
    /* Hints and performance counters have no effect on results. */
    H(s_icache_inv, s_nop),
    H(s_incperflevel, s_nop),
    H(s_decperflevel, s_nop),
    H(s_ttracedata, s_nop),
    H(s_wakeup, s_nop),
    H(s_setkill, s_nop),
    H(s_endpgm_saved, s_endpgm),
    H(s_nop, s_nop),
    H(s_endpgm, s_endpgm),
    H(s_trap, s_trap),
    H(s_barrier, s_barrier),
    H(s_waitcnt, s_nop),
    H(s_sleep, s_sleep),
    H(s_setprio, s_nop),
    H(s_branch, s_branch),
    H(s_cbranch_scc0, s_cbranch_scc0),
    H(s_cbranch_scc1, s_cbranch_scc1),
    H(s_cbranch_vccz, s_cbranch_vccz),
    H(s_cbranch_vccnz, s_cbranch_vccnz),
    H(s_cbranch_execz, s_cbranch_execz),
    H(s_cbranch_execnz, s_cbranch_execnz),
    H(s_cbranch_cdbgsys, s_cbranch_cdbg),
    H(s_cbranch_cdbguser, s_cbranch_cdbg),
    H(s_cbranch_cdbgsys_or_user, s_cbranch_cdbg),
    H(s_cbranch_cdbgsys_and_user, s_cbranch_cdbg),
    H(s_sethalt, s_sethalt),
    H(s_sendmsg, s_sendmsg),
    H(s_sendmsghalt, s_sendmsghalt),
    H(s_setvskip, s_setvskip),
    H64(s_cbranch_g_fork, s_cbranch_g_fork),
    H64(s_cbranch_i_fork, s_cbranch_i_fork),
    H(s_cbranch_join, s_cbranch_join),
    H64(s_rfe_b64, s_rfe_b64),
    /* A compute wave has no POPS critical section to leave: what remains is the end of program. */
    H(s_endpgm_ordered_ps_done, s_endpgm),
};
const unsigned x_salu_nhandlers = sizeof x_salu_handlers / sizeof x_salu_handlers[0];
