#!/usr/bin/env python3
"""gfxemu run --profile FILE.html: the page parses as HTML, loads nothing from elsewhere (no
scripts, links, images or URLs), and its per-instruction numbers are the hand-computed ones:
a loop of 10 iterations run by 2 waves executes its body 20 times and the rest twice, with the
loop marked from the backward branch's target (read from llvm-objdump-22) to the branch; the
LDS kernel at dword stride 32 on gfx950 has 31 conflict cycles on each DS line (see
test_counters.py) and moves 256 bytes per DS/VMEM line; a 32-lane block shows 32 lanes.  Then
headless chromium opens every page: no console message, every table row rendered."""
import html.parser
import os
import re
import subprocess
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from clitest import BUILD, GFXEMU, HERE as here, check, compile_cl, failures, finish, scratch  # noqa: E402

tmp = scratch("profile_html")


class Page(html.parser.HTMLParser):
    """Collects the code table's rows: {pc: {"cells": [...], "class": ..., "loop": ...}}."""

    def __init__(self):
        super().__init__()
        self.rows, self.tags, self.stack = {}, [], []
        self.row = None
        self.cell = None

    def handle_starttag(self, tag, attrs):
        a = dict(attrs)
        self.tags.append((tag, a))
        if tag not in ("meta", "br"):
            self.stack.append(tag)
        if tag == "tr" and a.get("id", "").startswith("pc-"):
            self.row = {"pc": int(a["id"][3:], 16), "cells": [], "class": a.get("class", ""),
                        "depth": int(a.get("data-loop-depth", "0"))}
            self.rows[self.row["pc"]] = self.row
        elif tag == "td" and self.row is not None:
            self.cell = ""

    def handle_endtag(self, tag):
        if self.stack and self.stack[-1] == tag:
            self.stack.pop()
        else:
            failures.append("unbalanced </%s>" % tag)
        if tag == "td" and self.row is not None and self.cell is not None:
            self.row["cells"].append(self.cell.strip())
            self.cell = None
        elif tag == "tr":
            self.row = None

    def handle_data(self, data):
        if self.cell is not None:
            self.cell += data


def build(src, cpu):
    return compile_cl(src, cpu, os.path.join(tmp, os.path.basename(src) + "_%s.co" % cpu))


def profile(co, kernel, block, grid, *args):
    page = os.path.join(tmp, kernel + ".html")
    r = subprocess.run([GFXEMU, "run", co, kernel, "--grid", str(grid), "--block", str(block),
                        "--profile", page] + [x for a in args for x in ("--arg", a)],
                       capture_output=True, text=True)
    check(r.returncode == 0 and r.stderr == "", "%s: exit %d %r" % (kernel, r.returncode, r.stderr))
    text = open(page).read()
    for bad in ("<script", "<link", "<img", "src=", "http:", "https:", "@import", "url("):
        check(bad not in text, "%s: page is not self-contained (%s)" % (kernel, bad))
    p = Page()
    p.feed(text)
    p.close()
    check(not p.stack, "%s: unclosed tags %s" % (kernel, p.stack))
    return p, text


# The spin loop: 2 waves x 10 iterations.
co = build(os.path.join(here, "progress_kernels.cl"), "gfx950")
p, text = profile(co, "spin", 64, 2, "zero:512", "u32:10")
dis = subprocess.run(["llvm-objdump-22", "-d", co], capture_output=True, text=True).stdout
body = dis.split("<spin>:")[1].split("\n\n")[0]
insts = []
for line in body.splitlines():
    m = re.search(r"^\s+(\S.*?)\s+// ([0-9A-F]+):", line)
    if m:
        insts.append((int(m.group(2), 16), m.group(1)))
# the backward branch: a branch whose target label lies at or before it
back = None
labels = {}
for line in dis.split("<spin>:")[1].split("\n\n")[0].splitlines():
    m = re.search(r"s_cbranch_\w+ .*// ([0-9A-F]+):.*<spin\+0x([0-9a-f]+)>", line)
    if m and int(m.group(2), 16) + insts[0][0] <= int(m.group(1), 16):
        back = (int(m.group(2), 16) + insts[0][0], int(m.group(1), 16))
check(back is not None, "no backward branch found by llvm-objdump-22")
if back:
    lo, hi = back
    for pc, text_ in insts:
        row = p.rows.get(pc)
        check(row is not None, "no row for pc 0x%x" % pc)
        if not row:
            continue
        inside = lo <= pc <= hi
        count = int(row["cells"][2])
        check(count == (20 if inside else 2), "pc 0x%x (%s): count %d, want %d" %
              (pc, text_, count, 20 if inside else 2))
        check(row["depth"] == (1 if inside else 0), "pc 0x%x: loop depth %d" % (pc, row["depth"]))
        check(row["cells"][4] == "64.0", "pc 0x%x: lanes %s" % (pc, row["cells"][4]))
        check(row["cells"][7] == text_, "pc 0x%x: text %r vs objdump %r" % (pc, row["cells"][7], text_))
    check("loop" in p.rows[lo]["cells"][0] and "back" in p.rows[hi]["cells"][0], "loop marks")
    hot = [pc for pc, r in p.rows.items() if "hot" in r["class"]]
    # the 10 most executed lines: every loop line (20 executions) before any other (2)
    loop_pcs = [pc for pc, _ in insts if lo <= pc <= hi]
    check(len(hot) == 10 and set(loop_pcs) <= set(hot), "hot lines %s" % hot)

