/* test_sweep.c - seeded random sweep: gfxemu's decoder+printer against LLVM 22, word by word.
 *
 * For each target, N test cases (default 1,000,000): a quarter fully random words, the rest with
 * the fixed prefix bits of a randomly chosen encoding family (and, for VOP1/VOP2/VOPC, often the
 * SDWA/DPP/literal src0 values), followed by three random dwords for literals and 64/128-bit
 * encodings.  A case matches when LLVM and gfxemu agree on legality, size and text.
 *
 * Environment: SEED (default 1; "random": the time, a fresh sample on every run), N, ARCH
 * (gfx950|gfx942|gfx90a|gfx1100|gfx1201), FMT (e.g. VOP3: only cases whose first word identifies
 * as that family), SHOW (mismatches printed per family, default 8). Words on which LLVM itself
 * crashes are counted and listed, not compared.
 *
 * `make check` runs the fixed seed: the same five million words every time, whose LLVM answers
 * come from the oracle cache after the first run (tests/common/llvm_oracle.c; asking LLVM took a
 * minute of CPU per run), while gfxemu decodes and prints every word afresh.  `make sweep`
 * (SEED=random), which CI runs after `make check`, draws a new million per target each time;
 * an explicit SEED neither reads nor writes the cache. */
#include "common/rng.h"
#include "common/llvm_oracle.h"
#include "isa/isa.h"

#include <assert.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

static uint64_t rng;
static uint32_t rnd(void) { return (uint32_t)(xorshift64(&rng) >> 11); }

static const struct {
    uint32_t mask, value;
} prefixes[] = {
    {0xc0000000, 0x80000000}, /* SOP2 */
    {0xf0000000, 0xb0000000}, /* SOPK */
    {0xff800000, 0xbe800000}, /* SOP1 */
    {0xff800000, 0xbf000000}, /* SOPC */
    {0xff800000, 0xbf800000}, /* SOPP */
    {0xfc000000, 0xc0000000}, /* SMEM */
    {0x80000000, 0x00000000}, /* VOP2 */
    {0xfe000000, 0x7e000000}, /* VOP1 */
    {0xfe000000, 0x7c000000}, /* VOPC */
    {0xfc000000, 0xd0000000}, /* VOP3 */
    {0xff800000, 0xd3800000}, /* VOP3P */
    {0xfc000000, 0xd8000000}, /* DS */
    {0xfc000000, 0xdc000000}, /* FLAT */
    {0xfc000000, 0xe0000000}, /* MUBUF */
    {0xfc000000, 0xe8000000}, /* MTBUF */
    {0xfc000000, 0xf0000000}, /* MIMG (gfx90a; illegal on gfx940+) */
};
#define NPREFIX (sizeof prefixes / sizeof prefixes[0])

/* RDNA3/RDNA4 ("Microcode formats" of their ISA manuals); gfx11 and gfx12 memory prefixes both
 * appear: each target rejects or re-reads the other's. */
static const struct {
    uint32_t mask, value;
} prefixes_rdna[] = {
    {0xc0000000, 0x80000000}, /* SOP2 */
    {0xf0000000, 0xb0000000}, /* SOPK */
    {0xff800000, 0xbe800000}, /* SOP1 */
    {0xff800000, 0xbf000000}, /* SOPC */
    {0xff800000, 0xbf800000}, /* SOPP */
    {0xfc000000, 0xf4000000}, /* SMEM */
    {0x80000000, 0x00000000}, /* VOP2 */
    {0xfe000000, 0x7e000000}, /* VOP1 */
    {0xfe000000, 0x7c000000}, /* VOPC */
    {0xfc000000, 0xd4000000}, /* VOP3 */
    {0xff000000, 0xcc000000}, /* VOP3P */
    {0xfc000000, 0xc8000000}, /* VOPD */
    {0xff000000, 0xcd000000}, /* VINTERP */
    {0xff000000, 0xce000000}, /* LDSDIR */
    {0xfc000000, 0xd8000000}, /* DS */
    {0xfc000000, 0xdc000000}, /* FLAT (gfx11) */
    {0xfc000000, 0xec000000}, /* VFLAT/VGLOBAL/VSCRATCH (gfx12) */
    {0xfc000000, 0xe0000000}, /* MUBUF (gfx11) */
    {0xfc000000, 0xe8000000}, /* MTBUF (gfx11) */
    {0xfc000000, 0xc4000000}, /* VBUFFER (gfx12) */
    {0xfc000000, 0xf0000000}, /* MIMG (gfx11) */
    {0xfc000000, 0xd0000000}, /* VIMAGE (gfx12) */
    {0xfc000000, 0xe4000000}, /* VSAMPLE (gfx12) */
    {0xfc000000, 0xf8000000}, /* EXP */
};
#define NPREFIX_RDNA (sizeof prefixes_rdna / sizeof prefixes_rdna[0])

