/* test_rdna.c - the RDNA execution slice (src/exec/rdna.c) on llvm-mc-22 snippets for gfx1100
 * and gfx1201, wave32 and wave64: lane masks one SGPR wide in wave32 (VCC_LO, an SGPR, EXEC_LO;
 * VCC_HI and the next SGPR untouched), V_CMPX writing EXEC only, the M0/NULL encodings, wave32
 * lane selects, VOPD read-before-write, the renamed memory ops (saddr off, gfx12 atomics'
 * return bit), and ops outside the allowlist faulting by name.  Expected values are worked out
 * from the RDNA3/RDNA4 ISA pseudocode by hand, not taken from gfxemu runs. */
#include "common/bits.h"
#include "common/check.h"
#include "common/snippet.h"
#include "exec/exec.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static snippet_rig rig; /* buf: 256 bytes, dword i = 0x1000 + i */
static wave *const w = &rig.wv;

/* Registers 0, v0 = lane id, the wave's lanes on (32 or 64), MODE keeping denormals. */
static void reset(int wave64) { snippet_rig_lanes(&rig, wave64, 0); }

static int run(const char *arch, const char *text) { return snippet_rig_run(&rig, arch, text); }

/* Lane masks, EXEC and the M0/NULL remap in wave32; the same text on both RDNA targets. */
static void t_wave32(const char *a) {
    reset(0);
    w->s[0] = 20;
    w->s[ISA_SREG_VCC_HI] = 0xdeadbeef;
    CHECK(run(a, "v_cmp_gt_u32_e32 vcc_lo, s0, v0") == WAVE_DONE, "%s cmp", a);
    CHECK(w->s[ISA_SREG_VCC_LO] == 0x000fffff && w->s[ISA_SREG_VCC_HI] == 0xdeadbeef,
          "%s v_cmp e32: vcc_lo %08x vcc_hi %08x (want 000fffff, deadbeef)", a,
          w->s[ISA_SREG_VCC_LO], w->s[ISA_SREG_VCC_HI]);

    /* e64 with an SGPR destination: one SGPR in wave32, s6 keeps its value */
    reset(0);
    w->s[6] = 0x12345678;
    for (unsigned l = 0; l < 64; l++)
        w->v[1][l] = l & 1 ? l : 99;
    CHECK(run(a, "v_cmp_eq_u32_e64 s5, v0, v1") == WAVE_DONE, "%s cmp e64", a);
    CHECK(w->s[5] == 0xaaaaaaaa && w->s[6] == 0x12345678, "%s v_cmp e64: s5 %08x s6 %08x", a,
          w->s[5], w->s[6]);

    /* partial EXEC including lanes 16-31: only those lanes are written */
    reset(0);
    w->s[ISA_SREG_EXEC_LO] = 0xffff0000;
    for (unsigned l = 0; l < 64; l++)
        w->v[2][l] = 0x55;
    CHECK(run(a, "v_mov_b32_e32 v2, 7") == WAVE_DONE, "%s mov", a);
    int bad = 0;
    for (unsigned l = 0; l < 64; l++)
        bad += w->v[2][l] != (l >= 16 && l < 32 ? 7u : 0x55u);
    CHECK(bad == 0, "%s partial exec: %d lanes wrong", a, bad);

    /* V_CMPX (RDNA): EXEC only; VCC keeps its value */
    reset(0);
    w->s[ISA_SREG_VCC_LO] = 0xaaaa;
    CHECK(run(a, "v_cmpx_gt_u32_e32 16, v0") == WAVE_DONE, "%s cmpx", a);
    CHECK(w->s[ISA_SREG_EXEC_LO] == 0xffff && w->s[ISA_SREG_EXEC_HI] == 0 &&
              w->s[ISA_SREG_VCC_LO] == 0xaaaa,
          "%s v_cmpx: exec %08x:%08x vcc_lo %08x", a, w->s[ISA_SREG_EXEC_HI],
          w->s[ISA_SREG_EXEC_LO], w->s[ISA_SREG_VCC_LO]);

    /* the VOP3 form too: its only destination is EXEC (no SGPR operand on RDNA) */
    reset(0);
    w->s[ISA_SREG_VCC_LO] = 0xaaaa;
    w->s[0] = 3;
    CHECK(run(a, "v_cmpx_lt_u32_e64 s0, v0") == WAVE_DONE, "%s cmpx e64", a);
    CHECK(w->s[ISA_SREG_EXEC_LO] == 0xfffffff0 && w->s[ISA_SREG_EXEC_HI] == 0 &&
              w->s[ISA_SREG_VCC_LO] == 0xaaaa && w->s[0] == 3 && w->s[1] == 0,
          "%s v_cmpx e64: exec %08x:%08x vcc_lo %08x s0 %x s1 %x", a, w->s[ISA_SREG_EXEC_HI],
          w->s[ISA_SREG_EXEC_LO], w->s[ISA_SREG_VCC_LO], w->s[0], w->s[1]);

    /* carry out to vcc_lo and back in: 0xfffffff0 + lane carries for lanes 16-31 */
    reset(0);
    w->s[0] = 0xfffffff0;
    w->s[ISA_SREG_VCC_HI] = 0x77;
    CHECK(
        run(a, "v_add_co_u32 v2, vcc_lo, v0, s0\nv_add_co_ci_u32_e32 v3, vcc_lo, 0, v4, vcc_lo") ==
            WAVE_DONE,
        "%s carry", a);
    bad = 0;
    for (unsigned l = 0; l < 32; l++)
        bad += w->v[2][l] != 0xfffffff0u + l || w->v[3][l] != (l >= 16);
    CHECK(bad == 0 && w->s[ISA_SREG_VCC_LO] == 0 && w->s[ISA_SREG_VCC_HI] == 0x77,
          "%s add_co/ci: %d lanes wrong, vcc %08x:%08x", a, bad, w->s[ISA_SREG_VCC_HI],
          w->s[ISA_SREG_VCC_LO]);

    /* null as a carry-out destination: nothing is written (s124 is NULL on RDNA) */
    reset(0);
    w->s[ISA_SREG_VCC_LO] = 0xffffffff;
    w->s[ISA_SREG_M0] = 0x31;
    CHECK(run(a, "v_add_co_ci_u32_e64 v3, null, -1, v0, vcc_lo") == WAVE_DONE, "%s null", a);
    CHECK(w->v[3][5] == 5 && w->s[ISA_SREG_M0] == 0x31, "%s null sdst: v3[5] %u m0 %x", a,
          w->v[3][5], w->s[ISA_SREG_M0]);

    /* M0 is encoding 125 on RDNA: s_mov to and from it; NULL reads as 0 */
    reset(0);
    w->s[2] = 0x99;
    CHECK(run(a, "s_mov_b32 m0, 5\ns_mov_b32 s1, m0\ns_mov_b32 null, 7\ns_mov_b32 s2, null") ==
              WAVE_DONE,
          "%s m0", a);
    CHECK(w->s[ISA_SREG_M0] == 5 && w->s[1] == 5 && w->s[2] == 0, "%s m0/null: m0 %u s1 %u s2 %x",
          a, w->s[ISA_SREG_M0], w->s[1], w->s[2]);

    /* v_cndmask with a one-SGPR mask */
    reset(0);
    w->s[5] = 0x0f0f0f0f;
    CHECK(run(a, "v_cndmask_b32_e64 v2, 1, 2, s5") == WAVE_DONE, "%s cndmask", a);
    bad = 0;
    for (unsigned l = 0; l < 32; l++)
        bad += w->v[2][l] != ((0x0f0f0f0fu >> l) & 1 ? 2u : 1u);
    CHECK(bad == 0, "%s cndmask: %d lanes wrong", a, bad);

    /* 32-bit saveexec: D = EXEC_LO, EXEC_LO = S0 & EXEC_LO, SCC = EXEC_LO != 0 */
    reset(0);
    w->s[ISA_SREG_EXEC_LO] = 0xffff00ff;
    w->s[3] = 0x0f0f0f0f;
    CHECK(run(a, "s_and_saveexec_b32 s2, s3") == WAVE_DONE, "%s saveexec", a);
    CHECK(w->s[2] == 0xffff00ff && w->s[ISA_SREG_EXEC_LO] == 0x0f0f000f &&
              w->s[ISA_SREG_EXEC_HI] == 0 && w->scc == 1,
          "%s s_and_saveexec_b32: s2 %08x exec_lo %08x scc %u", a, w->s[2], w->s[ISA_SREG_EXEC_LO],
          w->scc);
    reset(0);
    w->s[ISA_SREG_EXEC_LO] = 0xff;
    w->s[3] = 0xff;
    CHECK(run(a, "s_and_not1_saveexec_b32 s2, s3") == WAVE_DONE, "%s andn1 saveexec", a);
    CHECK(w->s[2] == 0xff && w->s[ISA_SREG_EXEC_LO] == 0 && w->scc == 0,
          "%s s_and_not1_saveexec_b32: s2 %08x exec_lo %08x scc %u", a, w->s[2],
          w->s[ISA_SREG_EXEC_LO], w->scc);

    /* wave32 lane select is S1[4:0] */
    reset(0);
    CHECK(run(a, "v_readlane_b32 s3, v0, 33\nv_writelane_b32 v5, 9, 34") == WAVE_DONE, "%s lane",
          a);
    CHECK(w->s[3] == 1 && w->v[5][2] == 9 && w->v[5][34] == 0, "%s readlane/writelane: %u %u %u", a,
          w->s[3], w->v[5][2], w->v[5][34]);

    /* s_cbranch_vccz looks at VCC_LO only */
    reset(0);
    w->s[ISA_SREG_VCC_HI] = 1;
    CHECK(run(a, "s_cbranch_vccz 1\ns_mov_b32 s7, 1\ns_mov_b32 s8, 2") == WAVE_DONE, "%s vccz", a);
    CHECK(w->s[7] == 0 && w->s[8] == 2, "%s s_cbranch_vccz: s7 %u s8 %u", a, w->s[7], w->s[8]);

    /* a 64-bit write of EXEC in wave32 runs; lanes follow EXEC_LO only (the rest of the
     * EXEC_HI rules are in test_rdna_gap.c) */
    reset(0);
    CHECK(run(a, "s_mov_b64 exec, -1") == WAVE_DONE && w->s[ISA_SREG_EXEC_LO] == 0xffffffff &&
              wave_exec(w) == 0xffffffffull,
          "%s exec_hi write: exec %llx", a, (unsigned long long)wave_exec(w));
}

