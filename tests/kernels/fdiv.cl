// Correctly rounded f32 and f64 division (tests/kernels/test_fdiv.c): compiled with
// -cl-fp32-correctly-rounded-divide-sqrt, so both quotients are clang's v_div_scale, v_rcp, FMA
// chain, v_div_fmas, v_div_fixup expansion.

#define GID() (__builtin_amdgcn_workgroup_id_x() * 64u + __builtin_amdgcn_workitem_id_x())

__kernel void fdiv_f32(__global float *out, __global const float *a, __global const float *b,
                       unsigned n)
{
    unsigned i = GID();
    if (i < n)
        out[i] = a[i] / b[i];
}

__kernel void fdiv_f64(__global double *out, __global const double *a, __global const double *b,
                       unsigned n)
{
    unsigned i = GID();
    if (i < n)
        out[i] = a[i] / b[i];
}
