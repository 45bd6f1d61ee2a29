/* sdma.c - SDMA queues (KFD_IOC_QUEUE_TYPE_SDMA and SDMA_XGMI): the system DMA engine's packets as
 * SDMA v4.x (gfx9: vega10_sdma_pkt_open.h, sdma_v4_4 in amdgpu) lays them out.  The ring and its
 * read/write pointers count bytes (amdgpu's sdma_v4_0.c writes wptr << 2); packets are dwords:
 * header op [7:0], sub_op [15:8].
 *
 *   NOP            header (count [29:16] dwords follow)
 *   COPY_LINEAR    header, count [21:0] (bytes - 1), parameter, src lo/hi, dst lo/hi
 *   WRITE_UNTILED  header, dst lo/hi, count [19:0] (dwords - 1), data...
 *   INDIRECT       header, IB base lo/hi, IB size (dwords), CSA lo/hi
 *   FENCE          header, addr lo/hi, data (32 bits)
 *   TRAP           header, int_context [27:0]: an interrupt; amdkfd fires that event
 *   POLL_REGMEM    header (hdp_flush [26], func [30:28], mem_poll [31]), addr lo/hi, value, mask,
 *                  interval [15:0] / retry_count [27:16]
 *   ATOMIC         header (loop [16], atomic_op [31:25]: the TC_OP codes), addr lo/hi, src
 *                  lo/hi, cmp lo/hi, loop interval
 *   CONSTANT_FILL  header (fillsize [31:30]: 2 = dword pattern), dst lo/hi, data, count [21:0]
 *                  (bytes - 1)
 *   TIMESTAMP      header (sub_op 1 GET, 2 GET_GLOBAL), addr lo/hi: the 64-bit GPU clock
 *
 * Every access goes through the GPU's address space (vg_queue_mem): a wild address stops the
 * queue with a GPU memory fault (the memory-exception event), never a host access.  Packets run
 * one after another, so an SDMA NOP's "wait for pending copies" holds trivially.
 */
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "vgpu/vgpu.h"

enum {
    SDMA_OP_NOP = 0,
    SDMA_OP_COPY = 1,
    SDMA_OP_WRITE = 2,
    SDMA_OP_INDIRECT = 4,
    SDMA_OP_FENCE = 5,
    SDMA_OP_TRAP = 6,
    SDMA_OP_SEM = 7,
    SDMA_OP_POLL_REGMEM = 8,
    SDMA_OP_COND_EXE = 9,
    SDMA_OP_ATOMIC = 10,
    SDMA_OP_CONST_FILL = 11,
    SDMA_OP_PTEPDE = 12,
    SDMA_OP_TIMESTAMP = 13,
    SDMA_OP_SRBM_WRITE = 14,
    SDMA_OP_PRE_EXE = 15,
};
#define SUBOP_COPY_LINEAR 0
#define SUBOP_WRITE_LINEAR 0
#define SUBOP_TIMESTAMP_GET 1
#define SUBOP_TIMESTAMP_GET_GLOBAL 2
#define FILLSIZE_BYTE 0
#define FILLSIZE_DWORD 2

static const char *op_name(uint32_t op) {
    static const char *names[] = {"NOP",     "COPY",       "WRITE",  "reserved 3",  "INDIRECT",
                                  "FENCE",   "TRAP",       "SEM",    "POLL_REGMEM", "COND_EXE",
                                  "ATOMIC",  "CONST_FILL", "PTEPDE", "TIMESTAMP",   "SRBM_WRITE",
                                  "PRE_EXE", "DUMMY_TRAP", "GCR_REQ"};
    return op < sizeof names / sizeof names[0] ? names[op] : "unknown";
}

static uint64_t addr(const uint32_t *lohi) { return (uint64_t)lohi[1] << 32 | lohi[0]; }

/* Length in dwords of the packet with header h and (when the header does not say) its fourth
 * dword d3; 0 for a packet this engine does not run. */
