#!/usr/bin/env bash
# test_args.sh - `gfxemu run` argument kinds and checks (issues #13 item 2, #17): local:BYTES and
# bytes:HEX, every --arg checked against the metadata before the launch, outputs written
# atomically, --private-size, clear errors for sizes that cannot work, and the peak memory of a
# large out: buffer.  Kernels: tests/tools/args.cl; expected values worked out by hand below.
. "$(dirname "$0")/lib.sh"
tmp="$BUILD/test-data/args"
rm -rf "$tmp" && mkdir -p "$tmp"

# i32 at int index N of a file
i32() { od -A n -t d4 -j $(($2 * 4)) -N 4 "$1" | tr -d ' '; }

printf '\0\0\0\0\0\0\034\100' >"$tmp/d.bin" # 7.0 as a little-endian double
# struct params {int a = 11; char b = -1; 3 padding bytes; double c = 5.0}, float4 (1, 2, 3, 4)
P=bytes:0b000000ff0000000000000000001440
V=bytes:0000803f000000400000404000008040
for cpu in gfx950 gfx942; do
    for opt in O0 O3; do
        k="$tmp/args-$cpu-$opt.co"
        compile_kernel tests/tools/args.cl $cpu $opt "$k" || { fail "compile $cpu -$opt"; continue; }
        # The static LDS size from clang's own metadata: the __local arguments go after it.
        g=$(llvm-readelf-22 --notes "$k" | grep -B40 -E '\.name: +kinds$' |
            sed -n 's/.*\.group_segment_fixed_size: *//p' | tail -1)
        o="$tmp/o-$cpu-$opt.bin"
        expect 0 "" "$GFXEMU" run "$k" kinds --grid 1 --block 64 --arg "out:$o:48" --arg i32:5 \
            --arg f32:2 --arg local:256 --arg local:300 --arg $P --arg $V --arg "in:$tmp/d.bin"
        t1=$(((g + 3) / 4 * 4))      # pointee_align 4
        t2=$(((t1 + 256 + 3) / 4 * 4))
        want="5 6 11 -1 5 1 4 $t1 $t2 7 68 21"
        # the 12 ints with one od (not one od and tr per int: each process costs ~10 ms here)
        got=$(od -A n -v -t d4 -N 48 "$o" | tr -s ' \n' '  ')
        got=${got# }
        [ "${got% }" = "$want" ] || fail "kinds $cpu -$opt: got '${got% }', want '$want'"
        # --dynamic-lds bytes come first, then the __local arguments
        expect 0 "" "$GFXEMU" run "$k" kinds --grid 1 --block 64 --arg "out:$o:48" --arg i32:5 \
            --arg f32:2 --arg local:256 --arg local:256 --arg $P --arg $V --arg "in:$tmp/d.bin" \
            --dynamic-lds 100
        [ "$(i32 "$o" 7)" = $(((g + 100 + 3) / 4 * 4)) ] || fail "kinds $cpu -$opt: local after --dynamic-lds"
    done
    lim=$([ $cpu = gfx950 ] && echo 163840 || echo 65536)
    expect 1 "gfxemu: error: run: --arg 4 'local:$lim': $lim bytes of LDS for argument 3 (__local pointer) do not fit: $g static + 0 dynamic bytes are in use and $cpu has $lim per workgroup" \
        "$GFXEMU" run "$k" kinds --grid 1 --block 64 --arg "out:$o:48" --arg i32:5 --arg f32:2 \
        --arg local:$lim --arg local:4 --arg $P --arg $V --arg "in:$tmp/d.bin"
done

k="$tmp/args-gfx950-O3.co"
base=(--grid 1 --block 64 --arg "out:$tmp/o.bin:48" --arg i32:5 --arg f32:2 --arg local:256 --arg local:256)
tail_=(--arg $V --arg "in:$tmp/d.bin")
# Item 3: the metadata's type names settle int vs float; sizes must match exactly for bytes:
expect 2 "gfxemu: error: run: --arg 2 'f32:1.5': argument 1 (int) is an integer of 4 bytes; f32 gives a floating-point value; give i32:V or u32:V" \
    "$GFXEMU" run "$k" kinds --grid 1 --block 64 --arg "out:$tmp/o.bin:48" --arg f32:1.5 --arg f32:2 --arg local:4 --arg local:4 --arg $P "${tail_[@]}"
expect 2 "gfxemu: error: run: --arg 3 'i32:2': argument 2 (float) is a floating-point value of 4 bytes; i32 gives an integer; give f32:V" \
    "$GFXEMU" run "$k" kinds --grid 1 --block 64 --arg "out:$tmp/o.bin:48" --arg i32:5 --arg i32:2 --arg local:4 --arg local:4 --arg $P "${tail_[@]}"
expect 2 "gfxemu: error: run: --arg 6 'bytes:0b000000ff000000000000000000144000': argument 5 (params) is a by-value argument of 16 bytes; bytes: gives 17; give bytes:HEX with 16 bytes (32 hex digits)" \
    "$GFXEMU" run "$k" kinds "${base[@]}" --arg ${P}00 "${tail_[@]}"
expect 2 "gfxemu: error: run: --arg 6 'i32:1': argument 5 (params) is a by-value argument of 16 bytes; i32 gives 4; give bytes:HEX with 16 bytes (32 hex digits)" \
    "$GFXEMU" run "$k" kinds "${base[@]}" --arg i32:1 "${tail_[@]}"
expect 2 "gfxemu: error: run: --arg 4 'zero:4': argument 3 (float*) is a __local pointer of 4 bytes; this is not LDS; give local:BYTES (the LDS bytes to reserve for it)" \
    "$GFXEMU" run "$k" kinds --grid 1 --block 64 --arg "out:$tmp/o.bin:48" --arg i32:5 --arg f32:2 --arg zero:4 --arg local:4 --arg $P "${tail_[@]}"
expect 2 "gfxemu: error: run: --arg 2 'local:4': argument 1 (int) is an integer of 4 bytes; local: is only for __local pointers; give i32:V or u32:V" \
    "$GFXEMU" run "$k" kinds --grid 1 --block 64 --arg "out:$tmp/o.bin:48" --arg local:4 --arg f32:2 --arg local:4 --arg local:4 --arg $P "${tail_[@]}"
expect 2 "gfxemu: error: run: --arg 'bytes:0g': '0g' is not a hex byte" "$GFXEMU" run "$k" kinds --grid 1 --block 64 --arg bytes:0g
expect 2 "gfxemu: error: run: --arg 'bytes:123': bytes:HEX needs an even number of hex digits (two per byte)" "$GFXEMU" run "$k" kinds --grid 1 --block 64 --arg bytes:123
expect 2 "gfxemu: error: run: --arg 'local:0': a __local argument needs at least 1 byte of LDS" "$GFXEMU" run "$k" kinds --grid 1 --block 64 --arg local:0

# Item 4: an unlinked object is refused before anything runs.
clang-22 -x cl -cl-std=CL2.0 -target amdgcn-amd-amdhsa -mcpu=gfx950 -nogpulib -O2 -c tests/tools/args.cl -o "$tmp/args.o" 2>/dev/null
expect 1 "gfxemu: error: $tmp/args.o: kernel 'poke': a relocatable object (ELF type ET_REL: 'clang -c' output) cannot run; link it first: ld.lld-22 -shared k.o -o k.co" \
    "$GFXEMU" run "$tmp/args.o" poke --grid 1 --block 64 --arg zero:256 --arg i32:0
"$GFXEMU" disasm "$tmp/args.o" >/dev/null || fail "a relocatable object can still be disassembled"

# Item 5: output paths are checked before the launch; files appear only after a successful run.
expect 1 "gfxemu: error: $tmp/nodir/o.bin: cannot create the output file: No such file or directory" \
    "$GFXEMU" run "$k" fill --grid 4 --block 64 --arg "out:$tmp/nodir/o.bin:1024" --arg i32:256 --arg i32:1
expect 1 "gfxemu: error: $tmp: is a directory" \
    "$GFXEMU" run "$k" fill --grid 4 --block 64 --arg "out:$tmp:1024" --arg i32:256 --arg i32:1
echo old >"$tmp/keep.bin"
expect 1 "~^gfxemu: error: memory fault: write of 4 bytes" \
    "$GFXEMU" run "$k" fill --grid 4 --block 64 --arg "out:$tmp/keep.bin:1024" --arg i32:256 --arg i32:1
[ "$(cat "$tmp/keep.bin")" = old ] || fail "a faulting run replaced its output file"
expect 1 "~^gfxemu: error: memory fault" \
    "$GFXEMU" run "$k" fill --grid 4 --block 64 --arg "out:$tmp/new.bin:1024" --arg i32:256 --arg i32:1
[ ! -e "$tmp/new.bin" ] || fail "a faulting run left an output file"
ls "$tmp" | grep -q gfxemu- && fail "temporary files left behind: $(ls "$tmp" | grep gfxemu-)"
# --keep-partial: the outputs hold what the kernel wrote before the fault (wave 0 of workgroup 0
# faulted after its own stores; other workgroups may or may not have run).
expect 1 "~^gfxemu: error: memory fault" "$GFXEMU" run "$k" fill --grid 4 --block 64 --threads 1 \
    --arg "out:$tmp/part.bin:1024" --arg i32:256 --arg i32:1 --keep-partial
[ "$(stat -c %s "$tmp/part.bin" 2>/dev/null)" = 1024 ] && [ "$(i32 "$tmp/part.bin" 5)" = 6 ] ||
    fail "--keep-partial did not write the partial output"
expect 0 "" "$GFXEMU" run "$k" fill --grid 4 --block 64 --arg "out:$tmp/keep.bin:1024" --arg i32:256 --arg i32:0
[ "$(i32 "$tmp/keep.bin" 255)" = 256 ] || fail "fill: output not written"
ls "$tmp" | grep -q gfxemu- && fail "temporary files left behind after a success"

# Outputs that are not regular files are written in place; symbolic links are followed.
"$GFXEMU" run "$k" fill --grid 1 --block 64 --arg out:/dev/stdout:8 --arg i32:2 --arg i32:0 >"$tmp/stdout.bin" ||
    fail "out:/dev/stdout failed"
[ "$(od -A n -t d4 "$tmp/stdout.bin" | tr -s ' ')" = " 1 2" ] || fail "out:/dev/stdout: wrong bytes"
[ -L /dev/stdout ] || [ -c /dev/stdout ] || fail "out:/dev/stdout replaced /dev/stdout"
echo old >"$tmp/target.bin" && ln -sf target.bin "$tmp/link.bin"
expect 0 "" "$GFXEMU" run "$k" fill --grid 1 --block 64 --arg "out:$tmp/link.bin:8" --arg i32:2 --arg i32:0
[ -L "$tmp/link.bin" ] && [ "$(i32 "$tmp/target.bin" 1)" = 2 ] || fail "out: through a symbolic link"

# Item 8: sizes and counts that cannot work say so.
expect 2 "gfxemu: error: run: --arg 'out:x:0': an output of 0 bytes; give its size in bytes (out:PATH:BYTES with BYTES >= 1)" \
    "$GFXEMU" run "$k" fill --grid 1 --block 64 --arg out:x:0
expect 2 "~^gfxemu: error: run: --threads 5000: at most 1024 worker threads \(this machine has [0-9]+ cores; the default is one per core\)$" \
    "$GFXEMU" run "$k" fill --grid 1 --block 64 --threads 5000
expect 1 "~^gfxemu: error: run: --arg 1 'out:$tmp/huge.bin:1099511627776': a buffer of 1099511627776 bytes does not fit in this machine's [0-9]+ bytes of memory \(RAM \+ swap\)$" \
    "$GFXEMU" run "$k" fill --grid 1 --block 64 --arg "out:$tmp/huge.bin:1099511627776" --arg i32:1 --arg i32:0
[ ! -e "$tmp/huge.bin" ] || fail "a refused run left an output file"
# Buffers that fit one by one but not together are refused too, before the launch: two of
# 60% of RAM + swap each (MemTotal + SwapTotal from /proc/meminfo, in bytes).
mem=$(awk '/^(MemTotal|SwapTotal):/ { s += $2 } END { printf "%.0f", s * 1024 }' /proc/meminfo)
big=$((mem / 10 * 6))
expect 1 "~^gfxemu: error: run: --arg 2 'zero:$big': a buffer of $big bytes does not fit beside the [0-9]+ bytes of buffers already allocated in this machine's [0-9]+ bytes of memory \(RAM \+ swap\)$" \
    "$GFXEMU" run "$k" typed --grid 1 --block 64 --arg "out:$tmp/two.bin:$big" --arg "zero:$big" --arg zero:4 --arg i32:0
[ ! -e "$tmp/two.bin" ] || fail "a refused run left an output file"

# Item 9: --private-size (scratch bytes per work-item); the launch refuses more than 1 MiB.
expect 0 "" "$GFXEMU" run "$k" fill --grid 4 --block 64 --arg "out:$tmp/p.bin:1024" --arg i32:256 --arg i32:0 --private-size 65536
[ "$(i32 "$tmp/p.bin" 100)" = 101 ] || fail "--private-size run: wrong output"
expect 2 "gfxemu: error: run: --private-size '2097152': expected bytes per work-item, 0 to 1048576" \
    "$GFXEMU" run "$k" fill --grid 1 --block 64 --private-size 2097152

# Item 2: a 512 MiB out: buffer costs ~512 MiB at peak, not twice that (lazily mapped device
# memory, written to the file through a small staging block).  Loose bound: 1.5x.
if [ -x /usr/bin/time ]; then
    n=$((512 << 20))
    /usr/bin/time -v "$GFXEMU" run "$k" fill --grid 16 --block 64 --arg "out:$tmp/big.bin:$n" \
        --arg i32:1024 --arg i32:0 2>"$tmp/time.txt" || fail "512 MiB out: run failed: $(tail -3 "$tmp/time.txt")"
    rss=$(sed -n 's/.*Maximum resident set size (kbytes): //p' "$tmp/time.txt")
    echo "512 MiB out: buffer: max RSS $rss KiB"
    [ -n "$rss" ] && [ "$rss" -lt $((n / 1024 * 3 / 2)) ] || fail "512 MiB out: peak RSS $rss KiB >= 1.5x the buffer"
    [ "$(stat -c %s "$tmp/big.bin")" = $n ] && [ "$(i32 "$tmp/big.bin" 1023)" = 1024 ] &&
        [ "$(i32 "$tmp/big.bin" $((n / 4 - 1)))" = 0 ] || fail "512 MiB out: wrong file"
    rm -f "$tmp/big.bin"
else
    fail "/usr/bin/time is missing (scripts/deps.sh installs it)"
fi
finish test_args
