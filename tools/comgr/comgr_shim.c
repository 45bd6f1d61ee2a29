/* comgr_shim.c - a stand-in for ROCm's code object manager (libamd_comgr.so), enough of it for a
 * framework that compiles HIP source at run time (tinygrad's HIPRenderer/HIPCompiler) to build
 * its kernels with clang-22, ld.lld-22 and Debian's rocm-device-libs, so that its mock-GPU test
 * legs can run on gfxemu where no ROCm is installed (Debian's libamd-comgr2 5.2 predates gfx950
 * and gfx1201).  A test harness, not part of the library: `make comgr-shim` builds
 * build/libamd_comgr_shim.so; tinygrad loads it with COMGR_PATH=... (tools/tinygrad_mock.py).
 *
 * The ABI (handles of one uint64_t, the status/kind/action numbers, the functions' signatures)
 * is comgr 2.x's as its public header amd_comgr.h declares it; only the calls a run-time HIP
 * compiler makes are here:
 *   data:        amd_comgr_create_data, set_data, set_data_name, get_data, release_data
 *   data sets:   create_data_set, destroy_data_set, data_set_add, action_data_get_data,
 *                action_data_count
 *   action info: create_action_info, destroy_action_info, action_info_set_language,
 *                set_isa_name, set_logging, set_option_list, set_options
 *   actions:     amd_comgr_do_action with COMPILE_SOURCE_WITH_DEVICE_LIBS_TO_BC (clang-22 -x hip
 *                --cuda-device-only -emit-llvm, the device libraries linked as builtin bitcode),
 *                CODEGEN_BC_TO_RELOCATABLE, ASSEMBLE_SOURCE_TO_RELOCATABLE,
 *                LINK_RELOCATABLE_TO_EXECUTABLE (ld.lld-22 -shared)
 *   misc:        amd_comgr_get_version (2.9), amd_comgr_status_string
 * Each action writes its inputs to a fresh directory under $TMPDIR, runs the tool, and adds the
 * output and a LOG datum (the tool's stderr) to the result set; a failing tool gives
 * AMD_COMGR_STATUS_ERROR with the log.  The device libraries' ISA-version constant
 * (__oclc_ISA_version) is made for the action's ISA (Debian's 5.2 set has none for gfx11/gfx12/
 * gfx950).  Environment: COMGR_SHIM_BITCODE (default /usr/lib/x86_64-linux-gnu/amdgcn/bitcode),
 * COMGR_SHIM_KEEP=1 keeps the directories. */
#ifndef _GNU_SOURCE
#define _GNU_SOURCE
#endif
#include <errno.h>
#include <fcntl.h>
#include <spawn.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

extern char **environ;

#define API __attribute__((visibility("default")))

typedef struct {
    uint64_t handle;
} cg_handle;

enum { ST_OK = 0, ST_ERROR = 1, ST_INVALID = 2, ST_NOMEM = 3 };
enum { K_SOURCE = 1, K_LOG = 5, K_BC = 6, K_RELOC = 7, K_EXEC = 8 };
enum {
    A_CODEGEN_BC_TO_RELOC = 0x6,
    A_LINK_RELOC_TO_EXEC = 0x9,
    A_ASSEMBLE_SOURCE_TO_RELOC = 0xa,
    A_COMPILE_SOURCE_WITH_DEVICE_LIBS_TO_BC = 0xf,
};

typedef struct {
    int kind, refs;
    char *name;
    char *bytes;
    size_t size;
} cg_data;

typedef struct {
    cg_data **items;
    size_t n, cap;
} cg_set;

typedef struct {
    int language, logging;
    char isa[64];
    char **opts;
    size_t nopts;
} cg_info;

#define H(p) ((cg_handle){(uint64_t)(uintptr_t)(p)})
#define P(t, h) ((t *)(uintptr_t)(h).handle)

API void amd_comgr_get_version(size_t *major, size_t *minor) {
    if (major)
        *major = 2;
    if (minor)
        *minor = 9;
}

API int amd_comgr_status_string(int status, const char **s) {
    static const char *const names[] = {"SUCCESS", "ERROR", "ERROR_INVALID_ARGUMENT",
                                        "ERROR_OUT_OF_RESOURCES"};
    if (!s || status < 0 || status > 3)
        return ST_INVALID;
    *s = names[status];
    return ST_OK;
}

