/*
 * kinds/snap/job.h — a SnapDeals update proof (EmptySectorUpdate, all
 * partitions) as an engine job, built from exactly what Curio sends, and
 * its verification from the public values alone.
 *
 * Curio (curio lib/ffi/cuzk_funcs.go ProveUpdateCuzk and the PSProve path
 * computeSnap; lib/cuzk proto SubmitProofRequest, proof_kind
 * SNAP_DEALS_UPDATE = 2) sends: registered_proof = the abi.
 * RegisteredUpdateProof (0 2KiB, 1 8MiB, 2 512MiB, 3 32GiB, 4 64GiB:
 * proofs-api RegisteredUpdateProof; the PSProve path leaves sector_size 0,
 * so the size comes from here), vanilla_proofs = one bincode
 * PartitionProof per partition (proofs-api update.rs
 * generate_partition_proofs), and comm_r_old / comm_r_new / comm_d_new:
 * 32 raw bytes on both paths (ProveUpdateCuzk extracts the digests with
 * commcid.CIDToReplicaCommitmentV1 / CIDToDataCommitmentV1). A CID's bytes
 * are taken too, for other clients (CIDv1: 0x01, codec 0xf102 sealed /
 * 0xf101 unsealed, multihash 0xb401 poseidon / 0x1012
 * sha2-256-trunc254-padded, length 32, digest). The answer is the partition proofs concatenated (192 bytes each,
 * partition order): proofs-api EmptySectorUpdateProof.
 *
 * Everything that can be known before proving is checked in
 * cz_snap_job_from_curio (sizes, lengths, the bincode, the public
 * commitments against the proofs, the native vanilla verification of every
 * partition): a bad request fails there with CZ_EINVAL / CZ_EFORMAT /
 * CZ_EUNSAT naming the partition and the field.
 *
 * Parameter files (RFP storage-proofs-core parameter_cache.rs; update
 * compound.rs cache_prefix; vanilla.rs PublicParams::identifier):
 * v28-empty-sector-update-merkletree-poseidon_hasher-U-V-W-<hex sha256(
 * "empty_sector_update::PublicParams{ sector_nodes: N }")>.{params,vk}
 * (reproduces parameters.json for all five sizes).
 *
 * Ownership: the job owns its inputs; release with cz_snap_job_clear
 * after the engine job ended. Thread-safety: read-only after init; the
 * engine may synthesize different partitions concurrently.
 */
#ifndef CUZK_KINDS_SNAP_JOB_H
#define CUZK_KINDS_SNAP_JOB_H

#include <stddef.h>
#include <stdint.h>

#include "circuits/snap/snap.h"
#include "engine/engine.h"
#include "groth16/params.h"
#include "groth16/verify.h"
#include "kinds/shapes.h"

/* registered_proof (RegisteredUpdateProof 0-4) -> sector bytes; CZ_EINVAL. */
int cz_snap_sector_bytes(uint64_t registered_proof, uint64_t *bytes);

/* A commitment as Curio sends it (32 raw bytes or CIDv1 bytes) -> 32
 * bytes. |unsealed| picks the expected codec. CZ_EFORMAT naming |what|. */
int cz_snap_commitment(cz_ctx_t *ctx, uint8_t out[32], const uint8_t *in, size_t len, bool unsealed,
                       const char *what);

/* The public values a chain verifier has. */
typedef struct {
    uint64_t registered_proof;
    uint8_t comm_r_old[32], comm_r_new[32], comm_d_new[32];
} cz_snap_public_t;

typedef struct {
    cz_job_spec_t spec; /* submit this (params / pvk may be set after init) */
    cz_snap_public_t pub;
    cz_snap_params_t params;
    cz_params_shape_t shape; /* of one partition */
    size_t rows;
    cz_snap_plan_t plan;    /* the in-place forks' slots (snap.h) */
    cz_snap_input_t *parts; /* [params.partitions], owned */
    cz_fr *inputs;          /* [partitions x 4] public inputs, owned */
} cz_snap_job_t;

/*
 * The job of one update proof from Curio's fields (see the top). params /
 * pvk are borrowed into the spec and may be NULL. On error the job is zeroed.
 */
