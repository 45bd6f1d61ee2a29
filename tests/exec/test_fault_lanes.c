/* test_fault_lanes.c - a memory or LDS fault names every lane of the instruction whose access
 * was bad, not only the first one, and follows the rule include/gfxemu.h states for the others:
 * lanes below the first bad lane have been performed, the bad lane and every lane above it have
 * not (no store lands, no register is written).  Snippets assembled by llvm-mc-22; the bad
 * lanes of each case are chosen by hand (scattered, with holes in EXEC). */
#include "common/check.h"
#include "common/snippet.h"
#include "exec/exec.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static gmem *mem;
static uint64_t buf; /* 256 bytes, dword i = 0x1000 + i */
static wave *w;
static uint8_t lds[256];
static uint8_t scratch[64 * 16]; /* 16 private bytes per lane */

static void reset(void) {
    snippet_mem_reset(w, mem, buf, lds, sizeof lds, scratch, sizeof scratch / 64);
}

static uint32_t rd(uint64_t off) {
    uint32_t v = 0;
    gmem_read(mem, buf + off, &v, 4);
    return v;
}

/* Lanes 5, 9, 40 and 63 point 4 KiB past the buffer (9 and 63 are outside EXEC below, so the
 * bad lanes are 5 and 40); every other lane addresses dword lane % 32. */
static const uint64_t bad_addr_lanes = 1ull << 5 | 1ull << 9 | 1ull << 40 | 1ull << 63;
static const uint64_t exec_holes = ~(1ull << 9 | 1ull << 63 | 1ull << 20);
static uint64_t lane_off(unsigned l) {
    return (bad_addr_lanes >> l & 1) ? 4096 + 4 * l : 4 * (l % 32);
}

static void set_vaddr(unsigned r) {
    for (unsigned l = 0; l < 64; l++) {
        uint64_t a = buf + lane_off(l);
        w->v[r][l] = (uint32_t)a;
        w->v[r + 1][l] = (uint32_t)(a >> 32);
    }
}

static void check_fault(const char *what, int kind, uint64_t want, uint64_t addr, int write) {
    CHECK(w->status == WAVE_FAULT && w->fault.kind == kind && w->fault.lanes == want &&
              w->fault.addr == addr && w->fault.write == write,
          "%s: status %d kind %d lanes %#llx (want %#llx) addr %#llx (want %#llx) write %d", what,
          w->status, w->fault.kind, (unsigned long long)w->fault.lanes, (unsigned long long)want,
          (unsigned long long)w->fault.addr, (unsigned long long)addr, w->fault.write);
}

