/* kdriver.c - the simulated nvmap + nvgpu kernel driver: an nvt_os backend whose open, ioctl,
 * mmap, munmap and close implement the calls libnvtegra makes, with the checks and errnos of
 * the real drivers as we read them (docs/tegra.md).  Every fd it returns is a real fd (a memfd),
 * so fd and mapping leaks are visible to the tests and to /proc/self/fd. */
#include "sim_impl.h"

#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

#define VA_ALIGN 0x10000ull
/* The simulated ga10b's MMU, as GET_CHARACTERISTICS reports it: a 64 KiB default (and only)
 * big page size, PDEs covering 2 MiB (pde_coverage_bit_count 21).  Our assumption for Orin,
 * not read from a Jetson: the driver reads them instead of hard-coding them. */
#define SIM_BIG_PAGE 0x10000u
#define SIM_PDE_BITS 21u
/* The kernel's own mappings (SETUP_BIND's GPU_MAP_RESOURCES) go above the user range, as
 * nvgpu's VM puts its kernel area after low_hole + user_size. */
#define SIM_KERNEL_VA_SIZE (4ull << 30)

static sim_obj *obj_of(nvt_sim *sim, int fd, enum obj_kind kind) {
    if (fd < 0 || fd >= sim->nfds || sim->fds[fd].kind == OBJ_NONE)
        return NULL;
    if (kind != OBJ_NONE && sim->fds[fd].kind != kind)
        return NULL;
    return &sim->fds[fd];
}

/* A new fd of the given kind, backed by a fresh memfd (or by dup of memfd for dmabufs). */
static int new_fd(nvt_sim *sim, enum obj_kind kind, int src_memfd) {
    int fd = src_memfd >= 0 ? dup(src_memfd) : memfd_create("nvtegra-sim", MFD_CLOEXEC);
    if (fd < 0)
        return -errno;
    if (fd >= sim->nfds) {
        int n = fd + 64;
        sim_obj *f = realloc(sim->fds, (size_t)n * sizeof *f);
        if (!f) {
            close(fd);
            return -ENOMEM;
        }
        memset(f + sim->nfds, 0, (size_t)(n - sim->nfds) * sizeof *f);
        sim->fds = f;
        sim->nfds = n;
    }
    sim->fds[fd] = (sim_obj){.kind = kind, .memfd_backed = 1};
    sim->st.open_fds++;
    return fd;
}

static void buf_unref(sim_buf *b) {
    if (--b->refs > 0)
        return;
    if (b->phys)
        munmap(b->phys, b->size);
    if (b->memfd >= 0)
        close(b->memfd);
    free(b);
}

void *sim_buf_ptr(sim_buf *b, uint64_t off, uint64_t len) {
    if (!b->phys || off > b->size || len > b->size - off)
        return NULL;
    return (b->alias ? b->alias : b->phys) + off;
}

void *sim_translate_locked(nvt_sim *sim, uint64_t va, uint64_t len) {
    for (int i = 0; i < sim->nmaps; i++) {
        sim_map *m = &sim->maps[i];
        if (va >= m->va && va - m->va < m->size) {
            if (len > m->size - (va - m->va))
                return NULL; /* runs off the mapping */
            return sim_buf_ptr(m->buf, m->buf_offset + (va - m->va), len);
        }
    }
    return NULL;
}

void sim_fault(nvt_sim *sim, sim_channel *ch, const char *fmt, ...) {
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(sim->st.last_fault, sizeof sim->st.last_fault, fmt, ap);
    va_end(ap);
    sim->st.faults++;
    if (ch)
        ch->error = 1;
}

/* First fit in the address space's user range [va_start, va_end) (kernel-owned mappings: the
 * kernel area after it), 64 KiB aligned; the map list stays sorted. */
