// Kernels for issue 16's figures that bench.cl does not cover (bench/b_tier2.c).
#pragma OPENCL EXTENSION cl_khr_fp16 : enable

typedef half half4 __attribute__((ext_vector_type(4)));
typedef float float16 __attribute__((ext_vector_type(16)));

// A chain of v_mfma_f32_32x32x8_f16 on registers, one wave per workgroup.  Lane l holds row
// l % 32 of A and column l % 32 of B for k = 4 * (l / 32) .. +3; A[i][k] = (i + k) % 3 and
// B[k][j] = (k + 2j) % 2 keep every sum an exact small integer in f32.
__kernel void mfma_chain(__global float *out, unsigned n)
{
    unsigned l = __builtin_amdgcn_workitem_id_x(), i = l % 32u, k0 = 4u * (l / 32u);
    half4 a, b;
    a.x = (half)((i + k0 + 0u) % 3u);
    a.y = (half)((i + k0 + 1u) % 3u);
    a.z = (half)((i + k0 + 2u) % 3u);
    a.w = (half)((i + k0 + 3u) % 3u);
    b.x = (half)((k0 + 0u + 2u * i) % 2u);
    b.y = (half)((k0 + 1u + 2u * i) % 2u);
    b.z = (half)((k0 + 2u + 2u * i) % 2u);
    b.w = (half)((k0 + 3u + 2u * i) % 2u);
    float16 acc = 0.0f;
    // n is a multiple of 8: 8 MFMAs per loop iteration (clang does not unroll this loop)
    for (unsigned it = 0; it < n; it += 8) {
        acc = __builtin_amdgcn_mfma_f32_32x32x8f16(a, b, acc, 0, 0, 0);
        acc = __builtin_amdgcn_mfma_f32_32x32x8f16(a, b, acc, 0, 0, 0);
        acc = __builtin_amdgcn_mfma_f32_32x32x8f16(a, b, acc, 0, 0, 0);
        acc = __builtin_amdgcn_mfma_f32_32x32x8f16(a, b, acc, 0, 0, 0);
        acc = __builtin_amdgcn_mfma_f32_32x32x8f16(a, b, acc, 0, 0, 0);
        acc = __builtin_amdgcn_mfma_f32_32x32x8f16(a, b, acc, 0, 0, 0);
        acc = __builtin_amdgcn_mfma_f32_32x32x8f16(a, b, acc, 0, 0, 0);
        acc = __builtin_amdgcn_mfma_f32_32x32x8f16(a, b, acc, 0, 0, 0);
    }
    __global float *o = out + (__builtin_amdgcn_workgroup_id_x() * 64u + l) * 16u;
    o[0] = acc.s0; o[1] = acc.s1; o[2] = acc.s2; o[3] = acc.s3;
    o[4] = acc.s4; o[5] = acc.s5; o[6] = acc.s6; o[7] = acc.s7;
    o[8] = acc.s8; o[9] = acc.s9; o[10] = acc.sa; o[11] = acc.sb;
    o[12] = acc.sc; o[13] = acc.sd; o[14] = acc.se; o[15] = acc.sf;
}

// Built at -O0 by b_tier2.c: every variable lives in scratch, the private array is indexed
// dynamically, and the body is a call (clang-22 -O0's shape for a kernel).
__kernel void o0_loop(__global unsigned *out, unsigned n)
{
    unsigned g = __builtin_amdgcn_workgroup_id_x() * 256u + __builtin_amdgcn_workitem_id_x();
    unsigned t[8];
    for (unsigned k = 0; k < 8u; k++)
        t[k] = g * k + 1u;
    unsigned acc = g;
    for (unsigned it = 0; it < n; it++) {
        acc = acc * 1664525u + t[it & 7u];
        t[(acc >> 5) & 7u] ^= acc;
    }
    out[g] = acc;
}
