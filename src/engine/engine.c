/*
 * engine/engine.c — jobs: submit, status, wait, cancel, resolution and
 * verification (see engine/engine.h). The threads are in workers.c.
 */
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "core/clock.h"
#include "engine/engine_int.h"

static const char *const state_names[] = {
    "queued", "running", "verifying", "done", "failed", "canceled",
};

const char *cz_job_state_name(cz_job_state_t s)
{
    return (unsigned)s <= CZ_JOB_CANCELED ? state_names[s] : "unknown";
}

const char *cz_part_stage_name(cz_part_stage_t s)
{
    static const char *const names[CZ_PART_NSTAGES] = {
        "queued", "synthesis", "waiting_device", "device", "epilogue",
    };
    return s < CZ_PART_NSTAGES ? names[s] : "unknown";
}

const char *cz_job_stage_label(cz_job_state_t state, const size_t in_stage[CZ_PART_NSTAGES])
{
    if (state == CZ_JOB_VERIFYING)
        return "verify";
    for (int k = CZ_PART_NSTAGES - 1; k > CZ_PART_QUEUED; k--)
        if (in_stage[k])
            return cz_part_stage_name((cz_part_stage_t)k);
    return cz_part_stage_name(CZ_PART_QUEUED);
}

double cz__engine_now_ms(cz_engine_t *e)
{
    return e->tl ? cz_tl_now_ms(e->tl) : cz_mono_ms();
}

static bool job_ended(const job_t *j)
{
    return j->state == CZ_JOB_DONE || j->state == CZ_JOB_FAILED || j->state == CZ_JOB_CANCELED;
}

void cz_engine_estimate(const cz_params_shape_t *shape, size_t rows, size_t *partition_bytes,
                        size_t *abc_bytes)
{
    size_t fr = sizeof(cz_fr), m = shape->domain_size;
    /* a and b grown to the domain; the provers' witnesses carry no c (c = a*b,
     * cs/cs.h): 8 GiB, not 12, at a 32GiB PoRep partition */
    size_t abc = 2 * m * fr;
    /* aux + inputs, density and split bitmaps, significant scalars (bounded
     * by aux for the three splits at worst a quarter each in practice) */
    size_t witness = (shape->num_aux + shape->num_inputs) * fr + 4 * (shape->num_aux / 8 + 64);
    size_t splits = 3 * (shape->num_aux / 4) * (fr + 4);
    (void)rows;
    *abc_bytes = abc;
    *partition_bytes = abc + witness + splits + ((size_t)64 << 20); /* + slack for MSM scratch */
}

/* ---- lifecycle -------------------------------------------------------------- */

/*
 * The recycler's accounting: a kept block is reserved in the budget without
 * waiting (refused: the block is freed), and released when it leaves.
 * So recycling happens while memory is not what limits the engine (the
 * usual case on a GPU host: the device queue bounds the partitions in
 * flight); when partitions wait for budget, the one waiting gets the
 * memory and allocates fresh pages, as before, and a partition that finds
 * kept blocks in its way has them freed (shed_recycled, the budget's
 * reclaim hook) instead of waiting for them. Blocks smaller than a few
 * MiB are not worth keeping; a few partitions' a, b and aux are.
 */
#define RECYCLE_MIN_BYTES ((size_t)8 << 20)
#define RECYCLE_MAX_BLOCKS 16u

static bool hold_in_budget(void *arg, size_t bytes)
{
    return cz_budget_try_reserve(arg, bytes);
}

static void release_from_budget(void *arg, size_t bytes)
{
    cz_budget_release(arg, bytes);
}

/* A partition waits for memory the recycler keeps: the blocks go (budget.h, reclaim). */
static size_t shed_recycled(void *arg, size_t bytes)
{
    return cz_recycler_shed(arg, bytes);
}

size_t cz_engine_margin_for(size_t params_bytes)
{
    const size_t eighth = cz_budget_physical() / 8;
    return (eighth > CZ_ENGINE_BASE_MARGIN ? eighth : CZ_ENGINE_BASE_MARGIN) + params_bytes;
}

