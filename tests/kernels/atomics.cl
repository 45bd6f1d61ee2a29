// Global atomics contended by many workgroups, and 2D/3D grids whose problem size is not a
// multiple of the block (tests/kernels/test_atomics.c).  At -O1/-O3 LLVM's atomic optimizer
// turns a wave's atomics on one address into a DPP/readlane reduction plus one atomic.

#pragma OPENCL EXTENSION cl_khr_fp64 : enable

#define GID() (__builtin_amdgcn_workgroup_id_x() * 256u + __builtin_amdgcn_workitem_id_x())
#define RELAXED __ATOMIC_RELAXED

// 1. 32-bit: add (with tickets: every returned old value is distinct), sub, signed and unsigned
//    min/max, and, or, xor, exchange (old values and the final value are a permutation of the
//    initial value and the inputs), all on a handful of addresses shared by every workgroup.
__kernel void atomics_i32(__global int *c, __global unsigned *tickets, __global int *olds,
                          __global const int *v)
{
    unsigned i = GID();
    int x = v[i];
    tickets[i] = __atomic_fetch_add((__global unsigned *)&c[0], 1u, RELAXED);
    __atomic_fetch_sub(&c[1], x, RELAXED);
    __atomic_fetch_min(&c[2], x, RELAXED);
    __atomic_fetch_max(&c[3], x, RELAXED);
    __atomic_fetch_min((__global unsigned *)&c[4], (unsigned)x, RELAXED);
    __atomic_fetch_max((__global unsigned *)&c[5], (unsigned)x, RELAXED);
    __atomic_fetch_and(&c[6], x | (1 << (i & 31)), RELAXED);
    __atomic_fetch_or(&c[7], x & (1 << (i & 31)), RELAXED);
    __atomic_fetch_xor(&c[8], x, RELAXED);
    __atomic_fetch_add(&c[9 + (x & 7)], x >> 8, RELAXED); // eight more counters
    olds[i] = __atomic_exchange_n(&c[17], x, RELAXED);
}

// 2. 64-bit: add, signed/unsigned min/max, and exchange (the returned old values and the final
//    value are together a permutation of the initial value and every input).
__kernel void atomics_i64(__global long *c, __global long *olds, __global const long *v)
{
    unsigned i = GID();
    long x = v[i];
    __atomic_fetch_add(&c[0], x, RELAXED);
    __atomic_fetch_min(&c[1], x, RELAXED);
    __atomic_fetch_max(&c[2], x, RELAXED);
    __atomic_fetch_min((__global unsigned long *)&c[3], (unsigned long)x, RELAXED);
    __atomic_fetch_max((__global unsigned long *)&c[4], (unsigned long)x, RELAXED);
    olds[i] = __atomic_exchange_n(&c[5], x, RELAXED);
    __atomic_fetch_xor(&c[6], x, RELAXED);
}

// 3. Compare-and-swap loops: a 32-bit product modulo a prime and a 64-bit float maximum, both
//    order-independent; the 32-bit CAS counts its retries.  The loops start from a guess, not
//    from a plain load of the location (which would race with the other workgroups' atomics):
//    a failed CAS returns the current value.
__kernel void atomics_cas(__global unsigned *prod, __global double *fmax,
                          __global unsigned *retries, __global const unsigned *v,
                          __global const double *d)
{
    unsigned i = GID();
    unsigned old = 1, tries = 0;
    for (;;) {
        unsigned want = (unsigned)(((unsigned long)old * v[i]) % 2147483647u);
        if (__atomic_compare_exchange_n(prod, &old, want, 0, RELAXED, RELAXED))
            break;
        tries++;
    }
    __atomic_fetch_add(retries, tries, RELAXED);
    __global long *fm = (__global long *)fmax;
    long cur = __builtin_bit_cast(long, -__builtin_inf());
    for (;;) {
        double c = __builtin_bit_cast(double, cur);
        if (c >= d[i])
            break;
        if (__atomic_compare_exchange_n(fm, &cur, __builtin_bit_cast(long, d[i]), 0, RELAXED, RELAXED))
            break;
    }
}

// 4. Floating-point atomic add, f32 and f64 (global_atomic_add_f32/f64).  The inputs are small
//    integers times a power of two, so every order of summation gives the same exact sum.
__kernel void atomics_fadd(__global float *f, __global double *d, __global const float *v)
{
    unsigned i = GID();
    __atomic_fetch_add(&f[i & 3], v[i], RELAXED);
    __scoped_atomic_fetch_add(&d[i & 1], (double)v[i] * 0x1p-20, RELAXED, __MEMORY_SCOPE_DEVICE);
}

