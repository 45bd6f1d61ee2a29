/* rdna.c - what of an RDNA program (gfx1100 RDNA3, gfx1201 RDNA4) executes, and how.
 *
 * RDNA decodes into the same isa_inst records and op ids as CDNA, and many ops mean the same
 * thing on both, but not all: V_CMPX writes EXEC only, wave32 lane masks are one SGPR, M0 and
 * NULL swap encodings, DPP16/DPP8 have other controls, true16 operands name VGPR halves.  So an
 * RDNA program does not run whatever handler an op id has: only the ops listed in rdna_rows[]
 * below run, each after its handler was checked against the RDNA3/RDNA4 ISA manuals'
 * pseudocode (and tested: tests/exec/test_rdna.c, tests/kernels/test_rdna_kernels.c).  Every
 * other op decodes, prints, and stops the wave as an unimplemented instruction by name and pc.
 *
 * A row says one of:
 *   RUN(op)         the op's own handler (a row in the family files) is right for RDNA;
 *   AS(op, twin)    the op is CDNA's `twin` under its RDNA name (v_add_nc_u32 is v_add_u32,
 *                   global_load_b32 is global_load_dword, ...): twin's handler runs;
 *   OWN(op, t, fn)  an RDNA-only op with its handler here (split wait counters, s_delay_alu,
 *                   32-bit saveexec, VOPD, gfx12 barriers, ...);
 * and rdna_w32[] overrides a few for wave32, where the manual gives a 32-lane meaning.  The
 * *16 forms (RUN16, AS16, OWN16; rdna.h) also take gfx11 true16 operands (VGPR halves), which
 * exec.c folds into op_sel.  RDNA-only ALU handlers and their rows are in rdna_alu.c.
 *
 * Wave32 keeps the engine's 64-lane register file: lanes 32-63 are never active (s[127] stays 0:
 * a wave32 program's EXEC_HI lives in another slot, see x_rdna_exec_hi32()), so every handler's
 * lane loop, EXEC test and memory access is already right for 32 lanes.  What differs is only the
 * width of lane masks, which xprog_build() resolves into the xinst (XI_MASK32: vmask_write() writes
 * one SGPR, VCC_LO and not VCC_HI), and the ops that name a lane or test VCC (rdna_w32[]).  Nothing
 * of this is seen by a CDNA program: its xinsts have no XI_RDNA, XI_MASK32 or XI_DPP8 bit and its
 * handler table is unchanged.
 *
 * Register numbering (RDNA3/RDNA4 ISA "Scalar operands"): s0-s105, vcc 106-107, ttmp 108-123,
 * NULL 124, M0 125, exec 126-127; the engine's scalar file is indexed by CDNA's encodings, where
 * M0 is 124 and 125 is the slot x_sd32()/vmask_write() discard.  rdna_remap() swaps 124 and 125
 * in an RDNA instruction's scalar operands once, at xprog_build() time, so M0 reads and writes
 * land in the file's M0 and NULL reads the never-written slot 125 (0) and drops writes; an
 * absent FLAT saddr ("off", NULL) becomes no operand.  xinst_print() undoes it for text. */
#include "exec/rdna.h"
#include "exec/valu.h"

#include "exec/xatomic.h"

#include <string.h>

/* ---- RDNA-only handlers -------------------------------------------------------------------- */

static void r_nop(wave *w, const xinst *x) { (void)w, (void)x; }

/* s_*_saveexec_b32 (RDNA3 ISA SOP1): D = EXEC_LO; EXEC_LO = f(S0, EXEC_LO); SCC = EXEC_LO != 0.
 * The wave32 forms: EXEC_HI is not touched (it stays 0). */
#define SAVEEXEC32(name, expr)                                                                     \
    static void name(wave *w, const xinst *x) {                                                    \
        u32 s0 = x_s32(w, x, 0), ex = w->s[ISA_SREG_EXEC_LO];                                      \
        u32 ne = (expr);                                                                           \
        w->s[ISA_SREG_EXEC_LO] = ne;                                                               \
        w->scc = ne != 0;                                                                          \
        x_sd32(w, x, ex);                                                                          \
    }
SAVEEXEC32(s_and_saveexec_b32, s0 &ex)
SAVEEXEC32(s_or_saveexec_b32, s0 | ex)
SAVEEXEC32(s_xor_saveexec_b32, s0 ^ ex)
SAVEEXEC32(s_and_not1_saveexec_b32, s0 & ~ex)
SAVEEXEC32(s_or_not1_saveexec_b32, s0 | ~ex)
SAVEEXEC32(s_nand_saveexec_b32, ~(s0 &ex))
SAVEEXEC32(s_nor_saveexec_b32, ~(s0 | ex))
SAVEEXEC32(s_xnor_saveexec_b32, ~(s0 ^ ex))
SAVEEXEC32(s_and_not0_saveexec_b32, ~s0 &ex)
SAVEEXEC32(s_or_not0_saveexec_b32, ~s0 | ex)

/* s_and_not0/not1_wrexec_b32 (RDNA3 ISA SOP1): EXEC_LO = f(S0, EXEC_LO); D = the new EXEC_LO;
 * SCC = EXEC_LO != 0. */
static void s_and_not0_wrexec_b32(wave *w, const xinst *x) {
    u32 ne = ~x_s32(w, x, 0) & w->s[ISA_SREG_EXEC_LO];
    w->s[ISA_SREG_EXEC_LO] = ne;
    w->scc = ne != 0;
    x_sd32(w, x, ne);
}
static void s_and_not1_wrexec_b32(wave *w, const xinst *x) {
    u32 ne = x_s32(w, x, 0) & ~w->s[ISA_SREG_EXEC_LO];
    w->s[ISA_SREG_EXEC_LO] = ne;
    w->scc = ne != 0;
    x_sd32(w, x, ne);
}

/* s_add_nc_u64 / s_sub_nc_u64 (gfx12 SOP2): 64-bit add and subtract that leave SCC alone. */
static void s_add_nc_u64(wave *w, const xinst *x) { x_sd64(w, x, x_s64(w, x, 0) + x_s64(w, x, 1)); }
static void s_sub_nc_u64(wave *w, const xinst *x) { x_sd64(w, x, x_s64(w, x, 0) - x_s64(w, x, 1)); }

/* gfx12 split barrier (RDNA4 ISA "Barriers"): s_barrier_signal -1 arrives at the workgroup
 * barrier, s_barrier_wait -1 waits for it to complete.  The engine's barrier is one step (the
 * wave stops at the signal until every wave of the workgroup arrived), which orders the same
 * way for code that signals and then waits, as clang emits it.  Named barriers (other ids)
 * are not modelled. */
static void s_barrier_signal(wave *w, const xinst *x) {
    if (x_s32(w, x, 0) != 0xffffffffu) { /* SOP1: the barrier id is SSRC0 */
        wave_fault(w, x, XF_UNIMPLEMENTED);
        w->fault.note = "named barriers (an id other than -1) are not modelled";
        return;
    }
    w->status = WAVE_BARRIER;
}
static void s_barrier_wait(wave *w, const xinst *x) {
    if ((int16_t)x->in.w[0] != -1) { /* SOPP: the barrier id is SIMM16 */
        wave_fault(w, x, XF_UNIMPLEMENTED);
        w->fault.note = "named barriers (an id other than -1) are not modelled";
    }
}

/* V_MOVRELS/MOVRELD/MOVRELSD_B32 (RDNA3 ISA VOP1): the source and/or destination VGPR index is
 * offset by M0 (the same for every lane).  An index past v255 is refused with a note rather
 * than reading or writing outside the register file. */
static u32 *movrel_row_off(wave *w, const xinst *x, const isa_opnd *o, u32 off) {
    unsigned i = o->idx + off;
    if (o->kind != ISA_OPND_VGPR || i < o->idx || i > 255) {
        wave_fault(w, x, XF_UNIMPLEMENTED);
        w->fault.note = "M0-relative VGPR index past v255";
        return NULL;
    }
    return w->v[i];
}
static u32 *movrel_row(wave *w, const xinst *x, const isa_opnd *o) {
    return movrel_row_off(w, x, o, w->s[ISA_SREG_M0]);
}
static void movrel(wave *w, const xinst *x, int rel_src, int rel_dst) {
    u32 t[LANES], s[LANES];
    const u32 *S = rel_src ? movrel_row(w, x, &x->in.src[0]) : vs32(w, x, 0, t, FK_RAW);
    u32 *D = rel_dst ? movrel_row(w, x, &x->in.dst[0]) : vdreg(w, &x->in.dst[0]);
    if (!S || !D)
        return;
    memcpy(s, S, sizeof s);
    vstore(D, s, wave_exec(w));
}
static void v_movrels_b32(wave *w, const xinst *x) { movrel(w, x, 1, 0); }
static void v_movreld_b32(wave *w, const xinst *x) { movrel(w, x, 0, 1); }
static void v_movrelsd_b32(wave *w, const xinst *x) { movrel(w, x, 1, 1); }
/* V_MOVRELSD_2_B32 / V_SWAPREL_B32 (RDNA3 ISA VOP1): the source index is offset by M0[9:0], the
 * destination index by M0[25:16]; swaprel exchanges the two registers in each active lane. */
static void rel2(wave *w, const xinst *x, int swap) {
    u32 m0 = w->s[ISA_SREG_M0];
    u32 *S = movrel_row_off(w, x, &x->in.src[0], m0 & 0x3ff);
    u32 *D = S ? movrel_row_off(w, x, &x->in.dst[0], (m0 >> 16) & 0x3ff) : NULL;
    if (!D)
        return;
    u64 e = wave_exec(w);
    for (unsigned l = 0; l < LANES; l++)
        if ((e >> l) & 1) {
            u32 t = D[l];
            D[l] = S[l];
            if (swap)
                S[l] = t;
        }
}
static void v_movrelsd_2_b32(wave *w, const xinst *x) { rel2(w, x, 0); }
static void v_swaprel_b32(wave *w, const xinst *x) { rel2(w, x, 1); }

/* gfx12 sub-dword scalar loads (RDNA4 ISA S_LOAD_U8/I8/U16/I16): one byte or halfword at
 * SBASE + offset (+ SOFFSET), zero- or sign-extended into one SGPR. */
static void s_load_sub(wave *w, const xinst *x, unsigned size, int sign) {
    const isa_scalar_fields *f = &x->in.f.s;
    u64 a = x_s64(w, x, 1) + (u64)(int64_t)f->offset;
    if (f->has_soffset)
        a += x_s32(w, x, 2);
    const void *p = x_gmem(w, x, a, size, 0, -1);
    if (!p) {
        wave_mem_fault(w, x, a, size, 0);
        return;
    }
    u32 v = 0;
    x_shared_load(&v, p, size); /* global memory: see xatomic.h */
    if (sign)
        v = size == 1 ? (u32)(int32_t)(int8_t)v : (u32)(int32_t)(int16_t)v;
    x_sd32(w, x, v);
}
static void s_load_u8(wave *w, const xinst *x) { s_load_sub(w, x, 1, 0); }
static void s_load_i8(wave *w, const xinst *x) { s_load_sub(w, x, 1, 1); }
static void s_load_u16(wave *w, const xinst *x) { s_load_sub(w, x, 2, 0); }
static void s_load_i16(wave *w, const xinst *x) { s_load_sub(w, x, 2, 1); }

