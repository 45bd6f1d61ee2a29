/* test_cmd.c - the pure command encoders against hand-derived words: method headers (the
 * documented 0x20010017 = INC, count 1, method 0x5c), GPFIFO entries, host semaphores, compute
 * and copy launches, QMD v03_00 field positions, and the ring arithmetic.  Every expected word
 * below is computed by hand from the bit positions in docs/tegra.md, not from the encoder. */
#include "common/check.h"
#include "nvtegra.h"
#include "../../tegra/abi.h" /* compiling it runs the _Static_asserts on every struct/ioctl */

#include <errno.h>
#include <string.h>

static void test_headers(void) {
    CHECK(nvt_cmd_header(NVT_SEC_INC, 0, 0x5c, 1) == 0x20010017u, "INC count 1 method 0x5c");
    CHECK(nvt_cmd_header(NVT_SEC_NON_INC, 4, 0x300, 2) == 0x600280c0u, "NON_INC: 0x%08x",
          nvt_cmd_header(NVT_SEC_NON_INC, 4, 0x300, 2));
    CHECK(nvt_cmd_header(NVT_SEC_IMMD, 1, 0x2c0, 9) == 0x800920b0u, "IMMD");
    CHECK(nvt_cmd_header(NVT_SEC_ONE_INC, 7, 0xffc, 0x1fff) == 0xbfffe3ffu, "ONE_INC, all max");
}

static void test_gpfifo_entry(void) {
    uint64_t e = nvt_cmd_gpfifo_entry(0x1234567890ull, 0x100);
    CHECK((uint32_t)e == 0x34567890u, "entry0 %08x", (uint32_t)e);
    CHECK((uint32_t)(e >> 32) == 0x00040012u, "entry1 %08x (GET_HI 0x12, LENGTH 0x100)",
          (uint32_t)(e >> 32));
    CHECK(nvt_cmd_gpfifo_entry(0x1000, 1) == (0x1000ull | 1ull << 42), "va | len << 42");
}

static void test_semaphores(void) {
    uint32_t w[16];
    nvt_pb pb = {w, 0, 16, 0};
    nvt_pb_sem_release(&pb, 0x123456780ull, 0x1122334455667788ull, 1, 1);
    const uint32_t rel[6] = {0x20050017u, 0x23456780u, 0x01u, 0x55667788u,
                             0x11223344u, 0x01100001u /* RELEASE | WFI<<20 | 64-bit<<24 */};
    CHECK(pb.len == 6 && !memcmp(w, rel, sizeof rel), "64-bit release with WFI");
    pb.len = 0;
    nvt_pb_sem_release(&pb, 0x1000, 7, 0, 0);
    CHECK(pb.len == 6 && w[5] == 1u && w[3] == 7 && w[4] == 0, "32-bit release, no WFI");
    pb.len = 0;
    nvt_pb_sem_acquire(&pb, 0x2000, 5, 0);
    CHECK(w[5] == 0x1003u, "32-bit acquire: CIRC_GEQ | SWITCH_TSG, got 0x%x", w[5]);
    pb.len = 0;
    nvt_pb_sem_acquire(&pb, 0x2000, 5, 1);
    CHECK(w[5] == 0x01001002u, "64-bit acquire: STRICT_GEQ | 64-bit | SWITCH_TSG, got 0x%x", w[5]);
    /* overflow is flagged, never written past cap */
    uint32_t small[4] = {0, 0, 0, 0xabcd};
    nvt_pb p2 = {small, 0, 3, 0};
    nvt_pb_sem_release(&p2, 0x1000, 1, 0, 0);
    CHECK(p2.overflow && p2.len == 3 && small[3] == 0xabcd, "overflow stops at cap");
}

