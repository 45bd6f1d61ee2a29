"""test_debugger_tty.py - `gfxemu debug` on a terminal (a pseudo-terminal): it prompts, reads
commands typed one at a time, and does not echo them itself (the terminal does).  At the entry
v0 holds the work-item ids (LLVM "AMDGPU Usage", initial VGPR state), so lane 5 reads 5.
Ctrl-C (SIGINT) while an endless loop runs stops it inside the loop instead of ending gfxemu."""
import os
import pty
import select
import signal
import subprocess
import sys
import time

build = os.environ.get("BUILD", "build")
gfxemu = os.environ.get("GFXEMU", build + "/gfxemu")
tmp = build + "/test-data/debugger_tty"
os.makedirs(tmp, exist_ok=True)
co = tmp + "/k.co"
subprocess.run(["clang-22", "-x", "cl", "-cl-std=CL2.0", "-target", "amdgcn-amd-amdhsa",
                "-mcpu=gfx950", "-nogpulib", "-O2", "-c", "tests/debug/kernels.cl", "-o",
                co + ".o"], check=True, stderr=subprocess.DEVNULL)
subprocess.run(["ld.lld-22", "-shared", co + ".o", "-o", co], check=True)

master, slave = pty.openpty()
p = subprocess.Popen([gfxemu, "debug", co, "swap", "--grid", "1", "--block", "128",
                      "--arg", "zero:512"], stdin=slave, stdout=slave, stderr=slave)
os.close(slave)
out = b""


def read_until(token, timeout=20.0):
    global out
    end = time.time() + timeout
    while token not in out and time.time() < end:
        r, _, _ = select.select([master], [], [], 0.2)
        if r:
            try:
                out += os.read(master, 4096)
            except OSError:
                break
    return token in out


failures = []
if not read_until(b"(gfxemu) "):
    failures.append("no prompt")
# With libedit the line editor echoes; text typed before it has put the terminal in raw mode
# would also be echoed by the terminal driver (typeahead), so type after it settles, as a person.
time.sleep(0.5)
os.write(master, b"p v0[5]\n")
if not read_until(b"v0[5] = 0x00000005"):
    failures.append("p v0[5] on a TTY")
os.write(master, b"continue\n")
if not read_until(b"The kernel finished"):
    failures.append("continue on a TTY")
p.wait(timeout=20)
text = out.decode(errors="replace").replace("\r", "")
if text.count("p v0[5]") != 1:  # echoed once, by the terminal
    failures.append("the command is echoed %d times" % text.count("p v0[5]"))
if p.returncode != 0:
    failures.append("exit status %d" % p.returncode)

# An endless loop, interrupted: the debugger stops in `forever` and can quit.
master, slave = pty.openpty()
p = subprocess.Popen([gfxemu, "debug", co, "forever", "--grid", "1", "--block", "64", "--arg",
                      "zero:4", "--max-insts", "100000000000"],
                     stdin=slave, stdout=slave, stderr=slave)
os.close(slave)
out = b""
read_until(b"(gfxemu) ")
os.write(master, b"continue\n")
time.sleep(1.0)
p.send_signal(signal.SIGINT)
if not read_until(b"Interrupted."):
    failures.append("SIGINT did not stop the kernel")
if not read_until(b"(gfxemu) ") or b"<forever+0x" not in out.split(b"Interrupted.")[-1]:
    failures.append("not stopped inside forever")
os.write(master, b"quit\n")
p.wait(timeout=20)
if p.returncode != 1:
    failures.append("quit after an interrupt: exit status %d" % p.returncode)
text += out.decode(errors="replace").replace("\r", "")

if failures:
    print("FAIL:", "; ".join(failures))
    print(text)
    sys.exit(1)
print("test_debugger_tty: all checks passed")
