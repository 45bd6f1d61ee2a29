/* counters.c - performance counters of a launch (gfx_debug_counters_enable), in the spirit of
 * rocprofv3's SQ_* counters, collected in the debug layer's stepping loop so ordinary launches
 * never pay for them.  Each counter's exact definition is in include/gfxemu.h (gfx_counters) and
 * README "Counters".
 *
 * LDS bank model (CDNA3/CDNA4; the ISA manuals' LDS chapter and AMD's CK documentation of LDS
 * bank conflicts): LDS is split into banks of 4 bytes, 32 on gfx942 and 64 on gfx950; dword
 * address A is in bank A mod banks.  A wave's DS access is served in phases of
 * banks / (dwords per lane) lanes (a ds_read_b32 on 32 banks: lanes 0-31 then 32-63; a
 * ds_read_b128: 8 lanes per phase); in a phase each bank serves one distinct dword per cycle
 * (lanes reading the same dword share it), so a phase takes as many cycles as its busiest bank
 * has distinct dwords, and every cycle beyond the first is a bank-conflict cycle.  Two-address
 * forms (read2/write2/wrxchg2, also st64) are two accesses, one per address.  The transpose loads
 * count their 8 (or 12) bytes per lane at the lane's address.  Sub-dword accesses count the
 * dword they are in.
 *
 * VMEM coalescing: per instruction, the distinct 64- and 128-byte aligned lines the active lanes'
 * [address, address + bytes) ranges touch (global/flat: as the lane addresses; buffer: the
 * resource's base + offsets, swizzling ignored).  Scratch instructions count bytes only: each
 * lane's private slice is laid out by the hardware, not by the kernel's addresses.
 */
#include <stdlib.h>
#include <string.h>

#include "debug/debug.h"

#define LANES 64

/* DS operations with two addresses (offset0/offset1 in units of the element, x64 for st64). */
static const struct {
    uint16_t op;
    uint8_t esize, st64;
} ds_two[] = {
    {ISA_OP_DS_READ2_B32, 4, 0},       {ISA_OP_DS_READ2ST64_B32, 4, 1},
    {ISA_OP_DS_READ2_B64, 8, 0},       {ISA_OP_DS_READ2ST64_B64, 8, 1},
    {ISA_OP_DS_WRITE2_B32, 4, 0},      {ISA_OP_DS_WRITE2ST64_B32, 4, 1},
    {ISA_OP_DS_WRITE2_B64, 8, 0},      {ISA_OP_DS_WRITE2ST64_B64, 8, 1},
    {ISA_OP_DS_WRXCHG2_RTN_B32, 4, 0}, {ISA_OP_DS_WRXCHG2ST64_RTN_B32, 4, 1},
    {ISA_OP_DS_WRXCHG2_RTN_B64, 8, 0}, {ISA_OP_DS_WRXCHG2ST64_RTN_B64, 8, 1},
};
/* DS operations that move no LDS data through the banks (cross-lane, counters, GWS). */
static const uint16_t ds_no_banks[] = {
    ISA_OP_DS_NOP,          ISA_OP_DS_SWIZZLE_B32, ISA_OP_DS_PERMUTE_B32,
    ISA_OP_DS_BPERMUTE_B32, ISA_OP_DS_APPEND,      ISA_OP_DS_CONSUME,
    ISA_OP_DS_GWS_INIT,     ISA_OP_DS_GWS_BARRIER, ISA_OP_DS_GWS_SEMA_V,
    ISA_OP_DS_GWS_SEMA_BR,  ISA_OP_DS_GWS_SEMA_P,  ISA_OP_DS_GWS_SEMA_RELEASE_ALL,
};

/* Dwords of register data per lane: what the instruction loads, else what it stores. */
static unsigned data_dwords(const isa_inst *in) {
    if (!in->info)
        return 1;
    unsigned n = in->ndst ? in->info->dst_n[0] : in->info->src_n[1];
    return n ? n : 1;
}

static unsigned bytes_per_lane(const isa_inst *in) {
    if (in->info && (in->info->flags & ISA_MF_D16))
        return 2;
    return 4 * data_dwords(in);
}

