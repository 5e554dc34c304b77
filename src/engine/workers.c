/*
 * engine/workers.c — the engine's threads: synthesis workers, device
 * workers and each device worker's prep thread (see engine/engine.h).
 *
 * The interlock, per partition on device worker (d, k):
 *
 *   prep thread:  PREP_START .. cz_g16_prep .. PREP_END     (posts the latch)
 *   worker:       LOCK_WAIT, lock(d), LOCK_ACQ, GPU_START .. cz_g16_device ..
 *                 GPU_END, unlock(d), LOCK_REL, [free a/b/c], EPI_START ..
 *                 cz_g16_epilogue .. EPI_END, resolve
 *
 * Cancellation is looked at before staging, right after lock(d) (a job
 * canceled while it waited gives the lock back without entering the
 * region), by the backend between the region's steps (the partition's
 * cancel pointer is the job's flag) and before the epilogue.
 *
 * Prep starts before the lock is requested and overlaps the first device
 * stages (and, with W = 2, the other worker's region); the device region
 * waits for it through the partition's latch. Freeing and bookkeeping
 * happen after the unlock.
 *
 * Batches: where the backend advises it (bases streamed through a small
 * card: backend.h batch_max), a worker takes up to k partitions of the
 * same params into one region, so each pass over the bases serves all of
 * them. It takes those queued, and waits for more only while the device is
 * busy with the other worker's region (so the device never idles for a
 * batch to fill). The batch is prepped in order on the prep thread, runs
 * as one region under the lock, and each partition then has its own
 * epilogue and outcome (one canceled or failed in prep leaves the others
 * proving).
 */
#include <errno.h>
#include <malloc.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "core/clock.h"
#include "core/thread_name.h"
#include "engine/engine_int.h"

struct worker {
    cz_engine_t *e;
    size_t device;
    unsigned index; /* within the device */
    pthread_t thread, prep_thread;
    bool started, prep_started;
    cz_ctx_t *ctx, *prep_ctx;
    cz_mutex_t pmu;                       /* protects prep_q, prep_n, prep_done, rel_q, rel_n,
                                           * rel_done, prep_stop */
    pthread_cond_t pcv;                   /* partitions handed over, one prepped or given
                                           * back, or prep_stop */
    part_t *prep_q[CZ_BACKEND_MAX_BATCH]; /* (pmu) handed to the prep thread, in order */
    size_t prep_n;                        /* (pmu) partitions in prep_q */
    size_t prep_done;                     /* (pmu) of them prepped; busy while < prep_n */
    part_t *rel_q[CZ_BACKEND_MAX_BATCH];  /* (pmu) a, b, c to give back (abc_done), after
                                           * every prep handed over */
    size_t rel_n, rel_done;               /* (pmu) as prep_n, prep_done */
    bool prep_stop;                       /* (pmu) */
};

/* ---- synthesis ---------------------------------------------------------------- */

typedef struct {
    cz_engine_t *e;
    unsigned index;
} synth_arg_t;

/* Best job with work for synthesis: priority, then age (lower id). e->mu held. */
static job_t *pick_job(cz_engine_t *e)
{
    CZ_ASSERT(cz_mutex_held(&e->mu));
    job_t *best = NULL;
    for (job_t *j = e->jobs; j; j = j->next) {
        if (atomic_load(&j->canceled) || (j->next_part >= j->spec.partitions && !j->n_retry))
            continue;
        if (!best || j->spec.priority > best->spec.priority ||
            (j->spec.priority == best->spec.priority && j->id < best->id))
            best = j;
    }
    return best;
}

/* Take the job's next partition: retries first (lowest index), then in order. e->mu held. */
static size_t take_partition(cz_engine_t *e, job_t *j)
{
    CZ_ASSERT(cz_mutex_held(&e->mu));
    if (j->n_retry) {
        size_t lo = 0;
        for (size_t i = 1; i < j->n_retry; i++)
            if (j->retry[i] < j->retry[lo])
                lo = i;
        size_t idx = j->retry[lo];
        j->retry[lo] = j->retry[--j->n_retry];
        return idx;
    }
    return j->next_part++;
}

/* Move |p| to stage |s| (cz_job_info_t.in_stage); by its owner thread. */
static void part_enter(part_t *p, cz_part_stage_t s)
{
    if (p->stage != CZ_PART_QUEUED)
        atomic_fetch_sub(&p->job->in_stage[p->stage], 1);
    if (s != CZ_PART_QUEUED)
        atomic_fetch_add(&p->job->in_stage[s], 1);
    p->stage = s;
}

