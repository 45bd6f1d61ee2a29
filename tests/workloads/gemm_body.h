/* gemm_body.h - one tiled MFMA GEMM kernel, instantiated by gemm.cl for each data type, MFMA
 * shape and B layout.  C[M][N] (f32, row-major) = A[M][K] x B, where B is K x N row-major, or
 * N x K row-major ("transposed B") when TRANSB is 1.  Any M, N, K: out-of-range elements of a
 * tile are loaded as zero and out-of-range results are not stored.
 *
 * Parameters (macros defined before each #include):
 *   NAME    kernel name
 *   ES      element size in bytes (2: bf16/f16, 1: fp8)
 *   TILE    16 or 32: the MFMA's M = N
 *   OPND    the type of one lane's A or B operand, OPB bytes (8 or 16)
 *   MFMA(a, b, c)  the builtin
 *   TRANSB  0 or 1
 *   WT      (optional, default 32) the side of each wave's block of C: 32 or 64
 *
 * A workgroup of 256 work-items (4 waves in a 2x2 arrangement) computes a 2WT x 2WT block of C;
 * each wave computes WT x WT of it as (WT/TILE)^2 MFMA tiles.  WT = 64 does four times the
 * matrix work per loaded byte of WT = 32, as tuned GEMM kernels do.  K advances in steps
 * of 64 bytes per row (32 16-bit or 64 fp8 elements).  Tiles of A and B go through LDS, double
 * buffered: while the waves multiply the tiles in one buffer, the next tiles are already loaded
 * into registers and are written into the other buffer; one barrier per step.
 *
 * MFMA operand layout (CDNA3/CDNA4 ISA, dense MFMA): lane l supplies row (l % TILE) of A and
 * column (l % TILE) of B, holding the OPB/ES consecutive k values that start at
 * (l / TILE) * OPB/ES within the instruction's K.  Results: 16x16 tiles give lane l the column
 * l % 16, rows 4*(l/16) + 0..3; 32x32 tiles give lane l the column l % 32, rows
 * 8*(v/4) + 4*(l/32) + v%4 for v = 0..15. */

#ifndef WT
#define WT 32
#endif
#define BM (2 * WT)
#define BN (2 * WT)
#define NS (WT / TILE)          /* MFMA tiles per wave along M and N */
#define NP (BM * KB / 16 / 256) /* 16-byte pieces of each tile per work-item */

kernel void NAME(global const uchar *A, global const uchar *B, global float *C, int M, int N,
                 int K) {
    local uchar As[2][BM][ROWB];
    local uchar Bs[2][BN][ROWB];
    const int t = __builtin_amdgcn_workitem_id_x();
    const int lane = t & 63, w = t >> 6;
    const int m0 = __builtin_amdgcn_workgroup_id_y() * BM;
    const int n0 = __builtin_amdgcn_workgroup_id_x() * BN;
    const int bk = KB / ES; /* elements of K per step */
    const int ntiles = (K + bk - 1) / bk;
    const int vec = 16 / ES;

    /* This work-item's 16-byte pieces of the A and B tiles: piece e = t + 256 p. */
    uint4 ra[NP], rb[NP];
#define A_ROW(p) ((t + 256 * (p)) / (KB / 16))
#define A_K(p) (((t + 256 * (p)) % (KB / 16)) * vec)
#if TRANSB
#define LOAD_B(p, kt) rb[p] = gemm_load16(B, n0 + A_ROW(p), N, (kt) * bk + A_K(p), K, ES)
#define STORE_B(p, buf) *(local uint4 *)&Bs[buf][A_ROW(p)][A_K(p) * ES] = rb[p]
#else
#define B_K(p) ((t + 256 * (p)) / (BN / vec))
#define B_N(p) (((t + 256 * (p)) % (BN / vec)) * vec)
#define LOAD_B(p, kt) rb[p] = gemm_load16(B, (kt) * bk + B_K(p), K, n0 + B_N(p), N, ES)
#define STORE_B(p, buf) gemm_scatter16(&Bs[buf][B_N(p)][B_K(p) * ES], ROWB, rb[p], ES)
#endif
#define LOAD_TILE(kt)                                                                              \
    for (int p = 0; p < NP; p++) {                                                                 \
        ra[p] = gemm_load16(A, m0 + A_ROW(p), M, (kt) * bk + A_K(p), K, ES);                       \
        LOAD_B(p, kt);                                                                             \
    }
#define STORE_TILE(buf)                                                                            \
    for (int p = 0; p < NP; p++) {                                                                 \
        *(local uint4 *)&As[buf][A_ROW(p)][A_K(p) * ES] = ra[p];                                   \
        STORE_B(p, buf);                                                                           \
    }

    /* The wave's WT x WT block of C: NS x NS MFMA tiles. */
    const int wm = (w >> 1) * WT, wn = (w & 1) * WT;
#if TILE == 16
    float4 acc[NS][NS];
#else
    float16 acc[NS][NS];
#endif
    for (int i = 0; i < NS; i++)
        for (int j = 0; j < NS; j++)
            acc[i][j] = 0;
    LOAD_TILE(0);
    STORE_TILE(0);
    WG_BARRIER();
    for (int kt = 0; kt < ntiles; kt++) {
        const int buf = kt & 1;
        if (kt + 1 < ntiles) {
            LOAD_TILE(kt + 1);
        }
        for (int kb = 0; kb < KB; kb += (64 / TILE) * OPB) {
            const int off = kb + (lane / TILE) * OPB;
            OPND a[NS], b[NS];
            for (int i = 0; i < NS; i++) {
                a[i] = *(local const OPND *)&As[buf][wm + i * TILE + lane % TILE][off];
                b[i] = *(local const OPND *)&Bs[buf][wn + i * TILE + lane % TILE][off];
            }
            for (int i = 0; i < NS; i++)
                for (int j = 0; j < NS; j++)
                    acc[i][j] = MFMA(a[i], b[j], acc[i][j]);
        }
        if (kt + 1 < ntiles) {
            STORE_TILE(buf ^ 1);
        }
        WG_BARRIER();
    }

    for (int i = 0; i < NS; i++)
        for (int j = 0; j < NS; j++)
#if TILE == 16
            for (int v = 0; v < 4; v++) {
                int row = m0 + wm + i * 16 + 4 * (lane >> 4) + v;
                int col = n0 + wn + j * 16 + (lane & 15);
#else
            for (int v = 0; v < 16; v++) {
                int row = m0 + wm + i * 32 + 8 * (v >> 2) + 4 * (lane >> 5) + (v & 3);
                int col = n0 + wn + j * 32 + (lane & 31);
#endif
                if (row < M && col < N)
                    C[(long)row * N + col] = acc[i][j][v];
            }
#undef A_ROW
#undef A_K
#undef B_K
#undef B_N
#undef LOAD_TILE
#undef LOAD_B
#undef STORE_B
#undef STORE_TILE
}

#undef NAME
#undef ES
#undef TILE
#undef OPND
#undef OPB
#undef MFMA
#undef TRANSB
#undef WT
#undef BM
#undef BN
#undef NS
#undef NP
