/* opcov_report.c - the opcode coverage audit (docs/testing.md), built by scripts/opcov.sh
 * against a -DGFXEMU_OPCOV library.
 *
 *   opcov_report [--allow FILE] [--list] DIR
 *   opcov_report --implemented     print the implemented (target, format, variant, op) only
 *
 * "Implemented" is found without running anything: for every opcode field value of every format
 * of every target, encodings are built into a program as a kernel's code is (xprog_build) --
 * on gfx950, gfx942 and gfx90a a few (register, scalar and mixed operands; SDWA and DPP second
 * dwords for VOP1/VOP2/VOPC), on gfx1100 and gfx1201 many seeded pseudo-random operand fillings
 * per opcode (enumerate_rdna) -- and each (target, format, variant, op) whose instruction got a
 * handler (x_runs: decoded, and not refused as unimplemented) is implemented.  "Executed" is the
 * union of the
 * $DIR/opcov.* files the instrumented wave loops wrote (lines "target format variant op").
 *
 * Prints, per target and format/variant, implemented / executed / never executed, and with
 * --list the never-executed op names.  With --allow, exits 1 if an implemented op is executed
 * by no test in any encoding on a target, unless the allow-list names it ("target op  reason",
 * target may be '*'), and also if an allow-list line names an op that is executed or not
 * implemented (a stale line hides nothing, but is removed). */
#include "exec/exec.h"
#include "exec/opcov.h"
#include "isa/isa.h"

#include <dirent.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define NVAR 5
static const char *const var_names[NVAR] = {"-", "e32", "e64", "sdwa", "dpp"};

/* [arch][fmt][variant][op] */
static unsigned char impl[ISA_NARCH][ISA_NFMT][NVAR][ISA_NOPS];
static unsigned char ran[ISA_NARCH][ISA_NFMT][NVAR][ISA_NOPS];
static unsigned char allow[ISA_NARCH][ISA_NOPS];
static unsigned char allow_seen[ISA_NARCH][ISA_NOPS];

/* The engine's own test of "implemented": build the words as a one-instruction program the way
 * a kernel's code is built (xprog_build: decoder, RDNA allowlist, operand rules) and ask whether
 * the instruction got a handler (x_runs).  RDNA programs are built in wave32 and in wave64; an
 * op counts if either runs it.  A VOPD instruction counts for both of its ops.  Returns whether
 * the words decoded as `want` (any format when want is ISA_FMT_INVALID). */
static int try_words(isa_arch a, isa_fmt want, const uint32_t *w, unsigned nw) {
    uint32_t buf[4] = {0};
    memcpy(buf, w, nw * 4);
    isa_inst in;
    size_t n = isa_decode(a, (const uint8_t *)buf, sizeof buf, &in);
    if (n == 0 || in.op == ISA_OP_ILLEGAL || (want && in.fmt != want) || in.variant >= NVAR)
        return 0;
    int vopd = in.fmt == ISA_FMT_VOPD;
    if (impl[a][in.fmt][in.variant][in.op] && (!vopd || impl[a][in.fmt][in.variant][in.flags]))
        return 1;
    for (int w32 = 0; w32 <= !!isa_is_rdna(a); w32++) {
        xprog p;
        if (xprog_build_waves(&p, a, (const uint8_t *)buf, sizeof buf, 0, w32 ? 32 : 64))
            continue;
        if (p.ninsts && x_runs(&p.insts[0])) {
            const isa_inst *x = &p.insts[0].in;
            impl[a][x->fmt][x->variant][x->op] = 1;
            if (vopd)
                impl[a][x->fmt][x->variant][x->flags] = 1;
        }
        xprog_free(&p);
    }
    return 1;
}
#define TRY(f, ...)                                                                                \
    do {                                                                                           \
        uint32_t w_[] = {__VA_ARGS__};                                                             \
        try_words(a, f, w_, sizeof w_ / 4);                                                        \
    } while (0)

