"""The Python binding (python/gfxemu): clang-22 kernels launched with every argument kind, the
errors a caller can make, and faults raised as gfxemu.Fault with the record's fields.
Expected values are computed here with host arithmetic, never taken from gfxemu."""
import array
import math
import struct
import unittest

import gfxtest
import gfxemu

EVERY = r"""
__kernel void every(__global float *out, __global const float *in, __global int *io,
                    __global int *tmp, int i, uint u, long l, ulong ul, float f, double d,
                    char c, short s, uchar uc, ushort us) {
    int t = __builtin_amdgcn_workitem_id_x();
    out[t] = in[t] * f + (float)t;
    io[t] = io[t] * 2 + i;
    tmp[t] = t + 1;
    if (t == 0) {
        __global long *o = (__global long *)(out + 64);
        o[0] = l;
        o[1] = (long)ul;
        ((__global double *)o)[2] = d;
        o[3] = (long)u;
        o[4] = c;
        o[5] = s;
        o[6] = uc;
        o[7] = us;
        o[8] = tmp[5] + tmp[63];
    }
}
"""

FAULTS = r"""
__kernel void oob(__global int *p) {
    int gid = __builtin_amdgcn_workgroup_id_x() * 128 + __builtin_amdgcn_workitem_id_x();
    p[gid] = gid;
}
__kernel void trap(__global int *p) {
    if (__builtin_amdgcn_workitem_id_x() == 3)
        __builtin_trap();
    p[0] = 1;
}
__kernel void spin(__global volatile int *p) {
    while (p[0] == 0)
        p[1]++;
}
"""

N = 64
OUT_BYTES = 4 * N + 8 * 9


def f32(x):
    return struct.unpack("<f", struct.pack("<f", x))[0]


