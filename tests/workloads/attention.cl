/* attention.cl - flash attention on the matrix cores, forward and backward, for
 * tests/workloads/test_attention.c and the benchmarks: bf16 inputs, f32 accumulation, online
 * softmax, causal or not, head dimension 64 or 128 (kernels attn_*_d64 and attn_*_d128).
 *
 * Layout: Q, K, V, dO are [H][S][HD] bf16 (H = batch x heads); O, dQ, dK, dV are [H][S][HD] f32;
 * LSE and Di are [H][S] f32.  scale multiplies the scores (1/sqrt(HD) usually).
 *   attn_fwd:      O = softmax(scale Q K^T (+ causal mask)) V and LSE = log2 of the softmax
 *                  denominator in units of the scaled scores times log2(e) (m + log2 l);
 *   attn_bwd_dkdv: dV = P^T dO, dK = scale dS^T Q, where P = exp2(scale log2(e) Q K^T - LSE)
 *                  and dS = P * (dO V^T - Di);
 *   attn_bwd_dq:   dQ = scale dS K;
 *   Di = rowsum(dO * O) comes from attn_bwd_pre.
 * A workgroup is 4 waves (256 work-items); grid = (ceil(S / 64), H).
 *
 * Every product uses v_mfma_f32_16x16x16_bf16: lane l supplies row l%16 of A and column l%16 of
 * B with 4 consecutive k values starting at 4*(l/16), and gets D[4*(l/16) + v][l%16], v = 0..3.
 * Computing the transposed products (S^T = K Q^T, O^T = V^T P^T, ...) puts the query (or, in the
 * key-major dK/dV kernel, the key) on l%16 everywhere, so softmax statistics stay in the lane
 * that owns the row, and the probabilities computed as one product's result are, unchanged, the
 * next product's B operand.  Row reductions over the 16 keys of a tile are across lanes l,
 * l^16, l^32, l^48 (ds_bpermute). */

#define LOG2E 1.4426950408889634f
#define MMA(a, b, c) __builtin_amdgcn_mfma_f32_16x16x16bf16_1k(a, b, c, 0, 0, 0)

#include "../common/cl_barrier.h"

static int imin(int a, int b) { return a < b ? a : b; }

static float exp2_(float x) { return __builtin_amdgcn_exp2f(x); }

static ushort to_bf16(float f) /* round to nearest even (inputs here are finite) */
{
    uint u = as_uint(f);
    return (ushort)((u + 0x7fff + ((u >> 16) & 1)) >> 16);
}

static float from_bf16(ushort b) { return as_float((uint)b << 16); }

/* x from lane (this lane ^ m) of the wave. */
static float xor_lanes(float x, int m)
{
    int l = __builtin_amdgcn_mbcnt_hi(~0u, __builtin_amdgcn_mbcnt_lo(~0u, 0u));
    return as_float(__builtin_amdgcn_ds_bpermute((l ^ m) << 2, as_int(x)));
}

/* Rows r0..r0+nr-1 of a row-major [S][hd] bf16 matrix into dst (pitch elements per row); rows
 * at or past S read as zero.  t is the work-item index (256 per workgroup). */
static void stage_rows(local ushort *dst, int pitch, global const ushort *src, int r0, int nr,
                       int S, int hd, int t)
{
    for (int e = t; e < nr * hd / 8; e += 256) {
        int r = e / (hd / 8), c = (e % (hd / 8)) * 8;
        uint4 v = 0;
        if (r0 + r < S)
            v = *(global const uint4 *)&src[(long)(r0 + r) * hd + c];
        *(local uint4 *)&dst[r * pitch + c] = v;
    }
}

/* The same rows transposed: dst[c * pitch + r] = row r, column c. */
static void stage_cols(local ushort *dst, int pitch, global const ushort *src, int r0, int nr,
                       int S, int hd, int t)
{
    for (int e = t; e < nr * hd / 8; e += 256) {
        int r = e / (hd / 8), c = (e % (hd / 8)) * 8;
        union {
            uint4 v;
            ushort h[8];
        } u;
        u.v = 0;
        if (r0 + r < S)
            u.v = *(global const uint4 *)&src[(long)(r0 + r) * hd + c];
        for (int i = 0; i < 8; i++)
            dst[(c + i) * pitch + r] = u.h[i];
    }
}

/* Di[h][q] = sum_d dO[h][q][d] * O[h][q][d]; one work-item per query, grid (ceil(S/256), H). */
kernel void attn_bwd_pre(global const ushort *dO, global const float *O, global float *Di, int S,
                         int hd)
{
    int q = __builtin_amdgcn_workgroup_id_x() * 256 + __builtin_amdgcn_workitem_id_x();
    int h = __builtin_amdgcn_workgroup_id_y();
    if (q >= S)
        return;
    long o = ((long)h * S + q) * hd;
    float s = 0;
    for (int d = 0; d < hd; d++)
        s += from_bf16(dO[o + d]) * O[o + d];
    Di[(long)h * S + q] = s;
}

#define HD 64
#include "attn_body.h"
#define HD 128
#include "attn_body.h"