/* Source triples (9-bit fields): VGPRs, SGPRs, mixed; even registers keep 64-bit tuples aligned. */
static const unsigned srcs[][3] = {
    {0x102, 0x104, 0x108}, {2, 4, 8}, {0x102, 4, 0x108}, {4, 0x102, 0x108}, {0x102, 0x104, 4},
};
static const uint32_t sdwa_w1[] = {0x06060602, 0x06060002, 0x86060602, 0x0606ea02,
                                   0x00060602, 0x00061602, 0x00061604, 0x00050602};
/* Memory second dwords: which of addr/data/data1/vdst (and FLAT saddr) are present varies. */
static const uint32_t ds_w1[] = {0x08060402, 0x08000002, 0x00000402, 0x00060402, 0x08000000,
                                 0,          0x08000402, 0x00000002, 0x08060002};
static const uint32_t flat_w1[] = {0x08000002, 0x00000402, 0x08000402, 0x087f0002, 0x007f0402,
                                   0x087f0402, 0x08020402, 0x00020402, 0x08020002, 0x00000002};
static const uint32_t dpp_w1[] = {0xff00e402, 0xff015102, 0xff010102, 0xff013002};

static void enumerate(isa_arch a) {
    for (unsigned op = 0; op < 128; op++) {
        TRY(ISA_FMT_SOP2, 0x80000000u | op << 23 | 2 << 16 | 4 << 8 | 6);
        TRY(ISA_FMT_SOPC, 0xbf000000u | op << 16 | 4 << 8 | 6);
        TRY(ISA_FMT_SOPP, 0xbf800000u | op << 16);
        TRY(ISA_FMT_SOPP, 0xbf800000u | op << 16 | 1);
        TRY(ISA_FMT_MUBUF, 0xe0000000u | op << 18, 0x00010402u);
        TRY(ISA_FMT_MUBUF, 0xe0001000u | op << 18, 0x00010402u);
        TRY(ISA_FMT_MUBUF, 0xe0000000u | op << 18, 0x80010402u);
        for (unsigned seg = 0; seg < 3; seg++)
            for (size_t k = 0; k < sizeof flat_w1 / 4; k++) {
                TRY(ISA_FMT_FLAT, 0xdc000000u | op << 18 | seg << 14, flat_w1[k]);
                TRY(ISA_FMT_FLAT, 0xdc002000u | op << 18 | seg << 14, flat_w1[k]);
            }
    }
    for (unsigned op = 0; op < 32; op++)
        TRY(ISA_FMT_SOPK, 0xb0000000u | op << 23 | 2 << 16 | 0x10);
    for (unsigned op = 0; op < 16; op++)
        TRY(ISA_FMT_MTBUF, 0xe8000000u | op << 15 | 4 << 19 | 7 << 23, 0x00010402u);
    for (unsigned op = 0; op < 256; op++) {
        TRY(ISA_FMT_SOP1, 0xbe800000u | 2 << 16 | op << 8 | 4);
        TRY(ISA_FMT_SMEM, 0xc0020000u | op << 18 | 2 << 6 | 2, 0);
        TRY(ISA_FMT_SMEM, 0xc0000000u | op << 18 | 2 << 6 | 2, 0x0a000000u);
        for (size_t k = 0; k < sizeof ds_w1 / 4; k++)
            TRY(ISA_FMT_DS, 0xd8000000u | op << 17, ds_w1[k]);
        TRY(ISA_FMT_VOP1, 0x7e000000u | op << 9); /* v_nop, v_clrexcp: no operands */
        for (size_t k = 0; k < sizeof srcs / sizeof srcs[0]; k++) {
            unsigned s0 = srcs[k][0], v1 = srcs[k][1] & 0xff;
            if (op < 0x3f)
                TRY(ISA_FMT_VOP2, op << 25 | 2 << 17 | v1 << 9 | s0);
            TRY(ISA_FMT_VOP1, 0x7e000000u | 2 << 17 | op << 9 | s0);
            TRY(ISA_FMT_VOPC, 0x7c000000u | op << 17 | v1 << 9 | s0);
        }
        for (size_t k = 0; k < sizeof sdwa_w1 / 4; k++) {
            if (op < 0x3f)
                TRY(ISA_FMT_VOP2, op << 25 | 2 << 17 | 4 << 9 | 0xf9, sdwa_w1[k]);
            TRY(ISA_FMT_VOP1, 0x7e000000u | 2 << 17 | op << 9 | 0xf9, sdwa_w1[k]);
            TRY(ISA_FMT_VOPC, 0x7c000000u | op << 17 | 4 << 9 | 0xf9, sdwa_w1[k]);
        }
        for (size_t k = 0; k < sizeof dpp_w1 / 4; k++) {
            if (op < 0x3f)
                TRY(ISA_FMT_VOP2, op << 25 | 2 << 17 | 4 << 9 | 0xfa, dpp_w1[k]);
            TRY(ISA_FMT_VOP1, 0x7e000000u | 2 << 17 | op << 9 | 0xfa, dpp_w1[k]);
            TRY(ISA_FMT_VOPC, 0x7c000000u | op << 17 | 4 << 9 | 0xfa, dpp_w1[k]);
        }
    }
    for (unsigned op = 0; op < 1024; op++)
        for (size_t k = 0; k < sizeof srcs / sizeof srcs[0]; k++) {
            uint32_t w1 = srcs[k][0] | srcs[k][1] << 9 | srcs[k][2] << 18;
            isa_fmt f = op >= 0x380 ? ISA_FMT_VOP3P : ISA_FMT_VOP3;
            TRY(f, 0xd0000000u | op << 16 | 2, w1);
            TRY(f, 0xd0000000u | op << 16 | 2, w1 | 0x18000000u); /* VOP3P op_sel_hi */
            TRY(f, 0xd0000000u | op << 16 | 0x6a00 | 2, w1);      /* VOP3B sdst vcc */
        }
}

