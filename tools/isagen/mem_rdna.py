"""Memory family tables for the RDNA targets: DS, FLAT/GLOBAL/SCRATCH and MUBUF/MTBUF on gfx1100,
DS, VFLAT/VGLOBAL/VSCRATCH and VBUFFER on gfx1201.

The word layouts (RDNA3/RDNA4 ISA manuals, "Microcode formats"; bit positions checked against
LLVM 22) are in src/isa/mem_rdna.c, which reads these tables.  For every opcode field value we
disassemble probe words with distinct register numbers (vdst 40, data 20, data1 30, addr 10) and
read off the mnemonic and the width of every printed register operand; then which modifier bits
the op accepts and which change its text.  The scalar operand fields (saddr, soffset, srsrc) and
the gfx12 th/scope and MTBUF format fields are swept through every value on one representative op
and stored as the exact text LLVM prints for each value (with its "Invalid register" note or
alignment warning), so the C side prints facts rather than rules.

Output: src/isa/gen/mem_rdna.inc.  The CDNA tables (tools/isagen/mem.py, mem.inc) are separate
and untouched.
"""
import re

from .mem import kind_flags as cdna_kind_flags, reg_of, CLASS_RE, ds_offset_style, split_text

ARCHES = ("gfx1100", "gfx1201")
V_DST, V_ADDR, V_DATA, V_DATA1 = 40, 10, 20, 30
SLOT = {V_DST: 0, V_ADDR: 1, V_DATA: 2, V_DATA1: 3}

# Modifier bits of a row (RM_B_* in src/isa/mem_rdna.c).
B_GDS, B_GLC, B_SLC, B_DLC, B_TFE, B_RTN, B_NV, B_SCALE = (1 << i for i in range(8))
BIT_NAMES = {B_GDS: "GDS", B_GLC: "GLC", B_SLC: "SLC", B_DLC: "DLC", B_TFE: "TFE", B_RTN: "RTN",
             B_NV: "NV", B_SCALE: "SCALE"}


def operands(text):
    """'mn a, b, c mods ; warn' -> (mn, [tokens], mods), as mem.split_text with RDNA's bare
    modifiers."""
    return split_text(text, ("gds", "glc", "slc", "dlc", "nv", "tfe"))


def widths(parts):
    """Printed VGPR operands keyed by slot (by their first register number): width in dwords."""
    n = [0, 0, 0, 0]
    for tok in parts:
        r = reg_of(tok)
        if r and r[0] == "v" and r[1] in SLOT:
            n[SLOT[r[1]]] = r[2]
    return n


def last_token(text, pos=-1):
    """An operand (default: the last) as printed (class note restored) and the trailing
    warning, if any."""
    body, _, warn = text.partition(" ; ")
    body = CLASS_RE.sub(r"#\1", body)
    tok = body.split(", ")[pos].split(" ")[0]
    tok = re.sub(r"#(\w+)", r"/*Invalid register, operand has '\1' register class*/", tok)
    return tok, (" ; " + warn if warn else "")


def kind_flags(mn):
    """mem.py's kinds, with the RDNA LDS names mapped to the GFX9 ones they replace
    (ds_load_* = ds_read_*, ds_store_* = ds_write_*, ds_storexchg_* = ds_wrxchg_*)."""
    if mn.startswith("ds_"):
        mn = mn.replace("ds_storexchg", "ds_wrxchg").replace("ds_load", "ds_read")
        mn = mn.replace("ds_store", "ds_write")
    return cdna_kind_flags(mn)


# ---- word builders ------------------------------------------------------------------------------
# gfx11 DS:   w0 = 110110 op[25:18] gds[17] offset1[15:8] offset0[7:0]; w1 as CDNA
# gfx12 DS:   the same without gds

def ds_words(arch, op, regs=(0, 0, 0, 0), off=(0, 0), gds=0):
    vdst, addr, data, data1 = regs
    w0 = 0xd8000000 | (op << 18) | (gds << 17) | (off[1] << 8) | off[0]
    return (w0, (vdst << 24) | (data1 << 16) | (data << 8) | addr, 0, 0)


# gfx11 FLAT: w0 = 110111 op[24:18] seg[17:16] slc[15] glc[14] dlc[13] offset[12:0]
#             w1 = vdst[31:24] sve[23] saddr[22:16] data[15:8] addr[7:0]
# gfx12 VFLAT: w0 = 111011 seg[25:24] op[21:14] nv[7] saddr[6:0]
#             w1 = data[30:23] th[22:20] scope[19:18] sve[17] scale_offset[16] vdst[7:0]
#             w2 = offset[31:8] (signed) addr[7:0]
NULL = 124


