# lib.sh - helpers of the tests/vgpu/*.sh scripts (sourced): the tests of `gfxemu exec` and its
# virtual GPU (src/vgpu/, docs/virtual-gpu.md), which run Debian's ROCm 5.2 (rocminfo,
# hipcc-built programs; scripts/deps.sh installs them) unmodified.
. "$(dirname "$0")/../tools/lib.sh"

# hip_build SRC OUT: hipcc for gfx90a (the newest target Debian's ROCm 5.2 knows), rebuilt only
# when SRC is newer (hipcc takes several seconds).
hip_build() {
    if [ ! -x "$2" ] || [ "$1" -nt "$2" ]; then
        mkdir -p "$(dirname "$2")"
        hipcc --offload-arch=gfx90a -O2 "$1" -o "$2" >"$2.log" 2>&1 || {
            cat "$2.log" >&2
            return 1
        }
    fi
}
