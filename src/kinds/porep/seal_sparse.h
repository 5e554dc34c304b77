/*
 * kinds/porep/seal_sparse.h — synthetic sparse sealing: the C1 of a sector of
 * any size (32GiB and 64GiB included) whose data is all zero and whose
 * trees are sparse, built in seconds instead of the hours a real SDR takes.
 *
 * WHAT IS REAL AND WHAT IS CHOSEN
 *   The public values are derived exactly as for a real sector: comm_d is
 *   the all-zero tree_d root (FACTS 5), replica_id comes from prover_id,
 *   sector_id, ticket, comm_d and porep_id, the challenges from
 *   (replica_id, seed, partition), the parents from the porep_id graph.
 *   Only the columns a C1 opens are materialized: every challenged node
 *   and its 6 DRG + 8 expander parents, all layers. The labels of
 *   challenged nodes are computed honestly (cz_sdr_label) from the labels
 *   of their parents; every other materialized label is "chosen": a
 *   pseudo-random Fr32 value, SHA254(replica_id || seed LE8 || layer LE4 ||
 *   node LE8), with seed = args->random_seed. One value per (layer, node):
 *   a node that is both challenged and a parent of another challenge has
 *   its honest label everywhere. tree_c's leaves are the column hashes of
 *   the materialized columns, tree_r_last's the replica (last-layer label +
 *   zero data) of the same nodes; every other leaf of tree_c (tree_r_last)
 *   is one pseudo-random Fr, SHA254(replica_id || seed LE8 || "leaf" ||
 *   'c' ('r')) (a sparse tree: untouched subtrees are hashes of
 *   subtrees of that leaf; not zero, so the C2 witness has about the
 *   zero/one counts of a real sector's random siblings). So every
 *   opened path agrees with one comm_c / comm_r_last, every labeling and
 *   encoding proof holds, and the C1 passes cz_c1_verify and the circuit:
 *   it is a valid C1 for a sector nobody could have sealed (its
 *   unopened labels do not exist), fit for C2 load, timing and end-to-end
 *   tests.
 *
 * COST
 *   32GiB: 180 challenges, about 2,600 columns (11 rows), 1,980 honest
 *   labels, 27,000 chosen ones, about 50,000 Poseidon hashes (the two
 *   sparse trees): about 2 s on 2 shared cores, then 5-6 s to write the
 *   39 MB C1 JSON. The work is spread over ctx's pool (chosen labels by
 *   column, honest labels by layer in dependency waves: a challenge that
 *   is a DRG parent of another one is labeled in an earlier wave; tree
 *   levels; the proofs).
 *
 * Memory: the C1 itself (about 7 MB of proofs at 32GiB) and a few MB of
 * state. Thread-safety: one call per ctx; pure otherwise.
 */
#ifndef CUZK_KINDS_POREP_SEAL_SPARSE_H
#define CUZK_KINDS_POREP_SEAL_SPARSE_H

#include <stddef.h>
#include <stdint.h>

#include "kinds/porep/c1.h"
#include "kinds/porep/seal.h"

typedef struct {
    size_t challenges;    /* distinct challenged nodes (all partitions) */
    size_t columns;       /* materialized columns: challenges and parents, distinct */
    size_t honest_labels; /* labels computed with cz_sdr_label */
    size_t chosen_labels; /* pseudo-random labels */
    unsigned waves;       /* dependency waves per layer (1 when no challenge is
                             * a DRG parent of another) */
} cz_seal_sparse_stats_t;

/*
 * Sparse-seal the all-zero sector described by |a| and write its C1 into
 * *out (free with cz_c1_free). a->sector_bytes: any registered V1_1 size
 * (2KiB, 8MiB, 512MiB, 32GiB, 64GiB); a->data must be NULL (the data is
 * zero); a->random_seed seeds the chosen labels; prover_id, ticket, seed,
 * sector_id as for cz_seal_gen_c1. |stats| may be NULL.
 * Returns CZ_OK, CZ_EINVAL (size, data given) or CZ_ENOMEM, with a message
 * in ctx; on error *out is zeroed.
 */
int cz_seal_sparse_gen_c1(cz_ctx_t *ctx, const cz_seal_args_t *a, cz_c1_t *out,
                          cz_seal_sparse_stats_t *stats);

#endif /* CUZK_KINDS_POREP_SEAL_SPARSE_H */
