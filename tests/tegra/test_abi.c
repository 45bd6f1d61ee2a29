/* test_abi.c - libnvtegra against the L4T kernel ABI, release by release (issue #20).
 *
 * Part 1 is a table per release (r35 = L4T 35.5, r36 = L4T 36.2) of the header facts the driver
 * depends on, each value typed in from NVIDIA's public headers (nvgpu-ctrl.h, nvgpu-as.h,
 * nvgpu.h: the line of each is in docs/tegra-abi.md), checked against tegra/abi.h.  It fails if
 * abi.h drifts from the headers for either release.
 *
 * Part 2 runs the simulated kernel driver with the rules of nvgpu's handlers (the same table of
 * rules for both releases) on raw ioctls: an empty or unaligned ALLOC_AS range, a split with
 * UNIFIED_VA, USERMODE_SUPPORT without DETERMINISTIC, DETERMINISTIC with the watchdog still on,
 * a watchdog re-enabled on a deterministic channel, and the other release's MAP_BUFFER_EX
 * coherent bit are all EINVAL.
 *
 * Part 3 opens the device and a queue with libnvtegra on each release and checks that what it
 * read (classes, SM version) comes from that release's offsets, that its ALLOC_AS asked for
 * the documented range, that the watchdog was disabled before SETUP_BIND, and that the
 * watchdog_ms option is refused by name (it cannot coexist with usermode submit). */
#include "tegra_test.h"
#include "../../tegra/abi.h"

#include <fcntl.h>

/* ---- part 1: header facts per release ---------------------------------------------------- */

typedef struct release_facts {
    int abi;
    /* struct nvgpu_gpu_characteristics (nvgpu-ctrl.h) */
    uint32_t chars_size, num_gpc, num_tpc_per_gpc, big_page_size, pde_coverage_bit_count,
        available_big_page_sizes, flags, compute_class, gpfifo_class, dma_copy_class, sm_version;
    /* MAP_BUFFER_EX flags (nvgpu-as.h): the coherent bit (0 = none), DIRECT_KIND_CTRL (0 = none) */
    uint32_t map_coherent, map_direct_kind_ctrl;
    /* ioctl numbers that differ (computed from the release's headers) */
    unsigned long setup_bind, open_tsg, nvmap_alloc;
    uint32_t setup_bind_size;
} release_facts;

static const release_facts facts[2] = {
    {35, 312, 12, 32, 40, 48, 52, 56, 72, 76, 84, 92, 1u << 4, 1u << 8, 0xC0504880ul, 0xC0084709ul,
     0x40104E03ul, 80},
    {36, 328, 12, 40, 48, 56, 60, 64, 80, 84, 92, 100, 1u << 9, 0, 0xC0684880ul, 0xC0184709ul,
     0x40144E03ul, 104},
};

