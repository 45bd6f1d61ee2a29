/* util.c - see util.h. */
#include "common/util.h"

#include "exec/exec.h"
#include "isa/isa.h"

#include <limits.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

const char *test_build_dir(void) {
    const char *b = getenv("BUILD");
    return b && *b ? b : "build";
}

void test_sh(const char *fmt, ...) {
    char cmd[4096];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(cmd, sizeof cmd, fmt, ap);
    va_end(ap);
    if (system(cmd) != 0) {
        fprintf(stderr, "command failed: %s\n", cmd);
        exit(1);
    }
}

unsigned char *test_slurp(const char *path, size_t *size) {
    FILE *f = fopen(path, "rb");
    if (!f) {
        perror(path);
        exit(1);
    }
    fseek(f, 0, SEEK_END);
    long n = ftell(f);
    fseek(f, 0, SEEK_SET);
    unsigned char *buf = malloc(n > 0 ? (size_t)n : 1);
    if (!buf || fread(buf, 1, (size_t)n, f) != (size_t)n) {
        fprintf(stderr, "cannot read %s\n", path);
        exit(1);
    }
    fclose(f);
    *size = (size_t)n;
    return buf;
}

int test_isa_arch(const char *name) {
    size_t len = strcspn(name, ":");
    int a = 0;
    while (a < ISA_NARCH &&
           !(strlen(isa_targets[a].name) == len && strncmp(name, isa_targets[a].name, len) == 0))
        a++;
    return a;
}

unsigned long long test_hash(const void *p, size_t n, unsigned long long h) {
    const unsigned char *b = p;
    for (size_t i = 0; i < n; i++)
        h = (h ^ b[i]) * 0x100000001b3ull;
    return h;
}

static void which(const char *name, char *found);

unsigned long long test_file_identity(const char *path) {
    char found[PATH_MAX], real[PATH_MAX];
    if (!strchr(path, '/')) {
        which(path, found);
        path = found;
    }
    struct stat st;
    if (!path[0] || !realpath(path, real) || stat(real, &st) != 0)
        return 0;
    unsigned long long id[3] = {(unsigned long long)st.st_size,
                                (unsigned long long)st.st_mtim.tv_sec,
                                (unsigned long long)st.st_ino};
    return test_hash(id, sizeof id, test_hash(real, strlen(real), TEST_HASH0));
}

static const char cache_magic[8] = "gfxorc2";

static int cache_on(void) {
    const char *e = getenv("GFXEMU_ORACLE_CACHE");
    return !(e && strcmp(e, "0") == 0);
}

int test_cache_get(const char *name, unsigned long long key2, unsigned char **data, size_t *n) {
    char path[1024];
    snprintf(path, sizeof path, "%s/oracle-cache/%s", test_build_dir(), name);
    FILE *f = cache_on() ? fopen(path, "rb") : NULL;
    if (!f)
        return -1;
    char magic[8];
    unsigned long long k, len;
    unsigned char *buf = NULL;
    int ok = fread(magic, 8, 1, f) == 1 && memcmp(magic, cache_magic, 8) == 0 &&
             fread(&k, 8, 1, f) == 1 && k == key2 && fread(&len, 8, 1, f) == 1 &&
             len < ((size_t)1 << 34) && (buf = malloc(len + 1)) != NULL &&
             fread(buf, 1, len, f) == len && fgetc(f) == EOF;
    fclose(f);
    if (!ok) {
        free(buf);
        return -1;
    }
    buf[len] = 0; /* text answers can be read as strings */
    *data = buf;
    *n = len;
    return 0;
}

void test_cache_put(const char *name, unsigned long long key2, const void *data, size_t n) {
    char path[1024], tmp[1100];
    if (!cache_on())
        return;
    snprintf(path, sizeof path, "%s/oracle-cache", test_build_dir());
    mkdir(path, 0777);
    snprintf(path, sizeof path, "%s/oracle-cache/%s", test_build_dir(), name);
    snprintf(tmp, sizeof tmp, "%s.tmp%d", path, (int)getpid());
    FILE *f = fopen(tmp, "wb");
    if (!f)
        return;
    unsigned long long len = n;
    int ok = fwrite(cache_magic, 8, 1, f) == 1 && fwrite(&key2, 8, 1, f) == 1 &&
             fwrite(&len, 8, 1, f) == 1 && fwrite(data, 1, n, f) == n;
    if (fclose(f) != 0 || !ok || rename(tmp, path) != 0)
        remove(tmp);
}