class Every(unittest.TestCase):
    @classmethod
    def setUpClass(cls):
        cls.dev = gfxemu.Device("gfx950", threads=2)
        cls.mod = cls.dev.load(gfxtest.compile_cl(EVERY, "every"))
        cls.k = cls.mod.kernel("every")
        cls.inp = [i * 0.25 - 3.0 for i in range(N)]
        cls.io0 = [7 * i - 100 for i in range(N)]

    def check(self, out, io, i, u, l, ul, f, d, c, s, uc, us):
        fl = struct.unpack("<%df" % N, out[:4 * N])
        for t in range(N):
            self.assertEqual(fl[t], f32(f32(self.inp[t] * f32(f)) + t), "out[%d]" % t)
        ints = struct.unpack("<%di" % N, io)
        self.assertEqual(list(ints), [x * 2 + i for x in self.io0])
        tail = struct.unpack("<qqdqqqqqq", out[4 * N:])
        self.assertEqual(tail, (l, ul - (1 << 64) if ul >= 1 << 63 else ul, d, u, c, s, uc, us,
                                6 + 64))

    def test_wrappers(self):
        out = gfxemu.Out(OUT_BYTES)
        io = gfxemu.InOut(struct.pack("<%di" % N, *self.io0))  # read-only source: result in .data
        stats = self.k.launch(1, 64, out, gfxemu.In(struct.pack("<%df" % N, *self.inp)), io,
                              gfxemu.Zero(4 * N), gfxemu.i32(-7), gfxemu.u32(0xfffffff0),
                              gfxemu.i64(-2 ** 40), gfxemu.u64(2 ** 63 + 5), gfxemu.f32(1.5),
                              gfxemu.f64(math.pi), gfxemu.i32(-3), gfxemu.i32(-300),
                              gfxemu.u32(200), gfxemu.u32(60000))
        self.check(out.data, io.data, -7, 0xfffffff0, -2 ** 40, 2 ** 63 + 5, 1.5, math.pi, -3,
                   -300, 200, 60000)
        self.assertEqual(stats["waves"], 1)
        self.assertEqual(stats["workgroups"], 1)
        self.assertGreater(stats["wave_insts"], 10)

    def test_plain_values_and_buffers(self):
        out = bytearray(OUT_BYTES)  # writable: in/out, results land in it
        io = array.array("i", self.io0)
        tmp = self.dev.alloc(4 * N)
        target = bytearray(4 * N)
        # Plain ints/floats take the argument's size; dev.launch is the same as kernel.launch.
        self.dev.launch(self.k, (1, 1, 1), [64], out, memoryview(
            struct.pack("<%df" % N, *self.inp)), io, tmp, 5, 4000000000, -1, 2 ** 64 - 1, 0.5,
            -2.25, 127, -32768, 255, 65535)
        self.check(bytes(out), io.tobytes(), 5, 4000000000, -1, 2 ** 64 - 1, 0.5, -2.25, 127,
                   -32768, 255, 65535)
        self.assertEqual(tmp.read(8), struct.pack("<2i", 1, 2))
        tmp.read_into(target)
        self.assertEqual(struct.unpack("<%di" % N, target), tuple(range(1, N + 1)))
        tmp.free()

    def test_out_target_and_device_buffer_roundtrip(self):
        out_target = bytearray(OUT_BYTES)
        inbuf = self.dev.buffer(struct.pack("<%df" % N, *self.inp))
        self.assertEqual(inbuf.size, 4 * N)
        self.assertEqual(inbuf.read(), struct.pack("<%df" % N, *self.inp))
        io = bytearray(struct.pack("<%di" % N, *self.io0))
        o = gfxemu.Out(out_target)
        self.k.launch(1, 64, o, inbuf, io, gfxemu.Zero(4 * N), 1, 2, 3, 4, 1.0, 2.0, 5, 6, 7, 8)
        self.assertIs(o.data, out_target)
        self.check(out_target, io, 1, 2, 3, 4, 1.0, 2.0, 5, 6, 7, 8)
        inbuf.write(b"\0\0\0\0", offset=4)
        self.assertEqual(inbuf.read(4, offset=4), b"\0\0\0\0")
        with self.assertRaises(ValueError):
            inbuf.write(b"12345", offset=4 * N - 4)

    def test_argument_errors(self):
        k = self.k
        good = [gfxemu.Out(OUT_BYTES), b"\0" * 4 * N, bytearray(4 * N), gfxemu.Zero(4 * N), 1,
                2, 3, 4, 1.0, 2.0, 5, 6, 7, 8]

        def bad(index, value, words):
            args = list(good)
            args[index] = value
            with self.assertRaises(gfxemu.ArgumentError) as cm:
                k.launch(1, 64, *args)
            for w in words:
                self.assertIn(w, str(cm.exception))
            self.assertEqual(cm.exception.code, "invalid")
            self.assertIsInstance(cm.exception, TypeError)

        with self.assertRaisesRegex(gfxemu.ArgumentError, "takes 14 arguments, 13 given"):
            k.launch(1, 64, *good[:-1])
        bad(0, gfxemu.i32(1), ["argument 0 (float*)", "is a pointer"])
        bad(4, b"123", ["argument 4 (int) is a by-value argument of 4 bytes; the bytes holds 3"])
        bad(4, gfxemu.Zero(4), ["argument 4 (int)", "is not a pointer"])
        bad(4, gfxemu.i64(1), ["argument 4 (int) is 4 bytes, i64 gives 8"])
        bad(10, gfxemu.i32(300), ["argument 10 (char) is 1 byte, i32 gives 4"])
        bad(10, 300, ["argument 10 (char)", "does not fit 1 bytes"])
        bad(10, -129, ["argument 10 (char)", "does not fit 1 bytes"])
        bad(4, 1.5, ["argument 4 (int) is an integer"])
        bad(4, 2 ** 33, ["does not fit 4 bytes"])
        bad(4, "7", ["cannot pass str"])
        with self.assertRaises(ValueError):
            gfxemu.i32(2 ** 31)
        with self.assertRaises(ValueError):
            gfxemu.u64(-1)
        with self.assertRaises(TypeError):
            gfxemu.i32(1.5)
        with self.assertRaises(ValueError):
            k.launch((0, 1), 64, *good)
        # A float for an int parameter is refused (the metadata names the type: #17 item 3);
        # its bits can still be passed on purpose, as the argument's raw bytes.
        bad(4, gfxemu.f32(1.0), ["argument 4 (int) is an integer; gfxemu.f32 gives a floating"])
        out = gfxemu.Out(OUT_BYTES)
        io = bytearray(struct.pack("<%di" % N, *self.io0))
        args = list(good)
        args[0], args[2], args[4] = out, io, struct.pack("<f", 1.0)
        k.launch(1, 64, *args)
        self.assertEqual(struct.unpack("<i", io[:4])[0], self.io0[0] * 2 + 0x3f800000)


class Faults(unittest.TestCase):
    @classmethod
    def setUpClass(cls):
        cls.dev = gfxemu.Device("gfx950")
        cls.mod = cls.dev.load(gfxtest.compile_cl(FAULTS, "faults"))

    def test_memory_fault_fields(self):
        # A page of ints (buffers are page-granular, as on hardware: a store past the end but
        # inside the page lands in its padding) and 9 workgroups of 128: the first bad store is
        # gid 1024 = workgroup 8, wave 0, lane 0; all lanes of that wave are bad.
        buf = self.dev.alloc(4096)
        k = self.mod.kernel("oob")
        with self.assertRaises(gfxemu.Fault) as cm:
            k.launch(9, 128, buf)
        f = cm.exception
        self.assertEqual(f.kind, "memory fault")
        self.assertEqual(f.code, "fault")
        self.assertEqual(f.address, buf.addr + 4 * 1024)
        self.assertEqual(f.size, 4)
        self.assertTrue(f.write)
        self.assertEqual(f.workgroup, (8, 0, 0))
        self.assertEqual(f.wave, 0)
        # Lanes 0..63 are bad; the record holds at least the first of them.
        self.assertEqual(f.lanes & 1, 1)
        self.assertEqual(f.op, "global_store_dword")
        self.assertTrue(f.instruction.startswith("global_store_dword "), f.instruction)
        text_addr, text = self.mod.text
        self.assertTrue(text_addr <= f.pc < text_addr + len(text))
        self.assertEqual(f.kernel, "oob")
        self.assertIn("write of 4 bytes", str(f))
        self.assertIn("workgroup (8,0,0), wave 0", f.message)
        # The device still works: the same kernel in bounds.
        k.launch(2, 128, buf)
        self.assertEqual(struct.unpack("<256i", buf.read(4 * 256)), tuple(range(256)))

    def test_trap_and_watchdog(self):
        with self.assertRaises(gfxemu.Fault) as cm:
            self.mod.kernel("trap").launch(1, 64, gfxemu.Zero(4))
        self.assertEqual(cm.exception.kind, "trap")
        self.assertEqual(cm.exception.instruction, "s_trap 2")
        with self.assertRaises(gfxemu.Fault) as cm:
            self.mod.kernel("spin").launch(1, 64, gfxemu.Zero(8), max_insts=20000)
        self.assertEqual(cm.exception.kind, "watchdog")
        self.assertGreaterEqual(cm.exception.wave_insts, 20000)

    def test_resource_error(self):
        with self.assertRaises(gfxemu.Error) as cm:
            self.mod.kernel("oob").launch(1, 64, gfxemu.Zero(256), dynamic_lds=200000)
        self.assertEqual(cm.exception.code, "resource")
        self.assertIn("LDS", str(cm.exception))


