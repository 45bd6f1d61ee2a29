/* test_mem_ops.c - DS, FLAT/GLOBAL/SCRATCH, MUBUF and MTBUF against LLVM 22, opcode by opcode.
 *
 * For both targets and every opcode-field value of every memory format, a set of encodings with
 * distinct, non-trivial operands (64-bit pairs, odd/misaligned tuples, AGPRs through the acc bit,
 * tuples that run past v255/a255) and with every modifier bit alone and in combination is
 * compared with LLVM: legality, size and text.  Field sweeps cover every ds_swizzle offset,
 * every soffset/srsrc/saddr encoding and every MTBUF format.  Finally a few words are decoded and
 * their record checked against values worked out by hand from the manual's encoding tables.
 *
 * Build: see tests/isa/test_sweep.c (same flags and sources).
 * Exit status 0 only when everything matches. */
#include "common/check.h"
#include "common/llvm_oracle.h"
#include "isa/isa.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define MAXW 400000

static uint32_t (*words)[4];
static size_t nwords;
static const char *wtag[MAXW];

static void add(const char *tag, uint32_t w0, uint32_t w1) {
    if (nwords >= MAXW)
        return;
    words[nwords][0] = w0;
    words[nwords][1] = w1;
    words[nwords][2] = 0x12345678;
    words[nwords][3] = 0x9abcdef0;
    wtag[nwords++] = tag;
}

/* Register-field patterns: distinct registers, odd (misaligned) tuples, the top of the file. */
static const uint32_t w1_pats[] = {
    0x28140a1e, /* vdst 40, data1 20, data0 10, addr 30 */
    0x291f150b, /* odd everywhere */
    0xfefcfaf8, /* near the end of the file */
    0xff0000ff, 0x00ff0000, 0x0000ff00, 0x00000000,
};

static void gen_ds(void) {
    for (unsigned op = 0; op < 256; op++)
        for (unsigned p = 0; p < sizeof w1_pats / sizeof w1_pats[0]; p++)
            for (unsigned mods = 0; mods < 4; mods++) {
                uint32_t w0 = 0xd8000000u | op << 17 | (mods & 1) << 16 | (mods >> 1) << 25;
                uint32_t w1 = w1_pats[p];
                /* the fields an op does not use must be zero: try each subset */
                for (unsigned m = 0; m < 16; m++) {
                    uint32_t mask = 0;
                    for (int i = 0; i < 4; i++)
                        if (m >> i & 1)
                            mask |= 0xffu << (8 * i);
                    add("DS", w0 | (p * 0x0305u & 0xffff), w1 & mask);
                }
            }
    /* every offset of ds_swizzle_b32, with and without acc */
    for (unsigned off = 0; off < 65536; off++)
        add("DS swizzle", 0xd8000000u | 61u << 17 | off | (off & 1) << 25, 0x2800000au);
    /* offset0/offset1 of the two-address forms */
    for (unsigned off = 0; off < 65536; off += 257)
        add("DS offsets", 0xd8000000u | 14u << 17 | off, 0x0014100au);
}

static void gen_flat(void) {
    static const uint32_t saddrs[] = {0x7f, 0,    0x10, 0x11, 0x65, 0x66, 0x67,
                                      0x6a, 0x6c, 0x6d, 0x7c, 0x7d, 0x7e};
    for (unsigned seg = 0; seg < 4; seg++)
        for (unsigned op = 0; op < 128; op++)
            for (unsigned s = 0; s < sizeof saddrs / sizeof saddrs[0]; s++)
                for (unsigned mods = 0; mods < 32; mods++) {
                    uint32_t w0 = 0xdc000000u | op << 18 | seg << 14;
                    w0 |= (mods & 1) << 13 | (mods >> 1 & 1) << 16 | (mods >> 2 & 1) << 17;
                    w0 |= (mods >> 3 & 1) << 25;
                    w0 |= (op * 0x1a3u + mods * 0x101u) & 0x1fff; /* offsets of both signs */
                    uint32_t w1 = (mods >> 4 & 1) << 23 | saddrs[s] << 16;
                    uint32_t regs = w1_pats[(op + mods + s) % 3] & 0xff00ffffu;
                    add("FLAT", w0, w1 | regs);
                }
    for (unsigned s = 0; s < 128; s++) {
        add("FLAT saddr", 0xdc508000u, 0x2800140au | s << 16);
        add("FLAT saddr", 0xdc504000u, 0x2800140au | s << 16);
        add("FLAT saddr", 0xdc506000u, 0x2800140au | s << 16);
        add("FLAT saddr", 0xdc500000u, 0x2800140au | s << 16);
    }
}

