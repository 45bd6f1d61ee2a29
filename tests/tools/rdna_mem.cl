/* RDNA memory encodings for tests/tools/test_rdna_disasm.sh: LDS (ds_*), global and flat
 * accesses, a private array with a dynamic index (scratch), buffer loads/stores through a buffer
 * resource (MUBUF/MTBUF on gfx11, VBUFFER on gfx12) and global atomics. */
kernel void lds_reduce(global const float *in, global float *out, global int *count) {
    local float tile[256];
    uint l = __builtin_amdgcn_workitem_id_x();
    uint g = __builtin_amdgcn_workgroup_id_x() * 256 + l;
    tile[l] = in[g];
    __builtin_amdgcn_s_barrier();
    for (uint s = 128; s > 0; s >>= 1) {
        if (l < s)
            tile[l] += tile[l + s];
        __builtin_amdgcn_s_barrier();
    }
    if (l == 0) {
        out[__builtin_amdgcn_workgroup_id_x()] = tile[0];
        __atomic_fetch_add(count, 1, __ATOMIC_RELAXED);
    }
}

kernel void private_array(global const int *idx, global int *out, int n) {
    int a[64];
    uint g = __builtin_amdgcn_workitem_id_x();
    for (int i = 0; i < 64; i++)
        a[i] = i * n + (int)g;
    out[g] = a[idx[g] & 63] + a[(idx[g] >> 8) & 63];
}

kernel void flat_copy(global int *dst, global const int *src, int use_local) {
    local int buf[64];
    uint g = __builtin_amdgcn_workitem_id_x();
    int *p = use_local ? (int *)buf : (int *)dst;
    p[g & 63] = src[g];
    __builtin_amdgcn_s_barrier();
    dst[g + 64] = p[(g + 1) & 63];
}

kernel void buffer_ops(global float *data, int n) {
    __amdgpu_buffer_rsrc_t r = __builtin_amdgcn_make_buffer_rsrc(data, 0, n * 4, 0x00027000);
    uint g = __builtin_amdgcn_workitem_id_x();
    float v = __builtin_amdgcn_raw_buffer_load_b32(r, g * 4, 0, 0);
    int w = __builtin_amdgcn_raw_buffer_load_b32(r, g * 4 + 256, 16, 1);
    __builtin_amdgcn_raw_buffer_store_b32(v * 2.0f + (float)w, r, g * 4, 0, 0);
    __builtin_amdgcn_raw_buffer_store_b16((ushort)w, r, g * 2 + 512, 0, 0);
}
