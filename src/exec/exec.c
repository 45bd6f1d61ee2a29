/* exec.c - decoded programs, constant resolution and the wave loop. */
#include "exec/exec.h"
#include "exec/opcov.h"
#include "exec/jit.h"
#include "exec/pair.h"

#include <stddef.h>
#include <stdlib.h>
#include <string.h>

_Static_assert(offsetof(wave, v) % 64 == 0 && offsetof(wave, a) % 64 == 0,
               "struct wave's register files must start on a cache line: adjust WAVE_PAD");

/* Each op's --stats class: the cls column of the per-op metadata table. */
#define ISA_META(id, name, fmts, cls, ...) [ISA_OP_##id] = XC_##cls,
static const uint8_t op_cls[ISA_NOPS] = {
#include "isa/gen/opmeta.inc"
};
#undef ISA_META

/* Handler lookup table by op id, built once from the family tables. */
static xhandler by_op[ISA_NOPS];
static int by_op_ready;

static void x_illegal(wave *w, const xinst *x) { wave_fault(w, x, XF_ILLEGAL); }
static void x_unimplemented(wave *w, const xinst *x) { wave_fault(w, x, XF_UNIMPLEMENTED); }

/* Ops that decode but are refused on purpose: they stop the wave as an unimplemented instruction
 * (by name and pc), like an op nobody has written yet, but they are listed here with the reason,
 * so that every op gfxemu decodes has a row somewhere in src/exec. */
#define REFUSE(op) XROW(op, ISA_T_B32, x_unimplemented)
static const xhandler refused[] = {
    /* gfx90a image (MIMG) instructions: they read and write through image descriptors and
     * samplers (formats, tiling, filtering), none of which gfxemu models; compute kernels built
     * by clang for buffers never use them. */
    REFUSE(image_load),
    REFUSE(image_load_mip),
    REFUSE(image_load_pck),
    REFUSE(image_load_pck_sgn),
    REFUSE(image_load_mip_pck),
    REFUSE(image_load_mip_pck_sgn),
    REFUSE(image_store),
    REFUSE(image_store_mip),
    REFUSE(image_store_pck),
    REFUSE(image_store_mip_pck),
    REFUSE(image_get_resinfo),
    REFUSE(image_sample),
    REFUSE(image_atomic_swap),
    REFUSE(image_atomic_cmpswap),
    REFUSE(image_atomic_add),
    REFUSE(image_atomic_sub),
    REFUSE(image_atomic_smin),
    REFUSE(image_atomic_umin),
    REFUSE(image_atomic_smax),
    REFUSE(image_atomic_umax),
    REFUSE(image_atomic_and),
    REFUSE(image_atomic_or),
    REFUSE(image_atomic_xor),
    REFUSE(image_atomic_inc),
    REFUSE(image_atomic_dec),
    /* Return from a trap handler restoring the saved state: gfxemu runs no trap handler (s_trap
     * stops the wave), so there is nothing to return to. */
    REFUSE(s_rfe_restore_b64),
    /* Graphics screen partitioning (shader engine of a screen tile): no meaning for compute. */
    REFUSE(v_screen_partition_4se_b32),
};

static void build_handlers(void) {
    static const unsigned nrefused = sizeof refused / sizeof refused[0];
    static const struct {
        const xhandler *h;
        const unsigned *n;
    } fams[] = {
        {x_salu_handlers, &x_salu_nhandlers},
        {x_valu_handlers, &x_valu_nhandlers},
        {x_valu_int_handlers, &x_valu_int_nhandlers},
        {x_valu_f32_handlers, &x_valu_f32_nhandlers},
        {x_valu_f64_handlers, &x_valu_f64_nhandlers},
        {x_valu_f16_handlers, &x_valu_f16_nhandlers},
        {x_valu_cvt_handlers, &x_valu_cvt_nhandlers},
        {x_valu_cmp_handlers, &x_valu_cmp_nhandlers},
        {x_valu_scale_handlers, &x_valu_scale_nhandlers},
        {x_smem_handlers, &x_smem_nhandlers},
        {x_flat_handlers, &x_flat_nhandlers},
        {x_lds_handlers, &x_lds_nhandlers},
        {x_mfma_handlers, &x_mfma_nhandlers},
        {x_gws_handlers, &x_gws_nhandlers},
        {refused, &nrefused},
    };
    for (size_t f = 0; f < sizeof fams / sizeof fams[0]; f++)
        for (unsigned i = 0; i < *fams[f].n; i++)
            by_op[fams[f].h[i].op] = fams[f].h[i];
    x_rdna_build(by_op, op_cls, x_unimplemented);
    by_op_ready = 1;
}

int x_has_semantics(unsigned op) {
    if (!by_op_ready)
        build_handlers();
    return op < ISA_NOPS && by_op[op].fn != NULL && by_op[op].fn != x_unimplemented;
}

