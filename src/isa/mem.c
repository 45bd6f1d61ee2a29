/* mem.c - placeholder until the family decoder lands: every word is reported illegal. */
#include "isa/isa.h"

size_t isa_dec_mem(isa_arch arch, isa_fmt f, const uint32_t *w, size_t nw, isa_inst *in)
{
    (void)arch, (void)f, (void)w, (void)nw, (void)in;
    return 0;
}

void isa_print_mem(isa_buf *b, const isa_inst *in)
{
    (void)in;
    isa_puts(b, "<unprinted>");
}
