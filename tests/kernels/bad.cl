// Kernels that must fault (tests/kernels/test_bad_kernels.c), and a good one to run after each
// fault on the same device.

#define LID() __builtin_amdgcn_workitem_id_x()

// 64 lanes store 1 GiB apart into a buffer the caller makes 16 ints long: lanes 1-63 are far
// outside every buffer (just past its end would land in the page's padding, as on hardware).
__kernel void oob_store(__global int *out)
{
    out[(long)LID() << 28] = (int)LID() + 1;
}

// Every lane loads `off` ints past the start of `in`, far outside any buffer.
__kernel void oob_load(__global int *out, __global const int *in, long off)
{
    out[LID()] = in[off + LID()];
}

// A word that is no instruction on gfx942 or gfx950 (SOPP opcode 127), reached by every lane.
__kernel void illegal_word(__global int *out)
{
    out[LID()] = 1;
    __asm__ volatile(".long 0xbfff0000");
    out[LID()] = 2;
}

// A valid instruction gfxemu does not execute (return from a trap handler).
__kernel void unimplemented(__global int *out)
{
    out[LID()] = 1;
    __asm__ volatile("s_rfe_restore_b64 s[0:1], s2");
    out[LID()] = 2;
}

// s_trap 2 (llvm.trap) when the data says so.
__kernel void trap(__global int *out, int n)
{
    if (out[n] == 5)
        __builtin_trap();
    out[LID()] = 3;
}

// Never ends unless n is 12345 after some steps (it never is for n = 0).
__kernel void spin(__global int *out, int n)
{
    while (n != 12345)
        n = n * 3 + 1;
    out[0] = n;
}

__kernel void good(__global int *out)
{
    unsigned i = __builtin_amdgcn_workgroup_id_x() * 64 + LID();
    out[i] = (int)(i * 3 + 1);
}
