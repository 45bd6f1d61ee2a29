#!/usr/bin/env bash
# test_run_scalar.sh - `gfxemu run` end to end with kernels that need only SALU, SMEM, s_barrier
# and s_endpgm (tests/dispatch/scalar.s, assembled with `gfxemu as`), plus the command line's
# argument parsing and error messages (against tests/dispatch/kernels.cl's metadata).
. "$(dirname "$0")/lib.sh"
tmp="$BUILD/test-data/run_scalar"
rm -rf "$tmp" && mkdir -p "$tmp"


# u32 at byte offset N of a file
u32() { od -A n -t u4 -j "$2" -N 4 "$1" | tr -d ' '; }

for cpu in gfx950 gfx942 gfx90a; do
    co="$tmp/scalar_$cpu.co"
    # gfx90a has no architected flat scratch: its private segment is the wave offset SGPR
    sed "$([ $cpu = gfx90a ] && echo 's/amdhsa_enable_private_segment 1/amdhsa_system_sgpr_private_segment_wavefront_offset 1/')" \
        tests/dispatch/scalar.s >"$co.s"
    "$GFXEMU" as --arch $cpu "$co.s" -o "$co" || { fail "assembling scalar.s for $cpu"; continue; }

    # Initial SGPRs: workgroup ids and info for every workgroup of a 2x3x2 grid.
    expect 0 "" "$GFXEMU" run "$co" dump --grid 2,3,2 --block 64 --arg "out:$tmp/dump.bin:1536" --threads 2
    [ "$(stat -c %s "$tmp/dump.bin")" = 1536 ] || fail "$cpu dump: output size"
    # every u32 of the dump, read once (one od for the 60 values, not one each)
    mapfile -t d < <(od -A n -v -t u4 -w4 "$tmp/dump.bin" | tr -d ' ')
    for z in 0 1; do for y in 0 1 2; do for x in 0 1; do
        base=$(( ((z * 3 + y) * 2 + x) * 32 ))
        got="${d[base + 8]},${d[base + 9]},${d[base + 10]}"
        [ "$got" = "$x,$y,$z" ] || fail "$cpu dump: workgroup ($x,$y,$z) saw ($got)"
        [ "${d[base + 11]}" = $((0x80000001)) ] || fail "$cpu dump: workgroup info"
        # the dispatch packet's grid size in work-items
        [ "${d[base + 19]}" = 128 ] || fail "$cpu dump: packet grid_size_x"
    done; done; done

    # --stats: one JSON object on stderr with the counts.
    expect 0 "" "$GFXEMU" run "$co" dump --grid 2,3,2 --block 64 --arg "zero:1536" --stats --threads 1
    python3 - "$tmp/err" <<'PY' || fail "$cpu: --stats JSON"
import json, sys
s = json.loads(open(sys.argv[1]).read())
want = {"wave_insts": 240, "waves": 12, "workgroups": 12, "threads": 1, "salu": 96, "smem": 120,
        "branch": 12, "valu": 0, "vmem": 0, "lds": 0, "mfma": 0}
