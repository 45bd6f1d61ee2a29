// Integer kernels for the scalar unit, 64-bit bit operations and 8/16-bit vectors
// (tests/kernels/test_intops.c).

#define GID() (__builtin_amdgcn_workgroup_id_x() * 64u + __builtin_amdgcn_workitem_id_x())

typedef unsigned char uchar4_t __attribute__((ext_vector_type(4)));
typedef char char4_t __attribute__((ext_vector_type(4)));
typedef short short2_t __attribute__((ext_vector_type(2)));
typedef unsigned short ushort2_t __attribute__((ext_vector_type(2)));

// 1. Uniform values (kernel arguments) are computed on the scalar unit: 64-bit multiply,
//    shifts, division, bit counts, bit reverse, min/max, select.
__kernel void scalar_uniform(__global unsigned long *out, unsigned long a, unsigned long b,
                             long s, unsigned k)
{
    unsigned l = __builtin_amdgcn_workitem_id_x();
    unsigned long r[16];
    r[0] = a * b;
    r[1] = a << (k & 63);
    r[2] = (unsigned long)(s >> (k & 63));
    r[3] = a >> (k & 63);
    r[4] = b != 0 ? a / b : 0;
    r[5] = b != 0 ? a % b : 0;
    r[6] = (unsigned long)__builtin_popcountl(a);
    r[7] = a != 0 ? (unsigned long)__builtin_clzl(a) : 64;
    r[8] = a != 0 ? (unsigned long)__builtin_ctzl(a) : 64;
    r[9] = __builtin_bitreverse64(a);
    r[10] = (long)a < s ? a : (unsigned long)s;
    r[11] = a > b ? a - b : b - a;
    r[12] = (unsigned)a * (unsigned)(b >> 32) + (unsigned)(a >> 40);
    r[13] = (unsigned long)((int)a / (k | 1 ? (int)(k | 1) : 1));
    r[14] = (a & 0xffff0000ffffull) | ~b;
    r[15] = (unsigned long)(__builtin_clrsbl(s));
    if (l < 16)
        out[l] = r[l];
}

// 2. 64-bit bit operations with per-lane amounts: shifts, rotates, counts, min/max, mul-high.
__kernel void i64_bits(__global unsigned long *out, __global const unsigned long *a,
                       __global const unsigned long *b, unsigned n)
{
    unsigned i = GID();
    if (i >= n)
        return;
    unsigned long x = a[i], y = b[i];
    unsigned k = (unsigned)y & 63;
    __global unsigned long *o = out + 10 * i;
    o[0] = x << k;
    o[1] = x >> k;
    o[2] = (unsigned long)((long)x >> k);
    o[3] = (x << k) | (x >> ((64 - k) & 63));
    o[4] = (unsigned long)__builtin_popcountl(x) | (unsigned long)(x ? __builtin_clzl(x) : 64) << 8 |
           (unsigned long)(x ? __builtin_ctzl(x) : 64) << 16;
    o[5] = (long)x < (long)y ? x : y;
    o[6] = x > y ? x : y;
    o[7] = __builtin_bitreverse64(x);
    o[8] = (x & 0xffffffffull) * (y >> 32); // v_mad_u64_u32
    o[9] = (unsigned long)((long)(int)x * (long)(int)(y >> 7));
}

// 3. 8- and 16-bit vectors: SDWA byte arithmetic, packed 16-bit ops with and without
//    saturation, shifts and min/max.  Each element is stored widened to an int.  (At -O1/-O3
//    clang-22 packs byte vectors with v_bitop3_b16 on gfx950, which gfxemu does not implement
//    yet: see test_intops.c.)
#define PUT4(k, v)                                                                                \
    do {                                                                                          \
        uchar4_t t_ = (v);                                                                        \
        o8[16 * i + 4 * (k) + 0] = t_.x;                                                          \
        o8[16 * i + 4 * (k) + 1] = t_.y;                                                          \
        o8[16 * i + 4 * (k) + 2] = t_.z;                                                          \
        o8[16 * i + 4 * (k) + 3] = t_.w;                                                          \
    } while (0)
#define PUT2(k, v)                                                                                \
    do {                                                                                          \
        short2_t t_ = (v);                                                                        \
        o16[12 * i + 2 * (k) + 0] = t_.x;                                                         \
        o16[12 * i + 2 * (k) + 1] = t_.y;                                                         \
    } while (0)

__kernel void small_vec(__global int *o8, __global int *o16, __global const uchar4_t *a,
                        __global const uchar4_t *b, __global const short2_t *c,
                        __global const short2_t *d, unsigned n)
{
    unsigned i = GID();
    if (i >= n)
        return;
    uchar4_t x = a[i], y = b[i];
    char4_t sx = __builtin_bit_cast(char4_t, x), sy = __builtin_bit_cast(char4_t, y);
    short2_t p = c[i], q = d[i];
    ushort2_t up = __builtin_bit_cast(ushort2_t, p), uq = __builtin_bit_cast(ushort2_t, q);
    PUT4(0, x + y);
    PUT4(1, __builtin_elementwise_add_sat(x, y));
    PUT4(2, __builtin_bit_cast(uchar4_t, (char4_t)(sx * sy)));
    PUT4(3, __builtin_bit_cast(uchar4_t, __builtin_elementwise_sub_sat(sx, sy)));
    PUT2(0, p + q);
    PUT2(1, __builtin_elementwise_add_sat(p, q));
    PUT2(2, __builtin_bit_cast(short2_t, __builtin_elementwise_sub_sat(up, uq)));
    PUT2(3, p * q);
    PUT2(4, (short2_t)(p.x << (q.x & 15), p.y >> (q.y & 15)));
    PUT2(5, __builtin_bit_cast(short2_t, __builtin_elementwise_max(up, uq)) +
                __builtin_elementwise_min(p, q));
}
