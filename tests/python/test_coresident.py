"""Co-resident workgroups through the Python binding: a flag wait between workgroups completes
with 1 and 2 threads, a kernel that waits forever raises gfxemu.Fault of kind "deadlock" quickly
with the message the C API gives, a too-small device (cus=1) names the workgroup that cannot be
resident, timeout= and racecheck= reach the launch, Device.races() lists the hazard.
Expected values are worked out here, never taken from gfxemu."""
import os
import struct
import time
import unittest

import gfxtest
import gfxemu

DIR = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "dispatch")
SRC = open(os.path.join(DIR, "coresident.cl")).read()


class CoResident(unittest.TestCase):
    def test_flag_wait_any_threads(self):
        for arch in ("gfx950", "gfx942"):
            path = gfxtest.compile_cl(SRC, "coresident_py", include_dir=DIR, arch=arch)
            for threads in (1, 2):
                with gfxemu.Device(arch, threads=threads) as dev:
                    k = dev.load(path).kernel("flag_wait")
                    out = bytearray(5 * 64 * 4)
                    k.launch(5, 64, gfxemu.Zero(4), out)
                    got = struct.unpack("320I", bytes(out))
                    self.assertEqual(got, tuple(42 + i // 64 for i in range(320)))

    def test_deadlock(self):
        path = gfxtest.compile_cl(SRC, "coresident_py", include_dir=DIR)
        with gfxemu.Device("gfx950", threads=2) as dev:
            k = dev.load(path).kernel("stuck")
            flag = dev.alloc(4)
            t0 = time.monotonic()
            with self.assertRaises(gfxemu.Fault) as cm:
                k.launch(2, 64, flag, gfxemu.Zero(256))
            self.assertLess(time.monotonic() - t0, 3.0)
            f = cm.exception
            self.assertEqual(f.kind, "deadlock")
            self.assertTrue(f.message.startswith(
                "deadlock: 2 waves of 2 workgroups wait without progress; wave 0 of workgroup "
                "(0,0,0) spins at pc 0x"), f.message)
            self.assertIn("reading 0x%x (argument 0 + 0x0)" % flag.addr, f.message)

    def test_cus_and_residency(self):
        path = gfxtest.compile_cl(SRC, "coresident_py", include_dir=DIR, arch="gfx942")
        with gfxemu.Device("gfx942", threads=1, cus=1) as dev:
            self.assertEqual(dev.cus, 1)
            k = dev.load(path).kernel("wait_last")
            with self.assertRaises(gfxemu.Fault) as cm:
                k.launch(2, 64, gfxemu.Zero(4), gfxemu.Zero(8), dynamic_lds=40000)
            self.assertIn("workgroup (1,0,0) can never be resident while these wait",
                          cm.exception.message)
            dev.cus = 2
            k.launch(2, 64, gfxemu.Zero(4), gfxemu.Zero(8), dynamic_lds=40000)
            dev.cus = 0
            self.assertEqual(dev.cus, 304)
            with self.assertRaises(ValueError):
                dev.cus = -1

    def test_timeout_and_racecheck(self):
        path = gfxtest.compile_cl(SRC, "coresident_py", include_dir=DIR)
        with gfxemu.Device("gfx950", threads=1) as dev:
            m = dev.load(path)
            with self.assertRaises(gfxemu.Fault) as cm:
                m.kernel("stuck").launch(1, 64, gfxemu.Zero(4), gfxemu.Zero(256), timeout=0.5)
            self.assertIn(cm.exception.kind, ("deadlock", "timeout"))
            with self.assertRaises(ValueError):
                m.kernel("stuck").launch(1, 64, gfxemu.Zero(4), gfxemu.Zero(256), timeout=-1)
            out = bytearray(512)
            m.kernel("race_raw").launch(1, 128, out, racecheck=True)
            races = dev.races()
            self.assertEqual(len(races), 1, races)
            r = races[0]
            self.assertEqual(r["kind"], "RAW")
            self.assertNotEqual(r["waves"][0], r["waves"][1])
            self.assertTrue(r["instructions"][0].startswith("ds_write_b32"), r)
            self.assertTrue(r["instructions"][1].startswith("ds_read_b32"), r)
            self.assertTrue(r["message"].startswith("racecheck: RAW hazard at LDS offset 0x"))
            m.kernel("race_fenced").launch(1, 128, out, racecheck=True)
            self.assertEqual(dev.races(), [])
            got = struct.unpack("128I", bytes(out))
            self.assertEqual(got, tuple(((t + 64) & 127) * 5 for t in range(128)))


if __name__ == "__main__":
    gfxtest.main()
