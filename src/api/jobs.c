/*
 * api/jobs.c — a prover's jobs: submit (validate and prepare), and
 * status, wait, proof, cancel, forget (cuzk.h; phases and locking in
 * api/prover_int.h).
 *
 * No lock is held while a kind prepares a job (a 32GiB porep-c2 C1 is
 * parsed and, the first time, its partition shape synthesized: seconds),
 * so concurrent submits prepare in parallel; the job is published under
 * p->mu only once it is complete.
 */
#include "api/prover_int.h"

#include "api/internal.h"

#include <errno.h>
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

#include "core/clock.h"

/* ---- submit -------------------------------------------------------------------- */

void cz_job_request_init(cz_job_request_t *req, const char *kind, const void *input,
                         size_t input_len)
{
    memset(req, 0, sizeof *req);
    req->kind = kind;
    req->input = input;
    req->input_len = input_len;
}

/* The request's fields as a JSON object whose keys are all the kind's. */
static int parse_fields(cz_ctx_t *ctx, const cz_job_kind_t *kind, const char *text, json_t **out)
{
    *out = NULL;
    if (!text) {
        *out = json_object();
        return *out ? CZ_OK : cz_fail(ctx, CZ_ENOMEM, "fields");
    }
    json_error_t jerr;
    json_t *o = json_loads(text, JSON_REJECT_DUPLICATES, &jerr);
    if (!json_is_object(o)) {
        json_decref(o);
        return cz_fail(ctx, CZ_EINVAL, "fields: not a JSON object (%s)",
                       o ? "wrong type" : jerr.text);
    }
    const char *key;
    json_t *val;
    json_object_foreach(o, key, val)
    {
        bool known = false;
        for (const char *const *f = kind->fields; f && *f && !known; f++)
            known = !strcmp(*f, key);
        if (!known) {
            /* named by its key alone, as the kinds name theirs ("sector_size: ..."): the
             * doors say it so (HTTP, gRPC: top-level keys; the CLI: --fields) */
            int rc = cz_fail(ctx, CZ_EINVAL, "%.64s: unknown field for kind %s", key, kind->name);
            json_decref(o);
            return rc;
        }
    }
    *out = o;
    return CZ_OK;
}

int cz__kind_unknown(cz_ctx_t *ctx, const cz_kinds_t *kinds, const char *name)
{
    char names[256];
    return cz_fail(ctx, CZ_EINVAL, "kind: '%.64s' is not a known kind (known: %s)", name,
                   cz_kinds_names(kinds, names, sizeof names));
}

/*
 * The kind's job for |req| and the params path; *j is filled. |timing|
 * (NULL: a real job): a timing job (cz_prover_submit_timing), whose params
 * the stager makes: no params to resolve, and with no input and a sector
 * size the kind's random witness (kinds.h prepare_random).
 */
