"""Kernel arguments through the Python binding (issues #13 item 2 and #17, the Python twins of
tests/tools/test_args.sh): Local(), by-value structs and vectors as bytes / ctypes / numpy
(structured) scalars, numpy scalars of every dtype, checks against the metadata's type names,
range checks, read-only arrays, relocatable objects, and concurrent faulting launches on one
Device.  Kernels: tests/tools/args.cl; expected values worked out by hand."""
import os
import sys

try:
    import numpy as np
except ImportError:  # numpy is optional for the package; Debian's python3-numpy has it
    if os.path.exists("/usr/bin/python3") and sys.executable != "/usr/bin/python3":
        os.execv("/usr/bin/python3", ["/usr/bin/python3", os.path.abspath(__file__)] + sys.argv[1:])
    raise

import ctypes
import struct
import threading
import unittest

import gfxtest
import gfxemu

SRC = open(os.path.join(gfxtest.ROOT, "tests", "tools", "args.cl")).read()


class Params(ctypes.Structure):  # struct params {int a; char b; double c;}: 3 padding bytes
    _fields_ = [("a", ctypes.c_int32), ("b", ctypes.c_int8), ("c", ctypes.c_double)]


PARAMS_NP = np.dtype({"names": ["a", "b", "c"], "formats": ["<i4", "i1", "<f8"],
                      "offsets": [0, 4, 8], "itemsize": 16})


_notes = {}


def static_lds(path, kernel):
    """.group_segment_fixed_size of `kernel` as clang's metadata (llvm-readelf-22) says.  The
    notes of a file are read once per run (keyed by its size and mtime): the tests ask 25 times
    about 4 files, and each llvm-readelf-22 start is ~0.1 s of CPU here."""
    st = os.stat(path)
    key = (path, st.st_size, st.st_mtime_ns)
    if key not in _notes:
        _notes[key] = gfxtest.run(["llvm-readelf-22", "--notes", path])
    notes = _notes[key].splitlines()
    last = None
    for line in notes:
        if ".group_segment_fixed_size:" in line:
            last = int(line.split(":")[1])
        if line.strip() == ".name:           %s" % kernel:
            return last
    raise AssertionError("no metadata for " + kernel)


