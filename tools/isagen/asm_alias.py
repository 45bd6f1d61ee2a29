"""Mnemonic aliases for gfxemu's assembler: the older names llvm-mc-22 still accepts on a target
for an op whose printed (canonical) name differs (v_add_u32 for v_add_nc_u32, s_load_dword for
s_load_b32, ds_write_b32 for ds_store_b32, gfx12's s_add_u32 for s_add_co_u32, ...).

    python3 tools/gen_isa.py asm_alias   # this table only (needs LLVM 22: libLLVM and llvm-mc-22)

How the table is found, per target:
  1. a sample instruction of every op the disassembler prints on the target: each format's opcode
     field swept with fixed register operands through libLLVM (the printed text is the sample;
     its mnemonic without _e32/_e64 is the canonical name);
  2. candidate old names: the renaming rules below applied backwards to every canonical name
     (each subset of the rules that applies), and every op name of the other targets' tables
     (the CDNA names) that is not canonical here, paired with the canonical name the rules
     applied forwards give (for MFMA names: the one equal without underscores and block
     counts);
  3. llvm-mc-22 is given each candidate alone: "invalid instruction" or "not supported on this
     GPU" means it does not know the name on this target;
  4. each remaining pair is verified: the canonical sample and the same line under the old name,
     assembled by llvm-mc-22 -show-encoding, must give the same bytes.
Only verified pairs are written.  llvm-mc runs twice per target, on files of a few thousand
lines.

Output: src/isa/gen/asm_alias.inc, rows ASM_ALIAS(target, alias, canonical) /* sample */ read
by src/isa/asm.c (and the sample by tests/tools/test_as_alias.py).
"""
import itertools
import os
import re
import subprocess
import tempfile

from . import mem_rdna, scalar

ARCHES = ("gfx942", "gfx950", "gfx90a", "gfx1100", "gfx1201")  # isa_arch order: asm.c bisects
RDNA = ("gfx1100", "gfx1201")
LLVM_MC = os.environ.get("LLVM_MC", "llvm-mc-22")