static void test_header_facts(void) {
    for (int i = 0; i < 2; i++) {
        const release_facts *f = &facts[i];
        const nvt_chars_layout *L = nvt_chars_layout_of(f->abi);
        const uint32_t want[11] = {f->chars_size,
                                   f->num_gpc,
                                   f->num_tpc_per_gpc,
                                   f->big_page_size,
                                   f->pde_coverage_bit_count,
                                   f->available_big_page_sizes,
                                   f->flags,
                                   f->compute_class,
                                   f->gpfifo_class,
                                   f->dma_copy_class,
                                   f->sm_version};
        const uint32_t got[11] = {L->size,
                                  L->num_gpc,
                                  L->num_tpc_per_gpc,
                                  L->big_page_size,
                                  L->pde_coverage_bit_count,
                                  L->available_big_page_sizes,
                                  L->flags,
                                  L->compute_class,
                                  L->gpfifo_class,
                                  L->dma_copy_class,
                                  L->sm_version};
        static const char *const names[11] = {"size",
                                              "num_gpc",
                                              "num_tpc_per_gpc",
                                              "big_page_size",
                                              "pde_coverage_bit_count",
                                              "available_big_page_sizes",
                                              "flags",
                                              "compute_class",
                                              "gpfifo_class",
                                              "dma_copy_class",
                                              "sm_arch_sm_version"};
        for (int j = 0; j < 11; j++)
            CHECK(got[j] == want[j], "r%d characteristics.%s: abi.h says %u, the header %u", f->abi,
                  names[j], got[j], want[j]);
        if (f->abi == 35) {
            CHECK(NVT_AS_MAP_IO_COHERENT_R35 == f->map_coherent, "r35 IO_COHERENT");
            CHECK(NVT_AS_MAP_DIRECT_KIND_CTRL == f->map_direct_kind_ctrl, "r35 DIRECT_KIND_CTRL");
            CHECK(NVT_CH_IOCTL_SETUP_BIND_R35 == f->setup_bind &&
                      NVT_GPU_IOCTL_OPEN_TSG_R35 == f->open_tsg &&
                      NVT_NVMAP_IOC_ALLOC_R35 == f->nvmap_alloc &&
                      sizeof(struct nvt_ch_setup_bind_r35) == f->setup_bind_size,
                  "r35 ioctl numbers");
        } else {
            CHECK(NVT_AS_MAP_SYSTEM_COHERENT_R36 == f->map_coherent, "r36 SYSTEM_COHERENT");
            CHECK(NVT_CH_IOCTL_SETUP_BIND_R36 == f->setup_bind &&
                      NVT_GPU_IOCTL_OPEN_TSG_R36 == f->open_tsg &&
                      NVT_NVMAP_IOC_ALLOC_R36 == f->nvmap_alloc &&
                      sizeof(struct nvt_ch_setup_bind_r36) == f->setup_bind_size,
                  "r36 ioctl numbers");
        }
    }
    /* the same in both releases */
    CHECK(NVT_AS_FLAG_UNIFIED_VA == 2u, "ALLOC_AS UNIFIED_VA is bit 1");
    CHECK(NVT_SETUP_BIND_DETERMINISTIC == 2u && NVT_SETUP_BIND_USERMODE_SUPPORT == 8u &&
              NVT_SETUP_BIND_USERMODE_GPU_MAP_RESOURCES == 16u,
          "SETUP_BIND flags: DETERMINISTIC bit 1, USERMODE_SUPPORT bit 3, GPU_MAP_RESOURCES bit 4");
    CHECK(NVT_WDT_DISABLE == 1u && NVT_WDT_ENABLE == 2u && NVT_WDT_SET_TIMEOUT == 4u,
          "WDT status bits");
    CHECK(NVT_AS_BIG_PAGE_SIZE == 0x10000u && NVT_AS_VA_START == 0x4000000ull &&
              NVT_AS_VA_END == 0x2000000000ull,
          "the address space libnvtegra asks for: 64 KiB big pages, [64 MiB, 2^37)");
}

/* ---- part 2: the simulated kernel's rules, on raw ioctls --------------------------------- */

typedef struct as_case {
    const char *what;
    uint32_t big_page_size, flags;
    uint64_t start, end, split;
    int rc;
} as_case;

