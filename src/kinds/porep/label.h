/*
 * kinds/porep/label.h — SDR labeling (RFP storage-proofs-porep/src/stacked/
 * vanilla/create_label/single.rs create_label / create_label_exp, graph.rs
 * copy_parents_data{,_exp}, labeling_proof.rs; FACTS 4).
 *
 * label(L, v) = SHA256(replica_id || L as u32 BE || v as u64 BE || 20 zero
 * bytes || 37 parent labels) with the last byte &= 0x3f; node 0 hashes only
 * the first 64 bytes. The 37 parents (cz_sdr_label_parents): layer 1 = the 6
 * DRG parents (this layer) x 6, then parent 0; later layers = the 6 DRG
 * parents (this layer) and 8 expander parents (previous layer) x 2, then
 * the first 9 of them.
 *
 * Labeling a layer is sequential (node v needs v - 1 of the same layer and
 * layer L needs all of L - 1); the parallel part is the parent graph,
 * computed on the pool up front (cz_porep_parent_cache). Thread-safety:
 * pure functions on caller memory.
 */
#ifndef CUZK_KINDS_POREP_LABEL_H
#define CUZK_KINDS_POREP_LABEL_H

#include <stdint.h>

#include "core/ctx.h"
#include "kinds/porep/graph.h"

#define CZ_SDR_TOTAL_PARENTS 37u

/* The 37 parent labels of node |v| at |layer| (>= 1) from the 14 parents:
 * out = 37 x 32 bytes. cur/prev: the labels of this / the previous layer
 * (prev unused for layer 1), read at the parent indices. */
void cz_sdr_label_parents(uint8_t *out, unsigned layer, const uint32_t parents[14],
                          const uint8_t *cur, const uint8_t *prev);

/* label = create_label(replica_id, layer, node, parents (37 x 32 bytes;
 * ignored for node 0)). */
void cz_sdr_label(uint8_t out[32], const uint8_t replica_id[32], unsigned layer, uint64_t node,
                  const uint8_t *parents37);

/*
 * All labels of a sector: labels = layers x nodes x 32 bytes (caller
 * memory, layer-major). |cache| is the parent cache of |g| (14 per node).
 */
int cz_sdr_label_all(cz_ctx_t *ctx, const cz_porep_graph_t *g, const uint32_t *cache,
                     const uint8_t replica_id[32], unsigned layers, uint8_t *labels);

#endif /* CUZK_KINDS_POREP_LABEL_H */