class Kinds(unittest.TestCase):
    def run_kinds(self, arch, opt, params, vec, n=5, x=2.0, locals_=(256, 300), dyn=0):
        path = gfxtest.compile_cl(SRC, "args", arch=arch, opt=opt)
        dev = gfxemu.Device(arch)
        k = dev.load(path).kernel("kinds")
        out = np.zeros(12, dtype=np.int32)
        d = np.array([7.0])
        k.launch(1, 64, gfxemu.Out(out), n, x, gfxemu.Local(locals_[0]),
                 gfxemu.Local(locals_[1]), params, vec, d, dynamic_lds=dyn)
        g = static_lds(path, "kinds")
        t1 = (g + dyn + 3) // 4 * 4  # .pointee_align 4
        t2 = (t1 + locals_[0] + 3) // 4 * 4
        self.assertEqual(out.tolist(), [n, int(x * 3), 11, -1, 5, 1, 4, t1, t2, 7, n + 63, 21])

    def test_every_kind(self):
        vec = np.array([1, 2, 3, 4], dtype=np.float32)
        forms = [Params(11, -1, 5.0),                                  # ctypes structure
                 np.array((11, -1, 5.0), dtype=PARAMS_NP)[()],         # numpy structured scalar
                 struct.pack("<ibxxxd", 11, -1, 5.0)]                  # raw bytes
        for arch in ("gfx950", "gfx942"):
            for opt in ("-O0", "-O3"):
                for p in forms:
                    with self.subTest(arch=arch, opt=opt, params=type(p).__name__):
                        self.run_kinds(arch, opt, p, vec)
        self.run_kinds("gfx950", "-O3", forms[0], (ctypes.c_float * 4)(1, 2, 3, 4), dyn=100)
        # numpy scalars of every integer and float dtype as scalars
        for t in (np.int8, np.uint8, np.int16, np.uint16, np.int32, np.uint32, np.int64,
                  np.uint64, np.bool_):
            self.run_kinds("gfx950", "-O3", forms[0], vec, n=t(1))
        for t in (np.float16, np.float32, np.float64):
            self.run_kinds("gfx950", "-O3", forms[0], vec, x=t(2.0))

    def test_errors(self):
        path = gfxtest.compile_cl(SRC, "args", arch="gfx950", opt="-O3")
        dev = gfxemu.Device("gfx950")
        k = dev.load(path).kernel("kinds")
        vec = np.zeros(4, dtype=np.float32)
        good = [gfxemu.Out(48), 5, 2.0, gfxemu.Local(4), gfxemu.Local(4), Params(), vec,
                np.zeros(1)]

        def bad(i, value, text, exc=gfxemu.ArgumentError):
            args = list(good)
            args[i] = value
            with self.assertRaises(exc) as cm:
                k.launch(1, 64, *args)
            self.assertIn(text, str(cm.exception))

        bad(1, gfxemu.f32(1.5), "argument 1 (int) is an integer; gfxemu.f32 gives a floating")
        bad(1, 1.5, "argument 1 (int) is an integer; 1.5 is a float")
        bad(1, np.float32(1.5), "argument 1 (int) is an integer; numpy float32 is a floating")
        bad(2, gfxemu.i32(2), "argument 2 (float) is a floating-point value; gfxemu.i32 gives")
        bad(2, np.int32(2), "argument 2 (float) is a floating-point value; numpy int32 is an")
        bad(3, gfxemu.Zero(4), "argument 3 (float*) is a __local pointer (LDS); pass "
            "gfxemu.Local(nbytes), not Zero")
        bad(1, gfxemu.Local(4), "argument 1 (int) is not a __local pointer")
        bad(3, gfxemu.Local(1 << 20), "argument 3 (float*): Local(1048576) does not fit in LDS "
            "after 40 static and 0 dynamic bytes (gfx950 has 163840 per workgroup)")
        bad(5, b"\0" * 15, "argument 5 (params) is a by-value argument of 16 bytes; the bytes "
            "holds 15")
        bad(5, 7, "argument 5 (params): 7 does not fit 16 bytes")
        bad(7, np.zeros(1, dtype=np.float32), "argument 7 (double*) points to 8-byte "
            "floating-point elements; the numpy float32 array does not match: pass numpy.float64")
        # a float64 array for float*, plain or as In() (#17 item 3)
        t = dev.load(path).kernel("typed")
        f, i = np.ones(4, dtype=np.float32), np.arange(4, dtype=np.int32)
        o = np.zeros(4, dtype=np.float32)
        t.launch(1, 64, o, f, i, 4)
        self.assertEqual(o.tolist(), [1, 2, 3, 4])
        for wrap in (lambda a: a, gfxemu.In):
            with self.assertRaisesRegex(gfxemu.ArgumentError, r"argument 1 \(float\*\) points to "
                                        r"4-byte floating-point elements; the numpy float64"):
                t.launch(1, 64, o, wrap(f.astype(np.float64)), i, 4)
            with self.assertRaisesRegex(gfxemu.ArgumentError, "the numpy float32 array does not"):
                t.launch(1, 64, o, f, wrap(i.astype(np.float32)), 4)
        t.launch(1, 64, o, f.view(np.uint8), i.astype(np.uint32), 4)  # raw bytes, same-size ints
        self.assertEqual(o.tolist(), [1, 2, 3, 4])

    def test_ranges_and_read_only(self):
        # #17 item 7: numbers that would wrap in the C API are ValueErrors
        for make in (lambda: gfxemu.Out(-1), lambda: gfxemu.Zero(-1), lambda: gfxemu.Local(0),
                     lambda: gfxemu.Local(1 << 32), lambda: gfxemu.Device(threads=-1),
                     lambda: gfxemu.Device(threads=5000)):
            with self.assertRaises(ValueError):
                make()
        with self.assertRaises(TypeError):
            gfxemu.Out(True)
        path = gfxtest.compile_cl(SRC, "args", arch="gfx950", opt="-O3")
        dev = gfxemu.Device("gfx950", threads=1)
        k = dev.load(path).kernel("fill")
        buf = np.zeros(64, dtype=np.int32)
        for opt in ({"private_size": 1 << 32}, {"private_size": -1}, {"dynamic_lds": 1 << 32},
                    {"max_insts": -1}, {"private_size": (1 << 20) + 1}):
            with self.assertRaises(ValueError, msg=str(opt)):
                k.launch(1, 64, buf, 64, 0, **opt)
        k.launch(1, 64, buf, 64, 0, private_size=4096)
        self.assertEqual(buf.tolist(), list(range(1, 65)))
        # read-only arrays cannot receive results
        ro = np.zeros(64, dtype=np.int32)
        ro.flags.writeable = False
        for wrap in (gfxemu.Out, gfxemu.InOut):
            with self.assertRaisesRegex(ValueError, "read-only and cannot receive the results"):
                wrap(ro)
        with self.assertRaisesRegex(gfxemu.ArgumentError, r"argument 0 \(int\*\) is not const, "
                                    "so the kernel may write it, but the ndarray is read-only"):
            k.launch(1, 64, ro, 64, 0)
        k.launch(1, 64, gfxemu.In(ro), 64, 0)  # explicitly input-only: accepted

    def test_relocatable_object(self):
        base = os.path.join(gfxtest.TMP, "reloc")
        with open(base + ".cl", "w") as fp:
            fp.write(SRC)
        gfxtest.run(gfxtest.CLANG + ["-mcpu=gfx950", "-O2", "-c", base + ".cl", "-o", base + ".o"])
        m = gfxemu.load(base + ".o")
        with self.assertRaisesRegex(gfxemu.Error, "relocatable object .* link it first: "
                                    "ld.lld-22 -shared"):
            m.kernel("poke")


