"""Image tables for the RDNA targets: MIMG on gfx1100 (non-NSA and NSA forms), VIMAGE and VSAMPLE
on gfx1201.

Word layouts (RDNA3 / RDNA4 ISA manuals, "Microcode formats"; bit positions checked against
LLVM 22 by flipping one bit at a time) are in ENC below and in src/isa/image_rdna.c.

How LLVM 22 prints an image instruction is not a fixed function of the op: its decoder table picks
one "base" variant per opcode (a vdata width and an address count), and then widens vdata to the
number of dwords dmask/d16/tfe (or gather4) ask for and the address to what dim/a16 ask for, but
only when such a variant exists and the widened registers fit in v0..v255; otherwise it prints the
base variant unchanged.  So per op and encoding we measure, with low register numbers:
  - the fixed bits: which bits must keep their value (one bit flipped at a time off a legal base);
  - the printed shape (vdata dwords, address count, width of the last address) for every
    a16 x dim x data size (1..5 dwords), and the base shape (what prints when nothing widens,
    found by putting vdata at v252, where no widened tuple fits);
  - which modifiers print, the double space LLVM puts after NSA sampler mnemonics, and on gfx12
    the th/scope names (per load/store/atomic kind) and the scalar operand texts.
The C side (src/isa/image_rdna.c) redoes LLVM's size arithmetic (DstSize from dmask, gather4,
d16, tfe) and its fit check, and looks the rest up here.

Output: src/isa/gen/image_rdna.inc.
"""
import re

ARCHES = ("gfx1100", "gfx1201")
VDATA, VADDR, NSA0 = 40, 10, 20

# Modifier ids (IM_M_* in src/isa/image_rdna.c), in LLVM's printing order.
MODS = ("dmask", "dim", "unorm", "glc", "slc", "dlc", "th", "nv", "r128", "a16", "tfe", "lwe",
        "d16")

# Encodings: prefix, fields (name -> (word, shift, width)).
ENC = {
    "mimg": dict(arch="gfx1100", prefix=(0xfc000000, 0xf0000000), nw=2, fields=dict(
        nsa=(0, 0, 1), dim=(0, 2, 3), unorm=(0, 7, 1), dmask=(0, 8, 4), slc=(0, 12, 1),
        dlc=(0, 13, 1), glc=(0, 14, 1), r128=(0, 15, 1), a16=(0, 16, 1), d16=(0, 17, 1),
        op=(0, 18, 8), vaddr0=(1, 0, 8), vdata=(1, 8, 8), rsrc=(1, 16, 5), tfe=(1, 21, 1),
        lwe=(1, 22, 1), samp=(1, 26, 5))),
    "vimage": dict(arch="gfx1201", prefix=(0xfc000000, 0xd0000000), nw=3, fields=dict(
        dim=(0, 0, 3), r128=(0, 4, 1), d16=(0, 5, 1), a16=(0, 6, 1), nv=(0, 7, 1),
        op=(0, 14, 8), dmask=(0, 22, 4), vdata=(1, 0, 8), rsrc=(1, 9, 9), scope=(1, 18, 2),
        th=(1, 20, 3), tfe=(1, 23, 1), vaddr4=(1, 24, 8), vaddr0=(2, 0, 8))),
    "vsample": dict(arch="gfx1201", prefix=(0xfc000000, 0xe4000000), nw=3, fields=dict(
        dim=(0, 0, 3), tfe=(0, 3, 1), r128=(0, 4, 1), d16=(0, 5, 1), a16=(0, 6, 1),
        nv=(0, 7, 1), unorm=(0, 13, 1), op=(0, 14, 8), dmask=(0, 22, 4), vdata=(1, 0, 8),
        lwe=(1, 8, 1), rsrc=(1, 9, 9), scope=(1, 18, 2), th=(1, 20, 3), samp=(1, 23, 9),
        vaddr0=(2, 0, 8))),
}


