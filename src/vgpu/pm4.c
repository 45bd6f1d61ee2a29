/* pm4.c - PM4 compute queues (KFD_IOC_QUEUE_TYPE_COMPUTE) and PM4 indirect buffers, as a
 * framework's own driver writes them for gfx9 (tinygrad's AMD backend on its KFD path) and as
 * ROCr's vendor AQL packet carries them (queue.c).
 *
 * Packets are PM4 type 3 (the gfx9 "PM4 packet" reference; amdgpu's soc15d.h and
 * kfd_pm4_headers_ai.h give the layouts): header [31:30] = 3, [29:16] body dwords - 1,
 * [15:8] opcode.  The ring and read/write pointers count dwords.  Packets run one after another
 * and a dispatch has finished when DISPATCH_DIRECT returns, so every cache action (ACQUIRE_MEM,
 * EVENT_WRITE flushes, RELEASE_MEM's end-of-pipe wait) holds trivially; what remains is the
 * register state, the dispatch, memory writes, waits and interrupts.  Any other opcode stops the
 * queue with a one-line error naming it.
 *
 * Dispatch state lives in the SH registers (gc_9_4_3 register offsets, relative to
 * PACKET3_SET_SH_REG_START 0x2c00): DISPATCH_DIRECT launches the code at COMPUTE_PGM_LO/HI with
 * the descriptor those registers amount to (COMPUTE_PGM_RSRC1/2/3, LDS from RSRC2.LDS_SIZE,
 * scratch from COMPUTE_TMPRING_SIZE.WAVESIZE when RSRC2.SCRATCH_EN), the workgroup size of
 * COMPUTE_NUM_THREAD_X/Y/Z and RSRC2.USER_SGPR user SGPRs from COMPUTE_USER_DATA_0..15.
 *
 * Multi-XCC cards (MI300X, MI355X) run a PM4 queue on every XCC; here one command processor
 * stands for all of them: a dispatch runs all its workgroups once, and PRED_EXEC runs its
 * packets once when its mask selects any XCC the card has.
 */
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "dispatch/dispatch.h"
#include "vgpu/vgpu.h"

/* Opcodes (soc15d.h). */
enum {
    PM4_NOP = 0x10,
    PM4_SET_BASE = 0x11,
    PM4_DISPATCH_DIRECT = 0x15,
    PM4_DISPATCH_INDIRECT = 0x16,
    PM4_PRED_EXEC = 0x23,
    PM4_WRITE_DATA = 0x37,
    PM4_WAIT_REG_MEM = 0x3c,
    PM4_INDIRECT_BUFFER = 0x3f,
    PM4_EVENT_WRITE = 0x46,
    PM4_RELEASE_MEM = 0x49,
    PM4_ACQUIRE_MEM = 0x58,
    PM4_SET_SH_REG = 0x76,
    PM4_COPY_DATA = 0x40,
    PM4_SET_UCONFIG_REG = 0x79,
};
/* Register space (dword offsets): PACKET3_SET_SH_REG_START and PACKET3_SET_UCONFIG_REG_START
 * (soc15d.h); the queue keeps the SH registers and the user-config registers it wrote. */
#define SH_REG_BASE 0x2c00u
#define UCONFIG_REG_BASE 0xc000u
/* A type-3 NOP whose count field is 0x3fff is one dword long (amdgpu pads gfx9 rings with it). */
#define PM4_NOP_1DW 0xffff1000u

/* SH registers (gc_9_4_3.h, minus 0x2c00). */
enum {
    SH_COMPUTE_NUM_THREAD_X = 0x207, /* NUM_THREAD_FULL [15:0], NUM_THREAD_PARTIAL [31:16] */
    SH_COMPUTE_START_X = 0x204,
    SH_COMPUTE_PGM_LO = 0x20c, /* address [39:8] */
    SH_COMPUTE_PGM_HI = 0x20d, /* address [47:40] */
    SH_COMPUTE_PGM_RSRC1 = 0x212,
    SH_COMPUTE_PGM_RSRC2 = 0x213,
    SH_COMPUTE_TMPRING_SIZE = 0x218, /* WAVES [11:0], WAVESIZE [24:12] in 1 KiB units */
    SH_COMPUTE_PGM_RSRC3 = 0x22d,
    SH_COMPUTE_USER_DATA_0 = 0x240,
    SH_COUNT = 0x400,
};

