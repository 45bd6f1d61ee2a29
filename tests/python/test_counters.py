"""The binding's twin of `gfxemu run --counters`: kernel.launch(..., counters=True) returns the
counters under the same names, and they agree with the CLI's for the same launch (the LDS bank
conflicts of tests/tools/counters_kernels.cl at dword stride 32 are worked out by hand in
tests/tools/test_counters.py: 31 per instruction on gfx950's 64 banks, 62 for the launch)."""
import os
import re
import subprocess
import unittest

import gfxtest  # noqa: F401  (sets up the path and the library)
import gfxemu

KERNELS = os.path.join(gfxtest.ROOT, "tests", "tools", "counters_kernels.cl")


class Counters(unittest.TestCase):
    @classmethod
    def setUpClass(cls):
        cls.co = gfxtest.compile_cl(open(KERNELS).read(), "counters", "gfx950")

    def test_counters_match_cli(self):
        k = gfxemu.load(self.co).kernel("lds_b32")
        out = bytearray(256)
        st = k.launch(1, 64, out, gfxemu.i32(32), counters=True)
        c = st["counters"]
        self.assertEqual(c["SQ_LDS_BANK_CONFLICT"], 62)
        self.assertEqual(c["SQ_WAVES"], 1)
        self.assertEqual(c["SQ_INSTS_LDS"], 2)
        self.assertEqual(c["GFXEMU_VALU_UTILIZATION"], 100.0)
        self.assertEqual(c["SQ_INSTS"], st["wave_insts"])
        # results are unchanged by counting: lane l reads slot l ^ 1
        self.assertEqual(bytes(out), b"".join((l ^ 1).to_bytes(4, "little") for l in range(64)))
        cli = subprocess.run([os.path.join(gfxtest.BUILD, "gfxemu"), "run", self.co, "lds_b32",
                              "--grid", "1", "--block", "64", "--arg", "zero:256", "--arg",
                              "i32:32", "--counters"], capture_output=True, text=True).stderr
        for name, value in c.items():
            m = re.search(r"^  %s\s+([\d.]+)  " % name, cli, re.M)
            self.assertIsNotNone(m, name)
            self.assertAlmostEqual(float(m.group(1)), value, places=2, msg=name)

    def test_no_counters_by_default(self):
        k = gfxemu.load(self.co).kernel("lds_b32")
        st = k.launch(1, 64, bytearray(256), gfxemu.i32(1))
        self.assertNotIn("counters", st)


if __name__ == "__main__":
    gfxtest.main()
