/*
 * kinds/porep/graph.h — the SDR graph: BucketGraph DRG parents, Feistel expander
 * parents, and the porep_id-derived seeds (RFP v1.1 graphs).
 *
 * Sources (rust-fil-proofs, RFP):
 *   storage-proofs-core/src/crypto/mod.rs  derive_porep_domain_seed =
 *       sha256(tag || porep_id), tags "Filecoin_DRSample", "Filecoin_Feistel";
 *   storage-proofs-core/src/drgraph.rs     BucketGraph::parents, derive_drg_seed
 *       (first 28 bytes), ApiVersion V1_1_0 order: parents[0] = node - 1;
 *   storage-proofs-core/src/crypto/feistel.rs  precompute, permute, 3 rounds,
 *       round function = first 8 bytes (BE) of blake2b-512(right BE8 || key BE8);
 *   storage-proofs-porep/src/stacked/vanilla/graph.rs  derive_feistel_keys
 *       (four LE u64 of the Feistel seed), correspondent / expanded_parents,
 *       EXP_DEGREE = 8, parents() = 6 DRG then 8 expander;
 *   storage-proofs-porep/src/stacked/vanilla/cache.rs  the parent cache
 *       (14 LE u32 per node), computed here on the fly or in memory.
 *
 * Both graph generations are built, chosen by the porep_id as RFP does:
 *   legacy (porep_id's first 8 bytes, LE, <= 4: the StackedDrg*V1 proofs,
 *   storage-proofs-core/src/lib.rs is_legacy_porep_id with
 *   MAX_LEGACY_POREP_REGISTERED_PROOF_ID = 4): drgraph.rs BucketGraph::parents
 *   puts the immediate predecessor LAST (parents[m_prime]) and samples
 *   parents[0..5); graph.rs correspondent under ApiVersion::V1_0_0 divides
 *   `transformed as u32` by 8 (the Feistel output truncated to 32 bits: at
 *   32GiB, 2^33 expander slots, about half the parents differ from V1_1_0);
 *   otherwise (V1_1_0 and later): the predecessor first, parents[1..6)
 *   sampled, and the full 64-bit division. RFP ties the DRG order to the
 *   porep_id and the truncation to the ApiVersion; every RegisteredSealProof
 *   pairs them (registry.rs: the *V1 proofs are ApiVersion V1_0_0 with ids
 *   0..4, all later ones V1_1_0+ with ids >= 5), so one flag decides both.
 * A cz_porep_graph_t is immutable after _init and may be shared by threads.
 */
#ifndef CUZK_KINDS_POREP_GRAPH_H
#define CUZK_KINDS_POREP_GRAPH_H

#include <stdint.h>

#include "core/ctx.h"

#define CZ_SDR_DRG_DEGREE 6u
#define CZ_SDR_EXP_DEGREE 8u
#define CZ_SDR_DEGREE 14u

typedef struct {
    uint64_t nodes;           /* graph size, 2 < nodes <= 2^32 */
    uint8_t drg_seed[28];     /* derive_drg_seed(porep_id) */
    uint64_t feistel_keys[4]; /* derive_feistel_keys(porep_id) */
    uint64_t f_left_mask;     /* feistel::precompute(nodes * EXP_DEGREE) */
    uint64_t f_right_mask;
    unsigned f_half_bits;
    int legacy; /* V1_0_0 graph (see the top): predecessor last, u32 expander */
} cz_porep_graph_t;

/* is_legacy_porep_id: the porep_id's first 8 bytes (LE u64) <= 4. */
int cz_porep_id_is_legacy(const uint8_t porep_id[32]);

/* sha256(tag || porep_id) (RFP derive_porep_domain_seed). */
void cz_porep_domain_seed(uint8_t out[32], const char *tag, const uint8_t porep_id[32]);

/* Build the graph of |nodes| nodes for |porep_id|. CZ_EINVAL when nodes is
 * outside (2, 2^32] (RFP StackedGraph::new: nodes <= u32::MAX). */
int cz_porep_graph_init(cz_porep_graph_t *g, uint64_t nodes, const uint8_t porep_id[32]);

/* BucketGraph::parents: V1_1_0 out[0] = node - 1, out[1..6) sampled; legacy
 * out[0..5) sampled, out[5] = node - 1; all zero for nodes 0 and 1.
 * node < g->nodes. */
void cz_porep_drg_parents(const cz_porep_graph_t *g, uint32_t node, uint32_t out[6]);

/* ---- Feistel (feistel.c) ---- */
/* feistel::precompute(num_elements): masks of 2 x log4 bits. */
void cz_feistel_precompute(uint64_t num_elements, uint64_t *left_mask, uint64_t *right_mask,
                           unsigned *half_bits);
/* One encode / decode pass of the 3-round network with keys[0..3). */
uint64_t cz_feistel_encode(uint64_t index, const uint64_t keys[4], uint64_t left_mask,
                           uint64_t right_mask, unsigned half_bits);
uint64_t cz_feistel_decode(uint64_t index, const uint64_t keys[4], uint64_t left_mask,
                           uint64_t right_mask, unsigned half_bits);
/* feistel::permute / invert_permute: cycle-walk into [0, num_elements). */
uint64_t cz_feistel_permute(uint64_t num_elements, uint64_t index, const uint64_t keys[4],
                            uint64_t left_mask, uint64_t right_mask, unsigned half_bits);
uint64_t cz_feistel_invert(uint64_t num_elements, uint64_t index, const uint64_t keys[4],
                           uint64_t left_mask, uint64_t right_mask, unsigned half_bits);

/* ---- expander (expander.c) ---- */
/* expanded_parents: out[i] = permute(nodes*8, node*8 + i) / 8 (legacy:
 * the permuted index truncated to u32 before the division). */
void cz_porep_exp_parents(const cz_porep_graph_t *g, uint32_t node, uint32_t out[8]);
/* StackedGraph::parents: 6 DRG parents then 8 expander parents. */
void cz_porep_parents(const cz_porep_graph_t *g, uint32_t node, uint32_t out[14]);

/*
 * The parent cache of the whole graph (RFP cache.rs layout: node-major, 14
 * parents per node) computed on ctx's pool into a new array *out (owned by
 * the caller, free()). nodes x 56 bytes; CZ_ENOMEM / CZ_EINVAL.
 */
int cz_porep_parent_cache(cz_ctx_t *ctx, const cz_porep_graph_t *g, uint32_t **out);

#endif /* CUZK_KINDS_POREP_GRAPH_H */
