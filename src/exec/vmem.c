/* vmem.c - vector memory: FLAT, GLOBAL, SCRATCH and MUBUF loads, stores and atomics (CDNA3/CDNA4
 * ISA "Flat, global and scratch memory operations", "Vector memory buffer instructions").
 *
 * One per-lane engine serves every format; a format only says how a lane's address is formed
 * and how much of the access is inside the buffer (lane_ref).  Out-of-range buffer accesses
 * (past num_records) read 0 and drop stores, as the hardware does; every access that is in range
 * still goes through the bounds-checked address space, so a huge num_records can never reach
 * host memory outside the allocations.
 *
 * Decoded slots (src/isa/isa.h, isa_mem_fields): dst[0] = vdst, src[0] = vaddr (NONE for `off`),
 * src[1] = data, src[3] = saddr; f.m.offset is sign-extended for global/scratch, f.m.seg says
 * which of the three it is, f.m.sve = scratch with a VGPR address, f.m.sc0 = return the pre-op
 * value of an atomic.
 *
 * Address spaces.  A FLAT address whose high dword names the shared or private aperture goes to
 * the workgroup's LDS or the lane's private memory; anything else is a global address, checked
 * against the allocations.  Private memory is laid out the way the hardware's swizzled scratch
 * buffer is (dword i of lane L at (i * 64 + L) * 4), so scratch_*, flat-private and buffer
 * accesses through the private segment descriptor all see the same bytes. */
#include "exec/exec.h"
#include "exec/xatomic.h"

#include <string.h>

typedef uint32_t u32;
typedef uint64_t u64;

enum { SP_GLOBAL, SP_LDS, SP_PRIVATE };

static uint32_t (*vrow(wave *w, const isa_opnd *o))[LANES]
{
    return o->kind == ISA_OPND_AGPR ? &w->a[o->idx] : &w->v[o->idx];
}

typedef struct {
    int space;
    u64 a;     /* address in that space */
    u64 avail; /* bytes from a that are inside the buffer (buffers); UINT64_MAX otherwise */
} lane_ref;
typedef lane_ref (*ref_fn)(const wave *w, const xinst *x, unsigned l);

/* Byte address of lane l's access (before aperture routing), and its space. */
static u64 lane_addr(const wave *w, const xinst *x, unsigned l, int *space)
{
    const isa_mem_fields *m = &x->in.f.m;
    const isa_opnd *va = &x->in.src[0], *sa = &x->in.src[3];
    if (m->seg == 1) { /* scratch: a per-lane offset into private memory */
        u64 o = (u64)(int64_t)m->offset;
        if (sa->kind == ISA_OPND_SREG)
            o += w->s[sa->idx];
        if (va->kind == ISA_OPND_VGPR)
            o += w->v[va->idx][l];
        *space = SP_PRIVATE;
        return (u32)o;
    }
    u64 a;
    if (sa->kind == ISA_OPND_SREG) /* global with saddr: SGPR pair + 32-bit VGPR offset */
        a = (w->s[sa->idx] | (u64)w->s[sa->idx + 1] << 32) + w->v[va->idx][l];
    else
        a = w->v[va->idx][l] | (u64)w->v[va->idx + 1][l] << 32;
    a += (u64)(int64_t)m->offset;
    *space = SP_GLOBAL;
    if (m->seg == 0) {
        u64 hi = a >> 32;
        if (hi == GMEM_SHARED_APERTURE >> 32) {
            *space = SP_LDS;
            return (u32)a;
        }
        if (hi == GMEM_PRIVATE_APERTURE >> 32) {
            *space = SP_PRIVATE;
            return (u32)a;
        }
    }
    return a;
}

static lane_ref flat_ref(const wave *w, const xinst *x, unsigned l)
{
    lane_ref r;
    r.a = lane_addr(w, x, l, &r.space);
    r.avail = UINT64_MAX;
    return r;
}

/* MUBUF: the buffer resource (V#) in four SGPRs: base [47:0], stride [61:48], swizzle_en [63],
 * num_records [95:64], add_tid_enable [119].  index = idxen VGPR (+ lane with add_tid), offset =
 * offen VGPR + instruction offset; address = base + soffset + offset + stride * index.  Range:
 * raw buffers (stride 0) check offset against num_records in bytes, structured ones check index
 * against num_records in records. */
