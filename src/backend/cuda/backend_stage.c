/*
 * backend/cuda/backend_stage.c — staging, outside the device lock: a
 * partition's a and b into a device slot while another partition's region
 * runs (ops->stage), or page-locked where they are when no slot takes them
 * (ops->pin); its three scalar splits into a tails slot by prep's thread
 * (ops->stage_tails). Slots are sized under cmu where the device has room
 * after the resident params, which come first.
 */
#include <pthread.h>

#include "backend/cuda/backend_int.h"

/*
 * Device memory of the slots (smu or cmu held: their memory changes only
 * with both held).
 */
size_t cz__cb_slot_bytes(const cuda_backend_t *cb)
{
    size_t sum = 0;
    for (int i = 0; i < CZ__STAGE_SLOTS; i++)
        sum += (cb->slots[i].cap + cb->tslots[i].cap) * sizeof(cz_fr);
    return sum;
}

/*
 * Give every idle slot of |pool| (CZ__STAGE_SLOTS: cb->slots or cb->tslots)
 * room for |need| elements where the device has it after the resident sets
 * (cmu held; smu taken briefly: lock order cmu, smu). A slot being resized
 * is invisible to take_slot.
 */
void cz__cb_size_slots(cz_ctx_t *ctx, cuda_backend_t *cb, stage_slot *pool, size_t need)
{
    CZ_ASSERT(cz_mutex_held(&cb->cmu));
    for (int i = 0; i < CZ__STAGE_SLOTS; i++) {
        stage_slot *s = &pool[i];
        pthread_mutex_lock(&cb->smu);
        const bool resize = !s->busy && s->cap < need;
        s->resizing = resize;
        pthread_mutex_unlock(&cb->smu);
        if (!resize)
            continue;
        void *dev = NULL;
        cz_cuda_free(s->dev);
        pthread_mutex_lock(&cb->smu);
        s->dev = NULL;
        s->cap = 0;
        pthread_mutex_unlock(&cb->smu);
        const bool ok = cz__cb_room_for(ctx, cb, need * sizeof(cz_fr)) &&
                        cz_cuda_malloc(NULL, &dev, need * sizeof(cz_fr)) == CZ_OK;
        pthread_mutex_lock(&cb->smu);
        if (ok) { /* else no slot until there is room (asked again at each region's end) */
            s->dev = dev;
            s->cap = need;
        }
        s->resizing = false;
        pthread_cond_broadcast(&cb->scv);
        pthread_mutex_unlock(&cb->smu);
    }
}

/* Free the idle slots' device memory (cmu held): room for params, which come first. */
bool cz__cb_drop_idle_slots(cuda_backend_t *cb)
{
    CZ_ASSERT(cz_mutex_held(&cb->cmu));
    bool dropped = false;
    for (int i = 0; i < 2 * CZ__STAGE_SLOTS; i++) { /* the a/b slots, then the tails slots */
        stage_slot *s = &(i < CZ__STAGE_SLOTS ? cb->slots : cb->tslots)[i % CZ__STAGE_SLOTS];
        pthread_mutex_lock(&cb->smu);
        void *dev = !s->busy && !s->resizing ? s->dev : NULL;
        if (dev) {
            s->dev = NULL;
            s->cap = 0;
            dropped = true;
        }
        pthread_mutex_unlock(&cb->smu);
        cz_cuda_free(dev);
    }
    return dropped;
}

/*
 * A free slot of |pool| of at least |need| elements, waiting while every
 * such slot is busy (backpressure) if |wait|; NULL when no slot is that
 * large (the region sizes them, where the device has room), or none is
 * free and |!wait|: the caller goes on unstaged.
 */
static stage_slot *take_slot(cuda_backend_t *cb, stage_slot *pool, size_t need, bool wait)
{
    pthread_mutex_lock(&cb->smu);
    stage_slot *s = NULL;
    for (;;) {
        bool any_large = false;
        for (int i = 0; i < CZ__STAGE_SLOTS; i++) {
            stage_slot *t = &pool[i];
            if (t->resizing || t->cap < need)
                continue;
            any_large = true;
            if (!t->busy && (!s || t->cap < s->cap))
                s = t;
        }
        if (s || !any_large || !wait)
            break;
        pthread_cond_wait(&cb->scv, &cb->smu);
    }
    if (s)
        s->busy = true;
    pthread_mutex_unlock(&cb->smu);
    return s;
}

