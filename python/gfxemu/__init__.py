"""gfxemu: run AMD Instinct GPU machine code (gfx950 / MI350, gfx942 / MI300, gfx90a / MI250X) on the CPU.

A ctypes binding over libgfxemu.so (standard library only; numpy arrays work wherever bytes do):

    import gfxemu
    dev = gfxemu.Device("gfx950")
    k = dev.load("vecadd.co").kernel("vecadd")
    c = bytearray(4 * n)
    k.launch(n // 256, 256, a_bytes, b_bytes, c, gfxemu.i32(n))   # results land in c

and the framework drop-in run_asm() (see gfxemu._runasm).  Library search: see gfxemu._native.
"""
from ._api import (ArgumentError, Buffer, Device, Error, Fault, In, InOut, Kernel, Local,
                   Module, Out, Scalar, Zero, assemble, default_device, f32, f64, i32, i64, load,
                   load_asm, u32, u64)
from ._native import lib as _lib
from ._runasm import (address_of, last_error, last_fault, map_host, register_host, run_asm,
                      unmap_host, unregister_host)

__version__ = "0.1.0"
library_version = _lib.gfx_version().decode() if hasattr(_lib, "gfx_version") else None
library_path = _lib._name

__all__ = ["ArgumentError", "Buffer", "Device", "Error", "Fault", "In", "InOut", "Kernel",
           "Local", "Module", "Out", "Scalar", "Zero", "default_device", "f32", "f64", "i32", "i64",
           "load", "u32", "u64", "assemble", "load_asm", "address_of", "last_error", "last_fault",
           "map_host", "register_host", "run_asm", "unmap_host", "unregister_host"]
