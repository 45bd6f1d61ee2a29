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
#include "exec/vmem.h"
#include "isa/fbits.h"
#include "exec/xatomic.h"

#include <math.h>
#include <string.h>
#if defined(__x86_64__)
#include <immintrin.h>
#endif

typedef uint32_t u32;
typedef uint64_t u64;

enum { SP_GLOBAL = XS_GLOBAL, SP_LDS = XS_LDS, SP_PRIVATE = XS_PRIVATE };

static uint32_t (*vrow(wave *w, const isa_opnd *o))
    [LANES] { return o->kind == ISA_OPND_AGPR ? &w->a[o->idx] : &w->v[o->idx]; }

/* lane_ref, ref_fn: vmem.h */

/* Byte address of lane l's access (before aperture routing), and its space. */
static u64 lane_addr(const wave *w, const xinst *x, unsigned l, int *space) {
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

static lane_ref flat_ref(const wave *w, const xinst *x, unsigned l) {
    lane_ref r;
    r.a = lane_addr(w, x, l, &r.space);
    r.avail = UINT64_MAX;
    return r;
}

/* MUBUF: the buffer resource (V#) in four SGPRs (CDNA3/CDNA4 ISA, "Vector Memory Buffer
 * Instructions", buffer resource table and "Buffer Addressing"): base [47:0], stride [61:48],
 * cache swizzle [62], swizzle enable [63], num_records [95:64], and in dword 3 NUM_FORMAT
 * [14:12], DATA_FORMAT [18:15], INDEX_STRIDE [22:21] (8, 16, 32, 64), ADD_TID_ENABLE [23].
 * index = idxen VGPR (+ lane with add_tid), offset = offen VGPR + instruction offset;
 * address = base + soffset + buffer_offset, buffer_offset = offset + stride * index, or for a
 * swizzled resource:
 *   (index / index_stride * stride + offset / element_size * element_size) * index_stride
 *     + index % index_stride * element_size + offset % element_size.
 * When each applies on gfx942/gfx950:
 *  - Swizzled (AOS) addressing needs SWIZZLE_EN and ADD_TID_ENABLE together: it is the layout
 *    of per-lane private (scratch) buffers, the only user of ADD_TID.  Kernels verified on
 *    MI300/MI350 (HipKittens: word1 = base_hi | (stride | 0xC000) << 16, word3 = 0x110000,
 *    plain `offen` offsets) set SWIZZLE_EN without ADD_TID and address linearly there.
 *  - gfx9 has no ELEMENT_SIZE field (GCN3's [20:19]; LLVM builds gfx9 scratch descriptors
 *    without it): swizzle elements are 4 bytes.
 *  - The cache-swizzle bit [62] (gfx942+) swizzles L1/TC cache banks with the stride field as
 *    the cache stride; it does not move data.  A resource with it set and no idxen is a raw
 *    buffer: its range check is the byte offset against num_records, as for stride 0 (what
 *    MLIR's and HipKittens' raw buffers with a cache stride rely on).  LLVM states the bit's
 *    meaning in MLIR's AMDGPU-to-ROCDL lowering (makeBufferRsrc): from MI300 on, setting bit 14
 *    of the stride field (= bit 62) with the stride field holding a cache stride enables cache
 *    swizzling, and its fat raw buffers still address linearly.  The CDNA3/CDNA4 manuals' own
 *    buffer-resource text could not be read here; the rule above rests on that and on
 *    HipKittens' hardware-verified descriptors.
 * With ADD_TID_ENABLE, DATA_FORMAT supplies stride bits [17:14] (the gfx9 scratch descriptor
 * layout).  Range: raw buffers check offset against num_records in bytes, structured ones check
 * index against num_records in records. */
#define BUF_ELEMENT_SIZE 4u
static lane_ref buf_ref(const wave *w, const xinst *x, unsigned l) {
    const isa_mem_fields *m = &x->in.f.m;
    const u32 *rs = &w->s[x->in.src[3].idx];
    u64 base = rs[0] | (u64)(rs[1] & 0xffff) << 32;
    u32 stride = (rs[1] >> 16) & 0x3fff, num = rs[2];
    int cache_swizzle = (rs[1] >> 30) & 1, swizzle_en = rs[1] >> 31;
    const isa_opnd *va = &x->in.src[0];
    u32 index = 0, offset = (u32)m->offset;
    unsigned vi = 0;
    if (m->idxen)
        index = w->v[va->idx + vi++][l];
    if (m->offen)
        offset += w->v[va->idx + vi][l];
    u32 w3 = rs[3];
    int add_tid = (w3 >> 23) & 1;
    if (add_tid) {
        index += l;
        stride |= ((w3 >> 15) & 0xf) << 14;
    }
    u64 boff = offset + (u64)stride * index;
    if (swizzle_en && add_tid) {
        u32 istr = 8u << ((w3 >> 21) & 3), esz = BUF_ELEMENT_SIZE;
        boff = ((u64)(index / istr) * stride + offset / esz * esz) * istr + index % istr * esz +
               offset % esz;
    }
    lane_ref r = {SP_GLOBAL, 0, 0};
    u64 soff = x_s32(w, x, 4);
    r.a = base + soff + boff;
    /* gfx90a MUBUF scratch: an address inside the wave's swizzled scratch buffer (the private
     * segment V# of src/dispatch/init.c) is lane L's dword at (i * 64 + L) * 4: this lane's
     * private memory when L is the lane itself (anything else stays global, and faults). */
    u64 rel = r.a - w->scratch_va;
    if (w->scratch_lane && r.a >= w->scratch_va && rel < (u64)w->scratch_lane * LANES &&
        ((rel >> 2) & (LANES - 1)) == l) {
        r.space = SP_PRIVATE;
        r.a = (rel >> 8) * 4 + (rel & 3);
    }
    if (stride == 0 || (cache_swizzle && !m->idxen && !add_tid))
        r.avail = offset < num ? (u64)num - offset : 0;
    else
        r.avail = index < num ? UINT64_MAX : 0;
    return r;
}

/* Copy between registers and memory for one lane.  Returns 0, or -1 when the access is out of
 * range (the caller raises the fault). */
static int lane_access(wave *w, const xinst *x, int space, u64 a, void *buf, unsigned size,
                       int write, unsigned lane) {
    uint8_t *b = buf;
    switch (space) {
    case SP_GLOBAL: {
        uint8_t *p = x_gmem(w, x, a, size, write, (int)lane);
        if (!p)
            return -1;
        if (write) /* shared with other workgroups' threads: see x_shared_load() */
            x_shared_store(p, b, size);
        else
            x_shared_load(b, p, size);
        return 0;
    }
    case SP_LDS:
        if (a + size > w->lds_size) {
            if (w->mc) /* memcheck: the LDS fault; else the hardware's 0 / dropped write */
                return -1;
            if (!write)
                memset(b, 0, size);
            return 0;
        }
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

/* Whether lane_access() would fail for this span (nothing is accessed). */
static int span_bad(wave *w, int space, u64 a, u64 size) {
    if (space == SP_GLOBAL)
        return !x_gmem_ok(w, a, size, w->fault.write);
    return a + size > (space == SP_LDS ? w->lds_size : w->scratch_lane);
}

/* Fault path: lane `first`'s access was bad and the wave stops there (lanes below it have been
 * performed, it and the lanes above it are not).  Record it and every later active lane whose
 * access would be bad too, found by translating addresses without touching memory, so the fault
 * names all the bad lanes of the instruction.  size: bytes of a lane's access; cb: component
 * bytes of a formatted access (0 for the others); atomic: a misaligned lane is bad too, an
 * out-of-range buffer lane does nothing. */
static void fault_lanes(wave *w, const xinst *x, ref_fn ref, unsigned first, unsigned size,
                        unsigned cb, int atomic) {
    u64 exec = wave_exec(w);
    w->fault.lanes |= 1ull << first;
    for (unsigned l = first + 1; l < LANES; l++) {
        if (!((exec >> l) & 1))
            continue;
        lane_ref r = ref(w, x, l);
        int bad = 0;
        if (cb) /* the components inside the buffer, each on its own */
            for (unsigned c = 0; c * cb < size && r.avail >= (u64)(c + 1) * cb; c++)
                bad |= span_bad(w, r.space, r.a + c * cb, cb);
        else if (atomic)
            bad = r.avail >= size && ((r.a & (size - 1)) || span_bad(w, r.space, r.a, size));
        else { /* as vmem_load/vmem_store: a partly out-of-range buffer access keeps whole dwords */
            u64 in = r.avail >= size ? size : size % 4 == 0 ? r.avail / 4 * 4 : 0;
            bad = in && span_bad(w, r.space, r.a, in);
        }
        if (bad)
            w->fault.lanes |= 1ull << l;
    }
}

/* K_*: the data conversions between the memory value and the 32-bit register (vmem.h) */

/* Variants not modelled stop the wave by name instead of doing something else: texture-fail
 * returns (tfe: llvm-mc-22 does not accept it for gfx942/gfx950, so only a hand-made word has
 * it) and the lds bit on anything but a load. */
static int unsupported(wave *w, const xinst *x, int load) {
    const isa_mem_fields *m = &x->in.f.m;
    if (m->tfe || (m->lds && !load)) {
        wave_fault(w, x, XF_UNIMPLEMENTED);
        return 1;
    }
    return 0;
}

/* Loads into LDS (the MUBUF lds bit; global/scratch_load_lds_*): lane l's data goes to LDS at
 * base + l * 4 * ndw instead of to VGPRs, sub-dword data extended to a dword as it would be in a
 * register.  base (CDNA3/CDNA4 ISA "Global/scratch loads to LDS", "MUBUF loads to LDS"): for
 * global/scratch M0[17:2] * 4 + the instruction offset; for MUBUF M0 as a byte offset (bits 15:0
 * on gfx942's 64 KiB LDS, 17:0 on gfx950's 160 KiB) + the instruction offset. */
static u32 lds_dest_base(const wave *w, const xinst *x, ref_fn ref) {
    u32 m0 = w->s[ISA_SREG_M0], off = (u32)x->in.f.m.offset;
    if (ref == buf_ref)
        return (m0 & (w->prog && w->prog->arch == ISA_GFX950 ? 0x3ffffu : 0xffffu)) + off;
    return (m0 & 0x3fffcu) + off;
}
static int lds_put(wave *w, const xinst *x, u32 a, const void *v, unsigned size, unsigned lane) {
    if ((u64)a + size > w->lds_size && !w->mc) /* dropped, as the hardware does (lds.c) */
        return 0;
    if ((u64)a + size > w->lds_size) {
        wave_fault(w, x, XF_LDS);
        w->fault.addr = a;
        w->fault.size = size;
        w->fault.write = 1;
        /* lane l writes at base + l * 4 * ndw: every active lane above this one is past the end */
        w->fault.lanes |= wave_exec(w) & ~0ull << lane;
        return -1;
    }
    memcpy(w->lds + a, v, size);
    return 0;
}

/* Fast path for the common case of FLAT/GLOBAL dword accesses: when every active lane's access
 * lies inside the allocation the wave's translation cache holds (each lane is checked against
 * it, so the access stays bounds-checked), the lanes are copied without per-lane calls or
 * variable-size copies.  Anything else (another allocation, the LDS/private apertures, a lane
 * out of range) returns 0 before touching a register or memory, and the general loop below does
 * the access and raises any fault exactly as it always does.  Profile: the per-lane loop was
 * about half of an elementwise kernel's time (docs/perf.md).
 * Unlike the general path (x_shared_*(), relaxed atomic units), the copies here are plain
 * memcpy: relaxed atomic units stop them from vectorising and cost 30-40% on the streaming
 * benchmark (measured with bench/ab.py).  So in this path plain accesses that race between
 * workgroups (legal on a GPU: which value wins is undefined) are racing host copies, formally a
 * data race in C; ThreadSanitizer builds therefore take the general path for everything. */
/* ThreadSanitizer builds (gcc's or clang's) take the general path for everything. */
#if defined(__SANITIZE_THREAD__)
#define VMEM_TSAN 1
#elif defined(__has_feature)
#if __has_feature(thread_sanitizer)
#define VMEM_TSAN 1
#endif
#endif
#ifndef VMEM_TSAN
#define VMEM_TSAN 0
#endif
/* The lane loops below are written to vectorize: compiled for x86-64-v4 (AVX-512: the address
 * checks take half the instructions; 3-5% off a 64 Ki-float vecadd launch, 6-8% off 4 Mi) and
 * x86-64-v3 as well as the baseline (picked at load time), and at -O3 under GCC, which at -O2
 * leaves them scalar. */
#if defined(__x86_64__) && defined(__linux__) && !defined(GFXEMU_NO_CLONES)
#define VMEM_FAST_ATTR __attribute__((target_clones("arch=x86-64-v4", "arch=x86-64-v3", "default")))
#else
#define VMEM_FAST_ATTR
#endif
#if defined(__GNUC__) && !defined(__clang__)
#define VMEM_FAST_OPT __attribute__((optimize("O3")))
/* (GCC may inline a function with clones into a caller without them; clang never does, and
 * refuses target_clones with noinline) */
#define VMEM_NOINLINE __attribute__((noinline))
#else
#define VMEM_FAST_OPT
#define VMEM_NOINLINE
#endif
static unsigned load_size(unsigned kind, unsigned ndw) {
    return kind == K_DW                                                             ? 4 * ndw
           : (kind == K_US || kind == K_SS || kind == K_D16_S || kind == K_D16HI_S) ? 2
                                                                                    : 1;
}
/* A sub-dword load's register value (x_subdword): v holds the loaded bytes, old the register. */
static inline __attribute__((always_inline)) u32 load_extend(unsigned kind, u32 v, u32 old) {
    int sign = kind == K_SB || kind == K_SS || kind == K_D16_SB || kind == K_D16HI_SB;
    int half = kind >= K_D16HI_UB && kind <= K_D16HI_S ? 2 : kind >= K_D16_UB && kind <= K_D16_S;
    return x_subdword(v, load_size(kind, 1), sign, half, old);
}

/* sub: 0 for dword accesses, else a sub-dword access of that many bytes (1, 2): a store of each
 * lane's data shifted right by `shift` (the _hi forms), or a load of `kind` (load_extend). */
/* Whether the 32-bit address parts lo (and hi, if not NULL) of the 64 lanes step by size:
 * lo[l] = lo[0] + l * size without carrying into hi, and hi the same in every lane. */
#if defined(__x86_64__) && defined(__linux__) && !defined(GFXEMU_NO_CLONES)
/* The same test on AVX-512 hosts: each 16 lanes' mismatch bits go to a mask register
 * (vptestmd) instead of one OR reduction across the vector at the end, whose shuffle chain
 * was about a third of vmem_fast's samples in an elementwise kernel. */
__attribute__((target("arch=x86-64-v4"))) static int lanes_linear_v4(const u32 *lo, const u32 *hi,
                                                                     unsigned size) {
    const __m512i step =
        _mm512_mullo_epi32(_mm512_setr_epi32(0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15),
                           _mm512_set1_epi32((int)size));
    __m512i l0 = _mm512_set1_epi32((int)lo[0]), h0 = _mm512_set1_epi32(hi ? (int)hi[0] : 0);
    __m512i diff = _mm512_setzero_si512();
    for (unsigned q = 0; q < LANES / 16; q++) {
        __m512i want =
            _mm512_add_epi32(_mm512_add_epi32(l0, step), _mm512_set1_epi32((int)(16 * q * size)));
        diff = _mm512_or_si512(diff, _mm512_xor_si512(_mm512_loadu_si512(lo + 16 * q), want));
        if (hi)
            diff = _mm512_or_si512(diff, _mm512_xor_si512(_mm512_loadu_si512(hi + 16 * q), h0));
    }
    return _mm512_test_epi32_mask(diff, diff) == 0;
}
#define HAVE_LANES_LINEAR_V4 1
#endif

static inline
    __attribute__((always_inline)) int lanes_linear(const u32 *lo, const u32 *hi, unsigned size) {
    if (lo[0] > UINT32_MAX - (LANES - 1) * size)
        return 0;
#ifdef HAVE_LANES_LINEAR_V4
    if (__builtin_cpu_supports("x86-64-v4"))
        return lanes_linear_v4(lo, hi, size);
#endif
    /* lo[l] - lo[0] against l * size (no wrap, checked above): no running sum, whose first
     * vector gcc built lane by lane (vpinsrd) */
    u32 diff = 0, l0 = lo[0], h0 = hi ? hi[0] : 0;
    if (hi) /* one pass over both halves (one reduction instead of two) */
        for (unsigned l = 0; l < LANES; l++)
            diff |= ((lo[l] - l0) ^ l * size) | (hi[l] ^ h0);
    else
        for (unsigned l = 0; l < LANES; l++)
            diff |= (lo[l] - l0) ^ l * size;
    return diff == 0;
}

/* Whether translation line c meets the shared or private aperture, where a FLAT address is LDS
 * or scratch whatever host memory is mapped there. */
static inline int in_apertures(const gmem_cache_line *c) {
    return c->base < GMEM_PRIVATE_APERTURE + GMEM_APERTURE_SIZE &&
           c->base + c->size > GMEM_SHARED_APERTURE;
}

/* A coalesced access's copy: ndw dwords per lane, lane l's at p + l * 4 * ndw, transposed
 * between memory order and the register rows r[0..ndw). */
static inline __attribute__((always_inline)) void coalesced_copy(uint32_t (*r)[LANES], uint8_t *p,
                                                                 unsigned ndw, int store) {
    if (ndw == 1) {
        if (store)
            x_row_copy((uint32_t *)(void *)p, r[0], 0);
        else
            x_row_copy(r[0], (const uint32_t *)(void *)p, 0);
        return;
    }
#define FAST_BLOCK(N)                                                                              \
    if (store)                                                                                     \
        for (unsigned l = 0; l < LANES; l++)                                                       \
            for (unsigned i = 0; i < N; i++)                                                       \
                memcpy(p + (l * N + i) * 4, &r[i][l], 4);                                          \
    else                                                                                           \
        for (unsigned l = 0; l < LANES; l++)                                                       \
            for (unsigned i = 0; i < N; i++)                                                       \
                memcpy(&r[i][l], p + (l * N + i) * 4, 4);
    switch (ndw) {
    case 2: FAST_BLOCK(2) break;
    case 3: FAST_BLOCK(3) break;
    default: FAST_BLOCK(4) break;
    }
#undef FAST_BLOCK
}

/* vmem_fast's commonest case in a function of its own: a GLOBAL or FLAT access of whole dwords
 * with every lane on, lane l at a[0] + l * size (the a[i] of elementwise kernels), all of it in
 * one cached translation.  vmem_fast's frame and its tests for the cases this one leaves to it
 * were a third of its time in a 64 Ki-float vecadd, whose three accesses are all this case.
 * Returns 0, touching nothing, for anything else (vmem_fast then decides). */
VMEM_FAST_ATTR VMEM_FAST_OPT static int vmem_lin(wave *w, const xinst *x, unsigned ndw, int store) {
    if (VMEM_TSAN) /* plain copies: see above */
        return 0;
    const isa_mem_fields *m = &x->in.f.m;
    const isa_opnd *va = &x->in.src[0], *sa = &x->in.src[3];
    if ((x->xf & XI_REF) || wave_exec(w) != ~0ull || m->seg == 1 || m->lds || m->tfe ||
        va->kind != ISA_OPND_VGPR)
        return 0;
    unsigned size = 4 * ndw;
    const u32 *lo = w->v[va->idx];
    u64 a0;
    if (sa->kind == ISA_OPND_SREG) {
        if (!lanes_linear(lo, NULL, size))
            return 0;
        a0 = (w->s[sa->idx] | (u64)w->s[sa->idx + 1] << 32) + (u64)(int64_t)m->offset + lo[0];
    } else {
        if (va->idx + 1 >= NVREG || !lanes_linear(lo, w->v[va->idx + 1], size))
            return 0;
        a0 = (lo[0] | (u64)w->v[va->idx + 1][0] << 32) + (u64)(int64_t)m->offset;
    }
    const gmem_cache_line *c = gmem_xlate_line(w->mem, &w->cache, a0, (u64)LANES * size);
    /* not read-only for a store; a FLAT address in an aperture is LDS or scratch */
    if (!c || (store && c->ro) || (m->seg == 0 && in_apertures(c)))
        return 0;
    coalesced_copy(store ? vrow(w, &x->in.src[1]) : vrow(w, &x->in.dst[0]),
                   c->host + (a0 - c->base), ndw, store);
    return 1;
}

_Thread_local uint64_t x_jit_slow; /* calls from blocks into vmem.c and smem.c (tests) */
static _Thread_local unsigned jit_fault_first, jit_fault_n; /* the last one's chunk */
uint64_t x_jit_load_count(void) { return x_jit_slow; }
/* The first address of GLOBAL access x in the n-lane chunk from lane `first` (16 lanes in
 * AVX-512 blocks, 8 in AVX2 ones); *diff nonzero unless the chunk's addresses are consecutive
 * dwords (the block's test: low halves 4 apart without a carry, high halves equal). */
static u64 chunk_addr(const wave *w, const xinst *x, unsigned first, unsigned n, u32 *diff) {
    const isa_opnd *va = &x->in.src[0], *sa = &x->in.src[3];
    const u32 *lo = w->v[va->idx] + first;
    u32 d = lo[0] > UINT32_MAX - 4 * (n - 1);
    u64 a;
    if (sa->kind == ISA_OPND_SREG) {
        a = (w->s[sa->idx] | (u64)w->s[sa->idx + 1] << 32) + lo[0];
    } else {
        const u32 *hi = w->v[va->idx + 1] + first;
        a = lo[0] | (u64)hi[0] << 32;
        for (unsigned l = 1; l < n; l++)
            d |= hi[l] ^ hi[0];
    }
    for (unsigned l = 1; l < n; l++)
        d |= (lo[l] - lo[0]) ^ 4 * l;
    *diff = d;
    return a + (u64)(int64_t)x->in.f.m.offset;
}
/* (lim: below it 64 bytes fit, what AVX-512 code loads; lim32 the same for AVX2 code's 32) */
static void hot_fill(gmem_hot_line *h, const gmem_cache_line *c) {
    h->base = c->base;
    h->lim = c->size >= 64 ? c->size - 63 : 0;
    h->lim32 = c->size >= 32 ? c->size - 31 : 0;
    h->host = c->host;
}
/* Chunk c (n lanes, 16 or 8: lanes n c to n c + n - 1) of a GLOBAL dword load inside a native
 * block (jit.c, J_GLOAD), whose inline test found its addresses not n consecutive dwords in the
 * load's hot line `hot`: the block has stored the address VGPRs' lanes for the chunk.
 * Consecutive dwords inside one region are copied, and that region becomes the hot line;
 * anything else is the instruction's own handler on the chunk's lanes alone (EXEC set to them,
 * then put back: the block runs only with every lane on), with every rule of the general path.
 * Returns 1 when that faulted (the block then returns, and exec.c jit_stopped makes the fault
 * the whole instruction's), 0 when the chunk's lanes of the destination row are loaded. */
int x_jit_load(wave *w, const xinst *x, unsigned c, unsigned hot, const xinst *start, unsigned n) {
    u32 diff;
    const unsigned first = c * n;
    u64 a = chunk_addr(w, x, first, n, &diff);
    x_jit_slow++;
    /* x->nolin: chunks in a row whose lanes were not consecutive, up to 255, when the block
     * (starting at `start`) stops running (a gather: each chunk here costs more than the
     * interpreter's whole instruction; jit.h x_jit_mem_go) */
    uint8_t *nl = (uint8_t *)&x->nolin, nv = __atomic_load_n(nl, __ATOMIC_RELAXED);
    if (diff ? nv < 255 : nv != 0)
        __atomic_store_n(nl, diff ? (uint8_t)(nv + 1) : 0, __ATOMIC_RELAXED);
    if (diff && nv == 254)
        __atomic_store_n((uint8_t *)&start->nolin, 255, __ATOMIC_RELAXED);
    const gmem_cache_line *cl = diff ? NULL : gmem_xlate_line(w->mem, &w->cache, a, 4 * n);
    if (cl) {
        hot_fill(&w->cache.hot[hot % GMEM_HOT_LOADS], cl);
        memcpy(&w->v[x->in.dst[0].idx][first], cl->host + (a - cl->base), 4 * n);
        return 0;
    }
    u64 exec = wave_exec(w);
    wave_set_exec(w, ((1ull << n) - 1) << first);
    x->fn(w, x);
    wave_set_exec(w, exec);
    jit_fault_first = first, jit_fault_n = n;
    return w->status != WAVE_RUNNING;
}
unsigned x_jit_fault_lanes(unsigned *n) {
    *n = jit_fault_n;
    return jit_fault_first;
}
int x_jit_store(wave *w, const xinst *x, unsigned hot) {
    u32 diff;
    u64 a = chunk_addr(w, x, 0, 16, &diff);
    x_jit_slow++;
    jit_fault_first = LANES, jit_fault_n = 0; /* (after the code: nothing to run again) */
    const gmem_cache_line *c = diff ? NULL : gmem_xlate_line(w->mem, &w->cache, a, 64);
    if (c && !c->ro)
        hot_fill(&w->cache.hot[GMEM_HOT_LOADS + hot % 2], c);
    x->fn(w, x);
    return w->status != WAVE_RUNNING;
}

/* Rows r[0..ndw) of the lanes in mask set to 0. */
static void zero_lanes(uint32_t (*r)[LANES], unsigned ndw, u64 mask) {
    for (unsigned i = 0; i < ndw; i++)
        for (unsigned l = 0; l < LANES; l++)
            if ((mask >> l) & 1)
                r[i][l] = 0;
}

VMEM_FAST_ATTR VMEM_FAST_OPT static int vmem_fast(wave *w, const xinst *x, unsigned ndw, int store,
                                                  int buf, const x_rawbuf *rb, unsigned sub,
                                                  unsigned shift, unsigned kind) {
    const isa_mem_fields *m = &x->in.f.m;
    const isa_opnd *va = &x->in.src[0], *sa = &x->in.src[3];
    /* gone: buffer lanes past num_records; partm: those of them partly inside (loads) */
    u64 exec = wave_exec(w), a[LANES], gone = 0, partm = 0, bbase = 0;
    u32 bnum = 0;
    if (x->xf & XI_REF) /* the reference tier */
        return 0;
    /* lin: every lane is on and lane l's address is a[0] + l * size, found on the 32-bit
     * offsets before any 64-bit address is built (a[] is then filled only if needed) */
    int lin = 0;
    if (VMEM_TSAN)
        return 0;
    unsigned size = sub ? sub : 4 * ndw;
    /* Scratch, loads into LDS (lds bit) and tfe go the general way. */
    if (m->seg == 1 || m->lds || m->tfe || !exec)
        return 0;
    if (buf) {
        /* MUBUF on a raw buffer (buf_ref's linear case: stride 0, or the cache-swizzle bit with
         * neither idxen nor ADD_TID): lane address base + soffset + offset, offset = the
         * instruction offset (+ the VGPR with offen), 32-bit.  Lanes wholly past num_records
         * read zeros and drop their stores (dword kinds: they leave exec, and their rows are
         * zeroed once nothing can send the access to the general path any more: the masked
         * lanes of a tile's edge, 1.5 us a wave-instruction lane by lane).  A lane partly
         * inside loads the dwords wholly below num_records and zeros for the rest, as
         * vmem_load's lanes do (buffers check each dword): after the others, from the same
         * translation (1.8 us lane by lane for a dwordx4 with three such lanes); its store
         * goes the general way, as does gfx90a's scratch V# (checked below). */
        u64 base;
        u32 num;
        if (rb) { /* a raw view the caller worked out (vmem.h: the RDNA descriptor) */
            base = rb->base, num = rb->num;
            if (m->idxen || num < size || (m->offen && va->kind != ISA_OPND_VGPR))
                return 0;
        } else {
            const u32 *rs = &w->s[sa->idx];
            u32 stride = (rs[1] >> 16) & 0x3fff;
            num = rs[2];
            int add_tid = (rs[3] >> 23) & 1, cache_swizzle = (rs[1] >> 30) & 1;
            if (m->idxen || add_tid || (stride && !cache_swizzle) || num < size ||
                (m->offen && va->kind != ISA_OPND_VGPR))
                return 0;
            base = (rs[0] | (u64)(rs[1] & 0xffff) << 32) + x_s32(w, x, 4);
        }
        u32 off = (u32)m->offset, last = num - size, bad = 0, part = 0; /* part: partly inside */
        if (m->offen && exec == ~0ull) { /* without the shift the loop vectorizes: with it, it
                                          * was 80% of a buffer_load_dword (100-120 ns) */
            const u32 *vo = w->v[va->idx];
            for (unsigned l = 0; l < LANES; l++) {
                u32 o = off + vo[l];
                a[l] = base + o;
                bad |= (u32)(o > last);
                part |= (u32)(o > last) & (u32)(o < num);
            }
        } else if (m->offen) {
            const u32 *vo = w->v[va->idx];
            for (unsigned l = 0; l < LANES; l++) {
                u32 o = off + vo[l];
                a[l] = base + o;
                bad |= (u32)((exec >> l) & 1) & (o > last);
                part |= (u32)((exec >> l) & 1) & (o > last) & (o < num);
            }
        } else {
            for (unsigned l = 0; l < LANES; l++)
                a[l] = base + off;
            bad = off > last;
            part = bad & (off < num);
        }
        if (bad) {
            if (sub || (part && store) || num == UINT32_MAX) /* (RDNA's unchecked views:
                                                              * rdna_mem.c) */
                return 0;
            const u32 *vo = m->offen ? w->v[va->idx] : NULL;
            for (unsigned l = 0; l < LANES; l++) {
                u32 o = off + (vo ? vo[l] : 0);
                gone |= (u64)(o > last) << l;
                partm |= (u64)((o > last) & (o < num)) << l;
            }
            gone &= exec;
            partm &= exec;
            exec &= ~gone;
            if (!exec) { /* nothing wholly in range: zeros, or nothing stored */
                if (partm)
                    return 0;
                if (!store)
                    zero_lanes(vrow(w, &x->in.dst[0]), ndw, gone);
                return 1;
            }
            bbase = base, bnum = num;
        }
    } else if (va->kind != ISA_OPND_VGPR) {
        return 0;
    } else if (sa->kind == ISA_OPND_SREG) {
        u64 off = (u64)(int64_t)m->offset;
        const u32 *lo = w->v[va->idx];
        u64 base = (w->s[sa->idx] | (u64)w->s[sa->idx + 1] << 32) + off;
        lin = exec == ~0ull && lanes_linear(lo, NULL, size);
        if (lin)
            a[0] = base + lo[0];
        else
            for (unsigned l = 0; l < LANES; l++)
                a[l] = base + lo[l];
    } else { /* no saddr: a 64-bit VGPR pair, as lane_addr() reads it */
        u64 off = (u64)(int64_t)m->offset;
        const u32 *lo = w->v[va->idx];
        if (va->idx + 1 >= NVREG)
            return 0;
        const u32 *hi = w->v[va->idx + 1];
        lin = exec == ~0ull && lanes_linear(lo, hi, size);
        if (lin)
            a[0] = (lo[0] | (u64)hi[0] << 32) + off;
        else
            for (unsigned l = 0; l < LANES; l++)
                a[l] = (lo[l] | (u64)hi[l] << 32) + off;
    }
    const gmem_cache_line *c = gmem_xlate_line(w->mem, &w->cache, a[__builtin_ctzll(exec)], size);
    if (!c)
        return 0;
    if (store && c->ro)
        return 0;
    /* gfx90a MUBUF scratch: addresses in the wave's swizzled scratch buffer are private memory
     * (buf_ref), whatever allocation they fall in */
    if (buf && w->scratch_lane && w->scratch_va < c->base + c->size &&
        c->base < w->scratch_va + (u64)w->scratch_lane * LANES)
        return 0;
    /* A flat address in an aperture goes to LDS or scratch, never to an allocation. */
    if (!buf && m->seg == 0 && in_apertures(c))
        return 0;
    uint8_t *h = c->host; /* lane l's bytes are at h + (a[l] - base) */
    const u64 base = c->base, lim = c->size - size;
    /* Coalesced (every lane on, lane l at a[0] + l * size, the usual a[i] pattern): in range
     * when a[0] is at least LANES - 1 elements below the limit. */
    int coalesced = 0;
    if (lin) {
        coalesced = lim >= (u64)(LANES - 1) * size && a[0] - base <= lim - (u64)(LANES - 1) * size;
        if (!coalesced || sub) /* the lane loops below read a[] */
            for (unsigned l = 1; l < LANES; l++)
                a[l] = a[0] + (u64)l * size;
    } else if (exec == ~0ull) {
        u64 diff = 0, e = a[0];
        for (unsigned l = 0; l < LANES; l++, e += size)
            diff |= a[l] ^ e;
        coalesced = diff == 0 && lim >= (u64)(LANES - 1) * size &&
                    a[0] - base <= lim - (u64)(LANES - 1) * size;
    }
    /* act[l] all ones when lane l is on (under a partial EXEC): the lane loops below test it
     * instead of shifting the 64-bit EXEC by the lane number, which does not vectorize */
    u32 act[LANES];
    if (exec != ~0ull)
        exec_lane_masks(exec, act);
    if (!coalesced) {
        /* Every active lane's offset within the limit (an address below the base wraps to a
         * huge offset).  An OR of comparisons, not a running maximum: AVX2 has no unsigned
         * 64-bit max, and the maximum kept this loop scalar (57% of vmem_fast's samples in an
         * elementwise kernel). */
        u32 bad = 0;
        if (exec == ~0ull) /* without the shift the compare loop vectorizes */
            for (unsigned l = 0; l < LANES; l++)
                bad |= (u32)(a[l] - base > lim);
        else
            for (unsigned l = 0; l < LANES; l++)
                bad |= (u32)(a[l] - base > lim) & act[l];
        if (bad & 1)
            return 0;
    }
    /* the partly inside lanes' dwords below num_records within the translation too (each
     * lane's count of them in pin[], its offset from a[] and the buffer's base) */
    uint8_t pin[LANES];
    for (u64 pm = partm; pm; pm &= pm - 1) {
        unsigned l = (unsigned)__builtin_ctzll(pm);
        pin[l] = (uint8_t)((bnum - (u32)(a[l] - bbase)) / 4);
        if (pin[l] && (a[l] - base > c->size || c->size - (a[l] - base) < 4u * pin[l]))
            return 0;
    }
    uint32_t (*r)[LANES] = store ? vrow(w, &x->in.src[1]) : vrow(w, &x->in.dst[0]);
    if (gone && !store) /* (a[] is built: the rows may be the offsets' own) */
        zero_lanes(r, ndw, gone);
    for (u64 pm = partm; pm; pm &= pm - 1) {
        unsigned l = (unsigned)__builtin_ctzll(pm);
        for (unsigned i = 0; i < pin[l]; i++)
            memcpy(&r[i][l], h + (a[l] - base) + 4 * i, 4);
    }
    if (sub && !store) { /* byte and short loads: extended, or into one half (load_extend) */
        u32 t[LANES];
        int sign = kind == K_SB || kind == K_SS || kind == K_D16_SB || kind == K_D16HI_SB;
        int half =
            kind >= K_D16HI_UB && kind <= K_D16HI_S ? 2 : kind >= K_D16_UB && kind <= K_D16_S;
        /* load_extend's cases as separate loops: with `kind` inside, a loop stayed scalar.
         * Coalesced (every lane on, lane l's element at a[0] + l * sub): loops that vectorize
         * instead of one copy per lane (4x faster: 95 -> 25 ns).  Otherwise each active lane's
         * element at its own address (a field of a struct, a channel of RGBA pixels, a table):
         * the same loops through a[] (a stride of 4 bytes went lane by lane through
         * load_extend, 340-370 ns a wave-instruction). */
        if (coalesced) {
            const uint8_t *p = h + (a[0] - base);
            if (sub == 2)
                for (unsigned l = 0; l < LANES; l++) {
                    uint16_t v16;
                    memcpy(&v16, p + 2 * l, 2);
                    t[l] = sign ? (u32)(int32_t)(int16_t)v16 : v16;
                }
            else
                for (unsigned l = 0; l < LANES; l++)
                    t[l] = sign ? (u32)(int32_t)(int8_t)p[l] : p[l];
        } else if (sub == 2) {
            for (unsigned l = 0; l < LANES; l++) {
                uint16_t v16 = 0;
                if (exec == ~0ull || act[l])
                    memcpy(&v16, h + (a[l] - base), 2);
                t[l] = sign ? (u32)(int32_t)(int16_t)v16 : v16;
            }
        } else {
            for (unsigned l = 0; l < LANES; l++) {
                uint8_t v8 = exec == ~0ull || act[l] ? h[a[l] - base] : 0;
                t[l] = sign ? (u32)(int32_t)(int8_t)v8 : v8;
            }
        }
        if (exec == ~0ull) {
            if (half == 0)
                memcpy(r[0], t, sizeof t);
            else if (half == 1)
                for (unsigned l = 0; l < LANES; l++)
                    r[0][l] = (r[0][l] & 0xffff0000u) | (t[l] & 0xffffu);
            else
                for (unsigned l = 0; l < LANES; l++)
                    r[0][l] = (r[0][l] & 0xffffu) | t[l] << 16;
        } else {
            for (unsigned l = 0; l < LANES; l++) {
                u32 old = r[0][l], v = half == 0   ? t[l]
                                       : half == 1 ? (old & 0xffff0000u) | (t[l] & 0xffffu)
                                                   : (old & 0xffffu) | t[l] << 16;
                r[0][l] = act[l] ? v : old;
            }
        }
        return 1;
    }
    if (sub) { /* byte and short stores, lane by lane in order (the last lane wins a tie) */
        if (coalesced) { /* distinct consecutive elements: a loop that vectorizes */
            uint8_t *p = h + (a[0] - base);
            if (sub == 2)
                for (unsigned l = 0; l < LANES; l++) {
                    uint16_t v16 = (uint16_t)(r[0][l] >> shift);
                    memcpy(p + 2 * l, &v16, 2);
                }
            else
                for (unsigned l = 0; l < LANES; l++)
                    p[l] = (uint8_t)(r[0][l] >> shift);
            return 1;
        }
        /* fixed-size copies: a copy of `sub` bytes was a call to memmove per lane (the lanes
         * on from act[], as the loads and the dword copies test them) */
        for (unsigned l = 0; l < LANES; l++)
            if (exec == ~0ull || act[l]) {
                u32 v = r[0][l] >> shift;
                sub == 2 ? memcpy(h + (a[l] - base), &v, 2) : memcpy(h + (a[l] - base), &v, 1);
            }
        return 1;
    }
    /* Coalesced: one block, dwords transposed between memory order and the register rows. */
    if (coalesced) {
        coalesced_copy(r, h + (a[0] - base), ndw, store);
        return 1;
    }
#ifdef X_ROWS4
    /* Every lane on, 16 bytes each at its own address (a GEMM's tile loads: one row per lane):
     * four lanes' loads transposed into the four registers at a time (x_rows4).  Such loads
     * walk along their rows, one step of the loop later the next 64 bytes: those after lane l's
     * are fetched ahead (a GEMM's rows are too many streams for the CPU's own prefetchers;
     * gemm_bf16_16 4% faster). */
    if (!store && ndw == 4 && exec == ~0ull) {
        for (unsigned l = 0; l < LANES; l += 4) {
            __m128i q[4];
            for (unsigned k = 0; k < 4; k++)
                q[k] = _mm_loadu_si128((const __m128i *)(h + (a[l + k] - base)));
            __builtin_prefetch(h + (a[l] - base) + 64);
            x_rows4(r, l, q[0], q[1], q[2], q[3]);
        }
        return 1;
    }
#endif
    /* One fixed-size copy per lane (N dwords are contiguous in memory, N lane arrays apart in
     * the registers). */
#define FAST_COPY(N)                                                                               \
    if (store) {                                                                                   \
        for (unsigned l = 0; l < LANES; l++) {                                                     \
            if (exec != ~0ull && !act[l])                                                          \
                continue;                                                                          \
            u32 t[N];                                                                              \
            for (unsigned i = 0; i < N; i++)                                                       \
                t[i] = r[i][l];                                                                    \
            memcpy(h + (a[l] - base), t, 4 * N);                                                   \
        }                                                                                          \
    } else {                                                                                       \
        for (unsigned l = 0; l < LANES; l++) {                                                     \
            if (exec != ~0ull && !act[l])                                                          \
                continue;                                                                          \
            u32 t[N];                                                                              \
            memcpy(t, h + (a[l] - base), 4 * N);                                                   \
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

/* What both private-memory fast paths (scratch_fast, scratch_fast_v4) require first: SCRATCH or
 * FLAT, no LDS or TFE form, a lane on, private memory of at least `size` bytes a lane, not the
 * reference tier. */
static inline __attribute__((always_inline)) int scratch_may(const wave *w, const xinst *x,
                                                             u64 exec, unsigned size) {
    const isa_mem_fields *m = &x->in.f.m;
    return m->seg <= 1 && !m->lds && !m->tfe && exec && w->scratch && w->scratch_lane >= size &&
           !(x->xf & XI_REF);
}

/* Every lane at private offset o0 (4-aligned): dword i of every lane is row o0 / 4 + i, copied
 * whole under full EXEC (not reading the destination first: a register row written lane by
 * lane just before, as v_writelane does, cannot forward to a whole-row load), else merged by
 * the lane masks `on` (exec_lane_masks; NULL: built here when needed). */
static inline __attribute__((always_inline)) void scratch_rows(uint32_t (*r)[LANES], u32 *sc32,
                                                               u32 o0, unsigned ndw, int store,
                                                               u64 exec, const u32 *on) {
    u32 own[LANES];
    if (exec != ~0ull && !on)
        exec_lane_masks(exec, own), on = own;
    for (unsigned i = 0; i < ndw; i++) {
        u32 *row = sc32 + (size_t)((o0 >> 2) + i) * LANES;
        u32 *from = store ? r[i] : row, *to = store ? row : r[i];
        if (exec == ~0ull)
            x_row_copy(to, from, 0);
        else
            for (unsigned l = 0; l < LANES; l++)
                to[l] = (from[l] & on[l]) | (to[l] & ~on[l]);
    }
}

#if defined(__x86_64__) && defined(__linux__) && !defined(GFXEMU_NO_CLONES)
/* scratch_fast for whole dwords on an AVX-512 host (called by scratch_try; lanes of 64 MiB at
 * most, so that dword indices fit 31 bits): the same checks and layout, with the lanes' offsets
 * in four vectors and the checks as lane masks (no reductions across lanes).  Rows are blended
 * and written whole: a wave's private memory is reached by its own lanes only, so rewriting
 * another lane's dword with its value is exact, and a masked store read back whole soon after
 * stalls store forwarding (a loop of private loads and stores ran at two thirds of the speed).
 * Lane l's dword i is at row o[l] / 4 + i of column l, so no two lanes touch one dword and a
 * scatter's order does not matter.  Returns 0, touching nothing, where scratch_fast does. */
__attribute__((target("arch=x86-64-v4"))) static int scratch_fast_v4(wave *w, const xinst *x,
                                                                     unsigned ndw, int store) {
    const isa_mem_fields *m = &x->in.f.m;
    const isa_opnd *va = &x->in.src[0], *sa = &x->in.src[3];
    const u64 exec = wave_exec(w);
    if (!scratch_may(w, x, exec, 4 * ndw))
        return 0;
    const unsigned f = (unsigned)__builtin_ctzll(exec);
    __m512i o[LANES / 16];
    __mmask16 k[LANES / 16], bad = 0, diff = 0;
#pragma GCC unroll 4
    for (unsigned q = 0; q < LANES / 16; q++)
        k[q] = (__mmask16)(exec >> (16 * q));
    u32 o0;
    if (m->seg == 1) {
        /* (no address VGPR: scratch_try's one-offset path takes those first) */
        if (va->kind != ISA_OPND_VGPR)
            return 0;
        u32 base = (u32)m->offset + (sa->kind == ISA_OPND_SREG ? w->s[sa->idx] : 0);
        const u32 *v = w->v[va->idx];
        __m512i b = _mm512_set1_epi32((int)base);
#pragma GCC unroll 4
        for (unsigned q = 0; q < LANES / 16; q++)
            o[q] = _mm512_add_epi32(b, _mm512_loadu_si512(v + 16 * q));
        o0 = base + v[f];
    } else {
        /* FLAT: only lanes in the private aperture qualify (a global access is turned away
         * after one lane's check) */
        if (sa->kind == ISA_OPND_SREG || va->kind != ISA_OPND_VGPR || va->idx + 1 >= NVREG)
            return 0;
        const u32 *lo = w->v[va->idx], *hi = w->v[va->idx + 1];
        const u64 off = (u64)(int64_t)m->offset;
        const u32 priv = (u32)(GMEM_PRIVATE_APERTURE >> 32);
        if ((u32)(((lo[f] | (u64)hi[f] << 32) + off) >> 32) != priv)
            return 0;
        const __m512i offlo = _mm512_set1_epi32((int)(u32)off),
                      offhi = _mm512_set1_epi32((int)(u32)(off >> 32)),
                      pv = _mm512_set1_epi32((int)priv), one = _mm512_set1_epi32(1);
#pragma GCC unroll 4
        for (unsigned q = 0; q < LANES / 16; q++) {
            __m512i a = _mm512_add_epi32(_mm512_loadu_si512(lo + 16 * q), offlo);
            __mmask16 carry = _mm512_cmplt_epu32_mask(a, offlo);
            __m512i h = _mm512_add_epi32(_mm512_loadu_si512(hi + 16 * q), offhi);
            h = _mm512_mask_add_epi32(h, carry, h, one);
            bad |= _mm512_mask_cmpneq_epi32_mask(k[q], h, pv);
            o[q] = a;
        }
        o0 = lo[f] + (u32)off;
    }
    const __m512i last = _mm512_set1_epi32((int)(w->scratch_lane - 4 * ndw)),
                  three = _mm512_set1_epi32(3), first = _mm512_set1_epi32((int)o0);
#pragma GCC unroll 4
    for (unsigned q = 0; q < LANES / 16; q++) {
        bad |= _mm512_mask_cmpgt_epu32_mask(k[q], o[q], last) |
               _mm512_mask_test_epi32_mask(k[q], o[q], three);
        diff |= _mm512_mask_cmpneq_epi32_mask(k[q], o[q], first);
    }
    if (bad)
        return 0;
    uint32_t (*r)[LANES] = store ? vrow(w, &x->in.src[1]) : vrow(w, &x->in.dst[0]);
    u32 *sc32 = (u32 *)(void *)w->scratch;
    if (!diff) {             /* one offset: dword i of every lane is row (o0 / 4 + i) */
        if (exec == ~0ull) { /* whole rows, no read of the destination (scratch_rows) */
            scratch_rows(r, sc32, o0, ndw, store, exec, NULL);
            return 1;
        }
        for (unsigned i = 0; i < ndw; i++) {
            u32 *row = sc32 + (size_t)((o0 >> 2) + i) * LANES;
            u32 *from = store ? r[i] : row, *to = store ? row : r[i];
#pragma GCC unroll 4
            for (unsigned q = 0; q < LANES / 16; q++)
                _mm512_storeu_si512(to + 16 * q,
                                    _mm512_mask_mov_epi32(_mm512_loadu_si512(to + 16 * q), k[q],
                                                          _mm512_loadu_si512(from + 16 * q)));
        }
        return 1;
    }
    /* Lanes at their own offsets (an indexed private array), usually a few rows between them.
     * When the active lanes' rows span at most 4, each row is visited once: its lanes' dwords
     * blended into the registers (loads) or into the row (stores).  No branch or dependency
     * follows the lanes' data (a loop over the distinct rows, or a test per row and quarter,
     * cost more than it saved).  Wider spans take gathers and scatters: 13 ns per 16 lanes on
     * a Cascade Lake with the Downfall mitigation, about what 8 rows of blends cost. */
    __m512i rv[LANES / 16], lo = _mm512_set1_epi32(-1), hi = _mm512_setzero_si512();
#pragma GCC unroll 4
    for (unsigned q = 0; q < LANES / 16; q++) {
        rv[q] = _mm512_srli_epi32(o[q], 2);
        lo = _mm512_mask_min_epu32(lo, k[q], lo, rv[q]);
        hi = _mm512_mask_max_epu32(hi, k[q], hi, rv[q]);
    }
    const u32 r0 = _mm512_reduce_min_epu32(lo), r1 = _mm512_reduce_max_epu32(hi);
    if (r1 - r0 < 4) {
        for (unsigned i = 0; i < ndw; i++)
#pragma GCC unroll 4
            for (unsigned q = 0; q < LANES / 16; q++) {
                u32 *mem = sc32 + (size_t)(r0 + i) * LANES + 16 * q, *reg = r[i] + 16 * q;
                __m512i acc = _mm512_loadu_si512(reg);
                for (u32 row = r0; row <= r1; row++, mem += LANES) {
                    __mmask16 in =
                        _mm512_mask_cmpeq_epi32_mask(k[q], rv[q], _mm512_set1_epi32((int)row));
                    if (store)
                        _mm512_storeu_si512(
                            mem, _mm512_mask_mov_epi32(_mm512_loadu_si512(mem), in, acc));
                    else
                        acc = _mm512_mask_mov_epi32(acc, in, _mm512_loadu_si512(mem));
                }
                if (!store)
                    _mm512_storeu_si512(reg, acc);
            }
        return 1;
    }
    const __m512i lane = _mm512_setr_epi32(0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15);
#pragma GCC unroll 4
    for (unsigned q = 0; q < LANES / 16; q++) {
        __mmask16 kq = k[q];
        if (!kq)
            continue;
        __m512i at = _mm512_add_epi32(_mm512_slli_epi32(rv[q], 6),
                                      _mm512_add_epi32(lane, _mm512_set1_epi32((int)(16 * q))));
        for (unsigned i = 0; i < ndw; i++) {
            __m512i ai = _mm512_add_epi32(at, _mm512_set1_epi32((int)(i * LANES)));
            if (store)
                _mm512_mask_i32scatter_epi32(sc32, kq, ai, _mm512_loadu_si512(r[i] + 16 * q), 4);
            else
                _mm512_storeu_si512(r[i] + 16 * q,
                                    _mm512_mask_i32gather_epi32(_mm512_loadu_si512(r[i] + 16 * q),
                                                                kq, ai, sc32, 4));
        }
    }
    return 1;
}
#define HAVE_SCRATCH_V4 1
#endif

/* Private-memory dword accesses and sub-dword stores without per-lane calls: SCRATCH (seg 1),
 * and FLAT (seg 0) when every active lane's address is in the private aperture (clang -O0
 * reaches private arrays through flat pointers: most of a -O0 kernel's memory traffic).  Lane
 * l's dword d is at scratch + (d * LANES + l) * 4 (lane_access's layout), so when every active
 * lane uses the same offset (spills, and each lane's own copy of a variable: the usual case) a
 * register row is one contiguous row of memory, copied whole under full EXEC and merged lane by
 * lane under partial EXEC; other offsets copy whole dwords per lane instead of lane_access's
 * byte loop.  Returns 0, touching nothing, for anything else (an address outside the lane's
 * private memory or outside the aperture, a misaligned dword access: the general path then does
 * the access and raises any fault).  sub/shift as for vmem_fast. */
VMEM_FAST_ATTR VMEM_FAST_OPT static int scratch_fast(wave *w, const xinst *x, unsigned ndw,
                                                     int store, unsigned sub, unsigned shift) {
    const isa_mem_fields *m = &x->in.f.m;
    const isa_opnd *va = &x->in.src[0], *sa = &x->in.src[3];
    u64 exec = wave_exec(w);
    unsigned size = sub ? sub : 4 * ndw;
    if (!scratch_may(w, x, exec, size))
        return 0;
    const unsigned f = (unsigned)__builtin_ctzll(exec);
    u32 o[LANES], on[LANES], off_diff = 0, bad = 0;
    if (m->seg == 1) {
        u32 base = (u32)m->offset + (sa->kind == ISA_OPND_SREG ? w->s[sa->idx] : 0);
        const u32 *v = va->kind == ISA_OPND_VGPR ? w->v[va->idx] : NULL;
        for (unsigned l = 0; l < LANES; l++)
            o[l] = base + (v ? v[l] : 0);
    } else {
        /* FLAT: a 64-bit VGPR-pair address, added in 32-bit halves so the loop vectorizes;
         * only lanes in the private aperture qualify (a global access is turned away after
         * one lane's check) */
        if (sa->kind == ISA_OPND_SREG || va->kind != ISA_OPND_VGPR || va->idx + 1 >= NVREG)
            return 0;
        const u32 *lo = w->v[va->idx], *hi = w->v[va->idx + 1];
        const u64 off = (u64)(int64_t)m->offset;
        const u32 priv = (u32)(GMEM_PRIVATE_APERTURE >> 32), off_lo = (u32)off,
                  off_hi = (u32)(off >> 32);
        if ((u32)(((lo[f] | (u64)hi[f] << 32) + off) >> 32) != priv)
            return 0;
        exec_lane_masks(exec, on);
        for (unsigned l = 0; l < LANES; l++) {
            u32 a = lo[l] + off_lo;
            o[l] = a;
            bad |= on[l] & ((hi[l] + off_hi + (u32)(a < off_lo)) ^ priv);
        }
    }
    if (m->seg == 1)
        exec_lane_masks(exec, on);
    /* The active lanes' largest offset against the limit (an unsigned max vectorizes; a
     * comparison per lane needed a sign flip per lane on AVX2), their OR for alignment. */
    const u32 last = w->scratch_lane - size, align = sub ? 0 : 3, o0 = o[f];
    u32 top = 0, any = 0;
    for (unsigned l = 0; l < LANES; l++) {
        u32 a = o[l] & on[l];
        top = a > top ? a : top;
        any |= a;
        off_diff |= on[l] & (o[l] ^ o0);
    }
    if (bad | (top > last) | (any & align))
        return 0;
    uint32_t (*r)[LANES] = store ? vrow(w, &x->in.src[1]) : vrow(w, &x->in.dst[0]);
    uint8_t *sc = w->scratch;
    if (sub) {
        for (unsigned l = 0; l < LANES; l++)
            if (on[l]) {
                u32 v = r[0][l] >> shift;
                for (unsigned k = 0; k < sub; k++) {
                    u32 b = o[l] + k;
                    sc[((size_t)(b >> 2) * LANES + l) * 4 + (b & 3)] = (uint8_t)(v >> (8 * k));
                }
            }
        return 1;
    }
    u32 *sc32 = (u32 *)(void *)sc;
    if (off_diff == 0) { /* one offset */
        scratch_rows(r, sc32, o0, ndw, store, exec, on);
        return 1;
    }
    /* lanes at their own offsets (an indexed private array); an inactive lane reads row i of its
     * own column, which is inside its memory, and keeps its register */
    for (unsigned i = 0; i < ndw; i++)
        for (unsigned l = 0; l < LANES; l++) {
            size_t at = (size_t)(((o[l] & on[l]) >> 2) + i) * LANES + l;
            if (store) {
                if (on[l])
                    sc32[at] = r[i][l];
            } else
                r[i][l] = (sc32[at] & on[l]) | (r[i][l] & ~on[l]);
        }
    return 1;
}

/* Whether scratch_fast can apply: SCRATCH or FLAT, in a wave with private memory (checked here,
 * inline, so that GLOBAL accesses do not pay for the call). */
static inline int may_be_private(const wave *w, const xinst *x) {
    return x->in.f.m.seg <= 1 && w->scratch;
}
/* SCRATCH dwords with no VGPR address (saddr or off: a -O0 kernel's variables and spills, most
 * of its memory traffic, and a GEMM's spilled tile registers): one offset for every lane, checked
 * once, without the per-lane offsets (bench-ops: 60 -> 37 ns against scratch_fast_v4 in one
 * slow phase of the host).  Cloned like vmem_fast: inlined into vmem_load, the baseline build's
 * row copies went through the stack in 16-byte pieces, 8 ns a row (a dwordx4 35 ns). */
VMEM_FAST_ATTR VMEM_FAST_OPT VMEM_NOINLINE static int scratch_uniform(wave *w, const xinst *x,
                                                                      unsigned ndw, int store) {
    const isa_mem_fields *m = &x->in.f.m;
    const isa_opnd *sa = &x->in.src[3];
    const u64 exec = wave_exec(w);
    if (!scratch_may(w, x, exec, 4 * ndw))
        return 0;
    u32 o = (u32)m->offset + (sa->kind == ISA_OPND_SREG ? w->s[sa->idx] : 0);
    if (o > w->scratch_lane - 4 * ndw || (o & 3))
        return 0;
    scratch_rows(store ? vrow(w, &x->in.src[1]) : vrow(w, &x->in.dst[0]), (u32 *)(void *)w->scratch,
                 o, ndw, store, exec, NULL);
    return 1;
}

/* scratch_uniform, scratch_fast, or on an AVX-512 host scratch_fast_v4 for whole dwords, called
 * straight from here (through scratch_fast's clone it paid for that function's frame: 6% of a
 * -O0 kernel). */
static inline int scratch_try(wave *w, const xinst *x, unsigned ndw, int store, unsigned sub,
                              unsigned shift) {
    /* (scratch_fast still takes the one-offset form for sub-dword stores) */
    if (!sub && x->in.f.m.seg == 1 && x->in.src[0].kind != ISA_OPND_VGPR)
        return scratch_uniform(w, x, ndw, store);
#ifdef HAVE_SCRATCH_V4
    if (!sub && w->scratch_lane <= (1u << 26) && __builtin_cpu_supports("x86-64-v4"))
        return scratch_fast_v4(w, x, ndw, store);
#endif
    return scratch_fast(w, x, ndw, store, sub, shift);
}

static void vmem_load(wave *w, const xinst *x, unsigned kind, unsigned ndw, ref_fn ref) {
    if (unsupported(w, x, 1))
        return;
    if (ref == flat_ref && kind == K_DW && may_be_private(w, x) && scratch_try(w, x, ndw, 0, 0, 0))
        return;
    if ((ref == flat_ref || ref == buf_ref) &&
        vmem_fast(w, x, ndw, 0, ref == buf_ref, NULL, kind == K_DW ? 0 : load_size(kind, ndw), 0,
                  kind))
        return;
    int to_lds = x->in.f.m.lds;
    u32 lds_base = to_lds ? lds_dest_base(w, x, ref) : 0;
    u64 exec = wave_exec(w);
    uint32_t (*d)[LANES] = to_lds ? NULL : vrow(w, &x->in.dst[0]);
    unsigned size = load_size(kind, ndw);
    for (unsigned l = 0; l < LANES; l++) {
        if (!((exec >> l) & 1))
            continue;
        lane_ref r = ref(w, x, l);
        u32 buf[4] = {0, 0, 0, 0};
        /* Buffers check each dword on its own: a partly out-of-range load reads 0 there. */
        unsigned inside = r.avail >= size ? size : kind == K_DW ? (unsigned)(r.avail / 4) * 4 : 0;
        if (inside && lane_access(w, x, r.space, r.a, buf, inside, 0, l)) {
            wave_mem_fault(w, x, r.a, size, 0);
            w->fault.space = (uint8_t)r.space;
            fault_lanes(w, x, ref, l, size, 0, 0);
            return;
        }
        if (to_lds) { /* (LDS loads are dword, byte or short: no d16 forms) */
            if (kind != K_DW)
                buf[0] = load_extend(kind, buf[0], 0);
            if (lds_put(w, x, lds_base + l * 4 * ndw, buf, 4 * ndw, l))
                return;
            continue;
        }
        if (kind == K_DW) {
            for (unsigned i = 0; i < ndw; i++)
                d[i][l] = buf[i];
            continue;
        }
        u32 v = load_extend(kind, buf[0], d[0][l]);
        d[0][l] = v;
    }
}

static unsigned store_size(unsigned kind, unsigned ndw) {
    return kind == K_ST_B || kind == K_ST_BHI   ? 1
           : kind == K_ST_S || kind == K_ST_SHI ? 2
                                                : 4 * ndw;
}

static void vmem_store(wave *w, const xinst *x, unsigned kind, unsigned ndw, ref_fn ref) {
    if (unsupported(w, x, 0))
        return;
    unsigned sub = kind == K_DW ? 0 : store_size(kind, ndw);
    unsigned shift = kind == K_ST_BHI || kind == K_ST_SHI ? 16 : 0;
    if (ref == flat_ref && may_be_private(w, x) && scratch_try(w, x, ndw, 1, sub, shift))
        return;
    if ((ref == flat_ref || ref == buf_ref) &&
        vmem_fast(w, x, ndw, 1, ref == buf_ref, NULL, sub, shift, K_DW))
        return;
    u64 exec = wave_exec(w);
    uint32_t (*s)[LANES] = vrow(w, &x->in.src[1]);
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
        case K_ST_BHI:
            buf[0] >>= 16;
            size = 1;
            break;
        case K_ST_SHI:
            buf[0] >>= 16;
            size = 2;
            break;
        }
        if (r.avail < size) /* buffer: the in-range dwords are written, the rest dropped */
            size = ndw > 1 ? (unsigned)(r.avail / 4) * 4 : 0;
        if (size && lane_access(w, x, r.space, r.a, buf, size, 1, l)) {
            wave_mem_fault(w, x, r.a, size, 1);
            w->fault.space = (uint8_t)r.space;
            fault_lanes(w, x, ref, l, store_size(kind, ndw), 0, 0);
            return;
        }
    }
}

/* buffer_store_lds_dword (gfx90a; the "LDS to memory" LDS_DMA form, legal only with the lds
 * bit): lane l stores the LDS dword at the MUBUF LDS address of lds_dest_base() + l * 4 to its
 * buffer address (soffset + offset, plus the lane's index when the descriptor's ADD_TID_ENABLE
 * is set; the encoding allows no VGPR address).  No VGPR is read or written. */
static void buffer_store_lds_dword(wave *w, const xinst *x) {
    u32 lds_base = lds_dest_base(w, x, buf_ref);
    u64 exec = wave_exec(w);
    for (unsigned l = 0; l < LANES; l++) {
        if (!((exec >> l) & 1))
            continue;
        u32 la = lds_base + l * 4, v = 0; /* past the LDS: reads 0, as the hardware does */
        if ((u64)la + 4 > w->lds_size && w->mc) {
            wave_fault(w, x, XF_LDS);
            w->fault.addr = la;
            w->fault.size = 4;
            /* every active lane from this one reads past the end */
            w->fault.lanes |= exec & ~0ull << l;
            return;
        }
        if ((u64)la + 4 <= w->lds_size)
            memcpy(&v, w->lds + la, 4);
        lane_ref r = buf_ref(w, x, l);
        if (r.avail < 4) /* out of range: dropped */
            continue;
        if (lane_access(w, x, r.space, r.a, &v, 4, 1, l)) {
            wave_mem_fault(w, x, r.a, 4, 1);
            w->fault.space = (uint8_t)r.space;
            fault_lanes(w, x, buf_ref, l, 4, 0, 0);
            return;
        }
    }
}

/* Atomics.  Global memory uses host atomics (workgroups run on several threads); LDS and
 * private memory belong to one thread, so plain read-modify-write is exact there. */
static void atomic_rows(wave *w, const xinst *x, int op, int is64, ref_fn ref,
                        uint32_t (*d)[LANES]) {
    if (unsupported(w, x, 0))
        return;
    u64 exec = wave_exec(w);
    unsigned size = is64 ? 8 : 4, ndw = is64 ? 2 : 1;
    uint32_t (*s)[LANES] = vrow(w, &x->in.src[1]);
    int ret = d != NULL;
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
        if (op == XA_CMPSWAP || op == XA_CMPSWAP_F) /* (_F: RDNA buffer_atomic_cmpswap_f32) */
            cmp = is64 ? (s[2][l] | (u64)s[3][l] << 32) : s[1][l];
        u64 old = 0;
        if (a & (size - 1)) {
            wave_mem_fault(w, x, a, size, 1);
            w->fault.space = (uint8_t)sp;
            fault_lanes(w, x, ref, l, size, 0, 1);
            return;
        }
        if (sp == SP_GLOBAL) {
            void *p = x_gmem(w, x, a, size, 1, (int)l);
            if (!p) {
                wave_mem_fault(w, x, a, size, 1);
                w->fault.space = (uint8_t)sp;
                fault_lanes(w, x, ref, l, size, 0, 1);
                return;
            }
            old = x_atomic_rmw(p, op, v, cmp, is64);
        } else {
            if (lane_access(w, x, sp, a, &old, size, 0, l)) {
                wave_mem_fault(w, x, a, size, 1);
                w->fault.space = (uint8_t)sp;
                fault_lanes(w, x, ref, l, size, 0, 1);
                return;
            }
            u64 nv = x_atomic_apply(op, old, v, cmp, is64);
            lane_access(w, x, sp, a, &nv, size, 1, l);
        }
        if (ret)
            for (unsigned i = 0; i < ndw; i++)
                d[i][l] = (u32)(old >> (32 * i));
    }
}

/* GLOBAL and FLAT atomics whose active lanes all land, naturally aligned, in one cached
 * translation of writable memory outside the apertures (a reduction's or a histogram's atomics):
 * lane by lane in order as atomic_rows does, with no per-lane address callback, translation or
 * call, and op a constant (atomic_rows cost 16 ns a lane, the host's locked instruction about 8).
 * Returns 0, touching nothing, for anything else: atomic_rows then does it and reports faults. */
static inline __attribute__((always_inline)) int atomic_fast(wave *w, const xinst *x, int op,
                                                             int is64, uint32_t (*d)[LANES]) {
    const isa_mem_fields *m = &x->in.f.m;
    const isa_opnd *va = &x->in.src[0], *sa = &x->in.src[3];
    u64 exec = wave_exec(w), a[LANES];
    unsigned size = is64 ? 8 : 4;
    if (VMEM_TSAN || (x->xf & XI_REF) || !exec || (m->seg != 0 && m->seg != 2) || m->lds ||
        m->tfe || va->kind != ISA_OPND_VGPR || op == XA_CMPSWAP_F)
        return 0;
    u64 off = (u64)(int64_t)m->offset;
    const u32 *lo = w->v[va->idx];
    if (sa->kind == ISA_OPND_SREG) {
        u64 base = (w->s[sa->idx] | (u64)w->s[sa->idx + 1] << 32) + off;
        for (unsigned l = 0; l < LANES; l++)
            a[l] = base + lo[l];
    } else {
        if (va->idx + 1 >= NVREG)
            return 0;
        const u32 *hi = w->v[va->idx + 1];
        for (unsigned l = 0; l < LANES; l++)
            a[l] = (lo[l] | (u64)hi[l] << 32) + off;
    }
    const gmem_cache_line *c = gmem_xlate_line(w->mem, &w->cache, a[__builtin_ctzll(exec)], size);
    if (!c || c->ro || (m->seg == 0 && in_apertures(c)) || c->size < size)
        return 0;
    const u64 base = c->base, lim = c->size - size;
    u64 bad = 0;
    for (unsigned l = 0; l < LANES; l++)
        bad |= ((a[l] - base > lim) | (a[l] & (size - 1))) & (exec >> l);
    if (bad & 1)
        return 0;
    uint32_t (*s)[LANES] = vrow(w, &x->in.src[1]);
    for (unsigned l = 0; l < LANES; l++) {
        if (!((exec >> l) & 1))
            continue;
        u64 v = s[0][l] | (is64 ? (u64)s[1][l] << 32 : 0), cmp = 0;
        if (op == XA_CMPSWAP)
            cmp = is64 ? (s[2][l] | (u64)s[3][l] << 32) : s[1][l];
        u64 old = x_atomic_rmw_inl(c->host + (a[l] - base), op, v, cmp, is64);
        if (d) {
            d[0][l] = (u32)old;
            if (is64)
                d[1][l] = (u32)(old >> 32);
        }
    }
    return 1;
}

static inline __attribute__((always_inline)) void vmem_atomic(wave *w, const xinst *x, int op,
                                                              int is64, ref_fn ref) {
    int ret = x->in.ndst && x->in.dst[0].kind != ISA_OPND_NONE;
    uint32_t (*d)[LANES] = ret ? vrow(w, &x->in.dst[0]) : NULL;
    if (ref == flat_ref && atomic_fast(w, x, op, is64, d))
        return;
    atomic_rows(w, x, op, is64, ref, d);
}

/* ---- formatted buffer access: buffer_*_format_* (format from the V#) and tbuffer_* (format
 * from the instruction's dfmt/nfmt), CDNA3/CDNA4 ISA "Buffer data formats".
 *
 * An element of the buffer holds 1-4 components of one width (DATA_FORMAT); NUM_FORMAT says
 * how a component converts to the 32-bit register value: UNORM x / (2^n - 1), SNORM
 * max(x / (2^(n-1) - 1), -1), USCALED/SSCALED the integer as a float, UINT/SINT the integer
 * (zero/sign-extended), FLOAT an f16 or f32.  Loads of components the format lacks give 0 (y, z)
 * and 1 (w: 1.0 for the float-valued formats); stores write only the components the format has.
 * Stores convert back: UNORM/SNORM clamp to [0, 1] / [-1, 1] and round to nearest even (NaN
 * gives 0), the scaled formats convert to the nearest integer with saturation, UINT/SINT keep
 * the low n bits.  d16 forms hold one 16-bit value per component, two per VGPR (x, y in the low
 * and high halves, then z, w); a half of a VGPR the load does not fill keeps its old value, and
 * float-valued results are rounded to f16.  DST_SEL swizzles in the V# are not applied (compute
 * descriptors use the identity order).  The packed formats 10_11_11, 11_11_10, 10_10_10_2,
 * 2_10_10_10 and the invalid/reserved encodings stop the wave as unimplemented. */
enum { NF_UNORM, NF_SNORM, NF_USCALED, NF_SSCALED, NF_UINT, NF_SINT, NF_RESERVED, NF_FLOAT };
static const uint8_t fmt_ncomp[16] = {[1] = 1,  [2] = 1,  [3] = 2,  [4] = 1,  [5] = 2,
                                      [10] = 4, [11] = 2, [12] = 4, [13] = 3, [14] = 4};
static const uint8_t fmt_bits[16] = {[1] = 8,  [2] = 16,  [3] = 8,   [4] = 32,  [5] = 16,
                                     [10] = 8, [11] = 32, [12] = 16, [13] = 32, [14] = 32};

static u32 f32_to_h(float f) {
    _Float16 h = (_Float16)f;
    uint16_t u;
    memcpy(&u, &h, 2);
    return u;
}
static float h_to_f32(u32 v) {
    uint16_t u = (uint16_t)v;
    _Float16 h;
    memcpy(&h, &u, 2);
    return (float)h;
}
static int fmt_is_float(unsigned nf) { return nf != NF_UINT && nf != NF_SINT; }

/* Memory component (n bits) -> register value (32-bit, or 16-bit for d16). */
static u32 fmt_load(u32 r, unsigned n, unsigned nf, int d16) {
    u32 mask = n == 32 ? 0xffffffffu : (1u << n) - 1;
    int64_t sv =
        n == 32 ? (int64_t)(int32_t)r : (int64_t)((r ^ (1u << (n - 1))) & mask) - (1 << (n - 1));
    float f = 0;
    switch (nf) {
    case NF_UNORM: f = (float)((double)r / mask); break;
    case NF_SNORM:
        f = (float)((double)sv / (mask >> 1));
        f = f < -1.0f ? -1.0f : f;
        break;
    case NF_USCALED: f = (float)r; break;
    case NF_SSCALED: f = (float)sv; break;
    case NF_UINT: return d16 ? r & 0xffff : r;
    case NF_SINT: return d16 ? (u32)sv & 0xffff : (u32)sv;
    default: f = n == 16 ? h_to_f32(r) : f32(r); break; /* NF_FLOAT */
    }
    if (d16)
        return nf == NF_FLOAT && n == 16 ? r : f32_to_h(f);
    return bf32(f);
}

static u32 sat_round(double v, double lo, double hi) {
    if (v != v)
        return 0;
    v = v < lo ? lo : v > hi ? hi : v;
    return (u32)(int64_t)__builtin_rint(v);
}

/* Register value -> memory component. */
static u32 fmt_store(u32 v, unsigned n, unsigned nf, int d16) {
    u32 mask = n == 32 ? 0xffffffffu : (1u << n) - 1;
    float f = d16 ? h_to_f32(v) : f32(v);
    switch (nf) {
    case NF_UNORM: return sat_round((double)f * mask, 0, mask);
    case NF_SNORM:
        return sat_round((double)f * (mask >> 1), -(double)(mask >> 1), mask >> 1) & mask;
    case NF_USCALED: return sat_round(f, 0, mask);
    case NF_SSCALED: return sat_round(f, -(double)(mask >> 1) - 1, mask >> 1) & mask;
    case NF_UINT: return (d16 ? v & 0xffff : v) & mask;
    case NF_SINT: return (d16 ? (u32)(int32_t)(int16_t)v : v) & mask;
    default: /* NF_FLOAT */
        if (n == 16)
            return d16 ? v & 0xffff : f32_to_h(f);
        return d16 ? bf32(f) : v;
    }
}

/* One handler for all formatted accesses: nc = components of the op, d16 (1 = packed halves,
 * 2 = the d16_hi form: x in the high half), store, tbuf (format from the instruction). */
static void format_at(wave *w, const xinst *x, unsigned nc, int d16, int store, unsigned df,
                      unsigned nf, ref_fn ref) {
    if (unsupported(w, x, 0)) /* no lds form: format loads into LDS are not modelled */
        return;
    unsigned fc = fmt_ncomp[df & 15], n = fmt_bits[df & 15];
    if (!fc || nf == NF_RESERVED || (nf == NF_FLOAT && n == 8)) {
        wave_fault(w, x, XF_UNIMPLEMENTED);
        return;
    }
    unsigned cb = n / 8;
    uint32_t (*v)[LANES] = store ? vrow(w, &x->in.src[1]) : vrow(w, &x->in.dst[0]);
    u64 exec = wave_exec(w);
    for (unsigned l = 0; l < LANES; l++) {
        if (!((exec >> l) & 1))
            continue;
        lane_ref r = ref(w, x, l);
        for (unsigned c = 0; c < nc; c++) {
            /* register slot of component c: dword c, or half (c & 1) of dword c / 2 */
            unsigned dw = d16 ? c / 2 : c, sh = d16 == 2 ? 16 : d16 ? 16 * (c & 1) : 0;
            int inside = c < fc && r.avail >= (u64)(c + 1) * cb;
            u32 raw = 0;
            if (store) {
                if (!inside)
                    continue;
                raw = fmt_store(d16 ? v[dw][l] >> sh : v[dw][l], n, nf, d16 != 0);
                if (lane_access(w, x, r.space, r.a + c * cb, &raw, cb, 1, l)) {
                    wave_mem_fault(w, x, r.a + c * cb, cb, 1);
                    w->fault.space = (uint8_t)r.space;
                    fault_lanes(w, x, ref, l, (nc < fc ? nc : fc) * cb, cb, 0);
                    return;
                }
                continue;
            }
            u32 val;
            if (c >= fc) { /* missing component: 0, or 1 for w */
                u32 one = fmt_is_float(nf) ? (d16 ? 0x3c00u : 0x3f800000u) : 1u;
                val = c == 3 ? one : 0;
            } else if (!inside) {
                val = 0;
            } else {
                if (lane_access(w, x, r.space, r.a + c * cb, &raw, cb, 0, l)) {
                    wave_mem_fault(w, x, r.a + c * cb, cb, 0);
                    w->fault.space = (uint8_t)r.space;
                    fault_lanes(w, x, ref, l, (nc < fc ? nc : fc) * cb, cb, 0);
                    return;
                }
                val = fmt_load(raw, n, nf, d16 != 0);
            }
            if (d16)
                v[dw][l] = (v[dw][l] & ~(0xffffu << sh)) | (val & 0xffff) << sh;
            else
                v[dw][l] = val;
        }
    }
}
/* The packed formats (RDNA3/RDNA4 ISA "Buffer formats": 10_11_11, 11_11_10, 10_10_10_2,
 * 2_10_10_10): one dword holds every component, named from the most significant one down, so
 * X is in the low bits (10_11_11: X [10:0], Y [21:11], Z [31:22]; 2_10_10_10: X [9:0] ...
 * W [31:30]).  The integer number formats convert each field as fmt_load()/fmt_store() do an
 * n-bit component; FLOAT is the unsigned 11- and 10-bit floats (5-bit exponent, bias 15, 6 or
 * 5 mantissa bits, no sign: a negative value stores as 0, rounding to nearest even, overflow to
 * infinity, NaN stays a NaN).  The dword is range-checked and accessed as a whole.  A store must
 * give every component of the format (which bits the hardware writes for the others is not
 * written down): fewer stop the wave by name. */
static const struct {
    uint8_t nc, bits[4], shift[4];
} packed_fmt[X_PACKED_N] = {
    [X_PACKED_10_11_11] = {3, {11, 11, 10}, {0, 11, 22}},
    [X_PACKED_11_11_10] = {3, {10, 11, 11}, {0, 10, 21}},
    [X_PACKED_10_10_10_2] = {4, {2, 10, 10, 10}, {0, 2, 12, 22}},
    [X_PACKED_2_10_10_10] = {4, {10, 10, 10, 2}, {0, 10, 20, 30}},
};
/* Unsigned small float (mb mantissa bits, 5 exponent bits) <-> f32. */
static float ufloat_to_f32(u32 v, unsigned mb) {
    u32 e = (v >> mb) & 31, m = v & ((1u << mb) - 1);
    if (e == 31)
        return m ? NAN : INFINITY;
    return e ? ldexpf((float)((1u << mb) + m), (int)e - 15 - (int)mb)
             : ldexpf((float)m, -14 - (int)mb);
}
static u32 f32_to_ufloat(float f, unsigned mb) {
    if (f != f)
        return 31u << mb | 1u << (mb - 1);
    if (!(f > 0))
        return 0; /* negative, -0, +0 */
    if (f == INFINITY)
        return 31u << mb;
    int e2;
    frexp(f, &e2);
    int be = e2 - 1 + 15; /* biased exponent */
    u32 q;
    if (be < 1) /* denormal: units of 2^(-14-mb); rounding up to 2^mb gives the smallest normal */
        q = (u32)__builtin_rint(ldexp((double)f, 14 + (int)mb));
    else /* q in [2^mb, 2^(mb+1)]: the carry of a rounding up lands in the exponent */
        q = ((u32)be << mb) + (u32)__builtin_rint(ldexp((double)f, (int)mb - (be - 15))) -
            (1u << mb);
    return q >= 31u << mb ? 31u << mb : q;
}
static void packed_at(wave *w, const xinst *x, unsigned nc, int d16, int store, unsigned layout,
                      unsigned nf, ref_fn ref) {
    if (unsupported(w, x, 0))
        return;
    unsigned fc = packed_fmt[layout].nc;
    int fl = nf == NF_FLOAT;
    if (nf == NF_RESERVED || (fl && layout > X_PACKED_11_11_10) || (store && nc < fc)) {
        wave_fault(w, x, XF_UNIMPLEMENTED);
        w->fault.note = store && nc < fc ? "a packed-format store of fewer components than the "
                                           "format has"
                                         : "number format not defined for this packed format";
        return;
    }
    uint32_t (*v)[LANES] = store ? vrow(w, &x->in.src[1]) : vrow(w, &x->in.dst[0]);
    u64 exec = wave_exec(w);
    for (unsigned l = 0; l < LANES; l++) {
        if (!((exec >> l) & 1))
            continue;
        lane_ref r = ref(w, x, l);
        int inside = r.avail >= 4;
        u32 raw = 0;
        if (store) {
            if (!inside)
                continue;
            for (unsigned c = 0; c < fc; c++) {
                unsigned dw = d16 ? c / 2 : c, sh = d16 == 2 ? 16 : d16 ? 16 * (c & 1) : 0;
                unsigned n = packed_fmt[layout].bits[c];
                u32 rv = d16 ? (v[dw][l] >> sh) & 0xffff : v[dw][l], f;
                if (fl)
                    f = f32_to_ufloat(d16 ? h_to_f32(rv) : f32(rv), n - 5);
                else
                    f = fmt_store(rv, n, nf, d16 != 0);
                raw |= (f & ((1u << n) - 1)) << packed_fmt[layout].shift[c];
            }
            if (lane_access(w, x, r.space, r.a, &raw, 4, 1, l)) {
                wave_mem_fault(w, x, r.a, 4, 1);
                w->fault.space = (uint8_t)r.space;
                fault_lanes(w, x, ref, l, 4, 0, 0);
                return;
            }
            continue;
        }
        if (inside && lane_access(w, x, r.space, r.a, &raw, 4, 0, l)) {
            wave_mem_fault(w, x, r.a, 4, 0);
            w->fault.space = (uint8_t)r.space;
            fault_lanes(w, x, ref, l, 4, 0, 0);
            return;
        }
        for (unsigned c = 0; c < nc; c++) {
            unsigned dw = d16 ? c / 2 : c, sh = d16 == 2 ? 16 : d16 ? 16 * (c & 1) : 0;
            u32 val;
            if (c >= fc) { /* missing component (z of a 2-component op cannot happen): w = 1 */
                u32 one = fmt_is_float(nf) ? (d16 ? 0x3c00u : 0x3f800000u) : 1u;
                val = c == 3 ? one : 0;
            } else if (!inside) {
                val = 0;
            } else {
                unsigned n = packed_fmt[layout].bits[c];
                u32 field = (raw >> packed_fmt[layout].shift[c]) & ((1u << n) - 1);
                if (fl) {
                    float f = ufloat_to_f32(field, n - 5);
                    val = d16 ? f32_to_h(f) : bf32(f);
                } else {
                    val = fmt_load(field, n, nf, d16 != 0);
                }
            }
            if (d16)
                v[dw][l] = (v[dw][l] & ~(0xffffu << sh)) | (val & 0xffff) << sh;
            else
                v[dw][l] = val;
        }
    }
}
static void vmem_format(wave *w, const xinst *x, unsigned nc, int d16, int store, int tbuf) {
    const isa_mem_fields *m = &x->in.f.m;
    u32 w3 = w->s[x->in.src[3].idx + 3];
    unsigned df = tbuf ? m->dfmt : (w3 >> 15) & 15, nf = tbuf ? m->nfmt : (w3 >> 12) & 7;
    format_at(w, x, nc, d16, store, df, nf, buf_ref);
}
/* The handler rows: one X-macro list per engine, one line per op, spelling the op's mnemonic
 * beside the engine and its parameters (`grep -rnw global_load_dwordx4 src/exec` lands on its
 * line).  Each list defines the op's handler (a call of the engine) and its table row.
 * clang-format-22 reflows macro lists differently on every pass, so they are kept as written. */
/* clang-format off */

/* Loads and stores: op, engine, data kind, dwords, how a lane's address is formed (flat_ref: FLAT,
 * GLOBAL, SCRATCH; buf_ref: MUBUF). */
#define VMEM_LDST(X)                                                 \
    X(flat_load_dword, vmem_load, K_DW, 1, flat_ref)                 \
    X(flat_load_dwordx2, vmem_load, K_DW, 2, flat_ref)               \
    X(flat_load_dwordx3, vmem_load, K_DW, 3, flat_ref)               \
    X(flat_load_dwordx4, vmem_load, K_DW, 4, flat_ref)               \
    X(flat_load_ubyte, vmem_load, K_UB, 1, flat_ref)                 \
    X(flat_load_sbyte, vmem_load, K_SB, 1, flat_ref)                 \
    X(flat_load_ushort, vmem_load, K_US, 1, flat_ref)                \
    X(flat_load_sshort, vmem_load, K_SS, 1, flat_ref)                \
    X(flat_load_ubyte_d16, vmem_load, K_D16_UB, 1, flat_ref)         \
    X(flat_load_sbyte_d16, vmem_load, K_D16_SB, 1, flat_ref)         \
    X(flat_load_short_d16, vmem_load, K_D16_S, 1, flat_ref)          \
    X(flat_load_ubyte_d16_hi, vmem_load, K_D16HI_UB, 1, flat_ref)    \
    X(flat_load_sbyte_d16_hi, vmem_load, K_D16HI_SB, 1, flat_ref)    \
    X(flat_load_short_d16_hi, vmem_load, K_D16HI_S, 1, flat_ref)     \
    X(flat_store_dword, vmem_store, K_DW, 1, flat_ref)               \
    X(flat_store_dwordx2, vmem_store, K_DW, 2, flat_ref)             \
    X(flat_store_dwordx3, vmem_store, K_DW, 3, flat_ref)             \
    X(flat_store_dwordx4, vmem_store, K_DW, 4, flat_ref)             \
    X(flat_store_byte, vmem_store, K_ST_B, 1, flat_ref)              \
    X(flat_store_short, vmem_store, K_ST_S, 1, flat_ref)             \
    X(flat_store_byte_d16_hi, vmem_store, K_ST_BHI, 1, flat_ref)     \
    X(flat_store_short_d16_hi, vmem_store, K_ST_SHI, 1, flat_ref)    \
    X(global_load_dword, vmem_load, K_DW, 1, flat_ref)               \
    X(global_load_dwordx2, vmem_load, K_DW, 2, flat_ref)             \
    X(global_load_dwordx3, vmem_load, K_DW, 3, flat_ref)             \
    X(global_load_dwordx4, vmem_load, K_DW, 4, flat_ref)             \
    X(global_load_ubyte, vmem_load, K_UB, 1, flat_ref)               \
    X(global_load_sbyte, vmem_load, K_SB, 1, flat_ref)               \
    X(global_load_ushort, vmem_load, K_US, 1, flat_ref)              \
    X(global_load_sshort, vmem_load, K_SS, 1, flat_ref)              \
    X(global_load_ubyte_d16, vmem_load, K_D16_UB, 1, flat_ref)       \
    X(global_load_sbyte_d16, vmem_load, K_D16_SB, 1, flat_ref)       \
    X(global_load_short_d16, vmem_load, K_D16_S, 1, flat_ref)        \
    X(global_load_ubyte_d16_hi, vmem_load, K_D16HI_UB, 1, flat_ref)  \
    X(global_load_sbyte_d16_hi, vmem_load, K_D16HI_SB, 1, flat_ref)  \
    X(global_load_short_d16_hi, vmem_load, K_D16HI_S, 1, flat_ref)   \
    X(global_store_dword, vmem_store, K_DW, 1, flat_ref)             \
    X(global_store_dwordx2, vmem_store, K_DW, 2, flat_ref)           \
    X(global_store_dwordx3, vmem_store, K_DW, 3, flat_ref)           \
    X(global_store_dwordx4, vmem_store, K_DW, 4, flat_ref)           \
    X(global_store_byte, vmem_store, K_ST_B, 1, flat_ref)            \
    X(global_store_short, vmem_store, K_ST_S, 1, flat_ref)           \
    X(global_store_byte_d16_hi, vmem_store, K_ST_BHI, 1, flat_ref)   \
    X(global_store_short_d16_hi, vmem_store, K_ST_SHI, 1, flat_ref)  \
    X(scratch_load_dword, vmem_load, K_DW, 1, flat_ref)              \
    X(scratch_load_dwordx2, vmem_load, K_DW, 2, flat_ref)            \
    X(scratch_load_dwordx3, vmem_load, K_DW, 3, flat_ref)            \
    X(scratch_load_dwordx4, vmem_load, K_DW, 4, flat_ref)            \
    X(scratch_load_ubyte, vmem_load, K_UB, 1, flat_ref)              \
    X(scratch_load_sbyte, vmem_load, K_SB, 1, flat_ref)              \
    X(scratch_load_ushort, vmem_load, K_US, 1, flat_ref)             \
    X(scratch_load_sshort, vmem_load, K_SS, 1, flat_ref)             \
    X(scratch_load_ubyte_d16, vmem_load, K_D16_UB, 1, flat_ref)      \
    X(scratch_load_sbyte_d16, vmem_load, K_D16_SB, 1, flat_ref)      \
    X(scratch_load_short_d16, vmem_load, K_D16_S, 1, flat_ref)       \
    X(scratch_load_ubyte_d16_hi, vmem_load, K_D16HI_UB, 1, flat_ref) \
    X(scratch_load_sbyte_d16_hi, vmem_load, K_D16HI_SB, 1, flat_ref) \
    X(scratch_load_short_d16_hi, vmem_load, K_D16HI_S, 1, flat_ref)  \
    X(scratch_store_dword, vmem_store, K_DW, 1, flat_ref)            \
    X(scratch_store_dwordx2, vmem_store, K_DW, 2, flat_ref)          \
    X(scratch_store_dwordx3, vmem_store, K_DW, 3, flat_ref)          \
    X(scratch_store_dwordx4, vmem_store, K_DW, 4, flat_ref)          \
    X(scratch_store_byte, vmem_store, K_ST_B, 1, flat_ref)           \
    X(scratch_store_short, vmem_store, K_ST_S, 1, flat_ref)          \
    X(scratch_store_byte_d16_hi, vmem_store, K_ST_BHI, 1, flat_ref)  \
    X(scratch_store_short_d16_hi, vmem_store, K_ST_SHI, 1, flat_ref) \
    X(buffer_load_dword, vmem_load, K_DW, 1, buf_ref)                \
    X(buffer_load_dwordx2, vmem_load, K_DW, 2, buf_ref)              \
    X(buffer_load_dwordx3, vmem_load, K_DW, 3, buf_ref)              \
    X(buffer_load_dwordx4, vmem_load, K_DW, 4, buf_ref)              \
    X(buffer_load_ubyte, vmem_load, K_UB, 1, buf_ref)                \
    X(buffer_load_sbyte, vmem_load, K_SB, 1, buf_ref)                \
    X(buffer_load_ushort, vmem_load, K_US, 1, buf_ref)               \
    X(buffer_load_sshort, vmem_load, K_SS, 1, buf_ref)               \
    X(buffer_load_ubyte_d16, vmem_load, K_D16_UB, 1, buf_ref)        \
    X(buffer_load_sbyte_d16, vmem_load, K_D16_SB, 1, buf_ref)        \
    X(buffer_load_short_d16, vmem_load, K_D16_S, 1, buf_ref)         \
    X(buffer_load_ubyte_d16_hi, vmem_load, K_D16HI_UB, 1, buf_ref)   \
    X(buffer_load_sbyte_d16_hi, vmem_load, K_D16HI_SB, 1, buf_ref)   \
    X(buffer_load_short_d16_hi, vmem_load, K_D16HI_S, 1, buf_ref)    \
    X(buffer_store_dword, vmem_store, K_DW, 1, buf_ref)              \
    X(buffer_store_dwordx2, vmem_store, K_DW, 2, buf_ref)            \
    X(buffer_store_dwordx3, vmem_store, K_DW, 3, buf_ref)            \
    X(buffer_store_dwordx4, vmem_store, K_DW, 4, buf_ref)            \
    X(buffer_store_byte, vmem_store, K_ST_B, 1, buf_ref)             \
    X(buffer_store_short, vmem_store, K_ST_S, 1, buf_ref)            \
    X(buffer_store_byte_d16_hi, vmem_store, K_ST_BHI, 1, buf_ref)    \
    X(buffer_store_short_d16_hi, vmem_store, K_ST_SHI, 1, buf_ref)
/* GLOBAL/FLAT dword ops try vmem_lin here, before the engine (the conditions fold at compile
 * time, so other ops pay nothing): a call less on an elementwise kernel's every access.  Not
 * FLAT in a wave with private memory: clang -O0 reaches its private arrays that way, and
 * vmem_lin's translation would search the region table for every such access first. */
#define DEF_LDST(op, fn, kind, n, ref)                                                             \
    static void op(wave *w, const xinst *x) {                                                      \
        if (ref == flat_ref && kind == K_DW && !may_be_private(w, x) &&                            \
            vmem_lin(w, x, n, fn == vmem_store))                                                   \
            return;                                                                                \
        fn(w, x, kind, n, ref);                                                                    \
    }
VMEM_LDST(DEF_LDST)

/* Formatted buffer accesses: op, components, d16 (1 packed halves, 2 the d16_hi form), store,
 * format from the instruction (tbuffer) instead of the V#. */
#define VMEM_FORMAT(X)                           \
    X(buffer_load_format_x, 1, 0, 0, 0)          \
    X(buffer_load_format_xy, 2, 0, 0, 0)         \
    X(buffer_load_format_xyz, 3, 0, 0, 0)        \
    X(buffer_load_format_xyzw, 4, 0, 0, 0)       \
    X(buffer_load_format_d16_x, 1, 1, 0, 0)      \
    X(buffer_load_format_d16_xy, 2, 1, 0, 0)     \
    X(buffer_load_format_d16_xyz, 3, 1, 0, 0)    \
    X(buffer_load_format_d16_xyzw, 4, 1, 0, 0)   \
    X(buffer_store_format_x, 1, 0, 1, 0)         \
    X(buffer_store_format_xy, 2, 0, 1, 0)        \
    X(buffer_store_format_xyz, 3, 0, 1, 0)       \
    X(buffer_store_format_xyzw, 4, 0, 1, 0)      \
    X(buffer_store_format_d16_x, 1, 1, 1, 0)     \
    X(buffer_store_format_d16_xy, 2, 1, 1, 0)    \
    X(buffer_store_format_d16_xyz, 3, 1, 1, 0)   \
    X(buffer_store_format_d16_xyzw, 4, 1, 1, 0)  \
    X(tbuffer_load_format_x, 1, 0, 0, 1)         \
    X(tbuffer_load_format_xy, 2, 0, 0, 1)        \
    X(tbuffer_load_format_xyz, 3, 0, 0, 1)       \
    X(tbuffer_load_format_xyzw, 4, 0, 0, 1)      \
    X(tbuffer_load_format_d16_x, 1, 1, 0, 1)     \
    X(tbuffer_load_format_d16_xy, 2, 1, 0, 1)    \
    X(tbuffer_load_format_d16_xyz, 3, 1, 0, 1)   \
    X(tbuffer_load_format_d16_xyzw, 4, 1, 0, 1)  \
    X(tbuffer_store_format_x, 1, 0, 1, 1)        \
    X(tbuffer_store_format_xy, 2, 0, 1, 1)       \
    X(tbuffer_store_format_xyz, 3, 0, 1, 1)      \
    X(tbuffer_store_format_xyzw, 4, 0, 1, 1)     \
    X(tbuffer_store_format_d16_x, 1, 1, 1, 1)    \
    X(tbuffer_store_format_d16_xy, 2, 1, 1, 1)   \
    X(tbuffer_store_format_d16_xyz, 3, 1, 1, 1)  \
    X(tbuffer_store_format_d16_xyzw, 4, 1, 1, 1) \
    X(buffer_load_format_d16_hi_x, 1, 2, 0, 0)   \
    X(buffer_store_format_d16_hi_x, 1, 2, 1, 0)
#define DEF_FORMAT(op, nc, d16, store, tbuf) \
    static void op(wave *w, const xinst *x) { vmem_format(w, x, nc, d16, store, tbuf); }
VMEM_FORMAT(DEF_FORMAT)

/* Atomics: op, operation (xatomic.h), 64-bit data, address form. */
#define VMEM_ATOMIC(X)                                        \
    X(flat_atomic_add, XA_ADD, 0, flat_ref)                   \
    X(flat_atomic_add_x2, XA_ADD, 1, flat_ref)                \
    X(flat_atomic_sub, XA_SUB, 0, flat_ref)                   \
    X(flat_atomic_sub_x2, XA_SUB, 1, flat_ref)                \
    X(flat_atomic_swap, XA_SWAP, 0, flat_ref)                 \
    X(flat_atomic_swap_x2, XA_SWAP, 1, flat_ref)              \
    X(flat_atomic_cmpswap, XA_CMPSWAP, 0, flat_ref)           \
    X(flat_atomic_cmpswap_x2, XA_CMPSWAP, 1, flat_ref)        \
    X(flat_atomic_smin, XA_SMIN, 0, flat_ref)                 \
    X(flat_atomic_smin_x2, XA_SMIN, 1, flat_ref)              \
    X(flat_atomic_umin, XA_UMIN, 0, flat_ref)                 \
    X(flat_atomic_umin_x2, XA_UMIN, 1, flat_ref)              \
    X(flat_atomic_smax, XA_SMAX, 0, flat_ref)                 \
    X(flat_atomic_smax_x2, XA_SMAX, 1, flat_ref)              \
    X(flat_atomic_umax, XA_UMAX, 0, flat_ref)                 \
    X(flat_atomic_umax_x2, XA_UMAX, 1, flat_ref)              \
    X(flat_atomic_and, XA_AND, 0, flat_ref)                   \
    X(flat_atomic_and_x2, XA_AND, 1, flat_ref)                \
    X(flat_atomic_or, XA_OR, 0, flat_ref)                     \
    X(flat_atomic_or_x2, XA_OR, 1, flat_ref)                  \
    X(flat_atomic_xor, XA_XOR, 0, flat_ref)                   \
    X(flat_atomic_xor_x2, XA_XOR, 1, flat_ref)                \
    X(flat_atomic_inc, XA_INC, 0, flat_ref)                   \
    X(flat_atomic_inc_x2, XA_INC, 1, flat_ref)                \
    X(flat_atomic_dec, XA_DEC, 0, flat_ref)                   \
    X(flat_atomic_dec_x2, XA_DEC, 1, flat_ref)                \
    X(flat_atomic_add_f32, XA_FADD, 0, flat_ref)              \
    X(flat_atomic_add_f64, XA_FADD, 1, flat_ref)              \
    X(flat_atomic_min_f64, XA_FMIN, 1, flat_ref)              \
    X(flat_atomic_max_f64, XA_FMAX, 1, flat_ref)              \
    X(flat_atomic_pk_add_f16, XA_PK_ADD_F16, 0, flat_ref)     \
    X(flat_atomic_pk_add_bf16, XA_PK_ADD_BF16, 0, flat_ref)   \
    X(global_atomic_add, XA_ADD, 0, flat_ref)                 \
    X(global_atomic_add_x2, XA_ADD, 1, flat_ref)              \
    X(global_atomic_sub, XA_SUB, 0, flat_ref)                 \
    X(global_atomic_sub_x2, XA_SUB, 1, flat_ref)              \
    X(global_atomic_swap, XA_SWAP, 0, flat_ref)               \
    X(global_atomic_swap_x2, XA_SWAP, 1, flat_ref)            \
    X(global_atomic_cmpswap, XA_CMPSWAP, 0, flat_ref)         \
    X(global_atomic_cmpswap_x2, XA_CMPSWAP, 1, flat_ref)      \
    X(global_atomic_smin, XA_SMIN, 0, flat_ref)               \
    X(global_atomic_smin_x2, XA_SMIN, 1, flat_ref)            \
    X(global_atomic_umin, XA_UMIN, 0, flat_ref)               \
    X(global_atomic_umin_x2, XA_UMIN, 1, flat_ref)            \
    X(global_atomic_smax, XA_SMAX, 0, flat_ref)               \
    X(global_atomic_smax_x2, XA_SMAX, 1, flat_ref)            \
    X(global_atomic_umax, XA_UMAX, 0, flat_ref)               \
    X(global_atomic_umax_x2, XA_UMAX, 1, flat_ref)            \
    X(global_atomic_and, XA_AND, 0, flat_ref)                 \
    X(global_atomic_and_x2, XA_AND, 1, flat_ref)              \
    X(global_atomic_or, XA_OR, 0, flat_ref)                   \
    X(global_atomic_or_x2, XA_OR, 1, flat_ref)                \
    X(global_atomic_xor, XA_XOR, 0, flat_ref)                 \
    X(global_atomic_xor_x2, XA_XOR, 1, flat_ref)              \
    X(global_atomic_inc, XA_INC, 0, flat_ref)                 \
    X(global_atomic_inc_x2, XA_INC, 1, flat_ref)              \
    X(global_atomic_dec, XA_DEC, 0, flat_ref)                 \
    X(global_atomic_dec_x2, XA_DEC, 1, flat_ref)              \
    X(global_atomic_add_f32, XA_FADD, 0, flat_ref)            \
    X(global_atomic_add_f64, XA_FADD, 1, flat_ref)            \
    X(global_atomic_min_f64, XA_FMIN, 1, flat_ref)            \
    X(global_atomic_max_f64, XA_FMAX, 1, flat_ref)            \
    X(global_atomic_pk_add_f16, XA_PK_ADD_F16, 0, flat_ref)   \
    X(global_atomic_pk_add_bf16, XA_PK_ADD_BF16, 0, flat_ref) \
    X(buffer_atomic_add, XA_ADD, 0, buf_ref)                  \
    X(buffer_atomic_add_x2, XA_ADD, 1, buf_ref)               \
    X(buffer_atomic_sub, XA_SUB, 0, buf_ref)                  \
    X(buffer_atomic_sub_x2, XA_SUB, 1, buf_ref)               \
    X(buffer_atomic_swap, XA_SWAP, 0, buf_ref)                \
    X(buffer_atomic_swap_x2, XA_SWAP, 1, buf_ref)             \
    X(buffer_atomic_cmpswap, XA_CMPSWAP, 0, buf_ref)          \
    X(buffer_atomic_cmpswap_x2, XA_CMPSWAP, 1, buf_ref)       \
    X(buffer_atomic_smin, XA_SMIN, 0, buf_ref)                \
    X(buffer_atomic_smin_x2, XA_SMIN, 1, buf_ref)             \
    X(buffer_atomic_umin, XA_UMIN, 0, buf_ref)                \
    X(buffer_atomic_umin_x2, XA_UMIN, 1, buf_ref)             \
    X(buffer_atomic_smax, XA_SMAX, 0, buf_ref)                \
    X(buffer_atomic_smax_x2, XA_SMAX, 1, buf_ref)             \
    X(buffer_atomic_umax, XA_UMAX, 0, buf_ref)                \
    X(buffer_atomic_umax_x2, XA_UMAX, 1, buf_ref)             \
    X(buffer_atomic_and, XA_AND, 0, buf_ref)                  \
    X(buffer_atomic_and_x2, XA_AND, 1, buf_ref)               \
    X(buffer_atomic_or, XA_OR, 0, buf_ref)                    \
    X(buffer_atomic_or_x2, XA_OR, 1, buf_ref)                 \
    X(buffer_atomic_xor, XA_XOR, 0, buf_ref)                  \
    X(buffer_atomic_xor_x2, XA_XOR, 1, buf_ref)               \
    X(buffer_atomic_inc, XA_INC, 0, buf_ref)                  \
    X(buffer_atomic_inc_x2, XA_INC, 1, buf_ref)               \
    X(buffer_atomic_dec, XA_DEC, 0, buf_ref)                  \
    X(buffer_atomic_dec_x2, XA_DEC, 1, buf_ref)               \
    X(buffer_atomic_add_f32, XA_FADD, 0, buf_ref)             \
    X(buffer_atomic_add_f64, XA_FADD, 1, buf_ref)             \
    X(buffer_atomic_min_f64, XA_FMIN, 1, buf_ref)             \
    X(buffer_atomic_max_f64, XA_FMAX, 1, buf_ref)             \
    X(buffer_atomic_pk_add_f16, XA_PK_ADD_F16, 0, buf_ref)    \
    X(buffer_atomic_pk_add_bf16, XA_PK_ADD_BF16, 0, buf_ref)
#define DEF_ATOMIC(op, aop, is64, ref) \
    static void op(wave *w, const xinst *x) { vmem_atomic(w, x, aop, is64, ref); }
VMEM_ATOMIC(DEF_ATOMIC)

/* A FLAT/GLOBAL/SCRATCH atomic of xatomic.h's op `aop`, for the RDNA ops whose operation no
 * CDNA op has (src/exec/rdna_alu.c: global_atomic_min_f32 ...). */
void x_flat_atomic(wave *w, const xinst *x, int aop, int is64) {
    vmem_atomic(w, x, aop, is64, flat_ref);
}
/* clang-format on */

/* The engines for other address forms (vmem.h; the RDNA buffer descriptor, src/exec/rdna_mem.c) */
void x_vmem_load(wave *w, const xinst *x, unsigned kind, unsigned ndw, ref_fn ref,
                 const x_rawbuf *rb) {
    if (rb && vmem_fast(w, x, ndw, 0, 1, rb, kind == K_DW ? 0 : load_size(kind, ndw), 0, kind))
        return;
    vmem_load(w, x, kind, ndw, ref);
}
void x_vmem_store(wave *w, const xinst *x, unsigned kind, unsigned ndw, ref_fn ref,
                  const x_rawbuf *rb) {
    if (rb) {
        unsigned sub = kind == K_DW ? 0 : store_size(kind, ndw);
        unsigned shift = kind == K_ST_BHI || kind == K_ST_SHI ? 16 : 0;
        if (vmem_fast(w, x, ndw, 1, 1, rb, sub, shift, K_DW))
            return;
    }
    vmem_store(w, x, kind, ndw, ref);
}
void x_vmem_atomic(wave *w, const xinst *x, int op, int is64, ref_fn ref, uint32_t (*d)[LANES]) {
    atomic_rows(w, x, op, is64, ref, d);
}
void x_vmem_format(wave *w, const xinst *x, unsigned nc, int d16, int store, unsigned df,
                   unsigned nf, ref_fn ref) {
    format_at(w, x, nc, d16, store, df, nf, ref);
}
void x_vmem_format_packed(wave *w, const xinst *x, unsigned nc, int d16, int store, unsigned layout,
                          unsigned nf, ref_fn ref) {
    packed_at(w, x, nc, d16, store, layout, nf, ref);
}

#define H(op, fn) XROW(op, ISA_T_B32, fn)
#define ROW(op, ...) H(op, op),
static void buffer_cache_nop(wave *w, const xinst *x) { (void)w, (void)x; }

const xhandler x_flat_handlers[] = {
    VMEM_LDST(ROW) VMEM_ATOMIC(ROW) VMEM_FORMAT(ROW) H(buffer_inv, buffer_cache_nop),
    H(buffer_wbl2, buffer_cache_nop),
    /* gfx90a's L2 and L1 maintenance: no caches are modelled, memory is always coherent */
    H(buffer_invl2, buffer_cache_nop),
    H(buffer_wbinvl1, buffer_cache_nop),
    H(buffer_wbinvl1_vol, buffer_cache_nop),
    H(buffer_store_lds_dword, buffer_store_lds_dword),
    /* Loads into LDS: the decoder sets f.m.lds, the shared load bodies route the data. */
    H(global_load_lds_ubyte, global_load_ubyte),
    H(global_load_lds_sbyte, global_load_sbyte),
    H(global_load_lds_ushort, global_load_ushort),
    H(global_load_lds_sshort, global_load_sshort),
    H(global_load_lds_dword, global_load_dword),
    H(global_load_lds_dwordx3, global_load_dwordx3),
    H(global_load_lds_dwordx4, global_load_dwordx4),
    H(scratch_load_lds_ubyte, scratch_load_ubyte),
    H(scratch_load_lds_sbyte, scratch_load_sbyte),
    H(scratch_load_lds_ushort, scratch_load_ushort),
    H(scratch_load_lds_sshort, scratch_load_sshort),
    H(scratch_load_lds_dword, scratch_load_dword),
};
const unsigned x_flat_nhandlers = sizeof x_flat_handlers / sizeof x_flat_handlers[0];
