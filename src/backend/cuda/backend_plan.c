/*
 * backend/cuda/backend_plan.c — the device-memory plan of a region or of the
 * preparer (made by backend/devplan.h from the memory free at that
 * moment) applied: what the plan does not keep given back, the contexts it
 * names made (H, MSM workspace and its bucket cap, own window buffers,
 * copier); an allocation that fails re-plans smaller once.
 */
#include <pthread.h>
#include <stdatomic.h>
#include <string.h>

#include "backend/cuda/backend_int.h"

/* The MSM workspaces a plan may choose, largest first (devplan.h's msm_bytes). */
static const size_t CZ__MSM_CHUNKS[CZ_DEVPLAN_MSM_SIZES] = { (size_t)1 << 24, (size_t)1 << 22,
                                                             (size_t)1 << 20 };
#define CZ__BUCKET_LEAST ((size_t)512 << 20) /* cz_cuda_msm_set_bucket_cap's least */
#define CZ__OWN_WINDOW ((size_t)512 << 20)   /* STREAM_HOST_H: each window buffer */

/* Device bytes this backend holds now (cmu held). */
static size_t held_bytes(const cuda_backend_t *cb)
{
    /* the in-turn H's context: what it keeps between turns (its domain's tables) is
     * the backend's, not free memory another plan may count on */
    return (cb->h ? cz_cuda_h_mem_bytes_buffers(cb->h_log, cz_cuda_h_buffers(cb->h)) : 0) +
           cz_cuda_h_held_bytes(cb->turn_h) +
           (cb->msm ? cz_cuda_msm_mem_bytes(cb->msm_chunk) + cz_cuda_msm_buckets_held(cb->msm)
                    : 0) +
           cz__cb_slot_bytes(cb) + (cb->own_win[0] ? 2 * cb->own_win_bytes : 0) +
           cz__cb_resident_bytes(cb);
}

/*
 * Batches pay where bases stream (each window's copy then serves every
 * partition of the batch): the advice follows the last plan, made in a
 * region or by the preparer. opts.max_batch: 1 never, N at most N, 0: 2.
 */
static void advise_batch(cuda_backend_t *cb)
{
    CZ_ASSERT(cz_mutex_held(&cb->cmu));
    const unsigned tails = CZ_BASES_ALL & ~(1u << CZ_BASES_H);
    const unsigned k = cb->opts.max_batch ? cb->opts.max_batch : 2;
    atomic_store(&cb->batch_advice, (cb->plan.streamed & tails) ? k : 1);
}

/*
 * The plan for |w|'s set (described in |want|) from the device's free
 * memory now plus what this backend holds (it gives back what the plan
 * does not keep), under the limit, CZ__RUNTIME_SLACK left free for CUDA.
 */
static int make_plan(cz_ctx_t *ctx, cuda_backend_t *cb, const cz_prove_work_t *w,
                     const rvec want[V_COUNT])
{
    CZ_ASSERT(cz_mutex_held(&cb->cmu));
    size_t free_b = 0, total_b = 0;
    int rc = cz_cuda_set_device(ctx, cb->base.device_index);
    if (rc == CZ_OK)
        rc = cz_cuda_mem_info(ctx, &free_b, &total_b);
    if (rc != CZ_OK)
        return rc;
    cz_devplan_in *in = &cb->plan_in;
    memset(in, 0, sizeof *in);
    size_t can = held_bytes(cb) + (free_b > CZ__RUNTIME_SLACK ? free_b - CZ__RUNTIME_SLACK : 0);
    in->budget = can < cb->limit ? can : cb->limit;
    size_t largest = 0;
    for (int k = 0; k < V_COUNT; k++) {
        in->vec_bytes[k] = cz__cb_on_device(cb, k) ? want[k].n * want[k].point_bytes : 0;
        largest = in->vec_bytes[k] > largest ? in->vec_bytes[k] : largest;
    }
    in->h_bytes = cb->opts.h_buffers == 2 ? 0 : cz_cuda_h_mem_bytes_buffers(w->log_m, 3);
    in->h_buffer_bytes = sizeof(cz_fr) << w->log_m;
    in->h2_bytes = cz_cuda_h_mem_bytes_buffers(w->log_m, 2);
    in->h2_window_bytes = in->h_buffer_bytes / 2; /* the halves of its idle buffer */
    for (int i = 0; i < CZ_DEVPLAN_MSM_SIZES; i++)
        in->msm_bytes[i] = cz_cuda_msm_mem_bytes(CZ__MSM_CHUNKS[i]);
    in->bucket_full = 5 * CZ__GIB;
    in->bucket_least = CZ__BUCKET_LEAST;
    in->slot_bytes = ((size_t)2 << w->log_m) * sizeof(cz_fr);
    in->max_slots = CZ__STAGE_SLOTS;
    /* a window holds the inputs' bases (the head of window 0) and a bitmap word of aux
     * points at least, of either group */
    in->min_window_bytes = (w->num_inputs + 64) * sizeof(blst_p2_affine); /* B's inputs
                                                                              * are some of them */
    /* own windows: a quarter of the largest vector (several windows even for small
     * circuits), 512 MiB at most, a window's least at least */
    in->own_stream_bytes = largest / 4 < CZ__OWN_WINDOW ? largest / 4 : CZ__OWN_WINDOW;
    if (in->own_stream_bytes < in->min_window_bytes)
        in->own_stream_bytes = in->min_window_bytes;
    in->min_level = (cz_devplan_level)cb->opts.min_plan;
    in->no_h_in_turn = cb->opts.h_on_cpu;
    cz_devplan_make(in, &cb->plan);
    advise_batch(cb);
    pthread_mutex_lock(&cb->smu);
    cz_devplan_format(&cb->plan, in, cb->plan_line, sizeof cb->plan_line);
    pthread_mutex_unlock(&cb->smu);
    return CZ_OK;
}

