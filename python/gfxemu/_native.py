"""ctypes declarations of include/gfxemu.h and the search for libgfxemu.so.

The shared library is looked for, in order:
  1. the path in the environment variable GFXEMU_LIB;
  2. next to this package (python/gfxemu/libgfxemu.so, where `pip install ./python` puts a copy
     when the source tree has been built);
  3. the source tree's build directory (python/../build/libgfxemu.so), so that the package is
     usable straight from a checkout after `make`;
  4. the system's loader search path (ldconfig, LD_LIBRARY_PATH).
"""
import ctypes
import ctypes.util
import os

_HERE = os.path.dirname(os.path.abspath(__file__))


def _candidates():
    """(where, path) pairs in search order; the system search (which runs ldconfig) only when
    the others have failed."""
    env = os.environ.get("GFXEMU_LIB")
    if env:
        yield "GFXEMU_LIB", env
        return
    yield "next to the package", os.path.join(_HERE, "libgfxemu.so")
    yield "the source tree", os.path.join(os.path.dirname(os.path.dirname(_HERE)), "build",
                                          "libgfxemu.so")
    yield "the system's library path", ctypes.util.find_library("gfxemu") or "libgfxemu.so"


def _load():
    tried = []
    for where, path in _candidates():
        if where != "the system's library path" and not os.path.exists(path):
            tried.append("%s (%s: no such file)" % (path, where))
            continue
        try:
            return ctypes.CDLL(path)
        except OSError as e:
            tried.append("%s (%s: %s)" % (path, where, e))
    raise ImportError("gfxemu: cannot load libgfxemu.so; build it with `make` or point "
                      "GFXEMU_LIB at it. Tried: " + "; ".join(tried))


lib = _load()

c_int, c_uint, c_u16, c_u32, c_u64 = (ctypes.c_int, ctypes.c_uint, ctypes.c_uint16,
                                      ctypes.c_uint32, ctypes.c_uint64)
c_char_p, c_void_p, c_size_t = ctypes.c_char_p, ctypes.c_void_p, ctypes.c_size_t
P = ctypes.POINTER

GFX_OK = 0
RESULT_NAMES = ["ok", "invalid", "io", "format", "arch", "not_found", "nomem",
                "unimplemented", "fault", "resource"]
GFX_ERR_FAULT = 8

ARG_KINDS = ["unknown", "by_value", "global_buffer", "dynamic_shared_pointer", "sampler", "image",
             "pipe", "queue"]
GFX_ARG_BY_VALUE, GFX_ARG_GLOBAL_BUFFER, GFX_ARG_DYNAMIC_SHARED_POINTER = 1, 2, 3
GFX_ARG_HIDDEN_FIRST = 8


class Symbol(ctypes.Structure):
    _fields_ = [("name", c_char_p), ("addr", c_u64), ("size", c_u64), ("is_kernel", c_int),
                ("is_label", c_int)]


class ArgInfo(ctypes.Structure):
    _fields_ = [("name", c_char_p), ("type_name", c_char_p), ("value_kind", c_char_p),
                ("address_space", c_char_p), ("offset", c_u32), ("size", c_u32),
                ("kind", c_int), ("hidden", c_int), ("is_const", c_int),
                ("pointee_align", c_u32), ("access", c_char_p)]


class KernelInfo(ctypes.Structure):
    _fields_ = [("name", c_char_p), ("has_metadata", c_int), ("nargs", c_size_t),
                ("nargs_explicit", c_size_t), ("kernarg_segment_size", c_u32),
                ("kernarg_segment_align", c_u32), ("sgpr_count", c_u32), ("vgpr_count", c_u32),
                ("agpr_count", c_u32), ("wavefront_size", c_u32),
                ("max_flat_workgroup_size", c_u32), ("uses_dynamic_stack", c_int),
                ("group_segment_fixed_size", c_u32), ("private_segment_fixed_size", c_u32),
                ("kernarg_size", c_u32), ("entry", c_u64), ("rsrc1", c_u32), ("rsrc2", c_u32),
                ("rsrc3", c_u32), ("code_properties", c_u16), ("kernarg_preload", c_u16),
                ("user_sgpr_count", c_uint), ("accum_offset", c_uint)]


class LaunchOptions(ctypes.Structure):
    _fields_ = [("max_insts", c_u64), ("dynamic_lds", c_u32), ("private_size", c_u32),
                ("timeout", ctypes.c_double), ("flags", c_u32),
                ("memcheck", c_int)]


GFX_LAUNCH_RACECHECK = 1


