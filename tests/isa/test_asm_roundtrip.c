/* test_asm_roundtrip.c - the assembler against llvm-mc-22: decode -> print -> assemble.
 *
 * For each target: random words (a family's prefix bits, random fields, as test_sweep does) and
 * every opcode of every format with random operand fields are decoded and printed by gfxemu;
 * texts LLVM would annotate as invalid are dropped.  All texts go to llvm-mc-22 in one call
 * (-show-encoding); every text llvm-mc accepts must be assembled by gfxemu to the same bytes.
 *
 * Environment: SEED (default 1), N (random cases per target, default 20000), ARCH (one target),
 * SHOW (mismatches printed, default 20), SHOW_EXTRA (texts gfxemu assembles but llvm-mc-22
 * rejects printed with llvm-mc's message, default 0).
 */
#include "common/check.h"
#include "common/rng.h"
#include "common/util.h"
#include "isa/isa.h"

#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static uint64_t rng;
static uint32_t rnd(void) { return (uint32_t)(xorshift64(&rng) >> 11); }

/* Family prefix and opcode field of each format (CDNA3/CDNA4 "Microcode formats"). */
typedef struct {
    uint32_t mask, value;
    uint8_t op_sh, op_w;
} fam_t;
static const fam_t cdna_fams[] = {
    {0xc0000000, 0x80000000, 23, 7},  /* SOP2 */
    {0xf0000000, 0xb0000000, 23, 5},  /* SOPK */
    {0xff800000, 0xbe800000, 8, 8},   /* SOP1 */
    {0xff800000, 0xbf000000, 16, 7},  /* SOPC */
    {0xff800000, 0xbf800000, 16, 7},  /* SOPP */
    {0xfc000000, 0xc0000000, 18, 8},  /* SMEM */
    {0x80000000, 0x00000000, 25, 6},  /* VOP2 */
    {0xfe000000, 0x7e000000, 9, 8},   /* VOP1 */
    {0xfe000000, 0x7c000000, 17, 8},  /* VOPC */
    {0xfc000000, 0xd0000000, 16, 10}, /* VOP3 (and VOP3P) */
    {0xfc000000, 0xd8000000, 17, 8},  /* DS */
    {0xfc000000, 0xdc000000, 18, 7},  /* FLAT */
    {0xfc000000, 0xe0000000, 18, 7},  /* MUBUF */
    {0xfc000000, 0xe8000000, 15, 4},  /* MTBUF */
};
/* RDNA3/RDNA4 ISA manuals, "Microcode formats" (the same positions src/isa/decode.c and the RDNA
 * decoders use); image and export encodings are not assembled yet */
#define RDNA_COMMON                                                                                \
    {0xc0000000, 0x80000000, 23, 7}, {0xf0000000, 0xb0000000, 23, 5},                              \
        {0xff800000, 0xbe800000, 8, 8}, {0xff800000, 0xbf000000, 16, 7},                           \
        {0xff800000, 0xbf800000, 16, 7}, {0x80000000, 0x00000000, 25, 6},                          \
        {0xfe000000, 0x7e000000, 9, 8}, {0xfe000000, 0x7c000000, 17, 8},                           \
        {0xfc000000, 0xd4000000, 16, 10}, /* VOP3 */                                               \
        {0xff000000, 0xcc000000, 16, 7},  /* VOP3P */                                              \
        {0xfc000000, 0xc8000000, 17, 9},  /* VOPD */                                               \
        {0xfc000000, 0xd8000000, 18, 8},  /* DS */                                                 \
        {0xff000000, 0xce000000, 20, 2},  /* LDSDIR */                                             \
        {0xff000000, 0xcd000000, 16, 7}   /* VINTERP */
static const fam_t gfx11_fams[] = {
    RDNA_COMMON,
    {0xfc000000, 0xf4000000, 18, 8}, /* SMEM */
    {0xfc000000, 0xdc000000, 18, 7}, /* FLAT */
    {0xfc000000, 0xe0000000, 18, 8}, /* MUBUF */
    {0xfc000000, 0xe8000000, 15, 4}, /* MTBUF */
};
static const fam_t gfx12_fams[] = {
    RDNA_COMMON,
    {0xfc000000, 0xf4000000, 13, 6}, /* SMEM */
    {0xfc000000, 0xec000000, 14, 8}, /* VFLAT/VGLOBAL/VSCRATCH */
    {0xfc000000, 0xc4000000, 14, 8}, /* VBUFFER */
};
static const fam_t *fams;
static size_t NFAM;
static int rdna;