static int map_insert(nvt_sim *sim, sim_buf *b, uint64_t buf_offset, uint64_t size,
                      int kernel_owned, uint64_t *va_out) {
    uint64_t lo = kernel_owned ? sim->va_end : sim->va_start;
    uint64_t hi = kernel_owned ? sim->va_end + SIM_KERNEL_VA_SIZE : sim->va_end;
    uint64_t va = lo, span = (size + VA_ALIGN - 1) & ~(VA_ALIGN - 1);
    int at = 0;
    for (; at < sim->nmaps; at++) {
        if (sim->maps[at].va + sim->maps[at].size <= va)
            continue;
        if (va + span <= sim->maps[at].va)
            break;
        uint64_t end = sim->maps[at].va + sim->maps[at].size;
        va = (end + VA_ALIGN - 1) & ~(VA_ALIGN - 1);
    }
    if (!sim->as_exists || va + span > hi)
        return -ENOMEM;
    if (sim->nmaps == sim->capmaps) {
        int n = sim->capmaps ? sim->capmaps * 2 : 64;
        sim_map *m = realloc(sim->maps, (size_t)n * sizeof *m);
        if (!m)
            return -ENOMEM;
        sim->maps = m;
        sim->capmaps = n;
    }
    memmove(&sim->maps[at + 1], &sim->maps[at], (size_t)(sim->nmaps - at) * sizeof *sim->maps);
    sim->maps[at] = (sim_map){va, size, b, buf_offset, kernel_owned};
    sim->nmaps++;
    b->refs++;
    if (!kernel_owned)
        sim->st.gpu_mappings++;
    if (!kernel_owned && va + size > sim->st.max_gpu_va_end)
        sim->st.max_gpu_va_end = va + size;
    *va_out = va;
    return 0;
}

static int map_remove(nvt_sim *sim, uint64_t va, int kernel_owned) {
    for (int i = 0; i < sim->nmaps; i++)
        if (sim->maps[i].va == va && sim->maps[i].kernel_owned == kernel_owned) {
            buf_unref(sim->maps[i].buf);
            memmove(&sim->maps[i], &sim->maps[i + 1],
                    (size_t)(sim->nmaps - i - 1) * sizeof *sim->maps);
            sim->nmaps--;
            if (!kernel_owned)
                sim->st.gpu_mappings--;
            return 0;
        }
    return -EINVAL;
}

/* ---- nvmap -------------------------------------------------------------------------------- */

static sim_buf *handle_buf(nvt_sim *sim, uint32_t h) {
    return h && (int)h <= sim->nhandles ? sim->handles[h - 1] : NULL;
}

static int nvmap_ioctl(nvt_sim *sim, unsigned long req, void *arg) {
    if (req == NVT_NVMAP_IOC_CREATE) {
        struct nvt_nvmap_handle *h = arg;
        if (!h->size_or_fd)
            return -EINVAL;
        sim_buf *b = calloc(1, sizeof *b);
        if (!b)
            return -ENOMEM;
        int slot = 0;
        while (slot < sim->nhandles && sim->handles[slot])
            slot++;
        if (slot == sim->nhandles) {
            sim_buf **n = realloc(sim->handles, (size_t)(slot + 64) * sizeof *n);
            if (!n) {
                free(b);
                return -ENOMEM;
            }
            memset(n + slot, 0, 64 * sizeof *n);
            sim->handles = n;
            sim->nhandles = slot + 64;
        }
        long pg = sysconf(_SC_PAGESIZE);
        b->size = (h->size_or_fd + (uint32_t)pg - 1) & ~((uint32_t)pg - 1);
        if (!b->size) {
            free(b);
            return -EINVAL;
        }
        b->memfd = -1;
        b->refs = 1;
        b->handle = (uint32_t)slot + 1;
        sim->handles[slot] = b;
        sim->st.handles++;
        h->handle = b->handle;
        return 0;
    }
    if (req == (sim->abi == NVT_ABI_R36 ? NVT_NVMAP_IOC_ALLOC_R36 : NVT_NVMAP_IOC_ALLOC_R35)) {
        struct nvt_nvmap_alloc_r35 *a = arg; /* r36 only appends numa_nid */
        sim_buf *b = handle_buf(sim, a->handle);
        uint32_t cache = a->flags & 0xffff;
        if (!b || !(a->heap_mask & NVT_NVMAP_HEAP_IOVMM) || cache > NVT_NVMAP_CACHEABLE ||
            (a->align & (a->align - 1)))
            return -EINVAL;
        if (b->memfd >= 0)
            return -EEXIST;
        if (sim->st.bytes + b->size > sim->mem_limit)
            return -ENOMEM;
        if (!(a->flags >> NVT_NVMAP_TAG_SHIFT))
            sim->st.untagged_allocs++;
        int fd = memfd_create("nvtegra-sim-dmabuf", MFD_CLOEXEC);
        if (fd < 0)
            return -errno;
        void *p = MAP_FAILED;
        if (ftruncate(fd, b->size) == 0)
            p = mmap(NULL, b->size, PROT_READ | PROT_WRITE, MAP_SHARED, fd, 0);
        if (p == MAP_FAILED) {
            close(fd);
            return -ENOMEM;
        }
        b->memfd = fd;
        b->phys = p;
        b->flags = a->flags;
        sim->st.bytes += b->size;
        sim->st.last_nvmap_flags = a->flags;
        return 0;
    }
    if (req == NVT_NVMAP_IOC_GET_FD) {
        struct nvt_nvmap_handle *h = arg;
        sim_buf *b = handle_buf(sim, h->handle);
        if (!b || b->memfd < 0)
            return -EINVAL;
        int fd = new_fd(sim, OBJ_DMABUF, b->memfd);
        if (fd < 0)
            return fd;
        sim->fds[fd].buf = b;
        b->refs++;
        h->size_or_fd = (uint32_t)fd;
        return 0;
    }
    if (req == NVT_NVMAP_IOC_FREE) {
        uint32_t h = (uint32_t)(uintptr_t)arg;
        sim_buf *b = handle_buf(sim, h);
        if (!b)
            return -EINVAL;
        sim->handles[h - 1] = NULL;
        sim->st.handles--;
        if (b->memfd >= 0)
            sim->st.bytes -= b->size;
        buf_unref(b);
        return 0;
    }
    return -ENOTTY;
}

