/* occupancy.c - how many workgroups of a launch the modelled GPU holds at once.
 *
 * The model is the one LLVM's AMDGPU backend uses to compute occupancy for gfx90a-class targets
 * (gfx942, gfx950; "AMDGPU Usage" and the CDNA3/CDNA4 ISA manuals' resource descriptions):
 *  - a CU has 4 SIMDs; a SIMD holds at most 8 waves;
 *  - a SIMD has 512 unified VGPRs per lane (ArchVGPRs and AccVGPRs together), allocated per
 *    wave in granules of 8: the descriptor's GRANULATED_WORKITEM_VGPR_COUNT already counts the
 *    unified file in those granules;
 *  - a SIMD has 800 SGPRs, allocated per wave in granules of 16 (the descriptor's
 *    GRANULATED_WAVEFRONT_SGPR_COUNT, which includes VCC, FLAT_SCRATCH and XNACK_MASK);
 *  - a workgroup's waves all live on one CU, spread over its SIMDs (ceil(waves / 4) per SIMD);
 *  - LDS per CU is the workgroup maximum (64 KiB gfx942 and gfx90a, 160 KiB gfx950), allocated in
 *    the descriptor's LDS granules (512 bytes gfx942 and gfx90a, 1280 bytes gfx950);
 *  - a CU has 16 workgroup barriers: at most 16 workgroups of more than one wave per CU.
 * Workgroups per CU is the smallest of these bounds, at least 1 (the launch was accepted, so one
 * workgroup fits); the device holds CUs x that many.
 */
#include "dispatch/dispatch.h"

/* MI355X (gfx950) 256 CUs, MI300X (gfx942) 304, MI210 (gfx90a) 104. */
unsigned dp_default_cus(gfx_arch arch) {
    return arch == GFX_ARCH_GFX942 ? 304u : arch == GFX_ARCH_GFX90A ? 104u : 256u;
}

void dp_occupancy_of(const dp_dispatch *d, unsigned cus, dp_occupancy *o) {
    const ld_kd *kd = &d->k->kd;
    unsigned simd_waves = 8, limit_simd = 0; /* 0 waves, 1 VGPRs, 2 SGPRs */
    unsigned vgprs = ld_kd_vgprs(kd);
    unsigned by_vgpr = vgprs ? 512u / vgprs : 8u;
    unsigned sgprs = (kd->sgpr_granules + 1u) * 16u;
    unsigned by_sgpr = 800u / sgprs;
    if (by_vgpr < simd_waves)
        simd_waves = by_vgpr, limit_simd = 1;
    if (by_sgpr < simd_waves)
        simd_waves = by_sgpr, limit_simd = 2;
    if (!simd_waves)
        simd_waves = 1;
    unsigned per_simd = (d->waves_per_wg + 3) / 4;
    unsigned per_cu = simd_waves / per_simd;
    const char *limit = limit_simd == 1 ? "VGPRs" : limit_simd == 2 ? "SGPRs" : "waves";
    if (d->lds_size) {
        unsigned gran = isa_targets[d->arch].lds_granule;
        unsigned cu_lds = isa_targets[d->arch].lds_bytes;
        unsigned alloc = (d->lds_size + gran - 1) / gran * gran;
        if (cu_lds / alloc < per_cu)
            per_cu = cu_lds / alloc, limit = "LDS";
    }
    if (d->waves_per_wg > 1 && per_cu > 16)
        per_cu = 16, limit = "barriers";
    if (!per_cu)
        per_cu = 1;
    o->cus = cus;
    o->per_cu = per_cu;
    o->waves_per_simd = simd_waves;
    o->limit = limit;
    o->resident = (uint64_t)cus * per_cu;
}
