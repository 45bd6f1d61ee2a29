/* debug_cli.h - `gfxemu debug` (an interactive debugger on the gfx_debug_* API), fault reports
 * and profiles for `gfxemu run`.  Uses only include/gfxemu.h. */
#ifndef GFXEMU_DEBUG_CLI_H
#define GFXEMU_DEBUG_CLI_H

#include <stdio.h>

#include "gfxemu.h"

/* A buffer the CLI allocated for a kernel argument: used to say where a bad address lies. */
typedef struct {
    size_t arg;       /* explicit argument index */
    const char *spec; /* the --arg text */
    uint64_t addr, size;
} cli_buffer;

typedef struct {
    gfx_module *m;
    const gfx_kernel *k;
    const cli_buffer *bufs;
    size_t nbufs;
} cli_program;

/* Run the launch under an interactive debugger reading commands from `in` (a TTY or a pipe). */
gfx_result cli_debug(gfx_debug_session *s, const cli_program *p, FILE *in, const uint32_t grid[3],
                     const uint32_t block[3], const void *kernargs, size_t kernarg_size,
                     const gfx_launch_options *opts, gfx_stats *stats);
/* The full fault report: kind, kernel, workgroup, wave, lanes, pc, instruction and neighbours,
 * the address and the argument buffer nearest to it. */
void cli_fault_report(FILE *out, const cli_program *p, const gfx_fault *f);
/* --profile FILE.html: the page described in tools/profile_html.c; 0, or -1 if it could not be
 * written. */
int cli_profile_html(const char *path, const cli_program *p, const gfx_debug_session *s,
                     const gfx_stats *st, const gfx_counters *c);
/* The `top` hottest instructions of the last launch of s, with their disassembly. */
void cli_profile(FILE *out, const cli_program *p, const gfx_debug_session *s, const gfx_stats *st,
                 size_t top);

#endif
