/*
 * daemon/errmap.h — the one table of the daemon's API errors: each error's
 * HTTP status, name and gRPC status code, and which error a CZ_E* code of
 * a server call becomes. Every front door (HTTP: daemon/api.c, http.c; a
 * gRPC door) answers through it, and docs/API.md lists exactly these rows
 * (tests/daemon/test_errmap checks the two against each other).
 *
 * Three contexts pick the error:
 *   - a request that failed (submit, status, cancel, list):
 *     cz_errmap_of(rc, CZ_ERRMAP_REQUEST);
 *   - a params endpoint (preload / evict), where a file that is not
 *     params of the right form is the params' fault, not the request's:
 *     cz_errmap_of(rc, CZ_ERRMAP_PARAMS);
 *   - fetching the proof of a job that ended without one: the job's own
 *     error is in the message, the error is the outcome (job_failed,
 *     job_canceled, job_lost) whatever code the job failed with.
 *
 * Thread-safety: immutable tables; every function may be called anywhere.
 */
#ifndef CUZK_DAEMON_ERRMAP_H
#define CUZK_DAEMON_ERRMAP_H

/* gRPC status codes (grpc/include/grpcpp/support/status_code_enum.h numbering). */
#define CZ_GRPC_CANCELLED 1
#define CZ_GRPC_INVALID_ARGUMENT 3
#define CZ_GRPC_NOT_FOUND 5
#define CZ_GRPC_ALREADY_EXISTS 6
#define CZ_GRPC_RESOURCE_EXHAUSTED 8
#define CZ_GRPC_FAILED_PRECONDITION 9
#define CZ_GRPC_ABORTED 10
#define CZ_GRPC_UNIMPLEMENTED 12
#define CZ_GRPC_INTERNAL 13
#define CZ_GRPC_UNAVAILABLE 14
#define CZ_GRPC_DATA_LOSS 15
#define CZ_GRPC_UNAUTHENTICATED 16

/* X(ID, http status, name, gRPC code, when) — in the order docs/API.md lists them. */
/* laid out by hand: */
/* clang-format off */
#define CZ_API_ERRORS(X)                                                                       \
    X(INVALID_JSON, 400, "invalid_json", CZ_GRPC_INVALID_ARGUMENT,                             \
      "body is not JSON / not an object (message has line and column)")                       \
    X(INVALID_REQUEST, 400, "invalid_request", CZ_GRPC_INVALID_ARGUMENT,                       \
      "a field is missing, unknown or out of range (message names it)")                       \
    X(UNAUTHORIZED, 401, "unauthorized", CZ_GRPC_UNAUTHENTICATED,                              \
      "TCP without the right bearer token")                                                   \
    X(NOT_FOUND, 404, "not_found", CZ_GRPC_NOT_FOUND,                                          \
      "unknown route, job id, params name, input file")                                       \
    X(METHOD_NOT_ALLOWED, 405, "method_not_allowed", CZ_GRPC_UNIMPLEMENTED,                    \
      "wrong method for the route (message lists the allowed ones)")                          \
    X(CONFLICT, 409, "conflict", CZ_GRPC_ALREADY_EXISTS,                                       \
      "`request_id` reused with a different request")                                         \
    X(PARAMS_IN_USE, 409, "params_in_use", CZ_GRPC_FAILED_PRECONDITION,                        \
      "evict: a job is using the params; retry after it ends")                                \
    X(JOB_CANCELED, 410, "job_canceled", CZ_GRPC_CANCELLED, "proof of a canceled job")         \
    X(JOB_LOST, 410, "job_lost", CZ_GRPC_DATA_LOSS,                                            \
      "proof of a job whose journal entry was corrupt (state `lost`, message = why)")        \
    X(BODY_TOO_LARGE, 413, "body_too_large", CZ_GRPC_RESOURCE_EXHAUSTED,                       \
      "body over `daemon.max_body`")                                                          \
    X(UNSUPPORTED_MEDIA_TYPE, 415, "unsupported_media_type", CZ_GRPC_INVALID_ARGUMENT,         \
      "POST body not `application/json`")                                                     \
    X(JOB_FAILED, 422, "job_failed", CZ_GRPC_FAILED_PRECONDITION,                              \
      "proof of a failed job (message = the job's error, whatever its code)")                 \
    X(INVALID_PARAMS, 422, "invalid_params", CZ_GRPC_FAILED_PRECONDITION,                      \
      "preload / evict: the file is not params of the right form or shape")                   \
    X(INTERNAL, 500, "internal", CZ_GRPC_INTERNAL, "a bug in cuzkd (message says where)")      \
    X(UNAVAILABLE, 503, "unavailable", CZ_GRPC_UNAVAILABLE,                                    \
      "shutting down (submits refused); a backend not usable")                                \
    X(OUT_OF_MEMORY, 503, "out_of_memory", CZ_GRPC_RESOURCE_EXHAUSTED,                         \
      "the daemon is out of memory; retry later")                                             \
    X(BUSY, 503, "busy", CZ_GRPC_RESOURCE_EXHAUSTED,                                           \
      "the connection limits or `daemon.body_budget` reached; retry after `Retry-After` seconds") \
    X(STORAGE_UNAVAILABLE, 503, "storage_unavailable", CZ_GRPC_UNAVAILABLE,                    \
      "the journal could not be written (disk full or failing) or a file read; retry later")
