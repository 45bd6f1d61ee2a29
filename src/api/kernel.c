/* kernel.c - public kernel handles: descriptor + metadata + the module's decoded program.
 * The program is decoded once per module, on the first kernel lookup, and kept in gfx_module.exec.
 */
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "dispatch/dispatch.h"
#include "exec/pair.h"

static pthread_mutex_t build_lock = PTHREAD_MUTEX_INITIALIZER;

/* Hidden: a kind gfxemu knows as hidden, or any "hidden_*" kind a newer compiler may add. */
static int is_hidden(const ld_arg *a) {
    return a->kind >= GFX_ARG_HIDDEN_FIRST ||
           (a->value_kind && strncmp(a->value_kind, "hidden_", 7) == 0);
}

static void dp_module_free(void *p) {
    dp_module *dm = p;
    if (!dm)
        return;
    dp_image_module_gone(dm);
    xprog_free(&dm->prog);
    xprog_free(&dm->prog32);
    free(dm->kernels);
    free(dm);
}

static dp_module *build(gfx_module *m) {
    dp_module *dm = calloc(1, sizeof *dm);
    if (!dm)
        return NULL;
    if (m->text_size > UINT32_MAX || xprog_build(&dm->prog, (isa_arch)m->arch, m->text,
                                                 (uint32_t)m->text_size, m->text_addr) != 0) {
        free(dm);
        return NULL;
    }
    size_t n = 0;
    for (size_t i = 0; i < m->nsyms; i++)
        n += m->syms[i].has_kd;
    dm->kernels = calloc(n ? n : 1, sizeof *dm->kernels);
    if (!dm->kernels) {
        dp_module_free(dm);
        return NULL;
    }
    for (size_t i = 0; i < m->nsyms; i++) {
        const ld_symbol *s = &m->syms[i];
        if (!s->has_kd)
            continue;
        struct gfx_kernel *k = &dm->kernels[dm->nkernels++];
        k->m = m;
        k->sym = s;
        k->meta = m->has_meta ? ld_meta_find(&m->meta, s->name) : NULL;
        ld_kd_decode(s->kd, &k->kd);
        /* With kernarg preloading, CP starts 256 bytes past the entry point: the skipped bytes
         * are a fallback prologue for firmware without preloading ("Preloaded Kernel
         * Arguments"). */
        k->entry = s->kd_addr + (uint64_t)k->kd.entry_offset + (k->kd.preload_length ? 256 : 0);
        k->entry_pc = (uint32_t)(k->entry - m->text_addr); /* checked in gfx_module_kernel */
        k->prog = &dm->prog;
        /* RDNA wave32 kernels run on a program built for 32-lane waves (src/exec/rdna.c) */
        if (isa_is_rdna(m->arch) && k->kd.wavefront_size32) {
            if (!dm->prog32.at &&
                xprog_build_waves(&dm->prog32, (isa_arch)m->arch, m->text, (uint32_t)m->text_size,
                                  m->text_addr, 32) != 0) {
                dp_module_free(dm);
                return NULL;
            }
            k->prog = &dm->prog32;
            if (!dm->prog32.pair && x_pair_build(&dm->prog32, &dm->prog)) {
                dp_module_free(dm);
                return NULL;
            }
        }
        x_zero_plan(k->prog, k->entry_pc, &k->zplan);
        if (k->meta) {
            while (k->nargs_explicit < k->meta->nargs &&
                   !is_hidden(&k->meta->args[k->nargs_explicit]))
                k->nargs_explicit++;
        }
    }
    return dm;
}

dp_module *dp_module_get(gfx_module *m) {
    pthread_mutex_lock(&build_lock);
    if (!m->exec) {
        m->exec = build(m);
        m->exec_free = dp_module_free;
    }
    pthread_mutex_unlock(&build_lock);
    return m->exec;
}

gfx_result gfx_module_kernel(gfx_module *m, const char *name, const gfx_kernel **out) {
    if (!out)
        return GFX_ERR_INVALID;
    *out = NULL;
    if (!m || !name)
        return GFX_ERR_INVALID;
    m->kernel_err[0] = 0;
    /* An unlinked object's relocations (kernel descriptor addresses, calls, program-scope data)
     * are not applied; the HSA runtime, too, loads only linked code objects ("AMDGPU Usage",
     * "Code Object": an ET_DYN shared object). */
    if (m->etype != LD_ET_DYN) {
        snprintf(m->kernel_err, sizeof m->kernel_err,
                 "a relocatable object (ELF type ET_REL: 'clang -c' output) cannot run; link it "
                 "first: ld.lld-22 -shared k.o -o k.co");
        return GFX_ERR_FORMAT;
    }
    dp_module *dm = dp_module_get(m);
    if (!dm)
        return GFX_ERR_NOMEM;
    for (size_t i = 0; i < dm->nkernels; i++) {
        const struct gfx_kernel *k = &dm->kernels[i];
        if (strcmp(k->sym->name, name) != 0)
            continue;
        if (k->entry < m->text_addr || k->entry - m->text_addr >= m->text_size || (k->entry & 3)) {
            snprintf(m->kernel_err, sizeof m->kernel_err,
                     "kernel entry 0x%llx is outside .text or not 4-byte aligned",
                     (unsigned long long)k->entry);
            return GFX_ERR_FORMAT;
        }
        /* RDNA (gfx1100/gfx1201) runs wave32 and wave64 kernels (ops outside src/exec/rdna.c's
         * allowlist fault by name when reached); CDNA is wave64 only. */
        if (k->kd.wavefront_size32 && !isa_is_rdna(m->arch)) {
            snprintf(m->kernel_err, sizeof m->kernel_err, "wave32 kernels are not supported");
            return GFX_ERR_FORMAT;
        }
        *out = k;
        return GFX_OK;
    }
    return GFX_ERR_NOT_FOUND;
}

