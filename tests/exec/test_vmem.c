/* test_vmem.c - FLAT/GLOBAL/SCRATCH/MUBUF semantics on llvm-mc-22 snippets: per-lane addressing,
 * partial EXEC, sub-dword and d16 data, atomics with return, the LDS aperture, private memory
 * per lane, and faults that name the first bad lane and address. */
#include "common/check.h"
#include "common/snippet.h"
#include "exec/exec.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>


static gmem *mem;
static uint64_t buf; /* 256 bytes: dword i = 0x1000 + i */
static wave *w;
static uint8_t lds[256];
static uint8_t scratch[64 * 64];

static void reset(void)
{
    memset(w, 0, sizeof *w);
    for (uint32_t i = 0; i < 64; i++) {
        uint32_t v = 0x1000 + i;
        gmem_write(mem, buf + 4 * i, &v, 4);
    }
    memset(lds, 0, sizeof lds);
    memset(scratch, 0, sizeof scratch);
    wave_set_exec(w, ~0ull);
    w->mem = mem;
    w->lds = lds;
    w->lds_size = sizeof lds;
    w->scratch = scratch;
    w->scratch_lane = 64;
}

/* v[r:r+1] = base + 4 * lane * step */
static void set_addr(unsigned r, uint64_t base, unsigned step)
{
    for (unsigned l = 0; l < 64; l++) {
        uint64_t a = base + 4ull * l * step;
        w->v[r][l] = (uint32_t)a;
        w->v[r + 1][l] = (uint32_t)(a >> 32);
    }
}


static uint32_t rd(uint64_t off)
{
    uint32_t v = 0;
    gmem_read(mem, buf + off, &v, 4);
    return v;
}

