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

/* Sections the code object holds, in ld.lld's order of addresses; AS_SEC_NONE collects
 * sections that are not written (.AMDGPU.csdata, .note.GNU-stack, ...). */
enum {
    AS_SEC_TEXT = 0,
    AS_SEC_RODATA = 1,
    AS_SEC_RELRO = 2, /* .data.rel.ro: initialised pointers, writable only while relocating */
    AS_SEC_DATA = 3,
    AS_SEC_BSS = 4, /* zero-initialised: no bytes in the file */
    AS_SEC_GOT = 5, /* made by the assembler: one address per symbol@gotpcrel32 target */
    AS_NSEC = 6,
    AS_SEC_NONE = 6
};

/* A pointer in program-scope data or a .got entry: the loader stores base + addend at sec/off
 * (R_AMDGPU_RELATIVE64, what lld emits for addresses of symbols that cannot be preempted). */
typedef struct as_reloc {
    int sec;
    uint64_t off;
    uint64_t addend;
} as_reloc;

typedef struct as_out {
    isa_arch arch;
    uint8_t *bytes[AS_NSEC]; /* contents (NULL for .bss) */
    size_t size[AS_NSEC];
    unsigned align[AS_NSEC];
    uint64_t addr[AS_NSEC]; /* chosen by as_layout() */
    as_reloc *relocs;
    size_t nrelocs;
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
/* The same with a caller's encoder for arch (kept between calls: building one decodes every
 * opcode template, ~3 ms, while an instruction takes ~10 us; the test helpers assemble thousands
 * of snippets).  An encoder must not be used by two threads at once. */
int as_assemble_with(isa_asm *enc, isa_arch arch, const char *src, size_t n, int raw, as_out *out,
                     char *err, size_t errsz);
void as_out_free(as_out *o);

/* Addresses of the sections in the code object for the sizes, alignments and relocation count
 * in `o` (the writer's layout, needed before the second pass resolves addresses). */
void as_layout(const as_out *o, uint64_t addr[AS_NSEC]);
/* Write the code object into a malloc'd buffer. */
int as_write_elf(const as_out *o, uint8_t **buf, size_t *size, char *err, size_t errsz);

#endif
