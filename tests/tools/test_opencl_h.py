#!/usr/bin/env python3
"""include/gfxemu/opencl.h: unmodified OpenCL C kernels (get_global_id, get_local_size,
barrier(CLK_LOCAL_MEM_FENCE), atomic_add/inc/max/cmpxchg, 2D ids) compiled with
`-nogpulib -include gfxemu/opencl.h`, at -O0 and -O2, for gfx950 and gfx942, run with
`gfxemu run`; results checked against Python references."""
import os
import random
import struct
import subprocess
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "common"))
from clitest import BUILD, GFXEMU, HERE as here, check, failures, finish, scratch  # noqa: E402
from kbuild import kbuild  # noqa: E402

tmp = scratch("opencl_h")


def run(co, kernel, grid, block, *args):
    r = subprocess.run([GFXEMU, "run", co, kernel, "--grid", grid, "--block", block] +
                       [x for a in args for x in ("--arg", a)], capture_output=True, text=True)
    check(r.returncode == 0, "%s %s: exit %d: %s" % (co, kernel, r.returncode, r.stderr))
    return r.returncode == 0


def undefined(obj):
    """`llvm-nm-22 -u obj`.  LLVM is a fixed oracle: the answer is kept in $BUILD/oracle-cache/
    under a sha1 of the object and the llvm-nm-22 binary (as the C tests keep theirs), so an
    unchanged object is not read again; GFXEMU_ORACLE_CACHE=0 asks every time."""
    import hashlib
    import shutil
    tool = os.path.realpath(shutil.which("llvm-nm-22") or "llvm-nm-22")
    st = os.stat(tool)
    with open(obj, "rb") as f:
        key = hashlib.sha1(("%s %d %d %d -u\0" % (tool, st.st_size, int(st.st_mtime), st.st_ino))
                           .encode() + f.read()).hexdigest()
    cached = os.path.join(BUILD, "oracle-cache", "nm-u-" + key)
    use = os.environ.get("GFXEMU_ORACLE_CACHE") != "0"
    if use and os.path.exists(cached):
        return open(cached).read()
    out = subprocess.run(["llvm-nm-22", "-u", obj], capture_output=True, text=True,
                         check=True).stdout
    if use:
        os.makedirs(os.path.dirname(cached), exist_ok=True)
        with open(cached + ".tmp%d" % os.getpid(), "w") as f:
            f.write(out)
        os.replace(cached + ".tmp%d" % os.getpid(), cached)
    return out


def compile_o(args, out):
    """clang-22 -c ARGS -o OUT, only when OUT is out of date (tests/common/kbuild.py)."""
    r = kbuild("o", out, args)
    check(r.returncode == 0, "clang-22 -c %s: %s" % (" ".join(args), r.stderr))
    return r.returncode == 0


