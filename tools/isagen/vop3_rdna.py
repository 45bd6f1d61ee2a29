"""VOP3 and VOP3P tables for the RDNA targets (gfx1100, gfx1201): the 64-bit VALU encoding
(VOP1/VOP2/VOPC opcodes in their _e64 form, the VOP3-only ops, the VOP3 SDST forms), packed math
(VOP3P: v_pk_*, dot ops, v_fma_mix*, WMMA/SWMMAC) and their DPP16/DPP8 forms.

Layout (RDNA3/RDNA4 ISA manuals, "VOP3", "VOP3 SDST", "DPP16", "DPP8"): CDNA's VOP3A/VOP3B words
with prefix 110101 (w0[31:26]): op[25:16], clamp[15], op_sel[14:11] (VOP3 SDST: sdst[14:8]),
abs[10:8], vdst[7:0]; w1: neg[31:29], omod[28:27], src2[26:18], src1[17:9], src0[8:0].
src0 = 0xFA / 0xE9 / 0xEA (DPP16 / DPP8 / DPP8 with fi) adds a DPP dword whose low byte is
src0's VGPR; a source of 255 adds a literal dword (gfx11 VOP3 takes one).

Everything is measured from LLVM 22 with the method of tools/isagen/vop3.py, per opcode and per
form (e64, DPP16, DPP8): a base probe (vdst v40, sources v8/v16/v24), the role of each of the 13
modifier bits set alone (plus ALT: a bit that makes LLVM decode the op's fake16 form, which
prints plain registers -- that form gets its own row, measured with the bit set), operand classes
(which encodings each field accepts or annotates), the true16 operands (printed .l; op_sel bit
k selects .h of source k, bit 3 of vdst), how literals print (ISA_T_*), and the DPP16 dword bits
LLVM accepts.

Output: src/isa/gen/vop3_rdna.inc (rows read by src/isa/vop3_rdna.c).
"""
import re
import sys

from . import vop3 as cdna3
from . import vop_rdna

ARCHES = ("gfx1100", "gfx1201")
# (format, first-word prefix, opcode count): VOP3 op[25:16]; VOP3P (w0[31:24] = 11001100) op[22:16]
# with CDNA's VOP3P modifier positions (op_sel_hi2[14], op_sel[13:11], neg_hi[10:8];
# w1 neg_lo[31:29], op_sel_hi[28:27]).
FMTS = (("VOP3", 0xd4000000, 1024), ("VOP3P", 0xcc000000, 128))
PREFIX = FMTS[0][1]  # the format being probed (generate() sets it)
V0, V1, V2, VD = 8, 16, 24, 40
PAD = 0x12345678
FORMS = ("E64", "DPP16", "DPP8")
DPP16_BASE = 0xff00e400 | V0  # quad_perm:[0,1,2,3] row_mask:0xf bank_mask:0xf, src0 v8
DPP8_BASE = 0x00fac600 | V0
MODBITS = cdna3.MODBITS
SUFFIXES = ("", "_e64", "_e64_dpp", "_dpp")

split_text = cdna3.split_text
operand_texts = cdna3.operand_texts


def words(op, form, vdst=VD, sd=0, srcs=(256 + V0, 256 + V1, 256 + V2), w0x=0, w1x=0, ext=None):
    s = list(srcs)
    if form == "DPP16":
        s[0] = 0xFA
    elif form == "DPP8":
        s[0] = 0xE9
    w0 = PREFIX | (op << 16) | vdst | (sd << 8) | w0x
    w1 = s[0] | (s[1] << 9) | (s[2] << 18) | w1x
    if ext is None:
        ext = DPP16_BASE if form == "DPP16" else DPP8_BASE if form == "DPP8" else 0x3f000000
    return (w0, w1, ext, PAD)


REG = re.compile(r"^([vs])(?:(\d+)|\[(\d+):(\d+)\])(\.[lh])?$")


