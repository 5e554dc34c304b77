/*
 * circuits/snap/snap.h — the SnapDeals EmptySectorUpdate circuit of one
 * partition, bit for bit as rust-fil-proofs synthesizes it, its parameters,
 * its in-memory input and the native derivations (challenges, phi, rho) its
 * verifier and test-data generator share.
 *
 * FACTS (rust-fil-proofs, RFP; rust-filecoin-proofs-api, API):
 *   - Variant. API src/update.rs generate_empty_sector_update_proof_with_
 *     vanilla deserializes `PartitionProof<Tree>` and calls filecoin-proofs
 *     generate_empty_sector_update_proof_with_vanilla, i.e. the SHA256-TreeD
 *     EmptySectorUpdateCompound (storage-proofs-update/src/{circuit.rs,
 *     compound.rs}) for every RegisteredUpdateProof 0-4 (2KiB, 8MiB,
 *     512MiB, 32GiB, 64GiB, V1). The Poseidon-TreeD variant (storage-proofs-
 *     update/src/poseidon/) is not reached from Curio's path.
 *   - Per size (RFP storage-proofs-update/src/constants.rs): partitions 1
 *     (<= 8KiB), 2 (<= 32KiB), 4 (<= 16MiB), 16 (above); challenges per
 *     partition 10 (<= 16MiB), 86 (above); apex leaves 8 (<= 8KiB), 128
 *     (above); hs = [1; 6] (<= 32KiB), [7, 8, 9, 10, 11, 12] (above); TreeR
 *     (tree_r_old, tree_r_new) shapes 2KiB/8MiB/512MiB 8-0-0, 32GiB 8-8-0,
 *     64GiB 8-8-2 (validate_tree_r_shape); TreeD is a binary SHA254 tree.
 *   - h: filecoin-proofs src/types HSelect::from_nodes = hs(nodes)[3] (10 for
 *     8MiB and up, 1 below); the circuit takes h_select = 2^i with hs[i] = h
 *     (first such i: circuit.rs PublicInputs::new uses position()).
 *   - Public inputs (circuit.rs PublicInputs::to_vec): [k_and_h_select,
 *     comm_r_old, comm_d_new, comm_r_new] with k_and_h_select = k |
 *     (h_select << partition_bit_len); with ONE, 5 inputs at every size.
 *   - Randomness (constants.rs POSEIDON_CONSTANTS_GEN_RANDOMNESS): Poseidon
 *     arity 2, standard strength, HashType::Custom(CType::Arbitrary(1)):
 *     the same round constants and MDS as the Merkle arity-2 hash, domain
 *     tag 1 * 2^40 (neptune src/hash_type.rs CType::domain_tag = x_pow2(id,
 *     40)). phi = H(comm_d_new, comm_r_old); rho(c) = H(phi, c >> (log2(nodes)
 *     - h)); challenge digests H(comm_r_new, k * digests_per_partition + j)
 *     (challenges.rs, gadgets.rs gen_challenge_bits): each digest's 255 LE
 *     bits give floor(254 / b) challenges of b = log2(nodes) -
 *     log2(partitions) bits, then k << b is or-ed in.
 *   - Encoding (vanilla.rs verify): label_r_new = label_r_old + label_d_new
 *     * rho; comm_r = H2(comm_c, root_r) with the Merkle arity-2 Poseidon.
 *   - Reference constraint counts (RFP storage-proofs-update/tests/circuit.rs
 *     test_empty_sector_update_circuit_2kib 1,705,039;
 *     test_empty_sector_update_constraints_32gib 81,049,499).
 *
 * SYNTHESIS ORDER (circuit.rs EmptySectorUpdateCircuit::synthesize):
 *   k_and_h_select (input), its partition_bit_len + 6 bits and their
 *   decomposition, the packed partition, comm_r_old / comm_d_new /
 *   comm_r_new (inputs), phi, comm_c, root_r_old, root_r_new, the apex
 *   leaves, the partition path, comm_r_old/new = H2(comm_c, root) checks,
 *   apex_por, gen_challenge_bits; per challenge: get_challenge_high_bits,
 *   rho, leaf_r_old, leaf_d_new, label_r_new, tree_r_old siblings + por,
 *   tree_r_new siblings + por, select the apex leaf, the tree_d siblings
 *   below the apex + por.
 *
 * OWNERSHIP: a cz_snap_input_t comes from cz_snap_input_alloc (one
 * block, every array sized by the params), is filled in place and freed
 * with cz_snap_input_free. The circuit only reads it. Paths are stored
 * as in circuits/porep/stacked.h: siblings level by level from the leaves,
 * each level's arity - 1 siblings in tree order; the positions are the
 * challenge's digits.
 *
 * SHAPE / KEYGEN accept a NULL input; PROVE and CHECK need one.
 * Thread-safety: params and inputs are plain values; the shared
 * randomness constants are built once (pthread_once) and immutable.
 */
