// vecadd.cl - the demo kernel: c[i] = a[i] + b[i] for i < n.
// OpenCL's get_global_id() lives in the ROCm device libraries; clang's builtins need none.
// `make demo` compiles it for gfx950, runs it on gfxemu and checks every element.
__kernel void vecadd(__global const float *a, __global const float *b, __global float *c, int n) {
    int i = __builtin_amdgcn_workgroup_id_x() * 64 + __builtin_amdgcn_workitem_id_x();
    if (i < n)
        c[i] = a[i] + b[i];
}
