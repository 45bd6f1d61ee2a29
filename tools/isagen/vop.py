"""VOP1 / VOP2 / VOPC tables (32-bit encodings and their SDWA / DPP / literal forms).

For every opcode field value and both targets we ask LLVM 22 to disassemble probe words and
derive from its text:
  * the base mnemonic and whether the e32 form prints the `_e32` suffix;
  * operand roles and widths: the probes use distinct register numbers (vdst=10, src0=v20,
    vsrc1=30), so `v[20:21]` says "src0, 2 dwords", `vcc` an implicit carry, `s10` a scalar dst;
  * how a constant in src0 prints (ISA_T_*): a set of literal values is printed by LLVM and
    matched against the printing rules of src/isa/operand.c (mirrored in lit_text() below);
  * whether SDWA (src0=0xF9) and DPP (src0=0xFA) forms exist, and which bits of their second
    dword LLVM accepts (flip one bit at a time from a legal base word);
  * DPP on 64-bit ("DP ALU") ops, where LLVM comments every control but row_newbcast.

Output: src/isa/gen/vop.inc: the VF_* row flags; per (format, target) an isa_opinfo table indexed
by opcode (flags, widths, ISA_T_* source types, aux = SDWA bits LLVM accepts) and a parallel
vop_extra table (DPP bits accepted, SDWA/DPP bits LLVM prints, register-class names for its
invalid-register notes); the probes' base SDWA/DPP dwords.  Runs in well under a minute.
"""
import re

ARCHES = ("gfx942", "gfx950", "gfx90a")  # new targets go last: older tables keep their bytes
FMTS = ("VOP2", "VOP1", "VOPC")
NOPS = {"VOP2": 62, "VOP1": 256, "VOPC": 256}

# ISA_T_* values (src/isa/isa.h)
T = dict(B32=0, F16=1, BF16=2, F32=3, F64=4, B64=5, B16=6, V2F16=7, V2BF16=8, V2B16=9, V2F32=10)

# Row flags (emitted as the VF_* enum at the top of vop.inc): name, meaning.
FLAG_DOC = [
    ("E32", "the opcode exists (its 32-bit form is legal)"),
    ("SDWA", "an SDWA form exists (src0 = 0xF9)"),
    ("DPP", "a DPP form exists (src0 = 0xFA)"),
    ("NOSUFFIX", "the e32 form prints no _e32 (v_nop, v_swap_b32, v_fmamk_f32, ...)"),
    ("VCC_DST", "carry-out: \"vdst, vcc, ...\""),
    ("VCC_SRC", "carry-in / select: trailing \", vcc\""),
    ("LIT_MK", "literal K between src0 and vsrc1 (madmk/fmamk)"),
    ("LIT_AK", "literal K after vsrc1 (madak/fmaak)"),
    ("SDST", "the vdst field is a scalar destination (v_readfirstlane_b32)"),
    ("AGPR", "vdst and src0 are AGPRs (v_accvgpr_mov_b32)"),
    ("NOOPND", "no operands (v_nop, v_clrexcp); vdst must be 0"),
    ("TIED", "vdst is also read (mac, fmac, dot*c)"),
    ("DPALU", "64-bit DP ALU op: LLVM's DPP supports row_newbcast only"),
    ("SWAP", "v_swap_b32: both operands read and written"),
    ("CMPX", "v_cmpx_*: also writes EXEC"),
    ("SDWA_SEXT", "SDWA accepts sext (integer sources)"),
    ("SDWA_NEGABS", "SDWA accepts neg/abs on src0 (float sources)"),
    ("SDWA_CLAMP", "SDWA accepts clamp"),
    ("SDWA_OMOD", "SDWA accepts an output modifier"),
    ("DPP_NEGABS", "DPP accepts neg/abs bits"),
    ("VONLY", "src0 must be a VGPR (LLVM prints notes for anything else)"),
]
FLAGS = [n for n, _ in FLAG_DOC]
F = {n: 1 << i for i, n in enumerate(FLAGS)}

DST, S0, S1 = 10, 20, 30
PAD = 0x12345678


def word(fmt, op, src0, vdst=DST, vsrc1=S1):
    if fmt == "VOP2":
        return (op << 25) | (vdst << 17) | (vsrc1 << 9) | src0
    if fmt == "VOP1":
        return (0x3f << 25) | (vdst << 17) | (op << 9) | src0
    return (0x3e << 25) | (op << 17) | (vsrc1 << 9) | src0