static void give_slot(cuda_backend_t *cb, stage_slot *s)
{
    pthread_mutex_lock(&cb->smu);
    s->busy = false;
    pthread_cond_broadcast(&cb->scv);
    pthread_mutex_unlock(&cb->smu);
}

void cz__cb_unstage(cz_backend_t *be, cz_prove_work_t *w)
{
    cuda_backend_t *cb = (cuda_backend_t *)be;
    if (!w->staged)
        return;
    give_slot(cb, w->staged);
    w->staged = NULL;
}

/*
 * a and b go to the device here, before the device lock, while another
 * partition's region runs (the copy engine is idle then; the region's H
 * then starts on data already there: ~170 ms of each 32GiB region). From
 * pageable memory through the slot's bounce buffers, CZ__FILL_REGION
 * threads filling them (~0.4 s for a and b at 2^27 on the H200 host). The
 * caller frees its host a and b once staged: w->a and w->b are NULL then.
 * An upload that fails leaves the partition unstaged, its host arrays
 * intact: the region hits the same device error and reports it.
 */
int cz__cb_stage(cz_backend_t *be, cz_ctx_t *ctx, cz_prove_work_t *w)
{
    (void)ctx;
    cuda_backend_t *cb = (cuda_backend_t *)be;
    if (w->staged || !w->a || !w->b || w->c) /* c given: leave it all to the region */
        return CZ_OK;
    const size_t m = (size_t)1 << w->log_m, bytes = w->rows * sizeof(cz_fr);
    if (w->rows > m)
        return CZ_OK; /* the region reports it */
    stage_slot *s = take_slot(cb, cb->slots, 2 * m, true);
    if (!s)
        return CZ_OK;
    int rc = cz_cuda_set_device(NULL, cb->base.device_index);
    if (rc == CZ_OK)
        rc = cz__cb_upload_pageable(NULL, s->bounce, CZ__FILL_REGION, s->dev, w->a, bytes);
    if (rc == CZ_OK)
        rc = cz__cb_upload_pageable(NULL, s->bounce, CZ__FILL_REGION, s->dev + m, w->b, bytes);
    if (rc != CZ_OK) {
        give_slot(cb, s);
        return CZ_OK;
    }
    w->a = w->b = NULL;
    w->staged = s;
    return CZ_OK;
}

/*
 * ops->pin: a and b that the region will upload from host memory (no
 * staging slot took them: a card too small for one) page-locked where they
 * are, so that the region copies them by DMA alone. Through the bounce
 * buffers the copy is a CPU memcpy first, which the next partitions'
 * synthesis on the same cores slowed: the H of a 14 GiB-free region took
 * 1018.7 ms in the engine against 707.1 alone (docs/PERFORMANCE.md,
 * 2026-12-06); pinned, the engine's H took 627.2 ms against 1036.6 and a
 * 32GiB C2 at 14 GiB free 22.78 s/proof against 25.06 (H100, 2026-12-07).
 * Registering 4 GiB takes ~0.23 s of the worker's thread, outside the
 * device lock; the other worker's region kept the device 100% busy. The
 * rows the region reads are registered; c too when given. Not with
 * opts.no_pin_ab.
 */
void cz__cb_pin(cz_backend_t *be, cz_prove_work_t *w)
{
    cuda_backend_t *cb = (cuda_backend_t *)be;
    if (cb->opts.no_pin_ab || w->pinned || w->staged || !w->a || !w->b ||
        w->rows > ((size_t)1 << w->log_m))
        return;
    /* the worker's thread may not have made this device current yet (no slot staged) */
    if (cz_cuda_set_device(NULL, cb->base.device_index) != CZ_OK)
        return;
    cz_fr *v[3] = { w->a, w->b, w->c };
    /* their whole capacity (2^log_m, grow_to_domain), not the rows: the H on the CPU leaves
     * 2^log_m - 1 coefficients in a for the H MSM's copies, and the H in turn may download a
     * whole domain into a; a copy that runs past the end of a registered range fails
     * ("invalid argument"; the GPU tests h_on_the_cpu_and_own_windows and
     * h_in_turn_with_the_msms) */
    const size_t bytes = ((size_t)1 << w->log_m) * sizeof(cz_fr);
    int k = 0;
    while (k < 3 && v[k] && cz_cuda_host_register(NULL, v[k], bytes) == CZ_OK)
        k++;
    if (k < 3 && v[k]) { /* one failed: all pageable, as without pinning */
        while (k-- > 0)
            cz_cuda_host_unregister(v[k]);
        return;
    }
    w->pinned = true;
    pthread_mutex_lock(&cb->smu);
    cb->pinned++;
    pthread_mutex_unlock(&cb->smu);
}