static lane_ref buf_ref(const wave *w, const xinst *x, unsigned l)
{
    const isa_mem_fields *m = &x->in.f.m;
    const u32 *rs = &w->s[x->in.src[3].idx];
    u64 base = rs[0] | (u64)(rs[1] & 0xffff) << 32;
    u32 stride = (rs[1] >> 16) & 0x3fff, num = rs[2];
    const isa_opnd *va = &x->in.src[0];
    u32 index = 0, offset = (u32)m->offset;
    unsigned vi = 0;
    if (m->idxen)
        index = w->v[va->idx + vi++][l];
    if (m->offen)
        offset += w->v[va->idx + vi][l];
    if ((rs[3] >> 23) & 1)
        index += l;
    lane_ref r = {SP_GLOBAL, 0, 0};
    u64 soff = x_s32(w, x, 4);
    r.a = base + soff + offset + (u64)stride * index;
    if (stride == 0)
        r.avail = offset < num ? (u64)num - offset : 0;
    else
        r.avail = index < num ? UINT64_MAX : 0;
    return r;
}

/* Copy between registers and memory for one lane.  Returns 0, or -1 when the access is out of
 * range (the caller raises the fault). */
static int lane_access(wave *w, int space, u64 a, void *buf, unsigned size, int write, unsigned lane)
{
    uint8_t *b = buf;
    switch (space) {
    case SP_GLOBAL: {
        uint8_t *p = gmem_xlate(w->mem, &w->cache, a, size);
        if (!p)
            return -1;
        if (write)
            memcpy(p, b, size);
        else
            memcpy(b, p, size);
        return 0;
    }
    case SP_LDS:
        if (a + size > w->lds_size)
            return -1;
        if (write)
            memcpy(w->lds + a, b, size);
        else
            memcpy(b, w->lds + a, size);
        return 0;
    default:
        if (a + size > w->scratch_lane)
            return -1;
        for (unsigned i = 0; i < size; i++) {
            u64 o = a + i;
            uint8_t *p = w->scratch + ((o >> 2) * LANES + lane) * 4 + (o & 3);
            if (write)
                *p = b[i];
            else
                b[i] = *p;
        }
        return 0;
    }
}

/* Data conversions between the memory value and the 32-bit register. */
enum { K_DW, K_UB, K_SB, K_US, K_SS, K_D16_UB, K_D16_SB, K_D16_S, K_D16HI_UB, K_D16HI_SB, K_D16HI_S,
       K_ST_B, K_ST_S, K_ST_BHI, K_ST_SHI };

/* Variants not modelled yet stop the wave by name instead of doing something else: loads into
 * LDS (lds bit), texture-fail returns (tfe) and swizzled buffers. */
static int unsupported(wave *w, const xinst *x, ref_fn ref)
{
    const isa_mem_fields *m = &x->in.f.m;
    int swizzled = ref == buf_ref && (w->s[x->in.src[3].idx + 1] >> 31);
    if (m->lds || m->tfe || swizzled) {
        wave_fault(w, x, XF_UNIMPLEMENTED);
        return 1;
    }
    return 0;
}

/* Fast path for the common case of FLAT/GLOBAL dword accesses: when every active lane's access
 * lies inside the allocation the wave's translation cache holds (each lane is checked against
 * it, so the access stays bounds-checked), the lanes are copied without per-lane calls or
 * variable-size copies.  Anything else (another allocation, the LDS/private apertures, a lane
 * out of range) returns 0 before touching a register or memory, and the general loop below does
 * the access and raises any fault exactly as it always does.  Profile: the per-lane loop was
 * about half of an elementwise kernel's time (docs/perf.md). */
