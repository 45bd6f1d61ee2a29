/* fbits.h - a float's or double's bits and back: the register files hold raw 32- and 64-bit
 * words, and the handlers (exec/) compute on the host's IEEE float and double; the assembler
 * (isa/asm.c) encodes float literals with the same casts.
 * memcpy is the defined way to reinterpret them in C; compilers turn it into a register move.
 * Always inlined: the lane loops that call them are vectorised (and src/exec/mfma.c's are
 * compiled per host target), which a call would prevent. */
#ifndef GFXEMU_ISA_FBITS_H
#define GFXEMU_ISA_FBITS_H

#include <stdint.h>
#include <string.h>

#define FBITS_AI static inline __attribute__((always_inline))

FBITS_AI float f32(uint32_t u) {
    float f;
    memcpy(&f, &u, 4);
    return f;
}
FBITS_AI uint32_t bf32(float f) {
    uint32_t u;
    memcpy(&u, &f, 4);
    return u;
}
FBITS_AI double f64(uint64_t u) {
    double f;
    memcpy(&f, &u, 8);
    return f;
}
FBITS_AI uint64_t bf64(double f) {
    uint64_t u;
    memcpy(&u, &f, 8);
    return u;
}

#undef FBITS_AI

#endif
