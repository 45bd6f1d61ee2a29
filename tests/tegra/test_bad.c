/* test_bad.c - libnvtegra and the simulated kernel driver on bad input: no device, oversized
 * and zero-sized allocations, nvmap running out of memory, an unmapped VA in a kernel's
 * arguments or program (a simulated MMU fault: the wait reports it instead of hanging, and a
 * new queue works afterwards), closed and wrong-kind fds, a non-power-of-two ring, binding in
 * the wrong order, and a driver built for one ABI talking to a kernel of the other. */
#include "tegra_test.h"
#include "../../tegra/abi.h"

#include <sys/mman.h>

static void test_no_device(void) {
    nvt_sim *sim = nvt_sim_create(NVT_ABI_R36);
    nvt_sim_set_present(sim, 0);
    nvt_dev *dev = (nvt_dev *)1;
    char err[256] = "";
    int rc = nvt_dev_open(nvt_sim_os(sim), &dev, err, sizeof err);
    CHECK(rc == -ENODEV && dev == NULL, "rc %d", rc);
    CHECK(strstr(err, "no nvgpu device found") != NULL, "message: %s", err);
    /* only the legacy ctrl node: the driver falls back to it */
    nvt_sim_set_present(sim, 2);
    rc = nvt_dev_open(nvt_sim_os(sim), &dev, err, sizeof err);
    CHECK(rc == 0 && !strcmp(nvt_dev_info(dev)->ctrl_path, "/dev/nvhost-ctrl-gpu"),
          "legacy node: rc %d %s", rc, rc ? err : nvt_dev_info(dev)->ctrl_path);
    nvt_dev_close(dev);
    nvt_sim_destroy(sim);
}

static void test_memory(void) {
    nvt_sim *sim = nvt_sim_create(NVT_ABI_R36);
    nvt_dev *dev = open_sim_dev(sim);
    nvt_sim_stats b, a;
    nvt_sim_stats_get(sim, &b);
    int fds = count_fds();
    nvt_mem *m = (nvt_mem *)1;
    CHECK(nvt_mem_alloc(dev, 0, 0, &m) == -EINVAL && m == NULL, "zero bytes");
    CHECK(nvt_mem_alloc(dev, 5ull << 30, 0, &m) == -EINVAL, "5 GiB: %s", nvt_dev_error(dev));
    CHECK(strstr(nvt_dev_error(dev), "32-bit") != NULL, "message: %s", nvt_dev_error(dev));
    CHECK(nvt_mem_alloc(dev, 4096, 7, &m) == -EINVAL, "bad cache flags");
    nvt_sim_set_mem_limit(sim, 64u << 20);
    CHECK(nvt_mem_alloc(dev, 128u << 20, 0, &m) == -ENOMEM, "over the nvmap limit");
    CHECK(strstr(nvt_dev_error(dev), "NVMAP_IOC_ALLOC") != NULL, "message names the call: %s",
          nvt_dev_error(dev));
    nvt_sim_stats_get(sim, &a);
    CHECK(count_fds() == fds && a.handles == b.handles && a.open_fds == b.open_fds,
          "failed allocations leak nothing (fds %d -> %d, handles %d -> %d)", fds, count_fds(),
          b.handles, a.handles);

    /* closed and wrong-kind fds at the ioctl level */
    const nvt_os *os = nvt_sim_os(sim);
    CHECK(nvt_mem_alloc(dev, 4096, 0, &m) == 0, "alloc");
    int stale = m->dmabuf_fd;
    nvt_mem_free(dev, m);
    struct nvt_as_map_buffer_ex mb = {0};
    mb.compr_kind = -1;
    mb.dmabuf_fd = (uint32_t)stale;
    mb.page_size = 4096;
    /* fd 3.. are ours; find the AS fd by asking each for an UNMAP of nothing: EINVAL = AS */
    int as_fd = -1;
    for (int fd = 0; fd < 256 && as_fd < 0; fd++) {
        struct nvt_as_unmap_buffer u = {0x1234};
        if (os->ioctl(os->ctx, fd, NVT_AS_IOCTL_UNMAP_BUFFER, &u) == -EINVAL)
            as_fd = fd;
    }
    CHECK(as_fd >= 0, "found the AS fd");
    CHECK(os->ioctl(os->ctx, as_fd, NVT_AS_IOCTL_MAP_BUFFER_EX, &mb) == -EINVAL,
          "MAP_BUFFER_EX of a closed dmabuf fd");
    mb.dmabuf_fd = (uint32_t)as_fd;
    CHECK(os->ioctl(os->ctx, as_fd, NVT_AS_IOCTL_MAP_BUFFER_EX, &mb) == -EINVAL,
          "MAP_BUFFER_EX of a non-dmabuf fd");
    CHECK(os->close(os->ctx, stale) == -EBADF, "closing a closed fd");
    CHECK(os->ioctl(os->ctx, stale, NVT_AS_IOCTL_UNMAP_BUFFER, &mb) == -EBADF, "ioctl on it");
    CHECK(os->ioctl(os->ctx, as_fd, NVT_NVMAP_IOC_CREATE, &mb) == -ENOTTY,
          "an nvmap ioctl on an AS fd");
    nvt_dev_close(dev);
    nvt_sim_destroy(sim);
}

