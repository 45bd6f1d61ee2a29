// Scalar-only kernels (SALU, SMEM, s_barrier, s_endpgm) for tests/tools/test_run_scalar.sh and
// tests/dispatch/test_launch.c.  Assembled at test time by gfxemu's own assembler
// (`gfxemu as --arch gfx950|gfx942`); tests/isa/test_asm_crosscheck.sh compares the .text bytes
// with those of `llvm-mc-22 -triple=amdgcn-amd-amdhsa -mcpu=gfx950|gfx942 -filetype=obj`.
//
// dump:    stores its initial SGPRs and the AQL dispatch packet to out + 128 * workgroup index
//          (s[0:1] dispatch ptr, s[2:3] queue ptr, s[4:5] kernarg ptr, s[6:7] dispatch id,
//          s8..s10 workgroup id x/y/z, s11 workgroup info, then FLAT_SCRATCH, then the packet)
// barrier: a workgroup of two waves; the second wave stores 0x1234 to out[0] before s_barrier,
//          the first reads out[0] after it and stores what it saw to out[1]
// spin:    an infinite loop (watchdog)
// trap:    s_trap 2
// illegal: the RDNA3 word 0xf4080500, which is no instruction on gfx9
// vop3lit: v_add_f32_e64 v17, v0, <literal 0x80000000> clamp div:2 -- GFX9 VOP3 has no literal
//          (llvm-mc refuses the line; LLVM's gfx950 disassembler prints it with the literal)
// echo:    copies kernarg bytes 8..39 (its scalar arguments) to out
.text
.globl dump
.p2align 8
.type dump,@function
dump:
  s_load_dwordx2 s[20:21], s[4:5], 0x0
  s_load_dwordx16 s[32:47], s[0:1], 0x0
  s_waitcnt lgkmcnt(0)
  s_lshr_b32 s22, s35, 6            // workgroups in x = grid_size_x / 64 (block is 64 x 1 x 1)
  s_mul_i32 s23, s10, s36           // ((z * grid_size_y) + y) * groups_x + x
  s_add_u32 s23, s23, s9
  s_mul_i32 s23, s23, s22
  s_add_u32 s23, s23, s8
  s_lshl_b32 s23, s23, 7
  s_add_u32 s20, s20, s23
  s_addc_u32 s21, s21, 0
  s_store_dwordx4 s[0:3], s[20:21], 0x0
  s_store_dwordx4 s[4:7], s[20:21], 0x10
  s_store_dwordx4 s[8:11], s[20:21], 0x20
  s_store_dwordx2 flat_scratch, s[20:21], 0x30
  s_store_dwordx4 s[32:35], s[20:21], 0x40
  s_store_dwordx4 s[36:39], s[20:21], 0x50
  s_store_dwordx4 s[40:43], s[20:21], 0x60
  s_store_dwordx4 s[44:47], s[20:21], 0x70
  s_endpgm
.size dump, .-dump

.globl barrier
.p2align 8
.type barrier,@function
barrier:
  s_load_dwordx2 s[20:21], s[0:1], 0x0
  s_waitcnt lgkmcnt(0)
  s_bitcmp1_b32 s3, 31              // workgroup info bit 31: first wave of the workgroup
  s_cbranch_scc1 .Lfirst
  s_movk_i32 s22, 0x1234
  s_store_dword s22, s[20:21], 0x0
  s_waitcnt lgkmcnt(0)
  s_barrier
  s_endpgm
.Lfirst:
  s_barrier
  s_load_dword s23, s[20:21], 0x0
  s_waitcnt lgkmcnt(0)
  s_store_dword s23, s[20:21], 0x4
  s_endpgm
.size barrier, .-barrier

.globl spin
.p2align 8
.type spin,@function
spin:
  s_add_u32 s4, s4, 1
  s_branch spin
.size spin, .-spin

.globl trap
.p2align 8
.type trap,@function
trap:
  s_nop 0
  s_trap 2
  s_endpgm
.size trap, .-trap

.globl illegal
.p2align 8
.type illegal,@function
illegal:
  s_nop 0
  .long 0xf4080500
  s_endpgm
.size illegal, .-illegal

.globl vop3lit
.p2align 8
.type vop3lit,@function
vop3lit:
  s_nop 0
  .long 0xd1018011, 0x1801ff00, 0x80000000
  s_endpgm
.size vop3lit, .-vop3lit

.globl echo
.p2align 8
.type echo,@function
echo:
  s_load_dwordx2 s[20:21], s[0:1], 0x0
  s_load_dwordx8 s[8:15], s[0:1], 0x8
  s_waitcnt lgkmcnt(0)
  s_store_dwordx4 s[8:11], s[20:21], 0x0
  s_store_dwordx4 s[12:15], s[20:21], 0x10
  s_endpgm
.size echo, .-echo

.rodata
.p2align 6
.amdhsa_kernel echo
  .amdhsa_user_sgpr_kernarg_segment_ptr 1
  .amdhsa_kernarg_size 40
  .amdhsa_next_free_vgpr 1
  .amdhsa_next_free_sgpr 24
  .amdhsa_accum_offset 4
