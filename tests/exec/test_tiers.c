/* test_tiers.c - the fast tier against the reference interpreter (issue 16), bit for bit.
 *
 * gfxemu's fast paths -- the VALU direct path and VV clones (src/exec/valu.h), the vector-memory
 * and scratch fast paths (vmem.c), the MFMA fast path (mfma.c) -- must compute exactly what the
 * general handlers compute.  x_set_fast_tier(0) builds programs that run the general handlers
 * alone (exec.h, XI_REF).  This test generates random straight-line gfx950 programs from a table
 * of instruction forms (VOP1/VOP2 with SGPR, inline and literal sources, VOP3 with modifiers and
 * clamp, 64-bit and packed ops, carries, v_cmp + s_and_saveexec for divergent EXEC, global,
 * buffer and scratch loads and stores, coalesced and scattered, sub-dword, MFMA), assembles each
 * with gfxemu's assembler, runs it from one random starting state (registers drawn from edge
 * values: +-0, denormals, NaN, infinities, INT_MIN, ...; full or partial EXEC; MODE with
 * denormals kept or flushed) under both tiers, and compares every register (VGPRs, AGPRs,
 * SGPRs, SCC), the wave's status and fault, global memory, scratch and LDS.  Then the same for
 * gfx1100 wave32 programs (forms_w32: VOP1/VOP2/VOP3, VOPD, 64-bit, carries and compares into
 * one SGPR, s_and_saveexec_b32; full or partial 32-bit EXEC), whose fast paths compute lanes 0-31
 * only; lanes 0-31 are compared.  GFXEMU_TIERS_W32=1 runs only those.
 *
 * The seed is fixed (GFXEMU_TIERS_SEED overrides it, GFXEMU_TIERS_N the program count), so a
 * failure names a program that can be reproduced; the program's text is printed with it. */
#include "common/asm.h"
#include "common/check.h"
#include "common/rng.h"
#include "common/snippet.h"
#include "exec/exec.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* The target and wave size of the programs being generated: gfx950 wave64, then gfx1100
 * wave32 (main()). */
static const char *arch = "gfx950";
static unsigned lanes = 64;

/* Instruction forms.  In the text: D a destination VGPR, A/B/C source VGPRs, X any 32-bit source
 * of the form's class (VGPR, SGPR, inline constant, or literal in the e32 forms), P/Q/R even VGPR
 * pairs (D pairs as P), W a 64-bit packed-f32 source (an even VGPR pair, an SGPR pair or an
 * inline constant), M a memory offset register set up by the test. */
typedef struct {
    const char *text; /* "%D", "%A".. placeholders, see gen() */
    unsigned flags;
} form;
enum {
    F_FLOAT = 1,   /* float op: float inline constants, neg/abs in VOP3 */
    F_CLAMP = 2,   /* VOP3 form may take clamp */
    F_OMOD = 4,    /* VOP3 form may take omod (mul:2, div:2) */
    F_LIT = 8,     /* %X may be a literal (VOP1/VOP2 e32 src0) */
    F_NOSGPR = 16, /* no SGPR source: the form reads VCC or an SGPR pair (gfx9 constant bus) */
    /* The two kinds of program (kept from when the tiers' two-NaN results differed, and float
     * programs had to stay NaN-free): a float program draws F_FP and F_BOTH forms, an integer
     * program the rest and F_BOTH. */
    F_FP = 32,   /* float arithmetic with two or more float inputs */
    F_BOTH = 64, /* moves, selects, compares, EXEC, memory, MFMA, one-input float ops */
    /* An f64 op's results are no NaN-free f32 words: the high dword of an f64 infinity or NaN
     * is an f32 NaN with a payload of its own (0x7ff00000, 0xfff80000), which would meet
     * another NaN in an f32 op.  A float program draws either these F_FP forms or the others. */
    F_F64 = 128,
};

