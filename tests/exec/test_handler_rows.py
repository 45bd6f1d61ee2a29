#!/usr/bin/env python3
"""Every op gfxemu decodes on gfx950, gfx942 and gfx90a has a literal row in src/exec.

`grep -rnw <op> src/exec` must land on the line where the op's behaviour is defined: a handler
row (`H(global_load_dwordx4, ...)`), a line of an X-macro list that spells the op
(`X(v_cmp_lt_f32, v_cmpx_lt_f32, f32, a < b)`), or a row of the refused-op table in exec.c.
A name that appears only in a comment does not count, nor does one made by token pasting.

The op list per target is read from the generated decoder tables (src/isa/gen/*.inc: every
table whose name ends in _gfx950, _gfx942 or _gfx90a), plus the ops of ops.inc that no table
names (the decoder derives them in code, e.g. the scaled-MFMA pair ids of src/isa/vop3.c).
The search itself is grep's (`grep -rnow -F`), once for all names; each hit's line is then
checked with comments blanked out.  Fails naming every op that has no such line.

    python3 tests/exec/test_handler_rows.py [--root DIR]   # DIR: another checkout to check
"""
import os
import re
import subprocess
import sys

TARGETS = ("gfx950", "gfx942", "gfx90a")


def target_ops(root):
    gen = os.path.join(root, "src", "isa", "gen")
    per = {t: set() for t in TARGETS}
    named = set()
    table = re.compile(r"^static const [^\n=]*?\b\w+?_(gfx\w+?)(?:\[[^\]]*\])+\s*=\s*\{(.*?)^\};",
                       re.M | re.S)
    for f in sorted(os.listdir(gen)):
        if not f.endswith(".inc") or f in ("ops.inc", "opmeta.inc"):
            continue
        text = open(os.path.join(gen, f)).read()
        for m in table.finditer(text):
            ids = set(re.findall(r"\bISA_OP_([A-Z0-9_]+)\b", m.group(2)))
            named |= ids
            if m.group(1) in per:
                per[m.group(1)] |= ids
    allops = set(re.findall(r"ISA_OP_X\(([A-Z0-9_]+),", open(os.path.join(gen, "ops.inc")).read()))
    coded = allops - named
    for t in TARGETS:
        per[t] |= coded
    return {t: {o.lower() for o in s} for t, s in per.items()}


def blank_comments(text):
    """Comments replaced by spaces, newlines kept (so line numbers stay)."""
    def blank(m):
        return re.sub(r"[^\n]", " ", m.group(0))
    return re.sub(r"/\*.*?\*/|//[^\n]*|\"(?:\\.|[^\"\\\n])*\"", blank, text, flags=re.S)


def rows_found(root, names):
    exe = os.path.join(root, "src", "exec")
    with open(os.path.join(os.environ.get("TMPDIR", "/tmp"), "handler_rows.%d" % os.getpid()),
              "w") as f:
        f.write("\n".join(sorted(names)) + "\n")
        pats = f.name
    try:
        out = subprocess.run(["grep", "-rnow", "-F", "-f", pats, exe], capture_output=True,
                             text=True).stdout
    finally:
        os.unlink(pats)
    code = {}
    found = set()
    for line in out.splitlines():
        path, num, name = line.rsplit(":", 2)
        if path not in code:
            code[path] = blank_comments(open(path).read()).split("\n")
        if re.search(r"(?<![A-Za-z0-9_])%s(?![A-Za-z0-9_])" % re.escape(name),
                     code[path][int(num) - 1]):
            found.add(name)
    return found


def main():
    root = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
    if "--root" in sys.argv:
        root = os.path.abspath(sys.argv[sys.argv.index("--root") + 1])
    per = target_ops(root)
    names = set().union(*per.values())
    if len(names) < 1000:  # the tables could not be read: never pass on an empty list
        print("test_handler_rows: only %d ops read from src/isa/gen" % len(names))
        return 1
    found = rows_found(root, names)
    bad = 0
    for t in TARGETS:
        missing = sorted(per[t] - found)
        print("%s: %d ops decoded, %d without a literal row in src/exec" % (t, len(per[t]),
                                                                            len(missing)))
        for n in missing:
            print("  %s: no row names %s (grep -rnw %s src/exec)" % (t, n, n))
        bad += len(missing)
    if bad:
        print("FAIL: %d op names without a row" % len(sorted(names - found)))
        return 1
    print("PASS: %d ops, each named by a row in src/exec" % len(names))
    return 0


if __name__ == "__main__":
    sys.exit(main())
