/* module.c - public code-object API: reading files and answering questions about a module.
 * The parsing itself lives in load/elf.c. */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "gfxemu.h"
#include "load/load.h"

/* Code objects are kilobytes to a few megabytes; refusing absurd sizes keeps a mistaken path
 * (a disk image, a core dump) from exhausting memory. */
#define MAX_FILE_SIZE ((size_t)1 << 30)

/* The message names the problem, not the file: the caller knows which file it asked for. */
static gfx_result io_fail(char *err, size_t errsz, const char *why) {
    if (err && errsz)
        snprintf(err, errsz, "%s", why);
    return GFX_ERR_IO;
}

gfx_result gfx_module_load_file(const char *path, gfx_module **out, char *err, size_t errsz) {
    if (!out)
        return GFX_ERR_INVALID;
    *out = NULL;
    if (!path)
        return GFX_ERR_INVALID;
    FILE *fp = fopen(path, "rb");
    if (!fp)
        return io_fail(err, errsz, strerror(errno));
    struct stat st;
    if (fstat(fileno(fp), &st) != 0) {
        int e = errno;
        fclose(fp);
        return io_fail(err, errsz, strerror(e));
    }
    if (!S_ISREG(st.st_mode)) {
        fclose(fp);
        return io_fail(err, errsz, S_ISDIR(st.st_mode) ? "is a directory" : "not a regular file");
    }
    if ((unsigned long long)st.st_size > MAX_FILE_SIZE) {
        fclose(fp);
        return io_fail(err, errsz, "file too large for a code object");
    }
    size_t size = (size_t)st.st_size;
    uint8_t *buf = malloc(size ? size : 1);
    if (!buf) {
        fclose(fp);
        return GFX_ERR_NOMEM;
    }
    size_t got = fread(buf, 1, size, fp);
    int rerr = ferror(fp);
    fclose(fp);
    if (rerr || got != size) {
        free(buf);
        return io_fail(err, errsz, rerr ? "read error" : "file changed while reading");
    }
    gfx_result r = ld_elf_parse(buf, size, out, err, errsz);
    free(buf);
    if (r == GFX_OK) {
        const char *base = strrchr(path, '/');
        snprintf((*out)->name, sizeof(*out)->name, "%s", base ? base + 1 : path);
    }
    return r;
}

gfx_result gfx_module_load_mem(const void *data, size_t size, gfx_module **out, char *err,
                               size_t errsz) {
    if (!out)
        return GFX_ERR_INVALID;
    *out = NULL;
    if (!data && size)
        return GFX_ERR_INVALID;
    return ld_elf_parse(data, size, out, err, errsz);
}

void gfx_module_free(gfx_module *m) { ld_module_free(m); }

gfx_arch gfx_module_arch(const gfx_module *m) { return m->arch; }

uint32_t gfx_module_eflags(const gfx_module *m) { return m ? m->eflags : 0; }

const char *gfx_module_target(const gfx_module *m) {
    return m ? ld_mach_name(m->eflags & 0xffu) : NULL;
}

size_t gfx_module_symbol_count(const gfx_module *m) { return m ? m->nsyms : 0; }

static void fill_symbol(const ld_symbol *s, gfx_symbol *out) {
    out->name = s->name;
    out->addr = s->addr;
    out->size = s->size;
    out->is_kernel = s->has_kd;
    out->is_label = s->is_label;
}

gfx_result gfx_module_symbol(const gfx_module *m, size_t index, gfx_symbol *out) {
    if (!m || !out || index >= m->nsyms)
        return GFX_ERR_INVALID;
    fill_symbol(&m->syms[index], out);
    return GFX_OK;
}

static const ld_symbol *find(const gfx_module *m, const char *name) {
    for (size_t i = 0; i < m->nsyms; i++)
        if (strcmp(m->syms[i].name, name) == 0)
            return &m->syms[i];
    return NULL;
}

gfx_result gfx_module_find_symbol(const gfx_module *m, const char *name, gfx_symbol *out) {
    if (!m || !name || !out)
        return GFX_ERR_INVALID;
    const ld_symbol *s = find(m, name);
    if (!s)
        return GFX_ERR_NOT_FOUND;
    fill_symbol(s, out);
    return GFX_OK;
}

gfx_result gfx_module_kernel_descriptor(const gfx_module *m, const char *name, uint8_t kd[64]) {
    if (!m || !name || !kd)
        return GFX_ERR_INVALID;
    const ld_symbol *s = find(m, name);
    if (!s || !s->has_kd)
        return GFX_ERR_NOT_FOUND;
    memcpy(kd, s->kd, LD_KD_SIZE);
    return GFX_OK;
}

const uint8_t *gfx_module_text(const gfx_module *m, uint64_t *addr, size_t *size) {
    if (addr)
        *addr = m ? m->text_addr : 0;
    if (size)
        *size = m ? m->text_size : 0;
    return m ? m->text : NULL;
}
