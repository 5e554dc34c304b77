/*
 * backend/cuda/windows.c — a params vector streamed in windows (windows.h).
 */
#include "backend/cuda/windows.h"

#include "core/clock.h"

size_t cz_windows_stride(const cz_windows *ws, size_t point_bytes, size_t head, size_t align)
{
    const size_t fit = ws->buf_bytes / point_bytes;
    return fit > head ? (fit - head) / align * align : 0;
}

/* Window j's first point and length. */
static void window(size_t n, size_t head, size_t stride, size_t j, size_t *lo, size_t *len)
{
    const size_t b = j == 0 ? 0 : head + j * stride;
    const size_t e = head + (j + 1) * stride;
    *lo = b < n ? b : n;
    *len = (e < n ? e : n) - *lo;
}

int cz_windows_run(cz_ctx_t *ctx, const cz_windows *ws, const void *pinned, cz_window_fill *fill,
                   void *fill_arg, size_t point_bytes, size_t n, size_t head, size_t stride,
                   cz_window_consume *consume, void *arg, cz_window_stats *stats)
{
    if (n == 0)
        return CZ_OK;
    if (stride == 0 || (head + stride) * point_bytes > ws->buf_bytes)
        return cz_fail(ctx, CZ_EINVAL, "stream: a window of %zu points does not fit %zu bytes",
                       head + stride, ws->buf_bytes);
    const size_t count = n <= head + stride ? 1 : 1 + (n - head - stride + stride - 1) / stride;
    const char *host = pinned;
    size_t lo, len;
    int rc = CZ_OK;
    window(n, head, stride, 0, &lo, &len);
    if (host)
        rc = cz_cuda_copier_put(ctx, ws->copier, 0, ws->buf[0], host, len * point_bytes);
    for (size_t j = 0; j < count && rc == CZ_OK; j++) {
        const int slot = (int)(j & 1);
        window(n, head, stride, j, &lo, &len);
        const double t0 = cz_mono_s();
        rc = host ? cz_cuda_copier_wait(ctx, ws->copier, slot)
                  : fill(fill_arg, ws->buf[slot], lo, len);
        bool in_flight = false; /* the next window's copy is enqueued */
        if (stats) {
            stats->wait_s += cz_mono_s() - t0;
            stats->bytes += len * point_bytes;
            stats->windows++;
        }
        if (rc != CZ_OK)
            break;
        if (host && j + 1 < count) {
            size_t nlo, nlen;
            window(n, head, stride, j + 1, &nlo, &nlen);
            rc = cz_cuda_copier_put(ctx, ws->copier, slot ^ 1, ws->buf[slot ^ 1],
                                    host + nlo * point_bytes, nlen * point_bytes);
            in_flight = rc == CZ_OK;
        }
        if (rc == CZ_OK)
            rc = consume(arg, ws->buf[slot], lo, len);
        if (rc != CZ_OK && in_flight) /* the next window's copy must land before we return */
            (void)cz_cuda_copier_wait(NULL, ws->copier, slot ^ 1);
    }
    return rc;
}
