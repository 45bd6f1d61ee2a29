/* gpu.c - the simulated GPU: a thread that watches the doorbell, fetches GPFIFO entries of the
 * rung channels from GP_GET to GP_PUT and executes their pushbuffers: host semaphores, the
 * compute class (QMD v03 launches, which call the C function registered for the program
 * address) and the copy engine (LAUNCH_DMA).  A bad address, an unknown opcode or class, or a
 * kernel that reports a fault puts the channel in an error state: it stops fetching, and the
 * fault is recorded in the stats (last_fault names the channel, method and address). */
#include "sim_impl.h"

#include <errno.h>
#include <string.h>
#include <time.h>

static volatile uint32_t *userd(sim_channel *ch, uint32_t off) {
    return sim_buf_ptr(ch->userd, ch->userd_off + off, 4);
}

static int sem_execute(nvt_sim *sim, sim_channel *ch, uint32_t exec) {
    unsigned op = exec & 7;
    int wide = (exec & NVT_SEM_PAYLOAD_64) != 0;
    void *p = sim_translate_locked(sim, ch->sem_addr, wide ? 8 : 4);
    if (!p) {
        sim_fault(sim, ch, "channel %d: MMU fault: semaphore at unmapped VA 0x%llx", ch->chid,
                  (unsigned long long)ch->sem_addr);
        return -EFAULT;
    }
    if (op == NVT_SEM_RELEASE) {
        if (ch->unfenced)
            sim->st.unfenced_releases++;
        if (wide)
            __atomic_store_n((uint64_t *)p, ch->sem_payload, __ATOMIC_RELEASE);
        else
            __atomic_store_n((uint32_t *)p, (uint32_t)ch->sem_payload, __ATOMIC_RELEASE);
        sim->st.sem_releases++;
        return 0;
    }
    uint64_t cur = wide ? __atomic_load_n((uint64_t *)p, __ATOMIC_ACQUIRE)
                        : __atomic_load_n((uint32_t *)p, __ATOMIC_ACQUIRE);
    uint64_t want = wide ? ch->sem_payload : (uint32_t)ch->sem_payload;
    int ok;
    switch (op) {
    case NVT_SEM_ACQUIRE: ok = cur == want; break;
    case NVT_SEM_ACQ_STRICT_GEQ: ok = cur >= want; break;
    case NVT_SEM_ACQ_CIRC_GEQ:
        ok = wide ? (int64_t)(cur - want) >= 0 : (int32_t)((uint32_t)cur - (uint32_t)want) >= 0;
        break;
    default:
        sim_fault(sim, ch, "channel %d: semaphore operation %u not simulated", ch->chid, op);
        return -EINVAL;
    }
    if (!ok)
        return -EAGAIN; /* blocked: retried on the next pass */
    sim->st.sem_acquires++;
    return 0;
}

