/*
 * backend/cuda/backend_region.c — one device region of n partitions of
 * one params set: the plan, each partition's H and H MSM, the wait for
 * their preps, the tails; its figures for cuda_report; the slots sized for
 * the next partitions. A partition canceled (or whose prep failed) leaves
 * the batch; the others go on.
 */
#include <pthread.h>
#include <stdio.h>

#include "backend/cuda/backend_int.h"
#include "core/clock.h"

/* Partition i leaves the batch with |rc| and the ctx's message (canceled, or its prep failed). */
void cz__cb_leave_batch(cz_ctx_t *ctx, cz_batch_result *res, int rc)
{
    res->rc = rc;
    snprintf(res->why, sizeof res->why, "%s", cz_ctx_message(ctx));
    cz_ctx_clear(ctx);
}

/* The partitions of ws[0 .. n) still in the batch (res[i].rc == 0) into live[]; their count. */
size_t cz__cb_live_of(cz_prove_work_t *const *ws, size_t n, const cz_batch_result *res,
                      cz_prove_work_t **live)
{
    size_t k = 0;
    for (size_t i = 0; i < n; i++)
        if (res[i].rc == CZ_OK)
            live[k++] = ws[i];
    return k;
}

/* The region of ws[0 .. n), whose set-up took |setup| s, into |sum|. */
static void add_parts(cz_region_parts *sum, cz_prove_work_t *const *ws, size_t n, double setup)
{
    sum->setup += setup;
    for (size_t i = 0; i < n; i++) {
        const cz_prove_work_t *w = ws[i];
        sum->h += w->t_ntt;
        sum->msm_h += w->t_msm_h;
        sum->prep_wait += w->t_prep_wait;
        sum->tails += w->t_msm_l + w->t_msm_a + w->t_msm_b1 + (w->b2_done ? w->t_msm_b2 : 0);
    }
}

/*
 * H of each partition in turn (the H context serves one at a time; its
 * MSM's bases streamed or resident), then, once every prep is done, the
 * tails: a streamed vector crosses the link once for the whole batch.
 */
static int device_region(cuda_backend_t *cb, cz_ctx_t *ctx, cz_prove_work_t *const *ws, size_t n,
                         const rvec want[V_COUNT], cz_batch_result *res)
{
    cz_prove_work_t *w = ws[0];
    cb->clock++;
    rset *set = cz__cb_find_set(cb, w, want);
    if (!set)
        set = cz__cb_new_set(cb, w);
    set->last_use = cb->clock;
    double t0 = cz_mono_s();
    int rc = cz__cb_plan_region(ctx, cb, set, w, want);
    w->t_setup = cz_mono_s() - t0;
    if (rc != CZ_OK)
        return rc;
    if (cz_backend_enter(ctx, &cb->base) != CZ_OK)
        return cz_cuda_inject_fault(ctx); /* a real sticky fault, as the device would give */

    for (size_t i = 0; i < n; i++) {
        if ((rc = cz__cb_h_part(ctx, cb, set, ws[i], want, i + 1 == n)) == CZ_ECANCELED) {
            cz__cb_leave_batch(ctx, &res[i], rc);
            continue;
        }
        if (rc != CZ_OK)
            return rc;
        cz_backend_abc_done(ws[i]); /* the tails read the splits only */
    }
    cz_prove_work_t *live[CZ_BACKEND_MAX_BATCH];
    if (!cz__cb_live_of(ws, n, res, live))
        return CZ_OK; /* every partition canceled */
    if ((rc = cz__cb_tails_ahead(ctx, cb, set, w, want)) != CZ_OK)
        return rc;
    for (size_t i = 0; i < n; i++) {
        if (res[i].rc != CZ_OK)
            continue;
        t0 = cz_mono_s();
        rc = cz_latch_wait(ws[i]->prep_done);
        ws[i]->t_prep_wait = cz_mono_s() - t0;
        if (rc != CZ_OK && res[i].rc == CZ_OK) {
            cz_fail(ctx, rc, "device region: prep failed: %s", cz_strerror(rc));
            cz__cb_leave_batch(ctx, &res[i], rc);
        }
    }
    const size_t nl = cz__cb_live_of(ws, n, res, live);
    cz_batch_result lres[CZ_BACKEND_MAX_BATCH];
    for (size_t i = 0; i < nl; i++)
        lres[i] = (cz_batch_result){ .rc = CZ_OK };
    t0 = cz_mono_s();
    rc = cz__cb_splits_to_spent_result(ctx, cb, live, nl);
    const double put_s = cz_mono_s() - t0;
    if (rc == CZ_OK && nl)
        rc = cz__cb_tails_part(ctx, cb, set, live, nl, want, lres);
    cb->n_rsplits = 0;              /* the buffer is the next H's */
    for (size_t i = 0; i < nl; i++) /* the splits' copies are the tails' cost: L's step's */
        live[i]->t_msm_l += put_s / (double)nl;
    for (size_t i = 0, j = 0; i < n; i++)
        if (res[i].rc == CZ_OK)
            res[i] = lres[j++];
    return rc;
}

