"""Memory family tables: DS, FLAT/GLOBAL/SCRATCH, MUBUF, MTBUF, MIMG (gfx942, gfx950, gfx90a).

Every opcode field value of every format is run through LLVM 22 with a fixed set of probe
operands (distinct register numbers, so each printed operand can be traced back to its field),
then with single modifier bits flipped, then with odd register numbers (LLVM annotates a
misaligned register tuple with the name of the register class the operand wanted; the class
differs per operand and per variant, so it is recorded, not guessed).

Output: src/isa/gen/mem.inc with one `struct mem_row` table per format and target, indexed by
the opcode field (FLAT: [seg][op]).  The struct is declared in src/isa/mem.c.
"""
import re

ARCHES = ("gfx942", "gfx950", "gfx90a")  # new targets go last: older tables keep their bytes

# Modifier bits (MEM_B_* in src/isa/mem.c).
B_GDS, B_ACC, B_SC0, B_SC1, B_NT, B_LDS, B_OFFEN, B_IDXEN = (1 << i for i in range(8))
BIT_NAMES = {B_GDS: "GDS", B_ACC: "ACC", B_SC0: "SC0", B_SC1: "SC1", B_NT: "NT", B_LDS: "LDS",
             B_OFFEN: "OFFEN", B_IDXEN: "IDXEN"}

# Operand slots (also the src[]/dst[] layout documented in isa.h).
S_VDST, S_ADDR, S_DATA, S_DATA1 = range(4)

CLASS_RE = re.compile(r"/\*Invalid register, operand has '(\w+)' register class\*/")
REG_RE = re.compile(r"^([va])(?:(\d+)|\[(\d+):(\d+)\])(#\w+)?$")


def split_text(text, bare_mods=("gds", "sc0", "sc1", "nt", "lds", "glc", "slc", "scc")):
    """'mnemonic ops..., last mods ; warning' -> (mnemonic, [operand tokens], modifier string).
    Class comments are folded into the token as '#Class'.  bare_mods: the modifiers without a
    value the target has (mem_rdna.py passes its own), which an instruction without operands
    prints alone."""
    text = text.split(" ; ")[0]
    text = CLASS_RE.sub(r"#\1", text)
    mn, _, rest = text.partition(" ")
    parts = rest.split(", ") if rest else []
    mods = ""
    if parts:
        head, _, tail = parts[-1].partition(" ")
        parts[-1] = head
        mods = tail
        if len(parts) == 1 and (":" in head or head in bare_mods):
            mods, parts = rest, []
    return mn, parts, mods


def reg_of(tok):
    """'v[40:41]#AV_64_Align2' -> ('v', 40, 2, 'AV_64_Align2'); None for non-VGPR tokens."""
    m = REG_RE.match(tok)
    if not m:
        return None
    if m.group(2) is not None:
        lo, n = int(m.group(2)), 1
    else:
        lo, n = int(m.group(3)), int(m.group(4)) - int(m.group(3)) + 1
    return (m.group(1), lo, n, (m.group(5) or "#")[1:])


class Classes:
    """Interned register-class names (index 0 = no annotation)."""

    def __init__(self):
        self.names = [""]

    def id(self, name):
        if not name:
            return 0
        if name not in self.names:
            self.names.append(name)
        return self.names.index(name)


def slots_by_number(parts, numbers):
    """Map printed VGPR/AGPR operands to slots by their first register number."""
    out = {}
    for tok in parts:
        r = reg_of(tok)
        if r and r[1] in numbers:
            out[numbers[r[1]]] = r
    return out


# ----------------------------------------------------------------------------------------------
# DS: w0 = 110110 acc[25] op[24:17] gds[16] offset1[15:8] offset0[7:0];
#     w1 = vdst[31:24] data1[23:16] data0[15:8] addr[7:0]

def ds_words(op, vdst=0, data1=0, data0=0, addr=0, off0=0, off1=0, gds=0, acc=0):
    w0 = 0xd8000000 | (acc << 25) | (op << 17) | (gds << 16) | (off1 << 8) | off0
    w1 = (vdst << 24) | (data1 << 16) | (data0 << 8) | addr
    return (w0, w1)