static void make_case(uint32_t w[4], int rdna) {
    for (int i = 0; i < 4; i++)
        w[i] = rnd();
    uint32_t r = rnd();
    if (r % 4 == 0)
        return;
    if (rdna) {
        unsigned k = (r >> 2) % NPREFIX_RDNA;
        w[0] = (w[0] & ~prefixes_rdna[k].mask) | prefixes_rdna[k].value;
        if (prefixes_rdna[k].value < 0x80000000 && (r >> 8) % 3 == 0) {
            static const uint32_t src0[] = {0xe9, 0xea, 0xfa, 0xff}; /* DPP8, DPP16, literal */
            w[0] = (w[0] & ~0x1ffu) | src0[(r >> 12) % 4];
        }
        /* VOP3/VOP3P: src0 in w1 selects their DPP8/DPP16 forms or a literal */
        if ((prefixes_rdna[k].value == 0xd4000000 || prefixes_rdna[k].value == 0xcc000000) &&
            (r >> 8) % 3 == 0) {
            static const uint32_t src0[] = {0xe9, 0xea, 0xfa, 0xff};
            w[1] = (w[1] & ~0x1ffu) | src0[(r >> 12) % 4];
        }
        return;
    }
    unsigned k = (r >> 2) % NPREFIX;
    w[0] = (w[0] & ~prefixes[k].mask) | prefixes[k].value;
    /* MIMG: most random words set w0 bit 0 or a sampler on a non-sampling op, both illegal;
     * half the cases clear them so the legal forms get tested too */
    if (prefixes[k].value == 0xf0000000 && (r >> 8) % 2 == 0) {
        w[0] &= ~1u;
        w[1] &= ~(0x1fu << 21);
    }
    if (prefixes[k].value < 0x80000000 && (r >> 8) % 3 == 0) {
        static const uint32_t src0[] = {0xf9, 0xfa, 0xff};
        w[0] = (w[0] & ~0x1ffu) | src0[(r >> 12) % 3];
    }
}