/*
 * The region of n partitions of one params set (n = 1: cuda_device). Each
 * partition's outcome in res[i]; returns the region's own error, which is
 * every partition's that had none (res says so too).
 */
int cz__cb_region_of(cuda_backend_t *cb, cz_ctx_t *ctx, cz_prove_work_t *const *ws, size_t n,
                     cz_batch_result *res)
{
    cz_prove_work_t *w = ws[0];
    rvec want[V_COUNT]; /* the params' vectors, read once, before the lock */
    cz__cb_describe(want, w);
    for (size_t i = 0; i < n; i++)
        res[i] = (cz_batch_result){ .rc = CZ_OK };
    double t0 = cz_mono_s();
    cz_mutex_lock(&cb->cmu); /* a preparer making the contexts: its set-up is this region's */
    cb->region_running = true;
    double t_wait = cz_mono_s() - t0;
    cb->upload_s = 0;
    cb->h2d_bytes = 0;
    cb->region_ahead = 0;
    CZ_ASSERT(!cb->ahead.src);
    int rc = device_region(cb, ctx, ws, n, want, res);
    /* a window copied ahead that no vector took (a partition left the batch) */
    cz__cb_settle_ahead(cb);
    const double setup = w->t_setup + t_wait;
    for (size_t i = 0; i < n; i++) { /* the region's shared costs, shared out */
        ws[i]->t_setup = setup / (double)n;
        ws[i]->t_upload = cb->upload_s / (double)n;
        ws[i]->h2d_bytes = cb->h2d_bytes / n;
    }
    pthread_mutex_lock(&cb->smu);
    cb->regions++;
    cb->partitions += n;
    cb->h2d_total += cb->h2d_bytes;
    cb->windows_ahead += cb->region_ahead;
    add_parts(&cb->parts, ws, n, setup);
    pthread_mutex_unlock(&cb->smu);
    bool resident = rc == CZ_OK && cz__cb_set_resident(cb, w, want);
    /* slots for the next partitions, where the plan and the device have room for them */
    if (rc == CZ_OK && (cb->plan.level == CZ_DEVPLAN_RESIDENT || cb->plan.slots > 0)) {
        cz__cb_size_slots(NULL, cb, cb->slots, (size_t)2 << w->log_m);
        pthread_mutex_lock(&cb->smu);
        const size_t tails = cb->tails_want;
        pthread_mutex_unlock(&cb->smu);
        if (tails)
            cz__cb_size_slots(NULL, cb, cb->tslots, tails);
    }
    unsigned h_log = cb->h ? cb->h_log : 0;
    cb->region_running = false;
    pthread_cond_broadcast(&cb->ccv); /* a preparer waiting to start */
    cz_mutex_unlock(&cb->cmu);
    cz__cb_note_prepared(cb, resident ? w : NULL, &want[V_H], h_log);
    for (size_t i = 0; i < n; i++) {
        cz__cb_unstage(&cb->base, ws[i]); /* a region that failed before its H: the slot */
        if (rc != CZ_OK && res[i].rc == CZ_OK) {
            res[i].rc = rc;
            snprintf(res[i].why, sizeof res[i].why, "%s", cz_ctx_message(ctx));
        }
    }
    return rc;
}
