/* test_coresident.c - workgroups that wait for one another, through the C API, on gfx950 and
 * gfx942 with 1, 2 and 4 worker threads (tests/dispatch/coresident.cl, clang-22 -O2, and -O0 for
 * the flag wait): a flag wait, a software grid barrier, a ticket lock, producer/consumer queues,
 * a persistent kernel with more tasks than workgroups, GWS barriers and a GWS semaphore all
 * finish with the values worked out below; a kernel that waits for a flag nobody sets is
 * reported as a deadlock naming the wave, the branch and the argument it reads, in well under
 * 3 s; a wait on a workgroup that cannot be resident (a 1-CU device, LDS for one workgroup per
 * CU) is named as such and completes on 2 CUs; racecheck finds the RAW, WAR and WAW hazards of
 * racy LDS exchanges and nothing in barrier-separated and atomic ones.
 */
#include "common/check.h"
#include "common/util.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "gfxemu.h"

static gfx_device *dev;
static gfx_module *mod;
static char tag[64];
static int is950;
static int kt950(void) { return is950; }

static double now(void) {
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + ts.tv_nsec * 1e-9;
}

static uint64_t buf(const void *p, size_t n) {
    uint64_t a = 0;
    if (gfx_buffer_alloc(dev, n ? n : 4, &a) != GFX_OK ||
        (p && gfx_memcpy_htod(dev, a, p, n) != GFX_OK)) {
        printf("FAIL %s: cannot allocate %zu bytes\n", tag, n);
        exit(1);
    }
    return a;
}

static void get(void *p, uint64_t a, size_t n) {
    CHECK(gfx_memcpy_dtoh(dev, p, a, n) == GFX_OK, "%s: dtoh", tag);
}

/* Launch `name` on grid x block (1-D); returns the result, the fault in *f. */
static gfx_result launch(const char *name, uint32_t grid, uint32_t block, const void *const *p,
                         size_t np, const gfx_launch_options *o, gfx_fault *f) {
    const gfx_kernel *k = NULL;
    if (gfx_module_kernel(mod, name, &k) != GFX_OK) {
        CHECK(0, "%s: no kernel %s", tag, name);
        return GFX_ERR_NOT_FOUND;
    }
    uint32_t g[3] = {grid, 1, 1}, b[3] = {block, 1, 1};
    gfx_result r = gfx_launch_params(dev, k, g, b, p, np, o, NULL);
    gfx_fault tmp;
    gfx_last_fault(dev, f ? f : &tmp);
    return r;
}

static void ok(const char *name, gfx_result r) {
    CHECK(r == GFX_OK, "%s %s: %s: %s", tag, name, gfx_result_str(r), gfx_device_error(dev));
}

static void t_flag_wait(void) {
    uint32_t n = 6, out[6 * 64];
    uint64_t flag = buf(NULL, 4), o = buf(NULL, sizeof out);
    const void *p[] = {&flag, &o};
    ok("flag_wait", launch("flag_wait", n, 64, p, 2, NULL, NULL));
    get(out, o, sizeof out);
    int bad = 0;
    for (uint32_t i = 0; i < n * 64; i++)
        bad += out[i] != 42 + i / 64;
    CHECK(!bad, "%s flag_wait: %d wrong values (out[0] %u, out[64] %u)", tag, bad, out[0], out[64]);
}

static void t_grid_sync(void) {
    enum { N = 24, R = 4 };
    uint32_t out[N * R], rounds = R;
    uint64_t bar = buf(NULL, 8), data = buf(NULL, 4 * N), o = buf(NULL, sizeof out);
    const void *p[] = {&bar, &data, &o, &rounds};
    /* 2 waves per workgroup: wave 1 waits at s_barrier while wave 0 spins */
    ok("grid_sync", launch("grid_sync", N, 128, p, 4, NULL, NULL));
    get(out, o, sizeof out);
    int bad = 0;
    for (uint32_t g = 0; g < N; g++)
        for (uint32_t r = 0; r < R; r++)
            bad += out[g * R + r] != r * 1000 + (g + 1) % N;
    CHECK(!bad, "%s grid_sync: %d wrong values", tag, bad);
}

