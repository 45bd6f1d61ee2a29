/* xatomic.h - the read-modify-write operations of scalar, vector-memory and LDS atomics, in one
 * place (CDNA3/CDNA4 ISA pseudocode for *_ATOMIC_* and DS_* atomics). */
#ifndef GFXEMU_XATOMIC_H
#define GFXEMU_XATOMIC_H

#include "isa/fbits.h"

#include <stdint.h>

enum {
    XA_ADD,
    XA_SUB,
    XA_RSUB,
    XA_SWAP,
    XA_CMPSWAP,   /* mem == v2 ? v : mem   (v = new value, v2 = compare value) */
    XA_CMPSWAP_F, /* the same with a floating-point compare (DS_CMPST_F32/F64) */
    XA_SMIN,
    XA_UMIN,
    XA_SMAX,
    XA_UMAX,
    XA_AND,
    XA_OR,
    XA_XOR,
    XA_INC,   /* mem >= v ? 0 : mem + 1 */
    XA_DEC,   /* mem == 0 || mem > v ? v : mem - 1 */
    XA_MSKOR, /* (mem & ~v) | v2 */
    XA_FADD,
    XA_FMIN,
    XA_FMAX, /* f32 or f64 by width; min/max: (v < mem) ? v : mem */
    XA_PK_ADD_F16,
    XA_PK_ADD_BF16,
    XA_CSUB,     /* mem < v ? 0 : mem - v (RDNA *_ATOMIC_CSUB_U32 / SUB_CLAMP_U32) */
    XA_COND_SUB, /* mem >= v ? mem - v : mem (RDNA4 *_ATOMIC_COND_SUB_U32) */
    XA_FMIN_NUM, /* RDNA4 *_MIN_NUM_F32/F64: IEEE minimumNumber, f32 or f64 by width */
    XA_FMAX_NUM, /* RDNA4 *_MAX_NUM_F32/F64: IEEE maximumNumber */
};

/* The new memory value for an operation on 4 (is64 = 0) or 8 bytes: every operation. */
uint64_t x_atomic_apply_all(int op, uint64_t mem, uint64_t v, uint64_t v2, int is64);
/* The same, with the integer operations and float adds inline: an LDS atomic calls this per
 * lane, and the call and the float conversions x_atomic_apply_all makes up front were a third
 * of ds_add_u32. */
static inline uint64_t x_atomic_apply(int op, uint64_t m, uint64_t v, uint64_t v2, int is64) {
    uint64_t mask = is64 ? ~0ull : 0xffffffffull;
    int64_t sm = is64 ? (int64_t)m : (int32_t)(uint32_t)m;
    int64_t sv = is64 ? (int64_t)v : (int32_t)(uint32_t)v;
    switch (op) {
    case XA_ADD: return (m + v) & mask;
    case XA_SUB: return (m - v) & mask;
    case XA_RSUB: return (v - m) & mask;
    case XA_SWAP: return v;
    case XA_CMPSWAP: return m == v2 ? v : m;
    case XA_SMIN: return sv < sm ? v : m;
    case XA_UMIN: return v < m ? v : m;
    case XA_SMAX: return sv > sm ? v : m;
    case XA_UMAX: return v > m ? v : m;
    case XA_AND: return m & v;
    case XA_OR: return m | v;
    case XA_XOR: return m ^ v;
    case XA_INC: return m >= v ? 0 : m + 1;
    case XA_DEC: return (m == 0 || m > v) ? v : m - 1;
    case XA_FADD: return is64 ? bf64(f64(m) + f64(v)) : bf32(f32((uint32_t)m) + f32((uint32_t)v));
    default: return x_atomic_apply_all(op, m, v, v2, is64);
    }
}
/* Perform it atomically on host memory p (naturally aligned), returning the old value: global
 * memory is shared by workgroups running on different threads. */
uint64_t x_atomic_rmw(void *p, int op, uint64_t v, uint64_t v2, int is64);
/* x_atomic_rmw's body, for callers with op a constant.  The integer add, subtract, logic and
 * swap operations are one host instruction (lock xadd, lock or, xchg ...) instead of a
 * compare-and-swap loop; the others loop. */
