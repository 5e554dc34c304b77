/*
 * backend/cuda/backend_h.c — the region's H and the H MSM, as the plan has
 * them: the H on the device (from a and b staged, pinned or pageable), in
 * turn with the MSMs (its context and the MSM workspace take the same
 * memory one after the other) or on the CPU; the H MSM's bases resident,
 * streamed in windows, or the CPU's.
 */
#include <stdlib.h>

#include "backend/cuda/backend_int.h"
#include "backend/cpu/h.h"
#include "core/clock.h"
#include "core/pool.h"

/*
 * The H coefficients on the device. a and b staged in a device slot are
 * read there (a device copy, milliseconds); a and b pinned where they are
 * (cz__cb_pin: no slot) are copied by DMA on the H's copy stream; a and b left
 * pageable (pinning failed or is off) go first through the region's bounce
 * buffers, at ~3.5x the driver's pageable rate (4 GiB each at 2^27).
 */
static int h_coefficients(cz_ctx_t *ctx, cuda_backend_t *cb, cz_prove_work_t *w)
{
    if (w->staged) { /* a and b on the device already: the slot is free once they are read */
        const stage_slot *s = w->staged;
        const cz_fr *a = s->dev, *b = s->dev + ((size_t)1 << w->log_m);
        int rc = cz_cuda_h_compute(ctx, cb->h, a, b, NULL, w->rows, w->log_m);
        cz__cb_unstage(&cb->base, w);
        return rc;
    }
    if (w->c || w->pinned) /* DMA (pinned) or the driver's copies, on the H's copy stream */
        return cz_cuda_h_compute(ctx, cb->h, w->a, w->b, w->c, w->rows, w->log_m);
    if (w->rows > ((size_t)1 << w->log_m) || w->log_m > cb->h_log)
        return cz_fail(ctx, CZ_EMISMATCH, "cuda h: %zu rows > domain 2^%u", w->rows, w->log_m);
    const size_t bytes = w->rows * sizeof(cz_fr);
    int rc = cz__cb_upload_pageable(ctx, cb->bounce, CZ__FILL_REGION, cz_cuda_h_input(cb->h, 0),
                                    w->a, bytes);
    if (rc == CZ_OK)
        rc = cz__cb_upload_pageable(ctx, cb->bounce, CZ__FILL_REGION, cz_cuda_h_input(cb->h, 1),
                                    w->b, bytes);
    return rc == CZ_OK ? cz_cuda_h_compute_loaded(ctx, cb->h, w->rows, w->log_m, false) : rc;
}

/*
 * The H on the CPU (plans without room for the H context): from host a
 * and b (a partition staged before the plan changed has them on the
 * device: they come back), into a host vector of 2^log_m coefficients,
 * *coef: w->a, or one of the region's own (*owned, freed by the caller).
 */
static int h_on_cpu(cz_ctx_t *ctx, cuda_backend_t *cb, cz_prove_work_t *w, cz_fr **coef,
                    cz_fr **owned)
{
    const size_t m = (size_t)1 << w->log_m;
    cz_fr *a = w->a, *b = w->b;
    *owned = NULL;
    if (w->staged) {
        const stage_slot *slot = w->staged;
        cz_fr *ab = malloc(2 * m * sizeof(cz_fr));
        if (!ab)
            return cz_fail(ctx, CZ_ENOMEM, "cuda h on the cpu: a and b (%zu bytes)",
                           2 * m * sizeof(cz_fr));
        int rc = cz_cuda_memcpy_dtoh(ctx, ab, slot->dev, w->rows * sizeof(cz_fr));
        if (rc == CZ_OK)
            rc = cz_cuda_memcpy_dtoh(ctx, ab + m, slot->dev + m, w->rows * sizeof(cz_fr));
        cz__cb_unstage(&cb->base, w);
        if (rc != CZ_OK) {
            free(ab);
            return rc;
        }
        a = *owned = ab;
        b = ab + m;
    }
    if (!cb->cpu_dom || cz_ntt_domain_log_n(cb->cpu_dom) != w->log_m) {
        cz_ntt_domain_free(cb->cpu_dom);
        cb->cpu_dom = NULL;
        int rc = cz_ntt_domain_new(ctx, &cb->cpu_dom, w->log_m);
        if (rc != CZ_OK)
            return rc;
    }
    *coef = a;
    return cz_cpu_compute_h(ctx, cb->cpu_dom, a, b, w->c, w->rows);
}

