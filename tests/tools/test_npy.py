#!/usr/bin/env python3
"""gfxemu run with NumPy arrays (--arg in:x.npy, inout:x.npy, out:y.npy:DTYPE[SHAPE],
out:y.npy:BYTES) and --global-size: files are written and read back with numpy itself (the
Debian python3-numpy of scripts/deps.sh), results checked against numpy computations."""
import os
import subprocess
import sys

try:
    import numpy as np
except ImportError:
    # A python3 earlier on PATH (pyenv, venv) may lack numpy: rerun with Debian's, which has it.
    if sys.executable != "/usr/bin/python3" and os.path.exists("/usr/bin/python3"):
        os.execv("/usr/bin/python3", ["/usr/bin/python3"] + sys.argv)
    raise

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from clitest import BUILD, GFXEMU, HERE as here, check, failures, finish, scratch  # noqa: E402

tmp = scratch("npy")


def t(name):
    return os.path.join(tmp, name)


co = t("k.co")
subprocess.run(["clang-22", "-x", "cl", "-cl-std=CL2.0", "-target", "amdgcn-amd-amdhsa",
                "-mcpu=gfx950", "-nogpulib", "-O2", "-I", "include", "-include", "gfxemu/opencl.h",
                "-c", os.path.join(here, "npy_kernels.cl"), "-o", co + ".o"], check=True)
subprocess.run(["ld.lld-22", "-shared", co + ".o", "-o", co], check=True)


def run(kernel, *opts):
    return subprocess.run([GFXEMU, "run", co, kernel] + list(opts), capture_output=True, text=True)


a = (np.arange(8 * 64, dtype=np.float32).reshape(8, 64) - 100.0) / 3.0
idx = np.arange(64, dtype=np.int32) * 7 - 30
np.save(t("a.npy"), a)
np.save(t("idx.npy"), idx)
want = a * np.float32(2.0) + idx.astype(np.float32)[None, :]

# out:...:DTYPE[SHAPE] with a 2-D NDRange in work-items.
r = run("scale2d", "--global-size", "64,8", "--block", "64,1", "--arg", "out:%s:float32[8,64]" %
        t("o.npy"), "--arg", "in:" + t("a.npy"), "--arg", "in:" + t("idx.npy"))
check(r.returncode == 0, "scale2d: %s" % r.stderr)
if r.returncode == 0:
    o = np.load(t("o.npy"))
    check(o.dtype == np.float32 and o.shape == (8, 64), "out dtype/shape %s %s" % (o.dtype, o.shape))
    check(np.array_equal(o, want), "scale2d values differ from numpy")
    # The same launch with --grid in workgroups gives the same bytes.
    r2 = run("scale2d", "--grid", "1,8", "--block", "64,1", "--arg", "out:%s:2048" % t("o2.npy"),
             "--arg", "in:" + t("a.npy"), "--arg", "in:" + t("idx.npy"))
    check(r2.returncode == 0, "scale2d --grid: %s" % r2.stderr)
    o2 = np.load(t("o2.npy"))
    # out:y.npy:BYTES takes the element type from the argument's type name (float*): 1-D float32.
    check(o2.dtype == np.float32 and o2.shape == (512,), "out:BYTES dtype/shape %s %s" %
          (o2.dtype, o2.shape))
    check(np.array_equal(o2, want.reshape(-1)), "--grid run differs from --global-size run")

# inout: keeps dtype and a 3-D shape; a version 2.0 header is read as well.
x = (np.arange(64, dtype=np.int32) * 1000 - 7).reshape(4, 4, 4)
with open(t("x.npy"), "wb") as f:
    np.lib.format.write_array(f, x, version=(2, 0))
r = run("negate", "--global-size", "64", "--block", "64", "--arg", "inout:" + t("x.npy"))
check(r.returncode == 0, "negate: %s" % r.stderr)
y = np.load(t("x.npy"))
check(y.dtype == np.int32 and y.shape == (4, 4, 4) and np.array_equal(y, -x),
      "inout: %s %s" % (y.dtype, y.shape))

# float16 (half) round trip.
h = np.array([1.0, -3.0, 65504.0, 6.1035156e-05, 0.0, 2.5] * 16, dtype=np.float16)
np.save(t("h.npy"), h)
r = run("halve", "--grid", "1", "--block", "96", "--arg", "inout:" + t("h.npy"))
check(r.returncode == 0, "halve: %s" % r.stderr)
check(np.array_equal(np.load(t("h.npy")), h * np.float16(0.5)), "half values")

# Errors: dtype against the argument's type name, Fortran order, big-endian, bad specs,
# --global-size not a multiple of --block, --grid together with --global-size.
np.save(t("i64.npy"), idx.astype(np.int64))
r = run("scale2d", "--grid", "1,8", "--block", "64,1", "--arg", "out:%s:2048" % t("e.npy"),
        "--arg", "in:" + t("a.npy"), "--arg", "in:" + t("i64.npy"))
check(r.returncode == 1 and r.stderr.strip() == "gfxemu: error: run: --arg 3 'in:%s': the array's "
      "dtype is int64, the argument is int* (int32 elements)" % t("i64.npy"), "dtype: %r" % r.stderr)
r = run("scale2d", "--grid", "1,8", "--block", "64,1", "--arg", "out:%s:int32[512]" % t("e.npy"),
        "--arg", "in:" + t("a.npy"), "--arg", "in:" + t("idx.npy"))
check(r.returncode != 0 and "dtype is int32, the argument is float*" in r.stderr,
      "out dtype: %r" % r.stderr)
np.save(t("f.npy"), np.asfortranarray(a))
r = run("scale2d", "--grid", "1,8", "--block", "64,1", "--arg", "out:%s:2048" % t("e.npy"),
        "--arg", "in:" + t("f.npy"), "--arg", "in:" + t("idx.npy"))
check(r.returncode == 1 and "Fortran-order" in r.stderr, "fortran: %r" % r.stderr)
np.save(t("be.npy"), idx.astype(">i4"))
r = run("negate", "--grid", "1", "--block", "64", "--arg", "inout:" + t("be.npy"))
check(r.returncode == 1 and "unsupported .npy dtype '>i4'" in r.stderr, "big-endian: %r" % r.stderr)
r = run("negate", "--grid", "1", "--block", "64", "--arg", "out:%s:int33[4]" % t("e.npy"))
check(r.returncode == 2 and "bad --arg" in r.stderr, "bad dtype spec: %r" % r.stderr)
r = run("negate", "--grid", "1", "--block", "64", "--arg", "out:%s:int32[4]" % t("e.bin"))
check(r.returncode == 2 and "bad --arg" in r.stderr, "DTYPE[SHAPE] without .npy: %r" % r.stderr)
with open(t("short.npy"), "wb") as f:
    f.write(open(t("idx.npy"), "rb").read()[:-4])
r = run("negate", "--grid", "1", "--block", "64", "--arg", "inout:" + t("short.npy"))
check(r.returncode == 1 and "its header says 256" in r.stderr, "truncated: %r" % r.stderr)
r = run("negate", "--global-size", "100", "--block", "64", "--arg", "zero:256")
check(r.returncode == 2 and r.stderr.strip() == "gfxemu: error: run: --global-size '100': "
      "dimension 0 (100) is not a multiple of the --block size 64", "global-size: %r" % r.stderr)
r = run("negate", "--global-size", "64", "--grid", "1", "--block", "64", "--arg", "zero:256")
check(r.returncode == 2 and "exclude each other" in r.stderr, "grid+global-size: %r" % r.stderr)

finish("test_npy")
