/* module.c - sm_87 cubin loading: an ELF64 image for EM_CUDA with one .text.<kernel> section
 * per kernel and .nv.info / .nv.info.<kernel> attribute sections describing it.
 *
 * .nv.info entries are {u8 format, u8 attribute, u16 size-or-value[, value bytes]}; formats:
 * 1 no value, 2 one-byte value, 3 16-bit value (in the size field), 4 sized value.  The
 * attributes read here (numbers as nvcc 13 writes them for sm_87, confirmed on its output):
 *   0x0a PARAM_CBANK     {u32 symbol, u16 offset in cbuf0, u16 size}
 *   0x17 KPARAM_INFO     {u32 index, u16 ordinal, u16 offset, u32 flags: size in bits 31:18}
 *   0x19 CBANK_PARAM_SIZE  16-bit value
 *   0x2f REGCOUNT        {u32 symbol, u32 registers}  (global .nv.info)
 *   0x11 FRAME_SIZE      {u32 symbol, u32 bytes}      (global .nv.info; the kernel's own frame)
 *   0x12 MIN_STACK_SIZE  {u32 symbol, u32 bytes}      (global .nv.info; frame + callees' stack)
 *   0x4c barrier count   one-byte value (inferred: present with __syncthreads)
 * The register count is also in the top byte of the .text section's sh_info. */
#include "nvtegra.h"

#include <elf.h>
#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#ifndef EM_CUDA
#define EM_CUDA 190
#endif

enum {
    EIFMT_NVAL = 1,
    EIFMT_BVAL = 2,
    EIFMT_HVAL = 3,
    EIFMT_SVAL = 4,
    ATTR_FRAME_SIZE = 0x11,
    ATTR_MIN_STACK_SIZE = 0x12,
    ATTR_PARAM_CBANK = 0x0a,
    ATTR_KPARAM_INFO = 0x17,
    ATTR_CBANK_PARAM_SIZE = 0x19,
    ATTR_REGCOUNT = 0x2f,
    ATTR_NUM_BARRIERS = 0x4c,
};

struct nvt_module {
    uint8_t *image;
    size_t size;
    uint32_t n;
    nvt_kernel_info *k;
    uint32_t *sym;        /* symbol index of each kernel */
    uint32_t *frame_size; /* local memory per thread, max of FRAME_SIZE and MIN_STACK_SIZE */
};

static int err_out(char *err, size_t len, int rc, const char *fmt, ...)
    __attribute__((format(printf, 4, 5)));
static int err_out(char *err, size_t len, int rc, const char *fmt, ...) {
    if (err && len) {
        va_list ap;
        va_start(ap, fmt);
        vsnprintf(err, len, fmt, ap);
        va_end(ap);
    }
    return rc;
}

static uint16_t u16at(const uint8_t *p) {
    uint16_t v;
    memcpy(&v, p, 2);
    return v;
}
static uint32_t u32at(const uint8_t *p) {
    uint32_t v;
    memcpy(&v, p, 4);
    return v;
}

/* Walk one .nv.info section; cb(ctx, format, attr, value16, data, size) per entry. */
static int walk_info(const uint8_t *p, size_t size,
                     int (*cb)(void *, unsigned, unsigned, unsigned, const uint8_t *, unsigned),
                     void *ctx) {
    size_t off = 0;
    while (off + 4 <= size) {
        unsigned fmt = p[off], attr = p[off + 1], v = u16at(p + off + 2);
        const uint8_t *data = p + off + 4;
        unsigned dlen = 0;
        if (fmt == EIFMT_SVAL)
            dlen = v;
        else if (fmt != EIFMT_NVAL && fmt != EIFMT_BVAL && fmt != EIFMT_HVAL)
            return -EINVAL;
        if (off + 4 + dlen > size)
            return -EINVAL;
        int rc = cb(ctx, fmt, attr, v, data, dlen);
        if (rc < 0)
            return rc;
        off += 4 + dlen;
    }
    return off == size ? 0 : -EINVAL;
}

static int kernel_attr(void *ctx, unsigned fmt, unsigned attr, unsigned v, const uint8_t *d,
                       unsigned len) {
    nvt_kernel_info *k = ctx;
    if (attr == ATTR_PARAM_CBANK && fmt == EIFMT_SVAL && len >= 8) {
        k->param_base = u16at(d + 4);
        k->param_size = u16at(d + 6);
    } else if (attr == ATTR_CBANK_PARAM_SIZE && fmt == EIFMT_HVAL) {
        k->param_size = v;
    } else if (attr == ATTR_KPARAM_INFO && fmt == EIFMT_SVAL && len >= 12) {
        unsigned ord = u16at(d + 4), off = u16at(d + 6), bytes = u32at(d + 8) >> 18;
        if (ord >= NVT_MAX_PARAMS)
            return -E2BIG;
        k->param_offset[ord] = (uint16_t)off;
        k->param_bytes[ord] = (uint16_t)bytes;
        if (ord + 1 > k->nparams)
            k->nparams = ord + 1;
    } else if (attr == ATTR_NUM_BARRIERS && fmt == EIFMT_BVAL) {
        k->barriers = v & 0xff;
    }
    return 0;
}