#ifndef CUZK_CIRCUITS_SNAP_SNAP_H
#define CUZK_CIRCUITS_SNAP_SNAP_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "cs/cs.h"
#include "core/ctx.h"
#include "ff/fr.h"
#include "hash/poseidon_constants.h"

#define CZ_SNAP_NUM_HS 6u
/* The most challenges per partition and apex leaves (constants.rs: 86, 128). */
#define CZ_SNAP_MAX_CHALLENGES 86u
#define CZ_SNAP_MAX_APEX 128u
/* Public inputs of a partition, ONE included. */
#define CZ_SNAP_NUM_INPUTS 5u

typedef struct {
    uint64_t sector_bytes;
    uint64_t nodes;             /* 2^challenge_bit_len */
    unsigned challenge_bit_len; /* log2(nodes): height of TreeD */
    unsigned challenges;        /* per partition */
    unsigned partitions;
    unsigned partition_bit_len;
    unsigned apex_leaves;
    unsigned apex_bit_len;
    unsigned base_arity, sub_arity, top_arity; /* TreeR shape */
    unsigned hs[CZ_SNAP_NUM_HS];
    unsigned h; /* the h proofs-api proves with (hs[3]) */
} cz_snap_params_t;

/* The parameters of a production sector size (2KiB, 8MiB, 512MiB, 32GiB,
 * 64GiB); CZ_EINVAL for any other. */
int cz_snap_params_sector(cz_snap_params_t *out, uint64_t sector_bytes);
/* Siblings of a TreeD path (challenge_bit_len) and of a TreeR path. */
size_t cz_snap_d_path_len(const cz_snap_params_t *p);
size_t cz_snap_r_path_len(const cz_snap_params_t *p);
/* The index i of h in hs (first match); CZ_EINVAL when h is not allowed. */
int cz_snap_h_index(const cz_snap_params_t *p, unsigned h, unsigned *index);

/* ---- native derivations ----------------------------------------------------- */

/* The randomness Poseidon (arity 2, domain tag 2^40); NULL only when out of
 * memory on first use. Process-lifetime, immutable. */
const cz_poseidon_constants *cz_snap_randomness_constants(void);
/* phi = H_rand(comm_d_new, comm_r_old). */
int cz_snap_phi(cz_fr *phi, const cz_fr *comm_d_new, const cz_fr *comm_r_old);
/* rho = H_rand(phi, c >> (challenge_bit_len - h)). */
int cz_snap_rho(cz_fr *rho, const cz_snap_params_t *p, const cz_fr *phi, uint64_t c, unsigned h);
/* The challenges of partition k (challenges.rs Challenges::new). */
int cz_snap_challenges(const cz_snap_params_t *p, const cz_fr *comm_r_new, unsigned k,
                       uint64_t *out);
/* k_and_h_select as a field element; CZ_EINVAL for a bad k or h. */
int cz_snap_k_and_h_select(const cz_snap_params_t *p, unsigned k, unsigned h, cz_fr *out);

/* ---- the input: one partition ------------------------------------------------ */

