#!/usr/bin/env bash
# Hardware test: nvtegra-check on a real Jetson Orin.  On a machine without the nvgpu device it
# exits 77, which tests/run_tests.sh reports as SKIP (not counted as passed).
set -u
cd "$(dirname "$0")/../.."
exec "${BUILD:-build}/nvtegra-check"
