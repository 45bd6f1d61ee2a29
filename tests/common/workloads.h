/* workloads.h - what the matrix workload tests (tests/workloads) and benchmarks (bench/) share:
 * compiling tests/workloads/<stem>.cl, the 16- and 8-bit input formats, and C reference models
 * of GEMM and attention written as plain loops in double precision. */
#ifndef GFXEMU_TEST_WORKLOADS_H
#define GFXEMU_TEST_WORKLOADS_H

#include "gfxemu.h"

#include <stddef.h>
#include <stdint.h>

/* Element formats of the kernels' inputs. */
typedef enum { WL_BF16, WL_F16, WL_FP8 } wl_type;

/* Bytes per element. */
size_t wl_size(wl_type t);
/* Value of element i of an array of type t.  fp8 is E4M3: the OCP format on gfx950 and the FNUZ
 * format (bias 8, 0x80 = NaN) on gfx942. */
double wl_get(wl_type t, const void *p, size_t i, int gfx950);
/* n random finite elements of moderate magnitude (|x| in about [2^-6, 4], either sign, some
 * zeros); seed is advanced. */
void wl_fill(wl_type t, void *p, size_t n, uint64_t *seed, int gfx950);
/* bf16 nearest-even rounding of an f32 value (for inputs built from floats). */
uint16_t wl_bf16(float f);

/* Compile tests/workloads/<stem>.cl for arch at opt (e.g. "-O3") into
 * $BUILD/workloads/<stem>-<arch><opt>.co and load it; exits on failure. */
gfx_module *wl_load(const char *stem, const char *arch, const char *opt);

/* C = A x B in double: A is M x K, B is K x N (or N x K when transb); also the sum of the
 * magnitudes of the products of each element (for the error bound). */
void wl_gemm_ref(wl_type t, const void *A, const void *B, int transb, int M, int N, int K,
                 int gfx950, double *C, double *mag);
/* Compare an f32 result with the reference: |got - want| <= (K + 2) * 2^-24 * mag + 2^-100 for
 * every element (the bound of any f32 summation order of exact products).  Prints the first few
 * mismatches with `what`; returns the number of bad elements. */
size_t wl_gemm_compare(const float *got, const double *want, const double *mag, int M, int N, int K,
                       const char *what);

/* Attention in double, as tests/workloads/attention.cl defines it (bf16 Q, K, V, dO of
 * [H][S][D]; scores scaled by `scale`; causal: key > query masked).
 * Forward: O = softmax(scores) V, lse2 = log2(sum over keys of exp(score)) per query, omag =
 * sum over keys of P |V| (the scale of O's rounding error).
 * Backward, given the forward's O and lse2 as the kernels see them (f32): di = rowsum(dO * O),
 * dQ, dK, dV, and their magnitudes (sums of the absolute values of the terms). */
void wl_attn_fwd_ref(const uint16_t *Q, const uint16_t *K, const uint16_t *V, int H, int S, int D,
                     double scale, int causal, double *O, double *lse2, double *omag);
void wl_attn_bwd_ref(const uint16_t *Q, const uint16_t *K, const uint16_t *V, const uint16_t *dO,
                     const float *O, int H, int S, int D, double scale, int causal, double *di,
                     double *dQ, double *dK, double *dV, double *dqmag, double *dkmag,
                     double *dvmag);

#endif