/* Every idle set but |keep| dropped (cmu held). */
static void drop_other_sets(cuda_backend_t *cb, const rset *keep)
{
    for (int s = 0; s < CZ__RESIDENT_SETS; s++)
        if (&cb->sets[s] != keep && cb->sets[s].id && !cz__cb_set_busy(cb, &cb->sets[s]))
            cz__cb_drop_set(cb, &cb->sets[s]);
}

/* |s|'s device copies (NULL: none) outside |mask| freed, but those the preparer is loading;
 * the set keeps its id, fingerprints and pinned copies (cmu held). */
static void free_device_copies(rset *s, unsigned mask)
{
    for (int k = 0; s && k < V_COUNT; k++) {
        rvec *r = &s->v[k];
        if (!(mask >> k & 1) && r->dev && !r->loading) {
            cz_cuda_free(r->dev);
            r->dev = NULL;
        }
    }
}

/* Give back what a plan below RESIDENT does not keep: other sets, |keep|'s streamed vectors'
 * device copies, idle slots beyond the plan's. */
static void release_for_plan(cuda_backend_t *cb, rset *keep)
{
    const cz_devplan *p = &cb->plan;
    drop_other_sets(cb, keep);
    free_device_copies(keep, p->resident);
    if (p->slots < CZ__STAGE_SLOTS)
        (void)cz__cb_drop_idle_slots(cb);
}

static void free_own_windows(cuda_backend_t *cb)
{
    cz__cb_settle_ahead(cb);
    cz_cuda_free(cb->own_win[0]);
    cz_cuda_free(cb->own_win[1]);
    cb->own_win[0] = cb->own_win[1] = NULL;
}

/* The plan's MSM workspace, its bucket cap and its own window buffers, made where missing
 * (cmu held). */
int cz__cb_msm_room(cz_ctx_t *ctx, cuda_backend_t *cb)
{
    const cz_devplan *p = &cb->plan;
    const size_t chunk = p->msm_size >= 0 ? CZ__MSM_CHUNKS[p->msm_size] : 0;
    int rc;
    if (chunk && !cb->msm) {
        if ((rc = cz_cuda_msm_new(ctx, &cb->msm, cb->base.device_index, chunk)) != CZ_OK)
            return rc;
        cb->msm_chunk = chunk;
    }
    if (cb->msm)
        cz_cuda_msm_set_bucket_cap(cb->msm, p->bucket_cap);
    const size_t own = p->own_stream_buffers ? p->stream_bytes : 0;
    if (own && !cb->own_win[0]) {
        if ((rc = cz_cuda_malloc(ctx, &cb->own_win[0], own)) != CZ_OK ||
            (rc = cz_cuda_malloc(ctx, &cb->own_win[1], own)) != CZ_OK) {
            free_own_windows(cb);
            return rc;
        }
        cb->own_win_bytes = own;
    }
    return CZ_OK;
}

/* cz__cb_msm_room's bytes as the plan sizes them (the workspace's from the plan's own input). */
size_t cz__cb_msm_room_bytes(const cuda_backend_t *cb)
{
    const cz_devplan *p = &cb->plan;
    return (p->msm_size >= 0 ? cb->plan_in.msm_bytes[p->msm_size] : 0) + p->bucket_cap +
           (p->own_stream_buffers ? 2 * p->stream_bytes : 0);
}

/* What cz__cb_msm_room makes, given back (the H in turn's context takes its place). */
void cz__cb_give_back_msm_room(cuda_backend_t *cb)
{
    cz_cuda_msm_free(cb->msm);
    cb->msm = NULL;
    free_own_windows(cb);
}