/* Fill the address space libnvtegra allocates, [64 MiB, 2^37), with 4 GiB buffers (sparse
 * memfds, never touched): (2^37 - 2^26) / 2^32 = 31.98, so exactly 31 fit, every one inside the
 * range, and the 32nd is a clean ENOMEM that leaks nothing. */
static void test_va_exhaustion(void) {
    nvt_sim *sim = nvt_sim_create(NVT_ABI_R36);
    nvt_dev *dev = open_sim_dev(sim);
    nvt_sim_set_mem_limit(sim, ~0ull);
    int fds = count_fds();
    enum { MAX = 300 };
    static nvt_mem *m[MAX];
    int n = 0, rc = 0, outside = 0;
    while (n < MAX && (rc = nvt_mem_alloc(dev, 0xfffff000u, 0, &m[n])) == 0) {
        outside += m[n]->gpu_va < (64ull << 20) || m[n]->gpu_va + m[n]->size > (1ull << 37);
        n++;
    }
    CHECK(rc == -ENOMEM && n == 31, "%d buffers of 4 GiB, then rc %d: %s", n, rc,
          nvt_dev_error(dev));
    CHECK(strstr(nvt_dev_error(dev), "MAP_BUFFER_EX") != NULL, "message: %s", nvt_dev_error(dev));
    CHECK(outside == 0, "%d mappings outside [64 MiB, 2^37)", outside);
    for (int i = 0; i < n; i++)
        nvt_mem_free(dev, m[i]);
    nvt_sim_stats st;
    nvt_sim_stats_get(sim, &st);
    CHECK(count_fds() == fds && st.gpu_mappings == 0 && st.handles == 0,
          "after freeing: fds %d -> %d, %d mappings, %d handles", fds, count_fds(), st.gpu_mappings,
          st.handles);
    nvt_dev_close(dev);
    nvt_sim_destroy(sim);
}

static void test_fault_and_recovery(void) {
    nvt_sim *sim = nvt_sim_create(NVT_ABI_R36);
    nvt_dev *dev = open_sim_dev(sim);
    nvt_queue *q;
    CHECK(nvt_queue_create(dev, NULL, &q) == 0, "queue: %s", nvt_dev_error(dev));
    nvt_kernel_info ki = scale_info();
    nvt_kernel *k;
    nvt_kernel_load(dev, &ki, &k);
    nvt_sim_register_kernel(sim, k->code_va, sim_scale, NULL);
    uint64_t bad_va = 0xdead0000ull;
    int32_t n = 16;
    float s = 2.0f;
    const void *args[3] = {&bad_va, &n, &s};
    uint32_t one[3] = {1, 1, 1}, blk[3] = {16, 1, 1};
    uint64_t sig;
    CHECK(nvt_launch(q, k, one, blk, args, 3, &sig) == 0, "submit");
    int rc = nvt_queue_wait(q, sig, 300);
    CHECK(rc == -ETIMEDOUT, "wait on a faulted channel: %d", rc);
    CHECK(strstr(nvt_dev_error(dev), "no progress") != NULL, "message: %s", nvt_dev_error(dev));
    nvt_sim_stats st;
    nvt_sim_stats_get(sim, &st);
    CHECK(st.faults == 1 && strstr(st.last_fault, "MMU fault") != NULL, "fault: %u %s", st.faults,
          st.last_fault);
    /* more work on the faulted channel is reported, never hangs */
    CHECK(nvt_launch(q, k, one, blk, args, 3, &sig) == 0, "submit after fault");
    CHECK(nvt_queue_wait(q, sig, 100) == -ETIMEDOUT, "still reported");
    CHECK(nvt_queue_wait(q, sig + 5, 100) == -EINVAL, "waiting for a value never submitted");
    nvt_queue_destroy(q);

    /* recovery: a new channel works */
    CHECK(nvt_queue_create(dev, NULL, &q) == 0, "new queue: %s", nvt_dev_error(dev));
    nvt_mem *buf;
    nvt_mem_alloc(dev, 64, 0, &buf);
    float *f = buf->cpu;
    for (int i = 0; i < 16; i++)
        f[i] = (float)i;
    args[0] = &buf->gpu_va;
    CHECK(nvt_launch(q, k, one, blk, args, 3, &sig) == 0 && nvt_queue_wait(q, sig, 5000) == 0,
          "launch after recovery: %s", nvt_dev_error(dev));
    CHECK(f[15] == 30.0f, "f[15] = %g", (double)f[15]);

    /* an unmapped program address faults by name */
    nvt_kernel fake = *k;
    fake.code_va = 0x10000;
    CHECK(nvt_launch(q, &fake, one, blk, args, 3, &sig) == 0, "submit");
    CHECK(nvt_queue_wait(q, sig, 300) == -ETIMEDOUT, "program fault reported");
    nvt_sim_stats_get(sim, &st);
    CHECK(strstr(st.last_fault, "program at unmapped VA 0x10000") != NULL, "fault: %s",
          st.last_fault);
    /* a cubin's .nv.constant0 size near 2^32 (a NOBITS section needs no file bytes) must not
     * wrap the 16-byte rounding of the constant bank to a small size */
    nvt_kernel bigcb = *k;
    bigcb.info.cbuf0_size = 0xfffffff8u;
    CHECK(nvt_launch(q, &bigcb, one, blk, args, 3, NULL) == -E2BIG, "cbuf0 of 4 GiB - 8: %s",
          nvt_dev_error(dev));
    /* a launch the QMD cannot express is refused before submission */
    uint32_t huge[3] = {2048, 1, 1};
    CHECK(nvt_launch(q, k, one, huge, args, 3, NULL) == -EINVAL, "2048 threads per block");
    nvt_mem_free(dev, buf);
    nvt_kernel_unload(dev, k);
    nvt_queue_destroy(q);
    nvt_dev_close(dev);
    nvt_sim_destroy(sim);
}