/* ---- nvgpu ctrl --------------------------------------------------------------------------- */

static void put32(uint8_t *p, uint32_t v) { memcpy(p, &v, 4); }
static void put64(uint8_t *p, uint64_t v) { memcpy(p, &v, 8); }

static int ctrl_ioctl(nvt_sim *sim, unsigned long req, void *arg) {
    if (req == NVT_GPU_IOCTL_GET_CHARACTERISTICS) {
        struct nvt_gpu_get_characteristics *g = arg;
        /* Each release's own layout (r35's fields sit 8 bytes lower than r36's). */
        const nvt_chars_layout *L = nvt_chars_layout_of(sim->abi);
        uint32_t size = L->size;
        uint8_t c[NVT_CHARS_SIZE_R36];
        memset(c, 0, sizeof c);
        put32(c + L->num_gpc, SIM_NUM_GPC);
        put32(c + L->num_tpc_per_gpc, SIM_TPC_PER_GPC);
        put32(c + L->big_page_size, SIM_BIG_PAGE);
        put32(c + L->pde_coverage_bit_count, SIM_PDE_BITS);
        put32(c + L->available_big_page_sizes, SIM_BIG_PAGE);
        put64(c + L->flags, NVT_CHARS_FLAG_USERMODE_SUBMIT | NVT_CHARS_FLAG_SYNCPOINT_ADDRESS |
                                NVT_CHARS_FLAG_USER_SYNCPOINT);
        put32(c + L->compute_class, 0xC7C0);
        put32(c + L->gpfifo_class, 0xC76F);
        put32(c + L->dma_copy_class, 0xC7B5);
        put32(c + L->sm_version, 0x807);
        if (g->buf_size) {
            if (!g->buf_addr)
                return -EFAULT;
            memcpy((void *)(uintptr_t)g->buf_addr, c, g->buf_size < size ? g->buf_size : size);
        }
        g->buf_size = size;
        return 0;
    }
    if (req == NVT_GPU_IOCTL_ALLOC_AS) {
        struct nvt_gpu_alloc_as *a = arg;
        /* nvgpu's gk20a_vm_alloc_share rules (common/mm/as.c, r35 and r36 alike): big_page_size
         * 0 means no big pages; otherwise a power of two among the available sizes.  The range
         * must be non-empty, PDE-aligned and non-zero at both ends; the split must be 0 with
         * UNIFIED_VA or without big pages, else PDE-aligned and strictly inside. */
        uint64_t pde = 1ull << SIM_PDE_BITS, start = a->va_range_start, end = a->va_range_end;
        int big = a->big_page_size != 0, unified = (a->flags & NVT_AS_FLAG_UNIFIED_VA) != 0;
        int pad = 0;
        for (int i = 0; i < 6; i++)
            pad |= a->padding[i] != 0;
        if ((a->flags & ~NVT_AS_FLAG_UNIFIED_VA) || a->reserved || pad ||
            (big && (a->big_page_size & (a->big_page_size - 1))) ||
            (big && !(a->big_page_size & SIM_BIG_PAGE)))
            return -EINVAL;
        if (!start || (start & (pde - 1)) || !end || (end & (pde - 1)) || start >= end)
            return -EINVAL;
        if (unified || !big ? a->va_range_split != 0
                            : !a->va_range_split || (a->va_range_split & (pde - 1)) ||
                                  a->va_range_split <= start || a->va_range_split >= end)
            return -EINVAL;
        /* what the simulated GPU's MMU can hold: 40 bits, kernel area included */
        if (end + SIM_KERNEL_VA_SIZE > (1ull << 40))
            return -EINVAL;
        if (sim->as_exists)
            return -EBUSY; /* the simulator models one address space per process */
        int fd = new_fd(sim, OBJ_AS, -1);
        if (fd < 0)
            return fd;
        sim->as_exists = 1;
        sim->va_start = start;
        sim->va_end = end;
        sim->st.as_big_page_size = a->big_page_size;
        sim->st.as_va_start = start;
        sim->st.as_va_end = end;
        a->as_fd = fd;
        return 0;
    }
    if (req ==
        (sim->abi == NVT_ABI_R36 ? NVT_GPU_IOCTL_OPEN_TSG_R36 : NVT_GPU_IOCTL_OPEN_TSG_R35)) {
        struct nvt_gpu_open_tsg_r35 *t = arg; /* tsg_fd first in both */
        if (sim->abi == NVT_ABI_R36 && ((struct nvt_gpu_open_tsg_r36 *)arg)->flags)
            return -EINVAL;
        int fd = new_fd(sim, OBJ_TSG, -1);
        if (fd < 0)
            return fd;
        t->tsg_fd = (uint32_t)fd;
        return 0;
    }
    if (req == NVT_GPU_IOCTL_OPEN_CHANNEL) {
        union nvt_gpu_open_channel *o = arg;
        if (o->runlist_id != -1)
            return -EINVAL;
        int chid = 0;
        while (chid < 64 && sim->chans[chid])
            chid++;
        if (chid == 64)
            return -ENOSPC;
        sim_channel *ch = calloc(1, sizeof *ch);
        if (!ch)
            return -ENOMEM;
        int fd = new_fd(sim, OBJ_CHANNEL, -1);
        if (fd < 0) {
            free(ch);
            return fd;
        }
        ch->fd = fd;
        ch->chid = chid;
        ch->tsg_fd = -1;
        ch->wdt_enabled = 1; /* nvgpu's default: every new channel has its watchdog on */
        sim->chans[chid] = ch;
        sim->fds[fd].ch = ch;
        o->channel_fd = fd;
        return 0;
    }
    return -ENOTTY;
}

