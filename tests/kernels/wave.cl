// Cross-lane operations and memory kernels (tests/kernels/test_wave.c): readfirstlane, ballot,
// mbcnt, ds_bpermute/ds_permute, DPP, ds_swizzle; LDS atomics and >64 KiB of LDS; private
// arrays with dynamic indexing; structs and many arguments of mixed types by value; 8/16-bit
// and vector memory accesses.

#pragma OPENCL EXTENSION cl_khr_fp64 : enable
#pragma OPENCL EXTENSION cl_khr_fp16 : enable

#define LID() __builtin_amdgcn_workitem_id_x()
#define GID() (__builtin_amdgcn_workgroup_id_x() * 64u + __builtin_amdgcn_workitem_id_x())

#include "../common/cl_barrier.h"

// 1. readfirstlane and readlane under divergence, ballot, and mbcnt: the lanes with an odd
//    value read the first such lane's value; each wave compacts its odd values to the front.
__kernel void wave_ballot(__global int *out, __global unsigned long *masks, __global const int *v,
                          unsigned n)
{
    unsigned i = GID(), l = LID() & 63, w = i / 64;
    if (i >= n)
        return;
    int x = v[i], first = -1;
    if (x & 1)
        first = __builtin_amdgcn_readfirstlane(x);
    unsigned long odd = __builtin_amdgcn_ballot_w64((x & 1) != 0);
    unsigned below = __builtin_amdgcn_mbcnt_hi((unsigned)(odd >> 32),
                                               __builtin_amdgcn_mbcnt_lo((unsigned)odd, 0u));
    if (x & 1)
        out[3 * 64 * w + 64 + below] = x; // compacted
    out[3 * 64 * w + l] = first;
    out[3 * 64 * w + 128 + l] = __builtin_amdgcn_readlane(x, 37);
    if (l == 0)
        masks[w] = odd;
}

// 2. ds_bpermute (pull: lane l reads lane idx[l]) and ds_permute (push: lane l writes lane
//    idx[l]) with arbitrary per-lane indices, given as byte addresses.
__kernel void wave_permute(__global int *out, __global const int *v, __global const int *idx)
{
    unsigned i = GID(), w = i / 64, l = LID() & 63;
    int x = v[i], k = idx[i];
    out[128 * w + l] = __builtin_amdgcn_ds_bpermute(k * 4, x);
    // a push needs distinct targets: rotate by k of lane 0 (uniform)
    int r = __builtin_amdgcn_readfirstlane(k);
    out[128 * w + 64 + l] = __builtin_amdgcn_ds_permute((int)((l + r) & 63) * 4, x);
}

// 3. DPP controls on v_mov_b32_dpp (update_dpp: `old` stays in lanes that are not written).
#define DPP(k, ctrl, rm, bm, bc) out[12 * i + k] = __builtin_amdgcn_update_dpp(-7, x, ctrl, rm, bm, bc)
__kernel void wave_dpp(__global int *out, __global const int *v)
{
    unsigned i = GID();
    int x = v[i];
    DPP(0, 0x4e, 0xf, 0xf, false);  // quad_perm:[2,3,0,1]
    DPP(1, 0x101, 0xf, 0xf, false); // row_shl:1, lane 15 of each row keeps old
    DPP(2, 0x113, 0xf, 0xf, true);  // row_shr:3, bound_ctrl: lanes 0-2 of a row read 0
    DPP(3, 0x125, 0xf, 0xf, false); // row_ror:5
    DPP(4, 0x138, 0xf, 0xf, false); // wave_shr:1
    DPP(5, 0x134, 0xf, 0xf, false); // wave_rol:1
    DPP(6, 0x140, 0xf, 0xf, false); // row_mirror
    DPP(7, 0x141, 0xf, 0xf, false); // row_half_mirror
    DPP(8, 0x142, 0xa, 0xf, false); // row_bcast:15 into rows 1 and 3
    DPP(9, 0x143, 0xc, 0xf, false); // row_bcast:31 into rows 2 and 3
    DPP(10, 0xe4, 0xf, 0x5, false); // identity quad_perm, banks 0 and 2 only
    DPP(11, 0x153, 0x5, 0xf, true); // row_newbcast:3 into rows 0 and 2
}

