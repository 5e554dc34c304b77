/*
 * kinds/snap/kind_snap.c — the "snap" job kind (kinds/kinds.h): a SnapDeals
 * update proof (EmptySectorUpdate, every partition; kinds/snap/job.h).
 *
 *   kind          "snap"
 *   input         the snap request JSON (kinds/snap/request.h: registered_proof
 *                 0-4, comm_r_old / comm_r_new / comm_d_new as 64 hex digits,
 *                 vanilla_proofs: one base64 bincode PartitionProof per
 *                 partition, as Curio stores them), inline or input_path
 *   params        default: the Filecoin name of the registered proof's size
 *                 (v28-empty-sector-update-merkletree-poseidon_hasher-...)
 *
 * prepare parses the request, decodes every vanilla proof and verifies it
 * natively against the public commitments (CZ_EFORMAT / CZ_EUNSAT naming
 * the partition and the field: 400), before anything is queued. Each
 * partition's witness carries the public inputs the commitments give, so
 * the engine's verification with the vk is the chain verifier's check.
 * The kind's state caches the partition shape by sector size (the first
 * 32GiB request runs its SHAPE synthesis, ~7 s; later ones none).
 * Deterministic (journal replay).
 *
 * Curio (ProofKind SNAP_DEALS_UPDATE = 2, default priority 2, SRS family
 * "snap-"): registered_proof (4, abi.RegisteredUpdateProof 0-4; it gives
 * the sector size, which the PSProve path leaves 0), vanilla_proofs (11,
 * one bincode PartitionProof per partition), comm_r_old / comm_r_new /
 * comm_d_new (30-32: 32 raw bytes, as Curio's ProveUpdateCuzk and PSProve
 * send them, or a CIDv1's bytes, kinds/snap/job.h cz_snap_commitment). Maps to
 *     {"kind":"snap", "input": <the snap request JSON, kinds/snap/request.h>}
 */
#include <inttypes.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "kinds/curio.h"
#include "kinds/job.h"
#include "kinds/kinds.h"
#include "kinds/snap/job.h"
#include "kinds/snap/request.h"

static int snap_prepare(void *state, cz_ctx_t *ctx, const json_t *req, const char *input,
                        size_t input_len, cz_kind_job_t *out)
{
    (void)req;
    memset(out, 0, sizeof *out);
    if (!input)
        return cz_fail(ctx, CZ_EINVAL,
                       "input: required (the snap request JSON, inline or "
                       "input_path)");
    cz_snap_job_t *job = calloc(1, sizeof *job);
    if (!job)
        return cz_fail(ctx, CZ_ENOMEM, "job");
    cz_snap_request_t r;
    int rc = cz_snap_request_parse(ctx, &r, input, input_len);
    if (rc == CZ_OK) {
        rc = cz_snap_job_from_curio_cached(ctx, job, r.registered_proof, r.comm_r_old, 32,
                                           r.comm_r_new, 32, r.comm_d_new, 32,
                                           (const uint8_t *const *)r.proofs, r.lens, r.nproofs,
                                           NULL, NULL, state);
        cz_snap_request_free(&r);
    }
    if (rc == CZ_OK)
        rc = cz_snap_params_filename(out->default_params, sizeof out->default_params, &job->params,
                                     "params");
    if (rc != CZ_OK) {
        if (rc != CZ_EFORMAT && rc != CZ_ENOMEM) {
            char msg[256];
            snprintf(msg, sizeof msg, "%s", cz_ctx_message(ctx));
            rc = cz_fail(ctx, CZ_EINVAL, "input: %s", msg);
        }
        cz_snap_job_clear(job);
        free(job);
        return rc;
    }
    out->partitions = job->spec.partitions;
    out->shape = job->shape;
    out->rows = job->rows;
    snprintf(out->summary, sizeof out->summary, "snap %llu bytes x%u",
             (unsigned long long)job->params.sector_bytes, job->params.partitions);
    out->synthesize = cz_snap_synthesize;
    out->arg = job;
    return CZ_OK;
}

/* TIMING ONLY (kinds.h prepare_random): kinds/snap/job.h cz_snap_job_random. */
static int snap_random(void *state, cz_ctx_t *ctx, uint64_t sector_bytes, uint64_t seed,
                       cz_kind_job_t *out)
{
    (void)state;
    memset(out, 0, sizeof *out);
    cz_snap_job_t *job = calloc(1, sizeof *job);
    if (!job)
        return cz_fail(ctx, CZ_ENOMEM, "job");
    int rc = cz_snap_job_random(ctx, job, sector_bytes, seed);
    if (rc != CZ_OK) { /* the job is cleared */
        free(job);
        return rc;
    }
    out->partitions = job->spec.partitions;
    out->shape = job->shape;
    out->rows = job->rows;
    /* the circuit, as a timing run prints it: "snap 2KiB (RegisteredUpdateProof 0)" */
    static const char unit[][4] = { "B", "KiB", "MiB", "GiB" };
    uint64_t n = sector_bytes;
    size_t u = 0;
    while (u < 3 && n >= 1024 && n % 1024 == 0)
        n /= 1024, u++;
    snprintf(out->summary, sizeof out->summary,
             "snap %" PRIu64 "%s (RegisteredUpdateProof %" PRIu64 ")", n, unit[u],
             job->pub.registered_proof);
    out->synthesize = cz_snap_synthesize;
    out->arg = job;
    return CZ_OK;
}

