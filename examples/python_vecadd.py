# Use gfxemu from Python: compile examples/vecadd.cl with clang-22, run it, check every element.
# From the repository root, after `make`:  PYTHONPATH=python python3 examples/python_vecadd.py
# (after `pip install ./python`, plain `python3 examples/python_vecadd.py`).
import array
import os
import subprocess
import tempfile

import gfxemu

tmp = tempfile.mkdtemp()
co = os.path.join(tmp, "vecadd.co")
subprocess.run(["clang-22", "-x", "cl", "-cl-std=CL2.0", "-target", "amdgcn-amd-amdhsa",
                "-mcpu=gfx950", "-nogpulib", "-O2", "-c", "examples/vecadd.cl", "-o", co + ".o"],
               check=True)
subprocess.run(["ld.lld-22", "-shared", co + ".o", "-o", co], check=True)

n = 1000
a = array.array("f", [i * 0.5 for i in range(n)])
b = array.array("f", [1000.0 - i for i in range(n)])
c = array.array("f", [0.0] * n)  # writable, so it is an in/out buffer: results land in it

dev = gfxemu.Device("gfx950")  # threads=None: one worker per core
vecadd = dev.load(co).kernel("vecadd")
print(vecadd)  # <gfxemu.Kernel vecadd(float*, float*, float*, int)>
stats = vecadd.launch((n + 63) // 64, 64, gfxemu.In(a), gfxemu.In(b), c, gfxemu.i32(n))
assert all(c[i] == a[i] + b[i] for i in range(n))
print("vecadd: %d elements verified, %d wave-instructions" % (n, stats["wave_insts"]))

# A fault is a gfxemu.Fault exception carrying the fault record; the device stays usable.
try:
    vecadd.launch((n + 63) // 64 + 1, 64, gfxemu.In(a), gfxemu.In(b), c, gfxemu.i32(n + 64))
except gfxemu.Fault as f:
    print("fault:", f.kind, "by", repr(f.instruction), "at pc", hex(f.pc),
          "address", hex(f.address), "workgroup", f.workgroup, "wave", f.wave)
    assert f.kind == "memory fault" and not f.write