/* COMPUTE_DISPATCH_INITIATOR bits. */
#define INIT_COMPUTE_SHADER_EN (1u << 0)
#define INIT_PARTIAL_TG_EN (1u << 1)
#define INIT_FORCE_START_AT_000 (1u << 2)
#define INIT_USE_THREAD_DIMENSIONS (1u << 5)

/* Names of opcodes that are not implemented, for the error (soc15d.h). */
static const char *opcode_name(uint32_t op) {
    switch (op) {
    case 0x1e: return "ATOMIC_MEM";
    case 0x22: return "COND_EXEC";
    case 0x33: return "INDIRECT_BUFFER_CONST";
    case 0x39: return "MEM_SEMAPHORE";
    case 0x42: return "PFP_SYNC_ME";
    case 0x45: return "COND_WRITE";
    case 0x47: return "EVENT_WRITE_EOP";
    case 0x50: return "DMA_DATA";
    case 0x68: return "SET_CONFIG_REG";
    case 0x69: return "SET_CONTEXT_REG";
    case 0xa0: return "SET_RESOURCES";
    case 0xa2: return "MAP_QUEUES";
    default: return "unknown";
    }
}

/* The queue's register state: SH registers (all of them, zero at creation, as the queue's MQD
 * starts them) and the user-config registers a SET_UCONFIG_REG or COPY_DATA wrote.  Nothing
 * else on the virtual GPU has registers (no performance counters, no thread trace), so reading
 * any other register, or a user-config register never written, has no answer.  Pointer to the
 * register or NULL. */
static uint32_t *reg_at(vg_queue *q, uint32_t reg, int write) {
    if (!q->sh)
        return NULL;
    if (reg >= SH_REG_BASE && reg < SH_REG_BASE + SH_COUNT)
        return &q->sh[reg - SH_REG_BASE];
    if (reg < UCONFIG_REG_BASE || reg >= UCONFIG_REG_BASE + VG_UCONFIG_REGS)
        return NULL;
    uint32_t i = reg - UCONFIG_REG_BASE;
    if (!q->uconfig) {
        if (!write)
            return NULL;
        q->uconfig = calloc(VG_UCONFIG_REGS, sizeof *q->uconfig);
        q->uconfig_set = calloc(VG_UCONFIG_REGS / 8, 1);
        if (!q->uconfig || !q->uconfig_set) {
            free(q->uconfig);
            free(q->uconfig_set);
            q->uconfig = NULL;
            q->uconfig_set = NULL;
            return NULL;
        }
    }
    if (write)
        q->uconfig_set[i / 8] |= (uint8_t)(1u << (i % 8));
    else if (!(q->uconfig_set[i / 8] >> (i % 8) & 1))
        return NULL;
    return &q->uconfig[i];
}

static int no_register(vg_queue *q, const char *what, uint32_t reg) {
    vg_msg("PM4 %s register 0x%x: %s; the queue is stopped", what, reg,
           !q->sh ? "an AQL queue's indirect buffer has no register state"
           : reg >= UCONFIG_REG_BASE && reg < UCONFIG_REG_BASE + VG_UCONFIG_REGS
               ? "a user-config register this queue never wrote (the virtual GPU has no "
                 "value for it)"
               : "the virtual GPU has no such register (it keeps the SH and user-config "
                 "registers)");
    return -1;
}

/* SET_UCONFIG_REG: body [0] register offset from 0xc000, then the values. */
static int set_uconfig_reg(vg_queue *q, const uint32_t *b, uint32_t n) {
    uint32_t reg = UCONFIG_REG_BASE + (b[0] & 0xffff);
    for (uint32_t i = 1; i < n; i++) {
        uint32_t *r = reg_at(q, reg + i - 1, 1);
        if (!r)
            return no_register(q, "SET_UCONFIG_REG of", reg + i - 1);
        *r = b[i];
    }
    return 0;
}

