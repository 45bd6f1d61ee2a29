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

ARCHES = ("gfx942", "gfx950", "gfx90a", "gfx1100", "gfx1201")  # new targets go last: older
# tables keep their bytes
RDNA = ("gfx1100", "gfx1201")  # gfx11/gfx12: SMEM at 111101, SOPP op 54 is s_sendmsg
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
STYLES = ("NONE", "HEX", "U16", "UDEC", "ENDPGM", "WAITCNT", "SENDMSG", "GPRIDX", "HWREG",
          "WAITCNT11", "DELAY", "DEPCTR", "VERSION")


def identify(w, arch=None):
    """Python twin of isa_identify() for the scalar prefixes (keeps opcode sweeps honest)."""
    if w >> 30 != 2:
        return "SMEM" if w >> 26 == (0x3D if arch in RDNA else 0x30) else None
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


def fmt_waitcnt11(v):
    """gfx11 s_waitcnt: expcnt [2:0], lgkmcnt [9:4], vmcnt [15:10] (RDNA3 ISA, SOPP)."""
    f = [("vmcnt", v >> 10, 63), ("expcnt", v & 7, 7), ("lgkmcnt", (v >> 4) & 63, 63)]
    allmax = all(x == m for _, x, m in f)
    return " ".join("%s(%d)" % (n, x) for n, x, m in f if allmax or x != m)


DELAY_ID = ("NO_DEP", "VALU_DEP_1", "VALU_DEP_2", "VALU_DEP_3", "VALU_DEP_4", "TRANS32_DEP_1",
            "TRANS32_DEP_2", "TRANS32_DEP_3", "FMA_ACCUM_CYCLE_1", "SALU_CYCLE_1", "SALU_CYCLE_2",
            "SALU_CYCLE_3")
DELAY_SKIP = ("SAME", "NEXT", "SKIP_1", "SKIP_2", "SKIP_3", "SKIP_4")


def fmt_delay(v):
    """s_delay_alu: instid0 [3:0], instskip [6:4], instid1 [10:7]; zero fields are left out."""
    parts = []
    for name, x, names, bad in (("instid0", v & 15, DELAY_ID, "instid"),
                                ("instskip", (v >> 4) & 7, DELAY_SKIP, "instskip"),
                                ("instid1", (v >> 7) & 15, DELAY_ID, "instid")):
        if x:
            parts.append("%s(%s)" % (name, names[x] if x < len(names)
                                     else "/* invalid %s value */" % bad))
    return " | ".join(parts) if parts else "0"


DEPCTR = (("hold_cnt", 7, 1), ("sa_sdst", 0, 1), ("va_vdst", 12, 4), ("va_sdst", 9, 3),
          ("va_ssrc", 8, 1), ("va_vcc", 1, 1), ("vm_vsrc", 2, 3))


def fmt_depctr(v):
    """s_waitcnt_depctr / s_wait_alu: counters at their maximum are left out unless all are;
    bits [6:5] are not a counter and force the hex form."""
    if v & 0x60:
        return "0x%x" % v
    f = [(n, (v >> sh) & ((1 << w) - 1), (1 << w) - 1) for n, sh, w in DEPCTR]
    allmax = all(x == m for _, x, m in f)
    return " ".join("depctr_%s(%d)" % (n, x) for n, x, m in f if allmax or x != m)


def fmt_sendmsg_rdna(v, names):
    """gfx11+ message ids are 8 bits; a known id prints by name whatever the high bits hold."""
    if v & 0xFF in names:
        return "sendmsg(%s)" % names[v & 0xFF]
    if v < 256:
        return "sendmsg(%d, 0, 0)" % v
    return "%d" % v


VERSION_FLAGS = ((13, "UC_VERSION_W64_BIT"), (14, "UC_VERSION_W32_BIT"), (15, "UC_VERSION_MDP_BIT"))
VERSION_NAMES = {0: "UC_VERSION_GFX7", 4: "UC_VERSION_GFX10", 6: "UC_VERSION_GFX11",
                 9: "UC_VERSION_GFX12"}


