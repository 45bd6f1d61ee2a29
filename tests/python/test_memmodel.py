"""Memory model from Python (issues #13 items 1, 3, 4 and #17 item 1): program-scope variables
(Module.global_address/read_global/write_global), memcheck reports from Kernel.launch, and
run_asm's host ranges: idempotent/merging registration, per-dispatch ranges, and ranges that are
not mapped in the process refused up front instead of crashing it.  Expected values are worked
out here from the kernel sources (tests/kernels/progdata.cl, examples/vecadd.cl)."""
import ctypes
import os
import struct
import unittest

import gfxtest
import gfxemu

libc = ctypes.CDLL(None, use_errno=True)
libc.mmap.restype = ctypes.c_void_p
libc.mmap.argtypes = [ctypes.c_void_p, ctypes.c_size_t, ctypes.c_int, ctypes.c_int, ctypes.c_int,
                      ctypes.c_long]
libc.munmap.argtypes = [ctypes.c_void_p, ctypes.c_size_t]
PROT_RW, MAP_PRIVATE_ANON = 3, 0x22


def read_cl(path):
    with open(os.path.join(gfxtest.ROOT, path)) as f:
        return f.read()


class ProgramData(unittest.TestCase):
    def test_globals_and_memcheck(self):
        for arch in ("gfx950", "gfx942"):
            for opt in ("-O0", "-O3"):
                with self.subTest(arch=arch, opt=opt):
                    dev = gfxemu.Device(arch, threads=2)
                    m = dev.load(gfxtest.compile_cl(read_cl("tests/kernels/progdata.cl"),
                                                    "progdata", arch=arch, opt=opt))
                    self.assertEqual(struct.unpack("<8i", m.read_global("lut")),
                                     (3, 1, 4, 1, 5, 9, 2, 6))
                    out = bytearray(128 * 4)
                    for _ in range(2):
                        m.kernel("count").launch(2, 64, out)
                    self.assertEqual(struct.unpack("<i", m.read_global("counter"))[0], 256)
                    self.assertEqual(sorted(struct.unpack("<128i", out)), list(range(128, 256)))
                    m.write_global("counter", struct.pack("<i", 7))
                    m.kernel("count").launch(2, 64, out)
                    self.assertEqual(sorted(struct.unpack("<128i", out)), list(range(7, 135)))
                    with self.assertRaises(gfxemu.Error):
                        m.global_address("no_such_variable")
                    # off-by-one read: runs as on hardware; memcheck names lane 63
                    src = bytearray(struct.pack("<64i", *range(100, 164)))
                    dst = bytearray(256)
                    st = m.kernel("shift_read").launch(1, 64, gfxemu.In(src), dst)
                    self.assertEqual(st["memcheck_errors"], 0)
                    got = struct.unpack("<64i", dst)
                    self.assertEqual(got[:63], tuple(range(101, 164)))
                    self.assertEqual(got[63], 0)
                    st = m.kernel("shift_read").launch(1, 64, gfxemu.In(src), dst, memcheck=True)
                    self.assertEqual(st["memcheck_errors"], 1, st["memcheck"])
                    self.assertIn("lane 63", st["memcheck"][0])
                    self.assertIn("read of 4 bytes", st["memcheck"][0])
                    self.assertIn("0 bytes past the end of the 256-byte buffer",
                                  st["memcheck"][0])
                    dev.close()


VECADD = None


def vecadd_code():
    global VECADD
    if VECADD is None:
        k = gfxemu.load(gfxtest.compile_cl(read_cl("examples/vecadd.cl"), "vecadd")).kernel(
            "vecadd")
        text_addr, text = k.module.text
        VECADD = (text[k.info["entry"] - text_addr:], k.info["rsrc2"])
    return VECADD


class HostRanges(unittest.TestCase):
    def setUp(self):
        code, self.rsrc2 = vecadd_code()
        self.code = ctypes.create_string_buffer(code, len(code))
        self.n = 256
        self.a = (ctypes.c_float * self.n)(*range(self.n))
        self.b = (ctypes.c_float * self.n)(*[2.0 * i for i in range(self.n)])
        self.c = (ctypes.c_float * self.n)()
        self.args = ctypes.create_string_buffer(struct.pack(
            "<QQQi", ctypes.addressof(self.a), ctypes.addressof(self.b),
            ctypes.addressof(self.c), self.n), 64)

    def run_vecadd(self, ranges=None):
        return gfxemu.run_asm(ctypes.addressof(self.code), len(self.code), self.n // 64, 1, 1,
                              64, 1, 1, ctypes.addressof(self.args), rsrc2=self.rsrc2,
                              ranges=ranges)

    def all_ranges(self):
        return [(ctypes.addressof(x), ctypes.sizeof(x)) for x in (self.a, self.b, self.c,
                                                                  self.args)]

    def test_registration_is_idempotent_and_merges(self):
        for x in (self.a, self.b, self.c, self.args):
            gfxemu.map_host(x)
        gfxemu.map_host(self.a)                                  # identical: no-op
        gfxemu.map_host(ctypes.addressof(self.args) + 8, 32)    # inside: no-op
        gfxemu.map_host(ctypes.addressof(self.b) + 512, 1024)   # overlaps b's end: merges
        try:
            self.assertEqual(self.run_vecadd(), 0, gfxemu.last_error())
            self.assertEqual(list(self.c), [3.0 * i for i in range(self.n)])
        finally:
            for x in (self.a, self.c, self.args):
                gfxemu.unmap_host(x)
            gfxemu.unmap_host(ctypes.addressof(self.b))  # the merged b + extension at once
        self.assertEqual(self.run_vecadd(), 8)  # nothing registered any more
        self.assertEqual(gfxemu.last_fault().kind, "memory fault")

    def test_per_dispatch_ranges(self):
        ranges = self.all_ranges() + self.all_ranges()  # duplicates are fine
        self.assertEqual(self.run_vecadd(ranges), 0, gfxemu.last_error())
        self.assertEqual(list(self.c), [3.0 * i for i in range(self.n)])
        self.assertEqual(self.run_vecadd(), 8)  # they were for that dispatch only

    def test_unmapped_memory_is_refused(self):
        page = 4096
        p = libc.mmap(None, 2 * page, PROT_RW, MAP_PRIVATE_ANON, -1, 0)
        self.assertNotEqual(p, ctypes.c_void_p(-1).value)
        libc.munmap(p + page, page)  # the second page is gone
        try:
            with self.assertRaises(gfxemu.Error) as cm:
                gfxemu.map_host(p + page, 64)
            self.assertIn("not mapped", str(cm.exception))
            with self.assertRaises(gfxemu.Error):
                gfxemu.map_host(p, page + 1)  # one byte into the hole
            gfxemu.map_host(p, page)        # the mapped page is fine
            gfxemu.unmap_host(p, page)
            # a kernel told to use the hole never touches it: the dispatch is refused
            rc = self.run_vecadd(self.all_ranges() + [(p + page, 64)])
            self.assertNotEqual(rc, 0)
            self.assertIn("not mapped", gfxemu.last_error())
            self.assertEqual(list(self.c), [0.0] * self.n)
        finally:
            libc.munmap(p, page)


if __name__ == "__main__":
    gfxtest.main()