def put(enc, w, **kv):
    w = list(w)
    for k, v in kv.items():
        i, s, n = ENC[enc]["fields"][k]
        w[i] = (w[i] & ~(((1 << n) - 1) << s)) | ((v & ((1 << n) - 1)) << s)
    return tuple(w)


def blank(enc, op):
    e = ENC[enc]
    return put(enc, (e["prefix"][1], 0, 0, 0), op=op)


def regs(enc, w, vdata=VDATA, nsa=None):
    """Probe registers: vdata, vaddr0 = 10, further addresses 20, 21, ..."""
    w = put(enc, w, vdata=vdata, vaddr0=VADDR)
    if enc == "mimg":
        if nsa:
            w = (w[0], w[1], NSA0 | (NSA0 + 1) << 8 | (NSA0 + 2) << 16 | (NSA0 + 3) << 24, 0)
        return w
    w = (w[0], w[1], VADDR | NSA0 << 8 | (NSA0 + 1) << 16 | (NSA0 + 2) << 24, w[3])
    return put(enc, w, vaddr4=NSA0 + 3) if "vaddr4" in ENC[enc]["fields"] else w


def reg_width(tok):
    m = re.match(r"v(\d+)$", tok)
    if m:
        return int(m.group(1)), 1
    m = re.match(r"v\[(\d+):(\d+)\]$", tok)
    if m:
        return int(m.group(1)), int(m.group(2)) - int(m.group(1)) + 1
    return None


def parse(text):
    """'mn  vdata, addr, rsrc[, samp] mods' -> (mn, double_space, vdata width, (count, last
    width), [scalar tokens], mods text)."""
    body = text.split(" ; ")[0]
    mn, rest = body.split(" ", 1)
    dbl = rest.startswith(" ")
    rest = rest.strip()
    vd, rest = rest.split(", ", 1)
    if rest.startswith("["):
        depth = 0
        for i, ch in enumerate(rest):
            depth += {"[": 1, "]": -1}.get(ch, 0)
            if depth == 0:
                break
        addrs, rest = rest[1:i].split(", "), rest[i + 3:]
    else:
        addr, rest = rest.split(", ", 1)
        addrs = [addr]
    ws = [reg_width(a)[1] for a in addrs]
    return mn, dbl, reg_width(vd)[1], (len(ws), ws[-1]), rest, ws


def shape(vw, addr):
    return vw | addr[0] << 5 | addr[1] << 8


def fixed_bits(L, arch, enc, base, nw):
    """(mask, value) per word: the bits that must keep the base's value."""
    probes, pos = [], []
    for i in range(nw):
        for b in range(32):
            if i == 0 and (ENC[enc]["prefix"][0] >> b & 1):
                continue
            w = list(base)
            w[i] ^= 1 << b
            probes.append(tuple(w))
            pos.append((i, b))
    res = L.dis_many(arch, probes)
    mask = [0, 0, 0]
    for (i, b), (sz, _) in zip(pos, res):
        if not sz:
            mask[i] |= 1 << b
    mask[0] |= ENC[enc]["prefix"][0] | (0xff << ENC[enc]["fields"]["op"][1])
    return mask, [base[i] & mask[i] for i in range(3)]


def free(fix, enc, name):
    f = ENC[enc]["fields"].get(name)
    return f is not None and not (fix[0][f[0]] >> f[1] & 1)


