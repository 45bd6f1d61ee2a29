/* check.h - the CHECK macro the C tests share: counts checks, prints failures with their
 * location and a printf-style message, and never stops the test early. */
#ifndef GFXEMU_TEST_CHECK_H
#define GFXEMU_TEST_CHECK_H

#include <stdarg.h>
#include <stdio.h>

static int check_fails, check_count;

#define CHECK(cond, ...)                                                                           \
    do {                                                                                           \
        check_count++;                                                                             \
        if (!(cond)) {                                                                             \
            check_fails++;                                                                         \
            printf("FAIL %s:%d: CHECK(%s): ", __FILE__, __LINE__, #cond);                          \
            printf(__VA_ARGS__);                                                                   \
            printf("\n");                                                                          \
        }                                                                                          \
    } while (0)

/* A CHECK whose condition says it all (hand-checked decoded fields and the like). */
#define EXPECT(cond) CHECK(cond, "a value worked out by hand")

/* Print a failure of the snippet tests that keep their own counts (test_valu.c, test_round.c,
 * test_lowp.c): "FAIL arch [what]: " (no arch when NULL), the printf-style message, a newline. */
static inline void check_vprint_fail(const char *arch, const char *what, const char *fmt,
                                     va_list ap) {
    if (arch)
        printf("FAIL %s [%s]: ", arch, what);
    else
        printf("FAIL [%s]: ", what);
    vprintf(fmt, ap);
    printf("\n");
}

/* Print "name: N checks, N failed" for the given counts and return the exit status. */
static inline int check_report(const char *name, int checks, int fails) {
    printf("%s: %d checks, %d failed\n", name, checks, fails);
    return fails != 0;
}

/* check_report of CHECK's counts. */
static inline int check_summary(const char *name) {
    return check_report(name, check_count, check_fails);
}

#endif
