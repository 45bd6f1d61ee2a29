// Control-flow and integer kernels (tests/kernels/test_control.c): divergent branches, nested
// loops with break/continue, early exits, switch, function calls, 64-bit and constant division.

#define GID() (__builtin_amdgcn_workgroup_id_x() * 64u + __builtin_amdgcn_workitem_id_x())

// 1. Nested divergent if/else: every lane of a wave takes its own path; `mode` is uniform.
__kernel void branch_divergent(__global int *out, __global const int *a, int mode, unsigned n)
{
    unsigned i = GID();
    if (i >= n)
        return;
    int x = a[i], r;
    if (x & 1) {
        if (x & 2)
            r = x * 3;
        else if (x & 4)
            r = x - 100;
        else
            r = -x;
    } else {
        r = x >> 1;
        if ((x & 6) == 6)
            r ^= 0x5555;
    }
    if (mode == 1) // uniform branch
        r += 1000000;
    else if (x < 0)
        r = r / 2;
    out[i] = r;
}

// 2. Nested loops with lane-dependent trip counts, continue and break.
__kernel void loops_nested(__global unsigned *out, __global const unsigned *a, unsigned n)
{
    unsigned i = GID();
    if (i >= n)
        return;
    unsigned rows = a[i] & 15, cols = (a[i] >> 4) & 15, s = 0;
    for (unsigned r = 0; r < rows; r++) {
        if (r == 7)
            continue;
        for (unsigned c = 0; c <= cols; c++) {
            if (c * r > 60)
                break;
            s = s * 31 + r * 16 + c;
        }
    }
    out[i] = s;
}

// 3. Early exits: return from inside a loop, from before it, and after it.
__kernel void early_exit(__global int *out, __global const int *rows, unsigned n)
{
    unsigned i = GID();
    if (i >= n)
        return;
    __global const int *row = rows + 32 * i;
    if (row[0] < 0) { // exit before the loop
        out[i] = -2;
        return;
    }
    for (int k = 1; k < 32; k++)
        if (row[k] == row[0]) { // exit from inside
            out[i] = k;
            return;
        }
    out[i] = -1;
}

// 4. switch with fallthrough and a default.
__kernel void switch_case(__global int *out, __global const int *a, unsigned n)
{
    unsigned i = GID();
    if (i >= n)
        return;
    int x = a[i], r = 0;
    switch (x % 13) {
    case 0:
        r = 100;
        break;
    case 1:
        r = x * 2;
        // fall through
    case 2:
        r += 7;
        break;
    case 3:
    case 4:
        r = x ^ 0xff;
        break;
    case 5:
        r = -x;
        break;
    case -1:
        r = 55;
        break;
    case -7:
        r = x >> 2;
        // fall through
    case 9:
        r += 9;
        break;
    default:
        r = x & 0xf0f0;
    }
    out[i] = r;
}

// 5. 64-bit signed and unsigned division and modulo, by variables and by constants.
__kernel void i64_divmod(__global long *out, __global const long *a, __global const long *b,
                         unsigned n)
{
    unsigned i = GID();
    if (i < n) {
        long x = a[i], y = b[i];
        out[6 * i + 0] = x / y;
        out[6 * i + 1] = x % y;
        out[6 * i + 2] = (long)((unsigned long)x / (unsigned long)y);
        out[6 * i + 3] = (long)((unsigned long)x % (unsigned long)y);
        out[6 * i + 4] = x / -7;
        out[6 * i + 5] = x % 1000000007;
    }
}

// 6. 32-bit division by constants (multiply-high sequences) and unsigned division by variables.
__kernel void i32_divmod(__global int *out, __global const int *a, __global const int *b,
                         unsigned n)
{
    unsigned i = GID();
    if (i < n) {
        int x = a[i];
        unsigned u = (unsigned)x, v = (unsigned)b[i];
        out[6 * i + 0] = x / 10;
        out[6 * i + 1] = x % -3;
        out[6 * i + 2] = (int)(u / 641u);
        out[6 * i + 3] = (int)(u % 65537u);
        out[6 * i + 4] = (int)(u / v);
        out[6 * i + 5] = (int)(u % v);
    }
}

// 7. Calls to non-inlined functions: arguments in registers and on the stack, a private array
//    passed by pointer (a function's scratch), nested calls.
__attribute__((noinline)) static int poly(int x, int a, int b, int c, int d, int e, int f, int g,
                                          int h, int k, int l, int m, int o, int p, int q, int r,
                                          int s, int t, int u, int v, int w, int y, int z,
                                          int aa, int bb, int cc, int dd, int ee, int ff, int gg,
                                          int hh, int ii, int jj, int kk)
{
    int terms[34] = {a, b, c, d, e, f, g, h, k, l, m, o, p, q, r, s, t,
                     u, v, w, y, z, aa, bb, cc, dd, ee, ff, gg, hh, ii, jj, kk};
    int acc = 0;
    for (int j = 33; j >= 0; j--)
        acc = acc * x + terms[j];
    return acc;
}

