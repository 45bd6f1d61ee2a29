#!/usr/bin/env python3
"""gfxemu info: arguments, registers, LDS and occupancy of clang-22 kernels.

The expected occupancies are worked out by hand from the CDNA3/CDNA4 rules (tools/info.c's header
comment: 4 SIMDs per CU, 8 waves per SIMD, 512 unified VGPRs per lane in granules of 8, 7 waves
per SIMD above 100 SGPRs, 16 barriers per CU, LDS 160 KiB/1280-byte granules on gfx950 and
64 KiB/512-byte granules on gfx942).  The register counts themselves are cross-checked against
llvm-readobj-22's dump of the metadata note, so the test does not trust gfxemu's loader for them.
"""
import json
import os
import re
import subprocess
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from clitest import BUILD, GFXEMU, check, compile_cl, failures, finish, scratch  # noqa: E402

tmp = scratch("info")


def readobj_counts(co):
    """{kernel: {field: value}} for the register counts in the metadata, from llvm-readobj-22
    (each kernel's map starts with "  - .agpr_count:"; its ".name" is indented by 4)."""
    text = subprocess.run(["llvm-readobj-22", "--notes", co], check=True, capture_output=True,
                          text=True).stdout
    kernels, cur = {}, {}
    for line in text.splitlines():
        m = re.match(r"(\s*-?\s*)\.(\w+):\s+(\S+)$", line)
        if not m:
            continue
        indent, key, val = m.groups()
        if key == "agpr_count" and "-" in indent:
            cur = {}
        if key in ("vgpr_count", "agpr_count", "sgpr_count"):
            cur[key] = int(val)
        if key == "name" and indent == "    ":
            kernels[val] = cur
    return kernels


