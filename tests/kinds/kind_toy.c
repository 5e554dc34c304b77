/*
 * tests/kinds/kind_toy.c — "toy-proof", a job kind written the way a new
 * kind is (kinds/kinds.h THE HOOK), but in a test: the toy circuit of the
 * registry (circuits/registry.h) with x = the request's seed ("toy:SEED"),
 * so the public y = x^3 + x + 5 differs by seed. test_kinds.c registers it
 * at run time on a copy of the built-in table and checks that every door
 * takes it. This file and that one line are all it takes.
 *
 *   input       optional: the seed, decimal text (default 1)
 *   partitions  optional field: 1..4 partitions (default 1), each the same
 *               circuit (a field whose malformed value every door refuses
 *               with the same message: test_kinds.c same_error_every_door)
 *   params      default "toy" (toy.params in the params dir)
 *   Curio       ProofKind 100 "TOY_PROOF" (not in proving.proto: proto3
 *               keeps an unknown enum number), the input from vanilla_proof's
 *               bytes when set (text), else sector_number; registered_proof
 *               (4), when set, is the partitions field (the toy has no
 *               registered proofs: it stands for a kind's field from Curio's
 *               request); SRS family "toy-" (every size: "toy")
 */
#include "kinds/kind_toy.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "circuits/registry.h"
#include "kinds/job.h"

typedef struct {
    cz_circuit_t circuit;
    uint64_t seed;
} toy_job;

static int toy_synth(void *arg, size_t partition, cz_ctx_t *ctx, cz_cs_witness_t *out)
{
    const toy_job *j = arg;
    (void)partition;
    return cz_circuit_witness(ctx, &j->circuit, 1, out);
}

static int toy_prepare(void *state, cz_ctx_t *ctx, const json_t *req, const char *input,
                       size_t input_len, cz_kind_job_t *out)
{
    (void)state;
    memset(out, 0, sizeof *out);
    const json_t *parts = json_object_get(req, "partitions");
    if (parts &&
        (!json_is_integer(parts) || json_integer_value(parts) < 1 || json_integer_value(parts) > 4))
        return cz_fail(ctx, CZ_EINVAL, "partitions: must be an integer from 1 to 4");
    char text[24] = "1", *end;
    if (input && (input_len == 0 || input_len >= sizeof text))
        return cz_fail(ctx, CZ_EINVAL, "input: a decimal seed");
    if (input)
        memcpy(text, input, input_len), text[input_len] = '\0';
    unsigned long long seed = strtoull(text, &end, 10);
    if (*end || text[0] < '0' || text[0] > '9')
        return cz_fail(ctx, CZ_EINVAL, "input: a decimal seed");
    toy_job *j = calloc(1, sizeof *j);
    if (!j)
        return cz_fail(ctx, CZ_ENOMEM, "job");
    j->seed = seed;
    size_t rows = 0, ni = 0, na = 0, pc[3] = { 0 };
    char id[32];
    snprintf(id, sizeof id, "toy:%llu", seed);
    int rc = cz_circuit_parse(ctx, id, &j->circuit);
    if (rc == CZ_OK)
        rc = cz_circuit_shape(ctx, &j->circuit, &rows, &ni, &na, pc);
    if (rc != CZ_OK) {
        free(j);
        return rc;
    }
    size_t m = 1;
    while (m < rows)
        m <<= 1;
    out->partitions = parts ? (size_t)json_integer_value(parts) : 1;
    out->shape = (cz_params_shape_t){ ni, na, m, pc[0], pc[1], pc[2] };
    out->rows = rows;
    snprintf(out->default_params, sizeof out->default_params, "toy");
    snprintf(out->summary, sizeof out->summary, "toy seed %llu", seed);
    out->synthesize = toy_synth;
    out->arg = j;
    return CZ_OK;
}

static void toy_release(cz_kind_job_t *job)
{
    free(job->arg);
    job->arg = NULL;
}

/* Curio's request: the input is vanilla_proof's bytes when set (as text, so
 * a malformed one reaches prepare as through the other doors), else the
 * decimal sector_number. */
static int toy_map(cz_ctx_t *ctx, const cz_curio_request_t *r, json_t *req, cz_curio_input_t *input)
{
    (void)input;
    char seed[64];
    if (r->vanilla_proof.len)
        snprintf(seed, sizeof seed, "%.*s",
                 (int)(r->vanilla_proof.len < 63 ? r->vanilla_proof.len : 63),
                 (const char *)r->vanilla_proof.data);
    else
        snprintf(seed, sizeof seed, "%llu", (unsigned long long)r->sector_number);
    if (json_object_set_new(req, "input", json_string(seed)) ||
        (r->registered_proof &&
         json_object_set_new(req, "partitions", json_integer((json_int_t)r->registered_proof))))
        return cz_fail(ctx, CZ_ENOMEM, "request");
    return CZ_OK;
}

static int toy_params_name(uint64_t sector_bytes, char *out, size_t cap)
{
    (void)sector_bytes;
    snprintf(out, cap, "toy");
    return CZ_OK;
}

static const char *const toy_fields[] = { "partitions", NULL };

const cz_job_kind_t cz_test_kind_toy = {
    .name = "toy-proof",
    .summary = "a test's toy kind: the registry's toy circuit, input = its seed",
    .fields = toy_fields,
    .prepare = toy_prepare,
    .release = toy_release,
    .curio = { .proof_kind = 100,
               .proof_kind_name = "TOY_PROOF",
               .default_priority = 2,
               .map = toy_map,
               .srs_family = "toy-",
               .params_name = toy_params_name },
};