def fmt_version(v):
    """s_version (gfx11+): bits 12:8 set give plain hex; else the low byte by name or in decimal,
    or-ed with the W64/W32/MDP flag names, each earlier expression in parentheses."""
    if v & 0x1F00:
        return "0x%x" % v
    e = VERSION_NAMES.get(v & 0xFF, "%d" % (v & 0xFF))
    n = 0
    for bit, name in VERSION_FLAGS:
        if v >> bit & 1:
            e = ("(%s)" % e if n else e) + "|" + name
            n += 1
    return e


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


# ---- source types (RDNA SALU float ops): how a constant prints, as ISA_T_* ------------------

F32C = {0x3F000000, 0xBF000000, 0x3F800000, 0xBF800000, 0x40000000, 0xC0000000, 0x40800000,
        0xC0800000, 0x3E22F983}
F16C = {0x3800, 0xB800, 0x3C00, 0xBC00, 0x4000, 0xC000, 0x4400, 0xC400, 0x3118}
T_B32, T_F16, T_B16 = 0, 1, 6  # ISA_T_* (src/isa/isa.h)
FLOATS = ("0.5", "-0.5", "1.0", "-1.0", "2.0", "-2.0", "4.0", "-4.0", "0.15915494")
F16BITS = (0x3800, 0xB800, 0x3C00, 0xBC00, 0x4000, 0xC000, 0x4400, 0xC400, 0x3118)
TYPE_PROBES = (240, 248, 193)
LIT_PROBES = (0x3800, 0x12345678, 0x3F000000, 0x41, 0xFFFF3800, 5, 0x10000, 0x3C003C00)