/*
 * The H on the device in turn with the MSMs (plan.h_in_turn: room for the
 * two-buffer H context or for the MSM workspace and the windows, not
 * both): the workspace and the windows are given back, the context made,
 * the H computed from a and b in host memory (through the bounce buffers);
 * then the context gives back all but its result and the workspace and
 * the windows are made again beside it, where the plan's budget has room
 * for both (the H MSM then reads the coefficients where they are: *coef
 * NULL, *kept; cb->turn_h's result until cz__cb_h_part gives it back); else the
 * coefficients come into a, where the CPU's H would leave them (*coef =
 * w->a), and the whole context is given back first. *made: the
 * coefficients are made (a failure after that is the MSMs' room's; before
 * it, a still holds its own values). cmu held.
 */
static int h_in_turn(cz_ctx_t *ctx, cuda_backend_t *cb, cz_prove_work_t *w, cz_fr **coef,
                     bool *made, bool *kept)
{
    CZ_ASSERT(cz_mutex_held(&cb->cmu));
    const size_t m = (size_t)1 << w->log_m;
    cz__cb_give_back_msm_room(cb);
    int rc = CZ_OK;
    if (cb->turn_h && cb->turn_h_log >= w->log_m) {
        rc = cz_cuda_h_take_back(ctx, cb->turn_h);
    } else {
        cz_cuda_h_free(cb->turn_h);
        cb->turn_h = NULL;
        rc = cz_cuda_h_new_buffers(ctx, &cb->turn_h, cb->base.device_index, w->log_m, 2);
        cb->turn_h_log = rc == CZ_OK ? w->log_m : 0;
    }
    cz_cuda_h *h = cb->turn_h;
    if (rc == CZ_OK && (w->c || w->pinned)) {
        rc = cz_cuda_h_compute(ctx, h, w->a, w->b, w->c, w->rows, w->log_m);
    } else if (rc == CZ_OK) {
        const size_t bytes = w->rows * sizeof(cz_fr);
        rc = cz__cb_upload_pageable(ctx, cb->bounce, CZ__FILL_REGION, cz_cuda_h_input(h, 0), w->a,
                                    bytes);
        if (rc == CZ_OK)
            rc = cz__cb_upload_pageable(ctx, cb->bounce, CZ__FILL_REGION, cz_cuda_h_input(h, 1),
                                        w->b, bytes);
        if (rc == CZ_OK)
            rc = cz_cuda_h_compute_loaded(ctx, h, w->rows, w->log_m, false);
    }
    *made = rc == CZ_OK;
    *kept = false;
    if (rc == CZ_OK)
        cz_cuda_h_give_back_idle(h); /* the result (and the tables) stay */
    if (rc == CZ_OK && !cb->opts.h_via_host &&
        cz_cuda_h_held_bytes(h) + cz__cb_msm_room_bytes(cb) <= cb->plan_in.budget) {
        rc = cz__cb_msm_room(ctx, cb);
        *kept = rc == CZ_OK;
        *coef = NULL;
        if (rc != CZ_ENOMEM) {
            if (rc != CZ_OK)
                cz_cuda_h_give_back(h);
            return rc;
        }
        /* the device refused the room beside the result after all: the host way */
        cz_ctx_clear(ctx);
        rc = CZ_OK;
        cz__cb_give_back_msm_room(cb);
    }
    if (rc == CZ_OK)
        rc = cz_cuda_h_download(ctx, h, w->a, m);
    if (h)
        cz_cuda_h_give_back(h);
    *coef = w->a;
    const int room = cz__cb_msm_room(ctx, cb); /* made again, also after a failure */
    return rc != CZ_OK ? rc : room;
}

/* One window of the H MSM: the window's terms of |t| (the whole vector's) into |acc|. */
typedef struct {
    cuda_backend_t *cb;
    cz_ctx_t *ctx;
    const cz_cuda_msm_terms *t;
    blst_p1 acc;
} h_windows;

static int h_window(void *arg, const void *dev, size_t first, size_t n)
{
    h_windows *hw = arg;
    cz_cuda_msm_terms t = *hw->t;
    t.n = first + n <= t.n ? n : t.n > first ? t.n - first : 0;
    t.scalars = (const char *)t.scalars + first * sizeof(cz_fr);
    blst_p1 part;
    int rc = cz_cuda_msm_run(hw->ctx, hw->cb->msm, 1, &part, dev, &t);
    if (rc == CZ_OK)
        blst_p1_add_or_double(&hw->acc, &hw->acc, &part);
    return rc;
}

/*
 * The H MSM over the coefficients: on the device (|coef| NULL: |on_dev|'s
 * result, cb->h's or the H in turn's) or in host memory (|coef|: the CPU's
 * H, Montgomery form, which the CPU path converts in place). The bases
 * resident, streamed, or (not resident, not streamed) the CPU's.
 */
