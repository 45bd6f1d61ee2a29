#!/usr/bin/env python3
"""Run the gfxemu benchmark suite and summarise it (see bench/README.md).

`python3 bench/run.py --markdown` prints the last bench/results.json as markdown tables.

Runs every $BUILD/bench/b_* program built from bench/b_*.c and every bench/b_*.sh, collects the
JSON lines they print (one per measurement), prints a table and writes bench/results.json.
Exit status 1 when a benchmark failed, printed a bad line, or its output did not verify.
Python 3 standard library only.
"""
import json
import os
import platform
import statistics
import subprocess
import sys
import time

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))

# (bench, metric, threads, op, target, what): the targets of issue 5, checked on the medians.
TARGETS = [
    ("valu_f32", "wave_insts_per_s", 1, ">=", 50e6, "VALU loop >= 50 M wave-instr/s, 1 thread"),
    ("elementwise_vecadd", "emulated_over_native", 1, "<=", 10.0,
     "elementwise <= 10x native"),
    ("first_launch", "total_ms", 1, "<=", 10.0, "first launch <= 10 ms"),
    # issue 4: MFMA-bound GEMM per thread, and the 1024^3 fp8 GEMM on one thread
    ("gemm_fp8_32x32_big", "macs_per_s", 1, ">=", 5e9, "MFMA GEMM (fp8) >= 5 G MAC/s, 1 thread"),
    ("gemm_bf16_16x16_big", "macs_per_s", 1, ">=", 5e9, "MFMA GEMM (bf16) >= 5 G MAC/s, 1 thread"),
    ("gemm_fp8_32x32_big", "seconds", 1, "<=", 0.25, "fp8 1024^3 GEMM < 0.25 s, 1 thread"),
]
SCALING_TARGET = 1.8  # 2 threads / 1 thread on workloads with >= 8 workgroups


def cpu_model():
    try:
        with open("/proc/cpuinfo") as f:
            for line in f:
                if line.startswith("model name"):
                    return line.split(":", 1)[1].strip()
    except OSError:
        pass
    return platform.processor() or "unknown"


def loadavg():
    try:
        return os.getloadavg()[0]
    except OSError:
        return None


def run_one(cmd, env):
    """Run one benchmark; return (records, error or None)."""
    t0 = time.time()
    p = subprocess.run(cmd, cwd=ROOT, env=env, stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                       text=True)
    secs = time.time() - t0
    records, err = [], None
    for line in p.stdout.splitlines():
        if not line.strip():
            continue
        try:
            r = json.loads(line)
            if not isinstance(r, dict) or "bench" not in r or "metric" not in r or \
                    "value" not in r or "verified" not in r:
                raise ValueError("missing bench/metric/value/verified")
        except ValueError as e:
            err = "bad output line %r (%s)" % (line[:120], e)
            break
        r.setdefault("threads", 1)
        r["source"] = os.path.basename(cmd[-1])
        records.append(r)
    if p.returncode != 0:
        err = "exit status %d" % p.returncode
    elif not records and not err:
        err = "printed no measurements"
    if err and p.stderr.strip():
        err += ": " + p.stderr.strip().splitlines()[-1]
    return records, err, secs


def median_of(r):
    runs = r.get("runs")
    if isinstance(runs, list) and runs:
        return statistics.median(runs)
    return r["value"]


def scaling(records):
    """2-thread / 1-thread ratio for every (bench, metric) measured on both: the median of the
    per-run ratios when the runs are paired (same count: the programs interleave them), else the
    ratio of the medians."""
    by = {}
    for r in records:
        by.setdefault((r["bench"], r["metric"]), {})[r["threads"]] = r
    out = []
    for (bench, metric), t in sorted(by.items()):
        if 1 not in t or 2 not in t or not metric.endswith("_per_s"):
            continue
        r1, r2 = t[1], t[2]
        a, b = r1.get("runs") or [], r2.get("runs") or []
        if a and len(a) == len(b) and all(x > 0 for x in a):
            runs = [y / x for x, y in zip(a, b)]
            ratio = statistics.median(runs)
        else:
            runs = []
            ratio = median_of(r2) / median_of(r1) if median_of(r1) else 0.0
        # CPU efficiency: 1-thread CPU time / 2-thread CPU time for the same work (CPU time =
        # cores x wall time).  1.0 means the second thread added no work of its own (no
        # contention, no spinning); a scaling below 2 with efficiency near 1 is the machine not
        # giving the process two cores.
        c1, c2 = r1.get("cores"), r2.get("cores")
        eff = ratio * c1 / c2 if c1 and c2 else None
        out.append({"bench": bench, "metric": metric, "ratio": ratio, "runs": runs,
                    "workgroups": r1.get("workgroups"), "cores": c2, "cores_1t": c1,
                    "cpu_efficiency": eff,
                    "verified": bool(r1["verified"] and r2["verified"])})
    return out


