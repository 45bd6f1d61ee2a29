/* gfxemu.h - the public API of gfxemu, an emulator for AMD Instinct GPU machine code (gfx950,
 * gfx942) running on the CPU.
 *
 * This is the only header a user of libgfxemu (the CLI, the Python binding, a framework) includes.
 * All types are opaque handles or plain structs; every function that can fail returns a gfx_result.
 * Functions never print, never call exit() and never abort() on bad input.
 *
 * Status: code-object loading and disassembly.  Execution (devices, buffers, launches) comes next.
 */
#ifndef GFXEMU_H
#define GFXEMU_H

#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

/* libgfxemu is built with hidden visibility; exactly the declarations below are exported. */
#if defined(__GNUC__)
#pragma GCC visibility push(default)
#endif

#define GFXEMU_VERSION_MAJOR 0
#define GFXEMU_VERSION_MINOR 1
#define GFXEMU_VERSION_PATCH 0

/* "0.1.0": the version of the library actually linked (may differ from the header's macros). */
const char *gfx_version(void);

/* ---- result codes --------------------------------------------------------------------------- */

typedef enum {
    GFX_OK = 0,
    GFX_ERR_INVALID,       /* a bad argument: NULL pointer, unknown name, index out of range */
    GFX_ERR_IO,            /* a file could not be opened or read */
    GFX_ERR_FORMAT,        /* malformed input: not an ELF file, truncated, inconsistent tables */
    GFX_ERR_ARCH,          /* well-formed, but for a GPU architecture gfxemu does not emulate */
    GFX_ERR_NOT_FOUND,     /* no such kernel / symbol */
    GFX_ERR_NOMEM,         /* out of host memory */
    GFX_ERR_UNIMPLEMENTED, /* a feature gfxemu does not have yet */
} gfx_result;

/* A short constant description of a result code, e.g. "malformed input"; never NULL. */
const char *gfx_result_str(gfx_result r);

/* ---- architectures -------------------------------------------------------------------------- */

typedef enum {
    GFX_ARCH_GFX942 = 0, /* MI300, CDNA3 */
    GFX_ARCH_GFX950 = 1, /* MI350, CDNA4 */
} gfx_arch;

#define GFX_ARCH_COUNT 2

/* Parse "gfx942" / "gfx950" into *out.  GFX_ERR_ARCH for any other name. */
gfx_result gfx_arch_from_name(const char *name, gfx_arch *out);
/* "gfx942" / "gfx950"; "unknown" for a value outside the enum. */
const char *gfx_arch_name(gfx_arch arch);

/* ---- code objects --------------------------------------------------------------------------- */

/* A loaded AMDGPU code object (an ELF64 file made by clang/lld, ROCm or hipcc). */
typedef struct gfx_module gfx_module;

/* A symbol in the code object's .text section: a function (STT_FUNC) or a plain label. */
typedef struct {
    const char *name; /* owned by the module; valid until gfx_module_free() */
    uint64_t addr;    /* virtual address (the st_value of the ELF symbol) */
    uint64_t size;    /* st_size; may be 0 */
    int is_kernel;    /* 1 if the object also defines NAME.kd (a 64-byte kernel descriptor) */
    int is_label;     /* 1 for an untyped symbol (STT_NOTYPE), 0 for a function or object */
} gfx_symbol;

/* Load a code object from a file or from memory (the bytes are copied; the caller keeps its
 * buffer).  On failure *out is NULL and, if err is not NULL, a one-line message without a trailing
 * newline is written into err (at most errsz bytes including the NUL), for example
 * "not an AMDGPU code object (e_machine 62)", "unsupported architecture gfx90a (0x3f)" or, for
 * an I/O error, the system's description ("No such file or directory"); it never names the file.
 * Every malformed input is reported as an error; none can crash the loader. */
gfx_result gfx_module_load_file(const char *path, gfx_module **out, char *err, size_t errsz);
gfx_result gfx_module_load_mem(const void *data, size_t size, gfx_module **out, char *err,
                               size_t errsz);
/* Free a module; NULL is allowed. */
void gfx_module_free(gfx_module *m);

/* The accessors below take a loaded module; those with a natural "nothing" answer (count 0, NULL
 * text, GFX_ERR_INVALID) also accept NULL.
 * The architecture named by the ELF header's e_flags (EF_AMDGPU_MACH); m must not be NULL. */
gfx_arch gfx_module_arch(const gfx_module *m);
/* The raw ELF e_flags (target features such as xnack/sramecc live in bits 8..11). */
uint32_t gfx_module_eflags(const gfx_module *m);

/* Symbols in .text sorted by address, then name (the order llvm-objdump uses).  gfx_module_symbol()
 * returns GFX_ERR_INVALID when index >= gfx_module_symbol_count(). */
size_t gfx_module_symbol_count(const gfx_module *m);
gfx_result gfx_module_symbol(const gfx_module *m, size_t index, gfx_symbol *out);
/* Look a symbol up by name: GFX_ERR_NOT_FOUND if there is none. */
gfx_result gfx_module_find_symbol(const gfx_module *m, const char *name, gfx_symbol *out);

/* Copy the 64-byte kernel descriptor of kernel `name` (the contents of symbol NAME.kd, see LLVM's
 * "AMDGPU Usage", "Kernel Descriptor") into kd.  GFX_ERR_NOT_FOUND if there is no such kernel. */
gfx_result gfx_module_kernel_descriptor(const gfx_module *m, const char *name, uint8_t kd[64]);

/* The bytes of the .text section (owned by the module) and the virtual address of its first byte.
 * Never NULL for a loaded module (a zero-sized .text gives size 0); addr and size may be NULL. */
const uint8_t *gfx_module_text(const gfx_module *m, uint64_t *addr, size_t *size);

/* ---- disassembly ---------------------------------------------------------------------------- */

/* Longest instruction text gfx_disasm() writes, including the NUL. */
#define GFX_DISASM_MAX 256

/* Disassemble the instruction at `bytes` (`avail` bytes readable, little-endian words).
 * Writes the text llvm-objdump-22 / llvm-mc-22 print for it (no leading tab, no comment) into
 * `text` (truncated to textsz, always NUL-terminated when textsz > 0) and returns its size in
 * bytes: 4, 8, 12 or 16.  A word that is not a legal instruction for `arch`, or an instruction
 * longer than `avail`, gives exactly "<illegal 0xXXXXXXXX>" (the first word, 8 lowercase hex
 * digits) and returns 4.  Returns 0, writing "", when avail < 4 or arch is out of range. */
size_t gfx_disasm(gfx_arch arch, const void *bytes, size_t avail, char *text, size_t textsz);

/* If the instruction at `bytes`, located at address `pc`, is a PC-relative branch (s_branch,
 * s_cbranch_*), store its target address in *target and return 1; otherwise return 0. */
int gfx_branch_target(gfx_arch arch, const void *bytes, size_t avail, uint64_t pc,
                      uint64_t *target);

#if defined(__GNUC__)
#pragma GCC visibility pop
#endif

#ifdef __cplusplus
}
#endif

#endif
