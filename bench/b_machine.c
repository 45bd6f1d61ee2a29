/* b_machine.c - how many cores the machine gives this process right now: two threads spin on a
 * clock for 0.2 s and the process CPU time is divided by the wall time (2.0 on an idle 2-core
 * machine).  Nothing of gfxemu runs here; bench/run.py uses the figure to tell a scaling that
 * gfxemu misses from one the machine does not allow (on a shared machine another job often
 * holds a core).  "Verified" is always true: there is no output to check. */
#include "bench.h"

#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <time.h>

static double clk(clockid_t c)
{
    struct timespec t;
    clock_gettime(c, &t);
    return (double)t.tv_sec + t.tv_nsec * 1e-9;
}

static void *spin(void *arg)
{
    (void)arg;
    double t0 = clk(CLOCK_MONOTONIC);
    volatile unsigned long n = 0;
    while (clk(CLOCK_MONOTONIC) - t0 < 0.2)
        n++;
    return NULL;
}

int main(void)
{
    int runs = bench_runs();
    double *cores = calloc((size_t)runs, sizeof *cores);
    for (int r = 0; r < runs; r++) {
        double w0 = clk(CLOCK_MONOTONIC), c0 = clk(CLOCK_PROCESS_CPUTIME_ID);
        pthread_t t;
        if (pthread_create(&t, NULL, spin, NULL) != 0)
            return 1;
        spin(NULL);
        pthread_join(t, NULL);
        cores[r] = (clk(CLOCK_PROCESS_CPUTIME_ID) - c0) / (clk(CLOCK_MONOTONIC) - w0);
    }
    bench_emit("machine", "cores_for_2_threads", cores, runs, 2, 1, "\"unit\":\"cores\"");
    free(cores);
    return 0;
}
