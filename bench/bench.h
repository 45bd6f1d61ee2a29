/* bench.h - helpers shared by the benchmark programs bench/b_*.c (see bench/README.md).
 *
 * A benchmark program compiles its OpenCL C kernels with clang-22, runs each workload a few
 * times (BENCH_RUNS, default 5), checks the output against a C reference, and prints one JSON
 * line per measurement on stdout with bench_emit().  Everything else (progress, mismatches) goes
 * to stderr.  Only the public API (include/gfxemu.h) is used. */
#ifndef GFXEMU_BENCH_H
#define GFXEMU_BENCH_H

#include "gfxemu.h"

#include <stddef.h>
#include <stdint.h>

/* BENCH_RUNS from the environment (default 5, at least 1). */
int bench_runs(void);
/* BENCH_SCALE from the environment (default 1.0): multiplies problem sizes, for quick smoke
 * runs (0.1) or longer, steadier ones on a quiet machine. */
double bench_scale(void);
/* Whether the case named `name` runs: BENCH_CASE unset or empty, or a substring of name (b_gemm's
 * and b_attention's cases, for profiling or A/B runs of one of them). */
int bench_case(const char *name);
/* base * BENCH_SCALE, at least 1 (so a tiny scale still runs every benchmark). */
unsigned bench_scaled(double base);
/* Monotonic wall clock in seconds. */
double bench_now(void);

/* Compile bench/kernels/<stem>.cl (or any .cl path) for arch at -O2 into
 * $BUILD/bench/kernels/<stem>-<arch>.co and return the path (static storage).  Exits on failure. */
const char *bench_compile(const char *cl, const char *arch);
/* The same at another optimisation level (opt: "-O0", "-O3", ...); the file name carries it. */
const char *bench_compile_opt(const char *cl, const char *arch, const char *opt);
/* Load a code object; exits on failure. */
gfx_module *bench_load(const char *co);
const gfx_kernel *bench_kernel(gfx_module *m, const char *name);
/* The target of the devices bench_device() creates (and bench_run_work() uses): gfx950 unless a
 * benchmark sets another for kernels built for it. */
extern gfx_arch bench_arch;
gfx_device *bench_device(unsigned threads);
/* A device buffer of n bytes, filled from p when p is not NULL; exits on failure. */
uint64_t bench_upload(gfx_device *dev, const void *p, size_t n);
void bench_download(gfx_device *dev, void *p, uint64_t addr, size_t n);

/* Launch a 1-D grid of `groups` workgroups of `block` work-items; returns the wall-clock seconds
 * of gfx_launch_params (stats filled when not NULL).  Exits with a message on any failure. */
double bench_launch(gfx_device *dev, const gfx_kernel *k, unsigned groups, unsigned block,
                    const void *const *params, size_t nparams, gfx_stats *stats);

/* Median of n values (v is reordered). */
double bench_median(double *v, int n);

/* One JSON line: {"bench":..., "metric":..., "value": median(runs), "threads":...,
 * "verified":..., "runs":[...], <extra>}.  extra is NULL or more JSON members without the
 * leading comma, e.g. "\"unit\":\"GB/s\"". */
void bench_emit(const char *bench, const char *metric, const double *runs, int n,
                unsigned threads, int verified, const char *extra);

/* Compare n 32-bit words with a reference; prints the first mismatches to stderr under `what`
 * and returns 1 when all match. */
int bench_check_u32(const char *what, const uint32_t *got, const uint32_t *want, size_t n);

/* ---- a workload run on devices with different thread counts ----------------------------------
 * setup() allocates the inputs on j->dev and fills j->arg (buffer addresses, or scalars in the
 * low bytes: the host is little-endian); verify() reads the output back and compares it with the
 * C reference (returns 1 when right).  Both get the workload's ctx. */
typedef struct bench_job {
    gfx_device *dev;
    uint64_t arg[8];
    size_t nargs;
} bench_job;

typedef struct bench_work {
    const gfx_kernel *k;
    unsigned groups, block;
    void (*setup)(bench_job *j, void *ctx);
    int (*verify)(bench_job *j, void *ctx);
    void *ctx;
    void (*before)(bench_job *j, void *ctx); /* NULL, or called (untimed) before every launch,
                                              * e.g. to zero an atomic counter */
    double min_secs; /* 0: one launch a run; else a run launches until this much launch time has
                      * passed and records the mean (kernels too short to time alone) */
} bench_work;

/* Run w `runs` times on one device per entry of threads[] (interleaved: run r on every device,
 * then run r+1, so a load change on the machine hits all of them alike).  secs[t * runs + r] gets
 * the launch time (with w->min_secs, the run's mean launch time); *st the stats of the first
 * device's last launch.  The output is verified after the first and the last run on every
 * device; returns 1 when all verifications passed. */
int bench_run_work(const bench_work *w, const unsigned *threads, int nthreads, int runs,
                   double *secs, gfx_stats *st);
/* Cores the launches of the last bench_run_work() actually got, per entry of threads[]: process
 * CPU time / wall time, median over the runs.  On a loaded machine a 2-thread launch gets less
 * than 2; bench_emit_rates() reports it as "cores" so the scaling can be judged against it. */
extern double bench_cores[8];

/* For each thread count t: bench_emit(bench, metric) of work / secs[t * runs + r], with
 * "cores": bench_cores[t]. */
void bench_emit_rates(const char *bench, const char *metric, double work, const double *secs,
                      int runs, const unsigned *threads, int nthreads, int verified,
                      const char *extra);

/* A small deterministic generator for inputs. */
uint32_t bench_rand(void);

#endif
