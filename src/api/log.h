/*
 * api/log.h — the library's log lines go to the caller's callback
 * (cz_prover_config_t.log), never to a stream of its own: a daemon sends
 * them to its structured log, a CLI drops them, a Go program to its logger.
 *
 * A cz_logger_t is a value (callback, user pointer, least level); a zero
 * one logs nothing. cz__log formats only when the level passes.
 * Thread-safety: as the callback's.
 */
#ifndef CUZK_API_LOG_H
#define CUZK_API_LOG_H

#include "cuzk.h"

typedef struct cz_logger {
    cz_log_cb *fn; /* NULL: nothing is logged */
    void *user;
    int level; /* least level passed on (CZ_LOG_LEVEL_*) */
} cz_logger_t;

/* Pass |event| and the "key=value ..." pairs of |fmt| (may be NULL) to the logger. */
void cz__log(const cz_logger_t *l, int level, const char *event, const char *fmt, ...)
#if defined(__GNUC__)
    __attribute__((format(printf, 4, 5)))
#endif
    ;

#endif /* CUZK_API_LOG_H */
