"""A minimal PEP 517 build backend for the gfxemu binding (standard library only).

It writes a wheel holding gfxemu/*.py and, when one is found, a copy of libgfxemu.so (from
GFXEMU_LIB, else ../build/libgfxemu.so relative to this file); with the library the wheel is
tagged for this platform, without it the package is pure Python and looks the library up at
import time.  Also: build_sdist, and build_editable (PEP 660) for `pip install -e ./python`.
"""
import base64
import hashlib
import os
import re
import sys
import sysconfig
import tarfile
import zipfile

HERE = os.path.dirname(os.path.abspath(__file__))
NAME = "gfxemu"


def _version():
    with open(os.path.join(HERE, "pyproject.toml")) as f:
        return re.search(r'^version\s*=\s*"([^"]+)"', f.read(), re.M).group(1)


def _library():
    path = os.environ.get("GFXEMU_LIB") or os.path.join(os.path.dirname(HERE), "build",
                                                       "libgfxemu.so")
    return path if os.path.isfile(path) else None


def _metadata(version):
    return ("Metadata-Version: 2.1\nName: %s\nVersion: %s\nSummary: Run AMD Instinct GPU machine "
            "code (gfx950, gfx942) on the CPU\nRequires-Python: >=3.8\n"
            "Provides-Extra: numpy\nRequires-Dist: numpy; extra == \"numpy\"\n" % (NAME, version))


def _write_wheel(directory, files, pure):
    """files: list of (archive name, bytes).  Returns the wheel's file name."""
    version = _version()
    plat = "any" if pure else re.sub(r"[-.]", "_", sysconfig.get_platform())
    tag = "py3-none-" + plat
    dist = "%s-%s.dist-info" % (NAME, version)
    wheel = ("Wheel-Version: 1.0\nGenerator: gfxemu _gfxemu_build\nRoot-Is-Purelib: %s\n"
             "Tag: %s\n" % ("true" if pure else "false", tag))
    files = files + [(dist + "/METADATA", _metadata(version).encode()),
                     (dist + "/WHEEL", wheel.encode())]
    record = []
    for name, data in files:
        digest = base64.urlsafe_b64encode(hashlib.sha256(data).digest()).rstrip(b"=").decode()
        record.append("%s,sha256=%s,%d" % (name, digest, len(data)))
    record.append(dist + "/RECORD,,")
    files.append((dist + "/RECORD", ("\n".join(record) + "\n").encode()))
    fname = "%s-%s-%s.whl" % (NAME, version, tag)
    with zipfile.ZipFile(os.path.join(directory, fname), "w", zipfile.ZIP_DEFLATED) as z:
        for name, data in files:
            info = zipfile.ZipInfo(name, date_time=(2020, 1, 1, 0, 0, 0))
            info.external_attr = 0o644 << 16
            info.compress_type = zipfile.ZIP_DEFLATED
            z.writestr(info, data)
    return fname


def _package_files():
    out = []
    pkg = os.path.join(HERE, NAME)
    for f in sorted(os.listdir(pkg)):
        if f.endswith(".py"):
            with open(os.path.join(pkg, f), "rb") as fp:
                out.append((NAME + "/" + f, fp.read()))
    return out


def get_requires_for_build_wheel(config_settings=None):
    return []


get_requires_for_build_sdist = get_requires_for_build_editable = get_requires_for_build_wheel


def build_wheel(wheel_directory, config_settings=None, metadata_directory=None):
    files = _package_files()
    lib = _library()
    if lib:
        with open(lib, "rb") as f:
            files.append((NAME + "/libgfxemu.so", f.read()))
        sys.stderr.write("gfxemu: bundling %s\n" % lib)
    else:
        sys.stderr.write("gfxemu: no libgfxemu.so found (run `make` first, or set GFXEMU_LIB); "
                         "the package will look for it at import time\n")
    return _write_wheel(wheel_directory, files, pure=lib is None)


def build_editable(wheel_directory, config_settings=None, metadata_directory=None):
    # A .pth file puts this directory on sys.path: the package (and its library search from the
    # source tree) are used in place.
    return _write_wheel(wheel_directory, [("gfxemu_editable.pth", (HERE + "\n").encode())],
                        pure=True)


def build_sdist(sdist_directory, config_settings=None):
    base = "%s-%s" % (NAME, _version())
    fname = base + ".tar.gz"
    with tarfile.open(os.path.join(sdist_directory, fname), "w:gz") as t:
        for f in ["pyproject.toml", "README.md", "_gfxemu_build.py"]:
            t.add(os.path.join(HERE, f), base + "/" + f)
        for name, _ in _package_files():
            t.add(os.path.join(HERE, name), base + "/" + name)
        pkginfo = _metadata(_version()).encode()
        import io
        info = tarfile.TarInfo(base + "/PKG-INFO")
        info.size = len(pkginfo)
        t.addfile(info, io.BytesIO(pkginfo))
    return fname
