/*
 * kinds/post/kind_post.c — the "winning-post" and "window-post" job kinds
 * (kinds/kinds.h): the request's input is the PoSt input JSON
 * (kinds/post/input.h: registered proof, randomness, miner id, partition index,
 * the bincode vanilla proofs and the public sectors), inline ("input") or a
 * file ("input_path"). The job is one FallbackPoSt partition (kinds/post/job.h):
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
 * Curio (ProofKinds WINNING_POST = 4, default priority 4, SRS family
 * "winning-"; WINDOW_POST_PARTITION = 3, priority 3, family "wpost-"):
 * registered_proof (4, abi.RegisteredPoStProof: winning 0-4, window 5-14),
 * miner_id (21, prover_id = its LEB128), randomness (22, 32 bytes),
 * partition_index (23; winning 0), vanilla_proofs (11, one bincode
 * FallbackPoStSectorProof per sector: the public sector ids and comm_rs are
 * read from them, kinds/post/input.h cz_post_input_from_request). sector_size
 * (3) is checked when set. Maps to
 *     {"kind":"winning-post"|"window-post", "input": <the PoSt input JSON>}
 */
#include <inttypes.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "kinds/curio.h"
#include "kinds/job.h"
#include "kinds/kinds.h"
#include "kinds/post/input.h"

typedef struct {
    cz_post_input_t in;
    cz_post_job_t job;
} post_job;