/* Whether xprog_build gave x a handler (it decoded and is not refused as unimplemented): the
 * opcode coverage audit's "implemented" (scripts/opcov_report.c) asks this of each encoding it
 * builds, so it follows every rule xprog_build applies (RDNA's allowlist, true16 halves, DPP,
 * VOPD halves, wave32 refusals) without a second list. */
/* v_swap_b32 and v_permlane{16,32}_swap exchange two VGPRs: LLVM 22 decodes (and notes as invalid,
 * or prints as an aperture) any other src0, which no target defines. */
static int swap_src_not_vgpr(const isa_inst *in) {
    return (in->op == ISA_OP_V_SWAP_B32 || in->op == ISA_OP_V_PERMLANE16_SWAP_B32 ||
            in->op == ISA_OP_V_PERMLANE32_SWAP_B32) &&
           in->src[0].kind != ISA_OPND_VGPR;
}

/* GFX9 VOP3/VOP3P/MAI take no literal (CDNA3/CDNA4 ISA: a literal follows only the 32-bit VOP1/
 * VOP2/VOPC and scalar encodings; llvm-mc-22 refuses one there on gfx90a..gfx950, "literal operands
 * are not supported").  LLVM 22's gfx950 disassembler still reads a dword after a VOP3 source of
 * 255, so the listing shows it; running it would use a value the hardware never fetches. */
static int gcn_vop3_literal(const isa_inst *in) {
    if (in->fmt != ISA_FMT_VOP3 && in->fmt != ISA_FMT_VOP3P)
        return 0;
    for (int i = 0; i < in->ndst + in->nsrc; i++)
        if ((i < in->ndst ? &in->dst[i] : &in->src[i - in->ndst])->kind == ISA_OPND_LITERAL)
            return 1;
    return 0;
}

int x_runs(const xinst *x) { return x->fn != x_unimplemented && x->fn != x_illegal; }

/* Inline constants (CDNA3/CDNA4 ISA "Inline constants"): the float ones depend on the width and
 * format of the operand they feed; 248 is 1/(2*pi). */
static uint64_t inline_value(unsigned enc, int type, unsigned n) {
    static const uint16_t f16[9] = {0x3800, 0xb800, 0x3c00, 0xbc00, 0x4000,
                                    0xc000, 0x4400, 0xc400, 0x3118};
    static const uint16_t bf16[9] = {0x3f00, 0xbf00, 0x3f80, 0xbf80, 0x4000,
                                     0xc000, 0x4080, 0xc080, 0x3e22};
    static const uint32_t f32[9] = {0x3f000000, 0xbf000000, 0x3f800000, 0xbf800000, 0x40000000,
                                    0xc0000000, 0x40800000, 0xc0800000, 0x3e22f983};
    static const uint64_t f64[9] = {0x3fe0000000000000, 0xbfe0000000000000, 0x3ff0000000000000,
                                    0xbff0000000000000, 0x4000000000000000, 0xc000000000000000,
                                    0x4010000000000000, 0xc010000000000000, 0x3fc45f306dc9c882};
    if (enc >= 128 && enc <= 192)
        return enc - 128;
    if (enc >= 193 && enc <= 208)
        return (uint64_t)(int64_t)(192 - (int)enc);
    if (enc >= 240 && enc <= 248) {
        unsigned i = enc - 240;
        if (n >= 2)
            return f64[i];
        switch (type) {
        case ISA_T_F16:
        case ISA_T_B16: return f16[i];
        case ISA_T_BF16: return bf16[i];
        case ISA_T_V2F16: return f16[i];
        case ISA_T_V2BF16: return bf16[i];
        /* packed integer ops see a float constant's f32 bits (valu_f16.c pk_src16) */
        case ISA_T_V2B16: return f32[i];
        default: return f32[i];
        }
    }
    return 0;
}

static void resolve_constants(xinst *x, int type) {
    for (unsigned i = 0; i < x->in.nsrc && i < 6; i++) {
        const isa_opnd *o = &x->in.src[i];
        if (o->kind == ISA_OPND_INLINE)
            x->k[i] = inline_value(o->idx, type, o->n);
        else if (o->kind == ISA_OPND_LITERAL)
            /* A 32-bit literal feeding a 64-bit float operand is its high half; integer 64-bit
             * operands take it zero-extended. */
            x->k[i] = o->n >= 2 && type == ISA_T_F64 ? (uint64_t)x->in.lit << 32 : x->in.lit;
        else if (o->kind == ISA_OPND_IMM)
            x->k[i] = (uint64_t)(int64_t)o->imm;
    }
}

/* A VALU instruction without any of the per-operand or per-result modifiers: its handler may
 * read the source registers and write the destination directly (valu.h vplain()). */
static int valu_plain(const isa_inst *in) {
    const isa_valu_fields *v = &in->f.v;
    return in->variant < ISA_VAR_SDWA && !(v->neg | v->abs | v->neg_hi | v->opsel | v->opsel_hi) &&
           !v->clamp && !v->omod;
}

/* Every one of the nsrc sources and the one destination is a VGPR: the instruction may run a
 * handler's plain-VGPR clone (valu.h VV). */
