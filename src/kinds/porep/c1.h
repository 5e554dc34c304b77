/*
 * kinds/porep/c1.h — SealCommitPhase1Output (the C1 JSON): in-memory model,
 * parser and writer (jansson), and the bridge to the circuit's input.
 *
 * JSON shapes (rust-filecoin-proofs-api src/seal.rs SealCommitPhase1Output;
 * RFP storage-proofs-porep/src/stacked/vanilla/{params.rs Proof,
 * ReplicaColumnProof, column_proof.rs, column.rs, labeling_proof.rs,
 * encoding_proof.rs}; storage-proofs-core/src/merkle/proof.rs):
 *   { "registered_proof": "StackedDrg2KiBV1_1",
 *     "vanilla_proofs": { "StackedDrg2KiBV1": [ [Proof; challenges]; partitions ] },
 *     "comm_r", "comm_d", "replica_id", "seed", "ticket": [32 numbers] }
 *   Proof = { comm_d_proofs: MerkleProof, comm_r_last_proof: MerkleProof,
 *     replica_column_proofs: { c_x: ColumnProof, drg_parents: [6],
 *                              exp_parents: [8] },
 *     labeling_proofs: [ {parents: [37 x 32B], layer_index, node} ; layers ],
 *     encoding_proof: {parents, layer_index, node} }
 *   ColumnProof = { column: {index, rows: [layers], "_h": null},
 *                   inclusion_proof: MerkleProof }
 *   MerkleProof = { data: { Single: {root, leaf, path: {path: [PathElement]}}
 *                         | Sub: {base_proof: {path}, sub_proof: {path}, root, leaf}
 *                         | Top: {base_proof, sub_proof, top_proof, root, leaf} } }
 *   PathElement = { hashes: [arity - 1 x 32B], index }
 *
 * Ownership: a cz_c1_t owns everything it points to; cz_c1_free() releases
 * it. Parsing is all-or-nothing. Thread-safety: a parsed cz_c1_t is
 * read-only and may be shared.
 */
#ifndef CUZK_KINDS_POREP_C1_H
#define CUZK_KINDS_POREP_C1_H

#include <stddef.h>
#include <stdint.h>

#include "circuits/porep/stacked.h"
#include "core/ctx.h"
#include "kinds/porep/porep.h"
#include "kinds/porep/trees.h"

typedef uint8_t cz_c1_hash_t[32];

enum { CZ_C1_SINGLE = 0, CZ_C1_SUB = 1, CZ_C1_TOP = 2 };

typedef struct {
    int kind;                           /* CZ_C1_SINGLE / SUB / TOP */
    unsigned nlevels;                   /* all levels (base + sub + top) */
    unsigned nbase;                     /* base levels (the rest: sub, top) */
    unsigned arity[CZ_TREE_MAX_LEVELS]; /* hashes + 1 per level */
    unsigned index[CZ_TREE_MAX_LEVELS]; /* position at each level */
    cz_c1_hash_t *siblings;             /* sum(arity - 1), level by level */
    cz_c1_hash_t root, leaf;
} cz_c1_merkle_t;

typedef struct {
    uint32_t index; /* column.index (node) */
    unsigned nrows;
    cz_c1_hash_t *rows;   /* labels at layers 1..nrows */
    cz_c1_merkle_t proof; /* inclusion in tree_c */
} cz_c1_column_t;

typedef struct {
    unsigned nparents;
    cz_c1_hash_t *parents;
    uint32_t layer_index;
    uint64_t node;
} cz_c1_label_t;

typedef struct {
    cz_c1_merkle_t comm_d;      /* comm_d_proofs */
    cz_c1_merkle_t comm_r_last; /* comm_r_last_proof */
    cz_c1_column_t c_x;
    cz_c1_column_t drg[CZ_POREP_DRG_DEGREE];
    cz_c1_column_t exp[CZ_POREP_EXP_DEGREE];
    unsigned nlabels;
    cz_c1_label_t *labeling; /* [nlabels], layer 1..L */
    cz_c1_label_t encoding;
} cz_c1_proof_t;

typedef struct {
    const cz_porep_proof_t *proof; /* registered_proof */
    cz_porep_params_t params;      /* from the sector size */
    unsigned npartitions, nchallenges;
    cz_c1_proof_t *proofs; /* [partition * nchallenges + challenge] */
    cz_c1_hash_t comm_r, comm_d, replica_id, seed, ticket;
} cz_c1_t;

/* Allocate the proof array of |c| (npartitions x nchallenges, zeroed). */
int cz_c1_alloc_proofs(cz_c1_t *c, unsigned npartitions, unsigned nchallenges);
/* Allocate a Merkle proof's siblings for the given per-level arities. */
int cz_c1_merkle_alloc(cz_c1_merkle_t *m, int kind, unsigned nbase, const unsigned *arity,
                       unsigned nlevels);
/* Release everything |c| owns and zero it. NULL is a harmless no-op. */
void cz_c1_free(cz_c1_t *c);

/*
 * Parse C1 JSON text (len bytes, need not be NUL-terminated). Strict:
 * every field present with the right type and length, arities and counts
 * matching the registered proof's sector size, values < 2^256 as bytes.
 * Errors are CZ_EFORMAT with a message naming the JSON path, e.g.
 * "c1: vanilla_proofs.StackedDrg2KiBV1[0][1].comm_d_proofs.data.Single.path.path[3].hashes:
 * expected 1 hashes, got 2". On error *out is zeroed.
 */
int cz_c1_parse(cz_ctx_t *ctx, cz_c1_t *out, const char *text, size_t len);
/* Read and parse a file (CZ_EIO when unreadable). */
int cz_c1_load(cz_ctx_t *ctx, cz_c1_t *out, const char *path);

/* Serialize as C1 JSON (compact) into a malloc'd NUL-terminated string. */
int cz_c1_to_json(cz_ctx_t *ctx, const cz_c1_t *c, char **out);
int cz_c1_save(cz_ctx_t *ctx, const cz_c1_t *c, const char *path);

/*
 * Native verification of a whole C1 as RFP's vanilla verifier would
 * (params.rs Proof::verify): challenges re-derived from replica_id and
 * seed, every path index agreeing with the challenge / parents, every
 * inclusion path hashing to its root, one comm_c and comm_r_last,
 * comm_r = Poseidon2(comm_c, comm_r_last), comm_d root, labels recomputed,
 * encoding. CZ_OK or CZ_EVERIFY with the first failure named.
 */
int cz_c1_verify(cz_ctx_t *ctx, const cz_c1_t *c);

/* Fill the circuit input of partition k from a parsed C1 (allocates |in|
 * with cz_porep_input_alloc; free with cz_porep_input_free). */
int cz_c1_to_circuit(cz_ctx_t *ctx, const cz_c1_t *c, unsigned k, cz_porep_input_t *in);

#endif /* CUZK_KINDS_POREP_C1_H */
