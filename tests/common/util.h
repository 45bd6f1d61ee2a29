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
/* Run the n bytes of machine code at code (ending in s_endpgm) for arch on w from its current
 * registers, as lanes-wide waves (RDNA: 32 or 64), with budget: the WAVE_* status, -1 if the
 * program did not build (tests/common/snippet.c runs its assembled snippets through it). */
struct wave;
int run_code(struct wave *w, const char *arch, const unsigned char *code, size_t n, unsigned lanes,
             unsigned long long budget);

/* Write a test's OpenCL source text to $BUILD/test-kernels/<name> and its path into path
 * (size bytes).  0, or -1 with a FAIL line when it cannot be written.  Use a fixed name:
 * kbuild.sh compares the content, so the same text written again does not rebuild the code
 * objects built from it. */
int test_write_source(const char *name, const char *text, char *path, size_t size);

/* Build a test kernel with tests/common/kbuild.sh (mode "co", "s" or "o"; args: the clang-22
 * arguments, one string, word-split by the shell), exit(1) with a message if that fails.  When
 * OUT is plainly up to date (the same command, no dependency or compiler newer than OUT) no
 * process is started at all: a kernel suite asks for nine code objects per run. */
void test_kbuild(const char *mode, const char *out, const char *args);

/* ---- a cache of what LLVM's tools answer (tests/common/llvm_oracle.c, tests/common/asm.c) ----
 * LLVM 22 is a fixed oracle: its answer to a question (words to disassemble, text to assemble)
 * depends only on the question and on the LLVM build, so the answers are kept in
 * $BUILD/oracle-cache/ and read back when the same question comes again with the same LLVM.
 * GFXEMU_ORACLE_CACHE=0 in the environment turns the cache off (LLVM answers every time). */

/* FNV-1a over n bytes, continuing from h (start with TEST_HASH0). */
#define TEST_HASH0 0xcbf29ce484222325ull
unsigned long long test_hash(const void *p, size_t n, unsigned long long h);
/* A hash of the file `path` resolves to (a name in $PATH when it has no '/'): its real path,
 * size, mtime and inode; 0 if it cannot be found. */
unsigned long long test_file_identity(const char *path);
/* The cache entry for key: 0 and a malloc'd copy of its data (*data, *n bytes) when there is
 * one and the cache is on, else -1.  name: the entry's file name in $BUILD/oracle-cache/ (from
 * one hash of the question); key2: a second, independent hash stored inside and checked. */
int test_cache_get(const char *name, unsigned long long key2, unsigned char **data, size_t *n);
/* Stores data as the entry (written to a temporary name and renamed: several tests may write
 * the same entry at once); does nothing when the cache is off. */
void test_cache_put(const char *name, unsigned long long key2, const void *data, size_t n);

#endif
