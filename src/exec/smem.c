/* smem.c - scalar memory: s_load/s_store, s_buffer_load/store, scalar atomics, s_memtime.
 * CDNA3/CDNA4 ISA "Scalar memory operations".
 *
 * Decoded slots (src/isa/scalar.c): dst[0] = sdata when written, src[0] = sdata when read,
 * src[1] = sbase (2 SGPRs: an address; 4 SGPRs for s_buffer_*: a buffer resource), src[2] = the
 * SGPR offset when f.s.has_soffset; f.s.offset = the immediate offset when f.s.has_imm. */
#include "exec/exec.h"
#include "exec/xatomic.h"

#include <string.h>
#include <time.h>

typedef uint32_t u32;
typedef uint64_t u64;

static inline __attribute__((always_inline)) u64 smem_addr(const wave *w, const xinst *x) {
    const isa_scalar_fields *f = &x->in.f.s;
    u64 base = x_s64(w, x, 1);
    u64 off = f->has_imm ? (u64)(int64_t)f->offset : 0;
    if (f->has_soffset)
        off += x_s32(w, x, 2);
    /* Scalar memory is dword-addressed: the low two address bits are ignored. */
    return (base + off) & ~3ull;
}

static void s_load(wave *w, const xinst *x) {
    unsigned n = x->in.dst[0].n;
    u64 addr = smem_addr(w, x);
    const u32 *p = x_gmem(w, x, addr, 4ull * n, 0, -1);
    if (!p) {
        wave_mem_fault(w, x, addr, 4 * n, 0);
        return;
    }
    x_shared_load(&w->s[x->in.dst[0].idx], p, 4 * n); /* global memory: see xatomic.h */
}

int x_jit_sload(wave *w, const xinst *x) {
    x_jit_slow++;
    const gmem_cache_line *c =
        gmem_xlate_line(w->mem, &w->cache, smem_addr(w, x), 4ull * x->in.dst[0].n);
    if (c) {
        gmem_hot_line *h = &w->cache.hot[GMEM_HOT_SMEM];
        h->base = c->base;
        h->lim = c->size; /* (this line's lim: the size; jit.c emit_sload) */
        h->host = c->host;
    }
    x->fn(w, x);
    return w->status != WAVE_RUNNING;
}

static void s_store(wave *w, const xinst *x) {
    unsigned n = x->in.src[0].n;
    u64 addr = smem_addr(w, x);
    u32 *p = x_gmem(w, x, addr, 4ull * n, 1, -1);
    if (!p) {
        wave_mem_fault(w, x, addr, 4 * n, 1);
        return;
    }
    x_shared_store(p, &w->s[x->in.src[0].idx], 4 * n);
}

/* s_scratch_load/store (CDNA3/CDNA4 ISA S_SCRATCH_LOAD_DWORD): a scalar access to the wave's
 * scratch memory at SBASE (the wave's scratch base, as FLAT_SCRATCH holds it) + the immediate
 * (signed bytes) + the SGPR offset, which for scratch counts 64-byte units.  The bytes are the
 * wave's private memory as the hardware lays it out (dword i of lane L at (i * 64 + L) * 4, see
 * src/exec/vmem.c), so a scalar dword at byte o is w->scratch + o.  Anything outside this wave's
 * private memory is a memory fault: on hardware it would be another wave's scratch. */