/* The file name found in $PATH for a program name ("" if none), in found[PATH_MAX]. */
static void which(const char *name, char *found) {
    const char *dirs = getenv("PATH");
    found[0] = 0;
    while (dirs && *dirs && !found[0]) {
        size_t len = strcspn(dirs, ":");
        snprintf(found, PATH_MAX, "%.*s/%s", (int)len, dirs, name);
        if (access(found, X_OK) != 0)
            found[0] = 0;
        dirs += len + (dirs[len] == ':');
    }
}

/* kbuild.sh's own check, with mtimes instead of contents: OUT.cmd holds "MODE ARGS" (ARGS with
 * single spaces, as bash's "$*" joins them), every file OUT.sum names and the compilers are not
 * newer than OUT.  Anything else, kbuild.sh decides (by content) and rebuilds if it must. */
static int kbuild_fresh(const char *mode, const char *out, const char *args) {
    char cmd[4096], line[4096], path[PATH_MAX + 64];
    size_t n = (size_t)snprintf(cmd, sizeof cmd, "%s", mode);
    for (const char *a = args; *a && n + 2 < sizeof cmd;) {
        size_t len = strcspn(a, " \t");
        if (len)
            n += (size_t)snprintf(cmd + n, sizeof cmd - n, " %.*s", (int)len, a);
        a += len + (a[len] != 0);
    }
    struct stat o, d;
    if (stat(out, &o) != 0)
        return 0;
    snprintf(path, sizeof path, "%s.cmd", out);
    FILE *f = fopen(path, "r");
    int ok = f && fgets(line, sizeof line, f) && strcspn(line, "\n") == strlen(cmd) &&
             strncmp(line, cmd, strlen(cmd)) == 0;
    if (f)
        fclose(f);
    snprintf(path, sizeof path, "%s.sum", out);
    f = ok ? fopen(path, "r") : NULL;
    ok = f != NULL;
    while (ok && fgets(line, sizeof line, f)) { /* "<sha1>  <path>" */
        line[strcspn(line, "\n")] = 0;
        ok = strlen(line) > 42 && stat(line + 42, &d) == 0 &&
             (d.st_mtim.tv_sec < o.st_mtim.tv_sec ||
              (d.st_mtim.tv_sec == o.st_mtim.tv_sec && d.st_mtim.tv_nsec <= o.st_mtim.tv_nsec));
    }
    if (f)
        fclose(f);
    const char *tools[] = {"clang-22", "ld.lld-22"};
    for (int i = 0; ok && i < 2; i++) {
        char found[PATH_MAX], real[PATH_MAX];
        which(tools[i], found);
        ok = found[0] && realpath(found, real) && stat(real, &d) == 0 &&
             d.st_mtim.tv_sec <= o.st_mtim.tv_sec;
    }
    return ok;
}

void test_kbuild(const char *mode, const char *out, const char *args) {
    if (!kbuild_fresh(mode, out, args))
        test_sh("bash tests/common/kbuild.sh %s %s %s", mode, out, args);
}

int test_write_source(const char *name, const char *text, char *path, size_t size) {
    snprintf(path, size, "%s/test-kernels/%s", test_build_dir(), name);
    test_sh("mkdir -p %s/test-kernels", test_build_dir());
    FILE *f = fopen(path, "w");
    if (!f || fputs(text, f) == EOF || fclose(f) != 0) {
        printf("FAIL: cannot write the kernel source %s\n", path);
        return -1;
    }
    return 0;
}

int run_code(struct wave *w, const char *arch, const unsigned char *code, size_t n, unsigned lanes,
             unsigned long long budget) {
    xprog p;
    if (xprog_build_waves(&p, test_isa_arch(arch), code, (uint32_t)n, 0x1000, lanes) != 0)
        return -1;
    w->prog = &p;
    w->pc = 0;
    w->budget = budget;
    w->status = WAVE_RUNNING;
    memset(&w->fault, 0, sizeof w->fault);
    /* s_sleep ends a wave's turn (WAVE_YIELD); a wave alone has nothing to yield to */
    do {
        if (w->status == WAVE_YIELD)
            w->status = WAVE_RUNNING;
        wave_run(w);
    } while (w->status == WAVE_YIELD && w->budget);
    w->prog = NULL;
    xprog_free(&p);
    return w->status;
}
