// Kernels of kfd_driver.c (test_kfd.sh): clang-22 for gfx950 without device libraries.
__kernel void fill(__global unsigned *out) {
    unsigned i = __builtin_amdgcn_workgroup_id_x() * 64 + __builtin_amdgcn_workitem_id_x();
    out[i] = 3 * i + 7;
}
// A store 64 MiB past the buffer: no buffer object is there.
__kernel void fill_bad(__global unsigned *out) {
    out[(64u << 20) / 4 + __builtin_amdgcn_workitem_id_x()] = 1;
}
