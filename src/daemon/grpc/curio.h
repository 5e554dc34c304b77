/*
 * daemon/grpc/curio.h — Curio's requests as daemon jobs: a cuzk.v1
 * SubmitProofRequest becomes the JSON request the job layer takes
 * (daemon/server.h cz_server_submit_retry), the same one the HTTP API
 * would send, so both doors share validation, journal and dedupe.
 *
 * THE KIND TABLE (curio.c, one row per ProofKind): the daemon job kind that
 * proves it and a function that adds the kind's fields to the request. A
 * kind without a job kind yet is answered "not supported yet" (CZ_EUNAVAIL);
 * adding one is one row.
 *
 * POREP_SEAL_COMMIT (facts: filecoin-project/curio lib/ffi/cuzk_funcs.go,
 * wrapC1Output): vanilla_proof is the JSON
 *     {"SectorNum": n, "Phase1Out": "<base64 of the C1 JSON>", "SectorSize": n}
 * (Go's encoding/json writes []byte as standard, padded base64). It maps to
 *     {"kind":"porep-c2", "input": <the C1 JSON>, "sector_size": n,
 *      "priority": p, "request_id": r}
 * The wrapper must agree with sector_number / sector_size when those are
 * set; the C1 itself is checked by the porep-c2 kind (sector size, JSON
 * paths, then the native check at synthesis).
 *
 * Errors: CZ_EINVAL with a message naming the field and the problem
 * ("vanilla_proof.Phase1Out: not base64: '#' at offset 17"), CZ_EUNAVAIL for
 * a kind not supported yet, CZ_ENOMEM. Pure functions; thread-safe.
 */
#ifndef CUZK_DAEMON_GRPC_CURIO_H
#define CUZK_DAEMON_GRPC_CURIO_H

#include <jansson.h>
#include <stddef.h>
#include <stdint.h>

#include "cuzk/ctx.h"
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
 * A PreloadSRS / EvictSRS circuit_id as a params name: "porep-2k",
 * "porep-8m", "porep-512m", "porep-32g", "porep-64g" (Curio's ids) become
 * the Filecoin file name of that sector size's PoRep params; any other id
 * is taken as a params name of params.dir. CZ_EUNAVAIL for the ids of kinds
 * not supported yet ("wpost-", "winning-", "snap-"), CZ_EINVAL if empty.
 */
int cz__grpc_params_name(cz_ctx_t *ctx, const char *circuit_id, char *out, size_t cap);

/* Standard base64 with padding (RFC 4648 section 4) of |in| into |out|
 * (room for in_len / 4 * 3); *bad = offset of the first bad character. */
int cz__base64_decode(const char *in, size_t in_len, uint8_t *out, size_t *out_len, size_t *bad);

#endif /* CUZK_DAEMON_GRPC_CURIO_H */
