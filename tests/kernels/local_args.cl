// __local pointer arguments of several sizes and pointee alignments with static LDS present
// (tests/kernels/test_local_args.c): the launch places each after the static LDS.
__kernel void locals(__global int *out, __local int *a, __local short *b, __local double *c,
                     int n) {
    __local int st[5];
    int i = __builtin_amdgcn_workitem_id_x();
    if (i < 5)
        st[i] = 100 + i;
    a[i] = i;
    b[i] = (short)(2 * i);
    c[i] = 3.0 * i;
    __builtin_amdgcn_s_barrier();
    int j = 63 - i;
    out[i] = a[j] + b[j] + (int)c[j] + st[i % 5] + n;
    if (i == 0) {
        out[64] = (int)(size_t)a; // the LDS addresses the launch chose
        out[65] = (int)(size_t)b;
        out[66] = (int)(size_t)c;
    }
}