/* ---- data ---------------------------------------------------------------------------------- */

API int amd_comgr_create_data(int kind, cg_handle *out) {
    cg_data *d = calloc(1, sizeof *d);
    if (!out || !d)
        return free(d), out ? ST_NOMEM : ST_INVALID;
    d->kind = kind;
    d->refs = 1;
    *out = H(d);
    return ST_OK;
}

static void data_unref(cg_data *d) {
    if (d && --d->refs == 0) {
        free(d->name);
        free(d->bytes);
        free(d);
    }
}

API int amd_comgr_release_data(cg_handle h) {
    if (!P(cg_data, h))
        return ST_INVALID;
    data_unref(P(cg_data, h));
    return ST_OK;
}

API int amd_comgr_set_data(cg_handle h, size_t size, const char *bytes) {
    cg_data *d = P(cg_data, h);
    if (!d || (size && !bytes))
        return ST_INVALID;
    char *b = malloc(size ? size : 1);
    if (!b)
        return ST_NOMEM;
    memcpy(b, bytes, size);
    free(d->bytes);
    d->bytes = b;
    d->size = size;
    return ST_OK;
}

API int amd_comgr_set_data_name(cg_handle h, const char *name) {
    cg_data *d = P(cg_data, h);
    if (!d || !name)
        return ST_INVALID;
    free(d->name);
    d->name = strdup(name);
    return d->name ? ST_OK : ST_NOMEM;
}

/* bytes NULL: the size; else up to *size bytes */
API int amd_comgr_get_data(cg_handle h, size_t *size, char *bytes) {
    cg_data *d = P(cg_data, h);
    if (!d || !size)
        return ST_INVALID;
    if (!bytes) {
        *size = d->size;
        return ST_OK;
    }
    size_t n = *size < d->size ? *size : d->size;
    memcpy(bytes, d->bytes, n);
    *size = n;
    return ST_OK;
}

/* ---- data sets ----------------------------------------------------------------------------- */

API int amd_comgr_create_data_set(cg_handle *out) {
    cg_set *s = calloc(1, sizeof *s);
    if (!out || !s)
        return free(s), out ? ST_NOMEM : ST_INVALID;
    *out = H(s);
    return ST_OK;
}

API int amd_comgr_destroy_data_set(cg_handle h) {
    cg_set *s = P(cg_set, h);
    if (!s)
        return ST_INVALID;
    for (size_t i = 0; i < s->n; i++)
        data_unref(s->items[i]);
    free(s->items);
    free(s);
    return ST_OK;
}

static int set_add(cg_set *s, cg_data *d) {
    if (s->n == s->cap) {
        size_t cap = s->cap ? 2 * s->cap : 4;
        cg_data **p = realloc(s->items, cap * sizeof *p);
        if (!p)
            return ST_NOMEM;
        s->items = p, s->cap = cap;
    }
    s->items[s->n++] = d;
    d->refs++;
    return ST_OK;
}

API int amd_comgr_data_set_add(cg_handle set, cg_handle data) {
    if (!P(cg_set, set) || !P(cg_data, data))
        return ST_INVALID;
    return set_add(P(cg_set, set), P(cg_data, data));
}

API int amd_comgr_action_data_count(cg_handle set, int kind, size_t *count) {
    cg_set *s = P(cg_set, set);
    if (!s || !count)
        return ST_INVALID;
    *count = 0;
    for (size_t i = 0; i < s->n; i++)
        *count += s->items[i]->kind == kind;
    return ST_OK;
}

/* the index-th datum of `kind`; the caller releases it */
API int amd_comgr_action_data_get_data(cg_handle set, int kind, size_t index, cg_handle *out) {
    cg_set *s = P(cg_set, set);
    if (!s || !out)
        return ST_INVALID;
    for (size_t i = 0; i < s->n; i++)
        if (s->items[i]->kind == kind && index-- == 0) {
            s->items[i]->refs++;
            *out = H(s->items[i]);
            return ST_OK;
        }
    return ST_INVALID;
}

/* ---- action info --------------------------------------------------------------------------- */

API int amd_comgr_create_action_info(cg_handle *out) {
    cg_info *a = calloc(1, sizeof *a);
    if (!out || !a)
        return free(a), out ? ST_NOMEM : ST_INVALID;
    *out = H(a);
    return ST_OK;
}

