/*
 * api/log.c — log lines to the caller's callback (see api/log.h).
 */
#include "api/log.h"

#include <stdarg.h>
#include <stdio.h>

void cz__log(const cz_logger_t *l, int level, const char *event, const char *fmt, ...)
{
    if (!l || !l->fn || level < l->level)
        return;
    char detail[768] = "";
    if (fmt) {
        va_list ap;
        va_start(ap, fmt);
        vsnprintf(detail, sizeof detail, fmt, ap);
        va_end(ap);
    }
    l->fn(l->user, level, event, detail);
}
