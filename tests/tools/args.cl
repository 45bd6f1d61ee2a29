// Kernels for the argument-kind and argument-checking tests (tests/tools/test_args.sh,
// tests/python/test_args.py): every kind a caller passes, with static LDS present.
typedef struct {
    int a;
    char b; // 3 bytes of padding follow
    double c;
} params;

__kernel void kinds(__global int *out, int n, float x, __local float *tile, __local int *tile2,
                    params p, float4 v, __global const double *d) {
    __local int st[10];
    int i = __builtin_amdgcn_workitem_id_x();
    if (i < 10)
        st[i] = 7 * i;
    tile[i] = x * i;
    tile2[i] = n + i;
    __builtin_amdgcn_s_barrier();
    if (i == 0) {
        out[0] = n;
        out[1] = (int)tile[3];
        out[2] = p.a;
        out[3] = p.b;
        out[4] = (int)p.c;
        out[5] = (int)v.x;
        out[6] = (int)v.w;
        out[7] = (int)(size_t)tile; // the LDS addresses the dispatcher chose
        out[8] = (int)(size_t)tile2;
        out[9] = (int)d[0];
        out[10] = tile2[63];
        out[11] = st[3];
    }
}

// Writes p[off] for every work-item: off past the buffer faults at a known address.
__kernel void poke(__global int *p, int off) {
    p[off + __builtin_amdgcn_workitem_id_x()] = 1;
}

// Fills a buffer of n ints (grid-stride), then faults when bad != 0: a partial output.
__kernel void fill(__global int *p, int n, int bad) {
    int i = __builtin_amdgcn_workgroup_id_x() * 64 + __builtin_amdgcn_workitem_id_x();
    if (i < n)
        p[i] = i + 1;
    if (bad && i == 0)
        p[-100000] = 0;
}

// Sums an int array and a float array into out (typed pointers for the dtype checks).
__kernel void typed(__global float *out, __global const float *f, __global const int *k, int n) {
    int i = __builtin_amdgcn_workitem_id_x();
    if (i < n)
        out[i] = f[i] + (float)k[i];
}
