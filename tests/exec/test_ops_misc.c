/* test_ops_misc.c - rarely emitted VALU ops on llvm-mc-22 snippets: v_cube*_f32, the quad SADs,
 * v_bitop3_b16 and v_prng_b32 (gfx950), with references written from the CDNA3/CDNA4 manual's
 * pseudocode and hand-derived values. */
#include "common/check.h"
#include "common/snippet.h"
#include "exec/exec.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

static wave *w;

static uint32_t fb(float f) {
    uint32_t u;
    memcpy(&u, &f, 4);
    return u;
}

static void reset(void) {
    memset(w, 0, sizeof *w);
    wave_set_exec(w, ~0ull);
    w->mode = 0x3f0 | (1u << 9) | (1u << 8); /* denormals kept, IEEE, DX10 clamp */
}

/* Reference SAD of 4 bytes (masked: skip bytes whose reference byte in b is 0). */
static uint32_t ref_sad(uint32_t a, uint32_t b, int masked) {
    uint32_t s = 0;
    for (int i = 0; i < 4; i++) {
        int x = (a >> (8 * i)) & 0xff, y = (b >> (8 * i)) & 0xff;
        if (masked && y == 0)
            continue;
        s += (uint32_t)abs(x - y);
    }
    return s;
}

static uint64_t lane_seed(unsigned l, unsigned k) {
    uint64_t v = 0x9e3779b97f4a7c15ull * (l + 1) + k * 0x632be59bd9b4e019ull;
    return v ^ (v >> 29);
}

