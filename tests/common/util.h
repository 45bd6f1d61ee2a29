/* util.h - small helpers the C tests share: where build products go, running a shell command
 * that must succeed, reading a whole file. */
#ifndef GFXEMU_TEST_UTIL_H
#define GFXEMU_TEST_UTIL_H

#include <stddef.h>

/* $BUILD, or "build". */
const char *test_build_dir(void);
/* Run a printf-formatted shell command; exit(1) with a message if it fails. */
void test_sh(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
/* The whole file, malloc'd; exit(1) if it cannot be read. */
unsigned char *test_slurp(const char *path, size_t *size);
/* The isa_arch (src/isa/isa.h) of a target name such as "gfx90a" or "gfx90a:xnack+" (features
 * ignored); ISA_NARCH, which nothing decodes, for an unknown name. */
int test_isa_arch(const char *name);

#endif
