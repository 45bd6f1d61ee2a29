#!/usr/bin/env bash
# test_debugger.sh - scripted `gfxemu debug` sessions (commands piped in) on clang-22 kernels:
# printed register values against a * x + y worked out here, breakpoint hit counts, `set`
# reaching the output file, stepping across a barrier, values exchanged through LDS, `next`
# over a call at -O0, x/ and args.
. "$(dirname "$0")/lib.sh"
tmp="$BUILD/test-data/debugger"
rm -rf "$tmp" && mkdir -p "$tmp"
axpy_inputs "$tmp" 192

# expect NAME TEXT: the session output contains TEXT as a whole line (fixed string)
expect() {
    has_line "$2" "$out" || fail "$1: no line '$2' in:
$out"
}
# addr_of DISASM KERNEL PATTERN [NTH]: address of the NTH (default 1) instruction of KERNEL
# matching PATTERN, as 0x... in lowercase without leading zeros
addr_of() {
    awk -v k="<$2>:" -v p="$3" -v n="${4:-1}" '
        $2 == k { f = 1; next } /^$/ { f = 0 }
        f && $0 ~ p && --n == 0 { sub(/.*\/\/ 0*/, ""); sub(/:.*/, ""); print "0x" tolower($0); exit }' <<<"$1"
}
# the instruction right after the one at ADDR in KERNEL
addr_after() {
    awk -v k="<$2>:" -v a="$3" '
        $2 == k { f = 1; next } /^$/ { f = 0 }
        f { x = $0; sub(/.*\/\/ 0*/, "", x); sub(/:.*/, "", x); x = "0x" tolower(x)
            if (hit) { print x; exit } if (x == a) hit = 1 }' <<<"$1"
}
# pval V: how `p` prints a 32-bit value: hex, signed decimal and the float with those bits
pval() {
    python3 -c "import struct,sys; v=int(sys.argv[1]) & 0xffffffff; \
print('0x%08x (%d, %.9g)' % (v, struct.unpack('<i', struct.pack('<I', v))[0], \
struct.unpack('<f', struct.pack('<I', v))[0]))" "$1"
}
data_reg() { sed -nE 's/.*global_store_dword [^,]+, (v[0-9]+),.*/\1/p' <<<"$1" | head -1; }

for cpu in gfx950 gfx942; do
    co="$tmp/k_$cpu.co"
    compile_kernel tests/debug/kernels.cl "$cpu" O2 "$co" || { fail "compiling for $cpu"; continue; }
    dis=$("$GFXEMU" disasm "$co")

    # ---- axpy: breakpoint hits, register values, set ----
    st=$(addr_of "$dis" axpy global_store_dword)
    reg=$(data_reg "$(awk -v k='<axpy>:' '$2 == k {f=1} f && /global_store_dword/ {print; exit}' <<<"$dis")")
    [ -n "$st" ] && [ -n "$reg" ] || { fail "$cpu: no store in axpy"; continue; }
    out=$(printf '%s\n' "break axpy+$((st - $(addr_of "$dis" axpy .)))" continue "p $reg[17]" \
        continue "p $reg[3]" continue "p/d $reg[3]" "set $reg[3] = 12345" "info breakpoints" \
        continue | "$GFXEMU" debug "$co" axpy --grid 3 --block 64 --arg "out:$tmp/o.bin:768" \
        --arg "in:$tmp/x.bin" --arg "in:$tmp/y.bin" --arg i32:5 2>&1)
    rc=$?
    [ $rc -eq 0 ] || fail "$cpu axpy: exit $rc"
    expect "$cpu axpy" "Breakpoint 1 (hit 1) at $st <axpy+$(printf '0x%x' $((st - $(addr_of "$dis" axpy .))))>"
    # lane 17 of workgroup 0: 5 * 17 + 1017 = 1102; lane 3 of workgroup 1: 5 * 67 + 1067 = 1402;
    # lane 3 of workgroup 2: 5 * 131 + 1131 = 1786
    expect "$cpu axpy" "$reg[17] = $(pval 1102)"
    expect "$cpu axpy" "Breakpoint 1 (hit 2) at $st <axpy+$(printf '0x%x' $((st - $(addr_of "$dis" axpy .))))>"
    expect "$cpu axpy" "$reg[3] = $(pval 1402)"
    expect "$cpu axpy" "$reg[3] = 1786"
    expect "$cpu axpy" "$reg[3] = 0x3039"
    expect "$cpu axpy" "  1: breakpoint at $st <axpy+$(printf '0x%x' $((st - $(addr_of "$dis" axpy .))))>, 3 hits"
    expect "$cpu axpy" "workgroup (2,0,0) wave 0 (running), pc $st <axpy+$(printf '0x%x' $((st - $(addr_of "$dis" axpy .))))>, exec 0xffffffffffffffff"
    expect "$cpu axpy" "The kernel finished: $("$GFXEMU" run "$co" axpy --grid 3 --block 64 \
        --arg "out:$tmp/o2.bin:768" --arg "in:$tmp/x.bin" --arg "in:$tmp/y.bin" --arg i32:5 \
        --stats 2>&1 | sed -nE 's/.*"wave_insts": ([0-9]+).*/\1/p') wave-instructions."
    python3 - "$tmp/o.bin" <<'PY' || fail "$cpu axpy: wrong output file"
