/*
 * backend/cuda/cuda_backend.c — the CUDA backend (backend.h): the whole
 * device region of a partition on one GPU.
 *
 * The region, with the device lock held:
 *   1. H: a, b (and c, or c = a∘b on the device) uploaded and transformed
 *      (cz_cuda_h); the coefficients stay on the device;
 *   2. the H MSM, its scalars read in place from the H result;
 *   3. the wait for prep (it normally finished long before: W=2 overlaps it);
 *   4. L, A, B1 (G1) and B2 (G2): inputs by a small MSM, the ones by batch
 *      addition over the bitmap, the significant rest by an MSM over
 *      gathered bases (the split's bitmap, indices and scalars read where
 *      prep staged them on the device, else uploaded from the host).
 * Everything runs on the device except sums of a few points (blst).
 *
 * Resident bases: a params set's vectors (h, l, a, b_g1, b_g2) are uploaded
 * on its first region and kept, up to CZ__RESIDENT_SETS sets, least recently
 * used evicted first, while they fit device_mem_limit and the device's free
 * memory. Where the whole set does not fit, each region's plan
 * (backend/devplan.h, made from the memory free at that moment: make_plan,
 * apply_plan) keeps some vectors resident and streams the others through
 * the device in windows (windows.h) from pinned host copies made once per
 * set; where not even the H context fits the H is made on the CPU, and
 * where nothing fits the MSMs run on the CPU from the host bases (slower,
 * but the partition is proved). A set is
 * recognised by params_id plus a fingerprint (the vectors' lengths and
 * first and last points), so a params object freed and other params loaded
 * at the same address are told apart; params that differ from the freed
 * ones only inside a vector are not (a params file must not change under
 * a running prover: tests/gpu shows the case). The host bases are read
 * from the work item's source when its pointers are NULL (backend.h):
 * params kept out of host memory stay out of it.
 *
 * Staging (outside the device lock): a and b are uploaded into one of
 * CZ__STAGE_SLOTS device buffers while another partition's region runs, so
 * the region's H starts on data already on the device; its first step
 * copies them into the H context and gives the slot back. The slots are
 * sized under cmu (by the preparer, and at a region's end) only where the
 * device has room beside the resident params, which come first (make_room
 * drops idle slots before it gives up on a vector). Without a slot a
 * partition goes unstaged: its region uploads a and b itself, through
 * bounce buffers. (Pinned host slots came before: 16 GiB of host memory at
 * 2^27, seconds of pinning at a cold start, and the region still uploaded.)
 * The three scalar splits go the same way into CZ__STAGE_SLOTS tails slots,
 * uploaded by prep's thread once it built them (stage_tails), so the tails
 * no longer upload their bitmaps, indices and scalars inside the region
 * (~0.5 GB, 108 ms, in the 32GiB-shaped bench partition; far less in real
 * PoRep partitions, whose splits have fewer significant scalars). A tails slot is taken without waiting (prep
 * must not wait on a region that waits for it) and held until the
 * partition is released; a miss leaves the splits on the host and records
 * their size, and the next region's end sizes the idle tails slots to it.
 *
 * One device context (H buffers, MSM workspace, resident sets) serves all
 * of the device's workers: the engine calls device() under the device's
 * lock, so calls never overlap (ARCHITECTURE.md); the memory is per device,
 * not per worker. prepare() (at a job's submission) makes the H and MSM
 * contexts and the bounce buffers on a thread of its own (done in the first
 * region they cost it seconds at 32GiB), and the staging slots when the
 * whole set fits beside them. Then it uploads the
 * params set, one vector at a time, h first, each copy with cmu released
 * and the vector marked loading: the first region starts meanwhile (its H
 * needs no params) and waits for a vector only where it needs it. The
 * contexts and the resident sets are guarded by cmu, which the region
 * holds throughout (but for those waits) and the preparer while it makes
 * the contexts and claims or publishes a vector (lock order: the engine's
 * device lock, cmu, smu; cmu is never taken with smu held). A set with a
 * vector loading is never evicted.
 *
 * Errors: a CUDA failure is CZ_EDEVICE with CUDA's message; after a sticky
 * fault every later region fails the same way and the engine marks the
 * device failed. A fired DEVICE fault site (core/fault.h: the ctx's or
 * the backend's own fault object) makes the region hit a real kernel fault.
 * Cancellation and DEVICE_STEP faults: cz_backend_step before each step.
 *
 * The code is one file per concern, listed in backend_int.h with the
 * state they share and the locks each function needs; this one holds the
 * ops table, the backend's creation, its report and its end.
 */
#include <pthread.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>

#include "backend/cuda/backend_int.h"

static int cuda_device(cz_backend_t *be, cz_ctx_t *ctx, cz_prove_work_t *w)
{
    cz_batch_result res;
    int rc = cz__cb_region_of((cuda_backend_t *)be, ctx, &w, 1, &res);
    if (rc == CZ_OK && res.rc != CZ_OK) /* canceled, or its prep failed: the message kept */
        rc = cz_fail(ctx, res.rc, "%s", res.why);
    return rc;
}

