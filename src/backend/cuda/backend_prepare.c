/*
 * backend/cuda/backend_prepare.c — prepare() and settle(): the first
 * region's set-up on a thread of its own at a job's submission (the plan,
 * its contexts, the bounce buffers, the slots where the whole set fits)
 * and the params set uploaded or pinned vector by vector, h first, cmu
 * released during each copy so that the first region runs meanwhile.
 */
#include <pthread.h>

#include "backend/cuda/backend_int.h"

/* Is |w|'s params set (described in |want|) resident, every vector of it (cmu held)? */
bool cz__cb_set_resident(cuda_backend_t *cb, const cz_prove_work_t *w, const rvec want[V_COUNT])
{
    CZ_ASSERT(cz_mutex_held(&cb->cmu));
    const rset *set = cz__cb_find_set(cb, w, want);
    if (!set)
        return false;
    for (int k = 0; k < V_COUNT; k++)
        if (want[k].n && cz__cb_on_device(cb, k) &&
            (!set->v[k].dev || !cz__cb_same_vector(&set->v[k], &want[k])))
            return false;
    return true;
}

/* The preparer is past vector |k|: regions waiting for it go on (cmu held). */
static void preload_advance(cuda_backend_t *cb, int k)
{
    CZ_ASSERT(cz_mutex_held(&cb->cmu));
    cb->preload_next = k + 1;
    pthread_cond_broadcast(&cb->ccv);
}

/*
 * The preparer's upload of vector |k| of cb->preload_set (|w|'s): claimed
 * under cmu (room made, device memory allocated, r->loading set), copied
 * with cmu RELEASED through the preparer's own bounce pair, so that the
 * first region runs meanwhile (its H needs no params) and waits for a
 * vector only when it needs it (cz__cb_preload_pending); published under cmu. A
 * vector that does not fit or fails to upload is left to the region (which
 * uploads it or takes the CPU path).
 */
static void preload_vector(cuda_backend_t *cb, const cz_prove_work_t *w, const rvec want[V_COUNT],
                           int k)
{
    cz_mutex_lock(&cb->cmu);
    rset *set = cb->preload_set;
    set->last_use = ++cb->clock;
    rvec *r = &set->v[k];
    int rc = CZ_OK;
    void *dev = NULL;
    if (!(r->dev && cz__cb_same_vector(r, &want[k])) &&
        (dev = cz__cb_claim_vector(NULL, cb, set, r, &want[k], &rc)) != NULL) {
        r->loading = true;
        r->claimed = dev; /* held from now: a region's plan meanwhile counts it */
    }
    cz_mutex_unlock(&cb->cmu);
    if (dev)
        rc = cz__cb_upload_bases(NULL, cb->pbounce, CZ__FILL_PRELOAD, dev, w, k);
    cz_mutex_lock(&cb->cmu);
    if (dev) {
        r->loading = false;
        r->claimed = NULL;
        if (rc == CZ_OK)
            r->dev = dev;
        else
            cz_cuda_free(dev);
    }
    if (dev && rc == CZ_OK) {
        pthread_mutex_lock(&cb->smu);
        cb->h2d_total += want[k].n * want[k].point_bytes;
        pthread_mutex_unlock(&cb->smu);
    }
    preload_advance(cb, k);
    cz_mutex_unlock(&cb->cmu);
}

/*
 * The preparer's pinned host copy of vector |k| of cb->preload_set, for a
 * vector the plan streams: claimed under cmu (r->loading), filled with cmu
 * released on CZ__FILL_PRELOAD threads, published under cmu.
 */
static void preload_pin(cuda_backend_t *cb, const cz_prove_work_t *w, const rvec want[V_COUNT],
                        int k)
{
    cz_mutex_lock(&cb->cmu);
    rvec *r = &cb->preload_set->v[k];
    const bool need = !cz__cb_holds_points(r, &want[k]) && !r->loading;
    if (need) {
        cz__cb_forget_points(cb, r, &want[k]);
        r->loading = true;
    }
    cz_mutex_unlock(&cb->cmu);
    cz_cuda_pinned pin = { 0 };
    if (need)
        cz__cb_pin_points(cb, &pin, w, k, CZ__FILL_PRELOAD);
    cz_mutex_lock(&cb->cmu);
    if (need) {
        r->pin = pin;
        r->loading = false;
    }
    preload_advance(cb, k);
    cz_mutex_unlock(&cb->cmu);
}

/* Vector |k| by the preparer, as the plan has it: uploaded, pinned, or left (the CPU's). */
static void preload_one(cuda_backend_t *cb, const cz_prove_work_t *w, const rvec want[V_COUNT],
                        int k)
{
    cz_mutex_lock(&cb->cmu);
    const bool keep = cz__cb_on_device(cb, k) && cz__cb_plan_keeps(cb, k);
    const bool stream = cz__cb_on_device(cb, k) && cz__cb_plan_streams(cb, k);
    if (!keep && !stream)
        preload_advance(cb, k);
    cz_mutex_unlock(&cb->cmu);
    if (keep)
        preload_vector(cb, w, want, k);
    else if (stream)
        preload_pin(cb, w, want, k);
}