// 4. ds_swizzle_b32: bitmask mode (and/or/xor on the lane id within 32) and quad mode.
__kernel void wave_swizzle(__global int *out, __global const int *v)
{
    unsigned i = GID();
    int x = v[i];
    out[5 * i + 0] = __builtin_amdgcn_ds_swizzle(x, 0x041f); // xor 1: swap neighbours
    out[5 * i + 1] = __builtin_amdgcn_ds_swizzle(x, 0x7c1f); // xor 31: reverse 32 lanes
    out[5 * i + 2] = __builtin_amdgcn_ds_swizzle(x, 0x00a0); // and 0, or 5: broadcast lane 5
    out[5 * i + 3] = __builtin_amdgcn_ds_swizzle(x, 0x0c18); // and 0x18, xor 3
    out[5 * i + 4] = __builtin_amdgcn_ds_swizzle(x, 0x801b); // quad mode: reverse each quad
}

// 5. LDS atomics: a 256-bin histogram per workgroup in LDS (ds_add_u32, contended by 256
//    work-items), LDS min/max, then merged into global memory.
__kernel void lds_histogram(__global unsigned *hist, __global int *minmax,
                            __global const unsigned *v, unsigned per_item)
{
    __local unsigned bins[256];
    __local int mm[2];
    unsigned l = LID(), g = __builtin_amdgcn_workgroup_id_x();
    bins[l] = 0;
    if (l == 0) {
        mm[0] = 0x7fffffff;
        mm[1] = (int)0x80000000;
    }
    WG_BARRIER();
    for (unsigned k = 0; k < per_item; k++) {
        unsigned x = v[(g * per_item + k) * 256 + l];
        __atomic_fetch_add(&bins[x & 255], 1u, __ATOMIC_RELAXED);
        __atomic_fetch_min(&mm[0], (int)x, __ATOMIC_RELAXED);
        __atomic_fetch_max(&mm[1], (int)x, __ATOMIC_RELAXED);
    }
    WG_BARRIER();
    __atomic_fetch_add(&hist[l], bins[l], __ATOMIC_RELAXED);
    if (l == 0) {
        __atomic_fetch_min(&minmax[0], mm[0], __ATOMIC_RELAXED);
        __atomic_fetch_max(&minmax[1], mm[1], __ATOMIC_RELAXED);
    }
}

// 6. 128 KiB of LDS (gfx950 only: gfx942 has 64 KiB): a 32768-bin histogram, so the LDS
//    atomics reach addresses past 64 KiB.
#ifdef __gfx950__
__kernel void lds_big_hist(__global unsigned *hist, __global const unsigned *v, unsigned per_item)
{
    __local unsigned bins[32768];
    unsigned l = LID();
    for (unsigned b = l; b < 32768; b += 256)
        bins[b] = 0;
    WG_BARRIER();
    for (unsigned k = 0; k < per_item; k++)
        __atomic_fetch_add(&bins[v[k * 256 + l] & 32767], 1u, __ATOMIC_RELAXED);
    WG_BARRIER();
    for (unsigned b = l; b < 32768; b += 256)
        hist[b] = bins[b];
}
#endif

// 7. A private array with dynamic indexing: insertion sort of 40 values per work-item (in
//    scratch at every -O level: too big and too dynamic for registers).
__kernel void private_sort(__global int *out, __global const int *v, unsigned n)
{
    unsigned i = GID();
    if (i >= n)
        return;
    int a[40];
    for (int k = 0; k < 40; k++)
        a[k] = v[40 * i + k];
    for (int k = 1; k < 40; k++) {
        int x = a[k], j = k - 1;
        while (j >= 0 && a[j] > x) {
            a[j + 1] = a[j];
            j--;
        }
        a[j + 1] = x;
    }
    for (int k = 0; k < 40; k++)
        out[40 * i + k] = a[k];
    out[40 * n + i] = a[v[40 * i] & 31] - a[(v[40 * i + 1] & 7) + 32]; // dynamic reads
}

// 8. Structs passed by value (with padding, a nested struct and an array member).
typedef struct {
    char c;
    int i;
    double d;
    short s[3];
    float f;
    long l;
} inner_t;
typedef struct {
    unsigned char tag;
    inner_t in;
    half h;
    unsigned u[2];
} outer_t;

