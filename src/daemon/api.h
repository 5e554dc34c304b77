/*
 * daemon/api.h — the HTTP/1.1 + JSON API as a pure function: a parsed
 * request in, a response out. The socket side (daemon/http.c) and the
 * fuzz target (tests/daemon/fuzz_api.c) both drive it; it never touches a
 * socket and never trusts its input: every malformed request becomes a 4xx
 * with a JSON error naming the problem:
 *
 *     {"error": "invalid_request", "message": "priority: must be 1..4 ...", "status": 400}
 *
 * Routes (docs/API.md has them with examples):
 *   POST   /v1/proofs                    submit                201 / 200 (existing)
 *   GET    /v1/proofs[?state=S]          list                  200
 *   GET    /v1/proofs/{id}               status                200
 *   GET    /v1/proofs/{id}/proof?wait=S[&format=json]   proof  200 / 202 not ready
 *   DELETE /v1/proofs/{id}               cancel                200
 *   GET    /v1/status                    daemon status         200
 *   POST   /v1/params/preload {"params"} load into the cache   200
 *   POST   /v1/params/evict   {"params"} drop from the cache   200 / 409 in use
 *   GET    /metrics                      Prometheus text       200
 *
 * Thread-safety: cz_api_handle may run on many connection threads at once.
 */
#ifndef CUZK_DAEMON_API_H
#define CUZK_DAEMON_API_H

#include <stdbool.h>
#include <stddef.h>

#include "daemon/errmap.h"
#include "daemon/server.h"

typedef struct cz_api_req {
    const char *method; /* "GET", ... */
    const char *path;   /* without the query */
    /* query argument |key| or NULL (borrowed) */
    const char *(*arg)(void *cls, const char *key);
    void *arg_cls;
    const char *content_type; /* NULL when absent */
    const char *body;         /* NULL when none */
    size_t body_len;
    /* The transport lets the handler rewrite |body| in place (http.c, fuzz_api): a
     * submit's "input" string is then decoded out of the body into its own buffer
     * (daemon/jsonio.h cz_json_lift_input) instead of through jansson's two copies. */
    bool body_writable;
    bool body_too_large; /* the transport dropped a body over daemon.max_body */
    /* Called (when set) once the body has been parsed, before the request is
     * acted on: the transport may free |body| then (a large body's buffer
     * need not live on beside its parsed document). At most once. */
    void (*body_parsed)(void *cls);
    void *body_cls;
} cz_api_req_t;

typedef struct cz_api_resp {
    int status;
    const char *content_type; /* static string */
    char *body;               /* malloc'd; the caller frees */
    size_t len;
} cz_api_resp_t;

void cz_api_handle(cz_server_t *s, const cz_api_req_t *req, cz_api_resp_t *resp);
/* The JSON error body of |err| (its status and name from daemon/errmap.h; transport
 * errors too: 401, 413 before the handler). */
void cz_api_error(cz_api_resp_t *resp, cz_api_err_t err, const char *fmt, ...)
#if defined(__GNUC__)
    __attribute__((format(printf, 3, 4)))
#endif
    ;

#endif /* CUZK_DAEMON_API_H */
