"""Shared set-up of the Python tests (tests/python/test_*.py; not a test itself).

Importing it: finds the repository root, points GFXEMU_LIB at $BUILD/libgfxemu.so (BUILD as
tests/run_tests.sh sets it, default build), puts python/ first on sys.path, and, when that library
was built with AddressSanitizer (make check-sanitize), re-runs the test with the sanitizer
runtimes preloaded (python3 itself is not instrumented; its own leaks are not ours).
Also: a clang-22 helper that compiles OpenCL kernels, one that assembles snippets (gfxemu's own
assembler, cross-checked with llvm-mc-22 on request), and a tiny unittest main that prints the
runner's closing line.
"""
import hashlib
import os
import subprocess
import sys
import tempfile
import unittest

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
BUILD = os.path.join(ROOT, os.environ.get("BUILD", "build"))
LIB = os.path.join(BUILD, "libgfxemu.so")
if not os.path.isfile(LIB):
    sys.exit("gfxtest: %s is missing; run `make` first" % LIB)
os.environ["GFXEMU_LIB"] = LIB
sys.path.insert(0, os.path.join(ROOT, "python"))


def _sanitizer_runtimes():
    try:
        out = subprocess.run(["ldd", LIB], capture_output=True, text=True).stdout
    except OSError:
        return []
    libs = []
    for line in out.splitlines():
        parts = line.split()
        if len(parts) >= 3 and parts[1] == "=>" and ("libasan" in parts[0] or
                                                   "libubsan" in parts[0]):
            libs.append(parts[2])
    return libs


if "GFXTEST_PRELOADED" not in os.environ:
    _rt = _sanitizer_runtimes()
    if _rt:
        env = dict(os.environ, GFXTEST_PRELOADED="1", LD_PRELOAD=":".join(_rt),
                   ASAN_OPTIONS=os.environ.get("ASAN_OPTIONS", "") + ":detect_leaks=0")
        sys.stdout.flush()
        os.execve(sys.executable, getattr(sys, "orig_argv", [sys.executable] + sys.argv), env)

TMP = tempfile.mkdtemp(prefix="gfxemu-pytest-")
CLANG = ["clang-22", "-x", "cl", "-cl-std=CL2.0", "-target", "amdgcn-amd-amdhsa", "-nogpulib"]


def run(cmd, **kw):
    r = subprocess.run(cmd, capture_output=True, text=True, **kw)
    if r.returncode != 0:
        raise RuntimeError("%s failed (%d): %s" % (" ".join(cmd), r.returncode, r.stderr.strip()))
    return r.stdout


KEPT = os.path.join(BUILD, "test-kernels", "python")
sys.path.insert(0, os.path.join(ROOT, "tests", "common"))
from kbuild import kbuild  # noqa: E402


def compile_cl(source, name, arch="gfx950", opt="-O2", include_dir=None):
    """Compile OpenCL source with clang-22 and link it: path of the code object.  It is kept in
    $BUILD/test-kernels/python/ under a name with a hash of the source, and built again only when
    out of date (tests/common/kbuild.py): the tests compile the same kernels on every run.
    include_dir: where the source's quoted includes are found (the directory of the file it was
    read from: the copy is compiled elsewhere), e.g. "../common/cl_barrier.h"."""
    base = os.path.join(KEPT, "%s-%s%s-%s" % (name, arch, opt,
                                              hashlib.sha1(source.encode()).hexdigest()[:16]))
    if not os.path.exists(base + ".cl"):  # same name, same text: never rewritten (its mtime stays)
        os.makedirs(KEPT, exist_ok=True)
        with open(base + ".cl.tmp%d" % os.getpid(), "w") as f:
            f.write(source)
        os.replace(base + ".cl.tmp%d" % os.getpid(), base + ".cl")
    inc = ["-I", include_dir] if include_dir else []
    r = kbuild("co", base + ".co", CLANG[1:] + ["-mcpu=" + arch, opt] + inc + [base + ".cl"])
    if r.returncode != 0:
        raise RuntimeError("compiling %s failed (%d): %s" % (name, r.returncode, r.stderr.strip()))
    return base + ".co"


def _llvm_mc_text(asm, name, arch):
    """The .text bytes llvm-mc-22 makes of asm.  LLVM is a fixed oracle: the bytes are kept in
    $BUILD/oracle-cache/ (as tests/common/util.c keeps the C tests' answers), keyed by the target,
    the text and the llvm-mc-22 binary, and read back when the same text comes again (not with
    GFXEMU_ORACLE_CACHE=0)."""
    import shutil
    mc = os.path.realpath(shutil.which("llvm-mc-22") or "llvm-mc-22")
    st = os.stat(mc)
    key = hashlib.sha1(("%s\0%d %d %d\0%s\0%s" % (mc, st.st_size, int(st.st_mtime), st.st_ino,
                                                 arch, asm)).encode()).hexdigest()
    cached = os.path.join(BUILD, "oracle-cache", "pymc-%s-%s" % (arch, key))
    use = os.environ.get("GFXEMU_ORACLE_CACHE") != "0"
    if use and os.path.exists(cached):
        with open(cached, "rb") as f:
            return f.read()
    base = os.path.join(TMP, name)
    with open(base + ".s", "w") as f:
        f.write(asm)
    run(["llvm-mc-22", "-arch=amdgcn", "-mcpu=" + arch, "-filetype=obj", base + ".s",
         "-o", base + ".o"])
    run(["llvm-objcopy-22", "-O", "binary", "--only-section=.text", base + ".o", base + ".bin"])
    with open(base + ".bin", "rb") as f:
        theirs = f.read()
    if use:
        os.makedirs(os.path.dirname(cached), exist_ok=True)
        with open(cached + ".tmp%d" % os.getpid(), "wb") as f:
            f.write(theirs)
        os.replace(cached + ".tmp%d" % os.getpid(), cached)
    return theirs


def assemble_text(asm, name, arch="gfx950"):
    """The instruction bytes of `asm` from gfxemu's own assembler (gfxemu.assemble, raw=True).

    With GFXEMU_ASM_CROSSCHECK set (tests/isa/test_asm_crosscheck.sh) the text is also assembled
    by llvm-mc-22 (.text extracted with llvm-objcopy-22) and a line "asm-crosscheck: ARCH: 1
    snippets, M mismatches" is appended to the file it names: that check is what keeps these bytes
    honest."""
    import gfxemu
    ours = gfxemu.assemble(asm, arch, raw=True)
    report = os.environ.get("GFXEMU_ASM_CROSSCHECK")
    if report:
        theirs = _llvm_mc_text(asm, name, arch)
        bad = int(theirs != ours)
        if bad:
            sys.stderr.write("asm-crosscheck: %s: gfxemu and llvm-mc-22 differ on:\n%s\n"
                             "  gfxemu    : %s\n  llvm-mc-22: %s\n"
                             % (arch, asm, ours.hex(" "), theirs.hex(" ")))
        line = "asm-crosscheck: %s: 1 snippets, %d mismatches\n" % (arch, bad)
        sys.stderr.write(line)
        if report != "1":
            with open(report, "a") as f:
                f.write(line)
    return ours


def main():
    """unittest main that ends with the runner's 'N passed, N failed' line."""
    prog = unittest.main(exit=False, verbosity=2)
    r = prog.result
    bad = len(r.failures) + len(r.errors) + len(r.unexpectedSuccesses)
    print("%d passed, %d failed" % (r.testsRun - bad, bad))
    if r.skipped:
        print("skipped (counted as failures): %s" % [str(t) for t, _ in r.skipped])
    sys.exit(1 if bad or r.skipped or not r.testsRun else 0)
