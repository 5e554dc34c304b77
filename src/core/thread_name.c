/*
 * core/thread_name.c — see thread_name.h.
 */
#include "core/thread_name.h"

#include <pthread.h>
#include <stdarg.h>
#include <stdio.h>

void cz_thread_name(const char *fmt, ...)
{
    char name[CZ_THREAD_NAME_MAX + 1];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(name, sizeof name, fmt, ap); /* truncates: the kernel refuses longer names */
    va_end(ap);
#ifdef __linux__
    (void)pthread_setname_np(pthread_self(), name);
#endif
}
