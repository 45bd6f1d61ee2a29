#!/usr/bin/env python3
"""gfxemu run --att DIR: gfx9 SQTT thread traces, read back with the independent decoder in
att_decode.py (it walks the code object's llvm-objdump-22 disassembly as AMD's decoder does) and
checked against what the kernels execute, worked out from their source:

  loop(out, in, n): every wave runs the loop body n times, every other instruction it reaches
    once, and ends at s_endpgm; with --cus 4 the model has one shader engine of 4 CUs, so
    workgroup L runs on CU L mod 4 (docs/att.md "Placement"), and only the target CU's waves
    carry instruction tokens;
  the issue model (docs/att.md "Timestamps"): one instruction per cycle, a VMEM load completes
    500 cycles after issue, so `s_waitcnt vmcnt(0)` right behind the load issues 500 cycles
    (+- the 4-cycle token grain) after it;
  exchange: 4 waves on SIMDs 0-3; nothing after s_barrier issues before the last wave arrives;
  -O0 (a call): s_swappc_b64 and s_setpc_b64 come with INST_PC tokens the walk follows.
Also the selection options (--att-target-cu, --att-simd-select, --att-shader-engine-mask,
--att-workgroups), the code object copy and markers, and error cases."""
import json
import os
import shutil
import struct
import subprocess
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import att_decode  # noqa: E402

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "common"))
from kbuild import kbuild  # noqa: E402

BUILD = os.environ.get("BUILD", "build")
GFXEMU = os.environ.get("GFXEMU", os.path.join(BUILD, "gfxemu"))
tmp = os.path.join(BUILD, "test-data", "att")
shutil.rmtree(tmp, ignore_errors=True)
os.makedirs(tmp)
here = os.path.dirname(os.path.abspath(__file__))
failures = []


def check(cond, what):
    if not cond:
        failures.append(what)
        print("FAIL:", what, file=sys.stderr)
    return cond


def compile_co(cpu, opt):
    co = os.path.join(tmp, "att_%s_%s.co" % (cpu, opt))
    # built only when out of date (tests/common/kbuild.py), kept in $BUILD/test-kernels/att/
    kept = os.path.join(BUILD, "test-kernels", "att", os.path.basename(co))
    r = kbuild("co", kept, ["-x", "cl", "-cl-std=CL2.0", "-target", "amdgcn-amd-amdhsa",
                            "-mcpu=" + cpu, "-nogpulib", opt, os.path.join(here, "att_kernels.cl")])
    if r.returncode:
        raise RuntimeError("building att_kernels.cl failed: " + r.stderr)
    shutil.copyfile(kept, co)
    return co


def decode(d, name):
    try:
        return att_decode.decode_dir(d)
    except (att_decode.DecodeError, OSError, KeyError, ValueError) as e:
        check(False, "%s: decoding failed: %s" % (name, e))
        return None, {}


n_iter = 5
inp = os.path.join(tmp, "in.bin")
vals = [float(i % 7) - 2.5 for i in range(512)]
with open(inp, "wb") as f:
    f.write(struct.pack("<512f", *vals))

