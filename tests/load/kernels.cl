// Kernels for tests/load/test_elf.c: compiled with clang-22 at test time for gfx950 and gfx942.
// `reverse` uses 256 bytes of LDS so its descriptor has a known non-zero group segment size.
__kernel void vecadd(__global const float *a, __global const float *b, __global float *c, int n) {
    int i = __builtin_amdgcn_workgroup_id_x() * 64 + __builtin_amdgcn_workitem_id_x();
    if (i < n)
        c[i] = a[i] + b[i];
}

__kernel void reverse(__global float *x) {
    __local float tmp[64];
    int t = __builtin_amdgcn_workitem_id_x();
    tmp[t] = x[t];
    __builtin_amdgcn_s_barrier();
    x[t] = tmp[63 - t];
}