int cz_engine_new(cz_ctx_t *ctx, cz_engine_t **out, const cz_engine_config_t *cfg)
{
    *out = NULL;
    if (!cfg || !cfg->backends || cfg->num_devices == 0)
        return cz_fail(ctx, CZ_EINVAL, "engine: no devices configured");
    for (size_t d = 0; d < cfg->num_devices; d++)
        if (!cfg->backends[d])
            return cz_fail(ctx, CZ_EINVAL, "engine: device %zu has no backend", d);
    cz_engine_t *e = calloc(1, sizeof *e);
    if (!e)
        return cz_fail(ctx, CZ_ENOMEM, "engine: out of memory");
    e->cfg = *cfg;
    if (!e->cfg.workers_per_device)
        e->cfg.workers_per_device = 2;
    if (!e->cfg.synth_workers)
        e->cfg.synth_workers = 1;
    if (!e->cfg.memory_margin)
        e->cfg.memory_margin = cz_engine_margin_for(0);
    if (!e->cfg.memory_budget)
        e->cfg.memory_budget = cz_budget_auto(e->cfg.memory_margin);
    if (!e->cfg.device_queue_depth)
        e->cfg.device_queue_depth = (unsigned)(cfg->num_devices * e->cfg.workers_per_device);
    if (!e->cfg.max_retries)
        e->cfg.max_retries = 1;
    e->tl = cfg->timeline;
    e->next_id = 1;
    cz_mutex_init(&e->mu);
    pthread_cond_init(&e->work_cv, NULL);
    pthread_cond_init(&e->devq_cv, NULL);
    pthread_cond_init(&e->done_cv, NULL);
    cz_budget_init(&e->budget, e->cfg.memory_budget);
    e->pool = cfg->pool;
    if (!e->cfg.recycle_min_bytes)
        e->cfg.recycle_min_bytes = RECYCLE_MIN_BYTES;
    int rc = cz_recycler_new(&e->recycler, e->cfg.recycle_min_bytes, RECYCLE_MAX_BLOCKS,
                             hold_in_budget, release_from_budget, &e->budget);
    if (rc == CZ_OK)
        cz_budget_set_reclaim(&e->budget, shed_recycled, e->recycler);
    if (rc == CZ_OK && !e->pool) {
        rc = cz_pool_new(&e->pool, 0);
        e->owns_pool = rc == CZ_OK;
    }
    e->devices = calloc(cfg->num_devices, sizeof *e->devices);
    if (e->devices) { /* counted only once their locks exist (engine_free destroys them) */
        e->num_devices = e->live_devices = cfg->num_devices;
        for (size_t d = 0; d < e->num_devices; d++) {
            e->devices[d].backend = cfg->backends[d];
            cz_mutex_init(&e->devices[d].lock);
        }
    } else if (rc == CZ_OK) {
        rc = CZ_ENOMEM;
    }
    if (rc == CZ_OK)
        rc = cz__workers_start(e, ctx);
    if (rc) {
        cz_engine_free(e);
        return cz_fail(ctx, rc, "engine: cannot start: %s", cz_strerror(rc));
    }
    *out = e;
    return CZ_OK;
}

static void job_free(job_t *j)
{
    free(j->retry);
    free(j->attempts);
    free(j->proofs);
    free(j->inputs);
    free(j);
}

static void settle_devices(cz_engine_t *e);
static void mark_canceled(cz_engine_t *e, job_t *j, const char *why);

