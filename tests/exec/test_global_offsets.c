/* test_global_offsets.c - the immediate offset and the saddr form of the GLOBAL loads, stores
 * and atomics on every target, against the same instruction with the offset already added to
 * a 64-bit VGPR address: `global_load_b32 v30, v[100:101], off offset:K` must do what
 * `global_load_b32 v30, v[2:3], off` does when v[2:3] = v[100:101] + K, and the saddr form
 * `global_load_b32 v30, v102, s[10:11] offset:K` what the same does with v[2:3] =
 * s[10:11] + v102 + K (the manuals' address: base + offset, the offset sign-extended from its
 * 13 bits on gfx9/gfx11 and 24 bits on gfx12).  Offsets include negative ones and the ends of
 * the fields.  One program per form holds all the ops, each with its own destination and
 * address registers, so the final registers and the 256 bytes of memory must be identical. */
#include "common/check.h"
#include "common/rng.h"
#include "common/snippet.h"
#include "exec/exec.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static snippet_rig rig; /* buf: 256 bytes at the end of a 4 KiB allocation */
static wave *const w = &rig.wv;

typedef struct {
    const char *rdna, *cdna; /* the op's name on RDNA and on gfx9 */
    int store, dw;           /* a store (or atomic: data in), and its dwords of data/result */
} gop;
static const gop ops[] = {
    {"global_load_b32", "global_load_dword", 0, 1},
    {"global_load_b64", "global_load_dwordx2", 0, 2},
    {"global_load_b128", "global_load_dwordx4", 0, 4},
    {"global_load_u8", "global_load_ubyte", 0, 1},
    {"global_load_i8", "global_load_sbyte", 0, 1},
    {"global_load_u16", "global_load_ushort", 0, 1},
    {"global_load_i16", "global_load_sshort", 0, 1},
    {"global_load_d16_hi_b16", "global_load_short_d16_hi", 0, 1},
    {"global_store_b32", "global_store_dword", 1, 1},
    {"global_store_b64", "global_store_dwordx2", 1, 2},
    {"global_store_b8", "global_store_byte", 1, 1},
    {"global_store_b16", "global_store_short", 1, 1},
    {"global_atomic_add_u32", "global_atomic_add", 1, 1},
};
#define NOPS (sizeof ops / sizeof ops[0])

/* Offsets (bytes) tried: every access stays inside the 256-byte buffer (the base is buf + 128,
 * each lane adds 4 * (lane % 16) and the widest access is 16 bytes).  An atomic needs its
 * natural alignment (a misaligned one faults, as on the hardware): only at the aligned ones. */
static const int offs[] = {-128, -64, -5, -1, 0, 3, 17, 48};

/* One program: every op at one offset, in the offset form (form 0), the saddr form (1) or the
 * precomputed-address form (2: v[2+2i:3+2i] hold op i's address). */
static void program(char *t, size_t n, int rdna, int off, int form) {
    size_t len = 0;
    for (unsigned i = 0; i < NOPS; i++) {
        const gop *o = &ops[i];
        unsigned d = 40 + 4 * i; /* data or destination v[d:d+3] */
        char reg[32], vaddr[32], tail[40];
        if (o->dw == 1)
            snprintf(reg, sizeof reg, "v%u", d);
        else
            snprintf(reg, sizeof reg, "v[%u:%u]", d, d + o->dw - 1);
        if (form == 0) {
            snprintf(vaddr, sizeof vaddr, "v[100:101]");
            snprintf(tail, sizeof tail, "off offset:%d", off);
        } else if (form == 1) {
            snprintf(vaddr, sizeof vaddr, "v102");
            snprintf(tail, sizeof tail, "s[10:11] offset:%d", off);
        } else {
            snprintf(vaddr, sizeof vaddr, "v[%u:%u]", 2 + 2 * i, 3 + 2 * i);
            snprintf(tail, sizeof tail, "off");
        }
        const char *name = rdna ? o->rdna : o->cdna;
        if (strstr(name, "atomic") && off % 4)
            continue;
        if (o->store) /* stores and atomics: address, data, saddr */
            len += (size_t)snprintf(t + len, n - len, "%s %s, %s, %s\n", name, vaddr, reg, tail);
        else
            len += (size_t)snprintf(t + len, n - len, "%s %s, %s, %s\n", name, reg, vaddr, tail);
    }
}

