/*
 * daemon/http.h — cuzkd's listeners: HTTP/1.1 over a unix socket (mode
 * daemon.socket_mode, 0660 by default) and optionally TCP, served by
 * libmicrohttpd.
 *
 * Threads: per listener one polling thread (epoll) reads headers and
 * bodies of every connection; a complete request runs cz_api_handle on a
 * worker thread of its own while its connection is suspended (a long poll
 * blocks only its worker). Idle or stalled clients cost a socket, never a
 * worker: a connection must complete its request's headers within
 * daemon.header_timeout seconds however it trickles them (daemon/hdeadline.h),
 * and a body may stall daemon.body_timeout seconds.
 *
 * Limits (daemon/admit.h counts them): past daemon.max_connections open
 * connections (both listeners), or daemon.max_connections_per_ip from one
 * TCP address, a request is answered 503 "busy" + Retry-After: 1 and its
 * connection closed; MHD resets only connections past a fixed overflow
 * beyond those. Request bodies are reserved in daemon.body_budget (from
 * Content-Length at once, in one buffer; chunked ones as they grow), each
 * at CZ_HTTP_BODY_COST times its size: past it 503 "busy" + Retry-After: 2.
 * The buffer is freed as soon as the API has parsed it.
 *
 * On TCP with daemon.auth_token set, every request must carry
 * "Authorization: Bearer <token>" (compared in constant time) or gets 401;
 * without a token TCP binds loopback only (config refuses anything else).
 * The unix socket relies on its file permissions and needs no token.
 *
 * Request bodies over daemon.max_body get 413: at once when Content-Length
 * says so (the connection is closed after the reply), otherwise once the
 * limit is crossed (the rest is read and dropped, never buffered).
 *
 * Thread-safety: start and stop from one thread. cz_http_stop waits for
 * the workers (requests arriving meanwhile get 503 "unavailable"), so it
 * belongs after cz_server_shutdown, which ends their waits.
 */
#ifndef CUZK_DAEMON_HTTP_H
#define CUZK_DAEMON_HTTP_H

#include "daemon/server.h"

/*
 * What a request body costs while it is handled, in multiples of its
 * size, as daemon.body_budget counts it: the buffer, the input decoded
 * out of it (daemon/lift.c; the buffer is freed after the parse), the
 * kind's parse of the input, and the journal's JSON text of the request
 * while ID.job is written. Measured 2026-12-05, before the input was
 * lifted out of jansson's parse: a 60 MiB body that is one JSON string
 * peaked at 276 MiB above the idle daemon (4.6x); issue 36 reported 3.3x
 * for another shape. 2026-12-06 at ef08f37 (lifted): a 60 MiB porep-c2
 * body of one string that is not a C1 peaked at 127 MiB above idle (2.1x:
 * body, lifted input, the kind's refused parse); a C1 that parses adds the
 * parsed C1, so the factor stays. Bodies made of many small JSON values
 * (number arrays) cost more.
 */
#define CZ_HTTP_BODY_COST 5

typedef struct cz_http cz_http_t;

/* Bind the configured listeners and start serving. Errors name the address. */
int cz_http_start(cz_ctx_t *ctx, cz_server_t *s, const cz_dconfig_t *cfg, cz_http_t **out);
/* Stop serving (waits for connection threads), remove the socket file. NULL: no-op. */
void cz_http_stop(cz_http_t *h);

#endif /* CUZK_DAEMON_HTTP_H */