int cz_snap_job_from_curio(cz_ctx_t *ctx, cz_snap_job_t *job, uint64_t registered_proof,
                           const uint8_t *comm_r_old, size_t comm_r_old_len,
                           const uint8_t *comm_r_new, size_t comm_r_new_len,
                           const uint8_t *comm_d_new, size_t comm_d_new_len,
                           const uint8_t *const *vanilla_proofs, const size_t *vanilla_lens,
                           size_t nproofs, const cz_params_t *params, const cz_pvk_t *pvk);
void cz_snap_job_clear(cz_snap_job_t *job);

/*
 * TIMING ONLY (`cuzk prove --kind snap --random-params`): an update job of
 * the production circuit for |sector_bytes|, every partition's witness
 * pseudo-random field elements from |seed| (commitments, apex leaves,
 * leaves, paths; challenges random nodes of the partition's range). The
 * R1CS and the scalar distribution are the real ones; the witness does not
 * satisfy the circuit, so the proof cannot verify (the spec's pvk must stay
 * NULL). CZ_EINVAL for a size without an update circuit.
 */
int cz_snap_job_random(cz_ctx_t *ctx, cz_snap_job_t *job, uint64_t sector_bytes, uint64_t seed);

/*
 * Partition shapes by sector size, for a process that proves many updates
 * (the daemon): the shape is a SHAPE synthesis of the blank partition (7 s
 * at 32GiB on one core), the same for every sector of a size.
 * cz_snap_shapes_new makes the kind's shared shape cache (kinds/shapes.h:
 * keyed by sector size; shape and rows; one entry per
 * RegisteredUpdateProof); free it with cz_shape_cache_free.
 * cz_snap_job_from_curio_cached is cz_snap_job_from_curio taking the
 * shape from |cache| (NULL: computed), computing and keeping it on a miss.
 * Thread-safe; concurrent misses of one size compute it once (the others
 * wait). A cache made by another kind fails with CZ_EINVAL.
 */
int cz_snap_shapes_new(cz_shape_cache_t **out);
int cz_snap_job_from_curio_cached(cz_ctx_t *ctx, cz_snap_job_t *job, uint64_t registered_proof,
                                  const uint8_t *comm_r_old, size_t comm_r_old_len,
                                  const uint8_t *comm_r_new, size_t comm_r_new_len,
                                  const uint8_t *comm_d_new, size_t comm_d_new_len,
                                  const uint8_t *const *vanilla_proofs, const size_t *vanilla_lens,
                                  size_t nproofs, const cz_params_t *params, const cz_pvk_t *pvk,
                                  cz_shape_cache_t *cache);

/* The engine's synthesize callback (arg = the job): PROVE without c, the
 * arrays reserved from the job's shape, the partition synthesized on ctx's
 * pool (cz_snap_circuit_planned with the job's plan: the sequential
 * synthesis's witness, byte for byte), the public inputs compared. */
int cz_snap_synthesize(void *arg, size_t partition, cz_ctx_t *ctx, cz_cs_witness_t *out);

/* One partition's params shape and rows (a SHAPE synthesis). */
int cz_snap_shape(cz_ctx_t *ctx, const cz_snap_params_t *p, cz_params_shape_t *shape, size_t *rows);

/* Every partition's public inputs from public values: partitions x 4. */
int cz_snap_public_inputs_from(cz_ctx_t *ctx, const cz_snap_public_t *pub, cz_fr *out,
                               size_t n_out);

/*
 * Verify an update proof (partitions x 192 bytes) from public values.
 * CZ_OK valid, CZ_EVERIFY invalid, CZ_EFORMAT / CZ_EINVAL otherwise.
 */
int cz_snap_verify(cz_ctx_t *ctx, const cz_pvk_t *pvk, const uint8_t *proof, size_t len,
                   const cz_snap_public_t *pub);

/* The Filecoin file name of these params, ext "params" or "vk". */
int cz_snap_params_filename(char *out, size_t cap, const cz_snap_params_t *p, const char *ext);

#endif /* CUZK_KINDS_SNAP_JOB_H */