class Concurrency(unittest.TestCase):
    def test_faults_per_launch(self):
        """#17 item 6: threads launching faulting kernels on one Device each get their own fault
        (the address their own offset makes).  `make check-tsan` runs it again on the
        ThreadSanitizer build of the library with GFXEMU_CONCURRENCY_ITERS=300."""
        path = gfxtest.compile_cl(SRC, "args", arch="gfx950", opt="-O3")
        dev = gfxemu.Device("gfx950", threads=2)
        k = dev.load(path).kernel("poke")
        errors = []

        def worker(tid):
            for it in range(int(os.environ.get("GFXEMU_CONCURRENCY_ITERS", "60"))):
                buf = dev.alloc(256)
                # past the 64-int buffer and its 4 KiB page (buffers are page-granular, as on
                # hardware), inside the unmapped gap after it: lane 0 faults there
                off = 2048 * (tid + 1) + it
                try:
                    k.launch(1, 64, buf, off)
                    errors.append("thread %d: no fault" % tid)
                except gfxemu.Fault as f:
                    if f.address != buf.addr + 4 * off or not f.write:
                        errors.append("thread %d: fault at 0x%x, want 0x%x" % (
                            tid, f.address, buf.addr + 4 * off))
                except Exception as e:  # a bare Error instead of a Fault record
                    errors.append("thread %d: %r" % (tid, e))
                finally:
                    buf.free()

        threads = [threading.Thread(target=worker, args=(t,)) for t in range(4)]
        for t in threads:
            t.start()
        for t in threads:
            t.join()
        self.assertEqual(errors, [])


FILL_SRC = """
__kernel void fill(__global uint *p, uint n) {
    uint id = __builtin_amdgcn_workgroup_id_x() * 256 + __builtin_amdgcn_workitem_id_x();
    for (uint i = id; i < n; i += 64 * 256) /* launched as 64 workgroups of 256 */
        p[i] = i * 2654435761u;
}
"""

# Run in a child so that its peak RSS is this launch's alone.
PEAK_CHILD = """
import resource, sys
import gfxemu
path, nbytes = sys.argv[1], int(sys.argv[2])
dev = gfxemu.Device("gfx950")
k = dev.load(path).kernel("fill")
before = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss
out = gfxemu.Out(nbytes)
k.launch(64, 256, out, nbytes // 4)
after = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss
ok = all(int.from_bytes(out.data[4 * i:4 * i + 4], "little") == (i * 2654435761) % (1 << 32)
         for i in range(0, nbytes // 4, 1048573))
print(after - before, int(ok), len(out.data))
"""


class OutMemory(unittest.TestCase):
    def test_out_nbytes_peak(self):
        """#17 item 2 for Python: Out(nbytes) of a kernel that writes every byte peaks at about
        N (the device buffer's pages are handed back as the bytes .data holds are filled; it was
        3N with an intermediate ctypes buffer, then 2N), measured as the child process's peak
        RSS growth."""
        import subprocess
        path = gfxtest.compile_cl(FILL_SRC, "fill")
        nbytes = 64 << 20
        env = dict(os.environ, PYTHONPATH=os.path.join(gfxtest.ROOT, "python"))
        r = subprocess.run([sys.executable, "-c", PEAK_CHILD, path, str(nbytes)],
                           capture_output=True, text=True, env=env)
        self.assertEqual(r.returncode, 0, r.stderr)
        grew_kib, ok, size = map(int, r.stdout.split())
        self.assertEqual((ok, size), (1, nbytes))
        self.assertLessEqual(grew_kib * 1024, 1.3 * nbytes,
                             "peak RSS grew by %d MiB for a %d MiB Out" % (grew_kib >> 10,
                                                                          nbytes >> 20))


if __name__ == "__main__":
    gfxtest.main()
