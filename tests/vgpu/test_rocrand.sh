#!/usr/bin/env bash
# test_rocrand.sh - AMD's own library as Debian ships it (librocrand1, gfx90a kernels inside)
# runs on the virtual GPU: 2^16 Philox4x32-10 numbers checked against a host implementation
# (tests/vgpu/rocrand_philox.hip).
. "$(dirname "$0")/lib.sh"
bin="$BUILD/test-data/vgpu/rocrand_philox"
if [ ! -x "$bin" ] || [ tests/vgpu/rocrand_philox.hip -nt "$bin" ]; then
    mkdir -p "$(dirname "$bin")"
    hipcc --offload-arch=gfx90a -O2 tests/vgpu/rocrand_philox.hip -o "$bin" -lrocrand \
        >"$bin.log" 2>&1 || { cat "$bin.log" >&2; fail "hipcc"; finish test_rocrand; }
fi
out=$(timeout 300 "$GFXEMU" exec --arch gfx90a -- "$bin" 2>&1)
rc=$?
[ $rc -eq 0 ] && grep -q "^PASS rocrand$" <<<"$out" || fail "rocrand (exit $rc): $out"
finish test_rocrand
