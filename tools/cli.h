/* cli.h - subcommands of the gfxemu CLI that live in their own files (tools/info.c, ...), and the
 * small helpers they share with tools/gfxemu.c.  Uses only include/gfxemu.h. */
#ifndef GFXEMU_TOOLS_CLI_H
#define GFXEMU_TOOLS_CLI_H

#include <stdint.h>
#include <stdio.h>

#include "gfxemu.h"

/* Print "gfxemu: error: MESSAGE" as one line on stderr (after flushing stdout): every
 * subcommand's errors (tools/gfxemu.c). */
__attribute__((format(printf, 1, 2))) void cli_error(const char *fmt, ...);

/* `gfxemu info FILE.co [--json] [--block X[,Y[,Z]]]` (tools/info.c); argv[0] is "info". */
int cmd_info(int argc, char **argv);
extern const char info_usage[];

/* `gfxemu exec [OPTIONS] -- PROGRAM [ARGS...]` (tools/exec.c): run a program on the virtual GPU
 * of src/vgpu/; argv[0] is "exec".  Returns only on error. */
int cmd_exec(int argc, char **argv);
extern const char exec_usage[];

/* Occupancy of one kernel on one target: how many of its workgroups and waves a CU holds at
 * once, and which resource decides it (tools/info.c; docs in README "Inspecting a code object"). */
typedef struct {
    gfx_arch target;
    uint32_t workgroup_size, waves_per_workgroup;
    uint32_t unified_vgprs; /* VGPRs per lane: ArchVGPRs, or ACCUM_OFFSET + AGPRs */
    uint32_t vgprs_alloc;   /* unified_vgprs rounded up to the allocation granule */
    uint32_t sgprs;         /* SGPRs per wave, as the metadata/descriptor count them */
    uint32_t lds_alloc;     /* LDS bytes per workgroup rounded up to the allocation granule */
    uint32_t lds_per_cu;    /* bytes */
    /* workgroups per CU each resource allows on its own (UINT32_MAX: no limit) */
    uint32_t wg_by_wave_slots, wg_by_vgprs, wg_by_sgprs, wg_by_lds, wg_by_barriers;
    uint32_t workgroups_per_cu, waves_per_cu, max_waves_per_cu;
    const char *limiter; /* "wave slots", "VGPRs", "SGPRs", "LDS", "barriers", or "too large" */
} cli_occupancy;

/* Computes the occupancy of kernel info `ki` at `workgroup_size` work-items (0: the metadata's
 * max_flat_workgroup_size, else 256) with `extra_lds` bytes of dynamic LDS on `target`. */
void cli_occupancy_compute(const gfx_kernel_info *ki, gfx_arch target, uint32_t workgroup_size,
                           uint32_t extra_lds, cli_occupancy *o);

/* The progress line of long launches (tools/progress.c): start before gfx_launch(), stop after.
 * NULL (and nothing shown) when `out` is not a terminal. */
typedef struct cli_progress cli_progress;
cli_progress *cli_progress_start(gfx_device *dev, FILE *out);
void cli_progress_stop(cli_progress *p); /* accepts NULL */

/* NumPy .npy arrays (tools/npy.c). */
#define CLI_NPY_MAX_DIMS 8
typedef struct {
    int valid;
    char kind;     /* 'b' bool, 'i' signed, 'u' unsigned, 'f' float */
    unsigned size; /* bytes per element */
    unsigned ndim;
    uint64_t shape[CLI_NPY_MAX_DIMS];
    size_t data_offset; /* of a parsed file */
    uint64_t nbytes;    /* of the data */
} cli_npy;
/* Parse a .npy file's header; 0, or -1 with a message in err. */
int cli_npy_parse(const unsigned char *buf, size_t size, cli_npy *out, char *err, size_t errsz);
/* Parse "float32[1000]", "int32[64,64]", "<f4[8]": 0 or -1. */
int cli_npy_parse_spec(const char *s, cli_npy *out);
/* Write a version 1.0 header for n into hdr; its length (a multiple of 64), 0 if cap is short. */
size_t cli_npy_header(const cli_npy *n, char *hdr, size_t cap);
const char *cli_npy_dtype_name(char kind, unsigned size);
/* Element (kind, size) of a pointer argument's type name ("float*", "const uint4*"); 0 or -1. */
int cli_type_elem(const char *type_name, char *kind, unsigned *size);
int cli_is_npy_path(const char *path, size_t len);
/* --arg in:/inout: a file whose name ends in .npy: check its dtype against argument `ai`, move
 * the array's data to the start of `data` and set *nbytes to its size.  Other files: np->valid
 * is 0 and nothing changes.  0, or -1 with a message in err. */
int cli_npy_load(const char *path, unsigned char *data, uint64_t *nbytes, cli_npy *np,
                 const gfx_arg_info *ai, char *err, size_t errsz);
/* --arg out:PATH.npy:DTYPE[SHAPE] or out:PATH.npy:BYTES (dtype from the argument's type name). */
int cli_npy_out(const char *spec, const char *path, uint64_t nbytes, cli_npy *np,
                const gfx_arg_info *ai, char *err, size_t errsz);
int cli_npy_write(const char *path, const cli_npy *np, const void *data, uint64_t nbytes, char *err,
                  size_t errsz);
/* --counters (tools/counters.c): LIST of counter names (NULL or "": all) -> bit mask; -1 (after
 * printing the error) for an unknown name. */
int cli_counters_parse(const char *list, uint32_t *mask);
void cli_counters_print(FILE *out, const char *kernel, uint32_t mask, const gfx_counters *c,
                        const cli_occupancy *o);
/* FILE.json: one JSON object; anything else: rocprofv3's counter_collection.csv layout. */
int cli_counters_write(const char *path, const char *kernel, uint32_t mask, const gfx_counters *c,
                       const cli_occupancy *o, const gfx_kernel_info *ki, const uint32_t grid[3],
                       const uint32_t block[3]);
#endif