src = os.path.join(os.path.dirname(__file__), "info_kernels.cl")
for cpu in ("gfx950", "gfx942"):
    co = os.path.join(tmp, "info_%s.co" % cpu)
    compile_cl(src, cpu, co, extra=["-cl-kernel-arg-info"])
    r = subprocess.run([GFXEMU, "info", "--json", co], capture_output=True, text=True)
    check(r.returncode == 0, "%s: info --json exit %d: %s" % (cpu, r.returncode, r.stderr))
    doc = json.loads(r.stdout)
    check(doc["arch"] == cpu, "%s: arch %s" % (cpu, doc["arch"]))
    ks = {k["name"]: k for k in doc["kernels"]}
    check(sorted(ks) == ["agpr_k", "lds_k", "sgpr_k", "vgpr_k"], "%s: kernels %s" % (cpu, sorted(ks)))
    ref = readobj_counts(co)
    for name, k in ks.items():
        for field in ("vgpr_count", "agpr_count", "sgpr_count"):
            check(ref.get(name, {}).get(field) == k[field],
                  "%s %s: %s %s, llvm-readobj says %s" % (cpu, name, field, k[field],
                                                         ref.get(name, {}).get(field)))

    # Arguments of lds_k (names need -cl-kernel-arg-info): out, n, idx.
    args = [a for a in ks["lds_k"]["args"] if not a["hidden"]]
    want = [("out", "global_buffer", 8, 0, "float*"), ("n", "by_value", 4, 8, "int"),
            ("idx", "global_buffer", 8, 16, "int*")]
    got = [(a["name"], a["kind"], a["size"], a["offset"], a["type_name"]) for a in args]
    check(got == want, "%s lds_k args %s" % (cpu, got))
    check(ks["lds_k"]["lds_bytes"] == 40000, "%s lds_k LDS %s" % (cpu, ks["lds_k"]["lds_bytes"]))
    check(ks["lds_k"]["max_flat_workgroup_size"] == 128, "%s lds_k max wg size" % cpu)
    check(ks["vgpr_k"]["wavefront_size"] == 64, "%s wavefront size" % cpu)
    check(ks["vgpr_k"]["scratch_per_work_item"] == 0, "%s scratch" % cpu)

    def occ(name, target):
        return [o for o in ks[name]["occupancy"] if o["target"] == target][0]

    for target in ("gfx950", "gfx942"):
        # vgpr_k: 101 VGPRs -> 104 allocated -> 512/104 = 4 waves per SIMD = 16 per CU; a 256-item
        # workgroup is 4 waves -> 4 workgroups per CU.
        o = occ("vgpr_k", target)
        check((o["workgroups_per_cu"], o["waves_per_cu"], o["limited_by"], o["vgprs_allocated"]) ==
              (4, 16, "VGPRs", 104), "%s on %s: vgpr_k %s" % (cpu, target, o))
        # agpr_k: 24 + 41 = 65 unified -> 72 allocated -> 512/72 = 7 waves per SIMD = 28 per CU,
        # single-wave workgroups (no barrier limit) -> 28 workgroups.
        o = occ("agpr_k", target)
        check((o["workgroups_per_cu"], o["waves_per_cu"], o["limited_by"], o["vgprs_allocated"]) ==
              (28, 28, "VGPRs", 72), "%s on %s: agpr_k %s" % (cpu, target, o))
        check(o["workgroups_per_cu_by"]["barriers"] is None, "agpr_k: single-wave barrier limit")
        # sgpr_k: more than 100 SGPRs -> 7 waves per SIMD -> 28.
        o = occ("sgpr_k", target)
        check((o["workgroups_per_cu"], o["limited_by"]) == (28, "SGPRs"),
              "%s on %s: sgpr_k %s" % (cpu, target, o))
    # lds_k: 40000 bytes -> gfx950 40960 (32 x 1280): 163840 / 40960 = 4 workgroups (8 waves);
    # gfx942 40448 (79 x 512): 65536 / 40448 = 1 workgroup (2 waves).
    o = occ("lds_k", "gfx950")
    check((o["lds_allocated"], o["workgroups_per_cu"], o["waves_per_cu"], o["limited_by"]) ==
          (40960, 4, 8, "LDS"), "%s: lds_k on gfx950 %s" % (cpu, o))
    o = occ("lds_k", "gfx942")
    check((o["lds_allocated"], o["workgroups_per_cu"], o["waves_per_cu"], o["limited_by"]) ==
          (40448, 1, 2, "LDS"), "%s: lds_k on gfx942 %s" % (cpu, o))

    # --block: vgpr_k at 1024 work-items = 16 waves needs 16 x 104 VGPR slots on 4 SIMDs of 4
    # waves each: exactly one workgroup.  At 64 work-items: 16 single-wave workgroups.
    r = subprocess.run([GFXEMU, "info", "--json", "--block", "32,32", co], capture_output=True,
                       text=True)
    o = [o for o in json.loads(r.stdout)["kernels"][0]["occupancy"] if o["target"] == cpu][0]
    check((o["workgroup_size"], o["workgroups_per_cu"]) == (1024, 1), "--block 32,32: %s" % o)
    # --dynamic-lds: lds_k + 26000 = 66000 bytes: gfx950 66560 (52 x 1280), twice in 160 KiB;
    # gfx942 66048 (129 x 512) > 64 KiB: not at all.
    r = subprocess.run([GFXEMU, "info", "--json", "--dynamic-lds", "26000", co],
                       capture_output=True, text=True)
    lk = [k for k in json.loads(r.stdout)["kernels"] if k["name"] == "lds_k"][0]
    got = {o["target"]: o["workgroups_per_cu"] for o in lk["occupancy"]}
    check(got == {"gfx950": 2, "gfx942": 0}, "--dynamic-lds 26000: %s" % got)

    # The text form says the same things.
    r = subprocess.run([GFXEMU, "info", co], capture_output=True, text=True)
    check(r.returncode == 0 and "kernel lds_k" in r.stdout, "text form")
    check(re.search(r"0\s+0\s+8\s+global_buffer\s+float\*\s+out", r.stdout) is not None,
          "text form: argument row for out")
    check("65 VGPRs in the unified file (24 ArchVGPRs up to ACCUM_OFFSET, 41 AGPRs)" in r.stdout,
          "text form: unified VGPR file")
    check("limited by LDS" in r.stdout, "text form: limiter")

# Help and errors.
r = subprocess.run([GFXEMU, "help", "info"], capture_output=True, text=True)
check(r.returncode == 0 and r.stdout.startswith("usage: gfxemu info"), "gfxemu help info")
r2 = subprocess.run([GFXEMU, "info", "--help"], capture_output=True, text=True)
check(r2.stdout == r.stdout, "info --help == help info")
r = subprocess.run([GFXEMU, "info"], capture_output=True, text=True)
check(r.returncode == 2 and r.stderr ==
      "gfxemu: error: info: missing input file (see gfxemu info --help)\n", "no file: %r" % r.stderr)
r = subprocess.run([GFXEMU, "info", "--block", "2000", "x.co"], capture_output=True, text=True)
check(r.returncode == 2, "--block 2000 is a usage error")
r = subprocess.run([GFXEMU, "info", os.path.join(tmp, "missing.co")], capture_output=True,
                   text=True)
check(r.returncode == 1 and "No such file" in r.stderr, "missing file: %r" % r.stderr)

finish("test_info")