def words(path, fmt="I"):
    data = open(path, "rb").read()
    return list(struct.unpack("<%d%s" % (len(data) // 4, fmt), data))


def put(path, fmt, vals):
    with open(path, "wb") as f:
        f.write(struct.pack("<%d%s" % (len(vals), fmt), *vals))


rng = random.Random(18)
n = 1000
ints = [rng.randrange(-1000, 1000) for _ in range(n)]
put(os.path.join(tmp, "ints.bin"), "i", ints)
nh = 5000
data = [rng.randrange(0, 1 << 14) for _ in range(nh)]
put(os.path.join(tmp, "data.bin"), "I", data)

# Without the header the kernels reference undefined built-ins: the header is what makes it work.
src = os.path.join(here, "opencl_kernels.cl")
base = ["clang-22", "-x", "cl", "-cl-std=CL2.0", "-target", "amdgcn-amd-amdhsa", "-nogpulib"]
# (the objects are kept in $BUILD/test-kernels/opencl_h/, built again only when out of date)
kept = os.path.join(BUILD, "test-kernels", "opencl_h")
os.makedirs(kept, exist_ok=True)
plain = os.path.join(kept, "plain.o")
compile_o(base[1:] + ["-mcpu=gfx950", "-O2", src], plain)
nm = undefined(plain)
check("get_global_id" in nm, "without the header get_global_id should be undefined: %r" % nm)

for cpu in ("gfx950", "gfx942"):
    for opt in ("-O0", "-O2"):
        tag = "%s%s" % (cpu, opt)
        co = os.path.join(tmp, "k_%s.co" % tag)
        obj = os.path.join(kept, "k_%s.o" % tag)
        compile_o(base[1:] + ["-mcpu=" + cpu, opt, "-I", "include", "-include", "gfxemu/opencl.h",
                              src], obj)
        subprocess.run(["ld.lld-22", "-shared", obj, "-o", co], check=True)
        und = undefined(obj).strip()
        check(und == "", "%s: undefined symbols with the header: %r" % (tag, und))

        # reduce_sum: 4 groups of 256 over 1000 ints (the last group partly past n).
        sums = os.path.join(tmp, "sums_%s.bin" % tag)
        done = os.path.join(tmp, "done_%s.bin" % tag)
        if run(co, "reduce_sum", "4", "256", "in:" + os.path.join(tmp, "ints.bin"),
               "out:%s:16" % sums, "out:%s:4" % done, "i32:%d" % n):
            want = [sum(ints[g * 256:(g + 1) * 256]) for g in range(4)]
            check(words(sums, "i") == want, "%s reduce_sum %s want %s" % (tag, words(sums, "i"), want))
            check(words(done, "i") == [4], "%s reduce_sum groups_done %s" % (tag, words(done, "i")))

        # histogram16: 3 groups of 128 striding over 5000 values.
        hist = os.path.join(tmp, "hist_%s.bin" % tag)
        mx = os.path.join(tmp, "max_%s.bin" % tag)
        owner = os.path.join(tmp, "owner_%s.bin" % tag)
        if run(co, "histogram16", "3", "128", "in:" + os.path.join(tmp, "data.bin"),
               "i32:%d" % nh, "out:%s:64" % hist, "out:%s:4" % mx, "out:%s:4" % owner):
            want = [sum(1 for v in data if v & 15 == b) for b in range(16)]
            check(words(hist) == want, "%s histogram %s want %s" % (tag, words(hist), want))
            check(words(mx, "i") == [max(v >> 4 for v in data)], "%s atomic_max" % tag)
            o = words(owner)[0]
            check(0 < o <= nh and data[o - 1] >> 4 >= 1000, "%s atomic_cmpxchg owner %d" % (tag, o))

        # ids2d: grid 3x2 groups of 8x4 work-items.
        ids = os.path.join(tmp, "ids_%s.bin" % tag)
        gx, gy, lx, ly = 3, 2, 8, 4
        if run(co, "ids2d", "%d,%d" % (gx, gy), "%d,%d" % (lx, ly),
               "out:%s:%d" % (ids, gx * gy * lx * ly * 20)):
            got = words(ids)
            want = [0] * len(got)
            GX, GY = gx * lx, gy * ly
            for y in range(GY):
                for x in range(GX):
                    i = y * GX + x
                    lxid, lyid = x % lx, y % ly
                    want[5 * i:5 * i + 5] = [
                        x | y << 16, lxid | lyid << 8 | (x // lx) << 16 | (y // ly) << 24,
                        lx | ly << 8 | gx << 16 | gy << 24, GX | GY << 16,
                        (lyid * lx + lxid) | 2 << 16]
            bad = [i for i in range(len(got)) if got[i] != want[i]]
            check(not bad, "%s ids2d: %d words differ, first at %s: %s want %s" %
                  (tag, len(bad), bad[:1], [got[i] for i in bad[:1]], [want[i] for i in bad[:1]]))

finish("test_opencl_h")
