/*
 * kinds/circuit/kind_circuit.c — the "circuit" job kind (kinds/kinds.h): a toy or
 * bench circuit of the registry (circuits/registry.h), for tests and
 * benches. No ProofKind: Curio does not know it.
 *
 *   circuit     "bench:N" or "toy[:X]" (required)
 *   partitions  1.. (default 1)
 *   seed        unsigned; partition p's witness uses seed*1000 + p + 1
 *   witness     "synthesize" (default): every partition synthesizes its own;
 *               "copy": ONE witness per job, partition 0's (seed*1000 + 1),
 *               synthesized by whichever partition reaches synthesis first
 *               and deep-copied (cz_cs_witness_copy) for every partition, so
 *               all of them prove one statement. For benches whose circuit's
 *               synthesis outlasts the device region (the copy is the
 *               synthesis stage's work). The kept witness lives until the
 *               job is released, outside the memory budget (one per job).
 *   input       optional {"seed": N}, inline or input_path (overrides seed)
 *   params      required
 *
 * Thread-safety of "copy": the job's |mu| (core/mutex.h) guards |made| and
 * |one| while the witness is made; synthesis workers of the same job wait on
 * it (they do not spin). Once |made| is true |one| is never written again,
 * so the copies read it with the lock released.
 */
#include <jansson.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "circuits/registry.h"
#include "core/json_error.h"
#include "core/mutex.h"
#include "cs/cs.h"
#include "kinds/job.h"
#include "kinds/kinds.h"

typedef struct {
    cz_circuit_t circuit;
    uint64_t seed;
    bool copy;           /* "witness": "copy" */
    cz_mutex_t mu;       /* protects made and one (copy) */
    bool made;           /* one holds partition 0's witness; never written again */
    cz_cs_witness_t one; /* copy: the job's one witness (freed at release) */
} circuit_job;

/* The job's one witness, made by the first caller (the others wait on |mu|). */
static int one_witness(circuit_job *j, cz_ctx_t *ctx)
{
    cz_mutex_lock(&j->mu);
    int rc = CZ_OK;
    if (!j->made) { /* a failed synthesis leaves it to the next caller (a retry) */
        rc = cz_circuit_witness(ctx, &j->circuit, j->seed * 1000 + 1, &j->one);
        j->made = rc == CZ_OK;
    }
    cz_mutex_unlock(&j->mu);
    return rc;
}

static int circuit_synth(void *arg, size_t partition, cz_ctx_t *ctx, cz_cs_witness_t *out)
{
    circuit_job *j = arg;
    if (!j->copy)
        return cz_circuit_witness(ctx, &j->circuit, j->seed * 1000 + partition + 1, out);
    int rc = one_witness(j, ctx);
    return rc == CZ_OK ? cz_cs_witness_copy(ctx, &j->one, out) : rc;
}

static int get_seed(cz_ctx_t *ctx, const json_t *v, const char *where, uint64_t *out)
{
    if (!json_is_integer(v) || json_integer_value(v) < 0 ||
        json_integer_value(v) > (json_int_t)(UINT64_MAX / 2000))
        return cz_fail(ctx, CZ_EINVAL, "%s: must be an integer in [0, 2^63/1000)", where);
    *out = (uint64_t)json_integer_value(v);
    return CZ_OK;
}

