"""test_debugger_edit.py - `gfxemu debug` comforts on a terminal (a pseudo-terminal): libedit line
editing with TAB completion of commands, registers and symbols, history (up-arrow), and on any
input `info kernel`, `set pc LOC` (the wave really continues from there: skipping the store
leaves the output zero), and errors for unknown symbols and unallocated registers."""
import subprocess
import sys
import time

from ttyutil import GFXEMU as gfxemu, DebugTty, build_kernels

tmp, co = build_kernels("debugger_edit")
failures = []


def check(cond, what):
    if not cond:
        failures.append(what)
        print("FAIL:", what, file=sys.stderr)


outfile = tmp + "/o.bin"
t = DebugTty([co, "store_all", "--grid", "1", "--block", "64", "--arg", "out:%s:256" % outfile])


def session(keys, token, what):
    start = len(t.out)
    time.sleep(0.3)  # let the line editor take the terminal before typing (no typeahead echo)
    t.write(keys)
    ok = t.read_until(token)
    check(ok, "%s: %r not in %r" % (what, token, t.out[start:].decode(errors="replace")))
    return ok


check(t.read_until(b"(gfxemu) "), "no prompt")
# TAB completes a command ("inf" -> "info") and its argument is typed out.
session(b"inf\t kernel\n", b"kernel store_all, entry 0x", "TAB completion of 'inf'")
session(b"", b"(gfxemu) ", "prompt after info kernel")
# TAB completes a register name: "exec_l<TAB>" is exec_lo (printed as the SGPR it is, s126).
session(b"p exec_l\t\n", b"s126 = 0xffffffff", "TAB completion of a register")
# ... and a symbol: "break store_al<TAB>" -> store_all ("store_a" would be store_all/store_at).
session(b"break store_al\t\n", b"Breakpoint 1 at 0x", "TAB completion of a symbol")
check(b"<store_all>" in t.out.split(b"Breakpoint 1 at")[-1][:80], "breakpoint at the kernel entry")
# History: up-arrow recalls the previous command (break ...), edited into "p v0[5]" it is not;
# typing "p v0[5]" then up-arrow + Enter prints the value twice.
session(b"p v0[5]\n", b"v0[5] = 0x00000005", "p v0[5]")
before = t.out.count(b"v0[5] = 0x00000005")
session(b"\x1b[A\n", b"(gfxemu) ", "up-arrow")
t.read_until(b"never printed", timeout=0.5)  # collect the rest of the output
check(t.out.count(b"v0[5] = 0x00000005") == before + 1, "up-arrow did not repeat p v0[5]")
# set pc past the store to the s_endpgm: the kernel then ends without writing.
dis = subprocess.run([gfxemu, "disasm", co], capture_output=True, text=True).stdout
body = dis.split("<store_all>:")[1].split("\n\n")[0]
endpgm = [l for l in body.splitlines() if "s_endpgm" in l][0]
addr = int(endpgm.split("//")[1].split(":")[0], 16)
session(b"set pc 0x%x\n" % addr, b"=> 0x%x <store_all+" % addr, "set pc")
session(b"continue\n", b"The kernel finished", "continue")
t.p.wait(timeout=20)
check(t.p.returncode == 0, "exit status %d" % t.p.returncode)
data = open(outfile, "rb").read()
check(data == bytes(256), "set pc past the store: the output was written anyway")
t.close()

# From a pipe: no line editing, the same errors.
script = "break nosuch\nbreak nosuch+4\np v100\np a100\nset pc nosuch\ninfo kernel\nquit\n"
r = subprocess.run([gfxemu, "debug", co, "store_all", "--grid", "1", "--block", "64", "--arg",
                    "zero:256"], input=script, capture_output=True, text=True)
for line in ["break: no symbol 'nosuch' in the code object (see `info kernel`; tab completes "
             "symbols)",
             "set: 'nosuch' is not an address or a symbol of this code object"]:
    check(line in r.stdout.splitlines(), "pipe: no line %r in %s" % (line, r.stdout))
check(r.stdout.count("break: no symbol 'nosuch'") == 2, "break nosuch+4")
# store_all needs a handful of VGPRs: the descriptor allocates 8, split at ACCUM_OFFSET
check(any(l.startswith("p: v100: the kernel has v0-v") for l in r.stdout.splitlines()), "p v100")
check(any(l.startswith("p: a100: the kernel has ") for l in r.stdout.splitlines()), "p a100")
check("  argument 0: int*, 8 bytes at kernarg offset 0 = zero:256 (256 bytes at 0x" in r.stdout,
      "info kernel arguments: %s" % r.stdout)

if failures:
    print("test_debugger_edit: %d checks failed" % len(failures))
    print(t.out.decode(errors="replace"))
    sys.exit(1)
print("test_debugger_edit: all checks passed")
