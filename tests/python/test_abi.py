"""The binding's ctypes structures (python/gfxemu/_native.py) against include/gfxemu.h.

The C side is measured, not assumed: the fields of every struct the binding mirrors are read
from the header, and a small C program generated here (compiled with $CC, default gcc, like the
library) prints sizeof, _Alignof and each field's offsetof and size.  Field names and order,
offsets, sizes and the struct sizes must match ctypes' exactly, so a field added, removed,
renamed or retyped on one side only fails this test."""
import ctypes
import os
import re
import subprocess
import tempfile
import unittest

import gfxtest
from gfxemu import _native as N

HEADER = os.path.join(gfxtest.ROOT, "include", "gfxemu.h")

# ctypes class in _native.py -> typedef in gfxemu.h.  Every ctypes.Structure of _native.py must
# be listed here (a new one without its C counterpart fails test_every_structure_is_mapped).
MIRRORS = {
    "Symbol": "gfx_symbol",
    "ArgInfo": "gfx_arg_info",
    "KernelInfo": "gfx_kernel_info",
    "LaunchOptions": "gfx_launch_options",
    "Stats": "gfx_stats",
    "FaultRecord": "gfx_fault",
    "RaceRecord": "gfx_race",
    "Counters": "gfx_counters",
    "AttOptions": "gfx_att_options",
    "MemcheckError": "gfx_memcheck_error",
}


def header_structs(text):
    """{typedef name: [field names in order]} for the header's `typedef struct { ... } name;`
    definitions (one declarator list per member line, arrays and pointers allowed; a nested
    struct or union has no place in the public API and is rejected)."""
    text = re.sub(r"/\*.*?\*/", " ", text, flags=re.S)
    text = re.sub(r"//[^\n]*", " ", text)
    out = {}
    for m in re.finditer(r"typedef\s+struct\s*\w*\s*\{(.*?)\}\s*(\w+)\s*;", text, flags=re.S):
        body, name = m.group(1), m.group(2)
        if "{" in body:
            raise ValueError("%s: nested struct/union in the public header" % name)
        fields = []
        for decl in body.split(";"):
            decl = " ".join(decl.split())
            if not decl:
                continue
            declarators = decl.split(",")
            # the first declarator follows the type: its name is the last identifier
            first = re.sub(r"\[[^\]]*\]", "", declarators[0])
            fields.append(re.findall(r"\w+", first)[-1])
            for d in declarators[1:]:
                fields.append(re.findall(r"\w+", re.sub(r"\[[^\]]*\]", "", d))[-1])
        out[name] = fields
    return out


def measure_c(structs):
    """{typedef: (sizeof, alignof, [(field, offset, size)])} from a compiled C program."""
    lines = ['#include "gfxemu.h"', "#include <stddef.h>", "#include <stdio.h>",
             "int main(void) {"]
    for t, fields in structs.items():
        lines.append('    printf("S %s %%zu %%zu\\n", sizeof(%s), _Alignof(%s));' % (t, t, t))
        for f in fields:
            lines.append('    printf("F %s %s %%zu %%zu\\n", offsetof(%s, %s), '
                         "sizeof(((%s *)0)->%s));" % (t, f, t, f, t, f))
    lines += ["    return 0;", "}"]
    with tempfile.TemporaryDirectory(prefix="gfxemu-abi-") as d:
        src, exe = os.path.join(d, "abi.c"), os.path.join(d, "abi")
        with open(src, "w") as f:
            f.write("\n".join(lines) + "\n")
        cc = os.environ.get("CC", "gcc")
        gfxtest.run([cc, "-std=c11", "-Wall", "-Werror", "-I", os.path.dirname(HEADER), src,
                     "-o", exe])
        out = subprocess.run([exe], capture_output=True, text=True, check=True).stdout
    res = {}
    for line in out.splitlines():
        w = line.split()
        if w[0] == "S":
            res[w[1]] = (int(w[2]), int(w[3]), [])
        else:
            res[w[1]][2].append((w[2], int(w[3]), int(w[4])))
    return res


class Abi(unittest.TestCase):
    @classmethod
    def setUpClass(cls):
        with open(HEADER) as f:
            cls.fields = header_structs(f.read())
        cls.c = measure_c({t: cls.fields[t] for t in MIRRORS.values() if t in cls.fields})

    def test_parser_sees_known_fields(self):
        # guards the header reader itself (a comma list, an array, a typedef'd field type):
        # fields worked out by reading gfxemu.h
        f = self.fields
        self.assertEqual(f["gfx_launch_options"][:2], ["max_insts", "dynamic_lds"])
        self.assertEqual(f["gfx_arg_info"][4:7], ["offset", "size", "kind"])
        self.assertEqual(f["gfx_fault"][:3], ["kind", "kernel", "workgroup"])

    def test_every_structure_is_mapped(self):
        py = sorted(n for n, v in vars(N).items()
                    if isinstance(v, type) and issubclass(v, ctypes.Structure))
        self.assertEqual(py, sorted(MIRRORS))
        for t in MIRRORS.values():
            self.assertIn(t, self.fields, "%s not found in gfxemu.h" % t)

    def test_layouts_match(self):
        for py_name, t in MIRRORS.items():
            with self.subTest(struct=t):
                cls = getattr(N, py_name)
                size, align, cfields = self.c[t]
                py_fields = [f[0] for f in cls._fields_]
                self.assertEqual(py_fields, [f[0] for f in cfields],
                                 "%s.%s fields differ from %s" % ("_native", py_name, t))
                for name, off, fsize in cfields:
                    d = getattr(cls, name)
                    self.assertEqual((d.offset, d.size), (off, fsize),
                                     "%s.%s: ctypes (offset, size) vs C" % (t, name))
                self.assertEqual(ctypes.sizeof(cls), size, "sizeof(%s)" % t)
                self.assertEqual(ctypes.alignment(cls), align, "_Alignof(%s)" % t)


if __name__ == "__main__":
    gfxtest.main()
