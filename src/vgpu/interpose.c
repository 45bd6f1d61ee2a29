/* interpose.c - the libc calls libgfxemu-vgpu.so takes over (LD_PRELOAD), and process set-up.
 *
 * Paths: /dev/kfd and /dev/dri/renderD<128+i> open the library's memfd (vgpu.h); the sysfs
 * topology (/sys/devices/virtual/kfd, /sys/class/kfd), the render nodes' sysfs devices
 * (/sys/class/drm/renderD<minor>), /sys/module/amdgpu and /proc/modules are redirected into a
 * tree of real files (topology.c), so open/fopen/opendir/readdir/stat/access work on them
 * unchanged.  ioctl() on a memfd descriptor goes to kfd.c ('K' requests) or drm.c ('d').  mmap()
 * of the memfd is made MAP_SHARED and readable/writable (the thunk maps VRAM without host access
 * PROT_NONE/MAP_PRIVATE; here VRAM is host memory that kernels reach at the same address).
 *
 * Limits (docs/virtual-gpu.md): statically linked programs and raw syscalls bypass all of this.
 */
#include <dirent.h>
#include <dlfcn.h>
#include <errno.h>
#include <fcntl.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <time.h>
#include <unistd.h>

#include "vgpu/vgpu.h"

#define EXPORT __attribute__((visibility("default")))

vg_state vg = {.memfd = -1, .lock = PTHREAD_MUTEX_INITIALIZER, .space = PTHREAD_RWLOCK_INITIALIZER};

void vg_msg(const char *fmt, ...) {
    /* One write per line: queue threads report at the same time (a prefix written apart from
     * its message interleaved as "gfxemu: gfxemu: ..."). */
    static const char prefix[] = "gfxemu: ";
    char buf[1024];
    memcpy(buf, prefix, sizeof prefix - 1);
    size_t room = sizeof buf - (sizeof prefix - 1) - 1;
    va_list ap;
    va_start(ap, fmt);
    int n = vsnprintf(buf + sizeof prefix - 1, room, fmt, ap);
    va_end(ap);
    if (n < 0)
        return;
    if ((size_t)n > room - 1)
        n = (int)room - 1;
    size_t len = sizeof prefix - 1 + (size_t)n;
    buf[len++] = '\n';
    flockfile(stderr);
    fwrite(buf, 1, len, stderr);
    fflush(stderr);
    funlockfile(stderr);
}

uint64_t vg_now_ns(void) {
    struct timespec ts;
    clock_gettime(CLOCK_BOOTTIME, &ts);
    return (uint64_t)ts.tv_sec * 1000000000ull + (uint64_t)ts.tv_nsec;
}

/* ---- the real functions -------------------------------------------------------------------- */

