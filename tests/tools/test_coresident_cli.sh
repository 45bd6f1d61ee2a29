#!/usr/bin/env bash
# test_coresident_cli.sh - `gfxemu run` with workgroups that wait for one another
# (tests/dispatch/coresident.cl, clang-22 -O2), on gfx950 and gfx942: a flag wait completes with
# --threads 1, 2 and 4 and writes the values worked out here; a kernel that waits forever stops
# in under 3 s with the one-line deadlock error naming wave, pc, branch and argument; --cus 1
# names the workgroup that can never be resident (and --cus 2 runs it); --timeout stops a launch;
# --racecheck reports a RAW hazard with exit status 1 and is silent on a barrier-separated
# exchange; bad values of the new options are usage errors.
. "$(dirname "$0")/lib.sh"
tmp="$BUILD/test-data/coresident_cli"
rm -rf "$tmp" && mkdir -p "$tmp"
want="$tmp/want.bin"
python3 -c "
import struct; open('$want','wb').write(struct.pack('256I', *[42 + i // 64 for i in range(256)]))"
for cpu in gfx950 gfx942; do
    co="$tmp/k_$cpu.co"
    compile_kernel tests/dispatch/coresident.cl "$cpu" O2 "$co" || { fail "compiling for $cpu"; continue; }
    for t in 1 2 4; do
        rm -f "$tmp/o.bin"
        "$GFXEMU" run "$co" flag_wait --grid 4 --block 64 --arg zero:4 \
            --arg "out:$tmp/o.bin:1024" --threads $t || fail "$cpu flag_wait --threads $t: exit $?"
        cmp -s "$tmp/o.bin" "$want" || fail "$cpu flag_wait --threads $t: wrong output"
    done

    start=$(date +%s%N)
    out=$("$GFXEMU" run "$co" stuck --grid 4 --block 64 --arg zero:4 --arg zero:256 --threads 2 2>&1)
    rc=$?
    ms=$((($(date +%s%N) - start) / 1000000))
    [ $rc -eq 1 ] || fail "$cpu stuck: exit $rc, want 1"
    [ $ms -lt 3000 ] || fail "$cpu stuck: took $ms ms"
    case "$out" in
    "gfxemu: error: deadlock: 4 waves of 4 workgroups wait without progress; wave 0 of workgroup (0,0,0) spins at pc 0x"*" ('s_cbranch_"*"') reading 0x"*" (argument 0 + 0x0)") ;;
    *) fail "$cpu stuck: unexpected message: $out" ;;
    esac
    [ "$(printf '%s\n' "$out" | wc -l)" -eq 1 ] || fail "$cpu stuck: more than one line: $out"

    lds=40000
    [ $cpu = gfx950 ] && lds=100000
    out=$("$GFXEMU" run "$co" wait_last --grid 2 --block 64 --arg zero:4 --arg zero:8 \
        --dynamic-lds $lds --cus 1 2>&1)
    rc=$?
    [ $rc -eq 1 ] || fail "$cpu wait_last --cus 1: exit $rc"
    case "$out" in
    "gfxemu: error: deadlock: 1 wave of 1 workgroup waits without progress; wave 0 of workgroup (0,0,0) spins at pc 0x"*"; workgroup (1,0,0) can never be resident while these wait: the device holds 1 workgroup of this kernel at once (1 CU x 1, bounded by LDS) (see --cus)") ;;
    *) fail "$cpu wait_last --cus 1: unexpected message: $out" ;;
    esac
    "$GFXEMU" run "$co" wait_last --grid 2 --block 64 --arg zero:4 --arg zero:8 \
        --dynamic-lds $lds --cus 2 || fail "$cpu wait_last --cus 2: exit $?"

    # a long loop (no waiting) ends at --timeout, not at the instruction budget
    start=$(date +%s%N)
    out=$("$GFXEMU" run "$co" persistent --grid 1 --block 64 --arg zero:4 --arg zero:4 \
        --arg zero:4 --arg zero:4 --arg u32:0 --timeout 0.5 2>&1)
    [ $? -eq 0 ] || fail "$cpu persistent with no tasks: $out"
    out=$("$GFXEMU" run "$co" stuck --grid 1 --block 64 --arg zero:4 --arg zero:256 \
        --timeout 0.2 2>&1)
    case "$out" in
    "gfxemu: error: deadlock: "*|"gfxemu: error: timeout: "*) ;;
    *) fail "$cpu stuck --timeout: unexpected message: $out" ;;
    esac

    # waves that wait while another computes forever: the watchdog, without advising more budget
    out=$("$GFXEMU" run "$co" busy_and_wait --grid 3 --block 64 --arg zero:4 --arg zero:12 \
        --arg u32:0 --max-insts 3000000 --threads 1 2>&1)
    case "$out" in
    "gfxemu: error: watchdog: instruction budget of 3000000 wave-instructions exhausted at pc 0x"*"; 2 waves waited on memory that nothing changed: the kernel looks stuck rather than long") ;;
    *) fail "$cpu busy_and_wait: unexpected message: $out" ;;
    esac

    out=$("$GFXEMU" run "$co" race_raw --grid 1 --block 128 --arg "out:$tmp/r.bin:512" --racecheck 2>&1)
    rc=$?
    [ $rc -eq 1 ] || fail "$cpu race_raw --racecheck: exit $rc, want 1"
    [ -s "$tmp/r.bin" ] || fail "$cpu race_raw --racecheck: the output was not written"
    case "$out" in
    "gfxemu: racecheck: RAW hazard at LDS offset 0x"*" in workgroup (0,0,0): wave "?" reads LDS that wave "?" wrote with no barrier between: wave "?" at pc 0x"*" ('ds_write_b32 "*"'), wave "?" at pc 0x"*" ('ds_read_b32 "*"')") ;;
    *) fail "$cpu race_raw --racecheck: unexpected output: $out" ;;
    esac
    out=$("$GFXEMU" run "$co" race_fenced --grid 2 --block 128 --arg "out:$tmp/r.bin:512" --racecheck 2>&1)
    [ $? -eq 0 ] && [ -z "$out" ] || fail "$cpu race_fenced --racecheck: $out"
done
co="$tmp/k_gfx950.co"
for bad in "--timeout 0" "--timeout -1" "--timeout x" "--cus 0" "--cus 70000"; do
    out=$("$GFXEMU" run "$co" flag_wait --grid 1 --block 64 --arg zero:4 --arg zero:256 $bad 2>&1)
    rc=$?
    [ $rc -eq 2 ] || fail "'$bad': exit $rc, want 2 ($out)"
done
"$GFXEMU" run --help | grep -q -- "--racecheck" || fail "--help does not list --racecheck"
finish test_coresident_cli