int main(void)
{
    mem = gmem_create();
    buf = gmem_alloc(mem, 256, 0);
    w = malloc(sizeof *w);
    const char *arches[] = {"gfx950", "gfx942"};
    for (int ai = 0; ai < 2; ai++) {
        const char *a = arches[ai];
        int bad;

        reset();
        set_addr(2, buf, 1);
        CHECK(run_snippet(w, a, "global_load_dword v1, v[2:3], off") == WAVE_DONE, "%s load", a);
        bad = 0;
        for (unsigned l = 0; l < 64; l++)
            bad += w->v[1][l] != 0x1000 + l;
        CHECK(bad == 0, "%s load: %d lanes wrong", a, bad);

        /* Partial EXEC: lanes outside it keep their value. */
        reset();
        set_addr(2, buf, 1);
        for (unsigned l = 0; l < 64; l++)
            w->v[1][l] = 0xaaaa;
        wave_set_exec(w, 0x00000000ffff0000ull);
        CHECK(run_snippet(w, a, "global_load_dword v1, v[2:3], off") == WAVE_DONE, "%s partial", a);
        CHECK(w->v[1][15] == 0xaaaa && w->v[1][16] == 0x1010 && w->v[1][31] == 0x101f &&
                  w->v[1][32] == 0xaaaa,
              "%s partial: %x %x %x %x", a, w->v[1][15], w->v[1][16], w->v[1][31], w->v[1][32]);

        /* saddr + 32-bit VGPR offset + immediate; lane 63 reads 4 bytes past the end. */
        reset();
        w->s[0] = (uint32_t)buf;
        w->s[1] = (uint32_t)(buf >> 32);
        for (unsigned l = 0; l < 64; l++)
            w->v[2][l] = 4 * l;
        CHECK(run_snippet(w, a, "global_load_dword v1, v2, s[0:1] offset:4") == WAVE_FAULT, "%s oob", a);
        CHECK(w->fault.kind == XF_MEMORY && w->fault.addr == buf + 256 && w->fault.size == 4 &&
                  w->fault.lanes == 1ull << 63 && !w->fault.write,
              "%s oob: kind %d addr +%lld lanes %llx", a, w->fault.kind,
              (long long)(w->fault.addr - buf), (unsigned long long)w->fault.lanes);

        /* Sub-dword: sign extension, d16_hi keeps the low half, short stores. */
        reset();
        set_addr(2, buf, 0);
        uint32_t b80 = 0x00008080;
        gmem_write(mem, buf, &b80, 4);
        for (unsigned l = 0; l < 64; l++)
            w->v[1][l] = 0x11112222;
        CHECK(run_snippet(w, a, "global_load_sbyte v4, v[2:3], off\nglobal_load_short_d16_hi v1, v[2:3], off") ==
                  WAVE_DONE,
              "%s subdword", a);
        CHECK(w->v[4][7] == 0xffffff80 && w->v[1][7] == 0x80802222, "%s subdword: %x %x", a,
              w->v[4][7], w->v[1][7]);
        reset();
        set_addr(2, buf, 1);
        wave_set_exec(w, 1);
        w->v[5][0] = 0x12345678;
        CHECK(run_snippet(w, a, "global_store_short v[2:3], v5, off\nglobal_store_byte_d16_hi v[2:3], v5, off offset:2") == WAVE_DONE,
              "%s store short", a);
        CHECK(rd(0) == 0x00345678, "%s store short: %08x", a, rd(0));

        /* 64 lanes add 1 to one address: the memory sees 64 adds, lane l gets the value after
         * l earlier adds. */
        reset();
        set_addr(2, buf, 0);
        for (unsigned l = 0; l < 64; l++)
            w->v[4][l] = 1;
        CHECK(run_snippet(w, a, "global_atomic_add v1, v[2:3], v4, off sc0") == WAVE_DONE, "%s atomic", a);
        CHECK(rd(0) == 0x1000 + 64 && w->v[1][0] == 0x1000 && w->v[1][63] == 0x1000 + 63,
              "%s atomic: mem %x ret0 %x ret63 %x", a, rd(0), w->v[1][0], w->v[1][63]);
        reset();
        set_addr(2, buf, 1);
        for (unsigned l = 0; l < 64; l++) {
            w->v[4][l] = 7;            /* new */
            w->v[5][l] = l & 1 ? 0x1000 + l : 0; /* compare: matches on odd lanes */
        }
        CHECK(run_snippet(w, a, "global_atomic_cmpswap v1, v[2:3], v[4:5], off sc0") == WAVE_DONE, "%s cas", a);
        CHECK(rd(4) == 7 && rd(8) == 0x1002 && w->v[1][2] == 0x1002, "%s cas: %x %x %x", a, rd(4),
              rd(8), w->v[1][2]);

        /* The shared aperture routes a flat access to LDS. */
        reset();
        set_addr(2, GMEM_SHARED_APERTURE, 1);
        for (unsigned l = 0; l < 64; l++)
            w->v[5][l] = 0x500 + l;
        CHECK(run_snippet(w, a, "flat_store_dword v[2:3], v5") == WAVE_DONE, "%s flat lds", a);
        uint32_t l9;
        memcpy(&l9, lds + 36, 4);
        CHECK(l9 == 0x509, "%s flat lds: %x", a, l9);
        set_addr(2, GMEM_SHARED_APERTURE + 4, 1); /* lane 63 is 4 bytes past the LDS */
        CHECK(run_snippet(w, a, "flat_load_dword v6, v[2:3]") == WAVE_FAULT && w->fault.lanes == 1ull << 63,
              "%s flat lds oob", a);

        /* Private memory: every lane has its own bytes at the same offset. */
        reset();
        for (unsigned l = 0; l < 64; l++)
            w->v[5][l] = 0x700 + l;
        CHECK(run_snippet(w, a, "scratch_store_dword off, v5, off offset:8\nscratch_load_dword v6, off, off offset:8") ==
                  WAVE_DONE,
              "%s scratch", a);
        bad = 0;
        for (unsigned l = 0; l < 64; l++)
            bad += w->v[6][l] != 0x700 + l;
        uint32_t s2_9;
        memcpy(&s2_9, scratch + (2 * 64 + 9) * 4, 4);
        CHECK(bad == 0 && s2_9 == 0x709, "%s scratch: %d lanes wrong, layout %x", a, bad, s2_9);
        CHECK(run_snippet(w, a, "scratch_load_dword v6, off, off offset:64") == WAVE_FAULT &&
                  w->fault.kind == XF_MEMORY,
              "%s scratch past the lane's size faults", a);

        /* MUBUF raw buffer (stride 0): num_records = 0x18 bytes.  A dwordx4 at offset 0x10 reads
         * two dwords and zeros; stores past the end are dropped; nothing outside is touched. */
        reset();
        w->s[4] = (uint32_t)buf;
        w->s[5] = (uint32_t)(buf >> 32) & 0xffff;
        w->s[6] = 0x18;
        w->s[7] = 0;
        w->s[8] = 4; /* soffset */
        for (unsigned l = 0; l < 64; l++)
            w->v[2][l] = 4 * l;
        wave_set_exec(w, 0x7);
        CHECK(run_snippet(w, a, "buffer_load_dwordx4 v[4:7], v2, s[4:7], s8 offen offset:12") == WAVE_DONE,
              "%s mubuf", a);
        /* lane 0: offset 12 -> bytes 12..27 (+4 soffset: address buf+16): dwords at offsets
         * 12, 16 are inside 0x18, 20 is inside (20+4 <= 24), 24 is out. */
        CHECK(w->v[4][0] == 0x1004 && w->v[5][0] == 0x1005 && w->v[6][0] == 0x1006 &&
                  w->v[7][0] == 0,
              "%s mubuf lane0: %x %x %x %x", a, w->v[4][0], w->v[5][0], w->v[6][0], w->v[7][0]);
        CHECK(w->v[4][2] == 0x1006 && w->v[5][2] == 0 && w->v[6][2] == 0, "%s mubuf lane2: %x %x",
              a, w->v[4][2], w->v[5][2]);
        for (unsigned l = 0; l < 64; l++)
            w->v[9][l] = 0xabc0 + l;
        CHECK(run_snippet(w, a, "buffer_store_dword v9, v2, s[4:7], 0 offen offset:16") == WAVE_DONE,
              "%s mubuf store", a);
        CHECK(rd(16) == 0xabc0 && rd(20) == 0xabc1 && rd(24) == 0x1006,
              "%s mubuf store: %x %x %x", a, rd(16), rd(20), rd(24));
        /* A huge num_records cannot reach past the allocation: that is a fault, not a write. */
        w->s[6] = 0xffffffff;
        for (unsigned l = 0; l < 64; l++)
            w->v[2][l] = 0x10000;
        CHECK(run_snippet(w, a, "buffer_store_dword v9, v2, s[4:7], 0 offen") == WAVE_FAULT &&
                  w->fault.kind == XF_MEMORY && w->fault.addr == buf + 0x10000,
              "%s mubuf huge num_records", a);
        /* Structured buffer: stride 16, index in the VGPR; index >= num_records reads 0. */
        reset();
        w->s[4] = (uint32_t)buf;
        w->s[5] = ((uint32_t)(buf >> 32) & 0xffff) | 16u << 16;
        w->s[6] = 3;
        w->s[7] = 0;
        for (unsigned l = 0; l < 64; l++)
            w->v[2][l] = l;
        wave_set_exec(w, 0xf);
        CHECK(run_snippet(w, a, "buffer_load_dword v4, v2, s[4:7], 0 idxen offset:4") == WAVE_DONE,
              "%s mubuf idxen", a);
        CHECK(w->v[4][0] == 0x1001 && w->v[4][2] == 0x1009 && w->v[4][3] == 0,
              "%s mubuf idxen: %x %x %x", a, w->v[4][0], w->v[4][2], w->v[4][3]);
    }
    free(w);
    gmem_destroy(mem);
    return check_summary("vmem");
}
