/* lds.c - DS instructions on the workgroup's LDS (CDNA3/CDNA4 ISA "Data share operations"):
 * reads and writes (incl. two-address and d16 forms), atomics, permutes and swizzles.
 *
 * Decoded slots: dst[0] = vdst, src[0] = addr, src[1] = data0, src[2] = data1; f.m.offset is
 * the 16-bit offset, f.m.offset0/offset1 the two-address offsets (units of the data size, x64 for
 * the st64 forms).  Waves of one workgroup run on one thread, so LDS atomics need no host
 * atomics.  Every access is checked against the workgroup's LDS size.  An out-of-range access
 * does what the hardware does (RDNA2/RDNA3 ISA "LDS access": a read outside the allocation
 * returns 0, a write is discarded; the CDNA manuals clamp the same way): lds_at() hands the
 * handler a zeroed scratch buffer (x_lds_sink()), so reads see 0 and writes and atomics land
 * nowhere.  Under memcheck (w->mc set: --memcheck, GFXEMU_MEMCHECK=1) it is an LDS fault that
 * names the lanes, the stricter check. */
#include "exec/exec.h"
#include "exec/xatomic.h"

#include <string.h>
#if defined(__x86_64__)
#include <immintrin.h>
#endif

typedef uint32_t u32;
typedef uint64_t u64;

/* lds_at()'s `write` for read-modify-write atomics: a write, which racecheck does not count as a
 * race with other atomics. */
#define XLDS_ATOMIC 2

static uint32_t (*row(wave *w, const isa_opnd *o))
    [LANES] { return o->kind == ISA_OPND_AGPR ? &w->a[o->idx] : &w->v[o->idx]; }

/* LDS addresses are 32-bit: address + offset wraps (clang relies on it, e.g. a negative
 * register address with a positive offset).
 *
 * A bad lane stops the wave, but the handler goes on through the remaining lanes (NULL means
 * "skip this lane"): once the wave has faulted, every access returns NULL and only records
 * whether it would have been bad too, so the fault names all the bad lanes of the instruction
 * while lanes from the first bad one on perform nothing. */
/* Where an out-of-range LDS access of a wave outside memcheck goes: XLDS_SINK zeroed bytes per
 * host thread (the waves of a workgroup run on one thread), cleared for each access, so a read
 * sees 0 and a write or an atomic's result is dropped.  A wider access than the buffer (none
 * exists: ds_read_b128 is the widest) faults. */
uint8_t *x_lds_sink(wave *w, const xinst *x, unsigned size) {
    static _Thread_local uint64_t sink[XLDS_SINK / 8];
    if (size > XLDS_SINK) {
        wave_fault(w, x, XF_LDS);
        return NULL;
    }
    memset(sink, 0, sizeof sink);
    return (uint8_t *)sink;
}

__attribute__((noinline, cold)) static uint8_t *
lds_at_slow(wave *w, const xinst *x, u64 a, unsigned size, int write, unsigned lane) {
    a = (u32)a;
    if (__builtin_expect(w->lds_watch != NULL, 0) && a + size <= w->lds_size)
        w->lds_watch(w->lds_watch_ctx, w, x, (u32)a, size, write);
    if (a + size > w->lds_size && !w->mc && w->status != WAVE_FAULT)
        return x_lds_sink(w, x, size);
    if (a + size > w->lds_size || w->status == WAVE_FAULT) {
        if (a + size <= w->lds_size)
            return NULL;
        if (w->status != WAVE_FAULT) {
            wave_fault(w, x, XF_LDS);
            w->fault.addr = a;
            w->fault.size = size;
            w->fault.write = write != 0;
        }
        w->fault.lanes |= 1ull << lane;
        return NULL;
    }
    return w->lds + a;
}
/* The common case inline (an in-range access of a healthy wave, no racecheck): every LDS handler
 * calls this per lane, and the call alone was a third of an LDS-bound kernel's time. */
static inline uint8_t *lds_at(wave *w, const xinst *x, u64 a, unsigned size, int write,
                              unsigned lane) {
    u64 a32 = (u32)a;
    if (__builtin_expect(!w->lds_watch && w->status != WAVE_FAULT && a32 + size <= w->lds_size, 1))
        return w->lds + a32;
    return lds_at_slow(w, x, a, size, write, lane);
}

#define FOR_ACTIVE(l)                                                                              \
    for (u64 ex_ = wave_exec(w), l = 0; l < LANES; l++)                                            \
        if ((ex_ >> l) & 1)
/* FOR_ACTIVE for the in-range paths: under full EXEC (a GEMM's LDS traffic) a loop with no
 * per-lane test, which the compiler unrolls; the body once per active lane l, lanes in order. */
#define FOR_ACTIVE_FAST(l, ...)                                                                    \
    do {                                                                                           \
        u64 exf_ = wave_exec(w);                                                                   \
        if (exf_ == ~0ull) {                                                                       \
            for (unsigned l = 0; l < LANES; l++)                                                   \
                __VA_ARGS__;                                                                       \
        } else {                                                                                   \
            for (unsigned l = 0; l < LANES; l++)                                                   \
                if ((exf_ >> l) & 1)                                                               \
                    __VA_ARGS__;                                                                   \
        }                                                                                          \
    } while (0)

/* Reads of 16 bytes per lane under full EXEC (ds_read_b128, ds_read2_b64: a GEMM's and an
 * attention kernel's LDS reads): four lanes at a time, their 16-byte loads transposed into four
 * register rows (x_rows4) instead of 16 scattered dword stores. */
#ifdef X_ROWS4
/* Lane l + k's 16 bytes: 8 at lds + lo[l + k], 8 at lds + hi[l + k] (32-bit wrapping offsets). */
#define LANE16(k)                                                                                  \
    _mm_unpacklo_epi64(_mm_loadl_epi64((const __m128i *)(lds + (u32)(a[l + k] + o0))),             \
                       _mm_loadl_epi64((const __m128i *)(lds + (u32)(a[l + k] + o1))))
/* Every lane on, every access in range (lds_span_ok): d rows 0-3 = the 16 bytes of each lane,
 * 8 from a + o0 and 8 from a + o1.  d may be a's register: a lane's address is read before its
 * own row entries are written, and the other lanes' never. */
static inline __attribute__((always_inline)) void read16_all(uint32_t (*d)[LANES], const u32 *a,
                                                             const uint8_t *lds, u32 o0, u32 o1) {
    for (unsigned l = 0; l < LANES; l += 4) {
        __m128i q0 = LANE16(0), q1 = LANE16(1), q2 = LANE16(2), q3 = LANE16(3);
        x_rows4(d, l, q0, q1, q2, q3);
    }
}
#undef LANE16
/* Every lane on, every access in range: d rows 0-1 = the 8 bytes of each lane at a + off
 * (ds_read_b64 at per-lane addresses: attention's transposed tiles), four lanes at a time as
 * two 16-byte row stores instead of eight dword stores.  d may be a's register, as above. */
static inline __attribute__((always_inline)) void read8_all(uint32_t (*d)[LANES], const u32 *a,
                                                            const uint8_t *lds, u32 off) {
#define LANE8(k) _mm_loadl_epi64((const __m128i *)(lds + (u32)(a[l + k] + off)))
    for (unsigned l = 0; l < LANES; l += 4) {
        /* named, not an array: GCC kept an array of four on the stack and reloaded it */
        __m128i q0 = LANE8(0), q1 = LANE8(1), q2 = LANE8(2), q3 = LANE8(3);
        __m128 t0 = _mm_castsi128_ps(_mm_unpacklo_epi64(q0, q1)), /* l0 l0' l1 l1' */
            t1 = _mm_castsi128_ps(_mm_unpacklo_epi64(q2, q3));
        _mm_storeu_ps((float *)&d[0][l], _mm_shuffle_ps(t0, t1, _MM_SHUFFLE(2, 0, 2, 0)));
        _mm_storeu_ps((float *)&d[1][l], _mm_shuffle_ps(t0, t1, _MM_SHUFFLE(3, 1, 3, 1)));
    }
#undef LANE8
}
/* The inverse for writes of 8 (ndw 2) or 16 bytes (ndw 4) per lane under full EXEC, every
 * access in range: four lanes' values from the data rows by a 4x4 dword transpose (the two rows
 * of 8-byte values by one unpack), then one store per lane, lanes in order (where two lanes
 * write the same bytes the last wins, as in the lane loop).  A GEMM's ds_write_b128 of a
 * staged tile: four lanes in a row, then the next row. */
static inline __attribute__((always_inline)) void
write_all(uint8_t *lds, const u32 *a, uint32_t (*s)[LANES], u32 off, unsigned ndw) {
#define AT(k) (lds + (u32)(a[l + k] + off))
    for (unsigned l = 0; l < LANES; l += 4) {
        __m128i r0 = _mm_loadu_si128((const __m128i *)&s[0][l]),
                r1 = _mm_loadu_si128((const __m128i *)&s[1][l]);
        __m128i t0 = _mm_unpacklo_epi32(r0, r1), t2 = _mm_unpackhi_epi32(r0, r1);
        if (ndw == 2) {
            _mm_storel_epi64((__m128i *)AT(0), t0); /* (unaligned 8-byte stores) */
            _mm_storel_epi64((__m128i *)AT(1), _mm_unpackhi_epi64(t0, t0));
            _mm_storel_epi64((__m128i *)AT(2), t2);
            _mm_storel_epi64((__m128i *)AT(3), _mm_unpackhi_epi64(t2, t2));
        } else {
            __m128i r2 = _mm_loadu_si128((const __m128i *)&s[2][l]),
                    r3 = _mm_loadu_si128((const __m128i *)&s[3][l]);
            __m128i t1 = _mm_unpacklo_epi32(r2, r3), t3 = _mm_unpackhi_epi32(r2, r3);
            _mm_storeu_si128((__m128i *)AT(0), _mm_unpacklo_epi64(t0, t1));
            _mm_storeu_si128((__m128i *)AT(1), _mm_unpackhi_epi64(t0, t1));
            _mm_storeu_si128((__m128i *)AT(2), _mm_unpacklo_epi64(t2, t3));
            _mm_storeu_si128((__m128i *)AT(3), _mm_unpackhi_epi64(t2, t3));
        }
    }
#undef AT
}
#endif

