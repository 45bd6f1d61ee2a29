#!/usr/bin/env bash
# test_hip.sh - HIP programs built by Debian's hipcc (tests/vgpu/hip_programs.hip) run unmodified
# under `gfxemu exec --arch gfx90a`: vector add, copies (host/device/device-to-device/pinned,
# memset), shared memory with barriers, atomics, two streams with events and a 2-D grid, two
# streams whose kernels wait for each other, device
# printf (hostcall), two GPUs with hipMemcpyPeer.  Each
# checks its results against a C reference on the host.  A kernel that stores to an unmapped
# address raises the memory-exception event: ROCr prints its usual "Memory access fault by GPU
# node-1 ... on address 0x10000" report and aborts, and gfxemu's own fault record names the
# instruction.
. "$(dirname "$0")/lib.sh"
bin="$BUILD/test-data/vgpu/hip_programs"
hip_build tests/vgpu/hip_programs.hip "$bin" || { fail "hipcc"; finish test_hip; }

# One process runs the programs that need no option of their own (each `gfxemu exec` start of
# the HIP runtime costs more CPU than these programs' kernels); each prints its own PASS line.
# concurrent: a kernel on one stream spins until a kernel on a second stream sets its flag (the
# streams' queues run at the same time; before, it waited for the watchdog).  It runs first:
# HIP gives streams at most GPU_MAX_HW_QUEUES (default 4) hardware queues and shares them out
# beyond that, so after `streams` in the same process the spinning kernel and the one it waits
# for can land on one queue and wait for ever, on the card as here.  With more queues allowed
# both run in one process (checked below).
# printf: device printf (hostcall).  --stats: per kernel symbol at exit.  vadd is one dispatch
# of 65536 work-items in workgroups of 256: 256 workgroups of 4 waves; block_sum (shared) 64
# workgroups of 4 waves.
progs=(concurrent vadd memcpy shared atomics printf)
out=$(timeout 300 "$GFXEMU" exec --arch gfx90a --stats -- "$bin" "${progs[@]}" 2>&1)
rc=$?
[ $rc -eq 0 ] || fail "${progs[*]} in one process: exit $rc: $out"
for t in "${progs[@]}"; do
    grep -q "^PASS $t$" <<<"$out" || fail "$t (exit $rc): $out"
done
for lane in 0 1 2; do
    for blk in 0 1; do
        grep -q "^hello from lane $lane of block $blk, x = 42$" <<<"$out" ||
            fail "printf: no line from lane $lane of block $blk: $out"
    done
done
n=$(grep -c "^hello from" <<<"$out")
[ "$n" = 6 ] || fail "printf: $n lines, expected 6"
grep -Eq "^gfxemu: stats: _Z4vaddPKfS0_Pfi +1 +[0-9]+ +1024 +256 " <<<"$out" ||
    fail "--stats: no line for vadd with 1 dispatch, 1024 waves, 256 workgroups: $out"
grep -Eq "^gfxemu: stats: _Z9block_sumPKiPi +1 +[0-9]+ +256 +64 " <<<"$out" ||
    fail "--stats: no line for block_sum with 1 dispatch, 256 waves, 64 workgroups: $out"

out=$(GPU_MAX_HW_QUEUES=8 timeout 300 "$GFXEMU" exec --arch gfx90a -- "$bin" streams concurrent 2>&1)
rc=$?
[ $rc -eq 0 ] && grep -q "^PASS streams$" <<<"$out" && grep -q "^PASS concurrent$" <<<"$out" ||
    fail "streams then concurrent with GPU_MAX_HW_QUEUES=8 (exit $rc): $out"

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

out=$(timeout 300 "$GFXEMU" exec --arch gfx90a --devices 2 -- "$bin" peer 2>&1)
rc=$?
[ $rc -eq 0 ] && grep -q "^PASS peer$" <<<"$out" || fail "peer, two devices (exit $rc): $out"

# --timeline: one Chrome trace-event file for the whole program, kernels named by symbol.  The
# expected geometry is the programs' own launches (hip_programs.hip): vadd 65536 work-items in
# workgroups of 256, block_sum 64 x 256, streams' scale2d twice on a 4 x 4 grid of 16 x 8 (on
# two streams: two queues) and its 8 KiB device-to-host copy on SDMA.
tl="$BUILD/test-data/vgpu/timeline.json"
rm -f "$tl"
out=$(timeout 300 "$GFXEMU" exec --arch gfx90a --timeline "$tl" -- "$bin" vadd shared streams 2>&1)
rc=$?
[ $rc -eq 0 ] || fail "--timeline (exit $rc): $out"
python3 - "$tl" <<'PY' || fail "--timeline: $(cat "$tl" 2>&1 | head -c 2000)"
import json, sys
ev = json.load(open(sys.argv[1]))
x = [e for e in ev if e["ph"] == "X"]
def kern(name):
    return [e for e in x if e["cat"] == "kernel" and e["name"] == name]
errs = []
v = kern("_Z4vaddPKfS0_Pfi")
if len(v) != 1 or v[0]["args"]["grid"] != [256, 1, 1] or v[0]["args"]["workgroup"] != [256, 1, 1] \
        or v[0]["args"]["waves"] != 1024 or v[0]["args"]["workgroups"] != 256:
    errs.append("vadd: %r" % v)
b = kern("_Z9block_sumPKiPi")
if len(b) != 1 or b[0]["args"]["workgroups"] != 64 or b[0]["args"]["waves"] != 256:
    errs.append("block_sum: %r" % b)
s = kern("_Z7scale2dPfif")
if len(s) != 2 or any(e["args"]["grid"] != [4, 4, 1] or e["args"]["workgroup"] != [16, 8, 1]
                      or e["args"]["waves"] != 32 for e in s) or s[0]["tid"] == s[1]["tid"]:
    errs.append("scale2d, two dispatches on two queues: %r" % s)
if s and s[1]["ts"] < s[0]["ts"] + s[0]["dur"]:
    errs.append("the second scale2d (after hipStreamWaitEvent) began before the first ended")
if not any(e["cat"] == "sdma" and e["name"] == "COPY_LINEAR" and e["args"]["bytes"] == 8192
           for e in x):
    errs.append("no 8192-byte SDMA COPY_LINEAR")
if any(e["dur"] < 0 or e["ts"] < 0 for e in x):
    errs.append("negative times")
names = {(e["pid"], e.get("tid")): e["args"]["name"] for e in ev if e["ph"] == "M"}
if "gfx90a" not in names.get((1, None), "") or not all((e["pid"], e["tid"]) in names for e in x):
    errs.append("process/thread names: %r" % names)
if errs:
    print("\n".join(errs))
    sys.exit(1)
PY

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