# (canonical spelling, old spelling): substring renames between the RDNA names LLVM 22 prints
# and the older (GFX9/GFX10) names (RDNA3 ISA manual, "Instruction renames"; RDNA4 ISA manual
# for the gfx12 ones).  Applied backwards to make candidates, forwards to pair old names.
RULES = (
    ("_b32", "_dword"), ("_b64", "_dwordx2"), ("_b96", "_dwordx3"), ("_b128", "_dwordx4"),
    ("_u8", "_ubyte"), ("_i8", "_sbyte"), ("_u16", "_ushort"), ("_i16", "_sshort"),
    ("_b8", "_byte"), ("_b16", "_short"), ("_d16_hi_u8", "_ubyte_d16_hi"),
    ("_d16_u8", "_ubyte_d16"), ("_d16_hi_i8", "_sbyte_d16_hi"), ("_d16_i8", "_sbyte_d16"),
    ("_d16_hi_b16", "_short_d16_hi"), ("_d16_b16", "_short_d16"),
    ("_d16_hi_b8", "_byte_d16_hi"),
    ("ds_store", "ds_write"), ("ds_load", "ds_read"), ("_2addr", "2"), ("_2addr_stride64", "2st64"),
    ("storexchg", "wrxchg"), ("_rtn", "_rtn"),
    ("_and_not1_", "_andn2_"), ("_or_not1_", "_orn2_"), ("_and_not0_", "_andn1_"),
    ("_or_not0_", "_orn1_"), ("_nc_u32", "_u32"), ("_nc_i32", "_i32"), ("_nc_u16", "_u16"),
    ("_nc_i16", "_i16"), ("pk_rtz", "pkrtz"), ("dot2acc", "dot2c"),
    ("_co_u64", "_u64"), ("_co_i64", "_i64"), ("s_add_co_u32", "s_add_u32"),
    ("s_sub_co_u32", "s_sub_u32"), ("s_add_co_ci_u32", "s_addc_u32"),
    ("s_sub_co_ci_u32", "s_subb_u32"), ("_sub_clamp_", "_csub_"), ("_cmpswap", "_cmpst"),
    ("_add_f32", "_add_f32"), ("_num_", "_"), ("_u32", "_u"), ("_i32", "_i"),
    ("_cond_sub_", "_csub_"), ("_inc_u32", "_inc"), ("_dec_u32", "_dec"),
    ("_lshlrev_", "_lshl_"),
    # atomics: the type moved into the name (RDNA3 ISA "Instruction renames")
    ("_add_u32", "_add"), ("_add_u64", "_add_x2"), ("_sub_u32", "_sub"), ("_sub_u64", "_sub_x2"),
    ("_swap_b32", "_swap"), ("_swap_b64", "_swap_x2"), ("_cmpswap_b32", "_cmpswap"),
    ("_cmpswap_b64", "_cmpswap_x2"), ("_max_i32", "_smax"), ("_max_i64", "_smax_x2"),
    ("_max_u32", "_umax"), ("_max_u64", "_umax_x2"), ("_min_i32", "_smin"),
    ("_min_i64", "_smin_x2"), ("_min_u32", "_umin"), ("_min_u64", "_umin_x2"),
    ("_and_b32", "_and"), ("_and_b64", "_and_x2"), ("_or_b32", "_or"), ("_or_b64", "_or_x2"),
    ("_xor_b32", "_xor"), ("_xor_b64", "_xor_x2"), ("_inc_u64", "_inc_x2"),
    ("_dec_u64", "_dec_x2"), ("_b256", "_dwordx8"), ("_b512", "_dwordx16"),
    ("_d16_format", "_format_d16"), ("_d16_hi_format", "_format_d16_hi"),
    # bit scans, conversions, compares, dot products
    ("s_ctz_i32_b32", "s_ff1_i32_b32"), ("s_ctz_i32_b64", "s_ff1_i32_b64"),
    ("s_clz_i32_u32", "s_flbit_i32_b32"), ("s_clz_i32_u64", "s_flbit_i32_b64"),
    ("s_cls_i32", "s_flbit_i32"), ("s_cls_i32_i64", "s_flbit_i32_i64"),
    ("v_clz_i32_u32", "v_ffbh_u32"), ("v_ctz_i32_b32", "v_ffbl_b32"), ("v_cls_i32", "v_ffbh_i32"),
    ("_floor_i32_f32", "_flr_i32_f32"), ("_nearest_i32_f32", "_rpi_i32_f32"),
    ("pk_norm", "pknorm"), ("_cmp_t_", "_cmp_tru_"), ("_cmpx_t_", "_cmpx_tru_"),
    ("mul_dx9_zero_f32", "mul_legacy_f32"), ("_iu8", "_i8"), ("_iu4", "_i4"),
    # gfx12
    ("s_add_co_i32", "s_add_i32"), ("s_sub_co_i32", "s_sub_i32"), ("s_addk_co_i32", "s_addk_i32"),
    ("s_wait_alu", "s_waitcnt_depctr"), ("ds_param_load", "lds_param_load"),
    ("ds_direct_load", "lds_direct_load"),
)
RULES = tuple((n, o) for n, o in RULES if n != o)

SUFFIX = re.compile(r"(_e32|_e64)$")
V = 256  # VGPR source encoding offset


def base_of(mn):
    return SUFFIX.sub("", mn)


