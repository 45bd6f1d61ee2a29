/* b_control.c - control-flow-bound kernels: a uniform Collatz walk the compiler keeps in scalar
 * registers (SALU + scalar branches), and a per-lane one whose lanes leave the loop at different
 * trip counts (EXEC-mask divergence).  Wave-instructions per second on 1 and 2 threads. */
#include "bench.h"

#include <stdio.h>
#include <stdlib.h>

#define GROUPS 16
#define N (GROUPS * 256)

typedef struct {
    uint32_t want[N];
    unsigned arg; /* salu_branch: walks per workgroup; divergent: first start value */
    unsigned walks; /* divergent: walks per lane */
} ctx;

static int name_is_salu;

static void setup(bench_job *j, void *p)
{
    ctx *c = p;
    j->arg[0] = bench_upload(j->dev, NULL, sizeof c->want);
    j->arg[1] = c->arg;
    j->arg[2] = c->walks;
    j->nargs = name_is_salu ? 2 : 3;
}

static int verify(bench_job *j, void *p)
{
    ctx *c = p;
    static uint32_t got[N];
    bench_download(j->dev, got, j->arg[0], sizeof got);
    return bench_check_u32("control", got, c->want, N);
}

static uint32_t collatz(uint32_t v)
{
    uint32_t s = 0;
    while (v != 1) {
        v = (v & 1) ? 3 * v + 1 : v >> 1;
        s++;
    }
    return s;
}

static void one(gfx_module *m, const char *name, unsigned arg, unsigned walks)
{
    static ctx c;
    c.arg = arg;
    c.walks = walks;
    name_is_salu = name[0] == 's';
    if (name_is_salu) {
        for (unsigned g = 0; g < GROUPS; g++) {
            uint32_t steps = 0;
            for (unsigned k = 0; k < arg; k++)
                steps += collatz(g * arg + k + 1);
            for (unsigned l = 0; l < 256; l++)
                c.want[g * 256 + l] = steps + l;
        }
    } else {
        for (unsigned i = 0; i < N; i++) {
            c.want[i] = 0;
            for (unsigned k = 0; k < walks; k++)
                c.want[i] += collatz(arg + i * walks + k);
        }
    }
    bench_work w = {bench_kernel(m, name), GROUPS, 256, setup, verify, &c, NULL, 0};
    static const unsigned threads[] = {1, 2};
    int runs = bench_runs();
    double *secs = calloc((size_t)runs * 2, sizeof *secs);
    gfx_stats st;
    int ok = bench_run_work(&w, threads, 2, runs, secs, &st);
    char extra[256];
    snprintf(extra, sizeof extra,
             "\"unit\":\"wave-instr/s\",\"wave_insts\":%llu,\"salu\":%llu,\"branch\":%llu,"
             "\"valu\":%llu,\"workgroups\":%d",
             (unsigned long long)st.wave_insts, (unsigned long long)st.salu,
             (unsigned long long)st.branch, (unsigned long long)st.valu, GROUPS);
    bench_emit_rates(name, "wave_insts_per_s", (double)st.wave_insts, secs, runs, threads, 2, ok,
                     extra);
    free(secs);
}

int main(void)
{
    gfx_module *m = bench_load(bench_compile("bench/kernels/bench.cl", "gfx950"));
    one(m, "salu_branch", bench_scaled(600), 0);
    /* start values from 2^20: about 50-400 steps per walk, spread widely within a wave */
    one(m, "divergent", 1u << 20, bench_scaled(16));
    gfx_module_free(m);
    return 0;
}