/* Whether every active lane's accesses [a + o0, +size) and [a + o1, +size) (32-bit wrapping
 * addresses) lie inside the LDS of a healthy, unwatched wave: then a handler may index w->lds
 * directly for the whole instruction, with no per-lane check (one vectorised pass instead of
 * lds_at per lane and element; the per-lane checks were most of an LDS-bound GEMM's DS time).
 * Anything else, including a lane out of range, takes the per-lane path, which reports it. */
#if defined(__x86_64__) && defined(__linux__) && !defined(GFXEMU_NO_CLONES)
/* Its 64-lane loop vectorises 16 or 8 lanes wide in the AVX-512/AVX2 clones (SSE2: 4); GCC
 * kept the function out of line in most handlers anyway (2.6% of a GEMM's time as SSE2), and a
 * clone is never inlined (clang refuses `noinline` beside target_clones). */
#define SPAN_FN __attribute__((target_clones("arch=x86-64-v4", "arch=x86-64-v3", "default"))) static
#else
#define SPAN_FN static inline
#endif
SPAN_FN int lds_span_ok(const wave *w, const u32 *a, u32 o0, u32 o1, unsigned size) {
    if (w->lds_watch || w->status == WAVE_FAULT || w->lds_size < size)
        return 0;
    u32 last = w->lds_size - size, bad = 0, on[LANES];
    if (wave_exec(w) == ~0ull) { /* full EXEC (a GEMM's LDS traffic): no lane table to build */
        for (int l = 0; l < LANES; l++)
            bad |= (u32)((u32)(a[l] + o0) > last) | (u32)((u32)(a[l] + o1) > last);
        return !bad;
    }
    exec_lane_masks(wave_exec(w), on); /* a lane-bit table: the loop vectorizes */
    for (int l = 0; l < LANES; l++)
        bad |= on[l] & ((u32)((u32)(a[l] + o0) > last) | (u32)((u32)(a[l] + o1) > last));
    return !bad;
}

/* ---- reads and writes --------------------------------------------------------------------------
 */

enum { R_DW, R_U8, R_I8, R_U16, R_I16, R_D16_U8, R_D16_I8, R_D16_U16, R_HI_U8, R_HI_I8, R_HI_U16 };

#if defined(__x86_64__) && defined(__linux__) && !defined(GFXEMU_NO_CLONES)
/* Linear LDS accesses: single-dword and sub-dword reads and writes (and the two-address dword
 * forms) where, in each 16-lane quarter, the active lanes address consecutive elements (lane i
 * of the quarter at b + i * size), as `tmp[lid]` does: one masked AVX-512 load or store per
 * quarter instead of 16 scalar ones.  A workgroup reduction's ds_write_b32 / ds_read2_b32 are
 * this case.  The lanes of a quarter never overlap and quarters go in order, so where two
 * quarters write the same bytes the higher lanes win, as in the lane loops.
 *
 * lin_quarters() makes lds_span_ok's test and the linearity test in one pass over the
 * addresses: LIN_NO (a lane out of range, or the wave faulted or watched: nothing done, the
 * checked lane loop runs), LIN_SPAN (every active lane in range: the unchecked lane loops) or
 * LIN_YES (also every quarter with an active lane linear, only active lanes compared, and both
 * element spans [at + 16 * size) in range; at0/at1[q] are the quarter's lane-0 addresses with
 * o0/o1 added, 32-bit as every LDS address).  The handlers below return the same values, having
 * done the access only for LIN_YES. */
enum { LIN_NO, LIN_SPAN, LIN_YES };
#define LIN_FN __attribute__((target("arch=x86-64-v4"))) static
LIN_FN inline
    __attribute__((always_inline)) int lin_quarters(const wave *w, const u32 *a, unsigned size,
                                                    u32 o0, u32 o1, u32 *at0, u32 *at1) {
    if (w->lds_watch || w->status == WAVE_FAULT || w->lds_size < size)
        return LIN_NO;
    const u64 exec = wave_exec(w);
    const __m512i step =
        _mm512_mullo_epi32(_mm512_setr_epi32(0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15),
                           _mm512_set1_epi32((int)size));
    const __m512i last = _mm512_set1_epi32((int)(w->lds_size - size));
    const __m512i v0 = _mm512_set1_epi32((int)o0), v1 = _mm512_set1_epi32((int)o1);
    __mmask16 bad = 0;
    int lin = 1;
    for (unsigned q = 0; q < LANES / 16; q++) {
        __mmask16 m = (__mmask16)(exec >> 16 * q);
        if (!m)
            continue;
        __m512i av = _mm512_loadu_si512(a + 16 * q);
        bad |= _mm512_mask_cmpgt_epu32_mask(m, _mm512_add_epi32(av, v0), last) |
               _mm512_mask_cmpgt_epu32_mask(m, _mm512_add_epi32(av, v1), last);
        if (!lin) /* not linear: only the range test, as lds_span_ok */
            continue;
        /* b: lane 0's address, from the first active lane f (u32 arithmetic) */
        unsigned f = (unsigned)__builtin_ctz(m);
        u32 b = a[16 * q + f] - f * size;
        __m512i want = _mm512_add_epi32(_mm512_set1_epi32((int)b), step);
        /* active lane i's (u32)(a + o) is at + i * size: no wrap when the span fits */
        at0[q] = b + o0, at1[q] = b + o1;
        lin = !_mm512_mask_cmpneq_epi32_mask(m, av, want) &&
              (u64)at0[q] + 16 * size <= w->lds_size && (u64)at1[q] + 16 * size <= w->lds_size;
    }
    return bad ? LIN_NO : lin ? LIN_YES : LIN_SPAN;
}

/* Quarter q's stores of the (shifted right by `shift`, truncated) values v. */
LIN_FN inline __attribute__((always_inline)) void lin_store(uint8_t *p, __mmask16 m, __m512i v,
                                                            unsigned size) {
    if (size == 1)
        _mm_mask_storeu_epi8(p, m, _mm512_cvtepi32_epi8(v));
    else if (size == 2)
        _mm256_mask_storeu_epi16(p, m, _mm512_cvtepi32_epi16(v));
    else
        _mm512_mask_storeu_epi32(p, m, v);
}

/* ds_write_b8/b16/b32 and the _d16_hi forms (shift 16). */
LIN_FN int ds_write_lin(wave *w, const u32 *a, const u32 *s, u32 off, unsigned size,
                        unsigned shift) {
    u32 at[LANES / 16];
    int r = lin_quarters(w, a, size, off, off, at, at);
    if (r != LIN_YES)
        return r;
    const u64 exec = wave_exec(w);
    for (unsigned q = 0; q < LANES / 16; q++)
        if ((__mmask16)(exec >> 16 * q))
            lin_store(w->lds + at[q], (__mmask16)(exec >> 16 * q),
                      _mm512_srli_epi32(_mm512_loadu_si512(s + 16 * q), shift), size);
    return LIN_YES;
}

/* ds_read_b32 and the extending byte and short reads (kinds R_DW, R_U8, R_I8, R_U16, R_I16). */
LIN_FN int ds_read_lin(wave *w, const u32 *a, u32 *d, u32 off, unsigned size, int kind) {
    u32 at[LANES / 16];
    int r = lin_quarters(w, a, size, off, off, at, at);
    if (r != LIN_YES)
        return r;
    const u64 exec = wave_exec(w);
    for (unsigned q = 0; q < LANES / 16; q++) {
        __mmask16 m = (__mmask16)(exec >> 16 * q);
        const uint8_t *p = w->lds + at[q];
        __m512i v;
        if (!m)
            continue;
        if (size == 1) {
            __m128i b = _mm_maskz_loadu_epi8(m, p);
            v = kind == R_I8 ? _mm512_cvtepi8_epi32(b) : _mm512_cvtepu8_epi32(b);
        } else if (size == 2) {
            __m256i h = _mm256_maskz_loadu_epi16(m, p);
            v = kind == R_I16 ? _mm512_cvtepi16_epi32(h) : _mm512_cvtepu16_epi32(h);
        } else
            v = _mm512_maskz_loadu_epi32(m, p);
        _mm512_mask_storeu_epi32(d + 16 * q, m, v); /* a is not read after lin_quarters */
    }
    return LIN_YES;
}

/* ds_read2(st64)_b32 and ds_write2(st64)_b32: element k of lane l at a + oK.  A write's two
 * spans of a quarter must not overlap: the lane loop writes lane by lane, element 0 then 1. */
