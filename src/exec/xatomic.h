/* xatomic.h - the read-modify-write operations of scalar, vector-memory and LDS atomics, in one
 * place (CDNA3/CDNA4 ISA pseudocode for *_ATOMIC_* and DS_* atomics). */
#ifndef GFXEMU_XATOMIC_H
#define GFXEMU_XATOMIC_H

#include <stdint.h>

enum {
    XA_ADD, XA_SUB, XA_RSUB, XA_SWAP,
    XA_CMPSWAP,   /* mem == v2 ? v : mem   (v = new value, v2 = compare value) */
    XA_CMPSWAP_F, /* the same with a floating-point compare (DS_CMPST_F32/F64) */
    XA_SMIN, XA_UMIN, XA_SMAX, XA_UMAX, XA_AND, XA_OR, XA_XOR,
    XA_INC,       /* mem >= v ? 0 : mem + 1 */
    XA_DEC,       /* mem == 0 || mem > v ? v : mem - 1 */
    XA_MSKOR,     /* (mem & ~v) | v2 */
    XA_FADD, XA_FMIN, XA_FMAX, /* f32 or f64 by width; min/max: (v < mem) ? v : mem */
    XA_PK_ADD_F16, XA_PK_ADD_BF16,
};

/* The new memory value for an operation on 4 (is64 = 0) or 8 bytes. */
uint64_t x_atomic_apply(int op, uint64_t mem, uint64_t v, uint64_t v2, int is64);
/* Perform it atomically on host memory p (naturally aligned), returning the old value: global
 * memory is shared by workgroups running on different threads. */
uint64_t x_atomic_rmw(void *p, int op, uint64_t v, uint64_t v2, int is64);

#endif
