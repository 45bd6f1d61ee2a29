/* gfxemu.h - the public API of gfxemu, an emulator for AMD Instinct GPU machine code (gfx950,
 * gfx942, gfx90a) running on the CPU.
 *
 * This is the only header a user of libgfxemu (the CLI, the Python binding, a framework) includes.
 * All types are opaque handles or plain structs; every function that can fail returns a gfx_result.
 * Functions never print, never call exit() and never abort() on bad input.
 *
 * Status: code-object loading, kernel metadata, disassembly, and the execution engine's dispatch
 * layer (devices, buffers, launches); instruction coverage is growing.
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
    GFX_ERR_FAULT,         /* the kernel faulted or hit the watchdog: see gfx_last_fault() */
    GFX_ERR_RESOURCE,      /* a launch needs more than the device has (LDS, block size, ...) */
    GFX_ERR_STOPPED,       /* a debug session abandoned the launch (gfx_debug_launch) */
} gfx_result;

/* A short constant description of a result code, e.g. "malformed input"; never NULL. */
const char *gfx_result_str(gfx_result r);

/* ---- architectures -------------------------------------------------------------------------- */

typedef enum {
    GFX_ARCH_GFX942 = 0,  /* MI300, CDNA3 */
    GFX_ARCH_GFX950 = 1,  /* MI350, CDNA4 */
    GFX_ARCH_GFX90A = 2,  /* MI210/MI250X, CDNA2 */
    GFX_ARCH_GFX1100 = 3, /* Radeon RX 7900, RDNA3: wave32/wave64; a first slice of its ops
                           * executes, the others fault as unimplemented (the README lists
                           * both) */
    GFX_ARCH_GFX1201 = 4, /* Radeon RX 9070, RDNA4: as gfx1100 */
} gfx_arch;

#define GFX_ARCH_COUNT 5

/* Parse "gfx942" / "gfx950" / "gfx90a" / "gfx1100" / "gfx1201" into *out.  Target features after a
 * colon
 * ("gfx90a:sramecc-:xnack-", as the ROCm runtime names its agents) are accepted and ignored.
 * GFX_ERR_ARCH for any other name. */
gfx_result gfx_arch_from_name(const char *name, gfx_arch *out);
/* "gfx942" / "gfx950" / "gfx90a" / "gfx1100" / "gfx1201"; "unknown" outside the enum. */
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
/* The processor the code object was built for (EF_AMDGPU_MACH), e.g. "gfx11-generic" or
 * "gfx1101", which may differ from gfx_module_arch(): such code runs unchanged on that target
 * (README, "Targets").  NULL for a NULL module or an unknown value. */
const char *gfx_module_target(const gfx_module *m);

/* Symbols in .text sorted by address, then name (the order llvm-objdump uses).  gfx_module_symbol()
 * returns GFX_ERR_INVALID when index >= gfx_module_symbol_count(). */
size_t gfx_module_symbol_count(const gfx_module *m);
gfx_result gfx_module_symbol(const gfx_module *m, size_t index, gfx_symbol *out);
/* Look a symbol up by name: GFX_ERR_NOT_FOUND if there is none. */
gfx_result gfx_module_find_symbol(const gfx_module *m, const char *name, gfx_symbol *out);

/* Program-scope data (what hipModuleGetGlobal answers).  A launch maps every allocated section of
 * a linked code object (.rodata, .text, .data, .bss zeroed) into the device's memory, keeping
 * the ELF's relative layout (kernels reach the data PC-relative), with its dynamic relocations
 * applied: one copy per module per device, made on the first launch or the first call below and
 * kept until the module or the device is freed, so writable data persists across launches.
 * The device address and size (st_size) of the variable or function `name` in that copy, for
 * gfx_memcpy_htod()/gfx_memcpy_dtoh(); size may be NULL.  GFX_ERR_NOT_FOUND when there is no
 * such symbol (or the object is not linked), GFX_ERR_ARCH when dev is another architecture. */
typedef struct gfx_device gfx_device;
gfx_result gfx_module_symbol_address(gfx_device *dev, gfx_module *m, const char *name,
                                     uint64_t *addr, uint64_t *size);

/* Copy the 64-byte kernel descriptor of kernel `name` (the contents of symbol NAME.kd, see LLVM's
 * "AMDGPU Usage", "Kernel Descriptor") into kd.  GFX_ERR_NOT_FOUND if there is no such kernel. */
gfx_result gfx_module_kernel_descriptor(const gfx_module *m, const char *name, uint8_t kd[64]);

/* The bytes of the .text section (owned by the module) and the virtual address of its first byte.
 * Never NULL for a loaded module (a zero-sized .text gives size 0); addr and size may be NULL. */
const uint8_t *gfx_module_text(const gfx_module *m, uint64_t *addr, size_t *size);

/* ---- kernels -------------------------------------------------------------------------------- */

/* A kernel of a loaded module: descriptor, metadata and decoded code.  Owned by the module (do not
 * free); valid until gfx_module_free().  Looking kernels up is not thread-safe against other calls
 * on the same module; using a kernel handle (launches) is. */
typedef struct gfx_kernel gfx_kernel;

/* Find kernel `name` (a function with a NAME.kd descriptor).  GFX_ERR_NOT_FOUND if there is none;
 * GFX_ERR_FORMAT if its descriptor is unusable (entry point outside .text, CDNA wave32) or the code
 * object is a relocatable object (ET_REL, clang -c output not linked with ld.lld -shared: its
 * relocations are unapplied, so it cannot run; it can still be disassembled).
 * gfx1100/gfx1201 kernels run in wave32 or wave64 as their descriptor says (RDNA ops outside the
 * executed slice fault as unimplemented).  The first call on a module decodes its .text once;
 * later launches reuse it. */
gfx_result gfx_module_kernel(gfx_module *m, const char *name, const gfx_kernel **out);

/* Why the last gfx_module_kernel() on m failed (one line, e.g. "... is a relocatable object
 * ...: link it with ld.lld -shared"), or "" after a success. */
const char *gfx_module_kernel_error(const gfx_module *m);

/* Why the module's metadata note could not be read, or "" (also when there is no note). */
const char *gfx_module_metadata_error(const gfx_module *m);

/* Kernel argument kinds: the ".value_kind" of the code-object metadata ("AMDGPU Usage", code object
 * V3-V5 metadata).  The HIDDEN ones are filled by the launcher, not by the caller. */