/* ---- address space ------------------------------------------------------------------------ */

static int as_ioctl(nvt_sim *sim, unsigned long req, void *arg) {
    if (req == NVT_AS_IOCTL_BIND_CHANNEL) {
        sim_obj *o = obj_of(sim, (int)((struct nvt_as_bind_channel *)arg)->channel_fd, OBJ_CHANNEL);
        if (!o || o->ch->as_bound)
            return -EINVAL;
        o->ch->as_bound = 1;
        return 0;
    }
    if (req == NVT_AS_IOCTL_MAP_BUFFER_EX) {
        struct nvt_as_map_buffer_ex *m = arg;
        sim_obj *o = obj_of(sim, (int)m->dmabuf_fd, OBJ_DMABUF);
        if (!o)
            return -EINVAL;
        /* each release's own flag set (nvgpu-as.h): bit 9 is PLATFORM_ATOMIC on r35 and
         * SYSTEM_COHERENT on r36; IO_COHERENT (bit 4) and DIRECT_KIND_CTRL exist on r35 only.
         * PLATFORM_ATOMIC is not modelled, so the simulator refuses it. */
        uint32_t known =
            NVT_AS_MAP_FIXED_OFFSET | NVT_AS_MAP_CACHEABLE |
            (sim->abi == NVT_ABI_R35 ? NVT_AS_MAP_IO_COHERENT_R35 | NVT_AS_MAP_DIRECT_KIND_CTRL
                                     : NVT_AS_MAP_SYSTEM_COHERENT_R36);
        if ((m->flags & ~known) || (m->flags & NVT_AS_MAP_FIXED_OFFSET))
            return -EINVAL; /* fixed offsets need ALLOC_SPACE, which the simulator lacks */
        /* r36 always reads the kinds; r35 only with DIRECT_KIND_CTRL. */
        int kinds = sim->abi == NVT_ABI_R36 || (m->flags & NVT_AS_MAP_DIRECT_KIND_CTRL);
        if (kinds && m->incompr_kind == NVT_KIND_INVALID && m->compr_kind == NVT_KIND_INVALID)
            return -EINVAL;
        if (m->page_size != 4096 && m->page_size != 0x10000)
            return -EINVAL;
        sim_buf *b = o->buf;
        uint64_t size = m->mapping_size ? m->mapping_size : b->size - m->buffer_offset;
        if ((m->buffer_offset & 4095) || (size & 4095) || m->buffer_offset > b->size ||
            size > b->size - m->buffer_offset || !size)
            return -EINVAL;
        sim->st.last_map_flags = m->flags;
        return map_insert(sim, b, m->buffer_offset, size, 0, &m->offset);
    }
    if (req == NVT_AS_IOCTL_UNMAP_BUFFER)
        return map_remove(sim, ((struct nvt_as_unmap_buffer *)arg)->offset, 0);
    return -ENOTTY;
}

