/* test_jit.c - the native blocks (src/exec/jit.c) against the interpreter, bit for bit.
 *
 * Random straight-line programs of the ops jit.c translates (f32 add/sub/mul/fma/fmac/fmamk/
 * fmaak, packed f32 on CDNA, 32-bit integer add/sub/mul/shift/logic/min/max/24-bit multiply,
 * conversions, v_lshl_add_u64, v_lshlrev_b64, v_mov_b64; the lane-mask ops: compares into VCC
 * or an SGPR, v_cndmask_b32, the carry forms, VOP2 and VOP3) with VGPR, SGPR, inline-constant and
 * literal operands, mixed with scalar ALU ops that write SGPRs the vector ops then read (the blocks
 * run those after their code, so a read of such an SGPR must end the block), no-ops, and ops the
 * blocks do not take (which split them), and in wave64 global_load_dword / global_store_dword
 * (RDNA: global_load_b32 / global_store_b32) of an 8 KiB buffer (VGPR-pair and saddr forms, offsets
 * of +-512 bytes, the lanes' addresses consecutive, reversed or with one lane off; memory must
 * match too), on gfx950, gfx942, gfx90a, gfx1100 and gfx1201 (RDNA: wave32 and wave64).  Each
 * program runs from one random state (edge values: NaNs, infinities, signed zeros, denormals, shift
 * counts of 31-33, 24-bit limits) once with the blocks and once without (x_set_jit), and on an
 * AVX-512 host once more with the AVX2 code; the whole wave state must match.  The programs use up
 * to 48 VGPRs, more than a block can hold in the host's 32 vector registers, so values are evicted
 * and reloaded. A quarter of the programs run with some lanes inactive or with MODE flushing f32
 * denormals, where a block must leave the work to the interpreter.
 *
 * Every word must be identical, NaNs included: where NaNs meet, blocks and interpreter return the
 * hardware's one (docs/architecture.md, "NaN results").  A program is either float (f32
 * arithmetic, moves) or integer (the other ops, the conversions from integers, moves), never
 * both (kept from when two NaNs were compared as equal, the payload of a two-NaN operation then
 * differing between the paths).
 *
 * The test also checks that the blocks cover most of the vector instructions (so that it
 * tests something), except on a host without AVX-512F, where no block is built: there it
 * checks that none is. */
#include "common/asm.h"
#include "common/check.h"
#include "common/rng.h"
#include "common/util.h"
#include "exec/exec.h"
#include "exec/jit.h"

#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static uint64_t seed = 0x9e3779b97f4a7c15ull;
static uint32_t rnd(void) { return (uint32_t)(xorshift64(&seed) >> 16); }

/* Operand patterns: V a VGPR, S an SGPR or a constant (at most one SGPR or literal per
 * instruction; CDNA VOP3 takes no literal), P a VGPR pair, Q a VGPR or SGPR pair. */
typedef struct tmpl {
    const char *cdna, *rdna; /* mnemonic per family (NULL: not there) */
    const char *ops;         /* destination then sources: "V SV" ... */
    int vop3;                /* a VOP3 encoding (CDNA: no literal) */
} tmpl;