/* The kind job of a prepared post_job |j| (owned by *out from here on). */
static int finish(cz_ctx_t *ctx, post_job *j, int rc, cz_kind_job_t *out)
{
    if (rc == CZ_OK)
        rc = cz_post_params_name(out->default_params, sizeof out->default_params, &j->job.params,
                                 "params");
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
        return cz_fail(ctx, CZ_EINVAL,
                       "input: required (the PoSt input JSON, inline or "
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

/* TIMING ONLY (kinds.h prepare_random): kinds/post/job.h cz_post_job_random. */
static int prepare_random(cz_post_kind_t kind, cz_ctx_t *ctx, uint64_t sector_bytes, uint64_t seed,
                          cz_kind_job_t *out)
{
    memset(out, 0, sizeof *out);
    post_job *j = calloc(1, sizeof *j);
    if (!j)
        return cz_fail(ctx, CZ_ENOMEM, "job");
    int rc = cz_post_job_random(ctx, &j->job, kind, sector_bytes, seed);
    if (rc != CZ_OK) { /* the job is cleared */
        free(j);
        return rc;
    }
    rc = finish(ctx, j, rc, out);
    if (rc == CZ_OK) /* the circuit, as a timing run prints it */
        snprintf(out->summary, sizeof out->summary, "%s", j->job.proof->name);
    return rc;
}

static int winning_random(void *state, cz_ctx_t *ctx, uint64_t sector_bytes, uint64_t seed,
                          cz_kind_job_t *out)
{
    (void)state;
    return prepare_random(CZ_POST_WINNING, ctx, sector_bytes, seed, out);
}

static int window_random(void *state, cz_ctx_t *ctx, uint64_t sector_bytes, uint64_t seed,
                         cz_kind_job_t *out)
{
    (void)state;
    return prepare_random(CZ_POST_WINDOW, ctx, sector_bytes, seed, out);
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

/* The public_inputs hook: the public values of the input (its vanilla
 * proofs are not read), of a |kind| proof. */
static int public_inputs(cz_post_kind_t kind, cz_ctx_t *ctx, const char *input, size_t input_len,
                         cz_kind_public_t *out)
{
    memset(out, 0, sizeof *out);
    if (!input)
        return cz_fail(ctx, CZ_EINVAL, "input: required (the PoSt input JSON)");
    cz_post_input_t in;
    int rc = cz_post_input_parse(ctx, &in, input, input_len);
    if (rc != CZ_OK)
        return rc;
    cz_post_public_t pub;
    cz_post_params_t p;
    cz_post_input_public(&in, &pub);
    if (in.proof->kind != kind)
        rc = cz_fail(ctx, CZ_EINVAL, "input: %s is not a %s proof", in.proof->name,
                     cz_post_kind_name(kind));
    if (rc == CZ_OK)
        rc = cz_post_params_of(ctx, &pub, &p);
    if (rc == CZ_OK && cz_post_params_name(out->vk_name, sizeof out->vk_name, &p, "vk"))
        rc = cz_fail(ctx, CZ_EINVAL, "no vk name for %s", in.proof->name);
    if (rc == CZ_OK) {
        out->partitions = 1;
        out->per_partition = cz_post_num_inputs(&p) - 1;
        out->inputs = malloc(out->per_partition * sizeof *out->inputs);
        rc = out->inputs ? cz_post_public_inputs(ctx, &pub, out->inputs, out->per_partition)
                         : cz_fail(ctx, CZ_ENOMEM, "public inputs");
    }
    if (rc == CZ_OK)
        snprintf(out->summary, sizeof out->summary, "%s, %zu sector%s", in.proof->name, in.nsectors,
                 in.nsectors == 1 ? "" : "s");
    if (rc != CZ_OK) {
        free(out->inputs);
        out->inputs = NULL;
    }
    cz_post_input_free(&in);
    return rc;
}

static int winning_public_inputs(cz_ctx_t *ctx, const char *input, size_t input_len,
                                 cz_kind_public_t *out)
{
    return public_inputs(CZ_POST_WINNING, ctx, input, input_len, out);
}

static int window_public_inputs(cz_ctx_t *ctx, const char *input, size_t input_len,
                                cz_kind_public_t *out)
{
    return public_inputs(CZ_POST_WINDOW, ctx, input, input_len, out);
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

/* ---- Curio: WINNING_POST, WINDOW_POST_PARTITION ---------------------------- */

/*
 * WINNING_POST / WINDOW_POST_PARTITION -> {"kind": "winning-post" |
 * "window-post", "input": <the PoSt input JSON, kinds/post/input.h>}. Fields
 * (facts: curio extern/cuzk cuzk-core prover.rs prove_winning_post /
 * prove_window_post, which hand them to proofs-api
 * generate_winning_post_with_vanilla / generate_single_window_post_with_vanilla):
 * registered_proof (4) abi.RegisteredPoStProof, miner_id (21) -> prover_id,
 * randomness (22) 32 bytes, partition_index (23, window), vanilla_proofs
 * (11) one bincode FallbackPoStSectorProof per sector, whose sector_id and
 * comm_r are the public sectors. sector_size (3) is checked when set;
 * sector_number (20) is not used (the sector ids are in the proofs).
 */
static int post_map(cz_ctx_t *ctx, const cz_curio_request_t *r, json_t *req, cz_post_kind_t kind)
{
    const bool win = kind == CZ_POST_WINNING;
    const char *pk = win ? "WINNING_POST" : "WINDOW_POST_PARTITION";
    const char *takes = win ? "0-4 (StackedDrgWinning*V1)"
                            : "5-9 (StackedDrgWindow*V1) or 10-14 (StackedDrgWindow*V1_1)";
    int rc = cz__curio_no_single_vanilla(ctx, r, pk, "one bincode FallbackPoStSectorProof");
    if (rc != CZ_OK)
        return rc;
    const cz_post_proof_t *proof = cz_post_proof_by_abi(r->registered_proof);
    if (!proof)
        return cz_fail(ctx, CZ_EINVAL,
                       "registered_proof: %" PRIu64 " is not a "
                       "RegisteredPoStProof (%s takes %s)",
                       r->registered_proof, pk, takes);
    if (proof->kind != kind)
        return cz_fail(ctx, CZ_EINVAL,
                       "registered_proof: %" PRIu64 " (%s) is a %s proof; %s "
                       "takes %s",
                       r->registered_proof, proof->name, win ? "WindowPoSt" : "WinningPoSt", pk,
                       takes);
    if (r->sector_size && r->sector_size != proof->sector_bytes)
        return cz_fail(ctx, CZ_EINVAL,
                       "sector_size: %" PRIu64 ", but registered_proof %" PRIu64
                       " (%s) is for %" PRIu64 "-byte sectors",
                       r->sector_size, r->registered_proof, proof->name, proof->sector_bytes);
    if (win && r->partition_index)
        return cz_fail(ctx, CZ_EINVAL,
                       "partition_index: %u, but WinningPoSt has one partition "
                       "(0)",
                       r->partition_index);
    uint8_t **v;
    size_t *lens;
    if ((rc = cz__curio_vanilla_arrays(ctx, r, &v, &lens)) != CZ_OK)
        return rc;
    cz_post_request_t pr = {
        .registered_proof = r->registered_proof,
        .randomness = r->randomness.data,
        .randomness_len = r->randomness.len,
        .miner_id = r->miner_id,
        .partition_index = r->partition_index,
        .nvanilla = r->n_vanilla_proofs,
        .vanilla = (const uint8_t *const *)v,
        .vanilla_len = lens,
    };
    cz_post_input_t in;
    json_t *input = NULL;
    rc = cz_post_input_from_request(ctx, &pr, &in);
    free(v);
    free(lens);
    if (rc == CZ_OK) {
        rc = cz_post_input_json(ctx, &in, &input);
        cz_post_input_free(&in);
    }
    if (rc == CZ_OK && json_object_set_new(req, "input", input))
        rc = cz_fail(ctx, CZ_ENOMEM, "request");
    return rc;
}

static int winning_map(cz_ctx_t *ctx, const cz_curio_request_t *r, json_t *req,
                       cz_curio_input_t *input)
{
    (void)input; /* the PoSt input is small: the request's "input" */
    return post_map(ctx, r, req, CZ_POST_WINNING);
}

static int window_map(cz_ctx_t *ctx, const cz_curio_request_t *r, json_t *req,
                      cz_curio_input_t *input)
{
    (void)input;
    return post_map(ctx, r, req, CZ_POST_WINDOW);
}

static int post_name(cz_post_kind_t kind, uint64_t bytes, char *out, size_t cap)
{
    cz_post_params_t p;
    int rc = cz_post_params_sector(&p, kind, bytes);
    return rc ? rc : cz_post_params_name(out, cap, &p, "params");
}

static int winning_params_name(uint64_t bytes, char *out, size_t cap)
{
    return post_name(CZ_POST_WINNING, bytes, out, cap);
}

static int window_params_name(uint64_t bytes, char *out, size_t cap)
{
    return post_name(CZ_POST_WINDOW, bytes, out, cap);
}

static const char *const post_fields[] = { NULL };

const cz_job_kind_t cz_kind_winning_post = {
    .name = "winning-post",
    .summary = "WinningPoSt: input = the PoSt input JSON (vanilla proofs, randomness, miner)",
    .fields = post_fields,
    .prepare = winning_prepare,
    .release = post_release,
    .public_inputs = winning_public_inputs,
    .prepare_random = winning_random,
    .test_circuit = "winning-post",
    .curio = { .proof_kind = 4,
               .proof_kind_name = "WINNING_POST",
               .default_priority = 4,
               .map = winning_map,
               .srs_family = "winning-",
               .params_name = winning_params_name },
};

const cz_job_kind_t cz_kind_window_post = {
    .name = "window-post",
    .summary = "WindowPoSt partition: input = the PoSt input JSON (vanilla proofs, randomness, "
               "miner, partition)",
    .fields = post_fields,
    .prepare = window_prepare,
    .release = post_release,
    .public_inputs = window_public_inputs,
    .prepare_random = window_random,
    .test_circuit = "window-post",
    .curio = { .proof_kind = 3,
               .proof_kind_name = "WINDOW_POST_PARTITION",
               .default_priority = 3,
               .map = window_map,
               .srs_family = "wpost-",
               .params_name = window_params_name },
};
