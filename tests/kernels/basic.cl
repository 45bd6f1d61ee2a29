// Test kernels for the execution engine: OpenCL C compiled by clang-22 without device
// libraries, so work-item ids come from clang builtins.  Each kernel has a C reference in
// tests/kernels/ and is run at -O0 and -O3.

#define LID() __builtin_amdgcn_workitem_id_x()
#define GID() (__builtin_amdgcn_workgroup_id_x() * 64u + __builtin_amdgcn_workitem_id_x())

__kernel void vecadd_f32(__global float *out, __global const float *a, __global const float *b,
                         unsigned n)
{
    unsigned i = GID();
    if (i < n)
        out[i] = a[i] + b[i];
}

__kernel void saxpy(__global float *out, float s, __global const float *x,
                    __global const float *y, unsigned n)
{
    unsigned i = GID();
    if (i < n)
        out[i] = __builtin_fmaf(s, x[i], y[i]);
}

__kernel void int_ops(__global int *out, __global const int *a, __global const int *b, unsigned n)
{
    unsigned i = GID();
    if (i < n) {
        int x = a[i], y = b[i];
        out[4 * i + 0] = x * y + (x >> 3);
        out[4 * i + 1] = y != 0 ? x / y : -1;
        out[4 * i + 2] = y != 0 ? x % y : -1;
        out[4 * i + 3] = (int)((unsigned)x >> (y & 31)) ^ (x << 5);
    }
}

__kernel void i64_ops(__global long *out, __global const long *a, __global const long *b,
                      unsigned n)
{
    unsigned i = GID();
    if (i < n) {
        long x = a[i], y = b[i];
        out[3 * i + 0] = x * y;
        out[3 * i + 1] = y != 0 ? x / y : 0;
        out[3 * i + 2] = y != 0 ? (long)((unsigned long)x % (unsigned long)y) : 0;
    }
}

__kernel void collatz(__global unsigned *steps, unsigned n)
{
    unsigned i = GID();
    if (i >= n)
        return;
    unsigned v = i + 1, s = 0;
    while (v != 1) {
        v = (v & 1) ? 3 * v + 1 : v / 2;
        s++;
    }
    steps[i] = s;
}

// Sum of 256 values per workgroup through LDS with barriers.
__kernel void lds_reduce(__global float *out, __global const float *in)
{
    __local float tmp[256];
    unsigned l = __builtin_amdgcn_workitem_id_x();
    unsigned g = __builtin_amdgcn_workgroup_id_x();
    tmp[l] = in[g * 256 + l];
    __builtin_amdgcn_s_barrier();
    for (unsigned s = 128; s > 0; s >>= 1) {
        if (l < s)
            tmp[l] += tmp[l + s];
        __builtin_amdgcn_fence(__ATOMIC_RELEASE, "workgroup");
        __builtin_amdgcn_s_barrier();
        __builtin_amdgcn_fence(__ATOMIC_ACQUIRE, "workgroup");
    }
    if (l == 0)
        out[g] = tmp[0];
}

// Private array with a dynamic index: scratch at -O0, VGPR indexing at -O3.
__kernel void private_array(__global int *out, __global const int *idx, unsigned n)
{
    unsigned i = GID();
    if (i >= n)
        return;
    int arr[16];
    for (int k = 0; k < 16; k++)
        arr[k] = (int)i * 16 + k * k;
    out[i] = arr[idx[i] & 15] + arr[(idx[i] >> 4) & 15];
}

__kernel void atomic_count(__global unsigned *counter, __global const unsigned *vals, unsigned n)
{
    unsigned i = GID();
    if (i < n)
        __atomic_fetch_add(&counter[vals[i] & 7], 1u, __ATOMIC_RELAXED);
}
