"""The README's "Use from Python" and "Use as a framework's mock-GPU emulator" examples: each
README section holds its example file verbatim (examples/python_vecadd.py, examples/mock_gpu.py),
and each file runs to completion from the repository root (they check their own results)."""
import os
import re
import subprocess
import sys
import unittest

import gfxtest

EXAMPLES = {
    "Use from Python": "examples/python_vecadd.py",
    "Use as a framework's mock-GPU emulator": "examples/mock_gpu.py",
    "Use as tinygrad's mock-GPU emulator": "examples/tinygrad_remu.py",
    "Assemble without LLVM": "examples/python_asm.py",
}


def section(readme, title):
    m = re.search(r"^## %s\n(.*?)(?=^## )" % re.escape(title), readme, re.M | re.S)
    return m.group(1) if m else None


class ReadmeExamples(unittest.TestCase):
    def run_example(self, title):
        path = EXAMPLES[title]
        with open(os.path.join(gfxtest.ROOT, "README.md")) as f:
            body = section(f.read(), title)
        self.assertIsNotNone(body, "README.md has no section '%s'" % title)
        blocks = re.findall(r"```python\n(.*?)```", body, re.S)
        with open(os.path.join(gfxtest.ROOT, path)) as f:
            code = f.read()
        self.assertIn(code, blocks, "the README's example differs from %s" % path)
        env = dict(os.environ, PYTHONPATH=os.path.join(gfxtest.ROOT, "python"))
        r = subprocess.run([sys.executable, path], cwd=gfxtest.ROOT, capture_output=True,
                           text=True, env=env)
        self.assertEqual(r.returncode, 0, r.stdout + r.stderr)
        return r.stdout

    def test_use_from_python(self):
        out = self.run_example("Use from Python")
        self.assertIn("vecadd: 1000 elements verified", out)
        self.assertIn("fault: memory fault by 'global_load_dword", out)

    def test_mock_gpu(self):
        out = self.run_example("Use as a framework's mock-GPU emulator")
        self.assertIn("run_asm: 1000 elements verified", out)
        self.assertIn("wild access: rc 8 - memory fault at address 0x1000", out)

    def test_tinygrad_glue(self):
        out = self.run_example("Use as tinygrad's mock-GPU emulator")
        self.assertIn("tinygrad glue: 1000 elements verified", out)
        self.assertIn("without the buffers' ranges: rc 8 - memory fault", out)

    def test_assemble(self):
        out = self.run_example("Assemble without LLVM")
        self.assertIn("saxpy from a string: 1000 elements verified", out)
        self.assertIn("error: 2:23: invalid operand for 'v_add_f32_e32'", out)


if __name__ == "__main__":
    gfxtest.main()
