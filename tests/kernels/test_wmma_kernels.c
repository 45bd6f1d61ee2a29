/* test_wmma_kernels.c - WMMA end to end: tests/kernels/wmma.cl, a tiled GEMM whose lanes load A,
 * B (given transposed) and C where the RDNA3/RDNA4 manuals put them and call clang-22's
 * __builtin_amdgcn_wmma_f32_16x16x16_f16_w32/_w64 (gfx1100) and their _gfx12 forms (gfx1201),
 * compiled at -O0..-O3 in wave32 and wave64, must store exactly the product a plain C GEMM
 * computes here.  The inputs are small multiples of 1/4 (f16) and 1/8 (f32): every sum is exact,
 * so the comparison is exact whatever the accumulation order and checks the layouts. */
#include "common/check.h"
#include "common/kernels.h"
#include "exec/fpfmt.h"
#include "gfxemu.h"

#include <stdint.h>
#include <stdio.h>
#include <string.h>

enum { M = 32, N = 48, K = 64 };

static uint64_t rng = 0x2545f4914f6cdd1dull;

static void t_gemm(void) {
    static uint16_t a[M * K], b[K * N];
    static float c[M * N], d[M * N];
    static double fa[M * K], fb[K * N];
    for (int i = 0; i < M * K; i++) {
        fa[i] = (double)((int)(kt_rand(&rng) % 17) - 8) / 4;
        a[i] = (uint16_t)fpf_encode(fa[i], FPF_F16, 0);
    }
    for (int i = 0; i < K * N; i++) { /* B[q][j] = fb[q*N + j], uploaded transposed */
        fb[i] = (double)((int)(kt_rand(&rng) % 17) - 8) / 4;
        b[(i % N) * K + i / N] = (uint16_t)fpf_encode(fb[i], FPF_F16, 0);
    }
    for (int i = 0; i < M * N; i++)
        c[i] = (float)((int)(kt_rand(&rng) % 201) - 100) / 8;
    uint64_t da = kt_upload(a, sizeof a), db = kt_upload(b, sizeof b), dc = kt_upload(c, sizeof c),
             dd = kt_upload(NULL, sizeof d);
    int n = N, k = K;
    const void *p[] = {&da, &db, &dc, &dd, &n, &k};
    unsigned lanes = strstr(kt.tag, "-w64") ? 64 : 32; /* one wave per 16x16 tile */
    if (kt_launch3("gemm", N / 16, M / 16, 1, lanes, 1, 1, p, 6))
        return;
    gfx_memcpy_dtoh(kt.dev, d, dd, sizeof d);
    int bad = 0;
    for (int i = 0; i < M; i++)
        for (int j = 0; j < N; j++) {
            double s = c[i * N + j];
            for (int q = 0; q < K; q++)
                s += fa[i * K + q] * fb[q * N + j];
            if (d[i * N + j] != (float)s && bad++ < 3)
                printf("  %s D[%d][%d] = %g, want %g\n", kt.tag, i, j, d[i * N + j], s);
        }
    CHECK(bad == 0, "%s wmma gemm %dx%dx%d: %d elements wrong", kt.tag, M, N, K, bad);
}

int main(void) {
    static const kt_test tests[] = {t_gemm};
    if (kt_run_rdna("wmma", "", tests, sizeof tests / sizeof tests[0]))
        return 1;
    return check_summary("wmma_kernels");
}
