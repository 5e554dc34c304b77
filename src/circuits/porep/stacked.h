/*
 * circuits/porep/stacked.h — the StackedDRG PoRep (SealCommit C2) circuit of
 * one partition, bit for bit as rust-fil-proofs synthesizes it, and the
 * in-memory input ("vanilla proofs") it is synthesized from.
 *
 * Sources (rust-fil-proofs, RFP): storage-proofs-porep/src/stacked/circuit/
 * proof.rs (StackedCircuit::synthesize, StackedCompound::
 * generate_public_inputs), params.rs (Proof::synthesize, enforce_inclusion),
 * column.rs, column_proof.rs, create_label.rs, hash.rs; storage-proofs-core
 * gadgets/{por.rs, encode.rs, uint64.rs}; filecoin-proofs constants.rs
 * (the per-size table, FACTS 3).
 *
 * OWNERSHIP AND CONTRACT BETWEEN ENGINEERS
 *   This header is the only interface between the circuit (src/circuits/
 *   porep/, owner: circuit) and the C1 side (src/kinds/porep/: JSON parser,
 *   DRG/expander parents, challenge derivation, test sealing; owner: C1),
 *   which FILLS a cz_porep_input_t: allocate it with cz_porep_input_alloc()
 *   (every array is then sized by the params), write the values in place,
 *   hand it to cz_porep_circuit()/cz_porep_synthesize(), free it with
 *   cz_porep_input_free(). The circuit only reads the input.
 *
 * FIELD ELEMENTS
 *   Every value is a cz_fr, converted from the 32-byte little-endian repr of
 *   the C1 JSON (`replica_id`, `comm_d`, `comm_r`, tree hashes, column
 *   rows, data leaves: RFP Domain bytes are Fr reprs) with
 *   cz_fr_from_repr(). SHA254 hashes (tree_d: comm_d, its siblings, the data
 *   leaf) have their top two bits clear, so they are valid reprs too.
 *
 * PATHS (all of them: tree_d, tree_c, tree_r_last)
 *   A path is given as the leaf index plus the siblings, level by level from
 *   the leaves up, each level's (arity - 1) siblings in tree order with the
 *   node itself left out (exactly the `hashes` of each C1 path element, in
 *   the JSON's order: base levels, then the sub level, then the top level).
 *   The per-level position (the JSON's `index`) is NOT stored: it is the
 *   leaf index's digits, log2(arity) bits per level read little-endian, base
 *   levels first (RFP AuthPath / por.rs). The parser must check that the
 *   JSON's per-level indices agree with the leaf index it stores.
 *   tree_d: binary SHA254 over `nodes` leaves: cz_porep_d_path_len() =
 *   log2(nodes) siblings. tree_c and tree_r_last: Poseidon with the params'
 *   base/sub/top arities over `nodes` leaves: cz_porep_rc_path_len()
 *   siblings (32GiB, 8-8-0: 9 base levels x 7 + 7 = 70).
 *
 * SHAPE / KEYGEN
 *   The R1CS does not depend on the values, so cz_porep_circuit() accepts a
 *   NULL input in CZ_CS_SHAPE and CZ_CS_KEYGEN modes (RFP blank_circuit).
 *   PROVE and CHECK require a complete input.
 *
 * Thread-safety: params and inputs are plain values, read-only during
 * synthesis, so any number of partitions (or challenges) may be synthesized
 * concurrently from one input. A cs is used by one thread at a time.
 */
#ifndef CUZK_CIRCUITS_POREP_STACKED_H
#define CUZK_CIRCUITS_POREP_STACKED_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "cs/cs.h"
#include "core/ctx.h"
#include "ff/fr.h"

/* DRG base degree, expansion degree, parents per label (RFP drgraph.rs
 * BASE_DEGREE, stacked/vanilla EXP_DEGREE, TOTAL_PARENTS; FACTS 3). */
#define CZ_POREP_DRG_DEGREE 6u
#define CZ_POREP_EXP_DEGREE 8u
#define CZ_POREP_TOTAL_PARENTS 37u
/* The most layers a column may have: the column hash is Poseidon with
 * arity = layers (RFP hash.rs: 2 or 11; cuzk also takes 4 and 8, the other
 * arities it keeps shared constants for). */
#define CZ_POREP_MAX_LAYERS 11u

/* ---- parameters --------------------------------------------------------------- */

/*
 * One StackedDRG configuration. The circuit of a partition depends on
 * nodes, layers, challenges and the tree shape only; partitions is carried
 * for callers (a sector's proof is |partitions| independent circuits).
 */
typedef struct {
    uint64_t sector_bytes; /* nodes * 32 (0 for non-production configs) */
    uint64_t nodes;        /* leaves of tree_d, tree_c, tree_r_last; power of 2 */
    unsigned layers;       /* 2, 4, 8 or 11 (= column hash arity) */
    unsigned challenges;   /* challenges per partition */
    unsigned partitions;   /* partitions per sector proof */
    unsigned base_arity;   /* tree_c/tree_r_last base arity (8 in Filecoin) */
    unsigned sub_arity;    /* 0 = none */
    unsigned top_arity;    /* 0 = none (requires sub) */
} cz_porep_params_t;