static void clear_opts(cg_info *a) {
    for (size_t i = 0; i < a->nopts; i++)
        free(a->opts[i]);
    free(a->opts);
    a->opts = NULL;
    a->nopts = 0;
}

API int amd_comgr_destroy_action_info(cg_handle h) {
    cg_info *a = P(cg_info, h);
    if (!a)
        return ST_INVALID;
    clear_opts(a);
    free(a);
    return ST_OK;
}

API int amd_comgr_action_info_set_language(cg_handle h, int language) {
    if (!P(cg_info, h))
        return ST_INVALID;
    P(cg_info, h)->language = language;
    return ST_OK;
}

API int amd_comgr_action_info_set_logging(cg_handle h, _Bool logging) {
    if (!P(cg_info, h))
        return ST_INVALID;
    P(cg_info, h)->logging = logging;
    return ST_OK;
}

/* "amdgcn-amd-amdhsa--gfx1100[:features]" */
API int amd_comgr_action_info_set_isa_name(cg_handle h, const char *name) {
    cg_info *a = P(cg_info, h);
    const char *p = name ? strstr(name, "--") : NULL;
    if (!a || !p || strlen(p + 2) >= sizeof a->isa)
        return ST_INVALID;
    snprintf(a->isa, sizeof a->isa, "%s", p + 2);
    return ST_OK;
}

API int amd_comgr_action_info_set_option_list(cg_handle h, const char *const *opts, size_t n) {
    cg_info *a = P(cg_info, h);
    if (!a || (n && !opts))
        return ST_INVALID;
    clear_opts(a);
    a->opts = calloc(n ? n : 1, sizeof *a->opts);
    if (!a->opts)
        return ST_NOMEM;
    for (size_t i = 0; i < n; i++)
        if (opts[i][0] && !(a->opts[a->nopts++] = strdup(opts[i])))
            return ST_NOMEM;
    return ST_OK;
}

/* the deprecated form: one string, options separated by spaces */
API int amd_comgr_action_info_set_options(cg_handle h, const char *options) {
    cg_info *a = P(cg_info, h);
    if (!a || !options)
        return ST_INVALID;
    clear_opts(a);
    char *copy = strdup(options), *save = NULL;
    size_t cap = strlen(options) / 2 + 2;
    a->opts = calloc(cap, sizeof *a->opts);
    if (!copy || !a->opts)
        return free(copy), ST_NOMEM;
    for (char *t = strtok_r(copy, " ", &save); t; t = strtok_r(NULL, " ", &save))
        a->opts[a->nopts++] = strdup(t);
    free(copy);
    return ST_OK;
}

/* ---- actions ------------------------------------------------------------------------------- */

typedef struct {
    const char *argv[256];
    int n;
    char store[64][1024];
    int ns;
} cmdline;

static void arg(cmdline *c, const char *a) {
    if (c->n < 255)
        c->argv[c->n++] = a;
}

static void argf(cmdline *c, const char *fmt, const char *s) {
    if (c->ns < 64) {
        snprintf(c->store[c->ns], sizeof c->store[0], fmt, s);
        arg(c, c->store[c->ns++]);
    }
}

static int read_file(const char *path, char **bytes, size_t *size) {
    FILE *f = fopen(path, "rb");
    if (!f)
        return -1;
    fseek(f, 0, SEEK_END);
    long n = ftell(f);
    fseek(f, 0, SEEK_SET);
    *bytes = malloc(n > 0 ? (size_t)n : 1);
    *size = n > 0 && *bytes && fread(*bytes, 1, (size_t)n, f) == (size_t)n ? (size_t)n : 0;
    fclose(f);
    return *bytes ? 0 : -1;
}

static int write_file(const char *path, const char *bytes, size_t size) {
    FILE *f = fopen(path, "wb");
    if (!f)
        return -1;
    int ok = fwrite(bytes, 1, size, f) == size;
    return fclose(f) == 0 && ok ? 0 : -1;
}

