"""vop3 family tables: VOP3A/VOP3B (incl. VOP1/VOP2/VOPC opcodes in their _e64 form), VOP3P packed
math, MAI (MFMA/SMFMAC/v_accvgpr_*) and gfx950's scaled MFMA, all derived from LLVM 22.

Everything is measured, nothing is typed in from the manual:
  * each opcode (VOP3 op field 0..0x3ff; VOP3P is op >= 0x380) is disassembled with probe
    operands (vdst v40, srcs v8/v16/v24) -> mnemonic, operand count and widths;
  * each of the 13 modifier bits (w0[15:8], w1[31:27]) is set alone -> its *role* for that opcode:
    illegal, ignored, abs/neg of a source, clamp, omod, an op_sel/op_sel_hi/neg_lo/neg_hi list
    element, a cbsz/abid/blgp/bitop3 value bit, an accumulator-select bit, ...;
  * each operand field is swept over all its encodings -> an operand *class*: per encoding,
    whether LLVM rejects it, accepts it, or accepts it with an "Invalid register/immediate"
    annotation (LLVM's register-class check), plus the class name LLVM prints;
  * literal dwords of several values -> how constants of each source print (ISA_T_* type).
"""
import re
import sys

BANNER_NOTE = "/* Rows: see src/isa/vop3.c for the meaning of every field. */\n"

V0, V1, V2, VD = 8, 16, 24, 40          # probe registers
ARCHES = ("gfx942", "gfx950", "gfx90a")  # new targets go last: older tables keep their bytes
# the 13 modifier bits, in role-table order
MODBITS = [(0, b) for b in range(8, 16)] + [(1, b) for b in range(27, 32)]

# role kinds are emitted as VR(<kind>, idx); the kinds are the VR_* enum in src/isa/vop3.c
LISTS = {"op_sel": "OPSEL", "op_sel_hi": "OPSEL_HI", "neg_lo": "NEG_LO", "neg_hi": "NEG_HI",
         "neg": "MNEG"}
VALUES = {"cbsz": "CBSZ", "abid": "ABID", "blgp": "BLGP", "bitop3": "BITOP3"}

# literal probe values -> ISA_T_* type (see literal printing in src/isa/operand.c)
LIT_VALUES = (0x3f000000, 0x3800, 0x3f00, 0x12345678, 0x3e22f983, 0x3118, 1)
LIT_SIGS = {
    ("lit(0x3f000000)", "0x3800", "0x3f00", "0x12345678", "lit(0x3e22f983)", "0x3118",
     "lit(0x1)"): "F32",
    ("0x3f000000", "0x3800", "0x3f00", "0x12345678", "0x3e22f983", "0x3118", "0x1"): "F64",
    ("0x3f000000", "0x3800", "0x3f00", "0x12345678", "0x3e22f983", "0x3118", "lit(0x1)"): "B64",
    ("lit(0x3f000000)", "lit(0x3800)", "0x3f00", "0x5678", "0xf983", "lit(0x3118)",
     "lit(0x1)"): "F16",
    ("lit(0x3f000000)", "0x3800", "0x3f00", "0x5678", "lit(0x3e22f983)", "0x3118",
     "lit(0x1)"): "B16",
    ("0x3f000000", "0x3800", "lit(0x3f00)", "0x12345678", "0x3e22f983", "0x3118",
     "lit(0x1)"): "V2BF16",
    ("0x3f000000", "lit(0x3800)", "0x3f00", "0x12345678", "0x3e22f983", "lit(0x3118)",
     "lit(0x1)"): "V2F16",
    ("lit(0x3f000000)", "0x3800", "lit(0x3f00)", "0x12345678", "0x3e22f983", "0x3118",
     "lit(0x1)"): "BF16",
}

WARN_RE = re.compile(r" ; Warning.*$")
COMMENT_RE = re.compile(r"/\*.*?\*/")