def const_text(enc, lit, t):
    """Python twin of isa_put_opnd() (src/isa/operand.c) for 32-bit scalar sources."""
    if enc == 255:
        s32 = lit - (1 << 32) if lit >> 31 else lit
        s16 = (lit & 0xFFFF) - 0x10000 if lit & 0x8000 else lit & 0xFFFF
        if t == T_F16:
            ok = -16 <= s16 <= 64 or (lit & 0xFFFF) in F16C
            return "lit(0x%x)" % lit if ok else "0x%x" % (lit & 0xFFFF)
        ok = -16 <= s32 <= 64 or lit in F32C
        if ok:
            return "lit(0x%x)" % lit
        return "0x%x" % (lit & 0xFFFF) if t == T_B16 else "0x%x" % lit
    if 240 <= enc <= 248:
        return "0x%x" % F16BITS[enc - 240] if t == T_B16 else FLOATS[enc - 240]
    return "%d" % (enc - 128 if enc <= 192 else 192 - enc)


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
        if arch in RDNA:
            return self.probe_sendmsg_rdna(arch)
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

    def probe_sendmsg_rdna(self, arch):
        res = self.dis(arch, [(0xBF800000 | 54 << 16 | v,) for v in range(256)])
        names = {}
        for v, (sz, t) in enumerate(res):
            a = re.match(r"s_sendmsg sendmsg\((MSG_\w+)\)$", t or "")
            if a:
                names[v] = a.group(1)
        self.sendmsg[arch] = {m: (n, None, 0) for m, n in names.items()}
        self.msgnames = getattr(self, "msgnames", {})
        self.msgnames[arch] = names
        # self-check the model on every 16-bit value
        res = self.dis(arch, [(0xBF800000 | 54 << 16 | v,) for v in range(65536)])
        for v, (sz, t) in enumerate(res):
            if t != "s_sendmsg " + fmt_sendmsg_rdna(v, names):
                raise SystemExit("scalar: sendmsg model wrong for %#x on %s: %r" % (v, arch, t))

    def check_style_full(self, arch, mk, mnem, f):
        """The RDNA immediate syntaxes are checked on all 65536 values."""
        res = self.dis(arch, [mk(v) for v in range(65536)])
        for v, (sz, t) in enumerate(res):
            if not sz or not t.endswith(" " + f(v)):
                return False
        return True

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
        if arch in RDNA:
            cands["SENDMSG"] = lambda v: fmt_sendmsg_rdna(v, self.msgnames[arch])
            full = {"WAITCNT11": fmt_waitcnt11, "DELAY": fmt_delay, "DEPCTR": fmt_depctr,
                    "VERSION": fmt_version}
            for name, f in full.items():
                ok = all(sz and t.endswith(" " + f(v)) for v, (sz, t) in zip(IMM_PROBES, res))
                if ok and self.check_style_full(arch, mk, mnem, f):
                    return name
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
               if identify(prefix | op << osh, arch) == fmt]
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
            if max(r[0], rz[0]) == 8 and re.match(r"s_fma[am]k_", mnem):
                rows[op]["flags"].append("KIMM")  # gfx12 s_fmaak/s_fmamk: a constant K dword
            elif max(r[0], rz[0]) == 8:  # 8 bytes with no literal source: s_setreg_imm32_b32
                rows[op]["flags"].append("IMM32")
                self.check_imm32(arch, word(op, b, 0x0841), mnem)
        return rows

    def src_type(self, arch, word, op, base, name, imm0, mnem):
        """Which ISA_T_* rule reproduces how LLVM prints constants in this source (gfx12's f16
        SALU ops: F16 in SOP2, B16 in SOPC)."""
        probes = [(e, PAD[0]) for e in TYPE_PROBES] + [(255, v) for v in LIT_PROBES]
        words = []
        for e, lit in probes:
            b = dict(base)
            b[name] = e
            words.append((word(op, b, imm0), lit))
        res = self.L.dis_many(arch, words)
        if any("/*" in (txt or "") for sz, txt in res):
            return T_B32  # "Invalid immediate" operands print raw (put_src_ann)
        for t in (T_B32, T_F16, T_B16):
            if all(sz and re.search(r"(^| |,)%s(,|$)" % re.escape(const_text(e, lit, t)),
                                    txt.split(" ", 1)[1])
                   for (e, lit), (sz, txt) in zip(probes, res)):
                return t
        raise SystemExit("scalar: no constant type fits %s %s on %s: %r" % (mnem, name, arch, res))

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
                elif fmt == "SOP1" and "sendmsg(" in t40 and arch in RDNA:
                    # s_sendmsg_rtn_*: ssrc0 is a message id (8 bits, printed as s_sendmsg's)
                    names = self.msgnames[arch]
                    for v, (sz, t) in enumerate(res):
                        if not t.endswith(", " + fmt_sendmsg_rdna(v, names)):
                            raise SystemExit("scalar: %s message %d prints %r" % (mnem, v, t))
                    row["flags"].append("SENDMSG_SRC")
                    n = 1
                else:
                    raise SystemExit("scalar: cannot read %s width of %s: %r" % (name, mnem, t40))
            lit_size = res[255][0] if wid == 8 else 0
            row["slots"][name] = (n, cls, lit_size)
            if arch in RDNA and name == "ssrc0" and res[125][0]:
                # LLVM 22 prints "m0 " (a trailing space) for the gfx12 barrier ops' m0 source
                b = dict(base)
                b[name] = 125
                raw = self.L.dis_raw(arch, (word(op, b, imm0),) + PAD[:3])
                if raw[0] and raw[1].endswith("m0 "):
                    row["flags"].append("M0_SPACE")
            if arch in RDNA and wid == 8 and n == 1 and lit_size == 8:
                row.setdefault("types", {})[name] = self.src_type(arch, word, op, base, name,
                                                                  imm0, mnem)
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

    # -- SMEM, RDNA layouts (gfx11 op[25:18] dlc[13] glc[14]; gfx12 op[18:13] nv[20]
    #    scope[22:21] th[24:23]; both: sdata[12:6] sbase[5:0] (pairs), dword 1 offset (21/24 bits,
    #    signed) and soffset[31:25], gfx12 scale_offset in bit 24 of dword 1) --
    def smem_rdna(self, arch):
        g12 = arch == "gfx1201"
        osh, ow = (13, 6) if g12 else (18, 8)
        cpol = ((1 << 20) | (1 << 21) | (1 << 23), 1 << 24) if g12 else ((1 << 13) | (1 << 14), 0)

        def word(op, sdata, sbase, w1, extra=0):
            return (0xF4000000 | op << osh | sdata << 6 | sbase | extra, w1)
        W1 = 0xFA000010  # soffset m0, offset 0x10
        rows = {}
        base = self.dis(arch, [word(op, 8, 2, W1) for op in range(1 << ow)])
        for op, (sz, t) in enumerate(base):
            if not sz:
                continue
            mnem = t.split()[0]
            row = {"name": mnem, "slots": {}, "flags": [], "style": "NONE", "variants": 0}
            if re.match(r"s_(buffer_)?prefetch_", mnem):
                row["flags"].append("PREFETCH")
            r = self.dis(arch, [word(op, v, 2, W1) for v in range(128)])
            t8, t16 = r[8][1] or "", r[16][1] or ""
            n = 0
            if t8 != t16:
                m = re.search(r"(?<![\w\[])(?:s16(?![\d:])|s\[16:(\d+)\])", t16)
                if m:
                    n = int(m.group(1)) - 15 if m.group(1) else 1
                elif re.search(r"(^| )16(, |$)", t16.split(" ", 1)[1]):
                    row["flags"].append("SDATA_INT")
                else:
                    raise SystemExit("scalar: cannot read sdata of %s: %r" % (mnem, t16))
            row["slots"]["sdata"] = (n, self.class_of(r), 0)
            r = self.dis(arch, [word(op, 8, v, W1) for v in range(64)])
            t4, t8 = r[4][1] or "", r[8][1] or ""
            n = 0
            if t4 != t8:
                m = re.search(r"s\[16:(\d+)\]", t8)
                if not m:
                    raise SystemExit("scalar: cannot read sbase of %s: %r" % (mnem, t8))
                n = int(m.group(1)) - 15
            row["slots"]["sbase"] = (n, self.class_of(r), 0)
            row["slots"]["soff7"] = (0, 0, 0)
            r = self.dis(arch, [word(op, 8, 2, v << 25 | 0x10) for v in range(128)])
            row["slots"]["soffset"] = (1 if r[0][1] != r[1][1] else 0, self.class_of(r), 0)
            # a negative offset (sign bit of the offset field) is rejected (gfx12 buffer loads)
            neg = self.dis(arch, [word(op, 8, 2, W1 | (0x800000 if g12 else 0x100000))])[0]
            if not neg[0]:
                row["flags"].append("UOFF")
            c = self.dis(arch, [word(op, 8, 2, W1 | cpol[1], cpol[0])])[0]
            if not c[0]:
                row["flags"].append("NO_GLC")
            elif c[1] != t:
                row["flags"].append("GLC")
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
            ty = [r.get("types", {}).get(k, 0) for k in order] + [0] * (4 - len(order))
            tys = "{%d, %d, %d, %d, 0, 0}" % tuple(ty) if any(ty) else "{0}"
            out.append("    [%d] = {%s, %d, 0, 0, {0, 0}, {%d, %d, %d, %d, 0, 0}, %s, %s, "
                       "SC_AUX(%d, %d, %d, %d)},\n"
                       % (op, enum, op, ns[0], ns[1], ns[2], ns[3], tys, " | ".join(fl),
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
            out.append("static const sc_msg sc_sendmsg_%s[%d] = {\n"
                       % (arch, 256 if arch in RDNA else 16))  # gfx11+: 8-bit message ids
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
        t.append(("SMEM", g.smem_rdna(arch) if arch in RDNA else g.smem(arch)))
        tables[arch] = t
        print("gen_isa: scalar %s: %s" % (arch, ", ".join("%s %d" % (f, len(r)) for f, r in t)))
    return {"scalar.inc": g.emit(tables)}
