/* load.h - internal API of the code-object loader (layer 3, see ARCHITECTURE.md).
 *
 * elf.c parses an AMDGPU ELF64 code object held in memory into a gfx_module.  Every offset, size,
 * index and string read from the file is bounds-checked before use, so a truncated or corrupted
 * file gives an error message, never a crash.
 */
#ifndef GFXEMU_LOAD_H
#define GFXEMU_LOAD_H

#include <stddef.h>
#include <stdint.h>

#include "gfxemu.h"

#define LD_KD_SIZE 64

typedef struct ld_symbol {
    char *name; /* points into ld_module.strings */
    uint64_t addr;
    uint64_t size;
    int is_label; /* STT_NOTYPE */
    int has_kd;
    uint8_t kd[LD_KD_SIZE];
} ld_symbol;

/* The definition of the public opaque type. */
struct gfx_module {
    gfx_arch arch;
    uint32_t eflags;
    uint16_t etype; /* ET_REL (1) or ET_DYN (3) */
    uint8_t *text;  /* copy of .text */
    size_t text_size;
    uint64_t text_addr;
    ld_symbol *syms; /* functions in .text, sorted by address */
    size_t nsyms;
    char *strings; /* all symbol names, NUL-separated */
};

/* Known EF_AMDGPU_MACH values (low 8 bits of e_flags); from e_flags of clang-22 output. */
#define LD_MACH_GFX942 0x4c
#define LD_MACH_GFX950 0x4f

/* Parse `size` bytes at `data` into a new module (the data is not referenced afterwards).
 * On error returns the code, sets *out to NULL and writes a one-line message into err. */
gfx_result ld_elf_parse(const uint8_t *data, size_t size, gfx_module **out, char *err,
                        size_t errsz);

/* Free a module and everything it owns; NULL is allowed. */
void ld_module_free(gfx_module *m);

/* The name LLVM gives EF_AMDGPU_MACH value `mach`, or NULL when gfxemu does not know it. */
const char *ld_mach_name(unsigned mach);

#endif
