/*
 * kinds/porep/trees.h — the sector's Merkle trees for sealing and C1 proofs:
 * tree_d (SHA254, binary), tree_c and tree_r_last (Poseidon, base/sub/top
 * arities), dense (every node stored) or sparse (only the nodes on the
 * paths of chosen leaves; every other subtree is the hash of a subtree of
 * default leaves).
 *
 * A tree is a list of levels, leaves first; level l hashes groups of
 * arity[l] consecutive nodes. RFP's compound trees (storage-proofs-core
 * merkle/: base trees over consecutive leaf ranges, their roots hashed by
 * the sub level, those by the top level) are exactly the uniform tree with
 * the per-level arities base x base_levels, sub, top, so paths, indices and
 * roots agree with MerkleProof's Single/Sub/Top proofs (proof.rs:
 * path_index folds the per-level indices little-endian).
 *
 * Node values are 32-byte reprs for SHA254 and cz_fr (Montgomery) for
 * Poseidon; paths are always returned as reprs (the C1 JSON form).
 * A built tree is immutable and may be read by many threads.
 */
#ifndef CUZK_KINDS_POREP_TREES_H
#define CUZK_KINDS_POREP_TREES_H

#include <stddef.h>
#include <stdint.h>

#include "core/ctx.h"
#include "ff/fr.h"
#include "gadgets/por.h"

#define CZ_TREE_MAX_LEVELS 40

typedef struct {
    cz_por_hasher_t hasher;
    unsigned nlevels;                       /* hashing levels (path length) */
    unsigned arity[CZ_TREE_MAX_LEVELS];     /* per level, leaves first */
    uint64_t width[CZ_TREE_MAX_LEVELS + 1]; /* nodes per level; width[nlevels] = 1 */
    int sparse;
    /* dense: level[l] holds width[l] nodes of 32 bytes */
    uint8_t *level[CZ_TREE_MAX_LEVELS + 1];
    /* sparse: level l holds count[l] (index, node) pairs sorted by index;
     * absent nodes equal zero_node[l] */
    uint64_t *idx[CZ_TREE_MAX_LEVELS + 1];
    size_t count[CZ_TREE_MAX_LEVELS + 1];
    _Alignas(16) uint8_t zero_node[CZ_TREE_MAX_LEVELS + 1][32];
} cz_sdr_tree_t;

/* Shape: |leaves| leaves, arities base/sub/top as RFP (sub/top 0 = none).
 * CZ_EINVAL when they do not fill the tree exactly. */
int cz_sdr_tree_shape(cz_sdr_tree_t *t, cz_por_hasher_t hasher, uint64_t leaves, unsigned base,
                      unsigned sub, unsigned top);

/* Dense build over leaves[0 .. width[0]) (32 bytes each, copied), levels
 * hashed on ctx's pool. CZ_ENOMEM. */
int cz_sdr_tree_build(cz_ctx_t *ctx, cz_sdr_tree_t *t, const void *leaves);

/* Sparse build: |n| distinct leaves (indices ascending) with their values;
 * every other leaf is |zero_leaf|. Each level's present nodes are hashed
 * on ctx's pool (ctx may be NULL). CZ_EINVAL, CZ_ENOMEM. */
int cz_sdr_tree_build_sparse(cz_ctx_t *ctx, cz_sdr_tree_t *t, const uint64_t *idx,
                             const void *values, size_t n, const void *zero_leaf);

void cz_sdr_tree_free(cz_sdr_tree_t *t);

/* Root / any node as a repr. */
void cz_sdr_tree_root(const cz_sdr_tree_t *t, uint8_t out[32]);
void cz_sdr_tree_node(const cz_sdr_tree_t *t, unsigned level, uint64_t i, uint8_t out[32]);
/* Siblings of leaf |i| as reprs, level by level (sum of arity - 1). */
size_t cz_sdr_tree_path_len(const cz_sdr_tree_t *t);
void cz_sdr_tree_path(const cz_sdr_tree_t *t, uint64_t i, uint8_t (*siblings)[32]);

/* Root from a leaf and its path (reprs): CZ_OK, CZ_ERANGE for a non-Fr
 * value in a Poseidon path. */
int cz_sdr_path_root(uint8_t out[32], cz_por_hasher_t hasher, const unsigned *arity,
                     unsigned nlevels, uint64_t leaf_index, const uint8_t leaf[32],
                     const uint8_t (*siblings)[32]);

/* Hash |arity| children given as 32-byte nodes (repr for SHA254, cz_fr for
 * Poseidon) into out (same form). */
void cz_sdr_hash_nodes(cz_por_hasher_t hasher, unsigned arity, uint8_t out[32],
                       const uint8_t *children);

#endif /* CUZK_KINDS_POREP_TREES_H */
