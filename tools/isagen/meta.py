"""Per-op metadata table: src/isa/gen/opmeta.inc.

One row per op id of ops.inc, as an X-macro:

    ISA_META(V_ADD_F32, v_add_f32, FMT(VOP2) | FMT(VOP3), VALU, HOST, F32, 1, 2, W(1, 0),
             W(1, 1, 0, 0, 0, 0), T(F32, F32, B32, B32, B32, B32), MFMA(0, 0, 0, 0, NONE, NONE, NONE), 0)

Fields, in order:
  id, name   the op's enum suffix and its lower-case mnemonic spelled as a C token: isa.h makes
             ISA_OPL_v_add_f32 == ISA_OP_V_ADD_F32 of the pair, so hand-written tables (the handler
             rows of src/exec/) name every op literally and `grep -rnw v_add_f32 src/exec` finds it
  fmts       FMT(x) for every encoding (ISA_FMT_x) in which some target's decoder table has the op
  cls        the --stats class: SALU, VALU, VMEM, SMEM, LDS, MFMA, BRANCH, OTHER
  rnd, rf    behaviour under a directed MODE.FP_ROUND (src/exec/round.c): NONE, EXACT, HOST, OWN,
             FAULT, and which MODE field rounds the result: F32, F64, ANY
  ndst, nsrc, W(dst dwords x2), W(source dwords x6), T(source ISA_T_* x6)
             operand counts, widths and types of the op's first row (VOP3 rows first, where LLVM's
             operand types were probed; then the first encoding; CDNA targets before RDNA)
  MFMA(m, n, k, blocks, type a, type b, kind)
             matrix shape of one block (k: the dense K), number of blocks, A/B element types
             (F32 XF32 F16 BF16 I8 F64 FP8 BF8 F8F6F4) and DENSE / SPARSE (SMFMAC) / F8F6F4;
             zeros and NONE for other ops
  mem        bytes one lane accesses per element (0: none, or set by the buffer's format)

Sources: the decoder tables the family modules made from LLVM 22 (encodings, operand widths and
types), the mnemonic's fixed grammar (MFMA shape and types, memory sizes, the float-type rule of
round_default()), and tools/isagen/meta_overlay.py for what neither says (which scalar ops are
branches, rounding behaviour).  Consumers take the row with named parameters, so C code never
classifies an op by its name.
"""
import re

from . import meta_overlay

# isa_fmt names of the decoder tables (by table name prefix)
TABLE_FMT = (
    ("sc_sop2_", "SOP2"), ("sc_sopk_", "SOPK"), ("sc_sop1_", "SOP1"), ("sc_sopc_", "SOPC"),
    ("sc_sopp_", "SOPP"), ("sc_smem_", "SMEM"), ("vop_vop2_", "VOP2"), ("vop_vop1_", "VOP1"),
    ("vop_vopc_", "VOPC"), ("vop3_rows_", "VOP3"), ("mem_ds_", "DS"), ("mem_flat_", "FLAT"),
    ("mem_mubuf_", "MUBUF"), ("mem_mtbuf_", "MTBUF"), ("mem_mimg_", "MIMG"),
    ("vr_vop2_", "VOP2"), ("vr_vop1_", "VOP1"), ("vr_vopc_", "VOPC"),
)
FMT_ORDER = ("SOP2", "SOPK", "SOP1", "SOPC", "SOPP", "SMEM", "VOP2", "VOP1", "VOPC", "VOP3",
             "VOP3P", "DS", "FLAT", "MUBUF", "MTBUF", "MIMG")
ARCH_ORDER = ("gfx942", "gfx950", "gfx90a", "gfx1100", "gfx1201")
# ISA_T_* in src/isa/isa.h order (tables print some as numbers)
TYPES = ("B32", "F16", "BF16", "F32", "F64", "B64", "B16", "V2F16", "V2BF16", "V2B16", "V2F32",
         "V2F16_SPLAT")

TABLE = re.compile(r"^static const [^\n=]*?\b(\w+?_)(gfx\w+?)(?:\[[^\]]*\])+\s*=\s*\{(.*?)^\};",
                   re.M | re.S)