bad = {k: (s.get(k), v) for k, v in want.items() if s.get(k) != v}
assert not bad and isinstance(s["seconds"], float), bad
PY

    # Barrier: wave 0 sees what wave 1 stored before s_barrier.
    expect 0 "" "$GFXEMU" run "$co" barrier --grid 4 --block 128 --arg "out:$tmp/bar.bin:8"
    [ "$(u32 "$tmp/bar.bin" 4)" = $((0x1234)) ] || fail "$cpu barrier: $(u32 "$tmp/bar.bin" 4)"

    # Scalar arguments reach the kernarg segment at their offsets.
    expect 0 "" "$GFXEMU" run "$co" echo --grid 1 --block 1 --arg "out:$tmp/echo.bin:32" \
        --arg i32:-2 --arg f32:1.5 --arg f64:-0.25 --arg i64:0x123456789 --arg u32:4000000000 --arg i32:-7
    [ "$(od -A n -t x4 "$tmp/echo.bin" | tr -s ' \n' ' ')" = \
      " fffffffe 3fc00000 00000000 bfd00000 23456789 00000001 ee6b2800 000000f9 " ] ||
        fail "$cpu echo: $(od -A n -t x4 "$tmp/echo.bin")"
    # inout: the file is the buffer's initial contents and is written back.
    printf 'ABCDEFGHIJKLMNOPQRSTUVWXYZ012345' >"$tmp/io.bin"
    expect 0 "" "$GFXEMU" run "$co" echo --grid 1 --block 1 --arg "inout:$tmp/io.bin" \
        --arg i32:1 --arg f32:0 --arg f64:0 --arg i64:0 --arg u32:0 --arg u32:255
    [ "$(u32 "$tmp/io.bin" 0)" = 1 ] && [ "$(stat -c %s "$tmp/io.bin")" = 32 ] || fail "$cpu inout"

    # Faults: exit 1, one line with the kind, pc and instruction.
    expect 1 "~^gfxemu: error: watchdog: instruction budget of 100000 wave-instructions exhausted at pc 0x[0-9a-f]+ \('s_(add_u32 s4, s4, 1|branch .*)'\) \(kernel spin, workgroup \(0,0,0\), wave 0\); raise it with --max-insts$" \
        "$GFXEMU" run "$co" spin --grid 1 --block 64 --max-insts 100000
    expect 1 "~^gfxemu: error: trap: 's_trap 2' at pc 0x[0-9a-f]+ \(kernel trap, workgroup \([0-9],0,0\), wave [0-3]\)$" \
        "$GFXEMU" run "$co" trap --grid 4 --block 256 --threads 2
    expect 1 "~^gfxemu: error: illegal instruction: '<illegal 0xf4080500>' at pc 0x[0-9a-f]+ \(kernel illegal" \
        "$GFXEMU" run "$co" illegal --grid 1 --block 64
    # A VOP3 with a source of 255: gfx950's listing shows the literal LLVM reads there, gfx942 and
    # gfx90a have no such instruction; no GFX9 target runs it.
    vtext=$([ $cpu = gfx950 ] && echo "v_add_f32_e64 v17, v0, 0x80000000 clamp div:2" || echo "<illegal 0xd1018011>")
    expect 1 "~^gfxemu: error: illegal instruction: '$vtext' at pc 0x[0-9a-f]+ \\(kernel vop3lit" \
        "$GFXEMU" run "$co" vop3lit --grid 1 --block 64
    # A store past the end of a buffer's page (each workgroup writes 128 bytes at 128 * its id;
    # workgroups 1-31 land in the page's padding, as on hardware): the fault names the access
    # and where it landed.
    expect 1 "~^gfxemu: error: memory fault: write of 16 bytes at 0x[0-9a-f]+ \(3968 bytes past the end of the 128-byte buffer at 0x[0-9a-f]+\) by 's_store_dwordx4 s\[0:3\], s\[20:21\], 0x0' at pc 0x[0-9a-f]+ \(kernel dump, workgroup \(32,0,0\), wave 0\)$" \
        "$GFXEMU" run "$co" dump --grid 33 --block 64 --arg zero:128 --threads 1
    # LDS beyond the architecture's limit.
    lim=$([ $cpu = gfx950 ] && echo 163840 || echo 65536)
    expect 1 "gfxemu: error: workgroup needs $((lim + 1)) bytes of LDS (0 static + $((lim + 1)) dynamic); $cpu has $lim" \
        "$GFXEMU" run "$co" spin --grid 1 --block 64 --dynamic-lds $((lim + 1))
    expect 1 "gfxemu: error: block of 257 work-items exceeds the kernel's maximum of 256 (max_flat_workgroup_size)" \
        "$GFXEMU" run "$co" echo --grid 1 --block 257 --arg zero:32 --arg i32:1 --arg f32:0 --arg f64:0 \
        --arg i64:0 --arg u32:0 --arg i32:0
done

