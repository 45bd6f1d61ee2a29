#!/usr/bin/env python3
"""gfxemu run --counters: SQ_LDS_BANK_CONFLICT and VMEM coalescing for kernels with known
patterns; expected values worked out by hand from the bank model in src/debug/counters.c
(4-byte banks, 32 on gfx942 and 64 on gfx950; a wave's access in phases of banks / dwords-per-lane
lanes; each extra distinct dword in a bank within a phase costs a cycle) and from the 64/128-byte
line counts of the lane addresses.  The instruction forms the expectations assume are checked
first with llvm-objdump-22.  Also: the CSV/JSON files, LIST selection and errors."""
import csv
import json
import os
import re
import subprocess
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from clitest import BUILD, GFXEMU, HERE as here, check, compile_cl, failures, finish, scratch  # noqa: E402

tmp = scratch("counters")


def counters(co, kernel, block, *args, extra=()):
    r = subprocess.run([GFXEMU, "run", co, kernel, "--grid", "1", "--block", str(block),
                        "--counters"] + list(extra) + [x for a in args for x in ("--arg", a)],
                       capture_output=True, text=True)
    check(r.returncode == 0, "%s: exit %d %s" % (kernel, r.returncode, r.stderr))
    vals = {}
    for line in r.stderr.splitlines():
        m = re.match(r"  (\w+)\s+([\d.]+)  ", line)
        if m:
            vals[m.group(1)] = float(m.group(2))
    return vals


def ds_ops(co, kernel):
    dis = subprocess.run(["llvm-objdump-22", "-d", co], capture_output=True, text=True).stdout
    body = dis.split("<%s>:" % kernel)[1].split("\n\n")[0]
    return re.findall(r"\b(ds_\w+|global_\w+)", body)


# Bank conflicts per instruction by hand (per kernel there is one store and one load with the
# same pattern, so the launch counts twice these):
#   b32, dword stride s, one 64-lane wave:
#     32 banks (gfx942): phases lanes 0-31, 32-63.  s=1: banks all distinct: 0.  s=2: dwords
#       0,2,..,62 -> 16 even banks twice each: 1 per phase, 2.  s=32: all 32 lanes in bank 0:
#       31 per phase, 62.  s=33: bank = l mod 32: 0.
#     64 banks (gfx950): one phase of 64 lanes.  s=2: dwords 0..126 even -> 32 banks twice: 1.
#       s=32: banks 0 and 32, 32 dwords each: 31.  s=33: 33 is odd, a permutation: 0.
#   b128 (4 dwords per lane), stride s elements (dword stride 4s):
#     32 banks: 8 lanes per phase, 8 phases.  s=1: 32 consecutive dwords: 0.  s=2: dwords
#       8l..8l+3 for l<8 cover banks 0-3,8-11,16-19,24-27 twice: 1 per phase, 8.
#     64 banks: 16 lanes per phase, 4 phases.  s=2: lanes 0-7 and 8-15 land on the same banks:
#       1 per phase, 4.
want_b32 = {"gfx942": {1: 0, 2: 2, 32: 62, 33: 0}, "gfx950": {1: 0, 2: 1, 32: 31, 33: 0}}
want_b128 = {"gfx942": {1: 0, 2: 8}, "gfx950": {1: 0, 2: 4}}