static int launch_qmd(nvt_sim *sim, sim_channel *ch) {
    uint64_t qva = (uint64_t)ch->pcas_a << 8;
    const uint32_t *qmd = sim_translate_locked(sim, qva, NVT_QMD_BYTES);
    if (!qmd) {
        sim_fault(sim, ch, "channel %d: MMU fault: QMD at unmapped VA 0x%llx", ch->chid,
                  (unsigned long long)qva);
        return -EFAULT;
    }
    if (nvt_qmd_get(qmd, 583, 580) != 3) {
        sim_fault(sim, ch, "channel %d: QMD at 0x%llx has major version %llu, not 3", ch->chid,
                  (unsigned long long)qva, (unsigned long long)nvt_qmd_get(qmd, 583, 580));
        return -EINVAL;
    }
    nvt_sim_launch l = {.sim = sim, .qmd = qmd};
    l.program_va = nvt_qmd_get(qmd, 1567, 1536) | nvt_qmd_get(qmd, 1584, 1568) << 32;
    l.grid[0] = (uint32_t)nvt_qmd_get(qmd, 415, 384);
    l.grid[1] = (uint32_t)nvt_qmd_get(qmd, 431, 416);
    l.grid[2] = (uint32_t)nvt_qmd_get(qmd, 463, 448);
    l.block[0] = (uint32_t)nvt_qmd_get(qmd, 607, 592);
    l.block[1] = (uint32_t)nvt_qmd_get(qmd, 623, 608);
    l.block[2] = (uint32_t)nvt_qmd_get(qmd, 639, 624);
    l.shared_bytes = (uint32_t)nvt_qmd_get(qmd, 561, 544);
    l.registers = (uint32_t)nvt_qmd_get(qmd, 656, 648);
    l.barriers = (uint32_t)nvt_qmd_get(qmd, 767, 763);
    l.local_bytes = (uint32_t)nvt_qmd_get(qmd, 759, 736);
    l.sm_config = (uint32_t)nvt_qmd_get(qmd, 662, 657);
    l.shared_window = ch->shared_window;
    l.local_window = ch->local_window;
    l.local_va = ch->local_va;
    l.local_store_bytes = ch->local_per_tpc * (ch->local_sm_count / 2);
    /* Fields only hardware interprets, held to the rules of issue #20: API_VISIBLE_CALL_LIMIT
     * NO_CHECK, a TARGET_SM_CONFIG inside [MIN, MAX], a configuration (KiB/4 + 1) that holds
     * the block's shared memory, which includes sm_8x's reserved 1 KiB. */
    uint32_t cmin = (uint32_t)nvt_qmd_get(qmd, 567, 562),
             cmax = (uint32_t)nvt_qmd_get(qmd, 574, 569);
    const char *bad = NULL;
    if (nvt_qmd_get(qmd, 378, 378) != 1)
        bad = "API_VISIBLE_CALL_LIMIT is not NO_CHECK";
    else if (!l.sm_config || l.sm_config < cmin || l.sm_config > cmax)
        bad = "TARGET_SM_CONFIG_SHARED_MEM_SIZE is 0 or outside [MIN, MAX]";
    else if ((l.sm_config - 1) * 4096u < l.shared_bytes)
        bad = "the SM shared-memory configuration is smaller than SHARED_MEMORY_SIZE";
    else if (l.shared_bytes < NVT_SHARED_RESERVED)
        bad = "SHARED_MEMORY_SIZE lacks the 1 KiB sm_8x reserves per block";
    else if (ch->windows_set != 3)
        bad = "the shared or local memory window was never set";
    if (bad) {
        sim_fault(sim, ch, "channel %d: QMD at 0x%llx: %s", ch->chid, (unsigned long long)qva, bad);
        return -EINVAL;
    }
    if (nvt_qmd_get(qmd, 640, 640)) {
        l.cbuf0_va = nvt_qmd_get(qmd, 1055, 1024) | nvt_qmd_get(qmd, 1072, 1056) << 32;
        l.cbuf0_size = (uint32_t)nvt_qmd_get(qmd, 1087, 1075) << 4;
        l.cbuf0 = sim_translate_locked(sim, l.cbuf0_va, l.cbuf0_size);
        if (!l.cbuf0) {
            sim_fault(sim, ch, "channel %d: MMU fault: constant bank 0 at unmapped VA 0x%llx",
                      ch->chid, (unsigned long long)l.cbuf0_va);
            return -EFAULT;
        }
    }
    if (!l.grid[0] || !l.grid[1] || !l.grid[2] || !l.block[0] || !l.block[1] || !l.block[2]) {
        sim_fault(sim, ch, "channel %d: QMD at 0x%llx has an empty grid or block", ch->chid,
                  (unsigned long long)qva);
        return -EINVAL;
    }
    /* The driver constants compiled code reads from cbuf0 must match the channel's state. */
    uint64_t c_sh = 0, c_lw = 0, c_top = 0;
    if (!l.cbuf0 || l.cbuf0_size < NVT_CBUF0_DRIVER_END) {
        bad = "constant bank 0 has no driver area";
    } else {
        memcpy(&c_sh, l.cbuf0 + NVT_CBUF0_SHARED_WINDOW, 8);
        memcpy(&c_lw, l.cbuf0 + NVT_CBUF0_LOCAL_WINDOW, 8);
        memcpy(&c_top, l.cbuf0 + NVT_CBUF0_STACK_TOP, 8);
        if (c_sh != ch->shared_window || c_lw != ch->local_window)
            bad = "cbuf0's shared/local window constants differ from the windows set";
        else if (c_top != l.local_bytes)
            bad = "cbuf0's stack top is not the per-thread local memory size";
    }
    /* Local memory: a store mapped for the per-TPC size over every TPC, the size per TPC
     * enough for the 3072 threads a TPC can hold, windows apart from each other and from
     * every mapping. */
    if (!bad && l.local_bytes) {
        if (!ch->local_va || !ch->local_sm_count)
            bad = "local memory used but SET_SHADER_LOCAL_MEMORY_A/B or NON_THROTTLED never set";
        else if (ch->local_per_tpc < (uint64_t)l.local_bytes * NVT_THREADS_PER_TPC)
            bad = "the per-TPC local-memory size is too small for this kernel";
        else if (!sim_translate_locked(sim, ch->local_va, l.local_store_bytes))
            bad = "the local-memory store is not mapped for its whole size";
    }
    if (!bad) {
        const uint64_t span = 1ull << 24; /* 16 MiB: the most a window can address */
        uint64_t w[2] = {ch->shared_window, ch->local_window};
        if (w[0] < w[1] + span && w[1] < w[0] + span)
            bad = "the shared and local windows overlap";
        for (int i = 0; i < sim->nmaps && !bad; i++)
            for (int j = 0; j < 2; j++)
                if (w[j] < sim->maps[i].va + sim->maps[i].size && sim->maps[i].va < w[j] + span)
                    bad = "a memory window overlaps a GPU mapping";
    }
    if (bad) {
        sim_fault(sim, ch, "channel %d: launch at 0x%llx: %s", ch->chid, (unsigned long long)qva,
                  bad);
        return -EINVAL;
    }
    if (!sim_translate_locked(sim, l.program_va, 16)) {
        sim_fault(sim, ch, "channel %d: MMU fault: program at unmapped VA 0x%llx", ch->chid,
                  (unsigned long long)l.program_va);
        return -EFAULT;
    }
    const sim_kernel *k = NULL;
    for (int i = 0; i < sim->nkernels; i++)
        if (sim->kernels[i].va == l.program_va)
            k = &sim->kernels[i];
    if (!k) {
        sim_fault(sim, ch, "channel %d: no simulated kernel registered at program VA 0x%llx",
                  ch->chid, (unsigned long long)l.program_va);
        return -ENOENT;
    }
    sim->st.launches++;
    if (l.local_bytes)
        sim->st.local_launches++;
    ch->unfenced = 1;
    if (k->fn(&l, k->user) < 0) {
        sim_fault(sim, ch, "channel %d: MMU fault in kernel at 0x%llx", ch->chid,
                  (unsigned long long)l.program_va);
        return -EFAULT;
    }
    if (nvt_qmd_get(qmd, 823, 823)) { /* RELEASE0 */
        ch->sem_addr = nvt_qmd_get(qmd, 799, 768) | nvt_qmd_get(qmd, 807, 800) << 32;
        ch->sem_payload = nvt_qmd_get(qmd, 863, 832);
        return sem_execute(sim, ch, NVT_SEM_RELEASE);
    }
    return 0;
}

