/* test_flow.c - libnvtegra end to end on the simulated kernel driver, for both the r35 and the
 * r36 ABI: device info, memory from 1 B to 256 MiB (allocate, map, copy-engine copy, check),
 * kernel launches whose parameters the simulated GPU reads back from constant bank 0, 10,000
 * launches through a small ring (wrap-around, argument-slot recycling), back-pressure with the
 * GPU stopped, a cross-queue signal chain, interleaved compute and copies, and memory churn with
 * fd, mapping and handle counts checked before and after.  Expected values come from host
 * arithmetic.  What this proves and does not: docs/tegra.md. */
#include "tegra_test.h"

#include <pthread.h>
#include <time.h>
#include <unistd.h>

#define TIMEOUT_MS 10000u

static void sleep_ms(unsigned ms) {
    struct timespec ts = {ms / 1000, (long)(ms % 1000) * 1000000L};
    nanosleep(&ts, NULL);
}

/* inc(unsigned *p): *p += 1, once per launch (one thread does it). */
static int sim_inc(const nvt_sim_launch *l, void *user) {
    (void)user;
    uint64_t a;
    memcpy(&a, l->cbuf0 + 0x160, 8);
    uint32_t *p = nvt_sim_translate(l->sim, a, 4);
    if (!p)
        return -EFAULT;
    (*p)++;
    return 0;
}

static nvt_kernel_info inc_info(void) {
    nvt_kernel_info k = scale_info();
    k.name = "inc";
    k.param_size = 8;
    k.nparams = 1;
    k.cbuf0_size = 0x168;
    return k;
}

/* Load inc, register its stand-in and allocate a zeroed counter. */
static nvt_kernel *load_inc(nvt_dev *dev, nvt_sim *sim, nvt_mem **ctr) {
    nvt_kernel_info ki = inc_info();
    nvt_kernel *k = NULL;
    *ctr = NULL;
    CHECK(nvt_kernel_load(dev, &ki, &k) == 0 && nvt_mem_alloc(dev, 4, 0, ctr) == 0, "inc: %s",
          nvt_dev_error(dev));
    if (!k || !*ctr)
        exit(check_summary("tegra/test_flow"));
    nvt_sim_register_kernel(sim, k->code_va, sim_inc, NULL);
    *(uint32_t *)(*ctr)->cpu = 0;
    return k;
}

typedef struct seen {
    uint32_t grid[3], block[3], regs, cbuf0_size;
    uint32_t dims[6];
} seen;

static int sim_record(const nvt_sim_launch *l, void *user) {
    seen *s = user;
    memcpy(s->grid, l->grid, 12);
    memcpy(s->block, l->block, 12);
    s->regs = l->registers;
    s->cbuf0_size = l->cbuf0_size;
    memcpy(s->dims, l->cbuf0, 24);
    return 0;
}

static void test_info(nvt_dev *dev, nvt_abi abi) {
    const nvt_info *in = nvt_dev_info(dev);
    CHECK(in->abi == abi, "ABI detected as r%d, expected r%d", in->abi, abi);
    CHECK(in->compute_class == 0xC7C0 && in->gpfifo_class == 0xC76F && in->dma_copy_class == 0xC7B5,
          "classes %x %x %x", in->compute_class, in->gpfifo_class, in->dma_copy_class);
    CHECK(in->sm_version == 0x807, "sm version 0x%x", in->sm_version);
    CHECK(in->chars_size == (abi == NVT_ABI_R36 ? 328u : 312u), "characteristics size %u",
          in->chars_size);
    CHECK(!strcmp(in->ctrl_path, "/dev/nvgpu/igpu0/ctrl"), "ctrl path %s", in->ctrl_path);
}