static void gen_buf(void) {
    for (unsigned op = 0; op < 128; op++)
        for (unsigned mods = 0; mods < 128; mods++)
            for (unsigned p = 0; p < 3; p++) {
                uint32_t w0 = 0xe0000000u | op << 18 | (mods & 0x3f) << 12;
                w0 |= (op * 0x35u + mods * 3 + p) & 0xfff;
                uint32_t w1 = (mods >> 6) << 23 | (w1_pats[p] & 0x0000ffffu);
                w1 |= (p * 7u % 26) << 16 | (0x28u + p) << 24;
                add("MUBUF", w0, w1);
                /* MTBUF: the same modifier sets, its own bit positions */
                if (op < 16 && mods < 64) {
                    uint32_t t0 = 0xe8000000u | op << 15 | (mods & 7) << 12 |
                                  ((op + mods) & 0xf) << 19 | ((mods + p) & 7) << 23;
                    t0 |= (mods * 37u + p) & 0xfff;
                    uint32_t t1 = (mods >> 3 & 7) << 21 | (w1_pats[p] & 0x0000ffffu) |
                                  (p * 5u % 26) << 16 | 0x40u << 24;
                    add("MTBUF", t0, t1);
                }
            }
    for (unsigned so = 0; so < 255; so++) /* 255 (literal) crashes LLVM 22 */
        add("MUBUF soffset", 0xe0500000u, so << 24 | 0x3140au);
    for (unsigned rs = 0; rs < 32; rs++)
        add("MUBUF srsrc", 0xe0700000u, rs << 16 | 0x0100140au);
    for (unsigned f = 0; f < 128; f++)
        add("MTBUF format", 0xe8000000u | f << 19 | 0x1123, 0x0103140au);
}

/* ---- hand-checked decodes ---------------------------------------------------------------- */

static size_t dec(isa_arch a, uint32_t w0, uint32_t w1, isa_inst *in) {
    uint32_t w[2] = {w0, w1};
    return isa_decode(a, (const uint8_t *)w, sizeof w, in);
}

static void hand_checks(void) {
    isa_inst in;
    /* ds_write2_b64 v10, a[20:21], a[30:31] offset0:1 offset1:2 (acc bit 25) */
    EXPECT(dec(ISA_GFX950, 0xd8000000u | 78u << 17 | 1u << 25 | 0x0201, 0x001e140a, &in) == 8);
    EXPECT(in.op == ISA_OP_DS_WRITE2_B64 && in.ndst == 0);
    EXPECT(in.src[0].kind == ISA_OPND_VGPR && in.src[0].idx == 10 && in.src[0].n == 1);
    EXPECT(in.src[1].kind == ISA_OPND_AGPR && in.src[1].idx == 20 && in.src[1].n == 2);
    EXPECT(in.src[2].kind == ISA_OPND_AGPR && in.src[2].idx == 30 && in.src[2].n == 2);
    EXPECT(in.f.m.offset0 == 1 && in.f.m.offset1 == 2 && in.f.m.acc == 1);
    /* ds_read_b128 v[4:7], v1 offset:65535 */
    EXPECT(dec(ISA_GFX942, 0xd8000000u | 255u << 17 | 0xffff, 0x04000001, &in) == 8);
    EXPECT(in.op == ISA_OP_DS_READ_B128 && in.ndst == 1 && in.dst[0].idx == 4 && in.dst[0].n == 4);
    EXPECT(in.f.m.offset == 65535 && (in.info->flags & ISA_MF_LOAD));
    /* global_load_dwordx2 v[2:3], v1, s[4:5] offset:-8 sc0 nt: seg 2, saddr 4, offset 0x1ff8 */
    EXPECT(dec(ISA_GFX950, 0xdc000000u | 21u << 18 | 2u << 14 | 3u << 16 | 0x1ff8, 0x02040001,
               &in) == 8);
    EXPECT(in.op == ISA_OP_GLOBAL_LOAD_DWORDX2 && in.f.m.offset == -8 && in.f.m.seg == 2);
    EXPECT(in.f.m.sc0 && in.f.m.nt && !in.f.m.sc1 && in.f.m.glc && in.f.m.slc);
    EXPECT(in.dst[0].kind == ISA_OPND_VGPR && in.dst[0].idx == 2 && in.dst[0].n == 2);
    EXPECT(in.src[0].idx == 1 && in.src[0].n == 1);
    EXPECT(in.src[3].kind == ISA_OPND_SREG && in.src[3].idx == 4 && in.src[3].n == 2);
    /* global_atomic_cmpswap_x2 v[0:1], v[2:3], v[4:7], off sc0: returns 2 dwords */
    EXPECT(dec(ISA_GFX942, 0xdc000000u | 97u << 18 | 2u << 14 | 1u << 16, 0x007f0402, &in) == 8);
    EXPECT(in.op == ISA_OP_GLOBAL_ATOMIC_CMPSWAP_X2 && in.f.m.rtn && in.ndst == 1);
    EXPECT(in.dst[0].n == 2 && in.src[0].n == 2 && in.src[1].n == 4 && in.f.m.saddr_off);
    EXPECT(in.src[3].kind == ISA_OPND_NONE);
    /* scratch_store_dword v5, v6, off (sve) offset:-4 */
    EXPECT(dec(ISA_GFX950, 0xdc000000u | 28u << 18 | 1u << 14 | 1u << 13 | 0x1ffc, 0x007f0605,
               &in) == 8);
    EXPECT(in.op == ISA_OP_SCRATCH_STORE_DWORD && in.f.m.sve && in.f.m.offset == -4);
    EXPECT(in.src[0].idx == 5 && in.src[0].n == 1 && in.src[1].idx == 6 && in.ndst == 0);
    /* buffer_load_dwordx4 a[8:11], v[2:3], s[8:11], s3 idxen offen offset:16 */
    EXPECT(dec(ISA_GFX950, 0xe0000000u | 23u << 18 | 3u << 12 | 16, 0x03820802, &in) == 8);
    EXPECT(in.op == ISA_OP_BUFFER_LOAD_DWORDX4 && in.f.m.idxen && in.f.m.offen);
    EXPECT(in.dst[0].kind == ISA_OPND_AGPR && in.dst[0].idx == 8 && in.dst[0].n == 4);
    EXPECT(in.src[0].n == 2 && in.src[3].idx == 8 && in.src[3].n == 4);
    EXPECT(in.src[4].kind == ISA_OPND_SREG && in.src[4].idx == 3 && in.f.m.offset == 16);
    /* buffer_atomic_add v1, off, s[0:3], 0 sc0: returns into v1 */
    EXPECT(dec(ISA_GFX942, 0xe0000000u | 66u << 18 | 1u << 14, 0x80000100, &in) == 8);
    EXPECT(in.op == ISA_OP_BUFFER_ATOMIC_ADD && in.f.m.rtn && in.dst[0].idx == 1);
    EXPECT(in.src[1].idx == 1 && in.src[4].kind == ISA_OPND_INLINE && in.src[4].idx == 128);
    /* tbuffer_store_format_xy v[2:3], v1, s[4:7], s2 format:[BUF_DATA_FORMAT_32,UINT] offen */
    EXPECT(dec(ISA_GFX950, 0xe8000000u | 4u << 23 | 4u << 19 | 5u << 15 | 1u << 12, 0x02010201,
               &in) == 8);
    EXPECT(in.op == ISA_OP_TBUFFER_STORE_FORMAT_XY && in.f.m.dfmt == 4 && in.f.m.nfmt == 4);
    EXPECT(in.src[1].idx == 2 && in.src[1].n == 2 && in.src[0].idx == 1 && in.ndst == 0);
    /* illegal: the RDNA-only ds opcode 0xff on gfx942 is ds_read_b128; 0xe0 is gfx950-only */
    EXPECT(dec(ISA_GFX942, 0xd8000000u | 224u << 17, 0x0400000a, &in) == 0);
    EXPECT(dec(ISA_GFX950, 0xd8000000u | 224u << 17, 0x0400000a, &in) == 8);
    EXPECT(in.op == ISA_OP_DS_READ_B64_TR_B4);
}