static int circuit_prepare(void *state, cz_ctx_t *ctx, const json_t *req, const char *input,
                           size_t input_len, cz_kind_job_t *out)
{
    (void)state;
    memset(out, 0, sizeof *out);
    const json_t *jc = json_object_get(req, "circuit");
    if (!json_is_string(jc))
        return cz_fail(ctx, CZ_EINVAL,
                       "circuit: required, a string like \"bench:4096\" or \"toy\"");
    circuit_job *j = calloc(1, sizeof *j);
    if (!j)
        return cz_fail(ctx, CZ_ENOMEM, "job");
    j->seed = 1;
    int rc = cz_circuit_parse(ctx, json_string_value(jc), &j->circuit);
    if (rc != CZ_OK) {
        char msg[256];
        snprintf(msg, sizeof msg, "%s", cz_ctx_message(ctx));
        cz_fail(ctx, CZ_EINVAL, "circuit: %s", msg);
    } else if (j->circuit.kind != CZ_CIRCUIT_TOY && j->circuit.kind != CZ_CIRCUIT_BENCH) {
        /* their shape alone takes a synthesis pass, and their witness needs an input:
         * they belong to their own kind (porep-c2), not to this one */
        rc = cz_fail(ctx, CZ_EINVAL,
                     "circuit: '%.64s': the circuit kind takes toy[:X] and bench:N; "
                     "PoRep partitions are proved with their own kind (C1 input)",
                     json_string_value(jc));
    }
    const json_t *jp = json_object_get(req, "partitions");
    out->partitions = 1;
    if (rc == CZ_OK && jp) {
        if (!json_is_integer(jp) || json_integer_value(jp) < 1 || json_integer_value(jp) > 1 << 20)
            rc = cz_fail(ctx, CZ_EINVAL, "partitions: must be a positive integer");
        else
            out->partitions = (size_t)json_integer_value(jp);
    }
    const json_t *js = json_object_get(req, "seed");
    if (rc == CZ_OK && js)
        rc = get_seed(ctx, js, "seed", &j->seed);
    const json_t *jw = json_object_get(req, "witness");
    if (rc == CZ_OK && jw) {
        const char *w = json_is_string(jw) ? json_string_value(jw) : "";
        if (!strcmp(w, "copy"))
            j->copy = true;
        else if (strcmp(w, "synthesize"))
            rc = cz_fail(ctx, CZ_EINVAL,
                         "witness: must be \"synthesize\" (every partition its own) or "
                         "\"copy\" (one witness per job, copied per partition)");
    }
    if (rc == CZ_OK && input) {
        json_error_t err;
        char what[160];
        json_t *in = json_loadb(input, input_len, JSON_REJECT_DUPLICATES, &err);
        if (!in)
            rc = cz_fail(ctx, CZ_EFORMAT, "input: not JSON (line %d, column %d: %s)", err.line,
                         err.column, cz_json_error_what(&err, what, sizeof what));
        else if (!json_is_object(in))
            rc = cz_fail(ctx, CZ_EFORMAT, "input: not a JSON object {\"seed\": N}");
        void *it = json_is_object(in) ? json_object_iter(in) : NULL;
        for (; it && rc == CZ_OK; it = json_object_iter_next(in, it)) {
            const char *key = json_object_iter_key(it);
            if (strcmp(key, "seed")) /* the key is not echoed: the input may be a file's */
                rc = cz_fail(ctx, CZ_EINVAL,
                             "input: an unknown field (the circuit kind's input "
                             "takes only seed)");
            else
                rc = get_seed(ctx, json_object_iter_value(it), "input.seed", &j->seed);
        }
        json_decref(in);
    }
    size_t rows = 0, ni = 0, na = 0, pc[3] = { 0 };
    if (rc == CZ_OK)
        rc = cz_circuit_shape(ctx, &j->circuit, &rows, &ni, &na, pc);
    if (rc != CZ_OK) {
        free(j);
        return rc;
    }
    size_t m = 1;
    while (m < rows)
        m <<= 1;
    cz_mutex_init(&j->mu);
    out->shape = (cz_params_shape_t){ ni, na, m, pc[0], pc[1], pc[2] };
    out->rows = rows;
    out->synthesize = circuit_synth;
    out->arg = j;
    snprintf(out->summary, sizeof out->summary, "%s x%zu", j->circuit.id, out->partitions);
    return CZ_OK;
}

static void circuit_release(cz_kind_job_t *job)
{
    circuit_job *j = job->arg;
    if (j) {
        cz_cs_witness_free(&j->one);
        cz_mutex_destroy(&j->mu);
    }
    free(j);
    job->arg = NULL;
}

static const char *const circuit_fields[] = { "circuit", "partitions", "seed", "witness", NULL };

const cz_job_kind_t cz_kind_circuit = {
    .name = "circuit",
    .summary = "a registry circuit (bench:N, toy[:X]) with N partitions and a seed",
    .fields = circuit_fields,
    .prepare = circuit_prepare,
    .release = circuit_release,
};
