#!/usr/bin/env bash
# test_rdna_disasm.sh - gfx1100 (RDNA3) and gfx1201 (RDNA4) code objects built by clang-22 at -O0
# and -O2, wave32 and wave64 (-mwavefrontsize64): `gfxemu disasm FILE.co` must print every
# instruction of the formats gfxemu decodes on RDNA (SOP1/SOP2/SOPK/SOPC/SOPP/SMEM, VOP1/VOP2/VOPC
# in their e32, literal, DPP16 and DPP8 forms, VOP3 with its literal/DPP forms, VOPD, and the
# memory formats DS, FLAT/GLOBAL/SCRATCH, MUBUF/MTBUF (gfx11) and VFLAT/VBUFFER (gfx12)) exactly
# as `llvm-objdump-22 -d` does, line for line;
# lines of the other formats (printed as .long words for now; gfxemu may then read a later word
# of such an instruction as one of its own) are counted per format and listed as gaps, and
# never printed as a different instruction at the address where llvm-objdump starts one.  The
# listings' headers and labels must agree too.  `gfxemu info` names the target and says the
# kernels cannot run; `gfxemu run` on such an object fails with that message, never runs it.
. "$(dirname "$0")/lib.sh"
tmp="$BUILD/test-data/rdna_disasm"
rm -rf "$tmp" && mkdir -p "$tmp"

# compare.py LIST: for each line "WANT GOT CPU" of LIST, llvm-objdump's and gfxemu's listings
# keyed by address (one Python run for all of them: a start per object cost more than the
# comparison).  Prints "ok NAME: " and the gap counts by format, or "FAIL NAME: " with the
# offending lines when an instruction of a decoded format differs or is missing, or an
# undecoded one is printed as something other than .long.
cat >"$tmp/compare.py" <<'PY'
import os, re, sys
LINE = re.compile(r"^\t(.*[^ ]) *// ([0-9A-F]+): ([0-9A-F]+)")

def keyed(path):
    out = {}
    for l in open(path):
        m = LINE.match(l)
        if m:
            out[m.group(2)] = (m.group(1), int(m.group(3), 16))
    return out

def fmt(w, g12):
    """The RDNA format of a first word (RDNA3/RDNA4 ISA "Microcode formats"), as decode.c."""
    if w >> 31 == 0:
        return "VOP1" if w >> 25 == 0x3f else "VOPC" if w >> 25 == 0x3e else "VOP2"
    if w >> 30 == 2:
        return {0x17d: "SOP1", 0x17e: "SOPC", 0x17f: "SOPP"}.get(w >> 23,
                                                                 "SOPK" if w >> 28 == 0xb else "SOP2")
    top = {0xcc: "VOP3P", 0xcd: "VINTERP", 0xce: "LDSDIR"}.get(w >> 24)
    if top:
        return top
    return {0x31: "VBUFFER", 0x32: "VOPD", 0x34: "VIMAGE" if g12 else "?", 0x35: "VOP3",
            0x36: "DS", 0x37: "FLAT", 0x38: "MUBUF", 0x39: "VSAMPLE", 0x3a: "MTBUF",
            0x3b: "VFLAT", 0x3c: "MIMG", 0x3d: "SMEM", 0x3e: "EXP"}.get(w >> 26, "?")

DECODED = {"SOP1", "SOP2", "SOPK", "SOPC", "SOPP", "SMEM", "VOP1", "VOP2", "VOPC", "VOP3", "VOPD",
           "DS", "FLAT", "MUBUF", "MTBUF", "VFLAT", "VBUFFER"}


