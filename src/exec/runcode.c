/* runcode.c - straight-line runs as x86-64 code that calls each instruction's handler directly.
 *
 * wave_run() (exec.c) runs a straight-line run by calling x->fn through one indirect call site
 * for every instruction (run_straight()).  The host predicts the target of that site from its
 * recent branches, and the handlers' own loops (a lane loop, an MFMA's tiles) fill that history,
 * so about every other dispatch went to a mispredicted target: in a GEMM's K loop the wave loop's
 * own instructions were an eighth of the time.  Here every run of a program (fast tier, native
 * blocks on: x_jit_enabled()) becomes a sequence of calls with the handler and the instruction as
 * constants, one call site per instruction, each predicted by the host on its own.  The code does
 * exactly what run_straight() does, in the same order:
 *
 *   - where a native block starts (x->jit): x_jit_which()'s tests of the block as compares
 *     (may_inline), and when one fails a call of x_runcode_which() (the block, its alt or
 *     neither); the block's code, its deferred handlers and MFMAs (block_calls), a status test
 *     (a stop leaves through x_runcode_jstop()) and a jump past the block; when neither may
 *     run, the instruction's own handler, as below;
 *   - any other instruction but the run's last calls its handler, then tests the status: a
 *     stopped wave leaves through x_runcode_stop() (the pc past the instruction, the rest of the
 *     run taken back from the counts, their number given back to the budget);
 *   - the run's last instruction stores the pc past itself and calls its handler; then, while
 *     the wave runs at a pc the code knows (past it, or its branch target), the code starts
 *     that run as wave_run() would (chain()), else it returns to wave_run().
 *
 * A run may be entered at any of its instructions (a branch target, a wave resumed after a
 * barrier), so each instruction's code is an entry (xinst.tc), and the runs of the program are
 * laid out one after another, each ending at its last instruction.  xprog.rc_enter (the first
 * bytes of the code) keeps the wave in rbx and the budget's address in r12 and jumps to the
 * entry.  OPCOV builds (which count every instruction) and GFXEMU_RUNCODE=0 keep the loop. */
#include "exec/exec.h"
#include "exec/jit.h"

#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>

typedef struct rbuf {
    uint8_t *b;
    size_t len, cap;
    int fail;
} rbuf;

static void put(rbuf *r, const void *p, size_t n) {
    if (r->len + n > r->cap) {
        size_t cap = r->cap * 2 + n + 4096;
        uint8_t *b = realloc(r->b, cap);
        if (!b) {
            r->fail = 1;
            return;
        }
        r->b = b, r->cap = cap;
    }
    memcpy(r->b + r->len, p, n);
    r->len += n;
}
static void put1(rbuf *r, uint8_t v) { put(r, &v, 1); }
static void put4(rbuf *r, uint32_t v) { put(r, &v, 4); }
static void put8(rbuf *r, uint64_t v) { put(r, &v, 8); }
static void bytes(rbuf *r, const char *s, size_t n) { put(r, s, n); }

/* fn(wave = rbx, x): mov rdi, rbx; mov rsi, x; mov rax, fn; call rax (one target per site) */
static void call2(rbuf *r, const void *fn, const xinst *x) {
    bytes(r, "\x48\x89\xdf\x48\xbe", 5);
    put8(r, (uint64_t)(uintptr_t)x);
    bytes(r, "\x48\xb8", 2);
    put8(r, (uint64_t)(uintptr_t)fn);
    bytes(r, "\xff\xd0", 2);
}
/* jcc rel32 (cc: the second opcode byte; 0xe9 alone: jmp) whose target is patched later: the
 * offset of its rel32 */
static size_t jump(rbuf *r, uint8_t cc) {
    if (cc == 0xe9)
        put1(r, 0xe9);
    else
        put1(r, 0x0f), put1(r, cc);
    size_t at = r->len;
    put4(r, 0);
    return at;
}
static void aim(rbuf *r, size_t at, size_t to) {
    if (r->fail)
        return;
    int32_t rel = (int32_t)((int64_t)to - (int64_t)(at + 4));
    memcpy(r->b + at, &rel, 4);
}

/* A native block as x_jit_exec() runs it: its code, then the deferred scalar ops' handlers and
 * the MFMAs', each called at a site of its own. */
