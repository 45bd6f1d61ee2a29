// Benchmark kernels (bench/b_*.c), OpenCL C for clang-22 without device libraries.  Compiled with
// -ffp-contract=off so that every float operation in the C references rounds the same way.
// Work-groups are 256 work-items (4 waves of 64).

#define LID() __builtin_amdgcn_workitem_id_x()
#define WG() __builtin_amdgcn_workgroup_id_x()
#define GID() (WG() * 256u + LID())

// VALU-bound: four f32 dependency chains of fma, mul and add per iteration.  The loop counter
// is uniform (SALU), the body is 8x unrolled so VALU instructions dominate.
__kernel void valu_f32(__global float *out, __global const float *in, unsigned iters)
{
    unsigned i = GID();
    float a = in[i], b = a * 0.25f, m = 0.75f + a * 0.125f, p = 0.5f - a * 0.0625f;
    float d = 0.0f, e = 1.0f;
#pragma unroll 8
    for (unsigned k = 0; k < iters; k++) {
        a = __builtin_fmaf(a, m, p);
        b = __builtin_fmaf(b, m, a);
        float c = a * b;
        d = d * 0.5f + c;
        e = e + c * 0.001f;
    }
    out[i] = a + b + d + e;
}

// VALU-bound integer chain: multiply, add, shift, xor, and (an LCG with mixing).
__kernel void valu_i32(__global unsigned *out, __global const unsigned *in, unsigned iters)
{
    unsigned i = GID();
    unsigned h = in[i], g = h ^ 0x9e3779b9u, s = 0;
#pragma unroll 8
    for (unsigned k = 0; k < iters; k++) {
        h = h * 1664525u + 1013904223u;
        g = (g ^ (h >> 13)) + (h << 3);
        s += (g & 0xffffu) | (h >> 24);
    }
    out[i] = h ^ g ^ s;
}

// SALU/branch-heavy: a uniform (per-workgroup) Collatz walk, so the compiler keeps it in scalar
// registers with scalar branches; the vector part is one store per lane.
__kernel void salu_branch(__global unsigned *out, unsigned n)
{
    unsigned g = WG(), steps = 0;
    for (unsigned k = 0; k < n; k++) {
        unsigned v = g * n + k + 1;
        while (v != 1) {
            v = (v & 1) ? 3 * v + 1 : v >> 1;
            steps++;
        }
    }
    out[GID()] = steps + LID();
}

// Divergent EXEC: per-lane Collatz walks; lanes leave the inner loop at different trip counts.
__kernel void divergent(__global unsigned *out, unsigned base, unsigned walks)
{
    unsigned i = GID(), s = 0;
    for (unsigned k = 0; k < walks; k++) {
        unsigned v = base + i * walks + k;
        while (v != 1) {
            v = (v & 1) ? 3 * v + 1 : v >> 1;
            s++;
        }
    }
    out[i] = s;
}

// Memory-bound streaming (STREAM triad), 4 floats per lane per access.
__kernel void triad(__global float4 *out, __global const float4 *a, __global const float4 *b,
                    float s)
{
    unsigned i = GID();
    out[i] = a[i] + s * b[i];
}

// LDS-heavy: each workgroup reduces `chunks` blocks of 256 integers by a tree in LDS.
__kernel void lds_reduce(__global unsigned *out, __global const unsigned *in, unsigned chunks)
{
    __local unsigned tmp[256];
    unsigned l = LID(), acc = 0;
    for (unsigned c = 0; c < chunks; c++) {
        tmp[l] = in[(WG() * chunks + c) * 256u + l];
        __builtin_amdgcn_s_barrier();
        for (unsigned s = 128; s > 0; s >>= 1) {
            if (l < s)
                tmp[l] += tmp[l + s];
            __builtin_amdgcn_fence(__ATOMIC_RELEASE, "workgroup");
            __builtin_amdgcn_s_barrier();
            __builtin_amdgcn_fence(__ATOMIC_ACQUIRE, "workgroup");
        }
        acc += tmp[0];
        __builtin_amdgcn_s_barrier();
    }
    if (l == 0)
        out[WG()] = acc;
}

// Wave reductions through DPP (the row_shr / row_bcast sequence compilers and libraries emit
// for a wave64 sum): each wave sums `chunks` blocks of 64 integers and lane 0 stores the total.
// GFX9 only: row_bcast does not exist from GFX10 on, and this file is also built for gfx1100.
#ifdef __GFX9__
static unsigned dpp_sum(unsigned v)
{
    v += __builtin_amdgcn_update_dpp(0u, v, 0x111, 0xf, 0xf, false); // row_shr:1
    v += __builtin_amdgcn_update_dpp(0u, v, 0x112, 0xf, 0xf, false); // row_shr:2
    v += __builtin_amdgcn_update_dpp(0u, v, 0x114, 0xf, 0xe, false); // row_shr:4
    v += __builtin_amdgcn_update_dpp(0u, v, 0x118, 0xf, 0xc, false); // row_shr:8
    v += __builtin_amdgcn_update_dpp(0u, v, 0x142, 0xa, 0xf, false); // row_bcast:15
    v += __builtin_amdgcn_update_dpp(0u, v, 0x143, 0xc, 0xf, false); // row_bcast:31
    return __builtin_amdgcn_readlane(v, 63);
}
__kernel void dpp_reduce(__global unsigned *out, __global const unsigned *in, unsigned chunks)
{
    unsigned wave = (WG() * 256u + LID()) / 64u, lane = LID() % 64u, acc = 0;
    for (unsigned c = 0; c < chunks; c++)
        acc += dpp_sum(in[(wave * chunks + c) * 64u + lane]);
    if (lane == 0)
        out[wave] = acc;
}
#endif

// Elementwise, for the comparison with the same loop compiled natively.
__kernel void vecadd(__global float *out, __global const float *a, __global const float *b)
{
    unsigned i = GID();
    out[i] = a[i] + b[i];
}

// Tiny kernel for the first-launch latency.
__kernel void tiny(__global unsigned *out)
{
    out[LID()] = LID() * 3u + 1u;
}