void cz_engine_free(cz_engine_t *e)
{
    if (!e)
        return;
    cz_mutex_lock(&e->mu);
    e->shutdown = true;
    for (job_t *j = e->jobs; j; j = j->next)
        if (!job_ended(j) && j->state != CZ_JOB_VERIFYING)
            mark_canceled(e, j, "canceled: the engine shut down");
    pthread_cond_broadcast(&e->work_cv);
    pthread_cond_broadcast(&e->devq_cv);
    cz_mutex_unlock(&e->mu);
    cz_budget_close(&e->budget);
    cz__workers_join(e);
    settle_devices(e); /* the caller frees the jobs' params after this */
    for (size_t d = 0; e->devices && d < e->num_devices; d++)
        cz_mutex_destroy(&e->devices[d].lock);
    free(e->devices);
    while (e->jobs) {
        job_t *j = e->jobs;
        e->jobs = j->next;
        job_free(j);
    }
    if (e->owns_pool)
        cz_pool_free(e->pool);
    cz_recycler_free(e->recycler); /* after the workers: nothing gives to it any more */
    cz_budget_destroy(&e->budget);
    pthread_cond_destroy(&e->work_cv);
    pthread_cond_destroy(&e->devq_cv);
    pthread_cond_destroy(&e->done_cv);
    cz_mutex_destroy(&e->mu);
    free(e);
}

/* ---- submit / query ---------------------------------------------------------- */

/* The job numbered |id|, or NULL; e->mu held (the job list is (mu)). */
static job_t *find_job(cz_engine_t *e, uint64_t id)
{
    CZ_ASSERT(cz_mutex_held(&e->mu));
    for (job_t *j = e->jobs; j; j = j->next)
        if (j->id == id)
            return j;
    return NULL;
}

/* The largest partition a job brings, for the room a backend's takes leave (one larger
 * than the budget fails at its reservation: not counted). */
static void note_partition_bytes(cz_engine_t *e, size_t bytes)
{
    size_t seen = atomic_load(&e->largest_partition);
    while (bytes <= e->budget.total && bytes > seen &&
           !atomic_compare_exchange_weak(&e->largest_partition, &seen, bytes))
        ;
}

int cz_engine_submit(cz_engine_t *e, cz_ctx_t *ctx, const cz_job_spec_t *spec, uint64_t *id)
{
    if (!spec)
        return cz_fail(ctx, CZ_EINVAL, "engine: no job spec");
    if (spec->partitions == 0)
        return cz_fail(ctx, CZ_EINVAL, "engine: a job needs at least one partition");
    if (!spec->params)
        return cz_fail(ctx, CZ_EINVAL, "engine: the job has no params");
    if (!spec->synthesize)
        return cz_fail(ctx, CZ_EINVAL, "engine: the job has no synthesize function");
    if (spec->abc_bytes > spec->partition_bytes)
        return cz_fail(ctx, CZ_EINVAL, "engine: abc_bytes %zu exceed partition_bytes %zu",
                       spec->abc_bytes, spec->partition_bytes);
    job_t *j = calloc(1, sizeof *j);
    if (!j)
        return cz_fail(ctx, CZ_ENOMEM, "engine: job");
    j->spec = *spec;
    j->proofs = calloc(spec->partitions, sizeof *j->proofs);
    j->retry = calloc(spec->partitions, sizeof *j->retry);
    j->attempts = calloc(spec->partitions, sizeof *j->attempts);
    if (!j->proofs || !j->retry || !j->attempts) {
        job_free(j);
        return cz_fail(ctx, CZ_ENOMEM, "engine: state of %zu partitions", spec->partitions);
    }
    atomic_init(&j->canceled, false);
    note_partition_bytes(e, spec->partition_bytes); /* before the devices' takes below */
    /* While the first partition synthesizes, the devices make what its region
     * needs. Before the job is visible: a job can end (and its params be
     * freed) only after settle_devices, which then waits for this. */
    for (size_t d = 0; d < e->num_devices; d++)
        cz_g16_prepare(e->devices[d].backend, spec->params);
    cz_mutex_lock(&e->mu);
    if (e->shutdown) {
        cz_mutex_unlock(&e->mu);
        job_free(j);
        settle_devices(e); /* the caller may free the params when this returns */
        return cz_fail(ctx, CZ_ECANCELED, "engine: shutting down");
    }
    j->id = e->next_id++;
    j->state = CZ_JOB_QUEUED;
    j->t_submit = cz__engine_now_ms(e);
    j->next = e->jobs;
    e->jobs = j;
    *id = j->id;
    pthread_cond_broadcast(&e->work_cv);
    cz_mutex_unlock(&e->mu);
    return CZ_OK;
}

