/*
 * kinds/post/post.h — WinningPoSt / WindowPoSt inputs as Curio sends them: the
 * registered proofs, prover ids, the bincode vanilla proofs, the challenge
 * derivation, the public inputs, the circuit witness, the parameter file
 * names, and (kinds/post/job.c) the engine job and verification from public values.
 *
 * FACTS (sources named per item; RFP = rust-fil-proofs, API =
 * rust-filecoin-proofs-api, CURIO = filecoin-project/curio):
 *   Registered proofs (CURIO go-state-types abi.RegisteredPoStProof; API
 *     registry.rs RegisteredPoStProof::version): 0-4 StackedDrgWinning
 *     {2KiB,8MiB,512MiB,32GiB,64GiB}V1 (ApiVersion 1.0.0); 5-9
 *     StackedDrgWindow*V1 (1.0.0); 10-14 abi Window*V1_1 = API
 *     StackedDrgWindow*V1_2 (1.2.0).
 *   prover_id: the miner actor id as unsigned LEB128, left-aligned in 32
 *     zero bytes (filecoin-ffi to_prover_id; FACTS realdata 2b).
 *   Vanilla proof (API post.rs / RFP filecoin-proofs types
 *     FallbackPoStSectorProof, bincode 1.x: little-endian fixed ints,
 *     u64 lengths, enum tags u32, [u8; 32] raw):
 *       FallbackPoStSectorProof { sector_id: u64, comm_r: [32],
 *         vanilla_proof: Proof { sectors: Vec<SectorProof> } }
 *       SectorProof { inclusion_proofs: Vec<MerkleProof>, comm_c: [32],
 *         comm_r_last: [32] }     (RFP storage-proofs-post fallback/vanilla.rs)
 *       MerkleProof { data: ProofData } ; ProofData = u32 tag 0 Single
 *         { root, leaf, path } | 1 Sub { base_proof, sub_proof, root, leaf }
 *         | 2 Top { base_proof, sub_proof, top_proof, root, leaf };
 *         InclusionPath { path: Vec<PathElement> }; PathElement { hashes:
 *         Vec<[32]>, index: u64 }   (RFP storage-proofs-core merkle/proof.rs;
 *         the same order as CURIO lib/proof DecodeMerkleProof).
 *     One per sector; the winning one holds 66 inclusion proofs, a window
 *     one 10 (RFP vanilla.rs prove_all_partitions / vanilla_proof).
 *   Leaf challenges (RFP fallback/vanilla.rs generate_leaf_challenge_inner,
 *     fallback/utils.rs get_challenge_index): leaf = u64 LE of
 *     sha256(randomness || sector_id u64 LE || index u64 LE)[0..8] mod
 *     (sector_size / 32), index = n (ApiVersion 1.2.0) or (partition x
 *     sectors + i) x challenges + n (1.0.0, 1.1.0), for circuit sector i
 *     of the partition and challenge n. WinningPoSt's public sectors are
 *     the one sector repeated 66 times (RFP filecoin-proofs api/
 *     winning_post.rs verify_winning_post), so its i-th circuit sector
 *     proves leaf challenge index i.
 *   Public inputs: circuits/post/fallback.h (comm_r, then the leaves).
 *   Params file (RFP parameter_cache.rs, fallback/compound.rs cache_prefix,
 *     vanilla.rs identifier): v28-proof-of-spacetime-fallback-merkletree-
 *     poseidon_hasher-U-V-W-<hex sha256("FallbackPoSt::PublicParams{
 *     sector_size: S, challenge_count: C, sector_count: N}")>.{params,vk};
 *     reproduces parameters.json (32GiB winning 559e581f..., window
 *     0377ded6..., 2KiB winning 3ea05428..., window 0170db1f...).
 *
 * Ownership: parsed vanilla proofs own their memory (cz_post_vanilla_free).
 * Errors: CZ_EFORMAT names the field and byte offset of a malformed
 * vanilla proof; CZ_ERANGE a 32-byte value that is not a field element;
 * CZ_EINVAL bad arguments; CZ_EVERIFY a vanilla proof that does not match
 * the public values (wrong challenge, comm_r, sector id). Thread-safety:
 * every function is reentrant; parsed values are read-only.
 */
#ifndef CUZK_KINDS_POST_POST_H
#define CUZK_KINDS_POST_POST_H

#include <stddef.h>
#include <stdint.h>

#include "circuits/post/fallback.h"
#include "core/ctx.h"

/* ---- registered proofs ------------------------------------------------------------- */

typedef struct {
    const char *name; /* API name, e.g. "StackedDrgWindow2KiBV1_2" */
    uint64_t abi;     /* abi.RegisteredPoStProof number (Curio's registered_proof) */
    cz_post_kind_t kind;
    uint64_t sector_bytes;
    unsigned api_minor; /* ApiVersion 1.x.0: 0 or 2 */
} cz_post_proof_t;

const cz_post_proof_t *cz_post_proof_by_abi(uint64_t abi);
/* By API name, or the abi names ("StackedDrgWindow2KiBV1_1" = the V1_2 entry). */
const cz_post_proof_t *cz_post_proof_by_name(const char *name);
/* The current proof of a kind and size (winning V1, window V1_2); NULL if none. */
const cz_post_proof_t *cz_post_proof_current(cz_post_kind_t kind, uint64_t sector_bytes);

