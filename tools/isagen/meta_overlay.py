"""Hand-written facts about ops that LLVM's disassembler does not tell (tools/isagen/meta.py
merges them into src/isa/gen/opmeta.inc).  Keep this small: everything derivable from the
decoder tables (encodings, operand widths and types) or from the mnemonic's fixed grammar
(MFMA shapes, memory access sizes) is derived in meta.py."""

# --stats classes of scalar ops that are not plain SALU work (CDNA3/CDNA4 ISA "Program Flow
# Control", "Data Dependency Resolution"): the rest of SOP1/SOP2/SOPC/SOPK/SOPP is "salu".
BRANCH = (
    "s_branch", "s_cbranch_scc0", "s_cbranch_scc1", "s_cbranch_vccz", "s_cbranch_vccnz",
    "s_cbranch_execz", "s_cbranch_execnz", "s_cbranch_cdbgsys", "s_cbranch_cdbguser",
    "s_cbranch_cdbgsys_or_user", "s_cbranch_cdbgsys_and_user", "s_cbranch_g_fork",
    "s_cbranch_i_fork", "s_cbranch_join", "s_getpc_b64", "s_setpc_b64", "s_swappc_b64",
    "s_call_b64", "s_rfe_b64", "s_endpgm", "s_endpgm_saved", "s_endpgm_ordered_ps_done",
)
OTHER = (
    "s_nop", "s_waitcnt", "s_barrier", "s_sleep", "s_setprio", "s_trap", "s_sethalt",
    "s_sendmsg", "s_sendmsghalt", "s_icache_inv", "s_incperflevel", "s_decperflevel",
    "s_ttracedata", "s_wakeup", "s_setkill",
)