static int launch_dma(nvt_sim *sim, sim_channel *ch, uint32_t v) {
    unsigned type = v & 3;
    if ((type != NVT_DMA_NON_PIPELINED && type != 1) || !(v & NVT_DMA_SRC_PITCH) ||
        !(v & NVT_DMA_DST_PITCH) || (v & (3u << 12))) {
        sim_fault(sim, ch, "channel %d: LAUNCH_DMA 0x%x not simulated (only pitch, virtual)",
                  ch->chid, v);
        return -EINVAL;
    }
    uint32_t lines = (v & NVT_DMA_MULTI_LINE) ? ch->line_count : 1;
    for (uint32_t i = 0; i < lines; i++) {
        uint64_t src = ch->copy_in + (uint64_t)i * ch->pitch_in;
        uint64_t dst = ch->copy_out + (uint64_t)i * ch->pitch_out;
        void *s = sim_translate_locked(sim, src, ch->line_length);
        void *d = sim_translate_locked(sim, dst, ch->line_length);
        if (!s || !d) {
            sim_fault(sim, ch, "channel %d: MMU fault: copy of %u bytes 0x%llx -> 0x%llx", ch->chid,
                      ch->line_length, (unsigned long long)src, (unsigned long long)dst);
            return -EFAULT;
        }
        memmove(d, s, ch->line_length);
    }
    sim->st.copies++;
    ch->unfenced = 1;
    return 0;
}

