"""Every OpenCL kernel file of the test suite, built twice: clang-22 -c + ld.lld-22 (the reference)
and clang-22 -S + `gfxemu as`.  For each kernel the two code objects must hold the same bytes of
the kernel's code, the same kernel descriptor (except the entry offset, which depends on the
layout and is checked to point at the kernel's code), the same metadata note and e_flags; and
llvm-readelf-22 must read gfxemu's object without warnings, gfxemu's loader must load it.
(PC-relative literals would differ if a kernel addressed .rodata and the two layouts placed it
differently; none of the suite's kernels do at present.)

Environment: GFXEMU (CLI path, default build/gfxemu), BUILD, AS_KERNELS (regex on file names),
AS_OPTS (optimisation levels for every target; default -O0 and -O2 on gfx950, -O2 on gfx942),
AS_ARCHS (default "gfx950 gfx942")."""
import concurrent.futures
import glob
import hashlib
import os
import re
import shutil
import struct
import subprocess
import sys
import threading

ROOT = os.path.abspath(os.path.join(os.path.dirname(__file__), "..", ".."))
BUILD = os.path.join(ROOT, os.environ.get("BUILD", "build"))
GFXEMU = os.environ.get("GFXEMU") or os.path.join(BUILD, "gfxemu")
if not os.path.isabs(GFXEMU):
    GFXEMU = os.path.join(ROOT, GFXEMU)
OUT = os.path.join(BUILD, "tests", "as_kernels")
sys.path.insert(0, os.path.join(ROOT, "tests", "common"))
from kbuild import kbuild  # noqa: E402


def run(cmd, **kw):
    return subprocess.run(cmd, capture_output=True, text=True, **kw)


