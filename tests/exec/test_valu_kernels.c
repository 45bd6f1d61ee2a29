/* test_valu_kernels.c - VALU semantics end to end: an OpenCL kernel compiled by clang-22 for
 * gfx950 and gfx942 (64-bit integer division and multiplication sequences, bit counts, shifts,
 * f16/f32/f64 arithmetic, correctly rounded f32 division and sqrt, conversions, selects) runs
 * through the public API, and every result is compared bit for bit with the same expression
 * evaluated by the host C compiler.  Expressions whose C meaning is undefined (out-of-range
 * float-to-integer conversions) are avoided or given the saturating meaning both sides share. */
#include "common/bits.h"
#include "common/util.h"
#include "gfxemu.h"

#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#define N 1024
#define NEXPR 17

static const char *SRC =
    "#pragma OPENCL EXTENSION cl_khr_fp16 : enable\n"
    "#pragma OPENCL EXTENSION cl_khr_fp64 : enable\n"
    "kernel void k2(global const uint *a, global const uint *b, global ulong *o) {\n"
    "  int i = __builtin_amdgcn_workitem_id_x() + __builtin_amdgcn_workgroup_id_x() * 256;\n"
    "  uint x = a[i], y = b[i];\n"
    "  ulong X = ((ulong)x << 32) | y, Y = ((ulong)y << 29) ^ x;\n"
    "  int k = 0;\n"
    "  o[k++ * 1024 + i] = X * Y;\n"
    "  o[k++ * 1024 + i] = X / (Y | 1);\n"
    "  o[k++ * 1024 + i] = (ulong)((long)X % (long)((Y >> 3) | 1));\n"
    "  o[k++ * 1024 + i] = __builtin_popcount(x) + (__builtin_clz(x | 1) << 8) +\n"
    "                      (__builtin_ctz(y | 0x80000000u) << 16);\n"
    "  o[k++ * 1024 + i] = __builtin_bitreverse32(x) ^ ((ulong)__builtin_popcountl(X) << 40);\n"
    "  o[k++ * 1024 + i] = (ulong)(int)((int)x < (int)y ? (int)x : (int)y) + (x > y ? x : y);\n"
    "  o[k++ * 1024 + i] = X >> (y & 63) | (X << (x & 63));\n"
    "  o[k++ * 1024 + i] = (ulong)(long)((long)X >> (y & 63));\n"
    "  float fx = (float)(int)x * 1e-5f, fy = (float)y * 3e-7f;\n"
    "  half hx = (half)(fx * 0.001f), hy = (half)(fy * 0.01f);\n"
    "  half hz = hx * hy + hx;\n"
    "  o[k++ * 1024 + i] = (ulong)__builtin_bit_cast(ushort, hz) |\n"
    "                      ((ulong)__builtin_bit_cast(uint, (float)hz) << 32);\n"
    "  double dx = (double)X * 1e-10, dy = (double)(long)Y;\n"
    "  o[k++ * 1024 + i] = __builtin_bit_cast(ulong, dx * dy + dx);\n"
    "  o[k++ * 1024 + i] = (ulong)(long)(dx / 7.0) ^ (ulong)(uint)(int)fy;\n"
    "  o[k++ * 1024 + i] = (x > y ? x : y * 3u) + (fx < fy ? 1u : 0u);\n"
    "  o[k++ * 1024 + i] = __builtin_bit_cast(uint, __builtin_fmaf(fx, fy, -fx)) |\n"
    "                      ((ulong)__builtin_bit_cast(uint, fx * fy - fx) << 32);\n"
    "  o[k++ * 1024 + i] = (ulong)(uint)(fx * 1000.0f) | ((ulong)(uint)(int)(fy * -1000.0f) << "
    "32);\n"
    "  o[k++ * 1024 + i] = __builtin_bit_cast(ulong, (double)fx / (double)(fy + 1.0f));\n"
    "  o[k++ * 1024 + i] = __builtin_bit_cast(uint, __builtin_sqrtf(fy)) |\n"
    "                      ((ulong)__builtin_bit_cast(uint, (float)__builtin_sqrt((double)fy)) << "
    "32);\n"
    "  o[k++ * 1024 + i] = __builtin_bit_cast(uint, fx / (fy - 0.5f));\n"
    "}\n";