static int prepare(cz_prover_t *p, cz_ctx_t *ctx, const cz_job_request_t *req,
                   const cz_timing_request_t *timing, pjob_t *j)
{
    char names[256];
    if (!req->kind)
        return cz_fail(ctx, CZ_EINVAL, "kind: required (known: %s)",
                       cz_kinds_names(&p->kinds, names, sizeof names));
    size_t ki = 0;
    const cz_job_kind_t *kind = cz_kinds_find(&p->kinds, req->kind, &ki);
    if (!kind)
        return cz__kind_unknown(ctx, &p->kinds, req->kind);
    if (req->priority < 0 || req->priority > 4)
        return cz_fail(ctx, CZ_EINVAL, "priority: %d is not 1 (low) .. 4 (critical), or 0 (normal)",
                       req->priority);
    if (req->input_len && !req->input)
        return cz_fail(ctx, CZ_EINVAL, "input: NULL with a length of %zu", req->input_len);
    j->prover = p;
    j->kind = kind;
    j->priority = req->priority ? req->priority : 2;
    j->on_done = req->on_done;
    j->user = req->user;
    bool random = timing && !req->input && timing->sector_size;
    if (random && !kind->prepare_random)
        return cz_fail(ctx, CZ_EINVAL,
                       "input: required (kind %s has no random witness for a "
                       "sector_size)",
                       kind->name);
    if (random && req->fields)
        return cz_fail(ctx, CZ_EINVAL, "fields: not taken with a random witness (sector_size)");
    json_t *fields = NULL;
    int rc = parse_fields(ctx, kind, req->fields, &fields);
    if (rc == CZ_OK) /* a test's stand-in for a long prepare (api/internal.h) */
        rc = cz__fault_sim(p->fault, ctx, CZ_FAULT_PREPARE);
    if (rc == CZ_OK && random)
        rc = kind->prepare_random(p->kind_state[ki], ctx, timing->sector_size, timing->seed,
                                  &j->kj);
    else if (rc == CZ_OK)
        rc = kind->prepare(p->kind_state[ki], ctx, fields, req->input, req->input_len, &j->kj);
    json_decref(fields);
    if (rc != CZ_OK)
        return rc;
    j->prepared = true;
    j->partitions = j->kj.partitions;
    j->shape = j->kj.shape;
    j->rows = j->kj.rows;
    j->timing = timing != NULL;
    j->timing_seed = timing ? timing->seed : 0;
    snprintf(j->summary, sizeof j->summary, "%s", j->kj.summary);
    const char *pname = req->params ? req->params : j->kj.default_params;
    if (j->partitions > p->cfg.max_partitions)
        rc = cz_fail(ctx, CZ_EINVAL, "partitions: %zu is over the prover's max_partitions %u",
                     j->partitions, p->cfg.max_partitions);
    else if (timing)
        snprintf(j->params_path, sizeof j->params_path, "(random, seed %" PRIu64 ")", timing->seed);
    else if (!*pname)
        rc = cz_fail(ctx, CZ_EINVAL, "params: required for kind %s", kind->name);
    else
        rc = cz__params_resolve(p, ctx, pname, j->params_path);
    j->n_inputs = j->kj.shape.num_inputs ? j->kj.shape.num_inputs - 1 : 0;
    return rc;
}

void cz__pjob_free(cz_prover_t *p, pjob_t *j)
{
    if (!j)
        return;
    if (j->pentry)
        cz_pcache_release(p->pcache, j->pentry);
    if (j->prepared)
        j->kind->release(&j->kj);
    cz_mutex_lock(&p->mu);
    cz_params_t *rparams = cz__rparams_drop(p, j);
    cz_mutex_unlock(&p->mu);
    cz_params_free(rparams);
    free(j->inputs);
    free(j->proof);
    free(j);
}

/* Prepare and publish a job (cz_prover_submit, cz_prover_submit_timing). */
static int submit(cz_prover_t *p, const cz_job_request_t *req, const cz_timing_request_t *timing,
                  uint64_t *id, cz_error_t *err)
{
    cz_ctx_t *ctx = NULL;
    pjob_t *j = calloc(1, sizeof *j);
    if (!j || cz_ctx_new(&ctx, p->pool, 0) != CZ_OK) {
        free(j);
        return cz__err(err, CZ_ENOMEM, "job");
    }
    int rc = prepare(p, ctx, req, timing, j);
    if (rc == CZ_OK) {
        cz_mutex_lock(&p->mu);
        if (p->stopping) {
            rc = cz_fail(ctx, CZ_EUNAVAIL, "the prover is shutting down");
        } else {
            j->id = p->next_id++;
            j->phase = PJ_STAGED;
            j->t_accept = cz_mono_s();
            j->next = p->jobs;
            p->jobs = j;
            *id = j->id;
            pthread_cond_broadcast(&p->work);
        }
        cz_mutex_unlock(&p->mu);
    }
    cz__err_ctx(err, ctx, rc);
    cz_ctx_free(ctx);
    if (rc != CZ_OK) {
        cz__pjob_free(p, j);
        return rc;
    }
    cz__log(&p->log, CZ_LOG_LEVEL_DEBUG, "job accepted",
            "job=%llu kind=%s partitions=%zu params=%s", (unsigned long long)j->id, j->kind->name,
            j->partitions, j->params_path);
    return CZ_OK;
}