/* Scalar buffer loads (RDNA3/RDNA4 ISA S_BUFFER_LOAD_*): SBASE names a buffer resource (V#) in
 * four SGPRs, base [47:0], NUM_RECORDS [95:64] (bytes, the scalar unit's stride-0 view).  The
 * offset is the instruction's signed immediate + SOFFSET, taken modulo 2^32 as a byte offset into
 * the buffer; dword loads ignore its low two bits (scalar memory is dword-addressed).  Range
 * checking is per dword (per byte/halfword for gfx12's sub-dword forms): a piece past NUM_RECORDS
 * reads 0 and is not fetched.  size 4 loads as many dwords as the destination has. */
static void s_buffer_load_sz(wave *w, const xinst *x, unsigned size, int sign) {
    const isa_scalar_fields *f = &x->in.f.s;
    const u32 *rs = &w->s[x->in.src[1].idx];
    u64 base = rs[0] | (u64)(rs[1] & 0xffff) << 32;
    u32 num = rs[2], off = f->has_imm ? (u32)f->offset : 0;
    if (f->has_soffset)
        off += x_s32(w, x, 2);
    unsigned n = size == 4 ? x->in.dst[0].n : 1;
    if (size == 4)
        off &= ~3u;
    u32 tmp[16] = {0};
    for (unsigned i = 0; i < n; i++) {
        u64 o = (u64)off + (u64)size * i;
        if (o + size > num)
            continue;
        const void *p = x_gmem(w, x, base + o, size, 0, -1);
        if (!p) {
            wave_mem_fault(w, x, base + o, size, 0);
            return;
        }
        x_shared_load(&tmp[i], p, size); /* global memory: see xatomic.h */
    }
    if (sign)
        tmp[0] = size == 1 ? (u32)(int32_t)(int8_t)tmp[0] : (u32)(int32_t)(int16_t)tmp[0];
    memcpy(&w->s[x->in.dst[0].idx], tmp, 4ull * n);
}
static void s_buffer_load_b(wave *w, const xinst *x) { s_buffer_load_sz(w, x, 4, 0); }
static void s_buffer_load_u8(wave *w, const xinst *x) { s_buffer_load_sz(w, x, 1, 0); }
static void s_buffer_load_i8(wave *w, const xinst *x) { s_buffer_load_sz(w, x, 1, 1); }
static void s_buffer_load_u16(wave *w, const xinst *x) { s_buffer_load_sz(w, x, 2, 0); }
static void s_buffer_load_i16(wave *w, const xinst *x) { s_buffer_load_sz(w, x, 2, 1); }

/* gfx11 true16 (RDNA3 ISA "16-bit VGPRs"): a 16-bit operand names the low or high half of a VGPR
 * (v5.l / v5.h; the decoder marks it ISA_HALF_L/H, folded into op_sel), and a 16-bit result
 * replaces only its half, keeping the other.  The ops below read their sources through the
 * VALU framework (vs32 with FK_I16: the half op_sel names, after the DPP16/DPP8 lane
 * permutation of src0) and write with vd16 (the destination half, under EXEC and the DPP write
 * mask), so their DPP forms run too (tests/exec/test_valu_forms.c). */
VFN static void v_mov_b16(wave *w, const xinst *x) {
    u32 t0[LANES], d[LANES];
    const u32 *A = vs32(w, x, 0, t0, FK_I16);
    VLOOP(l) d[l] = A[l] & 0xffff;
    vd16(w, x, d, FK_I16, 1);
}
#define T16OP2(name, expr)                                                                         \
    VFN static void name(wave *w, const xinst *x) {                                                \
        u32 t0[LANES], t1[LANES], d[LANES];                                                        \
        const u32 *A = vs32(w, x, 0, t0, FK_I16), *B = vs32(w, x, 1, t1, FK_I16);                  \
        VLOOP(l) {                                                                                 \
            u32 a = A[l] & 0xffff, b = B[l] & 0xffff;                                              \
            d[l] = (expr);                                                                         \
        }                                                                                          \
        vd16(w, x, d, FK_I16, 1);                                                                  \
    }
#define T16CMP(name, T, op, cmpx)                                                                  \
    static void name(wave *w, const xinst *x) {                                                    \
        u32 t0[LANES], t1[LANES];                                                                  \
        const u32 *A = vs32(w, x, 0, t0, FK_I16), *B = vs32(w, x, 1, t1, FK_I16);                  \
        u64 r = 0;                                                                                 \
        for (unsigned l = 0; l < LANES; l++)                                                       \
            r |= (u64)((T)A[l] op(T) B[l]) << l;                                                   \
        r &= vwmask(w, x);                                                                         \
        if (cmpx)                                                                                  \
            wave_set_exec(w, r);                                                                   \
        else                                                                                       \
            vmask_write(w, x, vcmp_dst(x), r);                                                     \
    }
#define T16CMPS(X)                                                                                 \
    X(v_cmp_eq_u16, v_cmpx_eq_u16, u16, ==)                                                        \
    X(v_cmp_ne_u16, v_cmpx_ne_u16, u16, !=)                                                        \
    X(v_cmp_lt_u16, v_cmpx_lt_u16, u16, <)                                                         \
    X(v_cmp_le_u16, v_cmpx_le_u16, u16, <=)                                                        \
    X(v_cmp_gt_u16, v_cmpx_gt_u16, u16, >)                                                         \
    X(v_cmp_ge_u16, v_cmpx_ge_u16, u16, >=)                                                        \
    X(v_cmp_eq_i16, v_cmpx_eq_i16, i16, ==)                                                        \
    X(v_cmp_ne_i16, v_cmpx_ne_i16, i16, !=)                                                        \
    X(v_cmp_lt_i16, v_cmpx_lt_i16, i16, <)                                                         \
    X(v_cmp_le_i16, v_cmpx_le_i16, i16, <=)                                                        \
    X(v_cmp_gt_i16, v_cmpx_gt_i16, i16, >)                                                         \
    X(v_cmp_ge_i16, v_cmpx_ge_i16, i16, >=)
#define T16CMP_DEF(cmp, cmpx, T, op) T16CMP(cmp, T, op, 0) T16CMP(cmpx, T, op, 1)
T16CMPS(T16CMP_DEF)

/* V_SWAP_B16 (RDNA3 ISA VOP1): the two 16-bit halves exchange, the other halves kept. */
static void v_swap_b16(wave *w, const xinst *x) {
    const isa_opnd *od = &x->in.dst[0], *os = &x->in.src[0];
    unsigned dsh = od->imm == ISA_HALF_H ? 16 : 0, ssh = os->imm == ISA_HALF_H ? 16 : 0;
    u32 *D = w->v[od->idx], *S = w->v[os->idx];
    u64 e = wave_exec(w);
    for (unsigned l = 0; l < LANES; l++)
        if ((e >> l) & 1) {
            u32 d = (D[l] >> dsh) & 0xffff, s = (S[l] >> ssh) & 0xffff;
            D[l] = (D[l] & ~(0xffffu << dsh)) | s << dsh;
            S[l] = (S[l] & ~(0xffffu << ssh)) | d << ssh;
        }
}

T16OP2(v_and_b16, a &b)
T16OP2(v_or_b16, a | b)
T16OP2(v_xor_b16, a ^ b)

/* Wave32 (RDNA3 ISA V_READLANE_B32 / V_WRITELANE_B32: the lane is S1[4:0] in wave32). */
static void r_readlane32(wave *w, const xinst *x) {
    u32 t[LANES];
    const u32 *a = vs32(w, x, 0, t, FK_RAW);
    x_sd32(w, x, a[x_s32(w, x, 1) & 31]);
}
static void r_writelane32(wave *w, const xinst *x) {
    vdreg(w, &x->in.dst[0])[x_s32(w, x, 1) & 31] = x_s32(w, x, 0);
}
/* S_CBRANCH_VCCZ / VCCNZ in wave32 test VCC_LO only. */
static void r_cbranch_vccz32(wave *w, const xinst *x) {
    if (w->s[ISA_SREG_VCC_LO] == 0)
        w->pc += (u32)((int32_t)(int16_t)(x->in.w[0] & 0xffff) * 4);
}
static void r_cbranch_vccnz32(wave *w, const xinst *x) {
    if (w->s[ISA_SREG_VCC_LO] != 0)
        w->pc += (u32)((int32_t)(int16_t)(x->in.w[0] & 0xffff) * 4);
}

/* EXEC_HI in wave32 (RDNA3 ISA 2.1 "The upper 32-bits of EXEC and VCC are ignored for wave32
 * waves", 3.2.2 "Wave32 waves use only bits 31:0 and hardware does not act upon the upper
 * bits"; RDNA4 ISA the same): EXEC_HI is still a register the program may write and read (s127,
 * or the high half of the 64-bit EXEC), but no lane follows it and EXECZ looks at EXEC_LO.  The
 * engine's lane loops take s[126..127] as one 64-bit mask, so a wave32 program keeps s[127] at 0
 * and EXEC_HI's value in the spare slot XS_EXEC_HI32: x_rdna_exec_hi32() renames a 32-bit
 * operand naming exec_hi to that slot at build time, and a scalar instruction with a 64-bit
 * operand covering EXEC_HI (s_mov_b64 exec, ...; s_and_saveexec_b64; s_load_b64 exec, ...)
 * runs through r_exec_hi32(), which puts the value into s[127] for the instruction (so the
 * manual's 64-bit pseudocode runs as written: SCC = EXEC != 0 sees both halves) and takes it
 * out again after.  The manual does not say what a wave32 read of EXEC_HI returns; this gives
 * back the value last written (0 at wave start).  A vector or memory instruction with a 64-bit
 * EXEC operand in wave32 would need lanes 32-63 gated off while s[127] holds it, and is refused
 * by name instead (r_exec_hi32_vec). */
static void r_exec_hi32(wave *w, const xinst *x) {
    w->s[ISA_SREG_EXEC_HI] = w->s[XS_EXEC_HI32];
    ((xfn)(uintptr_t)x->k[5])(w, x); /* the instruction's own handler (set below) */
    w->s[XS_EXEC_HI32] = w->s[ISA_SREG_EXEC_HI];
    w->s[ISA_SREG_EXEC_HI] = 0;
}
static void r_exec_hi32_vec(wave *w, const xinst *x) {
    wave_fault(w, x, XF_UNIMPLEMENTED);
    w->fault.note = "a 64-bit EXEC destination of a vector instruction in a wave32 program";
}
/* A vector instruction reading the 64-bit EXEC as a source in wave32 (v_lshlrev_b64 v[2:3], 0,
 * exec; v_cmp_eq_u64 vcc_lo, exec, v[2:3]): the source was renamed at build time to the pair
 * XS_EXEC64_W32, which gets {EXEC_LO, EXEC_HI} here, so the lanes (gated by EXEC_LO, s[127]
 * staying 0) read the value the program last wrote to both halves. */