/* COPY_DATA (MEC layout): [0] SRC_SEL [3:0], DST_SEL [11:8], COUNT_SEL [16] (64 bits);
 * [1..2] source register / address / immediate data; [3..4] destination register / address.
 * SRC_SEL 0 register, 1 and 2 memory, 5 immediate, 9 GPU clock, 10 system clock (both the
 * 100 MHz reference clock here, GET_CLOCK_COUNTERS' GPU domain); DST_SEL 0 register, 2 and 5
 * memory.  Others (GDS, performance counters, atomic return data) are not implemented. */
static int copy_data(vg_queue *q, const uint32_t *b) {
    static const char *src_names[] = {"register",
                                      "memory",
                                      "memory",
                                      "GDS",
                                      "performance counter",
                                      "immediate",
                                      "atomic return data",
                                      "GDS atomic return data 0",
                                      "GDS atomic return data 1",
                                      "GPU clock",
                                      "system clock",
                                      "32-bit performance counter"};
    uint32_t src = b[0] & 0xf, dst = b[0] >> 8 & 0xf, wide = b[0] >> 16 & 1;
    uint32_t n = wide ? 8 : 4;
    uint64_t v = 0;
    switch (src) {
    case 0: {
        for (uint32_t i = 0; i < n / 4; i++) {
            uint32_t *r = reg_at(q, (b[1] & 0x3ffff) + i, 0);
            if (!r)
                return no_register(q, "COPY_DATA from", (b[1] & 0x3ffff) + i);
            v |= (uint64_t)*r << (32 * i);
        }
        break;
    }
    case 1:
    case 2: {
        uint64_t va = ((uint64_t)b[2] << 32 | b[1]) & ~(uint64_t)(n - 1);
        vg_space_read();
        const void *m = vg_queue_mem(q, "PM4 COPY_DATA", va, n, 0);
        if (m && wide)
            v = __atomic_load_n((const uint64_t *)m, __ATOMIC_ACQUIRE);
        else if (m)
            v = __atomic_load_n((const uint32_t *)m, __ATOMIC_ACQUIRE);
        vg_space_done();
        if (!m)
            return -1;
        break;
    }
    case 5: v = wide ? (uint64_t)b[2] << 32 | b[1] : b[1]; break;
    case 9:
    case 10: v = vg_gpu_clock(); break;
    default:
        vg_msg("PM4 COPY_DATA from SRC_SEL %u (%s) is not implemented; the queue is stopped", src,
               src < sizeof src_names / sizeof src_names[0] ? src_names[src] : "reserved");
        return -1;
    }
    if (!wide)
        v &= 0xffffffffu;
    switch (dst) {
    case 0:
        for (uint32_t i = 0; i < n / 4; i++) {
            uint32_t *r = reg_at(q, (b[3] & 0x3ffff) + i, 1);
            if (!r)
                return no_register(q, "COPY_DATA to", (b[3] & 0x3ffff) + i);
            *r = (uint32_t)(v >> (32 * i));
        }
        return 0;
    case 2:
    case 5:
        return vg_queue_store(q, "PM4 COPY_DATA",
                              ((uint64_t)b[4] << 32 | b[3]) & ~(uint64_t)(n - 1), v, n);
    default:
        vg_msg("PM4 COPY_DATA to DST_SEL %u (%s) is not implemented; the queue is stopped", dst,
               dst == 3                ? "GDS"
               : dst == 4 || dst == 11 ? "performance counter"
               : dst == 6              ? "a register, DC"
                                       : "reserved");
        return -1;
    }
}

/* WAIT_REG_MEM: ((memory & mask) FUNCTION reference), polled without burning a core.  In
 * register space only the write-then-wait form is accepted: tinygrad's memory barrier, an HDP
 * flush request and a wait for its done bits, which here (coherent memory) are done at once. */
