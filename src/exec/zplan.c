/* zplan.c - which registers a wave of a kernel must find zero at its start.
 *
 * dp_wave_init() gives every wave zeroed registers, so that results never depend on what ran
 * before on the worker.  Zeroing a kernel's whole VGPR allocation and the whole SGPR file was
 * about a quarter of a 64 Ki-float vecadd's time (a 15-instruction wave, 2 KiB of VGPRs, 1 KiB
 * of SGPRs).  Most of those registers cannot be seen: the kernel writes them before it reads
 * them.  The plan keeps the rows a wave could read before writing:
 *  - A row no instruction of the program names is never read, when the program has no dynamic
 *    register indexing (v_movrel*, s_movrel*, s_set_gpr_idx_*) and only formats whose operand
 *    lists name every register they touch.
 *  - A row the kernel's first straight-line instructions write in all of the wave's lanes
 *    before reading it is written before anything can read it.  That prefix runs from the entry
 *    to the first branch, EXEC write or instruction the plan does not model; it runs exactly
 *    once, first, in every wave, and while it runs EXEC is what the wave started with.
 * SGPRs are set up (the launch's user SGPRs, zeros elsewhere) in chunks of 16: the chunks the
 * code names, and s96-s127, whose special registers instructions read without naming them.
 * The plan holds for waves that start with all lanes on: 64, or 32 in a wave32 program, whose
 * lanes 32-63 no instruction reads (a pair of wave32 waves run as one, pair.c, holds the second
 * wave's lanes there; its prefix writes them in both).  Other waves, and launches whose
 * registers a debugger or trace shows before the kernel writes them, zero the whole allocation
 * as before.  GFXEMU_POISON_REGS=1 fills the rows the plan leaves with garbage instead of
 * leaving them alone, so that a wrong plan changes results (tests/dispatch/test_zplan.c, and the
 * kernel tests run under it by make check). */
#include "exec/exec.h"

#include <stdlib.h>
#include <string.h>

static void mark(uint64_t *bits, unsigned idx, unsigned n) {
    for (unsigned r = idx; r < idx + (n ? n : 1) && r < NVREG; r++)
        bits[r / 64] |= 1ull << (r % 64);
}

static int is_vreg(const isa_opnd *o) {
    return o->kind == ISA_OPND_VGPR || o->kind == ISA_OPND_AGPR;
}

/* The formats whose decoded operands list every register the instruction reads or writes. */
static int modelled_fmt(unsigned fmt) {
    switch (fmt) {
    case ISA_FMT_SOP2:
    case ISA_FMT_SOPK:
    case ISA_FMT_SOP1:
    case ISA_FMT_SOPC:
    case ISA_FMT_SOPP:
    case ISA_FMT_SMEM:
    case ISA_FMT_VOP2:
    case ISA_FMT_VOP1:
    case ISA_FMT_VOPC:
    case ISA_FMT_VOP3:
    case ISA_FMT_VOP3P:
    case ISA_FMT_VOPD:
    case ISA_FMT_DS:
    case ISA_FMT_FLAT:
    case ISA_FMT_MUBUF:
    case ISA_FMT_MTBUF: return 1;
    default: return 0;
    }
}

static int is_mem_fmt(unsigned fmt) {
    return fmt == ISA_FMT_DS || fmt == ISA_FMT_FLAT || fmt == ISA_FMT_MUBUF || fmt == ISA_FMT_MTBUF;
}

/* Whether a VALU op of this name writes all of its destination: not 16-bit and 8-bit results
 * (halves, bytes), accumulating ops (mac, dot*c), lane writes, swaps, scaled and
 * stochastic-rounding conversions. */
static int full_name(const char *nm) {
    static const char *const partial[] = {"16",   "8",    "fp4",   "mac",  "dot",
                                          "lane", "swap", "scale", "_sr_", "movrel"};
    for (size_t i = 0; i < sizeof partial / sizeof *partial; i++)
        if (strstr(nm, partial[i]))
            return 0;
    return 1;
}

/* Whether the instruction writes destination d's VGPR/AGPR rows in every active lane and keeps
 * nothing of their old contents.  Anything not known to is taken as a read of the destination:
 * full_name()'s partial and accumulating ops, smfmac and RDNA's WMMA (gfx11's 16-bit results
 * are halves; swmmac accumulates into its destination), any SDWA/DPP/modifier form, memory
 * ops but plain dword loads, and each half of a VOPD (X's op is in op, Y's in flags) by its
 * own name. */
