/* timeline.c - `gfxemu exec --timeline FILE` (GFXEMU_VGPU_TIMELINE=FILE): one timeline of the
 * whole program, every kernel it launches named by its symbol.
 *
 * Chrome's trace-event JSON in its array form ("[" event, event, ... "]"), which
 * ui.perfetto.dev and chrome://tracing open; the closing "]" is optional in that form, so a
 * program that dies (a GPU fault, abort) still leaves a file they read.  Each GPU is a process
 * (pid = its KFD node, "GPU node 1 (gfx950, AMD Instinct MI355X)"), each queue a thread of it
 * ("queue 3 (SDMA)"); what a queue ran is a complete ("X") event: a kernel dispatch (name = the
 * kernel's symbol, args: grid and workgroup sizes, partial workgroups, workgroups, waves,
 * wave-instructions), an SDMA copy or fill (bytes, addresses), a barrier packet's wait.  Time
 * is wall-clock microseconds since the library started (CLOCK_BOOTTIME), so spans on different
 * queues line up as they ran.  --stats' per-kernel totals are the sums of these spans' args.
 *
 * The process `gfxemu exec` started writes FILE; a child process that also uses the GPU writes
 * FILE.PID (each has its own virtual GPU).  Events are written as they happen, under one lock.
 */
#include <inttypes.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <linux/kfd_ioctl.h>

#include "vgpu/vgpu.h"

static pthread_mutex_t tl_lock = PTHREAD_MUTEX_INITIALIZER;
static FILE *tl;
static int tl_failed, tl_events;
static uint64_t tl_t0;
static unsigned char tl_gpu_named[VG_MAX_GPUS];
static unsigned char tl_queue_named[VG_MAX_QUEUES];

void vg_timeline_init(void) {
    const char *p = getenv("GFXEMU_VGPU_TIMELINE");
    vg.timeline = p && *p;
    tl_t0 = vg_now_ns();
}

/* JSON string contents (kernel symbols are plain ASCII, but be safe). */
static void json_str(char *out, size_t n, const char *in) {
    size_t j = 0;
    for (; *in && j + 7 < n; in++) {
        unsigned char c = (unsigned char)*in;
        if (c == '"' || c == '\\') {
            out[j++] = '\\';
            out[j++] = (char)c;
        } else if (c < 0x20) {
            j += (size_t)snprintf(out + j, n - j, "\\u%04x", c);
        } else {
            out[j++] = (char)c;
        }
    }
    out[j] = 0;
}

static int tl_open(void) {
    if (tl || tl_failed)
        return tl ? 0 : -1;
    const char *p = getenv("GFXEMU_VGPU_TIMELINE");
    char path[4096];
    if (vg.warn) /* the process gfxemu exec started */
        snprintf(path, sizeof path, "%s", p);
    else
        snprintf(path, sizeof path, "%s.%ld", p, (long)getpid());
    tl = fopen(path, "w");
    if (!tl) {
        tl_failed = 1;
        vg_msg("--timeline: cannot write %s; no timeline", path);
        return -1;
    }
    fputs("[", tl);
    return 0;
}

/* One event: a separator before all but the first, so the array never needs a trailing comma
 * (and a file cut short still parses once "]" is added, as the viewers do). */
static void emit(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
static void emit(const char *fmt, ...) {
    va_list ap;
    fputs(tl_events++ ? ",\n" : "\n", tl);
    va_start(ap, fmt);
    vfprintf(tl, fmt, ap);
    va_end(ap);
}

static const char *queue_kind(uint32_t type) {
    return type == KFD_IOC_QUEUE_TYPE_COMPUTE_AQL ? "AQL"
           : type == KFD_IOC_QUEUE_TYPE_COMPUTE   ? "PM4 compute"
                                                  : "SDMA";
}

void vg_timeline_span(const vg_queue *q, const char *name, const char *cat, uint64_t t0_ns,
                      uint64_t t1_ns, const char *args) {
    if (!vg.timeline)
        return;
    char nm[256];
    json_str(nm, sizeof nm, name);
    pthread_mutex_lock(&tl_lock);
    if (tl_open() == 0) {
        int pid = q->gpu + 1;
        unsigned tid = q->id + 1;
        if (!tl_gpu_named[q->gpu]) {
            tl_gpu_named[q->gpu] = 1;
            emit("{\"name\": \"process_name\", \"ph\": \"M\", \"pid\": %d, \"args\": "
                 "{\"name\": \"GPU node %d (%s, %s)\"}}",
                 pid, pid, vg.card->target, vg.card->product);
        }
        if (q->id < VG_MAX_QUEUES && !tl_queue_named[q->id]) {
            tl_queue_named[q->id] = 1;
            emit("{\"name\": \"thread_name\", \"ph\": \"M\", \"pid\": %d, \"tid\": %u, "
                 "\"args\": {\"name\": \"queue %u (%s)\"}}",
                 pid, tid, q->id, queue_kind(q->type));
        }
        uint64_t a = t0_ns > tl_t0 ? t0_ns - tl_t0 : 0, b = t1_ns > t0_ns ? t1_ns - t0_ns : 0;
        emit("{\"name\": \"%s\", \"cat\": \"%s\", \"ph\": \"X\", \"pid\": %d, \"tid\": %u, "
             "\"ts\": %" PRIu64 ".%03u, \"dur\": %" PRIu64 ".%03u, \"args\": {%s}}",
             nm, cat, pid, tid, a / 1000, (unsigned)(a % 1000), b / 1000, (unsigned)(b % 1000),
             args ? args : "");
        fflush(tl);
    }
    pthread_mutex_unlock(&tl_lock);
}

void vg_timeline_close(void) {
    pthread_mutex_lock(&tl_lock);
    if (tl) {
        fputs("\n]\n", tl);
        fclose(tl);
        tl = NULL;
    }
    pthread_mutex_unlock(&tl_lock);
}
