// Buffer-resource kernels for gfx1100/gfx1201 (tests/kernels/test_rdna_buf_kernels.c): clang-22's
// __builtin_amdgcn_make_buffer_rsrc and raw buffer load/store/atomic builtins, which compile to
// MUBUF (gfx11) and VBUFFER (gfx12) instructions with offen, soffset and instruction offsets, the
// way composable_kernel-style code reaches memory.  num_records bounds each buffer: work-items
// past it read 0 and their stores and atomics do nothing (the hardware's range check), which the
// test checks against a C reference.  `flags` is the V#'s word 3 (OOB_SELECT etc.), given by the
// test.

#define GID() (__builtin_amdgcn_workgroup_id_x() * 64u + __builtin_amdgcn_workitem_id_x())
typedef __amdgpu_buffer_rsrc_t rsrc;

static rsrc mk(__global void *p, uint bytes, uint flags) {
    return __builtin_amdgcn_make_buffer_rsrc(p, (short)0, bytes, flags);
}

// 1. Dword loads and stores: o[i] = a[i] * 3 + 1 for i < n; every item also writes what it read
//    (0 past n) to seen[] with a plain global store.  soff is the SGPR offset of the store.
__kernel void buf_map(__global uint *a, __global uint *o, __global uint *seen, uint n, uint soff,
                      uint flags)
{
    uint i = GID();
    rsrc ra = mk(a, n * 4, flags), ro = mk(o, n * 4 + soff, flags);
    uint v = __builtin_amdgcn_raw_buffer_load_b32(ra, i * 4, 0, 0);
    seen[i] = v;
    __builtin_amdgcn_raw_buffer_store_b32(v * 3 + 1, ro, i * 4, soff, 0);
}

// 2. Wide and narrow accesses: a uint4 per item (b128), its b64 and b96 prefixes, a byte and a
//    short, stored back as b128, b64, b8 and b16 with instruction offsets.
__kernel void buf_widths(__global uint *a, __global uint *o, uint nbytes, uint flags)
{
    uint i = GID();
    rsrc ra = mk(a, nbytes, flags), ro = mk(o, nbytes, flags);
    uint4 v4 = __builtin_amdgcn_raw_buffer_load_b128(ra, i * 16, 0, 0);
    uint2 v2 = __builtin_amdgcn_raw_buffer_load_b64(ra, i * 16 + 4, 0, 0);
    uint3 v3 = __builtin_amdgcn_raw_buffer_load_b96(ra, i * 16, 0, 0);
    uchar b = __builtin_amdgcn_raw_buffer_load_b8(ra, i * 16 + 5, 0, 0);
    ushort h = __builtin_amdgcn_raw_buffer_load_b16(ra, i * 16 + 10, 0, 0);
    uint4 r = (uint4)(v4.x + v2.y, v4.y ^ v3.z, v4.z + b, v4.w + h);
    __builtin_amdgcn_raw_buffer_store_b128(r, ro, i * 16, 0, 0);
    __builtin_amdgcn_raw_buffer_store_b8((uchar)(b + 1), ro, i * 16 + 3, 0, 0);
    __builtin_amdgcn_raw_buffer_store_b16((ushort)(h ^ 0x5555), ro, i * 16 + 8, 0, 0);
}

// 3. Atomics: a histogram whose returned old values are tickets (per bin a permutation of
//    0..count-1), float add, min and max.  Items past n address past num_records: nothing.
__kernel void buf_atomics(__global const uint *a, __global uint *bins, __global uint *tickets,
                          __global float *f, uint n, uint flags)
{
    uint i = GID();
    rsrc rb = mk(bins, 16 * 4, flags), rf = mk(f, 3 * 4, flags);
    uint x = i < n ? a[i] : 0;
    uint off = i < n ? (x % 16) * 4 : 64 + i * 4; // past the 16 bins for i >= n
    tickets[i] = __builtin_amdgcn_raw_ptr_buffer_atomic_add_i32(1, rb, off, 0, 0);
    float v = (float)(int)(x % 1000) - 500.0f;
    uint foff = i < n ? 0 : 16;
    __builtin_amdgcn_raw_ptr_buffer_atomic_fadd_f32(v, rf, foff, 0, 0);
    __builtin_amdgcn_raw_ptr_buffer_atomic_fmin_f32(v, rf, foff + 4, 0, 0);
    __builtin_amdgcn_raw_ptr_buffer_atomic_fmax_f32(v, rf, foff + 8, 0, 0);
}