static uint32_t packet_len(uint32_t h, uint32_t d3) {
    uint32_t op = h & 0xff, sub = h >> 8 & 0xff;
    switch (op) {
    case SDMA_OP_NOP: return 1 + (h >> 16 & 0x3fff);
    case SDMA_OP_COPY: return sub == SUBOP_COPY_LINEAR ? 7 : 0;
    case SDMA_OP_WRITE: return sub == SUBOP_WRITE_LINEAR ? 4 + (d3 & 0xfffff) + 1 : 0;
    case SDMA_OP_INDIRECT: return 6;
    case SDMA_OP_FENCE: return 4;
    case SDMA_OP_TRAP: return 2;
    case SDMA_OP_POLL_REGMEM: return sub == 0 ? 6 : 0;
    case SDMA_OP_ATOMIC: return 8;
    case SDMA_OP_CONST_FILL: return 5;
    case SDMA_OP_TIMESTAMP:
        return sub == SUBOP_TIMESTAMP_GET || sub == SUBOP_TIMESTAMP_GET_GLOBAL ? 3 : 0;
    default: return 0;
    }
}

static int unknown(uint32_t h) {
    vg_msg("SDMA opcode %u (%s) sub-opcode %u is not implemented; the queue is stopped (header "
           "0x%08x)",
           h & 0xff, op_name(h & 0xff), h >> 8 & 0xff, h);
    return -1;
}

/* --timeline: an SDMA transfer of n bytes (src 0: a fill). */
static void span(vg_queue *q, const char *name, uint64_t t0, uint64_t n, uint64_t src,
                 uint64_t dst) {
    if (!vg.timeline)
        return;
    char args[160];
    if (src)
        snprintf(args, sizeof args,
                 "\"bytes\": %" PRIu64 ", \"src\": \"0x%" PRIx64 "\", \"dst\": \"0x%" PRIx64 "\"",
                 n, src, dst);
    else
        snprintf(args, sizeof args, "\"bytes\": %" PRIu64 ", \"dst\": \"0x%" PRIx64 "\"", n, dst);
    vg_timeline_span(q, name, "sdma", t0, vg_now_ns(), args);
}

static int copy_linear(vg_queue *q, const uint32_t *p) {
    uint64_t n = (uint64_t)(p[1] & 0x3fffff) + 1, src = addr(p + 3), dst = addr(p + 5);
    uint64_t t0 = vg.timeline ? vg_now_ns() : 0;
    vg_space_read();
    const void *s = vg_queue_mem(q, "SDMA COPY_LINEAR", src, n, 0);
    void *d = s ? vg_queue_mem(q, "SDMA COPY_LINEAR", dst, n, 1) : NULL;
    if (d)
        memmove(d, s, n);
    vg_space_done();
    if (d) {
        __atomic_fetch_add(&vg.sdma_copies, 1, __ATOMIC_RELAXED);
        __atomic_fetch_add(&vg.sdma_copy_bytes, n, __ATOMIC_RELAXED);
        span(q, "COPY_LINEAR", t0, n, src, dst);
    }
    return d ? 0 : -1;
}

static int write_untiled(vg_queue *q, const uint32_t *p, uint32_t len) {
    uint64_t n = (uint64_t)(len - 4) * 4;
    vg_space_read();
    void *d = vg_queue_mem(q, "SDMA WRITE", addr(p + 1) & ~3ull, n, 1);
    if (d)
        memcpy(d, p + 4, n);
    vg_space_done();
    return d ? 0 : -1;
}

static int const_fill(vg_queue *q, const uint32_t *p) {
    uint32_t fillsize = p[0] >> 30, data = p[3];
    uint64_t n = (uint64_t)(p[4] & 0x3fffff) + 1, dst = addr(p + 1);
    /* FILLSIZE (amdgpu's sdma headers): 0 a byte fill (the data's low byte), 2 a dword fill
     * (the dword pattern from the first byte on); 1 and 3 are not documented. */
    if (fillsize == FILLSIZE_BYTE) {
        data &= 0xff;
        data |= data << 8 | data << 16 | data << 24;
    } else if (fillsize != FILLSIZE_DWORD) {
        vg_msg("SDMA CONST_FILL with fillsize %u is not implemented (0, a byte fill, and 2, a "
               "dword fill, are); the queue is stopped",
               fillsize);
        return -1;
    }
    uint64_t t0 = vg.timeline ? vg_now_ns() : 0;
    vg_space_read();
    uint8_t *d = vg_queue_mem(q, "SDMA CONST_FILL", dst, n, 1);
    for (uint64_t i = 0; d && i < n; i++)
        d[i] = (uint8_t)(data >> (8 * (i & 3)));
    vg_space_done();
    if (d)
        span(q, "CONST_FILL", t0, n, 0, dst);
    return d ? 0 : -1;
}

