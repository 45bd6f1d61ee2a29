"""Devices, buffers, code objects and launches: the Python face of include/gfxemu.h."""
import ctypes
import os
import struct

from . import _native as N

# ---- errors -------------------------------------------------------------------------------------


class Error(Exception):
    """A gfxemu call failed.  `code` is the result's short name ("invalid", "format", "arch",
    "not_found", "resource", "fault", ...); str(error) is a one-line explanation."""

    def __init__(self, message, code="invalid"):
        super().__init__(message)
        self.code = code
        self.message = message


class ArgumentError(Error, TypeError):
    """Kernel arguments that do not fit the kernel's metadata (count, kind or size)."""


class Fault(Error):
    """The kernel faulted (memory, illegal/unimplemented instruction, trap, watchdog, bad pc, LDS).

    Fields, from the library's fault record:
      kind         "memory fault", "illegal instruction", "unimplemented instruction", "trap",
                   "watchdog", "bad program counter", "LDS fault"
      kernel       kernel name
      pc           address of the faulting instruction
      instruction  the instruction as llvm-objdump prints it ("" if unknown)
      op           its mnemonic
      address      first bad address (memory and LDS faults), size (bytes), write (bool)
      lanes        bit mask of the lanes involved
      workgroup    (x, y, z) id of the faulting workgroup; wave: index of the wave in it
      wave_insts   wave-instructions executed before the launch stopped
      message      everything above as one line (also str(fault))
    """

    def __init__(self, rec):
        msg = rec.message.decode(errors="replace")
        super().__init__(msg, "fault")
        self.kind_code = rec.kind
        self.kind = N.gfx_fault_kind_name(rec.kind).decode()
        self.kernel = rec.kernel.decode(errors="replace")
        self.pc = rec.pc
        self.instruction = rec.disasm.decode(errors="replace")
        self.op = rec.op.decode(errors="replace")
        self.address = rec.addr
        self.size = rec.size
        self.write = bool(rec.write)
        self.lanes = rec.lanes
        self.workgroup = tuple(rec.workgroup)
        self.wave = rec.wave
        self.wave_insts = rec.wave_insts


def _result_name(r):
    return N.RESULT_NAMES[r] if 0 <= r < len(N.RESULT_NAMES) else "error %d" % r


def _check(r, what):
    if r != N.GFX_OK:
        raise Error("%s: %s" % (what, N.result_str(r)), _result_name(r))


def _s(b):
    return b.decode(errors="replace") if b is not None else None


# ---- architectures ------------------------------------------------------------------------------

# The family names frameworks use; "cdna" means the first target, gfx950 (CDNA4).
_ARCH_ALIASES = {"cdna": "gfx950", "cdna4": "gfx950", "cdna3": "gfx942", "cdna2": "gfx90a"}


def _arch_id(name):
    base = str(name).split(":")[0]
    base = _ARCH_ALIASES.get(base, base)
    out = ctypes.c_int()
    if N.gfx_arch_from_name(base.encode(), ctypes.byref(out)) != N.GFX_OK:
        raise Error("unsupported architecture %r (gfx950, gfx942, gfx90a, cdna, cdna4, cdna3, cdna2)" % (name,),
                    "arch")
    return out.value


def _arch_name(arch_id):
    return N.gfx_arch_name(arch_id).decode()


# ---- scalar arguments ---------------------------------------------------------------------------


def _int_range(size, signed):
    bits = 8 * size
    return (-(1 << (bits - 1)), (1 << (bits - 1)) - 1) if signed else (0, (1 << bits) - 1)