/* gfx1201 SMEM/VMEM "nv" and "scale_offset": llvm-mc-22 reports "not supported on this GPU" and
 * still lists an encoding, which would shift every later answer of the batch: left out. */
static int lists_anyway(const char *t) {
    const char *p = strstr(t, " nv");
    return strstr(t, "scale_offset") || (p && (p[3] == 0 || p[3] == ' '));
}

static void random_case(uint32_t w[4], int fam, int op) {
    for (int i = 0; i < 4; i++)
        w[i] = rnd();
    uint32_t r = rnd();
    unsigned k = fam >= 0 ? (unsigned)fam : (r >> 2) % NFAM;
    w[0] = (w[0] & ~fams[k].mask) | fams[k].value;
    if (op >= 0) {
        uint32_t m = ((1u << fams[k].op_w) - 1) << fams[k].op_sh;
        w[0] = (w[0] & ~m) | ((uint32_t)op << fams[k].op_sh);
    }
    if (fams[k].value < 0x80000000 && (r >> 8) % 3 == 0) {
        /* SDWA, DPP, a literal (RDNA: DPP16, DPP8, DPP8 with FI, a literal) */
        static const uint32_t src0[] = {0xf9, 0xfa, 0xff}, src0r[] = {0xfa, 0xe9, 0xea, 0xff};
        w[0] = (w[0] & ~0x1ffu) | (rdna ? src0r[(r >> 12) % 4] : src0[(r >> 12) % 3]);
    }
    /* RDNA VOP3/VOP3P: the e64_dpp forms (src0 0xFA/0xE9) and literals */
    if (rdna && (fams[k].value == 0xd4000000 || fams[k].value == 0xcc000000) && (r >> 8) % 3 == 0) {
        static const uint32_t src0r[] = {0xfa, 0xe9, 0xea, 0xff};
        w[1] = (w[1] & ~0x1ffu) | src0r[(r >> 12) % 4];
    }
    /* small register numbers keep most random texts legal (aligned tuples, in-range SGPRs) */
    if (r & (1u << 20))
        w[1] &= 0x0f0f0f0fu;
}

typedef struct {
    char text[200];
    uint8_t mc[16]; /* llvm-mc's bytes */
    int mcn;        /* 0: llvm-mc rejected the text */
} tcase;