static int vv_fits(const isa_inst *in, unsigned nsrc) {
    if (in->nsrc != nsrc || in->ndst != 1 || in->dst[0].kind != ISA_OPND_VGPR)
        return 0;
    for (unsigned i = 0; i < nsrc; i++)
        if (in->src[i].kind != ISA_OPND_VGPR)
            return 0;
    return 1;
}

/* An AGPR move (v_accvgpr_read/write/mov_b32, GCN only: wave64) between two registers with no
 * modifier, which x_mov_rr runs (v_mov_b32 between VGPRs has its VV clone).  The general path
 * applies no op_sel or op_sel_hi to a 32-bit move (the VOP3P-encoded AGPR moves carry op_sel_hi
 * bits); neg/abs, clamp and omod are left to it. */
static int mov_rr_fits(const isa_inst *in) {
    const isa_valu_fields *v = &in->f.v;
    unsigned op = in->op;
    if (op != ISA_OPL_v_accvgpr_read_b32 && op != ISA_OPL_v_accvgpr_write_b32 &&
        op != ISA_OPL_v_accvgpr_mov_b32)
        return 0;
    if (in->variant >= ISA_VAR_SDWA || (v->neg | v->abs | v->neg_hi | v->opsel) || v->clamp ||
        v->omod || in->nsrc != 1 || in->ndst != 1)
        return 0;
    const isa_opnd *s = &in->src[0], *d = &in->dst[0];
    return (s->kind == ISA_OPND_VGPR || s->kind == ISA_OPND_AGPR) &&
           (d->kind == ISA_OPND_VGPR || d->kind == ISA_OPND_AGPR) && s->n <= 1 && d->n <= 1;
}

/* The same with src0 an SGPR or a 32-bit constant (the clone valu.h VV calls name##_vk). */
static int vk_fits(const isa_inst *in, unsigned nsrc) {
    if (in->nsrc != nsrc || in->ndst != 1 || in->dst[0].kind != ISA_OPND_VGPR)
        return 0;
    const isa_opnd *o = &in->src[0];
    if ((o->kind != ISA_OPND_SREG && o->kind != ISA_OPND_INLINE && o->kind != ISA_OPND_LITERAL) ||
        o->n > 1)
        return 0;
    for (unsigned i = 1; i < nsrc; i++)
        if (in->src[i].kind != ISA_OPND_VGPR)
            return 0;
    return 1;
}

/* A packed-f32 instruction (v_pk_add/mul/fma_f32) its clone runs (valu_f16.c PKF32): no
 * modifier, i.e. op_sel 0 and op_sel_hi set for each source (the assembler's default: the low
 * result from the low dwords, the high one from the high dwords), no neg_lo/neg_hi or clamp; a
 * VGPR-pair destination; each source a VGPR pair that is the destination or disjoint from it, an
 * SGPR pair or an inline constant. */
static int pk_fits(const isa_inst *in, unsigned nsrc) {
    const isa_valu_fields *v = &in->f.v;
    unsigned all = (1u << nsrc) - 1, d = in->dst[0].idx;
    if (in->nsrc != nsrc || in->ndst != 1 || in->dst[0].kind != ISA_OPND_VGPR ||
        in->variant >= ISA_VAR_SDWA || (v->neg | v->abs | v->neg_hi | v->opsel) ||
        (v->opsel_hi & all) != all || v->clamp || v->omod)
        return 0;
    for (unsigned i = 0; i < nsrc; i++) {
        const isa_opnd *o = &in->src[i];
        if (o->kind == ISA_OPND_VGPR ? o->idx != d && o->idx + 1u >= d && o->idx <= d + 1u
                                     : o->kind != ISA_OPND_SREG && o->kind != ISA_OPND_INLINE)
            return 0;
    }
    return 1;
}

/* The same with src1 an SGPR or a 32-bit constant and the other sources VGPRs (valu.h VV's
 * name##_vk1). */
static int vk1_fits(const isa_inst *in, unsigned nsrc) {
    if (nsrc < 2 || in->nsrc != nsrc || in->ndst != 1 || in->dst[0].kind != ISA_OPND_VGPR)
        return 0;
    const isa_opnd *o = &in->src[1];
    if ((o->kind != ISA_OPND_SREG && o->kind != ISA_OPND_INLINE && o->kind != ISA_OPND_LITERAL) ||
        o->n > 1)
        return 0;
    for (unsigned i = 0; i < nsrc; i++)
        if (i != 1 && in->src[i].kind != ISA_OPND_VGPR)
            return 0;
    return 1;
}

/* What an RDNA program can run of x: the allowlist's handler (rdna.c), or none.  DPP (RDNA's
 * DPP16/DPP8) runs through the VALU framework (valu.c) in the family handlers; true16 operands
 * (VGPR halves) only reach the handlers whose rows take them (rdna.h R16_*), with the halves
 * folded into op_sel, which the framework reads in every RDNA format (valu.c vs32_slow,
 * vd16). */
