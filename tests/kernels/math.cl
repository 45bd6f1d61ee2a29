// Floating-point math kernels (tests/kernels/test_math.c): the transcendental unit through clang
// builtins (no device libraries), rounding and exponent ops, f64 and f16 variants, packed half2.
// Each kernel reads its inputs from arrays and writes K results per element: out[K * i + k].

#pragma OPENCL EXTENSION cl_khr_fp64 : enable
#pragma OPENCL EXTENSION cl_khr_fp16 : enable

typedef half half2_t __attribute__((ext_vector_type(2)));

#define GID() (__builtin_amdgcn_workgroup_id_x() * 64u + __builtin_amdgcn_workitem_id_x())

// 1. v_exp_f32 / v_log_f32 directly, and the full-range llvm.exp2/llvm.log2 expansions (which
//    scale around the unit's denormal flushing).
__kernel void f32_exp2_log2(__global float *out, __global const float *a, __global const float *b,
                            unsigned n)
{
    unsigned i = GID();
    if (i < n) {
        float x = a[i], y = b[i];
        out[4 * i + 0] = __builtin_amdgcn_exp2f(x);
        out[4 * i + 1] = __builtin_amdgcn_logf(y);
        out[4 * i + 2] = __builtin_elementwise_exp2(x);
        out[4 * i + 3] = __builtin_elementwise_log2(y);
    }
}

// 2. v_rcp_f32, v_rsq_f32, v_sqrt_f32 directly; OpenCL's default (not correctly rounded) f32
//    division and sqrt.
__kernel void f32_rcp_rsq_sqrt(__global float *out, __global const float *a,
                               __global const float *b, unsigned n)
{
    unsigned i = GID();
    if (i < n) {
        float x = a[i], y = b[i];
        out[5 * i + 0] = __builtin_amdgcn_rcpf(x);
        out[5 * i + 1] = __builtin_amdgcn_rsqf(x);
        out[5 * i + 2] = __builtin_amdgcn_sqrtf(x);
        out[5 * i + 3] = y / x;
        out[5 * i + 4] = __builtin_sqrtf(y);
    }
}

// 3. v_sin_f32 / v_cos_f32: the argument is in revolutions.
__kernel void f32_sin_cos(__global float *out, __global const float *a, unsigned n)
{
    unsigned i = GID();
    if (i < n) {
        out[2 * i + 0] = __builtin_amdgcn_sinf(a[i]);
        out[2 * i + 1] = __builtin_amdgcn_cosf(a[i]);
    }
}

// 4. Rounding: floor, ceil, trunc, rint, fract, fabs, copysign (all exact).
__kernel void f32_round(__global float *out, __global const float *a, __global const float *b,
                        unsigned n)
{
    unsigned i = GID();
    if (i < n) {
        float x = a[i];
        out[7 * i + 0] = __builtin_elementwise_floor(x);
        out[7 * i + 1] = __builtin_elementwise_ceil(x);
        out[7 * i + 2] = __builtin_elementwise_trunc(x);
        out[7 * i + 3] = __builtin_elementwise_rint(x);
        out[7 * i + 4] = __builtin_amdgcn_fractf(x);
        out[7 * i + 5] = __builtin_fabsf(x);
        out[7 * i + 6] = __builtin_copysignf(x, b[i]);
    }
}

// 5. Exponent ops: ldexp, frexp mantissa and exponent.
__kernel void f32_ldexp_frexp(__global float *out, __global int *exps, __global const float *a,
                              __global const int *e, unsigned n)
{
    unsigned i = GID();
    if (i < n) {
        float x = a[i];
        out[2 * i + 0] = __builtin_amdgcn_ldexpf(x, e[i]);
        out[2 * i + 1] = __builtin_amdgcn_frexp_mantf(x);
        exps[i] = __builtin_amdgcn_frexp_expf(x);
    }
}