static int run_arch(isa_arch arch, size_t nrand, int show, int show_extra) {
    const char *an = isa_arch_name(arch);
    size_t cap = nrand + NFAM * 1024 * 6 + 128 * 6 + 16, n = 0;
    tcase *t = calloc(cap, sizeof *t);
    if (!t)
        return 1;
    /* every opcode of every format, several random operand sets each, then random words */
    for (unsigned f = 0; f < NFAM; f++)
        for (int op = 0; op < (1 << fams[f].op_w); op++)
            for (int rep = 0; rep < 6; rep++) {
                uint32_t w[4];
                random_case(w, (int)f, op);
                isa_inst in;
                if (!isa_decode(arch, (const uint8_t *)w, 16, &in))
                    continue;
                isa_print(&in, t[n].text, sizeof t[n].text);
                if (strstr(t[n].text, "Warning") || strstr(t[n].text, "/*") ||
                    strchr(t[n].text, '<') || lists_anyway(t[n].text))
                    continue;
                n++;
            }
    /* gfx950's 128-bit scaled MFMA: a v_mfma_ld_scale_b32 word pair, then the MFMA with
     * op_sel[0] set (random fields elsewhere) */
    for (int op = 0; op < 128; op++)
        for (int rep = 0; rep < 6 && n < cap; rep++) {
            uint32_t w[4] = {0xd3ac0000u | (rnd() & 0x7f00u), rnd() & 0xf803ffffu,
                             0xd3800800u | (uint32_t)op << 16 | (rnd() & 0xf7ffu), rnd()};
            if (rnd() & 1)
                w[3] &= 0x0f0f0f0fu, w[3] |= 256u | 256u << 9 | 256u << 18;
            isa_inst in;
            if (isa_decode(arch, (const uint8_t *)w, 16, &in) != 16)
                continue;
            isa_print(&in, t[n].text, sizeof t[n].text);
            if (strstr(t[n].text, "Warning") || strstr(t[n].text, "/*") || strchr(t[n].text, '<'))
                continue;
            n++;
        }
    size_t nop = n;
    for (size_t i = 0; i < nrand && n < cap; i++) {
        uint32_t w[4];
        random_case(w, -1, -1);
        isa_inst in;
        if (!isa_decode(arch, (const uint8_t *)w, 16, &in))
            continue;
        isa_print(&in, t[n].text, sizeof t[n].text);
        if (strstr(t[n].text, "Warning") || strstr(t[n].text, "/*") || strchr(t[n].text, '<') ||
            lists_anyway(t[n].text))
            continue;
        n++;
    }
    /* one llvm-mc call for all of them */
    char src[512], out[512], err[512];
    snprintf(src, sizeof src, "%s/tests/isa/asm_rt_%s.s", test_build_dir(), an);
    snprintf(out, sizeof out, "%s/tests/isa/asm_rt_%s.out", test_build_dir(), an);
    snprintf(err, sizeof err, "%s/tests/isa/asm_rt_%s.err", test_build_dir(), an);
    FILE *fs = fopen(src, "w");
    if (!fs)
        return 1;
    for (size_t i = 0; i < n; i++)
        fprintf(fs, "%s\n", t[i].text);
    fclose(fs);
    char cmd[2048];
    snprintf(cmd, sizeof cmd, "llvm-mc-22 -arch=amdgcn -mcpu=%s -show-encoding %s >%s 2>%s", an,
             src, out, err);
    if (system(cmd) == -1)
        return 1;
    /* lines with errors produce no encoding; the rest come out in order */
    char *bad = calloc(n + 2, 1);
    char **why = calloc(n + 2, sizeof *why); /* llvm-mc's message for a rejected text */
    FILE *fe = fopen(err, "r");
    char line[4096];
    while (fe && fgets(line, sizeof line, fe)) {
        char *p = strstr(line, ".s:"), *m = strstr(line, ": error:");
        long ln;
        if (p && m && sscanf(p + 3, "%ld", &ln) == 1 && ln >= 1 && (size_t)ln <= n) {
            bad[ln - 1] = 1;
            if (!why[ln - 1])
                why[ln - 1] = strdup(m + 9);
        }
    }
    if (fe)
        fclose(fe);
    FILE *fo = fopen(out, "r");
    size_t next = 0;
    while (fo && fgets(line, sizeof line, fo)) {
        char *p = strstr(line, "; encoding: [");
        if (!p)
            continue;
        while (next < n && bad[next])
            next++;
        if (next >= n)
            break;
        p += 13;
        int k = 0;
        unsigned v;
        while (k < 16 && sscanf(p, "0x%x", &v) == 1) {
            t[next].mc[k++] = (uint8_t)v;
            p = strchr(p, ',');
            if (!p)
                break;
            p++;
        }
        t[next].mcn = k;
        next++;
    }
    if (fo)
        fclose(fo);
    isa_asm *a = isa_asm_new(arch);
    CHECK(a != NULL, "isa_asm_new(%s)", an);
    if (!a)
        return 1;
    size_t accepted = 0, same = 0, differ = 0, failed = 0, extra = 0, same_op = 0, acc_op = 0;
    int shown = 0, shown_extra = 0;
    for (size_t i = 0; i < n; i++) {
        uint8_t b[16];
        isa_asm_error e;
        size_t sz = isa_asm_inst(a, t[i].text, b, &e);
        if (!t[i].mcn) {
            extra += sz != 0;
            if (sz && shown_extra++ < show_extra)
                printf("  EXTRA %s: %s\n    llvm-mc: %s", an, t[i].text,
                       why[i] ? why[i] : "(no message)\n");
            continue;
        }
        accepted++;
        acc_op += i < nop;
        if (sz == (size_t)t[i].mcn && !memcmp(b, t[i].mc, sz)) {
            same++;
            same_op += i < nop;
            continue;
        }
        if (sz)
            differ++;
        else
            failed++;
        if (shown++ < show) {
            printf("  %s %s: %s\n    llvm-mc:", sz ? "DIFFER" : "FAILED", an, t[i].text);
            for (int k = 0; k < t[i].mcn; k++)
                printf(" %02x", t[i].mc[k]);
            if (sz) {
                printf("\n    gfxemu: ");
                for (size_t k = 0; k < sz; k++)
                    printf(" %02x", b[k]);
                printf("\n");
            } else {
                printf("\n    gfxemu:  error at column %d: %s\n", e.col + 1, e.msg);
            }
        }
    }
    printf("%s: %zu texts (%zu from the opcode walk), llvm-mc accepted %zu: %zu same bytes "
           "(%zu/%zu of the opcode walk), %zu different, %zu not assembled; gfxemu also "
           "assembled %zu texts llvm-mc rejects\n",
           an, n, nop, accepted, same, same_op, acc_op, differ, failed, extra);
    CHECK(accepted > n / 2, "%s: llvm-mc accepted only %zu of %zu texts", an, accepted, n);
    CHECK(differ == 0, "%s: %zu texts assembled to other bytes than llvm-mc's", an, differ);
    /* Known gaps (listed above when SHOW > 0): rare random forms such as gfx942's
     * v_fmac_f64_dpp (about 1 in 14000 texts).  The bound (0.1%) keeps them from growing: at 1%
     * it hid every gfx90a global/scratch load with an SGPR address (0.2% of the texts).  Wrong
     * bytes (above) are never tolerated, and every text of the opcode walk must assemble. */
    CHECK(failed * 1000 <= accepted,
          "%s: %zu of %zu texts llvm-mc accepts were not assembled (over 0.1%%)", an, failed,
          accepted);
    CHECK(same_op == acc_op, "%s: only %zu of %zu opcode-walk texts assembled", an, same_op,
          acc_op);
    /* Texts llvm-mc rejects that gfxemu assembles (rule_violation() in src/isa/asm.c refuses
     * misaligned tuples, constant bus overuse, the registers GFX9 lacks, oversized 16-bit
     * literals and offsets, VOP3 literals, ...; left, about 1 in 10000 texts: v_cndmask_b32_e64
     * with a VGPR pair as its mask, SDWA literals): bounded at
     * 0.2% (SHOW_EXTRA=N lists them with llvm-mc's message). */
    /* RDNA (gfx1100/gfx1201): rule_violation_rdna() has the operand and VOPD bank rules found
     * so far; left (about 2-4%% of the random texts): the constant bus limits of gfx10+ VOP3,
     * VOPD src2 banks and fmamk halves, TFE on stores, gfx12 th/scope combinations.  Bounded
     * at 5%% so that they cannot grow unseen (SHOW_EXTRA=N lists them). */
    CHECK(isa_is_rdna(arch) ? extra * 20 <= n : extra * 500 <= n,
          "%s: gfxemu assembled %zu of %zu texts that llvm-mc rejects (over %s)", an, extra, n,
          isa_is_rdna(arch) ? "5%" : "0.2%");
    isa_asm_free(a);
    for (size_t i = 0; i < n; i++)
        free(why[i]);
    free(why);
    free(bad);
    free(t);
    return 0;
}