const char *gfx_module_metadata_error(const gfx_module *m) { return m ? m->meta_err : ""; }

const char *gfx_module_kernel_error(const gfx_module *m) { return m ? m->kernel_err : ""; }

gfx_result gfx_kernel_get_info(const gfx_kernel *k, gfx_kernel_info *o) {
    if (!k || !o)
        return GFX_ERR_INVALID;
    memset(o, 0, sizeof *o);
    o->name = k->sym->name;
    const ld_kmeta *km = k->meta;
    if (km) {
        o->has_metadata = 1;
        o->nargs = km->nargs;
        o->nargs_explicit = k->nargs_explicit;
        o->kernarg_segment_size = km->kernarg_segment_size;
        o->kernarg_segment_align = km->kernarg_segment_align;
        o->sgpr_count = km->sgpr_count;
        o->vgpr_count = km->vgpr_count;
        o->agpr_count = km->agpr_count;
        o->wavefront_size = km->wavefront_size;
        o->max_flat_workgroup_size = km->max_flat_workgroup_size;
        o->uses_dynamic_stack = km->uses_dynamic_stack;
    }
    o->group_segment_fixed_size = k->kd.group_segment_fixed_size;
    o->private_segment_fixed_size = k->kd.private_segment_fixed_size;
    o->kernarg_size = k->kd.kernarg_size;
    o->entry = k->entry;
    o->rsrc1 = k->kd.rsrc1;
    o->rsrc2 = k->kd.rsrc2;
    o->rsrc3 = k->kd.rsrc3;
    o->code_properties = k->kd.code_properties;
    o->kernarg_preload = k->kd.kernarg_preload;
    o->user_sgpr_count = k->kd.user_sgpr_count;
    o->accum_offset = k->kd.accum_offset;
    return GFX_OK;
}

gfx_result gfx_kernel_arg(const gfx_kernel *k, size_t i, gfx_arg_info *o) {
    if (!k || !o || !k->meta || i >= k->meta->nargs)
        return GFX_ERR_INVALID;
    const ld_arg *a = &k->meta->args[i];
    o->name = a->name;
    o->type_name = a->type_name;
    o->value_kind = a->value_kind;
    o->address_space = a->address_space;
    o->offset = a->offset;
    o->size = a->size;
    o->kind = a->kind;
    o->hidden = is_hidden(a);
    o->is_const = a->is_const;
    o->pointee_align = a->pointee_align;
    o->access = a->access;
    return GFX_OK;
}

gfx_result gfx_kernel_bind_local(const gfx_kernel *k, size_t i, uint64_t nbytes,
                                 uint32_t *dynamic_lds, void *kernargs, size_t kernarg_size) {
    if (!k || !dynamic_lds || !k->meta || i >= k->nargs_explicit || nbytes == 0)
        return GFX_ERR_INVALID;
    const ld_arg *a = &k->meta->args[i];
    if (a->kind != GFX_ARG_DYNAMIC_SHARED_POINTER || a->size == 0 || a->size > 8 ||
        (size_t)a->offset + a->size > kernarg_size || !kernargs)
        return GFX_ERR_INVALID;
    /* The group segment starts with the static LDS; OpenCL runtimes put each __local argument
     * after it at the pointee's alignment and pass its group-segment address (an LDS byte
     * offset) in the kernarg slot. */
    uint64_t align =
        a->pointee_align && !(a->pointee_align & (a->pointee_align - 1)) ? a->pointee_align : 16;
    uint64_t start = (uint64_t)k->kd.group_segment_fixed_size + *dynamic_lds;
    uint64_t off = (start + align - 1) / align * align;
    uint64_t limit = isa_targets[k->m->arch].lds_bytes;
    if (nbytes > limit || off + nbytes > limit)
        return GFX_ERR_RESOURCE;
    uint8_t *p = (uint8_t *)kernargs + a->offset;
    for (uint32_t b = 0; b < a->size; b++)
        p[b] = (uint8_t)(off >> (8 * b));
    *dynamic_lds = (uint32_t)(off + nbytes - k->kd.group_segment_fixed_size);
    return GFX_OK;
}