static const tmpl jit_ops[] = {
    {"v_add_f32", "v_add_f32", "V SV", 0},
    {"v_sub_f32", "v_sub_f32", "V SV", 0},
    {"v_subrev_f32", "v_subrev_f32", "V SV", 0},
    {"v_mul_f32", "v_mul_f32", "V SV", 0},
    {"v_fma_f32", "v_fma_f32", "V SSS", 1},
    {"v_fmac_f32", "v_fmac_f32", "V SV", 0},
    {"v_fmamk_f32", "v_fmamk_f32", "V VKV", 0},
    {"v_fmaak_f32", "v_fmaak_f32", "V VVK", 0},
    {"v_mov_b32", "v_mov_b32", "V S", 0},
    {"v_add_u32", "v_add_nc_u32", "V SV", 0},
    {"v_sub_u32", "v_sub_nc_u32", "V SV", 0},
    {"v_subrev_u32", "v_subrev_nc_u32", "V SV", 0},
    {"v_mul_lo_u32", "v_mul_lo_u32", "V SS", 1},
    {"v_lshlrev_b32", "v_lshlrev_b32", "V SV", 0},
    {"v_lshrrev_b32", "v_lshrrev_b32", "V SV", 0},
    {"v_ashrrev_i32", "v_ashrrev_i32", "V SV", 0},
    {"v_and_b32", "v_and_b32", "V SV", 0},
    {"v_or_b32", "v_or_b32", "V SV", 0},
    {"v_xor_b32", "v_xor_b32", "V SV", 0},
    {"v_xnor_b32", "v_xnor_b32", "V SV", 0},
    {"v_not_b32", "v_not_b32", "V S", 0},
    {"v_add3_u32", "v_add3_u32", "V SSS", 1},
    {"v_lshl_add_u32", "v_lshl_add_u32", "V SSS", 1},
    {"v_add_lshl_u32", "v_add_lshl_u32", "V SSS", 1},
    {"v_lshl_or_b32", "v_lshl_or_b32", "V SSS", 1},
    {"v_and_or_b32", "v_and_or_b32", "V SSS", 1},
    {"v_or3_b32", "v_or3_b32", "V SSS", 1},
    {NULL, "v_xor3_b32", "V SSS", 1},
    {"v_xad_u32", "v_xad_u32", "V SSS", 1},
    {"v_max_u32", "v_max_u32", "V SV", 0},
    {"v_min_u32", "v_min_u32", "V SV", 0},
    {"v_max_i32", "v_max_i32", "V SV", 0},
    {"v_min_i32", "v_min_i32", "V SV", 0},
    {"v_mul_u32_u24", "v_mul_u32_u24", "V SV", 0},
    {"v_mad_u32_u24", "v_mad_u32_u24", "V SSS", 1},
    {"v_cvt_f32_u32", "v_cvt_f32_u32", "V S", 0},
    {"v_cvt_f32_i32", "v_cvt_f32_i32", "V S", 0},
    {"v_pk_fma_f32", NULL, "P QQQ", 1},
    {"v_pk_mul_f32", NULL, "P QQ", 1},
    {"v_pk_add_f32", NULL, "P QQ", 1},
    {"v_lshl_add_u64", "v_lshl_add_u64", "P QHQ", 1},
    {"v_lshl_add_u64", "v_lshl_add_u64", "P QHL", 1}, /* (a loop's pointer step: + 64) */
    {"v_lshl_add_u64", "v_lshl_add_u64", "P LHQ", 1},
    {"v_lshlrev_b64", "v_lshlrev_b64", "P CQ", 1},
    {"v_mov_b64", "v_mov_b64", "P Q", 0},
    {"v_max_f32", "v_max_f32", "V SV", 0},
    {"v_min_f32", "v_min_f32", "V SV", 0},
    {"v_max3_f32", "v_max3_f32", "V SSS", 1},
    {"v_min3_f32", "v_min3_f32", "V SSS", 1},
    {"v_exp_f32", "v_exp_f32", "V S", 0},
    {"v_perm_b32", "v_perm_b32", "V SSS", 1},
    /* lane masks: compares (VCC or an SGPR), v_cndmask_b32, the carry forms */
    {"v_cmp_gt_i32_e32", "v_cmp_gt_i32_e32", "c SV", 0},
    {"v_cmp_lt_u32_e64", "v_cmp_lt_u32_e64", "M SS", 1},
    {"v_cmp_le_i32_e64", "v_cmp_le_i32_e64", "M SS", 1},
    {"v_cmp_ge_u32_e32", "v_cmp_ge_u32_e32", "c SV", 0},
    {"v_cmp_eq_u32_e64", "v_cmp_eq_u32_e64", "M SS", 1},
    {"v_cmp_ne_i32_e32", "v_cmp_ne_i32_e32", "c SV", 0},
    {"v_cmp_lt_f32_e32", "v_cmp_lt_f32_e32", "c SV", 0},
    {"v_cmp_le_f32_e64", "v_cmp_le_f32_e64", "M SS", 1},
    {"v_cmp_gt_f32_e64", "v_cmp_gt_f32_e64", "M SS", 1},
    {"v_cmp_ge_f32_e32", "v_cmp_ge_f32_e32", "c SV", 0},
    {"v_cmp_eq_f32_e64", "v_cmp_eq_f32_e64", "M SS", 1},
    {"v_cmp_lg_f32_e32", "v_cmp_lg_f32_e32", "c SV", 0},
    {"v_cmp_neq_f32_e64", "v_cmp_neq_f32_e64", "M SS", 1},
    {"v_cmp_nlt_f32_e32", "v_cmp_nlt_f32_e32", "c SV", 0},
    {"v_cmp_nle_f32_e64", "v_cmp_nle_f32_e64", "M SS", 1},
    {"v_cmp_ngt_f32_e32", "v_cmp_ngt_f32_e32", "c SV", 0},
    {"v_cmp_nge_f32_e64", "v_cmp_nge_f32_e64", "M SS", 1},
    {"v_cmp_o_f32_e32", "v_cmp_o_f32_e32", "c SV", 0},
    {"v_cmp_u_f32_e64", "v_cmp_u_f32_e64", "M SS", 1},
    {"v_cmp_ne_u64_e32", "v_cmp_ne_u64_e32", "c QP", 0},
    {"v_cmp_eq_u64_e64", "v_cmp_eq_u64_e64", "M QQ", 1},
    {"v_cmp_eq_i64_e32", "v_cmp_eq_i64_e32", "c QP", 0},
    {"v_cmp_ne_i64_e64", "v_cmp_ne_i64_e64", "M QQ", 1},
    {"v_mad_u64_u32", "v_mad_u64_u32", "PM SSQ", 1},
    {"v_mad_i64_i32", "v_mad_i64_i32", "PM SSQ", 1},
    {"v_cndmask_b32_e32", "v_cndmask_b32_e32", "V SVc", 0},
    {"v_cndmask_b32_e64", "v_cndmask_b32_e64", "V SSM", 1},
    {"v_add_co_u32_e32", NULL, "Vc SV", 0},
    {"v_add_co_u32_e64", "v_add_co_u32", "VM SS", 1},
    {"v_sub_co_u32_e32", NULL, "Vc SV", 0},
    {"v_sub_co_u32_e64", "v_sub_co_u32", "VM SS", 1},
    {"v_subrev_co_u32_e32", NULL, "Vc SV", 0},
    {"v_subrev_co_u32_e64", "v_subrev_co_u32", "VM SS", 1},
    {"v_addc_co_u32_e32", "v_add_co_ci_u32_e32", "Vc SVc", 0},
    {"v_addc_co_u32_e64", "v_add_co_ci_u32_e64", "VM SSM", 1},
    {"v_subb_co_u32_e32", "v_sub_co_ci_u32_e32", "Vc SVc", 0},
    {"v_subb_co_u32_e64", "v_sub_co_ci_u32_e64", "VM SSM", 1},
    {"v_subbrev_co_u32_e32", "v_subrev_co_ci_u32_e32", "Vc SVc", 0},
    {"v_subbrev_co_u32_e64", "v_subrev_co_ci_u32_e64", "VM SSM", 1},
    /* SDWA (CDNA): random source selects (gen_inst), sext() on integer ops' sources; the
     * destination the whole DWORD mostly, else (integer ops) a WORD_1 field the blocks leave
     * to the interpreter.  Marked VOP3: no literal (SDWA has none) */
    {"v_and_b32_sdwa", NULL, "V SV", 1},
    {"v_add_u32_sdwa", NULL, "V SV", 1},
    {"v_sub_u32_sdwa", NULL, "V VS", 1},
    {"v_xor_b32_sdwa", NULL, "V SV", 1},
    {"v_lshlrev_b32_sdwa", NULL, "V SV", 1},
    {"v_max_i32_sdwa", NULL, "V SV", 1},
    {"v_mov_b32_sdwa", NULL, "V S", 1},
    {"v_cvt_f32_i32_sdwa", NULL, "V S", 1},
    {"v_add_f32_sdwa", NULL, "V SV", 1},
    {"v_mul_f32_sdwa", NULL, "V VV", 1},
};
/* Ops that split blocks (no block form), and scalar ops (deferred) and no-ops inside them. */
static const tmpl other_ops[] = {
    {"v_sqrt_f32", "v_sqrt_f32", "V S", 0},
    {"v_mul_hi_u32", "v_mul_hi_u32", "V SS", 1},
    {"v_add_f32 %s, %s, %s clamp", "v_add_f32 %s, %s, %s clamp", "V VV", 1},
};
/* Scalar ops (the blocks run them after their code, as native code when they can): D, S0 and S1
 * per shape ("d": one SGPR, "D": a pair, "s"/"S" a source SGPR / pair or a constant, "k" a
 * 16-bit immediate, "E" EXEC, "F" the constant -1); each is probed on each target, so that a name
 * a family lacks leaves it out.  The EXEC writers (saveexec, logic into EXEC; a wave64 program's
 * blocks take them, and vector ops after one run under the new EXEC) and s_mov_b64 exec, -1,
 * which makes every lane active again. */
static const struct {
    const char *name, *shape;
} salu_ops[] = {
    {"s_add_i32", "dss"},         {"s_sub_i32", "dss"},
    {"s_add_u32", "dss"},         {"s_sub_u32", "dss"},
    {"s_addc_u32", "dss"},        {"s_subb_u32", "dss"},
    {"s_mul_i32", "dss"},         {"s_and_b32", "dss"},
    {"s_or_b32", "dss"},          {"s_xor_b32", "dss"},
    {"s_andn2_b32", "dss"},       {"s_lshl_b32", "dss"},
    {"s_lshr_b32", "dss"},        {"s_ashr_i32", "dss"},
    {"s_cselect_b32", "dss"},     {"s_mov_b32", "ds"},
    {"s_movk_i32", "dk"},         {"s_and_b64", "DSS"},
    {"s_or_b64", "DSS"},          {"s_xor_b64", "DSS"},
    {"s_andn2_b64", "DSS"},       {"s_cselect_b64", "DSS"},
    {"s_mov_b64", "DS"},          {"s_cmp_eq_u32", "ss"},
    {"s_cmp_lg_i32", "ss"},       {"s_cmp_gt_i32", "ss"},
    {"s_cmp_ge_u32", "ss"},       {"s_cmp_lt_u32", "ss"},
    {"s_cmp_le_i32", "ss"},       {"s_max_u32", "dss"},
    {"s_mulk_i32", "dk"},         {"s_addk_i32", "dk"},
    {"s_and_saveexec_b64", "DS"}, {"s_andn2_saveexec_b64", "DS"},
    {"s_or_saveexec_b64", "DS"},  {"s_xor_saveexec_b64", "DS"},
    {"s_or_b64", "EES"},          {"s_andn2_b64", "EES"},
    {"s_xor_b64", "ESE"},         {"s_mov_b64", "EF"},
    {"s_mov_b64", "EF"},
};
#define NSALU (sizeof salu_ops / sizeof salu_ops[0])
static int salu_ok[2][NSALU];

static const uint32_t edge[] = {
    0,          0x80000000, 0x7f800000, 0xff800000, 0x7fc00000, 0x7f800001, 0xffc00001,
    0x00000001, 0x807fffff, 0x3f800000, 0xbf800000, 0xffffffff, 0x7fffffff, 31,
    32,         33,         0xffffff,   0x1000000,  0x00800000, 0x7f7fffff, 0x4b800000,
    0x7fc12345, 0xffd54321, 0x7f812345, 0xff800f01, /* (NaNs with payloads) */
};
#define NEDGE (sizeof edge / sizeof edge[0])