static const xhandler *rdna_pick(xprog *p, xinst *x, uint8_t *cls) {
    isa_inst *in = &x->in;
    int dpp = in->variant == ISA_VAR_DPP;
    if (dpp && !x_rdna_dpp_ok(in->op))
        return NULL;
    int t16 = x_rdna_t16_ok(in->op); /* 0 none, 1 halves, 2 low halves only */
    if (t16 == 2 && in->f.v.opsel)   /* a high half through op_sel (gfx12 fake16 VOP3) */
        return NULL;
    for (unsigned i = 0; i < 6; i++)
        if (in->src[i].kind == ISA_OPND_VGPR && in->src[i].imm &&
            (!t16 || (t16 == 2 && in->src[i].imm == ISA_HALF_H)))
            return NULL;
    for (unsigned i = 0; i < 2; i++)
        if (in->dst[i].kind == ISA_OPND_VGPR && in->dst[i].imm &&
            (!t16 || (t16 == 2 && in->dst[i].imm == ISA_HALF_H)))
            return NULL;
    const xhandler *h = x_rdna_handler(in->op, p->wave32, cls);
    if (h && t16 == 1 && in->fmt != ISA_FMT_VOP3) {
        /* VOP1/VOP2/VOPC name a half in bit 7 of a VGPR field: the same op_sel bits as VOP3's
         * (bit i source i, bit 3 the destination); their printers do not read op_sel */
        for (unsigned i = 0; i < 3; i++)
            if (in->src[i].kind == ISA_OPND_VGPR && in->src[i].imm == ISA_HALF_H)
                in->f.v.opsel |= (uint8_t)(1u << i);
        if (in->dst[0].kind == ISA_OPND_VGPR && in->dst[0].imm == ISA_HALF_H)
            in->f.v.opsel |= 8;
    }
    if (h && dpp) {
        /* DPP8: src0 is 0xe9/0xea in the VOP1/2/C word or the VOP3/VOP3P word's SRC0 field,
         * the eight 3-bit lane selectors are bits 31:8 of the DPP dword (VOP3P's was missed:
         * a DPP8 v_fma_mix* ran as DPP16 with the selectors as dpp_ctrl; test_valu_forms) */
        int v3 = in->fmt == ISA_FMT_VOP3 || in->fmt == ISA_FMT_VOP3P;
        unsigned s0 = in->w[v3 ? 1 : 0] & 0x1ff;
        if (s0 == 0xe9 || s0 == 0xea) {
            x->xf |= XI_DPP8;
            x->k[5] = in->w[v3 ? 2 : 1] >> 8;
        }
    }
    return h;
}

/* VOPD: the two halves as ordinary VOP2/VOP1 instructions (src/isa/vopd_rdna.c's slots: dst[0]
 * X's vdst, dst[1] Y's, src[0..1] X's src0/vsrc1, src[2..3] Y's, the shared literal in lit). */
static int rdna_vopd(xprog *p, xinst *x, xinst *h) {
    int ops[2] = {x_rdna_vopd_op(x->in.op), x_rdna_vopd_op(x->in.flags)};
    uint8_t cls;
    for (int k = 0; k < 2; k++) {
        const xhandler *hh = ops[k] < 0 ? NULL : x_rdna_handler((unsigned)ops[k], p->wave32, &cls);
        if (!hh)
            return 0;
        xinst *s = &h[k];
        memset(s, 0, sizeof *s);
        s->fn = hh->fn;
        s->pc = x->pc;
        s->size = x->size;
        s->cls = XC_VALU;
        s->xf = x->xf;
        isa_inst *in = &s->in;
        in->op = (uint16_t)ops[k];
        in->arch = x->in.arch;
        in->fmt = ops[k] == ISA_OPL_v_mov_b32 ? ISA_FMT_VOP1 : ISA_FMT_VOP2;
        in->variant = ISA_VAR_E32;
        in->ndst = 1;
        in->dst[0] = x->in.dst[k];
        in->lit = x->in.lit;
        const isa_opnd *src = &x->in.src[2 * k];
        in->src[0] = src[0];
        in->nsrc = 1;
        if (ops[k] == ISA_OPL_v_fmamk_f32 || ops[k] == ISA_OPL_v_fmaak_f32) {
            /* the VOP2 slots: fmamk src0, K, vsrc1; fmaak src0, vsrc1, K */
            isa_opnd kk = {ISA_OPND_LITERAL, 1, 255, 0};
            int mk = ops[k] == ISA_OPL_v_fmamk_f32;
            in->src[1] = mk ? kk : src[1];
            in->src[2] = mk ? src[1] : kk;
            in->nsrc = 3;
        } else if (src[1].kind != ISA_OPND_NONE) {
            in->src[1] = src[1];
            in->nsrc = 2;
        }
        if (ops[k] == ISA_OPL_v_cndmask_b32 || ops[k] == ISA_OPL_v_fmac_f32) {
            /* cndmask reads vcc_lo, fmac its vdst (the VOP2 records' third slot) */
            isa_opnd vcc = {ISA_OPND_SREG, (uint8_t)(p->wave32 ? 1 : 2), ISA_SREG_VCC_LO, 0};
            in->src[2] = ops[k] == ISA_OPL_v_cndmask_b32 ? vcc : in->dst[0];
            in->nsrc = 3;
        }
        resolve_constants(s, hh->type);
        /* VOPD has no modifiers: each half may take the VALU direct path (valu.h vplain) */
        s->plain = !(s->xf & XI_REF) && valu_plain(in);
        if (s->plain && hh->vv && vv_fits(in, hh->vv_nsrc))
            s->fn = hh->vv;
        else if (s->plain && hh->vk && vk_fits(in, hh->vv_nsrc))
            s->fn = hh->vk;
        else if (s->plain && hh->vk1 && vk1_fits(in, hh->vv_nsrc))
            s->fn = hh->vk1;
        x_rdna_exec_hi32(s); /* VOPD is wave32 only: an exec_hi source */
    }
    /* Y reads X's destination: it must see the value from before X wrote */
    int rbw = 0;
    for (int i = 0; i < 3; i++)
        rbw |= h[1].in.src[i].kind == ISA_OPND_VGPR && h[1].in.src[i].idx == h[0].in.dst[0].idx;
    x->fn = rbw ? x_rdna_vopd_rbw : x_rdna_vopd;
    x->k[0] = (uint64_t)(uintptr_t)h;
    return 1;
}

