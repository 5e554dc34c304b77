/*
 * kinds/porep/c2.h — PoRep SealCommit phase 2 (C2): a parsed C1 becomes an
 * engine job of one StackedDRG circuit per partition, and a C2 proof is
 * verified from the chain's public values alone.
 *
 *   prove:  cz_c2_job_init(c1) -> cz_engine_submit(&job.spec) -> wait ->
 *           cz_engine_proof: partitions x 192 bytes, in partition order
 *           (RFP filecoin-proofs api/seal.rs seal_commit_phase2; FACTS 2).
 *   verify: cz_c2_verify(pvk, proof, public values), as a chain verifier
 *           does (RFP verify_seal): replica_id, comm_d, comm_r, seed and
 *           the registered proof give the challenges, their DRG and
 *           expander parents, hence every partition's public inputs
 *           (kinds/porep/porep.h cz_porep_public_inputs_from). No C1 needed.
 *
 * What synthesis of partition k does (cz_c2_synthesize, the job's
 * synthesize callback): fill the circuit input from the C1
 * (cz_c1_to_circuit), check it natively (cz_porep_input_check: every path
 * hashes to its root, labels recompute, comm_r = H(comm_c, comm_r_last);
 * a tampered sibling, label or comm_r fails HERE with CZ_EUNSAT naming the
 * challenge and the check), synthesize it in PROVE mode on the ctx's pool
 * (cz_porep_synthesize), then compare the witness's public inputs with the
 * ones the chain derives from the public values (a C1 whose challenges do
 * not follow from its replica_id and seed fails with CZ_EVERIFY naming the
 * input). The engine then proves the witness and verifies the whole job
 * with spec.pvk against those same inputs before it reports DONE.
 *
 * Parameter files (FACTS 2; RFP storage-proofs-core parameter_cache.rs
 * cache_identifier, storage-proofs-porep stacked/vanilla/params.rs
 * PublicParams::identifier, graph.rs, drgraph BucketGraph::identifier):
 *   v28-stacked-proof-of-replication-merkletree-poseidon_hasher-U-V-W-
 *   sha256_hasher-<hex sha256(identifier)>.{params,vk}, where identifier =
 *   "layered_drgporep::PublicParams{ graph: stacked_graph::StackedGraph{
 *   expansion_degree: 8 base_graph: drgraph::BucketGraph{size: NODES;
 *   degree: 6; hasher: poseidon_hasher} }, challenges: LayerChallenges {
 *   layers: L, max_count: C }, tree: merkletree-poseidon_hasher-U-V-W }"
 *   (one line, single spaces as written in cz_c2_identifier). This
 *   reproduces parameters.json: 2KiB 032d3138d225..., 32GiB 82a357d2f2ca...
 *
 * Ownership: a cz_c2_job_t borrows the C1 (and params / pvk), which must
 * outlive the engine job; it owns the expected public inputs. Release it
 * with cz_c2_job_clear after the engine job has ended.
 * Thread-safety: after cz_c2_job_init a job is read-only; the engine may
 * call cz_c2_synthesize for different partitions concurrently. The other
 * functions are reentrant.
 */
#ifndef CUZK_KINDS_POREP_C2_H
#define CUZK_KINDS_POREP_C2_H

#include <stddef.h>
#include <stdint.h>

#include "engine/engine.h"
#include "groth16/params.h"
#include "groth16/verify.h"
#include "kinds/porep/c1.h"
#include "kinds/shapes.h"

/* The public values a chain verifier holds for a sealed sector. */
typedef struct cz_c2_public {
    const cz_porep_proof_t *proof; /* registered proof (sector size, porep_id) */
    uint8_t replica_id[32];        /* Fr reprs, as in the C1 JSON */
    uint8_t comm_d[32], comm_r[32];
    uint8_t seed[32]; /* interactive randomness */
} cz_c2_public_t;

typedef struct cz_c2_job {
    cz_job_spec_t spec;       /* submit this (params / pvk may be set after init) */
    const cz_c1_t *c1;        /* borrowed */
    cz_porep_params_t params; /* the C1's configuration */
    cz_params_shape_t shape;  /* the params must fit it (cz_params_opts_t.expect) */
    size_t rows;              /* constraint rows of one partition */
    size_t n_inputs;          /* public inputs per partition, ONE excluded */
    cz_fr *inputs;            /* [partitions x n_inputs] from public values (owned) */
    cz_porep_plan_t plan;     /* the challenges' slots (in-place forks) */
    bool generic;             /* benches: synthesize on the general path */
} cz_c2_job_t;

/* The public values of a parsed C1 (registered proof, replica_id, comm_d, comm_r, seed). */
void cz_c2_public_from_c1(cz_c2_public_t *out, const cz_c1_t *c1);

