#!/usr/bin/env bash
# test_kfd_queues.sh - PM4 compute and SDMA queues driven through /dev/kfd as a framework's own
# driver does (tests/vgpu/kfd_driver.c pm4|sdma|errors, tinygrad's KFD path is the model) under
# `gfxemu exec --arch gfx950`: SET_SH_REG + DISPATCH_DIRECT of a clang-22 kernel from an
# indirect buffer and from the ring (1280 results checked), RELEASE_MEM data, GPU clock and
# interrupt -> KFD event, PRED_EXEC, WRITE_DATA, WAIT_REG_MEM ordering without burning a core; SDMA
# CONST_FILL, COPY_LINEAR, WRITE, ATOMIC, TIMESTAMP, INDIRECT, FENCE, TRAP -> event and
# POLL_REGMEM; and the error paths: unknown PM4/SDMA opcodes named, a wild SDMA copy a memory
# fault (the memory-exception event names the page); and queues that run at the same time.
. "$(dirname "$0")/lib.sh"
tmp="$BUILD/test-data/vgpu/kfd_queues"
kfd_driver_build "$tmp"
run() { timeout 120 "$GFXEMU" exec --arch gfx950 -- "$tmp/kfd_driver" "$tmp/k.co" "$1" 2>&1; }

out=$(run pm4) || fail "kfd_driver pm4 exited $?: $out"
for p in "PASS pm4:" "PASS pm4 wait:" "PASS pm4 more:"; do
    grep -q "^$p" <<<"$out" || fail "no '$p': $out"
done
! grep -q "gfxemu:" <<<"$out" || fail "gfxemu complained: $out"

out=$(run sdma) || fail "kfd_driver sdma exited $?: $out"
for p in "PASS sdma:" "PASS sdma poll:"; do
    grep -q "^$p" <<<"$out" || fail "no '$p': $out"
done
! grep -q "gfxemu:" <<<"$out" || fail "gfxemu complained: $out"

# Queues run at the same time: a kernel on one AQL queue spins on a flag that an SDMA FENCE, a PM4
# WRITE_DATA and a kernel on a second AQL queue write later (before: it waited for the watchdog).
out=$(run concurrent) || fail "kfd_driver concurrent exited $?: $out"
grep -q "^PASS concurrent:" <<<"$out" || fail "no 'PASS concurrent:': $out"
! grep -q "gfxemu:" <<<"$out" || fail "gfxemu complained: $out"

# Partial workgroups run in the same dispatch as the others: ids of the edge workgroups, and a
# workgroup that waits for the partial corner one (before: separate launches, a watchdog stop).
out=$(run partial) || fail "kfd_driver partial exited $?: $out"
grep -q "^PASS partial:" <<<"$out" || fail "no 'PASS partial:': $out"
! grep -q "gfxemu:" <<<"$out" || fail "gfxemu complained: $out"

out=$(run errors) || fail "kfd_driver errors exited $?: $out"
grep -q "^PASS errors" <<<"$out" || fail "no 'PASS errors': $out"
grep -q "^gfxemu: PM4 opcode 0x1e (ATOMIC_MEM) is not implemented; the queue is stopped" \
    <<<"$out" || fail "no error naming the PM4 opcode: $out"
grep -q "^gfxemu: PM4 WAIT_REG_MEM on register 0xc300 would wait forever: its value 0x1 " \
    <<<"$out" || fail "no error for the register wait that cannot hold: $out"
grep -q "^gfxemu: SDMA opcode 3 (reserved 3) sub-opcode 0 is not implemented" <<<"$out" ||
    fail "no error naming the SDMA opcode: $out"
grep -Eq "^gfxemu: GPU fault on gfx950 node 1: SDMA COPY_LINEAR write of 256 bytes at 0x[0-9a-f]+: .* is not in a buffer object mapped to the GPU" \
    <<<"$out" || fail "no GPU fault record for the wild SDMA copy: $out"
finish test_kfd_queues
