/* load.h - internal API of the code-object loader (docs/architecture.md, "Where to find things").
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
    uint64_t kd_addr; /* address of NAME.kd (the entry offset is relative to it) */
} ld_symbol;

/* ---- code-object metadata (meta.c) ------------------------------------------------------------
 * The NT_AMDGPU_METADATA note (owner "AMDGPU", type 32) holds a msgpack map; LLVM's "AMDGPU Usage",
 * "Code Object V3..V5 Metadata" lists the keys.  Only what the dispatcher and the API need is kept;
 * unknown keys are skipped.  Absent integers read as 0, absent strings as NULL. */

typedef struct ld_arg {
    char *name;          /* .name (may be NULL) */
    char *type_name;     /* .type_name (may be NULL) */
    char *value_kind;    /* .value_kind as written (may be NULL) */
    char *address_space; /* .address_space (may be NULL) */
    char *access;        /* .actual_access, else .access ("read_only", ...; may be NULL) */
    uint32_t offset, size;
    uint32_t pointee_align; /* .pointee_align (__local pointers), 0 when absent */
    int is_const;           /* .is_const (a const-qualified pointee) */
    gfx_arg_kind kind; /* value_kind decoded; GFX_ARG_UNKNOWN for a name gfxemu does not know */
} ld_arg;

typedef struct ld_kmeta {
    char *name;   /* .name */
    char *symbol; /* .symbol (NAME.kd) */
    ld_arg *args;
    uint32_t nargs;
    uint32_t kernarg_segment_size, kernarg_segment_align;
    uint32_t group_segment_fixed_size, private_segment_fixed_size;
    uint32_t sgpr_count, vgpr_count, agpr_count, wavefront_size, max_flat_workgroup_size;
    int uses_dynamic_stack;
} ld_kmeta;

typedef struct ld_meta {
    ld_kmeta *kernels;
    size_t nkernels;
    uint32_t version[2]; /* amdhsa.version */
    char *target;        /* amdhsa.target */
} ld_meta;

/* Parse a metadata blob.  Never reads outside [data, data+size), nests at most LD_META_DEPTH deep
 * and bounds every count by the bytes left, so any input gives an answer or an error message. */
#define LD_META_DEPTH 16
gfx_result ld_meta_parse(const uint8_t *data, size_t size, ld_meta *out, char *err, size_t errsz);
void ld_meta_free(ld_meta *m);
/* Metadata of the kernel whose function symbol is `name` (matched by .symbol == NAME.kd, else by
 * .name), or NULL. */
const ld_kmeta *ld_meta_find(const ld_meta *m, const char *name);
/* GFX_ARG_* for a .value_kind string (GFX_ARG_UNKNOWN when not known). */
gfx_arg_kind ld_arg_kind(const char *value_kind);

/* ---- kernel descriptor (meta.c) ---------------------------------------------------------------
 * The 64-byte descriptor of "AMDGPU Usage", "Code Object V3 Kernel Descriptor", with the fields of
 * COMPUTE_PGM_RSRC1/2/3 and kernel_code_properties the emulator uses pulled out. */
typedef struct ld_kd {
    uint32_t group_segment_fixed_size;   /* bytes 0..3 */
    uint32_t private_segment_fixed_size; /* bytes 4..7, per work-item */
    uint32_t kernarg_size;               /* bytes 8..11 */
    int64_t entry_offset;                /* bytes 16..23, relative to the descriptor's address */
    uint32_t rsrc3, rsrc1, rsrc2;        /* bytes 44, 48, 52 */
    uint16_t code_properties;            /* bytes 56..57 */
    uint16_t kernarg_preload;            /* bytes 58..59 */
    /* rsrc1 */
    uint8_t vgpr_granules;                       /* GRANULATED_WORKITEM_VGPR_COUNT [5:0] */
    uint8_t sgpr_granules;                       /* GRANULATED_WAVEFRONT_SGPR_COUNT [9:6] */
    uint8_t float_round_32, float_round_16_64;   /* [13:12], [15:14] */
    uint8_t float_denorm_32, float_denorm_16_64; /* [17:16], [19:18] (3 = no flush) */
    uint8_t dx10_clamp, ieee_mode, fp16_ovfl;    /* [21], [23], [26] */
    /* rsrc2 */
    uint8_t enable_private_segment;                                      /* [0] */
    uint8_t user_sgpr_count;                                             /* [5:1] */
    uint8_t enable_wgid_x, enable_wgid_y, enable_wgid_z, enable_wg_info; /* [7] [8] [9] [10] */
    uint8_t enable_vgpr_workitem_id; /* [12:11]: 0 x, 1 x+y, 2 x+y+z */
    /* rsrc3 (gfx90a+) */
    uint16_t accum_offset; /* first AGPR in the unified file: (ACCUM_OFFSET[5:0] + 1) * 4 */
    uint8_t tg_split;      /* [16] */
    /* kernel_code_properties */
    uint8_t sgpr_private_segment_buffer, sgpr_dispatch_ptr, sgpr_queue_ptr, sgpr_kernarg_ptr;
    uint8_t sgpr_dispatch_id, sgpr_flat_scratch_init, sgpr_private_segment_size;
    uint8_t wavefront_size32, uses_dynamic_stack;
    /* kernarg preload (gfx90a+): dwords of the kernarg segment copied into user SGPRs */
    uint8_t preload_length;  /* [6:0] of byte 58 */
    uint16_t preload_offset; /* [15:7], in dwords */
} ld_kd;