class RaceRecord(ctypes.Structure):
    _fields_ = [("kind", c_int), ("lds_offset", c_u32), ("workgroup", c_u32 * 3),
                ("wave", c_u32 * 2), ("pc", c_u64 * 2), ("disasm", (ctypes.c_char * 96) * 2),
                ("message", ctypes.c_char * 512)]


class Stats(ctypes.Structure):
    _fields_ = [("wave_insts", c_u64), ("waves", c_u64), ("workgroups", c_u64),
                ("seconds", ctypes.c_double), ("threads", c_uint), ("salu", c_u64),
                ("valu", c_u64), ("vmem", c_u64), ("smem", c_u64), ("lds", c_u64),
                ("mfma", c_u64), ("branch", c_u64), ("other", c_u64)]


class Counters(ctypes.Structure):  # gfx_counters
    _fields_ = [(f, c_u64) for f in (
        "waves", "workgroups", "insts", "valu", "mfma", "salu", "smem", "branch", "lds", "vmem",
        "vmem_rd", "vmem_wr", "valu_active_lanes", "lds_bank_conflict", "lds_bytes", "vmem_bytes",
        "vmem_lines_64", "vmem_lines_128", "scratch_bytes")]


class AttOptions(ctypes.Structure):  # gfx_att_options
    _fields_ = [("dir", c_char_p), ("code_object", c_char_p), ("target_cu", c_int),
                ("se_mask", c_u32), ("simd_mask", c_u32), ("workgroups", c_char_p)]


class FaultRecord(ctypes.Structure):
    _fields_ = [("kind", c_int), ("kernel", ctypes.c_char * 128), ("workgroup", c_u32 * 3),
                ("wave", c_u32), ("lanes", c_u64), ("pc", c_u64), ("op", ctypes.c_char * 48),
                ("disasm", ctypes.c_char * 1024), ("addr", c_u64), ("size", c_u32),
                ("write", c_int), ("wave_insts", c_u64), ("message", ctypes.c_char * 2048)]


class MemcheckError(ctypes.Structure):
    _fields_ = [("pc", c_u64), ("op", ctypes.c_char * 48), ("workgroup", c_u32 * 3),
                ("wave", c_u32), ("lane", c_int), ("addr", c_u64), ("size", c_u32),
                ("write", c_int), ("message", ctypes.c_char * 1024)]


def _fn(name, restype, *argtypes):
    f = getattr(lib, name)
    f.restype = restype
    f.argtypes = list(argtypes)
    return f


gfx_version = _fn("gfx_version", c_char_p)
gfx_result_str = _fn("gfx_result_str", c_char_p, c_int)
gfx_arch_from_name = _fn("gfx_arch_from_name", c_int, c_char_p, P(c_int))
gfx_arch_name = _fn("gfx_arch_name", c_char_p, c_int)
gfx_module_load_mem = _fn("gfx_module_load_mem", c_int, c_void_p, c_size_t, P(c_void_p),
                          c_char_p, c_size_t)
gfx_module_free = _fn("gfx_module_free", None, c_void_p)
gfx_module_arch = _fn("gfx_module_arch", c_int, c_void_p)
gfx_module_target = _fn("gfx_module_target", c_char_p, c_void_p)
gfx_module_symbol_count = _fn("gfx_module_symbol_count", c_size_t, c_void_p)
gfx_module_symbol = _fn("gfx_module_symbol", c_int, c_void_p, c_size_t, P(Symbol))
gfx_module_text = _fn("gfx_module_text", c_void_p, c_void_p, P(c_u64), P(c_size_t))
gfx_module_kernel = _fn("gfx_module_kernel", c_int, c_void_p, c_char_p, P(c_void_p))
gfx_module_metadata_error = _fn("gfx_module_metadata_error", c_char_p, c_void_p)
gfx_module_kernel_error = _fn("gfx_module_kernel_error", c_char_p, c_void_p)
gfx_kernel_bind_local = _fn("gfx_kernel_bind_local", c_int, c_void_p, c_size_t, c_u64, P(c_u32),
                            c_void_p, c_size_t)
