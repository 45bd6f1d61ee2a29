/* test_vmem_fast.c - the FLAT/GLOBAL dword fast path (vmem.c, vmem_fast) must give exactly what the
 * per-lane engine gives: lanes spread over two allocations, a store whose lane 37 runs past the
 * end (lanes before it are stored, the fault names lane 37's address and lanes 37-63), a load
 * whose destination is its own address register, a warm translation cache pointing at another
 * allocation, partial EXEC, and dwordx4 loads from scattered, misaligned lane addresses and in runs
 * of lanes over contiguous bytes.  Expected values are computed here from the buffers' known
 * contents. */
#include "common/check.h"
#include "common/snippet.h"
#include "exec/exec.h"

#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static gmem *mem;
static uint64_t A, B; /* 256 bytes each: A dword i = 0xa000 + i, B dword i = 0xb000 + i */
static uint64_t C;    /* 1024 bytes, for coalesced multi-dword accesses */
static uint64_t D;    /* 2048 bytes: dword i = 0xd1000000 + i, for loads in runs of lanes */
static wave *w;

static void reset(void) {
    memset(w, 0, sizeof *w);
    for (uint32_t i = 0; i < 64; i++) {
        uint32_t va = 0xa000 + i, vb = 0xb000 + i;
        gmem_write(mem, A + 4 * i, &va, 4);
        gmem_write(mem, B + 4 * i, &vb, 4);
    }
    wave_set_exec(w, ~0ull);
    w->mem = mem;
}

static void set_addr(unsigned r, unsigned l, uint64_t a) {
    w->v[r][l] = (uint32_t)a;
    w->v[r + 1][l] = (uint32_t)(a >> 32);
}

/* reset() for "global_store_dword v2, v3, s[0:1]": s[0:1] = A, v2 = lane l's offset 4 l,
 * v3 = data + l. */
static void reset_store(uint32_t data) {
    reset();
    w->s[0] = (uint32_t)A;
    w->s[1] = (uint32_t)(A >> 32);
    for (unsigned l = 0; l < 64; l++) {
        w->v[2][l] = 4 * l;
        w->v[3][l] = data + l;
    }
}

static uint32_t rd(uint64_t a) {
    uint32_t v = 0;
    gmem_read(mem, a, &v, 4);
    return v;
}

