"""kbuild.py - tests/common/kbuild.sh for the Python tests, without a process when nothing is to
be done (imported, not run).

kbuild(mode, out, args) builds OUT as `bash tests/common/kbuild.sh MODE OUT ARGS...` does, but
first makes kbuild.sh's check itself with mtimes (OUT.cmd holds the same command, no file named
in OUT.sum and neither compiler is newer than OUT): a test asking for dozens of code objects
would otherwise start a shell and sha1sum for each.  When that check fails, kbuild.sh decides
(by content) and rebuilds if it must.  Returns the subprocess.CompletedProcess of kbuild.sh (or
one with returncode 0 and empty output when OUT was up to date)."""
import os
import shutil
import subprocess

HERE = os.path.dirname(os.path.abspath(__file__))
_TOOLS = []


def _fresh(mode, out, args):
    try:
        mtime = os.stat(out).st_mtime_ns
        with open(out + ".cmd") as f:
            if f.read().rstrip("\n") != " ".join([mode] + list(args)):
                return False
        with open(out + ".sum") as f:
            for line in f:  # "<sha1>  <path>"
                if os.stat(line.rstrip("\n")[42:]).st_mtime_ns > mtime:
                    return False
        if not _TOOLS:
            _TOOLS.extend(os.path.realpath(shutil.which(t) or t) for t in ("clang-22", "ld.lld-22"))
        return all(int(os.stat(t).st_mtime) <= int(mtime / 1e9) for t in _TOOLS)
    except (OSError, ValueError):
        return False


def kbuild(mode, out, args):
    if _fresh(mode, out, args):
        return subprocess.CompletedProcess([], 0, "", "")
    return subprocess.run(["bash", os.path.join(HERE, "kbuild.sh"), mode, out] + list(args),
                          capture_output=True, text=True)