ROW = re.compile(r"\{ISA_OP_(\w+), (\w+), (\d+), (\d+), \{([^}]*)\}, \{([^}]*)\}, \{([^}]*)\}")


def ints(s, n):
    v = [int(x) for x in s.replace(" ", "").split(",") if x]
    return (v + [0] * n)[:n]


def types(s):
    out = []
    for x in s.replace(" ", "").split(","):
        if not x:
            continue
        out.append(TYPES[int(x)] if x.isdigit() else x.replace("ISA_T_", ""))
    return (out + ["B32"] * 6)[:6]


def read_rows(tables):
    """{op (upper case): [(priority, fmt, ndst, nsrc, dst_w, src_w, src_t)]}, {op: set(fmts)}"""
    rows, fmts = {}, {}
    for text in tables.values():
        for m in TABLE.finditer(text):
            prefix, arch, body = m.group(1), m.group(2), m.group(3)
            fmt = next((f for p, f in TABLE_FMT if prefix == p), None)
            if fmt is None or arch not in ARCH_ORDER:
                continue
            for r in ROW.finditer(body):
                op, encop = r.group(1), int(r.group(2), 0)
                f = "VOP3P" if fmt == "VOP3" and encop >= 0x380 else fmt
                fmts.setdefault(op, set()).add(f)
                prio = (0 if f in ("VOP3", "VOP3P") else 1, ARCH_ORDER.index(arch),
                        FMT_ORDER.index(f))
                rows.setdefault(op, []).append((prio, f, int(r.group(3)), int(r.group(4)),
                                                ints(r.group(5), 2), ints(r.group(6), 6),
                                                types(r.group(7))))
    return rows, fmts


def op_class(name, fmts):
    if name in meta_overlay.BRANCH:
        return "BRANCH"
    if name in meta_overlay.OTHER:
        return "OTHER"
    if fmts & {"SOP2", "SOPK", "SOP1", "SOPC", "SOPP"}:
        return "SALU"
    if "SMEM" in fmts:
        return "SMEM"
    if "DS" in fmts:
        return "LDS"
    if fmts & {"FLAT", "MUBUF", "MTBUF", "MIMG"}:
        return "VMEM"
    if name.startswith(("v_mfma", "v_smfmac")):
        return "MFMA"
    if name.startswith("v_"):
        return "VALU"
    return "OTHER"


FLOAT_NAMES = ("_f16", "_f32", "_f64", "bf16", "fp8", "bf8", "fp4", "fp6")


def round_default(name):
    """Vector ops whose mnemonic names a float type (compares and integer MFMA aside), and float
    atomics: refused under a directed rounding mode unless the overlay says better (whether
    MFMA honours MODE.FP_ROUND is not documented; atomics round in the memory system, which
    never sees MODE)."""
    flt = any(s in name for s in FLOAT_NAMES)
    valu = name.startswith("v_") and not name.startswith("v_cmp")
    mfma_int = name.startswith(("v_mfma", "v_smfmac")) and ("i8" in name or "i32" in name)
    fatomic = (name.startswith("ds_") or "atomic" in name) and \
        any(s in name for s in ("add_f", "add_bf", "add_rtn_f", "add_rtn_bf", "sub_f"))
    if (valu and flt and not mfma_int) or fatomic:
        return ("FAULT", "ANY")
    return ("NONE", "F32")


MFMA_NAME = re.compile(r"^v_(mfma|smfmac)(_scale)?_(f32|i32|f64)_(\d+)x(\d+)x(\d+)_?(.*)$")
MFMA_TYPES = {"f32": ("F32", "F32"), "xf32": ("XF32", "XF32"), "f16": ("F16", "F16"),
              "bf16": ("BF16", "BF16"), "i8": ("I8", "I8"), "f64": ("F64", "F64"),
              "f8f6f4": ("F8F6F4", "F8F6F4")}


