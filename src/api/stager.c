/*
 * api/stager.c — a prover's jobs from submitted to ended: the stager
 * thread (ready jobs by priority, then age, to the engine; the params loads
 * run beside it, api/pload.c), the engine's completion callback, and the
 * end of a job (phases and locking in api/prover_int.h).
 *
 * The stager never waits for a params load: a job whose params are not
 * loaded waits in phase PARAMS while the stager goes on with the others, so
 * a job whose params are cached passes it and a cancel ends it at once.
 */
#include "api/prover_int.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/clock.h"
#include "groth16/params.h"
#include "groth16/proof.h"

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
    cz_params_t *rparams = cz__rparams_drop(p, j);
    bool prepared = j->prepared;
    j->pentry = NULL;
    j->prepared = false;
    cz_mutex_unlock(&p->mu);
    if (pe)
        cz_pcache_release(p->pcache, pe);
    cz_params_free(rparams); /* the engine reads them no more */
    if (prepared)
        j->kind->release(&j->kj); /* the engine calls its synthesize no more */

    cz_mutex_lock(&p->mu);
    j->state = st;
    j->error = st == CZ_JOB_DONE       ? CZ_OK
               : error                 ? error
               : st == CZ_JOB_CANCELED ? CZ_ECANCELED
                                       : CZ_EINTERNAL;
    snprintf(j->message, sizeof j->message, "%s",
             msg && *msg         ? msg
             : st == CZ_JOB_DONE ? ""
                                 : cz_strerror(j->error));
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
 * THE MEMORY MARGIN, in one place for every door (cuzk.h memory_margin 0):
 * the automatic budget is physical memory less an eighth of it (at least
 * 5 GiB, cz_engine_margin_for), and the params the prover holds in host
 * memory (loaded, the decoded vectors of a lazily opened file, a timing
 * job's random ones) come out of it too: before each job enters the engine the
 * cache's bytes are counted into the budget (cz_engine_host_take, ahead of
 * waiting partitions) or given back after evictions. A take that does not
 * fit now (partitions in flight hold the budget) is tried again at the next
 * job. Stager thread only; p->mu NOT held.
 */
static void count_params(cz_prover_t *p)
{
    if (!p->count_params)
        return;
    cz_pcache_stats_t ps;
    cz_pcache_stats(p->pcache, &ps);
    cz_mutex_lock(&p->mu);
    size_t held = ps.bytes + p->timing_bytes, counted = p->params_counted;
    cz_mutex_unlock(&p->mu);
    if (held > counted) {
        if (!cz_engine_host_take(p->engine, held - counted))
            held = counted;
    } else if (held < counted) {
        cz_engine_host_give(p->engine, counted - held);
    }
    cz_mutex_lock(&p->mu); /* the stager is the only writer; cz_prover_stats reads it */
    p->params_counted = held;
    cz_mutex_unlock(&p->mu);
}

/*
 * |j| (STAGING, params loaded, *pe its reference) to the engine. The reference
 * is the job's from here (end_job releases it). A timing job has no *pe: its
 * random params (j->rparams, of its shape by construction) and no
 * verification. p->mu NOT held.
 */
