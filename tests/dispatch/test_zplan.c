/* test_zplan.c - the registers a wave must find zero at its start (src/exec/zplan.c,
 * dp_wave_init()).
 *  1. Plans of assembled programs, written from the rules: a row is zeroed when some instruction
 *     names it and the entry prefix (up to the first branch or EXEC write) does not write it in
 *     every lane before reading it; writes that keep part of the old value (SDWA, d16 loads,
 *     mac, 8/16-bit results, lane writes) count as reads; dynamic indexing means no plan.
 *     RDNA programs (gfx1100, gfx1201) by the same rules, VOPD halves each by its own op.
 *  2. End to end on one worker thread: a kernel fills registers with 0x5a5a5a5a, then a kernel
 *     that reads registers before writing them (in the prefix, after an EXEC change, after a
 *     branch, through a partial write, an accumulating op, an SGPR) must see zeros there; on
 *     gfx950, gfx942 (wave64) and gfx1100, gfx1201 (wave32, two waves run as a pair).
 * make check-poison runs the kernel suites with GFXEMU_POISON_REGS=1, which fills the rows a plan
 * does not zero with garbage: a plan that skips a row the kernel reads changes their results. */
#include "common/asm.h"
#include "common/check.h"
#include "common/util.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "exec/exec.h"
#include "gfxemu.h"

static int plan_of(const char *arch, const char *text, xzplan *z) {
    size_t n = 0;
    uint8_t *code = asm_snippet(arch, text, &n);
    CHECK(code != NULL, "assemble %s", text);
    if (!code)
        return -1;
    xprog p;
    memset(&p, 0, sizeof p);
    int r = -1;
    if (xprog_build(&p, (isa_arch)test_isa_arch(arch), code, (uint32_t)n, 0) == 0) {
        r = x_zero_plan(&p, 0, z);
        xprog_free(&p);
    } else {
        CHECK(0, "xprog_build %s", text);
    }
    free(code);
    return r;
}

/* rows: a -1 terminated list */
static void expect(const char *what, const uint64_t *got, const int *rows) {
    uint64_t want[NVREG / 64 + 1] = {0};
    for (const int *r = rows; *r >= 0; r++)
        want[*r / 64] |= 1ull << (*r % 64);
    for (unsigned k = 0; k <= NVREG / 64; k++)
        CHECK(got[k] == want[k], "%s: rows word %u = %#llx, want %#llx", what, k,
              (unsigned long long)got[k], (unsigned long long)want[k]);
}

#define ROWS(...) (const int[]){__VA_ARGS__, -1}
#define NONE ROWS(-1)