static const as_case as_cases[] = {
    {"empty VA range (the old libnvtegra call)", 0, NVT_AS_FLAG_UNIFIED_VA, 0, 0, 0, -EINVAL},
    {"start 0", 0x10000, NVT_AS_FLAG_UNIFIED_VA, 0, 1ull << 37, 0, -EINVAL},
    {"start not PDE-aligned", 0x10000, NVT_AS_FLAG_UNIFIED_VA, (64ull << 20) + 0x10000, 1ull << 37,
     0, -EINVAL},
    {"end not PDE-aligned", 0x10000, NVT_AS_FLAG_UNIFIED_VA, 64ull << 20, (1ull << 37) - 4096, 0,
     -EINVAL},
    {"start >= end", 0x10000, NVT_AS_FLAG_UNIFIED_VA, 1ull << 37, 64ull << 20, 0, -EINVAL},
    {"split with UNIFIED_VA", 0x10000, NVT_AS_FLAG_UNIFIED_VA, 64ull << 20, 1ull << 37, 1ull << 32,
     -EINVAL},
    {"no split without UNIFIED_VA", 0x10000, 0, 64ull << 20, 1ull << 37, 0, -EINVAL},
    {"big pages not a power of two", 0x18000, NVT_AS_FLAG_UNIFIED_VA, 64ull << 20, 1ull << 37, 0,
     -EINVAL},
    {"big pages not available (128 KiB)", 0x20000, NVT_AS_FLAG_UNIFIED_VA, 64ull << 20, 1ull << 37,
     0, -EINVAL},
    {"no big pages, split given", 0, 0, 64ull << 20, 1ull << 37, 1ull << 32, -EINVAL},
    {"the documented range", 0x10000, NVT_AS_FLAG_UNIFIED_VA, 64ull << 20, 1ull << 37, 0, 0},
    {"no big pages, unified", 0, NVT_AS_FLAG_UNIFIED_VA, 64ull << 20, 1ull << 37, 0, 0},
    {"split VA", 0x10000, 0, 64ull << 20, 1ull << 37, 1ull << 32, 0},
};

static void test_alloc_as_rules(nvt_abi abi) {
    nvt_sim *sim = nvt_sim_create(abi);
    const nvt_os *os = nvt_sim_os(sim);
    int ctrl = os->open(os->ctx, "/dev/nvgpu/igpu0/ctrl", O_RDWR);
    for (size_t i = 0; i < sizeof as_cases / sizeof as_cases[0]; i++) {
        const as_case *c = &as_cases[i];
        struct nvt_gpu_alloc_as a = {0};
        a.big_page_size = c->big_page_size;
        a.flags = c->flags;
        a.va_range_start = c->start;
        a.va_range_end = c->end;
        a.va_range_split = c->split;
        int rc = os->ioctl(os->ctx, ctrl, NVT_GPU_IOCTL_ALLOC_AS, &a);
        CHECK(rc == c->rc, "r%d ALLOC_AS %s: rc %d, want %d", abi, c->what, rc, c->rc);
        if (rc == 0)
            os->close(os->ctx, a.as_fd);
    }
    os->close(os->ctx, ctrl);
    nvt_sim_destroy(sim);
}

/* A channel bound to an AS and a TSG, ready for SETUP_BIND; returns the channel fd. */
static int bound_channel(nvt_sim *sim, nvt_abi abi, int *ctrl_out, int *as_out, int *tsg_out) {
    const nvt_os *os = nvt_sim_os(sim);
    int ctrl = os->open(os->ctx, "/dev/nvgpu/igpu0/ctrl", O_RDWR);
    struct nvt_gpu_alloc_as a = {0};
    a.big_page_size = NVT_AS_BIG_PAGE_SIZE;
    a.flags = NVT_AS_FLAG_UNIFIED_VA;
    a.va_range_start = NVT_AS_VA_START;
    a.va_range_end = NVT_AS_VA_END;
    CHECK(os->ioctl(os->ctx, ctrl, NVT_GPU_IOCTL_ALLOC_AS, &a) == 0, "ALLOC_AS");
    int tsg, veid = 0;
    if (abi == NVT_ABI_R36) {
        struct nvt_gpu_open_tsg_r36 t = {0};
        CHECK(os->ioctl(os->ctx, ctrl, NVT_GPU_IOCTL_OPEN_TSG_R36, &t) == 0, "OPEN_TSG");
        tsg = (int)t.tsg_fd;
        struct nvt_tsg_create_subcontext s = {NVT_SUBCONTEXT_ASYNC, a.as_fd, 0, 0};
        CHECK(os->ioctl(os->ctx, tsg, NVT_TSG_IOCTL_CREATE_SUBCONTEXT, &s) == 0, "subcontext");
        veid = (int)s.veid;
    } else {
        struct nvt_gpu_open_tsg_r35 t = {0, 0};
        CHECK(os->ioctl(os->ctx, ctrl, NVT_GPU_IOCTL_OPEN_TSG_R35, &t) == 0, "OPEN_TSG");
        tsg = (int)t.tsg_fd;
    }
    union nvt_gpu_open_channel oc = {.runlist_id = -1};
    CHECK(os->ioctl(os->ctx, ctrl, NVT_GPU_IOCTL_OPEN_CHANNEL, &oc) == 0, "OPEN_CHANNEL");
    struct nvt_as_bind_channel ab = {(uint32_t)oc.channel_fd};
    CHECK(os->ioctl(os->ctx, a.as_fd, NVT_AS_IOCTL_BIND_CHANNEL, &ab) == 0, "AS bind");
    struct nvt_tsg_bind_channel_ex tb = {oc.channel_fd, (uint32_t)veid, {0}};
    CHECK(os->ioctl(os->ctx, tsg, NVT_TSG_IOCTL_BIND_CHANNEL_EX, &tb) == 0, "TSG bind");
    *ctrl_out = ctrl;
    *as_out = a.as_fd;
    *tsg_out = tsg;
    return oc.channel_fd;
}

