/* asm.h - assemble instruction snippets for tests with gfxemu's own assembler, in-process (real
 * encodings, never hand-written words); GFXEMU_ASM_CROSSCHECK compares them with llvm-mc-22's. */
#ifndef GFXEMU_TEST_ASM_H
#define GFXEMU_TEST_ASM_H

#include <stddef.h>
#include <stdint.h>

/* Assemble `text` (instructions separated by newlines or ';'-free lines) for arch ("gfx950").
 * Returns a malloc'd byte buffer and its size in *n, or NULL with a message on stderr. */
uint8_t *asm_snippet(const char *arch, const char *text, size_t *n);
/* Set by a failed asm_snippet when the mnemonic is unknown on arch (llvm-mc-22: "instruction not
 * supported on this GPU"). */
extern int asm_not_on_target;

#endif
