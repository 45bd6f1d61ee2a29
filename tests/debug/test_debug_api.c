/* test_debug_api.c - the debugging C API: lockstep single waves built from llvm-mc-22 snippets
 * (registers, steps, snapshots, faults, barriers) and debug sessions on a clang-22 kernel
 * (breakpoints with hit counts, stepping, register reads and writes, kill, stats).  Expected
 * values come from host arithmetic on the inputs, never from gfxemu runs. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "common/asm.h"
#include "common/check.h"
#include "common/util.h"
#include "gfxemu.h"

static gfx_wave_snapshot snap; /* 128 KiB: not on the stack */

static gfx_wave *make_wave(gfx_device *dev, const char *text) {
    size_t n = 0;
    uint8_t *code = asm_snippet("gfx950", text, &n);
    gfx_wave *w = NULL;
    CHECK(code && gfx_wave_create(dev, GFX_ARCH_GFX950, code, n, 0x1000, 1024, &w) == GFX_OK,
          "create a wave for '%s'", text);
    free(code);
    return w;
}

static void test_lockstep(void) {
    gfx_wave *w = make_wave(NULL, "s_mov_b32 s4, 7\n"
                                  "v_add_u32_e32 v2, s4, v0\n"
                                  "v_cmp_gt_u32_e32 vcc, 5, v0\n"
                                  "s_barrier\n"
                                  "s_add_u32 s5, s4, 3\n"
                                  "s_endpgm");
    if (!w)
        return;
    for (unsigned l = 0; l < 64; l++)
        CHECK(gfx_wave_set(w, GFX_REG_VGPR, 0, l, l) == GFX_OK, "set v0[%u]", l);
    CHECK(gfx_wave_set(w, GFX_REG_VGPR, 256, 0, 0) == GFX_ERR_INVALID, "v256 is out of range");
    CHECK(gfx_wave_set(w, GFX_REG_VGPR, 0, 64, 0) == GFX_ERR_INVALID, "lane 64 is out of range");

    gfx_wave_state st;
    CHECK(gfx_wave_step(w, &st) == GFX_OK && st == GFX_WAVE_RUNNING, "step 1");
    gfx_wave_snapshot_get(w, &snap);
    CHECK(snap.sgpr[4] == 7, "s4 = %u", snap.sgpr[4]);
    CHECK(snap.pc == 0x1004, "pc 0x%llx after a 4-byte s_mov_b32", (unsigned long long)snap.pc);
    CHECK(snap.insts == 1 && snap.exec == ~0ull, "insts %llu", (unsigned long long)snap.insts);

    CHECK(gfx_wave_step(w, &st) == GFX_OK, "step 2");
    gfx_wave_snapshot_get(w, &snap);
    int bad = 0;
    for (unsigned l = 0; l < 64; l++)
        bad += snap.vgpr[2][l] != l + 7;
    CHECK(bad == 0, "v2 = v0 + 7 in every lane (%d wrong)", bad);

    CHECK(gfx_wave_step(w, &st) == GFX_OK, "step 3");
    uint64_t vcc = 0;
    gfx_wave_get(w, GFX_REG_VCC, 0, 0, &vcc);
    CHECK(vcc == 0x1f, "vcc = lanes where 5 > lane: 0x%llx", (unsigned long long)vcc);

    CHECK(gfx_wave_step(w, &st) == GFX_OK && st == GFX_WAVE_BARRIER, "s_barrier: state %d", st);
    CHECK(gfx_wave_step(w, &st) == GFX_OK && st == GFX_WAVE_RUNNING, "past the barrier");
    uint64_t s5 = 0, scc = 9;
    gfx_wave_get(w, GFX_REG_SGPR, 5, 0, &s5);
    gfx_wave_get(w, GFX_REG_SCC, 0, 0, &scc);
    CHECK(s5 == 10 && scc == 0, "s5 = %llu scc = %llu", (unsigned long long)s5,
          (unsigned long long)scc);
    CHECK(gfx_wave_step(w, &st) == GFX_ERR_INVALID && st == GFX_WAVE_DONE, "s_endpgm ends it");
    gfx_wave_free(w);

    /* Partial EXEC: lanes outside keep their old value. */
    w = make_wave(NULL, "v_mov_b32_e32 v1, 5\ns_endpgm");
    if (!w)
        return;
    gfx_wave_set(w, GFX_REG_EXEC, 0, 0, 0x8000000000000003ull);
    for (unsigned l = 0; l < 64; l++)
        gfx_wave_set(w, GFX_REG_VGPR, 1, l, 100 + l);
    gfx_wave_step(w, NULL);
    gfx_wave_snapshot_get(w, &snap);
    bad = 0;
    for (unsigned l = 0; l < 64; l++)
        bad += snap.vgpr[1][l] != ((l < 2 || l == 63) ? 5 : 100 + l);
    CHECK(bad == 0, "v_mov under EXEC 0x8000000000000003 (%d lanes wrong)", bad);
    gfx_wave_free(w);

    /* A load from an address no buffer holds faults with the address and pc. */
    w = make_wave(NULL, "global_load_dword v1, v[2:3], off\ns_endpgm");
    if (!w)
        return;
    for (unsigned l = 0; l < 64; l++)
        gfx_wave_set(w, GFX_REG_VGPR, 2, l, 0x1234 + 4 * l);
    CHECK(gfx_wave_step(w, &st) == GFX_ERR_FAULT && st == GFX_WAVE_FAULT, "bad load faults");
    gfx_wave_snapshot_get(w, &snap);
    CHECK(snap.fault == GFX_FAULT_MEMORY && snap.fault_addr == 0x1234 && snap.fault_pc == 0x1000 &&
              snap.fault_size == 4 && !snap.fault_write && (snap.fault_lanes & 1),
          "fault %d at 0x%llx pc 0x%llx", snap.fault, (unsigned long long)snap.fault_addr,
          (unsigned long long)snap.fault_pc);
    CHECK(gfx_wave_step(w, NULL) == GFX_ERR_FAULT, "a faulted wave stays faulted");
    gfx_wave_free(w);

    /* Stepping honours VSKIP like wave_run(): vector instructions between s_setvskip 1 and
     * s_setvskip 0 are not executed (the step loop used to run them). */
    w = make_wave(NULL, "s_mov_b32 s0, 1\n"
                        "s_setvskip s0, 0\n"
                        "v_mov_b32 v1, 7\n"
                        "s_setvskip 0, 0\n"
                        "v_mov_b32 v2, 9\n"
                        "s_endpgm");
    if (w) {
        for (int i = 0; i < 5; i++)
            CHECK(gfx_wave_step(w, NULL) == GFX_OK, "vskip step %d", i);
        uint64_t v1 = 1, v2 = 0;
        gfx_wave_get(w, GFX_REG_VGPR, 1, 0, &v1);
        gfx_wave_get(w, GFX_REG_VGPR, 2, 0, &v2);
        CHECK(v1 == 0 && v2 == 9, "vskip under stepping: v1 %llu (want 0), v2 %llu (want 9)",
              (unsigned long long)v1, (unsigned long long)v2);
        gfx_wave_free(w);
    }

    /* With a device: loads read its buffers; LDS reads and writes through gfx_wave_lds. */
    gfx_device *dev = NULL;
    uint64_t buf = 0;
    uint32_t data[64];
    for (unsigned l = 0; l < 64; l++)
        data[l] = 3 * l + 11;
    if (gfx_device_create(GFX_ARCH_GFX950, 1, &dev) != GFX_OK ||
        gfx_buffer_alloc(dev, sizeof data, &buf) != GFX_OK ||
        gfx_memcpy_htod(dev, buf, data, sizeof data) != GFX_OK) {
        CHECK(0, "device set-up");
        gfx_device_free(dev);
        return;
    }
    w = make_wave(dev, "global_load_dword v1, v[2:3], off\n"
                       "s_waitcnt vmcnt(0)\n"
                       "ds_write_b32 v4, v1\n"
                       "s_endpgm");
    if (w) {
        for (unsigned l = 0; l < 64; l++) {
            gfx_wave_set(w, GFX_REG_VGPR, 2, l, (uint32_t)(buf + 4 * l));
            gfx_wave_set(w, GFX_REG_VGPR, 3, l, (uint32_t)((buf + 4 * l) >> 32));
            gfx_wave_set(w, GFX_REG_VGPR, 4, l, 4 * (63 - l));
        }
        for (int i = 0; i < 3; i++)
            CHECK(gfx_wave_step(w, NULL) == GFX_OK, "step %d", i);
        gfx_wave_snapshot_get(w, &snap);
        bad = 0;
        for (unsigned l = 0; l < 64; l++)
            bad += snap.vgpr[1][l] != 3 * l + 11;
        CHECK(bad == 0, "global_load_dword read the buffer (%d lanes wrong)", bad);
        uint32_t lds[64];
        CHECK(gfx_wave_lds(w, 0, lds, sizeof lds, 0) == GFX_OK, "read LDS");
        CHECK(lds[0] == 3 * 63 + 11 && lds[63] == 11, "LDS reversed: %u %u", lds[0], lds[63]);
        CHECK(gfx_wave_lds(w, 1020, lds, 8, 0) == GFX_ERR_INVALID, "LDS bounds");
        gfx_wave_free(w);
    }
    /* A wave without LDS: an empty access is fine (no memcpy from NULL: UBSan, found by
     * fuzz_debug_cli's `lds 0 0`), any byte is outside. */
    size_t cn = 0;
    uint8_t *code = asm_snippet("gfx950", "s_endpgm", &cn);
    w = NULL;
    if (code && gfx_wave_create(dev, GFX_ARCH_GFX950, code, cn, 0x1000, 0, &w) == GFX_OK) {
        uint8_t b[4];
        CHECK(gfx_wave_lds(w, 0, b, 0, 0) == GFX_OK && gfx_wave_lds(w, 0, b, 0, 1) == GFX_OK,
              "empty LDS access without LDS");
        CHECK(gfx_wave_lds(w, 0, b, 4, 0) == GFX_ERR_INVALID, "no LDS bytes");
        gfx_wave_free(w);
    } else {
        CHECK(0, "create a wave without LDS");
    }
    free(code);
    gfx_device_free(dev);
}