/*
 * The production configuration of a sector size in bytes (FACTS 3 table:
 * 2KiB, 8MiB, 512MiB: 2 layers, 2 challenges, 1 partition, 8-0-0; 32GiB:
 * 11 layers, 18 challenges, 10 partitions, 8-8-0; 64GiB: 8-8-2). CZ_EINVAL
 * for any other size.
 */
int cz_porep_params_sector(cz_porep_params_t *out, uint64_t sector_bytes);

/*
 * A general configuration (RFP tests use nodes = 8 x sub x top with 1
 * challenge and 2 layers). CZ_EINVAL when nodes does not fill the tree
 * shape exactly, an arity is not 2, 4 or 8 (sub/top may be 0), the layer
 * count is not 2, 4, 8 or 11, or challenges is 0. sector_bytes is set to nodes * 32, partitions to 1.
 */
int cz_porep_params_make(cz_porep_params_t *out, uint64_t nodes, unsigned layers,
                         unsigned challenges, unsigned base_arity, unsigned sub_arity,
                         unsigned top_arity);

/* True when |a| and |b| give the same partition circuit (nodes, layers,
 * challenges, arities; partitions and sector_bytes do not enter it). */
bool cz_porep_params_same_circuit(const cz_porep_params_t *a, const cz_porep_params_t *b);

/* Parse "2KiB", "8MiB", "512MiB", "32GiB", "64GiB" (also plain bytes) into
 * bytes. CZ_EINVAL when malformed. */
int cz_porep_parse_size(const char *text, uint64_t *bytes);

/* Siblings of a tree_d path (log2(nodes)) and of a tree_c / tree_r_last
 * path (sum over levels of arity - 1). */
size_t cz_porep_d_path_len(const cz_porep_params_t *p);
size_t cz_porep_rc_path_len(const cz_porep_params_t *p);

/*
 * Public inputs of one partition, ONE included: 1 + 3 + challenges x (1 +
 * 6 + 8 + 1 + 1 + 1) when every path's index bits fit in one 254-bit
 * chunk (always, for nodes <= 2^254). 2KiB: 40; 32GiB: 328.
 */
size_t cz_porep_num_inputs(const cz_porep_params_t *p);

/* ---- the input: one partition's vanilla proofs ------------------------------ */

/*
 * One column opening (RFP ReplicaColumnProof element / C1 `{column:
 * {index, rows}, inclusion_proof}`).
 */
typedef struct {
    uint64_t index; /* the node: column.index = leaf index in tree_c */
    cz_fr *rows;    /* [layers]: rows[l - 1] = label of node |index|
                              * at layer l (l = 1..layers; C1 column.rows order) */
    cz_fr *c_path;  /* [cz_porep_rc_path_len]: tree_c siblings of leaf
                              * |index| (inclusion_proof path hashes) */
} cz_porep_column_t;

/*
 * One challenge (RFP circuit/params.rs Proof, built from a vanilla Proof).
 */
typedef struct {
    uint64_t challenge; /* challenged node (labeling_proofs[0].node; equals
                              * the leaf index of all three paths below) */
    cz_fr data_leaf;    /* unsealed data node |challenge| = comm_d_proofs leaf */
    cz_fr *d_path;      /* [cz_porep_d_path_len]: tree_d siblings of leaf
                              * |challenge| (comm_d_proofs path) */
    /* The 6 DRG parents of |challenge| in the base graph's parents() order
     * and the 8 expander parents in expanded_parents() order (C1
     * replica_column_proofs.drg_parents / exp_parents, in JSON order). The
     * circuit uses drg[k].rows[l-1] for the label of layer l and
     * exp[k].rows[l-2] for layer l >= 2 (expander parents come from the
     * previous layer); every row of every column enters its column hash. */
    cz_porep_column_t drg[CZ_POREP_DRG_DEGREE];
    cz_porep_column_t exp[CZ_POREP_EXP_DEGREE];
    cz_fr *c_path; /* [rc_path_len]: tree_c siblings of leaf |challenge|
                              * (replica_column_proofs.c_x.inclusion_proof) */
    cz_fr *r_path; /* [rc_path_len]: tree_r_last siblings of leaf
                              * |challenge| (comm_r_last_proof) */
    /* Not read by the circuit, which recomputes them (labels from the
     * parents, replica = last label + data leaf); kept so cz_porep_input_check
     * can find a bad input natively: c_x.column.rows and the
     * comm_r_last_proof leaf. */
    cz_fr *labels;      /* [layers]: label of |challenge| at layers 1..L */
    cz_fr replica_leaf; /* tree_r_last leaf |challenge| */
} cz_porep_challenge_t;