#define REAL(name) real_##name
#define RESOLVE(name)                                                                              \
    do {                                                                                           \
        if (!REAL(name))                                                                           \
            *(void **)&REAL(name) = dlsym(RTLD_NEXT, #name);                                       \
    } while (0)

static int (*REAL(open))(const char *, int, ...);
static int (*REAL(open64))(const char *, int, ...);
static int (*REAL(openat))(int, const char *, int, ...);
static int (*REAL(openat64))(int, const char *, int, ...);
static int (*REAL(__open_2))(const char *, int);
static int (*REAL(__open64_2))(const char *, int);
static FILE *(*REAL(fopen))(const char *, const char *);
static FILE *(*REAL(fopen64))(const char *, const char *);
static DIR *(*REAL(opendir))(const char *);
static int (*REAL(stat))(const char *, struct stat *);
static int (*REAL(lstat))(const char *, struct stat *);
static int (*REAL(stat64))(const char *, struct stat64 *);
static int (*REAL(lstat64))(const char *, struct stat64 *);
static int (*REAL(__xstat))(int, const char *, struct stat *);
static int (*REAL(__lxstat))(int, const char *, struct stat *);
static int (*REAL(__xstat64))(int, const char *, struct stat64 *);
static int (*REAL(__lxstat64))(int, const char *, struct stat64 *);
static int (*REAL(access))(const char *, int);
static ssize_t (*REAL(readlink))(const char *, char *, size_t);
static char *(*REAL(realpath))(const char *, char *);
static int (*REAL(ioctl))(int, unsigned long, ...);
static void *(*REAL(mmap))(void *, size_t, int, int, int, off_t);
static void *(*REAL(mmap64))(void *, size_t, int, int, int, off64_t);

/* ---- set-up -------------------------------------------------------------------------------- */

const vg_card *vg_card_find(const char *target);

static unsigned long long env_num(const char *name, unsigned long long def) {
    const char *s = getenv(name);
    if (!s || !*s)
        return def;
    char *end;
    unsigned long long v = strtoull(s, &end, 0);
    if (*end == 'K' || *end == 'k')
        v <<= 10, end++;
    else if (*end == 'M' || *end == 'm')
        v <<= 20, end++;
    else if (*end == 'G' || *end == 'g')
        v <<= 30, end++;
    if (*end) {
        vg_msg("%s=%s is not a number; using %llu", name, s, def);
        return def;
    }
    return v;
}

static void init_body(void);
static pthread_once_t vg_once = PTHREAD_ONCE_INIT;
static int vg_init_result = -1;
/* Set while init_once() runs: the files it writes go through the interposers, which must not
 * wait for the set-up they are part of. */
static _Thread_local int vg_initing;

static void init_once(void) {
    vg_initing = 1;
    init_body();
    vg_initing = 0;
}

static void init_body(void) {
    const char *arch = getenv("GFXEMU_VGPU_ARCH");
    vg.card = vg_card_find(arch && *arch ? arch : "gfx950");
    if (!vg.card) {
        vg_msg("GFXEMU_VGPU_ARCH=%s is not a target the virtual GPU knows (gfx950, gfx942, "
               "gfx90a); no virtual GPU",
               arch);
        return;
    }
    vg.ngpus = (unsigned)env_num("GFXEMU_VGPU_DEVICES", 1);
    if (vg.ngpus < 1 || vg.ngpus > VG_MAX_GPUS) {
        vg_msg("GFXEMU_VGPU_DEVICES=%u: 1 to %d GPUs; using 1", vg.ngpus, VG_MAX_GPUS);
        vg.ngpus = 1;
    }
    vg.threads = (unsigned)env_num("GFXEMU_THREADS", 0);
    vg.vram = env_num("GFXEMU_VGPU_VRAM", 64ull << 30);
    if (vg.vram < (64ull << 20))
        vg.vram = 64ull << 20;
    const char *mc = getenv("GFXEMU_MEMCHECK");
    vg.memcheck = mc && strcmp(mc, "1") == 0;
    const char *stats = getenv("GFXEMU_VGPU_STATS");
    vg.stats = stats && strcmp(stats, "1") == 0;
    vg_timeline_init();
    vg_profile_init();
    /* One sparse file for every object: pages exist only once written (memory backed lazily). */
    vg.memfd = (int)syscall(SYS_memfd_create, "gfxemu-vgpu", 1u /* MFD_CLOEXEC */);
    if (vg.memfd < 0 || ftruncate(vg.memfd, 1ll << 46) != 0) {
        vg_msg("cannot create the virtual GPU's memory file: %s", strerror(errno));
        return;
    }
    struct stat st;
    if (fstat(vg.memfd, &st) != 0)
        return;
    vg.memfd_dev = st.st_dev;
    vg.memfd_ino = st.st_ino;
    /* The doorbell page is the file's first 8 KiB, shared by every GPU (queue ids are unique
     * per process, so are their doorbells).  It must be at offset 0: ROCm 5.2's thunk splits the
     * first queue's doorbell offset with a page size it has not read yet (0), so it maps offset
     * 0 and adds the whole offset KFD returned to the mapping. */
    vg.next_offset = VG_DOORBELL_PAGE;
    void *db = REAL(mmap)(NULL, VG_DOORBELL_PAGE, PROT_READ | PROT_WRITE, MAP_SHARED, vg.memfd, 0);
    if (db == MAP_FAILED)
        return;
    for (unsigned i = 0; i < vg.ngpus; i++) {
        vg.doorbell_offset[i] = 0;
        vg.doorbell[i] = db;
    }
    if (vg_topology_build() != 0)
        return;
    /* Warn at exit when the runtime never opened the GPU, in the first process only (the one
     * `gfxemu exec` started, or the first to load the library): a shell script's helpers do
     * not open it and should not warn. */
    const char *root = getenv("GFXEMU_VGPU_PID");
    char me[32];
    snprintf(me, sizeof me, "%ld", (long)getpid());
    vg.warn = !root || !*root || strcmp(root, me) == 0;
    vg.pid = getpid();
    if (!root || !*root)
        setenv("GFXEMU_VGPU_PID", me, 1);
    vg.ready = 1;
    vg_init_result = 0;
}

static void resolve_all(void) {
    RESOLVE(open);
    RESOLVE(open64);
    RESOLVE(openat);
    RESOLVE(openat64);
    RESOLVE(__open_2);
    RESOLVE(__open64_2);
    RESOLVE(fopen);
    RESOLVE(fopen64);
    RESOLVE(opendir);
    RESOLVE(stat);
    RESOLVE(lstat);
    RESOLVE(stat64);
    RESOLVE(lstat64);
    RESOLVE(__xstat);
    RESOLVE(__lxstat);
    RESOLVE(__xstat64);
    RESOLVE(__lxstat64);
    RESOLVE(access);
    RESOLVE(readlink);
    RESOLVE(realpath);
    RESOLVE(ioctl);
    RESOLVE(mmap);
    RESOLVE(mmap64);
}

int vg_init(void) {
    resolve_all();
    if (vg_initing)
        return -1;
    pthread_once(&vg_once, init_once);
    return vg_init_result;
}

__attribute__((constructor)) static void vg_ctor(void) { vg_init(); }

__attribute__((destructor)) static void vg_dtor(void) {
    /* A child forked without exec inherits this state but none of the queue threads, the
     * timeline or the virtual GPU the parent opened: joining those threads would wait forever,
     * and its exit must not warn for the parent (a pyenv shim's subshells printed the warning
     * once each). */
    if (!vg.ready || getpid() != vg.pid)
        return;
    vg_queues_stop();
    vg_timeline_close();
    if (vg.stats)
        vg_stats_print();
    vg_profile_print();
    if (vg.warn && !vg.opened)
        vg_msg("warning: the program never opened the virtual GPU (%s, %s): its runtime may not "
               "know this target (Debian's ROCm 5.2 knows gfx90a but not gfx942/gfx950; try "
               "--arch gfx90a), or it is statically linked or does not use ROCm",
               vg.card->target, vg.card->product);
    vg_topology_remove();
}

uint64_t vg_memfd_alloc(uint64_t size) {
    size = (size + VG_PAGE - 1) & ~(VG_PAGE - 1);
    /* Doorbell pages must sit at multiples of their size (the thunk masks the offset). */
    uint64_t align = size >= VG_DOORBELL_PAGE ? VG_DOORBELL_PAGE : VG_PAGE;
    uint64_t off = (__atomic_load_n(&vg.next_offset, __ATOMIC_RELAXED) + align - 1) & ~(align - 1);
    vg.next_offset = off + size;
    return off;
}

void vg_memfd_release(uint64_t offset, uint64_t size) {
    size = (size + VG_PAGE - 1) & ~(VG_PAGE - 1);
    /* Give the pages back; the range is never handed out again. */
    fallocate(vg.memfd, FALLOC_FL_PUNCH_HOLE | FALLOC_FL_KEEP_SIZE, (off_t)offset, (off_t)size);
}

int vg_is_ours(int fd) {
    if (fd < 0 || !vg.ready)
        return 0;
    struct stat st;
    if (fstat(fd, &st) != 0)
        return 0;
    return (uint64_t)st.st_dev == vg.memfd_dev && (uint64_t)st.st_ino == vg.memfd_ino;
}

/* ---- paths --------------------------------------------------------------------------------- */

enum { P_NONE = 0, P_REDIRECT, P_DEVICE };

static int starts(const char *p, const char *prefix) {
    size_t n = strlen(prefix);
    return strncmp(p, prefix, n) == 0 && (p[n] == 0 || p[n] == '/');
}

/* What path p is: a device this library answers, a file of the redirected tree (its real path
 * in buf), or neither. */
static int classify(const char *p, char *buf, size_t n) {
    if (!p || !vg.ready || p[0] != '/')
        return P_NONE;
    if (strcmp(p, "/dev/kfd") == 0)
        return P_DEVICE;
    unsigned minor;
    char tail;
    if (sscanf(p, "/dev/dri/renderD%u%c", &minor, &tail) == 1 && minor >= VG_RENDER_MINOR &&
        minor < VG_RENDER_MINOR + vg.ngpus)
        return P_DEVICE;
    int redirect = starts(p, "/sys/devices/virtual/kfd") || starts(p, "/sys/class/kfd") ||
                   starts(p, "/sys/module/amdgpu") || strcmp(p, "/proc/modules") == 0;
    unsigned cpu;
    int at = 0;
    if (!redirect && vg.fake_cpu_cache &&
        ((sscanf(p, "/sys/devices/system/node/node0/cpu%u/cache%n", &cpu, &at) == 1 && at) ||
         (sscanf(p, "/sys/devices/system/cpu/cpu%u/cache%n", &cpu, &at) == 1 && at)) &&
        (p[at] == 0 || p[at] == '/'))
        redirect = 1;
    if (!redirect && sscanf(p, "/sys/class/drm/renderD%u", &minor) == 1 &&
        minor >= VG_RENDER_MINOR && minor < VG_RENDER_MINOR + vg.ngpus)
        redirect = 1;
    if (!redirect)
        return P_NONE;
    snprintf(buf, n, "%s%s", vg.dir, p);
    return P_REDIRECT;
}

/* For stat/access: devices resolve to their stand-in files in the tree. */
static const char *stat_path(const char *p, char *buf, size_t n) {
    int k = classify(p, buf, n);
    if (k == P_DEVICE) {
        snprintf(buf, n, "%s%s", vg.dir, p);
        return buf;
    }
    return k == P_REDIRECT ? buf : p;
}

static int open_device(int flags) {
    vg.opened = 1;
    return fcntl(vg.memfd, (flags & O_CLOEXEC) ? F_DUPFD_CLOEXEC : F_DUPFD, 0);
}

#define MODE_ARG(flags, mode)                                                                      \
    mode_t mode = 0;                                                                               \
    if ((flags) & (O_CREAT | __O_TMPFILE)) {                                                       \
        va_list ap;                                                                                \
        va_start(ap, flags);                                                                       \
        mode = va_arg(ap, mode_t);                                                                 \
        va_end(ap);                                                                                \
    }

EXPORT int open(const char *path, int flags, ...) {
    MODE_ARG(flags, mode);
    vg_init();
    char buf[512];
    switch (classify(path, buf, sizeof buf)) {
    case P_DEVICE: return open_device(flags);
    case P_REDIRECT: return REAL(open)(buf, flags, mode);
    }
    return REAL(open)(path, flags, mode);
}

EXPORT int open64(const char *path, int flags, ...) {
    MODE_ARG(flags, mode);
    vg_init();
    char buf[512];
    switch (classify(path, buf, sizeof buf)) {
    case P_DEVICE: return open_device(flags);
    case P_REDIRECT: return REAL(open64)(buf, flags, mode);
    }
    return REAL(open64)(path, flags, mode);
}

EXPORT int openat(int dirfd, const char *path, int flags, ...) {
    MODE_ARG(flags, mode);
    vg_init();
    char buf[512];
    switch (classify(path, buf, sizeof buf)) {
    case P_DEVICE: return open_device(flags);
    case P_REDIRECT: return REAL(openat)(dirfd, buf, flags, mode);
    }
    return REAL(openat)(dirfd, path, flags, mode);
}

EXPORT int openat64(int dirfd, const char *path, int flags, ...) {
    MODE_ARG(flags, mode);
    vg_init();
    char buf[512];
    switch (classify(path, buf, sizeof buf)) {
    case P_DEVICE: return open_device(flags);
    case P_REDIRECT: return REAL(openat64)(dirfd, buf, flags, mode);
    }
    return REAL(openat64)(dirfd, path, flags, mode);
}

/* _FORTIFY_SOURCE builds call these instead of open(). */
EXPORT int __open_2(const char *path, int flags) { return open(path, flags); }
EXPORT int __open64_2(const char *path, int flags) { return open64(path, flags); }

static FILE *fopen_common(FILE *(*real)(const char *, const char *), const char *path,
                          const char *mode) {
    vg_init();
    char buf[512];
    switch (classify(path, buf, sizeof buf)) {
    case P_DEVICE: {
        int fd = open_device(O_CLOEXEC);
        return fd < 0 ? NULL : fdopen(fd, mode);
    }
    case P_REDIRECT: return real(buf, mode);
    }
    return real(path, mode);
}

EXPORT FILE *fopen(const char *path, const char *mode) {
    vg_init();
    return fopen_common(REAL(fopen), path, mode);
}

EXPORT FILE *fopen64(const char *path, const char *mode) {
    vg_init();
    return fopen_common(REAL(fopen64), path, mode);
}

EXPORT DIR *opendir(const char *path) {
    vg_init();
    char buf[512];
    return REAL(opendir)(classify(path, buf, sizeof buf) == P_REDIRECT ? buf : path);
}

EXPORT int stat(const char *path, struct stat *st) {
    vg_init();
    char buf[512];
    return REAL(stat)(stat_path(path, buf, sizeof buf), st);
}

EXPORT int lstat(const char *path, struct stat *st) {
    vg_init();
    char buf[512];
    return REAL(lstat)(stat_path(path, buf, sizeof buf), st);
}

EXPORT int stat64(const char *path, struct stat64 *st) {
    vg_init();
    char buf[512];
    return REAL(stat64)(stat_path(path, buf, sizeof buf), st);
}

EXPORT int lstat64(const char *path, struct stat64 *st) {
    vg_init();
    char buf[512];
    return REAL(lstat64)(stat_path(path, buf, sizeof buf), st);
}

/* Programs built against glibc before 2.33 call these. */
EXPORT int __xstat(int ver, const char *path, struct stat *st) {
    vg_init();
    char buf[512];
    return REAL(__xstat)(ver, stat_path(path, buf, sizeof buf), st);
}

EXPORT int __lxstat(int ver, const char *path, struct stat *st) {
    vg_init();
    char buf[512];
    return REAL(__lxstat)(ver, stat_path(path, buf, sizeof buf), st);
}

EXPORT int __xstat64(int ver, const char *path, struct stat64 *st) {
    vg_init();
    char buf[512];
    return REAL(__xstat64)(ver, stat_path(path, buf, sizeof buf), st);
}

EXPORT int __lxstat64(int ver, const char *path, struct stat64 *st) {
    vg_init();
    char buf[512];
    return REAL(__lxstat64)(ver, stat_path(path, buf, sizeof buf), st);
}

EXPORT int access(const char *path, int mode) {
    vg_init();
    char buf[512];
    return REAL(access)(stat_path(path, buf, sizeof buf), mode);
}

EXPORT ssize_t readlink(const char *path, char *out, size_t n) {
    vg_init();
    char buf[512];
    return REAL(readlink)(stat_path(path, buf, sizeof buf), out, n);
}

EXPORT char *realpath(const char *path, char *out) {
    vg_init();
    char buf[512];
    /* The answer names the path asked for, not the tree it was redirected into. */
    if (classify(path, buf, sizeof buf) != P_NONE) {
        if (REAL(access)(stat_path(path, buf, sizeof buf), F_OK) != 0)
            return NULL;
        if (!out)
            return strdup(path);
        snprintf(out, 4096, "%s", path);
        return out;
    }
    return REAL(realpath)(path, out);
}

/* ---- ioctl and mmap ------------------------------------------------------------------------ */

EXPORT int ioctl(int fd, unsigned long req, ...) {
    va_list ap;
    va_start(ap, req);
    void *arg = va_arg(ap, void *);
    va_end(ap);
    vg_init();
    unsigned type = (unsigned)_IOC_TYPE(req);
    if ((type == 'K' || type == 'd') && vg_is_ours(fd))
        return type == 'K' ? vg_kfd_ioctl(req, arg) : vg_drm_ioctl(fd, req, arg);
    return REAL(ioctl)(fd, req, arg);
}

static int fix_map(int fd, int *prot, int *flags) {
    if (fd < 0 || (*flags & MAP_ANONYMOUS) || !vg_is_ours(fd))
        return 0;
    /* Device memory is host memory here: a mapping of it is always shared (the GPU's view and
     * the CPU's are the same pages) and accessible. */
    *flags = (*flags & ~MAP_PRIVATE) | MAP_SHARED;
    *prot |= PROT_READ | PROT_WRITE;
    return 1;
}

EXPORT void *mmap(void *addr, size_t len, int prot, int flags, int fd, off_t off) {
    vg_init();
    fix_map(fd, &prot, &flags);
    return REAL(mmap)(addr, len, prot, flags, fd, off);
}

EXPORT void *mmap64(void *addr, size_t len, int prot, int flags, int fd, off64_t off) {
    vg_init();
    fix_map(fd, &prot, &flags);
    return REAL(mmap64)(addr, len, prot, flags, fd, off);
}

/* For kfd.c: map the memfd without going through the interposer's checks. */
void *vg_map_fixed(uint64_t va, uint64_t size, uint64_t offset) {
    return REAL(mmap)((void *)(uintptr_t)va, size, PROT_READ | PROT_WRITE, MAP_SHARED | MAP_FIXED,
                      vg.memfd, (off_t)offset);
}