/* ---- sessions -------------------------------------------------------------------------------- */

enum { N_WG = 3, A = 5 };

typedef struct {
    uint64_t store_pc; /* global_store_dword of axpy */
    unsigned data_reg; /* its data VGPR */
    int stops, bp_stops, step_stops, entry_stops;
    int steps_left;
    int bad_values;
    uint64_t last_hits;
    int kill_at_entry;
} ctx;

static gfx_resume on_stop(gfx_debug_session *s, const gfx_stop *st, void *user) {
    ctx *c = user;
    c->stops++;
    if (st->reason == GFX_STOP_ENTRY) {
        c->entry_stops++;
        return (gfx_resume){c->kill_at_entry ? GFX_RESUME_KILL : GFX_RESUME_CONTINUE, 0};
    }
    gfx_wave *w = gfx_debug_wave(s, st->wave);
    gfx_wave_info info[4];
    CHECK(gfx_debug_waves(s, info, 4) == 1 && info[0].state == GFX_WAVE_RUNNING,
          "one running wave per workgroup");
    if (st->reason == GFX_STOP_STEP) {
        c->step_stops++;
        CHECK(st->pc == c->store_pc + 8, "a step moves past the 8-byte store: pc 0x%llx",
              (unsigned long long)st->pc);
        return (gfx_resume){GFX_RESUME_CONTINUE, 0};
    }
    CHECK(st->reason == GFX_STOP_BREAKPOINT && st->pc == c->store_pc, "stop %d at 0x%llx",
          st->reason, (unsigned long long)st->pc);
    c->bp_stops++;
    c->last_hits = st->hits;
    CHECK(st->hits == (uint64_t)c->bp_stops && st->workgroup[0] == (uint32_t)c->bp_stops - 1,
          "hit %llu in workgroup %u", (unsigned long long)st->hits, st->workgroup[0]);
    for (unsigned l = 0; l < 64; l++) {
        uint64_t v = 0;
        uint32_t i = st->workgroup[0] * 64 + l;
        gfx_wave_get(w, GFX_REG_VGPR, c->data_reg, l, &v);
        c->bad_values += v != (uint32_t)(A * (int)i + 1000 + (int)i);
    }
    if (st->workgroup[0] == 1) /* change what workgroup 1 lane 3 stores */
        gfx_wave_set(w, GFX_REG_VGPR, c->data_reg, 3, 12345);
    if (st->workgroup[0] == 0)
        return (gfx_resume){GFX_RESUME_STEP, 1};
    return (gfx_resume){GFX_RESUME_CONTINUE, 0};
}