int main(void) {
    const char *e;
    e = getenv("SEED");
    int fresh = e && strcmp(e, "random") == 0;
    uint64_t seed = fresh ? (uint64_t)time(NULL) : e && *e ? strtoull(e, NULL, 0) : 1;
    if (e && *e) /* only the default seed's answers are kept: others seldom come again */
        oracle_cache(0);
    size_t n = (e = getenv("N")) ? strtoull(e, NULL, 0) : 1000000;
    int show = (e = getenv("SHOW")) ? atoi(e) : 8;
    const char *only_arch = getenv("ARCH");
    const char *only_fmt = getenv("FMT");
    if (only_arch && !*only_arch)
        only_arch = NULL;
    if (only_fmt && !*only_fmt)
        only_fmt = NULL;
    if (only_fmt) { /* a name that no format has would make the case generator spin forever */
        int known = 0;
        for (int f = 1; f < ISA_NFMT; f++)
            known |= strcmp(isa_fmt_name(f), only_fmt) == 0;
        if (!known) {
            fprintf(stderr, "sweep: unknown FMT=%s\n", only_fmt);
            return 2;
        }
    }
    printf("sweep: SEED=%" PRIu64 " N=%zu (reproduce with SEED=%" PRIu64 ")\n", seed, n, seed);
    if (oracle_init() != 0)
        return 1;

    size_t total_bad = 0;
    /* every target, in isa_targets order (the seed offsets keep the older targets' cases) */
    static const int order[] = {ISA_GFX950, ISA_GFX942, ISA_GFX90A, ISA_GFX1100, ISA_GFX1201};
    static_assert(sizeof order / sizeof order[0] == ISA_NARCH, "a target missing from the sweep");
    for (int k = 0; k < ISA_NARCH; k++) {
        int a = order[k];
        const char *arch = isa_targets[a].name;
        if (only_arch && strcmp(only_arch, arch) != 0)
            continue;
        rng = seed * 2654435761u + 0x9e3779b97f4a7c15ull + (uint64_t)k;
        size_t tested[ISA_NFMT] = {0}, legal[ISA_NFMT] = {0}, bad[ISA_NFMT] = {0};
        size_t crashed = 0, done = 0;
        enum { chunk = 65536 };
        /* One set of buffers for every target: LLVM's answers for a chunk are 42 MB, and a
         * fresh allocation per target cost 10,000 first-touch page faults (~15 us each here). */
        static uint32_t (*w)[4];
        static oracle_result *res;
        if (!w)
            w = malloc(chunk * sizeof *w);
        if (!res)
            res = malloc(chunk * sizeof *res);
        if (!w || !res)
            return 2;
        while (done < n) {
            size_t m = 0;
            size_t want = n - done < chunk ? n - done : chunk;
            while (m < want) {
                make_case(w[m], isa_is_rdna(a));
                if (only_fmt &&
                    strcmp(isa_fmt_name(isa_identify_arch((isa_arch)a, w[m][0])), only_fmt) != 0)
                    continue;
                m++;
            }
            oracle_batch(arch, (const uint32_t (*)[4])w, m, res);
            for (size_t i = 0; i < m; i++) {
                isa_inst in;
                char text[ORACLE_TEXT + 256];
                int f = isa_identify_arch((isa_arch)a, w[i][0]);
                tested[f]++;
                if (res[i].size == ORACLE_CRASH) {
                    if (crashed++ < 4)
                        printf("  llvm crashed on %08x %08x %08x %08x (not compared)\n", w[i][0],
                               w[i][1], w[i][2], w[i][3]);
                    continue;
                }
                size_t sz = isa_decode((isa_arch)a, (const uint8_t *)w[i], 16, &in);
                if (sz)
                    isa_print(&in, text, sizeof text);
                else
                    text[0] = 0;
                if (res[i].size)
                    legal[f]++;
                if ((int)sz == res[i].size && (sz == 0 || strcmp(text, res[i].text) == 0))
                    continue;
                if (bad[f]++ < (size_t)show)
                    printf("  MISMATCH %s %-5s %08x %08x %08x %08x\n    llvm  : [%d] %s\n    "
                           "gfxemu: [%zu] %s\n",
                           arch, isa_fmt_name(f), w[i][0], w[i][1], w[i][2], w[i][3], res[i].size,
                           res[i].size ? res[i].text : "<illegal>", sz, sz ? text : "<illegal>");
            }
            done += m;
        }
        size_t arch_bad = 0;
        printf("%s: %zu cases, %zu where llvm crashed\n", arch, done, crashed);
        printf("  %-7s %9s %9s %9s\n", "format", "tested", "legal", "mismatch");
        for (int f = 0; f < ISA_NFMT; f++) {
            if (!tested[f])
                continue;
            printf("  %-7s %9zu %9zu %9zu\n", isa_fmt_name(f), tested[f], legal[f], bad[f]);
            arch_bad += bad[f];
        }
        total_bad += arch_bad;
    }
    printf("sweep: %zu mismatches%s\n", total_bad, total_bad ? " (FAIL)" : "");
    return total_bad ? 1 : 0;
}
