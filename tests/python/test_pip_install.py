"""`pip install ./python` works offline (the in-tree build backend needs nothing from the network),
bundles $BUILD/libgfxemu.so, and the installed package runs a kernel from any directory; without
a library it says clearly what it tried.  Uses the running interpreter's pip (python3 -m pip;
Debian: python3-pip)."""
import os
import subprocess
import sys
import tempfile
import unittest

import gfxtest

SCRIPT = r"""
import os, struct, sys
import gfxemu
assert gfxemu.library_path.startswith(sys.argv[1]), gfxemu.library_path
m = gfxemu.load(sys.argv[2])
buf = bytearray(4 * 64)
m.kernel("iota").launch(1, 64, buf)
assert struct.unpack("<64i", buf) == tuple(range(64))
print("installed gfxemu ok:", gfxemu.library_path)
"""

IOTA = r"""
__kernel void iota(__global int *p) {
    p[__builtin_amdgcn_workitem_id_x()] = __builtin_amdgcn_workitem_id_x();
}
"""


class PipInstall(unittest.TestCase):
    def test_pip_install_target(self):
        target = tempfile.mkdtemp(prefix="gfxemu-pip-")
        env = dict(os.environ, PIP_NO_INDEX="1", PIP_DISABLE_PIP_VERSION_CHECK="1")
        r = subprocess.run([sys.executable, "-m", "pip", "install", "--no-cache-dir", "--target",
                            target, os.path.join(gfxtest.ROOT, "python")],
                           capture_output=True, text=True, env=env)
        self.assertEqual(r.returncode, 0, r.stdout + r.stderr)
        pkg = os.path.join(target, "gfxemu")
        self.assertTrue(os.path.isfile(os.path.join(pkg, "libgfxemu.so")))
        co = gfxtest.compile_cl(IOTA, "iota")
        env = {k: v for k, v in os.environ.items() if k not in ("GFXEMU_LIB", "PYTHONPATH")}
        env["PYTHONPATH"] = target
        r = subprocess.run([sys.executable, "-c", SCRIPT, pkg, co], capture_output=True,
                           text=True, env=env, cwd=tempfile.gettempdir())
        self.assertEqual(r.returncode, 0, r.stdout + r.stderr)
        self.assertIn("installed gfxemu ok", r.stdout)

    def test_source_tree_library(self):
        # Without GFXEMU_LIB, python/ of a built checkout uses build/libgfxemu.so.
        src_lib = os.path.join(gfxtest.ROOT, "build", "libgfxemu.so")
        env = {k: v for k, v in os.environ.items() if k != "GFXEMU_LIB"}
        env["PYTHONPATH"] = os.path.join(gfxtest.ROOT, "python")
        r = subprocess.run([sys.executable, "-c", "import gfxemu; print(gfxemu.library_path)"],
                           capture_output=True, text=True, env=env, cwd=tempfile.gettempdir())
        if os.path.isfile(src_lib):
            self.assertEqual(r.stdout.strip(), src_lib, r.stderr)
        else:
            self.assertIn(src_lib + " (the source tree: no such file)", r.stderr)

    def test_missing_library_message(self):
        env = dict(os.environ, GFXEMU_LIB="/nonexistent/libgfxemu.so",
                   PYTHONPATH=os.path.join(gfxtest.ROOT, "python"))
        r = subprocess.run([sys.executable, "-c", "import gfxemu"], capture_output=True,
                           text=True, env=env)
        self.assertNotEqual(r.returncode, 0)
        self.assertIn("ImportError: gfxemu: cannot load libgfxemu.so; build it with `make` or "
                      "point GFXEMU_LIB at it. Tried: /nonexistent/libgfxemu.so (GFXEMU_LIB: no "
                      "such file)", r.stderr)


if __name__ == "__main__":
    gfxtest.main()
