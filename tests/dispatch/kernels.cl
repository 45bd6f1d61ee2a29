// Kernels for tests/dispatch/test_meta.c (compiled with clang-22 at test time).
// mixed: pointer/int/float/double/long/char arguments; hidden: uses the implicit (hidden)
// arguments; lds3d: static LDS, 3-D work-item ids, a barrier; priv: a private array (scratch)
// and the workgroup id in y only.
__kernel void mixed(__global float *out, int n, float s, double d, __global const int *in,
                    long l, char c) {
    int i = __builtin_amdgcn_workitem_id_x();
    out[i] = s * in[i] + (float)d + n + l + c;
}

__kernel void hidden(__global unsigned *out, int n) {
    __constant unsigned *ia = (__constant unsigned *)__builtin_amdgcn_implicitarg_ptr();
    out[__builtin_amdgcn_workitem_id_x()] = ia[n];
}

__kernel void lds3d(__global float *x) {
    __local float t[512];
    int i = __builtin_amdgcn_workitem_id_x() + 8 * __builtin_amdgcn_workitem_id_y() +
            32 * __builtin_amdgcn_workitem_id_z();
    t[i] = x[i];
    __builtin_amdgcn_s_barrier();
    x[i] = t[511 - i] + __builtin_amdgcn_workgroup_id_y() + __builtin_amdgcn_workgroup_id_z();
}

__kernel void priv(__global int *out, int k) {
    volatile int a[48];
    for (int j = 0; j < 48; j++)
        a[j] = j * k;
    out[__builtin_amdgcn_workitem_id_x() + __builtin_amdgcn_workgroup_id_y()] = a[k & 31];
}