static int wait_reg_mem(vg_queue *q, const uint32_t *b) {
    uint32_t func = b[0] & 7, mem = b[0] >> 4 & 3, op = b[0] >> 6 & 3;
    uint32_t ref = b[3], mask = b[4];
    if (func == 7) {
        vg_msg("PM4 WAIT_REG_MEM with the reserved function 7; the queue is stopped");
        return -1;
    }
    if (func == 0)
        return 0; /* "always": nothing to wait for */
    if (mem == 0) {
        if (op == 1)
            return 0;
        /* Only this queue's own packets write its registers, and they run in order: the
         * condition holds now or never. */
        uint32_t reg = b[1] & 0x3ffff;
        uint32_t *r = reg_at(q, reg, 0);
        if (!r)
            return no_register(q, "WAIT_REG_MEM on", reg);
        if (vg_queue_compare(func, *r & mask, ref))
            return 0;
        vg_msg("PM4 WAIT_REG_MEM on register 0x%x would wait forever: its value 0x%x & mask 0x%x "
               "fails function %u against 0x%x and only this queue's packets write it; the "
               "queue is stopped",
               reg, *r, mask, func, ref);
        return -1;
    }
    uint64_t va = ((uint64_t)b[2] << 32 | b[1]) & ~3ull;
    return vg_queue_poll_mem(q, "PM4 WAIT_REG_MEM", va, func, ref, mask);
}

/* RELEASE_MEM (gfx9, 7 body dwords): event [5:0]/index [11:8] and cache actions; DST_SEL
 * [17:16] (0 memory, 1 TC L2), INT_SEL [26:24], DATA_SEL [31:29]; address; data; INT_CTXID. */
static int release_mem(vg_queue *q, const uint32_t *b, uint32_t n) {
    uint32_t dst_sel = b[1] >> 16 & 3, int_sel = b[1] >> 24 & 7, data_sel = b[1] >> 29 & 7;
    uint64_t va = (uint64_t)b[3] << 32 | b[2];
    uint64_t data = (uint64_t)b[5] << 32 | b[4];
    uint32_t ctxid = n >= 7 ? b[6] : 0;
    if (data_sel && dst_sel > 1) {
        vg_msg("PM4 RELEASE_MEM with DST_SEL %u (a queue write pointer) is not implemented; the "
               "queue is stopped",
               dst_sel);
        return -1;
    }
    if (int_sel > 4) {
        vg_msg("PM4 RELEASE_MEM with INT_SEL %u (a conditional interrupt) is not implemented; "
               "the queue is stopped",
               int_sel);
        return -1;
    }
    int r = 0;
    switch (data_sel) {
    case 0: break;
    case 1: r = vg_queue_store(q, "PM4 RELEASE_MEM", va & ~3ull, data, 4); break;
    case 2: r = vg_queue_store(q, "PM4 RELEASE_MEM", va & ~7ull, data, 8); break;
    case 3: /* the GPU clock counter: GET_CLOCK_COUNTERS' domain */
        r = vg_queue_store(q, "PM4 RELEASE_MEM", va & ~7ull, vg_gpu_clock(), 8);
        break;
    default:
        vg_msg("PM4 RELEASE_MEM with DATA_SEL %u (%s) is not implemented; the queue is stopped",
               data_sel,
               data_sel == 4   ? "CP perfcounter"
               : data_sel == 5 ? "GDS"
                               : "reserved");
        return -1;
    }
    /* INT_SEL 1, 2 and 4 interrupt (3: data only); amdkfd then signals the event of the context
     * id, or looks at every event slot when it names none (tinygrad passes 0 on gfx9). */
    if (r == 0 && (int_sel == 1 || int_sel == 2 || int_sel == 4))
        vg_event_interrupt(ctxid);
    return r;
}

/* WRITE_DATA: DST_SEL [11:8] (1 memory via GRBM, 2 TC L2, 5 memory), WR_ONE_ADDR [16]. */
static int write_data(vg_queue *q, const uint32_t *b, uint32_t n) {
    uint32_t dst = b[0] >> 8 & 0xf, one = b[0] >> 16 & 1;
    if (dst != 1 && dst != 2 && dst != 5) {
        vg_msg("PM4 WRITE_DATA to DST_SEL %u (%s) is not implemented; the queue is stopped", dst,
               dst == 0   ? "a register"
               : dst == 3 ? "GDS"
                          : "reserved");
        return -1;
    }
    uint64_t va = ((uint64_t)b[2] << 32 | b[1]) & ~3ull;
    for (uint32_t i = 3; i < n; i++)
        if (vg_queue_store(q, "PM4 WRITE_DATA", one ? va : va + 4ull * (i - 3), b[i], 4) != 0)
            return -1;
    return 0;
}