void cz__cb_unpin(cz_backend_t *be, cz_prove_work_t *w)
{
    (void)be;
    if (!w->pinned)
        return;
    cz_cuda_host_unregister(w->a);
    cz_cuda_host_unregister(w->b);
    cz_cuda_host_unregister(w->c);
    w->pinned = false;
}

/* Bytes of one split's copy: bitmap, indices, scalars, each 256-byte aligned. */
static size_t up256(size_t x)
{
    return (x + 255) & ~(size_t)255;
}

size_t cz__cb_split_bytes(const cz_scalar_split *sp)
{
    return up256((sp->n + 63) / 64 * 8) + up256(sp->n_sig * 4) + up256(sp->n_sig * 32);
}

/* |bytes| of |src| to *at (device), which moves past them; *dst: where they went. */
static int put(cz_ctx_t *ctx, char **at, const void *src, size_t bytes, const void **dst)
{
    *dst = *at;
    int rc = bytes ? cz_cuda_memcpy_htod(ctx, *at, src, bytes) : CZ_OK;
    *at += up256(bytes);
    return rc;
}

/* Split |sp| to *at (device; cz__cb_split_bytes(sp) of room), which moves past it; *d: its copy. */
int cz__cb_put_split(cz_ctx_t *ctx, char **at, const cz_scalar_split *sp, dev_split *d)
{
    int rc = put(ctx, at, sp->ones, (sp->n + 63) / 64 * 8, (const void **)&d->ones);
    if (rc == CZ_OK)
        rc = put(ctx, at, sp->sig_index, sp->n_sig * 4, (const void **)&d->sig_index);
    if (rc == CZ_OK)
        rc = put(ctx, at, sp->sig_scalar, sp->n_sig * 32, (const void **)&d->sig_scalar);
    return rc;
}

/*
 * The splits to a free tails slot, by prep's thread (backend.h): pageable
 * copies, ~10 GB/s, while another partition's region runs. A miss (no free
 * slot that large) records the size for the next region's end to provide;
 * a failed copy leaves the splits on the host (the region meets the same
 * device error and reports it).
 */
void cz__cb_stage_tails(cz_backend_t *be, cz_prove_work_t *w)
{
    cuda_backend_t *cb = (cuda_backend_t *)be;
    const cz_scalar_split *sp[T_COUNT] = { w->l_split, w->a_split, w->b_split };
    size_t bytes = 0;
    for (int k = 0; k < T_COUNT; k++)
        bytes += cz__cb_split_bytes(sp[k]);
    const size_t need = (bytes + sizeof(cz_fr) - 1) / sizeof(cz_fr);
    stage_slot *s = take_slot(cb, cb->tslots, need, false);
    if (!s) {
        pthread_mutex_lock(&cb->smu);
        if (cb->tails_want < need)
            cb->tails_want = need;
        pthread_mutex_unlock(&cb->smu);
        return;
    }
    char *at = (char *)s->dev;
    int rc = cz_cuda_set_device(NULL, be->device_index);
    for (int k = 0; k < T_COUNT && rc == CZ_OK; k++)
        rc = cz__cb_put_split(NULL, &at, sp[k], &s->split[k]);
    if (rc != CZ_OK) {
        give_slot(cb, s);
        return;
    }
    w->tails_staged = s;
}

void cz__cb_unstage_tails(cz_backend_t *be, cz_prove_work_t *w)
{
    if (!w->tails_staged)
        return;
    give_slot((cuda_backend_t *)be, w->tails_staged);
    w->tails_staged = NULL;
}
