// Kernels for tests/kernels/test_pair.c: the cases where two wave32 waves run as one 64-lane wave
// (src/exec/pair.c) must give what the two waves give one after the other.  Built for gfx1100
// and gfx1201 (wave32 and wave64) by the test.

#include "../common/cl_barrier.h"

#define LID() __builtin_amdgcn_workitem_id_x()
#define GID() (__builtin_amdgcn_workgroup_id_x() * __builtin_amdgcn_workgroup_size_x() + LID())

// 1. Uniform code: float and integer math, 64-bit indexing with a large signed offset (the
//    SGPR carry of v_add_co_u32 / v_add_co_ci_u32 pairs), compare-and-select, a 64-bit add.
__kernel void uniform_mix(__global float *out, __global const float *in, __global ulong *wide,
                          long off, uint n) {
    uint i = GID();
    __global const float *p = in + off;
    float x = p[i - off + off - off];
    float y = x * 1.5f + (float)i;
    for (uint k = 0; k < n; k++)
        y = y > 100.0f ? y * 0.5f : __builtin_fmaf(y, 1.25f, x);
    out[i] = y;
    wide[i] = (ulong)as_uint(y) * 0x9e3779b97f4a7c15ul + ((ulong)i << 33);
}

// 2. Lane-divergent branches (the same in both waves), and wave-divergent ones: lanes 32-63 of a
//    64-item workgroup are the second wave, whose EXEC differs from the first's.
__kernel void divergent(__global uint *out, uint n, __global uint *sparse) {
    uint i = GID(), l = LID(), v = i * 2654435761u;
    if (l % 3u == 0u) /* a store under a partial EXEC in every wave */
        sparse[i] = v ^ n;
    if (l & 1)
        v ^= v >> 7;
    else
        v += 12345u;
    if (l >= 32) {
        for (uint k = 0; k < n; k++)
            v = v * 1664525u + 1013904223u;
    } else if (l < 7) {
        v = ~v;
    }
    out[i] = v;
}

// 3. Lane masks as scalar values: a ballot (its SGPR differs between the two waves) used in
//    VALU, readfirstlane/readlane, mbcnt, ds_bpermute, a DPP row shift, permlanex16.
__kernel void masks(__global uint *out, __global const uint *in) {
    uint i = GID(), l = LID(), v = in[i];
#ifdef GFXEMU_WAVE64
    uint b = (uint)__builtin_amdgcn_ballot_w64((v & 3) == 1);
#else
    uint b = __builtin_amdgcn_ballot_w32((v & 3) == 1);
#endif
    uint fl = __builtin_amdgcn_readfirstlane(v) + __builtin_amdgcn_readlane(v, 5);
    uint sw = __builtin_amdgcn_ds_bpermute((int)((l ^ 1) * 4), (int)v);
    uint sh = __builtin_amdgcn_update_dpp(0u, v, 0x111, 0xf, 0xf, false); /* row_shr:1 */
    uint px = __builtin_amdgcn_permlanex16(0u, v, 0x76543210u, 0xfedcba98u, false, false);
    out[4 * i] = b;
    out[4 * i + 1] = fl ^ (b & v);
    out[4 * i + 2] = sw + __builtin_amdgcn_mbcnt_lo(b, 0);
    out[4 * i + 3] = sh ^ px;
}

// 4. LDS and barriers across the waves of a 128-item workgroup (two pairs), and global atomics.
__kernel void lds_atomics(__global uint *out, __global uint *counts, __global const uint *in) {
    __local uint t[128];
    uint l = LID(), i = GID();
    t[l] = in[i] * 3u + l;
    WG_BARRIER();
    uint v = t[127 - l] ^ t[(l + 32) & 127];
    WG_BARRIER();
    t[l] = v;
    WG_BARRIER();
    out[i] = t[(l * 5) & 127];
    __atomic_fetch_add(&counts[v & 15], 1u, __ATOMIC_RELAXED);
    __atomic_fetch_max(&counts[16 + (l & 3)], v, __ATOMIC_RELAXED);
}

// 5. A store out of bounds in one wave only: the second wave of the workgroup (items 32-63)
//    writes `far` elements further.
__kernel void fault_second(__global uint *out, uint far) {
    uint l = LID();
    out[l + (l >= 32 ? far : 0u)] = l;
}

// 5b. A load out of bounds in every lane, between arithmetic before and after it: in a native
//     block of the pair's run, where the block stops at the load and the rest of the run is
//     taken back (counts, pc) as unpaired.
__kernel void fault_load(__global uint *out, __global const uint *in, uint far) {
    uint l = LID();
    out[l] = in[(l ^ 5u) + far] * 3u + l;
}

// 6. Scalar work inside runs of vector instructions: a uniform loop whose SALU counter is the
//    same in both waves, and a per-wave scalar (the popcount of the wave's ballot, different in
//    the two waves) updated between the VALU ops and read by a VALU op only after the loop.
__kernel void scalar_runs(__global uint *out, __global const uint *in, uint n) {
    uint i = GID(), v = in[i], acc = v;
#ifdef GFXEMU_WAVE64
    uint b = (uint)__builtin_popcountl(__builtin_amdgcn_ballot_w64((v & 1) != 0));
#else
    uint b = (uint)__builtin_popcount(__builtin_amdgcn_ballot_w32((v & 1) != 0));
#endif
    uint s = 0;
    for (uint k = 0; k < n; k++) {
        acc = acc * 1664525u + (acc >> 11) + k;
        s = s * 3u + b + k;
    }
    out[i] = acc ^ s;
}

// 7. A wave-divergent loop (the second wave of each pair loops longer: their pcs part, the pair
//    splits) then a barrier, after which the two waves run the same code again (joined again)
//    and exchange values through LDS.
__kernel void rejoin(__global uint *out, __global const uint *in, uint n) {
    __local uint t[128];
    uint l = LID(), i = GID(), v = in[i];
    uint trips = (l & 32) ? n : 1u; /* per wave of 32: uniform inside each wave */
    for (uint k = 0; k < trips; k++)
        v = v * 1664525u + 1013904223u;
    t[l] = v;
    WG_BARRIER();
    uint u = t[(l + 37) & 127];
    for (uint k = 0; k < n; k++)
        u = (u ^ (u >> 9)) * 2654435761u + k;
    out[i] = u;
}

// 8. Lane masks inside runs of paired instructions: 64-bit arithmetic whose carries differ from
//    lane to lane and between the two waves (v_add_co_u32 / v_add_co_ci_u32, v_sub_co...),
//    64-bit and 32-bit compares whose masks select (v_cmp into VCC or an SGPR, v_cndmask_b32),
//    in a loop with its counter on the SALU.
__kernel void lane_masks(__global ulong *out, __global const uint *in, uint n) {
    uint i = GID();
    ulong x = in[i], y = (ulong)in[i] << 31 | 0x7fffffffu;
    for (uint k = 0; k < n; k++) {
        x += y;
        y = x < y ? y - (x >> 3) : y + k;
        uint lo = (uint)x;
        x ^= lo > (uint)y ? (ulong)lo << 7 : (ulong)k;
    }
    out[i] = x ^ y;
}