static void test_launch_and_copy(void) {
    uint32_t w[32];
    nvt_pb pb = {w, 0, 32, 0};
    nvt_pb_launch_qmd(&pb, 0x100000100ull);
    const uint32_t l[4] = {0x200120adu, 0x01000001u, 0x200120b0u, 9u};
    CHECK(pb.len == 4 && !memcmp(w, l, sizeof l), "SEND_PCAS_A qmd>>8, PCAS2_B prefetch+schedule");
    pb.len = 0;
    nvt_pb_copy(&pb, 0x200000000ull, 0x100001000ull, 4096);
    const uint32_t c[10] = {
        0x20048100u, 1u, 0x1000u,     2u,    0u, 0x20028106u,
        4096u,       1u, 0x200180c0u, 0x186u /* NON_PIPELINED|FLUSH|SRC_PITCH|DST_PITCH */};
    CHECK(pb.len == 10 && !memcmp(w, c, sizeof c), "copy engine words");
    pb.len = 0;
    nvt_pb_membar(&pb);
    /* INC, 4 words, subchannel 0, MEM_OP_A 0x28 (dword 0xa); C: SYS_MEMBAR 0; D: MEMBAR 5 << 27 */
    const uint32_t mb[5] = {0x2004000au, 0, 0, 0, 0x28000000u};
    CHECK(pb.len == 5 && !memcmp(w, mb, sizeof mb), "SYS_MEMBAR words");
}