/* Snapshot |j| into |out|; e->mu held (most of what it reads is (mu)). */
static void fill_info(cz_engine_t *e, const job_t *j, cz_job_info_t *out)
{
    CZ_ASSERT(cz_mutex_held(&e->mu));
    memset(out, 0, sizeof *out);
    out->id = j->id;
    out->state = j->state;
    out->partitions = j->spec.partitions;
    out->partitions_done = j->proved;
    out->error = j->error;
    memcpy(out->message, j->message, sizeof out->message);
    double end = job_ended(j) ? j->t_done : cz__engine_now_ms(e);
    out->t.queue_wait = (j->t_first_synth > 0 ? j->t_first_synth : end) - j->t_submit;
    out->t.synthesis = j->synth_ms;
    out->t.device = j->device_ms;
    out->t.total = end - j->t_submit;
    size_t placed = 0, open = j->spec.partitions - j->resolved;
    for (int k = CZ_PART_SYNTHESIS; k < CZ_PART_NSTAGES; k++)
        placed += out->in_stage[k] = atomic_load(&j->in_stage[k]);
    out->in_stage[CZ_PART_QUEUED] = open > placed ? open - placed : 0;
}

int cz_engine_info(cz_engine_t *e, uint64_t id, cz_job_info_t *out)
{
    cz_mutex_lock(&e->mu);
    job_t *j = find_job(e, id);
    if (j)
        fill_info(e, j, out);
    cz_mutex_unlock(&e->mu);
    return j ? CZ_OK : CZ_ENOTFOUND;
}

int cz_engine_wait(cz_engine_t *e, uint64_t id, double timeout_s, cz_job_info_t *out)
{
    struct timespec deadline = cz_deadline_in(timeout_s);
    int rc = CZ_OK;
    cz_mutex_lock(&e->mu);
    job_t *j;
    while ((j = find_job(e, id)) && !job_ended(j)) {
        if (timeout_s < 0) {
            cz_cond_wait(&e->done_cv, &e->mu);
        } else if (cz_cond_timedwait(&e->done_cv, &e->mu, &deadline) != 0) {
            rc = CZ_EBUSY;
            break;
        }
    }
    if (!j)
        rc = CZ_ENOTFOUND;
    else if (out)
        fill_info(e, j, out);
    cz_mutex_unlock(&e->mu);
    return rc;
}

int cz_engine_proof(cz_engine_t *e, uint64_t id, uint8_t **proof, size_t *len)
{
    *proof = NULL;
    *len = 0;
    cz_mutex_lock(&e->mu);
    job_t *j = find_job(e, id);
    int rc = !j ? CZ_ENOTFOUND : j->state != CZ_JOB_DONE ? CZ_EBUSY : CZ_OK;
    if (rc == CZ_OK) {
        size_t n = j->spec.partitions * CZ_PROOF_BYTES;
        if ((*proof = malloc(n))) {
            cz_proofs_encode(*proof, j->proofs, j->spec.partitions);
            *len = n;
        } else {
            rc = CZ_ENOMEM;
        }
    }
    cz_mutex_unlock(&e->mu);
    return rc;
}

int cz_engine_public_inputs(cz_engine_t *e, uint64_t id, cz_fr **inputs, size_t *per_partition)
{
    *inputs = NULL;
    *per_partition = 0;
    cz_mutex_lock(&e->mu);
    job_t *j = find_job(e, id);
    int rc = !j ? CZ_ENOTFOUND : j->state != CZ_JOB_DONE ? CZ_EBUSY : CZ_OK;
    if (rc == CZ_OK) {
        /* every partition was synthesized (DONE), so inputs[] is complete and no
         * worker writes it any more */
        size_t n = j->spec.partitions * j->n_inputs;
        if ((*inputs = malloc((n ? n : 1) * sizeof **inputs))) {
            if (n)
                memcpy(*inputs, j->inputs, n * sizeof **inputs);
            *per_partition = j->n_inputs;
        } else {
            rc = CZ_ENOMEM;
        }
    }
    cz_mutex_unlock(&e->mu);
    return rc;
}