def split_text(t):
    """'mn a, b, c mod1 mod2' -> (mn, [a, b, c], [mod1, mod2]) with comments/warnings removed."""
    t = WARN_RE.sub("", t)
    t = COMMENT_RE.sub("", t)
    mn, _, rest = t.partition(" ")
    if not rest:
        return mn, [], []
    ops = rest.split(", ")
    last = ops[-1].split(" ")
    ops[-1] = last[0]
    return mn, ops, last[1:]


def reg_of(s):
    """'-|v[8:9]|' -> ('v', 8, 2); 's40' -> ('s', 40, 1); other -> (None, 0, 0)"""
    s = s.strip("-|")
    m = re.match(r"^([vsa])\[(\d+):(\d+)\]$", s)
    if m:
        return m.group(1), int(m.group(2)), int(m.group(3)) - int(m.group(2)) + 1
    m = re.match(r"^([vsa])(\d+)$", s)
    if m:
        return m.group(1), int(m.group(2)), 1
    return None, 0, 0


def words(op, vdst=VD, sd=0, srcs=(256 + V0, 256 + V1, 256 + V2), w0x=0, w1x=0):
    w0 = 0xd0000000 | (op << 16) | vdst | (sd << 8) | w0x
    w1 = srcs[0] | (srcs[1] << 9) | (srcs[2] << 18) | w1x
    return (w0, w1, 0x11223344, 0x55667788)


class OpProbe:
    """Everything measured about one opcode on one target."""

    def __init__(self, op, arch, text, w0x, w1x, vdst):
        self.op, self.arch, self.text, self.w0x, self.w1x, self.vdst = op, arch, text, w0x, w1x, vdst
        mn, ops, mods = split_text(text)
        self.mnemonic = mn
        self.e64 = mn.endswith("_e64")
        self.base = mn[:-4] if self.e64 else mn
        self.ops, self.mods = ops, mods
        # destinations: the operand showing vdst, then a VOP3B carry-out "s[0:1]" (bits 14:8 = 0)
        self.dst = []   # (kind letter, width, field) field: 'vdst' | 'sdst'
        i = 0
        if ops and reg_of(ops[0])[1] == vdst and reg_of(ops[0])[0] is not None and vdst:
            k, _, n = reg_of(ops[0])
            self.dst.append((k, n, "vdst"))
            i = 1
        if i < len(ops) and ops[i] == "s[0:1]":
            self.dst.append(("s", 2, "sdst"))
            i += 1
        self.src = []   # (kind letter, width)
        for o in ops[i:]:
            k, r, n = reg_of(o)
            self.src.append((k, n))


def find_base(llvm, arch, ops):
    """First legal probe per opcode: plain operands, then VOP3P defaults, then vdst 0."""
    tries = [(0, 0, VD), (1 << 14, 3 << 27, VD), (0, 0, 0), (1 << 14, 3 << 27, 0)]
    found = {}
    for w0x, w1x, vd in tries:
        todo = [op for op in ops if op not in found]
        res = llvm.dis_many(arch, [words(op, vdst=vd, w0x=w0x, w1x=w1x) for op in todo])
        for op, (sz, t) in zip(todo, res):
            if sz and t and not t.startswith("<"):
                found[op] = OpProbe(op, arch, t, w0x, w1x, vd)
    # packed ops print op_sel_hi unless it has its default (all ones): probe from the default
    for op, p in list(found.items()):
        p.ophi_def = 0
        if "op_sel_hi:" in p.text and not p.w1x:
            sz, t = llvm.dis(arch, words(op, vdst=p.vdst, w0x=1 << 14, w1x=3 << 27))
            if sz and "op_sel_hi:" not in t:
                found[op] = OpProbe(op, arch, t, 1 << 14, 3 << 27, p.vdst)
                found[op].ophi_def = 1
        elif p.w1x:
            p.ophi_def = 1
    return found


