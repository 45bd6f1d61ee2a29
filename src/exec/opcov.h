/* opcov.h - opcode coverage for the test audit (docs/testing.md), only in builds made with
 * -DGFXEMU_OPCOV (`make coverage`): the wave loops record every (target, format, encoding
 * variant, op) they execute, and the set is written at process exit to
 * $GFXEMU_OPCOV_DIR/opcov.<pid>.  Normal builds compile none of it. */
#ifndef GFXEMU_OPCOV_H
#define GFXEMU_OPCOV_H

#ifdef GFXEMU_OPCOV
#include "exec/exec.h"

void x_opcov_hit(const xprog *p, const xinst *x);
#endif

#endif
