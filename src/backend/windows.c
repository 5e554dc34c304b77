/*
 * backend/windows.c — a params vector streamed in windows (windows.h).
 */
#include "backend/windows.h"

#include <stdbool.h>

#include "core/clock.h"

size_t cz_windows_stride(const cz_windows *ws, size_t point_bytes, size_t head, size_t align)
{
    const size_t fit = point_bytes ? ws->buf_bytes / point_bytes : 0;
    return fit > head && align ? (fit - head) / align * align : 0;
}

/* A vector's windows: window 0 is [0, head + lead), window j > 0 the |stride| points from
 * head + lead + (j - 1) stride (the last one shorter). */
typedef struct {
    size_t n, head, lead, stride;
} layout;

/* Window j's first point and length. */
static void window(const layout *l, size_t j, size_t *lo, size_t *len)
{
    const size_t b = j == 0 ? 0 : l->head + l->lead + (j - 1) * l->stride;
    const size_t e = l->head + l->lead + j * l->stride;
    *lo = b < l->n ? b : l->n;
    *len = (e < l->n ? e : l->n) - *lo;
}

static size_t window_count(const layout *l)
{
    const size_t first = l->head + l->lead;
    return l->n <= first ? 1 : 1 + (l->n - first + l->stride - 1) / l->stride;
}

/* |v|'s windows through |ws|, window 0 whole (|whole|: it was copied ahead) or as v->lead_div
 * asks; stride 0: no window fits. */
static layout layout_of(const cz_windows *ws, const cz_window_vector *v, bool whole)
{
    layout l = { v->n, v->head, 0, cz_windows_stride(ws, v->point_bytes, v->head, v->align) };
    l.lead = l.stride;
    if (!whole && v->lead_div > 1 && l.stride) { /* (a stride: align > 0) */
        const size_t part = l.stride / v->lead_div / v->align * v->align;
        l.lead = part ? part : v->align;
    }
    return l;
}

/* The bytes of |v|'s window 0, whole, through |ws| (what a copy ahead copies); 0: no window
 * fits. */
static size_t first_bytes(const cz_windows *ws, const cz_window_vector *v)
{
    const layout l = layout_of(ws, v, true);
    size_t lo, len;
    window(&l, 0, &lo, &len);
    return l.stride ? len * v->point_bytes : 0;
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
    const size_t pb = v->point_bytes;
    /* window 0 whole where it was copied ahead, or is filled (a fill has nothing to overlap) */
    const layout l = layout_of(ws, v, primed || !v->pinned);
    if (l.stride == 0) {
        (void)cz_windows_settle(NULL, ws, ahead);
        return cz_fail(ctx, CZ_EINVAL,
                       "stream: a window of more than %zu points does not fit %zu bytes", v->head,
                       ws->buf_bytes);
    }
    const size_t count = window_count(&l);
    const char *host = v->pinned;
    const int first = primed ? ahead->slot : 0;
    if (primed) {
        *ahead = (cz_window_ahead){ 0 };
        if (stats)
            stats->ahead++;
    }
    size_t lo, len;
    window(&l, 0, &lo, &len);
    if (host && !primed)
        rc = ws->copier.put(ctx, ws->copier.obj, first, ws->buf[first], host, len * pb);
    for (size_t j = 0; j < count && rc == CZ_OK; j++) {
        const int slot = (int)((j + (size_t)first) & 1);
        window(&l, j, &lo, &len);
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
            window(&l, j + 1, &nlo, &nlen);
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