/* runs argv with stderr (and stdout) appended to log; 0 when it exits 0 */
static int run(cmdline *c, const char *log) {
    c->argv[c->n] = NULL;
    posix_spawn_file_actions_t fa;
    posix_spawn_file_actions_init(&fa);
    posix_spawn_file_actions_addopen(&fa, 2, log, O_WRONLY | O_CREAT | O_APPEND, 0644);
    posix_spawn_file_actions_adddup2(&fa, 2, 1);
    FILE *lf = fopen(log, "a");
    if (lf) {
        for (int i = 0; i < c->n; i++)
            fprintf(lf, "%s%s", i ? " " : "", c->argv[i]);
        fputc('\n', lf);
        fclose(lf);
    }
    pid_t pid;
    int rc = posix_spawnp(&pid, c->argv[0], &fa, NULL, (char *const *)c->argv, environ);
    posix_spawn_file_actions_destroy(&fa);
    if (rc != 0)
        return -1;
    int st = 0;
    while (waitpid(pid, &st, 0) < 0 && errno == EINTR)
        ;
    return WIFEXITED(st) && WEXITSTATUS(st) == 0 ? 0 : -1;
}

/* __oclc_ISA_version for gfxXYZ: major * 1000 + minor * 100 + stepping (hex digits) */
static int isa_version(const char *isa) {
    char cpu[64];
    snprintf(cpu, sizeof cpu, "%s", isa);
    char *colon = strchr(cpu, ':');
    if (colon)
        *colon = 0;
    size_t n = strlen(cpu);
    if (n < 6 || strncmp(cpu, "gfx", 3) != 0)
        return 0;
    int step = (int)strtol((char[]){cpu[n - 1], 0}, NULL, 16);
    int minor = (int)strtol((char[]){cpu[n - 2], 0}, NULL, 16);
    cpu[n - 2] = 0;
    return atoi(cpu + 3) * 1000 + minor * 100 + step;
}

static int add_output(cg_set *out, int kind, const char *path, const char *name) {
    cg_data *d = calloc(1, sizeof *d);
    if (!d)
        return ST_NOMEM;
    d->kind = kind;
    d->refs = 0;
    d->name = strdup(name);
    if (read_file(path, &d->bytes, &d->size) != 0) {
        free(d->name);
        free(d);
        return ST_ERROR;
    }
    return set_add(out, d);
}

