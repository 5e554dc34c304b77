/*
 * core/mutex.c — the assertion failure path (see core/mutex.h).
 */
#include "core/mutex.h"

#include <stdio.h>
#include <stdlib.h>

void cz__assert_fail(const char *file, int line, const char *cond)
{
    fprintf(stderr, "%s:%d: assertion failed: %s (a bug in cuzk)\n", file, line, cond);
    abort();
}
