/*
 * post/input.h — the PoSt input file the CLI and gen-vanilla exchange, and
 * test sectors sealed here (jansson builds only: CUZK_HAVE_JANSSON).
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
 * Ownership: a cz_post_input_t owns its arrays (cz_post_input_free).
 * Errors: CZ_EFORMAT naming the key, CZ_EIO, CZ_ENOMEM.
 */
#ifndef CUZK_POST_INPUT_H
#define CUZK_POST_INPUT_H

#include "post/job.h"

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

/* The request Curio would send (borrows |in|). */
void cz_post_input_request(const cz_post_input_t *in, cz_post_request_t *req);
/* The public values (borrows |in|'s sectors). */
void cz_post_input_public(const cz_post_input_t *in, cz_post_public_t *pub);

/*
 * Test data: |nsectors| sectors of |sector_bytes| (2KiB, 8MiB, 512MiB: dense
 * sealing, porep/seal.h cz_seal_replicate) with pseudo-random data from
 * |seed|, sector ids 1..n, miner 1000, randomness from |seed| (top two bits
 * cleared), and each sector's vanilla proof at the leaves the randomness
 * challenges (RFP vanilla.rs prove_all_partitions), serialized as the API
 * does. Winning takes 1 sector; window 1..sectors per partition.
 */
int cz_post_gen(cz_ctx_t *ctx, cz_post_kind_t kind, uint64_t sector_bytes, unsigned nsectors,
                uint64_t seed, cz_post_input_t *out);

#endif /* CUZK_POST_INPUT_H */
