/* disasm.c - public disassembly API on top of the ISA layer (src/isa). */
#include <assert.h>
#include <stdio.h>
#include <string.h>

#include "gfxemu.h"
#include "isa/isa.h"

static_assert((int)ISA_GFX942 == (int)GFX_ARCH_GFX942 && (int)ISA_GFX950 == (int)GFX_ARCH_GFX950 &&
                  (int)ISA_GFX90A == (int)GFX_ARCH_GFX90A &&
                  (int)ISA_GFX1100 == (int)GFX_ARCH_GFX1100 &&
                  (int)ISA_GFX1201 == (int)GFX_ARCH_GFX1201 && (int)ISA_NARCH == GFX_ARCH_COUNT,
              "gfx_arch and isa_arch must number the targets alike");

static uint32_t word0(const uint8_t *p) {
    return (uint32_t)p[0] | (uint32_t)p[1] << 8 | (uint32_t)p[2] << 16 | (uint32_t)p[3] << 24;
}

/* Decode one instruction; 0 when illegal, truncated or arch is out of range. */
static size_t decode(gfx_arch arch, const uint8_t *p, size_t avail, isa_inst *in) {
    if ((unsigned)arch >= GFX_ARCH_COUNT || !p || avail < 4)
        return 0;
    size_t n = isa_decode((isa_arch)arch, p, avail, in);
    return n <= avail ? n : 0;
}

size_t gfx_disasm(gfx_arch arch, const void *bytes, size_t avail, char *text, size_t textsz) {
    char scratch[GFX_DISASM_MAX];
    if (!text || !textsz) {
        text = scratch;
        textsz = sizeof scratch;
    }
    text[0] = 0;
    if ((unsigned)arch >= GFX_ARCH_COUNT || !bytes || avail < 4)
        return 0;
    isa_inst in;
    size_t n = decode(arch, bytes, avail, &in);
    if (n == 0) {
        snprintf(text, textsz, "<illegal 0x%08x>", word0(bytes));
        return 4;
    }
    isa_print(&in, text, textsz);
    return n;
}

static int starts_with(const char *s, const char *prefix) {
    return strncmp(s, prefix, strlen(prefix)) == 0;
}

/* The SOPP branches take a signed 16-bit word offset from the next instruction (CDNA3/CDNA4 ISA,
 * "Program Flow Control"); these are the instructions llvm-objdump annotates with a target. */
int gfx_branch_target(gfx_arch arch, const void *bytes, size_t avail, uint64_t pc,
                      uint64_t *target) {
    isa_inst in;
    if (!decode(arch, bytes, avail, &in) || in.fmt != ISA_FMT_SOPP || in.op >= ISA_NOPS)
        return 0;
    const char *name = isa_op_names[in.op];
    if (!name || !(starts_with(name, "s_branch") || starts_with(name, "s_cbranch_")))
        return 0;
    int16_t simm16 = (int16_t)(word0(bytes) & 0xffff);
    if (target)
        *target = pc + 4 + (uint64_t)((int64_t)simm16 * 4);
    return 1;
}
