/* init.c - what the command processor does before a wave's first instruction: check the launch,
 * build the kernarg segment and the dispatch packet, and set up each wave's registers.
 *
 * Sources: LLVM's "AMDGPU Usage" ("Kernel Descriptor", "Initial Kernel Execution State", "Flat
 * Scratch", "Preloaded Kernel Arguments", "Code Object V5 Metadata" for hidden arguments) and the
 * HSA System Architecture specification for the AQL kernel dispatch packet.
 */
#include <stdio.h>
#include <string.h>

#include "dispatch/dispatch.h"

static void put_le(uint8_t *p, uint32_t n, uint64_t v) {
    for (uint32_t i = 0; i < n; i++)
        p[i] = (uint8_t)(v >> (8 * i));
}

gfx_result dp_plan(dp_dispatch *d, const struct gfx_kernel *k, gfx_arch arch,
                   const uint32_t grid[3], const uint32_t block[3], uint32_t dynamic_lds,
                   uint32_t private_size, char *err, size_t errsz) {
    memset(d, 0, sizeof *d);
    d->k = k;
    d->arch = arch;
    uint64_t threads = 1;
    for (int i = 0; i < 3; i++) {
        if (grid[i] == 0 || block[i] == 0) {
            snprintf(err, errsz, "grid and block sizes must be at least 1 in every dimension");
            return GFX_ERR_INVALID;
        }
        /* The dispatch packet holds the grid size in work-items as 32-bit numbers. */
        if ((uint64_t)grid[i] * block[i] > UINT32_MAX) {
            snprintf(err, errsz, "grid of %u x %u work-items in dimension %c exceeds 2^32", grid[i],
                     block[i], "xyz"[i]);
            return GFX_ERR_INVALID;
        }
        d->grid[i] = grid[i];
        d->block[i] = block[i];
        threads *= block[i];
    }
    uint32_t max_block = DP_MAX_BLOCK;
    if (k->meta && k->meta->max_flat_workgroup_size)
        max_block = k->meta->max_flat_workgroup_size;
    if (threads > max_block) {
        snprintf(err, errsz, "block of %llu work-items exceeds the kernel's maximum of %u%s",
                 (unsigned long long)threads, max_block,
                 max_block < DP_MAX_BLOCK ? " (max_flat_workgroup_size)" : "");
        return GFX_ERR_RESOURCE;
    }
    for (int i = 0; i < 3; i++) {
        if (k->partial[i] >= block[i]) {
            snprintf(err, errsz,
                     "partial workgroup of %u work-items in dimension %c is not "
                     "smaller than the workgroup's %u",
                     k->partial[i], "xyz"[i], block[i]);
            return GFX_ERR_INVALID;
        }
        d->partial[i] = k->partial[i];
        d->has_partial |= k->partial[i] != 0;
    }
    d->threads_per_wg = (uint32_t)threads;
    /* RDNA wave32: 32 work-items per wave in the engine's 64-lane waves (src/exec/rdna.c) */
    d->wave_lanes = k->prog && k->prog->wave32 ? 32 : LANES;
    d->waves_per_wg = (d->threads_per_wg + d->wave_lanes - 1) / d->wave_lanes;
    d->dims = grid[2] * block[2] > 1 ? 3 : grid[1] * block[1] > 1 ? 2 : 1;

    uint32_t limit = isa_targets[arch].lds_bytes;
    uint64_t lds = (uint64_t)k->kd.group_segment_fixed_size + dynamic_lds;
    if (lds > limit) {
        snprintf(err, errsz,
                 "workgroup needs %llu bytes of LDS (%u static + %u dynamic); %s has %u",
                 (unsigned long long)lds, k->kd.group_segment_fixed_size, dynamic_lds,
                 isa_arch_name((isa_arch)arch), limit);
        return GFX_ERR_RESOURCE;
    }
    d->lds_size = (uint32_t)lds;
    d->dynamic_lds = dynamic_lds;

    uint64_t lane = k->kd.private_segment_fixed_size;
    if (private_size > lane)
        lane = private_size;
    if (!private_size && (k->kd.uses_dynamic_stack || (k->meta && k->meta->uses_dynamic_stack)))
        lane += GFX_DYNAMIC_STACK_SIZE;
    lane = (lane + 3) & ~3ull; /* CP rounds the private segment size up to dwords */
    uint64_t wave =
        (lane * LANES + DP_SCRATCH_GRANULE - 1) / DP_SCRATCH_GRANULE * DP_SCRATCH_GRANULE;
    if (wave > (1u << 26)) { /* 1 MiB per lane: far beyond any real kernel's private segment */
        snprintf(err, errsz, "private segment of %llu bytes per work-item is too large",
                 (unsigned long long)lane);
        return GFX_ERR_RESOURCE;
    }
    d->private_lane = (uint32_t)lane;
    d->scratch_lane = (uint32_t)(wave / LANES);
    d->scratch_wave = (uint32_t)wave;
    return GFX_OK;
}

