/* Kernels for test_att.py (gfxemu run --att). */

/* A loop of n iterations per work-item: its body runs n times in every wave. */
__kernel void loop(__global float *out, __global const float *in, int n) {
    int gid = __builtin_amdgcn_workgroup_id_x() * 64 + __builtin_amdgcn_workitem_id_x();
    float acc = 0.0f;
    for (int i = 0; i < n; i++)
        acc += in[gid] * (float)i;
    out[gid] = acc;
}

/* Four waves that exchange values through LDS across a barrier. */
__kernel void exchange(__global int *out) {
    __local int s[256];
    int l = __builtin_amdgcn_workitem_id_x();
    s[l] = l * 3;
    __builtin_amdgcn_fence(__ATOMIC_RELEASE, "workgroup");
    __builtin_amdgcn_s_barrier();
    __builtin_amdgcn_fence(__ATOMIC_ACQUIRE, "workgroup");
    out[__builtin_amdgcn_workgroup_id_x() * 256 + l] = s[255 - l];
}
