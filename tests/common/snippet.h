/* snippet.h - run an instruction snippet on one wave (assembled by tests/common/asm.c). */
#ifndef GFXEMU_TEST_SNIPPET_H
#define GFXEMU_TEST_SNIPPET_H

#include "exec/exec.h"
#include "mem/mem.h"

#include <stdint.h>

/* Assemble text (plus a final s_endpgm) for arch ("gfx950"/"gfx942"; RDNA: "gfx1100"/"gfx1201"
 * run wave32, "gfx1100:wavefrontsize64" wave64, assembled by llvm-mc-22), decode it at code address
 * 0x1000 and run it on w from its current registers, with pc 0, a fresh fault record and a
 * budget of 1000 instructions.  Returns the final WAVE_* status, or -1 if assembly failed. */
int run_snippet(wave *w, const char *arch, const char *text);
/* The same with a budget of `budget` instructions (for long snippets and loops). */
int run_snippet_budget(wave *w, const char *arch, const char *text, uint64_t budget);

/* Reset w for a memory snippet: registers 0, all lanes on, global memory mem whose 64 dwords
 * at buf hold 0x1000 + i, and zeroed LDS (lds_size bytes) and scratch (scratch_lane bytes per
 * lane, 64 lanes). */
void snippet_mem_reset(wave *w, gmem *mem, uint64_t buf, uint8_t *lds, uint32_t lds_size,
                       uint8_t *scratch, uint32_t scratch_lane);

#endif
