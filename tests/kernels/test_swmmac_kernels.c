/* test_swmmac_kernels.c - RDNA4 sparse WMMA end to end: tests/kernels/swmmac.cl calls clang-22's
 * __builtin_amdgcn_swmmac_f32_16x16x32_f16 and _i32_16x16x32_iu8 (signed A, unsigned B), in
 * wave32 (_w32) and wave64 (_w64) at -O0..-O3; each lane loads its registers from buffers the
 * test filled with random exactly representable values and 2-of-4 indices, and the stored D
 * must equal what the separate reference tests/exec/wmma_ref.h computes from the same register
 * images.  gfx1100 has no SWMMAC: its builds only check that the module loads. */
#include "common/check.h"
#include "common/kernels.h"
#include "exec/wmma_ref.h"
#include "gfxemu.h"

#include <stdint.h>
#include <stdio.h>
#include <string.h>

static uint64_t rng = 0x853c49e6748fea9bull;

static void t_sparse(const wref_op *op, const char *kernel) {
    int w64 = strstr(kt.tag, "-w64") != NULL, lanes = w64 ? 64 : 32;
    int na = wref_sp_a_regs(op, w64), nb = wref_ab_regs(op, 1, w64, op->tb);
    int nc = wref_cd_regs(op, 1, w64), ints = op->to == WR_OI32;
    static uint32_t a[8][64], b[8][64], d[8][64], idx[64];
    static uint32_t ha[64 * 8], hb[64 * 8], hc[64 * 8], hidx[64]; /* [lane][register] */
    static const uint16_t f16v[] = {0x0000, 0x3400, 0x3800, 0x3a00, 0x3c00, 0x3d00,
                                    0x3e00, 0x4000, 0x4200, 0x4300, 0x4400}; /* 0 .. 4 */
    for (int r = 0; r < 8; r++)
        for (int l = 0; l < 64; l++) {
            uint32_t x = kt_rand(&rng) << 16 ^ kt_rand(&rng);
            if (!ints) /* two f16 values of 0, 0.25, ... 4, random signs */
                x = (f16v[kt_rand(&rng) % 11] | (kt_rand(&rng) & 0x8000)) |
                    (uint32_t)(f16v[kt_rand(&rng) % 11] | (kt_rand(&rng) & 0x8000)) << 16;
            a[r][l] = x;
            b[r][l] = ints ? kt_rand(&rng) << 16 ^ kt_rand(&rng)
                           : (f16v[kt_rand(&rng) % 11] | (kt_rand(&rng) & 0x8000)) |
                                 (uint32_t)(f16v[kt_rand(&rng) % 11]) << 16;
            float cf = (float)((int)(kt_rand(&rng) % 64) - 32) * 0.125f;
            uint32_t ci = kt_rand(&rng) % 2001 - 1000;
            if (!ints)
                memcpy(&ci, &cf, 4);
            d[r][l] = ci;
        }
    for (int l = 0; l < 64; l++) {
        uint32_t x = 0;
        for (int n = 0; n < 8; n++) {
            unsigned p0 = kt_rand(&rng) % 4, p1 = (p0 + 1 + kt_rand(&rng) % 3) % 4;
            x |= (p0 | p1 << 2) << (4 * n);
        }
        idx[l] = x;
    }
    for (int l = 0; l < lanes; l++) {
        for (int r = 0; r < na; r++)
            ha[l * na + r] = a[r][l];
        for (int r = 0; r < nb; r++)
            hb[l * nb + r] = b[r][l];
        for (int r = 0; r < nc; r++)
            hc[l * nc + r] = d[r][l];
        hidx[l] = idx[l];
    }
    wref_mods m = {ints ? 1 : 0, 0, 0, 0}; /* iu8: the builtin's signed A is neg_lo[0] */
    wref_sp_run(op, w64, &m, 0, (const uint32_t (*)[64])a, (const uint32_t (*)[64])b, idx, d);
    uint64_t da = kt_upload(ha, sizeof ha), db = kt_upload(hb, sizeof hb),
             dc = kt_upload(hc, sizeof hc), di = kt_upload(hidx, sizeof hidx);
    const void *p[] = {&da, &db, &dc, &di};
    if (kt_launch1(kernel, 1, (unsigned)lanes, p, 4))
        return;
    gfx_memcpy_dtoh(kt.dev, hc, dc, sizeof hc);
    int bad = 0;
    for (int l = 0; l < lanes; l++)
        for (int r = 0; r < nc; r++)
            if (hc[l * nc + r] != d[r][l] && bad++ < 3)
                printf("  %s %s: D reg %d lane %d = %08x, want %08x\n", kt.tag, op->name, r, l,
                       hc[l * nc + r], d[r][l]);
    CHECK(bad == 0, "%s %s: %d D dwords wrong", kt.tag, op->name, bad);
}

static void t_all(void) {
    if (strstr(kt.tag, "gfx1100")) {
        const gfx_kernel *k;
        CHECK(gfx_module_kernel(kt.mod, "sp_none", &k) == GFX_OK, "%s: module", kt.tag);
        return;
    }
    t_sparse(&wref_sp_ops[0], "sp_f16"); /* v_swmmac_f32_16x16x32_f16 */
    t_sparse(&wref_sp_ops[4], "sp_iu8"); /* v_swmmac_i32_16x16x32_iu8 */
}

int main(void) {
    static const kt_test tests[] = {t_all};
    if (kt_run_rdna("swmmac", "", tests, sizeof tests / sizeof tests[0]))
        return 1;
    return check_summary("swmmac_kernels");
}
