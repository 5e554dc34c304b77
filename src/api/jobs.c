/*
 * api/jobs.c — a prover's jobs: submit (validate and prepare), the stager
 * thread (ready jobs by priority to the engine; params loads beside it,
 * api/pload.c), the engine's completion callback, and
 * status, wait, proof, cancel, forget (cuzk.h; phases and locking in
 * api/prover_int.h).
 *
 * No lock is held while a kind prepares a job (a 32GiB porep-c2 C1 is
 * parsed and, the first time, its partition shape synthesized: seconds),
 * so concurrent submits prepare in parallel; the job is published under
 * p->mu only once it is complete.
 */
#include "api/prover_int.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "core/clock.h"
#include "groth16/params.h"
#include "groth16/proof.h"

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
        return cz_fail(ctx, CZ_EINVAL, "fields: not a JSON object (%s)", o ? "wrong type" : jerr.text);
    }
    const char *key;
    json_t *val;
    json_object_foreach(o, key, val) {
        bool known = false;
        for (const char *const *f = kind->fields; f && *f && !known; f++)
            known = !strcmp(*f, key);
        if (!known) {
            int rc = cz_fail(ctx, CZ_EINVAL, "fields.%.64s: unknown field for kind %s", key,
                             kind->name);
            json_decref(o);
            return rc;
        }
    }
    *out = o;
    return CZ_OK;
}

/* The kind's job for |req| and the params path; *j is filled. */
static int prepare(cz_prover_t *p, cz_ctx_t *ctx, const cz_job_request_t *req, pjob_t *j)
{
    char names[256];
    if (!req->kind)
        return cz_fail(ctx, CZ_EINVAL, "kind: required (known: %s)",
                       cz_kind_names(names, sizeof names));
    size_t ki = 0;
    const cz_job_kind_t *kind = cz_kind_find(req->kind, &ki);
    if (!kind)
        return cz_fail(ctx, CZ_EINVAL, "kind: '%.64s' is not a known kind (known: %s)", req->kind,
                       cz_kind_names(names, sizeof names));
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
    json_t *fields = NULL;
    int rc = parse_fields(ctx, kind, req->fields, &fields);
    if (rc == CZ_OK)   /* a test's stand-in for a long prepare (api/internal.h) */
        rc = cz__fault_sim(p->fault, ctx, CZ_FAULT_PREPARE);
    if (rc == CZ_OK)
        rc = kind->prepare(p->kind_state[ki], ctx, fields, req->input, req->input_len, &j->kj);
    json_decref(fields);
    if (rc != CZ_OK)
        return rc;
    j->prepared = true;
    j->partitions = j->kj.partitions;
    snprintf(j->summary, sizeof j->summary, "%s", j->kj.summary);
    const char *pname = req->params ? req->params : j->kj.default_params;
    if (j->partitions > p->cfg.max_partitions)
        rc = cz_fail(ctx, CZ_EINVAL, "partitions: %zu is over the prover's max_partitions %u",
                     j->partitions, p->cfg.max_partitions);
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
    free(j->inputs);
    free(j->proof);
    free(j);
}

int cz_prover_submit(cz_prover_t *p, const cz_job_request_t *req, uint64_t *id, cz_error_t *err)
{
    cz__err_clear(err);
    if (!p || !req || !id)
        return cz__err(err, CZ_EINVAL, "cz_prover_submit: NULL %s", !p ? "prover" : !req ? "request" : "id");
    *id = 0;
    cz_ctx_t *ctx = NULL;
    pjob_t *j = calloc(1, sizeof *j);
    if (!j || cz_ctx_new(&ctx, p->pool, 0) != CZ_OK) {
        free(j);
        return cz__err(err, CZ_ENOMEM, "job");
    }
    int rc = prepare(p, ctx, req, j);
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
    cz__log(&p->log, CZ_LOG_LEVEL_DEBUG, "job accepted", "job=%llu kind=%s partitions=%zu params=%s",
            (unsigned long long)j->id, j->kind->name, j->partitions, j->params_path);
    return CZ_OK;
}

/* ---- ending a job ------------------------------------------------------------------ */

/*
 * Record the outcome (|proof| and |inputs| are taken), give back the params and the
 * kind's resources, wake the waiters, then call the job's callback.
 * p->mu NOT held; the caller owns the job's transition (STAGING or ENGINE).
 */
