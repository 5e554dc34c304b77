/*
 * daemon/grpc/curio.h — Curio's requests as daemon jobs: a cuzk.v1
 * SubmitProofRequest becomes the kind's request object and input (the
 * kinds' map contract, kinds/kinds.h), which the service takes as the
 * core's cz_submit_req_t (daemon/jsonio.h; the input borrowed, not
 * copied: the map's own bytes or the object's "input" string) with
 * Curio's retry rule (daemon/server.h) — the request the HTTP API would
 * send, so both doors share validation, journal and dedupe.
 *
 * THE KIND TABLE is the prover's (kinds/kinds.h cz_kinds_t, passed in):
 * a kind with a ProofKind (cz_job_kind_t.curio) says its number and name,
 * its default priority, how a SubmitProofRequest becomes its request (its
 * map, in the kind's own file: kinds/porep/kind_porep.c for POREP_SEAL_COMMIT,
 * kind_post.c for WINNING_POST / WINDOW_POST_PARTITION, kind_snap.c for
 * SNAP_DEALS_UPDATE, each listing the fields it reads) and its SRS
 * circuit-id family. This door only looks the kind up, fills "kind",
 * "priority" and "request_id", and hands the rest to the kind. A kind
 * added to the table is served here with nothing to change.
 *
 * The input is the same JSON the HTTP API takes for that kind, so a gRPC job
 * is journaled and replayed after a crash like any other, and the kind's
 * prepare runs the expensive-but-early checks (the vanilla proofs against
 * the public values) at submit. The answer is the job's proof: 192 bytes
 * per partition, concatenated (PoRep 10 x 192 at 32GiB; a PoSt partition
 * 192, as proofs-api's SnarkProof / PartitionSnarkProof; snap partitions x
 * 192, as EmptySectorUpdateProof).
 *
 * Errors: CZ_EINVAL / CZ_EFORMAT with a message naming the field and the
 * problem ("vanilla_proof.Phase1Out: not base64: '#' at offset 17",
 * "randomness: 31 bytes, want 32"), CZ_ENOMEM. Pure functions; thread-safe.
 * Every function takes the kind table |kinds| (cz_server_kinds).
 */
#ifndef CUZK_DAEMON_GRPC_CURIO_H
#define CUZK_DAEMON_GRPC_CURIO_H

#include <jansson.h>
#include <stddef.h>
#include <stdint.h>

#include "core/ctx.h"
#include "kinds/kinds.h"
#include "proving.pb-c.h"

/*
 * The job request for |r| (new reference in *out) and, in *input, the
 * input bytes the kind's map decoded itself (porep-c2's C1: owned, the
 * caller hands them to the core as cz_submit_req_t.input and frees them;
 * NULL data: the input is *out's "input", if any). |input| NULL: such bytes
 * are put in *out as its "input" string instead (a copy: for a caller that
 * wants the request object alone, a test). On error nothing is owned.
 */
int cz__grpc_job_request(cz_ctx_t *ctx, const cz_kinds_t *kinds,
                         const Cuzk__V1__SubmitProofRequest *r, json_t **out,
                         cz_curio_input_t *input);

/* The name GetStatus reports for the queue of daemon kind |job_kind|:
 * the ProofKind's name ("POREP_SEAL_COMMIT") or, for kinds Curio does not
 * know (the HTTP API's "circuit"), |job_kind| itself. */
const char *cz__grpc_queue_name(const cz_kinds_t *kinds, const char *job_kind);

/* The ProofKind names by ascending number, for GetStatus to list every
 * queue even when empty. */
size_t cz__grpc_kind_count(const cz_kinds_t *kinds);
const char *cz__grpc_kind_name(const cz_kinds_t *kinds, size_t i);

/*
 * A PreloadSRS / EvictSRS circuit_id as a params name: Curio's ids
 * (extern/cuzk cuzk-core srs_manager.rs CircuitId: "porep-32g",
 * "winning-32g", "wpost-32g", "snap-32g", ...), FAMILY-SIZE with FAMILY a
 * kind's SRS family (porep-, winning-, wpost- (WindowPoSt), snap-) and SIZE
 * 2k, 8m, 512m, 32g or 64g, become the Filecoin file name of that
 * circuit's params ("...params"); any other id is taken as a params name
 * of params.dir. CZ_EINVAL if empty or a known family with an unknown size.
 */
int cz__grpc_params_name(cz_ctx_t *ctx, const cz_kinds_t *kinds, const char *circuit_id, char *out,
                         size_t cap);

#endif /* CUZK_DAEMON_GRPC_CURIO_H */