static int submit_to_engine(cz_prover_t *p, cz_ctx_t *ctx, pjob_t *j, cz_pentry_t *pe)
{
    int rc = pe ? cz_params_check_shape(ctx, cz_pentry_params(pe), &j->kj.shape) : CZ_OK;
    if (rc != CZ_OK)
        rc = does_not_fit(ctx, rc, j);
    cz_mutex_lock(&p->mu);
    j->pentry = pe;
    if (pe)
        j->params_bytes = cz_pentry_bytes(pe);
    bool cancel = j->cancel;
    cz_mutex_unlock(&p->mu);
    if (rc != CZ_OK)
        return rc;
    if (cancel)
        return cz_fail(ctx, CZ_ECANCELED, "canceled before it started");
    count_params(p);
    size_t pb = 0, abc = 0;
    cz_engine_estimate(&j->kj.shape, j->kj.rows, &pb, &abc);
    cz_job_spec_t spec = { .partitions = j->partitions,
                           .priority = j->priority,
                           .params = pe ? cz_pentry_params(pe) : j->rparams->params,
                           .pvk = pe ? cz_pentry_pvk(pe) : NULL, /* NULL: not verified */
                           .partition_bytes = pb,
                           .abc_bytes = abc,
                           .synthesize = j->kj.synthesize,
                           .arg = j->kj.arg,
                           .on_done = engine_done,
                           .done_arg = j };
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
        cz_engine_cancel(p->engine, eid); /* canceled while it was being submitted */
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

cz_params_t *cz__rparams_drop(cz_prover_t *p, pjob_t *j)
{
    CZ_ASSERT(cz_mutex_held(&p->mu));
    cz_rparams_t *r = j->rparams;
    j->rparams = NULL;
    if (!r || --r->refs > 0)
        return NULL;
    p->timing_bytes -= r->bytes;
    cz_params_t *params = r->params;
    free(r);
    return params;
}

static bool same_shape(const cz_params_shape_t *a, const cz_params_shape_t *b)
{
    return a->num_inputs == b->num_inputs && a->num_aux == b->num_aux &&
           a->domain_size == b->domain_size && a->a_aux_popcount == b->a_aux_popcount &&
           a->b_input_popcount == b->b_input_popcount && a->b_aux_popcount == b->b_aux_popcount;
}

/* The random params of |shape| and |seed| another live timing job holds, taken (p->mu held). */
static cz_rparams_t *rparams_share(cz_prover_t *p, const cz_params_shape_t *shape, uint64_t seed)
{
    CZ_ASSERT(cz_mutex_held(&p->mu));
    for (pjob_t *k = p->jobs; k; k = k->next)
        if (k->rparams && k->rparams->seed == seed && same_shape(&k->rparams->shape, shape)) {
            k->rparams->refs++;
            return k->rparams;
        }
    return NULL;
}

/*
 * A timing job (cuzk.h cz_prover_submit_timing): its random params taken
 * from a live timing job of the same shape and seed, or made here, on the
 * stager (seconds, even at 32GiB; a prover that times does nothing else),
 * then the engine. p->mu NOT held.
 */
static int stage_timing(cz_prover_t *p, cz_ctx_t *ctx, pjob_t *j)
{
    double t0 = cz_mono_ms();
    cz_mutex_lock(&p->mu);
    cz_rparams_t *r = rparams_share(p, &j->kj.shape, j->timing_seed);
    cz_mutex_unlock(&p->mu);
    int rc = CZ_OK;
    bool made = !r;
    if (made) {
        r = calloc(1, sizeof *r);
        if (!r)
            return cz_fail(ctx, CZ_ENOMEM, "random params");
        rc = cz_params_random(ctx, &r->params, &j->kj.shape, j->timing_seed);
        if (rc != CZ_OK) {
            free(r);
            r = NULL;
        } else {
            r->bytes = cz_params_mem_bytes(r->params);
            r->shape = j->kj.shape;
            r->seed = j->timing_seed;
            r->refs = 1;
        }
    }
    cz_mutex_lock(&p->mu);
    j->params_load_ms = cz_mono_ms() - t0;
    if (r) {
        if (made) /* counted once, however many jobs share it */
            p->timing_bytes += r->bytes;
        j->rparams = r;
        j->params_bytes = r->bytes;
    }
    cz_mutex_unlock(&p->mu);
    return rc != CZ_OK ? rc : submit_to_engine(p, ctx, j, NULL);
}

/* A new job: its input's checks, then its params (cached: the engine; else: a load). */
static int stage_new(cz_prover_t *p, cz_ctx_t *ctx, pjob_t *j)
{
    cz_mutex_lock(&p->mu);
    bool cancel = j->cancel;
    cz_mutex_unlock(&p->mu);
    if (cancel)
        return cz_fail(ctx, CZ_ECANCELED, "canceled before it started");
    /* the input's expensive checks first: a bad C1 fails in milliseconds, not after a
     * multi-GB params load */
    int rc = j->kind->validate ? j->kind->validate(&j->kj, ctx) : CZ_OK;
    if (rc != CZ_OK)
        return rc;
    if (j->timing)
        return stage_timing(p, ctx, j);
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
    if (pe) /* the job's own reference: the load's goes when the load is reaped */
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