static void plans(void) {
    static const char *const arches[] = {"gfx950", "gfx942"};
    for (int t = 0; t < 2; t++) {
        const char *a = arches[t];
        xzplan z;
        /* An elementwise kernel: every row it names is written before it is read (v0 holds the
         * work-item ids from the start). */
        CHECK(plan_of(a,
                      "s_load_dwordx4 s[4:7], s[0:1], 0x0\n"
                      "v_lshl_or_b32 v0, s2, 8, v0\n"
                      "v_mov_b32 v1, 0\n"
                      "v_lshlrev_b64 v[0:1], 2, v[0:1]\n"
                      "s_waitcnt lgkmcnt(0)\n"
                      "v_lshl_add_u64 v[2:3], s[6:7], 0, v[0:1]\n"
                      "global_load_dword v4, v[2:3], off\n"
                      "v_add_f32 v2, v4, v4\n"
                      "global_store_dword v[0:1], v2, off\n"
                      "s_endpgm\n",
                      &z) == 1 &&
                  z.ok,
              "%s: elementwise plan", a);
        expect("elementwise", z.v, NONE);
        expect("elementwise agprs", z.a, NONE);
        CHECK(!z.all_sgprs, "%s: elementwise: all_sgprs", a);
        CHECK(z.s_chunks == (0x01 | 0xc0), "%s: elementwise SGPR chunks %#x", a, z.s_chunks);

        /* SGPR chunks of 16: every SGPR an operand names, a tuple's whole width (s[44:51]
         * reaches chunk 3), reads and writes alike, and s96-s127 always; code not reachable
         * from the entry does not count, and an indirect jump makes all of it count. */
        plan_of(a,
                "s_load_dwordx8 s[44:51], s[0:1], 0x0\n"
                "s_add_u32 s70, s71, 1\n"
                "s_endpgm\n"
                "s_mov_b32 s90, 0\n"
                "s_endpgm\n",
                &z);
        CHECK(z.ok && z.s_chunks == (0x01 | 0x04 | 0x08 | 0x10 | 0xc0),
              "%s: SGPR chunks of tuples and scalar ops %#x", a, z.s_chunks);
        plan_of(a, "s_setpc_b64 s[30:31]\ns_endpgm\ns_mov_b32 s90, s33\ns_endpgm\n", &z);
        CHECK(z.ok && z.s_chunks == (0x02 | 0x04 | 0x20 | 0xc0),
              "%s: SGPR chunks after an indirect jump %#x", a, z.s_chunks);

        /* Sources read before any write; a row no instruction names is left alone. */
        plan_of(a, "v_add_f32 v1, v2, v3\nv_mov_b32 v9, v1\ns_endpgm\n", &z);
        expect("read first", z.v, ROWS(2, 3));

        /* (Branch offsets are in dwords from the next instruction.)  Only the code reachable from
         * the entry counts: another kernel's rows, or rows
         * branched over, are not the kernel's; an indirect jump makes every instruction count. */
        plan_of(a, "v_mov_b32 v1, 0\ns_endpgm\nv_add_f32 v2, v3, v4\ns_endpgm\n", &z);
        expect("other kernel", z.v, NONE);
        plan_of(a, "s_branch 1\nv_add_f32 v5, v6, v7\ns_endpgm\n", &z);
        expect("branched over", z.v, NONE);
        plan_of(a, "s_cbranch_scc0 1\ns_endpgm\nv_add_f32 v5, v6, v7\ns_endpgm\n", &z);
        expect("conditional target", z.v, ROWS(5, 6, 7));
        plan_of(a,
                "v_mov_b32 v1, 0\ns_setpc_b64 s[0:1]\ns_endpgm\nv_add_f32 v2, v3, v4\ns_endpgm\n",
                &z);
        expect("indirect jump", z.v, ROWS(2, 3, 4));

        /* Rows after the first branch are zeroed unless the prefix wrote them. */
        plan_of(a,
                "v_mov_b32 v4, 1\n"
                "s_cbranch_scc0 1\n" /* over the next (4-byte) instruction */
                "v_mov_b32 v5, 0\n"
                "v_add_u32 v6, v5, v4\n"
                "s_endpgm\n",
                &z);
        expect("after a branch", z.v, ROWS(5, 6));

        /* An EXEC write ends the prefix: the write after it leaves lanes unwritten. */
        plan_of(a,
                "v_mov_b32 v1, 0\n"
                "s_mov_b64 exec, 1\n"
                "v_mov_b32 v2, 0\n"
                "s_mov_b64 exec, -1\n"
                "v_mov_b32 v3, v2\n"
                "s_endpgm\n",
                &z);
        expect("exec write", z.v, ROWS(2, 3));
        plan_of(a, "v_cmpx_lt_u32 s[0:1], v0, 4\nv_mov_b32 v1, 2\ns_endpgm\n", &z);
        expect("v_cmpx", z.v, ROWS(1));
        plan_of(a, "s_and_saveexec_b64 s[0:1], vcc\nv_mov_b32 v1, 2\ns_endpgm\n", &z);
        expect("saveexec", z.v, ROWS(1));

        /* Writes that keep part of the old value read it. */
        plan_of(a,
                "v_mov_b32 v1, 0\n"
                "v_fmac_f32 v2, v1, v1\n"
                "v_mov_b32_sdwa v3, v1 dst_sel:WORD_1 dst_unused:UNUSED_PRESERVE src0_sel:DWORD\n"
                "v_add_u16 v4, v1, v1\n"
                "v_writelane_b32 v5, s0, 1\n"
                "global_load_short_d16_hi v6, v[0:1], off\n"
                "v_cvt_pk_fp8_f32 v7, v1, v1\n"
                "ds_read_u8_d16 v8, v1\n"
                "global_atomic_add v9, v[0:1], v1, off sc0\n"
                "ds_read_b32 v10, v1\n"
                "global_load_dwordx2 v[12:13], v[0:1], off\n"
                "s_endpgm\n",
                &z);
        expect("partial writes", z.v, ROWS(2, 3, 4, 5, 6, 7, 8, 9));

        /* MFMA: C is read before D is written; v_accvgpr_write writes all lanes. */
        plan_of(a,
                "v_accvgpr_write_b32 a0, 0\n"
                "v_mfma_f32_32x32x8_f16 a[0:15], v[2:3], v[2:3], a[0:15]\n"
                "v_accvgpr_read_b32 v1, a15\n"
                "s_endpgm\n",
                &z);
        expect("mfma vgprs", z.v, ROWS(2, 3));
        expect("mfma agprs", z.a, ROWS(1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15));

        /* Dynamic register indexing: no plan (everything is zeroed). */
        CHECK(plan_of(a, "v_mov_b32 v1, 0\ns_movrels_b32 s2, s1\ns_endpgm\n", &z) == 0 && !z.ok,
              "%s: s_movrels has a plan", a);
        CHECK(plan_of(a, "s_set_gpr_idx_on s0, gpr_idx(SRC0)\nv_mov_b32 v1, v2\ns_endpgm\n", &z) ==
                      0 &&
                  !z.ok,
              "%s: s_set_gpr_idx_on has a plan", a);
    }
}