def flat_words(arch, seg, op, vdst=V_DST, data=V_DATA, addr=V_ADDR, saddr=NULL, sve=0, bits=0,
               th=0):
    if arch == "gfx1100":
        w0 = 0xdc000000 | (op << 18) | (seg << 16)
        w0 |= (0x4000 if bits & B_GLC else 0) | (0x8000 if bits & B_SLC else 0)
        w0 |= 0x2000 if bits & B_DLC else 0
        return (w0, (vdst << 24) | (sve << 23) | (saddr << 16) | (data << 8) | addr, 0, 0)
    w0 = 0xec000000 | (seg << 24) | (op << 14) | saddr | (0x80 if bits & B_NV else 0)
    w1 = (data << 23) | (th << 20) | (sve << 17) | vdst | (0x10000 if bits & B_SCALE else 0)
    return (w0, w1, addr, 0)


# gfx11 MUBUF: w0 = 111000 op[25:18] glc[14] dlc[13] slc[12] offset[11:0]
# gfx11 MTBUF: w0 = 111010 format[25:19] op[18:15] glc[14] dlc[13] slc[12] offset[11:0]
#              w1 (both) = soffset[31:24] idxen[23] offen[22] tfe[21] srsrc[20:16] (x4)
#                          vdata[15:8] vaddr[7:0]
# gfx12 VBUFFER: w0 = 110001 op[21:14] tfe[22] nv[7] soffset[6:0]
#              w1 = idxen[31] offen[30] format[29:23] th[22:20] scope[19:18] srsrc[15:9]
#                   vdata[7:0];  w2 = offset[31:8] vaddr[7:0]

def buf_words(arch, mt, op, vdata=V_DATA, vaddr=V_ADDR, soff=1, rsrc=3, bits=0, fmt=1, th=0,
              idxen=0, offen=0):
    tfe = 1 if bits & B_TFE else 0
    if arch == "gfx1100":
        if mt:
            w0 = 0xe8000000 | (fmt << 19) | (op << 15)
        else:
            w0 = 0xe0000000 | (op << 18)
        w0 |= (0x4000 if bits & B_GLC else 0) | (0x1000 if bits & B_SLC else 0)
        w0 |= 0x2000 if bits & B_DLC else 0
        w1 = (soff << 24) | (idxen << 23) | (offen << 22) | (tfe << 21) | (rsrc << 16)
        return (w0, w1 | (vdata << 8) | vaddr, 0, 0)
    w0 = 0xc4000000 | (op << 14) | (tfe << 22) | soff | (0x80 if bits & B_NV else 0)
    w1 = (idxen << 31) | (offen << 30) | (fmt << 23) | (th << 20) | ((rsrc * 4) << 9) | vdata
    return (w0, w1, vaddr, 0)


# ---- DS -----------------------------------------------------------------------------------------

def gen_ds(L, arch):
    regs = (V_DST, V_ADDR, V_DATA, V_DATA1)
    gdss = (0, 1) if arch == "gfx1100" else (0,)

    def masked(m):
        return tuple(regs[s] if m >> s & 1 else 0 for s in range(4))

    probes = [ds_words(arch, op, masked(m), (1, 2), g) for op in range(256) for g in gdss
              for m in range(16)]
    res = L.dis_many(arch, probes)
    zero = L.dis_many(arch, [ds_words(arch, op) for op in range(256)])  # ds_nop: all fields 0
    ng = len(gdss)
    found = {}
    for op in range(256):
        legal = {g: [m for m in range(16) if res[(op * ng + g) * 16 + m][0]] for g in gdss}
        g = 0 if legal[0] else (1 if ng == 2 and legal[1] else None)
        off = (1, 2)
        if g is None:
            if not zero[op][0]:
                continue
            g, off, legal = 0, (0, 0), {0: [0], 1: []}
        mask = 0
        for m in legal[g]:
            mask |= m
        found[op] = (legal, g, off, mask)
    ops = sorted(found)
    texts = L.dis_many(arch, [ds_words(arch, op, masked(found[op][3]), found[op][2], found[op][1])
                              for op in ops])
    gtexts = L.dis_many(arch, [ds_words(arch, op, masked(found[op][3]), found[op][2], 1)
                               for op in ops])
    rows = {}
    for op, (size, text), (_, gtext) in zip(ops, texts, gtexts):
        legal, g, off, mask = found[op]
        assert size == 8, (arch, op, mask)
        mn, parts, mods = operands(text)
        n = widths(parts)
        ok = shown = 0
        if ng == 2 and legal[1]:
            ok |= B_GDS
            if " gds" in (gtext or ""):
                shown |= B_GDS
        style = "RM_" + ds_offset_style(off, mods)
        need_gds = ng == 2 and g == 1 and not legal[0]
        if need_gds:  # GWS: data0 sits in the addr byte; describe its width as data's
            n[2], n[1] = n[1], 0
        rows[op] = dict(mn=mn, n=n, fields=mask, ok=ok, shown=shown,
                        style=style + ("|RM_NEED_GDS" if need_gds else ""), rtn=0)
    return rows