/* VOPD: both halves, sources read before either writes. */
static void t_vopd(const char *a) {
    reset(0);
    for (unsigned l = 0; l < 64; l++)
        w->v[1][l] = 100 + l, w->v[2][l] = 200 + l;
    CHECK(run(a, "v_dual_mov_b32 v1, v2 :: v_dual_mov_b32 v2, v1") == WAVE_DONE, "%s vopd", a);
    CHECK(w->v[1][3] == 203 && w->v[2][3] == 103 && w->v[1][31] == 231 && w->v[1][32] == 132,
          "%s vopd swap: %u %u %u %u", a, w->v[1][3], w->v[2][3], w->v[1][31], w->v[1][32]);

    reset(0);
    for (unsigned l = 0; l < 64; l++) {
        w->v[4][l] = w->v[1][l] = bits32(1.5f), w->v[5][l] = w->v[2][l] = bits32((float)l);
        w->v[6][l] = bits32(2.0f), w->v[7][l] = bits32(-3.0f);
    }
    w->s[ISA_SREG_VCC_LO] = 0x5;
    CHECK(run(a, "v_dual_fmac_f32 v6, v4, v5 :: v_dual_cndmask_b32 v7, v1, v2") == WAVE_DONE,
          "%s vopd fmac", a);
    int bad = 0;
    for (unsigned l = 0; l < 32; l++)
        bad += w->v[6][l] != bits32(fmaf(1.5f, (float)l, 2.0f)) ||
               w->v[7][l] != ((0x5u >> l) & 1 ? bits32((float)l) : bits32(1.5f));
    CHECK(bad == 0, "%s vopd fmac/cndmask: %d lanes wrong", a, bad);

    reset(0);
    for (unsigned l = 0; l < 64; l++)
        w->v[2][l] = bits32(3.0f), w->v[3][l] = l;
    CHECK(run(a, "v_dual_fmamk_f32 v0, v2, 0x40000000, v2 :: v_dual_add_nc_u32 v1, 7, v3") ==
              WAVE_DONE,
          "%s vopd fmamk", a);
    CHECK(w->v[0][9] == bits32(9.0f) && w->v[1][9] == 16, "%s vopd fmamk/add_nc: %08x %u", a,
          w->v[0][9], w->v[1][9]);
}