/* RDNA3/RDNA4 ("Microcode formats" of their ISA manuals; field positions as in src/isa/
 * mem_rdna.c's and the other RDNA decoders' comments): each format's fixed prefix, its opcode
 * field (for VOPD both halves' opcodes, bits 25:17; for gfx11 FLAT the opcode and the segment,
 * bits 24:16) and a few operand templates -- all VGPR sources (a 9-bit source field 0x100 is
 * v0), scalar sources, a VCC carry-out, a v_cmpx_*_e64's EXEC_LO destination, op_sel_hi set, a
 * FLAT/VBUFFER/SMEM scalar operand off (NULL, 124) or an SGPR pair.  Every opcode value is tried
 * NRAND times: each template bare and with ever more of its bytes replaced by pseudo-random ones (a
 * fixed seed per target, format and opcode, so the result is the same every run), and for the VALU
 * formats with the DPP16/DPP8/literal source codes in src0.  Which operands an op accepts (register
 * classes and alignment, true16 halves, DPP controls, fields that must be 0) varies by op and the
 * decoder rejects what LLVM rejects: the templates give the plain legal forms, the noise the
 * others. A format of the other generation decodes as illegal (or as another format) and adds
 * nothing wrong: whatever decodes is recorded under the format it decodes as. */
#define NTMPL 5
static const struct {
    uint32_t mask, value;
    unsigned op_lo, op_w, gen; /* gen: 0 both targets, 11 or 12 one only */
    int vop;                 /* src0 in w0 bits 8:0 (1: VOP1/VOP2/VOPC) or in w1 (2: VOP3/VOP3P) */
    uint32_t tmpl[NTMPL][4]; /* operand templates (w0's prefix and opcode bits are set over them) */
} rdna_fmts[] = {
    {0xc0000000, 0x80000000, 23, 7, 0, 0, {{0}, {0x00020402}}},                      /* SOP2 */
    {0xf0000000, 0xb0000000, 23, 5, 0, 0, {{0}, {0x00020010}}},                      /* SOPK */
    {0xff800000, 0xbe800000, 8, 8, 0, 0, {{0}, {0x00020004}}},                       /* SOP1 */
    {0xff800000, 0xbf000000, 16, 7, 0, 0, {{0}, {0x00000402}}},                      /* SOPC */
    {0xff800000, 0xbf800000, 16, 7, 0, 0, {{0}, {1}}},                               /* SOPP */
    {0xfc000000, 0xf4000000, 18, 8, 11, 0, {{0x80, 0xf8000000}, {0x80, 0}, {2, 0}}}, /* SMEM */
    {0xfc000000, 0xf4000000, 13, 6, 12, 0, {{0x80, 0xf8000000}, {0x80, 0}, {2, 0}}}, /* SMEM */
    {0x80000000, 0x00000000, 25, 6, 0, 1, {{0x100}, {0x080}, {0x002}}},              /* VOP2 */
    {0xfe000000, 0x7e000000, 9, 8, 0, 1, {{0x100}, {0x080}, {0x002}}},               /* VOP1 */
    {0xfe000000, 0x7c000000, 17, 8, 0, 1, {{0x100}, {0x080}, {0x002}}},              /* VOPC */
    /* VOP3 (incl. the VOP3 SDST forms), VOP3P (incl. WMMA/SWMMAC) */
    /* clang-format off */
    {0xfc000000, 0xd4000000, 16, 10, 0, 2,
     {{0, 0x04020100}, {0, 0x04020002}, {0x6a00, 0x04020100}, {0x7c00, 0x04020100},
      {0x7e, 0x04020100}}},
    {0xff000000, 0xcc000000, 16, 7, 0, 2,
     {{0x4000, 0x1c020100}, {0, 0x04020100}, {0x4000, 0x1c040108}, {0, 0x04020002}}},
    /* clang-format on */
    {0xff800000, 0xd3800000, 16, 7, 0, 2, {{0x4000, 0x1c020100}, {0, 0x04020100}}}, /* v_fma_mix* */
    {0xfc000000, 0xc8000000, 17, 9, 0, 0, {{0x100, 0x100}, {0x102, 0x01000103}}},   /* VOPD */
    {0xff000000, 0xcd000000, 16, 7, 0, 0, {{0, 0x04020100}}},                       /* VINTERP */
    {0xff000000, 0xce000000, 20, 2, 0, 0, {{0}}},                                   /* LDSDIR */
    {0xfc000000, 0xd8000000, 18, 8, 0, 0, {{0}, {0, 0x02000400}}},                  /* DS */
    {0xfc000000, 0xdc000000, 16, 9, 11, 0, {{0, 0x007c0000}, {0, 0x00020000}, {0}}},     /* FLAT */
    {0xfc000000, 0xec000000, 14, 8, 12, 0, {{0x7c}, {0x02}, {0x7c, 0x00100000}}},        /* VFLAT */
    {0xfc000000, 0xe0000000, 18, 8, 11, 0, {{0, 0x80000000}, {0}, {0, 0x80400000}}},     /* MUBUF */
    {0xfc000000, 0xe8000000, 15, 4, 11, 0, {{0x01000000, 0x80000000}, {0x00800000, 0}}}, /* MTBUF */
    {0xfc000000, 0xc4000000, 14, 8, 12, 0, {{0x7c}, {0}, {0x7c, 0x40000000}}}, /* VBUFFER */
    {0xfc000000, 0xf0000000, 18, 8, 11, 0, {{0x100}}},                         /* MIMG */
    {0xfc000000, 0xd0000000, 14, 8, 12, 0, {{0}}},                             /* VIMAGE */
    {0xfc000000, 0xe4000000, 14, 8, 12, 0, {{0}}},                             /* VSAMPLE */
    {0xfc000000, 0xf8000000, 0, 0, 0, 0, {{0}}},                               /* EXP */
};
#define NRAND 1024