uint32_t dp_kernarg_size(const struct gfx_kernel *k, size_t user_size) {
    uint64_t n = k->kd.kernarg_size;
    if (k->meta && k->meta->kernarg_segment_size > n)
        n = k->meta->kernarg_segment_size;
    if (k->meta)
        for (uint32_t i = 0; i < k->meta->nargs; i++)
            if ((uint64_t)k->meta->args[i].offset + k->meta->args[i].size > n)
                n = (uint64_t)k->meta->args[i].offset + k->meta->args[i].size;
    if (user_size > n)
        n = user_size;
    return n > UINT32_MAX ? UINT32_MAX : (uint32_t)n;
}

void dp_build_kernargs(const dp_dispatch *d, const void *user, size_t user_size, uint8_t *seg,
                       uint32_t size) {
    memset(seg, 0, size);
    if (user_size)
        memcpy(seg, user, user_size < size ? user_size : size);
    const ld_kmeta *km = d->k->meta;
    if (!km)
        return;
    for (uint32_t i = 0; i < km->nargs; i++) {
        const ld_arg *a = &km->args[i];
        uint64_t v;
        switch (a->kind) {
        case GFX_ARG_HIDDEN_BLOCK_COUNT_X:
        case GFX_ARG_HIDDEN_BLOCK_COUNT_Y:
        case GFX_ARG_HIDDEN_BLOCK_COUNT_Z:
            /* Whole workgroups: the grid is given in workgroups, so none is partial. */
            v = d->grid[a->kind - GFX_ARG_HIDDEN_BLOCK_COUNT_X];
            break;
        case GFX_ARG_HIDDEN_GROUP_SIZE_X:
        case GFX_ARG_HIDDEN_GROUP_SIZE_Y:
        case GFX_ARG_HIDDEN_GROUP_SIZE_Z:
            v = d->block[a->kind - GFX_ARG_HIDDEN_GROUP_SIZE_X];
            break;
        case GFX_ARG_HIDDEN_REMAINDER_X:
        case GFX_ARG_HIDDEN_REMAINDER_Y:
        case GFX_ARG_HIDDEN_REMAINDER_Z:
        case GFX_ARG_HIDDEN_GLOBAL_OFFSET_X:
        case GFX_ARG_HIDDEN_GLOBAL_OFFSET_Y:
        case GFX_ARG_HIDDEN_GLOBAL_OFFSET_Z: v = 0; break;
        case GFX_ARG_HIDDEN_GRID_DIMS: v = d->dims; break;
        case GFX_ARG_HIDDEN_DYNAMIC_LDS_SIZE: v = d->dynamic_lds; break;
        case GFX_ARG_HIDDEN_PRIVATE_BASE: v = GMEM_PRIVATE_APERTURE >> 32; break;
        case GFX_ARG_HIDDEN_SHARED_BASE: v = GMEM_SHARED_APERTURE >> 32; break;
        case GFX_ARG_HIDDEN_QUEUE_PTR: v = d->queue_va; break;
        default: continue; /* explicit, or hidden ones nobody provides: caller's bytes or 0 */
        }
        if (a->size <= 8 && a->offset <= size && a->size <= size - a->offset)
            put_le(seg + a->offset, a->size, v);
    }
}