/*
 * A job's end as its callback sees it, taken under e->mu by the thread that
 * ended it and delivered after unlocking (the callback may forget the job,
 * so nothing of |j| is read after the unlock).
 */
typedef struct {
    cz_engine_done_fn *fn;
    void *arg;
    uint64_t id;
    cz_job_state_t state;
} ended_t;

static void notify(const ended_t *n)
{
    if (n->fn)
        n->fn(n->arg, n->id, n->state);
}

/* Called with e->mu held: ends the job if every partition is resolved (see end_job). */
static void finish_if_resolved(cz_engine_t *e, job_t *j, ended_t *ended);

/*
 * A job may end once this returns: no backend still reads the params it
 * was prepared with (backend.h prepare/settle). Called with e->mu NOT held
 * (a preparer may be uploading a params set: a second or two, at a job's
 * start only), before every path that can end a job.
 */
static void settle_devices(cz_engine_t *e)
{
    CZ_ASSERT(!cz_mutex_held(&e->mu));
    for (size_t d = 0; d < e->num_devices; d++)
        cz_backend_settle(e->devices[d].backend);
}

/* e->mu held: the partitions never handed to synthesis (or waiting for a retry) resolve now. */
static void drop_unstarted(cz_engine_t *e, job_t *j)
{
    CZ_ASSERT(cz_mutex_held(&e->mu));
    j->resolved += (j->spec.partitions - j->next_part) + j->n_retry;
    j->next_part = j->spec.partitions;
    j->n_retry = 0;
}

/* No partition of |j| starts after this, and it ends CANCELED with |why| (or FAILED, where a
 * failure came first) once its partitions in flight resolve: the error is set here, so a
 * partition given back after a device error counts as resolved, never as proved. e->mu held. */
static void mark_canceled(cz_engine_t *e, job_t *j, const char *why)
{
    CZ_ASSERT(cz_mutex_held(&e->mu));
    atomic_store(&j->canceled, true);
    if (!j->error) {
        j->error = CZ_ECANCELED;
        snprintf(j->message, sizeof j->message, "%s", why);
    }
    drop_unstarted(e, j);
}

/*
 * Cancel takes effect at once: no partition of the job starts after this
 * (a preparer may still be uploading its params). It may END the job only
 * after settle_devices, so the job is marked first, the lock dropped for
 * the settle, and the job ended after it — unless a resolving worker (which
 * settles too) ended it in between.
 */
int cz_engine_cancel(cz_engine_t *e, uint64_t id)
{
    cz_mutex_lock(&e->mu);
    job_t *j = find_job(e, id);
    bool marked = j && !job_ended(j) && j->state != CZ_JOB_VERIFYING;
    if (marked)
        mark_canceled(e, j, "canceled");
    cz_mutex_unlock(&e->mu);
    if (!marked)
        return j ? CZ_OK : CZ_ENOTFOUND;
    cz_budget_wake(&e->budget); /* a synthesis worker may wait for this job's memory */

    settle_devices(e);
    ended_t ended = { 0 };
    cz_mutex_lock(&e->mu);
    /* looked up again: a worker may have ended it meanwhile, and forget freed it */
    if ((j = find_job(e, id)) != NULL)
        finish_if_resolved(e, j, &ended);
    cz_mutex_unlock(&e->mu);
    notify(&ended);
    return CZ_OK;
}

int cz_engine_forget(cz_engine_t *e, uint64_t id)
{
    cz_mutex_lock(&e->mu);
    job_t **pp = &e->jobs;
    while (*pp && (*pp)->id != id)
        pp = &(*pp)->next;
    int rc = !*pp ? CZ_ENOTFOUND : !job_ended(*pp) ? CZ_EBUSY : CZ_OK;
    job_t *j = *pp;
    if (rc == CZ_OK)
        *pp = j->next;
    cz_mutex_unlock(&e->mu);
    if (rc == CZ_OK)
        job_free(j);
    return rc;
}

