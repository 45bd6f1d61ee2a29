/* wmma.cl - a GEMM through clang-22's WMMA builtins (tests/kernels/test_wmma_kernels.c): each
 * workgroup is one wave computing the 16x16 tile (group x, group y) of D = A x B + C, A (M x K)
 * f16 row-major, B given transposed (bt: N x K f16 row-major), C/D f32 row-major, K a multiple
 * of 16.  Every lane loads its operand elements where the RDNA3 / RDNA4 ISA manuals put them,
 * as whole vectors (runs of consecutive k), so the kernel needs no half-packing ops.
 * clang-22 defines no wave-size macro: the test harness passes GFXEMU_WAVE64 with
 * -mwavefrontsize64. */
#pragma OPENCL EXTENSION cl_khr_fp16 : enable
typedef half half16_ __attribute__((ext_vector_type(16)));
typedef half half8_ __attribute__((ext_vector_type(8)));
typedef half half4_ __attribute__((ext_vector_type(4)));
typedef float float8_ __attribute__((ext_vector_type(8)));
typedef float float4_ __attribute__((ext_vector_type(4)));

#ifdef GFXEMU_WAVE64
#define NACC 4
typedef float4_ acc_t;
#else
#define NACC 8
typedef float8_ acc_t;
#endif

#if defined(__gfx1201__)
/* RDNA4: lane half h = (l % 32) / 16 holds k = 8*(e/4) + 4*h + e%4 (runs of four k); in
 * wave64, lanes 32-63 hold the wave32 registers' second half; D row = e + 8*h (+ 4 in wave64
 * lanes 32-63) */
static int row_of(int l, int r) { return r + (l / 32) * NACC + 8 * ((l % 32) / 16); }
#ifdef GFXEMU_WAVE64
typedef half4_ ab_t;
static ab_t load_ab(global const half *row, int l) {
    return *(global const half4_ *)(row + 8 * (l / 32) + 4 * ((l % 32) / 16));
}
#else
typedef half8_ ab_t;
static ab_t load_ab(global const half *row, int l) {
    half4_ lo = *(global const half4_ *)(row + 4 * (l / 16));
    half4_ hi = *(global const half4_ *)(row + 8 + 4 * (l / 16));
    return (ab_t)(lo, hi);
}
#endif
#else
/* RDNA3: lane l holds row/column l % 16 whole (the other lanes: copies); D row = 2r + l/16
 * (wave32) or 4r + l/16 (wave64) */
static int row_of(int l, int r) { return (NACC == 8 ? 2 : 4) * r + l / 16; }
typedef half16_ ab_t;
static ab_t load_ab(global const half *row, int l) { return *(global const half16_ *)row; }
#endif

kernel void gemm(global const half *a, global const half *bt, global const float *c,
                 global float *d, int n, int k) {
    int l = __builtin_amdgcn_workitem_id_x();
    int ti = 16 * __builtin_amdgcn_workgroup_id_y(), tj = 16 * __builtin_amdgcn_workgroup_id_x();
    acc_t acc;
    for (int r = 0; r < NACC; r++)
        acc[r] = c[(ti + row_of(l, r)) * n + tj + l % 16];
    for (int k0 = 0; k0 < k; k0 += 16) {
        ab_t av = load_ab(a + (ti + l % 16) * k + k0, l);
        ab_t bv = load_ab(bt + (tj + l % 16) * k + k0, l);
#if defined(__gfx1201__) && defined(GFXEMU_WAVE64)
        acc = __builtin_amdgcn_wmma_f32_16x16x16_f16_w64_gfx12(av, bv, acc);
#elif defined(__gfx1201__)
        acc = __builtin_amdgcn_wmma_f32_16x16x16_f16_w32_gfx12(av, bv, acc);
#elif defined(GFXEMU_WAVE64)
        acc = __builtin_amdgcn_wmma_f32_16x16x16_f16_w64(av, bv, acc);
#else
        acc = __builtin_amdgcn_wmma_f32_16x16x16_f16_w32(av, bv, acc);
#endif
    }
    for (int r = 0; r < NACC; r++)
        d[(ti + row_of(l, r)) * n + tj + l % 16] = acc[r];
}
