"""test_debugger_tty.py - `gfxemu debug` on a terminal (a pseudo-terminal): it prompts, reads
commands typed one at a time, and does not echo them itself (the terminal does).  At the entry
v0 holds the work-item ids (LLVM "AMDGPU Usage", initial VGPR state), so lane 5 reads 5.
Ctrl-C (SIGINT) while an endless loop runs stops it inside the loop instead of ending gfxemu."""
import signal
import sys
import time

from ttyutil import DebugTty, build_kernels

tmp, co = build_kernels("debugger_tty")
t = DebugTty([co, "swap", "--grid", "1", "--block", "128", "--arg", "zero:512"])

failures = []
if not t.read_until(b"(gfxemu) "):
    failures.append("no prompt")
# With libedit the line editor echoes; text typed before it has put the terminal in raw mode
# would also be echoed by the terminal driver (typeahead), so type after it settles, as a person.
time.sleep(0.5)
t.write(b"p v0[5]\n")
if not t.read_until(b"v0[5] = 0x00000005"):
    failures.append("p v0[5] on a TTY")
t.write(b"continue\n")
if not t.read_until(b"The kernel finished"):
    failures.append("continue on a TTY")
t.p.wait(timeout=20)
text = t.out.decode(errors="replace").replace("\r", "")
if text.count("p v0[5]") != 1:  # echoed once, by the terminal
    failures.append("the command is echoed %d times" % text.count("p v0[5]"))
if t.p.returncode != 0:
    failures.append("exit status %d" % t.p.returncode)

# An endless loop, interrupted: the debugger stops in `forever` and can quit.
t = DebugTty([co, "forever", "--grid", "1", "--block", "64", "--arg", "zero:4", "--max-insts",
              "100000000000"])
t.read_until(b"(gfxemu) ")
t.write(b"continue\n")
time.sleep(1.0)
t.p.send_signal(signal.SIGINT)
if not t.read_until(b"Interrupted."):
    failures.append("SIGINT did not stop the kernel")
if not t.read_until(b"(gfxemu) ") or b"<forever+0x" not in t.out.split(b"Interrupted.")[-1]:
    failures.append("not stopped inside forever")
t.write(b"quit\n")
t.p.wait(timeout=20)
if t.p.returncode != 1:
    failures.append("quit after an interrupt: exit status %d" % t.p.returncode)
text += t.out.decode(errors="replace").replace("\r", "")

if failures:
    print("FAIL:", "; ".join(failures))
    print(text)
    sys.exit(1)
print("test_debugger_tty: all checks passed")
