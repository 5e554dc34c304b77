/*
 * kinds/porep/seal.h — test sealing: a real small sector end to end (data ->
 * tree_d/comm_d -> replica_id -> SDR labels -> tree_c/comm_c -> replica
 * -> tree_r_last -> comm_r -> challenges -> the C1 with all proofs), as
 * rust-fil-proofs seals and proves (RFP stacked/vanilla/proof.rs
 * replicate_phase1/2 and prove_layers; filecoin-proofs api/seal.rs). For
 * tests and benchmarks with no network and no external prover.
 *
 * Memory: the sector data, layers x sector of labels and the three trees
 * (about (layers + 3.3) x sector size). Thread-safety: one call per ctx.
 */
#ifndef CUZK_KINDS_POREP_SEAL_H
#define CUZK_KINDS_POREP_SEAL_H

#include <stdint.h>

#include "kinds/porep/c1.h"
#include "kinds/porep/trees.h"

typedef struct {
    uint64_t sector_bytes; /* 2KiB, 8MiB, 512MiB (dense sealing) */
    const uint8_t *data;   /* sector_bytes of Fr32-valid data, or NULL: */
    uint64_t random_seed;  /*   pseudo-random Fr32 data from this seed */
    uint8_t prover_id[32], ticket[32], seed[32];
    uint64_t sector_id;
    /* Optional outputs (NULL: not wanted), for the SnapDeals test data that
     * updates this CC sector: the replica (tree_r_last leaves, [nodes]) and
     * comm_c. */
    cz_fr *replica_out;
    cz_fr *comm_c_out;
    const cz_porep_proof_t *proof; /* registered proof (a V1_1 graph), or NULL: the size's
                                    * V1_1; its challenge kind picks the challenges */
} cz_seal_args_t;

/* A sealed sector (replicate_phase1/2): the data, the labels, the parent
 * cache, tree_d, tree_c, tree_r_last and the commitments. Owned; free with
 * cz_sealed_free (NULL / zeroed: no-op). */
typedef struct {
    const cz_porep_proof_t *proof;
    cz_porep_params_t params;
    uint8_t *data, *labels;
    uint32_t *cache;
    cz_fr *leaves;
    cz_sdr_tree_t td, tc, tr;
    uint8_t comm_d[32], replica_id[32], comm_c[32], comm_r_last[32], comm_r[32];
} cz_sealed_t;

/* Seal (no proofs): CZ_EINVAL / CZ_ENOMEM as cz_seal_gen_c1. */
int cz_seal_replicate(cz_ctx_t *ctx, const cz_seal_args_t *a, cz_sealed_t *out);
void cz_sealed_free(cz_sealed_t *s);

/* Seal and prove; *out receives the C1 (free with cz_c1_free). CZ_EINVAL
 * for an unsupported size or data that is not Fr32-valid (a 32-byte node
 * with either top bit set), CZ_ENOMEM. */
int cz_seal_gen_c1(cz_ctx_t *ctx, const cz_seal_args_t *a, cz_c1_t *out);

/*
 * The C1 Merkle proof of leaf |i| of the built tree |t| (dense or sparse):
 * per-level positions, siblings, root, leaf. |kind| / |nbase| are the C1
 * proof shape (cz_c1_merkle_alloc). Shared by the dense and sparse sealers.
 * CZ_ENOMEM.
 */
int cz_seal_fill_merkle(cz_c1_merkle_t *m, const cz_sdr_tree_t *t, uint64_t i, int kind,
                        unsigned nbase);

#endif /* CUZK_KINDS_POREP_SEAL_H */