static const form forms[] = {
    /* VOP1 / VOP2 e32: src0 any kind, src1 a VGPR */
    {"v_mov_b32_e32 %D, %X", F_LIT | F_BOTH},
    {"v_not_b32_e32 %D, %X", F_LIT},
    {"v_cvt_f32_u32_e32 %D, %X", F_LIT | F_BOTH},
    {"v_cvt_u32_f32_e32 %D, %X", F_LIT | F_FLOAT},
    {"v_cvt_i32_f32_e32 %D, %X", F_LIT | F_FLOAT},
    {"v_rcp_f32_e32 %D, %X", F_LIT | F_FLOAT | F_BOTH},
    {"v_sqrt_f32_e32 %D, %X", F_LIT | F_FLOAT | F_BOTH},
    {"v_fract_f32_e32 %D, %X", F_LIT | F_FLOAT | F_BOTH},
    {"v_bfrev_b32_e32 %D, %X", F_LIT},
    {"v_ffbh_u32_e32 %D, %X", F_LIT},
    {"v_add_f32_e32 %D, %X, %B", F_LIT | F_FLOAT | F_FP},
    {"v_sub_f32_e32 %D, %X, %B", F_LIT | F_FLOAT | F_FP},
    {"v_mul_f32_e32 %D, %X, %B", F_LIT | F_FLOAT | F_FP},
    {"v_max_f32_e32 %D, %X, %B", F_LIT | F_FLOAT | F_FP},
    {"v_min_f32_e32 %D, %X, %B", F_LIT | F_FLOAT | F_FP},
    {"v_fmac_f32_e32 %D, %X, %B", F_LIT | F_FLOAT | F_FP},
    {"v_add_u32_e32 %D, %X, %B", F_LIT},
    {"v_sub_u32_e32 %D, %X, %B", F_LIT},
    {"v_subrev_u32_e32 %D, %X, %B", F_LIT},
    {"v_lshlrev_b32_e32 %D, %X, %B", F_LIT},
    {"v_lshrrev_b32_e32 %D, %X, %B", F_LIT},
    {"v_ashrrev_i32_e32 %D, %X, %B", F_LIT},
    {"v_and_b32_e32 %D, %X, %B", F_LIT},
    {"v_or_b32_e32 %D, %X, %B", F_LIT},
    {"v_xor_b32_e32 %D, %X, %B", F_LIT},
    {"v_max_i32_e32 %D, %X, %B", F_LIT},
    {"v_min_u32_e32 %D, %X, %B", F_LIT},
    {"v_mul_u32_u24_e32 %D, %X, %B", F_LIT},
    {"v_mul_hi_i32_i24_e32 %D, %X, %B", F_LIT},
    {"v_cndmask_b32_e32 %D, %X, %B, vcc", F_NOSGPR | F_BOTH},
    {"v_add_co_u32_e32 %D, vcc, %X, %B", F_LIT},
    {"v_addc_co_u32_e32 %D, vcc, %X, %B, vcc", F_NOSGPR},
    {"v_sub_co_u32_e32 %D, vcc, %X, %B", F_LIT},
    {"v_add_f16_e32 %D, %X, %B", F_FLOAT | F_FP},
    {"v_mul_f16_e32 %D, %X, %B", F_FLOAT | F_FP},
    /* VOP3: sources VGPR, SGPR or inline constant; modifiers */
    {"v_add_f32_e64 %D, %X, %Y", F_FLOAT | F_CLAMP | F_OMOD | F_FP},
    {"v_mul_f32_e64 %D, %X, %Y", F_FLOAT | F_CLAMP | F_OMOD | F_FP},
    {"v_fma_f32 %D, %X, %Y, %Z", F_FLOAT | F_CLAMP | F_OMOD | F_FP},
    {"v_mad_u32_u24 %D, %X, %Y, %Z", F_CLAMP},
    {"v_add_u32_e64 %D, %X, %Y", F_CLAMP},
    {"v_sub_u32_e64 %D, %X, %Y", F_CLAMP},
    {"v_mul_lo_u32 %D, %X, %Y", 0},
    {"v_mul_hi_u32 %D, %X, %Y", 0},
    {"v_lshl_add_u32 %D, %X, %Y, %Z", 0},
    {"v_add3_u32 %D, %X, %Y, %Z", 0},
    {"v_and_or_b32 %D, %X, %Y, %Z", 0},
    {"v_or3_b32 %D, %X, %Y, %Z", 0},
    {"v_xad_u32 %D, %X, %Y, %Z", 0},
    {"v_bfe_u32 %D, %X, %Y, %Z", 0},
    {"v_bfi_b32 %D, %X, %Y, %Z", 0},
    {"v_med3_f32 %D, %X, %Y, %Z", F_FLOAT | F_CLAMP | F_FP},
    {"v_max3_f32 %D, %X, %Y, %Z", F_FLOAT | F_CLAMP | F_FP},
    {"v_med3_i32 %D, %X, %Y, %Z", 0},
    {"v_alignbit_b32 %D, %X, %Y, %Z", 0},
    {"v_cvt_pk_u16_u32 %D, %X, %Y", 0},
    {"v_fma_f16 %D, %X, %Y, %Z", F_FLOAT | F_CLAMP | F_FP},
    {"v_add_co_u32_e64 %D, s[20:21], %X, %Y", F_CLAMP},
    {"v_cndmask_b32_e64 %D, %X, %Y, s[20:21]", F_NOSGPR | F_BOTH},
    /* 64-bit and packed */
    {"v_lshlrev_b64 %P, %X, %Q", 0},
    {"v_lshl_add_u64 %P, %Q, %X, %R", 0},
    {"v_mad_u64_u32 %P, s[20:21], %A, %B, %R", 0},
    {"v_add_f64 %P, %Q, %R", F_FLOAT | F_FP | F_F64},
    {"v_fma_f64 %P, %Q, %R, %P", F_FLOAT | F_FP | F_F64},
    {"v_pk_add_f32 %P, %Q, %R", F_FP},
    {"v_pk_mul_f32 %P, %Q, %R", F_FP},
    {"v_pk_fma_f32 %P, %Q, %R, %P", F_FP},
    /* the packed-f32 clones' scalar sources (valu_f16.c PKF32) */
    {"v_pk_add_f32 %P, %W, %R", F_FP},
    {"v_pk_mul_f32 %P, %Q, %W", F_FP},
    {"v_pk_fma_f32 %P, %W, %R, %Q", F_FP},
    {"v_pk_fma_f32 %P, %Q, %R, %W", F_FP},
    {"v_pk_add_f16 %D, %A, %B", F_FP},
    {"v_pk_fma_f16 %D, %A, %B, %C", F_FP},
    {"v_pk_add_u16 %D, %A, %B", F_CLAMP},
    {"v_dot2_f32_f16 %D, %A, %B, %C", F_FP},
    /* compares, EXEC */
    {"v_cmp_gt_u32_e32 vcc, %X, %B", F_LIT | F_BOTH},
    {"v_cmp_lt_f32_e32 vcc, %X, %B", F_LIT | F_FLOAT | F_BOTH},
    {"v_cmp_class_f32_e64 s[20:21], %A, %X", F_BOTH},
    {"s_and_saveexec_b64 s[22:23], vcc", F_BOTH},
    {"s_mov_b64 exec, s[22:23]", F_BOTH},
    /* memory: v[40:41] lane addresses in the buffer (coalesced), v[42:43] scattered, v44 a
     * byte offset per lane, s[8:9] the buffer, s[12:15] its V#, scratch 64 bytes per lane */
    {"global_load_dword %D, v[40:41], off", F_BOTH},
    {"global_load_dword %D, v[42:43], off offset:64", F_BOTH},
    {"global_load_dwordx2 %P, v[40:41], off", F_BOTH},
    {"global_load_dwordx4 v[16:19], v[40:41], off", F_BOTH},
    {"global_load_dword %D, v44, s[8:9]", F_BOTH},
    {"global_load_ushort %D, v[42:43], off offset:2", F_BOTH},
    /* (sign-extended bytes are f32 NaNs: integer programs only) */
    {"global_load_sbyte %D, v[42:43], off offset:3", 0},
    {"global_load_sshort %D, v[42:43], off offset:2", 0},
    {"global_load_ubyte %D, v[42:43], off offset:1", F_BOTH},
    {"global_load_short_d16 %D, v[42:43], off offset:2", F_BOTH},
    {"global_load_ubyte_d16_hi %D, v[42:43], off offset:1", 0},
    {"global_load_sbyte_d16 %D, v44, s[8:9] offset:3", 0},
    {"global_store_dword v[40:41], %A, off", F_BOTH},
    {"global_store_dword v[42:43], %A, off offset:128", F_BOTH},
    {"global_store_dwordx2 v[40:41], %Q, off offset:512", F_BOTH},
    {"global_store_short v[42:43], %A, off offset:6", F_BOTH},
    {"global_store_byte v44, %A, s[8:9] offset:5", F_BOTH},
    {"buffer_load_dword %D, v44, s[12:15], 0 offen", F_BOTH},
    {"buffer_store_dword %A, v44, s[12:15], 0 offen offset:256", F_BOTH},
    {"buffer_load_dwordx4 v[16:19], v44, s[12:15], 0 offen", F_BOTH},
    {"buffer_store_dwordx2 %P, v44, s[12:15], 0 offen offset:8", F_BOTH},
    {"scratch_store_dword off, %A, off offset:16", F_BOTH},
    {"scratch_load_dword %D, off, off offset:16", F_BOTH},
    /* one offset, not a dword's (the general path's bytes) */
    {"scratch_store_dword off, %A, off offset:6", F_BOTH},
    {"scratch_load_dword %D, off, off offset:2", F_BOTH},
    {"scratch_store_dwordx2 v45, %Q, off", F_BOTH},
    {"scratch_load_dwordx2 %P, v45, off", F_BOTH},
    /* v46 offsets over at most 4 dwords (or one), v[20:21] FLAT addresses of private memory
     * (v46 in the aperture; sometimes one lane's global), v22 offsets over 16 dwords */
    {"scratch_store_dword v46, %A, off offset:8", F_BOTH},
    {"scratch_load_dword %D, v46, off offset:4", F_BOTH},
    {"scratch_store_dwordx2 v46, %Q, off", F_BOTH},
    {"scratch_load_dwordx4 v[16:19], v46, off offset:16", F_BOTH},
    {"scratch_store_dword v22, %A, off", F_BOTH},
    {"scratch_load_dword %D, v22, off", F_BOTH},
    {"flat_store_dword v[20:21], %A offset:4", F_BOTH},
    {"flat_load_dword %D, v[20:21]", F_BOTH},
    {"flat_load_dwordx2 %P, v[20:21] offset:8", F_BOTH},
    /* AGPR moves (x_mov_rr), a3 and a5 also inside the MFMA's a[0:15].  The read goes to v60
     * (counted as an MFMA result, read by no form: from before MFMA NaNs were one value). */
    {"v_accvgpr_write_b32 a5, %A", F_BOTH},
    {"v_accvgpr_read_b32 v60, a3", F_BOTH},
    {"v_accvgpr_mov_b32 a3, a5", F_BOTH},
    /* MFMA: A/B from v0..v15, C/D in v[48:63] or AGPRs */
    {"v_mfma_f32_16x16x16_f16 v[48:51], %Q, %R, v[48:51]", F_BOTH},
    {"v_mfma_f32_32x32x8_f16 a[0:15], %Q, %R, a[0:15]", F_BOTH},
    {"v_mfma_f32_16x16x32_bf16 v[52:55], v[0:3], v[4:7], v[52:55]", F_BOTH},
    {"v_mfma_f32_16x16x32_fp8_fp8 v[56:59], %Q, %R, 0", F_BOTH},
};
enum { NFORMS = sizeof forms / sizeof forms[0] };