for cpu in ("gfx950", "gfx942"):
    co = compile_co(cpu, "-O2")
    insts, syms = att_decode.disassemble(co, cpu)
    out = os.path.join(tmp, "out_%s.bin" % cpu)
    name = "loop_" + cpu
    dd = os.path.join(tmp, name)
    r = subprocess.run([GFXEMU, "run", co, "loop", "--grid", "8", "--block", "64", "--cus", "4",
                        "--arg", "out:%s:2048" % out, "--arg", "in:" + inp,
                        "--arg", "i32:%d" % n_iter, "--att", dd], capture_output=True, text=True)
    check(r.returncode == 0, "%s: exit %d: %s" % (name, r.returncode, r.stderr))
    with open(out, "rb") as f:
        got = struct.unpack("<512f", f.read())
    want = [sum(v * float(i) for i in range(n_iter)) for v in vals]
    check(all(abs(a - b) < 1e-3 for a, b in zip(got, want)), "%s: wrong results" % name)

    index, ses = decode(dd, name)
    if not index or 0 not in ses:
        check(False, "%s: no trace of shader engine 0" % name)
        continue
    check(sorted(os.path.basename(p) for p in os.listdir(dd) if p.endswith(".att")) ==
          ["gfxemu_shader_engine_0_%d.att" % index["dispatch"]["id"]],
          "%s: one .att for the default shader engine mask 0x1: %s" % (name, os.listdir(dd)))
    with open(co, "rb") as f1, open(os.path.join(dd, index["code_objects"][0]["file"]), "rb") as f2:
        check(f1.read() == f2.read(), "%s: the .out file is not the code object" % name)
    se = ses[0]
    h = se["header"]
    check(h["legacy_version"] == 0x11 and h["gfx9_version2"] == (6 if cpu == "gfx950" else 5)
          and h["target_cu"] == 0 and h["simd_mask"] == 0xF and h["se"] == 0,
          "%s: header %r" % (name, h))
    cob = se["codeobjs"]
    check(len(cob) == 1 and cob[0]["id"] == 1 and cob[0]["load"] and
          cob[0]["addr"] == index["code_objects"][0]["load_base"] and
          cob[0]["size"] == index["code_objects"][0]["load_size"],
          "%s: code object markers %r" % (name, cob))
    waves = se["waves"]
    # 8 workgroups of one wave on one shader engine of 4 CUs: workgroup L on CU L mod 4
    check(len(waves) == 8, "%s: %d waves started, want 8" % (name, len(waves)))
    check(sorted(w["cu"] for w in waves) == [0, 0, 1, 1, 2, 2, 3, 3],
          "%s: CUs %r" % (name, [w["cu"] for w in waves]))
    check(all(w["start"] <= w["end"] for w in waves), "%s: a wave ends before it starts" % name)
    traced = [w for w in waves if w["insts"]]
    check(len(traced) == 2 and all(w["cu"] == 0 for w in traced),
          "%s: traced waves %r" % (name, [(w["cu"], len(w["insts"])) for w in traced]))
    entry = syms["loop"]
    for w in traced:
        pcs = [i[1] for i in w["insts"]]
        check(w["entry"] - cob[0]["addr"] == entry,
              "%s: wave start 0x%x, the kernel is at 0x%x" % (name, w["entry"], entry))
        check(pcs[0] == entry and w["insts"][-1][2] == "s_endpgm",
              "%s: walk from 0x%x to %s" % (name, pcs[0], w["insts"][-1][2]))
        # the loop: the backward branch is taken n-1 times; its body runs n times
        back = [i for i in w["insts"] if i[3] == "JUMP" and
                att_decode.branch_target(i[1], i[2], insts[i[1]][1]) < i[1]]
        check(len(back) == n_iter - 1, "%s: %d backward jumps, want %d" %
              (name, len(back), n_iter - 1))
        if back:
            lo, hi = att_decode.branch_target(back[0][1], back[0][2], insts[back[0][1]][1]), \
                back[0][1]
            body = [p for p in insts if lo <= p <= hi]
            check(all(pcs.count(p) == n_iter for p in body),
                  "%s: loop body counts %r" % (name, [pcs.count(p) for p in body]))
            check(all(pcs.count(p) == 1 for p in set(pcs) if not lo <= p <= hi),
                  "%s: an instruction outside the loop ran twice" % name)
        times = [i[0] for i in w["insts"]]
        check(times == sorted(times) and w["start"] <= times[0] and times[-1] <= w["end"],
              "%s: instruction times out of order or outside the wave" % name)
        # the issue model: the load's data arrives 500 cycles after it issues
        ld = [i for i in w["insts"] if i[2].startswith("global_load")]
        wt = [i for i in w["insts"] if i[2] == "s_waitcnt" and ld and i[0] >= ld[0][0] and
              "vmcnt(0)" in insts[i[1]][1]]
        if check(ld and wt, "%s: no global_load / s_waitcnt vmcnt(0) pair" % name):
            gap = wt[0][0] - ld[0][0]
            check(496 <= gap <= 504, "%s: s_waitcnt vmcnt(0) %d cycles after the load, want 500"
                  % (name, gap))
        # one instruction per cycle: a wave issues no more instructions than cycles + grain
        check(len(w["insts"]) <= (w["end"] - w["start"]) + 4,
              "%s: %d instructions in %d cycles" % (name, len(w["insts"]), w["end"] - w["start"]))
    check(len(index["traced_waves"]) == 2 and
          sorted(t["workgroup_linear"] for t in index["traced_waves"]) == [0, 4],
          "%s: index traced waves %r" % (name, index["traced_waves"]))

co = compile_co("gfx950", "-O2")
out = os.path.join(tmp, "out.bin")
common = ["--cus", "4", "--arg", "out:%s:2048" % out, "--arg", "in:" + inp,
          "--arg", "i32:%d" % n_iter]