class Scalar:
    """A typed scalar kernel argument, as the CLI's i32:V ... f64:V.  Integers may also fill 1-
    and 2-byte arguments (char, short) when the value fits."""
    type = None
    size = 0
    is_int = False
    signed = False

    def __init__(self, value):
        if self.is_int:
            if isinstance(value, float) or not hasattr(value, "__index__"):
                raise TypeError("%s needs an integer, not %r" % (self.type, value))
            value = value.__index__()
            lo, hi = _int_range(self.size, self.signed)
            if not lo <= value <= hi:
                raise ValueError("%s value %d is out of range [%d, %d]" % (self.type, value, lo, hi))
        else:
            value = float(value)
        self.value = value

    def to_bytes(self, size):
        """Little-endian bytes for an argument of `size` bytes (narrowing checked by the caller)."""
        if self.is_int:
            return (self.value & ((1 << (8 * size)) - 1)).to_bytes(size, "little")
        if self.size == 4:
            return bytes(ctypes.c_float(self.value))  # rounds as a C cast; overflow gives inf
        return struct.pack("<d", self.value)

    def fits(self, size):
        if not self.is_int or size > 2:
            return False
        lo, hi = _int_range(size, self.signed)
        return lo <= self.value <= hi

    def __repr__(self):
        return "gfxemu.%s(%r)" % (self.type, self.value)


def _scalar_type(name, size, is_int, signed):
    return type(name, (Scalar,), {"type": name, "size": size, "is_int": is_int, "signed": signed,
                                  "__doc__": "A %d-byte %s kernel argument." % (size, name)})


i32 = _scalar_type("i32", 4, True, True)
u32 = _scalar_type("u32", 4, True, False)
i64 = _scalar_type("i64", 8, True, True)
u64 = _scalar_type("u64", 8, True, False)
f32 = _scalar_type("f32", 4, False, False)
f64 = _scalar_type("f64", 8, False, False)

# ---- host data ----------------------------------------------------------------------------------


def _bytes_view(data):
    """A flat byte view of a bytes-like object (bytes, bytearray, memoryview, array.array, numpy
    array, ctypes array)."""
    try:
        mv = memoryview(data)
    except TypeError:
        raise TypeError("expected a bytes-like object (bytes, bytearray, memoryview, numpy "
                        "array), not %s" % type(data).__name__) from None
    if not mv.c_contiguous:
        raise ValueError("buffer data must be C-contiguous (use numpy.ascontiguousarray)")
    return mv.cast("B") if mv.ndim != 1 or mv.format != "B" else mv


def _is_bytes_like(x):
    try:
        memoryview(x)
        return True
    except TypeError:
        return False


# ---- devices and buffers ------------------------------------------------------------------------


class Buffer:
    """Device memory: `size` bytes at device address `addr`.  Freed by free(), by leaving a
    `with` block, or when garbage-collected."""

    def __init__(self, device, size):
        self.device = device
        self.size = size
        addr = ctypes.c_uint64()
        _check(N.gfx_buffer_alloc(device._h, size, ctypes.byref(addr)),
               "cannot allocate %d bytes" % size)
        self.addr = addr.value

    def write(self, data, offset=0):
        """Copy a bytes-like object into the buffer at `offset`."""
        mv = _bytes_view(data)
        n = mv.nbytes
        if offset < 0 or offset + n > self.size:
            raise ValueError("write of %d bytes at offset %d does not fit the %d-byte buffer"
                             % (n, offset, self.size))
        if n:
            src = bytes(mv) if mv.readonly else (ctypes.c_char * n).from_buffer(mv)
            _check(N.gfx_memcpy_htod(self.device._h, self.addr + offset, src, n), "write")

    def read(self, nbytes=None, offset=0):
        """The buffer's bytes (from `offset`, `nbytes` of them, default all the rest)."""
        if nbytes is None:
            nbytes = self.size - offset
        if offset < 0 or nbytes < 0 or offset + nbytes > self.size:
            raise ValueError("read of %d bytes at offset %d is outside the %d-byte buffer"
                             % (nbytes, offset, self.size))
        out = ctypes.create_string_buffer(nbytes)
        if nbytes:
            _check(N.gfx_memcpy_dtoh(self.device._h, out, self.addr + offset, nbytes), "read")
        return out.raw

    def read_into(self, target, offset=0):
        """Copy len(target) bytes into a writable bytes-like object (bytearray, numpy array)."""
        mv = _bytes_view(target)
        if mv.readonly:
            raise TypeError("read_into needs a writable buffer")
        n = mv.nbytes
        if offset < 0 or offset + n > self.size:
            raise ValueError("read of %d bytes at offset %d is outside the %d-byte buffer"
                             % (n, offset, self.size))
        if n:
            dst = (ctypes.c_char * n).from_buffer(mv)
            _check(N.gfx_memcpy_dtoh(self.device._h, dst, self.addr + offset, n), "read")
        return target

    def numpy(self, dtype, shape=None):
        """The contents as a new numpy array (needs numpy)."""
        import numpy as np
        a = np.frombuffer(self.read(), dtype=dtype).copy()
        return a.reshape(shape) if shape is not None else a

    def free(self):
        if self.addr and self.device._h:
            N.gfx_buffer_free(self.device._h, self.addr)
        self.addr = 0

    def __enter__(self):
        return self

    def __exit__(self, *exc):
        self.free()

    def __del__(self):
        try:
            self.free()
        except Exception:
            pass

    def __repr__(self):
        return "<gfxemu.Buffer %d bytes at 0x%x>" % (self.size, self.addr)


