#!/usr/bin/env bash
# run_fuzz.sh BIN... - run each libFuzzer target for FUZZ_SECONDS (default 180: `make fuzz`) seconds, seeded
# with clang-22-built code objects (fuzz_elf) or their .text bytes (everything else).
# Called by `make fuzz`; crashes are saved under $BUILD/fuzz/artifacts/.
set -euo pipefail
BUILD="${BUILD:-build}"
secs="${FUZZ_SECONDS:-180}"
seeds="$BUILD/fuzz/seeds"
mkdir -p "$seeds" "$BUILD/fuzz/artifacts"
for src in examples/vecadd.cl tests/load/kernels.cl tests/tools/args.cl; do
    for cpu in gfx950 gfx942; do
        out="$seeds/$(basename "$src" .cl)_$cpu"
        clang-22 -x cl -cl-std=CL2.0 -target amdgcn-amd-amdhsa -mcpu=$cpu -nogpulib -O2 \
            -c "$src" -o "$out.o" 2>/dev/null
        ld.lld-22 -shared "$out.o" -o "$out.co"
        llvm-objcopy-22 -O binary --only-section=.text "$out.co" "$out.text"
    done
done
status=0
for bin in "$@"; do
    name=$(basename "$bin")
    corpus="$BUILD/fuzz/corpus/$name"
    mkdir -p "$corpus"
    if [ "$name" = fuzz_elf ]; then cp "$seeds"/*.co "$corpus/"; else cp "$seeds"/*.text "$corpus/"; fi
    # Hand-made seeds (and regression inputs) for targets whose input has its own layout.
    # They sit in tests/<dir>/corpus/<target>/ beside the target (tests/fuzz, tests/tegra).
    for dir in tests/*/corpus/"$name"; do
        if [ -d "$dir" ]; then cp "$dir"/* "$corpus/"; fi
    done
    echo "fuzz: $name for ${secs}s"
    if ! "$bin" -max_total_time="$secs" -max_len=65536 -rss_limit_mb=2048 -print_final_stats=1 \
        -artifact_prefix="$BUILD/fuzz/artifacts/$name-" "$corpus" 2>"$BUILD/fuzz/$name.log"; then
        echo "fuzz: $name FAILED (see $BUILD/fuzz/$name.log)"
        tail -n 40 "$BUILD/fuzz/$name.log"
        status=1
    else
        grep -E '^stat::number_of_executed_units' "$BUILD/fuzz/$name.log" || true
    fi
done
exit $status