static void block_calls(rbuf *r, const xjit *j) {
    bytes(r, "\x48\x89\xdf\x48\xb8", 5); /* mov rdi, rbx; mov rax, code; call rax */
    put8(r, (uint64_t)(uintptr_t)j->code);
    bytes(r, "\xff\xd0", 2);
    for (unsigned i = 0; i < j->ndefer; i++)
        call2(r, (const void *)j->defer[i]->fn, j->defer[i]);
    for (unsigned i = 0; i < j->nvdefer; i++)
        call2(r, (const void *)j->vdefer[i]->fn, j->vdefer[i]);
}

/* x_jit_which()'s answer 1 for the block at x as tests in the code, each a jcc to patch (in
 * slow[]) taken when it fails: the wave's EXEC all ones (a wave64 program's block with lanes),
 * MODE's f32 denormal bits and IEEE bit as the block needs them, and for a block with memory
 * instructions memcheck off and the block's first instruction not marked as gathering (nolin
 * 255).  Returns how many; 0 (no test, and the caller calls x_runcode_which): a wave32
 * program's block, whose EXEC test differs. */
enum { MAY_MAX = 4 };
static int may_inline(rbuf *r, const xinst *x, size_t slow[MAY_MAX]) {
    const xjit *j = x->jit;
    int n = 0;
    if (x->xf & XI_MASK32)
        return 0;
    if (!j->scalar) { /* cmp qword [rbx + EXEC], -1; jne */
        bytes(r, "\x48\x83\xbb", 3);
        put4(r, (uint32_t)(offsetof(wave, s) + 4 * (size_t)ISA_SREG_EXEC_LO)), put1(r, 0xff);
        slow[n++] = jump(r, 0x85);
    }
    uint32_t need = (j->f32 ? 0x30u : 0) | (j->ieee ? (uint32_t)MODE_IEEE : 0);
    if (need) { /* mov eax, [rbx + mode]; and eax, need; cmp eax, need; jne */
        bytes(r, "\x8b\x83", 2), put4(r, (uint32_t)offsetof(wave, mode));
        put1(r, 0x25), put4(r, need), put1(r, 0x3d), put4(r, need);
        slow[n++] = jump(r, 0x85);
    }
    if (j->mem) { /* cmp qword [rbx + mc], 0; jne; mov rax, &x->nolin; cmp byte [rax], 255; je */
        bytes(r, "\x48\x83\xbb", 3), put4(r, (uint32_t)offsetof(wave, mc)), put1(r, 0);
        slow[n++] = jump(r, 0x85);
        bytes(r, "\x48\xb8", 2), put8(r, (uint64_t)(uintptr_t)&x->nolin);
        bytes(r, "\x80\x38\xff", 3);
        slow[n++] = jump(r, 0x84);
    }
    if (!n) { /* (nothing to test: a scalar block of a wave64 program) always runs */
        bytes(r, "\x31\xc0", 2); /* xor eax, eax; jne (never) */
        slow[n++] = jump(r, 0x85);
    }
    return n;
}

/* cmp dword [rbx + status], WAVE_RUNNING */
static void test_status(rbuf *r) {
    bytes(r, "\x83\xbb", 2), put4(r, (uint32_t)offsetof(wave, status)), put1(r, WAVE_RUNNING);
}

typedef struct fix {
    size_t at;    /* a rel32 to patch */
    uint32_t to;  /* the instruction whose entry it aims at, or whose stub (stub > 0) */
    uint8_t stub; /* 1 the stop stub after its handler, 2 after its block, 3 after the block's
                   * alt, FX_CHAIN its run's start (chain()), FX_RET0 the exit with 0 */
} fix;
enum { FX_CHAIN = 4, FX_RET0 = 5 };

/* The start of the run at x from the end of another, as wave_run() starts one: back to it
 * (ret0) when the wave is in a rare mode (wave_moded()) or the budget ([r12]) is short of the
 * run; else the budget less the run, the class counts plus its, and into its code. */
