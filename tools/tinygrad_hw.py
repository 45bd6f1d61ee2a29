#!/usr/bin/env python3
"""tinygrad_hw.py TINYGRAD_DIR [unittest arguments...] - run tinygrad's hardware-verified
instruction tests (test/amd/hw: single instructions whose results were checked on real RDNA3,
RDNA4 and CDNA GPUs) on gfxemu, by hand: CI cannot fetch tinygrad, and the tests are tinygrad's
own, not part of make check.  The tests call their emulator's run_asm(); this runner swaps in
gfxemu.run_asm (README, "Use as a framework's mock-GPU emulator") before they are imported.

Their run_asm takes no list of memory ranges (their emulator sees the whole address space): the
kernarg block and the host mapping (/proc/self/maps) holding the output buffer it points at are
passed as this dispatch's ranges.  Their hardware runs assemble the code with llvm-mc's default
.amdhsa_kernel descriptor, whose rsrc1 flushes f32 denormals (FLOAT_DENORM_MODE_32 = 0; DX10_CLAMP
and IEEE set): run_asm gets that rsrc1.  Every gfxemu fault is printed on stderr with the message.

  make && PYTHONPATH=python python3 tools/tinygrad_hw.py ~/tinygrad         # all of test/amd/hw
  PYTHONPATH=python python3 tools/tinygrad_hw.py ~/tinygrad test.amd.hw.test_vop3  # one module
"""
import ctypes
import os
import sys
import unittest

if len(sys.argv) < 2:
    sys.exit(__doc__)
tg = os.path.abspath(sys.argv[1])
sys.path.insert(0, tg)
os.chdir(tg)

import gfxemu  # noqa: E402
import test.mockgpu.amd.emu as emu  # noqa: E402


def host_mapping(addr):
    """(start, size) of the host mapping holding addr."""
    with open("/proc/self/maps") as f:
        for line in f:
            lo, hi = (int(v, 16) for v in line.split()[0].split("-"))
            if lo <= addr < hi:
                return lo, hi - lo
    raise RuntimeError("address 0x%x is not mapped" % addr)


calls = 0
# the mode fields of llvm-mc-22's default descriptor (rsrc1 0xe0ac001f for gfx1100, 0x00ac031f
# for gfx950): FLOAT_DENORM_MODE_16_64 = 3, DX10_CLAMP, IEEE_MODE
LLVM_MC_RSRC1_MODE = 0x00ac0000


def run_asm(lib, lib_sz, gx, gy, gz, lx, ly, lz, args_ptr, rsrc2=0x19c, scratch_size=0,
            arch="rdna3", user_data=None):
    global calls
    calls += 1
    out = ctypes.c_uint64.from_address(args_ptr).value
    r = gfxemu.run_asm(lib, lib_sz, gx, gy, gz, lx, ly, lz, args_ptr, rsrc2, scratch_size,
                       arch=arch, user_data=user_data, ranges=[(args_ptr, 8), host_mapping(out)],
                       rsrc1=LLVM_MC_RSRC1_MODE)
    if r:
        print("\ngfxemu: run_asm -> %d: %s" % (r, gfxemu.last_error()), file=sys.stderr)
    return r


emu.run_asm = run_asm
import test.amd.hw.helpers as helpers  # noqa: E402

helpers.run_asm = run_asm
argv = sys.argv[2:] or ["discover", "-s", "test/amd/hw", "-t", "."]
result = unittest.main(module=None, argv=["tinygrad_hw"] + argv, exit=False).result
print("gfxemu ran %d dispatches" % calls, file=sys.stderr)
sys.exit(0 if result.wasSuccessful() else 1)
