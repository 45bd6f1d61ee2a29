"""Scalar family tables: SOP2, SOPK, SOP1, SOPC, SOPP and SMEM (gfx9-layout) for gfx942/gfx950.

Everything here is measured from LLVM 22's disassembler, not typed in from a manual:

* every opcode value of every format is tried with a fixed set of probe operands; the mnemonic
  LLVM prints names the op;
* every operand field of every op is swept over all its values; which values LLVM accepts, and
  which it accepts but annotates ("/*Invalid register, operand has 'SReg_64_XEXEC' register
  class*/", "/*Invalid immediate*/"), become an operand class (a list of value ranges);
* the width of each operand (s5, s[4:5], s[4:7] ...) is read off the printed register range;
* how a 16-bit immediate prints (hex, decimal, waitcnt(), sendmsg(), hwreg(), gpr_idx()) is
  chosen by checking candidate formatters against LLVM's text on a few hundred probe values;
* the hwreg and sendmsg symbol tables are read back from LLVM too.

The C side (src/isa/scalar.c) renders register names and misalignment warnings itself; the
sweep test checks that rendering against LLVM on random words.
"""
import re

ARCHES = ("gfx942", "gfx950", "gfx90a")  # new targets go last: older tables keep their bytes
PAD = (0x12345678, 0x9ABCDEF0, 0x0FEDCBA9)  # trailing dwords: the literal LLVM sees
LIT = PAD[0]

# format -> (fixed prefix, opcode shift, opcode width, operand fields (name, shift, width))
SOP = {
    "SOP2": (0x80000000, 23, 7, (("sdst", 16, 7), ("ssrc0", 0, 8), ("ssrc1", 8, 8))),
    "SOPK": (0xB0000000, 23, 5, (("sdst", 16, 7),)),
    "SOP1": (0xBE800000, 8, 8, (("sdst", 16, 7), ("ssrc0", 0, 8))),
    "SOPC": (0xBF000000, 16, 7, (("ssrc0", 0, 8), ("ssrc1", 8, 8))),
    "SOPP": (0xBF800000, 16, 7, ()),
}
BASE_VAL = {"sdst": 8, "ssrc0": 16, "ssrc1": 24}

# Immediate print styles (must match SC_IMM_* in src/isa/scalar.c).
STYLES = ("NONE", "HEX", "U16", "UDEC", "ENDPGM", "WAITCNT", "SENDMSG", "GPRIDX", "HWREG")


def identify(w):
    """Python twin of isa_identify() for the scalar prefixes (keeps opcode sweeps honest)."""
    if w >> 30 != 2:
        return "SMEM" if w >> 26 == 0x30 else None
    top = w >> 23
    if top == 0x17D:
        return "SOP1"
    if top == 0x17E:
        return "SOPC"
    if top == 0x17F:
        return "SOPP"
    return "SOPK" if w >> 28 == 0xB else "SOP2"


# ---- immediate formatters (Python twins of the C printers) --------------------------------

def fmt_u16(v):
    return "%d" % v if v <= 64 else "0x%x" % v


def fmt_waitcnt(v):
    vm = (v & 0xF) | ((v >> 14) & 3) << 4
    exp = (v >> 4) & 7
    lgkm = (v >> 8) & 0xF
    f = [("vmcnt", vm, 63), ("expcnt", exp, 7), ("lgkmcnt", lgkm, 15)]
    allmax = all(x == m for _, x, m in f)
    return " ".join("%s(%d)" % (n, x) for n, x, m in f if allmax or x != m)


def fmt_gpridx(v):
    if v > 15:
        return "0x%x" % v
    names = ("SRC0", "SRC1", "SRC2", "DST")
    return "gpr_idx(%s)" % ",".join(n for i, n in enumerate(names) if v >> i & 1)


def fmt_hwreg(v, names):
    rid, off, size = v & 63, (v >> 6) & 31, ((v >> 11) & 31) + 1
    n = names.get(rid, "%d" % rid)
    if off == 0 and size == 32:
        return "hwreg(%s)" % n
    return "hwreg(%s, %d, %d)" % (n, off, size)


