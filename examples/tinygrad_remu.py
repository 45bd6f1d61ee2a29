# gfxemu behind tinygrad's mock GPU: its PythonRemu object carries valid_mem_ranges (a set of
# (start, size) pairs, the same ones again before every dispatch, sometimes overlapping), rsrc2,
# scratch_size, arch and user_data, and the mock driver calls run_asm(lib, lib_sz, gx, gy, gz,
# lx, ly, lz, args_ptr).  The whole glue is one call: the ranges go with the dispatch.
# From the repository root, after `make`:  PYTHONPATH=python python3 examples/tinygrad_remu.py
import ctypes
import os
import struct
import subprocess
import tempfile

import gfxemu


class GfxemuRemu:
    """Drop-in for tinygrad's PythonRemu (same attributes, same run_asm signature)."""
    valid_mem_ranges: set = set()
    rsrc2: int = 0x19c
    scratch_size: int = 0
    arch: str = "cdna"
    user_data: list = []

    def run_asm(self, lib, lib_sz, gx, gy, gz, lx, ly, lz, args_ptr):
        return gfxemu.run_asm(lib, lib_sz, gx, gy, gz, lx, ly, lz, args_ptr, rsrc2=self.rsrc2,
                              scratch_size=self.scratch_size, arch=self.arch,
                              user_data=self.user_data or None, ranges=self.valid_mem_ranges)


# What the mock driver holds: raw code, host buffers, a kernarg block.
tmp = tempfile.mkdtemp()
co = os.path.join(tmp, "vecadd.co")
subprocess.run(["clang-22", "-x", "cl", "-cl-std=CL2.0", "-target", "amdgcn-amd-amdhsa",
                "-mcpu=gfx950", "-nogpulib", "-O2", "-c", "examples/vecadd.cl", "-o", co + ".o"],
               check=True)
subprocess.run(["ld.lld-22", "-shared", co + ".o", "-o", co], check=True)
kernel = gfxemu.load(co).kernel("vecadd")
text_addr, text = kernel.module.text
code_bytes = text[kernel.info["entry"] - text_addr:]
code = ctypes.create_string_buffer(code_bytes, len(code_bytes))

n = 1000
a = (ctypes.c_float * n)(*[i * 0.5 for i in range(n)])
b = (ctypes.c_float * n)(*[1000.0 - i for i in range(n)])
c = (ctypes.c_float * n)()
args = ctypes.create_string_buffer(
    struct.pack("<QQQi", ctypes.addressof(a), ctypes.addressof(b), ctypes.addressof(c), n), 64)

remu = GfxemuRemu()
remu.rsrc2 = kernel.info["rsrc2"]
# Every buffer, the kernarg block again inside a larger overlapping range, and a duplicate.
remu.valid_mem_ranges = {(ctypes.addressof(x), ctypes.sizeof(x)) for x in (a, b, c, args)}
remu.valid_mem_ranges.add((ctypes.addressof(args) + 8, 32))
for _ in range(2):  # the same ranges again for the next dispatch: nothing to undo
    rc = remu.run_asm(ctypes.addressof(code), len(code_bytes), (n + 63) // 64, 1, 1, 64, 1, 1,
                      ctypes.addressof(args))
    assert rc == 0, gfxemu.last_error()
assert all(c[i] == a[i] + b[i] for i in range(n))
print("tinygrad glue: %d elements verified" % n)

# The ranges belong to that dispatch only: without them the same dispatch faults cleanly.
remu.valid_mem_ranges = {(ctypes.addressof(args), 64)}
rc = remu.run_asm(ctypes.addressof(code), len(code_bytes), (n + 63) // 64, 1, 1, 64, 1, 1,
                  ctypes.addressof(args))
print("without the buffers' ranges: rc", rc, "-", gfxemu.last_fault().kind)
assert rc == 8