/* ---- TSG ------------------------------------------------------------------------------------ */

static int tsg_ioctl(nvt_sim *sim, sim_obj *tsg, int tsg_fd, unsigned long req, void *arg) {
    if (req == NVT_TSG_IOCTL_CREATE_SUBCONTEXT && sim->abi == NVT_ABI_R36) {
        struct nvt_tsg_create_subcontext *s = arg;
        if (s->type > NVT_SUBCONTEXT_ASYNC || !obj_of(sim, s->as_fd, OBJ_AS) || s->reserved)
            return -EINVAL;
        for (uint32_t v = 1; v < SIM_SUBCTX; v++)
            if (!(tsg->subctx_mask >> v & 1)) {
                tsg->subctx_mask |= 1ull << v;
                s->veid = v;
                return 0;
            }
        return -ENOSPC;
    }
    if (req == NVT_TSG_IOCTL_BIND_CHANNEL_EX) {
        struct nvt_tsg_bind_channel_ex *b = arg;
        sim_obj *o = obj_of(sim, b->channel_fd, OBJ_CHANNEL);
        for (int i = 0; i < 16; i++)
            if (b->reserved[i])
                return -EINVAL;
        if (!o || !o->ch->as_bound || o->ch->tsg_fd >= 0)
            return -EINVAL;
        if (sim->abi == NVT_ABI_R36 ? !(tsg->subctx_mask >> (b->subcontext_id & 63) & 1) ||
                                          b->subcontext_id >= SIM_SUBCTX
                                    : b->subcontext_id != 0)
            return -EINVAL;
        o->ch->tsg_fd = tsg_fd;
        return 0;
    }
    return -ENOTTY;
}

/* ---- channel ------------------------------------------------------------------------------ */

static int setup_bind(nvt_sim *sim, sim_channel *ch, void *arg) {
    struct nvt_ch_setup_bind_r35 *s = arg; /* r36 appends the GPU VAs */
    uint32_t n = s->num_gpfifo_entries;
    uint32_t known = NVT_SETUP_BIND_DETERMINISTIC | NVT_SETUP_BIND_USERMODE_SUPPORT |
                     (sim->abi == NVT_ABI_R36 ? NVT_SETUP_BIND_USERMODE_GPU_MAP_RESOURCES : 0);
    if (!ch->as_bound || ch->tsg_fd < 0 || n < 2 || (n & (n - 1)) || (s->flags & ~known) ||
        !(s->flags & NVT_SETUP_BIND_USERMODE_SUPPORT))
        return -EINVAL;
    if (ch->setup)
        return -EEXIST;
    /* channel_setup_bind_prechecks (common/fifo/channel.c): a deterministic channel needs its
     * watchdog disabled first, and usermode submit needs a deterministic channel. */
    if ((s->flags & NVT_SETUP_BIND_DETERMINISTIC) && ch->wdt_enabled) {
        sim->st.setup_bind_refusals++;
        return -EINVAL;
    }
    if ((s->flags & NVT_SETUP_BIND_USERMODE_SUPPORT) &&
        !(s->flags & NVT_SETUP_BIND_DETERMINISTIC)) {
        sim->st.setup_bind_refusals++;
        return -EINVAL;
    }
    sim_obj *u = obj_of(sim, s->userd_dmabuf_fd, OBJ_DMABUF);
    sim_obj *g = obj_of(sim, s->gpfifo_dmabuf_fd, OBJ_DMABUF);
    if (!u || !g || u->buf == g->buf)
        return -EINVAL;
    if (!sim_buf_ptr(u->buf, s->userd_dmabuf_offset, NVT_USERD_SIZE) ||
        !sim_buf_ptr(g->buf, s->gpfifo_dmabuf_offset, (uint64_t)n * 8))
        return -EINVAL;
    if (sim->abi == NVT_ABI_R36 && (s->flags & NVT_SETUP_BIND_USERMODE_GPU_MAP_RESOURCES)) {
        struct nvt_ch_setup_bind_r36 *s6 = arg;
        uint64_t gsz = ((uint64_t)n * 8 + 4095) & ~4095ull;
        if (map_insert(sim, g->buf, s->gpfifo_dmabuf_offset & ~4095ull, gsz, 1, &ch->gpfifo_va) ||
            map_insert(sim, u->buf, s->userd_dmabuf_offset & ~4095ull, 4096, 1, &ch->userd_va))
            return -ENOMEM;
        s6->gpfifo_gpu_va = ch->gpfifo_va;
        s6->userd_gpu_va = ch->userd_va;
        s6->usermode_mmio_gpu_va = 0;
    }
    ch->userd = u->buf;
    ch->gpfifo = g->buf;
    u->buf->refs++;
    g->buf->refs++;
    ch->userd_off = s->userd_dmabuf_offset;
    ch->gpfifo_off = s->gpfifo_dmabuf_offset;
    ch->entries = n;
    ch->token = (uint32_t)ch->chid; /* chid | runlist 0 << 16 */
    s->work_submit_token = ch->token;
    ch->setup = 1;
    ch->deterministic = (s->flags & NVT_SETUP_BIND_DETERMINISTIC) != 0;
    return 0;
}

