/*
 * daemon/http.h — cuzkd's listeners: HTTP/1.1 over a unix socket (mode
 * daemon.socket_mode, 0660 by default) and optionally TCP, served by
 * libmicrohttpd with one thread per connection (long polls block only
 * their own connection), at most daemon.max_connections at once.
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
 * Thread-safety: start and stop from one thread; the handler runs on
 * connection threads and calls only cz_api_handle.
 */
#ifndef CUZK_DAEMON_HTTP_H
#define CUZK_DAEMON_HTTP_H

#include "daemon/server.h"

typedef struct cz_http cz_http_t;

/* Bind the configured listeners and start serving. Errors name the address. */
int cz_http_start(cz_ctx_t *ctx, cz_server_t *s, const cz_dconfig_t *cfg, cz_http_t **out);
/* Stop serving (waits for connection threads), remove the socket file. NULL: no-op. */
void cz_http_stop(cz_http_t *h);

#endif /* CUZK_DAEMON_HTTP_H */