def fmt(v):
    if isinstance(v, bool) or v is None:
        return str(v)
    a = abs(v)
    for div, suf in ((1e9, " G"), (1e6, " M"), (1e3, " k")):
        if a >= div:
            return "%.3g%s" % (v / div, suf)
    return "%.3g" % v


def markdown():
    """Print bench/results.json (from the last run) as a markdown table, for docs/perf.md."""
    with open(os.path.join(ROOT, "bench", "results.json")) as f:
        d = json.load(f)
    m = d["machine"]
    print("%s, %s CPUs, load average %.1f / %.1f, %s, %d runs per figure\n" %
          (m["cpu"], m["cpus"], m["loadavg_before"] or 0, m["loadavg_after"] or 0, d["date"],
           d["runs_per_figure"]))
    print("| benchmark | metric | threads | median | min | max | per CPU-s | cores |")
    print("| --- | --- | --- | --- | --- | --- | --- | --- |")
    for r in d["results"]:
        rr = r.get("runs") or [r["value"]]
        c = r.get("cores")
        print("| %s | %s | %d | %s | %s | %s | %s | %s |" %
              (r["bench"], r["metric"], r["threads"], fmt(r["median"]), fmt(min(rr)),
               fmt(max(rr)), fmt(r["per_cpu_second"]) if "per_cpu_second" in r else "",
               "%.2f" % c if c else ""))
    print("\n| scaling | ratio | cores (2 threads) | CPU efficiency |")
    print("| --- | --- | --- | --- |")
    for s in d["scaling"]:
        e = s.get("cpu_efficiency")
        print("| %s %s | %.2fx | %s | %s |" % (s["bench"], s["metric"], s["ratio"],
                                             "%.2f" % s["cores"] if s.get("cores") else "",
                                             "%.2f" % e if e else ""))
    print("\n| target | value | met |")
    print("| --- | --- | --- |")
    for t in d["targets"]:
        print("| %s | %s | %s |" % (t["target"], fmt(t["value"]),
                                    "yes" if t["met"] else "n/a: " + t.get("note", "")
                                    if t["met"] is None else "no"))
    return 0