LIN_FN int ds_two_lin(wave *w, const u32 *a, u32 *d0, u32 *d1, const u32 *s0, const u32 *s1, u32 o0,
                      u32 o1) {
    u32 at0[LANES / 16], at1[LANES / 16];
    int r = lin_quarters(w, a, 4, o0, o1, at0, at1);
    if (r != LIN_YES)
        return r;
    const u64 exec = wave_exec(w);
    if (s0)
        for (unsigned q = 0; q < LANES / 16; q++)
            if ((__mmask16)(exec >> 16 * q) && at0[q] < at1[q] + 64 && at1[q] < at0[q] + 64)
                return LIN_SPAN;
    for (unsigned q = 0; q < LANES / 16; q++) {
        __mmask16 m = (__mmask16)(exec >> 16 * q);
        if (!m)
            continue;
        if (s0) {
            _mm512_mask_storeu_epi32(w->lds + at0[q], m, _mm512_loadu_si512(s0 + 16 * q));
            _mm512_mask_storeu_epi32(w->lds + at1[q], m, _mm512_loadu_si512(s1 + 16 * q));
        } else {
            __m512i v0 = _mm512_maskz_loadu_epi32(m, w->lds + at0[q]);
            __m512i v1 = _mm512_maskz_loadu_epi32(m, w->lds + at1[q]);
            _mm512_mask_storeu_epi32(d0 + 16 * q, m, v0);
            _mm512_mask_storeu_epi32(d1 + 16 * q, m, v1);
        }
    }
    return LIN_YES;
}

/* MFMA operand tiles: with R rows (4, 8, 16 or 32) lane r + R * g (row r, group g) at
 * a[r] + g * es.  That is how an MFMA's operand is read from (or a transposed tile written to) a
 * row-major tile in LDS: lane % R the row, lane / R the group along k.  Each row's 64 / R lanes
 * then cover 64 / R * es contiguous bytes, so a row is one load or store and a transpose in
 * registers replaces 64 scattered lane accesses: attention's ds_read_b64 / ds_read2_b64 of K and
 * V (R 16) and its ds_write_b16/_d16_hi of a transposed V tile (R 16), a GEMM's ds_read2_b64 (R
 * 32), ds_write_b16 (R 8) and fp8 ds_write_b8 (R 4).  tile_ok() tests the pattern under full
 * EXEC for a healthy, unwatched wave with every row in range: (u32)(a[r] + o) + the row's bytes
 * <= the LDS size, so no lane's address wraps.  The paths below then take row r at
 * lds + (u32)(a[r] + o), reading a[] itself (an offset stored as a vector and reloaded as a
 * scalar stalls the load on the store). */
/* The pattern (tile_ok without the rows' range, which depends on the offset: tile_rows) */
LIN_FN inline __attribute__((always_inline)) int tile_lanes(const wave *w, const u32 *a, unsigned R,
                                                            unsigned es) {
    const unsigned rowb = 64 / R * es;
    if (a[R] != a[0] + es || w->lds_watch || w->status == WAVE_FAULT || w->lds_size < rowb ||
        wave_exec(w) != ~0ull) /* lane R first: other patterns leave after one compare */
        return 0;
    const __m512i e = _mm512_set1_epi32((int)es);
    __mmask16 bad = 0;
    for (unsigned l = 0; l < 64 - R; l += 16) { /* lane l + R is lane l's next element */
        __mmask16 m = (__mmask16)(64 - R - l >= 16 ? 0xffff : (1u << (64 - R - l)) - 1);
        bad |= _mm512_mask_cmpneq_epi32_mask(m, _mm512_maskz_loadu_epi32(m, a + l + R),
                                             _mm512_add_epi32(_mm512_loadu_si512(a + l), e));
    }
    return !bad;
}
LIN_FN inline __attribute__((always_inline)) int tile_rows(const wave *w, const u32 *a, unsigned R,
                                                           unsigned es, u32 o) {
    const __m512i off = _mm512_set1_epi32((int)o),
                  last = _mm512_set1_epi32((int)(w->lds_size - 64 / R * es));
    __mmask16 bad = 0;
    for (unsigned l = 0; l < R; l += 16) {
        __mmask16 m = (__mmask16)(R - l >= 16 ? 0xffff : (1u << (R - l)) - 1);
        bad |=
            _mm512_mask_cmpgt_epu32_mask(m, _mm512_add_epi32(_mm512_loadu_si512(a + l), off), last);
    }
    return !bad;
}
LIN_FN inline __attribute__((always_inline)) int tile_ok(const wave *w, const u32 *a, unsigned R,
                                                         unsigned es, u32 o) {
    return tile_lanes(w, a, R, es) && tile_rows(w, a, R, es, o);
}
#define ROW(k) (lds + (u32)(a[k] + o))

/* 8-byte elements, 16 rows: each row's 32 bytes are 8 dwords, lane r + 16g's element dwords 2g
 * and 2g + 1.  Two rows per zmm (r, r + 8), a 4x4 dword transpose inside each 128-bit lane, then
 * the quarters gathered: lo[16g + r] = dword 2g of row r, hi[16g + r] = dword 2g + 1.  Every
 * load (and every read of a) comes before the first store. */
LIN_FN inline __attribute__((always_inline)) void tile_read8_16(const uint8_t *lds, const u32 *a,
                                                                u32 o, u32 *lo, u32 *hi) {
    __m512i z[8], t[8], u[8];
#pragma GCC unroll 8
    for (int k = 0; k < 8; k++)
        z[k] =
            _mm512_inserti64x4(_mm512_castsi256_si512(_mm256_loadu_si256((const __m256i *)ROW(k))),
                               _mm256_loadu_si256((const __m256i *)ROW(k + 8)), 1);
#pragma GCC unroll 4
    for (int k = 0; k < 8; k += 2) { /* dwords of rows k, k + 1 interleaved */
        t[k] = _mm512_unpacklo_epi32(z[k], z[k + 1]);
        t[k + 1] = _mm512_unpackhi_epi32(z[k], z[k + 1]);
    }
#pragma GCC unroll 2
    for (int h = 0; h < 8; h += 4) { /* u[h + c]: dword c (c + 4) of rows h..h+3 (+8) */
        u[h] = _mm512_unpacklo_epi64(t[h], t[h + 2]);
        u[h + 1] = _mm512_unpackhi_epi64(t[h], t[h + 2]);
        u[h + 2] = _mm512_unpacklo_epi64(t[h + 1], t[h + 3]);
        u[h + 3] = _mm512_unpackhi_epi64(t[h + 1], t[h + 3]);
    }
    const __m512i first = _mm512_setr_epi64(0, 1, 8, 9, 4, 5, 12, 13),
                  second = _mm512_setr_epi64(2, 3, 10, 11, 6, 7, 14, 15);
#pragma GCC unroll 4
    for (int c = 0; c < 4; c++) { /* dword c of all 16 rows, then dword c + 4 */
        u32 *out = c & 1 ? hi : lo;
        _mm512_storeu_si512(out + 16 * (c >> 1), _mm512_permutex2var_epi64(u[c], first, u[c + 4]));
        _mm512_storeu_si512(out + 16 * ((c + 4) >> 1),
                            _mm512_permutex2var_epi64(u[c], second, u[c + 4]));
    }
}

/* 8-byte elements, 32 rows: each row's 16 bytes are lanes r and r + 32.  Rows k, k + 4, k + 8,
 * k + 12 in one zmm, a 4x4 dword transpose inside each 128-bit lane gives dword c of 16 rows in
 * order: lo[32g + r] = dword 2g of row r, hi[32g + r] = dword 2g + 1.  Loads first, as above. */
LIN_FN inline __attribute__((always_inline)) void tile_read8_32(const uint8_t *lds, const u32 *a,
                                                                u32 o, u32 *lo, u32 *hi) {
    __m512i z[8];
#pragma GCC unroll 8
    for (int k = 0; k < 8; k++) { /* z[4h + k]: rows 16h + k + 4L in 128-bit lane L */
        const int r = 16 * (k >> 2) + (k & 3);
        __m512i v = _mm512_castsi128_si512(_mm_loadu_si128((const __m128i *)ROW(r)));
        v = _mm512_inserti32x4(v, _mm_loadu_si128((const __m128i *)ROW(r + 4)), 1);
        v = _mm512_inserti32x4(v, _mm_loadu_si128((const __m128i *)ROW(r + 8)), 2);
        z[k] = _mm512_inserti32x4(v, _mm_loadu_si128((const __m128i *)ROW(r + 12)), 3);
    }
#pragma GCC unroll 2
    for (int h = 0; h < 2; h++) {
        const __m512i *q = z + 4 * h;
        __m512i t0 = _mm512_unpacklo_epi32(q[0], q[1]), t1 = _mm512_unpackhi_epi32(q[0], q[1]);
        __m512i t2 = _mm512_unpacklo_epi32(q[2], q[3]), t3 = _mm512_unpackhi_epi32(q[2], q[3]);
        _mm512_storeu_si512(lo + 16 * h, _mm512_unpacklo_epi64(t0, t2));
        _mm512_storeu_si512(hi + 16 * h, _mm512_unpackhi_epi64(t0, t2));
        _mm512_storeu_si512(lo + 32 + 16 * h, _mm512_unpacklo_epi64(t1, t3));
        _mm512_storeu_si512(hi + 32 + 16 * h, _mm512_unpackhi_epi64(t1, t3));
    }
}

/* ds_read_b64 / ds_read2_b64 as tiles of 16 or 32 rows: element k (one or two of them) at a +
 * o[k] into rows d[2k], d[2k + 1].  Every element is tested before anything is written, and a
 * is copied first when it is one of element 0's destination rows (element 1 still needs it).
 * 0: not tiles, nothing done. */
LIN_FN int tile_read8(const wave *w, const u32 *a, const u32 *o, int n, uint32_t (*d)[LANES]) {
    /* the lanes' pattern once (both elements share the address), each element's rows */
    const unsigned R = tile_lanes(w, a, 16, 8) ? 16 : tile_lanes(w, a, 32, 8) ? 32 : 0;
    for (int k = 0; k < n; k++)
        if (!R || !tile_rows(w, a, R, 8, o[k]))
            return 0;
    u32 copy[LANES];
    if (n == 2 && (a == d[0] || a == d[1]))
        a = memcpy(copy, a, sizeof copy);
    for (int k = 0; k < n; k++)
        if (R == 16)
            tile_read8_16(w->lds, a, o[k], d[2 * k], d[2 * k + 1]);
        else
            tile_read8_32(w->lds, a, o[k], d[2 * k], d[2 * k + 1]);
    return 1;
}

