"""gfxemu_run_asm() / gfxemu.run_asm(): dispatches the way a framework's mock driver makes them.

Raw .text bytes (from the module API for a clang-22 kernel, from llvm-objcopy-22 for an
llvm-mc-22 snippet), host buffers from ctypes, hand-built kernarg blocks, user SGPRs, rsrc2 with
workgroup ids x/y/z, LDS granules and scratch; wild addresses return non-zero with a fault record
and leave the process and its memory alone.  Expected values come from host arithmetic here and
from LLVM's "AMDGPU Usage" (initial register layout), not from gfxemu."""
import ctypes
import os
import struct
import unittest

import gfxtest
import gfxemu

MOCK = r"""
__kernel void mock(__global int *out, __global const int *in, int salt, int gdx, int gdy) {
    __local int tile[128];
    volatile int priv[16];                     /* private memory: scratch */
    uint tx = __builtin_amdgcn_workitem_id_x(), ty = __builtin_amdgcn_workitem_id_y(),
         tz = __builtin_amdgcn_workitem_id_z();
    uint wx = __builtin_amdgcn_workgroup_id_x(), wy = __builtin_amdgcn_workgroup_id_y(),
         wz = __builtin_amdgcn_workgroup_id_z();
    uint lid = tx + ty * 8 + tz * 32;
    uint wg = wx + wy * gdx + wz * gdx * gdy;
    tile[lid] = in[lid] + (int)wg;
    __builtin_amdgcn_fence(__ATOMIC_RELEASE, "workgroup");
    __builtin_amdgcn_s_barrier();
    __builtin_amdgcn_fence(__ATOMIC_ACQUIRE, "workgroup");
    int v = tile[(lid + 1) & 127];             /* another lane's, partly from the other wave */
    for (int i = 0; i < 16; i++)
        priv[i] = v * i + salt;
    int s = priv[(lid + (uint)salt) & 15];
    out[wg * 128 + lid] = s ^ (int)(tx | ty << 8 | tz << 16);
}
"""

# s[0:1] kernarg pointer and s2..s5 from user data (USER_SGPR_COUNT 6), then workgroup id x, y, z
# and workgroup info: each workgroup stores s2..s9 at out + 32 * linear workgroup id.
USER_SGPRS_ASM = """
    s_load_dwordx2 s[10:11], s[0:1], 0x0
    s_load_dwordx2 s[12:13], s[0:1], 0x8
    s_waitcnt lgkmcnt(0)
    s_mul_i32 s14, s8, s13
    s_add_u32 s14, s14, s7
    s_mul_i32 s14, s14, s12
    s_add_u32 s14, s14, s6
    s_lshl_b32 s14, s14, 5
    s_add_u32 s10, s10, s14
    s_addc_u32 s11, s11, 0
    v_mov_b32 v10, 0
    v_mov_b32 v2, s2
    v_mov_b32 v3, s3
    v_mov_b32 v4, s4
    v_mov_b32 v5, s5
    v_mov_b32 v6, s6
    v_mov_b32 v7, s7
    v_mov_b32 v8, s8
    v_mov_b32 v9, s9
    global_store_dwordx4 v10, v[2:5], s[10:11]
    global_store_dwordx4 v10, v[6:9], s[10:11] offset:16
    s_endpgm
"""

# COMPUTE_PGM_RSRC2 fields ("AMDGPU Usage", compute_pgm_rsrc2 for GFX6-GFX12).
SCRATCH_EN, TGID_X, TGID_Y, TGID_Z, TG_SIZE_EN = 1, 1 << 7, 1 << 8, 1 << 9, 1 << 10
USER_SGPRS = lambda n: n << 1
TIDIG = lambda n: n << 11
LDS_SIZE = lambda granules: granules << 15
LDS_GRANULE = {"gfx950": 320 * 4, "gfx942": 128 * 4}

GRID, BLOCK = (3, 2, 2), (8, 4, 4)
NWG = GRID[0] * GRID[1] * GRID[2]


def expected_mock(inp, salt):
    out = []
    for wg in range(NWG):
        tile = [inp[lid] + wg for lid in range(128)]
        for lid in range(128):
            tx, ty, tz = lid % 8, lid // 8 % 4, lid // 32
            v = tile[(lid + 1) & 127]
            s = v * ((lid + salt) & 15) + salt
            out.append(s ^ (tx | ty << 8 | tz << 16))
    return out