/* Registers: random data in v40..v95, the base in v[100:101] and s[10:11] + v102, and for the
 * precomputed form each op's address in v[2+2i:3+2i]. */
static void setup(int wave64, int off) {
    snippet_rig_lanes(&rig, wave64, 0);
    uint64_t rng = 0x6106a1u;
    for (unsigned r = 40; r < 96; r++)
        for (unsigned l = 0; l < 64; l++) {
            w->v[r][l] = (uint32_t)xorshift64(&rng);
        }
    uint64_t sbase = rig.buf + 64;
    w->s[10] = (uint32_t)sbase, w->s[11] = (uint32_t)(sbase >> 32);
    for (unsigned l = 0; l < 64; l++) {
        uint64_t a = rig.buf + 128 + 4 * (l % 16);
        w->v[100][l] = (uint32_t)a, w->v[101][l] = (uint32_t)(a >> 32);
        w->v[102][l] = (uint32_t)(a - sbase);
        for (unsigned i = 0; i < NOPS; i++) {
            uint64_t e = (uint64_t)((int64_t)a + off);
            w->v[2 + 2 * i][l] = (uint32_t)e, w->v[3 + 2 * i][l] = (uint32_t)(e >> 32);
        }
    }
}

int main(void) {
    if (snippet_rig_open(&rig))
        return 1;
    static const struct {
        const char *arch;
        int rdna;
    } targets[] = {{"gfx1100", 1}, {"gfx1201", 1}, {"gfx950", 0}, {"gfx942", 0}, {"gfx90a", 0}};
    wave *ref = malloc(sizeof *ref);
    static char ta[8192], tb[8192];
    uint8_t ma[256], mb[256];
    unsigned nprog = 0;
    for (size_t t = 0; t < sizeof targets / sizeof targets[0]; t++)
        for (size_t k = 0; k < sizeof offs / sizeof offs[0]; k++)
            for (int form = 0; form < 2; form++)
                for (int wave64 = !targets[t].rdna; wave64 < 2; wave64++) {
                    const char *arch = targets[t].arch;
                    char a64[64];
                    snprintf(a64, sizeof a64, "%s%s", arch,
                             targets[t].rdna && wave64 ? ":wavefrontsize64" : "");
                    program(ta, sizeof ta, targets[t].rdna, offs[k], form);
                    program(tb, sizeof tb, targets[t].rdna, offs[k], 2);
                    setup(wave64, offs[k]);
                    int sa = snippet_rig_run(&rig, a64, ta);
                    memcpy(ref, w, sizeof *w);
                    gmem_read(rig.mem, rig.buf, ma, sizeof ma);
                    setup(wave64, offs[k]);
                    int sb = snippet_rig_run(&rig, a64, tb);
                    gmem_read(rig.mem, rig.buf, mb, sizeof mb);
                    nprog++;
                    int bad = sa != sb, first = -1;
                    for (unsigned r = 40; r < 96 && !bad; r++)
                        for (unsigned l = 0; l < 64; l++)
                            if (w->v[r][l] != ref->v[r][l]) {
                                bad = 1, first = (int)r;
                                break;
                            }
                    int mem = memcmp(ma, mb, sizeof ma) != 0;
                    CHECK(!bad && !mem && sa == WAVE_DONE,
                          "%s wave%d %s offset %d: status %d/%d, v%d differs, memory %s", arch,
                          wave64 ? 64 : 32, form ? "saddr" : "vaddr", offs[k], sa, sb, first,
                          mem ? "differs" : "same");
                }
    printf("test_global_offsets: %u program pairs\n", nprog);
    free(ref);
    snippet_rig_close(&rig);
    return check_summary("test_global_offsets");
}