/* One scalar op of shape sh (s0-s11, a constant now and then: at most one literal); now and
 * then its second source the same as its first (equal compares). */
static void gen_salu(unsigned i, char *line, size_t n) {
    const char *sh = salu_ops[i].shape;
    int w = snprintf(line, n, "%s ", salu_ops[i].name), lit = 0, nsrc = 0;
    char first[48] = "";
    for (const char *p = sh; *p; p++) {
        unsigned r = rnd() % 12, c = rnd() % 4;
        char o[48];
        if (*p == 'E' || *p == 'F')
            snprintf(o, sizeof o, "%s", *p == 'E' ? "exec" : "-1");
        else if (*p == 'd')
            snprintf(o, sizeof o, "s%u", r);
        else if (*p == 'D')
            snprintf(o, sizeof o, "s[%u:%u]", r & ~1u, (r & ~1u) + 1);
        else if (*p == 'k')
            snprintf(o, sizeof o, "0x%x", rnd() & 0xffff);
        else if (nsrc++ && rnd() % 4 == 0 && first[0] != '0')
            snprintf(o, sizeof o, "%s", first);
        else if (c == 0)
            snprintf(o, sizeof o, "%d", (int)(rnd() % 81) - 16);
        else if (c == 1 && !lit && (lit = 1))
            snprintf(o, sizeof o, "0x%x", rnd() % 2 ? edge[rnd() % NEDGE] : rnd());
        else if (*p == 's')
            snprintf(o, sizeof o, "s%u", r);
        else
            snprintf(o, sizeof o, "s[%u:%u]", r & ~1u, (r & ~1u) + 1);
        if ((*p == 's' || *p == 'S') && nsrc == 1)
            snprintf(first, sizeof first, "%s", o);
        w += snprintf(line + w, n - (size_t)w, "%s%s", p != sh ? ", " : "", o);
    }
}

typedef struct target {
    const char *arch;
    unsigned lanes;
    int rdna;
} target;

static const target targets[] = {
    {"gfx950", 64, 0},  {"gfx942", 64, 0},  {"gfx90a", 64, 0},  {"gfx1100", 32, 1},
    {"gfx1100", 64, 1}, {"gfx1201", 32, 1}, {"gfx1201", 64, 1},
};

static const char *const fconst[] = {"0.5", "-0.5", "1.0", "-1.0", "2.0", "-2.0", "4.0", "-4.0"};

/* One scalar-or-constant operand into buf; *bus counts SGPRs and literals used. */
static void scalar_opnd(char *buf, size_t n, int *bus, int literal_ok) {
    unsigned c = rnd() % 8;
    if (c < 3 && *bus == 0) {
        snprintf(buf, n, "s%u", rnd() % 12);
        ++*bus;
    } else if (c < 5) {
        snprintf(buf, n, "%d", (int)(rnd() % 81) - 16);
    } else if (c < 7 || !literal_ok || *bus) {
        snprintf(buf, n, "%s", fconst[rnd() % 8]);
    } else {
        snprintf(buf, n, "0x%x", rnd() % 3 ? edge[rnd() % NEDGE] : rnd());
        ++*bus;
    }
}

/* One instruction from t into line (n bytes); 0 when it has no form on this family. */
static int gen_inst(const tmpl *t, const target *tg, char *line, size_t n) {
    const char *mn = tg->rdna ? t->rdna : t->cdna;
    if (!mn)
        return 0;
    char o[5][48];
    int bus = 0, lit_ok = tg->rdna || !t->vop3;
    const char *p = t->ops;
    /* RDNA code is assembled as wave32 (a wave64 run reads the same SGPR encoding as a pair) */
    int k = 0, w32 = tg->rdna;
    /* a mask source (VCC or an SGPR) is read over the constant bus: the other sources are
     * VGPRs or inline constants (CDNA reads one SGPR at most) */
    const char *srcs = strchr(t->ops, ' ');
    if (srcs && strpbrk(srcs, "Mc"))
        bus = 1;
    for (; *p; p++) {
        if (*p == ' ')
            continue;
        char *b = o[k++];
        switch (*p) {
        case 'c': snprintf(b, 48, "%s", w32 ? "vcc_lo" : "vcc"); break;
        case 'M': { /* a lane mask: VCC or one of s8-s15 (data SGPRs are s0-s11) */
            unsigned r = 8 + 2 * (rnd() % 4);
            if (rnd() % 4 == 0)
                snprintf(b, 48, "%s", w32 ? "vcc_lo" : "vcc");
            else if (w32)
                snprintf(b, 48, "s%u", r);
            else
                snprintf(b, 48, "s[%u:%u]", r, r + 1);
            break;
        }
        case 'V': snprintf(b, 48, "v%u", rnd() % 48); break;
        case 'P': snprintf(b, 48, "v[%u:%u]", 2 * (rnd() % 23), 0); break;
        case 'H': snprintf(b, 48, "%u", rnd() % 5); break;              /* v_lshl_add_u64's shift */
        case 'L': snprintf(b, 48, "%d", (int)(rnd() % 81) - 16); break; /* a 64-bit inline int */
        case 'C': snprintf(b, 48, "%u", rnd() % 4 ? rnd() % 64 : 32); break; /* a 64-bit count */
        case 'K': /* the literal of fmamk/fmaak */
            snprintf(b, 48, "0x%x", rnd() % 2 ? edge[rnd() % NEDGE] : rnd());
            break;
        case 'Q':
            if (rnd() % 4 == 0 && bus == 0) {
                unsigned s = 2 * (rnd() % 6);
                snprintf(b, 48, "s[%u:%u]", s, s + 1);
                bus++;
            } else {
                snprintf(b, 48, "v[%u:%u]", 2 * (rnd() % 23), 0);
            }
            break;
        case 'S':
            if (rnd() % 2)
                snprintf(b, 48, "v%u", rnd() % 48);
            else
                scalar_opnd(b, 48, &bus, lit_ok);
            break;
        }
    }
    /* now and then the first source the same VGPR as the second (a compare of equal values, a
     * difference of 0), when both are 32-bit sources */
    const char *src = strchr(t->ops, ' ');
    if (src && (strspn(src + 1, "SV") >= 2 || strspn(src + 1, "QP") >= 2) && rnd() % 6 == 0) {
        int first = k - (int)strlen(src + 1);
        if (o[first + 1][0] == 'v' &&
            (o[first + 1][1] == '[' || (o[first + 1][1] >= '0' && o[first + 1][1] <= '9')))
            memcpy(o[first], o[first + 1], sizeof o[first]);
    }
    /* an add with carry in now and then of -1: a + b all ones, where the carry goes on (with a
     * lane of the other source 0 and its carry bit set) */
    if ((!strncmp(mn, "v_addc", 6) || !strncmp(mn, "v_add_co_ci", 11)) && rnd() % 3 == 0) {
        int first = k - (int)strlen(src + 1);
        snprintf(o[first], sizeof o[first], "-1");
    }
    /* pairs: the high register is the low one + 1 (written above as a placeholder) */
    for (int i = 0; i < k; i++) {
        unsigned lo, dummy;
        char c;
        if (sscanf(o[i], "%c[%u:%u]", &c, &lo, &dummy) == 3 && c == 'v')
            snprintf(o[i], 48, "%c[%u:%u]", c, lo, lo + 1);
    }
    /* packed f32: a VGPR-pair source overlapping the destination in part is not a clone's form
     * (exec.c pk_fits) and runs the general handler; keep it, it splits the block */
    if (strchr(mn, '%')) {
        snprintf(line, n, mn, o[0], o[1], o[2]);
        return 1;
    }
    size_t ml = strlen(mn);
    int sdwa = ml > 5 && !strcmp(mn + ml - 5, "_sdwa");
    for (int i = 1; sdwa && i < k && !strstr(mn, "_f32"); i++) /* integer sources: sext() */
        if ((o[i][0] == 'v' || o[i][0] == 's') && rnd() % 3 == 0) {
            char t[48];
            snprintf(t, sizeof t, "sext(%s)", o[i]);
            memcpy(o[i], t, sizeof t);
        }
    int w = snprintf(line, n, "%s %s", mn, o[0]);
    for (int i = 1; i < k; i++)
        w += snprintf(line + w, n - (size_t)w, ", %s", o[i]);
    if (sdwa) {
        static const char *const sel[] = {"BYTE_0", "BYTE_1", "BYTE_2", "BYTE_3",
                                          "WORD_0", "WORD_1", "DWORD"};
        /* (f32 ops: the whole DWORD always, as a field of a NaN whose payload may differ
         * (above) would be any bits) */
        int d = strstr(mn, "_f32") || rnd() % 4 != 0;
        w += snprintf(line + w, n - (size_t)w, " dst_sel:%s dst_unused:%s", d ? "DWORD" : "WORD_1",
                      d || rnd() % 2 ? "UNUSED_PAD" : "UNUSED_PRESERVE");
        for (int i = 1; i < k; i++) /* (f32 ops: a VGPR's field could be a NaN's payload) */
            w += snprintf(line + w, n - (size_t)w, " src%d_sel:%s", i - 1,
                          strstr(mn, "_f32") && o[i][0] == 'v' ? "DWORD" : sel[rnd() % 7]);
    }
    /* packed f32: now and then other dwords for the halves (op_sel picks the low half's,
     * op_sel_hi the high half's; [0,1] scales both halves by one f32) */
    if (!strncmp(mn, "v_pk_", 5) && src && rnd() % 2) {
        int ns = (int)strlen(src + 1);
        const char *fld[2] = {" op_sel:[", " op_sel_hi:["};
        for (int f = 0; f < 2; f++) {
            w += snprintf(line + w, n - (size_t)w, "%s", fld[f]);
            for (int i = 0; i < ns; i++)
                w += snprintf(line + w, n - (size_t)w, "%s%u", i ? "," : "", rnd() % 2);
            w += snprintf(line + w, n - (size_t)w, "]");
        }
    }
    return 1;
}

