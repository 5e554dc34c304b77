/*
 * kinds/kind_snap.c — the "snap" job kind (kinds/kinds.h): a SnapDeals
 * update proof (EmptySectorUpdate, every partition; update/job.h).
 *
 *   kind          "snap"
 *   input         the snap request JSON (update/request.h: registered_proof
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
 * Deterministic (journal replay). cuzkd's gRPC door builds this input from
 * Curio's protobuf fields (daemon/grpc/curio.h, update/request.h
 * cz_update_request_json).
 */
#include <stddef.h>
#include <stdlib.h>
#include <string.h>

#include "kinds/kinds.h"
#include "update/job.h"
#include "update/request.h"

static int snap_prepare(void *state, cz_ctx_t *ctx, const json_t *req, const char *input,
                        size_t input_len, cz_kind_job_t *out)
{
    (void)req;
    memset(out, 0, sizeof *out);
    if (!input)
        return cz_fail(ctx, CZ_EINVAL, "input: required (the snap request JSON, inline or "
                                       "input_path)");
    cz_update_job_t *job = calloc(1, sizeof *job);
    if (!job)
        return cz_fail(ctx, CZ_ENOMEM, "job");
    cz_update_request_t r;
    int rc = cz_update_request_parse(ctx, &r, input, input_len);
    if (rc == CZ_OK) {
        rc = cz_update_job_from_curio_cached(ctx, job, r.registered_proof, r.comm_r_old, 32,
                                             r.comm_r_new, 32, r.comm_d_new, 32,
                                             (const uint8_t *const *)r.proofs, r.lens,
                                             r.nproofs, NULL, NULL, state);
        cz_update_request_free(&r);
    }
    if (rc == CZ_OK)
        rc = cz_update_params_filename(out->default_params, sizeof out->default_params,
                                       &job->params, "params");
    if (rc != CZ_OK) {
        if (rc != CZ_EFORMAT && rc != CZ_ENOMEM) {
            char msg[256];
            snprintf(msg, sizeof msg, "%s", cz_ctx_message(ctx));
            rc = cz_fail(ctx, CZ_EINVAL, "input: %s", msg);
        }
        cz_update_job_clear(job);
        free(job);
        return rc;
    }
    out->partitions = job->spec.partitions;
    out->shape = job->shape;
    out->rows = job->rows;
    snprintf(out->summary, sizeof out->summary, "snap %llu bytes x%u",
             (unsigned long long)job->params.sector_bytes, job->params.partitions);
    out->synthesize = cz_update_synthesize;
    out->arg = job;
    return CZ_OK;
}

static void snap_release(cz_kind_job_t *kj)
{
    if (!kj->arg)
        return;
    cz_update_job_clear(kj->arg);
    free(kj->arg);
    kj->arg = NULL;
}

/* The state: partition shapes by sector size (update/job.h). */
static int snap_state_new(void **out)
{
    cz_update_shapes_t *c;
    int rc = cz_update_shapes_new(&c);
    *out = c;
    return rc;
}

static void snap_state_free(void *state)
{
    cz_update_shapes_free(state);
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
};
