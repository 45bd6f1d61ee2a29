/* gfxemu/opencl.h - OpenCL C work-item, synchronisation and atomic functions for AMDGPU kernels
 * compiled without ROCm's device libraries:
 *
 *   clang-22 -x cl -cl-std=CL2.0 -target amdgcn-amd-amdhsa -mcpu=gfx950 -nogpulib \
 *       -include gfxemu/opencl.h -O2 -c k.cl -o k.o && ld.lld-22 -shared k.o -o k.co
 *
 * clang declares OpenCL's built-in functions (get_global_id, barrier, atomic_add, ...) but, with
 * -nogpulib, nothing defines them: the code object would call undefined symbols.  This header
 * defines the common ones on clang's AMDGPU builtins, so unmodified OpenCL kernels build.  Where
 * the values come from ("AMDGPU Usage", "Initial Kernel Execution State"; HSA AQL kernel dispatch
 * packet layout): work-item and workgroup ids from the kernel's VGPR/SGPR inputs, sizes from the
 * dispatch packet (setup/dimensions at byte 2, workgroup_size_x/y/z as u16 at 4/6/8,
 * grid_size_x/y/z as u32 at 12/16/20).  get_local_size() of a last, partial workgroup is the
 * remainder (OpenCL 2.0 non-uniform workgroups); get_enqueued_local_size() the full size.
 * The global offset is always 0 (gfxemu launches have none).
 *
 * Atomics: the OpenCL 1.x functions (atomic_add, atomic_inc, atomic_cmpxchg, ... on 32-bit
 * int/uint in global and local memory, atomic_xchg also on float) are relaxed read-modify-writes
 * at device scope, as OpenCL specifies them.  Not covered: images, printf, math built-ins beyond
 * what clang lowers itself, OpenCL 2.0 atomic_* generic functions on atomic_int types.
 *
 * Installed by `make install` as PREFIX/include/gfxemu/opencl.h. */
#ifndef GFXEMU_OPENCL_H
#define GFXEMU_OPENCL_H

#ifndef __OPENCL_C_VERSION__
#error "gfxemu/opencl.h is for OpenCL C kernels (clang -x cl)"
#endif

#define GFXEMU_OCL_FN __attribute__((overloadable, always_inline)) inline

/* The AQL dispatch packet of the running launch. */
#define GFXEMU_OCL_PACKET ((__constant unsigned char *)__builtin_amdgcn_dispatch_ptr())

static inline __attribute__((always_inline)) uint gfxemu_ocl_u16(uint off) {
    return *(__constant ushort *)(GFXEMU_OCL_PACKET + off);
}
static inline __attribute__((always_inline)) uint gfxemu_ocl_u32(uint off) {
    return *(__constant uint *)(GFXEMU_OCL_PACKET + off);
}

GFXEMU_OCL_FN uint get_work_dim(void) { return gfxemu_ocl_u16(2) & 3u; }

GFXEMU_OCL_FN size_t get_local_id(uint d) {
    return d == 0   ? __builtin_amdgcn_workitem_id_x()
           : d == 1 ? __builtin_amdgcn_workitem_id_y()
           : d == 2 ? __builtin_amdgcn_workitem_id_z()
                    : 0;
}
GFXEMU_OCL_FN size_t get_group_id(uint d) {
    return d == 0   ? __builtin_amdgcn_workgroup_id_x()
           : d == 1 ? __builtin_amdgcn_workgroup_id_y()
           : d == 2 ? __builtin_amdgcn_workgroup_id_z()
                    : 0;
}
GFXEMU_OCL_FN size_t get_enqueued_local_size(uint d) {
    return d < 3 ? gfxemu_ocl_u16(4 + 2 * d) : 1;
}
GFXEMU_OCL_FN size_t get_global_size(uint d) { return d < 3 ? gfxemu_ocl_u32(12 + 4 * d) : 1; }
GFXEMU_OCL_FN size_t get_global_offset(uint d) {
    (void)d;
    return 0;
}
GFXEMU_OCL_FN size_t get_local_size(uint d) {
    if (d >= 3)
        return 1;
    size_t wg = get_enqueued_local_size(d), left = get_global_size(d) - get_group_id(d) * wg;
    return left < wg ? left : wg;
}
GFXEMU_OCL_FN size_t get_num_groups(uint d) {
    size_t wg = get_enqueued_local_size(d);
    return (get_global_size(d) + wg - 1) / wg;
}
GFXEMU_OCL_FN size_t get_global_id(uint d) {
    return get_group_id(d) * get_enqueued_local_size(d) + get_local_id(d);
}
GFXEMU_OCL_FN size_t get_global_linear_id(void) {
    return (get_global_id(2) * get_global_size(1) + get_global_id(1)) * get_global_size(0) +
           get_global_id(0);
}
GFXEMU_OCL_FN size_t get_local_linear_id(void) {
    return (get_local_id(2) * get_local_size(1) + get_local_id(1)) * get_local_size(0) +
           get_local_id(0);
}