/* Float programs (f32 arithmetic, conversions, moves) and integer ones (the rest, and moves):
 * a two-NaN operation's payload may differ (above), which is harmless as long as the result
 * stays a NaN, but an integer op reading it would turn the difference into any bits. */
static int is_float(const char *mn) {
    /* not v_mov_b32_sdwa: its field selects (and a WORD_1 destination's preserved low half)
     * would show a NaN's payload as integer bits */
    return (strstr(mn, "_f32") && strncmp(mn, "v_cvt_", 6)) ||
           (!strncmp(mn, "v_mov_b32", 9) && !strstr(mn, "_sdwa")) || !strncmp(mn, "v_cndmask", 9);
}
static int is_int(const char *mn) {
    return !strstr(mn, "_f32") || !strncmp(mn, "v_cvt_", 6) || !strncmp(mn, "v_mov_b32", 9);
}

/* Whether line assembles for arch; *gone: no, and the mnemonic is not on the target at all (so
 * another random form of it will not either). */
static int assembles(const char *arch, const char *line, int *gone) {
    size_t n;
    uint8_t *c = asm_snippet(arch, line, &n);
    free(c);
    *gone = !c && asm_not_on_target;
    return c != NULL;
}

static wave *w, *w0, *wj;

/* Memory for the programs' loads and stores (wave64: the blocks take global_load_dword and
 * global_store_dword there, and RDNA's global_load_b32 and global_store_b32): an 8 KiB buffer whose
 * contents each run starts from (mem_init) and whose contents after the interpreter's run
 * (mem_after) the blocks' runs must leave.  The addresses are v[48:49] (a VGPR pair) and v50 with
 * s[40:41] (saddr), which no random op writes: BUF_MID + 4 l per lane, or reversed, or with one
 * lane off (mem_lanes), and offsets within
 * +-512 bytes, so that no access leaves the buffer. */
enum { BUF_BYTES = 8192, BUF_MID = 4096 };
static gmem *mem;
static uint64_t buf;
static uint8_t mem_init[BUF_BYTES], mem_after[BUF_BYTES], mem_now[BUF_BYTES];

static void mem_lanes(int pattern) {
    for (unsigned l = 0; l < 64; l++) {
        uint32_t off =
            BUF_MID + 4 * (pattern == 3 ? 63 - l : l) + (pattern == 4 && l == 37 ? 8 : 0);
        uint64_t a = buf + off;
        w0->v[48][l] = (uint32_t)a;
        w0->v[49][l] = (uint32_t)(a >> 32);
        w0->v[50][l] = off;
    }
    w0->s[40] = (uint32_t)buf;
    w0->s[41] = (uint32_t)(buf >> 32);
}
static void gen_mem(char *line, size_t n, int rdna) {
    int off = ((int)(rnd() % 257) - 128) * 4;
    unsigned v = rnd() % 48;
    const char *ld = rdna ? "global_load_b32" : "global_load_dword",
               *st = rdna ? "global_store_b32" : "global_store_dword";
    switch (rnd() % 4) {
    case 0: snprintf(line, n, "%s v%u, v[48:49], off offset:%d", ld, v, off); break;
    case 1: snprintf(line, n, "%s v%u, v50, s[40:41] offset:%d", ld, v, off); break;
    case 2: snprintf(line, n, "%s v[48:49], v%u, off offset:%d", st, v, off); break;
    default: snprintf(line, n, "%s v50, v%u, s[40:41] offset:%d", st, v, off);
    }
}
static int usable[2][sizeof jit_ops / sizeof jit_ops[0]];

/* Compare the two final states; returns the number of differing words. */
static int compare(const char *arch, unsigned lanes, int prog, const char *text) {
    int bad = 0;
    if (w->status != wj->status || w->scc != wj->scc)
        bad++;
    for (int s = 0; s < 128; s++)
        bad += w->s[s] != wj->s[s];
    for (int r = 0; r < 96; r++) /* v0-v47, then a0-a47 */
        for (unsigned l = 0; l < lanes; l++) {
            uint32_t a = r < 48 ? w->v[r][l] : w->a[r - 48][l],
                     b = r < 48 ? wj->v[r][l] : wj->a[r - 48][l];
            if (a != b) {
                if (bad < 4)
                    printf("  %s prog %d: %c%d lane %u: interpreter 0x%08x, blocks 0x%08x\n", arch,
                           prog, r < 48 ? 'v' : 'a', r % 48, l, a, b);
                bad++;
            }
        }
    if (bad)
        printf("  program:\n%s\n", text);
    return bad;
}

/* w0 all zeros but for MODE (f32 denormals kept, IEEE) and every lane active: a state where
 * blocks run. */
static void clean_w0(void) {
    memset(w0, 0, sizeof *w0);
    w0->mode = 0xf0 | MODE_IEEE;
    wave_set_exec(w0, ~0ull);
}

/* The gfx950 wave64 code from state w0: into w by the interpreter, into wj with the blocks on
 * (mode: x_set_jit's 1 the host's code, 2 AVX2, 3 AVX-512 without AVX-512DQ); both must finish.
 * Returns the instructions the blocks built for it cover. */
static uint64_t run_blocks; /* the blocks run_both()'s build made */
static uint64_t run_both(const char *what, const uint8_t *code, size_t n, int mode) {
    uint64_t b0, i0, b1, i1;
    memcpy(w, w0, sizeof *w);
    x_set_jit(0);
    int st0 = run_code(w, "gfx950", code, n, 64, 100);
    memcpy(wj, w0, sizeof *wj);
    x_set_jit(mode);
    x_jit_counts(&b0, &i0);
    int st1 = run_code(wj, "gfx950", code, n, 64, 100);
    x_jit_counts(&b1, &i1);
    CHECK(st0 == WAVE_DONE && st1 == WAVE_DONE, "%s: status %d / %d", what, st0, st1);
    run_blocks = b1 - b0;
    return i1 - i0;
}