int cz_prover_submit(cz_prover_t *p, const cz_job_request_t *req, uint64_t *id, cz_error_t *err)
{
    cz__err_clear(err);
    if (!p || !req || !id)
        return cz__err(err, CZ_EINVAL, "cz_prover_submit: NULL %s",
                       !p     ? "prover"
                       : !req ? "request"
                              : "id");
    *id = 0;
    if (!CZ__RESERVED_ZERO(req))
        return cz__err(err, CZ_EINVAL,
                       "cz_prover_submit: request.reserved is not zero "
                       "(start from cz_job_request_init)");
    return submit(p, req, NULL, id, err);
}

void cz_timing_request_init(cz_timing_request_t *req, const char *kind)
{
    memset(req, 0, sizeof *req);
    req->kind = kind;
}

int cz_prover_submit_timing(cz_prover_t *p, const cz_timing_request_t *req, uint64_t *id,
                            cz_error_t *err)
{
    cz__err_clear(err);
    if (!p || !req || !id)
        return cz__err(err, CZ_EINVAL, "cz_prover_submit_timing: NULL %s",
                       !p     ? "prover"
                       : !req ? "request"
                              : "id");
    *id = 0;
    if (!CZ__RESERVED_ZERO(req))
        return cz__err(err, CZ_EINVAL,
                       "cz_prover_submit_timing: request.reserved is not zero "
                       "(start from cz_timing_request_init)");
    cz_job_request_t jr;
    cz_job_request_init(&jr, req->kind, req->input, req->input_len);
    jr.fields = req->fields;
    jr.priority = req->priority;
    return submit(p, &jr, req, id, err);
}

/* ---- queries ------------------------------------------------------------------------ */

/* The job |id| (p->mu held). */
static pjob_t *find(cz_prover_t *p, uint64_t id)
{
    CZ_ASSERT(cz_mutex_held(&p->mu));
    for (pjob_t *j = p->jobs; j; j = j->next)
        if (j->id == id)
            return j;
    return NULL;
}

/* A snapshot of |j| (p->mu held; the engine's lock nests inside it). */
static void snapshot(cz_prover_t *p, const pjob_t *j, cz_job_info_t *out)
{
    CZ_ASSERT(cz_mutex_held(&p->mu));
    memset(out, 0, sizeof *out);
    out->id = j->id;
    out->partitions = j->partitions;
    snprintf(out->summary, sizeof out->summary, "%s", j->summary);
    out->loading_params = j->phase == PJ_PARAMS;
    out->started = j->eid != 0; /* the engine took it (it stays set once ended) */
    if (j->phase == PJ_ENDED) {
        out->state = j->state;
        out->partitions_done = j->partitions_done;
        out->error = j->error;
        snprintf(out->message, sizeof out->message, "%s", j->message);
        out->t = j->t;
        return;
    }
    double now = cz_mono_s();
    out->state = CZ_JOB_QUEUED;
    cz_job_info_t ei;
    if (j->phase == PJ_ENGINE && j->eid && cz_engine_info(p->engine, j->eid, &ei) == CZ_OK) {
        /* ended in the engine, its callback not through yet: still running to the caller */
        out->state = ei.state < CZ_JOB_DONE ? ei.state : CZ_JOB_RUNNING;
        out->partitions_done = ei.partitions_done;
        memcpy(out->in_stage, ei.in_stage, sizeof out->in_stage);
        out->t = ei.t;
        out->t.queue_wait += (j->t_staged - j->t_accept) * 1e3;
    } else if (j->phase == PJ_ENGINE && j->eid) {
        /* ended in the engine, which forgot it; the completion callback is recording
         * the outcome: still running to the caller, every partition resolved */
        out->state = CZ_JOB_RUNNING;
        out->partitions_done = j->partitions_done;
    } else {
        out->t.queue_wait = (now - j->t_accept) * 1e3;
    }
    out->t.params_load = j->params_load_ms;
    out->t.total = (now - j->t_accept) * 1e3;
}

static int not_found(cz_error_t *err, uint64_t id)
{
    return cz__err(err, CZ_ENOTFOUND, "job %llu: not found (unknown, or forgotten)",
                   (unsigned long long)id);
}

int cz_prover_status(cz_prover_t *p, uint64_t id, cz_job_info_t *out, cz_error_t *err)
{
    cz__err_clear(err);
    cz_mutex_lock(&p->mu);
    pjob_t *j = find(p, id);
    if (j)
        snapshot(p, j, out);
    cz_mutex_unlock(&p->mu);
    return j ? CZ_OK : not_found(err, id);
}

