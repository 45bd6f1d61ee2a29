// Directed rounding set from the kernel (tests/kernels/test_round_kernel.c): the rounding mode
// goes into MODE[3:0] with __builtin_amdgcn_s_setreg (hwreg(HW_REG_MODE, 0, 4): id 1, offset 0,
// size 4 -> 0x1801) or with __builtin_set_flt_rounds (llvm.set.rounding), is read back with
// __builtin_flt_rounds (llvm.get.rounding: s_getreg), and the arithmetic after it rounds that way.

#pragma OPENCL EXTENSION cl_khr_fp16 : enable

#define GID() (__builtin_amdgcn_workgroup_id_x() * 64u + __builtin_amdgcn_workitem_id_x())

// mode: the FP_ROUND field value (0 nearest, 1 +inf, 2 -inf, 3 zero), set for f32 and f64/f16
// (readfirstlane: s_setreg takes an SGPR, which clang -O0 does not guarantee otherwise).
__kernel void round_setreg(__global float *out, __global double *outd, __global ushort *outh,
                           __global int *modes, __global const float *a, __global const float *b,
                           __global const float *c, __global const double *da,
                           __global const double *db, unsigned mode, unsigned n)
{
    unsigned i = GID();
    __builtin_amdgcn_s_setreg(0x1801, __builtin_amdgcn_readfirstlane(mode * 5u));
    if (i < n) {
        float x = a[i], y = b[i], z = c[i];
        out[4 * i + 0] = x + y;
        out[4 * i + 1] = x * y;
        out[4 * i + 2] = __builtin_fmaf(x, y, z);
        out[4 * i + 3] = x - y;
        outd[2 * i + 0] = da[i] + db[i];
        outd[2 * i + 1] = da[i] * db[i];
        outh[i] = as_ushort((half)x);
        modes[i] = __builtin_flt_rounds();
    }
}

// flt: the C FLT_ROUNDS value (0 toward zero, 1 nearest, 2 +inf, 3 -inf) through llvm.set.rounding.
__kernel void round_flt(__global float *out, __global int *modes, __global const float *a,
                        __global const float *b, int flt, unsigned n)
{
    unsigned i = GID();
    __builtin_set_flt_rounds(flt);
    if (i < n) {
        out[i] = a[i] + b[i];
        modes[i] = __builtin_flt_rounds();
    }
}

// No mode change: every wave starts with the descriptor's mode (nearest), whatever the waves of
// an earlier launch, or earlier waves of this one, left in MODE.
__kernel void round_none(__global float *out, __global int *modes, __global const float *a,
                         __global const float *b, unsigned n)
{
    unsigned i = GID();
    if (i < n) {
        out[i] = a[i] + b[i];
        modes[i] = __builtin_flt_rounds();
    }
}

// v_exp_f32 has no directed-rounding model: the launch faults, naming the mode.
__kernel void round_exp(__global float *out, __global const float *a)
{
    unsigned i = GID();
    __builtin_set_flt_rounds(3); // toward -inf
    out[i] = __builtin_amdgcn_exp2f(a[i]);
}