/* |p| leaves synthesis (queued for a device, or dropped). e->mu held. */
static void synthesis_left(part_t *p)
{
    if (p->synthesizing) {
        p->synthesizing = false;
        p->job->synthesizing--;
    }
}

static void drop(cz_engine_t *e, part_t *p, int rc, const char *msg)
{
    if (p->synthesizing) { /* only its synthesis thread reads the flag: no race */
        cz_mutex_lock(&e->mu);
        synthesis_left(p);
        cz_mutex_unlock(&e->mu);
    }
    part_enter(p, CZ_PART_QUEUED); /* leaves the stages before it is resolved */
    if (p->g16) {
        cz_g16_partition_free(p->g16);
        p->g16 = NULL;
    }
    if (p->reserved) {
        cz_budget_release(&e->budget, p->reserved);
        p->reserved = 0;
    }
    cz__engine_resolve(e, p, rc, msg);
}

/* Record the public inputs of a partition for verification (ONE excluded). */
static int capture_inputs(cz_engine_t *e, job_t *j, size_t idx, const cz_cs_witness_t *w,
                          cz_ctx_t *ctx)
{
    size_t n = w->num_inputs - 1;
    int rc = CZ_OK;
    cz_mutex_lock(&e->mu);
    if (!j->inputs) {
        j->inputs = calloc(j->spec.partitions * (n ? n : 1), sizeof *j->inputs);
        j->n_inputs = n;
        if (!j->inputs)
            rc = cz_fail(ctx, CZ_ENOMEM, "public inputs of %zu partitions", j->spec.partitions);
    } else if (j->n_inputs != n) {
        rc = cz_fail(ctx, CZ_EMISMATCH, "partition has %zu public inputs, partition 0 had %zu", n,
                     j->n_inputs);
    }
    cz_mutex_unlock(&e->mu);
    if (rc == CZ_OK && n)
        memcpy(j->inputs + idx * n, w->input + 1, n * sizeof *w->input);
    return rc;
}

static void push_device_queue(cz_engine_t *e, part_t *p)
{
    cz_mutex_lock(&e->mu);
    while (e->devq_len >= e->cfg.device_queue_depth && !e->shutdown && e->live_devices)
        cz_cond_wait(&e->devq_cv, &e->mu);
    bool usable = e->live_devices > 0;
    if (usable) {
        synthesis_left(p);
        /* By priority, FIFO within one: a CRITICAL partition (WinningPoSt)
         * overtakes queued PoRep partitions and reaches the next free
         * device at its next partition boundary. */
        part_t **at = &e->devq_head;
        while (*at && (*at)->job->spec.priority >= p->job->spec.priority)
            at = &(*at)->next;
        p->next = *at;
        *at = p;
        e->devq_len++;
        pthread_cond_broadcast(&e->devq_cv);
    }
    cz_mutex_unlock(&e->mu);
    if (!usable)
        drop(e, p, CZ_EDEVICE, "no usable device left (every device failed)");
}

static void synthesize_one(cz_engine_t *e, cz_ctx_t *ctx, unsigned widx, job_t *j, part_t *p)
{
    const cz_job_spec_t *spec = &j->spec;
    int rc = cz_budget_reserve(&e->budget, spec->partition_bytes, &j->canceled);
    if (rc == CZ_ERANGE) {
        cz_fail(ctx, rc, "a partition needs %zu bytes but the memory budget is %zu",
                spec->partition_bytes, e->budget.total);
        drop(e, p, rc, cz_ctx_message(ctx));
        return;
    }
    if (rc || atomic_load(&j->canceled)) {
        if (rc == CZ_OK)
            p->reserved = spec->partition_bytes;
        drop(e, p, CZ_ECANCELED, "canceled");
        return;
    }
    p->reserved = spec->partition_bytes;
    p->abc_released = false;

    part_enter(p, CZ_PART_SYNTHESIS);
    cz_tl_emit(e->tl, CZ_TL_SYNTH_START, j->id, "synth_worker=%u,partition=%zu", widx, p->index);
    double t0 = cz__engine_now_ms(e);
    cz_cs_witness_t w;
    memset(&w, 0, sizeof w);
    cz_ctx_clear(ctx);
    rc = spec->synthesize(spec->arg, p->index, ctx, &w);
    double ms = cz__engine_now_ms(e) - t0;
    cz_tl_emit(e->tl, CZ_TL_SYNTH_END, j->id, "synth_worker=%u,partition=%zu,synth_ms=%.1f", widx,
               p->index, ms);
    cz_mutex_lock(&e->mu);
    j->synth_ms += ms;
    cz_mutex_unlock(&e->mu);

    if (rc == CZ_OK && w.num_inputs == 0)
        rc = cz_fail(ctx, CZ_EINVAL, "synthesis produced no witness");
    if (rc == CZ_OK)
        rc = capture_inputs(e, j, p->index, &w, ctx);
    if (rc == CZ_OK)
        rc = cz_g16_partition_new(ctx, &p->g16, spec->params, &w, spec->r, spec->s);
    else
        cz_cs_witness_free_into(&w, e->recycler);
    if (rc) {
        drop(e, p, rc, cz_ctx_message(ctx));
        return;
    }
    if (atomic_load(&j->canceled)) {
        drop(e, p, CZ_ECANCELED, "canceled");
        return;
    }
    cz_tl_emit(e->tl, CZ_TL_GPU_QUEUE, j->id, "partition=%zu", p->index);
    part_enter(p, CZ_PART_DEVICE_WAIT);
    push_device_queue(e, p);
}

