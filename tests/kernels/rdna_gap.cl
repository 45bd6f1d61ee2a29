// Kernels for the RDNA ops of tests/kernels/test_rdna_gap_kernels.c: clang-22's
// __builtin_amdgcn_ds_append / ds_consume, which compile to ds_append / ds_consume with M0
// holding the counter's LDS address (stream compaction inside a workgroup).
#include "../common/cl_barrier.h"

// Work-items with in[i] > 0 take a ticket from an LDS counter starting at 0 (ds_append); the
// others take one from a second counter starting at 1000 (ds_consume) and add 10000 to it.
// Each workgroup (64 work-items) writes its two final counters to total[2g], total[2g + 1].
__kernel void append(__global const int *in, __global int *tick, __global int *total)
{
    __local int cnt[2];
    uint i = __builtin_amdgcn_workitem_id_x(), g = __builtin_amdgcn_workgroup_id_x();
    uint gi = g * 64u + i;
    if (i == 0) {
        cnt[0] = 0;
        cnt[1] = 1000;
    }
    WG_BARRIER();
    int t;
    if (in[gi] > 0)
        t = __builtin_amdgcn_ds_append(&cnt[0]);
    else
        t = __builtin_amdgcn_ds_consume(&cnt[1]) + 10000;
    tick[gi] = t;
    WG_BARRIER();
    if (i == 0) {
        total[2 * g] = cnt[0];
        total[2 * g + 1] = cnt[1];
    }
}

// Atomic float min/max (tests/kernels/test_rdna_gap_kernels.c t_fminmax): clang-22 emits
// ds_min_num_f32 / ds_max_num_rtn_f32 / ds_min_num_f64 and global_atomic_min/max_num_f32 on
// gfx1201 (ds_min_f32 ... on gfx1100).  Every work-item folds in[gi] (ind[gi]) into its
// workgroup's LDS min/max, starting from init (a NaN on gfx1201: minimumNumber's identity),
// and into gout[0] (min) / gout[1] (max); old[gi] gets the LDS max before its update.
__kernel void fminmax(__global const float *in, __global const double *ind, float init,
                      double initd, __global float *gout, __global float *out,
                      __global double *outd, __global float *old)
{
    __local float lm[2];
    __local double ld[2];
    uint i = __builtin_amdgcn_workitem_id_x(), g = __builtin_amdgcn_workgroup_id_x();
    uint gi = g * 64u + i;
    if (i == 0) {
        lm[0] = lm[1] = init;
        ld[0] = ld[1] = initd;
    }
    WG_BARRIER();
    float v = in[gi];
    double d = ind[gi];
    __opencl_atomic_fetch_min((volatile __local atomic_float *)&lm[0], v, memory_order_relaxed,
                              memory_scope_work_group);
    old[gi] = __opencl_atomic_fetch_max((volatile __local atomic_float *)&lm[1], v,
                                        memory_order_relaxed, memory_scope_work_group);
    __opencl_atomic_fetch_min((volatile __local atomic_double *)&ld[0], d, memory_order_relaxed,
                              memory_scope_work_group);
    __opencl_atomic_fetch_max((volatile __local atomic_double *)&ld[1], d, memory_order_relaxed,
                              memory_scope_work_group);
    __opencl_atomic_fetch_min((volatile __global atomic_float *)&gout[0], v, memory_order_relaxed,
                              memory_scope_device);
    __opencl_atomic_fetch_max((volatile __global atomic_float *)&gout[1], v, memory_order_relaxed,
                              memory_scope_device);
    WG_BARRIER();
    if (i == 0) {
        out[2 * g] = lm[0];
        out[2 * g + 1] = lm[1];
        outd[2 * g] = ld[0];
        outd[2 * g + 1] = ld[1];
    }
}

// A DPP move folded into a 32-bit multiply-add (tests/kernels/test_rdna_gap_kernels.c
// t_dppmad): at -O1 and up clang-22 emits for gfx1201 a v_mad_co_u64_u32 whose src0 is a DPP16
// source (row_shr:1, quad_perm), a word llvm-objdump-22 cannot decode; gfx1100 keeps the
// v_mov_b32_dpp.  Lane l of a row of 16 reads lane l - 1 (0 for the row's first lane), and its
// quad neighbour l ^ 1; the signed form (v_mad_co_i64_i32) reads lane l + 1 (row_shl:1, 0 for the
// row's last lane).
__kernel void dppmad(__global uint *out, __global const uint *in, __global long *wide)
{
    uint l = __builtin_amdgcn_workitem_id_x();
    uint i = __builtin_amdgcn_workgroup_id_x() * 64u + l, v = in[i];
    uint sh = __builtin_amdgcn_update_dpp(0u, v, 0x111, 0xf, 0xf, false); /* row_shr:1 */
    uint qp = __builtin_amdgcn_update_dpp(0u, v, 0xb1, 0xf, 0xf, false);  /* quad_perm:[1,0,3,2] */
    out[2 * i] = sh * v + (v >> 3);
    out[2 * i + 1] = qp * (v | 1u) + l;
    int sl = (int)__builtin_amdgcn_update_dpp(0u, v ^ 0x80000000u, 0x101, 0xf, 0xf, false);
    wide[i] = (long)sl * (long)(int)v + (long)(int)(v << 7);
}