int main(void) {
    mem = gmem_create();
    /* A ends where its page ends, so that an access past it faults (allocations are
     * page-granular, as on hardware: inside the last page it would not). */
    A = gmem_alloc(mem, 4096, 0) + 4096 - 256;
    B = gmem_alloc(mem, 256, 1);
    C = gmem_alloc(mem, 1024, 2);
    D = gmem_alloc(mem, 2048, 3);
    for (uint32_t i = 0; i < 512; i++) {
        uint32_t v = 0xd1000000u + i;
        gmem_write(mem, D + 4 * i, &v, 4);
    }
    w = malloc(sizeof *w);
    const char *arches[] = {"gfx950", "gfx942", "gfx90a"};
    for (int ai = 0; ai < 3; ai++) {
        const char *a = arches[ai];
        int bad = 0;

        /* Odd lanes read B, even lanes A (reversed order): two allocations in one access. */
        reset();
        for (unsigned l = 0; l < 64; l++)
            set_addr(2, l, (l & 1 ? B : A) + 4 * (63 - l));
        CHECK(run_snippet(w, a, "global_load_dword v1, v[2:3], off") == WAVE_DONE, "%s two", a);
        for (unsigned l = 0; l < 64; l++)
            bad += w->v[1][l] != (l & 1 ? 0xb000u : 0xa000u) + 63 - l;
        CHECK(bad == 0, "%s two allocations: %d lanes wrong", a, bad);

        /* Warm cache on A, then a load from B only; dwordx2 into its own address registers. */
        reset();
        for (unsigned l = 0; l < 64; l++)
            set_addr(2, l, A + 4 * (l & 31));
        for (unsigned l = 0; l < 64; l++)
            set_addr(4, l, B + 8 * (l & 15));
        wave_set_exec(w, 0xf0f0f0f0f0f0f0f0ull);
        for (unsigned l = 0; l < 64; l++)
            w->v[1][l] = 0x5555;
        CHECK(run_snippet(w, a,
                          "global_load_dword v1, v[2:3], off\n"
                          "global_load_dwordx2 v[4:5], v[4:5], off offset:4") == WAVE_DONE,
              "%s warm", a);
        bad = 0;
        for (unsigned l = 0; l < 64; l++) {
            int on = (0xf0f0f0f0f0f0f0f0ull >> l) & 1;
            uint64_t ba = B + 8 * (l & 15);
            uint32_t w1 = on ? 0xa000 + (l & 31) : 0x5555;
            uint32_t w4 = on ? 0xb000 + 2 * (l & 15) + 1 : (uint32_t)ba;
            uint32_t w5 = on ? 0xb000 + 2 * (l & 15) + 2 : (uint32_t)(ba >> 32);
            if ((w->v[1][l] != w1 || w->v[4][l] != w4 || w->v[5][l] != w5) && bad++ < 3)
                printf("  %s lane %u: %x %x %x want %x %x %x\n", a, l, w->v[1][l], w->v[4][l],
                       w->v[5][l], w1, w4, w5);
        }
        CHECK(bad == 0, "%s warm cache / overlap / partial exec: %d lanes wrong", a, bad);

        /* Store with saddr: lane l writes A + 4 * (l + 27); lane 37 is the first past the end. */
        reset_store(0xc000);
        CHECK(run_snippet(w, a, "global_store_dword v2, v3, s[0:1] offset:108") == WAVE_FAULT,
              "%s store past the end", a);
        CHECK(w->fault.kind == XF_MEMORY && w->fault.addr == A + 256 && w->fault.size == 4 &&
                  w->fault.write == 1 && w->fault.lanes == ~0ull << 37,
              "%s fault %d addr +%lld size %u write %d lanes %llx", a, w->fault.kind,
              (long long)(w->fault.addr - A), w->fault.size, w->fault.write,
              (unsigned long long)w->fault.lanes);
        bad = 0;
        for (unsigned i = 0; i < 64; i++) {
            uint32_t want = i >= 27 ? 0xc000 + (i - 27) : 0xa000 + i;
            bad += rd(A + 4 * i) != want;
        }
        CHECK(bad == 0, "%s lanes before the fault stored, others not: %d dwords wrong", a, bad);
        CHECK(rd(B) == 0xb000, "%s neighbour untouched", a);

        /* The same store ending exactly at the end of A (lane 63 writes its last dword): in
         * range, every lane stored (the coalesced range check's edge). */
        reset_store(0xe000);
        CHECK(run_snippet(w, a, "global_store_dword v2, v3, s[0:1]") == WAVE_DONE,
              "%s store up to the end", a);
        bad = 0;
        for (unsigned i = 0; i < 64; i++)
            bad += rd(A + 4 * i) != 0xe000 + i;
        CHECK(bad == 0, "%s store up to the end: %d dwords wrong", a, bad);

        /* Low address dwords in a row but lane 9's high dword 1 more: lane 9's address is
         * 4 GiB past the others, unmapped; the load must fault there, not read A. */
        reset();
        for (unsigned l = 0; l < 64; l++)
            set_addr(2, l, A + 4 * l + (l == 9 ? 1ull << 32 : 0));
        CHECK(run_snippet(w, a, "global_load_dword v4, v[2:3], off") == WAVE_FAULT &&
                  w->fault.kind == XF_MEMORY && w->fault.addr == A + 36 + (1ull << 32) &&
                  w->fault.lanes == 1ull << 9,
              "%s one lane's high dword differs: kind %d addr %llx lanes %llx", a, w->fault.kind,
              (unsigned long long)w->fault.addr, (unsigned long long)w->fault.lanes);

        /* Coalesced accesses (all lanes on, lane l at base + l * size): a dwordx4 store of
         * value 0xd0000 + byte offset at C + 16 l, read back as dwordx4 (same stride), as dword
         * and dwordx2 with their own strides, and as dwordx3 with stride 16 (not coalesced). */
        reset();
        for (unsigned l = 0; l < 64; l++) {
            set_addr(2, l, C + 16 * l);
            set_addr(24, l, C + 4 * l);
            set_addr(26, l, C + 8 * l);
            for (unsigned i = 0; i < 4; i++)
                w->v[4 + i][l] = 0xd0000 + 16 * l + 4 * i;
        }
        CHECK(run_snippet(w, a,
                          "global_store_dwordx4 v[2:3], v[4:7], off\n"
                          "global_load_dwordx4 v[8:11], v[2:3], off\n"
                          "global_load_dword v12, v[24:25], off\n"
                          "global_load_dwordx2 v[14:15], v[26:27], off\n"
                          "global_load_dwordx3 v[16:18], v[2:3], off") == WAVE_DONE,
              "%s coalesced", a);
        bad = 0;
        for (unsigned l = 0; l < 64; l++) {
            for (unsigned i = 0; i < 4; i++) {
                uint32_t want = 0xd0000 + 16 * l + 4 * i;
                bad += rd(C + 16 * l + 4 * i) != want;
                bad += w->v[8 + i][l] != want;
                bad += i < 3 && w->v[16 + i][l] != want;
            }
            bad += w->v[12][l] != 0xd0000 + 4 * l;
            bad += w->v[14][l] != 0xd0000 + 8 * l || w->v[15][l] != 0xd0000 + 8 * l + 4;
        }
        CHECK(bad == 0, "%s coalesced stores and loads: %d wrong", a, bad);
        for (unsigned l = 0; l < 64; l++)
            w->v[28][l] = 0xe000 + l;
        CHECK(run_snippet(w, a, "global_store_dword v[24:25], v28, off") == WAVE_DONE,
              "%s coalesced dword store", a);
        bad = 0;
        for (unsigned l = 0; l < 64; l++)
            bad += rd(C + 4 * l) != 0xe000 + l || rd(C + 256 + 4 * l) != 0xd0000 + 256 + 4 * l;
        CHECK(bad == 0, "%s coalesced dword store: %d wrong", a, bad);

        /* dwordx4 loads from scattered lane addresses (a GEMM tile's rows; the fast path
         * transposes four lanes at a time under full EXEC), some not dword-aligned: into other
         * registers, into the address registers themselves, and under partial EXEC (inactive
         * lanes keep 0x7777).  Expected: the bytes at each lane's address, read with gmem_read. */
        for (int k = 0; k < 3; k++) {
            uint64_t ex = k == 2 ? 0x7ffffffffffffffeull : ~0ull;
            reset();
            wave_set_exec(w, ex);
            uint64_t la[64];
            for (unsigned l = 0; l < 64; l++) {
                la[l] = C + 12 * ((l * 37) % 64) + l % 3;
                set_addr(2, l, la[l]);
                for (unsigned i = 0; i < 4; i++)
                    w->v[40 + i][l] = 0x7777;
            }
            const char *text = k == 1 ? "global_load_dwordx4 v[2:5], v[2:3], off"
                                      : "global_load_dwordx4 v[40:43], v[2:3], off";
            unsigned dst = k == 1 ? 2 : 40;
            CHECK(run_snippet(w, a, text) == WAVE_DONE, "%s scattered x4 %d", a, k);
            bad = 0;
            for (unsigned l = 0; l < 64; l++) {
                uint32_t want[4] = {0x7777, 0x7777, 0x7777, 0x7777};
                if ((ex >> l) & 1)
                    gmem_read(mem, la[l], want, 16);
                for (unsigned i = 0; i < 4; i++)
                    bad += w->v[dst + i][l] != want[i];
            }
            CHECK(bad == 0, "%s scattered dwordx4 load %d: %d wrong", a, k, bad);
        }
        /* dwordx4 loads in runs of lanes over contiguous bytes (a GEMM tile's rows: four or
         * eight lanes of 16 bytes a row): runs of four and of eight at scattered places, runs at
         * misaligned addresses, into the address registers themselves, and one lane 4 bytes off
         * its run.  Expected: the bytes at each lane's address. */
        for (int k = 0; k < 5; k++) {
            reset();
            uint64_t la[64];
            for (unsigned l = 0; l < 64; l++) {
                unsigned g4 = l / 4, g8 = l / 8;
                la[l] = k == 1   ? D + 128 * ((g8 * 3) % 16) + 16 * (l % 8)
                        : k == 2 ? D + 64 * ((g4 * 5) % 31) + 4 * (g4 % 3) + (g4 & 1) + 16 * (l % 4)
                                 : D + 64 * ((g4 * 7) % 32) + 16 * (l % 4);
                if (k == 4 && l == 13)
                    la[l] += 4;
                set_addr(2, l, la[l]);
            }
            unsigned dst = k == 3 ? 2 : 40;
            CHECK(run_snippet(w, a,
                              k == 3 ? "global_load_dwordx4 v[2:5], v[2:3], off"
                                     : "global_load_dwordx4 v[40:43], v[2:3], off") == WAVE_DONE,
                  "%s runs x4 %d", a, k);
            bad = 0;
            for (unsigned l = 0; l < 64; l++) {
                uint32_t want[4];
                gmem_read(mem, la[l], want, 16);
                for (unsigned i = 0; i < 4; i++)
                    bad += w->v[dst + i][l] != want[i];
            }
            CHECK(bad == 0, "%s dwordx4 load in runs %d: %d wrong", a, k, bad);
        }
        /* The same with lane 45's 16 bytes running 8 past A's end: the fault names its address
         * and lane, and no register of lane 45 is written. */
        reset();
        for (unsigned l = 0; l < 64; l++) {
            set_addr(2, l, l == 45 ? A + 256 - 8 : A + 12 * ((l * 37) % 16));
            w->v[40][l] = 0x7777;
        }
        CHECK(run_snippet(w, a, "global_load_dwordx4 v[40:43], v[2:3], off") == WAVE_FAULT &&
                  w->fault.kind == XF_MEMORY && w->fault.addr == A + 256 - 8 &&
                  w->fault.lanes == 1ull << 45 && w->fault.pc == 0 && w->v[40][45] == 0x7777,
              "%s scattered dwordx4 past the end: kind %d addr A%+lld lanes %llx", a, w->fault.kind,
              (long long)(w->fault.addr - A), (unsigned long long)w->fault.lanes);
    }
    /* vmem_lin (the coalesced dword case in a function of its own) against what the general
     * path does, for the conditions it tests itself: read-only host memory (loads read it,
     * a store faults and writes nothing), a scalar base with an instruction offset, a
     * destination that is the address pair, FLAT, and a run past the end of an allocation. */
    static const uint32_t ro_words[64] = {
#define RO4(i) 0x90000u + (i), 0x90001u + (i), 0x90002u + (i), 0x90003u + (i)
        RO4(0),  RO4(4),  RO4(8),  RO4(12), RO4(16), RO4(20), RO4(24), RO4(28),
        RO4(32), RO4(36), RO4(40), RO4(44), RO4(48), RO4(52), RO4(56), RO4(60),
#undef RO4
    };
    uint64_t R = (uint64_t)(uintptr_t)ro_words;
    CHECK(gmem_map_host(mem, (void *)(uintptr_t)ro_words, sizeof ro_words, 1) == 0, "map ro");
    static uint32_t alias_words[1024]; /* 4 KiB at the shared aperture's base */
    for (unsigned i = 0; i < 1024; i++)
        alias_words[i] = 0xa11a5000u + i;
    CHECK(gmem_map_alias(mem, GMEM_SHARED_APERTURE, alias_words, sizeof alias_words, 0) == 0,
          "map an alias at the shared aperture");
    for (int ai = 0; ai < 3; ai++) {
        const char *a = arches[ai];
        int bad = 0;
        reset();
        for (unsigned l = 0; l < 64; l++) {
            set_addr(2, l, R + 4 * l);
            w->v[4][l] = 0xdead0000u + l;
        }
        CHECK(run_snippet(w, a, "global_load_dword v6, v[2:3], off") == WAVE_DONE,
              "%s read-only load", a);
        for (unsigned l = 0; l < 64; l++)
            bad += w->v[6][l] != 0x90000u + l;
        CHECK(bad == 0, "%s coalesced load of read-only memory: %d lanes wrong", a, bad);
        CHECK(run_snippet(w, a, "global_store_dword v[2:3], v4, off") == WAVE_FAULT &&
                  w->fault.kind == XF_MEMORY && w->fault.write == 1 && w->fault.addr == R,
              "%s coalesced store to read-only memory: status %d kind %d write %d addr %llx", a,
              w->status, w->fault.kind, w->fault.write, (unsigned long long)w->fault.addr);
        bad = 0;
        for (unsigned l = 0; l < 64; l++)
            bad += ro_words[l] != 0x90000u + l;
        CHECK(bad == 0, "%s read-only memory written: %d words", a, bad);

        /* s[0:1] = C - 64, offset 64 + 4 l in v2, instruction offset 64: lane l reads
         * C + 64 + 4 l; then dwordx2 at C + 8 l into the address pair itself, and the same
         * through FLAT. */
        reset();
        for (unsigned l = 0; l < 256; l++) {
            uint32_t v = 0x70000u + l;
            gmem_write(mem, C + 4 * l, &v, 4);
        }
        w->s[0] = (uint32_t)(C - 64);
        w->s[1] = (uint32_t)((C - 64) >> 32);
        for (unsigned l = 0; l < 64; l++) {
            w->v[2][l] = 64 + 4 * l;
            set_addr(4, l, C + 8 * l);
            set_addr(8, l, C + 512 + 4 * l);
        }
        CHECK(run_snippet(w, a,
                          "global_load_dword v3, v2, s[0:1] offset:64\n"
                          "global_load_dwordx2 v[4:5], v[4:5], off\n"
                          "flat_load_dword v10, v[8:9]") == WAVE_DONE,
              "%s saddr / own pair / flat", a);
        bad = 0;
        for (unsigned l = 0; l < 64; l++) {
            bad += w->v[3][l] != 0x70000u + 16 + l;
            bad += w->v[4][l] != 0x70000u + 2 * l || w->v[5][l] != 0x70000u + 2 * l + 1;
            bad += w->v[10][l] != 0x70000u + 128 + l;
        }
        CHECK(bad == 0, "%s coalesced saddr+offset, own pair, flat: %d wrong", a, bad);

        /* FLAT addresses in the shared aperture are LDS even where host memory is mapped at
         * the same device addresses (an alias, as the virtual GPU may place one). */
        reset();
        uint32_t lds[64];
        for (unsigned l = 0; l < 64; l++) {
            lds[l] = 0x5d000u + l;
            set_addr(2, l, GMEM_SHARED_APERTURE + 4 * l);
        }
        w->lds = (uint8_t *)lds;
        w->lds_size = sizeof lds;
        CHECK(run_snippet(w, a, "flat_load_dword v6, v[2:3]") == WAVE_DONE, "%s flat lds", a);
        bad = 0;
        for (unsigned l = 0; l < 64; l++)
            bad += w->v[6][l] != 0x5d000u + l;
        CHECK(bad == 0, "%s coalesced FLAT load in the shared aperture: %d lanes not LDS", a, bad);

        /* lane l at A + 128 + 4 l: lanes 32-63 are past A's end (and its page) */
        reset();
        for (unsigned l = 0; l < 64; l++)
            set_addr(2, l, A + 128 + 4 * l);
        CHECK(run_snippet(w, a, "global_load_dword v6, v[2:3], off") == WAVE_FAULT &&
                  w->fault.kind == XF_MEMORY && w->fault.addr == A + 256 &&
                  w->fault.lanes == ~0ull << 32,
              "%s coalesced load past the end: kind %d addr A%+lld lanes %llx", a, w->fault.kind,
              (long long)(w->fault.addr - A), (unsigned long long)w->fault.lanes);
    }
    free(w);
    gmem_destroy(mem);
    return check_summary("vmem_fast");
}