static int channel_ioctl(nvt_sim *sim, sim_channel *ch, unsigned long req, void *arg) {
    if (req ==
        (sim->abi == NVT_ABI_R36 ? NVT_CH_IOCTL_SETUP_BIND_R36 : NVT_CH_IOCTL_SETUP_BIND_R35))
        return setup_bind(sim, ch, arg);
    if (req == NVT_CH_IOCTL_ALLOC_OBJ_CTX) {
        struct nvt_ch_alloc_obj_ctx *o = arg;
        if (!ch->setup || o->flags)
            return -EINVAL;
        if (o->class_num == 0xC7C0)
            ch->has_compute = 1;
        else if (o->class_num == 0xC7B5)
            ch->has_copy = 1;
        else
            return -EINVAL;
        o->obj_id = o->class_num;
        return 0;
    }
    if (req == NVT_CH_IOCTL_WDT) {
        struct nvt_ch_wdt *w = arg;
        uint32_t st = w->wdt_status & (NVT_WDT_ENABLE | NVT_WDT_DISABLE);
        /* gk20a_channel_set_wdt_status (os/linux/ioctl_channel.c): once deterministic, only
         * DISABLE is accepted; otherwise exactly one of ENABLE/DISABLE. */
        if (ch->deterministic && st != NVT_WDT_DISABLE)
            return -EINVAL;
        if (st != NVT_WDT_ENABLE && st != NVT_WDT_DISABLE)
            return -EINVAL;
        ch->wdt_enabled = st == NVT_WDT_ENABLE;
        if (!ch->setup)
            sim->st.wdt_before_setup_bind = w->wdt_status;
        sim->st.last_wdt_status = w->wdt_status;
        sim->st.last_wdt_timeout_ms = w->timeout_ms;
        return 0;
    }
    return -ENOTTY;
}

static void channel_free(nvt_sim *sim, sim_channel *ch) {
    if (ch->gpfifo_va)
        map_remove(sim, ch->gpfifo_va, 1);
    if (ch->userd_va)
        map_remove(sim, ch->userd_va, 1);
    if (ch->userd)
        buf_unref(ch->userd);
    if (ch->gpfifo)
        buf_unref(ch->gpfifo);
    sim->chans[ch->chid] = NULL;
    free(ch);
}

/* ---- the nvt_os backend ------------------------------------------------------------------- */

static int sim_open(void *ctx, const char *path, int flags) {
    nvt_sim *sim = ctx;
    (void)flags;
    enum obj_kind kind = OBJ_NONE;
    if (!strcmp(path, "/dev/nvmap"))
        kind = OBJ_NVMAP;
    else if ((!strcmp(path, "/dev/nvgpu/igpu0/ctrl") && sim->present != 2) ||
             !strcmp(path, "/dev/nvhost-ctrl-gpu"))
        kind = OBJ_CTRL;
    if (kind == OBJ_NONE || !sim->present)
        return -ENOENT;
    pthread_mutex_lock(&sim->lock);
    int fd = new_fd(sim, kind, kind == OBJ_CTRL ? sim->usermode_memfd : -1);
    pthread_mutex_unlock(&sim->lock);
    return fd;
}

