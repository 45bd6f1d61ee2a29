#!/usr/bin/env python3
"""gfxemu run's progress line: shown on a terminal (a pty here) once a launch runs longer than
GFXEMU_PROGRESS_AFTER seconds (default 2; 0.2 here to keep the test short), never when stderr is
not a terminal.  The kernel's results are checked against a C-equivalent Python reference, so the
progress thread visibly does not disturb the launch."""
import os
import pty
import re
import struct
import subprocess
import sys
import time

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from clitest import BUILD, GFXEMU, check, failures, finish, scratch  # noqa: E402

GFXEMU = os.path.abspath(GFXEMU)
tmp = os.path.abspath(scratch("progress"))


co = os.path.join(tmp, "spin.co")
src = os.path.join(os.path.dirname(os.path.abspath(__file__)), "progress_kernels.cl")
subprocess.run(["clang-22", "-x", "cl", "-cl-std=CL2.0", "-target", "amdgcn-amd-amdhsa",
                "-mcpu=gfx950", "-nogpulib", "-O2", "-c", src, "-o", co + ".o"], check=True)
subprocess.run(["ld.lld-22", "-shared", co + ".o", "-o", co], check=True)

NWG, ITERS = 64, 60000


def reference():
    """xorshift32 is linear over GF(2): x_n = M^n x_0.  M^ITERS is built by squaring (columns are
    the images of the 32 unit vectors), so the reference costs no ITERS-long loop per lane."""
    def step(x):
        x ^= (x << 13) & 0xffffffff
        x ^= x >> 17
        return x ^ ((x << 5) & 0xffffffff)

    def apply(cols, x):
        y = 0
        for b in range(32):
            if x >> b & 1:
                y ^= cols[b]
        return y

    def mul(a, b):  # (a o b): apply b, then a
        return [apply(a, c) for c in b]

    result = [1 << b for b in range(32)]
    power = [step(1 << b) for b in range(32)]
    n = ITERS
    while n:
        if n & 1:
            result = mul(power, result)
        power = mul(power, power)
        n >>= 1
    return [apply(result, g + 1) for g in range(NWG * 64)]


outp = os.path.join(tmp, "out.bin")
cmd = [GFXEMU, "run", co, "spin", "--grid", str(NWG), "--block", "64", "--threads", "1",
       "--arg", "out:%s:%d" % (outp, NWG * 64 * 4), "--arg", "u32:%d" % ITERS]
env = dict(os.environ, GFXEMU_PROGRESS_AFTER="0.2")

# On a terminal: stderr is the pty's slave.
master, slave = pty.openpty()
start = time.time()
p = subprocess.Popen(cmd, stdin=subprocess.DEVNULL, stdout=subprocess.PIPE, stderr=slave, env=env)
os.close(slave)
data = b""
while True:
    try:
        chunk = os.read(master, 4096)
    except OSError:
        break
    if not chunk:
        break
    data += chunk
p.wait()
os.close(master)
secs = time.time() - start
text = data.decode(errors="replace")
check(p.returncode == 0, "run on a pty: exit %d, %r" % (p.returncode, text))
lines = re.findall(r"\rgfxemu: (\d+)/(\d+) workgroups \(([\d.]+)%\), \d+ workgroups/s", text)
if secs > 0.8:  # the launch outlived the 0.2 s delay by far: the line must have been drawn
    check(len(lines) >= 1, "no progress line on a terminal after %.1f s: %r" % (secs, text))
for done, total, pct in lines:
    check(int(total) == NWG and int(done) <= NWG, "progress numbers %s/%s" % (done, total))
check(text.endswith("\r\x1b[K") or not lines, "progress line not erased at the end: %r" % text[-40:])
got = struct.unpack("<%dI" % (NWG * 64), open(outp, "rb").read())
check(list(got) == reference(), "kernel results differ from the reference")

# Not a terminal: nothing on stderr.
r = subprocess.run(cmd, capture_output=True, env=env)
check(r.returncode == 0 and r.stderr == b"", "stderr not a terminal: %r" % r.stderr[:200])

finish("test_progress", " (%d progress lines in %.1f s)" % (len(lines), secs))
