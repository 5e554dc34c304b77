/*
 * daemon/log.h — cuzkd's structured log: one line per event, levels gated
 * before any formatting.
 *
 * Line format (logfmt, one line, greppable next to TIMELINE lines):
 *
 *     2025-01-31T12:00:00.123Z level=info msg="job queued" id=3f2a... kind=circuit
 *
 * The message is quoted (", \ and control characters escaped); the caller
 * appends key=value pairs through the printf-style |fmt| of cz_log(), whose
 * values must not contain blanks (use cz_log_q for a quoted one).
 *
 * Thread-safety: cz_log may be called from any thread; each line is written
 * with one fwrite on an unbuffered-by-line stream, so lines never interleave.
 * cz_log_set_level / cz_log_set_stream are for start-up (before threads).
 */
#ifndef CUZK_DAEMON_LOG_H
#define CUZK_DAEMON_LOG_H

#include <stdbool.h>
#include <stdio.h>

typedef enum { CZ_LOG_DEBUG, CZ_LOG_INFO, CZ_LOG_WARN, CZ_LOG_ERROR } cz_log_level_t;

/* "debug", "info", "warn", "error" -> level; false for anything else. */
bool cz_log_level_parse(const char *name, cz_log_level_t *out);
const char *cz_log_level_name(cz_log_level_t level);
void cz_log_set_level(cz_log_level_t level);
/* Borrowed; NULL restores stderr. */
void cz_log_set_stream(FILE *f);
bool cz_log_enabled(cz_log_level_t level);

/*
 * Log |msg| at |level| with extra "key=value ..." pairs from |fmt| (may be
 * NULL). Nothing is formatted when the level is disabled.
 */
void cz_log(cz_log_level_t level, const char *msg, const char *fmt, ...)
#if defined(__GNUC__)
    __attribute__((format(printf, 3, 4)))
#endif
    ;

/*
 * The library's log callback (cuzk.h cz_log_cb) writing to this log: the
 * library's lines (params loads and evictions, the backend chosen) appear
 * in cuzkd's log in its one format. |user| is unused.
 */
void cz_log_from_library(void *user, int level, const char *event, const char *detail);

/* Quote |s| into buf (logfmt string, truncated to fit); returns buf. */
const char *cz_log_q(char *buf, size_t cap, const char *s);

#define CZ_LOGD(msg, ...) cz_log(CZ_LOG_DEBUG, msg, __VA_ARGS__)
#define CZ_LOGI(msg, ...) cz_log(CZ_LOG_INFO, msg, __VA_ARGS__)
#define CZ_LOGW(msg, ...) cz_log(CZ_LOG_WARN, msg, __VA_ARGS__)
#define CZ_LOGE(msg, ...) cz_log(CZ_LOG_ERROR, msg, __VA_ARGS__)

#endif /* CUZK_DAEMON_LOG_H */
