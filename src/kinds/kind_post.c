/*
 * kinds/kind_post.c — the "winning-post" and "window-post" job kinds
 * (kinds/kinds.h): the request's input is the PoSt input JSON
 * (post/input.h: registered proof, randomness, miner id, partition index,
 * the bincode vanilla proofs and the public sectors), inline ("input") or a
 * file ("input_path"). The job is one FallbackPoSt partition (post/job.h):
 * prepare parses and checks every vanilla proof against the public values
 * (a wrong randomness, sector id or comm_r is the client's fault: 400)
 * and derives the public inputs, so the engine's verification with the vk
 * is the chain verifier's check.
 *
 *   kind          "winning-post" / "window-post"
 *   input         the PoSt input JSON (required, inline or input_path)
 *   params        default: the Filecoin file name of the proof's circuit
 *                 (v28-proof-of-spacetime-fallback-...params)
 *
 * Deterministic, as the journal's replay requires. The job owns its input.
 *
 * cuzkd's gRPC door builds this input from Curio's SubmitProofRequest
 * (post/input.h cz_post_input_from_request).
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "kinds/kinds.h"
#include "post/input.h"

typedef struct {
    cz_post_input_t in;
    cz_post_job_t job;
} post_job;

/* The kind job of a prepared post_job |j| (owned by *out from here on). */
static int finish(cz_ctx_t *ctx, post_job *j, int rc, cz_kind_job_t *out)
{
    if (rc == CZ_OK)
        rc = cz_post_params_name(out->default_params, sizeof out->default_params,
                                 &j->job.params, "params");
    if (rc != CZ_OK) {
        if (rc != CZ_EFORMAT && rc != CZ_ENOMEM) {
            char msg[256];
            snprintf(msg, sizeof msg, "%s", cz_ctx_message(ctx));
            rc = cz_fail(ctx, CZ_EINVAL, "input: %s", msg);
        }
        cz_post_job_clear(&j->job);
        cz_post_input_free(&j->in);
        free(j);
        return rc;
    }
    out->partitions = 1;
    out->shape = j->job.shape;
    out->rows = j->job.rows;
    snprintf(out->summary, sizeof out->summary, "%s x%zu sectors", j->job.proof->name,
             j->job.nsectors);
    out->synthesize = cz_post_synthesize_job;
    out->arg = &j->job;
    return CZ_OK;
}

static int prepare(cz_post_kind_t kind, cz_ctx_t *ctx, const char *input, size_t input_len,
                   cz_kind_job_t *out)
{
    memset(out, 0, sizeof *out);
    if (!input)
        return cz_fail(ctx, CZ_EINVAL, "input: required (the PoSt input JSON, inline or "
                       "input_path)");
    post_job *j = calloc(1, sizeof *j);
    if (!j)
        return cz_fail(ctx, CZ_ENOMEM, "job");
    cz_post_request_t req;
    int rc = cz_post_input_parse(ctx, &j->in, input, input_len);
    if (rc == CZ_OK && j->in.proof->kind != kind)
        rc = cz_fail(ctx, CZ_EINVAL, "input: %s is not a %s proof", j->in.proof->name,
                     cz_post_kind_name(kind));
    if (rc == CZ_OK) {
        cz_post_input_request(&j->in, &req);
        rc = cz_post_job_init(ctx, &j->job, &req, NULL, NULL);
    }
    return finish(ctx, j, rc, out);
}

static int winning_prepare(void *state, cz_ctx_t *ctx, const json_t *req, const char *input,
                           size_t input_len, cz_kind_job_t *out)
{
    (void)state, (void)req;
    return prepare(CZ_POST_WINNING, ctx, input, input_len, out);
}

static int window_prepare(void *state, cz_ctx_t *ctx, const json_t *req, const char *input,
                          size_t input_len, cz_kind_job_t *out)
{
    (void)state, (void)req;
    return prepare(CZ_POST_WINDOW, ctx, input, input_len, out);
}

static void post_release(cz_kind_job_t *kj)
{
    if (!kj->arg)
        return;
    post_job *j = (post_job *)((char *)kj->arg - offsetof(post_job, job));
    cz_post_job_clear(&j->job);
    cz_post_input_free(&j->in);
    free(j);
    kj->arg = NULL;
}

static const char *const post_fields[] = { NULL };

const cz_job_kind_t cz_kind_winning_post = {
    .name = "winning-post",
    .summary = "WinningPoSt: input = the PoSt input JSON (vanilla proofs, randomness, miner)",
    .fields = post_fields,
    .prepare = winning_prepare,
    .release = post_release,
};

const cz_job_kind_t cz_kind_window_post = {
    .name = "window-post",
    .summary = "WindowPoSt partition: input = the PoSt input JSON (vanilla proofs, randomness, "
               "miner, partition)",
    .fields = post_fields,
    .prepare = window_prepare,
    .release = post_release,
};