/* gfx1100 wave32 programs: the fast tier computes lanes 0-31 of a full wave32 wave only
 * (valu.h VFOR), lane masks are one SGPR (vcc_lo, s20), and VOPD pairs two VALU ops.  In VOPD
 * forms %e/%o are an even/odd destination and %0..%3 VGPRs of bank 0..3 (RDNA3 ISA "VOPD": the
 * two src0s and the two vsrc1s sit in different banks), %K a constant or SGPR src0. */
static const form forms_w32[] = {
    {"v_mov_b32_e32 %D, %X", F_LIT | F_BOTH},
    {"v_not_b32_e32 %D, %X", F_LIT},
    {"v_cvt_f32_u32_e32 %D, %X", F_LIT | F_BOTH},
    {"v_rcp_f32_e32 %D, %X", F_LIT | F_FLOAT | F_BOTH},
    {"v_sqrt_f32_e32 %D, %X", F_LIT | F_FLOAT | F_BOTH},
    {"v_add_f32_e32 %D, %X, %B", F_LIT | F_FLOAT | F_FP},
    {"v_sub_f32_e32 %D, %X, %B", F_LIT | F_FLOAT | F_FP},
    {"v_mul_f32_e32 %D, %X, %B", F_LIT | F_FLOAT | F_FP},
    {"v_max_f32_e32 %D, %X, %B", F_LIT | F_FLOAT | F_FP},
    {"v_fmac_f32_e32 %D, %X, %B", F_LIT | F_FLOAT | F_FP},
    {"v_fmamk_f32 %D, %A, 0x3f400000, %B", F_FP},
    {"v_fmaak_f32 %D, %X, %B, 0xbd800000", F_FLOAT | F_FP},
    {"v_add_nc_u32_e32 %D, %X, %B", F_LIT},
    {"v_sub_nc_u32_e32 %D, %X, %B", F_LIT},
    {"v_lshlrev_b32_e32 %D, %X, %B", F_LIT},
    {"v_lshrrev_b32_e32 %D, %X, %B", F_LIT},
    {"v_ashrrev_i32_e32 %D, %X, %B", F_LIT},
    {"v_and_b32_e32 %D, %X, %B", F_LIT},
    {"v_or_b32_e32 %D, %X, %B", F_LIT},
    {"v_xor_b32_e32 %D, %X, %B", F_LIT},
    {"v_max_i32_e32 %D, %X, %B", F_LIT},
    {"v_min_u32_e32 %D, %X, %B", F_LIT},
    {"v_mul_u32_u24_e32 %D, %X, %B", F_LIT},
    {"v_cndmask_b32_e32 %D, %X, %B, vcc_lo", F_LIT | F_BOTH},
    {"v_add_co_ci_u32_e32 %D, vcc_lo, %X, %B, vcc_lo", F_LIT},
    {"v_add_f32_e64 %D, %X, %Y", F_FLOAT | F_CLAMP | F_OMOD | F_FP},
    {"v_mul_f32_e64 %D, %X, %Y", F_FLOAT | F_CLAMP | F_OMOD | F_FP},
    {"v_fma_f32 %D, %X, %Y, %Z", F_FLOAT | F_CLAMP | F_OMOD | F_FP},
    {"v_add_nc_u32_e64 %D, %X, %Y", F_CLAMP},
    {"v_mul_lo_u32 %D, %X, %Y", 0},
    {"v_mul_hi_u32 %D, %X, %Y", 0},
    {"v_lshl_add_u32 %D, %X, %Y, %Z", 0},
    {"v_lshl_or_b32 %D, %X, %Y, %Z", 0},
    {"v_add3_u32 %D, %X, %Y, %Z", 0},
    {"v_and_or_b32 %D, %X, %Y, %Z", 0},
    {"v_xor3_b32 %D, %X, %Y, %Z", 0},
    {"v_bfe_u32 %D, %X, %Y, %Z", 0},
    {"v_med3_i32 %D, %X, %Y, %Z", 0},
    {"v_add_co_u32 %D, s20, %X, %Y", 0},
    {"v_add_co_ci_u32_e64 %D, s21, %X, %Y, s20", F_NOSGPR},
    {"v_sub_co_u32 %D, vcc_lo, %X, %Y", 0},
    {"v_cndmask_b32_e64 %D, %X, %Y, s20", F_NOSGPR | F_BOTH},
    {"v_lshlrev_b64 %P, %X, %Q", 0},
    {"v_mad_u64_u32 %P, null, %X, %Y, %R", 0},
    {"v_mad_u64_u32 %P, s20, %A, %B, %R", 0},
    /* pairs overlapping in part: each lane reads its sources before it writes */
    {"v_mad_u64_u32 v[6:7], null, v6, %X, v[5:6]", 0},
    {"v_mad_u64_u32 v[5:6], null, v7, v6, v[6:7]", 0},
    {"v_add_f64 %P, %Q, %R", F_FLOAT | F_FP},
    {"v_cmp_gt_u32_e32 vcc_lo, %X, %B", F_LIT | F_BOTH},
    {"v_cmp_lt_f32_e32 vcc_lo, %X, %B", F_LIT | F_FLOAT | F_BOTH},
    {"v_cmp_class_f32_e64 s20, %A, %X", F_BOTH},
    {"s_and_saveexec_b32 s22, vcc_lo", F_BOTH},
    {"s_mov_b32 exec_lo, s22", F_BOTH},
    {"v_dual_mov_b32 %e, %0 :: v_dual_mov_b32 %o, %1", F_BOTH},
    {"v_dual_mul_f32 %e, %0, %2 :: v_dual_add_f32 %o, %1, %3", F_FP},
    {"v_dual_fmac_f32 %e, %K, %2 :: v_dual_mul_f32 %o, %1, %3", F_FP},
    {"v_dual_fmaak_f32 %e, %0, %2, 0x3a83126f :: v_dual_sub_f32 %o, %1, %3", F_FP},
    /* (v_dual_add_nc_u32, _lshlrev_b32 and _and_b32 are OPY-only) */
    {"v_dual_cndmask_b32 %e, %K, %2 :: v_dual_add_nc_u32 %o, %1, %3", 0},
    {"v_dual_mov_b32 %e, %K :: v_dual_lshlrev_b32 %o, %1, %3", 0},
    {"v_dual_cndmask_b32 %e, %0, %2 :: v_dual_and_b32 %o, %1, %3", 0},
};
enum { NFORMS_W32 = sizeof forms_w32 / sizeof forms_w32[0] };

