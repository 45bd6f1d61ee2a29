"""VOP1 / VOP2 / VOPC tables for the RDNA targets (gfx1100, gfx1201): the 32-bit encodings, their
literal forms and their DPP16 (src0 = 0xFA) and DPP8 (src0 = 0xE9/0xEA) forms.

The word layouts are CDNA's (RDNA3/RDNA4 ISA manuals, "VOP1", "VOP2", "VOPC"), the opcode
numbers and operand rules are not, so these are separate tables.  For every opcode field value
we ask LLVM 22 to disassemble probe words (vdst=10, vsrc1=30, src0=v20) and read off:
  * the mnemonic and whether the e32 form prints `_e32`;
  * the printed operand list: which field each operand comes from, its width in dwords, and
    whether it is a true16 half (`v10.l`; the field's bit 7 then selects `.h` and bits 6:0 the
    register, RDNA3 ISA "16-bit VGPRs");  `vcc_lo` carry-outs/carry-ins, the K literal of
    fmamk/fmaak;
  * how a literal in src0 prints (ISA_T_*; the same rules as tools/isagen/vop.py);
  * an operand class for src0 (and for v_readfirstlane's scalar dst): for each of the 256
    scalar/constant encodings, whether LLVM rejects it ('0'), accepts it ('1'), or accepts it
    with an "Invalid register" ('2') or "Invalid immediate" ('3') note;
  * whether DPP16 and DPP8 forms exist, which DPP16 dword bits LLVM accepts (each bit flipped
    alone from a legal base: integer ops refuse neg/abs), and whether they print `_dpp`.

Output: src/isa/gen/vop_rdna.inc (rows read by src/isa/vop_rdna.c).
"""
import re

from . import vop as cdna

ARCHES = ("gfx1100", "gfx1201")
FMTS = ("VOP2", "VOP1", "VOPC")
NOPS = {"VOP2": 62, "VOP1": 256, "VOPC": 256}
T = dict(cdna.T, V2F16_SPLAT=11)
TYPE_ORDER = cdna.TYPE_ORDER + ["V2F16_SPLAT"]
LIT_PROBES = cdna.LIT_PROBES + [0x50005, 0xfff0fff0, 0x38003800, 0x40, 0x400040]


def lit_text(v, t):
    """cdna.lit_text plus gfx11's packed-f16 rule (v_pk_fmac_f16): a literal prints as lit()
    when it is an integer inline constant, or both halves hold the same inline f16 value or
    small non-negative integer."""
    if t != T["V2F16_SPLAT"]:
        return cdna.lit_text(v, t)
    lo, hi = v & 0xffff, v >> 16
    ok = -16 <= cdna.s32(v) <= 64 or (lo == hi and (lo <= 64 or lo in cdna.F16C))
    return "lit(0x%x)" % v if ok else "0x%x" % v
DST, S0, S1 = 10, 20, 30
PAD = 0x12345678

FLAG_DOC = [
    ("NOSUFFIX", "the e32 form prints no _e32 (v_swap_b32, v_fmamk_f32, v_dot2acc_f32_f16, ...)"),
    ("NOOPND", "no operands (v_nop, v_pipeflush); vdst must be 0"),
    ("VCC_DST", "carry-out: \"vdst, vcc_lo, ...\""),
    ("VCC_SRC", "carry-in / select: trailing \", vcc_lo\""),
    ("LIT_MK", "literal K between src0 and vsrc1 (fmamk)"),
    ("LIT_AK", "literal K after vsrc1 (fmaak)"),
    ("SDST", "the vdst field is a scalar destination (v_readfirstlane_b32)"),
    ("CMP", "VOPC compare writing vcc_lo (printed first)"),
    ("CMPX", "v_cmpx_*: writes EXEC, prints no destination"),
    ("TIED", "vdst is also read (fmac, dot2acc)"),
    ("SWAP", "v_swap_*: both operands read and written"),
    ("T16_DST", "vdst is a true16 half: field[7] selects .h, field[6:0] the VGPR"),
    ("T16_S0", "src0 is a true16 half when it is a VGPR (enc 256 + field[7:0] as above)"),
    ("T16_S1", "vsrc1 is a true16 half"),
    ("LO128_DST", "fake16 (gfx12): vdst must be v0..v127, else the word is illegal"),
    ("DPP16", "a DPP16 form exists (src0 = 0xFA; aux = the DPP dword bits LLVM accepts)"),
    ("DPP8", "a DPP8 form exists (src0 = 0xE9, or 0xEA with fi)"),
    ("DPP_SUFFIX", "the DPP forms print _dpp (VOPC prints the bare mnemonic)"),
    ("DPP8_INLINE", "LLVM prints a DPP8 selector field of 128..208 or 240..248 as the lanes of "
     "that inline constant's 32-bit value"),
]
FLAGS = [n for n, _ in FLAG_DOC]
F = {n: 1 << i for i, n in enumerate(FLAGS)}