static void chain(rbuf *r, const xinst *x, size_t ret0, size_t to) {
    /* movzx ecx, byte [rbx + gpr_idx_on]; movzx edx, byte [rbx + vskip]; or ecx, edx;
     * mov eax, [rbx + mode]; and eax, 15 | FP16_OVFL; or eax, ecx; jnz ret0 */
    bytes(r, "\x0f\xb6\x8b", 3), put4(r, (uint32_t)offsetof(wave, gpr_idx_on));
    bytes(r, "\x0f\xb6\x93", 3), put4(r, (uint32_t)offsetof(wave, vskip));
    bytes(r, "\x09\xd1\x8b\x83", 4), put4(r, (uint32_t)offsetof(wave, mode));
    put1(r, 0x25), put4(r, 15u | MODE_FP16_OVFL);
    bytes(r, "\x09\xc8", 2);
    aim(r, jump(r, 0x85), ret0);
    /* mov rax, [r12]; cmp rax, run; jb ret0; sub rax, run; mov [r12], rax */
    bytes(r, "\x49\x8b\x04\x24\x48\x3d", 6), put4(r, x->run);
    aim(r, jump(r, 0x82), ret0);
    bytes(r, "\x48\x2d", 2), put4(r, x->run);
    bytes(r, "\x49\x89\x04\x24", 4);
    for (int c = 0; c < XC_N; c++) /* add qword [rbx + count[c]], n */
        if (x->rcnt[c]) {
            bytes(r, "\x48\x81\x83", 3);
            put4(r, (uint32_t)(offsetof(wave, count) + 8 * (size_t)c)), put4(r, x->rcnt[c]);
        }
    aim(r, jump(r, 0xe9), to);
}

static int runcode_on = -1;
void x_set_runcode(int on) { __atomic_store_n(&runcode_on, on ? 1 : 0, __ATOMIC_RELAXED); }

