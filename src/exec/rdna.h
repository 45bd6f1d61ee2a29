/* rdna.h - the RDNA allowlist's row format (src/exec/rdna.c), shared with the files that hold
 * RDNA-only handlers and their rows (src/exec/rdna_alu.c).  Internal to exec/. */
#ifndef GFXEMU_RDNA_H
#define GFXEMU_RDNA_H

#include "exec/exec.h"

/* R_OWNV: an RDNA-only handler that fetches and writes through the VALU framework (vs32/vd32),
 * so it takes DPP16/DPP8 forms like a family handler; plain R_OWN handlers refuse them. */
enum { R_RUN, R_AS, R_OWN, R_OWNV };
/* t16: how a row takes gfx11 true16 operands (VGPR halves v5.l / v5.h): R16_NO refuses them,
 * R16_OPSEL runs them (the halves are folded into op_sel at build time; the handler reads its
 * 16-bit sources with FK_F16/FK_I16 and writes its 16-bit result with vd16()), R16_LO accepts
 * low halves only (a handler that reads the low bits of a whole register, e.g. a shift count). */
enum { R16_NO, R16_OPSEL, R16_LO };
typedef struct {
    uint16_t op, twin; /* R_AS: the CDNA op whose handler runs */
    uint8_t how, type, t16;
    xfn fn; /* R_OWN */
} rdna_row;

#define RUN(op) {ISA_OPL_##op, 0, R_RUN, 0, R16_NO, NULL}
#define AS(op, twin) {ISA_OPL_##op, ISA_OPL_##twin, R_AS, 0, R16_NO, NULL}
#define OWN(op, type, fn) {ISA_OPL_##op, 0, R_OWN, type, R16_NO, fn}
#define OWNV(op, type, fn) {ISA_OPL_##op, 0, R_OWNV, type, R16_NO, fn}
/* the same with 16-bit operands that may name VGPR halves */
#define RUN16(op) {ISA_OPL_##op, 0, R_RUN, 0, R16_OPSEL, NULL}
#define AS16(op, twin) {ISA_OPL_##op, ISA_OPL_##twin, R_AS, 0, R16_OPSEL, NULL}
#define OWN16(op, type, fn) {ISA_OPL_##op, 0, R_OWN, type, R16_OPSEL, fn}
#define OWNV16(op, type, fn) {ISA_OPL_##op, 0, R_OWNV, type, R16_OPSEL, fn}
#define RUNLO(op) {ISA_OPL_##op, 0, R_RUN, 0, R16_LO, NULL}

/* rdna_alu.c: RDNA-only VALU, SALU and message handlers, and their rows (all targets' and the
 * wave32 overrides) */
extern const rdna_row x_rdna_alu_rows[], x_rdna_alu_w32[];
extern const unsigned x_rdna_alu_nrows, x_rdna_alu_nw32;
/* rdna_mem.c: RDNA buffer memory, DS_CMPSTORE, the cross-lane ops and their rows */
extern const rdna_row x_rdna_mem_rows[];
extern const unsigned x_rdna_mem_nrows;
/* rdna_vop3p.c: the dot-product ops */
extern const rdna_row x_rdna_vop3p_rows[];
extern const unsigned x_rdna_vop3p_nrows;

#endif