static int h_msm(cz_ctx_t *ctx, cuda_backend_t *cb, rset *set, cz_prove_work_t *w,
                 const rvec want[V_COUNT], cz_fr *coef, cz_cuda_h *on_dev,
                 const cz_window_vector *next)
{
    const size_t m = (size_t)1 << w->log_m;
    int rc = CZ_OK;
    const void *dev = cz__cb_plan_keeps(cb, V_H)
                          ? cz__cb_ensure_vector(ctx, cb, set, w, V_H, &want[V_H], &rc)
                          : NULL;
    if (rc != CZ_OK)
        return rc;
    /* the coefficients are not read after the MSM: it may convert them in place */
    cz_cuda_msm_terms t = { .n = m - 1,
                            .scalars = coef ? (const void *)coef : cz_cuda_h_result(on_dev),
                            .scalars_on_device = !coef,
                            .scalars_montgomery = true,
                            .scalars_scratch = !coef };
    const double t0 = cz_mono_s(); /* the upload is t_upload's */
    if (dev) {
        rc = cz_cuda_msm_run(ctx, cb->msm, 1, &w->h, dev, &t);
    } else if (cz__cb_plan_streams(cb, V_H)) {
        h_windows hw = { .cb = cb, .ctx = ctx, .t = &t }; /* acc: Z = 0, infinity */
        rc = cz__cb_stream_vector(ctx, cb, set, w, V_H, &want[V_H], 0, 1, h_window, &hw, next);
        w->h = hw.acc;
    } else {
        /* the CPU's MSM over host coefficients (into a, no longer needed; staged partitions
         * gave theirs back: a buffer of its own) */
        cz_fr *host = coef ? coef : w->a ? w->a : malloc((m - 1) * sizeof(cz_fr));
        if (!host)
            return cz_fail(ctx, CZ_ENOMEM, "cuda h: %zu coefficients for the CPU MSM", m - 1);
        if (!coef)
            rc = cz_cuda_h_download(ctx, on_dev, host, m - 1);
        if (rc == CZ_OK)
            cz_fr_to_scalars_inplace(cz_ctx_pool(ctx), host, m - 1);
        if (rc == CZ_OK)
            rc = cz_backend_host_bases(ctx, w, 1u << V_H);
        if (rc == CZ_OK)
            rc = cz_g1_msm(ctx, &w->h, w->h_bases, (const blst_scalar *)host, m - 1);
        if (host != w->a && host != coef)
            free(host);
    }
    w->t_msm_h = cz_mono_s() - t0;
    return rc;
}

/* The H coefficients (on the device, or the CPU where the plan has no H context) and the
 * H MSM; the region's |last| H MSM copies the first streamed tail's window 0 ahead. */
int cz__cb_h_part(cz_ctx_t *ctx, cuda_backend_t *cb, rset *set, cz_prove_work_t *w,
                  const rvec want[V_COUNT], bool last)
{
    int rc = cz_backend_step(ctx, w, "H");
    if (rc != CZ_OK)
        return rc;
    double t0 = cz_mono_s();
    cz_fr *coef = NULL, *owned = NULL;
    bool made = false, kept = false;
    if (cb->plan.h_on_device)
        rc = h_coefficients(ctx, cb, w);
    else if (cb->plan.h_in_turn && !w->staged) /* (staged before the plan changed: the CPU) */
        rc = h_in_turn(ctx, cb, w, &coef, &made, &kept);
    else
        rc = h_on_cpu(ctx, cb, w, &coef, &owned);
    if (rc == CZ_ENOMEM && cb->plan.h_in_turn && !w->staged && !made) {
        /* the context's turn found the memory taken (a untouched): this partition's H on
         * the CPU, once the MSMs' room is back */
        cz_ctx_clear(ctx);
        if ((rc = cz__cb_msm_room(ctx, cb)) == CZ_OK)
            rc = h_on_cpu(ctx, cb, w, &coef, &owned);
    }
    w->t_ntt = cz_mono_s() - t0;
    if (rc == CZ_OK)
        rc = cz_backend_step(ctx, w, "MSM h");
    const double waited = w->t_stream_wait;
    const cz_window_vector next = last ? cz__cb_next_streamed_tail(cb, set, w, want, -1)
                                       : (cz_window_vector){ 0 };
    if (rc == CZ_OK)
        rc = h_msm(ctx, cb, set, w, want, coef, kept ? cb->turn_h : cb->h, &next);
    w->t_stream_wait_h += w->t_stream_wait - waited;
    if (kept) /* the in-turn result: the next turn makes the buffers again */
        cz_cuda_h_give_back(cb->turn_h);
    free(owned);
    return rc;
}
