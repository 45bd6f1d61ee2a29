#!/usr/bin/env python3
"""An independent decoder of gfx9 SQTT thread traces (.att files), written from the format as
docs/att.md states it (AMD's rocprof-trace-decoder sources are its source), not from gfxemu's
writer: used by test_att.py to check what `gfxemu run --att` writes against what the kernel
executed.  Usable by hand too:  python3 tests/tools/att_decode.py DIR [--walk]

Like AMD's decoder it recovers the PC of every instruction by walking the code object from the
wave's start address (COMPUTE_PGM_LO/HI), taking a branch when the INST token says JUMP and
following INST_PC after s_setpc/s_swappc; the disassembly comes from llvm-objdump-22."""
import json
import os
import re
import subprocess
import sys

# Token length in bytes by type (low nibble)
LEN = [2, 8, 8, 4, 2, 6, 2, 2, 2, 2, 2, 8, 6, 4, 8, 6]
MISC, TIMESTAMP, REG, WAVE_START, REG_CS, WAVE_END = 0, 1, 2, 3, 5, 6
INST, INST_PC, ISSUE, REG_CS_PRIV = 10, 11, 13, 15
# INST token instruction types (the subset a CDNA compute kernel uses)
TYPES = {0: "SMEM_RD", 1: "SALU_32", 2: "VMEM_RD", 3: "VMEM_WR", 4: "FLAT_WR", 5: "VALU_32",
         6: "LDS", 7: "PC", 12: "JUMP", 13: "NEXT", 14: "FLAT_RD", 15: "OTHER_MSG",
         16: "SMEM_WR", 17: "SALU_64", 18: "VALU_64", 28: "VALU_MAI"}


class DecodeError(Exception):
    pass


def bits(v, lo, hi):
    return (v >> lo) & ((1 << (hi - lo + 1)) - 1)


def tokens(data):
    """(header fields, [(time, type, value)]) of one .att file."""
    if len(data) < 8:
        raise DecodeError("no 8-byte header")
    h = int.from_bytes(data[:8], "little")
    header = {"legacy_version": bits(h, 0, 12), "gfx9_version2": bits(h, 13, 15),
              "simd_mask": bits(h, 16, 19), "target_cu": bits(h, 20, 24), "se": bits(h, 26, 31)}
    if header["legacy_version"] not in (0, 0x11) or not 4 <= header["gfx9_version2"] <= 6:
        raise DecodeError("not a gfx9 header: %r" % header)
    out, pos, time = [], 8, 0
    while pos < len(data):
        t = data[pos] & 15
        n = LEN[t]
        if pos + n > len(data):
            raise DecodeError("token type %d cut at byte %d" % (t, pos))
        v = int.from_bytes(data[pos:pos + n], "little")
        pos += n
        time += 4 * (bits(v, 4, 11) if t == MISC else bits(v, 4, 4))
        if t == TIMESTAMP:
            time = bits(v, 16, 63)
        out.append((time, t, v))
    return header, out


def disassemble(co, mcpu):
    """{vaddr: (mnemonic, operands, size)} and {symbol: vaddr} of a code object."""
    txt = subprocess.run(["llvm-objdump-22", "-d", "--mcpu=" + mcpu, co], capture_output=True,
                         text=True, check=True).stdout
    insts, syms = {}, {}
    for line in txt.splitlines():
        m = re.match(r"^([0-9a-f]+) <(.+)>:$", line)
        if m:
            syms[m.group(2)] = int(m.group(1), 16)
            continue
        m = re.match(r"^\t(\S+)\s*(.*?)\s*// ([0-9A-F]+): ((?:[0-9A-F]{8} ?)+)", line)
        if m:
            insts[int(m.group(3), 16)] = (m.group(1), m.group(2), 4 * len(m.group(4).split()))
    return insts, syms