def role_of(p, t_base, t):
    """Role of one modifier bit from the text with that bit flipped."""
    if t is None:
        return ("BAD", 0, 0)
    if t == t_base:
        return ("IGN", 0, 0)
    mb, ob, db = split_text(t_base)
    m1, o1, d1 = split_text(t)
    if m1 != mb:
        return ("BAD", 0, 0)
    nd = len(p.dst)
    new = [x for x in d1 if x not in db]
    for tok in new + [x for x in db if x not in d1]:
        name, _, val = tok.partition(":")
        if name in LISTS:
            a = [int(x) for x in val.strip("[]").split(",")]
            olds = [x for x in db if x.startswith(name + ":")]
            if olds:
                b = [int(x) for x in olds[0].partition(":")[2].strip("[]").split(",")]
            else:  # the base shows no list: it had the default value
                b = [p.ophi_def if name == "op_sel_hi" else 0] * len(a)
            diff = [j for j in range(len(a)) if a[j] != b[j]]
            if len(diff) == 1:
                return (LISTS[name], diff[0], len(a))
    for tok in new:
        name, _, val = tok.partition(":")
        if name in VALUES:
            v = int(val, 0)
            return (VALUES[name], v.bit_length() - 1, 0)
        if tok == "clamp":
            return ("CLAMP", 0, 0)
        if tok in ("mul:2", "mul:4"):
            return ("OMOD", 0 if tok == "mul:2" else 1, 0)
        if tok == "fi:1":
            return ("FI", 0, 0)
        if tok == "bound_ctrl:1":
            return ("BC", 0, 0)
    changed = [j for j in range(min(len(o1), len(ob))) if o1[j] != ob[j]]
    if changed and changed[0] == 0 and o1[0].startswith("a") and p.dst:
        p.cd_src2 = len(changed) == 2  # MFMA: C follows vdst; SMFMAC: C is vdst itself
        return ("ACC_CD", 0, 0)
    if len(changed) == 1:
        j = changed[0]
        s = j - nd
        a, b = o1[j], ob[j]
        if a == "|%s|" % b:
            return ("ABS", s, 0)
        if a == "-" + b:
            return ("NEG", s, 0)
        if a.startswith("a") and b.startswith("v") and s >= 0:
            return ("ACC", s, 0)
    return ("WEIRD", 0, 0)


def mod_flips(p):
    """(w0x, w1x): probe p's base with each modifier bit of MODBITS flipped alone, in order."""
    for wi, b in MODBITS:
        yield (p.w0x ^ (1 << b), p.w1x) if wi == 0 else (p.w0x, p.w1x ^ (1 << b))


def flip_results(probes, res):
    """(p, j, t, ign) per probe and modifier bit j, in order, from the results of disassembling
    mod_flips of every probe: t is LLVM's text (None when illegal); ign is set for the bits of
    a VOP3B op's w0[14:8], its carry-out sdst rather than modifiers."""
    k = 0
    for p in probes.values():
        sdst = any(d[2] == "sdst" for d in p.dst)
        for j in range(len(MODBITS)):
            sz, t = res[k]
            k += 1
            yield p, j, (t if sz else None), sdst and j < 7


def probe_roles(llvm, arch, probes):
    items = []
    for op, p in probes.items():
        p.roles = []
        for w0x, w1x in mod_flips(p):
            items.append(words(op, vdst=p.vdst, w0x=w0x, w1x=w1x))
    for p, j, t, ign in flip_results(probes, llvm.dis_many(arch, items)):
        p.roles.append(("IGN", 0, 0) if ign else role_of(p, p.text, t))


def literal_types(llvm, arch, probes):
    """ISA_T_* name per source, from how literal dwords print there (gfx950 only)."""
    for op, p in probes.items():
        p.types = []
        for s in range(len(p.src)):
            srcs = [256 + V0, 256 + V1, 256 + V2]
            srcs[s] = 255
            items = []
            for v in LIT_VALUES:
                w = list(words(op, vdst=p.vdst, srcs=srcs, w0x=p.w0x, w1x=p.w1x))
                w[2] = v
                items.append(tuple(w))
            res = llvm.dis_many(arch, items)
            sig = []
            for sz, t in res:
                if not sz or t.startswith("<"):
                    sig.append("x")
                    continue
                _, ops, _ = split_text(t)
                sig.append(ops[len(p.dst) + s].strip("-|") if len(ops) > len(p.dst) + s else "?")
            # (a register-only operand shows the literal as the inline constant it equals, "0.5")
            if "x" not in sig and "0.5" not in sig and tuple(sig) not in LIT_SIGS:
                print("vop3: %s src%d: unknown literal printing %s" % (p.mnemonic, s, sig),
                      file=sys.stderr)
            p.types.append(LIT_SIGS.get(tuple(sig)))
        if p.base.startswith("v_mfma_f64") and len(p.types) == 3:
            p.types[2] = "F64"  # C of a f64 MFMA: 1/(2pi) prints in double precision