# The default watchdog stops an infinite loop in well under 30 s (in the optimized build: the
# sanitizer builds of `make check-sanitize` / `make check-tsan` run every instruction several
# times slower, so there the bound only catches a hang).  The bound is on the run's CPU seconds
# (user + system, /usr/bin/time), not the wall clock: on a machine loaded by other work the same
# run takes several times as long in wall time (40 s for 4.5 s of CPU was seen).
limit=30
case "$BUILD" in build-san | build-tsan) limit=600 ;; esac
expect 1 "~watchdog: instruction budget of 1073741824 wave-instructions" \
    /usr/bin/time -o "$tmp/cpu" -f "%U %S" "$GFXEMU" run "$tmp/scalar_gfx950.co" spin --grid 1 --block 64
cpu_s=$(awk '/^[0-9.]+ [0-9.]+$/ { printf "%d", $1 + $2 }' "$tmp/cpu") # after time's "Command exited" line
[ -n "$cpu_s" ] && [ "$cpu_s" -lt $limit ] || fail "default watchdog took ${cpu_s:-?} s of CPU"

# ---- argument parsing (metadata from clang-22 output; nothing runs) ----
k="$tmp/kernels.co"
compile_kernel tests/dispatch/kernels.cl gfx950 O2 "$k" || fail "compiling kernels.cl"
mixed=(--arg zero:64 --arg i32:1 --arg f32:2 --arg f64:3 --arg in:tests/dispatch/kernels.cl --arg i64:5)
expect 2 "gfxemu: error: run: missing --grid (see gfxemu run --help)" "$GFXEMU" run "$k" mixed --block 64
expect 2 "gfxemu: error: run: missing --block (see gfxemu run --help)" "$GFXEMU" run "$k" mixed --grid 1
expect 2 "gfxemu: error: run: missing kernel name (see gfxemu run --help)" "$GFXEMU" run "$k" --grid 1 --block 1
expect 2 "gfxemu: error: run: --grid '0': expected X[,Y[,Z]] with positive integers" "$GFXEMU" run "$k" mixed --grid 0 --block 1
expect 2 "gfxemu: error: run: --grid '1,2,3,4': expected X[,Y[,Z]] with positive integers" "$GFXEMU" run "$k" mixed --grid 1,2,3,4 --block 1
expect 2 "gfxemu: error: run: --block 'x': expected X[,Y[,Z]] with positive integers" "$GFXEMU" run "$k" mixed --grid 1 --block x
expect 2 "gfxemu: error: run: --block '4,': expected X[,Y[,Z]] with positive integers" "$GFXEMU" run "$k" mixed --grid 1 --block 4,
expect 2 "gfxemu: error: run: --threads '0': expected a positive integer" "$GFXEMU" run "$k" mixed --grid 1 --block 1 --threads 0
expect 2 "gfxemu: error: run: --max-insts needs a value (see gfxemu run --help)" "$GFXEMU" run "$k" mixed --grid 1 --block 1 --max-insts
expect 2 "gfxemu: error: run: unknown option '--frob' (see gfxemu run --help)" "$GFXEMU" run "$k" mixed --frob
expect 2 "~^gfxemu: error: run: bad --arg 'foo:1' \(expected i32:V" "$GFXEMU" run "$k" mixed --grid 1 --block 1 --arg foo:1
expect 2 "~^gfxemu: error: run: bad --arg 'i32:3000000000'" "$GFXEMU" run "$k" mixed --grid 1 --block 1 --arg i32:3000000000
expect 2 "~^gfxemu: error: run: bad --arg 'u32:-1'" "$GFXEMU" run "$k" mixed --grid 1 --block 1 --arg u32:-1
expect 2 "~^gfxemu: error: run: bad --arg 'f32:1.5x'" "$GFXEMU" run "$k" mixed --grid 1 --block 1 --arg f32:1.5x
expect 2 "~^gfxemu: error: run: bad --arg 'out:x.bin'" "$GFXEMU" run "$k" mixed --grid 1 --block 1 --arg out:x.bin
expect 2 "gfxemu: error: run: kernel 'mixed' takes 7 arguments, 6 --arg given" \
    "$GFXEMU" run "$k" mixed --grid 1 --block 1 "${mixed[@]}"