def selection(name, opts, want_cus, want_n, grid=8):
    d = os.path.join(tmp, name)
    r = subprocess.run([GFXEMU, "run", co, "loop", "--grid", str(grid), "--block", "64"] +
                       common + ["--att", d] + opts, capture_output=True, text=True)
    if not check(r.returncode == 0, "%s: exit %d %s" % (name, r.returncode, r.stderr)):
        return None
    index, ses = decode(d, name)
    traced = [w for s in ses.values() for w in s["waves"] if w["insts"]]
    check(len(traced) == want_n and all(w["cu"] in want_cus for w in traced),
          "%s: traced %r, want %d on CUs %r" % (name, [w["cu"] for w in traced], want_n,
                                               want_cus))
    return index, ses


# CU 2 runs workgroups 2 and 6; of those only 6 with --att-workgroups 5-7
selection("target_cu", ["--att-target-cu", "2"], {2}, 2)
sel = selection("workgroups", ["--att-target-cu=2", "--att-workgroups", "5-7"], {2}, 1)
if sel and sel[0]:
    check([t["workgroup_linear"] for t in sel[0]["traced_waves"]] == [6],
          "workgroups: traced %r" % sel[0]["traced_waves"])
selection("workgroups_none", ["--att-workgroups", "1,2,3"], {0}, 0)
# 16 CUs: two shader engines of 8; mask 0x2 keeps SE 1 only, which runs the odd workgroups,
# workgroup L on CU (L / 2) mod 8: target CU 1 holds workgroups 3 and 19 of 32
d = os.path.join(tmp, "se_mask")
in32 = os.path.join(tmp, "in32.bin")
with open(in32, "wb") as f:
    f.write(bytes(8192))
r = subprocess.run([GFXEMU, "run", co, "loop", "--grid", "32", "--block", "64", "--cus", "16",
                    "--arg", "out:%s:8192" % out, "--arg", "in:" + in32, "--arg", "i32:2",
                    "--att", d, "--att-shader-engine-mask", "0x2", "--att-target-cu", "1"],
                   capture_output=True, text=True)
if check(r.returncode == 0, "se_mask: %s" % r.stderr):
    index, ses = decode(d, "se_mask")
    index = index or {"traced_waves": []}
    check(sorted(ses) == [1] and len(ses[1]["waves"]) == 16,
          "se_mask: shader engines %r" % {k: len(v["waves"]) for k, v in ses.items()})
    check(sorted(t["workgroup_linear"] for t in index["traced_waves"]) == [3, 19],
          "se_mask: traced %r" % index["traced_waves"])
    check(ses.get(1, {}).get("header", {}).get("se") == 1, "se_mask: header SE")

# exchange: 4 waves, wave i on SIMD i; --att-simd-select 0x5 traces SIMDs 0 and 2
xo = os.path.join(tmp, "x.bin")
d = os.path.join(tmp, "exchange")
r = subprocess.run([GFXEMU, "run", co, "exchange", "--grid", "1", "--block", "256", "--arg",
                    "out:%s:1024" % xo, "--att", d], capture_output=True, text=True)
if check(r.returncode == 0, "exchange: %s" % r.stderr):
    with open(xo, "rb") as f:
        check(list(struct.unpack("<256i", f.read())) == [(255 - l) * 3 for l in range(256)],
              "exchange: wrong results")
    index, ses = decode(d, "exchange")
    waves = ses.get(0, {}).get("waves", [])
    check(sorted((w["simd"], w["cu"]) for w in waves) == [(0, 0), (1, 0), (2, 0), (3, 0)],
          "exchange: SIMDs %r" % [(w["simd"], w["cu"]) for w in waves])
    check(all(w["insts"] and w["insts"][-1][2] == "s_endpgm" for w in waves),
          "exchange: a wave does not end at s_endpgm")
    arrive = [next((i[0] for i in w["insts"] if i[2] == "s_barrier"), None) for w in waves]
    after = [next((w["insts"][k + 1][0] for k, i in enumerate(w["insts"])
                   if i[2] == "s_barrier"), None) for w in waves]
    if check(None not in arrive and None not in after, "exchange: no s_barrier in a wave"):
        check(min(after) >= max(arrive), "exchange: issued after the barrier at %r before the "
              "last wave arrived at %r" % (after, arrive))
    check(all(i[3] == "LDS" for w in waves for i in w["insts"] if i[2].startswith("ds_")),
          "exchange: a ds_ instruction not typed LDS")
selection_d = os.path.join(tmp, "simd")
r = subprocess.run([GFXEMU, "run", co, "exchange", "--grid", "1", "--block", "256", "--arg",
                    "out:%s:1024" % xo, "--att", selection_d, "--att-simd-select", "0x5"],
                   capture_output=True, text=True)
