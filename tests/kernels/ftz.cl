// f32 arithmetic with denormals flushed (tests/kernels/test_ftz.c): compiled with
// -cl-denorms-are-zero, so the kernel descriptor sets FLOAT_DENORM_MODE_32 = 0 (f32 denormal
// inputs and results flushed to zero; f16/f64 keep theirs), and with
// -cl-fp32-correctly-rounded-divide-sqrt, whose division and sqrt expansions switch the f32
// denormal mode on around their scaled steps (s_denorm_mode / s_setreg) and back off.

#define GID() (__builtin_amdgcn_workgroup_id_x() * 64u + __builtin_amdgcn_workitem_id_x())

// 1. add, mul, fma, min, max.
__kernel void ftz_arith(__global float *out, __global const float *a, __global const float *b,
                        __global const float *c, unsigned n)
{
    unsigned i = GID();
    if (i < n) {
        float x = a[i], y = b[i], z = c[i];
        out[5 * i + 0] = x + y;
        out[5 * i + 1] = x * y;
        out[5 * i + 2] = __builtin_fmaf(x, y, z);
        out[5 * i + 3] = __builtin_fminf(x, y);
        out[5 * i + 4] = __builtin_fmaxf(x, y);
    }
}

// 2. Correctly rounded division and sqrt under FTZ.
__kernel void ftz_div_sqrt(__global float *out, __global const float *a, __global const float *b,
                           unsigned n)
{
    unsigned i = GID();
    if (i < n) {
        out[3 * i + 0] = a[i] / b[i];
        out[3 * i + 1] = __builtin_sqrtf(a[i]);
        out[3 * i + 2] = a[i] * b[i]; // after the mode switches: flushing is back on
    }
}