static void test_copies(nvt_dev *dev, nvt_queue *q, nvt_sim *sim, int big) {
    static const size_t sizes[] = {1, 3, 4095, 4096, 65537, 1u << 20, 16u << 20, 256u << 20};
    unsigned n = big ? 8 : 7;
    for (unsigned i = 0; i < n; i++) {
        size_t sz = sizes[i];
        nvt_mem *src, *dst;
        if (nvt_mem_alloc(dev, sz, NVT_MEM_CACHED, &src) || nvt_mem_alloc(dev, sz, 0, &dst)) {
            CHECK(0, "alloc %zu: %s", sz, nvt_dev_error(dev));
            return;
        }
        CHECK(src->gpu_va && src->gpu_va + src->size <= (1ull << 40), "40-bit VA 0x%llx",
              (unsigned long long)src->gpu_va);
        uint8_t *s = src->cpu;
        for (size_t j = 0; j < sz; j++)
            s[j] = (uint8_t)(j * 131 + 7);
        memset(dst->cpu, 0xee, dst->size);
        int rc = nvt_copy(q, dst->gpu_va, src->gpu_va, sz, NULL);
        CHECK(rc == 0, "copy %zu: %s", sz, nvt_dev_error(dev));
        CHECK(nvt_queue_sync(q, TIMEOUT_MS) == 0, "sync after copy %zu: %s", sz,
              nvt_dev_error(dev));
        const uint8_t *d = dst->cpu;
        size_t bad = 0;
        for (size_t j = 0; j < sz; j++)
            bad += d[j] != (uint8_t)(j * 131 + 7);
        CHECK(bad == 0, "copy of %zu bytes: %zu bytes differ", sz, bad);
        CHECK(dst->size == sz || d[sz] == 0xee, "copy of %zu bytes wrote past its end", sz);
        nvt_mem_free(dev, src);
        nvt_mem_free(dev, dst);
    }
    nvt_sim_stats st;
    nvt_sim_stats_get(sim, &st);
    CHECK(st.untagged_allocs == 0, "%u untagged nvmap allocations", st.untagged_allocs);
    CHECK(st.last_nvmap_flags >> 16 == 0x4e54 && (st.last_nvmap_flags & 0xffff) == 3,
          "nvmap flags 0x%x: tag 'NT', CACHEABLE", st.last_nvmap_flags);
}

static void test_launch(nvt_dev *dev, nvt_queue *q, nvt_sim *sim) {
    nvt_kernel_info ki = scale_info();
    nvt_kernel *k;
    CHECK(nvt_kernel_load(dev, &ki, &k) == 0, "load: %s", nvt_dev_error(dev));
    unsigned calls = 0;
    nvt_sim_register_kernel(sim, k->code_va, sim_scale, &calls);
    nvt_mem *buf;
    CHECK(nvt_mem_alloc(dev, 1000 * 4, NVT_MEM_CACHED, &buf) == 0, "alloc");
    float *f = buf->cpu;
    for (int i = 0; i < 1000; i++)
        f[i] = (float)i;
    int32_t n = 1000;
    float s = 2.5f;
    const void *args[3] = {&buf->gpu_va, &n, &s};
    uint32_t grid[3] = {4, 1, 1}, block[3] = {256, 1, 1};
    uint64_t sig = 0;
    CHECK(nvt_launch(q, k, grid, block, args, 3, &sig) == 0, "launch: %s", nvt_dev_error(dev));
    CHECK(nvt_queue_wait(q, sig, TIMEOUT_MS) == 0, "wait: %s", nvt_dev_error(dev));
    CHECK(nvt_queue_completed(q) >= sig && sig == nvt_queue_last_signal(q), "timeline");
    int bad = 0;
    for (int i = 0; i < 1000; i++)
        bad += f[i] != (float)i * 2.5f;
    CHECK(bad == 0 && calls == 1, "scale: %d wrong, %u calls", bad, calls);
    /* wrong argument count is refused before anything is submitted */
    CHECK(nvt_launch(q, k, grid, block, args, 2, NULL) == -EINVAL, "2 of 3 args");

    /* the QMD and the cbuf0 driver area as the GPU decoded them */
    nvt_kernel_info ri = scale_info();
    ri.name = "record";
    ri.registers = 37;
    nvt_kernel *rk;
    nvt_kernel_load(dev, &ri, &rk);
    seen sn;
    memset(&sn, 0, sizeof sn);
    nvt_sim_register_kernel(sim, rk->code_va, sim_record, &sn);
    uint32_t g2[3] = {7, 5, 3}, b2[3] = {32, 4, 2};
    CHECK(nvt_launch(q, rk, g2, b2, args, 3, &sig) == 0 && nvt_queue_wait(q, sig, TIMEOUT_MS) == 0,
          "record launch: %s", nvt_dev_error(dev));
    CHECK(sn.grid[0] == 7 && sn.grid[1] == 5 && sn.grid[2] == 3, "grid in QMD");
    CHECK(sn.block[0] == 32 && sn.block[1] == 4 && sn.block[2] == 2, "block in QMD");
    CHECK(sn.regs == 37 && sn.cbuf0_size == 0x170, "regs %u cbuf0 %u", sn.regs, sn.cbuf0_size);
    CHECK(sn.dims[0] == 32 && sn.dims[1] == 4 && sn.dims[2] == 2 && sn.dims[3] == 7 &&
              sn.dims[4] == 5 && sn.dims[5] == 3,
          "blockDim/gridDim at cbuf0 0x0/0xc");
    nvt_kernel_unload(dev, rk);
    nvt_kernel_unload(dev, k);
    nvt_mem_free(dev, buf);
}