def compare(want, got, cpu):
    kw, kg = keyed(want), keyed(got)
    bad, gaps, checked, mem = [], {}, 0, 0
    # Headers and labels (every line not starting with a tab) agree.
    hw, hg = ([l for l in open(p) if not l.startswith("\t")] for p in (want, got))
    if hw != hg:
        d = [(a, b) for a, b in zip(hw, hg) if a != b] or [(len(hw), len(hg))]
        bad.append("headers or labels differ: %r" % (d[:3],))
    for a, (t, w) in sorted(kw.items()):
        f = fmt(w, cpu == "gfx1201")
        g = kg.get(a, ("<nothing>", 0))[0]
        if f in DECODED:
            checked += 1
            mem += f in ("DS", "FLAT", "MUBUF", "MTBUF", "VFLAT", "VBUFFER")
            if g != t:
                bad.append("%s %s: llvm %r, gfxemu %r" % (a, f, t, g))
        elif g != t:
            if not g.startswith(".long"):
                bad.append("%s %s (undecoded): llvm %r, gfxemu %r" % (a, f, t, g))
            gaps[f] = gaps.get(f, 0) + 1
    out = "%d lines compared (%d memory), gaps: %s" % (
        checked, mem, " ".join("%s %d" % x for x in sorted(gaps.items())) or "none")
    if "rdna_mem" in want and mem < 10:  # the memory kernels must exercise the memory formats
        bad.append("only %d memory instructions compared" % mem)
    if checked < 5 or bad:
        return False, out + " | " + (" | ".join(bad[:5]) or "too few decoded lines")
    return True, out


for item in open(sys.argv[1]):
    want, got, cpu = item.split()
    try:
        ok, msg = compare(want, got, cpu)
    except OSError as e:
        ok, msg = False, str(e)
    print("%s %s: %s" % ("ok" if ok else "FAIL", os.path.basename(got)[:-4], msg))
PY
: >"$tmp/list"

# rdna_mem.cl: LDS, flat, global atomics, a scratch array and buffer resource loads/stores
for src in examples/vecadd.cl tests/load/kernels.cl tests/kernels/basic.cl tests/kernels/intops.cl \
    tests/kernels/math.cl tests/tools/rdna_mem.cl; do
    for cpu in gfx1100 gfx1201; do
        for opt in O0 O2; do
            for wave in 32 64; do
                co="$tmp/$(basename "$src" .cl)_${cpu}_${opt}_w$wave.co"
                flags=()
                [ "$wave" = 64 ] && flags=(-mwavefrontsize64)
                if ! compile_kernel "$src" "$cpu" "$opt" "$co" "${flags[@]}"; then
                    fail "clang-22 failed on $src for $cpu -$opt wave$wave"
                    continue
                fi
                llvm_objdump "$co.want" -d --mcpu="$cpu" "$co"
                if ! "$GFXEMU" disasm "$co" >"$co.got" 2>&1; then
                    fail "$co: gfxemu disasm failed: $(head -n 2 "$co.got")"
                    continue
                fi
                echo "$co.want $co.got $cpu" >>"$tmp/list"
            done
        done
    done
done

# every listing compared in one Python run (instructions, headers and labels); each object must
# have its line (checked without a process per object: each start costs ~10 ms of system time)
python3 "$tmp/compare.py" "$tmp/list" >"$tmp/compared" || fail "compare.py failed"
declare -A compared=()
while read -r status line; do
    compared["${line%%: *}"]=1
    if [ "$status" = ok ]; then echo "$line"; else fail "$line"; fi
done <"$tmp/compared"
while read -r want _ _; do
    name=${want%.want}
    name=${name##*/}
    [ -n "${compared["$name"]:-}" ] || fail "${want%.want}: not compared"
done <"$tmp/list"

co="$tmp/vecadd_gfx1100_O2_w32.co"
if [ -f "$co" ]; then
    # RDNA kernels run now (src/exec/rdna.c); info describes them like any other kernel
    out=$("$GFXEMU" info "$co" 2>&1) || fail "gfxemu info on a gfx1100 object failed: $out"
    echo "$out" | grep -q "^$co: gfx1100 code object, 1 kernel$" || fail "info header: $out"
    echo "$out" | grep -q "not implemented" && fail "info still refuses the kernel: $out"
fi
finish test_rdna_disasm