# ---- the constant-printing rules of operand.c, used to classify each op's src0 type ---------
F32C = {0x3f000000: "0.5", 0xbf000000: "-0.5", 0x3f800000: "1.0", 0xbf800000: "-1.0",
        0x40000000: "2.0", 0xc0000000: "-2.0", 0x40800000: "4.0", 0xc0800000: "-4.0",
        0x3e22f983: "0.15915494"}
F16C = {0x3800, 0xb800, 0x3c00, 0xbc00, 0x4000, 0xc000, 0x4400, 0xc400, 0x3118}
BF16C = {0x3f00, 0xbf00, 0x3f80, 0xbf80, 0x4000, 0xc000, 0x4080, 0xc080, 0x3e22}
F64C = {0x3fe00000: "0.5", 0xbfe00000: "-0.5", 0x3ff00000: "1.0", 0xbff00000: "-1.0",
        0x40000000: "2.0", 0xc0000000: "-2.0", 0x40100000: "4.0", 0xc0100000: "-4.0", 0: "0"}


def s32(v):
    return v - (1 << 32) if v & 0x80000000 else v


def s16(v):
    v &= 0xffff
    return v - 0x10000 if v & 0x8000 else v


def lit_text(v, t):
    i32 = -16 <= s32(v) <= 64
    if t in (T["B32"], T["F32"]):
        return "lit(0x%x)" % v if (i32 or v in F32C) else "0x%x" % v
    if t == T["F64"]:
        return F64C[v] if v in F64C else "0x%x" % v
    if t == T["B64"]:
        return "lit(0x%x)" % v if v <= 64 else "0x%x" % v
    if t == T["F16"]:
        lo = v & 0xffff
        return "lit(0x%x)" % v if (-16 <= s16(lo) <= 64 or lo in F16C) else "0x%x" % lo
    if t == T["BF16"]:
        lo = v & 0xffff
        return "lit(0x%x)" % v if (-16 <= s16(lo) <= 64 or lo in BF16C) else "0x%x" % v
    if t == T["B16"]:
        return "lit(0x%x)" % v if (i32 or v in F32C) else "0x%x" % (v & 0xffff)
    if t in (T["V2F16"], T["V2BF16"]):
        c = F16C if t == T["V2F16"] else BF16C
        ok = i32 or (v <= 0xffff and v in c)
        return "lit(0x%x)" % v if ok else "0x%x" % v
    return None


LIT_PROBES = [0, 0x41, 0xfffffff0, 0x3f000000, 0x3e22f983, 0x3800, 0x3f00, 0x3fe00000,
              0x12345678, 0xffff3800, 0x3c003c00, 0x10000]
TYPE_ORDER = ["B32", "F16", "BF16", "B16", "F64", "B64", "V2F16", "V2BF16"]

REG = re.compile(r"^(-?\|?)(sext\()?([vsa])(\d+|\[(\d+):(\d+)\])")


def strip_comments(t):
    return re.sub(r"\s*/\*.*?\*/", "", t).split(" ; ")[0]


def operands(text):
    t = strip_comments(text)
    parts = t.split(" ", 1)
    if len(parts) == 1:
        return parts[0], []
    return parts[0], [o.strip() for o in parts[1].split(", ")]


def reg_info(o):
    """'v[20:21]' -> ('v', 20, 2); 's10' -> ('s', 10, 1); None for anything else."""
    m = re.match(r"^([vsa])(?:(\d+)|\[(\d+):(\d+)\])$", o)
    if not m:
        return None
    if m.group(2) is not None:
        return (m.group(1), int(m.group(2)), 1)
    lo, hi = int(m.group(3)), int(m.group(4))
    return (m.group(1), lo, hi - lo + 1)


def base_name(mn):
    for suf in ("_e32", "_sdwa", "_dpp", "_e64"):
        if mn.endswith(suf):
            return mn[: -len(suf)]
    return mn


class Row:
    pass


