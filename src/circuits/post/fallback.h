/*
 * circuits/post/fallback.h — the FallbackPoSt circuit (WinningPoSt and
 * WindowPoSt share it) of one partition, bit for bit as rust-fil-proofs
 * synthesizes it, and the in-memory witness it is synthesized from.
 *
 * FACTS (rust-fil-proofs, RFP; rust-filecoin-proofs-api, API):
 *   RFP storage-proofs-post/src/fallback/circuit.rs, Sector::synthesize, per
 *     circuit sector in namespace "sector_i" (inside "outer namespace"):
 *       alloc comm_r_last ("comm_r_last"), alloc comm_c ("comm_c"), alloc
 *       comm_r ("comm_r"), comm_r.inputize ("comm_r_input"), hash2_circuit
 *       (Poseidon arity 2) of (comm_c, comm_r_last) ("H_comm_c_comm_r_last"),
 *       constraint::equal(comm_r, hash); then per challenge i, in
 *       "challenge_inclusion_i", PoRCircuit::synthesize(Root::Val(leaf),
 *       path, Root::Var(comm_r_last), private = true): the leaf allocated,
 *       the path, pack_into_inputs of the index bits, root equality; no
 *       root input (gadgets/por.h).
 *   FallbackPoStCircuit::synthesize_extendable synthesizes groups of sectors
 *     into separate constraint systems and extends them in order: the same
 *     R1CS as the sequential loop (the sectors share nothing but ONE), which
 *     cz_post_synthesize exploits.
 *   RFP storage-proofs-post/src/fallback/compound.rs, generate_public_inputs
 *     (ONE excluded): per circuit sector comm_r, then per challenge the
 *     PoR input = the challenged leaf index as one Fr (PoRCompound,
 *     private root); a partition with fewer sectors repeats the last
 *     sector's inputs (FallbackPoStCompound::circuit repeats its witness).
 *     So inputs = 1 + sectors x (1 + challenges).
 *   RFP filecoin-proofs/src/parameters.rs winning_post_setup_params: the
 *     winning circuit has param_sector_count = challenge_count /
 *     sector_count = 66 circuit sectors of param_challenge_count = 1
 *     challenge each (WINNING_POST_CHALLENGE_COUNT 66, WINNING_POST_SECTOR_
 *     COUNT 1: filecoin-proofs/src/constants.rs); the single sector's 66
 *     inclusion proofs are unrolled into 66 circuit sectors
 *     (api/post_util.rs partition_vanilla_proofs, PoStType::Winning).
 *     window_post_setup_params: sector_count = WINDOW_POST_SECTOR_COUNT
 *     (2 for 2KiB..1GiB, 2349 at 32GiB, 2300 at 64GiB), challenge_count =
 *     WINDOW_POST_CHALLENGE_COUNT = 10.
 *   Tree shapes (filecoin-proofs constants.rs, with_shape!): 2KiB, 8MiB,
 *     512MiB 8-0-0; 32GiB 8-8-0; 64GiB 8-8-2 (as PoRep's tree_r_last).
 *   Checks: 32GiB 132 inputs winning and 25,839 window without ONE, the IC
 *     lengths 133 / 25,840 of the real v27 vks (shared/realdata/fil-blst);
 *     RFP circuit.rs test: 8-0-0 over 64 leaves, 3 sectors x 5 challenges
 *     = 19 inputs, 16,869 constraints (TestConstraintSystem count).
 *
 * OWNERSHIP
 *   src/kinds/post/ (bincode reader, challenge derivation, public inputs) FILLS a
 *   cz_post_witness_t: allocate it with cz_post_witness_alloc() (every array
 *   sized by the params), write the values in place (already unrolled or
 *   padded to params.sectors circuit sectors), hand it to the synthesis,
 *   free it with cz_post_witness_free(). The circuit only reads it.
 *   Paths are stored as in circuits/porep/stacked.h: the leaf index plus the
 *   siblings level by level, each level's arity - 1 siblings in tree order.
 *
 * SHAPE / KEYGEN take a NULL witness (RFP blank_circuit); PROVE and CHECK
 * need one. Errors: CZ_EINVAL (bad params, missing or mismatched witness, a
 * leaf index outside the tree), CZ_ENOMEM, or the cs's sticky error.
 * Thread-safety: params and witnesses are plain values, read-only during
 * synthesis; a cs is used by one thread at a time.
 */
#ifndef CUZK_CIRCUITS_POST_FALLBACK_H
#define CUZK_CIRCUITS_POST_FALLBACK_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "cs/cs.h"
#include "core/ctx.h"
#include "ff/fr.h"

