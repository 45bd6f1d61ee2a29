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