if check(r.returncode == 0, "simd: %s" % r.stderr):
    index, ses = decode(selection_d, "simd")
    waves = ses.get(0, {}).get("waves", [])
    check(len(waves) == 4 and sorted(w["simd"] for w in waves if w["insts"]) == [0, 2],
          "simd: traced SIMDs %r" % [(w["simd"], len(w["insts"])) for w in waves])
    check(ses.get(0, {}).get("header", {}).get("simd_mask") == 5, "simd: header mask")

# -O0: the kernel calls a function (s_getpc, s_swappc_b64, ... s_setpc_b64)
co0 = compile_co("gfx950", "-O0")
insts0, syms0 = att_decode.disassemble(co0, "gfx950")
d = os.path.join(tmp, "call")
r = subprocess.run([GFXEMU, "run", co0, "loop", "--grid", "1", "--block", "64", "--arg",
                    "out:%s:256" % out, "--arg", "in:" + inp, "--arg", "i32:3", "--att", d],
                   capture_output=True, text=True)
if check(r.returncode == 0, "call: %s" % r.stderr):
    index, ses = decode(d, "call")
    waves = ses.get(0, {}).get("waves", [])
    if check(len(waves) == 1 and waves[0]["insts"], "call: %d waves" % len(waves)):
        w = waves[0]
        kinds = [(i[2], i[3]) for i in w["insts"] if i[3] == "PC"]
        check(kinds == [("s_swappc_b64", "PC"), ("s_setpc_b64", "PC")],
              "call: PC instructions %r" % kinds)
        callee = syms0.get("__clang_ocl_kern_imp_loop")
        sw = [k for k, i in enumerate(w["insts"]) if i[2] == "s_swappc_b64"]
        check(sw and w["insts"][sw[0] + 1][1] == callee,
              "call: after s_swappc the walk is not at the callee 0x%x" % (callee or 0))
        check(w["insts"][-1][2] == "s_endpgm" and w["insts"][0][1] == syms0["loop"],
              "call: walk from %s to %s" % (w["insts"][0][2], w["insts"][-1][2]))

# errors: the directory cannot be made, bad options, a selection without --att
blocker = os.path.join(tmp, "a_file")
open(blocker, "w").close()
base = [GFXEMU, "run", co, "loop", "--grid", "1", "--block", "64", "--arg", "zero:256",
        "--arg", "in:" + inp, "--arg", "i32:1"]
r = subprocess.run(base + ["--att", os.path.join(blocker, "sub")], capture_output=True,
                   text=True)
check(r.returncode == 1 and "thread trace" in r.stderr,
      "unwritable dir: exit %d %r" % (r.returncode, r.stderr))
r = subprocess.run(base + ["--att", blocker], capture_output=True, text=True)
check(r.returncode == 1 and "not a writable directory" in r.stderr,
      "a file as dir: exit %d %r" % (r.returncode, r.stderr))
for opts, msg in ((["--att-target-cu", "16"], "--att-target-cu '16'"),
                  (["--att-target-cu", "x"], "--att-target-cu 'x'"),
                  (["--att-simd-select", "0"], "--att-simd-select '0'"),
                  (["--att-simd-select", "0x10"], "--att-simd-select '0x10'"),
                  (["--att-shader-engine-mask", "0"], "--att-shader-engine-mask '0'"),
                  (["--att-workgroups", "3-1"], "--att-workgroups '3-1'"),
                  (["--att-workgroups", "1,"], "--att-workgroups '1,'"),
                  (["--att-bogus", "1"], "unknown option '--att-bogus'")):
    r = subprocess.run(base + ["--att", os.path.join(tmp, "bad")] + opts, capture_output=True,
                       text=True)
    check(r.returncode == 2 and msg in r.stderr, "%s: exit %d %r" % (opts, r.returncode,
                                                                     r.stderr))
r = subprocess.run(base + ["--att-target-cu", "1"], capture_output=True, text=True)
check(r.returncode == 2 and "needs --att DIR" in r.stderr,
      "selection without --att: exit %d %r" % (r.returncode, r.stderr))
r = subprocess.run(base + ["--att"], capture_output=True, text=True)
check(r.returncode == 2 and "--att needs a value" in r.stderr,
      "--att without DIR: exit %d %r" % (r.returncode, r.stderr))

if failures:
    print("%d failure(s)" % len(failures), file=sys.stderr)
    sys.exit(1)
print("test_att: ok")
