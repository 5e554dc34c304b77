/*
 * backend/windows.c — a params vector streamed in windows (windows.h).
 */
#include "backend/windows.h"

#include <stdbool.h>

#include "core/clock.h"

size_t cz_windows_stride(const cz_windows *ws, size_t point_bytes, size_t head, size_t align)
{
    const size_t fit = ws->buf_bytes / point_bytes;
    return fit > head && align ? (fit - head) / align * align : 0;
}

/* Window j's first point and length. */
static void window(size_t n, size_t head, size_t stride, size_t j, size_t *lo, size_t *len)
{
    const size_t b = j == 0 ? 0 : head + j * stride;
    const size_t e = head + (j + 1) * stride;
    *lo = b < n ? b : n;
    *len = (e < n ? e : n) - *lo;
}

/* The bytes of |v|'s window 0 through |ws|; 0: no window fits. */
static size_t first_bytes(const cz_windows *ws, const cz_window_vector *v)
{
    const size_t stride = cz_windows_stride(ws, v->point_bytes, v->head, v->align);
    size_t lo, len;
    window(v->n, v->head, stride, 0, &lo, &len);
    return stride ? len * v->point_bytes : 0;
}

int cz_windows_settle(cz_ctx_t *ctx, const cz_windows *ws, cz_window_ahead *ahead)
{
    if (!ahead || !ahead->src)
        return CZ_OK;
    const int slot = ahead->slot;
    *ahead = (cz_window_ahead){ 0 };
    return ws->copier.wait(ctx, ws->copier.obj, slot);
}

/* Is |ahead|'s copy |v|'s window 0, in the buffer of its slot? */
static bool is_first_window(const cz_windows *ws, const cz_window_ahead *ahead,
                            const cz_window_vector *v)
{
    return ahead && ahead->src && v->pinned && ahead->src == v->pinned &&
           ahead->bytes == first_bytes(ws, v);
}

/* During the last window: |next|'s window 0 into the free buffer |slot|, recorded in |ahead|. */
static int copy_ahead(cz_ctx_t *ctx, const cz_windows *ws, int slot, const cz_window_vector *next,
                      cz_window_ahead *ahead)
{
    const size_t bytes = next && next->pinned ? first_bytes(ws, next) : 0;
    if (!ahead || !bytes)
        return CZ_OK;
    const int rc = ws->copier.put(ctx, ws->copier.obj, slot, ws->buf[slot], next->pinned, bytes);
    if (rc == CZ_OK)
        *ahead = (cz_window_ahead){ next->pinned, bytes, slot };
    return rc;
}

int cz_windows_run(cz_ctx_t *ctx, const cz_windows *ws, const cz_window_vector *v,
                   cz_window_consume *consume, void *arg, cz_window_ahead *ahead,
                   const cz_window_vector *next, cz_window_stats *stats)
{
    const bool primed = is_first_window(ws, ahead, v); /* then v->n > 0 */
    int rc = primed ? CZ_OK : cz_windows_settle(ctx, ws, ahead);
    if (rc != CZ_OK || v->n == 0)
        return rc;
    const size_t pb = v->point_bytes, n = v->n, head = v->head;
    const size_t stride = cz_windows_stride(ws, pb, head, v->align);
    if (stride == 0) {
        (void)cz_windows_settle(NULL, ws, ahead);
        return cz_fail(ctx, CZ_EINVAL,
                       "stream: a window of more than %zu points does not fit %zu bytes", head,
                       ws->buf_bytes);
    }
    const size_t count = n <= head + stride ? 1 : 1 + (n - head - stride + stride - 1) / stride;
    const char *host = v->pinned;
    const int first = primed ? ahead->slot : 0;
    if (primed) {
        *ahead = (cz_window_ahead){ 0 };
        if (stats)
            stats->ahead++;
    }
    size_t lo, len;
    window(n, head, stride, 0, &lo, &len);
    if (host && !primed)
        rc = ws->copier.put(ctx, ws->copier.obj, first, ws->buf[first], host, len * pb);
    for (size_t j = 0; j < count && rc == CZ_OK; j++) {
        const int slot = (int)((j + (size_t)first) & 1);
        window(n, head, stride, j, &lo, &len);
        const double t0 = cz_mono_s();
        rc = host ? ws->copier.wait(ctx, ws->copier.obj, slot)
                  : v->fill(v->fill_arg, ws->buf[slot], lo, len);
        bool in_flight = false; /* a copy into the other buffer is enqueued */
        if (stats) {
            stats->wait_s += cz_mono_s() - t0;
            stats->bytes += len * pb;
            stats->windows++;
        }
        if (rc != CZ_OK)
            break;
        if (host && j + 1 < count) {
            size_t nlo, nlen;
            window(n, head, stride, j + 1, &nlo, &nlen);
            rc = ws->copier.put(ctx, ws->copier.obj, slot ^ 1, ws->buf[slot ^ 1], host + nlo * pb,
                                nlen * pb);
            in_flight = rc == CZ_OK;
        } else if (j + 1 == count) {
            rc = copy_ahead(ctx, ws, slot ^ 1, next, ahead);
            in_flight = rc == CZ_OK && ahead && ahead->src;
        }
        if (rc == CZ_OK)
            rc = consume(arg, ws->buf[slot], lo, len);
        if (rc != CZ_OK && in_flight) { /* that copy must land before we return */
            (void)ws->copier.wait(NULL, ws->copier.obj, slot ^ 1);
            if (ahead)
                *ahead = (cz_window_ahead){ 0 };
        }
    }
    return rc;
}
