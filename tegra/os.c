/* os.c - the real backend: libc's open/ioctl/mmap/munmap/close.  The library calls the OS only
 * through an nvt_os table, so the simulated kernel driver (tegra/sim/) can stand in for nvmap and
 * nvgpu without changing a line of driver code. */
#include "nvtegra.h"

#include <errno.h>
#include <fcntl.h>
#include <sys/ioctl.h>
#include <sys/mman.h>
#include <unistd.h>

static int os_open(void *ctx, const char *path, int flags) {
    (void)ctx;
    int fd = open(path, flags | O_CLOEXEC);
    return fd < 0 ? -errno : fd;
}

static int os_ioctl(void *ctx, int fd, unsigned long req, void *arg) {
    (void)ctx;
    int rc;
    do
        rc = ioctl(fd, req, arg);
    while (rc < 0 && (errno == EINTR || errno == EAGAIN));
    return rc < 0 ? -errno : rc;
}

static void *os_mmap(void *ctx, void *addr, size_t len, int prot, int flags, int fd, off_t off) {
    (void)ctx;
    return mmap(addr, len, prot, flags, fd, off);
}

static int os_munmap(void *ctx, void *addr, size_t len) {
    (void)ctx;
    return munmap(addr, len) < 0 ? -errno : 0;
}

static int os_close(void *ctx, int fd) {
    (void)ctx;
    return close(fd) < 0 ? -errno : 0;
}

const nvt_os *nvt_os_linux(void) {
    static const nvt_os os = {os_open, os_ioctl, os_mmap, os_munmap, os_close, NULL};
    return &os;
}
