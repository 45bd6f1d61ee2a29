/* vmem.h - the vector-memory engine of vmem.c, for the RDNA buffer handlers (src/exec/rdna_mem.c).
 * A format supplies only how a lane's address is formed and how much of its access lies inside
 * the buffer (a ref_fn); loads, stores, atomics and format conversions are vmem.c's.  Internal to
 * exec/. */
#ifndef GFXEMU_VMEM_H
#define GFXEMU_VMEM_H

#include "exec/exec.h"

typedef struct {
    int space;      /* XS_GLOBAL, XS_LDS, XS_PRIVATE */
    uint64_t a;     /* address in that space */
    uint64_t avail; /* bytes from a that are inside the buffer (buffers); UINT64_MAX otherwise */
} lane_ref;
typedef lane_ref (*ref_fn)(const wave *w, const xinst *x, unsigned l);

/* Data conversions between the memory value and the 32-bit register. */
enum {
    K_DW,
    K_UB,
    K_SB,
    K_US,
    K_SS,
    K_D16_UB,
    K_D16_SB,
    K_D16_S,
    K_D16HI_UB,
    K_D16HI_SB,
    K_D16HI_S,
    K_ST_B,
    K_ST_S,
    K_ST_BHI,
    K_ST_SHI
};

/* A raw (linear) buffer as one instruction sees it: lane l's address is base + the instruction
 * offset (+ its offen VGPR), in range when that offset + the access size <= num. */
typedef struct {
    uint64_t base; /* incl. SOFFSET */
    uint32_t num;
} x_rawbuf;

/* Loads and stores of `kind` (ndw dwords for K_DW) through ref: out-of-range dwords read 0 and
 * drop their stores, in-range ones go through the bounds-checked address space.  rb (or NULL):
 * the same access seen as a raw buffer, which lets vmem.c's fast path take it when every active
 * lane is in range (ref decides everything else). */
void x_vmem_load(wave *w, const xinst *x, unsigned kind, unsigned ndw, ref_fn ref,
                 const x_rawbuf *rb);
void x_vmem_store(wave *w, const xinst *x, unsigned kind, unsigned ndw, ref_fn ref,
                  const x_rawbuf *rb);
/* An atomic of xatomic.h's `op`; d: the registers that receive the pre-op value, or NULL. */
void x_vmem_atomic(wave *w, const xinst *x, int op, int is64, ref_fn ref, uint32_t (*d)[LANES]);
/* A formatted access of nc components (d16: 1 packed halves, 2 the d16_hi form) in the buffer
 * format given as gfx9 DATA_FORMAT `df` and NUM_FORMAT `nf` codes. */
void x_vmem_format(wave *w, const xinst *x, unsigned nc, int d16, int store, unsigned df,
                   unsigned nf, ref_fn ref);
/* The same in one of the packed formats (RDNA buffer formats 10_11_11 ... 2_10_10_10: every
 * component in one dword), with a gfx9 NUM_FORMAT code `nf` (7: the unsigned small floats). */
enum { X_PACKED_10_11_11, X_PACKED_11_11_10, X_PACKED_10_10_10_2, X_PACKED_2_10_10_10, X_PACKED_N };
void x_vmem_format_packed(wave *w, const xinst *x, unsigned nc, int d16, int store, unsigned layout,
                          unsigned nf, ref_fn ref);

#endif