static uint64_t rs; /* the generator's state */
static unsigned rnd(unsigned n) { return (unsigned)(xorshift64(&rs) >> 16) % n; }

static int fprog; /* the program being generated is a float program */
static int f32nan(uint32_t v) { return (v & 0x7fffffffu) > 0x7f800000u; }
/* A 32-bit value from the edges of every kind the ops read, NaNs with payloads included (f32:
 * quiet and signalling, both signs; f16 in either half): where two NaNs meet, both tiers return
 * the hardware's one (docs/architecture.md, "NaN results"), so float programs draw them too.
 * (Before that rule the tiers returned whichever NaN the host instruction named first, and
 * float programs had to start NaN-free.) */
static uint32_t edge_value(void) {
    static const uint32_t edges[] = {
        0,          0x80000000, 0x3f800000, 0xbf800000, 0x7f800000, 0xff800000, 0xffc00000,
        0x00000001, 0x807fffff, 0x7f7fffff, 0x00800000, 0xffffffff, 0x7fffffff, 0x3c003c00,
        0x7c00fc00, 0x0001fe00, 0xfe000000, 0x0000ffff, 31,         32,         0x40490fdb,
        0x7fc12345, 0xffd54321, 0x7f812345, 0xff800f01, 0x7e017d02, 0xfc014003,
    };
    unsigned k = rnd(3);
    if (k == 0)
        return edges[rnd(sizeof edges / sizeof edges[0])];
    if (k == 1) /* a moderate float of either sign */
        return (rnd(2) << 31) | (0x3c000000u + rnd(0x4000000u)) | rnd(0x800000u);
    return (uint32_t)xorshift64(&rs);
}

