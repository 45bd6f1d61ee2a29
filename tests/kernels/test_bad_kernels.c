/* test_bad_kernels.c - kernels that fault (tests/kernels/bad.cl), compiled by clang-22 for gfx950
 * and gfx942 at -O0, -O1 and -O3 and launched through the public API: an out-of-bounds store, an
 * out-of-bounds load, an illegal word, a valid instruction gfxemu does not implement, s_trap and
 * an endless loop.  Each launch must return GFX_ERR_FAULT with the right fault record (kind,
 * kernel, pc and the instruction there, address, size, direction, lanes), stop after a bounded
 * number of instructions, and leave the device usable: a good kernel launched next on the same
 * device must produce the right results and clear the fault. */
#include "common/check.h"
#include "common/kernels.h"
#include "gfxemu.h"

#include <stdint.h>
#include <stdio.h>
#include <string.h>

/* Launch `name` with params; return the launch result and fill *f and *st. */
static gfx_result run(const char *name, uint32_t groups, const void *const *params, size_t n,
                      uint64_t max_insts, gfx_fault *f, gfx_stats *st) {
    const gfx_kernel *k;
    uint32_t grid[3] = {groups, 1, 1}, blk[3] = {64, 1, 1};
    gfx_launch_options o = {.max_insts = max_insts};
    memset(f, 0, sizeof *f);
    memset(st, 0, sizeof *st);
    if (gfx_module_kernel(kt.mod, name, &k) != GFX_OK) {
        CHECK(0, "%s %s: kernel not found", kt.tag, name);
        return GFX_ERR_NOT_FOUND;
    }
    gfx_result r = gfx_launch_params(kt.dev, k, grid, blk, params, n, &o, st);
    gfx_last_fault(kt.dev, f);
    return r;
}

/* The good kernel on the same device: right results, and no fault left over. */
static void check_good_after(const char *after) {
    static int32_t out[128];
    uint64_t d = kt_upload(NULL, sizeof out);
    const void *p[] = {&d};
    gfx_fault f;
    gfx_stats st;
    gfx_result r = run("good", 2, p, 1, 0, &f, &st);
    CHECK(r == GFX_OK, "%s good after %s: %s (%s)", kt.tag, after, gfx_result_str(r), f.message);
    gfx_memcpy_dtoh(kt.dev, out, d, sizeof out);
    int bad = 0;
    for (int i = 0; i < 128; i++)
        bad += out[i] != i * 3 + 1;
    CHECK(bad == 0, "%s good after %s: %d wrong", kt.tag, after, bad);
    CHECK(f.kind == GFX_FAULT_NONE && gfx_device_error(kt.dev)[0] == 0,
          "%s good after %s: fault record not cleared (kind %d, '%s')", kt.tag, after, f.kind,
          gfx_device_error(kt.dev));
    gfx_buffer_free(kt.dev, d);
}

/* The parts of a fault record every kind shares: kind, kernel, workgroup/wave, a pc inside .text
 * where the recorded instruction text is what gfx_disasm() says is there, a one-line message that
 * names the kind, and a bounded instruction count. */
static void check_common(const char *name, gfx_result r, const gfx_fault *f, gfx_fault_kind kind,
                         const char *op, uint64_t max_insts) {
    CHECK(r == GFX_ERR_FAULT, "%s %s: launch returned %s, want a fault", kt.tag, name,
          gfx_result_str(r));
    CHECK(f->kind == kind, "%s %s: fault kind %s, want %s (%s)", kt.tag, name,
          gfx_fault_kind_name(f->kind), gfx_fault_kind_name(kind), f->message);
    CHECK(strcmp(f->kernel, name) == 0, "%s %s: fault names kernel '%s'", kt.tag, name, f->kernel);
    CHECK(f->workgroup[0] == 0 && f->workgroup[1] == 0 && f->workgroup[2] == 0 && f->wave == 0,
          "%s %s: fault in workgroup (%u,%u,%u) wave %u", kt.tag, name, f->workgroup[0],
          f->workgroup[1], f->workgroup[2], f->wave);
    uint64_t base;
    size_t size;
    const uint8_t *text = gfx_module_text(kt.mod, &base, &size);
    char dis[GFX_DISASM_MAX] = "";
    int in_text = f->pc >= base && f->pc + 4 <= base + size;
    if (in_text)
        gfx_disasm(gfx_module_arch(kt.mod), text + (f->pc - base), size - (f->pc - base), dis,
                   sizeof dis);
    CHECK(in_text && strcmp(dis, f->disasm) == 0, "%s %s: pc %#llx holds '%s', the fault says '%s'",
          kt.tag, name, (unsigned long long)f->pc, dis, f->disasm);
    CHECK(strncmp(f->disasm, op, strlen(op)) == 0 &&
              (f->op[0] == 0 || strncmp(f->op, op, strlen(f->op)) == 0),
          "%s %s: faulting instruction '%s' (op '%s'), want '%s'", kt.tag, name, f->disasm, f->op,
          op);
    CHECK(f->message[0] && !strchr(f->message, '\n') &&
              strstr(f->message, gfx_fault_kind_name(kind)),
          "%s %s: message '%s'", kt.tag, name, f->message);
    /* "quickly": the wave stops at the bad instruction, not after the budget */
    CHECK(f->wave_insts > 0 && f->wave_insts <= max_insts,
          "%s %s: %llu wave-instructions before the fault", kt.tag, name,
          (unsigned long long)f->wave_insts);
}