/* RDNA programs (wave32 and wave64 alike): the same rules, and each half of a VOPD by its own
 * op; WMMA counts as a read of its destination (gfx11's 16-bit results are halves of it,
 * gfx12's swmmac accumulates into it). */
static void rdna_plans(void) {
    static const char *const arches[] = {"gfx1100", "gfx1201"};
    for (int t = 0; t < 2; t++) {
        const char *a = arches[t];
        xzplan z;
        CHECK(plan_of(a,
                      "s_load_b128 s[4:7], s[0:1], 0x0\n"
                      "v_lshl_add_u32 v0, s2, 8, v0\n"
                      "v_ashrrev_i32 v1, 31, v0\n"
                      "v_lshlrev_b64 v[0:1], 2, v[0:1]\n"
                      "v_add_co_u32 v2, vcc_lo, s4, v0\n"
                      "v_add_co_ci_u32_e32 v3, vcc_lo, s5, v1, vcc_lo\n"
                      "global_load_b32 v4, v[2:3], off\n"
                      "v_add_f32 v4, v4, v4\n"
                      "global_store_b32 v[2:3], v4, off\n"
                      "s_endpgm\n",
                      &z) == 1 &&
                  z.ok,
              "%s: elementwise plan", a);
        expect("rdna elementwise", z.v, NONE);
        CHECK(z.s_chunks == (0x01 | 0xc0), "%s: elementwise SGPR chunks %#x", a, z.s_chunks);

        plan_of(a,
                "v_dual_mov_b32 v1, v5 :: v_dual_mov_b32 v2, 0\n"
                "v_dual_fmac_f32 v3, v1, v1 :: v_dual_mov_b32 v4, v2\n"
                "v_dual_mov_b32 v6, v2 :: v_dual_fmac_f32 v7, v1, v1\n"
                "s_endpgm\n",
                &z);
        expect("vopd halves", z.v, ROWS(3, 5, 7));

        plan_of(a, "v_mov_b32 v1, 0\ns_mov_b32 exec_lo, 1\nv_mov_b32 v2, 0\ns_endpgm\n", &z);
        expect("exec_lo write", z.v, ROWS(2));
        plan_of(a, "v_cmpx_lt_u32_e64 v0, 4\nv_mov_b32 v1, 2\ns_endpgm\n", &z);
        expect("rdna v_cmpx", z.v, ROWS(1));

        plan_of(a,
                t == 0 ? "v_wmma_f16_16x16x16_f16 v[32:39], v[8:15], v[16:23], v[24:31]\ns_endpgm\n"
                       : "v_wmma_f16_16x16x16_f16 v[16:19], v[4:7], v[8:11], v[12:15]\ns_endpgm\n",
                &z);
        uint64_t want = t == 0 ? 0xffffffffull << 8 : 0xffffull << 4;
        CHECK(z.v[0] == want && !z.v[1], "%s: wmma f16 rows %#llx, want %#llx", a,
              (unsigned long long)z.v[0], (unsigned long long)want);
        if (t == 1) {
            plan_of(a, "v_swmmac_f32_16x16x32_f16 v[24:31], v[8:11], v[12:19], v20\ns_endpgm\n",
                    &z);
            want = 0x1fffull << 8 | 0xffull << 24;
            CHECK(z.v[0] == want && !z.v[1], "swmmac rows %#llx, want %#llx",
                  (unsigned long long)z.v[0], (unsigned long long)want);
        }
        CHECK(plan_of(a, "v_mov_b32 v1, 0\nv_movrels_b32 v2, v1\ns_endpgm\n", &z) == 0 && !z.ok,
              "%s: v_movrels has a plan", a);
    }
}