static uint32_t brev(uint32_t v) {
    uint32_t r = 0;
    for (int i = 0; i < 32; i++)
        if ((v >> i) & 1)
            r |= 1u << (31 - i);
    return r;
}
static uint32_t bf(float f) { return bits32(f); }
static uint64_t bd(double f) { return bits64(f); }
/* Round a double to f16 bits once, to nearest even (the value is finite and in f16 range). */
static uint32_t d2h(double v) {
    uint32_t s = signbit(v) ? 0x8000 : 0;
    v = fabs(v);
    if (v >= 65520.0)
        return s | 0x7c00;
    int e;
    frexp(v, &e);
    e = e - 1 < -14 ? -14 : e - 1;
    double q = rint(ldexp(v, 10 - e)); /* units of the f16 spacing at this binade */
    if (q >= 2048) {
        q /= 2;
        e++;
    }
    if (q < 1024) /* denormal (e == -14) */
        return s | (uint32_t)q;
    return s | (uint32_t)(e + 15) << 10 | ((uint32_t)q & 0x3ff);
}
static double h2d(uint32_t h) {
    int e = (h >> 10) & 31, m = h & 0x3ff;
    double v = e == 0 ? ldexp(m, -24) : e == 31 ? (m ? NAN : INFINITY) : ldexp(m | 0x400, e - 25);
    return (h & 0x8000) ? -v : v;
}

static void reference(uint32_t x, uint32_t y, uint64_t *w) {
    uint64_t X = ((uint64_t)x << 32) | y, Y = ((uint64_t)y << 29) ^ x;
    int k = 0;
    w[k++] = X * Y;
    w[k++] = X / (Y | 1);
    w[k++] = (uint64_t)((int64_t)X % (int64_t)((Y >> 3) | 1));
    w[k++] = (uint64_t)__builtin_popcount(x) + ((uint64_t)__builtin_clz(x | 1) << 8) +
             ((uint64_t)__builtin_ctz(y | 0x80000000u) << 16);
    w[k++] = brev(x) ^ ((uint64_t)__builtin_popcountll(X) << 40);
    w[k++] =
        (uint64_t)(int64_t)((int32_t)x < (int32_t)y ? (int32_t)x : (int32_t)y) + (x > y ? x : y);
    w[k++] = X >> (y & 63) | (X << (x & 63));
    w[k++] = (uint64_t)((int64_t)X >> (y & 63));
    float fx = (float)(int32_t)x * 1e-5f, fy = (float)y * 3e-7f;
    uint32_t hx = d2h(fx * 0.001f), hy = d2h(fy * 0.01f);
    uint32_t p = d2h(h2d(hx) * h2d(hy)), hz = d2h(h2d(p) + h2d(hx)); /* f16 mul, then f16 add */
    w[k++] = hz | (uint64_t)bf((float)h2d(hz)) << 32;
    double dx = (double)X * 1e-10, dy = (double)(int64_t)Y, t = dx * dy;
    w[k++] = bd(t + dx);
    w[k++] = (uint64_t)(int64_t)(dx / 7.0) ^ (uint64_t)(uint32_t)(int32_t)fy;
    w[k++] = (x > y ? x : y * 3u) + (fx < fy ? 1u : 0u);
    float m = fx * fy;
    w[k++] = bf(fmaf(fx, fy, -fx)) | (uint64_t)bf(m - fx) << 32;
    float q = fx * 1000.0f; /* v_cvt_u32_f32 saturates: negative -> 0 */
    uint32_t qu = q <= 0 ? 0 : (uint32_t)q;
    w[k++] = qu | (uint64_t)(uint32_t)(int32_t)(fy * -1000.0f) << 32;
    w[k++] = bd((double)fx / (double)(fy + 1.0f));
    w[k++] = bf(sqrtf(fy)) | (uint64_t)bf((float)sqrt((double)fy)) << 32;
    w[k++] = bf(fx / (fy - 0.5f));
}