static int sim_ioctl(void *ctx, int fd, unsigned long req, void *arg) {
    nvt_sim *sim = ctx;
    pthread_mutex_lock(&sim->lock);
    sim_obj *o = obj_of(sim, fd, OBJ_NONE);
    int rc = -EBADF;
    if (o) {
        switch (o->kind) {
        case OBJ_NVMAP: rc = nvmap_ioctl(sim, req, arg); break;
        case OBJ_CTRL: rc = ctrl_ioctl(sim, req, arg); break;
        case OBJ_AS: rc = as_ioctl(sim, req, arg); break;
        case OBJ_TSG: rc = tsg_ioctl(sim, o, fd, req, arg); break;
        case OBJ_CHANNEL: rc = channel_ioctl(sim, o->ch, req, arg); break;
        default: rc = -ENOTTY; break;
        }
    }
    pthread_mutex_unlock(&sim->lock);
    return rc;
}

static void *sim_mmap(void *ctx, void *addr, size_t len, int prot, int flags, int fd, off_t off) {
    nvt_sim *sim = ctx;
    pthread_mutex_lock(&sim->lock);
    sim_obj *o = obj_of(sim, fd, OBJ_NONE);
    void *p = MAP_FAILED;
    int err = EBADF;
    if (o && o->kind == OBJ_CTRL) {
        /* The usermode window: one page of registers is all the simulator backs. */
        err = EINVAL;
        if (off == 0 && len <= NVT_USERMODE_MAP_SIZE &&
            (p = mmap(addr, len, prot, flags, fd, 0)) == MAP_FAILED)
            err = errno;
    } else if (o && o->kind == OBJ_DMABUF) {
        err = EINVAL;
        if (off >= 0 && (uint64_t)off + len <= o->buf->size &&
            (p = mmap(addr, len, prot, flags, fd, off)) == MAP_FAILED)
            err = errno;
    } else if (o) {
        err = ENODEV;
    }
    if (p != MAP_FAILED) {
        if (sim->nmmaps == sim->capmmaps) {
            int n = sim->capmmaps ? sim->capmmaps * 2 : 64;
            sim_cpumap *m = realloc(sim->mmaps, (size_t)n * sizeof *m);
            if (m) {
                sim->mmaps = m;
                sim->capmmaps = n;
            }
        }
        if (sim->nmmaps < sim->capmmaps) {
            sim_buf *b = o->kind == OBJ_DMABUF ? o->buf : NULL;
            sim->mmaps[sim->nmmaps++] = (sim_cpumap){p, len, b};
            sim->st.cpu_mappings++;
            if (b) {
                b->refs++;
                if (!b->alias && off == 0 && len == b->size)
                    b->alias = p;
            }
        } else {
            munmap(p, len);
            p = MAP_FAILED;
            err = ENOMEM;
        }
    }
    pthread_mutex_unlock(&sim->lock);
    if (p == MAP_FAILED)
        errno = err;
    return p;
}

static int sim_munmap(void *ctx, void *addr, size_t len) {
    nvt_sim *sim = ctx;
    pthread_mutex_lock(&sim->lock);
    int rc = -EINVAL;
    for (int i = 0; i < sim->nmmaps; i++)
        if (sim->mmaps[i].addr == addr && sim->mmaps[i].len == len) {
            sim_buf *b = sim->mmaps[i].buf;
            if (b) {
                if (b->alias == addr)
                    b->alias = NULL;
                buf_unref(b);
            }
            sim->mmaps[i] = sim->mmaps[--sim->nmmaps];
            sim->st.cpu_mappings--;
            rc = munmap(addr, len) ? -errno : 0;
            break;
        }
    pthread_mutex_unlock(&sim->lock);
    return rc;
}

static int sim_close(void *ctx, int fd) {
    nvt_sim *sim = ctx;
    pthread_mutex_lock(&sim->lock);
    sim_obj *o = obj_of(sim, fd, OBJ_NONE);
    int rc = -EBADF;
    if (o) {
        if (o->kind == OBJ_DMABUF)
            buf_unref(o->buf);
        else if (o->kind == OBJ_CHANNEL)
            channel_free(sim, o->ch);
        else if (o->kind == OBJ_AS)
            sim->as_exists = 0;
        *o = (sim_obj){0};
        sim->st.open_fds--;
        rc = close(fd) ? -errno : 0;
    }
    pthread_mutex_unlock(&sim->lock);
    return rc;
}