static uint64_t rng_next(uint64_t *s) { /* splitmix64 */
    uint64_t z = (*s += 0x9e3779b97f4a7c15ull);
    z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
    z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
    return z ^ (z >> 31);
}

static void enumerate_rdna(isa_arch a) {
    unsigned gen = isa_targets[a].rdna;
    static const uint32_t src0s[] = {0xfa, 0xe9, 0xea, 0xff}; /* DPP16, DPP8, DPP8 fi, literal */
    for (size_t k = 0; k < sizeof rdna_fmts / sizeof rdna_fmts[0]; k++) {
        if (rdna_fmts[k].gen && rdna_fmts[k].gen != gen)
            continue;
        unsigned ntmpl = 1; /* the templates given (an all-zero one only comes first) */
        while (ntmpl < NTMPL && (rdna_fmts[k].tmpl[ntmpl][0] | rdna_fmts[k].tmpl[ntmpl][1]))
            ntmpl++;
        uint32_t opmask =
            rdna_fmts[k].op_w ? ((1u << rdna_fmts[k].op_w) - 1) << rdna_fmts[k].op_lo : 0;
        for (uint32_t op = 0; op < 1u << rdna_fmts[k].op_w; op++) {
            uint64_t seed = (uint64_t)a << 48 ^ (uint64_t)k << 32 ^ op;
            for (unsigned t = 0; t < NRAND; t++) {
                /* noise: each byte replaced with probability 0, 1/16, 1/8, 1/4, 1/2 or 1 */
                unsigned level = (t / ntmpl) % 6, dpp = rdna_fmts[k].vop && (t / ntmpl) % 4 == 3;
                uint32_t w[4];
                memcpy(w, rdna_fmts[k].tmpl[t % ntmpl], sizeof w);
                for (int i = 0; i < 4 && level; i++) {
                    uint64_t r = rng_next(&seed);
                    for (int b = 0; b < 4; b++) {
                        unsigned pick = (unsigned)(r >> (32 + 8 * b)) & 0xff;
                        if (level == 5 || pick < (8u << level))
                            w[i] = (w[i] & ~(0xffu << 8 * b)) | ((uint32_t)r & 0xffu << 8 * b);
                    }
                }
                w[0] = (w[0] & ~rdna_fmts[k].mask & ~opmask) | rdna_fmts[k].value |
                       op << rdna_fmts[k].op_lo;
                if (dpp) {
                    int i = rdna_fmts[k].vop - 1;
                    w[i] = (w[i] & ~0x1ffu) | src0s[(t / ntmpl / 4) % 4];
                }
                try_words(a, ISA_FMT_INVALID, w, 4);
            }
        }
    }
}