int main(void) {
    const char *e;
    uint64_t seed = (e = getenv("SEED")) ? strtoull(e, NULL, 0) : 1;
    size_t nrand = (e = getenv("N")) ? strtoull(e, NULL, 0) : 20000;
    int show = (e = getenv("SHOW")) ? atoi(e) : 20;
    int show_extra = (e = getenv("SHOW_EXTRA")) ? atoi(e) : 0;
    const char *only = getenv("ARCH");
    test_sh("mkdir -p %s/tests/isa", test_build_dir());
    printf("asm round trip: SEED=%" PRIu64 " N=%zu\n", seed, nrand);
    for (int a = ISA_GFX942; a < ISA_NARCH; a++) {
        if (only && *only && strcmp(only, isa_arch_name((isa_arch)a)))
            continue;
        rdna = isa_is_rdna(a);
        fams = !rdna ? cdna_fams : isa_targets[a].rdna >= 12 ? gfx12_fams : gfx11_fams;
        NFAM = !rdna                       ? sizeof cdna_fams / sizeof *cdna_fams
               : isa_targets[a].rdna >= 12 ? sizeof gfx12_fams / sizeof *gfx12_fams
                                           : sizeof gfx11_fams / sizeof *gfx11_fams;
        rng = seed * 2654435761u + 0x9e3779b97f4a7c15ull + (uint64_t)a;
        run_arch((isa_arch)a, nrand, show, show_extra);
    }
    return check_summary("asm_roundtrip");
}
