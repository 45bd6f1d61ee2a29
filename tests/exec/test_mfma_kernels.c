/* test_mfma_kernels.c - matrix instructions end to end: OpenCL kernels compiled by clang-22 call
 * the MFMA builtins with operands each lane loads by the documented layout (AMD's matrix
 * instruction calculator / the ISA manuals' tables), run through the public API, and the
 * matrices they store must equal a plain host GEMM.  The inputs are small integers times powers
 * of two, so every sum is exact and the comparison is exact whatever the accumulation order:
 * what is checked is the layout (where each A/B/C/D element lives) and the scale selection.
 *
 *   f16 16x16x16  (all three)      A[i][k]: lane i + 16*(k/4), half k%4;  D[i][j]: lane
 *                                   j + 16*(i/4), register i%4
 *   bf16 32x32x8  (all three; _1k)  A[i][k]: lane i + 32*(k/4), element k%4;  D[i][j]: lane
 *                                   j + 32*((i/4)%2), register 4*(i/8) + i%4
 *   fp8 16x16x32  (gfx950 OCP, gfx942 FNUZ)  A[i][k]: lane i + 16*(k/8), byte k%8
 *   f64 16x16x4   (all three)       A[i][k]: lane i + 16*k;  D[i][j]: lane j + 16*(i%4),
 *                                   register pair i/4
 *   bf16 32x32x4  (gfx90a, two bf16 per VGPR)  A[i][k]: lane i + 32*(k/2), element k%2
 *   scaled fp8 16x16x128 (gfx950)   A[i][k]: byte e of lane i + 16*g where k = 64*(e/16) +
 *                                   16*g + e%16 (two runs of 16 k); the E8M0 scale of row i,
 *                                   K block k/32 sits in lane i + 16*(k/32), byte picked by
 *                                   op_sel (2 for A, 1 for B here) */
#include "common/util.h"
#include "exec/fpfmt.h"
#include "gfxemu.h"

#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