def analyse(llvm, arch, fmt, op):
    w = word(fmt, op, 256 + S0)
    size, text = llvm.dis(arch, (w, PAD, PAD, PAD))
    if size == 0:  # v_nop and v_clrexcp exist only with vdst = 0
        size, text = llvm.dis(arch, (word(fmt, op, 256 + S0, vdst=0), PAD, PAD, PAD))
        if size == 0 or " " in text:
            return None
    r = Row()
    r.encop = op
    r.vdst = DST if " " in text else 0
    r.flags = 0
    mn, ops = operands(text)
    r.name = base_name(mn)
    if not mn.endswith("_e32"):
        r.flags |= F["NOSUFFIX"]
    r.flags |= F["E32"]
    r.size = size
    r.dst_n = [0, 0]
    r.src_n = [0, 0, 0, 0, 0, 0]
    r.src_t = [0, 0, 0, 0, 0, 0]
    r.ndst = r.nsrc = 0
    r.srcs = []  # printed source roles in order: 'S0', 'S1', 'K', 'VCC'
    if not ops:
        r.flags |= F["NOOPND"]
    for i, o in enumerate(ops):
        ri = reg_info(o)
        if o == "vcc":
            if fmt == "VOPC" and i == 0:
                continue
            if i == 1:
                r.flags |= F["VCC_DST"]
            else:
                r.flags |= F["VCC_SRC"]
                r.srcs.append("VCC")
            continue
        if o.startswith("0x"):
            r.srcs.append("K")
            continue
        if ri is None:
            raise SystemExit("vop: cannot parse %r in %r" % (o, text))
        kind, num, n = ri
        if num == DST and i == 0:
            r.dst_n[0] = n
            if kind == "s":
                r.flags |= F["SDST"]
            if kind == "a":
                r.flags |= F["AGPR"]
        elif num == S0:
            r.srcs.append("S0")
            r.src_n[0] = n
        elif num == S1:
            r.srcs.append("S1")
            r.src_n[1] = n
        else:
            raise SystemExit("vop: unexpected register %r in %r" % (o, text))
    if "K" in r.srcs:
        r.flags |= F["LIT_MK"] if r.srcs.index("K") == 1 else F["LIT_AK"]
    if fmt == "VOPC" and r.name.startswith("v_cmpx"):
        r.flags |= F["CMPX"]
    if r.name == "v_swap_b32":
        r.flags |= F["SWAP"]
    if re.search(r"mac|dot\d+c_", r.name):
        r.flags |= F["TIED"]
    probe_classes(llvm, arch, fmt, op, r)
    # Source types, from how LLVM prints literals in src0 (when src0 takes a literal).
    r.src_t[0] = T["B32"] if r.flags & F["VONLY"] else classify_src0(llvm, arch, fmt, op, r)
    r.src_t[1] = r.src_t[0]
    if r.src_n[1] == 2:
        r.src_t[1] = T["B64"] if r.src_t[0] == T["B64"] else T["F64"]
    probe_sdwa(llvm, arch, fmt, op, r)
    probe_dpp(llvm, arch, fmt, op, r)
    return r


RC_NAMES = [""]
RC = re.compile(r"operand has '([^']+)' register class")


def rc_index(text, nth):
    """Register-class name in the comment after the nth operand (LLVM's invalid-register note)."""
    body = text.split(" ", 1)[1] if " " in text else ""
    parts = re.findall(r"(?:[^,/]|/\*.*?\*/|/)+", body)
    if nth >= len(parts):
        return 0
    m = RC.search(parts[nth])
    if not m:
        return 0
    if m.group(1) not in RC_NAMES:
        RC_NAMES.append(m.group(1))
    return RC_NAMES.index(m.group(1))


def src_pos(fmt, r, role):
    return r.srcs.index(role) + (1 if fmt == "VOPC" or r.dst_n[0] else 0) + \
        (1 if r.flags & F["VCC_DST"] else 0)


def probe_classes(llvm, arch, fmt, op, r):
    """Class names LLVM quotes for misaligned 64-bit registers and for SGPRs in VGPR-only
    sources; packed into vop_extra.rc as dst | src0 << 4 | src1 << 8."""
    r.rc = [0, 0, 0]
    if r.flags & F["NOOPND"]:
        return
    if r.flags & F["SDST"]:  # readfirstlane's sdst field decodes like a source; m0 is refused
        r.rc[0] = rc_index(llvm.dis(arch, (word(fmt, op, 256 + S0, vdst=124), PAD))[1], 0)
    if r.dst_n[0] == 2:
        r.rc[0] = rc_index(llvm.dis(arch, (word(fmt, op, 256 + S0, vdst=DST + 1), PAD))[1], 0)
    if "S0" in r.srcs:
        pos = src_pos(fmt, r, "S0")
        if r.src_n[0] == 2:
            r.rc[1] = rc_index(llvm.dis(arch, (word(fmt, op, 256 + S0 + 1), PAD))[1], pos)
        size, text = llvm.dis(arch, (word(fmt, op, 5), PAD))
        if size and "Invalid register" in text:
            r.flags |= F["VONLY"]
            r.rc[1] = rc_index(text, pos)
    if "S1" in r.srcs and r.src_n[1] == 2:
        pos = src_pos(fmt, r, "S1")
        r.rc[2] = rc_index(llvm.dis(arch, (word(fmt, op, 256 + S0, vsrc1=S1 + 1), PAD))[1], pos)