/* barrier(): every work-item's prior memory operations (of the kinds in `flags`) are visible to
 * the workgroup after it.  The fences order both LDS and global memory; being stronger than a
 * local-only fence asks for costs nothing in an emulator. */
GFXEMU_OCL_FN void barrier(cl_mem_fence_flags flags) {
    (void)flags;
    __builtin_amdgcn_fence(__ATOMIC_RELEASE, "workgroup");
    __builtin_amdgcn_s_barrier();
    __builtin_amdgcn_fence(__ATOMIC_ACQUIRE, "workgroup");
}
GFXEMU_OCL_FN void work_group_barrier(cl_mem_fence_flags flags) { barrier(flags); }
GFXEMU_OCL_FN void mem_fence(cl_mem_fence_flags flags) {
    (void)flags;
    __builtin_amdgcn_fence(__ATOMIC_ACQ_REL, "workgroup");
}
GFXEMU_OCL_FN void read_mem_fence(cl_mem_fence_flags flags) { mem_fence(flags); }
GFXEMU_OCL_FN void write_mem_fence(cl_mem_fence_flags flags) { mem_fence(flags); }

/* OpenCL 1.x atomics: one definition per (operation, type, address space). */
#define GFXEMU_OCL_RMW(NAME, EXPR)                                                                 \
    GFXEMU_OCL_FN int NAME(volatile __global int *p, int v) { return EXPR; }                       \
    GFXEMU_OCL_FN uint NAME(volatile __global uint *p, uint v) { return EXPR; }                    \
    GFXEMU_OCL_FN int NAME(volatile __local int *p, int v) { return EXPR; }                        \
    GFXEMU_OCL_FN uint NAME(volatile __local uint *p, uint v) { return EXPR; }
GFXEMU_OCL_RMW(atomic_add, __atomic_fetch_add(p, v, __ATOMIC_RELAXED))
GFXEMU_OCL_RMW(atomic_sub, __atomic_fetch_sub(p, v, __ATOMIC_RELAXED))
GFXEMU_OCL_RMW(atomic_xchg, __atomic_exchange_n(p, v, __ATOMIC_RELAXED))
GFXEMU_OCL_RMW(atomic_min, __atomic_fetch_min(p, v, __ATOMIC_RELAXED))
GFXEMU_OCL_RMW(atomic_max, __atomic_fetch_max(p, v, __ATOMIC_RELAXED))
GFXEMU_OCL_RMW(atomic_and, __atomic_fetch_and(p, v, __ATOMIC_RELAXED))
GFXEMU_OCL_RMW(atomic_or, __atomic_fetch_or(p, v, __ATOMIC_RELAXED))
GFXEMU_OCL_RMW(atomic_xor, __atomic_fetch_xor(p, v, __ATOMIC_RELAXED))
#undef GFXEMU_OCL_RMW

#define GFXEMU_OCL_UNARY(NAME, OP)                                                                 \
    GFXEMU_OCL_FN int NAME(volatile __global int *p) { return OP(p, 1, __ATOMIC_RELAXED); }        \
    GFXEMU_OCL_FN uint NAME(volatile __global uint *p) { return OP(p, 1u, __ATOMIC_RELAXED); }     \
    GFXEMU_OCL_FN int NAME(volatile __local int *p) { return OP(p, 1, __ATOMIC_RELAXED); }         \
    GFXEMU_OCL_FN uint NAME(volatile __local uint *p) { return OP(p, 1u, __ATOMIC_RELAXED); }
GFXEMU_OCL_UNARY(atomic_inc, __atomic_fetch_add)
GFXEMU_OCL_UNARY(atomic_dec, __atomic_fetch_sub)
#undef GFXEMU_OCL_UNARY

#define GFXEMU_OCL_CMPXCHG(T, AS)                                                                  \
    GFXEMU_OCL_FN T atomic_cmpxchg(volatile AS T *p, T cmp, T v) {                                 \
        __atomic_compare_exchange_n(p, &cmp, v, 0, __ATOMIC_RELAXED, __ATOMIC_RELAXED);            \
        return cmp; /* the old value, whether or not it was replaced */                            \
    }
GFXEMU_OCL_CMPXCHG(int, __global)
GFXEMU_OCL_CMPXCHG(uint, __global)
GFXEMU_OCL_CMPXCHG(int, __local)
GFXEMU_OCL_CMPXCHG(uint, __local)
#undef GFXEMU_OCL_CMPXCHG

/* float exchange: the same bits through the 32-bit integer exchange */
GFXEMU_OCL_FN float atomic_xchg(volatile __global float *p, float v) {
    return as_float(__atomic_exchange_n((volatile __global uint *)p, as_uint(v), __ATOMIC_RELAXED));
}
GFXEMU_OCL_FN float atomic_xchg(volatile __local float *p, float v) {
    return as_float(__atomic_exchange_n((volatile __local uint *)p, as_uint(v), __ATOMIC_RELAXED));
}

#undef GFXEMU_OCL_FN
#endif
