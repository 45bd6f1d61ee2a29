/* Kernels for the debugger tests (tests/debug/test_*.sh).  Values are chosen so that each
 * lane's results are easy to derive by hand. */

/* out[i] = a * x[i] + y[i] with x[i] = i and y[i] = 1000 + i (the test's input files). */
__kernel void axpy(__global int *out, __global const int *x, __global const int *y, int a) {
    unsigned i = __builtin_amdgcn_workgroup_id_x() * 64 + __builtin_amdgcn_workitem_id_x();
    out[i] = a * x[i] + y[i];
}

/* Two waves exchange values through LDS across a barrier: out[t] = 3 * (127 - t) + 1. */
__kernel void swap(__global int *out) {
    __local int lds[128];
    unsigned t = __builtin_amdgcn_workitem_id_x();
    lds[t] = 3 * t + 1;
    __builtin_amdgcn_s_barrier();
    out[t] = lds[127 - t];
}

/* Every lane stores, 64 MiB apart: lane 0 inside the buffer, lanes 1..63 far outside every
 * buffer (just past a buffer's end would be its page's padding, which hardware lets through). */
__kernel void store_all(__global int *out) {
    out[(ulong)__builtin_amdgcn_workitem_id_x() << 24] = 7;
}

__kernel void trap(__global int *out) {
    out[0] = 1;
    __builtin_trap();
}

__kernel void spin(__global int *out, int n) {
    while (n != 12345)
        n = n * 3 + 1;
    out[0] = n;
}

__kernel void illegal(__global int *out) {
    out[0] = 1;
    __asm__ volatile(".long 0xf4080500");
}

__kernel void unimplemented(__global int *out) {
    out[0] = 1;
    /* s_rfe_restore_b64 (return from a trap handler) is not implemented: a valid instruction
     * that must fault by name */
    __asm__ volatile("s_rfe_restore_b64 s[0:1], s2");
}

/* Only wave 1 of workgroup 1 stores, at out[i]: the fault report must name that wave. */
__kernel void store_at(__global int *out, int i) {
    if (__builtin_amdgcn_workgroup_id_x() == 1 && __builtin_amdgcn_workitem_id_x() >= 64)
        out[i] = 1;
}

/* Never ends (the debugger's Ctrl-C test). */
__kernel void forever(__global int *out) {
    for (int n = 0;; n++)
        out[0] = n;
}
