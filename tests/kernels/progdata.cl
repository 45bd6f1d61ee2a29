/* progdata.cl - program-scope data (tests/kernels/test_progdata.c): __constant tables, a table
 * of pointers into them (dynamic relocations), initialised private arrays, program-scope
 * globals that persist across launches, and memory-semantics cases (a 12-byte uniform load, an
 * off-by-one read and write). */
__constant int lut[8] = {3, 1, 4, 1, 5, 9, 2, 6};
__constant int lut2[8] = {27, 18, 28, 18, 28, 45, 90, 45};
__constant int *const ptrs[2] = {lut, lut2};
__global int counter;
__global int table[4] = {10, 20, 30, 40};

__kernel void use_lut(__global int *out) {
    int i = __builtin_amdgcn_workitem_id_x() + __builtin_amdgcn_workgroup_id_x() * 64;
    out[i] = lut[i & 7] + 100 * ptrs[(i >> 3) & 1][(i + 3) & 7] + 1000 * table[i & 3];
}

__kernel void priv_init(__global int *out, int k) {
    int i = __builtin_amdgcn_workitem_id_x();
    int a[16] = {2, 3, 5, 7, 11, 13, 17, 19, 23, 29, 31, 37, 41, 43, 47, 53};
    out[i] = a[(i + k) & 15] * (k + 1);
}

__kernel void count(__global int *out) {
    int i = __builtin_amdgcn_workitem_id_x() + __builtin_amdgcn_workgroup_id_x() * 64;
    out[i] = __atomic_fetch_add(&counter, 1, __ATOMIC_RELAXED);
    if (i < 4)
        table[i] += i + 1;
}

/* Three floats aligned to 16: clang -O3 loads them with one s_load_dwordx4 (16 bytes) from a
 * 12-byte buffer, which hardware runs fine. */
typedef struct __attribute__((aligned(16))) {
    float x, y, z;
} vec3;
__kernel void sum3(__global const vec3 *p, __global float *out) {
    int i = __builtin_amdgcn_workitem_id_x();
    out[i] = p->x + 2.0f * p->y + 4.0f * p->z + (float)i;
}

__kernel void shift_read(__global const int *in, __global int *out) {
    int i = __builtin_amdgcn_workitem_id_x();
    out[i] = in[i + 1];
}

__kernel void shift_write(__global int *out, int far) {
    int i = __builtin_amdgcn_workitem_id_x();
    out[i + 1 + far] = i;
}