int x_runcode_build(xprog *p) {
#ifdef GFXEMU_OPCOV
    return 0;
#endif
    if (!p->runs || !p->ninsts || !x_jit_enabled() ||
        !x_env_switch(&runcode_on, "GFXEMU_RUNCODE", "0"))
        return 0;
    rbuf r = {0};
    size_t *entry = calloc(p->ninsts, sizeof *entry);
    fix *fx = calloc(7 * (size_t)p->ninsts + 1, sizeof *fx);
    size_t nfx = 0, *stub = calloc(4 * (size_t)p->ninsts, sizeof *stub);
    if (!entry || !fx || !stub)
        goto fail;
    /* rc_enter(w, code, &budget): push rbx; push r12; sub rsp, 8; mov rbx, rdi; mov r12, rdx;
     * jmp rsi */
    bytes(&r, "\x53\x41\x54\x48\x83\xec\x08\x48\x89\xfb\x49\x89\xd4\xff\xe6", 15);
    /* the exit: the instructions not run (rax) back to the budget; add [r12], rax; add rsp, 8;
     * pop r12; pop rbx; ret.  ret0: the same with none. */
    const size_t ret0 = r.len;
    bytes(&r, "\x31\xc0", 2);
    const size_t exit = r.len;
    bytes(&r, "\x49\x01\x04\x24\x48\x83\xc4\x08\x41\x5c\x5b\xc3", 12);
    for (uint32_t i = 0; i < p->ninsts; i++) {
        const xinst *x = &p->insts[i];
        entry[i] = r.len;
        if (x->run <= 1) { /* the run's last: mov dword [rbx + pc], next pc; call */
            bytes(&r, "\xc7\x83", 2), put4(&r, (uint32_t)offsetof(wave, pc));
            put4(&r, x->pc + x->size);
            call2(&r, (const void *)x->fn, x);
            /* still running at a pc the code knows (after it, its branch target): on into that
             * run (chain()); else back to wave_run() */
            test_status(&r);
            fx[nfx++] = (fix){jump(&r, 0x85), 0, FX_RET0};
            bytes(&r, "\x8b\x83", 2), put4(&r, (uint32_t)offsetof(wave, pc)); /* mov eax, pc */
            uint32_t to[2] = {x->pc + x->size, 0};
            int nto = 1;
            if (x->cls == XC_BRANCH && x->in.f.s.is_branch) {
                int64_t t = (int64_t)x->pc + x->size + x->in.f.s.offset;
                if (t >= 0 && t < p->code_size && (uint32_t)t != to[0])
                    to[nto++] = (uint32_t)t;
            }
            for (int k = 0; k < nto; k++) {
                const xinst *y = to[k] < p->code_size && !(to[k] & 3) ? p->at[to[k] / 4] : NULL;
                if (!y)
                    continue;
                put1(&r, 0x3d), put4(&r, to[k]); /* cmp eax, pc; je its chain stub */
                fx[nfx++] = (fix){jump(&r, 0x84), (uint32_t)(y - p->insts), FX_CHAIN};
            }
            fx[nfx++] = (fix){jump(&r, 0xe9), 0, FX_RET0};
            continue;
        }
        /* where a block starts: x_jit_which()'s tests of the block inline (may_inline), and
         * when one fails eax = x_runcode_which(w, x): which block may run, the block, its alt
         * or neither; each as x_jit_go() runs it, its stop test, and on after it; neither: the
         * handler below */
        if (x->jit) {
            size_t to1[MAY_MAX + 2], to2 = 0, slow[MAY_MAX];
            int n1 = 0, ns = may_inline(&r, x, slow);
            if (ns) {
                to1[n1++] = jump(&r, 0xe9);
                for (int k = 0; k < ns; k++)
                    aim(&r, slow[k], r.len);
            }
            call2(&r, (const void *)x_runcode_which, x);
            bytes(&r, "\x83\xf8\x01", 3); /* cmp eax, 1; je; (cmp eax, 2; je;) jmp */
            to1[n1++] = jump(&r, 0x84);
            if (x->jit->alt) {
                bytes(&r, "\x83\xf8\x02", 3);
                to2 = jump(&r, 0x84);
            }
            size_t none = jump(&r, 0xe9);
            for (int k = 1; k <= 2 && x_jit_block(x, k); k++) {
                const xjit *j = x_jit_block(x, k);
                for (int m = 0; k == 1 && m < n1; m++)
                    aim(&r, to1[m], r.len);
                if (k == 2)
                    aim(&r, to2, r.len);
                block_calls(&r, j);
                test_status(&r);
                fx[nfx++] = (fix){jump(&r, 0x85), i, (uint8_t)(1 + k)};
                fx[nfx++] = (fix){jump(&r, 0xe9), i + j->n, 0};
            }
            aim(&r, none, r.len);
        }
        call2(&r, (const void *)x->fn, x);
        test_status(&r);
        fx[nfx++] = (fix){jump(&r, 0x85), i, 1};
    }
    /* the stop stubs: rax = x_runcode_stop(w, x), or after a block of n instructions
     * x_runcode_jstop(w, x, n); then the exit */
    for (uint32_t i = 0; i < p->ninsts; i++) {
        const xinst *x = &p->insts[i];
        if (x->run <= 1)
            continue;
        stub[4 * i] = r.len;
        call2(&r, (const void *)x_runcode_stop, x);
        aim(&r, jump(&r, 0xe9), exit);
        for (int k = 1; k <= 2 && x->jit && x_jit_block(x, k); k++) {
            stub[4 * i + (unsigned)k] = r.len;
            put1(&r, 0xba), put4(&r, x_jit_block(x, k)->n); /* mov edx, n */
            call2(&r, (const void *)x_runcode_jstop, x);
            aim(&r, jump(&r, 0xe9), exit);
        }
    }
    for (size_t k = 0; k < nfx; k++) /* the chain stubs, one per run start they aim at */
        if (fx[k].stub == FX_CHAIN && !stub[4 * (size_t)fx[k].to + 3]) {
            stub[4 * (size_t)fx[k].to + 3] = r.len;
            chain(&r, &p->insts[fx[k].to], ret0, entry[fx[k].to]);
        }
    for (size_t k = 0; k < nfx; k++)
        aim(&r, fx[k].at,
            fx[k].stub == FX_RET0 ? ret0
            : fx[k].stub          ? stub[4 * (size_t)fx[k].to + fx[k].stub - 1u]
                                  : entry[fx[k].to]);
    if (r.fail)
        goto fail;
    size_t size = (r.len + 4095) & ~(size_t)4095;
    void *mem = mmap(NULL, size, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
    if (mem == MAP_FAILED)
        goto fail;
    memcpy(mem, r.b, r.len);
    if (mprotect(mem, size, PROT_READ | PROT_EXEC) != 0) {
        munmap(mem, size);
        goto fail;
    }
    p->rc_mem = mem;
    p->rc_size = size;
    memcpy(&p->rc_enter, &mem, sizeof mem);
    for (uint32_t i = 0; i < p->ninsts; i++)
        p->insts[i].tc = (uint8_t *)mem + entry[i];
    free(r.b), free(entry), free(fx), free(stub);
    return 0;
fail: /* (out of memory or no executable mapping: the loop runs everything) */
    free(r.b), free(entry), free(fx), free(stub);
    return 0;
}

void x_runcode_free(xprog *p) {
    if (p->rc_mem)
        munmap(p->rc_mem, p->rc_size);
    p->rc_mem = NULL;
    p->rc_enter = NULL;
}