def reg_of(s):
    """'-|v8.l|' -> ('v', 8, 1, True); other -> (None, 0, 0, False)"""
    m = REG.match(s.strip("-|"))
    if not m:
        return None, 0, 0, False
    if m.group(2) is not None:
        return m.group(1), int(m.group(2)), 1, m.group(5) is not None
    lo, hi = int(m.group(3)), int(m.group(4))
    return m.group(1), lo, hi - lo + 1, m.group(5) is not None


def base_name(mn):
    for suf in ("_e64_dpp", "_dpp", "_e64"):
        if mn.endswith(suf):
            return mn[: -len(suf)], SUFFIXES.index(suf)
    return mn, 0


class Probe:
    """What one legal probe word of an (opcode, form) prints."""

    def __init__(self, op, form, text, w0x, w1x, vdst, srcs):
        self.op, self.form, self.text = op, form, text
        self.w0x, self.w1x, self.vdst, self.srcs = w0x, w1x, vdst, srcs
        mn, ops, mods = split_text(text)
        self.mnemonic = mn
        self.base, self.suffix = base_name(mn)
        self.ops, self.mods = ops, mods
        self.dst = []  # (kind, width, field, t16)
        i = 0
        if ops and vdst:
            k, r, n, t = reg_of(ops[0])
            if k is not None and r == vdst:
                self.dst.append((k, n, "vdst", t))
                i = 1
        if i < len(ops) and ops[i] in ("s0", "s[0:1]"):  # VOP3 SDST probed with sdst = 0
            self.dst.append(("s", 2 if ops[i] == "s[0:1]" else 1, "sdst", False))
            i += 1
        self.src = []  # (kind, width, t16)
        for o in ops[i:]:
            k, _, n, t = reg_of(o)
            self.src.append((k, n, t))
        self.ophi_def = 0
        self.t16 = any(x[-1] for x in self.dst + self.src)


SRC_TRIES = ((256 + V0, 256 + V1, 256 + V2), (256 + V0, 256 + V1, V2), (256 + V0, V1, V2),
             (V0, 256 + V1, 256 + V2))


def find_base(llvm, arch, form, ops):
    """First legal probe per opcode: plain operands, then VOP3P-like defaults, then vdst 0,
    then SGPRs for sources that take no VGPR (carry-ins, v_writelane's lane select, ...)."""
    mods = ((0, 0),)
    if PREFIX == 0xcc000000:  # packed ops: first with op_sel_hi's default (all ones)
        mods = ((1 << 14, 3 << 27), (0, 0))
    tries = [(w0x, w1x, vd, s) for s in SRC_TRIES for vd in (VD, 0, 126)  # v_cmpx: exec_lo
             for (w0x, w1x) in mods]
    found = {}
    for w0x, w1x, vd, srcs in tries:
        todo = [op for op in ops if op not in found]
        res = llvm.dis_many(arch, [words(op, form, vdst=vd, srcs=srcs, w0x=w0x, w1x=w1x)
                                   for op in todo])
        for op, (sz, t) in zip(todo, res):
            if sz and t and not t.startswith("<"):
                found[op] = Probe(op, form, t, w0x, w1x, vd, srcs)
                found[op].ophi_def = 1 if w1x else 0
    # v_fma_mix*: LLVM's op_sel_hi default is 0 there; it prints the list when all ones
    for op, p in list(found.items()):
        if p.ophi_def and "op_sel_hi:" in p.text:
            sz, t = llvm.dis(arch, words(op, form, vdst=p.vdst, srcs=p.srcs))
            if sz and t and "op_sel_hi:" not in t:
                found[op] = Probe(op, form, t, 0, 0, p.vdst, p.srcs)
    return found


def is_alt(p, t):
    """The bit made LLVM decode the fake16 form: same mnemonic, no .l/.h left."""
    if not p.t16 or t is None:
        return False
    mn, ops, _ = split_text(t)
    return mn == p.mnemonic and not re.search(r"\.[lh]\b", " ".join(ops))


