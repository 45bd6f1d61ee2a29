#!/usr/bin/env bash
# test_run_vecadd.sh - a clang-22 kernel end to end through `gfxemu run`: hidden arguments
# (workgroup size), a partial last workgroup, 1 and 2 threads, gfx950 and gfx942, and kernarg
# preloading (-amdgpu-kernarg-preload-count): the launcher must start 256 bytes past the entry
# (skipping the compatibility prologue that would load the arguments itself) with the arguments
# already in s[2:...] ("AMDGPU Usage", "Preloaded Kernel Arguments").
. "$(dirname "$0")/lib.sh"
tmp="$BUILD/test-data/run_vecadd"
rm -rf "$tmp" && mkdir -p "$tmp"
cat >"$tmp/va.cl" <<'CL'
__kernel void vecadd(__global const float *a, __global const float *b, __global float *c, int n) {
    int i = __builtin_amdgcn_workgroup_id_x() * __builtin_amdgcn_workgroup_size_x() +
            __builtin_amdgcn_workitem_id_x();
    if (i < n)
        c[i] = a[i] + b[i];
}
CL
python3 - "$tmp" <<'PY'
import struct, sys
d = sys.argv[1]
open(d + "/a.bin", "wb").write(struct.pack("1000f", *[i * 1.0 for i in range(1000)]))
open(d + "/b.bin", "wb").write(struct.pack("1000f", *[i * 0.25 for i in range(1000)]))
open(d + "/want.bin", "wb").write(struct.pack("1000f", *[i * 1.25 for i in range(1000)]) + bytes(96))
PY
for cpu in gfx950 gfx942 gfx90a; do
    preloads="0 8"
    [ $cpu = gfx90a ] && preloads=0 # kernarg preloading is a gfx940+ feature
    for preload in $preloads; do
        co="$tmp/va_${cpu}_$preload.co"
        compile_kernel "$tmp/va.cl" $cpu O2 "$co" -mllvm -amdgpu-kernarg-preload-count=$preload ||
            { fail "compiling for $cpu"; continue; }
        for threads in 1 2; do
            out="$tmp/c_${cpu}_${preload}_$threads.bin"
            if ! "$GFXEMU" run "$co" vecadd --grid 4 --block 256 --arg "in:$tmp/a.bin" \
                --arg "in:$tmp/b.bin" --arg "out:$out:4096" --arg i32:1000 --threads $threads \
                --stats 2>"$tmp/err"; then
                fail "$cpu preload=$preload threads=$threads: $(cat "$tmp/err")"
                continue
            fi
            cmp -s "$out" "$tmp/want.bin" || fail "$cpu preload=$preload threads=$threads: wrong result"
            smem=$(python3 -c 'import json,sys; print(json.load(open(sys.argv[1]))["smem"])' "$tmp/err")
            if [ $preload -ne 0 ] && [ "$smem" != 0 ]; then
                fail "$cpu preload: $smem scalar loads (the prologue ran or arguments were not preloaded)"
            fi
        done
    done
done
# n larger than the buffers: the lanes past the end read the buffers' zeroed padding (pages are
# the unit, as on hardware); the first lane past the page faults, named with its buffer.
if ! "$GFXEMU" run "$tmp/va_gfx950_0.co" vecadd --grid 5 --block 256 --arg "in:$tmp/a.bin" \
    --arg "in:$tmp/b.bin" --arg "out:$tmp/c.bin:4000" --arg i32:1200 --threads 1 2>"$tmp/err"; then
    grep -Eq "^gfxemu: error: memory fault: read of 4 bytes at 0x[0-9a-f]+ \(96 bytes past the end of the 4000-byte buffer at 0x[0-9a-f]+\) by 'global_load_dword v[0-9]+, v\[[0-9]+:[0-9]+\], off' at pc 0x[0-9a-f]+ \(kernel vecadd, workgroup \(4,0,0\), wave 0, lanes 0x[0-9a-f]{16}\)$" "$tmp/err" ||
        fail "out-of-bounds vecadd: $(cat "$tmp/err")"
else
    fail "out-of-bounds vecadd did not fault"
fi
# GFXEMU_PERF_MAP=1: each native block's code named in /tmp/perf-PID.map (perf's file for code
# without symbols) by the address of its first instruction, an instruction `gfxemu disasm` lists;
# nothing written without it.  Only where blocks are built (AVX2 or AVX-512, not turned off).
if grep -qw avx2 /proc/cpuinfo && [ "${GFXEMU_JIT:-1}" != 0 ]; then
    for map in 0 1; do
        GFXEMU_PERF_MAP=$map "$GFXEMU" run "$tmp/va_gfx950_0.co" vecadd --grid 4 --block 256 \
            --arg "in:$tmp/a.bin" --arg "in:$tmp/b.bin" --arg "out:$tmp/c.bin:4096" \
            --arg i32:1000 --threads 1 2>"$tmp/err" &
        pid=$!
        wait $pid || fail "perf map $map: $(cat "$tmp/err")"
        f=/tmp/perf-$pid.map
        if [ $map = 0 ]; then
            [ -e "$f" ] && fail "GFXEMU_PERF_MAP=0 wrote $f"
            rm -f "$f"
            continue
        fi
        [ -s "$f" ] || { fail "GFXEMU_PERF_MAP=1 wrote no $f"; continue; }
        grep -Evq '^[0-9a-f]+ [0-9a-f]+ gfxemu block 0x[0-9a-f]+, [0-9]+ instructions$' "$f" &&
            fail "perf map lines not 'START SIZE gfxemu block ADDR, N instructions': $(head -3 "$f")"
        "$GFXEMU" disasm "$tmp/va_gfx950_0.co" >"$tmp/dis" || fail "disasm for the perf map"
        for a in $(sed -n 's/.* gfxemu block 0x\([0-9a-f]*\),.*/\1/p' "$f"); do
            grep -iq "// 0*$a:" "$tmp/dis" || fail "perf map names 0x$a, not an instruction of the listing"
        done
        rm -f "$f"
    done
fi
finish test_run_vecadd