/* ---- end to end ---- */

static const char probe_src[] =
    ".text\n"
    ".globl probe\n.p2align 8\n.type probe,@function\n"
    "probe:\n"
    "  s_load_dwordx2 s[20:21], s[0:1], 0x0\n"
    "  v_lshlrev_b32 v1, 2, v0\n"
    "  v_mov_b32 v2, v5\n" /* v5 read before written: 0 */
    "  v_mov_b32 v5, 9\n"
    "  v_mov_b32 v12, 0\n"
    "  v_fmac_f32 v11, v12, v12\n" /* v11 + 0: v11's old value, 0 */
    "  v_mov_b32_sdwa v10, v1 dst_sel:WORD_0 dst_unused:UNUSED_PRESERVE src0_sel:DWORD\n"
    "  v_mov_b32 v3, s50\n"     /* an SGPR the kernel never writes: 0 */
    "  v_add_u32 v3, s37, v3\n" /* another, in a chunk of its own (s32-s47) */
    "  s_waitcnt lgkmcnt(0)\n"
    "  global_store_dword v1, v2, s[20:21]\n"
    "  global_store_dword v1, v3, s[20:21] offset:256\n"
    "  global_store_dword v1, v10, s[20:21] offset:512\n"
    "  global_store_dword v1, v11, s[20:21] offset:768\n"
    "  s_mov_b64 exec, 1\n"
    "  v_mov_b32 v7, 3\n" /* lane 0 only: lanes 1-63 keep 0 */
    "  s_mov_b64 exec, -1\n"
    "  global_store_dword v1, v7, s[20:21] offset:1024\n"
    "  s_cmp_eq_u32 s50, 0\n"
    "  s_cbranch_scc1 .Lskip\n"
    "  v_mov_b32 v8, 4\n"
    ".Lskip:\n"
    "  global_store_dword v1, v8, s[20:21] offset:1280\n" /* never written: 0 */
    "  s_endpgm\n"
    ".size probe, .-probe\n"
    ".globl dirty\n.p2align 8\n.type dirty,@function\n"
    "dirty:\n"
    "%s" /* the v_mov / s_mov lines */
    "  s_endpgm\n"
    ".size dirty, .-dirty\n"
    ".rodata\n.p2align 6\n"
    ".amdhsa_kernel probe\n"
    "  .amdhsa_user_sgpr_kernarg_segment_ptr 1\n"
    "  .amdhsa_kernarg_size 8\n"
    "  .amdhsa_next_free_vgpr 32\n"
    "  .amdhsa_next_free_sgpr 64\n"
    "  .amdhsa_accum_offset 32\n"
    ".end_amdhsa_kernel\n"
    ".amdhsa_kernel dirty\n"
    "  .amdhsa_next_free_vgpr 32\n"
    "  .amdhsa_next_free_sgpr 64\n"
    "  .amdhsa_accum_offset 32\n"
    ".end_amdhsa_kernel\n";

/* The end of an RDNA wave32 probe's source: the probe kernel's end, the dirty kernel (%s: its
 * lines) and both descriptors. */
#define RDNA_TAIL(probe)                                                                           \
    ".size " probe ", .-" probe "\n"                                                               \
    ".globl dirty\n.p2align 8\n.type dirty,@function\n"                                            \
    "dirty:\n"                                                                                     \
    "%s"                                                                                           \
    "  s_endpgm\n"                                                                                 \
    ".size dirty, .-dirty\n"                                                                       \
    ".rodata\n.p2align 6\n"                                                                        \
    ".amdhsa_kernel " probe "\n"                                                                   \
    "  .amdhsa_user_sgpr_kernarg_segment_ptr 1\n"                                                  \
    "  .amdhsa_kernarg_size 8\n"                                                                   \
    "  .amdhsa_next_free_vgpr 32\n"                                                                \
    "  .amdhsa_next_free_sgpr 64\n"                                                                \
    "  .amdhsa_wavefront_size32 1\n"                                                               \
    ".end_amdhsa_kernel\n"                                                                         \
    ".amdhsa_kernel dirty\n"                                                                       \
    "  .amdhsa_next_free_vgpr 32\n"                                                                \
    "  .amdhsa_next_free_sgpr 64\n"                                                                \
    "  .amdhsa_wavefront_size32 1\n"                                                               \
    ".end_amdhsa_kernel\n"