static void end_job(cz_prover_t *p, pjob_t *j, cz_job_state_t st, int error, const char *msg,
                    uint8_t *proof, size_t proof_len, cz_fr *inputs, const cz_job_timings_t *t)
{
    cz_mutex_lock(&p->mu);
    cz_pentry_t *pe = j->pentry;
    bool prepared = j->prepared;
    j->pentry = NULL;
    j->prepared = false;
    cz_mutex_unlock(&p->mu);
    if (pe)
        cz_pcache_release(p->pcache, pe);
    if (prepared)
        j->kind->release(&j->kj);   /* the engine calls its synthesize no more */

    cz_mutex_lock(&p->mu);
    j->state = st;
    j->error = st == CZ_JOB_DONE ? CZ_OK : error ? error : st == CZ_JOB_CANCELED ? CZ_ECANCELED
                                                                                 : CZ_EINTERNAL;
    snprintf(j->message, sizeof j->message, "%s", msg && *msg ? msg : st == CZ_JOB_DONE ? "" : cz_strerror(j->error));
    j->proof = proof;
    j->proof_len = proof ? proof_len : 0;
    j->inputs = inputs;
    if (t)
        j->t = *t;
    j->t.params_load = j->params_load_ms;
    j->t.total = (cz_mono_s() - j->t_accept) * 1e3;
    if (j->t_staged > 0)
        j->t.queue_wait += (j->t_staged - j->t_accept) * 1e3;
    if (st == CZ_JOB_DONE)
        j->partitions_done = j->partitions;
    j->phase = PJ_ENDED;
    cz_job_done_cb *cb = j->on_done;
    void *user = j->user;
    uint64_t id = j->id;
    pthread_cond_broadcast(&p->changed);
    cz_mutex_unlock(&p->mu);
    cz__log(&p->log, st == CZ_JOB_DONE ? CZ_LOG_LEVEL_DEBUG : CZ_LOG_LEVEL_INFO, "job ended",
            "job=%llu state=%s error=%s", (unsigned long long)id, cz_job_state_name(st),
            cz_err_name(st == CZ_JOB_DONE ? CZ_OK : error));
    if (cb)
        cb(user, p, id, st);
}

/* Jobs in the engine, for the time the engine had work (p->mu held). */
static void engine_enter(cz_prover_t *p)
{
    CZ_ASSERT(cz_mutex_held(&p->mu));
    if (p->in_engine++ == 0)
        p->active_since = cz_mono_s();
}

static void engine_leave(cz_prover_t *p)
{
    CZ_ASSERT(cz_mutex_held(&p->mu) && p->in_engine > 0);
    if (--p->in_engine == 0)
        p->active_s += cz_mono_s() - p->active_since;
}

/* The engine's completion callback (an engine thread, no engine lock held). */
static void engine_done(void *arg, uint64_t eid, cz_job_state_t state)
{
    pjob_t *j = arg;
    cz_prover_t *p = j->prover;
    cz_job_info_t info;
    memset(&info, 0, sizeof info);
    uint8_t *proof = NULL;
    size_t len = 0;
    int err = CZ_OK;
    const char *msg = "";
    if (cz_engine_info(p->engine, eid, &info) == CZ_OK) {
        err = info.error;
        msg = info.message;
    }
    if (state == CZ_JOB_DONE && cz_engine_proof(p->engine, eid, &proof, &len) != CZ_OK) {
        state = CZ_JOB_FAILED;
        err = CZ_EINTERNAL;
        msg = "the engine lost the proof";
    }
    if (state == CZ_JOB_DONE && len != j->partitions * CZ_PROOF_BYTES) {
        state = CZ_JOB_FAILED;
        err = CZ_EINTERNAL;
        msg = "proof length does not match the partitions";
    }
    /* the public inputs the engine verified the proof against (it keeps them) */
    cz_fr *inputs = NULL;
    size_t per = 0;
    if (state == CZ_JOB_DONE && cz_engine_public_inputs(p->engine, eid, &inputs, &per) != CZ_OK) {
        state = CZ_JOB_FAILED;
        err = CZ_ENOMEM;
        msg = "public inputs";
    } else if (state == CZ_JOB_DONE && per != j->n_inputs) {
        state = CZ_JOB_FAILED;
        err = CZ_EINTERNAL;
        msg = "the partitions' public inputs do not match the circuit's shape";
    }
    if (state != CZ_JOB_DONE) {
        free(proof);
        proof = NULL;
        free(inputs);
        inputs = NULL;
    }
    char m[256];
    snprintf(m, sizeof m, "%s", msg);
    cz_mutex_lock(&p->mu);
    j->partitions_done = info.partitions_done;
    engine_leave(p);
    cz_mutex_unlock(&p->mu);
    cz_engine_forget(p->engine, eid);
    end_job(p, j, state, err, m, proof, len, inputs, &info.t);
}