/* Bank-conflict cycles of one DS access: addr[l] for the lanes in `lanes`, `dw` dwords each. */
static uint64_t bank_cycles(const uint32_t *addr, uint64_t lanes, unsigned dw, unsigned banks) {
    unsigned per_phase = banks / dw ? banks / dw : 1;
    uint64_t conflicts = 0;
    uint32_t seen[LANES * 4];
    for (unsigned p0 = 0; p0 < LANES; p0 += per_phase) {
        unsigned count[64] = {0}, nseen = 0, worst = 0;
        for (unsigned l = p0; l < p0 + per_phase && l < LANES; l++) {
            if (!(lanes >> l & 1))
                continue;
            for (unsigned k = 0; k < dw; k++) {
                uint32_t d = addr[l] / 4 + k;
                int dup = 0;
                for (unsigned i = 0; i < nseen && !dup; i++)
                    dup = seen[i] == d;
                if (dup)
                    continue; /* a broadcast: the bank reads that dword once */
                seen[nseen++] = d;
                unsigned c = ++count[d % banks];
                worst = c > worst ? c : worst;
            }
        }
        if (worst > 1)
            conflicts += worst - 1;
    }
    return conflicts;
}

static void count_ds(gfx_debug_session *s, const wave *w, const xinst *x, uint64_t exec) {
    const isa_inst *in = &x->in;
    gfx_counters *c = &s->ctr;
    for (size_t i = 0; i < sizeof ds_no_banks / sizeof ds_no_banks[0]; i++)
        if (in->op == ds_no_banks[i])
            return;
    if (in->src[0].kind != ISA_OPND_VGPR)
        return;
    unsigned banks = s->d && s->d->arch == GFX_ARCH_GFX950 ? 64 : 32;
    uint32_t addr[LANES];
    const uint32_t *va = w->v[in->src[0].idx];
    for (size_t i = 0; i < sizeof ds_two / sizeof ds_two[0]; i++) {
        if (in->op != ds_two[i].op)
            continue;
        unsigned mul = ds_two[i].esize * (ds_two[i].st64 ? 64 : 1);
        unsigned dw = ds_two[i].esize / 4;
        for (int half = 0; half < 2; half++) {
            uint32_t off = (half ? in->f.m.offset1 : in->f.m.offset0) * mul;
            for (unsigned l = 0; l < LANES; l++)
                addr[l] = va[l] + off;
            c->lds_bank_conflict += bank_cycles(addr, exec, dw, banks);
        }
        c->lds_bytes += (uint64_t)__builtin_popcountll(exec) * 2 * ds_two[i].esize;
        return;
    }
    unsigned dw = data_dwords(in);
    for (unsigned l = 0; l < LANES; l++)
        addr[l] = va[l] + (uint32_t)in->f.m.offset;
    c->lds_bank_conflict += bank_cycles(addr, exec, dw, banks);
    c->lds_bytes += (uint64_t)__builtin_popcountll(exec) * bytes_per_lane(in);
}

static void count_one(gfx_debug_session *s, const wave *w, const xinst *x, uint64_t exec);

static int cmp_u64(const void *a, const void *b) {
    uint64_t x = *(const uint64_t *)a, y = *(const uint64_t *)b;
    return x < y ? -1 : x > y;
}

/* Distinct `line`-byte lines touched by [a[l], a[l] + n) of the active lanes. */
static uint64_t lines(const uint64_t *a, uint64_t exec, unsigned n, unsigned line) {
    uint64_t ids[LANES * 2];
    unsigned k = 0;
    for (unsigned l = 0; l < LANES; l++) {
        if (!(exec >> l & 1))
            continue;
        ids[k++] = a[l] / line;
        if ((a[l] + n - 1) / line != a[l] / line)
            ids[k++] = (a[l] + n - 1) / line;
    }
    qsort(ids, k, sizeof ids[0], cmp_u64);
    uint64_t distinct = 0;
    for (unsigned i = 0; i < k; i++)
        distinct += i == 0 || ids[i] != ids[i - 1];
    return distinct;
}