static const char *SRC =
    "#pragma OPENCL EXTENSION cl_khr_fp16 : enable\n"
    "typedef half half4 __attribute__((ext_vector_type(4)));\n"
    "typedef short short4_ __attribute__((ext_vector_type(4)));\n"
    "typedef float float4_ __attribute__((ext_vector_type(4)));\n"
    "typedef float float16_ __attribute__((ext_vector_type(16)));\n"
    "typedef int int8_ __attribute__((ext_vector_type(8)));\n"
    "kernel void f16(global const half *a, global const half *b, global float *d) {\n"
    "  int l = __builtin_amdgcn_workitem_id_x();\n"
    "  half4 av, bv;\n"
    "  for (int e = 0; e < 4; e++) {\n"
    "    av[e] = a[(l % 16) * 16 + 4 * (l / 16) + e];\n" /* A row-major 16x16 */
    "    bv[e] = b[(4 * (l / 16) + e) * 16 + l % 16];\n" /* B row-major 16x16 (k, j) */
    "  }\n"
    "  float4_ c = {0, 0, 0, 0};\n"
    "  c = __builtin_amdgcn_mfma_f32_16x16x16f16(av, bv, c, 0, 0, 0);\n"
    "  for (int r = 0; r < 4; r++) d[(4 * (l / 16) + r) * 16 + l % 16] = c[r];\n"
    "}\n"
    "kernel void bf16(global const short *a, global const short *b, global const float *cin,\n"
    "                 global float *d) {\n"
    "  int l = __builtin_amdgcn_workitem_id_x();\n"
    "  short4_ av, bv;\n"
    "  for (int e = 0; e < 4; e++) {\n"
    "    av[e] = a[(l % 32) * 8 + 4 * (l / 32) + e];\n"
    "    bv[e] = b[(4 * (l / 32) + e) * 32 + l % 32];\n"
    "  }\n"
    "  float16_ c;\n"
    "  for (int r = 0; r < 16; r++) c[r] = cin[(8 * (r / 4) + 4 * (l / 32) + r % 4) * 32 + l % "
    "32];\n"
    "  c = __builtin_amdgcn_mfma_f32_32x32x8bf16_1k(av, bv, c, 0, 0, 0);\n"
    "  for (int r = 0; r < 16; r++) d[(8 * (r / 4) + 4 * (l / 32) + r % 4) * 32 + l % 32] = c[r];\n"
    "}\n"
    "typedef double double4_ __attribute__((ext_vector_type(4)));\n"
    "typedef short short2_ __attribute__((ext_vector_type(2)));\n"
    "kernel void f64(global const double *a, global const double *b, global const double *cin,\n"
    "                global double *d) {\n"
    "  int l = __builtin_amdgcn_workitem_id_x();\n"
    "  double av = a[(l % 16) * 4 + l / 16], bv = b[(l / 16) * 16 + l % 16];\n"
    "  double4_ c;\n"
    "  for (int r = 0; r < 4; r++) c[r] = cin[(4 * r + l / 16) * 16 + l % 16];\n"
    "  c = __builtin_amdgcn_mfma_f64_16x16x4f64(av, bv, c, 0, 0, 0);\n"
    "  for (int r = 0; r < 4; r++) d[(4 * r + l / 16) * 16 + l % 16] = c[r];\n"
    "}\n"
    "#ifdef GFX90A\n"
    "kernel void bf16x2(global const short *a, global const short *b, global float *d) {\n"
    "  int l = __builtin_amdgcn_workitem_id_x();\n"
    "  short2_ av, bv;\n"
    "  for (int e = 0; e < 2; e++) {\n"
    "    av[e] = a[(l % 32) * 4 + 2 * (l / 32) + e];\n"
    "    bv[e] = b[(2 * (l / 32) + e) * 32 + l % 32];\n"
    "  }\n"
    "  float16_ c = 0;\n"
    "  c = __builtin_amdgcn_mfma_f32_32x32x4bf16(av, bv, c, 0, 0, 0);\n"
    "  for (int r = 0; r < 16; r++) d[(8 * (r / 4) + 4 * (l / 32) + r % 4) * 32 + l % 32] = c[r];\n"
    "}\n"
    "#else\n"
    "kernel void fp8(global const uchar *a, global const uchar *b, global float *d) {\n"
    "  int l = __builtin_amdgcn_workitem_id_x();\n"
    "  ulong x = 0, y = 0;\n"
    "  for (int e = 0; e < 8; e++) {\n"
    "    x |= (ulong)a[(l % 16) * 32 + 8 * (l / 16) + e] << (8 * e);\n"
    "    y |= (ulong)b[(8 * (l / 16) + e) * 16 + l % 16] << (8 * e);\n"
    "  }\n"
    "  float4_ c = {0, 0, 0, 0};\n"
    "  c = __builtin_amdgcn_mfma_f32_16x16x32_fp8_fp8((long)x, (long)y, c, 0, 0, 0);\n"
    "  for (int r = 0; r < 4; r++) d[(4 * (l / 16) + r) * 16 + l % 16] = c[r];\n"
    "}\n"
    "#endif\n"
    "#ifdef GFX950\n"
    "kernel void sc(global const uchar *a, global const uchar *b, global const int *sa,\n"
    "               global const int *sb, global float *d) {\n"
    "  int l = __builtin_amdgcn_workitem_id_x();\n"
    "  int8_ av, bv;\n"
    "  for (int r = 0; r < 8; r++) {\n"
    "    uint x = 0, y = 0;\n"
    "    for (int q = 0; q < 4; q++) {\n"
    "      int e = 4 * r + q, k = 64 * (e / 16) + 16 * (l / 16) + e % 16;\n"
    "      x |= (uint)a[(l % 16) * 128 + k] << (8 * q);\n"
    "      y |= (uint)b[k * 16 + l % 16] << (8 * q);\n"
    "    }\n"
    "    av[r] = x; bv[r] = y;\n"
    "  }\n"
    "  float4_ c = {0, 0, 0, 0};\n"
    "  c = __builtin_amdgcn_mfma_scale_f32_16x16x128_f8f6f4(av, bv, c, 0, 0, 2, sa[l], 1, sb[l]);\n"
    "  for (int r = 0; r < 4; r++) d[(4 * (l / 16) + r) * 16 + l % 16] = c[r];\n"
    "}\n"
    "#endif\n";

static int fails;
#define FAIL(...)                                                                                  \
    do {                                                                                           \
        if (fails++ < 12)                                                                          \
            printf("FAIL " __VA_ARGS__);                                                           \
    } while (0)