# Behaviour under a directed MODE.FP_ROUND (src/exec/round.c): (kind, field).
#   kind  EXACT: the result does not depend on the mode; HOST: one correctly rounded host
#         operation (run under the host's matching rounding mode); OWN: round.c has its own
#         handler (f16/bf16 results, v_div_fmas_f32); FAULT: refused under a directed mode.
#   field F32 = MODE[1:0], F64 = MODE[3:2] (f64 and f16 results), ANY = either.
# Ops not listed: vector ops whose mnemonic names a float type, and float atomics, are
# ("FAULT", "ANY") (meta.py, round_default()); everything else is unaffected.
ROUND = {
    # f32 (valu_f32.c): one host operation
    "v_add_f32": ("HOST", "F32"),
    "v_sub_f32": ("HOST", "F32"),
    "v_subrev_f32": ("HOST", "F32"),
    "v_mul_f32": ("HOST", "F32"),
    "v_mul_legacy_f32": ("HOST", "F32"),
    "v_fma_f32": ("HOST", "F32"),
    "v_fmac_f32": ("HOST", "F32"),
    "v_fmamk_f32": ("HOST", "F32"),
    "v_fmaak_f32": ("HOST", "F32"),
    "v_ldexp_f32": ("HOST", "F32"),
    # the TRANS unit is an approximation on hardware (1 ULP); gfxemu's v_rcp and v_sqrt are one
    # correctly rounded host operation, so under a directed mode they round that way
    "v_rcp_f32": ("HOST", "F32"),
    "v_rcp_iflag_f32": ("HOST", "F32"),
    "v_sqrt_f32": ("HOST", "F32"),
    # f32: independent of the mode
    "v_min_f32": ("EXACT", "F32"),
    "v_max_f32": ("EXACT", "F32"),
    "v_min3_f32": ("EXACT", "F32"),
    "v_max3_f32": ("EXACT", "F32"),
    "v_med3_f32": ("EXACT", "F32"),
    "v_maximum3_f32": ("EXACT", "F32"),
    "v_minimum3_f32": ("EXACT", "F32"),
    "v_trunc_f32": ("EXACT", "F32"),
    "v_ceil_f32": ("EXACT", "F32"),
    "v_floor_f32": ("EXACT", "F32"),
    "v_rndne_f32": ("EXACT", "F32"),
    "v_frexp_mant_f32": ("EXACT", "F32"),
    "v_frexp_exp_i32_f32": ("EXACT", "F32"),
    "v_div_scale_f32": ("EXACT", "F32"),
    "v_div_fixup_f32": ("EXACT", "F32"),
    "v_cubeid_f32": ("EXACT", "F32"),
    "v_cubesc_f32": ("EXACT", "F32"),
    "v_cubetc_f32": ("EXACT", "F32"),
    "v_cubema_f32": ("EXACT", "F32"),
    "v_div_fmas_f32": ("OWN", "F32"),
    # f64 (valu_f64.c)
    "v_add_f64": ("HOST", "F64"),
    "v_mul_f64": ("HOST", "F64"),
    "v_fma_f64": ("HOST", "F64"),
    "v_fmac_f64": ("HOST", "F64"),
    "v_ldexp_f64": ("HOST", "F64"),
    "v_rcp_f64": ("HOST", "F64"),
    "v_sqrt_f64": ("HOST", "F64"),
    "v_min_f64": ("EXACT", "F64"),
    "v_max_f64": ("EXACT", "F64"),
    "v_trunc_f64": ("EXACT", "F64"),
    "v_ceil_f64": ("EXACT", "F64"),
    "v_floor_f64": ("EXACT", "F64"),
    "v_rndne_f64": ("EXACT", "F64"),
    "v_frexp_mant_f64": ("EXACT", "F64"),
    "v_frexp_exp_i32_f64": ("EXACT", "F64"),
    "v_div_scale_f64": ("EXACT", "F64"),
    "v_div_fixup_f64": ("EXACT", "F64"),
    # f16 (valu_f16.c)
    "v_add_f16": ("OWN", "F64"),
    "v_sub_f16": ("OWN", "F64"),
    "v_subrev_f16": ("OWN", "F64"),
    "v_mul_f16": ("OWN", "F64"),
    "v_fma_f16": ("OWN", "F64"),
    "v_fma_legacy_f16": ("OWN", "F64"),
    "v_ldexp_f16": ("OWN", "F64"),
    "v_pk_add_f16": ("OWN", "F64"),
    "v_pk_mul_f16": ("OWN", "F64"),
    "v_pk_fma_f16": ("OWN", "F64"),
    "v_pk_fmac_f16": ("OWN", "F64"),
    "v_max_f16": ("EXACT", "F64"),
    "v_min_f16": ("EXACT", "F64"),
    "v_min3_f16": ("EXACT", "F64"),
    "v_max3_f16": ("EXACT", "F64"),
    "v_med3_f16": ("EXACT", "F64"),
    "v_div_fixup_f16": ("EXACT", "F64"),
    "v_div_fixup_legacy_f16": ("EXACT", "F64"),
    "v_trunc_f16": ("EXACT", "F64"),
    "v_ceil_f16": ("EXACT", "F64"),
    "v_floor_f16": ("EXACT", "F64"),
    "v_rndne_f16": ("EXACT", "F64"),
    "v_frexp_mant_f16": ("EXACT", "F64"),
    "v_frexp_exp_i16_f16": ("EXACT", "F64"),
    "v_pack_b32_f16": ("EXACT", "F64"),
    "v_pk_max_f16": ("EXACT", "F64"),
    "v_pk_min_f16": ("EXACT", "F64"),
    "v_pk_maximum3_f16": ("EXACT", "F64"),
    "v_pk_minimum3_f16": ("EXACT", "F64"),
    # packed f32 (gfx940+): host float add/mul/fma per half; the clamp after it is exact
    "v_pk_add_f32": ("HOST", "F32"),
    "v_pk_mul_f32": ("HOST", "F32"),
    "v_pk_fma_f32": ("HOST", "F32"),
    # conversions (valu_cvt.c)
    "v_cvt_f32_i32": ("HOST", "F32"),
    "v_cvt_f32_u32": ("HOST", "F32"),
    "v_cvt_f32_f64": ("HOST", "F32"),
    "v_cvt_f16_f32": ("OWN", "F64"),
    "v_cvt_f16_u16": ("OWN", "F64"),
    "v_cvt_f16_i16": ("OWN", "F64"),
    "v_cvt_pk_f16_f32": ("OWN", "F64"),
    "v_cvt_pk_bf16_f32": ("OWN", "F64"),
    # float -> integer conversions truncate (or floor) whatever the mode; the rest are exact
    "v_cvt_i32_f32": ("EXACT", "F32"),
    "v_cvt_u32_f32": ("EXACT", "F32"),
    "v_cvt_rpi_i32_f32": ("EXACT", "F32"),
    "v_cvt_flr_i32_f32": ("EXACT", "F32"),
    "v_cvt_f32_ubyte0": ("EXACT", "F32"),
    "v_cvt_f32_ubyte1": ("EXACT", "F32"),
    "v_cvt_f32_ubyte2": ("EXACT", "F32"),
    "v_cvt_f32_ubyte3": ("EXACT", "F32"),
    "v_cvt_off_f32_i4": ("EXACT", "F32"),
    "v_cvt_f32_f16": ("EXACT", "F32"),
    "v_cvt_f32_bf16": ("EXACT", "F32"),
    "v_cvt_pkrtz_f16_f32": ("EXACT", "F32"),
    "v_cvt_pk_u16_u32": ("EXACT", "F32"),
    "v_cvt_pk_i16_i32": ("EXACT", "F32"),
    "v_cvt_u16_f16": ("EXACT", "F64"),
    "v_cvt_i16_f16": ("EXACT", "F64"),
    "v_cvt_f64_f32": ("EXACT", "F64"),
    "v_cvt_f64_i32": ("EXACT", "F64"),
    "v_cvt_f64_u32": ("EXACT", "F64"),
    "v_cvt_i32_f64": ("EXACT", "F64"),
    "v_cvt_u32_f64": ("EXACT", "F64"),
    "v_cvt_f32_fp8": ("EXACT", "F32"),
    "v_cvt_f32_bf8": ("EXACT", "F32"),
    "v_cvt_pk_f32_fp8": ("EXACT", "F32"),
    "v_cvt_pk_f32_bf8": ("EXACT", "F32"),
    "v_sat_pk_u8_i16": ("EXACT", "F32"),
    "v_ashr_pk_i8_i32": ("EXACT", "F32"),
    "v_ashr_pk_u8_i32": ("EXACT", "F32"),
    "v_cvt_sr_bf16_f32": ("EXACT", "F32"),  # stochastic rounding: S1 decides, not MODE
    # RDNA3/RDNA4 (rdna.c, rdna_alu.c): min/max in every form round nothing
    **{n: ("EXACT", "F32") for n in (
        "v_max_num_f32", "v_min_num_f32", "v_max3_num_f32", "v_min3_num_f32", "v_med3_num_f32",
        "v_maximum_f32", "v_minimum_f32", "v_maximumminimum_f32", "v_minimummaximum_f32",
        "v_maxmin_f32", "v_minmax_f32", "v_maxmin_num_f32", "v_minmax_num_f32",
        "v_dual_max_f32", "v_dual_min_f32", "v_dual_max_num_f32", "v_dual_min_num_f32")},
    **{n: ("EXACT", "F64") for n in (
        "v_max_num_f64", "v_min_num_f64", "v_maximum_f64", "v_minimum_f64",
        "v_max_num_f16", "v_min_num_f16", "v_max3_num_f16", "v_min3_num_f16", "v_med3_num_f16",
        "v_maximum_f16", "v_minimum_f16", "v_maximum3_f16", "v_minimum3_f16",
        "v_maximumminimum_f16", "v_minimummaximum_f16", "v_maxmin_f16", "v_minmax_f16",
        "v_maxmin_num_f16", "v_minmax_num_f16", "v_pk_max_num_f16", "v_pk_min_num_f16",
        "v_pk_maximum_f16", "v_pk_minimum_f16")},
    # one host multiply or fma (the DX9 forms return S2 or 0 exactly when S0 or S1 is zero);
    # the VOPD halves are the ordinary ops (round.c classifies a VOPD pair by both halves)
    **{n: ("HOST", "F32") for n in (
        "v_mul_dx9_zero_f32", "v_fma_dx9_zero_f32", "v_fmac_dx9_zero_f32",
        "v_dual_add_f32", "v_dual_sub_f32", "v_dual_subrev_f32", "v_dual_mul_f32",
        "v_dual_fmac_f32", "v_dual_fmaak_f32", "v_dual_fmamk_f32", "v_dual_mul_dx9_zero_f32")},
    # RDNA's fused f16 forms: round.c's fma (v_fmac_f16's accumulator is its destination half)
    "v_fmac_f16": ("OWN", "F64"),
    "v_fmaak_f16": ("OWN", "F64"),
    "v_fmamk_f16": ("OWN", "F64"),
}