typedef enum {
    GFX_ARG_UNKNOWN = 0,
    GFX_ARG_BY_VALUE,
    GFX_ARG_GLOBAL_BUFFER,
    GFX_ARG_DYNAMIC_SHARED_POINTER,
    GFX_ARG_SAMPLER,
    GFX_ARG_IMAGE,
    GFX_ARG_PIPE,
    GFX_ARG_QUEUE,
    GFX_ARG_HIDDEN_FIRST, /* every kind from here on is hidden */
    GFX_ARG_HIDDEN_GLOBAL_OFFSET_X = GFX_ARG_HIDDEN_FIRST,
    GFX_ARG_HIDDEN_GLOBAL_OFFSET_Y,
    GFX_ARG_HIDDEN_GLOBAL_OFFSET_Z,
    GFX_ARG_HIDDEN_NONE,
    GFX_ARG_HIDDEN_PRINTF_BUFFER,
    GFX_ARG_HIDDEN_HOSTCALL_BUFFER,
    GFX_ARG_HIDDEN_DEFAULT_QUEUE,
    GFX_ARG_HIDDEN_COMPLETION_ACTION,
    GFX_ARG_HIDDEN_MULTIGRID_SYNC_ARG,
    GFX_ARG_HIDDEN_BLOCK_COUNT_X,
    GFX_ARG_HIDDEN_BLOCK_COUNT_Y,
    GFX_ARG_HIDDEN_BLOCK_COUNT_Z,
    GFX_ARG_HIDDEN_GROUP_SIZE_X,
    GFX_ARG_HIDDEN_GROUP_SIZE_Y,
    GFX_ARG_HIDDEN_GROUP_SIZE_Z,
    GFX_ARG_HIDDEN_REMAINDER_X,
    GFX_ARG_HIDDEN_REMAINDER_Y,
    GFX_ARG_HIDDEN_REMAINDER_Z,
    GFX_ARG_HIDDEN_GRID_DIMS,
    GFX_ARG_HIDDEN_HEAP_V1,
    GFX_ARG_HIDDEN_DYNAMIC_LDS_SIZE,
    GFX_ARG_HIDDEN_PRIVATE_BASE,
    GFX_ARG_HIDDEN_SHARED_BASE,
    GFX_ARG_HIDDEN_QUEUE_PTR,
} gfx_arg_kind;

typedef struct {
    const char *name;          /* .name, or NULL */
    const char *type_name;     /* .type_name ("float*", "int"), or NULL */
    const char *value_kind;    /* .value_kind as written ("global_buffer"), or NULL */
    const char *address_space; /* .address_space ("global", "constant", ...), or NULL */
    uint32_t offset, size;     /* byte offset in the kernarg segment, size in bytes */
    gfx_arg_kind kind;
    int hidden;             /* kind >= GFX_ARG_HIDDEN_FIRST */
    int is_const;           /* .is_const: the pointee is const-qualified (the kernel reads it) */
    uint32_t pointee_align; /* .pointee_align (__local pointers), 0 when absent */
    const char *access;     /* .actual_access, else .access ("read_only", "write_only",
                             * "read_write"), or NULL */
} gfx_arg_info;

typedef struct {
    const char *name;
    int has_metadata; /* 0: no metadata for this kernel; the fields from it are 0 */
    /* from the metadata */
    size_t nargs;          /* all arguments, hidden ones included */
    size_t nargs_explicit; /* arguments before the first hidden one: what a caller supplies */
    uint32_t kernarg_segment_size, kernarg_segment_align;
    uint32_t sgpr_count, vgpr_count, agpr_count, wavefront_size, max_flat_workgroup_size;
    int uses_dynamic_stack;
    /* from the kernel descriptor */
    uint32_t group_segment_fixed_size;   /* static LDS bytes per workgroup */
    uint32_t private_segment_fixed_size; /* scratch bytes per work-item */
    uint32_t kernarg_size;
    uint64_t entry; /* address of the first instruction */
    uint32_t rsrc1, rsrc2, rsrc3;
    uint16_t code_properties, kernarg_preload;
    unsigned user_sgpr_count;
    unsigned accum_offset; /* first AGPR of the unified VGPR file (gfx90a+) */
} gfx_kernel_info;

gfx_result gfx_kernel_get_info(const gfx_kernel *k, gfx_kernel_info *out);
/* Argument i (0 <= i < nargs) in metadata order.  Strings are owned by the module. */
gfx_result gfx_kernel_arg(const gfx_kernel *k, size_t i, gfx_arg_info *out);

/* Place the __local pointer argument i (kind GFX_ARG_DYNAMIC_SHARED_POINTER) of nbytes bytes in
 * LDS as an OpenCL runtime does: after the kernel's static LDS and the *dynamic_lds bytes placed
 * so far (the caller's own dynamic LDS, earlier __local arguments), aligned to the argument's
 * .pointee_align (16 when absent).  Writes the argument's LDS address into kernargs at its
 * .offset (kernarg_size must cover it) and sets *dynamic_lds past it: pass the final value as
 * gfx_launch_options.dynamic_lds.  GFX_ERR_INVALID if argument i is not a __local pointer or
 * nbytes is 0; GFX_ERR_RESOURCE (with *dynamic_lds unchanged) when the workgroup's LDS would
 * exceed the architecture's (160 KiB gfx950, 64 KiB gfx942). */
gfx_result gfx_kernel_bind_local(const gfx_kernel *k, size_t i, uint64_t nbytes,
                                 uint32_t *dynamic_lds, void *kernargs, size_t kernarg_size);

/* ---- devices, buffers, launches ------------------------------------------------------------ */

/* An emulated GPU: an architecture, a device address space, and a pool of worker threads.
 * Calls on one device are serialized by the caller (one launch at a time per device); different
 * devices are independent. */
typedef struct gfx_device gfx_device;

/* threads = 0: one worker per online CPU core.  The thread that calls gfx_launch() is one of the
 * workers, so threads = 1 runs everything on the caller's thread. */
gfx_result gfx_device_create(gfx_arch arch, unsigned threads, gfx_device **out);
void gfx_device_free(gfx_device *dev); /* NULL is allowed */
gfx_arch gfx_device_arch(const gfx_device *dev);
unsigned gfx_device_threads(const gfx_device *dev);
/* A one-line description of why the last launch on dev failed ("" after a success), e.g.
 * "workgroup needs 200000 bytes of LDS (...); gfx942 has 65536" or a fault's message. */