/* v_exp_f32 in a block (emit_exp2, emit_exp2_vex) against the interpreter's exp2_f32, bit for
 * bit, NaNs included: uniform inputs over the range where the result is neither 0 nor inf,
 * random bit patterns, and the edges (zeros, denormals, infinities, NaNs of both signs, the
 * clamp at 160 and the float's underflow and overflow boundaries).  Two exps in one block, the
 * second's input a VGPR the first does not touch, and a move that reads the second's result.
 * Each state runs with the host's code and, on an AVX-512 host, the AVX2 code and the AVX-512
 * code without the AVX-512DQ forms (x_set_jit(3); the same as the host's code on a host without
 * AVX-512DQ). */
static void test_exp(void) {
    static const uint32_t edges[] = {
        0,          0x80000000, 0x00000001, 0x80000001, 0x007fffff, 0x807fffff, 0x00800000,
        0x7f800000, 0xff800000, 0x7fc00000, 0xffc00000, 0x7f800001, 0xff800001, 0x7fbfffff,
        0x43200000, 0xc3200000, 0x43200001, 0xc3200001, 0x43000000, 0x42fe0000, 0x42ffffff,
        0xc2fc0000, 0xc2fe0000, 0xc3150000, 0xc3160000, 0xc3158000, 0xc2fd0000, 0x3f000000,
        0xbf000000, 0x3f800000, 0xbf800000, 0x33800000, 0xb3800000, 0x7f7fffff, 0xff7fffff};
    size_t n;
    uint8_t *code = asm_snippet("gfx950",
                                "v_exp_f32 v1, v0\nv_exp_f32 v2, v3\nv_mov_b32 v4, v2\n"
                                "s_endpgm\n",
                                &n);
    CHECK(code != NULL, "test_exp: the program does not assemble");
    if (!code)
        return;
    int bad = 0, modes = x_jit_host() == 2 ? 3 : 1;
    uint64_t ran[4] = {0, 0, 0, 0};
    static const char *const names[4] = {"", "host code", "AVX2", "AVX-512F"};
    for (int round = 0; round < 600; round++) {
        clean_w0();
        for (int r = 0; r < 2; r++)
            for (unsigned l = 0; l < 64; l++) {
                uint32_t v;
                if (round < 300) { /* uniform in [-160, 160) */
                    float f = (float)((double)rnd() / 4294967296.0 * 320.0 - 160.0);
                    memcpy(&v, &f, 4);
                } else if (round < 550) { /* random bits, exponents up to 2^8 mostly */
                    v = rnd() ^ rnd() << 16;
                    if (rnd() % 4)
                        v = (v & 0x807fffffu) | (100u + rnd() % 36) << 23;
                } else {
                    v = edges[(l + 64 * r + (unsigned)round) % (sizeof edges / sizeof edges[0])];
                }
                w0->v[r ? 3 : 0][l] = v;
            }
        for (int mode = 1; mode <= modes; mode++) {
            ran[mode] += run_both("test_exp", code, n, mode);
            for (int r = 1; r <= 4; r++)
                for (unsigned l = 0; l < 64; l++)
                    if (w->v[r][l] != wj->v[r][l] && bad++ < 4)
                        printf("  test_exp (%s): v%d lane %u, input 0x%08x: interpreter "
                               "0x%08x, blocks 0x%08x\n",
                               names[mode], r, l, w0->v[r == 1 ? 0 : 3][l], w->v[r][l],
                               wj->v[r][l]);
        }
    }
    x_set_jit(1);
    CHECK(bad == 0, "test_exp: %d results differ", bad);
    for (int mode = 1; mode <= modes && x_jit_enabled(); mode++)
        CHECK(ran[mode] > 0, "test_exp: no block ran the exps (%s)", names[mode]);
    free(code);
}

/* v_perm_b32 in a block (emit_perm, emit_perm_vex) against the interpreter, bit for bit:
 * selector bytes mostly 0-15 (each case: a byte of either source, a sign of byte 1 or 3 of
 * either, zero, 0xff), else any byte; a VGPR selector (lanes differ) and an SGPR one (the same
 * in every lane, the handler's other path), sources with random signs.  The host's code and,
 * on an AVX-512 host, the AVX2 code; AVX-512 code needs AVX-512BW for it. */
static void test_perm(void) {
    size_t n;
    uint8_t *code = asm_snippet("gfx950",
                                "v_perm_b32 v1, v0, v3, v5\nv_perm_b32 v2, v3, v0, s7\n"
                                "v_mov_b32 v4, v1\ns_endpgm\n",
                                &n);
    CHECK(code != NULL, "test_perm: the program does not assemble");
    if (!code)
        return;
    int bad = 0, modes = x_jit_host() == 2 ? 2 : 1;
    uint64_t ran[3] = {0, 0, 0};
    for (int round = 0; round < 200; round++) {
        clean_w0();
        for (unsigned l = 0; l < 64; l++) {
            w0->v[0][l] = rnd() ^ rnd() << 16;
            w0->v[3][l] = rnd() ^ rnd() << 16;
            uint32_t sel = 0;
            for (int k = 0; k < 4; k++)
                sel |= (rnd() % 8 ? rnd() % 16 : rnd() & 0xff) << (8 * k);
            w0->v[5][l] = sel;
        }
        w0->s[7] = w0->v[5][round % 64];
        for (int mode = 1; mode <= modes; mode++) {
            ran[mode] += run_both("test_perm", code, n, mode);
            for (int r = 1; r <= 4; r++)
                for (unsigned l = 0; l < 64; l++)
                    if (w->v[r][l] != wj->v[r][l] && bad++ < 4)
                        printf("  test_perm (%s): v%d lane %u: interpreter 0x%08x, blocks "
                               "0x%08x\n",
                               mode == 2 ? "AVX2" : "host code", r, l, w->v[r][l], wj->v[r][l]);
        }
    }
    x_set_jit(1);
    CHECK(bad == 0, "test_perm: %d results differ", bad);
    int host_ok = x_jit_host() == 1;
#if defined(__x86_64__)
    host_ok |= x_jit_host() == 2 && __builtin_cpu_supports("avx512bw");
#endif
    for (int mode = 1; mode <= modes && x_jit_enabled(); mode++)
        if (mode == 2 || host_ok)
            CHECK(ran[mode] > 0, "test_perm: no block ran the permutes (%s)",
                  mode == 2 ? "AVX2" : "host code");
    free(code);
}

/* Scalar ops a block may hoist (run before its code) against ones it must defer: after a
 * deferred op (here an s_and_b64 of a mask a compare in the block wrote), an op that reads what
 * it wrote, writes what it wrote, or writes what it reads stays in order after it.  Each program
 * runs from random states with and without blocks, on every target that has the ops. */
static void run_progs_cover(const char *what, const char *const *progs, size_t nprogs,
                            const unsigned (*cover)[2], uint32_t vmask);
static void run_progs(const char *what, const char *const *progs, size_t nprogs) {
    run_progs_cover(what, progs, nprogs, NULL, ~0u);
}
static void test_hoist(void) {
    static const char *const progs[] = {
        /* reads the deferred op's result */
        "v_cmp_gt_u32 s[8:9], v1, v2\ns_and_b64 s[2:3], s[8:9], s[4:5]\ns_mov_b32 s6, s2\n"
        "v_add_u32 v3, s6, v4\nv_add_u32 v5, v6, v7\ns_endpgm\n",
        /* writes it */
        "v_cmp_gt_u32 s[8:9], v1, v2\ns_and_b64 s[2:3], s[8:9], s[4:5]\ns_mov_b32 s2, 7\n"
        "v_add_u32 v3, v4, v5\nv_add_u32 v6, v7, v8\ns_endpgm\n",
        /* writes its source */
        "v_cmp_gt_u32 s[8:9], v1, v2\ns_and_b64 s[2:3], s[8:9], s[4:5]\ns_mov_b32 s4, 9\n"
        "v_add_u32 v3, v4, v5\nv_add_u32 v6, v7, v8\ns_endpgm\n",
        /* hoisted: a vector op after it reads its result */
        "v_add_u32 v3, v4, v5\ns_mul_i32 s6, s1, s2\nv_add_u32 v7, s6, v3\n"
        "s_mov_b64 vcc, s[4:5]\nv_cndmask_b32 v8, v7, v3, vcc\ns_endpgm\n",
    };
    run_progs("test_hoist", progs, sizeof progs / sizeof progs[0]);
}

