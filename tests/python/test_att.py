"""The binding's twin of `gfxemu run --att DIR`: kernel.launch(..., att=DIR or {...}) writes the
same thread trace, read back here with the test decoder of tests/tools/att_decode.py: the loop
kernel of tests/tools/att_kernels.cl with n = 4 runs its loop body 4 times in every traced wave,
and with --cus 4 (one shader engine of 4 CUs) workgroup L runs on CU L mod 4 (docs/att.md)."""
import os
import shutil
import sys
import unittest

import gfxtest
import gfxemu

sys.path.insert(0, os.path.join(gfxtest.ROOT, "tests", "tools"))
import att_decode  # noqa: E402

KERNELS = os.path.join(gfxtest.ROOT, "tests", "tools", "att_kernels.cl")


class Att(unittest.TestCase):
    @classmethod
    def setUpClass(cls):
        with open(KERNELS) as f:
            cls.co = gfxtest.compile_cl(f.read(), "att", "gfx950")
        cls.insts, cls.syms = att_decode.disassemble(cls.co, "gfx950")

    def trace(self, name, att, module=None, grid=8):
        d = os.path.join(gfxtest.TMP, "att-py-" + name)
        shutil.rmtree(d, ignore_errors=True)
        if isinstance(att, dict):
            att = dict(att, dir=d)
        else:
            att = d
        dev = gfxemu.Device("gfx950", cus=4)
        m = module or dev.load(self.co)
        out = bytearray(4 * 64 * grid)
        src = bytes(4 * 64 * grid)
        m.kernel("loop").launch(grid, 64, out, src, gfxemu.i32(4), device=dev, att=att)
        return d, att_decode.decode_dir(d)

    def test_loop_trace(self):
        d, (index, ses) = self.trace("loop", "dir")
        waves = ses[0]["waves"]
        self.assertEqual(sorted(w["cu"] for w in waves), [0, 0, 1, 1, 2, 2, 3, 3])
        traced = [w for w in waves if w["insts"]]
        self.assertEqual(len(traced), 2)  # workgroups 0 and 4 on CU 0
        for w in traced:
            pcs = [i[1] for i in w["insts"]]
            self.assertEqual(pcs[0], self.syms["loop"])
            self.assertEqual(w["insts"][-1][2], "s_endpgm")
            back = [i for i in w["insts"] if i[3] == "JUMP" and
                    att_decode.branch_target(i[1], i[2], self.insts[i[1]][1]) < i[1]]
            self.assertEqual(len(back), 3)
        with open(self.co, "rb") as a, open(os.path.join(d, "gfxemu_code_object_id_1.out"),
                                            "rb") as b:
            self.assertEqual(a.read(), b.read())

    def test_selection(self):
        _, (index, ses) = self.trace("sel", {"target_cu": 3, "workgroups": "7"})
        traced = [w for w in ses[0]["waves"] if w["insts"]]
        self.assertEqual([w["cu"] for w in traced], [3])
        self.assertEqual([t["workgroup_linear"] for t in index["traced_waves"]], [7])

    def test_from_memory_has_no_code_object_copy(self):
        with open(self.co, "rb") as f:
            m = gfxemu.load(f.read())
        d = os.path.join(gfxtest.TMP, "att-py-mem")
        shutil.rmtree(d, ignore_errors=True)
        dev = gfxemu.Device("gfx950", cus=4)
        m.kernel("loop").launch(1, 64, bytearray(256), bytes(256), gfxemu.i32(1), device=dev,
                                att=d)
        self.assertFalse(any(f.endswith(".out") for f in os.listdir(d)))
        _, ses = att_decode.decode_dir(d, walk=False)
        self.assertEqual(len(ses[0]["waves"]), 1)

    def test_bad_options(self):
        k = gfxemu.load(self.co).kernel("loop")
        args = (bytearray(256), bytes(256), gfxemu.i32(1))
        for att, exc in (({"target_cu": 1}, ValueError), ({"dir": "x", "target_cu": 16},
                                                         ValueError),
                         ({"dir": "x", "simd_select": 0}, ValueError),
                         ({"dir": "x", "bogus": 1}, ValueError), (5, ValueError),
                         ({"dir": "x", "workgroups": "2-1"}, ValueError)):
            with self.assertRaises(exc, msg=repr(att)):
                k.launch(1, 64, *args, att=att)
        blocker = os.path.join(gfxtest.TMP, "att-py-file")
        open(blocker, "w").close()
        with self.assertRaises(gfxemu.Error) as e:
            k.launch(1, 64, *args, att=blocker)
        self.assertIn("not a writable directory", str(e.exception))


if __name__ == "__main__":
    gfxtest.main()