const char *gfx_device_error(const gfx_device *dev);
/* Compute units of the modelled GPU (default: the target's, 256 for gfx950 (MI355X), 304 for
 * gfx942 (MI300X) and 104 for gfx90a (MI210); cus = 0 restores it).  With the kernel's occupancy
 * (VGPR/AGPR/SGPR/LDS/wave use, see docs/architecture.md) it decides how many workgroups of a
 * launch are resident at once, i.e. may wait for one another.  GFX_ERR_INVALID above 65536. */
gfx_result gfx_device_set_cus(gfx_device *dev, unsigned cus);
unsigned gfx_device_cus(const gfx_device *dev);

/* Device memory: zero-filled, page-aligned and page-granular as hipMalloc's: a kernel access
 * past the end of a buffer but inside its last 4 KiB page works as on hardware (reads the
 * padding, zero at allocation); memcheck mode reports it.  Buffers are separated by unmapped
 * gaps so that a larger overrun faults.  *addr is the device address kernels use. gfx_buffer_free()
 * takes the address gfx_buffer_alloc() returned (GFX_ERR_INVALID for anything else). */
gfx_result gfx_buffer_alloc(gfx_device *dev, uint64_t size, uint64_t *addr);
gfx_result gfx_buffer_free(gfx_device *dev, uint64_t addr);
/* Copies the first size bytes of the buffer at addr (as gfx_buffer_alloc() returned it) to dst and
 * frees the buffer, handing its pages back to the host as the copy goes: reading an N-byte result
 * this way peaks at about N bytes of host memory, where gfx_memcpy_dtoh() and then
 * gfx_buffer_free() peak at 2N.  GFX_ERR_INVALID (and nothing freed) unless addr is a buffer's
 * address and size is at most its size. */
gfx_result gfx_buffer_move_out(gfx_device *dev, uint64_t addr, void *dst, uint64_t size);
/* Copies between host and device; GFX_ERR_INVALID unless [addr, addr+size) lies inside one
 * buffer. */
gfx_result gfx_memcpy_htod(gfx_device *dev, uint64_t dst, const void *src, uint64_t size);
gfx_result gfx_memcpy_dtoh(gfx_device *dev, void *dst, uint64_t src, uint64_t size);

typedef struct {
    uint64_t max_insts;    /* watchdog: wave-instructions for the whole launch; 0 = default
                            * (GFX_DEFAULT_MAX_INSTS) */
    uint32_t dynamic_lds;  /* bytes of dynamic LDS per workgroup, added to the static size */
    uint32_t private_size; /* scratch bytes per work-item, at least the descriptor's; 0 = the
                            * descriptor's (plus GFX_DYNAMIC_STACK_SIZE when the kernel has a
                            * dynamic stack) */
    double timeout;        /* wall-clock seconds the launch may take (0 = no limit): past it the
                            * launch stops with a GFX_FAULT_TIMEOUT fault */
    uint32_t flags;        /* GFX_LAUNCH_* bits */
    int memcheck;          /* 1: byte-exact checking, see gfx_memcheck_errors(); also on for
                            * every launch when the environment has GFXEMU_MEMCHECK=1 */
} gfx_launch_options;

/* Racecheck: the waves of each workgroup take turns one instruction at a time and every LDS
 * access between two barriers is checked against the other waves' (slow; gfx_race_count()). */
#define GFX_LAUNCH_RACECHECK 1u

/* ---- memcheck ----------------------------------------------------------------------------------
 * By default memory behaves as on hardware: only accesses outside the pages of every buffer
 * fault.  With gfx_launch_options.memcheck (or GFXEMU_MEMCHECK=1) every global access that
 * leaves the exact bytes of its buffer but stays inside its pages is reported, lane by lane, and
 * the kernel continues (the access does what the hardware would do); the launch still returns
 * GFX_OK unless something faulted.  A naturally aligned scalar load that starts inside a buffer
 * (clang widens an aligned 12-byte uniform load to s_load_dwordx4) is counted, not reported. */
typedef struct {
    uint64_t pc; /* instruction address */
    char op[48]; /* its mnemonic */
    uint32_t workgroup[3], wave;
    int lane; /* -1 for a scalar access */
    uint64_t addr;
    uint32_t size;
    int write;
    char message[1024]; /* all of the above as one line, with where the address lies */
} gfx_memcheck_error;

/* Errors memcheck found in the last launch (*widened, if not NULL: widened scalar loads it
 * suppressed).  The first GFX_MEMCHECK_KEEP are kept for gfx_memcheck_error_get(). */
#define GFX_MEMCHECK_KEEP 1024
uint64_t gfx_memcheck_errors(const gfx_device *dev, uint64_t *widened);
gfx_result gfx_memcheck_error_get(const gfx_device *dev, size_t i, gfx_memcheck_error *out);

/* The default watchdog: 2^30 wave-instructions, so an infinite loop fails within seconds rather
 * than hanging (a tight scalar loop runs into it in about 4 s on one thread of a 2024 x86 core;
 * VALU-heavy loops run slower per instruction).  Large kernels raise it with max_insts. */
#define GFX_DEFAULT_MAX_INSTS (1ull << 30)
#define GFX_DYNAMIC_STACK_SIZE 16384u

typedef struct {
    uint64_t wave_insts; /* wave-instructions executed (one per instruction per wave) */
    uint64_t waves, workgroups;
    double seconds;   /* wall-clock time of the launch */
    unsigned threads; /* workers used */
    /* wave_insts by class */
    uint64_t salu, valu, vmem, smem, lds, mfma, branch, other;
} gfx_stats;

/* Run kernel k on a grid of grid[0] x grid[1] x grid[2] workgroups, each of block[0] x block[1] x
 * block[2] work-items (at most 1024; split into waves of 64 lanes).
 *
 * kernargs/kernarg_size: the kernel's explicit arguments laid out as the metadata says (each at
 * its .offset); copied to the start of a fresh kernarg segment of kernarg_segment_size bytes.  The
 * launcher then writes the hidden arguments it knows (block counts, group sizes, remainders (0),
 * global offsets (0), grid dims, dynamic LDS size, private/shared aperture bases); other hidden
 * arguments keep the caller's bytes or 0.  opts and stats may be NULL.
 *
 * Returns GFX_OK; GFX_ERR_FAULT when a wave faulted (gfx_last_fault() describes it; the rest of
 * the launch is abandoned, memory may be partly written); GFX_ERR_RESOURCE when the launch asks
 * for more LDS than the architecture has (160 KiB gfx950, 64 KiB gfx942 and gfx90a) or a bad block
 * size; GFX_ERR_INVALID for bad arguments; GFX_ERR_ARCH if the kernel was built for another
 * architecture than the device.  The device stays usable whatever happens. */
