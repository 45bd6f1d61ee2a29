/* dot.cl - clang-22's dot-product builtins on RDNA (tests/kernels/test_dot_kernels.c): one
 * work-item per element, each builtin's result stored for the C reference to check.  gfx1201
 * adds the fp8/bf8 dots (clang-22 defines __gfx1201__ there). */
#pragma OPENCL EXTENSION cl_khr_fp16 : enable
#define GID() (__builtin_amdgcn_workgroup_id_x() * 64u + __builtin_amdgcn_workitem_id_x())
typedef half half2_t __attribute__((ext_vector_type(2)));
typedef short short2_t __attribute__((ext_vector_type(2)));

/* of: 8 floats, oi: 4 ints, oh: 2 16-bit results per element */
__kernel void dots(__global float *of, __global int *oi, __global short *oh,
                   __global const half2_t *ha, __global const half2_t *hb,
                   __global const short2_t *ba, __global const short2_t *bb,
                   __global const float *c, __global const half *hc, __global const short *bc,
                   __global const int *ia, __global const int *ib, __global const int *ic,
                   __global const int *f8, __global const int *b8, unsigned n)
{
    unsigned i = GID();
    if (i >= n)
        return;
    of[8 * i + 0] = __builtin_amdgcn_fdot2(ha[i], hb[i], c[i], false);
    of[8 * i + 1] = __builtin_amdgcn_fdot2(ha[i], hb[i], -c[i], true);
    of[8 * i + 2] = __builtin_amdgcn_fdot2_f32_bf16(ba[i], bb[i], c[i], false);
#if defined(__gfx1201__)
    of[8 * i + 3] = __builtin_amdgcn_dot4_f32_fp8_fp8(f8[i], f8[n - 1 - i], c[i]);
    of[8 * i + 4] = __builtin_amdgcn_dot4_f32_fp8_bf8(f8[i], b8[i], c[i]);
    of[8 * i + 5] = __builtin_amdgcn_dot4_f32_bf8_fp8(b8[i], f8[i], c[i]);
    of[8 * i + 6] = __builtin_amdgcn_dot4_f32_bf8_bf8(b8[i], b8[n - 1 - i], c[i]);
#endif
    half r = __builtin_amdgcn_fdot2_f16_f16(ha[i], hb[i], hc[i]);
    oh[2 * i + 0] = as_short(r);
    oh[2 * i + 1] = __builtin_amdgcn_fdot2_bf16_bf16(ba[i], bb[i], bc[i]);
    oi[4 * i + 0] = __builtin_amdgcn_sudot4(true, ia[i], false, ib[i], ic[i], false);
    oi[4 * i + 1] = __builtin_amdgcn_sudot8(false, ia[i], true, ib[i], ic[i], true);
    oi[4 * i + 2] = (int)__builtin_amdgcn_udot4(ia[i], ib[i], ic[i], true);
    oi[4 * i + 3] = (int)__builtin_amdgcn_udot8(ia[i], ib[i], ic[i], false);
}