static int cuda_device_batch(cz_backend_t *be, cz_ctx_t *ctx, cz_prove_work_t *const *ws, size_t n,
                             cz_batch_result *res)
{
    return cz__cb_region_of((cuda_backend_t *)be, ctx, ws, n, res) == CZ_EDEVICE ? CZ_EDEVICE
                                                                                 : CZ_OK;
}

static unsigned cuda_batch_max(cz_backend_t *be, const cz_prove_work_t *w)
{
    (void)w;
    return atomic_load(&((cuda_backend_t *)be)->batch_advice);
}

static void cuda_free_backend(cz_backend_t *be)
{
    cuda_backend_t *cb = (cuda_backend_t *)be;
    if (cb->preparer_joinable)
        pthread_join(cb->preparer, NULL);
    cz_cuda_set_device(NULL, be->device_index); /* a NULL ctx drops the message */
    for (int s = 0; s < CZ__RESIDENT_SETS; s++)
        cz__cb_drop_set(cb, &cb->sets[s]);
    for (int s = 0; s < CZ__STAGE_SLOTS; s++) {
        cz_cuda_free(cb->slots[s].dev);
        cz_cuda_free(cb->tslots[s].dev);
        cz_cuda_host_free(cb->slots[s].bounce[0]);
        cz_cuda_host_free(cb->slots[s].bounce[1]);
    }
    for (int i = 0; i < 2; i++) {
        cz_cuda_host_free(cb->bounce[i]);
        cz_cuda_host_free(cb->pbounce[i]);
    }
    pthread_cond_destroy(&cb->ccv);
    pthread_cond_destroy(&cb->scv);
    pthread_mutex_destroy(&cb->smu);
    cz_mutex_destroy(&cb->cmu);
    cz_cuda_h_free(cb->h);
    cz_cuda_h_free(cb->turn_h);
    cz_cuda_msm_free(cb->msm);
    cz_cuda_copier_free(cb->copier);
    cz_cuda_free(cb->own_win[0]);
    cz_cuda_free(cb->own_win[1]);
    cz_ntt_domain_free(cb->cpu_dom);
    free(cb);
}

static void cuda_report(cz_backend_t *be, cz_backend_report *out)
{
    cuda_backend_t *cb = (cuda_backend_t *)be;
    pthread_mutex_lock(&cb->smu);
    snprintf(out->plan, sizeof out->plan, "%s", cb->plan_line);
    out->regions = cb->regions;
    out->partitions = cb->partitions;
    out->h2d_bytes = cb->h2d_total;
    out->replans = cb->replans;
    out->parts = cb->parts;
    out->splits_in_region = cb->splits_moved;
    out->pinned = cb->pinned;
    out->windows_ahead = cb->windows_ahead;
    pthread_mutex_unlock(&cb->smu);
}

static const cz_backend_ops_t cuda_ops = {
    .name = "cuda",
    .device = cuda_device,
    .free = cuda_free_backend,
    .stage = cz__cb_stage,
    .unstage = cz__cb_unstage,
    .stage_tails = cz__cb_stage_tails,
    .unstage_tails = cz__cb_unstage_tails,
    .pin = cz__cb_pin,
    .unpin = cz__cb_unpin,
    .prepare = cz__cb_prepare,
    .settle = cz__cb_settle,
    .report = cuda_report,
    .batch_max = cuda_batch_max,
    .device_batch = cuda_device_batch,
};

int cz_cuda_backend_new(cz_ctx_t *ctx, cz_backend_t **out, int device_index,
                        const cz_cuda_backend_opts_t *opts)
{
    *out = NULL;
    char why[256];
    if (cz_cuda_probe(why, sizeof why) != CZ_OK)
        return cz_fail(ctx, CZ_EUNAVAIL, "cuda backend: %s", why);
    if (device_index < 0 || device_index >= cz_cuda_device_count())
        return cz_fail(ctx, CZ_EUNAVAIL, "cuda backend: no device %d (%d usable)", device_index,
                       cz_cuda_device_count());
    int rc = cz_cuda_set_device(ctx, device_index);
    /* the kernels' local memory out of the free memory before any plan reads it; where
     * even that does not fit now, the first launch reserves it later, as without this */
    if (rc == CZ_OK && cz_cuda_reserve_stack(ctx, cz_cuda_msm_stack_bytes()) != CZ_OK)
        cz_ctx_clear(ctx);
    size_t free_b = 0, total_b = 0;
    if (rc == CZ_OK)
        rc = cz_cuda_mem_info(ctx, &free_b, &total_b);
    if (rc != CZ_OK)
        return rc;
    cuda_backend_t *cb = calloc(1, sizeof *cb);
    if (!cb)
        return cz_fail(ctx, CZ_ENOMEM, "cuda backend");
    cb->base.ops = &cuda_ops;
    cb->base.device_index = device_index;
    pthread_mutex_init(&cb->smu, NULL);
    pthread_cond_init(&cb->scv, NULL);
    cz_mutex_init(&cb->cmu);
    pthread_cond_init(&cb->ccv, NULL);
    if (opts)
        cb->opts = *opts;
    atomic_init(&cb->batch_advice, 1);
    cb->limit = cb->opts.device_mem_limit ? cb->opts.device_mem_limit
                                          : (total_b > CZ__HEADROOM ? total_b - CZ__HEADROOM : 0);
    *out = &cb->base;
    return CZ_OK;
}