/* POLL_REGMEM: wait until (memory & mask) func value, polled without burning a core (the retry
 * count is not modelled: the engine waits until it holds).  A register poll with hdp_flush is an
 * HDP flush, done at once here (memory is coherent). */
static int poll_regmem(vg_queue *q, const uint32_t *p) {
    uint32_t h = p[0], func = h >> 28 & 7, value = p[3], mask = p[4];
    if (func == 0)
        return 0; /* "always": nothing to wait for (ROCr's gfx9 SDMA queues start with one) */
    if (!(h >> 31)) {
        if (h >> 26 & 1)
            return 0;
        vg_msg("SDMA POLL_REGMEM on register 0x%x is not implemented (the virtual GPU has no "
               "such register); the queue is stopped (%08x %08x %08x %08x %08x %08x)",
               p[1] >> 2, p[0], p[1], p[2], p[3], p[4], p[5]);
        return -1;
    }
    if (func == 7) {
        vg_msg("SDMA POLL_REGMEM with the reserved function 7; the queue is stopped");
        return -1;
    }
    return vg_queue_poll_mem(q, "SDMA POLL_REGMEM", addr(p + 1) & ~3ull, func, value, mask);
}

/* The new value of one integer TC atomic (the TC_OP codes: 32-bit 0x07..0x19, 64-bit
 * 0x27..0x39; the forms without return, +0x40, are alike for SDMA, which has nowhere to return
 * to).  old, src and cmp are zero-extended for 32 bits; *ok = 0 when a compare-swap fails. */
static uint64_t float_atomic_value(uint32_t op, int wide, uint64_t old, uint64_t src, uint64_t cmp,
                                   int *ok);
static int is_float_op(uint32_t base);

static uint64_t atomic_value(uint32_t op, int wide, uint64_t old, uint64_t src, uint64_t cmp,
                             int *ok) {
    if (is_float_op(op))
        return float_atomic_value(op, wide, old, src, cmp, ok);
    int64_t so = wide ? (int64_t)old : (int32_t)old, ss = wide ? (int64_t)src : (int32_t)src;
    uint64_t lim = wide ? ~0ull : 0xffffffffull;
    switch (op & 0x1f) {
    case 0x07: return src;                                      /* SWAP */
    case 0x08: *ok = old == cmp; return old == cmp ? src : old; /* CMPSWAP */
    case 0x0f: return (old + src) & lim;                        /* ADD */
    case 0x10: return (old - src) & lim;                        /* SUB */
    case 0x11: return so < ss ? old : src;                      /* SMIN */
    case 0x12: return old < src ? old : src;                    /* UMIN */
    case 0x13: return so > ss ? old : src;                      /* SMAX */
    case 0x14: return old > src ? old : src;                    /* UMAX */
    case 0x15: return old & src;                                /* AND */
    case 0x16: return old | src;                                /* OR */
    case 0x17: return old ^ src;                                /* XOR */
    case 0x18: return old >= src ? 0 : old + 1;                 /* INC */
    default: return old == 0 || old > src ? src : old - 1;      /* DEC (0x19) */
    }
}

/* The float TC atomics (TC_OP codes 0x01..0x03, 0x09..0x0b; +0x20 for 64 bits): FCMPSWAP (a
 * float compare: -0 == +0, a NaN equals nothing), FMIN, FMAX (a NaN operand loses to a number,
 * -0 < +0), and their FLUSH_DENORM forms, which take denormal operands as zeros of their sign
 * and store the flushed value.  Values are bit patterns of f32 (wide = 0) or f64. */