/* One 32-bit source of a form: VGPR, SGPR (at most one scalar per instruction, the gfx9 constant
 * bus), inline constant or, in e32 forms, a literal. */
static void src_text(char *o, size_t n, unsigned flags, int *sgpr_used, int pos) {
    static const char *const fconst[] = {"0.5", "-0.5", "1.0", "-1.0", "2.0", "-4.0", "0"};
    unsigned k = rnd(10);
    if (k < 5 || (pos > 0 && k < 7)) {
        snprintf(o, n, "v%u", rnd(16));
    } else if (k < 7 && !*sgpr_used && !(flags & F_NOSGPR)) {
        *sgpr_used = 1;
        snprintf(o, n, "s%u", rnd(8));
    } else if (k < 9 || !(flags & F_LIT) || pos > 0) {
        if (flags & F_FLOAT && rnd(2))
            snprintf(o, n, "%s", fconst[rnd(sizeof fconst / sizeof fconst[0])]);
        else
            snprintf(o, n, "%d", (int)rnd(81) - 16); /* (-16..-1: f32 NaNs) */
    } else {
        snprintf(o, n, "0x%x", edge_value());
    }
}

/* The text of one instruction of form f. */
static void gen(char *out, size_t n, const form *f) {
    int sgpr = 0, pos = 0, is_vop3 = strstr(f->text, "_e32") == NULL;
    char *o = out, *end = out + n;
    for (const char *p = f->text; *p && o < end - 24; p++) {
        if (*p != '%') {
            *o++ = *p;
            continue;
        }
        char t[32];
        switch (*++p) {
        case 'D': snprintf(t, sizeof t, "v%u", rnd(16)); break;
        case 'A':
        case 'B':
        case 'C': snprintf(t, sizeof t, "v%u", rnd(16)); break;
        case 'e': snprintf(t, sizeof t, "v%u", 2 * rnd(8)); break;
        case 'o': snprintf(t, sizeof t, "v%u", 2 * rnd(8) + 1); break;
        case '0':
        case '1':
        case '2':
        case '3': snprintf(t, sizeof t, "v%u", 4 * rnd(4) + (unsigned)(*p - '0')); break;
        case 'K': /* a VOPD src0 that is no VGPR: no bank to clash */
            if (rnd(3) == 0)
                snprintf(t, sizeof t, "s%u", rnd(8));
            else if (rnd(2))
                snprintf(t, sizeof t, "0x%x", edge_value());
            else
                snprintf(t, sizeof t, "%d", (int)rnd(65));
            break;
        case 'P':
        case 'Q':
        case 'R': {
            unsigned r = 2 * rnd(8);
            snprintf(t, sizeof t, "v[%u:%u]", r, r + 1);
            break;
        }
        case 'W': {
            static const char *const pconst[] = {"0.5", "-2.0", "1.0", "0", "1", "64"};
            unsigned k = rnd(4);
            if (k == 0 && !sgpr) {
                unsigned r = 2 * rnd(4);
                sgpr = 1;
                snprintf(t, sizeof t, "s[%u:%u]", r, r + 1);
            } else if (k == 1) {
                snprintf(t, sizeof t, "%s", pconst[rnd(sizeof pconst / sizeof pconst[0])]);
            } else {
                unsigned r = 2 * rnd(8);
                snprintf(t, sizeof t, "v[%u:%u]", r, r + 1);
            }
            break;
        }
        default: /* X, Y, Z */
            /* (no neg/abs: they turn the host's default NaN, negative, into a positive one,
             * a second NaN; instructions with modifiers run the general handler in both tiers) */
            src_text(t, sizeof t, f->flags, &sgpr, pos++);
            break;
        }
        o += snprintf(o, (size_t)(end - o), "%s", t);
    }
    *o = 0;
    if (is_vop3 && (f->flags & F_CLAMP) && rnd(4) == 0)
        o += snprintf(o, (size_t)(end - o), " clamp");
    if (is_vop3 && (f->flags & F_OMOD) && rnd(5) == 0)
        snprintf(o, (size_t)(end - o), rnd(2) ? " mul:2" : " div:2");
}