static void count_vmem(gfx_debug_session *s, const wave *w, const xinst *x, uint64_t exec) {
    const isa_inst *in = &x->in;
    const isa_mem_fields *m = &in->f.m;
    gfx_counters *c = &s->ctr;
    uint32_t flags = in->info ? in->info->flags : 0;
    if (flags & ISA_MF_LOAD)
        c->vmem_rd++;
    if (flags & (ISA_MF_STORE | ISA_MF_ATOMIC))
        c->vmem_wr++;
    unsigned n = bytes_per_lane(in);
    uint64_t active = (uint64_t)__builtin_popcountll(exec);
    c->vmem_bytes += active * n;
    const isa_opnd *va = &in->src[0], *sa = &in->src[3];
    uint64_t a[LANES];
    if (in->fmt == ISA_FMT_FLAT) {
        if (m->seg == 1) { /* scratch */
            c->scratch_bytes += active * n;
            return;
        }
        for (unsigned l = 0; l < LANES; l++) {
            uint64_t v = va->kind == ISA_OPND_VGPR ? w->v[va->idx][l] : 0;
            if (sa->kind == ISA_OPND_SREG)
                a[l] = (w->s[sa->idx] | (uint64_t)w->s[sa->idx + 1] << 32) + v;
            else if (va->kind == ISA_OPND_VGPR)
                a[l] = v | (uint64_t)w->v[va->idx + 1][l] << 32;
            else
                a[l] = 0;
            a[l] += (uint64_t)(int64_t)m->offset;
        }
    } else if (in->fmt == ISA_FMT_MUBUF || in->fmt == ISA_FMT_MTBUF) {
        if (sa->kind != ISA_OPND_SREG)
            return;
        const uint32_t *r = &w->s[sa->idx];
        uint64_t base = r[0] | (uint64_t)(r[1] & 0xffff) << 32;
        uint32_t stride = r[1] >> 16 & 0x3fff;
        const isa_opnd *so = &in->src[4];
        uint64_t soff = so->kind == ISA_OPND_SREG ? w->s[so->idx] : x->k[4];
        for (unsigned l = 0; l < LANES; l++) {
            uint64_t idx = 0, off = 0;
            if (va->kind == ISA_OPND_VGPR) {
                if (m->idxen)
                    idx = w->v[va->idx][l];
                if (m->offen)
                    off = w->v[va->idx + (m->idxen ? 1 : 0)][l];
            }
            a[l] = base + soff + (uint32_t)m->offset + off + idx * stride;
        }
    } else {
        return;
    }
    c->vmem_lines_64 += lines(a, exec, n, 64);
    c->vmem_lines_128 += lines(a, exec, n, 128);
}

void dbg_count_inst(gfx_debug_session *s, const wave *w, const xinst *x) {
    gfx_counters *c = &s->ctr;
    uint64_t exec = wave_exec(w);
    uint64_t bytes0 = c->lds_bytes + c->vmem_bytes + c->scratch_bytes;
    uint64_t conflicts0 = c->lds_bank_conflict;
    count_one(s, w, x, exec);
    if (s->prof_detail && w->pc / 4 < s->prof_n) {
        uint64_t *d = s->prof_detail[w->pc / 4];
        d[0] += (uint64_t)__builtin_popcountll(exec);
        d[1] += c->lds_bytes + c->vmem_bytes + c->scratch_bytes - bytes0;
        d[2] += c->lds_bank_conflict - conflicts0;
    }
}

static void count_one(gfx_debug_session *s, const wave *w, const xinst *x, uint64_t exec) {
    gfx_counters *c = &s->ctr;
    c->insts++;
    switch (x->cls) {
    case XC_SALU: c->salu++; break;
    case XC_SMEM: c->smem++; break;
    case XC_BRANCH: c->branch++; break;
    case XC_MFMA: /* an MFMA is a VALU instruction too: SQ_INSTS_VALU counts it */
    case XC_VALU:
        c->mfma += x->cls == XC_MFMA;
        c->valu++;
        c->valu_active_lanes += (uint64_t)__builtin_popcountll(exec);
        break;
    case XC_LDS:
        c->lds++;
        count_ds(s, w, x, exec);
        break;
    case XC_VMEM:
        c->vmem++;
        count_vmem(s, w, x, exec);
        break;
    default: break;
    }
}