static void snap_release(cz_kind_job_t *kj)
{
    if (!kj->arg)
        return;
    cz_snap_job_clear(kj->arg);
    free(kj->arg);
    kj->arg = NULL;
}

/* The state: the kind's shape cache, partition shapes by sector size
 * (kinds/shapes.h; kinds/snap/job.h cz_snap_shapes_new). No stats hook:
 * cz_prover_stats_t.shape_hits counts porep-c2's (cuzk.h). */
static int snap_state_new(void **out)
{
    cz_shape_cache_t *c;
    int rc = cz_snap_shapes_new(&c);
    *out = c;
    return rc;
}

static void snap_state_free(void *state)
{
    cz_shape_cache_free(state);
}

/* ---- Curio: SNAP_DEALS_UPDATE ----------------------------------------------- */

/* Return the error of |expr|, if any. */
/* laid out by hand: */
/* clang-format off */
#define TRY(expr)                                                                              \
    do {                                                                                       \
        int rc_ = (expr);                                                                      \
        if (rc_ != CZ_OK)                                                                      \
            return rc_;                                                                        \
    } while (0)
/* clang-format on */

/* A commitment: 32 raw bytes, as Curio sends it on both its paths (ProveUpdateCuzk
 * extracts the digests with commcid.CIDTo*CommitmentV1; PSProve has them raw), or a
 * CIDv1's bytes, which other clients may send (kinds/snap/job.h cz_snap_commitment). */
static int commitment(cz_ctx_t *ctx, uint8_t out[32], const cz_bytes_view_t *b, bool unsealed,
                      const char *field)
{
    if (b->len == 0)
        return cz_fail(ctx, CZ_EINVAL, "%s: missing (32 raw bytes, or the bytes of the %s CID)",
                       field, unsealed ? "unsealed (CommD)" : "sealed (CommR)");
    return cz_snap_commitment(ctx, out, b->data, b->len, unsealed, field);
}

/*
 * SNAP_DEALS_UPDATE -> {"kind": "snap", "input": <the snap request JSON,
 * kinds/snap/request.h>}. Fields (facts: curio lib/ffi/cuzk_funcs.go
 * ProveUpdateCuzk and the PSProve path computeSnap; extern/cuzk cuzk-core
 * prover.rs prove_snap_deals -> proofs-api
 * generate_empty_sector_update_proof_with_vanilla): registered_proof (4)
 * abi.RegisteredUpdateProof 0-4, vanilla_proofs (11) one bincode
 * PartitionProof per partition, comm_r_old / comm_r_new / comm_d_new
 * (30-32) raw 32 bytes (what Curio sends) or CIDv1 bytes. sector_size (3) is 0 on the PSProve
 * path: the size comes from registered_proof, and a set one must agree.
 * sector_number / miner_id (20, 21) are not part of the proof.
 */