int main(void) {
    w = malloc(sizeof *w);
    const char *arches[] = {"gfx950", "gfx942", "gfx90a"};
    for (int ai = 0; ai < 3; ai++) {
        const char *a = arches[ai];
        int bad;

        /* Cube map: (x, y, z) per lane; the face id, sc, tc and 2*major axis. */
        static const float pts[][3] = {
            {1, 2, 3},   {1, 2, -3},  {1, -3, 2},       {1, 3, 2},         {-3, 1, 2},
            {3, 1, 2},   {2, 2, 2},   {-2, 2, 0},       {0, 0, 0},         {-0.0f, -0.0f, -0.0f},
            {NAN, 1, 2}, {1, NAN, 2}, {INFINITY, 1, 2}, {1, 1, -INFINITY},
        };
        /* expected id, sc, tc, ma (hand-derived from the manual's pseudocode) */
        static const float want[][4] = {
            {4, 1, -2, 6},         {5, -1, -2, -6},         {3, 1, -2, -6},   {2, 1, 2, 6},
            {1, 2, -1, -6},        {0, -2, -1, 6},          {4, 2, -2, 4},    {2, -2, 0, 4},
            {4, 0, -0.0f, 0},      {4, -0.0f, 0.0f, -0.0f}, {0, -2, -1, NAN}, {0, -2, NAN, 2},
            {0, -2, -1, INFINITY}, {5, -1, -1, -INFINITY},
        };
        unsigned n = sizeof pts / sizeof pts[0];
        reset();
        for (unsigned l = 0; l < 64; l++)
            for (int k = 0; k < 3; k++)
                w->v[1 + k][l] = fb(pts[l % n][k]);
        w->v[10][63] = 0x12345678;
        wave_set_exec(w, ~0ull >> 1); /* lane 63 keeps its value */
        CHECK(run_snippet(w, a,
                          "v_cubeid_f32 v10, v1, v2, v3\nv_cubesc_f32 v11, v1, v2, v3\n"
                          "v_cubetc_f32 v12, v1, v2, v3\nv_cubema_f32 v13, v1, v2, v3") ==
                  WAVE_DONE,
              "%s cube", a);
        bad = 0;
        for (unsigned l = 0; l < 63; l++)
            for (int k = 0; k < 4; k++) {
                float e = want[l % n][k];
                uint32_t got = w->v[10 + k][l];
                int ok = isnan(e) ? (got & 0x7fffffff) > 0x7f800000 : got == fb(e);
                if (!ok && bad++ < 5)
                    printf("  %s cube lane %u op %d: got %08x want %08x\n", a, l, k, got, fb(e));
            }
        CHECK(bad == 0 && w->v[10][63] == 0x12345678, "%s cube: %d wrong", a, bad);
        /* Input modifiers apply before the axis choice: -x picks the other x face. */
        reset();
        w->v[1][0] = fb(5), w->v[2][0] = fb(1), w->v[3][0] = fb(-2);
        CHECK(run_snippet(w, a, "v_cubeid_f32 v10, -v1, v2, |v3|\nv_cubema_f32 v11, -v1, v2, v3") ==
                  WAVE_DONE,
              "%s cube mods", a);
        CHECK(w->v[10][0] == fb(1) && w->v[11][0] == fb(-10), "%s cube mods: %08x %08x", a,
              w->v[10][0], w->v[11][0]);

        /* Quad SADs against a reference computed from the pseudocode. */
        reset();
        for (unsigned l = 0; l < 64; l++) {
            uint64_t s0 = lane_seed(l, 0), s2 = lane_seed(l, 2), s3 = lane_seed(l, 3);
            uint32_t s1 = (uint32_t)lane_seed(l, 1);
            if (l % 4 == 1)
                s1 &= 0xff00ff00u; /* zero reference bytes: msad skips them */
            if (l % 4 == 2)
                s2 |= 0xffff0000ffff0000ull; /* 16-bit accumulators that overflow */
            w->v[0][l] = (uint32_t)s0, w->v[1][l] = (uint32_t)(s0 >> 32);
            w->v[2][l] = s1;
            w->v[6][l] = (uint32_t)s2, w->v[7][l] = (uint32_t)(s2 >> 32);
            w->v[8][l] = (uint32_t)s2, w->v[9][l] = (uint32_t)(s2 >> 32);
            w->v[10][l] = (uint32_t)s3, w->v[11][l] = (uint32_t)(s3 >> 32);
        }
        CHECK(run_snippet(w, a,
                          "v_qsad_pk_u16_u8 v[12:13], v[0:1], v2, v[6:7]\n"
                          "v_mqsad_pk_u16_u8 v[14:15], v[0:1], v2, v[6:7]\n"
                          "v_mqsad_u32_u8 v[16:19], v[0:1], v2, v[8:11]") == WAVE_DONE,
              "%s qsad", a);
        bad = 0;
        for (unsigned l = 0; l < 64; l++) {
            uint64_t s0 = w->v[0][l] | (uint64_t)w->v[1][l] << 32;
            uint32_t s1 = w->v[2][l];
            for (int i = 0; i < 4; i++) {
                uint32_t src = (uint32_t)(s0 >> (8 * i));
                uint32_t acc16 = (w->v[6 + i / 2][l] >> (16 * (i & 1))) & 0xffff;
                uint32_t q = (ref_sad(src, s1, 0) + acc16) & 0xffff;
                uint32_t mq = (ref_sad(src, s1, 1) + acc16) & 0xffff;
                uint32_t m32 = ref_sad(src, s1, 1) + w->v[8 + i][l];
                bad += ((w->v[12 + i / 2][l] >> (16 * (i & 1))) & 0xffff) != q;
                bad += ((w->v[14 + i / 2][l] >> (16 * (i & 1))) & 0xffff) != mq;
                bad += w->v[16 + i][l] != m32;
            }
        }
        CHECK(bad == 0, "%s qsad: %d wrong", a, bad);
        /* Hand-derived: S0 bytes 01..08, S1 = 0x04030201, accumulators 0x10: window 0 matches
         * exactly (0), window 1 is off by one in each byte (4), ... */
        reset();
        w->v[0][0] = 0x04030201, w->v[1][0] = 0x08070605, w->v[2][0] = 0x04030201;
        w->v[6][0] = 0x00100010, w->v[7][0] = 0x00100010;
        CHECK(run_snippet(w, a, "v_qsad_pk_u16_u8 v[12:13], v[0:1], v2, v[6:7]") == WAVE_DONE,
              "%s qsad hand", a);
        CHECK(w->v[12][0] == 0x00140010 && w->v[13][0] == 0x001c0018, "%s qsad hand: %08x %08x", a,
              w->v[12][0], w->v[13][0]);

        if (ai == 0) { /* gfx950 only */
            /* bitop3_b16 0x96 = xor3; op_sel:[1,0,0,1]: S0 from the high half, result to the
             * high half, low half kept. */
            reset();
            for (unsigned l = 0; l < 64; l++) {
                w->v[2][l] = 0xa5a50000u | l;
                w->v[3][l] = 0x1111ff00u + l;
                w->v[4][l] = 0x0000f0f0u;
                w->v[1][l] = 0xdeadbeefu;
            }
            CHECK(run_snippet(w, a,
                              "v_bitop3_b16 v1, v2, v3, v4 bitop3:0x96 op_sel:[1,0,0,1]\n"
                              "v_bitop3_b16 v5, v2, v3, v4 bitop3:0xea") == WAVE_DONE,
                  "%s bitop3_b16", a);
            bad = 0;
            for (unsigned l = 0; l < 64; l++) {
                uint32_t x3 = (0xa5a5u ^ ((0xff00u + l) & 0xffff) ^ 0xf0f0u) & 0xffff;
                uint32_t ao = (((l & (0xff00u + l)) | 0xf0f0u) & 0xffff);
                bad += w->v[1][l] != (x3 << 16 | 0xbeefu);
                bad += (w->v[5][l] & 0xffff) != ao;
            }
            CHECK(bad == 0, "%s bitop3_b16: %d wrong (lane 1: %08x %08x)", a, bad, w->v[1][1],
                  w->v[5][1]);

            /* prng: in << 1 ^ (in[31] ? 197 : 0); zero stays zero. */
            reset();
            w->v[2][0] = 0x80000000u, w->v[2][1] = 1, w->v[2][2] = 0, w->v[2][3] = 0xffffffffu;
            w->s[4] = 0xc0000001u;
            CHECK(run_snippet(w, a, "v_prng_b32 v1, v2\nv_prng_b32_e64 v3, s4") == WAVE_DONE,
                  "%s prng", a);
            CHECK(w->v[1][0] == 197 && w->v[1][1] == 2 && w->v[1][2] == 0 &&
                      w->v[1][3] == (0xfffffffeu ^ 197) && w->v[3][5] == (0x80000002u ^ 197),
                  "%s prng: %x %x %x %x %x", a, w->v[1][0], w->v[1][1], w->v[1][2], w->v[1][3],
                  w->v[3][5]);
        }
    }
    for (int ai = 0; ai < 3; ai++) {
        const char *a = arches[ai];
        int bad;

        /* (Snippets have no labels: branch offsets are in dwords from the next instruction.)
         * Fork/join (CSP stack): lanes 0-3 pass, 4-7 fail; equal counts run the pass side first
         * and push {pc after the fork, fail mask}.  The join pops it, runs the else side, and the
         * second join falls through with CSP back at 0 (EXEC is the compiler's to restore). */
        reset();
        w->s[4] = 0x0f, w->s[5] = 0;
        w->s[10] = 0;
        wave_set_exec(w, 0xff);
        for (unsigned l = 0; l < 64; l++)
            w->v[1][l] = 9;
        CHECK(run_snippet(w, a,
                          "s_cbranch_i_fork s[4:5], 2\nv_mov_b32 v1, 2\ns_branch 1\n" /* snippets */
                          "v_mov_b32 v1, 1\ns_cbranch_join s10\ns_mov_b64 s[20:21], exec") ==
                  WAVE_DONE,
              "%s i_fork", a);
        bad = 0;
        for (unsigned l = 0; l < 64; l++)
            bad += w->v[1][l] != (l < 4 ? 1u : l < 8 ? 2u : 9u);
        CHECK(bad == 0 && w->s[20] == 0xf0 && w->s[21] == 0 && (w->mode >> 29) == 0 &&
                  w->s[0] == 0xf0 && w->s[2] == 0x1004,
              "%s i_fork: %d lanes wrong, exec %x, csp %u, stack %x %x", a, bad, w->s[20],
              w->mode >> 29, w->s[0], w->s[2]);
        /* g_fork with an absolute target (byte 24); 1 passing lane against 7: the pass side (not
         * more lanes than the other) runs first, {byte 16, fail mask} is pushed. */
        reset();
        w->s[4] = 0x01, w->s[5] = 0;
        w->s[10] = 0;
        wave_set_exec(w, 0xff);
        for (unsigned l = 0; l < 64; l++)
            w->v[2][l] = 5;
        CHECK(run_snippet(w, a,
                          "s_getpc_b64 s[6:7]\ns_add_u32 s6, s6, 20\ns_addc_u32 s7, s7, 0\n"
                          "s_cbranch_g_fork s[4:5], s[6:7]\nv_mov_b32 v1, 2\nv_mov_b32 v1, 1\n"
                          "v_add_u32 v2, v1, v1\ns_cbranch_join s10") == WAVE_DONE,
              "%s g_fork", a);
        /* lane 0 runs v_add at byte 24 (v2 = 0 + 0), the join pops {16, lanes 1-7}: those run
         * v1 = 2, v1 = 1, v2 = 2, and the second join falls through. */
        CHECK(w->v[1][0] == 0 && w->v[2][0] == 0 && w->v[1][5] == 1 && w->v[2][5] == 2 &&
                  wave_exec(w) == 0xfe && (w->mode >> 29) == 0 && w->s[0] == 0xfe &&
                  w->s[2] == 0x1010,
              "%s g_fork: %x %x %x %x exec %llx", a, w->v[1][0], w->v[2][0], w->v[1][5], w->v[2][5],
              (unsigned long long)wave_exec(w));
        reset();
        w->s[4] = 0xffffffffu, w->s[5] = 0xffffffffu; /* every lane passes: a plain jump */
        CHECK(run_snippet(w, a, "s_cbranch_i_fork s[4:5], 1\ns_mov_b32 s1, 1\ns_mov_b32 s2, 2") ==
                      WAVE_DONE &&
                  w->s[1] == 0 && w->s[2] == 2 && (w->mode >> 29) == 0,
              "%s i_fork all pass", a);

        /* Debug-flag branches are never taken (nothing sets COND_DBG_SYS/USER). */
        reset();
        CHECK(run_snippet(w, a,
                          "s_cbranch_cdbgsys 1\ns_mov_b32 s1, 5\ns_cbranch_cdbguser 1\n"
                          "s_mov_b32 s2, 6\ns_cbranch_cdbgsys_or_user 1\ns_mov_b32 s3, 7\n"
                          "s_cbranch_cdbgsys_and_user 1\ns_mov_b32 s4, 8") == WAVE_DONE &&
                  w->s[1] == 5 && w->s[2] == 6 && w->s[3] == 7 && w->s[4] == 8,
              "%s cdbg", a);

        /* Halt and messages. */
        reset();
        CHECK(run_snippet(w, a, "s_sethalt 0\ns_mov_b32 s1, 1") == WAVE_DONE && w->s[1] == 1,
              "%s sethalt 0", a);
        CHECK(run_snippet(w, a, "s_sethalt 1\ns_mov_b32 s2, 1") == WAVE_FAULT &&
                  w->fault.kind == XF_HALT && w->fault.pc == 0 && w->s[2] == 0,
              "%s sethalt 1: kind %d", a, w->fault.kind);
        reset();
        w->s[124] = 0x1234;
        CHECK(run_snippet(w, a, "s_sendmsg sendmsg(MSG_INTERRUPT)\ns_mov_b32 s1, 1") == WAVE_DONE &&
                  w->s[1] == 1,
              "%s sendmsg interrupt", a);
        CHECK(run_snippet(w, a, "s_nop 0\ns_sendmsg sendmsg(MSG_HALT_WAVES)") == WAVE_FAULT &&
                  w->fault.kind == XF_HALT && w->fault.pc == 4,
              "%s sendmsg halt_waves: kind %d", a, w->fault.kind);
        CHECK(run_snippet(w, a, "s_sendmsg sendmsg(MSG_SAVEWAVE)") == WAVE_FAULT &&
                  w->fault.kind == XF_UNIMPLEMENTED,
              "%s sendmsg savewave: kind %d", a, w->fault.kind);
        CHECK(run_snippet(w, a, "s_sendmsg sendmsg(MSG_GET_DOORBELL)") == WAVE_FAULT &&
                  w->fault.kind == XF_UNIMPLEMENTED,
              "%s sendmsg doorbell: kind %d", a, w->fault.kind);
        CHECK(run_snippet(w, a, "s_sendmsg 0") == WAVE_FAULT && w->fault.kind == XF_ILLEGAL,
              "%s sendmsg 0: kind %d", a, w->fault.kind);
        CHECK(run_snippet(w, a, "s_sendmsghalt sendmsg(MSG_INTERRUPT)") == WAVE_FAULT &&
                  w->fault.kind == XF_HALT,
              "%s sendmsghalt: kind %d", a, w->fault.kind);

        /* VSKIP drops vector instructions (VALU and memory) until it is cleared. */
        reset();
        for (unsigned l = 0; l < 64; l++)
            w->v[1][l] = 3, w->v[4][l] = 0, w->v[5][l] = 0;
        w->s[0] = 2, w->s[1] = 1;
        CHECK(run_snippet(w, a,
                          "s_setvskip s0, s1\nv_mov_b32 v1, 7\nflat_load_dword v2, v[4:5]\n"
                          "s_mov_b32 s3, 4\ns_setvskip 0, 0\nv_mov_b32 v6, 8") == WAVE_DONE &&
                  w->v[1][9] == 3 && w->v[6][9] == 8 && w->s[3] == 4 && w->vskip == 0,
              "%s setvskip: %x %x", a, w->v[1][9], w->v[6][9]);

        /* s_rfe_b64 jumps to S0 (byte 16 of the program at 0x1000). */
        reset();
        CHECK(run_snippet(w, a,
                          "s_getpc_b64 s[0:1]\ns_add_u32 s0, s0, 12\ns_rfe_b64 s[0:1]\n"
                          "s_mov_b32 s5, 1\ns_mov_b32 s6, 2") == WAVE_DONE &&
                  w->s[5] == 0 && w->s[6] == 2,
              "%s rfe: %x %x", a, w->s[5], w->s[6]);
        /* A jump 4 GiB past the code must not wrap into it (pc is a 32-bit offset): bad PC. */
        static const char *const far_jumps[] = {
            "s_getpc_b64 s[0:1]\ns_add_u32 s1, s1, 1\ns_setpc_b64 s[0:1]",
            "s_getpc_b64 s[0:1]\ns_add_u32 s1, s1, 1\ns_add_u32 s0, s0, 8\ns_rfe_b64 s[0:1]",
            ("s_getpc_b64 s[0:1]\ns_add_u32 s1, s1, 1\ns_add_u32 s0, s0, 12\n"
             "s_swappc_b64 s[2:3], s[0:1]"),
            "s_getpc_b64 s[0:1]\ns_sub_u32 s1, s1, 1\ns_add_u32 s0, s0, 8\ns_setpc_b64 s[0:1]",
        };
        for (unsigned j = 0; j < sizeof far_jumps / sizeof far_jumps[0]; j++) {
            reset();
            CHECK(run_snippet(w, a, far_jumps[j]) == WAVE_FAULT && w->fault.kind == XF_PC,
                  "%s far jump %u: kind %d", a, j, w->fault.kind);
        }
        reset();
        CHECK(run_snippet(w, a, "s_endpgm_ordered_ps_done\ns_mov_b32 s5, 1") == WAVE_DONE &&
                  w->s[5] == 0,
              "%s endpgm_ordered_ps_done", a);

        /* Scalar scratch: byte offsets are the wave's private memory as laid out for the vector
         * unit (dword i of lane L at (i * 64 + L) * 4), the SGPR offset counts 64 bytes. */
        static uint8_t scr[64 * 16];
        reset();
        memset(scr, 0, sizeof scr);
        w->scratch = scr, w->scratch_lane = 16, w->scratch_va = 0x7000000000ull;
        w->s[2] = 0, w->s[3] = 0x70;
        w->s[4] = 2; /* 128 bytes */
        w->s[8] = 0xaaaa0001, w->s[9] = 0xbbbb0002, w->s[10] = 0xcccc0003, w->s[11] = 0xdddd0004;
        /* gfx90a's scratch_* need a VGPR or SGPR address (the "off, off" form is gfx940+):
         * v20 = 0 gives the same per-lane addresses */
        CHECK(run_snippet(w, a,
                          strcmp(a, "gfx90a")
                              ? "s_scratch_store_dword s8, s[2:3], 0x10\n"
                                "s_scratch_store_dwordx4 s[8:11], s[2:3], s4\n"
                                "scratch_load_dword v1, off, off\n"
                                "scratch_load_dword v2, off, off offset:8\n"
                                "s_scratch_load_dwordx2 s[12:13], s[2:3], s4 offset:0x4"
                              : "s_scratch_store_dword s8, s[2:3], 0x10\n"
                                "s_scratch_store_dwordx4 s[8:11], s[2:3], s4\n"
                                "v_mov_b32 v20, 0\n"
                                "scratch_load_dword v1, v20, off\n"
                                "scratch_load_dword v2, v20, off offset:8\n"
                                "s_scratch_load_dwordx2 s[12:13], s[2:3], s4 offset:0x4") ==
                  WAVE_DONE,
              "%s s_scratch", a);
        /* byte 16 = lane 4 dword 0; bytes 128..143 = lanes 32..35 of dword 0... no: dword 0 spans
         * bytes 0..255 (64 lanes), so bytes 128.. are lanes 32..35 of dword 0. */
        CHECK(w->v[1][4] == 0xaaaa0001 && w->v[1][32] == 0xaaaa0001 && w->v[1][33] == 0xbbbb0002 &&
                  w->v[1][35] == 0xdddd0004 && w->v[1][5] == 0 && w->s[12] == 0xbbbb0002 &&
                  w->s[13] == 0xcccc0003,
              "%s s_scratch: %x %x %x %x %x", a, w->v[1][4], w->v[1][32], w->v[1][35], w->s[12],
              w->s[13]);
        CHECK(run_snippet(w, a, "s_scratch_load_dword s1, s[2:3], 0x3fc") == WAVE_DONE,
              "%s s_scratch last dword", a);
        CHECK(run_snippet(w, a, "s_scratch_load_dwordx2 s[0:1], s[2:3], 0x3fc") == WAVE_FAULT &&
                  w->fault.kind == XF_MEMORY && w->fault.addr == 0x70000003fcull &&
                  w->fault.size == 8,
              "%s s_scratch oob: kind %d addr %llx", a, w->fault.kind,
              (unsigned long long)w->fault.addr);
        CHECK(run_snippet(w, a, "s_scratch_store_dword s1, s[2:3], -4") == WAVE_FAULT &&
                  w->fault.kind == XF_MEMORY && w->fault.write,
              "%s s_scratch below the base", a);
        (void)bad;
    }
    free(w);
    return check_summary("ops_misc");
}