import struct, sys
v = struct.unpack('<192i', open(sys.argv[1], 'rb').read())
want = [12345 if i == 131 else 5 * i + 1000 + i for i in range(192)]
bad = [i for i in range(192) if v[i] != want[i]]
sys.exit(f"{len(bad)} wrong, first {bad[:4]}" if bad else 0)
PY

    # ---- swap: stepping across a barrier, LDS, values exchanged between waves ----
    bar=$(addr_of "$dis" swap s_barrier)
    after=$(addr_after "$dis" swap "$bar")
    after2=$(addr_after "$dis" swap "$after")
    entry=$(addr_of "$dis" swap .)
    sst=$(addr_of "$dis" swap global_store_dword)
    sreg=$(data_reg "$(awk -v k='<swap>:' '$2 == k {f=1} f && /global_store_dword/ {print; exit}' <<<"$dis")")
    out=$(printf '%s\n' "break $bar" continue step waves "lds 0 16" "lds 0x100000000 16" delete step waves \
        "break $sst" continue "p $sreg[5]" continue "p $sreg[5]" bt continue |
        "$GFXEMU" debug "$co" swap --grid 1 --block 128 --arg "out:$tmp/s.bin:512" 2>&1)
    rc=$?
    [ $rc -eq 0 ] || fail "$cpu swap: exit $rc"
    sym() { printf '<swap+0x%x>' $(($1 - entry)); }
    expect "$cpu swap" "Breakpoint 1 (hit 1) at $bar $(sym $bar)"
    expect "$cpu swap" "workgroup (0,0,0) wave 0 (at barrier), pc $after $(sym $after), exec 0xffffffffffffffff"
    expect "$cpu swap" "  wave 1 of (0,0,0): running    pc $entry <swap> exec 0xffffffffffffffff, 0 insts"
    # lds[t] = 3t + 1 for the 64 lanes of wave 0
    expect "$cpu swap" "lds+0x0: 0x00000001 0x00000004 0x00000007 0x0000000a"
    # an offset past 32 bits is outside, not truncated to offset 0
    expect "$cpu swap" "lds: [0x100000000, 0x100000010) is outside the workgroup's LDS"
    expect "$cpu swap" "wave 0 waits at a barrier: the other waves run until it opens"
    expect "$cpu swap" "workgroup (0,0,0) wave 0 (running), pc $after2 $(sym $after2), exec 0xffffffffffffffff"
    expect "$cpu swap" "  wave 1 of (0,0,0): running    pc $after $(sym $after) exec 0xffffffffffffffff, $(( $(grep -c . <<<"$(awk -v k='<swap>:' -v b="$bar" '$2 == k {f=1; next} /^$/ {f=0} f {print} f && tolower($0) ~ substr(b, 3) {exit}' <<<"$dis")") )) insts"
    # out[t] = lds[127 - t] = 3 (127 - t) + 1: t = 5 gives 367, t = 69 (wave 1 lane 5) 175
    expect "$cpu swap" "$sreg[5] = $(pval 367)"
    expect "$cpu swap" "$sreg[5] = $(pval 175)"
    expect "$cpu swap" "kernel swap, running workgroup (0,0,0)"
    expect "$cpu swap" "workgroup (0,0,0) wave 1 (running), pc $sst $(sym $sst), exec 0xffffffffffffffff"
done

