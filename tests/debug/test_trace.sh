#!/usr/bin/env bash
# test_trace.sh - `gfxemu run --trace/--timeline/--profile` on clang-22 kernels: the trace has
# one line per wave-instruction (as many as --stats counts), its register values match a * x + y
# worked out here, the limit and filters hold; the timeline is valid trace-event JSON whose spans
# and counters add up to the --stats counts; the profile's counts add up too; results are the
# same as without tracing.
. "$(dirname "$0")/lib.sh"
tmp="$BUILD/test-data/trace"
rm -rf "$tmp" && mkdir -p "$tmp"
axpy_inputs "$tmp" 128
stat() { sed -nE "s/.*\"$1\": ([0-9]+).*/\1/p" "$2"; }

for cpu in gfx950 gfx942; do
    co="$tmp/k_$cpu.co"
    compile_kernel tests/debug/kernels.cl "$cpu" O2 "$co" || { fail "compiling for $cpu"; continue; }

    # swap: 2 workgroups of 2 waves, one barrier each
    "$GFXEMU" run "$co" swap --grid 2 --block 128 --arg "out:$tmp/plain.bin:1024" ||
        fail "$cpu: plain run"
    "$GFXEMU" run "$co" swap --grid 2 --block 128 --arg "out:$tmp/traced.bin:1024" \
        --trace "$tmp/t.txt" --timeline "$tmp/tl.json" --profile --profile-top 1000 \
        --stats 2>"$tmp/err.txt" || fail "$cpu: traced run: $(cat "$tmp/err.txt")"
    cmp -s "$tmp/plain.bin" "$tmp/traced.bin" || fail "$cpu: traced results differ"
    grep '^{' "$tmp/err.txt" >"$tmp/stats.json"
    n=$(stat wave_insts "$tmp/stats.json")
    [ "$(grep -vc '^#' "$tmp/t.txt")" = "$n" ] || fail "$cpu: $(grep -vc '^#' "$tmp/t.txt") trace lines, $n wave-instructions"
    for w in "0,0,0 wave 0" "0,0,0 wave 1" "1,0,0 wave 0" "1,0,0 wave 1"; do
        [ "$(grep -c "^wg $w pc " "$tmp/t.txt")" = $((n / 4)) ] || fail "$cpu: wg $w has not a quarter of the lines"
    done
    python3 - "$tmp/tl.json" "$tmp/stats.json" "$tmp/err.txt" <<'PY' || fail "$cpu: timeline/profile"
import json, sys
tl = json.load(open(sys.argv[1]))
st = json.load(open(sys.argv[2]))
ev = tl["traceEvents"]
errors = []
spans = [e for e in ev if e["ph"] == "X"]
if len(spans) != 8:  # 4 waves x (start..barrier, barrier..end)
    errors.append(f"{len(spans)} spans")
if sum(e["dur"] for e in spans) != st["wave_insts"]:
    errors.append("span durations do not add up to wave_insts")
if sorted(e["name"] for e in spans) != ["run to barrier"] * 4 + ["run to end"] * 4:
    errors.append("span names " + str(sorted(e["name"] for e in spans)))
threads = [e for e in ev if e["ph"] == "M" and e["name"] == "thread_name"]
if len({(e["pid"], e["tid"]) for e in threads}) != 4 or len({e["tid"] for e in threads}) != 4:
    errors.append("not 4 distinct wave tracks")
counters = [e for e in ev if e["ph"] == "C"]
last = counters[-1]["args"]
for c in ("salu", "valu", "vmem", "smem", "lds", "mfma", "branch", "other"):
    if last[c] != st[c]:
        errors.append(f"counter {c} {last[c]} != stats {st[c]}")
if counters[-1]["ts"] != st["wave_insts"]:
    errors.append("last counter not at the end")
if any(e["ph"] == "i" for e in ev):
    errors.append("a fault event in a clean run")
# the profile: one line per pc, counts add up to wave_insts, every pc ran 4 times (4 waves)
rows = [l.split() for l in open(sys.argv[3]) if l[:12].strip().isdigit()]
if sum(int(r[0]) for r in rows) != st["wave_insts"] or any(r[0] != "4" for r in rows):
    errors.append("profile counts " + str([r[0] for r in rows]))