static void r_exec64_src32(wave *w, const xinst *x) {
    w->s[XS_EXEC64_W32] = w->s[ISA_SREG_EXEC_LO];
    w->s[XS_EXEC64_W32 + 1] = w->s[XS_EXEC_HI32];
    ((xfn)(uintptr_t)x->k[5])(w, x);
}

static int covers_exec_hi(const isa_opnd *o) {
    unsigned n = o->n ? o->n : 1;
    return o->kind == ISA_OPND_SREG && o->idx <= ISA_SREG_EXEC_HI && o->idx + n > ISA_SREG_EXEC_HI;
}

/* The 64-bit ops that read and write EXEC without naming it (RDNA3 ISA SOP1 saveexec/wrexec). */
static int implicit_exec64(unsigned op) {
    static const uint16_t ops[] = {
        ISA_OPL_s_and_saveexec_b64,      ISA_OPL_s_or_saveexec_b64,
        ISA_OPL_s_xor_saveexec_b64,      ISA_OPL_s_nand_saveexec_b64,
        ISA_OPL_s_nor_saveexec_b64,      ISA_OPL_s_xnor_saveexec_b64,
        ISA_OPL_s_and_not0_saveexec_b64, ISA_OPL_s_and_not1_saveexec_b64,
        ISA_OPL_s_or_not0_saveexec_b64,  ISA_OPL_s_or_not1_saveexec_b64,
        ISA_OPL_s_and_not0_wrexec_b64,   ISA_OPL_s_and_not1_wrexec_b64,
    };
    for (size_t i = 0; i < sizeof ops / sizeof ops[0]; i++)
        if (ops[i] == op)
            return 1;
    return 0;
}

void x_rdna_exec_hi32(xinst *x) {
    isa_inst *in = &x->in;
    int wide = implicit_exec64(in->op), wide_dst = 0;
    for (unsigned i = 0; i < 8; i++) {
        isa_opnd *o = i < 2 ? &in->dst[i] : &in->src[i - 2];
        if (!covers_exec_hi(o))
            continue;
        if (o->idx == ISA_SREG_EXEC_HI) /* a 32-bit exec_hi: its own slot */
            o->idx = XS_EXEC_HI32;
        else
            wide = 1, wide_dst |= i < 2;
    }
    if (!wide)
        return;
    if (x->cls == XC_SALU || x->cls == XC_SMEM || x->cls == XC_BRANCH) {
        x->k[5] = (uint64_t)(uintptr_t)x->fn; /* scalar formats have at most 3 sources */
        x->fn = r_exec_hi32;
    } else if (!wide_dst && x->fn && in->fmt != ISA_FMT_VOPD && !(x->xf & XI_DPP8)) {
        /* a vector instruction reads the 64-bit EXEC: from the pair XS_EXEC64_W32 (k[5] holds
         * the handler: no format with such a source uses it but DPP8, refused here) */
        for (unsigned i = 0; i < 6; i++)
            if (covers_exec_hi(&in->src[i]))
                in->src[i].idx = (uint16_t)(XS_EXEC64_W32 + in->src[i].idx - ISA_SREG_EXEC_LO);
        x->k[5] = (uint64_t)(uintptr_t)x->fn;
        x->fn = r_exec64_src32;
    } else {
        x->fn = r_exec_hi32_vec;
    }
}

/* VOPD (RDNA3 ISA "VOPD"): two VALU ops issued together.  Both read their sources before either
 * writes ("the two instructions' sources are read before the results are written"); LLVM only
 * pairs ops whose destinations differ (different banks), so the one case to handle is Y
 * reading X's destination: it must see the old value.  x->k[0] points at the two halves
 * (xprog.subs), built by rdna_vopd(). */
void x_rdna_vopd(wave *w, const xinst *x) {
    const xinst *h = (const xinst *)(uintptr_t)x->k[0];
    h[0].fn(w, &h[0]);
    h[1].fn(w, &h[1]);
}
void x_rdna_vopd_rbw(wave *w, const xinst *x) {
    const xinst *h = (const xinst *)(uintptr_t)x->k[0];
    u32 *dx = w->v[h[0].in.dst[0].idx], old[LANES], nx[LANES];
    memcpy(old, dx, sizeof old);
    h[0].fn(w, &h[0]);
    memcpy(nx, dx, sizeof nx);
    memcpy(dx, old, sizeof old);
    h[1].fn(w, &h[1]);
    memcpy(dx, nx, sizeof nx);
}

/* ---- the allowlist ------------------------------------------------------------------------- */

