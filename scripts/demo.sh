#!/usr/bin/env bash
# make demo: compile examples/vecadd.cl for gfx950 with clang-22, show a few instructions, run it
# on gfxemu with 1000 elements, and check every result against a + b computed here.
set -euo pipefail
BUILD=${BUILD:-build}
G=$BUILD/gfxemu
D=$BUILD/demo
mkdir -p "$D"
echo "== compile examples/vecadd.cl for gfx950 (clang-22 -O2)"
clang-22 -x cl -cl-std=CL2.0 -target amdgcn-amd-amdhsa -mcpu=gfx950 -nogpulib -O2 \
    -c examples/vecadd.cl -o "$D/vecadd.o"
ld.lld-22 -shared "$D/vecadd.o" -o "$D/vecadd.co"
echo "== gfxemu disasm (first lines)"
"$G" disasm "$D/vecadd.co" | sed -n '1,14p'
echo "   ..."
N=1000
python3 - "$D" "$N" <<'PY'
import struct, sys
d, n = sys.argv[1], int(sys.argv[2])
open(d + "/a.bin", "wb").write(struct.pack("<%df" % n, *[i * 0.5 for i in range(n)]))
open(d + "/b.bin", "wb").write(struct.pack("<%df" % n, *[1000.0 - i for i in range(n)]))
PY
NGROUPS=$(( (N + 63) / 64 ))
echo "== gfxemu run $D/vecadd.co vecadd --grid $NGROUPS --block 64 ... --stats"
"$G" run "$D/vecadd.co" vecadd --grid "$NGROUPS" --block 64 \
    --arg "in:$D/a.bin" --arg "in:$D/b.bin" --arg "out:$D/c.bin:$((4 * N))" --arg "i32:$N" --stats
python3 - "$D" "$N" <<'PY'
import struct, sys
d, n = sys.argv[1], int(sys.argv[2])
a = struct.unpack("<%df" % n, open(d + "/a.bin", "rb").read())
b = struct.unpack("<%df" % n, open(d + "/b.bin", "rb").read())
c = struct.unpack("<%df" % n, open(d + "/c.bin", "rb").read())
ok = sum(1 for i in range(n) if c[i] == struct.unpack("<f", struct.pack("<f", a[i] + b[i]))[0])
print("c[0..3] =", ", ".join("%g" % v for v in c[:4]), "...  c[%d] = %g" % (n - 1, c[n - 1]))
print("verified: %d of %d elements equal a[i] + b[i]" % (ok, n))
sys.exit(0 if ok == n else 1)
PY