static int snap_map(cz_ctx_t *ctx, const cz_curio_request_t *r, json_t *req,
                    cz_curio_input_t *own_input)
{
    (void)own_input; /* the snap request is small: the request's "input" */
    TRY(cz__curio_no_single_vanilla(ctx, r, "SNAP_DEALS_UPDATE", "one bincode PartitionProof"));
    uint64_t bytes;
    cz_snap_params_t p;
    if (cz_snap_sector_bytes(r->registered_proof, &bytes) || cz_snap_params_sector(&p, bytes))
        return cz_fail(ctx, CZ_EINVAL,
                       "registered_proof: %" PRIu64 " is not a "
                       "RegisteredUpdateProof (0-4: StackedDrg{2KiB,8MiB,512MiB,32GiB,64GiB}V1)",
                       r->registered_proof);
    if (r->sector_size && r->sector_size != bytes)
        return cz_fail(ctx, CZ_EINVAL,
                       "sector_size: %" PRIu64 ", but registered_proof %" PRIu64 " is for %" PRIu64
                       "-byte sectors",
                       r->sector_size, r->registered_proof, bytes);
    if (r->n_vanilla_proofs != p.partitions)
        return cz_fail(ctx, CZ_EINVAL,
                       "vanilla_proofs: %zu, but registered_proof %" PRIu64 " (%" PRIu64
                       "-byte sectors) has %u partition%s: one bincode "
                       "PartitionProof each",
                       r->n_vanilla_proofs, r->registered_proof, bytes, p.partitions,
                       p.partitions > 1 ? "s" : "");
    for (size_t i = 0; i < r->n_vanilla_proofs; i++)
        if (r->vanilla_proofs[i].len == 0)
            return cz_fail(ctx, CZ_EINVAL, "vanilla_proofs[%zu]: empty (a bincode PartitionProof)",
                           i);
    cz_snap_request_t u = { .registered_proof = r->registered_proof };
    TRY(commitment(ctx, u.comm_r_old, &r->comm_r_old, false, "comm_r_old"));
    TRY(commitment(ctx, u.comm_r_new, &r->comm_r_new, false, "comm_r_new"));
    TRY(commitment(ctx, u.comm_d_new, &r->comm_d_new, true, "comm_d_new"));
    TRY(cz__curio_vanilla_arrays(ctx, r, &u.proofs, &u.lens));
    u.nproofs = r->n_vanilla_proofs;
    json_t *input = NULL;
    int rc = cz_snap_request_json(ctx, &u, &input);
    free(u.proofs); /* borrowed pointers: not cz_snap_request_free */
    free(u.lens);
    if (rc == CZ_OK && json_object_set_new(req, "input", input))
        rc = cz_fail(ctx, CZ_ENOMEM, "request");
    return rc;
}

static int snap_params_name(uint64_t bytes, char *out, size_t cap)
{
    cz_snap_params_t p;
    int rc = cz_snap_params_sector(&p, bytes);
    return rc ? rc : cz_snap_params_filename(out, cap, &p, "params");
}

/* The public_inputs hook: the request's registered proof and commitments
 * (its vanilla proofs are parsed but not checked). */
static int snap_public_inputs(cz_ctx_t *ctx, const char *input, size_t input_len,
                              cz_kind_public_t *out)
{
    memset(out, 0, sizeof *out);
    if (!input)
        return cz_fail(ctx, CZ_EINVAL, "input: required (the snap request JSON)");
    cz_snap_request_t r;
    int rc = cz_snap_request_parse(ctx, &r, input, input_len);
    if (rc != CZ_OK)
        return rc;
    cz_snap_public_t pub = { .registered_proof = r.registered_proof };
    memcpy(pub.comm_r_old, r.comm_r_old, 32);
    memcpy(pub.comm_r_new, r.comm_r_new, 32);
    memcpy(pub.comm_d_new, r.comm_d_new, 32);
    cz_snap_request_free(&r);
    uint64_t bytes;
    cz_snap_params_t p;
    if (cz_snap_sector_bytes(pub.registered_proof, &bytes) || cz_snap_params_sector(&p, bytes))
        return cz_fail(ctx, CZ_EINVAL, "input: registered_proof %llu is not an update proof (0-4)",
                       (unsigned long long)pub.registered_proof);
    if (cz_snap_params_filename(out->vk_name, sizeof out->vk_name, &p, "vk"))
        return cz_fail(ctx, CZ_EINVAL, "no vk name for update proof %llu",
                       (unsigned long long)pub.registered_proof);
    out->partitions = p.partitions;
    out->per_partition = 4;
    out->inputs = malloc(out->partitions * 4 * sizeof *out->inputs);
    rc = out->inputs ? cz_snap_public_inputs_from(ctx, &pub, out->inputs, out->partitions * 4)
                     : cz_fail(ctx, CZ_ENOMEM, "public inputs");
    if (rc != CZ_OK) {
        free(out->inputs);
        out->inputs = NULL;
        return rc;
    }
    snprintf(out->summary, sizeof out->summary, "update proof %llu, %zu partition%s",
             (unsigned long long)pub.registered_proof, out->partitions,
             out->partitions == 1 ? "" : "s");
    return CZ_OK;
}

static const char *const snap_fields[] = { NULL };

const cz_job_kind_t cz_kind_snap = {
    .name = "snap",
    .summary = "SnapDeals update (EmptySectorUpdate): input = the snap request JSON",
    .fields = snap_fields,
    .prepare = snap_prepare,
    .release = snap_release,
    .state_new = snap_state_new,
    .state_free = snap_state_free,
    .public_inputs = snap_public_inputs,
    .prepare_random = snap_random,
    .test_circuit = "snap",
    .curio = { .proof_kind = 2,
               .proof_kind_name = "SNAP_DEALS_UPDATE",
               .default_priority = 2,
               .map = snap_map,
               .srs_family = "snap-",
               .params_name = snap_params_name },
};