class Modules(unittest.TestCase):
    def test_load_errors(self):
        with self.assertRaises(gfxemu.Error) as cm:
            gfxemu.load("/nonexistent/k.co")
        self.assertEqual(cm.exception.code, "io")
        self.assertIn("/nonexistent/k.co", str(cm.exception))
        with self.assertRaises(gfxemu.Error) as cm:
            gfxemu.load(b"\x7fELF not really")
        self.assertEqual(cm.exception.code, "format")
        with self.assertRaises(gfxemu.Error) as cm:
            gfxemu.Device("gfx908")
        self.assertEqual(cm.exception.code, "arch")
        self.assertEqual(gfxemu.Device("cdna2", threads=1).arch, "gfx90a")
        self.assertEqual(gfxemu.Device("gfx90a:sramecc-:xnack-", threads=1).arch, "gfx90a")
        self.assertEqual(gfxemu.Device("rdna3", threads=1).arch, "gfx1100")
        self.assertEqual(gfxemu.Device("gfx1201", threads=1).arch, "gfx1201")

    def test_kernels_symbols_not_found(self):
        path = gfxtest.compile_cl(FAULTS, "faults")
        with open(path, "rb") as f:
            m = gfxemu.load(f.read())  # from bytes
        self.assertEqual(sorted(m.kernels), ["oob", "spin", "trap"])
        self.assertEqual(m.arch, "gfx950")
        with self.assertRaises(gfxemu.Error) as cm:
            m.kernel("nope")
        self.assertEqual(cm.exception.code, "not_found")
        self.assertIn("no kernel 'nope' (kernels: ", str(cm.exception))
        # Without a device, kernels run on the default device of their architecture.
        buf = bytearray(4 * 128)
        m.kernel("oob").launch(1, 128, buf)
        self.assertEqual(struct.unpack("<128i", buf), tuple(range(128)))

    def test_gfx942(self):
        path = gfxtest.compile_cl(EVERY, "every", arch="gfx942")
        dev = gfxemu.Device("cdna3", threads=1)
        self.assertEqual(dev.arch, "gfx942")
        self.assertEqual(dev.threads, 1)
        k = dev.load(path).kernel("every")
        io = bytearray(4 * N)
        out = gfxemu.Out(OUT_BYTES)
        k.launch(1, 64, out, bytes(4 * N), io, gfxemu.Zero(4 * N), 3, 0, 0, 0, 0.0, 0.0, 0, 0,
                 0, 0)
        self.assertEqual(struct.unpack("<%di" % N, io), (3,) * N)
        with self.assertRaises(gfxemu.Error) as cm:
            gfxemu.Device("gfx950").load(path)
        self.assertEqual(cm.exception.code, "arch")

    def test_generic_target(self):
        # a gfx12-generic code object runs on gfx1201 (README, "Code objects for other
        # processors of a family"); Module.target names what it was built for
        path = gfxtest.compile_cl(EVERY, "every", arch="gfx12-generic")
        dev = gfxemu.Device("gfx1201", threads=1)
        m = dev.load(path)
        self.assertEqual((m.arch, m.target), ("gfx1201", "gfx12-generic"))
        io = bytearray(4 * N)
        m.kernel("every").launch(1, 64, gfxemu.Out(OUT_BYTES), bytes(4 * N), io,
                                 gfxemu.Zero(4 * N), 5, 0, 0, 0, 0.0, 0.0, 0, 0, 0, 0)
        self.assertEqual(struct.unpack("<%di" % N, io), (5,) * N)
        self.assertEqual(gfxemu.load(gfxtest.compile_cl(EVERY, "every")).target, "gfx950")


if __name__ == "__main__":
    gfxtest.main()