int x_env_switch(int *cache, const char *var, const char *off) {
    int t = __atomic_load_n(cache, __ATOMIC_RELAXED);
    if (t < 0) {
        const char *e = getenv(var);
        t = !(e && !strcmp(e, off));
        __atomic_store_n(cache, t, __ATOMIC_RELAXED);
    }
    return t;
}

static int fast_tier = -1; /* x_fast_tier(); -1: the environment not read yet */
int x_fast_tier(void) { return x_env_switch(&fast_tier, "GFXEMU_TIER", "reference"); }
void x_set_fast_tier(int on) { __atomic_store_n(&fast_tier, on ? 1 : 0, __ATOMIC_RELAXED); }

/* Ops that end a straight-line run besides the branches: those whose handlers change what
 * wave_moded() reads (MODE's rounding and denormal fields, GPR indexing, VSKIP), which
 * wave_run() tests once per run, and s_memtime, which reads the class counts (smem.c), which a
 * run charges at its start.  The next instruction starts a run of its own. */
static const uint16_t run_enders[] = {
    ISA_OPL_s_setreg_b32,      ISA_OPL_s_setreg_imm32_b32, ISA_OPL_s_set_gpr_idx_on,
    ISA_OPL_s_set_gpr_idx_off, ISA_OPL_s_setvskip,         ISA_OPL_s_round_mode,
    ISA_OPL_s_denorm_mode,     ISA_OPL_s_memtime,
};

/* Whether x ends a straight-line run: it may change the pc (every branch, call, s_getpc and
 * s_endpgm is in class BRANCH, the only handlers that read or write w->pc), or it is one of
 * run_enders.  Any instruction may change the status (a fault, a barrier, s_sleep): wave_run()
 * tests it after each one instead. */
static int ends_run(const xinst *x) {
    if (x->cls == XC_BRANCH || !x->next)
        return 1;
    for (size_t i = 0; i < sizeof run_enders / sizeof run_enders[0]; i++)
        if (x->in.op == run_enders[i])
            return 1;
    return 0;
}

/* Link each instruction to the one after it and count its run (from the end backwards). */
static void link_runs(xprog *p) {
    for (uint32_t i = p->ninsts; i-- > 0;) {
        xinst *x = &p->insts[i];
        x->next = i + 1 < p->ninsts ? &p->insts[i + 1] : NULL;
        int alone = ends_run(x) || x->next->run == 255;
        x->run = alone ? 1 : (uint8_t)(x->next->run + 1);
        if (!alone)
            memcpy(x->rcnt, x->next->rcnt, sizeof x->rcnt);
        x->rcnt[x->cls]++;
    }
}

int xprog_build(xprog *p, isa_arch arch, const uint8_t *code, uint32_t size, uint64_t va) {
    return xprog_build_waves(p, arch, code, size, va, 64);
}

