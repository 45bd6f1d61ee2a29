/* cli.h - subcommands of the gfxemu CLI that live in their own files (tools/info.c, ...), and the
 * small helpers they share with tools/gfxemu.c.  Uses only include/gfxemu.h. */
#ifndef GFXEMU_TOOLS_CLI_H
#define GFXEMU_TOOLS_CLI_H

#include <stdint.h>
#include <stdio.h>

#include "gfxemu.h"

/* `gfxemu info FILE.co [--json] [--block X[,Y[,Z]]]` (tools/info.c); argv[0] is "info". */
int cmd_info(int argc, char **argv);
extern const char info_usage[];

/* Occupancy of one kernel on one target: how many of its workgroups and waves a CU holds at
 * once, and which resource decides it (tools/info.c; docs in README "Inspecting a code object"). */
typedef struct {
    gfx_arch target;
    uint32_t workgroup_size, waves_per_workgroup;
    uint32_t unified_vgprs;  /* VGPRs per lane: ArchVGPRs, or ACCUM_OFFSET + AGPRs */
    uint32_t vgprs_alloc;    /* unified_vgprs rounded up to the allocation granule */
    uint32_t sgprs;          /* SGPRs per wave, as the metadata/descriptor count them */
    uint32_t lds_alloc;      /* LDS bytes per workgroup rounded up to the allocation granule */
    uint32_t lds_per_cu;     /* bytes */
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

#endif
