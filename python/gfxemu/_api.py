"""Devices, buffers, code objects and launches: the Python face of include/gfxemu.h."""
import ctypes
import os
import struct
import sys
import threading

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
    """The kernel faulted (memory, illegal/unimplemented instruction, trap, watchdog, bad pc, LDS,
    deadlock, timeout).

    Fields, from the library's fault record:
      kind         "memory fault", "illegal instruction", "unimplemented instruction", "trap",
                   "watchdog", "bad program counter", "LDS fault", "deadlock", "timeout"
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


def _check_int(what, v, lo, hi, hint=""):
    """v as an int in [lo, hi]: TypeError for a non-integer, ValueError outside the range (the
    C API's unsigned fields would otherwise wrap: 1 << 32 becomes 0, -1 becomes huge)."""
    if isinstance(v, bool) or not hasattr(v, "__index__"):
        raise TypeError("%s must be an integer, not %r" % (what, v))
    v = v.__index__()
    if not lo <= v <= hi:
        raise ValueError("%s must be in [%d, %d]%s, not %d" % (what, lo, hi,
                                                              " " + hint if hint else "", v))
    return v


def _numpy_scalar(x):
    """x when it is a numpy scalar (np.int32(5), np.float16(1), a structured np.void), else None;
    numpy is only looked at when the caller already imported it."""
    np = sys.modules.get("numpy")
    return x if np is not None and isinstance(x, np.generic) else None


# ---- architectures ------------------------------------------------------------------------------

# The family names frameworks use; "cdna" means the first target, gfx950 (CDNA4).
_ARCH_ALIASES = {"cdna": "gfx950", "cdna4": "gfx950", "cdna3": "gfx942", "cdna2": "gfx90a",
                 "rdna3": "gfx1100", "rdna4": "gfx1201"}


def _arch_id(name):
    base = str(name).split(":")[0]
    base = _ARCH_ALIASES.get(base, base)
    out = ctypes.c_int()
    if N.gfx_arch_from_name(base.encode(), ctypes.byref(out)) != N.GFX_OK:
        raise Error("unsupported architecture %r (gfx950, gfx942, gfx90a, gfx1100, gfx1201, cdna, "
                    "cdna4, cdna3, cdna2, rdna3, rdna4)" % (name,),
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
        with device._lock:
            r = N.gfx_buffer_alloc(device._h, size, ctypes.byref(addr))
            if r != N.GFX_OK:
                raise Error(_s(N.gfx_device_error(device._h)) or
                            "cannot allocate %d bytes: %s" % (size, N.result_str(r)),
                            _result_name(r))
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
    threads (None: one per core).  `cus`: compute units of the modelled GPU (None: the target's,
    256 gfx950, 304 gfx942), which with a kernel's occupancy bounds how many of its workgroups are
    resident (may wait for one another) at once."""

    def __init__(self, arch="gfx950", threads=None, cus=None):
        self.arch_id = _arch_id(arch)
        self.arch = _arch_name(self.arch_id)
        if threads is not None:
            _check_int("threads", threads, 0, 1024, "(0 or None: one per core)")
        # One launch at a time per device (the library's rule): launches from several Python
        # threads queue here, and each reads its own fault record before the next one starts.
        self._lock = threading.RLock()
        h = ctypes.c_void_p()
        _check(N.gfx_device_create(self.arch_id, threads or 0, ctypes.byref(h)),
               "cannot create a %s device" % self.arch)
        self._h = h.value
        self.threads = N.gfx_device_threads(self._h)
        if cus is not None:
            self.cus = cus

    @property
    def cus(self):
        """Compute units of the modelled GPU (assign 0 to restore the target's)."""
        return N.gfx_device_cus(self._h)

    @cus.setter
    def cus(self, n):
        if not isinstance(n, int) or not 0 <= n <= 65536:
            raise ValueError("cus must be an integer from 0 to 65536, not %r" % (n,))
        _check(N.gfx_device_set_cus(self._h, n), "cus")

    def races(self):
        """LDS hazards found by the last launch with racecheck=True: a list of dicts with kind
        ("RAW", "WAR", "WAW"), lds_offset, workgroup, waves (earlier, later), pcs, instructions
        and message (one line)."""
        out = []
        for i in range(N.gfx_race_count(self._h)):
            r = N.RaceRecord()
            if N.gfx_race_get(self._h, i, ctypes.byref(r)) != N.GFX_OK:
                break
            out.append({"kind": {1: "RAW", 2: "WAR", 3: "WAW"}.get(r.kind, "?"),
                        "lds_offset": r.lds_offset, "workgroup": tuple(r.workgroup),
                        "waves": tuple(r.wave), "pcs": tuple(r.pc),
                        "instructions": tuple(d.value.decode(errors="replace")
                                              for d in r.disasm),
                        "message": r.message.decode(errors="replace")})
        return out

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
        return Buffer(self, _check_int("nbytes", nbytes, 0, (1 << 64) - 1))

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
        if isinstance(target, int) and not isinstance(target, bool):
            super().__init__(None, _check_int("Out(nbytes)", target, 0, (1 << 64) - 1))
        else:
            _writable("Out", target)
            super().__init__(target)


class InOut(_BufArg):
    """A buffer argument initialised from `data` and read back after the launch (CLI:
    inout:PATH): into `data` itself when it is writable, and always into `.data`."""
    mode = "inout"

    def __init__(self, data):
        _writable("InOut", data)
        super().__init__(data)


class Zero(_BufArg):
    """A zero-filled buffer of `nbytes` bytes, not read back (CLI: zero:BYTES)."""
    mode = "zero"

    def __init__(self, nbytes):
        super().__init__(None, _check_int("Zero(nbytes)", nbytes, 0, (1 << 64) - 1))


class Local:
    """A __local pointer argument (CLI: local:BYTES): `nbytes` of LDS per workgroup, placed after
    the kernel's static LDS (and launch(dynamic_lds=...)) at the pointee's alignment."""

    def __init__(self, nbytes):
        self.nbytes = _check_int("Local(nbytes)", nbytes, 1, (1 << 32) - 1)

    def __repr__(self):
        return "gfxemu.Local(%d)" % self.nbytes


def _writable(what, target):
    """Out/InOut targets receive the results: a read-only one would silently lose them (InOut
    of an immutable bytes object is the documented exception: results are in .data)."""
    mv = _bytes_view(target)
    if mv.readonly and not (what == "InOut" and isinstance(target, bytes)):
        raise ValueError("%s(%s): the object is read-only and cannot receive the results; pass a "
                         "writable one (bytearray, numpy array with flags.writeable) or "
                         "Out(nbytes) and read .data" % (what, type(target).__name__))


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
        # the processor the code object was built for ("gfx11-generic", "gfx1101", ...): runs as
        # self.arch
        t = N.gfx_module_target(handle)
        self.target = t.decode() if t else self.arch
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

    def global_address(self, name, device=None):
        """(device address, size) of program-scope variable `name` (an OpenCL __global or
        __constant object) in `device`'s copy of this module's data (what hipModuleGetGlobal
        answers).  The copy is made on first use and persists across launches."""
        dev = device or self.device or default_device(self.arch)
        addr, size = ctypes.c_uint64(), ctypes.c_uint64()
        r = N.gfx_module_symbol_address(dev._h, self._h, name.encode(), ctypes.byref(addr),
                                        ctypes.byref(size))
        if r != N.GFX_OK:
            raise Error("%s: no program-scope variable '%s' (%s)" % (self.name, name,
                                                                    N.result_str(r)),
                        _result_name(r))
        return addr.value, size.value

    def read_global(self, name, device=None):
        """The bytes of program-scope variable `name` (see global_address)."""
        dev = device or self.device or default_device(self.arch)
        addr, size = self.global_address(name, dev)
        buf = ctypes.create_string_buffer(max(size, 1))
        _check(N.gfx_memcpy_dtoh(dev._h, buf, addr, size), "cannot read '%s'" % name)
        return buf.raw[:size]

    def write_global(self, name, data, device=None):
        """Overwrite the start of program-scope variable `name` with a bytes-like object."""
        dev = device or self.device or default_device(self.arch)
        addr, size = self.global_address(name, dev)
        mv = _bytes_view(data)
        if mv.nbytes > size:
            raise ValueError("%d bytes do not fit the %d-byte '%s'" % (mv.nbytes, size, name))
        tmp = ctypes.create_string_buffer(mv.tobytes(), max(mv.nbytes, 1))
        _check(N.gfx_memcpy_htod(dev._h, addr, tmp, mv.nbytes), "cannot write '%s'" % name)

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
            why = _s(N.gfx_module_kernel_error(self._h)) or N.result_str(r)
            raise Error("%s: kernel '%s': %s" % (self.name, name, why), _result_name(r))
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
                              "size": a.size, "kind": a.kind, "hidden": bool(a.hidden),
                              "is_const": bool(a.is_const), "pointee_align": a.pointee_align,
                              "access": _s(a.access)})
        self.explicit_args = self.args[:ki.nargs_explicit]

    def __repr__(self):
        return "<gfxemu.Kernel %s(%s)>" % (self.name, ", ".join(
            " ".join(filter(None, (a["type_name"] or "?", a["name"]))) for a in self.explicit_args))

    def launch(self, grid, block, *args, device=None, max_insts=0, dynamic_lds=0,
               private_size=0, timeout=0, racecheck=False, memcheck=False, counters=False,
               att=None):
        """Run on `grid` workgroups of `block` work-items (ints or 1-3 tuples), one Python value
        per explicit kernel argument, with the CLI's rules:
          pointer arguments   Buffer, In(data), Out(nbytes or target), InOut(data), Zero(nbytes),
                              or a bytes-like object: bytes are In, writable ones (bytearray,
                              numpy arrays) InOut, so results land in them; a read-only array
                              for a pointer that is not const is refused (pass In(x));
                              a typed array (numpy, ctypes) must match the pointee type the
                              metadata names (a float64 array for float* is refused);
          __local pointers    Local(nbytes): LDS placed after the static LDS;
          scalar arguments    gfxemu.i32/u32/i64/u64/f32/f64(value) (integers also fill char and
                              short arguments when they fit), a plain int/float, or a numpy
                              scalar of any dtype, which must fit the argument's size and kind
                              (float for float/double/half);
          other by-value      (structs, float4, ...) bytes-like objects of exactly the
                              argument's size: bytes, ctypes structures, numpy (structured)
                              scalars or arrays.
        max_insts, dynamic_lds and private_size (scratch bytes per work-item, at most 1 MiB) are
        range-checked (ValueError).
        timeout: wall-clock seconds the launch may take (0: no limit; past it gfxemu.Fault with
        kind "timeout").  racecheck: interleave each workgroup's waves instruction by instruction
        and record LDS hazards between them (see Device.races()).
        memcheck=True (or GFXEMU_MEMCHECK=1): byte-exact checking; the kernel continues and the
        returned dict's "memcheck" lists one message per out-of-bounds lane access (also
        "memcheck_errors", the count, and "memcheck_widened", widened scalar loads not listed).
        Returns the launch statistics (dict); with counters=True (a slower, one-thread counting
        launch, as `gfxemu run --counters`) it also holds "counters": {rocprofv3 name: value}.
        att: a thread trace in AMD's gfx9 SQTT format, as `gfxemu run --att DIR` (docs/att.md):
        a directory, or a dict {"dir": DIR, "target_cu": 0, "shader_engine_mask": 0x1,
        "simd_select": 0xf, "workgroups": "0,4-7"} (rocprofv3's selection; all but "dir"
        optional); like counters, a one-thread launch.  The code object is copied beside the
        traces when the module was loaded from a file.
        Raises gfxemu.Fault when the kernel faults,
        gfxemu.ArgumentError for arguments that do not fit, gfxemu.Error otherwise.  Launches on
        one device from several threads run one at a time, each with its own fault."""
        dev = device or self.module.device or default_device(self.module.arch)
        g, b = _dims("grid", grid), _dims("block", block)
        max_insts = _check_int("max_insts", max_insts or 0, 0, (1 << 64) - 1)
        dynamic_lds = _check_int("dynamic_lds", dynamic_lds or 0, 0, (1 << 32) - 1)
        private_size = _check_int("private_size", private_size or 0, 0, 1 << 20,
                                  "(bytes per work-item)")
        if not self.info["has_metadata"] and args:
            why = _s(N.gfx_module_metadata_error(self.module._h))
            raise ArgumentError("kernel '%s' has no argument metadata%s" %
                                (self.name, ": " + why if why else ""))
        if self.info["has_metadata"] and len(args) != len(self.explicit_args):
            raise ArgumentError("kernel '%s' takes %d argument%s, %d given" % (
                self.name, len(self.explicit_args), "" if len(self.explicit_args) == 1 else "s",
                len(args)))
        size = max([a["offset"] + a["size"] for a in self.explicit_args] or [0])
        kbuf = ctypes.create_string_buffer(max(size, 1))
        temps = []  # (bufarg, Buffer, bytes)
        with dev._lock:
            try:
                lds = ctypes.c_uint32(dynamic_lds)
                for i, (x, ai) in enumerate(zip(args, self.explicit_args)):
                    _bind(dev, self, i, x, ai, kbuf, size, lds, temps)
                if not isinstance(timeout, (int, float)) or timeout < 0:
                    raise ValueError("timeout must be a number of seconds >= 0, not %r" %
                                     (timeout,))
                opts = N.LaunchOptions(max_insts, lds.value, private_size, float(timeout),
                                       N.GFX_LAUNCH_RACECHECK if racecheck else 0,
                                       1 if memcheck else 0)
                st = N.Stats()
                ctr = None
                att_opts = _att_options(att, self.module) if att is not None else None
                if counters or att_opts:
                    r, ctr = _debug_launch(dev, self, g, b, kbuf, size, opts, st, counters,
                                           att_opts)
                else:
                    r = N.gfx_launch(dev._h, self._h, (ctypes.c_uint32 * 3)(*g),
                                     (ctypes.c_uint32 * 3)(*b), kbuf, size, ctypes.byref(opts),
                                     ctypes.byref(st))
                if r != N.GFX_OK:
                    raise dev._error(r)
                for ba, buf, n in temps:
                    if ba.mode == "out" or ba.mode == "inout":
                        src = ba.source
                        if src is not None and not memoryview(src).readonly:
                            buf.read_into(src)
                            ba.data = src
                        else:
                            ba.data = _move_out(buf, n)
                out = {f: getattr(st, f) for f, _ in N.Stats._fields_}
                out.update(_memcheck_report(dev))
                if counters and ctr is not None:
                    out["counters"] = ctr
                return out
            finally:
                for _, buf, _ in temps:
                    buf.free()


def _move_out(buf, n):
    """The n-byte result of buf as a bytes object, buf freed.  The bytes object is made
    uninitialised (CPython's PyBytes_FromStringAndSize(NULL, n), filled before anyone sees it)
    and gfx_buffer_move_out() copies into it while handing the device buffer's pages back, so an
    N-byte Out(nbytes) result peaks at about N bytes of memory, not 2N (issue #17)."""
    api = getattr(ctypes, "pythonapi", None)
    if n and api is not None and hasattr(api, "PyBytes_FromStringAndSize"):
        make = api.PyBytes_FromStringAndSize
        make.restype, make.argtypes = ctypes.py_object, [ctypes.c_char_p, ctypes.c_ssize_t]
        ptr = api.PyBytes_AsString
        ptr.restype, ptr.argtypes = ctypes.c_void_p, [ctypes.py_object]
        out = make(None, n)
        _check(N.gfx_buffer_move_out(buf.device._h, buf.addr, ptr(out), n), "read")
        buf.addr = 0  # freed by gfx_buffer_move_out
        return out
    tmp = bytearray(n)  # no CPython C API (another Python): the 2N way
    if n:
        buf.read_into(tmp)
    buf.free()
    return bytes(tmp)


def _memcheck_report(dev):
    widened = ctypes.c_uint64()
    n = N.gfx_memcheck_errors(dev._h, ctypes.byref(widened))
    msgs = []
    e = N.MemcheckError()
    for i in range(min(n, 1024)):
        if N.gfx_memcheck_error_get(dev._h, i, ctypes.byref(e)) == N.GFX_OK:
            msgs.append(_s(e.message))
    return {"memcheck_errors": n, "memcheck_widened": widened.value, "memcheck": msgs}


# gfx_counters fields under the names `gfxemu run --counters` prints (README "Counters").
COUNTER_NAMES = {
    "waves": "SQ_WAVES", "insts": "SQ_INSTS", "valu": "SQ_INSTS_VALU", "mfma": "SQ_INSTS_MFMA",
    "salu": "SQ_INSTS_SALU", "smem": "SQ_INSTS_SMEM", "branch": "SQ_INSTS_BRANCH",
    "lds": "SQ_INSTS_LDS", "vmem": "SQ_INSTS_VMEM", "vmem_rd": "SQ_INSTS_VMEM_RD",
    "vmem_wr": "SQ_INSTS_VMEM_WR", "lds_bank_conflict": "SQ_LDS_BANK_CONFLICT",
    "valu_active_lanes": "GFXEMU_VALU_ACTIVE_LANES", "lds_bytes": "GFXEMU_LDS_BYTES",
    "vmem_bytes": "GFXEMU_VMEM_BYTES", "vmem_lines_64": "GFXEMU_VMEM_LINES_64B",
    "vmem_lines_128": "GFXEMU_VMEM_LINES_128B", "scratch_bytes": "GFXEMU_SCRATCH_BYTES",
}


def _att_options(att, module):
    """gfx_att_options from Kernel.launch's att argument (ValueError for bad ones)."""
    if isinstance(att, (str, os.PathLike)):
        att = {"dir": att}
    if not isinstance(att, dict) or "dir" not in att:
        raise ValueError("att must be a directory or a dict with a \"dir\", not %r" % (att,))
    unknown = set(att) - {"dir", "target_cu", "shader_engine_mask", "simd_select", "workgroups"}
    if unknown:
        raise ValueError("att: unknown option%s %s" % ("s" if len(unknown) > 1 else "",
                                                        ", ".join(sorted(unknown))))
    cu = _check_int("att target_cu", att.get("target_cu", 0), 0, 15)
    se = _check_int("att shader_engine_mask", att.get("shader_engine_mask", 1), 1,
                    (1 << 32) - 1)
    simd = _check_int("att simd_select", att.get("simd_select", 0xF), 1, 0xF)
    wgs = att.get("workgroups")
    co = module.name if module.name != "<memory>" and os.path.isfile(module.name) else None
    o = N.AttOptions(os.fsencode(att["dir"]), os.fsencode(co) if co else None, cu, se, simd,
                     wgs.encode() if wgs is not None else None)
    return o


def _debug_launch(dev, kernel, g, b, kbuf, size, opts, st, counters, att_opts):
    """gfx_debug_launch with counters and/or a thread trace on; returns (result, {counter name:
    value} or None)."""
    sess = ctypes.c_void_p()
    r = N.gfx_debug_create(dev._h, ctypes.byref(sess))
    if r != N.GFX_OK:
        return r, None
    try:
        if att_opts is not None and N.gfx_debug_att(sess, ctypes.byref(att_opts)) != N.GFX_OK:
            raise ValueError("att workgroups %r: expected workgroup ids and ranges like 0,4-7"
                             % (att_opts.workgroups,))
        N.gfx_debug_counters_enable(sess, 1 if counters else 0)
        r = N.gfx_debug_launch(sess, kernel._h, (ctypes.c_uint32 * 3)(*g),
                               (ctypes.c_uint32 * 3)(*b), kbuf, size, ctypes.byref(opts),
                               ctypes.byref(st))
        c = N.Counters()
        N.gfx_debug_counters(sess, ctypes.byref(c))
        out = {COUNTER_NAMES[f]: getattr(c, f) for f in COUNTER_NAMES}
        out["GFXEMU_VALU_UTILIZATION"] = (100.0 * c.valu_active_lanes / (64 * c.valu)
                                          if c.valu else 0.0)
        return r, out
    finally:
        N.gfx_debug_free(sess)


def _dims(what, d):
    t = (d,) if isinstance(d, int) else tuple(d)
    if not 1 <= len(t) <= 3 or not all(isinstance(v, int) and 1 <= v < 1 << 32 for v in t):
        raise ValueError("%s must be 1 to 3 positive integers, not %r" % (what, d))
    return t + (1,) * (3 - len(t))


# OpenCL type names (the metadata's .type_name) of scalars: (class, bytes).  Vector types
# (float4, int2) name their element; anything else (structs, typedefs, HIP's absent names) is
# not checked.
_CL_TYPES = {"float": ("f", 4), "double": ("f", 8), "half": ("f", 2),
             "char": ("i", 1), "uchar": ("i", 1), "short": ("i", 2), "ushort": ("i", 2),
             "int": ("i", 4), "uint": ("i", 4), "long": ("i", 8), "ulong": ("i", 8),
             "bool": ("i", 1), "size_t": ("i", 8), "ptrdiff_t": ("i", 8),
             "intptr_t": ("i", 8), "uintptr_t": ("i", 8), "signed char": ("i", 1),
             "unsigned char": ("i", 1), "unsigned short": ("i", 2), "unsigned int": ("i", 4),
             "unsigned long": ("i", 8)}
_CLASS_WORD = {"f": "floating-point", "i": "integer"}
_NP_NAMES = {("f", 2): "float16", ("f", 4): "float32", ("f", 8): "float64", ("i", 1): "int8",
             ("i", 2): "int16", ("i", 4): "int32", ("i", 8): "int64"}


def _cl_type(name, vector_ok=False):
    if not name:
        return None
    name = name.strip()
    if name in _CL_TYPES:
        return _CL_TYPES[name]
    base = name.rstrip("0123456789")
    if vector_ok and base != name and base in _CL_TYPES and name[len(base):] in (
            "2", "3", "4", "8", "16"):
        return _CL_TYPES[base]
    return None


def _elem_type(mv):
    """(class, bytes) of a typed buffer's elements from its memoryview format, or None for raw
    bytes ('B', 'b', 'c') and formats that are not one scalar (structs, complex)."""
    fmt = mv.format.lstrip("@=<>!")
    if fmt in ("B", "b", "c", "x") or len(fmt) != 1:
        return None
    if fmt in "efd":
        return ("f", mv.itemsize)
    if fmt in "hHiIlLqQnN?":
        return ("i", mv.itemsize)
    return None


def _bind(dev, kernel, i, x, ai, kbuf, ksize, lds, temps):
    """Check argument i against its metadata and write its kernarg bytes (the CLI's bind_arg)."""
    tname = ai["type_name"] or ai["value_kind"] or "?"
    what = "argument %d (%s%s)" % (i, tname, " " + ai["name"] if ai["name"] else "")
    off, size = ai["offset"], ai["size"]
    is_ptr = ai["kind"] == N.GFX_ARG_GLOBAL_BUFFER or (
        ai["address_space"] is not None and ai["kind"] == N.GFX_ARG_BY_VALUE and size == 8)

    def put(data):
        ctypes.memmove(ctypes.addressof(kbuf) + off, bytes(data), size)

    if ai["kind"] == N.GFX_ARG_DYNAMIC_SHARED_POINTER or isinstance(x, Local):
        if ai["kind"] != N.GFX_ARG_DYNAMIC_SHARED_POINTER:
            raise ArgumentError("%s is not a __local pointer; Local() is only for __local "
                                "pointer arguments" % what)
        if not isinstance(x, Local):
            raise ArgumentError("%s is a __local pointer (LDS); pass gfxemu.Local(nbytes), not %s"
                                % (what, type(x).__name__))
        before = lds.value
        r = N.gfx_kernel_bind_local(kernel._h, i, x.nbytes, ctypes.byref(lds), kbuf, ksize)
        if r != N.GFX_OK:
            raise ArgumentError("%s: Local(%d) does not fit in LDS after %d static and %d dynamic "
                                "bytes (%s has %d per workgroup)" % (
                                    what, x.nbytes, kernel.info["group_segment_fixed_size"],
                                    before, kernel.module.arch,
                                    160 * 1024 if kernel.module.arch == "gfx950" else 64 * 1024))
        return
    if is_ptr:
        ba = _as_bufarg(x)
        if ba is None or _numpy_scalar(x) is not None:
            raise ArgumentError("%s is a pointer; give a Buffer, In(), Out(), InOut(), Zero() or a "
                                "bytes-like object, not %s" % (what, type(x).__name__))
        if size != 8:
            raise ArgumentError("%s is a %d-byte pointer; gfxemu passes 8-byte global addresses"
                                % (what, size))
        if isinstance(ba, Buffer):
            if ba.device is not dev:
                raise ArgumentError("%s: the buffer belongs to another device" % what)
            put(ba.addr.to_bytes(8, "little"))
            return
        mv = None if ba.source is None else _bytes_view(ba.source)
        if mv is not None:
            _check_pointee(what, ai, ba.source, memoryview(ba.source))
            writes = not ai["is_const"] and ai["access"] != "read_only"
            if ba is not x and mv.readonly and writes and not isinstance(x, bytes):
                raise ArgumentError(
                    "%s is not const, so the kernel may write it, but the %s is read-only and "
                    "would lose the results; pass In(x) if the kernel only reads it, or a "
                    "writable copy (numpy: x.copy())" % (what, type(x).__name__))
        n = ba.nbytes if mv is None else mv.nbytes
        buf = Buffer(dev, max(n, 1))  # a 0-byte argument still gets a distinct address
        temps.append((ba, buf, n))
        if ba.mode in ("in", "inout"):
            buf.write(mv)
        put(buf.addr.to_bytes(8, "little"))
        return
    if ai["kind"] != N.GFX_ARG_BY_VALUE:
        raise ArgumentError("%s is a %s argument, which gfxemu cannot pass (images, samplers, "
                            "pipes and queues are not supported)" % (what, ai["value_kind"]))
    if isinstance(x, (_BufArg, Buffer)):
        raise ArgumentError("%s is not a pointer; give a scalar such as gfxemu.i32(v), not %s"
                            % (what, type(x).__name__))
    scalar = _cl_type(ai["type_name"])
    cls = scalar[0] if scalar else None
    npx = _numpy_scalar(x)
    if npx is not None:
        kind = npx.dtype.kind
        if kind in "biu":
            if cls == "f":
                raise ArgumentError("%s is a floating-point value; numpy %s is an integer"
                                    % (what, npx.dtype))
            x = int(npx)
        elif kind == "f" and cls != "i":
            if npx.dtype.itemsize == size:
                put(npx.astype(npx.dtype.newbyteorder("<")).tobytes())
                return
            x = float(npx)  # another width: converted as a Python float is
        elif kind == "f":
            raise ArgumentError("%s is an integer; numpy %s is a floating-point value"
                                % (what, npx.dtype))
        else:  # structured (void), complex, bytes: the raw bytes
            x = npx.tobytes()
    if not isinstance(x, (Scalar, int, float)) and _is_bytes_like(x):
        n = _bytes_view(x).nbytes
        if n != size:
            raise ArgumentError("%s is a by-value argument of %d bytes; the %s holds %d"
                                % (what, size, type(x).__name__, n))
        put(_bytes_view(x))
        return
    is_float_arg = cls == "f"
    if isinstance(x, bool) or not isinstance(x, (Scalar, int, float)):
        raise ArgumentError("%s: cannot pass %s; give gfxemu.i32(v) etc., an int/float, a numpy "
                            "scalar or its %d raw bytes" % (what, type(x).__name__, size))
    if not isinstance(x, Scalar):
        if isinstance(x, float) or is_float_arg:
            if not is_float_arg and ai["type_name"]:
                raise ArgumentError("%s is an integer; %r is a float" % (what, x))
            if size == 2:
                put(struct.pack("<e", float(x)))
                return
            if size not in (4, 8):
                raise ArgumentError("%s is %d bytes; a float needs 2, 4 or 8" % (what, size))
            x = (f32 if size == 4 else f64)(x)
        else:
            # A plain int fits when it is in the signed or the unsigned range of the argument.
            bits = 8 * size
            if size not in (1, 2, 4, 8) or not -(1 << (bits - 1)) <= x < 1 << bits:
                raise ArgumentError("%s: %d does not fit %d bytes" % (what, x, size))
            put((x & ((1 << bits) - 1)).to_bytes(size, "little"))
            return
    if cls is not None and (cls == "f") != (not x.is_int):
        raise ArgumentError("%s is %s; gfxemu.%s gives %s (the kernel would read its bits)" % (
            what, "a floating-point value" if cls == "f" else "an integer", x.type,
            "an integer" if x.is_int else "a floating-point value"))
    if size != x.size and not (x.size > size and x.fits(size)):
        raise ArgumentError("%s is %d byte%s, %s gives %d" % (what, size, "" if size == 1 else "s",
                                                            x.type, x.size))
    put(x.to_bytes(size))


def _check_pointee(what, ai, obj, mv):
    """A typed array (numpy, ctypes, array.array) must hold what the pointer points to."""
    tn = ai["type_name"] or ""
    if not tn.endswith("*"):
        return
    want = _cl_type(tn[:-1].replace("const", "").strip(), vector_ok=True)
    have = _elem_type(mv)
    if want is None or have is None or want == have:
        return
    dtype = getattr(obj, "dtype", None)
    desc = "numpy %s array" % dtype if dtype is not None else "%s of %d-byte %s elements" % (
        type(obj).__name__, have[1], _CLASS_WORD[have[0]])
    raise ArgumentError("%s points to %d-byte %s elements; the %s does not match: pass "
                        "numpy.%s data (or raw bytes)" % (what, want[1], _CLASS_WORD[want[0]],
                                                         desc, _NP_NAMES[want]))


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


# ---- assembler ----------------------------------------------------------------------------------


def assemble(source, arch="gfx950", raw=False):
    """Assemble LLVM-syntax assembly (what clang-22 -S writes, or bare instructions) into a code
    object (bytes, loadable with load()), or with raw=True into the instruction bytes of .text.
    Errors raise Error with a "LINE:COL: message" text (code "format")."""
    if not hasattr(N, "gfx_assemble"):
        raise Error("this libgfxemu has no assembler", "unimplemented")
    src = source.encode() if isinstance(source, str) else bytes(source)
    out = ctypes.POINTER(ctypes.c_uint8)()
    n = ctypes.c_size_t()
    err = ctypes.create_string_buffer(512)
    r = N.gfx_assemble(_arch_id(arch), src, len(src), 1 if raw else 0, ctypes.byref(out),
                       ctypes.byref(n), err, len(err))
    if r != N.GFX_OK:
        raise Error(_s(err.value) or N.result_str(r), _result_name(r))
    try:
        return ctypes.string_at(out, n.value)
    finally:
        N.gfx_free(out)


def load_asm(source, arch="gfx950", device=None):
    """Assemble `source` (see assemble()) and load the code object: a kernel from a string."""
    return load(assemble(source, arch), device=device)
