/*
 * daemon/log.c — structured log lines (see daemon/log.h).
 */
#include "daemon/log.h"

#include <stdarg.h>
#include <stdatomic.h>
#include <string.h>
#include <time.h>

static _Atomic int g_level = CZ_LOG_INFO;
static FILE *_Atomic g_stream;

static const char *const level_names[] = { "debug", "info", "warn", "error" };

bool cz_log_level_parse(const char *name, cz_log_level_t *out)
{
    for (int i = 0; i < 4; i++)
        if (name && !strcmp(name, level_names[i])) {
            *out = (cz_log_level_t)i;
            return true;
        }
    return false;
}

const char *cz_log_level_name(cz_log_level_t level)
{
    return level >= CZ_LOG_DEBUG && level <= CZ_LOG_ERROR ? level_names[level] : "?";
}

void cz_log_set_level(cz_log_level_t level)
{
    g_level = level;
}
void cz_log_set_stream(FILE *f)
{
    g_stream = f;
}
bool cz_log_enabled(cz_log_level_t level)
{
    return (int)level >= g_level;
}

const char *cz_log_q(char *buf, size_t cap, const char *s)
{
    size_t n = 0;
    if (cap < 3) {
        if (cap)
            buf[0] = '\0';
        return buf;
    }
    buf[n++] = '"';
    for (; s && *s && n + 3 < cap; s++) {
        unsigned char c = (unsigned char)*s;
        if (c == '"' || c == '\\') {
            buf[n++] = '\\';
            buf[n++] = (char)c;
        } else if (c < 0x20 || c == 0x7f) {
            buf[n++] = ' ';
        } else {
            buf[n++] = (char)c;
        }
    }
    buf[n++] = '"';
    buf[n] = '\0';
    return buf;
}

void cz_log(cz_log_level_t level, const char *msg, const char *fmt, ...)
{
    if (!cz_log_enabled(level))
        return;
    char line[2048], q[512];
    struct timespec ts;
    struct tm tm;
    clock_gettime(CLOCK_REALTIME, &ts);
    gmtime_r(&ts.tv_sec, &tm);
    int n = snprintf(line, sizeof line, "%04d-%02d-%02dT%02d:%02d:%02d.%03ldZ level=%s msg=%s",
                     tm.tm_year + 1900, tm.tm_mon + 1, tm.tm_mday, tm.tm_hour, tm.tm_min, tm.tm_sec,
                     ts.tv_nsec / 1000000, cz_log_level_name(level), cz_log_q(q, sizeof q, msg));
    if (n < 0 || (size_t)n >= sizeof line - 2)
        n = (int)sizeof line - 2;
    if (fmt && *fmt) {
        line[n++] = ' ';
        va_list ap;
        va_start(ap, fmt);
        int m = vsnprintf(line + n, sizeof line - (size_t)n - 1, fmt, ap);
        va_end(ap);
        if (m > 0)
            n += (size_t)m < sizeof line - (size_t)n - 1 ? m : (int)(sizeof line - (size_t)n - 2);
    }
    line[n++] = '\n';
    FILE *f = g_stream ? g_stream : stderr;
    fwrite(line, 1, (size_t)n, f);
    fflush(f);
}

void cz_log_from_library(void *user, int level, const char *event, const char *detail)
{
    (void)user;
    /* the library's levels are cuzk.h's CZ_LOG_LEVEL_*, in the same order as ours */
    cz_log_level_t l = level <= CZ_LOG_DEBUG   ? CZ_LOG_DEBUG
                       : level >= CZ_LOG_ERROR ? CZ_LOG_ERROR
                                               : (cz_log_level_t)level;
    cz_log(l, event, "%s", detail && *detail ? detail : "");
}
