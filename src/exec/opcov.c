/* opcov.c - see opcov.h.  One byte per (target, format, variant, op), set with relaxed atomics
 * (workgroups run on several threads); a destructor writes the set once per process, to a file
 * of its own so that concurrent test processes never share one. */
#include "exec/opcov.h"

#ifdef GFXEMU_OPCOV
#include <stdio.h>
#include <stdlib.h>
#include <unistd.h>

#define NVAR 5 /* ISA_VAR_NONE..ISA_VAR_DPP */
static unsigned char hit[ISA_NARCH][ISA_NFMT][NVAR][ISA_NOPS];

void x_opcov_hit(const xprog *p, const xinst *x) {
    unsigned a = p->arch, f = x->in.fmt, v = x->in.variant, op = x->in.op;
    if (op == ISA_OP_ILLEGAL || a >= ISA_NARCH || f >= ISA_NFMT || v >= NVAR || op >= ISA_NOPS)
        return;
    unsigned char *h = &hit[a][f][v][op];
    if (!__atomic_load_n(h, __ATOMIC_RELAXED))
        __atomic_store_n(h, 1, __ATOMIC_RELAXED);
    /* An RDNA VOPD instruction issues two ops: in.op is its X half, in.flags its Y half
     * (src/isa/vopd_rdna.c); both count as executed in the VOPD format. */
    if (f == ISA_FMT_VOPD && x->in.flags != ISA_OP_ILLEGAL && x->in.flags < ISA_NOPS) {
        h = &hit[a][f][v][x->in.flags];
        if (!__atomic_load_n(h, __ATOMIC_RELAXED))
            __atomic_store_n(h, 1, __ATOMIC_RELAXED);
    }
}

/* Lines "target format variant op" (names as isa_arch_name/isa_fmt_name print them). */
__attribute__((destructor)) static void opcov_write(void) {
    static const char *const var[NVAR] = {"-", "e32", "e64", "sdwa", "dpp"};
    const char *dir = getenv("GFXEMU_OPCOV_DIR");
    if (!dir || !*dir)
        return;
    char path[4096];
    snprintf(path, sizeof path, "%s/opcov.%ld", dir, (long)getpid());
    FILE *f = NULL;
    for (unsigned a = 0; a < ISA_NARCH; a++)
        for (unsigned m = 0; m < ISA_NFMT; m++)
            for (unsigned v = 0; v < NVAR; v++)
                for (unsigned op = 0; op < ISA_NOPS; op++) {
                    if (!hit[a][m][v][op])
                        continue;
                    if (!f && !(f = fopen(path, "a"))) {
                        fprintf(stderr, "gfxemu: opcov: cannot write %s\n", path);
                        return;
                    }
                    fprintf(f, "%s %s %s %s\n", isa_arch_name((isa_arch)a),
                            isa_fmt_name((isa_fmt)m), var[v], isa_op_names[op]);
                }
    if (f)
        fclose(f);
}
#else
typedef int x_opcov_unused; /* ISO C wants a translation unit to declare something */
#endif