def hsel(p, t):
    """One true16 operand went from .l to .h and nothing else changed (no op_sel list)."""
    mb, ob, db = split_text(p.text)
    m1, o1, d1 = split_text(t)
    if mb != m1 or db != d1 or len(ob) != len(o1):
        return False
    ch = [j for j in range(len(ob)) if ob[j] != o1[j]]
    return len(ch) == 1 and ob[ch[0]].endswith(".l") and o1[ch[0]] == ob[ch[0]][:-2] + ".h"


def measure_roles(llvm, arch, probes, fixed=0):
    """Role of each modifier bit, flipped alone from each probe's base; `fixed`: the bit index
    (1 + MODBITS position) held set in an ALT row's base, reported IGN."""
    items = []
    for op, p in probes.items():
        p.roles = []
        for w0x, w1x in cdna3.mod_flips(p):
            items.append(words(op, p.form, vdst=p.vdst, srcs=p.srcs, w0x=w0x, w1x=w1x))
    for p, j, t, ign in cdna3.flip_results(probes, llvm.dis_many(arch, items)):
        if ign or j + 1 == fixed:
            p.roles.append(("IGN", 0, 0))
            continue
        if is_alt(p, t):
            p.roles.append(("ALT", 0, 0))
            continue
        role = cdna3.role_of(p, p.text, t)
        if role[0] == "WEIRD" and hsel(p, t):
            role = ("HSEL", 0, 0)
        if role[0] == "WEIRD" and t:
            new = [x for x in split_text(t)[2] if x.startswith("byte_sel:")]
            if new:  # gfx12 fp8 conversions: op_sel[3:2] read as a byte index
                role = ("BYTESEL", int(new[0][9:]).bit_length() - 1, 0)
        if role[0] == "WEIRD" and t:
            new = [x for x in split_text(t)[2] if x.startswith("index_key:")]
            if new:  # gfx12 v_swmmac_*: op_sel bits select the sparsity index key
                role = ("INDEX_KEY", int(new[0][10:]).bit_length() - 1, 0)
        p.roles.append(role)


def class_sweep(llvm, arch, p, field, encs=None):
    encs = cdna3.field_encs(field, encs)
    items = []
    for e in encs:
        srcs, vd, sd = cdna3.place(field, e, p.srcs, p.vdst)
        items.append(words(p.op, p.form, vdst=vd, sd=sd, srcs=srcs, w0x=p.w0x, w1x=p.w1x))
    res = llvm.dis_many(arch, items)
    modes, name = [], ""
    for e, (sz, t) in zip(encs, res):
        if not sz or t.startswith("<"):
            modes.append(0)
            continue
        o = cdna3.slot_text(p, field, t)
        mode, cls = cdna3.note_mode(o)
        name = cls or name
        if mode != 1:
            modes.append(mode)
        elif 128 <= e < 256 and o.strip("-|") == "0x%x" % e:
            modes.append(4)  # v_fmac_*_e64_dpp: LLVM prints a constant's raw encoding
        else:
            modes.append(1)
    return modes, name


def literal_types(llvm, arch, p):
    """ISA_T_* per source from how literal dwords print there (tools/isagen/vop_rdna.py's
    rules); B32 where a source takes no literal."""
    p.types = []
    for s in range(len(p.src)):
        if p.form != "E64":  # DPP forms take no literal: the e64 form's types
            e64 = E64_TYPES.get((arch, p.op))
            p.types.append(e64[s] if e64 and s < len(e64) else "B32")
            continue
        srcs = list(p.srcs)
        srcs[s] = 255
        items = [words(p.op, p.form, vdst=p.vdst, srcs=srcs, w0x=p.w0x, w1x=p.w1x, ext=v)
                 for v in vop_rdna.LIT_PROBES]
        texts = []
        for sz, t in llvm.dis_many(arch, items):
            if not sz or t.startswith("<") or "/*" in t:
                texts = None
                break
            o = split_text(t)[1]
            texts.append(o[len(p.dst) + s] if len(o) > len(p.dst) + s else "?")
        t = None
        if texts:
            for tn in vop_rdna.TYPE_ORDER:
                if p.src[s][1] == 2 and tn not in ("F64", "B64"):
                    continue
                if all(vop_rdna.lit_text(v, vop_rdna.T[tn]) == x
                       for v, x in zip(vop_rdna.LIT_PROBES, texts)):
                    t = tn
                    break
            if t is None:
                print("vop3_rdna: %s %s src%d: unknown literal printing %s"
                      % (arch, p.mnemonic, s, texts), file=sys.stderr)
        p.types.append(t or "B32")
    if p.form == "E64" and not getattr(p, "is_alt", False):
        E64_TYPES[(arch, p.op)] = p.types