static void test_many_launches(nvt_dev *dev, nvt_sim *sim) {
    nvt_queue_opts o = {64, 8192, 16, 0};
    nvt_queue *q;
    CHECK(nvt_queue_create(dev, &o, &q) == 0, "small queue: %s", nvt_dev_error(dev));
    nvt_mem *ctr;
    nvt_kernel *k = load_inc(dev, sim, &ctr);
    nvt_sim_stats before, after;
    nvt_sim_stats_get(sim, &before);
    uint32_t one[3] = {1, 1, 1};
    const void *args[1] = {&ctr->gpu_va};
    int fails = 0;
    for (int i = 0; i < 10000; i++)
        fails += nvt_launch(q, k, one, one, args, 1, NULL) != 0;
    CHECK(fails == 0, "%d launches failed: %s", fails, nvt_dev_error(dev));
    CHECK(nvt_queue_sync(q, TIMEOUT_MS) == 0, "sync: %s", nvt_dev_error(dev));
    CHECK(*(uint32_t *)ctr->cpu == 10000, "counter %u after 10000 launches", *(uint32_t *)ctr->cpu);
    nvt_sim_stats_get(sim, &after);
    CHECK(after.launches - before.launches == 10000, "GPU saw %u launches",
          after.launches - before.launches);
    CHECK(after.gpfifo_entries - before.gpfifo_entries == 10000,
          "10000 GPFIFO entries through a 64-entry ring (%u)",
          after.gpfifo_entries - before.gpfifo_entries);
    CHECK(after.bad_doorbells == 0 && after.doorbells > before.doorbells, "doorbells %u bad %u",
          after.doorbells, after.bad_doorbells);
    nvt_mem_free(dev, ctr);
    nvt_kernel_unload(dev, k);
    nvt_queue_destroy(q);
}

/* A 4 KiB pushbuffer: a copy reserves 2.6 KiB, so nearly every submission wraps or waits for
 * the one before it to retire. */
static void test_pushbuffer_wrap(nvt_dev *dev, nvt_sim *sim) {
    nvt_queue_opts o = {16, 4096, 4, 0};
    nvt_queue *q;
    CHECK(nvt_queue_create(dev, &o, &q) == 0, "tiny queue: %s", nvt_dev_error(dev));
    nvt_mem *ctr, *log;
    nvt_kernel *k = load_inc(dev, sim, &ctr);
    CHECK(nvt_mem_alloc(dev, 500 * 4, 0, &log) == 0, "alloc");
    uint32_t one[3] = {1, 1, 1};
    const void *args[1] = {&ctr->gpu_va};
    int fails = 0;
    for (int i = 0; i < 500 && !fails; i++) {
        fails += nvt_launch(q, k, one, one, args, 1, NULL) != 0;
        fails += nvt_copy(q, log->gpu_va + 4ull * i, ctr->gpu_va, 4, NULL) != 0;
    }
    nvt_sim_stats st;
    nvt_sim_stats_get(sim, &st);
    CHECK(st.faults == 0, "GPU fault: %s", st.last_fault);
    CHECK(fails == 0 && nvt_queue_sync(q, TIMEOUT_MS) == 0, "%d failures: %s", fails,
          nvt_dev_error(dev));
    const uint32_t *w = log->cpu;
    int bad = 0;
    for (int i = 0; i < 500; i++)
        bad += w[i] != (uint32_t)i + 1;
    CHECK(bad == 0, "%d copies saw the wrong counter (ordering across pushbuffer wraps)", bad);
    nvt_mem_free(dev, log);
    nvt_mem_free(dev, ctr);
    nvt_kernel_unload(dev, k);
    nvt_queue_destroy(q);
}

/* Random mixes of launches and copies through rings of every small size: each copy records
 * the counter, which must equal the number of launches submitted before it. */
