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
 *
 * A workgroup of 256 work-items (4 waves in a 2x2 arrangement) computes a 64x64 block of C; each
 * wave computes 32x32 of it (2x2 MFMA tiles of 16x16, or one 32x32 tile).  K advances in steps
 * of 64 bytes per row (32 16-bit or 64 fp8 elements).  Tiles of A and B go through LDS, double
 * buffered: while the waves multiply the tiles in one buffer, the next tiles are already loaded
 * into registers and are written into the other buffer; one barrier per step.
 *
 * MFMA operand layout (CDNA3/CDNA4 ISA, dense MFMA): lane l supplies row (l % TILE) of A and
 * column (l % TILE) of B, holding the OPB/ES consecutive k values that start at
 * (l / TILE) * OPB/ES within the instruction's K.  Results: 16x16 tiles give lane l the column
 * l % 16, rows 4*(l/16) + 0..3; 32x32 tiles give lane l the column l % 32, rows
 * 8*(v/4) + 4*(l/32) + v%4 for v = 0..15. */

kernel void NAME(global const uchar *A, global const uchar *B, global float *C, int M, int N,
                 int K)
{
    local uchar As[2][BM][ROWB];
    local uchar Bs[2][BN][ROWB];
    const int t = __builtin_amdgcn_workitem_id_x();
    const int lane = t & 63, w = t >> 6;
    const int m0 = __builtin_amdgcn_workgroup_id_y() * BM;
    const int n0 = __builtin_amdgcn_workgroup_id_x() * BN;
    const int bk = KB / ES; /* elements of K per step */
    const int ntiles = (K + bk - 1) / bk;
    const int vec = 16 / ES;

    /* This work-item's 16-byte pieces of the A and B tiles. */
    const int ar = t / (KB / 16), ak = (t % (KB / 16)) * vec;
#if TRANSB
    const int br = ar, bkk = ak;
#else
    const int bkr = t / (BN / vec), bn = (t % (BN / vec)) * vec;
#endif
    uint4 ra, rb;
#define LOAD_TILE(kt)                                                                              \
    do {                                                                                           \
        ra = gemm_load16(A, m0 + ar, M, (kt) * bk + ak, K, ES);                                    \
        LOAD_B(kt);                                                                                \
    } while (0)
#if TRANSB
#define LOAD_B(kt) rb = gemm_load16(B, n0 + br, N, (kt) * bk + bkk, K, ES)
#define STORE_B(buf) *(local uint4 *)&Bs[buf][br][bkk * ES] = rb
#else
#define LOAD_B(kt) rb = gemm_load16(B, (kt) * bk + bkr, K, n0 + bn, N, ES)
#define STORE_B(buf) gemm_scatter16(&Bs[buf][bn][bkr * ES], ROWB, rb, ES)
#endif
#define STORE_TILE(buf)                                                                            \
    do {                                                                                           \
        *(local uint4 *)&As[buf][ar][ak * ES] = ra;                                                \
        STORE_B(buf);                                                                              \
    } while (0)

    const int wm = (w >> 1) * 32, wn = (w & 1) * 32;
#if TILE == 16
    float4 acc[2][2] = {{0, 0}, {0, 0}};
#else
    float16 acc = 0;
#endif
    LOAD_TILE(0);
    STORE_TILE(0);
    GEMM_BARRIER();
    for (int kt = 0; kt < ntiles; kt++) {
        const int buf = kt & 1;
        if (kt + 1 < ntiles)
            LOAD_TILE(kt + 1);
        for (int kb = 0; kb < KB; kb += (64 / TILE) * OPB) {
            const int off = kb + (lane / TILE) * OPB;
#if TILE == 16
            OPND a0 = *(local const OPND *)&As[buf][wm + (lane & 15)][off];
            OPND a1 = *(local const OPND *)&As[buf][wm + 16 + (lane & 15)][off];
            OPND b0 = *(local const OPND *)&Bs[buf][wn + (lane & 15)][off];
            OPND b1 = *(local const OPND *)&Bs[buf][wn + 16 + (lane & 15)][off];
            acc[0][0] = MFMA(a0, b0, acc[0][0]);
            acc[0][1] = MFMA(a0, b1, acc[0][1]);
            acc[1][0] = MFMA(a1, b0, acc[1][0]);
            acc[1][1] = MFMA(a1, b1, acc[1][1]);
#else
            OPND a = *(local const OPND *)&As[buf][wm + (lane & 31)][off];
            OPND b = *(local const OPND *)&Bs[buf][wn + (lane & 31)][off];
            acc = MFMA(a, b, acc);
#endif
        }
        if (kt + 1 < ntiles)
            STORE_TILE(buf ^ 1);
        GEMM_BARRIER();
    }

#if TILE == 16
    for (int i = 0; i < 2; i++)
        for (int j = 0; j < 2; j++)
            for (int v = 0; v < 4; v++) {
                int row = m0 + wm + i * 16 + 4 * (lane >> 4) + v;
                int col = n0 + wn + j * 16 + (lane & 15);
                if (row < M && col < N)
                    C[(long)row * N + col] = acc[i][j][v];
            }
#else
    for (int v = 0; v < 16; v++) {
        int row = m0 + wm + 8 * (v >> 2) + 4 * (lane >> 5) + (v & 3);
        int col = n0 + wn + (lane & 31);
        if (row < M && col < N)
            C[(long)row * N + col] = acc[v];
    }
#endif
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