DS_FIELD = (S_ADDR, S_DATA, S_DATA1, S_VDST)  # bit i of a field mask -> slot (w1 byte order)


def ds_mask_words(op, mask, regs, **kw):
    v = [regs[s] if mask >> i & 1 else 0 for i, s in enumerate(DS_FIELD)]
    return ds_words(op, vdst=v[3], data1=v[2], data0=v[1], addr=v[0], **kw)


def gen_ds(ctx, arch, classes):
    L = ctx.llvm
    regs = {S_ADDR: 10, S_DATA: 20, S_DATA1: 30, S_VDST: 40}
    odd = {S_ADDR: 11, S_DATA: 21, S_DATA1: 31, S_VDST: 41}
    probes = [ds_mask_words(op, m, regs, off0=1, off1=2, gds=g)
              for op in range(256) for g in (0, 1) for m in range(16)]
    res = L.dis_many(arch, probes)
    rows = {}
    for op in range(256):
        legal = {g: [m for m in range(16) if res[(op * 2 + g) * 16 + m][0]] for g in (0, 1)}
        g = 0 if legal[0] else 1
        off = (1, 2)
        if not legal[g]:
            # ds_nop: legal only with every field, offsets included, zero
            if not L.dis(arch, ds_words(op))[0]:
                continue
            g, off, legal = 0, (0, 0), {0: [0], 1: []}
        mask = 0
        for m in legal[g]:
            mask |= m
        kw = dict(off0=off[0], off1=off[1], gds=g)
        size, text = L.dis(arch, ds_mask_words(op, mask, regs, **kw))
        assert size == 8, (arch, op, mask)
        mn, parts, mods = split_text(text)
        numbers = {v: s for s, v in regs.items()}
        got = slots_by_number(parts, numbers)
        n = [got[s][2] if s in got else 0 for s in range(4)]
        ok = 0
        if legal[1]:
            ok |= B_GDS
        shown = 0
        if legal[1] and " gds" in L.dis(arch, ds_mask_words(op, mask, regs, off0=off[0],
                                                           off1=off[1], gds=1))[1]:
            shown |= B_GDS
        if L.dis(arch, ds_mask_words(op, mask, regs, acc=1, **kw))[0]:
            ok |= B_ACC
            shown |= B_ACC
        style = "MEM_" + ds_offset_style(off, mods)
        cls = [[[0] * 4 for _ in range(2)] for _ in range(2)]
        for acc in (0, 1):
            if acc and not ok & B_ACC:
                continue
            size, t = L.dis(arch, ds_mask_words(op, mask, odd, acc=acc, **kw))
            if size:
                got_odd = slots_by_number(split_text(t)[1], {v: s for s, v in odd.items()})
                for s, r in got_odd.items():
                    cls[0][acc][s] = cls[1][acc][s] = classes.id(r[3])
        fields = sum(1 << s for s in range(4) if mask >> DS_FIELD.index(s) & 1)
        if g == 1 and not legal[0]:
            # GWS: the addr byte holds data0; describe its width as the data slot's
            n[S_DATA], n[S_ADDR] = n[S_ADDR], 0
        rows[op] = dict(mn=mn, n=n, fields=fields, ok=ok, shown=shown, style=style,
                        gds_needed=(g == 1 and not legal[0]), cls=cls, rtn=0)
    return rows


def ds_offset_style(off, mods):
    """How a DS op prints its offset fields (the C side's *_OFF_* styles), from the modifiers
    LLVM printed with the probe offsets off = (offset0, offset1); the same on GFX9 and RDNA."""
    if off == (0, 0):
        return "OFF_NONE"
    if "offset0:" in mods:
        return "OFF_PAIR"
    if "swizzle" in mods:
        return "OFF_SWIZZLE"
    return "OFF_16"


