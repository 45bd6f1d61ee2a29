#!/usr/bin/env bash
# test_rocminfo.sh - unmodified Debian rocminfo under `gfxemu exec` lists the virtual GPU with
# the real card's properties (MI210: 104 CUs, 4 SIMDs per CU, 8 shader engines, 64 KiB LDS,
# wave64, device id 0x740f, and the marketing name libdrm's amdgpu.ids gives that id); two
# devices give two GPU agents; a program that never opens the GPU gets the exit warning naming
# the target; a bad option is a usage error.
. "$(dirname "$0")/lib.sh"

out=$(timeout 120 "$GFXEMU" exec --arch gfx90a -- rocminfo 2>&1)
rc=$?
[ $rc -eq 0 ] || fail "rocminfo exited $rc: $out"
want=("Name: *gfx90a" "Marketing Name: *AMD Instinct MI210" "Compute Unit: *104"
    "SIMDs per CU: *4" "Shader Engines: *8" "Chip ID: *29711\(0x740f\)" "Wavefront Size: *64"
    "Device Type: *GPU" "amdgcn-amd-amdhsa--gfx90a" "Max Clock Freq. \(MHz\): *1700")
for w in "${want[@]}"; do
    grep -Eq "$w" <<<"$out" || fail "rocminfo output lacks /$w/"
done
# LDS: the GROUP segment pool is the card's 64 KiB
grep -A1 "Segment: *GROUP" <<<"$out" | grep -Eq "Size: *64\(0x40\) KB" ||
    fail "rocminfo's GROUP pool is not 64 KB"

out=$(timeout 120 "$GFXEMU" exec --arch gfx90a --devices 2 -- rocminfo 2>&1)
n=$(grep -Ec "Device Type: *GPU" <<<"$out")
[ "$n" = 2 ] || fail "--devices 2: rocminfo lists $n GPU agents, expected 2"

# Never opening the GPU: one warning at exit naming the target and the card.
out=$("$GFXEMU" exec --arch gfx942 -- true 2>&1)
rc=$?
[ $rc -eq 0 ] || fail "gfxemu exec true exited $rc"
grep -q "gfxemu: warning: the program never opened the virtual GPU (gfx942, AMD Instinct MI300X)" \
    <<<"$out" || fail "no exit warning naming gfx942: $out"
# ... but not from a program's helpers (bash running true twice; dash leaves with _exit and
# skips exit handlers).
out=$("$GFXEMU" exec --arch gfx942 -- bash -c '/bin/true; /bin/true' 2>&1)
n=$(grep -c "never opened" <<<"$out")
[ "$n" = 1 ] || fail "the exit warning appeared $n times for bash -c, expected once"
# ... nor from children forked without exec (bash's subshells; pyenv's python3 shim is such a
# script), which inherit the library's state but not the process that set it up.
out=$("$GFXEMU" exec --arch gfx942 -- bash -c 'a=$(echo 1); b=$(echo 2); (true); exit 0' 2>&1)
n=$(grep -c "never opened" <<<"$out")
[ "$n" = 1 ] || fail "the exit warning appeared $n times for bash with subshells, expected once: $out"

# The sysfs tree of a process that died without its exit handlers (ROCr aborts on a GPU fault)
# is removed by the next process that starts: a dead pid's directory disappears.
dead=$(sh -c 'echo $$')
stale="${TMPDIR:-/tmp}/gfxemu-vgpu-$dead-test"
mkdir -p "$stale/sys" && "$GFXEMU" exec --arch gfx90a -- true 2>/dev/null
[ -e "$stale" ] && fail "the stale tree $stale of dead process $dead was not removed"
rm -rf "$stale"

"$GFXEMU" exec --arch gfx1234 -- true >/dev/null 2>&1
[ $? -eq 2 ] || fail "--arch gfx1234 is not a usage error"
"$GFXEMU" exec --arch gfx90a >/dev/null 2>&1
[ $? -eq 2 ] || fail "exec without a program is not a usage error"
"$GFXEMU" exec --arch gfx90a -- /nonexistent/program >/dev/null 2>&1
[ $? -eq 127 ] || fail "a missing program does not exit 127"
finish test_rocminfo