/* Launch one workgroup of `name` that must fault with `kind` at `op` within 5000
 * wave-instructions (check_common); *f receives the fault record. */
static void run_faulting(const char *name, const void *const *params, size_t n, gfx_fault_kind kind,
                         const char *op, gfx_fault *f) {
    gfx_stats st;
    gfx_result r = run(name, 1, params, n, 0, f, &st);
    check_common(name, r, f, kind, op, 5000);
}

static void t_oob_store(void) {
    int32_t out[16];
    memset(out, 0, sizeof out);
    uint64_t d = kt_upload(out, sizeof out);
    const void *p[] = {&d};
    gfx_fault f;
    run_faulting("oob_store", p, 1, GFX_FAULT_MEMORY, "global_store_dword", &f);
    CHECK(f.addr == d + (1ull << 30) && f.size == 4 && f.write == 1,
          "%s oob_store: addr %#llx (buffer %#llx) size %u write %d", kt.tag,
          (unsigned long long)f.addr, (unsigned long long)d, f.size, f.write);
    /* gfxemu.h promises "the lanes whose access was bad": lanes 1-63, all of them */
    CHECK(f.lanes == ~1ull, "%s oob_store: bad lanes %#llx, want 1-63", kt.tag,
          (unsigned long long)f.lanes);
    check_good_after("oob_store");
}

static void t_oob_load(void) {
    int32_t in[64];
    memset(in, 0, sizeof in);
    uint64_t din = kt_upload(in, sizeof in), dout = kt_upload(NULL, sizeof in);
    int64_t off = 1ll << 34; /* 64 GiB past the buffer */
    const void *p[] = {&dout, &din, &off};
    gfx_fault f;
    run_faulting("oob_load", p, 3, GFX_FAULT_MEMORY, "global_load_dword", &f);
    CHECK(f.addr == din + 4 * (uint64_t)off && f.size == 4 && f.write == 0,
          "%s oob_load: addr %#llx (want %#llx) size %u write %d", kt.tag,
          (unsigned long long)f.addr, (unsigned long long)(din + 4 * (uint64_t)off), f.size,
          f.write);
    CHECK(f.lanes == ~0ull, "%s oob_load: bad lanes %#llx, want all 64", kt.tag,
          (unsigned long long)f.lanes);
    check_good_after("oob_load");
}

static void t_illegal(void) {
    uint64_t d = kt_upload(NULL, 256);
    const void *p[] = {&d};
    gfx_fault f;
    run_faulting("illegal_word", p, 1, GFX_FAULT_ILLEGAL, "<illegal 0xbfff0000>", &f);
    int32_t out[64];
    gfx_memcpy_dtoh(kt.dev, out, d, sizeof out);
    CHECK(out[0] == 1 && out[63] == 1, "%s illegal_word: the code after the word ran (%d)", kt.tag,
          out[0]);
    check_good_after("illegal_word");
}

static void t_unimplemented(void) {
    uint64_t d = kt_upload(NULL, 256);
    const void *p[] = {&d};
    gfx_fault f;
    run_faulting("unimplemented", p, 1, GFX_FAULT_UNIMPLEMENTED, "s_rfe_restore_b64", &f);
    CHECK(strcmp(f.op, "s_rfe_restore_b64") == 0, "%s unimplemented: op '%s'", kt.tag, f.op);
    check_good_after("unimplemented");
}

static void t_trap(void) {
    int32_t out[64] = {5};
    uint64_t d = kt_upload(out, sizeof out);
    int n = 0;
    const void *p[] = {&d, &n};
    gfx_fault f;
    run_faulting("trap", p, 2, GFX_FAULT_TRAP, "s_trap 2", &f);
    /* the same kernel without the trapping value runs to the end */
    n = 1;
    gfx_stats st;
    gfx_result r = run("trap", 1, p, 2, 0, &f, &st);
    gfx_memcpy_dtoh(kt.dev, out, d, sizeof out);
    CHECK(r == GFX_OK && out[0] == 3 && out[63] == 3, "%s trap not taken: %s, out %d", kt.tag,
          gfx_result_str(r), out[0]);
    check_good_after("trap");
}

static void t_spin(void) {
    uint64_t d = kt_upload(NULL, 64);
    int n = 0;
    const void *p[] = {&d, &n};
    gfx_fault f;
    gfx_stats st;
    const uint64_t budget = 200000;
    gfx_result r = run("spin", 1, p, 2, budget, &f, &st);
    CHECK(r == GFX_ERR_FAULT && f.kind == GFX_FAULT_WATCHDOG, "%s spin: %s, fault %s", kt.tag,
          gfx_result_str(r), gfx_fault_kind_name(f.kind));
    /* stopped at the budget, give or take one scheduling slice */
    CHECK(f.wave_insts >= budget && f.wave_insts <= 2 * budget,
          "%s spin: %llu wave-instructions for a budget of %llu", kt.tag,
          (unsigned long long)f.wave_insts, (unsigned long long)budget);
    CHECK(strstr(f.message, "watchdog") != NULL && strcmp(f.kernel, "spin") == 0,
          "%s spin: message '%s'", kt.tag, f.message);
    check_good_after("spin");
}

int main(void) {
    static const kt_test tests[] = {t_oob_store,     t_oob_load, t_illegal,
                                    t_unimplemented, t_trap,     t_spin};
    if (kt_run_all("bad", "", tests, sizeof tests / sizeof tests[0]))
        return 1;
    return check_summary("bad_kernels");
}
