/* opcov.h - opcode coverage for the test audit (docs/testing.md), only in builds made with
 * -DGFXEMU_OPCOV (`make coverage`): the wave loops record every (target, format, encoding
 * variant, op) they execute, and the set is written at process exit to
 * $GFXEMU_OPCOV_DIR/opcov.<pid>.  Normal builds compile none of it. */
#ifndef GFXEMU_OPCOV_H
#define GFXEMU_OPCOV_H

#include "exec/exec.h"

/* Whether xprog_build gave x a handler: the audit's "implemented" (exec.c; in every build, the
 * report links a normal library too). */
int x_runs(const xinst *x);

#ifdef GFXEMU_OPCOV
void x_opcov_hit(const xprog *p, const xinst *x);
#endif

#endif