/*
 * Record (smu) what a region or the preparer found resident: |w|'s set, its
 * h vector described in |h|; |w| NULL: nothing known.
 */
void cz__cb_note_prepared(cuda_backend_t *cb, const cz_prove_work_t *w, const rvec *h,
                          unsigned h_log)
{
    pthread_mutex_lock(&cb->smu);
    cb->prepared_id = w ? w->params_id : NULL;
    if (w)
        cb->prepared_h = *h;
    cb->prepared_log = w ? h_log : 0;
    pthread_mutex_unlock(&cb->smu);
}

/*
 * The preparer: contexts and the region's bounce buffers first (the region
 * needs them and they are quick), and the staging slots if the whole set
 * fits beside them; then the params set is uploaded vector by vector, h
 * first (the first region's first MSM), with cmu released during each copy;
 * then the slots, if they were left for after the set, in the room left.
 */
static void *prepare_main(void *arg)
{
    cuda_backend_t *cb = arg;
    const cz_prove_work_t *w = &cb->prepare_bases;
    rvec want[V_COUNT]; /* read once, before the lock (a params file's: from the file) */
    cz__cb_describe(want, w);
    cz_mutex_lock(&cb->cmu);
    /* Not under a running region: one that waits on ccv for the previous preparer's vectors
     * has cmu released then, and this plan would free or replace the contexts it uses. The
     * region never waits for this preparer (its set is not named before this point). */
    while (cb->region_running)
        cz_cond_wait(&cb->ccv, &cb->cmu);
    rset *set = cz__cb_find_set(cb, w, want);
    cb->preload_set = set ? set : cz__cb_new_set(cb, w);
    cb->preload_next = 0;
    int rc = cz__cb_plan_region(NULL, cb, cb->preload_set, w, want);
    const bool slots = rc == CZ_OK && (cb->plan.level == CZ_DEVPLAN_RESIDENT || cb->plan.slots);
    if (rc == CZ_OK) {
        cz__cb_ensure_pair(cb->bounce);
        /* the slots now, for the first partitions, if the whole set fits beside them; else
         * after the set, in what is left: the params come first */
        const size_t need = (size_t)2 << w->log_m;
        if (slots &&
            cz__cb_room_for(NULL, cb,
                            cz__cb_set_bytes(cb, want) + CZ__STAGE_SLOTS * need * sizeof(cz_fr)))
            cz__cb_size_slots(NULL, cb, cb->slots, need);
    } else {
        cb->preload_set = NULL;
        pthread_cond_broadcast(&cb->ccv);
    }
    cz_mutex_unlock(&cb->cmu);
    if (rc == CZ_OK) {
        for (int k = 0; k < V_COUNT; k++)
            preload_one(cb, w, want, k);
        cz_mutex_lock(&cb->cmu);
        if (slots) /* no-op when sized above */
            cz__cb_size_slots(NULL, cb, cb->slots, (size_t)2 << w->log_m);
        cb->preload_set = NULL;
        pthread_cond_broadcast(&cb->ccv);
        bool resident = cz__cb_set_resident(cb, w, want);
        unsigned h_log = cb->h_log;
        cz_mutex_unlock(&cb->cmu);
        cz__cb_note_prepared(cb, resident ? w : NULL, &want[V_H], h_log);
    }
    pthread_mutex_lock(&cb->smu);
    cb->preparing = false;
    pthread_cond_broadcast(&cb->scv);
    pthread_mutex_unlock(&cb->smu);
    return NULL;
}

void cz__cb_prepare(cz_backend_t *be, const cz_prove_work_t *bases)
{
    cuda_backend_t *cb = (cuda_backend_t *)be;
    rvec h;
    cz__cb_describe_one(&h, bases, V_H); /* before smu: it may read the params file */
    pthread_mutex_lock(&cb->smu);
    /* one preparer at a time; none when the set was resident last time we looked (a
     * daemon's later jobs): never cmu here, a region may hold it for a second */
    bool known = cb->prepared_id == bases->params_id && cz__cb_same_vector(&cb->prepared_h, &h) &&
                 cb->prepared_log >= bases->log_m;
    if (!cb->preparing && !known) {
        if (cb->preparer_joinable)
            pthread_join(cb->preparer, NULL); /* finished: it cleared preparing */
        cb->prepare_bases = *bases;
        cb->preparing = pthread_create(&cb->preparer, NULL, prepare_main, cb) == 0;
        cb->preparer_joinable = cb->preparing;
    }
    pthread_mutex_unlock(&cb->smu);
}

void cz__cb_settle(cz_backend_t *be)
{
    cuda_backend_t *cb = (cuda_backend_t *)be;
    pthread_mutex_lock(&cb->smu);
    while (cb->preparing)
        pthread_cond_wait(&cb->scv, &cb->smu);
    pthread_mutex_unlock(&cb->smu);
}