def probe_bits(L, arch, make, text, bitlist, regs):
    """Parse an op's base text, then flip each modifier bit alone.  make(bits=..) builds the
    word.  Returns (mnemonic, widths per slot, legal bits, bits that change the text, the text
    for each legal bit)."""
    mn, parts, _ = split_text(text)
    got = slots_by_number(parts, {v: s for s, v in regs.items()})
    n = [got[s][2] if s in got else 0 for s in range(4)]
    ok = shown = 0
    texts = {}
    for b, (size, t) in zip(bitlist, L.dis_many(arch, [make(bits=b) for b in bitlist])):
        if size:
            ok |= b
            texts[b] = t
            if t != text:
                shown |= b
    return mn, n, ok, shown, texts


def probe_classes(L, arch, make_odd, ok, odd, classes, extra=0):
    """Class names LLVM reports for odd (misaligned) register tuples, per [sc0][acc][slot];
    make_odd(bits=..) builds the word with the odd registers of `odd`."""
    cls = [[[0] * 4 for _ in range(2)] for _ in range(2)]
    combos = [(sc0, acc) for sc0 in (0, 1) for acc in (0, 1)
              if not ((B_SC0 if sc0 else 0) | (B_ACC if acc else 0)) & ~ok]
    words = [make_odd(bits=(B_SC0 if sc0 else 0) | (B_ACC if acc else 0) | (extra & ok))
             for sc0, acc in combos]
    for (sc0, acc), (size, t) in zip(combos, L.dis_many(arch, words)):
        if size:
            g = slots_by_number(split_text(t)[1], {v: s for s, v in odd.items()})
            for s, r in g.items():
                cls[sc0][acc][s] = classes.id(r[3])
    return cls


# ----------------------------------------------------------------------------------------------
# FLAT/GLOBAL/SCRATCH: w0 = 110111 sc1[25] op[24:18] nt[17] sc0[16] seg[15:14] sve/lds[13]
#                           offset[12:0];  w1 = vdst[31:24] acc[23] saddr[22:16] data[15:8] addr[7:0]

def flat_words(seg, op, vdst=40, data=20, addr=10, saddr=None, bits=0, offset=0):
    if saddr is None:
        saddr = 0 if seg == 0 else 0x7f
    w0 = 0xdc000000 | (op << 18) | (seg << 14) | offset
    w0 |= (0x2000 if bits & B_LDS else 0) | (0x10000 if bits & B_SC0 else 0)
    w0 |= (0x20000 if bits & B_NT else 0) | (0x2000000 if bits & B_SC1 else 0)
    w1 = (vdst << 24) | (0x800000 if bits & B_ACC else 0) | (saddr << 16) | (data << 8) | addr
    return (w0, w1)


FLAT_BITS = (B_LDS, B_SC0, B_NT, B_SC1, B_ACC)  # order of the bits of a row's combination mask


def gen_flat_seg(ctx, arch, seg, classes):
    L = ctx.llvm
    regs = {S_VDST: 40, S_DATA: 20, S_ADDR: 10}
    odd = {S_VDST: 41, S_DATA: 21, S_ADDR: 11}
    base = L.dis_many(arch, [flat_words(seg, op) for op in range(128)])
    rows = {}
    for op in range(128):
        if not base[op][0]:
            continue
        mn, n, ok, shown, texts = probe_bits(
            L, arch, lambda bits: flat_words(seg, op, bits=bits), base[op][1], FLAT_BITS, regs)
        # atomics: sc0 selects the returning form, which prints a vdst
        rtn = 0
        if B_SC0 in texts and not n[S_VDST]:
            g = slots_by_number(split_text(texts[B_SC0])[1], {v: s for s, v in regs.items()})
            rtn = g[S_VDST][2] if S_VDST in g else 0
        # scratch: enable the VGPR address (sve) so its class shows too
        cls = probe_classes(L, arch, lambda bits: flat_words(seg, op, 41, 21, 11, bits=bits),
                            ok, odd, classes, extra=B_LDS if seg == 1 else 0)
        fields = sum(1 << s for s in range(4) if n[s])
        # Which combinations of the five modifier bits LLVM accepts: some returning atomics have
        # no AGPR form, or none with sc1 (global_atomic_add_f32, the f64 atomics).
        words = [flat_words(seg, op, bits=sum(b for i, b in enumerate(FLAT_BITS) if k >> i & 1))
                 for k in range(32)]
        combos = 0
        for k, (size, _) in enumerate(L.dis_many(arch, words)):
            bits = sum(b for i, b in enumerate(FLAT_BITS) if k >> i & 1)
            if size and not bits & ~ok:
                combos |= 1 << k
        style = "MEM_OFF_16"
        # saddr = exec decodes, but most ops flag it as the wrong register class
        if seg == 2 and "SReg_64_XEXEC" in (L.dis(arch, flat_words(seg, op, saddr=126))[1] or ""):
            style += "|MEM_EXEC_NOTE"
        rows[op] = dict(mn=mn, n=n, fields=fields, ok=ok, shown=shown, style=style,
                        gds_needed=False, cls=cls, rtn=rtn, aux=combos)
    return rows