static uint64_t rs = 0x2545f4914f6cdd1dull;
static int rnd(int n) {
    rs ^= rs << 13, rs ^= rs >> 7, rs ^= rs << 17;
    return (int)(rs % (uint64_t)n);
}

static uint16_t to_f16(float f) { return (uint16_t)fpf_encode(f, FPF_F16, 0); }
static uint16_t to_bf16(float f) {
    uint32_t u;
    memcpy(&u, &f, 4);
    return (uint16_t)(u >> 16); /* the values used are exact in bf16 */
}

static uint64_t up(gfx_device *dev, const void *p, size_t n) {
    uint64_t a = 0;
    if (gfx_buffer_alloc(dev, n, &a) != GFX_OK) {
        printf("FAIL: buffer alloc\n");
        exit(1);
    }
    if (p)
        gfx_memcpy_htod(dev, a, p, n);
    return a;
}

static int launch(gfx_device *dev, gfx_module *m, const char *name, const void *const *params,
                  size_t n) {
    const gfx_kernel *k;
    const uint32_t grid[3] = {1, 1, 1}, block[3] = {64, 1, 1};
    if (gfx_module_kernel(m, name, &k) != GFX_OK) {
        FAIL("kernel %s not found\n", name);
        return -1;
    }
    gfx_result r = gfx_launch_params(dev, k, grid, block, params, n, NULL, NULL);
    if (r != GFX_OK) {
        FAIL("%s: launch: %s\n", name, gfx_result_str(r));
        return -1;
    }
    return 0;
}

static void check(const char *arch, const char *what, const float *got, const float *want, int n) {
    for (int e = 0; e < n; e++)
        if (got[e] != want[e])
            FAIL("%s %s: element %d (row %d) = %g, host GEMM %g\n", arch, what, e, e / 16, got[e],
                 want[e]);
}

/* Run kernel `name` on A (a, na bytes) and B (b, nb bytes) into n floats of D, and compare D
 * with the host GEMM R (what: the MFMA op, for the messages). */
static void run_ab(gfx_device *dev, gfx_module *m, const char *arch, const char *name,
                   const char *what, const void *a, size_t na, const void *b, size_t nb,
                   const float *R, int n) {
    float D[1024];
    uint64_t da = up(dev, a, na), db = up(dev, b, nb), dd = up(dev, NULL, n * sizeof(float));
    const void *p[3] = {&da, &db, &dd};
    if (launch(dev, m, name, p, 3) == 0) {
        gfx_memcpy_dtoh(dev, D, dd, n * sizeof(float));
        check(arch, what, D, R, n);
    }
}

static void t_f16(gfx_device *dev, gfx_module *m, const char *arch) {
    float A[256], B[256], R[256] = {0};
    uint16_t ha[256], hb[256];
    for (int e = 0; e < 256; e++) {
        A[e] = (float)(rnd(17) - 8) * 0.25f;
        B[e] = (float)(rnd(17) - 8) * 0.5f;
        ha[e] = to_f16(A[e]);
        hb[e] = to_f16(B[e]);
    }
    for (int i = 0; i < 16; i++)
        for (int j = 0; j < 16; j++)
            for (int k = 0; k < 16; k++)
                R[i * 16 + j] += A[i * 16 + k] * B[k * 16 + j];
    run_ab(dev, m, arch, "f16", "v_mfma_f32_16x16x16_f16", ha, sizeof ha, hb, sizeof hb, R, 256);
}

static void t_bf16(gfx_device *dev, gfx_module *m, const char *arch) {
    static float A[256], B[256], C[1024], D[1024], R[1024];
    uint16_t ha[256], hb[256];
    for (int e = 0; e < 256; e++) {
        A[e] = (float)(rnd(33) - 16) * 0.125f;
        B[e] = (float)(rnd(33) - 16);
        ha[e] = to_bf16(A[e]);
        hb[e] = to_bf16(B[e]);
    }
    for (int e = 0; e < 1024; e++)
        C[e] = R[e] = (float)(rnd(2001) - 1000);
    for (int i = 0; i < 32; i++)
        for (int j = 0; j < 32; j++)
            for (int k = 0; k < 8; k++)
                R[i * 32 + j] += A[i * 8 + k] * B[k * 32 + j];
    uint64_t da = up(dev, ha, sizeof ha), db = up(dev, hb, sizeof hb), dc = up(dev, C, sizeof C),
             dd = up(dev, NULL, sizeof D);
    const void *p[4] = {&da, &db, &dc, &dd};
    if (launch(dev, m, "bf16", p, 4) == 0) {
        gfx_memcpy_dtoh(dev, D, dd, sizeof D);
        check(arch, "v_mfma_f32_32x32x8_bf16", D, R, 1024);
    }
}