E64_TYPES = {}


class Classes:
    def __init__(self):
        self.ids, self.list, self.sig = {}, [], {}

    def get(self, llvm, arch, p, field, width):
        smodes, sname = class_sweep(llvm, arch, p, field, cdna3.SIG_ENCS)
        sig = (arch, p.form, field[:3], width, tuple(smodes), sname)
        if sig not in self.sig:
            self.sig[sig] = class_sweep(llvm, arch, p, field)
        modes, name = self.sig[sig]
        key = (tuple(modes), name)
        if key not in self.ids:
            self.ids[key] = len(self.list)
            self.list.append(key)
        return self.ids[key]


def measure(llvm, arch, probes, classes):
    for op, p in sorted(probes.items()):
        p.cls = {}
        fields = [d[2] for d in p.dst] + ["src%d" % i for i in range(len(p.src))]
        for f in fields:
            if f == "src0" and p.form != "E64":
                continue  # DPP: src0 is the DPP dword's VGPR
            width = p.src[int(f[3])][1] if f.startswith("src") else \
                dict((d[2], d[1]) for d in p.dst)[f]
            p.cls[f] = classes.get(llvm, arch, p, f, width)
        literal_types(llvm, arch, p)
        p.dpp_ok = 0
        if p.form == "DPP16":
            base = llvm.dis(arch, words(op, p.form, vdst=p.vdst, srcs=p.srcs, w0x=p.w0x,
                                        w1x=p.w1x))
            res = llvm.dis_many(arch, [words(op, p.form, vdst=p.vdst, srcs=p.srcs, w0x=p.w0x,
                                             w1x=p.w1x, ext=DPP16_BASE ^ (1 << b))
                                       for b in range(32)])
            for b, (sz, t) in enumerate(res):
                if sz == base[0]:
                    p.dpp_ok |= 1 << b
            p.dpp_shown = dpp_ctrl_shown(llvm, arch, p)
        p.dpp8_inline = False
        if p.form == "DPP8":
            # selectors 0xc5 (197, the inline constant -5): raw they are lanes [5,0,3,0,...]
            q = llvm.dis(arch, words(op, p.form, vdst=p.vdst, srcs=p.srcs, w0x=p.w0x,
                                     w1x=p.w1x, ext=0xc500 | V0))
            p.dpp8_inline = q[0] != 0 and "dpp8:[3,7,7,7,7,7,7,7]" in q[1]


# dpp_ctrl as LLVM prints it on GFX10+ (src/isa/vop.c isa_put_dpp_ctrl has the same ranges)
DPP_CTRL_RANGES = ((0x101, 0x10f, "row_shl:%d"), (0x111, 0x11f, "row_shr:%d"),
                   (0x121, 0x12f, "row_ror:%d"),
                   (0x130, 0x130, "/* wave_shl is not supported starting from GFX10 */"),
                   (0x134, 0x134, "/* wave_rol is not supported starting from GFX10 */"),
                   (0x138, 0x138, "/* wave_shr is not supported starting from GFX10 */"),
                   (0x13c, 0x13c, "/* wave_ror is not supported starting from GFX10 */"),
                   (0x140, 0x140, "row_mirror"), (0x141, 0x141, "row_half_mirror"),
                   (0x142, 0x143, "/* row_bcast is not supported starting from GFX10 */"),
                   (0x150, 0x15f, "row_share:%d"), (0x160, 0x16f, "row_xmask:%d"))
DPP_INVALID = 0x100
DPP_EXTRA = 0x8000  # LLVM reads one more dword after the DPP dword