# ----------------------------------------------------------------------------------------------
# MUBUF: w0 = 111000 op[24:18] nt[17] lds[16] sc1[15] sc0[14] idxen[13] offen[12] offset[11:0]
# MTBUF: w0 = 111010 nfmt[25:23] dfmt[22:19] op[18:15] sc0[14] idxen[13] offen[12] offset[11:0]
#        w1 (both) = soffset[31:24] acc[23] nt[22] sc1[21] srsrc[20:16] vdata[15:8] vaddr[7:0]
#        (MUBUF keeps nt/sc1 in w0; w1 bits 21/22 are unused there)

def buf_words(mtbuf, op, vdata=20, vaddr=10, bits=0, srsrc=3, soffset=1, fmt=(4, 7)):
    if mtbuf:
        w0 = 0xe8000000 | (fmt[1] << 23) | (fmt[0] << 19) | (op << 15)
        w1x = (0x200000 if bits & B_SC1 else 0) | (0x400000 if bits & B_NT else 0)
    else:
        w0 = 0xe0000000 | (op << 18)
        w0 |= (0x8000 if bits & B_SC1 else 0) | (0x10000 if bits & B_LDS else 0)
        w0 |= 0x20000 if bits & B_NT else 0
        w1x = 0
    w0 |= (0x1000 if bits & B_OFFEN else 0) | (0x2000 if bits & B_IDXEN else 0)
    w0 |= 0x4000 if bits & B_SC0 else 0
    w1 = (soffset << 24) | (0x800000 if bits & B_ACC else 0) | w1x | (srsrc << 16)
    w1 |= (vdata << 8) | vaddr
    return (w0, w1)


def gen_buf(ctx, arch, mtbuf, classes):
    L = ctx.llvm
    regs = {S_DATA: 20, S_ADDR: 10}
    odd = {S_DATA: 21, S_ADDR: 11}
    nops = 16 if mtbuf else 128
    bitlist = (B_OFFEN, B_IDXEN, B_SC0, B_SC1, B_NT, B_ACC) + (() if mtbuf else (B_LDS,))
    base = L.dis_many(arch, [buf_words(mtbuf, op) for op in range(nops)])
    # gfx90a's buffer_store_lds_dword exists only with the lds bit set (it copies LDS to memory)
    lds_only = set()
    if not mtbuf:
        extra = L.dis_many(arch, [buf_words(0, op, bits=B_LDS) for op in range(nops)])
        for op in range(nops):
            if not base[op][0] and extra[op][0]:
                lds_only.add(op)
                base[op] = extra[op]
    rows = {}
    for op in range(nops):
        if not base[op][0]:
            continue
        need = B_LDS if op in lds_only else 0
        mn, n, ok, shown, _ = probe_bits(
            L, arch, lambda bits: buf_words(mtbuf, op, bits=bits | need), base[op][1], bitlist,
            regs)
        ok |= need
        # with idxen and offen the address is a pair, so its class shows too
        cls = probe_classes(L, arch, lambda bits: buf_words(mtbuf, op, 21, 11, bits=bits), ok,
                            odd, classes, extra=B_OFFEN | B_IDXEN)
        # vdata is the destination of loads: describe it (and its class) as the vdst slot
        if "_load" in mn:
            n[S_VDST], n[S_DATA] = n[S_DATA], 0
            for sc in cls:
                for per_acc in sc:
                    per_acc[S_VDST], per_acc[S_DATA] = per_acc[S_DATA], 0
        fields = sum(1 << s for s in range(4) if n[s])
        rtn = 0
        if "atomic" in mn:  # sc0 returns the pre-op value into vdata (cmpswap: its first half)
            rtn = n[S_DATA] // 2 if "cmpswap" in mn else n[S_DATA]
        rows[op] = dict(mn=mn, n=n, fields=fields, ok=ok, shown=shown,
                        style="MEM_OFF_16|MEM_NEED_LDS" if need else "MEM_OFF_16",
                        gds_needed=False, cls=cls, rtn=rtn)
    return rows


