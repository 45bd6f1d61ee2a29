/* swmmac.cl - clang-22's RDNA4 sparse WMMA builtins (tests/kernels/test_swmmac_kernels.c): one
 * wave, each lane loads its own A, B, C registers and its index VGPR as the host laid them out
 * (buffers indexed [lane][register]) and stores D the same way; the host's separate reference
 * (tests/exec/wmma_ref.h) computes D from the same register images.  gfx1201 only (clang-22
 * defines __gfx1201__ there); GFXEMU_WAVE64 comes with -mwavefrontsize64. */
#pragma OPENCL EXTENSION cl_khr_fp16 : enable
typedef half v4h __attribute__((ext_vector_type(4)));
typedef half v8h __attribute__((ext_vector_type(8)));
typedef half v16h __attribute__((ext_vector_type(16)));
typedef float v4f __attribute__((ext_vector_type(4)));
typedef float v8f __attribute__((ext_vector_type(8)));
typedef int v2i __attribute__((ext_vector_type(2)));
typedef int v4i __attribute__((ext_vector_type(4)));
typedef int v8i __attribute__((ext_vector_type(8)));

#if defined(__gfx1201__)
#ifdef GFXEMU_WAVE64
__kernel void sp_f16(__global const v4h *a, __global const v8h *b, __global v4f *c,
                     __global const int *idx)
{
    int l = __builtin_amdgcn_workitem_id_x();
    c[l] = __builtin_amdgcn_swmmac_f32_16x16x32_f16_w64(a[l], b[l], c[l], idx[l]);
}
__kernel void sp_iu8(__global const int *a, __global const v2i *b, __global v4i *c,
                     __global const int *idx)
{
    int l = __builtin_amdgcn_workitem_id_x();
    c[l] = __builtin_amdgcn_swmmac_i32_16x16x32_iu8_w64(true, a[l], false, b[l], c[l], idx[l],
                                                         false);
}
#else
__kernel void sp_f16(__global const v8h *a, __global const v16h *b, __global v8f *c,
                     __global const int *idx)
{
    int l = __builtin_amdgcn_workitem_id_x();
    c[l] = __builtin_amdgcn_swmmac_f32_16x16x32_f16_w32(a[l], b[l], c[l], idx[l]);
}
__kernel void sp_iu8(__global const v2i *a, __global const v4i *b, __global v8i *c,
                     __global const int *idx)
{
    int l = __builtin_amdgcn_workitem_id_x();
    c[l] = __builtin_amdgcn_swmmac_i32_16x16x32_iu8_w32(true, a[l], false, b[l], c[l], idx[l],
                                                         false);
}
#endif
#else
__kernel void sp_none(__global int *x) { x[0] = 0; } /* gfx1100 has no SWMMAC */
#endif