static void test_channel_rules(void) {
    nvt_sim *sim = nvt_sim_create(NVT_ABI_R36);
    nvt_dev *dev = open_sim_dev(sim);
    nvt_queue *q = (nvt_queue *)1;
    nvt_queue_opts o = {100, 0, 0, 0};
    CHECK(nvt_queue_create(dev, &o, &q) == -EINVAL && q == NULL, "100 entries refused");

    /* the simulated kernel's own checks, through raw ioctls */
    const nvt_os *os = nvt_sim_os(sim);
    int ctrl = os->open(os->ctx, "/dev/nvgpu/igpu0/ctrl", 2);
    union nvt_gpu_open_channel oc = {.runlist_id = 3};
    CHECK(os->ioctl(os->ctx, ctrl, NVT_GPU_IOCTL_OPEN_CHANNEL, &oc) == -EINVAL, "runlist 3");
    oc.runlist_id = -1;
    CHECK(os->ioctl(os->ctx, ctrl, NVT_GPU_IOCTL_OPEN_CHANNEL, &oc) == 0, "open channel");
    int ch = oc.channel_fd;
    struct nvt_ch_setup_bind_r36 sb = {0};
    sb.num_gpfifo_entries = 64;
    sb.flags = NVT_SETUP_BIND_USERMODE_SUPPORT;
    CHECK(os->ioctl(os->ctx, ch, NVT_CH_IOCTL_SETUP_BIND_R36, &sb) == -EINVAL,
          "SETUP_BIND before the AS and TSG bindings");
    CHECK(os->ioctl(os->ctx, ch, NVT_CH_IOCTL_SETUP_BIND_R35, &sb) == -ENOTTY,
          "the r35 SETUP_BIND number on an r36 kernel");
    struct nvt_ch_wdt w = {NVT_WDT_ENABLE | NVT_WDT_DISABLE, 0};
    CHECK(os->ioctl(os->ctx, ch, NVT_CH_IOCTL_WDT, &w) == -EINVAL, "WDT enable+disable");
    struct nvt_ch_alloc_obj_ctx oc2 = {0xC7C0, 0, 0};
    CHECK(os->ioctl(os->ctx, ch, NVT_CH_IOCTL_ALLOC_OBJ_CTX, &oc2) == -EINVAL,
          "ALLOC_OBJ_CTX before SETUP_BIND");
    struct nvt_gpu_open_tsg_r35 t35 = {0, 0};
    CHECK(os->ioctl(os->ctx, ctrl, NVT_GPU_IOCTL_OPEN_TSG_R35, &t35) == -ENOTTY,
          "the r35 OPEN_TSG number on an r36 kernel");
    os->close(os->ctx, ch);
    os->close(os->ctx, ctrl);
    nvt_dev_close(dev);
    nvt_sim_destroy(sim);
}

static void test_abi_mismatch(void) {
    /* A driver forced to r36 against an r35 kernel fails at the first r36-only ioctl with a
     * message naming it, instead of corrupting anything. */
    nvt_sim *sim = nvt_sim_create(NVT_ABI_R35);
    setenv("NVTEGRA_ABI", "r36", 1);
    nvt_dev *dev = open_sim_dev(sim);
    unsetenv("NVTEGRA_ABI");
    nvt_mem *m;
    int rc = nvt_mem_alloc(dev, 4096, 0, &m);
    CHECK(rc == -ENOTTY, "rc %d", rc);
    CHECK(strstr(nvt_dev_error(dev), "NVMAP_IOC_ALLOC (ioctl 0x40144e03") != NULL, "message: %s",
          nvt_dev_error(dev));
    nvt_dev_close(dev);
    nvt_sim_destroy(sim);
}

int main(void) {
    test_no_device();
    test_memory();
    test_va_exhaustion();
    test_fault_and_recovery();
    test_channel_rules();
    test_abi_mismatch();
    return check_summary("tegra/test_bad");
}