/* f64 16x16x4 (gfx90a and later): A[i][k] in lane i + 16*k, B[k][j] in lane j + 16*k, C/D[i][j]
 * in lane j + 16*(i%4), register pair i/4. */
static void t_f64(gfx_device *dev, gfx_module *m, const char *arch) {
    static double A[64], B[64], C[256], D[256], R[256];
    for (int e = 0; e < 64; e++) {
        A[e] = (double)(rnd(2001) - 1000) * 0x1p-20;
        B[e] = (double)(rnd(2001) - 1000) * 0x1p+30;
    }
    for (int e = 0; e < 256; e++)
        C[e] = R[e] = (double)(rnd(2001) - 1000) * 0x1p+10;
    for (int i = 0; i < 16; i++)
        for (int j = 0; j < 16; j++)
            for (int k = 0; k < 4; k++)
                R[i * 16 + j] += A[i * 4 + k] * B[k * 16 + j];
    uint64_t da = up(dev, A, sizeof A), db = up(dev, B, sizeof B), dc = up(dev, C, sizeof C),
             dd = up(dev, NULL, sizeof D);
    const void *p[4] = {&da, &db, &dc, &dd};
    if (launch(dev, m, "f64", p, 4) == 0) {
        gfx_memcpy_dtoh(dev, D, dd, sizeof D);
        for (int e = 0; e < 256; e++)
            if (D[e] != R[e])
                FAIL("%s v_mfma_f64_16x16x4f64: element %d (row %d) = %.17g, host GEMM %.17g\n",
                     arch, e, e / 16, D[e], R[e]);
    }
}

/* gfx90a's bf16 32x32x4 without _1k: two bf16 per lane, A[i][k] in lane i + 32*(k/2), element
 * k%2; D as for 32x32x8. */
static void t_bf16x2(gfx_device *dev, gfx_module *m, const char *arch) {
    static float A[128], B[128], R[1024];
    uint16_t ha[128], hb[128];
    for (int e = 0; e < 128; e++) {
        A[e] = (float)(rnd(33) - 16) * 0.25f;
        B[e] = (float)(rnd(33) - 16);
        ha[e] = to_bf16(A[e]);
        hb[e] = to_bf16(B[e]);
    }
    memset(R, 0, sizeof R);
    for (int i = 0; i < 32; i++)
        for (int j = 0; j < 32; j++)
            for (int k = 0; k < 4; k++)
                R[i * 32 + j] += A[i * 4 + k] * B[k * 32 + j];
    run_ab(dev, m, arch, "bf16x2", "v_mfma_f32_32x32x4bf16", ha, sizeof ha, hb, sizeof hb, R, 1024);
}

/* fp8 16x16x32: the same byte codes mean OCP E4M3 values on gfx950 and FNUZ E4M3 values (bias
 * 8, 0x80 NaN) on gfx942; codes whose values are small integers times powers of two. */
static void t_fp8(gfx_device *dev, gfx_module *m, const char *arch) {
    static const uint8_t codes[8] = {0x38, 0x40, 0x30, 0xb8, 0xc0, 0x00, 0x44, 0x3c};
    const fpf_format *f = strcmp(arch, "gfx950") ? FPF_FP8_FNUZ : FPF_FP8_OCP;
    uint8_t a[16 * 32], b[32 * 16];
    float R[256] = {0};
    for (int e = 0; e < 512; e++) {
        a[e] = codes[rnd(8)];
        b[e] = codes[rnd(8)];
    }
    for (int i = 0; i < 16; i++)
        for (int j = 0; j < 16; j++)
            for (int k = 0; k < 32; k++)
                R[i * 16 + j] += fpf_decode(a[i * 32 + k], f) * fpf_decode(b[k * 16 + j], f);
    run_ab(dev, m, arch, "fp8", "v_mfma_f32_16x16x32_fp8_fp8", a, sizeof a, b, sizeof b, R, 256);
}