sys.exit("; ".join(errors) or None)
PY

    # limits and filters
    "$GFXEMU" run "$co" swap --grid 2 --block 128 --arg "zero:1024" --trace "$tmp/l.txt" \
        --trace-limit 7 || fail "$cpu: limited run"
    [ "$(grep -vc '^#' "$tmp/l.txt")" = 7 ] || fail "$cpu: --trace-limit 7 gave $(grep -vc '^#' "$tmp/l.txt")"
    grep -qx '# trace limit of 7 lines reached' "$tmp/l.txt" || fail "$cpu: no limit note"
    "$GFXEMU" run "$co" swap --grid 2 --block 128 --arg "zero:1024" --trace "$tmp/f.txt" \
        --trace-wg 1 --trace-wave 1 || fail "$cpu: filtered run"
    [ "$(grep -vc '^#' "$tmp/f.txt")" = $((n / 4)) ] && [ "$(grep -c '^wg 1,0,0 wave 1 ' "$tmp/f.txt")" = $((n / 4)) ] ||
        fail "$cpu: --trace-wg 1 --trace-wave 1"
    dis=$("$GFXEMU" disasm "$co")
    bar=$(awk '$2 == "<swap>:" {f=1; next} /^$/ {f=0} f && /s_barrier/ {sub(/.*\/\/ 0*/, ""); sub(/:.*/, ""); print tolower($0); exit}' <<<"$dis")
    "$GFXEMU" run "$co" swap --grid 2 --block 128 --arg "zero:1024" --trace "$tmp/p.txt" \
        --trace-pc "0x$bar:0x$(printf '%x' $((0x$bar + 4)))" || fail "$cpu: pc-filtered run"
    [ "$(grep -vc '^#' "$tmp/p.txt")" = 4 ] && [ "$(grep -c " pc 0x$bar exec 0xffffffffffffffff  s_barrier |$" "$tmp/p.txt")" = 4 ] ||
        fail "$cpu: --trace-pc: $(cat "$tmp/p.txt")"

    # axpy: the instruction that writes the stored register shows a * x + y in every lane
    "$GFXEMU" run "$co" axpy --grid 2 --block 64 --arg "out:$tmp/o.bin:512" --arg "in:$tmp/x.bin" \
        --arg "in:$tmp/y.bin" --arg i32:5 --trace "$tmp/a.txt" || fail "$cpu: axpy trace"
    python3 - "$tmp/a.txt" <<'PY' || fail "$cpu: axpy trace values"
import re, sys
lines = [l for l in open(sys.argv[1]) if not l.startswith("#")]
errors = []
for wg in (0, 1):
    mine = [l for l in lines if l.startswith(f"wg {wg},0,0 wave 0 ")]
    store = [l for l in mine if "global_store_dword" in l][0]
    reg = re.search(r"global_store_dword [^,]+, (v\d+),", store).group(1)
    writer = [l for l in mine[:mine.index(store)] if f" {reg}={{" in l][-1]
    vals = [int(v, 16) for v in re.search(reg + r"=\{([^}]*)\}", writer).group(1).split()]
    want = [5 * (64 * wg + l) + 1000 + 64 * wg + l for l in range(64)]
    if vals != want:
        errors.append(f"wg {wg}: {writer[:120]}")
    if "exec 0xffffffffffffffff" not in writer:
        errors.append("exec missing")
sys.exit("; ".join(errors) or None)
PY
done

# a fault is an instant event on the faulting wave's track; the JSON is complete
co="$tmp/k_gfx950.co"
"$GFXEMU" run "$co" illegal --grid 1 --block 64 --arg "zero:64" --timeline "$tmp/fault.json" \
    --trace "$tmp/fault.txt" 2>/dev/null && fail "illegal: exit 0"
python3 - "$tmp/fault.json" <<'PY' || fail "fault timeline"
import json, sys
ev = json.load(open(sys.argv[1]))["traceEvents"]
f = [e for e in ev if e["ph"] == "i"]
assert len(f) == 1 and f[0]["name"] == "illegal instruction", f
assert f[0]["args"]["instruction"] == "<illegal 0xf4080500>", f
assert [e["name"] for e in ev if e["ph"] == "X"] == ["run to fault"], ev
PY
tail -1 "$tmp/fault.txt" | grep -q '<illegal 0xf4080500> |$' || fail "the trace ends at the illegal word"
"$GFXEMU" run "$co" illegal --grid 1 --block 64 --arg "zero:64" --trace /nonexistent/t.txt 2>"$tmp/e.txt"
[ "$(cat "$tmp/e.txt")" = "gfxemu: error: cannot write the trace to /nonexistent/t.txt" ] ||
    fail "unwritable trace: $(cat "$tmp/e.txt")"
finish test_trace
