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
 *   - an instruction where a native block starts (x->jit) calls x_runcode_block(), which runs
 *     the block when the wave's state allows (x_jit_run()) and returns how many instructions it
 *     covered; the code goes on after them (the block or its alt), or runs the instruction
 *     itself when the block did not run;
 *   - any other instruction but the run's last calls its handler, then tests the status: a
 *     stopped wave leaves through x_runcode_stop() (the pc past the instruction, the rest of the
 *     run taken back from the counts, their number returned for the budget);
 *   - the run's last instruction stores the pc past itself, calls its handler and returns 0.
 *
 * A run may be entered at any of its instructions (a branch target, a wave resumed after a
 * barrier), so each instruction's code is an entry (xinst.tc), and the runs of the program are
 * laid out one after another, each ending at its last instruction.  x_runcode_enter() (the
 * first bytes of the code) saves rbx, which holds the wave, and jumps to the entry.  OPCOV builds
 * (which count every instruction) and GFXEMU_RUNCODE=0 keep the loop. */
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

/* A native block as x_jit_go() runs it once x_jit_may() allows: its code, then the deferred
 * scalar ops' handlers and the MFMAs', each called at a site of its own. */
static void block_calls(rbuf *r, const xjit *j) {
    bytes(r, "\x48\x89\xdf\x48\xb8", 5); /* mov rdi, rbx; mov rax, code; call rax */
    put8(r, (uint64_t)(uintptr_t)j->code);
    bytes(r, "\xff\xd0", 2);
    for (unsigned i = 0; i < j->ndefer; i++)
        call2(r, (const void *)j->defer[i]->fn, j->defer[i]);
    for (unsigned i = 0; i < j->nvdefer; i++)
        call2(r, (const void *)j->vdefer[i]->fn, j->vdefer[i]);
}

/* cmp dword [rbx + status], WAVE_RUNNING */
static void test_status(rbuf *r) {
    bytes(r, "\x83\xbb", 2), put4(r, (uint32_t)offsetof(wave, status)), put1(r, WAVE_RUNNING);
}

/* The block x->jit (k 1) or its alt (k 2). */
static const xjit *block_k(const xinst *x, int k) { return k == 1 ? x->jit : x->jit->alt; }

typedef struct fix {
    size_t at;    /* a rel32 to patch */
    uint32_t to;  /* the instruction whose entry it aims at, or whose stop stub (stub > 0) */
    uint8_t stub; /* 1 the stub after its handler, 2 after its block, 3 after the block's alt */
} fix;

static int runcode_on = -1;

int x_runcode_build(xprog *p) {
#ifdef GFXEMU_OPCOV
    return 0;
#endif
    if (!p->runs || !p->ninsts || !x_jit_enabled() ||
        !x_env_switch(&runcode_on, "GFXEMU_RUNCODE", "0"))
        return 0;
    rbuf r = {0};
    size_t *entry = calloc(p->ninsts, sizeof *entry);
    fix *fx = calloc(5 * (size_t)p->ninsts + 1, sizeof *fx);
    size_t nfx = 0, *stub = calloc(3 * (size_t)p->ninsts, sizeof *stub);
    if (!entry || !fx || !stub)
        goto fail;
    /* x_runcode_enter(w, code): push rbx; mov rbx, rdi; jmp rsi */
    bytes(&r, "\x53\x48\x89\xfb\xff\xe6", 6);
    for (uint32_t i = 0; i < p->ninsts; i++) {
        const xinst *x = &p->insts[i];
        entry[i] = r.len;
        if (x->run <= 1) { /* the run's last: mov dword [rbx + pc], next pc; call; return 0 */
            bytes(&r, "\xc7\x83", 2), put4(&r, (uint32_t)offsetof(wave, pc));
            put4(&r, x->pc + x->size);
            call2(&r, (const void *)x->fn, x);
            bytes(&r, "\x31\xc0\x5b\xc3", 4); /* xor eax, eax; pop rbx; ret */
            continue;
        }
        /* eax = x_runcode_which(w, x): which block may run (x_jit_which); that one as
         * x_jit_go() runs it, its stop test, and on after it; neither: the handler below */
        if (x->jit)
            call2(&r, (const void *)x_runcode_which, x);
        for (int k = 1; k <= 2 && x->jit && block_k(x, k); k++) {
            const xjit *j = block_k(x, k);
            bytes(&r, "\x83\xf8", 2), put1(&r, (uint8_t)k); /* cmp eax, k; jne on */
            size_t on = jump(&r, 0x85);
            block_calls(&r, j);
            test_status(&r);
            fx[nfx++] = (fix){jump(&r, 0x85), i, (uint8_t)(1 + k)};
            fx[nfx++] = (fix){jump(&r, 0xe9), i + j->n, 0};
            aim(&r, on, r.len);
        }
        call2(&r, (const void *)x->fn, x);
        test_status(&r);
        fx[nfx++] = (fix){jump(&r, 0x85), i, 1};
    }
    /* the stop stubs: rax = x_runcode_stop(w, x), or after a block of n instructions
     * x_runcode_jstop(w, x, n); pop rbx; ret */
    for (uint32_t i = 0; i < p->ninsts; i++) {
        const xinst *x = &p->insts[i];
        if (x->run <= 1)
            continue;
        stub[3 * i] = r.len;
        call2(&r, (const void *)x_runcode_stop, x);
        bytes(&r, "\x5b\xc3", 2);
        for (int k = 1; k <= 2 && x->jit && block_k(x, k); k++) {
            stub[3 * i + (unsigned)k] = r.len;
            put1(&r, 0xba), put4(&r, block_k(x, k)->n); /* mov edx, n */
            call2(&r, (const void *)x_runcode_jstop, x);
            bytes(&r, "\x5b\xc3", 2);
        }
    }
    for (size_t k = 0; k < nfx; k++)
        aim(&r, fx[k].at,
            fx[k].stub ? stub[3 * (size_t)fx[k].to + fx[k].stub - 1u] : entry[fx[k].to]);
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
