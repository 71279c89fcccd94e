/* The check macro of the C test programs: count every check, report each that fails. */
#ifndef CC_SEARCH_TEST_CHECK_H
#define CC_SEARCH_TEST_CHECK_H

#include <stdio.h>

static int checks = 0, failures = 0;

#define CHECK(cond)                                                        \
    do {                                                                   \
        checks++;                                                          \
        if (!(cond)) {                                                     \
            failures++;                                                    \
            fprintf(stderr, "FAILED %s:%d: %s\n", __FILE__, __LINE__, #cond); \
        }                                                                  \
    } while (0)

/* Print how the checks went ("ok <n> checks", or how many failed); main's exit status. */
static int check_report(void) {
    if (failures) {
        fprintf(stderr, "%d of %d checks failed\n", failures, checks);
        return 1;
    }
    printf("ok %d checks\n", checks);
    return 0;
}

#endif