/* A dmabuf fd of bytes, straight from the simulated nvmap. */
static int sim_dmabuf(nvt_sim *sim, nvt_abi abi, int nvmap, uint32_t bytes) {
    const nvt_os *os = nvt_sim_os(sim);
    struct nvt_nvmap_handle h = {bytes, 0};
    CHECK(os->ioctl(os->ctx, nvmap, NVT_NVMAP_IOC_CREATE, &h) == 0, "nvmap create");
    int rc;
    if (abi == NVT_ABI_R36) {
        struct nvt_nvmap_alloc_r36 a = {h.handle, NVT_NVMAP_HEAP_IOVMM, 0x4e540000u, 4096, -1};
        rc = os->ioctl(os->ctx, nvmap, NVT_NVMAP_IOC_ALLOC_R36, &a);
    } else {
        struct nvt_nvmap_alloc_r35 a = {h.handle, NVT_NVMAP_HEAP_IOVMM, 0x4e540000u, 4096};
        rc = os->ioctl(os->ctx, nvmap, NVT_NVMAP_IOC_ALLOC_R35, &a);
    }
    CHECK(rc == 0, "nvmap alloc");
    struct nvt_nvmap_handle g = {0, h.handle};
    CHECK(os->ioctl(os->ctx, nvmap, NVT_NVMAP_IOC_GET_FD, &g) == 0, "get fd");
    return (int)g.size_or_fd;
}

static int setup_bind_raw(nvt_sim *sim, nvt_abi abi, int ch, uint32_t flags, int userd,
                          int gpfifo) {
    const nvt_os *os = nvt_sim_os(sim);
    if (abi == NVT_ABI_R36) {
        struct nvt_ch_setup_bind_r36 s = {0};
        s.num_gpfifo_entries = 64;
        s.flags = flags;
        s.userd_dmabuf_fd = userd;
        s.gpfifo_dmabuf_fd = gpfifo;
        return os->ioctl(os->ctx, ch, NVT_CH_IOCTL_SETUP_BIND_R36, &s);
    }
    struct nvt_ch_setup_bind_r35 s = {0};
    s.num_gpfifo_entries = 64;
    s.flags = flags;
    s.userd_dmabuf_fd = userd;
    s.gpfifo_dmabuf_fd = gpfifo;
    return os->ioctl(os->ctx, ch, NVT_CH_IOCTL_SETUP_BIND_R35, &s);
}