// 6. min, max, med3, clamp (fmin/fmax return the other operand for a quiet NaN).
__kernel void f32_minmax(__global float *out, __global const float *a, __global const float *b,
                         __global const float *c, unsigned n)
{
    unsigned i = GID();
    if (i < n) {
        float x = a[i], y = b[i], z = c[i];
        out[4 * i + 0] = __builtin_fminf(x, y);
        out[4 * i + 1] = __builtin_fmaxf(x, y);
        out[4 * i + 2] = __builtin_amdgcn_fmed3f(x, y, z);
        out[4 * i + 3] = __builtin_fminf(__builtin_fmaxf(x, -1.0f), 1.0f);
    }
}

// 7. f64 transcendental unit: v_rcp_f64, v_rsq_f64, v_sqrt_f64 without refinement.
__kernel void f64_rcp_rsq(__global double *out, __global const double *a, unsigned n)
{
    unsigned i = GID();
    if (i < n) {
        double x = a[i];
        out[3 * i + 0] = __builtin_amdgcn_rcp(x);
        out[3 * i + 1] = __builtin_amdgcn_rsq(x);
        out[3 * i + 2] = __builtin_amdgcn_sqrt(x);
    }
}

// 8. f64 rounding and exponent ops (all exact).
__kernel void f64_round(__global double *out, __global int *exps, __global const double *a,
                        __global const int *e, unsigned n)
{
    unsigned i = GID();
    if (i < n) {
        double x = a[i];
        out[7 * i + 0] = __builtin_elementwise_floor(x);
        out[7 * i + 1] = __builtin_elementwise_ceil(x);
        out[7 * i + 2] = __builtin_elementwise_trunc(x);
        out[7 * i + 3] = __builtin_elementwise_rint(x);
        out[7 * i + 4] = __builtin_amdgcn_fract(x);
        out[7 * i + 5] = __builtin_amdgcn_ldexp(x, e[i]);
        out[7 * i + 6] = __builtin_amdgcn_frexp_mant(x);
        exps[i] = __builtin_amdgcn_frexp_exp(x);
    }
}

// 9. f16 transcendental unit: rcp, sqrt, rsq, exp2, log2, sin, cos.
__kernel void f16_transcend(__global half *out, __global const half *a, __global const half *b,
                            unsigned n)
{
    unsigned i = GID();
    if (i < n) {
        half x = a[i], y = b[i];
        out[7 * i + 0] = __builtin_amdgcn_rcph(x);
        out[7 * i + 1] = __builtin_amdgcn_sqrth(x);
        out[7 * i + 2] = __builtin_amdgcn_rsqh(x);
        out[7 * i + 3] = __builtin_elementwise_exp2(y);
        out[7 * i + 4] = __builtin_elementwise_log2(x);
        out[7 * i + 5] = __builtin_amdgcn_sinh(y);
        out[7 * i + 6] = __builtin_amdgcn_cosh(y);
    }
}

// 10. Packed half2 arithmetic: v_pk_add/mul/fma/min/max_f16.
__kernel void f16x2_packed(__global half2_t *out, __global const half2_t *a,
                           __global const half2_t *b, __global const half2_t *c, unsigned n)
{
    unsigned i = GID();
    if (i < n) {
        half2_t x = a[i], y = b[i], z = c[i];
        out[5 * i + 0] = x + y;
        out[5 * i + 1] = x * y;
        out[5 * i + 2] = __builtin_elementwise_fma(x, y, z);
        out[5 * i + 3] = __builtin_elementwise_min(x, y);
        out[5 * i + 4] = __builtin_elementwise_max(x, y);
    }
}

// 11. Packed f32 (gfx940+): float2 arithmetic becomes v_pk_add/mul/fma_f32 at -O1/-O3.
typedef float float2_t __attribute__((ext_vector_type(2)));
__kernel void f32x2_packed(__global float2_t *out, __global const float2_t *a,
                           __global const float2_t *b, __global const float2_t *c, unsigned n)
{
    unsigned i = GID();
    if (i < n) {
        float2_t x = a[i], y = b[i], z = c[i];
        out[4 * i + 0] = x + y;
        out[4 * i + 1] = x * y;
        out[4 * i + 2] = __builtin_elementwise_fma(x, y, z);
        out[4 * i + 3] = x * y - z.yx; // may contract to an fma with a swizzled, negated operand
    }
}
