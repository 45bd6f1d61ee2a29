"""ttyutil.py - what the `gfxemu debug` terminal tests (test_debugger_tty.py,
test_debugger_edit.py) share: tests/debug/kernels.cl built by clang-22 for gfx950, and a
`gfxemu debug` session on a pseudo-terminal whose output is collected up to a token."""
import os
import pty
import select
import shutil
import subprocess
import sys
import time

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "common"))
from kbuild import kbuild  # noqa: E402

BUILD = os.environ.get("BUILD", "build")
GFXEMU = os.environ.get("GFXEMU", BUILD + "/gfxemu")


def build_kernels(name):
    """tests/debug/kernels.cl as a code object in $BUILD/test-data/<name>/: (that dir, the .co)."""
    tmp = BUILD + "/test-data/" + name
    os.makedirs(tmp, exist_ok=True)
    co = tmp + "/k.co"
    # clang-22 + ld.lld-22 only when out of date (tests/common/kbuild.py keeps the object in
    # $BUILD/test-kernels/debug_tty/), then copied: each compile was ~0.5 s of CPU per run
    kept = os.path.join(BUILD, "test-kernels", "debug_tty", "kernels-gfx950-O2.co")
    r = kbuild("co", kept, ["-x", "cl", "-cl-std=CL2.0", "-target", "amdgcn-amd-amdhsa",
                            "-mcpu=gfx950", "-nogpulib", "-O2", "tests/debug/kernels.cl"])
    if r.returncode:
        raise RuntimeError("building tests/debug/kernels.cl failed: " + r.stderr)
    shutil.copyfile(kept, co)
    return tmp, co


class DebugTty:
    """`gfxemu debug ARGS...` with a pseudo-terminal as its stdin, stdout and stderr; out holds
    everything it has printed so far."""

    def __init__(self, args):
        self.master, slave = pty.openpty()
        self.p = subprocess.Popen([GFXEMU, "debug"] + args, stdin=slave, stdout=slave,
                                  stderr=slave)
        os.close(slave)
        self.out = b""

    def write(self, keys):
        os.write(self.master, keys)

    def close(self):
        os.close(self.master)

    def read_until(self, token, timeout=20.0):
        """Collect output until token appears (True) or timeout seconds pass (False)."""
        end = time.time() + timeout
        while token not in self.out and time.time() < end:
            r, _, _ = select.select([self.master], [], [], 0.2)
            if r:
                try:
                    self.out += os.read(self.master, 4096)
                except OSError:
                    break
        return token in self.out