int cz_prover_wait(cz_prover_t *p, uint64_t id, double timeout_s, cz_job_info_t *out,
                   cz_error_t *err)
{
    cz__err_clear(err);
    struct timespec deadline = cz_deadline_in(timeout_s);
    int rc = CZ_OK;
    cz_mutex_lock(&p->mu);
    pjob_t *j;
    while ((j = find(p, id)) && j->phase != PJ_ENDED) {
        if (timeout_s < 0) {
            cz_cond_wait(&p->changed, &p->mu);
        } else if (cz_cond_timedwait(&p->changed, &p->mu, &deadline) == ETIMEDOUT) {
            j = find(p, id); /* it may have ended, or been forgotten, meanwhile */
            rc = !j ? CZ_ENOTFOUND : j->phase == PJ_ENDED ? CZ_OK : CZ_EBUSY;
            break;
        }
    }
    if (!j)
        rc = CZ_ENOTFOUND;
    else if (out)
        snapshot(p, j, out);
    cz_mutex_unlock(&p->mu);
    if (rc == CZ_ENOTFOUND)
        return not_found(err, id);
    if (rc == CZ_EBUSY)
        return cz__err(err, rc, "job %llu: still running after %.3f s", (unsigned long long)id,
                       timeout_s);
    return rc;
}

/* CZ_OK when |j| is DONE, else the error to report (p->mu held). */
static int done_or_why(const pjob_t *j, uint64_t id, cz_error_t *err)
{
    if (!j)
        return not_found(err, id);
    if (j->phase != PJ_ENDED)
        return cz__err(err, CZ_EBUSY, "job %llu has not ended", (unsigned long long)id);
    if (j->state == CZ_JOB_CANCELED)
        return cz__err(err, CZ_ECANCELED, "job %llu was canceled: %s", (unsigned long long)id,
                       j->message);
    if (j->state != CZ_JOB_DONE)
        return cz__err(err, j->error ? j->error : CZ_EINTERNAL, "job %llu failed: %s",
                       (unsigned long long)id, j->message);
    return CZ_OK;
}

int cz_prover_proof(cz_prover_t *p, uint64_t id, uint8_t **proof, size_t *len, cz_error_t *err)
{
    cz__err_clear(err);
    *proof = NULL;
    *len = 0;
    cz_mutex_lock(&p->mu);
    pjob_t *j = find(p, id);
    int rc = done_or_why(j, id, err);
    if (rc == CZ_OK) {
        if ((*proof = malloc(j->proof_len))) {
            memcpy(*proof, j->proof, j->proof_len);
            *len = j->proof_len;
        } else {
            rc = cz__err(err, CZ_ENOMEM, "proof of %zu bytes", j->proof_len);
        }
    }
    cz_mutex_unlock(&p->mu);
    return rc;
}

/* A job's shape, from its partition count, rows and params shape, into |out| (the rest 0). */
static void fill_shape(cz_job_shape_t *out, size_t partitions, size_t rows,
                       const cz_params_shape_t *shape)
{
    memset(out, 0, sizeof *out);
    out->partitions = partitions;
    out->rows = rows;
    out->constraints = rows > shape->num_inputs ? rows - shape->num_inputs : 0;
    out->domain_size = shape->domain_size;
    out->num_inputs = shape->num_inputs;
    out->num_aux = shape->num_aux;
    size_t pb = 0, abc = 0;
    cz_engine_estimate(shape, rows, &pb, &abc);
    out->partition_bytes = pb;
}

int cz_prover_job_shape(cz_prover_t *p, uint64_t id, cz_job_shape_t *out, cz_error_t *err)
{
    cz__err_clear(err);
    memset(out, 0, sizeof *out);
    cz_mutex_lock(&p->mu);
    const pjob_t *j = find(p, id);
    if (j) {
        fill_shape(out, j->partitions, j->rows, &j->shape);
        out->params_bytes = j->params_bytes;
    }
    cz_mutex_unlock(&p->mu);
    return j ? CZ_OK
             : cz__err(err, CZ_ENOTFOUND, "job %llu: not found (unknown, or forgotten)",
                       (unsigned long long)id);
}