for cpu in ("gfx950", "gfx942"):
    co = compile_cl(os.path.join(here, "counters_kernels.cl"), cpu,
                    os.path.join(tmp, "k_%s.co" % cpu))
    ops = ds_ops(co, "lds_b32")
    check(sorted(o for o in ops if o.startswith("ds_")) == ["ds_read_b32", "ds_write_b32"],
          "%s lds_b32 compiles to %s" % (cpu, ops))
    ops = ds_ops(co, "lds_b128")
    check(sorted(o for o in ops if o.startswith("ds_")) == ["ds_read_b128", "ds_write_b128"],
          "%s lds_b128 compiles to %s" % (cpu, ops))
    ops = ds_ops(co, "strided_copy")
    check(ops == ["global_load_dword", "global_store_dword"], "%s strided_copy: %s" % (cpu, ops))

    for s, per in want_b32[cpu].items():
        v = counters(co, "lds_b32", 64, "zero:256", "i32:%d" % s)
        check(v.get("SQ_LDS_BANK_CONFLICT") == 2 * per,
              "%s b32 stride %d: SQ_LDS_BANK_CONFLICT %s, want %d" %
              (cpu, s, v.get("SQ_LDS_BANK_CONFLICT"), 2 * per))
        check(v.get("SQ_INSTS_LDS") == 2 and v.get("GFXEMU_LDS_BYTES") == 2 * 64 * 4,
              "%s b32: LDS insts/bytes %s %s" % (cpu, v.get("SQ_INSTS_LDS"), v.get("GFXEMU_LDS_BYTES")))
    for s, per in want_b128[cpu].items():
        v = counters(co, "lds_b128", 64, "zero:1024", "i32:%d" % s)
        check(v.get("SQ_LDS_BANK_CONFLICT") == 2 * per,
              "%s b128 stride %d: SQ_LDS_BANK_CONFLICT %s, want %d" %
              (cpu, s, v.get("SQ_LDS_BANK_CONFLICT"), 2 * per))
        check(v.get("GFXEMU_LDS_BYTES") == 2 * 64 * 16, "%s b128 bytes" % cpu)

    # Coalescing: buffers start 64 KiB-aligned.  One wave of 64 lanes, 4-byte accesses at a
    # stride of s dwords, per instruction:
    #   s=1: 256 bytes -> 4 lines of 64 B, 2 of 128 B.  s=16 (64 B apart): 64 and 32.
    #   s=32 (128 B apart): 64 and 64.  Two instructions (load + store) per launch.
    for s, l64, l128 in ((1, 4, 2), (16, 64, 32), (32, 64, 64)):
        n = 64 * s * 4
        v = counters(co, "strided_copy", 64, "zero:%d" % n, "zero:%d" % n, "i32:%d" % s)
        check((v.get("GFXEMU_VMEM_LINES_64B"), v.get("GFXEMU_VMEM_LINES_128B")) == (2 * l64, 2 * l128),
              "%s stride %d: lines %s %s, want %d %d" % (cpu, s, v.get("GFXEMU_VMEM_LINES_64B"),
                                                         v.get("GFXEMU_VMEM_LINES_128B"), 2 * l64, 2 * l128))
        check((v.get("SQ_INSTS_VMEM_RD"), v.get("SQ_INSTS_VMEM_WR"), v.get("GFXEMU_VMEM_BYTES")) ==
              (1, 1, 512), "%s stride %d: VMEM rd/wr/bytes" % (cpu, s))
        check(v.get("GFXEMU_VALU_UTILIZATION") == 100.0, "%s full wave: VALU utilisation %s" %
              (cpu, v.get("GFXEMU_VALU_UTILIZATION")))
        check(v.get("SQ_WAVES") == 1, "SQ_WAVES")
    # Half a wave (block 32): EXEC has 32 lanes throughout, so VALU utilisation is exactly 50%,
    # and s=1 touches 128 bytes: 2 lines of 64 B, 1 of 128 B per instruction.
    v = counters(co, "strided_copy", 32, "zero:128", "zero:128", "i32:1")
    check(v.get("GFXEMU_VALU_UTILIZATION") == 50.0, "%s half wave: utilisation %s" %
          (cpu, v.get("GFXEMU_VALU_UTILIZATION")))
    check((v.get("GFXEMU_VMEM_LINES_64B"), v.get("GFXEMU_VMEM_LINES_128B")) == (4, 2),
          "%s half wave lines" % cpu)

# Files: CSV in rocprofv3's counter_collection layout, JSON; LIST selects counters.
co = os.path.join(tmp, "k_gfx950.co")
base = [GFXEMU, "run", co, "lds_b32", "--grid", "1", "--block", "64", "--arg", "zero:256",
        "--arg", "i32:32"]
csv_path = os.path.join(tmp, "c.csv")
r = subprocess.run(base + ["--counters=SQ_LDS_BANK_CONFLICT,SQ_WAVES", "--counters-out", csv_path],
                   capture_output=True, text=True)
check(r.returncode == 0 and r.stderr == "", "--counters-out csv: %r" % r.stderr)
rows = list(csv.DictReader(open(csv_path)))
check([(x["Counter_Name"], x["Counter_Value"]) for x in rows] ==
      [("SQ_WAVES", "1"), ("SQ_LDS_BANK_CONFLICT", "62")], "csv rows %s" % rows)
check(rows and rows[0]["Kernel_Name"] == "lds_b32" and rows[0]["Grid_Size"] == "64" and
      rows[0]["Workgroup_Size"] == "64" and rows[0]["LDS_Block_Size"] == "8448", "csv dispatch %s" % rows[:1])
json_path = os.path.join(tmp, "c.json")
r = subprocess.run(base + ["--counters-out", json_path], capture_output=True, text=True)
doc = json.load(open(json_path))
check(doc["kernel_name"] == "lds_b32" and doc["counters"]["SQ_LDS_BANK_CONFLICT"] == 62 and
      len(doc["counters"]) > 15, "json %s" % doc)
r = subprocess.run(base + ["--counters=SQ_NOPE"], capture_output=True, text=True)
check(r.returncode == 2 and "unknown counter 'SQ_NOPE'" in r.stderr, "unknown counter: %r" % r.stderr)
# The launch result is the same with counters on (they only observe).
out1, out2 = os.path.join(tmp, "o1.bin"), os.path.join(tmp, "o2.bin")
subprocess.run([GFXEMU, "run", co, "lds_b32", "--grid", "1", "--block", "64", "--arg",
                "out:%s:256" % out1, "--arg", "i32:3"], check=True)
subprocess.run([GFXEMU, "run", co, "lds_b32", "--grid", "1", "--block", "64", "--arg",
                "out:%s:256" % out2, "--arg", "i32:3", "--counters"], check=True,
               capture_output=True)
want = b"".join((l ^ 1).to_bytes(4, "little") for l in range(64))
check(open(out1, "rb").read() == want and open(out2, "rb").read() == want, "results with counters")

finish("test_counters")