__kernel void struct_byval(__global double *out, inner_t a, outer_t b, int scale)
{
    unsigned i = GID();
    if (i != 0)
        return;
    out[0] = a.c;
    out[1] = a.i;
    out[2] = a.d;
    out[3] = a.s[0] + a.s[1] * 2 + a.s[2] * 4;
    out[4] = a.f;
    out[5] = (double)a.l;
    out[6] = b.tag;
    out[7] = b.in.c + b.in.i;
    out[8] = b.in.d * scale;
    out[9] = b.in.s[2];
    out[10] = (double)b.in.l;
    out[11] = (double)b.h;
    out[12] = b.u[0] - (double)b.u[1];
}

// 9. Many arguments of mixed sizes and alignments (kernarg layout), used by every work-item.
typedef float float4_t __attribute__((ext_vector_type(4)));
typedef int int2_t __attribute__((ext_vector_type(2)));

__kernel void many_args(__global double *out, char a0, unsigned char a1, short a2,
                        unsigned short a3, int a4, unsigned a5, long a6, unsigned long a7,
                        float a8, double a9, half a10, float4_t a11, int2_t a12,
                        __global const int *p13, char a14, double a15, __global int *p16,
                        short a17, long a18, float a19, unsigned char a20, int a21)
{
    unsigned i = GID();
    if (i >= 64)
        return;
    double r[22] = {a0, a1, a2, a3, a4, a5, (double)a6, (double)a7, a8, a9, (double)a10,
                    a11.x + a11.y * 2 + a11.z * 4 + a11.w * 8, a12.x - a12.y, p13[i],
                    a14, a15, 0, a17, (double)a18, a19, a20, a21};
    p16[i] = p13[i] * 2 + (int)i;
    out[i] = r[i % 22];
}

// 10. Narrow and wide memory accesses: neighbouring lanes store bytes and shorts into the same
//     dwords, signed/unsigned narrow loads, 3- and 4-dword vector loads and stores.
typedef int int3_t __attribute__((ext_vector_type(3)));
typedef int int4_t __attribute__((ext_vector_type(4)));

__kernel void narrow_wide(__global char *b8, __global short *b16, __global int4_t *v4,
                          __global int3_t *v3, __global int *o, __global const char *s8,
                          __global const unsigned short *u16, __global const int4_t *in4,
                          unsigned n)
{
    unsigned i = GID();
    if (i >= n)
        return;
    b8[i] = (char)(s8[i] * 3 + 1);
    b16[i] = (short)(u16[i] ^ (i * 7));
    int4_t q = in4[i];
    v4[i] = q.wzyx + (int4_t)(1, 2, 3, 4);
    v3[i] = q.xyz * 2;
    o[i] = s8[i] + (int)u16[i] + s8[n - 1 - i];
}

// 11. LDS accesses of every width: 16-byte and 12-byte vectors, 8-byte, and signed/unsigned
//     bytes and shorts, read back from other lanes after a barrier.
__kernel void lds_widths(__global int *out, __global const int4_t *in)
{
    __local int4_t v4[64];
    __local int3_t v3[64];
    __local long v2[64];
    __local char c8[64];
    __local unsigned short u16[64];
    unsigned l = LID();
    int4_t q = in[l];
    v4[l] = q;
    v3[l] = q.yzw;
    v2[l] = (long)q.x << 32 | (unsigned)q.y;
    c8[l] = (char)q.z;
    u16[l] = (unsigned short)q.w;
    WG_BARRIER();
    unsigned r = 63 - l, s = (l + 17) & 63;
    int4_t a = v4[r];
    int3_t b = v3[s];
    long c = v2[(l * 5) & 63];
    __global int *o = out + 12 * l;
    o[0] = a.x, o[1] = a.y, o[2] = a.z, o[3] = a.w;
    o[4] = b.x, o[5] = b.y, o[6] = b.z;
    o[7] = (int)(c >> 32), o[8] = (int)c;
    o[9] = c8[r];                  // sign-extended
    o[10] = ((__local unsigned char *)c8)[s]; // zero-extended
    o[11] = u16[r] + ((__local short *)u16)[s];
}