def analyse(L, enc, op, nsa, gather=None):
    arch = ENC[enc]["arch"]
    nw = 3 if enc != "mimg" or nsa else 2
    base = None
    for extra in ({}, dict(dmask=0xf, unorm=1, r128=1), dict(dmask=0xf, unorm=1, r128=1, a16=1)):
        w = blank(enc, op)
        if enc == "mimg":
            w = put(enc, w, nsa=nsa)
        w = put(enc, w, **{k: v for k, v in extra.items() if k in ENC[enc]["fields"]})
        if L.dis(arch, w)[0]:
            base = w
            break
    if base is None:
        return None
    fix = fixed_bits(L, arch, enc, base, nw)
    size, text = L.dis(arch, base)
    # BVH's a16 form has fewer address fields: the fixed bits are measured per a16
    fixes = [fix, fix]
    if free(fix, enc, "a16"):
        b1 = put(enc, base, a16=1)
        if not L.dis(arch, b1)[0] and "vaddr4" in ENC[enc]["fields"]:
            b1 = put(enc, b1, vaddr4=0)
        fixes[1] = fixed_bits(L, arch, enc, b1, nw)

    def fixw(w):
        f = fixes[(w[ENC[enc]["fields"]["a16"][0]] >> ENC[enc]["fields"]["a16"][1]) & 1]
        return tuple((w[i] & ~f[0][i]) | f[1][i] if i < 3 else w[i] for i in range(4))

    mn = text.split(" ")[0]
    # data sizes: (dmask, d16, tfe) combos and LLVM's DstSize for each
    d16s = (0, 1) if free(fix, enc, "d16") else (0,)
    tfes = (0, 1) if free(fix, enc, "tfe") else (0,)
    a16s = (0, 1) if free(fix, enc, "a16") else (0,)
    dims = range(8) if free(fix, enc, "dim") else (0,)
    fd = ENC[enc]["fields"]["dmask"]
    dmasks = (1, 3, 7, 0xf) if free(fix, enc, "dmask") else ((base[fd[0]] >> fd[1]) & 0xf,)
    keys, probes = [], []
    for a16 in a16s:
        for dim in dims:
            for dm in dmasks:
                for d16 in d16s:
                    for tfe in tfes:
                        w = put(enc, base, dim=dim, dmask=dm)
                        for k, v in (("a16", a16), ("d16", d16), ("tfe", tfe)):
                            if free(fix, enc, k):
                                w = put(enc, w, **{k: v})
                        probes.append(fixw(regs(enc, w, nsa=nsa)))
                        keys.append((a16, dim, dm, d16, tfe))
    res = L.dis_many(arch, probes)
    vw = {}
    for k, (sz, t) in zip(keys, res):
        assert sz, (enc, op, k)
        vw[k] = parse(t)
    # gather4: four dwords whatever dmask says
    # (on 2D, whose two addresses every form can widen to; the NSA form takes the non-NSA one's)
    d2 = 1 if len(dims) > 1 else 0
    k1, kf = (0, d2, 1, 0, 0), (0, d2, 0xf, 0, 0)
    if gather is None:
        gather = len(dmasks) > 1 and vw[k1][2] == 4 and vw[kf][2] == 4
    dbl = vw[keys[0]][1]
    # base shape per a16: vdata at v252, where no widened tuple fits (dst 5 with tfe, else 4)
    bases, bws = [], []
    for a16 in (0, 1):
        w = put(enc, base, dmask=0xf) if free(fix, enc, "dmask") else base
        if free(fix, enc, "a16"):
            w = put(enc, w, a16=a16)
        if free(fix, enc, "tfe"):
            w = put(enc, w, tfe=1)
        vd = 252 if free(fix, enc, "tfe") else 253
        sz, t = L.dis(arch, fixw(regs(enc, w, vdata=vd, nsa=nsa)))
        assert sz, (enc, op, "base")
        p = parse(t)
        bases.append(shape(p[2], p[3]))
        bws.append(p[5] + [0] * (5 - len(p[5])))
    shapes = [[[0] * 5 for _ in range(8)] for _ in range(2)]
    bad = 0
    for k in keys:
        a16, dim, dm, d16, tfe = k
        dst = 4 if gather else max(bin(dm).count("1"), 1)
        if d16:
            dst = (dst + 1) // 2
        if tfe:
            dst += 1
        p = vw[k]
        s = shape(p[2], p[3])
        if any(x != 1 for x in p[5][:-1]):  # only the base form (BVH) has wide inner addresses
            assert s == bases[a16], (enc, op, k)
        old = shapes[a16][dim][dst - 1]
        if old and old != s:
            bad += 1
        shapes[a16][dim][dst - 1] = s
    if len(a16s) == 1:
        shapes[1] = shapes[0]
    if len(dims) == 1:
        for a in range(2):
            for d in range(1, 8):
                shapes[a][d] = shapes[a][0]
    # modifiers that print
    shown = 0
    for i, name in enumerate(MODS):
        if name == "dmask":
            if "dmask:" in vw[k1][4] if len(dmasks) > 1 else "dmask:" in text:
                shown |= 1 << i
        elif name == "dim":
            if "dim:" in text:
                shown |= 1 << i
        elif name == "th":
            if enc != "mimg" and free(fix, enc, "th"):
                shown |= 1 << i
        elif free(fix, enc, name):
            t2 = L.dis(arch, fixw(put(enc, base, **{name: 1})))[1]
            if t2 and " " + name in t2:
                shown |= 1 << i
    # scalar operands: the resource's width (BVH: 128 bits), a sampler when its field is free
    m = re.match(r"s\[(\d+):(\d+)\]", vw[keys[0]][4])
    rsrc_n = int(m.group(2)) - int(m.group(1)) + 1 if m else 8
    sampler = free(fix, enc, "samp")
    return dict(mn=mn, fix=fix, fixes=fixes, gather=gather, dbl=dbl, bases=bases, bws=bws, shapes=shapes, bad=bad,
                shown=shown, rsrc_n=rsrc_n, sampler=sampler, size=size, base=base)


