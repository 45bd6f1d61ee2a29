/* gemm.cl - tiled GEMM kernels on the matrix cores (MFMA) for tests/workloads/test_gemm.c and
 * bench/b_gemm.c: bf16, f16 and fp8 inputs, f32 results, 16x16 and 32x32 MFMA tiles, B as K x N
 * or transposed (N x K).  The kernel body is gemm_body.h; this file instantiates it. */

typedef __bf16 bf16x8 __attribute__((ext_vector_type(8)));
typedef half half8 __attribute__((ext_vector_type(8)));

#define KB 64          /* bytes of K per step */
#define ROWB (KB + 16) /* LDS row pitch: padded, keeps 16-byte alignment */

#include "../common/cl_barrier.h"

/* 16 bytes of row `row` (of `nrows`) of a row-major matrix with `ncols` elements of `es` bytes,
 * starting at column c0; elements outside the matrix read as zero. */
static uint4 gemm_load16(global const uchar *base, int row, int nrows, int c0, int ncols, int es)
{
    union {
        uint4 v;
        uchar b[16];
    } u;
    u.v = 0;
    if (row >= nrows || c0 >= ncols)
        return u.v;
    global const uchar *p = base + ((long)row * ncols + c0) * es;
    if (c0 + 16 / es <= ncols && ((ulong)p & 15) == 0)
        return *(global const uint4 *)p;
    for (int e = 0; e < 16 / es && c0 + e < ncols; e++)
        for (int b = 0; b < es; b++)
            u.b[e * es + b] = p[e * es + b];
    return u.v;
}

/* Write the 16/es elements in v to column `col` of consecutive LDS rows (pitch bytes apart):
 * this transposes a row piece of a K x N matrix into the N-major tile. */
static void gemm_scatter16(local uchar *dst, int pitch, uint4 v, int es)
{
    union {
        uint4 v;
        uchar b[16];
        ushort h[8];
    } u;
    u.v = v;
    if (es == 2)
        for (int e = 0; e < 8; e++)
            *(local ushort *)(dst + e * pitch) = u.h[e];
    else
        for (int e = 0; e < 16; e++)
            dst[e * pitch] = u.b[e];
}

#define BF16_16(a, b, c) __builtin_amdgcn_mfma_f32_16x16x16bf16_1k(a, b, c, 0, 0, 0)
#define BF16_32(a, b, c) __builtin_amdgcn_mfma_f32_32x32x8bf16_1k(a, b, c, 0, 0, 0)
#define F16_16(a, b, c) __builtin_amdgcn_mfma_f32_16x16x16f16(a, b, c, 0, 0, 0)
#define F16_32(a, b, c) __builtin_amdgcn_mfma_f32_32x32x8f16(a, b, c, 0, 0, 0)
#define FP8_16(a, b, c) __builtin_amdgcn_mfma_f32_16x16x32_fp8_fp8(a, b, c, 0, 0, 0)
#define FP8_32(a, b, c) __builtin_amdgcn_mfma_f32_32x32x16_fp8_fp8(a, b, c, 0, 0, 0)

/* bf16 */
#define NAME gemm_bf16_16
#define ES 2
#define TILE 16
#define OPND short4
#define OPB 8
#define MFMA BF16_16
#define TRANSB 0
#include "gemm_body.h"

#define NAME gemm_bf16_32
#define ES 2
#define TILE 32
#define OPND short4
#define OPB 8
#define MFMA BF16_32
#define TRANSB 0
#include "gemm_body.h"

#define NAME gemm_bf16_16_tb
#define ES 2
#define TILE 16
#define OPND short4
#define OPB 8
#define MFMA BF16_16
#define TRANSB 1
#include "gemm_body.h"

#define NAME gemm_bf16_32_tb
#define ES 2
#define TILE 32
#define OPND short4
#define OPB 8
#define MFMA BF16_32
#define TRANSB 1
#include "gemm_body.h"

/* f16 */
#define NAME gemm_f16_16
#define ES 2
#define TILE 16
#define OPND half4
#define OPB 8
#define MFMA F16_16
#define TRANSB 0
#include "gemm_body.h"

#define NAME gemm_f16_32
#define ES 2
#define TILE 32
#define OPND half4
#define OPB 8
#define MFMA F16_32
#define TRANSB 0
#include "gemm_body.h"

/* fp8 (E4M3: OCP on gfx950, FNUZ on gfx942) */
#define NAME gemm_fp8_16
#define ES 1
#define TILE 16
#define OPND long
#define OPB 8
#define MFMA FP8_16
#define TRANSB 0
#include "gemm_body.h"

#define NAME gemm_fp8_32
#define ES 1
#define TILE 32
#define OPND long
#define OPB 8
#define MFMA FP8_32
#define TRANSB 0
#include "gemm_body.h"

#define NAME gemm_fp8_16_tb
#define ES 1
#define TILE 16
#define OPND long
#define OPB 8
#define MFMA FP8_16
#define TRANSB 1
#include "gemm_body.h"

/* Bigger blocks: 128x128 per workgroup, 64x64 per wave (the benchmark's MFMA-bound kernels). */
#define NAME gemm_bf16_16_big
#define ES 2
#define TILE 16
#define OPND short4
#define OPB 8
#define MFMA BF16_16
#define TRANSB 0
#define WT 64
#include "gemm_body.h"

#define NAME gemm_fp8_32_big
#define ES 1
#define TILE 32
#define OPND long
#define OPB 8
#define MFMA FP8_32
#define TRANSB 1
#define WT 64
#include "gemm_body.h"

#define NAME gemm_fp8_16_big
#define ES 1
#define TILE 16
#define OPND long
#define OPB 8
#define MFMA FP8_16
#define TRANSB 1
#define WT 64
#include "gemm_body.h"

#if defined(__gfx950__)
/* gfx950's double-K 16-bit MFMAs: 8 elements per lane. */
#define BF16X_16(a, b, c) __builtin_amdgcn_mfma_f32_16x16x32_bf16(a, b, c, 0, 0, 0)
#define BF16X_32(a, b, c) __builtin_amdgcn_mfma_f32_32x32x16_bf16(a, b, c, 0, 0, 0)
#define F16X_16(a, b, c) __builtin_amdgcn_mfma_f32_16x16x32_f16(a, b, c, 0, 0, 0)

#define NAME gemm_bf16x_16
#define ES 2
#define TILE 16
#define OPND bf16x8
#define OPB 16
#define MFMA BF16X_16
#define TRANSB 0
#include "gemm_body.h"

#define NAME gemm_bf16x_32_tb
#define ES 2
#define TILE 32
#define OPND bf16x8
#define OPB 16
#define MFMA BF16X_32
#define TRANSB 1
#include "gemm_body.h"

#define NAME gemm_f16x_16
#define ES 2
#define TILE 16
#define OPND half8
#define OPB 16
#define MFMA F16X_16
#define TRANSB 0
#include "gemm_body.h"
#endif
