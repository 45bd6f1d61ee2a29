"""numpy arrays through the binding: as kernel arguments (in and in/out, 1-D and 2-D), device
buffers to and from numpy, and as run_asm host buffers.  numpy is optional for the package, so
the checks run in whichever interpreter has it: this one, else Debian's /usr/bin/python3 with
python3-numpy (installed by scripts/deps.sh)."""
import os
import subprocess
import sys
import unittest

import gfxtest

EVERY_SRC = r"""
__kernel void axpy(__global float *y, __global const float *x, float a, int n) {
    int i = __builtin_amdgcn_workgroup_id_x() * 64 + __builtin_amdgcn_workitem_id_x();
    if (i < n)
        y[i] = a * x[i] + y[i];
}
"""

SCRIPT = r"""
import ctypes, struct, sys
import numpy as np
import gfxemu

co = sys.argv[1]
dev = gfxemu.Device("gfx950")
k = dev.load(co).kernel("axpy")
n = 1000
x = np.arange(n, dtype=np.float32).reshape(10, 100) * np.float32(0.5)
y = np.full((10, 100), 3.0, dtype=np.float32)
want = np.float32(2.0) * x + y
k.launch((n + 63) // 64, 64, y, x, 2.0, n)          # y is writable: in/out
np.testing.assert_array_equal(y, want)

# Device buffers from and to numpy; a numpy array as Out() target.
xb = dev.buffer(x)
np.testing.assert_array_equal(xb.numpy(np.float32, (10, 100)), x)
out = np.zeros(n, dtype=np.float32)
k.launch((n + 63) // 64, 64, gfxemu.InOut(out), xb, gfxemu.f32(-1.0), gfxemu.i32(n))
np.testing.assert_array_equal(out, -x.reshape(-1))

# Non-contiguous arrays are refused with a clear message.
try:
    k.launch(1, 64, y[:, ::2], x, 1.0, 10)
    raise SystemExit("non-contiguous array accepted")
except ValueError as e:
    assert "C-contiguous" in str(e), e

# run_asm with numpy host buffers.
m = gfxemu.load(co)
text_addr, text = m.text
code = np.frombuffer(text[k.info["entry"] - text_addr:], dtype=np.uint8).copy()
yy = np.ones(n, dtype=np.float32)
xx = np.arange(n, dtype=np.float32)
args = np.frombuffer(struct.pack("<QQfi", gfxemu.address_of(yy), gfxemu.address_of(xx), 4.0, n)
                     + bytes(40), dtype=np.uint8).copy()
for a in (yy, xx, args):
    gfxemu.map_host(a)
rc = gfxemu.run_asm(code, code.nbytes, (n + 63) // 64, 1, 1, 64, 1, 1, args,
                    rsrc2=k.info["rsrc2"])
assert rc == 0, gfxemu.last_error()
np.testing.assert_array_equal(yy, np.float32(4.0) * xx + 1)
print("numpy checks passed with numpy", np.__version__)
"""


def numpy_python():
    for exe in (sys.executable, "/usr/bin/python3"):
        if os.path.exists(exe) and subprocess.run([exe, "-c", "import numpy"],
                                                  capture_output=True).returncode == 0:
            return exe
    return None


class Numpy(unittest.TestCase):
    def test_numpy(self):
        exe = numpy_python()
        self.assertIsNotNone(exe, "no python3 with numpy: install python3-numpy "
                             "(scripts/deps.sh does)")
        co = gfxtest.compile_cl(EVERY_SRC, "axpy")
        env = dict(os.environ, PYTHONPATH=os.path.join(gfxtest.ROOT, "python"))
        r = subprocess.run([exe, "-c", SCRIPT, co], capture_output=True, text=True, env=env)
        self.assertEqual(r.returncode, 0, r.stdout + r.stderr)
        print(exe + ": " + r.stdout.strip())


if __name__ == "__main__":
    gfxtest.main()