int main(void) {
    if (oracle_init() != 0)
        return 2;
    words = malloc(MAXW * sizeof *words);
    oracle_result *res = malloc(MAXW * sizeof *res);
    if (!words || !res)
        return 2;
    gen_ds();
    gen_flat();
    gen_buf();

    size_t bad = 0, legal = 0, crashed = 0;
    const char *lasttag = "";
    int shown_tags = 0;
    for (int a = 0; a < ISA_NARCH; a++) {
        const char *arch = isa_targets[a].name;
        if (isa_is_rdna(a)) /* the cases come from CDNA's tables; RDNA's words are
                             * checked by test_sweep and tests/isa/test_rdna_* */
            continue;
        oracle_batch(arch, (const uint32_t (*)[4])words, nwords, res);
        for (size_t i = 0; i < nwords; i++) {
            if (res[i].size == ORACLE_CRASH) {
                crashed++;
                continue;
            }
            isa_inst in;
            char text[ORACLE_TEXT + 256] = "";
            size_t sz = isa_decode((isa_arch)a, (const uint8_t *)words[i], 16, &in);
            if (sz)
                isa_print(&in, text, sizeof text);
            if (res[i].size)
                legal++;
            /* the oracle keeps ORACLE_TEXT - 1 characters of very long lines */
            size_t cmp = strlen(res[i].text) >= ORACLE_TEXT - 1 ? ORACLE_TEXT - 1 : sizeof text;
            if ((int)sz == res[i].size && (sz == 0 || strncmp(text, res[i].text, cmp) == 0))
                continue;
            if (bad++ < 30 || (strcmp(wtag[i], lasttag) != 0 && shown_tags++ < 20))
                printf("  MISMATCH %s %-13s %08x %08x\n    llvm  : [%d] %s\n    gfxemu: [%zu] %s\n",
                       arch, wtag[i], words[i][0], words[i][1], res[i].size,
                       res[i].size ? res[i].text : "<illegal>", sz, sz ? text : "<illegal>");
            lasttag = wtag[i];
        }
    }
    hand_checks();
    printf("test_mem_ops: %zu encodings x %d targets, %zu legal, %zu llvm crashes skipped, "
           "%zu mismatches, %d failed checks\n",
           nwords, (int)ISA_NARCH, legal, crashed, bad, check_fails);
    free(res);
    free(words);
    return bad || check_fails ? 1 : 0;
}