int main(void) {
    mem = gmem_create();
    buf = gmem_alloc(mem, 256, 0);
    w = malloc(sizeof *w);
    const char *arches[] = {"gfx950", "gfx942"};
    const uint64_t want = 1ull << 5 | 1ull << 40;
    for (int ai = 0; ai < 2; ai++) {
        const char *a = arches[ai];
        char what[64];

        /* global store: lanes 0-4 landed (dwords 0-4), lanes from 5 on did not (6, 31). */
        reset();
        set_vaddr(2);
        wave_set_exec(w, exec_holes);
        for (unsigned l = 0; l < 64; l++)
            w->v[4][l] = 0x5000 + l;
        run_snippet(w, a, "global_store_dword v[2:3], v4, off");
        snprintf(what, sizeof what, "%s global_store_dword", a);
        check_fault(what, XF_MEMORY, want, buf + lane_off(5), 1);
        CHECK(rd(0) == 0x5000 && rd(16) == 0x5004 && rd(24) == 0x1006 && rd(124) == 0x101f,
              "%s: dwords 0 4 6 31 = %x %x %x %x (lanes 0-4 land, 6 and 31 not)", what, rd(0),
              rd(16), rd(24), rd(124));

        /* global load: registers of lanes below 5 written, the rest kept. */
        reset();
        set_vaddr(2);
        wave_set_exec(w, exec_holes);
        for (unsigned l = 0; l < 64; l++)
            w->v[6][l] = 0xdead;
        run_snippet(w, a, "global_load_dword v6, v[2:3], off");
        snprintf(what, sizeof what, "%s global_load_dword", a);
        check_fault(what, XF_MEMORY, want, buf + lane_off(5), 0);
        CHECK(w->v[6][4] == 0x1004 && w->v[6][6] == 0xdead && w->v[6][41] == 0xdead,
              "%s: v6 lanes 4 6 41 = %x %x %x", what, w->v[6][4], w->v[6][6], w->v[6][41]);

        /* global atomic: out of range (5, 40) and misaligned (lane 33) lanes are all bad. */
        reset();
        set_vaddr(2);
        wave_set_exec(w, exec_holes);
        w->v[2][33] += 2;
        for (unsigned l = 0; l < 64; l++)
            w->v[4][l] = 1;
        run_snippet(w, a, "global_atomic_add v[2:3], v4, off");
        snprintf(what, sizeof what, "%s global_atomic_add", a);
        check_fault(what, XF_MEMORY, want | 1ull << 33, buf + lane_off(5), 1);
        CHECK(rd(4) == 0x1002 && rd(24) == 0x1006, "%s: dwords 1 6 = %x %x", what, rd(4), rd(24));

        /* scratch: lane 7 and 50 address past their 16 private bytes. */
        reset();
        for (unsigned l = 0; l < 64; l++)
            w->v[1][l] = l == 7 || l == 50 ? 16 : 4;
        run_snippet(w, a, "scratch_load_dword v6, v1, off");
        snprintf(what, sizeof what, "%s scratch_load_dword", a);
        check_fault(what, XF_MEMORY, 1ull << 7 | 1ull << 50, 16, 0);

        /* buffer store through a raw resource: lanes past num_records are dropped (not bad);
         * num_records is huge here, so lanes 3 and 60 reach past the allocation.  The same
         * through a format store (dword 3: DATA_FORMAT 32, NUM_FORMAT UINT). */
        static const struct {
            const char *op;
            uint32_t dword3;
        } stores[] = {{"buffer_store_dword", 0}, {"buffer_store_format_x", 4u << 15 | 4u << 12}};
        for (int k = 0; k < 2; k++) {
            char text[64];
            reset();
            snippet_set_rsrc(w, 4, buf, 0, 0xffffffff, stores[k].dword3);
            for (unsigned l = 0; l < 64; l++)
                w->v[1][l] = l == 3 || l == 60 ? 0x10000 : 4 * (l % 32);
            snprintf(text, sizeof text, "%s v1, v1, s[4:7], 0 offen", stores[k].op);
            run_snippet(w, a, text);
            snprintf(what, sizeof what, "%s %s", a, stores[k].op);
            check_fault(what, XF_MEMORY, 1ull << 3 | 1ull << 60, buf + 0x10000, 1);
        }

        /* load into LDS: lane l writes LDS at M0 + 4 l; from lane 62 on it is past 256 bytes.
         * Out-of-range LDS accesses are LDS faults under memcheck only (the hardware reads 0 and
         * drops writes: test_lds.c, test_vmem.c), so the LDS cases run with it. */
        reset();
        w->mc = snippet_memcheck();
        w->s[124] = 8;
        for (unsigned l = 0; l < 64; l++) {
            uint64_t ad = buf + 4 * (l % 32);
            w->v[2][l] = (uint32_t)ad;
            w->v[3][l] = (uint32_t)(ad >> 32);
        }
        run_snippet(w, a, "global_load_lds_dword v[2:3], off");
        snprintf(what, sizeof what, "%s global_load_lds_dword", a);
        check_fault(what, XF_LDS, 3ull << 62, 8 + 62 * 4, 1);

        /* LDS: lanes 11 and 45 address past 256 bytes. */
        reset();
        w->mc = snippet_memcheck();
        wave_set_exec(w, exec_holes);
        for (unsigned l = 0; l < 64; l++) {
            w->v[1][l] = l == 11 || l == 45 || l == 20 ? 256 : 4 * (l % 32);
            w->v[4][l] = 0x300 + l;
        }
        run_snippet(w, a, "ds_write_b32 v1, v4");
        snprintf(what, sizeof what, "%s ds_write_b32", a);
        check_fault(what, XF_LDS, 1ull << 11 | 1ull << 45, 256, 1);
        uint32_t d10, d12;
        memcpy(&d10, lds + 40, 4);
        memcpy(&d12, lds + 48, 4);
        CHECK(d10 == 0x30a && d12 == 0, "%s: LDS dwords 10 12 = %x %x", what, d10, d12);
        w->status = WAVE_RUNNING;
        run_snippet(w, a, "ds_read_b32 v6, v1");
        snprintf(what, sizeof what, "%s ds_read_b32", a);
        check_fault(what, XF_LDS, 1ull << 11 | 1ull << 45, 256, 0);
        w->status = WAVE_RUNNING;
        run_snippet(w, a, "ds_add_u32 v1, v4");
        snprintf(what, sizeof what, "%s ds_add_u32", a);
        check_fault(what, XF_LDS, 1ull << 11 | 1ull << 45, 256, 1);
        /* two-address form: lane 30's second element (v1 + 8) is past the end as well */
        w->status = WAVE_RUNNING;
        w->v[1][30] = 248;
        run_snippet(w, a, "ds_read2_b32 v[6:7], v1 offset1:2");
        snprintf(what, sizeof what, "%s ds_read2_b32", a);
        check_fault(what, XF_LDS, 1ull << 11 | 1ull << 30 | 1ull << 45, 256, 0);
        if (ai == 0) {
            w->status = WAVE_RUNNING;
            w->v[1][30] = 0;
            run_snippet(w, a, "ds_read_b64_tr_b16 v[6:7], v1");
            snprintf(what, sizeof what, "%s ds_read_b64_tr_b16", a);
            check_fault(what, XF_LDS, 1ull << 11 | 1ull << 45, 256, 0);
        }
    }
    free(w);
    gmem_destroy(mem);
    return check_summary("fault_lanes");
}
