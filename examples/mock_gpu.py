# Use gfxemu as a framework's mock-GPU emulator: what a mock driver does with one dispatch.
# The driver knows raw code bytes, host pointers, a kernarg block and COMPUTE_PGM_RSRC2; every
# address is a host address, and kernels may touch only the ranges registered with map_host().
# From the repository root, after `make`:  PYTHONPATH=python python3 examples/mock_gpu.py
import ctypes
import os
import struct
import subprocess
import tempfile

import gfxemu

# The raw instructions of a clang-22 kernel (a driver finds them in its fake GPU memory).
tmp = tempfile.mkdtemp()
co = os.path.join(tmp, "vecadd.co")
subprocess.run(["clang-22", "-x", "cl", "-cl-std=CL2.0", "-target", "amdgcn-amd-amdhsa",
                "-mcpu=gfx950", "-nogpulib", "-O2", "-c", "examples/vecadd.cl", "-o", co + ".o"],
               check=True)
subprocess.run(["ld.lld-22", "-shared", co + ".o", "-o", co], check=True)
module = gfxemu.load(co)
kernel = module.kernel("vecadd")
text_addr, text = module.text
code_bytes = text[kernel.info["entry"] - text_addr:]
rsrc2 = kernel.info["rsrc2"]  # from the kernel descriptor, as a driver programs it

# Host memory: inputs, output and the kernarg block (a, b, c pointers and n).
n = 1000
a = (ctypes.c_float * n)(*[i * 0.5 for i in range(n)])
b = (ctypes.c_float * n)(*[1000.0 - i for i in range(n)])
c = (ctypes.c_float * n)()
args = ctypes.create_string_buffer(
    struct.pack("<QQQi", ctypes.addressof(a), ctypes.addressof(b), ctypes.addressof(c), n), 64)
code = ctypes.create_string_buffer(code_bytes, len(code_bytes))
for buf in (a, b, c, args):
    gfxemu.map_host(buf)  # or gfxemu.register_host(ptr, size)

rc = gfxemu.run_asm(ctypes.addressof(code), len(code_bytes), (n + 63) // 64, 1, 1, 64, 1, 1,
                    ctypes.addressof(args), rsrc2=rsrc2, scratch_size=0, arch="cdna")
assert rc == 0, gfxemu.last_error()
assert all(c[i] == a[i] + b[i] for i in range(n))
print("run_asm: %d elements verified" % n)

# A wild pointer (b = 0x1000): the dispatch stops with a non-zero code and a fault record; the
# host process is untouched and carries on.  The record is the first fault: with workgroups on
# several threads, any of the 16 that read b[] may be the one (its lane 0 reads b + 256 * wg).
bad = ctypes.create_string_buffer(
    struct.pack("<QQQi", ctypes.addressof(a), 0x1000, ctypes.addressof(c), n), 64)
gfxemu.map_host(bad)
rc = gfxemu.run_asm(ctypes.addressof(code), len(code_bytes), (n + 63) // 64, 1, 1, 64, 1, 1,
                    ctypes.addressof(bad), rsrc2=rsrc2)
fault = gfxemu.last_fault()
print("wild access: rc", rc, "-", fault.kind, "at address", hex(fault.address))
assert rc != 0 and fault.kind == "memory fault" and 0x1000 <= fault.address < 0x1000 + 4 * n
for buf in (a, b, c, args, bad):
    gfxemu.unmap_host(buf)
