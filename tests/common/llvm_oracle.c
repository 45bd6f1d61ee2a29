/* llvm_oracle.c - see llvm_oracle.h.  Uses only LLVM's stable C API (llvm-c/Disassembler.h). */
#ifndef _GNU_SOURCE
#define _GNU_SOURCE
#endif
#include "common/llvm_oracle.h"

#include <dlfcn.h>
#include <setjmp.h>
#include <signal.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/wait.h>
#include <unistd.h>

#include "common/util.h"

typedef void *(*create_fn)(const char *, const char *, void *, int, void *, void *);
typedef size_t (*disasm_fn)(void *, uint8_t *, uint64_t, uint64_t, char *, size_t);

static create_fn create_disasm;
static disasm_fn disasm_inst;
/* Which libLLVM answers (see the cache below): test_file_identity() of the loaded library. */
static uint64_t llvm_identity;
static int cache_on = 1;

int oracle_init(void) {
    static int done;
    if (done)
        return done > 0 ? 0 : -1;
    const char *env = getenv("GFXEMU_LIBLLVM");
    const char *paths[] = {env, "/usr/lib/llvm-22/lib/libLLVM.so.22.1", "libLLVM.so.22.1"};
    void *h = NULL;
    for (size_t i = 0; i < 3 && !h; i++)
        if (paths[i])
            h = dlopen(paths[i], RTLD_NOW | RTLD_LOCAL);
    if (!h) {
        fprintf(stderr, "oracle: cannot load libLLVM.so.22.1 (apt-get install llvm-22)\n");
        done = -1;
        return -1;
    }
    const char *init[] = {"LLVMInitializeAMDGPUTargetInfo", "LLVMInitializeAMDGPUTargetMC",
                          "LLVMInitializeAMDGPUDisassembler"};
    for (int i = 0; i < 3; i++) {
        void (*f)(void) = (void (*)(void))dlsym(h, init[i]);
        if (!f) {
            fprintf(stderr, "oracle: %s missing in libLLVM\n", init[i]);
            done = -1;
            return -1;
        }
        f();
    }
    create_disasm = (create_fn)dlsym(h, "LLVMCreateDisasmCPU");
    disasm_inst = (disasm_fn)dlsym(h, "LLVMDisasmInstruction");
    done = create_disasm && disasm_inst ? 1 : -1;
    Dl_info info;
    if (done > 0 && dladdr((void *)disasm_inst, &info) && info.dli_fname)
        llvm_identity = test_file_identity(info.dli_fname);
    if (!llvm_identity)
        cache_on = 0; /* no identity, no cache: LLVM answers every time */
    return done > 0 ? 0 : -1;
}

/* Shared with the child: results plus how far it got. */
struct shared {
    volatile size_t done;
    oracle_result r[];
};

/* In the child, a crash inside LLVM jumps back here and the word is recorded as a crash; the
 * child goes on with the next word instead of being replaced by a new fork (much cheaper,
 * especially for large ASan processes).  If LLVM's state is too damaged to go on, the child
 * dies and oracle_batch() recovers with a new child as before. */
static sigjmp_buf crash_jmp;
static volatile sig_atomic_t in_llvm;

static void on_crash(int sig) {
    if (!in_llvm) {
        signal(sig, SIG_DFL);
        raise(sig);
        return;
    }
    in_llvm = 0;
    siglongjmp(crash_jmp, 1);
}

/* Disassemble one word into *r; a crash inside LLVM lands back here (crash_jmp).  The setjmp
 * lives in this small function so that no local of the caller can be clobbered by longjmp. */
static oracle_result *volatile cur_result;

static void disasm_one(void *dc, const uint32_t *word, oracle_result *r) {
    cur_result = r;
    if (sigsetjmp(crash_jmp, 1)) {
        cur_result->size = ORACLE_CRASH;
        strcpy(cur_result->text, "<llvm crashed>");
        return;
    }
    uint8_t bytes[16];
    char text[ORACLE_TEXT + 256];
    memcpy(bytes, word, 16);
    in_llvm = 1;
    size_t sz = disasm_inst(dc, bytes, 16, 0, text, sizeof text);
    in_llvm = 0;
    r->size = (int)sz;
    const char *t = text;
    while (sz && (*t == '\t' || *t == ' '))
        t++;
    size_t l = sz ? strnlen(t, sizeof r->text - 1) : 0;
    memcpy(r->text, t, l);
    r->text[l] = 0;
}

static void run_child(void *dc, const uint32_t (*w)[4], size_t from, size_t n, struct shared *sh) {
    struct sigaction sa;
    memset(&sa, 0, sizeof sa);
    sa.sa_handler = on_crash;
    sa.sa_flags = SA_NODEFER;
    sigemptyset(&sa.sa_mask);
    const int sigs[] = {SIGSEGV, SIGBUS, SIGILL, SIGFPE, SIGABRT};
    for (size_t k = 0; k < sizeof sigs / sizeof sigs[0]; k++)
        sigaction(sigs[k], &sa, NULL);
    for (size_t i = from; i < n; i++) {
        disasm_one(dc, w[i], &sh->r[i]);
        sh->done = i + 1;
    }
}