def th_texts(L, enc, r):
    """gfx12: the th/scope suffix for th * 4 + scope."""
    arch = ENC[enc]["arch"]
    base = put(enc, r["base"], dmask=0xf) if free(r["fix"], enc, "dmask") else r["base"]
    t0 = L.dis(arch, base)[1]
    out = []
    for _, t in L.dis_many(arch, [put(enc, base, th=th, scope=sc) for th in range(8)
                                  for sc in range(4)]):
        assert t.startswith(t0.split(" ; ")[0]), (t0, t)
        out.append(t.split(" ; ")[0][len(t0.split(" ; ")[0]):].strip())
    return tuple(out)


def scalar_texts(L, enc, base, field, nvals, pos):
    """Field value -> (legal, text, warning) of a scalar operand (pos: 0 the resource, 1 the
    sampler)."""
    arch = ENC[enc]["arch"]
    out = []
    for sz, t in L.dis_many(arch, [put(enc, base, **{field: v}) for v in range(nvals)]):
        if not sz:
            out.append((0, "", ""))
            continue
        warn = t.partition(" ; ")[2]
        rest = parse(t)[4]
        toks, cur, i = [], "", 0
        while i < len(rest):  # split at ", " and " " outside LLVM's /*...*/ notes
            if rest.startswith("/*", i):
                j = rest.index("*/", i) + 2
                cur, i = cur + rest[i:j], j
            elif rest.startswith(", ", i) or rest[i] == " ":
                toks.append(cur)
                cur, i = "", i + (2 if rest[i] == "," else 1)
            else:
                cur, i = cur + rest[i], i + 1
        toks.append(cur)
        out.append((sz, toks[pos], " ; " + warn if warn else ""))
    return out


def c_str(s):
    return '"%s"' % s.replace("\\", "\\\\").replace('"', '\\"')