static int set_sh_reg(vg_queue *q, const uint32_t *b, uint32_t n) {
    uint32_t reg = b[0] & 0xffff;
    if (!q->sh || reg + (n - 1) > SH_COUNT) {
        vg_msg(q->sh ? "PM4 SET_SH_REG of %u registers at 0x%x runs past the SH registers; the "
                       "queue is stopped"
                     : "PM4 SET_SH_REG (%u registers at 0x%x) in an AQL queue's indirect buffer "
                       "is not implemented; the queue is stopped",
               n - 1, reg + 0x2c00);
        return -1;
    }
    memcpy(q->sh + reg, b + 1, (n - 1) * sizeof *b);
    return 0;
}

static int dispatch_direct(vg_queue *q, const uint32_t *b) {
    const uint32_t *sh = q->sh;
    uint32_t init = b[3];
    char err[200] = "";
    vg_geom g;
    memset(&g, 0, sizeof g);
    if (!sh)
        snprintf(err, sizeof err, "in an AQL queue's indirect buffer");
    else if (!(init & INIT_COMPUTE_SHADER_EN))
        snprintf(err, sizeof err, "COMPUTE_DISPATCH_INITIATOR 0x%x without COMPUTE_SHADER_EN",
                 init);
    for (int i = 0; i < 3 && !err[0]; i++) {
        uint32_t full = sh[SH_COMPUTE_NUM_THREAD_X + i] & 0xffff;
        uint32_t partial = sh[SH_COMPUTE_NUM_THREAD_X + i] >> 16;
        /* COMPUTE_START_X/Y/Z: the first workgroup id; DISPATCH_DIRECT's dimensions are where
         * the dispatch ends (workgroups START..DIM-1, as PAL programs a dispatch with an
         * offset), unless FORCE_START_AT_000. */
        uint32_t start = (init & INIT_FORCE_START_AT_000) ? 0 : sh[SH_COMPUTE_START_X + i];
        g.full[i] = full;
        g.origin[i] = start;
        if (!full) {
            snprintf(err, sizeof err, "COMPUTE_NUM_THREAD_%c is 0", "XYZ"[i]);
        } else if (init & INIT_USE_THREAD_DIMENSIONS) {
            /* Dimensions in work-items: a remainder is a partial last workgroup, which the
             * hardware makes only with PARTIAL_TG_EN. */
            uint32_t end = b[i] / full + (b[i] % full != 0);
            g.count[i] = end > start ? end - start : 0;
            g.partial[i] = b[i] % full;
            if (g.partial[i] && !(init & INIT_PARTIAL_TG_EN))
                snprintf(err, sizeof err,
                         "%u work-items in dimension %c are not a multiple of the workgroup's "
                         "%u and PARTIAL_TG_EN is off",
                         b[i], "XYZ"[i], full);
        } else {
            /* Dimensions in workgroups: with PARTIAL_TG_EN the last one has NUM_THREAD_PARTIAL
             * work-items (when that is not 0). */
            g.count[i] = b[i] > start ? b[i] - start : 0;
            if ((init & INIT_PARTIAL_TG_EN) && partial && partial < full)
                g.partial[i] = partial;
        }
    }
    if (err[0]) {
        vg_msg("PM4 DISPATCH_DIRECT %s; the queue is stopped", err);
        return -1;
    }
    if (!g.count[0] || !g.count[1] || !g.count[2])
        return 0; /* an empty grid launches nothing */
    uint32_t rsrc1 = sh[SH_COMPUTE_PGM_RSRC1], rsrc2 = sh[SH_COMPUTE_PGM_RSRC2];
    uint64_t entry = ((uint64_t)(sh[SH_COMPUTE_PGM_HI] & 0xff) << 32 | sh[SH_COMPUTE_PGM_LO]) << 8;
    /* The 64-byte kernel descriptor ("AMDGPU Usage", "Kernel Descriptor") these registers are
     * loaded from on an AQL dispatch; its user-SGPR enable bits stay 0, as CP loads the user
     * SGPRs from COMPUTE_USER_DATA instead. */
    uint8_t kd[64];
    memset(kd, 0, sizeof kd);
    uint32_t lds = (rsrc2 >> 15 & 0x1ff) * isa_targets[vg.card->arch].lds_granule;
    uint32_t wavesize = sh[SH_COMPUTE_TMPRING_SIZE] >> 12 & 0x1fff;
    uint32_t lane = (rsrc2 & 1) ? wavesize * DP_SCRATCH_GRANULE / LANES : 0;
    memcpy(kd + 0, &lds, 4);
    memcpy(kd + 4, &lane, 4);
    memcpy(kd + 44, &sh[SH_COMPUTE_PGM_RSRC3], 4);
    memcpy(kd + 48, &rsrc1, 4);
    memcpy(kd + 52, &rsrc2, 4);
    return vg_queue_launch_regs(q, kd, entry, sh + SH_COMPUTE_USER_DATA_0, rsrc2 >> 1 & 0x1f, &g);
}