/*
 * The params shape and constraint rows of one partition of |p| (a SHAPE
 * synthesis of the blank circuit: 0.7 s for 2KiB on one core, no field
 * arithmetic on values). CZ_EINVAL / CZ_ENOMEM.
 */
int cz_c2_shape(cz_ctx_t *ctx, const cz_porep_params_t *p, cz_params_shape_t *shape, size_t *rows);

/*
 * Build the engine job for |c1|: shape, budget estimate (cz_engine_estimate
 * of the partition shape), the expected public inputs of every partition,
 * spec.synthesize = cz_c2_synthesize, spec.arg = job. |params| and |pvk|
 * are borrowed into the spec and may be NULL (set job->spec.params /
 * .pvk before submitting; a NULL pvk leaves the job unverified).
 * Errors: CZ_EINVAL (zero comm_d, comm_r or seed: C2 refuses them, FACTS
 * 6), CZ_ERANGE (a value is not a field element), CZ_EMISMATCH (params of
 * another shape), CZ_ENOMEM. On error the job is zeroed.
 */
int cz_c2_job_init(cz_ctx_t *ctx, cz_c2_job_t *job, const cz_c1_t *c1, const cz_params_t *params,
                   const cz_pvk_t *pvk);

/*
 * Shapes and plans by configuration, for a process that proves many
 * sectors of one size (the daemon): a 32GiB partition's shape is a SHAPE
 * synthesis of 130M rows (~6 s on one core), the same for every sector.
 * cz_c2_shapes_new makes the kind's shared shape cache (kinds/shapes.h:
 * keyed by the partition circuit, cz_porep_params_same_circuit; shape,
 * rows and plan; the 4 most recent configurations kept); free it with
 * cz_shape_cache_free, read its hits with cz_shape_cache_stats.
 * cz_c2_job_init_cached is cz_c2_job_init taking them from |cache| (may be
 * NULL: computed), computing and keeping them on a miss. Thread-safe;
 * concurrent misses of one configuration compute it once (the others wait).
 * A cache made by another kind fails with CZ_EINVAL.
 */
int cz_c2_shapes_new(cz_shape_cache_t **out);
int cz_c2_job_init_cached(cz_ctx_t *ctx, cz_c2_job_t *job, const cz_c1_t *c1,
                          const cz_params_t *params, const cz_pvk_t *pvk, cz_shape_cache_t *cache);
/* Free what the job owns and zero it. NULL / zeroed: harmless no-op. */
void cz_c2_job_clear(cz_c2_job_t *job);

/* The engine's synthesize callback (arg = the cz_c2_job_t); see the top. */
int cz_c2_synthesize(void *arg, size_t partition, cz_ctx_t *ctx, cz_cs_witness_t *out);

/*
 * Every partition's public inputs from public values alone: out receives
 * partitions x (cz_porep_num_inputs - 1) elements, partition-major.
 * |p| may be NULL (the registered proof's production params). Errors:
 * CZ_EINVAL (n_out too small, zero comm_d/comm_r/seed, unknown size),
 * CZ_ERANGE (a value is not a field element).
 */
int cz_c2_public_inputs(cz_ctx_t *ctx, cz_fr *out, size_t n_out, const cz_porep_params_t *p,
                        const cz_c2_public_t *pub);

/*
 * Verify a C2 proof (partitions x 192 bytes) from public values alone.
 * CZ_OK valid; CZ_EVERIFY invalid; CZ_EFORMAT (wrong length, bad point),
 * CZ_EINVAL (a pvk with the wrong number of inputs, bad public values),
 * CZ_ERANGE, CZ_ENOMEM otherwise: never "valid" unless it is.
 */
int cz_c2_verify(cz_ctx_t *ctx, const cz_pvk_t *pvk, const uint8_t *proof, size_t len,
                 const cz_c2_public_t *pub);

/*
 * The parameter-set identifier RFP hashes for these params (see the top).
 * Writes a NUL-terminated string; CZ_EINVAL if |cap| is too small.
 */
int cz_c2_identifier(char *out, size_t cap, const cz_porep_params_t *p);
/*
 * The Filecoin file name of these params, ext "params", "vk" or "meta":
 * "v28-stacked-proof-of-replication-merkletree-poseidon_hasher-8-0-0-
 * sha256_hasher-032d3138...2f.params" for 2KiB. CZ_EINVAL if |cap| is
 * too small (200 bytes always suffice).
 */
int cz_c2_params_name(char *out, size_t cap, const cz_porep_params_t *p, const char *ext);

#endif /* CUZK_KINDS_POREP_C2_H */