/* ---- the stager ----------------------------------------------------------------- */

/* Ready for the stager: new, or waiting for a load that has ended, or canceled while it waited. */
static bool ready(const pjob_t *j)
{
    return j->phase == PJ_STAGED || (j->phase == PJ_PARAMS && (j->cancel || j->pload->done));
}

/* Canceled first (ending one is instant), then priority (higher first), then submit order. */
static bool goes_before(const pjob_t *a, const pjob_t *b)
{
    if (a->cancel != b->cancel)
        return a->cancel;
    if (a->priority != b->priority)
        return a->priority > b->priority;
    return a->id < b->id;
}

/* The ready job to take next, or NULL (p->mu held). */
static pjob_t *next_ready(cz_prover_t *p)
{
    CZ_ASSERT(cz_mutex_held(&p->mu));
    pjob_t *best = NULL;
    for (pjob_t *j = p->jobs; j; j = j->next)
        if (ready(j) && (!best || goes_before(j, best)))
            best = j;
    return best;
}

/* A job nobody will start now: STAGED, or waiting for its params (p->mu held). */
static pjob_t *next_unstarted(cz_prover_t *p)
{
    CZ_ASSERT(cz_mutex_held(&p->mu));
    for (pjob_t *j = p->jobs; j; j = j->next)
        if (j->phase == PJ_STAGED || j->phase == PJ_PARAMS)
            return j;
    return NULL;
}

/* Wrap the ctx's shape message: "params P do not fit SUMMARY: ..." (callers grep for it). */
static int does_not_fit(cz_ctx_t *ctx, int rc, const pjob_t *j)
{
    char m[256];
    snprintf(m, sizeof m, "%s", cz_ctx_message(ctx));
    return cz_fail(ctx, rc, "params %s do not fit %s: %s", j->params_path, j->kj.summary, m);
}

/*
 * |j| (STAGING, params loaded, *pe its reference) to the engine. The reference
 * is the job's from here (end_job releases it). p->mu NOT held.
 */
static int submit_to_engine(cz_prover_t *p, cz_ctx_t *ctx, pjob_t *j, cz_pentry_t *pe)
{
    int rc = cz_params_check_shape(ctx, cz_pentry_params(pe), &j->kj.shape);
    if (rc != CZ_OK)
        rc = does_not_fit(ctx, rc, j);
    cz_mutex_lock(&p->mu);
    j->pentry = pe;
    bool cancel = j->cancel;
    cz_mutex_unlock(&p->mu);
    if (rc != CZ_OK)
        return rc;
    if (cancel)
        return cz_fail(ctx, CZ_ECANCELED, "canceled before it started");
    size_t pb = 0, abc = 0;
    cz_engine_estimate(&j->kj.shape, j->kj.rows, &pb, &abc);
    cz_job_spec_t spec = { .partitions = j->partitions, .priority = j->priority,
                           .params = cz_pentry_params(pe), .pvk = cz_pentry_pvk(pe),
                           .partition_bytes = pb, .abc_bytes = abc,
                           .synthesize = j->kj.synthesize, .arg = j->kj.arg,
                           .on_done = engine_done, .done_arg = j };
    /* ENGINE before the submit: the callback may come before cz_engine_submit returns */
    cz_mutex_lock(&p->mu);
    j->phase = PJ_ENGINE;
    engine_enter(p);
    cz_mutex_unlock(&p->mu);
    uint64_t eid = 0;
    rc = cz_engine_submit(p->engine, ctx, &spec, &eid);
    cz_mutex_lock(&p->mu);
    if (rc != CZ_OK) {
        j->phase = PJ_STAGING;
        engine_leave(p);
    } else {
        j->eid = eid;
        cancel = j->cancel;
        pthread_cond_broadcast(&p->changed);
    }
    cz_mutex_unlock(&p->mu);
    if (rc == CZ_OK && cancel)
        cz_engine_cancel(p->engine, eid);   /* canceled while it was being submitted */
    return rc;
}

/*
 * |j|'s params are not loaded: refuse a file of another shape from its count
 * words (nothing bulk is read), then wait for the file's load (PARAMS; the
 * stager goes on with other jobs). p->mu NOT held.
 */
static int wait_for_load(cz_prover_t *p, cz_ctx_t *ctx, pjob_t *j)
{
    int rc = cz_params_check_file_shape(ctx, j->params_path, &j->kj.shape);
    if (rc == CZ_EMISMATCH || rc == CZ_EINVAL)
        return does_not_fit(ctx, rc, j);
    if (rc != CZ_OK)
        return rc;
    cz_mutex_lock(&p->mu);
    if (j->cancel) {
        rc = cz_fail(ctx, CZ_ECANCELED, "canceled before it started");
    } else if ((rc = cz__pload_join(p, ctx, j)) == CZ_OK) {
        j->phase = PJ_PARAMS;
        pthread_cond_broadcast(&p->changed);
    }
    cz_mutex_unlock(&p->mu);
    return rc;
}

