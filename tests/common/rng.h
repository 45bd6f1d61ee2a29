/* rng.h - the xorshift64 step (shifts 13, 7, 17) behind the C tests' fixed pseudo-random inputs:
 * each test keeps its own seed and takes the bits it wants from the new state. */
#ifndef GFXEMU_TEST_RNG_H
#define GFXEMU_TEST_RNG_H

#include <stdint.h>

static inline uint64_t xorshift64(uint64_t *s) {
    *s ^= *s << 13;
    *s ^= *s >> 7;
    *s ^= *s << 17;
    return *s;
}

#endif
