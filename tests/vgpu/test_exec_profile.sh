#!/usr/bin/env bash
# test_exec_profile.sh - `gfxemu exec --counters` and `--att DIR`: the per-launch profilers of
# `gfxemu run` on every kernel dispatch of a whole program, named by kernel symbol and dispatch
# number.  Expected values are worked out from the launches: kfd_driver.c partial dispatches
# edge_ids once on gfx950, a 100 x 3 grid in 64 x 2 workgroups: 2 x 2 workgroups of 128, 72
# (36 x 2), 64 (64 x 1) and 36 work-items, so 2 + 2 + 1 + 1 = 6 waves; the HIP program's
# block_sum is 64 workgroups of 256 work-items, 256 waves.
. "$(dirname "$0")/lib.sh"
tmp="$BUILD/test-data/vgpu/exec_profile"
kfd_driver_build "$tmp"

out=$(timeout 120 "$GFXEMU" exec --arch gfx950 --counters=SQ_WAVES,SQ_INSTS --att "$tmp/att" \
    -- "$tmp/kfd_driver" "$tmp/k.co" partial 2>&1)
rc=$?
[ $rc -eq 0 ] && grep -q "^PASS partial:" <<<"$out" || fail "kfd_driver partial (exit $rc): $out"
grep -q "^gfxemu: counters of 1 kernel dispatch (gfx950, AMD Instinct MI355X):" <<<"$out" ||
    fail "--counters: no report header for one dispatch: $out"
grep -Eq "^counters of kernel edge_ids, dispatch 1 \(GPU node 1, queue 0\) \(4 workgroups, 6 waves\):" \
    <<<"$out" || fail "--counters: no block for edge_ids with 4 workgroups and 6 waves: $out"
grep -Eq "^  SQ_WAVES +6 " <<<"$out" || fail "--counters: SQ_WAVES is not 6: $out"
grep -Eq "^  SQ_INSTS +[1-9]" <<<"$out" || fail "--counters: no SQ_INSTS: $out"
! grep -q "SQ_INSTS_VALU" <<<"$out" || fail "--counters=LIST printed counters not in LIST: $out"
d="$tmp/att/dispatch_1_edge_ids"
[ -s "$d/att_index.json" ] && [ -s "$d/gfxemu_shader_engine_0_0.att" ] ||
    fail "--att: no trace in $d: $(ls -R "$tmp/att" 2>&1)"
[ -s "$d/gfxemu_code_object_id_1.out" ] && cmp -s <(head -c 4 "$d/gfxemu_code_object_id_1.out") \
    <(printf '\177ELF') || fail "--att: no code object (ELF image) beside the trace in $d"
python3 - "$d/att_index.json" <<'PY' || fail "--att: att_index.json: $(cat "$d/att_index.json")"
import json, sys
d = json.load(open(sys.argv[1]))["dispatch"]
assert d["kernel"] == "edge_ids", d
assert d["grid"] == [2, 2, 1] and d["block"] == [64, 2, 1], d
assert d["workgroups"] == 4 and d["waves"] == 6, d
PY

bin="$BUILD/test-data/vgpu/hip_programs"
hip_build tests/vgpu/hip_programs.hip "$bin" || { fail "hipcc"; finish test_exec_profile; }
out=$(timeout 300 "$GFXEMU" exec --arch gfx90a --counters --att "$tmp/hip_att" -- "$bin" shared 2>&1)
rc=$?
[ $rc -eq 0 ] && grep -q "^PASS shared$" <<<"$out" || fail "shared --counters (exit $rc): $out"
grep -Eq "^counters of kernel _Z9block_sumPKiPi, dispatch [0-9]+ \(GPU node 1, queue [0-9]+\) \(64 workgroups, 256 waves\):" \
    <<<"$out" || fail "--counters: no block for block_sum with 64 workgroups, 256 waves: $out"
grep -Eq "^  SQ_INSTS_LDS +[1-9]" <<<"$out" || fail "--counters: block_sum has no LDS instructions: $out"
ls -d "$tmp"/hip_att/dispatch_*__Z9block_sumPKiPi >/dev/null 2>&1 ||
    fail "--att: no directory for block_sum: $(ls "$tmp/hip_att" 2>&1)"
finish test_exec_profile