def generate(ctx):
    L = ctx.llvm
    out = ["/* Image encodings: %s */\n\n" % ", ".join(
        "%s on %s" % (e.upper(), ENC[e]["arch"]) for e in ENC)]
    counts = []
    for enc in ENC:
        arch = ENC[enc]["arch"]
        variants = (0, 1) if enc == "mimg" else (0,)
        rows = {}
        for op in range(256):
            rs = [analyse(L, enc, op, 0)]
            if rs[0] is not None and len(variants) > 1:
                rs.append(analyse(L, enc, op, 1, rs[0]["gather"]))
            if rs[0] is None:
                assert all(r is None for r in rs), (enc, op)
                continue
            rows[op] = rs
        counts.append("%s %s: %d" % (enc.upper(), arch, len(rows)))
        ths = []
        if enc != "mimg":
            for op, rs in rows.items():
                if rs[0]["shown"] & (1 << MODS.index("th")):
                    t = th_texts(L, enc, rs[0])
                    if t not in ths:
                        ths.append(t)
                    rs[0]["th"] = ths.index(t)
        out.append("static const struct im_row im_%s_%s[256] = {\n" % (enc, arch))
        for op, rs in sorted(rows.items()):
            r0 = rs[0]
            flags = []
            if r0["gather"]:
                flags.append("IM_GATHER4")
            if r0["sampler"]:
                flags.append("IM_SAMPLER")
            if r0["rsrc_n"] == 4:
                flags.append("IM_RSRC128")
            out.append("    [%d] = {%s, %s, 0x%04x, %d, {  /* %s */\n" % (
                op, ctx.op(r0["mn"]), "|".join(flags) or "0", r0["shown"], r0.get("th", 0),
                r0["mn"]))
            for r in rs:
                if r["bad"]:
                    print("image_rdna: %s %s: %d inconsistent shapes" % (enc, r["mn"], r["bad"]))
                fx = ["{{0x%08x, 0x%08x, 0x%08x}, {0x%08x, 0x%08x, 0x%08x}}" % (
                    f[0][0], f[0][1], f[0][2], f[1][0], f[1][1], f[1][2]) for f in r["fixes"]]
                out.append("      {%d, %d, {%s}, {0x%03x, 0x%03x}, {{%s}, {%s}}, {\n" % (
                               r["size"], 1 if r["dbl"] else 0, ", ".join(fx),
                               r["bases"][0], r["bases"][1],
                               ", ".join(map(str, r["bws"][0])), ", ".join(map(str, r["bws"][1]))))
                for a16 in range(2):
                    out.append("        {%s},\n" % ", ".join(
                        "{%s}" % ", ".join("0x%03x" % s for s in r["shapes"][a16][dim])
                        for dim in range(8)))
                out.append("      }},\n")
            out.append("    }},\n")
        out.append("};\n\n")
        # scalar operands, swept on the first sampler op (rsrc and samp) and the first
        # 128-bit-rsrc op (BVH)
        rsrc_bits = ENC[enc]["fields"]["rsrc"][2]
        samp_op = next((op for op, rs in sorted(rows.items()) if rs[0]["sampler"]), None)
        plain_op = next(op for op, rs in sorted(rows.items()) if not rs[0]["sampler"]
                        and rs[0]["rsrc_n"] == 8)
        tables = [("rsrc8", plain_op, "rsrc", 0, 8), ("samp", samp_op, "samp", 1, 4)]
        r128_op = next((op for op, rs in sorted(rows.items()) if rs[0]["rsrc_n"] == 4), None)
        tables.append(("rsrc4", r128_op, "rsrc", 0, 4))
        for name, op, field, pos, _ in tables:
            if op is None or field not in ENC[enc]["fields"]:
                out.append("#define im_%s_%s NULL\n\n" % (name, enc))
                continue
            r = rows[op][0]
            vals = scalar_texts(L, enc, r["base"], field, 1 << ENC[enc]["fields"][
                field][2], pos)
            out.append("static const struct im_str im_%s_%s[%d] = {\n" % (name, enc, len(vals)))
            for v, (sz, tok, warn) in enumerate(vals):
                if sz:
                    out.append("    [%d] = {1, %s, %s},\n" % (v, c_str(tok), c_str(warn)))
            out.append("};\n\n")
        del rsrc_bits
        if enc != "mimg":
            out.append("static const char *const im_th_%s[%d][32] = {\n" % (enc, max(1, len(ths))))
            for t in ths or [("",) * 32]:
                out.append("    {%s},\n" % ", ".join(c_str(s) for s in t))
            out.append("};\n\n")
    head = ["/* Legal opcodes: %s */\n\n" % "; ".join(counts)]
    return {"image_rdna.inc": "".join(head + out)}