def kind_ok(mn, ty):
    """Whether INST type name ty (or "IMMED") fits mnemonic mn, by the ISA's instruction
    families (CDNA3/CDNA4 ISA manuals: SOPP, SALU, SMEM, VALU, MAI, DS, MUBUF, FLAT)."""
    branch = mn.startswith("s_cbranch") or mn in ("s_branch", "s_call_b64")
    if ty in ("JUMP", "NEXT"):
        return branch and (ty == "JUMP" or mn != "s_branch")
    if ty == "PC":
        return mn in ("s_setpc_b64", "s_swappc_b64")
    if ty == "IMMED":
        return mn in ("s_nop", "s_waitcnt", "s_barrier", "s_endpgm", "s_sleep", "s_setprio",
                      "s_sethalt", "s_icache_inv", "s_ttracedata", "s_incperflevel",
                      "s_decperflevel", "s_trap", "s_setkill") or mn.startswith("s_waitcnt")
    if ty in ("SMEM_RD", "SMEM_WR"):
        return re.match(r"s_(load|buffer_load|store|buffer_store|atomic|memtime|memrealtime|"
                        r"dcache|scratch)", mn) is not None
    if ty in ("SALU_32", "SALU_64"):
        return mn.startswith("s_") and not branch
    if ty == "VALU_MAI":
        return mn.startswith("v_mfma") or mn.startswith("v_smfmac")
    if ty in ("VALU_32", "VALU_64"):
        return mn.startswith("v_")
    if ty == "LDS":
        return mn.startswith("ds_")
    if ty in ("FLAT_RD", "FLAT_WR"):
        return re.match(r"(global|flat|scratch)_", mn) is not None
    if ty in ("VMEM_RD", "VMEM_WR"):
        return re.match(r"(buffer|tbuffer)_", mn) is not None
    if ty == "OTHER_MSG":
        return mn.startswith("s_sendmsg")
    return False


def branch_target(pc, mn, ops):
    m = re.search(r"(-?\d+)$", ops)
    if not m:
        raise DecodeError("no branch offset in %s %s" % (mn, ops))
    s = int(m.group(1)) & 0xffff
    s = s - 0x10000 if s & 0x8000 else s
    return pc + 4 + 4 * s


def decode_se(path, insts=None):
    """Waves of one shader engine file: dicts with cu, simd, slot, start, end and (for traced
    waves) the instructions [(time, pc, mnemonic, type)]."""
    with open(path, "rb") as f:
        header, toks = tokens(f.read())
    regs, userdata, codeobjs = {}, {"on": False, "state": None, "fields": {}}, []
    live, done, last = {}, [], -1
    for time, t, v in toks:
        if time < last:
            raise DecodeError("time goes back at %d" % time)
        last = time
        if t == REG_CS or t == REG_CS_PRIV:
            regs[bits(v, 9, 15)] = bits(v, 16, 47)
        elif t == REG and bits(v, 15, 15) and bits(v, 16, 31) == 0xC342:
            data = bits(v, 32, 63)
            u = userdata
            if not u["on"]:
                u["on"] = data == 0x434F5200  # "\0ROC"
            elif u["state"] is None:
                if data & 0xff == 4 and data >> 12 == 0:  # CODEOBJ header: type in bits 8-11
                    u["state"] = (data >> 8) & 15
            else:
                if u["state"] == 0:  # TAIL
                    fl = u["fields"]
                    codeobjs.append({"id": data >> 2, "load": data & 1 == 0,
                                     "addr": fl.get(2, 0) | fl.get(3, 0) << 32,
                                     "size": fl.get(1, 0) | fl.get(4, 0) << 32})
                    u["fields"] = {}
                else:
                    u["fields"][u["state"]] = data
                u["state"] = None
        elif t == WAVE_START:
            key = (bits(v, 6, 9), bits(v, 14, 15), bits(v, 10, 13))
            if key in live:
                raise DecodeError("wave slot %r started twice" % (key,))
            entry = (regs.get(0xC, 0) | regs.get(0xD, 0) << 32) << 8
            live[key] = {"cu": key[0], "simd": key[1], "slot": key[2], "start": time,
                         "entry": entry, "pc": None, "insts": [], "pending": 0,
                         "want_pc": False}
        elif t == WAVE_END:
            key = (bits(v, 6, 9), bits(v, 14, 15), bits(v, 10, 13))
            if key not in live:
                raise DecodeError("wave end without a start: %r" % (key,))
            w = live.pop(key)
            if w["pending"] or w["want_pc"]:
                raise DecodeError("wave %r ended with an instruction outstanding" % (key,))
            w["end"] = time
            done.append(w)
        elif t in (ISSUE, INST, INST_PC):
            simd = bits(v, 5, 6) if t == ISSUE else bits(v, 9, 10)
            slots = [s for s in range(10) if bits(v, 8 + 2 * s, 9 + 2 * s)] if t == ISSUE \
                else [bits(v, 5, 8)]
            for slot in slots:
                key = (header["target_cu"], simd, slot)
                if key not in live:
                    raise DecodeError("token %d for a wave that is not running: %r" % (t, key))
                w = live[key]
                if t == ISSUE:
                    status = bits(v, 8 + 2 * slot, 9 + 2 * slot)
                    if status == 2:
                        w["pending"] += 1
                    elif status == 3:
                        step(w, time, "IMMED", insts, codeobjs)
                elif t == INST:
                    if not w["pending"]:
                        raise DecodeError("INST without ISSUE for %r" % (key,))
                    w["pending"] -= 1
                    ty = TYPES.get(bits(v, 11, 15))
                    if ty is None:
                        raise DecodeError("unknown instruction type %d" % bits(v, 11, 15))
                    step(w, time, ty, insts, codeobjs)
                else:
                    if not w["want_pc"]:
                        raise DecodeError("INST_PC not after an s_setpc/s_swappc")
                    addr = bits(v, 16, 63) << 2
                    co = [c for c in codeobjs if c["addr"] <= addr < c["addr"] + c["size"]]
                    w["pc"] = addr - co[0]["addr"] if co else addr
                    w["want_pc"] = False
        elif t not in (MISC, TIMESTAMP, REG):
            raise DecodeError("unexpected token type %d" % t)
    if live:
        raise DecodeError("waves never ended: %r" % list(live))
    return {"header": header, "regs": regs, "codeobjs": codeobjs, "waves": done}