/*
 * No work: wait for some (e->mu held). Kept witness buffers are only worth
 * their memory while partitions keep coming: after IDLE_TRIM_S without
 * work they are given back to the OS.
 */
#define IDLE_TRIM_S 30

static void idle_wait(cz_engine_t *e)
{
    CZ_ASSERT(cz_mutex_held(&e->mu));
    cz_recycler_stats_t rs;
    cz_recycler_stats(e->recycler, &rs);
    if (!rs.kept_blocks) {
        cz_cond_wait(&e->work_cv, &e->mu);
        return;
    }
    struct timespec until = cz_deadline_in(IDLE_TRIM_S);
    if (cz_cond_timedwait(&e->work_cv, &e->mu, &until) == ETIMEDOUT && !pick_job(e)) {
        cz_mutex_unlock(&e->mu);
        cz_recycler_trim(e->recycler);
        cz_mutex_lock(&e->mu);
    }
}

static void *synth_main(void *argp)
{
    synth_arg_t *a = argp;
    cz_engine_t *e = a->e;
    cz_thread_name("cz-synth%u", a->index);
    cz_ctx_t *ctx = NULL;
    if (cz_ctx_new(&ctx, e->pool, 0) != CZ_OK) {
        cz_mutex_lock(&e->mu);
        e->synth_running--;
        pthread_cond_broadcast(&e->devq_cv);
        cz_mutex_unlock(&e->mu);
        free(a);
        return NULL;
    }
    cz_ctx_set_recycler(ctx, e->recycler); /* the witness takes warm buffers */
    cz_ctx_set_fault(ctx, e->cfg.fault);
    for (;;) {
        cz_mutex_lock(&e->mu);
        job_t *j = NULL;
        while (!e->shutdown && !(j = pick_job(e)))
            idle_wait(e);
        if (e->shutdown) {
            cz_mutex_unlock(&e->mu);
            break;
        }
        part_t *p = calloc(1, sizeof *p);
        if (!p) {
            cz_mutex_unlock(&e->mu);
            continue; /* try again: memory may come back */
        }
        p->job = j;
        p->index = take_partition(e, j);
        p->attempt = j->attempts[p->index]++;
        p->synthesizing = true;
        j->synthesizing++;
        j->in_flight++;
        if (e->live_devices == 0) {
            /* nothing could prove it: fail now instead of synthesizing for minutes */
            cz_mutex_unlock(&e->mu);
            drop(e, p, CZ_EDEVICE, "no usable device left (every device failed)");
            continue;
        }
        if (j->state == CZ_JOB_QUEUED)
            j->state = CZ_JOB_RUNNING;
        if (j->t_first_synth == 0)
            j->t_first_synth = cz__engine_now_ms(e);
        cz_mutex_unlock(&e->mu);
        synthesize_one(e, ctx, a->index, j, p);
    }
    cz_ctx_free(ctx);
    free(a);
    cz_mutex_lock(&e->mu);
    e->synth_running--;
    pthread_cond_broadcast(&e->devq_cv); /* draining device workers may exit now */
    cz_mutex_unlock(&e->mu);
    return NULL;
}

/* ---- prep thread ------------------------------------------------------------------ */