gfx_kernel_get_info = _fn("gfx_kernel_get_info", c_int, c_void_p, P(KernelInfo))
gfx_kernel_arg = _fn("gfx_kernel_arg", c_int, c_void_p, c_size_t, P(ArgInfo))
gfx_device_create = _fn("gfx_device_create", c_int, c_int, c_uint, P(c_void_p))
gfx_device_free = _fn("gfx_device_free", None, c_void_p)
gfx_device_threads = _fn("gfx_device_threads", c_uint, c_void_p)
gfx_device_error = _fn("gfx_device_error", c_char_p, c_void_p)
gfx_device_set_cus = _fn("gfx_device_set_cus", c_int, c_void_p, c_uint)
gfx_device_cus = _fn("gfx_device_cus", c_uint, c_void_p)
gfx_race_count = _fn("gfx_race_count", c_size_t, c_void_p)
gfx_race_get = _fn("gfx_race_get", c_int, c_void_p, c_size_t, P(RaceRecord))
gfx_buffer_alloc = _fn("gfx_buffer_alloc", c_int, c_void_p, c_u64, P(c_u64))
gfx_buffer_free = _fn("gfx_buffer_free", c_int, c_void_p, c_u64)
gfx_buffer_move_out = _fn("gfx_buffer_move_out", c_int, c_void_p, c_u64, c_void_p, c_u64)
gfx_memcpy_htod = _fn("gfx_memcpy_htod", c_int, c_void_p, c_u64, c_void_p, c_u64)
gfx_memcpy_dtoh = _fn("gfx_memcpy_dtoh", c_int, c_void_p, c_void_p, c_u64, c_u64)
gfx_launch = _fn("gfx_launch", c_int, c_void_p, c_void_p, P(c_u32), P(c_u32), c_void_p,
                 c_size_t, P(LaunchOptions), P(Stats))
gfx_last_fault = _fn("gfx_last_fault", c_int, c_void_p, P(FaultRecord))
gfx_debug_create = _fn("gfx_debug_create", c_int, c_void_p, P(c_void_p))
gfx_debug_free = _fn("gfx_debug_free", None, c_void_p)
gfx_debug_launch = _fn("gfx_debug_launch", c_int, c_void_p, c_void_p, P(c_u32), P(c_u32),
                       c_void_p, c_size_t, P(LaunchOptions), P(Stats))
gfx_debug_counters_enable = _fn("gfx_debug_counters_enable", c_int, c_void_p, c_int)
gfx_debug_counters = _fn("gfx_debug_counters", c_int, c_void_p, P(Counters))
gfx_debug_att = _fn("gfx_debug_att", c_int, c_void_p, P(AttOptions))
gfx_fault_kind_name = _fn("gfx_fault_kind_name", c_char_p, c_int)
gfx_module_symbol_address = _fn("gfx_module_symbol_address", c_int, c_void_p, c_void_p, c_char_p,
                                P(c_u64), P(c_u64))
gfx_memcheck_errors = _fn("gfx_memcheck_errors", c_u64, c_void_p, P(c_u64))
gfx_memcheck_error_get = _fn("gfx_memcheck_error_get", c_int, c_void_p, c_size_t,
                             P(MemcheckError))
gfx_disasm = _fn("gfx_disasm", c_size_t, c_int, c_void_p, c_size_t, c_char_p, c_size_t)
# the assembler (absent from libraries built before it existed)
if hasattr(lib, "gfx_assemble"):
    gfx_assemble = _fn("gfx_assemble", c_int, c_int, c_char_p, c_size_t, c_uint,
                       P(P(ctypes.c_uint8)), P(c_size_t), c_char_p, c_size_t)
    gfx_free = _fn("gfx_free", None, c_void_p)

gfxemu_run_asm = _fn("gfxemu_run_asm", c_int, c_u64, c_u32, c_u32, c_u32, c_u32, c_u32, c_u32,
                     c_u32, c_u64, c_u32, c_u32, c_char_p, P(c_u32), c_u32)
gfxemu_run_asm_ranges = _fn("gfxemu_run_asm_ranges", c_int, c_u64, c_u32, c_u32, c_u32, c_u32,
                            c_u32, c_u32, c_u32, c_u64, c_u32, c_u32, c_char_p, P(c_u32), c_u32,
                            P(c_u64), c_size_t)
if hasattr(lib, "gfxemu_run_asm_rsrc1"):
    gfxemu_run_asm_rsrc1 = _fn("gfxemu_run_asm_rsrc1", c_int, c_u64, c_u32, c_u32, c_u32, c_u32,
                               c_u32, c_u32, c_u32, c_u64, c_u32, c_u32, c_char_p, P(c_u32), c_u32,
                               P(c_u64), c_size_t, c_u32)
gfxemu_map_host = _fn("gfxemu_map_host", c_int, c_void_p, c_u64)
gfxemu_unmap_host = _fn("gfxemu_unmap_host", c_int, c_void_p)
gfxemu_unmap_host_range = _fn("gfxemu_unmap_host_range", c_int, c_void_p, c_u64)
gfxemu_last_fault = _fn("gfxemu_last_fault", c_int, P(FaultRecord))
gfxemu_last_error = _fn("gfxemu_last_error", c_char_p)


def result_str(r):
    return gfx_result_str(r).decode()