// 5. A 2D problem of w x h with 16x8 blocks (two waves): the grid is rounded up, so the last
//    column and row of workgroups are partly outside and their work-items do nothing.  The
//    element (0,0) also reports what the hidden arguments and the dispatch packet say.
__kernel void grid2d_partial(__global int *out, __global unsigned *info, unsigned w, unsigned h)
{
    unsigned x = __builtin_amdgcn_workgroup_id_x() * 16 + __builtin_amdgcn_workitem_id_x();
    unsigned y = __builtin_amdgcn_workgroup_id_y() * 8 + __builtin_amdgcn_workitem_id_y();
    if (x == 0 && y == 0) {
        __constant unsigned *ia = (__constant unsigned *)__builtin_amdgcn_implicitarg_ptr();
        __constant unsigned short *ias = (__constant unsigned short *)ia;
        __constant unsigned char *dp = (__constant unsigned char *)__builtin_amdgcn_dispatch_ptr();
        info[0] = ia[0]; // hidden_block_count_x
        info[1] = ia[1]; // hidden_block_count_y
        info[2] = ias[6]; // hidden_group_size_x
        info[3] = ias[7]; // hidden_group_size_y
        info[4] = ias[32]; // hidden_grid_dims (offset 64)
        info[5] = *(__constant unsigned *)(dp + 12); // grid_size_x in work-items
        info[6] = *(__constant unsigned *)(dp + 16); // grid_size_y
        info[7] = *(__constant unsigned short *)(dp + 4); // workgroup_size_x
    }
    if (x < w && y < h)
        out[y * w + x] = (int)(x * 1000 + y);
}

// 6. A 3D problem with 5x3x2 blocks (30 work-items: one partial wave per workgroup) whose size
//    is not a multiple of the block in any dimension.
__kernel void grid3d_partial(__global int *out, unsigned X, unsigned Y, unsigned Z)
{
    unsigned x = __builtin_amdgcn_workgroup_id_x() * 5 + __builtin_amdgcn_workitem_id_x();
    unsigned y = __builtin_amdgcn_workgroup_id_y() * 3 + __builtin_amdgcn_workitem_id_y();
    unsigned z = __builtin_amdgcn_workgroup_id_z() * 2 + __builtin_amdgcn_workitem_id_z();
    if (x < X && y < Y && z < Z)
        out[(z * Y + y) * X + x] = (int)(x | y << 8 | z << 16);
}

// 7. Many small workgroups: a grid of gx x gy x gz one-work-item workgroups, each writing its
//    ids and the grid size from the hidden arguments into its own slot.
__kernel void wg_ids(__global unsigned *out)
{
    __constant unsigned *ia = (__constant unsigned *)__builtin_amdgcn_implicitarg_ptr();
    unsigned x = __builtin_amdgcn_workgroup_id_x(), y = __builtin_amdgcn_workgroup_id_y(),
             z = __builtin_amdgcn_workgroup_id_z();
    unsigned flat = (z * ia[1] + y) * ia[0] + x;
    out[2 * flat] = x | y << 12 | z << 24;
    out[2 * flat + 1] = ia[0] * ia[1] * ia[2];
}

// 8. More floating-point atomics: f64 min/max (global_atomic_min/max_f64), an f32 min (a CAS
//    loop in clang-22), packed f16 add (global_atomic_pk_add_f16) and LDS f32 add (ds_add_f32).
//    The f16 and f32 sums are of small integers and halves, exact in any order.  The CAS loop
//    starts with a plain load that races with the other workgroups' atomics (legal on a GPU);
//    gfxemu does plain global accesses as relaxed host atomics, so `make check-tsan` runs it.
//    Not on RDNA (test_atomics.c leaves it out there): gfx11/gfx12 have no packed f16 global
//    atomic add builtin.
#if !defined(__GFX11__) && !defined(__GFX12__)
#pragma OPENCL EXTENSION cl_khr_fp16 : enable
typedef half half2_t __attribute__((ext_vector_type(2)));
__kernel void atomics_fminmax(__global double *d, __global float *f, __global half2_t *h,
                              __global float *wg_sums, __global const double *v)
{
    __local float lsum[4];
    unsigned i = GID(), l = __builtin_amdgcn_workitem_id_x();
    if (l < 4)
        lsum[l] = 0.0f;
    __builtin_amdgcn_fence(__ATOMIC_RELEASE, "workgroup");
    __builtin_amdgcn_s_barrier();
    __builtin_amdgcn_fence(__ATOMIC_ACQUIRE, "workgroup");
    double x = v[i];
    __atomic_fetch_min(&d[0], x, RELAXED);
    __atomic_fetch_max(&d[1], x, RELAXED);
    __atomic_fetch_min(&f[0], (float)x, RELAXED);
    __builtin_amdgcn_global_atomic_fadd_v2f16(&h[i & 63], (half2_t)((half)1.0f, (half)0.5f));
    __atomic_fetch_add(&lsum[l & 3], (float)(int)(x * 0x1p-44), RELAXED);
    __builtin_amdgcn_fence(__ATOMIC_RELEASE, "workgroup");
    __builtin_amdgcn_s_barrier();
    __builtin_amdgcn_fence(__ATOMIC_ACQUIRE, "workgroup");
    if (l < 4)
        wg_sums[__builtin_amdgcn_workgroup_id_x() * 4 + l] = lsum[l];
}
#endif