/* prover_id of a miner actor id (LEB128, zero padded). */
void cz_post_prover_id(uint8_t out[32], uint64_t miner_id);

/* ---- vanilla proofs (bincode) ---------------------------------------------------- */

typedef struct {
    uint64_t leaf_index; /* from the per-level indices, base level first */
    uint8_t root[32], leaf[32];
    uint8_t (*siblings)[32]; /* cz_post_path_len(params) */
} cz_post_inclusion_t;

typedef struct {
    uint64_t sector_id;
    uint8_t comm_r[32], comm_c[32], comm_r_last[32];
    unsigned nproofs;
    cz_post_inclusion_t *proofs;
    void *block_; /* private: one allocation */
} cz_post_vanilla_t;

/* Inclusion proofs in one sector's vanilla proof: 66 winning, 10 window. */
unsigned cz_post_vanilla_challenges(const cz_post_params_t *p);

/*
 * Parse one bincode FallbackPoStSectorProof for |p|'s tree shape: exactly
 * one SectorProof of cz_post_vanilla_challenges(p) inclusion proofs, each
 * of the shape's variant (Single / Sub / Top) with the right number of
 * levels, arity - 1 hashes and an index < arity per level, no trailing
 * bytes. Every length is checked before anything is allocated; errors
 * name the field and its byte offset. *out is zeroed on error.
 */
int cz_post_vanilla_parse(cz_ctx_t *ctx, const cz_post_params_t *p, const uint8_t *buf, size_t len,
                          cz_post_vanilla_t *out);
/* An empty vanilla proof with |nproofs| inclusion proofs of |p|'s shape. */
int cz_post_vanilla_alloc(cz_post_vanilla_t *v, const cz_post_params_t *p, unsigned nproofs);
void cz_post_vanilla_free(cz_post_vanilla_t *v);
/* Serialize as bincode (malloc'ed *out, *len bytes). CZ_ENOMEM / CZ_EINVAL. */
int cz_post_vanilla_write(const cz_post_params_t *p, const cz_post_vanilla_t *v, uint8_t **out,
                          size_t *len);

/* ---- challenges and public inputs --------------------------------------------------- */

/* One public sector (RFP fallback::PublicSector). */
typedef struct {
    uint64_t id;
    uint8_t comm_r[32];
} cz_post_sector_pub_t;

/* The public values of one partition, as the chain verifier holds them. */
typedef struct {
    const cz_post_proof_t *proof;
    uint8_t randomness[32];
    uint8_t prover_id[32];
    unsigned partition;                  /* window partition index (winning: 0) */
    size_t nsectors;                     /* this partition's sectors: winning 1, window
                                          * 1..sectors per partition */
    const cz_post_sector_pub_t *sectors; /* borrowed */
} cz_post_public_t;

/* generate_leaf_challenge_inner with the hasher over (randomness, sector id). */
uint64_t cz_post_leaf_challenge(const uint8_t randomness[32], uint64_t sector_id, uint64_t index,
                                uint64_t nodes);

/* The leaf challenged by challenge |n| of circuit sector |i| (0-based in the
 * partition; winning: i = 0..65, n = 0). */
uint64_t cz_post_challenge(const cz_post_public_t *pub, const cz_post_params_t *p, unsigned i,
                           unsigned n);

/* The production params of pub->proof; CZ_EINVAL naming the proof. */
int cz_post_params_of(cz_ctx_t *ctx, const cz_post_public_t *pub, cz_post_params_t *p);

/*
 * Public inputs (ONE excluded), cz_post_num_inputs(p) - 1 of them: per
 * circuit sector comm_r and the leaf challenges; fewer sectors repeat the
 * last one's. Checks first: a proof, 1 (winning) or 1..p->sectors (window)
 * sectors, randomness, prover_id and comm_rs that are field elements.
 */
int cz_post_public_inputs(cz_ctx_t *ctx, const cz_post_public_t *pub, cz_fr *out, size_t n_out);

/*
 * The circuit witness of one partition from its vanilla proofs (one per
 * public sector, in the same order), unrolled (winning) or padded by the
 * last sector (window) as RFP partition_vanilla_proofs does. Each vanilla
 * proof must carry its public sector's id and comm_r, and each inclusion
 * proof the derived leaf challenge and comm_r_last as root: CZ_EVERIFY
 * naming the sector and the challenge otherwise. Values must be field
 * elements (CZ_ERANGE). *w is zeroed on error.
 */
int cz_post_witness_from(cz_ctx_t *ctx, const cz_post_public_t *pub, const cz_post_params_t *p,
                         const cz_post_vanilla_t *vanilla, size_t nvanilla, cz_post_witness_t *w);

/* ---- parameter files ---------------------------------------------------------------- */

/* "FallbackPoSt::PublicParams{sector_size: S, challenge_count: C, sector_count: N}" */
int cz_post_identifier(char *out, size_t cap, const cz_post_params_t *p);
/* "v28-proof-of-spacetime-fallback-merkletree-poseidon_hasher-8-0-0-<hex>.EXT" */
int cz_post_params_name(char *out, size_t cap, const cz_post_params_t *p, const char *ext);

#endif /* CUZK_KINDS_POST_POST_H */