int xprog_build_waves(xprog *p, isa_arch arch, const uint8_t *code, uint32_t size, uint64_t va,
                      unsigned wave_lanes) {
    if (!by_op_ready)
        build_handlers();
    memset(p, 0, sizeof *p);
    p->arch = arch;
    p->code = code;
    p->code_size = size & ~3u;
    p->code_va = va;
    int rdna = isa_is_rdna(arch);
    p->wave32 = rdna && wave_lanes == 32;
    const uint8_t ref = x_fast_tier() ? 0 : XI_REF;
    uint32_t nslots = p->code_size / 4;
    p->at = calloc(nslots ? nslots : 1, sizeof *p->at);
    p->insts = calloc(nslots ? nslots : 1, sizeof *p->insts);
    if (!p->at || !p->insts) {
        xprog_free(p);
        return -1;
    }
    uint32_t nsubs = 0;
    for (uint32_t pc = 0; pc < p->code_size;) {
        xinst *x = &p->insts[p->ninsts++];
        size_t n = isa_decode(arch, code + pc, p->code_size - pc, &x->in);
        if (n == 0 && rdna && p->code_size - pc >= 12) {
            /* a word LLVM 22 emits for gfx12 but does not decode (vop3_rdna.c) */
            uint32_t w[3];
            memcpy(w, code + pc, sizeof w);
            if ((n = isa_dec_vop3_rdna_dpp_sdst(arch, w, 3, &x->in)) != 0)
                x->in.size = (uint8_t)n;
        }
        x->pc = pc;
        x->size = (uint8_t)(n ? n : 4);
        x->xf = ref;
        const xhandler *h = n ? &by_op[x->in.op] : NULL;
        uint8_t cls = n ? op_cls[x->in.op] : XC_OTHER;
        if (n && rdna) {
            x->xf |= (uint8_t)(XI_RDNA | (p->wave32 ? XI_MASK32 : 0));
            x_rdna_remap(&x->in, 0);
            h = rdna_pick(p, x, &cls);
            if (h && x->in.fmt == ISA_FMT_VOPD) {
                if (!p->subs && !(p->subs = calloc(2 * (size_t)nslots, sizeof *p->subs))) {
                    xprog_free(p);
                    return -1;
                }
                if (!rdna_vopd(p, x, &p->subs[nsubs])) {
                    h = NULL;
                } else {
                    nsubs += 2;
                    x->cls = XC_VALU;
                    p->at[pc / 4] = x;
                    pc += x->size;
                    continue;
                }
            }
        }
        if (n == 0 || (!rdna && gcn_vop3_literal(&x->in)) || swap_src_not_vgpr(&x->in)) {
            x->fn = x_illegal;
            x->cls = XC_OTHER;
        } else if (h && h->fn && h->fn != x_unimplemented) {
            x->fn = h->fn;
            x->cls = cls;
            resolve_constants(x, h->type);
            x->plain = !ref && x->cls == XC_VALU && valu_plain(&x->in);
            if (!ref && h->vv && (h->vv_nsrc & XV_PK)) {
                if (pk_fits(&x->in, h->vv_nsrc & ~XV_PK))
                    x->fn = h->vv, x->pk = 1;
            } else if (x->plain && h->vv && vv_fits(&x->in, h->vv_nsrc))
                x->fn = h->vv;
            else if (x->plain && h->vk && vk_fits(&x->in, h->vv_nsrc))
                x->fn = h->vk;
            else if (x->plain && h->vk1 && vk1_fits(&x->in, h->vv_nsrc))
                x->fn = h->vk1;
            else if (!ref && !rdna && mov_rr_fits(&x->in))
                x->fn = x_mov_rr;
            else if (!ref && x->cls == XC_MFMA)
                x->fn = x_mfma_pick(x);
            if (x->xf & XI_MASK32) /* wave32 EXEC_HI (rdna.c) */
                x_rdna_exec_hi32(x);
        } else {
            x->fn = x_unimplemented;
            x->cls = XC_OTHER;
        }
        p->at[pc / 4] = x;
        pc += x->size;
    }
    link_runs(p);
    p->runs = !ref;
    if (p->runs && (x_jit_build(p) < 0 || x_runcode_build(p) < 0)) {
        xprog_free(p);
        return -1;
    }
    return 0;
}

size_t xinst_print(const xinst *x, char *buf, size_t n) {
    if (!(x->xf & XI_RDNA))
        return isa_print(&x->in, buf, n);
    isa_inst in = x->in;
    x_rdna_remap(&in, 1);
    return isa_print(&in, buf, n);
}

void xprog_free(xprog *p) {
    x_pair_free(p);
    x_jit_free(p);
    x_runcode_free(p);
    free(p->at);
    free(p->insts);
    free(p->subs);
    p->at = NULL;
    p->insts = NULL;
    p->subs = NULL;
}

void wave_fault(wave *w, const xinst *x, int kind) {
    if (w->status == WAVE_FAULT)
        return;
    w->status = WAVE_FAULT;
    w->fault.kind = kind;
    w->fault.pc = x ? x->pc : w->pc;
    w->fault.op = x ? x->in.op : 0;
}

void wave_mem_fault(wave *w, const xinst *x, uint64_t addr, uint32_t size, int write) {
    if (w->status == WAVE_FAULT)
        return;
    wave_fault(w, x, XF_MEMORY);
    w->fault.addr = addr;
    w->fault.size = size;
    w->fault.write = write;
}

/* The rare wave modes, off the fast path: VSKIP (s_setvskip) drops every vector instruction
 * (VALU, MFMA, vector memory, LDS) without executing it; a non-default rounding mode sends
 * vector instructions through round.c, and so does MODE.FP16_OVFL the VALU ops with f16
 * results; GPR indexing rewrites VALU operands. */