void dp_build_packet(const dp_dispatch *d, uint8_t p[64]) {
    memset(p, 0, 64);
    /* header: type KERNEL_DISPATCH (2), barrier bit, system-scope acquire and release fences */
    put_le(p + 0, 2, 2u | 1u << 8 | 2u << 9 | 2u << 11);
    put_le(p + 2, 2, d->dims); /* setup: dimensions */
    for (int i = 0; i < 3; i++) {
        put_le(p + 4 + 2 * i, 2, d->block[i]);
        put_le(p + 12 + 4 * i, 4, (uint64_t)d->grid[i] * d->block[i]);
    }
    put_le(p + 24, 4, d->private_lane);
    put_le(p + 28, 4, d->lds_size);
    put_le(p + 32, 8, d->k->sym->kd_addr); /* kernel_object */
    put_le(p + 40, 8, d->kernarg_va);
}

/* MODE register (hwreg 1) fields, CDNA3/CDNA4 ISA: FP_ROUND [3:0], FP_DENORM [7:4], DX10_CLAMP [8],
 * IEEE [9], FP16_OVFL [23]; the descriptor's rsrc1 gives their initial values. */
static uint32_t initial_mode(const ld_kd *k) {
    return (uint32_t)k->float_round_32 | (uint32_t)k->float_round_16_64 << 2 |
           (uint32_t)k->float_denorm_32 << 4 | (uint32_t)k->float_denorm_16_64 << 6 |
           (uint32_t)k->dx10_clamp << 8 | (uint32_t)k->ieee_mode << 9 |
           (uint32_t)k->fp16_ovfl << 23;
}

uint32_t dp_wg_shape(const dp_dispatch *d, const uint32_t wg[3], uint32_t block[3]) {
    uint32_t b[3], threads = 1;
    for (int i = 0; i < 3; i++) {
        b[i] = d->partial[i] && wg[i] == d->grid[i] - 1 ? d->partial[i] : d->block[i];
        threads *= b[i];
    }
    if (block)
        memcpy(block, b, sizeof b);
    return (threads + d->wave_lanes - 1) / d->wave_lanes;
}

/* Every wave starts with the whole SGPR file zero (results never depend on what ran before on
 * this worker).  gcc expands a memset of this constant size into `rep stosq`, which was half of
 * dp_wave_init's samples in a warm 64 Ki-float vecadd (perf; a 15-instruction wave), so the
 * file is cleared with plain vector stores instead: a loop gcc must not turn back into memset,
 * compiled for AVX-512 and AVX2 as well as the baseline (picked at load time), as is the
 * work-item id row of a full 1-D wave (v0 = t0 + lane). */
#if defined(__x86_64__) && defined(__linux__) && !defined(GFXEMU_NO_CLONES) &&                     \
    defined(__GNUC__) && !defined(__clang__)
#define INIT_CLONES                                                                                \
    __attribute__((target_clones("arch=x86-64-v4", "arch=x86-64-v3", "default"),                   \
                   optimize("no-tree-loop-distribute-patterns")))
#else
#define INIT_CLONES
#endif
/* The same with s0-s127 from a template, the 16-SGPR chunks whose bit is set in chunks (the
 * kernel's zero plan: the others are never read); with poison, the other chunks get a pattern
 * no kernel result should contain.  (restrict: gcc -O2 keeps a copy that may overlap scalar,
 * one dword per store, which cost a fifth of a 64 Ki-float vecadd.) */