/* Up to |bytes| of |p|'s reservation back to the budget (never more than it still holds). */
static void release_part_of(cz_engine_t *e, part_t *p, size_t bytes)
{
    const size_t back = bytes < p->reserved ? bytes : p->reserved;
    cz_budget_release(&e->budget, back);
    p->reserved -= back;
}

/*
 * |p|'s a, b and c back, budget first (the recycler may keep the arrays
 * against the budget for the next synthesis), the arrays then: on the
 * prep thread while |p|'s region runs its tails (abc_done), or on the
 * worker after a region that never said so.
 */
static void release_abc(cz_engine_t *e, part_t *p)
{
    release_part_of(e, p, p->job->spec.abc_bytes);
    p->abc_released = true;
    cz_g16_give_abc(p->g16);
}

/*
 * |p|'s aux back once prep made the splits from it (nothing reads it after):
 * budget first, as release_abc. On the prep thread, seconds before the
 * region ends and the partition's remaining reservation goes back, so the
 * next synthesis may start sooner where the budget is what holds it.
 */
static void release_aux(cz_engine_t *e, part_t *p)
{
    release_part_of(e, p, cz_g16_aux_bytes(p->g16));
    cz_g16_give_aux(p->g16);
}

/*
 * The region reads |arg|'s a, b and c no more (backend.h, abc_done): its
 * worker's prep thread gives them back while the tails run. Here the
 * device lock is held: only the hand-over (giving back may free gigabytes,
 * and the device must not wait for that).
 */
static void abc_done(void *arg)
{
    part_t *p = arg;
    worker_t *w = p->releaser;
    cz_mutex_lock(&w->pmu);
    CZ_ASSERT(w->rel_n < CZ_BACKEND_MAX_BATCH);
    w->rel_q[w->rel_n++] = p;
    pthread_cond_broadcast(&w->pcv);
    cz_mutex_unlock(&w->pmu);
}

static void prep_one(worker_t *w, part_t *p)
{
    cz_engine_t *e = w->e;
    cz_tl_emit(e->tl, CZ_TL_PREP_START, p->job->id, "device=%zu,worker=%u,partition=%zu", w->device,
               w->index, p->index);
    double t0 = cz__engine_now_ms(e);
    const int rc = cz_g16_prep(w->prep_ctx, p->g16); /* posts the latch, also on failure */
    cz_tl_emit(e->tl, CZ_TL_PREP_END, p->job->id, "device=%zu,worker=%u,partition=%zu,ms=%.1f",
               w->device, w->index, p->index, cz__engine_now_ms(e) - t0);
    if (rc == CZ_OK)
        release_aux(e, p);
}

/* The prep thread: the preps handed over, in order (the region waits for them), then the
 * a, b and c to give back. */
static void *prep_main(void *argp)
{
    worker_t *w = argp;
    cz_thread_name("cz-prep%zu.%u", w->device, w->index);
    cz_mutex_lock(&w->pmu);
    for (;;) {
        while (w->prep_done == w->prep_n && w->rel_done == w->rel_n && !w->prep_stop)
            cz_cond_wait(&w->pcv, &w->pmu);
        if (w->prep_done < w->prep_n) {
            part_t *p = w->prep_q[w->prep_done];
            cz_mutex_unlock(&w->pmu);
            prep_one(w, p);
            cz_mutex_lock(&w->pmu);
            w->prep_q[w->prep_done++] = NULL;
        } else if (w->rel_done < w->rel_n) {
            part_t *p = w->rel_q[w->rel_done];
            cz_mutex_unlock(&w->pmu);
            release_abc(w->e, p);
            cz_mutex_lock(&w->pmu);
            w->rel_q[w->rel_done++] = NULL;
        } else {
            break; /* prep_stop, nothing left */
        }
        pthread_cond_broadcast(&w->pcv);
    }
    cz_mutex_unlock(&w->pmu);
    return NULL;
}

/* Hand |n| partitions to the prep thread, prepped in this order (it is idle). */
static void prep_start(worker_t *w, part_t *const *ps, size_t n)
{
    cz_mutex_lock(&w->pmu);
    CZ_ASSERT(w->prep_done == w->prep_n && w->rel_done == w->rel_n);
    for (size_t i = 0; i < n; i++)
        w->prep_q[i] = ps[i];
    w->prep_n = n;
    w->prep_done = 0;
    w->rel_n = w->rel_done = 0;
    pthread_cond_broadcast(&w->pcv);
    cz_mutex_unlock(&w->pmu);
}

