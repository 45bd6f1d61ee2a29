/* internal.h - libnvtegra's private structures, shared by dev.c, queue.c and module.c. */
#ifndef NVTEGRA_INTERNAL_H
#define NVTEGRA_INTERNAL_H

#include "nvtegra.h"

#include <stdarg.h>

struct nvt_dev {
    nvt_os os;
    nvt_info info;
    int nvmap_fd, ctrl_fd, as_fd;
    volatile uint32_t *usermode; /* doorbell window (mmap of the ctrl fd) */
    size_t page;
    /* MMU facts from GET_CHARACTERISTICS, checked before ALLOC_AS */
    uint32_t big_page_size, big_page_sizes, pde_bits;
    char err[256];
};

/* Set dev->err from a printf-style message and return rc (a negative errno). */
int nvt_fail(nvt_dev *dev, int rc, const char *fmt, ...) __attribute__((format(printf, 3, 4)));
/* An ioctl through the backend; a failure sets dev->err naming the call and returns -errno. */
int nvt_ioctl(nvt_dev *dev, int fd, unsigned long req, void *arg, const char *name);

#endif
