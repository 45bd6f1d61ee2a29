#!/usr/bin/env python3
"""Every row of src/isa/gen/asm_alias.inc (an old mnemonic llvm-mc-22 accepts on a target, the
op it names and a sample line written with the old name): `gfxemu as --raw` of the sample lines
must give llvm-mc-22's bytes line by line, and llvm-mc-22 must print the row's op for each.  A row
that names the wrong op makes gfxemu encode another op (or refuse the line) and fails here.
Errors on a line with an old name quote the name as written."""
import os
import re
import subprocess
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from clitest import GFXEMU, check, finish, scratch  # noqa: E402

ROOT = os.path.abspath(os.path.join(os.path.dirname(__file__), "..", ".."))
ROW = re.compile(r'^ASM_ALIAS\(ISA_(GFX\w+), "(\w+)", "(\w+)"\) /\* (.*) \*/$', re.M)
rows = ROW.findall(open(os.path.join(ROOT, "src", "isa", "gen", "asm_alias.inc")).read())
check(len(rows) > 100, "asm_alias.inc holds %d rows" % len(rows))
tmp = scratch("as_alias")

for arch in sorted({r[0] for r in rows}):
    cpu = arch.lower()
    mine = [r for r in rows if r[0] == arch]
    for _, alias, canon, line in mine:
        check(line.split(" ")[0].startswith(alias),
              "%s: sample '%s' is not under %s" % (cpu, line, alias))
    src = os.path.join(tmp, cpu + ".s")
    with open(src, "w") as f:
        f.write("".join("\t%s\n" % r[3] for r in mine))
    # llvm-mc-22: per line the printed mnemonic and the encoding
    p = subprocess.run(["llvm-mc-22", "-arch=amdgcn", "-mcpu=" + cpu, "-show-encoding", src],
                       capture_output=True, text=True)
    check(p.returncode == 0, "%s: llvm-mc-22 rejects a sample: %s" % (cpu, p.stderr[:500]))
    ref = re.findall(r"^\s*(\S+)[^;\n]*; encoding: \[([^\]]*)\]", p.stdout, re.M)
    if len(ref) != len(mine):
        check(False, "%s: llvm-mc-22 gave %d encodings for %d lines" % (cpu, len(ref), len(mine)))
        continue
    out = os.path.join(tmp, cpu + ".bin")
    g = subprocess.run([GFXEMU, "as", "--arch", cpu, "--raw", src, "-o", out],
                       capture_output=True, text=True)
    if g.returncode != 0:
        check(False, "%s: gfxemu as: %s" % (cpu, g.stderr.strip()))
        continue
    data = open(out, "rb").read()
    pos = 0
    for (_, alias, canon, line), (printed, enc) in zip(mine, ref):
        want = bytes(int(b, 16) for b in enc.split(","))
        check(re.sub(r"(_e32|_e64)$", "", printed) == canon,
              "%s: llvm-mc-22 prints %s for '%s', the table says %s" % (cpu, printed, line, canon))
        got = data[pos:pos + len(want)]
        if got != want:
            check(False, "%s: '%s': gfxemu %s, llvm-mc-22 %s" % (cpu, line, got.hex(), want.hex()))
            break  # the following lines are out of step
        pos += len(want)
    else:
        check(pos == len(data), "%s: gfxemu wrote %d bytes, llvm-mc-22 %d" % (cpu, len(data), pos))
    print("test_as_alias: %s: %d aliases" % (cpu, len(mine)))

# errors quote the name as written; an unknown name stays unknown
for text, want in (("v_add_u32 v0, v1, s[0:1]", "invalid operand for 'v_add_u32'"),
                   ("s_load_dword s0, s[0:1]", "too few operands for 's_load_dword'"),
                   ("v_bogus_u32 v0, v1, v2", "unknown instruction 'v_bogus_u32' on gfx1100")):
    src = os.path.join(tmp, "bad.s")
    with open(src, "w") as f:
        f.write(text + "\n")
    g = subprocess.run([GFXEMU, "as", "--arch", "gfx1100", "--raw", src, "-o", src + ".bin"],
                       capture_output=True, text=True)
    check(g.returncode == 1 and want in g.stderr,
          "'%s': want an error with \"%s\", got: %s" % (text, want, g.stderr.strip()))

finish("test_as_alias")