def fmt_sendmsg(v, sm):
    msg, op, st = v & 15, (v >> 4) & 7, (v >> 8) & 3
    name, ops, stream_ops = sm.get(msg, (None, None, 0))
    if name is not None:
        if ops is None:
            if op == 0 and st == 0:
                return "sendmsg(%s)" % name
        elif ops[op] is not None:
            if stream_ops >> op & 1:
                return "sendmsg(%s, %s, %d)" % (name, ops[op], st)
            if st == 0:
                return "sendmsg(%s, %s)" % (name, ops[op])
    if v & ~0x3FF == 0 and (v >> 7) & 1 == 0:
        return "sendmsg(%d, %d, %d)" % (msg, op, st)
    return "%d" % v


def fmt_imm32(v):
    """s_setreg_imm32_b32's literal prints like an inline constant when it could be one."""
    fl = {0x3F000000: "0.5", 0xBF000000: "-0.5", 0x3F800000: "1.0", 0xBF800000: "-1.0",
          0x40000000: "2.0", 0xC0000000: "-2.0", 0x40800000: "4.0", 0xC0800000: "-4.0",
          0x3E22F983: "0.15915494"}
    s = v - (1 << 32) if v >> 31 else v
    if -16 <= s <= 64:
        return "%d" % s
    return fl.get(v, "0x%x" % v)


IMM_PROBES = sorted(set(list(range(0, 300)) + [0x3FF, 0x400, 0x7FF, 0x800, 0xFFF, 0x1000, 0x3FFF,
                                                  0x4000, 0x7FFF, 0x8000, 0xBFFF, 0xC000, 0xCF7F,
                                                  0xFF00, 0xFFF0, 0xFFFF, 0x1234, 0x8F70, 0x4F7F,
                                                  0xF80, 0x3F70, 0xCF70]))


# ---- generator ----------------------------------------------------------------------------

