#!/usr/bin/env python3
"""tinygrad_mock.py TINYGRAD_DIR GFXEMU_DIR MODULE|SCRIPT.py [arguments...] - run one of tinygrad's
test modules (or a script, as __main__) on its mock AMD GPU (DEV=MOCKKFD+AMD...) with gfxemu in place of the mock's emulator,
by hand: CI cannot fetch tinygrad, and the suites are tinygrad's own, not part of make check.

The mock GPU (test/mockgpu/amd/amdgpu.py) sets the module-level emulator object's valid_mem_ranges,
rsrc2, scratch_size, arch and user_data before each dispatch and then calls its run_asm(); this
runner replaces that object with one forwarding everything to gfxemu.run_asm (README, "Use as a
framework's mock-GPU emulator").  GFXEMU_DIR is the gfxemu tree whose python/ is imported; the
library comes from GFXEMU_LIB (use a copy, so that rebuilding does not pull it from under a run).

A fault is printed on stderr ("gfxemu: run_asm -> 8 (arch): message") and the dispatch's code is
saved to /tmp/tg_bad_N.bin (N counts dispatches; `gfxemu disasm --arch A --raw` prints it).  The
mock marks its device failed after one failed dispatch, so every later test would fail too; with
TG_CONTINUE=1 the fault is reported as a successful dispatch instead (that test's numbers are then
wrong, later tests are unaffected).

  cp build/libgfxemu.so /tmp/lib/ && cd ~/tinygrad && GFXEMU_LIB=/tmp/lib/libgfxemu.so \\
    LLVM_PATH=/usr/lib/x86_64-linux-gnu/libLLVM-22.so DEV=MOCKKFD+AMD:LLVM:gfx950 \\
    SKIP_SLOW_TEST=1 TG_CONTINUE=1 python3 ~/gfxemu/tools/tinygrad_mock.py ~/tinygrad ~/gfxemu \\
    test.backend.test_dtype_alu -v

The leg with tinygrad's HIP renderer (DEV=MOCKKFD+AMD::gfx1201) compiles through ROCm's comgr;
without ROCm, `make comgr-shim` and add COMGR_PATH=$PWD/build/libamd_comgr_shim.so (a copy, as
for the library) to the command (tools/comgr/comgr_shim.c).
"""
import ctypes
import os
import sys
import unittest

if len(sys.argv) < 4:
    sys.exit(__doc__)
tg, root, module = sys.argv[1:4]
sys.path[:0] = [os.path.abspath(tg), os.path.join(os.path.abspath(root), "python")]

import gfxemu  # noqa: E402
import test.mockgpu.amd.amdgpu as mockgpu  # noqa: E402


class GfxemuEmulator:
    """What the mock GPU expects of its emulator: settable dispatch state and run_asm()."""

    def __init__(self):
        self.valid_mem_ranges, self.rsrc2, self.scratch_size = set(), 0x19c, 0
        self.arch, self.user_data, self.calls = "cdna", None, 0

    def run_asm(self, lib, lib_sz, gx, gy, gz, lx, ly, lz, args_ptr):
        self.calls += 1
        r = gfxemu.run_asm(lib, lib_sz, gx, gy, gz, lx, ly, lz, args_ptr, rsrc2=self.rsrc2,
                           scratch_size=self.scratch_size, arch=self.arch,
                           user_data=self.user_data or None, ranges=self.valid_mem_ranges)
        if r == 0:
            return 0
        print("\ngfxemu: run_asm -> %d (%s): %s" % (r, self.arch, gfxemu.last_error()),
              file=sys.stderr)
        with open("/tmp/tg_bad_%d.bin" % self.calls, "wb") as f:
            f.write(ctypes.string_at(lib, lib_sz))
        return 0 if os.environ.get("TG_CONTINUE") else r


emulator = mockgpu.remu = GfxemuEmulator()
if module.endswith(".py"):  # a script (extra/gemm/amd_asm_matmul.py): run as __main__
    import runpy
    sys.argv = [module] + sys.argv[4:]
    try:
        runpy.run_path(module, run_name="__main__")
    finally:
        print("gfxemu ran %d dispatches" % emulator.calls, file=sys.stderr)
    sys.exit(0)
result = unittest.main(module=module, argv=["tinygrad_mock"] + sys.argv[4:], exit=False).result
print("gfxemu ran %d dispatches" % emulator.calls, file=sys.stderr)
sys.exit(0 if result.wasSuccessful() else 1)