/* clang-format off */
static const rdna_row rdna_rows[] = {
    /* SOP1/SOP2/SOPC/SOPK: same pseudocode as CDNA's (RDNA3/RDNA4 ISA "Scalar ALU"). */
    RUN(s_mov_b32), RUN(s_mov_b64), RUN(s_movk_i32), RUN(s_cmov_b32), RUN(s_cmov_b64),
    RUN(s_cselect_b32), RUN(s_cselect_b64),
    RUN(s_and_b32), RUN(s_and_b64), RUN(s_or_b32), RUN(s_or_b64), RUN(s_xor_b32), RUN(s_xor_b64),
    RUN(s_not_b32), RUN(s_not_b64),
    AS(s_and_not1_b32, s_andn2_b32), AS(s_and_not1_b64, s_andn2_b64),
    AS(s_or_not1_b32, s_orn2_b32), AS(s_or_not1_b64, s_orn2_b64),
    RUN(s_add_u32), RUN(s_addc_u32), RUN(s_sub_u32), RUN(s_subb_u32),
    RUN(s_add_i32), RUN(s_sub_i32),
    /* gfx12 names of the same ops */
    AS(s_add_co_u32, s_add_u32), AS(s_add_co_ci_u32, s_addc_u32),
    AS(s_sub_co_u32, s_sub_u32), AS(s_sub_co_ci_u32, s_subb_u32),
    AS(s_add_co_i32, s_add_i32), AS(s_sub_co_i32, s_sub_i32),
    OWN(s_add_nc_u64, ISA_T_B64, s_add_nc_u64), OWN(s_sub_nc_u64, ISA_T_B64, s_sub_nc_u64),
    RUN(s_mul_i32), RUN(s_mul_hi_u32), RUN(s_mul_hi_i32),
    RUN(s_lshl_b32), RUN(s_lshl_b64), RUN(s_lshr_b32), RUN(s_lshr_b64),
    RUN(s_ashr_i32), RUN(s_ashr_i64),
    RUN(s_lshl1_add_u32), RUN(s_lshl2_add_u32), RUN(s_lshl3_add_u32), RUN(s_lshl4_add_u32),
    RUN(s_min_i32), RUN(s_min_u32), RUN(s_max_i32), RUN(s_max_u32),
    RUN(s_bfe_u32), RUN(s_bfe_i32), RUN(s_bfm_b32),
    RUN(s_sext_i32_i8), RUN(s_sext_i32_i16),
    RUN(s_bitset0_b32), RUN(s_bitset1_b32),
    RUN(s_cmp_eq_u32), RUN(s_cmp_lg_u32), RUN(s_cmp_gt_u32), RUN(s_cmp_ge_u32), RUN(s_cmp_lt_u32),
    RUN(s_cmp_le_u32), RUN(s_cmp_eq_i32), RUN(s_cmp_lg_i32), RUN(s_cmp_gt_i32), RUN(s_cmp_ge_i32),
    RUN(s_cmp_lt_i32), RUN(s_cmp_le_i32), RUN(s_cmp_eq_u64), RUN(s_cmp_lg_u64),
    RUN(s_bitcmp0_b32), RUN(s_bitcmp1_b32), RUN(s_bitcmp0_b64), RUN(s_bitcmp1_b64),
    RUN(s_addk_i32), RUN(s_mulk_i32),
    RUN(s_cmpk_eq_i32), RUN(s_cmpk_lg_i32), RUN(s_cmpk_gt_i32), RUN(s_cmpk_ge_i32),
    RUN(s_cmpk_lt_i32), RUN(s_cmpk_le_i32), RUN(s_cmpk_eq_u32), RUN(s_cmpk_lg_u32),
    RUN(s_cmpk_gt_u32), RUN(s_cmpk_ge_u32), RUN(s_cmpk_lt_u32), RUN(s_cmpk_le_u32),
    /* bit scans under their RDNA names (-1 for no bit found, as CDNA's) */
    AS(s_ctz_i32_b32, s_ff1_i32_b32), AS(s_ctz_i32_b64, s_ff1_i32_b64),
    AS(s_clz_i32_u32, s_flbit_i32_b32), AS(s_clz_i32_u64, s_flbit_i32_b64),
    AS(s_cls_i32, s_flbit_i32), AS(s_cls_i32_i64, s_flbit_i32_i64),
    RUN(s_bcnt1_i32_b32), RUN(s_bcnt1_i32_b64), RUN(s_brev_b32),
    /* saveexec: the b64 forms are CDNA's (wave64), the b32 forms are RDNA's own */
    RUN(s_and_saveexec_b64), RUN(s_or_saveexec_b64), RUN(s_xor_saveexec_b64),
    AS(s_and_not1_saveexec_b64, s_andn2_saveexec_b64),
    AS(s_or_not1_saveexec_b64, s_orn2_saveexec_b64),
    RUN(s_nand_saveexec_b64), RUN(s_nor_saveexec_b64), RUN(s_xnor_saveexec_b64),
    AS(s_and_not0_saveexec_b64, s_andn1_saveexec_b64),
    AS(s_or_not0_saveexec_b64, s_orn1_saveexec_b64),
    AS(s_and_not0_wrexec_b64, s_andn1_wrexec_b64), AS(s_and_not1_wrexec_b64, s_andn2_wrexec_b64),
    OWN(s_and_not0_wrexec_b32, ISA_T_B32, s_and_not0_wrexec_b32),
    OWN(s_and_not1_wrexec_b32, ISA_T_B32, s_and_not1_wrexec_b32),
    OWN(s_and_saveexec_b32, ISA_T_B32, s_and_saveexec_b32),
    OWN(s_or_saveexec_b32, ISA_T_B32, s_or_saveexec_b32),
    OWN(s_xor_saveexec_b32, ISA_T_B32, s_xor_saveexec_b32),
    OWN(s_and_not1_saveexec_b32, ISA_T_B32, s_and_not1_saveexec_b32),
    OWN(s_or_not1_saveexec_b32, ISA_T_B32, s_or_not1_saveexec_b32),
    OWN(s_nand_saveexec_b32, ISA_T_B32, s_nand_saveexec_b32),
    OWN(s_nor_saveexec_b32, ISA_T_B32, s_nor_saveexec_b32),
    OWN(s_xnor_saveexec_b32, ISA_T_B32, s_xnor_saveexec_b32),
    OWN(s_and_not0_saveexec_b32, ISA_T_B32, s_and_not0_saveexec_b32),
    OWN(s_or_not0_saveexec_b32, ISA_T_B32, s_or_not0_saveexec_b32),
    /* SOPP and program flow */
    RUN(s_branch), RUN(s_cbranch_scc0), RUN(s_cbranch_scc1), RUN(s_cbranch_vccz),
    RUN(s_cbranch_vccnz), RUN(s_cbranch_execz), RUN(s_cbranch_execnz),
    RUN(s_getpc_b64), RUN(s_setpc_b64), RUN(s_swappc_b64),
    RUN(s_endpgm), RUN(s_nop), RUN(s_barrier), RUN(s_trap), RUN(s_sethalt), RUN(s_sleep),
    OWN(s_barrier_signal, ISA_T_B32, s_barrier_signal),
    OWN(s_barrier_wait, ISA_T_B32, s_barrier_wait),
    /* Scheduling hints and wait counters: instructions complete in order in the engine, so
     * waiting for a counter never has anything to wait for (RDNA3 "Data dependency resolution",
     * RDNA4 "Wait counters"). */
    RUN(s_waitcnt), OWN(s_waitcnt_vscnt, ISA_T_B32, r_nop), OWN(s_waitcnt_vmcnt, ISA_T_B32, r_nop),
    OWN(s_waitcnt_expcnt, ISA_T_B32, r_nop), OWN(s_waitcnt_lgkmcnt, ISA_T_B32, r_nop),
    OWN(s_waitcnt_depctr, ISA_T_B32, r_nop), OWN(s_delay_alu, ISA_T_B32, r_nop),
    OWN(s_clause, ISA_T_B32, r_nop), OWN(s_wait_alu, ISA_T_B32, r_nop),
    OWN(s_set_inst_prefetch_distance, ISA_T_B32, r_nop),
    OWN(s_wait_loadcnt, ISA_T_B32, r_nop), OWN(s_wait_storecnt, ISA_T_B32, r_nop),
    OWN(s_wait_samplecnt, ISA_T_B32, r_nop), OWN(s_wait_bvhcnt, ISA_T_B32, r_nop),
    OWN(s_wait_expcnt, ISA_T_B32, r_nop), OWN(s_wait_dscnt, ISA_T_B32, r_nop),
    OWN(s_wait_kmcnt, ISA_T_B32, r_nop), OWN(s_wait_loadcnt_dscnt, ISA_T_B32, r_nop),
    OWN(s_wait_storecnt_dscnt, ISA_T_B32, r_nop),
    /* S_WAIT_IDLE waits until the wave's outstanding work is done: with in-order completion
     * nothing is ever outstanding */
    OWN(s_wait_idle, ISA_T_B32, r_nop),
    /* V_PIPEFLUSH flushes the VALU pipeline: nothing is in flight between instructions here */
    OWN(v_pipeflush, ISA_T_B32, r_nop),
    /* SMEM */
    /* (the handler loads as many dwords as the destination has: b96 runs s_load_dword's) */
    AS(s_load_b32, s_load_dword), AS(s_load_b64, s_load_dwordx2), AS(s_load_b96, s_load_dword),
    AS(s_load_b128, s_load_dwordx4),
    OWN(s_load_u8, ISA_T_B32, s_load_u8), OWN(s_load_i8, ISA_T_B32, s_load_i8),
    OWN(s_load_u16, ISA_T_B32, s_load_u16), OWN(s_load_i16, ISA_T_B32, s_load_i16),
    AS(s_load_b256, s_load_dwordx8), AS(s_load_b512, s_load_dwordx16),
    OWN(s_buffer_load_b32, ISA_T_B32, s_buffer_load_b),
    OWN(s_buffer_load_b64, ISA_T_B32, s_buffer_load_b),
    OWN(s_buffer_load_b96, ISA_T_B32, s_buffer_load_b),
    OWN(s_buffer_load_b128, ISA_T_B32, s_buffer_load_b),
    OWN(s_buffer_load_b256, ISA_T_B32, s_buffer_load_b),
    OWN(s_buffer_load_b512, ISA_T_B32, s_buffer_load_b),
    OWN(s_buffer_load_u8, ISA_T_B32, s_buffer_load_u8),
    OWN(s_buffer_load_i8, ISA_T_B32, s_buffer_load_i8),
    OWN(s_buffer_load_u16, ISA_T_B32, s_buffer_load_u16),
    OWN(s_buffer_load_i16, ISA_T_B32, s_buffer_load_i16),
    /* VALU, 32-bit integer and f32 (VOP1/VOP2/VOP3 forms; DPP and true16 are refused at
     * build time) */
    RUN(v_mov_b32), RUN(v_cndmask_b32), RUN(v_readfirstlane_b32),
    OWN(v_movrels_b32, ISA_T_B32, v_movrels_b32), OWN(v_movreld_b32, ISA_T_B32, v_movreld_b32),
    OWN(v_movrelsd_b32, ISA_T_B32, v_movrelsd_b32),
    OWN(v_movrelsd_2_b32, ISA_T_B32, v_movrelsd_2_b32),
    OWN(v_swaprel_b32, ISA_T_B32, v_swaprel_b32),
    /* true16 (the only rows whose VGPR-half operands are accepted: rdna_t16[] below) */
    OWNV16(v_mov_b16, ISA_T_B16, v_mov_b16), OWNV16(v_and_b16, ISA_T_B16, v_and_b16),
    OWNV16(v_or_b16, ISA_T_B16, v_or_b16), OWNV16(v_xor_b16, ISA_T_B16, v_xor_b16),
    OWN16(v_swap_b16, ISA_T_B16, v_swap_b16),
#define T16CMP_ROW(cmp, cmpx, T, op) OWNV16(cmp, ISA_T_B16, cmp), OWNV16(cmpx, ISA_T_B16, cmpx),
    T16CMPS(T16CMP_ROW)
    RUN(v_readlane_b32), RUN(v_writelane_b32),
    AS(v_add_nc_u32, v_add_u32), AS(v_sub_nc_u32, v_sub_u32), AS(v_subrev_nc_u32, v_subrev_u32),
    RUN(v_add_co_u32), RUN(v_sub_co_u32), RUN(v_subrev_co_u32),
    AS(v_add_co_ci_u32, v_addc_co_u32), AS(v_sub_co_ci_u32, v_subb_co_u32),
    AS(v_subrev_co_ci_u32, v_subbrev_co_u32),
    RUN(v_mul_lo_u32), RUN(v_mul_hi_u32), RUN(v_mul_hi_i32), RUN(v_mul_u32_u24), RUN(v_mul_i32_i24),
    RUN(v_mad_u64_u32), RUN(v_mad_i64_i32),
    AS(v_mad_co_u64_u32, v_mad_u64_u32), AS(v_mad_co_i64_i32, v_mad_i64_i32),
    RUN(v_and_b32), RUN(v_or_b32), RUN(v_xor_b32), RUN(v_not_b32), RUN(v_bfe_u32), RUN(v_bfe_i32),
    RUN(v_lshlrev_b32), RUN(v_lshrrev_b32), RUN(v_ashrrev_i32),
    RUN(v_lshlrev_b64), RUN(v_lshrrev_b64), RUN(v_ashrrev_i64),
    RUN(v_lshl_add_u32), RUN(v_add_lshl_u32), RUN(v_lshl_or_b32), RUN(v_and_or_b32),
    RUN(v_or3_b32), RUN(v_xad_u32), RUN(v_add3_u32), RUN(v_alignbit_b32), RUN(v_alignbyte_b32),
    RUN(v_mbcnt_lo_u32_b32), RUN(v_mbcnt_hi_u32_b32),
    RUN(v_max_i32), RUN(v_min_i32), RUN(v_max_u32), RUN(v_min_u32),
    RUN(v_add_f32), RUN(v_sub_f32), RUN(v_subrev_f32), RUN(v_mul_f32), RUN(v_fma_f32),
    RUN(v_fmac_f32), RUN(v_fmamk_f32), RUN(v_fmaak_f32),
    RUN(v_trunc_f32), RUN(v_rcp_f32), RUN(v_rcp_iflag_f32),
    RUN(v_cvt_f32_u32), RUN(v_cvt_f32_i32), RUN(v_cvt_u32_f32), RUN(v_cvt_i32_f32),
    RUN(v_cvt_f64_f32), RUN(v_cvt_f32_f64), RUN(v_ldexp_f64), RUN(v_add_f64), RUN(v_mul_f64),
    RUN(v_fma_f64),
    /* ---- VALU, second slice: CDNA handlers whose pseudocode RDNA3/RDNA4 repeat -------------
     * (the RDNA names of renamed ops as AS rows; 16-bit forms as RUN16/AS16: their halves are
     * folded into op_sel, the result keeps the other half of its VGPR) */
    RUN(v_ldexp_f32), RUN(v_frexp_mant_f32), RUN(v_frexp_exp_i32_f32), RUN(v_frexp_mant_f64),
    RUN(v_frexp_exp_i32_f64), RUN(v_fract_f32), RUN(v_fract_f64),
    RUN(v_mul_hi_u32_u24), RUN(v_mul_hi_i32_i24), RUN(v_mad_u32_u24), RUN(v_mad_i32_i24),
    AS(v_clz_i32_u32, v_ffbh_u32), AS(v_ctz_i32_b32, v_ffbl_b32), AS(v_cls_i32, v_ffbh_i32),
    RUN(v_bcnt_u32_b32), RUN(v_bfrev_b32), RUN(v_bfi_b32), RUN(v_perm_b32), RUN(v_bfm_b32),
    RUN(v_sad_u8), RUN(v_sad_hi_u8), RUN(v_sad_u32),
    RUN(v_msad_u8), RUN(v_lerp_u8), RUN(v_cvt_pk_u8_f32),
    RUN(v_min3_i32), RUN(v_max3_i32), RUN(v_med3_i32), RUN(v_min3_u32), RUN(v_max3_u32),
    RUN(v_med3_u32),
    /* f32/f64 (gfx11 min/max follow MODE.IEEE as CDNA's; gfx12's _num forms: rdna_alu.c) */
    RUN(v_max_f32), RUN(v_min_f32), RUN(v_max3_f32), RUN(v_min3_f32), RUN(v_med3_f32),
    RUN(v_max_f64), RUN(v_min_f64), AS(v_mul_dx9_zero_f32, v_mul_legacy_f32),
    RUN(v_sqrt_f32), RUN(v_rsq_f32), RUN(v_exp_f32), RUN(v_log_f32), RUN(v_sin_f32),
    RUN(v_cos_f32), RUN(v_sqrt_f64), RUN(v_rsq_f64), RUN(v_rcp_f64),
    RUN(v_rndne_f32), RUN(v_floor_f32), RUN(v_ceil_f32), RUN(v_trunc_f64), RUN(v_floor_f64),
    RUN(v_ceil_f64), RUN(v_rndne_f64),
    RUN(v_div_scale_f32), RUN(v_div_scale_f64), RUN(v_div_fmas_f32), RUN(v_div_fmas_f64),
    RUN(v_div_fixup_f32), RUN(v_div_fixup_f64), RUN(v_cubeid_f32), RUN(v_cubesc_f32),
    RUN(v_cubetc_f32), RUN(v_cubema_f32), RUN(v_trig_preop_f64),
    RUN(v_cvt_u32_f64), RUN(v_cvt_i32_f64), RUN(v_cvt_f64_u32), RUN(v_cvt_f64_i32),
    RUN(v_cvt_f32_ubyte0), RUN(v_cvt_f32_ubyte1), RUN(v_cvt_f32_ubyte2), RUN(v_cvt_f32_ubyte3),
    AS(v_cvt_floor_i32_f32, v_cvt_flr_i32_f32), AS(v_cvt_nearest_i32_f32, v_cvt_rpi_i32_f32),
    RUN(v_cvt_off_f32_i4), RUN(v_cvt_pk_u16_u32), RUN(v_cvt_pk_i16_i32),
    AS(v_cvt_pk_norm_i16_f32, v_cvt_pknorm_i16_f32), AS(v_cvt_pk_norm_u16_f32, v_cvt_pknorm_u16_f32),
    /* gfx12 fp8/bf8 (OCP, as gfx950; no clamp bit; byte_sel: valu_cvt.c) */
    RUN(v_cvt_f32_fp8), RUN(v_cvt_f32_bf8), RUN(v_cvt_pk_f32_fp8), RUN(v_cvt_pk_f32_bf8),
    RUN(v_cvt_pk_fp8_f32), RUN(v_cvt_pk_bf8_f32), RUN(v_cvt_sr_fp8_f32), RUN(v_cvt_sr_bf8_f32),
    /* f16 and 16-bit integer (gfx11 true16, gfx12 fake16) */
    RUN16(v_cvt_f16_f32), RUN16(v_cvt_f32_f16), AS16(v_cvt_pk_rtz_f16_f32, v_cvt_pkrtz_f16_f32),
    RUN16(v_pack_b32_f16), RUN16(v_cvt_i16_f16), RUN16(v_cvt_u16_f16), RUN16(v_cvt_f16_i16),
    RUN16(v_cvt_f16_u16), RUN16(v_cvt_norm_i16_f16), RUN16(v_cvt_norm_u16_f16),
    RUN16(v_add_f16), RUN16(v_sub_f16), RUN16(v_subrev_f16), RUN16(v_mul_f16), RUN16(v_fma_f16),
    RUN16(v_max_f16), RUN16(v_min_f16), RUN16(v_max3_f16), RUN16(v_min3_f16), RUN16(v_med3_f16),
    RUN16(v_ldexp_f16), RUN16(v_div_fixup_f16),
    RUN16(v_sqrt_f16), RUN16(v_rsq_f16), RUN16(v_rcp_f16), RUN16(v_exp_f16), RUN16(v_log_f16),
    RUN16(v_sin_f16), RUN16(v_cos_f16), RUN16(v_floor_f16), RUN16(v_ceil_f16), RUN16(v_trunc_f16),
    RUN16(v_rndne_f16), RUN16(v_fract_f16), RUN16(v_frexp_mant_f16), RUN16(v_frexp_exp_i16_f16),
    AS16(v_add_nc_u16, v_add_u16), AS16(v_sub_nc_u16, v_sub_u16), AS16(v_add_nc_i16, v_add_i16),
    AS16(v_sub_nc_i16, v_sub_i16), RUN16(v_mul_lo_u16), RUN16(v_lshlrev_b16),
    RUN16(v_lshrrev_b16), RUN16(v_ashrrev_i16), RUN16(v_max_u16), RUN16(v_min_u16),
    RUN16(v_max_i16), RUN16(v_min_i16), RUN16(v_mad_u16), RUN16(v_mad_i16), RUN16(v_min3_u16),
    RUN16(v_max3_u16), RUN16(v_med3_u16), RUN16(v_min3_i16), RUN16(v_max3_i16), RUN16(v_med3_i16),
    RUN16(v_mad_u32_u16), RUN16(v_mad_i32_i16),
    /* (v_alignbit/alignbyte: gfx11 names the shift a 16-bit operand, .l or .h; their rows
     * are in rdna_mem.c and replace the RUN rows above) */
    /* VOPC: every f32/f64/f16 predicate and the remaining integer ones (v_cmpx write EXEC);
     * gfx11's always-true predicate (opcode 0x0f of each type) is V_CMP_T_*, as LLVM 22 names
     * it, and runs the handler of CDNA's V_CMP_TRU_* (gfx12 has none) */
#define CMPF(t) RUN(v_cmp_f_##t), RUN(v_cmp_lg_##t), RUN(v_cmp_nge_##t), RUN(v_cmp_nlg_##t), \
        RUN(v_cmp_nle_##t), AS(v_cmp_t_##t, v_cmp_tru_##t), RUN(v_cmp_class_##t), \
        RUN(v_cmpx_f_##t), RUN(v_cmpx_lt_##t), RUN(v_cmpx_eq_##t), RUN(v_cmpx_le_##t), \
        RUN(v_cmpx_gt_##t), RUN(v_cmpx_lg_##t), RUN(v_cmpx_ge_##t), RUN(v_cmpx_o_##t), \
        RUN(v_cmpx_u_##t), RUN(v_cmpx_nge_##t), RUN(v_cmpx_nlg_##t), RUN(v_cmpx_ngt_##t), \
        RUN(v_cmpx_nle_##t), RUN(v_cmpx_neq_##t), RUN(v_cmpx_nlt_##t), AS(v_cmpx_t_##t, v_cmpx_tru_##t), \
        RUN(v_cmpx_class_##t)
    CMPF(f32), RUN(v_cmp_f_f64), RUN(v_cmp_lg_f64), RUN(v_cmp_nlg_f64), AS(v_cmp_t_f64, v_cmp_tru_f64),
    RUN(v_cmp_class_f64), RUN(v_cmpx_f_f64), RUN(v_cmpx_eq_f64), RUN(v_cmpx_le_f64),
    RUN(v_cmpx_lg_f64), RUN(v_cmpx_ge_f64), RUN(v_cmpx_o_f64), RUN(v_cmpx_u_f64),
    RUN(v_cmpx_nlg_f64), RUN(v_cmpx_ngt_f64), RUN(v_cmpx_neq_f64), RUN(v_cmpx_nlt_f64),
    AS(v_cmpx_t_f64, v_cmpx_tru_f64), RUN(v_cmpx_class_f64),
#define CMP16F(p) RUN16(v_cmp_##p##_f16), RUN16(v_cmpx_##p##_f16)
    CMP16F(f), CMP16F(lt), CMP16F(eq), CMP16F(le), CMP16F(gt), CMP16F(lg), CMP16F(ge),
    CMP16F(o), CMP16F(u), CMP16F(nge), CMP16F(nlg), CMP16F(ngt), CMP16F(nle), CMP16F(neq),
    CMP16F(nlt), AS16(v_cmp_t_f16, v_cmp_tru_f16), AS16(v_cmpx_t_f16, v_cmpx_tru_f16), CMP16F(class),
    RUN(v_cmp_le_u64), RUN(v_cmp_ge_u64), RUN(v_cmp_le_i64), RUN(v_cmp_ge_i64),
    RUN(v_cmp_eq_i64), RUN(v_cmp_ne_i64),
    RUN(v_cmpx_lt_u64), RUN(v_cmpx_le_u64), RUN(v_cmpx_gt_u64), RUN(v_cmpx_ge_u64),
    RUN(v_cmpx_eq_i64), RUN(v_cmpx_ne_i64), RUN(v_cmpx_lt_i64), RUN(v_cmpx_le_i64),
    RUN(v_cmpx_gt_i64), RUN(v_cmpx_ge_i64), RUN(v_cmpx_le_i32), RUN(v_cmpx_ge_i32),
    /* SALU, second slice */
    RUN(s_abs_i32), RUN(s_absdiff_i32), RUN(s_brev_b64), RUN(s_bcnt0_i32_b32),
    RUN(s_bcnt0_i32_b64), RUN(s_bitset0_b64), RUN(s_bitset1_b64), RUN(s_bfe_u64), RUN(s_bfe_i64),
    RUN(s_bfm_b64), RUN(s_nand_b32), RUN(s_nand_b64), RUN(s_nor_b32), RUN(s_nor_b64),
    RUN(s_xnor_b32), RUN(s_xnor_b64), RUN(s_cmp_lg_u64), RUN(s_cmp_eq_u64),
    AS(s_addk_co_i32, s_addk_i32), RUN(s_pack_ll_b32_b16), RUN(s_pack_lh_b32_b16),
    RUN(s_pack_hh_b32_b16), RUN(s_getreg_b32), RUN(s_setreg_b32), RUN(s_setreg_imm32_b32),
    RUN(s_setprio), RUN(s_icache_inv), RUN(s_dcache_inv),
    RUN(s_ttracedata), RUN(s_cselect_b64), RUN(s_cmov_b64), RUN(s_wqm_b32), RUN(s_wqm_b64),
    RUN(s_quadmask_b32), RUN(s_quadmask_b64),
    /* ---- third slice (issue 15's survey of what still faulted): CDNA handlers whose
     * pseudocode the RDNA3/RDNA4 manuals repeat ---- */
    RUN(s_cmovk_i32), RUN(s_bitreplicate_b64_b32), RUN(s_call_b64),
    RUN(s_movrels_b32), RUN(s_movrels_b64), RUN(s_movreld_b32), RUN(s_movreld_b64),
    /* V_ADD_NC_I32 / V_SUB_NC_I32: gfx9's VOP3 v_add_i32 / v_sub_i32 (clamp saturates signed) */
    AS(v_add_nc_i32, v_add_i32), AS(v_sub_nc_i32, v_sub_i32),
    RUN(v_xnor_b32), RUN(v_swap_b32), RUN(v_nop),
    /* V_SAD_U16: S2 plus the absolute differences of both u16 halves, as CDNA3's */
    RUN(v_sad_u16), RUN(v_qsad_pk_u16_u8), RUN(v_mqsad_pk_u16_u8), RUN(v_mqsad_u32_u8),
    RUN(v_pk_fmac_f16),
    AS16(v_cvt_pk_norm_i16_f16, v_cvt_pknorm_i16_f16),
    AS16(v_cvt_pk_norm_u16_f16, v_cvt_pknorm_u16_f16), RUN16(v_sat_pk_u8_i16),
    /* DS: more of gfx9's under their RDNA names (RDNA3 ISA "LDS"; DS_CMPSTORE_* take their
     * operands in the other order than DS_CMPST_*, so they are not here) */
    AS(ds_store_b8, ds_write_b8), AS(ds_store_b16, ds_write_b16), AS(ds_store_b96, ds_write_b96),
    AS(ds_store_b128, ds_write_b128), AS(ds_store_2addr_b64, ds_write2_b64),
    AS(ds_store_2addr_stride64_b64, ds_write2st64_b64),
    AS(ds_store_b8_d16_hi, ds_write_b8_d16_hi), AS(ds_store_b16_d16_hi, ds_write_b16_d16_hi),
    AS(ds_load_u8, ds_read_u8), AS(ds_load_i8, ds_read_i8), AS(ds_load_u16, ds_read_u16),
    AS(ds_load_i16, ds_read_i16), AS(ds_load_b96, ds_read_b96), AS(ds_load_b128, ds_read_b128),
    AS(ds_load_2addr_b64, ds_read2_b64), AS(ds_load_2addr_stride64_b64, ds_read2st64_b64),
    AS(ds_load_u8_d16, ds_read_u8_d16), AS(ds_load_u8_d16_hi, ds_read_u8_d16_hi),
    AS(ds_load_i8_d16, ds_read_i8_d16), AS(ds_load_i8_d16_hi, ds_read_i8_d16_hi),
    AS(ds_load_u16_d16, ds_read_u16_d16), AS(ds_load_u16_d16_hi, ds_read_u16_d16_hi),
    RUN(ds_sub_u32), RUN(ds_rsub_u32), RUN(ds_inc_u32), RUN(ds_dec_u32), RUN(ds_min_i32),
    RUN(ds_max_i32), RUN(ds_min_u32), RUN(ds_max_u32), RUN(ds_and_b32), RUN(ds_or_b32),
    RUN(ds_xor_b32), RUN(ds_add_f32), RUN(ds_min_f32), RUN(ds_max_f32),
    RUN(ds_sub_rtn_u32), RUN(ds_rsub_rtn_u32), RUN(ds_inc_rtn_u32), RUN(ds_dec_rtn_u32),
    RUN(ds_min_rtn_i32), RUN(ds_max_rtn_i32), RUN(ds_min_rtn_u32), RUN(ds_max_rtn_u32),
    RUN(ds_and_rtn_b32), RUN(ds_or_rtn_b32), RUN(ds_xor_rtn_b32), RUN(ds_add_rtn_f32),
    RUN(ds_min_rtn_f32), RUN(ds_max_rtn_f32),
    AS(ds_storexchg_rtn_b32, ds_wrxchg_rtn_b32), AS(ds_storexchg_rtn_b64, ds_wrxchg_rtn_b64),
    RUN(ds_add_u64), RUN(ds_sub_u64), RUN(ds_min_i64), RUN(ds_max_i64), RUN(ds_min_u64),
    RUN(ds_max_u64), RUN(ds_and_b64), RUN(ds_or_b64), RUN(ds_xor_b64), RUN(ds_inc_u64),
    RUN(ds_dec_u64), RUN(ds_add_rtn_u64), RUN(ds_sub_rtn_u64), RUN(ds_min_rtn_i64),
    RUN(ds_max_rtn_i64), RUN(ds_min_rtn_u64), RUN(ds_max_rtn_u64), RUN(ds_and_rtn_b64),
    RUN(ds_or_rtn_b64), RUN(ds_xor_rtn_b64), RUN(ds_inc_rtn_u64), RUN(ds_dec_rtn_u64),
    RUN(ds_swizzle_b32), RUN(ds_permute_b32), RUN(ds_bpermute_b32),
    /* VOPC: compares write VCC (e32) or the SGPR(s) of the e64 form; the RDNA V_CMPX forms name
     * exec_lo as their only destination (src/isa/vop_rdna.c), which is what they write */
    RUN(v_cmp_eq_u32), RUN(v_cmp_ne_u32), RUN(v_cmp_lt_u32), RUN(v_cmp_le_u32),
    RUN(v_cmp_gt_u32), RUN(v_cmp_ge_u32),
    RUN(v_cmp_eq_i32), RUN(v_cmp_ne_i32), RUN(v_cmp_lt_i32), RUN(v_cmp_le_i32),
    RUN(v_cmp_gt_i32), RUN(v_cmp_ge_i32),
    RUN(v_cmp_eq_u64), RUN(v_cmp_ne_u64), RUN(v_cmp_lt_u64), RUN(v_cmp_gt_u64),
    RUN(v_cmp_lt_i64), RUN(v_cmp_gt_i64),
    /* gfx11's constant integer predicates (RDNA3 ISA VOPC V_CMP_F_I32 = 0, V_CMP_T_I32 = 1 for
     * every active lane; gfx12 has neither): the same as CDNA's */
    RUN(v_cmp_f_i32), RUN(v_cmp_t_i32), RUN(v_cmp_f_u32), RUN(v_cmp_t_u32),
    RUN(v_cmp_f_i64), RUN(v_cmp_t_i64), RUN(v_cmp_f_u64), RUN(v_cmp_t_u64),
    RUN(v_cmpx_f_i32), RUN(v_cmpx_t_i32), RUN(v_cmpx_f_u32), RUN(v_cmpx_t_u32),
    RUN(v_cmpx_f_i64), RUN(v_cmpx_t_i64), RUN(v_cmpx_f_u64), RUN(v_cmpx_t_u64),
    RUN(v_cmp_lt_f32), RUN(v_cmp_eq_f32), RUN(v_cmp_le_f32), RUN(v_cmp_gt_f32),
    RUN(v_cmp_ge_f32), RUN(v_cmp_neq_f32), RUN(v_cmp_nlt_f32), RUN(v_cmp_ngt_f32),
    RUN(v_cmp_u_f32), RUN(v_cmp_o_f32),
    RUN(v_cmp_lt_f64), RUN(v_cmp_eq_f64), RUN(v_cmp_le_f64), RUN(v_cmp_gt_f64),
    RUN(v_cmp_ge_f64), RUN(v_cmp_neq_f64), RUN(v_cmp_nlt_f64), RUN(v_cmp_ngt_f64),
    RUN(v_cmp_nle_f64), RUN(v_cmp_nge_f64), RUN(v_cmp_u_f64), RUN(v_cmp_o_f64),
    RUN(v_cmpx_lt_f64), RUN(v_cmpx_gt_f64), RUN(v_cmpx_nle_f64), RUN(v_cmpx_nge_f64),
    RUN(v_cmpx_eq_u32), RUN(v_cmpx_ne_u32), RUN(v_cmpx_lt_u32), RUN(v_cmpx_le_u32),
    RUN(v_cmpx_gt_u32), RUN(v_cmpx_ge_u32),
    RUN(v_cmpx_eq_i32), RUN(v_cmpx_ne_i32), RUN(v_cmpx_lt_i32), RUN(v_cmpx_gt_i32),
    RUN(v_cmpx_eq_u64), RUN(v_cmpx_ne_u64),
    /* VOPD: both halves, read before write */
    OWN(v_dual_mov_b32, ISA_T_B32, x_rdna_vopd), OWN(v_dual_cndmask_b32, ISA_T_B32, x_rdna_vopd),
    OWN(v_dual_add_f32, ISA_T_B32, x_rdna_vopd), OWN(v_dual_sub_f32, ISA_T_B32, x_rdna_vopd),
    OWN(v_dual_subrev_f32, ISA_T_B32, x_rdna_vopd), OWN(v_dual_mul_f32, ISA_T_B32, x_rdna_vopd),
    OWN(v_dual_fmac_f32, ISA_T_B32, x_rdna_vopd), OWN(v_dual_fmaak_f32, ISA_T_B32, x_rdna_vopd),
    OWN(v_dual_fmamk_f32, ISA_T_B32, x_rdna_vopd), OWN(v_dual_add_nc_u32, ISA_T_B32, x_rdna_vopd),
    OWN(v_dual_lshlrev_b32, ISA_T_B32, x_rdna_vopd), OWN(v_dual_and_b32, ISA_T_B32, x_rdna_vopd),
    OWN(v_dual_max_f32, ISA_T_B32, x_rdna_vopd), OWN(v_dual_min_f32, ISA_T_B32, x_rdna_vopd),
    OWN(v_dual_max_num_f32, ISA_T_B32, x_rdna_vopd), OWN(v_dual_min_num_f32, ISA_T_B32, x_rdna_vopd),
    OWN(v_dual_mul_dx9_zero_f32, ISA_T_B32, x_rdna_vopd),
    OWN(v_dual_dot2acc_f32_f16, ISA_T_B32, x_rdna_vopd),
    /* DS (RDNA3 ISA "LDS"): gfx9's ds_read/ds_write under their RDNA names */
    AS(ds_store_b32, ds_write_b32), AS(ds_store_b64, ds_write_b64),
    AS(ds_store_2addr_b32, ds_write2_b32), AS(ds_store_2addr_stride64_b32, ds_write2st64_b32),
    AS(ds_load_b32, ds_read_b32), AS(ds_load_b64, ds_read_b64),
    AS(ds_load_2addr_b32, ds_read2_b32), AS(ds_load_2addr_stride64_b32, ds_read2st64_b32),
    RUN(ds_add_u32), RUN(ds_add_rtn_u32),
    /* FLAT/GLOBAL/SCRATCH: gfx9's dword forms under their RDNA names; the address rules are the
     * same (the decoder gives RDNA's fields in the same slots, rdna_remap() drops saddr off) */
    AS(flat_load_b32, flat_load_dword), AS(flat_load_b64, flat_load_dwordx2),
    AS(flat_load_b96, flat_load_dwordx3), AS(flat_load_b128, flat_load_dwordx4),
    AS(flat_store_b32, flat_store_dword), AS(flat_store_b64, flat_store_dwordx2),
    AS(flat_store_b96, flat_store_dwordx3), AS(flat_store_b128, flat_store_dwordx4),
    AS(global_load_b32, global_load_dword), AS(global_load_b64, global_load_dwordx2),
    AS(global_load_b96, global_load_dwordx3), AS(global_load_b128, global_load_dwordx4),
    AS(global_store_b32, global_store_dword), AS(global_store_b64, global_store_dwordx2),
    AS(global_store_b96, global_store_dwordx3), AS(global_store_b128, global_store_dwordx4),
    AS(scratch_load_b32, scratch_load_dword), AS(scratch_load_b64, scratch_load_dwordx2),
    AS(scratch_load_b96, scratch_load_dwordx3), AS(scratch_load_b128, scratch_load_dwordx4),
    AS(scratch_store_b32, scratch_store_dword), AS(scratch_store_b64, scratch_store_dwordx2),
    AS(scratch_store_b96, scratch_store_dwordx3), AS(scratch_store_b128, scratch_store_dwordx4),
    AS(global_atomic_add_u32, global_atomic_add), AS(flat_atomic_add_u32, flat_atomic_add),
    /* the sub-dword, d16 and atomic forms under their RDNA names (RDNA3 ISA "FLAT, global and
     * scratch": the same data and address rules as CDNA's) */
    AS(global_load_u8, global_load_ubyte), AS(global_load_i8, global_load_sbyte),
    AS(global_load_u16, global_load_ushort), AS(global_load_i16, global_load_sshort),
    AS(global_store_b8, global_store_byte), AS(global_store_b16, global_store_short),
    AS(global_load_d16_b16, global_load_short_d16), AS(global_load_d16_u8, global_load_ubyte_d16),
    AS(global_load_d16_i8, global_load_sbyte_d16),
    AS(global_load_d16_hi_b16, global_load_short_d16_hi),
    AS(global_load_d16_hi_u8, global_load_ubyte_d16_hi),
    AS(global_load_d16_hi_i8, global_load_sbyte_d16_hi),
    AS(global_store_d16_hi_b16, global_store_short_d16_hi),
    AS(global_store_d16_hi_b8, global_store_byte_d16_hi), AS(flat_load_u8, flat_load_ubyte),
    AS(flat_load_i8, flat_load_sbyte), AS(flat_load_u16, flat_load_ushort),
    AS(flat_load_i16, flat_load_sshort), AS(flat_store_b8, flat_store_byte),
    AS(flat_store_b16, flat_store_short), AS(flat_load_d16_b16, flat_load_short_d16),
    AS(flat_load_d16_u8, flat_load_ubyte_d16), AS(flat_load_d16_i8, flat_load_sbyte_d16),
    AS(flat_load_d16_hi_b16, flat_load_short_d16_hi),
    AS(flat_load_d16_hi_u8, flat_load_ubyte_d16_hi),
    AS(flat_load_d16_hi_i8, flat_load_sbyte_d16_hi),
    AS(flat_store_d16_hi_b16, flat_store_short_d16_hi),
    AS(flat_store_d16_hi_b8, flat_store_byte_d16_hi), AS(scratch_load_u8, scratch_load_ubyte),
    AS(scratch_load_i8, scratch_load_sbyte), AS(scratch_load_u16, scratch_load_ushort),
    AS(scratch_load_i16, scratch_load_sshort), AS(scratch_store_b8, scratch_store_byte),
    AS(scratch_store_b16, scratch_store_short), AS(scratch_load_d16_b16, scratch_load_short_d16),
    AS(scratch_load_d16_u8, scratch_load_ubyte_d16),
    AS(scratch_load_d16_i8, scratch_load_sbyte_d16),
    AS(scratch_load_d16_hi_b16, scratch_load_short_d16_hi),
    AS(scratch_load_d16_hi_u8, scratch_load_ubyte_d16_hi),
    AS(scratch_load_d16_hi_i8, scratch_load_sbyte_d16_hi),
    AS(scratch_store_d16_hi_b16, scratch_store_short_d16_hi),
    AS(scratch_store_d16_hi_b8, scratch_store_byte_d16_hi),
    AS(global_atomic_swap_b32, global_atomic_swap),
    AS(global_atomic_cmpswap_b32, global_atomic_cmpswap),
    AS(global_atomic_sub_u32, global_atomic_sub), AS(global_atomic_min_i32, global_atomic_smin),
    AS(global_atomic_max_i32, global_atomic_smax), AS(global_atomic_min_u32, global_atomic_umin),
    AS(global_atomic_max_u32, global_atomic_umax), AS(global_atomic_and_b32, global_atomic_and),
    AS(global_atomic_or_b32, global_atomic_or), AS(global_atomic_xor_b32, global_atomic_xor),
    AS(global_atomic_inc_u32, global_atomic_inc), AS(global_atomic_dec_u32, global_atomic_dec),
    AS(global_atomic_swap_b64, global_atomic_swap_x2),
    AS(global_atomic_cmpswap_b64, global_atomic_cmpswap_x2),
    AS(global_atomic_add_u64, global_atomic_add_x2),
    AS(global_atomic_sub_u64, global_atomic_sub_x2),
    AS(global_atomic_min_i64, global_atomic_smin_x2),
    AS(global_atomic_max_i64, global_atomic_smax_x2),
    AS(global_atomic_min_u64, global_atomic_umin_x2),
    AS(global_atomic_max_u64, global_atomic_umax_x2),
    AS(global_atomic_and_b64, global_atomic_and_x2), AS(global_atomic_or_b64, global_atomic_or_x2),
    AS(global_atomic_xor_b64, global_atomic_xor_x2),
    AS(global_atomic_inc_u64, global_atomic_inc_x2),
    AS(global_atomic_dec_u64, global_atomic_dec_x2), AS(flat_atomic_swap_b32, flat_atomic_swap),
    AS(flat_atomic_cmpswap_b32, flat_atomic_cmpswap), AS(flat_atomic_sub_u32, flat_atomic_sub),
    AS(flat_atomic_min_i32, flat_atomic_smin), AS(flat_atomic_max_i32, flat_atomic_smax),
    AS(flat_atomic_min_u32, flat_atomic_umin), AS(flat_atomic_max_u32, flat_atomic_umax),
    AS(flat_atomic_and_b32, flat_atomic_and), AS(flat_atomic_or_b32, flat_atomic_or),
    AS(flat_atomic_xor_b32, flat_atomic_xor), AS(flat_atomic_inc_u32, flat_atomic_inc),
    AS(flat_atomic_dec_u32, flat_atomic_dec), AS(flat_atomic_swap_b64, flat_atomic_swap_x2),
    AS(flat_atomic_cmpswap_b64, flat_atomic_cmpswap_x2),
    AS(flat_atomic_add_u64, flat_atomic_add_x2), AS(flat_atomic_sub_u64, flat_atomic_sub_x2),
    AS(flat_atomic_min_i64, flat_atomic_smin_x2), AS(flat_atomic_max_i64, flat_atomic_smax_x2),
    AS(flat_atomic_min_u64, flat_atomic_umin_x2), AS(flat_atomic_max_u64, flat_atomic_umax_x2),
    AS(flat_atomic_and_b64, flat_atomic_and_x2), AS(flat_atomic_or_b64, flat_atomic_or_x2),
    AS(flat_atomic_xor_b64, flat_atomic_xor_x2), AS(flat_atomic_inc_u64, flat_atomic_inc_x2),
    AS(flat_atomic_dec_u64, flat_atomic_dec_x2),
    RUN(global_atomic_add_f32), RUN(flat_atomic_add_f32),
    /* cache invalidation: no caches are modelled, memory is always coherent */
    OWN(buffer_gl0_inv, ISA_T_B32, r_nop), OWN(buffer_gl1_inv, ISA_T_B32, r_nop),
    OWN(global_inv, ISA_T_B32, r_nop), OWN(global_wb, ISA_T_B32, r_nop),
    /* the same for gfx11's scalar GL1 invalidate and gfx12's write-back-and-invalidate
     * (RDNA3 ISA S_GL1_INV, RDNA4 ISA GLOBAL_WBINV: they act on cache contents only), and the
     * gfx12 prefetches (RDNA4 ISA S_PREFETCH_*: they load nothing into registers and never
     * fault, so without caches they have nothing to do) */
    OWN(s_gl1_inv, ISA_T_B32, r_nop), OWN(global_wbinv, ISA_T_B32, r_nop),
    OWN(s_prefetch_inst, ISA_T_B32, r_nop), OWN(s_prefetch_inst_pc_rel, ISA_T_B32, r_nop),
    OWN(s_prefetch_data, ISA_T_B32, r_nop), OWN(s_prefetch_data_pc_rel, ISA_T_B32, r_nop),
    OWN(s_buffer_prefetch_data, ISA_T_B32, r_nop),
    /* VOP3P / WMMA: the dense WMMA ops of gfx11 and gfx12 (src/exec/wmma.c has the layouts of
     * both ISA manuals and both wave sizes) */
    OWN(v_wmma_f32_16x16x16_f16, ISA_T_F32, x_rdna_wmma),
    OWN(v_wmma_f32_16x16x16_bf16, ISA_T_F32, x_rdna_wmma),
    OWN(v_wmma_f16_16x16x16_f16, ISA_T_F32, x_rdna_wmma),
    OWN(v_wmma_bf16_16x16x16_bf16, ISA_T_F32, x_rdna_wmma),
    OWN(v_wmma_i32_16x16x16_iu8, ISA_T_B32, x_rdna_wmma),
    OWN(v_wmma_i32_16x16x16_iu4, ISA_T_B32, x_rdna_wmma),
    OWN(v_wmma_i32_16x16x32_iu4, ISA_T_B32, x_rdna_wmma),
    OWN(v_wmma_f32_16x16x16_fp8_fp8, ISA_T_F32, x_rdna_wmma),
    OWN(v_wmma_f32_16x16x16_fp8_bf8, ISA_T_F32, x_rdna_wmma),
    OWN(v_wmma_f32_16x16x16_bf8_fp8, ISA_T_F32, x_rdna_wmma),
    OWN(v_wmma_f32_16x16x16_bf8_bf8, ISA_T_F32, x_rdna_wmma),
    /* gfx12 SWMMAC: the same with a 4:2-sparse A and its index VGPR (wmma.c sparse_index) */
    OWN(v_swmmac_f32_16x16x32_f16, ISA_T_F32, x_rdna_wmma),
    OWN(v_swmmac_f32_16x16x32_bf16, ISA_T_F32, x_rdna_wmma),
    OWN(v_swmmac_f16_16x16x32_f16, ISA_T_F32, x_rdna_wmma),
    OWN(v_swmmac_bf16_16x16x32_bf16, ISA_T_F32, x_rdna_wmma),
    OWN(v_swmmac_i32_16x16x32_iu8, ISA_T_B32, x_rdna_wmma),
    OWN(v_swmmac_i32_16x16x32_iu4, ISA_T_B32, x_rdna_wmma),
    OWN(v_swmmac_i32_16x16x64_iu4, ISA_T_B32, x_rdna_wmma),
    OWN(v_swmmac_f32_16x16x32_fp8_fp8, ISA_T_F32, x_rdna_wmma),
    OWN(v_swmmac_f32_16x16x32_fp8_bf8, ISA_T_F32, x_rdna_wmma),
    OWN(v_swmmac_f32_16x16x32_bf8_fp8, ISA_T_F32, x_rdna_wmma),
    OWN(v_swmmac_f32_16x16x32_bf8_bf8, ISA_T_F32, x_rdna_wmma),
    /* packed 16-bit math: the same pseudocode as CDNA's (RDNA3/RDNA4 ISA "VOP3P": per-half
     * op_sel/op_sel_hi source selects, neg_lo/neg_hi, clamp), read from the same decoded fields */
    RUN(v_pk_add_f16), RUN(v_pk_mul_f16), RUN(v_pk_fma_f16),
    RUN(v_pk_add_u16), RUN(v_pk_sub_u16), RUN(v_pk_add_i16), RUN(v_pk_sub_i16),
    /* the other packed 16-bit ops of both targets (RDNA3/RDNA4 ISA VOP3P opcode tables): each
     * half alone, shift counts from bits 3:0 of each half of S0, min/max with >= / <, the
     * integer clamp saturating each half; gfx11's v_pk_min/max_f16 follow MODE.IEEE as
     * v_min/max_f16 do (gfx12's _num_ and IEEE minimum/maximum forms are in rdna_alu.c) */
    RUN(v_pk_mad_i16), RUN(v_pk_mad_u16), RUN(v_pk_mul_lo_u16),
    RUN(v_pk_lshlrev_b16), RUN(v_pk_lshrrev_b16), RUN(v_pk_ashrrev_i16),
    RUN(v_pk_max_i16), RUN(v_pk_min_i16), RUN(v_pk_max_u16), RUN(v_pk_min_u16),
    RUN(v_pk_max_f16), RUN(v_pk_min_f16),
    /* mixed precision: a source is S.f32 when op_sel_hi is 0, else the f16 half op_sel picks;
     * neg_hi is abs; D = fma(in0, in1, in2), f32 or one half of an f16 (the other kept) */
    RUN(v_fma_mix_f32), RUN(v_fma_mixlo_f16), RUN(v_fma_mixhi_f16),
    /* unsigned integer dots: the sum of the element products plus S2.u32 (clamp saturates);
     * the signed/float dots are in rdna_vop3p.c */
    RUN(v_dot4_u32_u8), RUN(v_dot8_u32_u4),
};

/* Wave32 meanings (RDNA3 ISA: lane selects are S1[4:0], VCCZ looks at VCC_LO). */
static const rdna_row rdna_w32[] = {
    OWN(v_readlane_b32, ISA_T_B32, r_readlane32),
    OWN(v_writelane_b32, ISA_T_B32, r_writelane32),
    OWN(s_cbranch_vccz, ISA_T_B32, r_cbranch_vccz32),
    OWN(s_cbranch_vccnz, ISA_T_B32, r_cbranch_vccnz32),
};
/* clang-format on */

/* VOPD halves: the VOP2/VOP1 op each v_dual_* op is (RDNA3 ISA "VOPD" opcode table). */
static const struct {
    uint16_t dual, op;
} vopd_ops[] = {
    {ISA_OPL_v_dual_mov_b32, ISA_OPL_v_mov_b32},
    {ISA_OPL_v_dual_cndmask_b32, ISA_OPL_v_cndmask_b32},
    {ISA_OPL_v_dual_add_f32, ISA_OPL_v_add_f32},
    {ISA_OPL_v_dual_sub_f32, ISA_OPL_v_sub_f32},
    {ISA_OPL_v_dual_subrev_f32, ISA_OPL_v_subrev_f32},
    {ISA_OPL_v_dual_mul_f32, ISA_OPL_v_mul_f32},
    {ISA_OPL_v_dual_fmac_f32, ISA_OPL_v_fmac_f32},
    {ISA_OPL_v_dual_fmaak_f32, ISA_OPL_v_fmaak_f32},
    {ISA_OPL_v_dual_fmamk_f32, ISA_OPL_v_fmamk_f32},
    {ISA_OPL_v_dual_add_nc_u32, ISA_OPL_v_add_nc_u32},
    {ISA_OPL_v_dual_lshlrev_b32, ISA_OPL_v_lshlrev_b32},
    {ISA_OPL_v_dual_and_b32, ISA_OPL_v_and_b32},
    {ISA_OPL_v_dual_max_f32, ISA_OPL_v_max_f32},
    {ISA_OPL_v_dual_min_f32, ISA_OPL_v_min_f32},
    {ISA_OPL_v_dual_max_num_f32, ISA_OPL_v_max_num_f32},
    {ISA_OPL_v_dual_min_num_f32, ISA_OPL_v_min_num_f32},
    {ISA_OPL_v_dual_mul_dx9_zero_f32, ISA_OPL_v_mul_dx9_zero_f32},
    /* D.f32 += dot of the f16 pairs (rdna_vop3p.c reads the accumulator from vdst) */
    {ISA_OPL_v_dual_dot2acc_f32_f16, ISA_OPL_v_dot2acc_f32_f16},
    /* the bf16 form has no VOP2 op: it runs as itself (rdna_vop3p.c) */
    {ISA_OPL_v_dual_dot2acc_f32_bf16, ISA_OPL_v_dual_dot2acc_f32_bf16},
};

static xhandler rdna_tab[2][ISA_NOPS]; /* [wave32] */
static uint8_t rdna_cls[ISA_NOPS];     /* --stats class of an AS row: its twin's */
static uint8_t rdna_t16[ISA_NOPS];     /* R16_*: how the op takes true16 halves */
static uint8_t rdna_own[ISA_NOPS];     /* an OWN row: its handler knows no DPP */
static uint16_t rdna_missing[64];      /* RUN/AS rows whose CDNA handler does not exist */
static unsigned rdna_nmissing;

static void put_row(const rdna_row *r, int w32, const xhandler *by_op, const uint8_t *op_cls,
                    xfn unimpl) {
    xhandler h = {r->op, r->type, r->fn, NULL, 0, NULL, NULL};
    rdna_cls[r->op] = op_cls[r->op];
    if (r->how == R_RUN || r->how == R_AS) {
        unsigned src = r->how == R_AS ? r->twin : r->op;
        h.fn = by_op[src].fn;
        h.type = by_op[src].type;
        h.vv = by_op[src].vv;
        h.vv_nsrc = by_op[src].vv_nsrc;
        h.vk = by_op[src].vk;
        h.vk1 = by_op[src].vk1;
        rdna_cls[r->op] = op_cls[src];
        if (!h.fn || h.fn == unimpl) { /* a row naming no handler: keep it faulting */
            if (!w32 && rdna_nmissing < sizeof rdna_missing / sizeof rdna_missing[0])
                rdna_missing[rdna_nmissing++] = r->op;
            h.fn = NULL;
        }
    }
    rdna_t16[r->op] = r->t16;
    rdna_own[r->op] = r->how == R_OWN;
    rdna_tab[w32][r->op] = h;
}

void x_rdna_build(const xhandler *by_op, const uint8_t *op_cls, xfn unimpl) {
    for (int w32 = 0; w32 < 2; w32++) {
        for (size_t i = 0; i < sizeof rdna_rows / sizeof rdna_rows[0]; i++)
            put_row(&rdna_rows[i], w32, by_op, op_cls, unimpl);
        for (size_t i = 0; i < x_rdna_alu_nrows; i++)
            put_row(&x_rdna_alu_rows[i], w32, by_op, op_cls, unimpl);
        for (size_t i = 0; i < x_rdna_mem_nrows; i++) /* rdna_mem.c: buffers, cross-lane */
            put_row(&x_rdna_mem_rows[i], w32, by_op, op_cls, unimpl);
        for (size_t i = 0; i < x_rdna_vop3p_nrows; i++)
            put_row(&x_rdna_vop3p_rows[i], w32, by_op, op_cls, unimpl);
        if (w32) {
            for (size_t i = 0; i < sizeof rdna_w32 / sizeof rdna_w32[0]; i++)
                rdna_tab[1][rdna_w32[i].op] = (xhandler){
                    rdna_w32[i].op, rdna_w32[i].type, rdna_w32[i].fn, NULL, 0, NULL, NULL};
            for (size_t i = 0; i < x_rdna_alu_nw32; i++)
                rdna_tab[1][x_rdna_alu_w32[i].op] = (xhandler){x_rdna_alu_w32[i].op,
                                                               x_rdna_alu_w32[i].type,
                                                               x_rdna_alu_w32[i].fn,
                                                               NULL,
                                                               0,
                                                               NULL,
                                                               NULL};
        }
    }
}

const xhandler *x_rdna_handler(unsigned op, int wave32, uint8_t *cls) {
    const xhandler *h = &rdna_tab[wave32 != 0][op];
    *cls = rdna_cls[op];
    return h->fn ? h : NULL;
}

/* R16_*: how the op takes true16 VGPR-half operands (the other rows refuse them: their
 * handlers would read whole registers). */
int x_rdna_t16_ok(unsigned op) { return op < ISA_NOPS ? rdna_t16[op] : R16_NO; }
/* DPP16/DPP8 run through the VALU framework's fetch and write mask (valu.c): the family
 * handlers (RUN/AS rows) use it, the OWN rows of rdna.c read their operands themselves. */
int x_rdna_dpp_ok(unsigned op) { return op < ISA_NOPS && !rdna_own[op]; }
/* Rows whose handler does not exist (a test keeps this list empty). */
unsigned x_rdna_missing(const uint16_t **ops) {
    *ops = rdna_missing;
    return rdna_nmissing;
}

/* (gfx11's s_waitcnt and s_nop run the CDNA no-op's handler, not r_nop) */
int x_rdna_is_nop(const xinst *x) {
    return x->fn == r_nop || x->in.op == ISA_OPL_s_waitcnt || x->in.op == ISA_OPL_s_nop;
}

int x_rdna_vopd_op(unsigned dual) {
    for (size_t i = 0; i < sizeof vopd_ops / sizeof vopd_ops[0]; i++)
        if (vopd_ops[i].dual == dual)
            return vopd_ops[i].op;
    return -1;
}

/* RDNA encodings 124 (NULL) and 125 (M0) <-> the engine's 125 (discarded) and 124 (M0). */
static void swap_null_m0(isa_opnd *o) {
    if (o->kind == ISA_OPND_SREG && (o->idx == 124 || o->idx == 125))
        o->idx = o->idx == 124 ? 125 : 124;
}
/* A wave32 exec_hi operand renamed by x_rdna_exec_hi32(), for printing. */
static void undo_exec_hi32(isa_opnd *o) {
    if (o->kind == ISA_OPND_SREG && o->idx == XS_EXEC_HI32)
        o->idx = ISA_SREG_EXEC_HI;
    else if (o->kind == ISA_OPND_SREG && o->idx == XS_EXEC64_W32) /* r_exec64_src32 */
        o->idx = ISA_SREG_EXEC_LO;
}

static int is_cmpstore(unsigned op) {
    return op == ISA_OPL_ds_cmpstore_b32 || op == ISA_OPL_ds_cmpstore_rtn_b32 ||
           op == ISA_OPL_ds_cmpstore_b64 || op == ISA_OPL_ds_cmpstore_rtn_b64 ||
           op == ISA_OPL_ds_cmpstore_f32 || op == ISA_OPL_ds_cmpstore_rtn_f32 ||
           op == ISA_OPL_ds_cmpstore_f64 || op == ISA_OPL_ds_cmpstore_rtn_f64;
}

void x_rdna_remap(isa_inst *in, int undo) {
    for (int i = 0; i < 2; i++)
        swap_null_m0(&in->dst[i]);
    for (int i = 0; i < 6; i++)
        swap_null_m0(&in->src[i]);
    for (int i = 0; undo && i < 8; i++)
        undo_exec_hi32(i < 2 ? &in->dst[i] : &in->src[i - 2]);
    if (in->fmt == ISA_FMT_FLAT && in->f.m.seg != 0 && in->f.m.saddr_off) {
        /* saddr "off" is the NULL encoding: no scalar address (swapped above to 125) */
        if (!undo) {
            in->src[3].kind = ISA_OPND_NONE;
        } else {
            in->src[3].kind = ISA_OPND_SREG;
            in->src[3].idx = 124;
        }
    }
    /* gfx11 MUBUF/MTBUF encode SRSRC in units of four SGPRs; the decoder keeps that field
     * value as the operand's index (gfx12's VBUFFER field is an SGPR number): the buffer
     * handlers (rdna_mem.c) read the V# at the SGPR number */
    if ((in->fmt == ISA_FMT_MUBUF || in->fmt == ISA_FMT_MTBUF) && in->arch == ISA_GFX1100 &&
        in->src[3].kind == ISA_OPND_SREG)
        in->src[3].idx = undo ? in->f.m.srsrc : (uint16_t)(in->f.m.srsrc * 4u);
    /* DS_CMPSTORE_* take (new value, compare) where gfx9's DS_CMPST_* take (compare, new
     * value): swap the two so the gfx9 handler runs (rdna_mem.c); swapping again undoes it */
    if (in->fmt == ISA_FMT_DS && is_cmpstore(in->op)) {
        isa_opnd t = in->src[1];
        in->src[1] = in->src[2];
        in->src[2] = t;
    }
    /* gfx12 atomics return the old value when th bit 0 (TH_ATOMIC_RETURN) is set; the handlers
     * read that as sc0 (gfx11's glc, which the decoder already copies there). */
    if ((in->fmt == ISA_FMT_FLAT || in->fmt == ISA_FMT_VBUFFER) && in->arch == ISA_GFX1201)
        in->f.m.sc0 = undo ? in->f.m.glc : in->f.m.rtn;
}