/* One method write; -EAGAIN means "blocked, retry this method later". */
static int method(nvt_sim *sim, sim_channel *ch, unsigned subch, uint32_t m, uint32_t v) {
    if (m < 0x100) { /* host methods, on any subchannel */
        switch (m) {
        case NVT_HOST_SET_OBJECT:
            if (!((v == 0xC7C0 && ch->has_compute) || (v == 0xC7B5 && ch->has_copy))) {
                sim_fault(sim, ch, "channel %d: SET_OBJECT 0x%x without ALLOC_OBJ_CTX", ch->chid,
                          v);
                return -EINVAL;
            }
            ch->subch_class[subch] = v;
            return 0;
        case NVT_HOST_SEM_ADDR_LO:
            ch->sem_addr = (ch->sem_addr & ~0xffffffffull) | (v & ~3u);
            return 0;
        case NVT_HOST_SEM_ADDR_HI:
            ch->sem_addr = (ch->sem_addr & 0xffffffffull) | (uint64_t)(v & 0xff) << 32;
            return 0;
        case NVT_HOST_SEM_PAYLOAD_LO:
            ch->sem_payload = (ch->sem_payload & ~0xffffffffull) | v;
            return 0;
        case NVT_HOST_SEM_PAYLOAD_HI:
            ch->sem_payload = (ch->sem_payload & 0xffffffffull) | (uint64_t)v << 32;
            return 0;
        case NVT_HOST_SEM_EXECUTE: return sem_execute(sim, ch, v);
        case NVT_HOST_WFI: return 0; /* the simulator runs everything in order */
        case NVT_HOST_MEM_OP_A:
        case NVT_HOST_MEM_OP_A + 4:
        case NVT_HOST_MEM_OP_A + 8: ch->mem_op[(m - NVT_HOST_MEM_OP_A) / 4] = v; return 0;
        case NVT_HOST_MEM_OP_D:
            /* OPERATION 31:27: only MEMBAR (5), of type SYS_MEMBAR (MEM_OP_C 2:0 = 0), is
             * modelled; it makes earlier launches' and copies' writes visible. */
            if (v >> 27 != 5 || (ch->mem_op[2] & 7) != 0) {
                sim_fault(sim, ch, "channel %d: MEM_OP_D 0x%x (MEM_OP_C 0x%x) not simulated",
                          ch->chid, v, ch->mem_op[2]);
                return -EINVAL;
            }
            ch->unfenced = 0;
            sim->st.membars++;
            return 0;
        default:
            sim_fault(sim, ch, "channel %d: host method 0x%x not simulated", ch->chid, m);
            return -EINVAL;
        }
    }
    uint32_t cls = ch->subch_class[subch];
    if (cls == 0xC7C0) {
        /* A methods carry address bits 48:32 (16:0), B methods bits 31:0 */
        switch (m) {
        case NVT_COMPUTE_SET_SHADER_SHARED_MEMORY_WINDOW_A:
            ch->shared_window = (ch->shared_window & 0xffffffffull) | (uint64_t)(v & 0x1ffff) << 32;
            return 0;
        case NVT_COMPUTE_SET_SHADER_SHARED_MEMORY_WINDOW_A + 4:
            ch->shared_window = (ch->shared_window & ~0xffffffffull) | v;
            ch->windows_set |= 1;
            return 0;
        case NVT_COMPUTE_SET_SHADER_LOCAL_MEMORY_WINDOW_A:
            ch->local_window = (ch->local_window & 0xffffffffull) | (uint64_t)(v & 0x1ffff) << 32;
            return 0;
        case NVT_COMPUTE_SET_SHADER_LOCAL_MEMORY_WINDOW_A + 4:
            ch->local_window = (ch->local_window & ~0xffffffffull) | v;
            ch->windows_set |= 2;
            return 0;
        case NVT_COMPUTE_SET_SHADER_LOCAL_MEMORY_A:
            ch->local_va = (ch->local_va & 0xffffffffull) | (uint64_t)(v & 0x1ffff) << 32;
            return 0;
        case NVT_COMPUTE_SET_SHADER_LOCAL_MEMORY_A + 4:
            ch->local_va = (ch->local_va & ~0xffffffffull) | v;
            return 0;
        case NVT_COMPUTE_SET_SHADER_LOCAL_MEMORY_NON_THROTTLED_A: /* SIZE_UPPER 7:0 */
            ch->local_per_tpc = (ch->local_per_tpc & 0xffffffffull) | (uint64_t)(v & 0xff) << 32;
            return 0;
        case NVT_COMPUTE_SET_SHADER_LOCAL_MEMORY_NON_THROTTLED_A + 4:
            ch->local_per_tpc = (ch->local_per_tpc & ~0xffffffffull) | v;
            return 0;
        case NVT_COMPUTE_SET_SHADER_LOCAL_MEMORY_NON_THROTTLED_A + 8: /* MAX_SM_COUNT 8:0 */
            ch->local_sm_count = v & 0x1ff;
            return 0;
        default: break;
        }
        if (m == NVT_COMPUTE_SEND_PCAS_A)
            ch->pcas_a = v;
        else if (m == NVT_COMPUTE_SEND_SIGNALING_PCAS2_B &&
                 (v == NVT_PCAS_ACTION_SCHEDULE || v == NVT_PCAS_ACTION_PREFETCH_SCHEDULE))
            return launch_qmd(sim, ch);
        return 0; /* state methods the simulator does not model */
    }
    if (cls == 0xC7B5) {
        switch (m) {
        case 0x400: ch->copy_in = (ch->copy_in & 0xffffffffull) | (uint64_t)v << 32; break;
        case 0x404: ch->copy_in = (ch->copy_in & ~0xffffffffull) | v; break;
        case 0x408: ch->copy_out = (ch->copy_out & 0xffffffffull) | (uint64_t)v << 32; break;
        case 0x40c: ch->copy_out = (ch->copy_out & ~0xffffffffull) | v; break;
        case 0x410: ch->pitch_in = v; break;
        case 0x414: ch->pitch_out = v; break;
        case NVT_COPY_LINE_LENGTH_IN: ch->line_length = v; break;
        case NVT_COPY_LINE_COUNT: ch->line_count = v; break;
        case NVT_COPY_LAUNCH_DMA: return launch_dma(sim, ch, v);
        default: break;
        }
        return 0;
    }
    sim_fault(sim, ch, "channel %d: method 0x%x on subchannel %u with no object bound", ch->chid, m,
              subch);
    return -EINVAL;
}