API int amd_comgr_do_action(int kind, cg_handle info, cg_handle input, cg_handle output) {
    cg_info *a = P(cg_info, info);
    cg_set *in = P(cg_set, input), *out = P(cg_set, output);
    if (!a || !in || !out || !a->isa[0])
        return ST_INVALID;
    const char *tmp = getenv("TMPDIR");
    char dir[256], path[512], log[512], res[512];
    snprintf(dir, sizeof dir, "%s/comgr_shim.XXXXXX", tmp && *tmp ? tmp : "/tmp");
    if (!mkdtemp(dir))
        return ST_ERROR;
    snprintf(log, sizeof log, "%s/log.txt", dir);
    char cpu[64];
    snprintf(cpu, sizeof cpu, "%s", a->isa);
    char *colon = strchr(cpu, ':');
    if (colon)
        *colon = 0;
    cmdline c = {0};
    int want = 0;
    /* inputs of the kind this action reads, written out under their names' extensions */
    int in_kind = kind == A_CODEGEN_BC_TO_RELOC  ? K_BC
                  : kind == A_LINK_RELOC_TO_EXEC ? K_RELOC
                                                 : K_SOURCE;
    const char *ext = in_kind == K_BC                      ? "bc"
                      : in_kind == K_RELOC                 ? "o"
                      : kind == A_ASSEMBLE_SOURCE_TO_RELOC ? "s"
                                                           : "hip";
    const char *bc_dir = getenv("COMGR_SHIM_BITCODE");
    if (!bc_dir || !*bc_dir)
        bc_dir = "/usr/lib/x86_64-linux-gnu/amdgcn/bitcode";
    switch (kind) {
    case A_COMPILE_SOURCE_WITH_DEVICE_LIBS_TO_BC: {
        int v = isa_version(cpu);
        char ll[512], isabc[512];
        snprintf(ll, sizeof ll, "%s/isa.ll", dir);
        snprintf(isabc, sizeof isabc, "%s/isa.bc", dir);
        FILE *f = fopen(ll, "w");
        if (!f)
            return ST_ERROR;
        fprintf(f,
                "target triple = \"amdgcn-amd-amdhsa\"\n@__oclc_ISA_version = linkonce_odr hidden "
                "local_unnamed_addr addrspace(4) constant i32 %d, align 4\n",
                v);
        fclose(f);
        cmdline as = {0};
        arg(&as, "llvm-as-22");
        arg(&as, ll);
        arg(&as, "-o");
        arg(&as, isabc);
        if (run(&as, log) != 0)
            goto fail;
        arg(&c, "clang-22");
        arg(&c, "-x");
        arg(&c, "hip");
        arg(&c, "--cuda-device-only");
        arg(&c, "--no-gpu-bundle-output");
        arg(&c, "-nogpulib");
        arg(&c, "-emit-llvm");
        arg(&c, "-c");
        argf(&c, "--offload-arch=%s", a->isa);
        for (size_t i = 0; i < a->nopts; i++)
            arg(&c, a->opts[i]);
        static const char *const libs[] = {"ocml",
                                           "ockl",
                                           "oclc_daz_opt_off",
                                           "oclc_unsafe_math_off",
                                           "oclc_finite_only_off",
                                           "oclc_correctly_rounded_sqrt_on",
                                           "oclc_abi_version_500"};
        for (size_t i = 0; i < sizeof libs / sizeof libs[0]; i++) {
            arg(&c, "-Xclang");
            arg(&c, "-mlink-builtin-bitcode");
            arg(&c, "-Xclang");
            snprintf(c.store[c.ns], sizeof c.store[0], "%s/%s.bc", bc_dir, libs[i]);
            arg(&c, c.store[c.ns++]);
        }
        int w64 = 0;
        for (size_t i = 0; i < a->nopts; i++)
            w64 |= strstr(a->opts[i], "wavefrontsize64") != NULL;
        w64 |= strncmp(cpu, "gfx9", 4) == 0; /* CDNA: wave64 only */
        arg(&c, "-Xclang");
        arg(&c, "-mlink-builtin-bitcode");
        arg(&c, "-Xclang");
        snprintf(c.store[c.ns], sizeof c.store[0], "%s/oclc_wavefrontsize64_%s.bc", bc_dir,
                 w64 ? "on" : "off");
        arg(&c, c.store[c.ns++]);
        arg(&c, "-Xclang");
        arg(&c, "-mlink-builtin-bitcode");
        arg(&c, "-Xclang");
        argf(&c, "%s", isabc);
        want = K_BC;
        break;
    }
    case A_CODEGEN_BC_TO_RELOC:
    case A_ASSEMBLE_SOURCE_TO_RELOC:
        arg(&c, "clang-22");
        arg(&c, "-target");
        arg(&c, "amdgcn-amd-amdhsa");
        argf(&c, "-mcpu=%s", a->isa);
        arg(&c, "-nogpulib");
        if (kind == A_ASSEMBLE_SOURCE_TO_RELOC) {
            arg(&c, "-x");
            arg(&c, "assembler");
        }
        for (size_t i = 0; i < a->nopts; i++)
            arg(&c, a->opts[i]);
        arg(&c, "-c");
        want = K_RELOC;
        break;
    case A_LINK_RELOC_TO_EXEC:
        arg(&c, "ld.lld-22");
        arg(&c, "-shared");
        for (size_t i = 0; i < a->nopts; i++)
            arg(&c, a->opts[i]);
        want = K_EXEC;
        break;
    default:
        snprintf(path, sizeof path, "comgr_shim: action %d is not supported\n", kind);
        write_file(log, path, strlen(path));
        goto fail;
    }
    int nin = 0;
    for (size_t i = 0; i < in->n; i++) {
        if (in->items[i]->kind != in_kind)
            continue;
        snprintf(path, sizeof path, "%s/in%d.%s", dir, nin++, ext);
        if (write_file(path, in->items[i]->bytes, in->items[i]->size) != 0)
            goto fail;
        argf(&c, "%s", path);
    }
    if (nin == 0)
        goto fail;
    snprintf(res, sizeof res, "%s/out.%s", dir, want == K_BC ? "bc" : want == K_RELOC ? "o" : "co");
    arg(&c, "-o");
    arg(&c, res);
    int ok = run(&c, log) == 0 && add_output(out, want, res, want == K_EXEC ? "a.co" : "a") == 0;
    add_output(out, K_LOG, log, "log");
    if (!getenv("COMGR_SHIM_KEEP")) {
        char rm[512];
        snprintf(rm, sizeof rm, "rm -rf '%s'", dir);
        if (system(rm) != 0) {
            /* a leftover temporary directory is harmless */
        }
    }
    return ok ? ST_OK : ST_ERROR;
fail:
    add_output(out, K_LOG, log, "log");
    return ST_ERROR;
}