static void test_random_rings(nvt_dev *dev, nvt_sim *sim) {
    static const nvt_queue_opts cfg[] = {
        {2, 4096, 1, 0}, {4, 4096, 2, 0}, {8, 8192, 3, 0}, {16, 4096, 1, 0}, {32, 12288, 5, 0}};
    nvt_mem *ctr, *log;
    nvt_kernel *k = load_inc(dev, sim, &ctr);
    CHECK(nvt_mem_alloc(dev, 400 * 4, 0, &log) == 0, "alloc");
    unsigned seed = 99;
    for (unsigned c = 0; c < sizeof cfg / sizeof *cfg; c++) {
        nvt_queue *q;
        if (nvt_queue_create(dev, &cfg[c], &q)) {
            CHECK(0, "queue %u: %s", c, nvt_dev_error(dev));
            continue;
        }
        *(uint32_t *)ctr->cpu = 0;
        uint32_t want[400], launches = 0, one[3] = {1, 1, 1};
        const void *args[1] = {&ctr->gpu_va};
        int fails = 0;
        for (int i = 0; i < 400 && !fails; i++) {
            seed = seed * 1103515245u + 12345u;
            unsigned n = (seed >> 16) % 4;
            for (unsigned j = 0; j < n && !fails; j++, launches++)
                fails += nvt_launch(q, k, one, one, args, 1, NULL) != 0;
            want[i] = launches;
            fails += nvt_copy(q, log->gpu_va + 4ull * i, ctr->gpu_va, 4, NULL) != 0;
            if ((seed >> 8) % 17 == 0)
                fails += nvt_queue_sync(q, TIMEOUT_MS) != 0;
        }
        CHECK(fails == 0 && nvt_queue_sync(q, TIMEOUT_MS) == 0, "config %u: %s", c,
              nvt_dev_error(dev));
        int bad = 0;
        for (int i = 0; i < 400; i++)
            bad += ((const uint32_t *)log->cpu)[i] != want[i];
        CHECK(bad == 0, "config %u: %d copies saw the wrong count", c, bad);
        nvt_queue_destroy(q);
    }
    nvt_mem_free(dev, log);
    nvt_mem_free(dev, ctr);
    nvt_kernel_unload(dev, k);
}

typedef struct submitter {
    nvt_queue *q;
    nvt_kernel *k;
    uint64_t va;
    int submitted, fails;
} submitter;

static void *submit_20(void *arg) {
    submitter *s = arg;
    uint32_t one[3] = {1, 1, 1};
    const void *args[1] = {&s->va};
    for (int i = 0; i < 20; i++) {
        s->fails += nvt_launch(s->q, s->k, one, one, args, 1, NULL) != 0;
        __atomic_store_n(&s->submitted, i + 1, __ATOMIC_RELEASE);
    }
    return NULL;
}

static void test_back_pressure(nvt_dev *dev, nvt_sim *sim) {
    nvt_queue_opts o = {8, 0, 0, 0};
    nvt_queue *q;
    CHECK(nvt_queue_create(dev, &o, &q) == 0, "8-entry queue: %s", nvt_dev_error(dev));
    nvt_mem *ctr;
    nvt_kernel *k = load_inc(dev, sim, &ctr);
    nvt_sim_pause(sim, 1);
    submitter s = {q, k, ctr->gpu_va, 0, 0};
    pthread_t t;
    pthread_create(&t, NULL, submit_20, &s);
    /* An 8-entry ring holds 7 submissions; the 8th must wait for the (stopped) GPU. */
    for (int i = 0; i < 5000 && __atomic_load_n(&s.submitted, __ATOMIC_ACQUIRE) < 7; i++)
        sleep_ms(1);
    sleep_ms(50);
    int stuck_at = __atomic_load_n(&s.submitted, __ATOMIC_ACQUIRE);
    CHECK(stuck_at == 7, "with the GPU stopped the submitter got %d submissions in (expected 7)",
          stuck_at);
    CHECK(*(uint32_t *)ctr->cpu == 0, "GPU ran while paused");
    nvt_sim_pause(sim, 0);
    pthread_join(t, NULL);
    CHECK(s.fails == 0, "submissions failed: %s", nvt_dev_error(dev));
    CHECK(nvt_queue_sync(q, TIMEOUT_MS) == 0 && *(uint32_t *)ctr->cpu == 20, "counter %u",
          *(uint32_t *)ctr->cpu);
    nvt_mem_free(dev, ctr);
    nvt_kernel_unload(dev, k);
    nvt_queue_destroy(q);
}