/* Bytes [pos, pos + n) of v stored at p: n is 4, 8, 16 or 32 and pos a multiple of it (constants
 * once inlined and unrolled, so that the switches fold into one extract and one store). */
LIN_FN inline __attribute__((always_inline)) __m128i lane128(__m512i v, unsigned k) {
    switch (k) {
    case 0: return _mm512_castsi512_si128(v);
    case 1: return _mm512_extracti32x4_epi32(v, 1);
    case 2: return _mm512_extracti32x4_epi32(v, 2);
    default: return _mm512_extracti32x4_epi32(v, 3);
    }
}
LIN_FN inline __attribute__((always_inline)) void put_part(uint8_t *p, __m512i v, unsigned pos,
                                                           unsigned n) {
    if (n == 32) {
        _mm256_storeu_si256((__m256i *)(void *)p,
                            pos ? _mm512_extracti64x4_epi64(v, 1) : _mm512_castsi512_si256(v));
        return;
    }
    const __m128i x = lane128(v, pos / 16);
    if (n == 16) {
        _mm_storeu_si128((__m128i *)(void *)p, x);
    } else if (n == 8) {
        uint64_t t = pos % 16 ? (uint64_t)_mm_extract_epi64(x, 1) : (uint64_t)_mm_cvtsi128_si64(x);
        memcpy(p, &t, 8);
    } else {
        uint32_t t;
        switch (pos % 16 / 4) {
        case 0: t = (uint32_t)_mm_cvtsi128_si32(x); break;
        case 1: t = (uint32_t)_mm_extract_epi32(x, 1); break;
        case 2: t = (uint32_t)_mm_extract_epi32(x, 2); break;
        default: t = (uint32_t)_mm_extract_epi32(x, 3); break;
        }
        memcpy(p, &t, 4);
    }
}
/* ds_write_b8/b16 and their _d16_hi forms (shift 16) as a tile of R rows: row r's bytes are the
 * low es bytes of lanes r, r + R, r + 2R, ... in order.  The 64 values as 16-bit words, one
 * two-source word permutation (AVX512BW) into row order, narrowed to bytes for es 1, then one
 * store per row.  Only rows in ascending order with no overlap (each at least a row's bytes past
 * the one before) are taken, so that the result cannot depend on which lane writes first. */
LIN_FN inline __attribute__((always_inline)) int tile_wsub(const wave *w, const u32 *a, unsigned R,
                                                           unsigned es, u32 o, const u32 *s,
                                                           unsigned shift) {
    const unsigned rowb = 64 / R * es;
    if (!tile_ok(w, a, R, es, o))
        return 0;
    const __mmask16 m = (__mmask16)((1u << (R - 1)) - 1); /* rows 0 .. R-2 against the next */
    if (_mm512_mask_cmplt_epu32_mask(
            m, _mm512_maskz_loadu_epi32(m, a + 1),
            _mm512_add_epi32(_mm512_loadu_si512(a), _mm512_set1_epi32((int)rowb))))
        return 0;
    /* (narrowed in registers: with the halves in an array GCC narrowed into memory, vpmovdw
     * with a memory operand, which is slow on AMD's Zen 4: a third of the instruction's time) */
#define HALF(g) _mm512_cvtepi32_epi16(_mm512_srli_epi32(_mm512_loadu_si512(s + 16 * (g)), shift))
    const __m512i w0 = _mm512_inserti64x4(_mm512_castsi256_si512(HALF(0)), HALF(1), 1),
                  w1 = _mm512_inserti64x4(_mm512_castsi256_si512(HALF(2)), HALF(3), 1);
#undef HALF
    /* word i of the row-ordered buffer (row i / G, group i % G) is lane i / G + R * (i % G) */
    const unsigned lg = R == 16 ? 2 : R == 8 ? 3 : 4; /* log2 G */
    const __m512i iota = _mm512_setr_epi32(0x10000, 0x30002, 0x50004, 0x70006, 0x90008, 0xb000a,
                                           0xd000c, 0xf000e, 0x110010, 0x130012, 0x150014, 0x170016,
                                           0x190018, 0x1b001a, 0x1d001c, 0x1f001e);
    __m512i idx[2];
    for (int k = 0; k < 2; k++) {
        __m512i i = _mm512_add_epi16(iota, _mm512_set1_epi16((short)(32 * k)));
        __m512i row = _mm512_srli_epi16(i, lg),
                grp = _mm512_and_si512(i, _mm512_set1_epi16((short)((1 << lg) - 1)));
        idx[k] = _mm512_add_epi16(row, _mm512_mullo_epi16(grp, _mm512_set1_epi16((short)R)));
    }
    const __m512i o0 = _mm512_permutex2var_epi16(w0, idx[0], w1),
                  o1 = _mm512_permutex2var_epi16(w0, idx[1], w1);
    /* The rows in order: 128 bytes in o0, o1 (es 2), or 64 in v[0] (es 1, narrowed).  Each is
     * stored from its register (rowb is 4, 8, 16 or 32 bytes, R a constant: the loop unrolls
     * into extracts and stores); through a buffer, each row's load waited on the wide store. */
    const __m512i v[2] = {es == 2
                              ? o0
                              : _mm512_inserti64x4(_mm512_castsi256_si512(_mm512_cvtepi16_epi8(o0)),
                                                   _mm512_cvtepi16_epi8(o1), 1),
                          o1};
    uint8_t *lds = w->lds;
#pragma GCC unroll 16
    for (unsigned r = 0; r < R; r++)
        put_part(ROW(r), v[rowb * r / 64], rowb * r % 64, rowb);
    return 1;
}
LIN_FN int tile_write_sub(const wave *w, const u32 *a, unsigned es, u32 o, const u32 *s,
                          unsigned shift) {
    return es == 2 ? tile_wsub(w, a, 16, 2, o, s, shift) || tile_wsub(w, a, 8, 2, o, s, shift) ||
                         tile_wsub(w, a, 4, 2, o, s, shift)
                   : tile_wsub(w, a, 16, 1, o, s, shift) || tile_wsub(w, a, 8, 1, o, s, shift) ||
                         tile_wsub(w, a, 4, 1, o, s, shift);
}
#undef ROW
#define HAVE_DS_TILE 1
/* Whether the tile paths may run: an AVX-512 host, not the reference tier. */
#define TILE_OK(x) (!((x)->xf & XI_REF) && __builtin_cpu_supports("x86-64-v4"))
#undef LIN_FN
/* Whether the linear paths may run: an AVX-512 host, not the reference tier (whose lane loops
 * the tier tests compare them with), and not an instruction whose lanes were not linear the
 * last 255 times (a GEMM's transposing stores: the failed test cost them 2-4%), except on
 * every 256th DS instruction of the wave, so that a pattern that turns linear is seen again. */
#define LIN_OK(w, x)                                                                               \
    (!((x)->xf & XI_REF) && __builtin_cpu_supports("x86-64-v4") &&                                 \
     (__atomic_load_n(&(x)->nolin, __ATOMIC_RELAXED) < 255 || ((w)->count[XC_LDS] & 255) == 0))
/* Count r (LIN_*) into x->nolin; writes only when the count changes. */
static inline int lin_note(const xinst *x, int r) {
    uint8_t *n = (uint8_t *)&x->nolin, v = __atomic_load_n(n, __ATOMIC_RELAXED);
    if (r == LIN_YES ? v != 0 : v < 255)
        __atomic_store_n(n, r == LIN_YES ? 0 : (uint8_t)(v + 1), __ATOMIC_RELAXED);
    return r;
}
#define HAVE_DS_LIN 1
#endif

/* A sub-dword read's register value (x_subdword) from the size bytes at p. */
static inline __attribute__((always_inline)) u32 ds_extend(int kind, const uint8_t *p,
                                                           unsigned size, u32 old) {
    u32 v = 0;
    memcpy(&v, p, size);
    int sign = kind == R_I8 || kind == R_I16 || kind == R_D16_I8 || kind == R_HI_I8;
    int half = kind >= R_HI_U8 ? 2 : kind >= R_D16_U8;
    return x_subdword(v, size, sign, half, old);
}

/* One lane's read from p: the in-range fast path and the checked path share it. */
static inline __attribute__((always_inline)) void
ds_read_lane(uint32_t (*d)[LANES], int l, const uint8_t *p, int kind, unsigned ndw, unsigned size) {
    if (kind == R_DW) { /* one fixed-size copy (ndw is a constant here), then the rows */
        u32 t[4];
        memcpy(t, p, 4 * ndw);
        for (unsigned i = 0; i < ndw; i++)
            d[i][l] = t[i];
    } else
        d[0][l] = ds_extend(kind, p, size, d[0][l]);
}

