/*
 * kinds/post/input.h — the PoSt input file the CLI and gen-vanilla exchange, and
 * test sectors sealed here.
 *
 * The file (JSON) holds exactly what Curio sends for one partition plus
 * the public sectors a chain verifier holds:
 *   { "registered_proof": "StackedDrgWindow2KiBV1_2", "registered_proof_abi": 10,
 *     "miner_id": 1000, "prover_id": "<64 hex>", "randomness": "<64 hex>",
 *     "partition_index": 0,
 *     "sectors": [ { "sector_id": 1, "comm_r": "<64 hex>" }, ... ],
 *     "vanilla_proofs": [ "<hex of one bincode FallbackPoStSectorProof>", ... ] }
 * 32-byte values are hex in byte order (the Fr repr, as in C1 JSON arrays).
 * prove reads the vanilla proofs (their sector ids and comm_rs are the
 * public sectors there); verify reads only the public values. prover_id
 * must be the LEB128 of miner_id (checked).
 *
 * cz_post_input_from_request builds the same input from what Curio sends
 * (cuzkd's gRPC door: a WINNING_POST / WINDOW_POST_PARTITION request
 * becomes this JSON, the daemon job's input, journaled like any other).
 *
 * Ownership: a cz_post_input_t owns its arrays (cz_post_input_free).
 * Errors: CZ_EFORMAT naming the key, CZ_EIO, CZ_ENOMEM.
 */
#ifndef CUZK_KINDS_POST_INPUT_H
#define CUZK_KINDS_POST_INPUT_H

#include <jansson.h>

#include "kinds/post/job.h"

typedef struct {
    const cz_post_proof_t *proof;
    uint64_t miner_id;
    uint8_t prover_id[32], randomness[32];
    unsigned partition;
    size_t nsectors;
    cz_post_sector_pub_t *sectors;
    size_t nvanilla;
    uint8_t **vanilla;
    size_t *vanilla_len;
} cz_post_input_t;

int cz_post_input_load(cz_ctx_t *ctx, cz_post_input_t *in, const char *path);
/* The same from memory (|len| bytes of JSON text). */
int cz_post_input_parse(cz_ctx_t *ctx, cz_post_input_t *in, const char *text, size_t len);
int cz_post_input_save(cz_ctx_t *ctx, const cz_post_input_t *in, const char *path);
void cz_post_input_free(cz_post_input_t *in);
/* The JSON object cz_post_input_save writes (new reference). CZ_ENOMEM. */
int cz_post_input_json(cz_ctx_t *ctx, const cz_post_input_t *in, json_t **out);

/*
 * The input of Curio's fields |req| (copied: *out owns everything). The
 * public sectors are read from the vanilla proofs themselves: each
 * bincode FallbackPoStSectorProof carries its sector_id and comm_r, and is
 * parsed in full here (cz_post_vanilla_parse for the proof's tree shape),
 * so a malformed one is refused before any job exists. Checked: a known
 * registered proof, 32 bytes of randomness, 1 vanilla proof (winning) or
 * 1..sectors per partition (window), each well-formed. Whether they match
 * the randomness (the challenged leaves) is the job's check (kinds/post/job.h).
 * Errors name Curio's field: CZ_EINVAL "registered_proof: ...",
 * "randomness: ...", "vanilla_proofs: ...", CZ_EFORMAT "vanilla_proofs[i]:
 * <what and the byte offset>"; CZ_ENOMEM. *out is zeroed on error.
 */
int cz_post_input_from_request(cz_ctx_t *ctx, const cz_post_request_t *req, cz_post_input_t *out);

/* The request Curio would send (borrows |in|). */
void cz_post_input_request(const cz_post_input_t *in, cz_post_request_t *req);
/* The public values (borrows |in|'s sectors). */
void cz_post_input_public(const cz_post_input_t *in, cz_post_public_t *pub);

/*
 * Test data: |nsectors| sectors of |sector_bytes| (2KiB, 8MiB, 512MiB: dense
 * sealing, kinds/porep/seal.h cz_seal_replicate) with pseudo-random data from
 * |seed|, sector ids 1..n, miner 1000, randomness from |seed| (top two bits
 * cleared), and each sector's vanilla proof at the leaves the randomness
 * challenges (RFP vanilla.rs prove_all_partitions), serialized as the API
 * does. Winning takes 1 sector; window 1..sectors per partition.
 */
int cz_post_gen(cz_ctx_t *ctx, cz_post_kind_t kind, uint64_t sector_bytes, unsigned nsectors,
                uint64_t seed, cz_post_input_t *out);

#endif /* CUZK_KINDS_POST_INPUT_H */