static int is_float_op(uint32_t base) {
    uint32_t b = base & 0x1f;
    return (b >= 0x01 && b <= 0x03) || (b >= 0x09 && b <= 0x0b);
}

static uint64_t fbits_flush(uint64_t v, int wide) {
    if (wide)
        return (v & 0x7ff0000000000000ull) == 0 ? v & 0x8000000000000000ull : v;
    return (v & 0x7f800000u) == 0 ? v & 0x80000000u : v;
}

static double fbits_value(uint64_t v, int wide) {
    if (wide) {
        double d;
        memcpy(&d, &v, 8);
        return d;
    }
    uint32_t u = (uint32_t)v;
    float f;
    memcpy(&f, &u, 4);
    return f;
}

static uint64_t float_atomic_value(uint32_t op, int wide, uint64_t old, uint64_t src, uint64_t cmp,
                                   int *ok) {
    uint32_t b = op & 0x1f;
    if (b >= 0x09) { /* FLUSH_DENORM forms */
        old = fbits_flush(old, wide);
        src = fbits_flush(src, wide);
        cmp = fbits_flush(cmp, wide);
        b -= 0x08;
    }
    double o = fbits_value(old, wide), s = fbits_value(src, wide), c = fbits_value(cmp, wide);
    uint64_t sign = wide ? 0x8000000000000000ull : 0x80000000u;
    switch (b) {
    case 0x01: *ok = o == c; return o == c ? src : old; /* FCMPSWAP */
    case 0x02:                                          /* FMIN */
        if (s != s)
            return old;
        if (o != o)
            return src;
        if (o == s) /* -0 and +0: the negative one */
            return (old & sign) ? old : src;
        return o < s ? old : src;
    default: /* FMAX (0x03) */
        if (s != s)
            return old;
        if (o != o)
            return src;
        if (o == s)
            return (old & sign) ? src : old;
        return o > s ? old : src;
    }
}

/* Apply it as one host atomic (compare-exchange loop). */
static void atomic_apply(uint32_t op, int wide, void *p, uint64_t src, uint64_t cmp, int *ok) {
    if (wide) {
        uint64_t *m = p, old = __atomic_load_n(m, __ATOMIC_ACQUIRE);
        while (!__atomic_compare_exchange_n(m, &old, atomic_value(op, 1, old, src, cmp, ok), 0,
                                            __ATOMIC_ACQ_REL, __ATOMIC_ACQUIRE))
            ;
        return;
    }
    uint32_t *m = p, old = __atomic_load_n(m, __ATOMIC_ACQUIRE);
    src &= 0xffffffffu;
    cmp &= 0xffffffffu;
    while (!__atomic_compare_exchange_n(m, &old, (uint32_t)atomic_value(op, 0, old, src, cmp, ok),
                                        0, __ATOMIC_ACQ_REL, __ATOMIC_ACQUIRE))
        ;
}

static int atomic(vg_queue *q, const uint32_t *p) {
    uint32_t op = p[0] >> 25 & 0x7f, loop = p[0] >> 16 & 1;
    uint32_t base = op & ~0x40u;
    uint64_t va = addr(p + 1), src = addr(p + 3), cmp = addr(p + 5);
    int wide = base >= 0x20 && base < 0x40;
    if (!((base >= 0x07 && base <= 0x08) || (base >= 0x0f && base <= 0x19) ||
          (base >= 0x27 && base <= 0x28) || (base >= 0x2f && base <= 0x39) || is_float_op(base))) {
        vg_msg("SDMA ATOMIC with atomic_op 0x%02x is not implemented (the integer and float TC "
               "atomics are); the queue is stopped",
               op);
        return -1;
    }
    unsigned us = 1;
    for (;;) {
        int ok = 1;
        vg_space_read();
        void *m = vg_queue_mem(q, "SDMA ATOMIC", va & ~(wide ? 7ull : 3ull), wide ? 8 : 4, 1);
        if (m)
            atomic_apply(base, wide, m, src, cmp, &ok);
        vg_space_done();
        if (!m)
            return -1;
        /* loop: retry a compare-swap until it swaps */
        if (ok || !loop)
            return 0;
        if (vg_queue_poll_wait(q, &us) != 0)
            return -1;
    }
}