static int vmem_fast(wave *w, const xinst *x, unsigned ndw, int store)
{
    const isa_mem_fields *m = &x->in.f.m;
    const isa_opnd *va = &x->in.src[0], *sa = &x->in.src[3];
    u64 exec = wave_exec(w), a[LANES];
    if (m->seg == 1 || !exec || va->kind != ISA_OPND_VGPR)
        return 0;
    u64 off = (u64)(int64_t)m->offset;
    const u32 *lo = w->v[va->idx];
    if (sa->kind == ISA_OPND_SREG) {
        u64 base = (w->s[sa->idx] | (u64)w->s[sa->idx + 1] << 32) + off;
        for (unsigned l = 0; l < LANES; l++)
            a[l] = base + lo[l];
    } else { /* no saddr: a 64-bit VGPR pair, as lane_addr() reads it */
        if (va->idx + 1 >= NVREG)
            return 0;
        const u32 *hi = w->v[va->idx + 1];
        for (unsigned l = 0; l < LANES; l++)
            a[l] = (lo[l] | (u64)hi[l] << 32) + off;
    }
    unsigned size = 4 * ndw;
    gmem_cache *c = &w->cache;
    if (c->size < size || a[__builtin_ctzll(exec)] - c->base > c->size - size)
        if (!gmem_xlate(w->mem, c, a[__builtin_ctzll(exec)], size)) /* refill the cache */
            return 0;
    /* A flat address in an aperture goes to LDS or scratch, never to an allocation. */
    if (m->seg == 0 && c->base < GMEM_PRIVATE_APERTURE + GMEM_APERTURE_SIZE &&
        c->base + c->size > GMEM_SHARED_APERTURE)
        return 0;
    /* Largest offset of an active lane (inactive ones count as 0; an address below the base
     * wraps to a huge offset): branch-free, so it vectorizes. */
    u64 worst = 0;
    for (unsigned l = 0; l < LANES; l++) {
        u64 o = (a[l] - c->base) & ((u64)0 - ((exec >> l) & 1));
        worst = o > worst ? o : worst;
    }
    if (worst > c->size - size)
        return 0;
    uint8_t *h = c->host - c->base;
    uint32_t(*r)[LANES] = store ? vrow(w, &x->in.src[1]) : vrow(w, &x->in.dst[0]);
    /* One fixed-size copy per lane (N dwords are contiguous in memory, N lane arrays apart in
     * the registers). */
#define FAST_COPY(N)                                                                               \
    for (unsigned l = 0; l < LANES; l++) {                                                         \
        if (!((exec >> l) & 1))                                                                    \
            continue;                                                                              \
        u32 t[N];                                                                                  \
        if (store) {                                                                               \
            for (unsigned i = 0; i < N; i++)                                                       \
                t[i] = r[i][l];                                                                    \
            memcpy(h + a[l], t, 4 * N);                                                            \
        } else {                                                                                   \
            memcpy(t, h + a[l], 4 * N);                                                            \
            for (unsigned i = 0; i < N; i++)                                                       \
                r[i][l] = t[i];                                                                    \
        }                                                                                          \
    }
    switch (ndw) {
    case 1: FAST_COPY(1) break;
    case 2: FAST_COPY(2) break;
    case 3: FAST_COPY(3) break;
    default: FAST_COPY(4) break;
    }
#undef FAST_COPY
    return 1;
}