/* filecoin-proofs/src/constants.rs */
#define CZ_POST_WINNING_CHALLENGES 66u /* WINNING_POST_CHALLENGE_COUNT */
#define CZ_POST_WINNING_SECTORS 1u     /* WINNING_POST_SECTOR_COUNT */
#define CZ_POST_WINDOW_CHALLENGES 10u  /* WINDOW_POST_CHALLENGE_COUNT */

typedef enum { CZ_POST_WINNING = 0, CZ_POST_WINDOW = 1 } cz_post_kind_t;

/* One FallbackPoSt circuit configuration (RFP fallback::PublicParams plus
 * the tree shape). */
typedef struct {
    cz_post_kind_t kind;
    uint64_t sector_bytes; /* nodes * 32 */
    uint64_t nodes;        /* leaves of tree_r_last */
    unsigned sectors;      /* circuit sectors (winning 66, window per size) */
    unsigned challenges;   /* challenges per circuit sector (winning 1, window 10) */
    unsigned base_arity, sub_arity, top_arity; /* tree_r_last: 8-0-0, 8-8-0, 8-8-2 */
} cz_post_params_t;

/* The production configuration of |kind| for a sector size in bytes (2KiB,
 * 8MiB, 512MiB, 32GiB, 64GiB). CZ_EINVAL for any other size. */
int cz_post_params_sector(cz_post_params_t *out, cz_post_kind_t kind, uint64_t sector_bytes);

/* A general configuration (RFP tests: e.g. 64 leaves, 3 sectors, 5
 * challenges, 8-0-0). CZ_EINVAL when nodes does not fill the tree, an arity
 * is not 2, 4 or 8 (sub/top may be 0), or sectors/challenges is 0. */
int cz_post_params_make(cz_post_params_t *out, cz_post_kind_t kind, uint64_t nodes,
                        unsigned sectors, unsigned challenges, unsigned base_arity,
                        unsigned sub_arity, unsigned top_arity);

/* "winning-post" / "window-post" and back (CZ_EINVAL for other names). */
const char *cz_post_kind_name(cz_post_kind_t kind);
int cz_post_kind_parse(const char *name, cz_post_kind_t *out);

/* Siblings of one tree_r_last path (sum over levels of arity - 1). */
size_t cz_post_path_len(const cz_post_params_t *p);
/* Public inputs, ONE included: 1 + sectors x (1 + challenges). */
size_t cz_post_num_inputs(const cz_post_params_t *p);

/* ---- the witness of one partition ---------------------------------------------- */

typedef struct {
    cz_fr comm_r;         /* public */
    cz_fr comm_c;         /* private */
    cz_fr comm_r_last;    /* private: tree_r_last root */
    uint64_t *leaf_index; /* [challenges]: challenged leaf of each inclusion proof */
    cz_fr *leaf;          /* [challenges]: tree_r_last leaf value */
    cz_fr *siblings;      /* [challenges x path_len], challenge-major */
} cz_post_sector_t;

typedef struct {
    cz_post_params_t params;  /* copy of the params it was allocated for */
    cz_post_sector_t *sector; /* [params.sectors], circuit sector order */
    void *block_;             /* private: the single allocation behind everything */
} cz_post_witness_t;

/* One allocation, every array sized and zeroed; CZ_EINVAL / CZ_ENOMEM, *w
 * zeroed on error. A 32GiB window partition takes 2349 x 10 x (70 + 1) x
 * 32 B ~ 53 MB. */
int cz_post_witness_alloc(cz_post_witness_t *w, const cz_post_params_t *p);
/* NULL or a zeroed witness is a harmless no-op. */
void cz_post_witness_free(cz_post_witness_t *w);

/* Native check (no circuit): comm_r = Poseidon2(comm_c, comm_r_last) and
 * every path hashes its leaf to comm_r_last. CZ_OK or CZ_EUNSAT naming the
 * first failing sector and challenge. */
int cz_post_witness_check(cz_ctx_t *ctx, const cz_post_witness_t *w);

/* ---- synthesis --------------------------------------------------------------- */

/* Sequentially into |cs| (any mode; does not finish it). */
int cz_post_circuit(cz_cs_t *cs, const cz_post_params_t *p, const cz_post_witness_t *w);

/* The same R1CS with groups of sectors synthesized in parallel on ctx's
 * pool and appended in order (PROVE: in-place forks, all at once; other
 * modes: copying forks in waves). Sequential for a pool of width 1. */
int cz_post_synthesize(cz_ctx_t *ctx, cz_cs_t *cs, const cz_post_params_t *p,
                       const cz_post_witness_t *w);

#endif /* CUZK_CIRCUITS_POST_FALLBACK_H */