def main():
    if sys.argv[1:] == ["--markdown"]:
        return markdown()
    build = os.environ.get("BUILD", "build-bench")
    runs = os.environ.get("BENCH_RUNS", "5")
    env = dict(os.environ, BUILD=build, BENCH_RUNS=runs,
               GFXEMU=os.path.join(build, "gfxemu"))
    progs = sorted(f for f in os.listdir(os.path.join(ROOT, "bench"))
                   if f.startswith("b_") and (f.endswith(".c") or f.endswith(".sh")))
    only = os.environ.get("BENCH_ONLY")  # optional substring filter on program names
    load0, t0 = loadavg(), time.time()
    records, failures, timing = [], [], {}
    for f in progs:
        if only and only not in f:
            continue
        if f.endswith(".c"):
            cmd = [os.path.join(build, "bench", f[:-2])]
        else:
            cmd = ["bash", os.path.join("bench", f)]
        print("bench: running %s" % f, file=sys.stderr, flush=True)
        recs, err, secs = run_one(cmd, env)
        timing[f] = round(secs, 2)
        records += recs
        if err:
            failures.append("%s: %s" % (f, err))
    for r in records:
        r["median"] = median_of(r)
        if not r["verified"]:
            failures.append("%s: %s %s (%d threads): output NOT verified" %
                            (r["source"], r["bench"], r["metric"], r["threads"]))
    scal = scaling(records)

    targets = []
    for bench, metric, threads, op, want, what in TARGETS:
        got = [r["median"] for r in records
               if r["bench"] == bench and r["metric"] == metric and r["threads"] == threads]
        if got:
            ok = got[0] >= want if op == ">=" else got[0] <= want
            targets.append({"target": what, "value": got[0], "met": ok})
    # The scaling targets only mean something when the machine gives the process two cores:
    # bench/b_machine.c measures that with two spinning threads.
    avail = [r["median"] for r in records if r["bench"] == "machine"]
    for s in scal:
        if (s["workgroups"] or 0) >= 8:
            t = {"target": "%s 2 threads >= %.1fx 1 thread" % (s["bench"], SCALING_TARGET),
                 "value": s["ratio"], "met": s["ratio"] >= SCALING_TARGET}
            if avail and avail[0] < SCALING_TARGET and not t["met"]:
                t["met"] = None  # not measurable: the machine gave < 1.8 cores
                t["note"] = "machine gave 2 spinning threads %.2f cores" % avail[0]
            targets.append(t)

    # the table
    # per CPU-s: a rate divided by the cores the launches actually got (CPU time / wall time),
    # i.e. the work per second of CPU time.  On a machine shared with other jobs this is the
    # steadier figure; on an idle one it equals the median (1 thread) or median / 2 (2 threads).
    print("%-22s %-22s %3s %10s %10s %10s %10s %5s  %s" %
          ("benchmark", "metric", "thr", "median", "min", "max", "per CPU-s", "cores",
           "verified"))
    for r in records:
        rr = r.get("runs") or [r["value"]]
        c = r.get("cores")
        per = r["median"] / c if c and r["metric"].endswith("_per_s") else None
        if per is not None:
            r["per_cpu_second"] = per
        print("%-22s %-22s %3d %10s %10s %10s %10s %5s  %s" %
              (r["bench"], r["metric"], r["threads"], fmt(r["median"]), fmt(min(rr)),
               fmt(max(rr)), fmt(per) if per is not None else "", "%.2f" % c if c else "",
               "yes" if r["verified"] else "NO"))
    if scal:
        print("\nscaling (2 threads / 1 thread, median of paired runs; cores = CPU time / wall "
              "time the 2-thread launches got;\n  CPU efficiency = 1-thread CPU time / 2-thread "
              "CPU time for the same work, 1.0 = no parallel overhead):")
        for s in scal:
            c, e = s.get("cores"), s.get("cpu_efficiency")
            print("  %-22s %-22s %6.2fx  cores %s  CPU efficiency %s" %
                  (s["bench"], s["metric"], s["ratio"], "%.2f" % c if c else "?",
                   "%.2f" % e if e else "?"))
    if targets:
        print("\ntargets (issue 5):")
        for t in targets:
            tag = "met" if t["met"] else "n/a" if t["met"] is None else "MISS"
            print("  %-4s %-52s %s%s" % (tag, t["target"], fmt(t["value"]),
                                         "  (%s)" % t["note"] if t.get("note") else ""))
    load1 = loadavg()
    print("\nmachine: %s, %d CPUs, load average %.2f before / %.2f after; %.0f s" %
          (cpu_model(), os.cpu_count() or 0, load0 or 0, load1 or 0, time.time() - t0))

    result = {
        "date": time.strftime("%Y-%m-%dT%H:%M:%SZ", time.gmtime()),
        "machine": {"cpu": cpu_model(), "cpus": os.cpu_count(), "loadavg_before": load0,
                    "loadavg_after": load1, "kernel": platform.release()},
        "runs_per_figure": int(runs),
        "seconds": timing,
        "results": records,
        "scaling": scal,
        "targets": targets,
        "failures": failures,
    }
    with open(os.path.join(ROOT, "bench", "results.json"), "w") as f:
        json.dump(result, f, indent=1)
        f.write("\n")
    if failures:
        print("\nFAILED:", file=sys.stderr)
        for f in failures:
            print("  " + f, file=sys.stderr)
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