static void vmem_load(wave *w, const xinst *x, unsigned kind, unsigned ndw, ref_fn ref)
{
    if (unsupported(w, x, ref))
        return;
    if (ref == flat_ref && kind == K_DW && vmem_fast(w, x, ndw, 0))
        return;
    u64 exec = wave_exec(w);
    uint32_t(*d)[LANES] = vrow(w, &x->in.dst[0]);
    unsigned size = kind == K_DW ? 4 * ndw : (kind == K_US || kind == K_SS || kind == K_D16_S || kind == K_D16HI_S) ? 2 : 1;
    for (unsigned l = 0; l < LANES; l++) {
        if (!((exec >> l) & 1))
            continue;
        lane_ref r = ref(w, x, l);
        u32 buf[4] = {0, 0, 0, 0};
        /* Buffers check each dword on its own: a partly out-of-range load reads 0 there. */
        unsigned inside = r.avail >= size ? size : kind == K_DW ? (unsigned)(r.avail / 4) * 4 : 0;
        if (inside && lane_access(w, r.space, r.a, buf, inside, 0, l)) {
            wave_mem_fault(w, x, r.a, size, 0);
            w->fault.lanes |= 1ull << l;
            return;
        }
        u32 v = buf[0], old = d[0][l];
        switch (kind) {
        case K_DW:
            for (unsigned i = 0; i < ndw; i++)
                d[i][l] = buf[i];
            continue;
        case K_UB: v = (uint8_t)v; break;
        case K_SB: v = (u32)(int32_t)(int8_t)v; break;
        case K_US: v = (uint16_t)v; break;
        case K_SS: v = (u32)(int32_t)(int16_t)v; break;
        /* d16 loads replace one half of the register and keep the other. */
        case K_D16_UB: v = (old & 0xffff0000u) | (uint8_t)v; break;
        case K_D16_SB: v = (old & 0xffff0000u) | (uint16_t)(int16_t)(int8_t)v; break;
        case K_D16_S: v = (old & 0xffff0000u) | (uint16_t)v; break;
        case K_D16HI_UB: v = (old & 0xffffu) | (u32)(uint8_t)v << 16; break;
        case K_D16HI_SB: v = (old & 0xffffu) | (u32)(uint16_t)(int16_t)(int8_t)v << 16; break;
        case K_D16HI_S: v = (old & 0xffffu) | (u32)(uint16_t)v << 16; break;
        }
        d[0][l] = v;
    }
}

static void vmem_store(wave *w, const xinst *x, unsigned kind, unsigned ndw, ref_fn ref)
{
    if (unsupported(w, x, ref))
        return;
    if (ref == flat_ref && kind == K_DW && vmem_fast(w, x, ndw, 1))
        return;
    u64 exec = wave_exec(w);
    uint32_t(*s)[LANES] = vrow(w, &x->in.src[1]);
    for (unsigned l = 0; l < LANES; l++) {
        if (!((exec >> l) & 1))
            continue;
        lane_ref r = ref(w, x, l);
        u32 buf[4];
        unsigned size = 4 * ndw;
        for (unsigned i = 0; i < ndw; i++)
            buf[i] = s[i][l];
        switch (kind) {
        case K_ST_B: size = 1; break;
        case K_ST_S: size = 2; break;
        case K_ST_BHI: buf[0] >>= 16; size = 1; break;
        case K_ST_SHI: buf[0] >>= 16; size = 2; break;
        }
        if (r.avail < size) /* buffer: the in-range dwords are written, the rest dropped */
            size = ndw > 1 ? (unsigned)(r.avail / 4) * 4 : 0;
        if (size && lane_access(w, r.space, r.a, buf, size, 1, l)) {
            wave_mem_fault(w, x, r.a, size, 1);
            w->fault.lanes |= 1ull << l;
            return;
        }
    }
}

/* Atomics.  Global memory uses host atomics (workgroups run on several threads); LDS and
 * private memory belong to one thread, so plain read-modify-write is exact there. */