def mfma_shape(name, row):
    """(m, n, k, blocks, ta, tb, kind) from the mnemonic (v_mfma_<out>_<M>x<N>x<K>[_<B>b]_<in>,
    gfx90a's v_mfma_<out>_<M>x<N>x<K><in>[_1k]); blocks, when the name has no _<B>b, from the
    destination width LLVM gives: M*N*blocks results of 1 (2 for f64) dwords over 64 lanes."""
    m = MFMA_NAME.match(name)
    if not m:
        return (0, 0, 0, 0, "NONE", "NONE", "NONE")
    sparse, out = m.group(1) == "smfmac", m.group(3)
    M, N, K = int(m.group(4)), int(m.group(5)), int(m.group(6))
    rest = m.group(7)
    b = re.match(r"(\d+)b_(.*)$", rest)
    blocks = None
    if b:
        blocks, rest = int(b.group(1)), b.group(2)
    rest = re.sub(r"_1k$", "", rest)
    if rest in MFMA_TYPES:
        ta, tb = MFMA_TYPES[rest]
    else:
        ta, tb = (t.upper() for t in rest.split("_"))
    if blocks is None:
        blocks = 1
        if row and not sparse:
            dwords = row[4][0]
            blocks = max(1, dwords * 64 // (M * N * (2 if out == "f64" else 1)))
    kind = "SPARSE" if sparse else "F8F6F4" if ta == "F8F6F4" else "DENSE"
    return (M, N, K, blocks, ta, tb, kind)


def mem_bytes(name, fmts):
    """Bytes a lane accesses per element, from the mnemonic's data-size word."""
    if not fmts & {"SMEM", "DS", "FLAT", "MUBUF", "MTBUF"} or "format" in name:
        return 0
    toks = name.split("_")
    for t in reversed(toks):
        m = re.match(r"dwordx(\d+)$", t)
        if m:
            return 4 * int(m.group(1))
        if t == "dword":
            return 4
        m = re.match(r"[buif](8|16|32|64|96|128)$", t)
        if m:
            return int(m.group(1)) // 8
        if t in ("ubyte", "sbyte", "byte"):
            return 1
        if t in ("short", "ushort", "sshort"):
            return 2
    if "atomic" in toks:
        return 8 if toks[-1] == "x2" or toks[-1].endswith("64") else 4
    if name.startswith("ds_") and name not in ("ds_nop",) and "gws" not in name:
        return 4  # ds_append, ds_consume: a dword counter
    return 0


def generate(ops, tables):
    """ops: the base mnemonics (lower case); tables: {file name: generated text} of the families
    (the decoder tables), from which the per-op facts are read."""
    rows, fmts = read_rows(tables)
    out = ["/* Per-op metadata: ISA_META(id, name, fmts, cls, rnd, rf, ndst, nsrc, W(dst dwords),\n"
           " * W(src dwords), T(src types), MFMA(m, n, k, blocks, ta, tb, kind), mem bytes);\n"
           " * tools/isagen/meta.py says where each field comes from. */\n"]
    for n in sorted(ops):
        up = n.upper()
        fs = set(fmts.get(up, ()))
        if not fs and n.startswith("v_mfma_scale"):
            fs = {"VOP3P"}  # the 128-bit scaled MFMA: decoded in src/isa/vop3.c, in no table
        row = min(rows[up]) if up in rows else None
        cls = op_class(n, fs)
        rnd, rf = meta_overlay.ROUND.get(n, round_default(n))
        if row:
            _, _, ndst, nsrc, dw, sw, st = row
        else:
            ndst, nsrc, dw, sw, st = 0, 0, [0, 0], [0] * 6, ["B32"] * 6
        mf = mfma_shape(n, row) if cls == "MFMA" else (0, 0, 0, 0, "NONE", "NONE", "NONE")
        fm = " | ".join("FMT(%s)" % f for f in FMT_ORDER if f in fs) or "0"
        out.append("ISA_META(%s, %s, %s, %s, %s, %s, %d, %d, W(%s), W(%s), T(%s), "
                   "MFMA(%d, %d, %d, %d, %s, %s, %s), %d)\n"
                   % (up, n, fm, cls, rnd, rf, ndst, nsrc, ", ".join(map(str, dw)),
                      ", ".join(map(str, sw)), ", ".join(st), *mf, mem_bytes(n, fs)))
    return "".join(out)
