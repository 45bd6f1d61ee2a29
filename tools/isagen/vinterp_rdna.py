"""VINTERP tables for the RDNA targets (gfx1100, gfx1201).

Layout (RDNA3 / RDNA4 ISA manuals, "VINTERP"; bit positions checked against LLVM 22):
  w0: 11001101 op[22:16] clamp[15] op_sel[14:11] (src0, src1, src2, dst) wait_exp[10:8]
      vdst[7:0]
  w1: neg[31:29] (src0, src1, src2) src2[26:18] src1[17:9] src0[8:0]
A source field of 255 reads a 32-bit literal after the word (LLVM accepts it and flags it as an
invalid immediate).

LLVM prints the operands differently per op and target: gfx11 names the 16-bit operands of the
f16 ops as VGPR halves (v1.l, v1.h by op_sel) and reads their fields as VGPR numbers only,
gfx12 prints plain registers; scalar and constant encodings print with LLVM's invalid-register
or invalid-immediate notes.  Rather than re-derive that, we disassemble every value of every
operand field for each op, with each neg and op_sel bit, and store the token LLVM prints (a
string pool and, per op/operand/neg/op_sel, an index per field value; identical index lists are
shared).  The opcode field, the accepted op_sel bits and which bits must be zero are measured
the same way.

Output: src/isa/gen/vinterp_rdna.inc (read by src/isa/vinterp_rdna.c).
"""
ARCHES = ("gfx1100", "gfx1201")
LIT = 255
PAD = 0x12345678
BASE_SRC = (256 + 1, 256 + 2, 256 + 3)


def word(op, vdst=0, srcs=BASE_SRC, opsel=0, neg=0, clamp=0, wait=0):
    w0 = 0xcd000000 | op << 16 | clamp << 15 | opsel << 11 | wait << 8 | vdst
    w1 = neg << 29 | srcs[2] << 18 | srcs[1] << 9 | srcs[0]
    return (w0, w1, PAD, PAD)


def split_ops(text):
    """'mn a, b, c, d mods' -> (mn, [a, b, c, d], mods); an operand's LLVM note
    (/*Invalid register, operand has ...*/) and neg(...) may hold ', ' and ' '."""
    mn, rest = text.split(" ", 1)
    parts, cur, depth, i = [], "", 0, 0
    while i < len(rest):
        if rest.startswith("/*", i):
            j = rest.index("*/", i) + 2
            cur += rest[i:j]
            i = j
            continue
        ch = rest[i]
        depth += {"(": 1, ")": -1}.get(ch, 0)
        if depth == 0 and rest.startswith(", ", i):
            parts.append(cur)
            cur, i = "", i + 2
            continue
        if depth == 0 and ch == " " and len(parts) == 3:
            return mn, parts + [cur], rest[i + 1:]
        cur += ch
        i += 1
    return mn, parts + [cur], ""


class Pool:
    def __init__(self):
        self.strings = [""]
        self.index = {"": 0}
        self.lists = []

    def s(self, t):
        if t not in self.index:
            self.index[t] = len(self.strings)
            self.strings.append(t)
        return self.index[t]

    def lst(self, ids):
        ids = tuple(ids)
        if ids not in self.lists:
            self.lists.append(ids)
        return self.lists.index(ids)


