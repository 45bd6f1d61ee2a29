/* llvm_oracle.h - LLVM 22's AMDGPU disassembler as a test oracle (loaded with dlopen).
 *
 * Tests compare gfxemu's decoder/printer with LLVM word by word.  LLVM 22 crashes on a few
 * encodings (e.g. SDWA selector values 6 and 7), so batches run in a forked child and a word
 * that kills the child is reported as ORACLE_CRASH instead of taking the test down. */
#ifndef GFXEMU_TEST_LLVM_ORACLE_H
#define GFXEMU_TEST_LLVM_ORACLE_H

#include <stddef.h>
#include <stdint.h>

#define ORACLE_TEXT 640 /* LLVM lines with several annotations exceed 300 characters */
#define ORACLE_CRASH (-1)

typedef struct oracle_result {
    int size;               /* bytes consumed; 0 = LLVM rejects the word; ORACLE_CRASH */
    char text[ORACLE_TEXT]; /* instruction text without the leading tab */
} oracle_result;

/* Returns 0 on success, -1 (with a message on stderr) if libLLVM.so.22.1 cannot be loaded. */
int oracle_init(void);
/* arch: "gfx950" or "gfx942".  words[i] holds up to 4 dwords of instruction i.  The answers
 * come from $BUILD/oracle-cache/ when LLVM (the same libLLVM) was asked these words for this
 * target before (see llvm_oracle.c); GFXEMU_ORACLE_CACHE=0 in the environment asks LLVM always. */
void oracle_batch(const char *arch, const uint32_t (*words)[4], size_t n, oracle_result *out);
/* on = 0: batches from now on neither read nor write the cache (words that will not come again,
 * such as a time-seeded random sweep's). */
void oracle_cache(int on);

#endif
