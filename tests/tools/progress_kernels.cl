// A kernel that runs long enough for gfxemu run's progress line (tests/tools/test_progress.py):
// every work-item spins `iters` times on an xorshift and stores the result.
__kernel void spin(__global uint *out, uint iters) {
    uint g = __builtin_amdgcn_workgroup_id_x() * 64 + __builtin_amdgcn_workitem_id_x();
    uint x = g + 1;
    for (uint i = 0; i < iters; i++) {
        x ^= x << 13;
        x ^= x >> 17;
        x ^= x << 5;
    }
    out[g] = x;
}