def types_by_name(llvm, probes, done):
    """Source types for a target whose VOP3 has no literal (gfx90a): an op takes the types the
    same mnemonic has on gfx950 (found there by the literal probe) or gfx942; an op found on
    neither is probed through gfx950 at the same opcode, as gfx942's are."""
    known = {}
    for arch in ("gfx942", "gfx950"):
        for p in done.get(arch, {}).values():
            known[p.base] = p.types
    rest = {}
    for op, p in probes.items():
        if p.base in known:
            p.types = list(known[p.base])
        else:
            rest[op] = p
    literal_types(llvm, "gfx950", rest)


# ---- operand classes ------------------------------------------------------------------------
# field kinds: which bits an operand occupies
FIELD_SRC = ("src0", "src1", "src2")


# encodings that tell operand classes apart; a full sweep runs once per distinct answer
SIG_ENCS = (0, 1, 2, 3, 5, 9, 100, 101, 102, 103, 104, 105, 106, 107, 108, 109, 122, 123, 124,
            125, 126, 127, 128, 129, 192, 193, 208, 209, 229, 230, 231, 234, 235, 239, 240, 248,
            249, 250, 251, 252, 253, 254, 255, 256, 257, 258, 260, 264, 265, 380, 381, 496, 500,
            504, 505, 508, 509, 510, 511)


def class_sweep(llvm, arch, p, field, acc=False, encs=None):
    """Per encoding of one operand field: 0 illegal, 1 ok, 2 invalid-register note, 3 invalid-
    immediate note; and the class name LLVM prints."""
    encs = field_encs(field, encs)
    items = []
    for e in encs:
        srcs, vd, sd = place(field, e, [256 + V0, 256 + V1, 256 + V2], p.vdst)
        w0x, w1x = p.w0x, p.w1x
        if acc:  # the field with its accumulator-select bit set (MAI)
            if field in ("vdst", "src2"):
                w0x |= 1 << 15
            else:
                w1x |= 1 << (27 + int(field[3]))
        w = list(words(p.op, vdst=vd, sd=sd, srcs=srcs, w0x=w0x, w1x=w1x))
        w[2] = 0x3f000000  # literal value used when e == 255
        items.append(tuple(w))
    res = llvm.dis_many(arch, items)
    modes, name = [], ""
    for sz, t in res:
        if not sz or t.startswith("<"):
            modes.append(0)
            continue
        mode, cls = note_mode(slot_text(p, field, t))
        modes.append(mode)
        name = cls or name
    return modes, name


def field_encs(field, encs):
    """The encodings to sweep in an operand field (all it can hold, or those of encs that fit)."""
    n = 512 if field.startswith("src") else (128 if field == "sdst" else 256)
    return range(n) if encs is None else [e for e in encs if e < n]


def place(field, e, srcs, vdst):
    """(srcs, vdst, sdst) for words() with encoding e in operand field `field`."""
    srcs, vd, sd = list(srcs), vdst, 0
    if field.startswith("src"):
        srcs[int(field[3])] = e
    elif field == "sdst":
        sd = e
    else:
        vd = e
    return srcs, vd, sd


def slot_text(p, field, t):
    """The text of operand slot `field` (vdst, sdst, srcN) in LLVM's line t ("" if absent)."""
    if field in ("vdst", "sdst"):
        pos = [d[2] for d in p.dst].index(field)
    else:
        pos = len(p.dst) + int(field[3])
    o = operand_texts(t)
    return o[pos] if pos < len(o) else ""


