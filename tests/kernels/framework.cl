// Framework-style kernels (tests/kernels/test_framework.c): what an ML framework's CI compiles
// for gfx950, gfx1100 and gfx1201 - softmax and layernorm over rows with LDS reductions, an
// LDS-tiled matmul, elementwise char/half math, 64-bit integer math, integer and float atomics.
// Clang builtins stand in for the device library's math (no ROCm device libraries here).

#pragma OPENCL EXTENSION cl_khr_fp16 : enable
#pragma OPENCL EXTENSION cl_khr_fp64 : enable

#define LID __builtin_amdgcn_workitem_id_x()
#define WG __builtin_amdgcn_workgroup_id_x()
#include "../common/cl_barrier.h"

// One row of n floats per workgroup of 256: max, sum of exp(x - max), then the quotients.
__kernel void softmax(__global float *o, __global const float *a, unsigned n) {
    __local float s[256];
    unsigned t = LID;
    __global const float *row = a + WG * n;
    float m = -__builtin_inff();
    for (unsigned i = t; i < n; i += 256)
        m = __builtin_elementwise_max(m, row[i]);
    s[t] = m;
    WG_BARRIER();
    for (unsigned k = 128; k > 0; k >>= 1) {
        if (t < k)
            s[t] = __builtin_elementwise_max(s[t], s[t + k]);
        WG_BARRIER();
    }
    m = s[0];
    WG_BARRIER();
    float sum = 0;
    for (unsigned i = t; i < n; i += 256)
        sum += __builtin_elementwise_exp(row[i] - m);
    s[t] = sum;
    WG_BARRIER();
    for (unsigned k = 128; k > 0; k >>= 1) {
        if (t < k)
            s[t] += s[t + k];
        WG_BARRIER();
    }
    sum = s[0];
    for (unsigned i = t; i < n; i += 256)
        o[WG * n + i] = __builtin_elementwise_exp(row[i] - m) / sum;
}

// (x - mean) / sqrt(var + eps) * g + b over rows of n, one workgroup of 64 per row.
__kernel void layernorm(__global float *o, __global const float *a, __global const float *g,
                        __global const float *b, unsigned n) {
    __local float s[64], q[64];
    unsigned t = LID;
    __global const float *row = a + WG * n;
    float sum = 0, sq = 0;
    for (unsigned i = t; i < n; i += 64) {
        sum += row[i];
        sq += row[i] * row[i];
    }
    s[t] = sum;
    q[t] = sq;
    WG_BARRIER();
    for (unsigned k = 32; k > 0; k >>= 1) {
        if (t < k) {
            s[t] += s[t + k];
            q[t] += q[t + k];
        }
        WG_BARRIER();
    }
    float mean = s[0] / n, var = q[0] / n - mean * mean;
    float r = 1.0f / __builtin_elementwise_sqrt(var + 1e-5f);
    for (unsigned i = t; i < n; i += 64)
        o[WG * n + i] = (row[i] - mean) * r * g[i] + b[i];
}

// C = A * B (n x n, n a multiple of 16), 16x16 tiles through LDS, a 16x16 workgroup per tile.
__kernel void matmul(__global float *c, __global const float *a, __global const float *b,
                     unsigned n) {
    __local float ta[16][17], tb[16][17];
    unsigned tx = __builtin_amdgcn_workitem_id_x(), ty = __builtin_amdgcn_workitem_id_y();
    unsigned bx = __builtin_amdgcn_workgroup_id_x(), by = __builtin_amdgcn_workgroup_id_y();
    float acc = 0;
    for (unsigned k0 = 0; k0 < n; k0 += 16) {
        ta[ty][tx] = a[(by * 16 + ty) * n + k0 + tx];
        tb[ty][tx] = b[(k0 + ty) * n + bx * 16 + tx];
        WG_BARRIER();
        for (unsigned k = 0; k < 16; k++)
            acc += ta[ty][k] * tb[k][tx];
        WG_BARRIER();
    }
    c[(by * 16 + ty) * n + bx * 16 + tx] = acc;
}

// char and half elementwise math.
__kernel void ew_char(__global char *o, __global const char *a, __global const uchar *b) {
    unsigned i = WG * 64 + LID;
    char x = a[i];
    uchar y = b[i];
    char yc = (char)y;
    o[i] = (char)((x > yc ? x : yc) + (x < 3 ? x : (char)3) * yc + (x >> 1) + (y & 7));
}
__kernel void ew_half(__global half *o, __global const half *a, __global const half *b) {
    unsigned i = WG * 64 + LID;
    half x = a[i], y = b[i];
    o[2 * i] = __builtin_elementwise_max(x, y) * (half)0.5f + __builtin_elementwise_abs(y);
    o[2 * i + 1] = __builtin_elementwise_sqrt(__builtin_elementwise_abs(x)) - y;
}

// 64-bit integer math.
__kernel void i64_math(__global long *o, __global const long *a) {
    unsigned i = WG * 64 + LID;
    long x = a[i];
    o[2 * i] = x * 3 + (x >> 3) + (x < 5 ? 5 : x) + (x ^ 0x123456789L);
    o[2 * i + 1] = (long)((ulong)x / 1000003u) + x % 77;
}

// Integer and float atomics on a few global counters (results independent of the order).
__kernel void atomics(__global int *ai, __global unsigned *au, __global float *af,
                      __global long *al, __global double *ad) {
    unsigned i = WG * 64 + LID;
    __atomic_fetch_add(ai, 1, __ATOMIC_RELAXED);
    __atomic_fetch_max(ai + 1, (int)i, __ATOMIC_RELAXED);
    __atomic_fetch_min(au, i + 5, __ATOMIC_RELAXED);
    __atomic_fetch_add(af, 1.0f, __ATOMIC_RELAXED);
    __atomic_fetch_max(af + 1, (float)i, __ATOMIC_RELAXED);
    __atomic_fetch_min(af + 2, -(float)i, __ATOMIC_RELAXED);
    __atomic_fetch_add(al, (long)i, __ATOMIC_RELAXED);
    __atomic_fetch_add(ad, 0.5, __ATOMIC_RELAXED);
}