/* Run the pushbuffer of one GPFIFO entry from ch->cur_word.  0: done; -EAGAIN: blocked. */
static int run_entry(nvt_sim *sim, sim_channel *ch, uint64_t entry) {
    uint64_t va = entry & 0xfffffffffcull;
    uint32_t len = (uint32_t)(entry >> 42) & 0x1fffff;
    const uint32_t *pb = sim_translate_locked(sim, va, (uint64_t)len * 4);
    if (!pb) {
        sim_fault(sim, ch, "channel %d: MMU fault: pushbuffer at unmapped VA 0x%llx (%u words)",
                  ch->chid, (unsigned long long)va, len);
        return -EFAULT;
    }
    /* cur_word always points at a method header: a blocked method is retried whole, which
     * is harmless because only SEM_EXECUTE blocks and it is the last of its header. */
    while (ch->cur_word < len) {
        uint32_t h = pb[ch->cur_word];
        unsigned op = h >> 29, subch = (h >> 13) & 7, count = (h >> 16) & 0x1fff;
        uint32_t m = (h & 0xfff) << 2;
        if (op == NVT_SEC_IMMD) {
            int rc = method(sim, ch, subch, m, count);
            if (rc)
                return rc;
            ch->cur_word++;
            continue;
        }
        if (op != NVT_SEC_INC && op != NVT_SEC_NON_INC && op != NVT_SEC_ONE_INC) {
            sim_fault(sim, ch, "channel %d: method header 0x%08x at 0x%llx has opcode %u", ch->chid,
                      h, (unsigned long long)(va + 4ull * ch->cur_word), op);
            return -EINVAL;
        }
        if (ch->cur_word + 1 + count > len) {
            sim_fault(sim, ch, "channel %d: method header 0x%08x runs past its GPFIFO entry",
                      ch->chid, h);
            return -EINVAL;
        }
        for (unsigned i = 0; i < count; i++) {
            uint32_t mi = op == NVT_SEC_INC ? m + 4 * i : op == NVT_SEC_ONE_INC && i ? m + 4 : m;
            int rc = method(sim, ch, subch, mi, pb[ch->cur_word + 1 + i]);
            if (rc == -EAGAIN && i + 1 != count) {
                sim_fault(sim, ch, "channel %d: blocking method not last in its header", ch->chid);
                return -EINVAL;
            }
            if (rc)
                return rc;
        }
        ch->cur_word += 1 + count;
    }
    return 0;
}