class Device:
    """An emulated GPU: `arch` "gfx950" (MI350, CDNA4; also "cdna"/"cdna4"), "gfx942" (MI300,
    CDNA3; also "cdna3") or "gfx90a" (MI210/MI250X, CDNA2; also "cdna2"), and `threads` worker
    threads (None: one per core)."""

    def __init__(self, arch="gfx950", threads=None):
        self.arch_id = _arch_id(arch)
        self.arch = _arch_name(self.arch_id)
        h = ctypes.c_void_p()
        _check(N.gfx_device_create(self.arch_id, threads or 0, ctypes.byref(h)),
               "cannot create a %s device" % self.arch)
        self._h = h.value
        self.threads = N.gfx_device_threads(self._h)

    def close(self):
        if getattr(self, "_h", None):
            N.gfx_device_free(self._h)
        self._h = None

    def __enter__(self):
        return self

    def __exit__(self, *exc):
        self.close()

    def __del__(self):
        try:
            self.close()
        except Exception:
            pass

    def __repr__(self):
        return "<gfxemu.Device %s, %d threads>" % (self.arch, self.threads)

    # memory
    def alloc(self, nbytes):
        """A zero-filled buffer of `nbytes` bytes."""
        return Buffer(self, int(nbytes))

    zeros = alloc

    def buffer(self, data):
        """A buffer holding a copy of a bytes-like object (bytes, bytearray, numpy array...)."""
        mv = _bytes_view(data)
        b = Buffer(self, mv.nbytes)
        b.write(mv)
        return b

    # code
    def load(self, path_or_bytes):
        """Load a code object (path or bytes); its kernels launch on this device by default."""
        return load(path_or_bytes, device=self)

    def launch(self, kernel, grid, block, *args, **options):
        """Run `kernel` on this device: see Kernel.launch."""
        return kernel.launch(grid, block, *args, device=self, **options)

    def _error(self, r):
        msg = _s(N.gfx_device_error(self._h)) or N.result_str(r)
        if r == N.GFX_ERR_FAULT:
            rec = N.FaultRecord()
            N.gfx_last_fault(self._h, ctypes.byref(rec))
            if rec.kind:
                return Fault(rec)
        return Error(msg, _result_name(r))


_default_devices = {}


def default_device(arch="gfx950"):
    """The device kernels of modules loaded without one run on (one per architecture, created on
    first use with one thread per core)."""
    a = _arch_name(_arch_id(arch))
    if a not in _default_devices:
        _default_devices[a] = Device(a)
    return _default_devices[a]


# ---- buffer arguments ---------------------------------------------------------------------------


class _BufArg:
    mode = None  # "in", "out", "inout", "zero"

    def __init__(self, data=None, nbytes=None):
        self.source = data
        self.nbytes = nbytes
        self.data = None  # results after the launch (out, inout)


class In(_BufArg):
    """A buffer argument initialised from `data` and not read back (CLI: in:PATH)."""
    mode = "in"

    def __init__(self, data):
        super().__init__(data)