gfx_result gfx_launch(gfx_device *dev, const gfx_kernel *k, const uint32_t grid[3],
                      const uint32_t block[3], const void *kernargs, size_t kernarg_size,
                      const gfx_launch_options *opts, gfx_stats *stats);

/* Progress of the launch running on dev (or of the last one): workgroups finished and the
 * grid's total.  Safe to call from another thread while gfx_launch()/gfx_launch_params() run
 * (the CLI's progress line uses it); both 0 before the first launch. */
void gfx_launch_progress(gfx_device *dev, uint64_t *done, uint64_t *total);

/* The same with one pointer per explicit argument (as cuLaunchKernel's kernelParams):
 * params[i] points to gfx_arg_info.size bytes for explicit argument i (for a __local pointer,
 * its LDS address: reserve the bytes with opts->dynamic_lds, or build the kernarg bytes with
 * gfx_kernel_bind_local() and call gfx_launch()); nparams must equal nargs_explicit.  Needs
 * metadata. */
gfx_result gfx_launch_params(gfx_device *dev, const gfx_kernel *k, const uint32_t grid[3],
                             const uint32_t block[3], const void *const *params, size_t nparams,
                             const gfx_launch_options *opts, gfx_stats *stats);

/* ---- faults --------------------------------------------------------------------------------- */

typedef enum {
    GFX_FAULT_NONE = 0,
    GFX_FAULT_MEMORY,        /* access outside every buffer */
    GFX_FAULT_ILLEGAL,       /* a word that is not an instruction on this architecture */
    GFX_FAULT_UNIMPLEMENTED, /* a valid instruction gfxemu cannot execute yet */
    GFX_FAULT_TRAP,          /* s_trap */
    GFX_FAULT_WATCHDOG,      /* instruction budget (max_insts) exhausted */
    GFX_FAULT_PC,            /* the program counter left the code or landed inside an instruction */
    GFX_FAULT_LDS,           /* LDS access outside the workgroup's allocation */
    GFX_FAULT_HALT,     /* the wave halted itself (s_sethalt 1, s_sendmsghalt, MSG_HALT_WAVES) */
    GFX_FAULT_DEADLOCK, /* every resident wave waits and none can make progress */
    GFX_FAULT_TIMEOUT,  /* the launch ran longer than gfx_launch_options.timeout */
} gfx_fault_kind;

/* "memory", "illegal instruction", "unimplemented instruction", "trap", "watchdog", ... */
const char *gfx_fault_kind_name(gfx_fault_kind kind);

/* What stopped the last launch on a device (kind GFX_FAULT_NONE after a successful one). */
typedef struct {
    gfx_fault_kind kind;
    char kernel[128];
    uint32_t workgroup[3]; /* workgroup id */
    uint32_t wave;         /* wave index inside the workgroup */
    uint64_t lanes;        /* lanes involved (memory/LDS faults: every lane whose access was
                            * bad; lanes run in ascending order and the first bad one stops the
                            * instruction, so lanes below it have been performed (loaded, stored)
                            * and it and the lanes above it have not) */
    uint64_t pc;           /* address of the instruction (as in gfx_module_text()'s addresses) */
    char op[48];           /* mnemonic, e.g. "global_store_dword"; "" when there is none */
    char disasm[1024];     /* the instruction as llvm-objdump prints it (GFX_DISASM_MAX) */
    uint64_t addr;         /* memory/LDS faults: first bad address */
    uint32_t size;         /* bytes of the bad access */
    int write;             /* 1 for a store/atomic, 0 for a load */
    uint64_t wave_insts;   /* wave-instructions the launch executed before stopping */
    char message[2048];    /* all of the above as one line, without a trailing newline */
} gfx_fault;

gfx_result gfx_last_fault(const gfx_device *dev, gfx_fault *out);

/* ---- racecheck (GFX_LAUNCH_RACECHECK) ---------------------------------------------------------
 */

typedef enum {
    GFX_RACE_RAW = 1, /* a wave read LDS bytes another wave wrote since the last barrier */
    GFX_RACE_WAR,     /* a wave wrote LDS bytes another wave read since the last barrier */
    GFX_RACE_WAW,     /* a wave wrote LDS bytes another wave wrote since the last barrier */
} gfx_race_kind;

/* One hazard, reported once per (kind, earlier pc, later pc) per launch. */
typedef struct {
    gfx_race_kind kind;
    uint32_t lds_offset;   /* first byte both accesses touched */
    uint32_t workgroup[3]; /* where it was first seen */
    uint32_t wave[2];      /* [0] the earlier access, [1] the later one */
    uint64_t pc[2];
    char disasm[2][96];
    char message[512]; /* one line naming all of the above */
} gfx_race;

/* Hazards found by the last launch on dev (0 unless it ran with GFX_LAUNCH_RACECHECK); i in
 * [0, count), in the order found.  GFX_ERR_INVALID for i out of range. */
size_t gfx_race_count(const gfx_device *dev);
gfx_result gfx_race_get(const gfx_device *dev, size_t i, gfx_race *out);

/* ---- disassembly ---------------------------------------------------------------------------- */

/* Longest instruction text gfx_disasm() writes, including the NUL. */
#define GFX_DISASM_MAX                                                                             \
    1024 /* LLVM's text for an instruction with several register notes runs                        \
          * past 300 characters */

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

/* ---- assembly (src/api/assemble.c) ------------------------------------------------------------
 *
 * Assemble LLVM-syntax AMDGPU assembly for arch: what clang-22 -S writes (labels, sections, data
 * directives, .amdhsa_kernel blocks, .amdgpu_metadata YAML) or bare instruction lines.  The bytes
 * are those llvm-mc-22 produces.  Errors are one line "LINE:COL: message" in err.
 * gfx_assemble() gives a code object (AMDHSA ELF, loadable by gfx_module_load_mem()), or with
 * GFX_ASM_RAW only the bytes of .text; *out is malloc'd: release it with gfx_free(). */
#define GFX_ASM_RAW 1u
/* RDNA (gfx1100, gfx1201): assemble wave64 code (llvm-mc's -mattr=+wavefrontsize64: lane masks
 * written as SGPR pairs, vcc, s[0:1]; WMMA tuples at their wave64 width).  Also chosen when the
 * source holds ".amdhsa_wavefront_size32 0".  The default is wave32; no effect on CDNA. */