def sample_words(arch):
    """(words) per opcode of each format, with fixed operands; LLVM prints what it makes of them.
    On CDNA only the VOP3P/MAI opcodes: a probe of every other op name and renaming of the three
    CDNA targets found llvm-mc-22 aliases among the MFMA names only."""
    gfx12 = arch == "gfx1201"
    out = []
    if arch not in RDNA:  # VOP3P: vdst v0 (or a0), src0 v0, src1 v4, src2 v0
        for op in range(128):
            for acc in (0, 0x8000):
                out.append((0xd3800000 | op << 16 | acc, 0x100 | 0x104 << 9 | 0x100 << 18, 0, 0))
        return out
    for fmt, (prefix, shift, width, _) in scalar.SOP.items():
        for op in range(1 << width):
            w = prefix | op << shift
            if scalar.identify(w, arch) != fmt:
                continue
            if fmt in ("SOP2", "SOPC"):
                w |= 2 << 8 | 4
            if fmt in ("SOP2", "SOP1", "SOPK"):
                w |= 6 << 16
            if fmt == "SOP1":
                w |= 2
            out.append((w, 0x12345678, 0, 0))
    for op in range(256):  # SMEM: sdata s4.., sbase s[2:3], soffset null, offset 0
        w0 = 0xf4000000 | (op << 13 if gfx12 else op << 18) | 4 << 6 | 1
        out.append((w0, 124 << 25, 0, 0))
    for op in range(128):  # VOP1 / VOP2 / VOPC: v1 <- v2 (, v3)
        out.append((0x7e000000 | 1 << 17 | op << 9 | (V + 2), 0, 0, 0))
        out.append((0x7c000000 | op << 17 | 3 << 9 | (V + 2), 0, 0, 0))
        out.append((0x7c000000 | (op + 128) << 17 | 3 << 9 | (V + 2), 0, 0, 0))
        out.append((0x7e000000 | 1 << 17 | (op + 128) << 9 | (V + 2), 0, 0, 0))
    for op in range(64):
        out.append((op << 25 | 1 << 17 | 3 << 9 | (V + 2), 0, 0, 0))
    srcs = (V + 2) | (V + 3) << 9 | (V + 4) << 18
    for op in range(1024):  # VOP3 (sdst field null for the VOP3SD forms)
        out.append((0xd4000000 | op << 16 | 124 << 8 | 2, srcs, 0, 0))
        out.append((0xd4000000 | op << 16 | 2, srcs, 0, 0))
    for op in range(128):  # VOP3P
        out.append((0xcc000000 | op << 16 | 0x4000 | 2, srcs | 3 << 27, 0, 0))
    for op in range(256):  # DS, FLAT/GLOBAL/SCRATCH, buffer
        for m in range(16):  # DS: LLVM wants the fields an op does not use to be zero
            out.append(mem_rdna.ds_words(arch, op, regs=tuple(r if m >> i & 1 else 0
                                                             for i, r in enumerate((8, 2, 4, 6)))))
        for seg in range(3):
            out.append(mem_rdna.flat_words(arch, seg, op, vdst=8, data=4, addr=2, saddr=124))
            out.append(mem_rdna.flat_words(arch, seg, op, vdst=8, data=4, addr=2, saddr=2))
        out.append(mem_rdna.buf_words(arch, 0, op, vdata=8, vaddr=2, offen=1))
        if op < 16:
            out.append(mem_rdna.buf_words(arch, 1, op, vdata=8, vaddr=2, offen=1))
    for op in range(8):  # LDSDIR / VDSDIR: v1, attr1.y
        out.append((0xce000000 | op << 20 | 1 << 10 | 1 << 8 | 1, 0, 0, 0))
    return out


def samples(L, arch):
    """canonical name -> a sample line LLVM printed for it (the shortest one)"""
    res = {}
    for size, text in L.dis_many(arch, sample_words(arch)):
        if not size or not text or text.startswith("<") or "/*" in text:
            continue
        mn = text.split(" ", 1)[0]
        b = base_of(mn)
        if b not in res or len(text) < len(res[b]):
            res[b] = text
    return res


def rewrites(name, rules):
    """every name made from `name` by replacing, for a subset (up to three) of the `rules` that
    apply, the first occurrence of rule[0] with rule[1]"""
    appl = [r for r in rules if r[0] in name]
    out = set()
    for k in range(1, min(len(appl), 3) + 1):
        for combo in itertools.combinations(appl, k):
            n = name
            for a, b in combo:
                if a not in n:
                    break
                n = n.replace(a, b, 1)
            else:
                out.add(n)
    return out