/* Scaled fp8 (OCP E4M3) 16x16x128: lane l's A scale byte 2 and B scale byte 1 are used. */
static void t_scaled(gfx_device *dev, gfx_module *m, const char *arch) {
    static const uint8_t codes[8] = {0x38, 0x40, 0x30, 0xb8, 0xc0, 0x00, 0x44, 0xbc};
    static uint8_t a[16 * 128], b[128 * 16];
    int32_t sa[64], sb[64];
    float R[256] = {0}, D[256];
    for (int e = 0; e < 16 * 128; e++) {
        a[e] = codes[rnd(8)];
        b[e] = codes[rnd(8)];
    }
    for (int l = 0; l < 64; l++) { /* the unused bytes hold scales that would change the result */
        sa[l] = (int32_t)(0x7c000080u | (uint32_t)(125 + rnd(5)) << 16);
        sb[l] = (int32_t)(0x8000007eu | (uint32_t)(125 + rnd(5)) << 8);
    }
    for (int i = 0; i < 16; i++)
        for (int j = 0; j < 16; j++)
            for (int k = 0; k < 128; k++) {
                int la = i + 16 * (k / 32), lb = j + 16 * (k / 32); /* scale lanes */
                float s = ldexpf(1.0f, (((uint32_t)sa[la] >> 16) & 0xff) - 127 +
                                           (((uint32_t)sb[lb] >> 8) & 0xff) - 127);
                R[i * 16 + j] += fpf_decode(a[i * 128 + k], FPF_FP8_OCP) *
                                 fpf_decode(b[k * 16 + j], FPF_FP8_OCP) * s;
            }
    uint64_t da = up(dev, a, sizeof a), db = up(dev, b, sizeof b), dsa = up(dev, sa, sizeof sa),
             dsb = up(dev, sb, sizeof sb), dd = up(dev, NULL, sizeof D);
    const void *p[5] = {&da, &db, &dsa, &dsb, &dd};
    if (launch(dev, m, "sc", p, 5) == 0) {
        gfx_memcpy_dtoh(dev, D, dd, sizeof D);
        check(arch, "v_mfma_scale_f32_16x16x128_f8f6f4", D, R, 256);
    }
}

static void run_arch(const char *arch, const char *src) {
    char co[600], cmd[2048], err[256];
    /* built once, again only when out of date (tests/common/kbuild.sh) */
    snprintf(co, sizeof co, "%s/test-kernels/mfma_kernels-%s.co", test_build_dir(), arch);
    snprintf(cmd, sizeof cmd,
             "bash tests/common/kbuild.sh co %s -x cl -cl-std=CL2.0 -target amdgcn-amd-amdhsa "
             "-mcpu=%s -nogpulib -O2 %s %s",
             co, arch,
             !strcmp(arch, "gfx950")   ? "-DGFX950"
             : !strcmp(arch, "gfx90a") ? "-DGFX90A"
                                       : "",
             src);
    if (system(cmd) != 0) {
        FAIL("%s: clang-22/ld.lld-22 could not build the kernels\n", arch);
        return;
    }
    gfx_module *m = NULL;
    gfx_device *dev = NULL;
    gfx_arch ga;
    if (gfx_module_load_file(co, &m, err, sizeof err) != GFX_OK ||
        gfx_arch_from_name(arch, &ga) != GFX_OK || gfx_device_create(ga, 0, &dev) != GFX_OK) {
        FAIL("%s: setup (%s)\n", arch, err);
    } else {
        t_f16(dev, m, arch);
        t_bf16(dev, m, arch);
        t_f64(dev, m, arch);
        if (strcmp(arch, "gfx90a")) /* CDNA2 has no fp8 */
            t_fp8(dev, m, arch);
        else
            t_bf16x2(dev, m, arch);
        if (!strcmp(arch, "gfx950"))
            t_scaled(dev, m, arch);
    }
    gfx_device_free(dev);
    gfx_module_free(m);
}

int main(void) {
    char src[600];
    if (test_write_source("mfma_kernels.cl", SRC, src, sizeof src) != 0)
        return 1;
    run_arch("gfx950", src);
    run_arch("gfx942", src);
    run_arch("gfx90a", src);
    printf("test_mfma_kernels: %d failures\n", fails);
    return fails != 0;
}