/* ---- the cache of LLVM's answers (test_cache_get/put in tests/common/util.c) ----
 * The exhaustive tests ask LLVM the same millions of words on every run, which was most of
 * `make check`'s time: each batch's answers are kept, keyed by the target, the words and the
 * libLLVM, and read back when they come again.  gfxemu's side is decoded and compared afresh
 * every time; only LLVM's work is reused, as a compiled kernel is.
 * Entry: per word, int32 size, uint16 text length, the text. */
void oracle_cache(int on) { cache_on = on; }

/* The entry's name and a second, independent hash of the batch. */
static void cache_key(const char *arch, const uint32_t (*words)[4], size_t n, char *name,
                      size_t size, uint64_t *key2) {
    uint64_t h = test_hash(arch, strlen(arch) + 1, TEST_HASH0 ^ llvm_identity);
    h = test_hash(words, n * sizeof words[0], h);
    *key2 =
        test_hash(words, n * sizeof words[0], test_hash(arch, strlen(arch) + 1, llvm_identity + 1));
    snprintf(name, size, "dis-%s-%016llx-%zu", arch, (unsigned long long)h, n);
}

static int cache_read(const char *name, uint64_t key2, size_t n, oracle_result *out) {
    unsigned char *d;
    size_t len, at = 0;
    if (test_cache_get(name, key2, &d, &len) != 0)
        return -1;
    int ok = 1;
    for (size_t i = 0; ok && i < n; i++) {
        int32_t sz;
        uint16_t tl;
        ok = at + 6 <= len;
        if (!ok)
            break;
        memcpy(&sz, d + at, 4);
        memcpy(&tl, d + at + 4, 2);
        at += 6;
        ok = tl < ORACLE_TEXT && at + tl <= len;
        if (ok) {
            out[i].size = sz;
            memcpy(out[i].text, d + at, tl);
            out[i].text[tl] = 0;
            at += tl;
        }
    }
    free(d);
    return ok && at == len ? 0 : -1;
}

static void cache_write(const char *name, uint64_t key2, size_t n, const oracle_result *r) {
    size_t len = 0;
    for (size_t i = 0; i < n; i++)
        len += 6 + strnlen(r[i].text, ORACLE_TEXT - 1);
    unsigned char *d = malloc(len ? len : 1), *p = d;
    if (!d)
        return;
    for (size_t i = 0; i < n; i++) {
        int32_t sz = r[i].size;
        uint16_t tl = (uint16_t)strnlen(r[i].text, ORACLE_TEXT - 1);
        memcpy(p, &sz, 4);
        memcpy(p + 4, &tl, 2);
        memcpy(p + 6, r[i].text, tl);
        p += 6 + tl;
    }
    test_cache_put(name, key2, d, len);
    free(d);
}

static void ask_llvm(const char *arch, const uint32_t (*words)[4], size_t n, oracle_result *out);

void oracle_batch(const char *arch, const uint32_t (*words)[4], size_t n, oracle_result *out) {
    int use = cache_on;
    char path[600];
    uint64_t key2 = 0;
    if (use) {
        cache_key(arch, words, n, path, sizeof path, &key2);
        if (cache_read(path, key2, n, out) == 0)
            return;
    }
    ask_llvm(arch, words, n, out);
    if (use)
        cache_write(path, key2, n, out);
}

static void ask_llvm(const char *arch, const uint32_t (*words)[4], size_t n, oracle_result *out) {
    size_t bytes = sizeof(struct shared) + n * sizeof(oracle_result);
    struct shared *sh =
        mmap(NULL, bytes, PROT_READ | PROT_WRITE, MAP_SHARED | MAP_ANONYMOUS, -1, 0);
    if (sh == MAP_FAILED) {
        perror("oracle: mmap");
        exit(2);
    }
    enum { NDC = 8 }; /* one disassembler per target a test asks about (five targets now) */
    static void *dcs[NDC];
    static const char *names[NDC];
    void *dc = NULL;
    for (int i = 0; i < NDC && !dc; i++) {
        if (!names[i]) {
            names[i] = arch;
            dcs[i] = create_disasm("amdgcn-amd-amdhsa", arch, NULL, 0, NULL, NULL);
        }
        if (strcmp(names[i], arch) == 0)
            dc = dcs[i];
    }
    if (!dc) {
        fprintf(stderr, "oracle: LLVM has no disassembler for %s\n", arch);
        exit(2);
    }
    size_t pos = 0;
    while (pos < n) {
        sh->done = pos;
        pid_t pid = fork();
        if (pid < 0) {
            perror("oracle: fork");
            exit(2);
        }
        if (pid == 0) {
            /* LLVM prints its crash report on stderr; keep test logs readable. */
            int fd = open("/dev/null", O_WRONLY);
            if (fd >= 0)
                dup2(fd, 2);
            run_child(dc, words, pos, n, sh);
            _exit(0);
        }
        int st;
        waitpid(pid, &st, 0);
        pos = sh->done;
        if (pos < n && !(WIFEXITED(st) && WEXITSTATUS(st) == 0)) {
            sh->r[pos].size = ORACLE_CRASH;
            strcpy(sh->r[pos].text, "<llvm crashed>");
            pos++;
        } else if (pos < n) {
            fprintf(stderr, "oracle: child stopped early\n");
            exit(2);
        }
    }
    memcpy(out, sh->r, n * sizeof(oracle_result));
    munmap(sh, bytes);
}