/* A take leaving |leave| bytes of the budget to partitions. */
static bool host_take_leaving(cz_engine_t *e, size_t bytes, size_t leave)
{
    if (!cz_budget_take_if_room(&e->budget, bytes, leave))
        return false;
    atomic_fetch_add(&e->backend_host_bytes, bytes);
    return true;
}

bool cz_engine_host_take(cz_engine_t *e, size_t bytes)
{
    return host_take_leaving(e, bytes, 0);
}

void cz_engine_host_give(cz_engine_t *e, size_t bytes)
{
    atomic_fetch_sub(&e->backend_host_bytes, bytes);
    cz_budget_give_taken(&e->budget, bytes);
}

/*
 * A backend's take (pinned params copies: worth having, not needed) leaves the largest
 * partition room: held until their set is dropped, they could otherwise leave no job's
 * partition room to be admitted, for good (a 64 GiB host: a 44 GiB set pinned, 15 GiB left
 * for 15.3 GiB partitions).
 */
static bool gate_take(void *obj, size_t bytes)
{
    cz_engine_gate_t *g = obj;
    cz_mutex_lock(&g->mu);
    bool ok = g->engine &&
              host_take_leaving(g->engine, bytes, atomic_load(&g->engine->largest_partition));
    cz_mutex_unlock(&g->mu);
    return ok;
}

static void gate_give(void *obj, size_t bytes)
{
    cz_engine_gate_t *g = obj;
    cz_mutex_lock(&g->mu);
    if (g->engine) /* else the engine, and its budget, are gone */
        cz_engine_host_give(g->engine, bytes);
    cz_mutex_unlock(&g->mu);
}

void cz_engine_gate_init(cz_engine_gate_t *g)
{
    cz_mutex_init(&g->mu);
    g->engine = NULL;
}

void cz_engine_gate_destroy(cz_engine_gate_t *g)
{
    cz_mutex_destroy(&g->mu);
}

cz_host_gate_t cz_engine_gate(cz_engine_gate_t *g)
{
    return (cz_host_gate_t){ g, gate_take, gate_give };
}

void cz_engine_gate_connect(cz_engine_gate_t *g, cz_engine_t *e)
{
    cz_mutex_lock(&g->mu);
    g->engine = e;
    cz_mutex_unlock(&g->mu);
}

void cz_engine_stats(cz_engine_t *e, cz_engine_stats_t *out)
{
    memset(out, 0, sizeof *out);
    cz_mutex_lock(&e->mu);
    for (job_t *j = e->jobs; j; j = j->next) {
        out->jobs[j->state]++;
        if (!job_ended(j))
            out->partitions_queued += (j->spec.partitions - j->next_part) + j->n_retry;
    }
    out->device_queue = e->devq_len;
    out->partitions_proved = e->proved;
    cz_mutex_unlock(&e->mu);
    out->budget_total = e->budget.total;
    out->budget_reserved = cz_budget_reserved(&e->budget);
    out->budget_peak = cz_budget_peak(&e->budget);
    cz_recycler_stats_t rs;
    cz_recycler_stats(e->recycler, &rs);
    out->recycled_bytes = rs.kept_bytes;
    out->recycle_hits = rs.hits;
    out->recycle_takes = rs.takes;
    out->backend_host_bytes = atomic_load(&e->backend_host_bytes);
    out->num_devices = e->num_devices;
    for (size_t d = 0; d < e->num_devices && d < 16; d++) {
        out->device_busy_s[d] = (double)atomic_load(&e->devices[d].busy_us) * 1e-6;
        out->device_failed[d] = atomic_load(&e->devices[d].failed);
    }
}

/* ---- resolution ---------------------------------------------------------------- */