static u32 *scratch_ptr(wave *w, const xinst *x, unsigned n, int write) {
    const isa_scalar_fields *f = &x->in.f.s;
    u64 off = f->has_imm ? (u64)(int64_t)f->offset : 0;
    if (f->has_soffset)
        off += (u64)x_s32(w, x, 2) * 64;
    u64 addr = (x_s64(w, x, 1) + off) & ~3ull, rel = addr - w->scratch_va;
    u64 bytes = (u64)w->scratch_lane * 64;
    /* rel + 4 * n would wrap for an address near 2^64 when the wave has no scratch (base 0) */
    if (addr < w->scratch_va || rel > bytes || 4ull * n > bytes - rel) {
        wave_mem_fault(w, x, addr, 4 * n, write);
        w->fault.space = XS_PRIVATE;
        return NULL;
    }
    return (u32 *)(w->scratch + rel);
}
static void s_scratch_load(wave *w, const xinst *x) {
    unsigned n = x->in.dst[0].n;
    const u32 *p = scratch_ptr(w, x, n, 0);
    if (p)
        memcpy(&w->s[x->in.dst[0].idx], p, 4ull * n);
}
static void s_scratch_store(wave *w, const xinst *x) {
    unsigned n = x->in.src[0].n;
    u32 *p = scratch_ptr(w, x, n, 1);
    if (p)
        memcpy(p, &w->s[x->in.src[0].idx], 4ull * n);
}

/* Buffer resource (V#) fields used by scalar buffer loads: base [47:0], num_records [95:64].
 * Dwords past num_records read as 0 and stores past it are dropped (range checking of the
 * unswizzled, stride-0 buffer the scalar unit uses). */
typedef struct {
    u64 base;
    u32 num_records;
} vsharp;

static vsharp rsrc(const wave *w, const xinst *x) {
    const u32 *r = &w->s[x->in.src[1].idx];
    vsharp v = {r[0] | (u64)(r[1] & 0xffff) << 32, r[2]};
    return v;
}

static u32 buffer_offset(const wave *w, const xinst *x) {
    const isa_scalar_fields *f = &x->in.f.s;
    u32 off = f->has_imm ? (u32)f->offset : 0;
    if (f->has_soffset)
        off += x_s32(w, x, 2);
    return off & ~3u;
}

static void s_buffer_load(wave *w, const xinst *x) {
    vsharp v = rsrc(w, x);
    u32 off = buffer_offset(w, x);
    unsigned n = x->in.dst[0].n;
    u32 tmp[16];
    for (unsigned i = 0; i < n; i++) {
        u64 o = (u64)off + 4 * i;
        tmp[i] = 0;
        if (o + 4 > v.num_records)
            continue;
        const void *p = x_gmem(w, x, v.base + o, 4, 0, -1);
        if (!p) {
            wave_mem_fault(w, x, v.base + o, 4, 0);
            return;
        }
        memcpy(&tmp[i], p, 4); /* the V# base need not be dword-aligned */
    }
    memcpy(&w->s[x->in.dst[0].idx], tmp, 4ull * n);
}

static void s_buffer_store(wave *w, const xinst *x) {
    vsharp v = rsrc(w, x);
    u32 off = buffer_offset(w, x);
    unsigned n = x->in.src[0].n;
    for (unsigned i = 0; i < n; i++) {
        u64 o = (u64)off + 4 * i;
        if (o + 4 > v.num_records)
            continue;
        void *p = x_gmem(w, x, v.base + o, 4, 1, -1);
        if (!p) {
            wave_mem_fault(w, x, v.base + o, 4, 1);
            return;
        }
        memcpy(p, &w->s[x->in.src[0].idx + i], 4);
    }
}

/* s_memtime: a 64-bit free-running counter; we use executed wave-instructions so that runs are
 * reproducible.  s_memrealtime: a constant-rate clock (ns / 10, i.e. 100 MHz). */
static void s_memtime(wave *w, const xinst *x) {
    u64 t = 0;
    for (int i = 0; i < XC_N; i++)
        t += w->count[i];
    x_sd64(w, x, t);
}
static void s_memrealtime(wave *w, const xinst *x) {
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    x_sd64(w, x, ((u64)ts.tv_sec * 1000000000u + (u64)ts.tv_nsec) / 10);
}
static void s_cache_nop(wave *w, const xinst *x) { (void)w, (void)x; }

/* Scalar atomics: real host atomics (x_atomic_rmw), so they are correct across worker
 * threads.  sdata holds the operand (cmpswap: data then compare value); with glc the pre-op
 * value returns to dst[0]. */