INIT_CLONES static void copy_sgprs(uint32_t *restrict s, const uint32_t *restrict t,
                                   unsigned chunks, int all, int poison) {
    for (unsigned c = 0; c < 8; c++)
        if ((chunks >> c) & 1)
            memcpy(s + 16 * c, t + 16 * c, 64); /* one vector move */
    if (poison)
        for (unsigned i = 0; i < 128; i++)
            if (!((chunks >> (i / 16)) & 1))
                s[i] = 0x7fbad000u ^ i;
    if (all)
        for (unsigned i = 128; i < NSREG; i++)
            s[i] = 0;
}
INIT_CLONES static void zero_sgprs(wave *w, int all) {
    /* Constant trip counts: gcc vectorizes these (a variable count became a 4-byte loop). */
    for (unsigned i = 0; i < 128; i++)
        w->s[i] = 0;
    if (all)
        for (unsigned i = 128; i < NSREG; i++)
            w->s[i] = 0;
}

/* Word k of a zero plan (rows 64k .. 64k+63) with the bits of rows from n on cleared. */
static inline uint64_t plan_word(const uint64_t *plan, unsigned k, unsigned n) {
    return n - k * 64 < 64 ? plan[k] & ((1ull << (n - k * 64)) - 1) : plan[k];
}
/* Whether plan has no bit set for rows [0, n): then, without poison, zero_rows has nothing to do
 * (a wave whose code writes every VGPR before reading it, as elementwise kernels do).  Tested
 * here, inline, because the call with its frame and loop was 15% of an empty kernel's time. */
static inline int plan_empty(const uint64_t *plan, unsigned n) {
    uint64_t any = 0;
    for (unsigned k = 0; k * 64 < n; k++)
        any |= plan_word(plan, k, n);
    return !any;
}

/* Zero the rows of rows[0..n) whose bit is set in plan, a run of rows at a time; with poison,
 * fill the others with a pattern no kernel result should contain. */
static void zero_rows(uint32_t (*rows)[LANES], const uint64_t *plan, unsigned n, int poison) {
    for (unsigned k = 0; k * 64 < n; k++) {
        uint64_t m = plan_word(plan, k, n);
        if (poison)
            for (unsigned r = k * 64; r < n && r < k * 64 + 64; r++)
                if (!((m >> (r - k * 64)) & 1))
                    for (unsigned l = 0; l < LANES; l++)
                        rows[r][l] = 0x7fbad000u ^ (r << 6 | l);
        while (m) {
            unsigned r = (unsigned)__builtin_ctzll(m);
            uint64_t t = ~(m >> r);
            unsigned len = t ? (unsigned)__builtin_ctzll(t) : 64 - r;
            memset(rows[k * 64 + r], 0, (size_t)len * sizeof rows[0]);
            m &= ~((len == 64 ? ~0ull : (1ull << len) - 1) << r);
        }
    }
}
INIT_CLONES static void lane_ids(uint32_t *v, uint32_t t0, unsigned n) {
    for (unsigned lane = 0; lane < LANES; lane++)
        v[lane] = lane < n ? t0 + lane : 0;
}

/* The user SGPRs, dense from s0 in the order of "SGPR Register Set Up Order", of a wave whose
 * private memory starts at scratch_va; only the first 16 are loaded by CP.  Preloaded kernel
 * arguments follow the last other enabled user SGPR.  Returns how many (at most 16).  Reads
 * d->tmpl_arch_fs, which dp_wave_template() sets first. */