class Elf:
    """Just enough ELF64 reading for the comparison: sections, symbols, notes."""

    def __init__(self, path):
        with open(path, "rb") as f:
            self.b = f.read()
        b = self.b
        assert b[:4] == b"\x7fELF", path
        self.eflags = struct.unpack_from("<I", b, 48)[0]
        self.abiver = b[8]
        shoff, = struct.unpack_from("<Q", b, 40)
        shnum, shstrndx = struct.unpack_from("<HH", b, 60)
        self.secs = []
        for i in range(shnum):
            name, typ, flags, addr, off, size, link, info, align, entsize = struct.unpack_from(
                "<IIQQQQIIQQ", b, shoff + 64 * i)
            self.secs.append(dict(name=name, type=typ, addr=addr, off=off, size=size, link=link))
        strs = self.secs[shstrndx]
        for s in self.secs:
            e = b.index(b"\0", strs["off"] + s["name"])
            s["name"] = b[strs["off"] + s["name"]:e].decode()
        self.syms = {}
        for s in self.secs:
            if s["type"] not in (2, 11):
                continue
            st = self.secs[s["link"]]
            for k in range(s["size"] // 24):
                nm, info, other, shndx, val, size = struct.unpack_from("<IBBHQQ", b, s["off"] + 24 * k)
                e = b.index(b"\0", st["off"] + nm)
                n = b[st["off"] + nm:e].decode()
                if n:
                    self.syms[n] = (val, size, shndx, info & 15)

    def sec(self, name):
        for s in self.secs:
            if s["name"] == name:
                return s
        return None

    def read(self, addr, n):
        for s in self.secs:
            if s["type"] != 8 and s["addr"] <= addr and addr + n <= s["addr"] + s["size"] and s["addr"]:
                return self.b[s["off"] + addr - s["addr"]:s["off"] + addr - s["addr"] + n]
        return None

    def note(self):
        for s in self.secs:
            if s["type"] != 7:
                continue
            p, end = s["off"], s["off"] + s["size"]
            while p + 12 <= end:
                nsz, dsz, typ = struct.unpack_from("<III", self.b, p)
                name = self.b[p + 12:p + 12 + nsz]
                d = p + 12 + ((nsz + 3) & ~3)
                if typ == 32 and name.startswith(b"AMDGPU"):
                    return self.b[d:d + dsz]
                p = d + ((dsz + 3) & ~3)
        return None


def readelf(path):
    """llvm-readelf-22 -a --notes PATH (its exit status and stderr are what is checked).  LLVM is
    a fixed oracle: the answer is kept in $BUILD/oracle-cache/ under a sha1 of the file's bytes
    and the llvm-readelf-22 binary (as the C tests keep theirs), so an unchanged object from
    `gfxemu as` is not read again; GFXEMU_ORACLE_CACHE=0 asks every time."""
    tool = os.path.realpath(shutil.which("llvm-readelf-22") or "llvm-readelf-22")
    st = os.stat(tool)
    with open(path, "rb") as f:
        key = hashlib.sha1(("%s %d %d %d -a --notes\0" % (tool, st.st_size, int(st.st_mtime),
                                                         st.st_ino)).encode() + f.read()).hexdigest()
    cached = os.path.join(BUILD, "oracle-cache", "readelf-" + key)
    use = os.environ.get("GFXEMU_ORACLE_CACHE") != "0"
    if use and os.path.exists(cached):
        with open(cached) as f:
            rc, err = f.read().split("\n", 1)
        return subprocess.CompletedProcess([], int(rc), "", err)
    r = run(["llvm-readelf-22", "-a", "--notes", path])
    if use:
        os.makedirs(os.path.dirname(cached), exist_ok=True)
        tmp = "%s.tmp%d.%d" % (cached, os.getpid(), threading.get_ident())
        with open(tmp, "w") as f:
            f.write("%d\n%s" % (r.returncode, r.stderr))
        os.replace(tmp, cached)
    return r


def listing(arch, code):
    """gfxemu's disassembly of code, to show where two kernels' bytes differ."""
    path = os.path.join(OUT, "diff_%d.bin" % threading.get_ident())
    with open(path, "wb") as f:
        f.write(code)
    return run([GFXEMU, "disasm", "--arch", arch, "--raw", path]).stdout.splitlines()


def swizzle_lanes(off):
    """Lane map of a ds_swizzle bit-mask offset (offset[15] = 0: lane j reads lane
    ((j & and_mask) | or_mask) ^ xor_mask within 32), None for the other modes."""
    if off & 0x8000:
        return None
    a, o, x = off & 31, (off >> 5) & 31, (off >> 10) & 31
    return [((j & a) | o) ^ x for j in range(32)]


def same_semantics(rc, gc):
    """Code that differs only in ds_swizzle bit masks meaning the same lane map: clang writes
    "pp011" as and=0x19/or=3 and llvm-mc (which gfxemu follows) reads the text as and=0x18/or=3."""
    if len(rc) != len(gc) or len(rc) % 4:
        return False
    rw = struct.unpack("<%dI" % (len(rc) // 4), rc)
    gw = struct.unpack("<%dI" % (len(gc) // 4), gc)
    for a, b in zip(rw, gw):
        if a == b:
            continue
        ds_swizzle = lambda w: w >> 26 == 0x36 and (w >> 17) & 0xff == 0x3d
        if not (ds_swizzle(a) and ds_swizzle(b)) or (a ^ b) & 0xffff0000:
            return False
        la, lb = swizzle_lanes(a & 0xffff), swizzle_lanes(b & 0xffff)
        if la is None or la != lb:
            return False
    return True


def compare(src, arch, opt, log):
    base = os.path.join(OUT, "%s_%s_%s" % (re.sub(r"[/.]", "_", os.path.relpath(src, ROOT)), arch, opt[1:]))
    cl = ["clang-22", "-x", "cl", "-cl-std=CL2.0", "-target", "amdgcn-amd-amdhsa", "-mcpu=" + arch,
          "-nogpulib", opt]
    with open(src) as f:
        text = f.read()
        if "get_global_id" in text or "get_local_id" in text:
            # kernels written against OpenCL's work-item functions build with gfxemu's header
            cl += ["-I", os.path.join(ROOT, "include"), "-include", "gfxemu/opencl.h"]
    # tests/common/kbuild.py/.sh compile only what is out of date (a second run compiles nothing);
    # `gfxemu as`, which is under test, always runs.
    r = kbuild("co", base + ".ref.co", cl[1:] + [src])
    if r.returncode and "ld.lld" not in r.stderr:
        log.append("%s %s %s: clang-22 -c failed (not compared): %s" % (src, arch, opt, r.stderr[:200]))
        return None
    if r.returncode:
        return "%s: ld.lld-22 failed: %s" % (src, r.stderr[:300])
    r = kbuild("s", base + ".s", cl[1:] + [src])
    if r.returncode:
        return "%s: clang-22 -S failed: %s" % (src, r.stderr[:300])
    r = run([GFXEMU, "as", base + ".s", "-o", base + ".co"])
    if r.returncode:
        return "%s %s %s: gfxemu as failed: %s" % (src, arch, opt, r.stderr.strip())
    r = readelf(base + ".co")
    if r.returncode or r.stderr.strip():
        return "%s %s %s: llvm-readelf-22 on gfxemu's object: %s" % (src, arch, opt, r.stderr.strip()[:300])
    ref, got = Elf(base + ".ref.co"), Elf(base + ".co")
    errs = []
    if ref.eflags != got.eflags or ref.abiver != got.abiver:
        errs.append("e_flags/ABI version 0x%x/%d, expected 0x%x/%d" % (got.eflags, got.abiver, ref.eflags, ref.abiver))
    if ref.note() != got.note():
        errs.append("metadata notes differ")
    kernels = sorted(n[:-3] for n in ref.syms if n.endswith(".kd"))
    if not kernels:
        errs.append("the reference has no kernels")
    for k in kernels:
        if k not in got.syms or k + ".kd" not in got.syms:
            errs.append("kernel %s or %s.kd missing" % (k, k))
            continue
        (ra, rs, _, _), (ga, gs, _, _) = ref.syms[k], got.syms[k]
        if rs != gs:
            errs.append("%s: size %d, expected %d" % (k, gs, rs))
            continue
        rc, gc = ref.read(ra, rs), got.read(ga, gs)
        if rc != gc and same_semantics(rc, gc):
            log.append("%s %s %s: %s: ds_swizzle masks written differently, same lanes" % (src, arch, opt, k))
        elif rc != gc:
            diff = [(a, b) for a, b in zip(listing(arch, rc), listing(arch, gc)) if a != b][:3]
            errs.append("%s: code differs (llvm, gfxemu): %s" % (k, diff))
        rkd, gkd = ref.read(ref.syms[k + ".kd"][0], 64), got.read(got.syms[k + ".kd"][0], 64)
        if rkd is None or gkd is None:
            errs.append("%s.kd unreadable" % k)
            continue
        gentry = struct.unpack_from("<q", gkd, 16)[0]
        if got.syms[k + ".kd"][0] + gentry != ga:
            errs.append("%s.kd: entry offset does not point at %s" % (k, k))
        if rkd[:16] + rkd[24:] != gkd[:16] + gkd[24:]:
            errs.append("%s.kd differs: %s vs %s" % (k, gkd.hex(), rkd.hex()))
    r = run([GFXEMU, "disasm", base + ".co"])
    if r.returncode:
        errs.append("gfxemu disasm cannot load it: %s" % r.stderr.strip())
    return ("%s %s %s: " % (os.path.relpath(src, ROOT), arch, opt) + "; ".join(errs)) if errs else None


def main():
    os.makedirs(OUT, exist_ok=True)
    srcs = sorted(glob.glob(os.path.join(ROOT, "tests", "*", "*.cl")) + glob.glob(os.path.join(ROOT, "examples", "*.cl")))
    # progdata.cl's writable data (.data, .bss) is not at lld's addresses (lld's dynamic section
    # and symbol tables are larger), so PC-relative literals into it differ byte for byte: its
    # gfxemu-assembled objects are checked by their results (tests/kernels/test_racecheck_silent.sh).
    srcs = [s for s in srcs if not s.endswith(os.path.join("kernels", "progdata.cl"))]
    pat = os.environ.get("AS_KERNELS")
    if pat:
        srcs = [s for s in srcs if re.search(pat, s)]
    # default: -O0 (calls through s_swappc, PC-relative literals) and -O2 on gfx950, -O2 on gfx942
    opts = os.environ.get("AS_OPTS")
    archs = os.environ.get("AS_ARCHS", "gfx950 gfx942").split()
    jobs = [(s, a, o) for s in srcs for a in archs
            for o in (opts.split() if opts else (["-O0", "-O2"] if a == "gfx950" else ["-O2"]))]
    log = []
    with concurrent.futures.ThreadPoolExecutor(max_workers=2) as ex:
        results = list(ex.map(lambda j: compare(j[0], j[1], j[2], log), jobs))
    fails = [e for e in results if e]
    n = len(jobs)
    for l in log:
        print("note:", l)
    for f in fails:
        print("FAIL", f)
    print("as_kernels: %d builds compared, %d failed" % (n, len(fails)))
    return 1 if fails or n == 0 else 0


if __name__ == "__main__":
    sys.exit(main())