#define GFX_ASM_WAVE64 2u
gfx_result gfx_assemble(gfx_arch arch, const char *src, size_t len, unsigned flags, uint8_t **out,
                        size_t *out_size, char *err, size_t errsz);
/* Assemble and load in one step (a JIT for small kernels). */
gfx_result gfx_module_assemble(gfx_arch arch, const char *src, size_t len, gfx_module **out,
                               char *err, size_t errsz);
/* Free memory the library returned (gfx_assemble's buffer); NULL is allowed. */
void gfx_free(void *p);

/* ---- drop-in for frameworks' mock GPUs (src/api/runasm.c) ----------------------------------
 *
 * For a framework whose mock driver turns a dispatch into one call.  Unlike the API above these
 * take no handle: the library keeps one device per architecture (created on first use; its worker
 * count comes from the environment variable GFXEMU_THREADS, default one per core, and the
 * watchdog from GFXEMU_MAX_INSTS, default GFX_DEFAULT_MAX_INSTS).  Calls are serialized; the last
 * fault and error are kept per calling thread.
 *
 * Memory is in host-address mode: a device address is a host pointer, and a kernel may touch only
 * the ranges registered with gfxemu_map_host().  Any other access, like every other fault, stops
 * the dispatch with a non-zero result and a fault record; the process carries on. */

/* Run `code_size` bytes of raw instructions at host address `code` (no ELF) on a grid of
 * gx x gy x gz workgroups of lx x ly x lz work-items (wave64).  Initial state, as a command
 * processor sets it ("AMDGPU Usage", "Initial Kernel Execution State"):
 *  - s[0..n_user_sgprs-1] = user_sgprs (COMPUTE_USER_DATA, at most 16); when user_sgprs is NULL,
 *    s[0:1] = kernarg (the kernarg segment's host address);
 *  - rsrc2 is COMPUTE_PGM_RSRC2: USER_SGPR_COUNT [5:1] places the system SGPRs that follow,
 *    workgroup ids x/y/z [7]/[8]/[9], workgroup info [10]; work-item ids packed in v0 (x [9:0],
 *    y [19:10] and z [29:20] as TIDIG_COMP_CNT [12:11] enables them); LDS_SIZE [23:15] in
 *    granules of 1280 bytes on gfx950 and 512 bytes on gfx942 and gfx90a; SCRATCH_EN [0] points
 *    FLAT_SCRATCH at the wave's private memory of scratch_per_lane bytes per lane (gfx90a,
 *    which has no architected flat scratch, also gets the private segment wave offset SGPR
 *    after the system SGPRs);
 *  - every VGPR and AGPR zero; MODE with no denormal flushing, DX10_CLAMP and IEEE set;
 *  - s_getpc_b64 and fault PCs report host addresses inside [code, code + code_size); execution
 *    must stay in that range (a branch or call outside it is a bad-PC fault: clang -O0 puts a
 *    kernel's callees before its entry, so run such code objects with gfx_launch() instead).
 * arch: "gfx950" (also "cdna", "cdna4", NULL), "gfx942" ("cdna3"), "gfx90a" ("cdna2"), or the
 * RDNA targets "gfx1100" ("rdna3") and "gfx1201" ("rdna4"): wave32, or wave64 with LLVM's
 * feature after the name ("gfx1100:wavefrontsize64"); gfx1201 also gets the workgroup id in
 * TTMP9 (x) and TTMP7 (y | z << 16).
 * Returns 0 (GFX_OK) or a gfx_result: GFX_ERR_FAULT when the kernel faulted (see
 * gfxemu_last_fault()), GFX_ERR_INVALID / GFX_ERR_ARCH / GFX_ERR_RESOURCE for a bad dispatch
 * (see gfxemu_last_error()). */
int gfxemu_run_asm(uint64_t code, uint32_t code_size, uint32_t gx, uint32_t gy, uint32_t gz,
                   uint32_t lx, uint32_t ly, uint32_t lz, uint64_t kernarg, uint32_t rsrc2,
                   uint32_t scratch_per_lane, const char *arch, const uint32_t *user_sgprs,
                   uint32_t n_user_sgprs);
/* The same, with the host ranges this dispatch may touch: n_ranges (base, size) pairs in
 * ranges[2 * i], ranges[2 * i + 1], registered for this dispatch only (on top of those of
 * gfxemu_map_host()) after the same mapped-memory check; a framework's mock driver that hands
 * over its list of mapped ranges before every dispatch needs no other call. */
int gfxemu_run_asm_ranges(uint64_t code, uint32_t code_size, uint32_t gx, uint32_t gy, uint32_t gz,
                          uint32_t lx, uint32_t ly, uint32_t lz, uint64_t kernarg, uint32_t rsrc2,
                          uint32_t scratch_per_lane, const char *arch, const uint32_t *user_sgprs,
                          uint32_t n_user_sgprs, const uint64_t *ranges, size_t n_ranges);
/* The same, with the floating-point mode of a descriptor's COMPUTE_PGM_RSRC1: its FLOAT_ROUND_MODE
 * and FLOAT_DENORM_MODE fields [19:12], DX10_CLAMP [21], IEEE_MODE [23] and FP16_OVFL [26] give
 * the initial MODE (its other bits are ignored; gfx12 has no DX10_CLAMP/IEEE bits).  The functions
 * above start as clang-22's kernels do (mode bits 0x00af0000: denormals kept, DX10_CLAMP, IEEE);
 * llvm-mc-22's default .amdhsa_kernel descriptor has 0x00ac0000 (f32 denormals flushed). */
int gfxemu_run_asm_rsrc1(uint64_t code, uint32_t code_size, uint32_t gx, uint32_t gy, uint32_t gz,
                         uint32_t lx, uint32_t ly, uint32_t lz, uint64_t kernarg, uint32_t rsrc2,
                         uint32_t scratch_per_lane, const char *arch, const uint32_t *user_sgprs,
                         uint32_t n_user_sgprs, const uint64_t *ranges, size_t n_ranges,
                         uint32_t rsrc1);
