// Conversion kernels (tests/kernels/test_cvt.c): int <-> float of every width, f16/bf16 <-> f32,
// f32 <-> f64, saturating conversions written out as OpenCL's convert_*_sat do, and the
// saturating hardware conversions themselves (v_cvt_i32_f32 clamps, NaN -> 0) via inline asm.

#pragma OPENCL EXTENSION cl_khr_fp64 : enable
#pragma OPENCL EXTENSION cl_khr_fp16 : enable

typedef half half2_t __attribute__((ext_vector_type(2)));
typedef short short2_t __attribute__((ext_vector_type(2)));
typedef unsigned short ushort2_t __attribute__((ext_vector_type(2)));

#define GID() (__builtin_amdgcn_workgroup_id_x() * 64u + __builtin_amdgcn_workitem_id_x())

// 1. 32-bit int <-> f32: (float)int and (float)uint round to nearest even; (int)float and
//    (uint)float truncate (inputs in range: out-of-range C casts are undefined).
__kernel void cvt_i32_f32(__global float *f, __global int *iout, __global const int *a,
                          __global const float *b, unsigned n)
{
    unsigned i = GID();
    if (i < n) {
        f[2 * i + 0] = (float)a[i];
        f[2 * i + 1] = (float)(unsigned)a[i];
        float x = b[i];
        iout[2 * i + 0] = (int)x;
        iout[2 * i + 1] = (int)(unsigned)__builtin_fabsf(x);
    }
}

// 2. Saturating f32 -> int: convert_int_sat / convert_uint_sat / convert_uchar_sat_rte /
//    convert_short_sat written out, and the hardware's own clamping (inline v_cvt_i32_f32 and
//    v_cvt_u32_f32: out-of-range values clamp, NaN gives 0).
__kernel void cvt_sat(__global int *out, __global const float *a, unsigned n)
{
    unsigned i = GID();
    if (i < n) {
        float x = a[i];
        int s = x != x ? 0 : x >= 0x1p31f ? 2147483647 : x < -0x1p31f ? (-2147483647 - 1) : (int)x;
        unsigned u = x != x ? 0u : x >= 0x1p32f ? 4294967295u : x <= 0.0f ? 0u : (unsigned)x;
        float r = __builtin_elementwise_rint(x);
        unsigned char c = r != r ? 0 : r >= 255.0f ? 255 : r <= 0.0f ? 0 : (unsigned char)r;
        short sh = x != x ? 0 : x >= 32767.0f ? 32767 : x <= -32768.0f ? -32768 : (short)x;
        int hw_i, hw_u;
        __asm__ volatile("v_cvt_i32_f32 %0, %1" : "=v"(hw_i) : "v"(x));
        __asm__ volatile("v_cvt_u32_f32 %0, %1" : "=v"(hw_u) : "v"(x));
        out[6 * i + 0] = s;
        out[6 * i + 1] = (int)u;
        out[6 * i + 2] = c;
        out[6 * i + 3] = sh;
        out[6 * i + 4] = hw_i;
        out[6 * i + 5] = hw_u;
    }
}

// 3. 64-bit int <-> f32/f64 (software sequences for the wide ones).
__kernel void cvt_i64(__global float *f, __global double *d, __global long *l,
                      __global const long *a, __global const double *b, unsigned n)
{
    unsigned i = GID();
    if (i < n) {
        long x = a[i];
        f[2 * i + 0] = (float)x;
        f[2 * i + 1] = (float)(unsigned long)x;
        d[2 * i + 0] = (double)x;
        d[2 * i + 1] = (double)(unsigned long)x;
        double y = b[i];
        l[3 * i + 0] = (long)y;
        l[3 * i + 1] = (long)(unsigned long)__builtin_fabs(y);
        l[3 * i + 2] = (long)(float)y;
    }
}

// 4. 8- and 16-bit integers: sign/zero extension from memory, to and from f32 and f16,
//    truncation on store.
__kernel void cvt_small_int(__global float *f, __global int *o, __global short *s16,
                            __global char *s8, __global const char *c, __global const short *s,
                            __global const float *x, unsigned n)
{
    unsigned i = GID();
    if (i < n) {
        char ch = c[i];
        short sh = s[i];
        f[4 * i + 0] = (float)ch;
        f[4 * i + 1] = (float)(unsigned char)ch;
        f[4 * i + 2] = (float)sh;
        f[4 * i + 3] = (float)(half)(unsigned short)sh; // u16 -> f16 rounds above 2048
        o[3 * i + 0] = ch + (unsigned char)ch;
        o[3 * i + 1] = sh + (unsigned short)sh;
        o[3 * i + 2] = (short)(half)x[i]; // f16 -> i16 truncates; x in range
        s16[i] = (short)(o[3 * i + 0] * 1000 + sh);
        s8[i] = (char)(sh >> 3);
    }
}