def word(fmt, op, src0, vdst=DST, vsrc1=S1):
    return cdna.word(fmt, op, src0, vdst, vsrc1)


REG = re.compile(r"^([vs])(?:(\d+)|\[(\d+):(\d+)\])(\.[lh])?$")


def reg_info(o):
    m = REG.match(o)
    if not m:
        return None
    if m.group(2) is not None:
        return m.group(1), int(m.group(2)), 1, m.group(5) is not None
    lo, hi = int(m.group(3)), int(m.group(4))
    return m.group(1), lo, hi - lo + 1, m.group(5) is not None


class Row:
    pass


CLASSES = []   # (name, modes)
CLASS_IDS = {}


def class_id(name, modes):
    key = (name, modes)
    if key not in CLASS_IDS:
        CLASS_IDS[key] = len(CLASSES)
        CLASSES.append(key)
    return CLASS_IDS[key]


def field_class(res):
    """res[enc] = (size, text) for the 256 scalar/constant encodings of one operand -> class."""
    modes = []
    name = ""
    for size, text in res:
        if not size or text is None or text.startswith("<"):
            modes.append("0")
            continue
        m = re.search(r"operand has '([^']+)' register class", text)
        if m:
            modes.append("2")
            name = m.group(1)
        elif "Invalid immediate" in text:
            modes.append("3")
        else:
            modes.append("1")
    return class_id(name, "".join(modes))


def analyse(llvm, arch, fmt, op):
    size, text = llvm.dis(arch, (word(fmt, op, 256 + S0), PAD, PAD, PAD))
    r = Row()
    r.flags = 0
    r.vdst = DST
    if size == 0:  # v_nop and v_pipeflush exist only with vdst = 0
        size, text = llvm.dis(arch, (word(fmt, op, 256 + S0, vdst=0), PAD, PAD, PAD))
        if size == 0 or " " in text:
            return None
        r.flags |= F["NOOPND"]
        r.vdst = 0
    r.encop = op
    mn, ops = cdna.operands(text)
    r.name = cdna.base_name(mn)
    if not mn.endswith("_e32"):
        r.flags |= F["NOSUFFIX"]
    r.dst_n = 0
    r.src_n = [0, 0]
    r.srcs = []
    for i, o in enumerate(ops):
        if o == "vcc_lo":
            if fmt == "VOPC" and i == 0:
                r.flags |= F["CMP"]
            elif i == 1 and fmt == "VOP2":
                r.flags |= F["VCC_DST"]
            else:
                r.flags |= F["VCC_SRC"]
            continue
        if o.startswith("0x"):
            r.srcs.append("K")
            continue
        ri = reg_info(o)
        if ri is None:
            raise SystemExit("vop_rdna: cannot parse %r in %r" % (o, text))
        kind, num, n, t16 = ri
        if num == DST and i == 0 and fmt != "VOPC":
            r.dst_n = n
            if kind == "s":
                r.flags |= F["SDST"]
            if t16:
                r.flags |= F["T16_DST"]
        elif num == S0:
            r.srcs.append("S0")
            r.src_n[0] = n
            if t16:
                r.flags |= F["T16_S0"]
        elif num == S1:
            r.srcs.append("S1")
            r.src_n[1] = n
            if t16:
                r.flags |= F["T16_S1"]
        else:
            raise SystemExit("vop_rdna: unexpected register %r in %r" % (o, text))
    if "K" in r.srcs:
        r.flags |= F["LIT_MK"] if r.srcs.index("K") == 1 else F["LIT_AK"]
    if fmt == "VOPC" and not (r.flags & F["CMP"]) and not (r.flags & F["NOOPND"]):
        r.flags |= F["CMPX"]
    if r.name.startswith("v_swap_b"):
        r.flags |= F["SWAP"]
    if re.search(r"fmac|dot2acc", r.name):
        r.flags |= F["TIED"]
    # src0 operand class over the 256 scalar/constant encodings
    res = llvm.dis_many(arch, [(word(fmt, op, e, vdst=r.vdst), PAD, PAD, PAD)
                               for e in range(256)])
    r.cls0 = field_class(res)
    r.clsd = 0
    if r.flags & F["SDST"]:
        res = llvm.dis_many(arch, [(word(fmt, op, 256 + S0, vdst=e), PAD, PAD, PAD)
                                   for e in range(256)])
        r.clsd = field_class(res)
    r.src_t = classify_src0(llvm, arch, fmt, op, r)
    # fake16 ops (gfx1201's 16-bit ops) reach only v0..v127: a higher vdst is illegal, higher
    # sources print with an invalid-register note naming the class
    r.vrc0 = r.vrc1 = 0
    if not (r.flags & (F["NOOPND"] | F["SDST"] | F["CMP"] | F["CMPX"])) and fmt != "VOPC":
        if not llvm.dis(arch, (word(fmt, op, 256 + S0, vdst=DST + 128), PAD, PAD, PAD))[0]:
            r.flags |= F["LO128_DST"]
    if not (r.flags & F["NOOPND"]):
        t = llvm.dis(arch, (word(fmt, op, 256 + S0 + 128, vdst=r.vdst), PAD, PAD, PAD))[1] or ""
        r.vrc0 = rc_index(t)
        if fmt != "VOP1":
            t = llvm.dis(arch, (word(fmt, op, 256 + S0, vdst=r.vdst, vsrc1=S1 + 128), PAD, PAD,
                                PAD))[1] or ""
            r.vrc1 = rc_index(t)
    probe_dpp(llvm, arch, fmt, op, r)
    return r