/* f32 edge values on RDNA's renamed and shared VALU ops. */
static void t_valu(const char *a) {
    static const float x[] = {-0.0f, 0.0f, 0x1p-126f, -0x1p-149f, 3e38f, NAN, INFINITY, 1.0f};
    static const float y[] = {-0.0f, -0.0f, 0.5f, 0.5f, 10.0f, 1.0f, -INFINITY, 0x1p-24f};
    reset(0);
    for (unsigned l = 0; l < 8; l++)
        w->v[1][l] = bits32(x[l]), w->v[2][l] = bits32(y[l]);
    CHECK(run(a, "v_add_f32_e32 v3, v1, v2\nv_mul_f32_e32 v4, v1, v2\nv_fmac_f32_e32 v5, v1, v2") ==
              WAVE_DONE,
          "%s f32", a);
    int bad = 0;
    for (unsigned l = 0; l < 8; l++) {
        float s = x[l] + y[l], p = x[l] * y[l], f = fmaf(x[l], y[l], 0.0f);
        uint32_t gs = w->v[3][l], gp = w->v[4][l], gf = w->v[5][l];
        bad += isnan(s) ? !isnan(from_bits32(gs)) : gs != bits32(s);
        bad += isnan(p) ? !isnan(from_bits32(gp)) : gp != bits32(p);
        bad += isnan(f) ? !isnan(from_bits32(gf)) : gf != bits32(f);
    }
    CHECK(bad == 0, "%s f32 edge values: %d wrong", a, bad);

    reset(0);
    w->s[0] = 0x7fffffff;
    CHECK(run(a, "v_add_nc_u32_e32 v1, s0, v0\nv_sub_nc_u32_e64 v2, v0, s0\n"
                 "v_mad_u64_u32 v[4:5], null, v0, s0, 0\nv_lshlrev_b64 v[6:7], 33, v[0:1]") ==
              WAVE_DONE,
          "%s int", a);
    bad = 0;
    for (unsigned l = 0; l < 32; l++) {
        uint64_t m = (uint64_t)l * 0x7fffffffu, sh = ((uint64_t)(0x7fffffffu + l) << 32 | l) << 33;
        bad += w->v[1][l] != 0x7fffffffu + l || w->v[2][l] != l - 0x7fffffffu ||
               w->v[4][l] != (uint32_t)m || w->v[5][l] != (uint32_t)(m >> 32) ||
               w->v[6][l] != (uint32_t)sh || w->v[7][l] != (uint32_t)(sh >> 32);
    }
    CHECK(bad == 0, "%s integer ops: %d lanes wrong", a, bad);
}