__attribute__((noinline)) static void fill(int *buf, int n, int seed)
{
    for (int j = 0; j < n; j++)
        buf[j] = seed = seed * 1103515245 + 12345;
}

__attribute__((noinline)) static int sum_picked(const int *buf, int n, unsigned pick)
{
    int s = 0;
    for (int j = 0; j < n; j++)
        if (pick >> j & 1)
            s += buf[j];
    return s;
}

__kernel void calls(__global int *out, __global const int *a, unsigned n)
{
    unsigned i = GID();
    if (i >= n)
        return;
    int x = a[i], buf[24];
    fill(buf, 24, x);
    out[2 * i + 0] = sum_picked(buf, 24, (unsigned)x * 2654435761u);
    out[2 * i + 1] = poly(x & 7, 1, -2, 3, -4, 5, -6, 7, -8, 9, -10, 11, -12, 13, -14, 15, -16, 17,
                          -18, 19, -20, 21, -22, 23, -24, 25, -26, 27, -28, 29, -30, 31, -32, x);
}

// 8. Euclid's gcd: a divergent while loop whose trip count depends on the data.
__kernel void gcd_loop(__global unsigned *out, __global const unsigned *a,
                       __global const unsigned *b, unsigned n)
{
    unsigned i = GID();
    if (i >= n)
        return;
    unsigned x = a[i], y = b[i], steps = 0;
    while (y != 0) {
        unsigned t = x % y;
        x = y;
        y = t;
        steps++;
    }
    out[2 * i + 0] = x;
    out[2 * i + 1] = steps;
}

// 9. Integer builtins that map to one instruction each: byte permute, funnel shifts, sums of
//    absolute differences, byte lerp, bitfield extracts, integer dot products (wrapping and
//    clamped), multiply-high, 24-bit multiply, float class tests, bit reverse.
typedef short short2_t __attribute__((ext_vector_type(2)));
typedef unsigned short ushort2_t __attribute__((ext_vector_type(2)));

// Not on RDNA (test_control.c leaves it out there): gfx11/gfx12 lack some of these builtins.
#if !defined(__GFX11__) && !defined(__GFX12__)
__kernel void int_builtins(__global unsigned *out, __global const unsigned *a,
                           __global const unsigned *b, __global const unsigned *c, unsigned n)
{
    unsigned i = GID();
    if (i >= n)
        return;
    unsigned x = a[i], y = b[i], z = c[i];
    __global unsigned *o = out + 18 * i;
    o[0] = __builtin_amdgcn_perm(x, y, z);
    o[1] = __builtin_amdgcn_alignbit(x, y, z);
    o[2] = __builtin_amdgcn_alignbyte(x, y, z);
    o[3] = __builtin_amdgcn_sad_u8(x, y, z);
    o[4] = __builtin_amdgcn_sad_hi_u8(x, y, z);
    o[5] = __builtin_amdgcn_sad_u16(x, y, z);
    o[6] = __builtin_amdgcn_lerp(x, y, z);
    o[7] = __builtin_amdgcn_ubfe(x, y, z);
    o[8] = (unsigned)__builtin_amdgcn_sbfe((int)x, y, z);
    o[9] = (unsigned)__builtin_amdgcn_sdot4((int)x, (int)y, (int)z, false);
    o[10] = (unsigned)__builtin_amdgcn_sdot4((int)x, (int)y, (int)z, true);
    o[11] = __builtin_amdgcn_udot4(x, y, z, false);
    o[12] = (unsigned)__builtin_amdgcn_sdot2(__builtin_bit_cast(short2_t, x),
                                             __builtin_bit_cast(short2_t, y), (int)z, false);
    o[13] = __builtin_amdgcn_udot2(__builtin_bit_cast(ushort2_t, x),
                                   __builtin_bit_cast(ushort2_t, y), z, false);
    o[14] = (unsigned)(((unsigned long)x * y) >> 32) ^ (unsigned)(((long)(int)x * (int)y) >> 32);
    o[15] = (x & 0xffffff) * (y & 0xffffff);
    o[16] = __builtin_amdgcn_classf(__builtin_bit_cast(float, x), (int)(z & 1023));
    o[17] = __builtin_bitreverse32(x);
}
#endif
