/* trace.c - one line per executed wave-instruction (gfx_trace_options.trace_path):
 *
 *   wg 0,0,0 wave 0 pc 0x1910 exec 0x000000000000ffff  v_add_u32_e32 v1, s4, v0 | v1={...}
 *
 * The registers listed are the instruction's destination operands (their new values in the
 * lanes of EXEC as it was before the instruction) plus any scalar register or SCC whose value
 * changed without being a named destination (implicit VCC, EXEC and SCC writes).
 */
#include <string.h>

#include "debug/debug.h"

int dbg_trace_wants(const gfx_debug_session *s, const wave *w, uint32_t pc) {
    const gfx_trace_options *o = &s->topt;
    if (o->trace_limit && s->trace_lines >= o->trace_limit)
        return 0;
    if (!(o->trace_workgroup[0] < 0 && o->trace_workgroup[1] < 0 && o->trace_workgroup[2] < 0))
        for (int i = 0; i < 3; i++)
            if (o->trace_workgroup[i] >= 0 && (uint64_t)o->trace_workgroup[i] != w->wg_id[i])
                return 0;
    if (o->trace_wave >= 0 && (uint64_t)o->trace_wave != w->wave_id)
        return 0;
    uint64_t addr = w->prog->code_va + pc;
    if (o->trace_pc_hi && (addr < o->trace_pc_lo || addr >= o->trace_pc_hi))
        return 0;
    return 1;
}

/* The name LLVM prints for scalar register encoding i (one dword). */
static void sreg_name(unsigned i, char *buf, size_t n) {
    static const char *const named[] = {"flat_scratch_lo", "flat_scratch_hi", "xnack_mask_lo",
                                        "xnack_mask_hi",   "vcc_lo",          "vcc_hi"};
    if (i < ISA_SREG_FLAT_SCRATCH_LO)
        snprintf(buf, n, "s%u", i);
    else if (i < ISA_SREG_TTMP0)
        snprintf(buf, n, "%s", named[i - ISA_SREG_FLAT_SCRATCH_LO]);
    else if (i < ISA_SREG_M0)
        snprintf(buf, n, "ttmp%u", i - ISA_SREG_TTMP0);
    else if (i == ISA_SREG_M0)
        snprintf(buf, n, "m0");
    else if (i == ISA_SREG_EXEC_LO || i == ISA_SREG_EXEC_HI)
        snprintf(buf, n, "exec_%s", i == ISA_SREG_EXEC_LO ? "lo" : "hi");
    else
        snprintf(buf, n, "s?%u", i);
}

/* Scalar registers [i, i+n): exec/vcc pairs as one 64-bit value. */
static void put_sregs(FILE *f, const uint32_t *s, unsigned i, unsigned n) {
    char name[32];
    for (unsigned r = i; r < i + n && r < NSREG; r++) {
        if ((r == ISA_SREG_VCC_LO || r == ISA_SREG_EXEC_LO) && r + 1 < i + n) {
            fprintf(f, " %s=0x%016llx", r == ISA_SREG_VCC_LO ? "vcc" : "exec",
                    (unsigned long long)(s[r] | (uint64_t)s[r + 1] << 32));
            r++;
            continue;
        }
        sreg_name(r, name, sizeof name);
        fprintf(f, " %s=0x%08x", name, s[r]);
    }
}

static void put_vreg(FILE *f, char file, unsigned r, const uint32_t *lanes, uint64_t exec) {
    fprintf(f, " %c%u={", file, r);
    int first = 1;
    for (unsigned l = 0; l < LANES; l++) {
        if (!(exec >> l & 1))
            continue;
        fprintf(f, first ? "%x" : " %x", lanes[l]);
        first = 0;
    }
    fputc('}', f);
}

void dbg_trace_inst(gfx_debug_session *s, const wave *w, const xinst *x, uint32_t pc, uint64_t exec,
                    const uint32_t *before, uint32_t scc_before) {
    FILE *f = s->trace;
    char text[GFX_DISASM_MAX];
    if (!xinst_print(x, text, sizeof text) || !x->in.op)
        snprintf(text, sizeof text, "<illegal 0x%08x>", x->in.w[0]);
    fprintf(f, "wg %u,%u,%u wave %u pc 0x%llx exec 0x%016llx  %s |", w->wg_id[0], w->wg_id[1],
            w->wg_id[2], w->wave_id, (unsigned long long)(w->prog->code_va + pc),
            (unsigned long long)exec, text);
    uint8_t named[NSREG] = {0};
    /* A wave32 RDNA program keeps EXEC_HI in the slot XS_EXEC_HI32 (s[127] gates lanes 32-63
     * and stays 0; src/exec/rdna.c): show the slot as exec_hi, and not the engine's slots */
    uint32_t cur[NSREG], prev[NSREG];
    const uint32_t *sv = w->s, *bv = before;
    if (w->prog->wave32) {
        memcpy(cur, w->s, sizeof cur);
        memcpy(prev, before, sizeof prev);
        cur[ISA_SREG_EXEC_HI] = cur[XS_EXEC_HI32], prev[ISA_SREG_EXEC_HI] = prev[XS_EXEC_HI32];
        for (unsigned r = XS_EXEC_HI32; r <= XS_EXEC64_W32 + 1; r++)
            cur[r] = prev[r];
        sv = cur, bv = prev;
    }
    for (unsigned d = 0; d < x->in.ndst && d < 2; d++) {
        const isa_opnd *o = &x->in.dst[d];
        unsigned n = o->n ? o->n : 1, idx = o->idx == XS_EXEC_HI32 ? ISA_SREG_EXEC_HI : o->idx;
        if (o->kind == ISA_OPND_SREG) {
            if (idx == 125) /* null */
                continue;
            put_sregs(f, sv, idx, n);
            for (unsigned r = idx; r < idx + n && r < NSREG; r++)
                named[r] = 1;
        } else if (o->kind == ISA_OPND_VGPR || o->kind == ISA_OPND_AGPR) {
            unsigned base = o->idx;
            /* s_set_gpr_idx_on with the dst bit (M0[15]) moved a VALU destination by M0[7:0] */
            if (d == 0 && o->kind == ISA_OPND_VGPR && w->gpr_idx_on && x->cls == XC_VALU &&
                (w->s[ISA_SREG_M0] >> 15 & 1))
                base += w->s[ISA_SREG_M0] & 0xff;
            for (unsigned r = base; r < base + n && r < NVREG; r++)
                put_vreg(f, o->kind == ISA_OPND_VGPR ? 'v' : 'a', r,
                         o->kind == ISA_OPND_VGPR ? w->v[r] : w->a[r], exec);
        }
    }
    for (unsigned r = 0; r < NSREG; r++) {
        if (named[r] || sv[r] == bv[r])
            continue;
        unsigned n = (r == ISA_SREG_VCC_LO || r == ISA_SREG_EXEC_LO) ? 2 : 1;
        if (r == ISA_SREG_VCC_HI || r == ISA_SREG_EXEC_HI) /* the high half changed alone */
            r--, n = 2;
        put_sregs(f, sv, r, n);
        r += n - 1;
    }
    if (w->scc != scc_before)
        fprintf(f, " scc=%u", w->scc);
    fputc('\n', f);
    if (++s->trace_lines == s->topt.trace_limit)
        fprintf(f, "# trace limit of %llu lines reached\n",
                (unsigned long long)s->topt.trace_limit);
}
