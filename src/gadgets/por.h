/*
 * gadgets/por.h — Merkle inclusion proofs in the circuit (rust-fil-proofs'
 * PoR gadget) and small native Merkle trees to feed them.
 *
 * Source: rust-fil-proofs storage-proofs-core/src/gadgets/por.rs
 * (PoRCircuit::synthesize, SubPath::synthesize, por_no_challenge_input) and
 * filecoin-hashers src/{sha256,poseidon}.rs (hash_multi_leaf_circuit).
 *
 * A tree shape is RFP's (Arity, SubTreeArity, TopTreeArity): base trees of
 * arity `base` over base_arity^base_levels leaves each, optionally `sub`
 * base trees under one sub node and `top` sub trees under the root (0 means
 * absent; top requires sub). Filecoin uses tree_d = SHA254 binary
 * (2-0-0), tree_c / tree_r_last = Poseidon 8-0-0, 8-8-0 or 8-8-2. The leaf
 * index ("challenge") read little-endian gives the per-level positions:
 * log2(arity) bits per level, base levels first, then sub, then top.
 *
 * Per level the circuit allocates log2(arity) index bits ("index bit i",
 * boolean constraint each), arity - 1 siblings ("path element i"),
 * inserts the current node (gadgets/insertion.h) and hashes the arity nodes:
 *   Poseidon   neptune's legacy circuit (gadgets/poseidon_gadget.h);
 *   SHA254     per node to_bits_le (256 constraints), one constant pad
 *              bit, bytes bit-reversed, sha256 (gadgets/sha256_gadget.h),
 *              digest bytes bit-reversed, first 254 bits packed (1).
 * cz_por_circuit then packs all index bits into public inputs
 * (multipack), allocates the root if it was given as a value, enforces
 * computed * 1 = root and, unless |private_root|, inputizes the root.
 * Reference counts (RFP por tests, FACTS 3): Poseidon base-8 over 64 leaves
 * = 1,063; SHA256 base-2 over 64 leaves = 272,295 (public root).
 *
 * Return values: CZ_OK, CZ_EINVAL (bad shape or arguments), CZ_ENOMEM, or
 * the cs's (sticky) error. Thread-safety: as the cs; native trees are
 * immutable once built and may be read concurrently.
 */
#ifndef CUZK_GADGETS_POR_H
#define CUZK_GADGETS_POR_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "gadgets/num.h"

typedef enum {
    CZ_POR_SHA254 = 0,   /* SHA-256 trimmed to 254 bits (Sha256Hasher) */
    CZ_POR_POSEIDON = 1, /* neptune Poseidon, MerkleTree domain tag */
} cz_por_hasher_t;

typedef struct {
    cz_por_hasher_t hasher;
    unsigned base_arity;  /* power of two >= 2 */
    unsigned sub_arity;   /* power of two, or 0 */
    unsigned top_arity;   /* power of two, or 0 (then sub_arity must be > 0) */
    unsigned base_levels; /* levels of each base tree */
} cz_por_shape_t;

/*
 * Shape for |leaves| leaves in all (RFP base_path_length): base_levels =
 * log_base(leaves / sub / top). CZ_EINVAL when an arity is not a power of
 * two (Poseidon: one of 2, 4, 8, 11's powers of two, i.e. 2, 4 or 8), top
 * is given without sub, or the leaves do not fill the tree exactly. SHA254
 * accepts any power of two, as RFP's Sha256Function does.
 */
int cz_por_shape(cz_por_shape_t *out, cz_por_hasher_t hasher, unsigned base_arity,
                 unsigned sub_arity, unsigned top_arity, uint64_t leaves);
/* Levels of a path (base levels + 1 if sub + 1 if top). */
unsigned cz_por_levels(const cz_por_shape_t *s);
/* Arity of path level |level|. */
unsigned cz_por_level_arity(const cz_por_shape_t *s, unsigned level);
/* Total leaves and total siblings of a path. */
uint64_t cz_por_leaves(const cz_por_shape_t *s);
size_t cz_por_path_len(const cz_por_shape_t *s);

/* An inclusion path: the leaf index and the siblings, level by level, each
 * level's arity - 1 siblings in tree order (the node itself left out). */
typedef struct {
    uint64_t challenge;
    const cz_fr *siblings; /* cz_por_path_len(shape) entries */
} cz_por_path_t;

/* A leaf or root: already allocated (RFP Root::Var, |var| not NULL) or a
 * value the gadget allocates (Root::Val). */
typedef struct {
    const cz_num_t *var;
    cz_fr value;
} cz_por_num_t;

/*
 * PoRCircuit::synthesize: leaf ("value"), paths ("base", "sub", "top"),
 * pack_into_inputs of the index bits ("path"), root ("root_value"),
 * computed * 1 = root ("enforce root is correct"), and the root as a new
 * public input ("root") unless |private_root|. The path's values are read
 * only in value modes (path may be NULL otherwise; the challenge is then 0).
 */
int cz_por_circuit(cz_cs_t *cs, const cz_por_shape_t *shape, const cz_por_path_t *path,
                   const cz_por_num_t *leaf, const cz_por_num_t *root, bool private_root);

/*
 * por_no_challenge_input: the challenge bits and the siblings are already
 * allocated (bits little-endian, IS; siblings level by level); per level
 * "merkle proof insert (height=h)" and "merkle proof hash (height=h)", then
 * computed * 1 = root ("calculated root == provided root").
 */
int cz_por_no_challenge_input(cz_cs_t *cs, const cz_por_shape_t *shape,
                              const cz_bool_t *challenge_bits, const cz_num_t *leaf,
                              const cz_num_t *siblings, const cz_num_t *root);

/* The hash of one tree node in circuit: out = H(children[0..arity)). */
int cz_por_hash_circuit(cz_cs_t *cs, cz_num_t *out, cz_por_hasher_t hasher,
                        const cz_num_t *children, unsigned arity);

/* ---- native trees (tests, small trees) ------------------------------------- */

/* The native node hash: Poseidon(children) or SHA254(repr(c0) || repr(c1) ..). */
int cz_por_hash_native(cz_fr *out, cz_por_hasher_t hasher, const cz_fr *children, unsigned arity);

typedef struct {
    cz_por_shape_t shape;
    size_t nnodes;
    cz_fr *nodes; /* every level, leaves first, root last (owned) */
} cz_por_tree_t;

/* Build the tree over leaves[0 .. cz_por_leaves(shape)) (copied). Allocates
 * about 1.2 x the leaves; CZ_ENOMEM / CZ_EINVAL. Free with _free(). */
int cz_por_tree_build(cz_por_tree_t *t, const cz_por_shape_t *shape, const cz_fr *leaves);
void cz_por_tree_free(cz_por_tree_t *t);
const cz_fr *cz_por_tree_root(const cz_por_tree_t *t);
const cz_fr *cz_por_tree_leaf(const cz_por_tree_t *t, uint64_t i);
/* siblings[0 .. cz_por_path_len) of leaf |challenge|; CZ_EINVAL when out of range. */
int cz_por_tree_path(const cz_por_tree_t *t, uint64_t challenge, cz_fr *siblings);

#endif /* CUZK_GADGETS_POR_H */
