/* profile.c - `gfxemu exec --counters[=LIST]` and `--att DIR` (GFXEMU_VGPU_COUNTERS,
 * GFXEMU_VGPU_ATT): the per-launch profilers of `gfxemu run` (issue #18, README "Counters" and
 * "Thread traces in AMD's format") on every kernel dispatch of the whole program.
 *
 * A profiled dispatch runs under a debug session (gfx_debug_launch(): one thread, the stepping
 * loop, as `gfxemu run --counters` does), so only the program run with these options pays.
 * Dispatches are numbered from 1 in the order they start, over all queues and GPUs.
 *  - counters: one report on stderr at exit, a block per dispatch named by its kernel symbol,
 *    in the layout and under the names of `gfxemu run --counters` (tools/counters.c, linked in).
 *  - ATT: DIR/dispatch_<N>_<kernel>/, what `gfxemu run --att` writes for one launch (token
 *    streams per shader engine, att_index.json, and the code object when the buffer object
 *    holding the kernel is an ELF image, as ROCr loads it).
 */
#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "../../tools/cli.h"
#include "dispatch/dispatch.h"
#include "vgpu/vgpu.h"

typedef struct vg_prof_rec {
    uint64_t n; /* dispatch number */
    char name[128];
    uint32_t queue, gpu;
    gfx_counters c;
    cli_occupancy occ;
} vg_prof_rec;

static pthread_mutex_t prof_lock = PTHREAD_MUTEX_INITIALIZER;
static vg_prof_rec *recs; /* under prof_lock */
static size_t nrecs, caprecs;
static uint64_t next_dispatch; /* atomic */

int vg_profile_init(void) {
    const char *c = getenv("GFXEMU_VGPU_COUNTERS");
    if (c && *c && strcmp(c, "0") != 0) {
        /* "1" or "all": every counter; else a list of names */
        int all = strcmp(c, "1") == 0 || strcmp(c, "all") == 0;
        if (cli_counters_parse(all ? NULL : c, &vg.counters) != 0) {
            vg_msg("GFXEMU_VGPU_COUNTERS=%s: not a list of counter names; counters are off", c);
            vg.counters = 0;
        }
    }
    const char *a = getenv("GFXEMU_VGPU_ATT");
    if (a && *a) {
        if (strlen(a) + 200 > sizeof vg.att) {
            vg_msg("GFXEMU_VGPU_ATT: the directory name is too long; thread traces are off");
        } else if (mkdir(a, 0777) != 0 && errno != EEXIST) {
            vg_msg("GFXEMU_VGPU_ATT=%s: cannot make the directory: %s; thread traces are off", a,
                   strerror(errno));
        } else {
            snprintf(vg.att, sizeof vg.att, "%s", a);
        }
    }
    return 0;
}

/* The kernel's name as a file name part: [A-Za-z0-9_.-], at most 80 characters. */
static void file_part(const char *name, char *out, size_t n) {
    size_t i = 0;
    for (; name[i] && i + 1 < n && i < 80; i++) {
        char ch = name[i];
        int ok = (ch >= 'a' && ch <= 'z') || (ch >= 'A' && ch <= 'Z') || (ch >= '0' && ch <= '9') ||
                 ch == '_' || ch == '.' || ch == '-';
        out[i] = ok ? ch : '_';
    }
    out[i] = 0;
}