/* Scalar mask ops in blocks (J_KLOGIC): s_and/or/xor/andn2_b64 of compare results, EXEC and the
 * constants 0 and -1 read by v_cndmask_b32 in the same block, the SCC each sets read by
 * s_cselect (set after the code, in order with the deferred ops), a compare that rewrites a
 * mask op's result after it (the SCC is still the mask op's), a deferred op that sets SCC after
 * one, a scalar op without native code after one, and masked code's VCC chains: a mask op's SCC
 * overwritten by the next one unread, or read first. */
static void test_klogic(void) {
    static const char *const progs[] = {
        "v_cmp_gt_u32 s[8:9], v1, v2\nv_cmp_lt_u32 vcc, v3, v4\ns_or_b64 vcc, vcc, s[8:9]\n"
        "v_cndmask_b32 v5, v6, v7, vcc\ns_andn2_b64 s[10:11], exec, s[8:9]\n"
        "v_cndmask_b32_e64 v8, v6, v7, s[10:11]\ns_xor_b64 s[12:13], s[10:11], -1\n"
        "s_cselect_b32 s20, 1, 2\nv_cndmask_b32_e64 v9, v5, v8, s[12:13]\n"
        "s_and_b64 s[14:15], s[4:5], 0\ns_cselect_b32 s21, 3, 4\nv_add_u32 v10, v9, v8\n"
        "s_endpgm\n",
        "v_cmp_gt_u32 s[8:9], v1, v2\ns_and_b64 s[10:11], s[8:9], 0\n"
        "v_cmp_lt_u32 s[10:11], v3, v4\ns_cselect_b32 s20, 5, 6\n"
        "v_cndmask_b32_e64 v5, v6, v7, s[10:11]\nv_add_u32 v8, v5, v6\ns_endpgm\n",
        "v_cmp_gt_u32 s[8:9], v1, v2\ns_cmp_eq_u32 s1, s1\ns_and_b64 s[10:11], s[8:9], exec\n"
        "s_add_u32 s3, s1, s2\ns_cselect_b32 s20, 7, 8\nv_cndmask_b32_e64 v5, v6, v7, s[10:11]\n"
        "v_mov_b32 v9, v5\ns_endpgm\n",
        /* a scalar op without native code after a mask op ends the block (its SCC is code) */
        "v_cmp_gt_u32 s[8:9], v1, v2\ns_or_b64 s[10:11], s[8:9], s[4:5]\n"
        "v_cndmask_b32_e64 v5, v6, v7, s[10:11]\ns_bfe_u32 s3, s1, s2\nv_add_u32 v8, v5, v6\n"
        "v_cndmask_b32_e64 v9, v8, v7, s[10:11]\ns_endpgm\n",
        /* a mask op's SCC overwritten unread by the next one: VCC rewritten in the block */
        "v_cmp_gt_u32 vcc, v1, v2\ns_or_b64 vcc, vcc, s[4:5]\nv_cndmask_b32 v5, v6, v7, vcc\n"
        "s_and_b64 vcc, s[8:9], 0\nv_cndmask_b32 v8, v6, v7, vcc\ns_cselect_b32 s20, 1, 2\n"
        "v_add_u32 v9, v5, v8\ns_endpgm\n",
        /* ... read first */
        "v_cmp_gt_u32 vcc, v1, v2\ns_or_b64 vcc, vcc, s[4:5]\ns_cselect_b32 s20, 1, 2\n"
        "v_cndmask_b32 v5, v6, v7, vcc\ns_and_b64 vcc, s[8:9], 0\n"
        "v_cndmask_b32 v8, v6, v7, vcc\nv_add_u32 v9, v5, v8\ns_endpgm\n",
        /* ... read, then another mask op and a compare rewriting the first one's result */
        "v_cmp_gt_u32 vcc, v1, v2\ns_and_b64 vcc, vcc, 0\ns_cselect_b32 s20, 1, 2\n"
        "v_cndmask_b32 v5, v6, v7, vcc\ns_or_b64 s[10:11], s[8:9], s[4:5]\n"
        "v_cmp_lt_u32 vcc, v3, v4\nv_cndmask_b32 v8, v6, v7, vcc\nv_add_u32 v9, v5, v8\n"
        "s_endpgm\n",
    };
    run_progs("test_klogic", progs, sizeof progs / sizeof progs[0]);
}

/* MFMAs inside blocks, run after the code (block(), mfma_defer), and blocks that start with
 * no-ops and hoisted scalar ops.  The MFMAs read random 16-bit floats below 2 (no infinities or
 * NaNs, which compare() would take as equal whatever their bits).  Programs 1-3: a vector op after
 * an MFMA reads its result, writes its source or writes its destination (the last register of
 * each), so the block ends before it; program 4 is the same register numbers in AGPRs (no
 * conflict); 5 a chain of MFMAs; 6 a mask op (its SCC set after the code) beside one; 7 a
 * leading s_nop (not in the block: no block starts with one, so that the padding before a
 * kernel's entry does not take the entry into a block), a wait count and scalar ops. */
static void test_mfma_defer(void) {
    static const char *const progs[] = {
        "v_add_u32 v20, v0, v1\nv_mfma_f32_16x16x16_bf16 v[8:11], v[0:1], v[2:3], 0\n"
        "v_add_u32 v21, v4, v5\ns_nop 1\nv_mfma_f32_16x16x16_bf16 v[8:11], v[4:5], v[6:7], "
        "v[8:11]\nv_mul_lo_u32 v22, v20, v21\ns_endpgm\n",
        "v_add_u32 v20, v0, v1\nv_mfma_f32_16x16x16_bf16 v[8:11], v[0:1], v[2:3], 0\n"
        "v_add_u32 v21, v11, v5\nv_add_u32 v22, v21, v1\ns_endpgm\n",
        "v_add_u32 v20, v0, v1\nv_mfma_f32_16x16x16_bf16 v[8:11], v[0:1], v[2:3], 0\n"
        "v_add_u32 v3, v4, v5\nv_add_u32 v22, v3, v1\ns_endpgm\n",
        "v_add_u32 v20, v0, v1\nv_mfma_f32_16x16x16_bf16 v[8:11], v[0:1], v[2:3], 0\n"
        "v_add_u32 v10, v4, v5\nv_add_u32 v22, v20, v1\ns_endpgm\n",
        "v_add_u32 v20, v0, v1\nv_mfma_f32_16x16x16_bf16 a[8:11], v[0:1], v[2:3], a[4:7]\n"
        "v_add_u32 v8, v4, v5\nv_add_u32 v4, v20, v8\ns_endpgm\n",
        "v_add_u32 v20, v0, v1\nv_mfma_f32_16x16x16_bf16 v[8:11], v[0:1], v[2:3], 0\n"
        "v_mfma_f32_32x32x8_f16 v[24:39], v[4:5], v[6:7], v[24:39]\n"
        "v_mfma_f32_16x16x16_bf16 v[12:15], v[4:5], v[6:7], v[8:11]\nv_add_u32 v21, v20, v1\n"
        "s_endpgm\n",
        "v_cmp_gt_i32 vcc, v0, v1\ns_and_b64 s[6:7], vcc, s[8:9]\n"
        "v_mfma_f32_16x16x16_bf16 v[8:11], v[0:1], v[2:3], 0\n"
        "v_cndmask_b32_e64 v20, v1, v2, s[6:7]\ns_cselect_b32 s10, s1, s2\n"
        "v_add_u32 v21, v20, v1\ns_endpgm\n",
        "s_nop 0\ns_add_u32 s3, s1, s2\ns_waitcnt lgkmcnt(0)\ns_mov_b32 s4, s3\n"
        "v_add_u32 v20, s3, v0\nv_add_u32 v21, s4, v1\ns_endpgm\n",
    };
    static const unsigned cover[][2] = {{1, 6}, {2, 4}, {2, 4}, {2, 4},
                                        {1, 4}, {1, 5}, {1, 6}, {1, 5}};
    run_progs_cover("test_mfma_defer", progs, sizeof progs / sizeof progs[0], cover, 0x3fff3fffu);
}