def mfma_key(name):
    """gfx90a's MFMA names and gfx940's differ in underscores and block counts
    (v_mfma_f32_16x16x1f32, v_mfma_f32_16x16x1_4b_f32): the name without them."""
    return re.sub(r"_\d+b_|_1k$", "", name).replace("_", "")


def run_mc(arch, lines):
    """Assemble lines with llvm-mc-22; per line, the encoding bytes (text) or None on an error,
    and the stderr message for the errors."""
    with tempfile.NamedTemporaryFile("w", suffix=".s", delete=False) as f:
        f.write("\n".join(lines) + "\n")
        path = f.name
    try:
        p = subprocess.run([LLVM_MC, "-arch=amdgcn", "-mcpu=" + arch, "-show-encoding", path],
                           capture_output=True, text=True)
    except FileNotFoundError:
        raise SystemExit("gen_isa: asm_alias needs %s (apt-get install llvm-22)" % LLVM_MC)
    finally:
        os.unlink(path)
    errs = {}
    for m in re.finditer(r"^[^\n]*?:(\d+):\d+: error: ([^\n]*)", p.stderr, re.M):
        errs.setdefault(int(m.group(1)) - 1, m.group(2))
    encs = re.findall(r"; encoding: (\[[^\]]*\])", p.stdout)
    out, k = [], 0
    for i in range(len(lines)):
        if i in errs:
            out.append(None)
        else:
            out.append(encs[k] if k < len(encs) else None)
            k += 1
    if k != len(encs):
        raise SystemExit("gen_isa: asm_alias: llvm-mc output does not line up with its input")
    return out, errs


def aliases(L, arch, others):
    smp = samples(L, arch)
    canon = set(smp)
    pairs = {}
    for c in sorted(canon):
        for old in rewrites(c, [(n, o) for n, o in RULES]):
            if old not in canon:
                pairs.setdefault(old, set()).add(c)
    fwd = [(o, n) for n, o in RULES]
    keys = {}
    for c in canon:
        keys.setdefault(mfma_key(c), set()).add(c)
    for name in sorted(others - canon):
        for new in rewrites(name, fwd):
            if new in canon:
                pairs.setdefault(name, set()).add(new)
        if name.startswith("v_mfma"):
            pairs.setdefault(name, set()).update(keys.get(mfma_key(name), ()))
    names = sorted(pairs)
    res, errs = run_mc(arch, names)
    known = [n for i, n in enumerate(names)
             if not (i in errs and ("invalid instruction" in errs[i] or
                                    "not supported on this GPU" in errs[i]))]
    lines, rows = [], []
    for old in known:
        for c in sorted(pairs[old]):
            text = smp[c]
            mn, rest = (text.split(" ", 1) + [""])[:2]
            lines += [text, (old + mn[len(c):] + " " + rest).strip()]
            rows.append((old, c))
    res, _ = run_mc(arch, lines)
    found = {}
    for k, (old, c) in enumerate(rows):
        a, b = res[2 * k], res[2 * k + 1]
        if a is not None and a == b and old not in found:
            found[old] = (c, lines[2 * k + 1])
    return [(a, c, line) for a, (c, line) in sorted(found.items())]


def generate(ctx):
    others = {n.lower() for n in ctx.ops}
    out = ["/* Mnemonic aliases llvm-mc-22 accepts on a target: ASM_ALIAS(target, old name, the\n"
           " * name LLVM prints), sorted by target and old name.  The comment is the sample line the\n"
           " * generator assembled under both names (same bytes); tests/tools/test_as_alias.py\n"
           " * assembles it again with gfxemu and llvm-mc-22. */\n"]
    for arch in ARCHES:
        rows = aliases(ctx.llvm, arch, others)
        print("gen_isa: asm_alias: %s: %d aliases" % (arch, len(rows)))
        out += ["ASM_ALIAS(ISA_%s, \"%s\", \"%s\") /* %s */\n" % (arch.upper(), a, c, line)
                for a, c, line in rows]
    return {"asm_alias.inc": "".join(out)}