def step(w, time, ty, insts, codeobjs):
    """One instruction of wave w: walk the code object when a disassembly is given."""
    if insts is None:
        w["insts"].append((time, None, None, ty))
        return
    if w["pc"] is None:
        co = [c for c in codeobjs if c["addr"] <= w["entry"] < c["addr"] + c["size"]]
        if not co:
            raise DecodeError("entry 0x%x is in no code object of the trace" % w["entry"])
        w["pc"] = w["entry"] - co[0]["addr"]
    if w["want_pc"]:
        raise DecodeError("instruction before the INST_PC of an s_setpc")
    pc = w["pc"]
    if pc not in insts:
        raise DecodeError("walked to 0x%x, not an instruction" % pc)
    mn, ops, size = insts[pc]
    if not kind_ok(mn, ty):
        raise DecodeError("0x%x %s reported as %s" % (pc, mn, ty))
    w["insts"].append((time, pc, mn, ty))
    if ty == "JUMP":
        w["pc"] = branch_target(pc, mn, ops)
    elif ty == "PC":
        w["want_pc"] = True
    else:
        w["pc"] = pc + size


def decode_dir(d, walk=True):
    """All .att files of a gfxemu --att directory, by shader engine."""
    with open(os.path.join(d, "att_index.json")) as f:
        index = json.load(f)
    insts = None
    if walk:
        co = index["code_objects"][0]
        insts, _ = disassemble(os.path.join(d, co["file"]), index["agent"]["name"])
    out = {}
    for tr in index["traces"]:
        out[tr["shader_engine"]] = decode_se(os.path.join(d, tr["file"]), insts)
    return index, out


if __name__ == "__main__":
    index, ses = decode_dir(sys.argv[1], walk="--walk" in sys.argv)
    for se, r in sorted(ses.items()):
        print("SE %d: %d waves, code objects %s" % (se, len(r["waves"]), r["codeobjs"]))
        for w in r["waves"]:
            print("  cu %d simd %d slot %d: cycles %d-%d, %d instructions" % (
                w["cu"], w["simd"], w["slot"], w["start"], w["end"], len(w["insts"])))
            if "--walk" in sys.argv:
                for time, pc, mn, ty in w["insts"]:
                    print("    %8d 0x%x %-24s %s" % (time, pc, mn, ty))
