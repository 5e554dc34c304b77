/*
 * kinds/post/job.h — a PoSt partition as an engine job, the door for the gRPC
 * and HTTP front ends, and verification from public values.
 *
 *   prove:  cz_post_job_init (parse + check every vanilla proof, derive the
 *           public inputs, build the witness: all before any expensive work)
 *           -> cz_engine_submit(&job.spec) -> one 192-byte proof.
 *   verify: cz_post_verify(pvk, proof, public values), as a chain verifier
 *           does (RFP FallbackPoStCompound::verify): the challenges follow
 *           from randomness and sector ids; no vanilla proof needed.
 *
 * cz_post_request_t is what Curio's SubmitProofRequest carries for
 * WINNING_POST / WINDOW_POST_PARTITION (curio extern/cuzk proving.proto:
 * registered_proof, randomness, miner_id, partition_index; the vanilla
 * proofs, one bincode FallbackPoStSectorProof per sector, each holding its
 * sector id and comm_r: the public sectors are read from them).
 *
 * Ownership: the job owns its witness, public sectors and inputs; the
 * params / pvk are borrowed. Clear it after the engine job ended.
 * Thread-safety: a job is read-only once initialized.
 */
#ifndef CUZK_KINDS_POST_JOB_H
#define CUZK_KINDS_POST_JOB_H

#include "engine/engine.h"
#include "groth16/params.h"
#include "groth16/verify.h"
#include "kinds/post/post.h"

typedef struct cz_post_request {
    uint64_t registered_proof; /* abi.RegisteredPoStProof (0..14) */
    const uint8_t *randomness; /* 32 bytes (top two bits clear) */
    size_t randomness_len;
    uint64_t miner_id;        /* actor id: prover_id = LEB128 */
    unsigned partition_index; /* window partition (winning: 0) */
    size_t nvanilla;
    const uint8_t *const *vanilla; /* [nvanilla] bincode proofs */
    const size_t *vanilla_len;     /* [nvanilla] */
} cz_post_request_t;

typedef struct cz_post_job {
    cz_job_spec_t spec; /* submit this */
    const cz_post_proof_t *proof;
    cz_post_params_t params;
    cz_params_shape_t shape;
    size_t rows;
    uint8_t randomness[32], prover_id[32];
    unsigned partition;
    size_t nsectors;
    cz_post_sector_pub_t *sectors; /* owned */
    size_t n_inputs;               /* ONE excluded */
    cz_fr *inputs;                 /* owned */
    cz_post_witness_t witness;     /* owned */
} cz_post_job_t;

/* The shape and rows of one partition of |p| (SHAPE synthesis). */
int cz_post_shape(cz_ctx_t *ctx, const cz_post_params_t *p, cz_params_shape_t *shape, size_t *rows);

/*
 * Build the job from Curio's fields. Every error is found here, before the
 * job is queued: an unknown registered proof, randomness not 32 bytes or
 * not a field element, a malformed vanilla proof (field and offset), a
 * challenge, comm_r or root that does not follow from the public values
 * (CZ_EVERIFY), params or a pvk of another circuit (CZ_EMISMATCH).
 * |params| / |pvk| may be NULL (set spec.params / .pvk before submitting).
 */
int cz_post_job_init(cz_ctx_t *ctx, cz_post_job_t *job, const cz_post_request_t *req,
                     const cz_params_t *params, const cz_pvk_t *pvk);
/*
 * TIMING ONLY (`cuzk prove --random-params`): a job of |kind|'s production
 * circuit for |sector_bytes| whose witness holds pseudo-random field
 * elements from |seed| (comm_rs, leaves, siblings; leaf indices random in
 * the tree): the R1CS and the scalars' distribution of a real partition,
 * but its hash equalities do not hold, so its proof cannot verify. No
 * public inputs are checked. CZ_EINVAL / CZ_ENOMEM.
 */
int cz_post_job_random(cz_ctx_t *ctx, cz_post_job_t *job, cz_post_kind_t kind,
                       uint64_t sector_bytes, uint64_t seed);
/* Free what the job owns and zero it; NULL / zeroed: no-op. */
void cz_post_job_clear(cz_post_job_t *job);
/* The public values of the job (borrowing its sectors). */
void cz_post_job_public(const cz_post_job_t *job, cz_post_public_t *pub);

/* The engine's synthesize callback (arg = the job). */
int cz_post_synthesize_job(void *arg, size_t partition, cz_ctx_t *ctx, cz_cs_witness_t *out);

/* Verify a 192-byte proof from public values. CZ_OK valid, CZ_EVERIFY
 * invalid, CZ_EFORMAT / CZ_EINVAL / CZ_ERANGE otherwise. */
int cz_post_verify(cz_ctx_t *ctx, const cz_pvk_t *pvk, const uint8_t *proof, size_t len,
                   const cz_post_public_t *pub);

#endif /* CUZK_KINDS_POST_JOB_H */
