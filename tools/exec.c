/* exec.c - `gfxemu exec`: run an unmodified ROCm program on a virtual AMD GPU.
 *
 * Sets LD_PRELOAD to libgfxemu-vgpu.so (src/vgpu/, docs/virtual-gpu.md) and the GFXEMU_*
 * variables it reads, then execs the program: the same process, so its exit status is the
 * program's and its children inherit the virtual GPU.  The library is looked up beside the
 * gfxemu binary (the build directory), then in ../lib (an installed prefix); GFXEMU_VGPU_LIB
 * names it explicitly.
 */
#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "cli.h"

const char exec_usage[] =
    "usage: gfxemu exec [--arch gfx950|gfx942|gfx90a] [--devices N] [--threads N] [--memcheck]\n"
    "                   [--vram BYTES] [--stats] [--timeline FILE] [--counters[=LIST]]\n"
    "                   [--att DIR] -- PROGRAM [ARGS...]\n"
    "\n"
    "Run PROGRAM, unmodified, on virtual AMD GPUs: the kernel driver's interface (/dev/kfd,\n"
    "the render node, the sysfs topology) is answered by libgfxemu-vgpu.so, preloaded into the\n"
    "program and its children, and the kernels it launches run on gfxemu.\n"
    "\n"
    "  --arch T       the GPU: gfx950 (MI355X, default), gfx942 (MI300X), gfx90a (MI210).\n"
    "                 Debian's ROCm 5.2 knows gfx90a but not gfx942/gfx950.\n"
    "  --devices N    N GPUs (default 1, at most 8)\n"
    "  --threads N    worker threads of each queue's engine (default: one per core)\n"
    "  --memcheck     byte-exact checking of every kernel's global accesses\n"
    "  --vram BYTES   VRAM per GPU (suffix K, M or G; default 64G, backed lazily)\n"
    "  --stats        at exit, per kernel symbol: dispatches, wave-instructions, waves,\n"
    "                 workgroups and emulation time (stderr, most time first); SDMA copies\n"
    "  --timeline FILE  one timeline of the whole program (Chrome trace-event JSON for\n"
    "                 ui.perfetto.dev): a track per queue, every kernel dispatch named by its\n"
    "                 symbol, SDMA copies and fills, barrier waits; wall-clock time\n"
    "  --counters[=LIST]  at exit, the performance counters of every kernel dispatch, named\n"
    "                 by its symbol (those of gfxemu run --counters; LIST: names, default all).\n"
    "                 Profiled dispatches run on one thread\n"
    "  --att DIR      thread traces in AMD's format (as gfxemu run --att) of every dispatch,\n"
    "                 in DIR/dispatch_<N>_<kernel>/, N counting dispatches from 1\n"
    "\n"
    "The same with the library directly: LD_PRELOAD=.../libgfxemu-vgpu.so GFXEMU_VGPU_ARCH=T\n"
    "GFXEMU_VGPU_DEVICES=N GFXEMU_THREADS=N GFXEMU_MEMCHECK=1 GFXEMU_VGPU_VRAM=BYTES\n"
    "GFXEMU_VGPU_STATS=1 GFXEMU_VGPU_TIMELINE=FILE GFXEMU_VGPU_COUNTERS=1|LIST\n"
    "GFXEMU_VGPU_ATT=DIR PROGRAM.\n"
    "Exit status: PROGRAM's; 2 usage error; 127 PROGRAM could not be run.\n";

static int exec_fail(int code, const char *fmt, const char *a) {
    fputs("gfxemu: error: exec: ", stderr);
    fprintf(stderr, fmt, a);
    fputc('\n', stderr);
    return code;
}

static int is_number(const char *s, int suffix) {
    if (!s || !*s)
        return 0;
    char *end;
    errno = 0;
    unsigned long long v = strtoull(s, &end, 0);
    (void)v;
    if (errno || end == s || s[0] == '-')
        return 0;
    if (suffix &&
        (*end == 'K' || *end == 'M' || *end == 'G' || *end == 'k' || *end == 'm' || *end == 'g'))
        end++;
    return *end == 0;
}

/* The preload library: GFXEMU_VGPU_LIB, else beside the running gfxemu, else ../lib. */
static int find_lib(char *out, size_t n) {
    /* out is PATH_MAX + 64 bytes: room for self (< PATH_MAX) and the suffixes */
    const char *env = getenv("GFXEMU_VGPU_LIB");
    if (env && *env) {
        snprintf(out, n, "%s", env);
        return access(out, R_OK) == 0 ? 0 : -1;
    }
    char self[PATH_MAX];
    ssize_t len = readlink("/proc/self/exe", self, sizeof self - 1);
    if (n < sizeof self + 32)
        return -1;
    if (len <= 0)
        return -1;
    self[len] = 0;
    char *slash = strrchr(self, '/');
    if (!slash)
        return -1;
    *slash = 0;
    snprintf(out, n, "%s/libgfxemu-vgpu.so", self);
    if (access(out, R_OK) == 0)
        return 0;
    snprintf(out, n, "%s/../lib/libgfxemu-vgpu.so", self);
    return access(out, R_OK) == 0 ? 0 : -1;
}