def generate_arch(L, arch, ctx, pool):
    res = L.dis_many(arch, [word(op) for op in range(128)])
    ops = {op: t.split(" ")[0] for op, (sz, t) in enumerate(res) if sz}
    rows = {}
    for op, mn in sorted(ops.items()):
        # bits that must be zero: flip each bit of w0 (outside opcode and prefix) and w1
        base = word(op)
        probes, pos = [], []
        for wi in range(2):
            for b in range(32):
                if wi == 0 and b >= 16:
                    continue
                w = list(base)
                w[wi] ^= 1 << b
                probes.append(tuple(w))
                pos.append((wi, b))
        zero = [0, 0]
        for (wi, b), (sz, _) in zip(pos, L.dis_many(arch, probes)):
            if not sz:
                zero[wi] |= 1 << b
        opsel_ok = ~(zero[0] >> 11) & 0xf
        # operand tokens: dst over 256 values, sources over 512, each neg/op_sel bit
        tabs = []
        for slot in range(4):
            variants = []
            for neg in (0, 1):
                for sel in (0, 1):
                    if slot == 3 and neg:
                        variants.append(None)
                        continue
                    if sel and not opsel_ok >> slot & 1:
                        variants.append(None)
                        continue
                    sel_bits = sel << slot if slot < 3 else sel << 3
                    nv = 256 if slot == 3 else 512
                    probes = []
                    for v in range(nv):
                        if slot == 3:
                            probes.append(word(op, vdst=v, opsel=sel_bits))
                        else:
                            s = list(BASE_SRC)
                            s[slot] = v
                            probes.append(word(op, srcs=tuple(s), opsel=sel_bits,
                                               neg=neg << slot))
                    ids = []
                    for v, (sz, t) in zip(range(nv), L.dis_many(arch, probes)):
                        if not sz or (v == LIT and slot < 3):
                            ids.append(0)
                            continue
                        toks = split_ops(t)[1]
                        tok = toks[0] if slot == 3 else toks[slot + 1]
                        ids.append(pool.s(tok))
                    variants.append(pool.lst(ids))
            tabs.append(variants)
        # the literal: legal for which sources (printed by the C side)
        lit_ok = 0
        for slot in range(3):
            s = list(BASE_SRC)
            s[slot] = LIT
            if L.dis(arch, word(op, srcs=tuple(s)))[0] == 12:  # not gfx11's v255 of a half
                lit_ok |= 1 << slot
        # op_sel prints only on the ops with 16-bit operands (the f32 ones accept and hide it)
        shown = 0
        if opsel_ok & 1:
            shown = 1 if "op_sel" in L.dis(arch, word(op, opsel=1))[1] else 0
        rows[op] = dict(mn=mn, zero=zero, opsel_ok=opsel_ok | shown << 7, tabs=tabs,
                        lit_ok=lit_ok)
    return rows


def c_str(s):
    return '"%s"' % s.replace("\\", "\\\\").replace('"', '\\"')


def generate(ctx):
    L = ctx.llvm
    out = []
    pool = Pool()
    per = {}
    for arch in ARCHES:
        per[arch] = generate_arch(L, arch, ctx, pool)
    out.append("/* Operand tokens as LLVM 22 prints them */\n")
    out.append("static const char *const vi_str[%d] = {\n" % len(pool.strings))
    out += ["    %s,\n" % c_str(s) for s in pool.strings]
    out.append("};\n\n")
    out.append("/* Per operand and neg/op_sel: the token of each field value (0: illegal) */\n")
    out.append("static const uint16_t vi_tok[%d][512] = {\n" % len(pool.lists))
    for ids in pool.lists:
        ids = list(ids) + [0] * (512 - len(ids))
        out.append("    {%s},\n" % ", ".join(map(str, ids)))
    out.append("};\n\n")
    for arch in ARCHES:
        rows = per[arch]
        out.append("static const struct vi_row vi_%s[128] = {\n" % arch)
        for op, r in sorted(rows.items()):
            tabs = ", ".join("{%s}" % ", ".join(str(-1 if x is None else x) for x in t)
                             for t in r["tabs"])
            out.append("    [%d] = {%s, {0x%08x, 0x%08x}, 0x%x, 0x%x, {%s}},  /* %s */\n" % (
                op, ctx.op(r["mn"]), r["zero"][0], r["zero"][1], r["opsel_ok"], r["lit_ok"],
                tabs, r["mn"]))
        out.append("};\n\n")
    return {"vinterp_rdna.inc": "".join(out)}
