/*
 * api/pload.c — a prover's params loads, beside its stager (the job
 * phases are in api/prover_int.h).
 *
 * Why: a load is seconds to minutes (a 32GiB set is 44 GiB to map and
 * decode). Done inline by the one stager thread, it held every other job
 * behind it: a CRITICAL WinningPoSt whose params were cached waited for a
 * low-priority PoRep's load, and a cancel waited for the load to end.
 *
 * Design: one load per params file in flight, shared by every job that
 * needs it (a job joins the running load of its path, or starts one), each
 * on its own thread. One thread per set being loaded, rather than a fixed
 * pool of loaders: the sets a prover serves are few (a Filecoin node's
 * params directory holds about a dozen files, and a prover proves with a
 * handful), so the thread count is bounded by them; the loads are bound by
 * the disk and by the shared library pool (which decodes the points), not
 * by the number of threads; and a fixed pool smaller than the sets wanted
 * would bring the head-of-line wait back between sets.
 *
 * The load goes through the params cache (api/pcache.h cz_pcache_acquire),
 * which also shares a load with a concurrent preload of the same file. The
 * loader keeps its reference to the entry until no job waits for the load,
 * so a waiting job always finds its params loaded (cz_pcache_acquire_loaded)
 * when the stager takes it. A job canceled while it waits leaves the load
 * (cz__pload_leave); the load goes on to its end and its params stay cached
 * (an LRU entry, evicted within the cache budget like any other): the file
 * is most likely wanted again, and an interrupted load would be wasted.
 *
 * Ownership: a load is on p->loads from its start until the stager reaps it
 * (ended, no waiter) or the prover stops; the reaper joins its thread and
 * frees it. The loader thread touches p only under p->mu, to record the
 * outcome and wake the stager, and never reads a job.
 */
#include "api/prover_int.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/clock.h"

/* The load's outcome, recorded for its waiters; the stager is woken to take them. */
static void record(cz_prover_t *p, pload_t *l, int rc, const cz_ctx_t *ctx, cz_pentry_t *e)
{
    cz_mutex_lock(&p->mu);
    l->done = true;
    l->rc = rc;
    l->entry = e;
    if (rc != CZ_OK)
        snprintf(l->message, sizeof l->message, "%s",
                 ctx && *cz_ctx_message(ctx) ? cz_ctx_message(ctx) : cz_strerror(rc));
    pthread_cond_broadcast(&p->work);
    cz_mutex_unlock(&p->mu);
}

/* A load's thread: the PARAMS_LOAD fault site (a test holds or fails it there), then the cache. */
static void *loader(void *arg)
{
    pload_t *l = arg;
    cz_prover_t *p = l->prover;
    cz_ctx_t *ctx = NULL;
    cz_pentry_t *e = NULL;
    int rc = cz_ctx_new(&ctx, p->pool, 0);
    if (rc == CZ_OK)
        rc = cz__fault_sim(p->fault, ctx, CZ_FAULT_PARAMS_LOAD);
    if (rc == CZ_OK)
        rc = cz_pcache_acquire(p->pcache, ctx, l->path, &e, NULL);
    record(p, l, rc, ctx, e);
    cz_ctx_free(ctx);
    return NULL;
}

/* The running load of |path| (p->mu held). */
static pload_t *running(cz_prover_t *p, const char *path)
{
    CZ_ASSERT(cz_mutex_held(&p->mu));
    for (pload_t *l = p->loads; l; l = l->next)
        if (!l->done && !strcmp(l->path, path))
            return l;
    return NULL;
}

int cz__pload_join(cz_prover_t *p, cz_ctx_t *ctx, pjob_t *j)
{
    CZ_ASSERT(cz_mutex_held(&p->mu) && !j->pload);
    pload_t *l = running(p, j->params_path);
    if (!l) {
        if (!(l = calloc(1, sizeof *l)))
            return cz_fail(ctx, CZ_ENOMEM, "params %s: a load", j->params_path);
        l->prover = p;
        snprintf(l->path, sizeof l->path, "%s", j->params_path);
        if (pthread_create(&l->thread, NULL, loader, l) != 0) {
            free(l);
            return cz_fail(ctx, CZ_ENOMEM, "params %s: cannot start a loader thread",
                           j->params_path);
        }
        l->next = p->loads;
        p->loads = l;
        cz__log(&p->log, CZ_LOG_LEVEL_DEBUG, "params load started", "path=%s job=%llu", l->path,
                (unsigned long long)j->id);
    }
    l->waiters++;
    j->pload = l;
    j->t_params_wait = cz_mono_s();
    return CZ_OK;
}

void cz__pload_leave(cz_prover_t *p, pjob_t *j)
{
    CZ_ASSERT(cz_mutex_held(&p->mu));
    if (!j->pload)
        return;
    CZ_ASSERT(j->pload->waiters > 0);
    j->pload->waiters--;
    j->pload = NULL;
}

/* Take the first load to reap off p->loads (p->mu held): NULL when none. */
static pload_t *unlink_reapable(cz_prover_t *p, bool all)
{
    CZ_ASSERT(cz_mutex_held(&p->mu));
    for (pload_t **pp = &p->loads; *pp; pp = &(*pp)->next) {
        pload_t *l = *pp;
        if (!l->waiters && (l->done || all)) {
            *pp = l->next;
            return l;
        }
    }
    return NULL;
}

void cz__pload_reap(cz_prover_t *p, bool all)
{
    CZ_ASSERT(cz_mutex_held(&p->mu));
    pload_t *l;
    while ((l = unlink_reapable(p, all))) {
        cz_mutex_unlock(&p->mu);
        pthread_join(l->thread, NULL); /* the loader has recorded, or will: it needs p->mu */
        cz_pcache_release(p->pcache, l->entry); /* the params stay cached (LRU) */
        free(l);
        cz_mutex_lock(&p->mu);
    }
}