/* Memory under RDNA names: global with and without saddr, scratch, LDS, atomics. */
static void t_mem(const char *a, int g12) {
    reset(0);
    for (unsigned l = 0; l < 64; l++) {
        uint64_t ad = rig.buf + 4ull * l;
        w->v[2][l] = (uint32_t)ad, w->v[3][l] = (uint32_t)(ad >> 32);
        w->v[4][l] = 4 * l;
    }
    w->s[0] = (uint32_t)rig.buf, w->s[1] = (uint32_t)(rig.buf >> 32);
    CHECK(run(a, "global_load_b32 v1, v[2:3], off\nglobal_load_b32 v5, v4, s[0:1] offset:4") ==
              WAVE_DONE,
          "%s global", a);
    int bad = 0;
    for (unsigned l = 0; l < 32; l++)
        bad += w->v[1][l] != 0x1000 + l || w->v[5][l] != 0x1001 + l;
    CHECK(bad == 0 && w->v[1][32] == 0, "%s global loads: %d lanes wrong", a, bad);

    /* scratch offsets are per lane (each lane has scratch_lane = 64 bytes here) */
    for (unsigned l = 0; l < 64; l++)
        w->v[11][l] = 4 * (l & 7);
    CHECK(run(a, "v_add_nc_u32_e32 v6, 0x100, v0\nscratch_store_b32 v11, v6, off offset:8\n"
                 "scratch_load_b32 v7, v11, off offset:8\nscratch_store_b32 off, v0, off offset:4\n"
                 "scratch_load_b32 v12, off, off offset:4\nds_store_b32 v4, v6\n"
                 "ds_load_b32 v8, v4") == WAVE_DONE,
          "%s scratch/lds", a);
    bad = 0;
    for (unsigned l = 0; l < 32; l++)
        bad += w->v[7][l] != 0x100 + l || w->v[8][l] != 0x100 + l || w->v[12][l] != l;
    CHECK(bad == 0, "%s scratch/LDS round trip: %d lanes wrong", a, bad);

    /* returning atomic add: the old value comes back (gfx11 glc, gfx12 th:TH_ATOMIC_RETURN) */
    reset(0);
    for (unsigned l = 0; l < 64; l++)
        w->v[4][l] = 4 * l, w->v[9][l] = 1;
    w->s[0] = (uint32_t)rig.buf, w->s[1] = (uint32_t)(rig.buf >> 32);
    CHECK(run(a, g12 ? "global_atomic_add_u32 v10, v4, v9, s[0:1] th:TH_ATOMIC_RETURN"
                     : "global_atomic_add_u32 v10, v4, v9, s[0:1] glc") == WAVE_DONE,
          "%s atomic", a);
    uint32_t m5 = 0, m40 = 0;
    gmem_read(rig.mem, rig.buf + 20, &m5, 4);
    gmem_read(rig.mem, rig.buf + 160, &m40, 4);
    CHECK(w->v[10][5] == 0x1005 && m5 == 0x1006 && m40 == 0x1028, "%s atomic add: old %x mem %x %x",
          a, w->v[10][5], m5, m40);
}

