// Third-party-style OpenCL C: no gfxemu- or AMD-specific code.  Built with
// `-nogpulib -include gfxemu/opencl.h` by tests/tools/test_opencl_h.py.

// Work-group sum reduction in local memory; one atomic per group counts the groups done.
__kernel void reduce_sum(__global const int *in, __global int *out, __global int *groups_done,
                         int n) {
    __local int scratch[256];
    size_t lid = get_local_id(0), gid = get_global_id(0);
    scratch[lid] = gid < (size_t)n ? in[gid] : 0;
    barrier(CLK_LOCAL_MEM_FENCE);
    for (size_t s = get_local_size(0) / 2; s > 0; s >>= 1) {
        if (lid < s)
            scratch[lid] += scratch[lid + s];
        barrier(CLK_LOCAL_MEM_FENCE);
    }
    if (lid == 0) {
        out[get_group_id(0)] = scratch[0];
        atomic_add(groups_done, 1);
    }
}

// 16-bin histogram: local atomics, then one global atomic per bin and group; grid-stride loop.
__kernel void histogram16(__global const uint *data, int n, __global uint *hist,
                          __global int *maxval, __global uint *owner) {
    __local uint h[16];
    size_t lid = get_local_id(0);
    if (lid < 16)
        h[lid] = 0;
    barrier(CLK_LOCAL_MEM_FENCE);
    for (size_t i = get_global_id(0); i < (size_t)n; i += get_global_size(0)) {
        uint v = data[i];
        atomic_inc(&h[v & 15]);
        atomic_max(maxval, (int)(v >> 4));
        if (v >> 4 >= 1000) // the first big value to get here claims `owner` (index + 1)
            atomic_cmpxchg(owner, 0u, (uint)i + 1);
    }
    barrier(CLK_LOCAL_MEM_FENCE);
    if (lid < 16)
        atomic_add(&hist[lid], h[lid]);
}

// Every work-item records what the work-item functions say, in 2D.
__kernel void ids2d(__global uint *out) {
    size_t i = get_global_linear_id();
    out[5 * i + 0] = (uint)(get_global_id(0) | get_global_id(1) << 16);
    out[5 * i + 1] = (uint)(get_local_id(0) | get_local_id(1) << 8 | get_group_id(0) << 16 |
                            get_group_id(1) << 24);
    out[5 * i + 2] = (uint)(get_local_size(0) | get_local_size(1) << 8 | get_num_groups(0) << 16 |
                            get_num_groups(1) << 24);
    out[5 * i + 3] = (uint)(get_global_size(0) | get_global_size(1) << 16);
    out[5 * i + 4] = (uint)(get_local_linear_id() | get_work_dim() << 16 | get_global_offset(0) << 24);
}
