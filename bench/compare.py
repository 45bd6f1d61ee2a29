#!/usr/bin/env python3
"""Issue 16's table: gfxemu against the CPU it runs on, every native reference measured in the
same run (`make bench-compare`).

    BUILD=build-bench python3 bench/compare.py [--markdown]

Runs the benchmark programs that measure the table's figures (b_native, b_valu, b_tier2, b_gemm,
b_attention; BENCH_RUNS per figure, default 3, BENCH_SCALE as for make bench), prints one row
per figure with its goal and whether it is met, and exits 1 when an output did not verify.
Ratios (emulated / native, MFMA / native FMA peak) are medians of per-run ratios taken inside
one program; GEMM / MFMA-chain ratios divide medians from the same invocation of this script.
Python 3 standard library only.
"""
import json
import os
import platform
import subprocess
import sys

PROGRAMS = ["b_native", "b_valu", "b_tier2", "b_gemm", "b_attention"]


def run(build, prog, env):
    p = subprocess.run([os.path.join(build, "bench", prog)], env=env, stdout=subprocess.PIPE,
                       text=True)
    if p.returncode != 0:
        print("%s exited with %d" % (prog, p.returncode), file=sys.stderr)
    recs = []
    for line in p.stdout.splitlines():
        line = line.strip()
        if line.startswith("{"):
            recs.append(json.loads(line))
    return recs


def cpu_flags():
    try:
        with open("/proc/cpuinfo") as f:
            model, flags = "unknown", ""
            for line in f:
                if line.startswith("model name") and model == "unknown":
                    model = line.split(":", 1)[1].strip()
                if line.startswith("flags") and not flags:
                    have = set(line.split(":", 1)[1].split())
                    flags = " ".join(x for x in ("avx2", "fma", "avx512f", "avx512bw", "avx512vl",
                                                 "avx512_bf16", "avx512fp16") if x in have)
            return model, flags
    except OSError:
        return platform.processor() or "unknown", ""


def main():
    md = "--markdown" in sys.argv
    build = os.environ.get("BUILD", "build-bench")
    env = dict(os.environ)
    env.setdefault("BENCH_RUNS", "3")
    env["BUILD"] = build
    recs = []
    for prog in PROGRAMS:
        print("running %s ..." % prog, file=sys.stderr)
        recs += run(build, prog, env)
    bad = [r for r in recs if not r.get("verified")]

    def get(bench, metric, threads=1):
        for r in recs:
            if r["bench"] == bench and r["metric"] == metric and r.get("threads", 1) == threads:
                return r
        return None

    rows = []  # (figure, measured text, value, op, goal, goal text)

    def add(figure, value, op, goal, fmt, goal_text, note=""):
        if value is None:
            rows.append((figure, "not measured", None, op, goal, goal_text))
            return
        rows.append((figure, fmt % value + note, value, op, goal, goal_text))

    for name, label in (("elementwise_vecadd_64ki", "64 Ki floats"),
                        ("elementwise_vecadd_4mi", "4 Mi floats")):
        r = get(name, "emulated_over_native")
        add("elementwise c=a+b (clang -O3, 256-item workgroups) / native gcc -O2 loop, " + label,
            r and r["value"], "<=", 4.0, "%.1fx", "<= 4x")
    def given(r, scale, unit):
        # On a shared machine a 1-thread launch may get less than a core: say so, and give the
        # rate per CPU-second (what the launch did with the time it got).
        if not r or not r.get("cores"):
            return ""
        return " (%.2f cores given; %.0f %s per CPU-second)" % (
            r["cores"], r["value"] / r["cores"] / scale, unit)

    for name in ("valu_f32", "valu_i32"):
        r = get(name, "wave_insts_per_s")
        add("VALU-bound loop (%s), wave64 instructions/s, 1 thread" % name,
            r and r["value"] / 1e6, ">=", 300.0, "%.0f M", ">= 300 M", given(r, 1e6, "M"))
        r2 = get(name, "wave_insts_per_s", 2)
        if r and r2:
            add("1 -> 2 threads (%s)" % name, r2["value"] / r["value"], ">=", 1.85, "%.2fx",
                ">= 1.85x", " (2-thread launches got %.2f cores)" % r2["cores"]
                if r2.get("cores") else "")
    r = get("mfma_chain", "over_native_fma_peak")
    chain = get("mfma_chain", "macs_per_s")
    nat = get("native_fma", "macs_per_s")
    add("v_mfma_f32_32x32x8_f16 chain MAC/s, 1 thread / native f32 FMA peak (gcc -O3 "
        "-march=native)", r and r["value"], ">=", 0.7, "%.2f", ">= 0.7",
        " (%.2f G / %.1f G MAC/s)" % (chain["value"] / 1e9, nat["value"] / 1e9)
        if chain and nat else "")
    for r in recs:
        if r["bench"].startswith("gemm_") and r["metric"] == "macs_per_s" and \
                r.get("threads", 1) == 1 and chain:
            add("GEMM %s MAC/s / MFMA chain rate" % r["bench"][5:], r["value"] / chain["value"],
                ">=", 0.6, "%.2f", ">= 0.6", " (%.2f G MAC/s)" % (r["value"] / 1e9))
    r = get("o0_loop", "wave_insts_per_s")
    add("clang -O0 kernel (scratch-heavy), wave-instructions/s, 1 thread",
        r and r["value"] / 1e6, ">=", 100.0, "%.1f M", ">= 100 M", given(r, 1e6, "M"))
    for r in recs:
        if r["bench"].startswith("attention_") and r["bench"].endswith("_fwd") and \
                r["metric"] == "macs_per_s" and r.get("threads", 1) == 1:
            add("%s MAC/s, 1 thread" % r["bench"], r["value"] / 1e9, ">=", 12.0, "%.2f G",
                ">= 12 G")

    for name in ("rdna_valu_f32", "rdna_valu_i32"):  # issue 15's goal, not issue 16's
        r = get(name, "wave32_over_wave64")
        add("issue 15: gfx1100 VALU loop (%s), wave32 lane-ops/s / wave64 lane-ops/s, 1 thread"
            % name[5:], r and r["value"], ">=", 1.0, "%.2fx", ">= 1x")

    model, flags = cpu_flags()
    load = os.getloadavg()[0] if hasattr(os, "getloadavg") else float("nan")
    print("%s, %d CPUs (%s), load average %.2f, BENCH_RUNS=%s" %
          (model, os.cpu_count() or 0, flags, load, env["BENCH_RUNS"]))
    if md:
        print("\n| figure | measured | goal | met |\n|---|---|---|---|")
    for fig, text, v, op, goal, gtext in rows:
        met = "" if v is None else ("yes" if (v >= goal if op == ">=" else v <= goal) else "no")
        if md:
            print("| %s | %s | %s | %s |" % (fig, text, gtext, met))
        else:
            print("%-100s %-40s %-10s %s" % (fig, text, gtext, met))
    for r in bad:
        print("NOT VERIFIED: %s %s" % (r["bench"], r["metric"]), file=sys.stderr)
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main())
