#!/usr/bin/env bash
# test_install.sh - `make install PREFIX=...` into a temporary prefix: the files land where the
# README says, `pkg-config --cflags --libs gfxemu` builds and links a C program that runs a kernel
# (compiled against the installed gfxemu/opencl.h) through the installed library, the installed
# CLI works, the man page renders without warnings and the bash completion completes.
. "$(dirname "$0")/lib.sh"
tmp="$(pwd)/$BUILD/test-data/install"
rm -rf "$tmp" && mkdir -p "$tmp"
prefix="$tmp/prefix"

make --no-print-directory -s BUILD="$BUILD" PREFIX="$prefix" INSTALL_DEPS= install >"$tmp/make.log" 2>&1 ||
    { cat "$tmp/make.log"; fail "make install failed"; finish test_install; }
for f in bin/gfxemu lib/libgfxemu.a lib/libgfxemu.so include/gfxemu.h include/gfxemu/opencl.h \
    lib/pkgconfig/gfxemu.pc share/man/man1/gfxemu.1 share/bash-completion/completions/gfxemu; do
    [ -s "$prefix/$f" ] || fail "not installed: $f"
done
[ -x "$prefix/bin/gfxemu" ] || fail "bin/gfxemu is not executable"
cmp -s include/gfxemu.h "$prefix/include/gfxemu.h" || fail "installed gfxemu.h differs"

# pkg-config: the flags point into the prefix; the version is the header's.
export PKG_CONFIG_PATH="$prefix/lib/pkgconfig"
flags=$(pkg-config --cflags --libs gfxemu | sed "s/ *$//") || fail "pkg-config --cflags --libs gfxemu failed"
[ "$flags" = "-I$prefix/include -L$prefix/lib -lgfxemu" ] || fail "pkg-config flags: '$flags'"
ver=$(awk '/define GFXEMU_VERSION_(MAJOR|MINOR|PATCH)/ { v = v (v ? "." : "") $3 } END { print v }' \
    include/gfxemu.h)
[ "$(pkg-config --modversion gfxemu)" = "$ver" ] || fail "pkg-config version != $ver"

# A kernel written against the installed OpenCL header.
cat >"$tmp/saxpy.cl" <<'CL'
__kernel void saxpy(__global float *y, __global const float *x, float a, int n) {
    size_t i = get_global_id(0);
    if (i < (size_t)n)
        y[i] = a * x[i] + y[i];
}
CL
clang-22 -x cl -cl-std=CL2.0 -target amdgcn-amd-amdhsa -mcpu=gfx950 -nogpulib -O2 \
    -I"$prefix/include" -include gfxemu/opencl.h -c "$tmp/saxpy.cl" -o "$tmp/saxpy.o" &&
    ld.lld-22 -shared "$tmp/saxpy.o" -o "$tmp/saxpy.co" || fail "kernel with installed opencl.h"

# A C program built only with what pkg-config says.
cat >"$tmp/prog.c" <<'C'
#include <gfxemu.h>
#include <stdio.h>
#include <string.h>
int main(int argc, char **argv) {
    enum { N = 1000 };
    static float x[N], y[N], out[N];
    char err[256];
    gfx_module *m;
    const gfx_kernel *k;
    gfx_device *dev;
    uint64_t dx, dy;
    if (argc != 2 || gfx_module_load_file(argv[1], &m, err, sizeof err) != GFX_OK ||
        gfx_module_kernel(m, "saxpy", &k) != GFX_OK ||
        gfx_device_create(GFX_ARCH_GFX950, 1, &dev) != GFX_OK)
        return 2;
    for (int i = 0; i < N; i++) {
        x[i] = (float)i;
        y[i] = 1000.0f - (float)i;
    }
    gfx_buffer_alloc(dev, sizeof x, &dx);
    gfx_buffer_alloc(dev, sizeof y, &dy);
    gfx_memcpy_htod(dev, dx, x, sizeof x);
    gfx_memcpy_htod(dev, dy, y, sizeof y);
    float a = 0.5f;
    int n = N;
    const void *params[] = {&dy, &dx, &a, &n};
    uint32_t grid[3] = {(N + 255) / 256, 1, 1}, block[3] = {256, 1, 1};
    if (gfx_launch_params(dev, k, grid, block, params, 4, NULL, NULL) != GFX_OK) {
        fprintf(stderr, "launch: %s\n", gfx_device_error(dev));
        return 1;
    }
    gfx_memcpy_dtoh(dev, out, dy, sizeof out);
    int bad = 0;
    for (int i = 0; i < N; i++)
        bad += out[i] != 0.5f * (float)i + (1000.0f - (float)i);
    printf("gfxemu %s: saxpy %s\n", gfx_version(), bad ? "WRONG" : "ok");
    gfx_device_free(dev);
    gfx_module_free(m);
    return bad != 0;
}
C
san=()
# An instrumented build's library needs its sanitizer runtime in the program too.
nm -D "$prefix/lib/libgfxemu.so" | grep -q __asan_init && san=(-fsanitize=address,undefined)
# shellcheck disable=SC2046
gcc -std=c11 -Wall -Werror "${san[@]}" "$tmp/prog.c" -o "$tmp/prog" $(pkg-config --cflags --libs gfxemu) ||
    fail "cc prog.c \$(pkg-config --cflags --libs gfxemu) failed"