static unsigned user_sgprs(const dp_dispatch *d, uint64_t scratch_va, uint32_t user[64]) {
    const ld_kd *k = &d->k->kd;
    unsigned n = 0;
    int arch_fs = d->tmpl_arch_fs;
    if (k->sgpr_private_segment_buffer && !arch_fs) {
        /* gfx90a reaches scratch with MUBUF through this V#: the swizzled layout of the
         * hardware's scratch buffer (AMDGPU Usage, "Private Segment Buffer"): SWIZZLE_ENABLE,
         * ADD_TID_ENABLE, INDEX_STRIDE 64 lanes, ELEMENT_SIZE 4 bytes, so lane L's dword i is at
         * base + (i * 64 + L) * 4, the layout of the wave's private memory (src/exec/vmem.c).
         * The base is the wave's own, so its wave offset SGPR is 0.  num_records does not
         * bound it: the private memory does (an overrun faults). */
        user[n++] = (uint32_t)scratch_va;
        user[n++] = ((uint32_t)(scratch_va >> 32) & 0xffff) | 1u << 31;
        user[n++] = 0xffffffffu;
        user[n++] = 1u << 23 | 3u << 21 | 1u << 19;
    } else if (k->sgpr_private_segment_buffer) {
        /* Not supported with architected flat scratch (gfx940+), but give a descriptor of the
         * wave's scratch rather than garbage: base, num_records = bytes. */
        user[n++] = (uint32_t)scratch_va;
        user[n++] = (uint32_t)(scratch_va >> 32) & 0xffff;
        user[n++] = d->scratch_wave;
        user[n++] = 0;
    }
    const struct gfx_kernel *gk = d->k;
    uint64_t packet = gk->aql_packet ? gk->aql_packet : d->packet_va;
    uint64_t queue = gk->aql_queue ? gk->aql_queue : d->queue_va;
    uint64_t kernarg = gk->aql_kernarg ? gk->aql_kernarg : d->kernarg_va;
    if (k->sgpr_dispatch_ptr) {
        user[n++] = (uint32_t)packet;
        user[n++] = (uint32_t)(packet >> 32);
    }
    if (k->sgpr_queue_ptr) {
        user[n++] = (uint32_t)queue;
        user[n++] = (uint32_t)(queue >> 32);
    }
    if (k->sgpr_kernarg_ptr) {
        user[n++] = (uint32_t)kernarg;
        user[n++] = (uint32_t)(kernarg >> 32);
    }
    if (k->sgpr_dispatch_id) {
        user[n++] = (uint32_t)d->dispatch_id;
        user[n++] = (uint32_t)(d->dispatch_id >> 32);
    }
    if (k->sgpr_flat_scratch_init) {
        /* The queue's scratch base ("absolute flat scratch" meaning); not used on gfx940+.  On
         * gfx90a the kernel adds the wave offset (0, see above) to it for FLAT_SCRATCH. */
        uint64_t fs = arch_fs ? DP_SCRATCH_VA : scratch_va;
        user[n++] = (uint32_t)fs;
        user[n++] = (uint32_t)(fs >> 32);
    }
    if (k->sgpr_private_segment_size)
        user[n++] = d->private_lane;
    for (unsigned i = 0; i < k->preload_length && n < 16; i++) {
        uint64_t off = ((uint64_t)k->preload_offset + i) * 4;
        uint32_t v = 0;
        for (unsigned b = 0; b < 4; b++)
            if (off + b < d->kernarg_size)
                v |= (uint32_t)d->kernargs[off + b] << (8 * b);
        user[n++] = v;
    }
    if (d->k->user_sgprs) {
        n = d->k->n_user_sgprs < 16 ? d->k->n_user_sgprs : 16;
        memcpy(user, d->k->user_sgprs, n * sizeof *user);
    }
    return n < 16 ? n : 16;
}

void dp_wave_template(dp_dispatch *d) {
    const ld_kd *k = &d->k->kd;
    int arch_fs = !d->k->prog || isa_targets[d->k->prog->arch].arch_flat_scratch;
    uint32_t user[64];
    memset(d->tmpl_s, 0, sizeof d->tmpl_s);
    d->tmpl_mode = initial_mode(k);
    d->tmpl_arch_fs = (uint8_t)arch_fs;
    d->tmpl_gfx12 = d->k->prog && isa_targets[d->k->prog->arch].rdna >= 12;
    /* Only where no user SGPR names the wave's own private memory. */
    d->tmpl_ok = !(k->sgpr_private_segment_buffer || (k->sgpr_flat_scratch_init && !arch_fs));
    if (d->tmpl_ok) {
        unsigned n = user_sgprs(d, 0, user);
        memcpy(d->tmpl_s, user, n * sizeof *user);
    }
}