static int full_write(const isa_inst *in, unsigned cls, const char *nm, unsigned d) {
    if (is_mem_fmt(in->fmt)) {
        const isa_mem_fields *m = &in->f.m;
        uint32_t fl = in->info ? in->info->flags : 0;
        return (fl & ISA_MF_LOAD) &&
               !(fl & (ISA_MF_D16 | ISA_MF_D16_HI | ISA_MF_LDS | ISA_MF_FORMAT | ISA_MF_ATOMIC)) &&
               !m->tfe && !m->lds;
    }
    if (strstr(nm, "wmma"))
        return 0;
    if (cls == XC_MFMA)
        return !strstr(nm, "smfmac");
    if (in->fmt == ISA_FMT_VOPD)
        return d == 0 ? full_name(nm) : in->flags < ISA_NOPS && full_name(isa_op_names[in->flags]);
    const isa_valu_fields *v = &in->f.v;
    if (in->variant >= ISA_VAR_SDWA || (v->neg | v->abs | v->neg_hi | v->opsel | v->opsel_hi) ||
        v->clamp || v->omod)
        return 0;
    return full_name(nm);
}

/* The entry prefix ends here: control flow, EXEC or vskip changes, traps, or a format the plan
 * does not model. */
static int ends_prefix(const xinst *x, const char *nm) {
    const isa_inst *in = &x->in;
    if (!modelled_fmt(in->fmt) || x->cls == XC_BRANCH)
        return 1;
    static const char *const stop[] = {"exec",     "v_cmpx", "setvskip", "s_setpc",
                                       "s_swappc", "s_call", "s_trap",   "s_rfe",
                                       "s_endpgm", "branch", "gpr_idx"};
    for (size_t i = 0; i < sizeof stop / sizeof *stop; i++)
        if (strstr(nm, stop[i]))
            return 1;
    for (unsigned d = 0; d < in->ndst && d < 2; d++)
        if (in->dst[d].kind == ISA_OPND_SREG &&
            in->dst[d].idx + (in->dst[d].n ? in->dst[d].n : 1) > ISA_SREG_EXEC_LO)
            return 1;
    return 0;
}

/* Mark the registers instruction x names; 0 when its format or dynamic indexing means no plan. */
static int names(const isa_inst *in, uint64_t ref[2][NVREG / 64 + 1], xzplan *z) {
    const char *nm = isa_op_names[in->op];
    if (!modelled_fmt(in->fmt) || strstr(nm, "movrel") || strstr(nm, "gpr_idx") ||
        (is_mem_fmt(in->fmt) && (in->f.m.tfe || in->f.m.lds)))
        return 0;
    const isa_opnd *ops[8];
    unsigned n = 0;
    for (unsigned d = 0; d < in->ndst && d < 2; d++)
        ops[n++] = &in->dst[d];
    for (unsigned i = 0; i < in->nsrc && i < 6; i++)
        ops[n++] = &in->src[i];
    for (unsigned i = 0; i < n; i++) {
        const isa_opnd *o = ops[i];
        if (is_vreg(o))
            mark(ref[o->kind == ISA_OPND_AGPR], o->idx, o->n);
        else if (o->kind == ISA_OPND_SREG) {
            unsigned last = o->idx + (o->n ? o->n : 1) - 1;
            if (last >= 128)
                z->all_sgprs = 1;
            for (unsigned c = o->idx / 16; c <= last / 16 && c < 8; c++)
                z->s_chunks |= (uint8_t)(1u << c);
        }
    }
    return 1;
}

/* The registers named by the instructions reachable from the entry (fall-through and direct
 * branch targets).  Returns -1 when some reachable instruction means no plan, 0 when control
 * leaves by an indirect jump or call (s_setpc, s_swappc, ...: the caller then takes every
 * instruction of the program), 1 when done. */