static void prep_wait_idle(worker_t *w)
{
    cz_mutex_lock(&w->pmu);
    while (w->prep_done < w->prep_n || w->rel_done < w->rel_n)
        cz_cond_wait(&w->pcv, &w->pmu);
    cz_mutex_unlock(&w->pmu);
}

/* ---- device workers ------------------------------------------------------------ */

/* Next partition for |w|'s device, or NULL when the worker should exit. */
static part_t *pop_device_queue(worker_t *w)
{
    cz_engine_t *e = w->e;
    device_t *dev = &e->devices[w->device];
    cz_mutex_lock(&e->mu);
    /* at shutdown, drain until synthesis can add nothing more */
    while (!e->devq_head && !(e->shutdown && e->synth_running == 0) && !atomic_load(&dev->failed))
        cz_cond_wait(&e->devq_cv, &e->mu);
    part_t *p = NULL;
    if (e->devq_head && !atomic_load(&dev->failed)) {
        p = e->devq_head;
        e->devq_head = p->next;
        e->devq_len--;
        pthread_cond_broadcast(&e->devq_cv); /* room for synthesis */
    }
    cz_mutex_unlock(&e->mu);
    return p;
}

/* The device failed: stop using it; retry the partition elsewhere if allowed. */
static void device_failed(worker_t *w, part_t *p, const char *msg)
{
    cz_engine_t *e = w->e;
    device_t *dev = &e->devices[w->device];
    cz_mutex_lock(&e->mu);
    if (!atomic_exchange(&dev->failed, true))
        e->live_devices--;
    bool retry = e->live_devices > 0 && p->attempt < e->cfg.max_retries;
    pthread_cond_broadcast(&e->devq_cv);
    cz_mutex_unlock(&e->mu);
    if (!retry) {
        drop(e, p, CZ_EDEVICE, msg);
        return;
    }
    cz_g16_partition_free(p->g16);
    p->g16 = NULL;
    cz_budget_release(&e->budget, p->reserved);
    p->reserved = 0;
    part_enter(p, CZ_PART_QUEUED);
    cz__engine_requeue(e, p);
}

/* A stage boundary: CZ_ECANCELED (message names the stage not started) once |j| is canceled. */
static int canceled_at(cz_ctx_t *ctx, job_t *j, const char *stage)
{
    if (!atomic_load(&j->canceled))
        return CZ_OK;
    return cz_fail(ctx, CZ_ECANCELED, "canceled before %s", stage);
}

/*
 * Will more partitions of |params| reach the device queue: a job of them
 * with partitions not yet synthesized, to retry, or taken by a synthesis
 * worker (waiting for memory or synthesizing)? e->mu held.
 */
static bool more_coming(cz_engine_t *e, const cz_params_t *params)
{
    CZ_ASSERT(cz_mutex_held(&e->mu));
    for (const job_t *j = e->jobs; j; j = j->next)
        if (j->spec.params == params && !atomic_load(&j->canceled) &&
            (j->next_part < j->spec.partitions || j->n_retry || j->synthesizing))
            return true;
    return false;
}

/*
 * Partitions of |first|'s params from the device queue for the same region,
 * into out[0 .. want): those queued now, and, while the device is busy
 * with another worker's region and more of them are being synthesized,
 * those that arrive meanwhile (waiting costs the device nothing then; once
 * it is idle the batch goes as it is). Returns how many were taken.
 */
static size_t take_mates(worker_t *w, const part_t *first, part_t **out, size_t want)
{
    cz_engine_t *e = w->e;
    device_t *dev = &e->devices[w->device];
    const cz_params_t *params = first->job->spec.params;
    size_t n = 0;
    cz_mutex_lock(&e->mu);
    for (;;) {
        for (part_t **at = &e->devq_head; *at && n < want;) {
            part_t *p = *at;
            if (p->job->spec.params != params || atomic_load(&p->job->canceled)) {
                at = &p->next;
                continue;
            }
            *at = p->next;
            e->devq_len--;
            out[n++] = p;
        }
        if (n)
            pthread_cond_broadcast(&e->devq_cv); /* room for synthesis */
        if (n == want || !atomic_load(&dev->in_region) || e->shutdown ||
            atomic_load(&dev->failed) || !more_coming(e, params))
            break;
        struct timespec until = cz_deadline_in(0.05); /* in_region is not under e->mu */
        cz_cond_timedwait(&e->devq_cv, &e->mu, &until);
    }
    cz_mutex_unlock(&e->mu);
    return n;
}