def note_mode(o):
    """LLVM's note on one operand's text, as a class-table mode: (2, class) for "Invalid
    register, operand has 'X' register class", (3, "") for "Invalid immediate", else (1, "")."""
    m = re.search(r"operand has '([^']+)' register class", o)
    if m:
        return 2, m.group(1)
    if "Invalid immediate" in o:
        return 3, ""
    return 1, ""


def operand_texts(t):
    """The operands of a disassembly, each with its /* */ note (notes may contain ', ')."""
    t = WARN_RE.sub("", t)
    notes = COMMENT_RE.findall(t)
    t = COMMENT_RE.sub("\x00", t)
    _, _, rest = t.partition(" ")
    ops = rest.split(", ")
    ops[-1] = ops[-1].split(" ")[0]
    out = []
    for x in ops:
        while "\x00" in x:
            x = x.replace("\x00", notes.pop(0), 1)
        out.append(x)
    return out


# ops named by no table row: the 128-bit ld_scale + MFMA pair (see src/isa/vop3.c); gen_isa.py
# keeps them when this family is not regenerated
EXTRA_OPS = ("v_mfma_scale_f32_16x16x128_f8f6f4", "v_mfma_scale_f32_32x32x64_f8f6f4")


def generate(ctx):
    llvm = ctx.llvm
    classes = {}      # (modes tuple, name) -> id
    sig_cache = {}    # operand signature -> full sweep
    class_list = []
    out = {}
    for arch in ARCHES:
        probes = find_base(llvm, arch, list(range(1024)))
        probe_roles(llvm, arch, probes)
        if arch in ("gfx942", "gfx950"):
            literal_types(llvm, "gfx950", probes)
        else:
            types_by_name(llvm, probes, out)
        for op, p in sorted(probes.items()):
            p.cls = {}
            fields = [d[2] for d in p.dst] + ["src%d" % i for i in range(len(p.src))]
            roles = set(r[0] for r in p.roles)
            for f in fields:
                for acc in (False, True):
                    if acc and not ((f in ("vdst", "src2") and "ACC_CD" in roles and
                                     (f == "vdst" or getattr(p, "cd_src2", False))) or
                                    (f in ("src0", "src1") and "ACC" in roles)):
                        continue
                    if f.startswith("src"):
                        width = p.src[int(f[3])][1]
                    else:
                        width = dict((d[2], d[1]) for d in p.dst)[f]
                    smodes, sname = class_sweep(llvm, arch, p, f, acc, SIG_ENCS)
                    sig = (arch, f[:3], acc, width, tuple(smodes), sname)
                    if sig not in sig_cache:
                        sig_cache[sig] = class_sweep(llvm, arch, p, f, acc)
                    modes, name = sig_cache[sig]
                    key = (tuple(modes), name)
                    if key not in classes:
                        classes[key] = len(class_list)
                        class_list.append(key)
                    p.cls[f + ("_acc" if acc else "")] = classes[key]
        out[arch] = probes
        if arch == "gfx950":  # the classes of the targets after it go after the scale class
            scale = scale_class(llvm)
            if scale not in classes:
                classes[scale] = len(class_list)
                class_list.append(scale)
    for m in EXTRA_OPS:
        ctx.op(m)
    return {"vop3.inc": emit(ctx, out, class_list) +
            "/* class of the two scale sources of the 128-bit scaled MFMA */\n"
            "#define VOP3_SCALE_CLASS %d\n" % classes[scale]}


def scale_class(llvm):
    """Operand class of the scale sources inside the gfx950 scaled-MFMA pair (it differs from a
    lone v_mfma_ld_scale_b32's); probed through the first scale source."""
    items = [(0xd3ac0000, e | (0x119 << 9) | (3 << 27), 0xd3ad0800, 0x04521904) for e in range(512)]
    modes, name = [], ""
    for sz, t in llvm.dis_many("gfx950", items):
        if sz != 16 or t.startswith("<"):
            modes.append(0)
            continue
        o = operand_texts(t)[4]
        m = re.search(r"operand has '([^']+)' register class", o)
        if m:
            name = m.group(1)
        modes.append(2 if m else 3 if "Invalid immediate" in o else 1)
    return (tuple(modes), name)