int cz_kind_shape(const char *kind, const void *input, size_t input_len, const char *fields,
                  cz_job_shape_t *out, cz_error_t *err)
{
    cz__err_clear(err);
    if (!out)
        return cz__err(err, CZ_EINVAL, "cz_kind_shape: NULL out");
    memset(out, 0, sizeof *out);
    cz_ctx_t *ctx = NULL;
    if (cz_ctx_new(&ctx, NULL, 1) != CZ_OK)
        return cz__err(err, CZ_ENOMEM, "context");
    const cz_kinds_t *t = cz_kinds_builtin();
    const cz_job_kind_t *k = kind ? cz_kinds_find(t, kind, NULL) : NULL;
    int rc = CZ_OK;
    json_t *f = NULL;
    if (!k) /* cz_prover_submit's words */
        rc = kind ? cz__kind_unknown(ctx, t, kind) : cz_fail(ctx, CZ_EINVAL, "kind: required");
    else if (input_len && !input)
        rc = cz_fail(ctx, CZ_EINVAL, "input: NULL with a length of %zu", input_len);
    else
        rc = parse_fields(ctx, k, fields, &f);
    cz_kind_job_t kj;
    memset(&kj, 0, sizeof kj);
    if (rc == CZ_OK) /* no state: the shape computed, nothing cached (kinds.h) */
        rc = k->prepare(NULL, ctx, f, (const char *)input, input_len, &kj);
    json_decref(f);
    if (rc == CZ_OK) {
        fill_shape(out, kj.partitions, kj.rows, &kj.shape);
        k->release(&kj);
    }
    cz__err_ctx(err, ctx, rc);
    cz_ctx_free(ctx);
    return rc;
}

int cz_prover_public_inputs(cz_prover_t *p, uint64_t id, uint8_t **inputs, size_t *per_partition,
                            size_t *partitions, cz_error_t *err)
{
    cz__err_clear(err);
    *inputs = NULL;
    *per_partition = *partitions = 0;
    cz_mutex_lock(&p->mu);
    pjob_t *j = find(p, id);
    int rc = done_or_why(j, id, err);
    size_t n = rc == CZ_OK ? j->partitions * j->n_inputs : 0;
    if (rc == CZ_OK && !(*inputs = malloc(n ? n * 32 : 1)))
        rc = cz__err(err, CZ_ENOMEM, "public inputs");
    for (size_t i = 0; rc == CZ_OK && i < n; i++)
        cz_fr_to_repr(*inputs + 32 * i, &j->inputs[i]);
    if (rc == CZ_OK) {
        *per_partition = j->n_inputs;
        *partitions = j->partitions;
    }
    cz_mutex_unlock(&p->mu);
    return rc;
}

int cz_prover_cancel(cz_prover_t *p, uint64_t id, cz_error_t *err)
{
    cz__err_clear(err);
    uint64_t eid = 0;
    cz_mutex_lock(&p->mu);
    pjob_t *j = find(p, id);
    if (j && j->phase != PJ_ENDED) {
        j->cancel = true;
        eid = j->phase == PJ_ENGINE ? j->eid : 0;
        pthread_cond_broadcast(&p->work);
    }
    cz_mutex_unlock(&p->mu);
    if (!j)
        return not_found(err, id);
    /* outside p->mu: the engine may end the job, and call engine_done, in this call */
    if (eid)
        cz_engine_cancel(p->engine, eid);
    return CZ_OK;
}

int cz_prover_forget(cz_prover_t *p, uint64_t id, cz_error_t *err)
{
    cz__err_clear(err);
    cz_mutex_lock(&p->mu);
    pjob_t **pp = &p->jobs;
    while (*pp && (*pp)->id != id)
        pp = &(*pp)->next;
    pjob_t *j = *pp;
    bool ended = j && j->phase == PJ_ENDED;
    if (ended)
        *pp = j->next;
    cz_mutex_unlock(&p->mu);
    if (!j)
        return not_found(err, id);
    if (!ended)
        return cz__err(err, CZ_EBUSY, "job %llu has not ended", (unsigned long long)id);
    cz__pjob_free(p, j);
    return CZ_OK;
}
