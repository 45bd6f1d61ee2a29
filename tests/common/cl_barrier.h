/* cl_barrier.h - the workgroup barrier of the OpenCL C test kernels (tests/kernels,
 * tests/dispatch, tests/workloads).  A kernel includes it as "../common/cl_barrier.h": a quoted
 * include is looked up first beside the including file, so every build of tests/<layer>/<x>.cl
 * finds it without an -I, whatever directory the build runs in; clang-22 -MD lists it among the
 * dependencies, so tests/common/kbuild.sh rebuilds the kernels when it changes. */
#ifndef GFXEMU_TEST_CL_BARRIER_H
#define GFXEMU_TEST_CL_BARRIER_H

/* s_barrier only synchronises execution.  The release fence before it makes this work-item's
 * LDS and global writes visible at workgroup scope, the acquire fence after it makes the other
 * work-items' writes visible to this one (LLVM AMDGPUUsage, memory model: a workgroup-scope
 * fence pair around the barrier is what OpenCL's work_group_barrier lowers to). */
#define WG_BARRIER()                                                                               \
    do {                                                                                           \
        __builtin_amdgcn_fence(__ATOMIC_RELEASE, "workgroup");                                     \
        __builtin_amdgcn_s_barrier();                                                              \
        __builtin_amdgcn_fence(__ATOMIC_ACQUIRE, "workgroup");                                     \
    } while (0)

#endif