def classify_src0(llvm, arch, fmt, op, r):
    if r.flags & F["NOOPND"] or "S0" not in r.srcs:
        return T["B32"]
    items = [(word(fmt, op, 255), v, PAD, PAD) for v in LIT_PROBES]
    res = llvm.dis_many(arch, items)
    texts = []
    for (size, text), v in zip(res, LIT_PROBES):
        if size == 0:
            return T["B32"]  # src0 takes no literal (e.g. v_swap_b32): type only matters for inline
        mn, ops = operands(text)
        texts.append(ops[src_pos(fmt, r, "S0")])
    for tn in TYPE_ORDER:
        t = T[tn]
        if r.src_n[0] == 2 and tn not in ("F64", "B64"):
            continue
        if all(lit_text(v, t) == x for v, x in zip(LIT_PROBES, texts)):
            return t
    raise SystemExit("vop: %s %s op %d: no ISA_T_* type prints literals as LLVM does: %r\n"
                     "(teach lit_text() here and isa_put_opnd() the new rule)"
                     % (arch, fmt, op, texts))


def ext_probe(llvm, arch, fmt, op, sel, base, vdst=DST):
    w0 = word(fmt, op, sel, vdst=vdst)
    items = [(w0, base, PAD, PAD)] + [(w0, base ^ (1 << b), PAD, PAD) for b in range(32)]
    return llvm.dis_many(arch, items)


SDWA_BASE = {"VOP2": 0x06060600 | S0, "VOP1": 0x00060600 | S0, "VOPC": 0x06060000 | S0}


def probe_sdwa(llvm, arch, fmt, op, r):
    res = ext_probe(llvm, arch, fmt, op, 0xF9, SDWA_BASE[fmt], r.vdst)
    r.sdwa_ok = r.sdwa_shown = 0
    if res[0][0] != 8:  # v_nop/v_clrexcp ignore src0 = 0xF9: still a 4-byte e32 word
        return
    r.flags |= F["SDWA"]
    mask = 0
    for b in range(32):
        size, text = res[b + 1]
        if size == 8 or text == "<llvm-crash>":
            mask |= 1 << b
        if size == 8 and text != res[0][1]:
            r.sdwa_shown |= 1 << b
    r.sdwa_ok = mask
    if mask & (1 << 19):
        r.flags |= F["SDWA_SEXT"]
    if mask & (1 << 20):
        r.flags |= F["SDWA_NEGABS"]
    if fmt != "VOPC":
        if mask & (1 << 13):
            r.flags |= F["SDWA_CLAMP"]
        if mask & (1 << 14):
            r.flags |= F["SDWA_OMOD"]


DPP_BASE = 0xff00e400 | S0


def probe_dpp(llvm, arch, fmt, op, r):
    res = ext_probe(llvm, arch, fmt, op, 0xFA, DPP_BASE, r.vdst)
    r.dpp_ok = r.dpp_shown = 0
    if res[0][0] != 8:  # v_clrexcp ignores src0 = 0xFA (v_nop does not)
        return
    r.flags |= F["DPP"]
    if "DP ALU dpp" in res[0][1]:
        r.flags |= F["DPALU"]
    mask = 0
    for b in range(32):
        if res[b + 1][0] == 8:  # (v_nop falls back to its 4-byte form)
            mask |= 1 << b
            if res[b + 1][1] != res[0][1]:
                r.dpp_shown |= 1 << b
    r.dpp_ok = mask
    if mask & (1 << 20):
        r.flags |= F["DPP_NEGABS"]