/* EXEC in blocks (wave64 programs): a saveexec op or a logic op into EXEC after vector ops runs
 * after the code, and ends the vector part of its block (program 1: the v_add_u32 after the
 * saveexec runs under the new EXEC, so it starts a block of its own, which the interpreter then
 * runs); scalar ops alone make a block (program 3: the saveexec and s_mulk_i32, and after the
 * v_sqrt_f32 four scalar ops entered with some lanes inactive).  Program 2: s_addk_i32's signed
 * overflow into SCC, read by s_cselect_b32, and s_mulk_i32, hoisted before the vector ops that
 * read their results. */
static void test_exec(void) {
    static const char *const progs[] = {
        "v_cmp_gt_u32 vcc, v1, v2\nv_add_u32 v3, v4, v5\ns_and_saveexec_b64 s[20:21], vcc\n"
        "s_xor_b64 s[20:21], exec, s[20:21]\nv_add_u32 v6, v3, v7\nv_mov_b32 v8, v6\n"
        "s_or_b64 exec, exec, s[20:21]\ns_endpgm\n",
        "s_mov_b32 s4, 0x7ffffff0\ns_addk_i32 s4, 0x7fff\ns_cselect_b32 s5, s1, s2\n"
        "s_mulk_i32 s3, 0x1400\nv_add_u32 v3, s3, v4\nv_add_u32 v5, s5, v3\ns_endpgm\n",
        "s_and_saveexec_b64 s[6:7], s[8:9]\ns_mulk_i32 s3, 0xfff0\nv_add_u32 v3, s3, v4\n"
        "v_add_u32 v5, v3, v4\nv_sqrt_f32 v9, v5\ns_or_saveexec_b64 s[14:15], s[0:1]\n"
        "s_xor_b64 s[16:17], exec, s[14:15]\ns_addk_i32 s10, 0x8000\ns_mov_b64 exec, -1\n"
        "s_endpgm\n",
    };
    static const unsigned cover[][2] = {{2, 7}, {1, 6}, {3, 8}};
    run_progs_cover("test_exec", progs, sizeof progs / sizeof progs[0], cover, ~0u);
}

/* Each program from random states (v0-v9 ANDed with vmask, s0-s11, a0-a9: some lanes equal so
 * that compares go both ways) with and without blocks (on an AVX-512 host its code and the AVX2
 * code), the whole state compared; each must build a block in each, and when cover is given,
 * exactly cover[i][0] blocks covering cover[i][1] instructions. */
static void run_progs_cover(const char *what, const char *const *progs, size_t nprogs,
                            const unsigned (*cover)[2], uint32_t vmask) {
    for (size_t i = 0; i < nprogs; i++) {
        size_t n;
        uint8_t *code = asm_snippet("gfx950", progs[i], &n);
        CHECK(code != NULL, "%s: program %zu does not assemble", what, i);
        if (!code)
            continue;
        uint64_t ran[3] = {0, 0, 0};
        int modes = x_jit_host() == 2 ? 2 : 1;
        for (int round = 0; round < 8; round++) {
            clean_w0();
            for (int r = 0; r < 10; r++)
                for (unsigned l = 0; l < 64; l++) {
                    w0->v[r][l] = (rnd() % 4 ? rnd() : w0->v[r ? r - 1 : 0][l]) & vmask;
                    w0->a[r][l] = rnd() & vmask;
                }
            for (int r = 0; r < 12; r++)
                w0->s[r] = rnd() ^ rnd() << 16;
            for (int mode = 1; mode <= modes; mode++) {
                uint64_t got = run_both(what, code, n, mode);
                ran[mode] += got;
                int d = compare("gfx950", 64, (int)i, progs[i]);
                CHECK(d == 0, "%s: program %zu (%s): %d words differ", what, i,
                      mode == 2 ? "AVX2" : "host code", d);
                if (cover && x_jit_enabled() && round == 0)
                    CHECK(run_blocks == cover[i][0] && got == cover[i][1],
                          "%s: program %zu (%s): %llu blocks covering %llu instructions, not "
                          "%u and %u",
                          what, i, mode == 2 ? "AVX2" : "host code", (unsigned long long)run_blocks,
                          (unsigned long long)got, cover[i][0], cover[i][1]);
            }
        }
        x_set_jit(1);
        for (int mode = 1; mode <= modes && x_jit_enabled(); mode++)
            CHECK(ran[mode] > 0, "%s: program %zu built no block (%s)", what, i,
                  mode == 2 ? "AVX2" : "host code");
        free(code);
    }
}

