/* as.h - internal API of the source-level assembler (layer above src/isa, below src/api).
 *
 * source.c reads assembly in the syntax clang-22 -S writes for amdgcn-amd-amdhsa (labels,
 * sections, data directives, expressions, .amdhsa_kernel blocks, .amdgpu_metadata YAML) and
 * encodes instructions with src/isa/asm.c; elfwrite.c turns the result into an AMDHSA code object
 * (ELF64 shared object) that src/load reads like lld's output.
 */
#ifndef GFXEMU_AS_H
#define GFXEMU_AS_H

#include <stddef.h>
#include <stdint.h>

#include "isa/isa.h"

/* A kernel: its code symbol in .text and its 64-byte descriptor (placed in .rodata). */
typedef struct as_kernel {
    char *name;
    uint64_t kd_off; /* offset of NAME.kd in .rodata */
} as_kernel;

typedef struct as_sym {
    char *name;
    int sec;      /* AS_SEC_* */
    uint64_t off; /* offset in its section */
    uint64_t size;
    int global, is_func, is_object;
} as_sym;

enum { AS_SEC_TEXT = 0, AS_SEC_RODATA = 1, AS_SEC_NONE = 2 };

typedef struct as_out {
    isa_arch arch;
    uint8_t *text, *rodata;
    size_t text_size, rodata_size;
    uint64_t text_addr, rodata_addr; /* chosen by as_layout() */
    as_sym *syms;
    size_t nsyms;
    uint8_t *meta; /* msgpack metadata (NULL when the source has none) */
    size_t meta_size;
    int cov; /* code object version (.amdhsa_code_object_version, default 5) */
    uint32_t eflags;
} as_out;

/* Assemble source text.  raw = 1: only instructions and data of .text are produced (no
 * directives are required).  On error returns nonzero and writes "LINE:COL: message" into err. */
int as_assemble(isa_arch arch, const char *src, size_t n, int raw, as_out *out, char *err,
                size_t errsz);
void as_out_free(as_out *o);

/* Addresses of .rodata and .text in the code object for the given sizes (the writer's layout,
 * needed before the second pass resolves PC-relative expressions). */
void as_layout(const as_out *o, uint64_t *rodata_addr, uint64_t *text_addr);
/* Write the code object into a malloc'd buffer. */
int as_write_elf(const as_out *o, uint8_t **buf, size_t *size, char *err, size_t errsz);

#endif