enum { BUF = 16384, SCRATCH_LANE = 64 };
static gmem *mem;
static uint64_t buf;
static uint8_t lds[256];
static uint8_t scratch[2][64 * SCRATCH_LANE];
static wave start, ran[2];
static uint8_t membuf[2][BUF];

/* The starting state of one program. */
static void make_start(uint8_t *mem0) {
    memset(&start, 0, sizeof start);
    for (unsigned r = 0; r < 64; r++)
        for (unsigned l = 0; l < 64; l++)
            start.v[r][l] = edge_value();
    for (unsigned r = 0; r < 16; r++)
        for (unsigned l = 0; l < 64; l++)
            start.a[r][l] = edge_value();
    for (unsigned r = 0; r < 8; r++)
        start.s[r] = edge_value();
    static const uint32_t perm_mul[] = {1, 7, 13, 29};
    unsigned pm = perm_mul[rnd(4)];
    for (unsigned l = 0; l < 64; l++) {
        uint64_t a = buf + 16 * l, b = buf + 4 * ((l * pm) & 63);
        start.v[40][l] = (uint32_t)a, start.v[41][l] = (uint32_t)(a >> 32);
        start.v[42][l] = (uint32_t)b, start.v[43][l] = (uint32_t)(b >> 32);
        start.v[44][l] = rnd(2) ? 4 * l : 4 * rnd(64);
        start.v[45][l] = 8 * rnd(7);
    }
    /* v46: one offset, or lanes over 2 or 4 dwords; sometimes a lane out of range (the fast
     * paths then leave the access to the general one, which faults); v22: any dword */
    unsigned spread = rnd(3), v46 = 4 * rnd(4);
    for (unsigned l = 0; l < 64; l++) {
        start.v[46][l] = spread == 0 ? v46 : v46 + 4 * rnd(spread == 1 ? 2 : 4);
        start.v[22][l] = 4 * rnd(16);
    }
    if (rnd(8) == 0)
        start.v[46][rnd(64)] = rnd(2) ? SCRATCH_LANE : 2;
    for (unsigned l = 0; l < 64; l++) {
        start.v[20][l] = start.v[46][l];
        start.v[21][l] = (uint32_t)(GMEM_PRIVATE_APERTURE >> 32);
    }
    if (rnd(8) == 0) { /* one lane's FLAT address global, in the buffer */
        unsigned l = rnd(64);
        start.v[20][l] = (uint32_t)(buf + 4 * l), start.v[21][l] = (uint32_t)((buf + 4 * l) >> 32);
    }
    start.s[8] = (uint32_t)buf, start.s[9] = (uint32_t)(buf >> 32);
    /* the V#'s num_records: the buffer, or 128 or 130 bytes, past which lanes read zeros and
     * drop their stores (wholly: the fast path; partly, at 128: the general one) */
    static const uint32_t nums[] = {BUF, BUF, 128, 130};
    snippet_set_rsrc(&start, 12, buf, 0, nums[rnd(4)], 0x00027000);
    static const uint64_t execs[] = {
        ~0ull, ~0ull, ~0ull, 0x00000000ffffffffull, 0x8000000000000001ull, 0x5555aaaa0f0f00ffull};
    /* wave32: EXEC_HI is 0 (rdna.c) */
    static const uint64_t execs32[] = {0xffffffffull, 0xffffffffull, 0xffffffffull,
                                       0x0000ffffull, 0x80000001ull, 0x0f0f00ffull};
    const uint64_t *ex = lanes == 32 ? execs32 : execs;
    unsigned e = rnd(sizeof execs / sizeof execs[0] + 1);
    uint64_t em = lanes == 32 ? 0xffffffffull : ~0ull;
    wave_set_exec(&start, e < sizeof execs / sizeof execs[0] ? ex[e] : xorshift64(&rs) & em);
    start.s[ISA_SREG_VCC_LO] = (uint32_t)xorshift64(&rs);
    start.s[ISA_SREG_VCC_HI] = (uint32_t)xorshift64(&rs);
    /* denormals kept (clang's default), f32 flushed, or everything flushed */
    static const uint32_t modes[] = {0x3f0, 0x3f0, 0x3c0, 0x300};
    start.mode = modes[rnd(4)];
    for (unsigned i = 0; i < BUF; i += 4) {
        uint32_t v = edge_value();
        memcpy(mem0 + i, &v, 4);
    }
}

