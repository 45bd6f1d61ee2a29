"""`gfxemu as` on clang-22 -S output that needs a GOT or calls a global function.

clang reaches a program-scope global that could be preempted (default visibility) through
`s_getpc_b64` + `sym@gotpcrel32@lo+4` / `@hi+12` and an `s_load_dwordx2` from the GOT slot, and
calls non-inlined functions with `s_swappc_b64` to a `.globl` symbol.  Each kernel is compiled
with clang-22 -S (-O0 and -O2, gfx950 and gfx942), assembled by gfxemu (gfxemu.load_asm), run,
and its output checked against the host arithmetic written here.  The GOT's layout is checked
against what ld.lld-22 makes of the same kernel: a .got section right after .dynamic, one 8-byte
slot per symbol, each with a dynamic relocation to the symbol's address (R_AMDGPU_RELATIVE64 for
gfxemu, whose globals are STV_PROTECTED; lld uses R_AMDGPU_ABS64 against the default-visibility
dynamic symbol)."""
import array
import os
import re
import subprocess
import unittest

import gfxtest
import gfxemu

GOT_CL = r"""
__attribute__((visibility("default"))) __global int counter;
__attribute__((visibility("default"))) __global int table[4] = {10, 20, 30, 40};

__attribute__((noinline)) int add_counter(int v) { return v + counter; }

__attribute__((noinline)) void store(__global int *out, int i, int v) {
    out[i] = v + table[i & 3];
}

__kernel void k(__global int *out, int v) {
    int i = (int)__builtin_amdgcn_workitem_id_x() + 64 * (int)__builtin_amdgcn_workgroup_id_x();
    if (i == 0)
        counter = 5;
    __builtin_amdgcn_s_barrier();
    store(out, i, add_counter(v) + i);
}
"""


def clang_s(source, name, arch, opt):
    base = os.path.join(gfxtest.TMP, "%s-%s%s" % (name, arch, opt))
    with open(base + ".cl", "w") as f:
        f.write(source)
    gfxtest.run(gfxtest.CLANG + ["-mcpu=" + arch, opt, "-S", base + ".cl", "-o", base + ".s"])
    with open(base + ".s") as f:
        return base, f.read()


def readelf(path):
    return subprocess.run(["llvm-readelf-22", "-r", "-S", "-s", path], capture_output=True,
                          text=True, check=True).stdout


def sections(text):
    """name -> (address, size) from llvm-readelf -S, in the file's order."""
    out = {}
    for m in re.finditer(r"\]\s+(\S+)\s+\S+\s+([0-9a-f]{16})\s+[0-9a-f]+\s+([0-9a-f]+)", text):
        out[m.group(1)] = (int(m.group(2), 16), int(m.group(3), 16))
    return out


class GotTest(unittest.TestCase):
    def test_got_and_calls_run(self):
        for arch in ("gfx950", "gfx942"):
            for opt in ("-O0", "-O2"):
                with self.subTest(arch=arch, opt=opt):
                    base, asm = clang_s(GOT_CL, "got", arch, opt)
                    self.assertIn("counter@gotpcrel32@lo+4", asm)
                    self.assertIn("s_swappc_b64", asm)
                    n, v = 128, 1000
                    out = array.array("i", [-1] * n)
                    gfxemu.load_asm(asm, arch).kernel("k").launch(2, 64, out, gfxemu.i32(v))
                    # workgroup 0 sets counter before its barrier; workgroup 1 may run before it
                    # (any order is allowed), so only workgroup 0's values are fixed
                    want = [v + 5 + i + (10, 20, 30, 40)[i & 3] for i in range(64)]
                    self.assertEqual(list(out[:64]), want)
                    for i in range(64, n):
                        self.assertIn(out[i] - (v + i + (10, 20, 30, 40)[i & 3]), (0, 5))

    def test_got_layout_as_lld(self):
        base, asm = clang_s(GOT_CL, "gotlayout", "gfx950", "-O0")
        ours = base + "-gfxemu.co"
        with open(ours, "wb") as f:
            f.write(gfxemu.assemble(asm, "gfx950"))
        gfxtest.run(gfxtest.CLANG + ["-mcpu=gfx950", "-O0", "-c", base + ".cl", "-o", base + ".o"])
        gfxtest.run(["ld.lld-22", "-shared", base + ".o", "-o", base + ".co"])
        mine, lld = readelf(ours), readelf(base + ".co")
        ms, ls = sections(mine), sections(lld)
        for secs, what in ((ms, "gfxemu"), (ls, "lld")):
            names = list(secs)
            self.assertIn(".got", names, what)
            self.assertEqual(names[names.index(".got") - 1], ".dynamic", what)
            self.assertEqual(secs[".got"][0] % 8, 0, what)
        self.assertEqual(ms[".got"][1], ls[".got"][1])  # one slot per symbol: counter, table
        self.assertEqual(ms[".got"][1], 16)
        # gfxemu: each slot has a RELATIVE64 whose addend is its symbol's address
        syms = {m.group(2): int(m.group(1), 16)
                for m in re.finditer(r"\d+: ([0-9a-f]{16})\s+\d+\s+OBJECT\s+GLOBAL\s+\S+\s+\S+\s+(\w+)$",
                                     mine, re.M)}
        relocs = {int(m.group(1), 16): int(m.group(2), 16)
                  for m in re.finditer(r"^([0-9a-f]{16})\s+[0-9a-f]+\s+R_AMDGPU_RELATIVE64\s+([0-9a-f]+)$",
                                       mine, re.M)}
        got = ms[".got"][0]
        self.assertEqual(sorted([relocs.get(got), relocs.get(got + 8)]),
                         sorted([syms["counter"], syms["table"]]))
        # lld: the same slots, as ABS64 against the two symbols
        self.assertEqual(len(re.findall(r"R_AMDGPU_ABS64\s+[0-9a-f]+\s+(counter|table)", lld)), 2)


if __name__ == "__main__":
    gfxtest.main()
