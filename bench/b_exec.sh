#!/bin/bash
# b_exec.sh - the launch round trip of an unmodified HIP program under `gfxemu exec --arch gfx90a`
# (issue #23): bench/kernels/exec_launch.hip, built by Debian's hipcc, times kernel launch +
# hipDeviceSynchronize() and a 4-byte hipMemcpy device-to-host, each BENCH_EXEC_N times (default
# 200) per run, BENCH_RUNS runs: back to back ("launch_us", "memcpy_us") and after 2 ms of host
# idleness each ("idle_launch_us", "idle_memcpy_us": the queue thread has gone to sleep).  In the
# same run, the Python binding's own launch of the same kernel (a clang-22 OpenCL copy of `bump`
# for gfx90a, python/gfxemu, one launch = launch + wait: "python_launch_us", median of N after a
# warm-up) and the ratio exec launch / Python launch ("exec_vs_python", issue #23 asks <= 4).
# Prints JSON lines (see bench/README.md); without hipcc (scripts/deps.sh installs it) it prints
# nothing and says why on stderr.
set -euo pipefail
BUILD=${BUILD:-build-bench}
GFXEMU=${GFXEMU:-$BUILD/gfxemu}
RUNS=${BENCH_RUNS:-5}
N=${BENCH_EXEC_N:-200}
command -v hipcc >/dev/null || { echo "b_exec: no hipcc: skipped" >&2; exit 0; }
dir=$BUILD/bench/exec
mkdir -p "$dir"
if [ ! -x "$dir/exec_launch" ] || [ bench/kernels/exec_launch.hip -nt "$dir/exec_launch" ]; then
    hipcc --offload-arch=gfx90a -O2 bench/kernels/exec_launch.hip -o "$dir/exec_launch" \
        >"$dir/build.log" 2>&1 || { cat "$dir/build.log" >&2; exit 1; }
fi
# The Python binding's launch of the same one-wave kernel, same N and runs.
cat >"$dir/bump.cl" <<'CL'
__kernel void bump(__global unsigned *counter) {
    if (__builtin_amdgcn_workitem_id_x() == 0)
        __atomic_fetch_add(counter, 1u, __ATOMIC_RELAXED);
}
CL
clang-22 -x cl -cl-std=CL2.0 -target amdgcn-amd-amdhsa -mcpu=gfx90a -nogpulib -O2 -c \
    "$dir/bump.cl" -o "$dir/bump.o" && ld.lld-22 -shared "$dir/bump.o" -o "$dir/bump.co"
py=()
for ((r = 0; r < RUNS; r++)); do
    py+=("$(GFXEMU_LIB="$BUILD/libgfxemu.so" PYTHONPATH=python python3 - "$dir/bump.co" "$N" <<'PY'
import statistics, sys, time
import gfxemu
dev = gfxemu.Device("gfx90a")
k = dev.load(sys.argv[1]).kernel("bump")
n = int(sys.argv[2])
c = bytearray(4)
k.launch(1, 64, gfxemu.InOut(c))  # the first launch decodes the kernel: not timed
t = []
for _ in range(n):
    t0 = time.perf_counter()
    k.launch(1, 64, gfxemu.InOut(c))
    t.append((time.perf_counter() - t0) * 1e6)
print(statistics.median(t), int.from_bytes(c, "little") == n + 1)
PY
)")
done
python3 - "${py[@]}" <<'PY'
import json, statistics, sys
runs = [l.split() for l in sys.argv[1:]]
v = [float(r[0]) for r in runs if len(r) == 2]
print(json.dumps({"bench": "exec_round_trip", "metric": "python_launch_us",
                  "value": statistics.median(v) if v else 0, "threads": 1,
                  "verified": all(len(r) == 2 and r[1] == "True" for r in runs), "runs": v,
                  "unit": "us"}))
PY
py_us=$(python3 -c 'import statistics,sys; print(statistics.median(float(l.split()[0]) for l in sys.argv[1:]))' "${py[@]}")

for gap in 0 2000; do
    outs=()
    for ((r = 0; r < RUNS; r++)); do
        outs+=("$("$GFXEMU" exec --arch gfx90a -- "$dir/exec_launch" "$N" "$gap")")
    done
    python3 - "$gap" "$py_us" "${outs[@]}" <<'PY'
import json, statistics, sys
prefix = "idle_" if sys.argv[1] != "0" else ""
py_us = float(sys.argv[2])
runs = [l.split() for l in sys.argv[3:]]
ok = all(len(r) == 6 and r[5] == "1" for r in runs)
for key, i in (("launch_us", 1), ("memcpy_us", 3)):
    v = [float(r[i]) for r in runs if len(r) == 6]
    print(json.dumps({"bench": "exec_round_trip", "metric": prefix + key,
                      "value": statistics.median(v) if v else 0, "threads": 1, "verified": ok,
                      "runs": v, "unit": "us"}))
    if key == "launch_us" and v and py_us > 0:
        print(json.dumps({"bench": "exec_round_trip", "metric": prefix + "exec_vs_python",
                          "value": round(statistics.median(v) / py_us, 2), "threads": 1,
                          "verified": ok, "unit": "x"}))
PY
done