# LDS conflicts and bytes per line; lanes for a 32-lane block.
co = build(os.path.join(here, "counters_kernels.cl"), "gfx950")
p, _ = profile(co, "lds_b32", 64, 1, "zero:256", "i32:32")
ds = {r["cells"][7].split()[0]: r for r in p.rows.values() if r["cells"][7].startswith("ds_")}
for op in ("ds_write_b32", "ds_read_b32"):
    check(op in ds and ds[op]["cells"][6] == "31" and ds[op]["cells"][5] == "256",
          "%s row %s" % (op, ds.get(op, {}).get("cells")))
st = [r for r in p.rows.values() if r["cells"][7].startswith("global_store_dword")]
check(len(st) == 1 and st[0]["cells"][5] == "256", "global_store bytes")
p, _ = profile(co, "strided_copy", 32, 1, "zero:128", "zero:128", "i32:1")
lanes = {r["cells"][4] for r in p.rows.values() if r["cells"][2] != "0"}
check(lanes == {"32.0"}, "32-lane block: lanes %s" % lanes)

# A real browser (headless chromium, installed by scripts/deps.sh) opens every page: no console
# message (name resolution is switched off, so nothing can load from elsewhere; that the source
# names no resource at all is checked above) and the table it renders has every row of the
# source.  A page with a script error must be caught, or the check could not fail.  One chromium
# start (about 3 s of CPU) opens them all: a frame page holds each page in an iframe
# (--allow-file-access-from-files lets its script, run at its load event, which comes after every
# frame's, read the frames' documents) and writes each frame's rendered row count into its own
# DOM; console messages name the page they came from ("source: file://...").
def browse_all(pages):
    frame = os.path.join(tmp, "frames.htm")
    urls = ["file://" + os.path.abspath(p) for p in pages]
    with open(frame, "w") as f:
        f.write('<!DOCTYPE html><html><head><meta charset="utf-8"><title>frames</title></head><body>\n'
                + "".join('<iframe src="%s"></iframe>\n' % u for u in urls) +
                '<script>window.addEventListener("load", function () {\n'
                '  var fs = document.getElementsByTagName("iframe");\n'
                '  for (var i = 0; i < fs.length; i++) {\n'
                '    var d = fs[i].contentDocument, p = document.createElement("p");\n'
                '    p.setAttribute("data-rows", i);\n'
                '    p.textContent = d ? d.getElementsByTagName("tr").length : -1;\n'
                '    document.body.appendChild(p);\n'
                '  }\n'
                '});</script></body></html>\n')
    r = subprocess.run(["chromium", "--headless=new", "--no-sandbox", "--disable-gpu",
                        "--disable-dev-shm-usage", "--host-resolver-rules=MAP * ~NOTFOUND",
                        "--allow-file-access-from-files", "--enable-logging=stderr",
                        "--v=0", "--dump-dom", "file://" + os.path.abspath(frame)],
                       capture_output=True, text=True, timeout=300)
    console = [l for l in r.stderr.splitlines() if ":CONSOLE" in l]
    rendered = {int(i): int(n) for i, n in re.findall(r'<p data-rows="(\d+)">(-?\d+)</p>', r.stdout)}
    # per page: its console lines and rendered rows; console lines naming no page are the frame's
    per = [([l for l in console if ("source: " + u + " ") in l or l.endswith("source: " + u)],
            rendered.get(i)) for i, u in enumerate(urls)]
    other = [l for l in console if not any(("source: " + u) in l for u in urls)]
    return r.returncode, per, other


if subprocess.run(["sh", "-c", "command -v chromium"], capture_output=True).returncode:
    check(False, "chromium is missing (scripts/deps.sh installs it): the pages were not opened")
else:
    pages = sorted(f for f in os.listdir(tmp) if f.endswith(".html") and not f.startswith("bad"))
    check(len(pages) >= 3, "pages to open: %s" % pages)
    bad = os.path.join(tmp, "bad.html")
    with open(os.path.join(tmp, pages[0])) as src, open(bad, "w") as out:
        out.write(src.read().replace("</body>", "<script>notDefined();</script></body>"))
    rc, per, other = browse_all([os.path.join(tmp, f) for f in pages] + [bad])
    check(rc == 0 and not other, "chromium: exit %d, console %s" % (rc, other[:3]))
    for f, (console, dom_rows) in zip(pages, per):
        rows = open(os.path.join(tmp, f)).read().count("<tr")
        check(not console, "%s in chromium: console %s" % (f, console[:3]))
        check(rows > 0 and dom_rows == rows,
              "%s in chromium: %s table rows rendered, the page has %d" % (f, dom_rows, rows))
    console = per[-1][0]
    check(any("notDefined" in l for l in console),
          "a page with a script error was not caught: %s" % console)

finish("test_profile_html")
