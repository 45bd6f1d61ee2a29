/* fp8_ref.h - a C reference of the OCP 8-bit float formats for the tests (test_rdna_fp8.c,
 * test_rdna_fp8_kernels.c), written from the formats' definitions: fp8 = E4M3FN (bias 7, no
 * infinity, S.1111.111 the only NaN, max 448), bf8 = E5M2 (bias 15, IEEE-like: infinities and
 * NaNs at exponent 31, max 57344).  Each value is built from its exponent and mantissa fields;
 * rounding uses the C library's nearbyint (round to nearest even) or, for stochastic rounding,
 * "round away from zero iff the dropped fraction plus rnd * 2^-32 reaches one lsb".  Out-of-range
 * and infinite inputs give NaN (fp8) or +-inf (bf8), NaN inputs S.1111.111 (checked only as
 * "a NaN code" by the tests). */
#ifndef GFXEMU_TEST_FP8_REF_H
#define GFXEMU_TEST_FP8_REF_H

#include "common/bits.h"

#include <math.h>
#include <stdint.h>

typedef struct {
    int e, m, bias, ieee; /* exponent and mantissa bits; ieee: all-ones exponent is inf/NaN */
} fmt8;
static const fmt8 FP8 = {4, 3, 7, 0}, BF8 = {5, 2, 15, 1};

static inline int is_nan8(unsigned c, const fmt8 *f) {
    unsigned em = c & 0x7f;
    return f->ieee ? (em >> f->m) == 31u && (em & 3) != 0 : em == 0x7f;
}
static inline double max8(const fmt8 *f) { /* 448 = 1.75 * 2^8, 57344 = 1.75 * 2^15 */
    return f->ieee ? ldexp(1.75, 30 - 15) : ldexp(1.75, 15 - 7);
}
/* code -> value (NaN for the NaN codes) */
static inline double dec8(unsigned c, const fmt8 *f) {
    int s = c >> 7 & 1, ex = (int)(c >> f->m) & ((1 << f->e) - 1), man = (int)c & ((1 << f->m) - 1);
    double v;
    if (is_nan8(c, f))
        return NAN;
    if (f->ieee && ex == 31)
        v = INFINITY;
    else if (ex == 0)
        v = ldexp(man, 1 - f->bias - f->m);
    else
        v = ldexp((1 << f->m) + man, ex - f->bias - f->m);
    return s ? -v : v;
}
/* |value| (already a multiple of the format's spacing, <= max) -> code without sign */
static inline unsigned pack8(double a, const fmt8 *f) {
    if (a == 0)
        return 0;
    int e;
    frexp(a, &e); /* a = fr * 2^e, fr in [0.5, 1) */
    e -= 1;       /* a = 1.x * 2^e */
    if (e < 1 - f->bias)
        return (unsigned)ldexp(a, f->bias - 1 + f->m);
    return (unsigned)(e + f->bias) << f->m | ((unsigned)ldexp(a, f->m - e) & ((1u << f->m) - 1));
}
static inline unsigned overflow8(int s, const fmt8 *f) {
    return (unsigned)s << 7 | (f->ieee ? 0x7c : 0x7f);
}
/* f32 -> code; rnd < 0: round to nearest even, else stochastic with the 32-bit fraction rnd */
static inline unsigned enc8(float x, const fmt8 *f, long long rnd) {
    int s = signbit(x) != 0;
    if (isnan(x))
        return (unsigned)s << 7 | 0x7f;
    double a = fabs((double)x);
    if (isinf(x))
        return overflow8(s, f);
    int e = 0;
    if (a != 0) {
        frexp(a, &e);
        e -= 1;
    }
    if (e < 1 - f->bias)
        e = 1 - f->bias;
    double ulp = ldexp(1, e - f->m), q = a / ulp, r;
    if (rnd < 0)
        r = nearbyint(q);
    else
        r = floor(q) + (q - floor(q) + ldexp((double)rnd, -32) >= 1);
    double v = r * ulp;
    if (v > max8(f))
        return overflow8(s, f);
    return (unsigned)s << 7 | pack8(v, f);
}
static inline uint32_t f32_of(unsigned c, const fmt8 *f) { return bits32((float)dec8(c, f)); }

/* got and want are four codes (byte b in format fs[b]): equal, or both NaN codes of fs[b] */
static inline int word8_eq(uint32_t got, uint32_t want, const fmt8 *const fs[4]) {
    for (int b = 0; b < 4; b++) {
        unsigned g = got >> 8 * b & 0xff, x = want >> 8 * b & 0xff;
        if (g != x && !(is_nan8(g, fs[b]) && is_nan8(x, fs[b])))
            return 0;
    }
    return 1;
}

#endif