/*
 * Take the device lock, run the region of the n partitions whose res[i].rc
 * is 0 (the others are already decided), give the lock back; *held_ms is
 * how long it was held. A partition whose job was canceled while it waited
 * for the lock leaves the batch before the region; with none left the lock
 * goes back at once. The timeline shows one region, under the first
 * partition's name, with the batch's size.
 */
static void region_under_lock(worker_t *w, part_t *const *ps, size_t n, cz_batch_result *res,
                              double *held_ms)
{
    cz_engine_t *e = w->e;
    /* Waiting for a device with e->mu held would stall every other thread
     * for a whole device region (seconds): the device lock nests in nothing. */
    CZ_ASSERT(!cz_mutex_held(&e->mu));
    device_t *dev = &e->devices[w->device];
    const part_t *p0 = ps[0];
    const uint64_t id = p0->job->id;
    const size_t d = w->device;
    const unsigned k = w->index;

    cz_tl_emit(e->tl, CZ_TL_LOCK_WAIT, id, "device=%zu,worker=%u,partition=%zu,batch=%zu", d, k,
               p0->index, n);
    double t_wait = cz__engine_now_ms(e);
    cz_mutex_lock(&dev->lock);
    atomic_store(&dev->in_region, true);
    /* Under the lock only the device region: the events are stamped here and
     * written after the unlock (cz_tl_emit_at); the stage is one atomic add. */
    double t_acq = cz__engine_now_ms(e);
    cz_g16_partition_t *live[CZ_BACKEND_MAX_BATCH];
    size_t at[CZ_BACKEND_MAX_BATCH], nlive = 0;
    for (size_t i = 0; i < n; i++) {
        if (res[i].rc == CZ_OK &&
            (res[i].rc = canceled_at(w->ctx, ps[i]->job, "the device region")) == CZ_OK) {
            part_enter(ps[i], CZ_PART_DEVICE);
            at[nlive] = i;
            live[nlive++] = ps[i]->g16;
        }
    }
    if (nlive) { /* a device failure is in each partition's result */
        cz_batch_result lres[CZ_BACKEND_MAX_BATCH];
        cz_ctx_clear(w->ctx);
        (void)cz_g16_device_batch(w->ctx, dev->backend, live, nlive, lres);
        for (size_t i = 0; i < nlive; i++)
            res[at[i]] = lres[i];
    }
    double t_rel = cz__engine_now_ms(e);
    atomic_store(&dev->in_region, false);
    cz_mutex_unlock(&dev->lock);
    cz_mutex_lock(&e->mu);
    pthread_cond_broadcast(&e->devq_cv); /* a worker gathering a batch stops waiting */
    cz_mutex_unlock(&e->mu);
    cz_tl_emit_at(e->tl, t_acq, CZ_TL_LOCK_ACQ, id,
                  "device=%zu,worker=%u,partition=%zu,wait_ms=%.1f", d, k, p0->index,
                  t_acq - t_wait);
    cz_tl_emit_at(e->tl, t_acq, CZ_TL_GPU_START, id, "device=%zu,worker=%u,partition=%zu,batch=%zu",
                  d, k, p0->index, nlive);
    cz_tl_emit_at(e->tl, t_rel, CZ_TL_GPU_END, id, "device=%zu,worker=%u,partition=%zu,gpu_ms=%.1f",
                  d, k, p0->index, t_rel - t_acq);
    cz_tl_emit_at(e->tl, t_rel, CZ_TL_LOCK_REL, id,
                  "device=%zu,worker=%u,partition=%zu,held_ms=%.1f", d, k, p0->index,
                  t_rel - t_acq);
    atomic_fetch_add(&dev->busy_us, (uint64_t)((t_rel - t_acq) * 1e3));
    *held_ms = t_rel - t_acq;
}

