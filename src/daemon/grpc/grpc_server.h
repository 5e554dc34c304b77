/*
 * daemon/grpc/grpc_server.h — cuzkd's second front door: the cuzk.v1
 * ProvingEngine service (Curio's proving protocol) over gRPC's C core, next
 * to the HTTP API, over the same job layer (daemon/server.h).
 *
 * Listening (grpc.listen / --grpc-listen):
 *   unix:///path/cuzk.sock  the socket's directory is created (0755) when
 *       missing; a stale socket (its daemon died) is replaced; a live one
 *       is refused; the socket gets daemon.socket_mode (0660).
 *   HOST:PORT  plaintext HTTP/2 on TCP (port 0: a free one, logged): loopback
 *       unless grpc.allow_from or daemon.auth_token is set (config.c refuses
 *       it). Every call is checked: with grpc.allow_from, a call is served
 *       when its peer is loopback or in the list (daemon/netaddr.h), or it
 *       carries the token, else PERMISSION_DENIED naming the peer; without
 *       a list and with a token, it must carry the metadata
 *       "authorization: Bearer <token>" (UNAUTHENTICATED otherwise).
 * Messages up to 256 MiB both ways (Curio's limits; gRPC answers
 * RESOURCE_EXHAUSTED beyond). A call's deadline is gRPC's: when it passes,
 * or the client cancels, the call's waiting ends (service.h says what
 * happens to its job).
 *
 * Threads: one completion-queue thread runs the calls' state machine; each
 * call's handler runs on a thread of its own (a Prove blocks until its proof
 * is done), at most CZ_GRPC_MAX_CALLS at once (RESOURCE_EXHAUSTED beyond).
 * Start and stop from one thread. cz_grpc_stop is meant to run after
 * cz_server_shutdown (waiting calls then answer UNAVAILABLE and their jobs
 * stay journaled) and before cz_server_free; it waits for every handler.
 */
#ifndef CUZK_DAEMON_GRPC_SERVER_H
#define CUZK_DAEMON_GRPC_SERVER_H

#include "daemon/config.h"
#include "daemon/server.h"

#define CZ_GRPC_MAX_CALLS 1024

typedef struct cz_grpc cz_grpc_t;

/* Bind cfg->grpc_listen and start serving. Errors name the address. */
int cz_grpc_start(cz_ctx_t *ctx, cz_server_t *s, const cz_dconfig_t *cfg, cz_grpc_t **out);
/* Cancel the calls in flight, wait for their handlers, remove the socket. NULL: no-op. */
void cz_grpc_stop(cz_grpc_t *g);

#endif /* CUZK_DAEMON_GRPC_SERVER_H */