/* Whether the engine has a handler for op on a's family (CDNA: the family tables; RDNA: the
 * allowlist of rdna.c, wave32 or wave64). */
static int has_handler(isa_arch a, unsigned op) {
    uint8_t cls;
    int cdna = x_has_semantics(op); /* also builds the tables */
    if (!isa_is_rdna(a))
        return cdna;
    return x_rdna_handler(op, 0, &cls) || x_rdna_handler(op, 1, &cls);
}

static int op_by_name(const char *s) {
    for (unsigned i = 1; i < ISA_NOPS; i++)
        if (!strcmp(isa_op_names[i], s))
            return (int)i;
    return -1;
}
static int arch_by_name(const char *s) {
    for (int a = 0; a < ISA_NARCH; a++)
        if (!strcmp(s, isa_targets[a].name))
            return a;
    return -1;
}

static void read_dir(const char *dir, unsigned *nfiles) {
    DIR *d = opendir(dir);
    if (!d) {
        fprintf(stderr, "opcov_report: cannot open %s\n", dir);
        exit(2);
    }
    struct dirent *e;
    char path[4096], line[256], an[32], fn[32], vn[32], on[128];
    while ((e = readdir(d))) {
        if (strncmp(e->d_name, "opcov.", 6))
            continue;
        snprintf(path, sizeof path, "%s/%s", dir, e->d_name);
        FILE *f = fopen(path, "r");
        if (!f)
            continue;
        ++*nfiles;
        while (fgets(line, sizeof line, f)) {
            if (sscanf(line, "%31s %31s %31s %127s", an, fn, vn, on) != 4)
                continue;
            int a = arch_by_name(an), op = op_by_name(on), m = -1, v = -1;
            for (int i = 0; i < ISA_NFMT; i++)
                if (!strcmp(isa_fmt_name((isa_fmt)i), fn))
                    m = i;
            for (int i = 0; i < NVAR; i++)
                if (!strcmp(var_names[i], vn))
                    v = i;
            if (!strcmp(on, "<illegal>"))
                continue;
            if (a < 0 || op < 0 || m < 0 || v < 0) {
                fprintf(stderr, "opcov_report: %s: bad line: %s", path, line);
                exit(2);
            }
            ran[a][m][v][op] = 1;
        }
        fclose(f);
    }
    closedir(d);
}

