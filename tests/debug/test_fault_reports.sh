#!/usr/bin/env bash
# test_fault_reports.sh - `gfxemu run --fault-report` and `gfxemu debug` on faulting clang-22
# kernels: out-of-bounds stores (past the end, before the start, past a page end), an illegal
# word, an unimplemented instruction, s_trap and the watchdog each give the one-line error
# followed by a report with exactly the right kind, kernel, workgroup, wave, lanes, pc, code
# around the pc, address and nearest argument buffer.
. "$(dirname "$0")/lib.sh"
tmp="$BUILD/test-data/fault_reports"
rm -rf "$tmp" && mkdir -p "$tmp"

# expect NAME LINE: the output has LINE (runs of spaces count as one: listings are aligned)
expect() {
    local want
    squeeze_spaces "$2"
    want=$squeezed
    squeeze_spaces "$out"
    has_line "$want" "$squeezed" || fail "$1: no line '$2' in:
$out"
}
# addr_of KERNEL PATTERN: "0x2e44 <store_at+0x44>" for the first instruction matching PATTERN
addr_of() {
    local r
    r=$(awk -v k="<$1>:" -v p="$2" '
        $2 == k { f = 1; base = ""; next } /^$/ { f = 0 }
        f { a = $0; sub(/.*\/\/ 0*/, "", a); sub(/:.*/, "", a)
            if (base == "") base = a
            if ($0 ~ p) { print a, base; exit } }' <<<"$dis")
    [ -n "$r" ] || return
    set -- "$1" $r
    printf '0x%x <%s+0x%x>\n' $((0x$2)) "$1" $((0x$2 - 0x$3))
}
# inst_of KERNEL PATTERN: the text of that instruction
inst_of() {
    awk -v k="<$1>:" -v p="$2" '$2 == k { f = 1; next } /^$/ { f = 0 }
        f && $0 ~ p { sub(/^\t/, ""); sub(/ +\/\/.*/, ""); print; exit }' <<<"$dis"
}

for cpu in gfx950 gfx942; do
    co="$tmp/k_$cpu.co"
    compile_kernel tests/debug/kernels.cl "$cpu" O2 "$co" || { fail "compiling for $cpu"; continue; }
    dis=$("$GFXEMU" disasm "$co")
    st=$(addr_of store_at global_store_dword)
    heap=0x100000000000 # the first buffer gfxemu allocates (GMEM_HEAP_BASE)

    # out[1040] of a 64-byte buffer (4096 bytes past its end: outside its page), by wave 1 of
    # workgroup 1 only (all lanes store one address, so all 64 are bad)
    out=$("$GFXEMU" run "$co" store_at --grid 2 --block 128 --arg "out:$tmp/s.bin:64" \
        --arg i32:1040 --fault-report 2>&1)
    [ $? -eq 1 ] || fail "$cpu past the end: exit status"
    expect "$cpu past" "gfxemu: error: memory fault: write of 4 bytes at 0x100000001040 (4096 bytes past the end of the 64-byte buffer at $heap) by 'global_store_dword v0, v1, s[0:1]' at pc ${st%% *} (kernel store_at, workgroup (1,0,0), wave 1, lanes 0xffffffffffffffff)"
    expect "$cpu past" "memory fault in kernel store_at, workgroup (1,0,0), wave 1"
    expect "$cpu past" "  pc:      $st"
    expect "$cpu past" "  lanes:   0xffffffffffffffff (64 lanes: 0-63)"
    expect "$cpu past" "  access:  write of 4 bytes at 0x100000001040"
    expect "$cpu past" "  nearest: 0x1000 bytes past the end of argument 0 (out:$tmp/s.bin:64, 64 bytes at $heap)"
    expect "$cpu past" "=> $st: global_store_dword v0, v1, s[0:1]"
    [ "$(grep -c '^   0x' <<<"$out")" = 6 ] || fail "$cpu past: not 3 instructions either side"

    out=$("$GFXEMU" run "$co" store_at --grid 2 --block 128 --arg "out:$tmp/s.bin:64" \
        --arg i32:-4 --fault-report 2>&1)
    expect "$cpu before" "  nearest: 0x10 bytes before the start of argument 0 (out:$tmp/s.bin:64, 64 bytes at $heap)"
    # an aligned dword cannot cross a page end, so "crossing the buffer's end" is padding now;
    # the first dword past the page of a 4094-byte buffer is 2 bytes past its end
    out=$("$GFXEMU" run "$co" store_at --grid 2 --block 128 --arg "out:$tmp/s.bin:4094" \
        --arg i32:1024 --fault-report 2>&1)
    expect "$cpu page end" "  nearest: 0x2 bytes past the end of argument 0 (out:$tmp/s.bin:4094, 4094 bytes at $heap)"

    # every lane stores 64 MiB apart: lane 0 inside the buffer, 1-63 far outside, and the report
    # names every bad lane, not only the first
    out=$("$GFXEMU" run "$co" store_all --grid 1 --block 64 --arg "out:$tmp/s.bin:64" --fault-report 2>&1)
    expect "$cpu store_all" "  lanes:   0xfffffffffffffffe (63 lanes: 1-63)"
    expect "$cpu store_all" "  nearest: 0x3ffffc0 bytes past the end of argument 0 (out:$tmp/s.bin:64, 64 bytes at $heap)"

    # with several threads any workgroup may fault first: one thread makes it workgroup 0
    for k in trap illegal unimplemented; do
        case $k in
        trap) kind="trap" ins="s_trap 2" pat="s_trap 2" ;;
        illegal) kind="illegal instruction" ins="<illegal 0xf4080500>" pat="long 0xf4080500" ;;
        unimplemented) kind="unimplemented instruction" ins="s_rfe_restore_b64 s[0:1], s2" pat="s_rfe_restore_b64" ;;
        esac
        pc=$(addr_of $k "$pat")
        out=$("$GFXEMU" run "$co" $k --grid 3 --block 64 --arg "zero:64" --threads 1 --fault-report 2>&1)
        [ $? -eq 1 ] || fail "$cpu $k: exit status"
        expect "$cpu $k" "gfxemu: error: $kind: '$ins' at pc ${pc%% *} (kernel $k, workgroup (0,0,0), wave 0)"
        expect "$cpu $k" "$kind in kernel $k, workgroup (0,0,0), wave 0"
        expect "$cpu $k" "  pc:      $pc"
        expect "$cpu $k" "=> $pc: $ins"
        grep -q '^  lanes:' <<<"$out" && fail "$cpu $k: lanes for a scalar fault"
    done

    out=$("$GFXEMU" run "$co" spin --grid 1 --block 64 --arg "zero:4" --arg i32:0 \
        --max-insts 100000 --fault-report 2>&1)
    [ $? -eq 1 ] || fail "$cpu spin: exit status"
    expect "$cpu spin" "watchdog in kernel spin, workgroup (0,0,0), wave 0"
    expect "$cpu spin" "  after 100000 wave-instructions (raise the budget with --max-insts)"
    grep -qE '^=> 0x[0-9a-f]+ <spin\+0x[0-9a-f]+>: s_' <<<"$out" || fail "$cpu spin: no marked scalar instruction"

    # the debugger stops at the fault with the same report; registers stay readable
    out=$(printf '%s\n' continue waves "p v0[16]" continue | "$GFXEMU" debug "$co" store_all \
        --grid 1 --block 64 --arg "out:$tmp/s.bin:64" 2>&1)
    [ $? -eq 1 ] || fail "$cpu debug fault: exit status"
    sa=$(addr_of store_all global_store_dword)
    expect "$cpu debug" "memory fault in kernel store_all, workgroup (0,0,0), wave 0"
    expect "$cpu debug" "=> $sa: $(inst_of store_all global_store_dword)"
    expect "$cpu debug" "* wave 0 of (0,0,0): faulted    pc $sa exec 0xffffffffffffffff, $(grep -c . <<<"$(awk -v k='<store_all>:' '$2 == k {f=1; next} f {print} f && /global_store/ {exit}' <<<"$dis")") insts"
    expect "$cpu debug" "v0[16] = 0x40000000 (1073741824, 2)" # the low dword of 16 << 26
    expect "$cpu debug" "(the launch ends when you continue)"
done
finish test_fault_reports