# ---- FLAT / GLOBAL / SCRATCH ---------------------------------------------------------------

def gen_flat(L, arch, seg):
    g11 = arch == "gfx1100"
    sve = 1 if seg == 1 else 0
    rtn_bits = dict(bits=B_GLC) if g11 else dict(th=1)
    bitlist = (B_GLC, B_SLC, B_DLC) if g11 else (B_NV, B_SCALE)
    # global and flat: saddr off (two-dword vaddr); scratch: sve with saddr off (one vaddr)
    base = L.dis_many(arch, [flat_words(arch, seg, op, sve=sve)
                             for op in range(256 if not g11 else 128)])
    legal = [op for op, (size, _) in enumerate(base) if size]
    # per op, in one batch: each modifier bit alone, the returning form, saddr = exec
    probes = []
    for op in legal:
        probes += [flat_words(arch, seg, op, sve=sve, bits=b) for b in bitlist]
        probes.append(flat_words(arch, seg, op, sve=sve, **rtn_bits))
        probes.append(flat_words(arch, seg, op, saddr=126))
    res = L.dis_many(arch, probes)
    per = len(bitlist) + 2
    rows = {}
    for i, op in enumerate(legal):
        text = base[op][1]
        got = res[i * per:(i + 1) * per]
        mn, parts, _ = operands(text)
        n = widths(parts)
        style = "0"
        if seg == 2 and not n[1]:
            style = "RM_NO_VADDR"  # global_*_addtid: saddr only
        # saddr = exec decodes; most ops flag it as the wrong register class (the strings table
        # says so), a few print it plainly
        if seg == 2 and got[-1][0] and "Invalid register" not in got[-1][1]:
            style += "|RM_EXEC_PLAIN"
        ok = shown = 0
        for b, (s2, t2) in zip(bitlist, got):
            if s2:
                ok |= b
                if t2 != text:
                    shown |= b
        rtn = 0
        s2, t2 = got[-2]
        if s2 and "atomic" in mn:
            w = widths(operands(t2)[1])
            if w[0] and not n[0]:
                rtn = w[0]
                ok |= B_RTN
        fields = sum(1 << s for s in range(4) if n[s])
        rows[op] = dict(mn=mn, n=n, fields=fields, ok=ok, shown=shown, style=style, rtn=rtn)
    return rows


# ---- MUBUF / MTBUF / VBUFFER --------------------------------------------------------------------

def gen_buf(L, arch, mt):
    g11 = arch == "gfx1100"
    nops = 16 if mt else 256
    bitlist = (B_GLC, B_SLC, B_DLC, B_TFE) if g11 else (B_NV, B_TFE)
    base = L.dis_many(arch, [buf_words(arch, mt, op) for op in range(nops)])
    legal = [op for op, (size, _) in enumerate(base) if size]
    res = L.dis_many(arch, [buf_words(arch, mt, op, bits=b) for op in legal for b in bitlist])
    rows = {}
    for i, op in enumerate(legal):
        text = base[op][1]
        mn, parts, _ = operands(text)
        n = widths(parts)
        if "_load" in mn:
            n[0], n[2] = n[2], 0  # vdata is the destination of loads
        ok = shown = 0
        for b, (s2, t2) in zip(bitlist, res[i * len(bitlist):(i + 1) * len(bitlist)]):
            if s2:
                ok |= b
                if t2 != text:
                    shown |= b
        fields = sum(1 << s for s in range(4) if n[s])
        style = "RM_FORMAT" if mn.startswith("tbuffer") else "0"  # prints format:
        rows[op] = dict(mn=mn, n=n, fields=fields, ok=ok, shown=shown, style=style, rtn=0)
    return rows


# ---- scalar fields, formats, cache policy ------------------------------------------------------

def field_strings(L, arch, make, nvals, pos=-1):
    """For each value of a field: (size, token, warning) as LLVM prints it (size 0: illegal);
    pos: the operand's index in the printed list."""
    out = []
    for v, (size, text) in zip(range(nvals), L.dis_many(arch, [make(v) for v in range(nvals)])):
        if not size:
            out.append((0, "", ""))
            continue
        tok, warn = last_token(text, pos)
        out.append((size, tok, warn))
    return out