/* One partition's input (RFP StackedCircuit fields). */
typedef struct {
    cz_porep_params_t params; /* copy of the params it was allocated for */
    cz_fr replica_id;         /* public */
    cz_fr comm_d;             /* public: tree_d root */
    cz_fr comm_r;             /* public: Poseidon2(comm_c, comm_r_last) */
    cz_fr comm_r_last;        /* private: tree_r_last root (comm_r_last_proof root) */
    cz_fr comm_c;             /* private: tree_c root (c_x inclusion root) */
    unsigned partition;       /* k: which partition of the sector (informative) */
    unsigned nchallenges;     /* = params.challenges */
    cz_porep_challenge_t *ch; /* [nchallenges], in the partition's challenge order */
    void *block_;             /* private: the single allocation behind everything */
} cz_porep_input_t;

/*
 * Allocate an input for |p| with every array sized (zero-filled values, all
 * indices 0). One allocation; CZ_ENOMEM / CZ_EINVAL. *in is zeroed on error.
 * A 32GiB partition takes about 18 x (15 x (11 + 70) + 2 x 70 + 30 + 11) x
 * 32 B ~ 0.8 MB.
 */
int cz_porep_input_alloc(cz_porep_input_t *in, const cz_porep_params_t *p);
/* Release it. NULL or a zeroed input is a harmless no-op. */
void cz_porep_input_free(cz_porep_input_t *in);

/*
 * Native consistency check of a filled input (no circuit): every path
 * hashes to its root (tree_d SHA254 -> comm_d; column hashes through tree_c
 * -> comm_c; replica_leaf through tree_r_last -> comm_r_last), comm_r =
 * Poseidon2(comm_c, comm_r_last), each label of the challenge recomputes
 * from replica_id and the parent rows (create_label, FACTS 4), and
 * replica_leaf = labels[L-1] + data_leaf. CZ_OK or CZ_EUNSAT with a
 * message naming the first failing check (challenge, what).
 */
int cz_porep_input_check(cz_ctx_t *ctx, const cz_porep_input_t *in);

/*
 * The verifier's public inputs (ONE excluded), in the circuit's order
 * (RFP StackedCompound::generate_public_inputs): replica_id, comm_d,
 * comm_r, then per challenge: the tree_d path bits packed, the 6 DRG and 8
 * expander parents' tree_c path bits packed, the challenge as Fr, the
 * tree_r_last path bits, the tree_c path bits of the challenge. Writes
 * cz_porep_num_inputs(p) - 1 values to out[]. Only the indices and the
 * three public values of |in| are read.
 */
int cz_porep_public_inputs(const cz_porep_input_t *in, cz_fr *out, size_t n_out);

/* ---- synthesis ------------------------------------------------------------ */

/*
 * Synthesize one partition into |cs| (any mode; does NOT finish it). |in|
 * may be NULL in SHAPE and KEYGEN modes; otherwise it must have been
 * allocated for params equal to |p|. Variables and constraints come in
 * exactly RFP's order. CZ_EINVAL (bad params / missing input), CZ_ENOMEM,
 * or the cs's sticky error.
 */
int cz_porep_circuit(cz_cs_t *cs, const cz_porep_params_t *p, const cz_porep_input_t *in);

/*
 * What the parallel synthesis needs to know ahead: the rows, aux and inputs
 * of the prelude and of one challenge (every challenge of a partition has
 * the same shape). cz_porep_plan finds them by a SHAPE synthesis of the
 * prelude and challenge 0 (~1/18 of a 32GiB partition's shape; compute it
 * once per job). CZ_OK, CZ_EINVAL (bad params) or CZ_ENOMEM.
 */
typedef struct {
    size_t rows, aux, inputs;
} cz_porep_counts_t;

typedef struct {
    cz_porep_counts_t prelude, challenge;
} cz_porep_plan_t;

int cz_porep_plan(cz_porep_plan_t *out, const cz_porep_params_t *p);

/*
 * The same R1CS as cz_porep_circuit, with the challenges synthesized in
 * parallel on ctx's pool and appended to |cs| in challenge order
 * (byte-identical to the sequential synthesis). In PROVE every challenge
 * gets an in-place fork (cz_cs_fork_at) writing straight into |cs|'s
 * arrays, all at once (no copy, no waves); |plan| (may be NULL: computed
 * here) gives their slots. The other modes use copying forks in waves of
 * the pool's width. Falls back to the sequential path for a pool of width
 * 1 or a single challenge.
 */
int cz_porep_synthesize_planned(cz_ctx_t *ctx, cz_cs_t *cs, const cz_porep_params_t *p,
                                const cz_porep_input_t *in, const cz_porep_plan_t *plan);
/* cz_porep_synthesize_planned with the plan computed when needed. */
int cz_porep_synthesize(cz_ctx_t *ctx, cz_cs_t *cs, const cz_porep_params_t *p,
                        const cz_porep_input_t *in);

#endif /* CUZK_CIRCUITS_POREP_STACKED_H */