static void t_ticket_lock(void) {
    enum { N = 12 };
    uint32_t out[N], count = 0;
    uint64_t lock = buf(NULL, 8), c = buf(NULL, 4), o = buf(NULL, sizeof out);
    const void *p[] = {&lock, &c, &o};
    ok("ticket_lock", launch("ticket_lock", N, 64, p, 3, NULL, NULL));
    get(out, o, sizeof out);
    get(&count, c, 4);
    /* mutual exclusion: every workgroup saw a different count, and none was lost */
    int seen[N] = {0}, bad = 0;
    for (int i = 0; i < N; i++)
        if (out[i] < N)
            seen[out[i]]++;
    for (int i = 0; i < N; i++)
        bad += seen[i] != 1;
    CHECK(count == N && !bad, "%s ticket_lock: count %u, %d values seen other than once", tag,
          count, bad);
}

static void t_queue(void) {
    enum { PAIRS = 3, ITEMS = 50 };
    uint32_t out[PAIRS * ITEMS], items = ITEMS;
    uint64_t ring = buf(NULL, 16 * PAIRS), ctl = buf(NULL, 8 * PAIRS), o = buf(NULL, sizeof out);
    const void *p[] = {&ring, &ctl, &o, &items};
    ok("queue", launch("queue", 2 * PAIRS, 64, p, 4, NULL, NULL));
    get(out, o, sizeof out);
    int bad = 0;
    for (uint32_t q = 0; q < PAIRS; q++)
        for (uint32_t i = 0; i < ITEMS; i++)
            bad += out[q * ITEMS + i] != i * 3 + q;
    CHECK(!bad, "%s queue: %d wrong values", tag, bad);
}

static void t_persistent(void) {
    enum { T = 200 };
    uint32_t val[T], pre[T], ntasks = T;
    for (int i = 0; i < T; i++)
        val[i] = (uint32_t)(i * 7 + 3) % 11;
    uint64_t next = buf(NULL, 4), flags = buf(NULL, 4 * T), v = buf(val, sizeof val),
             o = buf(NULL, sizeof pre);
    const void *p[] = {&next, &flags, &v, &o, &ntasks};
    ok("persistent", launch("persistent", 5, 64, p, 5, NULL, NULL));
    get(pre, o, sizeof pre);
    uint32_t sum = 0;
    int bad = 0;
    for (int i = 0; i < T; i++)
        bad += pre[i] != (sum += val[i]);
    CHECK(!bad, "%s persistent: %d wrong prefix sums (last %u, want %u)", tag, bad, pre[T - 1],
          sum);
}

static void t_gws(void) {
    enum { N = 8, R = 3 };
    uint32_t out[N * R], sem[N], rounds = R;
    uint64_t flag = buf(NULL, 4), data = buf(NULL, 4 * N), o = buf(NULL, sizeof out),
             sd = buf(NULL, 4), so = buf(NULL, sizeof sem);
    const void *p[] = {&flag, &data, &o, &rounds, &sd, &so};
    ok("gws_sync", launch("gws_sync", N, 64, p, 6, NULL, NULL));
    get(out, o, sizeof out);
    get(sem, so, sizeof sem);
    int bad = 0;
    for (uint32_t g = 0; g < N; g++)
        for (uint32_t r = 0; r < R; r++)
            bad += out[g * R + r] != r * 1000 + (g + 1) % N;
    for (uint32_t g = 1; g < N; g++)
        bad += sem[g] != 77 + g;
    CHECK(!bad && sem[0] == 0, "%s gws_sync: %d wrong values", tag, bad);
}

static void t_deadlock(void) {
    uint64_t flag = buf(NULL, 4), o = buf(NULL, 256);
    const void *p[] = {&flag, &o};
    gfx_fault f;
    double t0 = now();
    gfx_result r = launch("stuck", 3, 64, p, 2, NULL, &f);
    double secs = now() - t0;
    CHECK(r == GFX_ERR_FAULT && f.kind == GFX_FAULT_DEADLOCK, "%s stuck: %s, fault %s", tag,
          gfx_result_str(r), gfx_fault_kind_name(f.kind));
    CHECK(secs < 3.0, "%s stuck: reported after %.2f s", tag, secs);
    char want[128];
    snprintf(want, sizeof want, "reading 0x%llx (argument 0 + 0x0)", (unsigned long long)flag);
    CHECK(strncmp(f.message,
                  "deadlock: 3 waves of 3 workgroups wait without progress; wave 0 "
                  "of workgroup (0,0,0) spins at pc 0x",
                  96) == 0 &&
              strstr(f.message, "('s_cbranch_") && strstr(f.message, want),
          "%s stuck: message '%s'", tag, f.message);
    CHECK(!strstr(f.message, "raise"), "%s stuck: advises a bigger budget: %s", tag, f.message);
    CHECK(f.workgroup[0] == 0 && f.wave == 0, "%s stuck: fault names wg %u wave %u", tag,
          f.workgroup[0], f.wave);
    /* the device stays usable */
    t_flag_wait();
}