static void test_signal_chain(nvt_dev *dev, nvt_sim *sim) {
    /* b is created first, so the simulated GPU visits it first: its copy must wait at the
     * acquire until a's launch has released a's timeline. */
    nvt_queue *b = NULL, *a = NULL;
    CHECK(nvt_queue_create(dev, NULL, &b) == 0 && nvt_queue_create(dev, NULL, &a) == 0,
          "queues: %s", nvt_dev_error(dev));
    nvt_mem *ctr, *out;
    nvt_kernel *k = load_inc(dev, sim, &ctr);
    nvt_mem_alloc(dev, 4, 0, &out);
    *(uint32_t *)ctr->cpu = 41;
    *(uint32_t *)out->cpu = 0;
    uint32_t one[3] = {1, 1, 1};
    const void *args[1] = {&ctr->gpu_va};
    nvt_sim_pause(sim, 1);
    uint64_t va = nvt_queue_last_signal(a) + 1;
    CHECK(nvt_queue_wait_for(b, a, va) == 0, "wait_for");
    CHECK(nvt_copy(b, out->gpu_va, ctr->gpu_va, 4, NULL) == 0, "copy");
    uint64_t sig;
    CHECK(nvt_launch(a, k, one, one, args, 1, &sig) == 0 && sig == va, "launch on a");
    nvt_sim_pause(sim, 0);
    CHECK(nvt_queue_sync(b, TIMEOUT_MS) == 0, "sync b: %s", nvt_dev_error(dev));
    CHECK(*(uint32_t *)out->cpu == 42, "b copied %u: it did not wait for a's signal",
          *(uint32_t *)out->cpu);
    /* a chain of 50 alternating hops */
    *(uint32_t *)ctr->cpu = 0;
    for (int i = 0; i < 50; i++) {
        nvt_queue *x = i & 1 ? a : b, *y = i & 1 ? b : a;
        CHECK(nvt_launch(x, k, one, one, args, 1, &sig) == 0, "hop %d", i);
        CHECK(nvt_queue_wait_for(y, x, sig) == 0, "wait hop %d", i);
    }
    CHECK(nvt_queue_sync(a, TIMEOUT_MS) == 0 && nvt_queue_sync(b, TIMEOUT_MS) == 0, "sync chain");
    CHECK(*(uint32_t *)ctr->cpu == 50, "chain counter %u", *(uint32_t *)ctr->cpu);
    nvt_mem_free(dev, ctr);
    nvt_mem_free(dev, out);
    nvt_kernel_unload(dev, k);
    nvt_queue_destroy(a);
    nvt_queue_destroy(b);
}

static void test_interleaved(nvt_dev *dev, nvt_queue *q, nvt_sim *sim) {
    nvt_kernel_info ki = scale_info();
    nvt_kernel *k;
    nvt_kernel_load(dev, &ki, &k);
    nvt_sim_register_kernel(sim, k->code_va, sim_scale, NULL);
    nvt_mem *buf, *hist;
    nvt_mem_alloc(dev, 64 * 4, 0, &buf);
    nvt_mem_alloc(dev, 100 * 64 * 4, 0, &hist);
    float *f = buf->cpu;
    for (int i = 0; i < 64; i++)
        f[i] = 1.0f + (float)i;
    int32_t n = 64;
    float s = 2.0f;
    const void *args[3] = {&buf->gpu_va, &n, &s};
    uint32_t grid[3] = {1, 1, 1}, block[3] = {64, 1, 1};
    for (int r = 0; r < 100; r++) {
        s = r & 1 ? 0.5f : 2.0f;
        CHECK(nvt_launch(q, k, grid, block, args, 3, NULL) == 0, "launch %d", r);
        CHECK(nvt_copy(q, hist->gpu_va + (uint64_t)r * 256, buf->gpu_va, 256, NULL) == 0, "copy %d",
              r);
    }
    CHECK(nvt_queue_sync(q, TIMEOUT_MS) == 0, "sync");
    const float *h = hist->cpu;
    int bad = 0;
    for (int r = 0; r < 100; r++)
        for (int i = 0; i < 64; i++)
            bad += h[r * 64 + i] != (1.0f + (float)i) * (r & 1 ? 1.0f : 2.0f);
    CHECK(bad == 0, "interleaved compute/copy: %d wrong values", bad);
    nvt_mem_free(dev, buf);
    nvt_mem_free(dev, hist);
    nvt_kernel_unload(dev, k);
}