# ----------------------------------------------------------------------------------------------
# MIMG (gfx90a; gfx940+ has no image instructions):
#   w0 = 111100 slc[25] op[24:18] lwe[17] acc[16] a16[15] da[14] glc[13] unorm[12] dmask[11:8]
#        scc[7] (bit 0 must be 0; bits 6:1 are ignored)
#   w1 = d16[31] ssamp[25:21] srsrc[20:16] vdata[15:8] vaddr[7:0]
# The modifier bits, their names and the order LLVM prints them in are probed, not assumed.
# LLVM sizes vdata from dmask (and d16) after decoding; the width per (d16, dmask) is recorded
# as LLVM prints it, so the atomics' missing 4-dword forms and cmpswap's 2-dword minimum are
# facts of the table.

MIMG_MOD_BITS = [(0, b) for b in (0, 1, 2, 3, 4, 5, 6, 7, 12, 13, 14, 15, 16, 17, 25)] + \
    [(1, b) for b in (26, 27, 28, 29, 30, 31)]


def mimg_words(op, dmask=1, vaddr=10, vdata=20, srsrc=2, ssamp=0, mods=()):
    w = [0xf0000000 | (op << 18) | (dmask << 8), vaddr | (vdata << 8) | (srsrc << 16) | (ssamp << 21)]
    for word, b in mods:
        w[word] |= 1 << b
    return tuple(w)


def vdata_width(text):
    r = reg_of(split_text(text)[1][0])
    return r[2] if r else 0