/* A new job: its input's checks, then its params (cached: the engine; else: a load). */
static int stage_new(cz_prover_t *p, cz_ctx_t *ctx, pjob_t *j)
{
    /* the input's expensive checks first: a bad C1 fails in milliseconds, not after a
     * multi-GB params load */
    int rc = j->kind->validate ? j->kind->validate(&j->kj, ctx) : CZ_OK;
    if (rc != CZ_OK)
        return rc;
    double t0 = cz_mono_ms();
    cz_pentry_t *pe = NULL;
    if (!cz_pcache_acquire_loaded(p->pcache, j->params_path, &pe))
        return wait_for_load(p, ctx, j);
    cz_mutex_lock(&p->mu);
    j->params_load_ms = cz_mono_ms() - t0;
    cz_mutex_unlock(&p->mu);
    return submit_to_engine(p, ctx, j, pe);
}

/* A job whose load has ended (or that was canceled while it waited): it leaves the load. */
static int stage_loaded(cz_prover_t *p, cz_ctx_t *ctx, pjob_t *j)
{
    cz_mutex_lock(&p->mu);
    pload_t *l = j->pload;
    bool cancel = j->cancel;
    int rc = l->done ? l->rc : CZ_OK;
    cz_pentry_t *pe = !cancel && rc == CZ_OK ? l->entry : NULL;
    if (pe)   /* the job's own reference: the load's goes when the load is reaped */
        cz_pcache_retain(p->pcache, pe);
    if (rc != CZ_OK)
        cz_fail(ctx, rc, "%s", l->message);
    j->params_load_ms = (cz_mono_s() - j->t_params_wait) * 1e3;
    cz__pload_leave(p, j);
    cz_mutex_unlock(&p->mu);
    if (cancel)
        return cz_fail(ctx, CZ_ECANCELED, "canceled while its params were loading");
    return rc != CZ_OK ? rc : submit_to_engine(p, ctx, j, pe);
}

/* End |j| (STAGING) with the outcome of a failed or canceled staging. */
static void end_unstaged(cz_prover_t *p, pjob_t *j, int rc, const char *msg)
{
    end_job(p, j, rc == CZ_ECANCELED ? CZ_JOB_CANCELED : CZ_JOB_FAILED, rc, msg, NULL, 0, NULL,
            NULL);
}

void *cz__prover_stager(void *arg)
{
    cz_prover_t *p = arg;
    cz_ctx_t *ctx = NULL;
    if (cz_ctx_new(&ctx, p->pool, 0) != CZ_OK)
        return NULL;
    cz_mutex_lock(&p->mu);
    while (!p->stopping) {
        /* reaping drops p->mu: a stop or a job may have come meanwhile, so every
         * check below is made after it (a stop missed here would never be woken) */
        cz__pload_reap(p, false);
        pjob_t *j = p->stopping ? NULL : next_ready(p);
        if (!j) {
            if (!p->stopping)
                cz_cond_wait(&p->work, &p->mu);
            continue;
        }
        bool fresh = j->phase == PJ_STAGED;
        j->phase = PJ_STAGING;
        if (fresh)
            j->t_staged = cz_mono_s();
        pthread_cond_broadcast(&p->changed);
        cz_mutex_unlock(&p->mu);
        cz_ctx_clear(ctx);
        int rc = fresh ? stage_new(p, ctx, j) : stage_loaded(p, ctx, j);
        if (rc != CZ_OK)
            end_unstaged(p, j, rc, cz_ctx_message(ctx));
        cz_mutex_lock(&p->mu);
    }
    /* jobs not started end CANCELED: nobody will start them; then the loads end */
    pjob_t *j;
    while ((j = next_unstarted(p))) {
        j->phase = PJ_STAGING;
        cz__pload_leave(p, j);
        cz_mutex_unlock(&p->mu);
        end_unstaged(p, j, CZ_ECANCELED, "the prover is shutting down");
        cz_mutex_lock(&p->mu);
    }
    cz__pload_reap(p, true);
    cz_mutex_unlock(&p->mu);
    cz_ctx_free(ctx);
    return NULL;
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
    out->started = j->eid != 0;   /* the engine took it (it stays set once ended) */
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
            j = find(p, id);   /* it may have ended, or been forgotten, meanwhile */
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