/* Run p (built for tier t) from the starting state; the wave, memory and scratch it leaves. */
static void run_tier(int t, const char *text, const uint8_t *mem0, uint8_t *scr0) {
    snippet_prog sp = {0};
    x_set_fast_tier(t);
    int ok = snippet_prog_load_waves(&sp, arch, text, lanes) == 0;
    x_set_fast_tier(1);
    CHECK(ok, "tier %d: does not assemble or build:\n%s", t, text);
    wave *w = &ran[t];
    *w = start;
    memset(lds, 0, sizeof lds);
    memcpy(scratch[t], scr0, sizeof scratch[t]);
    gmem_write(mem, buf, mem0, BUF);
    if (!ok) {
        memset(membuf[t], 0, BUF);
        return;
    }
    w->mem = mem;
    w->lds = lds;
    w->lds_size = sizeof lds;
    w->scratch = scratch[t];
    w->scratch_lane = SCRATCH_LANE;
    w->prog = &sp.prog;
    w->budget = 10000;
    w->status = WAVE_RUNNING;
    wave_run(w);
    w->prog = NULL;
    gmem_read(mem, buf, membuf[t], BUF);
    snippet_prog_free(&sp);
}

/* Every register word bit for bit, MFMA results too (a NaN result is the default NaN on every
 * tier: docs/mfma.md).  The MFMA destinations (AGPRs, v48-v63: no other form reads them, and
 * only v_accvgpr_read writes one, v60) that the program set to a NaN are counted, to show that
 * the programs make some: an MFMA's A/B operands are f16/bf16/fp8 lanes of v0..v15, which hold NaN
 * codes. */
static unsigned nan_words;
static int same_word(const uint32_t (*x)[LANES], const uint32_t (*y)[LANES],
                     const uint32_t (*x0)[LANES], unsigned r, unsigned l, int mfma_dst) {
    uint32_t a = x[r][l], b = y[r][l];
    nan_words += (unsigned)(mfma_dst && a == b && f32nan(a) && a != x0[r][l]); /* (written) */
    return a == b;
}

/* A wave32 wave's lanes 32-63 are no state of the program: compared are lanes 0..lanes-1. */
static int same_waves(const wave *a, const wave *b, char *why, size_t n) {
    for (unsigned r = 0; r < NVREG; r++)
        for (unsigned l = 0; l < lanes; l++)
            if (!same_word(a->v, b->v, start.v, r, l, r >= 48 && r < 64)) {
                snprintf(why, n, "v%u lane %u: fast 0x%08x, reference 0x%08x", r, l, a->v[r][l],
                         b->v[r][l]);
                return 0;
            }
    for (unsigned r = 0; r < NVREG; r++)
        for (unsigned l = 0; l < lanes; l++)
            if (!same_word(a->a, b->a, start.a, r, l, 1)) {
                snprintf(why, n, "a%u lane %u: fast 0x%08x, reference 0x%08x", r, l, a->a[r][l],
                         b->a[r][l]);
                return 0;
            }
    for (unsigned r = 0; r < NSREG; r++)
        if (a->s[r] != b->s[r]) {
            snprintf(why, n, "s[%u]: fast 0x%08x, reference 0x%08x", r, a->s[r], b->s[r]);
            return 0;
        }
    if (a->scc != b->scc || a->status != b->status || a->pc != b->pc ||
        a->fault.kind != b->fault.kind || a->fault.pc != b->fault.pc ||
        a->fault.addr != b->fault.addr) {
        snprintf(why, n, "scc %u/%u status %d/%d pc %u/%u fault %d/%d at %u/%u", a->scc, b->scc,
                 a->status, b->status, a->pc, b->pc, a->fault.kind, b->fault.kind, a->fault.pc,
                 b->fault.pc);
        return 0;
    }
    return 1;
}

