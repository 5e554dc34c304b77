/*
 * daemon/hdeadline.h — the header deadline of the HTTP listeners: a
 * connection must complete its request's headers within
 * daemon.header_timeout seconds of opening (or of its previous request's
 * end, when kept alive), however it trickles. libmicrohttpd's own timeout
 * only measures silence, so a client sending a byte a second would hold its
 * connection for as long as its header buffer lasts.
 *
 * A watcher thread wakes a few times per deadline and shuts down (shutdown(2),
 * both ways) the socket of every connection past it; its owner (MHD) then
 * sees the end of the stream and closes the connection the usual way. The
 * socket is never closed here, and an entry is removed before its owner
 * closes the descriptor, so a shutdown never reaches a reused number.
 *
 * Memory: entries (cz_hdeadline_conn_t) are the caller's, linked in while
 * added; the watcher is allocated by cz_hdeadline_start and freed by
 * cz_hdeadline_stop (NULL: no-op).
 * Thread-safety: add / request / remove / counts from any thread (one
 * internal mutex, held while a socket is shut down); start and stop from
 * one thread, stop after every entry is removed or while none can be added.
 * Errors: cz_hdeadline_start returns CZ_ENOMEM (no thread, no memory).
 */
#ifndef CUZK_DAEMON_HDEADLINE_H
#define CUZK_DAEMON_HDEADLINE_H

#include <stdbool.h>

typedef struct cz_hdeadline cz_hdeadline_t;

typedef struct cz_hdeadline_conn {
    int fd;
    double since;    /* (mu) when its headers started to be due (monotonic s) */
    bool in_request; /* (mu) headers complete, the request not over */
    bool cut;        /* (mu) shut down already */
    struct cz_hdeadline_conn *prev, *next; /* (mu) */
} cz_hdeadline_conn_t;

int cz_hdeadline_start(cz_hdeadline_t **out, double deadline_s);
void cz_hdeadline_stop(cz_hdeadline_t *w);

/* A connection on |fd| opened: its headers are due within the deadline from now. */
void cz_hdeadline_add(cz_hdeadline_t *w, cz_hdeadline_conn_t *e, int fd);
/* true: its headers are complete (no deadline while the request runs);
 * false: its request ended, the next one's headers are due from now. */
void cz_hdeadline_request(cz_hdeadline_t *w, cz_hdeadline_conn_t *e, bool in_request);
/* Forget |e|; call before its descriptor is closed. */
void cz_hdeadline_remove(cz_hdeadline_t *w, cz_hdeadline_conn_t *e);
/* How many connections were cut at the deadline since start. */
unsigned long cz_hdeadline_cut_count(cz_hdeadline_t *w);

#endif /* CUZK_DAEMON_HDEADLINE_H */