def fmt_strings(L, arch):
    """MTBUF format field -> the text LLVM prints ('' when the default, 8-bit UNORM, is not
    printed)."""
    if arch == "gfx1100":
        make = lambda f: buf_words(arch, 1, 4, fmt=f)  # tbuffer_store_format_x
    else:
        make = lambda f: buf_words(arch, 0, 132, fmt=f)
    base = L.dis(arch, make(1))[1]
    out = []
    for f, (size, text) in zip(range(128), L.dis_many(arch, [make(f) for f in range(128)])):
        assert size and text.startswith(base), (arch, f, text)
        out.append(text[len(base):].strip())
    return out


def th_strings(L, arch):
    """gfx12 th/scope suffix per [kind: load, store, atomic][th][scope], read off
    buffer_load_b32 (20), buffer_store_b32 (26) and buffer_atomic_add_u32 (53)."""
    out = []
    for op in (20, 26, 53):
        base = L.dis(arch, buf_words(arch, 0, op))[1]
        words = [(lambda w: (w[0], w[1] | sc << 18, w[2], w[3]))(buf_words(arch, 0, op, th=th))
                 for th in range(8) for sc in range(4)]
        k = []
        for _, t in L.dis_many(arch, words):
            assert t.startswith(base), (arch, op, t)
            k.append(t[len(base):].strip())
        out.append(k)
    return out


def th_kind(L, arch, make, th_tab):
    """Which th table (load/store/atomic) an op's text follows: compare th = 1..7 (returning
    atomics also print a vdst, so only the suffix is compared)."""
    texts = [t for _, t in L.dis_many(arch, [make(th) for th in range(1, 8)])]
    for kind in range(3):
        if all(t.endswith(" " + th_tab[kind][th * 4]) for th, t in zip(range(1, 8), texts) if t):
            return kind
    raise AssertionError((arch, texts))


# ---- LDSDIR / VDSDIR and EXP -----------------------------------------------------------------
# LDSDIR (gfx11) / VDSDIR (gfx12), 32-bit: 11001110 wait_vm_vsrc[23] (gfx12) op[22:20]
#   wait_vdst[19:16] (gfx12: wait_va_vdst) attr[15:10] attrchan[9:8] vdst[7:0]
# EXP, 64-bit: w0 = 111110 row_en[13] done[11] target[9:4] en[3:0];
#   w1 = vsrc3[31:24] vsrc2[23:16] vsrc1[15:8] vsrc0[7:0]

def gen_ldsdir(L, arch):
    """op field -> mnemonic (direct loads ignore attr/attrchan)."""
    res = L.dis_many(arch, [(0xce000000 | op << 20 | 5, 0, 0, 0) for op in range(8)])
    return {op: t.split(" ")[0] for op, (size, t) in enumerate(res) if size}


def gen_exp(L, arch):
    """(mnemonic, target name per target field value)."""
    res = L.dis_many(arch, [(0xf8000000 | t << 4 | 0xf, 0x04030201, 0, 0) for t in range(64)])
    assert all(size == 8 for size, _ in res), arch
    return res[0][1].split(" ")[0], [t.split(" ")[1] for _, t in res]


# ---- C output ------------------------------------------------------------------------------

def bits_c(b):
    return "|".join("RM_B_" + BIT_NAMES[x] for x in sorted(BIT_NAMES) if b & x) or "0"


def row_c(ctx, enc, r):
    n = r["n"]
    info = "{%s, %d, %d, 5, {%d, 0}, {%d, %d, %d, 0, 0, 0}, {0}, %s, 0}" % (
        ctx.op(r["mn"]), enc, 1 if n[0] else 0, n[0], n[1], n[2], n[3], kind_flags(r["mn"]))
    return "    [%d] = {%s, %d, %s, %s, %s, %d, %d},  /* %s */\n" % (
        enc, info, r["fields"], bits_c(r["ok"]), bits_c(r["shown"]), r["style"], r["rtn"],
        r.get("th", 0), r["mn"])


def strings_c(name, vals):
    out = ["static const struct rm_str %s[%d] = {\n" % (name, len(vals))]
    for v, (size, tok, warn) in enumerate(vals):
        if size:
            out.append('    [%d] = {%d, "%s", "%s"},\n' % (v, size, tok, warn))
    out.append("};\n\n")
    return out