/* LDS for one workgroup per CU (of 160 KiB on gfx950, 64 KiB on gfx942): on 1 CU workgroup 0 waits
 * for one that cannot be resident. */
static void t_residency(void) {
    gfx_launch_options o = {.dynamic_lds = kt950() ? 100000 : 40000};
    uint64_t flag = buf(NULL, 4), out = buf(NULL, 8);
    const void *p[] = {&flag, &out};
    gfx_fault f;
    CHECK(gfx_device_set_cus(dev, 1) == GFX_OK && gfx_device_cus(dev) == 1, "%s set_cus", tag);
    double t0 = now();
    gfx_result r = launch("wait_last", 2, 64, p, 2, &o, &f);
    CHECK(r == GFX_ERR_FAULT && f.kind == GFX_FAULT_DEADLOCK && now() - t0 < 3.0,
          "%s wait_last on 1 CU: %s %s", tag, gfx_result_str(r), f.message);
    CHECK(strstr(f.message, "deadlock: 1 wave of 1 workgroup waits without progress") &&
              strstr(f.message, "workgroup (1,0,0) can never be resident while these wait: the "
                                "device holds 1 workgroup of this kernel at once (1 CU x 1, "
                                "bounded by LDS)"),
          "%s wait_last on 1 CU: message '%s'", tag, f.message);
    uint64_t flag2 = buf(NULL, 4);
    const void *p2[] = {&flag2, &out};
    CHECK(gfx_device_set_cus(dev, 2) == GFX_OK, "%s set_cus 2", tag);
    ok("wait_last on 2 CUs", launch("wait_last", 2, 64, p2, 2, &o, NULL));
    CHECK(gfx_device_set_cus(dev, 0) == GFX_OK && gfx_device_cus(dev) == (kt950() ? 256u : 304u),
          "%s default CUs %u", tag, gfx_device_cus(dev));
}

static void racecheck(const char *name, int kind, const char *first, const char *second) {
    gfx_launch_options o = {.flags = GFX_LAUNCH_RACECHECK};
    uint64_t out = buf(NULL, 512);
    const void *p[] = {&out};
    ok(name, launch(name, 2, 128, p, 1, &o, NULL));
    size_t n = gfx_race_count(dev);
    if (!kind) {
        gfx_race h;
        CHECK(n == 0, "%s %s: %zu hazards reported, first: %s", tag, name, n,
              n && gfx_race_get(dev, 0, &h) == GFX_OK ? h.message : "");
        return;
    }
    CHECK(n == 1, "%s %s: %zu hazards, want 1", tag, name, n);
    gfx_race h;
    if (n < 1 || gfx_race_get(dev, 0, &h) != GFX_OK)
        return;
    CHECK((int)h.kind == kind && h.wave[0] != h.wave[1] && h.wave[0] < 2 && h.wave[1] < 2 &&
              strncmp(h.disasm[0], first, strlen(first)) == 0 &&
              strncmp(h.disasm[1], second, strlen(second)) == 0 && h.workgroup[0] < 2 &&
              h.lds_offset < 512 && h.pc[0] && h.pc[1],
          "%s %s: kind %d waves %u %u '%s' '%s' offset %u", tag, name, h.kind, h.wave[0], h.wave[1],
          h.disasm[0], h.disasm[1], h.lds_offset);
    const char *kn[] = {"", "RAW", "WAR", "WAW"};
    char want[64];
    snprintf(want, sizeof want, "racecheck: %s hazard at LDS offset 0x", kn[kind]);
    CHECK(strncmp(h.message, want, strlen(want)) == 0, "%s %s: message '%s'", tag, name, h.message);
    CHECK(gfx_race_get(dev, 1, &h) == GFX_ERR_INVALID, "%s %s: index past the end", tag, name);
}

