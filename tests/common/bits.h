/* bits.h - bit casts between floats and their encodings for the C tests, and the comparison they
 * use for float results: same bits, or both NaN. */
#ifndef GFXEMU_TEST_BITS_H
#define GFXEMU_TEST_BITS_H

#include <math.h>
#include <stdint.h>
#include <string.h>

static inline float from_bits32(uint32_t u) {
    float f;
    memcpy(&f, &u, 4);
    return f;
}
static inline double from_bits64(uint64_t u) {
    double d;
    memcpy(&d, &u, 8);
    return d;
}
static inline uint32_t bits32(float f) {
    uint32_t u;
    memcpy(&u, &f, 4);
    return u;
}
static inline uint64_t bits64(double d) {
    uint64_t u;
    memcpy(&u, &d, 8);
    return u;
}
static inline int same32(float got, float want) {
    return isnan(want) ? isnan(got) : bits32(got) == bits32(want);
}
static inline int same64(double got, double want) {
    return isnan(want) ? isnan(got) : bits64(got) == bits64(want);
}

#endif