typedef struct global_ctx {
    nvt_module *m;
} global_ctx;

static int global_attr(void *ctx, unsigned fmt, unsigned attr, unsigned v, const uint8_t *d,
                       unsigned len) {
    (void)v;
    nvt_module *m = ((global_ctx *)ctx)->m;
    if (fmt != EIFMT_SVAL || len < 8 ||
        (attr != ATTR_REGCOUNT && attr != ATTR_FRAME_SIZE && attr != ATTR_MIN_STACK_SIZE))
        return 0;
    for (uint32_t i = 0; i < m->n; i++) {
        if (m->sym[i] != u32at(d))
            continue;
        if (attr == ATTR_REGCOUNT)
            m->k[i].registers = u32at(d + 4);
        else if (u32at(d + 4) > m->frame_size[i])
            m->frame_size[i] = u32at(d + 4);
    }
    return 0;
}

int nvt_module_parse(const void *elf, size_t size, nvt_module **out, char *err, size_t errlen) {
    *out = NULL;
    const uint8_t *img = elf;
    if (size < sizeof(Elf64_Ehdr) || memcmp(img, ELFMAG, SELFMAG))
        return err_out(err, errlen, -EINVAL, "not an ELF file");
    Elf64_Ehdr eh;
    memcpy(&eh, img, sizeof eh);
    if (eh.e_ident[EI_CLASS] != ELFCLASS64 || eh.e_ident[EI_DATA] != ELFDATA2LSB)
        return err_out(err, errlen, -EINVAL, "not a little-endian ELF64 cubin");
    if (eh.e_machine != EM_CUDA)
        return err_out(err, errlen, -EINVAL, "ELF machine %u is not EM_CUDA (190)", eh.e_machine);
    unsigned sm = (eh.e_flags >> 8) & 0xff;
    if (sm != 87)
        return err_out(err, errlen, -ENOEXEC, "cubin is for sm_%u; the Orin GPU runs sm_87", sm);
    if (eh.e_shentsize != sizeof(Elf64_Shdr) || eh.e_shoff > size ||
        (size - eh.e_shoff) / sizeof(Elf64_Shdr) < eh.e_shnum || eh.e_shstrndx >= eh.e_shnum)
        return err_out(err, errlen, -EINVAL, "section header table out of bounds");
    nvt_module *m = calloc(1, sizeof *m);
    if (!m || !(m->image = malloc(size))) {
        free(m);
        return err_out(err, errlen, -ENOMEM, "out of memory");
    }
    memcpy(m->image, img, size);
    m->size = size;
    Elf64_Shdr *sh = calloc(eh.e_shnum ? eh.e_shnum : 1, sizeof *sh);
    int rc = -ENOMEM;
    if (!sh)
        goto fail;
    memcpy(sh, img + eh.e_shoff, (size_t)eh.e_shnum * sizeof *sh);
    rc = -EINVAL;
    for (unsigned i = 0; i < eh.e_shnum; i++)
        if (sh[i].sh_type != SHT_NOBITS &&
            (sh[i].sh_offset > size || sh[i].sh_size > size - sh[i].sh_offset)) {
            err_out(err, errlen, rc, "section %u lies outside the file", i);
            goto fail;
        }
    const Elf64_Shdr *strs = &sh[eh.e_shstrndx];
    /* SHT_NOBITS sections skip the bounds check above: only .nv.shared.* may be one (its size
     * is all that is used); names, code and attributes must be bytes of the file. */
    if (strs->sh_type == SHT_NOBITS) {
        err_out(err, errlen, rc, "the section name table has no bytes in the file");
        goto fail;
    }
#define SECNAME(s)                                                                                 \
    ((s).sh_name < strs->sh_size &&                                                                \
             memchr(m->image + strs->sh_offset + (s).sh_name, 0, strs->sh_size - (s).sh_name)      \
         ? (const char *)m->image + strs->sh_offset + (s).sh_name                                  \
         : "")
    for (unsigned i = 0; i < eh.e_shnum; i++)
        if (!strncmp(SECNAME(sh[i]), ".text.", 6))
            m->n++;
    if (!m->n) {
        err_out(err, errlen, rc, "cubin has no .text.<kernel> section");
        goto fail;
    }
    m->k = calloc(m->n, sizeof *m->k);
    m->sym = calloc(m->n, sizeof *m->sym);
    m->frame_size = calloc(m->n, sizeof *m->frame_size);
    if (!m->k || !m->sym || !m->frame_size) {
        rc = err_out(err, errlen, -ENOMEM, "out of memory");
        goto fail;
    }
    uint32_t n = 0;
    for (unsigned i = 0; i < eh.e_shnum; i++) {
        const char *name = SECNAME(sh[i]);
        if (strncmp(name, ".text.", 6))
            continue;
        if (sh[i].sh_type == SHT_NOBITS) {
            rc = err_out(err, errlen, -EINVAL, "%s has no bytes in the file", name);
            goto fail;
        }
        nvt_kernel_info *k = &m->k[n];
        k->name = name + 6;
        k->code = m->image + sh[i].sh_offset;
        k->code_size = sh[i].sh_size;
        k->registers = sh[i].sh_info >> 24;
        m->sym[n] = sh[i].sh_info & 0xffffff;
        k->param_base = NVT_CBUF0_PARAM_BASE;
        for (unsigned j = 0; j < eh.e_shnum; j++) {
            const char *nj = SECNAME(sh[j]);
            size_t pre = 0;
            if (!strncmp(nj, ".nv.info.", 9))
                pre = 9;
            else if (!strncmp(nj, ".nv.shared.", 11))
                pre = 11;
            else if (!strncmp(nj, ".nv.constant0.", 14))
                pre = 14;
            if (!pre || strcmp(nj + pre, k->name))
                continue;
            if (pre == 11) {
                k->shared_bytes = (uint32_t)sh[j].sh_size;
            } else if (pre == 14) {
                k->cbuf0_size = (uint32_t)sh[j].sh_size;
            } else if (sh[j].sh_type == SHT_NOBITS) {
                rc = err_out(err, errlen, -EINVAL, "%s has no bytes in the file", nj);
                goto fail;
            } else if ((rc = walk_info(m->image + sh[j].sh_offset, sh[j].sh_size, kernel_attr, k)) <
                       0) {
                err_out(err, errlen, rc, "%s: malformed %s", k->name, nj);
                goto fail;
            }
        }
        for (uint32_t p = 0; p < k->nparams; p++)
            if (!k->param_bytes[p] ||
                (uint32_t)k->param_offset[p] + k->param_bytes[p] > k->param_size) {
                rc = err_out(err, errlen, -EINVAL,
                             "%s: parameter %u (offset %u, %u bytes) outside the %u-byte "
                             "parameter block",
                             k->name, p, k->param_offset[p], k->param_bytes[p], k->param_size);
                goto fail;
            }
        n++;
    }
    global_ctx g = {m};
    for (unsigned i = 0; i < eh.e_shnum; i++)
        if (!strcmp(SECNAME(sh[i]), ".nv.info") &&
            (rc = sh[i].sh_type == SHT_NOBITS ? -EINVAL
                                              : walk_info(m->image + sh[i].sh_offset, sh[i].sh_size,
                                                          global_attr, &g)) < 0) {
            err_out(err, errlen, rc, "malformed .nv.info");
            goto fail;
        }
    /* Local memory per thread, 16-byte granular; the QMD field holds 24 bits. */
    for (uint32_t i = 0; i < m->n; i++) {
        if (m->frame_size[i] > 0xfffff0u) {
            rc = err_out(err, errlen, -E2BIG,
                         "%s needs %u bytes of local memory per thread (at most 16 MiB - 16)",
                         m->k[i].name, m->frame_size[i]);
            goto fail;
        }
        m->k[i].local_bytes = (m->frame_size[i] + 15) & ~15u;
    }
#undef SECNAME
    free(sh);
    *out = m;
    return 0;
fail:
    free(sh);
    nvt_module_destroy(m);
    return rc;
}

void nvt_module_destroy(nvt_module *m) {
    if (!m)
        return;
    free(m->image);
    free(m->k);
    free(m->sym);
    free(m->frame_size);
    free(m);
}

uint32_t nvt_module_count(const nvt_module *m) { return m->n; }
const nvt_kernel_info *nvt_module_kernel_at(const nvt_module *m, uint32_t i) {
    return i < m->n ? &m->k[i] : NULL;
}

const nvt_kernel_info *nvt_module_kernel(const nvt_module *m, const char *name) {
    for (uint32_t i = 0; i < m->n; i++)
        if (!strcmp(m->k[i].name, name))
            return &m->k[i];
    return NULL;
}

int nvt_kernel_bind_params(const nvt_kernel_info *k, void *cbuf0, size_t cbuf0_size,
                           const void *const *args, uint32_t nargs) {
    if (nargs != k->nparams || k->param_base + k->param_size > cbuf0_size)
        return -EINVAL;
    for (uint32_t i = 0; i < nargs; i++)
        memcpy((uint8_t *)cbuf0 + k->param_base + k->param_offset[i], args[i], k->param_bytes[i]);
    return 0;
}
