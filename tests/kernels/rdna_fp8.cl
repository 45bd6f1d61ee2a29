/* rdna_fp8.cl - clang-22's fp8/bf8 conversion builtins on gfx1201 (RDNA4)
 * (tests/kernels/test_rdna_fp8_kernels.c): each work-item converts its own words and stores
 * every result.  gfx1201 only (the builtins need gfx12's fp8 conversion instructions);
 * gfx1100 gets a kernel with the same name that stores nothing. */
typedef float v2f __attribute__((ext_vector_type(2)));

__kernel void cvt(__global const uint *in, __global const float *f, __global float *o,
                  __global uint *p)
{
    uint i = __builtin_amdgcn_workitem_id_x() + __builtin_amdgcn_workgroup_id_x() * 64u;
#if defined(__gfx1201__)
    uint a = in[i];
    // fp8/bf8 -> f32: bytes 0 and 3 of fp8, 1 and 2 of bf8; the pairs of word 1 and word 0
    o[8 * i + 0] = __builtin_amdgcn_cvt_f32_fp8(a, 0);
    o[8 * i + 1] = __builtin_amdgcn_cvt_f32_fp8(a, 3);
    o[8 * i + 2] = __builtin_amdgcn_cvt_f32_bf8(a, 1);
    o[8 * i + 3] = __builtin_amdgcn_cvt_f32_bf8(a, 2);
    v2f x = __builtin_amdgcn_cvt_pk_f32_fp8(a, true);
    v2f y = __builtin_amdgcn_cvt_pk_f32_bf8(a, false);
    o[8 * i + 4] = x.x;
    o[8 * i + 5] = x.y;
    o[8 * i + 6] = y.x;
    o[8 * i + 7] = y.y;
    // f32 -> fp8 into word 0 of a, then bf8 (operands swapped) into word 1
    float u = f[2 * i], v = f[2 * i + 1];
    uint r = __builtin_amdgcn_cvt_pk_fp8_f32(u, v, a, false);
    p[2 * i] = __builtin_amdgcn_cvt_pk_bf8_f32(v, u, r, true);
    // stochastic: fp8(u) into byte 1 of a, then bf8(v) into byte 3, random words from a
    uint s = __builtin_amdgcn_cvt_sr_fp8_f32(u, a, a, 1);
    p[2 * i + 1] = __builtin_amdgcn_cvt_sr_bf8_f32(v, a ^ 0x9e3779b9u, s, 3);
#else
    (void)in, (void)f, (void)o, (void)p, (void)i;
#endif
}
