#!/bin/bash
# b_exec.sh - the launch round trip of an unmodified HIP program under `gfxemu exec --arch gfx90a`
# (issue #23): bench/kernels/exec_launch.hip, built by Debian's hipcc, times kernel launch +
# hipDeviceSynchronize() and a 4-byte hipMemcpy device-to-host, each BENCH_EXEC_N times (default
# 200) per run, BENCH_RUNS runs: back to back ("launch_us", "memcpy_us") and after 2 ms of host
# idleness each ("idle_launch_us", "idle_memcpy_us": the queue thread has gone to sleep).  Prints two JSON lines (see bench/README.md); without hipcc
# (scripts/deps.sh installs it) it prints nothing and says why on stderr.
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
for gap in 0 2000; do
    outs=()
    for ((r = 0; r < RUNS; r++)); do
        outs+=("$("$GFXEMU" exec --arch gfx90a -- "$dir/exec_launch" "$N" "$gap")")
    done
    python3 - "$gap" "${outs[@]}" <<'PY'
import json, statistics, sys
prefix = "idle_" if sys.argv[1] != "0" else ""
runs = [l.split() for l in sys.argv[2:]]
ok = all(len(r) == 6 and r[5] == "1" for r in runs)
for key, i in (("launch_us", 1), ("memcpy_us", 3)):
    v = [float(r[i]) for r in runs if len(r) == 6]
    print(json.dumps({"bench": "exec_round_trip", "metric": prefix + key,
                      "value": statistics.median(v) if v else 0, "threads": 1, "verified": ok,
                      "runs": v, "unit": "us"}))
PY
done
