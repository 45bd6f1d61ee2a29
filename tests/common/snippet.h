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

/* A snippet assembled once and run from several starting states (test_valu.c, test_round.c,
 * test_lowp.c): the decoded program and the code bytes it was decoded from. */
typedef struct {
    xprog prog;
    uint8_t *code;
} snippet_prog;
/* Assemble text (plus a final s_endpgm) for arch and decode it at code address 0x1000 into p,
 * after freeing what p held.  0, or -1 when it does not assemble or decode (p then holds
 * nothing). */
int snippet_prog_load(snippet_prog *p, const char *arch, const char *text);
/* The same for waves of `lanes` lanes (32: an RDNA wave32 program; xprog_build_waves). */
int snippet_prog_load_waves(snippet_prog *p, const char *arch, const char *text, unsigned lanes);
/* Free what p holds; a zeroed snippet_prog holds nothing. */
void snippet_prog_free(snippet_prog *p);

/* Reset w for a memory snippet: registers 0, all lanes on, global memory mem whose 64 dwords
 * at buf hold 0x1000 + i, and zeroed LDS (lds_size bytes) and scratch (scratch_lane bytes per
 * lane, 64 lanes). */
void snippet_mem_reset(wave *w, gmem *mem, uint64_t buf, uint8_t *lds, uint32_t lds_size,
                       uint8_t *scratch, uint32_t scratch_lane);

/* A buffer resource (V#) in s[r..r+3] for MUBUF/MTBUF and the scalar buffer loads (CDNA3 ISA,
 * "Buffer Resource"): base address bits 47:0 in dword 0 and dword 1[15:0]; dword1_flags ORed
 * into dword 1 above them (stride << 16, cache swizzle bit 30, swizzle enable bit 31);
 * num_records in dword 2; dword 3 (DST_SEL, NUM_FORMAT, DATA_FORMAT, index stride,
 * add_tid_enable) as given. */
static inline void snippet_set_rsrc(wave *w, unsigned r, uint64_t base, uint32_t dword1_flags,
                                    uint32_t num_records, uint32_t dword3) {
    w->s[r] = (uint32_t)base;
    w->s[r + 1] = ((uint32_t)(base >> 32) & 0xffff) | dword1_flags;
    w->s[r + 2] = num_records;
    w->s[r + 3] = dword3;
}
/* One wave and its memory for snippet tests (test_rdna*.c, test_wmma.c, test_vmem.c): a wave,
 * global memory whose 256 bytes at buf end a 4 KiB allocation (so an access past them faults),
 * 256 bytes of LDS and 64 bytes of scratch per lane.  Static storage: the wave is large. */
typedef struct {
    wave wv;
    gmem *mem;
    uint64_t buf;
    uint8_t lds[256];
    uint8_t scratch[64 * 64];
} snippet_rig;
/* Create r's global memory and buf.  0, or -1 (with a message) when that fails. */
int snippet_rig_open(snippet_rig *r);
/* Free what snippet_rig_open made. */
void snippet_rig_close(snippet_rig *r);
/* snippet_mem_reset on r's wave and memory, then EXEC = exec and MODE = mode. */
void snippet_rig_reset(snippet_rig *r, uint64_t exec, uint32_t mode);
/* snippet_rig_reset with the wave's lanes on (32, or 64 when wave64), MODE 0xf0 (f16/f64 and
 * f32 denormals kept, IEEE off) and v0 = v0_base + lane id in every lane. */
void snippet_rig_lanes(snippet_rig *r, int wave64, uint32_t v0_base);
/* run_snippet on r's wave; a status other than WAVE_DONE is printed with arch, text and the
 * fault's kind and pc. */
int snippet_rig_run(snippet_rig *r, const char *arch, const char *text);
/* A memcheck record for w->mc (one per process, its count reset): a wave with it set runs in
 * memcheck mode, where an out-of-range LDS access is an LDS fault instead of the hardware's
 * 0 / dropped write (src/exec/lds.c). */
xmemcheck *snippet_memcheck(void);
#endif