static void s_atomic(wave *w, const xinst *x, int op, int is64, int buffer) {
    u64 addr;
    if (buffer) {
        vsharp vs = rsrc(w, x);
        u32 off = buffer_offset(w, x);
        if ((u64)off + (is64 ? 8 : 4) > vs.num_records)
            return; /* out of range: no access, nothing returned */
        addr = vs.base + off;
    } else {
        addr = smem_addr(w, x);
    }
    unsigned size = is64 ? 8 : 4;
    void *p = (addr & (size - 1)) ? NULL : x_gmem(w, x, addr, size, 1, -1);
    if (!p) {
        wave_mem_fault(w, x, addr, size, 1);
        return;
    }
    const u32 *d = &w->s[x->in.src[0].idx];
    u64 v = is64 ? d[0] | (u64)d[1] << 32 : d[0], cmp = 0;
    if (op == XA_CMPSWAP)
        cmp = is64 ? d[2] | (u64)d[3] << 32 : d[1];
    u64 old = x_atomic_rmw(p, op, v, cmp, is64);
    if (x->in.ndst && x->in.dst[0].kind == ISA_OPND_SREG) {
        w->s[x->in.dst[0].idx] = (u32)old;
        if (is64)
            w->s[x->in.dst[0].idx + 1] = (u32)(old >> 32);
    }
}

/* The atomic rows: op, operation (xatomic.h), 64-bit data, buffer (S_BUFFER_ATOMIC_*: address
 * from a V#).  Kept as written (clang-format-22 reflows macro lists differently on every pass). */
/* clang-format off */
#define SMEM_ATOMICS(X)                             \
    X(s_atomic_add, XA_ADD, 0, 0)                   \
    X(s_atomic_add_x2, XA_ADD, 1, 0)                \
    X(s_atomic_sub, XA_SUB, 0, 0)                   \
    X(s_atomic_sub_x2, XA_SUB, 1, 0)                \
    X(s_atomic_swap, XA_SWAP, 0, 0)                 \
    X(s_atomic_swap_x2, XA_SWAP, 1, 0)              \
    X(s_atomic_cmpswap, XA_CMPSWAP, 0, 0)           \
    X(s_atomic_cmpswap_x2, XA_CMPSWAP, 1, 0)        \
    X(s_atomic_smin, XA_SMIN, 0, 0)                 \
    X(s_atomic_smin_x2, XA_SMIN, 1, 0)              \
    X(s_atomic_umin, XA_UMIN, 0, 0)                 \
    X(s_atomic_umin_x2, XA_UMIN, 1, 0)              \
    X(s_atomic_smax, XA_SMAX, 0, 0)                 \
    X(s_atomic_smax_x2, XA_SMAX, 1, 0)              \
    X(s_atomic_umax, XA_UMAX, 0, 0)                 \
    X(s_atomic_umax_x2, XA_UMAX, 1, 0)              \
    X(s_atomic_and, XA_AND, 0, 0)                   \
    X(s_atomic_and_x2, XA_AND, 1, 0)                \
    X(s_atomic_or, XA_OR, 0, 0)                     \
    X(s_atomic_or_x2, XA_OR, 1, 0)                  \
    X(s_atomic_xor, XA_XOR, 0, 0)                   \
    X(s_atomic_xor_x2, XA_XOR, 1, 0)                \
    X(s_atomic_inc, XA_INC, 0, 0)                   \
    X(s_atomic_inc_x2, XA_INC, 1, 0)                \
    X(s_atomic_dec, XA_DEC, 0, 0)                   \
    X(s_atomic_dec_x2, XA_DEC, 1, 0)                \
    X(s_buffer_atomic_add, XA_ADD, 0, 1)            \
    X(s_buffer_atomic_add_x2, XA_ADD, 1, 1)         \
    X(s_buffer_atomic_sub, XA_SUB, 0, 1)            \
    X(s_buffer_atomic_sub_x2, XA_SUB, 1, 1)         \
    X(s_buffer_atomic_swap, XA_SWAP, 0, 1)          \
    X(s_buffer_atomic_swap_x2, XA_SWAP, 1, 1)       \
    X(s_buffer_atomic_cmpswap, XA_CMPSWAP, 0, 1)    \
    X(s_buffer_atomic_cmpswap_x2, XA_CMPSWAP, 1, 1) \
    X(s_buffer_atomic_smin, XA_SMIN, 0, 1)          \
    X(s_buffer_atomic_smin_x2, XA_SMIN, 1, 1)       \
    X(s_buffer_atomic_umin, XA_UMIN, 0, 1)          \
    X(s_buffer_atomic_umin_x2, XA_UMIN, 1, 1)       \
    X(s_buffer_atomic_smax, XA_SMAX, 0, 1)          \
    X(s_buffer_atomic_smax_x2, XA_SMAX, 1, 1)       \
    X(s_buffer_atomic_umax, XA_UMAX, 0, 1)          \
    X(s_buffer_atomic_umax_x2, XA_UMAX, 1, 1)       \
    X(s_buffer_atomic_and, XA_AND, 0, 1)            \
    X(s_buffer_atomic_and_x2, XA_AND, 1, 1)         \
    X(s_buffer_atomic_or, XA_OR, 0, 1)              \
    X(s_buffer_atomic_or_x2, XA_OR, 1, 1)           \
    X(s_buffer_atomic_xor, XA_XOR, 0, 1)            \
    X(s_buffer_atomic_xor_x2, XA_XOR, 1, 1)         \
    X(s_buffer_atomic_inc, XA_INC, 0, 1)            \
    X(s_buffer_atomic_inc_x2, XA_INC, 1, 1)         \
    X(s_buffer_atomic_dec, XA_DEC, 0, 1)            \
    X(s_buffer_atomic_dec_x2, XA_DEC, 1, 1)