void x_run_moded(wave *w, const xinst *x) {
    int vec = x->cls == XC_VALU || x->cls == XC_VMEM || x->cls == XC_LDS || x->cls == XC_MFMA;
    if (w->vskip && vec)
        return;
    if ((w->mode & MODE_FP16_OVFL) && x->cls == XC_VALU && x_f16_result(x->in.op))
        x_run_f16_ovfl(w, x);
    else if ((w->mode & 15) && vec)
        x_run_rounded(w, x);
    else
        x_run_plain(w, x);
}
void x_run_plain(wave *w, const xinst *x) {
    if (w->gpr_idx_on && x->cls == XC_VALU)
        x_run_indexed(w, x);
    else
        x->fn(w, x);
}

/* Take the n instructions from x back from w's class counts (they were charged, not run). */
static void uncount(wave *w, const xinst *x, unsigned n) {
    for (; n; n--, x = x->next)
        w->count[x->cls]--;
}

/* Instruction y of a block again, on the lanes in `rest` (EXEC is them): its lane masks keep
 * the bits of the other lanes, which the block wrote. */
static void replay(wave *w, const xinst *y, uint64_t rest) {
    uint64_t before[4];
    unsigned nd = y->in.ndst < 4 ? y->in.ndst : 4;
    for (unsigned i = 0; i < nd; i++) {
        const isa_opnd *o = &y->in.dst[i];
        if (o->kind == ISA_OPND_SREG && o->n == 2 && o->idx + 1u < NSREG)
            before[i] = w->s[o->idx] | (uint64_t)w->s[o->idx + 1] << 32;
    }
    y->fn(w, y);
    for (unsigned i = 0; i < nd; i++) {
        const isa_opnd *o = &y->in.dst[i];
        if (o->kind == ISA_OPND_SREG && o->n == 2 && o->idx + 1u < NSREG) {
            uint64_t m = (w->s[o->idx] | (uint64_t)w->s[o->idx + 1] << 32) & rest;
            m |= before[i] & ~rest;
            w->s[o->idx] = (uint32_t)m, w->s[o->idx + 1] = (uint32_t)(m >> 32);
        }
    }
}

/* A block stopped the wave: a load of it faulted on the lanes of one chunk (x_jit_fault_lanes:
 * lanes f to e - 1, 16 of them in AVX-512 code, 8 in AVX2 code), when the chunks before it had
 * run the whole block and the later ones had run nothing.  The later chunks' lanes run the
 * block's vector instructions before the load (lane by lane, as the interpreter does: the
 * scalar ones before it ran before the code), then the load runs on the lanes from f on, so
 * that the fault is the whole instruction's (every lane that faults; or an earlier load's, if
 * that faults first on those lanes).  The lanes before f keep the results of the block's
 * instructions after the load, as a GPU's do when its loads complete after the instructions
 * that follow them.  The block's instructions are xs[0..n) when xs is given (pair.c's runs),
 * else the n along the chain from b.  Returns the index of the instruction whose fault the
 * wave has (n - 1 when none of them has its pc). */
static unsigned fault_fix(wave *w, const xinst *b, const xinst *const *xs, unsigned n) {
#define AT(i, y) ((i) == 0 ? (xs ? xs[0] : b) : xs ? xs[i] : (y)->next)
    unsigned width, f = x_jit_fault_lanes(&width), e = f + width, i = 0;
    const xinst *x = AT(0, b);
    while (i + 1 < n && x->pc != w->fault.pc)
        x = AT(i + 1, x), i++;
    if (w->status == WAVE_FAULT && x->cls == XC_VMEM && f < LANES) {
        xfault fr = w->fault;
        uint64_t rest = e < LANES ? ~0ull << e : 0;
        w->status = WAVE_RUNNING;
        memset(&w->fault, 0, sizeof w->fault);
        wave_set_exec(w, rest);
        unsigned k = 0;
        for (const xinst *y = AT(0, b); rest && y != x && w->status == WAVE_RUNNING;
             y = AT(k + 1, y), k++)
            if (y->cls == XC_VALU || y->cls == XC_VMEM)
                replay(w, y, rest);
        if (w->status == WAVE_RUNNING) {
            wave_set_exec(w, ~0ull << f);
            x->fn(w, x);
        }
        if (w->status == WAVE_RUNNING) /* (a fault depends on the addresses alone) */
            w->status = WAVE_FAULT, w->fault = fr;
        wave_set_exec(w, ~0ull);
        for (x = AT(0, b), i = 0; i + 1 < n && x->pc != w->fault.pc;)
            x = AT(i + 1, x), i++;
    }
    return i;
#undef AT
}
unsigned x_jit_fault_seq(wave *w, const xinst *const *xs, unsigned n) {
    return fault_fix(w, NULL, xs, n);
}

