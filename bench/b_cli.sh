#!/bin/bash
# b_cli.sh - first launch through the CLI: `gfxemu run` of a one-wave kernel as a new process
# (process start, code-object load, decode, launch, output file written), BENCH_RUNS times; the
# output file is checked against the values the kernel must write (lane * 3 + 1).
# Prints one JSON line (see bench/README.md).  Needs $GFXEMU and $BUILD (bench/run.py sets them).
set -euo pipefail
BUILD=${BUILD:-build-bench}
GFXEMU=${GFXEMU:-$BUILD/gfxemu}
RUNS=${BENCH_RUNS:-5}
dir=$BUILD/bench/cli
mkdir -p "$dir"
clang-22 -x cl -cl-std=CL2.0 -target amdgcn-amd-amdhsa -mcpu=gfx950 -nogpulib -O2 \
    -Wno-everything -c bench/kernels/bench.cl -o "$dir/bench.o"
ld.lld-22 -shared "$dir/bench.o" -o "$dir/bench.co"
python3 -c 'import struct,sys; sys.stdout.buffer.write(struct.pack("<64I", *[l*3+1 for l in range(64)]))' \
    > "$dir/want.bin"
times=()
verified=true
for ((r = 0; r < RUNS; r++)); do
    rm -f "$dir/out.bin"
    t0=$(date +%s%N)
    "$GFXEMU" run "$dir/bench.co" tiny --grid 1 --block 64 --arg "out:$dir/out.bin:256" --threads 1
    t1=$(date +%s%N)
    times+=("$(( (t1 - t0) / 1000 ))")
    cmp -s "$dir/out.bin" "$dir/want.bin" || { verified=false; echo "b_cli: wrong output" >&2; }
done
python3 - "$verified" "${times[@]}" <<'PY'
import json, statistics, sys
ms = [int(t) / 1000 for t in sys.argv[2:]]
print(json.dumps({"bench": "first_launch_cli", "metric": "process_ms", "value": statistics.median(ms),
                  "threads": 1, "verified": sys.argv[1] == "true", "runs": ms, "unit": "ms"}))
PY