static inline __attribute__((always_inline)) void ds_read(wave *w, const xinst *x, int kind,
                                                          unsigned ndw) {
    uint32_t (*a)[LANES] = row(w, &x->in.src[0]), (*d)[LANES] = row(w, &x->in.dst[0]);
    unsigned size = kind == R_DW ? 4 * ndw
                    : (kind == R_U16 || kind == R_I16 || kind == R_D16_U16 || kind == R_HI_U16) ? 2
                                                                                                : 1;
    u32 off = (u32)x->in.f.m.offset;
    int span = -1; /* -1: not tested yet */
#ifdef HAVE_DS_LIN
    if ((kind == R_DW ? ndw == 1 : kind <= R_I16) && LIN_OK(w, x) &&
        (span = lin_note(x, ds_read_lin(w, a[0], d[0], off, size, kind))) == LIN_YES)
        return;
#endif
#ifdef HAVE_DS_TILE
    if (kind == R_DW && ndw == 2 && TILE_OK(x) && tile_read8(w, a[0], &off, 1, d))
        return;
#endif
    if (span < 0 ? lds_span_ok(w, a[0], off, off, size) : span) {
        const uint8_t *lds = w->lds;
#ifdef X_ROWS4
        if (kind == R_DW && ndw == 4 && wave_exec(w) == ~0ull) {
            read16_all(d, a[0], lds, off, off + 8);
            return;
        }
        if (kind == R_DW && ndw == 2 && wave_exec(w) == ~0ull) {
            read8_all(d, a[0], lds, off);
            return;
        }
#endif
        FOR_ACTIVE_FAST(l, ds_read_lane(d, l, lds + (u32)(a[0][l] + off), kind, ndw, size));
        return;
    }
    FOR_ACTIVE(l) {
        u64 addr = (u64)a[0][l] + (u32)x->in.f.m.offset;
        uint8_t *p = lds_at(w, x, addr, size, 0, (unsigned)l);
        if (p)
            ds_read_lane(d, l, p, kind, ndw, size);
    }
}

enum { W_DW, W_B8, W_B16, W_B8_HI, W_B16_HI };

/* One lane's write to p (the _HI forms store the register's high half). */
static inline __attribute__((always_inline)) void
ds_write_lane(uint8_t *p, uint32_t (*s)[LANES], int l, int kind, unsigned ndw, unsigned size) {
    if (kind == W_DW) {
        u32 t[4];
        for (unsigned i = 0; i < ndw; i++)
            t[i] = s[i][l];
        memcpy(p, t, 4 * ndw);
    } else {
        u32 v = kind == W_B8_HI || kind == W_B16_HI ? s[0][l] >> 16 : s[0][l];
        memcpy(p, &v, size);
    }
}

static inline __attribute__((always_inline)) void ds_write(wave *w, const xinst *x, int kind,
                                                           unsigned ndw) {
    uint32_t (*a)[LANES] = row(w, &x->in.src[0]), (*s)[LANES] = row(w, &x->in.src[1]);
    unsigned size = kind == W_DW ? 4 * ndw : (kind == W_B16 || kind == W_B16_HI) ? 2 : 1;
    u32 off = (u32)x->in.f.m.offset;
    int span = -1; /* -1: not tested yet */
#ifdef HAVE_DS_LIN
    if (size <= 4 && LIN_OK(w, x) &&
        (span = lin_note(x, ds_write_lin(w, a[0], s[0], off, size,
                                         kind == W_B8_HI || kind == W_B16_HI ? 16 : 0))) == LIN_YES)
        return;
#endif
#ifdef HAVE_DS_TILE
    if (kind != W_DW && TILE_OK(x) &&
        tile_write_sub(w, a[0], size, off, s[0], kind == W_B16_HI || kind == W_B8_HI ? 16 : 0))
        return;
#endif
    if (span < 0 ? lds_span_ok(w, a[0], off, off, size) : span) {
        uint8_t *lds = w->lds;
        /* lanes in order: where two lanes write the same bytes the last wins */
#ifdef X_ROWS4
        if (kind == W_DW && (ndw == 2 || ndw == 4) && wave_exec(w) == ~0ull) {
            write_all(lds, a[0], s, off, ndw);
            return;
        }
#endif
        FOR_ACTIVE_FAST(l, ds_write_lane(lds + (u32)(a[0][l] + off), s, l, kind, ndw, size));
        return;
    }
    FOR_ACTIVE(l) {
        u64 addr = (u64)a[0][l] + (u32)x->in.f.m.offset;
        uint8_t *p = lds_at(w, x, addr, size, 1, (unsigned)l);
        if (p)
            ds_write_lane(p, s, l, kind, ndw, size);
    }
}

/* ---- atomics ------------------------------------------------------------------------------------
 */

/* One lane's read-modify-write of the size bytes at p, the old value returned in d. */
static inline __attribute__((always_inline)) void ds_atomic_lane(uint8_t *p, int op, int is64,
                                                                 uint32_t (*s0)[LANES],
                                                                 uint32_t (*s1)[LANES],
                                                                 uint32_t (*d)[LANES], unsigned l) {
    unsigned size = is64 ? 8 : 4;
    u64 m = 0, d0 = 0, d1 = 0;
    memcpy(&m, p, size);
    if (s0)
        d0 = s0[0][l] | (is64 ? (u64)s0[1][l] << 32 : 0);
    if (s1)
        d1 = s1[0][l] | (is64 ? (u64)s1[1][l] << 32 : 0);
    /* DS compare-stores take the compare value in DATA and the new one in DATA2. */
    u64 nv = op == XA_CMPSWAP || op == XA_CMPSWAP_F ? x_atomic_apply(op, m, d1, d0, is64)
                                                    : x_atomic_apply(op, m, d0, d1, is64);
    memcpy(p, &nv, size);
    if (d) {
        d[0][l] = (u32)m;
        if (is64)
            d[1][l] = (u32)(m >> 32);
    }
}

/* Lanes in order, each a whole read-modify-write, so lanes that share an address see each
 * other's results as on the hardware.  Inlined into each handler with op a constant: with every
 * active lane in range (lds_span_ok) the lane loop indexes the LDS directly, with no call or
 * test per lane (a ds_add_u32 took 600-1100 ns per wave that way, against 35 for v_add_u32). */
static inline __attribute__((always_inline)) void ds_atomic(wave *w, const xinst *x, int op,
                                                            int is64) {
    unsigned size = is64 ? 8 : 4;
    uint32_t (*a)[LANES] = row(w, &x->in.src[0]);
    uint32_t (*s0)[LANES] = x->in.src[1].kind ? row(w, &x->in.src[1]) : NULL;
    uint32_t (*s1)[LANES] = x->in.src[2].kind ? row(w, &x->in.src[2]) : NULL;
    uint32_t (*d)[LANES] = x->in.ndst && x->in.dst[0].kind ? row(w, &x->in.dst[0]) : NULL;
    u32 off = (u32)x->in.f.m.offset;
    /* d may be the address register: each lane's address is read before its own result is
     * written, and lanes are visited once, in order. */
    if (lds_span_ok(w, a[0], off, off, size)) {
        uint8_t *lds = w->lds;
        FOR_ACTIVE_FAST(l, ds_atomic_lane(lds + (u32)(a[0][l] + off), op, is64, s0, s1, d, l));
        return;
    }
    FOR_ACTIVE(l) {
        u64 addr = (u64)a[0][l] + off;
        uint8_t *p = lds_at(w, x, addr, size, XLDS_ATOMIC, (unsigned)l);
        if (p)
            ds_atomic_lane(p, op, is64, s0, s1, d, (unsigned)l);
    }
}

void x_ds_atomic(wave *w, const xinst *x, int op, int is64) { ds_atomic(w, x, op, is64); }

/* ds_wrap_rtn_b32: m = m >= DATA ? m - DATA : m + DATA2 (ring-buffer index arithmetic), the old
 * value returned. */
static void ds_wrap_rtn_b32(wave *w, const xinst *x) {
    uint32_t (*a)[LANES] = row(w, &x->in.src[0]), (*s0)[LANES] = row(w, &x->in.src[1]),
             (*s1)[LANES] = row(w, &x->in.src[2]), (*d)[LANES] = row(w, &x->in.dst[0]);
    FOR_ACTIVE(l) {
        uint8_t *p =
            lds_at(w, x, (u64)a[0][l] + (u32)x->in.f.m.offset, 4, XLDS_ATOMIC, (unsigned)l);
        if (!p)
            continue;
        u32 m, d0 = s0[0][l], d1 = s1[0][l];
        memcpy(&m, p, 4);
        u32 nv = m >= d0 ? m - d0 : m + d1;
        memcpy(p, &nv, 4);
        d[0][l] = m;
    }
}

/* ds_condxchg32_rtn_b64 (CDNA3/CDNA4 ISA): two dwords at ADDR0 = (addr + offset) & 0xfff8 and
 * ADDR0 + 4; dword k is replaced by DATA dword k with bit 31 cleared iff that bit is set, and
 * the old dwords are returned.  The 0xfff8 mask is the manual's: it keeps the address inside
 * the first 64 KiB even on gfx950's 160 KiB LDS. */
static void ds_condxchg32_rtn_b64(wave *w, const xinst *x) {
    uint32_t (*a)[LANES] = row(w, &x->in.src[0]), (*s)[LANES] = row(w, &x->in.src[1]),
             (*d)[LANES] = row(w, &x->in.dst[0]);
    FOR_ACTIVE(l) {
        u64 addr = (a[0][l] + (u32)x->in.f.m.offset) & 0xfff8u;
        uint8_t *p = lds_at(w, x, addr, 8, XLDS_ATOMIC, (unsigned)l);
        if (!p)
            continue;
        u32 old[2], v[2] = {s[0][l], s[1][l]};
        memcpy(old, p, 8);
        for (int k = 0; k < 2; k++)
            if (v[k] >> 31) {
                u32 nv = v[k] & 0x7fffffffu;
                memcpy(p + 4 * k, &nv, 4);
            }
        d[0][l] = old[0];
        d[1][l] = old[1];
    }
}

