// Kernels with known LDS bank-conflict and VMEM coalescing patterns for
// tests/tools/test_counters.py.  Each work-item reads back its neighbour's slot (l ^ 1), so
// the compiler cannot forward the stored value and both the store and the load reach LDS.
typedef int int4v __attribute__((ext_vector_type(4)));

static inline void lds_barrier(void) {
    __builtin_amdgcn_fence(__ATOMIC_RELEASE, "workgroup");
    __builtin_amdgcn_s_barrier();
    __builtin_amdgcn_fence(__ATOMIC_ACQUIRE, "workgroup");
}

// one ds_write_b32 and one ds_read_b32 at dword stride s
__kernel void lds_b32(__global int *out, int s) {
    __local int t[64 * 33];
    int l = __builtin_amdgcn_workitem_id_x();
    t[l * s] = l;
    lds_barrier();
    out[l] = t[(l ^ 1) * s];
}

// one ds_write_b128 and one ds_read_b128 at a stride of s 16-byte elements
__kernel void lds_b128(__global int4v *out, int s) {
    __local int4v t[64 * 2];
    int l = __builtin_amdgcn_workitem_id_x();
    t[l * s] = (int4v)(l);
    lds_barrier();
    out[l] = t[(l ^ 1) * s];
}

// one global_load_dword and one global_store_dword at dword stride s
__kernel void strided_copy(__global int *out, __global const int *in, int s) {
    int l = __builtin_amdgcn_workitem_id_x();
    out[l * s] = in[l * s];
}