/* nprog random programs of the forms in tab[0..ntab) for arch in waves of `lanes` lanes, each
 * run on both tiers and compared. */
static void run_programs(const char *a, unsigned nl, const form *tab, unsigned ntab, unsigned nprog,
                         unsigned keep) {
    arch = a;
    lanes = nl;
    static uint8_t mem0[BUF], scr0[64 * SCRATCH_LANE];
    static char text[16384];
    unsigned *used = calloc(ntab, sizeof *used), differ = 0, faulted = 0;
    nan_words = 0;
    for (unsigned p = 0; p < nprog; p++) {
        uint64_t seed = rs;
        fprog = (int)rnd(2); /* drawn from the seed: GFXEMU_TIERS_SEED=seed N=1 repeats it */
        unsigned f64prog = fprog && rnd(4) == 0 ? F_F64 : 0;
        make_start(mem0);
        for (unsigned i = 0; i < sizeof scr0; i += 4) {
            uint32_t v = edge_value();
            memcpy(scr0 + i, &v, 4);
        }
        size_t at = 0;
        unsigned len = 8 + rnd(24);
        for (unsigned i = 0; i < len; i++) {
            unsigned f = rnd(ntab);
            while (!(tab[f].flags & F_BOTH) && (!(tab[f].flags & F_FP) != !fprog ||
                                                (fprog && (tab[f].flags & F_F64) != f64prog)))
                f = rnd(ntab);
            used[f]++;
            char line[256];
            gen(line, sizeof line, &tab[f]);
            at += (size_t)snprintf(text + at, sizeof text - at, "%s\n", line);
        }
        text[at ? at - 1 : 0] = 0;
        if (keep) { /* GFXEMU_TIERS_KEEP=k: the first k instructions only (to find the first
                     * that differs) */
            char *q = text;
            for (unsigned i = 0; i < keep && q; i++)
                q = strchr(q + 1, '\n');
            if (q)
                *q = 0;
        }
        run_tier(1, text, mem0, scr0);
        run_tier(0, text, mem0, scr0);
        char why[160];
        int same = same_waves(&ran[1], &ran[0], why, sizeof why);
        if (same && memcmp(membuf[1], membuf[0], BUF)) {
            unsigned i = 0;
            while (membuf[1][i] == membuf[0][i])
                i++;
            snprintf(why, sizeof why, "global memory byte %u: fast 0x%02x, reference 0x%02x", i,
                     membuf[1][i], membuf[0][i]);
            same = 0;
        }
        if (same && memcmp(scratch[1], scratch[0], sizeof scratch[0])) {
            snprintf(why, sizeof why, "scratch differs");
            same = 0;
        }
        faulted += ran[0].status != WAVE_DONE;
        differ += !same;
        CHECK(same, "%s wave%u program %u (seed 0x%llx, EXEC 0x%016llx, MODE 0x%x): %s\n%s", arch,
              lanes, p, (unsigned long long)seed,
              (unsigned long long)(start.s[ISA_SREG_EXEC_LO] | (uint64_t)start.s[ISA_SREG_EXEC_HI]
                                                                   << 32),
              start.mode, why, text);
    }
    /* every form was drawn (a form the generator never reaches tests nothing) */
    for (unsigned f = 0; f < ntab && nprog >= 100; f++)
        CHECK(used[f] > 0, "form never generated: %s", tab[f].text);
    free(used);
    printf("test_tiers: %s wave%u: %u programs, %u differ, %u ended in a fault (both tiers "
           "alike), %u register words of MFMA results NaN (the same in both tiers)\n",
           arch, lanes, nprog, differ, faulted, nan_words);
}

int main(void) {
    const char *e = getenv("GFXEMU_TIERS_SEED");
    rs = e && *e ? strtoull(e, NULL, 0) : 0x7165727331ull;
    if (!rs)
        rs = 1;
    e = getenv("GFXEMU_TIERS_N");
    unsigned nprog = e && *e ? (unsigned)strtoul(e, NULL, 0) : 400;
    e = getenv("GFXEMU_TIERS_KEEP");
    unsigned keep = e && *e ? (unsigned)strtoul(e, NULL, 0) : 0;
    /* GFXEMU_TIERS_W32=1: the wave32 programs only (with the seed a failure names) */
    e = getenv("GFXEMU_TIERS_W32");
    int only_w32 = e && *e == '1';
    mem = gmem_create();
    buf = mem ? gmem_alloc(mem, BUF, 0) : 0;
    if (!buf) {
        printf("FAIL: no global memory\n");
        return 1;
    }
    if (!only_w32)
        run_programs("gfx950", 64, forms, NFORMS, nprog, keep);
    run_programs("gfx1100", 32, forms_w32, NFORMS_W32, nprog, keep);
    gmem_destroy(mem);
    return check_summary("test_tiers");
}