/* Verify every partition proof of |j| against its public inputs (e->mu NOT held). */
static int verify_job(cz_engine_t *e, job_t *j, char *msg, size_t msg_len)
{
    CZ_ASSERT(!cz_mutex_held(&e->mu));
    cz_ctx_t *ctx;
    if (cz_ctx_new(&ctx, e->pool, 0) != CZ_OK)
        return CZ_ENOMEM;
    int rc = cz_verify_batch(ctx, j->spec.pvk, j->proofs, j->spec.partitions, j->inputs,
                             j->n_inputs);
    if (rc)
        snprintf(msg, msg_len, "proof verification failed: %s",
                 *cz_ctx_message(ctx) ? cz_ctx_message(ctx) : cz_strerror(rc));
    cz_ctx_free(ctx);
    return rc;
}

/* e->mu held; *ended receives the callback to make once the lock is dropped. */
static void end_job(cz_engine_t *e, job_t *j, cz_job_state_t state, ended_t *ended)
{
    CZ_ASSERT(cz_mutex_held(&e->mu));
    *ended = (ended_t){ j->spec.on_done, j->spec.done_arg, j->id, state };
    j->state = state;
    j->t_done = cz__engine_now_ms(e);
    cz_tl_emit(e->tl, CZ_TL_JOB_DONE, j->id, "state=%s,partitions=%zu,total_ms=%.1f",
               cz_job_state_name(state), j->spec.partitions, j->t_done - j->t_submit);
    pthread_cond_broadcast(&e->done_cv);
}

static void finish_if_resolved(cz_engine_t *e, job_t *j, ended_t *ended)
{
    CZ_ASSERT(cz_mutex_held(&e->mu));
    if (j->resolved < j->spec.partitions || job_ended(j) || j->state == CZ_JOB_VERIFYING)
        return;
    if (j->error == CZ_ECANCELED)
        end_job(e, j, CZ_JOB_CANCELED, ended);
    else if (j->error)
        end_job(e, j, CZ_JOB_FAILED, ended);
    else if (!j->spec.pvk || e->cfg.no_verify)
        end_job(e, j, CZ_JOB_DONE, ended);
    else
        j->state = CZ_JOB_VERIFYING; /* the resolving worker verifies outside the lock */
}

void cz__engine_resolve(cz_engine_t *e, part_t *p, int rc, const char *msg)
{
    CZ_ASSERT(!cz_mutex_held(&e->mu));
    job_t *j = p->job;
    ended_t ended = { 0 };
    settle_devices(e);
    cz_mutex_lock(&e->mu);
    j->in_flight--;
    j->resolved++;
    if (rc == CZ_OK) {
        j->proved++;
        e->proved++;
    } else if (!j->error) {
        j->error = rc;
        snprintf(j->message, sizeof j->message, "partition %zu: %s", p->index,
                 msg && *msg ? msg : cz_strerror(rc));
    }
    if (rc != CZ_OK && !atomic_load(&j->canceled)) {
        /* one failed partition fails the job: drop the rest */
        atomic_store(&j->canceled, true);
        drop_unstarted(e, j);
    }
    finish_if_resolved(e, j, &ended);
    bool verify = j->state == CZ_JOB_VERIFYING;
    cz_mutex_unlock(&e->mu);
    free(p);
    notify(&ended);

    if (verify) {
        char vmsg[256] = "";
        int vrc = verify_job(e, j, vmsg, sizeof vmsg);
        cz_mutex_lock(&e->mu);
        if (vrc) {
            j->error = vrc;
            snprintf(j->message, sizeof j->message, "%s", vmsg);
        }
        end_job(e, j, vrc ? CZ_JOB_FAILED : CZ_JOB_DONE, &ended);
        cz_mutex_unlock(&e->mu);
        notify(&ended);
    }
}

void cz__engine_requeue(cz_engine_t *e, part_t *p)
{
    CZ_ASSERT(!cz_mutex_held(&e->mu));
    job_t *j = p->job;
    ended_t ended = { 0 };
    settle_devices(e);
    cz_mutex_lock(&e->mu);
    j->in_flight--;
    if (atomic_load(&j->canceled)) {
        j->resolved++;
        finish_if_resolved(e, j, &ended);
    } else {
        j->retry[j->n_retry++] = p->index;
        pthread_cond_broadcast(&e->work_cv);
    }
    cz_mutex_unlock(&e->mu);
    free(p);
    notify(&ended);
}