int main(void) {
    w = aligned_alloc(64, sizeof *w);
    w0 = aligned_alloc(64, sizeof *w0);
    wj = aligned_alloc(64, sizeof *wj);
    if (!w || !w0 || !wj)
        return 1;
    /* GFXEMU_JIT_SEED / GFXEMU_JIT_PROGS: another draw of the random programs, or more of them
     * per target (32), for a longer differential run by hand */
    const char *e = getenv("GFXEMU_JIT_SEED");
    if (e && *e && strtoull(e, NULL, 0))
        seed = strtoull(e, NULL, 0);
    e = getenv("GFXEMU_JIT_PROGS");
    int nrandom = e && *e ? atoi(e) : 32;
    x_set_jit(1);
    int jit = x_jit_enabled();
    if (!jit)
        printf("test_jit: no native blocks on this host (no AVX-512F, or GFXEMU_JIT=0): checking "
               "that none is built and the programs run\n");
    /* [rdna]: CDNA and RDNA programs; mem_calls[rdna][mode - 1] */
    uint64_t vec_total = 0, covered_total = 0, mem_ops[2] = {0, 0}, mem_calls[2][2] = {{0}};
    mem = gmem_create();
    buf = mem ? gmem_alloc(mem, BUF_BYTES, 0) : 0;
    if (!buf)
        return 1;
    for (size_t ti = 0; ti < sizeof targets / sizeof targets[0]; ti++) {
        const target *tg = &targets[ti];
        /* which templates this target's assembler takes (v_xor3_b32 is gfx10+, packed f32
         * gfx90a+...): probe each once */
        int n_ok = 0;
        for (size_t i = 0; i < sizeof jit_ops / sizeof jit_ops[0]; i++) {
            char line[160];
            usable[tg->rdna][i] = 0;
            int gone = 0;
            for (int tries = 0; tries < 8 && !usable[tg->rdna][i] && !gone; tries++) {
                if (!gen_inst(&jit_ops[i], tg, line, sizeof line))
                    break;
                usable[tg->rdna][i] = assembles(tg->arch, line, &gone);
            }
            n_ok += usable[tg->rdna][i];
        }
        CHECK(n_ok >= 30, "%s: only %d of the ops assemble", tg->arch, n_ok);
        int s_ok = 0;
        for (unsigned i = 0; i < NSALU; i++) {
            salu_ok[tg->rdna][i] = 0;
            int gone = 0;
            for (int tries = 0; tries < 8 && !salu_ok[tg->rdna][i] && !gone; tries++) {
                char line[160];
                gen_salu(i, line, sizeof line);
                salu_ok[tg->rdna][i] = assembles(tg->arch, line, &gone);
            }
            s_ok += salu_ok[tg->rdna][i];
        }
        CHECK(s_ok >= 20, "%s: only %d of the scalar ops assemble", tg->arch, s_ok);
        int progs = 0, differ = 0;
        uint64_t vec = 0, covered = 0, covered2 = 0;
        for (int prog = 0; prog < nrandom; prog++) {
            static char text[65536];
            size_t len = 0;
            int nvec = 0, nmem = 0;
            for (int i = 0; i < 70; i++) {
                char line[160];
                unsigned c = rnd() % 100;
                int fl = prog & 1;
                if (tg->lanes == 64 && rnd() % 12 == 0) {
                    gen_mem(line, sizeof line, tg->rdna);
                    nmem++;
                } else if (c < 80) {
                    size_t k = rnd() % (sizeof jit_ops / sizeof jit_ops[0]);
                    const char *mn = tg->rdna ? jit_ops[k].rdna : jit_ops[k].cdna;
                    if (!usable[tg->rdna][k] || !mn || !(fl ? is_float(mn) : is_int(mn)) ||
                        !gen_inst(&jit_ops[k], tg, line, sizeof line)) {
                        i--;
                        continue;
                    }
                    nvec++;
                } else if (c < 90) {
                    unsigned k = rnd() % NSALU;
                    if (!salu_ok[tg->rdna][k]) {
                        i--;
                        continue;
                    }
                    gen_salu(k, line, sizeof line);
                } else if (c < 94) {
                    snprintf(line, sizeof line, "s_nop 0");
                } else {
                    const tmpl *t = &other_ops[fl ? rnd() % 2 * 2 : 1];
                    if (!gen_inst(t, tg, line, sizeof line)) {
                        i--;
                        continue;
                    }
                }
                len += (size_t)snprintf(text + len, sizeof text - len, "%s\n", line);
            }
            len += (size_t)snprintf(text + len, sizeof text - len, "s_endpgm\n");
            size_t n;
            uint8_t *code = asm_snippet(tg->arch, text, &n);
            if (!code) {
                /* an operand combination the assembler refuses: a different program */
                continue;
            }
            memset(w0, 0, sizeof *w0);
            int kind = prog % 8; /* 0: partial EXEC, 1: f32 denormals flushed, else full */
            /* MODE: f32 denormals flushed (kind 1) or kept; IEEE mode (f32 max/min's NaN rules,
             * which the blocks follow only with it set) but in kind 3 */
            w0->mode = (kind == 1 ? 0xc0 : 0xf0) | (kind == 3 ? 0 : MODE_IEEE);
            w0->scc = rnd() & 1;
            for (int r = 0; r < 48; r++)
                for (unsigned l = 0; l < 64; l++)
                    w0->v[r][l] = rnd() % 3 ? rnd() ^ rnd() << 16 : edge[rnd() % NEDGE];
            for (int s = 0; s < 108; s++) /* s0-s103 and VCC */
                if (s < 104 || s >= ISA_SREG_VCC_LO)
                    w0->s[s] = rnd() % 3 ? rnd() ^ rnd() << 16 : edge[rnd() % NEDGE];
            uint64_t exec = tg->lanes == 32 ? 0xffffffffull : ~0ull;
            if (kind == 0)
                exec &= (uint64_t)rnd() << 32 | rnd();
            wave_set_exec(w0, exec);
            w0->mem = mem;
            mem_lanes(prog % 5);
            for (unsigned i = 0; i < BUF_BYTES; i++)
                mem_init[i] = (uint8_t)rnd();
            uint64_t b0, i0, b1, i1;
            memcpy(w, w0, sizeof *w);
            x_set_jit(0);
            gmem_write(mem, buf, mem_init, BUF_BYTES);
            int st0 = run_code(w, tg->arch, code, n, tg->lanes, 1000);
            gmem_read(mem, buf, mem_after, BUF_BYTES);
            /* the host's encoding, and on an AVX-512 host the AVX2 one as well */
            for (int mode = 1; mode <= (x_jit_host() == 2 ? 2 : 1); mode++) {
                memcpy(wj, w0, sizeof *wj);
                x_set_jit(mode);
                x_jit_counts(&b0, &i0);
                gmem_write(mem, buf, mem_init, BUF_BYTES);
                uint64_t s0 = x_jit_load_count();
                int st1 = run_code(wj, tg->arch, code, n, tg->lanes, 1000);
                mem_calls[tg->rdna][mode - 1] += x_jit_load_count() - s0;
                x_jit_counts(&b1, &i1);
                CHECK(st0 == WAVE_DONE && st1 == WAVE_DONE, "%s prog %d: status %d / %d", tg->arch,
                      prog, st0, st1);
                gmem_read(mem, buf, mem_now, BUF_BYTES);
                int d = compare(tg->arch, tg->lanes, prog, text);
                for (unsigned i = 0; i < BUF_BYTES; i += 4) {
                    uint32_t a, b;
                    memcpy(&a, mem_after + i, 4), memcpy(&b, mem_now + i, 4);
                    if (a != b && d++ < 4)
                        printf("  %s prog %d: memory at +%u: interpreter 0x%08x, blocks 0x%08x\n"
                               "%s\n",
                               tg->arch, prog, i, a, b, d == 1 ? text : "");
                }
                CHECK(d == 0, "%s (wave%u, %s) prog %d: %d words differ", tg->arch, tg->lanes,
                      mode == 2 || x_jit_host() == 1 ? "AVX2" : "AVX-512", prog, d);
                differ += d != 0;
                if (mode == 1)
                    covered += i1 - i0;
                else
                    covered2 += i1 - i0;
            }
            free(code);
            progs++;
            vec += (uint64_t)nvec;
            mem_ops[tg->rdna] += (uint64_t)nmem;
            if (!jit)
                CHECK(b1 == b0, "%s: a block was built with the blocks off", tg->arch);
        }
        printf("test_jit: %s wave%u: %d programs, %d differ; %llu instructions in blocks (AVX2 "
               "code: %llu); the programs have %llu of the translatable ops\n",
               tg->arch, tg->lanes, progs, differ, (unsigned long long)covered,
               (unsigned long long)covered2, (unsigned long long)vec);
        CHECK(progs >= 16, "%s: only %d programs assembled", tg->arch, progs);
        vec_total += vec;
        covered_total += covered;
    }
    x_set_jit(1);
    test_exp();
    x_set_jit(1);
    test_hoist();
    x_set_jit(1);
    test_klogic();
    x_set_jit(1);
    test_mfma_defer();
    x_set_jit(1);
    test_exec();
    x_set_jit(1);
    test_perm();
    x_set_jit(1);
    if (jit)
        CHECK(covered_total * 2 > vec_total, "blocks cover %llu of %llu instructions",
              (unsigned long long)covered_total, (unsigned long long)vec_total);
    /* the blocks took loads and stores: each one's first run calls vmem.c for its cold hot line
     * (in each encoding) */
    for (int r = 0; r < 2; r++) {
        printf("test_jit: %llu memory instructions in the %s wave64 programs; calls from blocks "
               "into vmem.c: %llu (host code), %llu (AVX2)\n",
               (unsigned long long)mem_ops[r], r ? "RDNA" : "CDNA",
               (unsigned long long)mem_calls[r][0], (unsigned long long)mem_calls[r][1]);
        if (jit)
            CHECK(mem_calls[r][0] > 0 && (x_jit_host() != 2 || mem_calls[r][1] > 0),
                  "%s: no block took a load or store (%llu, %llu calls)", r ? "RDNA" : "CDNA",
                  (unsigned long long)mem_calls[r][0], (unsigned long long)mem_calls[r][1]);
    }
    gmem_destroy(mem);
    free(w);
    free(w0);
    free(wj);
    return check_report("test_jit", check_count, check_fails);
}