/* The contexts the plan names, and nothing it does not (cmu held). */
static int apply_plan(cz_ctx_t *ctx, cuda_backend_t *cb, rset *keep, unsigned log_m)
{
    CZ_ASSERT(cz_mutex_held(&cb->cmu));
    const cz_devplan *p = &cb->plan;
    int rc = cz_cuda_set_device(ctx, cb->base.device_index);
    if (rc == CZ_OK) /* tests: memory taken (or an allocation failed) after the plan was made */
        rc = cz__fault_sim(cz_ctx_fault(ctx), ctx, CZ_FAULT_DEVICE_ALLOC);
    if (rc == CZ_OK)
        rc = cz__fault_sim(cb->base.fault, ctx, CZ_FAULT_DEVICE_ALLOC);
    if (rc != CZ_OK)
        return rc;
    if (p->level != CZ_DEVPLAN_RESIDENT)
        release_for_plan(cb, keep);
    if (!p->h_on_device) {
        cz_cuda_h_free(cb->h);
        cb->h = NULL;
        cb->h_log = 0;
    }
    if (!p->h_in_turn) {
        cz_cuda_h_free(cb->turn_h);
        cb->turn_h = NULL;
    }
    const size_t chunk = p->msm_size >= 0 ? CZ__MSM_CHUNKS[p->msm_size] : 0;
    if (cb->msm && cb->msm_chunk != chunk) {
        cz_cuda_msm_free(cb->msm);
        cb->msm = NULL;
    }
    const size_t own = p->own_stream_buffers ? p->stream_bytes : 0;
    if (cb->own_win[0] && cb->own_win_bytes != own)
        free_own_windows(cb);
    if (p->h_on_device &&
        (!cb->h || cb->h_log < log_m || cz_cuda_h_buffers(cb->h) != p->h_buffers)) {
        cz_cuda_h_free(cb->h);
        cb->h = NULL;
        if ((rc = cz_cuda_h_new_buffers(ctx, &cb->h, cb->base.device_index, log_m, p->h_buffers)) !=
            CZ_OK)
            return rc;
        cb->h_log = log_m;
    }
    if (p->streamed && !cb->copier &&
        (rc = cz_cuda_copier_new(ctx, &cb->copier, cb->base.device_index)) != CZ_OK)
        return rc;
    return cz__cb_msm_room(ctx, cb);
}

/*
 * Everything idle given back (cmu held): after an allocation failed, before a smaller plan.
 * |keep| (the set being planned for, which its region goes on using) loses its device
 * copies, not its place: dropped, it would lose its id and its next uploads be no set's,
 * never evicted nor found again.
 */
static void release_all(cuda_backend_t *cb, rset *keep)
{
    drop_other_sets(cb, keep);
    free_device_copies(keep, 0);
    (void)cz__cb_drop_idle_slots(cb);
    cz_cuda_h_free(cb->h);
    cb->h = NULL;
    cb->h_log = 0;
    cz__cb_give_back_msm_room(cb);
    cz_cuda_h_free(cb->turn_h);
    cb->turn_h = NULL;
}

/*
 * Plan and apply, for |w|'s set (cmu held). Device memory taken by someone
 * else between the plan and an allocation (another process, a sealing
 * pipeline on the same card) fails that allocation: everything idle is
 * given back and a plan made again from what is free then, once.
 */
int cz__cb_plan_region(cz_ctx_t *ctx, cuda_backend_t *cb, rset *keep, const cz_prove_work_t *w,
                       const rvec want[V_COUNT])
{
    int rc = CZ_OK;
    for (int attempt = 0; attempt < 2; attempt++) {
        if ((rc = make_plan(ctx, cb, w, want)) != CZ_OK)
            return rc;
        rc = apply_plan(ctx, cb, keep, w->log_m);
        if (rc != CZ_ENOMEM)
            return rc;
        release_all(cb, keep);
        CZ_ASSERT(!keep || keep->id == w->params_id);
        if (attempt == 0) {
            pthread_mutex_lock(&cb->smu);
            cb->replans++;
            pthread_mutex_unlock(&cb->smu);
            cz_ctx_clear(ctx); /* the failed allocation's message is not the region's */
        }
    }
    return rc;
}

/* Does the plan keep vector |k| resident (or try to: the RESIDENT level)? Stream it? */
bool cz__cb_plan_keeps(const cuda_backend_t *cb, int k)
{
    return cb->plan.level == CZ_DEVPLAN_RESIDENT || (cb->plan.resident >> k & 1);
}

bool cz__cb_plan_streams(const cuda_backend_t *cb, int k)
{
    return cb->plan.streamed >> k & 1;
}