static void t_racecheck(void) {
    racecheck("race_raw", GFX_RACE_RAW, "ds_write_b32", "ds_read_b32");
    racecheck("race_fenced", 0, "", "");
    racecheck("race_war", GFX_RACE_WAR, "ds_read_b32", "ds_write_b32");
    racecheck("race_waw", GFX_RACE_WAW, "ds_write_b32", "ds_write_b32");
    racecheck("race_atomic", 0, "", "");
    /* results are still the program's: the fenced exchange's values */
    gfx_launch_options o = {.flags = GFX_LAUNCH_RACECHECK};
    uint32_t v[256];
    uint64_t out = buf(NULL, sizeof v);
    const void *p[] = {&out};
    ok("race_fenced", launch("race_fenced", 2, 128, p, 1, &o, NULL));
    get(v, out, 512);
    int bad = 0;
    for (uint32_t t = 0; t < 128; t++)
        bad += v[t] != ((t + 64) & 127) * 5;
    CHECK(!bad, "%s race_fenced: %d wrong values", tag, bad);
    /* an ordinary launch afterwards reports nothing */
    ok("race_raw plain", launch("race_raw", 2, 128, p, 1, NULL, NULL));
    CHECK(gfx_race_count(dev) == 0, "%s: races left from the racecheck launch", tag);
}

static void t_timeout(void) {
    gfx_launch_options o = {.timeout = 0.3, .max_insts = 1ull << 40};
    /* waits on a flag nobody sets, but the deadlock check would also stop it: use the ticket
     * lock kernel with a lock that is never served, on a 2-wave block so it is not stuck alone */
    uint64_t flag = buf(NULL, 4), out = buf(NULL, 256);
    const void *p[] = {&flag, &out};
    gfx_fault f;
    gfx_result r = launch("stuck", 1, 64, p, 2, &o, &f);
    /* A deadlock is found long before 0.3 s; both stop the launch within the bound. */
    CHECK(r == GFX_ERR_FAULT && (f.kind == GFX_FAULT_DEADLOCK || f.kind == GFX_FAULT_TIMEOUT),
          "%s timeout: %s %s", tag, gfx_result_str(r), f.message);
}

int main(void) {
    const char *build = test_build_dir();
    const char *arches[] = {"gfx950", "gfx942"};
    const char *opts[] = {"-O2", "-O0"};
    unsigned threads[] = {1, 2, 4};
    for (int a = 0; a < 2; a++)
        for (int o = 0; o < 2; o++) {
            char co[512];
            snprintf(co, sizeof co, "%s/test-data/coresident-%s%s.co", build, arches[a], opts[o]);
            char args[256];
            snprintf(args, sizeof args,
                     "-x cl -cl-std=CL2.0 -target amdgcn-amd-amdhsa -mcpu=%s -nogpulib %s "
                     "-Wno-everything tests/dispatch/coresident.cl",
                     arches[a], opts[o]);
            test_kbuild("co", co, args); /* built again only when out of date */
            char err[256] = "";
            gfx_arch arch;
            gfx_arch_from_name(arches[a], &arch);
            is950 = a == 0;
            if (gfx_module_load_file(co, &mod, err, sizeof err) != GFX_OK) {
                printf("FAIL %s: %s\n", co, err);
                return 1;
            }
            for (int t = 0; t < 3; t++) {
                snprintf(tag, sizeof tag, "%s %s --threads %u", arches[a], opts[o], threads[t]);
                if (gfx_device_create(arch, threads[t], &dev) != GFX_OK) {
                    printf("FAIL %s: device\n", tag);
                    return 1;
                }
                t_flag_wait();
                if (o == 0) {
                    t_grid_sync();
                    t_ticket_lock();
                    /* The queue hands over 300 items between two workers; repeated, it
                     * catches a deadlock check that misses a write made just before a wave
                     * went back to waiting (a false deadlock in about 1 run of 200). */
                    for (unsigned rep = 0; rep < (threads[t] > 1 ? 40u : 1u); rep++)
                        t_queue();
                    t_persistent();
                    t_gws();
                    t_deadlock();
                    t_residency();
                    t_racecheck();
                    t_timeout();
                }
                gfx_device_free(dev);
            }
            gfx_module_free(mod);
        }
    return check_summary("test_coresident");
}