/* SET_BASE (as Mesa's radeonsi/radv write it for a gfx9 compute dispatch): base index [3:0] 1
 * is the address DISPATCH_INDIRECT's offsets count from; the others are graphics bases. */
static int set_base(vg_queue *q, const uint32_t *b) {
    if ((b[0] & 0xf) != 1) {
        vg_msg("PM4 SET_BASE of base index %u is not implemented (index 1, the dispatch indirect "
               "base, is); the queue is stopped",
               b[0] & 0xf);
        return -1;
    }
    q->indirect_base = ((uint64_t)(b[2] & 0xffff) << 32 | b[1]) & ~3ull;
    return 0;
}

/* DISPATCH_INDIRECT: DATA_OFFSET, DISPATCH_INITIATOR; the dimensions (three dwords, in
 * workgroups or work-items as for DISPATCH_DIRECT) are read from SET_BASE's address plus the
 * offset, when the packet runs. */
static int dispatch_indirect(vg_queue *q, const uint32_t *b) {
    uint64_t va = q->indirect_base + b[0];
    uint32_t d[4];
    vg_space_read();
    const void *m = vg_queue_mem(q, "PM4 DISPATCH_INDIRECT", va, 12, 0);
    if (m)
        memcpy(d, m, 12);
    vg_space_done();
    if (!m)
        return -1;
    d[3] = b[1];
    return dispatch_direct(q, d);
}

/* Length in dwords of the packet whose header is h (0: not a packet this CP runs). */
static uint32_t packet_len(uint32_t h) {
    if (h == PM4_NOP_1DW || h >> 30 == 2) /* type-2 packets are one-dword fillers */
        return 1;
    if (h >> 30 != 3)
        return 0;
    return 2 + (h >> 16 & 0x3fff);
}

static int run_ib(vg_queue *q, const uint32_t *b, int depth);

/* Run one packet (p[0] is its header, len dwords).  *skip: dwords after it not to run
 * (PRED_EXEC).  0 or -1 (the queue stopped). */
