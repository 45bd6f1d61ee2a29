"""Helpers shared by the tests/tools/*.py scripts (imported, not run): where the CLI and the
scratch directory are, a check() that counts failures, finish() that reports them, and the
README's clang-22 + ld.lld-22 kernel build."""
import os
import shutil
import subprocess
import sys

BUILD = os.environ.get("BUILD", "build")
GFXEMU = os.environ.get("GFXEMU", os.path.join(BUILD, "gfxemu"))
HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.join(HERE, "..", "common"))
from kbuild import kbuild  # noqa: E402
failures = []


def scratch(name):
    """build/test-data/NAME, created if missing."""
    d = os.path.join(BUILD, "test-data", name)
    os.makedirs(d, exist_ok=True)
    return d


def check(cond, what):
    if not cond:
        failures.append(what)
        print("FAIL:", what, file=sys.stderr)


def finish(name, extra=""):
    """Report and exit: status 1 when any check failed."""
    if failures:
        print("%s: %d checks failed" % (name, len(failures)))
        sys.exit(1)
    print("%s: all checks passed%s" % (name, extra))


def compile_cl(src, cpu, out, opt="-O2", extra=()):
    """clang-22 -c SRC for CPU, then ld.lld-22 -shared: the code object OUT (returned).  The
    object is built in $BUILD/test-kernels/ by tests/common/kbuild.py, again only when out of
    date, and copied to OUT."""
    kept = os.path.join(BUILD, "test-kernels", "tools", os.path.relpath(out, BUILD).replace("/", "_"))
    r = kbuild("co", kept, ["-x", "cl", "-cl-std=CL2.0", "-target", "amdgcn-amd-amdhsa",
                            "-mcpu=" + cpu, "-nogpulib", opt, *extra, src])
    if r.returncode != 0:
        raise subprocess.CalledProcessError(r.returncode, "kbuild.sh co " + kept, r.stdout, r.stderr)
    shutil.copyfile(kept, out)
    return out