/* The same on RDNA, wave32: 64 work-items are two waves, run as a pair (pair.c) with the second
 * wave's lanes in lanes 32-63 of the first one's rows.  A VOPD's Y half accumulates into v14,
 * which must read 0; EXEC_LO = 1 leaves lane 0 of each wave. */
static const char rdna_probe_src[] = ".text\n"
                                     ".globl probe\n.p2align 8\n.type probe,@function\n"
                                     "probe:\n"
                                     "  s_load_b64 s[20:21], s[0:1], 0x0\n"
                                     "  v_lshlrev_b32 v1, 2, v0\n"
                                     "  v_mov_b32 v2, v5\n"
                                     "  v_mov_b32 v5, 9\n"
                                     "  v_mov_b32 v12, 0\n"
                                     "  v_fmac_f32 v11, v12, v12\n"
                                     "  v_dual_mov_b32 v13, v12 :: v_dual_fmac_f32 v14, v5, v12\n"
                                     "  v_mov_b32 v3, s50\n"
                                     "  v_add_nc_u32 v3, s37, v3\n"
                                     "  %s\n" /* the wait for the scalar load */
                                     "  global_store_b32 v1, v2, s[20:21]\n"
                                     "  global_store_b32 v1, v3, s[20:21] offset:256\n"
                                     "  global_store_b32 v1, v14, s[20:21] offset:512\n"
                                     "  global_store_b32 v1, v11, s[20:21] offset:768\n"
                                     "  s_mov_b32 exec_lo, 1\n"
                                     "  v_mov_b32 v7, 3\n"
                                     "  s_mov_b32 exec_lo, -1\n"
                                     "  global_store_b32 v1, v7, s[20:21] offset:1024\n"
                                     "  s_cmp_eq_u32 s50, 0\n"
                                     "  s_cbranch_scc1 .Lskip\n"
                                     "  v_mov_b32 v8, 4\n"
                                     ".Lskip:\n"
                                     "  global_store_b32 v1, v8, s[20:21] offset:1280\n"
                                     "  s_endpgm\n" RDNA_TAIL("probe");

/* The dirty kernel's lines: v1-v31 and s2-s63 = 0x5a5a5a5a */
static void dirty_lines(char *lines, size_t size) {
    size_t o = 0;
    for (int r = 1; r < 32; r++)
        o += (size_t)snprintf(lines + o, size - o, "  v_mov_b32 v%d, 0x5a5a5a5a\n", r);
    for (int r = 2; r < 64; r++)
        o += (size_t)snprintf(lines + o, size - o, "  s_mov_b32 s%d, 0x5a5a5a5a\n", r);
}

/* Assemble src (the kernels `probe` and dirty), then twice: dirty (64 work-items) fills the
 * registers, probe (a workgroup of `block`) stores into its buffer of n words, which check reads
 * (round: 0 or 1). */
static void dirty_then_probe(gfx_arch arch, const char *src, const char *probe, unsigned block,
                             unsigned n,
                             void (*check)(gfx_arch arch, int round, const uint32_t *got)) {
    char err[256];
    gfx_module *m = NULL;
    CHECK(gfx_module_assemble(arch, src, strlen(src), &m, err, sizeof err) == GFX_OK,
          "assemble for %s: %s", gfx_arch_name(arch), err);
    if (!m)
        return;
    const gfx_kernel *kp = NULL, *kd = NULL;
    CHECK(gfx_module_kernel(m, probe, &kp) == GFX_OK &&
              gfx_module_kernel(m, "dirty", &kd) == GFX_OK,
          "kernels");
    gfx_device *dev = NULL;
    CHECK(gfx_device_create(arch, 1, &dev) == GFX_OK, "device");
    uint64_t buf;
    CHECK(gfx_buffer_alloc(dev, 4 * (size_t)n, &buf) == GFX_OK, "alloc");
    uint32_t *got = calloc(n, sizeof *got);
    uint32_t grid[3] = {1, 1, 1}, full[3] = {64, 1, 1}, blk[3] = {block, 1, 1};
    for (int round = 0; got && round < 2; round++) {
        CHECK(gfx_launch(dev, kd, grid, full, NULL, 0, NULL, NULL) == GFX_OK, "dirty: %s",
              gfx_device_error(dev));
        CHECK(gfx_launch(dev, kp, grid, blk, &buf, sizeof buf, NULL, NULL) == GFX_OK, "%s: %s",
              probe, gfx_device_error(dev));
        gfx_memcpy_dtoh(dev, got, buf, 4 * (size_t)n);
        check(arch, round, got);
    }
    free(got);
    gfx_device_free(dev);
    gfx_module_free(m);
}