static void test_channel_setup_rules(nvt_abi abi) {
    nvt_sim *sim = nvt_sim_create(abi);
    const nvt_os *os = nvt_sim_os(sim);
    int ctrl, as, tsg;
    int ch = bound_channel(sim, abi, &ctrl, &as, &tsg);
    int nvmap = os->open(os->ctx, "/dev/nvmap", O_RDWR);
    int userd = sim_dmabuf(sim, abi, nvmap, 4096), gpfifo = sim_dmabuf(sim, abi, nvmap, 4096);
    uint32_t um = NVT_SETUP_BIND_USERMODE_SUPPORT;
    /* the old libnvtegra call: usermode submit without DETERMINISTIC */
    CHECK(setup_bind_raw(sim, abi, ch, um, userd, gpfifo) == -EINVAL,
          "r%d: USERMODE_SUPPORT without DETERMINISTIC refused", abi);
    /* deterministic, but the watchdog is still on (every channel starts with it on) */
    CHECK(setup_bind_raw(sim, abi, ch, um | NVT_SETUP_BIND_DETERMINISTIC, userd, gpfifo) == -EINVAL,
          "r%d: DETERMINISTIC with the watchdog enabled refused", abi);
    /* the old watchdog_ms option: ENABLE | SET_TIMEOUT, then deterministic: still refused */
    struct nvt_ch_wdt w = {NVT_WDT_ENABLE | NVT_WDT_SET_TIMEOUT, 2500};
    CHECK(os->ioctl(os->ctx, ch, NVT_CH_IOCTL_WDT, &w) == 0, "WDT enable");
    CHECK(setup_bind_raw(sim, abi, ch, um | NVT_SETUP_BIND_DETERMINISTIC, userd, gpfifo) == -EINVAL,
          "r%d: an enabled watchdog with usermode submit refused", abi);
    /* the driver's order: WDT DISABLE, then SETUP_BIND DETERMINISTIC | USERMODE_SUPPORT */
    w = (struct nvt_ch_wdt){NVT_WDT_DISABLE, 0};
    CHECK(os->ioctl(os->ctx, ch, NVT_CH_IOCTL_WDT, &w) == 0, "WDT disable");
    CHECK(setup_bind_raw(sim, abi, ch, um | NVT_SETUP_BIND_DETERMINISTIC, userd, gpfifo) == 0,
          "r%d: WDT disabled, then DETERMINISTIC | USERMODE_SUPPORT accepted", abi);
    /* deterministic from now on: the watchdog may not come back, disabling stays legal */
    w = (struct nvt_ch_wdt){NVT_WDT_ENABLE, 0};
    CHECK(os->ioctl(os->ctx, ch, NVT_CH_IOCTL_WDT, &w) == -EINVAL,
          "r%d: watchdog enable on a deterministic channel refused", abi);
    w = (struct nvt_ch_wdt){NVT_WDT_DISABLE, 0};
    CHECK(os->ioctl(os->ctx, ch, NVT_CH_IOCTL_WDT, &w) == 0, "r%d: disable again", abi);

    /* MAP_BUFFER_EX: the other release's coherent bit is refused, its own accepted */
    struct nvt_as_map_buffer_ex mb = {0};
    mb.compr_kind = NVT_KIND_INVALID;
    mb.incompr_kind = NVT_KIND_PITCH;
    mb.dmabuf_fd = (uint32_t)userd;
    mb.page_size = 4096;
    mb.flags = abi == NVT_ABI_R35 ? NVT_AS_MAP_SYSTEM_COHERENT_R36 : NVT_AS_MAP_IO_COHERENT_R35;
    if (abi == NVT_ABI_R35)
        mb.flags |= NVT_AS_MAP_DIRECT_KIND_CTRL;
    CHECK(os->ioctl(os->ctx, as, NVT_AS_IOCTL_MAP_BUFFER_EX, &mb) == -EINVAL,
          "r%d: the other release's coherent bit 0x%x refused", abi, mb.flags);
    mb.flags = abi == NVT_ABI_R35 ? NVT_AS_MAP_IO_COHERENT_R35 | NVT_AS_MAP_DIRECT_KIND_CTRL
                                  : NVT_AS_MAP_SYSTEM_COHERENT_R36;
    CHECK(os->ioctl(os->ctx, as, NVT_AS_IOCTL_MAP_BUFFER_EX, &mb) == 0,
          "r%d: its own coherent bit accepted", abi);
    CHECK(mb.offset >= NVT_AS_VA_START && mb.offset + 4096 <= NVT_AS_VA_END,
          "r%d: mapped inside the AS range: 0x%llx", abi, (unsigned long long)mb.offset);
    if (abi == NVT_ABI_R36) {
        mb.flags = NVT_AS_MAP_DIRECT_KIND_CTRL;
        CHECK(os->ioctl(os->ctx, as, NVT_AS_IOCTL_MAP_BUFFER_EX, &mb) == -EINVAL,
              "r36 has no DIRECT_KIND_CTRL");
    }
    nvt_sim_destroy(sim); /* closes every fd it handed out */
}

