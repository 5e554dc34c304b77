/*
 * backend/windows.h — a params vector streamed through the device in
 * windows (the CUDA backend's STREAM plans, backend/devplan.h), and the
 * next vector's first window copied ahead.
 *
 * Points [0, n) of a vector go host -> device in windows: window 0 is
 * [0, head + lead), each next one the following |stride| points (the
 * last one shorter), stride the largest multiple of |align| points for
 * which head + stride fits a buffer, lead = stride or, for a vector that
 * asks for it, a fraction of it (lead_div below). Each window lands in
 * one of two device buffers and is handed to |consume| (which runs its
 * MSMs, synchronously); meanwhile the next window's copy runs on the
 * copier. From a pinned host copy of the vector the copies are
 * asynchronous and overlap the MSMs; without one (pinning failed) |fill|
 * uploads each window synchronously.
 *
 * Copied ahead: while a vector's last window is consumed the copier is
 * idle and the other buffer free. Given |next| (the vector streamed after
 * this one, from its pinned copy), the run copies that vector's window 0
 * there and records it in |ahead|; the next run finds it there and starts
 * on it instead of waiting for a whole window's copy before its first MSM
 * (4 GiB at ~55 GB/s: ~77 ms, three times in a region of a 24 GB card). A
 * run whose vector is not the one copied ahead waits for that copy first
 * (the buffer is about to be reused) and drops it.
 *
 * The copier is an interface (the CUDA backend's: a stream of its own and
 * an event per slot) so that the schedule is plain C, tested without a
 * GPU (tests/backend/test_windows.c).
 *
 * Memory: borrowed; the buffers and the copier belong to the caller, who
 * must not touch the buffers while a run is going, nor free them while
 * |ahead| holds a copy (cz_windows_settle first). Thread-safety: one run
 * per cz_windows at a time. Errors: the first of the copies', fill's or
 * consume's; every copy enqueued has landed when cz_windows_run returns,
 * except the one it records in |ahead| (a run that fails records none) and
 * one whose wait failed (the device's error: nothing of it is consumed).
 */
#ifndef CUZK_BACKEND_WINDOWS_H
#define CUZK_BACKEND_WINDOWS_H

#include <stddef.h>

#include "core/ctx.h"

typedef int cz_window_consume(void *arg, const void *dev, size_t first, size_t n);
typedef int cz_window_fill(void *arg, void *dev, size_t first, size_t n);

/*
 * Host -> device copies in two slots: put enqueues a copy and returns; wait
 * blocks until the slot's last put (and every put before it) has landed.
 */
typedef struct {
    void *obj;
    int (*put)(cz_ctx_t *ctx, void *obj, int slot, void *dst, const void *src, size_t bytes);
    int (*wait)(cz_ctx_t *ctx, void *obj, int slot);
} cz_window_copier;

typedef struct {
    cz_window_copier copier;
    void *buf[2];
    size_t buf_bytes; /* each */
} cz_windows;

/*
 * A vector to stream: |pinned| its points in pinned host memory, or NULL: |fill| uploads each
 * window. |lead_div| (0 or 1: none): where its window 0 was not copied ahead, that window holds
 * head + stride / lead_div points (a multiple of align, at least align) and the next ones a
 * stride each from there: a consumer slower than the link (the dense H MSM: ~12 GB/s of bases
 * against a 55 GB/s copy) waits for a short copy, not a whole window's, and the next window's
 * copy still lands before that short one is consumed (so lead_div ~4: a window copied 4 times
 * faster than it is consumed).
 */
typedef struct {
    const void *pinned;
    cz_window_fill *fill;
    void *fill_arg;
    size_t point_bytes, n, head, align;
    unsigned lead_div;
} cz_window_vector;

/* The copy a run left in flight: the next vector's window 0. src NULL: none. */
typedef struct {
    const void *src;
    size_t bytes;
    int slot;
} cz_window_ahead;

typedef struct {
    size_t bytes; /* copied to the device (a window copied ahead: by the run that consumes it) */
    unsigned windows;
    unsigned ahead; /* windows 0 found copied ahead */
    double wait_s;  /* the MSMs waited for copies (or fills) this long */
} cz_window_stats;

/* The largest stride (a multiple of |align| points) for which window 0 fits a buffer; 0: none
 * (also for no alignment or zero-sized points). */
size_t cz_windows_stride(const cz_windows *ws, size_t point_bytes, size_t head, size_t align);

/*
 * Stream |v| through |ws| to |consume|. |ahead| (NULL: no copies ahead,
 * either way) holds what the previous run copied ahead, and on return what
 * this one did: |next|'s window 0 (NULL, or not pinned: none).
 */
int cz_windows_run(cz_ctx_t *ctx, const cz_windows *ws, const cz_window_vector *v,
                   cz_window_consume *consume, void *arg, cz_window_ahead *ahead,
                   const cz_window_vector *next, cz_window_stats *stats);

/* Wait for the copy |ahead| holds, if any, and drop it (before the buffers change hands). */
int cz_windows_settle(cz_ctx_t *ctx, const cz_windows *ws, cz_window_ahead *ahead);

#endif /* CUZK_BACKEND_WINDOWS_H */