static gfx_resume count_stop(gfx_debug_session *s, const gfx_stop *st, void *user) {
    (void)s;
    CHECK(st->reason == GFX_STOP_BREAKPOINT && st->workgroup[0] == 2 && st->wave == 0,
          "stop %d in workgroup %u", st->reason, st->workgroup[0]);
    ++*(int *)user;
    return (gfx_resume){GFX_RESUME_CONTINUE, 0};
}

static void test_session(void) {
    char dir[512], co[600];
    snprintf(dir, sizeof dir, "%s/test-data/debug_api", test_build_dir());
    snprintf(co, sizeof co, "%s/k.co", dir);
    /* tests/common/kbuild.sh: built again only when out of date */
    test_sh("bash tests/common/kbuild.sh co %s -x cl -cl-std=CL2.0 -target amdgcn-amd-amdhsa "
            "-mcpu=gfx950 -nogpulib -O2 tests/debug/kernels.cl 2>/dev/null",
            co);
    gfx_module *m = NULL;
    const gfx_kernel *k = NULL;
    gfx_device *dev = NULL;
    char err[256];
    if (gfx_module_load_file(co, &m, err, sizeof err) != GFX_OK ||
        gfx_module_kernel(m, "axpy", &k) != GFX_OK ||
        gfx_device_create(GFX_ARCH_GFX950, 2, &dev) != GFX_OK) {
        CHECK(0, "set-up: %s", err);
        return;
    }
    ctx c;
    memset(&c, 0, sizeof c);
    /* Find the kernel's global_store_dword and its data register with the disassembler. */
    gfx_kernel_info ki;
    gfx_kernel_get_info(k, &ki);
    uint64_t text_addr;
    size_t text_size;
    const uint8_t *text = gfx_module_text(m, &text_addr, &text_size);
    for (uint64_t pc = ki.entry; pc < text_addr + text_size;) {
        char t[GFX_DISASM_MAX];
        size_t n = gfx_disasm(GFX_ARCH_GFX950, text + (pc - text_addr),
                              text_size - (pc - text_addr), t, sizeof t);
        if (strncmp(t, "global_store_dword ", 19) == 0) {
            const char *comma = strchr(t, ',');
            c.store_pc = pc;
            c.data_reg = comma ? (unsigned)atoi(comma + 3) : 0; /* ", vN" */
            break;
        }
        pc += n;
    }
    CHECK(c.store_pc != 0, "axpy has a global_store_dword");

    int32_t x[N_WG * 64], y[N_WG * 64], out[N_WG * 64];
    for (int i = 0; i < N_WG * 64; i++)
        x[i] = i, y[i] = 1000 + i;
    uint64_t bx, by, bo;
    gfx_buffer_alloc(dev, sizeof x, &bx);
    gfx_buffer_alloc(dev, sizeof y, &by);
    gfx_buffer_alloc(dev, sizeof out, &bo);
    gfx_memcpy_htod(dev, bx, x, sizeof x);
    gfx_memcpy_htod(dev, by, y, sizeof y);
    int a = A;
    const void *params[] = {&bo, &bx, &by, &a};
    uint8_t kargs[32] = {0};
    for (int i = 0; i < 4; i++) {
        gfx_arg_info ai;
        gfx_kernel_arg(k, (size_t)i, &ai);
        memcpy(kargs + ai.offset, params[i], ai.size);
    }
    uint32_t grid[3] = {N_WG, 1, 1}, block[3] = {64, 1, 1};

    gfx_stats plain, dbg;
    CHECK(gfx_launch(dev, k, grid, block, kargs, sizeof kargs, NULL, &plain) == GFX_OK,
          "plain launch");

    gfx_debug_session *s = NULL;
    CHECK(gfx_debug_create(dev, &s) == GFX_OK, "create a session");
    gfx_breakpoint bp = {c.store_pc, k, {-1, -1, -1}, -1};
    int id = 0;
    CHECK(gfx_debug_break(s, &bp, &id) == GFX_OK && id == 1, "breakpoint id %d", id);
    gfx_debug_set_handler(s, on_stop, &c, 1);
    CHECK(gfx_debug_launch(s, k, grid, block, kargs, sizeof kargs, NULL, &dbg) == GFX_OK,
          "debug launch: %s", gfx_device_error(dev));
    CHECK(c.entry_stops == 1 && c.bp_stops == N_WG && c.step_stops == 1,
          "stops: entry %d, breakpoint %d, step %d", c.entry_stops, c.bp_stops, c.step_stops);
    CHECK(gfx_debug_hits(s, id) == N_WG, "hits %llu", (unsigned long long)gfx_debug_hits(s, id));
    CHECK(c.bad_values == 0, "%d store values differ from a * x + y", c.bad_values);
    CHECK(dbg.wave_insts == plain.wave_insts && dbg.valu == plain.valu && dbg.threads == 1,
          "same counts as a plain launch: %llu vs %llu", (unsigned long long)dbg.wave_insts,
          (unsigned long long)plain.wave_insts);
    gfx_memcpy_dtoh(dev, out, bo, sizeof out);
    int bad = 0;
    for (int i = 0; i < N_WG * 64; i++)
        bad += out[i] != (i == 67 ? 12345 : A * i + 1000 + i);
    CHECK(bad == 0, "results, with the value set in the debugger (%d wrong)", bad);

    /* A breakpoint limited to workgroup 2 stops once. */
    gfx_debug_delete(s, 0);
    gfx_breakpoint bp2 = {c.store_pc, NULL, {2, 0, 0}, 0};
    gfx_debug_break(s, &bp2, &id);
    int stops = 0;
    gfx_debug_set_handler(s, count_stop, &stops, 0);
    CHECK(gfx_debug_launch(s, k, grid, block, kargs, sizeof kargs, NULL, NULL) == GFX_OK,
          "filtered launch");
    CHECK(stops == 1 && gfx_debug_hits(s, id) == 1, "workgroup filter: %d stops", stops);

    /* Kill at entry: GFX_ERR_STOPPED, and the device runs the next launch normally. */
    c.kill_at_entry = 1;
    gfx_debug_set_handler(s, on_stop, &c, 1);
    CHECK(gfx_debug_launch(s, k, grid, block, kargs, sizeof kargs, NULL, NULL) == GFX_ERR_STOPPED,
          "kill");
    CHECK(gfx_launch(dev, k, grid, block, kargs, sizeof kargs, NULL, NULL) == GFX_OK,
          "the device still works");
    gfx_debug_free(s);
    gfx_device_free(dev);
    gfx_module_free(m);
}

int main(void) {
    test_lockstep();
    test_session();
    return check_summary("test_debug_api");
}