static int run_ib(vg_queue *q, const uint32_t *p, int depth);

/* Run one packet of len dwords.  0 or -1 (the queue stopped). */
static int packet(vg_queue *q, const uint32_t *p, uint32_t len, int depth) {
    switch (p[0] & 0xff) {
    case SDMA_OP_NOP: return 0;
    case SDMA_OP_COPY: return copy_linear(q, p);
    case SDMA_OP_WRITE: return write_untiled(q, p, len);
    case SDMA_OP_INDIRECT: return run_ib(q, p, depth);
    case SDMA_OP_FENCE: return vg_queue_store(q, "SDMA FENCE", addr(p + 1) & ~3ull, p[3], 4);
    case SDMA_OP_TRAP: vg_event_interrupt(p[1] & 0xfffffff); return 0;
    case SDMA_OP_POLL_REGMEM: return poll_regmem(q, p);
    case SDMA_OP_ATOMIC: return atomic(q, p);
    case SDMA_OP_CONST_FILL: return const_fill(q, p);
    case SDMA_OP_TIMESTAMP:
        /* the GPU clock (GET_CLOCK_COUNTERS' domain) for both the local and global counter */
        return vg_queue_store(q, "SDMA TIMESTAMP", addr(p + 1) & ~7ull, vg_gpu_clock(), 8);
    default: return unknown(p[0]);
    }
}

/* Run ndw dwords of SDMA packets (an indirect buffer). */
static int run(vg_queue *q, const uint32_t *ib, uint32_t ndw, int depth) {
    for (uint32_t i = 0; i < ndw;) {
        uint32_t len = packet_len(ib[i], ndw - i > 3 ? ib[i + 3] : 0);
        if (!len)
            return unknown(ib[i]);
        if (len > ndw - i) {
            vg_msg("SDMA packet 0x%08x runs past its indirect buffer; the queue is stopped", ib[i]);
            return -1;
        }
        if (packet(q, ib + i, len, depth) != 0)
            return -1;
        i += len;
    }
    return 0;
}

static int run_ib(vg_queue *q, const uint32_t *p, int depth) {
    uint64_t va = addr(p + 1);
    uint32_t ndw = p[3] & 0xfffff;
    if (depth >= 1) {
        vg_msg("SDMA INDIRECT inside an indirect buffer; the queue is stopped");
        return -1;
    }
    return vg_queue_run_ib(q, "SDMA INDIRECT", va, ndw, depth + 1, run);
}

int64_t vg_sdma_step(vg_queue *q, uint64_t r, uint64_t w) {
    if ((r | w) & 3) {
        vg_msg("SDMA read/write pointers 0x%" PRIx64 "/0x%" PRIx64
               " are not dword-aligned; the queue is stopped",
               r, w);
        q->broken = 1;
        return -1;
    }
    uint64_t pos = r / 4, avail = (w - r) / 4;
    uint32_t head[4] = {0, 0, 0, 0};
    vg_ring_copy(q, pos, avail < 4 ? (uint32_t)avail : 4, head);
    uint32_t len = packet_len(head[0], head[3]);
    if (!len) {
        unknown(head[0]);
        q->broken = 1;
        return -1;
    }
    if (len > avail)
        return (int64_t)r; /* the rest is not written yet */
    if (len > VG_PKT_DWORDS) {
        vg_msg("SDMA packet 0x%08x of %u dwords is longer than the engine takes; the queue is "
               "stopped",
               head[0], len);
        q->broken = 1;
        return -1;
    }
    vg_ring_copy(q, pos, len, q->pkt);
    if (packet(q, q->pkt, len, 0) != 0) {
        q->broken = 1;
        return -1;
    }
    return (int64_t)(r + 4ull * len);
}