def prefetch(llvm, arch, fmt):
    """Ask LLVM about every word analyse() may probe in one batch (each dis() call forks a
    child; one batch per format keeps the whole generator to seconds).  Results are cached."""
    items = []
    for op in range(NOPS[fmt]):
        for vd in (DST, 0):
            items.append((word(fmt, op, 256 + S0, vdst=vd), PAD, PAD, PAD))
            for sel, base in ((0xF9, SDWA_BASE[fmt]), (0xFA, DPP_BASE)):
                w0 = word(fmt, op, sel, vdst=vd)
                items += [(w0, base, PAD, PAD)] + [(w0, base ^ (1 << b), PAD, PAD)
                                                   for b in range(32)]
        for w0 in (word(fmt, op, 256 + S0, vdst=DST + 1), word(fmt, op, 256 + S0 + 1),
                   word(fmt, op, 5), word(fmt, op, 256 + S0, vsrc1=S1 + 1),
                   word(fmt, op, 256 + S0, vdst=124)):
            items.append((w0, PAD))
        items += [(word(fmt, op, 255), v, PAD, PAD) for v in LIT_PROBES]
    llvm.dis_many(arch, items)


def c_row(ctx, r):
    flags = " | ".join("VF_" + n for n in FLAGS if r.flags & F[n]) or "0"
    return ("    [%d] = {%s, %d, %d, %d, {%d, %d}, {%s}, {%s}, %s, 0x%08xu},\n"
            % (r.encop, ctx.op(r.name), r.encop, r.ndst, r.nsrc, r.dst_n[0], r.dst_n[1],
               ", ".join(str(x) for x in r.src_n), ", ".join(str(x) for x in r.src_t), flags,
               r.sdwa_ok))


def c_extra(r):
    return "    [%d] = {0x%08xu, 0x%08xu, 0x%08xu, 0x%03x},\n" % (
        r.encop, r.dpp_ok, r.dpp_shown, r.sdwa_shown, r.rc[0] | r.rc[1] << 4 | r.rc[2] << 8)


def generate(ctx):
    out = []
    out.append("/* VOP1/VOP2/VOPC opcode tables, one per format and target, indexed by opcode.\n"
               " * flags: VF_* (below); aux: SDWA second-dword bits LLVM accepts.\n"
               " * vop_x_*: DPP second-dword bits LLVM accepts; DPP and SDWA bits whose value LLVM\n"
               " * prints (e.g. neg/abs of a source that has float input modifiers); register-class\n"
               " * name indices (dst | src0 << 4 | src1 << 8) for LLVM's invalid-register notes. */\n")
    out.append("enum {\n")
    for i, (n, doc) in enumerate(FLAG_DOC):
        out.append("    VF_%s = 1u << %d, /* %s */\n" % (n, i, doc))
    out.append("};\n")
    counts = []
    for fmt in FMTS:
        for arch in ARCHES:
            rows = []
            prefetch(ctx.llvm, arch, fmt)
            for op in range(NOPS[fmt]):
                r = analyse(ctx.llvm, arch, fmt, op)
                if r is None:
                    continue
                r.ndst = 1 if r.dst_n[0] else 0
                r.nsrc = len(r.srcs)
                rows.append(r)
            counts.append((fmt, arch, len(rows)))
            out.append("static const isa_opinfo vop_%s_%s[%d] = {\n" % (fmt.lower(), arch,
                                                                       NOPS[fmt]))
            out.extend(c_row(ctx, r) for r in rows)
            out.append("};\n")
            out.append("static const vop_extra vop_x_%s_%s[%d] = {\n" % (fmt.lower(), arch,
                                                                      NOPS[fmt]))
            out.extend(c_extra(r) for r in rows)
            out.append("};\n")
    out.append("/* legal opcodes: %s */\n" % ", ".join("%s %s %d" % c for c in counts))
    out.append("/* the probes' base second dwords: a bit LLVM does not accept must keep its value\n"
               " * here (e.g. v_cvt_f32_fp8's dst_sel is fixed to DWORD) */\n")
    for fmt in FMTS:
        out.append("#define VOP_SDWA_BASE_%s 0x%08xu\n" % (fmt, SDWA_BASE[fmt] & ~0xff))
    out.append("#define VOP_DPP_BASE 0x%08xu\n" % (DPP_BASE & ~0xff))
    out.append("/* register classes LLVM names in its invalid-register notes (vop_extra.rc nibbles) */\n")
    out.append("static const char *const vop_rc_names[] = {%s};\n" %
               ", ".join('"%s"' % n for n in RC_NAMES))
    return {"vop.inc": "".join(out)}