class Gen:
    def __init__(self, ctx):
        self.ctx = ctx
        self.L = ctx.llvm
        self.classes = []       # list of tuple of (lo, hi, ann)
        self.class_ids = {}
        self.anns = [""]        # annotation strings; index 0 = none
        self.hwreg = {}         # arch -> {id: name}
        self.sendmsg = {}       # arch -> {msg: (name, ops or None, stream_ops)}

    def dis(self, arch, words):
        return self.L.dis_many(arch, [tuple(w) + PAD[:4 - len(w)] for w in words])

    def ann_id(self, s):
        if s not in self.anns:
            self.anns.append(s)
        return self.anns.index(s)

    def class_of(self, results):
        """results[v] = (size, text) for every value v of a field -> class id (0 = unused)."""
        kinds = []
        for size, text in results:
            if not size or text is None or text.startswith("<"):
                kinds.append(0)
                continue
            m = re.search(r"/\*[^*]*\*/", text)
            kinds.append(1 + self.ann_id(m.group(0)) if m else 1)
        ranges = []
        lo = 0
        for v in range(1, len(kinds) + 1):
            if v == len(kinds) or kinds[v] != kinds[lo]:
                if kinds[lo]:
                    ranges.append((lo, v - 1, kinds[lo] - 1))
                lo = v
        key = tuple(ranges)
        if key not in self.class_ids:
            self.class_ids[key] = len(self.classes) + 1
            self.classes.append(key)
        return self.class_ids[key]

    # -- symbol tables read back from LLVM --
    def probe_symbols(self, arch):
        words = [(0xB0000000 | (17 << 23) | (4 << 16) | (31 << 11) | i,) for i in range(64)]
        names = {}
        for i, (sz, t) in enumerate(self.dis(arch, words)):
            m = re.search(r"hwreg\(([A-Z_0-9]+)\)", t or "")
            if m and m.group(1).startswith("HW_REG_"):
                names[i] = m.group(1)
        self.hwreg[arch] = names
        combos = [(m, op, st) for m in range(16) for op in range(8) for st in range(4)]
        res = self.dis(arch, [(0xBF900000 | m | op << 4 | st << 8,) for m, op, st in combos])
        sm = {}
        for (m, op, st), (sz, t) in zip(combos, res):
            a = re.match(r"s_sendmsg sendmsg\((MSG_\w+)(?:, (\w+))?(?:, (\d))?\)$", t)
            if not a:
                continue
            name, opn, stn = a.groups()
            e = sm.setdefault(m, [name, None, 0])
            if opn is not None:
                if e[1] is None:
                    e[1] = [None] * 8
                e[1][op] = opn
                if stn is not None:
                    e[2] |= 1 << op
        self.sendmsg[arch] = {m: tuple(e) for m, e in sm.items()}
        # self-check the model on every 10-bit value and a few with high bits
        vals = list(range(1024)) + [0x400, 0x8001, 0xFFFF, 0x1083]
        res = self.dis(arch, [(0xBF900000 | v,) for v in vals])
        for v, (sz, t) in zip(vals, res):
            want = "s_sendmsg " + fmt_sendmsg(v, self.sendmsg[arch])
            if t != want:
                raise SystemExit("scalar: sendmsg model wrong for %#x on %s: %r vs %r"
                                 % (v, arch, t, want))

    def imm_style(self, arch, mk, mnem):
        """Find the formatter that reproduces LLVM's text for the 16-bit immediate."""
        res = self.dis(arch, [mk(v) for v in IMM_PROBES])
        legal = [v for v, (sz, t) in zip(IMM_PROBES, res) if sz]
        if legal == [0]:
            return "NONE"
        cands = {
            "HEX": lambda v: "0x%x" % v,
            "U16": fmt_u16,
            "UDEC": lambda v: "%d" % v,
            "ENDPGM": lambda v: "%d" % v,
            "WAITCNT": fmt_waitcnt,
            "SENDMSG": lambda v: fmt_sendmsg(v, self.sendmsg[arch]),
            "GPRIDX": fmt_gpridx,
            "HWREG": lambda v: fmt_hwreg(v, self.hwreg[arch]),
        }
        for name, f in cands.items():
            ok = True
            for v, (sz, t) in zip(IMM_PROBES, res):
                if not sz:
                    ok = False
                    break
                s = f(v)
                if name == "ENDPGM" and v == 0:
                    ok = t == mnem
                elif not (t.endswith(" " + s) or (" %s," % s) in t or ("%s, " % s) in t):
                    ok = False
                if not ok:
                    break
            if ok:
                return name
        raise SystemExit("scalar: no immediate style fits %s on %s: %r"
                         % (mnem, arch, res[:20]))

    # -- SOP formats --
    def sop(self, arch, fmt):
        prefix, osh, owid, fields = SOP[fmt]
        rows = {}

        def word(op, vals, imm=0):
            w = prefix | op << osh | imm
            for name, sh, wid in fields:
                w |= vals[name] << sh
            return w

        ops = [op for op in range(1 << owid)
               if identify(prefix | op << osh) == fmt]
        base = {f[0]: BASE_VAL[f[0]] for f in fields}
        imm0 = 0x1234 if fmt == "SOPK" else 0
        first = self.dis(arch, [(word(op, base, imm0),) for op in ops])
        zero = self.dis(arch, [(word(op, {f[0]: 0 for f in fields}, 0),) for op in ops])
        for op, r, rz in zip(ops, first, zero):
            if not r[0] and not rz[0]:
                continue
            mnem = (r[1] or rz[1]).split()[0]
            b = base if r[0] else {f[0]: 0 for f in fields}
            rows[op] = self.sop_op(arch, fmt, op, mnem, word, b, fields, imm0 if r[0] else 0)
            if max(r[0], rz[0]) == 8:  # 8 bytes with no literal source: s_setreg_imm32_b32
                rows[op]["flags"].append("IMM32")
                self.check_imm32(arch, word(op, b, 0x0841), mnem)
        return rows

    def check_imm32(self, arch, w0, mnem):
        vals = [0, 5, 64, 65, 0xFFFFFFFF, 0xFFFFFFF0, 0xFFFFFFEF, 0x3F800000, 0x3E22F983,
                0xC0800000, 0x12345678]
        for v, (sz, t) in zip(vals, self.dis(arch, [(w0, v) for v in vals])):
            if sz != 8 or not t.endswith(", " + fmt_imm32(v)):
                raise SystemExit("scalar: %s literal %#x prints %r" % (mnem, v, t))

    def sop_op(self, arch, fmt, op, mnem, word, base, fields, imm0):
        row = {"name": mnem, "slots": {}, "style": "NONE", "flags": []}
        for name, sh, wid in fields:
            vals = list(range(1 << wid))
            words = []
            for v in vals:
                b = dict(base)
                b[name] = v
                words.append((word(op, b, imm0),))
            res = self.dis(arch, words)
            cls = self.class_of(res)
            # 40 and 48 collide with no baseline value, so the register range found is ours
            t40, t48 = res[40][1] or "", res[48][1] or ""
            n = 0
            if t40 != t48 and res[40][0] and res[48][0]:
                m = re.search(r"(?<![\w\[])(?:s40(?![\d:])|s\[40:(\d+)\])", t40)
                if m:
                    n = int(m.group(1)) - 39 if m.group(1) else 1
                elif fmt == "SOPC" and "gpr_idx" in t40 + t48:
                    row["flags"].append("GPRIDX_SRC1")
                    n = 1
                else:
                    raise SystemExit("scalar: cannot read %s width of %s: %r" % (name, mnem, t40))
            lit_size = res[255][0] if wid == 8 else 0
            row["slots"][name] = (n, cls, lit_size)
        if fmt in ("SOPK", "SOPP"):
            b = dict(base)

            def mk(v):
                return (word(op, b, v),)
            row["style"] = self.imm_style(arch, mk, mnem)
        return row

    # -- SMEM --
    def smem(self, arch):
        rows = {}
        ops = list(range(256))

        def word(op, imm, soe, sdata, sbase, w1, glc=0):
            return (0xC0000000 | op << 18 | imm << 17 | glc << 16 | soe << 14 | sdata << 6 | sbase,
                    w1)
        variants = ((1, 0), (0, 0), (1, 1), (0, 1))
        res = {v: self.dis(arch, [word(op, v[0], v[1], 8, 3, 0x10 | 7 << 25) for op in ops])
               for v in variants}
        for op in ops:
            ok = [v for v in variants if res[v][op][0]]
            if not ok:
                continue
            mnem = res[ok[0]][op][1].split()[0]
            row = {"name": mnem, "slots": {}, "flags": [], "style": "NONE"}
            row["variants"] = sum(1 << variants.index(v) for v in ok)
            imm, soe = ok[0]
            # sdata
            r = self.dis(arch, [word(op, imm, soe, v, 3, 0x10 | 7 << 25) for v in range(128)])
            t8, t16 = r[8][1] or "", r[16][1] or ""
            n = 0
            if t8 != t16:
                m = re.search(r"(?<![\w\[])(?:s16(?![\d:])|s\[16:(\d+)\])", t16)
                if m:
                    n = int(m.group(1)) - 15 if m.group(1) else 1
                elif re.search(r" 16, ", t16):
                    row["flags"].append("SDATA_INT")
                else:
                    raise SystemExit("scalar: cannot read sdata of %s: %r" % (mnem, t16))
            row["slots"]["sdata"] = (n, self.class_of(r), 0)
            # sbase (register pairs)
            r = self.dis(arch, [word(op, imm, soe, 8, v, 0x10 | 7 << 25) for v in range(64)])
            t4, t8 = r[4][1] or "", r[8][1] or ""
            n = 0
            if t4 != t8:
                m = re.search(r"s\[16:(\d+)\]", t8)
                if not m:
                    raise SystemExit("scalar: cannot read sbase of %s: %r" % (mnem, t8))
                n = int(m.group(1)) - 15
            row["slots"]["sbase"] = (n, self.class_of(r), 0)
            # soffset from the offset field (imm=0, soe=0) and from [31:25] (soe=1)
            for name, v0, mkw1 in (("soff7", (0, 0), lambda v: v),
                                   ("soffset", (0, 1), lambda v: v << 25 | 0x10)):
                if v0 in ok:
                    r = self.dis(arch, [word(op, v0[0], v0[1], 8, 3, mkw1(v)) for v in range(128)])
                    row["slots"][name] = (1, self.class_of(r), 0)
                else:
                    row["slots"][name] = (0, 0, 0)
            # glc: legal? printed?
            g = self.dis(arch, [word(op, imm, soe, 8, 3, 0x10 | 7 << 25, 1)])[0]
            if g[0] and g[1].find(" glc") >= 0:
                row["flags"].append("GLC")
            elif not g[0]:
                row["flags"].append("NO_GLC")
            rows[op] = row
        return rows

    # -- C emission --
    def emit_rows(self, arch, fmt, rows, out, size):
        out.append("static const isa_opinfo sc_%s_%s[%d] = {\n" % (fmt.lower(), arch, size))
        for op in sorted(rows):
            r = rows[op]
            s = r["slots"]
            enum = self.ctx.op(r["name"])
            fl = ["SC_IMM_" + r["style"]] + ["SC_F_" + f for f in r["flags"]]
            if fmt == "SMEM":
                fl.append("SC_VARIANTS(%d)" % r["variants"])
                order = ("sdata", "sbase", "soff7", "soffset")
                if re.match(r"s_(buffer_|scratch_)?store", r["name"]):
                    fl.append("SC_F_STORE")
                if "_atomic_" in r["name"]:
                    fl.append("SC_F_ATOMIC")
            else:
                order = [f[0] for f in SOP[fmt][3]]
                if fmt in ("SOPK", "SOPP") and sext(r["name"]):
                    fl.append("SC_F_SEXT")
                # SOPK ops that read, not write, the register in their sdst field
                if fmt == "SOPK" and re.match(r"s_cmpk_|s_setreg_b32$|s_cbranch_i_fork$",
                                              r["name"]):
                    fl.append("SC_F_SDST_READ")
            for i, k in enumerate(order):
                if k in s and s[k][2] == 8:
                    fl.append("SC_F_LIT(%d)" % i)
            ns = [s[k][0] if k in s else 0 for k in order] + [0] * (4 - len(order))
            cl = [s[k][1] if k in s else 0 for k in order] + [0] * (4 - len(order))
            out.append("    [%d] = {%s, %d, 0, 0, {0, 0}, {%d, %d, %d, %d, 0, 0}, {0}, %s, "
                       "SC_AUX(%d, %d, %d, %d)},\n"
                       % (op, enum, op, ns[0], ns[1], ns[2], ns[3], " | ".join(fl),
                          cl[0], cl[1], cl[2], cl[3]))
        out.append("};\n\n")

    def emit(self, tables):
        out = ["/* Scalar opcode tables, one per format per target, indexed by the opcode field.\n"
               " * Row: op, encop, -, -, -, src_n[0..3] = width in dwords of operand slots 0..3 (0 = not\n"
               " * printed), flags = SC_IMM_* | SC_F_*, aux = the operand\n"
               " * class of each slot (sc_classes).  Slots: SOP2 sdst ssrc0 ssrc1; SOP1 sdst ssrc0;\n"
               " * SOPC ssrc0 ssrc1; SOPK sdst; SMEM sdata sbase soff7 soffset. */\n\n"]
        out.append("static const char *const sc_annotations[] = {\n")
        for a in self.anns:
            out.append("    \"%s\",\n" % a)
        out.append("};\n\n")
        out.append("/* Operand classes: the field values LLVM accepts, as ranges {lo, hi, annotation}. */\n")
        out.append("static const sc_range sc_class_ranges[] = {\n")
        starts = [0]
        for c in self.classes:
            out.append("    " + " ".join("{%d, %d, %d}," % r for r in c) + "\n")
            starts.append(starts[-1] + len(c))
        out.append("};\n")
        out.append("static const uint16_t sc_class_start[] = {%s};\n\n"
                   % ", ".join(str(s) for s in starts))
        for arch in ARCHES:
            for fmt, rows in tables[arch]:
                size = {"SOP2": 128, "SOPK": 32, "SOP1": 256, "SOPC": 128, "SOPP": 128,
                        "SMEM": 256}[fmt]
                self.emit_rows(arch, fmt, rows, out, size)
            out.append("static const char *const sc_hwreg_%s[64] = {\n" % arch)
            for i, n in sorted(self.hwreg[arch].items()):
                out.append("    [%d] = \"%s\",\n" % (i, n))
            out.append("};\n\n")
            out.append("static const sc_msg sc_sendmsg_%s[16] = {\n" % arch)
            for m, (name, ops, stream) in sorted(self.sendmsg[arch].items()):
                o = ", ".join("\"%s\"" % x if x else "NULL" for x in ops) if ops else ""
                out.append("    [%d] = {\"%s\", %d, %d, {%s}},\n"
                           % (m, name, 1 if ops else 0, stream, o))
            out.append("};\n\n")
        return "".join(out)


def sext(name):
    """Ops whose simm16 is a signed quantity (CDNA3 ISA 4.x: SOPK arithmetic/compare-signed,
    and every PC-relative branch)."""
    if re.match(r"s_cmpk_\w+_u32$", name):
        return False
    return bool(re.match(r"s_(movk|cmovk|addk|mulk|cmpk)_|s_branch$|s_cbranch_|s_call_b64$", name))


def generate(ctx):
    g = Gen(ctx)
    tables = {}
    for arch in ARCHES:
        g.probe_symbols(arch)
        t = []
        for fmt in ("SOP2", "SOPK", "SOP1", "SOPC", "SOPP"):
            t.append((fmt, g.sop(arch, fmt)))
        t.append(("SMEM", g.smem(arch)))
        tables[arch] = t
        print("gen_isa: scalar %s: %s" % (arch, ", ".join("%s %d" % (f, len(r)) for f, r in t)))
    return {"scalar.inc": g.emit(tables)}