static void probe_check(gfx_arch arch, int round, const uint32_t *got) {
    int rdna = arch == GFX_ARCH_GFX1100 || arch == GFX_ARCH_GFX1201, bad = 0;
    for (int l = 0; l < 64; l++) {
        uint32_t want[6] = {
            0, 0, rdna ? 0 : (uint32_t)(l * 4) & 0xffff, 0, (rdna ? l % 32 : l) == 0 ? 3 : 0, 0};
        for (int i = 0; i < 6; i++)
            if (got[i * 64 + l] != want[i] && bad++ < 6)
                CHECK(0, "%s round %d: store %d lane %d = %#x, want %#x", gfx_arch_name(arch),
                      round, i, l, got[i * 64 + l], want[i]);
    }
    CHECK(bad == 0, "%s: %d wrong words", gfx_arch_name(arch), bad);
}

static void end_to_end(gfx_arch arch) {
    char lines[4096], src[8192];
    dirty_lines(lines, sizeof lines);
    if (arch == GFX_ARCH_GFX1100 || arch == GFX_ARCH_GFX1201)
        snprintf(src, sizeof src, rdna_probe_src,
                 arch == GFX_ARCH_GFX1201 ? "s_wait_kmcnt 0x0" : "s_waitcnt lgkmcnt(0)", lines);
    else
        snprintf(src, sizeof src, probe_src, lines);
    dirty_then_probe(arch, src, "probe", 64, 6 * 64, probe_check);
}

/* A workgroup of 48 wave32 work-items: a pair whose second wave has 16 lanes.  The kernel
 * writes v5 in its entry prefix (so the plan leaves v5 alone), then turns every lane of the
 * wave on and stores v5: lanes past the workgroup's end were never written and must read 0 as
 * they do unpaired (a partial wave zeroes its whole allocation), not what the dirty kernel
 * left in the leader's lanes 48-63. */
static const char partial_src[] = ".text\n"
                                  ".globl probe2\n.p2align 8\n.type probe2,@function\n"
                                  "probe2:\n"
                                  "  s_load_b64 s[20:21], s[0:1], 0x0\n"
                                  "  v_mov_b32 v5, 7\n"
                                  "  v_readfirstlane_b32 s3, v0\n"
                                  "  s_mov_b32 exec_lo, -1\n"
                                  "  v_mbcnt_lo_u32_b32 v1, -1, s3\n"
                                  "  v_lshlrev_b32 v1, 2, v1\n"
                                  "  %s\n"
                                  "  global_store_b32 v1, v5, s[20:21]\n"
                                  "  s_endpgm\n" RDNA_TAIL("probe2");

static void partial_check(gfx_arch arch, int round, const uint32_t *got) {
    int bad = 0;
    for (int l = 0; l < 64; l++)
        if (got[l] != (l < 48 ? 7u : 0u) && bad++ < 4)
            CHECK(0, "%s partial follower round %d: lane %d = %#x, want %#x", gfx_arch_name(arch),
                  round, l, got[l], l < 48 ? 7u : 0u);
    CHECK(bad == 0, "%s partial follower: %d wrong words", gfx_arch_name(arch), bad);
}

static void partial_follower(gfx_arch arch) {
    char lines[4096], src[8192];
    dirty_lines(lines, sizeof lines);
    snprintf(src, sizeof src, partial_src,
             arch == GFX_ARCH_GFX1201 ? "s_wait_kmcnt 0x0" : "s_waitcnt lgkmcnt(0)", lines);
    dirty_then_probe(arch, src, "probe2", 48, 64, partial_check);
}

int main(void) {
    plans();
    rdna_plans();
    end_to_end(GFX_ARCH_GFX950);
    end_to_end(GFX_ARCH_GFX942);
    end_to_end(GFX_ARCH_GFX1100);
    end_to_end(GFX_ARCH_GFX1201);
    partial_follower(GFX_ARCH_GFX1100);
    partial_follower(GFX_ARCH_GFX1201);
    return check_summary("test_zplan");
}