void ld_kd_decode(const uint8_t kd[LD_KD_SIZE], ld_kd *out);
/* VGPRs the descriptor allocates per lane on gfx90a+ (unified file: ArchVGPRs then AGPRs). */
static inline unsigned ld_kd_vgprs(const ld_kd *k) { return (k->vgpr_granules + 1u) * 8u; }

/* ---- program image (elf.c) ---------------------------------------------------------------------
 * Everything a loader maps for a linked code object (ET_DYN): the SHF_ALLOC sections at their
 * virtual addresses (.rodata with __constant tables and private-array initialisers, .text, .data
 * with program-scope globals, .bss zeroed), the dynamic relocations to apply once the image's
 * device address is known, and the program-scope variables by name.  Kernels reach this data
 * PC-relative, so the image keeps the ELF's relative layout. */
typedef struct ld_section {
    const char *name; /* points into ld_module.secnames */
    uint64_t addr, size;
    const uint8_t *data; /* NULL for SHT_NOBITS (zero-filled); else into ld_module.secdata */
    int write, exec;     /* SHF_WRITE, SHF_EXECINSTR */
} ld_section;

typedef struct ld_reloc {
    uint64_t offset; /* r_offset: virtual address of the 8 bytes to patch */
    uint32_t type;   /* R_AMDGPU_* */
    uint64_t sym;    /* the symbol's value (0 without one) */
    int64_t addend;
    int sym_undef; /* refers to a symbol the object does not define */
} ld_reloc;

typedef struct ld_object {
    const char *name; /* points into ld_module.strings */
    uint64_t addr, size;
} ld_object;

#define LD_R_AMDGPU_NONE 0
#define LD_R_AMDGPU_ABS64 3
#define LD_R_AMDGPU_RELATIVE64 13

/* The definition of the public opaque type. */
/* ELF e_type values the loader accepts (gfx_module.etype). */
enum { LD_ET_REL = 1, LD_ET_DYN = 3 };

struct gfx_module {
    char name[64]; /* for messages: the file's base name, or "<memory>" */
    gfx_arch arch;
    uint32_t eflags;
    uint16_t etype; /* LD_ET_REL or LD_ET_DYN */
    uint8_t *text;  /* copy of .text */
    size_t text_size;
    uint64_t text_addr;
    ld_symbol *syms; /* functions in .text, sorted by address */
    size_t nsyms;
    char *strings; /* all symbol names, NUL-separated */
    ld_meta meta;  /* from the NT_AMDGPU_METADATA note (empty when there is none) */
    int has_meta;
    char meta_err[128]; /* why the metadata could not be read ("" when it could or is absent) */
    /* program image (ET_DYN only; image_size 0: nothing to map) */
    ld_section *secs;
    size_t nsecs;
    uint64_t image_size; /* end of the highest SHF_ALLOC section */
    uint8_t *secdata;    /* contents of the PROGBITS sections */
    char *secnames;
    ld_reloc *relocs;
    size_t nrelocs;
    ld_object *objs; /* STT_OBJECT symbols outside .text (program-scope variables, .kd) */
    size_t nobjs;
    char kernel_err[256]; /* why the last gfx_module_kernel() failed ("" after a success) */
    /* Execution-side data the API layer builds on first use (decoded program, kernel handles).
     * Opaque here so that the loader does not depend on upper layers; freed with exec_free. */
    void *exec;
    void (*exec_free)(void *);
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

/* Whether module m's code runs on a device of architecture a: its own (m->arch), or, for a
 * gfx9-4-generic code object (decoded as gfx942), gfx950 too (AMDGPU Usage, "Generic
 * Processors": gfx9-4-generic's members are gfx940-gfx942 and gfx950). */
int ld_runs_on(const gfx_module *m, gfx_arch a);

#endif