/* Let kernels access [ptr, ptr+size) (kernarg blocks, buffers, anything they read or write).
 * Registered memory is a set of bytes: registering a range again, or one inside a registered
 * one, changes nothing; overlapping and adjacent ranges merge into one.  Every page of the range
 * must be mapped readable in this process (checked now, from /proc/self/maps): gfxemu never
 * touches host memory the caller did not prove is there.  Pages mapped without write permission
 * can be read, and a kernel store to them is a memory fault.  A kernel may read the rest of the
 * pages holding a registered range (as hardware, which faults only on unmapped pages); its
 * writes must stay inside registered bytes.
 * Returns 0, or GFX_ERR_INVALID when the range is empty, wraps, is not mapped, or collides with
 * gfxemu's own device memory. */
int gfxemu_map_host(const void *ptr, uint64_t size);
/* Forget the whole registered (merged) range containing ptr: after map_host(a, 64) and
 * map_host(a + 64, 64), unmap_host(a) forgets all 128 bytes.  GFX_ERR_INVALID if ptr is not
 * registered. */
int gfxemu_unmap_host(const void *ptr);
/* Forget exactly the bytes [ptr, ptr+size), splitting a merged range; GFX_ERR_INVALID if none of
 * them is registered. */
int gfxemu_unmap_host_range(const void *ptr, uint64_t size);
/* The fault that stopped this thread's last gfxemu_run_asm() (kind GFX_FAULT_NONE if none). */
int gfxemu_last_fault(gfx_fault *out);
/* Why this thread's last gfxemu_* call failed, one line; "" after a success.  Never NULL. */
const char *gfxemu_last_error(void);

/* ---- debugging, tracing and single waves ---------------------------------------------------- */

/* A wave's register state, shared by the debugger (a wave of a stopped launch) and by the
 * lockstep API below (a single wave made from code bytes). */
typedef struct gfx_wave gfx_wave;

typedef enum {
    GFX_WAVE_RUNNING = 0, /* can execute its next instruction */
    GFX_WAVE_BARRIER,     /* waits at s_barrier for the rest of its workgroup */
    GFX_WAVE_DONE,        /* executed s_endpgm */
    GFX_WAVE_FAULT,       /* stopped by a fault (see gfx_wave_snapshot.fault) */
} gfx_wave_state;

/* "running", "at barrier", "done", "faulted". */
const char *gfx_wave_state_name(gfx_wave_state st);

typedef enum {
    GFX_REG_SGPR = 0, /* index: scalar operand encoding 0..127 (s0..s101, flat_scratch 102-103,
                       * xnack_mask 104-105, vcc 106-107, ttmp 108-123, m0 124, exec 126-127) */
    GFX_REG_VGPR,     /* index 0..255, lane 0..63 */
    GFX_REG_AGPR,     /* index 0..255, lane 0..63 */
    GFX_REG_EXEC,     /* 64-bit */
    GFX_REG_VCC,      /* 64-bit */
    GFX_REG_SCC,      /* 0 or 1 */
    GFX_REG_M0,
    GFX_REG_PC, /* the address of the next instruction (gfx_module_text() addresses) */
    GFX_REG_MODE,
} gfx_reg_kind;

/* Read or write one register (index and lane are ignored where they do not apply).
 * GFX_ERR_INVALID for an index or lane out of range. */
gfx_result gfx_wave_get(const gfx_wave *w, gfx_reg_kind kind, unsigned index, unsigned lane,
                        uint64_t *value);
gfx_result gfx_wave_set(gfx_wave *w, gfx_reg_kind kind, unsigned index, unsigned lane,
                        uint64_t value);

/* How far the code addresses the kernel itself sees (s_getpc_b64 results, the return address a
 * call leaves in s[30:31]) lie from gfx_module_text() addresses: the device address of the
 * module's program image (see gfx_module_symbol_address), 0 for code without one.  Subtract it
 * from a code address found in a register to name it. */
uint64_t gfx_wave_code_bias(const gfx_wave *w);

#define GFX_WAVE_LANES 64
#define GFX_WAVE_SGPRS 128
#define GFX_WAVE_VGPRS 256

/* Everything about a wave at one instant: compare two emulators instruction by instruction. */
typedef struct {
    uint64_t pc; /* address of the next instruction */
    gfx_wave_state state;
    uint32_t workgroup[3], wave;
    uint64_t exec, vcc;
    uint32_t scc, m0, mode;
    uint32_t sgpr[GFX_WAVE_SGPRS]; /* by operand encoding, as GFX_REG_SGPR */
    uint32_t vgpr[GFX_WAVE_VGPRS][GFX_WAVE_LANES];
    uint32_t agpr[GFX_WAVE_VGPRS][GFX_WAVE_LANES];
    uint64_t insts; /* instructions this wave executed */
    /* state GFX_WAVE_FAULT: what happened (fault_pc: address of the faulting instruction) */
    gfx_fault_kind fault;
    uint64_t fault_pc, fault_addr, fault_lanes;
    uint32_t fault_size;
    int fault_write;
} gfx_wave_snapshot;

gfx_result gfx_wave_snapshot_get(const gfx_wave *w, gfx_wave_snapshot *out);

/* -- lockstep: one wave made from code bytes ------------------------------------------------ */

/* A single wave64 running `code` (size bytes, copied; decoded once) placed at address code_va.
 * It starts RUNNING at pc = code_va with every register 0 but EXEC = all ones, and
 * lds_size bytes of zeroed LDS (0: none).  Memory instructions reach dev's buffers (dev may be
 * NULL: every global access faults); do not launch on dev while the wave steps. */
gfx_result gfx_wave_create(gfx_device *dev, gfx_arch arch, const void *code, size_t size,
                           uint64_t code_va, uint32_t lds_size, gfx_wave **out);
void gfx_wave_free(gfx_wave *w); /* NULL is allowed; never for a gfx_debug_wave() handle */
/* Execute exactly one instruction.  A wave at a barrier is released first (it is alone in its
 * workgroup).  GFX_OK while the wave can go on; GFX_ERR_FAULT when this or an earlier step
 * faulted (details in the snapshot); GFX_ERR_INVALID after s_endpgm.  *state may be NULL. */
gfx_result gfx_wave_step(gfx_wave *w, gfx_wave_state *state);
/* LDS of a lockstep wave or of a stopped launch's workgroup: GFX_ERR_INVALID out of range. */
gfx_result gfx_wave_lds(gfx_wave *w, uint32_t offset, void *buf, uint32_t size, int write);

/* -- debug sessions ------------------------------------------------------------------------- */

/* Breakpoints, watchpoints, a stop handler and trace outputs for launches on one device.  A
 * session's launch runs on the calling thread, deterministically: workgroups in order, the
 * waves of a workgroup round-robin up to each barrier (as the normal dispatcher does); every
 * instruction goes through a stepping loop instead of the fast one (plain gfx_launch() never
 * pays for debugging). */