static void vmem_atomic(wave *w, const xinst *x, int op, int is64, ref_fn ref)
{
    if (unsupported(w, x, ref))
        return;
    u64 exec = wave_exec(w);
    unsigned size = is64 ? 8 : 4, ndw = is64 ? 2 : 1;
    uint32_t(*s)[LANES] = vrow(w, &x->in.src[1]);
    int ret = x->in.ndst && x->in.dst[0].kind != ISA_OPND_NONE;
    uint32_t(*d)[LANES] = ret ? vrow(w, &x->in.dst[0]) : NULL;
    for (unsigned l = 0; l < LANES; l++) {
        if (!((exec >> l) & 1))
            continue;
        lane_ref r = ref(w, x, l);
        int sp = r.space;
        u64 a = r.a;
        if (r.avail < size) { /* out-of-range buffer atomic: no access, returns 0 */
            if (ret)
                for (unsigned i = 0; i < ndw; i++)
                    d[i][l] = 0;
            continue;
        }
        u64 v = s[0][l] | (is64 ? (u64)s[1][l] << 32 : 0);
        u64 cmp = 0;
        if (op == XA_CMPSWAP)
            cmp = is64 ? (s[2][l] | (u64)s[3][l] << 32) : s[1][l];
        u64 old = 0;
        if (a & (size - 1)) {
            wave_mem_fault(w, x, a, size, 1);
            w->fault.lanes |= 1ull << l;
            return;
        }
        if (sp == SP_GLOBAL) {
            void *p = gmem_xlate(w->mem, &w->cache, a, size);
            if (!p) {
                wave_mem_fault(w, x, a, size, 1);
                w->fault.lanes |= 1ull << l;
                return;
            }
            old = x_atomic_rmw(p, op, v, cmp, is64);
        } else {
                if (lane_access(w, sp, a, &old, size, 0, l)) {
                wave_mem_fault(w, x, a, size, 1);
                w->fault.lanes |= 1ull << l;
                return;
            }
            u64 nv = x_atomic_apply(op, old, v, cmp, is64);
            lane_access(w, sp, a, &nv, size, 1, l);
        }
        if (ret)
            for (unsigned i = 0; i < ndw; i++)
                d[i][l] = (u32)(old >> (32 * i));
    }
}

#define LOADS(pfx, ref)                                                                                 \
    static void pfx##_load_dword(wave *w, const xinst *x) { vmem_load(w, x, K_DW, 1, ref); }            \
    static void pfx##_load_dwordx2(wave *w, const xinst *x) { vmem_load(w, x, K_DW, 2, ref); }          \
    static void pfx##_load_dwordx3(wave *w, const xinst *x) { vmem_load(w, x, K_DW, 3, ref); }          \
    static void pfx##_load_dwordx4(wave *w, const xinst *x) { vmem_load(w, x, K_DW, 4, ref); }          \
    static void pfx##_load_ubyte(wave *w, const xinst *x) { vmem_load(w, x, K_UB, 1, ref); }            \
    static void pfx##_load_sbyte(wave *w, const xinst *x) { vmem_load(w, x, K_SB, 1, ref); }            \
    static void pfx##_load_ushort(wave *w, const xinst *x) { vmem_load(w, x, K_US, 1, ref); }           \
    static void pfx##_load_sshort(wave *w, const xinst *x) { vmem_load(w, x, K_SS, 1, ref); }           \
    static void pfx##_load_ubyte_d16(wave *w, const xinst *x) { vmem_load(w, x, K_D16_UB, 1, ref); }    \
    static void pfx##_load_sbyte_d16(wave *w, const xinst *x) { vmem_load(w, x, K_D16_SB, 1, ref); }    \
    static void pfx##_load_short_d16(wave *w, const xinst *x) { vmem_load(w, x, K_D16_S, 1, ref); }     \
    static void pfx##_load_ubyte_d16_hi(wave *w, const xinst *x) { vmem_load(w, x, K_D16HI_UB, 1, ref); } \
    static void pfx##_load_sbyte_d16_hi(wave *w, const xinst *x) { vmem_load(w, x, K_D16HI_SB, 1, ref); } \
    static void pfx##_load_short_d16_hi(wave *w, const xinst *x) { vmem_load(w, x, K_D16HI_S, 1, ref); } \
    static void pfx##_store_dword(wave *w, const xinst *x) { vmem_store(w, x, K_DW, 1, ref); }          \
    static void pfx##_store_dwordx2(wave *w, const xinst *x) { vmem_store(w, x, K_DW, 2, ref); }        \
    static void pfx##_store_dwordx3(wave *w, const xinst *x) { vmem_store(w, x, K_DW, 3, ref); }        \
    static void pfx##_store_dwordx4(wave *w, const xinst *x) { vmem_store(w, x, K_DW, 4, ref); }        \
    static void pfx##_store_byte(wave *w, const xinst *x) { vmem_store(w, x, K_ST_B, 1, ref); }         \
    static void pfx##_store_short(wave *w, const xinst *x) { vmem_store(w, x, K_ST_S, 1, ref); }        \
    static void pfx##_store_byte_d16_hi(wave *w, const xinst *x) { vmem_store(w, x, K_ST_BHI, 1, ref); } \
    static void pfx##_store_short_d16_hi(wave *w, const xinst *x) { vmem_store(w, x, K_ST_SHI, 1, ref); }
