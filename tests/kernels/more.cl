// More test kernels for the execution engine (see basic.cl): f64, correctly rounded f32
// division/sqrt, f16, LDS scan, 2D/3D grids, a >64 KiB LDS kernel (gfx950 only) and integer
// bit tricks.  Compiled by tests/kernels/test_kernels2.c with
// -cl-fp32-correctly-rounded-divide-sqrt, so f32 a/b and sqrt are correctly rounded.

#pragma OPENCL EXTENSION cl_khr_fp64 : enable
#pragma OPENCL EXTENSION cl_khr_fp16 : enable

#define GID() (__builtin_amdgcn_workgroup_id_x() * 64u + __builtin_amdgcn_workitem_id_x())

#include "../common/cl_barrier.h"

// 1. f64: fma, sqrt, division.
__kernel void f64_math(__global double *out, __global const double *a, __global const double *b,
                       __global const double *c, unsigned n)
{
    unsigned i = GID();
    if (i < n) {
        double x = a[i], y = b[i], z = c[i];
        out[3 * i + 0] = __builtin_fma(x, y, z);
        out[3 * i + 1] = __builtin_sqrt(x);
        out[3 * i + 2] = x / y;
    }
}

// 2. f32 division and sqrt (correctly rounded: see the compile flag above).
__kernel void f32_div_sqrt(__global float *out, __global const float *a, __global const float *b,
                           unsigned n)
{
    unsigned i = GID();
    if (i < n) {
        float x = a[i], y = b[i];
        out[2 * i + 0] = x / y;
        out[2 * i + 1] = __builtin_sqrtf(x);
    }
}

// 3. f16: out[2i] = a*b+c in separate statements (two roundings, never fused);
//    out[2i+1] = a*b+c in one expression (clang may contract it into one fma).
__kernel void f16_math(__global float *out, __global const float *a, __global const float *b,
                       __global const float *c, unsigned n)
{
    unsigned i = GID();
    if (i < n) {
        half x = (half)a[i], y = (half)b[i], z = (half)c[i];
        half p = x * y;
        half s = p + z;
        out[2 * i + 0] = (float)s;
        out[2 * i + 1] = (float)(x * y + z);
    }
}

// 4. Inclusive prefix scan of 256 ints per workgroup (Hillis-Steele in LDS).
__kernel void scan256(__global int *out, __global const int *in)
{
    __local int tmp[256];
    unsigned l = __builtin_amdgcn_workitem_id_x();
    unsigned g = __builtin_amdgcn_workgroup_id_x();
    tmp[l] = in[g * 256 + l];
    WG_BARRIER();
    for (unsigned s = 1; s < 256; s <<= 1) {
        int v = l >= s ? tmp[l - s] : 0;
        WG_BARRIER();
        tmp[l] += v;
        WG_BARRIER();
    }
    out[g * 256 + l] = tmp[l];
}

// 5. Transpose of an n x n float matrix (n a multiple of 16) through a 16x16 LDS tile.
__kernel void transpose16(__global float *out, __global const float *in, unsigned n)
{
    __local float tile[16][17];
    unsigned tx = __builtin_amdgcn_workitem_id_x(), ty = __builtin_amdgcn_workitem_id_y();
    unsigned bx = __builtin_amdgcn_workgroup_id_x(), by = __builtin_amdgcn_workgroup_id_y();
    tile[ty][tx] = in[(by * 16 + ty) * n + bx * 16 + tx];
    WG_BARRIER();
    out[(bx * 16 + ty) * n + by * 16 + tx] = tile[tx][ty];
}

// 6. C = A * B for n x n ints, one work-item per element, 16x16 blocks.
__kernel void matmul_i32(__global int *c, __global const int *a, __global const int *b, unsigned n)
{
    unsigned col = __builtin_amdgcn_workgroup_id_x() * 16 + __builtin_amdgcn_workitem_id_x();
    unsigned row = __builtin_amdgcn_workgroup_id_y() * 16 + __builtin_amdgcn_workitem_id_y();
    if (row < n && col < n) {
        int s = 0;
        for (unsigned k = 0; k < n; k++)
            s += a[row * n + k] * b[k * n + col];
        c[row * n + col] = s;
    }
}

// 7. 3D grid with 4x4x4 blocks: out[(z*Y + y)*X + x] = x + 100*y + 10000*z.
__kernel void grid3d(__global int *out, unsigned X, unsigned Y)
{
    unsigned x = __builtin_amdgcn_workgroup_id_x() * 4 + __builtin_amdgcn_workitem_id_x();
    unsigned y = __builtin_amdgcn_workgroup_id_y() * 4 + __builtin_amdgcn_workitem_id_y();
    unsigned z = __builtin_amdgcn_workgroup_id_z() * 4 + __builtin_amdgcn_workitem_id_z();
    out[(z * Y + y) * X + x] = (int)(x + 100 * y + 10000 * z);
}

// 8. More than 64 KiB of LDS (80000 bytes): gfx950 has 160 KiB.  clang-22 refuses to compile it
//    for gfx942 ("local memory (80000) exceeds limit (65536)"), so it exists only for gfx950.
#ifdef __gfx950__
__kernel void big_lds(__global unsigned *out, __global const unsigned *in)
{
    __local unsigned big[20000];
    unsigned l = __builtin_amdgcn_workitem_id_x();
    for (unsigned i = l; i < 20000; i += 256)
        big[i] = in[i];
    WG_BARRIER();
    for (unsigned i = l; i < 20000; i += 256)
        out[i] = big[19999 - i];
}
#endif

// 9. Integer bit tricks.
__kernel void bit_tricks(__global unsigned *out, __global const unsigned *a,
                         __global const unsigned *r, unsigned n)
{
    unsigned i = GID();
    if (i < n) {
        unsigned x = a[i], k = r[i] & 31;
        out[4 * i + 0] = (unsigned)__builtin_popcount(x);
        out[4 * i + 1] = x != 0 ? (unsigned)__builtin_clz(x) : 32u;
        out[4 * i + 2] = (x >> 24) | ((x >> 8) & 0xff00u) | ((x << 8) & 0xff0000u) | (x << 24);
        out[4 * i + 3] = (x << k) | (x >> ((32 - k) & 31));
    }
}