typedef struct gfx_debug_session gfx_debug_session;

gfx_result gfx_debug_create(gfx_device *dev, gfx_debug_session **out);
void gfx_debug_free(gfx_debug_session *s); /* NULL is allowed */

typedef struct {
    uint64_t addr;            /* instruction address (gfx_module_text() addresses) */
    const gfx_kernel *kernel; /* only in launches of this kernel; NULL: any */
    int64_t workgroup[3];     /* only in this workgroup id; -1 in all three: any */
    int64_t wave;             /* only this wave index; -1: any */
} gfx_breakpoint;

/* Stop before a wave executes the instruction at bp->addr.  *id (may be NULL) names it for
 * gfx_debug_delete()/gfx_debug_hits(); ids start at 1. */
gfx_result gfx_debug_break(gfx_debug_session *s, const gfx_breakpoint *bp, int *id);
/* Stop after an instruction changed any of the size (1..8) bytes at device address addr. */
gfx_result gfx_debug_watch(gfx_debug_session *s, uint64_t addr, uint32_t size, int *id);
/* Remove a breakpoint or watchpoint (id 0: all of them). */
gfx_result gfx_debug_delete(gfx_debug_session *s, int id);
/* How many times breakpoint/watchpoint id stopped a launch. */
uint64_t gfx_debug_hits(const gfx_debug_session *s, int id);

typedef enum {
    GFX_STOP_ENTRY = 0,  /* before the launch's first instruction (gfx_debug_set_handler) */
    GFX_STOP_BREAKPOINT, /* before the instruction at a breakpoint */
    GFX_STOP_STEP,       /* a step or next finished */
    GFX_STOP_WATCH,      /* an instruction changed a watched address */
    GFX_STOP_FAULT,      /* a wave faulted (or the watchdog fired); resuming ends the launch */
    GFX_STOP_INTERRUPT,  /* gfx_debug_interrupt() was called */
} gfx_stop_reason;

typedef struct {
    gfx_stop_reason reason;
    int id;                /* breakpoint or watchpoint */
    uint32_t workgroup[3]; /* the wave that stopped (it is also selected) */
    uint32_t wave;
    uint64_t pc;   /* its next instruction; faults: the faulting instruction */
    uint64_t hits; /* breakpoints and watchpoints: stops so far, this one included */
    uint64_t addr, old_value, new_value; /* watchpoints (size bytes, little-endian) */
    uint32_t size;
    uint64_t wave_insts; /* wave-instructions the launch has executed */
} gfx_stop;

typedef enum {
    GFX_RESUME_CONTINUE = 0, /* run to the next breakpoint, watchpoint, fault or the end */
    GFX_RESUME_STEP,         /* until the selected wave executed `count` instructions (other
                              * waves run as the dispatcher schedules them, e.g. to a barrier) */
    GFX_RESUME_NEXT,         /* as STEP, but a call (s_swappc_b64, s_call_b64) runs to return */
    GFX_RESUME_KILL,         /* abandon the launch: gfx_debug_launch returns GFX_ERR_STOPPED */
} gfx_resume_kind;

typedef struct {
    gfx_resume_kind kind;
    uint64_t count; /* STEP/NEXT: instructions (0 means 1) */
} gfx_resume;

/* Called on the launching thread at every stop.  Inside it, the gfx_debug_* and gfx_wave_*
 * accessors read and change the stopped launch (not gfx_memcpy_*, gfx_buffer_* or launches on
 * the same device: the launch holds the device); its return value says how to go on. */
typedef gfx_resume (*gfx_debug_handler)(gfx_debug_session *s, const gfx_stop *stop, void *user);
/* stop_at_entry: also stop before the first instruction. */
void gfx_debug_set_handler(gfx_debug_session *s, gfx_debug_handler fn, void *user,
                           int stop_at_entry);

/* Stop the running launch before its next instruction (GFX_STOP_INTERRUPT; needs a handler).
 * Safe to call from a signal handler or another thread: it only sets a flag. */
void gfx_debug_interrupt(gfx_debug_session *s);

/* gfx_launch() under the session (same arguments and results, plus GFX_ERR_STOPPED). */
gfx_result gfx_debug_launch(gfx_debug_session *s, const gfx_kernel *k, const uint32_t grid[3],
                            const uint32_t block[3], const void *kernargs, size_t kernarg_size,
                            const gfx_launch_options *opts, gfx_stats *stats);

/* -- inside a stop handler ------------------------------------------------------------------- */

typedef struct {
    uint32_t workgroup[3], wave;
    gfx_wave_state state;
    uint64_t pc; /* the next instruction; a faulted wave: the faulting one */
    uint64_t exec, insts;
} gfx_wave_info;

/* The waves of the running workgroup (at most max into out); returns how many there are. */
size_t gfx_debug_waves(gfx_debug_session *s, gfx_wave_info *out, size_t max);
/* Wave `wave` of the running workgroup (a handle valid until the handler returns), or NULL. */
gfx_wave *gfx_debug_wave(gfx_debug_session *s, uint32_t wave);
/* Select the wave that STEP/NEXT follow: any wave of the running or of a later workgroup
 * (GFX_ERR_INVALID for a workgroup that has already ended or is outside the grid). */
gfx_result gfx_debug_select(gfx_debug_session *s, const uint32_t workgroup[3], uint32_t wave);
void gfx_debug_selected(const gfx_debug_session *s, uint32_t workgroup[3], uint32_t *wave);
/* The running kernel and its workgroup (GFX_ERR_INVALID outside a launch). */
gfx_result gfx_debug_context(const gfx_debug_session *s, const gfx_kernel **k,
                             uint32_t workgroup[3]);
/* Device memory, without the device lock a stopped launch holds (any device address inside a
 * buffer, or a kernarg/dispatch packet segment of the launch). */
gfx_result gfx_debug_memory(gfx_debug_session *s, uint64_t addr, void *buf, uint64_t size,
                            int write);
/* The fault of a GFX_STOP_FAULT stop so far (message empty; gfx_last_fault() after the launch
 * has it all). */
gfx_result gfx_debug_fault(const gfx_debug_session *s, gfx_fault *out);

/* -- traces, timelines and profiles ---------------------------------------------------------- */