/* After the region: |p|'s outcome |r| -> its epilogue and proof, a retry, or its end. */
static void finish_partition(worker_t *w, part_t *p, const cz_batch_result *r)
{
    cz_engine_t *e = w->e;
    job_t *j = p->job;
    const size_t d = w->device;
    const unsigned k = w->index;
    if (r->rc == CZ_EDEVICE) {
        device_failed(w, p, r->why);
        return;
    }
    if (r->rc == CZ_ECANCELED) { /* not the device's fault: it stays usable */
        drop(e, p, CZ_ECANCELED, "canceled");
        return;
    }
    if (r->rc) {
        drop(e, p, r->rc, r->why);
        return;
    }
    if (atomic_load(&j->canceled)) {
        drop(e, p, CZ_ECANCELED, "canceled");
        return;
    }
    part_enter(p, CZ_PART_EPILOGUE);
    cz_tl_emit(e->tl, CZ_TL_EPI_START, j->id, "device=%zu,worker=%u,partition=%zu", d, k, p->index);
    double t0 = cz__engine_now_ms(e);
    cz_ctx_clear(w->ctx);
    int rc = cz_g16_epilogue(w->ctx, p->g16, &j->proofs[p->index]);
    cz_tl_emit(e->tl, CZ_TL_EPI_END, j->id, "device=%zu,worker=%u,partition=%zu,ms=%.1f", d, k,
               p->index, cz__engine_now_ms(e) - t0);
    cz_budget_release(&e->budget, p->reserved);
    p->reserved = 0;
    cz_g16_partition_free(p->g16); /* aux to the recycler, or freed */
    p->g16 = NULL;
    malloc_trim(0); /* hand the partition's other pages back to the OS (outside the lock) */
    drop(e, p, rc, rc ? cz_ctx_message(w->ctx) : NULL);
}

/*
 * Prove n partitions (one, or a batch of the same params) on |w|'s device:
 * prep on the prep thread (in order, overlapping the region's first
 * steps), staging, one region under the lock, then each partition's
 * epilogue. Only the first partition is staged: a worker holds at most one
 * staging slot, as with single partitions, so two workers gathering
 * batches can never wait on each other's slots; the others' a and b are
 * pinned where they are (never waits), for the region's uploads.
 */
static void prove_on_device(worker_t *w, part_t *const *ps, size_t n)
{
    cz_engine_t *e = w->e;
    device_t *dev = &e->devices[w->device];
    cz_batch_result res[CZ_BACKEND_MAX_BATCH];

    for (size_t i = 0; i < n; i++) {
        cz_g16_set_cancel(ps[i]->g16, &ps[i]->job->canceled);
        ps[i]->releaser = w;
        cz_g16_set_abc_done(ps[i]->g16, abc_done, ps[i]);
        cz_g16_set_backend(ps[i]->g16, dev->backend); /* prep may stage the splits there */
        res[i] = (cz_batch_result){ .rc = CZ_OK };
    }
    prep_start(w, ps, n);
    /* Staging (a, b into the backend's fast memory) is CPU work: before the lock. */
    cz_ctx_clear(w->ctx);
    int rc = canceled_at(w->ctx, ps[0]->job, "staging");
    if (rc == CZ_OK)
        rc = cz_g16_stage(w->ctx, dev->backend, ps[0]->g16);
    for (size_t i = 1; i < n; i++) /* the mates' a and b: uploaded by the region, from pinned */
        cz_g16_pin(dev->backend, ps[i]->g16);
    if (rc != CZ_OK) {
        res[0].rc = rc;
        snprintf(res[0].why, sizeof res[0].why, "%s", cz_ctx_message(w->ctx));
    }
    double held_ms = 0;
    if (n > 1 || res[0].rc == CZ_OK) /* a lone partition that failed staging skips the lock */
        region_under_lock(w, ps, n, res, &held_ms);

    prep_wait_idle(w); /* prep has posted (and given back); its thread is done with them */
    for (size_t i = 0; i < n; i++) {
        part_t *p = ps[i];
        job_t *j = p->job;
        if (!p->abc_released)
            release_abc(e, p);
        cz_g16_release_abc(p->g16); /* the staging, and what a region that failed kept */
        cz_mutex_lock(&e->mu);
        j->device_ms += held_ms / (double)n;
        cz_mutex_unlock(&e->mu);
    }
    for (size_t i = 0; i < n; i++)
        finish_partition(w, ps[i], &res[i]);
}

/* How many partitions a region of |w|'s device takes with |p|: the engine's cap, the
 * backend's advice. */
static size_t batch_for(worker_t *w, const part_t *p)
{
    const unsigned cap = w->e->cfg.max_batch ? w->e->cfg.max_batch : CZ_BACKEND_MAX_BATCH;
    const unsigned k = cz_g16_batch_max(w->e->devices[w->device].backend, p->g16);
    return k < cap ? k : cap;
}