/* Allow-list lines: "target op  reason" ('#' comments, blank lines); every line needs a reason. */
static int read_allow(const char *path) {
    FILE *f = fopen(path, "r");
    if (!f) {
        fprintf(stderr, "opcov_report: cannot open %s\n", path);
        exit(2);
    }
    char line[512], an[32], on[128];
    int bad = 0, n = 0;
    while (fgets(line, sizeof line, f)) {
        n++;
        char *p = line + strspn(line, " \t");
        if (*p == '#' || *p == '\n' || !*p)
            continue;
        int used = 0;
        if (sscanf(p, "%31s %127s %n", an, on, &used) != 2 || !p[used] || p[used] == '\n') {
            fprintf(stderr, "%s:%d: want \"target op reason\"\n", path, n);
            bad = 1;
            continue;
        }
        int op = op_by_name(on), a = arch_by_name(an);
        if (op < 0 || (a < 0 && strcmp(an, "*"))) {
            fprintf(stderr, "%s:%d: unknown target or op: %s %s\n", path, n, an, on);
            bad = 1;
            continue;
        }
        for (int i = 0; i < ISA_NARCH; i++)
            if (a < 0 || a == i)
                allow[i][op] = 1;
    }
    fclose(f);
    return bad;
}

int main(int argc, char **argv) {
    const char *allow_path = NULL, *dir = NULL;
    int list = 0, dump = 0;
    for (int i = 1; i < argc; i++) {
        if (!strcmp(argv[i], "--allow") && i + 1 < argc)
            allow_path = argv[++i];
        else if (!strcmp(argv[i], "--list"))
            list = 1;
        else if (!strcmp(argv[i], "--implemented"))
            dump = 1;
        else
            dir = argv[i];
    }
    if (!dir && !dump) {
        fprintf(stderr, "usage: opcov_report [--allow FILE] [--list] DIR | --implemented\n");
        return 2;
    }
    if (dump) { /* the implemented side alone: lines "target format variant op" */
        for (int a = 0; a < ISA_NARCH; a++) {
            if (isa_is_rdna((isa_arch)a))
                enumerate_rdna((isa_arch)a);
            else
                enumerate((isa_arch)a);
            for (int m = 1; m < ISA_NFMT; m++)
                for (int v = 0; v < NVAR; v++)
                    for (unsigned op = 1; op < ISA_NOPS; op++)
                        if (impl[a][m][v][op])
                            printf("%s %s %s %s\n", isa_arch_name((isa_arch)a),
                                   isa_fmt_name((isa_fmt)m), var_names[v], isa_op_names[op]);
        }
        return 0;
    }
    unsigned nfiles = 0;
    read_dir(dir, &nfiles);
    if (nfiles == 0) {
        fprintf(stderr,
                "opcov_report: no opcov.* files in %s: was the suite run with a "
                "-DGFXEMU_OPCOV build and GFXEMU_OPCOV_DIR set?\n",
                dir);
        return 2;
    }
    int bad = allow_path ? read_allow(allow_path) : 0;
    const isa_arch order[] = {ISA_GFX950, ISA_GFX942, ISA_GFX90A, ISA_GFX1100, ISA_GFX1201};
    _Static_assert(sizeof order / sizeof order[0] == ISA_NARCH, "a target missing from the report");
    printf("opcode coverage from %u processes (implemented / executed / never executed)\n", nfiles);
    for (int ai = 0; ai < ISA_NARCH; ai++) {
        isa_arch a = order[ai];
        if (isa_is_rdna(a))
            enumerate_rdna(a);
        else
            enumerate(a);
        printf("%s:\n", isa_arch_name(a));
        unsigned ti = 0, te = 0;
        for (int m = 1; m < ISA_NFMT; m++)
            for (int v = 0; v < NVAR; v++) {
                unsigned ni = 0, ne = 0;
                char names[16384];
                size_t nl = 0;
                names[0] = 0;
                for (unsigned op = 1; op < ISA_NOPS; op++) {
                    if (!impl[a][m][v][op])
                        continue;
                    ni++;
                    if (ran[a][m][v][op])
                        ne++;
                    else if (nl + 64 < sizeof names)
                        nl += (size_t)snprintf(names + nl, sizeof names - nl, " %s",
                                               isa_op_names[op]);
                }
                if (!ni)
                    continue;
                ti += ni;
                te += ne;
                printf("  %-6s %-5s %4u / %4u / %4u\n", isa_fmt_name((isa_fmt)m), var_names[v], ni,
                       ne, ni - ne);
                if (list && ni != ne)
                    printf("      never:%s\n", names);
            }
        printf("  %-12s %4u / %4u / %4u   (format, variant, op) triples\n", "total", ti, te,
               ti - te);
        /* The audit: an implemented op must run in some encoding on every target it has. */
        unsigned nop = 0, nrun = 0, nallow = 0;
        for (unsigned op = 1; op < ISA_NOPS; op++) {
            int is_impl = 0, is_run = 0;
            for (int m = 0; m < ISA_NFMT; m++)
                for (int v = 0; v < NVAR; v++) {
                    is_impl |= impl[a][m][v][op];
                    is_run |= ran[a][m][v][op];
                }
            if (!is_impl)
                continue;
            nop++;
            nrun += is_run;
            if (allow[a][op]) {
                allow_seen[a][op] = 1;
                if (is_run) {
                    printf("  allow-listed but executed (remove the line): %s %s\n",
                           isa_arch_name(a), isa_op_names[op]);
                    bad = 1;
                } else
                    nallow++;
            } else if (!is_run) {
                printf("  NOT EXECUTED by any test: %s %s\n", isa_arch_name(a), isa_op_names[op]);
                bad |= allow_path != NULL;
            }
        }
        for (unsigned op = 1; op < ISA_NOPS; op++)
            if (has_handler(a, op) && allow[a][op] && !allow_seen[a][op]) {
                int any = 0;
                for (int m = 0; m < ISA_NFMT; m++)
                    for (int v = 0; v < NVAR; v++)
                        any |= impl[a][m][v][op];
                if (!any) {
                    printf("  allow-listed but not an implemented op on %s: %s\n", isa_arch_name(a),
                           isa_op_names[op]);
                    bad = 1;
                }
            }
        printf("  ops: %u implemented, %u executed, %u never executed (%u allow-listed)\n", nop,
               nrun, nop - nrun, nallow);
    }
    /* Handlers no enumerated encoding reached: the enumeration above would be missing them.
     * CDNA and RDNA have separate handler tables (rdna.c's allowlist), each checked against
     * its own targets. */
    for (int rdna = 0; rdna <= 1; rdna++)
        for (unsigned op = 1; op < ISA_NOPS; op++) {
            isa_arch fam = rdna ? ISA_GFX1100 : ISA_GFX950;
            if (!has_handler(fam, op))
                continue;
            int any = 0;
            for (int a = 0; a < ISA_NARCH; a++)
                for (int m = 0; m < ISA_NFMT; m++)
                    for (int v = 0; v < NVAR; v++)
                        any |= !!isa_is_rdna((isa_arch)a) == rdna && impl[a][m][v][op];
            if (!any && !rdna)
                printf("note: %s has a handler but no enumerated encoding on CDNA\n",
                       isa_op_names[op]);
            /* RDNA: a row of rdna.c's allowlist that no encoding reaches is an op the README
             * would wrongly count as running (a name LLVM 22 does not decode on gfx1100 or
             * gfx1201), or an encoding enumerate_rdna() misses: either way, fix it */
            if (!any && rdna) {
                printf("  RDNA allowlist row reached by no enumerated encoding: %s\n",
                       isa_op_names[op]);
                bad |= allow_path != NULL;
            }
        }
    if (allow_path)
        printf("%s\n", bad ? "opcov: FAIL" : "opcov: ok");
    return bad;
}
