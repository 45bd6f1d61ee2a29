# lib.sh - helpers of the tests/vgpu/*.sh scripts (sourced): the tests of `gfxemu exec` and its
# virtual GPU (src/vgpu/, docs/virtual-gpu.md), which run Debian's ROCm 5.2 (rocminfo,
# hipcc-built programs; scripts/deps.sh installs them) unmodified.
. "$(dirname "$0")/../tools/lib.sh"

# hip_build SRC OUT: hipcc for gfx90a (the newest target Debian's ROCm 5.2 knows), rebuilt only
# when SRC is newer (hipcc takes several seconds).  Tests that share OUT run at the same time
# (tests/run_tests.sh runs them in parallel): one builds under OUT.lock while the others wait and
# then find OUT fresh, and OUT appears only complete (built under another name, then renamed);
# before, a cold run could start OUT while hipcc was still writing it ("Permission denied").
hip_build() {
    mkdir -p "$(dirname "$2")"
    (
        flock 9
        if [ ! -x "$2" ] || [ "$1" -nt "$2" ]; then
            hipcc --offload-arch=gfx90a -O2 "$1" -o "$2.tmp$$" >"$2.log" 2>&1 || {
                cat "$2.log" >&2
                rm -f "$2.tmp$$"
                exit 1
            }
            mv -f "$2.tmp$$" "$2"
        fi
    ) 9>"$2.lock"
}

# A sanitizer build (make check-sanitize) instruments libgfxemu-vgpu.so: its runtimes must be
# loaded first in the (uninstrumented) ROCm programs.  ROCm's runtime leaks at exit by design.
if command -v ldd >/dev/null && ldd "$BUILD/libgfxemu-vgpu.so" 2>/dev/null | grep -q libasan; then
    san=$(ldd "$BUILD/libgfxemu-vgpu.so" | awk '/libasan|libubsan/ {print $3}' | paste -sd: -)
    export LD_PRELOAD="$san${LD_PRELOAD:+:$LD_PRELOAD}"
    export ASAN_OPTIONS="${ASAN_OPTIONS:+$ASAN_OPTIONS:}detect_leaks=0"
fi
# A TSan build (make check-tsan, clang-22) leaves libgfxemu-vgpu.so's TSan runtime to the
# program: `gfxemu exec` preloads clang's shared one first (GFXEMU_VGPU_PRELOAD: not into gfxemu,
# which has TSan linked in).  The tests' own driver (kfd_driver.c) and ROCm are not
# instrumented: TSan sees the library's threads (queue threads, launches, events).
if command -v nm >/dev/null && nm -D "$BUILD/libgfxemu-vgpu.so" 2>/dev/null | grep -q " U __tsan_init"; then
    export GFXEMU_VGPU_PRELOAD="$(${CLANG:-clang-22} -print-resource-dir)/lib/linux/libclang_rt.tsan-x86_64.so"
fi

# kfd_driver_build DIR: DIR emptied, then DIR/k.co (tests/vgpu/kfd_kernels.cl, clang-22 -O2 for
# gfx950) and DIR/kfd_driver (tests/vgpu/kfd_driver.c, the framework-style /dev/kfd driver the
# test_kfd*.sh and test_exec_profile.sh scripts run under `gfxemu exec`).  A failed build is a
# failed check.  kfd_driver is compiled once into $BUILD/test-kernels/sh/ and copied from there
# while it is newer than kfd_driver.c, every header cc's -MMD list names and cc (make's rule):
# five scripts build it, ~0.5 s of CPU each; concurrent builds write temporary names and rename.
kfd_driver_build() {
    rm -rf "$1" && mkdir -p "$1"
    compile_kernel tests/vgpu/kfd_kernels.cl gfx950 O2 "$1/k.co" || fail "compiling the kernels"
    local kept="$BUILD/test-kernels/sh/kfd_driver" dep fresh=0 tmp
    if [ -x "$kept" ] && [ -f "$kept.d" ]; then
        fresh=1
        for dep in $(sed -e 's/^[^:]*://' -e 's/\\$//' "$kept.d") "$(command -v cc)"; do
            [ -e "$dep" ] && ! [ "$dep" -nt "$kept" ] || { fresh=0; break; }
        done
    fi
    if [ $fresh = 0 ]; then
        tmp="$kept.tmp$$"
        mkdir -p "${kept%/*}"
        if ! cc -std=c11 -O1 -Wall -Werror -Isrc/vgpu/shim tests/vgpu/kfd_driver.c -MMD -MF "$tmp.d" \
            -o "$tmp" || ! mv -f "$tmp.d" "$kept.d" || ! mv -f "$tmp" "$kept"; then
            rm -f "$tmp" "$tmp.d"
            fail "compiling kfd_driver.c"
            return
        fi
    fi
    cp "$kept" "$1/kfd_driver"
}
