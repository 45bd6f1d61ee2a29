#!/usr/bin/env python3
"""A/B comparison of two builds of one benchmark program, for docs/perf.md.

    python3 bench/ab.py OLD_BINARY NEW_BINARY [ROUNDS]

Runs the two binaries alternately ROUNDS times (default 5) with BENCH_RUNS=1 (plus whatever
BENCH_* is set in the environment), so a change in the machine's load hits both alike, and
prints, per (bench, metric, threads), the median of each and the ratio NEW / OLD.  Outputs that do
not verify are reported and make the exit status 1.  Python 3 standard library only.
"""
import json
import os
import statistics
import subprocess
import sys


def run(binary, env):
    p = subprocess.run([binary], env=env, stdout=subprocess.PIPE, text=True, check=True)
    out = {}
    for line in p.stdout.splitlines():
        r = json.loads(line)
        out[(r["bench"], r["metric"], r.get("threads", 1))] = (r["value"], r["verified"])
        # CPU seconds per unit of work (cores / rate): what the work cost in CPU time, which a
        # busy machine inflates much less than wall time (the process just gets fewer cores).
        if r.get("cores") and r["metric"].endswith("_per_s") and r["value"]:
            out[(r["bench"], "cpu_s/" + r["metric"][:-6], r.get("threads", 1))] = (
                r["cores"] / r["value"], r["verified"])
    return out


def main():
    if len(sys.argv) < 3:
        print(__doc__.strip(), file=sys.stderr)
        return 2
    old, new = sys.argv[1], sys.argv[2]
    rounds = int(sys.argv[3]) if len(sys.argv) > 3 else 5
    env = dict(os.environ, BENCH_RUNS="1")
    env.setdefault("BUILD", "build-bench")
    vals = {}
    bad = 0
    for _ in range(rounds):
        for tag, b in (("old", old), ("new", new)):
            for k, (v, ok) in run(b, env).items():
                vals.setdefault(k, {"old": [], "new": []})[tag].append(v)
                if not ok:
                    bad += 1
                    print("NOT VERIFIED: %s %s %s %s" % ((tag,) + k), file=sys.stderr)
    print("%-22s %-22s %3s %12s %12s %8s" % ("benchmark", "metric", "thr", "old", "new",
                                             "new/old"))
    for k in sorted(vals):
        if not vals[k]["old"] or not vals[k]["new"]:
            continue  # a figure only one of the builds measures
        o, n = statistics.median(vals[k]["old"]), statistics.median(vals[k]["new"])
        print("%-22s %-22s %3d %12.4g %12.4g %8.3f" % (k[0], k[1], k[2], o, n,
                                                     n / o if o else float("nan")))
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main())