DPP_BASE = 0xff00e400 | S0  # quad_perm:[0,1,2,3] row_mask:0xf bank_mask:0xf, src0 v20
DPP8_BASE = 0x00fac600 | S0


def probe_dpp(llvm, arch, fmt, op, r):
    """Which DPP16 dword bits LLVM accepts (one bit flipped at a time from a legal base), whether
    DPP8 exists, the suffix, and the note on a fake16 src0 above v127."""
    r.dpp_ok = r.dpp_shown = 0
    r.vrcd = 0
    if r.flags & F["NOOPND"]:
        return
    w0 = word(fmt, op, 0xFA, vdst=r.vdst)
    res = llvm.dis_many(arch, [(w0, DPP_BASE, PAD, PAD)] +
                        [(w0, DPP_BASE ^ (1 << b), PAD, PAD) for b in range(32)])
    if res[0][0] == 8:
        r.flags |= F["DPP16"]
        for b in range(32):
            if res[b + 1][0] == 8:
                r.dpp_ok |= 1 << b
                if res[b + 1][1] != res[0][1]:
                    r.dpp_shown |= 1 << b  # neg/abs of integer sources: accepted, not printed
        mn = res[0][1].split()[0]
        if mn.endswith("_dpp"):
            r.flags |= F["DPP_SUFFIX"]
        r.vrcd = rc_index(llvm.dis(arch, (w0, DPP_BASE | 0x80, PAD, PAD))[1] or "")
    d8 = llvm.dis(arch, (word(fmt, op, 0xE9, vdst=r.vdst), DPP8_BASE, PAD, PAD))
    if d8[0] == 8:
        r.flags |= F["DPP8"]
        if d8[1].split()[0].endswith("_dpp"):
            r.flags |= F["DPP_SUFFIX"]
        # selectors 0xc5 (197, the inline constant -5): raw they are lanes [5,0,3,0,...]
        q = llvm.dis(arch, (word(fmt, op, 0xE9, vdst=r.vdst), 0xc500 | S0, PAD, PAD))
        if q[0] == 8 and "dpp8:[3,7,7,7,7,7,7,7]" in q[1]:
            r.flags |= F["DPP8_INLINE"]


RC_NAMES = [""]


def rc_index(text):
    """Index of the register class LLVM names in an invalid-register note (0: no note)."""
    m = re.search(r"operand has '([^']+)' register class", text)
    if not m:
        return 0
    if m.group(1) not in RC_NAMES:
        RC_NAMES.append(m.group(1))
    return RC_NAMES.index(m.group(1))


def classify_src0(llvm, arch, fmt, op, r):
    if r.flags & F["NOOPND"] or "S0" not in r.srcs:
        return T["B32"]
    items = [(word(fmt, op, 255, vdst=r.vdst), v, PAD, PAD) for v in LIT_PROBES]
    res = llvm.dis_many(arch, items)
    pos = r.srcs.index("S0") + (1 if (r.dst_n or r.flags & F["CMP"]) else 0) + \
        (1 if r.flags & F["VCC_DST"] else 0)
    texts = []
    for size, text in res:
        if size == 0:
            return T["B32"]
        if "/*" in text:  # "Invalid immediate": printed as a plain 32-bit value
            return T["B32"]
        texts.append(cdna.operands(text)[1][pos])
    for tn in TYPE_ORDER:
        t = T[tn]
        if r.src_n[0] == 2 and tn not in ("F64", "B64"):
            continue
        if all(lit_text(v, t) == x for v, x in zip(LIT_PROBES, texts)):
            return t
    raise SystemExit("vop_rdna: %s %s op %d: no ISA_T_* type prints literals as LLVM does: %r"
                     % (arch, fmt, op, texts))