/* gfx11 true16: VGPR halves in and out, the other half kept (RDNA3 ISA "16-bit VGPRs"). */
static void t_true16(void) {
    const char *a = "gfx1100";
    reset(0);
    for (unsigned l = 0; l < 64; l++)
        w->v[1][l] = 0x11112222, w->v[2][l] = 0xabcd0000 | l, w->v[3][l] = 0x33334444;
    CHECK(run(a, "v_mov_b16_e32 v1.h, v2.l\nv_and_b16 v3.l, v2.h, 0x7fff\n"
                 "v_mov_b16_e64 v4.h, 5") == WAVE_DONE,
          "t16");
    CHECK(w->v[1][7] == 0x00072222 && w->v[3][7] == 0x33332bcd && w->v[4][7] == 0x00050000 &&
              w->v[1][40] == 0x11112222,
          "true16: v1 %08x v3 %08x v4 %08x (lane 40 %08x)", w->v[1][7], w->v[3][7], w->v[4][7],
          w->v[1][40]);
    reset(0);
    for (unsigned l = 0; l < 64; l++)
        w->v[2][l] = (l << 16) | 0x8000u, w->v[3][l] = 9;
    w->s[7] = 0x5a5a;
    CHECK(run(a, "v_cmp_lt_u16_e64 s6, v2.h, v3.l\nv_cmp_gt_i16_e32 vcc_lo, 0, v2.l") == WAVE_DONE,
          "t16 cmp");
    CHECK(w->s[6] == 0x1ff && w->s[7] == 0x5a5a && w->s[ISA_SREG_VCC_LO] == 0xffffffff,
          "true16 compares: s6 %08x s7 %08x vcc_lo %08x", w->s[6], w->s[7], w->s[ISA_SREG_VCC_LO]);
    CHECK(run(a, "v_cmpx_gt_u16_e64 v2.h, 4") == WAVE_DONE, "t16 cmpx");
    CHECK(w->s[ISA_SREG_EXEC_LO] == 0xffffffe0 && w->s[ISA_SREG_VCC_LO] == 0xffffffff,
          "true16 v_cmpx_gt_u16_e64: exec_lo %08x vcc_lo %08x", w->s[ISA_SREG_EXEC_LO],
          w->s[ISA_SREG_VCC_LO]);
    /* (v_alignbit_b32 / v_alignbyte_b32 with a .h shift operand: tests/exec/test_rdna_buf.c) */
}

