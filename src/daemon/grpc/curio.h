/*
 * daemon/grpc/curio.h — Curio's requests as daemon jobs: a cuzk.v1
 * SubmitProofRequest becomes the JSON request the job layer takes
 * (daemon/server.h cz_server_submit_retry), the same one the HTTP API
 * would send, so both doors share validation, journal and dedupe.
 *
 * THE KIND TABLE (curio.c, one row per ProofKind): the daemon job kind that
 * proves it and a function that adds the kind's fields to the request.
 * Every ProofKind has one; adding a kind is one row.
 *
 * What each kind reads (field numbers: proving.proto; facts: curio
 * lib/ffi/cuzk_funcs.go and extern/cuzk cuzk-core prover.rs):
 *
 * POREP_SEAL_COMMIT (wrapC1Output): vanilla_proof (10) is the JSON
 *     {"SectorNum": n, "Phase1Out": "<base64 of the C1 JSON>", "SectorSize": n}
 * (Go's encoding/json writes []byte as standard, padded base64). It maps to
 *     {"kind":"porep-c2", "input": <the C1 JSON>, "sector_size": n,
 *      "priority": p, "request_id": r}
 * The wrapper must agree with sector_number / sector_size when those are
 * set; the C1 itself is checked by the porep-c2 kind (sector size, JSON
 * paths, then the native check at synthesis).
 *
 * WINNING_POST / WINDOW_POST_PARTITION: registered_proof (4, abi.
 * RegisteredPoStProof: winning 0-4, window 5-14), miner_id (21, prover_id =
 * its LEB128), randomness (22, 32 bytes), partition_index (23; winning 0),
 * vanilla_proofs (11, one bincode FallbackPoStSectorProof per sector: the
 * public sector ids and comm_rs are read from them, post/input.h
 * cz_post_input_from_request). sector_size (3) is checked when set. Maps to
 *     {"kind":"winning-post"|"window-post", "input": <the PoSt input JSON,
 *      post/input.h>, "priority": p, "request_id": r}
 *
 * SNAP_DEALS_UPDATE: registered_proof (4, abi.RegisteredUpdateProof 0-4; it
 * gives the sector size, which the PSProve path leaves 0), vanilla_proofs
 * (11, one bincode PartitionProof per partition), comm_r_old / comm_r_new /
 * comm_d_new (30-32: 32 raw bytes, as Curio's ProveUpdateCuzk and PSProve
 * send them, or a CIDv1's bytes, update/job.h cz_update_commitment). Maps to
 *     {"kind":"snap", "input": <the snap request JSON, update/request.h>,
 *      "priority": p, "request_id": r}
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
 */
#ifndef CUZK_DAEMON_GRPC_CURIO_H
#define CUZK_DAEMON_GRPC_CURIO_H

#include <jansson.h>
#include <stddef.h>
#include <stdint.h>

#include "core/ctx.h"
#include "proving.pb-c.h"

/* The job request for |r| (new reference in *out). */
int cz__grpc_job_request(cz_ctx_t *ctx, const Cuzk__V1__SubmitProofRequest *r, json_t **out);

/* The name GetStatus reports for the queue of daemon kind |job_kind|:
 * the ProofKind's name ("POREP_SEAL_COMMIT") or, for kinds Curio does not
 * know (the HTTP API's "circuit"), |job_kind| itself. */
const char *cz__grpc_queue_name(const char *job_kind);

/* The ProofKind names, for GetStatus to list every queue even when empty. */
size_t cz__grpc_kind_count(void);
const char *cz__grpc_kind_name(size_t i);

/*
 * A PreloadSRS / EvictSRS circuit_id as a params name: Curio's ids
 * (extern/cuzk cuzk-core srs_manager.rs CircuitId: "porep-32g",
 * "winning-32g", "wpost-32g", "snap-32g", ...), FAMILY-SIZE with FAMILY
 * porep, winning, wpost (WindowPoSt) or snap and SIZE 2k, 8m, 512m, 32g or
 * 64g, become the Filecoin file name of that circuit's params ("...params");
 * any other id is taken as a params name of params.dir. CZ_EINVAL if
 * empty or a known family with an unknown size.
 */
int cz__grpc_params_name(cz_ctx_t *ctx, const char *circuit_id, char *out, size_t cap);

/* Standard base64 with padding (RFC 4648 section 4) of |in| into |out|
 * (room for in_len / 4 * 3); *bad = offset of the first bad character. */
int cz__base64_decode(const char *in, size_t in_len, uint8_t *out, size_t *out_len, size_t *bad);

#endif /* CUZK_DAEMON_GRPC_CURIO_H */