static void ds_nop(wave *w, const xinst *x) { (void)w, (void)x; }
/* gfx950 transposing reads ds_read_b64_tr_b16 / _b8 / _b4 and ds_read_b96_tr_b6.  The CDNA4
 * manual only says "read 64 (96) bits per lane, interpret the data as a matrix of 16-bit (8, 4,
 * 6-bit) elements and transpose it"; the lane and element mapping below is taken from how AMD's
 * Triton backend describes the instruction (its linear layout for ds_read_tr swaps the element
 * bits with the low lane bits inside each 16-lane group), cross-checked against the MFMA operand
 * layout it exists for and against the expectations of AMD's rocRoller hardware test of all four
 * (TransposeLoadsTest: 16x32 b16, 16x64 b8, 16x128 b4 and b6 tiles, run on gfx950): within a
 * group of 16 lanes, with n = (64 or 96) / element bits elements per lane, element j of lane L's
 * result is element L % n of the data addressed by lane L / n + (16 / n) * j of the same group.
 * Element e of a lane's data or result is bits [e * ebits, (e + 1) * ebits) of it, little-endian
 * across dwords (so a b6 element may straddle two dwords).  E.g. for b16, lanes a = M / 4 + 4 * K
 * each address 4 consecutive M values of a column-major tile, and lane L receives M = L,
 * K = 0..3: the 16x16 MFMA A-operand layout; for b4 and b6 (n = 16) lane L receives element L of
 * each of the 16 lanes' data: a 16x16 transpose.  Not settled by the manual: partial EXEC (an
 * inactive lane's address is not read; its data reads as 0 in the lanes that take elements from
 * it), and b6 addresses that are not 16-byte aligned (rocRoller pads its rows to 128 bits
 * because the hardware requires it; gfxemu reads the 12 bytes wherever they are). */
static unsigned tr_get(const u32 *v, unsigned pos, unsigned nbits) {
    u64 two = v[pos / 32] | (u64)v[pos / 32 + 1] << 32;
    return (unsigned)(two >> (pos % 32)) & ((1u << nbits) - 1);
}
static void ds_read_tr(wave *w, const xinst *x, unsigned ebits, unsigned ndw) {
    uint32_t (*a)[LANES] = row(w, &x->in.src[0]), (*d)[LANES] = row(w, &x->in.dst[0]);
    unsigned n = 32 * ndw / ebits;
    u32 src[LANES][4] = {{0}}; /* one spare dword so tr_get can read a pair */
    FOR_ACTIVE(l) {
        uint8_t *p = lds_at(w, x, (u64)a[0][l] + (u32)x->in.f.m.offset, 4 * ndw, 0, (unsigned)l);
        if (!p)
            continue;
        memcpy(src[l], p, 4 * ndw);
    }
    if (w->status == WAVE_FAULT)
        return;
    FOR_ACTIVE(l) {
        unsigned g = (unsigned)l & ~15u, L = (unsigned)l & 15u;
        u32 r[4] = {0, 0, 0, 0};
        for (unsigned j = 0; j < n; j++) {
            u64 e = tr_get(src[g + L / n + 16 / n * j], ebits * (L % n), ebits);
            unsigned pos = ebits * j;
            r[pos / 32] |= (u32)(e << (pos % 32));
            if (pos % 32 + ebits > 32) /* a b6 element straddling two dwords */
                r[pos / 32 + 1] |= (u32)(e >> (32 - pos % 32));
        }
        for (unsigned i = 0; i < ndw; i++)
            d[i][l] = r[i];
    }
}
static void ds_read_b64_tr_b16(wave *w, const xinst *x) { ds_read_tr(w, x, 16, 2); }
static void ds_read_b64_tr_b8(wave *w, const xinst *x) { ds_read_tr(w, x, 8, 2); }
static void ds_read_b64_tr_b4(wave *w, const xinst *x) { ds_read_tr(w, x, 4, 2); }
static void ds_read_b96_tr_b6(wave *w, const xinst *x) { ds_read_tr(w, x, 6, 3); }

/* Two-address forms: element k (0, 1) is at addr + offsetK * size (x64 for the st64 forms).
 * read2 loads both into vdst, write2 stores data0/data1, wrxchg2 does both (old values to
 * vdst).  Element size 4 or 8 bytes. */
enum { TWO_READ = 1, TWO_WRITE = 2 };

static inline __attribute__((always_inline)) void ds_two(wave *w, const xinst *x, unsigned esize,
                                                         unsigned stride64, int mode) {
    uint32_t (*a)[LANES] = row(w, &x->in.src[0]);
    uint32_t (*d)[LANES] = mode & TWO_READ ? row(w, &x->in.dst[0]) : NULL;
    uint32_t (*s[2])[LANES] = {NULL, NULL};
    if (mode & TWO_WRITE) {
        s[0] = row(w, &x->in.src[1]);
        s[1] = row(w, &x->in.src[2]);
    }
    unsigned unit = esize * (stride64 ? 64 : 1), nd = esize / 4;
    unsigned off[2] = {x->in.f.m.offset0, x->in.f.m.offset1};
    const u32 o[2] = {off[0] * unit, off[1] * unit}; /* the elements' byte offsets */
    int kind = mode == TWO_READ ? 0 : mode == TWO_WRITE ? 1 : XLDS_ATOMIC; /* wrxchg2: atomic */
    int span = -1;                                                         /* -1: not tested yet */
#ifdef HAVE_DS_LIN
    if (esize == 4 && mode != (TWO_READ | TWO_WRITE) && LIN_OK(w, x) &&
        (span = lin_note(x, ds_two_lin(w, a[0], d ? d[0] : NULL, d ? d[1] : NULL,
                                       s[0] ? s[0][0] : NULL, s[1] ? s[1][0] : NULL, o[0],
                                       o[1]))) == LIN_YES)
        return;
#endif
#ifdef HAVE_DS_TILE
    if (mode == TWO_READ && esize == 8 && TILE_OK(x) && tile_read8(w, a[0], o, 2, d))
        return;
#endif
    if (mode != (TWO_READ | TWO_WRITE) &&
        (span < 0 ? lds_span_ok(w, a[0], o[0], o[1], esize) : span)) {
        uint8_t *lds = w->lds;
#ifdef X_ROWS4
        if (mode == TWO_READ && esize == 8 && wave_exec(w) == ~0ull) {
            read16_all(d, a[0], lds, o[0], o[1]);
            return;
        }
#endif
        FOR_ACTIVE_FAST(l, {
            /* both addresses before any write: vdst may overlap the address register */
            u32 base = a[0][l];
            uint8_t *p0 = lds + (u32)(base + o[0]), *p1 = lds + (u32)(base + o[1]);
            u32 v[4];
            if (mode == TWO_READ) {
                memcpy(v, p0, esize);
                memcpy(v + nd, p1, esize);
                for (unsigned i = 0; i < 2 * nd; i++)
                    d[i][l] = v[i];
            } else {
                for (unsigned i = 0; i < nd; i++)
                    v[i] = s[0][i][l], v[nd + i] = s[1][i][l];
                memcpy(p0, v, esize);
                memcpy(p1, v + nd, esize);
            }
        });
        return;
    }
    FOR_ACTIVE(l) {
        uint8_t *p[2];
        for (int k = 0; k < 2; k++)
            p[k] = lds_at(w, x, (u64)a[0][l] + off[k] * unit, esize, kind, (unsigned)l);
        if (!p[0] || !p[1])
            continue;
        /* Both elements are read before either is written (they may be the same bytes), and
         * the data registers are read before vdst is written (they may overlap). */
        u32 old[2][2];
        for (int k = 0; k < 2; k++)
            memcpy(old[k], p[k], esize);
        for (int k = 0; k < 2; k++)
            for (unsigned i = 0; s[k] && i < nd; i++)
                memcpy(p[k] + 4 * i, &s[k][i][l], 4);
        for (int k = 0; k < 2; k++)
            for (unsigned i = 0; d && i < nd; i++)
                d[k * nd + i][l] = old[k][i];
    }
}
/* Inlined into each op's handler, so the element size is a constant and the per-lane copies are
 * fixed-size moves (as calls with the size as an argument they were 18% of an attention kernel). */
#define DS_TWO_FN static inline __attribute__((always_inline)) void
DS_TWO_FN ds_read2(wave *w, const xinst *x, unsigned es, unsigned st) {
    ds_two(w, x, es, st, TWO_READ);
}
DS_TWO_FN ds_write2(wave *w, const xinst *x, unsigned es, unsigned st) {
    ds_two(w, x, es, st, TWO_WRITE);
}
DS_TWO_FN ds_wrxchg2(wave *w, const xinst *x, unsigned es, unsigned st) {
    ds_two(w, x, es, st, TWO_READ | TWO_WRITE);
}

/* ---- cross-lane
 * ----------------------------------------------------------------------------------- */

/* ds_permute_b32: lane l sends data0 to lane (addr + offset) / 4 mod 64 (the highest sender
 * wins); ds_bpermute_b32: lane l fetches data0 of that lane.  Inactive lanes read as 0. */
/* ds_bpermute_b32 with every lane active: a 64-entry table lookup, no lane tests (the per-lane
 * loop was 10% of the causal attention kernel's time).  On AVX-512 hosts the table is four
 * registers and each 16 lanes take two two-register permutes and a blend on the index's bit 5
 * (gcc builds the plain loop's gather from element extracts). */