typedef struct {
    /* One line per executed wave-instruction: workgroup, wave, pc, disassembly, EXEC and the
     * registers written with their new values in the active lanes. */
    const char *trace_path;            /* NULL: no trace */
    uint64_t trace_limit;              /* lines at most (0: no limit) */
    int64_t trace_workgroup[3];        /* only this workgroup id (-1 in all three: any) */
    int64_t trace_wave;                /* only this wave index (-1: any) */
    uint64_t trace_pc_lo, trace_pc_hi; /* only addresses in [lo, hi) (hi 0: any) */
    /* Chrome trace-event JSON (ui.perfetto.dev, chrome://tracing): a process per workgroup, a
     * thread per wave, a span per run between barriers, an instant event per fault and
     * counters of executed instructions by class.  Time is the launch's wave-instruction
     * count (1 "us" = 1 wave-instruction, in the dispatcher's deterministic order). */
    const char *timeline_path; /* NULL: none */
    int profile;               /* count executions per instruction (gfx_debug_profile) */
} gfx_trace_options;

/* Set the outputs for the next launches (files are created at the launch and overwritten). */
gfx_result gfx_debug_trace(gfx_debug_session *s, const gfx_trace_options *o);

typedef struct {
    uint64_t pc;    /* instruction address */
    uint64_t count; /* wave-instructions executed there */
} gfx_profile_entry;

/* The hottest instructions of the last launch, most executed first (ties: lower pc first):
 * writes at most max entries and returns how many instructions executed at all. */
size_t gfx_debug_profile(const gfx_debug_session *s, gfx_profile_entry *out, size_t max);

/* ---- counters (README "Counters"; src/debug/counters.c) ------------------------------------ */

/* Performance counters of a launch, named after the rocprofv3 counters they stand for.  All are
 * sums over every wave-instruction the launch executed (instructions are counted once per wave,
 * whatever EXEC is). */
typedef struct {
    uint64_t waves, workgroups;  /* SQ_WAVES; workgroups run */
    uint64_t insts;              /* SQ_INSTS: all wave-instructions */
    uint64_t valu;               /* SQ_INSTS_VALU: vector ALU instructions, MFMA included */
    uint64_t mfma;               /* SQ_INSTS_MFMA: MFMA/SMFMAC instructions */
    uint64_t salu, smem, branch; /* SQ_INSTS_SALU, SQ_INSTS_SMEM, SQ_INSTS_BRANCH */
    uint64_t lds;                /* SQ_INSTS_LDS: DS instructions */
    uint64_t vmem;               /* SQ_INSTS_VMEM: FLAT/GLOBAL/SCRATCH/MUBUF/MTBUF instructions */
    uint64_t vmem_rd, vmem_wr;   /* SQ_INSTS_VMEM_RD / _WR: that load / store or atomic */
    uint64_t valu_active_lanes;  /* sum of the active lanes (EXEC bits) of VALU instructions */
    uint64_t lds_bank_conflict;  /* SQ_LDS_BANK_CONFLICT: cycles lost to LDS bank conflicts in
                                  * the CDNA bank model (32 banks on gfx942, 64 on gfx950) */
    uint64_t lds_bytes;          /* bytes of register data moved by DS instructions */
    uint64_t vmem_bytes;         /* bytes of register data moved by VMEM instructions */
    uint64_t vmem_lines_64;      /* distinct 64-byte lines per VMEM instruction, summed */
    uint64_t vmem_lines_128;     /* distinct 128-byte lines per VMEM instruction, summed */
    uint64_t scratch_bytes;      /* bytes moved by scratch_* instructions */
} gfx_counters;

/* Collect counters in the next gfx_debug_launch() of s (on = 1) or not (0, the default); the
 * launch then runs through the stepping loop, like a traced one. */
gfx_result gfx_debug_counters_enable(gfx_debug_session *s, int on);
/* The counters of the last launch of s (zeros when they were not enabled). */
gfx_result gfx_debug_counters(const gfx_debug_session *s, gfx_counters *out);

/* Per-instruction detail of the last launch, when it ran with both the profile
 * (gfx_trace_options.profile) and counters on: for every executed instruction, in pc order. */
typedef struct {
    uint64_t pc, count;         /* instruction address; wave-instructions executed there */
    uint64_t active_lanes;      /* sum over those executions of the EXEC bits */
    uint64_t mem_bytes;         /* register data moved by them (DS and VMEM) */
    uint64_t lds_bank_conflict; /* their bank-conflict cycles (SQ_LDS_BANK_CONFLICT's share) */
} gfx_profile_line;

/* Writes at most max lines in pc order; returns how many instructions executed at all (0 when
 * the detail was not collected). */
size_t gfx_debug_profile_lines(const gfx_debug_session *s, gfx_profile_line *out, size_t max);

/* Thread traces in AMD's gfx9 SQTT format (what rocprofv3 --att collects on MI300/MI350; the
 * token format and the files are described in docs/att.md).  The next gfx_debug_launch() of s
 * writes into dir (created when missing): one .att token stream per traced shader engine, the
 * code object (a copy of code_object, when given) and an index, att_index.json.  Waves are
 * placed on a modelled GPU (shader engines, CUs, SIMDs, wave slots) and their timestamps come
 * from a simple issue model, not a timing model (docs/att.md "Timestamps").  Like rocprofv3,
 * every wave of a traced shader engine has start/end tokens; instruction tokens only for the
 * waves on target_cu whose SIMD is in simd_mask (and, a gfxemu extension, whose workgroup is in
 * the workgroups list). */
typedef struct {
    const char *dir;         /* NULL: thread traces off */
    const char *code_object; /* the kernel's code object file, copied beside the traces (or NULL) */
    int target_cu;           /* CU index inside each shader engine (rocprofv3 --att-target-cu) */
    uint32_t se_mask;        /* shader engines traced, bit per SE (--att-shader-engine-mask) */
    uint32_t simd_mask;      /* SIMDs of target_cu traced, bits 0-3 (--att-simd-select) */
    const char *workgroups;  /* NULL: all; else flat workgroup ids and ranges, "0,4-7" */
} gfx_att_options;

/* Set (or, with o->dir NULL, clear) the thread trace of the next launches.  GFX_ERR_INVALID for
 * an option out of range (target_cu > 15, simd_mask 0 or > 0xf, se_mask 0, an unreadable
 * workgroups list); a directory that cannot be written fails the launch with GFX_ERR_IO. */
gfx_result gfx_debug_att(gfx_debug_session *s, const gfx_att_options *o);

#if defined(__GNUC__)
#pragma GCC visibility pop
#endif

#ifdef __cplusplus
}
#endif

#endif