LOADS(flat, flat_ref)
LOADS(global, flat_ref)
LOADS(scratch, flat_ref)
LOADS(buffer, buf_ref)

#define ATOM(pfx, name, op, is64, ref)                                                                  \
    static void pfx##_atomic_##name(wave *w, const xinst *x) { vmem_atomic(w, x, op, is64, ref); }
#define ATOMS(pfx, ref)                                                                                 \
    ATOM(pfx, add, XA_ADD, 0, ref) ATOM(pfx, add_x2, XA_ADD, 1, ref) ATOM(pfx, sub, XA_SUB, 0, ref)                  \
    ATOM(pfx, sub_x2, XA_SUB, 1, ref) ATOM(pfx, swap, XA_SWAP, 0, ref) ATOM(pfx, swap_x2, XA_SWAP, 1, ref)           \
    ATOM(pfx, cmpswap, XA_CMPSWAP, 0, ref) ATOM(pfx, cmpswap_x2, XA_CMPSWAP, 1, ref)                           \
    ATOM(pfx, smin, XA_SMIN, 0, ref) ATOM(pfx, smin_x2, XA_SMIN, 1, ref) ATOM(pfx, umin, XA_UMIN, 0, ref)            \
    ATOM(pfx, umin_x2, XA_UMIN, 1, ref) ATOM(pfx, smax, XA_SMAX, 0, ref) ATOM(pfx, smax_x2, XA_SMAX, 1, ref)         \
    ATOM(pfx, umax, XA_UMAX, 0, ref) ATOM(pfx, umax_x2, XA_UMAX, 1, ref) ATOM(pfx, and, XA_AND, 0, ref)              \
    ATOM(pfx, and_x2, XA_AND, 1, ref) ATOM(pfx, or, XA_OR, 0, ref) ATOM(pfx, or_x2, XA_OR, 1, ref)                   \
    ATOM(pfx, xor, XA_XOR, 0, ref) ATOM(pfx, xor_x2, XA_XOR, 1, ref) ATOM(pfx, inc, XA_INC, 0, ref)                  \
    ATOM(pfx, inc_x2, XA_INC, 1, ref) ATOM(pfx, dec, XA_DEC, 0, ref) ATOM(pfx, dec_x2, XA_DEC, 1, ref)               \
    ATOM(pfx, add_f32, XA_FADD, 0, ref) ATOM(pfx, add_f64, XA_FADD, 1, ref)                                \
    ATOM(pfx, min_f64, XA_FMIN, 1, ref) ATOM(pfx, max_f64, XA_FMAX, 1, ref)                                \
    ATOM(pfx, pk_add_f16, XA_PK_ADD_F16, 0, ref) ATOM(pfx, pk_add_bf16, XA_PK_ADD_BF16, 0, ref)
ATOMS(flat, flat_ref)
ATOMS(global, flat_ref)
ATOMS(buffer, buf_ref)