class Mapped:
    """Host buffers registered for the test's dispatches, unregistered afterwards."""

    def __init__(self):
        self.objs = []

    def __call__(self, obj):
        gfxemu.map_host(obj)
        self.objs.append(obj)
        return ctypes.addressof(obj)

    def release(self):
        for o in self.objs:
            gfxemu.unmap_host(o)
        self.objs = []


class MockDriver(unittest.TestCase):
    def setUp(self):
        self.map = Mapped()

    def tearDown(self):
        self.map.release()

    def raw_kernel(self, arch):
        """Raw code bytes of the clang-22 kernel as a driver holds them, and its descriptor."""
        m = gfxemu.load(gfxtest.compile_cl(MOCK, "mock", arch=arch))
        k = m.kernel("mock")
        text_addr, text = m.text
        code = text[k.info["entry"] - text_addr:]
        return ctypes.create_string_buffer(code, len(code)), len(code), k.info

    def dispatch(self, arch, user_data=False, lds_granules=None, scratch=None, salt=5):
        code, size, info = self.raw_kernel(arch)
        granule = LDS_GRANULE[arch]
        if lds_granules is None:
            lds_granules = -(-info["group_segment_fixed_size"] // granule)
        rsrc2 = (SCRATCH_EN | USER_SGPRS(2) | TGID_X | TGID_Y | TGID_Z | TIDIG(2) |
                 LDS_SIZE(lds_granules))
        # What the compiled code expects: the same fields in its own descriptor (CP-owned
        # LDS_SIZE is 0 there).
        self.assertEqual(info["rsrc2"], rsrc2 & ~LDS_SIZE(0x1ff))
        if scratch is None:
            scratch = info["private_segment_fixed_size"]
        self.assertGreater(info["private_segment_fixed_size"], 0)
        self.assertEqual(info["group_segment_fixed_size"], 512)

        inp = (ctypes.c_int32 * 128)(*[3 * i - 50 for i in range(128)])
        out = (ctypes.c_int32 * (NWG * 128))(*([0x5a5a5a5a] * (NWG * 128)))
        args = ctypes.create_string_buffer(struct.pack(
            "<QQiii", ctypes.addressof(out), ctypes.addressof(inp), salt, GRID[0], GRID[1]), 64)
        karg = self.map(args)
        self.map(inp)
        self.map(out)
        users = [karg & 0xffffffff, karg >> 32] if user_data else None
        rc = gfxemu.run_asm(ctypes.addressof(code), size, *GRID, *BLOCK, karg, rsrc2=rsrc2,
                            scratch_size=scratch, arch={"gfx950": "cdna", "gfx942": "cdna3"}[arch],
                            user_data=users)
        return rc, list(out), inp

    def test_gfx950_dispatch(self):
        rc, out, inp = self.dispatch("gfx950")
        self.assertEqual(rc, 0, gfxemu.last_error())
        self.assertEqual(out, expected_mock(list(inp), 5))
        self.assertIsNone(gfxemu.last_fault())
        self.assertEqual(gfxemu.last_error(), "")

    def test_gfx950_user_sgprs_carry_the_kernarg_pointer(self):
        rc, out, inp = self.dispatch("gfx950", user_data=True, salt=11)
        self.assertEqual(rc, 0, gfxemu.last_error())
        self.assertEqual(out, expected_mock(list(inp), 11))

    def test_gfx942_dispatch(self):
        rc, out, inp = self.dispatch("gfx942", salt=-3)
        self.assertEqual(rc, 0, gfxemu.last_error())
        self.assertEqual(out, expected_mock(list(inp), -3))

    def test_lds_size_comes_from_rsrc2(self):
        # Without LDS the kernel's LDS accesses are out of range: the hardware's 0 and dropped
        # writes by default (src/exec/lds.c), an LDS fault under memcheck.
        os.environ["GFXEMU_MEMCHECK"] = "1"
        try:
            rc, _, _ = self.dispatch("gfx950", lds_granules=0)
        finally:
            del os.environ["GFXEMU_MEMCHECK"]
        self.assertEqual(rc, 8)
        self.assertEqual(gfxemu.last_fault().kind, "LDS fault")
        self.map.release()
        # 512 bytes are one 1280-byte granule on gfx950 but one 512-byte granule on gfx942.
        rc, out, inp = self.dispatch("gfx942", lds_granules=1)
        self.assertEqual(rc, 0, gfxemu.last_error())

    def test_lds_granule_per_architecture(self):
        # One LDS word at byte 1200, stored to s[0:1] (the kernarg pointer, here the output).
        # One granule covers it on gfx950 (1280 bytes) but not on gfx942 (512 bytes).
        asm = ("v_mov_b32 v1, 0x4b0\nv_mov_b32 v2, 77\nds_write_b32 v1, v2\n"
               "s_waitcnt lgkmcnt(0)\nds_read_b32 v3, v1\ns_waitcnt lgkmcnt(0)\n"
               "v_mov_b32 v4, 0\nglobal_store_dword v4, v3, s[0:1]\ns_endpgm\n")
        out = (ctypes.c_uint32 * 1)()
        self.map(out)
        for arch, granules, rc_want in (("gfx950", 1, 0), ("gfx950", 0, 8), ("gfx942", 1, 8),
                                        ("gfx942", 2, 8), ("gfx942", 3, 0),
                                        ("gfx90a", 2, 8), ("gfx90a", 3, 0)):
            code = gfxtest.assemble_text(asm, "lds1200-" + arch, arch=arch)
            # By default an access past the LDS does what the hardware does (the write dropped,
            # the read 0); under memcheck it is an LDS fault at byte 1200.
            for memcheck in (0, 1):
                out[0] = 5
                os.environ["GFXEMU_MEMCHECK"] = str(memcheck)
                try:
                    rc = gfxemu.run_asm(code, len(code), 1, 1, 1, 64, 1, 1, out,
                                        rsrc2=USER_SGPRS(2) | LDS_SIZE(granules), arch=arch)
                finally:
                    del os.environ["GFXEMU_MEMCHECK"]
                what = (arch, granules, memcheck, gfxemu.last_error())
                if rc_want and memcheck:
                    self.assertEqual(rc, rc_want, what)
                    self.assertEqual(gfxemu.last_fault().kind, "LDS fault")
                    self.assertEqual(gfxemu.last_fault().address, 1200)
                else:
                    self.assertEqual(rc, 0, what)
                    self.assertEqual(out[0], 0 if rc_want else 77, what)

    def test_scratch_size(self):
        rc, _, _ = self.dispatch("gfx950", scratch=0)
        self.assertNotEqual(rc, 0)
        f = gfxemu.last_fault()
        self.assertIsNotNone(f)
        self.assertTrue(f.instruction.startswith("scratch_"), f.instruction)
        self.map.release()
        rc, out, inp = self.dispatch("gfx950", scratch=4096, salt=2)
        self.assertEqual(rc, 0, gfxemu.last_error())
        self.assertEqual(out, expected_mock(list(inp), 2))

    def test_watchdog_names_the_environment_variable(self):
        code = gfxtest.assemble_text("spin:\n    s_branch spin\n", "spin")
        old = os.environ.get("GFXEMU_MAX_INSTS")
        os.environ["GFXEMU_MAX_INSTS"] = "5000"
        try:
            rc = gfxemu.run_asm(code, len(code), 1, 1, 1, 64, 1, 1, 0, arch="gfx950")
        finally:
            if old is None:
                del os.environ["GFXEMU_MAX_INSTS"]
            else:
                os.environ["GFXEMU_MAX_INSTS"] = old
        self.assertEqual(rc, 8)
        self.assertEqual(gfxemu.last_fault().kind, "watchdog")
        msg = gfxemu.last_error()
        self.assertIn("budget of 5000 wave-instructions", msg)
        self.assertTrue(msg.endswith("; raise it with the GFXEMU_MAX_INSTS environment variable"),
                        msg)
        self.assertNotIn("--max-insts", msg)

    def test_user_sgprs_workgroup_ids_and_info(self):
        code_bytes = gfxtest.assemble_text(USER_SGPRS_ASM, "user_sgprs")
        code = ctypes.create_string_buffer(code_bytes, len(code_bytes))
        out = (ctypes.c_uint32 * (8 * NWG))()
        args = ctypes.create_string_buffer(struct.pack("<QII", ctypes.addressof(out), GRID[0],
                                                       GRID[1]), 16)
        karg = self.map(args)
        self.map(out)
        rsrc2 = USER_SGPRS(6) | TGID_X | TGID_Y | TGID_Z | TG_SIZE_EN
        users = [karg & 0xffffffff, karg >> 32, 0x11, 0x22, 0x33, 0x44]
        rc = gfxemu.run_asm(code, len(code_bytes), *GRID, 64, 1, 1, karg, rsrc2=rsrc2,
                            arch="gfx950", user_data=users)
        self.assertEqual(rc, 0, gfxemu.last_error())
        want = []
        for z in range(GRID[2]):
            for y in range(GRID[1]):
                for x in range(GRID[0]):
                    # workgroup info: first wavefront [31], wavefronts in the group [5:0]
                    want += [0x11, 0x22, 0x33, 0x44, x, y, z, 1 << 31 | 1]
        self.assertEqual(list(out), want)

    def test_code_cache_follows_address_and_bytes(self):
        # More distinct code blocks than the library caches, then the first again, then new bytes
        # at an old address: each run must execute exactly the bytes it was given.
        out = (ctypes.c_uint32 * 1)()
        self.map(out)
        snippet = lambda v: gfxtest.assemble_text(
            "v_mov_b32 v0, 0\nv_mov_b32 v1, %d\nglobal_store_dword v0, v1, s[0:1]\n"
            "s_endpgm\n" % v, "store%d" % v)
        # Room for the longer snippet(99) (a literal) written over codes[5] below.
        codes = [ctypes.create_string_buffer(snippet(v), 64) for v in range(12)]
        for v in list(range(12)) + [0, 5]:
            rc = gfxemu.run_asm(codes[v], len(snippet(v)), 1, 1, 1, 64, 1, 1, out, rsrc2=0)
            self.assertEqual((rc, out[0]), (0, v))
        new = snippet(99)
        ctypes.memmove(codes[5], new, len(new))
        rc = gfxemu.run_asm(codes[5], len(new), 1, 1, 1, 64, 1, 1, out, rsrc2=0)
        self.assertEqual((rc, out[0]), (0, 99))

    def test_exported_c_signature(self):
        # A framework that calls the library directly, with the exact signature.
        lib = ctypes.CDLL(gfxtest.LIB)
        f = lib.gfxemu_run_asm
        u32, u64 = ctypes.c_uint32, ctypes.c_uint64
        f.argtypes = [u64, u32, u32, u32, u32, u32, u32, u32, u64, u32, u32, ctypes.c_char_p,
                      ctypes.POINTER(u32), u32]
        f.restype = ctypes.c_int
        code_bytes = gfxtest.assemble_text("s_endpgm\n", "endpgm")
        code = ctypes.create_string_buffer(code_bytes, len(code_bytes))
        self.assertEqual(f(ctypes.addressof(code), 4, 1, 1, 1, 64, 1, 1, 0, 0, 0, b"gfx950",
                           None, 0), 0)
        self.assertEqual(f(ctypes.addressof(code), 4, 1, 1, 1, 64, 1, 1, 0, 0, 0, b"gfx908",
                           None, 0), 4)
        self.assertIn("unknown architecture 'gfx908'", gfxemu.last_error())
        self.assertEqual(f(ctypes.addressof(code), 4, 1, 1, 1, 64, 1, 1, 0, 0, 0, b"gfx90a",
                           None, 0), 0)
        self.assertEqual(f(ctypes.addressof(code), 4, 1, 1, 1, 64, 1, 1, 0, 0, 0, b"cdna2",
                           None, 0), 0)
        # RDNA names run RDNA code: s_endpgm is 0xbfb00000 there (0xbf810000 is gfx9's)
        rdna_end = ctypes.create_string_buffer(bytes.fromhex("0000b0bf"), 4)
        for name in (b"rdna3", b"gfx1100", b"rdna4", b"gfx1201:wavefrontsize64"):
            self.assertEqual(f(ctypes.addressof(rdna_end), 4, 1, 1, 1, 64, 1, 1, 0, 0, 0, name,
                               None, 0), 0, gfxemu.last_error())
        users = (u32 * 17)()
        self.assertEqual(f(ctypes.addressof(code), 4, 1, 1, 1, 64, 1, 1, 0, 0, 0, None, users,
                           17), 1)
        self.assertIn("more than 16 user SGPRs", gfxemu.last_error())


# f32 denormal * normal, stored to the kernarg block's first pointer: the initial MODE decides.
DENORM_MUL = {
    "gfx1100": """
    s_load_b64 s[2:3], s[0:1], 0x0
    v_mov_b32 v0, 4
    v_mul_f32 v1, 0.5, v0
    v_mov_b32 v2, 0
    s_waitcnt lgkmcnt(0)
    global_store_b32 v2, v1, s[2:3]
    s_endpgm
""",
    "gfx950": """
    s_load_dwordx2 s[2:3], s[0:1], 0x0
    v_mov_b32 v0, 4
    v_mul_f32 v1, 0.5, v0
    v_mov_b32 v2, 0
    s_waitcnt lgkmcnt(0)
    global_store_dword v2, v1, s[2:3]
    s_endpgm
"""}


class InitialMode(unittest.TestCase):
    """rsrc1's float mode fields set the initial MODE ("AMDGPU Usage", COMPUTE_PGM_RSRC1)."""

    def setUp(self):
        self.map = Mapped()

    def tearDown(self):
        self.map.release()

    def mul(self, arch, **kw):
        code_bytes = gfxtest.assemble_text(DENORM_MUL[arch], "denorm_mul_" + arch, arch=arch)
        code = ctypes.create_string_buffer(code_bytes, len(code_bytes))
        out = (ctypes.c_uint32 * 1)(0xdeadbeef)
        args = ctypes.create_string_buffer(struct.pack("<Q", ctypes.addressof(out)), 8)
        karg = self.map(args)
        self.map(out)
        rc = gfxemu.run_asm(code, len(code_bytes), 1, 1, 1, 32, 1, 1, karg, rsrc2=USER_SGPRS(2),
                            arch=arch, **kw)
        self.assertEqual(rc, 0, gfxemu.last_error())
        return out[0]

    def test_default_keeps_f32_denormals(self):
        for arch in DENORM_MUL:
            self.assertEqual(self.mul(arch), 2, arch)  # 4 * 2^-149 * 0.5, exact
            self.assertEqual(self.mul(arch, ranges=[]), 2, arch)

    def test_llvm_mc_default_descriptor_flushes_f32_denormals(self):
        # llvm-mc-22's default .amdhsa_kernel descriptor for gfx1100 has rsrc1 0xe0ac001f
        # (FLOAT_DENORM_MODE_32 = 0).  Hardware value, tinygrad test/amd/hw
        # test_denormal_f32_mul_ftz: a denormal times a normal gives +0.
        for arch, rsrc1 in (("gfx1100", 0xe0ac001f), ("gfx950", 0x00ac031f)):
            self.assertEqual(self.mul(arch, rsrc1=rsrc1), 0, arch)
            # FLOAT_DENORM_MODE_32 = 3 keeps them
            self.assertEqual(self.mul(arch, rsrc1=rsrc1 | 3 << 16), 2, arch)

    def test_exported_c_signature(self):
        lib = ctypes.CDLL(gfxtest.LIB)
        f = lib.gfxemu_run_asm_rsrc1
        u32, u64 = ctypes.c_uint32, ctypes.c_uint64
        f.argtypes = [u64, u32, u32, u32, u32, u32, u32, u32, u64, u32, u32, ctypes.c_char_p,
                      ctypes.POINTER(u32), u32, ctypes.POINTER(u64), ctypes.c_size_t, u32]
        f.restype = ctypes.c_int
        code_bytes = gfxtest.assemble_text("s_endpgm\n", "endpgm")
        code = ctypes.create_string_buffer(code_bytes, len(code_bytes))
        self.assertEqual(f(ctypes.addressof(code), 4, 1, 1, 1, 64, 1, 1, 0, 0, 0, b"gfx950",
                           None, 0, None, 0, 0xffffffff), 0, gfxemu.last_error())


class WildAccess(unittest.TestCase):
    def setUp(self):
        self.map = Mapped()
        m = gfxemu.load(gfxtest.compile_cl(MOCK, "mock"))
        k = m.kernel("mock")
        text_addr, text = m.text
        self.code_bytes = text[k.info["entry"] - text_addr:]
        self.code = ctypes.create_string_buffer(self.code_bytes, len(self.code_bytes))
        self.rsrc2 = k.info["rsrc2"] | LDS_SIZE(1)
        self.scratch = k.info["private_segment_fixed_size"]

    def tearDown(self):
        self.map.release()

    def run_with(self, out_addr, in_addr, map_args=True):
        args = ctypes.create_string_buffer(struct.pack("<QQiii", out_addr, in_addr, 1, GRID[0],
                                                       GRID[1]), 64)
        if map_args:
            self.map(args)
        rc = gfxemu.run_asm(self.code, len(self.code_bytes), *GRID, *BLOCK,
                            ctypes.addressof(args), rsrc2=self.rsrc2,
                            scratch_size=self.scratch)
        return rc, ctypes.addressof(args)

    def test_wild_reads_and_writes_fault_and_leave_memory_alone(self):
        inp = (ctypes.c_int32 * 128)()
        out = (ctypes.c_int32 * (NWG * 128))()
        self.map(inp)
        self.map(out)
        # A read from an address nobody registered (a null-page pointer).
        rc, _ = self.run_with(ctypes.addressof(out), 0x1000)
        self.assertEqual(rc, 8)
        f = gfxemu.last_fault()
        self.assertEqual((f.kind, f.address, f.write), ("memory fault", 0x1000, False))
        code_addr = ctypes.addressof(self.code)
        self.assertTrue(code_addr <= f.pc < code_addr + len(self.code_bytes), hex(f.pc))
        self.assertIn("memory fault: read of 4 bytes at 0x1000", gfxemu.last_error())
        # A write into real host memory that was not registered: refused, memory untouched.
        victim = (ctypes.c_int32 * (NWG * 128))(*([7] * (NWG * 128)))
        rc, _ = self.run_with(ctypes.addressof(victim), ctypes.addressof(inp))
        self.assertEqual(rc, 8)
        f = gfxemu.last_fault()
        self.assertEqual((f.kind, f.write), ("memory fault", True))
        self.assertEqual(list(victim), [7] * (NWG * 128))
        # A kernarg block that was not registered, on a page of its own (reads may touch the
        # rest of the pages holding registered ranges, as on hardware): the first s_load faults.
        import mmap
        page = mmap.mmap(-1, mmap.PAGESIZE)
        page.write(struct.pack("<QQiii", ctypes.addressof(out), ctypes.addressof(inp), 1,
                               GRID[0], GRID[1]))
        karg_obj = ctypes.c_char.from_buffer(page)
        karg = ctypes.addressof(karg_obj)
        rc = gfxemu.run_asm(self.code, len(self.code_bytes), *GRID, *BLOCK, karg,
                            rsrc2=self.rsrc2, scratch_size=self.scratch)
        self.assertEqual(rc, 8)
        self.assertEqual(gfxemu.last_fault().address, karg + 0)
        self.assertTrue(gfxemu.last_fault().instruction.startswith("s_load"))
        del karg_obj
        page.close()
        # The process is alive and the next good dispatch works.
        rc, _ = self.run_with(ctypes.addressof(out), ctypes.addressof(inp))
        self.assertEqual(rc, 0, gfxemu.last_error())
        self.assertEqual(list(out), expected_mock([0] * 128, 1))

    def test_registration_errors(self):
        buf = (ctypes.c_char * 128)()
        gfxemu.register_host(ctypes.addressof(buf), 64)
        gfxemu.map_host(ctypes.addressof(buf) + 32, 64)  # overlapping: merges (issue #13)
        gfxemu.unregister_host(ctypes.addressof(buf) + 90)  # the whole merged [0, 96)
        with self.assertRaises(gfxemu.Error) as cm:
            gfxemu.unmap_host(buf)
        self.assertIn("no byte of the range is registered", str(cm.exception))
        with self.assertRaises(gfxemu.Error):
            gfxemu.map_host(ctypes.addressof(buf), 0)

    def test_mapped_objects_stay_alive_until_unmapped(self):
        # A registered object freed by Python would leave kernels a range of freed (reused)
        # memory: map_host keeps the object alive until unmap_host.
        import gc
        import weakref
        buf = (ctypes.c_char * 256)()
        ref = weakref.ref(buf)
        addr = ctypes.addressof(buf)
        gfxemu.map_host(buf)
        del buf
        gc.collect()
        self.assertIsNotNone(ref(), "a registered buffer was freed while still registered")
        gfxemu.unmap_host(addr)
        gc.collect()
        self.assertIsNone(ref(), "unmap_host did not let the buffer go")

    def test_code_size_beyond_the_code_object(self):
        # lib_sz larger than the object would make the C side read past it.
        code = bytearray(8)
        with self.assertRaises(ValueError):
            gfxemu.run_asm(code, 4096, 1, 1, 1, 64, 1, 1, 0)


if __name__ == "__main__":
    gfxtest.main()