static int reachable(const xprog *p, uint32_t entry, uint64_t ref[2][NVREG / 64 + 1], xzplan *z) {
    uint32_t nw = p->code_size / 4 + 1;
    uint8_t *seen = calloc(nw, 1);
    uint32_t *stack = malloc(sizeof *stack * nw);
    int r = 1;
    if (!seen || !stack) {
        r = 0;
        goto out;
    }
    uint32_t top = 0;
    stack[top++] = entry;
    while (top && r == 1) {
        uint32_t pc = stack[--top];
        const xinst *x = pc < p->code_size && !(pc & 3) ? p->at[pc / 4] : NULL;
        if (!x || seen[pc / 4] || x->in.op == ISA_OP_ILLEGAL)
            continue; /* a pc without an instruction faults if it runs */
        seen[pc / 4] = 1;
        const isa_inst *in = &x->in;
        const char *nm = isa_op_names[in->op];
        if (!names(in, ref, z)) {
            r = -1;
            break;
        }
        if (strstr(nm, "s_setpc") || strstr(nm, "s_swappc") || strstr(nm, "s_rfe") ||
            strstr(nm, "fork") || strstr(nm, "join")) {
            r = 0;
            break;
        }
        if (strstr(nm, "s_endpgm"))
            continue;
        uint32_t next = pc + in->size;
        if (in->fmt == ISA_FMT_SOPP || in->fmt == ISA_FMT_SOPK) {
            if (in->f.s.is_branch) {
                uint32_t t = next + (uint32_t)in->f.s.offset;
                if (t < p->code_size && top < nw)
                    stack[top++] = t;
                if (strcmp(nm, "s_branch") == 0)
                    continue;
            }
        }
        if (top < nw)
            stack[top++] = next;
    }
out:
    free(seen);
    free(stack);
    return r;
}

/* One operand of an entry-prefix instruction: a read of rows not yet written makes them
 * needed; a write defines them. */
static void prefix_access(uint64_t need[2][NVREG / 64 + 1], uint64_t def[2][NVREG / 64 + 1],
                          const isa_opnd *o, int read, int write) {
    if (!is_vreg(o))
        return;
    int f = o->kind == ISA_OPND_AGPR;
    uint64_t row[NVREG / 64 + 1] = {0};
    mark(row, o->idx, o->n);
    for (unsigned k = 0; k <= NVREG / 64; k++) {
        if (read)
            need[f][k] |= row[k] & ~def[f][k];
        if (write)
            def[f][k] |= row[k];
    }
}

int x_zero_plan(const xprog *p, uint32_t entry_pc, xzplan *z) {
    memset(z, 0, sizeof *z);
    if (!p || !p->at)
        return 0;
    uint64_t ref[2][NVREG / 64 + 1] = {{0}}, def[2][NVREG / 64 + 1] = {{0}},
                                 need[2][NVREG / 64 + 1] = {{0}};
    /* Every register the kernel's code names: the instructions reachable from its entry, or
     * every instruction of the program when control flow leaves the kernel indirectly. */
    int r = reachable(p, entry_pc, ref, z);
    if (r < 0)
        return 0;
    if (r == 0) {
        memset(ref, 0, sizeof ref);
        z->all_sgprs = 0;
        z->s_chunks = 0;
        for (uint32_t i = 0; i < p->ninsts; i++)
            if (p->insts[i].in.op != ISA_OP_ILLEGAL && !names(&p->insts[i].in, ref, z))
                return 0;
    }
    /* s96-s127: FLAT_SCRATCH, XNACK_MASK, VCC, TTMPs, M0 and EXEC, which instructions read
     * without naming them (VOP2 carries and v_cndmask read VCC, LDS and s_sendmsg M0, ...). */
    z->s_chunks |= 0xc0;
    /* v0 holds the work-item ids (dp_wave_init writes all 64 lanes). */
    mark(def[0], 0, 1);
    const xinst *x = entry_pc < p->code_size && !(entry_pc & 3) ? p->at[entry_pc / 4] : NULL;
    for (; x; x = x->next) {
        const isa_inst *in = &x->in;
        if (in->op == ISA_OP_ILLEGAL)
            break;
        const char *nm = isa_op_names[in->op];
        if (ends_prefix(x, nm))
            break;
        for (unsigned s = 0; s < in->nsrc && s < 6; s++)
            prefix_access(need, def, &in->src[s], 1, 0);
        for (unsigned d = 0; d < in->ndst && d < 2; d++)
            prefix_access(need, def, &in->dst[d], !full_write(in, x->cls, nm, d), 1);
    }
    for (int f = 0; f < 2; f++)
        for (unsigned k = 0; k <= NVREG / 64; k++) {
            uint64_t zr = (ref[f][k] & ~def[f][k]) | need[f][k];
            if (f)
                z->a[k] = zr;
            else
                z->v[k] = zr;
        }
    z->ok = 1;
    return 1;
}