void dp_wave_init(wave *w, const dp_dispatch *d, const uint32_t wg[3], uint32_t wave) {
    const ld_kd *k = &d->k->kd;
    /* The SGPR file: the 128 encodable registers, and the rest when the program names tuples
     * that run past s127 or a debugger may show them. */
    const xzplan *zp = &d->k->zplan;
    int all_sgprs = !zp->ok || zp->all_sgprs || d->zero_all;
    if (d->tmpl_ok) /* the user SGPRs and zeros, as dp_wave_template() found them */
        copy_sgprs(w->s, d->tmpl_s, zp->ok && !d->zero_all ? zp->s_chunks : 0xff, all_sgprs,
                   d->poison_regs);
    else
        zero_sgprs(w, all_sgprs);
    w->scc = 0;
    w->status = WAVE_RUNNING;
    w->pc = d->k->entry_pc;
    w->mode = d->tmpl_mode;
    w->gpr_idx_on = 0;
    w->vskip = 0;
    w->prog = d->k->prog;
    memset(&w->fault, 0, sizeof w->fault);
    memset(w->count, 0, sizeof w->count);
    /* wg counts from the launch's first workgroup; the kernel sees ids from its origin (0 but
     * for a virtual-GPU dispatch split around partial workgroups or with COMPUTE_START_*). */
    for (int i = 0; i < 3; i++)
        w->wg_id[i] = wg[i] + d->k->wg_origin[i];
    w->wave_id = wave;

    w->scratch_lane = d->scratch_wave ? d->scratch_lane : 0;
    if (d->scratch_wave) {
        /* A label, not a mapping: unique per wave so that FLAT_SCRATCH differs between waves
         * as on hardware, kept below the apertures. */
        uint64_t wg_linear = ((uint64_t)wg[2] * d->grid[1] + wg[1]) * d->grid[0] + wg[0];
        uint64_t global_wave = wg_linear * d->waves_per_wg + wave;
        w->scratch_va = DP_SCRATCH_VA + ((global_wave * d->scratch_wave) & 0xfffffffffffull);
    } else {
        w->scratch_va = 0;
    }
    if (!d->tmpl_ok) {
        uint32_t user[64];
        unsigned n = user_sgprs(d, w->scratch_va, user);
        for (unsigned i = 0; i < n; i++)
            w->s[i] = user[i];
    }

    /* System SGPRs start after USER_SGPR_COUNT user SGPRs. */
    unsigned s = k->user_sgpr_count;
    if (k->enable_wgid_x)
        w->s[s++] = w->wg_id[0];
    if (k->enable_wgid_y)
        w->s[s++] = w->wg_id[1];
    if (k->enable_wgid_z)
        w->s[s++] = w->wg_id[2];
    if (k->enable_wg_info)
        /* {first_wavefront, 14'b0, ordered_append_term[10:0], threadgroup_size_in_wavefronts[5:0]}
         */
        w->s[s++] = (wave == 0 ? 1u << 31 : 0) |
                    ((d->has_partial ? dp_wg_shape(d, wg, NULL) : d->waves_per_wg) & 0x3f);
    /* With architected flat scratch there is no Scratch Wavefront Offset SGPR:
     * ENABLE_PRIVATE_SEGMENT makes CP set FLAT_SCRATCH to the wave's scratch base instead. */
    if (k->enable_private_segment) {
        w->s[ISA_SREG_FLAT_SCRATCH_LO] = (uint32_t)w->scratch_va;
        w->s[ISA_SREG_FLAT_SCRATCH_HI] = (uint32_t)(w->scratch_va >> 32);
        if (!d->tmpl_arch_fs) /* gfx90a: Private Segment Wavefront Offset, 0 for the per-wave base
                               */
            w->s[s++] = 0;
    }

    /* gfx12's "architected SGPRs" (AMDGPU Usage, "Initial Kernel Execution State"): the
     * workgroup id is in TTMP9 (x) and TTMP7 (y [15:0], z [31:16]), which clang-22 reads there
     * instead of the system SGPRs above. */
    if (d->tmpl_gfx12) {
        w->s[ISA_SREG_TTMP0 + 9] = wg[0];
        w->s[ISA_SREG_TTMP0 + 7] = (wg[1] & 0xffff) | wg[2] << 16;
    }

    /* Work-item ids packed in v0: x [9:0], y [19:10], z [29:20] (gfx90a+ "Packed work-item
     * IDs"); y and z only when ENABLE_VGPR_WORKITEM_ID asks for them.  A partial workgroup at
     * the grid's end has the ids of its smaller shape. */
    uint64_t exec = 0;
    uint32_t bx = d->block[0], by = d->block[1], bz = d->block[2];
    uint32_t nl = d->wave_lanes ? d->wave_lanes : LANES, threads = d->threads_per_wg;
    if (d->has_partial) {
        uint32_t b[3];
        dp_wg_shape(d, wg, b);
        bx = b[0], by = b[1], bz = b[2];
        threads = bx * by * bz;
    }
    uint32_t t0 = wave * nl;

    /* VGPRs: zero what the descriptor allocates (ArchVGPRs below ACCUM_OFFSET, AGPRs above), so
     * that results never depend on what ran before on this worker: all of it, or for a wave
     * with all of its lanes on (64, or 32 in wave32) only the rows the kernel could read before
     * writing them (zplan.c). */
    unsigned total = ld_kd_vgprs(k), acc = k->accum_offset;
    unsigned nv = total < NVREG ? total : NVREG;
    unsigned na = total > acc ? total - acc : 0;
    if (na > NVREG)
        na = NVREG;
    if ((nl == LANES || nl == 32) && t0 + nl <= threads && zp->ok && !d->zero_all) {
        if (d->poison_regs || !plan_empty(zp->v, nv))
            zero_rows(w->v, zp->v, nv, d->poison_regs);
        if (d->poison_regs || !plan_empty(zp->a, na))
            zero_rows(w->a, zp->a, na, d->poison_regs);
    } else {
        if (nv)
            memset(w->v, 0, (size_t)nv * sizeof w->v[0]);
        if (na)
            memset(w->a, 0, (size_t)na * sizeof w->a[0]);
    }

    if (by == 1 && bz == 1 && t0 + nl <= threads && (nl == LANES || nl == 32)) {
        /* 1-D block, full wave (the common case): x is the work-item index, y = z = 0; a
         * wave32 wave's lanes 32-63 read 0, as below (the loop below was a fifth of a wave32
         * vecadd's time) */
        lane_ids(w->v[0], t0, nl);
        wave_set_exec(w, nl == LANES ? ~0ull : 0xffffffffull);
        return;
    }
    /* (x, y, z) of the wave's first lane, then stepped lane by lane: three divisions per wave
     * instead of per lane (they showed in the profile of short elementwise kernels). */
    uint32_t x = t0 % bx, y = (t0 / bx) % by, z = t0 / (bx * by);
    for (unsigned lane = 0; lane < LANES; lane++) {
        uint32_t t = t0 + lane;
        if (lane >= nl || t >= threads) {
            w->v[0][lane] = 0;
            continue;
        }
        exec |= 1ull << lane;
        uint32_t id = x;
        if (k->enable_vgpr_workitem_id >= 1)
            id |= y << 10;
        if (k->enable_vgpr_workitem_id >= 2)
            id |= z << 20;
        w->v[0][lane] = id;
        if (++x == bx) {
            x = 0;
            if (++y == by) {
                y = 0;
                z++;
            }
        }
    }
    wave_set_exec(w, exec);
}