#if defined(__x86_64__) && defined(__linux__) && !defined(GFXEMU_NO_CLONES)
__attribute__((target("arch=x86-64-v4"))) static void bpermute_v4(u32 *d, const u32 *a,
                                                                  const u32 *s, u32 off) {
    __m512i t0 = _mm512_loadu_si512(s), t1 = _mm512_loadu_si512(s + 16);
    __m512i t2 = _mm512_loadu_si512(s + 32), t3 = _mm512_loadu_si512(s + 48);
    __m512i vo = _mm512_set1_epi32((int)off), b5 = _mm512_set1_epi32(32), r[4];
    for (int q = 0; q < 4; q++) {
        __m512i i = _mm512_srli_epi32(_mm512_add_epi32(_mm512_loadu_si512(a + 16 * q), vo), 2);
        __m512i lo = _mm512_permutex2var_epi32(t0, i, t1),
                hi = _mm512_permutex2var_epi32(t2, i, t3);
        r[q] = _mm512_mask_blend_epi32(_mm512_test_epi32_mask(i, b5), lo, hi);
    }
    for (int q = 0; q < 4; q++) /* after every load: d may be a or s */
        _mm512_storeu_si512(d + 16 * q, r[q]);
}
#endif
static void bpermute_all(u32 *d, const u32 *a, const u32 *s, u32 off) {
#if defined(__x86_64__) && defined(__linux__) && !defined(GFXEMU_NO_CLONES)
    if (__builtin_cpu_supports("x86-64-v4")) {
        bpermute_v4(d, a, s, off);
        return;
    }
#endif
    u32 tmp[LANES];
    for (unsigned l = 0; l < LANES; l++)
        tmp[l] = s[((a[l] + off) >> 2) & 63];
    memcpy(d, tmp, sizeof tmp);
}

static void ds_permute(wave *w, const xinst *x, int backward) {
    uint32_t (*a)[LANES] = row(w, &x->in.src[0]), (*s)[LANES] = row(w, &x->in.src[1]),
             (*d)[LANES] = row(w, &x->in.dst[0]);
    u64 ex = wave_exec(w);
    if (backward && ex == ~0ull) {
        bpermute_all(d[0], a[0], s[0], (u32)x->in.f.m.offset);
        return;
    }
    u32 tmp[LANES] = {0};
    for (unsigned l = 0; l < LANES; l++) {
        if (!((ex >> l) & 1))
            continue;
        unsigned other = ((a[0][l] + (u32)x->in.f.m.offset) >> 2) & 63;
        if (backward)
            tmp[l] = (ex >> other) & 1 ? s[0][other] : 0;
        else
            tmp[other] = s[0][l];
    }
    for (unsigned l = 0; l < LANES; l++)
        if ((ex >> l) & 1)
            d[0][l] = tmp[l];
}
static void ds_permute_b32(wave *w, const xinst *x) { ds_permute(w, x, 0); }
static void ds_bpermute_b32(wave *w, const xinst *x) { ds_permute(w, x, 1); }

/* ds_swizzle_b32: offset[15] set = quad mode (lane i of a quad takes lane offset[2i+1:2i]);
 * otherwise bitmask mode within 32 lanes: ((lane & and) | or) ^ xor with masks from offset
 * [4:0], [9:5], [14:10].  Inactive sources read as 0. */
#if defined(__x86_64__) && defined(__linux__) && !defined(GFXEMU_NO_CLONES)
#define SWZ_FN __attribute__((target_clones("arch=x86-64-v4", "arch=x86-64-v3", "default")))
#else
#define SWZ_FN
#endif
/* Loops of selects over lane-mask tables rather than a test and a branch per lane: they
 * vectorize (gathers on AVX-512/AVX2), and the branching form cost 5.6 ns a lane. */
SWZ_FN static void ds_swizzle_b32(wave *w, const xinst *x) {
    /* The data register sits in the instruction's addr field (src[0]). */
    uint32_t (*s)[LANES] = row(w, &x->in.src[0]), (*d)[LANES] = row(w, &x->in.dst[0]);
    u32 off = (u32)x->in.f.m.offset, on[LANES], src[LANES], tmp[LANES];
    if (off & 0x8000)
        for (u32 l = 0; l < LANES; l++)
            src[l] = (l & ~3u) | ((off >> (2 * (l & 3))) & 3);
    else
        for (u32 l = 0; l < LANES; l++)
            src[l] = (l & 32) | (((l & off & 31) | ((off >> 5) & 31)) ^ ((off >> 10) & 31));
    if (wave_exec(w) == ~0ull) {
        for (unsigned l = 0; l < LANES; l++) /* d may be s: all sources read first */
            tmp[l] = s[0][src[l]];
        memcpy(d[0], tmp, sizeof tmp);
        return;
    }
    exec_lane_masks(wave_exec(w), on);
    for (unsigned l = 0; l < LANES; l++)
        tmp[l] = s[0][src[l]] & on[src[l]];
    for (unsigned l = 0; l < LANES; l++)
        d[0][l] = (tmp[l] & on[l]) | (d[0][l] & ~on[l]);
}

/* ds_append/ds_consume: a counter in LDS at M0[15:0] + offset; every active lane receives the
 * value before the wave's update, which adds/subtracts the number of active lanes. */
static void ds_counter(wave *w, const xinst *x, int sub) {
    u64 addr = (w->s[ISA_SREG_M0] & 0xffff) + (u32)x->in.f.m.offset;
    uint8_t *p = lds_at(w, x, addr, 4, XLDS_ATOMIC, 0);
    if (!p) { /* one access on behalf of every active lane */
        w->fault.lanes = wave_exec(w);
        return;
    }
    u32 old;
    memcpy(&old, p, 4);
    u32 n = (u32)__builtin_popcountll(wave_exec(w));
    u32 nv = sub ? old - n : old + n;
    memcpy(p, &nv, 4);
    uint32_t (*d)[LANES] = row(w, &x->in.dst[0]);
    FOR_ACTIVE(l) d[0][l] = old;
}
static void ds_append(wave *w, const xinst *x) { ds_counter(w, x, 0); }
static void ds_consume(wave *w, const xinst *x) { ds_counter(w, x, 1); }

/* ds_read/write_addtid_b32: address = M0[15:0] + offset + lane * 4. */
static void ds_addtid(wave *w, const xinst *x, int write) {
    FOR_ACTIVE(l) {
        u64 addr = (w->s[ISA_SREG_M0] & 0xffff) + (u32)x->in.f.m.offset + 4 * l;
        uint8_t *p = lds_at(w, x, addr, 4, write, (unsigned)l);
        if (!p)
            continue;
        if (write)
            memcpy(p, &row(w, &x->in.src[1])[0][l], 4);
        else
            memcpy(&row(w, &x->in.dst[0])[0][l], p, 4);
    }
}
static void ds_read_addtid_b32(wave *w, const xinst *x) { ds_addtid(w, x, 0); }
static void ds_write_addtid_b32(wave *w, const xinst *x) { ds_addtid(w, x, 1); }

/* Rows of macro calls without separators: clang-format-22 reflows them differently on every
 * pass. */
/* clang-format off */
#define RD(name, kind, n) static void name(wave *w, const xinst *x) { ds_read(w, x, kind, n); }
#define WR(name, kind, n) static void name(wave *w, const xinst *x) { ds_write(w, x, kind, n); }
RD(ds_read_b32, R_DW, 1) RD(ds_read_b64, R_DW, 2) RD(ds_read_b96, R_DW, 3) RD(ds_read_b128, R_DW, 4)
RD(ds_read_u8, R_U8, 1) RD(ds_read_i8, R_I8, 1) RD(ds_read_u16, R_U16, 1) RD(ds_read_i16, R_I16, 1)
RD(ds_read_u8_d16, R_D16_U8, 1) RD(ds_read_i8_d16, R_D16_I8, 1) RD(ds_read_u16_d16, R_D16_U16, 1)
RD(ds_read_u8_d16_hi, R_HI_U8, 1) RD(ds_read_i8_d16_hi, R_HI_I8, 1)
RD(ds_read_u16_d16_hi, R_HI_U16, 1)
WR(ds_write_b32, W_DW, 1) WR(ds_write_b64, W_DW, 2) WR(ds_write_b96, W_DW, 3)
WR(ds_write_b128, W_DW, 4) WR(ds_write_b8, W_B8, 1) WR(ds_write_b16, W_B16, 1)
WR(ds_write_b8_d16_hi, W_B8_HI, 1) WR(ds_write_b16_d16_hi, W_B16_HI, 1)
#define R2(name, es, st) static void name(wave *w, const xinst *x) { ds_read2(w, x, es, st); }
#define W2(name, es, st) static void name(wave *w, const xinst *x) { ds_write2(w, x, es, st); }
#define X2(name, es, st) static void name(wave *w, const xinst *x) { ds_wrxchg2(w, x, es, st); }
R2(ds_read2_b32, 4, 0) R2(ds_read2_b64, 8, 0) R2(ds_read2st64_b32, 4, 1) R2(ds_read2st64_b64, 8, 1)
W2(ds_write2_b32, 4, 0) W2(ds_write2_b64, 8, 0) W2(ds_write2st64_b32, 4, 1)
W2(ds_write2st64_b64, 8, 1)
X2(ds_wrxchg2_rtn_b32, 4, 0) X2(ds_wrxchg2_rtn_b64, 8, 0) X2(ds_wrxchg2st64_rtn_b32, 4, 1)
X2(ds_wrxchg2st64_rtn_b64, 8, 1)

/* Atomic handlers: NAME (no return) and NAME_rtn share one body; the decoder leaves dst[0]
 * empty for the forms without return. */
