"""Crash-safe access to LLVM 22's AMDGPU disassembler (the oracle the ISA tables are derived from).

LLVM is reached through its C API (libLLVM.so.22.1, from Debian's llvm-22 package) with ctypes.
Some words crash LLVM 22's AMDGPU printer (e.g. SDWA selectors 6/7), so every batch runs in a
forked child; when the child dies we retry the batch one word at a time and record the crashers.
"""
import ctypes
import os
import pickle
import struct

ARCHES = ("gfx942", "gfx950", "gfx90a", "gfx1100", "gfx1201")  # new targets go last: older tables keep their bytes
LIB_CANDIDATES = (
    os.environ.get("GFXEMU_LIBLLVM", ""),
    "/usr/lib/llvm-22/lib/libLLVM.so.22.1",
    "libLLVM.so.22.1",
)

CRASH = "<llvm-crash>"


class Llvm:
    """dis(arch, words) -> (size, text) ; size 0 means LLVM rejects the word (text None)."""

    def __init__(self):
        self._lib = None
        for path in LIB_CANDIDATES:
            if not path:
                continue
            try:
                self._lib = ctypes.CDLL(path)
                break
            except OSError:
                continue
        if self._lib is None:
            raise SystemExit("gen_isa: cannot load libLLVM.so.22.1 (apt-get install llvm-22)")
        L = self._lib
        for f in ("LLVMInitializeAMDGPUTargetInfo", "LLVMInitializeAMDGPUTargetMC",
                  "LLVMInitializeAMDGPUDisassembler"):
            getattr(L, f)()
        L.LLVMCreateDisasmCPU.restype = ctypes.c_void_p
        L.LLVMCreateDisasmCPU.argtypes = [ctypes.c_char_p, ctypes.c_char_p, ctypes.c_void_p,
                                          ctypes.c_int, ctypes.c_void_p, ctypes.c_void_p]
        L.LLVMDisasmInstruction.restype = ctypes.c_size_t
        L.LLVMDisasmInstruction.argtypes = [ctypes.c_void_p, ctypes.c_char_p, ctypes.c_uint64,
                                            ctypes.c_uint64, ctypes.c_char_p, ctypes.c_size_t]
        self._dc = {a: L.LLVMCreateDisasmCPU(b"amdgcn-amd-amdhsa", a.encode(), None, 0, None, None)
                    for a in ARCHES}
        self._buf = ctypes.create_string_buffer(512)
        self._cache = {}

    def _raw(self, arch, words):
        b = struct.pack("<%dI" % len(words), *words)
        n = self._lib.LLVMDisasmInstruction(self._dc[arch], b, len(b), 0, self._buf, 512)
        if n == 0:
            return (0, None)
        return (n, self._buf.value.decode().strip())

    def _child(self, arch, batch):
        r, w = os.pipe()
        pid = os.fork()
        if pid == 0:
            os.close(r)
            out = os.fdopen(w, "wb")
            try:
                for words in batch:
                    out.write(pickle.dumps(self._raw(arch, words)))
                    out.flush()
            finally:
                os._exit(0)
        os.close(w)
        inp = os.fdopen(r, "rb")
        res = []
        try:
            while True:
                res.append(pickle.load(inp))
        except EOFError:
            pass
        inp.close()
        os.waitpid(pid, 0)
        return res

    def dis_many(self, arch, items):
        """items: list of word tuples (pad with trailing words for literals). Returns list of
        (size, text); a word that crashes LLVM gives (0, CRASH)."""
        items = [tuple(x) for x in items]
        out = [None] * len(items)
        todo = []
        for i, it in enumerate(items):
            k = (arch, it)
            if k in self._cache:
                out[i] = self._cache[k]
            else:
                todo.append(i)
        pos = 0
        while pos < len(todo):
            batch = [items[i] for i in todo[pos:pos + 20000]]
            res = self._child(arch, batch)
            for j, r in enumerate(res):
                out[todo[pos + j]] = r
            pos += len(res)
            if len(res) < len(batch):  # the child died on todo[pos]
                out[todo[pos]] = (0, CRASH)
                pos += 1
        for i in todo:
            self._cache[(arch, items[i])] = out[i]
        return out

    def dis_raw(self, arch, words):
        """One word, in a forked child, with LLVM's trailing whitespace kept (a few RDNA
        operands print "m0 "); (0, None) when illegal or when LLVM crashes."""
        r, w = os.pipe()
        pid = os.fork()
        if pid == 0:
            os.close(r)
            b = struct.pack("<%dI" % len(words), *words)
            n = self._lib.LLVMDisasmInstruction(self._dc[arch], b, len(b), 0, self._buf, 512)
            with os.fdopen(w, "wb") as out:
                out.write(pickle.dumps((n, self._buf.value.decode().lstrip() if n else None)))
            os._exit(0)
        os.close(w)
        with os.fdopen(r, "rb") as inp:
            data = inp.read()
        os.waitpid(pid, 0)
        return pickle.loads(data) if data else (0, None)

    def dis(self, arch, words):
        return self.dis_many(arch, [words])[0]
