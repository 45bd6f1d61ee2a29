#!/usr/bin/env bash
# test_hip.sh - HIP programs built by Debian's hipcc (tests/vgpu/hip_programs.hip) run unmodified
# under `gfxemu exec --arch gfx90a`: vector add, copies (host/device/device-to-device/pinned,
# memset), shared memory with barriers, atomics, two streams with events and a 2-D grid, device
# printf (hostcall), two GPUs with hipMemcpyPeer.  Each
# checks its results against a C reference on the host.  A kernel that stores to an unmapped
# address raises the memory-exception event: ROCr prints its usual "Memory access fault by GPU
# node-1 ... on address 0x10000" report and aborts, and gfxemu's own fault record names the
# instruction.
. "$(dirname "$0")/lib.sh"
bin="$BUILD/test-data/vgpu/hip_programs"
hip_build tests/vgpu/hip_programs.hip "$bin" || { fail "hipcc"; finish test_hip; }

for t in vadd memcpy shared atomics streams; do
    out=$(timeout 300 "$GFXEMU" exec --arch gfx90a -- "$bin" "$t" 2>&1)
    rc=$?
    [ $rc -eq 0 ] && grep -q "^PASS $t$" <<<"$out" || fail "$t (exit $rc): $out"
done

# ROCr copies with SDMA queues, as on the card: streams' 8 KiB device-to-host copy is one SDMA
# COPY_LINEAR (its profiled completion, hipEventElapsedTime, needs the interrupt signal's event
# mailbox: the SDMA FENCE + TRAP).  With GFXEMU_VGPU_SDMA=0 it copies with its blit kernels.
out=$(timeout 300 "$GFXEMU" exec --arch gfx90a --stats -- "$bin" streams 2>&1)
rc=$?
[ $rc -eq 0 ] && grep -q "^PASS streams$" <<<"$out" || fail "streams --stats (exit $rc): $out"
grep -Eq "^gfxemu: stats: SDMA COPY_LINEAR: [1-9][0-9]* packets, [0-9]+ bytes" <<<"$out" ||
    fail "streams: ROCr did not copy with SDMA: $out"
b=$(sed -n 's/^gfxemu: stats: SDMA COPY_LINEAR: [0-9]* packets, \([0-9]*\) bytes$/\1/p' <<<"$out")
[ "${b:-0}" -ge 8192 ] || fail "streams: SDMA copied ${b:-0} bytes, fewer than the 8192 of the D2H copy"
out=$(GFXEMU_VGPU_SDMA=0 timeout 300 "$GFXEMU" exec --arch gfx90a --stats -- "$bin" streams memcpy 2>&1)
rc=$?
[ $rc -eq 0 ] && grep -q "^PASS streams$" <<<"$out" && grep -q "^PASS memcpy$" <<<"$out" ||
    fail "streams memcpy with GFXEMU_VGPU_SDMA=0, blit kernels (exit $rc): $out"
grep -q "SDMA COPY_LINEAR" <<<"$out" && fail "GFXEMU_VGPU_SDMA=0 still ran SDMA copies: $out"

out=$(timeout 300 "$GFXEMU" exec --arch gfx90a -- "$bin" printf 2>&1)
rc=$?
[ $rc -eq 0 ] && grep -q "^PASS printf$" <<<"$out" || fail "printf (exit $rc): $out"
for lane in 0 1 2; do
    for blk in 0 1; do
        grep -q "^hello from lane $lane of block $blk, x = 42$" <<<"$out" ||
            fail "printf: no line from lane $lane of block $blk: $out"
    done
done
n=$(grep -c "^hello from" <<<"$out")
[ "$n" = 6 ] || fail "printf: $n lines, expected 6"

out=$(timeout 300 "$GFXEMU" exec --arch gfx90a --devices 2 -- "$bin" peer 2>&1)
rc=$?
[ $rc -eq 0 ] && grep -q "^PASS peer$" <<<"$out" || fail "peer, two devices (exit $rc): $out"

# --stats: per kernel symbol at exit.  vadd is one dispatch of 65536 work-items in workgroups of
# 256: 256 workgroups of 4 waves; block_sum 64 workgroups of 4 waves.
out=$(timeout 300 "$GFXEMU" exec --arch gfx90a --stats -- "$bin" vadd shared 2>&1)
grep -Eq "^gfxemu: stats: _Z4vaddPKfS0_Pfi +1 +[0-9]+ +1024 +256 " <<<"$out" ||
    fail "--stats: no line for vadd with 1 dispatch, 1024 waves, 256 workgroups: $out"
grep -Eq "^gfxemu: stats: _Z9block_sumPKiPi +1 +[0-9]+ +256 +64 " <<<"$out" ||
    fail "--stats: no line for block_sum with 1 dispatch, 256 waves, 64 workgroups: $out"

# The same with two worker threads per GPU, and under memcheck (exact buffers, no reports).
out=$(timeout 300 "$GFXEMU" exec --arch gfx90a --threads 2 --memcheck -- "$bin" vadd shared 2>&1)
rc=$?
[ $rc -eq 0 ] || fail "--threads 2 --memcheck (exit $rc): $out"
grep -q "memcheck:" <<<"$out" && fail "memcheck reported errors in correct kernels: $out"

out=$(timeout 120 "$GFXEMU" exec --arch gfx90a -- "$bin" fault 2>&1)
rc=$?
[ $rc -ne 0 ] || fail "the faulting kernel's program exited 0"
grep -q "FAIL fault" <<<"$out" && fail "the program went on after the fault"
grep -q "Memory access fault by GPU node-1 .* on address 0x10000\." <<<"$out" ||
    fail "no ROCr memory access fault report: $out"
grep -Eq "gfxemu: GPU fault on gfx90a node 1: memory fault: write of 4 bytes at 0x10000 .*global_store_dword.*kernel _Z10wild_storePi," \
    <<<"$out" || fail "no gfxemu fault record naming the kernel: $out"
finish test_hip
