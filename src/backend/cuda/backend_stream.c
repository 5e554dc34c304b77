/*
 * backend/cuda/backend_stream.c — a vector the plan streams, through the
 * plan's two window buffers (backend/windows.h): from its pinned host copy
 * by the copier, or filled through the bounce buffers; the next streamed
 * vector's first window copied ahead.
 */
#include "backend/cuda/backend_int.h"

/* The fill of a window without a pinned copy: through the region's bounce pair. */
typedef struct {
    cuda_backend_t *cb;
    cz_ctx_t *ctx;
    const cz_prove_work_t *w;
    int k;
} window_src;

static int fill_window(void *arg, void *dev, size_t first, size_t n)
{
    const window_src *src = arg;
    size_t total, pb;
    const void *host = cz_backend_bases(src->w, src->k, &total, &pb);
    (void)total;
    if (host)
        return cz__cb_upload_pageable(src->ctx, src->cb->bounce, CZ__FILL_REGION, dev,
                                      (const char *)host + first * pb, n * pb);
    cz__cb_ensure_pair(src->cb->bounce);
    fill_from from = { CZ__FILL_REGION, NULL, src->w, src->k, pb, first, true };
    if (!src->cb->bounce[0])
        return cz_fail(src->ctx, CZ_ENOMEM, "cuda: no pinned bounce buffers for a window");
    int rc = cz_cuda_upload_bounced(src->ctx, dev, n * pb, src->cb->bounce,
                                    CZ__BOUNCE_BYTES / pb * pb, cz__cb_fill_threads, &from);
    if (rc != CZ_OK && rc != CZ_EDEVICE)
        return cz_fail(src->ctx, rc, "cuda: params vector %d from its source: %s", src->k,
                       cz_strerror(rc));
    return rc;
}

static int copier_put(cz_ctx_t *ctx, void *obj, int slot, void *dst, const void *src, size_t bytes)
{
    return cz_cuda_copier_put(ctx, obj, slot, dst, src, bytes);
}

static int copier_wait(cz_ctx_t *ctx, void *obj, int slot)
{
    return cz_cuda_copier_wait(ctx, obj, slot);
}

/* The two window buffers of the plan: the H's idle ones, or the plan's own. */
static cz_windows plan_windows(const cuda_backend_t *cb)
{
    cz_windows ws = { { cb->copier, copier_put, copier_wait }, { NULL, NULL }, 0 };
    if (cb->own_win[0]) {
        ws.buf[0] = cb->own_win[0];
        ws.buf[1] = cb->own_win[1];
        ws.buf_bytes = cb->own_win_bytes;
    } else if (cb->h) {
        ws.buf[0] = cz_cuda_h_scratch(cb->h, 0);
        ws.buf[1] = cz_cuda_h_scratch(cb->h, 1);
        ws.buf_bytes = cz_cuda_h_buffer_bytes(cb->h);
    }
    return ws;
}

/* The window copied ahead, landed and dropped: its buffer is about to change hands (the
 * region's end, the H's next turn, the own windows freed). A failed wait is the next
 * region's to see: the copier's stream holds the error. */
void cz__cb_settle_ahead(cuda_backend_t *cb)
{
    if (cb->ahead.src) {
        const cz_windows ws = plan_windows(cb);
        (void)cz_windows_settle(NULL, &ws, &cb->ahead);
    }
}

/* The vector streamed after this one, for its window 0 to be copied ahead: |k|'s pinned copy
 * if it is ready now (the preparer done with it; never waited for), else none (.pinned NULL). */
cz_window_vector cz__cb_next_vector(const cuda_backend_t *cb, const rset *set, int k,
                                    const rvec *want, size_t head, size_t align)
{
    const rvec *r = &set->v[k];
    const bool ready = !cz__cb_preload_pending(cb, set, k) && cz__cb_same_vector(r, want) &&
                       r->pin.mem;
    return (cz_window_vector){ .pinned = ready ? r->pin.mem : NULL,
                               .point_bytes = want->point_bytes,
                               .n = want->n,
                               .head = head,
                               .align = align };
}

/*
 * The H MSM's first window, a quarter of a stride (windows.h, lead_div): the MSM consumes
 * its bases at ~12 GB/s, a quarter of the link's 55, so it starts after a quarter of a
 * window's copy (4 GiB windows: ~20 ms, not 77) and the next, whole window has landed
 * before the quarter is consumed. No vector is copied ahead into the H's buffers: they hold
 * the H until its MSM starts.
 */
#define CZ__H_LEAD_DIV 4u

/* Vector |k| of |w| streamed through the plan's windows to |consume|; |next| (NULL: none) the
 * vector streamed after it, whose window 0 is copied during this one's last window. */
int cz__cb_stream_vector(cz_ctx_t *ctx, cuda_backend_t *cb, rset *set, cz_prove_work_t *w, int k,
                         const rvec *want, size_t head, size_t align, cz_window_consume *consume,
                         void *arg, const cz_window_vector *next)
{
    window_src src = { cb, ctx, w, k };
    const cz_window_vector v = { .pinned = cz__cb_pinned_vector(cb, set, w, k, want),
                                 .fill = fill_window,
                                 .fill_arg = &src,
                                 .point_bytes = want->point_bytes,
                                 .n = want->n,
                                 .head = head,
                                 .align = align,
                                 .lead_div = k == V_H ? CZ__H_LEAD_DIV : 0 };
    const cz_windows ws = plan_windows(cb);
    cz_window_stats st = { 0 };
    int rc = cz_windows_run(ctx, &ws, &v, consume, arg, &cb->ahead, next, &st);
    cb->h2d_bytes += st.bytes;
    cb->region_ahead += st.ahead;
    w->t_stream_wait += st.wait_s;
    return rc;
}
