/*
 * cli/prove_job.c — a prover and one job for `cuzk prove` (prove_job.h).
 */
#include "cli/prove_job.h"

#include <limits.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "api/internal.h"
#include "cli/cli.h"
#include "cli/public_file.h"
#include "core/clock.h"

void cz_cli_prover_config(const cz_cli_prover_opts_t *o, cz_prover_config_t *cfg)
{
    cz_prover_config_init(cfg);
    cfg->backend = o->backend;
    cfg->first_device = (unsigned)o->device;
    cfg->devices = 1;
    cfg->threads = (unsigned)o->threads;
    cfg->workers_per_device = (unsigned)o->workers;
    cfg->params_dir = o->params_dir;
    cfg->params_allow_paths = true;
    cfg->cuda_device_mem_limit = o->device_mem_limit;
    cfg->memory_budget = o->memory_budget;
    cfg->cuda_max_batch = o->max_batch;
}

int cz_cli_prover_new(cz_ctx_t *ctx, const cz_cli_prover_opts_t *o, cz_prover_t **out)
{
    cz_prover_config_t cfg;
    cz_cli_prover_config(o, &cfg);
    cz_error_t err;
    int rc = cz__prover_new_with(out, &cfg, NULL, o->kinds, &err);
    return rc ? cz_fail(ctx, rc, "%s", err.message) : CZ_OK;
}

/* The stage shown while |info|'s job runs. */
static const char *stage(const cz_job_info_t *info)
{
    if (info->state == CZ_JOB_QUEUED && !info->started)
        return "loading_params";
    return cz_job_stage_label(info->state, info->in_stage);
}

int cz_cli_prover_run(cz_ctx_t *ctx, cz_prover_t *p, const cz_job_request_t *req, bool want_inputs,
                      cz_progress_t *progress, cz_cli_job_result_t *r)
{
    memset(r, 0, sizeof *r);
    cz_error_t err;
    uint64_t id = 0;
    double t0 = cz_mono_s();
    int rc = cz_prover_submit(p, req, &id, &err);
    r->t_submit = cz_mono_s() - t0;
    if (rc != CZ_OK) {
        r->refused = true;
        return cz_fail(ctx, rc, "%s", err.message);
    }
    return cz_cli_prover_wait(ctx, p, id, t0, want_inputs, progress, r);
}

int cz_cli_prover_wait(cz_ctx_t *ctx, cz_prover_t *p, uint64_t id, double t0, bool want_inputs,
                       cz_progress_t *progress, cz_cli_job_result_t *r)
{
    cz_error_t err;
    int rc;
    while ((rc = cz_prover_wait(p, id, 0.25, &r->info, &err)) == CZ_EBUSY)
        if (progress)
            cz_progress_draw(progress, r->info.partitions_done, r->info.partitions,
                             stage(&r->info));
    r->t_run = cz_mono_s() - t0;
    if (rc == CZ_OK)
        rc = cz_prover_proof(p, id, &r->proof, &r->len, &err);
    if (rc == CZ_OK && want_inputs)
        rc = cz_prover_public_inputs(p, id, &r->inputs, &r->per, &r->parts, &err);
    return rc ? cz_fail(ctx, rc, "%s", err.message) : CZ_OK;
}

void cz_cli_job_result_free(cz_cli_job_result_t *r)
{
    cz_free(r->proof);
    cz_free(r->inputs);
    r->proof = r->inputs = NULL;
}

int cz_cli_write_outputs(cz_ctx_t *ctx, const cz_cli_job_result_t *r, const char *proof_path,
                         const char *public_path)
{
    int rc = cz_cli_write_file(ctx, proof_path, r->proof, r->len);
    if (rc == CZ_OK && public_path)
        rc = cz_public_write(ctx, public_path, r->inputs, r->parts, r->per);
    return rc;
}

int cz_cli_prove_to_files(cz_ctx_t *ctx, cz_prover_t *p, const cz_job_request_t *req,
                          const char *proof_path, const char *public_path, cz_progress_t *progress,
                          cz_cli_job_result_t *r, cz_prover_info_t *pi)
{
    int rc = cz_cli_prover_run(ctx, p, req, public_path != NULL, progress, r);
    if (rc == CZ_OK)
        rc = cz_cli_write_outputs(ctx, r, proof_path, public_path);
    cz_prover_info(p, pi);
    if (rc == CZ_OK) {
        cz_progress_draw(progress, r->info.partitions, r->info.partitions, "done");
        cz_progress_end(progress);
    }
    return rc;
}

int cz_cli_prove_checked(cz_ctx_t *ctx, const cz_cli_prover_opts_t *po, const char *kind,
                         const char *input_path, size_t max, const char *proof_path,
                         cz_cli_job_result_t *r, cz_kind_public_info_t *pub, cz_prover_info_t *pi,
                         bool *usage)
{
    cz_prover_t *p = NULL;
    uint8_t *input = NULL;
    size_t input_len = 0;
    memset(r, 0, sizeof *r);
    memset(pi, 0, sizeof *pi);
    int rc = cz_cli_prover_new(ctx, po, &p);
    *usage = rc == CZ_EINVAL;
    if (rc == CZ_OK)
        rc = cz_cli_read_file(ctx, input_path, max, &input, &input_len);
    if (rc == CZ_OK) {
        cz_job_request_t req;
        cz_job_request_init(&req, kind, input, input_len);
        rc = cz_cli_prover_run(ctx, p, &req, false, NULL, r);
    }
    if (rc == CZ_OK) {
        cz_error_t err;
        if ((rc = cz_kind_verify(kind, input, input_len, NULL, po->params_dir, r->proof, r->len,
                                 pub, &err)))
            cz_fail(ctx, rc, "the proof does not verify from the public values (%s)", err.message);
    }
    if (rc == CZ_OK)
        rc = cz_cli_write_file(ctx, proof_path, r->proof, r->len);
    if (p)
        cz_prover_info(p, pi);
    free(input);
    cz_prover_free(p);
    return rc;
}

const char *cz_cli_params_arg(const char *path, char *buf)
{
    struct stat st;
    if (path && stat(path, &st) == 0 && S_ISREG(st.st_mode) && realpath(path, buf))
        return buf;
    return path;
}