def dpp_ctrl_text(c):
    if c <= 0xff:
        return "quad_perm:[%d,%d,%d,%d]" % (c & 3, (c >> 2) & 3, (c >> 4) & 3, c >> 6)
    for lo, hi, f in DPP_CTRL_RANGES:
        if lo <= c <= hi:
            return f % (c & 0xf) if "%" in f else f
    return "/* Invalid dpp_ctrl value */"


def dpp_ctrl_shown(llvm, arch, p):
    """[(ctrl, shown)]: the dpp_ctrl values LLVM prints as another value's text (shown; 0x100
    for its invalid note) -- v_fma_mixlo/hi_f16_e64_dpp print some quad_perms with bit 7 gone,
    and with dpp_ctrl 0xff LLVM also reads one more dword (shown | DPP_EXTRA)."""
    base = llvm.dis(arch, words(p.op, p.form, vdst=p.vdst, srcs=p.srcs, w0x=p.w0x, w1x=p.w1x))[0]
    texts = {}
    for c in range(0x1ff, -1, -1):
        texts[dpp_ctrl_text(c)] = c
    res = llvm.dis_many(arch, [words(p.op, p.form, vdst=p.vdst, srcs=p.srcs, w0x=p.w0x,
                                     w1x=p.w1x, ext=(DPP16_BASE & ~0x1ff00) | (c << 8))
                               for c in range(0x200)])
    out = []
    for c, (sz, t) in enumerate(res):
        if not sz or not t:
            continue
        m = re.search(r"(quad_perm:\S+|row_\w+:\d+|row_mirror|row_half_mirror|/\*[^*]*\*/) "
                      r"row_mask:", t)
        extra = DPP_EXTRA if sz == base + 4 else 0
        if m and (m.group(1) != dpp_ctrl_text(c) or extra):
            out.append((c, texts.get(m.group(1), DPP_INVALID) | extra))
    return out


def alt_probe(llvm, arch, p):
    """The fake16 form: the base with the first ALT bit set."""
    j = [r[0] for r in p.roles].index("ALT")
    wi, b = MODBITS[j]
    w0x, w1x = p.w0x | ((1 << b) if wi == 0 else 0), p.w1x | ((1 << b) if wi == 1 else 0)
    sz, t = llvm.dis(arch, words(p.op, p.form, vdst=p.vdst, srcs=p.srcs, w0x=w0x, w1x=w1x))
    q = Probe(p.op, p.form, t, w0x, w1x, p.vdst, p.srcs)
    q.ophi_def = p.ophi_def
    q.is_alt = True
    return q, j + 1


TYPE_C = {n: "ISA_T_" + n for n in vop_rdna.TYPE_ORDER}


def c_row(ctx, p, form, alt):
    nd, ns = len(p.dst), len(p.src)
    dst_n = [d[1] for d in p.dst] + [0] * (2 - nd)
    src_n = [s[1] for s in p.src] + [0] * (6 - ns)
    src_t = [TYPE_C.get(t, "ISA_T_B32") for t in p.types] + ["ISA_T_B32"] * (6 - ns)
    flags = []
    t16 = 0
    for k, n, f, t in p.dst:
        if f == "vdst":
            flags.append({"v": "V3R_DST_V", "s": "V3R_DST_S"}[k])
            t16 |= 8 if t else 0
        else:
            flags.append("V3R_SDST")
    if getattr(p, "dpp8_inline", False):
        flags.append("V3R_DPP8_INLINE")
    for i, (k, n, t) in enumerate(p.src):
        t16 |= (1 << i) if t else 0
        if k == "s":
            flags.append("V3R_SRC_S(%d)" % i)
    roles, lens = [], {}
    for (kind, idx, ln) in p.roles:
        if kind == "WEIRD":
            print("vop3_rdna: %s %s: unrecognised modifier bit effect" % (p.form, p.mnemonic),
                  file=sys.stderr)
            kind = "BAD"
        roles.append("VR(%s, %d)" % (kind, idx))
        if kind in ("OPSEL", "OPSEL_HI", "NEG_LO", "NEG_HI"):
            lens[kind] = max(lens.get(kind, 0), ln)
    cls = [p.cls.get(f, 0) for f in ("vdst", "sdst", "src0", "src1", "src2")]
    return ("    {{%s, 0x%x, %d, %d, {%d, %d}, {%s}, {%s}, %s, 0x%08xu},\n"
            "     {%s},\n     %d, %d, %d, %d, %d, %d, %d, 0x%x, {%s}, %d, %d},\n" % (
                ctx.op(p.base), p.op, nd, ns, dst_n[0], dst_n[1], ", ".join(map(str, src_n)),
                ", ".join(src_t), " | ".join(flags) or "0", p.dpp_ok, ", ".join(roles),
                FORMS.index(form), p.suffix, lens.get("OPSEL", 0), lens.get("OPSEL_HI", 0),
                lens.get("NEG_LO", 0), lens.get("NEG_HI", 0), 7 if p.ophi_def else 0, t16,
                ", ".join(map(str, cls)), p.vdst, alt))


