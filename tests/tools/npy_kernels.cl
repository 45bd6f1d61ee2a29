// Kernels for tests/tools/test_npy.py (built with -include gfxemu/opencl.h).
__kernel void scale2d(__global float *out, __global const float *in, __global const int *idx) {
    size_t x = get_global_id(0), y = get_global_id(1), w = get_global_size(0);
    out[y * w + x] = in[y * w + x] * 2.0f + idx[x];
}
__kernel void negate(__global int *x) { x[get_global_id(0)] = -x[get_global_id(0)]; }
#pragma OPENCL EXTENSION cl_khr_fp16 : enable
__kernel void halve(__global half *x) { x[get_global_id(0)] *= (half)0.5f; }
