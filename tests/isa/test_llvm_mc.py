#!/usr/bin/env python3
"""gfxemu's `disasm --raw` against llvm-mc-22 -disassemble itself.

The other ISA tests use LLVM's C API (libLLVM.so.22.1) as the oracle; this one ties that oracle to
the command-line tool users know.  Seeded random words with encoding prefixes; the ones LLVM
accepts (sizes taken from the C API) are laid end to end in a flat file, which both
`gfxemu disasm --raw` and llvm-mc-22 (one instruction per input line) disassemble; the texts must
agree line by line.  SEED= reproduces a run, N= sets the number of instructions per target."""
import os
import random
import struct
import subprocess
import sys

sys.path.insert(0, os.path.join(os.path.dirname(__file__), "..", "..", "tools"))
from isagen.llvm import Llvm, CRASH  # noqa: E402

GFXEMU = os.environ.get("GFXEMU", "build/gfxemu")
BUILD = os.environ.get("BUILD", "build")
N = int(os.environ.get("N", "5000"))
seed = int(os.environ.get("SEED", random.randrange(1 << 30)))
print("test_llvm_mc: SEED=%d N=%d" % (seed, N))
rng = random.Random(seed)

PREFIXES = [  # (mask, value) of the first word, as in tests/isa/test_sweep.c
    (0xc0000000, 0x80000000), (0xf0000000, 0xb0000000), (0xff800000, 0xbe800000),
    (0xff800000, 0xbf000000), (0xff800000, 0xbf800000), (0xfc000000, 0xc0000000),
    (0x80000000, 0x00000000), (0xfe000000, 0x7e000000), (0xfe000000, 0x7c000000),
    (0xfc000000, 0xd0000000), (0xff800000, 0xd3800000), (0xfc000000, 0xd8000000),
    (0xfc000000, 0xdc000000), (0xfc000000, 0xe0000000), (0xfc000000, 0xe8000000),
    (0xfc000000, 0xf0000000),  # MIMG (gfx90a)
]


# RDNA (gfx1100/gfx1201): some formats gfxemu decodes there, SOP1/SOP2/SOPK/SOPC/SOPP, SMEM
# (111101), VOP3 (110101) and VOPD (110010); the others are covered by tests/isa/test_sweep.c.
PREFIXES_RDNA = [
    (0xc0000000, 0x80000000), (0xf0000000, 0xb0000000), (0xff800000, 0xbe800000),
    (0xff800000, 0xbf000000), (0xff800000, 0xbf800000), (0xfc000000, 0xf4000000),
    (0xfc000000, 0xd4000000), (0xfc000000, 0xc8000000),
]


def case(arch):
    w = [rng.getrandbits(32) for _ in range(4)]
    m, v = rng.choice(PREFIXES_RDNA if arch.startswith("gfx1") else PREFIXES)
    w[0] = (w[0] & ~m) | v
    return tuple(w)


llvm = Llvm()
failed = 0
for arch in ("gfx950", "gfx942", "gfx90a", "gfx1100", "gfx1201"):
    insts = []
    while len(insts) < N:
        batch = [case(arch) for _ in range(4 * N)]
        for w, (size, text) in zip(batch, llvm.dis_many(arch, batch)):
            if size and text != CRASH and len(insts) < N:
                insts.append(struct.pack("<4I", *w)[:size])
    path = os.path.join(BUILD, "test_llvm_mc_%s.bin" % arch)
    with open(path, "wb") as f:
        f.write(b"".join(insts))
    ours = subprocess.run([GFXEMU, "disasm", "--arch", arch, "--raw", path],
                          capture_output=True, text=True)
    if ours.returncode != 0:
        print("FAIL %s: gfxemu disasm --raw exited %d: %s" % (arch, ours.returncode, ours.stderr))
        failed += 1
        continue
    mc_in = "\n".join(" ".join("0x%02x" % b for b in i) for i in insts) + "\n"
    mc = subprocess.run(["llvm-mc-22", "-arch=amdgcn", "-mcpu=" + arch, "-disassemble"],
                        input=mc_in, capture_output=True, text=True)
    theirs = [l.strip() for l in mc.stdout.splitlines()
              if l.strip() and not l.lstrip().startswith(".")]
    mine = [l.strip() for l in ours.stdout.splitlines()]
    bad = 0
    if len(theirs) != len(insts):
        print("FAIL %s: llvm-mc printed %d lines for %d instructions" % (arch, len(theirs), len(insts)))
        bad += 1
    for i, (a, b) in enumerate(zip(mine, theirs)):
        # llvm-mc does not print the printer's annotations (" ; Warning: ..."); the raw listing
        # keeps them, as llvm-objdump does.
        a = a.split(" ; ")[0].rstrip()
        if a != b:
            bad += 1
            if bad <= 10:
                print("MISMATCH %s %s\n  llvm-mc: %s\n  gfxemu : %s" % (arch, insts[i].hex(), b, a))
    if len(mine) != len(insts):
        print("FAIL %s: gfxemu printed %d lines for %d instructions" % (arch, len(mine), len(insts)))
        bad += 1
    print("%s: %d instructions compared with llvm-mc-22, %d mismatches" % (arch, len(insts), bad))
    failed += bad
sys.exit(1 if failed else 0)