static inline __attribute__((always_inline)) uint64_t x_atomic_rmw_inl(void *p, int op, uint64_t v,
                                                                       uint64_t v2, int is64) {
#define DIRECT(T)                                                                                  \
    switch (op) {                                                                                  \
    case XA_ADD: return __atomic_fetch_add((T *)p, (T)v, __ATOMIC_SEQ_CST);                        \
    case XA_SUB: return __atomic_fetch_sub((T *)p, (T)v, __ATOMIC_SEQ_CST);                        \
    case XA_AND: return __atomic_fetch_and((T *)p, (T)v, __ATOMIC_SEQ_CST);                        \
    case XA_OR: return __atomic_fetch_or((T *)p, (T)v, __ATOMIC_SEQ_CST);                          \
    case XA_XOR: return __atomic_fetch_xor((T *)p, (T)v, __ATOMIC_SEQ_CST);                        \
    case XA_SWAP: return __atomic_exchange_n((T *)p, (T)v, __ATOMIC_SEQ_CST);                      \
    default: break;                                                                                \
    }
    if (is64) {
        DIRECT(uint64_t)
    } else {
        DIRECT(uint32_t)
    }
#undef DIRECT
    if (is64) {
        uint64_t *q = p, o = __atomic_load_n(q, __ATOMIC_RELAXED);
        while (!__atomic_compare_exchange_n(q, &o, x_atomic_apply(op, o, v, v2, 1), 1,
                                            __ATOMIC_SEQ_CST, __ATOMIC_RELAXED))
            ;
        return o;
    }
    uint32_t *q = p, o = __atomic_load_n(q, __ATOMIC_RELAXED);
    while (!__atomic_compare_exchange_n(q, &o, (uint32_t)x_atomic_apply(op, o, v, v2, 0), 1,
                                        __ATOMIC_SEQ_CST, __ATOMIC_RELAXED))
        ;
    return o;
}

/* Plain loads and stores of global memory.  Workgroups run on several host threads, and a kernel
 * may legally race plain accesses (a CAS loop that starts with a plain load, stores of one value
 * from several workgroups), so a memcpy there would be a C data race on the host.  These copy in
 * relaxed atomic units instead: 8, 4 or 2 bytes where the address and size allow it, else bytes
 * (a relaxed atomic load or store of a naturally aligned unit is an ordinary move on x86-64 and
 * AArch64).  Each unit is single-copy atomic; the access as a whole is not, as on the GPU. */
static inline void x_shared_load(void *dst, const void *src, unsigned size) {
    uint8_t *d = dst;
    const uint8_t *s = src;
    uintptr_t a = (uintptr_t)s;
    if (!((a | size) & 7)) {
        for (unsigned i = 0; i < size; i += 8) {
            uint64_t v = __atomic_load_n((const uint64_t *)(s + i), __ATOMIC_RELAXED);
            __builtin_memcpy(d + i, &v, 8);
        }
    } else if (!((a | size) & 3)) {
        for (unsigned i = 0; i < size; i += 4) {
            uint32_t v = __atomic_load_n((const uint32_t *)(s + i), __ATOMIC_RELAXED);
            __builtin_memcpy(d + i, &v, 4);
        }
    } else if (!((a | size) & 1)) {
        for (unsigned i = 0; i < size; i += 2) {
            uint16_t v = __atomic_load_n((const uint16_t *)(s + i), __ATOMIC_RELAXED);
            __builtin_memcpy(d + i, &v, 2);
        }
    } else {
        for (unsigned i = 0; i < size; i++)
            d[i] = __atomic_load_n(s + i, __ATOMIC_RELAXED);
    }
}
static inline void x_shared_store(void *dst, const void *src, unsigned size) {
    uint8_t *d = dst;
    const uint8_t *s = src;
    uintptr_t a = (uintptr_t)d;
    if (!((a | size) & 7)) {
        for (unsigned i = 0; i < size; i += 8) {
            uint64_t v;
            __builtin_memcpy(&v, s + i, 8);
            __atomic_store_n((uint64_t *)(d + i), v, __ATOMIC_RELAXED);
        }
    } else if (!((a | size) & 3)) {
        for (unsigned i = 0; i < size; i += 4) {
            uint32_t v;
            __builtin_memcpy(&v, s + i, 4);
            __atomic_store_n((uint32_t *)(d + i), v, __ATOMIC_RELAXED);
        }
    } else if (!((a | size) & 1)) {
        for (unsigned i = 0; i < size; i += 2) {
            uint16_t v;
            __builtin_memcpy(&v, s + i, 2);
            __atomic_store_n((uint16_t *)(d + i), v, __ATOMIC_RELAXED);
        }
    } else {
        for (unsigned i = 0; i < size; i++)
            __atomic_store_n(d + i, s[i], __ATOMIC_RELAXED);
    }
}

#endif
