#!/usr/bin/env bash
# test_kfd.sh - a C program that drives /dev/kfd itself, as a framework's driver does
# (tests/vgpu/kfd_driver.c), under `gfxemu exec --arch gfx950`: sysfs topology of an MI355X,
# VRAM/GTT buffer objects mapped for the CPU with raw mmap syscalls at their mmap offsets, an
# AQL queue running a clang-22 gfx950 kernel (256 results checked), a wild store raising the
# memory-exception event with the faulting page, event waits with timeouts and auto-reset, and
# KFD 1.14: event ages, RUNTIME_ENABLE, DBG_TRAP refused with a line naming the op.
. "$(dirname "$0")/lib.sh"
tmp="$BUILD/test-data/vgpu/kfd"
kfd_driver_build "$tmp"
out=$(timeout 120 "$GFXEMU" exec --arch gfx950 -- "$tmp/kfd_driver" "$tmp/k.co" 2>&1)
rc=$?
[ $rc -eq 0 ] || fail "kfd_driver exited $rc: $out"
for p in "PASS dispatch" "PASS fault" "PASS events" "PASS kfd 1.14"; do
    grep -q "^$p" <<<"$out" || fail "no '$p': $out"
done
grep -Eq "gfxemu: GPU fault on gfx950 node 1: memory fault: write of 4 bytes .*global_store_dword.*kernel fill_bad," \
    <<<"$out" || fail "no gfxemu fault record for the wild store: $out"
grep -q "^gfxemu: KFD ioctl DBG_TRAP op GET_QUEUE_SNAPSHOT (13) is not implemented by the virtual GPU" \
    <<<"$out" || fail "no gfxemu line naming the DBG_TRAP op: $out"
finish test_kfd
