#!/usr/bin/env bash
# Install the Debian packages gfxemu needs, if any is missing.  A quick no-op when all are there.
#   clang-22, lld-22, llvm-22: compile test kernels, and llvm-objdump-22/llvm-mc-22 are the
#                              disassembly oracle; gen_isa.py reads LLVM's tables
#   libclang-rt-22-dev:        libFuzzer and sanitizer runtimes for clang-22 (make fuzz)
#   clang-format-22:           make format / make format-check (run by make check)
#   python3:                   test scripts and tools/gen_isa.py
#   python3-pip:               tests/python/test_pip_install.py runs `python3 -m pip install ./python`
#   python3-numpy:             tests/python/test_numpy.py (numpy is optional for the binding)
#   time:                      /usr/bin/time -v measures peak memory in tests/tools/test_args.sh
#   pkg-config, groff-base:    tests/tools/test_install.sh builds against the installed gfxemu.pc
#                              and renders the installed man page
#   libedit-dev:               line editing and TAB completion in `gfxemu debug` (CLI only)
#   libdrm-dev:                amdgpu_drm.h (and drm.h, which linux/kfd_ioctl.h includes) for the
#                              virtual GPU of `gfxemu exec` (src/vgpu/)
#   rocminfo, hipcc, libamdhip64-dev, rocm-device-libs: Debian's ROCm 5.2 stack, run unmodified
#                              under `gfxemu exec` by tests/vgpu/ (rocminfo, hipcc-built programs)
#   librocrand-dev:            AMD's rocRAND (gfx90a kernels) called by tests/vgpu/test_rocrand.sh
#   chromium:                  tests/tools/test_profile_html.py opens the --profile pages in a
#                              headless browser and fails on console errors (issue 18)
set -euo pipefail

pkgs=(make gcc libc6-dev python3 python3-pip python3-numpy clang-22 lld-22 llvm-22 libclang-rt-22-dev time)
pkgs+=(pkg-config groff-base libedit-dev)
pkgs+=(clang-format-22)
pkgs+=(chromium)
pkgs+=(libdrm-dev rocminfo hipcc libamdhip64-dev rocm-device-libs librocrand-dev)
# One dpkg-query for all of them (make check runs this twice: one query per package cost a
# second of CPU): the installed ones are listed, the rest are missing.
# (dpkg-query exits 1 when it has never heard of a package, as on a fresh machine: not an error)
installed=$({ dpkg-query -W -f='${db:Status-Status} ${Package}\n' "${pkgs[@]}" 2>/dev/null || true; } |
    awk '$1 == "installed" { print $2 }')
missing=()
for p in "${pkgs[@]}"; do
    grep -qxF -- "$p" <<<"$installed" || missing+=("$p")
done
[ ${#missing[@]} -eq 0 ] && exit 0

echo "deps: installing ${missing[*]}"
sudo=()
if [ "$(id -u)" -ne 0 ]; then
    command -v sudo >/dev/null || { echo "deps: need root or sudo to install ${missing[*]}" >&2; exit 1; }
    sudo=(sudo)
fi
export DEBIAN_FRONTEND=noninteractive
"${sudo[@]}" apt-get update -q
"${sudo[@]}" apt-get install -y -q --no-install-recommends "${missing[@]}" </dev/null