static void *device_main(void *argp)
{
    worker_t *w = argp;
    cz_engine_t *e = w->e;
    cz_thread_name("cz-dev%zu.%u", w->device, w->index);
    part_t *p;
    while ((p = pop_device_queue(w))) {
        if (atomic_load(&p->job->canceled)) {
            drop(e, p, CZ_ECANCELED, "canceled");
            continue;
        }
        part_t *batch[CZ_BACKEND_MAX_BATCH] = { p };
        size_t n = 1;
        const size_t want = batch_for(w, p);
        if (want > 1)
            n += take_mates(w, p, batch + 1, want - 1);
        for (size_t i = 0; i < n; i++)
            cz_tl_emit(e->tl, CZ_TL_GPU_PICKUP, batch[i]->job->id,
                       "device=%zu,worker=%u,partition=%zu", w->device, w->index, batch[i]->index);
        prove_on_device(w, batch, n);
    }
    /* If no device is left, nothing will ever take what is queued: fail it. */
    cz_mutex_lock(&e->mu);
    part_t *orphans = NULL;
    if (e->live_devices == 0) {
        orphans = e->devq_head;
        e->devq_head = NULL;
        e->devq_len = 0;
        pthread_cond_broadcast(&e->devq_cv);
    }
    cz_mutex_unlock(&e->mu);
    while (orphans) {
        part_t *next = orphans->next;
        drop(e, orphans, CZ_EDEVICE, "no usable device left (every device failed)");
        orphans = next;
    }
    return NULL;
}

/* ---- start / join ------------------------------------------------------------ */

int cz__workers_start(cz_engine_t *e, cz_ctx_t *ctx)
{
    e->n_workers = e->num_devices * e->cfg.workers_per_device;
    e->workers = calloc(e->n_workers, sizeof *e->workers);
    e->synth_threads = calloc(e->cfg.synth_workers, sizeof *e->synth_threads);
    for (size_t i = 0; e->workers && i < e->n_workers; i++) { /* sync objects first: */
        cz_mutex_init(&e->workers[i].pmu);                    /* join destroys them */
        pthread_cond_init(&e->workers[i].pcv, NULL);
    }
    if (!e->workers || !e->synth_threads)
        return CZ_ENOMEM;
    for (size_t i = 0; i < e->n_workers; i++) {
        worker_t *w = &e->workers[i];
        w->e = e;
        w->device = i / e->cfg.workers_per_device;
        w->index = (unsigned)(i % e->cfg.workers_per_device);
        if (cz_ctx_new(&w->ctx, e->pool, 0) || cz_ctx_new(&w->prep_ctx, e->pool, 0))
            return CZ_ENOMEM;
        cz_ctx_set_fault(w->ctx, e->cfg.fault);
        cz_ctx_set_fault(w->prep_ctx, e->cfg.fault);
        if (pthread_create(&w->prep_thread, NULL, prep_main, w))
            return CZ_ENOMEM;
        w->prep_started = true;
        if (pthread_create(&w->thread, NULL, device_main, w))
            return CZ_ENOMEM;
        w->started = true;
    }
    for (unsigned i = 0; i < e->cfg.synth_workers; i++) {
        synth_arg_t *a = malloc(sizeof *a);
        if (!a)
            return CZ_ENOMEM;
        *a = (synth_arg_t){ e, i };
        cz_mutex_lock(&e->mu);
        e->synth_running++;
        cz_mutex_unlock(&e->mu);
        if (pthread_create(&e->synth_threads[i], NULL, synth_main, a)) {
            cz_mutex_lock(&e->mu);
            e->synth_running--;
            cz_mutex_unlock(&e->mu);
            free(a);
            return CZ_ENOMEM;
        }
        e->n_synth = i + 1;
    }
    (void)ctx;
    return CZ_OK;
}

void cz__workers_join(cz_engine_t *e)
{
    for (size_t i = 0; i < e->n_synth; i++)
        pthread_join(e->synth_threads[i], NULL);
    for (size_t i = 0; e->workers && i < e->n_workers; i++) {
        worker_t *w = &e->workers[i];
        if (w->started)
            pthread_join(w->thread, NULL);
        cz_mutex_lock(&w->pmu);
        w->prep_stop = true;
        pthread_cond_broadcast(&w->pcv);
        cz_mutex_unlock(&w->pmu);
        if (w->prep_started)
            pthread_join(w->prep_thread, NULL);
        cz_ctx_free(w->ctx);
        cz_ctx_free(w->prep_ctx);
        cz_mutex_destroy(&w->pmu);
        pthread_cond_destroy(&w->pcv);
    }
    free(e->workers);
    free(e->synth_threads);
    e->workers = NULL;
    e->synth_threads = NULL;
}
