// Kernels of kfd_driver.c (test_kfd.sh): clang-22 for gfx950 without device libraries.
__kernel void fill(__global unsigned *out) {
    unsigned i = __builtin_amdgcn_workgroup_id_x() * 64 + __builtin_amdgcn_workitem_id_x();
    out[i] = 3 * i + 7;
}
// A store 64 MiB past the buffer: no buffer object is there.
__kernel void fill_bad(__global unsigned *out) {
    out[(64u << 20) / 4 + __builtin_amdgcn_workitem_id_x()] = 1;
}
// A PM4 dispatch (kfd_driver.c pm4): LDS (tmp, dynamic: only COMPUTE_PGM_RSRC2.LDS_SIZE gives
// it), a 2-D grid of 4 x N workgroups of 64, an argument.
// out[(wy * 4 + wx) * 64 + l] = (63 - l) * k + wx + 1000 * wy.
__kernel void pm4_fill(__global unsigned *out, unsigned k, __local unsigned *tmp) {
    unsigned l = __builtin_amdgcn_workitem_id_x();
    unsigned wx = __builtin_amdgcn_workgroup_id_x(), wy = __builtin_amdgcn_workgroup_id_y();
    tmp[l] = l * k + wx;
    __builtin_amdgcn_fence(__ATOMIC_RELEASE, "workgroup");
    __builtin_amdgcn_s_barrier();
    __builtin_amdgcn_fence(__ATOMIC_ACQUIRE, "workgroup");
    out[(wy * 4 + wx) * 64 + l] = tmp[63 - l] + 1000 * wy;
}
// Partial workgroups and COMPUTE_START (kfd_driver.c pm4): each work-item marks
// out[(wy * 8 + wx) * 64 + l] with its ids (workgroups of at most 64 work-items).
__kernel void pm4_ids(__global unsigned *out) {
    unsigned l = __builtin_amdgcn_workitem_id_x();
    unsigned wx = __builtin_amdgcn_workgroup_id_x(), wy = __builtin_amdgcn_workgroup_id_y();
    out[(wy * 8 + wx) * 64 + l] = 0x80000000u | wy << 16 | wx << 8 | l;
}