static int packet(vg_queue *q, const uint32_t *p, uint32_t len, int depth, uint32_t *skip) {
    uint32_t h = p[0];
    *skip = 0;
    if (len == 1)
        return 0;
    uint32_t op = h >> 8 & 0xff, n = len - 1;
    const uint32_t *b = p + 1;
    /* The fewest body dwords each packet needs. */
    static const uint8_t min_body[256] = {
        [PM4_DISPATCH_DIRECT] = 4, [PM4_PRED_EXEC] = 1,       [PM4_WRITE_DATA] = 3,
        [PM4_WAIT_REG_MEM] = 6,    [PM4_INDIRECT_BUFFER] = 3, [PM4_EVENT_WRITE] = 1,
        [PM4_RELEASE_MEM] = 6,     [PM4_SET_SH_REG] = 1,      [PM4_COPY_DATA] = 5,
        [PM4_SET_UCONFIG_REG] = 1, [PM4_SET_BASE] = 3,        [PM4_DISPATCH_INDIRECT] = 2,
    };
    if (n < min_body[op]) {
        vg_msg("PM4 packet 0x%08x (opcode 0x%02x) has %u body dwords, fewer than its %u; the "
               "queue is stopped",
               h, op, n, min_body[op]);
        return -1;
    }
    switch (op) {
    case PM4_NOP:
    case PM4_ACQUIRE_MEM: return 0; /* caches are coherent: nothing to invalidate */
    case PM4_EVENT_WRITE:
        if (n == 1)
            return 0; /* partial flushes and markers: the previous packets have finished */
        vg_msg("PM4 EVENT_WRITE of event type %u with an address (%u dwords) is not "
               "implemented; the queue is stopped",
               b[0] & 0x3f, n);
        return -1;
    case PM4_SET_SH_REG: return set_sh_reg(q, b, n);
    case PM4_SET_UCONFIG_REG: return set_uconfig_reg(q, b, n);
    case PM4_COPY_DATA: return copy_data(q, b);
    case PM4_DISPATCH_DIRECT: return dispatch_direct(q, b);
    case PM4_SET_BASE: return set_base(q, b);
    case PM4_DISPATCH_INDIRECT: return dispatch_indirect(q, b);
    case PM4_RELEASE_MEM: return release_mem(q, b, n);
    case PM4_WAIT_REG_MEM: return wait_reg_mem(q, b);
    case PM4_WRITE_DATA: return write_data(q, b, n);
    case PM4_INDIRECT_BUFFER: return run_ib(q, b, depth);
    case PM4_PRED_EXEC: {
        uint32_t xccs = vg.card->xcc < 8 ? (1u << vg.card->xcc) - 1 : 0xffu;
        if (!(b[0] >> 24 & xccs))
            *skip = b[0] & 0x3fff;
        return 0;
    }
    default:
        vg_msg("PM4 opcode 0x%02x (%s) is not implemented; the queue is stopped (header "
               "0x%08x)",
               op, opcode_name(op), h);
        return -1;
    }
}

/* INDIRECT_BUFFER: address [47:2], IB_SIZE [19:0] dwords. */
static int run_ib(vg_queue *q, const uint32_t *b, int depth) {
    uint64_t va = ((uint64_t)(b[1] & 0xffff) << 32 | b[0]) & ~3ull;
    uint32_t ndw = b[2] & 0xfffff;
    if (depth >= 2) {
        vg_msg("PM4 INDIRECT_BUFFER nested more than two deep; the queue is stopped");
        return -1;
    }
    return vg_queue_run_ib(q, "PM4 INDIRECT_BUFFER", va, ndw, depth + 1, vg_pm4_run);
}

int vg_pm4_run(vg_queue *q, const uint32_t *ib, uint32_t ndw, int depth) {
    for (uint32_t i = 0; i < ndw;) {
        uint32_t len = packet_len(ib[i]), skip;
        if (!len) {
            vg_msg("PM4 packet type %u (header 0x%08x) is not implemented; the queue is stopped",
                   ib[i] >> 30, ib[i]);
            return -1;
        }
        if (len > ndw - i) {
            vg_msg("PM4 packet 0x%08x runs past its indirect buffer; the queue is stopped", ib[i]);
            return -1;
        }
        if (packet(q, ib + i, len, depth, &skip) != 0)
            return -1;
        i += len;
        i += skip < ndw - i ? skip : ndw - i;
    }
    return 0;
}

int64_t vg_pm4_step(vg_queue *q, uint64_t r, uint64_t w) {
    uint32_t h;
    vg_ring_copy(q, r, 1, &h);
    uint32_t len = packet_len(h), skip;
    if (!len) {
        vg_msg("PM4 packet type %u (header 0x%08x) is not implemented; the queue is stopped",
               h >> 30, h);
        q->broken = 1;
        return -1;
    }
    if (len > w - r)
        return (int64_t)r; /* the rest is not written yet */
    vg_ring_copy(q, r, len, q->pkt);
    if (packet(q, q->pkt, len, 0, &skip) != 0) {
        q->broken = 1;
        return -1;
    }
    if (skip > w - r - len)
        return (int64_t)r; /* PRED_EXEC's packets are not all written yet: run it again later */
    return (int64_t)(r + len + skip);
}