static void test_churn(nvt_dev *dev, nvt_sim *sim) {
    nvt_sim_stats b, a;
    nvt_sim_stats_get(sim, &b);
    int fds = count_fds();
    nvt_mem *live[16] = {0};
    unsigned seed = 12345;
    for (int i = 0; i < 400; i++) {
        seed = seed * 1103515245u + 12345u;
        int slot = (seed >> 16) % 16;
        if (live[slot]) {
            nvt_mem_free(dev, live[slot]);
            live[slot] = NULL;
        } else {
            size_t sz = 1 + (seed >> 8) % (3u << 20);
            CHECK(nvt_mem_alloc(dev, sz, (seed >> 4) % 3, &live[slot]) == 0, "churn alloc %zu", sz);
        }
    }
    for (int i = 0; i < 16; i++)
        nvt_mem_free(dev, live[i]);
    nvt_sim_stats_get(sim, &a);
    CHECK(count_fds() == fds, "fds %d -> %d", fds, count_fds());
    CHECK(a.open_fds == b.open_fds && a.cpu_mappings == b.cpu_mappings &&
              a.gpu_mappings == b.gpu_mappings && a.handles == b.handles && a.bytes == b.bytes,
          "sim counts: fds %d/%d, cpu maps %d/%d, gpu maps %d/%d, handles %d/%d", b.open_fds,
          a.open_fds, b.cpu_mappings, a.cpu_mappings, b.gpu_mappings, a.gpu_mappings, b.handles,
          a.handles);
    CHECK(a.max_gpu_va_end <= (1ull << 37), "VA end 0x%llx inside the [64 MiB, 2^37) address space",
          (unsigned long long)a.max_gpu_va_end);
}

static void run_abi(nvt_abi abi, int big) {
    int fds0 = count_fds();
    nvt_sim *sim = nvt_sim_create(abi);
    if (!sim) {
        CHECK(0, "nvt_sim_create");
        return;
    }
    int fds1 = count_fds();
    nvt_dev *dev = open_sim_dev(sim);
    test_info(dev, abi);
    nvt_queue *q;
    CHECK(nvt_queue_create(dev, NULL, &q) == 0, "queue: %s", nvt_dev_error(dev));
    nvt_sim_stats st;
    nvt_sim_stats_get(sim, &st);
    /* usermode submit needs a deterministic channel, hence a disabled watchdog (test_abi) */
    CHECK(st.last_wdt_status == 1 /* DISABLE */, "watchdog disabled (status %u)",
          st.last_wdt_status);
    test_copies(dev, q, sim, big);
    test_launch(dev, q, sim);
    test_interleaved(dev, q, sim);
    test_many_launches(dev, sim);
    test_pushbuffer_wrap(dev, sim);
    test_random_rings(dev, sim);
    test_back_pressure(dev, sim);
    test_signal_chain(dev, sim);
    test_churn(dev, sim);
    nvt_queue_destroy(q);
    nvt_dev_close(dev);
    nvt_sim_stats_get(sim, &st);
    CHECK(st.open_fds == 0 && st.cpu_mappings == 0 && st.gpu_mappings == 0 && st.handles == 0,
          "after close: %d fds, %d cpu maps, %d gpu maps, %d handles", st.open_fds, st.cpu_mappings,
          st.gpu_mappings, st.handles);
    CHECK(st.faults == 0, "unexpected GPU fault: %s", st.last_fault);
    /* every timeline release came after a SYS_MEMBAR covering the launches and copies before it */
    CHECK(st.unfenced_releases == 0 && st.membars >= st.sem_releases,
          "%u releases without a membar after work; %u membars for %u releases",
          st.unfenced_releases, st.membars, st.sem_releases);
    CHECK(count_fds() == fds1, "process fds %d -> %d", fds1, count_fds());
    nvt_sim_destroy(sim);
    CHECK(count_fds() == fds0, "fds after destroying the simulator %d -> %d", fds0, count_fds());
}

int main(void) {
    run_abi(NVT_ABI_R36, 1);
    run_abi(NVT_ABI_R35, 0);
    return check_summary("tegra/test_flow");
}