TYPE_C = {None: "ISA_T_B32", "F32": "ISA_T_F32", "F64": "ISA_T_F64", "B64": "ISA_T_B64",
          "F16": "ISA_T_F16",
          "B16": "ISA_T_B16", "V2BF16": "ISA_T_V2BF16", "V2F16": "ISA_T_V2F16", "BF16": "ISA_T_BF16"}


def emit(ctx, out, class_list):
    L = []
    L.append(BANNER_NOTE)
    L.append("/* Operand classes: per field encoding 0 illegal, 1 ok, 2 ok with \"Invalid register\","
             " 3 ok with \"Invalid immediate\" note. */\n")
    L.append("static const struct vop3_class vop3_classes[%d] = {\n" % len(class_list))
    for modes, name in class_list:
        s = "".join(str(m) for m in modes)
        L.append("    {\"%s\", %d,\n     \"%s\"},\n" % (name, len(modes), s))
    L.append("};\n\n")
    for arch in ARCHES:
        probes = out[arch]
        L.append("static const struct vop3_row vop3_rows_%s[] = {\n" % arch)
        for op, p in sorted(probes.items()):
            # VOP3P's 64-bit sources are 2 dwords etc; types only for sources
            nd, ns = len(p.dst), len(p.src)
            dst_n = [d[1] for d in p.dst] + [0] * (2 - nd)
            src_n = [s[1] for s in p.src] + [0] * (6 - ns)
            src_t = [TYPE_C.get(t, "ISA_T_B32") for t in getattr(p, "types", [])] + \
                ["ISA_T_B32"] * (6 - ns)
            flags = []
            if p.e64:
                flags.append("VF_E64")
            for k, n, f in p.dst:
                if f == "vdst":
                    flags.append({"v": "VF_DST_V", "s": "VF_DST_S", "a": "VF_DST_A"}[k])
                else:
                    flags.append("VF_SDST")
            for i, (k, n) in enumerate(p.src):
                if k == "a":
                    flags.append("VF_SRC_A(%d)" % i)
            if getattr(p, "cd_src2", False):
                flags.append("VF_CD_SRC2")
            roles = []
            lens = {}
            for (kind, idx, ln) in p.roles:
                if kind == "WEIRD":  # a bit whose effect we cannot name: treat as illegal
                    print("vop3: %s %s: unrecognised modifier bit effect" % (arch, p.mnemonic),
                          file=sys.stderr)
                    kind = "BAD"
                roles.append("VR(%s, %d)" % (kind, idx))
                if kind in ("OPSEL", "OPSEL_HI", "NEG_LO", "NEG_HI", "MNEG"):
                    lens[kind] = max(lens.get(kind, 0), ln)
            ophi_def = 7 if p.ophi_def else 0
            cls = [p.cls.get(f, 0) for f in ("vdst", "sdst", "src0", "src1", "src2")]
            cls += [p.cls.get(f + "_acc", p.cls.get(f, 0)) for f in ("vdst", "src0", "src1", "src2")]
            L.append("    {{%s, 0x%x, %d, %d, {%d, %d}, {%s}, {%s}, %s, 0},\n"
                     "     {%s},\n     %d, %d, %d, %d, %d, %d, {%s}, %d},\n" % (
                         ctx.op(p.base), op, nd, ns, dst_n[0], dst_n[1],
                         ", ".join(map(str, src_n)), ", ".join(src_t),
                         " | ".join(flags) or "0",
                         ", ".join(roles),
                         lens.get("OPSEL", 0), lens.get("OPSEL_HI", 0), lens.get("NEG_LO", 0),
                         lens.get("NEG_HI", 0), lens.get("MNEG", 0), ophi_def,
                         ", ".join(map(str, cls)), p.vdst))
        L.append("};\n\n")
    return "".join(L)