/* What is not on the allowlist stops the wave by name. */
static void t_refused(const char *a) {
    static const struct {
        const char *text;
        unsigned op;
    } r[] = {
        /* (v_permlane16_b32 and ds_cmpstore_b32 run now: tests/exec/test_rdna_buf.c;
         * ds_append and v_dual_dot2acc_f32_bf16: tests/exec/test_rdna_gap.c) */
        {"s_sendmsg_rtn_b32 s0, sendmsg(MSG_RTN_SAVE_WAVE)", ISA_OPL_s_sendmsg_rtn_b32},
        {"s_sendmsg sendmsg(MSG_GS_ALLOC_REQ)", ISA_OPL_s_sendmsg},
    };
    for (size_t i = 0; i < sizeof r / sizeof r[0]; i++) {
        reset(0);
        int st = run_snippet(w, a, r[i].text);
        CHECK(st == WAVE_FAULT && w->fault.kind == XF_UNIMPLEMENTED && w->fault.pc == 0 &&
                  (!r[i].op || w->fault.op == r[i].op),
              "%s '%s': status %d kind %d op %u", a, r[i].text, st, w->fault.kind, w->fault.op);
    }
}

/* Wave64 on RDNA: 64-bit masks, all 64 lanes. */
static void t_wave64(const char *a) {
    reset(1);
    w->s[0] = 40;
    CHECK(run(a, "v_cmp_gt_u32_e32 vcc, s0, v0\nv_cndmask_b32_e64 v2, 1, 2, vcc") == WAVE_DONE,
          "%s cmp", a);
    CHECK(w->s[ISA_SREG_VCC_LO] == 0xffffffff && w->s[ISA_SREG_VCC_HI] == 0xff &&
              w->v[2][39] == 2 && w->v[2][40] == 1 && w->v[2][63] == 1,
          "%s wave64 vcc %08x:%08x", a, w->s[ISA_SREG_VCC_HI], w->s[ISA_SREG_VCC_LO]);
    reset(1);
    CHECK(run(a, "v_cmpx_lt_u32_e32 s0, v0\nv_mov_b32_e32 v3, 5") == WAVE_DONE, "%s cmpx", a);
    CHECK(wave_exec(w) == ~1ull && w->v[3][0] == 0 && w->v[3][63] == 5, "%s wave64 cmpx %llx", a,
          (unsigned long long)wave_exec(w));
    reset(1);
    CHECK(run(a, "v_readlane_b32 s3, v0, 33") == WAVE_DONE && w->s[3] == 33,
          "%s wave64 readlane %u", a, w->s[3]);
}

int main(void) {
    if (snippet_rig_open(&rig) != 0)
        return 1;
    const char *t[] = {"gfx1100", "gfx1201"};
    for (int i = 0; i < 2; i++) {
        t_wave32(t[i]);
        t_vopd(t[i]);
        t_valu(t[i]);
        t_mem(t[i], i == 1);
        t_refused(t[i]);
    }
    t_true16();
    t_wave64("gfx1100:wavefrontsize64");
    t_wave64("gfx1201:wavefrontsize64");
    snippet_rig_close(&rig);
    return check_summary("test_rdna");
}