out=$(LD_LIBRARY_PATH="$prefix/lib" "$tmp/prog" "$tmp/saxpy.co" 2>&1)
[ "$out" = "gfxemu $ver: saxpy ok" ] || fail "program against the installed library: '$out'"
ldd "$tmp/prog" 2>/dev/null | grep -q "$prefix/lib/libgfxemu.so" ||
    LD_LIBRARY_PATH="$prefix/lib" ldd "$tmp/prog" | grep -q "$prefix/lib/libgfxemu.so" ||
    fail "prog is not linked against the installed libgfxemu.so"

[ -x "$prefix/lib/libgfxemu-vgpu.so" ] || fail "libgfxemu-vgpu.so (gfxemu exec) not installed"

# The installed CLI.
[ "$("$prefix/bin/gfxemu" --version)" = "gfxemu $ver" ] || fail "installed gfxemu --version"
"$prefix/bin/gfxemu" info "$tmp/saxpy.co" | grep -q '^kernel saxpy ' || fail "installed gfxemu info"

# The man page renders without warnings and names every command.
if ! man_out=$(groff -man -Tascii -P-c -P-b -P-u -ww "$prefix/share/man/man1/gfxemu.1" \
    2>"$tmp/groff.err"); then
    fail "groff failed on the man page"
fi
[ -s "$tmp/groff.err" ] && fail "groff warnings: $(head -3 "$tmp/groff.err")"
for c in disasm run debug info exec; do
    grep -q "gfxemu $c" <<<"$man_out" || fail "man page does not show 'gfxemu $c'"
done

# Bash completion: commands, options, and the kernel names of a code object.
complete_words() { # complete_words WORD...: prints COMPREPLY for the last word
    (
        # shellcheck source=/dev/null
        . "$prefix/share/bash-completion/completions/gfxemu"
        COMP_WORDS=("$@")
        COMP_CWORD=$((${#COMP_WORDS[@]} - 1))
        _gfxemu
        printf '%s\n' "${COMPREPLY[@]}"
    )
}
[ "$(complete_words "$prefix/bin/gfxemu" i)" = "info" ] || fail "completion of 'i'"
[ "$(complete_words "$prefix/bin/gfxemu" help d | sort | tr '\n' ' ')" = "debug disasm " ] ||
    fail "completion of 'help d'"
complete_words "$prefix/bin/gfxemu" run x.co k --st | grep -qx -- --stats || fail "completion --st"
[ "$(complete_words "$prefix/bin/gfxemu" run "$tmp/saxpy.co" sa)" = "saxpy" ] ||
    fail "completion of the kernel name"
[ "$(complete_words "$prefix/bin/gfxemu" run x.co k --att-s | sort | tr '\n' ' ')" = \
    "--att-shader-engine-mask --att-simd-select " ] || fail "completion of --att-s"
grep -q -- '--att-target-cu' <<<"$man_out" || fail "man page does not show --att-target-cu"
[ "$(complete_words "$prefix/bin/gfxemu" disasm --arch gfx9 | sort | tr '\n' ' ')" = \
    "gfx942 gfx950 " ] || fail "completion of --arch"

# uninstall removes what install put there.
make --no-print-directory -s BUILD="$BUILD" PREFIX="$prefix" uninstall >/dev/null 2>&1
left=$(find "$prefix" -type f | wc -l)
[ "$left" -eq 0 ] || fail "uninstall left $left files"

finish test_install
