"""VOPD (dual-issue VALU) tables for the RDNA targets (gfx1100, gfx1201).

Layout (RDNA3/RDNA4 ISA manuals, "VOPD"): w0: [31:26] 110010, opx[25:22], opy[21:17],
vsrc1x[16:9], src0x[8:0]; w1: vdstx[31:24], vdsty[23:17] (the register is vdsty << 1 | the
complement of vdstx's bit 0: the two destinations sit in different banks), vsrc1y[16:9],
src0y[8:0]; a src0 of 255 or a fmaak/fmamk half adds one literal dword, shared by both halves.

Per target and half (X: 16 opcodes, Y: 32) LLVM 22 disassembles probe words with the other half
fixed to v_dual_fmac_f32 (opcode 0 in both), and we read off the mnemonic, whether vsrc1 is an
operand, where the fmamk/fmaak K sits, src0's class over the 256 scalar/constant encodings
(illegal / ok / note) and how a literal src0 prints (ISA_T_*, tools/isagen/vop_rdna.py's rules).

Output: src/isa/gen/vopd_rdna.inc (read by src/isa/vopd_rdna.c).
"""
import re

from . import vop_rdna

ARCHES = ("gfx1100", "gfx1201")
PAD = 0x12345678
X0, X1, Y0, Y1, DX, DY = 20, 30, 22, 31, 40, 21


def word(opx, opy, s0x=256 + X0, v1x=X1, s0y=256 + Y0, v1y=Y1, lit=0x3f000000):
    return (0xc8000000 | (opx << 22) | (opy << 17) | (v1x << 9) | s0x,
            (DX << 24) | (DY << 17) | (v1y << 9) | s0y, lit, PAD)


def half(text, side):
    """The operands of one half of a VOPD text ('a :: b')."""
    t = re.sub(r"\s*/\*.*?\*/", "", text)
    part = t.split(" :: ")[side]
    mn, _, rest = part.partition(" ")
    return mn, [o.strip() for o in rest.split(", ")] if rest else []


def probe(llvm, arch, side, op, **kw):
    if side == 0:
        return llvm.dis(arch, word(op, 0, **kw))
    return llvm.dis(arch, word(0, op, **kw))


CLASSES = []


def class_of(modes):
    if modes not in CLASSES:
        CLASSES.append(modes)
    return CLASSES.index(modes)


def analyse(llvm, arch, side, op):
    v1 = "v1x" if side == 0 else "v1y"
    s0 = "s0x" if side == 0 else "s0y"
    sz, t = probe(llvm, arch, side, op)
    v1zero = 0
    if not sz:
        sz, t = probe(llvm, arch, side, op, **{v1: 0})
        if not sz:
            return None
        v1zero = 1
    mn, ops = half(t, side)
    k = 0
    nsrc = len(ops) - 1
    if any(o.startswith("0x") for o in ops):
        k = 1 if ops[2].startswith("0x") else 2  # fmamk: K before vsrc1; fmaak: after
        nsrc -= 1
    # src0 over the scalar/constant encodings
    items = [word(op, 0, s0x=e, **({"v1x": 0} if v1zero else {})) if side == 0 else
             word(0, op, s0y=e, **({"v1y": 0} if v1zero else {})) for e in range(256)]
    modes = []
    for sz2, t2 in llvm.dis_many(arch, items):
        if not sz2 or t2 is None:
            modes.append("0")
            continue
        o = half(t2, side)
        modes.append("2" if "register class" in t2 else "3" if "Invalid immediate" in t2 else "1")
    cls = class_of("".join(modes))
    # literal type of src0
    items = [word(op, 0, s0x=255, lit=v, **({"v1x": 0} if v1zero else {})) if side == 0 else
             word(0, op, s0y=255, lit=v, **({"v1y": 0} if v1zero else {}))
             for v in vop_rdna.LIT_PROBES]
    texts = []
    for sz2, t2 in llvm.dis_many(arch, items):
        if not sz2 or "/*" in t2:
            texts = None
            break
        texts.append(half(t2, side)[1][1])
    typ = "B32"
    if texts and k == 0:
        for tn in vop_rdna.TYPE_ORDER:
            if all(vop_rdna.lit_text(v, vop_rdna.T[tn]) == x
                   for v, x in zip(vop_rdna.LIT_PROBES, texts)):
                typ = tn
                break
    return (mn, nsrc, k, cls, typ, v1zero)


def generate(ctx):
    body = []
    for arch in ARCHES:
        for side, n in ((0, 16), (1, 32)):
            name = "vd_%s_%s" % ("x" if side == 0 else "y", arch)
            body.append("static const struct vd_row %s[%d] = {\n" % (name, n))
            for op in range(n):
                r = analyse(ctx.llvm, arch, side, op)
                if r is None:
                    continue
                mn, nsrc, k, cls, typ, v1zero = r
                body.append("    [%d] = {%s, %d, %d, %d, ISA_T_%s, %d},\n"
                            % (op, ctx.op(mn), nsrc, k, cls, typ, v1zero))
            body.append("};\n")
    out = ["/* RDNA VOPD halves per target, indexed by opcode: {op, sources (1: no vsrc1), K literal\n"
           " * (1 fmamk: before vsrc1, 2 fmaak: after), src0 class (vd_classes), src0 literal type,\n"
           " * vsrc1 field must be 0}.  Rows with op 0 are illegal. */\n"]
    out.append("static const char *const vd_classes[%d] = {\n" % len(CLASSES))
    for m in CLASSES:
        out.append("    \"%s\"\n    \"%s\",\n" % (m[:128], m[128:]))
    out.append("};\n")
    out.extend(body)
    return {"vopd_rdna.inc": "".join(out)}