// 5. f32 <-> f16: RNE, overflow to infinity, denormal halves; the RTZ pack v_cvt_pkrtz_f16_f32;
//    f64 -> f16 (one rounding) and f16 -> f64.
__kernel void cvt_f16(__global half *h, __global float *f, __global half2_t *pk,
                      __global const float *a, __global const float *b,
                      __global const double *d, unsigned n)
{
    unsigned i = GID();
    if (i < n) {
        half x = (half)a[i];
        h[2 * i + 0] = x;
        h[2 * i + 1] = (half)d[i];
        f[2 * i + 0] = (float)h[2 * i + 0] * 2.0f; // f16 -> f32 (exact) then a float op
        f[2 * i + 1] = (float)((double)x + d[i]);  // f16 -> f64 exact
        pk[i] = __builtin_amdgcn_cvt_pkrtz(a[i], b[i]);
    }
}

// 6. f32 <-> bf16 through __bf16 casts (gfx950: v_cvt_pk_bf16_f32; gfx942: integer sequence).
__kernel void cvt_bf16(__global __bf16 *o, __global float *f, __global const float *a,
                       __global const __bf16 *b, unsigned n)
{
    unsigned i = GID();
    if (i < n) {
        o[i] = (__bf16)a[i];
        f[i] = (float)b[i] + 1.0f;
    }
}

// 7. f32 <-> f64: widening is exact; narrowing rounds (denormal results, overflow).
__kernel void cvt_f32_f64(__global double *d, __global float *f, __global const float *a,
                          __global const double *b, unsigned n)
{
    unsigned i = GID();
    if (i < n) {
        d[i] = (double)a[i] * 3.0; // exact: 24 + 2 bits
        f[i] = (float)b[i];
    }
}

// 8. Packed saturating int -> i16/u16 (v_cvt_pk_i16_i32, v_cvt_pk_u16_u32).
__kernel void cvt_pk_int16(__global short2_t *s, __global ushort2_t *u, __global const int *a,
                           __global const int *b, unsigned n)
{
    unsigned i = GID();
    if (i < n) {
        s[i] = __builtin_amdgcn_cvt_pk_i16(a[i], b[i]);
        u[i] = __builtin_amdgcn_cvt_pk_u16((unsigned)a[i], (unsigned)b[i]);
    }
}

// 9. f64 -> 32-bit int in hardware (inline v_cvt_i32_f64 / v_cvt_u32_f64: clamp, NaN -> 0),
//    and the C casts for in-range values.
__kernel void cvt_f64_sat(__global int *out, __global const double *a, unsigned n)
{
    unsigned i = GID();
    if (i < n) {
        double x = a[i];
        int hi, hu;
        __asm__ volatile("v_cvt_i32_f64 %0, %1" : "=v"(hi) : "v"(x));
        __asm__ volatile("v_cvt_u32_f64 %0, %1" : "=v"(hu) : "v"(x));
        out[4 * i + 0] = hi;
        out[4 * i + 1] = hu;
        double c = __builtin_fmin(__builtin_fmax(x, -2147483648.0), 2147483647.0);
        out[4 * i + 2] = x == x ? (int)c : 0;
        out[4 * i + 3] = (int)(unsigned)__builtin_fmin(__builtin_fabs(x), 4294967295.0);
    }
}

// 10. Vector conversions between half2 and float2 (SDWA / op_sel on the high halves, packing).
typedef float float2_t __attribute__((ext_vector_type(2)));
__kernel void cvt_half2(__global float2_t *f, __global half2_t *h, __global const half2_t *a,
                        __global const float2_t *b, unsigned n)
{
    unsigned i = GID();
    if (i < n) {
        half2_t x = a[i];
        float2_t y = b[i];
        f[i] = (float2_t)((float)x.y, (float)x.x) * 3.0f; // exact: 11 + 2 bits
        h[i] = (half2_t)((half)y.y, (half)y.x);
    }
}