/* clang-format on */

typedef enum {
#define CZ__API_ERR_ENUM(id, http, name, grpc, when) CZ_API_E_##id,
    CZ_API_ERRORS(CZ__API_ERR_ENUM)
#undef CZ__API_ERR_ENUM
        CZ_API_E__COUNT
} cz_api_err_t;

typedef struct {
    int http;
    const char *name;
    int grpc;
    const char *when;
} cz_api_err_info_t;

typedef enum { CZ_ERRMAP_REQUEST, CZ_ERRMAP_PARAMS } cz_errmap_ctx_t;

/* The row of |e| (never NULL; an out-of-range e gives INTERNAL's). */
const cz_api_err_info_t *cz_api_err_info(cz_api_err_t e);
/* The API error a CZ_E* code of a server call becomes in |where|. */
cz_api_err_t cz_errmap_of(int rc, cz_errmap_ctx_t where);
/* The gRPC status code a CZ_E* code of a server call becomes in |where| (its row's). */
int cz_errmap_grpc(int rc, cz_errmap_ctx_t where);
/* "INVALID_ARGUMENT" for CZ_GRPC_INVALID_ARGUMENT, ...; "UNKNOWN" otherwise. */
const char *cz_grpc_code_name(int code);

/* X(CZ code name, error in a request, error on a params endpoint) — every CZ_E* but OK. */
/* laid out by hand: */
/* clang-format off */
#define CZ_ERRMAP_CODES(X)                                        \
    X(INVAL, INVALID_REQUEST, INVALID_REQUEST)                    \
    X(NOMEM, OUT_OF_MEMORY, OUT_OF_MEMORY)                        \
    X(IO, STORAGE_UNAVAILABLE, STORAGE_UNAVAILABLE)               \
    X(FORMAT, INVALID_REQUEST, INVALID_PARAMS)                    \
    X(MISMATCH, INVALID_REQUEST, INVALID_PARAMS)                  \
    X(RANGE, INVALID_REQUEST, INVALID_PARAMS)                     \
    X(UNSAT, INVALID_REQUEST, INVALID_REQUEST)                    \
    X(VERIFY, INTERNAL, INTERNAL)                                 \
    X(DEVICE, INTERNAL, INTERNAL)                                 \
    X(UNAVAIL, UNAVAILABLE, UNAVAILABLE)                          \
    X(CANCELED, JOB_CANCELED, JOB_CANCELED)                       \
    X(BUSY, CONFLICT, PARAMS_IN_USE)                              \
    X(NOTFOUND, NOT_FOUND, NOT_FOUND)                             \
    X(INTERNAL, INTERNAL, INTERNAL)
/* clang-format on */

#endif /* CUZK_DAEMON_ERRMAP_H */