def c_row(ctx, r):
    flags = " | ".join("VR_" + n for n in FLAGS if r.flags & F[n]) or "0"
    nsrc = len([s for s in r.srcs if s != "K"])
    return ("    [%d] = {{%s, %d, %d, %d, {%d, 0}, {%d, %d}, {%d}, %s, 0x%08xu}, %d, %d, %d, %d, %d, "
            "0x%08xu},\n"
            % (r.encop, ctx.op(r.name), r.encop, 1 if r.dst_n else 0, nsrc, r.dst_n,
               r.src_n[0], r.src_n[1], r.src_t, flags, r.dpp_ok, r.cls0, r.clsd, r.vrc0,
               r.vrc1, r.vrcd, r.dpp_shown))


def prefetch(llvm, arch, fmt):
    """Ask LLVM about the words analyse() will probe, in a few large batches (each dis_many()
    call forks a child; results are cached), so a run takes seconds rather than minutes."""
    items = []
    for op in range(NOPS[fmt]):
        for vd in (DST, 0):
            items.append((word(fmt, op, 256 + S0, vdst=vd), PAD, PAD, PAD))
            items += [(word(fmt, op, e, vdst=vd), PAD, PAD, PAD) for e in range(256)]
            items += [(word(fmt, op, 255, vdst=vd), v, PAD, PAD) for v in LIT_PROBES]
            w0 = word(fmt, op, 0xFA, vdst=vd)
            items += [(w0, DPP_BASE, PAD, PAD), (w0, DPP_BASE | 0x80, PAD, PAD)]
            items += [(w0, DPP_BASE ^ (1 << b), PAD, PAD) for b in range(32)]
            items.append((word(fmt, op, 0xE9, vdst=vd), DPP8_BASE, PAD, PAD))
            items.append((word(fmt, op, 256 + S0 + 128, vdst=vd), PAD, PAD, PAD))
            items.append((word(fmt, op, 256 + S0, vdst=vd, vsrc1=S1 + 128), PAD, PAD, PAD))
        items.append((word(fmt, op, 256 + S0, vdst=DST + 128), PAD, PAD, PAD))
    llvm.dis_many(arch, items)


def generate(ctx):
    out = ["/* RDNA VOP1/VOP2/VOPC opcode tables (e32, literal and DPP forms), one per format and target,\n"
           " * indexed by opcode.  Row: {isa_opinfo: op, encop, ndst, nsrc, dst_n, src_n, src_t[0],\n"
           " * flags = VR_*, aux = DPP16 dword bits accepted}, src0 class, scalar-dst class\n"
           " * (vr_classes), notes on a v128+ src0, vsrc1 and DPP src0 (vr_rc_names), DPP16 bits\n"
           " * printed. */\n", "enum {\n"]
    for i, (n, doc) in enumerate(FLAG_DOC):
        out.append("    VR_%s = 1u << %d, /* %s */\n" % (n, i, doc))
    out.append("};\n")
    counts = []
    body = []
    for fmt in FMTS:
        for arch in ARCHES:
            prefetch(ctx.llvm, arch, fmt)
            rows = [r for r in (analyse(ctx.llvm, arch, fmt, op) for op in range(NOPS[fmt])) if r]
            counts.append((fmt, arch, len(rows)))
            body.append("static const struct vr_row vr_%s_%s[%d] = {\n"
                        % (fmt.lower(), arch, NOPS[fmt]))
            body.extend(c_row(ctx, r) for r in rows)
            body.append("};\n")
    out.append("/* Operand classes: per scalar/constant encoding 0..255, '0' illegal, '1' legal,\n"
               " * '2' legal with LLVM's invalid-register note (class name), '3' invalid immediate. */\n")
    out.append("static const struct vr_class vr_classes[%d] = {\n" % len(CLASSES))
    for name, modes in CLASSES:
        out.append("    {\"%s\",\n     \"%s\"\n     \"%s\"},\n" % (name, modes[:128], modes[128:]))
    out.append("};\n")
    out.extend(body)
    out.append("/* register classes of the notes on VGPRs v128+ of fake16 operands */\n")
    out.append("static const char *const vr_rc_names[] = {%s};\n"
               % ", ".join('"%s"' % n for n in RC_NAMES))
    out.append("#define VR_DPP_BASE 0x%08xu /* the DPP16 probes' base dword (src0 field cleared) */\n"
               % (DPP_BASE & ~0xff))
    out.append("/* legal opcodes: %s */\n" % ", ".join("%s %s %d" % c for c in counts))
    for c in counts:
        print("gen_isa: vop_rdna %s %s: %d ops" % c)
    return {"vop_rdna.inc": "".join(out)}