nvt_sim *nvt_sim_create(nvt_abi abi) {
    nvt_sim *sim = calloc(1, sizeof *sim);
    if (!sim)
        return NULL;
    sim->abi = abi;
    sim->os = (nvt_os){sim_open, sim_ioctl, sim_mmap, sim_munmap, sim_close, sim};
    sim->present = 1;
    sim->mem_limit = 1ull << 30;
    pthread_mutex_init(&sim->lock, NULL);
    sim->usermode_memfd = memfd_create("nvtegra-sim-usermode", MFD_CLOEXEC);
    void *p = MAP_FAILED;
    if (sim->usermode_memfd >= 0 && ftruncate(sim->usermode_memfd, NVT_USERMODE_MAP_SIZE) == 0)
        p = mmap(NULL, NVT_USERMODE_MAP_SIZE, PROT_READ | PROT_WRITE, MAP_SHARED,
                 sim->usermode_memfd, 0);
    if (p == MAP_FAILED) {
        if (sim->usermode_memfd >= 0)
            close(sim->usermode_memfd);
        free(sim);
        return NULL;
    }
    sim->usermode = p;
    sim->usermode[NVT_USERMODE_DOORBELL / 4] = 0xffffffffu; /* "no doorbell": token 0 is valid */
    sim->running = 1;
    if (pthread_create(&sim->gpu, NULL, sim_gpu_thread, sim)) {
        munmap(p, NVT_USERMODE_MAP_SIZE);
        close(sim->usermode_memfd);
        free(sim);
        return NULL;
    }
    return sim;
}

void nvt_sim_destroy(nvt_sim *sim) {
    if (!sim)
        return;
    pthread_mutex_lock(&sim->lock);
    sim->running = 0;
    pthread_mutex_unlock(&sim->lock);
    pthread_join(sim->gpu, NULL);
    for (int fd = 0; fd < sim->nfds; fd++)
        if (sim->fds[fd].kind != OBJ_NONE)
            sim_close(sim, fd);
    while (sim->nmaps)
        map_remove(sim, sim->maps[0].va, sim->maps[0].kernel_owned);
    for (int h = 0; h < sim->nhandles; h++)
        if (sim->handles[h])
            buf_unref(sim->handles[h]);
    while (sim->nmmaps)
        sim_munmap(sim, sim->mmaps[0].addr, sim->mmaps[0].len);
    munmap((void *)sim->usermode, NVT_USERMODE_MAP_SIZE);
    close(sim->usermode_memfd);
    free(sim->fds);
    free(sim->handles);
    free(sim->maps);
    free(sim->mmaps);
    free(sim->kernels);
    pthread_mutex_destroy(&sim->lock);
    free(sim);
}

const nvt_os *nvt_sim_os(nvt_sim *sim) { return &sim->os; }

void nvt_sim_set_present(nvt_sim *sim, int present) { sim->present = present; }

void nvt_sim_set_mem_limit(nvt_sim *sim, uint64_t bytes) {
    pthread_mutex_lock(&sim->lock);
    sim->mem_limit = bytes;
    pthread_mutex_unlock(&sim->lock);
}

void nvt_sim_pause(nvt_sim *sim, int paused) {
    pthread_mutex_lock(&sim->lock);
    sim->paused = paused;
    pthread_mutex_unlock(&sim->lock);
}

int nvt_sim_register_kernel(nvt_sim *sim, uint64_t va, nvt_sim_kernel_fn fn, void *user) {
    pthread_mutex_lock(&sim->lock);
    sim_kernel *k = realloc(sim->kernels, (size_t)(sim->nkernels + 1) * sizeof *k);
    int rc = -ENOMEM;
    if (k) {
        sim->kernels = k;
        k[sim->nkernels++] = (sim_kernel){va, fn, user};
        rc = 0;
    }
    pthread_mutex_unlock(&sim->lock);
    return rc;
}

void *nvt_sim_translate(nvt_sim *sim, uint64_t va, uint64_t len) {
    return sim_translate_locked(sim, va, len);
}

void nvt_sim_stats_get(nvt_sim *sim, nvt_sim_stats *out) {
    pthread_mutex_lock(&sim->lock);
    *out = sim->st;
    pthread_mutex_unlock(&sim->lock);
}
