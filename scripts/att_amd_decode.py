#!/usr/bin/env python3
"""Decode a `gfxemu run --att DIR` directory with AMD's rocprof-trace-decoder library (a local,
optional check: the library is a binary under AMD's own license, fetched by hand and never part
of `make check`).

    python3 scripts/att_amd_decode.py DIR /path/to/librocprof-trace-decoder.so [--insts]

Prints, per shader engine file, what the library reports: the gfx IP, occupancy (wave start/end)
events and, per traced wave, its instructions with the code object id and ELF address the library
attributed to each.  Instruction text comes from llvm-objdump-22 on the code object copy in DIR
(through the library's ISA callback).  The API used is the public rocprof_trace_decoder.h C
interface: rocprof_trace_decoder_parse_data(se_data, trace, isa, userdata)."""
import ctypes as C
import json
import os
import sys

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "tests",
                                "tools"))
import att_decode  # noqa: E402  (for the disassembly only)


class PC(C.Structure):
    _fields_ = [("address", C.c_uint64), ("code_object_id", C.c_uint64)]


class Occupancy(C.Structure):
    _fields_ = [("pc", PC), ("time", C.c_uint64), ("reserved", C.c_uint8), ("cu", C.c_uint8),
                ("simd", C.c_uint8), ("wave_id", C.c_uint8), ("bits", C.c_uint32)]


class Inst(C.Structure):
    _fields_ = [("bits", C.c_uint32), ("duration", C.c_int32), ("time", C.c_int64), ("pc", PC)]


class Wave(C.Structure):
    _fields_ = [("cu", C.c_uint8), ("simd", C.c_uint8), ("wave_id", C.c_uint8),
                ("contexts", C.c_uint8), ("r1", C.c_uint32), ("r2", C.c_uint32),
                ("r3", C.c_uint32), ("begin_time", C.c_int64), ("end_time", C.c_int64),
                ("timeline_size", C.c_uint64), ("instructions_size", C.c_uint64),
                ("timeline_array", C.c_void_p), ("instructions_array", C.POINTER(Inst))]


SE_CB = C.CFUNCTYPE(C.c_uint64, C.POINTER(C.POINTER(C.c_uint8)), C.POINTER(C.c_uint64),
                    C.c_void_p)
TRACE_CB = C.CFUNCTYPE(C.c_int, C.c_int, C.c_void_p, C.c_uint64, C.c_void_p)
ISA_CB = C.CFUNCTYPE(C.c_int, C.c_void_p, C.POINTER(C.c_uint64), C.POINTER(C.c_uint64), PC,
                     C.c_void_p)
CATEGORY = ["NONE", "SMEM", "SALU", "VMEM", "FLAT", "LDS", "VALU", "JUMP", "NEXT", "IMMED",
            "CONTEXT", "MESSAGE", "BVH"]


def decode_file(lib, path, insts, base, show):
    data = open(path, "rb").read()
    buf = (C.c_uint8 * len(data)).from_buffer_copy(data)
    state = {"given": False, "gfxip": None, "occ": [], "waves": [], "info": [], "isa_misses": 0}

    def se_cb(pbuf, psize, _ud):
        if state["given"]:
            return 0
        state["given"] = True
        pbuf[0] = C.cast(buf, C.POINTER(C.c_uint8))
        psize[0] = len(data)
        return len(data)

    def trace_cb(kind, events, n, _ud):
        if kind == 0:
            state["gfxip"] = events  # the value itself, passed in the pointer
        elif kind == 1:
            occ = C.cast(events, C.POINTER(Occupancy))
            for i in range(n):
                o = occ[i]
                state["occ"].append((o.time, o.cu, o.simd, o.wave_id, o.bits & 1,
                                     o.pc.code_object_id, o.pc.address))
        elif kind == 3:
            ws = C.cast(events, C.POINTER(Wave))
            for i in range(n):
                w = ws[i]
                ii = [(w.instructions_array[k].time, CATEGORY[w.instructions_array[k].bits & 0xff]
                       if (w.instructions_array[k].bits & 0xff) < len(CATEGORY) else "?",
                       w.instructions_array[k].pc.code_object_id,
                       w.instructions_array[k].pc.address)
                      for k in range(w.instructions_size)]
                state["waves"].append((w.cu, w.simd, w.wave_id, w.begin_time, w.end_time, ii))
        elif kind == 4:
            inf = C.cast(events, C.POINTER(C.c_int))
            state["info"] += [lib.rocprof_trace_decoder_get_info_string(inf[i]).decode()
                              for i in range(n)]
        return 0

    def isa_cb(text, memsize, size, pc, _ud):
        addr = pc.address if pc.code_object_id else pc.address - base
        if addr not in insts:
            state["isa_misses"] += 1
            return 3  # INVALID_ARGUMENT
        mn, ops, n = insts[addr]
        s = (mn + " " + ops).strip().encode()
        if size[0] < len(s) + 1:
            size[0] = len(s) + 1
            return 2  # OUT_OF_RESOURCES: call again with more room
        C.memmove(text, s + b"\0", len(s) + 1)
        size[0] = len(s)
        memsize[0] = n
        return 0

    cbs = (SE_CB(se_cb), TRACE_CB(trace_cb), ISA_CB(isa_cb))
    st = lib.rocprof_trace_decoder_parse_data(cbs[0], cbs[1], cbs[2], None)
    print("%s: status %d (%s), gfxip %s, %d occupancy events, %d waves, info %s, ISA misses %d"
          % (os.path.basename(path), st, lib.rocprof_trace_decoder_get_status_string(st).decode(),
             state["gfxip"], len(state["occ"]), len(state["waves"]), state["info"],
             state["isa_misses"]))
    for cu, simd, slot, b, e, ii in state["waves"]:
        print("  wave cu %d simd %d slot %d: time %d-%d, %d instructions" %
              (cu, simd, slot, b, e, len(ii)))
        if show:
            for t, cat, co, a in ii:
                mn = insts.get(a, ("?",))[0] if co else "?"
                print("    %8d %-6s co %d 0x%x %s" % (t, cat, co, a, mn))
    return st, state


def main():
    if len(sys.argv) < 3:
        sys.exit(__doc__)
    d, so = sys.argv[1], sys.argv[2]
    lib = C.CDLL(os.path.abspath(so))
    lib.rocprof_trace_decoder_parse_data.argtypes = [SE_CB, TRACE_CB, ISA_CB, C.c_void_p]
    lib.rocprof_trace_decoder_parse_data.restype = C.c_int
    lib.rocprof_trace_decoder_get_status_string.restype = C.c_char_p
    lib.rocprof_trace_decoder_get_info_string.restype = C.c_char_p
    index = json.load(open(os.path.join(d, "att_index.json")))
    co = index["code_objects"][0]
    insts, _ = att_decode.disassemble(os.path.join(d, co["file"]), index["agent"]["name"])
    for tr in index["traces"]:
        decode_file(lib, os.path.join(d, tr["file"]), insts, co["load_base"],
                    "--insts" in sys.argv)


if __name__ == "__main__":
    main()
