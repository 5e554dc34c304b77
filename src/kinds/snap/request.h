/*
 * kinds/snap/request.h — the SnapDeals request file `cuzk prove --kind snap
 * --input FILE` reads and `cuzk snap gen-vanilla` writes: Curio's fields
 * as JSON (needs jansson):
 *
 *   { "registered_proof": 0,                       RegisteredUpdateProof 0-4
 *     "comm_r_old": "<64 hex>", "comm_r_new": "<64 hex>", "comm_d_new": "<64 hex>",
 *     "vanilla_proofs": ["<base64>", ...] }        one bincode PartitionProof
 *                                                  per partition
 *
 * vanilla_proofs is exactly the JSON Curio keeps for a sector's snap
 * vanilla proofs (Go's encoding of [][]byte: standard base64 with padding;
 * curio lib/ffi/cuzk_funcs.go ReadSnapVanillaProof + json.Unmarshal).
 * Errors name the field. A request owns its buffers (cz_snap_request_free).
 */
#ifndef CUZK_KINDS_SNAP_REQUEST_H
#define CUZK_KINDS_SNAP_REQUEST_H

#include <jansson.h>
#include <stddef.h>
#include <stdint.h>

#include "core/ctx.h"

typedef struct {
    uint64_t registered_proof;
    uint8_t comm_r_old[32], comm_r_new[32], comm_d_new[32];
    size_t nproofs;
    uint8_t **proofs;
    size_t *lens;
} cz_snap_request_t;

int cz_snap_request_parse(cz_ctx_t *ctx, cz_snap_request_t *out, const char *json, size_t len);
int cz_snap_request_load(cz_ctx_t *ctx, cz_snap_request_t *out, const char *path);
/* |r| as the JSON object above (new reference; borrows nothing). CZ_ENOMEM.
 * cuzkd's gRPC door builds a SNAP_DEALS_UPDATE job's input with it. */
int cz_snap_request_json(cz_ctx_t *ctx, const cz_snap_request_t *r, json_t **out);
/* Write |r| as JSON to |path| (atomically: temp file + rename). */
int cz_snap_request_write(cz_ctx_t *ctx, const cz_snap_request_t *r, const char *path);
void cz_snap_request_free(cz_snap_request_t *r);

#endif /* CUZK_KINDS_SNAP_REQUEST_H */
