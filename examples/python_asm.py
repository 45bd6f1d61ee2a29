# Write a kernel as assembly in a Python string, assemble it with gfxemu (no clang, no lld,
# no llvm-mc), run it and check every element: y[i] = a * x[i] + y[i] for i < n.
# From the repository root, after `make`:  PYTHONPATH=python python3 examples/python_asm.py
import array

import gfxemu

SAXPY = """
    .amdgcn_target "amdgcn-amd-amdhsa--gfx950"
    .text
    .globl  saxpy
    .p2align 8
    .type   saxpy,@function
saxpy:                                  ; s[0:1] kernarg pointer, s2 workgroup id, v0 lane id
    s_load_dwordx4 s[4:7], s[0:1], 0x0  ; x, y
    s_load_dwordx2 s[8:9], s[0:1], 0x10 ; a, n
    v_lshl_add_u32 v0, s2, 6, v0        ; i = workgroup * 64 + lane
    s_waitcnt lgkmcnt(0)
    v_cmp_gt_i32_e32 vcc, s9, v0        ; i < n
    s_and_saveexec_b64 s[2:3], vcc
    s_cbranch_execz .Ldone
    v_lshlrev_b32_e32 v0, 2, v0         ; byte offset
    global_load_dword v1, v0, s[4:5]
    global_load_dword v2, v0, s[6:7]
    s_waitcnt vmcnt(0)
    v_fmac_f32_e32 v2, s8, v1           ; y += a * x
    global_store_dword v0, v2, s[6:7]
.Ldone:
    s_endpgm
.Lend:
    .size   saxpy, .Lend-saxpy

    .rodata
    .p2align 6
    .amdhsa_kernel saxpy
        .amdhsa_kernarg_size 24
        .amdhsa_user_sgpr_count 2
        .amdhsa_user_sgpr_kernarg_segment_ptr 1
        .amdhsa_next_free_vgpr 3
        .amdhsa_next_free_sgpr 10
        .amdhsa_accum_offset 4
    .end_amdhsa_kernel

    .amdgpu_metadata
---
amdhsa.kernels:
  - .args:
      - .address_space:  global
        .name:           x
        .offset:         0
        .size:           8
        .value_kind:     global_buffer
      - .address_space:  global
        .name:           y
        .offset:         8
        .size:           8
        .value_kind:     global_buffer
      - .name:           a
        .offset:         16
        .size:           4
        .value_kind:     by_value
      - .name:           n
        .offset:         20
        .size:           4
        .value_kind:     by_value
    .kernarg_segment_align: 8
    .kernarg_segment_size: 24
    .max_flat_workgroup_size: 64
    .name:           saxpy
    .symbol:         saxpy.kd
    .wavefront_size: 64
amdhsa.target:   amdgcn-amd-amdhsa--gfx950
amdhsa.version:
  - 1
  - 2
...
    .end_amdgpu_metadata
"""

n = 1000
x = array.array("f", [i * 0.25 for i in range(n)])
y = array.array("f", [100.0 - i for i in range(n)])
expect = [2.0 * x[i] + y[i] for i in range(n)]

saxpy = gfxemu.load_asm(SAXPY, "gfx950").kernel("saxpy")
saxpy.launch((n + 63) // 64, 64, gfxemu.In(x), y, gfxemu.f32(2.0), gfxemu.i32(n))
assert list(y) == expect
print("saxpy from a string: %d elements verified" % n)

# Bad assembly raises gfxemu.Error with the line and column of the problem.
try:
    gfxemu.assemble("s_mov_b32 s0, s1\nv_add_f32_e32 v0, v1, s2\n", "gfx950", raw=True)
except gfxemu.Error as e:
    print("error:", e)
    assert str(e).startswith("2:")
# raw=True gives just the instruction bytes (here s_endpgm)
assert gfxemu.assemble("s_endpgm", "gfx950", raw=True) == bytes([0x00, 0x00, 0x81, 0xbf])