int cmd_exec(int argc, char **argv) {
    const char *arch = "gfx950", *devices = NULL, *threads = NULL, *vram = NULL, *timeline = NULL;
    const char *counters = NULL, *att = NULL;
    int memcheck = 0, stats = 0, i = 1;
    for (; i < argc; i++) {
        const char *a = argv[i];
        if (strcmp(a, "--") == 0) {
            i++;
            break;
        }
        if (strcmp(a, "--help") == 0 || strcmp(a, "-h") == 0) {
            fputs(exec_usage, stdout);
            return 0;
        }
        if (strcmp(a, "--memcheck") == 0) {
            memcheck = 1;
            continue;
        }
        if (strcmp(a, "--stats") == 0) {
            stats = 1;
            continue;
        }
        if (strcmp(a, "--counters") == 0 || strncmp(a, "--counters=", 11) == 0) {
            uint32_t mask;
            counters = a[10] == '=' ? a + 11 : "1";
            if (a[10] == '=' && cli_counters_parse(counters, &mask) != 0)
                return exec_fail(2, "--counters=%s: a list of counter names", counters);
            continue;
        }
        const char **slot = strcmp(a, "--arch") == 0       ? &arch
                            : strcmp(a, "--devices") == 0  ? &devices
                            : strcmp(a, "--threads") == 0  ? &threads
                            : strcmp(a, "--vram") == 0     ? &vram
                            : strcmp(a, "--timeline") == 0 ? &timeline
                            : strcmp(a, "--att") == 0      ? &att
                                                           : NULL;
        if (slot) {
            if (i + 1 >= argc)
                return exec_fail(2, "%s needs a value", a);
            *slot = argv[++i];
            continue;
        }
        if (a[0] == '-')
            return exec_fail(2, "unknown option '%s' (see gfxemu exec --help)", a);
        break; /* the program, without "--" */
    }
    if (i >= argc)
        return exec_fail(2, "%s", "no program to run (gfxemu exec [OPTIONS] -- PROGRAM [ARGS...])");
    if (strcmp(arch, "gfx950") != 0 && strcmp(arch, "gfx942") != 0 && strcmp(arch, "gfx90a") != 0)
        return exec_fail(2, "--arch %s: the virtual GPU is gfx950, gfx942 or gfx90a", arch);
    if (devices && (!is_number(devices, 0) || atoi(devices) < 1 || atoi(devices) > 8))
        return exec_fail(2, "--devices %s: a number from 1 to 8", devices);
    if (threads && (!is_number(threads, 0) || atoi(threads) > 1024))
        return exec_fail(2, "--threads %s: a number from 0 (one per core) to 1024", threads);
    if (vram && !is_number(vram, 1))
        return exec_fail(2, "--vram %s: bytes, optionally with a K, M or G suffix", vram);

    char lib[PATH_MAX + 64];
    if (find_lib(lib, sizeof lib) != 0)
        return exec_fail(127, "%s",
                         "libgfxemu-vgpu.so not found beside gfxemu or in ../lib (set "
                         "GFXEMU_VGPU_LIB)");
    /* After whatever the caller preloads already (a sanitizer runtime must come first), and
     * after GFXEMU_VGPU_PRELOAD: libraries for the program only, not for gfxemu itself (clang's
     * shared TSan runtime, which an instrumented libgfxemu-vgpu.so needs, breaks a gfxemu that
     * has TSan linked in). */
    const char *old = getenv("LD_PRELOAD"), *first = getenv("GFXEMU_VGPU_PRELOAD");
    size_t plen = strlen(lib) + (old ? strlen(old) + 1 : 0) + (first ? strlen(first) + 1 : 0) + 1;
    char *preload = malloc(plen);
    if (!preload)
        return exec_fail(127, "%s", "out of memory");
    snprintf(preload, plen, "%s%s%s%s%s", old && *old ? old : "", old && *old ? ":" : "",
             first && *first ? first : "", first && *first ? ":" : "", lib);
    setenv("LD_PRELOAD", preload, 1);
    free(preload);
    setenv("GFXEMU_VGPU_ARCH", arch, 1);
    if (devices)
        setenv("GFXEMU_VGPU_DEVICES", devices, 1);
    if (threads)
        setenv("GFXEMU_THREADS", threads, 1);
    if (vram)
        setenv("GFXEMU_VGPU_VRAM", vram, 1);
    if (memcheck)
        setenv("GFXEMU_MEMCHECK", "1", 1);
    if (stats)
        setenv("GFXEMU_VGPU_STATS", "1", 1);
    if (counters)
        setenv("GFXEMU_VGPU_COUNTERS", counters, 1);
    /* absolute paths: the program may change its directory before its first dispatch */
    const char *paths[2][2] = {{timeline, "GFXEMU_VGPU_TIMELINE"}, {att, "GFXEMU_VGPU_ATT"}};
    for (int p = 0; p < 2; p++) {
        const char *path = paths[p][0];
        if (!path)
            continue;
        char abs[PATH_MAX + 1];
        if (path[0] != '/' && getcwd(abs, sizeof abs) &&
            strlen(abs) + strlen(path) + 2 <= sizeof abs) {
            strcat(abs, "/");
            strcat(abs, path);
            setenv(paths[p][1], abs, 1);
        } else {
            setenv(paths[p][1], path, 1);
        }
    }
    /* exec keeps the process id: the library warns at exit in this process only (not in the
     * program's helpers) when the virtual GPU was never opened. */
    char pid[32];
    snprintf(pid, sizeof pid, "%ld", (long)getpid());
    setenv("GFXEMU_VGPU_PID", pid, 1);
    fflush(stdout);
    execvp(argv[i], argv + i);
    char why[PATH_MAX + 64];
    snprintf(why, sizeof why, "%s: %s", argv[i], strerror(errno));
    return exec_fail(127, "cannot run %s", why);
}
