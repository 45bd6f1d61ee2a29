#!/usr/bin/env bash
# Hardware test: nvtegra-bench on a real Jetson Orin must print valid JSON.  Exits 77 (SKIP in
# tests/run_tests.sh, not counted as passed) where there is no nvgpu device.
set -u
cd "$(dirname "$0")/../.."
out=$("${BUILD:-build}/nvtegra-bench")
rc=$?
[ $rc -eq 0 ] || exit $rc
printf '%s\n' "$out"
printf '%s\n' "$out" | python3 -m json.tool >/dev/null || { echo "nvtegra-bench: invalid JSON"; exit 1; }
