// Kernels for tests/tools/test_info.py: each pins one resource so that it alone limits the
// occupancy `gfxemu info` reports (clobbers make clang-22 count the named registers as used).
__kernel void vgpr_k(__global float *out) {
    __asm__ volatile("" ::: "v100"); // v0..v100: 101 VGPRs
    out[__builtin_amdgcn_workitem_id_x()] = 1.0f;
}
__kernel __attribute__((reqd_work_group_size(64, 1, 1))) void agpr_k(__global float *out) {
    __asm__ volatile("" ::: "v20", "a40"); // 21 ArchVGPRs (ACCUM_OFFSET 24) + 41 AGPRs
    out[__builtin_amdgcn_workitem_id_x()] = 1.0f;
}
__kernel __attribute__((reqd_work_group_size(64, 1, 1))) void sgpr_k(__global float *out) {
    __asm__ volatile("" ::: "s100"); // s0..s100 + VCC and the other extras: > 100 SGPRs
    out[__builtin_amdgcn_workitem_id_x()] = 1.0f;
}
__kernel __attribute__((reqd_work_group_size(128, 1, 1))) void lds_k(__global float *out, int n,
                                                                      __global const int *idx) {
    __local float t[10000]; // 40000 bytes of LDS
    int l = __builtin_amdgcn_workitem_id_x();
    t[idx[l]] = l;
    __builtin_amdgcn_s_barrier();
    out[l] = t[idx[l + 128]] * n;
}