class Out(_BufArg):
    """A zero-filled buffer argument read back after the launch (CLI: out:PATH:BYTES).
    Out(nbytes): the result is in `.data` (bytes).  Out(target): `target` (bytearray, writable
    numpy array...) sizes the buffer and receives the result."""
    mode = "out"

    def __init__(self, target):
        if isinstance(target, int):
            super().__init__(None, target)
        else:
            super().__init__(target)


class InOut(_BufArg):
    """A buffer argument initialised from `data` and read back after the launch (CLI:
    inout:PATH): into `data` itself when it is writable, and always into `.data`."""
    mode = "inout"

    def __init__(self, data):
        super().__init__(data)


class Zero(_BufArg):
    """A zero-filled buffer of `nbytes` bytes, not read back (CLI: zero:BYTES)."""
    mode = "zero"

    def __init__(self, nbytes):
        super().__init__(None, int(nbytes))


def _as_bufarg(x):
    """Plain bytes-like arguments: read-only ones (bytes) are In, writable ones (bytearray, numpy
    arrays, writable memoryviews) are InOut: results land in them."""
    if isinstance(x, (_BufArg, Buffer)):
        return x
    if _is_bytes_like(x):
        return In(x) if memoryview(x).readonly else InOut(x)
    return None


# ---- code objects and kernels -------------------------------------------------------------------


class Module:
    """A loaded AMDGPU code object."""

    def __init__(self, handle, device, name):
        self._h = handle
        self.device = device
        self.name = name
        self.arch = _arch_name(N.gfx_module_arch(handle))
        self._kernels = {}

    def __del__(self):
        try:
            if self._h:
                N.gfx_module_free(self._h)
            self._h = None
        except Exception:
            pass

    def symbols(self):
        """The .text symbols: list of dicts (name, addr, size, is_kernel, is_label)."""
        out = []
        for i in range(N.gfx_module_symbol_count(self._h)):
            s = N.Symbol()
            N.gfx_module_symbol(self._h, i, ctypes.byref(s))
            out.append({"name": _s(s.name), "addr": s.addr, "size": s.size,
                        "is_kernel": bool(s.is_kernel), "is_label": bool(s.is_label)})
        return out

    @property
    def kernels(self):
        """Names of the kernels (functions with a NAME.kd descriptor)."""
        return [s["name"] for s in self.symbols() if s["is_kernel"]]

    @property
    def text(self):
        """(address, bytes) of the .text section: the raw instructions a mock driver runs."""
        addr, size = ctypes.c_uint64(), ctypes.c_size_t()
        p = N.gfx_module_text(self._h, ctypes.byref(addr), ctypes.byref(size))
        return addr.value, ctypes.string_at(p, size.value) if size.value else b""

    def kernel(self, name):
        """The kernel called `name`; gfxemu.Error (code "not_found") if there is none."""
        if name in self._kernels:
            return self._kernels[name]
        h = ctypes.c_void_p()
        r = N.gfx_module_kernel(self._h, name.encode(), ctypes.byref(h))
        if r != N.GFX_OK:
            if r == 5:  # GFX_ERR_NOT_FOUND
                raise Error("%s: no kernel '%s' (kernels: %s)"
                            % (self.name, name, ", ".join(self.kernels) or "none"), "not_found")
            raise Error("%s: kernel '%s': %s" % (self.name, name, N.result_str(r)), _result_name(r))
        k = Kernel(self, h.value, name)
        self._kernels[name] = k
        return k

    def __repr__(self):
        return "<gfxemu.Module %s (%s), kernels %s>" % (self.name, self.arch, self.kernels)


