/*
 * daemon/admit.h — admission control of the HTTP listeners: how many
 * connections are open (in all, and per client address on TCP) and how
 * many bytes of request bodies are buffered, against the limits
 * daemon.max_connections, daemon.max_connections_per_ip and
 * daemon.body_budget.
 *
 * A connection over a limit is still counted (it is open); the listener
 * answers its request 503 + Retry-After and closes it, rather than
 * resetting it, so the client knows to come back. Body bytes are reserved
 * before they are buffered and released when the request ends.
 *
 * Memory: cz_admit_new allocates; cz_admit_free frees (NULL: no-op).
 * Thread-safety: every function may be called from any thread (one
 * internal mutex); new/free from one thread, with no other call running.
 * Errors: cz_admit_new returns CZ_ENOMEM; the rest cannot fail.
 */
#ifndef CUZK_DAEMON_ADMIT_H
#define CUZK_DAEMON_ADMIT_H

#include <stdbool.h>
#include <stddef.h>
#include <sys/socket.h>

typedef struct cz_admit cz_admit_t;

typedef enum {
    CZ_ADMIT_OK = 0,
    CZ_ADMIT_FULL,   /* over max_connections */
    CZ_ADMIT_PER_IP, /* over max_connections_per_ip from this address */
} cz_admit_verdict_t;

/* per_ip 0 = no per-address cap. */
int cz_admit_new(cz_admit_t **out, long max_connections, long per_ip, size_t body_budget);
void cz_admit_free(cz_admit_t *a);

/*
 * A connection opened from |peer| (an AF_INET/AF_INET6 address, counted per
 * address; anything else, e.g. NULL or AF_UNIX, only in the total). Always
 * counted: every open must be matched by cz_admit_close with the same peer.
 */
cz_admit_verdict_t cz_admit_open(cz_admit_t *a, const struct sockaddr *peer);
void cz_admit_close(cz_admit_t *a, const struct sockaddr *peer);

/* Reserve |n| body bytes: false (nothing reserved) when that would pass the budget. */
bool cz_admit_body(cz_admit_t *a, size_t n);
void cz_admit_body_release(cz_admit_t *a, size_t n);

/* Snapshot for logs and tests: connections open, body bytes reserved. */
void cz_admit_counts(cz_admit_t *a, long *open, size_t *body_bytes);

#endif /* CUZK_DAEMON_ADMIT_H */