#define H(OP, fn) {ISA_OP_##OP, XC_VMEM, ISA_T_B32, fn}
#define HL(P, p)                                                                                   \
    H(P##_LOAD_DWORD, p##_load_dword), H(P##_LOAD_DWORDX2, p##_load_dwordx2),                      \
        H(P##_LOAD_DWORDX3, p##_load_dwordx3), H(P##_LOAD_DWORDX4, p##_load_dwordx4),              \
        H(P##_LOAD_UBYTE, p##_load_ubyte), H(P##_LOAD_SBYTE, p##_load_sbyte),                      \
        H(P##_LOAD_USHORT, p##_load_ushort), H(P##_LOAD_SSHORT, p##_load_sshort),                  \
        H(P##_LOAD_UBYTE_D16, p##_load_ubyte_d16), H(P##_LOAD_SBYTE_D16, p##_load_sbyte_d16),      \
        H(P##_LOAD_SHORT_D16, p##_load_short_d16),                                                 \
        H(P##_LOAD_UBYTE_D16_HI, p##_load_ubyte_d16_hi),                                           \
        H(P##_LOAD_SBYTE_D16_HI, p##_load_sbyte_d16_hi),                                           \
        H(P##_LOAD_SHORT_D16_HI, p##_load_short_d16_hi), H(P##_STORE_DWORD, p##_store_dword),      \
        H(P##_STORE_DWORDX2, p##_store_dwordx2), H(P##_STORE_DWORDX3, p##_store_dwordx3),          \
        H(P##_STORE_DWORDX4, p##_store_dwordx4), H(P##_STORE_BYTE, p##_store_byte),                \
        H(P##_STORE_SHORT, p##_store_short), H(P##_STORE_BYTE_D16_HI, p##_store_byte_d16_hi),      \
        H(P##_STORE_SHORT_D16_HI, p##_store_short_d16_hi)
#define HA(P, p)                                                                                   \
    H(P##_ATOMIC_ADD, p##_atomic_add), H(P##_ATOMIC_ADD_X2, p##_atomic_add_x2),                    \
        H(P##_ATOMIC_SUB, p##_atomic_sub), H(P##_ATOMIC_SUB_X2, p##_atomic_sub_x2),                \
        H(P##_ATOMIC_SWAP, p##_atomic_swap), H(P##_ATOMIC_SWAP_X2, p##_atomic_swap_x2),            \
        H(P##_ATOMIC_CMPSWAP, p##_atomic_cmpswap), H(P##_ATOMIC_CMPSWAP_X2, p##_atomic_cmpswap_x2), \
        H(P##_ATOMIC_SMIN, p##_atomic_smin), H(P##_ATOMIC_SMIN_X2, p##_atomic_smin_x2),            \
        H(P##_ATOMIC_UMIN, p##_atomic_umin), H(P##_ATOMIC_UMIN_X2, p##_atomic_umin_x2),            \
        H(P##_ATOMIC_SMAX, p##_atomic_smax), H(P##_ATOMIC_SMAX_X2, p##_atomic_smax_x2),            \
        H(P##_ATOMIC_UMAX, p##_atomic_umax), H(P##_ATOMIC_UMAX_X2, p##_atomic_umax_x2),            \
        H(P##_ATOMIC_AND, p##_atomic_and), H(P##_ATOMIC_AND_X2, p##_atomic_and_x2),                \
        H(P##_ATOMIC_OR, p##_atomic_or), H(P##_ATOMIC_OR_X2, p##_atomic_or_x2),                    \
        H(P##_ATOMIC_XOR, p##_atomic_xor), H(P##_ATOMIC_XOR_X2, p##_atomic_xor_x2),                \
        H(P##_ATOMIC_INC, p##_atomic_inc), H(P##_ATOMIC_INC_X2, p##_atomic_inc_x2),                \
        H(P##_ATOMIC_DEC, p##_atomic_dec), H(P##_ATOMIC_DEC_X2, p##_atomic_dec_x2),                \
        H(P##_ATOMIC_ADD_F32, p##_atomic_add_f32), H(P##_ATOMIC_ADD_F64, p##_atomic_add_f64),      \
        H(P##_ATOMIC_MIN_F64, p##_atomic_min_f64), H(P##_ATOMIC_MAX_F64, p##_atomic_max_f64),      \
        H(P##_ATOMIC_PK_ADD_F16, p##_atomic_pk_add_f16),                                           \
        H(P##_ATOMIC_PK_ADD_BF16, p##_atomic_pk_add_bf16)
static void buffer_cache_nop(wave *w, const xinst *x) { (void)w, (void)x; }

const xhandler x_flat_handlers[] = {
    HL(FLAT, flat), HL(GLOBAL, global), HL(SCRATCH, scratch), HL(BUFFER, buffer),
    HA(FLAT, flat), HA(GLOBAL, global), HA(BUFFER, buffer),
    H(BUFFER_INV, buffer_cache_nop), H(BUFFER_WBL2, buffer_cache_nop),
};
const unsigned x_flat_nhandlers = sizeof x_flat_handlers / sizeof x_flat_handlers[0];