static int build(const char *arch, const char *src, char *co, size_t cosz) {
    char cmd[2048];
    /* built once, again only when out of date (tests/common/kbuild.sh) */
    snprintf(co, cosz, "%s/test-kernels/valu_kernels-%s.co", test_build_dir(), arch);
    snprintf(cmd, sizeof cmd,
             "bash tests/common/kbuild.sh co %s -x cl -cl-std=CL2.0 -ffp-contract=off "
             "-cl-fp32-correctly-rounded-divide-sqrt -target amdgcn-amd-amdhsa -mcpu=%s -nogpulib "
             "-O2 %s",
             co, arch, src);
    return system(cmd);
}

static int run_arch(const char *arch, const uint32_t *a, const uint32_t *b, const char *src) {
    char co[256], err[256];
    int bad = 0;
    if (build(arch, src, co, sizeof co) != 0) {
        printf("FAIL %s: clang-22/ld.lld-22 could not build the kernel\n", arch);
        return 1;
    }
    gfx_module *m = NULL;
    const gfx_kernel *k = NULL;
    gfx_device *dev = NULL;
    gfx_arch ga;
    uint64_t da = 0, db = 0, dout = 0;
    static uint64_t out[NEXPR * N];
    if (gfx_module_load_file(co, &m, err, sizeof err) != GFX_OK ||
        gfx_module_kernel(m, "k2", &k) != GFX_OK || gfx_arch_from_name(arch, &ga) != GFX_OK ||
        gfx_device_create(ga, 0, &dev) != GFX_OK || gfx_buffer_alloc(dev, 4 * N, &da) != GFX_OK ||
        gfx_buffer_alloc(dev, 4 * N, &db) != GFX_OK ||
        gfx_buffer_alloc(dev, sizeof out, &dout) != GFX_OK) {
        printf("FAIL %s: setup (%s)\n", arch, err);
        bad = 1;
        goto done;
    }
    gfx_memcpy_htod(dev, da, a, 4 * N);
    gfx_memcpy_htod(dev, db, b, 4 * N);
    const void *params[3] = {&da, &db, &dout};
    const uint32_t grid[3] = {N / 256, 1, 1}, block[3] = {256, 1, 1};
    gfx_result r = gfx_launch_params(dev, k, grid, block, params, 3, NULL, NULL);
    if (r != GFX_OK) {
        printf("FAIL %s: launch: %s\n", arch, gfx_result_str(r));
        bad = 1;
        goto done;
    }
    gfx_memcpy_dtoh(dev, out, dout, sizeof out);
    for (int i = 0; i < N; i++) {
        uint64_t w[NEXPR];
        reference(a[i], b[i], w);
        for (int e = 0; e < NEXPR; e++)
            if (out[e * N + i] != w[e] && bad++ < 10)
                printf("FAIL %s lane %d (x=0x%08x y=0x%08x) expression %d: 0x%016llx, want "
                       "0x%016llx\n",
                       arch, i, a[i], b[i], e, (unsigned long long)out[e * N + i],
                       (unsigned long long)w[e]);
    }
done:
    gfx_device_free(dev);
    gfx_module_free(m);
    return bad;
}

int main(void) {
    static uint32_t a[N], b[N];
    uint64_t s = 0x9e3779b97f4a7c15ull;
    for (int i = 0; i < N; i++) { /* xorshift: fixed pseudo-random operands */
        s ^= s << 13, s ^= s >> 7, s ^= s << 17;
        a[i] = (uint32_t)s;
        b[i] = (uint32_t)(s >> 32);
    }
    a[0] = b[0] = 0;
    a[1] = b[1] = 0xffffffff;
    a[2] = 0x80000000, b[2] = 1;
    char src[600];
    if (test_write_source("valu_kernels.cl", SRC, src, sizeof src) != 0)
        return 1;
    int bad = run_arch("gfx950", a, b, src) + run_arch("gfx942", a, b, src);
    printf("valu kernels: %d expressions x %d lanes x 2 targets, %d mismatches\n", NEXPR, N, bad);
    return bad != 0;
}