.end_amdhsa_kernel
.p2align 6
.amdhsa_kernel dump
  .amdhsa_user_sgpr_dispatch_ptr 1
  .amdhsa_user_sgpr_queue_ptr 1
  .amdhsa_user_sgpr_kernarg_segment_ptr 1
  .amdhsa_user_sgpr_dispatch_id 1
  .amdhsa_system_sgpr_workgroup_id_x 1
  .amdhsa_system_sgpr_workgroup_id_y 1
  .amdhsa_system_sgpr_workgroup_id_z 1
  .amdhsa_system_sgpr_workgroup_info 1
  .amdhsa_enable_private_segment 1
  .amdhsa_private_segment_fixed_size 20
  .amdhsa_kernarg_size 8
  .amdhsa_next_free_vgpr 1
  .amdhsa_next_free_sgpr 48
  .amdhsa_accum_offset 4
.end_amdhsa_kernel
.p2align 6
.amdhsa_kernel barrier
  .amdhsa_user_sgpr_kernarg_segment_ptr 1
  .amdhsa_system_sgpr_workgroup_id_x 1
  .amdhsa_system_sgpr_workgroup_info 1
  .amdhsa_kernarg_size 8
  .amdhsa_next_free_vgpr 1
  .amdhsa_next_free_sgpr 24
  .amdhsa_accum_offset 4
.end_amdhsa_kernel
.p2align 6
.amdhsa_kernel spin
  .amdhsa_next_free_vgpr 1
  .amdhsa_next_free_sgpr 8
  .amdhsa_accum_offset 4
.end_amdhsa_kernel
.p2align 6
.amdhsa_kernel trap
  .amdhsa_next_free_vgpr 1
  .amdhsa_next_free_sgpr 8
  .amdhsa_accum_offset 4
.end_amdhsa_kernel
.p2align 6
.amdhsa_kernel illegal
  .amdhsa_next_free_vgpr 1
  .amdhsa_next_free_sgpr 8
  .amdhsa_accum_offset 4
.end_amdhsa_kernel
.p2align 6
.amdhsa_kernel vop3lit
  .amdhsa_next_free_vgpr 20
  .amdhsa_next_free_sgpr 8
  .amdhsa_accum_offset 20
.end_amdhsa_kernel

.amdgpu_metadata
---
amdhsa.kernels:
  - .name: dump
    .symbol: dump.kd
    .kernarg_segment_size: 8
    .kernarg_segment_align: 8
    .group_segment_fixed_size: 0
    .private_segment_fixed_size: 20
    .wavefront_size: 64
    .sgpr_count: 48
    .vgpr_count: 1
    .max_flat_workgroup_size: 1024
    .args:
      - { .offset: 0, .size: 8, .value_kind: global_buffer, .address_space: global, .name: out }
  - .name: barrier
    .symbol: barrier.kd
    .kernarg_segment_size: 8
    .kernarg_segment_align: 8
    .group_segment_fixed_size: 0
    .private_segment_fixed_size: 0
    .wavefront_size: 64
    .sgpr_count: 24
    .vgpr_count: 1
    .max_flat_workgroup_size: 1024
    .args:
      - { .offset: 0, .size: 8, .value_kind: global_buffer, .address_space: global, .name: out }
  - { .name: spin, .symbol: spin.kd, .kernarg_segment_size: 0, .kernarg_segment_align: 4, .group_segment_fixed_size: 0, .private_segment_fixed_size: 0, .wavefront_size: 64, .sgpr_count: 8, .vgpr_count: 1, .max_flat_workgroup_size: 1024 }
  - { .name: trap, .symbol: trap.kd, .kernarg_segment_size: 0, .kernarg_segment_align: 4, .group_segment_fixed_size: 0, .private_segment_fixed_size: 0, .wavefront_size: 64, .sgpr_count: 8, .vgpr_count: 1, .max_flat_workgroup_size: 1024 }
  - { .name: illegal, .symbol: illegal.kd, .kernarg_segment_size: 0, .kernarg_segment_align: 4, .group_segment_fixed_size: 0, .private_segment_fixed_size: 0, .wavefront_size: 64, .sgpr_count: 8, .vgpr_count: 1, .max_flat_workgroup_size: 1024 }
  - { .name: vop3lit, .symbol: vop3lit.kd, .kernarg_segment_size: 0, .kernarg_segment_align: 4, .group_segment_fixed_size: 0, .private_segment_fixed_size: 0, .wavefront_size: 64, .sgpr_count: 8, .vgpr_count: 20, .max_flat_workgroup_size: 1024 }
  - .name: echo
    .symbol: echo.kd
    .kernarg_segment_size: 40
    .kernarg_segment_align: 8
    .group_segment_fixed_size: 0
    .private_segment_fixed_size: 0
    .wavefront_size: 64
    .sgpr_count: 24
    .vgpr_count: 1
    .max_flat_workgroup_size: 256
    .args:
      - { .offset: 0, .size: 8, .value_kind: global_buffer, .address_space: global, .name: out, .type_name: 'int*' }
      - { .offset: 8, .size: 4, .value_kind: by_value, .name: a, .type_name: int }
      - { .offset: 12, .size: 4, .value_kind: by_value, .name: b, .type_name: float }
      - { .offset: 16, .size: 8, .value_kind: by_value, .name: c, .type_name: double }
      - { .offset: 24, .size: 8, .value_kind: by_value, .name: d, .type_name: long }
      - { .offset: 32, .size: 4, .value_kind: by_value, .name: e, .type_name: uint }
      - { .offset: 36, .size: 1, .value_kind: by_value, .name: f, .type_name: char }
amdhsa.version: [1, 2]
...
.end_amdgpu_metadata