// 12. Tiled f32 matrix multiply through LDS (16x16 tiles, fma).  The inputs are small integers,
//     so every sum is exact whatever the order.
__kernel void matmul_f32_tiled(__global float *c, __global const float *a,
                               __global const float *b, unsigned n)
{
    __local float ta[16][16], tb[16][17];
    unsigned tx = __builtin_amdgcn_workitem_id_x(), ty = __builtin_amdgcn_workitem_id_y();
    unsigned col = __builtin_amdgcn_workgroup_id_x() * 16 + tx;
    unsigned row = __builtin_amdgcn_workgroup_id_y() * 16 + ty;
    float acc = 0.0f;
    for (unsigned t = 0; t < n; t += 16) {
        ta[ty][tx] = a[row * n + t + tx];
        tb[ty][tx] = b[(t + ty) * n + col];
        WG_BARRIER();
        for (unsigned k = 0; k < 16; k++)
            acc = __builtin_fmaf(ta[ty][k], tb[k][tx], acc);
        WG_BARRIER();
    }
    c[row * n + col] = acc;
}

// 13. Dynamic LDS: a __local pointer argument whose size the launch gives, next to static LDS.
//     Each work-item fills a strided part of it, then sums another part.
__kernel void dyn_lds(__global unsigned *out, __local unsigned *dyn, unsigned m)
{
    __local unsigned st[64];
    unsigned l = LID();
    if (l < 64)
        st[l] = l;
    for (unsigned k = l; k < m; k += 256)
        dyn[k] = k * 2654435761u;
    WG_BARRIER();
    unsigned s = st[(l + 1) & 63];
    for (unsigned k = (l * 7) % 256; k < m; k += 256)
        s += dyn[m - 1 - k];
    out[__builtin_amdgcn_workgroup_id_x() * 256 + l] = s;
}

// 14. The largest workgroup: 1024 work-items (16 waves) reduce through LDS with barriers.
__kernel __attribute__((amdgpu_flat_work_group_size(1, 1024))) void reduce1024(__global unsigned *out, __global const unsigned *in)
{
    __local unsigned t[1024];
    unsigned l = LID(), g = __builtin_amdgcn_workgroup_id_x();
    t[l] = in[g * 1024 + l];
    WG_BARRIER();
    for (unsigned s = 512; s > 0; s >>= 1) {
        if (l < s)
            t[l] = t[l] * 3 + t[l + s]; // order-dependent: the tree shape must be right
        WG_BARRIER();
    }
    if (l == 0)
        out[g] = t[0];
}

// 15. A 4 KiB private array per work-item (scratch at every -O level), written and read at
//     data-dependent indices.
__kernel void private_big(__global int *out, __global const int *idx, unsigned n)
{
    unsigned i = GID();
    if (i >= n)
        return;
    int arr[1024];
    for (int k = 0; k < 1024; k++)
        arr[k] = (int)(i * 1024 + k);
    for (int k = 0; k < 32; k++)
        arr[idx[32 * i + k] & 1023] ^= k << 20; // scattered read-modify-writes
    int s = 0;
    for (int k = 0; k < 32; k++)
        s = s * 31 + arr[(idx[32 * i + k] >> 10) & 1023];
    out[i] = s;
}

// 16. Raw buffer loads and stores through buffer resources (buffer_load/store_dword offen):
//     accesses at or past num_records are dropped (stores) or read 0 (loads).
__kernel void buffer_raw(__global int *out, __global int *buf, int load_bytes, int store_bytes)
{
    unsigned l = LID();
    __amdgpu_buffer_rsrc_t rl = __builtin_amdgcn_make_buffer_rsrc(buf, 0, load_bytes, 0x00027000);
    __amdgpu_buffer_rsrc_t rs = __builtin_amdgcn_make_buffer_rsrc(buf, 0, store_bytes, 0x00027000);
    int v = __builtin_amdgcn_raw_buffer_load_b32(rl, l * 4, 0, 0);
    __builtin_amdgcn_raw_buffer_store_b32(v + 1, rs, l * 4 + 256, 0, 0);
    out[l] = v;
}
