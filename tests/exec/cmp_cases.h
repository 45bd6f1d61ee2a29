/* cmp_cases.h - what the compare coverage tests share (test_cov_vopc.c on gfx950/gfx942,
 * test_rdna_cov_vopc.c on gfx1100/gfx1201): the operand types, 8 edge values per type (+-0,
 * +-inf, NaN, a denormal, the ends of the integer ranges), the integer predicate names, and each
 * predicate as the manuals define it, evaluated on the host. */
#ifndef GFXEMU_TESTS_CMP_CASES_H
#define GFXEMU_TESTS_CMP_CASES_H

#include "common/cov.h"

#include <math.h>
#include <stdint.h>

enum { TF16, TF32, TF64, TI16, TU16, TI32, TU32, TI64, TU64, NT };
static const char *const tname[NT] = {"f16", "f32", "f64", "i16", "u16",
                                      "i32", "u32", "i64", "u64"};
static const uint64_t vals[NT][8] = {
    {0xfc00, 0xbc00, 0x8000, 0x0000, 0x0001, 0x3c00, 0x7c00, 0x7e00},
    {0xff800000, 0xbf800000, 0x80000000, 0, 0x00000001, 0x3f800000, 0x7f800000, 0x7fc00000},
    {0xfff0000000000000, 0xbff0000000000000, 0x8000000000000000, 0, 1, 0x3ff0000000000000,
     0x7ff0000000000000, 0x7ff8000000000000},
    {0x8000, 0xffff, 0, 1, 0x7fff, 0x1234, 0x8001, 2},
    {0x8000, 0xffff, 0, 1, 0x7fff, 0x1234, 0x8001, 2},
    {0x80000000, 0xffffffff, 0, 1, 0x7fffffff, 2, 0x80000001, 0x12345678},
    {0x80000000, 0xffffffff, 0, 1, 0x7fffffff, 2, 0x80000001, 0x12345678},
    {0x8000000000000000, ~0ull, 0, 1, 0x7fffffffffffffff, 0x100000000, 0xffffffff,
     0x8000000000000001},
    {0x8000000000000000, ~0ull, 0, 1, 0x7fffffffffffffff, 0x100000000, 0xffffffff,
     0x8000000000000001},
};
static const char *const ipred[8] = {"f", "lt", "eq", "le", "gt", "ne", "ge", "t"};

static inline int is_float(int t) { return t <= TF64; }
static inline int is64(int t) { return t == TF64 || t == TI64 || t == TU64; }
static inline int is16(int t) { return t == TF16 || t == TI16 || t == TU16; }
static inline int npred(int t) { return is_float(t) ? 16 : 8; }

/* Predicate p of type t (float: 0 F .. 15 T; integer: 0 F .. 7 T) on a lane's operands, raw bits
 * of the type (16-bit types compare their low halves only). */
static inline int cmp_ref(int t, int p, uint64_t x, uint64_t y) {
    if (is_float(t)) {
        double a = t == TF16   ? cov_h2d((uint32_t)x)
                   : t == TF32 ? from_bits32((uint32_t)x)
                               : from_bits64(x);
        double b = t == TF16   ? cov_h2d((uint32_t)y)
                   : t == TF32 ? from_bits32((uint32_t)y)
                               : from_bits64(y);
        int lt = a<b, eq = a == b, gt = a> b, un = isnan(a) || isnan(b);
        int r[16] = {0,  lt,          eq,          lt || eq, gt,          lt || gt, gt || eq, !un,
                     un, !(gt || eq), !(lt || gt), !gt,      !(lt || eq), !eq,      !lt,      1};
        return r[p];
    }
    int lt, eq;
    switch (t) {
    case TI16: lt = (int16_t)x < (int16_t)y, eq = (uint16_t)x == (uint16_t)y; break;
    case TU16: lt = (uint16_t)x < (uint16_t)y, eq = (uint16_t)x == (uint16_t)y; break;
    case TI32: lt = (int32_t)x < (int32_t)y, eq = (uint32_t)x == (uint32_t)y; break;
    case TU32: lt = (uint32_t)x < (uint32_t)y, eq = (uint32_t)x == (uint32_t)y; break;
    case TI64: lt = (int64_t)x < (int64_t)y, eq = x == y; break;
    default: lt = x < y, eq = x == y; break;
    }
    int r[8] = {0, lt, eq, lt || eq, !lt && !eq, !eq, !lt, 1};
    return r[p];
}

/* The V_CMP_CLASS class index of value u of float type t. */
static inline int cmp_class_of(int t, uint64_t u) {
    int s, e1, e0, m0, q;
    if (t == TF16)
        s = (u >> 15) & 1, e1 = ((u >> 10) & 0x1f) == 0x1f, e0 = ((u >> 10) & 0x1f) == 0,
        m0 = (u & 0x3ff) == 0, q = (u >> 9) & 1;
    else if (t == TF32)
        s = (u >> 31) & 1, e1 = ((u >> 23) & 0xff) == 0xff, e0 = ((u >> 23) & 0xff) == 0,
        m0 = (u & 0x7fffff) == 0, q = (u >> 22) & 1;
    else
        s = (int)(u >> 63), e1 = ((u >> 52) & 0x7ff) == 0x7ff, e0 = ((u >> 52) & 0x7ff) == 0,
        m0 = (u & 0xfffffffffffffull) == 0, q = (u >> 51) & 1;
    /* manual: 0 sNaN, 1 qNaN, 2 -inf, 3 -normal, 4 -denorm, 5 -0, 6 +0, 7 +denorm, 8 +normal,
     * 9 +inf */
    if (e1)
        return m0 ? (s ? 2 : 9) : (q ? 1 : 0);
    if (e0)
        return m0 ? (s ? 5 : 6) : (s ? 4 : 7);
    return s ? 3 : 8;
}

#endif
