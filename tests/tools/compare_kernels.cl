// Kernels for test_objdump_compare.sh: a spread of instruction families (SALU/VALU int and float,
// f16/f64, LDS, barriers, atomics, MFMA, private arrays with dynamic indices, loops, branches).
#pragma OPENCL EXTENSION cl_khr_fp16 : enable
#pragma OPENCL EXTENSION cl_khr_fp64 : enable

typedef float float4_t __attribute__((ext_vector_type(4)));

static inline int gid(void) {
    return __builtin_amdgcn_workgroup_id_x() * 256 + __builtin_amdgcn_workitem_id_x();
}

__kernel void saxpy(__global float *y, __global const float *x, float a, int n) {
    int i = gid();
    if (i < n)
        y[i] = __builtin_fmaf(a, x[i], y[i]);
}

__kernel void reduce_lds(__global const int *in, __global int *out) {
    __local int tmp[256];
    int t = __builtin_amdgcn_workitem_id_x();
    tmp[t] = in[gid()];
    __builtin_amdgcn_s_barrier();
    for (int s = 128; s > 0; s >>= 1) {
        if (t < s)
            tmp[t] += tmp[t + s];
        __builtin_amdgcn_s_barrier();
    }
    if (t == 0)
        __atomic_fetch_add(out, tmp[0], __ATOMIC_RELAXED);
}

__kernel void halfs(__global half *h, __global double *d, __global uint *u) {
    int i = gid();
    half x = h[i];
    h[i] = x * x + (half)1.5f;
    d[i] = __builtin_sqrt(d[i]) * 3.0;
    u[i] = (u[i] >> 3) ^ (u[i] << 5) | __builtin_popcount(u[i]);
}

__kernel void private_array(__global const int *idx, __global int *out) {
    int a[16];
    int i = gid();
    for (int k = 0; k < 16; k++)
        a[k] = idx[(i + k) & 255] * k;
    out[i] = a[idx[i] & 15] + a[(idx[i] + 3) & 15];
}

__kernel void mfma(__global const float *a, __global const float *b, __global float4_t *c) {
    int t = __builtin_amdgcn_workitem_id_x();
    float4_t acc = c[t];
    for (int k = 0; k < 4; k++)
        acc = __builtin_amdgcn_mfma_f32_16x16x4f32(a[t * 4 + k], b[t * 4 + k], acc, 0, 0, 0);
    c[t] = acc;
}