/* ---- part 3: libnvtegra on each release -------------------------------------------------- */

static void test_driver(nvt_abi abi) {
    nvt_sim *sim = nvt_sim_create(abi);
    nvt_dev *dev = NULL;
    char err[256] = "";
    int rc = nvt_dev_open(nvt_sim_os(sim), &dev, err, sizeof err);
    CHECK(rc == 0, "r%d: device open: %s", abi, err);
    if (rc) {
        nvt_sim_destroy(sim);
        return;
    }
    const nvt_info *in = nvt_dev_info(dev);
    CHECK(in->abi == abi && in->chars_size == (abi == NVT_ABI_R35 ? 312u : 328u), "r%d: ABI %d",
          abi, in->abi);
    CHECK(in->compute_class == 0xC7C0 && in->gpfifo_class == 0xC76F &&
              in->dma_copy_class == 0xC7B5 && in->sm_version == 0x807,
          "r%d: classes 0x%x 0x%x 0x%x, SM 0x%x read from the release's offsets", abi,
          in->compute_class, in->gpfifo_class, in->dma_copy_class, in->sm_version);
    CHECK(in->tpc_count == 8, "r%d: TPCs %u (2 GPCs x 4)", abi, in->tpc_count);
    nvt_sim_stats st;
    nvt_sim_stats_get(sim, &st);
    CHECK(st.as_big_page_size == 0x10000 && st.as_va_start == 64ull << 20 &&
              st.as_va_end == 1ull << 37,
          "r%d: ALLOC_AS big pages %u, [0x%llx, 0x%llx)", abi, st.as_big_page_size,
          (unsigned long long)st.as_va_start, (unsigned long long)st.as_va_end);

    nvt_queue *q = NULL;
    rc = nvt_queue_create(dev, NULL, &q);
    CHECK(rc == 0, "r%d: queue: %s", abi, nvt_dev_error(dev));
    nvt_sim_stats_get(sim, &st);
    CHECK(st.wdt_before_setup_bind == NVT_WDT_DISABLE && st.setup_bind_refusals == 0,
          "r%d: WDT status %u before SETUP_BIND, %u refusals", abi, st.wdt_before_setup_bind,
          st.setup_bind_refusals);
    nvt_queue_destroy(q);

    /* the watchdog cannot be used with usermode submit: refused by name, before any ioctl */
    nvt_queue_opts o = {0};
    o.watchdog_ms = 2500;
    q = (nvt_queue *)1;
    rc = nvt_queue_create(dev, &o, &q);
    CHECK(rc == -EINVAL && q == NULL && strstr(nvt_dev_error(dev), "watchdog") != NULL,
          "r%d: watchdog_ms refused: %d %s", abi, rc, nvt_dev_error(dev));
    nvt_dev_close(dev);
    nvt_sim_destroy(sim);
}

int main(void) {
    test_header_facts();
    for (int r = 0; r < 2; r++) {
        nvt_abi abi = r ? NVT_ABI_R36 : NVT_ABI_R35;
        test_alloc_as_rules(abi);
        test_channel_setup_rules(abi);
        test_driver(abi);
    }
    return check_summary("tegra/test_abi");
}
