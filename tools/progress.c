/* progress.c - the progress line `gfxemu run` shows on stderr during long launches.
 *
 * Only when stderr is a terminal, and only once a launch has run for GFXEMU_PROGRESS_AFTER
 * seconds (default 2): "\r" + workgroups done/total, percentage and rate, redrawn twice a second
 * and erased when the launch ends, so short runs and redirected output never see it.  A helper
 * thread polls gfx_launch_progress(); the launch itself pays one relaxed atomic add per
 * workgroup. */
#include <pthread.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <time.h>
#include <unistd.h>

#include "cli.h"

struct cli_progress {
    gfx_device *dev;
    FILE *out;
    double after;
    pthread_t thread;
    pthread_mutex_t lock;
    pthread_cond_t cond;
    int stop, shown;
};

static double now_s(void) {
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + ts.tv_nsec / 1e9;
}

static void *progress_main(void *arg) {
    cli_progress *p = arg;
    double start = now_s();
    pthread_mutex_lock(&p->lock);
    while (!p->stop) {
        double t = now_s() - start;
        double wait = t < p->after ? p->after - t : 0.5;
        struct timespec until;
        clock_gettime(CLOCK_REALTIME, &until);
        until.tv_sec += (time_t)wait;
        until.tv_nsec += (long)((wait - (double)(time_t)wait) * 1e9);
        if (until.tv_nsec >= 1000000000L) {
            until.tv_sec++;
            until.tv_nsec -= 1000000000L;
        }
        pthread_cond_timedwait(&p->cond, &p->lock, &until);
        t = now_s() - start;
        if (p->stop || t < p->after)
            continue;
        uint64_t done, total;
        gfx_launch_progress(p->dev, &done, &total);
        fprintf(p->out, "\rgfxemu: %llu/%llu workgroups (%.1f%%), %.0f workgroups/s, %.0f s ",
                (unsigned long long)done, (unsigned long long)total,
                total ? 100.0 * (double)done / (double)total : 0.0, (double)done / t, t);
        fflush(p->out);
        p->shown = 1;
    }
    pthread_mutex_unlock(&p->lock);
    return NULL;
}

cli_progress *cli_progress_start(gfx_device *dev, FILE *out) {
    if (!isatty(fileno(out)))
        return NULL;
    cli_progress *p = calloc(1, sizeof *p);
    if (!p)
        return NULL;
    p->dev = dev;
    p->out = out;
    p->after = 2.0;
    const char *env = getenv("GFXEMU_PROGRESS_AFTER");
    if (env && *env) {
        char *end;
        double v = strtod(env, &end);
        if (!*end && v >= 0)
            p->after = v;
    }
    pthread_mutex_init(&p->lock, NULL);
    pthread_cond_init(&p->cond, NULL);
    if (pthread_create(&p->thread, NULL, progress_main, p) != 0) {
        pthread_mutex_destroy(&p->lock);
        pthread_cond_destroy(&p->cond);
        free(p);
        return NULL;
    }
    return p;
}

void cli_progress_stop(cli_progress *p) {
    if (!p)
        return;
    pthread_mutex_lock(&p->lock);
    p->stop = 1;
    pthread_cond_signal(&p->cond);
    pthread_mutex_unlock(&p->lock);
    pthread_join(p->thread, NULL);
    if (p->shown) {
        fputs("\r\033[K", p->out); /* erase the line: the run's own output follows */
        fflush(p->out);
    }
    pthread_mutex_destroy(&p->lock);
    pthread_cond_destroy(&p->cond);
    free(p);
}