/* Fetch from GP_GET to GP_PUT.  Returns 1 if the channel made progress. */
static int run_channel(nvt_sim *sim, sim_channel *ch) {
    if (!ch->setup || ch->error)
        return 0;
    volatile uint32_t *get = userd(ch, NVT_USERD_GP_GET);
    uint32_t put = __atomic_load_n((uint32_t *)userd(ch, NVT_USERD_GP_PUT), __ATOMIC_ACQUIRE);
    const uint64_t *fifo = sim_buf_ptr(ch->gpfifo, ch->gpfifo_off, (uint64_t)ch->entries * 8);
    int progress = 0;
    if (put >= ch->entries) {
        sim_fault(sim, ch, "channel %d: GP_PUT %u outside the %u-entry ring", ch->chid, put,
                  ch->entries);
        return 0;
    }
    while (*get != put) {
        int rc = run_entry(sim, ch, fifo[*get]);
        if (rc == -EAGAIN)
            return progress;
        if (rc)
            return progress;
        sim->st.gpfifo_entries++;
        ch->cur_word = 0;
        __atomic_store_n((uint32_t *)get, (*get + 1) & (ch->entries - 1), __ATOMIC_RELEASE);
        progress = 1;
    }
    return progress;
}

static int has_work(sim_channel *ch) {
    return ch->setup && !ch->error &&
           *userd(ch, NVT_USERD_GP_GET) !=
               __atomic_load_n((uint32_t *)userd(ch, NVT_USERD_GP_PUT), __ATOMIC_ACQUIRE);
}

/* The idle poll's sleep: 30 us, growing with the time spent idle (1/16 of it, at most 1 ms), so
 * that a doorbell after a short pause is seen as quickly as before while a long idle stretch
 * (a test waiting on the host, a paused GPU) does not wake the thread 30,000 times a second:
 * each wake-up costs tens of microseconds of system time on a virtual machine. */
static long idle_sleep_ns(const struct timespec *since) {
    struct timespec now;
    clock_gettime(CLOCK_MONOTONIC, &now);
    long long idle = (now.tv_sec - since->tv_sec) * 1000000000ll + (now.tv_nsec - since->tv_nsec);
    long long ns = idle / 16;
    return ns < 30000 ? 30000 : ns > 1000000 ? 1000000 : (long)ns;
}

void *sim_gpu_thread(void *arg) {
    nvt_sim *sim = arg;
    struct timespec idle_since;
    clock_gettime(CLOCK_MONOTONIC, &idle_since);
    for (;;) {
        pthread_mutex_lock(&sim->lock);
        if (!sim->running) {
            pthread_mutex_unlock(&sim->lock);
            return NULL;
        }
        int progress = 0;
        if (!sim->paused) {
            /* A doorbell is a store of a work_submit_token.  The simulator sees only the last
             * token stored since its previous look, so on any valid doorbell it also kicks every
             * channel with unfetched entries (two quick doorbells would otherwise lose one).  A
             * channel whose GP_PUT moved without any doorbell is not fetched. */
            uint32_t tok =
                __atomic_exchange_n((uint32_t *)&sim->usermode[NVT_USERMODE_DOORBELL / 4],
                                    0xffffffffu, __ATOMIC_ACQ_REL);
            if (tok != 0xffffffffu) {
                progress = 1; /* back to the short sleep: work is coming */
                sim->st.doorbells++;
                if (tok >= 64 || !sim->chans[tok] || !sim->chans[tok]->setup) {
                    sim->st.bad_doorbells++;
                } else {
                    for (int c = 0; c < 64; c++)
                        if (sim->chans[c] && (c == (int)tok || has_work(sim->chans[c])))
                            sim->chans[c]->kicked = 1;
                }
            }
            for (int c = 0; c < 64; c++) {
                sim_channel *ch = sim->chans[c];
                if (!ch || !ch->kicked)
                    continue;
                progress |= run_channel(sim, ch);
                if (!has_work(ch))
                    ch->kicked = 0;
            }
        }
        pthread_mutex_unlock(&sim->lock);
        if (progress) {
            clock_gettime(CLOCK_MONOTONIC, &idle_since);
        } else {
            struct timespec ts = {0, idle_sleep_ns(&idle_since)};
            nanosleep(&ts, NULL);
        }
    }
}