def gen_mimg(ctx, arch, classes):
    L = ctx.llvm
    base = L.dis_many(arch, [mimg_words(op) for op in range(128)])
    rows = {}
    mods_order = None
    for op in range(128):
        if not base[op][0]:
            continue
        text = base[op][1]
        mn, parts, _ = split_text(text)
        sampler = len(parts) == 4
        widths = [[0] * 16 for _ in range(2)]
        words = [mimg_words(op, dmask=dm, mods=((1, 31),) if d16 else ()) for d16 in (0, 1)
                 for dm in range(16)]
        for i, (size, t) in enumerate(L.dis_many(arch, words)):
            if size:
                widths[i // 16][i % 16] = vdata_width(t)
        ok = [0, 0]
        shown = []
        res = L.dis_many(arch, [mimg_words(op, mods=(m,)) for m in MIMG_MOD_BITS])
        for m, (size, t) in zip(MIMG_MOD_BITS, res):
            if m == (1, 31):
                continue  # d16: the width table says where it is legal
            if size:
                ok[m[0]] |= 1 << m[1]
                if t != text and t.startswith(text):
                    shown.append((m, t[len(text):].strip()))
                elif t != text:
                    assert m == (0, 16), (arch, mn, m, t)  # acc: vdata becomes an AGPR
        # print order: every shown bit at once (d16 too where legal), tokens as LLVM orders them
        allm = tuple(m for m, _ in shown) + (((1, 31),) if any(widths[1]) else ())
        size, t = L.dis(arch, mimg_words(op, mods=allm))
        assert size, (arch, mn)
        order = split_text(t)[2].split()
        order = [tok for tok in order if not tok.startswith("dmask:")]
        if mods_order is None:
            mods_order = order
        # class names LLVM reports for a misaligned vdata of the op's decoded width
        cls = [0, 0]
        for acc in (0, 1):
            if acc and not ok[0] >> 16 & 1:
                continue
            size, t = L.dis(arch, mimg_words(op, vdata=21, mods=((0, 16),) if acc else ()))
            if size:
                r = reg_of(split_text(CLASS_RE.sub(r"#\1", t))[1][0])
                cls[acc] = classes.id(r[3]) if r else 0
        rows[op] = dict(mn=mn, sampler=sampler, widths=widths, ok=ok, shown=dict(shown), cls=cls)
    return rows, mods_order


def mimg_c(ctx, arch, rows, order):
    out = ["/* MIMG on %s: [op] = {info, vdata dwords per [d16][dmask] (0: illegal), legal bits\n"
           " * of w0 and w1, sampler (prints ssamp), class-name id of a misaligned vdata per acc} */\n"
           % arch]
    out.append("static const struct mimg_row mem_mimg_%s[128] = {\n" % arch)
    for op in sorted(rows):
        r = rows[op]
        info = "{%s, %d, 0, 5, {0, 0}, {0, 0, 0, 0, 0, 0}, {0}, %s, 0}" % (
            ctx.op(r["mn"]), op, kind_flags(r["mn"]))
        wd = ", ".join("{%s}" % ", ".join(str(x) for x in r["widths"][d]) for d in (0, 1))
        out.append("    [%d] = {%s, {%s}, {0x%xu, 0x%xu}, %d, {%d, %d}},  /* %s */\n" % (
            op, info, wd, r["ok"][0], r["ok"][1], 1 if r["sampler"] else 0, r["cls"][0],
            r["cls"][1], r["mn"]))
    out.append("};\n\n")
    # the modifier names in LLVM's order, with the bit each one is read from
    names = {}
    for r in rows.values():
        for m, name in r["shown"].items():
            names[name] = m
    names["d16"] = (1, 31)
    out.append("/* MIMG modifiers on %s in the order LLVM prints them: {word, bit, name} */\n" % arch)
    out.append("static const struct mimg_mod mem_mimg_mods_%s[] = {\n" % arch)
    for tok in order:
        word, b = names[tok]
        out.append('    {%d, %d, "%s"},\n' % (word, b, tok))
    out.append("    {0, 0, NULL},\n};\n\n")
    return out


# ----------------------------------------------------------------------------------------------

def kind_flags(mn):
    """Operation kind, from the mnemonic (LLVM's names follow the manual's)."""
    f = []
    if "atomic" in mn or (mn.startswith("ds_") and not re.match(
            r"ds_(read|write|swizzle|permute|bpermute|append|consume|gws|nop)", mn)):
        f.append("ISA_MF_ATOMIC")
    if "_rtn_" in mn or mn.endswith("_rtn"):
        f.append("ISA_MF_RTN")
    if re.search(r"(_load|ds_read|ds_swizzle|ds_permute|ds_bpermute|ds_append|ds_consume)", mn):
        f.append("ISA_MF_LOAD")
    if re.search(r"(_store|ds_write)", mn) and "wrxchg" not in mn:
        f.append("ISA_MF_STORE")
    if "_lds_" in mn:
        f.append("ISA_MF_LDS")
    if "d16" in mn:
        f.append("ISA_MF_D16")
    if "d16_hi" in mn:
        f.append("ISA_MF_D16_HI")
    if "_format" in mn:
        f.append("ISA_MF_FORMAT")
    return "|".join(f) or "0"


def cpol_names(L, arch):
    """The words LLVM prints for the SC0, NT and SC1 bit positions (gfx940+: sc0/nt/sc1; gfx90a:
    glc/slc/scc, same bits), read off global_load_dword with one bit set at a time."""
    op = 0x14  # global_load_dword
    base = L.dis(arch, flat_words(2, op))[1]
    names = []
    for b in (B_SC0, B_NT, B_SC1):
        t = L.dis(arch, flat_words(2, op, bits=b))[1]
        assert t and t.startswith(base), (arch, b, t)
        names.append(t[len(base):].strip())
    return names


def bits_c(b):
    names = ["MEM_B_" + BIT_NAMES[x] for x in sorted(BIT_NAMES) if b & x]
    return "|".join(names) or "0"


def row_c(ctx, enc, r):
    n = r["n"]
    op = ctx.op(r["mn"])
    cls = ctx.mem_cls_sets.id(tuple(c for s in (0, 1) for a in (0, 1) for c in r["cls"][s][a]))
    info = "{%s, %d, %d, 5, {%d, 0}, {%d, %d, %d, 0, 0, 0}, {0}, %s, 0x%xu}" % (
        op, enc, 1 if n[S_VDST] else 0, n[S_VDST], n[S_ADDR], n[S_DATA], n[S_DATA1],
        kind_flags(r["mn"]), r.get("aux", 0))
    extra = "|MEM_NEED_GDS" if r["gds_needed"] else ""
    return "    [%d] = {%s, %d, %s, %s, %s%s, %d, %d},  /* %s */\n" % (
        enc, info, r["fields"], bits_c(r["ok"]), bits_c(r["shown"]), r["style"], extra,
        r["rtn"], cls, r["mn"])


def generate(ctx):
    classes = Classes()
    ctx.mem_cls_sets = Classes()
    ctx.mem_cls_sets.names = [(0,) * 16]
    out = []
    counts = []
    for arch in ARCHES:
        ds = gen_ds(ctx, arch, classes)
        out.append("static const struct mem_row mem_ds_%s[256] = {\n" % arch)
        out += [row_c(ctx, op, ds[op]) for op in sorted(ds)]
        out.append("};\n\n")
        counts.append("DS %s: %d" % (arch, len(ds)))
        out.append("static const struct mem_row mem_flat_%s[3][128] = {\n" % arch)
        for seg in range(3):
            fl = gen_flat_seg(ctx, arch, seg, classes)
            out.append("  [%d] = {\n" % seg)
            out += ["  " + row_c(ctx, op, fl[op]) for op in sorted(fl)]
            out.append("  },\n")
            counts.append("FLAT seg%d %s: %d" % (seg, arch, len(fl)))
        out.append("};\n\n")
        for mt, name, nops in ((0, "mubuf", 128), (1, "mtbuf", 16)):
            rows = gen_buf(ctx, arch, mt, classes)
            out.append("static const struct mem_row mem_%s_%s[%d] = {\n" % (name, arch, nops))
            out += [row_c(ctx, op, rows[op]) for op in sorted(rows)]
            out.append("};\n\n")
            counts.append("%s %s: %d" % (name.upper(), arch, len(rows)))
    for arch in ARCHES:
        rows, order = gen_mimg(ctx, arch, classes)
        if rows:
            out += mimg_c(ctx, arch, rows, order)
            counts.append("MIMG %s: %d" % (arch, len(rows)))
    for arch in ARCHES:
        names = cpol_names(ctx.llvm, arch)
        out.append("/* cache-policy bits as LLVM names them on %s: MEM_B_SC0, MEM_B_NT, MEM_B_SC1 */\n"
                   % arch)
        out.append("static const char *const mem_cpol_%s[3] = {%s};\n\n"
                   % (arch, ", ".join('"%s"' % n for n in names)))
    head = ["/* Legal opcodes: %s */\n\n" % "; ".join(counts)]
    head.append("/* Register-class names LLVM prints for a misaligned register tuple. */\n")
    head.append("static const char *const mem_class_names[] = {\n")
    head += ['    "%s",\n' % c for c in classes.names]
    head.append("};\n\n")
    head.append("/* Class-name ids per [sc0][acc][slot] (slots: vdst, addr, data, data1); rows\n"
                " * index this list. */\n")
    head.append("static const uint8_t mem_class_sets[][2][2][4] = {\n")
    for t in ctx.mem_cls_sets.names:
        head.append("    {{{%s}, {%s}}, {{%s}, {%s}}},\n" % tuple(
            ", ".join(str(c) for c in t[i:i + 4]) for i in (0, 4, 8, 12)))
    head.append("};\n\n")
    return {"mem.inc": "".join(head + out)}