typedef struct {
    uint64_t challenge; /* the node all three paths open */
    cz_fr leaf_r_old, leaf_d_new, leaf_r_new;
    cz_fr *path_r_old; /* [r_path_len] */
    cz_fr *path_d_new; /* [d_path_len]: the whole TreeD path */
    cz_fr *path_r_new; /* [r_path_len] */
} cz_snap_challenge_t;

typedef struct {
    cz_snap_params_t params;
    unsigned k;                               /* partition index */
    unsigned h;                               /* must be in params.hs */
    cz_fr comm_r_old, comm_d_new, comm_r_new; /* public */
    cz_fr comm_c, root_r_old, root_r_new;     /* private */
    cz_fr *apex_leaves;                       /* [apex_leaves] */
    cz_snap_challenge_t *ch;                  /* [challenges] */
    void *block_;
} cz_snap_input_t;

int cz_snap_input_alloc(cz_snap_input_t *in, const cz_snap_params_t *p);
void cz_snap_input_free(cz_snap_input_t *in);

/*
 * Native check of a filled input, as the vanilla verifier (vanilla.rs
 * EmptySectorUpdate::verify) does it: k and h valid, comm_r_old/new =
 * H2(comm_c, root_r_old/new), the challenges equal Challenges(comm_r_new,
 * k), every path opens its challenge to its root, the apex leaves hash to
 * the TreeD path's apex node, the encoding holds. CZ_OK, or CZ_EUNSAT with
 * the first failing check in the ctx message.
 */
int cz_snap_input_check(cz_ctx_t *ctx, const cz_snap_input_t *in);

/* The 4 public inputs (ONE excluded) from public values. */
int cz_snap_public_inputs(const cz_snap_params_t *p, unsigned k, unsigned h,
                          const cz_fr *comm_r_old, const cz_fr *comm_d_new, const cz_fr *comm_r_new,
                          cz_fr out[CZ_SNAP_NUM_INPUTS - 1]);

/* ---- synthesis ------------------------------------------------------------------ */

/* Synthesize one partition into |cs| (does not finish it). CZ_EINVAL for a
 * missing input in a value mode or an input of other params. */
int cz_snap_circuit(cz_cs_t *cs, const cz_snap_params_t *p, const cz_snap_input_t *in);

/*
 * What the parallel synthesis needs to know ahead: the rows, aux and inputs
 * of one apex hash and of one challenge (all apex hashes have one shape,
 * all challenges of a partition another). cz_snap_plan finds them by a
 * SHAPE synthesis of one of each over stand-in variables of the prelude's
 * kinds (~1/86 of a 32GiB partition's shape: compute it once per job; a
 * wrong plan cannot pass unnoticed: an in-place fork that does not fill
 * its slot exactly fails). CZ_OK, CZ_EINVAL (bad params) or CZ_ENOMEM.
 */
typedef struct {
    size_t rows, aux, inputs;
} cz_snap_counts_t;

typedef struct {
    cz_snap_counts_t apex_hash, challenge;
} cz_snap_plan_t;

int cz_snap_plan(cz_snap_plan_t *out, const cz_snap_params_t *p);

/*
 * cz_snap_circuit with the independent parts on ctx's pool (parallel.c):
 * in PROVE, each row of the apex tree's hashes and then all challenges of
 * the partition go into in-place forks (cs/cs.h cz_cs_fork_at) at their
 * final slots of |cs|'s arrays, extended in order, so the R1CS, the
 * assignment, a/b/c and the densities are those of the sequential
 * synthesis byte for byte. |plan| (NULL: computed here) gives the slots.
 * The other modes, a pool of width 1 and a partition of one challenge run
 * cz_snap_circuit (SHAPE and KEYGEN are always the sequential code).
 * |cs| must be a root cs (not a fork). Errors: cz_snap_circuit's, with
 * a message naming the failing challenge or apex hash on |ctx|.
 */
int cz_snap_circuit_planned(cz_ctx_t *ctx, cz_cs_t *cs, const cz_snap_params_t *p,
                            const cz_snap_input_t *in, const cz_snap_plan_t *plan);

#endif /* CUZK_CIRCUITS_SNAP_SNAP_H */
