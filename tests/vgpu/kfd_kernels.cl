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
// Queues that run at the same time (kfd_driver.c concurrent): every work-item waits until *flag
// is `want` (a packet on another queue writes it), then out[i] = want * 1000 + i.
__kernel void wait_flag(__global volatile unsigned *flag, unsigned want, __global unsigned *out) {
    unsigned i = __builtin_amdgcn_workgroup_id_x() * 64 + __builtin_amdgcn_workitem_id_x();
    while (*flag != want)
        __builtin_amdgcn_s_sleep(2);
    out[i] = *flag * 1000 + i;
}
// A kernel that sets the flag another queue's kernel waits for.
__kernel void set_flag(__global volatile unsigned *flag, unsigned v) {
    if (__builtin_amdgcn_workitem_id_x() == 0)
        *flag = v;
}
// Partial workgroups in one launch (kfd_driver.c partial): a 2-D grid of 100 x 3 work-items in
// workgroups of 64 x 2, so the last workgroup in x has 36 work-items and in y 1.  Each work-item
// writes its ids at its global position (rows of 128); workgroup (0,0) waits for the partial
// corner workgroup (1,1) to set a flag, which it can only do if both are resident at once.
__kernel void edge_ids(__global unsigned *out, __global volatile unsigned *flag) {
    unsigned lx = __builtin_amdgcn_workitem_id_x(), ly = __builtin_amdgcn_workitem_id_y();
    unsigned wx = __builtin_amdgcn_workgroup_id_x(), wy = __builtin_amdgcn_workgroup_id_y();
    out[(wy * 2 + ly) * 128 + wx * 64 + lx] = 0x80000000u | wy << 24 | wx << 16 | ly << 8 | lx;
    if (wx == 1 && wy == 1 && lx == 0 && ly == 0)
        *flag = 1;
    if (wx == 0 && wy == 0)
        while (*flag == 0)
            __builtin_amdgcn_s_sleep(1);
}