#define AT(name, op, is64) static void name(wave *w, const xinst *x) { ds_atomic(w, x, op, is64); }
AT(ds_add_u32, XA_ADD, 0) AT(ds_add_u64, XA_ADD, 1) AT(ds_sub_u32, XA_SUB, 0) AT(ds_sub_u64, XA_SUB, 1)
AT(ds_rsub_u32, XA_RSUB, 0) AT(ds_rsub_u64, XA_RSUB, 1) AT(ds_inc_u32, XA_INC, 0)
AT(ds_inc_u64, XA_INC, 1) AT(ds_dec_u32, XA_DEC, 0) AT(ds_dec_u64, XA_DEC, 1)
AT(ds_min_i32, XA_SMIN, 0) AT(ds_min_i64, XA_SMIN, 1) AT(ds_max_i32, XA_SMAX, 0)
AT(ds_max_i64, XA_SMAX, 1) AT(ds_min_u32, XA_UMIN, 0) AT(ds_min_u64, XA_UMIN, 1)
AT(ds_max_u32, XA_UMAX, 0) AT(ds_max_u64, XA_UMAX, 1) AT(ds_and_b32, XA_AND, 0)
AT(ds_and_b64, XA_AND, 1) AT(ds_or_b32, XA_OR, 0) AT(ds_or_b64, XA_OR, 1) AT(ds_xor_b32, XA_XOR, 0)
AT(ds_xor_b64, XA_XOR, 1) AT(ds_mskor_b32, XA_MSKOR, 0) AT(ds_mskor_b64, XA_MSKOR, 1)
AT(ds_wrxchg_rtn_b32, XA_SWAP, 0) AT(ds_wrxchg_rtn_b64, XA_SWAP, 1)
AT(ds_cmpst_b32, XA_CMPSWAP, 0) AT(ds_cmpst_b64, XA_CMPSWAP, 1) AT(ds_cmpst_f32, XA_CMPSWAP_F, 0)
AT(ds_cmpst_f64, XA_CMPSWAP_F, 1) AT(ds_add_f32, XA_FADD, 0) AT(ds_add_f64, XA_FADD, 1)
AT(ds_min_f32, XA_FMIN, 0) AT(ds_min_f64, XA_FMIN, 1) AT(ds_max_f32, XA_FMAX, 0)
AT(ds_max_f64, XA_FMAX, 1) AT(ds_pk_add_f16, XA_PK_ADD_F16, 0)
AT(ds_pk_add_bf16, XA_PK_ADD_BF16, 0)
/* clang-format on */

#define H(op, fn) XROW(op, ISA_T_B32, fn)
                                                                                    const xhandler
    x_lds_handlers[] = {
        H(ds_read_b32, ds_read_b32),
        H(ds_read_b64, ds_read_b64),
        H(ds_read_b96, ds_read_b96),
        H(ds_read_b128, ds_read_b128),
        H(ds_read_u8, ds_read_u8),
        H(ds_read_i8, ds_read_i8),
        H(ds_read_u16, ds_read_u16),
        H(ds_read_i16, ds_read_i16),
        H(ds_read_u8_d16, ds_read_u8_d16),
        H(ds_read_i8_d16, ds_read_i8_d16),
        H(ds_read_u16_d16, ds_read_u16_d16),
        H(ds_read_u8_d16_hi, ds_read_u8_d16_hi),
        H(ds_read_i8_d16_hi, ds_read_i8_d16_hi),
        H(ds_read_u16_d16_hi, ds_read_u16_d16_hi),
        H(ds_write_b32, ds_write_b32),
        H(ds_write_b64, ds_write_b64),
        H(ds_write_b96, ds_write_b96),
        H(ds_write_b128, ds_write_b128),
        H(ds_write_b8, ds_write_b8),
        H(ds_write_b16, ds_write_b16),
        H(ds_write_b8_d16_hi, ds_write_b8_d16_hi),
        H(ds_write_b16_d16_hi, ds_write_b16_d16_hi),
        H(ds_read2_b32, ds_read2_b32),
        H(ds_read2_b64, ds_read2_b64),
        H(ds_read2st64_b32, ds_read2st64_b32),
        H(ds_read2st64_b64, ds_read2st64_b64),
        H(ds_write2_b32, ds_write2_b32),
        H(ds_write2_b64, ds_write2_b64),
        H(ds_write2st64_b32, ds_write2st64_b32),
        H(ds_write2st64_b64, ds_write2st64_b64),
        H(ds_wrxchg2_rtn_b32, ds_wrxchg2_rtn_b32),
        H(ds_wrxchg2_rtn_b64, ds_wrxchg2_rtn_b64),
        H(ds_wrxchg2st64_rtn_b32, ds_wrxchg2st64_rtn_b32),
        H(ds_wrxchg2st64_rtn_b64, ds_wrxchg2st64_rtn_b64),
        H(ds_wrxchg_rtn_b32, ds_wrxchg_rtn_b32),
        H(ds_wrxchg_rtn_b64, ds_wrxchg_rtn_b64),
        H(ds_add_u32, ds_add_u32),
        H(ds_add_rtn_u32, ds_add_u32),
        H(ds_add_u64, ds_add_u64),
        H(ds_add_rtn_u64, ds_add_u64),
        H(ds_sub_u32, ds_sub_u32),
        H(ds_sub_rtn_u32, ds_sub_u32),
        H(ds_sub_u64, ds_sub_u64),
        H(ds_sub_rtn_u64, ds_sub_u64),
        H(ds_rsub_u32, ds_rsub_u32),
        H(ds_rsub_rtn_u32, ds_rsub_u32),
        H(ds_rsub_u64, ds_rsub_u64),
        H(ds_rsub_rtn_u64, ds_rsub_u64),
        H(ds_inc_u32, ds_inc_u32),
        H(ds_inc_rtn_u32, ds_inc_u32),
        H(ds_inc_u64, ds_inc_u64),
        H(ds_inc_rtn_u64, ds_inc_u64),
        H(ds_dec_u32, ds_dec_u32),
        H(ds_dec_rtn_u32, ds_dec_u32),
        H(ds_dec_u64, ds_dec_u64),
        H(ds_dec_rtn_u64, ds_dec_u64),
        H(ds_min_i32, ds_min_i32),
        H(ds_min_rtn_i32, ds_min_i32),
        H(ds_min_i64, ds_min_i64),
        H(ds_min_rtn_i64, ds_min_i64),
        H(ds_max_i32, ds_max_i32),
        H(ds_max_rtn_i32, ds_max_i32),
        H(ds_max_i64, ds_max_i64),
        H(ds_max_rtn_i64, ds_max_i64),
        H(ds_min_u32, ds_min_u32),
        H(ds_min_rtn_u32, ds_min_u32),
        H(ds_min_u64, ds_min_u64),
        H(ds_min_rtn_u64, ds_min_u64),
        H(ds_max_u32, ds_max_u32),
        H(ds_max_rtn_u32, ds_max_u32),
        H(ds_max_u64, ds_max_u64),
        H(ds_max_rtn_u64, ds_max_u64),
        H(ds_and_b32, ds_and_b32),
        H(ds_and_rtn_b32, ds_and_b32),
        H(ds_and_b64, ds_and_b64),
        H(ds_and_rtn_b64, ds_and_b64),
        H(ds_or_b32, ds_or_b32),
        H(ds_or_rtn_b32, ds_or_b32),
        H(ds_or_b64, ds_or_b64),
        H(ds_or_rtn_b64, ds_or_b64),
        H(ds_xor_b32, ds_xor_b32),
        H(ds_xor_rtn_b32, ds_xor_b32),
        H(ds_xor_b64, ds_xor_b64),
        H(ds_xor_rtn_b64, ds_xor_b64),
        H(ds_mskor_b32, ds_mskor_b32),
        H(ds_mskor_rtn_b32, ds_mskor_b32),
        H(ds_mskor_b64, ds_mskor_b64),
        H(ds_mskor_rtn_b64, ds_mskor_b64),
        H(ds_cmpst_b32, ds_cmpst_b32),
        H(ds_cmpst_rtn_b32, ds_cmpst_b32),
        H(ds_cmpst_b64, ds_cmpst_b64),
        H(ds_cmpst_rtn_b64, ds_cmpst_b64),
        H(ds_cmpst_f32, ds_cmpst_f32),
        H(ds_cmpst_rtn_f32, ds_cmpst_f32),
        H(ds_cmpst_f64, ds_cmpst_f64),
        H(ds_cmpst_rtn_f64, ds_cmpst_f64),
        H(ds_add_f32, ds_add_f32),
        H(ds_add_rtn_f32, ds_add_f32),
        H(ds_add_f64, ds_add_f64),
        H(ds_add_rtn_f64, ds_add_f64),
        H(ds_min_f32, ds_min_f32),
        H(ds_min_rtn_f32, ds_min_f32),
        H(ds_min_f64, ds_min_f64),
        H(ds_min_rtn_f64, ds_min_f64),
        H(ds_max_f32, ds_max_f32),
        H(ds_max_rtn_f32, ds_max_f32),
        H(ds_max_f64, ds_max_f64),
        H(ds_max_rtn_f64, ds_max_f64),
        H(ds_pk_add_f16, ds_pk_add_f16),
        H(ds_pk_add_rtn_f16, ds_pk_add_f16),
        H(ds_pk_add_bf16, ds_pk_add_bf16),
        H(ds_pk_add_rtn_bf16, ds_pk_add_bf16),
        H(ds_permute_b32, ds_permute_b32),
        H(ds_bpermute_b32, ds_bpermute_b32),
        H(ds_swizzle_b32, ds_swizzle_b32),
        H(ds_append, ds_append),
        H(ds_consume, ds_consume),
        H(ds_read_addtid_b32, ds_read_addtid_b32),
        H(ds_write_addtid_b32, ds_write_addtid_b32),
        H(ds_wrap_rtn_b32, ds_wrap_rtn_b32),
        H(ds_condxchg32_rtn_b64, ds_condxchg32_rtn_b64),
        H(ds_nop, ds_nop),
        H(ds_read_b64_tr_b16, ds_read_b64_tr_b16),
        H(ds_read_b64_tr_b8, ds_read_b64_tr_b8),
        H(ds_read_b64_tr_b4, ds_read_b64_tr_b4),
        H(ds_read_b96_tr_b6, ds_read_b96_tr_b6),
};
const unsigned x_lds_nhandlers = sizeof x_lds_handlers / sizeof x_lds_handlers[0];