gfx_result vg_profile_launch(const vg_queue *q, const char *name, const struct gfx_kernel *kk,
                             const void *image, uint64_t image_size, const uint32_t grid[3],
                             const uint32_t block[3], const gfx_launch_options *o, gfx_stats *st) {
    gfx_device *dev = q->dev;
    uint64_t n = __atomic_add_fetch(&next_dispatch, 1, __ATOMIC_RELAXED);
    gfx_debug_session *s = NULL;
    gfx_result r = gfx_debug_create(dev, &s);
    if (r != GFX_OK)
        return r;
    if (vg.counters)
        gfx_debug_counters_enable(s, 1);
    char dir[sizeof vg.att + 128], co[sizeof dir + 32] = "";
    if (vg.att[0]) {
        char part[96];
        file_part(name, part, sizeof part);
        snprintf(dir, sizeof dir, "%s/dispatch_%" PRIu64 "_%s", vg.att, n, part);
        if (mkdir(dir, 0777) != 0 && errno != EEXIST)
            vg_msg("--att: cannot make %s: %s", dir, strerror(errno));
        /* The code object (the buffer object the runtime loaded, when it is an ELF image) for
         * the trace decoder: the writer copies it beside the traces. */
        if (image_size >= 4 && memcmp(image, "\177ELF", 4) == 0) {
            snprintf(co, sizeof co, "%s/.code_object", dir);
            FILE *f = fopen(co, "wb");
            if (!f || fwrite(image, 1, image_size, f) != image_size)
                co[0] = 0;
            if (f)
                fclose(f);
        }
        gfx_att_options ao = {0};
        ao.dir = dir;
        ao.code_object = co[0] ? co : NULL;
        ao.se_mask = 1;
        ao.simd_mask = 0xf;
        if (gfx_debug_att(s, &ao) != GFX_OK)
            vg_msg("--att: thread trace of dispatch %" PRIu64 " not set up", n);
    }
    r = gfx_debug_launch(s, kk, grid, block, NULL, 0, o, st);
    if (co[0])
        unlink(co);
    if (vg.counters) {
        vg_prof_rec rec;
        memset(&rec, 0, sizeof rec);
        rec.n = n;
        snprintf(rec.name, sizeof rec.name, "%s", name);
        rec.queue = q->id;
        rec.gpu = (uint32_t)q->gpu;
        gfx_debug_counters(s, &rec.c);
        /* Occupancy as the dispatcher models it (GFXEMU_OCCUPANCY_*). */
        dp_dispatch d;
        char err[160];
        if (dp_plan(&d, kk, dev->arch, grid, block, o->dynamic_lds, o->private_size, err,
                    sizeof err) == GFX_OK) {
            dp_occupancy oc;
            dp_occupancy_of(&d, dev->cus, &oc);
            rec.occ.workgroups_per_cu = oc.per_cu;
            rec.occ.waves_per_cu = oc.per_cu * d.waves_per_wg;
        }
        pthread_mutex_lock(&prof_lock);
        if (nrecs == caprecs) {
            size_t cap = caprecs ? 2 * caprecs : 64;
            vg_prof_rec *nr = realloc(recs, cap * sizeof *nr);
            if (nr) {
                recs = nr;
                caprecs = cap;
            }
        }
        if (nrecs < caprecs)
            recs[nrecs++] = rec;
        pthread_mutex_unlock(&prof_lock);
    }
    gfx_debug_free(s);
    return r;
}

static int by_number(const void *a, const void *b) {
    const vg_prof_rec *x = a, *y = b;
    return x->n < y->n ? -1 : x->n > y->n;
}

void vg_profile_print(void) {
    if (!vg.counters)
        return;
    pthread_mutex_lock(&prof_lock);
    qsort(recs, nrecs, sizeof *recs, by_number);
    fprintf(stderr, "gfxemu: counters of %zu kernel dispatch%s (%s, %s):\n", nrecs,
            nrecs == 1 ? "" : "es", vg.card->target, vg.card->product);
    for (size_t i = 0; i < nrecs; i++) {
        char title[200];
        snprintf(title, sizeof title, "%s, dispatch %" PRIu64 " (GPU node %u, queue %u)",
                 recs[i].name, recs[i].n, recs[i].gpu + 1, recs[i].queue);
        cli_counters_print(stderr, title, vg.counters, &recs[i].c, &recs[i].occ);
    }
    free(recs);
    recs = NULL;
    nrecs = caprecs = 0;
    pthread_mutex_unlock(&prof_lock);
}