/* clang-format on */
#define DEF_ATOMIC(op, aop, is64, buf)                                                             \
    static void op(wave *w, const xinst *x) { s_atomic(w, x, aop, is64, buf); }
SMEM_ATOMICS(DEF_ATOMIC)

#define H(op, fn) XROW(op, ISA_T_B32, fn)
#define ROW(op, ...) H(op, op),
const xhandler x_smem_handlers[] = {
    SMEM_ATOMICS(ROW) H(s_load_dword, s_load),
    H(s_load_dwordx2, s_load),
    H(s_load_dwordx4, s_load),
    H(s_load_dwordx8, s_load),
    H(s_load_dwordx16, s_load),
    H(s_store_dword, s_store),
    H(s_store_dwordx2, s_store),
    H(s_store_dwordx4, s_store),
    H(s_buffer_load_dword, s_buffer_load),
    H(s_buffer_load_dwordx2, s_buffer_load),
    H(s_buffer_load_dwordx4, s_buffer_load),
    H(s_buffer_load_dwordx8, s_buffer_load),
    H(s_buffer_load_dwordx16, s_buffer_load),
    H(s_buffer_store_dword, s_buffer_store),
    H(s_buffer_store_dwordx2, s_buffer_store),
    H(s_buffer_store_dwordx4, s_buffer_store),
    H(s_scratch_load_dword, s_scratch_load),
    H(s_scratch_load_dwordx2, s_scratch_load),
    H(s_scratch_load_dwordx4, s_scratch_load),
    H(s_scratch_store_dword, s_scratch_store),
    H(s_scratch_store_dwordx2, s_scratch_store),
    H(s_scratch_store_dwordx4, s_scratch_store),
    H(s_memtime, s_memtime),
    H(s_memrealtime, s_memrealtime),
    H(s_dcache_inv, s_cache_nop),
    H(s_dcache_wb, s_cache_nop),
    H(s_dcache_inv_vol, s_cache_nop),
    H(s_dcache_wb_vol, s_cache_nop),
    H(s_dcache_discard, s_cache_nop),
    H(s_dcache_discard_x2, s_cache_nop),
    H(s_atc_probe, s_cache_nop),
    H(s_atc_probe_buffer, s_cache_nop),
};
const unsigned x_smem_nhandlers = sizeof x_smem_handlers / sizeof x_smem_handlers[0];