/* Block b (covering jit_n instructions, n more after it in the run) stopped the wave
 * (fault_fix).  Then as run_straight below leaves a wave that an instruction stopped: the pc
 * past it, the instructions after it taken back from the counts; returns their number. */
static uint64_t jit_stopped(wave *w, const xinst *b, unsigned jit_n, unsigned n) {
    unsigned i = fault_fix(w, b, NULL, jit_n);
    const xinst *x = b;
    for (unsigned k = 0; k < i; k++)
        x = x->next;
    w->pc = x->pc + x->size;
    uncount(w, x->next, jit_n - 1 - i + n);
    return jit_n - 1 - i + n;
}

/* A straight-line run of x->run instructions from x, which is at w->pc, with the budget and the
 * class counts already charged for all of them: no pc bounds, table lookup, budget, count or mode
 * test between them, and the pc stored only before the last one (the one that may branch).  When
 * an instruction stops the wave (a fault, a barrier, s_endpgm, s_sleep), the pc is left past it,
 * as wave_step() leaves it, and the instructions not run are taken back from the counts and
 * returned to the budget. */
static inline __attribute__((always_inline)) uint64_t run_straight(wave *w, const xinst *x) {
    unsigned n = x->run;
    for (;; x = x->next) {
#ifdef GFXEMU_OPCOV
        x_opcov_hit(w->prog, x);
#endif
        if (--n == 0)
            break;
#ifndef GFXEMU_OPCOV
        if (x->jit) {
            const xjit *j = x_jit_run(w, x);
            if (j) {
                n -= j->n - 1u;
                if (__builtin_expect(w->status != WAVE_RUNNING, 0))
                    return jit_stopped(w, x, j->n, n);
                x = j->last;
                continue;
            }
        }
#endif
        x->fn(w, x);
        if (__builtin_expect(w->status != WAVE_RUNNING, 0)) {
            w->pc = x->pc + x->size;
            uncount(w, x->next, n);
            return n;
        }
    }
    w->pc = x->pc + x->size;
    x->fn(w, x);
    return 0;
}

uint64_t x_runcode_stop(wave *w, const xinst *x) {
    w->pc = x->pc + x->size;
    uncount(w, x->next, x->run - 1u);
    return x->run - 1u;
}
uint64_t x_runcode_jstop(wave *w, const xinst *x, unsigned n) {
    return jit_stopped(w, x, n, x->run - n);
}
int x_runcode_which(wave *w, const xinst *x) { return x_jit_which(w, x); }

void wave_run(wave *w) {
    /* The budget and the program's table live in locals: handlers never change them, and the
     * compiler must otherwise reload them from memory after every indirect call. */
    const xprog *p = w->prog;
    xinst *const *at = p->at;
    const uint32_t code_size = p->code_size;
    const int runs = p->runs;
    uint64_t budget = w->budget;
    while (w->status == WAVE_RUNNING) {
        uint32_t pc = w->pc;
        const xinst *x = (pc < code_size && !(pc & 3)) ? at[pc / 4] : NULL;
        /* The whole run when the budget covers it and the wave is in no rare mode; else one
         * instruction the way wave_step() runs it (the reference tier always). */
        if (__builtin_expect(runs && x && x->run <= budget && !wave_moded(w), 1)) {
            budget -= x->run;
#pragma GCC unroll 8
            for (int c = 0; c < XC_N; c++)
                w->count[c] += x->rcnt[c];
            if (x->tc)
                p->rc_enter(w, x->tc, &budget);
            else
                budget += run_straight(w, x);
            continue;
        }
        if (budget == 0) {
            w->budget = 0;
            wave_fault(w, NULL, XF_WATCHDOG);
            return;
        }
        budget--;
        if (!x) {
            wave_fault(w, NULL, XF_PC);
            break;
        }
        w->count[x->cls]++;
#ifdef GFXEMU_OPCOV
        x_opcov_hit(p, x);
#endif
        w->pc = pc + x->size;
        x_run_one(w, x);
    }
    w->budget = budget;
}

/* Special sources.  The aperture registers read as the high dword of the aperture base when
 * used as a 32-bit operand and as the full 64-bit base (low dword 0) as a 64-bit operand. */
uint64_t x_special(const wave *w, unsigned enc, unsigned n) {
    uint64_t ap;
    switch (enc) {
    case 235: ap = GMEM_SHARED_APERTURE; break;
    case 236: ap = GMEM_SHARED_APERTURE + GMEM_APERTURE_SIZE - 1; break;
    case 237: ap = GMEM_PRIVATE_APERTURE; break;
    case 238: ap = GMEM_PRIVATE_APERTURE + GMEM_APERTURE_SIZE - 1; break;
    case ISA_SRC_VCCZ: return (w->s[ISA_SREG_VCC_LO] | w->s[ISA_SREG_VCC_HI]) == 0;
    case ISA_SRC_EXECZ: return wave_exec(w) == 0;
    case ISA_SRC_SCC: return w->scc;
    default: return 0;
    }
    return n >= 2 ? ap : ap >> 32;
}