# ---- next over a call: -O0 kernels call a separate function with s_swappc_b64 ----
co="$tmp/k_O0.co"
if compile_kernel tests/debug/kernels.cl gfx950 O0 "$co"; then
    dis=$("$GFXEMU" disasm "$co")
    call=$(addr_of "$dis" axpy s_swappc_b64)
    ret=$(addr_after "$dis" axpy "$call")
    out=$(printf '%s\n' "break $call" continue args next "x/2x 0x100000000044" "x/2d 0x100000000044" \
        "p pc" continue | "$GFXEMU" debug "$co" axpy --grid 1 --block 64 \
        --arg "out:$tmp/o0.bin:256" --arg "in:$tmp/x.bin" --arg "in:$tmp/y.bin" --arg i32:5 2>&1)
    expect "O0 next" "argument 0: out:$tmp/o0.bin:256, 256 bytes at 0x100000000000"
    expect "O0 next" "workgroup (0,0,0) wave 0 (running), pc $ret <axpy+$(printf '0x%x' $((ret - $(addr_of "$dis" axpy .))))>, exec 0xffffffffffffffff"
    # out[17], out[18] = 1102, 1108 once the call has returned
    expect "O0 next" "0x100000000044: 0x0000044e 0x00000454"
    expect "O0 next" "0x100000000044: 1102 1108"
    expect "O0 next" "pc = $ret <axpy+$(printf '0x%x' $((ret - $(addr_of "$dis" axpy .))))>"
    # bt inside the called function names the caller from s[30:31]
    out=$(printf '%s\n' "break __clang_ocl_kern_imp_axpy+4" continue bt continue | "$GFXEMU" debug \
        "$co" axpy --grid 1 --block 64 --arg "out:$tmp/o0.bin:256" --arg "in:$tmp/x.bin" \
        --arg "in:$tmp/y.bin" --arg i32:5 2>&1)
    expect "O0 bt" "called from $ret <axpy+$(printf '0x%x' $((ret - $(addr_of "$dis" axpy .))))> (the return address in s[30:31])"
    expect "O0 bt" "Breakpoint 1 (hit 1) at $(printf '0x%x' $(($(addr_of "$dis" __clang_ocl_kern_imp_axpy .) + 4))) <__clang_ocl_kern_imp_axpy+0x4>"
    # next 2: over the call, then one more instruction (s_endpgm at -O0) ends the wave
    out=$(printf '%s\n' "break $call" continue "next 2" "p pc" continue | "$GFXEMU" debug "$co" axpy \
        --grid 1 --block 64 --arg "out:$tmp/o0.bin:256" --arg "in:$tmp/x.bin" \
        --arg "in:$tmp/y.bin" --arg i32:5 2>&1)
    [ "$(addr_of "$dis" axpy s_endpgm)" = "$ret" ] || fail "O0: no s_endpgm after the call"
    grep -q "^workgroup (0,0,0) wave 0 (done), pc $(printf '0x%x' $((ret + 4))) " <<<"$out" ||
        fail "O0 next 2: the wave did not end: $out"
else
    fail "compiling at -O0"
fi

# ---- errors are reported, not fatal; end of input runs to the end ----
dis=$("$GFXEMU" disasm "$tmp/k_gfx950.co")
e=$(addr_of "$dis" axpy .)
e3=$(addr_after "$dis" axpy "$(addr_after "$dis" axpy "$(addr_after "$dis" axpy "$e")")")
out=$(printf '%s\n' "step 3" "p pc" "p v999" "break nosuchsymbol" "wave 5 0" "x/4x nothing" "frobnicate" \
    "set a1[3] = 9" "p a1[3]" "set v9 = -2" "p/d v9[63]" "watch 0x100000000014" continue "info breakpoints" |
    "$GFXEMU" debug "$tmp/k_gfx950.co" axpy --grid 1 --block 64 --arg "out:$tmp/o3.bin:256" \
    --arg "in:$tmp/x.bin" --arg "in:$tmp/y.bin" --arg i32:5 2>&1)
rc=$?
[ $rc -eq 0 ] || fail "errors session: exit $rc"
expect errors "pc = $e3 <axpy+$(printf '0x%x' $((e3 - e)))>"
expect errors "cannot parse a register in 'v999' (try v3, v3[17], v[4:5], s4, s[4:5], a0, exec, vcc, scc, m0, pc)"
expect errors "break: no symbol 'nosuchsymbol' in the code object (see \`info kernel\`; tab completes symbols)"
expect errors "no wave 0 in workgroup (5,0,0) that is running or still to run"
expect errors "x: 'nothing' is not an address"
expect errors "unknown command 'frobnicate' (try help)"
# registers past the kernel's allocation (axpy has a few VGPRs and no AGPRs) are errors, not zeros
expect errors "set: a1[3]: the kernel has no AGPRs"
expect errors "p: a1[3]: the kernel has no AGPRs"
grep -qE '^set: v9: the kernel has v0-v[0-7] only \([1-8] VGPRs\)$' <<<"$out" ||
    fail "errors: set v9 past the allocation: $out"
grep -qE '^p: v9\[63\]: the kernel has v0-v[0-7] only \([1-8] VGPRs\)$' <<<"$out" ||
    fail "errors: p v9[63] past the allocation: $out"
# out[5] = 5 * 5 + 1005 = 1030 once the store has run
expect errors "Watchpoint 1: 4 bytes at 0x100000000014 changed from 0x0 to 0x406"
expect errors "  1: watchpoint on 4 bytes at 0x100000000014, 1 hit"
expect errors "end of input: running to the end without stopping"
[ -s "$tmp/o3.bin" ] || fail "errors session: no output file"

finish test_debugger