class Kernel:
    """A kernel of a Module: metadata (`info`, `args`) and launch()."""

    def __init__(self, module, handle, name):
        self.module = module
        self._h = handle
        self.name = name
        ki = N.KernelInfo()
        N.gfx_kernel_get_info(handle, ctypes.byref(ki))
        self.info = {f: getattr(ki, f) for f, _ in N.KernelInfo._fields_ if f != "name"}
        self.args = []
        for i in range(ki.nargs):
            a = N.ArgInfo()
            N.gfx_kernel_arg(handle, i, ctypes.byref(a))
            self.args.append({"name": _s(a.name), "type_name": _s(a.type_name),
                              "value_kind": _s(a.value_kind),
                              "address_space": _s(a.address_space), "offset": a.offset,
                              "size": a.size, "kind": a.kind, "hidden": bool(a.hidden)})
        self.explicit_args = self.args[:ki.nargs_explicit]

    def __repr__(self):
        return "<gfxemu.Kernel %s(%s)>" % (self.name, ", ".join(
            " ".join(filter(None, (a["type_name"] or "?", a["name"]))) for a in self.explicit_args))

    def launch(self, grid, block, *args, device=None, max_insts=0, dynamic_lds=0,
               private_size=0):
        """Run on `grid` workgroups of `block` work-items (ints or 1-3 tuples), one Python value
        per explicit kernel argument, with the CLI's rules:
          pointer arguments   Buffer, In(data), Out(nbytes or target), InOut(data), Zero(nbytes),
                              or a bytes-like object: bytes are In, writable ones (bytearray,
                              numpy arrays) InOut, so results land in them;
          scalar arguments    gfxemu.i32/u32/i64/u64/f32/f64(value) (integers also fill char and
                              short arguments when they fit), or a plain int/float, which must
                              fit the argument's size and kind (float for float/double).
        Returns the launch statistics (dict).  Raises gfxemu.Fault when the kernel faults,
        gfxemu.ArgumentError for arguments that do not fit, gfxemu.Error otherwise."""
        dev = device or self.module.device or default_device(self.module.arch)
        g, b = _dims("grid", grid), _dims("block", block)
        if not self.info["has_metadata"] and args:
            why = _s(N.gfx_module_metadata_error(self.module._h))
            raise ArgumentError("kernel '%s' has no argument metadata%s" %
                                (self.name, ": " + why if why else ""))
        if self.info["has_metadata"] and len(args) != len(self.explicit_args):
            raise ArgumentError("kernel '%s' takes %d argument%s, %d given" % (
                self.name, len(self.explicit_args), "" if len(self.explicit_args) == 1 else "s",
                len(args)))
        size = max([a["offset"] + a["size"] for a in self.explicit_args] or [0])
        kernargs = bytearray(size)
        temps = []  # (bufarg, Buffer, bytes)
        try:
            for i, (x, ai) in enumerate(zip(args, self.explicit_args)):
                _bind(dev, i, x, ai, kernargs, temps)
            opts = N.LaunchOptions(max_insts or 0, dynamic_lds, private_size)
            st = N.Stats()
            kbuf = ctypes.create_string_buffer(bytes(kernargs), max(size, 1))
            r = N.gfx_launch(dev._h, self._h, (ctypes.c_uint32 * 3)(*g), (ctypes.c_uint32 * 3)(*b),
                             kbuf, size, ctypes.byref(opts), ctypes.byref(st))
            if r != N.GFX_OK:
                raise dev._error(r)
            for ba, buf, n in temps:
                if ba.mode == "out" or ba.mode == "inout":
                    src = ba.source
                    if src is not None and not memoryview(src).readonly:
                        buf.read_into(src)
                        ba.data = src
                    else:
                        ba.data = buf.read(n)
            return {f: getattr(st, f) for f, _ in N.Stats._fields_}
        finally:
            for _, buf, _ in temps:
                buf.free()


def _dims(what, d):
    t = (d,) if isinstance(d, int) else tuple(d)
    if not 1 <= len(t) <= 3 or not all(isinstance(v, int) and 1 <= v < 1 << 32 for v in t):
        raise ValueError("%s must be 1 to 3 positive integers, not %r" % (what, d))
    return t + (1,) * (3 - len(t))


