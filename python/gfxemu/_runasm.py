"""The drop-in for frameworks' mock GPUs: run raw instruction bytes with host addresses.

    gfxemu.map_host(ptr, size)          # let kernels touch [ptr, ptr+size) (also register_host)
    rc = gfxemu.run_asm(code_ptr, code_size, gx, gy, gz, lx, ly, lz, kernarg_ptr,
                        rsrc2=0x19c, scratch_size=0, arch="cdna", user_data=None,
                        ranges=None)     # or ranges=[(base, size), ...] for this dispatch
    if rc: print(gfxemu.last_fault())   # a gfxemu.Fault (or None), gfxemu.last_error() the text

Addresses are host addresses; an access outside the registered ranges is a fault (rc != 0), never
a wild host access.  See gfxemu_run_asm() in include/gfxemu.h for the initial wave state.
"""
import ctypes

from . import _native as N
from ._api import Error, Fault, _result_name


def address_of(obj):
    """The host address of an int (returned as is), a ctypes object, a numpy array or a writable
    bytes-like object (bytearray, writable memoryview).  Read-only bytes have no stable address
    worth giving a kernel: copy them into a bytearray or ctypes buffer first."""
    if obj is None:
        return 0
    if isinstance(obj, int):
        return obj
    if isinstance(obj, ctypes._SimpleCData) or isinstance(obj, (ctypes.Array, ctypes.Structure)):
        return ctypes.addressof(obj)
    if hasattr(obj, "__array_interface__"):  # numpy
        return obj.__array_interface__["data"][0]
    mv = memoryview(obj)
    if mv.readonly:
        raise TypeError("address_of: %s is read-only; use a bytearray or a ctypes buffer"
                        % type(obj).__name__)
    return ctypes.addressof(ctypes.c_char.from_buffer(mv.cast("B")))


def _size_of(obj):
    if isinstance(obj, (ctypes._SimpleCData, ctypes.Array, ctypes.Structure)):
        return ctypes.sizeof(obj)
    return memoryview(obj).nbytes


# Objects given to map_host(), by address, kept alive while registered: a registered range whose
# object Python freed would let kernels write into reused memory.
_mapped = {}


def map_host(ptr, size=None):
    """Allow kernels run by run_asm() to access [ptr, ptr+size).  `ptr` is an address or an
    object address_of() understands (then `size` defaults to its size; the object is kept alive
    until unmap_host()).  Registered memory is a set of bytes: registering a range again is a
    no-op, overlapping and adjacent ranges merge.  Raises gfxemu.Error when the range is empty,
    is not mapped in this process, or collides with gfxemu's own memory."""
    addr = address_of(ptr)
    if size is None:
        if isinstance(ptr, int):
            raise TypeError("map_host: give the size of the range at 0x%x" % ptr)
        size = _size_of(ptr)
    r = N.gfxemu_map_host(addr, size)
    if r != N.GFX_OK:
        raise Error(last_error(), _result_name(r))
    if not isinstance(ptr, int):
        _mapped[addr] = ptr


def unmap_host(ptr, size=None):
    """Forget registered bytes: exactly [ptr, ptr+size) when a size is given or `ptr` is an
    object (its own bytes), else the whole merged range containing the address `ptr`."""
    addr = address_of(ptr)
    if size is None and not isinstance(ptr, int):
        size = _size_of(ptr)
    r = N.gfxemu_unmap_host_range(addr, size) if size else N.gfxemu_unmap_host(addr)
    if r != N.GFX_OK:
        raise Error(last_error(), _result_name(r))
    _mapped.pop(addr, None)


register_host = map_host
unregister_host = unmap_host


def last_error():
    """Why this thread's last run_asm()/map_host() failed ("" after a success)."""
    return N.gfxemu_last_error().decode(errors="replace")


def last_fault():
    """The gfxemu.Fault that stopped this thread's last run_asm(), or None."""
    rec = N.FaultRecord()
    N.gfxemu_last_fault(ctypes.byref(rec))
    return Fault(rec) if rec.kind else None


def run_asm(lib, lib_sz, gx, gy, gz, lx, ly, lz, args_ptr, rsrc2=0x19c, scratch_size=0,
            arch="cdna", user_data=None, ranges=None, rsrc1=None):
    """Run `lib_sz` bytes of raw gfx950/gfx942/gfx90a instructions at host address `lib` (an int,
    or a bytes-like/ctypes object holding them) on gx*gy*gz workgroups of lx*ly*lz work-items.
    args_ptr: host address of the kernarg block (s[0:1] when user_data is None).
    rsrc2: COMPUTE_PGM_RSRC2 (user SGPR count, workgroup-id SGPRs, work-item ids, LDS size).
    scratch_size: private bytes per lane.  arch: "cdna"/"cdna4"/"gfx950", "cdna3"/"gfx942" or
    "cdna2"/"gfx90a"; "rdna3"/"gfx1100" and "rdna4"/"gfx1201" run RDNA code in wave32, or in
    wave64 with LLVM's feature after the name ("gfx1100:wavefrontsize64"); RDNA ops outside the
    executed slice (README) fault as unimplemented.
    user_data: up to 16 dwords for s[0..] (COMPUTE_USER_DATA).
    ranges: (base, size) pairs the kernel may touch in this dispatch only, on top of the
    map_host() ones (a mock driver's list of mapped ranges, passed as it is every time; each is
    checked to be mapped in this process, else the dispatch fails with rc != 0).
    rsrc1: COMPUTE_PGM_RSRC1 whose float round/denorm modes, DX10_CLAMP, IEEE and FP16_OVFL give
    the initial MODE (None: clang-22's, denormals kept; llvm-mc's default descriptor has
    0x00ac0000, f32 denormals flushed).
    Returns 0, or a non-zero gfx_result (8 = fault: see last_fault())."""
    keep = None
    if isinstance(lib, int):
        code = lib
    else:
        if lib_sz > _size_of(lib):
            raise ValueError("run_asm: lib_sz %d is larger than the %d-byte code object"
                             % (lib_sz, _size_of(lib)))
        try:
            code = address_of(lib)
        except TypeError:  # read-only bytes: run a private copy
            keep = ctypes.create_string_buffer(bytes(memoryview(lib)), lib_sz)
            code = ctypes.addressof(keep)
    users, n = None, 0
    if user_data is not None:
        vals = [int(v) & 0xffffffff for v in user_data]
        n = len(vals)
        users = (ctypes.c_uint32 * max(n, 1))(*vals)
    arch_b = arch.encode() if isinstance(arch, str) else arch
    if ranges is None and rsrc1 is None:
        r = N.gfxemu_run_asm(code, lib_sz, gx, gy, gz, lx, ly, lz, address_of(args_ptr), rsrc2,
                             scratch_size, arch_b, users, n)
    else:
        flat = []
        for base, size in ranges or ():
            flat += [int(base), int(size)]
        arr = (ctypes.c_uint64 * max(len(flat), 1))(*flat)
        if rsrc1 is None:
            r = N.gfxemu_run_asm_ranges(code, lib_sz, gx, gy, gz, lx, ly, lz,
                                        address_of(args_ptr), rsrc2, scratch_size, arch_b, users,
                                        n, arr, len(flat) // 2)
        else:
            r = N.gfxemu_run_asm_rsrc1(code, lib_sz, gx, gy, gz, lx, ly, lz, address_of(args_ptr),
                                       rsrc2, scratch_size, arch_b, users, n, arr, len(flat) // 2,
                                       int(rsrc1) & 0xffffffff)
    del keep
    return r
