/*
 * daemon/grpc/service.h — the eight cuzk.v1.ProvingEngine methods over the
 * daemon's job layer (daemon/server.h), free of any transport: a handler
 * takes the request message's bytes and returns the response's bytes and a
 * gRPC status. daemon/grpc/server.c carries them over gRPC's C core.
 *
 * Semantics (docs/API.md "gRPC"):
 *  - Prove: submit (cz_server_submit with retry: a retry with the same
 *    request_id attaches to the running job, or returns the finished
 *    proof, also after a restart), then wait as one of the job's waiters.
 *    When the client goes away (cancel, deadline) and no other call waits
 *    on the job, the job is canceled. The answer is always a ProveResponse
 *    with status COMPLETED (the verified proof), FAILED (error_message names
 *    the field and problem, or the job's failure) or CANCELLED.
 *  - gRPC status INVALID_ARGUMENT only when the request message does not
 *    parse; UNAVAILABLE while the daemon shuts down (the job stays
 *    journaled); NOT_FOUND for an unknown job id; RESOURCE_EXHAUSTED over
 *    the 256 MiB message limit comes from gRPC itself.
 *  - SubmitProof has no error field: a request the daemon refuses is
 *    INVALID_ARGUMENT with the same message Prove would put in
 *    error_message.
 *
 * Ownership: *out is malloc'd (NULL when there is no message to send);
 * the caller frees it. Thread-safety: handlers run concurrently, one call
 * each; all state is the job layer's.
 */
#ifndef CUZK_DAEMON_GRPC_SERVICE_H
#define CUZK_DAEMON_GRPC_SERVICE_H

#include <grpc/status.h>
#include <stdatomic.h>
#include <stddef.h>
#include <stdint.h>

#include "daemon/server.h"

#define CZ_GRPC_MAX_MESSAGE (256 << 20) /* Curio's client limit both ways (lib/cuzk/client.go) */

typedef struct cz_grpc_reply {
    grpc_status_code status;
    char detail[512]; /* the status message when status != OK */
    uint8_t *out;     /* the packed response message */
    size_t out_len;
} cz_grpc_reply_t;

typedef struct cz_grpc_call_env {
    cz_server_t *server;
    const atomic_bool *gone; /* set (then cz_server_wake) when the client went away */
} cz_grpc_call_env_t;

typedef void cz_grpc_handler_fn(const cz_grpc_call_env_t *env, const uint8_t *in, size_t len,
                                cz_grpc_reply_t *reply);

/* The handler of a method path ("/cuzk.v1.ProvingEngine/Prove"), or NULL. */
cz_grpc_handler_fn *cz__grpc_method(const char *path, size_t len);

#endif /* CUZK_DAEMON_GRPC_SERVICE_H */