def _bind(dev, i, x, ai, kernargs, temps):
    """Write argument i's kernarg bytes (the CLI's bind_arg)."""
    tname = ai["type_name"] or ai["value_kind"] or "?"
    what = "argument %d (%s%s)" % (i, tname, " " + ai["name"] if ai["name"] else "")
    off, size = ai["offset"], ai["size"]
    is_ptr = ai["kind"] == N.GFX_ARG_GLOBAL_BUFFER or (
        ai["address_space"] is not None and ai["kind"] == N.GFX_ARG_BY_VALUE and size == 8)
    ba = _as_bufarg(x)
    if ba is not None:
        if not is_ptr or size != 8:
            raise ArgumentError("%s is not a pointer; give a scalar such as gfxemu.i32(v), not %s"
                                % (what, type(x).__name__))
        if isinstance(ba, Buffer):
            if ba.device is not dev:
                raise ArgumentError("%s: the buffer belongs to another device" % what)
            addr = ba.addr
        else:
            mv = None if ba.source is None else _bytes_view(ba.source)
            n = ba.nbytes if mv is None else mv.nbytes
            buf = Buffer(dev, max(n, 1))  # a 0-byte argument still gets a distinct address
            temps.append((ba, buf, n))
            if ba.mode in ("in", "inout"):
                buf.write(mv)
            addr = buf.addr
        kernargs[off:off + 8] = addr.to_bytes(8, "little")
        return
    if is_ptr or ai["kind"] != N.GFX_ARG_BY_VALUE:
        raise ArgumentError("%s is a %s, not a scalar" % (what, "pointer; give a Buffer, In(), "
                            "Out(), InOut(), Zero() or a bytes-like object" if is_ptr
                            else "special argument"))
    is_float_arg = (ai["type_name"] or "").split()[0:1] in (["float"], ["double"], ["half"])
    if isinstance(x, bool) or not isinstance(x, (Scalar, int, float)):
        raise ArgumentError("%s: cannot pass %s; give gfxemu.i32(v) etc. or an int/float"
                            % (what, type(x).__name__))
    if not isinstance(x, Scalar):
        if isinstance(x, float) or is_float_arg:
            if not is_float_arg and ai["type_name"]:
                raise ArgumentError("%s is an integer; %r is a float" % (what, x))
            if size not in (4, 8):
                raise ArgumentError("%s is %d bytes; a float needs 4 or 8" % (what, size))
            x = (f32 if size == 4 else f64)(x)
        else:
            # A plain int fits when it is in the signed or the unsigned range of the argument.
            bits = 8 * size
            if size not in (1, 2, 4, 8) or not -(1 << (bits - 1)) <= x < 1 << bits:
                raise ArgumentError("%s: %d does not fit %d bytes" % (what, x, size))
            kernargs[off:off + size] = (x & ((1 << bits) - 1)).to_bytes(size, "little")
            return
    if size != x.size and not (x.size > size and x.fits(size)):
        raise ArgumentError("%s is %d byte%s, %s gives %d" % (what, size, "" if size == 1 else "s",
                                                            x.type, x.size))
    kernargs[off:off + size] = x.to_bytes(size)


def load(path_or_bytes, device=None):
    """Load a code object from a path (str or os.PathLike) or from bytes.  Kernels of the module
    launch on `device`, or on default_device(module arch) when it is None."""
    h = ctypes.c_void_p()
    err = ctypes.create_string_buffer(512)
    if isinstance(path_or_bytes, (str, os.PathLike)):
        name = os.fspath(path_or_bytes)
        try:
            with open(name, "rb") as f:
                data = f.read()
        except OSError as e:
            raise Error("%s: %s" % (name, e.strerror or e), "io") from None
    else:
        name = "<memory>"
        data = bytes(_bytes_view(path_or_bytes))
    r = N.gfx_module_load_mem(data, len(data), ctypes.byref(h), err, len(err))
    if r != N.GFX_OK:
        raise Error("%s: %s" % (name, err.value.decode(errors="replace") or N.result_str(r)),
                    _result_name(r))
    m = Module(h.value, device, name)
    if device is not None and device.arch != m.arch:
        raise Error("%s: %s code cannot run on a %s device" % (name, m.arch, device.arch), "arch")
    return m