expect 2 "gfxemu: error: run: --arg 1 'i32:1': argument 0 (float*) is a pointer of 8 bytes; it takes a buffer, not a scalar; give in:PATH, out:PATH:BYTES, inout:PATH or zero:BYTES" \
    "$GFXEMU" run "$k" mixed --grid 1 --block 1 --arg i32:1 --arg i32:1 --arg f32:2 --arg f64:3 --arg zero:4 --arg i64:5 --arg i32:1
expect 2 "gfxemu: error: run: --arg 2 'zero:4': argument 1 (int) is an integer of 4 bytes; it is not a pointer, so it takes no buffer; give i32:V or u32:V" \
    "$GFXEMU" run "$k" mixed --grid 1 --block 1 --arg zero:4 --arg zero:4 --arg f32:2 --arg f64:3 --arg zero:4 --arg i64:5 --arg i32:1
expect 2 "gfxemu: error: run: --arg 4 'f32:3': argument 3 (double) is a floating-point value of 8 bytes; f32 gives 4; give f64:V" \
    "$GFXEMU" run "$k" mixed --grid 1 --block 1 "${mixed[@]:0:6}" --arg f32:3 "${mixed[@]:8}" --arg i32:1
# `gfxemu debug` takes the same options: its errors name it and its --help
expect 2 "gfxemu: error: debug: missing --grid (see gfxemu debug --help)" "$GFXEMU" debug "$k" mixed --block 64 </dev/null
expect 2 "gfxemu: error: debug: unknown option '--frob' (see gfxemu debug --help)" "$GFXEMU" debug "$k" mixed --frob </dev/null
expect 2 "gfxemu: error: debug: --max-insts needs a value (see gfxemu debug --help)" "$GFXEMU" debug "$k" mixed --grid 1 --block 1 --max-insts </dev/null
expect 2 "gfxemu: error: debug: --grid '0': expected X[,Y[,Z]] with positive integers" "$GFXEMU" debug "$k" mixed --grid 0 --block 1 </dev/null
expect 2 "~^gfxemu: error: debug: bad --arg 'foo:1' \(expected i32:V" "$GFXEMU" debug "$k" mixed --grid 1 --block 1 --arg foo:1 </dev/null
expect 2 "gfxemu: error: debug: kernel 'mixed' takes 7 arguments, 6 --arg given" \
    "$GFXEMU" debug "$k" mixed --grid 1 --block 1 "${mixed[@]}" </dev/null
expect 2 "gfxemu: error: debug: --arg 4 'f32:3': argument 3 (double) is a floating-point value of 8 bytes; f32 gives 4; give f64:V" \
    "$GFXEMU" debug "$k" mixed --grid 1 --block 1 "${mixed[@]:0:6}" --arg f32:3 "${mixed[@]:8}" --arg i32:1 </dev/null
expect 2 "gfxemu: error: run: --arg 7 'i32:300': argument 6 (char) is an integer of 1 byte; 300 does not fit in it; give i32:V or u32:V (narrowed when the value fits)" \
    "$GFXEMU" run "$k" mixed --grid 1 --block 1 "${mixed[@]}" --arg i32:300
expect 1 "gfxemu: error: $tmp/none.bin: No such file or directory" \
    "$GFXEMU" run "$k" mixed --grid 1 --block 1 --arg zero:64 --arg i32:1 --arg f32:2 --arg f64:3 --arg "in:$tmp/none.bin" --arg i64:5 --arg i32:1
expect 1 "gfxemu: error: $k: no kernel 'nope' (kernels: mixed, hidden, lds3d, priv)" \
    "$GFXEMU" run "$k" nope --grid 1 --block 1
expect 1 "gfxemu: error: $tmp/missing.co: No such file or directory" "$GFXEMU" run "$tmp/missing.co" k --grid 1 --block 1
expect 0 "" "$GFXEMU" run --help
grep -q 'out:PATH:BYTES' "$tmp/out" || fail "run --help does not describe out:PATH:BYTES"

finish test_run_scalar
