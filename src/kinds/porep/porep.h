/*
 * kinds/porep/porep.h — PoRep identities and derivations: the registered seal
 * proofs and their porep_id, replica_id, the interactive challenges of a
 * partition, and the verifier's public inputs from public values alone.
 *
 * Sources:
 *   rust-filecoin-proofs-api src/registry.rs  RegisteredSealProof (enum
 *       order = proof id; porep_id = id LE u64 || nonce 0 LE u64 || 16 zero
 *       bytes; *_V1_1 = ApiVersion V1_1_0);
 *   rust-fil-proofs storage-proofs-porep/src/stacked/vanilla/params.rs
 *       generate_replica_id = Fr-safe sha256(prover_id || sector_id BE u64 ||
 *       ticket || comm_d || porep_id) (fr32 bytes_into_fr_repr_safe: last
 *       byte &= 0x3f);
 *   .../stacked/vanilla/challenges.rs  derive_porep: challenge i of
 *       partition k = sha256(replica_id || seed || j LE u32) read as a LE
 *       integer, mod (nodes - 1), + 1, with j = challenges * k + i;
 *   .../stacked/circuit/proof.rs  StackedCompound::generate_public_inputs.
 *
 * All functions are pure and thread-safe.
 */
#ifndef CUZK_KINDS_POREP_POREP_H
#define CUZK_KINDS_POREP_POREP_H

#include <stddef.h>
#include <stdint.h>

#include "circuits/porep/stacked.h"
#include "core/ctx.h"
#include "ff/fr.h"

/* How a registered proof's PoRep challenges are chosen (challenges_synth.c). */
typedef enum {
    CZ_POREP_INTERACTIVE = 0, /* from replica_id and the interactive seed */
    CZ_POREP_SYNTHETIC,       /* the seed selects among synthetic challenges (FIP-0059) */
    CZ_POREP_NON_INTERACTIVE, /* from replica_id and comm_r alone (FIP-0092) */
} cz_porep_challenge_kind_t;

typedef struct {
    const char *name;        /* "StackedDrg2KiBV1_1" (registered_proof in C1 JSON) */
    const char *vanilla_key; /* "StackedDrg2KiBV1" (VanillaSealProof variant) */
    unsigned id;             /* enum position in RegisteredSealProof */
    uint64_t sector_bytes;
    int v1_1; /* a V1_1 graph (ids >= 5; cuzk seals and proves only
                              * these; the V1 ones are verified: graph.h "legacy") */
    cz_porep_challenge_kind_t challenges;
} cz_porep_proof_t;

/* The registered proof called |name|, or NULL. */
const cz_porep_proof_t *cz_porep_proof_by_name(const char *name);
/* The registered proof of abi id |id| (RegisteredSealProof: 0..19), or NULL. */
const cz_porep_proof_t *cz_porep_proof_by_id(uint64_t id);
/* The V1_1 registered proof of a sector size, or NULL. */
const cz_porep_proof_t *cz_porep_proof_v1_1(uint64_t sector_bytes);
/* porep_id of a registered proof. */
void cz_porep_id(uint8_t out[32], const cz_porep_proof_t *proof);
/* The circuit configuration of a registered proof: the sector size's
 * (cz_porep_params_sector); NonInteractivePoRep takes 13 partitions at 2KiB,
 * 8MiB and 512MiB and 126 at 32GiB and 64GiB, each of the size's own
 * challenge count (2 / 18: the same circuit and params file as V1_1;
 * replica_id.c ni_layout). CZ_EINVAL for an unknown size. */
int cz_porep_proof_params(cz_porep_params_t *out, const cz_porep_proof_t *proof);

/* replica_id bytes (an Fr repr). */
void cz_porep_replica_id(uint8_t out[32], const uint8_t prover_id[32], uint64_t sector_id,
                         const uint8_t ticket[32], const uint8_t comm_d[32],
                         const uint8_t porep_id[32]);

/* out[0..count) = the interactive challenges of partition k (count =
 * challenges per partition). CZ_EINVAL for nodes <= 2 or nodes > 2^32. */
int cz_porep_challenges(uint64_t *out, unsigned count, uint64_t nodes, const uint8_t replica_id[32],
                        const uint8_t seed[32], unsigned k);

/*
 * The challenges of partition k as |proof| chooses them (challenges_synth.c):
 * interactive = cz_porep_challenges; synthetic = RFP SynthChallengeGenerator
 * (needs comm_r and seed); non-interactive = NiChallenges (comm_r, no
 * seed). CZ_EINVAL for bad sizes.
 */
int cz_porep_proof_challenges(uint64_t *out, unsigned count, uint64_t nodes,
                              const cz_porep_proof_t *proof, const uint8_t replica_id[32],
                              const uint8_t comm_r[32], const uint8_t seed[32], unsigned k);
int cz_porep_challenges_synthetic(uint64_t *out, unsigned count, uint64_t nodes,
                                  const uint8_t replica_id[32], const uint8_t comm_r[32],
                                  const uint8_t seed[32], unsigned k);
int cz_porep_challenges_ni(uint64_t *out, unsigned count, uint64_t nodes,
                           const uint8_t replica_id[32], const uint8_t comm_r[32], unsigned k);

/* cz_porep_public_inputs_from for any registered proof: its porep_id graph
 * and its challenge kind. */
int cz_porep_public_inputs_proof(cz_ctx_t *ctx, cz_fr *out, size_t n_out,
                                 const cz_porep_params_t *p, const cz_porep_proof_t *proof,
                                 const uint8_t replica_id[32], const uint8_t comm_d[32],
                                 const uint8_t comm_r[32], const uint8_t seed[32], unsigned k);

/*
 * The public inputs of partition k (ONE excluded; cz_porep_num_inputs(p) -
 * 1 values) from the public values alone, as a chain verifier computes them:
 * challenges from (replica_id, seed, k), DRG and expander parents from the
 * porep_id graph. The 32-byte values are Fr reprs; CZ_ERANGE when one is not
 * canonical, CZ_EINVAL for bad sizes.
 */
int cz_porep_public_inputs_from(cz_ctx_t *ctx, cz_fr *out, size_t n_out, const cz_porep_params_t *p,
                                const uint8_t porep_id[32], const uint8_t replica_id[32],
                                const uint8_t comm_d[32], const uint8_t comm_r[32],
                                const uint8_t seed[32], unsigned k);

/*
 * The same from given challenges (p->challenges of them, each in [1, nodes)):
 * for a proof whose seed is unknown but whose challenges are (the real v27
 * 32GiB proof set, tests/compat), or challenges derived another way.
 * CZ_EINVAL for a challenge out of range.
 */
int cz_porep_public_inputs_at(cz_ctx_t *ctx, cz_fr *out, size_t n_out, const cz_porep_params_t *p,
                              const uint8_t porep_id[32], const uint8_t replica_id[32],
                              const uint8_t comm_d[32], const uint8_t comm_r[32],
                              const uint64_t *challenges);

#endif /* CUZK_KINDS_POREP_POREP_H */