static void test_qmd(void) {
    uint32_t q[64], want[64];
    memset(want, 0, sizeof want);
    want[4] = 0x7f;        /* QMD_GROUP_ID 0x3f (133:128) | SM_GLOBAL_CACHING (134) */
    want[5] = 0xfc000000u; /* INVALIDATE_* 191:186 */
    want[11] = 1u << 26;   /* API_VISIBLE_CALL_LIMIT 378 = NO_CHECK */
    want[12] = 1000;       /* CTA_RASTER_WIDTH 415:384 */
    want[13] = 3;          /* HEIGHT 431:416 */
    want[14] = 2;          /* DEPTH 463:448 */
    /* SHARED_MEMORY_SIZE 561:544 = 0x2000 + the reserved 0x400; the smallest sm_87 carve-out
     * holding 9 KiB is 16 KiB: MIN_SM_CONFIG 567:562 = MAX 574:569 = 16/4+1 = 5 */
    want[17] = 0x2400u | 5u << 18 | 5u << 25;
    want[18] = 3u << 4 | 128u << 16; /* QMD_MAJOR_VERSION 583:580; THREAD_DIMENSION0 607:592 */
    want[19] = 2u | 1u << 16;        /* THREAD_DIMENSION1/2 */
    /* CONSTANT_BUFFER_VALID(0) 640; REGISTER_COUNT_V 656:648; TARGET_SM_CONFIG 662:657 = 5 */
    want[20] = 1u | 40u << 8 | 5u << 17;
    want[23] = 0x400u | 1u << 27; /* SHADER_LOCAL_MEMORY_LOW_SIZE 759:736; BARRIER_COUNT 767:763 */
    want[24] = 0x300;             /* RELEASE0_ADDRESS_LOWER 799:768 */
    want[25] = 1u | 1u << 23 | 1u << 30; /* ADDRESS_UPPER 807:800, ENABLE 823, SIZE 831:830 */
    want[26] = 0xdeadbeefu;              /* RELEASE0_PAYLOAD_LOWER 863:832 */
    want[32] = 0x200;                    /* CB0 ADDR_LOWER 1055:1024 */
    want[33] = 1u | 0x17u << 19;         /* ADDR_UPPER 1072:1056, SIZE_SHIFTED4 1087:1075 */
    want[48] = 0x34567880u;              /* PROGRAM_ADDRESS_LOWER 1567:1536 */
    want[49] = 0x12;                     /* PROGRAM_ADDRESS_UPPER 1584:1568 */
    nvt_qmd_desc d = {0};
    d.program_va = 0x1234567880ull;
    d.grid[0] = 1000, d.grid[1] = 3, d.grid[2] = 2;
    d.block[0] = 128, d.block[1] = 2, d.block[2] = 1;
    d.shared_bytes = 0x2000;
    d.registers = 40;
    d.barriers = 1;
    d.cbuf0_va = 0x100000200ull;
    d.cbuf0_size = 0x170;
    d.release_va = 0x100000300ull;
    d.release_payload = 0xdeadbeefu;
    d.local_bytes = 0x400;
    CHECK(nvt_qmd_build(q, &d) == 0, "build");
    for (int i = 0; i < 64; i++)
        CHECK(q[i] == want[i], "QMD dword %d: 0x%08x, expected 0x%08x", i, q[i], want[i]);
    CHECK(nvt_qmd_get(q, 1087, 1075) == 0x17 && nvt_qmd_get(q, 1584, 1568) == 0x12, "get");

    nvt_qmd_desc bad = d;
    bad.grid[1] = 65536;
    CHECK(nvt_qmd_build(q, &bad) == -EINVAL, "grid y > 65535");
    bad = d, bad.block[0] = 1025, bad.block[1] = 1;
    CHECK(nvt_qmd_build(q, &bad) == -EINVAL, "1025 threads");
    bad = d, bad.program_va += 4;
    CHECK(nvt_qmd_build(q, &bad) == -EINVAL, "misaligned program");
    bad = d, bad.cbuf0_size = 0x168;
    CHECK(nvt_qmd_build(q, &bad) == -EINVAL, "cbuf0 size not a multiple of 16");
    /* 163 KiB + the reserved 1 KiB is the 164 KiB carve-out: config 164/4+1 = 42 */
    bad = d, bad.shared_bytes = 163 * 1024;
    CHECK(nvt_qmd_build(q, &bad) == 0 && nvt_qmd_get(q, 662, 657) == 42 &&
              nvt_qmd_get(q, 561, 544) == 164 * 1024,
          "163 KiB shared: config %llu", (unsigned long long)nvt_qmd_get(q, 662, 657));
    bad = d, bad.shared_bytes = 163 * 1024 + 16;
    CHECK(nvt_qmd_build(q, &bad) == -EINVAL, "163 KiB + 16 shared");
    bad = d, bad.shared_bytes = 0;
    CHECK(nvt_qmd_build(q, &bad) == 0 && nvt_qmd_get(q, 561, 544) == 0x400 &&
              nvt_qmd_get(q, 662, 657) == 3,
          "no shared memory: still the reserved 1 KiB, in the 8 KiB config (3)");
    bad = d, bad.local_bytes = 24;
    CHECK(nvt_qmd_build(q, &bad) == -EINVAL, "local bytes not a multiple of 16");
    bad = d, bad.local_bytes = 1u << 24;
    CHECK(nvt_qmd_build(q, &bad) == -EINVAL, "16 MiB of local memory per thread");
    bad = d, bad.program_va = 1ull << 40;
    CHECK(nvt_qmd_build(q, &bad) == -EINVAL, "program above 40 bits");
    bad = d, bad.grid[0] = 0;
    CHECK(nvt_qmd_build(q, &bad) == -EINVAL, "empty grid");
}

static void test_field_access(void) {
    uint32_t q[64];
    memset(q, 0xff, sizeof q);
    nvt_qmd_set(q, 47, 16, 0x12345678u); /* straddles dwords 0 and 1 */
    CHECK(q[0] == 0x5678ffffu && q[1] == 0xffff1234u, "straddling set: %08x %08x", q[0], q[1]);
    CHECK(nvt_qmd_get(q, 47, 16) == 0x12345678u, "straddling get");
}

static void test_ring(void) {
    CHECK(nvt_ring_free(0, 0, 8) == 7, "empty ring keeps one slot");
    CHECK(nvt_ring_free(7, 0, 8) == 0, "full");
    CHECK(nvt_ring_free(0, 1, 8) == 0, "full across the wrap");
    CHECK(nvt_ring_free(3, 5, 8) == 1, "3 -> 5");
    CHECK(nvt_ring_free(5, 3, 8) == 5, "5 -> 3");
}

int main(void) {
    test_headers();
    test_gpfifo_entry();
    test_semaphores();
    test_launch_and_copy();
    test_qmd();
    test_field_access();
    test_ring();
    return check_summary("tegra/test_cmd");
}