def generate(ctx):
    L = ctx.llvm
    out = []
    counts = []
    for arch in ARCHES:
        g11 = arch == "gfx1100"
        th_tab = None if g11 else th_strings(L, arch)
        ds = gen_ds(L, arch)
        out.append("static const struct rm_row rm_ds_%s[256] = {\n" % arch)
        out += [row_c(ctx, op, ds[op]) for op in sorted(ds)]
        out.append("};\n\n")
        counts.append("DS %s: %d" % (arch, len(ds)))
        nflat = 128 if g11 else 256
        out.append("static const struct rm_row rm_flat_%s[3][%d] = {\n" % (arch, nflat))
        for seg in range(3):
            fl = gen_flat(L, arch, seg)
            if th_tab:
                for op, r in fl.items():
                    r["th"] = th_kind(L, arch, lambda th: flat_words(
                        arch, seg, op, sve=1 if seg == 1 else 0, th=th), th_tab)
            out.append("  [%d] = {\n" % seg)
            out += ["  " + row_c(ctx, op, fl[op]) for op in sorted(fl)]
            out.append("  },\n")
            counts.append("FLAT seg%d %s: %d" % (seg, arch, len(fl)))
        out.append("};\n\n")
        for mt in ((0, 1) if g11 else (0,)):
            rows = gen_buf(L, arch, mt)
            if th_tab:
                for op, r in rows.items():
                    r["th"] = th_kind(L, arch, lambda th: buf_words(arch, 0, op, th=th), th_tab)
            name = ("mtbuf" if mt else "mubuf") if g11 else "vbuffer"
            out.append("static const struct rm_row rm_%s_%s[%d] = {\n" % (name, arch,
                                                                            16 if mt else 256))
            out += [row_c(ctx, op, rows[op]) for op in sorted(rows)]
            out.append("};\n\n")
            counts.append("%s %s: %d" % (name.upper(), arch, len(rows)))
        # scalar fields, swept on global_load_b32 (saddr), scratch_load_b32 (saddr), and
        # buffer_load_b32 (soffset, srsrc)
        out += strings_c("rm_saddr64_%s" % arch, field_strings(
            L, arch, lambda v: flat_words(arch, 2, 20, saddr=v), 128))
        out += strings_c("rm_saddr32_%s" % arch, field_strings(
            L, arch, lambda v: flat_words(arch, 1, 20, saddr=v, sve=1), 128))
        if g11:
            soff = field_strings(L, arch, lambda v: buf_words(arch, 0, 20, soff=v), 256)
            rsrc = field_strings(L, arch, lambda v: buf_words(arch, 0, 20, rsrc=v), 32, pos=-2)
        else:
            soff = field_strings(L, arch, lambda v: buf_words(arch, 0, 20, soff=v), 128)
            rsrc = field_strings(L, arch, lambda v: (lambda w: (
                w[0], (w[1] & ~(0x7f << 9)) | v << 9, w[2], w[3]))(buf_words(arch, 0, 20)), 128,
                pos=-2)
        out += strings_c("rm_soffset_%s" % arch, soff)
        out += strings_c("rm_srsrc_%s" % arch, rsrc)
        fm = fmt_strings(L, arch)
        out.append("static const char *const rm_format_%s[128] = {\n" % arch)
        out += ['    "%s",\n' % s for s in fm]
        out.append("};\n\n")
        ld = gen_ldsdir(L, arch)
        out.append("/* LDSDIR/VDSDIR: op field -> op (0: illegal) */\n")
        out.append("static const uint16_t rm_ldsdir_%s[8] = {%s};\n\n" % (
            arch, ", ".join(ctx.op(ld[op]) if op in ld else "0" for op in range(8))))
        mn, targets = gen_exp(L, arch)
        out.append("/* EXP: the op, and the target names LLVM prints per target field value */\n")
        out.append("static const uint16_t rm_exp_op_%s = %s;\n" % (arch, ctx.op(mn)))
        out.append("static const char *const rm_exp_target_%s[64] = {\n" % arch)
        out += ['    "%s",\n' % t for t in targets]
        out.append("};\n\n")
        counts.append("LDSDIR %s: %d" % (arch, len(ld)))
        if th_tab:
            out.append("/* th/scope suffix per [load, store, atomic][th * 4 + scope] */\n")
            out.append("static const char *const rm_th_%s[3][32] = {\n" % arch)
            for k in th_tab:
                out.append("    {%s},\n" % ", ".join('"%s"' % s for s in k))
            out.append("};\n\n")
    head = ["/* Legal opcodes: %s */\n\n" % "; ".join(counts)]
    return {"mem_rdna.inc": "".join(head + out)}