def generate(ctx):
    global PREFIX
    llvm = ctx.llvm
    classes = Classes()
    body = []
    counts = []
    for fmt, PREFIX, nops in FMTS:
        for arch in ARCHES:
            E64_TYPES.clear()
            rows, alts = [], []
            for form in FORMS:
                probes = find_base(llvm, arch, form, list(range(nops)))
                measure_roles(llvm, arch, probes)
                measure(llvm, arch, probes, classes)
                for op, p in sorted(probes.items()):
                    alt = 0
                    if any(r[0] == "ALT" for r in p.roles):
                        q, fixed = alt_probe(llvm, arch, p)
                        measure_roles(llvm, arch, {op: q}, fixed)
                        measure(llvm, arch, {op: q}, classes)
                        alts.append((q, form))
                        alt = len(alts)
                    rows.append((op, FORMS.index(form), p, form, alt))
                counts.append((fmt, arch, form, len(probes)))
            rows.sort(key=lambda r: (r[0], r[1]))
            name = "%s_%s" % (fmt.lower(), arch)
            shown = sorted((p.op, c, x) for _, _, p, _, _ in rows
                           for c, x in getattr(p, "dpp_shown", ()))
            body.append("static const struct v3r_dpp_shown v3r_dpp_shown_%s[%d] = {\n"
                        % (name, max(1, len(shown))))
            body.extend("    {0x%x, 0x%x, 0x%x},\n" % t for t in shown)
            body.append("};\n")
            body.append("static const struct v3r_row v3r_alt_%s[%d] = {\n" % (name, max(1, len(alts))))
            body.extend(c_row(ctx, q, form, 0) for q, form in alts)
            body.append("};\n")
            body.append("static const struct v3r_row v3r_rows_%s[] = {\n" % name)
            body.extend(c_row(ctx, p, form, alt) for _, _, p, form, alt in rows)
            body.append("};\n")
    out = ["/* RDNA VOP3 and VOP3P rows (e64, DPP16, DPP8 forms) per format and target, sorted by\n"
           " * (opcode, form); see src/isa/vop3_rdna.c for every field.  v3r_alt_*: the fake16 forms\n"
           " * LLVM decodes when an ALT modifier bit is set (row.alt = 1 + index).  v3r_dpp_shown_*:\n"
           " * (opcode, dpp_ctrl, the dpp_ctrl whose text LLVM prints instead), sorted. */\n"]
    out.append("static const struct v3r_class v3r_classes[%d] = {\n" % len(classes.list))
    for modes, name in classes.list:
        out.append("    {\"%s\", %d,\n     \"%s\"},\n" % (name, len(modes),
                                                      "".join(str(m) for m in modes)))
    out.append("};\n")
    out.extend(body)
    out.append("/* legal opcodes: %s */\n" % ", ".join("%s %s %s %d" % c for c in counts))
    for c in counts:
        print("gen_isa: vop3_rdna %s %s %s: %d ops" % c)
    return {"vop3_rdna.inc": "".join(out)}
